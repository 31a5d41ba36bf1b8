/*
 * oneline.h - keeping an error message on one line.  The libraries' errors
 * are one line (util/err.h), but a message can quote a name read from the
 * input: a source file name from DWARF or a loop table, a module path.
 * Such names may hold any byte, a newline included; the message must not.
 */
#ifndef VPROF_ONELINE_H
#define VPROF_ONELINE_H

#include <stdio.h>

/* Replaces every control byte of `s` (below 0x20, and 0x7f) with '?', in
 * place; NULL is a no-op.  Returns s. */
static inline char *vp_oneline(char *s)
{
    for (char *p = s; p && *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
            *p = '?';
    return s;
}

/* Writes `s` to `out` as vp_oneline would show it, without a buffer (so
 * without a length limit). */
static inline void vp_oneline_fputs(const char *s, FILE *out)
{
    for (; s && *s; s++)
        fputc((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f ? '?' : *s, out);
}

#endif
