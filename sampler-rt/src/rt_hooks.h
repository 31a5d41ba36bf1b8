/*
 * rt_hooks.h - how optional runtime components (the loop probes of
 * loopclass/ and redundancy/, in sampler-rt/src/loops/) plug into the
 * sampler runtime without the core knowing them.
 *
 * None of these is called from the SIGPROF handler.
 */
#ifndef VPROF_RT_HOOKS_H
#define VPROF_RT_HOOKS_H

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

/* A per-thread record whose owner thread (*owner, a tid of this process)
   has exited is claimed for thread `tid`: returns 1 and sets *owner to tid
   if the owner is gone (tgkill(0) answers ESRCH, so none of its code runs
   any more) and no other thread claimed it first (compare-and-swap); else
   0.  Async-signal-safe. */
int vp_rt_claim_exited(uint32_t *owner, uint32_t tid);

#endif
