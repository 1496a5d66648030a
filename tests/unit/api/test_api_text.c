/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Columns of hand-built batches as the API's text getter shows them (Spark's CAST(x AS
 * STRING)), through every layout and a selection: the text the shell prints and the
 * sqllogictest runner compares.
 */
#include <math.h>
#include <string.h>

#include "api/api_int.h"
#include "base/timefmt.h"
#include "harness.h"

static dl_arena arena;

/* A one-column batch over vec (taking a reference), count rows, optional selection. */
static dl_batch *
batch_of(dl_vector *vec, int64_t count, const uint32_t *sel, int64_t n_sel) {
    dl_type_field f = {.name = "c", .type = vec->type, .is_nullable = true};
    const dl_type *schema = NULL;
    dl_batch *b = NULL;
    dl_error err;
    if (dl_vec_type_struct(&arena, &f, 1, &schema, &err) != DL_OK ||
        dl_vec_batch_new(NULL, schema, 0, &b, &err) != DL_OK) {
        return NULL;
    }
    dl_vec_batch_set_col(b, 0, dl_vec_ref(vec));
    dl_vec_batch_set_count(b, count);
    if (sel != NULL && dl_vec_batch_set_sel(b, sel, n_sel, &err) != DL_OK) {
        dl_vec_batch_free(b);
        return NULL;
    }
    return b;
}

/* The texts of the batch's live rows joined with '|' ("NULL" for NULL). */
static const char *
texts(const char *zone, dl_vector *vec, int64_t count, const uint32_t *sel, int64_t n_sel) {
    static char out[4096];
    static dl_error err;
    dl_batch *b = batch_of(vec, count, sel, n_sel);
    if (b == NULL) {
        return "(no batch)";
    }
    dl_vector *text = NULL;
    if (dl_api_text_column(zone, b, 0, NULL, &text, &err) != DL_OK) {
        dl_vec_batch_free(b);
        return err.msg;
    }
    size_t len = 0;
    out[0] = '\0';
    for (int64_t i = 0; i < b->count && len < sizeof(out) - 64; i++) {
        dl_str s = dl_vec_is_null(text, i) ? DL_STR("NULL") : dl_vec_get_str(text, i);
        int n = snprintf(out + len, sizeof(out) - len, "%s%.*s", i ? "|" : "", DL_STR_FMT(s));
        len += n > 0 ? (size_t)n : 0;
    }
    dl_vec_unref(text);
    dl_vec_batch_free(b);
    return out;
}

static dl_vector *
new_vec(const dl_type *t) {
    dl_vector *v = NULL;
    dl_error err;
    return dl_vec_new(NULL, t, 8, &v, &err) == DL_OK ? v : NULL;
}

static const dl_type *
prim(dl_type_id id) {
    return dl_vec_type_prim(id);
}

TEST(test_text_of_doubles_is_javas) {
    dl_error err;
    dl_vector *v = new_vec(prim(DL_VEC_TYPE_DOUBLE));
    CHECK(v != NULL);
    double values[] = {1.0, 1e7, 1e-4, 0.1, -0.0, (double)NAN, -(double)INFINITY, 4.9e-324};
    for (size_t i = 0; i < DL_ARRAY_LEN(values); i++) {
        CHECK_OK(dl_vec_append_f64(v, values[i], &err), &err);
    }
    CHECK_STR_EQ(texts(NULL, v, 8, NULL, 0), "1.0|1.0E7|1.0E-4|0.1|-0.0|NaN|-Infinity|4.9E-324");
    dl_vec_unref(v);
    dl_vector *f = new_vec(prim(DL_VEC_TYPE_FLOAT));
    CHECK_OK(dl_vec_append_f32(f, 0.1f, &err), &err);
    CHECK_OK(dl_vec_append_f32(f, 3.4028235e38f, &err), &err);
    CHECK_STR_EQ(texts(NULL, f, 2, NULL, 0), "0.1|3.4028235E38");
    dl_vec_unref(f);
}

TEST(test_text_of_decimals_keeps_the_scale_in_plain_digits) {
    dl_error err;
    const dl_type *d = NULL;
    CHECK_OK(dl_vec_type_decimal(&arena, 10, 8, &d, &err), &err);
    dl_vector *v = new_vec(d);
    CHECK_OK(dl_vec_append_i128(v, 2550000000, &err), &err);
    CHECK_OK(dl_vec_append_i128(v, -5000000, &err), &err);
    CHECK_OK(dl_vec_append_i128(v, 10, &err), &err);
    CHECK_OK(dl_vec_append_null(v, &err), &err);
    CHECK_STR_EQ(texts(NULL, v, 4, NULL, 0), "25.50000000|-0.05000000|0.00000010|NULL");
    dl_vec_unref(v);
}

TEST(test_text_of_times_follows_the_session_zone) {
    dl_error err;
    int64_t base = INT64_C(20728) * DL_MICROS_PER_DAY + 8 * DL_MICROS_PER_HOUR;
    dl_vector *ts = new_vec(prim(DL_VEC_TYPE_TIMESTAMP));
    CHECK_OK(dl_vec_append_i64(ts, base, &err), &err);
    CHECK_OK(dl_vec_append_i64(ts, base + 500000, &err), &err);
    CHECK_STR_EQ(texts(NULL, ts, 2, NULL, 0), "2026-10-02 08:00:00|2026-10-02 08:00:00.5");
    CHECK_STR_EQ(texts("+02:00", ts, 2, NULL, 0), "2026-10-02 10:00:00|2026-10-02 10:00:00.5");
    CHECK_STR_EQ(texts("America/New_York", ts, 1, NULL, 0), "2026-10-02 04:00:00");
    dl_vec_unref(ts);
    dl_vector *ntz = new_vec(prim(DL_VEC_TYPE_TIMESTAMP_NTZ));
    CHECK_OK(dl_vec_append_i64(ntz, base, &err), &err);
    CHECK_STR_EQ(texts("+02:00", ntz, 1, NULL, 0), "2026-10-02 08:00:00");
    dl_vec_unref(ntz);
    dl_vector *d = new_vec(prim(DL_VEC_TYPE_DATE));
    CHECK_OK(dl_vec_append_i32(d, 20728, &err), &err);
    CHECK_OK(dl_vec_append_i32(d, -1, &err), &err);
    CHECK_STR_EQ(texts(NULL, d, 2, NULL, 0), "2026-10-02|1969-12-31");
    dl_vec_unref(d);
}

TEST(test_text_of_scalars_booleans_strings_and_intervals) {
    dl_error err;
    dl_vector *b = new_vec(prim(DL_VEC_TYPE_BOOLEAN));
    CHECK_OK(dl_vec_append_bool(b, true, &err), &err);
    CHECK_OK(dl_vec_append_bool(b, false, &err), &err);
    CHECK_STR_EQ(texts(NULL, b, 2, NULL, 0), "true|false");
    dl_vec_unref(b);
    dl_vector *s = new_vec(prim(DL_VEC_TYPE_STRING));
    CHECK_OK(dl_vec_append_str(s, "a longer string than twelve", 27, &err), &err);
    CHECK_OK(dl_vec_append_str(s, "", 0, &err), &err);
    CHECK_STR_EQ(texts(NULL, s, 2, NULL, 0), "a longer string than twelve|");
    dl_vec_unref(s);
    dl_vector *l = new_vec(prim(DL_VEC_TYPE_LONG));
    CHECK_OK(dl_vec_append_i64(l, INT64_MIN, &err), &err);
    CHECK_STR_EQ(texts(NULL, l, 1, NULL, 0), "-9223372036854775808");
    dl_vec_unref(l);
    dl_vector *ym = new_vec(prim(DL_VEC_TYPE_INTERVAL_YM));
    CHECK_OK(dl_vec_append_i32(ym, -14, &err), &err);
    CHECK_STR_EQ(texts(NULL, ym, 1, NULL, 0), "INTERVAL '-1-2' YEAR TO MONTH");
    dl_vec_unref(ym);
    dl_vector *dt = new_vec(prim(DL_VEC_TYPE_INTERVAL_DT));
    CHECK_OK(dl_vec_append_i64(dt, 3 * DL_MICROS_PER_DAY + 4 * DL_MICROS_PER_HOUR + 500000, &err),
             &err);
    CHECK_STR_EQ(texts(NULL, dt, 1, NULL, 0), "INTERVAL '3 04:00:00.5' DAY TO SECOND");
    dl_vec_unref(dt);
}

TEST(test_text_of_nested_values_writes_null_inside) {
    dl_error err;
    const dl_type *i32 = prim(DL_VEC_TYPE_INT);
    const dl_type *arr = NULL;
    CHECK_OK(dl_vec_type_array(&arena, i32, true, &arr, &err), &err);
    dl_vector *a = new_vec(arr);
    CHECK_OK(dl_vec_append_i32(a->children[0], 1, &err), &err);
    CHECK_OK(dl_vec_append_null(a->children[0], &err), &err);
    CHECK_OK(dl_vec_append_list(a, &err), &err);
    CHECK_OK(dl_vec_append_list(a, &err), &err);
    CHECK_STR_EQ(texts(NULL, a, 2, NULL, 0), "[1, null]|[]");
    dl_vec_unref(a);
    const dl_type *map = NULL;
    CHECK_OK(dl_vec_type_map(&arena, prim(DL_VEC_TYPE_STRING), i32, true, &map, &err), &err);
    dl_vector *m = new_vec(map);
    dl_vector *e = m->children[0];
    CHECK_OK(dl_vec_append_str(e->children[0], "mode", 4, &err), &err);
    CHECK_OK(dl_vec_append_i32(e->children[1], 1, &err), &err);
    CHECK_OK(dl_vec_append_struct(e, &err), &err);
    CHECK_OK(dl_vec_append_str(e->children[0], "x", 1, &err), &err);
    CHECK_OK(dl_vec_append_null(e->children[1], &err), &err);
    CHECK_OK(dl_vec_append_struct(e, &err), &err);
    CHECK_OK(dl_vec_append_list(m, &err), &err);
    CHECK_STR_EQ(texts(NULL, m, 1, NULL, 0), "{mode -> 1, x -> null}");
    dl_vec_unref(m);
    dl_type_field fields[2] = {
        {.name = "a", .type = i32, .is_nullable = true},
        {.name = "b", .type = prim(DL_VEC_TYPE_STRING), .is_nullable = true}};
    const dl_type *st = NULL;
    CHECK_OK(dl_vec_type_struct(&arena, fields, 2, &st, &err), &err);
    dl_vector *s = new_vec(st);
    CHECK_OK(dl_vec_append_i32(s->children[0], 7, &err), &err);
    CHECK_OK(dl_vec_append_str(s->children[1], "x", 1, &err), &err);
    CHECK_OK(dl_vec_append_struct(s, &err), &err);
    CHECK_OK(dl_vec_append_null(s->children[0], &err), &err);
    CHECK_OK(dl_vec_append_null(s->children[1], &err), &err);
    CHECK_OK(dl_vec_append_struct(s, &err), &err);
    CHECK_STR_EQ(texts(NULL, s, 2, NULL, 0), "{7, x}|{null, null}");
    dl_vec_unref(s);
}

TEST(test_text_follows_dictionary_constant_and_selection) {
    dl_error err;
    dl_vector *dict = new_vec(prim(DL_VEC_TYPE_STRING));
    CHECK_OK(dl_vec_append_str(dict, "red", 3, &err), &err);
    CHECK_OK(dl_vec_append_str(dict, "green", 5, &err), &err);
    dl_vector *v = new_vec(prim(DL_VEC_TYPE_STRING));
    CHECK_OK(dl_vec_set_dict(v, dict, &err), &err);
    CHECK_OK(dl_vec_append_index(v, 1, &err), &err);
    CHECK_OK(dl_vec_append_null(v, &err), &err);
    CHECK_OK(dl_vec_append_index(v, 0, &err), &err);
    CHECK_STR_EQ(texts(NULL, v, 3, NULL, 0), "green|NULL|red");
    uint32_t sel[2] = {0, 2};
    CHECK_STR_EQ(texts(NULL, v, 3, sel, 2), "green|red");
    dl_vec_unref(v);
    dl_vec_unref(dict);
    dl_vector *c = new_vec(prim(DL_VEC_TYPE_INT));
    CHECK_OK(dl_vec_append_i32(c, 42, &err), &err);
    dl_vec_make_const(c, 100);
    uint32_t sel2[2] = {5, 99};
    CHECK_STR_EQ(texts(NULL, c, 100, sel2, 2), "42|42");
    dl_vec_unref(c);
}

int
main(void) {
    dl_arena_init(&arena, NULL, 0);
    RUN(test_text_of_doubles_is_javas);
    RUN(test_text_of_decimals_keeps_the_scale_in_plain_digits);
    RUN(test_text_of_times_follows_the_session_zone);
    RUN(test_text_of_scalars_booleans_strings_and_intervals);
    RUN(test_text_of_nested_values_writes_null_inside);
    RUN(test_text_follows_dictionary_constant_and_selection);
    dl_arena_destroy(&arena);
    return harness_finish();
}
