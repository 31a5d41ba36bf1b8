/*
 * pure_rt.c - which functions called through a pointer write nothing.
 *
 * A call through a pointer (a C callback, a C++ virtual call) is a side
 * effect for the loop analyses unless the function it reaches writes
 * nothing its callers can see (docs/loopclass.md, "Calls through
 * pointers").  Every translation unit built by vprof-cc lists its
 * address-taken functions whose mod/ref summary is WE_None and registers
 * the list from a constructor (__vprof_pure_register); the probes of an
 * indirect call ask __vprof_callee_pure about the callee, once per callee
 * and call site (the site keeps the last answers in two cache words).
 *
 * Lists are copied and sorted at registration (a module can be dlclose'd;
 * its functions' addresses then stay in the set, and a library mapped there
 * later could have a callee taken for pure: a known limit), published with
 * a release store of the count; lookups take no lock.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

#define VP_PURE_MAX_TABLES 4096u

struct vp_pure_table {
    const uintptr_t *fn; /* sorted */
    uint32_t n;
};

static struct vp_pure_table vp_pure_tabs[VP_PURE_MAX_TABLES];
static _Atomic uint32_t vp_pure_ntabs;
static pthread_mutex_t vp_pure_lock = PTHREAD_MUTEX_INITIALIZER;

static int vp_pure_cmp(const void *a, const void *b)
{
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return (x > y) - (x < y);
}

/* Called from a module's constructor: `n` function addresses. */
VP_RT_EXPORT void __vprof_pure_register(const void *const *fns, uint32_t n)
{
    if (!fns || n == 0 || n > (1u << 24))
        return;
    uintptr_t *copy = malloc(n * sizeof *copy);
    if (!copy)
        return; /* its callees stay impure: conservative */
    for (uint32_t i = 0; i < n; i++)
        copy[i] = (uintptr_t)fns[i];
    qsort(copy, n, sizeof *copy, vp_pure_cmp);
    pthread_mutex_lock(&vp_pure_lock);
    uint32_t k = atomic_load_explicit(&vp_pure_ntabs, memory_order_relaxed);
    if (k < VP_PURE_MAX_TABLES) {
        vp_pure_tabs[k].fn = copy;
        vp_pure_tabs[k].n = n;
        atomic_store_explicit(&vp_pure_ntabs, k + 1, memory_order_release);
        copy = NULL;
    }
    pthread_mutex_unlock(&vp_pure_lock);
    free(copy);
}

/* 1 if `fn` is a registered function that writes nothing, else 0. */
static int vp_callee_pure(const void *fn)
{
    uintptr_t key = (uintptr_t)fn;
    uint32_t k = atomic_load_explicit(&vp_pure_ntabs, memory_order_acquire);
    for (uint32_t t = 0; t < k; t++) {
        const uintptr_t *a = vp_pure_tabs[t].fn;
        size_t lo = 0, hi = vp_pure_tabs[t].n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (a[mid] < key)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < vp_pure_tabs[t].n && a[lo] == key)
            return 1;
    }
    return 0;
}

/* The probe of a call through a pointer: 1 unless `fn` writes nothing.
   cache[0] is the call site's last pure callee, cache[1] its last impure
   one (relaxed atomics: sites are shared by threads; a stale word costs a
   lookup, never a wrong answer). */
VP_RT_EXPORT int __vprof_callee_impure(const void *fn, const void *_Atomic *cache)
{
    if (fn == atomic_load_explicit(&cache[0], memory_order_relaxed))
        return 0;
    if (fn == atomic_load_explicit(&cache[1], memory_order_relaxed))
        return 1;
    int pure = vp_callee_pure(fn);
    atomic_store_explicit(&cache[pure ? 0 : 1], fn, memory_order_relaxed);
    return !pure;
}

/* For the redundancy probes. */
int vp_rt_callee_pure(const void *fn)
{
    return vp_callee_pure(fn);
}
