/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Durations as Delta's interval table properties hold them (grammar in timefmt.h).
 *
 * Delta reads `delta.logRetentionDuration` and friends with Spark's string-to-interval cast
 * (IntervalUtils.stringToInterval) after putting `interval ` in front when it is missing, and
 * then refuses any value with months (a month or year has no fixed length) or a negative total
 * (DeltaConfigs.isValidIntervalConfigValue). The cast is a state machine over lower-cased text:
 * optional `interval` prefix, then terms `[+-]value unit[s]` separated by white space, where the
 * value and the unit are separated by white space too (`30days` is refused) and only seconds
 * may carry a fraction (at most nine digits, cut to microseconds). delta-rs accepts a single
 * term `interval <n> <unit>` and adds `nanosecond(s)`; we read that too.
 *
 * Arithmetic is in int64 microseconds with every multiply and add checked, so no input can
 * wrap around (Spark's own sum silently overflows for absurd values).
 */
#include <stdio.h>
#include <string.h>

#include "base/timefmt.h"
#include "base/timefmt_int.h"

typedef struct duration_unit {
    const char *name; /* singular, lower case */
    int64_t micros;   /* length; 0 for calendar units (refused) */
} duration_unit;

/* The exact units, longest first (dl_duration_format relies on the order), then the rest. */
#define N_EXACT_UNITS 7

static const duration_unit units[] = {
    {"week", DL_MICROS_PER_WEEK},
    {"day", DL_MICROS_PER_DAY},
    {"hour", DL_MICROS_PER_HOUR},
    {"minute", DL_MICROS_PER_MINUTE},
    {"second", DL_MICROS_PER_SECOND},
    {"millisecond", DL_MICROS_PER_MILLI},
    {"microsecond", 1},
    {"nanosecond", -1000}, /* negative: divide by 1000 */
    {"month", 0},
    {"year", 0},
};

#define KIND "duration"

/* One term's value: [+-] digits [ '.' digits ]. */
typedef struct term_value {
    bool is_negative;
    int64_t whole;   /* integer part, >= 0 */
    int64_t nanos;   /* fraction in nanoseconds, 0..999999999 */
    bool has_point;  /* a '.' was present */
    size_t start;    /* offset of the term */
    size_t unit_pos; /* offset of the unit word */
    size_t unit_len; /* bytes in the unit word */
} term_value;

typedef struct cursor {
    dl_str text;
    size_t pos;
    size_t end; /* without trailing white space */
    dl_error *err;
} cursor;

#define CUR_FAIL(cur, offset, ...) \
    dl_timefmt_fail((cur)->err, DL_ERR_INVALID_ARG, KIND, (cur)->text, (offset), __VA_ARGS__)

static inline int
cur_peek(const cursor *cur) {
    return cur->pos < cur->end ? (unsigned char)cur->text.ptr[cur->pos] : -1;
}

static inline bool
cur_at_space(const cursor *cur) {
    return cur->pos < cur->end && dl_timefmt_is_space((unsigned char)cur->text.ptr[cur->pos]);
}

static void
skip_spaces(cursor *cur) {
    while (cur_at_space(cur)) {
        cur->pos++;
    }
}

static bool
word_eq_nocase(const char *s, size_t len, const char *lower) {
    if (strlen(lower) != len) {
        return false;
    }
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z') {
            c = (char)(c - 'A' + 'a');
        }
        if (c != lower[i]) {
            return false;
        }
    }
    return true;
}

/* Reads [+-] digits [ '.' digits ] and the white space after it. */
static dl_status
read_value(cursor *cur, term_value *tv) {
    char buf[16];
    memset(tv, 0, sizeof(*tv));
    tv->start = cur->pos;
    int c = cur_peek(cur);
    if (c == '+' || c == '-') {
        tv->is_negative = c == '-';
        cur->pos++;
    }
    size_t n_digits = 0;
    for (c = cur_peek(cur); c >= '0' && c <= '9'; c = cur_peek(cur)) {
        if (DL_MUL_OVERFLOW(tv->whole, 10, &tv->whole) ||
            DL_ADD_OVERFLOW(tv->whole, c - '0', &tv->whole)) {
            return CUR_FAIL(cur, tv->start, "the number does not fit in 64 bits");
        }
        n_digits++;
        cur->pos++;
    }
    if (c == '.') {
        tv->has_point = true;
        cur->pos++;
        int64_t scale = 100000000;
        size_t frac_start = cur->pos;
        for (c = cur_peek(cur); c >= '0' && c <= '9'; c = cur_peek(cur)) {
            if (scale == 0) {
                return CUR_FAIL(cur, frac_start, "more than 9 fraction digits");
            }
            tv->nanos += (c - '0') * scale;
            scale /= 10;
            n_digits++;
            cur->pos++;
        }
    }
    if (n_digits == 0) {
        const char *what = cur->pos >= cur->end
                               ? "the end of the text"
                               : dl_timefmt_byte_name((unsigned char)cur_peek(cur), buf);
        return CUR_FAIL(cur, tv->start, "expected a number but found %s", what);
    }
    if (cur->pos >= cur->end) {
        return CUR_FAIL(cur, tv->start, "the number has no unit; write e.g. '30 days'");
    }
    if (!cur_at_space(cur)) {
        return CUR_FAIL(cur, cur->pos,
                        "unexpected %s after the number; separate the number and its unit with a "
                        "space",
                        dl_timefmt_byte_name((unsigned char)cur_peek(cur), buf));
    }
    skip_spaces(cur);
    return DL_OK;
}

/* Reads the unit word and resolves it (a trailing 's' makes a plural). */
static dl_status
read_unit(cursor *cur, term_value *tv, const duration_unit **out) {
    tv->unit_pos = cur->pos;
    while (cur->pos < cur->end && !cur_at_space(cur)) {
        cur->pos++;
    }
    tv->unit_len = cur->pos - tv->unit_pos;
    const char *w = cur->text.ptr + tv->unit_pos;
    size_t len = tv->unit_len;
    for (size_t i = 0; i < DL_ARRAY_LEN(units); i++) {
        if (word_eq_nocase(w, len, units[i].name) ||
            (len > 1 && (w[len - 1] == 's' || w[len - 1] == 'S') &&
             word_eq_nocase(w, len - 1, units[i].name))) {
            *out = &units[i];
            return DL_OK;
        }
    }
    return CUR_FAIL(cur, tv->unit_pos,
                    "unknown unit '%.*s'; expected week, day, hour, minute, second, millisecond, "
                    "microsecond or nanosecond (singular or plural)",
                    (int)len, w);
}

/* Microseconds of one term. */
static dl_status
term_micros(cursor *cur, const term_value *tv, const duration_unit *unit, int64_t *out) {
    const char *w = cur->text.ptr + tv->unit_pos;
    if (unit->micros == 0) {
        dl_status s = CUR_FAIL(cur, tv->unit_pos,
                               "%.*s are not accepted in a duration because their length varies; "
                               "use days instead, e.g. 'interval 365 days' for a year",
                               (int)tv->unit_len, w);
        dl_error_hint(cur->err, "Delta's interval properties take weeks, days, hours, minutes or "
                                "seconds, e.g. 'interval 30 days'");
        return s;
    }
    if (tv->has_point && unit->micros != DL_MICROS_PER_SECOND) {
        return CUR_FAIL(cur, tv->start, "only seconds may have a fraction, not %.*s",
                        (int)tv->unit_len, w);
    }
    int64_t v = 0;
    if (unit->micros < 0) {
        v = tv->whole / -unit->micros; /* nanoseconds, truncated to microseconds */
    } else if (DL_MUL_OVERFLOW(tv->whole, unit->micros, &v) ||
               DL_ADD_OVERFLOW(v, tv->nanos / 1000, &v)) {
        return CUR_FAIL(cur, tv->start, "the term overflows 64-bit microseconds");
    }
    *out = tv->is_negative ? -v : v;
    return DL_OK;
}

/* Skips an optional leading `interval` keyword, which must be followed by white space. */
static dl_status
skip_keyword(cursor *cur) {
    const char *s = cur->text.ptr + cur->pos;
    size_t left = cur->end - cur->pos;
    if (left < 8 || !word_eq_nocase(s, 8, "interval")) {
        return DL_OK;
    }
    if (left == 8) {
        return CUR_FAIL(cur, cur->pos + 8,
                        "'interval' needs a number and a unit, e.g. "
                        "'interval 30 days'");
    }
    if (!dl_timefmt_is_space((unsigned char)s[8])) {
        return CUR_FAIL(cur, cur->pos, "expected a space after 'interval'");
    }
    cur->pos += 8;
    skip_spaces(cur);
    return DL_OK;
}

dl_status
dl_duration_parse(dl_str text, int64_t *out_micros, dl_error *err) {
    cursor cur = {.text = text, .pos = 0, .end = text.len, .err = err};
    skip_spaces(&cur);
    while (cur.end > cur.pos && dl_timefmt_is_space((unsigned char)text.ptr[cur.end - 1])) {
        cur.end--;
    }
    if (cur.pos >= cur.end) {
        return CUR_FAIL(&cur, cur.pos, "the text is empty; write e.g. 'interval 1 week'");
    }
    DL_TRY(skip_keyword(&cur));
    int64_t total = 0;
    while (cur.pos < cur.end) {
        term_value tv;
        const duration_unit *unit = NULL;
        int64_t v = 0;
        DL_TRY(read_value(&cur, &tv));
        DL_TRY(read_unit(&cur, &tv, &unit));
        DL_CHECK(unit != NULL, err, DL_ERR_INTERNAL, "duration unit not resolved");
        DL_TRY(term_micros(&cur, &tv, unit, &v));
        if (DL_ADD_OVERFLOW(total, v, &total)) {
            return CUR_FAIL(&cur, tv.start, "the sum overflows 64-bit microseconds");
        }
        skip_spaces(&cur);
    }
    if (total < 0) {
        return CUR_FAIL(&cur, 0, "a duration must not be negative");
    }
    *out_micros = total;
    return DL_OK;
}

size_t
dl_duration_format(int64_t micros, char *out) {
    const char *name = "second";
    int64_t n = 0;
    if (micros != 0) {
        for (size_t i = 0; i < N_EXACT_UNITS; i++) {
            if (micros % units[i].micros == 0) {
                name = units[i].name;
                n = micros / units[i].micros;
                break;
            }
        }
    }
    int len = snprintf(out, DL_DURATION_STR_CAP, "interval %lld %s%s", (long long)n, name,
                       n == 1 ? "" : "s");
    return len < 0 ? 0 : (size_t)len;
}
