/*
 * loop_rt.c - runtime half of the loopclass probes (docs/loopclass.md).
 *
 * Every translation unit built by vprof-cc registers its loop descriptor
 * (struct vp_loop_rt_module, format.h) from a constructor through the weak
 * entry point __vprof_loops_register.  We set the gate byte of the loops
 * whose function is listed in VPROF_LOOP_FUNCTIONS ("f,g", "*" = all); the
 * instrumented clone of such a function then reports each loop instance
 * (__vprof_loop_exit) or each recursive call (__vprof_loop_rec_enter/exit).
 *
 * Counters are per thread: each thread owns a block of lazily mapped counter
 * chunks, linked into a lock-free list at its first report, never freed (a
 * finished thread's counts stay until the profile is written).  The probe
 * path touches only the calling thread's memory; nothing runs in the
 * SIGPROF handler.  At write time (exit, terminating signal, flush) the
 * blocks of all threads are merged into one VP_SEC_LOOP_COUNTS section; that
 * path uses only mmap/munmap and the emit callback (async-signal-safe).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <vprof/format.h>

#include "rt_hooks.h"
#include "rt_internal.h"

#define VP_LOOP_CHUNK_SLOTS 1024u /* counter slots per lazily mapped chunk   */
#define VP_LOOP_MAX_CHUNKS 1024u  /* => at most 1M loops per process        */
#define VP_LOOP_MAX_MODULES 16384u /* registered translation units           */
#define VP_LOOP_SELECT_MAX 4096u   /* bytes of VPROF_LOOP_FUNCTIONS kept      */

/* Counters of one loop in one thread.  Written only by the owning thread;
   read (relaxed) by the writer. */
struct vp_loop_slot {
    uint64_t instances;
    uint64_t iterations;
    uint64_t results;
    uint64_t max_iterations;
    uint64_t current;  /* recursion: calls in the running instance           */
    uint64_t depth;    /* recursion: current depth                          */
};

struct vp_loop_thread {
    struct vp_loop_thread *next;        /* lock-free list, push only         */
    struct vp_loop_slot *_Atomic chunks[VP_LOOP_MAX_CHUNKS];
};

struct vp_loop_module {
    struct vp_loop_rt_module *desc;
    const char *path;                   /* dladdr at registration            */
};

static struct vp_loop_thread *_Atomic vp_loop_threads;
static struct vp_loop_module vp_loop_modules[VP_LOOP_MAX_MODULES];
static _Atomic uint32_t vp_loop_module_count; /* slots reserved             */
static _Atomic uint32_t vp_loop_module_ready; /* slots fully written        */
static _Atomic uint64_t vp_loop_next_slot;
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
    m->slot_base = atomic_fetch_add(&vp_loop_next_slot, m->loop_count);
    Dl_info info;
    const char *path = "";
    if (dladdr(m, &info) && info.dli_fname)
        path = info.dli_fname;
    for (uint32_t j = 0; j < m->loop_count; j++) {
        const struct vp_loop_rt_loop *l = &m->loops[j];
        if (vp_loop_select_all || vp_loop_selected(l->function) ||
            vp_loop_selected(l->linkage) || vp_loop_selected(l->container)) {
            m->enabled[j] = 1;
            __atomic_store_n(l->gate, 1, __ATOMIC_RELAXED);
        }
    }
    vp_loop_modules[i].desc = m;
    vp_loop_modules[i].path = path;
    /* publish in order: the writer reads [0, ready) */
    uint32_t expect = i;
    while (!atomic_compare_exchange_weak(&vp_loop_module_ready, &expect, i + 1))
        expect = i;
}

/* The calling thread's counter slot for loop `idx` of `m`, or NULL when
   memory is exhausted (the report is dropped). */
static struct vp_loop_slot *vp_loop_slot_of(const struct vp_loop_rt_module *m, uint32_t idx)
{
    struct vp_loop_thread *t = vp_loop_self;
    if (!t) {
        t = vp_loop_map(sizeof *t);
        if (!t)
            return NULL;
        t->next = atomic_load(&vp_loop_threads);
        while (!atomic_compare_exchange_weak(&vp_loop_threads, &t->next, t))
            ;
        vp_loop_self = t;
    }
    uint64_t slot = m->slot_base + idx;
    uint64_t c = slot / VP_LOOP_CHUNK_SLOTS;
    if (c >= VP_LOOP_MAX_CHUNKS)
        return NULL;
    struct vp_loop_slot *chunk = atomic_load_explicit(&t->chunks[c], memory_order_relaxed);
    if (!chunk) {
        chunk = vp_loop_map(VP_LOOP_CHUNK_SLOTS * sizeof *chunk);
        if (!chunk)
            return NULL;
        atomic_store_explicit(&t->chunks[c], chunk, memory_order_release);
    }
    return &chunk[slot % VP_LOOP_CHUNK_SLOTS];
}

#define VP_LOOP_ADD(field, v) __atomic_store_n(&(field), (field) + (v), __ATOMIC_RELAXED)
#define VP_LOOP_SET(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)

/* One natural-loop instance ended after `iters` header executions, of which
   `results` had their HasResult flag set. */
VP_RT_EXPORT void __vprof_loop_exit(struct vp_loop_rt_module *m, uint32_t idx, uint64_t iters,
                                    uint64_t results)
{
    struct vp_loop_slot *s = vp_loop_slot_of(m, idx);
    if (!s)
        return;
    VP_LOOP_ADD(s->instances, 1);
    VP_LOOP_ADD(s->iterations, iters);
    VP_LOOP_ADD(s->results, results);
    if (iters > s->max_iterations)
        VP_LOOP_SET(s->max_iterations, iters);
}

/* A call of a recursive function began: one iteration; a new instance when
   no call of it is active in this thread. */
VP_RT_EXPORT void __vprof_loop_rec_enter(struct vp_loop_rt_module *m, uint32_t idx)
{
    struct vp_loop_slot *s = vp_loop_slot_of(m, idx);
    if (!s)
        return;
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
    struct vp_loop_slot *s = vp_loop_slot_of(m, idx);
    if (!s)
        return;
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
        const struct vp_loop_rt_module *m = vp_loop_modules[i].desc;
        for (uint32_t j = 0; j < m->loop_count; j++)
            nrec += m->enabled[j] != 0;
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
        const struct vp_loop_rt_module *m = vp_loop_modules[i].desc;
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
            if (!m->enabled[j])
                continue;
            struct vp_loop_count *c = &recs[r++];
            c->loop_id = m->loops[j].loop_id;
            c->module = i;
            c->kind = m->loops[j].kind;
            c->static_class = m->loops[j].static_class;
            uint64_t slot = m->slot_base + j;
            uint64_t ci = slot / VP_LOOP_CHUNK_SLOTS;
            if (ci >= VP_LOOP_MAX_CHUNKS)
                continue;
            for (struct vp_loop_thread *t = atomic_load(&vp_loop_threads); t; t = t->next) {
                struct vp_loop_slot *chunk =
                    atomic_load_explicit(&t->chunks[ci], memory_order_acquire);
                if (!chunk)
                    continue;
                const struct vp_loop_slot *s = &chunk[slot % VP_LOOP_CHUNK_SLOTS];
                c->instances += __atomic_load_n(&s->instances, __ATOMIC_RELAXED);
                c->iterations += __atomic_load_n(&s->iterations, __ATOMIC_RELAXED);
                c->result_iterations += __atomic_load_n(&s->results, __ATOMIC_RELAXED);
                uint64_t mx = __atomic_load_n(&s->max_iterations, __ATOMIC_RELAXED);
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
    for (struct vp_loop_thread *t = atomic_load(&vp_loop_threads); t; t = t->next)
        for (uint32_t c = 0; c < VP_LOOP_MAX_CHUNKS; c++) {
            struct vp_loop_slot *chunk = atomic_load(&t->chunks[c]);
            if (!chunk)
                continue;
            for (uint32_t k = 0; k < VP_LOOP_CHUNK_SLOTS; k++) {
                chunk[k].instances = chunk[k].iterations = 0;
                chunk[k].results = chunk[k].max_iterations = 0;
                chunk[k].current = 0;
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
