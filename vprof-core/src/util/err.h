/*
 * err.h - the error-message convention of vprof-core's libraries: a
 * function that can fail takes `char *err, size_t errlen` and, on failure,
 * writes one line there (no trailing newline) and returns -1 or NULL.
 */
#ifndef VPROF_UTIL_ERR_H
#define VPROF_UTIL_ERR_H

#include <stddef.h>

/* printf into err (truncated to errlen); a NULL err or errlen 0 is a no-op.
 * Can't fail. */
void vp_set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
