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
 * A value that is not a number in range ends the program with one line and
 * exit status 2.  Bench-only: not thread-safe (the bench programs are
 * single-threaded).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

struct slot { /* struct vp_red_rt_slot (vprof/format.h) */
    int32_t iter_countdown, instance_countdown, instance_active, recording;
};

static int32_t rate = -1, only = -1;
static long first;

/* The variable's value as a number in [lo, INT32_MAX], `dflt` when unset;
   anything else ends the program with one line (a bench run measured with
   a value it did not ask for would be silently wrong). */
static long env_num(const char *name, long lo, long dflt)
{
    const char *e = getenv(name);
    if (!e)
        return dflt;
    char *end;
    errno = 0;
    long v = strtol(e, &end, 10);
    if (errno || end == e || *end || v < lo || v > INT32_MAX) {
        static const char msg[] = "reset_only: bad FLAT_RATE, FLAT_FIRST or FLAT_LOOP value\n";
        ssize_t r = write(2, msg, sizeof msg - 1);
        (void)r;
        _exit(2);
    }
    return v;
}

int32_t __vprof_red_iter_sample(const void *module, uint32_t idx, struct slot *s)
{
    (void)module;
    if (rate < 0) {
        rate = (int32_t)env_num("FLAT_RATE", 1, 4000);
        first = env_num("FLAT_FIRST", 0, 0);
        only = (int32_t)env_num("FLAT_LOOP", 0, -1);
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
