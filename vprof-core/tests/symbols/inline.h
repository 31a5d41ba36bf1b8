/* Helpers of inline.c, inlined into its loop (tests/symbols). */
static inline __attribute__((always_inline)) int mix(int v)
{
    return (v ^ (v >> 3)) * 2654435761u; /* @mix_body */
}

static inline __attribute__((always_inline)) int step(int v)
{
    int w = v + 7;
    return mix(w) + (w & 1); /* @step_call */
}
