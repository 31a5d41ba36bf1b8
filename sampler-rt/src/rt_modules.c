/*
 * rt_modules.c - the loaded modules of the target (for the profile's module
 * table and for exec/exit refreshes), build ids, and the address ranges the
 * signal path may read with plain loads.  The unwind tables are rt_unwind.c's.
 *
 * The runtime exports a forwarding dl_iterate_phdr that counts calls made
 * inside the handler (reported with VPROF_DEBUG=1; a test asserts 0): the
 * handler must never take the loader's lock.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <limits.h>
#include <link.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "rt_internal.h"

static char vp_rt_exe_path[VP_RT_PATH_MAX];

/* Copies a NUL-terminated string into the module string table; returns its
   offset, or 0 ("") when the table is full. */
static uint32_t vp_rt_modstr(struct vp_rt_modlist *ml, const char *s)
{
    size_t n = strlen(s) + 1;
    if (ml->strings_used + n > sizeof ml->strings)
        return 0;
    uint32_t off = ml->strings_used;
    memcpy(ml->strings + off, s, n);
    ml->strings_used += (uint32_t)n;
    return off;
}

/* Reads `n` bytes at `addr` into `dst`: 0, or -1 if unreadable. */
typedef int (*vp_rt_reader)(uint64_t addr, void *dst, uint32_t n);

/* Under the loader's lock (a dl_iterate_phdr callback): the module cannot
   be unmapped meanwhile. */
static int vp_rt_read_locked(uint64_t addr, void *dst, uint32_t n)
{
    memcpy(dst, (const void *)(uintptr_t)addr, n);
    return 0;
}

/* Without it: another thread may dlclose the module meanwhile, so every
   byte goes through the fault-safe reader, 64 at a time. */
static int vp_rt_read_unlocked(uint64_t addr, void *dst, uint32_t n)
{
    for (uint32_t k = 0; k < n; k += 64)
        if (vp_rt_safe_read(addr + k, (uint8_t *)dst + k, n - k < 64 ? n - k : 64) != 0)
            return -1;
    return 0;
}

/* Finds the GNU build id among a module's PT_NOTE segments. */
static void vp_rt_build_id(const struct dl_phdr_info *info, struct vp_rt_module *m,
                           vp_rt_reader rd)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        uint64_t p = info->dlpi_addr + ph->p_vaddr, end = p + ph->p_memsz;
        ElfW(Nhdr) nh;
        while (p + sizeof nh <= end && rd(p, &nh, sizeof nh) == 0) {
            uint64_t name = p + sizeof nh;
            uint64_t desc = name + ((nh.n_namesz + 3) & ~3u);
            uint64_t next = desc + ((nh.n_descsz + 3) & ~3u);
            if (next > end || next <= p)
                break;
            char gnu[4];
            if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && rd(name, gnu, 4) == 0 &&
                memcmp(gnu, "GNU", 4) == 0) {
                uint32_t len = nh.n_descsz > 32 ? 32 : nh.n_descsz;
                if (rd(desc, m->build_id, len) == 0)
                    m->build_id_len = len;
                return;
            }
            p = next;
        }
    }
}

/* The public head of one entry of the loader's list (l_addr, l_name, l_ld,
   l_next, l_prev), read with `rd`. */
static int vp_rt_read_link(vp_rt_reader rd, const struct link_map *l, struct link_map *out)
{
    return rd((uint64_t)(uintptr_t)l, out, sizeof *out);
}

/* A signature of the loader's list of loaded objects (_r_debug.r_map: each
   one's load bias, dynamic section and name pointer), read without a lock.
   Returns 0, or -1 when the list is being changed (r_state not
   RT_CONSISTENT), does not end within 4096 entries, or (read unlocked) an
   entry was freed under us.  With vp_rt_read_locked it is safe only where
   nothing can change the list meanwhile: inside a dl_iterate_phdr callback
   (the loader's write lock is held) or in a fork child's single thread. */
static int vp_rt_link_sig(uint64_t *sig, vp_rt_reader rd)
{
    if (_r_debug.r_state != RT_CONSISTENT)
        return -1;
    uint64_t h = 0x9e3779b97f4a7c15ull;
    uint32_t n = 0;
    struct link_map e;
    for (const struct link_map *l = _r_debug.r_map; l; l = e.l_next) {
        if (++n > 4096 || vp_rt_read_link(rd, l, &e) != 0)
            return -1;
        uint64_t parts[3] = {(uint64_t)e.l_addr, (uint64_t)(uintptr_t)e.l_ld,
                             (uint64_t)(uintptr_t)e.l_name};
        for (int i = 0; i < 3; i++) {
            h ^= parts[i];
            h *= 0xff51afd7ed558ccdull;
            h ^= h >> 33;
        }
    }
    *sig = h ^ n;
    return 0;
}

/* Appends the module `info` describes (its program headers and notes read
   with `rd`) to `ml`; a module without code is skipped. */
static void vp_rt_add_module(struct vp_rt_modlist *ml, const struct dl_phdr_info *info,
                             vp_rt_reader rd)
{
    if (ml->count >= VP_RT_MAX_MODULES)
        return;
    struct vp_rt_module *m = &ml->mods[ml->count];
    memset(m, 0, sizeof *m);
    m->load_bias = info->dlpi_addr;
    m->lo = UINT64_MAX;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            uint64_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
            if (lo < m->lo)
                m->lo = lo;
            if (hi > m->hi)
                m->hi = hi;
        }
    }
    if (m->lo == UINT64_MAX)
        return; /* no code */
    const char *name = info->dlpi_name;
    if (!name || !name[0])
        name = ml->count == 0 ? vp_rt_exe_path : "";
    m->path = vp_rt_modstr(ml, name);
    vp_rt_build_id(info, m, rd);
    ml->count++;
}

static int vp_rt_scan_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct vp_rt_modlist *ml = arg;
    if (ml->link_sig_ok < 0) /* first call; the lock is held, the list can't move */
        ml->link_sig_ok = vp_rt_link_sig(&ml->link_sig, vp_rt_read_locked) == 0;
    if (ml->count >= VP_RT_MAX_MODULES)
        return 1;
    vp_rt_add_module(ml, info, vp_rt_read_locked);
    return 0;
}

static void vp_rt_modlist_clear(struct vp_rt_modlist *ml)
{
    if (!vp_rt_exe_path[0]) {
        ssize_t n = readlink("/proc/self/exe", vp_rt_exe_path, sizeof vp_rt_exe_path - 1);
        vp_rt_exe_path[n > 0 ? n : 0] = 0;
    }
    ml->count = 0;
    ml->strings_used = 1;
    ml->strings[0] = 0;
    ml->link_sig_ok = -1;
}

#define VP_RT_UNLOCKED_PHDRS 64
#define VP_RT_UNLOCKED_TRIES 4

/* The unlocked scan's buffers, static rather than 7.7 KB more on the stack
   of a thread a terminating signal interrupted: writes are serialised by
   the writer's `writing` flag, so one scan runs at a time. */
static ElfW(Phdr) vp_rt_unlocked_ph[VP_RT_UNLOCKED_PHDRS];
static char vp_rt_unlocked_name[VP_RT_PATH_MAX];

/* The program headers of loader entry `e` (the `i`th of the list) into
   `ph`; returns how many, or -1.  The main program's come from the auxiliary
   vector, as dl_iterate_phdr's do; any other's from its ELF header, which
   is mapped at its load bias when its first segment has address 0 (what
   linkers emit for shared objects).  An entry whose headers do not name its
   own dynamic section (a prelinked library, a header not found) fails. */
static int vp_rt_unlocked_phdrs(const struct link_map *e, uint32_t i, ElfW(Phdr) *ph)
{
    uint64_t at, n;
    if (i == 0) {
        at = getauxval(AT_PHDR);
        n = getauxval(AT_PHNUM);
    } else {
        ElfW(Ehdr) eh;
        if (vp_rt_read_unlocked((uint64_t)e->l_addr, &eh, sizeof eh) != 0 ||
            memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_phentsize != sizeof(ElfW(Phdr)))
            return -1;
        at = (uint64_t)e->l_addr + eh.e_phoff;
        n = eh.e_phnum;
    }
    if (at == 0 || n == 0 || n > VP_RT_UNLOCKED_PHDRS ||
        vp_rt_read_unlocked(at, ph, (uint32_t)(n * sizeof *ph)) != 0)
        return -1;
    for (uint64_t k = 0; k < n; k++)
        if (ph[k].p_type == PT_DYNAMIC)
            return (uint64_t)e->l_addr + ph[k].p_vaddr == (uint64_t)(uintptr_t)e->l_ld ? (int)n
                                                                                     : -1;
    return e->l_ld ? -1 : (int)n; /* a static program has no dynamic section */
}

/* Fills `ml` as vp_rt_modules_scan does, without the loader's lock: the
   list is walked and the modules' headers read through the fault-safe
   reader, and the result is kept only if the list was consistent and the
   same before (`before`, the caller's vp_rt_link_sig) and after.  A
   program thread that calls dl_iterate_phdr in a loop (a C++ program
   throwing in one thread while another exits) can keep the lock from the
   exiting writer for seconds: glibc's lock is not fair (rt.forkheld_dlopen's
   parent took 0.4-2.9 s here where 0.17 s is due, and more than 20 s on CI;
   docs/runtime.md, "Modules at exit").  `old`, from a terminating signal's
   handler: the table in use, whose modules still mapped where they were
   keep their `indexed` mark (the index is bound without realpath there).
   Returns 0, or -1 (list moving, other namespaces, a header not found). */
static int vp_rt_modules_scan_unlocked(struct vp_rt_modlist *ml, uint64_t before,
                                       const struct vp_rt_modlist *old)
{
    uint64_t after;
    if (_r_debug.r_version >= 2 && ((struct r_debug_extended *)&_r_debug)->r_next)
        return -1; /* dlmopen namespaces: dl_iterate_phdr lists them too */
    vp_rt_modlist_clear(ml);
    struct link_map e;
    ElfW(Phdr) *ph = vp_rt_unlocked_ph;
    char *name = vp_rt_unlocked_name;
    const uint32_t cap = sizeof vp_rt_unlocked_name;
    uint32_t i = 0;
    for (const struct link_map *l = _r_debug.r_map; l; l = e.l_next, i++) {
        if (i >= 4096 || vp_rt_read_link(vp_rt_read_unlocked, l, &e) != 0)
            return -1;
        int n = vp_rt_unlocked_phdrs(&e, i, ph);
        if (n < 0)
            return -1;
        name[0] = 0;
        /* up to its NUL, in reads that do not cross a page: the bytes past
           it may be unmapped */
        for (uint32_t k = 0, c; e.l_name && k < cap - 1; k += c) {
            uint64_t at = (uint64_t)(uintptr_t)e.l_name + k;
            c = 4096 - (uint32_t)(at & 4095);
            c = c < 64 ? c : 64;
            c = c < cap - 1 - k ? c : cap - 1 - k;
            if (vp_rt_read_unlocked(at, name + k, c) != 0)
                return -1;
            if (memchr(name + k, 0, c))
                break;
        }
        name[cap - 1] = 0;
        struct dl_phdr_info info;
        memset(&info, 0, sizeof info);
        info.dlpi_addr = e.l_addr;
        info.dlpi_name = name;
        info.dlpi_phdr = ph;
        info.dlpi_phnum = (ElfW(Half))n;
        vp_rt_add_module(ml, &info, vp_rt_read_unlocked);
    }
    if (vp_rt_link_sig(&after, vp_rt_read_unlocked) != 0 || after != before)
        return -1;
    ml->link_sig = before;
    ml->link_sig_ok = 1;
    for (uint32_t k = 0; old && k < ml->count; k++)
        for (uint32_t j = 0; j < old->count; j++) {
            const struct vp_rt_module *a = &ml->mods[k], *b = &old->mods[j];
            if (a->load_bias == b->load_bias && a->lo == b->lo && a->hi == b->hi &&
                strcmp(ml->strings + a->path, old->strings + b->path) == 0) {
                ml->mods[k].indexed = b->indexed;
                break;
            }
        }
    if (vp_rt.have_index)
        vp_rt_index_bind(&vp_rt.index, ml, !old);
    return 0;
}

/* Fills `ml` with the loaded modules (not the signal path: dl_iterate_phdr).
   The first module is the main executable.  Can't fail; truncates at
   VP_RT_MAX_MODULES. */
void vp_rt_modules_scan(struct vp_rt_modlist *ml)
{
    vp_rt_modlist_clear(ml);
    dl_iterate_phdr(vp_rt_scan_cb, ml);
    if (ml->link_sig_ok < 0)
        ml->link_sig_ok = 0;
    if (vp_rt.have_index)
        vp_rt_index_bind(&vp_rt.index, ml, 1);
}

/* The loader's list as the fork child started (vp_rt_modules_after_fork);
   `fork_lock_unknown` while the child has not loaded or unloaded anything
   itself. */
static uint64_t vp_rt_fork_sig;
static int vp_rt_fork_sig_ok, vp_rt_fork_lock_unknown;

/* Fork child (atfork handler, one thread).  dl_iterate_phdr takes glibc's
   loader write lock, which fork does not reset in the child (it resets
   dl_load_lock only): if another thread of the parent was inside
   dl_iterate_phdr at the fork (a C++ throw walks the unwind tables that
   way), or the forking thread was, from a signal handler, the child's first
   call waits forever.  So the child does not call it unless it has changed
   the list itself: a dlopen or dlclose there took the same lock and let it
   go.  docs/runtime.md, "fork". */
void vp_rt_modules_after_fork(void)
{
    vp_rt_fork_lock_unknown = 1;
    vp_rt_fork_sig_ok = vp_rt_link_sig(&vp_rt_fork_sig, vp_rt_read_locked) == 0;
}

/* Rescans into the inactive snapshot and publishes it (serialised by the
   writer's `writing` flag).  `in_signal`: called from a terminating signal's
   handler, where only the unlocked read may run (no dl_iterate_phdr: the
   interrupted thread may hold the loader's lock); if it fails, the old
   snapshot is kept and the modules loaded since it are missing, as before
   2026-11-24.  In a fork child that has not changed the loader's list,
   keeps the snapshot: it is exact when it was taken with the list the child
   started with; otherwise (the parent loaded a module after the snapshot
   and before forking) the modules loaded since are missing and their PCs
   stay unresolved, counted in `vp_rt.modules_stale`. */
void vp_rt_modules_refresh(int in_signal)
{
    if (vp_rt_fork_lock_unknown) {
        uint64_t now;
        /* the child may have threads by now: read unlocked */
        int changed = vp_rt_fork_sig_ok && vp_rt_link_sig(&now, vp_rt_read_unlocked) == 0 &&
                      now != vp_rt_fork_sig;
        if (!changed) {
            const struct vp_rt_modlist *ml = vp_rt.modlists[atomic_load(&vp_rt.modlist_cur)];
            if (!(vp_rt_fork_sig_ok && ml->link_sig_ok && ml->link_sig == vp_rt_fork_sig))
                vp_rt.modules_stale = 1;
            return;
        }
        if (!in_signal)
            vp_rt_fork_lock_unknown = 0;
    }
    int cur = atomic_load(&vp_rt.modlist_cur);
    const struct vp_rt_modlist *old = vp_rt.modlists[cur];
    struct vp_rt_modlist *ml = vp_rt.modlists[!cur];
    /* The list's signature: the old table is kept when it matches (nothing
       loaded or unloaded since), else the list is read.  A list that moved
       under either (another thread in dlopen or dlclose) is tried again, a
       few times: each fallback to the lock is a wait that may be long. */
    int ok = 0;
    for (int attempt = 0; !vp_rt.locked_modules_only && !ok && attempt < VP_RT_UNLOCKED_TRIES;
         attempt++) {
        uint64_t now;
        if (attempt)
            sched_yield();
        if (vp_rt_link_sig(&now, vp_rt_read_unlocked) != 0)
            continue;
        if (old->link_sig_ok > 0 && now == old->link_sig) {
            vp_rt.modules_refresh[VP_RT_REFRESH_SAME]++;
            return;
        }
        ok = vp_rt_modules_scan_unlocked(ml, now, in_signal ? old : NULL) == 0;
    }
    if (ok) {
        vp_rt.modules_refresh[VP_RT_REFRESH_UNLOCKED]++;
    } else if (in_signal) {
        vp_rt.modules_refresh[VP_RT_REFRESH_OLD]++;
        return;
    } else {
        vp_rt_modules_scan(ml);
        vp_rt.modules_refresh[VP_RT_REFRESH_LOCKED]++;
    }
    atomic_store(&vp_rt.modlist_cur, !cur);
}

/* Collects the readable PT_LOAD segments of a module that dlopen can pin. */
static int vp_rt_direct_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    int *first = arg;
    int is_exe = *first;
    *first = 0;
    if (!is_exe) {
        /* Pin the module: RTLD_NODELETE makes a later dlclose a no-op, so
           its segments stay mapped.  A module that cannot be pinned this
           way (the vDSO) is not read directly. */
        if (!info->dlpi_name || !info->dlpi_name[0] ||
            !dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE))
            return 0;
    }
    for (int i = 0; i < info->dlpi_phnum && vp_rt.direct_count < VP_RT_MAX_DIRECT; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_R) || ph->p_memsz == 0)
            continue;
        /* [vaddr, vaddr + memsz) lies inside the mapping; the part past
           p_filesz (.bss) is anonymous memory of the same mapping set. */
        uint64_t lo = info->dlpi_addr + ph->p_vaddr;
        vp_rt.direct[vp_rt.direct_count].lo = lo;
        vp_rt.direct[vp_rt.direct_count].hi = lo + ph->p_memsz;
        vp_rt.direct_count++;
    }
    return 0;
}

/* Records the address ranges the signal path may read with plain loads:
   the readable PT_LOAD segments of the executable and of every module
   loaded now (its DT_NEEDED libraries and preloads), each pinned with
   RTLD_NODELETE.  Sorted and merged for a binary search.  Start-up only
   (dl_iterate_phdr, dlopen); VPROF_DIRECT_READS=0 disables it (testing).
   Can't fail: a module it cannot pin is simply read through the syscall. */
void vp_rt_direct_init(void)
{
    vp_rt.direct_count = 0;
    const char *e = getenv("VPROF_DIRECT_READS");
    vp_rt.no_direct = e && e[0] == '0';
    if (vp_rt.no_direct)
        return;
    int first = 1;
    dl_iterate_phdr(vp_rt_direct_cb, &first);
    struct vp_rt_direct *d = vp_rt.direct;
    uint32_t n = vp_rt.direct_count;
    for (uint32_t i = 1; i < n; i++) /* insertion sort: a few dozen entries */
        for (uint32_t j = i; j > 0 && d[j - 1].lo > d[j].lo; j--) {
            struct vp_rt_direct t = d[j];
            d[j] = d[j - 1];
            d[j - 1] = t;
        }
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (m > 0 && d[i].lo <= d[m - 1].hi) {
            if (d[i].hi > d[m - 1].hi)
                d[m - 1].hi = d[i].hi;
        } else {
            d[m++] = d[i];
        }
    }
    vp_rt.direct_count = m;
}

/* Interposed dl_iterate_phdr: forwards to the real one and counts calls made
   from inside our signal handler (must stay 0; see the banner). */
VP_RT_EXPORT int dl_iterate_phdr(int (*cb)(struct dl_phdr_info *, size_t, void *), void *data)
{
    static int (*real)(int (*)(struct dl_phdr_info *, size_t, void *), void *);
    if (!real)
        real = (int (*)(int (*)(struct dl_phdr_info *, size_t, void *), void *))dlsym(RTLD_NEXT,
                                                                                 "dl_iterate_phdr");
    if (vp_rt_tls_in_handler)
        atomic_fetch_add_explicit(&vp_rt.dl_iterate_in_handler, 1, memory_order_relaxed);
    return real(cb, data);
}
