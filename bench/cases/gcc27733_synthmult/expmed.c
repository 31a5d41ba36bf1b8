/*
 * gcc27733_synthmult -- a slice of GCC's expmed.c: choosing a shift/add
 * sequence for multiplication by a constant (synth_mult) with a memoization
 * hash, and the RTL expansion that uses it.
 *
 * Modelled on GCC bug 27733 (LDoctor Figure 1 / Table 3: cross-iteration
 * redundancy in the recursive synth_mult, fixed by better memoization).  The
 * hash entry stores t as `unsigned int` while t is an unsigned HOST_WIDE_INT,
 * so for multipliers wider than 32 bits the check `alg_hash[h].t == t` never
 * succeeds and the same sub-multipliers are synthesized again and again.
 *
 * The constants are fixed by SEED and multiplied in every expression, as in
 * the bug report (the same large constants in many multiplications); until
 * 2026-11-22 each expression drew new ones, so no sub-multiplier was
 * synthesized more than a few times and the redundancy, a matter of
 * repetition, was out of reach of a 1-in-1,000 sample (docs/redundancy.md).
 *
 * usage: gcc27733_synthmult NCONSTANTS WIDE(0|1) NEXPR SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define NUM_ALG_HASH_ENTRIES 1031

typedef unsigned long long HOST_WIDE_INT_U;

struct alg_hash_entry {
    unsigned int t;            /* BUG: should be unsigned HOST_WIDE_INT */
    int mode;
    int cost;
    int valid;
};

static struct alg_hash_entry alg_hash[NUM_ALG_HASH_ENTRIES];
static uint64_t synth_calls, hash_hits;
static const int add_cost = 1, shift_cost = 1;

/* expmed.c: cost of the cheapest shift/add sequence computing x * t */
NOINLINE int synth_mult(HOST_WIDE_INT_U t, int cost_limit, int mode) /* ROOT-CAUSE RECURSION */
{
    synth_calls++;
    if (t <= 1)
        return 0;
    if (cost_limit <= 0)
        return 1000;
    unsigned hash_index = (unsigned)((t ^ (unsigned)mode) % NUM_ALG_HASH_ENTRIES);
    if (alg_hash[hash_index].valid && alg_hash[hash_index].t == t && alg_hash[hash_index].mode == mode) {
        hash_hits++;
        return alg_hash[hash_index].cost;
    }
    int best = 1000;
    if ((t & 1) == 0) {
        int m = __builtin_ctzll(t);
        int c = shift_cost + synth_mult(t >> m, cost_limit - shift_cost, mode);
        if (c < best) best = c;
    } else {
        /* t = (t - 1) + 1  and  t = (t + 1) - 1 */
        int c = add_cost + synth_mult(t - 1, (best < cost_limit ? best : cost_limit) - add_cost, mode);
        if (c < best) best = c;
        c = add_cost + synth_mult(t + 1, (best < cost_limit ? best : cost_limit) - add_cost, mode);
        if (c < best) best = c;
        /* t = q * (2^m +- 1) */
        for (int m = 2; m < 7; m++) {
            HOST_WIDE_INT_U d = (1ull << m) - 1;
            if (t % d == 0 && t > d) {
                c = add_cost + shift_cost + synth_mult(t / d, (best < cost_limit ? best : cost_limit) - 2, mode);
                if (c < best) best = c;
            }
            d = (1ull << m) + 1;
            if (t % d == 0 && t > d) {
                c = add_cost + shift_cost + synth_mult(t / d, (best < cost_limit ? best : cost_limit) - 2, mode);
                if (c < best) best = c;
            }
        }
    }
    alg_hash[hash_index].t = (unsigned int)t;
    alg_hash[hash_index].mode = mode;
    alg_hash[hash_index].cost = best;
    alg_hash[hash_index].valid = 1;
    return best;
}

/* RTL generation for the rest of the function body (unrelated hot code) */
typedef struct { int code; int reg; long imm; } rtx_insn;
NOINLINE uint64_t emit_and_schedule(rtx_insn *insns, int n, uint32_t seed)
{
    uint64_t h = seed;
    for (int i = 0; i < n; i++) { /* HOT LOOP */
        insns[i].code = (int)((h >> 7) % 40);
        insns[i].reg = (int)(h % 32);
        insns[i].imm = (long)(h & 0xffff);
        h = h * 6364136223846793005ull + (uint64_t)insns[i > 0 ? i - 1 : 0].imm + 1;
    }
    return h;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s NCONSTANTS WIDE NEXPR SEED\n", argv[0]);
        return 2;
    }
    int nconst = atoi(argv[1]), wide = atoi(argv[2]), nexpr = atoi(argv[3]);
    uint64_t r = 0x243f6a8885a308d3ull ^ (uint64_t)atoll(argv[4]);
    rtx_insn *insns = malloc(sizeof(rtx_insn) * 4096);
    uint64_t total_cost = 0, h = 0;
    /* x * C with C from the user's source: NCONSTANTS 31-bit or 40-bit
       constants (a hash or a fixed-point filter, say), each multiplied in
       every one of NEXPR expressions */
    HOST_WIDE_INT_U *consts = malloc(sizeof *consts * (size_t)(nconst > 0 ? nconst : 1));
    for (int k = 0; k < nconst; k++) {
        r ^= r << 13; r ^= r >> 7; r ^= r << 17;
        consts[k] = wide ? (r & 0xffffffffffull) | (1ull << 39) : (r & 0x7fffffffull) | 1;
    }
    for (int e = 0; e < nexpr; e++) {
        for (int k = 0; k < nconst; k++)
            total_cost += (uint64_t)synth_mult(consts[k] | 1, 24, 0);
        h ^= emit_and_schedule(insns, 4096, (uint32_t)e);
    }
    printf("total_cost=%llu synth_calls=%llu hash_hits=%llu rtl=%016llx\n",
           (unsigned long long)total_cost, (unsigned long long)synth_calls,
           (unsigned long long)hash_hits, (unsigned long long)h);
    return 0;
}
