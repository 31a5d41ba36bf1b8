/*
 * jsonread.h - a small strict JSON reader for the inputs vprof-loop reads
 * (the `vprof-rank/1` file).  Parses a whole document into a tree; every
 * error names the byte offset.  Internal to fixsuggest/.
 */
#ifndef VP_FIX_JSONREAD_H
#define VP_FIX_JSONREAD_H

#include <stddef.h>

enum vp_jr_type { VP_JR_NULL, VP_JR_BOOL, VP_JR_NUMBER, VP_JR_STRING, VP_JR_ARRAY, VP_JR_OBJECT };

struct vp_jr {
    int type;
    double number;      /* NUMBER, BOOL (0/1)                               */
    char *string;       /* STRING (NUL-terminated, UTF-8)                    */
    char **keys;        /* OBJECT: keys[i] names items[i]                    */
    struct vp_jr *items;/* ARRAY, OBJECT                                     */
    size_t count;
};

/* Parses `len` bytes.  Returns a tree (free with vp_jr_free) or NULL with
 * `err` set to "offset N: what is wrong". */
struct vp_jr *vp_jr_parse(const char *text, size_t len, char *err, size_t errlen);
void vp_jr_free(struct vp_jr *j);

/* Member `key` of an object, NULL if absent or `j` is not an object. */
const struct vp_jr *vp_jr_get(const struct vp_jr *j, const char *key);
/* Shorthands: the member's string / number, or `dflt` if absent or of
 * another type. */
const char *vp_jr_str(const struct vp_jr *j, const char *key, const char *dflt);
double vp_jr_num(const struct vp_jr *j, const char *key, double dflt);
/* The member's number as an integer clamped to [lo, hi] (a file may hold
 * 1e300 or -5 where a line number belongs), or `dflt` if absent, of another
 * type or NaN. */
long long vp_jr_int(const struct vp_jr *j, const char *key, long long lo, long long hi,
                    long long dflt);

#endif
