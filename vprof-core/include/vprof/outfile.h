/*
 * outfile.h - creating the temporary file of an atomic write ("OUT.tmp.PID",
 * then rename over OUT).  The name is predictable, so it is created with
 * O_CREAT|O_EXCL|O_NOFOLLOW: a file or symlink planted at that name (in a
 * shared directory such as /tmp) makes the write fail instead of being
 * followed and truncated (docs/hardening.md).
 */
#ifndef VPROF_OUTFILE_H
#define VPROF_OUTFILE_H

#include <stdio.h>

/* A new file at `path`, mode 0644, opened for writing ("w" stream); NULL
 * with errno set (EEXIST when anything is already there, symlinks
 * included). */
FILE *vp_fopen_new(const char *path);

#endif
