/*
 * rt_write.c - writes the profile file (format.h part 4).
 *
 * Called at exit, before exec, on a terminating signal and on the
 * launcher's flush signal, so it may run inside a signal handler: it uses
 * only async-signal-safe calls (open, write, close, rename, unlink,
 * clock_gettime, pthread_sigmask, nanosleep) and a static buffer, no stdio,
 * no malloc.  One write at a time (the `writing` flag; a second concurrent
 * request is refused with -1).  While writing, SIGPROF is blocked in the
 * writing thread and the other threads' handlers stand off (`paused`).
 *
 * The file is written to "<final>.tmp.<pid>" created with
 * O_CREAT|O_EXCL|O_NOFOLLOW (never through a planted symlink, never a
 * truncated final file), then renamed over the final name.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rt_internal.h"

struct vp_rt_out {
    int fd;
    int err;
    uint32_t len;
    uint8_t buf[1 << 16];
};
static struct vp_rt_out vp_rt_out; /* guarded by vp_rt.writing */

static void vp_rt_out_flush(struct vp_rt_out *o)
{
    uint32_t off = 0;
    while (off < o->len && !o->err) {
        ssize_t n = write(o->fd, o->buf + off, o->len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            o->err = 1;
        else
            off += (uint32_t)n;
    }
    o->len = 0;
}

static void vp_rt_out_put(struct vp_rt_out *o, const void *p, uint64_t n)
{
    const uint8_t *s = p;
    while (n > 0 && !o->err) {
        uint64_t room = sizeof o->buf - o->len;
        uint64_t k = n < room ? n : room;
        memcpy(o->buf + o->len, s, k);
        o->len += (uint32_t)k;
        s += k;
        n -= k;
        if (o->len == sizeof o->buf)
            vp_rt_out_flush(o);
    }
}

static void vp_rt_out_pad(struct vp_rt_out *o, uint64_t size)
{
    static const uint8_t zero[8];
    if (size % 8)
        vp_rt_out_put(o, zero, 8 - size % 8);
}

static void vp_rt_section_header(struct vp_rt_out *o, uint32_t type, uint32_t flags, uint64_t size)
{
    struct vp_section_header h = {type, flags, size};
    vp_rt_out_put(o, &h, sizeof h);
}

/* rt_hooks.h emit function handed to components. */
static int vp_rt_emit(void *ctx, uint32_t type, uint32_t flags, const void *data, uint64_t size)
{
    struct vp_rt_out *o = ctx;
    vp_rt_section_header(o, type, flags, size);
    vp_rt_out_put(o, data, size);
    vp_rt_out_pad(o, size);
    return o->err ? -1 : 0;
}

/* Appends decimal `v` to `p`; returns the new end.  (snprintf is not
   async-signal-safe.) */
static char *vp_rt_utoa(char *p, uint64_t v)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *p++ = tmp[--n];
    *p = 0;
    return p;
}

static char *vp_rt_stpcpy(char *d, const char *s, const char *end)
{
    while (*s && d < end - 1)
        *d++ = *s++;
    *d = 0;
    return d;
}

/* Writes one line to stderr, async-signal-safe. */
void vp_rt_log(const char *msg, const char *detail)
{
    char line[VP_RT_PATH_MAX + 512];
    char *end = line + sizeof line - 1;
    char *p = vp_rt_stpcpy(line, "vprof-rt: ", end);
    p = vp_rt_stpcpy(p, msg, end);
    p = vp_rt_stpcpy(p, detail ? detail : "", end);
    *p++ = '\n';
    ssize_t r = write(2, line, (size_t)(p - line));
    (void)r;
}

/* The file name this process image writes: VPROF_OUTPUT for the root
   process, "<VPROF_OUTPUT>.<pid>" for any other; with `pre_exec`, the name
   an image about to exec uses: "<that>.exec<N>".  Returns 0, or -1 if the
   name does not fit. */
int vp_rt_output_name(char *buf, size_t len, int pre_exec)
{
    char *end = buf + len;
    char *p = vp_rt_stpcpy(buf, vp_rt.output, end);
    if (end - p < 48)
        return -1;
    if (vp_rt.pid != vp_rt.root_pid) {
        *p++ = '.';
        p = vp_rt_utoa(p, (uint64_t)vp_rt.pid);
    }
    if (pre_exec) {
        p = vp_rt_stpcpy(p, ".exec", end);
        p = vp_rt_utoa(p, vp_rt.exec_seq);
    }
    return 0;
}

/* Asks the handlers of all threads to stand off and waits (at most ~0.5 s)
   for those running to finish.  A handler interrupted by the caller (a
   terminating signal arriving in our own handler) is not waited for. */
void vp_rt_pause_sampling(void)
{
    atomic_store(&vp_rt.paused, 1);
    int self = vp_rt_tls_in_handler ? 1 : 0;
    for (int i = 0; i < 500 && atomic_load(&vp_rt.in_flight) > self; i++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

void vp_rt_resume_sampling(void)
{
    atomic_store(&vp_rt.paused, 0);
}

_Static_assert(VP_RT_TIMER_THREAD == VP_CLOCK_THREAD_CPUTIME &&
                   VP_RT_TIMER_PROCESS == VP_CLOCK_PROCESS_CPUTIME &&
                   VP_RT_TIMER_PERF == VP_CLOCK_PERF_TASK_CLOCK,
               "the header's clock is the timer mode");

/* Value record `i` in the file's layout; 0 if it is not committed or its
   PC sample is not (then it counts as dropped).  Async-signal-safe. */
static int vp_rt_value_rebuild(uint64_t i, struct vp_value_sample *out)
{
    const struct vp_rt_value *v = &vp_rt.val_buf[i];
    uint32_t ref = __atomic_load_n(&v->ref, __ATOMIC_ACQUIRE);
    uint32_t f = ref & VP_RT_REF_FRAME_MASK;
    if (f == 0 || f > vp_rt.max_vframes)
        return 0;
    const struct vp_rt_vframe *fr = &vp_rt.vframes[f - 1];
    if (fr->slot >= vp_rt.max_samples)
        return 0;
    const struct vp_pc_sample *r = (const void *)(vp_rt.pc_buf + (uint64_t)fr->slot * vp_rt.pc_slot_size);
    uint32_t tid = __atomic_load_n(&r->tid, __ATOMIC_ACQUIRE);
    if (tid == 0 || fr->depth > r->depth)
        return 0;
    memset(out, 0, sizeof *out);
    out->seq = r->seq;
    out->value = v->value;
    out->pc = fr->depth == 0 ? r->pc : ((const uint64_t *)(r + 1))[fr->depth - 1];
    out->var_id = v->var_id;
    out->tid = tid;
    out->depth = (uint8_t)fr->depth;
    out->status = (uint8_t)(ref >> VP_RT_REF_STATUS_SHIFT);
    return 1;
}

static void vp_rt_write_sections(struct vp_rt_out *o)
{
    struct vp_rt_modlist *ml = vp_rt.modlists[atomic_load(&vp_rt.modlist_cur)];

    struct vp_profile_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, VP_PROFILE_MAGIC, 8);
    h.version = VP_PROFILE_VERSION;
    h.header_size = sizeof h;
    h.endian = VP_ENDIAN_MARK;
    h.word_size = 8;
    h.clock = (uint8_t)vp_rt.timer_mode; /* enum vp_rt_timer_mode == enum vp_clock */
    h.max_depth = (uint16_t)vp_rt.stack_depth; /* callers; values at most vp_rt.depth */
    h.period_ns = vp_rt.period_ns;
    h.start_ns = vp_rt.start_ns;
    h.end_ns = vp_rt_now_ns(CLOCK_REALTIME);
    h.pid = (uint32_t)vp_rt.pid;
    h.ppid = (uint32_t)vp_rt.ppid;
    h.exit_status = vp_rt.exit_status;
    h.flags = vp_rt.flags | (vp_rt.modules_stale ? VP_PROFF_MODULES_STALE : 0) |
              (vp_rt.jitter && vp_rt.timer_mode == VP_RT_TIMER_PERF ? VP_PROFF_JITTERED : 0);
    h.root_pid = (uint32_t)vp_rt.root_pid;
    vp_rt_out_put(o, &h, sizeof h);

    vp_rt_emit(o, VP_SEC_STRINGS, 0, ml->strings, ml->strings_used);

    vp_rt_section_header(o, VP_SEC_MODULES, 0, (uint64_t)ml->count * sizeof(struct vp_prof_module));
    for (uint32_t i = 0; i < ml->count; i++) {
        const struct vp_rt_module *m = &ml->mods[i];
        struct vp_prof_module pm;
        memset(&pm, 0, sizeof pm);
        pm.load_bias = m->load_bias;
        pm.lo = m->lo;
        pm.hi = m->hi;
        pm.path = m->path;
        pm.build_id_len = m->build_id_len;
        memcpy(pm.build_id, m->build_id, sizeof pm.build_id);
        pm.indexed = m->indexed;
        vp_rt_out_put(o, &pm, sizeof pm);
    }

    if (vp_rt.have_index && vp_rt.index.vartab)
        vp_rt_emit(o, VP_SEC_VARIABLES, 0, vp_rt.index.vartab, vp_rt.index.hdr->vartab_size);
    if (vp_rt.have_index && vp_rt.index.coverage)
        vp_rt_emit(o, VP_SEC_COVERAGE, 0, vp_rt.index.coverage, vp_rt.index.hdr->coverage_size);

    /* PC samples: committed records only (tid != 0), compacted. */
    uint64_t n = atomic_load(&vp_rt.pc_next);
    if (n > vp_rt.max_samples)
        n = vp_rt.max_samples;
    uint64_t bytes = 0, uncommitted = 0;
    for (uint64_t i = 0; i < n; i++) {
        const struct vp_pc_sample *r = (const void *)(vp_rt.pc_buf + i * vp_rt.pc_slot_size);
        if (__atomic_load_n(&r->tid, __ATOMIC_ACQUIRE) == 0)
            uncommitted++;
        else
            bytes += sizeof *r + 8ull * r->depth;
    }
    vp_rt_section_header(o, VP_SEC_PC_SAMPLES, 0, bytes);
    for (uint64_t i = 0; i < n; i++) {
        const struct vp_pc_sample *r = (const void *)(vp_rt.pc_buf + i * vp_rt.pc_slot_size);
        if (__atomic_load_n(&r->tid, __ATOMIC_ACQUIRE) != 0)
            vp_rt_out_put(o, r, sizeof *r + 8ull * r->depth);
    }

    /* Value samples: committed records of committed PC samples, rebuilt
       into the file's layout from their frame and PC sample. */
    uint64_t nv = atomic_load(&vp_rt.val_next);
    if (nv > vp_rt.max_values)
        nv = vp_rt.max_values;
    uint64_t nvc = 0;
    struct vp_value_sample vs;
    for (uint64_t i = 0; i < nv; i++)
        nvc += vp_rt_value_rebuild(i, &vs);
    vp_rt_section_header(o, VP_SEC_VALUE_SAMPLES, 0, nvc * sizeof(struct vp_value_sample));
    /* A handler that outlived the pause can commit more records between the
       two passes: never write more than the header announced. */
    for (uint64_t i = 0, w = 0; i < nv && w < nvc; i++)
        if (vp_rt_value_rebuild(i, &vs)) {
            vp_rt_out_put(o, &vs, sizeof vs);
            w++;
        }

    struct vp_loss l;
    memset(&l, 0, sizeof l);
    l.signals = atomic_load(&vp_rt.signals);
    l.pc_samples = atomic_load(&vp_rt.pc_samples);
    /* a slot reserved but never completed (writer timed out) is a loss too */
    l.pc_dropped = atomic_load(&vp_rt.pc_dropped) + uncommitted;
    l.value_samples = atomic_load(&vp_rt.value_samples);
    l.values_dropped = atomic_load(&vp_rt.values_dropped) + (nv - nvc);
    l.values_unreadable = atomic_load(&vp_rt.values_unreadable);
    l.unwind_errors = atomic_load(&vp_rt.unwind_errors);
    l.reentrant = atomic_load(&vp_rt.reentrant);
    l.threads = atomic_load(&vp_rt.nthreads);
    l.timer_failures = atomic_load(&vp_rt.timer_failures);
    vp_rt_emit(o, VP_SEC_LOSS, 0, &l, sizeof l);

    uint32_t nt = atomic_load(&vp_rt.thread_next);
    if (nt > vp_rt.max_threads)
        nt = vp_rt.max_threads;
    uint32_t ntc = 0;
    for (uint32_t i = 0; i < nt; i++)
        ntc += atomic_load(&vp_rt.threads[i].tid) != 0;
    vp_rt_section_header(o, VP_SEC_THREADS, 0, (uint64_t)ntc * sizeof(struct vp_prof_thread));
    for (uint32_t i = 0; i < nt; i++) {
        struct vp_rt_thread *t = &vp_rt.threads[i];
        struct vp_prof_thread pt;
        memset(&pt, 0, sizeof pt);
        pt.tid = atomic_load(&t->tid);
        if (!pt.tid)
            continue;
        pt.pc_samples = atomic_load(&t->pc_samples);
        pt.cpu_ns = atomic_load(&t->exited) ? t->cpu_ns : vp_rt_thread_cpu_ns(pt.tid);
        vp_rt_out_put(o, &pt, sizeof pt);
    }

    int nc = atomic_load(&vp_rt.component_count);
    for (int i = 0; i < nc; i++)
        if (vp_rt.components[i]->write_sections &&
            vp_rt.components[i]->write_sections(o, vp_rt_emit) != 0)
            vp_rt_log("component failed to write its sections: ", vp_rt.components[i]->name);

    vp_rt_section_header(o, VP_SEC_END, 0, 0);
}

static void vp_rt_debug_report(const char *path)
{
    char line[VP_RT_PATH_MAX + 256];
    char *end = line + sizeof line, *p = line;
    uint64_t calls = atomic_load(&vp_rt.handler_calls);
    p = vp_rt_stpcpy(p, path, end);
    p = vp_rt_stpcpy(p, ": samples=", end);
    p = vp_rt_utoa(p, atomic_load(&vp_rt.pc_samples));
    p = vp_rt_stpcpy(p, " values=", end);
    p = vp_rt_utoa(p, atomic_load(&vp_rt.value_samples));
    p = vp_rt_stpcpy(p, " handler_mean_ns=", end);
    p = vp_rt_utoa(p, calls ? atomic_load(&vp_rt.handler_ns) / calls : 0);
    p = vp_rt_stpcpy(p, " dl_iterate_phdr_in_handler=", end);
    p = vp_rt_utoa(p, atomic_load(&vp_rt.dl_iterate_in_handler));
    p = vp_rt_stpcpy(p, " modules_at_end=", end); /* unchanged/unlocked/locked/old */
    for (int i = 0; i < 4; i++) {
        p = vp_rt_utoa(p, vp_rt.modules_refresh[i]);
        p = vp_rt_stpcpy(p, i < 3 ? "/" : "", end);
    }
    p = vp_rt_stpcpy(p, " foreign_signals=", end);
    p = vp_rt_utoa(p, atomic_load(&vp_rt.foreign_signals));
    p = vp_rt_stpcpy(p, " timer=", end);
    p = vp_rt_stpcpy(p, vp_rt_timer_name(vp_rt.timer_mode), end);
    if (vp_rt.timer_mode == VP_RT_TIMER_PERF) {
        p = vp_rt_stpcpy(p, vp_rt.perf_user_only ? " perf_scope=user" : " perf_scope=all", end);
        p = vp_rt_stpcpy(p, vp_rt.perf_sigtrap ? " perf_signal=trap" : " perf_signal=fasync", end);
        p = vp_rt_stpcpy(p, " perf_trap_threads=", end);
        p = vp_rt_utoa(p, atomic_load(&vp_rt.perf_trap_threads));
        p = vp_rt_stpcpy(p, " perf_ring_threads=", end);
        p = vp_rt_utoa(p, atomic_load(&vp_rt.perf_ring_threads));
        p = vp_rt_stpcpy(p, " perf_refresh_threads=", end);
        p = vp_rt_utoa(p, atomic_load(&vp_rt.perf_refresh_threads));
    }
    p = vp_rt_stpcpy(p, " read=", end);
    p = vp_rt_stpcpy(p, vp_rt.read_mode == VP_RT_READ_VM ? "process_vm_readv" : "pipe", end);
    p = vp_rt_stpcpy(p, " reads_direct=", end);
    p = vp_rt_utoa(p, atomic_load(&vp_rt.reads_direct));
    p = vp_rt_stpcpy(p, " reads_syscall=", end);
    p = vp_rt_utoa(p, atomic_load(&vp_rt.reads_syscall));
    vp_rt_log("debug: ", line);
}

/* Whether the final name may be replaced: nothing there, an empty file, a
   vprof profile (an earlier run's), or a symlink (rename replaces the link
   itself, never what it points to).  Never a user's file that happens to
   have the name (docs/hardening.md); `vprof record` checks the same before
   the run, this covers races and the .<pid>/.exec<N> names.  Signal path
   safe: open/fstat/read/close. */
static int vp_rt_replaceable(const char *path)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT || errno == ELOOP;
    struct stat st;
    char magic[8];
    int ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
             (st.st_size == 0 ||
              (read(fd, magic, sizeof magic) == (ssize_t)sizeof magic &&
               memcmp(magic, VP_PROFILE_MAGIC, sizeof magic) == 0));
    close(fd);
    return ok;
}

/* Writes the whole profile (everything sampled so far) to this image's file
   name (see vp_rt_output_name; `reason` VP_RT_WRITE_EXEC adds ".exec<N>").
   Returns 0, or -1 (a write already in progress, or an I/O error, reported
   on stderr).  Sampling resumes afterwards only for a flush. */
int vp_rt_write_profile(int reason)
{
    int expected = 0;
    if (!atomic_compare_exchange_strong(&vp_rt.writing, &expected, 1))
        return -1;
    sigset_t block, old;
    sigemptyset(&block);
    vp_rt_sample_signals(&block);
    vp_rt_sigmask_real(SIG_BLOCK, &block, &old);
    vp_rt_pause_sampling();
    if (reason == VP_RT_WRITE_EXIT || reason == VP_RT_WRITE_EXEC)
        vp_rt_modules_refresh(0); /* normal context: dl_iterate_phdr is fine */
    else if (reason == VP_RT_WRITE_SIGNAL)
        vp_rt_modules_refresh(1); /* a handler: no loader lock */

    char final[VP_RT_PATH_MAX + 64], tmp[VP_RT_PATH_MAX + 128];
    int rc = -1;
    if (vp_rt_output_name(final, sizeof final, reason == VP_RT_WRITE_EXEC) == 0) {
        int fd = -1;
        for (unsigned k = 0; k < 16 && fd < 0; k++) {
            char *p = vp_rt_stpcpy(tmp, final, tmp + sizeof tmp);
            p = vp_rt_stpcpy(p, ".tmp.", tmp + sizeof tmp);
            p = vp_rt_utoa(p, (uint64_t)vp_rt.pid);
            if (k) {
                *p++ = '.';
                vp_rt_utoa(p, k);
            }
            fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
            if (fd < 0 && errno != EEXIST)
                break;
        }
        if (fd < 0) {
            vp_rt_log("cannot create the profile's temporary file: ", tmp);
        } else {
            struct vp_rt_out *o = &vp_rt_out;
            o->fd = fd;
            o->err = 0;
            o->len = 0;
            vp_rt_write_sections(o);
            vp_rt_out_flush(o);
            if (close(fd) != 0)
                o->err = 1;
            if (!o->err && !vp_rt_replaceable(final)) {
                vp_rt_log("not replacing a file that is not a vprof profile; no profile "
                          "written: ", final);
                unlink(tmp);
            } else if (o->err || rename(tmp, final) != 0) {
                vp_rt_log("cannot write the profile: ", final);
                unlink(tmp);
            } else {
                rc = 0;
                if (vp_rt.debug)
                    vp_rt_debug_report(final);
            }
        }
    }
    if (reason == VP_RT_WRITE_FLUSH)
        vp_rt_resume_sampling();
    vp_rt_sigmask_real(SIG_SETMASK, &old, NULL);
    atomic_store(&vp_rt.writing, 0);
    return rc;
}
