/*
 * gcc1687_exprdag -- a slice of a compiler middle end: expression trees as
 * the front end builds them, a recursive cost estimate used to decide how to
 * expand each statement, and the expansion itself.
 *
 * Modelled on the class LDoctor Table 3 lists for GCC1687: cross-iteration
 * redundancy in a recursive function of GCC (one call = one iteration),
 * fixed by memoization.  This is our reconstruction of that class, not the
 * bug report's code.  The front end shares an operand tree between its uses
 * (a macro argument used twice, `SQ(x) ((x)*(x))`, nested), so a statement's
 * expression is a DAG.  expr_cost walks it as if it were a tree: a node
 * reached along k paths is costed k times, with identical arguments and
 * identical reads each time.  For nested SQ(...) the walk is exponential in
 * the nesting depth while the DAG has depth+2 nodes.  Fix: remember the cost
 * of each node already visited (a visited set / memo, GCC's
 * walk_tree_without_duplicates).
 *
 * usage: gcc1687_exprdag NSTMT DEPTH NSQ SEED
 *   Each statement applies DEPTH operations to a variable: NSQ of them, at
 *   random levels, are SQ(); the others are `t op constant` with distinct
 *   operand nodes.  NSQ=0 (the normal input) gives trees whose every node is
 *   reached once; NSQ=15 (the slow input) reaches the bottom 2^15 times.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

enum tree_code { VAR_DECL, INTEGER_CST, PLUS_EXPR, MULT_EXPR, MINUS_EXPR, NUM_CODES };

typedef struct tree_node {
    enum tree_code code;
    int uid;
    long value;                    /* INTEGER_CST: the constant; VAR_DECL: the register */
    struct tree_node *op[2];
} tree_node;

static const int code_cost[NUM_CODES] = { 0, 1, 1, 4, 1 };
static tree_node *pool;
static int pool_used, pool_cap;
static uint64_t cost_calls;

static tree_node *make_node(enum tree_code code, long value, tree_node *a, tree_node *b)
{
    if (pool_used == pool_cap) {
        fprintf(stderr, "node pool exhausted\n");
        exit(1);
    }
    tree_node *t = &pool[pool_used];
    t->code = code;
    t->uid = pool_used++;
    t->value = value;
    t->op[0] = a;
    t->op[1] = b;
    return t;
}

/* the cost of computing T: the walk that treats the DAG as a tree */
NOINLINE int expr_cost(const tree_node *t) /* ROOT-CAUSE RECURSION */
{
    cost_calls++;
    switch (t->code) {
    case VAR_DECL:
        return 0;
    case INTEGER_CST:
        /* constants that do not fit an immediate need a load */
        return (t->value < -32768 || t->value > 32767) ? 2 : code_cost[INTEGER_CST];
    default:
        /* BUG: no visited set -- a shared operand is costed once per use */
        return code_cost[t->code] + expr_cost(t->op[0]) + expr_cost(t->op[1]);
    }
}

/* expansion: emit one pseudo-instruction per node in postorder (the
   necessary work, hot in both runs) and run a simple scheduler over it */
typedef struct { int code; int dst; int src[2]; long imm; } insn;

NOINLINE uint64_t expand_and_schedule(const tree_node *base, int nnodes, insn *buf, int cheap)
{
    /* the DAG's nodes in postorder: uids are allocated in postorder */
    uint64_t h = (uint64_t)cheap * 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < nnodes; i++) { /* HOT LOOP */
        const tree_node *t = &base[i];
        buf[i].code = t->code;
        buf[i].dst = i;
        buf[i].src[0] = t->op[0] ? t->op[0]->uid : -1;
        buf[i].src[1] = t->op[1] ? t->op[1]->uid : -1;
        buf[i].imm = t->value;
    }
    for (int pass = 0; pass < 400; pass++)
        for (int i = 0; i < nnodes; i++) { /* HOT LOOP */
            int ready = 0;
            for (int s = 0; s < 2; s++)
                if (buf[i].src[s] >= 0)
                    ready += buf[buf[i].src[s]].dst & 3;
            h = (h ^ (uint64_t)(buf[i].code * 31 + ready + buf[i].imm)) * 0x100000001b3ull;
            buf[i].dst = (buf[i].dst + (int)(h >> 61)) % nnodes;
        }
    return h;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s NSTMT DEPTH NSQ SEED\n", argv[0]);
        return 2;
    }
    int nstmt = atoi(argv[1]), depth = atoi(argv[2]), nsq = atoi(argv[3]);
    uint64_t r = 0x243f6a8885a308d3ull ^ (uint64_t)atoll(argv[4]);
    if (nstmt <= 0 || depth <= 0 || depth > 40 || nsq < 0 || nsq > depth || nsq > 30) {
        fprintf(stderr, "bad arguments\n");
        return 2;
    }
    pool_cap = 2 * depth + 4;
    pool = malloc(sizeof(tree_node) * (size_t)pool_cap);
    insn *buf = malloc(sizeof(insn) * (size_t)pool_cap);
    if (!pool || !buf)
        return 1;
    uint64_t total_cost = 0, h = 0;
    int cheap = 0;
    for (int s = 0; s < nstmt; s++) {
        pool_used = 0;
        r ^= r << 13; r ^= r >> 7; r ^= r << 17;
        tree_node *t = make_node(VAR_DECL, (long)(r % 32), NULL, NULL);
        int sq_left = nsq;
        for (int d = 0; d < depth; d++) {
            r ^= r << 13; r ^= r >> 7; r ^= r << 17;
            /* exactly NSQ of the DEPTH levels are SQ(), at random levels */
            if ((uint64_t)sq_left * 1000 > (r % 1000) * (uint64_t)(depth - d)) {
                /* SQ(t) = (t) * (t): both operands are the same tree node */
                t = make_node(MULT_EXPR, 0, t, t);
                sq_left--;
            } else {
                /* t = t op c: every operand is a distinct node */
                tree_node *c = make_node(INTEGER_CST, (long)((r >> 20) % 100000), NULL, NULL);
                t = make_node((enum tree_code)(PLUS_EXPR + (int)((r >> 40) % 3)), 0, t, c);
            }
        }
        int cost = expr_cost(t);
        total_cost += (uint64_t)cost;
        cheap += cost < 64;
        h ^= expand_and_schedule(pool, pool_used, buf, cheap);
    }
    printf("total_cost=%llu cost_calls=%llu cheap=%d h=%016llx\n",
           (unsigned long long)total_cost, (unsigned long long)cost_calls, cheap,
           (unsigned long long)h);
    free(pool);
    free(buf);
    return 0;
}
