/*
 * format.h - the on-disk and in-binary layouts shared by every vprof component.
 *
 * Defined once here and included by the C++ passes (llvm/, loopclass/,
 * redundancy/), the runtime (sampler-rt/) and the analysis (vprof-core/ and up).
 * Header-only: plain structs and constants, no functions, no allocation.
 *
 * Four layouts live here (docs/formats.md explains each field and why):
 *   1. the schema ELF section  ".vprof.schema"  written by the schema pass;
 *   2. the loop table section  ".vprof.loops"   written by the loop pass;
 *   3. the PC index file       (launcher -> runtime), built from DWARF by
 *                               `vprof record` before the target starts;
 *   4. the profile file         (runtime -> analysis), "vprof.out".
 *
 * All integers are little-endian, fixed width, and every record is a multiple
 * of 8 bytes so a reader can map a file and index it without copying.
 * Strings are referenced by a uint32_t byte offset into a string table; offset
 * 0 is always the empty string.  Readers must bounds-check every offset.
 */
#ifndef VPROF_FORMAT_H
#define VPROF_FORMAT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Shared enums                                                              */
/* ------------------------------------------------------------------------ */

/* Why a variable is watched (vProf section 3.1).  A bit set. */
enum vp_tag {
    VP_TAG_LOOP = 1u << 0,   /* loop induction variable (ScalarEvolution)      */
    VP_TAG_COND = 1u << 1,   /* appears in a branch condition                  */
    VP_TAG_ARGS = 1u << 2,   /* passed as a call argument                      */
    VP_TAG_GLOBAL = 1u << 3, /* a global (or function-static) variable         */
};

/* What kind of value a variable holds; decides how it is read and compared. */
enum vp_type_kind {
    VP_TYPE_UNKNOWN = 0,
    VP_TYPE_SINT = 1,      /* signed integer, char, enum                        */
    VP_TYPE_UINT = 2,      /* unsigned integer, bool                            */
    VP_TYPE_FLOAT = 3,     /* float/double (value stored as its bit pattern)    */
    VP_TYPE_PTR_BASIC = 4, /* pointer to a basic type: the pointee is sampled   */
    VP_TYPE_PTR_OTHER = 5, /* pointer to a non-basic type: processing cost only */
    VP_TYPE_AGGREGATE = 6, /* struct/array: first 8 bytes, processing cost only */
};

/* ------------------------------------------------------------------------ */
/* 1. Schema section ".vprof.schema" (one blob per translation unit)         */
/* ------------------------------------------------------------------------ */
/*
 * The linker concatenates the blobs of every object file; each blob starts
 * with a header and its total_size is a multiple of 8, and the section is
 * 8-aligned, so a reader walks header to header.  A reader skips 8-byte words
 * of zero between blobs (padding some linkers insert).
 */
#define VP_SCHEMA_SECTION ".vprof.schema"
#define VP_SCHEMA_MAGIC 0x43535056u /* "VPSC" little-endian */
#define VP_SCHEMA_VERSION 2
#define VP_SCHEMA_VERSION_MIN 1 /* readers accept 1..VP_SCHEMA_VERSION         */

/*
 * Version 2 adds, per global, the functions of the TU that use it (loads,
 * stores, address uses), and "use records" for globals the TU uses but does
 * not define (`extern`), so the index builder can place a global where it is
 * used instead of at every PC (docs/locations.md).  A version 1 blob has a
 * 32-byte header (users_count = 0, no users_offset/entry_size) and 40-byte
 * entries (the first 40 bytes of struct vp_schema_entry).
 */
struct vp_schema_header {
    uint32_t magic;          /* VP_SCHEMA_MAGIC                                */
    uint16_t version;        /* VP_SCHEMA_VERSION                              */
    uint16_t header_size;    /* v1: 32; v2: sizeof(struct vp_schema_header)   */
    uint32_t total_size;     /* this blob: header + entries + strings, %8 == 0 */
    uint32_t entry_count;    /* entries follow the header directly             */
    uint32_t strings_offset; /* from blob start                                */
    uint32_t strings_size;   /* string table bytes; starts with "\0"           */
    uint32_t comp_dir;       /* string: DW_AT_comp_dir of the TU               */
    uint32_t users_count;    /* v2: uint32 string offsets at users_offset
                                (function names); v1: reserved, 0            */
    /* v2 only (header_size >= 40) */
    uint32_t users_offset;   /* from blob start, 4-aligned, after the entries,
                                before the strings                             */
    uint16_t entry_size;     /* sizeof(struct vp_schema_entry) = 48            */
    uint16_t reserved;
};

#define VP_SCHEMA_V1_HEADER_SIZE 32
#define VP_SCHEMA_V1_ENTRY_SIZE 40

enum vp_schema_entry_flags {
    /* A global this TU uses but does not define (no debug info here): name is
       its symbol name, file/type/line are empty; it adds its tags and users
       to the definition of that symbol in the same module. */
    VP_SCHEMA_USE_ONLY = 1u << 0,
    /* A file-scope global with external linkage (use records of other TUs
       may refer to it by `linkage`, else `name`). */
    VP_SCHEMA_EXTERNAL = 1u << 1,
};

struct vp_schema_entry {
    uint32_t file;      /* string: source file as in DIFile (may be relative)  */
    uint32_t function;  /* string: DISubprogram name; 0 ("") for a global      */
    uint32_t linkage;   /* string: linkage (mangled) name; 0 if same/none       */
    uint32_t name;      /* string: variable name                               */
    uint32_t type;      /* string: type as written ("unsigned long", "node *") */
    uint32_t line;      /* declaration line                                    */
    uint16_t tags;      /* enum vp_tag bits                                    */
    uint16_t type_kind; /* enum vp_type_kind                                   */
    uint32_t size;      /* byte size of the variable (pointee size for PTR_BASIC
                           is in pointee_size)                                 */
    uint32_t pointee_size; /* for VP_TYPE_PTR_BASIC: size of the pointee        */
    uint32_t arg_no;    /* 1-based parameter number, 0 for non-parameters       */
    /* v2 only */
    uint32_t users_first; /* globals: first index into the users array          */
    uint16_t users_count; /* globals: functions of this TU using it (linkage name
                             if any, else name), at most 65535                  */
    uint16_t flags;       /* enum vp_schema_entry_flags                         */
};

/* ------------------------------------------------------------------------ */
/* 2. Loop table section ".vprof.loops" (one blob per translation unit)      */
/* ------------------------------------------------------------------------ */
/*
 * Written by the loopclass pass; same blob discipline as the schema.
 * The loop id is stable for a given source: a 64-bit hash of
 * (file, function linkage name, header line, header column, ordinal).
 */
#define VP_LOOPS_SECTION ".vprof.loops"
#define VP_LOOPS_MAGIC 0x504c5056u /* "VPLP" */
#define VP_LOOPS_VERSION 2 /* 2: vp_loop_entry.host */

enum vp_loop_class {
    VP_CLASS_ZERO_STAR = 0,      /* 0*      no side effect                     */
    VP_CLASS_ZERO_STAR_ONE = 1,  /* 0*1?    results only on the way out        */
    VP_CLASS_ZERO_OR_ONE = 2,    /* [0|1]*  avoidable side effects in the body */
    VP_CLASS_ONE_STAR = 3,       /* 1*      side effect on every iteration     */
};

enum vp_loop_kind {
    VP_LOOP_NATURAL = 0,   /* a natural loop                                    */
    VP_LOOP_RECURSION = 1, /* a directly recursive function; iterations = calls */
};

struct vp_loops_header {
    uint32_t magic;          /* VP_LOOPS_MAGIC                                 */
    uint16_t version;        /* VP_LOOPS_VERSION                               */
    uint16_t header_size;
    uint32_t total_size;     /* %8 == 0                                        */
    uint32_t loop_count;     /* struct vp_loop_entry[loop_count] follow        */
    uint32_t site_count;     /* struct vp_loop_site[site_count] follow those    */
    uint32_t strings_offset;
    uint32_t strings_size;
    uint32_t reserved;
};

struct vp_loop_entry {
    uint64_t loop_id;
    uint32_t function;      /* string: DISubprogram name                       */
    uint32_t linkage;       /* string: linkage name                            */
    uint32_t file;          /* string                                          */
    uint32_t line;          /* line of the for/while/do keyword (or of the
                               function for recursion)                         */
    uint16_t column;
    uint8_t kind;           /* enum vp_loop_kind                               */
    uint8_t static_class;   /* enum vp_loop_class                              */
    uint16_t depth;         /* nesting depth, 1 = outermost                    */
    uint16_t flags;         /* VP_LOOPF_* bits                                 */
    uint64_t parent_id;     /* enclosing loop's id, 0 for outermost            */
    uint32_t first_site;    /* index into the sites array                      */
    uint32_t site_count;
    uint32_t end_line;      /* last source line of the loop body (quoting)    */
    uint32_t reserved;      /* VP_LOOPF_INDIRECT: low byte = 1 + the class
                               without the indirect-only side-effect blocks;
                               VP_LOOPF_UNROLLED: bits 8-15 = the unroll
                               factor (source iterations per iteration)      */
    uint32_t host;          /* string: key (C++ linkage name, else name) of the
                               function whose code holds the loop; it differs
                               from the loop's own for a loop inlined into
                               another function (each inlined copy is an
                               entry of its own)                              */
    uint32_t reserved2;     /* VP_LOOPF_BUCKET_CHAIN: the bucket load's line;
                               else VP_LOOPF_SPIN: the atomic's line          */
};

enum vp_loop_flags {
    VP_LOOPF_PROBED = 1u << 0,    /* dynamic probes were inserted               */
    VP_LOOPF_LIVEOUT_IV = 1u << 1, /* result is a live-out induction variable   */
    VP_LOOPF_IO_ONLY = 1u << 2,    /* only side effects are I/O calls           */
    VP_LOOPF_TAIL_CALLS = 1u << 3, /* made by the compiler of a recursive
                                      function's tail call: its iterations are
                                      calls (vprof/LoopIds.h isTailRecursionLoop) */
    VP_LOOPF_VECTOR = 1u << 4,     /* the loop vectorizer's body (vector
                                      values in its blocks): an iteration
                                      covers several source iterations      */
    VP_LOOPF_INDIRECT = 1u << 5,   /* some side-effect blocks hold only calls
                                      through pointers, whose probes count a
                                      result only for a callee not known to
                                      write nothing; `reserved` & 0xff is
                                      1 + the class without those blocks
                                      (docs/loopclass.md, "Calls through
                                      pointers")                            */
    VP_LOOPF_UNROLLED = 1u << 6,   /* the loop unroller's body (copies of one
                                      induction update): an iteration covers
                                      several source iterations (docs/
                                      loopclass.md, "Unrolled loops")       */
    VP_LOOPF_BUCKET_CHAIN = 1u << 7, /* walks one hash bucket's chain: the
                                      list's head is loaded from an array
                                      slot picked by a remainder (h % n,
                                      h & mask); `reserved2` = the line of
                                      that load, 0 unknown (docs/
                                      loopclass.md, "Hash bucket chains")   */
    VP_LOOPF_SPIN = 1u << 8,       /* spins: an exit is decided by an atomic
                                      (or volatile) access to a loop-invariant
                                      address, and the loop writes nothing
                                      else; `reserved2` = that access's line
                                      when VP_LOOPF_BUCKET_CHAIN is clear
                                      (docs/loopclass.md, "Spin loops")     */
    VP_LOOPF_SPIN_UPDATE = 1u << 9, /* with VP_LOOPF_SPIN: the access is a
                                      compare-and-swap whose new value is
                                      computed from the value read (a
                                      lock-free update such as x = x + d),
                                      not a lock's constant 0 -> 1          */
};

enum vp_site_kind {
    VP_SITE_STORE = 0,        /* write to non-private memory                   */
    VP_SITE_CALL = 1,         /* call to a function that writes memory         */
    VP_SITE_EXTERNAL = 2,     /* call to an external / unknown function        */
    VP_SITE_INDIRECT = 3,     /* call through a pointer                        */
    VP_SITE_LIVEOUT = 4,      /* value computed in the loop, used after it     */
    VP_SITE_RETURN = 5,       /* return from inside the loop                   */
};

struct vp_loop_site {
    uint32_t line;
    uint16_t column;
    uint8_t kind;            /* enum vp_site_kind                               */
    uint8_t in_body;         /* 1 inside the loop body, 0 on the exit path      */
    uint32_t callee;         /* string: callee name for calls, else 0           */
    uint32_t reserved;       /* VP_SITEF_* bits                                 */
};

enum vp_site_flags {
    VP_SITEF_IO_EVERY_ITER = 1u << 0, /* an in-body call that does I/O on every
                                         call (a C library output function, or
                                         a function of the module that calls
                                         one on every path to its return) and
                                         runs in every iteration: its block
                                         dominates every latch (docs/
                                         loopclass.md, "I/O in every
                                         iteration")                         */
    VP_SITEF_WAIT_EVERY_ITER = 1u << 1, /* an in-body call that waits on
                                         every call (for input to arrive:
                                         poll, select, accept; for time; for
                                         another thread or process; or a
                                         module function that calls one on
                                         every path) and runs in every
                                         iteration (docs/loopclass.md,
                                         "Waiting in every iteration")       */
    VP_SITEF_SYSCALL_BYTES = 1u << 2, /* an in-body direct call of read,
                                         write, pread, pwrite, recv, send,
                                         recvfrom or sendto that runs in
                                         every iteration with a constant byte
                                         count of 1..VP_SITE_SYSCALL_BYTES_MAX,
                                         stored in bits 8-15 of reserved: a
                                         system call per few bytes
                                         (docs/loopclass.md, "A system call
                                         per few bytes")                     */
};
#define VP_SITE_SYSCALL_BYTES_MAX 64
#define VP_SITE_SYSCALL_BYTES_SHIFT 8

/* ------------------------------------------------------------------------ */
/* 3. PC index file (built by `vprof record`, mapped read-only by runtime)   */
/* ------------------------------------------------------------------------ */
/*
 * For each instrumented module, a sorted array of disjoint PC ranges
 * (module-relative: PC - load bias).  Each range lists the location recipes
 * of the variables live there.  The runtime binary-searches the range of a
 * sampled PC and evaluates each recipe; no allocation, no hashing.
 * A module's first range may be the empty range lo == hi == 0: its recipes
 * (globals with register-free locations) apply at every PC of the module.
 * Being empty, it never matches a search, so it does not break the order.
 *
 * A recipe is a short program for a tiny stack machine (vp_op below); the
 * evaluator is bounded (VP_RECIPE_MAX_OPS ops, VP_RECIPE_STACK entries) and
 * every memory read in it goes through the runtime's fault-safe reader.
 */
#define VP_INDEX_MAGIC 0x58445056u /* "VPDX" */
#define VP_INDEX_VERSION 1
#define VP_RECIPE_MAX_OPS 16
#define VP_RECIPE_STACK 8

/* Recipe opcodes.  Operands are in the op's `arg` (signed 64-bit). */
enum vp_op_code {
    VP_OP_END = 0,
    VP_OP_REG = 1,        /* push register `reg` (DWARF x86-64 numbering)      */
    VP_OP_BREG = 2,       /* push register `reg` + arg                         */
    VP_OP_CFA = 3,        /* push CFA of the frame + arg                       */
    VP_OP_ADDR = 4,       /* push module load bias + arg (PIE relocation)      */
    VP_OP_CONST = 5,      /* push arg                                          */
    VP_OP_DEREF = 6,      /* pop address, push `size`-byte value read from it  */
    VP_OP_PLUS = 7,       /* pop b, pop a, push a+b                            */
    VP_OP_MINUS = 8,
    VP_OP_MUL = 9,
    VP_OP_PLUS_CONST = 10, /* top += arg                                       */
    VP_OP_AND = 11,
    VP_OP_OR = 12,
    VP_OP_SHL = 13,
    VP_OP_SHR = 14,
    VP_OP_SHRA = 15,
    VP_OP_NEG = 16,
    VP_OP_DIV = 17,       /* signed; division by zero -> unreadable             */
    VP_OP_XOR = 18,
    VP_OP_NOT = 19,
    VP_OP_DUP = 20,
    VP_OP_TLS = 21,       /* reserved: thread-local, treated as unavailable     */
    /* The result: top of stack is the value (DW_OP_stack_value) unless the
       recipe ends with VP_OP_MEMORY, meaning the top is the variable's address
       and `size` bytes must be read from it. */
    VP_OP_VALUE = 30,
    VP_OP_MEMORY = 31,
};

struct vp_op {
    uint8_t code;  /* enum vp_op_code                                          */
    uint8_t reg;   /* DWARF register number for REG/BREG                       */
    uint8_t size;  /* byte size for DEREF and MEMORY                           */
    uint8_t pad[5];
    int64_t arg;
};

enum vp_recipe_flags {
    VP_RECIPE_DEREF_BASIC = 1u << 0, /* value is a pointer to a basic type:
                                        also read `pointee_size` bytes at it   */
    VP_RECIPE_CALLER_OK = 1u << 1,   /* only uses callee-saved registers, CFA and
                                        memory: valid in caller frames too     */
    VP_RECIPE_NEEDS_CFA = 1u << 2,   /* uses VP_OP_CFA                         */
};

struct vp_recipe {
    uint32_t var_id;       /* index into the variable table                    */
    uint16_t flags;        /* vp_recipe_flags                                  */
    uint8_t size;          /* bytes of the value (<= 8)                        */
    uint8_t pointee_size;  /* for VP_RECIPE_DEREF_BASIC                        */
    uint32_t first_op;     /* index into the ops array                         */
    uint32_t op_count;     /* <= VP_RECIPE_MAX_OPS                             */
};

struct vp_index_range {
    uint64_t lo, hi;        /* module-relative [lo, hi)                        */
    uint32_t first_recipe;  /* index into the recipe-ref array                  */
    uint32_t recipe_count;
};

struct vp_index_module {
    uint32_t path;          /* string: absolute path of the ELF file           */
    uint32_t build_id_len;  /* <= 32                                           */
    uint8_t build_id[32];
    uint32_t first_range;   /* into the range array                            */
    uint32_t range_count;
};

/* Index file: header, then the arrays at the given offsets (all 8-aligned). */
struct vp_index_header {
    uint32_t magic;         /* VP_INDEX_MAGIC                                  */
    uint16_t version;
    uint16_t header_size;
    uint64_t file_size;
    uint32_t module_count;   uint32_t modules_off;
    uint32_t range_count;    uint32_t ranges_off;
    uint32_t refs_count;     uint32_t refs_off;     /* uint32_t recipe indices */
    uint32_t recipe_count;   uint32_t recipes_off;
    uint32_t op_count;       uint32_t ops_off;
    uint32_t strings_size;   uint32_t strings_off;
    /* The variable table and location-coverage records, already in profile
       section layout, copied verbatim into the profile by the runtime. */
    uint32_t vartab_size;    uint32_t vartab_off;   /* a VP_SEC_VARIABLES payload */
    uint32_t coverage_size;  uint32_t coverage_off; /* a VP_SEC_COVERAGE payload  */
};

/* ------------------------------------------------------------------------ */
/* 4. Profile file                                                            */
/* ------------------------------------------------------------------------ */
/*
 * header, then sections back to back: each a vp_section_header followed by
 * `size` payload bytes, padded to 8.  A section whose type is unknown is an
 * error unless VP_SECF_OPTIONAL is set, in which case it is skipped.
 * The file ends with a VP_SEC_END section (size 0): a file without it was
 * truncated.
 */
#define VP_PROFILE_MAGIC "VPROFILE" /* 8 bytes, no NUL */
#define VP_PROFILE_VERSION 1
#define VP_ENDIAN_MARK 0x01020304u

enum vp_clock {
    VP_CLOCK_THREAD_CPUTIME = 1, /* per-thread timer_create(CLOCK_THREAD_CPUTIME_ID) */
    VP_CLOCK_PROCESS_CPUTIME = 2,/* fallback: setitimer(ITIMER_PROF)           */
    VP_CLOCK_PERF_TASK_CLOCK = 3,/* per-thread perf_event task-clock (hrtimer)  */
};

struct vp_profile_header {
    char magic[8];            /* VP_PROFILE_MAGIC                              */
    uint32_t version;         /* VP_PROFILE_VERSION                            */
    uint32_t header_size;     /* sizeof(struct vp_profile_header)              */
    uint32_t endian;          /* VP_ENDIAN_MARK as written by the producer     */
    uint8_t word_size;        /* 8                                              */
    uint8_t clock;            /* enum vp_clock                                 */
    uint16_t max_depth;       /* --depth used                                  */
    uint64_t period_ns;       /* sampling period                               */
    uint64_t start_ns;        /* CLOCK_REALTIME at start                       */
    uint64_t end_ns;          /* CLOCK_REALTIME at write                       */
    uint32_t pid;
    uint32_t ppid;
    int32_t exit_status;      /* as seen by the runtime, -1 if unknown         */
    uint32_t flags;           /* VP_PROFF_* bits                               */
    uint32_t root_pid;        /* the pid `vprof record` started                */
    uint32_t reserved;
};

enum vp_profile_flags {
    VP_PROFF_FORKED = 1u << 0,   /* written by a child after fork              */
    VP_PROFF_SIGNALLED = 1u << 1,/* written on a terminating signal            */
    VP_PROFF_EXECED = 1u << 2,   /* process image came from exec of a traced one */
    VP_PROFF_MODULES_STALE = 1u << 3, /* a fork child's module table may lack
                                    modules its parent loaded before forking  */
    VP_PROFF_JITTERED = 1u << 4, /* perf periods drawn from [P/2, 3P/2):
                                    period_ns is their mean                   */
};

enum vp_section_type {
    VP_SEC_END = 0,
    VP_SEC_STRINGS = 1,    /* string table: "\0" first                         */
    VP_SEC_MODULES = 2,    /* struct vp_prof_module[]                          */
    VP_SEC_VARIABLES = 3,  /* struct vp_prof_var[] (strings: own table, below) */
    VP_SEC_PC_SAMPLES = 4, /* struct vp_pc_sample records, variable length     */
    VP_SEC_VALUE_SAMPLES = 5, /* struct vp_value_sample[]                       */
    VP_SEC_LOSS = 6,       /* struct vp_loss                                   */
    VP_SEC_COVERAGE = 7,   /* struct vp_coverage + struct vp_coverage_reason[] */
    VP_SEC_THREADS = 8,    /* struct vp_prof_thread[]                          */
    VP_SEC_LOOP_COUNTS = 16, /* reserved for loopclass: per-loop counters      */
    VP_SEC_LOOP_ITER_HASHES = 17, /* reserved for redundancy: cross-iteration  */
    VP_SEC_LOOP_INSTANCES = 18,   /* reserved for redundancy: cross-loop       */
    VP_SEC_LOOP_ITER_SKETCH = 19, /* redundancy: every sampled iteration's
                                     signature, counted per loop (HyperLogLog) */
};

enum vp_section_flags {
    VP_SECF_OPTIONAL = 1u << 0,
};

struct vp_section_header {
    uint32_t type;            /* enum vp_section_type                          */
    uint32_t flags;           /* enum vp_section_flags                         */
    uint64_t size;            /* payload bytes (excluding padding)             */
};

struct vp_prof_module {
    uint64_t load_bias;       /* runtime address - ELF vaddr                   */
    uint64_t lo, hi;          /* mapped text range (absolute)                   */
    uint32_t path;            /* string in VP_SEC_STRINGS                      */
    uint32_t build_id_len;
    uint8_t build_id[32];
    uint32_t indexed;         /* 1 if the PC index covered this module         */
    uint32_t reserved;
};

/*
 * VP_SEC_VARIABLES payload: struct vp_vartab_header, then var_count
 * struct vp_prof_var, then the variable table's own string table (so the
 * runtime can copy it verbatim from the index file).
 */
struct vp_vartab_header {
    uint32_t var_count;
    uint32_t strings_size;
};

struct vp_prof_var {
    uint32_t file;            /* strings: the vartab's own table               */
    uint32_t function;        /* "" for globals                                */
    uint32_t linkage;
    uint32_t name;
    uint32_t type;
    uint32_t line;
    uint16_t tags;            /* enum vp_tag                                   */
    uint16_t type_kind;       /* enum vp_type_kind                             */
    uint32_t size;
    uint32_t module;          /* index into VP_SEC_MODULES order of the index  */
    uint32_t reserved;
};

/*
 * VP_SEC_PC_SAMPLES: records back to back, each 8-aligned:
 * struct vp_pc_sample then `depth` uint64_t return addresses (callers,
 * innermost first, already the raw return address, not -1).
 */
struct vp_pc_sample {
    uint64_t seq;             /* sample sequence number, unique per process    */
    uint64_t time_ns;         /* CLOCK_MONOTONIC                               */
    uint64_t pc;              /* interrupted PC                                */
    uint32_t tid;
    uint16_t depth;           /* callers recorded after this struct            */
    uint16_t flags;           /* VP_PCF_* bits                                 */
};

enum vp_pc_flags {
    VP_PCF_UNWIND_FAILED = 1u << 0, /* unwinding stopped early on an error     */
};
/* Bits 8..15 of vp_pc_sample.flags: how many *extra* sampling periods this
   record stands for (0..255, saturating): the timer expired more than once
   before the signal was handled (timer_create si_overrun, perf overflows
   coalesced while SIGPROF was blocked).  Weight of a record = 1 + that. */
#define VP_PCF_OVERRUN_SHIFT 8
#define VP_PCF_OVERRUN_MAX 255u
#define VP_PC_SAMPLE_WEIGHT(flags) (1u + (((unsigned)(flags) >> VP_PCF_OVERRUN_SHIFT) & 0xffu))

enum vp_value_status {
    VP_VAL_OK = 0,
    VP_VAL_UNREADABLE = 1,    /* the address could not be read                 */
    VP_VAL_POINTEE_UNREADABLE = 2, /* pointer read, pointee not readable        */
};

struct vp_value_sample {
    uint64_t seq;             /* the PC sample this value belongs to           */
    uint64_t value;           /* raw bits, zero-extended or sign-extended per kind */
    uint64_t pc;              /* PC of the frame where it was read (caller frames:
                                 the return address)                           */
    uint32_t var_id;
    uint32_t tid;
    uint8_t depth;            /* 0 = interrupted frame, 1.. = callers          */
    uint8_t status;           /* enum vp_value_status                          */
    uint16_t pad;
    uint32_t pad2;
};

struct vp_loss {
    uint64_t signals;             /* SIGPROF deliveries handled               */
    uint64_t pc_samples;          /* PC samples stored                        */
    uint64_t pc_dropped;          /* PC samples lost: buffer full             */
    uint64_t value_samples;       /* value samples stored                     */
    uint64_t values_dropped;      /* value samples lost: buffer full          */
    uint64_t values_unreadable;   /* reads that faulted                       */
    uint64_t unwind_errors;       /* unwinds stopped on an error              */
    uint64_t reentrant;           /* signals that arrived inside the handler  */
    uint64_t threads;             /* threads that got a timer                 */
    uint64_t timer_failures;      /* threads we could not arm a timer for     */
    uint64_t reserved[6];
};

/* VP_SEC_COVERAGE: how many schema variables have a usable location. */
enum vp_coverage_reason {
    VP_COV_OK = 0,
    VP_COV_NO_DIE = 1,          /* no DWARF variable matched the schema entry */
    VP_COV_NO_LOCATION = 2,     /* optimised out: no DW_AT_location            */
    VP_COV_ENTRY_VALUE = 3,     /* needs DW_OP_entry_value                     */
    VP_COV_UNSUPPORTED_OP = 4,  /* another expression we cannot evaluate       */
    VP_COV_PIECES = 5,          /* split across pieces (DW_OP_piece)           */
    VP_COV_TOO_LONG = 6,        /* expression longer than VP_RECIPE_MAX_OPS    */
    VP_COV_TLS = 7,             /* thread-local storage                        */
    VP_COV_REASONS = 8,
};

struct vp_coverage {
    uint32_t schema_vars;       /* entries in the schema                       */
    uint32_t located;           /* with a usable location at some PC           */
    uint32_t by_reason[VP_COV_REASONS]; /* variables per (first) reason        */
    uint64_t pc_bytes_total;    /* bytes of scope PC range over all variables  */
    uint64_t pc_bytes_located;  /* of which with a usable location             */
};

struct vp_prof_thread {
    uint32_t tid;
    uint32_t reserved;
    uint64_t pc_samples;
    uint64_t cpu_ns;            /* thread CPU time when it ended or at write   */
};

/* Loop-stage sections (16..) are defined by loopclass/ and redundancy/ in
   this header when they land; their payloads start with a uint32_t version. */

/* ---- loopclass: probe descriptor (in the binary) and VP_SEC_LOOP_COUNTS ---- */
/*
 * Each instrumented translation unit holds one struct vp_loop_rt_module (in
 * memory, pointers native) and a constructor that passes it to the weak
 * runtime entry point VP_LOOP_RT_REGISTER when the runtime is loaded.  The
 * runtime sets the gate byte of every loop whose function is selected
 * (VPROF_LOOP_FUNCTIONS).  The probes count natural-loop instances inline:
 * each TU has one thread-local pointer to the calling thread's counters of
 * the TU (struct vp_loop_rt_counter[loop_count], owned by the runtime, never
 * freed); while it is null the probe calls VP_LOOP_RT_BLOCK once and keeps
 * the answer.  Recursion is counted per call by VP_LOOP_RT_REC_ENTER /
 * VP_LOOP_RT_REC_EXIT.  docs/loopclass.md explains the scheme.
 */
#define VP_LOOP_RT_VERSION 2
#define VP_LOOP_RT_REGISTER "__vprof_loops_register"   /* (module *)              */
#define VP_LOOP_RT_BLOCK "__vprof_loop_block" /* (module *) -> counter *: this
                                                 thread's counters, NULL if none */
#define VP_LOOP_RT_REC_ENTER "__vprof_loop_rec_enter" /* (module *, u32 idx)      */
#define VP_LOOP_RT_REC_EXIT "__vprof_loop_rec_exit"   /* (module *, u32 idx, u64 has_result) */

/* Counters of one loop in one thread.  The probes update the first four
   inline (relaxed, no atomic read-modify-write: only the owning thread
   writes); the writer reads them from any thread. */
struct vp_loop_rt_counter {
    uint64_t instances;
    uint64_t iterations;
    uint64_t results;          /* iterations in which a side-effect block ran  */
    uint64_t max_iterations;
    uint64_t current;          /* recursion: calls in the running instance    */
    uint64_t depth;            /* recursion: current depth                    */
};

struct vp_loop_rt_loop {
    uint64_t loop_id;          /* as in .vprof.loops                           */
    const char *function;      /* DISubprogram name of the loop's source       */
    const char *linkage;       /* its linkage name (== function for C)         */
    const char *container;     /* symbol of the function holding the code
                                  (differs from `function` when inlined)       */
    uint8_t *gate;             /* enable byte of `container` (shared by its loops) */
    uint8_t kind;              /* enum vp_loop_kind                            */
    uint8_t static_class;      /* enum vp_loop_class                           */
    uint16_t reserved;
    uint32_t reserved2;
};

struct vp_loop_rt_module {
    uint32_t version;          /* VP_LOOP_RT_VERSION                           */
    uint32_t loop_count;
    const struct vp_loop_rt_loop *loops;
    uint8_t *enabled;          /* loop_count bytes, set by the runtime: 1 for
                                  the loops it selected                        */
    uint64_t index;            /* runtime-owned: registration number          */
    struct vp_loop_rt_module *next; /* runtime-owned: registration list        */
};

/*
 * VP_SEC_LOOP_COUNTS payload (written by sampler-rt/src/loops/, read by
 * loopclass/src/): struct vp_loop_counts_header, module_count struct
 * vp_loop_counts_module, record_count struct vp_loop_count, then
 * strings_size bytes of string table ("\0" first).  One record per selected
 * loop of each registered module; the counters are summed over threads
 * (max_iterations: maximum) when the section is written.
 */
#define VP_LOOP_COUNTS_VERSION 1

struct vp_loop_counts_header {
    uint32_t version;          /* VP_LOOP_COUNTS_VERSION (first word)          */
    uint32_t header_size;      /* sizeof(struct vp_loop_counts_header)         */
    uint32_t module_count;
    uint32_t record_count;
    uint32_t thread_count;     /* thread records (a record passes to a new
                                  thread once its owner has exited)          */
    uint32_t strings_size;
};

struct vp_loop_counts_module {
    uint32_t path;             /* string: ELF file holding the TU (dladdr)     */
    uint32_t loop_count;       /* loops in the TU's descriptor                 */
};

struct vp_loop_count {
    uint64_t loop_id;
    uint32_t module;           /* index into the module array                  */
    uint8_t kind;              /* enum vp_loop_kind                            */
    uint8_t static_class;      /* enum vp_loop_class                           */
    uint16_t reserved;
    uint64_t instances;        /* loop instances (outermost calls for recursion) */
    uint64_t iterations;       /* header executions (calls for recursion)      */
    uint64_t result_iterations;/* iterations in which a side-effect block ran  */
    uint64_t max_iterations;   /* most iterations of one instance              */
};

/* ---- redundancy: probe descriptor, ".vprof.redund", VP_SEC_LOOP_ITER_HASHES
        and VP_SEC_LOOP_INSTANCES (docs/redundancy.md) ---- */
/*
 * ".vprof.redund" (one blob per translation unit, same discipline as the
 * loop table): the static result of the redundancy pass for every loop it
 * analysed, keyed by the loop table's loop_id.  The header is followed by
 * loop_count struct vp_redund_loop, source_count struct vp_redund_source
 * (each loop's sources are contiguous: first_source, source_count) and the
 * string table.
 */
#define VP_REDUND_SECTION ".vprof.redund"
#define VP_REDUND_MAGIC 0x44525056u /* "VPRD" */
#define VP_REDUND_VERSION 1

struct vp_redund_header {
    uint32_t magic;          /* VP_REDUND_MAGIC                                */
    uint16_t version;        /* VP_REDUND_VERSION                              */
    uint16_t header_size;
    uint32_t total_size;     /* %8 == 0                                        */
    uint32_t loop_count;
    uint32_t source_count;
    uint32_t strings_offset;
    uint32_t strings_size;
    uint32_t reserved;
};

enum vp_redund_loop_flags {
    VP_REDF_PROBED = 1u << 0,      /* value probes were inserted                */
    VP_REDF_CI_IV = 1u << 1,       /* a cross-iteration source is an induction
                                      variable of the loop: no cross-iteration
                                      redundancy, nothing recorded for it       */
    VP_REDF_IO_EVERY_ITER = 1u << 2, /* only side effects are I/O calls and one
                                      of them runs on every iteration (batching) */
    VP_REDF_SE_IN_INNER = 1u << 3, /* a side effect sits in an inner loop: the
                                      writes per instance may grow with work    */
    VP_REDF_CI_NONE = 1u << 4,     /* no cross-iteration source is recorded     */
    VP_REDF_CL_NONE = 1u << 5,     /* no cross-loop source is recorded          */
    VP_REDF_CALLSITE = 1u << 6,    /* a repeated-call unit: one call, in the loop
                                      whose entry index + 1 is `reserved`, of a
                                      function with a loop; `function`
                                      names the callee, `line` the call
                                      (docs/redundancy.md, "Repeated calls")    */
    VP_REDF_SE_FIXED = 1u << 7,    /* every in-body side effect writes one fixed
                                      location per instance (a live-out value,
                                      a store to an address the loop does not
                                      change): an instance writes a constant
                                      number of locations (LDoctor 3.2.6)     */
    VP_REDF_OVER_BUDGET = 1u << 8, /* not probed: its recording copy would take
                                      its function's copies past vprof-cc's
                                      code-size budget (docs/redundancy.md,
                                      "Code-size budget")                     */
    VP_REDF_COPY = 1u << 9,        /* VP_REDF_CALLSITE of a copy (memcpy,
                                      memmove, std::string's _M_replace): its
                                      pairs say a buffer that grew is copied
                                      again (docs/redundancy.md, "Copies made
                                      again")                                  */
    VP_REDF_SETUP = 1u << 10,      /* VP_REDF_CALLSITE of a setup call (fopen,
                                      open, regcomp, iconv_open, dlopen, ...):
                                      its signature is its string and integer
                                      arguments, so a repeat opens or compiles
                                      again what an earlier call did
                                      (docs/redundancy.md, "Setup calls made
                                      again")                                  */
    VP_REDF_SORT = 1u << 11,       /* VP_REDF_COPY of a sort (qsort): its pairs
                                      are inputs sorted again; a pair of the
                                      same bytes is compared, not skipped
                                      (docs/redundancy.md, "Sorts made
                                      again")                                  */
    VP_REDF_PURE = 1u << 12,       /* VP_REDF_CALLSITE of a math call (pow,
                                      exp, log, sin, ...): a function of its
                                      numeric arguments alone, so a repeat
                                      computes again a value an earlier call
                                      computed (docs/redundancy.md, "Math
                                      calls made again")                      */
    VP_REDF_CL_CONST = 1u << 13,   /* constant work: the loop's cross-loop slice
                                      has no source (what it writes comes from
                                      constants and its iteration count) and it
                                      writes only module-private globals no
                                      other source line writes, so an instance
                                      writes again what the one before it
                                      wrote; `reserved` names (string, not
                                      empty) the first such global (docs/redundancy.md,
                                      "Constant work done again")             */
    VP_REDF_VIA = 1u << 14,        /* VP_REDF_CALLSITE of a call made in a helper
                                      the loop calls (a setup call or a copy
                                      lifted from it): one source of kind
                                      VP_SRC_VIA names the helper and the
                                      call's line in it (docs/redundancy.md,
                                      "Copies in a helper")                   */
};

struct vp_redund_loop {
    uint64_t loop_id;        /* as in .vprof.loops                             */
    uint32_t first_source;   /* index into the source array                    */
    uint32_t source_count;
    uint32_t function;       /* string: function holding the loop              */
    uint32_t line;           /* loop line (as in the loop table)               */
    uint32_t probe_index;    /* index in the TU's vp_red_rt_module, ~0u if none */
    uint16_t flags;          /* VP_REDF_* bits                                 */
    uint16_t side_effects;   /* in-body side-effect instructions               */
    uint32_t iv_line;        /* VP_REDF_CI_IV: line of the induction source   */
    uint32_t reserved;       /* VP_REDF_CALLSITE: 1 + index, in this blob, of
                                the loop holding the call; VP_REDF_CL_CONST:
                                string, the global it writes; else 0          */
};

enum vp_redund_source_kind {
    VP_SRC_LOAD = 0,         /* read of heap/global/argument memory in the loop */
    VP_SRC_CARRIED_PHI = 1,  /* value from the previous iteration (header phi) */
    VP_SRC_CARRIED_LOAD = 2, /* local variable stored in an earlier iteration  */
    VP_SRC_OUTSIDE = 3,      /* value defined before the loop (or an argument) */
    VP_SRC_CALL_RESULT = 4,  /* result of an external / unanalysed call        */
    VP_SRC_CALLEE_LOAD = 5,  /* memory read inside a called function           */
    VP_SRC_STRIDE = 6,       /* a load or store whose address steps by a loop-
                                invariant amount that is not a small constant:
                                not a value of the slice, its addresses are
                                recorded as a range (cl = VP_SRCD_RANGE, id
                                with VP_RED_SRC_STRIDE_BIT) so that the step
                                between iterations is known per instance
                                (docs/vprof-loop.md, "Strided walks"); a
                                constant step is in the table instead:
                                `reserved2` its bytes, `reserved`
                                VP_SRC_STRIDE_BACKWARDS when negative, cl
                                VP_SRCD_NONE (nothing recorded)           */
    VP_SRC_VIA = 7,          /* not a value: of a unit with VP_REDF_VIA, the
                                helper its call is in (`function`) and the
                                call's line there; ci and cl VP_SRCD_NONE    */
};
#define VP_SRC_STRIDE_BACKWARDS 1u

enum vp_redund_decision {
    VP_SRCD_NONE = 0,        /* not a source of this variant                   */
    VP_SRCD_RECORD = 1,      /* every value is recorded                        */
    VP_SRCD_INVARIANT = 2,   /* pruned: loop-invariant address, no clobber in
                                the loop (MemorySSA)                           */
    VP_SRCD_OUTSIDE = 3,     /* pruned (cross-iteration): same in every
                                iteration of an instance                       */
    VP_SRCD_IV = 4,          /* induction variable: no cross-iteration
                                redundancy (loop flag VP_REDF_CI_IV)           */
    VP_SRCD_RANGE = 5,       /* affine address over memory the enclosing loop
                                does not write: first/last address per instance */
    VP_SRCD_ONCE = 6,        /* recorded once per instance (outside values)    */
    VP_SRCD_UNSUPPORTED = 7, /* value wider than 64 bits: not recorded         */
};

struct vp_redund_source {
    uint32_t id;             /* as in the runtime records; bit 31 set for
                                sources inside called functions (module-wide) */
    uint32_t line;
    uint16_t column;
    uint8_t kind;            /* enum vp_redund_source_kind                     */
    uint8_t depth;           /* call depth: 0 in the loop's function           */
    uint8_t ci;              /* enum vp_redund_decision, cross-iteration       */
    uint8_t cl;              /* enum vp_redund_decision, cross-loop            */
    uint16_t reserved;
    uint32_t function;       /* string: function holding the instruction      */
    uint32_t reserved2;
};

/*
 * Probe descriptor (in memory, pointers native), one per instrumented TU,
 * passed by a constructor to the weak runtime entry VP_RED_RT_REGISTER.
 * The runtime sets *gate for every loop whose function is selected by
 * VPROF_LOOP_FUNCTIONS (the gate may be loopclass's gate of the function:
 * then both probe sets run in the same clone).  Per thread and loop the probes
 * keep struct vp_red_rt_slot in a thread-local array of the TU.
 */
#define VP_RED_RT_VERSION 9 /* 4: __vprof_red_iter_end_n ends the instance of
                               a loop without cross-iteration sampling;
                               5: side effects gated on VP_RED_MODE_SE;
                               6: a call through a pointer is a side effect
                               only for an impure callee (VP_RED_RT_EFFECT_CALL);
                               7: a recorded instance's iterations run in runs
                               (VP_RED_RTF_RUNS, VP_RED_RT_ITER_END_RUN);
                               8: repeated calls of C library scans send the
                               bytes they read (VP_RED_RT_BYTES);
                               9: string scans record consecutive calls as
                               instance pairs of chunk hashes
                               (VP_RED_RT_PREFIX) */
/* Bit of __vprof_red_active the runtime sets while every recorded frame
   open on the thread is full (its signature truncated, its instance's
   values at the cap): the callee probes send a value only when
   (uint32_t)(active - 1) < VP_RED_ACTIVE_FULL - 1, so past the caps a
   recorded iteration's callees stop calling the runtime.  Cleared when a
   frame opens or ends.  Modules that test `active != 0` still work. */
#define VP_RED_ACTIVE_FULL 0x40000000
#define VP_RED_RT_REGISTER "__vprof_red_register"        /* (module *)         */
/* (module *, u32 loop, slot *) -> i32: 0 the original body, 1 the recording
   copy for one iteration, 2 (a VP_RED_RTF_RUNS loop in a recorded instance)
   the recording copy for a run of slot.iter_countdown iterations, which the
   copy counts down itself */
#define VP_RED_RT_ITER "__vprof_red_iter_sample"
#define VP_RED_RT_ITER_END "__vprof_red_iter_end"  /* (module *, u32 loop)     */
/* (module *, u32 loop, u32 n): end of n recorded iterations run as one frame
   (a loop without cross-iteration sampling: the whole recorded instance) */
#define VP_RED_RT_ITER_END_N "__vprof_red_iter_end_n"
/* (module *, u32 loop, u32 n): end of the recording copy's frame of a
   VP_RED_RTF_RUNS loop, after n iterations (1 unless a run) */
#define VP_RED_RT_ITER_END_RUN "__vprof_red_iter_end_run"
#define VP_RED_RT_INSTANCE "__vprof_red_instance_sample" /* (module *, u32 loop, slot *) */
#define VP_RED_RT_INSTANCE_END "__vprof_red_instance_end" /* (module *, u32 loop, slot *) */
#define VP_RED_RT_VALUE "__vprof_red_value"   /* (module *, u32 loop, u32 src, u64 v, u32 mode) */
#define VP_RED_RT_RANGE "__vprof_red_range"   /* (module *, u32 loop, u32 src, u64 addr) */
/* (module *, u32 loop, u32 src, const void *p, u64 n, u32 mode): the XXH3
   hash of the n bytes at p as one value of source src (version 8) */
#define VP_RED_RT_BYTES "__vprof_red_bytes"
/* (module *, u32 loop, slot *, u32 src, const void *p, u64 n): a repeated
   call of a C library string scan whose instance countdown ran out: the
   call is an instance of the unit (paired with the next call, as a loop's
   instances are), its values the XXH3 hashes of the n bytes at p in
   chunks, as source src (version 9; docs/redundancy.md, "Strings scanned
   again") */
#define VP_RED_RT_PREFIX "__vprof_red_prefix"
/* Source ids the probes give the values of a C library call's pointer
   argument k: its bytes' hash (VP_RED_RT_BYTES) 64 + k, its chunk hashes
   (VP_RED_RT_PREFIX) VP_RED_SRC_PREFIX + k. */
#define VP_RED_SRC_BYTES 64
#define VP_RED_SRC_PREFIX 96
/* The chunk hashes of a copy's source (memcpy's, std::string's
   _M_replace's): VP_RED_SRC_PREFIX_START + k, cut at offsets from p, not
   at addresses, as a copy of a string that grew is read from a new buffer
   each time (docs/redundancy.md, "Copies made again"); a runtime older
   than this cuts them at addresses, which only misses such pairs. */
#define VP_RED_SRC_PREFIX_START 112
/* The same bytes of a copy's source cut at offsets from their end, as
   source VP_RED_SRC_SUFFIX_END + k, recorded after the cut from the start:
   a copy of what the previous copy copied, shifted (an array whose front
   element was removed, or one inserted before the rest), shares every
   chunk but its first with it this way (docs/redundancy.md, "Copies of
   shifted bytes"); a runtime older than this records none, which only
   misses such pairs. */
#define VP_RED_SRC_SUFFIX_END 128
/* The id bit of a VP_SRC_STRIDE source (the loop's strided accesses,
   numbered from 0): its range measures the step between iterations and is
   no input of the loop, so the pair distances leave it out. */
#define VP_RED_SRC_STRIDE_BIT 0x40000000u
#define VP_RED_STRIDES_PER_LOOP 4
#define VP_RED_RT_CALLEE "__vprof_red_callee_value" /* (u32 src, u64 v)      */
#define VP_RED_RT_EFFECT "__vprof_red_side_effect"  /* (module *, u32 loop)  */
/* (module *, u32 loop, callee): a side effect unless the callee is a
   registered function that writes nothing (docs/loopclass.md, "Calls
   through pointers") */
#define VP_RED_RT_EFFECT_CALL "__vprof_red_side_effect_call"

enum vp_red_value_mode {
    VP_RED_MODE_CI = 1u << 0,  /* hash into the iteration signature            */
    VP_RED_MODE_CL = 1u << 1,  /* append to the instance's value sequence      */
    VP_RED_MODE_SE = 1u << 2,  /* count the recorded instance's side effects:
                                  set with CL, but kept past the value cap, so
                                  that a truncated instance's writes are whole */
};

struct vp_red_rt_slot {
    int32_t iter_countdown;    /* iterations until the next runtime call       */
    int32_t instance_countdown;/* instances until the next runtime call        */
    int32_t instance_active;   /* this thread records the current instance     */
    int32_t recording;         /* VP_RED_MODE_* the runtime still takes values
                                  for: the probes of the recording copy call it
                                  only for these (cleared at a cap, so an outer
                                  loop's sampled instance stops paying for the
                                  inner loops' values once it is full)         */
};

enum vp_red_rt_loop_flags {
    VP_RED_RTF_NO_CI = 1u << 0, /* no cross-iteration sampling (IV or no source) */
    VP_RED_RTF_NO_ACTIVE = 1u << 1, /* a recorded frame of this unit does not raise
                                   __vprof_red_active (recursion: its calls
                                   decide for themselves)                      */
    VP_RED_RTF_RUNS = 1u << 2,  /* its copy takes a run (iter_sample's 2) and
                                   ends its frames with iter_end_run           */
    VP_RED_RTF_DENSE = 1u << 3, /* a unit of a costly call (VP_REDF_SETUP):
                                   sampled 1 in VP_RED_DENSE_RATE calls when
                                   the configured rate is sparser (a runtime
                                   without it samples at the configured rate) */
};
/* The cross-iteration rate of a VP_RED_RTF_DENSE unit: its call (an open, a
   regex compile) costs microseconds, hashing its strings nanoseconds. */
#define VP_RED_DENSE_RATE 16

struct vp_red_rt_loop {
    uint64_t loop_id;
    const char *function;      /* DISubprogram name (selection by function)    */
    const char *container;     /* symbol of the function holding the code      */
    uint8_t *gate;             /* enable byte of `container`                   */
    uint32_t flags;            /* VP_RED_RTF_*                                 */
    uint32_t reserved;
};

struct vp_red_rt_module {
    uint32_t version;          /* VP_RED_RT_VERSION                            */
    uint32_t loop_count;
    const struct vp_red_rt_loop *loops;
    uint64_t slot_base;        /* runtime-owned: first global loop number      */
    struct vp_red_rt_module *next; /* runtime-owned: registration list         */
    /* version >= 3: this thread's __vprof_red_active (the probes' "a recorded
       frame is open" count), so that the runtime can put it right after a
       longjmp or exception left recorded frames behind */
    int32_t *(*active)(void);
};

/*
 * VP_SEC_LOOP_ITER_HASHES payload: struct vp_iter_hashes_header, then
 * record_count struct vp_iter_hash (grouped by thread, in sampling order).
 * VP_SEC_LOOP_INSTANCES payload: struct vp_instances_header, then
 * instance_count records, each a struct vp_instance followed by value_count
 * struct vp_instance_value (in execution order) and range_count
 * struct vp_instance_range.  Loss is counted in both headers.
 */
#define VP_ITER_HASHES_VERSION 1
#define VP_INSTANCES_VERSION 1

struct vp_iter_hashes_header {
    uint32_t version;          /* VP_ITER_HASHES_VERSION (first word)          */
    uint32_t header_size;
    uint64_t record_count;
    uint64_t dropped;          /* sampled iterations not kept: buffer or the
                                  loop's share full (docs/redundancy.md, "Caps"),
                                  or a frame left by an unwind                 */
    uint64_t truncated;        /* iterations whose value count hit the cap     */
    uint32_t thread_count;     /* buffer sets (one passes to a new thread once
                                  its owner has exited)                        */
    uint32_t iteration_cap;    /* max <id,value> pairs hashed per iteration    */
};

struct vp_iter_hash {
    uint64_t loop_id;
    uint64_t signature;        /* XXH3-64 chain over the <id, value> pairs     */
    uint64_t instance;         /* per-thread instance sequence number          */
    uint32_t tid;
    uint32_t values;           /* pairs hashed (capped)                        */
};

/*
 * VP_SEC_LOOP_ITER_SKETCH payload: struct vp_iter_sketch_header, then
 * loop_count struct vp_iter_sketch, one per loop with a sampled iteration
 * (threads merged).  The iteration hashes section keeps the first
 * signatures of each loop (a bounded table); the sketch also sees those
 * sampled after, while the loop's verdict is open, so the cross-iteration
 * rate (sampled / distinct) covers the whole run: `sampled` counts them,
 * `reg` is a HyperLogLog of their signatures
 * (register j = the most leading zeros + 1 of the signatures whose top
 * VP_ITER_SKETCH_BITS bits are j, below those bits; docs/redundancy.md,
 * "Whole-run rate").
 */
#define VP_ITER_SKETCH_VERSION 1
#define VP_ITER_SKETCH_BITS 12
#define VP_ITER_SKETCH_REGS (1u << VP_ITER_SKETCH_BITS)

struct vp_iter_sketch_header {
    uint32_t version;          /* VP_ITER_SKETCH_VERSION (first word)          */
    uint32_t header_size;
    uint64_t loop_count;
    uint32_t registers;        /* VP_ITER_SKETCH_REGS                          */
    uint32_t reserved;
    uint64_t dropped;          /* sampled iterations no sketch saw (a thread
                                  with sketches for too many loops, or torn)   */
};

struct vp_iter_sketch {
    uint64_t loop_id;
    uint64_t sampled;          /* sampled iterations with a signature          */
    uint8_t reg[VP_ITER_SKETCH_REGS];
};

/* Where signature `sig` goes in a sketch, and what it offers the register
   (registers keep the maximum): 1 + the leading zeros of the bits below the
   index, at most 64 - VP_ITER_SKETCH_BITS + 1. */
static inline uint32_t vp_iter_sketch_index(uint64_t sig)
{
    return (uint32_t)(sig >> (64 - VP_ITER_SKETCH_BITS));
}

static inline uint8_t vp_iter_sketch_rank(uint64_t sig)
{
    uint64_t w = sig << VP_ITER_SKETCH_BITS;
    return w ? (uint8_t)(__builtin_clzll(w) + 1) : (uint8_t)(64 - VP_ITER_SKETCH_BITS + 1);
}

struct vp_instances_header {
    uint32_t version;          /* VP_INSTANCES_VERSION (first word)            */
    uint32_t header_size;
    uint64_t instance_count;
    uint64_t dropped_instances;/* sampled instances not kept: buffer full,
                                  thinned out, or unfinished                   */
    uint64_t dropped_values;   /* values beyond the per-instance cap           */
    uint32_t thread_count;     /* buffer sets, as in vp_iter_hashes_header     */
    uint32_t value_cap;        /* max values kept per instance                 */
};

struct vp_instance {
    uint64_t loop_id;
    uint64_t seq;              /* per-thread, per-loop instance number: pairs
                                  are consecutive sampled seqs (seq, seq+1)     */
    uint64_t iterations;       /* iterations of the instance                   */
    uint64_t side_effects;     /* in-body side-effect executions               */
    uint64_t dropped_values;
    uint32_t tid;
    uint32_t value_count;
    uint32_t range_count;
    uint32_t flags;            /* VP_INSTF_* bits                              */
};

enum vp_instance_flags {
    VP_INSTF_TRUNCATED = 1u << 0, /* values beyond value_cap were dropped      */
    VP_INSTF_UNFINISHED = 1u << 1,/* still running when the profile was written */
};

struct vp_instance_value {
    uint32_t src;
    uint32_t reserved;
    uint64_t value;            /* the value itself (<= 64 bits is its own hash) */
};

struct vp_instance_range {
    uint32_t src;
    uint32_t count;            /* reads in the instance                        */
    uint64_t first, last;      /* first and last address read                  */
};

#ifdef __cplusplus
}
#endif

#endif /* VPROF_FORMAT_H */
