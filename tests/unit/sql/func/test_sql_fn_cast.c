/* SPDX-License-Identifier: Apache-2.0 */
/* Casts and type coercion (sql_cast*.c): Spark's results for every family of casts, in legacy,
 * ANSI and TRY modes, over flat, constant and dictionary vectors. */
#include <math.h>

#include "fn_test_util.h"
#include "harness.h"
#include "sql/func/sql_fn_int.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Casts the column of texts (of type from) to type to in mode; all rows joined with '|'. */
static const char *
cast_texts(tf *t, dl_sql_cast_mode mode, const char *from, const char *to, int n,
           const char *const *texts) {
    dl_vector *src = tf_col(t, from, n, texts);
    if (src == NULL) {
        return "ERROR: building the input";
    }
    dl_vector *out = NULL;
    if (dl_vec_new(NULL, tf_type(t, to), n, &out, &t->err) != DL_OK) {
        return "ERROR: new";
    }
    dl_status s = dl_sql_cast(&t->env, mode, src, n, out, &t->err);
    const char *res =
        s == DL_OK ? tf_texts(t, out) : dl_arena_printf(&t->arena, "ERROR: %s", t->err.msg);
    dl_vec_unref(out);
    return res;
}

static const char *
cast1(tf *t, dl_sql_cast_mode mode, const char *from, const char *to, const char *text) {
    return cast_texts(t, mode, from, to, 1, &text);
}

static const char *
dbl(tf *t, double d) {
    char buf[40];
    dl_sql_format_double(d, buf);
    return dl_arena_strndup(&t->arena, buf, strlen(buf));
}

TEST(test_double_to_string_prints_like_java) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(dbl(&t, 1e10), "1.0E10");
    CHECK_STR_EQ(dbl(&t, 0.1), "0.1");
    CHECK_STR_EQ(dbl(&t, 100.0), "100.0");
    CHECK_STR_EQ(dbl(&t, 1e7), "1.0E7");
    CHECK_STR_EQ(dbl(&t, 9999999.0), "9999999.0");
    CHECK_STR_EQ(dbl(&t, 0.001), "0.001");
    CHECK_STR_EQ(dbl(&t, 0.0001), "1.0E-4");
    CHECK_STR_EQ(dbl(&t, -1.5e-10), "-1.5E-10");
    CHECK_STR_EQ(dbl(&t, 123456789.012), "1.23456789012E8");
    CHECK_STR_EQ(dbl(&t, 0.30000000000000004), "0.30000000000000004");
    CHECK_STR_EQ(dbl(&t, -0.0), "-0.0");
    CHECK_STR_EQ(dbl(&t, (double)NAN), "NaN");
    CHECK_STR_EQ(dbl(&t, -(double)INFINITY), "-Infinity");
    CHECK_STR_EQ(dbl(&t, 1.7976931348623157e308), "1.7976931348623157E308");
    CHECK_STR_EQ(dbl(&t, 4.9e-324), "4.9E-324");
    tf_destroy(&t);
}

TEST(test_float_to_string_uses_float_digits_and_widens_exactly) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "float", "string", "1.1"), "1.1");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "float", "double", "1.1"), "1.100000023841858");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "string", "float", "3.4e39"), "Infinity");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "string", "double", " -INF "), "-Infinity");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "string", "double", "1.5d"), "1.5");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "string", "double", "1.5x"), "NULL");
    tf_destroy(&t);
}

TEST(test_decimal_rounds_half_up_and_prints_its_scale) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *in[] = {"1.005", "-1.005", "0.004", "999.994", "999.995", "NULL"};
    CHECK_STR_EQ(cast_texts(&t, DL_SQL_CAST_LEGACY, "string", "decimal(5,2)", N(in), in),
                 "1.01|-1.01|0.00|999.99|NULL|NULL");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "string", "decimal(10,3)", "-2.5e2"), "-250.000");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "decimal(10,4)", "decimal(6,1)", "12.3456"), "12.3");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "double", "decimal(10,2)", "0.125"), "0.13");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "double", "decimal(10,2)", "1e20"), "NULL");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "decimal(20,10)", "double", "0.1000000000"), "0.1");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "int", "decimal(3,1)", "99"), "99.0");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "int", "decimal(3,1)", "100"), "NULL");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "decimal(12,2)", "int", "-12345.99"), "-12345");
    tf_destroy(&t);
}

TEST(test_decimal_text_is_scientific_in_legacy_mode_and_plain_in_ansi_mode) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "string", "decimal(38,18)", "0"), "0E-18");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "string", "decimal(20,10)", "0.0000000001"),
                 "1E-10");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "string", "decimal(20,10)", "0.000001"),
                 "0.0000010000");
    tf_destroy(&t);
    tf_init(&t, true, "UTC");
    dl_vector *v = tf_col(&t, "decimal(38,18)", 1, (const char *[]){"0"});
    dl_vector *s = NULL;
    CHECK_OK(dl_vec_new(NULL, dl_vec_type_prim(DL_VEC_TYPE_STRING), 1, &s, &t.err), &t.err);
    CHECK_OK(dl_sql_cast(&t.env, DL_SQL_CAST_ANSI, v, 1, s, &t.err), &t.err);
    dl_str text = dl_vec_get_str(s, 0);
    CHECK(dl_str_eq_cstr(text, "0.000000000000000000"));
    dl_vec_unref(s);
    tf_destroy(&t);
}

TEST(test_narrowing_integers_wraps_in_legacy_fails_in_ansi_and_nulls_in_try) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *in[] = {"300", "-129", "127", "NULL"};
    CHECK_STR_EQ(cast_texts(&t, DL_SQL_CAST_LEGACY, "int", "tinyint", N(in), in),
                 "44|127|127|NULL");
    CHECK_STR_EQ(cast_texts(&t, DL_SQL_CAST_TRY, "int", "tinyint", N(in), in),
                 "NULL|NULL|127|NULL");
    const char *res = cast_texts(&t, DL_SQL_CAST_ANSI, "int", "tinyint", N(in), in);
    CHECK(strstr(res, "[CAST_OVERFLOW] The value 300 of the type \"INT\" cannot be cast to "
                      "\"TINYINT\" due to an overflow") != NULL);
    CHECK(strstr(t.err.hint, "try_cast") != NULL);
    CHECK_INT_EQ(t.err.code, DL_ERR_DATA);
    tf_destroy(&t);
}

TEST(test_double_to_integer_saturates_in_legacy_and_truncates_toward_zero) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *in[] = {"1e10", "-1.9", "NaN", "2.9", "-1e20"};
    CHECK_STR_EQ(cast_texts(&t, DL_SQL_CAST_LEGACY, "double", "int", N(in), in),
                 "2147483647|-1|0|2|-2147483648");
    CHECK_STR_EQ(cast_texts(&t, DL_SQL_CAST_LEGACY, "double", "bigint", N(in), in),
                 "10000000000|-1|0|2|-9223372036854775808");
    CHECK_STR_EQ(cast_texts(&t, DL_SQL_CAST_LEGACY, "double", "smallint", 1, in), "-1");
    CHECK_STR_EQ(cast_texts(&t, DL_SQL_CAST_TRY, "double", "int", N(in), in),
                 "NULL|-1|NULL|2|NULL");
    tf_destroy(&t);
}

TEST(test_malformed_string_to_int_is_null_or_an_error_naming_the_value) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *in[] = {"abc", " 12 ", "1.9", "-2147483648", "2147483648", "", "+"};
    CHECK_STR_EQ(cast_texts(&t, DL_SQL_CAST_LEGACY, "string", "int", N(in), in),
                 "NULL|12|1|-2147483648|NULL|NULL|NULL");
    CHECK_STR_EQ(cast_texts(&t, DL_SQL_CAST_TRY, "string", "int", N(in), in),
                 "NULL|12|NULL|-2147483648|NULL|NULL|NULL");
    const char *res = cast1(&t, DL_SQL_CAST_ANSI, "string", "int", "abc");
    CHECK(strstr(res, "[CAST_INVALID_INPUT] The value 'abc' of the type \"STRING\" cannot be cast "
                      "to \"INT\" because it is malformed") != NULL);
    CHECK(strstr(cast1(&t, DL_SQL_CAST_ANSI, "string", "bigint", "1.9"), "'1.9'") != NULL);
    tf_destroy(&t);
}

TEST(test_string_to_boolean_accepts_spark_words) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *in[] = {"yes", " T ", "0", "False", "maybe", "N"};
    CHECK_STR_EQ(cast_texts(&t, DL_SQL_CAST_LEGACY, "string", "boolean", N(in), in),
                 "true|true|false|false|NULL|false");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "boolean", "int", "true"), "1");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "double", "boolean", "NaN"), "true");
    tf_destroy(&t);
}

TEST(test_dates_parse_as_spark_and_invalid_dates_are_null) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *in[] = {"2024-02-29 12:00", "2024-02-30", "2024-3-5", "x"};
    CHECK_STR_EQ(cast_texts(&t, DL_SQL_CAST_LEGACY, "string", "date", N(in), in),
                 "2024-02-29|NULL|2024-03-05|NULL");
    CHECK(strstr(cast1(&t, DL_SQL_CAST_ANSI, "string", "date", "x"), "CAST_INVALID_INPUT") != NULL);
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "date", "int", "2024-01-01"), "NULL");
    tf_destroy(&t);
}

TEST(test_timestamps_follow_the_session_zone_through_gaps_and_overlaps) {
    tf t;
    tf_init(&t, false, "America/New_York");
    const char *in[] = {"2024-03-10 02:30:00", "2024-11-03 01:30:00", "2024-07-01 12:00:00.5",
                        "2024-07-01T12:00:00Z"};
    CHECK_STR_EQ(cast_texts(&t, DL_SQL_CAST_LEGACY, "string", "timestamp", N(in), in),
                 "2024-03-10 03:30:00|2024-11-03 01:30:00|2024-07-01 12:00:00.5|"
                 "2024-07-01 08:00:00");
    /* The overlap takes the earlier offset (EDT): 05:30 UTC. */
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "timestamp", "bigint", "2024-11-03 01:30:00"),
                 "1730611800");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "timestamp", "date", "2024-07-01 23:30:00"),
                 "2024-07-01");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "date", "timestamp", "2024-07-01"),
                 "2024-07-01 00:00:00");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "timestamp", "timestamp_ntz", "2024-07-01 09:00"),
                 "2024-07-01 09:00:00");
    tf_destroy(&t);
    tf_init(&t, false, "+05:30");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "string", "timestamp", "2024-01-01T00:00:00Z"),
                 "2024-01-01 05:30:00");
    tf_destroy(&t);
}

TEST(test_timestamp_as_number_is_floored_seconds) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "timestamp", "bigint", "1969-12-31 23:59:59.5"),
                 "-1");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "timestamp", "double", "1970-01-01 00:00:01.5"),
                 "1.5");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "bigint", "timestamp", "86400"),
                 "1970-01-02 00:00:00");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "double", "timestamp", "1.25"),
                 "1970-01-01 00:00:01.25");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "boolean", "timestamp", "true"),
                 "1970-01-01 00:00:00.000001");
    tf_destroy(&t);
}

TEST(test_intervals_print_in_ansi_style) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "string", "interval day to second", "1 02:03:04.5"),
                 "INTERVAL '1 02:03:04.5' DAY TO SECOND");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "string", "interval day to second",
                       "INTERVAL '-0 01:00:00' DAY TO SECOND"),
                 "INTERVAL '-0 01:00:00' DAY TO SECOND");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "string", "interval year to month", "1-2"),
                 "INTERVAL '1-2' YEAR TO MONTH");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "string", "interval day to second", "3 hours"),
                 "INTERVAL '0 03:00:00' DAY TO SECOND");
    tf_destroy(&t);
}

TEST(test_casts_read_constant_and_dictionary_vectors) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *in[] = {"1", "NULL", "300"};
    dl_vector *d = tf_dict(&t, "int", N(in), in);
    dl_vector *c = tf_const(&t, "int", 4, "7");
    dl_vector *out = NULL;
    CHECK_OK(dl_vec_new(NULL, tf_type(&t, "tinyint"), 3, &out, &t.err), &t.err);
    CHECK_OK(dl_sql_cast(&t.env, DL_SQL_CAST_LEGACY, d, 3, out, &t.err), &t.err);
    CHECK_STR_EQ(tf_texts(&t, out), "1|NULL|44");
    dl_vec_unref(out);
    CHECK_OK(dl_vec_new(NULL, tf_type(&t, "string"), 4, &out, &t.err), &t.err);
    CHECK_OK(dl_sql_cast(&t.env, DL_SQL_CAST_LEGACY, c, 4, out, &t.err), &t.err);
    CHECK_STR_EQ(tf_texts(&t, out), "7|7|7|7");
    dl_vec_unref(out);
    tf_destroy(&t);
}

/* array<int> [[1, 2, null], null, []] built by hand. */
static dl_vector *
int_arrays(tf *t) {
    dl_vector *v = NULL;
    if (dl_vec_new(NULL, tf_type(t, "array<int>"), 3, &v, &t->err) != DL_OK) {
        return NULL;
    }
    dl_vector *e = v->children[0];
    if (dl_vec_append_i32(e, 1, &t->err) != DL_OK || dl_vec_append_i32(e, 2, &t->err) != DL_OK ||
        dl_vec_append_null(e, &t->err) != DL_OK || dl_vec_append_list(v, &t->err) != DL_OK ||
        dl_vec_append_null(v, &t->err) != DL_OK || dl_vec_append_list(v, &t->err) != DL_OK) {
        dl_vec_unref(v);
        return NULL;
    }
    return v;
}

TEST(test_nested_values_cast_element_wise_and_print_as_spark) {
    tf t;
    tf_init(&t, false, "UTC");
    dl_vector *a = int_arrays(&t);
    CHECK(a != NULL);
    CHECK_STR_EQ(tf_texts(&t, a), "[1, 2, null]|NULL|[]");
    dl_vector *out = NULL;
    CHECK_OK(dl_vec_new(NULL, tf_type(&t, "array<bigint>"), 3, &out, &t.err), &t.err);
    CHECK_OK(dl_sql_cast(&t.env, DL_SQL_CAST_LEGACY, a, 3, out, &t.err), &t.err);
    CHECK_STR_EQ(tf_texts(&t, out), "[1, 2, null]|NULL|[]");
    CHECK_INT_EQ(out->children[0]->type->id, DL_VEC_TYPE_LONG);
    dl_vec_unref(out);
    CHECK_OK(dl_vec_new(NULL, tf_type(&t, "array<string>"), 3, &out, &t.err), &t.err);
    CHECK_OK(dl_sql_cast(&t.env, DL_SQL_CAST_LEGACY, a, 3, out, &t.err), &t.err);
    CHECK_STR_EQ(tf_text(&t, out, 0), "[1, 2, null]");
    dl_vec_unref(out);
    dl_vec_unref(a);

    dl_vector *s = NULL;
    CHECK_OK(dl_vec_new(NULL, tf_type(&t, "struct<a:int,b:string>"), 1, &s, &t.err), &t.err);
    CHECK_OK(dl_vec_append_i32(s->children[0], 5, &t.err), &t.err);
    CHECK_OK(dl_vec_append_null(s->children[1], &t.err), &t.err);
    CHECK_OK(dl_vec_append_struct(s, &t.err), &t.err);
    CHECK_STR_EQ(tf_text(&t, s, 0), "{5, null}");
    dl_vec_unref(s);

    dl_vector *m = NULL;
    CHECK_OK(dl_vec_new(NULL, tf_type(&t, "map<string,int>"), 1, &m, &t.err), &t.err);
    dl_vector *entries = m->children[0];
    CHECK_OK(dl_vec_append_str(entries->children[0], "a", 1, &t.err), &t.err);
    CHECK_OK(dl_vec_append_i32(entries->children[1], 1, &t.err), &t.err);
    CHECK_OK(dl_vec_append_struct(entries, &t.err), &t.err);
    CHECK_OK(dl_vec_append_str(entries->children[0], "b", 1, &t.err), &t.err);
    CHECK_OK(dl_vec_append_null(entries->children[1], &t.err), &t.err);
    CHECK_OK(dl_vec_append_struct(entries, &t.err), &t.err);
    CHECK_OK(dl_vec_append_list(m, &t.err), &t.err);
    CHECK_STR_EQ(tf_text(&t, m, 0), "{a -> 1, b -> null}");
    dl_vec_unref(m);
    tf_destroy(&t);
}

TEST(test_integer_to_binary_is_big_endian) {
    tf t;
    tf_init(&t, false, "UTC");
    dl_vector *v = tf_col(&t, "int", 1, (const char *[]){"258"});
    dl_vector *out = NULL;
    CHECK_OK(dl_vec_new(NULL, tf_type(&t, "binary"), 1, &out, &t.err), &t.err);
    CHECK_OK(dl_sql_cast(&t.env, DL_SQL_CAST_LEGACY, v, 1, out, &t.err), &t.err);
    dl_str b = dl_vec_get_str(out, 0);
    CHECK_INT_EQ(b.len, 4);
    CHECK(memcmp(b.ptr, "\x00\x00\x01\x02", 4) == 0);
    dl_vec_unref(out);
    tf_destroy(&t);
}

static const char *
common(tf *t, const char *a, const char *b, dl_sql_coerce how, bool ansi) {
    const dl_type *out = NULL;
    if (dl_sql_type_common_ex(tf_type(t, a), tf_type(t, b), how, ansi, &t->arena, &out, &t->err) !=
        DL_OK) {
        return "ERROR";
    }
    if (out == NULL) {
        return "none";
    }
    char *buf = dl_arena_alloc(&t->arena, 128);
    return dl_sql_type_name(out, buf, 128);
}

TEST(test_common_types_follow_spark_widening) {
    tf t;
    tf_init(&t, false, "UTC");
    dl_sql_coerce w = DL_SQL_COERCE_WIDER;
    dl_sql_coerce c = DL_SQL_COERCE_COMPARE;
    CHECK_STR_EQ(common(&t, "int", "bigint", w, false), "bigint");
    CHECK_STR_EQ(common(&t, "tinyint", "void", w, false), "tinyint");
    CHECK_STR_EQ(common(&t, "int", "float", w, false), "float");
    CHECK_STR_EQ(common(&t, "int", "float", w, true), "double");
    CHECK_STR_EQ(common(&t, "decimal(10,2)", "int", w, false), "decimal(12,2)");
    CHECK_STR_EQ(common(&t, "decimal(12,0)", "int", w, false), "decimal(12,0)");
    CHECK_STR_EQ(common(&t, "decimal(38,10)", "decimal(10,5)", w, false), "decimal(38,10)");
    CHECK_STR_EQ(common(&t, "decimal(10,2)", "decimal(5,4)", w, false), "decimal(12,4)");
    CHECK_STR_EQ(common(&t, "decimal(10,2)", "double", w, false), "double");
    CHECK_STR_EQ(common(&t, "string", "int", w, false), "string");
    CHECK_STR_EQ(common(&t, "string", "int", c, false), "int");
    CHECK_STR_EQ(common(&t, "string", "int", c, true), "bigint");
    CHECK_STR_EQ(common(&t, "string", "decimal(10,2)", c, false), "double");
    CHECK_STR_EQ(common(&t, "date", "string", c, false), "date");
    CHECK_STR_EQ(common(&t, "date", "timestamp", w, false), "timestamp");
    CHECK_STR_EQ(common(&t, "string", "boolean", w, false), "none");
    CHECK_STR_EQ(common(&t, "boolean", "int", w, false), "none");
    CHECK_STR_EQ(common(&t, "array<int>", "array<bigint>", w, false), "array<bigint>");
    CHECK_STR_EQ(common(&t, "struct<a:int>", "struct<A:double>", w, false), "struct<a:double>");
    CHECK_STR_EQ(common(&t, "map<string,int>", "map<string,string>", w, false),
                 "map<string,string>");
    tf_destroy(&t);
}

TEST(test_allowed_and_implicit_casts_follow_spark) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK(dl_sql_cast_is_allowed(tf_type(&t, "date"), tf_type(&t, "int")));
    CHECK(!dl_sql_cast_is_allowed_ansi(tf_type(&t, "date"), tf_type(&t, "int")));
    CHECK(!dl_sql_cast_is_allowed(tf_type(&t, "binary"), tf_type(&t, "int")));
    CHECK(dl_sql_cast_is_allowed(tf_type(&t, "struct<a:int>"), tf_type(&t, "struct<b:string>")));
    CHECK(!dl_sql_cast_is_allowed(tf_type(&t, "array<int>"), tf_type(&t, "int")));
    CHECK(dl_sql_cast_is_implicit(tf_type(&t, "int"), tf_type(&t, "bigint")));
    CHECK(dl_sql_cast_is_implicit(tf_type(&t, "string"), tf_type(&t, "date")));
    CHECK(dl_sql_cast_is_implicit(tf_type(&t, "date"), tf_type(&t, "timestamp")));
    CHECK(!dl_sql_cast_is_implicit(tf_type(&t, "boolean"), tf_type(&t, "int")));
    tf_destroy(&t);
}

TEST(test_disallowed_cast_is_a_bind_error) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(cast1(&t, DL_SQL_CAST_LEGACY, "binary", "int", "x"),
                 "ERROR: cannot cast binary to int");
    CHECK_INT_EQ(t.err.code, DL_ERR_SQL_BIND);
    tf_destroy(&t);
}

TEST(test_decimal_helpers_round_every_mode) {
    CHECK(dl_sql_dec_round(125, 1, DL_SQL_ROUND_HALF_UP) == 13);
    CHECK(dl_sql_dec_round(-125, 1, DL_SQL_ROUND_HALF_UP) == -13);
    CHECK(dl_sql_dec_round(125, 1, DL_SQL_ROUND_HALF_EVEN) == 12);
    CHECK(dl_sql_dec_round(135, 1, DL_SQL_ROUND_HALF_EVEN) == 14);
    CHECK(dl_sql_dec_round(-121, 1, DL_SQL_ROUND_FLOOR) == -13);
    CHECK(dl_sql_dec_round(121, 1, DL_SQL_ROUND_CEILING) == 13);
    dl_i128 big = dl_sql_pow10(37) * 9;
    dl_i128 out;
    CHECK(dl_sql_dec_mul_round(big, big, 38, &out));
    CHECK(out == dl_sql_pow10(36) * 81);
    CHECK(dl_sql_dec_div_round(1, 38, 3, &out));
    CHECK(out == dl_sql_pow10(38) / 3);
    CHECK(dl_sql_dec_div_round(2, 38, 3, &out));
    CHECK(out == dl_sql_pow10(38) / 3 * 2 + 1);
    CHECK(!dl_sql_dec_mul_round(big, big, 0, &out));
}

int
main(void) {
    RUN(test_double_to_string_prints_like_java);
    RUN(test_float_to_string_uses_float_digits_and_widens_exactly);
    RUN(test_decimal_rounds_half_up_and_prints_its_scale);
    RUN(test_decimal_text_is_scientific_in_legacy_mode_and_plain_in_ansi_mode);
    RUN(test_narrowing_integers_wraps_in_legacy_fails_in_ansi_and_nulls_in_try);
    RUN(test_double_to_integer_saturates_in_legacy_and_truncates_toward_zero);
    RUN(test_malformed_string_to_int_is_null_or_an_error_naming_the_value);
    RUN(test_string_to_boolean_accepts_spark_words);
    RUN(test_dates_parse_as_spark_and_invalid_dates_are_null);
    RUN(test_timestamps_follow_the_session_zone_through_gaps_and_overlaps);
    RUN(test_timestamp_as_number_is_floored_seconds);
    RUN(test_intervals_print_in_ansi_style);
    RUN(test_casts_read_constant_and_dictionary_vectors);
    RUN(test_nested_values_cast_element_wise_and_print_as_spark);
    RUN(test_integer_to_binary_is_big_endian);
    RUN(test_common_types_follow_spark_widening);
    RUN(test_allowed_and_implicit_casts_follow_spark);
    RUN(test_disallowed_cast_is_a_bind_error);
    RUN(test_decimal_helpers_round_every_mode);
    return harness_finish();
}
