/*
 * build.c - vp_index_build: schema entries -> DWARF variables -> PC index.
 *
 * For each module: read its schema, walk every DIE once (a name hash maps
 * DWARF variable names to the schema entries that may want them), translate
 * the locations of each matching DIE into recipes, and flatten the
 * (PC range, recipe) pairs into disjoint sorted ranges.  A file-scope
 * global whose recipe does not depend on registers is placed in the PC
 * ranges of the functions that use it (schema v2 users, merged with the use
 * records of the module's other TUs; inlined copies count with their own
 * ranges).  Globals with no known user (schema v1, or no user function has
 * code), and every global under VP_INDEX_GLOBALS_EVERYWHERE, go to the
 * module's "always" list, an empty first range [0, 0) (format.h, part 3).
 */
#include <dwarf.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dwarf/dwarf_internal.h"
#include "vprof/index.h"
#include "util/err.h"
#include "symbols/decl_file.h"
#include "vprof/symbols.h"
#include "vprof/outfile.h"


/* Growable array helper: ensure room for one more element. */
#define GROW(arr, n, cap)                                                        \
    ((n) < (cap) ? 0                                                             \
                 : ((cap) = (cap) ? (cap) * 2 : 64,                              \
                    (arr = realloc_or_free(arr, (cap) * sizeof *(arr))) ? 0 : -1))

static void *realloc_or_free(void *p, size_t size)
{
    void *q = realloc(p, size);
    if (!q)
        free(p);
    return q;
}

/* ------------------------------------------------------------------ */
/* String table with de-duplication (offset 0 = "")                    */
/* ------------------------------------------------------------------ */

struct strbuf {
    char *data;
    size_t len, cap;
    uint32_t *slots; /* offsets+1 into data, open addressing */
    size_t nslots, used;
};

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int strbuf_init(struct strbuf *sb)
{
    memset(sb, 0, sizeof *sb);
    sb->cap = 256;
    sb->data = calloc(1, sb->cap);
    sb->len = 1; /* "" */
    return sb->data ? 0 : -1;
}

/* Offset of `s` in the table (added if new), or UINT32_MAX out of memory. */
static uint32_t strbuf_add(struct strbuf *sb, const char *s)
{
    if (!s[0])
        return 0;
    if (sb->used * 2 >= sb->nslots) {
        size_t n = sb->nslots ? sb->nslots * 2 : 128;
        uint32_t *ns = calloc(n, sizeof *ns);
        if (!ns)
            return UINT32_MAX;
        for (size_t i = 0; i < sb->nslots; i++) {
            if (!sb->slots[i])
                continue;
            size_t j = hash_str(sb->data + sb->slots[i] - 1) & (n - 1);
            while (ns[j])
                j = (j + 1) & (n - 1);
            ns[j] = sb->slots[i];
        }
        free(sb->slots);
        sb->slots = ns;
        sb->nslots = n;
    }
    size_t j = hash_str(s) & (sb->nslots - 1);
    while (sb->slots[j]) {
        if (strcmp(sb->data + sb->slots[j] - 1, s) == 0)
            return sb->slots[j] - 1;
        j = (j + 1) & (sb->nslots - 1);
    }
    size_t l = strlen(s) + 1;
    if (sb->len + l > UINT32_MAX - 1)
        return UINT32_MAX;
    while (sb->len + l > sb->cap) {
        char *nd = realloc(sb->data, sb->cap * 2);
        if (!nd)
            return UINT32_MAX;
        sb->data = nd;
        sb->cap *= 2;
    }
    uint32_t off = (uint32_t)sb->len;
    memcpy(sb->data + off, s, l);
    sb->len += l;
    sb->slots[j] = off + 1;
    sb->used++;
    return off;
}

static void strbuf_free(struct strbuf *sb)
{
    free(sb->data);
    free(sb->slots);
}

/* ------------------------------------------------------------------ */
/* Build state                                                         */
/* ------------------------------------------------------------------ */

/* Per schema variable (over all modules). */
struct var_state {
    int reason;            /* first failure seen, VP_COV_OK when none       */
    bool matched, located;
    uint64_t bytes_total, bytes_located;
    int32_t first_recipe;  /* chain through recipe_next, for de-duplication */
};

/* A (PC range, recipe) pair before flattening. */
struct ivl {
    uint64_t lo, hi;
    uint32_t recipe;
};

struct builder {
    /* the index being built */
    struct vp_index_module *mods;
    size_t nmods, capmods;
    struct vp_index_range *ranges;
    size_t nranges, capranges;
    uint32_t *refs;
    size_t nrefs, caprefs;
    struct vp_recipe *recipes;
    int32_t *recipe_next;  /* next recipe of the same variable, -1 */
    size_t nrecipes, caprecipes, caprnext;
    struct vp_op *ops;
    size_t nops, capops;
    struct strbuf strs;    /* index strings (module paths) */
    struct strbuf vstrs;   /* the variable table's own strings */
    struct vp_prof_var *pvars;
    struct var_state *vs;
    size_t nvars, capvars, capvs;
    /* current module */
    struct ivl *ivls;
    size_t nivls, capivls;
    uint32_t *always;
    size_t nalways, capalways;
    struct vp_dwarf_var *sv; /* schema of the current module: variables, then */
    size_t nsv;              /* ... nuses use records (VP_SCHEMA_USE_ONLY)    */
    size_t nuses;
    bool globals_everywhere; /* VP_INDEX_GLOBALS_EVERYWHERE                   */
    struct gusers *gu;       /* per sv index: merged users of a global        */
    struct uname *un;        /* distinct user function names, with code ranges */
    size_t nun, capun;
    int32_t *un_head;        /* hash of user names -> un index, chain in next  */
    size_t un_slots;
    struct pending *pend;    /* global recipes waiting for their users' ranges */
    size_t npend, cappend;
    size_t var_base;         /* var_id of sv[0] */
    int32_t *name_head;      /* hash of names -> first sv index, chain in name_next */
    int32_t *name_next;
    size_t name_slots;
    uint32_t module;
};

/* The users of one global: indices into builder.un. */
struct gusers {
    uint32_t *v;
    size_t n, cap;
};

/* One user function name and the PC ranges of its code in the module (its
   out-of-line subprogram and every inlined copy). */
struct uname {
    const char *name;
    int32_t next;          /* hash chain */
    uint64_t (*r)[2];
    size_t nr, capr;
};

/* A global's register-free recipe, placed once the users' ranges are known. */
struct pending {
    size_t si;
    uint32_t recipe;
};

/* Enclosing context while walking the DIE tree. */
struct walk_ctx {
    const char *func, *link;  /* enclosing (possibly inlined) function       */
    Dwarf_Die scope;          /* innermost DIE with PC ranges                */
    bool has_scope;
    struct vp_dwarf_frame_base fb; /* of the out-of-line subprogram          */
    const char *comp_dir;
};

static void note_reason(struct var_state *v, int reason)
{
    if (v->reason == VP_COV_OK)
        v->reason = reason;
}

/* Index of a recipe equal to `r` for variable `vi`, adding it if new;
   -1 when out of memory. */
static int64_t add_recipe(struct builder *b, size_t vi, const struct vp_dwarf_recipe *r,
                          const struct vp_dwarf_var *sv)
{
    struct var_state *v = &b->vs[vi];
    uint16_t flags = r->flags;
    uint8_t psize = 0;
    if (sv->e.type_kind == VP_TYPE_PTR_BASIC && sv->e.pointee_size > 0) {
        flags |= VP_RECIPE_DEREF_BASIC;
        psize = (uint8_t)(sv->e.pointee_size > 8 ? 8 : sv->e.pointee_size);
    }
    for (int32_t k = v->first_recipe; k >= 0; k = b->recipe_next[k]) {
        const struct vp_recipe *o = &b->recipes[k];
        if (o->flags == flags && o->op_count == r->op_count &&
            memcmp(&b->ops[o->first_op], r->ops, r->op_count * sizeof *r->ops) == 0)
            return k;
    }
    if (GROW(b->recipes, b->nrecipes, b->caprecipes) != 0)
        return -1;
    if (GROW(b->recipe_next, b->nrecipes, b->caprnext) != 0)
        return -1;
    while (b->nops + r->op_count > b->capops) {
        b->capops = b->capops ? b->capops * 2 : 256;
        if (!(b->ops = realloc_or_free(b->ops, b->capops * sizeof *b->ops)))
            return -1;
    }
    struct vp_recipe *n = &b->recipes[b->nrecipes];
    memset(n, 0, sizeof *n);
    n->var_id = (uint32_t)vi;
    n->flags = flags;
    n->size = r->ops[r->op_count - 1].size;
    n->pointee_size = psize;
    n->first_op = (uint32_t)b->nops;
    n->op_count = r->op_count;
    memcpy(&b->ops[b->nops], r->ops, r->op_count * sizeof *r->ops);
    b->nops += r->op_count;
    b->recipe_next[b->nrecipes] = v->first_recipe;
    v->first_recipe = (int32_t)b->nrecipes;
    return (int64_t)b->nrecipes++;
}

static int add_ivl(struct builder *b, uint64_t lo, uint64_t hi, uint32_t recipe)
{
    if (hi <= lo)
        return 0;
    if (GROW(b->ivls, b->nivls, b->capivls) != 0)
        return -1;
    b->ivls[b->nivls++] = (struct ivl){ lo, hi, recipe };
    return 0;
}

static int add_always(struct builder *b, uint32_t recipe)
{
    for (size_t i = 0; i < b->nalways; i++)
        if (b->always[i] == recipe)
            return 0;
    if (GROW(b->always, b->nalways, b->capalways) != 0)
        return -1;
    b->always[b->nalways++] = recipe;
    return 0;
}

#define MAX_SCOPE_RANGES 64

/* PC ranges of the scope DIE (subprogram, inlined copy or lexical block). */
static size_t scope_ranges(Dwarf_Die *scope, uint64_t (*r)[2])
{
    Dwarf_Addr base, lo, hi;
    ptrdiff_t off = 0;
    size_t n = 0;
    while (n < MAX_SCOPE_RANGES && (off = dwarf_ranges(scope, off, &base, &lo, &hi)) > 0)
        if (hi > lo && lo != 0) {
            r[n][0] = lo;
            r[n][1] = hi;
            n++;
        }
    return n;
}

static uint64_t overlap(uint64_t lo, uint64_t hi, uint64_t (*sr)[2], size_t ns)
{
    uint64_t t = 0;
    for (size_t i = 0; i < ns; i++) {
        uint64_t a = lo > sr[i][0] ? lo : sr[i][0];
        uint64_t z = hi < sr[i][1] ? hi : sr[i][1];
        if (z > a)
            t += z - a;
    }
    return t;
}

/* Place one translated recipe of variable vi over [lo, hi), or over its
   whole scope / the whole module for a single location expression. */
static int place(struct builder *b, size_t vi, const struct vp_dwarf_var *sv,
                 const struct vp_dwarf_recipe *r, bool whole, uint64_t lo, uint64_t hi,
                 uint64_t (*sr)[2], size_t ns)
{
    struct var_state *v = &b->vs[vi];
    bool global = sv->function[0] == '\0';
    int64_t k = add_recipe(b, vi, r, sv);
    if (k < 0)
        return -1;
    if (whole && global && r->is_addr_only) {
        v->located = true;
        size_t si = vi - b->var_base;
        if (b->globals_everywhere || !b->gu || b->gu[si].n == 0)
            return add_always(b, (uint32_t)k);
        if (GROW(b->pend, b->npend, b->cappend) != 0)
            return -1;
        b->pend[b->npend++] = (struct pending){ si, (uint32_t)k };
        return 0;
    }
    if (whole) {
        if (ns == 0) {
            note_reason(v, VP_COV_UNSUPPORTED_OP); /* register-based, no scope */
            return 0;
        }
        for (size_t i = 0; i < ns; i++)
            if (add_ivl(b, sr[i][0], sr[i][1], (uint32_t)k) != 0)
                return -1;
        v->bytes_located += overlap(0, UINT64_MAX, sr, ns);
    } else {
        if (add_ivl(b, lo, hi, (uint32_t)k) != 0)
            return -1;
        v->bytes_located += ns ? overlap(lo, hi, sr, ns) : hi - lo;
    }
    v->located = true;
    return 0;
}

static unsigned value_size(const struct vp_dwarf_var *sv)
{
    return sv->e.size == 0 || sv->e.size > 8 ? 8 : sv->e.size;
}

/* Turn the locations of one matched DIE into recipes and ranges. */
static int take_locations(struct builder *b, Dwarf_Die *die, const struct walk_ctx *c, size_t si)
{
    const struct vp_dwarf_var *sv = &b->sv[si];
    size_t vi = b->var_base + si;
    struct var_state *v = &b->vs[vi];
    uint64_t sr[MAX_SCOPE_RANGES][2];
    size_t ns = c->has_scope ? scope_ranges((Dwarf_Die *)&c->scope, sr) : 0;
    bool global = sv->function[0] == '\0';
    v->matched = true;
    uint64_t scope_bytes = ns ? overlap(0, UINT64_MAX, sr, ns) : 0;
    Dwarf_Attribute attr;
    struct vp_dwarf_recipe r;
    if (dwarf_attr(die, DW_AT_location, &attr)) {
        Dwarf_Addr base, lo, hi;
        Dwarf_Op *expr;
        size_t nexpr;
        ptrdiff_t off = 0;
        int any = 0;
        while ((off = dwarf_getlocations(&attr, off, &base, &lo, &hi, &expr, &nexpr)) > 0) {
            any = 1;
            /* libdw reports a single expression as covering [0, -1). */
            bool whole = lo == 0 && hi == (Dwarf_Addr)-1;
            int reason = vp_dwarf_translate(&attr, expr, nexpr, &c->fb, value_size(sv), &r);
            if (reason != VP_COV_OK) {
                note_reason(v, reason);
                continue;
            }
            if (place(b, vi, sv, &r, whole, lo, hi, sr, ns) != 0)
                return -1;
        }
        if (off < 0)
            note_reason(v, VP_COV_UNSUPPORTED_OP); /* malformed list */
        else if (!any)
            note_reason(v, VP_COV_NO_LOCATION);
    } else if (dwarf_attr_integrate(die, DW_AT_const_value, &attr)) {
        int reason = vp_dwarf_translate_const(&attr, &r);
        if (reason != VP_COV_OK)
            note_reason(v, reason);
        else if (place(b, vi, sv, &r, true, 0, 0, sr, ns) != 0)
            return -1;
    } else if (!dwarf_hasattr(die, DW_AT_declaration)) {
        /* An abstract instance has no location by design; only concrete
           DIEs say "optimised out". */
        if (ns > 0 || global)
            note_reason(v, VP_COV_NO_LOCATION);
    }
    if (!global)
        v->bytes_total += scope_bytes;
    return 0;
}

static size_t name_slot(const struct builder *b, const char *name)
{
    return hash_str(name) & (b->name_slots - 1);
}

/* The DIE's declaration file, absolute and normalised; NULL if unknown. */
static char *decl_path(Dwarf_Die *die, const char *comp_dir)
{
    const char *f = vp_dwarf_decl_file(die);
    return f ? vp_symtab_normpath(comp_dir, f) : NULL;
}

static int visit_var(struct builder *b, Dwarf_Die *die, const struct walk_ctx *c)
{
    Dwarf_Attribute a;
    const char *name = dwarf_attr_integrate(die, DW_AT_name, &a) ? dwarf_formstring(&a) : NULL;
    if (!name)
        return 0;
    int line = 0;
    dwarf_decl_line(die, &line);
    char *dfile = NULL;
    bool have_dfile = false;
    int rc = 0;
    /* Walk the hash bucket chain: entries with this name hash. */
    for (int32_t si = b->name_head[name_slot(b, name)]; si >= 0; si = b->name_next[si]) {
        const struct vp_dwarf_var *sv = &b->sv[si];
        if (strcmp(sv->name, name) != 0 || (sv->e.line && (int)sv->e.line != line))
            continue;
        if (sv->function[0]) {
            /* By linkage name when both have one: two instantiations of a
               template (Runner<A>::run, Runner<B>::run) share their name,
               their variables' names and lines, and only the linkage name
               tells them apart (each took the other's samples before
               2026-11-26).  C functions, and C++'s main, have none. */
            bool fn = sv->linkage[0] && c->link
                          ? strcmp(c->link, sv->linkage) == 0
                          : c->func && strcmp(c->func, sv->function) == 0;
            if (!fn)
                continue;
        } else if (dwarf_tag(die) != DW_TAG_variable) {
            continue;
        } else if (b->vs[b->var_base + si].located) {
            continue; /* a global has one definition; declarations repeat */
        }
        if (!have_dfile) {
            dfile = decl_path(die, c->comp_dir);
            have_dfile = true;
        }
        /* Unknown on one side: name, function and line decide. */
        if (dfile && sv->file[0] && strcmp(dfile, sv->file) != 0)
            continue;
        if (take_locations(b, die, c, (size_t)si) != 0) {
            rc = -1;
            break;
        }
    }
    free(dfile);
    return rc;
}

static bool has_pc(Dwarf_Die *die)
{
    return dwarf_hasattr(die, DW_AT_low_pc) || dwarf_hasattr(die, DW_AT_ranges);
}

/* ------------------------------------------------------------------ */
/* Where globals are used                                              */
/* ------------------------------------------------------------------ */

/* Index of user name `name` in b->un, or -1 if unknown. */
static int32_t uname_find(const struct builder *b, const char *name)
{
    if (!b->un_slots || !name)
        return -1;
    for (int32_t u = b->un_head[hash_str(name) & (b->un_slots - 1)]; u >= 0; u = b->un[u].next)
        if (strcmp(b->un[u].name, name) == 0)
            return u;
    return -1;
}

/* Index of `name` in b->un, added if new; -1 out of memory. */
static int32_t uname_add(struct builder *b, const char *name)
{
    int32_t u = uname_find(b, name);
    if (u >= 0)
        return u;
    if (b->nun * 2 >= b->un_slots) {
        size_t slots = b->un_slots ? b->un_slots * 2 : 64;
        int32_t *h = malloc(slots * sizeof *h);
        if (!h)
            return -1;
        for (size_t i = 0; i < slots; i++)
            h[i] = -1;
        for (size_t i = 0; i < b->nun; i++) {
            size_t k = hash_str(b->un[i].name) & (slots - 1);
            b->un[i].next = h[k];
            h[k] = (int32_t)i;
        }
        free(b->un_head);
        b->un_head = h;
        b->un_slots = slots;
    }
    if (GROW(b->un, b->nun, b->capun) != 0)
        return -1;
    size_t k = hash_str(name) & (b->un_slots - 1);
    b->un[b->nun] = (struct uname){ .name = name, .next = b->un_head[k] };
    b->un_head[k] = (int32_t)b->nun;
    return (int32_t)b->nun++;
}

/* Adds the user names `users[0..n)` to global si (duplicates skipped). */
static int gusers_add(struct builder *b, size_t si, const char *const *users, size_t n)
{
    struct gusers *g = &b->gu[si];
    for (size_t i = 0; i < n; i++) {
        int32_t u = uname_add(b, users[i]);
        if (u < 0)
            return -1;
        bool dup = false;
        for (size_t j = 0; j < g->n && !dup; j++)
            dup = g->v[j] == (uint32_t)u;
        if (dup)
            continue;
        if (GROW(g->v, g->n, g->cap) != 0)
            return -1;
        g->v[g->n++] = (uint32_t)u;
    }
    return 0;
}

/* The symbol other TUs name a file-scope global by. */
static const char *symbol_of(const struct vp_dwarf_var *sv)
{
    return sv->linkage[0] ? sv->linkage : sv->name;
}

/* Collects the users of every file-scope global of the module: its own TU's
   (schema v2), plus those of use records of the same symbol from the other
   TUs, whose tags are merged into the variable table too.  A use record
   matches only a definition with external linkage.  Uses in another module
   (an executable using a library's global) are not merged: the recipe's
   address is relative to the defining module. */
static int collect_users(struct builder *b)
{
    b->gu = calloc(b->nsv + 1, sizeof *b->gu);
    if (!b->gu)
        return -1;
    for (size_t si = 0; si < b->nsv; si++)
        if (b->sv[si].function[0] == '\0' && b->sv[si].nusers &&
            gusers_add(b, si, b->sv[si].users, b->sv[si].nusers) != 0)
            return -1;
    if (b->nuses == 0)
        return 0;
    /* symbol -> definitions: reuse the name hash for C (symbol == name);
       C++ definitions carry a linkage name, so look through all of them. */
    for (size_t k = 0; k < b->nuses; k++) {
        const struct vp_dwarf_var *u = &b->sv[b->nsv + k];
        for (size_t si = 0; si < b->nsv; si++) {
            const struct vp_dwarf_var *sv = &b->sv[si];
            if (sv->function[0] || !(sv->e.flags & VP_SCHEMA_EXTERNAL) ||
                strcmp(symbol_of(sv), u->name) != 0)
                continue;
            if (gusers_add(b, si, u->users, u->nusers) != 0)
                return -1;
            b->pvars[b->var_base + si].tags |= u->e.tags;
        }
    }
    return 0;
}

/* Records the code ranges of a subprogram or inlined copy whose name is a
   user of some global. */
static int note_user_code(struct builder *b, Dwarf_Die *die, const char *func, const char *link)
{
    int32_t u = uname_find(b, link);
    if (u < 0)
        u = uname_find(b, func);
    if (u < 0)
        return 0;
    uint64_t sr[MAX_SCOPE_RANGES][2];
    size_t ns = scope_ranges(die, sr);
    struct uname *un = &b->un[u];
    for (size_t i = 0; i < ns; i++) {
        if (GROW(un->r, un->nr, un->capr) != 0)
            return -1;
        un->r[un->nr][0] = sr[i][0];
        un->r[un->nr][1] = sr[i][1];
        un->nr++;
    }
    return 0;
}

/* Places each pending global recipe over the code of the global's users; a
   global none of whose users has code in the module goes to the always
   list, so it is never silently lost. */
static int place_globals(struct builder *b)
{
    for (size_t p = 0; p < b->npend; p++) {
        const struct gusers *g = &b->gu[b->pend[p].si];
        size_t placed = 0;
        for (size_t j = 0; j < g->n; j++) {
            const struct uname *un = &b->un[g->v[j]];
            for (size_t i = 0; i < un->nr; i++, placed++)
                if (add_ivl(b, un->r[i][0], un->r[i][1], b->pend[p].recipe) != 0)
                    return -1;
        }
        if (!placed && add_always(b, b->pend[p].recipe) != 0)
            return -1;
    }
    return 0;
}

/* Frees the per-module user state. */
static void users_reset(struct builder *b)
{
    if (b->gu)
        for (size_t i = 0; i < b->nsv; i++)
            free(b->gu[i].v);
    free(b->gu);
    b->gu = NULL;
    for (size_t i = 0; i < b->nun; i++)
        free(b->un[i].r);
    b->nun = 0;
    free(b->un_head);
    b->un_head = NULL;
    b->un_slots = 0;
    b->npend = 0;
}

static int walk(struct builder *b, Dwarf_Die *parent, const struct walk_ctx *c, int depth)
{
    Dwarf_Die child;
    if (depth > 128 || dwarf_child(parent, &child) != 0)
        return 0;
    do {
        int tag = dwarf_tag(&child);
        struct walk_ctx n = *c;
        Dwarf_Attribute a;
        switch (tag) {
        case DW_TAG_variable:
        case DW_TAG_formal_parameter:
            if (visit_var(b, &child, c) != 0)
                return -1;
            continue;
        case DW_TAG_subprogram:
            n.func = dwarf_attr_integrate(&child, DW_AT_name, &a) ? dwarf_formstring(&a) : NULL;
            n.link = dwarf_attr_integrate(&child, DW_AT_linkage_name, &a)
                         ? dwarf_formstring(&a)
                         : (dwarf_attr_integrate(&child, DW_AT_MIPS_linkage_name, &a)
                                ? dwarf_formstring(&a)
                                : NULL);
            n.scope = child;
            n.has_scope = has_pc(&child);
            vp_dwarf_frame_base(&child, &n.fb);
            if (n.has_scope && b->nun && note_user_code(b, &child, n.func, n.link) != 0)
                return -1;
            break;
        case DW_TAG_inlined_subroutine:
            n.func = dwarf_attr_integrate(&child, DW_AT_name, &a) ? dwarf_formstring(&a) : NULL;
            n.link = dwarf_attr_integrate(&child, DW_AT_linkage_name, &a) ? dwarf_formstring(&a)
                                                                           : NULL;
            n.scope = child;
            n.has_scope = has_pc(&child);
            if (n.has_scope && b->nun && note_user_code(b, &child, n.func, n.link) != 0)
                return -1;
            break; /* frame base stays the containing function's */
        case DW_TAG_lexical_block:
            if (has_pc(&child)) {
                n.scope = child;
                n.has_scope = true;
            }
            break;
        case DW_TAG_namespace:
        case DW_TAG_structure_type:
        case DW_TAG_class_type:
            break; /* C++ globals and static members live here */
        default:
            continue;
        }
        if (walk(b, &child, &n, depth + 1) != 0)
            return -1;
    } while (dwarf_siblingof(&child, &child) == 0);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Flattening                                                          */
/* ------------------------------------------------------------------ */

struct event {
    uint64_t at;
    int start;       /* 1 start, 0 end */
    uint32_t recipe;
};

static int cmp_event(const void *x, const void *y)
{
    const struct event *a = x, *b = y;
    if (a->at != b->at)
        return a->at < b->at ? -1 : 1;
    return a->start - b->start; /* ends first */
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* Append a range with the given (sorted, unique) recipe set. */
static int emit_range(struct builder *b, uint64_t lo, uint64_t hi, const uint32_t *set, size_t n)
{
    if (GROW(b->ranges, b->nranges, b->capranges) != 0)
        return -1;
    while (b->nrefs + n > b->caprefs) {
        b->caprefs = b->caprefs ? b->caprefs * 2 : 256;
        if (!(b->refs = realloc_or_free(b->refs, b->caprefs * sizeof *b->refs)))
            return -1;
    }
    struct vp_index_range *r = &b->ranges[b->nranges++];
    r->lo = lo;
    r->hi = hi;
    r->first_recipe = (uint32_t)b->nrefs;
    r->recipe_count = (uint32_t)n;
    if (n)
        memcpy(&b->refs[b->nrefs], set, n * sizeof *set);
    b->nrefs += n;
    return 0;
}

/* Sweep the module's intervals into disjoint ranges; adjacent ranges with
   the same recipe set are merged. */
static int flatten(struct builder *b)
{
    int rc = -1;
    struct event *ev = malloc((b->nivls * 2 + 1) * sizeof *ev);
    uint32_t *active = malloc((b->nivls + 1) * sizeof *active);
    uint32_t *set = malloc((b->nivls + 1) * sizeof *set);
    if (!ev || !active || !set)
        goto out;
    for (size_t i = 0; i < b->nivls; i++) {
        ev[2 * i] = (struct event){ b->ivls[i].lo, 1, b->ivls[i].recipe };
        ev[2 * i + 1] = (struct event){ b->ivls[i].hi, 0, b->ivls[i].recipe };
    }
    size_t nev = b->nivls * 2, nact = 0;
    qsort(ev, nev, sizeof *ev, cmp_event);
    size_t first_range = b->nranges;
    for (size_t i = 0; i < nev;) {
        uint64_t at = ev[i].at;
        for (; i < nev && ev[i].at == at; i++) {
            if (ev[i].start) {
                active[nact++] = ev[i].recipe;
            } else {
                for (size_t k = 0; k < nact; k++)
                    if (active[k] == ev[i].recipe) {
                        active[k] = active[--nact];
                        break;
                    }
            }
        }
        if (nact == 0 || i == nev)
            continue;
        uint64_t next = ev[i].at;
        memcpy(set, active, nact * sizeof *set);
        qsort(set, nact, sizeof *set, cmp_u32);
        size_t n = 0;
        for (size_t k = 0; k < nact; k++)
            if (n == 0 || set[n - 1] != set[k])
                set[n++] = set[k];
        struct vp_index_range *prev = b->nranges > first_range ? &b->ranges[b->nranges - 1] : NULL;
        if (prev && prev->hi == at && prev->recipe_count == n &&
            memcmp(&b->refs[prev->first_recipe], set, n * sizeof *set) == 0) {
            prev->hi = next;
            continue;
        }
        if (emit_range(b, at, next, set, n) != 0)
            goto out;
    }
    rc = 0;
out:
    free(ev);
    free(active);
    free(set);
    return rc;
}

/* ------------------------------------------------------------------ */
/* One module                                                          */
/* ------------------------------------------------------------------ */

static int add_vars(struct builder *b, const char *path)
{
    for (size_t i = 0; i < b->nsv; i++) {
        const struct vp_dwarf_var *sv = &b->sv[i];
        if (GROW(b->pvars, b->nvars, b->capvars) != 0 || GROW(b->vs, b->nvars, b->capvs) != 0)
            return -1;
        struct vp_prof_var *p = &b->pvars[b->nvars];
        memset(p, 0, sizeof *p);
        p->file = strbuf_add(&b->vstrs, sv->file);
        p->function = strbuf_add(&b->vstrs, sv->function);
        p->linkage = strbuf_add(&b->vstrs, sv->linkage);
        p->name = strbuf_add(&b->vstrs, sv->name);
        p->type = strbuf_add(&b->vstrs, sv->type);
        if (p->file == UINT32_MAX || p->function == UINT32_MAX || p->linkage == UINT32_MAX ||
            p->name == UINT32_MAX || p->type == UINT32_MAX)
            return -1;
        p->line = sv->e.line;
        p->tags = sv->e.tags;
        p->type_kind = sv->e.type_kind;
        p->size = sv->e.size;
        p->module = b->module;
        b->vs[b->nvars] = (struct var_state){ .reason = VP_COV_OK, .first_recipe = -1 };
        b->nvars++;
    }
    return 0;
}

static int build_name_hash(struct builder *b)
{
    size_t slots = 16;
    while (slots < b->nsv * 2)
        slots *= 2;
    free(b->name_head);
    free(b->name_next);
    b->name_head = malloc(slots * sizeof *b->name_head);
    b->name_next = malloc((b->nsv + 1) * sizeof *b->name_next);
    if (!b->name_head || !b->name_next)
        return -1;
    b->name_slots = slots;
    for (size_t i = 0; i < slots; i++)
        b->name_head[i] = -1;
    for (size_t i = b->nsv; i-- > 0;) {
        size_t s = name_slot(b, b->sv[i].name);
        b->name_next[i] = b->name_head[s];
        b->name_head[s] = (int32_t)i;
    }
    return 0;
}

/* Returns 0, 1 (no schema: skipped) or -1. */
static int do_module(struct builder *b, const char *path, char *err, size_t errlen)
{
    int rc = -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        vp_set_err(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    Dwarf *dw = NULL;
    if (!elf || elf_kind(elf) != ELF_K_ELF) {
        vp_set_err(err, errlen, "%s: not an ELF file", path);
        goto out;
    }
    b->sv = NULL;
    b->nsv = 0;
    int s = vp_dwarf_schema_read(elf, path, &b->sv, &b->nsv, err, errlen);
    if (s != 0) {
        rc = s;
        goto out;
    }
    /* Use records are not variables: move them behind the entries. */
    size_t nall = b->nsv, k = 0;
    for (size_t i = 0; i < nall; i++)
        if (!(b->sv[i].e.flags & VP_SCHEMA_USE_ONLY)) {
            struct vp_dwarf_var t = b->sv[k];
            b->sv[k++] = b->sv[i];
            b->sv[i] = t;
        }
    b->nsv = k;
    b->nuses = nall - k;
    b->module = (uint32_t)b->nmods;
    b->var_base = b->nvars;
    b->nivls = b->nalways = 0;
    if (add_vars(b, path) != 0 || build_name_hash(b) != 0)
        goto oom;
    if (collect_users(b) != 0)
        goto oom;

    dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
    if (dw) {
        Dwarf_CU *cu = NULL;
        Dwarf_Die cudie;
        uint8_t ut;
        while (dwarf_get_units(dw, cu, &cu, NULL, &ut, &cudie, NULL) == 0) {
            if (ut != DW_UT_compile && ut != DW_UT_partial)
                continue;
            Dwarf_Attribute a;
            struct walk_ctx c = { 0 };
            c.comp_dir = dwarf_attr(&cudie, DW_AT_comp_dir, &a) ? dwarf_formstring(&a) : NULL;
            if (walk(b, &cudie, &c, 0) != 0)
                goto oom;
        }
    }
    for (size_t i = 0; i < b->nsv; i++) {
        struct var_state *v = &b->vs[b->var_base + i];
        if (!v->matched)
            v->reason = VP_COV_NO_DIE;
    }
    if (place_globals(b) != 0)
        goto oom;

    if (GROW(b->mods, b->nmods, b->capmods) != 0)
        goto oom;
    struct vp_index_module *m = &b->mods[b->nmods];
    memset(m, 0, sizeof *m);
    char real[PATH_MAX];
    m->path = strbuf_add(&b->strs, realpath(path, real) ? real : path);
    if (m->path == UINT32_MAX)
        goto oom;
    const void *id;
    ssize_t idlen = dwelf_elf_gnu_build_id(elf, &id);
    if (idlen > 0 && (size_t)idlen <= sizeof m->build_id) {
        m->build_id_len = (uint32_t)idlen;
        memcpy(m->build_id, id, (size_t)idlen);
    }
    m->first_range = (uint32_t)b->nranges;
    if (b->nalways) {
        qsort(b->always, b->nalways, sizeof *b->always, cmp_u32);
        if (emit_range(b, 0, 0, b->always, b->nalways) != 0)
            goto oom;
    }
    if (flatten(b) != 0)
        goto oom;
    m->range_count = (uint32_t)(b->nranges - m->first_range);
    b->nmods++;
    rc = 0;
    goto out;
oom:
    vp_set_err(err, errlen, "%s: out of memory building the PC index", path);
    rc = -1;
out:
    users_reset(b);
    vp_dwarf_schema_free(b->sv, b->nsv + b->nuses);
    b->sv = NULL;
    b->nsv = b->nuses = 0;
    if (dw)
        dwarf_end(dw);
    if (elf)
        elf_end(elf);
    close(fd);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

static size_t align8(size_t x) { return (x + 7) & ~(size_t)7; }

static void coverage_of(const struct builder *b, struct vp_coverage *cov)
{
    memset(cov, 0, sizeof *cov);
    cov->schema_vars = (uint32_t)b->nvars;
    for (size_t i = 0; i < b->nvars; i++) {
        const struct var_state *v = &b->vs[i];
        /* by_reason: the first reason a variable lost coverage somewhere,
           so a variable located except where it needs an entry value counts
           under VP_COV_ENTRY_VALUE; VP_COV_OK = located everywhere it has a
           location.  The counts sum to schema_vars. */
        if (v->located)
            cov->located++;
        if (v->located || v->reason != VP_COV_OK)
            cov->by_reason[v->reason]++;
        else
            cov->by_reason[VP_COV_NO_LOCATION]++;
        cov->pc_bytes_total += v->bytes_total;
        cov->pc_bytes_located +=
            v->bytes_located < v->bytes_total ? v->bytes_located : v->bytes_total;
    }
}

static int write_index(const struct builder *b, const struct vp_coverage *cov,
                       const char *out_path, char *err, size_t errlen)
{
    struct vp_index_header h = { 0 };
    struct vp_vartab_header vt = { (uint32_t)b->nvars, (uint32_t)b->vstrs.len };
    size_t off = align8(sizeof h);
#define PLACE(cnt, offf, n, elem)                 \
    do {                                          \
        h.cnt = (uint32_t)(n);                    \
        h.offf = (uint32_t)off;                   \
        off = align8(off + (size_t)(n) * (elem)); \
    } while (0)
    PLACE(module_count, modules_off, b->nmods, sizeof *b->mods);
    PLACE(range_count, ranges_off, b->nranges, sizeof *b->ranges);
    PLACE(refs_count, refs_off, b->nrefs, sizeof *b->refs);
    PLACE(recipe_count, recipes_off, b->nrecipes, sizeof *b->recipes);
    PLACE(op_count, ops_off, b->nops, sizeof *b->ops);
    PLACE(strings_size, strings_off, b->strs.len, 1);
    size_t vtsize = sizeof vt + b->nvars * sizeof *b->pvars + b->vstrs.len;
    PLACE(vartab_size, vartab_off, vtsize, 1);
    PLACE(coverage_size, coverage_off, sizeof *cov, 1);
#undef PLACE
    if (off > UINT32_MAX) {
        vp_set_err(err, errlen, "%s: index would exceed 4 GiB", out_path);
        return -1;
    }
    h.magic = VP_INDEX_MAGIC;
    h.version = VP_INDEX_VERSION;
    h.header_size = sizeof h;
    h.file_size = off;
    unsigned char *buf = calloc(1, off);
    if (!buf) {
        vp_set_err(err, errlen, "%s: out of memory", out_path);
        return -1;
    }
    memcpy(buf, &h, sizeof h);
#define COPY(o, src, bytes) \
    if (bytes)              \
    memcpy(buf + (o), src, bytes)
    COPY(h.modules_off, b->mods, b->nmods * sizeof *b->mods);
    COPY(h.ranges_off, b->ranges, b->nranges * sizeof *b->ranges);
    COPY(h.refs_off, b->refs, b->nrefs * sizeof *b->refs);
    COPY(h.recipes_off, b->recipes, b->nrecipes * sizeof *b->recipes);
    COPY(h.ops_off, b->ops, b->nops * sizeof *b->ops);
    COPY(h.strings_off, b->strs.data, b->strs.len);
    COPY(h.vartab_off, &vt, sizeof vt);
    COPY(h.vartab_off + sizeof vt, b->pvars, b->nvars * sizeof *b->pvars);
    COPY(h.vartab_off + sizeof vt + b->nvars * sizeof *b->pvars, b->vstrs.data, b->vstrs.len);
    COPY(h.coverage_off, cov, sizeof *cov);
#undef COPY

    /* Atomic replace: a runtime mapping the old file never sees a mix. */
    size_t tl = strlen(out_path) + 32;
    char *tmp = malloc(tl);
    int rc = -1;
    if (!tmp) {
        vp_set_err(err, errlen, "%s: out of memory", out_path);
        free(buf);
        return -1;
    }
    snprintf(tmp, tl, "%s.tmp.%ld", out_path, (long)getpid());
    FILE *f = vp_fopen_new(tmp);
    if (!f) {
        vp_set_err(err, errlen, "%s: %s", tmp, strerror(errno));
        goto done;
    }
    bool ok = fwrite(buf, 1, off, f) == off;
    ok = (fclose(f) == 0) && ok;
    if (!ok) {
        vp_set_err(err, errlen, "%s: write failed: %s", tmp, strerror(errno));
        unlink(tmp);
        goto done;
    }
    if (rename(tmp, out_path) != 0) {
        vp_set_err(err, errlen, "%s: %s", out_path, strerror(errno));
        unlink(tmp);
        goto done;
    }
    rc = 0;
done:
    free(tmp);
    free(buf);
    return rc;
}

static void builder_free(struct builder *b)
{
    free(b->mods);
    free(b->ranges);
    free(b->refs);
    free(b->recipes);
    free(b->recipe_next);
    free(b->ops);
    strbuf_free(&b->strs);
    strbuf_free(&b->vstrs);
    free(b->pvars);
    free(b->vs);
    free(b->ivls);
    free(b->always);
    free(b->name_head);
    free(b->name_next);
    free(b->un);
    free(b->pend);
}

int vp_index_build(const char *const *elf_paths, size_t n, const char *out_path,
                   struct vp_index_stats *stats, char *err, size_t errlen)
{
    return vp_index_build_opts(elf_paths, n, out_path, NULL, stats, err, errlen);
}

int vp_index_build_opts(const char *const *elf_paths, size_t n, const char *out_path,
                        const struct vp_index_options *opts, struct vp_index_stats *stats,
                        char *err, size_t errlen)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    elf_version(EV_CURRENT);
    struct builder b;
    memset(&b, 0, sizeof b);
    int rc = -1;
    b.globals_everywhere = opts && (opts->flags & VP_INDEX_GLOBALS_EVERYWHERE);
    if (strbuf_init(&b.strs) != 0 || strbuf_init(&b.vstrs) != 0) {
        vp_set_err(err, errlen, "%s: out of memory", out_path);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        int r = do_module(&b, elf_paths[i], err, errlen);
        if (r < 0)
            goto out;
    }
    if (b.nmods == 0) {
        rc = 1;
        goto out;
    }
    struct vp_coverage cov;
    coverage_of(&b, &cov);
    if (write_index(&b, &cov, out_path, err, errlen) != 0)
        goto out;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (stats) {
        stats->coverage = cov;
        stats->modules = (uint32_t)b.nmods;
        stats->ranges = (uint32_t)b.nranges;
        stats->recipes = (uint32_t)b.nrecipes;
        stats->build_ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
                          (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    }
    rc = 0;
out:
    builder_free(&b);
    return rc;
}
