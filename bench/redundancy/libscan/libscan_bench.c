/*
 * bench/redundancy/libscan: the cost of the repeated-call units of C library
 * scans (docs/redundancy.md, "Library scans") in loops that call them in
 * every iteration.  The four loops of redundancy/test/e2e/libc-scan.c, run
 * longer: escape() (strlen in its condition, 20,000 instances of 400
 * iterations), count() (strlen of a rewritten buffer, 4,000,000), fixed_cmp()
 * and rolling_cmp() (memcmp, 4,000,000 each).  ab.sh builds it with and
 * without the units (-mllvm -vprof-repeated-calls=0) and times both with
 * the four functions selected.  The program is the test's own (included,
 * with larger sizes), so the bench measures what the test checks.
 */
#define SCAN_LEN 400
#define SCAN_ROUNDS 20000
#define SCAN_COUNTS 4000000
#define SCAN_CMPS 4000000
#include "../../../redundancy/test/e2e/libc-scan.c"
