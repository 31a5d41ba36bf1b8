/* err.c - vp_set_err (util/err.h). */
#include "util/err.h"

#include <stdarg.h>
#include <stdio.h>

#include "vprof/oneline.h"

void vp_set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    vp_oneline(err);
}
