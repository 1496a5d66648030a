/* SPDX-License-Identifier: Apache-2.0 */
/* Partition values, decimals and statistics (delta_value.c). */
#include "harness.h"
#include "test_delta_log_util.h"

static dl_arena arena;

static dl_status
pv(const char *text, dl_type_id id, dl_delta_value *out, dl_error *err) {
    return dl_delta_partition_value_parse(dl_str_from_cstr(text), false, dl_vec_type_prim(id), out,
                                          err);
}

TEST(test_partition_values_of_every_type) {
    dl_delta_value v;
    dl_error err;
    CHECK_OK(pv("true", DL_VEC_TYPE_BOOLEAN, &v, &err), &err);
    CHECK(v.u.b);
    CHECK_OK(pv("FALSE", DL_VEC_TYPE_BOOLEAN, &v, &err), &err);
    CHECK(!v.u.b);
    CHECK_OK(pv("-128", DL_VEC_TYPE_BYTE, &v, &err), &err);
    CHECK_INT_EQ(v.u.i64, -128);
    CHECK_STATUS(pv("128", DL_VEC_TYPE_BYTE, &v, &err), DL_ERR_CORRUPT, &err);
    CHECK_OK(pv("-32768", DL_VEC_TYPE_SHORT, &v, &err), &err);
    CHECK_OK(pv("2147483647", DL_VEC_TYPE_INT, &v, &err), &err);
    CHECK_STATUS(pv("2147483648", DL_VEC_TYPE_INT, &v, &err), DL_ERR_CORRUPT, &err);
    CHECK_OK(pv("-9223372036854775808", DL_VEC_TYPE_LONG, &v, &err), &err);
    CHECK(v.u.i64 == INT64_MIN);
    CHECK_STATUS(pv("9223372036854775808", DL_VEC_TYPE_LONG, &v, &err), DL_ERR_CORRUPT, &err);
    CHECK_OK(pv("1.5", DL_VEC_TYPE_DOUBLE, &v, &err), &err);
    CHECK(v.u.f64 == 1.5);
    CHECK_OK(pv("-Infinity", DL_VEC_TYPE_FLOAT, &v, &err), &err);
    CHECK(v.u.f64 < -1e308);
    CHECK_OK(pv("NaN", DL_VEC_TYPE_DOUBLE, &v, &err), &err);
    CHECK(v.u.f64 != v.u.f64);
    CHECK_OK(pv("2021-09-08", DL_VEC_TYPE_DATE, &v, &err), &err);
    CHECK_INT_EQ(v.u.i64, 18878);
    CHECK_OK(pv("2021-09-08 11:11:11", DL_VEC_TYPE_TIMESTAMP, &v, &err), &err);
    CHECK_INT_EQ(v.u.i64, INT64_C(1631099471000000));
    CHECK_OK(pv("1970-01-01T00:00:00.123456Z", DL_VEC_TYPE_TIMESTAMP, &v, &err), &err);
    CHECK_INT_EQ(v.u.i64, 123456);
    CHECK_OK(pv("2021-09-08 11:11:11.5", DL_VEC_TYPE_TIMESTAMP_NTZ, &v, &err), &err);
    CHECK_INT_EQ(v.u.i64, INT64_C(1631099471500000));
    CHECK_OK(pv("a/b=c", DL_VEC_TYPE_STRING, &v, &err), &err);
    CHECK(dl_str_eq_cstr(v.u.str, "a/b=c"));
    CHECK_OK(pv("\x01\x02", DL_VEC_TYPE_BINARY, &v, &err), &err);
    CHECK_INT_EQ(v.u.str.len, 2);
    CHECK_STATUS(pv("2021-13-01", DL_VEC_TYPE_DATE, &v, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "partition value \"2021-13-01\" of type date");
    CHECK_STATUS(pv("12x", DL_VEC_TYPE_INT, &v, &err), DL_ERR_CORRUPT, &err);
    CHECK_STATUS(pv("maybe", DL_VEC_TYPE_BOOLEAN, &v, &err), DL_ERR_CORRUPT, &err);
}

TEST(test_null_partition_values) {
    dl_delta_value v;
    dl_error err;
    CHECK_OK(pv("", DL_VEC_TYPE_INT, &v, &err), &err);
    CHECK(v.is_null);
    CHECK_OK(pv("", DL_VEC_TYPE_STRING, &v, &err), &err);
    CHECK(v.is_null);
    CHECK_OK(pv("__HIVE_DEFAULT_PARTITION__", DL_VEC_TYPE_DATE, &v, &err), &err);
    CHECK(v.is_null);
    CHECK_OK(dl_delta_partition_value_parse(DL_STR("5"), true, dl_vec_type_prim(DL_VEC_TYPE_INT),
                                            &v, &err),
             &err);
    CHECK(v.is_null);
    const dl_type *arr;
    CHECK_OK(dl_vec_type_array(&arena, dl_vec_type_prim(DL_VEC_TYPE_INT), true, &arr, &err), &err);
    CHECK_STATUS(dl_delta_partition_value_parse(DL_STR("[1]"), false, arr, &v, &err),
                 DL_ERR_UNSUPPORTED, &err);
}

static dl_status
dec(const char *text, int p, int s, dl_i128 *out, dl_error *err) {
    return dl_delta_decimal_parse(dl_str_from_cstr(text), p, s, out, err);
}

TEST(test_decimals_parse_exactly) {
    dl_i128 d;
    dl_error err;
    CHECK_OK(dec("123.45", 5, 2, &d, &err), &err);
    CHECK(d == 12345);
    CHECK_OK(dec("-0.5", 3, 2, &d, &err), &err);
    CHECK(d == -50);
    CHECK_OK(dec("7", 10, 3, &d, &err), &err);
    CHECK(d == 7000);
    CHECK_OK(dec("1.20", 3, 1, &d, &err), &err); /* a trailing zero beyond the scale is fine */
    CHECK(d == 12);
    CHECK_OK(dec("1E+2", 5, 0, &d, &err), &err);
    CHECK(d == 100);
    CHECK_OK(dec("2.5e-1", 5, 2, &d, &err), &err);
    CHECK(d == 25);
    CHECK_OK(dec("99999999999999999999999999999999999999", 38, 0, &d, &err), &err);
    CHECK_OK(dec("-0.00000000000000000000000000000000000001", 38, 38, &d, &err), &err);
    CHECK(d == -1);
    CHECK_OK(dec("000000000000000000000000000000000000000000001.5", 5, 1, &d, &err), &err);
    CHECK(d == 15);
    CHECK_STATUS(dec("1.25", 3, 1, &d, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "more fraction digits");
    CHECK_STATUS(dec("1000", 3, 0, &d, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "does not fit decimal(3,0)");
    CHECK_STATUS(dec("1e40", 38, 0, &d, &err), DL_ERR_CORRUPT, &err);
    CHECK_STATUS(dec("abc", 5, 0, &d, &err), DL_ERR_CORRUPT, &err);
    CHECK_STATUS(dec("1.2.3", 5, 0, &d, &err), DL_ERR_CORRUPT, &err);
    CHECK_STATUS(dec("1e", 5, 0, &d, &err), DL_ERR_CORRUPT, &err);
    CHECK_STATUS(dec("", 5, 0, &d, &err), DL_ERR_CORRUPT, &err);
}

static dl_json_doc doc;

/* Whether the MIN statistic of col reads as type with the expected payload (i64, or dec for
 * decimals; doubles must be 1.5 and strings "ab"). */
static bool
min_matches(const dl_delta_stats *st, const char *col, const dl_type *type, int64_t want) {
    const char *path[] = {col};
    dl_delta_value v;
    bool found;
    dl_error err;
    if (dl_delta_stats_get(st, DL_DELTA_STAT_MIN, path, 1, type, &v, &found, &err) != DL_OK ||
        !found || v.is_null) {
        return false;
    }
    switch (type->id) {
    case DL_VEC_TYPE_DOUBLE:
        return v.u.f64 == 1.5;
    case DL_VEC_TYPE_DECIMAL:
        return v.u.dec == want;
    case DL_VEC_TYPE_STRING:
        return dl_str_eq_cstr(v.u.str, "ab");
    default:
        return v.u.i64 == want;
    }
}

TEST(test_stats_of_every_kind) {
    static const char *const json =
        "{\"numRecords\":4,\"minValues\":{\"i\":-1,\"d\":1.5,\"m\":12.30,\"s\":\"ab\","
        "\"dt\":\"2000-01-01\",\"ts\":\"2000-01-01T00:00:00.000-08:00\",\"ntz\":"
        "\"2021-11-18T02:30:00.123\",\"n\":{\"x\":{\"y\":5}}},\"maxValues\":{\"ts\":"
        "\"2000-01-01T08:00:00.001Z\",\"i\":null},\"nullCount\":{\"i\":2,\"n\":{\"x\":{\"y\":0}}}}";
    dl_delta_stats st;
    dl_error err;
    CHECK_OK(dl_delta_stats_parse(dl_str_from_cstr(json), &doc, &st, &err), &err);
    CHECK(st.has_num_records);
    CHECK_INT_EQ(st.num_records, 4);
    CHECK(st.tight_bounds);
    const dl_type *m52;
    CHECK_OK(dl_vec_type_decimal(&arena, 5, 2, &m52, &err), &err);

    struct {
        const char *col;
        const dl_type *type;
    } cases[] = {{"i", dl_vec_type_prim(DL_VEC_TYPE_INT)},
                 {"d", dl_vec_type_prim(DL_VEC_TYPE_DOUBLE)},
                 {"m", m52},
                 {"s", dl_vec_type_prim(DL_VEC_TYPE_STRING)},
                 {"dt", dl_vec_type_prim(DL_VEC_TYPE_DATE)},
                 {"ts", dl_vec_type_prim(DL_VEC_TYPE_TIMESTAMP)},
                 {"ntz", dl_vec_type_prim(DL_VEC_TYPE_TIMESTAMP_NTZ)}};

    int64_t want[] = {-1, 0, 1230, 0, 10957, INT64_C(946713600000000), INT64_C(1637202600123000)};
    for (size_t i = 0; i < DL_ARRAY_LEN(cases); i++) {
        if (!min_matches(&st, cases[i].col, cases[i].type, want[i])) {
            HARNESS_FAIL_AT("minValues.%s differs", cases[i].col);
            return;
        }
    }
}

TEST(test_stats_bounds_nesting_and_nulls) {
    static const char *const json =
        "{\"numRecords\":4,\"minValues\":{\"i\":-1,\"s\":\"ab\",\"n\":{\"x\":{\"y\":5}}},"
        "\"maxValues\":{\"ts\":\"2000-01-01T08:00:00.001Z\",\"i\":null},"
        "\"nullCount\":{\"i\":2,\"n\":{\"x\":{\"y\":0}}}}";
    dl_delta_stats st;
    dl_error err;
    CHECK_OK(dl_delta_stats_parse(dl_str_from_cstr(json), &doc, &st, &err), &err);
    dl_delta_value v;
    bool found;
    /* A max timestamp is widened by 999 us (Spark truncates to milliseconds). */
    const char *ts[] = {"ts"};
    CHECK_OK(dl_delta_stats_get(&st, DL_DELTA_STAT_MAX, ts, 1,
                                dl_vec_type_prim(DL_VEC_TYPE_TIMESTAMP), &v, &found, &err),
             &err);
    CHECK_INT_EQ(v.u.i64, INT64_C(946713600001000) + 999);
    const char *nested[] = {"n", "x", "y"};
    CHECK_OK(dl_delta_stats_get(&st, DL_DELTA_STAT_MIN, nested, 3,
                                dl_vec_type_prim(DL_VEC_TYPE_LONG), &v, &found, &err),
             &err);
    CHECK(found);
    CHECK_INT_EQ(v.u.i64, 5);
    CHECK_OK(dl_delta_stats_get(&st, DL_DELTA_STAT_NULL_COUNT, nested, 3, NULL, &v, &found, &err),
             &err);
    CHECK(found);
    CHECK_INT_EQ(v.type_id, DL_VEC_TYPE_LONG);
    CHECK_INT_EQ(v.u.i64, 0);
    const char *i[] = {"i"};
    CHECK_OK(dl_delta_stats_get(&st, DL_DELTA_STAT_MAX, i, 1, dl_vec_type_prim(DL_VEC_TYPE_INT), &v,
                                &found, &err),
             &err);
    CHECK(found && v.is_null);
    const char *missing[] = {"zzz"};
    CHECK_OK(dl_delta_stats_get(&st, DL_DELTA_STAT_MIN, missing, 1,
                                dl_vec_type_prim(DL_VEC_TYPE_INT), &v, &found, &err),
             &err);
    CHECK(!found);
    const char *s[] = {"s"};
    CHECK_STATUS(dl_delta_stats_get(&st, DL_DELTA_STAT_MIN, s, 1, dl_vec_type_prim(DL_VEC_TYPE_INT),
                                    &v, &found, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "minValues of column 's'");
}

TEST(test_bad_stats_are_corrupt) {
    dl_delta_stats st;
    dl_error err;
    CHECK_STATUS(dl_delta_stats_parse(DL_STR("[1]"), &doc, &st, &err), DL_ERR_CORRUPT, &err);
    CHECK_STATUS(dl_delta_stats_parse(DL_STR("{\"numRecords\":\"3\"}"), &doc, &st, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "numRecords");
    CHECK_STATUS(dl_delta_stats_parse(DL_STR("{\"numRecords\":-3}"), &doc, &st, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_OK(dl_delta_stats_parse(DL_STR("{\"tightBounds\":false}"), &doc, &st, &err), &err);
    CHECK(!st.has_num_records);
    CHECK(!st.tight_bounds);
}

int
main(void) {
    dl_arena_init(&arena, NULL, 0);
    dl_json_doc_init(&doc, NULL);
    RUN(test_partition_values_of_every_type);
    RUN(test_null_partition_values);
    RUN(test_decimals_parse_exactly);
    RUN(test_stats_of_every_kind);
    RUN(test_stats_bounds_nesting_and_nulls);
    RUN(test_bad_stats_are_corrupt);
    dl_json_doc_destroy(&doc);
    dl_arena_destroy(&arena);
    return harness_finish();
}
