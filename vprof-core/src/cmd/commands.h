/*
 * commands.h - the subcommands `vprof` runs itself.  Each takes the argv
 * after the subcommand name (argv[0] is the subcommand) and returns the
 * process exit status: 0 success, 1 failed / found nothing, 2 usage or input
 * error.  Any other subcommand NAME is handed to a `vprof-NAME` executable
 * next to `vprof` (git-style), e.g. `vprof loop` -> `vprof-loop`.
 */
#ifndef VPROF_CMD_COMMANDS_H
#define VPROF_CMD_COMMANDS_H

int vp_cmd_record(int argc, char **argv);
int vp_cmd_report(int argc, char **argv);
int vp_cmd_dump(int argc, char **argv);
int vp_cmd_rank(int argc, char **argv);
int vp_cmd_export(int argc, char **argv); /* cmd_export.c */
int vp_cmd_diff(int argc, char **argv);   /* cmd_diff.c   */

/* Run fn(out, ctx) on stdout, or on "<outpath>.tmp.<pid>" renamed over
   outpath when it succeeds; messages name `cmd`.  Returns the exit status
   (0, or 1 with the reason printed).  Defined in cmd_export.c. */
#include <stdio.h>
int vp_cmd_write_text(const char *cmd, const char *outpath,
                      int (*fn)(FILE *out, const void *ctx), const void *ctx);

/* Helpers shared by the subcommands (defined in cmd_report.c). */
#include <stddef.h>
#include <stdint.h>

#include "vprof/format.h"

struct vp_profile;

/* A raw value-sample value, sign- or zero-extended from the variable's size
   (a 4-byte float becomes the bit pattern of the equal double).  Can't fail. */
uint64_t vp_cmd_decode_value(const struct vp_prof_var *v, uint64_t raw);
/* A decoded value as text: signed, unsigned, %g float, or hex for pointers
   and aggregates.  Returns what snprintf returns. */
int vp_cmd_format_value(char *buf, size_t n, const struct vp_prof_var *v, uint64_t decoded);
/* "loop,cond" from vp_tag bits; "-" for none. */
void vp_cmd_format_tags(char *buf, size_t n, unsigned tags);
/* "signed", "unsigned", "float", ... for an enum vp_type_kind. */
const char *vp_cmd_kind_name(unsigned kind);
/* "optimised out", "entry_value", ... for an enum vp_coverage_reason. */
const char *vp_cmd_coverage_reason(unsigned reason);
/* "location coverage: 412 of 500 schema variables have a usable location;
   88 without: 61 optimised out, 20 entry_value, 7 unsupported". */
void vp_cmd_format_coverage(char *buf, size_t n, const struct vp_coverage *c);
/* A non-negative decimal count, or -1 if `s` is not one. */
long long vp_cmd_parse_count(const char *s);
/* Warns on stderr ("vprof <cmd>: warning: ...") for each module of the
   program's own code (built with vprof-cc: the PC index covered it) whose
   file is gone or has another build-id than the recorded one: its
   addresses cannot be symbolized, and an export would name them
   module+offset without saying why.  Returns how many. */
int vp_cmd_warn_changed(const char *cmd, const struct vp_profile *p);

#endif
