/*
 * gcc46401_seqpt -- a slice of GCC's C front end: expression trees and the
 * -Wsequence-point checker (verify_tree / merge_tlist in c-common.c).
 *
 * Modelled on GCC bug 46401 (LDoctor Table 3 / Figure 3, resultless [0|1]*,
 * fixed by skipping the loop): for a long expression such as
 *     QStringList() << "abasep" << "abs" << "absint" << ...
 * merge_tlist compares every new operand with every operand tracked so far,
 * and none of them ever compares equal (CALL_EXPRs that are not ECF_CONST and
 * STRING_CSTs can never be written to).  The developers' patch stops tracking
 * such expressions ("No point tracking CALL_EXPRs that aren't ECF_CONST ...").
 *
 * usage: gcc46401_seqpt NSTMTS OPERANDS_PER_STMT SHAPE(0=arith,1=stream) SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

enum tree_code { VAR_DECL, STRING_CST, INTEGER_CST, CALL_EXPR, PLUS_EXPR, MULT_EXPR, MODIFY_EXPR };

typedef struct tree_node {
    enum tree_code code;
    int ecf_const;
    const char *str;           /* STRING_CST / VAR_DECL name */
    int len;
    long value;
    struct tree_node *op[2];   /* operands (CALL_EXPR: fn arg0, arg1) */
    int fn;                    /* CALL_EXPR callee id */
} tree_node, *tree;

struct tlist { struct tlist *next; tree expr, writer; };

static struct tlist *tlist_pool;
static size_t tlist_used, tlist_cap;
static uint64_t warnings;

static uint32_t rs;
static uint32_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 17; rs ^= rs << 5; return rs; }

static struct tlist *new_tlist(struct tlist *next, tree t, tree writer)
{
    if (tlist_used == tlist_cap) abort();
    struct tlist *l = &tlist_pool[tlist_used++];
    l->next = next; l->expr = t; l->writer = writer;
    return l;
}

/* fold-const.c: structural equality of two operands */
NOINLINE int operand_equal_p_1(tree a, tree b, int depth)
{
    if (a == b) return 1;
    if (a->code != b->code || depth > 8) return 0;
    switch (a->code) {
    case VAR_DECL:
    case STRING_CST:
        return a->len == b->len && memcmp(a->str, b->str, (size_t)a->len) == 0;
    case INTEGER_CST:
        return a->value == b->value;
    case CALL_EXPR:
        if (a->fn != b->fn || !a->ecf_const) return 0;
        /* fallthrough */
    default:
        return operand_equal_p_1(a->op[1], b->op[1], depth + 1)
            && operand_equal_p_1(a->op[0], b->op[0], depth + 1);
    }
}

static int candidate_equal_p(tree x, tree y)
{
    return (x == y) || (x && y && operand_equal_p_1(x, y, 0));
}

/* c-common.c */
NOINLINE void merge_tlist(struct tlist **to, struct tlist *add, int copy)
{
    while (add) {
        int found = 0;
        struct tlist *tmp2;
        struct tlist *next = add->next;
        for (tmp2 = *to; tmp2; tmp2 = tmp2->next) { /* ROOT-CAUSE LOOP */
            if (candidate_equal_p(tmp2->expr, add->expr)) {
                found = 1;
                if (!tmp2->writer)
                    tmp2->writer = add->writer;
            }
        }
        if (!found) {              /* track it: push on the front of TO */
            struct tlist *n = copy ? new_tlist(NULL, add->expr, add->writer) : add;
            n->next = *to;
            *to = n;
        }
        add = next;
    }
}

/* warn when a variable is written and read without a sequence point */
static void warn_for_collisions(struct tlist *list)
{
    for (struct tlist *a = list; a; a = a->next)
        if (a->writer && a->expr->code == VAR_DECL)
            warnings += (uint64_t)a->expr->len;
}

/* simplified verify_tree: collect the operands read/written by X */
NOINLINE void verify_tree(tree x, struct tlist **pno_sp, tree writer)
{
    struct tlist *tmp = NULL;
    switch (x->code) {
    case INTEGER_CST:
        return;
    case VAR_DECL:
    case STRING_CST:
        *pno_sp = new_tlist(*pno_sp, x, writer);
        return;
    case MODIFY_EXPR:
        verify_tree(x->op[1], &tmp, NULL);
        merge_tlist(pno_sp, tmp, 0);
        *pno_sp = new_tlist(*pno_sp, x->op[0], x->op[0]);
        return;
    default:                     /* CALL_EXPR and binary operators */
        verify_tree(x->op[0], pno_sp, writer);
        verify_tree(x->op[1], &tmp, writer);
        merge_tlist(pno_sp, tmp, 0);
        if (x->code == CALL_EXPR)
            *pno_sp = new_tlist(*pno_sp, x, writer);
        return;
    }
}

/* ---- parser side: build the statements of the translation unit ------- */
static tree_node *nodes;
static size_t nnodes;
static char *strpool;
static tree mk(enum tree_code c) { tree t = &nodes[nnodes++]; memset(t, 0, sizeof *t); t->code = c; return t; }

static tree mk_name(enum tree_code c, int id)
{
    tree t = mk(c);
    char *s = strpool + (size_t)id * 16;
    t->len = snprintf(s, 16, c == STRING_CST ? "abase%05d" : "v%d", id);
    t->str = s;
    return t;
}

static tree build_stmt(int nops, int shape, tree *vars, int nvars)
{
    tree e;
    if (shape == 1) {               /* list << "s0" << "s1" << ... */
        e = mk(CALL_EXPR); e->fn = 0; e->op[0] = vars[0]; e->op[1] = vars[1];
        for (int i = 0; i < nops; i++) {
            tree c = mk(CALL_EXPR);
            c->fn = 1;              /* operator<<, not ECF_CONST */
            c->op[0] = e;
            c->op[1] = mk_name(STRING_CST, i);
            e = c;
        }
        return e;
    }
    e = vars[rnd() % nvars];        /* x = a + b * c + ... */
    for (int i = 0; i < nops; i++) {
        tree b = mk(i & 1 ? MULT_EXPR : PLUS_EXPR);
        b->op[0] = e;
        b->op[1] = (rnd() % 4) ? vars[rnd() % nvars] : mk(INTEGER_CST);
        e = b;
    }
    tree m = mk(MODIFY_EXPR);
    m->op[0] = vars[rnd() % nvars];
    m->op[1] = e;
    return m;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s NSTMTS OPERANDS_PER_STMT SHAPE SEED\n", argv[0]);
        return 2;
    }
    int nstmts = atoi(argv[1]), nops = atoi(argv[2]), shape = atoi(argv[3]);
    rs = 2463534242u + (uint32_t)atoi(argv[4]);
    nodes = malloc(sizeof(tree_node) * ((size_t)nops * 3 + 64));
    strpool = malloc((size_t)(nops + 64) * 16);
    tlist_cap = (size_t)nops * 8 + 64;
    tlist_pool = malloc(sizeof(struct tlist) * tlist_cap);

    uint64_t total_len = 0;
    for (int s = 0; s < nstmts; s++) {
        nnodes = 0;
        tree vars[16];
        for (int i = 0; i < 16; i++) vars[i] = mk_name(VAR_DECL, i);
        tree stmt = build_stmt(nops, shape, vars, 16);
        /* -Wsequence-point */
        tlist_used = 0;
        struct tlist *after = NULL;
        verify_tree(stmt, &after, NULL);
        warn_for_collisions(after);
        for (struct tlist *l = after; l; l = l->next) total_len++;
    }
    printf("statements=%d tracked=%llu warnings=%llu\n", nstmts,
           (unsigned long long)total_len, (unsigned long long)warnings);
    return 0;
}
