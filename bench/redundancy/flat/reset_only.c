/*
 * reset_only.c - a stand-in for the runtime's __vprof_red_iter_sample that
 * records nothing: it only sets the loop's iteration countdown again and
 * answers "do not record".  Preloaded before libvprof-rt.so, it leaves a
 * probed binary running exactly its unsampled code, except that the
 * countdown branch is now taken every FLAT_RATE iterations.  flat.py uses
 * it to tell the cost of taking that branch from the cost of the recording
 * work (bench/results/redundancy-overhead.md, "The sampling branch").
 *
 *   FLAT_RATE=N   the countdown it sets (default 4000)
 *   FLAT_FIRST=K  the first K calls set the countdown to 2 instead (the
 *                 branch is taken K times early, then never again)
 *   FLAT_LOOP=I   only the loop of index I gets FLAT_RATE; the others get
 *                 INT32_MAX (not called again)
 *
 * Bench-only: not thread-safe (the bench programs are single-threaded).
 */
#include <stdint.h>
#include <stdlib.h>

struct slot { /* struct vp_red_rt_slot (vprof/format.h) */
    int32_t iter_countdown, instance_countdown, instance_active, recording;
};

static int32_t rate = -1, only = -1;
static long first;

int32_t __vprof_red_iter_sample(const void *module, uint32_t idx, struct slot *s)
{
    (void)module;
    if (rate < 0) {
        const char *e = getenv("FLAT_RATE");
        rate = e && atoi(e) > 0 ? atoi(e) : 4000;
        first = (e = getenv("FLAT_FIRST")) ? atol(e) : 0;
        only = (e = getenv("FLAT_LOOP")) ? atoi(e) : -1;
    }
    if (only >= 0 && (int32_t)idx != only) {
        s->iter_countdown = INT32_MAX;
        return 0;
    }
    if (first > 0) {
        first--;
        s->iter_countdown = 2;
        return 0;
    }
    s->iter_countdown = rate;
    return 0;
}
