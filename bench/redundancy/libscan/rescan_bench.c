/*
 * bench/redundancy/libscan: the cost of the string-rescan pairs
 * (docs/redundancy.md, "Strings scanned again"): the loops of
 * redundancy/test/e2e/string-rescan.c (strcat's Schlemiel loop, strlen of a
 * growing buffer, strstr of a growing text, strlen of fresh 4 KiB rows,
 * strcmp against a key), run 8 times longer.  Measured with
 *   OFF_FLAGS="-mllvm -vprof-prefix-pairs=0" FUNCS=join,append,grow,fresh,lookup \
 *     bench/redundancy/libscan/ab.sh build 41 bench/redundancy/libscan/rescan_bench.c
 * (the units on in both builds, the pairs only in "on").
 */
#define RESCAN_REPEAT 8
#include "../../../redundancy/test/e2e/string-rescan.c"
