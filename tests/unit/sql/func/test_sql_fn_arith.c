/* SPDX-License-Identifier: Apache-2.0 */
/* Arithmetic, bitwise and date/interval operators (sql_fn_arith.c, sql_fn_datetime.c): Spark's
 * result types and values, overflow and division by zero in legacy, ANSI and try_ forms. */
#include "fn_test_util.h"
#include "harness.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char *
op2(tf *t, const char *op, const char *ta, const char *a, const char *tb, const char *b) {
    dl_vector *args[2] = {tf_col(t, ta, 1, &a), tf_col(t, tb, 1, &b)};
    return tf_eval(t, op, 2, args, 1);
}

static const char *
type2(tf *t, const char *op, const char *ta, const char *tb) {
    const char *one = "1";
    dl_vector *args[2] = {tf_col(t, ta, 1, &one), tf_col(t, tb, 1, &one)};
    return tf_ret_type(t, op, 2, args);
}

TEST(test_integer_arithmetic_keeps_the_wider_type) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(type2(&t, "+", "int", "int"), "int");
    CHECK_STR_EQ(type2(&t, "+", "tinyint", "tinyint"), "tinyint");
    CHECK_STR_EQ(type2(&t, "*", "int", "bigint"), "bigint");
    CHECK_STR_EQ(type2(&t, "-", "int", "double"), "double");
    CHECK_STR_EQ(type2(&t, "+", "int", "float"), "float");
    CHECK_STR_EQ(type2(&t, "/", "int", "int"), "double");
    CHECK_STR_EQ(type2(&t, "div", "int", "int"), "bigint");
    CHECK_STR_EQ(type2(&t, "+", "string", "int"), "double");
    CHECK_STR_EQ(op2(&t, "+", "string", "1", "int", "1"), "2.0");
    CHECK_STR_EQ(op2(&t, "/", "int", "7", "int", "2"), "3.5");
    CHECK_STR_EQ(op2(&t, "div", "int", "-7", "int", "2"), "-3");
    CHECK_STR_EQ(op2(&t, "%", "int", "-7", "int", "3"), "-1");
    CHECK_STR_EQ(op2(&t, "pmod", "int", "-7", "int", "3"), "2");
    CHECK_STR_EQ(op2(&t, "%", "int", "-2147483648", "int", "-1"), "0");
    CHECK_STR_EQ(op2(&t, "%", "double", "-7.5", "double", "2"), "-1.5");
    CHECK_STR_EQ(op2(&t, "pmod", "double", "-7.5", "double", "2"), "0.5");
    tf_destroy(&t);
    tf_init(&t, true, "UTC");
    CHECK_STR_EQ(type2(&t, "+", "int", "float"), "double");
    CHECK_STR_EQ(type2(&t, "+", "string", "int"), "bigint");
    CHECK_STR_EQ(op2(&t, "+", "string", "1", "int", "1"), "2");
    tf_destroy(&t);
}

TEST(test_integer_overflow_wraps_in_legacy_and_fails_in_ansi) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(op2(&t, "+", "int", "2147483647", "int", "1"), "-2147483648");
    CHECK_STR_EQ(op2(&t, "+", "tinyint", "127", "tinyint", "1"), "-128");
    CHECK_STR_EQ(op2(&t, "*", "bigint", "9223372036854775807", "bigint", "2"), "-2");
    CHECK_STR_EQ(op2(&t, "try_add", "int", "2147483647", "int", "1"), "NULL");
    tf_destroy(&t);
    tf_init(&t, true, "UTC");
    CHECK_STR_EQ(op2(&t, "+", "int", "2147483647", "int", "1"),
                 "ERROR: [ARITHMETIC_OVERFLOW] integer overflow");
    CHECK(strstr(t.err.hint, "try_add") != NULL);
    CHECK_STR_EQ(op2(&t, "try_add", "int", "2147483647", "int", "1"), "NULL");
    CHECK_STR_EQ(op2(&t, "div", "bigint", "-9223372036854775808", "bigint", "-1"),
                 "ERROR: [ARITHMETIC_OVERFLOW] long overflow");
    tf_destroy(&t);
}

TEST(test_overflow_in_a_null_row_is_not_an_error) {
    tf t;
    tf_init(&t, true, "UTC");
    const char *a[] = {"2147483647", "NULL", "1"};
    const char *b[] = {"NULL", "1", "2"};
    dl_vector *args[2] = {tf_col(&t, "int", 3, a), tf_col(&t, "int", 3, b)};
    /* Make the null row's hidden value overflow. */
    ((int32_t *)args[1]->data)[0] = 1;
    CHECK_STR_EQ(tf_eval(&t, "+", 2, args, 3), "NULL|NULL|3");
    tf_destroy(&t);
}

TEST(test_division_by_zero_is_null_in_legacy_and_an_error_in_ansi) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(op2(&t, "/", "int", "1", "int", "0"), "NULL");
    CHECK_STR_EQ(op2(&t, "/", "double", "1", "double", "0"), "NULL");
    CHECK_STR_EQ(op2(&t, "%", "int", "1", "int", "0"), "NULL");
    CHECK_STR_EQ(op2(&t, "div", "int", "1", "int", "0"), "NULL");
    tf_destroy(&t);
    tf_init(&t, true, "UTC");
    CHECK_STR_EQ(op2(&t, "/", "int", "1", "int", "0"), "ERROR: [DIVIDE_BY_ZERO] Division by zero");
    CHECK_INT_EQ(t.err.code, DL_ERR_DATA);
    CHECK_STR_EQ(op2(&t, "try_divide", "int", "1", "int", "0"), "NULL");
    CHECK_STR_EQ(op2(&t, "/", "decimal(10,2)", "1", "decimal(10,2)", "0"),
                 "ERROR: [DIVIDE_BY_ZERO] Division by zero");
    tf_destroy(&t);
}

TEST(test_decimal_arithmetic_follows_spark_precision_rules) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(type2(&t, "+", "decimal(10,2)", "decimal(5,3)"), "decimal(12,3)");
    CHECK_STR_EQ(type2(&t, "*", "decimal(10,2)", "decimal(10,2)"), "decimal(21,4)");
    CHECK_STR_EQ(type2(&t, "*", "decimal(38,10)", "decimal(38,10)"), "decimal(38,6)");
    CHECK_STR_EQ(type2(&t, "/", "decimal(10,2)", "decimal(5,2)"), "decimal(18,8)");
    CHECK_STR_EQ(type2(&t, "/", "decimal(38,18)", "decimal(38,18)"), "decimal(38,6)");
    CHECK_STR_EQ(type2(&t, "%", "decimal(10,2)", "decimal(5,3)"), "decimal(5,3)");
    CHECK_STR_EQ(type2(&t, "+", "decimal(10,2)", "int"), "decimal(13,2)");
    CHECK_STR_EQ(type2(&t, "+", "decimal(10,2)", "double"), "double");
    CHECK_STR_EQ(type2(&t, "div", "decimal(10,2)", "decimal(5,3)"), "bigint");
    CHECK_STR_EQ(op2(&t, "+", "decimal(10,2)", "1.25", "decimal(5,3)", "0.125"), "1.375");
    CHECK_STR_EQ(op2(&t, "*", "decimal(10,1)", "1.5", "decimal(10,2)", "2.25"), "3.375");
    CHECK_STR_EQ(op2(&t, "/", "decimal(10,2)", "1", "decimal(5,2)", "3"), "0.33333333");
    CHECK_STR_EQ(op2(&t, "/", "decimal(10,2)", "2", "decimal(5,2)", "3"), "0.66666667");
    CHECK_STR_EQ(op2(&t, "*", "decimal(38,10)", "1.5", "decimal(38,10)", "2.0000000001"),
                 "3.000000");
    CHECK_STR_EQ(op2(&t, "%", "decimal(10,2)", "-7.50", "decimal(5,3)", "2"), "-1.500");
    CHECK_STR_EQ(op2(&t, "div", "decimal(10,2)", "7.50", "decimal(5,3)", "2"), "3");
    /* A literal integer counts with its own digits. */
    dl_vector *args[2] = {tf_const(&t, "int", 1, "2"),
                          tf_col(&t, "decimal(10,2)", 1, (const char *[]){"1.25"})};
    CHECK_STR_EQ(tf_ret_type(&t, "*", 2, args), "decimal(12,2)");
    CHECK_STR_EQ(tf_eval(&t, "*", 2, args, 1), "2.50");
    tf_destroy(&t);
}

TEST(test_decimal_overflow_is_null_in_legacy_and_an_error_in_ansi) {
    tf t;
    const char *max = "99999999999999999999999999999999999999";
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(op2(&t, "+", "decimal(38,0)", max, "decimal(38,0)", "1"), "NULL");
    CHECK_STR_EQ(op2(&t, "*", "decimal(38,0)", max, "decimal(38,0)", max), "NULL");
    tf_destroy(&t);
    tf_init(&t, true, "UTC");
    const char *res = op2(&t, "+", "decimal(38,0)", max, "decimal(38,0)", "1");
    CHECK(strstr(res, "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION]") != NULL);
    tf_destroy(&t);
}

TEST(test_operators_read_constant_and_dictionary_vectors) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *a[] = {"1", "2", "NULL", "4"};
    dl_vector *args[2] = {tf_dict(&t, "bigint", 4, a), tf_const(&t, "bigint", 4, "10")};
    CHECK_STR_EQ(tf_eval(&t, "-", 2, args, 4), "-9|-8|NULL|-6");
    dl_vector *c[2] = {tf_const(&t, "int", 3, "6"), tf_const(&t, "int", 3, "7")};
    dl_vector *out = NULL;
    CHECK_OK(tf_call(&t, "*", 2, c, 3, &out), &t.err);
    CHECK_INT_EQ(out->layout, DL_VEC_CONST);
    CHECK_STR_EQ(tf_texts(&t, out), "42|42|42");
    tf_destroy(&t);
}

TEST(test_unary_minus_and_abs_overflow_like_java) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *a[] = {"-2147483648", "5", "-3", "NULL"};
    dl_vector *args[1] = {tf_col(&t, "int", 4, a)};
    CHECK_STR_EQ(tf_eval(&t, "negate", 1, args, 4), "-2147483648|-5|3|NULL");
    CHECK_STR_EQ(tf_eval(&t, "abs", 1, args, 4), "-2147483648|5|3|NULL");
    dl_vector *d[1] = {tf_col(&t, "decimal(5,2)", 1, (const char *[]){"-1.50"})};
    CHECK_STR_EQ(tf_eval(&t, "abs", 1, d, 1), "1.50");
    tf_destroy(&t);
    tf_init(&t, true, "UTC");
    args[0] = tf_col(&t, "int", 1, a);
    CHECK_STR_EQ(tf_eval(&t, "negate", 1, args, 1),
                 "ERROR: [ARITHMETIC_OVERFLOW] integer overflow");
    tf_destroy(&t);
}

TEST(test_bitwise_operators_match_java) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(op2(&t, "&", "int", "5", "int", "3"), "1");
    CHECK_STR_EQ(op2(&t, "|", "int", "5", "bigint", "3"), "7");
    CHECK_STR_EQ(op2(&t, "^", "int", "5", "int", "3"), "6");
    CHECK_STR_EQ(op2(&t, "shiftleft", "int", "1", "int", "33"), "2");
    CHECK_STR_EQ(op2(&t, "shiftleft", "bigint", "1", "int", "33"), "8589934592");
    CHECK_STR_EQ(op2(&t, "shiftright", "int", "-8", "int", "1"), "-4");
    CHECK_STR_EQ(op2(&t, "shiftrightunsigned", "int", "-8", "int", "28"), "15");
    dl_vector *one[1] = {tf_col(&t, "int", 1, (const char *[]){"5"})};
    CHECK_STR_EQ(tf_eval(&t, "~", 1, one, 1), "-6");
    CHECK_STR_EQ(tf_eval(&t, "bit_count", 1, one, 1), "2");
    tf_destroy(&t);
}

TEST(test_dates_and_timestamps_add_days_months_and_intervals) {
    tf t;
    tf_init(&t, false, "America/New_York");
    CHECK_STR_EQ(op2(&t, "+", "date", "2024-01-31", "int", "1"), "2024-02-01");
    CHECK_STR_EQ(op2(&t, "+", "int", "1", "date", "2024-01-31"), "2024-02-01");
    CHECK_STR_EQ(op2(&t, "-", "date", "2024-03-01", "date", "2024-02-01"),
                 "INTERVAL '29 00:00:00' DAY TO SECOND");
    CHECK_STR_EQ(op2(&t, "-", "timestamp", "2024-03-11 00:00", "timestamp", "2024-03-10 00:00"),
                 "INTERVAL '0 23:00:00' DAY TO SECOND");
    CHECK_STR_EQ(op2(&t, "+", "date", "2024-01-31", "interval year to month", "0-1"), "2024-02-29");
    CHECK_STR_EQ(op2(&t, "-", "timestamp", "2024-03-31 12:00", "interval year to month", "0-1"),
                 "2024-02-29 12:00:00");
    CHECK_STR_EQ(
        op2(&t, "+", "timestamp", "2024-03-10 01:30", "interval day to second", "0 01:00:00"),
        "2024-03-10 03:30:00");
    CHECK_STR_EQ(op2(&t, "+", "date", "2024-03-10", "interval day to second", "0 01:00:00"),
                 "2024-03-10 01:00:00");
    CHECK_STR_EQ(op2(&t, "*", "interval day to second", "0 01:30:00", "int", "3"),
                 "INTERVAL '0 04:30:00' DAY TO SECOND");
    CHECK_STR_EQ(op2(&t, "/", "interval year to month", "1-0", "double", "5"),
                 "INTERVAL '0-2' YEAR TO MONTH");
    CHECK_STR_EQ(op2(&t, "/", "interval day to second", "1 00:00:00", "int", "0"),
                 "ERROR: [DIVIDE_BY_ZERO] Division by zero");
    CHECK_STR_EQ(op2(&t, "+", "date", "2024-01-01", "string", "x"), "NULL");
    CHECK(strncmp(op2(&t, "+", "date", "2024-01-01", "boolean", "true"), "ERROR: +: cannot apply",
                  22) == 0);
    tf_destroy(&t);
}

TEST(test_date_functions_add_and_diff_in_calendar_units) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(op2(&t, "date_add", "date", "2024-02-28", "int", "2"), "2024-03-01");
    CHECK_STR_EQ(op2(&t, "date_sub", "string", "2024-03-01", "int", "1"), "2024-02-29");
    CHECK_STR_EQ(op2(&t, "add_months", "date", "2024-01-31", "int", "1"), "2024-02-29");
    CHECK_STR_EQ(op2(&t, "add_months", "date", "2024-03-31", "int", "-13"), "2023-02-28");
    CHECK_STR_EQ(op2(&t, "datediff", "date", "2024-03-01", "date", "2024-02-01"), "29");
    CHECK_STR_EQ(
        op2(&t, "months_between", "timestamp", "1997-02-28 10:30:00", "timestamp", "1996-10-30"),
        "3.94959677");
    CHECK_STR_EQ(op2(&t, "months_between", "date", "2024-03-31", "date", "2024-02-29"), "1.0");
    dl_vector *args[3] = {tf_const(&t, "string", 1, "MONTH"),
                          tf_col(&t, "timestamp", 1, (const char *[]){"2024-01-31 10:00"}),
                          tf_col(&t, "timestamp", 1, (const char *[]){"2024-02-29 09:00"})};
    CHECK_STR_EQ(tf_eval(&t, "timestampdiff", 3, args, 1), "0");
    args[0] = tf_const(&t, "string", 1, "HOUR");
    CHECK_STR_EQ(tf_eval(&t, "timestampdiff", 3, args, 1), "695");
    args[1] = tf_col(&t, "int", 1, (const char *[]){"3"});
    args[2] = tf_col(&t, "timestamp", 1, (const char *[]){"2024-01-31 10:00"});
    CHECK_STR_EQ(tf_eval(&t, "timestampadd", 3, args, 1), "2024-01-31 13:00:00");
    args[0] = tf_const(&t, "string", 1, "MONTHS");
    CHECK_STR_EQ(tf_eval(&t, "dateadd", 3, args, 1), "2024-04-30 10:00:00");
    args[0] = tf_const(&t, "string", 1, "FORTNIGHT");
    CHECK(strstr(tf_eval(&t, "timestampadd", 3, args, 1), "unknown unit 'FORTNIGHT'") != NULL);
    tf_destroy(&t);
}

TEST(test_epoch_and_zone_conversions) {
    tf t;
    tf_init(&t, false, "UTC");
    dl_vector *ts[1] = {tf_col(&t, "timestamp", 1, (const char *[]){"1969-12-31 23:59:59.999"})};
    CHECK_STR_EQ(tf_eval(&t, "unix_seconds", 1, ts, 1), "-1");
    CHECK_STR_EQ(tf_eval(&t, "unix_millis", 1, ts, 1), "-1");
    CHECK_STR_EQ(tf_eval(&t, "unix_micros", 1, ts, 1), "-1000");
    dl_vector *s[1] = {tf_col(&t, "decimal(10,3)", 1, (const char *[]){"1.5"})};
    CHECK_STR_EQ(tf_eval(&t, "timestamp_seconds", 1, s, 1), "1970-01-01 00:00:01.5");
    CHECK_STR_EQ(op2(&t, "from_utc_timestamp", "timestamp", "2024-07-01 12:00", "string",
                     "America/New_York"),
                 "2024-07-01 08:00:00");
    CHECK_STR_EQ(
        op2(&t, "to_utc_timestamp", "timestamp", "2024-07-01 08:00", "string", "America/New_York"),
        "2024-07-01 12:00:00");
    CHECK(strstr(op2(&t, "to_utc_timestamp", "timestamp", "2024-07-01 08:00", "string",
                     "Mars/Olympus"),
                 "unknown time zone 'Mars/Olympus'") != NULL);
    dl_vector *none[1] = {NULL};
    CHECK_STR_EQ(tf_eval(&t, "current_timestamp", 0, none, 2),
                 "2026-01-01 00:00:00.123456|2026-01-01 00:00:00.123456");
    CHECK_STR_EQ(tf_eval(&t, "current_date", 0, none, 1), "2026-01-01");
    tf_destroy(&t);
}

int
main(void) {
    RUN(test_integer_arithmetic_keeps_the_wider_type);
    RUN(test_integer_overflow_wraps_in_legacy_and_fails_in_ansi);
    RUN(test_overflow_in_a_null_row_is_not_an_error);
    RUN(test_division_by_zero_is_null_in_legacy_and_an_error_in_ansi);
    RUN(test_decimal_arithmetic_follows_spark_precision_rules);
    RUN(test_decimal_overflow_is_null_in_legacy_and_an_error_in_ansi);
    RUN(test_operators_read_constant_and_dictionary_vectors);
    RUN(test_unary_minus_and_abs_overflow_like_java);
    RUN(test_bitwise_operators_match_java);
    RUN(test_dates_and_timestamps_add_days_months_and_intervals);
    RUN(test_date_functions_add_and_diff_in_calendar_units);
    RUN(test_epoch_and_zone_conversions);
    return harness_finish();
}
