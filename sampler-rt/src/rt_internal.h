/*
 * rt_internal.h - state shared by the files of libvprof-rt.so.
 *
 * The runtime is split by *where code runs*:
 *   rt_signal.c   the SIGPROF signal path (async-signal-safe, no allocation,
 *                 no locks); every function there is marked "signal path";
 *   rt_init.c     start-up, environment, timers, signals, fork, exit;
 *   rt_thread.c   pthread_create interposition, thread table;
 *   rt_timer.c    the timer sources (perf task-clock, timer_create, setitimer);
 *   rt_index.c    mapping and validating the PC index file (start-up only);
 *   rt_modules.c  loaded modules, build ids, directly readable ranges;
 *   rt_unwind.c   the stack stepper (.eh_frame CFI) and its module tables;
 *   rt_write.c    writing the profile file (normal context or a terminating /
 *                 flush signal; uses only async-signal-safe calls);
 *   rt_exec.c     exec*() interposition (flush before the image is replaced).
 *
 * Concurrency contract: everything in `struct vp_rt_state` is written at
 * start-up (or in the only thread of a fork child) before timers are armed,
 * and is read-only afterwards, except the fields marked "atomic", which the
 * signal path updates with relaxed (counters) or release/acquire (slot
 * commits) atomics.  No field is ever protected by a lock.
 */
#ifndef VPROF_RT_INTERNAL_H
#define VPROF_RT_INTERNAL_H

#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include <vprof/format.h>

#include "rt_hooks.h"

/* Signals whose default action ends the process and which the runtime
   hooks to write the profile first (rt_init.c, vp_rt_fatal_signals). */
#define VP_RT_NFATAL 9
#define VP_RT_EXPORT __attribute__((visibility("default")))
/* Thread-local storage that never calls __tls_get_addr (which may malloc on
   first touch in a dlopened library): the library must be preloaded. */
#define VP_RT_TLS __thread __attribute__((tls_model("initial-exec")))

#define VP_RT_DEFAULT_FREQ 997
#define VP_RT_DEFAULT_DEPTH 3        /* frames whose variables are read    */
#define VP_RT_DEFAULT_STACK_DEPTH 32 /* callers recorded per PC sample     */
#define VP_RT_MAX_DEPTH 32
#define VP_RT_DEFAULT_MAX_SAMPLES (1u << 20)
#define VP_RT_VALUES_PER_SAMPLE 4 /* default value buffer = 4 x PC buffer */
#define VP_RT_MAX_THREADS 4096    /* thread table capacity (VPROF_MAX_THREADS) */
#define VP_RT_MAX_MODULES 512
#define VP_RT_MAX_INDEXED 64      /* indexed modules resolved at start-up */
#define VP_RT_MODSTR_SIZE (64 * 1024)
#define VP_RT_PATH_MAX 4096
#define VP_RT_TIMER_COOKIE 0x76707266 /* "vprf": si_value of our timers */
#define VP_RT_SIGTRAP_DATA 0x7670726674726170ull /* "vprftrap": sig_data of our perf events */
#define VP_RT_MAX_COMPONENTS 8
#define VP_RT_MAX_DIRECT 256      /* readable PT_LOAD ranges read without a syscall */
#define VP_RT_RED_ZONE 128        /* x86-64 SysV: bytes below rsp a leaf may use */
#define VP_RT_SCRATCH_SLOT 12288  /* the handler's buffers per thread (rt_signal.c) */

/* Same numbers as enum vp_clock, which records the mode in the header. */
enum vp_rt_timer_mode {
    VP_RT_TIMER_THREAD = 1,  /* timer_create per thread (first fallback)    */
    VP_RT_TIMER_PROCESS = 2, /* setitimer(ITIMER_PROF) (last fallback)      */
    VP_RT_TIMER_PERF = 3,    /* perf_event task-clock per thread (preferred) */
};

enum vp_rt_read_mode {
    VP_RT_READ_VM = 1,   /* process_vm_readv on our own pid              */
    VP_RT_READ_PIPE = 2, /* write() into a pipe, EFAULT = unreadable     */
};

enum { VP_RT_REFRESH_SAME, VP_RT_REFRESH_UNLOCKED, VP_RT_REFRESH_LOCKED, VP_RT_REFRESH_OLD };

/* One loaded module (dl_iterate_phdr, outside the signal path). */
struct vp_rt_module {
    uint64_t load_bias;
    uint64_t lo, hi;          /* executable PT_LOAD range, absolute */
    uint32_t path;            /* offset in the module string table */
    uint32_t build_id_len;
    uint8_t build_id[32];
    uint32_t indexed;
};

/* A loaded module's snapshot: the writer reads whichever is current. */
struct vp_rt_modlist {
    uint32_t count;
    uint32_t strings_used;
    uint64_t link_sig;        /* the loader's list when scanned (vp_rt_link_sig) */
    int link_sig_ok;
    struct vp_rt_module mods[VP_RT_MAX_MODULES];
    char strings[VP_RT_MODSTR_SIZE];
};

/* An index module matched to its load address at start-up. */
struct vp_rt_imod {
    uint64_t lo, hi;                     /* text range, absolute          */
    uint64_t bias;                       /* load bias                      */
    const struct vp_index_range *ranges; /* sorted, disjoint, validated    */
    uint32_t range_count;
    const struct vp_index_range *globals;/* the lo == hi == 0 range or NULL */
};

/* A value sample as the signal path stores it: 16 bytes instead of the
   file's 40 (struct vp_value_sample), which rt_write.c rebuilds from the
   value's frame and PC sample.  Fewer bytes per sample are fewer page faults
   in the lazily backed buffer (most of the cost of storing values).
   `ref` is 0 until the record is committed (release store, last); then
   (frame index + 1) | status << VP_RT_REF_STATUS_SHIFT. */
struct vp_rt_value {
    uint64_t value;
    uint32_t var_id;
    uint32_t ref;
};
#define VP_RT_REF_STATUS_SHIFT 30
#define VP_RT_REF_FRAME_MASK ((1u << VP_RT_REF_STATUS_SHIFT) - 1)
#define VP_RT_MAX_VFRAMES (VP_RT_REF_FRAME_MASK - 1)

/* The frame a run of value samples was read in: its PC sample's slot and
   its depth (0 = interrupted frame).  Written before the values referring
   to it; seq, tid and the frame's PC come from the PC sample at write time. */
struct vp_rt_vframe {
    uint32_t slot;
    uint32_t depth;
};

/* What the signal path needs to know about one index range before
   evaluating it, computed once at start-up (rt_index.c) instead of by
   scanning the range's recipes on every sample. */
struct vp_rt_range_info {
    uint32_t caller_count;  /* its CALLER_OK recipes                          */
    uint8_t cfa0;           /* a recipe uses the CFA (depth 0)                */
    uint8_t cfa_caller;     /* a CALLER_OK recipe uses the CFA (depth > 0)    */
    uint8_t pad[2];
};

/* The validated, read-only view of the PC index file. */
struct vp_rt_index {
    const uint8_t *base;
    uint64_t size;
    const struct vp_index_header *hdr;
    const struct vp_index_module *modules;
    const struct vp_index_range *ranges;
    const uint32_t *refs;
    const struct vp_recipe *recipes;
    const struct vp_op *ops;
    const char *strings;
    const uint8_t *vartab;   /* VP_SEC_VARIABLES payload or NULL */
    const uint8_t *coverage; /* VP_SEC_COVERAGE payload or NULL  */
    uint32_t var_count;
    uint8_t *var_kind;       /* var_id -> enum vp_type_kind (mmap'd) */
    struct vp_rt_range_info *range_info; /* parallel to ranges (mmap'd) or NULL */
    struct vp_rt_imod imods[VP_RT_MAX_INDEXED];
    uint32_t imod_count;
};

/* One thread table row; tid == 0 means free. */
struct vp_rt_thread {
    _Atomic uint32_t tid;
    _Atomic uint32_t exited;
    _Atomic uint64_t pc_samples; /* atomic: incremented by the signal path */
    uint64_t cpu_ns;             /* set when the thread exits              */
    _Atomic int perf_fd;         /* the thread's perf event fd, or -1      */
    uint64_t perf_id;            /* its PERF_EVENT_IOC_ID                  */
};

/* An address range the signal path may read with plain loads: a readable
   PT_LOAD segment of a module loaded at start-up and pinned there
   (RTLD_NODELETE), so it stays mapped for the life of the image. */
struct vp_rt_direct {
    uint64_t lo, hi;
};

/* All the runtime's global state (one instance, vp_rt). */
struct vp_rt_state {
    /* configuration (environment) */
    char output[VP_RT_PATH_MAX];   /* VPROF_OUTPUT, made absolute          */
    char index_path[VP_RT_PATH_MAX];
    uint32_t freq_hz;
    uint64_t period_ns;            /* 1e9 / freq_hz: the nominal period    */
    uint32_t depth;        /* VPROF_DEPTH: frames whose variables are read     */
    uint32_t stack_depth;  /* callers recorded: VPROF_STACK_DEPTH, >= depth    */
    uint64_t max_samples;
    uint64_t max_values;
    uint32_t max_threads;
    int flush_signal;              /* 0 = none                             */
    pid_t root_pid;
    uint32_t exec_seq;             /* images of this pid before this one   */
    int timer_mode;                /* enum vp_rt_timer_mode                */
    int fd_floor;                  /* perf fds are moved to >= this number */
    int perf_user_only;            /* exclude_kernel was required          */
    int perf_no_ring;              /* VPROF_PERF_RING=0: refresh mode only */
    int perf_sigtrap;              /* perf events signal with a synchronous
                                      SIGTRAP (attr.sigtrap), not fasync   */
    int jitter;                    /* VPROF_JITTER (1): each perf period is
                                      drawn from [P/2, 3P/2) (rt_signal.c) */
    _Atomic uint64_t perf_ring_threads, perf_refresh_threads, perf_trap_threads; /* atomic */
    int read_mode;                 /* enum vp_rt_read_mode                 */
    int pipe_fds[2];               /* for VP_RT_READ_PIPE, >= fd_floor     */
    uint64_t pipe_dev, pipe_ino;   /* the pipe's identity: a target may
                                      close our fds and reuse the numbers  */
    _Atomic int pipe_busy;         /* atomic: try-lock of the pipe          */

    /* process identity (reset in a fork child) */
    pid_t pid;
    pid_t ppid;
    uint32_t flags;                /* VP_PROFF_*                           */
    uint64_t start_ns;
    int32_t exit_status;

    /* buffers (mmap'd once at start-up, MAP_NORESERVE) */
    uint8_t *pc_buf;               /* max_samples slots of pc_slot_size    */
    uint32_t pc_slot_size;         /* 32 + 8 * depth                       */
    struct vp_rt_value *val_buf;   /* max_values records                   */
    struct vp_rt_vframe *vframes;  /* max_vframes frames of value samples   */
    uint64_t max_vframes;          /* min(max_values, VP_RT_MAX_VFRAMES)   */
    _Atomic uint64_t vframe_next;  /* atomic                               */
    _Atomic uint64_t pc_next;      /* atomic: next slot to reserve         */
    _Atomic uint64_t val_next;     /* atomic                               */
    _Atomic uint64_t seq;          /* atomic: next sample sequence number  */
    struct vp_rt_thread *threads;
    _Atomic uint32_t thread_next;  /* atomic                               */
    /* the sampling handler's buffers, VP_RT_SCRATCH_SLOT bytes per thread
       table row, plus one shared row for threads past the table */
    uint8_t *scratch;
    _Atomic int scratch_busy;      /* atomic: try-lock of the shared row    */

    /* loss counters: each an atomic, updated relaxed */
    _Atomic uint64_t signals, pc_samples, pc_dropped, value_samples,
        values_dropped, values_unreadable, unwind_errors, reentrant,
        nthreads, timer_failures, in_flight_skipped, foreign_signals;

    /* coordination with the writer */
    _Atomic int active;            /* 1 while sampling is on               */
    _Atomic int paused;            /* writer asks the handler to stand off */
    _Atomic int in_flight;         /* handlers currently running           */
    _Atomic int writing;           /* a write is in progress               */

    struct vp_rt_index index;
    int have_index;
    int no_values;                 /* VPROF_VALUES=0: no value reads (measurement) */

    /* sorted, disjoint, merged; set at start-up (rt_modules.c) */
    struct vp_rt_direct direct[VP_RT_MAX_DIRECT];
    uint32_t direct_count;
    int no_direct;                 /* VPROF_DIRECT_READS=0 (testing)        */
    _Atomic uint64_t reads_direct, reads_syscall; /* atomic; VPROF_DEBUG only */

    struct vp_rt_modlist *modlists[2];
    _Atomic int modlist_cur;       /* which modlist is current             */

    /* target's view of signal dispositions we keep for ourselves */
    struct sigaction target_prof;  /* what the target asked for SIGPROF    */
    struct sigaction target_trap;  /* ... for SIGTRAP (sigtrap mode only)  */
    /* ... for the signals whose default action ends the process
       (vp_rt_fatal_signals: SIGTERM, SIGINT, SIGABRT, SIGPIPE, ...) */
    struct sigaction target_fatal[VP_RT_NFATAL];
    int hooked_prof, hooked_trap, hooked_fatal[VP_RT_NFATAL]; /* we own it */
    int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);
    _Atomic int final_written;     /* the exit/signal write happened        */

    /* VPROF_DEBUG=1: time the handler and report at write (stderr) */
    int debug;
    _Atomic uint64_t handler_ns, handler_calls;
    _Atomic uint64_t dl_iterate_in_handler; /* must stay 0, see rt_modules.c */
    int modules_stale;             /* fork child kept an old module list    */
    uint32_t modules_refresh[4];   /* at a write: list unchanged, read
                                      without the lock, scanned with it,
                                      old table kept (VP_RT_REFRESH_*;
                                      VPROF_DEBUG)                          */
    int locked_modules_only;       /* VPROF_UNLOCKED_MODULES=0 (testing)    */

    const struct vp_rt_component *components[VP_RT_MAX_COMPONENTS];
    _Atomic int component_count;
};

extern struct vp_rt_state vp_rt;

/* Per-thread state, initial-exec TLS (touched first outside the handler). */
extern VP_RT_TLS int vp_rt_tls_slot;      /* thread table row or -1 */
extern VP_RT_TLS int vp_rt_tls_in_handler;
extern VP_RT_TLS uint32_t vp_rt_tls_tid;
/* The thread's stack [lo, hi) (pthread_getattr_np at registration; 0 when
   unknown), and during a sample the lowest address of it known mapped:
   the interrupted rsp minus the red zone, 0 when stack reads are not direct. */
extern VP_RT_TLS uint64_t vp_rt_tls_stack_lo, vp_rt_tls_stack_hi;
extern VP_RT_TLS uint64_t vp_rt_tls_direct_lo;
struct perf_event_mmap_page;
extern VP_RT_TLS int vp_rt_tls_perf_fd;      /* rt_timer.c: see there */
extern VP_RT_TLS int vp_rt_tls_perf_retired;
extern VP_RT_TLS struct perf_event_mmap_page *vp_rt_tls_perf_ring;
extern VP_RT_TLS uint64_t vp_rt_tls_perf_head;
extern VP_RT_TLS uint64_t vp_rt_tls_perf_id;
extern VP_RT_TLS uint64_t vp_rt_tls_jitter_state; /* rt_signal.c: 0 = unseeded */

/* rt_signal.c */
void vp_rt_signal_handler(int sig, siginfo_t *si, void *ucv);
int vp_rt_safe_read(uint64_t addr, void *dst, uint32_t size);
void vp_rt_terminate_handler(int sig, siginfo_t *si, void *ucv);
/* Index of `sig` in vp_rt_fatal_signals, or -1. */
int vp_rt_fatal_index(int sig);
extern const int vp_rt_fatal_signals[VP_RT_NFATAL];
/* Exec: give the target's kept dispositions to the kernel (what the new
   image inherits: an ignored signal stays ignored); after a failed exec,
   hook them again. */
void vp_rt_signals_for_exec(void);
void vp_rt_exec_init(void);
void vp_rt_signals_after_exec(void);
void vp_rt_flush_handler(int sig, siginfo_t *si, void *ucv);
uint64_t vp_rt_now_ns(int clock);
int vp_rt_pipe_ours(int fd);

/* rt_index.c */
int vp_rt_index_load(const char *path, struct vp_rt_index *ix);
void vp_rt_index_bind(struct vp_rt_index *ix, struct vp_rt_modlist *ml, int resolve);

/* rt_modules.c */
void vp_rt_modules_scan(struct vp_rt_modlist *ml);
void vp_rt_modules_refresh(int in_signal);
void vp_rt_modules_after_fork(void);
void vp_rt_direct_init(void);

/* rt_unwind.c */
void vp_rt_unwind_prepare(void);
#define VP_RT_UNWIND_WORK 2048 /* bytes of workspace vp_rt_unwind_step needs */
int vp_rt_unwind_step(const uint64_t regs[17], uint32_t valid, int *exact, uint64_t out[17],
                      uint32_t *out_valid, uint64_t *cfa, void *work);

/* rt_timer.c */
void vp_rt_fd_floor_init(void);
void vp_rt_timer_prepare(void);
int vp_rt_timer_start(void);
void vp_rt_sample_signals(sigset_t *set);
/* rt_mask.c */
void vp_rt_mask_init(void);
void vp_rt_mask_unblock(void);
int vp_rt_sigmask_real(int how, const sigset_t *set, sigset_t *old);
const sigset_t *vp_rt_mask_strip(const sigset_t *s, sigset_t *copy);
int vp_rt_mask_requeue(int sig, siginfo_t *si, void *ucv);
extern VP_RT_TLS int vp_rt_tls_prof_held;
int vp_rt_thread_arm(void);
void vp_rt_thread_disarm(void);
void vp_rt_timer_after_fork(void);
const char *vp_rt_timer_name(int mode);
int vp_rt_arm_process_timer(int on);

/* rt_thread.c */
int vp_rt_thread_register(void);
void vp_rt_thread_reset_after_fork(void);
void vp_rt_thread_init(void);
uint64_t vp_rt_thread_cpu_ns(uint32_t tid);

/* rt_write.c */
enum vp_rt_write_reason {
    VP_RT_WRITE_EXIT = 0,
    VP_RT_WRITE_SIGNAL = 1,
    VP_RT_WRITE_FLUSH = 2,
    VP_RT_WRITE_EXEC = 3,
};
int vp_rt_write_profile(int reason);
int vp_rt_output_name(char *buf, size_t len, int pre_exec);
void vp_rt_log(const char *msg, const char *detail);

/* rt_init.c */
void vp_rt_components_fork_child(void);
void vp_rt_pause_sampling(void);
void vp_rt_resume_sampling(void);
void vp_rt_unhook_trap(void);

#endif
