/* Helpers of inline.c, inlined into its loop (tests/symbols). */
static inline __attribute__((always_inline)) int rot(int v)
{
    return (int)(((unsigned)v << 5) | ((unsigned)v >> 27)) * 2654435761u; /* @rot_body */
}

static inline __attribute__((always_inline)) int mix(int v)
{
    return rot(v ^ (v >> 3)) + (v >> 11); /* @mix_body */
}

static inline __attribute__((always_inline)) int step(int v)
{
    int w = v + 7;
    return mix(w) + (w & 1); /* @step_call */
}
