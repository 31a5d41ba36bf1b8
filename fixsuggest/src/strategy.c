/*
 * strategy.c - taxonomy -> fix strategy with evidence (vprof/fixsuggest.h).
 *
 * The mapping follows LDoctor: the resultless class says what to change
 * (section 2.1: delete a 0* loop, change the data structure a 0*1? search
 * walks, skip a [0|1]* loop in the context where its side effect cannot
 * happen), redundancy says what to reuse (section 3.2.6: memoize, or batch
 * when the repeated work is I/O or the writes grow with the work), and 1* is
 * reported only when nothing more informative holds (section 3.1.1).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vprof/fixsuggest.h"
#include "vprof/format.h"
#include "vprof/redundancy.h"
#include "vprof/symbols.h"

const unsigned vp_fix_category_order[VP_FIX_CAT_COUNT] = {
    VP_FIX_CAT_ZERO_STAR,  VP_FIX_CAT_ZERO_STAR_ONE,   VP_FIX_CAT_ZERO_OR_ONE,
    VP_FIX_CAT_CROSS_LOOP, VP_FIX_CAT_CROSS_ITERATION, VP_FIX_CAT_ONE_STAR,
};

static const struct {
    unsigned bit;
    const char *name, *rule, *text;
} categories[VP_FIX_CAT_COUNT] = {
    {VP_FIX_CAT_ZERO_STAR, "0*", "VPROF-LOOP-0STAR",
     "Resultless loop (0*): no iteration produces a result used after the loop."},
    {VP_FIX_CAT_ZERO_STAR_ONE, "0*1?", "VPROF-LOOP-0STAR1OPT",
     "Resultless search loop (0*1?): only the last iteration produces a result, and "
     "instances run many iterations."},
    {VP_FIX_CAT_ZERO_OR_ONE, "[0|1]*", "VPROF-LOOP-01STAR",
     "Mostly resultless loop ([0|1]*): the side effect in the body rarely runs."},
    {VP_FIX_CAT_ONE_STAR, "1*", "VPROF-LOOP-1STAR",
     "Hot loop with results on every iteration (1*): no resultless or redundant work found."},
    {VP_FIX_CAT_CROSS_ITERATION, "cross-iteration", "VPROF-LOOP-CROSS-ITERATION",
     "Cross-iteration redundancy: iterations repeat the computation of earlier iterations."},
    {VP_FIX_CAT_CROSS_LOOP, "cross-loop", "VPROF-LOOP-CROSS-LOOP",
     "Cross-loop redundancy: each loop instance repeats the work of the previous instance."},
};

static const struct {
    const char *name, *text;
} strategies[VP_FIX_STRATEGY_COUNT] = {
    {"delete-loop", "delete the loop: nothing after it uses what it computes"},
    {"change-data-structure",
     "change the data structure so the element is found without a linear scan "
     "(index, hash table, back pointer)"},
    {"skip-loop", "skip the loop, or its iterations, in the context where their work "
                  "cannot matter"},
    {"memoization", "cache the result of the repeated computation and reuse it"},
    {"batching", "batch the repeated operations into one"},
    {"none", "no automatic suggestion: every iteration produces a result"},
};

static int cat_index(unsigned bit)
{
    for (int i = 0; i < VP_FIX_CAT_COUNT; i++)
        if (categories[i].bit == bit)
            return i;
    return -1;
}

const char *vp_fix_category_name(unsigned c)
{
    int i = cat_index(c);
    return i < 0 ? NULL : categories[i].name;
}

const char *vp_fix_category_rule_id(unsigned c)
{
    int i = cat_index(c);
    return i < 0 ? NULL : categories[i].rule;
}

const char *vp_fix_category_description(unsigned c)
{
    int i = cat_index(c);
    return i < 0 ? NULL : categories[i].text;
}

const char *vp_fix_strategy_name(int s)
{
    return s >= 0 && s < VP_FIX_STRATEGY_COUNT ? strategies[s].name : NULL;
}

const char *vp_fix_strategy_description(int s)
{
    return s >= 0 && s < VP_FIX_STRATEGY_COUNT ? strategies[s].text : NULL;
}

void vp_fix_input_init(struct vp_fix_input *in)
{
    memset(in, 0, sizeof *in);
}

char *vp_fix_call_where(char *buf, size_t n, const struct vp_fix_redundancy *d)
{
    if (d->call_via && d->call_via_line)
        snprintf(buf, n, "(line %u, in %s, called at line %u)", d->call_via_line, d->call_via,
                 d->call_line);
    else if (d->call_via)
        snprintf(buf, n, "(in %s, called at line %u)", d->call_via, d->call_line);
    else
        snprintf(buf, n, "(line %u)", d->call_line);
    return buf;
}

char *vp_fix_commas(char *buf, size_t n, uint64_t v)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < len && o + 1 < n; i++) {
        if (i && (len - i) % 3 == 0 && o + 2 < n)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    if (n)
        buf[o < n ? o : n - 1] = '\0';
    return buf;
}

/* Appends to a fixed buffer; truncates silently (sentences are short). */
static void cat(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cat(char *buf, size_t n, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, n - len, fmt, ap);
    va_end(ap);
}

static void add_fix(struct vp_fix_result *r, int s)
{
    for (size_t i = 0; i < r->nfixes; i++)
        if (r->fixes[i] == s)
            return;
    if (r->nfixes < VP_FIX_STRATEGY_COUNT)
        r->fixes[r->nfixes++] = s;
}

/* Average iterations with one decimal when small, else whole: "4,812", "2.5". */
static void fmt_avg(char *buf, size_t n, double avg)
{
    if (avg < 100 && fabs(avg - floor(avg + 0.5)) > 0.05) {
        snprintf(buf, n, "%.1f", avg);
        return;
    }
    vp_fix_commas(buf, n, (uint64_t)floor(avg + 0.5));
}

/* A percentage that never rounds a non-zero share to 0 or a partial one to
   100: "0.0012%", "37.5%", "99.98%". */
static void fmt_pct(char *buf, size_t n, double share)
{
    double p = share * 100.0;
    if (p <= 0)
        snprintf(buf, n, "0%%");
    else if (p >= 100)
        snprintf(buf, n, "100%%");
    else if (p < 0.1) /* 0.034%, not 0.0% */
        snprintf(buf, n, "%.2g%%", p);
    else if (p > 99.9)
        snprintf(buf, n, "%.*f%%", p > 99.999 ? 4 : 2, p);
    else
        snprintf(buf, n, "%.1f%%", p);
}

static const char *unit(int kind, int plural)
{
    if (kind == VP_LOOP_RECURSION)
        return plural ? "recursive calls" : "recursive call";
    return plural ? "iterations" : "iteration";
}

static const char *instance_word(int kind)
{
    return kind == VP_LOOP_RECURSION ? "outermost call" : "instance";
}

/* A 0*1? search under LDoctor's threshold whose instances scan at least
   VP_FIX_SEARCH_MIN_AVG elements on average in the slow run and at least
   VP_FIX_SEARCH_GROWTH times as many as in the normal run: the search itself
   grew with the slow input (docs/vprof-loop.md, "Searches that grew").
   LDoctor had one run and a fixed threshold; the normal run tells a search
   that became the cost from one that always was what it is.  A search over
   a hash bucket's chain counts from VP_FIX_CHAIN_LONG entries: a table
   holds one or two per bucket, so tens are already the table failing
   ("Hash bucket chains"). */
static int grown_search(const struct vp_fix_input *in)
{
    const struct vp_fix_counts *s = &in->slow, *n = &in->normal;
    if (in->static_class != VP_CLASS_ZERO_STAR_ONE || in->inefficient || !n->ran ||
        !n->instances || !s->instances || n->avg_iterations <= 0)
        return 0;
    double per = in->unroll_factor > 1 ? (double)in->unroll_factor : 1.0;
    double least = in->bucket_line ? VP_FIX_CHAIN_LONG : VP_FIX_SEARCH_MIN_AVG;
    return s->avg_iterations * per >= least &&
           s->avg_iterations >= VP_FIX_SEARCH_GROWTH * n->avg_iterations;
}

/* A search over one hash bucket's chain (vp_fix_input.bucket_line) that
   walks at least VP_FIX_CHAIN_LONG entries per lookup: the table is the
   index a linear scan is replaced by, so the finding is that its keys
   collide, and the fix is the hash (or the table's size), not another
   data structure (docs/vprof-loop.md, "Hash bucket chains"). */
static void evidence_bucket_chain(const struct vp_fix_input *in, struct vp_fix_result *r)
{
    const struct vp_fix_counts *s = &in->slow, *n = &in->normal;
    double per = in->unroll_factor > 1 ? (double)in->unroll_factor : 1.0;
    if (!in->bucket_line || !s->instances || s->avg_iterations * per < VP_FIX_CHAIN_LONG)
        return;
    char avg[32], navg[32] = "";
    fmt_avg(avg, sizeof avg, s->avg_iterations * per);
    if (n->ran && n->instances)
        fmt_avg(navg, sizeof navg, n->avg_iterations * per);
    cat(r->evidence, sizeof r->evidence,
        " The list it walks is the chain of one hash-table bucket (line %u", in->bucket_line);
    if (in->bucket_text && *in->bucket_text)
        cat(r->evidence, sizeof r->evidence, ": `%s`", in->bucket_text);
    cat(r->evidence, sizeof r->evidence, "), %s entries long on average", avg);
    if (navg[0])
        cat(r->evidence, sizeof r->evidence, " (normal run: %s)", navg);
    cat(r->evidence, sizeof r->evidence,
        ": the keys crowd into few buckets. Fix the hash function, or grow the table with its "
        "keys, rather than the loop.");
}

/* A spin loop (vp_fix_input.spin_line): every try but the last changes
   nothing -- the lock or flag was another thread's, or, for a lock-free
   update (VP_LOOPF_SPIN_UPDATE), another thread changed the value between
   the read and the compare-and-swap -- so an instance that
   went round twice or more on average is 0*1?.  LDoctor's fixes do not
   apply (no data structure makes another thread let go sooner, and a
   cached answer would be wrong), so the fix is none and the sentence says
   what to do (docs/vprof-loop.md, "Spin loops"). */
static void spin_verdict(const struct vp_fix_input *in, struct vp_fix_result *r)
{
    const struct vp_fix_counts *s = &in->slow, *n = &in->normal;
    double per = in->unroll_factor > 1 ? (double)in->unroll_factor : 1.0;
    char avg[32], navg[32] = "";
    fmt_avg(avg, sizeof avg, s->avg_iterations * per);
    if (n->ran && n->instances)
        fmt_avg(navg, sizeof navg, n->avg_iterations * per);
    int contended = s->avg_iterations * per >= 2.0;
    if (contended) {
        r->categories |= VP_FIX_CAT_ZERO_STAR_ONE;
        add_fix(r, VP_FIX_NONE);
    }
    int update = (in->flags & VP_LOOPF_SPIN_UPDATE) != 0; /* a CAS of old + d */
    cat(r->evidence, sizeof r->evidence,
        update ? "it retries the compare-and-swap at line %u" : "it spins on the atomic access at line %u",
        in->spin_line);
    if (in->spin_text && *in->spin_text)
        cat(r->evidence, sizeof r->evidence, " (`%s`)", in->spin_text);
    cat(r->evidence, sizeof r->evidence, ": its instances went round %s times on average", avg);
    if (navg[0])
        cat(r->evidence, sizeof r->evidence, " (normal run: %s)", navg);
    if (contended && update)
        cat(r->evidence, sizeof r->evidence,
            ", and every try but the last failed: another thread changed the value between "
            "this one's read and its compare-and-swap. The time goes to contention on one "
            "shared value -- update it less often (a count per thread, combined at the end) "
            "or from fewer threads.");
    else if (contended)
        cat(r->evidence, sizeof r->evidence,
            ", and every try but the last changed nothing: the lock or flag was another "
            "thread's. The time goes to waiting for other threads -- hold the lock for less "
            "time or less often, or wait without spinning (a mutex, a condition variable).");
    else
        cat(r->evidence, sizeof r->evidence, update ? ": it seldom had to retry."
                                                    : ": it seldom had to wait.");
}

static void evidence_resultless(const struct vp_fix_input *in, struct vp_fix_result *r)
{
    const struct vp_fix_counts *c = &in->slow;
    char it[32], inst[32], avg[32], max[32], res[32], pct[32];
    vp_fix_commas(it, sizeof it, c->iterations);
    vp_fix_commas(inst, sizeof inst, c->instances);
    vp_fix_commas(max, sizeof max, c->max_iterations);
    vp_fix_commas(res, sizeof res, c->result_iterations);
    fmt_avg(avg, sizeof avg, c->avg_iterations);
    const char *u = unit(in->kind, 1);
    switch (in->static_class) {
    case VP_CLASS_ZERO_STAR:
        cat(r->evidence, sizeof r->evidence,
            "none of its %s %s (%s per %s on average, %s %s) produces a result used after "
            "the loop.",
            it, u, avg, instance_word(in->kind), inst, c->instances == 1 ? "instance" : "instances");
        break;
    case VP_CLASS_ZERO_STAR_ONE: {
        /* an unrolled body's iteration scans `unroll_factor` elements */
        double per = in->unroll_factor > 1 ? (double)in->unroll_factor : 1.0;
        char eavg[32], emax[32];
        fmt_avg(eavg, sizeof eavg, c->avg_iterations * per);
        vp_fix_commas(emax, sizeof emax,
                      c->max_iterations <= UINT64_MAX / (uint64_t)per
                          ? c->max_iterations * (uint64_t)per
                          : c->max_iterations);
        fmt_pct(pct, sizeof pct, in->resultless_rate);
        cat(r->evidence, sizeof r->evidence,
            "each %s scans on average %s elements (at most %s) and only the last %s can "
            "produce a result: %s of its %s %s are resultless.",
            in->kind == VP_LOOP_RECURSION ? "outermost call" : "call", eavg, emax,
            unit(in->kind, 0), pct, it, u);
        if (grown_search(in)) {
            char navg[32], x[32];
            fmt_avg(navg, sizeof navg, in->normal.avg_iterations * per);
            snprintf(x, sizeof x, "%.1fx", c->avg_iterations / in->normal.avg_iterations);
            cat(r->evidence, sizeof r->evidence,
                " LDoctor calls a search inefficient only below one result in 1,000 %s, but "
                "the normal run scanned %s per call: the scans grew %s with the slow input.",
                u, navg, x);
        }
        break;
    }
    case VP_CLASS_ZERO_OR_ONE: {
        fmt_pct(pct, sizeof pct, c->iterations ? (double)c->result_iterations / (double)c->iterations
                                               : 0);
        cat(r->evidence, sizeof r->evidence,
            "only %s of %s %s (%s) produce a result; each %s runs on average %s %s.", res, it,
            u, pct, instance_word(in->kind), avg, u);
        break;
    }
    default:
        return;
    }
    evidence_bucket_chain(in, r);
}

/* A redundant repeated-call unit whose callee's loop waits in every
   iteration: its calls repeat a wait that got the same answer
   (evidence_call_wait), not work (call_work). */
static int call_waits(const struct vp_fix_redundancy *d)
{
    return d->call_redundant && d->call_wait_line;
}

static int call_work(const struct vp_fix_redundancy *d)
{
    return d->call_redundant && !d->call_wait_line;
}

/* The loop's calls of a C library string scan read again, from its start,
   the string the previous call read (a string that grows and is scanned
   again: strcat's Schlemiel loop), and do not merely repeat earlier calls
   (call_work says that) or wait. */
static int call_rescans(const struct vp_fix_redundancy *d)
{
    return d->call_rescan && !d->call_redundant && !d->call_wait_line;
}

/* What to do instead, by the scan: a string's end is kept (strlen,
   strcat), glibc's sscanf is replaced by a parser that says where it
   stopped, a search resumes where the previous one stopped. */
static const char *rescan_fix(const char *callee)
{
    static const char *const ends[] = {"strlen", "strnlen", "strcat", "strncat"};
    for (size_t i = 0; callee && i < sizeof ends / sizeof *ends; i++)
        if (strcmp(callee, ends[i]) == 0)
            return "keep its length (or a pointer to its end) from one call to the next";
    if (callee && (strcmp(callee, "sscanf") == 0 || strcmp(callee, "__isoc99_sscanf") == 0))
        return "glibc's sscanf measures its whole input on every call: parse with strtol or "
               "strtod, whose end pointer says where to go on, or give sscanf only the field";
    return "start each search where the previous one stopped";
}

static void evidence_rescan(const struct vp_fix_input *in, struct vp_fix_result *r)
{
    const struct vp_fix_redundancy *d = &in->red;
    char a[32], pct[32], rep[32];
    const char *callee = d->call_callee ? d->call_callee : "a function";
    char at[160];
    vp_fix_call_where(at, sizeof at, d);
    vp_fix_commas(a, sizeof a, d->call_pairs);
    fmt_pct(pct, sizeof pct, d->call_rescan_rate);
    fmt_pct(rep, sizeof rep, d->call_rescan_repeated);
    /* a sort's inputs, or copies shifted: the array is the wrong structure */
    const char *what = NULL, *part = NULL, *why = NULL;
    if (d->call_sorts) {
        what = "sorts again the elements the previous call sorted";
        part = "input";
        why = "sorting the whole array again after a few elements changed makes the loop's "
              "work grow faster than the square of its length -- keep the array sorted as "
              "elements arrive (insert each where a binary search puts it), use a heap or a "
              "balanced tree, or add them all and sort once after the loop";
    } else if (d->call_shifted) {
        what = "moves again the bytes the previous call moved, shifted";
        part = "copy";
        why = "removing an element from the front of an array, or putting one in before the "
              "rest, moves everything after it, so the loop's work grows with the square of "
              "the array's length -- use a structure that does not move the rest: a queue "
              "(std::deque, a ring buffer, or an index of the first element) to take from the "
              "front, a heap or a balanced tree to keep elements sorted, or collect them and "
              "sort once";
    }
    if (what) {
        cat(r->evidence, sizeof r->evidence,
            "%seach call of %s %s %s (%s of %s compared pairs of consecutive calls; on "
            "average %s of a call's %s is the previous call's): %s.",
            r->evidence[0] ? " " : "", callee, at, what, pct, a, rep, part, why);
        return;
    }
    if (d->call_copies) {
        int str = strcmp(callee, "std::string::_M_replace") == 0;
        cat(r->evidence, sizeof r->evidence,
            "%seach call of %s %s copies again the %s the previous call copied (%s of "
            "%s compared pairs of consecutive calls; on average %s of a call's copy is the "
            "previous call's): every %s copies the whole %s again though little of it "
            "changed, so the loop's work grows with the square of its length -- %s.",
            r->evidence[0] ? " " : "", callee, at, str ? "string" : "bytes", pct, a,
            rep, unit(in->kind, 0), str ? "string" : "buffer",
            str ? "append to the string in place (s += x, after s.reserve(n)) instead of "
                  "building a new string from it (s = s + x)"
                : "append to the buffer in place, growing its capacity geometrically "
                  "(double it with realloc), instead of copying it whole into a new one");
        return;
    }
    cat(r->evidence, sizeof r->evidence,
        "%seach call of %s %s reads again the string the previous call read (%s of %s "
        "compared pairs of consecutive calls; on average %s of a call's string is the "
        "previous call's): every %s reads the whole string again though little of it "
        "changed, so the loop's work grows with the square of the string's length -- %s.",
        r->evidence[0] ? " " : "", callee, at, pct, a, rep, unit(in->kind, 0),
        rescan_fix(callee));
}

/* A 0*1? or [0|1]* loop whose iterations with a result hold nearly all
   of its samples in the calls that produce the result
   (vp_fix_input.result_call_samples): the iterations without one hold at
   most the rest, so skipping them (or a structure that finds the result
   without them) would save little.  A driver loop that scans its input
   for the rare places where it calls the function that does the work, or
   a recursion whose leaf calls return at once (docs/vprof-loop.md,
   "Results that hold the time"). */
static int results_hold_time(const struct vp_fix_input *in)
{
    return (in->static_class == VP_CLASS_ZERO_STAR_ONE ||
            in->static_class == VP_CLASS_ZERO_OR_ONE) &&
           in->slow.samples >= VP_FIX_RESULT_CALL_MIN_SAMPLES &&
           (double)in->result_call_samples >=
               VP_FIX_RESULT_CALL_SHARE * (double)in->slow.samples;
}

static void evidence_results_hold(const struct vp_fix_input *in, struct vp_fix_result *r)
{
    const struct vp_fix_counts *c = &in->slow;
    char it[32], res[32], pct[32], held[32], rest[32];
    vp_fix_commas(it, sizeof it, c->iterations);
    vp_fix_commas(res, sizeof res, c->result_iterations);
    fmt_pct(pct, sizeof pct,
            c->iterations ? (double)c->result_iterations / (double)c->iterations : 0);
    double h = (double)in->result_call_samples / (double)c->samples;
    fmt_pct(held, sizeof held, h > 1 ? 1 : h);
    fmt_pct(rest, sizeof rest, h > 1 ? 0 : 1 - h);
    cat(r->evidence, sizeof r->evidence,
        "only %s of its %s %s (%s) produce a result, but the calls that produce those results "
        "hold %s of its samples (%s at line %u): the %s without a result hold at most %s of "
        "them, so skipping those would save little; the time is in the calls.",
        res, it, unit(in->kind, 1), pct, held,
        in->result_call_callee ? in->result_call_callee : "a function", in->result_call_line,
        unit(in->kind, 1), rest);
}

/* System calls for a few bytes in every iteration that hold at least
   VP_FIX_SYSCALL_SHARE of the loop's samples: each iteration pays a system
   call's fixed cost for a few bytes, and batching (a buffer) pays it once
   per block (docs/vprof-loop.md, "A system call per few bytes"). */
static void fmt_time(char *buf, size_t n, double s);

static int syscalls_hold_time(const struct vp_fix_input *in)
{
    return in->nsyscalls && in->slow.samples >= VP_FIX_RESULT_CALL_MIN_SAMPLES &&
           (double)in->syscall_samples >= VP_FIX_SYSCALL_SHARE * (double)in->slow.samples;
}

static void evidence_syscalls(const struct vp_fix_input *in, struct vp_fix_result *r)
{
    char it[32], pct[32], per[32];
    vp_fix_commas(it, sizeof it, vp_fix_source_iterations(in));
    double h = (double)in->syscall_samples / (double)in->slow.samples;
    fmt_pct(pct, sizeof pct, h > 1 ? 1 : h);
    cat(r->evidence, sizeof r->evidence, "%seach of its %s %s calls ", r->evidence[0] ? " " : "",
        it, unit(in->kind, 1));
    for (size_t k = 0; k < in->nsyscalls; k++)
        cat(r->evidence, sizeof r->evidence, "%s%s (line %u) for %u byte%s",
            k == 0 ? "" : k + 1 == in->nsyscalls ? " and " : ", ", in->syscalls[k].callee,
            in->syscalls[k].line, in->syscalls[k].bytes, in->syscalls[k].bytes == 1 ? "" : "s");
    static const char *const count[] = {"one", "two", "three", "four"};
    cat(r->evidence, sizeof r->evidence,
        ": %s system call%s per %s, which hold%s %s of its samples",
        count[in->nsyscalls <= 4 ? in->nsyscalls - 1 : 3], in->nsyscalls == 1 ? "" : "s",
        unit(in->kind, 0), in->nsyscalls == 1 ? "s" : "", pct);
    if (in->slow.seconds > 0 && in->slow.iterations) {
        fmt_time(per, sizeof per, in->slow.seconds * h / (double)vp_fix_source_iterations(in));
        cat(r->evidence, sizeof r->evidence, " (%s per %s)", per, unit(in->kind, 0));
    }
    cat(r->evidence, sizeof r->evidence,
        ": the time is the calls' fixed cost, paid for a few bytes each -- move the data in "
        "blocks through a buffer (stdio, or a few KiB per call).");
}

static void evidence_efficient(const struct vp_fix_input *in, struct vp_fix_result *r)
{
    const struct vp_fix_counts *c = &in->slow;
    char it[32], pct[32], avg[32];
    vp_fix_commas(it, sizeof it, c->iterations);
    fmt_avg(avg, sizeof avg, c->avg_iterations);
    fmt_pct(pct, sizeof pct, 1.0 - in->resultless_rate);
    if (in->static_class == VP_CLASS_ONE_STAR)
        cat(r->evidence, sizeof r->evidence,
            "every path through its body produces a result (%s %s, %s per %s on average)%s.",
            it, unit(in->kind, 1), avg, instance_word(in->kind),
            !in->red.measured || call_waits(&in->red) ? ""
            : in->ncallees    ? "; no repeated work was found in its own code"
                              : "; no repeated work was found");
    else
        cat(r->evidence, sizeof r->evidence,
            "%s of its %s %s produce a result (%s per %s on average): not resultless.", pct, it,
            unit(in->kind, 1), avg, instance_word(in->kind));
}

static void evidence_call_wait(const struct vp_fix_input *in, struct vp_fix_result *r)
{
    const struct vp_fix_redundancy *d = &in->red;
    if (!d->measured || d->cross_iteration || !call_waits(d))
        return;
    char a[32], b[32];
    const char *callee = d->call_callee ? d->call_callee : "a function";
    char at[160];
    vp_fix_call_where(at, sizeof at, d);
    vp_fix_commas(a, sizeof a, d->call_sampled);
    vp_fix_commas(b, sizeof b, d->call_distinct);
    cat(r->evidence, sizeof r->evidence,
        "%sits calls of %s %s repeat earlier calls with the same inputs (%s sampled "
        "calls, %s distinct), but %s waits in every iteration of its loop at line %u: what "
        "repeats is a wait that got the same answer, which no cache or batch can save.",
        r->evidence[0] ? " " : "", callee, at, a, b, callee, d->call_wait_line);
}

/* What a setup call's repeats do, and how to keep its result instead
   (VP_REDF_SETUP; the pass's LibScans list the callees). */
static void setup_advice(const char *callee, const char **what, const char **fix)
{
    static const struct {
        const char *name, *what, *fix;
    } calls[] = {
        {"regcomp", "compile again the pattern an earlier call compiled",
         "compile it once before the loop and reuse the regex_t (regfree it after the loop)"},
        {"dlopen", "load again the library an earlier call loaded",
         "load it once before the loop and keep the handle and the symbols it gives"},
        {"iconv_open", "open again the conversion an earlier call opened",
         "open it once before the loop and reuse the descriptor (iconv with a null input "
         "resets its state)"},
        {"opendir", "open again the directory an earlier call opened",
         "read it once before the loop and keep its entries"},
        {"getaddrinfo", "resolve again the name an earlier call resolved",
         "resolve it once before the loop and reuse the addresses"},
        {"gethostbyname", "resolve again the name an earlier call resolved",
         "resolve it once before the loop and reuse the addresses"},
    };
    for (size_t i = 0; callee && i < sizeof calls / sizeof *calls; i++)
        if (strcmp(callee, calls[i].name) == 0) {
            *what = calls[i].what;
            *fix = calls[i].fix;
            return;
        }
    /* fopen, fopen64, open, open64, openat */
    *what = "open again the file an earlier call opened";
    *fix = "open it once before the loop and keep the handle for every iteration (close it "
           "after the loop; flush it where the output must reach the file)";
}

static void evidence_redundancy(const struct vp_fix_input *in, struct vp_fix_result *r)
{
    const struct vp_fix_redundancy *d = &in->red;
    char a[32], b[32], rep[32], pct[32], at[160];
    vp_fix_call_where(at, sizeof at, d);
    if (!d->cross_iteration && call_work(d)) {
        vp_fix_commas(a, sizeof a, d->call_sampled);
        vp_fix_commas(b, sizeof b, d->call_distinct);
    }
    if (!d->cross_iteration && call_work(d) && d->call_setup) {
        const char *what, *fix;
        setup_advice(d->call_callee, &what, &fix);
        cat(r->evidence, sizeof r->evidence,
            "%sits calls of %s %s %s, with the same arguments: %s sampled calls, %s "
            "distinct (%.1fx redundancy); %s.",
            r->evidence[0] ? " " : "", d->call_callee ? d->call_callee : "a function",
            at, what, a, b, d->call_rate, fix);
    } else if (!d->cross_iteration && call_work(d) && d->call_pure) {
        cat(r->evidence, sizeof r->evidence,
            "%sits calls of %s %s compute again a value an earlier call computed, from "
            "the same arguments: %s sampled calls, %s distinct (%.1fx redundancy); compute it "
            "once where its arguments are set (before the loop, when they do not change in "
            "it) or keep its results by argument.",
            r->evidence[0] ? " " : "", d->call_callee ? d->call_callee : "a function",
            at, a, b, d->call_rate);
    } else if (!d->cross_iteration && call_work(d)) {
        cat(r->evidence, sizeof r->evidence,
            "%sits calls of %s %s repeat earlier calls with the same inputs: %s sampled "
            "calls, %s distinct (%.1fx redundancy); %s redo work that earlier ones did%s.",
            r->evidence[0] ? " " : "", d->call_callee ? d->call_callee : "a function",
            at, a, b, d->call_rate, unit(in->kind, 1),
            d->call_io ? ", and each call does I/O: caching the call would drop its output; "
                         "compute what it writes once and batch the writes"
                       : "");
    } else if (d->cross_iteration) {
        vp_fix_commas(a, sizeof a, d->sampled_iterations);
        vp_fix_commas(b, sizeof b, d->distinct_iterations);
        cat(r->evidence, sizeof r->evidence,
            "%s%s sampled %s repeat the values of earlier ones (%s%s distinct, %.1fx "
            "redundancy)%s.",
            r->evidence[0] ? " " : "", a, unit(in->kind, 1),
            d->distinct_estimated ? "about " : "", b, d->cross_iteration_rate,
            d->io_every_iteration ? "; the repeated work is I/O done on every iteration" : "");
    }
    if (d->cross_loop && d->constant_object) {
        fmt_pct(pct, sizeof pct, d->cross_loop_rate);
        vp_fix_commas(a, sizeof a, d->sampled_instances);
        cat(r->evidence, sizeof r->evidence,
            "%seach %s computes the same values again, from constants alone (it reads no "
            "input), and writes them to %s, which no other code writes: every %s after the "
            "first redoes work whose result is already there (%s of the compared pairs of %s "
            "sampled %ss). Compute %s once -- a static initialiser, or a flag set by the first "
            "run (pthread_once where threads share it) -- and keep it.",
            r->evidence[0] ? " " : "", instance_word(in->kind), d->constant_object,
            instance_word(in->kind), pct, a, instance_word(in->kind), d->constant_object);
    } else if (d->cross_loop) {
        fmt_pct(pct, sizeof pct, d->cross_loop_rate);
        fmt_pct(rep, sizeof rep, d->repeated_per_instance);
        vp_fix_commas(a, sizeof a, d->sampled_instances);
        cat(r->evidence, sizeof r->evidence,
            "%seach %s re-reads on average %s of the values the previous one read (%s of the "
            "compared pairs of %s sampled %ss are redundant).",
            r->evidence[0] ? " " : "", instance_word(in->kind), rep, pct, a,
            instance_word(in->kind));
        if (d->pairs_by_earlier) {
            vp_fix_commas(b, sizeof b, d->pairs_by_earlier);
            cat(r->evidence, sizeof r->evidence,
                " In %s of the redundant pairs the %s repeats not the one just before it but "
                "one of the %d before that: its inputs recur with others in between (as when "
                "a loop is run over several objects in turn).",
                b, instance_word(in->kind), VP_RED_PAIR_WINDOW);
        }
    }
}

/* Where the loop's time goes when loops it calls hold most of it: "93% of
   its samples are in loops of the functions it calls that have a root cause
   of their own: page_checksum's at line 72 (cross-loop; 82%) and ..." */
static void evidence_callees(const struct vp_fix_input *in, struct vp_fix_result *r)
{
    if (!in->ncallees || !in->loop_samples)
        return;
    char pct[32];
    fmt_pct(pct, sizeof pct, (double)in->callee_samples / (double)in->loop_samples);
    cat(r->evidence, sizeof r->evidence,
        "%s%s of its samples are in loops of the functions it calls that have a root cause of "
        "their own:",
        r->evidence[0] ? " " : "", pct);
    for (size_t i = 0; i < in->ncallees && i < VP_FIX_CALLEES_MAX; i++) {
        const struct vp_fix_callee *c = &in->callees[i];
        char fit[128];
        const char *name = c->function ? vp_func_fit(c->function, 64, fit, sizeof fit)
                                       : "a function";
        /* a system header's loop by its header and the program's call */
        if (c->header && c->call_file)
            cat(r->evidence, sizeof r->evidence, "%s %s's loop (%s:%u, called at %s:%u; ",
                i == 0 ? "" : i + 1 == in->ncallees ? " and" : ",", name, c->header, c->line,
                c->call_file, c->call_line);
        else
            cat(r->evidence, sizeof r->evidence, "%s %s's loop at line %u (",
                i == 0 ? "" : i + 1 == in->ncallees ? " and" : ",", name, c->line);
        int first = 1;
        for (size_t k = 0; k < VP_FIX_CAT_COUNT; k++)
            if (c->categories & vp_fix_category_order[k]) {
                cat(r->evidence, sizeof r->evidence, "%s%s", first ? "" : ", ",
                    vp_fix_category_name(vp_fix_category_order[k]));
                first = 0;
            }
        fmt_pct(pct, sizeof pct, (double)c->samples / (double)in->loop_samples);
        cat(r->evidence, sizeof r->evidence, "%s; %s)", c->waits ? ", waiting in every iteration" : "",
            pct);
    }
    cat(r->evidence, sizeof r->evidence, ".");
}

/* A verdict on a loop in a system header is a verdict on how the program
   calls the library: "It is library code (std::__find_if<...>,
   stl_algobase.h:2065) run by the program's call at dedup.cpp:13: ..."
   (docs/vprof-loop.md, "Loops in system headers"). */
static void evidence_library(const struct vp_fix_input *in, struct vp_fix_result *r)
{
    if (!in->lib_header || !in->lib_call_file || !in->lib_call_line)
        return;
    int advice = 0;
    for (size_t i = 0; i < r->nfixes; i++)
        advice |= r->fixes[i] != VP_FIX_NONE;
    if (!advice)
        return;
    char fit[128];
    cat(r->evidence, sizeof r->evidence,
        "%sIt is library code (%s, %s) run by the program's call at %s:%u: the waste comes from "
        "what that call is given or how often it is made, so the change belongs there, not in "
        "the library.",
        r->evidence[0] ? " " : "",
        in->function ? vp_func_fit(in->function, 64, fit, sizeof fit) : "a library function",
        in->lib_header, in->lib_call_file, in->lib_call_line);
}

uint64_t vp_fix_source_iterations(const struct vp_fix_input *in)
{
    uint64_t n = in->slow.iterations;
    return in->unroll_factor > 1 && n <= UINT64_MAX / in->unroll_factor ? n * in->unroll_factor
                                                                        : n;
}

/* A loop that waits in every iteration (poll, sleep, a condition variable:
   loop table VP_SITEF_WAIT_EVERY_ITER; docs/vprof-loop.md, "Loops that
   wait").  When it repeats itself (`repeated`), what repeats is a wait that
   got the same answer -- nothing arrived -- which memoization would make
   wrong and batching would not shorten: no fix of its own unless a
   resultless category gave one.  Otherwise, when its instances went round
   at least twice on average, most of its waits got no answer: its time is
   waiting, which "every iteration produces a result" does not say -- but
   a wait for a child process or a thread to end (reaps) got one each
   time: the time is the children's. */
static int reaps(const char *callee)
{
    static const char *const names[] = {"wait",   "waitpid",      "wait3",
                                        "wait4",  "waitid",       "pthread_join",
                                        "pthread_timedjoin_np"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(callee, names[i]) == 0)
            return 1;
    return 0;
}

static void evidence_wait(const struct vp_fix_input *in, struct vp_fix_result *r, int repeated)
{
    const char *callee = in->wait_callee && *in->wait_callee ? in->wait_callee : "a function";
    double avg = in->slow.instances
                     ? (double)vp_fix_source_iterations(in) / (double)in->slow.instances
                     : 0;
    char a[32];
    if (repeated) {
        if (!r->nfixes)
            add_fix(r, VP_FIX_NONE);
        cat(r->evidence, sizeof r->evidence,
            "%sits call of %s at line %u waits in every %s: what repeats is a wait that got the "
            "same answer (nothing arrived), which no cache or batch can save;",
            r->evidence[0] ? " " : "", callee, in->wait_line, unit(in->kind, 0));
    } else if (in->slow.ran && avg >= 2 && reaps(callee)) {
        /* each wait ends with a process or thread that ended: an answer */
        fmt_avg(a, sizeof a, avg);
        cat(r->evidence, sizeof r->evidence,
            "%sits call of %s at line %u waits in every %s for a %s to end, and its instances "
            "went round %s times on average: the time goes to the %ses it waits for -- look at "
            "their work, not at this loop.",
            r->evidence[0] ? " " : "", callee, in->wait_line, unit(in->kind, 0),
            strstr(callee, "join") ? "thread" : "process", a,
            strstr(callee, "join") ? "thread" : "process");
        return;
    } else if (in->slow.ran && avg >= 2) {
        fmt_avg(a, sizeof a, avg);
        cat(r->evidence, sizeof r->evidence,
            "%sits call of %s at line %u waits in every %s, and its instances went round %s "
            "times on average: most waits got no answer;",
            r->evidence[0] ? " " : "", callee, in->wait_line, unit(in->kind, 0), a);
    } else {
        return;
    }
    cat(r->evidence, sizeof r->evidence,
        " the time goes to waiting for an answer that does not come -- look at who should "
        "answer, or why its caller waits at all.");
}

/* The samples of the loop in called loops that redo their previous
   instance's work (cross-loop) and run at most once per iteration of this
   loop, so that consecutive instances are the work of different
   iterations: the repeated work around the loop's I/O (docs/vprof-loop.md,
   "Repeated work around I/O").  0 unless the rule holds. */
static uint64_t io_repeated_samples(const struct vp_fix_input *in)
{
    if (in->kind != VP_LOOP_NATURAL || !in->io_line || !in->ncallees ||
        in->loop_samples < VP_FIX_CALLEE_MIN_SAMPLES)
        return 0;
    uint64_t iters = vp_fix_source_iterations(in);
    uint64_t rep = 0;
    for (size_t i = 0; i < in->ncallees && i < VP_FIX_CALLEES_MAX; i++) {
        const struct vp_fix_callee *c = &in->callees[i];
        if ((c->categories & VP_FIX_CAT_CROSS_LOOP) && !c->waits && c->instances &&
            c->instances <= iters)
            rep += c->samples;
    }
    if (rep > in->callee_samples) /* a listed loop calling another */
        rep = in->callee_samples;
    return (double)rep >= VP_FIX_CALLEE_MIN_SHARE * (double)in->loop_samples ? rep : 0;
}

static void evidence_io(const struct vp_fix_input *in, struct vp_fix_result *r, uint64_t rep)
{
    char pct[32], it[32];
    fmt_pct(pct, sizeof pct, (double)rep / (double)in->loop_samples);
    vp_fix_commas(it, sizeof it, vp_fix_source_iterations(in)); /* the calls are per source iteration */
    cat(r->evidence, sizeof r->evidence,
        "%severy one of its %s iterations does I/O (the call of %s at line %u), and %s of its "
        "samples are in called loops that redo their previous instance's work and run at most "
        "once per iteration: each iteration repeats the previous one's work around its I/O.",
        r->evidence[0] ? " " : "", it, in->io_callee && *in->io_callee ? in->io_callee : "a function",
        in->io_line, pct);
}

/* vprof rank's missing constraint, marked on this loop: every iteration
   does the work alike where a condition would skip the iterations that do
   not need it (vProf 5.2, the HTTPD-54852 fix), which is LDoctor's
   skip-loop strategy applied to iterations (docs/vprof-loop.md, "A
   constraint the loop is missing").  It holds when the variable visits the
   values it visits in the normal run (not a scalability sign) and its
   iterations, shorter than a sample interval there (a median run of 1),
   take several in the slow run: cheap iterations that became expensive,
   not a driver loop whose long iterations grew longer.  And the runs'
   run lengths differ more than they agree (a Hellinger distance of at
   least 1 - VP_FIX_CONSTRAINT_MAX_DISCOUNT), from at least
   VP_FIX_CONSTRAINT_MIN_RUNS runs in the slow run: a weak rule-1 anomaly
   names the pattern of a function, but is no ground to tell a developer
   to skip the work of a loop. */
static int constraint_holds(const struct vp_fix_constraint *k)
{
    return k->missing && !k->values_anomalous && k->normal_run == 1 && k->slow_run >= 2 &&
           k->discount <= VP_FIX_CONSTRAINT_MAX_DISCOUNT &&
           k->slow_runs >= VP_FIX_CONSTRAINT_MIN_RUNS;
}

static void missing_constraint(const struct vp_fix_input *in, struct vp_fix_result *r)
{
    const struct vp_fix_constraint *k = &in->constraint;
    char a[32];
    add_fix(r, VP_FIX_SKIP_LOOP);
    vp_fix_commas(a, sizeof a, k->slow_run);
    cat(r->evidence, sizeof r->evidence,
        "%sthe ranking (vprof rank) finds a missing constraint here: `%s` takes the same values "
        "as in the normal run, where it changed at every sample, but stays the same for %s "
        "sample intervals in the slow run, so each %s takes far longer doing what every %s "
        "does alike.",
        r->evidence[0] ? " " : "", k->variable && *k->variable ? k->variable : "?", a,
        unit(in->kind, 0), unit(in->kind, 0));
    if (r->condition[0])
        return; /* [0|1]*: the side effect that rarely runs says more */
    if (k->line && k->text && *k->text)
        cat(r->condition, sizeof r->condition,
            "add the check the loop is missing: skip the %s that do not need the work at line "
            "%u: `%s`",
            unit(in->kind, 1), k->line, k->text);
    else if (k->line)
        cat(r->condition, sizeof r->condition,
            "add the check the loop is missing: skip the %s that do not need the work at line %u",
            unit(in->kind, 1), k->line);
}

/* A growth factor as a person reads it: "1,765x", "12x", "1.5x", "0.055x"
   (never "1.76e+03x"). */
static void fmt_ratio(char *buf, size_t n, double x)
{
    if (x >= 99.5) {
        char c[32];
        vp_fix_commas(c, sizeof c, (uint64_t)(x + 0.5));
        snprintf(buf, n, "%sx", c);
    } else if (x >= 9.95) {
        snprintf(buf, n, "%.0fx", x);
    } else {
        snprintf(buf, n, "%.2gx", x);
    }
}

/* A duration as a person reads it: "0.31 ns", "850 ns", "25 us", "1.2 ms",
   "3.4 s" (three significant digits: a vectorized loop's iteration takes
   well under a nanosecond, which "%.0f" showed as "0 ns"). */
static void fmt_time(char *buf, size_t n, double s)
{
    if (s < 1e-6)
        snprintf(buf, n, "%.3g ns", s * 1e9);
    else if (s < 1e-3)
        snprintf(buf, n, "%.3g us", s * 1e6);
    else if (s < 1)
        snprintf(buf, n, "%.3g ms", s * 1e3);
    else
        snprintf(buf, n, "%.3g s", s);
}

/* Fewest samples in the loop, in each probed run, for a time per iteration. */
#define GROWTH_MIN_SAMPLES 10
/* The lines named as holding the added time (in->hot): the time per
   iteration grew at least GROWTH_HOT_MIN_RATIO times, and the fewest of
   the lines with the most added time that together hold at least
   GROWTH_HOT_MIN_SHARE of it, each at least GROWTH_HOT_LINE_SHARE, from at
   least GROWTH_MIN_SAMPLES samples in all. */
#define GROWTH_HOT_MIN_RATIO 1.5
#define GROWTH_HOT_MIN_SHARE 0.5
#define GROWTH_HOT_LINE_SHARE 0.1

/* A byte count as a person reads it: "192 bytes", "32 KiB", "1.5 MiB". */
static void fmt_bytes(char *buf, size_t n, uint64_t b)
{
    if (b < 1024)
        snprintf(buf, n, "%llu bytes", (unsigned long long)b);
    else if (b < 1024 * 1024)
        snprintf(buf, n, "%.3g KiB", (double)b / 1024);
    else if (b < 1024ull * 1024 * 1024)
        snprintf(buf, n, "%.3g MiB", (double)b / (1024 * 1024));
    else
        snprintf(buf, n, "%.3g GiB", (double)b / (1024.0 * 1024 * 1024));
}

/* ", where a memory access steps 32 KiB from one iteration to the next
   (...): ... -- walk the memory in the order it is laid out: ...", for a
   hot line whose strided access steps a cache line or more in the slow
   run, in the loop's own code (not in a call), in iterations of at most
   VP_FIX_STRIDE_MAX_ITER_SECONDS each (a memory access or a few: an
   iteration that runs longer has more than one access to explain it);
   docs/vprof-loop.md, "Strided walks".  ts: the slow run's time per
   iteration as compiled. */
#define VP_FIX_STRIDE_MAX_ITER_SECONDS 1e-6
static void stride_advice(const struct vp_fix_input *in, const struct vp_fix_hot_line *h,
                          double ts, struct vp_fix_result *r)
{
    uint64_t s = h->stride_bytes < 0 ? 0 - (uint64_t)h->stride_bytes : (uint64_t)h->stride_bytes;
    uint64_t ns = h->normal_stride_bytes < 0 ? 0 - (uint64_t)h->normal_stride_bytes
                                             : (uint64_t)h->normal_stride_bytes;
    double per = in->unroll_factor > 1 ? ts / in->unroll_factor : ts;
    if (s < VP_FIX_STRIDE_MIN_BYTES || h->callee || per > VP_FIX_STRIDE_MAX_ITER_SECONDS)
        return;
    char a[32], b[32], enclosing[64] = "";
    fmt_bytes(a, sizeof a, s);
    fmt_bytes(b, sizeof b, ns);
    cat(r->growth, sizeof r->growth, ", where a memory access steps %s%s from one %s to the next",
        a, h->stride_bytes < 0 ? " backwards" : "", unit(in->kind, 0));
    if (ns && ns != s)
        cat(r->growth, sizeof r->growth, " (%s in the normal run)", b);
    if (in->parent_line)
        snprintf(enclosing, sizeof enclosing, " at line %u", in->parent_line);
    if (in->depth > 1)
        cat(r->growth, sizeof r->growth,
            ": every %s touches another cache line, and once the data outgrows the caches "
            "each one waits for memory -- walk the memory in the order it is laid out: swap "
            "this loop with the loop around it%s, or work in tiles",
            unit(in->kind, 0), enclosing);
    else
        cat(r->growth, sizeof r->growth,
            ": every %s touches another cache line, and once the data outgrows the caches "
            "each one waits for memory -- keep what the loop reads next to each other (the "
            "field it reads in an array of its own, say)",
            unit(in->kind, 0));
}

/* "; the time per iteration grew with the iterations per instance (652x
   for 1,000x): as if one iteration's work were proportional to how long
   its loop runs, which makes an instance's time grow about as the square
   of its length", when both grew at least GROWTH_SCALE_MIN_RATIO times and
   the time per iteration as at least the GROWTH_SCALE_MIN_POWER-th power
   of the iterations per instance (docs/vprof-loop.md, "Work per iteration
   that grows").  A cache that the data outgrew makes an iteration a few
   times slower, not as much as the loop grew; a memmove of the rest of an
   array, a rescan of the string so far, or a walk of a list to its end
   makes it as much.  Two runs give two points: the exponent is theirs. */
#define GROWTH_SCALE_MIN_RATIO 8.0
#define GROWTH_SCALE_MIN_POWER 0.5
static void scaling(const struct vp_fix_input *in, double tn, double ts, struct vp_fix_result *r)
{
    const struct vp_fix_counts *s = &in->slow, *n = &in->normal;
    if (!(n->avg_iterations > 0) || !(tn > 0))
        return;
    double g = s->avg_iterations / n->avg_iterations, t = ts / tn;
    if (!(g >= GROWTH_SCALE_MIN_RATIO) || !(t >= GROWTH_SCALE_MIN_RATIO))
        return;
    double e = log(t) / log(g);
    if (!(e >= GROWTH_SCALE_MIN_POWER))
        return;
    r->growth_exponent = 1 + e;
    char a[32], b[32], power[48];
    fmt_ratio(a, sizeof a, t);
    fmt_ratio(b, sizeof b, g);
    if (fabs(r->growth_exponent - 2) <= 0.25)
        snprintf(power, sizeof power, "about as the square");
    else if (fabs(r->growth_exponent - 3) <= 0.25)
        snprintf(power, sizeof power, "about as the cube");
    else
        snprintf(power, sizeof power, "as the %.1f-th power", r->growth_exponent);
    cat(r->growth, sizeof r->growth,
        "; the time per %s grew with the %s per %s (%s for %s): as if one %s's work were "
        "proportional to how long its %s runs, which makes an %s's time grow %s of its "
        "length",
        unit(in->kind, 0), unit(in->kind, 1), instance_word(in->kind), a, b, unit(in->kind, 0),
        in->kind == VP_LOOP_RECURSION ? "recursion" : "loop", instance_word(in->kind), power);
}

/* "; line 64 holds 95% of the added time per iteration (14.1 us of 14.9
   us), in calls of X, most of it in Y: `text`", and for each further line
   ", and line 65 20%[, in calls of Z]: `text`", when in->hot says so. */
static void hot_line(const struct vp_fix_input *in, double tn, double ts, struct vp_fix_result *r)
{
    const struct vp_fix_counts *s = &in->slow, *n = &in->normal;
    if (ts < GROWTH_HOT_MIN_RATIO * tn)
        return;
    double share[VP_FIX_HOT_LINES], sum = 0;
    uint64_t samples = 0;
    size_t k = 0;
    for (; k < VP_FIX_HOT_LINES && sum < GROWTH_HOT_MIN_SHARE && in->hot[k].line; k++) {
        const struct vp_fix_hot_line *h = &in->hot[k];
        share[k] = (h->slow_seconds / (double)s->iterations -
                    h->normal_seconds / (double)n->iterations) / (ts - tn);
        if (share[k] > 1)
            share[k] = 1;
        if (share[k] < GROWTH_HOT_LINE_SHARE)
            break;
        sum += share[k];
        samples += h->slow_samples;
    }
    if (sum < GROWTH_HOT_MIN_SHARE || samples < GROWTH_MIN_SAMPLES)
        return;
    for (size_t i = 0; i < k; i++) {
        const struct vp_fix_hot_line *h = &in->hot[i];
        if (i == 0) {
            char a[32], t[32];
            fmt_time(a, sizeof a, share[0] * (ts - tn));
            fmt_time(t, sizeof t, ts - tn);
            cat(r->growth, sizeof r->growth,
                "; line %u holds %.0f%% of the added time per %s (%s of %s)", h->line,
                100 * share[0], unit(in->kind, 0), a, t);
        } else {
            cat(r->growth, sizeof r->growth, ", and line %u %.0f%%", h->line, 100 * share[i]);
        }
        /* a further line's callee only when it is another one */
        if (h->callee && (i == 0 || !in->hot[0].callee || strcmp(h->callee, in->hot[0].callee)))
            cat(r->growth, sizeof r->growth, ", in calls of %.160s", h->callee);
        if (h->leaf && i == 0)
            cat(r->growth, sizeof r->growth, ", most of it in %.120s", h->leaf);
        if (h->unwinding)
            cat(r->growth, sizeof r->growth,
                "%s unwinding C++ exceptions thrown there: a throw costs a microsecond or more "
                "(the unwinder searches the call frames' tables), so the %s that throw are "
                "slow -- test for the failure before the call (std::from_chars, strtol with "
                "an end pointer, a find before an at()) rather than catch it",
                h->leaf && i == 0 ? "," : ", most of it", unit(in->kind, 1));
        stride_advice(in, h, ts, r);
        if (h->text)
            cat(r->growth, sizeof r->growth, ": `%.160s`", h->text);
        r->growth_line_share[i] = share[i];
    }
    r->growth_lines = k;
}

static void growth(const struct vp_fix_input *in, struct vp_fix_result *r)
{
    const struct vp_fix_counts *s = &in->slow, *n = &in->normal;
    if (!n->ran || !s->ran)
        return;
    char navg[32], savg[32], ninst[32], sinst[32];
    fmt_avg(navg, sizeof navg, n->avg_iterations);
    fmt_avg(savg, sizeof savg, s->avg_iterations);
    vp_fix_commas(ninst, sizeof ninst, n->instances);
    vp_fix_commas(sinst, sizeof sinst, s->instances);
    cat(r->growth, sizeof r->growth, "normal run: %s %s per %s (%s %s%s); slow run: %s (%s %s%s)",
        navg, unit(in->kind, strcmp(navg, "1") != 0), instance_word(in->kind), ninst,
        instance_word(in->kind), n->instances == 1 ? "" : "s", savg, sinst,
        instance_word(in->kind), s->instances == 1 ? "" : "s");
    if (n->avg_iterations > 0 && n->iterations > 0) {
        char per[32], total[32];
        fmt_ratio(per, sizeof per, s->avg_iterations / n->avg_iterations);
        fmt_ratio(total, sizeof total, (double)s->iterations / (double)n->iterations);
        cat(r->growth, sizeof r->growth, ": %s the %s per %s, %s the total work", per,
            unit(in->kind, 1), instance_word(in->kind), total);
    }
    /* The time per iteration, from the probed runs' samples in the loop: work
       per iteration that grows with the input (a quadratic loop) shows here,
       not in the counts. */
    if (n->samples >= GROWTH_MIN_SAMPLES && s->samples >= GROWTH_MIN_SAMPLES && n->iterations &&
        s->iterations && n->seconds > 0) {
        double tn = n->seconds / (double)n->iterations, ts = s->seconds / (double)s->iterations;
        char a[32], b[32], x[32], t[32], ns[32], ss[32];
        fmt_time(a, sizeof a, tn);
        fmt_time(b, sizeof b, ts);
        fmt_ratio(x, sizeof x, ts / tn);
        fmt_ratio(t, sizeof t, s->seconds / n->seconds);
        vp_fix_commas(ns, sizeof ns, n->samples);
        vp_fix_commas(ss, sizeof ss, s->samples);
        cat(r->growth, sizeof r->growth,
            "; time per %s: %s normal, %s slow (%s), so %s the time in the %s (%s and %s "
            "samples of the probed runs)",
            unit(in->kind, 0), a, b, x, t, in->kind == VP_LOOP_RECURSION ? "recursion" : "loop",
            ns, ss);
        scaling(in, tn, ts, r);
        hot_line(in, tn, ts, r);
    }
    cat(r->growth, sizeof r->growth, ".");
}

/* Capitalises the first letter of each sentence ("x. y" -> "X. Y"). */
static void sentence_case(char *s)
{
    int start = 1;
    for (; *s; s++) {
        if (start && *s >= 'a' && *s <= 'z')
            *s = (char)(*s - 'a' + 'A');
        if (*s != ' ')
            start = 0;
        if (*s == '.' && s[1] == ' ')
            start = 1;
    }
}

void vp_fix_suggest(const struct vp_fix_input *in, struct vp_fix_result *r)
{
    memset(r, 0, sizeof *r);
    if (!in->slow.ran || in->slow.iterations == 0) {
        cat(r->evidence, sizeof r->evidence, "the loop did not run in the slow run.");
        return;
    }
    /* A loop that never went round (a `goto retry` taken by no instance, a
       `do { } while (0)`-like dispatch): nothing in it repeats and no
       iteration is wasted on the way to a later one, so LDoctor's
       categories, which are about iterations, do not apply.  Its
       "redundancy" would only say that its one pass reads the same values
       as in other instances (a type tag in an interpreter's call path),
       which is the cost of the calls of its function, not of a loop
       (docs/vprof-loop.md, "Loops that never went round"). */
    if (in->kind == VP_LOOP_NATURAL && !(in->flags & (VP_LOOPF_VECTOR | VP_LOOPF_UNROLLED)) &&
        in->slow.max_iterations <= 1) {
        char inst[32];
        vp_fix_commas(inst, sizeof inst, in->slow.instances);
        if (in->slow.instances == 1)
            cat(r->evidence, sizeof r->evidence, "its one instance ran a single iteration");
        else
            cat(r->evidence, sizeof r->evidence, "each of its %s instances ran a single iteration",
                inst);
        cat(r->evidence, sizeof r->evidence,
            ": the loop never went round, so no loop inefficiency can be diagnosed in it; its "
            "cost is one pass of its body per instance.");
        growth(in, r);
        sentence_case(r->evidence);
        return;
    }
    if (in->spin_line) {
        spin_verdict(in, r);
        evidence_callees(in, r);
        growth(in, r);
        sentence_case(r->evidence);
        return;
    }
    /* Resultless categories: loopclass's verdict (a 0* loop that ran is
       always inefficient). */
    int resultless = in->inefficient || in->static_class == VP_CLASS_ZERO_STAR || grown_search(in);
    int held = resultless && results_hold_time(in);
    if (held) {
        resultless = 0;
        evidence_results_hold(in, r);
    }
    if (resultless) {
        switch (in->static_class) {
        case VP_CLASS_ZERO_STAR:
            r->categories |= VP_FIX_CAT_ZERO_STAR;
            add_fix(r, VP_FIX_DELETE_LOOP);
            break;
        case VP_CLASS_ZERO_STAR_ONE:
            r->categories |= VP_FIX_CAT_ZERO_STAR_ONE;
            add_fix(r, VP_FIX_CHANGE_DATA_STRUCTURE);
            break;
        case VP_CLASS_ZERO_OR_ONE:
            r->categories |= VP_FIX_CAT_ZERO_OR_ONE;
            add_fix(r, VP_FIX_SKIP_LOOP);
            if (in->site_line) {
                if (in->site_text && *in->site_text)
                    cat(r->condition, sizeof r->condition,
                        "skip the loop when the side effect at line %u cannot run: `%s`",
                        in->site_line, in->site_text);
                else
                    cat(r->condition, sizeof r->condition,
                        "skip the loop when the side effect at line %u cannot run", in->site_line);
            }
            break;
        default:
            resultless = 0;
            break;
        }
    }
    if (resultless)
        evidence_resultless(in, r);

    /* Redundancy categories (LDoctor 3.2.6 picks the strategy). */
    /* A 0* loop is deleted: whatever it repeats goes with it, so its
       redundancy says nothing more (and would suggest caching useless work). */
    if (in->red.measured && !(r->categories & VP_FIX_CAT_ZERO_STAR)) {
        /* a loop that waits in every iteration repeats a wait that got the
           same answer: no cache or batch saves that (evidence_wait) */
        if (in->red.cross_loop) {
            r->categories |= VP_FIX_CAT_CROSS_LOOP;
            if (!in->wait_line)
                add_fix(r, in->red.constant_writes ? VP_FIX_MEMOIZATION : VP_FIX_BATCHING);
        }
        if (call_rescans(&in->red)) {
            r->categories |= VP_FIX_CAT_CROSS_LOOP;
            /* shifted copies: the array is the wrong structure */
            if (!in->wait_line)
                add_fix(r, in->red.call_shifted || in->red.call_sorts
                               ? VP_FIX_CHANGE_DATA_STRUCTURE
                               : VP_FIX_MEMOIZATION);
        }
        if (in->red.cross_iteration || call_work(&in->red)) {
            r->categories |= VP_FIX_CAT_CROSS_ITERATION;
            if (!in->wait_line)
                add_fix(r, in->red.io_every_iteration ||
                                   (!in->red.cross_iteration && in->red.call_io &&
                                    !in->red.call_setup)
                               ? VP_FIX_BATCHING
                               : VP_FIX_MEMOIZATION);
        }
        evidence_redundancy(in, r);
        if (call_rescans(&in->red))
            evidence_rescan(in, r);
        if (in->wait_line && (r->categories & (VP_FIX_CAT_CROSS_LOOP | VP_FIX_CAT_CROSS_ITERATION)))
            evidence_wait(in, r, 1);
    }
    /* LDoctor's I/O-related cross-iteration redundancy, measured in the
       loops the iterations call (docs/vprof-loop.md). */
    if (!(r->categories & (VP_FIX_CAT_ZERO_STAR | VP_FIX_CAT_CROSS_ITERATION))) {
        uint64_t rep = io_repeated_samples(in);
        if (rep) {
            r->categories |= VP_FIX_CAT_CROSS_ITERATION;
            add_fix(r, VP_FIX_BATCHING);
            evidence_io(in, r, rep);
        }
    }

    /* 1* only when nothing more informative holds. */
    int constraint = constraint_holds(&in->constraint);
    int syscalls = syscalls_hold_time(in);
    if (!r->categories && in->static_class == VP_CLASS_ONE_STAR) {
        r->categories = VP_FIX_CAT_ONE_STAR;
        if (!constraint && !syscalls)
            add_fix(r, VP_FIX_NONE);
    }
    if (syscalls && !(r->categories & VP_FIX_CAT_ZERO_STAR))
        add_fix(r, VP_FIX_BATCHING);
    if (!r->evidence[0])
        evidence_efficient(in, r);
    if (!resultless) /* a walk that keeps the node before its key is 1* */
        evidence_bucket_chain(in, r);
    evidence_call_wait(in, r);
    if (in->wait_line && !(r->categories & (VP_FIX_CAT_CROSS_LOOP | VP_FIX_CAT_CROSS_ITERATION)))
        evidence_wait(in, r, 0);
    if (constraint)
        missing_constraint(in, r);
    if (syscalls && !(r->categories & VP_FIX_CAT_ZERO_STAR))
        evidence_syscalls(in, r);
    evidence_callees(in, r);
    evidence_library(in, r);
    growth(in, r);
    sentence_case(r->evidence);
}
