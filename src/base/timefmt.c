/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Dates and timestamps as text (grammars and error conventions in timefmt.h).
 *
 * Calendar arithmetic. The proleptic Gregorian calendar repeats every 400 years, an "era" of
 * 146097 days. Counting years from March 1 puts February's leap day at the end of the year, so
 * within a year the day number follows from the month by a linear formula: the months from
 * March have 31, 30, 31, 30, 31 days in a cycle of five (153 days), so month index m (March = 0)
 * starts on day (153 * m + 2) / 5. Within an era, year y of the era (0..399) starts on day
 * 365 y + y/4 - y/100 (the 400-year leap day falls at the era's very end). 0000-03-01 lies 719468
 * days before 1970-01-01. Floor division keeps all of this correct for negative years.
 *
 * Parsing follows Spark 3's DateTimeUtils (stringToDate, parseTimestampString): segments of a
 * bounded number of digits, validated after splitting, so `2026-1-2` and `2026-01-02 8:5:3` are
 * accepted and `2026-001-02` is not. The scanner records where each field started, so range
 * errors point at the field (`2026-02-30`: the day, offset 8).
 */
#include "base/timefmt.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/timefmt_int.h"

#define DAYS_PER_ERA         INT64_C(146097) /* days in 400 Gregorian years */
#define DAYS_MARCH_0_TO_1970 INT64_C(719468) /* 0000-03-01 .. 1970-01-01 */
#define SHOWN_TEXT_MAX       64
#define MAX_CIVIL_YEAR       INT64_C(1000000000) /* far beyond any timestamp, well within 2^40 */

/* ---- shared helpers ------------------------------------------------------------------ */

dl_status
dl_timefmt_fail(dl_error *err, dl_status code, const char *kind, dl_str text, size_t offset,
                const char *fmt, ...) {
    if (err == NULL) {
        return code;
    }
    char reason[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(reason, sizeof(reason), fmt, ap);
    va_end(ap);
    if (n < 0) {
        reason[0] = '\0';
    }
    bool is_cut = text.len > SHOWN_TEXT_MAX;
    int shown = is_cut ? SHOWN_TEXT_MAX : (int)text.len;
    const char *verdict = code == DL_ERR_UNSUPPORTED ? "unsupported" : "invalid";
    dl_error_set(err, code, "%s %s '%.*s%s': %s (at offset %zu)", verdict, kind, shown,
                 text.ptr != NULL ? text.ptr : "", is_cut ? "..." : "", reason, offset);
    err->offset = (int64_t)offset;
    return code;
}

const char *
dl_timefmt_byte_name(unsigned char c, char *buf) {
    if (c >= 0x20 && c < 0x7f) {
        (void)snprintf(buf, 16, "'%c'", c);
    } else {
        (void)snprintf(buf, 16, "byte 0x%02x", c);
    }
    return buf;
}

static inline bool
is_digit(int c) {
    return c >= '0' && c <= '9';
}

static bool
eq_nocase(const char *s, size_t len, const char *lit) {
    size_t n = strlen(lit);
    if (len != n) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)s[i];
        if (c >= 'A' && c <= 'Z') {
            c += 'a' - 'A';
        }
        if (c != lit[i]) {
            return false;
        }
    }
    return true;
}

/* ---- calendar ------------------------------------------------------------------------ */

int
dl_days_in_month(int64_t year, int month) {
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12) {
        return 0;
    }
    if (month == 2 && dl_is_leap_year(year)) {
        return 29;
    }
    return days[month - 1];
}

int64_t
dl_date_from_civil(int64_t year, int month, int day) {
    int64_t y = month <= 2 ? year - 1 : year; /* years start on March 1 */
    int64_t era = dl_floor_div(y, 400);
    int64_t year_of_era = y - era * 400;                         /* 0..399 */
    int64_t month_index = month > 2 ? month - 3 : month + 9;     /* March = 0 */
    int64_t day_of_year = (153 * month_index + 2) / 5 + day - 1; /* 0..365 */
    int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * DAYS_PER_ERA + day_of_era - DAYS_MARCH_0_TO_1970;
}

void
dl_date_to_civil(int64_t days, int64_t *out_year, int *out_month, int *out_day) {
    int64_t z = days + DAYS_MARCH_0_TO_1970;
    int64_t era = dl_floor_div(z, DAYS_PER_ERA);
    int64_t doe = z - era * DAYS_PER_ERA; /* day of era, 0..146096 */
    /* Undo the leap-day counts: one per 4 years (1460 days), none per 100 (36524), one per
     * 400 (the era's last day, 146096). */
    int64_t year_of_era = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t day_of_year = doe - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    int64_t month_index = (5 * day_of_year + 2) / 153;
    int month = (int)(month_index < 10 ? month_index + 3 : month_index - 9);
    *out_day = (int)(day_of_year - (153 * month_index + 2) / 5 + 1);
    *out_month = month;
    *out_year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
}

void
dl_ts_to_civil(int64_t micros, dl_civil_time *out) {
    int64_t days = dl_floor_div(micros, DL_MICROS_PER_DAY);
    int64_t in_day = dl_floor_mod(micros, DL_MICROS_PER_DAY);
    dl_date_to_civil(days, &out->year, &out->month, &out->day);
    int64_t secs = in_day / DL_MICROS_PER_SECOND;
    out->micros = (int32_t)(in_day % DL_MICROS_PER_SECOND);
    out->hour = (int)(secs / 3600);
    out->minute = (int)(secs / 60 % 60);
    out->second = (int)(secs % 60);
}

/* Instant of wall-clock fields at an offset; false when it leaves int64. Assumes: valid fields
 * and |year| <= MAX_CIVIL_YEAR. */
static bool
civil_to_micros(const dl_civil_time *t, int32_t offset_seconds, int64_t *out) {
    dl_i128 days = dl_date_from_civil(t->year, t->month, t->day);
    dl_i128 secs = (dl_i128)t->hour * 3600 + (dl_i128)t->minute * 60 + t->second - offset_seconds;
    dl_i128 v = days * DL_MICROS_PER_DAY + secs * DL_MICROS_PER_SECOND + t->micros;
    if (v < INT64_MIN || v > INT64_MAX) {
        return false;
    }
    *out = (int64_t)v;
    return true;
}

dl_status
dl_ts_from_civil(const dl_civil_time *t, int32_t offset_seconds, int64_t *out_micros,
                 dl_error *err) {
    DL_CHECK(t->year >= -MAX_CIVIL_YEAR && t->year <= MAX_CIVIL_YEAR, err, DL_ERR_INVALID_ARG,
             "timestamp year %lld is out of range", (long long)t->year);
    DL_CHECK(t->month >= 1 && t->month <= 12, err, DL_ERR_INVALID_ARG,
             "timestamp month %d is out of range 1..12", t->month);
    int dim = dl_days_in_month(t->year, t->month);
    DL_CHECK(t->day >= 1 && t->day <= dim, err, DL_ERR_INVALID_ARG,
             "timestamp day %d is out of range 1..%d for %lld-%02d", t->day, dim,
             (long long)t->year, t->month);
    DL_CHECK(t->hour >= 0 && t->hour <= 23 && t->minute >= 0 && t->minute <= 59 && t->second >= 0 &&
                 t->second <= 59 && t->micros >= 0 && t->micros <= 999999,
             err, DL_ERR_INVALID_ARG, "timestamp time %02d:%02d:%02d.%06d is out of range", t->hour,
             t->minute, t->second, (int)t->micros);
    DL_CHECK(offset_seconds >= -DL_TS_MAX_OFFSET_SECONDS &&
                 offset_seconds <= DL_TS_MAX_OFFSET_SECONDS,
             err, DL_ERR_INVALID_ARG, "zone offset %d s exceeds 18 hours", (int)offset_seconds);
    DL_CHECK(civil_to_micros(t, offset_seconds, out_micros), err, DL_ERR_INVALID_ARG,
             "timestamp %lld-%02d-%02d is outside the range of 64-bit microseconds",
             (long long)t->year, t->month, t->day);
    return DL_OK;
}

dl_status
dl_date_to_ts(int32_t days, int64_t *out_micros, dl_error *err) {
    DL_CHECK(!DL_MUL_OVERFLOW((int64_t)days, DL_MICROS_PER_DAY, out_micros), err,
             DL_ERR_INVALID_ARG, "date %d days from 1970-01-01 is outside the timestamp range",
             (int)days);
    return DL_OK;
}

dl_status
dl_ts_from_millis(int64_t millis, int64_t *out_micros, dl_error *err) {
    DL_CHECK(!DL_MUL_OVERFLOW(millis, DL_MICROS_PER_MILLI, out_micros), err, DL_ERR_INVALID_ARG,
             "%lld ms since the epoch is outside the range of 64-bit microseconds",
             (long long)millis);
    return DL_OK;
}

/* ---- formatting ---------------------------------------------------------------------- */

/* Writes v in decimal, zero-padded to at least width digits. */
static char *
put_uint(char *p, uint64_t v, int width) {
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    while (n < width) {
        tmp[n++] = '0';
    }
    while (n > 0) {
        *p++ = tmp[--n];
    }
    return p;
}

/* java.time's `uuuu` with SignStyle.EXCEEDS_PAD, which Spark uses: 4 digits at least, '+' for
 * years past 9999, '-' for negative years. */
static char *
put_date(char *p, int64_t year, int month, int day) {
    if (year > 9999) {
        *p++ = '+';
    } else if (year < 0) {
        *p++ = '-';
    }
    uint64_t magnitude = year < 0 ? (uint64_t)0 - (uint64_t)year : (uint64_t)year;
    p = put_uint(p, magnitude, 4);
    *p++ = '-';
    p = put_uint(p, (uint64_t)month, 2);
    *p++ = '-';
    return put_uint(p, (uint64_t)day, 2);
}

size_t
dl_date_format(int32_t days, char *out) {
    int64_t year;
    int month;
    int day;
    dl_date_to_civil(days, &year, &month, &day);
    char *p = put_date(out, year, month, day);
    *p = '\0';
    return (size_t)(p - out);
}

size_t
dl_ts_format(int64_t micros, dl_ts_style style, char *out) {
    dl_civil_time t;
    dl_ts_to_civil(micros, &t);
    char *p = put_date(out, t.year, t.month, t.day);
    *p++ = style == DL_TS_STYLE_SPARK ? ' ' : 'T';
    p = put_uint(p, (uint64_t)t.hour, 2);
    *p++ = ':';
    p = put_uint(p, (uint64_t)t.minute, 2);
    *p++ = ':';
    p = put_uint(p, (uint64_t)t.second, 2);
    switch (style) {
    case DL_TS_STYLE_SPARK:
        if (t.micros != 0) {
            uint64_t frac = (uint64_t)t.micros;
            int digits = 6;
            while (frac % 10 == 0) {
                frac /= 10;
                digits--;
            }
            *p++ = '.';
            p = put_uint(p, frac, digits);
        }
        break;
    case DL_TS_STYLE_ISO_MICROS:
        *p++ = '.';
        p = put_uint(p, (uint64_t)t.micros, 6);
        *p++ = 'Z';
        break;
    case DL_TS_STYLE_ISO_MILLIS:
    case DL_TS_STYLE_ISO_MILLIS_NTZ:
        *p++ = '.';
        p = put_uint(p, (uint64_t)t.micros / 1000, 3);
        if (style == DL_TS_STYLE_ISO_MILLIS) {
            *p++ = 'Z';
        }
        break;
    }
    *p = '\0';
    return (size_t)(p - out);
}

/* ---- scanning ------------------------------------------------------------------------ */

typedef enum zone_kind {
    ZONE_NONE,   /* no zone in the text */
    ZONE_OFFSET, /* a fixed offset (Z, +02:00, UTC, EST, ...) */
    ZONE_NAMED,  /* a region name such as Europe/Paris */
} zone_kind;

typedef struct scanner {
    dl_str text;      /* the whole input, for messages */
    size_t pos;       /* next byte to read */
    size_t end;       /* end of the input without trailing white space */
    const char *kind; /* what is parsed: "date", "timestamp", ... */
    dl_error *err;
} scanner;

/* Fields read so far and where each started. */
typedef struct parsed {
    dl_civil_time t;
    size_t year_pos, month_pos, day_pos, hour_pos, minute_pos, second_pos, zone_pos, zone_len;
    zone_kind zone;
    int32_t offset_seconds; /* for ZONE_OFFSET */
} parsed;

static void
scanner_init(scanner *sc, dl_str text, const char *kind, dl_error *err) {
    size_t b = 0;
    size_t e = text.len;
    while (b < e && dl_timefmt_is_space((unsigned char)text.ptr[b])) {
        b++;
    }
    while (e > b && dl_timefmt_is_space((unsigned char)text.ptr[e - 1])) {
        e--;
    }
    sc->text = text;
    sc->pos = b;
    sc->end = e;
    sc->kind = kind;
    sc->err = err;
}

static inline bool
at_end(const scanner *sc) {
    return sc->pos >= sc->end;
}

static inline int
peek(const scanner *sc) {
    return at_end(sc) ? -1 : (unsigned char)sc->text.ptr[sc->pos];
}

/* What is at the cursor, for messages. buf holds 16 bytes. */
static const char *
describe(const scanner *sc, char *buf) {
    return at_end(sc) ? "the end of the text" : dl_timefmt_byte_name((unsigned char)peek(sc), buf);
}

#define SCAN_FAIL(sc, offset, ...) \
    dl_timefmt_fail((sc)->err, DL_ERR_INVALID_ARG, (sc)->kind, (sc)->text, (offset), __VA_ARGS__)

/* Reads a field of min_digits..max_digits decimal digits (max_digits <= 18). */
static dl_status
read_field(scanner *sc, const char *name, size_t min_digits, size_t max_digits, int64_t *out) {
    size_t start = sc->pos;
    int64_t value = 0;
    while (is_digit(peek(sc))) {
        if (sc->pos - start < 18) {
            value = value * 10 + (peek(sc) - '0');
        }
        sc->pos++;
    }
    size_t n = sc->pos - start;
    if (n == 0) {
        char buf[16];
        return SCAN_FAIL(sc, start, "expected the %s but found %s", name, describe(sc, buf));
    }
    if (n < min_digits || n > max_digits) {
        if (min_digits == 1) {
            return SCAN_FAIL(sc, start, "the %s has %zu digits; expected 1 or %zu", name, n,
                             max_digits);
        }
        return SCAN_FAIL(sc, start, "the %s has %zu digits; expected %zu to %zu", name, n,
                         min_digits, max_digits);
    }
    *out = value;
    return DL_OK;
}

/* Consumes the separator want, which must follow the field named after. */
static dl_status
expect_byte(scanner *sc, char want, const char *after, const char *next) {
    if (peek(sc) == want) {
        sc->pos++;
        return DL_OK;
    }
    char buf[16];
    return SCAN_FAIL(sc, sc->pos, "unexpected %s after the %s; expected '%c' and the %s",
                     describe(sc, buf), after, want, next);
}

/* [+-] year [ '-' month [ '-' day ] ]; missing fields are 1. */
static dl_status
scan_date(scanner *sc, size_t max_year_digits, parsed *p) {
    int c = peek(sc);
    bool is_negative = c == '-';
    if (c == '+' || c == '-') {
        sc->pos++;
    }
    int64_t v = 0;
    p->year_pos = sc->pos;
    DL_TRY(read_field(sc, "year", 4, max_year_digits, &v));
    p->t.year = is_negative ? -v : v;
    p->t.month = 1;
    p->t.day = 1;
    if (at_end(sc)) {
        return DL_OK;
    }
    DL_TRY(expect_byte(sc, '-', "year", "month"));
    p->month_pos = sc->pos;
    DL_TRY(read_field(sc, "month", 1, 2, &v));
    p->t.month = (int)v;
    if (at_end(sc)) {
        return DL_OK;
    }
    DL_TRY(expect_byte(sc, '-', "month", "day"));
    p->day_pos = sc->pos;
    DL_TRY(read_field(sc, "day", 1, 2, &v));
    p->t.day = (int)v;
    return DL_OK;
}

static dl_status
check_date(const scanner *sc, const parsed *p) {
    static const char *const month_names[12] = {"January",   "February", "March",    "April",
                                                "May",       "June",     "July",     "August",
                                                "September", "October",  "November", "December"};
    if (p->t.month < 1 || p->t.month > 12) {
        return SCAN_FAIL(sc, p->month_pos, "month %d is out of range 1..12", p->t.month);
    }
    int dim = dl_days_in_month(p->t.year, p->t.month);
    if (p->t.day < 1 || p->t.day > dim) {
        return SCAN_FAIL(sc, p->day_pos, "day %d is out of range 1..%d for %s %lld", p->t.day, dim,
                         month_names[p->t.month - 1], (long long)p->t.year);
    }
    return DL_OK;
}

static dl_status
check_time(const scanner *sc, const parsed *p) {
    if (p->t.hour > 23) {
        return SCAN_FAIL(sc, p->hour_pos, "hour %d is out of range 0..23", p->t.hour);
    }
    if (p->t.minute > 59) {
        return SCAN_FAIL(sc, p->minute_pos, "minute %d is out of range 0..59", p->t.minute);
    }
    if (p->t.second > 59) {
        return SCAN_FAIL(sc, p->second_pos, "second %d is out of range 0..59", p->t.second);
    }
    return DL_OK;
}

/* Reads fraction digits after '.': the first six are microseconds, later ones are dropped. */
static void
scan_fraction(scanner *sc, int32_t *out_micros) {
    int32_t micros = 0;
    int n = 0;
    while (is_digit(peek(sc))) {
        if (n < 6) {
            micros = micros * 10 + (peek(sc) - '0');
            n++;
        }
        sc->pos++;
    }
    for (; n < 6; n++) {
        micros *= 10;
    }
    *out_micros = micros;
}

/* Value of the n digits at s. Assumes: they are digits. */
static int
digits_value(const char *s, size_t n) {
    int v = 0;
    for (size_t i = 0; i < n; i++) {
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

static size_t
count_digits(const char *s, size_t len, size_t from) {
    size_t i = from;
    while (i < len && is_digit((unsigned char)s[i])) {
        i++;
    }
    return i - from;
}

/* Splits an offset's colon form `h[h]:m[m][:ss]` (java.time's hh:mm[:ss], plus the h:mm and
 * hh:m forms Spark restores) into fields. Returns NULL or why the text is not an offset. */
static const char *
split_offset_colons(const char *s, size_t len, size_t n1, int *h, int *m, int *sec) {
    if (n1 > 2 || s[n1] != ':') {
        return "expected hh:mm after the sign";
    }
    *h = digits_value(s, n1);
    size_t i = n1 + 1;
    size_t n2 = count_digits(s, len, i);
    if (n2 == 1 && i + 1 == len) {
        *m = digits_value(s + i, 1);
        return NULL;
    }
    if (n2 != 2) {
        return "expected two digits of minutes";
    }
    *m = digits_value(s + i, 2);
    i += 2;
    if (i == len) {
        return NULL;
    }
    if (s[i] != ':' || count_digits(s, len, i + 1) != 2 || i + 3 != len) {
        return "expected hh:mm or hh:mm:ss";
    }
    *sec = digits_value(s + i + 1, 2);
    return NULL;
}

/* Parses an offset body (the text after its sign): h, hh, hhmm, hhmmss or a colon form.
 * Returns NULL or why it is invalid. */
static const char *
parse_offset_body(const char *s, size_t len, int32_t *out_seconds) {
    int h = 0;
    int m = 0;
    int sec = 0;
    size_t n1 = count_digits(s, len, 0);
    if (n1 == 0) {
        return "expected digits after the sign";
    }
    if (n1 == len) {
        if (len == 1 || len == 2 || len == 4 || len == 6) {
            h = digits_value(s, len < 2 ? len : 2);
            m = len >= 4 ? digits_value(s + 2, 2) : 0;
            sec = len == 6 ? digits_value(s + 4, 2) : 0;
        } else {
            return "expected h, hh, hhmm or hhmmss after the sign";
        }
    } else {
        const char *why = split_offset_colons(s, len, n1, &h, &m, &sec);
        if (why != NULL) {
            return why;
        }
    }
    if (h > 18 || m > 59 || sec > 59) {
        return "offset field out of range (hours 0..18, minutes and seconds 0..59)";
    }
    int32_t total = (int32_t)(h * 3600 + m * 60 + sec);
    if (total > DL_TS_MAX_OFFSET_SECONDS) {
        return "offset exceeds 18:00";
    }
    *out_seconds = total;
    return NULL;
}

/* Parses a signed offset `+hh:mm` etc. at s. Returns NULL or why it is invalid. */
static const char *
parse_signed_offset(const char *s, size_t len, int32_t *out_seconds) {
    int32_t body = 0;
    const char *why = parse_offset_body(s + 1, len - 1, &body);
    if (why == NULL) {
        *out_seconds = s[0] == '-' ? -body : body;
    }
    return why;
}

/* java.time's region-id syntax: [A-Za-z][A-Za-z0-9~/._+-]+ */
static bool
is_region_name(const char *s, size_t len) {
    if (len < 2 || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z'))) {
        return false;
    }
    for (size_t i = 1; i < len; i++) {
        char c = s[i];
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '~' ||
                  c == '/' || c == '.' || c == '_' || c == '+' || c == '-';
        if (!ok) {
            return false;
        }
    }
    return true;
}

/* Length of a UTC/GMT/UT prefix that is the whole zone or is followed by a sign; 0 if none. */
static size_t
utc_prefix_len(const char *s, size_t len) {
    static const char *const prefixes[] = {"utc", "gmt", "ut"};
    for (size_t i = 0; i < DL_ARRAY_LEN(prefixes); i++) {
        size_t n = strlen(prefixes[i]);
        if (len >= n && eq_nocase(s, n, prefixes[i]) && (len == n || s[n] == '+' || s[n] == '-')) {
            return n;
        }
    }
    return 0;
}

/* The zone: everything after the seconds (or fraction), white space skipped. */
static dl_status
scan_zone(scanner *sc, parsed *p) {
    while (!at_end(sc) && dl_timefmt_is_space((unsigned char)peek(sc))) {
        sc->pos++;
    }
    const char *z = sc->text.ptr + sc->pos;
    size_t len = sc->end - sc->pos;
    p->zone_pos = sc->pos;
    p->zone_len = len;
    sc->pos = sc->end;
    if (len == 0) {
        return DL_OK;
    }
    p->zone = ZONE_OFFSET;
    p->offset_seconds = 0;
    const char *why = NULL;
    size_t prefix = utc_prefix_len(z, len);
    if (len == 1 && z[0] == 'Z') {
        return DL_OK;
    } else if (z[0] == '+' || z[0] == '-') {
        why = parse_signed_offset(z, len, &p->offset_seconds);
    } else if (prefix > 0) {
        why = prefix == len ? NULL
                            : parse_signed_offset(z + prefix, len - prefix, &p->offset_seconds);
    } else if (len == 3 && memcmp(z, "EST", 3) == 0) {
        p->offset_seconds = -5 * 3600; /* java.time's ZoneId.SHORT_IDS fixed zones */
    } else if (len == 3 && memcmp(z, "MST", 3) == 0) {
        p->offset_seconds = -7 * 3600;
    } else if (len == 3 && memcmp(z, "HST", 3) == 0) {
        p->offset_seconds = -10 * 3600;
    } else if (is_region_name(z, len)) {
        p->zone = ZONE_NAMED;
    } else {
        why = "expected Z, an offset such as +02:00 or -0530, or UTC";
    }
    if (why != NULL) {
        return SCAN_FAIL(sc, p->zone_pos, "bad time zone '%.*s': %s", (int)len, z, why);
    }
    return DL_OK;
}

/* h[h] [ ':' m[m] [ ':' s[s] [ '.' f* ] [ zone ] ] ] */
static dl_status
scan_time(scanner *sc, parsed *p) {
    int64_t v = 0;
    p->hour_pos = sc->pos;
    DL_TRY(read_field(sc, "hour", 1, 2, &v));
    p->t.hour = (int)v;
    if (at_end(sc)) {
        return DL_OK;
    }
    DL_TRY(expect_byte(sc, ':', "hour", "minutes"));
    p->minute_pos = sc->pos;
    DL_TRY(read_field(sc, "minutes", 1, 2, &v));
    p->t.minute = (int)v;
    if (at_end(sc)) {
        return DL_OK;
    }
    DL_TRY(expect_byte(sc, ':', "minutes", "seconds"));
    p->second_pos = sc->pos;
    DL_TRY(read_field(sc, "seconds", 1, 2, &v));
    p->t.second = (int)v;
    if (peek(sc) == '.') {
        sc->pos++;
        scan_fraction(sc, &p->t.micros);
    }
    if (at_end(sc)) {
        return DL_OK;
    }
    return scan_zone(sc, p);
}

/* Spark reads `08:00:00` and `T08:00` as a time today; we refuse them. */
static bool
is_time_only(const scanner *sc) {
    const char *s = sc->text.ptr;
    if (s[sc->pos] == 'T') {
        return true;
    }
    size_t n = count_digits(s, sc->end, sc->pos);
    return (n == 1 || n == 2) && sc->pos + n < sc->end && s[sc->pos + n] == ':';
}

/* Parses a whole timestamp into p (fields validated, zone classified, not applied). */
static dl_status
scan_timestamp(dl_str text, const char *kind, parsed *p, dl_error *err) {
    scanner sc;
    scanner_init(&sc, text, kind, err);
    memset(p, 0, sizeof(*p));
    if (at_end(&sc)) {
        return SCAN_FAIL(&sc, sc.pos, "the text is empty");
    }
    if (is_time_only(&sc)) {
        return dl_timefmt_fail(err, DL_ERR_UNSUPPORTED, kind, text, sc.pos,
                               "a time without a date is not supported; write the date too, as in "
                               "'2026-10-02 08:00:00'");
    }
    DL_TRY(scan_date(&sc, 6, p));
    DL_TRY(check_date(&sc, p));
    if (!at_end(&sc)) {
        int c = peek(&sc);
        if (c != ' ' && c != 'T') {
            char buf[16];
            return SCAN_FAIL(&sc, sc.pos,
                             "unexpected %s after the day; expected ' ' or 'T' and a time",
                             describe(&sc, buf));
        }
        sc.pos++;
        DL_TRY(scan_time(&sc, p));
        DL_TRY(check_time(&sc, p));
    }
    return DL_OK;
}

/* ---- parsing entry points ------------------------------------------------------------ */

dl_status
dl_date_parse(dl_str text, int32_t *out_days, dl_error *err) {
    scanner sc;
    scanner_init(&sc, text, "date", err);
    parsed p;
    memset(&p, 0, sizeof(p));
    if (at_end(&sc)) {
        return SCAN_FAIL(&sc, sc.pos, "the text is empty");
    }
    DL_TRY(scan_date(&sc, 7, &p));
    if (!at_end(&sc) && peek(&sc) != ' ' && peek(&sc) != 'T') {
        char buf[16];
        return SCAN_FAIL(&sc, sc.pos, "unexpected %s after the day; expected the end of the date",
                         describe(&sc, buf));
    }
    /* Whatever follows ' ' or 'T' is ignored, as Spark's CAST(str AS DATE) does. */
    DL_TRY(check_date(&sc, &p));
    int64_t days = dl_date_from_civil(p.t.year, p.t.month, p.t.day);
    if (days < INT32_MIN || days > INT32_MAX) {
        return SCAN_FAIL(&sc, p.year_pos,
                         "the date is outside the range of 32-bit day counts (-5877641-06-23 to "
                         "+5881580-07-11)");
    }
    *out_days = (int32_t)days;
    return DL_OK;
}

static dl_status
check_offset_arg(int32_t offset_seconds, dl_error *err) {
    DL_CHECK(offset_seconds >= -DL_TS_MAX_OFFSET_SECONDS &&
                 offset_seconds <= DL_TS_MAX_OFFSET_SECONDS,
             err, DL_ERR_INVALID_ARG, "zone offset %d s exceeds 18 hours", (int)offset_seconds);
    return DL_OK;
}

/* Applies offset to parsed fields, failing when the instant leaves int64. */
static dl_status
finish_timestamp(const parsed *p, int32_t offset_seconds, const char *kind, dl_str text,
                 int64_t *out_micros, dl_error *err) {
    if (!civil_to_micros(&p->t, offset_seconds, out_micros)) {
        return dl_timefmt_fail(err, DL_ERR_INVALID_ARG, kind, text, p->year_pos,
                               "outside the range of 64-bit microseconds (-290308-12-21 "
                               "19:59:05.224192 to +294247-01-10 04:00:54.775807 UTC)");
    }
    return DL_OK;
}

dl_status
dl_ts_parse(dl_str text, int32_t default_offset_seconds, int64_t *out_micros, dl_error *err) {
    DL_TRY(check_offset_arg(default_offset_seconds, err));
    parsed p;
    DL_TRY(scan_timestamp(text, "timestamp", &p, err));
    int32_t offset = default_offset_seconds;
    if (p.zone == ZONE_NAMED) {
        return dl_timefmt_fail(err, DL_ERR_UNSUPPORTED, "timestamp", text, p.zone_pos,
                               "named time zone '%.*s' is not supported yet; use Z, UTC or a "
                               "fixed offset such as +02:00",
                               (int)p.zone_len, text.ptr + p.zone_pos);
    }
    if (p.zone == ZONE_OFFSET) {
        offset = p.offset_seconds;
    }
    return finish_timestamp(&p, offset, "timestamp", text, out_micros, err);
}

dl_status
dl_ts_ntz_parse(dl_str text, bool allow_zone, int64_t *out_micros, dl_error *err) {
    parsed p;
    DL_TRY(scan_timestamp(text, "timestamp_ntz", &p, err));
    if (p.zone != ZONE_NONE && !allow_zone) {
        return dl_timefmt_fail(err, DL_ERR_INVALID_ARG, "timestamp_ntz", text, p.zone_pos,
                               "a timestamp_ntz has no time zone; remove the zone");
    }
    return finish_timestamp(&p, 0, "timestamp_ntz", text, out_micros, err);
}

dl_status
dl_ts_parse_compact(dl_str text, int32_t offset_seconds, int64_t *out_micros, dl_error *err) {
    DL_TRY(check_offset_arg(offset_seconds, err));
    scanner sc = {
        .text = text, .pos = 0, .end = text.len, .kind = "time travel timestamp", .err = err};
    size_t b = (text.len > 0 && text.ptr[0] == '@') ? 1 : 0;
    if (text.len - b != 17) {
        return SCAN_FAIL(&sc, b, "expected 17 digits yyyyMMddHHmmssSSS, found %zu bytes",
                         text.len - b);
    }
    for (size_t i = b; i < text.len; i++) {
        if (!is_digit((unsigned char)text.ptr[i])) {
            char buf[16];
            return SCAN_FAIL(&sc, i, "expected a digit of yyyyMMddHHmmssSSS but found %s",
                             dl_timefmt_byte_name((unsigned char)text.ptr[i], buf));
        }
    }
    const char *s = text.ptr + b;
    parsed p;
    memset(&p, 0, sizeof(p));
    p.t.year = digits_value(s, 4);
    p.t.month = digits_value(s + 4, 2);
    p.t.day = digits_value(s + 6, 2);
    p.t.hour = digits_value(s + 8, 2);
    p.t.minute = digits_value(s + 10, 2);
    p.t.second = digits_value(s + 12, 2);
    p.t.micros = (int32_t)digits_value(s + 14, 3) * 1000;
    p.year_pos = b;
    p.month_pos = b + 4;
    p.day_pos = b + 6;
    p.hour_pos = b + 8;
    p.minute_pos = b + 10;
    p.second_pos = b + 12;
    DL_TRY(check_date(&sc, &p));
    DL_TRY(check_time(&sc, &p));
    return finish_timestamp(&p, offset_seconds, sc.kind, text, out_micros, err);
}

/* [+-]digits, optional surrounding white space, times unit_micros. */
static dl_status
parse_epoch(dl_str text, int64_t unit_micros, const char *kind, int64_t *out_micros,
            dl_error *err) {
    scanner sc;
    scanner_init(&sc, text, kind, err);
    bool is_negative = peek(&sc) == '-';
    if (peek(&sc) == '-' || peek(&sc) == '+') {
        sc.pos++;
    }
    size_t start = sc.pos;
    int64_t v = 0; /* accumulated negative, so INT64_MIN is reachable */
    while (is_digit(peek(&sc))) {
        if (DL_MUL_OVERFLOW(v, 10, &v) || DL_SUB_OVERFLOW(v, peek(&sc) - '0', &v)) {
            return SCAN_FAIL(&sc, start, "the number does not fit in 64 bits");
        }
        sc.pos++;
    }
    char buf[16];
    if (sc.pos == start) {
        return SCAN_FAIL(&sc, sc.pos, "expected digits but found %s", describe(&sc, buf));
    }
    if (!at_end(&sc)) {
        return SCAN_FAIL(&sc, sc.pos, "unexpected %s after the digits", describe(&sc, buf));
    }
    if (!is_negative) {
        if (v == INT64_MIN) {
            return SCAN_FAIL(&sc, start, "the number does not fit in 64 bits");
        }
        v = -v;
    }
    if (DL_MUL_OVERFLOW(v, unit_micros, out_micros)) {
        return SCAN_FAIL(&sc, start, "outside the range of 64-bit microseconds");
    }
    return DL_OK;
}

dl_status
dl_ts_parse_epoch_millis(dl_str text, int64_t *out_micros, dl_error *err) {
    return parse_epoch(text, DL_MICROS_PER_MILLI, "epoch milliseconds", out_micros, err);
}

dl_status
dl_ts_parse_epoch_micros(dl_str text, int64_t *out_micros, dl_error *err) {
    return parse_epoch(text, 1, "epoch microseconds", out_micros, err);
}
