/*
 * json.c - streaming JSON writer (see vprof/json.h).
 *
 * The writer tracks nesting on a small fixed stack so that commas and
 * indentation are always right, and records misuse (a value where a key is
 * due, unbalanced ends) so vp_json_finish() can report it instead of emitting
 * broken JSON.
 */
#include "vprof/json.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define VP_JSON_MAX_DEPTH 64

struct vp_json {
    FILE *out;
    int pretty;
    int depth;
    int error;
    /* per level: 'o' object or 'a' array, and how many items so far */
    char kind[VP_JSON_MAX_DEPTH];
    unsigned count[VP_JSON_MAX_DEPTH];
    int key_pending; /* a key was written, its value is next */
};

struct vp_json *vp_json_new(FILE *out, int pretty)
{
    struct vp_json *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->out = out;
    j->pretty = pretty;
    return j;
}

static void newline_indent(struct vp_json *j)
{
    if (!j->pretty)
        return;
    fputc('\n', j->out);
    for (int i = 0; i < j->depth; i++)
        fputs("  ", j->out);
}

/* Called before any value or key: writes the separator that precedes it. */
static void before_item(struct vp_json *j, int is_key)
{
    if (j->depth == 0) {
        if (j->count[0]++ > 0)
            j->error = 1; /* two top-level values */
        return;
    }
    char k = j->kind[j->depth - 1];
    if (k == 'o' && !is_key && !j->key_pending) {
        j->error = 1; /* value without key inside an object */
    }
    if (k == 'a' && is_key) {
        j->error = 1;
    }
    if (j->key_pending && !is_key) {
        j->key_pending = 0;
        return; /* value right after "key": */
    }
    if (j->count[j->depth - 1]++ > 0)
        fputc(',', j->out);
    newline_indent(j);
}

static void open_container(struct vp_json *j, char kind)
{
    before_item(j, 0);
    fputc(kind == 'o' ? '{' : '[', j->out);
    if (j->depth >= VP_JSON_MAX_DEPTH) {
        j->error = 1;
        return;
    }
    j->kind[j->depth] = kind;
    j->count[j->depth] = 0;
    j->depth++;
}

static void close_container(struct vp_json *j, char kind)
{
    if (j->depth == 0 || j->kind[j->depth - 1] != kind || j->key_pending) {
        j->error = 1;
        return;
    }
    int had_items = j->count[j->depth - 1] > 0;
    j->depth--;
    if (had_items)
        newline_indent(j);
    fputc(kind == 'o' ? '}' : ']', j->out);
}

void vp_json_begin_object(struct vp_json *j) { open_container(j, 'o'); }
void vp_json_end_object(struct vp_json *j) { close_container(j, 'o'); }
void vp_json_begin_array(struct vp_json *j) { open_container(j, 'a'); }
void vp_json_end_array(struct vp_json *j) { close_container(j, 'a'); }

/* Writes s as a JSON string.  Bytes that do not form valid UTF-8 are
 * replaced by U+FFFD so the output always parses. */
static void write_string(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', out);
    while (*p) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            fputc('\\', out);
            fputc(c, out);
            p++;
        } else if (c == '\n') {
            fputs("\\n", out);
            p++;
        } else if (c == '\t') {
            fputs("\\t", out);
            p++;
        } else if (c == '\r') {
            fputs("\\r", out);
            p++;
        } else if (c < 0x20 || c == 0x7f) {
            fprintf(out, "\\u%04x", c);
            p++;
        } else if (c < 0x80) {
            fputc(c, out);
            p++;
        } else {
            int len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
            int ok = len > 0;
            for (int i = 1; ok && i < len; i++)
                ok = (p[i] & 0xc0) == 0x80;
            if (ok) {
                fwrite(p, 1, (size_t)len, out);
                p += len;
            } else {
                fputs("\\ufffd", out);
                p++;
            }
        }
    }
    fputc('"', out);
}

void vp_json_key(struct vp_json *j, const char *key)
{
    if (j->depth == 0 || j->kind[j->depth - 1] != 'o' || j->key_pending) {
        j->error = 1;
        return;
    }
    before_item(j, 1);
    write_string(j->out, key ? key : "");
    fputs(j->pretty ? ": " : ":", j->out);
    j->key_pending = 1;
}

void vp_json_str(struct vp_json *j, const char *s)
{
    before_item(j, 0);
    if (s)
        write_string(j->out, s);
    else
        fputs("null", j->out);
}

void vp_json_int(struct vp_json *j, int64_t v)
{
    before_item(j, 0);
    fprintf(j->out, "%" PRId64, v);
}

void vp_json_uint(struct vp_json *j, uint64_t v)
{
    before_item(j, 0);
    fprintf(j->out, "%" PRIu64, v);
}

/* Doubles: integral values within 2^53 print as integers ("3"), others with
 * up to 6 significant digits and no trailing zeros ("0.125", "1.5e-07"), the
 * same on every libc that implements %g per C11. */
void vp_json_double(struct vp_json *j, double v)
{
    before_item(j, 0);
    if (!isfinite(v)) {
        fputs("null", j->out);
        return;
    }
    if (v == 0) {
        fputs("0", j->out); /* also folds -0 */
        return;
    }
    if (fabs(v) < 9007199254740992.0 && v == (double)(int64_t)v) {
        fprintf(j->out, "%" PRId64, (int64_t)v);
        return;
    }
    fprintf(j->out, "%.6g", v);
}

void vp_json_bool(struct vp_json *j, int v)
{
    before_item(j, 0);
    fputs(v ? "true" : "false", j->out);
}

void vp_json_null(struct vp_json *j)
{
    before_item(j, 0);
    fputs("null", j->out);
}

void vp_json_kv_str(struct vp_json *j, const char *key, const char *s)
{
    vp_json_key(j, key);
    vp_json_str(j, s);
}

void vp_json_kv_int(struct vp_json *j, const char *key, int64_t v)
{
    vp_json_key(j, key);
    vp_json_int(j, v);
}

void vp_json_kv_uint(struct vp_json *j, const char *key, uint64_t v)
{
    vp_json_key(j, key);
    vp_json_uint(j, v);
}

void vp_json_kv_double(struct vp_json *j, const char *key, double v)
{
    vp_json_key(j, key);
    vp_json_double(j, v);
}

void vp_json_kv_bool(struct vp_json *j, const char *key, int v)
{
    vp_json_key(j, key);
    vp_json_bool(j, v);
}

int vp_json_finish(struct vp_json *j)
{
    int rc = (j->error || j->depth != 0 || j->key_pending) ? -1 : 0;
    fputc('\n', j->out);
    if (ferror(j->out))
        rc = -1;
    free(j);
    return rc;
}
