/* SPDX-License-Identifier: Apache-2.0 */
/* Date and time fields, truncation, construction, formatting and parsing
 * (sql_fn_datepart.c, sql_fn_datefmt.c), in the session time zone. */
#include "fn_test_util.h"
#include "harness.h"

static const char *
f1(tf *t, const char *name, const char *type, const char *v) {
    dl_vector *args[1] = {tf_col(t, type, 1, &v)};
    return tf_eval(t, name, 1, args, 1);
}

/* name(const string, value) as date_part, date_trunc take them. */
static const char *
unit_first(tf *t, const char *name, const char *unit, const char *type, const char *v) {
    dl_vector *args[2] = {tf_const(t, "string", 1, unit), tf_col(t, type, 1, &v)};
    return tf_eval(t, name, 2, args, 1);
}

/* name(value, const string) as date_format, trunc, next_day take them. */
static const char *
unit_last(tf *t, const char *name, const char *type, const char *v, const char *s) {
    dl_vector *args[2] = {tf_col(t, type, 1, &v), tf_const(t, "string", 1, s)};
    return tf_eval(t, name, 2, args, 1);
}

TEST(test_fields_read_the_session_wall_clock) {
    tf t;
    tf_init(&t, false, "America/New_York");
    const char *ts = "2024-12-30 18:30:45.5";
    CHECK_STR_EQ(f1(&t, "year", "timestamp", ts), "2024");
    CHECK_STR_EQ(f1(&t, "month", "timestamp", ts), "12");
    CHECK_STR_EQ(f1(&t, "day", "timestamp", ts), "30");
    CHECK_STR_EQ(f1(&t, "quarter", "timestamp", ts), "4");
    CHECK_STR_EQ(f1(&t, "hour", "timestamp", ts), "18");
    CHECK_STR_EQ(f1(&t, "minute", "timestamp", ts), "30");
    CHECK_STR_EQ(f1(&t, "second", "timestamp", ts), "45");
    CHECK_STR_EQ(f1(&t, "dayofweek", "date", "2024-12-30"), "2");
    CHECK_STR_EQ(f1(&t, "weekday", "date", "2024-12-30"), "0");
    CHECK_STR_EQ(f1(&t, "dayofyear", "date", "2024-12-30"), "365");
    CHECK_STR_EQ(f1(&t, "weekofyear", "date", "2024-12-30"), "1");
    CHECK_STR_EQ(f1(&t, "weekofyear", "date", "2021-01-03"), "53");
    CHECK_STR_EQ(f1(&t, "hour", "date", "2024-12-30"), "0");
    CHECK_STR_EQ(f1(&t, "year", "string", "2024-05-06"), "2024");
    CHECK_STR_EQ(unit_first(&t, "date_part", "SECOND", "timestamp", ts), "45.500000");
    CHECK_STR_EQ(unit_first(&t, "extract", "doy", "date", "2024-02-01"), "32");
    CHECK_STR_EQ(unit_first(&t, "date_part", "DAY", "interval day to second", "3 04:05:06"), "3");
    CHECK_STR_EQ(unit_first(&t, "date_part", "HOUR", "interval day to second", "3 04:05:06"), "4");
    CHECK_STR_EQ(unit_first(&t, "date_part", "MONTH", "interval year to month", "1-2"), "2");
    CHECK(strstr(unit_first(&t, "date_part", "FORTNIGHT", "date", "2024-01-01"),
                 "unknown field 'FORTNIGHT'") != NULL);
    tf_destroy(&t);
}

TEST(test_truncation_and_calendar_helpers) {
    tf t;
    tf_init(&t, false, "America/New_York");
    CHECK_STR_EQ(f1(&t, "last_day", "date", "2024-02-10"), "2024-02-29");
    CHECK_STR_EQ(unit_last(&t, "next_day", "date", "2024-01-01", "TU"), "2024-01-02");
    CHECK_STR_EQ(unit_last(&t, "next_day", "date", "2024-01-01", "Monday"), "2024-01-08");
    CHECK_STR_EQ(unit_last(&t, "next_day", "date", "2024-01-01", "xx"), "NULL");
    CHECK_STR_EQ(unit_last(&t, "trunc", "date", "2024-08-15", "MM"), "2024-08-01");
    CHECK_STR_EQ(unit_last(&t, "trunc", "date", "2024-08-15", "year"), "2024-01-01");
    CHECK_STR_EQ(unit_last(&t, "trunc", "date", "2024-08-15", "QUARTER"), "2024-07-01");
    CHECK_STR_EQ(unit_last(&t, "trunc", "date", "2024-08-15", "WEEK"), "2024-08-12");
    CHECK_STR_EQ(unit_last(&t, "trunc", "date", "2024-08-15", "HOUR"), "NULL");
    CHECK_STR_EQ(unit_first(&t, "date_trunc", "HOUR", "timestamp", "2024-03-10 03:30"),
                 "2024-03-10 03:00:00");
    CHECK_STR_EQ(unit_first(&t, "date_trunc", "DD", "timestamp", "2024-03-10 03:30"),
                 "2024-03-10 00:00:00");
    CHECK_STR_EQ(unit_first(&t, "date_trunc", "MONTH", "timestamp_ntz", "2024-03-10 03:30"),
                 "2024-03-01 00:00:00");
    tf_destroy(&t);
}

TEST(test_make_date_and_make_timestamp_validate_fields) {
    tf t;
    tf_init(&t, false, "UTC");
    dl_vector *d[3] = {tf_col(&t, "int", 2, (const char *[]){"2024", "2023"}),
                       tf_col(&t, "int", 2, (const char *[]){"2", "2"}),
                       tf_col(&t, "int", 2, (const char *[]){"29", "29"})};
    CHECK_STR_EQ(tf_eval(&t, "make_date", 3, d, 2), "2024-02-29|NULL");
    dl_vector *ts[6] = {tf_col(&t, "int", 1, (const char *[]){"2024"}),
                        tf_col(&t, "int", 1, (const char *[]){"1"}),
                        tf_col(&t, "int", 1, (const char *[]){"1"}),
                        tf_col(&t, "int", 1, (const char *[]){"12"}),
                        tf_col(&t, "int", 1, (const char *[]){"30"}),
                        tf_col(&t, "decimal(8,6)", 1, (const char *[]){"45.5"})};
    CHECK_STR_EQ(tf_eval(&t, "make_timestamp", 6, ts, 1), "2024-01-01 12:30:45.5");
    tf_destroy(&t);
    tf_init(&t, true, "UTC");
    d[0] = tf_col(&t, "int", 1, (const char *[]){"2023"});
    d[1] = tf_col(&t, "int", 1, (const char *[]){"2"});
    d[2] = tf_col(&t, "int", 1, (const char *[]){"29"});
    CHECK(strstr(tf_eval(&t, "make_date", 3, d, 1),
                 "[DATETIME_FIELD_OUT_OF_BOUNDS.WITH_SUGGESTION]") != NULL);
    tf_destroy(&t);
}

TEST(test_date_format_writes_spark_patterns) {
    tf t;
    tf_init(&t, false, "America/New_York");
    const char *ts = "2024-12-30 18:05:04.123456";
    CHECK_STR_EQ(unit_last(&t, "date_format", "timestamp", ts, "yyyy-MM-dd HH:mm:ss.SSS"),
                 "2024-12-30 18:05:04.123");
    CHECK_STR_EQ(unit_last(&t, "date_format", "timestamp", ts, "EEEE, MMMM d, yyyy h:mm a"),
                 "Monday, December 30, 2024 6:05 PM");
    CHECK_STR_EQ(unit_last(&t, "date_format", "timestamp", ts, "EEE MMM dd yy"), "Mon Dec 30 24");
    CHECK_STR_EQ(unit_last(&t, "date_format", "timestamp", ts, "QQQ D 'at' k"), "Q4 365 at 18");
    CHECK_STR_EQ(unit_last(&t, "date_format", "timestamp", ts, "XXX Z x z VV"),
                 "-05:00 -0500 -05 EST America/New_York");
    CHECK_STR_EQ(unit_last(&t, "date_format", "timestamp", "2024-07-01 12:00", "O zzzz"),
                 "GMT-4 EDT");
    CHECK_STR_EQ(unit_last(&t, "date_format", "date", "2024-07-01", "yyyyMMdd"), "20240701");
    CHECK(strstr(unit_last(&t, "date_format", "date", "2024-07-01", "yyyy-ww"),
                 "[INVALID_DATETIME_PATTERN]") != NULL);
    dl_vector *secs[1] = {tf_col(&t, "bigint", 1, (const char *[]){"0"})};
    CHECK_STR_EQ(tf_eval(&t, "from_unixtime", 1, secs, 1), "1969-12-31 19:00:00");
    tf_destroy(&t);
}

TEST(test_parsing_with_patterns_is_strict_and_zone_aware) {
    tf t;
    tf_init(&t, false, "America/New_York");
    CHECK_STR_EQ(
        unit_last(&t, "to_timestamp", "string", "2024-01-02 03:04:05", "yyyy-MM-dd HH:mm:ss"),
        "2024-01-02 03:04:05");
    CHECK_STR_EQ(unit_last(&t, "to_timestamp", "string", "20240102", "yyyyMMdd"),
                 "2024-01-02 00:00:00");
    CHECK_STR_EQ(unit_last(&t, "to_timestamp", "string", "02/01/2024 3:04 pm", "dd/MM/yyyy h:mm a"),
                 "2024-01-02 15:04:00");
    CHECK_STR_EQ(unit_last(&t, "to_timestamp", "string", "2024-01-02T08:04:05+0100",
                           "yyyy-MM-dd'T'HH:mm:ssZ"),
                 "2024-01-02 02:04:05");
    CHECK_STR_EQ(unit_last(&t, "to_timestamp", "string", "2024-01-02 03:04:05.25",
                           "yyyy-MM-dd HH:mm:ss.SSSSSS"),
                 "2024-01-02 03:04:05.25");
    CHECK_STR_EQ(unit_last(&t, "to_date", "string", "2024/1/2", "yyyy/M/d"), "2024-01-02");
    CHECK_STR_EQ(unit_last(&t, "to_date", "string", "2 Jan 2024", "d MMM yyyy"), "2024-01-02");
    CHECK_STR_EQ(unit_last(&t, "to_date", "string", "2024-01-02 extra", "yyyy-MM-dd"), "NULL");
    CHECK_STR_EQ(f1(&t, "to_date", "string", "2024-01-02 10:00:00"), "2024-01-02");
    CHECK_STR_EQ(f1(&t, "to_timestamp", "string", "2024-01-02"), "2024-01-02 00:00:00");
    tf_destroy(&t);
    tf_init(&t, true, "UTC");
    CHECK_STR_EQ(
        unit_last(&t, "unix_timestamp", "string", "1970-01-01 00:00:10", "yyyy-MM-dd HH:mm:ss"),
        "10");
    CHECK(strstr(unit_last(&t, "to_timestamp", "string", "nope", "yyyy"),
                 "[CANNOT_PARSE_TIMESTAMP] Text 'nope'") != NULL);
    CHECK_STR_EQ(unit_last(&t, "try_to_timestamp", "string", "nope", "yyyy"), "NULL");
    dl_vector *none[1] = {NULL};
    CHECK_STR_EQ(tf_eval(&t, "unix_timestamp", 0, none, 1), "1767225600");
    tf_destroy(&t);
}

int
main(void) {
    RUN(test_fields_read_the_session_wall_clock);
    RUN(test_truncation_and_calendar_helpers);
    RUN(test_make_date_and_make_timestamp_validate_fields);
    RUN(test_date_format_writes_spark_patterns);
    RUN(test_parsing_with_patterns_is_strict_and_zone_aware);
    return harness_finish();
}
