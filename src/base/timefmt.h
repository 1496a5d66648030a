/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Dates, timestamps and durations as text, the way Spark 3 and Delta write and read them.
 *
 * Values:
 *   - a date is an int32_t count of days since 1970-01-01 in the proleptic Gregorian calendar
 *     (Spark 3's DateType, Parquet's DATE); 0 is 1970-01-01, -1 is 1969-12-31;
 *   - a timestamp is an int64_t count of microseconds since 1970-01-01T00:00:00Z (Spark's
 *     TimestampType, Parquet's TIMESTAMP(MICROS)); a timestamp_ntz uses the same count for a
 *     wall-clock time that has no zone;
 *   - a duration is an int64_t count of microseconds (Delta's interval table properties).
 *
 * Every conversion floors toward negative infinity, so instants before 1970 break down into
 * fields the way Spark shows them (-1 us is 1969-12-31 23:59:59.999999).
 *
 * Text grammars (the parsers accept exactly what Spark 3's CAST accepts, except where noted):
 *
 *   date       := ws* [+-] Y{4,7} [ '-' M{1,2} [ '-' D{1,2} [ (' ' | 'T') any* ] ] ] ws*
 *   timestamp  := ws* [+-] Y{4,6} [ '-' M{1,2} [ '-' D{1,2} [ (' ' | 'T') time ] ] ] ws*
 *   time       := h{1,2} [ ':' m{1,2} [ ':' s{1,2} [ '.' f* ] [ ws* zone ] ] ]
 *   zone       := 'Z' | offset | ('UTC' | 'GMT' | 'UT') [ offset ] | 'EST' | 'MST' | 'HST'
 *   offset     := ('+' | '-') ( h | hh | hh ':'? mm | hh ':'? mm ':'? ss | h ':' mm | hh ':' m )
 *
 * Missing month and day are 1, missing time fields are 0, so a date-only string is midnight.
 * 'ws' is any byte <= 0x20 or 0x7f. Fraction digits beyond the sixth are dropped (truncation
 * toward the past, as Spark does for microsecond timestamps). Offsets reach +-18:00. Named
 * zones (Europe/Paris, PST) are refused with DL_ERR_UNSUPPORTED; strings holding only a time
 * (`08:00:00`, `T08:00`), which Spark resolves against today's date, are refused the same way.
 * Deviation from Spark: 'UTC', 'GMT' and 'UT' are matched case-insensitively.
 *
 * Errors: malformed or out-of-range text gives DL_ERR_INVALID_ARG with a message naming the
 * input, the fault and its byte offset, which is also stored in err->offset (relative to the
 * start of the text). A caller that parses a file should set the code it wants (for example
 * DL_ERR_CORRUPT for a statistic in the log) and prefix its own context.
 */
#ifndef DL_BASE_TIMEFMT_H
#define DL_BASE_TIMEFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compiler.h"
#include "base/error.h"
#include "base/str.h"

#define DL_MICROS_PER_MILLI  INT64_C(1000)
#define DL_MICROS_PER_SECOND INT64_C(1000000)
#define DL_MICROS_PER_MINUTE INT64_C(60000000)
#define DL_MICROS_PER_HOUR   INT64_C(3600000000)
#define DL_MICROS_PER_DAY    INT64_C(86400000000)
#define DL_MICROS_PER_WEEK   INT64_C(604800000000)

/* Buffer sizes that always suffice for the formatters below, NUL included. */
#define DL_DATE_STR_CAP     16 /* "-5877641-06-23" */
#define DL_TS_STR_CAP       40 /* "-290308-12-21T19:59:05.224192Z" and friends */
#define DL_DURATION_STR_CAP 48 /* "interval -9223372036854775808 microseconds" */

/* Largest offset magnitude a zone may have, in seconds (18 hours, as java.time). */
#define DL_TS_MAX_OFFSET_SECONDS (18 * 3600)

/* A broken-down date and time in the proleptic Gregorian calendar. */
typedef struct dl_civil_time {
    int64_t year;   /* astronomical year: 0 is 1 BC, -1 is 2 BC */
    int month;      /* 1..12 */
    int day;        /* 1..31 */
    int hour;       /* 0..23 */
    int minute;     /* 0..59 */
    int second;     /* 0..59 (no leap seconds) */
    int32_t micros; /* 0..999999 */
} dl_civil_time;

/* How dl_ts_format writes a timestamp (all in UTC; the caller adds a zone offset first when
 * it wants a local wall-clock time). */
typedef enum dl_ts_style {
    /* `yyyy-MM-dd HH:mm:ss[.f]`, the fraction only when non-zero and without trailing zeros:
     * Spark's CAST(ts AS STRING), timestamp_ntz partition values, legacy partition values. */
    DL_TS_STYLE_SPARK = 0,
    /* `yyyy-MM-ddTHH:mm:ss.ffffffZ`: Delta's recommended UTC timestamp partition values. */
    DL_TS_STYLE_ISO_MICROS = 1,
    /* `yyyy-MM-ddTHH:mm:ss.SSSZ`: timestamp min/max statistics as Spark writes them
     * (microseconds floored to milliseconds). */
    DL_TS_STYLE_ISO_MILLIS = 2,
    /* `yyyy-MM-ddTHH:mm:ss.SSS`: timestamp_ntz min/max statistics as Spark writes them. */
    DL_TS_STYLE_ISO_MILLIS_NTZ = 3,
} dl_ts_style;

/* ---- arithmetic ---------------------------------------------------------------------- */

/* Floor division and its non-negative remainder. Assumes: b > 0. */
static inline int64_t
dl_floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b < 0) ? q - 1 : q;
}

static inline int64_t
dl_floor_mod(int64_t a, int64_t b) {
    int64_t r = a % b;
    return r < 0 ? r + b : r;
}

/* True for leap years of the proleptic Gregorian calendar (1900 no, 2000 yes, 2024 yes). */
static inline bool
dl_is_leap_year(int64_t year) {
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

/* Days in month (1..12) of year; 0 for a month outside 1..12. */
int dl_days_in_month(int64_t year, int month);

/* ---- dates --------------------------------------------------------------------------- */

/* Days since 1970-01-01 of a calendar date. Assumes: month 1..12, day valid for the month,
 * |year| < 2^40 (the result then fits comfortably in int64_t). */
int64_t dl_date_from_civil(int64_t year, int month, int day);

/* The calendar date of a day count (any int64_t within +-2^40 days). */
void dl_date_to_civil(int64_t days, int64_t *out_year, int *out_month, int *out_day);

/* Parses a date (grammar above, Spark's CAST(str AS DATE): text after the day that follows
 * ' ' or 'T' is ignored, so a timestamp string gives its date). Fails with INVALID_ARG on
 * malformed text, an invalid month or day (2026-02-30), or a year outside int32 days. */
DL_NODISCARD dl_status dl_date_parse(dl_str text, int32_t *out_days, dl_error *err);

/* Writes days as `yyyy-MM-dd` (years beyond 9999 get '+', negative years '-', as Spark)
 * NUL-terminated into out, which has room for DL_DATE_STR_CAP bytes. Returns the length. */
size_t dl_date_format(int32_t days, char *out);

/* ---- timestamps ---------------------------------------------------------------------- */

/* Breaks a timestamp into UTC fields. Total for every int64_t. */
void dl_ts_to_civil(int64_t micros, dl_civil_time *out);

/* Microseconds of the instant whose wall-clock fields are t at a zone offset_seconds east of
 * UTC. Fails with INVALID_ARG when a field is out of range or the result overflows int64. */
DL_NODISCARD dl_status dl_ts_from_civil(const dl_civil_time *t, int32_t offset_seconds,
                                        int64_t *out_micros, dl_error *err);

/* Parses a timestamp (grammar above; Spark's CAST(str AS TIMESTAMP)). A zone in the text
 * wins; text without one is read as wall-clock time at default_offset_seconds east of UTC
 * (the session zone; 0 for UTC). A date alone is midnight. */
DL_NODISCARD dl_status dl_ts_parse(dl_str text, int32_t default_offset_seconds, int64_t *out_micros,
                                   dl_error *err);

/* Parses a timestamp_ntz: the wall-clock fields as microseconds, no zone applied. A zone in the
 * text is an error unless allow_zone, in which case it is ignored (Spark's CAST to
 * TIMESTAMP_NTZ discards it) — then any zone name is accepted, named or not. */
DL_NODISCARD dl_status dl_ts_ntz_parse(dl_str text, bool allow_zone, int64_t *out_micros,
                                       dl_error *err);

/* Parses Delta's time-travel suffix `yyyyMMddHHmmssSSS` (exactly 17 digits, optionally preceded
 * by '@', as in `table@20261002080000000`) at a zone offset_seconds east of UTC. */
DL_NODISCARD dl_status dl_ts_parse_compact(dl_str text, int32_t offset_seconds, int64_t *out_micros,
                                           dl_error *err);

/* Parses an integer count of milliseconds (dl_ts_parse_epoch_millis) or microseconds
 * (dl_ts_parse_epoch_micros) since the epoch, `[+-]digits` with optional surrounding white
 * space, into microseconds. Fails on anything else and on overflow. */
DL_NODISCARD dl_status dl_ts_parse_epoch_millis(dl_str text, int64_t *out_micros, dl_error *err);
DL_NODISCARD dl_status dl_ts_parse_epoch_micros(dl_str text, int64_t *out_micros, dl_error *err);

/* Milliseconds since the epoch (commitInfo.timestamp, file modification times) to
 * microseconds. Fails with INVALID_ARG on overflow. */
DL_NODISCARD dl_status dl_ts_from_millis(int64_t millis, int64_t *out_micros, dl_error *err);

/* Microseconds to milliseconds, floored (-1 us is -1 ms). */
static inline int64_t
dl_ts_to_millis(int64_t micros) {
    return dl_floor_div(micros, DL_MICROS_PER_MILLI);
}

/* The date holding the instant (UTC), floored. Total for every int64_t. */
static inline int32_t
dl_ts_to_date(int64_t micros) {
    return (int32_t)dl_floor_div(micros, DL_MICROS_PER_DAY);
}

/* Midnight UTC of a date. Fails with INVALID_ARG when it is outside the timestamp range. */
DL_NODISCARD dl_status dl_date_to_ts(int32_t days, int64_t *out_micros, dl_error *err);

/* Writes a timestamp in the given style, NUL-terminated, into out, which has room for
 * DL_TS_STR_CAP bytes. Returns the length. */
size_t dl_ts_format(int64_t micros, dl_ts_style style, char *out);

/* ---- durations (Delta interval properties) ------------------------------------------- */

/*
 * Parses a duration as Delta's interval table properties hold them (delta.logRetentionDuration,
 * delta.deletedFileRetentionDuration, delta.checkpointRetentionDuration, ...) into
 * microseconds. Grammar (case-insensitive, Spark's string-to-interval cast as Delta applies it):
 *
 *   duration := ws* [ 'interval' ws+ ] term ( ws+ term )* ws*
 *   term     := [+-] ( digits [ '.' digits{0,9} ] | '.' digits{1,9} ) ws+ unit [ 's' ]
 *   unit     := 'week' | 'day' | 'hour' | 'minute' | 'second' | 'millisecond' | 'microsecond'
 *             | 'nanosecond'
 *
 * e.g. `interval 30 days`, `1 week`, `interval 7 days 12 hours`, `interval 1.5 seconds`.
 * Terms add up. Only seconds may have a fraction (up to 9 digits, truncated to microseconds).
 * `nanosecond(s)` is a delta-rs extension that Spark refuses; it is truncated toward zero to
 * microseconds. Months and years are refused (their length varies; Delta asks for days), as is
 * a negative total and any overflow of int64 microseconds. All failures are INVALID_ARG with
 * the offending byte offset.
 */
DL_NODISCARD dl_status dl_duration_parse(dl_str text, int64_t *out_micros, dl_error *err);

/* Writes a duration in Delta's canonical form, `interval <n> <unit>` with the largest unit of
 * week, day, hour, minute, second, millisecond, microsecond that divides it exactly, singular
 * when n is 1 (`interval 1 week`, `interval 30 days`, `interval 36 hours`); zero is
 * `interval 0 seconds`. Both Spark and delta-rs read it back. NUL-terminated into out, which
 * has room for DL_DURATION_STR_CAP bytes. Returns the length. */
size_t dl_duration_format(int64_t micros, char *out);

#endif /* DL_BASE_TIMEFMT_H */
