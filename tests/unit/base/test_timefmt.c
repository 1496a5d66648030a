/* SPDX-License-Identifier: Apache-2.0 */
#include <stdint.h>

#include "base/timefmt.h"
#include "harness.h"

/* 2026-10-02T08:00:00Z */
#define TS_2026_10_02_08H INT64_C(1790928000000000)

static dl_str
s(const char *cstr) {
    return dl_str_from_cstr(cstr);
}

/* ---- dates --------------------------------------------------------------------------- */

TEST(test_date_known_day_counts) {
    CHECK_INT_EQ(dl_date_from_civil(1970, 1, 1), 0);
    CHECK_INT_EQ(dl_date_from_civil(1969, 12, 31), -1);
    CHECK_INT_EQ(dl_date_from_civil(2000, 3, 1), 11017);
    CHECK_INT_EQ(dl_date_from_civil(1, 1, 1), -719162);
    CHECK_INT_EQ(dl_date_from_civil(9999, 12, 31), 2932896);
    CHECK_INT_EQ(dl_date_from_civil(1600, 1, 1), -135140);
    CHECK_INT_EQ(dl_date_from_civil(1900, 3, 1), -25508);
    CHECK_INT_EQ(dl_date_from_civil(2026, 10, 2), 20728);
}

/* Walks the calendar day by day with an independent month-length table and checks that
 * from_civil, to_civil, format and parse all agree on every day from 1600 to 2400. */
TEST(test_date_every_day_1600_to_2400_round_trips) {
    dl_error err;
    int64_t year = 1600;
    int month = 1;
    int day = 1;
    int64_t first = dl_date_from_civil(1600, 1, 1);
    int64_t last = dl_date_from_civil(2400, 12, 31);
    CHECK_INT_EQ(last - first + 1, 801 * 365 + 195); /* 195 leap years in 1600..2400 */
    for (int64_t d = first; d <= last; d++) {
        int64_t y2;
        int m2;
        int d2;
        dl_date_to_civil(d, &y2, &m2, &d2);
        if (y2 != year || m2 != month || d2 != day) {
            HARNESS_FAIL_AT("day %lld: got %lld-%d-%d, want %lld-%d-%d", (long long)d,
                            (long long)y2, m2, d2, (long long)year, month, day);
            return;
        }
        CHECK_INT_EQ(dl_date_from_civil(year, month, day), d);
        char buf[DL_DATE_STR_CAP];
        size_t len = dl_date_format((int32_t)d, buf);
        CHECK_INT_EQ(len, 10);
        int32_t back = 0;
        CHECK_OK(dl_date_parse(dl_str_make(buf, len), &back, &err), &err);
        CHECK_INT_EQ(back, d);
        /* advance the independent calendar */
        bool is_leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        static const int lengths[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        int dim = lengths[month - 1] + (month == 2 && is_leap ? 1 : 0);
        if (++day > dim) {
            day = 1;
            if (++month > 12) {
                month = 1;
                year++;
            }
        }
    }
    CHECK_INT_EQ(year, 2401);
}

TEST(test_date_leap_years_1900_no_2000_yes) {
    dl_error err;
    int32_t d = 0;
    CHECK(!dl_is_leap_year(1900));
    CHECK(dl_is_leap_year(2000));
    CHECK(dl_is_leap_year(2024));
    CHECK(!dl_is_leap_year(2023));
    CHECK(dl_is_leap_year(0));
    CHECK(dl_is_leap_year(-4));
    CHECK(!dl_is_leap_year(-100));
    CHECK_INT_EQ(dl_days_in_month(1900, 2), 28);
    CHECK_INT_EQ(dl_days_in_month(2000, 2), 29);
    CHECK_INT_EQ(dl_days_in_month(2000, 13), 0);
    CHECK_OK(dl_date_parse(s("2000-02-29"), &d, &err), &err);
    CHECK_INT_EQ(d, dl_date_from_civil(2000, 2, 29));
    CHECK_OK(dl_date_parse(s("2024-02-29"), &d, &err), &err);
    CHECK_STATUS(dl_date_parse(s("1900-02-29"), &d, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "day 29 is out of range 1..28 for February 1900");
    CHECK_INT_EQ(err.offset, 8);
    CHECK_STATUS(dl_date_parse(s("2023-02-29"), &d, &err), DL_ERR_INVALID_ARG, &err);
}

TEST(test_date_parse_accepts_spark_forms) {
    dl_error err;
    int32_t d = 0;
    CHECK_OK(dl_date_parse(s("2026-1-2"), &d, &err), &err);
    CHECK_INT_EQ(d, dl_date_from_civil(2026, 1, 2));
    CHECK_OK(dl_date_parse(s("  2026-01-02 \t\n"), &d, &err), &err);
    CHECK_INT_EQ(d, dl_date_from_civil(2026, 1, 2));
    CHECK_OK(dl_date_parse(s("2026"), &d, &err), &err);
    CHECK_INT_EQ(d, dl_date_from_civil(2026, 1, 1));
    CHECK_OK(dl_date_parse(s("2026-03"), &d, &err), &err);
    CHECK_INT_EQ(d, dl_date_from_civil(2026, 3, 1));
    CHECK_OK(dl_date_parse(s("2026-10-02 08:00:00"), &d, &err), &err);
    CHECK_INT_EQ(d, 20728);
    CHECK_OK(dl_date_parse(s("2026-10-02T23:59:59.999Z"), &d, &err), &err);
    CHECK_INT_EQ(d, 20728);
    CHECK_OK(dl_date_parse(s("+2026-10-02"), &d, &err), &err);
    CHECK_INT_EQ(d, 20728);
    CHECK_OK(dl_date_parse(s("-0044-03-15"), &d, &err), &err);
    CHECK_INT_EQ(d, dl_date_from_civil(-44, 3, 15));
    CHECK_OK(dl_date_parse(s("0000-01-01"), &d, &err), &err);
    CHECK_INT_EQ(d, dl_date_from_civil(0, 1, 1));
    CHECK_OK(dl_date_parse(s("+10000-01-01"), &d, &err), &err);
    CHECK_INT_EQ(d, dl_date_from_civil(10000, 1, 1));
}

TEST(test_date_format_signs_and_extremes) {
    char buf[DL_DATE_STR_CAP];
    dl_error err;
    int32_t back = 0;
    dl_date_format(0, buf);
    CHECK_STR_EQ(buf, "1970-01-01");
    dl_date_format(-1, buf);
    CHECK_STR_EQ(buf, "1969-12-31");
    dl_date_format((int32_t)dl_date_from_civil(1, 1, 1), buf);
    CHECK_STR_EQ(buf, "0001-01-01");
    dl_date_format((int32_t)dl_date_from_civil(0, 12, 31), buf);
    CHECK_STR_EQ(buf, "0000-12-31");
    dl_date_format((int32_t)dl_date_from_civil(-44, 3, 15), buf);
    CHECK_STR_EQ(buf, "-0044-03-15");
    dl_date_format((int32_t)dl_date_from_civil(10000, 1, 1), buf);
    CHECK_STR_EQ(buf, "+10000-01-01");
    CHECK_INT_EQ(dl_date_format(INT32_MIN, buf), 14);
    CHECK_STR_EQ(buf, "-5877641-06-23");
    CHECK_OK(dl_date_parse(s(buf), &back, &err), &err);
    CHECK_INT_EQ(back, INT32_MIN);
    dl_date_format(INT32_MAX, buf);
    CHECK_STR_EQ(buf, "+5881580-07-11");
    CHECK_OK(dl_date_parse(s(buf), &back, &err), &err);
    CHECK_INT_EQ(back, INT32_MAX);
}

TEST(test_date_parse_errors_name_the_field_and_offset) {
    dl_error err;
    int32_t d = 0;
    CHECK_STATUS(dl_date_parse(s("2026-13-01"), &d, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "invalid date '2026-13-01': month 13 is out of range 1..12");
    CHECK_ERR_CONTAINS(&err, "(at offset 5)");
    CHECK_INT_EQ(err.offset, 5);
    CHECK_STATUS(dl_date_parse(s("2026-02-30"), &d, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "day 30 is out of range 1..28 for February 2026");
    CHECK_INT_EQ(err.offset, 8);
    CHECK_STATUS(dl_date_parse(s("2026-00-10"), &d, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_INT_EQ(err.offset, 5);
    CHECK_STATUS(dl_date_parse(s("2026-04-00"), &d, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_INT_EQ(err.offset, 8);
    CHECK_STATUS(dl_date_parse(s("26-01-01"), &d, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "the year has 2 digits; expected 4 to 7");
    CHECK_INT_EQ(err.offset, 0);
    CHECK_STATUS(dl_date_parse(s("2026-001-01"), &d, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "the month has 3 digits");
    CHECK_INT_EQ(err.offset, 5);
    CHECK_STATUS(dl_date_parse(s("2026/01/01"), &d, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "unexpected '/' after the year; expected '-' and the month");
    CHECK_INT_EQ(err.offset, 4);
    CHECK_STATUS(dl_date_parse(s(" 2026-01-01x"), &d, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "unexpected 'x' after the day");
    CHECK_INT_EQ(err.offset, 11);
    CHECK_STATUS(dl_date_parse(s("2026-01 02"), &d, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "unexpected ' ' after the month");
    CHECK_STATUS(dl_date_parse(s("2026-"), &d, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "expected the month but found the end of the text");
    CHECK_INT_EQ(err.offset, 5);
    CHECK_STATUS(dl_date_parse(s("   "), &d, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "empty");
    CHECK_STATUS(dl_date_parse(s("12345678-01-01"), &d, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "the year has 8 digits");
    CHECK_STATUS(dl_date_parse(s("5881581-01-01"), &d, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "outside the range of 32-bit day counts");
    CHECK_STATUS(dl_date_parse(s("-2026-01-01"), &d, &err), DL_OK, &err);
    CHECK_STATUS(dl_date_parse(dl_str_make("2026-01-0\x01", 10), &d, &err), DL_ERR_INVALID_ARG,
                 &err);
    CHECK_STATUS(dl_date_parse(dl_str_make("2026-\x80", 6), &d, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "byte 0x80");
    CHECK_STATUS(dl_date_parse(dl_str_make(NULL, 0), &d, &err), DL_ERR_INVALID_ARG, &err);
}

TEST(test_date_parse_tolerates_null_error) {
    int32_t d = 0;
    CHECK(dl_date_parse(s("2026-13-01"), &d, NULL) == DL_ERR_INVALID_ARG);
    CHECK(dl_date_parse(s("2026-12-01"), &d, NULL) == DL_OK);
}

/* ---- timestamps ---------------------------------------------------------------------- */

TEST(test_ts_parse_accepts_every_documented_form) {
    dl_error err;
    int64_t t = 0;
    const int64_t base = TS_2026_10_02_08H;

    struct {
        const char *text;
        int64_t want;
    } cases[] = {
        {"2026-10-02T08:00:00Z", base},
        {"2026-10-02 08:00:00", base},
        {"2026-10-02T08:00:00.123456+02:00", base + 123456 - 2 * DL_MICROS_PER_HOUR},
        {"2026-10-02T08:00:00-0530", base + 5 * DL_MICROS_PER_HOUR + 30 * DL_MICROS_PER_MINUTE},
        {"2026-10-02 08:00:00.5 -05:30", base + 500000 + 330 * DL_MICROS_PER_MINUTE},
        {"2026-10-02", base - 8 * DL_MICROS_PER_HOUR},
        {"2026-10", base - 8 * DL_MICROS_PER_HOUR - DL_MICROS_PER_DAY},
        {"2026-10-02 08", base},
        {"2026-10-02 08:05", base + 5 * DL_MICROS_PER_MINUTE},
        {"2026-10-2 8:5:3", base + 5 * DL_MICROS_PER_MINUTE + 3 * DL_MICROS_PER_SECOND},
        {"  2026-10-02T08:00:00Z\n", base},
        {"2026-10-02T08:00:00.", base},
        {"2026-10-02T08:00:00 UTC", base},
        {"2026-10-02T08:00:00utc", base},
        {"2026-10-02T08:00:00 GMT+2", base - 2 * DL_MICROS_PER_HOUR},
        {"2026-10-02T08:00:00UTC-05:30", base + 330 * DL_MICROS_PER_MINUTE},
        {"2026-10-02T08:00:00 UT", base},
        {"2026-10-02T08:00:00+2", base - 2 * DL_MICROS_PER_HOUR},
        {"2026-10-02T08:00:00+02", base - 2 * DL_MICROS_PER_HOUR},
        {"2026-10-02T08:00:00+0200", base - 2 * DL_MICROS_PER_HOUR},
        {"2026-10-02T08:00:00+02:00:30", base - 2 * DL_MICROS_PER_HOUR - 30 * DL_MICROS_PER_SECOND},
        {"2026-10-02T08:00:00+020030", base - 2 * DL_MICROS_PER_HOUR - 30 * DL_MICROS_PER_SECOND},
        {"2026-10-02T08:00:00+2:00", base - 2 * DL_MICROS_PER_HOUR},
        {"2026-10-02T08:00:00+02:3", base - 2 * DL_MICROS_PER_HOUR - 3 * DL_MICROS_PER_MINUTE},
        {"2026-10-02T08:00:00-18:00", base + 18 * DL_MICROS_PER_HOUR},
        {"2026-10-02T08:00:00 EST", base + 5 * DL_MICROS_PER_HOUR},
        {"2026-10-02T08:00:00HST", base + 10 * DL_MICROS_PER_HOUR},
        {"+2026-10-02T08:00:00Z", base},
    };

    for (size_t i = 0; i < DL_ARRAY_LEN(cases); i++) {
        dl_status st = dl_ts_parse(s(cases[i].text), 0, &t, &err);
        if (st != DL_OK || t != cases[i].want) {
            HARNESS_FAIL_AT("'%s': status %s (%s), got %lld want %lld", cases[i].text,
                            dl_status_name(st), err.msg, (long long)t, (long long)cases[i].want);
            return;
        }
    }
}

TEST(test_ts_parse_without_zone_uses_default_offset) {
    dl_error err;
    int64_t t = 0;
    CHECK_OK(dl_ts_parse(s("2026-10-02 08:00:00"), 3600, &t, &err), &err);
    CHECK_INT_EQ(t, TS_2026_10_02_08H - DL_MICROS_PER_HOUR);
    CHECK_OK(dl_ts_parse(s("2026-10-02 08:00:00"), -19800, &t, &err), &err);
    CHECK_INT_EQ(t, TS_2026_10_02_08H + 19800 * DL_MICROS_PER_SECOND);
    /* a zone in the text wins over the default */
    CHECK_OK(dl_ts_parse(s("2026-10-02 08:00:00Z"), 3600, &t, &err), &err);
    CHECK_INT_EQ(t, TS_2026_10_02_08H);
    CHECK_STATUS(dl_ts_parse(s("2026-10-02"), 19 * 3600, &t, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "exceeds 18 hours");
}

TEST(test_ts_fraction_digits_1_to_9_and_beyond_truncate) {
    dl_error err;
    const char *digits = "123456789012";
    const int64_t want[] = {100000, 120000, 123000, 123400, 123450, 123456,
                            123456, 123456, 123456, 123456, 123456, 123456};
    for (int n = 1; n <= 12; n++) {
        char text[64];
        (void)snprintf(text, sizeof(text), "2026-10-02 08:00:00.%.*s", n, digits);
        int64_t t = 0;
        CHECK_OK(dl_ts_parse(s(text), 0, &t, &err), &err);
        CHECK_INT_EQ(t - TS_2026_10_02_08H, want[n - 1]);
    }
    int64_t t = 0;
    CHECK_OK(dl_ts_parse(s("2026-10-02 08:00:00.9999999Z"), 0, &t, &err), &err);
    CHECK_INT_EQ(t - TS_2026_10_02_08H, 999999);
    /* before 1970 truncation still goes toward the past */
    CHECK_OK(dl_ts_parse(s("1969-12-31 23:59:59.9999999"), 0, &t, &err), &err);
    CHECK_INT_EQ(t, -1);
}

TEST(test_ts_pre_1970_parse_and_format) {
    dl_error err;
    char buf[DL_TS_STR_CAP];
    int64_t t = 0;
    dl_ts_format(-1, DL_TS_STYLE_SPARK, buf);
    CHECK_STR_EQ(buf, "1969-12-31 23:59:59.999999");
    dl_ts_format(-DL_MICROS_PER_SECOND, DL_TS_STYLE_SPARK, buf);
    CHECK_STR_EQ(buf, "1969-12-31 23:59:59");
    dl_ts_format(-DL_MICROS_PER_DAY, DL_TS_STYLE_SPARK, buf);
    CHECK_STR_EQ(buf, "1969-12-31 00:00:00");
    dl_ts_format(-DL_MICROS_PER_DAY - 1, DL_TS_STYLE_SPARK, buf);
    CHECK_STR_EQ(buf, "1969-12-30 23:59:59.999999");
    dl_ts_format(-1, DL_TS_STYLE_ISO_MILLIS, buf);
    CHECK_STR_EQ(buf, "1969-12-31T23:59:59.999Z");
    dl_ts_format(-1, DL_TS_STYLE_ISO_MICROS, buf);
    CHECK_STR_EQ(buf, "1969-12-31T23:59:59.999999Z");
    CHECK_OK(dl_ts_parse(s("1969-12-31 23:59:59.999999"), 0, &t, &err), &err);
    CHECK_INT_EQ(t, -1);
    CHECK_OK(dl_ts_parse(s("1900-01-01 00:00:00"), 0, &t, &err), &err);
    CHECK_INT_EQ(t, dl_date_from_civil(1900, 1, 1) * DL_MICROS_PER_DAY);
    CHECK_OK(dl_ts_parse(s("0001-01-01T00:00:00Z"), 0, &t, &err), &err);
    CHECK_INT_EQ(t, INT64_C(-62135596800000000));
    dl_ts_format(t, DL_TS_STYLE_SPARK, buf);
    CHECK_STR_EQ(buf, "0001-01-01 00:00:00");
    CHECK_OK(dl_ts_parse(s("-0001-12-31 23:59:59.5"), 0, &t, &err), &err);
    dl_ts_format(t, DL_TS_STYLE_SPARK, buf);
    CHECK_STR_EQ(buf, "-0001-12-31 23:59:59.5");
}

TEST(test_ts_format_styles) {
    char buf[DL_TS_STR_CAP];
    int64_t t = TS_2026_10_02_08H;
    CHECK_INT_EQ(dl_ts_format(t, DL_TS_STYLE_SPARK, buf), 19);
    CHECK_STR_EQ(buf, "2026-10-02 08:00:00");
    dl_ts_format(t + 123400, DL_TS_STYLE_SPARK, buf);
    CHECK_STR_EQ(buf, "2026-10-02 08:00:00.1234");
    dl_ts_format(t + 100000, DL_TS_STYLE_SPARK, buf);
    CHECK_STR_EQ(buf, "2026-10-02 08:00:00.1");
    dl_ts_format(t + 1, DL_TS_STYLE_SPARK, buf);
    CHECK_STR_EQ(buf, "2026-10-02 08:00:00.000001");
    dl_ts_format(t, DL_TS_STYLE_ISO_MICROS, buf);
    CHECK_STR_EQ(buf, "2026-10-02T08:00:00.000000Z");
    dl_ts_format(t + 123456, DL_TS_STYLE_ISO_MICROS, buf);
    CHECK_STR_EQ(buf, "2026-10-02T08:00:00.123456Z");
    dl_ts_format(t + 123456, DL_TS_STYLE_ISO_MILLIS, buf);
    CHECK_STR_EQ(buf, "2026-10-02T08:00:00.123Z");
    dl_ts_format(t + 123999, DL_TS_STYLE_ISO_MILLIS_NTZ, buf);
    CHECK_STR_EQ(buf, "2026-10-02T08:00:00.123");
    dl_ts_format(0, DL_TS_STYLE_ISO_MILLIS, buf);
    CHECK_STR_EQ(buf, "1970-01-01T00:00:00.000Z");
}

TEST(test_ts_extremes_format_and_parse_back) {
    dl_error err;
    char buf[DL_TS_STR_CAP];
    int64_t t = 0;
    dl_ts_format(INT64_MIN, DL_TS_STYLE_SPARK, buf);
    CHECK_STR_EQ(buf, "-290308-12-21 19:59:05.224192");
    CHECK_OK(dl_ts_parse(s(buf), 0, &t, &err), &err);
    CHECK_INT_EQ(t, INT64_MIN);
    dl_ts_format(INT64_MAX, DL_TS_STYLE_ISO_MICROS, buf);
    CHECK_STR_EQ(buf, "+294247-01-10T04:00:54.775807Z");
    CHECK_OK(dl_ts_parse(s(buf), 0, &t, &err), &err);
    CHECK_INT_EQ(t, INT64_MAX);
    /* one microsecond past either end */
    CHECK_STATUS(dl_ts_parse(s("+294247-01-10T04:00:54.775808Z"), 0, &t, &err), DL_ERR_INVALID_ARG,
                 &err);
    CHECK_ERR_CONTAINS(&err, "outside the range of 64-bit microseconds");
    CHECK_INT_EQ(err.offset, 1);
    CHECK_STATUS(dl_ts_parse(s("-290308-12-21 19:59:05.224191"), 0, &t, &err), DL_ERR_INVALID_ARG,
                 &err);
    /* in range locally, out of range once the offset applies */
    CHECK_STATUS(dl_ts_parse(s("+294247-01-10T04:00:54.775807-01:00"), 0, &t, &err),
                 DL_ERR_INVALID_ARG, &err);
    CHECK_OK(dl_ts_parse(s("+294247-01-10T05:00:54.775807+01:00"), 0, &t, &err), &err);
    CHECK_INT_EQ(t, INT64_MAX);
    CHECK_STATUS(dl_ts_parse(s("999999-01-01"), 0, &t, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_STATUS(dl_ts_parse(s("1000000-01-01"), 0, &t, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "the year has 7 digits; expected 4 to 6");
}

/* A pseudo-random walk over the whole int64 range, all styles that keep microseconds. */
TEST(test_ts_round_trip_across_the_range) {
    dl_error err;
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        int64_t v = (int64_t)x;
        if (i % 4 == 1) {
            v /= 1000000; /* also cover small magnitudes near the epoch */
        } else if (i % 4 == 2) {
            v %= INT64_C(400) * 366 * DL_MICROS_PER_DAY;
        }
        char buf[DL_TS_STR_CAP];
        int64_t back = 0;
        size_t len = dl_ts_format(v, (i & 1) ? DL_TS_STYLE_SPARK : DL_TS_STYLE_ISO_MICROS, buf);
        CHECK(len < DL_TS_STR_CAP);
        if (dl_ts_parse(dl_str_make(buf, len), 0, &back, &err) != DL_OK || back != v) {
            HARNESS_FAIL_AT("%lld -> '%s' -> %lld (%s)", (long long)v, buf, (long long)back,
                            err.msg);
            return;
        }
        int32_t day = 0;
        CHECK_OK(dl_date_parse(dl_str_make(buf, len), &day, &err), &err);
        CHECK_INT_EQ(day, dl_ts_to_date(v));
    }
}

TEST(test_ts_civil_breakdown_and_rebuild) {
    dl_error err;
    dl_civil_time t;
    int64_t back = 0;
    dl_ts_to_civil(TS_2026_10_02_08H + 123456, &t);
    CHECK_INT_EQ(t.year, 2026);
    CHECK_INT_EQ(t.month, 10);
    CHECK_INT_EQ(t.day, 2);
    CHECK_INT_EQ(t.hour, 8);
    CHECK_INT_EQ(t.minute, 0);
    CHECK_INT_EQ(t.second, 0);
    CHECK_INT_EQ(t.micros, 123456);
    CHECK_OK(dl_ts_from_civil(&t, 0, &back, &err), &err);
    CHECK_INT_EQ(back, TS_2026_10_02_08H + 123456);
    CHECK_OK(dl_ts_from_civil(&t, 7200, &back, &err), &err);
    CHECK_INT_EQ(back, TS_2026_10_02_08H + 123456 - 2 * DL_MICROS_PER_HOUR);
    t.day = 31;
    t.month = 9;
    CHECK_STATUS(dl_ts_from_civil(&t, 0, &back, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "day 31 is out of range 1..30");
    t.day = 1;
    t.second = 60;
    CHECK_STATUS(dl_ts_from_civil(&t, 0, &back, &err), DL_ERR_INVALID_ARG, &err);
    t.second = 0;
    t.year = 300000;
    CHECK_STATUS(dl_ts_from_civil(&t, 0, &back, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "outside the range");
    t.year = 2026;
    CHECK_STATUS(dl_ts_from_civil(&t, 18 * 3600 + 1, &back, &err), DL_ERR_INVALID_ARG, &err);
}

TEST(test_ts_parse_errors_name_the_field_and_offset) {
    dl_error err;
    int64_t t = 0;

    struct {
        const char *text;
        dl_status code;
        int64_t offset;
        const char *needle;
    } cases[] = {
        {"2026-10-02 24:00:00", DL_ERR_INVALID_ARG, 11, "hour 24 is out of range 0..23"},
        {"2026-10-02 08:60", DL_ERR_INVALID_ARG, 14, "minute 60 is out of range 0..59"},
        {"2026-10-02 08:00:61", DL_ERR_INVALID_ARG, 17, "second 61 is out of range 0..59"},
        {"2026-13-02 08:00:00", DL_ERR_INVALID_ARG, 5, "month 13"},
        {"2026-02-30T00:00:00Z", DL_ERR_INVALID_ARG, 8, "day 30 is out of range 1..28"},
        {"2026-10-02X08:00:00", DL_ERR_INVALID_ARG, 10,
         "unexpected 'X' after the day; expected ' ' or 'T' and a time"},
        {"2026-10-02T", DL_ERR_INVALID_ARG, 11, "expected the hour but found the end"},
        {"2026-10-02 08:00Z", DL_ERR_INVALID_ARG, 16, "unexpected 'Z' after the minutes"},
        {"2026-10-02 08-00", DL_ERR_INVALID_ARG, 13, "unexpected '-' after the hour"},
        {"2026-10-02 008:00:00", DL_ERR_INVALID_ARG, 11, "the hour has 3 digits"},
        {"2026-10-02T08:00:00+19:00", DL_ERR_INVALID_ARG, 19, "bad time zone '+19:00'"},
        {"2026-10-02T08:00:00+18:01", DL_ERR_INVALID_ARG, 19, "offset exceeds 18:00"},
        {"2026-10-02T08:00:00+02:60", DL_ERR_INVALID_ARG, 19, "out of range"},
        {"2026-10-02T08:00:00+020", DL_ERR_INVALID_ARG, 19, "expected h, hh, hhmm or hhmmss"},
        {"2026-10-02T08:00:00+02:00:0", DL_ERR_INVALID_ARG, 19, "expected hh:mm or hh:mm:ss"},
        {"2026-10-02T08:00:00+", DL_ERR_INVALID_ARG, 19, "expected digits after the sign"},
        {"2026-10-02T08:00:00 @@", DL_ERR_INVALID_ARG, 20, "bad time zone '@@'"},
        {"2026-10-02T08:00:00z", DL_ERR_INVALID_ARG, 19, "bad time zone 'z'"},
        {"2026-10-02T08:00:00.1.2", DL_ERR_INVALID_ARG, 21, "bad time zone '.2'"},
        {"2026-10-02T08:00:00 Europe/Paris", DL_ERR_UNSUPPORTED, 20,
         "unsupported timestamp '2026-10-02T08:00:00 Europe/Paris': named time zone "
         "'Europe/Paris' is not supported yet"},
        {"2026-10-02T08:00:00 PST", DL_ERR_UNSUPPORTED, 20, "named time zone 'PST'"},
        {"08:00:00", DL_ERR_UNSUPPORTED, 0, "a time without a date is not supported"},
        {"T08:00", DL_ERR_UNSUPPORTED, 0, "a time without a date"},
        {"2026:10:02", DL_ERR_INVALID_ARG, 4, "unexpected ':' after the year"},
        {"", DL_ERR_INVALID_ARG, 0, "the text is empty"},
        {"2026-10-02 08:00:00 garbage with spaces", DL_ERR_INVALID_ARG, 20, "bad time zone"},
    };

    for (size_t i = 0; i < DL_ARRAY_LEN(cases); i++) {
        dl_status st = dl_ts_parse(s(cases[i].text), 0, &t, &err);
        if (st != cases[i].code || err.offset != cases[i].offset ||
            strstr(err.msg, cases[i].needle) == NULL) {
            HARNESS_FAIL_AT("'%s': got %s at %lld \"%s\"; want %s at %lld \"%s\"", cases[i].text,
                            dl_status_name(st), (long long)err.offset, err.msg,
                            dl_status_name(cases[i].code), (long long)cases[i].offset,
                            cases[i].needle);
            return;
        }
    }
}

TEST(test_ts_long_input_is_cut_in_the_message) {
    dl_error err;
    int64_t t = 0;
    char text[300];
    memset(text, '9', sizeof(text));
    CHECK_STATUS(dl_ts_parse(dl_str_make(text, sizeof(text)), 0, &t, &err), DL_ERR_INVALID_ARG,
                 &err);
    CHECK_ERR_CONTAINS(&err, "...': the year has 300 digits");
}

TEST(test_ts_ntz_ignores_or_refuses_zones) {
    dl_error err;
    int64_t t = 0;
    CHECK_OK(dl_ts_ntz_parse(s("2026-10-02 08:00:00"), false, &t, &err), &err);
    CHECK_INT_EQ(t, TS_2026_10_02_08H);
    CHECK_OK(dl_ts_ntz_parse(s("2021-11-18T02:30:00.123"), false, &t, &err), &err);
    CHECK_INT_EQ(t, (dl_date_from_civil(2021, 11, 18) * 86400 + 2 * 3600 + 30 * 60) *
                            DL_MICROS_PER_SECOND +
                        123000);
    CHECK_STATUS(dl_ts_ntz_parse(s("2026-10-02 08:00:00+02:00"), false, &t, &err),
                 DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "a timestamp_ntz has no time zone");
    CHECK_INT_EQ(err.offset, 19);
    CHECK_OK(dl_ts_ntz_parse(s("2026-10-02 08:00:00+02:00"), true, &t, &err), &err);
    CHECK_INT_EQ(t, TS_2026_10_02_08H);
    CHECK_OK(dl_ts_ntz_parse(s("2026-10-02 08:00:00 Europe/Paris"), true, &t, &err), &err);
    CHECK_INT_EQ(t, TS_2026_10_02_08H);
    CHECK_STATUS(dl_ts_ntz_parse(s("2026-10-02 08:00:00+25:00"), true, &t, &err),
                 DL_ERR_INVALID_ARG, &err);
}

TEST(test_ts_compact_time_travel_form) {
    dl_error err;
    int64_t t = 0;
    CHECK_OK(dl_ts_parse_compact(s("@20261002080000123"), 0, &t, &err), &err);
    CHECK_INT_EQ(t, TS_2026_10_02_08H + 123000);
    CHECK_OK(dl_ts_parse_compact(s("20261002080000000"), 3600, &t, &err), &err);
    CHECK_INT_EQ(t, TS_2026_10_02_08H - DL_MICROS_PER_HOUR);
    CHECK_STATUS(dl_ts_parse_compact(s("@2026100208000012"), 0, &t, &err), DL_ERR_INVALID_ARG,
                 &err);
    CHECK_ERR_CONTAINS(&err, "expected 17 digits yyyyMMddHHmmssSSS, found 16 bytes");
    CHECK_STATUS(dl_ts_parse_compact(s("@20261302080000123"), 0, &t, &err), DL_ERR_INVALID_ARG,
                 &err);
    CHECK_ERR_CONTAINS(&err, "month 13");
    CHECK_INT_EQ(err.offset, 5);
    CHECK_STATUS(dl_ts_parse_compact(s("2026100208000x123"), 0, &t, &err), DL_ERR_INVALID_ARG,
                 &err);
    CHECK_INT_EQ(err.offset, 13);
    CHECK_STATUS(dl_ts_parse_compact(s("20261002250000123"), 0, &t, &err), DL_ERR_INVALID_ARG,
                 &err);
    CHECK_ERR_CONTAINS(&err, "hour 25");
    CHECK_STATUS(dl_ts_parse_compact(s(""), 0, &t, &err), DL_ERR_INVALID_ARG, &err);
}

TEST(test_ts_epoch_numbers) {
    dl_error err;
    int64_t t = 0;
    CHECK_OK(dl_ts_parse_epoch_millis(s("1790928000000"), &t, &err), &err);
    CHECK_INT_EQ(t, TS_2026_10_02_08H);
    CHECK_OK(dl_ts_parse_epoch_millis(s(" -1 "), &t, &err), &err);
    CHECK_INT_EQ(t, -1000);
    CHECK_OK(dl_ts_parse_epoch_micros(s("+1790928000000000"), &t, &err), &err);
    CHECK_INT_EQ(t, TS_2026_10_02_08H);
    CHECK_OK(dl_ts_parse_epoch_micros(s("-9223372036854775808"), &t, &err), &err);
    CHECK_INT_EQ(t, INT64_MIN);
    CHECK_OK(dl_ts_parse_epoch_micros(s("9223372036854775807"), &t, &err), &err);
    CHECK_INT_EQ(t, INT64_MAX);
    CHECK_STATUS(dl_ts_parse_epoch_micros(s("9223372036854775808"), &t, &err), DL_ERR_INVALID_ARG,
                 &err);
    CHECK_ERR_CONTAINS(&err, "does not fit in 64 bits");
    CHECK_STATUS(dl_ts_parse_epoch_millis(s("9223372036854776"), &t, &err), DL_ERR_INVALID_ARG,
                 &err);
    CHECK_ERR_CONTAINS(&err, "outside the range of 64-bit microseconds");
    CHECK_STATUS(dl_ts_parse_epoch_millis(s("12a"), &t, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "unexpected 'a' after the digits");
    CHECK_INT_EQ(err.offset, 2);
    CHECK_STATUS(dl_ts_parse_epoch_millis(s("-"), &t, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_STATUS(dl_ts_parse_epoch_millis(s(""), &t, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_STATUS(dl_ts_parse_epoch_millis(s("1.5"), &t, &err), DL_ERR_INVALID_ARG, &err);
}

TEST(test_ts_unit_conversions_floor) {
    dl_error err;
    int64_t t = 0;
    CHECK_INT_EQ(dl_ts_to_millis(-1), -1);
    CHECK_INT_EQ(dl_ts_to_millis(1999), 1);
    CHECK_INT_EQ(dl_ts_to_date(-1), -1);
    CHECK_INT_EQ(dl_ts_to_date(0), 0);
    CHECK_INT_EQ(dl_ts_to_date(INT64_MIN), -106751992);
    CHECK_OK(dl_ts_from_millis(-1, &t, &err), &err);
    CHECK_INT_EQ(t, -1000);
    CHECK_STATUS(dl_ts_from_millis(INT64_MAX / 100, &t, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_OK(dl_date_to_ts(-1, &t, &err), &err);
    CHECK_INT_EQ(t, -DL_MICROS_PER_DAY);
    CHECK_STATUS(dl_date_to_ts(INT32_MAX, &t, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "outside the timestamp range");
}

/* ---- durations ----------------------------------------------------------------------- */

TEST(test_duration_every_unit_and_form) {
    dl_error err;

    struct {
        const char *text;
        int64_t want;
    } cases[] = {
        {"interval 1 week", DL_MICROS_PER_WEEK},
        {"2 weeks", 2 * DL_MICROS_PER_WEEK},
        {"interval 30 days", 30 * DL_MICROS_PER_DAY},
        {"1 day", DL_MICROS_PER_DAY},
        {"interval 168 hours", 168 * DL_MICROS_PER_HOUR},
        {"168 hours", 168 * DL_MICROS_PER_HOUR},
        {"1 hour", DL_MICROS_PER_HOUR},
        {"interval 5 minutes", 5 * DL_MICROS_PER_MINUTE},
        {"1 minute", DL_MICROS_PER_MINUTE},
        {"10 seconds", 10 * DL_MICROS_PER_SECOND},
        {"1 second", DL_MICROS_PER_SECOND},
        {"1.5 seconds", 1500000},
        {".25 second", 250000},
        {"2. seconds", 2 * DL_MICROS_PER_SECOND},
        {"0.123456789 seconds", 123456},
        {"-1.5 seconds 2 seconds", 500000},
        {"250 milliseconds", 250000},
        {"1 millisecond", 1000},
        {"7 microseconds", 7},
        {"1 microsecond", 1},
        {"1500 nanoseconds", 1},
        {"1 nanosecond", 0},
        {"INTERVAL 2 DAYS", 2 * DL_MICROS_PER_DAY},
        {"Interval 7 Days 12 Hours", 7 * DL_MICROS_PER_DAY + 12 * DL_MICROS_PER_HOUR},
        {"interval 1 day -1 hour", 23 * DL_MICROS_PER_HOUR},
        {"  interval \t 3   days  ", 3 * DL_MICROS_PER_DAY},
        {"+3 days", 3 * DL_MICROS_PER_DAY},
        {"interval 0 seconds", 0},
        {"1 week 1 day 1 hour 1 minute 1 second 1 millisecond 1 microsecond",
         DL_MICROS_PER_WEEK + DL_MICROS_PER_DAY + DL_MICROS_PER_HOUR + DL_MICROS_PER_MINUTE +
             DL_MICROS_PER_SECOND + 1001},
        {"106751991 days", 106751991 * DL_MICROS_PER_DAY},
    };

    for (size_t i = 0; i < DL_ARRAY_LEN(cases); i++) {
        int64_t v = -1;
        dl_status st = dl_duration_parse(s(cases[i].text), &v, &err);
        if (st != DL_OK || v != cases[i].want) {
            HARNESS_FAIL_AT("'%s': status %s (%s), got %lld want %lld", cases[i].text,
                            dl_status_name(st), err.msg, (long long)v, (long long)cases[i].want);
            return;
        }
    }
}

TEST(test_duration_months_and_years_are_refused) {
    dl_error err;
    int64_t v = 0;
    CHECK_STATUS(dl_duration_parse(s("interval 3 months"), &v, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "months are not accepted in a duration");
    CHECK_ERR_CONTAINS(&err, "'interval 365 days' for a year");
    CHECK_INT_EQ(err.offset, 11);
    CHECK(strstr(err.hint, "days") != NULL);
    CHECK_STATUS(dl_duration_parse(s("1 YEAR"), &v, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "YEAR are not accepted");
    CHECK_STATUS(dl_duration_parse(s("interval 1 month 1 day"), &v, &err), DL_ERR_INVALID_ARG,
                 &err);
}

TEST(test_duration_errors_report_offset) {
    dl_error err;

    struct {
        const char *text;
        int64_t offset;
        const char *needle;
    } cases[] = {
        {"", 0, "the text is empty"},
        {"interval", 8, "'interval' needs a number and a unit"},
        {"interval30 days", 0, "expected a space after 'interval'"},
        {"30days", 2, "unexpected 'd' after the number"},
        {"30", 0, "the number has no unit"},
        {"interval 30 fortnights", 12, "unknown unit 'fortnights'"},
        {"interval 1 daysx", 11, "unknown unit 'daysx'"},
        {"interval 1 s", 11, "unknown unit 's'"},
        {"1.5 days", 0, "only seconds may have a fraction, not days"},
        {"1.1234567891 seconds", 2, "more than 9 fraction digits"},
        {"-1 day", 0, "a duration must not be negative"},
        {"interval 1 day -2 days", 0, "must not be negative"},
        {"99999999999999999999 days", 0, "the number does not fit in 64 bits"},
        {"9223372036854775807 weeks", 0, "the term overflows"},
        {"106751991 days 106751991 days", 15, "the sum overflows"},
        {"interval days", 9, "expected a number but found 'd'"},
        {"interval 1 day 2", 15, "the number has no unit"},
        {". seconds", 0, "expected a number but found ' '"},
        {"1 day, 2 hours", 2, "unknown unit 'day,'"},
    };

    for (size_t i = 0; i < DL_ARRAY_LEN(cases); i++) {
        int64_t v = 0;
        dl_status st = dl_duration_parse(s(cases[i].text), &v, &err);
        if (st != DL_ERR_INVALID_ARG || err.offset != cases[i].offset ||
            strstr(err.msg, cases[i].needle) == NULL) {
            HARNESS_FAIL_AT("'%s': got %s at %lld \"%s\"; want offset %lld \"%s\"", cases[i].text,
                            dl_status_name(st), (long long)err.offset, err.msg,
                            (long long)cases[i].offset, cases[i].needle);
            return;
        }
    }
}

TEST(test_duration_format_canonical_and_round_trip) {
    dl_error err;
    char buf[DL_DURATION_STR_CAP];

    struct {
        int64_t v;
        const char *want;
    } cases[] = {
        {30 * DL_MICROS_PER_DAY, "interval 30 days"},
        {7 * DL_MICROS_PER_DAY, "interval 1 week"},
        {14 * DL_MICROS_PER_DAY, "interval 2 weeks"},
        {2 * DL_MICROS_PER_DAY, "interval 2 days"},
        {DL_MICROS_PER_DAY, "interval 1 day"},
        {36 * DL_MICROS_PER_HOUR, "interval 36 hours"},
        {90 * DL_MICROS_PER_MINUTE, "interval 90 minutes"},
        {DL_MICROS_PER_SECOND, "interval 1 second"},
        {1500 * DL_MICROS_PER_MILLI, "interval 1500 milliseconds"},
        {1, "interval 1 microsecond"},
        {0, "interval 0 seconds"},
        {-2 * DL_MICROS_PER_DAY, "interval -2 days"},
        {INT64_MIN, "interval -9223372036854775808 microseconds"},
    };

    for (size_t i = 0; i < DL_ARRAY_LEN(cases); i++) {
        size_t len = dl_duration_format(cases[i].v, buf);
        CHECK(len < DL_DURATION_STR_CAP);
        CHECK_STR_EQ(buf, cases[i].want);
    }
    uint64_t x = 12345;
    for (int i = 0; i < 20000; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        int64_t v = (int64_t)(x >> 1) >> (i % 40); /* non-negative, many magnitudes */
        if (i % 3 == 0) {
            v -= v % DL_MICROS_PER_SECOND;
        }
        size_t len = dl_duration_format(v, buf);
        int64_t back = -1;
        CHECK_OK(dl_duration_parse(dl_str_make(buf, len), &back, &err), &err);
        CHECK_INT_EQ(back, v);
    }
}

int
main(void) {
    RUN(test_date_known_day_counts);
    RUN(test_date_every_day_1600_to_2400_round_trips);
    RUN(test_date_leap_years_1900_no_2000_yes);
    RUN(test_date_parse_accepts_spark_forms);
    RUN(test_date_format_signs_and_extremes);
    RUN(test_date_parse_errors_name_the_field_and_offset);
    RUN(test_date_parse_tolerates_null_error);
    RUN(test_ts_parse_accepts_every_documented_form);
    RUN(test_ts_parse_without_zone_uses_default_offset);
    RUN(test_ts_fraction_digits_1_to_9_and_beyond_truncate);
    RUN(test_ts_pre_1970_parse_and_format);
    RUN(test_ts_format_styles);
    RUN(test_ts_extremes_format_and_parse_back);
    RUN(test_ts_round_trip_across_the_range);
    RUN(test_ts_civil_breakdown_and_rebuild);
    RUN(test_ts_parse_errors_name_the_field_and_offset);
    RUN(test_ts_long_input_is_cut_in_the_message);
    RUN(test_ts_ntz_ignores_or_refuses_zones);
    RUN(test_ts_compact_time_travel_form);
    RUN(test_ts_epoch_numbers);
    RUN(test_ts_unit_conversions_floor);
    RUN(test_duration_every_unit_and_form);
    RUN(test_duration_months_and_years_are_refused);
    RUN(test_duration_errors_report_offset);
    RUN(test_duration_format_canonical_and_round_trip);
    return harness_finish();
}
