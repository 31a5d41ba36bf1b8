/*
 * loop_rt.c - runtime half of the loopclass probes (docs/loopclass.md).
 *
 * Every translation unit built by vprof-cc registers its loop descriptor
 * (struct vp_loop_rt_module, format.h) from a constructor through the weak
 * entry point __vprof_loops_register.  We set the gate byte of the loops
 * whose function is listed in VPROF_LOOP_FUNCTIONS ("f,g", "*" = all); the
 * instrumented clone of such a function then counts each loop instance
 * inline, in the calling thread's counter block of its translation unit
 * (__vprof_loop_block hands the block out once per thread and TU; the probe
 * keeps it in a thread-local pointer of the TU), and each recursive call
 * through __vprof_loop_rec_enter/exit.
 *
 * Counter blocks are per thread and TU, carved from the thread's lazily
 * mapped arenas, reachable from the thread's record in a lock-free list
 * (push only), never freed: a finished thread's counts stay until the
 * profile is written, and its TLS pointer dying with it does not matter.
 * The probe path touches only the calling thread's memory; nothing runs in
 * the SIGPROF handler.  At write time (exit, terminating signal, flush) the
 * blocks of all threads are merged into one VP_SEC_LOOP_COUNTS section; that
 * path uses only mmap/munmap and the emit callback (async-signal-safe).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <vprof/format.h>

#include "rt_hooks.h"
#include "rt_internal.h"

#define VP_LOOP_MAX_MODULES 16384u /* registered translation units           */
#define VP_LOOP_SELECT_MAX 4096u   /* bytes of VPROF_LOOP_FUNCTIONS kept      */
#define VP_LOOP_ARENA (64u << 10)   /* bytes per counter arena of a thread     */

struct vp_loop_thread {
    struct vp_loop_thread *next;        /* lock-free list, push only         */
    uint32_t tid;                       /* owner; another thread takes the
                                           record over once it has exited   */
    /* counters of module i, written once by the owner (release), read by the
       writer (acquire) */
    struct vp_loop_rt_counter *_Atomic blocks[VP_LOOP_MAX_MODULES];
    uint8_t *arena;                     /* owner only: free part of the arena */
    size_t arena_left;
    volatile sig_atomic_t carving;      /* owner only: inside vp_loop_carve  */
};

/* What the writer needs of a loop, copied at registration: a module can
   be dlclose'd before the profile is written, and then its descriptor, its
   strings and dladdr's file name are unmapped (tests/stress/dlopen.sh). */
struct vp_loop_snap {
    uint64_t loop_id;
    uint8_t kind;
    uint8_t static_class;
    uint8_t enabled;
};

struct vp_loop_module {
    struct vp_loop_rt_module *desc;     /* identity only: never dereferenced
                                           after registration              */
    const struct vp_loop_snap *loops;   /* runtime-owned copy (mmap)         */
    uint32_t loop_count;                /* of `loops`; 0 if the copy failed  */
    const char *path;                   /* dladdr at registration, copied    */
};

static struct vp_loop_thread *_Atomic vp_loop_threads;
static struct vp_loop_thread *vp_loop_scan; /* where the next claim looks */
static struct vp_loop_module vp_loop_modules[VP_LOOP_MAX_MODULES];
static _Atomic uint32_t vp_loop_module_count; /* slots reserved             */
static _Atomic uint32_t vp_loop_module_ready; /* slots fully written        */
static VP_RT_TLS struct vp_loop_thread *vp_loop_self;

static pthread_once_t vp_loop_select_once = PTHREAD_ONCE_INIT;
static char vp_loop_select[VP_LOOP_SELECT_MAX]; /* names, NUL-separated      */
static size_t vp_loop_select_len;
static int vp_loop_select_all;

static void *vp_loop_map(size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Reads VPROF_LOOP_FUNCTIONS once. */
static void vp_loop_select_init(void)
{
    const char *env = getenv("VPROF_LOOP_FUNCTIONS");
    if (!env)
        return;
    size_t n = strlen(env);
    if (n >= sizeof vp_loop_select) {
        vp_rt_log("VPROF_LOOP_FUNCTIONS is too long; truncated", NULL);
        n = sizeof vp_loop_select - 1;
    }
    memcpy(vp_loop_select, env, n);
    for (size_t i = 0; i < n; i++)
        if (vp_loop_select[i] == ',')
            vp_loop_select[i] = 0;
    vp_loop_select_len = n;
    for (size_t i = 0; i < n; i += strlen(vp_loop_select + i) + 1)
        if (strcmp(vp_loop_select + i, "*") == 0)
            vp_loop_select_all = 1;
}

static int vp_loop_selected(const char *name)
{
    if (!name || !*name)
        return 0;
    for (size_t i = 0; i < vp_loop_select_len; i += strlen(vp_loop_select + i) + 1)
        if (vp_loop_select[i] && strcmp(vp_loop_select + i, name) == 0)
            return 1;
    return 0;
}

/* Called by the constructor of every instrumented translation unit. */
VP_RT_EXPORT void __vprof_loops_register(struct vp_loop_rt_module *m)
{
    if (!m || m->version != VP_LOOP_RT_VERSION)
        return;
    pthread_once(&vp_loop_select_once, vp_loop_select_init);
    uint32_t i = atomic_fetch_add(&vp_loop_module_count, 1);
    if (i >= VP_LOOP_MAX_MODULES) {
        vp_rt_log("too many instrumented translation units; loop probes of the rest stay off",
                  NULL);
        return;
    }
    m->index = i;
    Dl_info info;
    const char *path = "";
    if (dladdr(m, &info) && info.dli_fname)
        path = info.dli_fname;
    size_t plen = strlen(path) + 1;
    struct vp_loop_snap *snap =
        vp_loop_map((size_t)m->loop_count * sizeof(struct vp_loop_snap) + plen);
    if (!snap) /* no copy, no counts: the gates stay shut, the probes off */
        vp_rt_log("out of memory registering loop probes; they stay off", NULL);
    for (uint32_t j = 0; snap && j < m->loop_count; j++) {
        const struct vp_loop_rt_loop *l = &m->loops[j];
        snap[j].loop_id = l->loop_id;
        snap[j].kind = l->kind;
        snap[j].static_class = l->static_class;
        if (vp_loop_select_all || vp_loop_selected(l->function) ||
            vp_loop_selected(l->linkage) || vp_loop_selected(l->container)) {
            m->enabled[j] = 1;
            snap[j].enabled = 1;
            /* release: a thread that sees the gate open sees m->index */
            __atomic_store_n(l->gate, 1, __ATOMIC_RELEASE);
        }
    }
    char *pcopy = snap ? (char *)(snap + m->loop_count) : NULL;
    if (pcopy)
        memcpy(pcopy, path, plen);
    vp_loop_modules[i].desc = m;
    vp_loop_modules[i].loops = snap;
    vp_loop_modules[i].loop_count = snap ? m->loop_count : 0;
    vp_loop_modules[i].path = pcopy;
    /* publish in order: the writer reads [0, ready) */
    uint32_t expect = i;
    while (!atomic_compare_exchange_weak(&vp_loop_module_ready, &expect, i + 1))
        expect = i;
}

/* The record of a thread that has exited, taken over by thread `tid`, or
   NULL.  Counts merge over threads when the profile is written, so a new
   thread may go on adding to a dead one's counters; a program that runs
   each task on a new thread would otherwise keep a record per thread
   (about 12 KB each: 242 MB for 20,000 threads).  The claim is
   vp_rt_claim_record's.  The recursion state it left (an instance open in
   its frames) is reset. */
static struct vp_loop_thread *vp_loop_reuse(uint32_t tid)
{
    struct vp_loop_thread *t =
        vp_rt_claim_record((void **)&vp_loop_threads, (void **)&vp_loop_scan,
                           offsetof(struct vp_loop_thread, next),
                           offsetof(struct vp_loop_thread, tid), tid);
    if (!t)
        return NULL;
    uint32_t nmod = atomic_load(&vp_loop_module_ready);
    for (uint32_t i = 0; i < nmod; i++) {
        struct vp_loop_rt_counter *b = atomic_load_explicit(&t->blocks[i],
                                                            memory_order_relaxed);
        for (uint32_t j = 0; b && j < vp_loop_modules[i].loop_count; j++)
            b[j].depth = b[j].current = 0;
    }
    t->carving = 0; /* its owner may have left a carve by a longjmp */
    return t;
}

/* The calling thread's record: an exited thread's, or a new one on first
   use; NULL when memory is exhausted. */
static struct vp_loop_thread *vp_loop_thread_self(void)
{
    struct vp_loop_thread *t = vp_loop_self;
    if (t)
        return t;
    uint32_t tid = (uint32_t)syscall(SYS_gettid);
    t = vp_loop_reuse(tid);
    if (!t) {
        t = vp_loop_map(sizeof *t);
        if (!t)
            return NULL;
        atomic_signal_fence(memory_order_seq_cst);
        if (vp_loop_self) { /* a signal handler's probes made one meanwhile */
            munmap(t, sizeof *t);
            return vp_loop_self;
        }
        t->tid = tid;
        t->next = atomic_load(&vp_loop_threads);
        while (!atomic_compare_exchange_weak(&vp_loop_threads, &t->next, t))
            ;
    }
    vp_loop_self = t;
    return t;
}

/* `size` bytes of zeroed counters from thread `t`'s arena, or NULL when
   memory is exhausted.  A signal handler whose probes need a block while
   the thread is inside here (mapping a new arena, or between reading the
   arena's free part and advancing it) gets a mapping of its own, so two
   blocks never overlap. */
static struct vp_loop_rt_counter *vp_loop_carve(struct vp_loop_thread *t, size_t size)
{
    if (t->carving)
        return vp_loop_map((size + 4095) & ~(size_t)4095);
    t->carving = 1;
    atomic_signal_fence(memory_order_seq_cst);
    uint8_t *b = NULL;
    if (size > t->arena_left) {
        size_t n = size > VP_LOOP_ARENA ? (size + 4095) & ~(size_t)4095 : VP_LOOP_ARENA;
        uint8_t *a = vp_loop_map(n);
        if (a) {
            t->arena = a;
            t->arena_left = n;
        }
    }
    if (size <= t->arena_left) {
        b = t->arena;
        t->arena += size;
        t->arena_left -= size;
    }
    atomic_signal_fence(memory_order_seq_cst);
    t->carving = 0;
    return (struct vp_loop_rt_counter *)b;
}

/* The calling thread's counters of module `m` (loop_count of them), or NULL
   when `m` is not registered or memory is exhausted (its counts are then
   dropped).  Called by the probes once per thread and translation unit; they
   keep the answer in the TU's thread-local pointer. */
VP_RT_EXPORT struct vp_loop_rt_counter *__vprof_loop_block(struct vp_loop_rt_module *m)
{
    if (!m || m->version != VP_LOOP_RT_VERSION)
        return NULL;
    uint64_t i = m->index;
    if (i >= atomic_load(&vp_loop_module_ready) || vp_loop_modules[i].desc != m)
        return NULL;
    struct vp_loop_thread *t = vp_loop_thread_self();
    if (!t)
        return NULL;
    struct vp_loop_rt_counter *b = atomic_load_explicit(&t->blocks[i], memory_order_relaxed);
    if (b)
        return b;
    b = vp_loop_carve(t, ((size_t)m->loop_count * sizeof *b + 63) & ~(size_t)63);
    if (!b)
        return NULL;
    /* A signal handler's probes may have published a block of this module
       while we carved ours (loopclass e2e signal-in-block.c): theirs holds
       counts, ours is left unused. */
    struct vp_loop_rt_counter *expect = NULL;
    if (!atomic_compare_exchange_strong_explicit(&t->blocks[i], &expect, b,
                                                 memory_order_release, memory_order_relaxed))
        return expect;
    return b;
}

#define VP_LOOP_ADD(field, v) __atomic_store_n(&(field), (field) + (v), __ATOMIC_RELAXED)
#define VP_LOOP_SET(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)

/* A call of a recursive function began: one iteration; a new instance when
   no call of it is active in this thread. */
VP_RT_EXPORT void __vprof_loop_rec_enter(struct vp_loop_rt_module *m, uint32_t idx)
{
    struct vp_loop_rt_counter *b = __vprof_loop_block(m);
    if (!b || idx >= m->loop_count)
        return;
    struct vp_loop_rt_counter *s = &b[idx];
    if (s->depth++ == 0) {
        VP_LOOP_ADD(s->instances, 1);
        s->current = 0;
    }
    s->current++;
    VP_LOOP_ADD(s->iterations, 1);
}

VP_RT_EXPORT void __vprof_loop_rec_exit(struct vp_loop_rt_module *m, uint32_t idx,
                                        uint64_t has_result)
{
    struct vp_loop_rt_counter *b = __vprof_loop_block(m);
    if (!b || idx >= m->loop_count)
        return;
    struct vp_loop_rt_counter *s = &b[idx];
    VP_LOOP_ADD(s->results, has_result ? 1 : 0);
    if (s->depth == 0) /* entered before a fork reset, or unbalanced (longjmp) */
        return;
    if (--s->depth == 0 && s->current > s->max_iterations)
        VP_LOOP_SET(s->max_iterations, s->current);
}

static const char *vp_loop_path(uint32_t i)
{
    return vp_loop_modules[i].path ? vp_loop_modules[i].path : "";
}

/* Writes VP_SEC_LOOP_COUNTS: the counters of every selected loop, merged
   over threads.  May run in a terminating-signal handler: mmap, no malloc. */
static int vp_loop_write_sections(void *ctx, vp_rt_emit_fn emit)
{
    uint32_t nmod = atomic_load(&vp_loop_module_ready);
    if (nmod == 0)
        return 0;
    uint32_t nrec = 0, threads = 0;
    size_t strings = 1;
    for (uint32_t i = 0; i < nmod; i++) {
        const struct vp_loop_module *m = &vp_loop_modules[i];
        for (uint32_t j = 0; j < m->loop_count; j++)
            nrec += m->loops[j].enabled != 0;
        strings += strlen(vp_loop_path(i)) + 1; /* upper bound, deduplicated below */
    }
    for (struct vp_loop_thread *t = atomic_load(&vp_loop_threads); t; t = t->next)
        threads++;
    size_t size = sizeof(struct vp_loop_counts_header) +
                  nmod * sizeof(struct vp_loop_counts_module) +
                  (size_t)nrec * sizeof(struct vp_loop_count) + strings;
    size_t mapped = (size + 4095) & ~(size_t)4095;
    uint8_t *buf = vp_loop_map(mapped);
    if (!buf)
        return -1;
    struct vp_loop_counts_header *h = (void *)buf;
    struct vp_loop_counts_module *mods = (void *)(h + 1);
    struct vp_loop_count *recs = (void *)(mods + nmod);
    char *str = (char *)(recs + nrec);
    uint32_t used = 1; /* str[0] = "" */
    uint32_t r = 0;
    for (uint32_t i = 0; i < nmod; i++) {
        const struct vp_loop_module *m = &vp_loop_modules[i];
        const char *path = vp_loop_path(i);
        uint32_t off = 0;
        for (uint32_t k = 0; k < i && !off; k++) /* same path as an earlier module */
            if (strcmp(vp_loop_path(k), path) == 0)
                off = mods[k].path;
        if (!off && *path) {
            off = used;
            size_t n = strlen(path) + 1;
            memcpy(str + used, path, n);
            used += (uint32_t)n;
        }
        mods[i].path = off;
        mods[i].loop_count = m->loop_count;
        for (uint32_t j = 0; j < m->loop_count; j++) {
            if (!m->loops[j].enabled)
                continue;
            struct vp_loop_count *c = &recs[r++];
            c->loop_id = m->loops[j].loop_id;
            c->module = i;
            c->kind = m->loops[j].kind;
            c->static_class = m->loops[j].static_class;
            for (struct vp_loop_thread *t = atomic_load(&vp_loop_threads); t; t = t->next) {
                struct vp_loop_rt_counter *b =
                    atomic_load_explicit(&t->blocks[i], memory_order_acquire);
                if (!b)
                    continue;
                const struct vp_loop_rt_counter *s = &b[j];
                /* The owner may be counting right now (a flush while threads
                   run): read in the reverse order of the probe's updates and
                   clamp, so the snapshot keeps results, max <= iterations and
                   instances > 0 when iterations > 0, as the reader requires. */
                uint64_t mx = __atomic_load_n(&s->max_iterations, __ATOMIC_ACQUIRE);
                uint64_t res = __atomic_load_n(&s->results, __ATOMIC_ACQUIRE);
                uint64_t it = __atomic_load_n(&s->iterations, __ATOMIC_ACQUIRE);
                uint64_t in = __atomic_load_n(&s->instances, __ATOMIC_ACQUIRE);
                if (res > it)
                    res = it;
                if (mx > it)
                    mx = it;
                if (it && !in)
                    in = 1;
                c->instances += in;
                c->iterations += it;
                c->result_iterations += res;
                if (mx > c->max_iterations)
                    c->max_iterations = mx;
            }
        }
    }
    h->version = VP_LOOP_COUNTS_VERSION;
    h->header_size = sizeof *h;
    h->module_count = nmod;
    h->record_count = nrec;
    h->thread_count = threads;
    h->strings_size = used;
    size = (size_t)((uint8_t *)(str + used) - buf);
    int rc = emit(ctx, VP_SEC_LOOP_COUNTS, VP_SECF_OPTIONAL, buf, size);
    munmap(buf, mapped);
    return rc;
}

/* In the child after fork(): the parent's counts belong to the parent's
   profile.  Recursion depths are kept so that calls active across the fork
   unwind correctly. */
static void vp_loop_after_fork_child(void)
{
    uint32_t nmod = atomic_load(&vp_loop_module_ready);
    for (struct vp_loop_thread *t = atomic_load(&vp_loop_threads); t; t = t->next)
        for (uint32_t i = 0; i < nmod; i++) {
            struct vp_loop_rt_counter *b = atomic_load(&t->blocks[i]);
            if (!b)
                continue;
            for (uint32_t k = 0; k < vp_loop_modules[i].loop_count; k++) {
                b[k].instances = b[k].iterations = 0;
                b[k].results = b[k].max_iterations = 0;
                b[k].current = 0;
            }
        }
}

static void vp_loop_init(void)
{
    pthread_once(&vp_loop_select_once, vp_loop_select_init);
}

static const struct vp_rt_component vp_loop_component = {
    .name = "loopclass",
    .init = vp_loop_init,
    .write_sections = vp_loop_write_sections,
    .after_fork_child = vp_loop_after_fork_child,
};

__attribute__((constructor)) static void vp_loop_register_component(void)
{
    vp_rt_register_component(&vp_loop_component);
}
