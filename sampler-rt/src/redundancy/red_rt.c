/*
 * red_rt.c - runtime half of the redundancy probes (docs/redundancy.md).
 *
 * The probes inserted by redundancy/pass/RedundancyProbes.cpp call the
 * functions below only on the sampled path: when an iteration or a loop
 * instance was chosen (a per-thread countdown in the instrumented code ran
 * out).  Per thread we keep
 *   - a stack of the iterations being recorded (loops nest), each with an
 *     XXH3 state hashing its <source id, value> sequence (cross-iteration);
 *   - for each loop whose instance is being recorded, a staging buffer of
 *     its <source id, value> sequence, address ranges and counters
 *     (cross-loop); finished instances are copied into a per-thread arena;
 *   - the finished iteration signatures.
 * Everything is per thread: no lock anywhere; buffers are mmap'd once per
 * thread and published on a lock-free list read when the profile is
 * written.  None of this runs in the SIGPROF handler.  Capacities are fixed
 * (VP_RED_* below) and every loss is counted in the written sections.
 *
 * The functions are called by instrumented code only when the runtime set
 * the function's gate byte, so they exist whenever they are called.
 */
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* xxHash is compiled into the runtime (docs/redundancy.md, "Signatures"):
   the hashing of a recorded iteration's pairs runs inline, with no call
   into libxxhash. */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <vprof/format.h>

#include "rt_hooks.h"

#define VP_RED_EXPORT __attribute__((visibility("default")))
#define VP_RED_TLS __thread __attribute__((tls_model("initial-exec")))

#define VP_RED_MAX_LOOPS 4096          /* global loop numbers per process      */
#define VP_RED_STACK 16                /* nested recorded iterations           */
#define VP_RED_PAIR_SKIPS 64           /* instances skipped to pair same depth */
#define VP_RED_ITER_VALUE_CAP (1u << 16) /* pairs hashed per iteration         */
#define VP_RED_HASH_CAP (1u << 16)     /* iteration signatures per thread      */
#define VP_RED_ACTIVE_INSTANCES 8      /* instances recorded at once per thread */
#define VP_RED_INSTANCE_VALUE_CAP 4096 /* values kept per instance             */
#define VP_RED_INSTANCE_RANGES 16      /* range sources per instance           */
#define VP_RED_ARENA (16u << 20)       /* finished instances per thread (bytes) */
#define VP_RED_INSTANCE_MAX_BYTES                                                 \
    (sizeof(struct vp_instance) + VP_RED_INSTANCE_VALUE_CAP * sizeof(struct vp_instance_value) + \
     VP_RED_INSTANCE_RANGES * sizeof(struct vp_instance_range))
#define VP_RED_LOOP_HASHES 8192       /* signatures per loop and thread       */
#define VP_RED_SKETCH_LOOPS 256       /* loops with a sketch per thread (4 KiB each) */
/* Past its share, a loop goes on computing signatures (for its sketch)
   only while its verdict is open: the rate of what it kept is in
   [1.1, 2) (docs/redundancy.md, "Whole-run rate"). */
#define VP_RED_CI_GO_ON 1
#define VP_RED_CI_STOP 2
#define VP_RED_CI_OPEN_LO 1.1
#define VP_RED_CI_OPEN_HI 2.0
#define VP_RED_CI_JUDGE_MIN 1000      /* fewer kept: too few to judge, go on  */
#define VP_RED_CI_EXTRA (7 * VP_RED_LOOP_HASHES) /* then at most this many more */
#define VP_RED_LOOP_PAIRS 128         /* instance pairs per loop and thread, then thinned */
#define VP_RED_LOOP_ARENA (VP_RED_ARENA / 4) /* their bytes, then thinned       */
#define VP_RED_MAX_RATE (1 << 30)
#define VP_RED_STALE_SPAN (8u << 20)  /* a frame this far below the stack is stale */
#define VP_RED_DEFAULT_ITER_RATE 1000
#define VP_RED_DEFAULT_INSTANCE_RATE 100 /* LDoctor's; see docs/redundancy.md */
#define VP_RED_PREFIX_CHUNK 64        /* bytes per chunk hash of a scanned string... */
#define VP_RED_PREFIX_CHUNKS 1024     /* ...doubled until at most this many chunks  */
#define VP_RED_COPY_CHUNKS 128        /* a copy's chunks from each end            */

/* An iteration's <source, value> pairs are hashed in blocks of 15 pairs
   (240 bytes, the longest input XXH3-64 hashes with its scalar short-input
   code): each block's XXH3-64, seeded with the hash of the blocks before it
   (0 for the first), is the hash so far.  An iteration of up to 15 pairs
   thus has XXH3_64bits() of its bytes as its signature.  XXH3's streaming
   state cost mdev21826 7 % at the default rate where these blocks cost
   nothing measurable (docs/redundancy.md, "Signatures"). */
#define VP_RED_FRAME_PAIRS 15

struct vp_red_frame {
    uint32_t loop;          /* global loop number                            */
    uint32_t ci;            /* this iteration is a cross-iteration sample    */
    uint32_t values;
    uint32_t truncated;
    uint32_t buffered;      /* pairs in `pairs` not yet in `hash`            */
    uint32_t reserved;
    uint64_t hash;          /* of the full blocks so far (0: none yet)       */
    uint64_t pairs[2 * VP_RED_FRAME_PAIRS];
    uintptr_t sp;           /* stack address of the sampling call (stale
                               frames: vp_red_drop_stale)                    */
};

struct vp_red_staging {
    uint32_t loop;          /* global loop number, ~0u when free             */
    struct vp_instance inst;
    struct vp_instance_range ranges[VP_RED_INSTANCE_RANGES];
    struct vp_instance_value values[VP_RED_INSTANCE_VALUE_CAP];
    uintptr_t sp;           /* stack address of its instance_sample          */
};

struct vp_red_loop_state {
    int32_t ci_countdown;   /* saved while an instance forces every iteration */
    int32_t run_len;        /* iterations of the run under way (0: none)      */
    uint8_t pair_second;    /* the next sampled instance closes a pair       */
    uint8_t staging;        /* index + 1 of the staging buffer, 0 if none    */
    uint8_t started;        /* the instance countdown got its random phase   */
    uint8_t pair_skips;     /* instances passed over looking for the second  */
    uint8_t inst_shift;     /* instance rate doubled this many times         */
    uint8_t ci_past;        /* past its share of the table: 0 undecided,
                               VP_RED_CI_GO_ON (sketch only), VP_RED_CI_STOP */
    uint32_t ci_kept;       /* this loop's signatures in the thread's table  */
    uint32_t sketch;        /* index + 1 of its sketch in t->sketches, 0 none */
    uint32_t ci_extra;      /* signatures past its share (VP_RED_CI_EXTRA)   */
    uint64_t ci_sampled;    /* signatures its sketch saw                     */
    uint32_t inst_kept;     /* this loop's instances in the thread's arena   */
    uint64_t inst_bytes;    /* and their bytes                               */
    uint64_t pairs;         /* pairs started                                 */
    uintptr_t pair_frame;   /* stack depth of the pair's first instance      */
    uint64_t chunk;         /* a string scan's chunk size, set by the pair's
                               first call (vp_red_prefix_in)                */
    struct vp_red_rt_slot *slot; /* this thread's slot of the loop (its TU's
                                  thread-local array), known from the first
                                  sample call                               */
};

struct vp_red_thread {
    struct vp_red_thread *next;  /* publication list                         */
    uint32_t tid;
    uint32_t depth;              /* frames in use                            */
    uint64_t rng;
    uint64_t hash_count, hash_dropped, iter_truncated;
    uint64_t inst_count, inst_dropped, values_dropped;
    uint64_t arena_used;
    /* Other threads may write the profile while this one records (a
       program that exits with its threads running): hash_count and
       arena_used are published with release stores after the records they
       count are complete, and the arena's layout changes (thinning) only
       between two increments of arena_seq, odd meanwhile (a seqlock). */
    uint32_t arena_seq;
    uint32_t w_pad;
    uint64_t w_hashes, w_arena; /* the writer's snapshot (vp_red_write)   */
    struct vp_iter_hash *hashes; /* VP_RED_HASH_CAP                           */
    uint8_t *sketches;           /* VP_RED_SKETCH_LOOPS x VP_ITER_SKETCH_REGS,
                                    mapped at the first signature            */
    uint32_t sketch_count;       /* in use (published with a release store)  */
    uint32_t sketch_pad;
    uint64_t sketch_dropped;     /* signatures no sketch saw                 */
    uint8_t *arena;              /* VP_RED_ARENA bytes                        */
    struct vp_red_staging *staging; /* VP_RED_ACTIVE_INSTANCES               */
    struct vp_red_frame frames[VP_RED_STACK];
    struct vp_red_loop_state loops[VP_RED_MAX_LOOPS];
    int32_t *active;             /* this thread's __vprof_red_active of...   */
    const struct vp_red_rt_module *active_mod; /* ...this module (cached)    */
};

struct vp_red_loop_ref {
    const struct vp_red_rt_module *mod;
    uint32_t idx;
};

static struct {
    _Atomic(struct vp_red_rt_module *) modules;
    _Atomic(struct vp_red_thread *) threads;
    struct vp_red_thread *scan; /* where the next claim looks (vp_rt_claim_record) */
    atomic_uint next_loop;
    struct vp_red_loop_ref loops[VP_RED_MAX_LOOPS];
    int32_t iter_rate, instance_rate;
    atomic_ulong threads_failed;
} vp_red;

/* Set while an entry point below works on this thread's state.  A signal
   handler that runs probed code while one of them is under way on its
   thread (half-way through an append, a copy into the arena or a thinning
   of it) must not touch that state: its loops are not sampled, its values
   are dropped, and both are counted (docs/redundancy.md, "Signals").  The
   fences keep the compiler from moving the state's accesses across the
   flag's; a handler runs on the same thread, so nothing stronger is
   needed. */
static VP_RED_TLS struct {
    struct vp_red_thread *self; /* this thread's buffers (vp_red_thread)  */
    volatile sig_atomic_t busy;
} vp_red_tls; /* one struct: the entry points find both with one address */

static int vp_red_enter(void)
{
    if (vp_red_tls.busy)
        return 0;
    vp_red_tls.busy = 1;
    atomic_signal_fence(memory_order_seq_cst);
    return 1;
}

static void vp_red_leave(void)
{
    atomic_signal_fence(memory_order_seq_cst);
    vp_red_tls.busy = 0;
}

/* A rate: 1 in `v`.  A malformed one is reported and the default kept. */
static int32_t vp_red_env_rate(const char *name, int32_t dflt)
{
    return (int32_t)vp_rt_env_u64(name, (uint64_t)dflt, 1, VP_RED_MAX_RATE);
}

static void vp_red_read_env(void)
{
    if (vp_red.iter_rate)
        return;
    vp_red.iter_rate = vp_red_env_rate("VPROF_RED_ITER_RATE", VP_RED_DEFAULT_ITER_RATE);
    vp_red.instance_rate =
        vp_red_env_rate("VPROF_RED_INSTANCE_RATE", VP_RED_DEFAULT_INSTANCE_RATE);
}

/* True if `name` is in VPROF_LOOP_FUNCTIONS (separated by ',', ':' or
   spaces; "*" selects every function). */
static int vp_red_selected(const char *name)
{
    const char *list = getenv("VPROF_LOOP_FUNCTIONS");
    if (!list || !name || !*name)
        return 0;
    size_t n = strlen(name);
    const char *p = list;
    while (*p) {
        while (*p == ',' || *p == ':' || *p == ' ')
            p++;
        const char *e = p;
        while (*e && *e != ',' && *e != ':' && *e != ' ')
            e++;
        if ((size_t)(e - p) == 1 && *p == '*')
            return 1;
        if ((size_t)(e - p) == n && memcmp(p, name, n) == 0)
            return 1;
        p = e;
    }
    return 0;
}

/* Called by every instrumented TU's constructor.  Assigns the module's
   global loop numbers and opens the gates of the selected functions. */
VP_RED_EXPORT void __vprof_red_register(struct vp_red_rt_module *m)
{
    if (!m || m->version < 2 || m->version > VP_RED_RT_VERSION)
        return; /* 2: no `active`; 3: NoCI exits call instance_end */
    vp_red_read_env();
    uint32_t base = atomic_fetch_add(&vp_red.next_loop, m->loop_count);
    m->slot_base = base;
    for (uint32_t i = 0; i < m->loop_count; i++) {
        if (base + i < VP_RED_MAX_LOOPS) {
            vp_red.loops[base + i].mod = m;
            vp_red.loops[base + i].idx = i;
        }
        const struct vp_red_rt_loop *l = &m->loops[i];
        if (base + i < VP_RED_MAX_LOOPS &&
            (vp_red_selected(l->function) || vp_red_selected(l->container)))
            *l->gate = 1;
    }
    struct vp_red_rt_module *head = atomic_load(&vp_red.modules);
    do
        m->next = head;
    while (!atomic_compare_exchange_weak(&vp_red.modules, &head, m));
}

static void *vp_red_map(size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* The buffers of a thread that has exited, taken over by the calling
   thread `tid`, or NULL.  A program that runs each task on a new thread
   would otherwise map a new set per thread and never give it back (20,000
   short threads: 1 GB resident, 3.5x the run time; docs/redundancy.md,
   "Threads").  The claim is vp_rt_claim_record's.  The records the old
   thread finished stay (they carry its tid), the per-loop shares go on,
   and what it left open is counted as dropped. */
static struct vp_red_thread *vp_red_reuse(uint32_t tid)
{
    struct vp_red_thread *t =
        vp_rt_claim_record((void **)&vp_red.threads, (void **)&vp_red.scan,
                           offsetof(struct vp_red_thread, next),
                           offsetof(struct vp_red_thread, tid), tid);
    if (!t)
        return NULL;
    for (uint32_t d = 0; d < t->depth && d < VP_RED_STACK; d++)
        t->hash_dropped += t->frames[d].ci;
    t->depth = 0;
    for (int i = 0; i < VP_RED_ACTIVE_INSTANCES; i++)
        if (t->staging[i].loop != ~0u) {
            t->staging[i].loop = ~0u;
            t->inst_dropped++;
        }
    for (uint32_t g = 0; g < VP_RED_MAX_LOOPS; g++) {
        struct vp_red_loop_state *ls = &t->loops[g];
        if (!ls->slot && !ls->started)
            continue;
        ls->slot = NULL; /* in the dead thread's TLS */
        ls->staging = ls->pair_second = ls->started = ls->pair_skips = 0;
        ls->ci_countdown = 0;
        ls->pair_frame = 0;
    }
    t->active = NULL;
    t->active_mod = NULL;
    return t;
}

/* This thread's buffers: those of an exited thread, or new ones on first
   use; NULL if memory ran out.  (vp_red_thread is the fast path.) */
static __attribute__((noinline)) struct vp_red_thread *vp_red_thread_new(void)
{
    struct vp_red_thread *t;
    uint32_t tid = (uint32_t)syscall(SYS_gettid);
    int fresh = 0;
    t = vp_red_reuse(tid);
    if (!t) {
        t = vp_red_map(sizeof *t);
        if (!t)
            goto fail;
        t->hashes = vp_red_map(sizeof(struct vp_iter_hash) * VP_RED_HASH_CAP);
        t->arena = vp_red_map(VP_RED_ARENA);
        t->staging = vp_red_map(sizeof(struct vp_red_staging) * VP_RED_ACTIVE_INSTANCES);
        if (!t->hashes || !t->arena || !t->staging) {
            if (t->hashes)
                munmap(t->hashes, sizeof(struct vp_iter_hash) * VP_RED_HASH_CAP);
            if (t->arena)
                munmap(t->arena, VP_RED_ARENA);
            if (t->staging)
                munmap(t->staging, sizeof(struct vp_red_staging) * VP_RED_ACTIVE_INSTANCES);
            munmap(t, sizeof *t);
            goto fail;
        }
        for (int i = 0; i < VP_RED_ACTIVE_INSTANCES; i++)
            t->staging[i].loop = ~0u;
        t->tid = tid;
        fresh = 1;
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    t->rng = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ ((uint64_t)tid << 32) ^
             (uint64_t)(uintptr_t)t;
    if (!t->rng)
        t->rng = 1;
    if (fresh) {
        struct vp_red_thread *head = atomic_load(&vp_red.threads);
        do
            t->next = head;
        while (!atomic_compare_exchange_weak(&vp_red.threads, &head, t));
    }
    vp_red_tls.self = t;
    return t;
fail:
    atomic_fetch_add(&vp_red.threads_failed, 1);
    return NULL;
}

static inline struct vp_red_thread *vp_red_thread(void)
{
    struct vp_red_thread *t = vp_red_tls.self;
    return t ? t : vp_red_thread_new();
}

/* A gap with mean `rate`: uniform in [1, 2*rate-1] (xorshift64*). */
static int32_t vp_red_gap(struct vp_red_thread *t, int32_t rate)
{
    if (rate <= 1)
        return 1;
    uint64_t x = t->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    t->rng = x;
    return 1 + (int32_t)((x * 0x2545F4914F6CDD1Dull >> 33) % (uint64_t)(2 * rate - 1));
}

/* A loop's instance rate: the configured one, doubled at each thinning. */
static int32_t vp_red_rate(int32_t rate, unsigned shift)
{
    int64_t r = (int64_t)rate << (shift < 31 ? shift : 31);
    return r < VP_RED_MAX_RATE ? (int32_t)r : VP_RED_MAX_RATE;
}

static int32_t vp_red_inst_gap(struct vp_red_thread *t, uint32_t g)
{
    return vp_red_gap(t, vp_red_rate(vp_red.instance_rate, t->loops[g].inst_shift));
}

/* Where a thread's first sample falls, from two gaps: the smaller.  A gap
   is uniform in [1, 2R-1]; the distance from a random point of the run to
   the next sample follows P(k) = (2R-k)/((2R-1)R), whose tail the minimum
   of two gaps matches to O(1/R).  In particular a thread's first
   iteration (or call, for a recursion) is itself sampled with probability
   about 1/R: a thread that runs a loop once (a thread per task) is sampled
   as often as the rate says.  Before, the first one only drew the phase
   and was never sampled (docs/redundancy.md, "Threads"). */
static int32_t vp_red_phase(int32_t a, int32_t b)
{
    return a < b ? a : b;
}

static uint64_t vp_red_loop_id(uint32_t g)
{
    const struct vp_red_loop_ref *r = &vp_red.loops[g];
    return r->mod ? r->mod->loops[r->idx].loop_id : 0;
}

static int vp_red_no_active(uint32_t g)
{
    const struct vp_red_loop_ref *r = &vp_red.loops[g];
    return r->mod && (r->mod->loops[r->idx].flags & VP_RED_RTF_NO_ACTIVE);
}

static int vp_red_no_ci(uint32_t g)
{
    const struct vp_red_loop_ref *r = &vp_red.loops[g];
    return !r->mod || (r->mod->loops[r->idx].flags & VP_RED_RTF_NO_CI);
}

/* Loop g's cross-iteration rate: the configured one, or for a unit of a
   costly call (VP_RED_RTF_DENSE: an fopen, a regcomp) VP_RED_DENSE_RATE
   when that is denser. */
static int32_t vp_red_ci_rate(uint32_t g)
{
    const struct vp_red_loop_ref *r = &vp_red.loops[g];
    if (r->mod && (r->mod->loops[r->idx].flags & VP_RED_RTF_DENSE) &&
        vp_red.iter_rate > VP_RED_DENSE_RATE)
        return VP_RED_DENSE_RATE;
    return vp_red.iter_rate;
}

/* Whether the copy of loop g takes runs (iter_sample's answer 2). */
static int vp_red_runs(const struct vp_red_rt_module *m, uint32_t g)
{
    const struct vp_red_loop_ref *r = &vp_red.loops[g];
    return m->version >= 7 && r->mod && (r->mod->loops[r->idx].flags & VP_RED_RTF_RUNS);
}

static struct vp_red_staging *vp_red_instance(struct vp_red_thread *t, uint32_t g)
{
    uint8_t s = t->loops[g].staging;
    return s ? &t->staging[s - 1] : NULL;
}

/* Which values the recording copy of loop `g` still sends (slot.recording). */
static void vp_red_recording(struct vp_red_thread *t, uint32_t g, int32_t set, int32_t clear)
{
    struct vp_red_rt_slot *slot = t->loops[g].slot;
    if (slot)
        slot->recording = (slot->recording | set) & ~clear;
}

static void vp_red_push_frame(struct vp_red_thread *t, uint32_t g, int ci, uintptr_t sp)
{
    if (t->depth >= VP_RED_STACK) { /* deeper nesting: counted, not recorded */
        t->depth++;
        if (ci) /* its signature is lost: counted, not hidden */
            t->hash_dropped++;
        return;
    }
    struct vp_red_frame *f = &t->frames[t->depth++];
    f->loop = g;
    f->ci = (uint32_t)ci;
    f->values = 0;
    f->truncated = 0;
    f->buffered = 0;
    f->hash = 0;
    f->sp = sp;
    if (ci)
        vp_red_recording(t, g, VP_RED_MODE_CI, 0);
}

/* Drops the top frame of a recorded iteration that will never end (a
   cross-iteration one counts in `dropped`). */
static void vp_red_drop_top(struct vp_red_thread *t)
{
    struct vp_red_frame *f = &t->frames[t->depth - 1];
    if (f->ci) {
        vp_red_recording(t, f->loop, 0, VP_RED_MODE_CI);
        t->hash_dropped++;
    }
    t->depth--;
}

/* A longjmp or C++ exception out of a recorded iteration skips its
   iter_end: its frame stays on the thread's stack, and the probes' count
   of open frames (__vprof_red_active) stays raised, so the callees that
   test it after each source would send values from then on.  A frame is
   stale when the stack has unwound past it: it was pushed from deeper than
   the current sampling call (but not so far that it is another stack, a
   sigaltstack say), or from the same stack address by the same loop, which
   cannot have two iterations open there.  Stale frames are dropped; returns
   how many. */
static uint32_t vp_red_drop_stale(struct vp_red_thread *t, uint32_t g, uintptr_t now)
{
    uint32_t dropped = 0;
    while (t->depth > 0 && t->depth <= VP_RED_STACK) {
        struct vp_red_frame *f = &t->frames[t->depth - 1];
        int below = f->sp < now && now - f->sp < VP_RED_STALE_SPAN;
        if (!below && !(f->sp == now && f->loop == g))
            break;
        vp_red_drop_top(t);
        dropped++;
    }
    return dropped;
}

/* This thread's __vprof_red_active as module `m` sees it (NULL before
   version 3).  The address is asked once per thread and module: a recorded
   iteration opens and ends a frame, and each needs it. */
static int32_t *vp_red_active_of(const struct vp_red_rt_module *m, struct vp_red_thread *t)
{
    if (m->version < 3 || !m->active)
        return NULL;
    if (t->active_mod != m) {
        t->active = m->active();
        t->active_mod = m;
    }
    return t->active;
}

/* Set this thread's __vprof_red_active to the open frames that raise it
   (all but recursion units').  Between the probes' own increments and
   decrements the two agree, so it is called only after frames left by an
   unwind were dropped. */
static void vp_red_sync_active(const struct vp_red_rt_module *m, struct vp_red_thread *t)
{
    int32_t *active = t ? vp_red_active_of(m, t) : NULL;
    if (!active)
        return;
    uint32_t n = 0, d = t->depth < VP_RED_STACK ? t->depth : VP_RED_STACK;
    for (uint32_t i = 0; i < d; i++)
        if (t->frames[i].loop >= VP_RED_MAX_LOOPS || !vp_red_no_active(t->frames[i].loop))
            n++;
    n += t->depth - d; /* frames past the stack are counted, not kept */
    *active = (int32_t)n;
}

/* A frame opens or ends: the callees send values again (VP_RED_ACTIVE_FULL;
   __vprof_red_callee_value sets the bit when no open frame takes any). */
static void vp_red_callees_on(const struct vp_red_rt_module *m, struct vp_red_thread *t)
{
    int32_t *active = vp_red_active_of(m, t);
    if (active)
        *active &= ~(int32_t)VP_RED_ACTIVE_FULL;
}

/* Header of a loop whose iteration countdown ran out.  Returns 1 when this
   iteration runs the recording copy. */
static int32_t vp_red_iter_sample_in(const struct vp_red_rt_module *m,
                                     uint32_t idx, struct vp_red_rt_slot *slot)
{
    uint32_t g = (uint32_t)m->slot_base + idx;
    struct vp_red_thread *t = g < VP_RED_MAX_LOOPS ? vp_red_thread() : NULL;
    if (!t) {
        slot->iter_countdown = INT32_MAX;
        return 0;
    }
    uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
    if (vp_red_drop_stale(t, g, sp))
        vp_red_sync_active(m, t);
    struct vp_red_loop_state *ls = &t->loops[g];
    ls->slot = slot;
    int no_ci = vp_red_no_ci(g);
    struct vp_red_staging *in = vp_red_instance(t, g);
    /* Every sampled iteration gets its signature: the table keeps a loop's
       first VP_RED_LOOP_HASHES, the loop's sketch counts all of them
       (vp_red_iter_end; docs/redundancy.md, "Whole-run rate"). */
    if (in) { /* recording the instance: every iteration, and CI by countdown */
        in->inst.iterations++;
        int ci = 0;
        if (!no_ci && --ls->ci_countdown <= 0) {
            ci = ls->ci_past != VP_RED_CI_STOP;
            t->hash_dropped += (uint64_t)!ci;
            ls->ci_countdown = vp_red_gap(t, vp_red_ci_rate(g));
        }
        int32_t r = 1;
        slot->iter_countdown = 1;
        if (!ci && !no_ci && vp_red_runs(m, g)) {
            /* A run: this iteration and those before the next cross-
               iteration sample are one frame; the copy counts them down
               and stays in itself (vp_red_iter_end_run_in).  With the
               verdict settled the run still ends where the sample was due,
               which is then counted as dropped, as before. */
            int32_t n = ls->ci_countdown;
            ls->run_len = n;
            ls->ci_countdown = 1;
            slot->iter_countdown = n;
            r = 2;
        }
        vp_red_push_frame(t, g, ci, sp);
        vp_red_callees_on(m, t);
        return r;
    }
    if (no_ci) {
        slot->iter_countdown = INT32_MAX;
        return 0;
    }
    int32_t rate = vp_red_ci_rate(g);
    if (ls->ci_countdown == 0) { /* first call on this thread: random phase */
        int32_t k = vp_red_phase(vp_red_gap(t, rate), vp_red_gap(t, rate));
        if (k > 1) {
            ls->ci_countdown = k - 1;
            slot->iter_countdown = k - 1;
            return 0;
        }
    }
    ls->ci_countdown = vp_red_gap(t, rate);
    slot->iter_countdown = ls->ci_countdown;
    if (ls->ci_past == VP_RED_CI_STOP) { /* verdict settled: not computed */
        t->hash_dropped++;
        return 0;
    }
    vp_red_push_frame(t, g, 1, sp);
    vp_red_callees_on(m, t);
    return 1;
}

static int vp_red_iter_end(const struct vp_red_rt_module *m, uint32_t idx, uint32_t n);
static void vp_red_end_instance(struct vp_red_thread *t, uint32_t g,
                                struct vp_red_rt_slot *slot);
static uint64_t vp_red_digest(struct vp_red_frame *f);
static void vp_red_thin_instances(struct vp_red_thread *t, uint32_t g);

/* End of a recorded iteration: its signature is complete. */
static void vp_red_iter_end_in(const struct vp_red_rt_module *m, uint32_t idx)
{
    if (vp_red_iter_end(m, idx, 1))
        vp_red_sync_active(m, vp_red_tls.self);
    else if (vp_red_tls.self)
        vp_red_callees_on(m, vp_red_tls.self);
}

/* End of a frame of a VP_RED_RTF_RUNS loop after `n` iterations: a run
   cut short by the loop's exit leaves its iterations not run to the
   countdown of the next cross-iteration sample. */
static void vp_red_iter_end_run_in(const struct vp_red_rt_module *m, uint32_t idx,
                                   uint32_t n)
{
    struct vp_red_thread *t = vp_red_tls.self;
    uint32_t g = (uint32_t)m->slot_base + idx;
    if (t && g < VP_RED_MAX_LOOPS && t->loops[g].run_len > 0) {
        struct vp_red_loop_state *ls = &t->loops[g];
        ls->ci_countdown = n < (uint32_t)ls->run_len ? ls->run_len - (int32_t)n + 1 : 1;
        ls->run_len = 0;
    }
    if (vp_red_iter_end(m, idx, n ? n : 1))
        vp_red_sync_active(m, t);
    else if (t)
        vp_red_callees_on(m, t);
}

/* End of `n` recorded iterations of a loop without cross-iteration sampling,
   run as one frame (the probes count them in a register): the instance
   gets the n - 1 iterations iter_sample did not see. */
static void vp_red_iter_end_n_in(const struct vp_red_rt_module *m, uint32_t idx,
                                 uint32_t n)
{
    struct vp_red_thread *t = vp_red_tls.self;
    if (vp_red_iter_end(m, idx, n))
        vp_red_sync_active(m, t);
    else if (t)
        vp_red_callees_on(m, t);
    /* Version 4: such a loop records iterations only in a recorded
       instance, all of them as this one frame, so its end is the
       instance's end too; the exits of the loop's original body test
       nothing (docs/redundancy.md, "Probes and sampling").  Older modules
       call instance_end at the exits. */
    uint32_t g = (uint32_t)m->slot_base + idx;
    if (m->version < 4 || !t || g >= VP_RED_MAX_LOOPS || !t->loops[g].slot ||
        !t->loops[g].slot->instance_active)
        return;
    /* not while an outer frame of the loop is open (recursion) */
    uint32_t kept = t->depth < VP_RED_STACK ? t->depth : VP_RED_STACK;
    for (uint32_t d = 0; d < kept; d++)
        if (t->frames[d].loop == g)
            return;
    vp_red_end_instance(t, g, t->loops[g].slot);
}

/* Counts signature `sig` of loop g in the loop's HyperLogLog sketch
   (docs/redundancy.md, "Whole-run rate").  Runs on the owning thread; the
   writer may read the registers meanwhile (bytes that only grow) and finds
   the mapping and the count published before any index to them. */
static void vp_red_sketch_add(struct vp_red_thread *t, uint32_t g, uint64_t sig)
{
    struct vp_red_loop_state *ls = &t->loops[g];
    if (!ls->sketch) {
        if (!t->sketches) {
            uint8_t *m = vp_red_map((size_t)VP_RED_SKETCH_LOOPS * VP_ITER_SKETCH_REGS);
            if (!m) {
                t->sketch_dropped++;
                return;
            }
            __atomic_store_n(&t->sketches, m, __ATOMIC_RELEASE);
        }
        if (t->sketch_count >= VP_RED_SKETCH_LOOPS) {
            t->sketch_dropped++;
            return;
        }
        /* zeroed: a fork child reuses its parent's slots */
        memset(t->sketches + (size_t)t->sketch_count * VP_ITER_SKETCH_REGS, 0,
               VP_ITER_SKETCH_REGS);
        __atomic_store_n(&t->sketch_count, t->sketch_count + 1, __ATOMIC_RELEASE);
        __atomic_store_n(&ls->sketch, t->sketch_count, __ATOMIC_RELEASE);
    }
    uint8_t *reg = t->sketches + (size_t)(ls->sketch - 1) * VP_ITER_SKETCH_REGS;
    uint32_t j = vp_iter_sketch_index(sig);
    uint8_t rho = vp_iter_sketch_rank(sig);
    if (reg[j] < rho)
        __atomic_store_n(&reg[j], rho, __ATOMIC_RELAXED);
    __atomic_store_n(&ls->ci_sampled, ls->ci_sampled + 1, __ATOMIC_RELAXED);
}

/* In place, no allocation (glibc's qsort may malloc, and a probe can run
   in a signal handler that interrupted malloc). */
static void vp_red_heapsort(uint64_t *a, uint64_t n)
{
    for (uint64_t end = n, start = n / 2;;) {
        uint64_t root;
        if (start > 0) {
            root = --start;
        } else {
            if (end <= 1)
                return;
            uint64_t x = a[--end];
            a[end] = a[0];
            a[0] = x;
            root = 0;
        }
        for (uint64_t child; (child = 2 * root + 1) < end; root = child) {
            if (child + 1 < end && a[child + 1] > a[child])
                child++;
            if (a[root] >= a[child])
                break;
            uint64_t x = a[root];
            a[root] = a[child];
            a[child] = x;
        }
    }
}

/* Whether loop g's verdict is still open when it has no room left in the
   table: the rate of the signatures it kept on this thread is in
   [VP_RED_CI_OPEN_LO, VP_RED_CI_OPEN_HI), or it kept too few to tell.
   More samples only raise the rate (it grows with how often each signature
   is sampled), so at 2 or more the verdict is settled; a loop whose kept
   signatures barely repeat is judged on them, as before the sketch. */
static int vp_red_ci_open(struct vp_red_thread *t, uint32_t g)
{
    uint32_t n = t->loops[g].ci_kept;
    if (n < VP_RED_CI_JUDGE_MIN)
        return 1;
    uint64_t *sigs = vp_red_map((size_t)n * sizeof *sigs);
    if (!sigs)
        return 0;
    uint64_t id = vp_red_loop_id(g), k = 0;
    for (uint64_t i = 0; i < t->hash_count && k < n; i++)
        if (t->hashes[i].loop_id == id)
            sigs[k++] = t->hashes[i].signature;
    vp_red_heapsort(sigs, k);
    uint64_t distinct = 0;
    for (uint64_t i = 0; i < k; i++)
        distinct += i == 0 || sigs[i] != sigs[i - 1];
    munmap(sigs, (size_t)n * sizeof *sigs);
    double rate = distinct ? (double)k / (double)distinct : 0;
    return rate >= VP_RED_CI_OPEN_LO && rate < VP_RED_CI_OPEN_HI;
}

/* Returns 1 when frames above the ended one (left by an unwind) were
   dropped, so that the caller puts __vprof_red_active right. */
static int vp_red_iter_end(const struct vp_red_rt_module *m, uint32_t idx, uint32_t n)
{
    struct vp_red_thread *t = vp_red_tls.self;
    uint32_t g = (uint32_t)m->slot_base + idx;
    if (!t || t->depth == 0)
        return 0;
    if (n > 1 && g < VP_RED_MAX_LOOPS) {
        struct vp_red_staging *in = vp_red_instance(t, g);
        if (in)
            in->inst.iterations += n - 1;
    }
    if (t->depth > VP_RED_STACK) {
        t->depth--;
        return 0;
    }
    /* Normally the top frame; a frame left by a longjmp is dropped. */
    uint32_t d = t->depth;
    while (d > 0 && t->frames[d - 1].loop != g)
        d--;
    if (d == 0)
        return 0;
    int dropped = d < t->depth;
    while (t->depth > d)
        vp_red_drop_top(t); /* the same as vp_red_drop_stale's */
    struct vp_red_frame *f = &t->frames[d - 1];
    t->depth = d - 1;
    if (!f->ci)
        return dropped;
    vp_red_recording(t, g, 0, VP_RED_MODE_CI);
    uint64_t sig = vp_red_digest(f);
    struct vp_red_loop_state *ls = &t->loops[g];
    if (t->hash_count >= VP_RED_HASH_CAP || ls->ci_kept >= VP_RED_LOOP_HASHES) {
        t->hash_dropped++; /* the record */
        if (!ls->ci_past)
            ls->ci_past = vp_red_ci_open(t, g) ? VP_RED_CI_GO_ON : VP_RED_CI_STOP;
        if (ls->ci_past == VP_RED_CI_GO_ON) {
            vp_red_sketch_add(t, g, sig);
            if (++ls->ci_extra >= VP_RED_CI_EXTRA) /* the budget: cost bounded */
                ls->ci_past = VP_RED_CI_STOP;
        }
        return dropped;
    }
    vp_red_sketch_add(t, g, sig);
    struct vp_iter_hash *h = &t->hashes[t->hash_count];
    h->loop_id = vp_red_loop_id(g);
    h->signature = sig;
    h->instance = t->loops[g].pairs;
    h->tid = t->tid;
    h->values = f->values;
    if (f->truncated)
        t->iter_truncated++;
    t->loops[g].ci_kept++;
    __atomic_store_n(&t->hash_count, t->hash_count + 1, __ATOMIC_RELEASE);
    return dropped;
}

/* Preheader of a loop whose instance countdown ran out: record this
   instance, and the next one too so that the pair can be compared. */
static void vp_red_instance_sample_in(const struct vp_red_rt_module *m,
                                      uint32_t idx, struct vp_red_rt_slot *slot)
{
    uint32_t g = (uint32_t)m->slot_base + idx;
    struct vp_red_thread *t = g < VP_RED_MAX_LOOPS ? vp_red_thread() : NULL;
    if (!t) {
        slot->instance_countdown = INT32_MAX;
        return;
    }
    struct vp_red_loop_state *ls = &t->loops[g];
    ls->slot = slot;
    /* First call on this thread: the random phase only.  Unlike an
       iteration, the instance is not itself sampled: it could not be
       compared (the pair's second instance is the next one on this
       thread), and the first instance of a driver loop may be the whole
       run, whose calls would then all go to the callee copies (its
       callees' own probes would see none: gcc1687 lost every count of
       expr_cost in 1 of 36 runs; docs/redundancy.md, "Threads"). */
    if (!ls->started) {
        ls->started = 1;
        slot->instance_countdown = vp_red_inst_gap(t, g);
        return;
    }
    uintptr_t frame = (uintptr_t)__builtin_frame_address(0);
    if (ls->staging) {
        struct vp_red_staging *open = &t->staging[ls->staging - 1];
        if (frame < open->sp || frame - open->sp >= VP_RED_STALE_SPAN) {
            /* re-entered (recursion) while recording: skip */
            slot->instance_countdown = ls->pair_second ? 1 : vp_red_inst_gap(t, g);
            return;
        }
        /* Entered again from as high on the stack: the open instance was
           left by a longjmp or exception (vp_red_drop_stale).  Dropped. */
        open->loop = ~0u;
        ls->staging = 0;
        ls->pair_second = 0;
        t->inst_dropped++;
    }
    int second = ls->pair_second;
    /* The second instance of a pair is the next one at the same stack depth
       (docs/redundancy.md): in a recursive walk the next instance in time
       belongs to another level (xph_generate counts an ancestor's siblings
       between two fields).  After VP_RED_PAIR_SKIPS others, any will do. */
    if (second && frame != ls->pair_frame && ls->pair_skips < VP_RED_PAIR_SKIPS) {
        ls->pair_skips++;
        slot->instance_countdown = 1;
        return;
    }
    int s;
    for (s = 0; s < VP_RED_ACTIVE_INSTANCES; s++)
        if (t->staging[s].loop == ~0u)
            break;
    /* An instance that might not fit in the arena is not recorded: it
       would be dropped at its end, after paying for every iteration. */
    if (s == VP_RED_ACTIVE_INSTANCES || t->arena_used + VP_RED_INSTANCE_MAX_BYTES > VP_RED_ARENA) {
        t->inst_dropped++;
        ls->pair_second = 0;
        slot->instance_countdown = vp_red_inst_gap(t, g);
        return;
    }
    if (!second)
        ls->pairs++;
    struct vp_red_staging *in = &t->staging[s];
    in->loop = g;
    in->sp = frame;
    memset(&in->inst, 0, sizeof in->inst);
    in->inst.loop_id = vp_red_loop_id(g);
    in->inst.seq = ((ls->pairs - 1) << 1) | (uint64_t)second;
    in->inst.tid = t->tid;
    ls->staging = (uint8_t)(s + 1);
    ls->pair_second = !second;
    ls->pair_frame = frame;
    ls->pair_skips = 0;
    /* The recorded instance counts its iterations down in ls->ci_countdown
       and hands it back to the slot at its end: it starts from where the
       slot's countdown is.  Before, it started from the gap drawn at the
       last sampled iteration, so every recorded instance undid the
       iterations counted since: at 1 iteration per instance half the
       iterations due were never sampled (e2e iter-rate.c). */
    if (!vp_red_no_ci(g)) {
        if (ls->ci_countdown > 0 && slot->iter_countdown > 0 &&
            slot->iter_countdown != INT32_MAX)
            ls->ci_countdown = slot->iter_countdown;
        else if (ls->ci_countdown <= 0)
            ls->ci_countdown = vp_red_gap(t, vp_red_ci_rate(g));
    }
    slot->instance_active = 1;
    slot->recording |= VP_RED_MODE_CL | VP_RED_MODE_SE;
    slot->iter_countdown = 1;
    slot->instance_countdown = second ? vp_red_inst_gap(t, g) : 1;
}

static size_t vp_red_record_size(const struct vp_instance *in)
{
    return sizeof *in + in->value_count * sizeof(struct vp_instance_value) +
           in->range_count * sizeof(struct vp_instance_range);
}

/* Exit of a recorded instance: copy it into the arena. */
static void vp_red_instance_end_in(const struct vp_red_rt_module *m,
                                   uint32_t idx, struct vp_red_rt_slot *slot)
{
    vp_red_end_instance(vp_red_tls.self, (uint32_t)m->slot_base + idx, slot);
}

static void vp_red_end_instance(struct vp_red_thread *t, uint32_t g,
                                struct vp_red_rt_slot *slot)
{
    slot->instance_active = 0;
    slot->recording &= ~(VP_RED_MODE_CL | VP_RED_MODE_SE);
    if (!t || g >= VP_RED_MAX_LOOPS)
        return;
    struct vp_red_loop_state *ls = &t->loops[g];
    slot->iter_countdown = vp_red_no_ci(g) ? INT32_MAX
                           : ls->ci_countdown > 0 ? ls->ci_countdown : 1;
    struct vp_red_staging *in = vp_red_instance(t, g);
    if (!in)
        return;
    ls->staging = 0;
    in->loop = ~0u;
    size_t bytes = vp_red_record_size(&in->inst);
    if (t->arena_used + bytes > VP_RED_ARENA) {
        t->inst_dropped++;
        return;
    }
    uint8_t *p = t->arena + t->arena_used;
    memcpy(p, &in->inst, sizeof in->inst);
    p += sizeof in->inst;
    memcpy(p, in->values, in->inst.value_count * sizeof(struct vp_instance_value));
    p += in->inst.value_count * sizeof(struct vp_instance_value);
    memcpy(p, in->ranges, in->inst.range_count * sizeof(struct vp_instance_range));
    __atomic_store_n(&t->arena_used, t->arena_used + bytes, __ATOMIC_RELEASE);
    t->inst_count++;
    ls->inst_kept++;
    ls->inst_bytes += bytes;
    /* at the end of a pair, so that a pair is thinned as a whole */
    if (!ls->pair_second &&
        (ls->inst_kept >= 2 * VP_RED_LOOP_PAIRS || ls->inst_bytes >= VP_RED_LOOP_ARENA))
        vp_red_thin_instances(t, g);
}

/* Loop `g` has its share of the arena: every other pair of its instances
   leaves it (both instances, counted in `dropped_instances`) and its
   instance rate halves. */
static void vp_red_thin_instances(struct vp_red_thread *t, uint32_t g)
{
    struct vp_red_loop_state *ls = &t->loops[g];
    uint64_t id = vp_red_loop_id(g), nth = 0, last_pair = UINT64_MAX;
    size_t in_off = 0, out_off = 0;
    __atomic_store_n(&t->arena_seq, t->arena_seq + 1, __ATOMIC_RELAXED); /* odd */
    __atomic_thread_fence(__ATOMIC_RELEASE);
    while (in_off + sizeof(struct vp_instance) <= t->arena_used) {
        struct vp_instance rec;
        memcpy(&rec, t->arena + in_off, sizeof rec);
        size_t size = vp_red_record_size(&rec);
        int drop = 0;
        if (rec.loop_id == id) {
            if (rec.seq >> 1 != last_pair) {
                last_pair = rec.seq >> 1;
                nth++;
            }
            drop = !(nth & 1); /* keep the 1st, 3rd, ... pair */
        }
        if (drop) {
            t->inst_count--;
            t->inst_dropped++;
            ls->inst_kept--;
            ls->inst_bytes -= size;
        } else {
            if (out_off != in_off)
                memmove(t->arena + out_off, t->arena + in_off, size);
            out_off += size;
        }
        in_off += size;
    }
    __atomic_store_n(&t->arena_used, out_off, __ATOMIC_RELEASE);
    __atomic_store_n(&t->arena_seq, t->arena_seq + 1, __ATOMIC_RELEASE); /* even */
    if (ls->inst_shift < 30)
        ls->inst_shift++;
}

static void vp_red_hash(struct vp_red_thread *t, struct vp_red_frame *f, uint32_t src,
                        uint64_t v)
{
    if (f->values >= VP_RED_ITER_VALUE_CAP) {
        f->truncated = 1;
        vp_red_recording(t, f->loop, 0, VP_RED_MODE_CI); /* stop the calls */
        return;
    }
    if (f->buffered == VP_RED_FRAME_PAIRS) {
        f->hash = XXH3_64bits_withSeed(f->pairs, sizeof f->pairs, f->hash);
        f->buffered = 0;
    }
    f->pairs[2 * f->buffered] = src;
    f->pairs[2 * f->buffered + 1] = v;
    f->buffered++;
    f->values++;
}

/* The signature of a finished iteration: its last block (1-15 pairs; none
   for an iteration without values) hashed on the chain. */
static uint64_t vp_red_digest(struct vp_red_frame *f)
{
    return XXH3_64bits_withSeed(f->pairs, (size_t)f->buffered * 2 * sizeof(uint64_t), f->hash);
}

static void vp_red_append(struct vp_red_thread *t, struct vp_red_staging *in, uint32_t src,
                          uint64_t v)
{
    if (in->inst.value_count >= VP_RED_INSTANCE_VALUE_CAP) {
        in->inst.dropped_values++;
        in->inst.flags |= VP_INSTF_TRUNCATED;
        t->values_dropped++;
        /* full: the recording copy stops sending values for this instance
           (the drops after this one are not counted; the flag says
           truncated); it goes on counting side effects (VP_RED_MODE_SE) */
        vp_red_recording(t, in->loop, 0, VP_RED_MODE_CL);
        return;
    }
    struct vp_instance_value *e = &in->values[in->inst.value_count++];
    e->src = src;
    e->reserved = 0;
    e->value = v;
}

/* The value goes into loop g's innermost open frame, if it is a
   cross-iteration sample.  Out of line: the hashing's registers would
   otherwise be saved on every value of a recorded instance too. */
static __attribute__((noinline)) void vp_red_value_ci(struct vp_red_thread *t, uint32_t g,
                                                      uint32_t src, uint64_t v)
{
    uint32_t d = t->depth < VP_RED_STACK ? t->depth : VP_RED_STACK;
    while (d > 0 && t->frames[d - 1].loop != g)
        d--;
    if (d > 0 && t->frames[d - 1].ci)
        vp_red_hash(t, &t->frames[d - 1], src, v);
}

/* A source instruction's value in the recording copy of loop `idx`.  The
   probes pass as `mode` the source's modes that the loop's slot still
   records (slot.recording), so that a value of a recorded instance's
   iteration that is not a cross-iteration sample skips the frame search;
   modules built before passed all of the source's modes, which the frame
   search then filters the same way. */
static void vp_red_value_in(const struct vp_red_rt_module *m, uint32_t idx,
                            uint32_t src, uint64_t v, uint32_t mode)
{
    uint32_t g = (uint32_t)m->slot_base + idx;
    struct vp_red_thread *t = vp_red_tls.self;
    if (!t || g >= VP_RED_MAX_LOOPS)
        return;
    if (mode & VP_RED_MODE_CI)
        vp_red_value_ci(t, g, src, v);
    if (mode & VP_RED_MODE_CL) {
        struct vp_red_staging *in = vp_red_instance(t, g);
        if (in)
            vp_red_append(t, in, src, v);
    }
}

/* An affine read of a recorded instance: keep first, last and count. */
static void vp_red_range_in(const struct vp_red_rt_module *m, uint32_t idx,
                            uint32_t src, uint64_t addr)
{
    uint32_t g = (uint32_t)m->slot_base + idx;
    struct vp_red_thread *t = vp_red_tls.self;
    if (!t || g >= VP_RED_MAX_LOOPS)
        return;
    struct vp_red_staging *in = vp_red_instance(t, g);
    if (!in)
        return;
    uint32_t i;
    for (i = 0; i < in->inst.range_count; i++)
        if (in->ranges[i].src == src)
            break;
    if (i == in->inst.range_count) {
        if (i == VP_RED_INSTANCE_RANGES) {
            in->inst.dropped_values++;
            t->values_dropped++;
            return;
        }
        in->inst.range_count++;
        in->ranges[i].src = src;
        in->ranges[i].count = 0;
        in->ranges[i].first = addr;
    }
    in->ranges[i].last = addr;
    in->ranges[i].count++;
}

/* Appends a callee's value to the instance of each of the first `d` open
   frames' loops (once for frames of one loop in a row: a recursion's);
   returns whether one of them still takes values. */
static inline __attribute__((always_inline)) int vp_red_callee_append(struct vp_red_thread *t, uint32_t d,
                                                                  uint32_t src, uint64_t v)
{
    int wanted = 0;
    for (uint32_t i = 0; i < d; i++) {
        struct vp_red_frame *f = &t->frames[i];
        struct vp_red_staging *in = vp_red_instance(t, f->loop);
        if (in && (i == 0 || t->frames[i - 1].loop != f->loop) &&
            !(in->inst.flags & VP_INSTF_TRUNCATED)) {
            vp_red_append(t, in, src, v);
            wanted |= !(in->inst.flags & VP_INSTF_TRUNCATED);
        }
    }
    return wanted;
}

/* Every open frame is full: the callees stop calling until a frame opens
   or ends (the drops after the cap are not counted, as for the loops' own
   probes; the truncation flags say so). */
static void vp_red_callees_wanted(struct vp_red_thread *t, int wanted)
{
    if (!wanted && t->active)
        *t->active |= (int32_t)VP_RED_ACTIVE_FULL;
}

/* A source inside a called function, while some iteration is recorded on
   this thread: it belongs to every recorded iteration and instance. */
static __attribute__((noinline)) void vp_red_callee_value_in(struct vp_red_thread *t,
                                                             uint32_t src, uint64_t v)
{
    uint32_t d = t->depth < VP_RED_STACK ? t->depth : VP_RED_STACK;
    int wanted = t->depth > d; /* frames past the stack: unknown, keep sending */
    for (uint32_t i = 0; i < d; i++) {
        struct vp_red_frame *f = &t->frames[i];
        if (f->ci && !f->truncated) {
            vp_red_hash(t, f, src, v);
            wanted |= !f->truncated;
        }
    }
    vp_red_callees_wanted(t, wanted | vp_red_callee_append(t, d, src, v));
}

/* A side-effect instruction ran in the recording copy. */
static void vp_red_side_effect_in(const struct vp_red_rt_module *m, uint32_t idx)
{
    uint32_t g = (uint32_t)m->slot_base + idx;
    struct vp_red_thread *t = vp_red_tls.self;
    if (!t || g >= VP_RED_MAX_LOOPS)
        return;
    struct vp_red_staging *in = vp_red_instance(t, g);
    if (in)
        in->inst.side_effects++;
}

/* ---- entry points: each runs its _in function unless the thread is
   already inside one (a signal handler interrupted it: vp_red_tls.busy) ---- */

/* What a handler's probed code loses while its thread is busy. */
static void vp_red_lost_iteration(void)
{
    if (vp_red_tls.self)
        vp_red_tls.self->hash_dropped++;
}

static void vp_red_lost_value(void)
{
    if (vp_red_tls.self)
        vp_red_tls.self->values_dropped++;
}

VP_RED_EXPORT int32_t __vprof_red_iter_sample(const struct vp_red_rt_module *m,
                                              uint32_t idx, struct vp_red_rt_slot *slot)
{
    if (!vp_red_enter()) { /* the loop runs its original body */
        vp_red_lost_iteration();
        /* The probes test a countdown for exactly 0 (docs/redundancy.md,
           "Countdowns run out at 0"): left at 0 it would go negative and
           not run out again for 2^32 iterations.  1: ask at the next. */
        if (slot->iter_countdown <= 0)
            slot->iter_countdown = 1;
        return 0;
    }
    int32_t r = vp_red_iter_sample_in(m, idx, slot);
    vp_red_leave();
    return r;
}

/* The ends cannot come from a busy handler's loops (their samples were
   refused) unless they act on the interrupted call's instance: left alone. */
VP_RED_EXPORT void __vprof_red_iter_end(const struct vp_red_rt_module *m, uint32_t idx)
{
    if (!vp_red_enter())
        return;
    vp_red_iter_end_in(m, idx);
    vp_red_leave();
}

VP_RED_EXPORT void __vprof_red_iter_end_run(const struct vp_red_rt_module *m, uint32_t idx,
                                            uint32_t n)
{
    if (!vp_red_enter())
        return;
    vp_red_iter_end_run_in(m, idx, n);
    vp_red_leave();
}

VP_RED_EXPORT void __vprof_red_iter_end_n(const struct vp_red_rt_module *m, uint32_t idx,
                                          uint32_t n)
{
    if (!vp_red_enter())
        return;
    vp_red_iter_end_n_in(m, idx, n);
    vp_red_leave();
}

VP_RED_EXPORT void __vprof_red_instance_sample(const struct vp_red_rt_module *m,
                                               uint32_t idx, struct vp_red_rt_slot *slot)
{
    if (!vp_red_enter()) { /* not recorded; the slot is the interrupted call's */
        if (vp_red_tls.self)
            vp_red_tls.self->inst_dropped++;
        if (slot->instance_countdown <= 0) /* as in __vprof_red_iter_sample */
            slot->instance_countdown = 1;
        return;
    }
    vp_red_instance_sample_in(m, idx, slot);
    vp_red_leave();
}

VP_RED_EXPORT void __vprof_red_instance_end(const struct vp_red_rt_module *m,
                                            uint32_t idx, struct vp_red_rt_slot *slot)
{
    if (!vp_red_enter())
        return;
    vp_red_instance_end_in(m, idx, slot);
    vp_red_leave();
}

static __attribute__((noinline)) void vp_red_value_any(const struct vp_red_rt_module *m,
                                                       uint32_t idx, uint32_t src,
                                                       uint64_t v, uint32_t mode)
{
    if (!vp_red_enter()) {
        vp_red_lost_value();
        return;
    }
    vp_red_value_in(m, idx, src, v, mode);
    vp_red_leave();
}

/* Most values are a recorded instance's only (mode CL): that path calls
   nothing, so it saves no register; the others go out of line. */
VP_RED_EXPORT void __vprof_red_value(const struct vp_red_rt_module *m, uint32_t idx,
                                     uint32_t src, uint64_t v, uint32_t mode)
{
    if (mode != VP_RED_MODE_CL) {
        vp_red_value_any(m, idx, src, v, mode);
        return;
    }
    if (!vp_red_enter()) {
        vp_red_lost_value();
        return;
    }
    uint32_t g = (uint32_t)m->slot_base + idx;
    struct vp_red_thread *t = vp_red_tls.self;
    struct vp_red_staging *in = t && g < VP_RED_MAX_LOOPS ? vp_red_instance(t, g) : NULL;
    if (in)
        vp_red_append(t, in, src, v);
    vp_red_leave();
}

/* The bytes a C library scan of a repeated-call unit reads (strlen's
   string, memcmp's two blocks): one value, their XXH3 hash, so that two
   calls are equal only over equal bytes.  The probes call it only in a
   sampled call, just before the call that reads the same bytes, so the
   memory is the program's own readable memory. */
VP_RED_EXPORT void __vprof_red_bytes(const struct vp_red_rt_module *m, uint32_t idx,
                                     uint32_t src, const void *p, uint64_t n, uint32_t mode)
{
    uint64_t h = p && n ? XXH3_64bits(p, (size_t)n) : 0;
    vp_red_value_any(m, idx, src, h ^ n, mode);
}

/* A repeated call of a C library string scan (strlen, strcat's
   destination, ...) whose instance countdown ran out: the call is an
   instance of the unit, paired with the next call as a loop's instances
   are (vp_red_instance_sample_in), and its values are the XXH3 hashes of
   the n bytes at p in chunks, so that two calls that scan the same prefix
   share every chunk but the last (docs/redundancy.md, "Strings scanned
   again").  The chunk size is the pair's first call's: 64 bytes, doubled
   until the string has at most VP_RED_PREFIX_CHUNKS chunks (and one more
   for the alignment), so that both calls cut their bytes at the same
   places.  Opened and ended here: the unit's cross-iteration countdown
   is left as it was. */
static void vp_red_prefix_in(const struct vp_red_rt_module *m, uint32_t idx,
                             struct vp_red_rt_slot *slot, uint32_t src, const uint8_t *p,
                             uint64_t n)
{
    uint32_t g = (uint32_t)m->slot_base + idx;
    struct vp_red_thread *t = vp_red_tls.self; /* NULL: a new thread, all 0 */
    int32_t iter_cd = slot->iter_countdown;
    int32_t ci_cd = t && g < VP_RED_MAX_LOOPS ? t->loops[g].ci_countdown : 0;
    vp_red_instance_sample_in(m, idx, slot); /* makes the thread's state */
    t = vp_red_tls.self;
    struct vp_red_staging *in = t && g < VP_RED_MAX_LOOPS ? vp_red_instance(t, g) : NULL;
    struct vp_red_loop_state *ls = in ? &t->loops[g] : NULL;
    if (in) {
        /* A copy's source (VP_RED_SRC_PREFIX_START) is cut at offsets
           from p: a string that grew is copied from a new buffer each
           time, at another address.  Its first and last
           VP_RED_COPY_CHUNKS chunks of VP_RED_PREFIX_CHUNK bytes only, from
           each end: a buffer that grew shares its head with the previous
           copy, one shifted by an element its tail (VP_RED_SRC_SUFFIX_END),
           and a sampled copy costs at most 2 x 8 KiB of hashing, whatever
           it copies (docs/redundancy.md, "Copies of shifted bytes"). */
        int copy = src >= VP_RED_SRC_PREFIX_START && src < VP_RED_SRC_PREFIX_START + 16;
        if (ls->pair_second) { /* the pair's first call */
            uint64_t c = VP_RED_PREFIX_CHUNK;
            while (!copy && n / c >= VP_RED_PREFIX_CHUNKS && c < ((uint64_t)1 << 40))
                c <<= 1;
            ls->chunk = c;
        }
        uint64_t c = ls->chunk ? ls->chunk : VP_RED_PREFIX_CHUNK;
        in->inst.iterations = 1;
        /* A string scan's bytes are cut at addresses that are multiples of
           c, not at offsets from p: a string read again from a later start
           (a pointer that advances through one buffer, each call reading
           the rest) shares its chunks with the previous call's too. */
        uint64_t span = copy ? VP_RED_COPY_CHUNKS * c : n, head = n < span ? n : span;
        /* a copy's length first: two copies whose ends are alike but not
           their lengths are not the same bytes again (vp_red_pair_same) */
        if (copy && p)
            vp_red_append(t, in, src, n);
        uint64_t off = 0;
        while (p && off < head && !(in->inst.flags & VP_INSTF_TRUNCATED)) {
            uint64_t len = copy ? c : c - ((uintptr_t)(p + off) & (c - 1));
            if (len > head - off)
                len = head - off;
            vp_red_append(t, in, src, XXH3_64bits(p + off, (size_t)len) ^ len);
            off += len;
        }
        /* a copy's tail, cut from its end: the first chunk takes what is
           left over */
        uint32_t end_src = src - VP_RED_SRC_PREFIX_START + VP_RED_SRC_SUFFIX_END;
        off = n - head;
        while (copy && p && off < n && !(in->inst.flags & VP_INSTF_TRUNCATED)) {
            uint64_t len = off == n - head && head % c ? head % c : c;
            vp_red_append(t, in, end_src, XXH3_64bits(p + off, (size_t)len) ^ len);
            off += len;
        }
        vp_red_end_instance(t, g, slot);
    }
    slot->iter_countdown = iter_cd;
    if (t && g < VP_RED_MAX_LOOPS)
        t->loops[g].ci_countdown = ci_cd;
}

/* Called by the probes only before the call that reads the same n bytes
   (the program's own readable memory). */
VP_RED_EXPORT void __vprof_red_prefix(const struct vp_red_rt_module *m, uint32_t idx,
                                      struct vp_red_rt_slot *slot, uint32_t src,
                                      const void *p, uint64_t n)
{
    if (!vp_red_enter()) { /* as in __vprof_red_instance_sample */
        if (vp_red_tls.self)
            vp_red_tls.self->inst_dropped++;
        if (slot->instance_countdown <= 0)
            slot->instance_countdown = 1;
        return;
    }
    vp_red_prefix_in(m, idx, slot, src, (const uint8_t *)p, n);
    vp_red_leave();
}

VP_RED_EXPORT void __vprof_red_range(const struct vp_red_rt_module *m, uint32_t idx,
                                     uint32_t src, uint64_t addr)
{
    if (!vp_red_enter()) {
        vp_red_lost_value();
        return;
    }
    vp_red_range_in(m, idx, src, addr);
    vp_red_leave();
}

/* Most callee values come while one frame is open and it is not a
   cross-iteration sample (a run, or an instance of a loop without
   cross-iteration sampling): they only append, on a path that calls
   nothing; the others go out of line.  (Testing every open frame for a
   sample instead cost more than it saved on gcc46401.) */
VP_RED_EXPORT void __vprof_red_callee_value(uint32_t src, uint64_t v)
{
    if (!vp_red_enter()) {
        vp_red_lost_value();
        return;
    }
    struct vp_red_thread *t = vp_red_tls.self;
    if (t && t->depth == 1 && !t->frames[0].ci)
        vp_red_callees_wanted(t, vp_red_callee_append(t, 1, src, v));
    else if (t)
        vp_red_callee_value_in(t, src, v);
    vp_red_leave();
}

VP_RED_EXPORT void __vprof_red_side_effect(const struct vp_red_rt_module *m, uint32_t idx)
{
    if (!vp_red_enter())
        return;
    vp_red_side_effect_in(m, idx);
    vp_red_leave();
}

/* A call through a pointer: a write only when the callee is not known to
   write nothing (loops/pure_rt.c). */
VP_RED_EXPORT void __vprof_red_side_effect_call(const struct vp_red_rt_module *m, uint32_t idx,
                                                const void *callee)
{
    if (vp_rt_callee_pure(callee))
        return;
    __vprof_red_side_effect(m, idx);
}

/* ---- profile sections ---- */

/* Copies thread `t`'s finished instances, at most t->w_arena bytes of them
   (the size the writer reserved), to `dst`; returns the bytes copied and
   adds the instances to *count.  Another thread's arena may be thinned
   meanwhile: the copy is taken again when arena_seq moved (a few times,
   then that thread's instances are given up, counted), and it ends at the
   last whole record. */
static uint64_t vp_red_copy_arena(struct vp_red_thread *t, uint8_t *dst, uint64_t *count,
                                  uint64_t *lost)
{
    if (t->w_arena == 0) /* nothing, or a torn thread (vp_red_write) */
        return 0;
    for (int tries = 0; tries < 64; tries++) {
        uint32_t seq = __atomic_load_n(&t->arena_seq, __ATOMIC_ACQUIRE);
        if (seq & 1) {
            sched_yield();
            continue;
        }
        uint64_t used = __atomic_load_n(&t->arena_used, __ATOMIC_ACQUIRE);
        uint64_t limit = used < t->w_arena ? used : t->w_arena;
        memcpy(dst, t->arena, limit);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (__atomic_load_n(&t->arena_seq, __ATOMIC_RELAXED) != seq)
            continue;
        uint64_t off = 0, n = 0;
        while (off + sizeof(struct vp_instance) <= limit) {
            struct vp_instance rec;
            memcpy(&rec, dst + off, sizeof rec);
            uint64_t size = vp_red_record_size(&rec);
            if (size > limit - off)
                break;
            off += size;
            n++;
        }
        *count += n;
        return off;
    }
    *lost += __atomic_load_n(&t->inst_count, __ATOMIC_RELAXED);
    return 0;
}

/* The loops' sketches, merged over the threads (register-wise maximum,
   sums of the counts): VP_SEC_LOOP_ITER_SKETCH.  A torn thread's (see
   vp_red_write) are counted as dropped.  Nothing is written when no loop
   has one. */
static int vp_red_write_sketches(void *ctx, vp_rt_emit_fn emit, struct vp_red_thread *first,
                                 const struct vp_red_thread *torn)
{
    struct vp_iter_sketch_header sh = {0};
    size_t idx_bytes = VP_RED_MAX_LOOPS * sizeof(uint32_t);
    uint32_t *idx = vp_red_map(idx_bytes); /* loop -> its record + 1 */
    if (!idx)
        return -1;
    size_t nloops = 0;
    for (struct vp_red_thread *t = first; t; t = t->next) {
        sh.dropped += t->sketch_dropped;
        int skip = t == torn || !__atomic_load_n(&t->sketches, __ATOMIC_ACQUIRE);
        for (uint32_t g = 0; g < VP_RED_MAX_LOOPS; g++) {
            if (!__atomic_load_n(&t->loops[g].sketch, __ATOMIC_ACQUIRE))
                continue;
            if (skip)
                sh.dropped += __atomic_load_n(&t->loops[g].ci_sampled, __ATOMIC_RELAXED);
            else if (!idx[g])
                idx[g] = (uint32_t)++nloops;
        }
    }
    int rc = 0;
    if (nloops) {
        size_t size = sizeof sh + nloops * sizeof(struct vp_iter_sketch);
        uint8_t *buf = vp_red_map(size);
        if (!buf) {
            munmap(idx, idx_bytes);
            return -1;
        }
        struct vp_iter_sketch *rec = (struct vp_iter_sketch *)(void *)(buf + sizeof sh);
        for (struct vp_red_thread *t = first; t; t = t->next) {
            const uint8_t *sk = __atomic_load_n(&t->sketches, __ATOMIC_ACQUIRE);
            if (t == torn || !sk)
                continue;
            for (uint32_t g = 0; g < VP_RED_MAX_LOOPS; g++) {
                uint32_t k = __atomic_load_n(&t->loops[g].sketch, __ATOMIC_ACQUIRE);
                if (!k || !idx[g])
                    continue;
                struct vp_iter_sketch *r = &rec[idx[g] - 1];
                const uint8_t *reg = sk + (size_t)(k - 1) * VP_ITER_SKETCH_REGS;
                r->loop_id = vp_red_loop_id(g);
                r->sampled += __atomic_load_n(&t->loops[g].ci_sampled, __ATOMIC_RELAXED);
                for (uint32_t j = 0; j < VP_ITER_SKETCH_REGS; j++) {
                    uint8_t v = __atomic_load_n(&reg[j], __ATOMIC_RELAXED);
                    if (v > r->reg[j])
                        r->reg[j] = v;
                }
            }
        }
        sh.version = VP_ITER_SKETCH_VERSION;
        sh.header_size = sizeof sh;
        sh.loop_count = nloops;
        sh.registers = VP_ITER_SKETCH_REGS;
        memcpy(buf, &sh, sizeof sh);
        rc = emit(ctx, VP_SEC_LOOP_ITER_SKETCH, VP_SECF_OPTIONAL, buf, size);
        munmap(buf, size);
    }
    munmap(idx, idx_bytes);
    return rc;
}

static int vp_red_write(void *ctx, vp_rt_emit_fn emit)
{
    uint64_t hashes = 0, bytes = 0, threads = 0;
    struct vp_iter_hashes_header hh = {0};
    struct vp_instances_header ih = {0};
    /* Written from a signal (terminating, or the launcher's flush) that
       interrupted an entry point on this thread: its buffers may be
       half-way through a change, so this thread's records are counted as
       dropped in this profile and not copied. */
    struct vp_red_thread *torn = vp_red_tls.busy ? vp_red_tls.self : NULL;
    /* Other threads may still be recording: each one's published counts
       are read once (w_hashes, w_arena) and the copies keep to them.
       Threads that start after this are not in the profile.  A torn
       thread's records are left out of this profile only (a flush signal
       lets the program run on, and a later write has them). */
    struct vp_red_thread *first = atomic_load(&vp_red.threads);
    for (struct vp_red_thread *t = first; t; t = t->next) {
        threads++;
        if (t == torn) {
            t->w_hashes = t->w_arena = 0;
            hh.dropped += __atomic_load_n(&t->hash_count, __ATOMIC_RELAXED);
            ih.dropped_instances += __atomic_load_n(&t->inst_count, __ATOMIC_RELAXED);
        } else {
            t->w_hashes = __atomic_load_n(&t->hash_count, __ATOMIC_ACQUIRE);
            t->w_arena = __atomic_load_n(&t->arena_used, __ATOMIC_ACQUIRE);
        }
        hashes += t->w_hashes;
        bytes += t->w_arena;
        hh.dropped += t->hash_dropped;
        hh.truncated += t->iter_truncated;
        ih.dropped_instances += t->inst_dropped;
        ih.dropped_values += t->values_dropped;
        /* Instances and sampled iterations still running are lost;
           counted, not hidden (those past the frame stack were counted
           when they began). */
        for (int s = 0; s < VP_RED_ACTIVE_INSTANCES; s++)
            if (t->staging[s].loop != ~0u)
                ih.dropped_instances++;
        uint32_t depth = __atomic_load_n(&t->depth, __ATOMIC_RELAXED);
        for (uint32_t d = 0; d < depth && d < VP_RED_STACK; d++)
            if (t->frames[d].ci)
                hh.dropped++;
    }
    if (threads == 0 && atomic_load(&vp_red.modules) == NULL)
        return 0; /* nothing instrumented in this process */
    hh.version = VP_ITER_HASHES_VERSION;
    hh.header_size = sizeof hh;
    hh.record_count = hashes;
    hh.thread_count = (uint32_t)threads;
    hh.iteration_cap = VP_RED_ITER_VALUE_CAP;
    ih.version = VP_INSTANCES_VERSION;
    ih.header_size = sizeof ih;
    ih.thread_count = (uint32_t)threads;
    ih.value_cap = VP_RED_INSTANCE_VALUE_CAP;

    /* One contiguous payload per section; mmap is usable on the signal
       write path, malloc is not. */
    size_t size1 = sizeof hh + hashes * sizeof(struct vp_iter_hash);
    size_t size2 = sizeof ih + bytes;
    uint8_t *buf = vp_red_map(size1 > size2 ? size1 : size2);
    if (!buf)
        return -1;
    memcpy(buf, &hh, sizeof hh);
    size_t off = sizeof hh;
    for (struct vp_red_thread *t = first; t; t = t->next) {
        memcpy(buf + off, t->hashes, t->w_hashes * sizeof(struct vp_iter_hash));
        off += t->w_hashes * sizeof(struct vp_iter_hash);
    }
    int rc = emit(ctx, VP_SEC_LOOP_ITER_HASHES, VP_SECF_OPTIONAL, buf, off);
    if (rc == 0) {
        off = sizeof ih;
        for (struct vp_red_thread *t = first; t; t = t->next)
            off += vp_red_copy_arena(t, buf + off, &ih.instance_count, &ih.dropped_instances);
        memcpy(buf, &ih, sizeof ih);
        rc = emit(ctx, VP_SEC_LOOP_INSTANCES, VP_SECF_OPTIONAL, buf, off);
    }
    munmap(buf, size1 > size2 ? size1 : size2);
    if (rc == 0)
        rc = vp_red_write_sketches(ctx, emit, first, torn);
    return rc;
}

static void vp_red_init(void)
{
    vp_red_read_env();
}

/* Fork child: the parent's samples are the parent's.  Only this thread
   survives; its buffers are kept and emptied, the others are dropped. */
static void vp_red_fork_child(void)
{
    struct vp_red_thread *t = vp_red_tls.self;
    atomic_store(&vp_red.threads, NULL);
    __atomic_store_n(&vp_red.scan, NULL, __ATOMIC_RELEASE);
    if (!t)
        return;
    t->hash_count = t->hash_dropped = t->iter_truncated = 0;
    t->inst_count = t->inst_dropped = t->values_dropped = 0;
    t->sketch_count = 0; /* loops[] below forgets the indices */
    t->sketch_dropped = 0;
    t->arena_used = 0;
    t->depth = 0;
    t->tid = (uint32_t)syscall(SYS_gettid);
    for (int s = 0; s < VP_RED_ACTIVE_INSTANCES; s++)
        t->staging[s].loop = ~0u;
    /* Nothing is written through the slot pointers this thread kept: a
       module may have been dlclose'd since, and its slots' static TLS given
       to another module's data (e2e fork-after-dlclose.c: clearing the
       flags there zeroed 8 bytes of a plugin's thread-local data in the
       child).  A live slot's flags may stay raised; that is harmless: with
       no frame and no staging buffer the runtime takes the probes' calls as
       no-ops, and the next sampling or instance end of the loop sets the
       flags anew through the pointer its probe passes. */
    memset(t->loops, 0, sizeof t->loops);
    t->next = NULL;
    atomic_store(&vp_red.threads, t);
}

static const struct vp_rt_component vp_red_component = {
    .name = "redundancy",
    .init = vp_red_init,
    .write_sections = vp_red_write,
    .after_fork_child = vp_red_fork_child,
};

__attribute__((constructor)) static void vp_red_register_component(void)
{
    vp_rt_register_component(&vp_red_component);
}
