/* Unit tests for the JSON writer: exact bytes, escaping, misuse detection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vprof/json.h"

/* Runs fn on a fresh writer over a memory stream; returns the text and
 * the finish status. */
static char *render(void (*fn)(struct vp_json *), int pretty, int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    struct vp_json *j = vp_json_new(f, pretty);
    fn(j);
    *rc = vp_json_finish(j);
    fclose(f);
    return buf;
}

static void doc_basic(struct vp_json *j)
{
    vp_json_begin_object(j);
    vp_json_kv_str(j, "schema", "vprof-rank/1");
    vp_json_key(j, "functions");
    vp_json_begin_array(j);
    vp_json_begin_object(j);
    vp_json_kv_int(j, "rank", 1);
    vp_json_kv_double(j, "discount", 0.125);
    vp_json_kv_double(j, "cost", 3.0);
    vp_json_kv_bool(j, "ok", 1);
    vp_json_key(j, "none");
    vp_json_null(j);
    vp_json_end_object(j);
    vp_json_end_array(j);
    vp_json_key(j, "empty");
    vp_json_begin_array(j);
    vp_json_end_array(j);
    vp_json_end_object(j);
}

static void test_compact(void **state)
{
    int rc;
    char *s = render(doc_basic, 0, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(s, "{\"schema\":\"vprof-rank/1\",\"functions\":[{\"rank\":1,\"discount\":0.125,"
                           "\"cost\":3,\"ok\":true,\"none\":null}],\"empty\":[]}\n");
    free(s);
}

static void test_pretty(void **state)
{
    int rc;
    char *s = render(doc_basic, 1, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(s, "{\n  \"schema\": \"vprof-rank/1\",\n  \"functions\": [\n    {\n"
                           "      \"rank\": 1,\n      \"discount\": 0.125,\n      \"cost\": 3,\n"
                           "      \"ok\": true,\n      \"none\": null\n    }\n  ],\n"
                           "  \"empty\": []\n}\n");
    free(s);
}

static void doc_escapes(struct vp_json *j)
{
    vp_json_begin_array(j);
    vp_json_str(j, "a\"b\\c\n\t\x01");
    vp_json_str(j, "caf\xc3\xa9");   /* valid UTF-8 kept */
    vp_json_str(j, "bad\xff\xc3");   /* invalid bytes replaced */
    vp_json_str(j, NULL);
    vp_json_double(j, 1.0 / 0.0);
    vp_json_double(j, -0.0);
    vp_json_double(j, 1.5e-7);
    vp_json_int(j, -9223372036854775807LL - 1);
    vp_json_uint(j, 18446744073709551615ULL);
    vp_json_end_array(j);
}

static void test_escapes_and_numbers(void **state)
{
    int rc;
    char *s = render(doc_escapes, 0, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(s, "[\"a\\\"b\\\\c\\n\\t\\u0001\",\"caf\xc3\xa9\",\"bad\\ufffd\\ufffd\",null,"
                           "null,0,1.5e-07,-9223372036854775808,18446744073709551615]\n");
    free(s);
}

static void doc_unbalanced(struct vp_json *j) { vp_json_begin_object(j); }
static void doc_value_without_key(struct vp_json *j)
{
    vp_json_begin_object(j);
    vp_json_int(j, 1);
    vp_json_end_object(j);
}
static void doc_key_in_array(struct vp_json *j)
{
    vp_json_begin_array(j);
    vp_json_key(j, "x");
    vp_json_int(j, 1);
    vp_json_end_array(j);
}
static void doc_wrong_close(struct vp_json *j)
{
    vp_json_begin_array(j);
    vp_json_end_object(j);
}

static void test_misuse_is_reported(void **state)
{
    void (*docs[])(struct vp_json *) = {doc_unbalanced, doc_value_without_key, doc_key_in_array,
                                        doc_wrong_close};
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        int rc;
        char *s = render(docs[i], 0, &rc);
        assert_int_equal(rc, -1);
        free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compact),
        cmocka_unit_test(test_pretty),
        cmocka_unit_test(test_escapes_and_numbers),
        cmocka_unit_test(test_misuse_is_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
