/*
 * rt_hooks.h - how optional runtime components (the loop probes of
 * loopclass/ and redundancy/, in sampler-rt/src/loops/) plug into the
 * sampler runtime without the core knowing them.
 *
 * None of these is called from the SIGPROF handler.
 */
#ifndef VPROF_RT_HOOKS_H
#define VPROF_RT_HOOKS_H

#include <stddef.h>
#include <stdint.h>

/* Emits one profile section; returns 0 or -1 on a write error. */
typedef int (*vp_rt_emit_fn)(void *ctx, uint32_t type, uint32_t flags, const void *data,
                             uint64_t size);

struct vp_rt_component {
    const char *name;
    /* Called once from the runtime's initialisation (before timers are armed),
       after the environment has been read. */
    void (*init)(void);
    /* Called while the profile is written (at exit, on SIGTERM/SIGINT, on a
       flush request): append this component's sections with `emit`. */
    int (*write_sections)(void *ctx, vp_rt_emit_fn emit);
    /* Called in the child after fork(): drop the parent's data. */
    void (*after_fork_child)(void);
};

/* Register a component; call from a constructor.  At most 8 components.
   Can't fail except by exceeding the limit (then it returns -1). */
int vp_rt_register_component(const struct vp_rt_component *c);

/* Reads an unsigned integer environment variable in [lo, hi]; returns `def`
   when it is unset or empty, and also, with a one-line warning on stderr,
   when it is set but not such a number.  Not async-signal-safe. */
uint64_t vp_rt_env_u64(const char *name, uint64_t def, uint64_t lo, uint64_t hi);

/* A component's per-thread records sit on a push-only list (`*head`), each
   with a `next` pointer and its owner's tid (a uint32_t) at the offsets
   given.  Claims for thread `tid` the record of a thread that has exited:
   one whose owner tgkill(0) answers ESRCH for (none of its code runs any
   more), taken by a compare-and-swap of the tid so that two new threads
   cannot take the same one.  At most VP_RT_CLAIM_PROBES records are looked
   at, from `*cursor` on (wrapping to the head; the cursor moves on), so a
   new thread costs a few syscalls however many threads are alive.  Returns
   the record or NULL.  Async-signal-safe. */
#define VP_RT_CLAIM_PROBES 8
void *vp_rt_claim_record(void **head, void **cursor, size_t next_off, size_t owner_off,
                         uint32_t tid);

/* loops/pure_rt.c: 1 if `fn` is a function some module registered as
   writing nothing (docs/loopclass.md, "Calls through pointers"). */
int vp_rt_callee_pure(const void *fn);

#endif
