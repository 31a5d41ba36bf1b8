/*
 * json.h - a small streaming JSON writer shared by every command that prints
 * JSON (vprof report, vprof rank, vprof-loop, SARIF).  Output is
 * deterministic: keys in call order, numbers printed the same way on every
 * machine (integers exactly; doubles with "%.6g"-style shortest form that
 * round-trips to 6 significant digits; NaN/Inf become null).
 *
 * Usage:
 *     struct vp_json *j = vp_json_new(stdout, 1);
 *     vp_json_begin_object(j);
 *     vp_json_kv_str(j, "schema", "vprof-rank/1");
 *     vp_json_key(j, "functions");
 *     vp_json_begin_array(j);
 *     ...
 *     vp_json_end_array(j);
 *     vp_json_end_object(j);
 *     if (vp_json_finish(j) != 0) error();   // also frees j
 */
#ifndef VPROF_JSON_H
#define VPROF_JSON_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct vp_json;

/* pretty: 1 = indented with two spaces, 0 = compact.  Returns NULL only when
 * out of memory. */
struct vp_json *vp_json_new(FILE *out, int pretty);
void vp_json_begin_object(struct vp_json *j);
void vp_json_end_object(struct vp_json *j);
void vp_json_begin_array(struct vp_json *j);
void vp_json_end_array(struct vp_json *j);
void vp_json_key(struct vp_json *j, const char *key);
void vp_json_str(struct vp_json *j, const char *s); /* NULL -> null; escapes UTF-8 safely */
void vp_json_int(struct vp_json *j, int64_t v);
void vp_json_uint(struct vp_json *j, uint64_t v);
void vp_json_double(struct vp_json *j, double v);
void vp_json_bool(struct vp_json *j, int v);
void vp_json_null(struct vp_json *j);
/* key + value shorthands */
void vp_json_kv_str(struct vp_json *j, const char *key, const char *s);
void vp_json_kv_int(struct vp_json *j, const char *key, int64_t v);
void vp_json_kv_uint(struct vp_json *j, const char *key, uint64_t v);
void vp_json_kv_double(struct vp_json *j, const char *key, double v);
void vp_json_kv_bool(struct vp_json *j, const char *key, int v);
/* Ends output with a newline, frees j.  Returns 0, or -1 if the nesting was
 * unbalanced or a write failed. */
int vp_json_finish(struct vp_json *j);

#ifdef __cplusplus
}
#endif

#endif /* VPROF_JSON_H */
