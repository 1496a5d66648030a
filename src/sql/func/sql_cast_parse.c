/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Text to values: CAST(s AS <type>) as Spark reads strings.
 *
 *   boolean    after trimming, any case: t true y yes 1 / f false n no 0
 *   integers   trimmed [+-]digits; legacy CAST also takes and drops a fraction ("1.9" -> 1)
 *              (UTF8String.toLong), ANSI and TRY do not; out of range is invalid
 *   float      Java's Double.parseDouble, plus inf / infinity / nan in any case
 *   decimal    Java's BigDecimal text ("1.5", "-2e3"), rounded HALF_UP to the scale; too many
 *              integer digits is an overflow
 *   date       base/timefmt.h's date grammar (text after the day is ignored)
 *   timestamp  base/timefmt.h's grammar; without a zone in the text the session zone applies
 *   binary     the bytes of the string
 *   intervals  "INTERVAL '1-2' YEAR TO MONTH", "1-2"; "INTERVAL '1 02:03:04' DAY TO SECOND",
 *              "1 02:03:04.5", or unit terms ("1 day 2 hours", base/timefmt.h's durations)
 *
 * An invalid value is NULL in legacy and TRY mode and an error naming the value in ANSI mode.
 */
#include <string.h>
#include <strings.h>

#include "sql/func/sql_fn_int.h"

static dl_str
trim_str(dl_str s) {
    while (s.len > 0 && (unsigned char)s.ptr[0] <= ' ') {
        s.ptr++;
        s.len--;
    }
    while (s.len > 0 && (unsigned char)s.ptr[s.len - 1] <= ' ') {
        s.len--;
    }
    return s;
}

bool
dl_sql_text_to_int(dl_str text, int64_t min, int64_t max, bool is_exact, int64_t *out) {
    dl_str s = trim_str(text);
    if (s.len == 0) {
        return false;
    }
    size_t i = 0;
    bool is_negative = false;
    if (s.ptr[0] == '-' || s.ptr[0] == '+') {
        is_negative = s.ptr[0] == '-';
        i = 1;
        if (s.len == 1) {
            return false;
        }
    }
    /* Accumulate negatively so that the most negative value parses. */
    int64_t v = 0;
    for (; i < s.len; i++) {
        char c = s.ptr[i];
        if (c == '.' && !is_exact) {
            break;
        }
        if (c < '0' || c > '9') {
            return false;
        }
        if (DL_MUL_OVERFLOW(v, 10, &v) || DL_SUB_OVERFLOW(v, c - '0', &v)) {
            return false;
        }
    }
    for (i++; i < s.len; i++) {
        if (s.ptr[i] < '0' || s.ptr[i] > '9') {
            return false;
        }
    }
    if (!is_negative) {
        if (v == INT64_MIN) {
            return false;
        }
        v = -v;
    }
    if (v < min || v > max) {
        return false;
    }
    *out = v;
    return true;
}

static int
parse_bool(dl_str text) {
    static const char *const trues[] = {"t", "true", "y", "yes", "1"};
    static const char *const falses[] = {"f", "false", "n", "no", "0"};
    dl_str s = trim_str(text);
    for (size_t i = 0; i < DL_ARRAY_LEN(trues); i++) {
        if (dl_str_eq_nocase(s, dl_str_from_cstr(trues[i]))) {
            return 1;
        }
        if (dl_str_eq_nocase(s, dl_str_from_cstr(falses[i]))) {
            return 0;
        }
    }
    return -1;
}

/* ---- intervals --------------------------------------------------------------------------------
 */

/* Strips "INTERVAL '...' <qualifier>" down to the quoted text, checking the qualifier names
 * the kind asked for. */
static bool
unwrap_interval(dl_str s, bool is_year_month, dl_str *out) {
    if (s.len < 9 || strncasecmp(s.ptr, "interval", 8) != 0) {
        *out = s;
        return true;
    }
    dl_str rest = trim_str(dl_str_slice(s, 8, s.len - 8));
    if (rest.len < 2 || rest.ptr[0] != '\'') {
        *out = rest;
        return true;
    }
    int64_t close = dl_str_find_byte(dl_str_slice(rest, 1, rest.len - 1), '\'');
    if (close < 0) {
        return false;
    }
    dl_str qualifier = trim_str(dl_str_slice(rest, (size_t)close + 2, rest.len));
    bool names_month = qualifier.len >= 4 && (strncasecmp(qualifier.ptr, "year", 4) == 0 ||
                                              strncasecmp(qualifier.ptr, "month", 5) == 0);
    if (qualifier.len > 0 && names_month != is_year_month) {
        return false;
    }
    *out = dl_str_slice(rest, 1, (size_t)close);
    return true;
}

static bool
parse_interval_ym(dl_str text, int32_t *out) {
    dl_str s;
    if (!unwrap_interval(trim_str(text), true, &s)) {
        return false;
    }
    s = trim_str(s);
    bool is_negative = s.len > 0 && s.ptr[0] == '-';
    if (s.len > 0 && (s.ptr[0] == '-' || s.ptr[0] == '+')) {
        s = dl_str_slice(s, 1, s.len - 1);
    }
    int64_t dash = dl_str_find_byte(s, '-');
    int64_t years;
    int64_t months = 0;
    if (dash < 0) {
        if (!dl_sql_text_to_int(s, 0, INT32_MAX, true, &months)) {
            return false;
        }
        years = 0;
    } else if (!dl_sql_text_to_int(dl_str_slice(s, 0, (size_t)dash), 0, INT32_MAX / 12, true,
                                   &years) ||
               !dl_sql_text_to_int(dl_str_slice(s, (size_t)dash + 1, s.len), 0, 11, true,
                                   &months)) {
        return false;
    }
    int64_t total = years * 12 + months;
    if (total > INT32_MAX) {
        return false;
    }
    *out = (int32_t)(is_negative ? -total : total);
    return true;
}

/* "[-]D HH:MM:SS[.f]" or "[-]HH:MM:SS[.f]". */
static bool
parse_day_time(dl_str s, int64_t *out) {
    bool is_negative = s.len > 0 && s.ptr[0] == '-';
    if (s.len > 0 && (s.ptr[0] == '-' || s.ptr[0] == '+')) {
        s = dl_str_slice(s, 1, s.len - 1);
    }
    int64_t days = 0;
    int64_t space = dl_str_find_byte(s, ' ');
    if (space >= 0) {
        if (!dl_sql_text_to_int(dl_str_slice(s, 0, (size_t)space), 0, 106751991, true, &days)) {
            return false;
        }
        s = trim_str(dl_str_slice(s, (size_t)space + 1, s.len));
    }
    int64_t fields[3] = {0, 0, 0};
    int64_t frac = 0;
    for (int f = 0; f < 3; f++) {
        size_t end = 0;
        while (end < s.len && s.ptr[end] >= '0' && s.ptr[end] <= '9') {
            end++;
        }
        if (end == 0 || end > 2 ||
            !dl_sql_text_to_int(dl_str_slice(s, 0, end), 0, f == 0 ? 23 : 59, true, &fields[f])) {
            return false;
        }
        s = dl_str_slice(s, end, s.len);
        char want = f < 2 ? ':' : '.';
        if (s.len == 0) {
            break;
        }
        if (s.ptr[0] != want) {
            return false;
        }
        s = dl_str_slice(s, 1, s.len - 1);
        if (f == 2) {
            for (size_t i = 0, scale = 100000; i < s.len; i++, scale /= 10) {
                if (s.ptr[i] < '0' || s.ptr[i] > '9') {
                    return false;
                }
                frac += (int64_t)(s.ptr[i] - '0') * (int64_t)scale;
            }
        }
    }
    int64_t total = days * DL_MICROS_PER_DAY + fields[0] * DL_MICROS_PER_HOUR +
                    fields[1] * DL_MICROS_PER_MINUTE + fields[2] * DL_MICROS_PER_SECOND + frac;
    *out = is_negative ? -total : total;
    return true;
}

static bool
parse_interval_dt(dl_str text, int64_t *out) {
    dl_str s;
    if (!unwrap_interval(trim_str(text), false, &s)) {
        return false;
    }
    s = trim_str(s);
    if (dl_str_find_byte(s, ':') >= 0) {
        return parse_day_time(s, out);
    }
    bool is_negative = s.len > 0 && s.ptr[0] == '-';
    dl_str body = is_negative ? dl_str_slice(s, 1, s.len - 1) : s;
    if (dl_sql_text_to_int(body, 0, INT64_MAX / DL_MICROS_PER_DAY, true, out)) {
        *out *= is_negative ? -DL_MICROS_PER_DAY : DL_MICROS_PER_DAY; /* a bare number: days */
        return true;
    }
    dl_error scratch;
    if (dl_duration_parse(body, out, &scratch) != DL_OK) {
        return false;
    }
    *out = is_negative ? -*out : *out;
    return true;
}

/* ---- the cast ---------------------------------------------------------------------------------
 */

typedef struct parse_ctx {
    const dl_sql_fn_env *env;
    const dl_sql_tz *tz;
    dl_sql_cast_mode mode;
    const dl_type *to;
    dl_vector *out;
} parse_ctx;

/* Writes the value of s at row of out; *out_bad set when s is not a valid value (and
 * *out_overflow when it is a number too large for the type). */
static dl_status
parse_one(const parse_ctx *c, dl_str s, int64_t row, bool *out_bad, bool *out_overflow,
          dl_error *err) {
    void *data = c->out->data;
    int64_t v = 0;
    *out_bad = false;
    *out_overflow = false;
    bool is_exact = c->mode != DL_SQL_CAST_LEGACY;
    switch (c->to->id) {
    case DL_VEC_TYPE_BOOLEAN: {
        int b = parse_bool(s);
        *out_bad = b < 0;
        dl_vec_bit_put(data, row, b == 1);
        return DL_OK;
    }
    case DL_VEC_TYPE_BYTE:
        *out_bad = !dl_sql_text_to_int(s, INT8_MIN, INT8_MAX, is_exact, &v);
        ((int8_t *)data)[row] = (int8_t)v;
        return DL_OK;
    case DL_VEC_TYPE_SHORT:
        *out_bad = !dl_sql_text_to_int(s, INT16_MIN, INT16_MAX, is_exact, &v);
        ((int16_t *)data)[row] = (int16_t)v;
        return DL_OK;
    case DL_VEC_TYPE_INT:
        *out_bad = !dl_sql_text_to_int(s, INT32_MIN, INT32_MAX, is_exact, &v);
        ((int32_t *)data)[row] = (int32_t)v;
        return DL_OK;
    case DL_VEC_TYPE_LONG:
        *out_bad = !dl_sql_text_to_int(s, INT64_MIN, INT64_MAX, is_exact, &v);
        ((int64_t *)data)[row] = v;
        return DL_OK;
    case DL_VEC_TYPE_FLOAT:
    case DL_VEC_TYPE_DOUBLE: {
        double d = 0;
        *out_bad = !dl_sql_text_to_double(s, &d);
        if (c->to->id == DL_VEC_TYPE_FLOAT) {
            ((float *)data)[row] = (float)d;
        } else {
            ((double *)data)[row] = d;
        }
        return DL_OK;
    }
    case DL_VEC_TYPE_DECIMAL: {
        dl_i128 d = 0;
        *out_bad = !dl_sql_dec_parse(s, c->to->precision, c->to->scale, &d, out_overflow);
        ((dl_i128 *)data)[row] = d;
        return DL_OK;
    }
    case DL_VEC_TYPE_DATE: {
        int32_t days = 0;
        dl_error scratch;
        *out_bad = dl_date_parse(s, &days, &scratch) != DL_OK;
        ((int32_t *)data)[row] = days;
        return DL_OK;
    }
    case DL_VEC_TYPE_TIMESTAMP: {
        dl_error scratch;
        *out_bad = dl_sql_ts_parse_in(s, c->tz, &v, &scratch) != DL_OK;
        ((int64_t *)data)[row] = v;
        return DL_OK;
    }
    case DL_VEC_TYPE_TIMESTAMP_NTZ: {
        dl_error scratch;
        *out_bad = dl_ts_ntz_parse(s, true, &v, &scratch) != DL_OK;
        ((int64_t *)data)[row] = v;
        return DL_OK;
    }
    case DL_VEC_TYPE_INTERVAL_YM: {
        int32_t m = 0;
        *out_bad = !parse_interval_ym(s, &m);
        ((int32_t *)data)[row] = m;
        return DL_OK;
    }
    case DL_VEC_TYPE_INTERVAL_DT:
        *out_bad = !parse_interval_dt(s, &v);
        ((int64_t *)data)[row] = v;
        return DL_OK;
    default:
        DL_FAIL(err, DL_ERR_INTERNAL, "no cast from string to %s", dl_vec_type_name(c->to->id));
    }
}

static dl_status
strings_to_bytes(const dl_vec_unified *u, int64_t count, dl_vector *out, dl_error *err) {
    for (int64_t i = 0; i < count; i++) {
        if (dl_sql_u_null(u, i)) {
            DL_TRY(dl_vec_append_null(out, err));
            continue;
        }
        dl_str s = dl_sql_u_str(u, i);
        DL_TRY(dl_vec_append_str(out, s.ptr, s.len, err));
    }
    return DL_OK;
}

dl_status
dl_sql_cast_from_string(const dl_sql_fn_env *env, dl_sql_cast_mode mode, const dl_vector *src,
                        int64_t count, dl_vector *out, dl_error *err) {
    dl_vec_unified u;
    dl_vec_unify(src, count, &u);
    if (dl_vec_type_phys(out->type) == DL_VEC_PHYS_VIEW) {
        return strings_to_bytes(&u, count, out, err);
    }
    parse_ctx c = {.env = env, .mode = mode, .to = out->type, .out = out};
    if (out->type->id == DL_VEC_TYPE_TIMESTAMP) {
        DL_TRY(dl_sql_tz_env(env, &c.tz, err));
    }
    int64_t base = out->length;
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(dl_sql_out_nulls(out, base, &u, 1, count, err));
    for (int64_t i = 0; i < count; i++) {
        if (dl_sql_u_null(&u, i)) {
            continue;
        }
        dl_str s = dl_sql_u_str(&u, i);
        bool is_bad;
        bool is_overflow;
        DL_TRY(parse_one(&c, s, base + i, &is_bad, &is_overflow, err));
        if (is_bad) {
            const char *cls = is_overflow ? "NUMERIC_VALUE_OUT_OF_RANGE" : "CAST_INVALID_INPUT";
            if (is_overflow && c.to->id == DL_VEC_TYPE_DECIMAL &&
                dl_sql_dec_text_integral_digits(s) > DL_SQL_DEC_MAX) {
                /* Spark refuses text past 38 integral digits before it looks at the type */
                cls = "NUMERIC_OUT_OF_SUPPORTED_RANGE";
            }
            DL_TRY(
                dl_sql_cast_bad_value(env, mode, cls, s, src->type, out->type, out, base + i, err));
        }
    }
    dl_vec_set_length(out, base + count);
    return DL_OK;
}
