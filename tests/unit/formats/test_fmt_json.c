/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The JSON reader (src/formats/fmt_json.c) against what Spark 4.2's spark.read.json gives for
 * the same text: the inferred schema (Spark's simpleString) and the rows. The expected values
 * were read from Spark (tests/sql/load/spark_json_cases.py prints them).
 */
#include <math.h>
#include <stdlib.h>

#include "base/timefmt.h"
#include "formats/formats.h"
#include "harness.h"

static dl_status
parse_date(void *ctx, dl_str text, int64_t *out, dl_error *err) {
    (void)ctx;
    int32_t days = 0;
    DL_TRY(dl_date_parse(text, &days, err));
    *out = days;
    return DL_OK;
}

static dl_status
parse_ts(void *ctx, dl_str text, int64_t *out, dl_error *err) {
    (void)ctx;
    return dl_ts_parse(text, 0, out, err);
}

static dl_status
parse_ntz(void *ctx, dl_str text, int64_t *out, dl_error *err) {
    (void)ctx;
    return dl_ts_ntz_parse(text, false, out, err);
}

/* Drops a status the printers cannot act on (a test's output buffer growing). */
static void
keep(dl_status s) {
    (void)s;
}

static void
print_value(const dl_vector *vec, int64_t row, dl_buf *out) {
    dl_error err;
    const dl_vector *flat = NULL;
    int64_t i = dl_vec_resolve(vec, row, &flat);
    if (dl_vec_is_null(vec, row)) {
        keep(dl_buf_append_cstr(out, "NULL", &err));
        return;
    }
    const dl_type *t = flat->type;
    switch (t->id) {
    case DL_VEC_TYPE_BOOLEAN:
        keep(dl_buf_append_cstr(out, dl_vec_get_bool(flat, i) ? "true" : "false", &err));
        break;
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_DATE:
        keep(dl_buf_appendf(out, &err, "%d", ((const int32_t *)flat->data)[i]));
        break;
    case DL_VEC_TYPE_LONG:
    case DL_VEC_TYPE_TIMESTAMP:
        keep(dl_buf_appendf(out, &err, "%lld", (long long)((const int64_t *)flat->data)[i]));
        break;
    case DL_VEC_TYPE_FLOAT:
        keep(dl_buf_appendf(out, &err, "%.9g", (double)((const float *)flat->data)[i]));
        break;
    case DL_VEC_TYPE_DOUBLE:
        keep(dl_buf_appendf(out, &err, "%.17g", ((const double *)flat->data)[i]));
        break;
    case DL_VEC_TYPE_DECIMAL: {
        dl_i128 v = ((const dl_i128 *)flat->data)[i];
        keep(dl_buf_appendf(out, &err, "%lldE-%d", (long long)v, t->scale));
        break;
    }
    case DL_VEC_TYPE_STRING: {
        dl_str s = dl_vec_get_str(flat, i);
        keep(dl_buf_append(out, s.ptr, s.len, &err));
        break;
    }
    case DL_VEC_TYPE_STRUCT:
        keep(dl_buf_append_cstr(out, "{", &err));
        for (int32_t c = 0; c < flat->n_children; c++) {
            keep(dl_buf_append_cstr(out, c > 0 ? "," : "", &err));
            print_value(flat->children[c], i, out);
        }
        keep(dl_buf_append_cstr(out, "}", &err));
        break;
    case DL_VEC_TYPE_ARRAY: {
        int64_t start = 0;
        int64_t end = 0;
        dl_vec_list_bounds(flat, i, &start, &end);
        keep(dl_buf_append_cstr(out, "[", &err));
        for (int64_t k = start; k < end; k++) {
            keep(dl_buf_append_cstr(out, k > start ? "," : "", &err));
            print_value(flat->children[0], k, out);
        }
        keep(dl_buf_append_cstr(out, "]", &err));
        break;
    }
    default:
        keep(dl_buf_append_cstr(out, "?", &err));
    }
}

static dl_status
print_batch(void *ctx, dl_batch *batch, dl_error *err) {
    dl_buf *out = ctx;
    for (int64_t r = 0; r < batch->count; r++) {
        for (int32_t c = 0; c < batch->n_cols; c++) {
            keep(dl_buf_append_cstr(out, c > 0 ? "|" : "", err));
            print_value(batch->cols[c], batch->sel != NULL ? batch->sel[r] : r, out);
        }
        keep(dl_buf_append_cstr(out, "\n", err));
    }
    dl_vec_batch_free(batch);
    return DL_OK;
}

typedef struct outcome {
    dl_status status;
    char schema[512];
    char rows[2048];
    char message[1100];
} outcome;

/* Reads text with o (inferring unless schema is given), split into tiny chunks when
 * split (every line its own task). */
static void
run(const char *text, dl_fmt_json_options *o, const dl_type *schema, outcome *out) {
    dl_error err;
    dl_error_clear(&err);
    memset(out, 0, sizeof(*out));
    o->parse_date = parse_date;
    o->parse_ts = parse_ts;
    o->parse_ts_ntz = parse_ntz;
    size_t n = strlen(text);
    dl_vec_buffer *buf = NULL;
    if (dl_vec_buffer_new(NULL, n + 1, &buf, &err) != DL_OK) {
        out->status = DL_ERR_NOMEM;
        return;
    }
    memcpy(buf->data, text, n);
    buf->size = n;
    const char *name = "/t.json";
    dl_fmt_json *r = NULL;
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_buf rows;
    dl_buf_init(&rows, NULL);
    dl_status s = dl_fmt_json_new(NULL, o, &name, &buf, 1, &r, &err);
    if (s == DL_OK && schema == NULL) {
        s = dl_fmt_json_infer(r, &arena, &schema, &err);
    }
    if (s == DL_OK) {
        dl_buf ts;
        dl_buf_init(&ts, NULL);
        keep(dl_vec_type_to_string(schema, &ts, &err));
        (void)snprintf(out->schema, sizeof(out->schema), "%.*s", (int)ts.len, (char *)ts.data);
        dl_buf_destroy(&ts);
        s = dl_fmt_json_read(r, schema, print_batch, &rows, &err);
    }
    out->status = s;
    (void)snprintf(out->rows, sizeof(out->rows), "%.*s", (int)rows.len, (char *)rows.data);
    (void)snprintf(out->message, sizeof(out->message), "%s", s != DL_OK ? err.msg : "");
    dl_buf_destroy(&rows);
    dl_fmt_json_free(r);
    dl_arena_destroy(&arena);
    dl_vec_buffer_unref(buf);
}

/* Infers and reads text with the default options, whole and in one-line chunks. */
static bool
check_case(const char *text, const char *schema, const char *rows) {
    dl_fmt_json_options o;
    outcome out;
    for (int split = 0; split < 2; split++) {
        dl_fmt_json_options_init(&o);
        o.min_chunk = split ? 1 : 0;
        o.n_threads = split ? 4 : 1;
        run(text, &o, NULL, &out);
        if (out.status != DL_OK || strcmp(out.schema, schema) != 0 || strcmp(out.rows, rows) != 0) {
            printf("  split %d: status %d (%s)\n  schema %s\n  want   %s\n  rows:\n%s  want:\n%s",
                   split, (int)out.status, out.message, out.schema, schema, out.rows, rows);
            return false;
        }
    }
    return true;
}

TEST(test_infers_widening_as_spark) {
    CHECK(check_case("{\"a\":1,\"b\":\"x\"}\n{\"a\":2.5,\"c\":true}\n\n{\"b\":null}\n",
                     "struct<a:double,b:string,c:boolean>",
                     "1|x|NULL\n2.5|NULL|true\nNULL|NULL|NULL\n"));
    dl_fmt_json_options o;
    outcome out;
    dl_fmt_json_options_init(&o);
    run("{\"a\":12345678901234567890}\n{\"a\":1}\n", &o, NULL, &out);
    CHECK_STR_EQ(out.schema, "struct<a:decimal(20,0)>");
    CHECK(check_case("{\"a\":1}\n{\"a\":\"x\"}\n{\"b\":{\"x\":1}}\n{\"b\":2}\n{\"c\":[1,2]}\n"
                     "{\"c\":[1.5,null]}\n{\"d\":true}\n{\"d\":1}\n",
                     "struct<a:string,b:string,c:array<double>,d:string>",
                     "1|NULL|NULL|NULL\nx|NULL|NULL|NULL\nNULL|{\"x\":1}|NULL|NULL\n"
                     "NULL|2|NULL|NULL\nNULL|NULL|[1,2]|NULL\nNULL|NULL|[1.5,NULL]|NULL\n"
                     "NULL|NULL|NULL|true\nNULL|NULL|NULL|1\n"));
}

TEST(test_infers_nested_sorted_and_drops_empty_structs) {
    CHECK(check_case("{\"s\":{\"z\":1,\"y\":{\"q\":\"a\"}},\"arr\":[{\"k\":1},{\"j\":\"t\"}],"
                     "\"e\":[],\"o\":{}}\n",
                     "struct<arr:array<struct<j:string,k:bigint>>,e:array<string>,s:struct<y:"
                     "struct<q:string>,z:bigint>>",
                     "[{NULL,1},{t,NULL}]|[]|{{a},1}\n"));
}

TEST(test_top_level_arrays_and_corrupt_records) {
    CHECK(check_case("[{\"a\":1},{\"a\":2}]\n{\"a\":3}\n", "struct<a:bigint>", "1\n2\n3\n"));
    CHECK(check_case("{\"a\":1}\n{\"a\":\n7\n\"str\"\n{\"a\":2}\n",
                     "struct<_corrupt_record:string,a:bigint>",
                     "NULL|1\n{\"a\":|NULL\n7|NULL\n\"str\"|NULL\nNULL|2\n"));
    CHECK(check_case("{\"a\":1} x\n{\"a\":2}{\"a\":3}\n   \n  {\"a\":4}  \n", "struct<a:bigint>",
                     "1\n2\n4\n"));
}

TEST(test_dropmalformed_and_failfast) {
    dl_fmt_json_options o;
    outcome out;
    dl_fmt_json_options_init(&o);
    o.mode = DL_FMT_DROPMALFORMED;
    run("{\"a\":1}\n{\"a\":\n7\n{\"a\":2}\n", &o, NULL, &out);
    CHECK(out.status == DL_OK);
    CHECK_STR_EQ(out.schema, "struct<a:bigint>");
    CHECK_STR_EQ(out.rows, "1\n2\n");
    dl_fmt_json_options_init(&o);
    o.mode = DL_FMT_FAILFAST;
    run("{\"a\":1}\n\n{\"a\":\n", &o, NULL, &out);
    CHECK(out.status == DL_ERR_INVALID_ARG);
    CHECK(strstr(out.message, "MALFORMED_RECORD_IN_PARSING") != NULL);
    CHECK(strstr(out.message, "'/t.json': line 3") != NULL);
}

TEST(test_options_as_jackson_features) {
    dl_fmt_json_options o;
    outcome out;
    dl_fmt_json_options_init(&o);
    run("{'a':'x', \"b\":NaN, \"c\":Infinity, \"d\":-Infinity}\n", &o, NULL, &out);
    CHECK(out.status == DL_OK);
    CHECK_STR_EQ(out.schema, "struct<a:string,b:double,c:double,d:double>");
    CHECK_STR_EQ(out.rows, "x|nan|inf|-inf\n");
    dl_fmt_json_options_init(&o);
    o.allow_comments = true;
    run("{\"a\":1 /* c */, \"b\":2} // end\n# hash\n", &o, NULL, &out);
    CHECK_STR_EQ(out.schema, "struct<_corrupt_record:string,a:bigint,b:bigint>");
    CHECK_STR_EQ(out.rows, "NULL|1|2\n# hash|NULL|NULL\n");
    dl_fmt_json_options_init(&o);
    run("{\"a\":1 /* c */, \"b\":2}\n", &o, NULL, &out);
    CHECK_STR_EQ(out.schema, "struct<_corrupt_record:string>");
    dl_fmt_json_options_init(&o);
    o.allow_unquoted_names = true;
    o.allow_leading_zeros = true;
    run("{a:1, b:007}\n", &o, NULL, &out);
    CHECK_STR_EQ(out.schema, "struct<a:bigint,b:bigint>");
    CHECK_STR_EQ(out.rows, "1|7\n");
    dl_fmt_json_options_init(&o);
    o.is_primitives_as_string = true;
    run("{\"a\":1,\"b\":1.50,\"c\":true,\"d\":1e10,\"e\":{\"x\":1.0}}\n", &o, NULL, &out);
    CHECK_STR_EQ(out.schema, "struct<a:string,b:string,c:string,d:string,e:struct<x:string>>");
    CHECK_STR_EQ(out.rows, "1|1.50|true|1e10|{1.0}\n");
    dl_fmt_json_options_init(&o);
    o.is_prefers_decimal = true;
    run("{\"a\":1.5}\n{\"a\":0.001}\n{\"a\":2}\n", &o, NULL, &out);
    CHECK_STR_EQ(out.schema, "struct<a:decimal(23,3)>");
    run("{\"a\":1e10}\n", &o, NULL, &out);
    CHECK(out.status == DL_ERR_INVALID_ARG && strstr(out.message, "NEGATIVE_SCALE") != NULL);
    dl_fmt_json_options_init(&o);
    o.is_drop_all_null = true;
    run("{\"a\":null,\"b\":1}\n", &o, NULL, &out);
    CHECK_STR_EQ(out.schema, "struct<b:bigint>");
}

TEST(test_multiline_and_duplicates) {
    dl_fmt_json_options o;
    outcome out;
    dl_fmt_json_options_init(&o);
    o.is_multi_line = true;
    run("[\n {\"a\":1},\n {\"a\":2, \"b\":\"x\"}\n]\n", &o, NULL, &out);
    CHECK_STR_EQ(out.schema, "struct<a:bigint,b:string>");
    CHECK_STR_EQ(out.rows, "1|NULL\n2|x\n");
    dl_fmt_json_options_init(&o);
    run("{\"a\":1,\"a\":2}\n", &o, NULL, &out);
    CHECK(out.status == DL_ERR_INVALID_ARG && strstr(out.message, "COLUMN_ALREADY_EXISTS") != NULL);
    run("{\"a\":1,\"A\":2}\n", &o, NULL, &out);
    CHECK(out.status == DL_ERR_INVALID_ARG && strstr(out.message, "COLUMN_ALREADY_EXISTS") != NULL);
}

static const dl_type *
schema_of(dl_arena *arena, const char *const *names, const dl_type *const *types, int32_t n) {
    dl_type_field fields[8];
    for (int32_t i = 0; i < n; i++) {
        fields[i] = (dl_type_field){.name = names[i], .type = types[i], .is_nullable = true};
    }
    const dl_type *t = NULL;
    dl_error err;
    return dl_vec_type_struct(arena, fields, n, &t, &err) == DL_OK ? t : NULL;
}

static const dl_type *
prim(dl_type_id id) {
    return dl_vec_type_prim(id);
}

TEST(test_given_schema_converts_as_jacksonparser) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_fmt_json_options o;
    outcome out;
    const dl_type *str = prim(DL_VEC_TYPE_STRING);
    {
        const char *names[] = {"a", "b"};
        const dl_type *types[] = {prim(DL_VEC_TYPE_INT), prim(DL_VEC_TYPE_LONG)};
        dl_fmt_json_options_init(&o);
        run("{\"a\":1}\n{\"a\":3000000000}\n{\"a\":\"5\"}\n{\"a\":1.5}\n{\"a\":null,\"b\":1}\n", &o,
            schema_of(&arena, names, types, 2), &out);
        CHECK_STR_EQ(out.rows, "1|NULL\nNULL|NULL\nNULL|NULL\nNULL|NULL\nNULL|1\n");
    }
    {
        const char *names[] = {"a", "b", "_corrupt_record"};
        const dl_type *types[] = {prim(DL_VEC_TYPE_INT), str, str};
        dl_fmt_json_options_init(&o);
        run("{\"a\":1,\"b\":\"x\"}\n{\"a\":\"bad\",\"b\":\"y\"}\n", &o,
            schema_of(&arena, names, types, 3), &out);
        CHECK_STR_EQ(out.rows, "1|x|NULL\nNULL|y|{\"a\":\"bad\",\"b\":\"y\"}\n");
    }
    {
        const char *names[] = {"d", "_corrupt_record"};
        const dl_type *dec = NULL;
        dl_error err;
        CHECK(dl_vec_type_decimal(&arena, 5, 2, &dec, &err) == DL_OK);
        const dl_type *types[] = {dec, str};
        dl_fmt_json_options_init(&o);
        run("{\"d\":1.005}\n{\"d\":\"2.5\"}\n{\"d\":123456}\n{\"d\":1e2}\n", &o,
            schema_of(&arena, names, types, 2), &out);
        CHECK_STR_EQ(out.rows, "101E-2|NULL\n250E-2|NULL\nNULL|{\"d\":123456}\n10000E-2|NULL\n");
    }
    {
        const char *names[] = {"d", "_corrupt_record"};
        const dl_type *types[] = {prim(DL_VEC_TYPE_DOUBLE), str};
        dl_fmt_json_options_init(&o);
        run("{\"d\":\"NaN\"}\n{\"d\":\"Infinity\"}\n{\"d\":\"-INF\"}\n{\"d\":\"1.5\"}\n{\"d\":true}\n",
            &o, schema_of(&arena, names, types, 2), &out);
        CHECK_STR_EQ(out.rows,
                     "nan|NULL\ninf|NULL\n-inf|NULL\nNULL|{\"d\":\"1.5\"}\nNULL|{\"d\":true}\n");
    }
    {
        const char *names[] = {"s"};
        const dl_type *types[] = {str};
        dl_fmt_json_options_init(&o);
        run("{\"s\":1.50}\n{\"s\":true}\n{\"s\":{\"k\":[1,null]}}\n{\"s\":1e10}\n", &o,
            schema_of(&arena, names, types, 1), &out);
        CHECK_STR_EQ(out.rows, "1.50\ntrue\n{\"k\":[1,null]}\n1e10\n");
    }
    {
        const char *names[] = {"t", "_corrupt_record"};
        const dl_type *types[] = {prim(DL_VEC_TYPE_TIMESTAMP), str};
        dl_fmt_json_options_init(&o);
        run("{\"t\":\"2024-01-02T03:04:05.123Z\"}\n{\"t\":1700000000}\n{\"t\":true}\n", &o,
            schema_of(&arena, names, types, 2), &out);
        CHECK_STR_EQ(out.rows, "1704164645123000|NULL\n1700000000000000|NULL\nNULL|{\"t\":true}\n");
    }
    {
        const char *names[] = {"a", "_corrupt_record"};
        const dl_type *arr = NULL;
        dl_error err;
        CHECK(dl_vec_type_array(&arena, prim(DL_VEC_TYPE_INT), true, &arr, &err) == DL_OK);
        const dl_type *types[] = {arr, str};
        dl_fmt_json_options_init(&o);
        run("{\"a\":[1,\"x\",3]}\n{\"a\":[1,null]}\n7\n", &o, schema_of(&arena, names, types, 2),
            &out);
        CHECK_STR_EQ(out.rows, "NULL|{\"a\":[1,\"x\",3]}\n[1,NULL]|NULL\nNULL|7\n");
    }
    dl_arena_destroy(&arena);
}

int
main(void) {
    RUN(test_infers_widening_as_spark);
    RUN(test_infers_nested_sorted_and_drops_empty_structs);
    RUN(test_top_level_arrays_and_corrupt_records);
    RUN(test_dropmalformed_and_failfast);
    RUN(test_options_as_jackson_features);
    RUN(test_multiline_and_duplicates);
    RUN(test_given_schema_converts_as_jacksonparser);
    return harness_finish();
}
