/*
 * index_time.c - start-up cost of the launcher's PC index: times
 * vp_index_build (its own build_ms) on one executable, as `vprof record`
 * does before the target starts.  Usage: index_time ELF OUT.index
 */
#include <stdio.h>

#include <vprof/index.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: index_time ELF OUT.index\n");
        return 2;
    }
    char err[512];
    struct vp_index_stats st;
    const char *paths[] = {argv[1]};
    if (vp_index_build(paths, 1, argv[2], &st, err, sizeof err) != 0) {
        fprintf(stderr, "index_time: %s\n", err);
        return 1;
    }
    printf("build_ms=%.3f ranges=%u recipes=%u\n", st.build_ms, st.ranges, st.recipes);
    return 0;
}
