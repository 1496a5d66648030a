/* SPDX-License-Identifier: Apache-2.0 */
/*
 * format_number(x, d | pattern): java.text.DecimalFormat as Spark's FormatNumber applies it
 * (Locale.US, rounding HALF_EVEN on the value's exact decimal digits).
 *
 *   format_number(x, d)        d >= 0: '#,###,###,###,###,###,##0' plus '.' and d zeros, so
 *                              thousands grouped by ',' and exactly d decimals; d < 0 is NULL
 *   format_number(x, pattern)  a DecimalFormat pattern; '' is the pattern above without decimals
 *
 * Patterns: '#' and '0' digits with ',' grouping in the integer part, '.' then '0's and '#'s in
 * the fraction (zeros are the digits always shown, '#'s shown when not zero). A pattern without
 * any '0' gets one as Java gives it ('#.##' shows 0.5 as '0.5'). Plain text before and after
 * the digits is written as it is ('x0' formats 1 as 'x1', a negative as '-x1'); quotes, '%',
 * per-mille, currency signs, exponents and negative subpatterns are refused with an error
 * (Spark accepts them; deltalite does not format them yet).
 *
 * Values: integers and decimals exactly; a double by its shortest digits (Double.toString's)
 * when they fit the decimals shown, else its exact binary value rounded HALF_EVEN (what Java 8+
 * DecimalFormat does); a float widened to double first, as Spark passes it. A negative value
 * that rounds to zero keeps its sign ('-0.00'), as Java prints it; NaN is 'NaN' and infinity
 * '∞'.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sql/func/sql_fn_int.h"

/* The numeric part of a DecimalFormat pattern. */
typedef struct numfmt {
    int min_int;
    int group; /* grouping size, 0 for none */
    int min_frac;
    int max_frac;
    bool point_always;
    dl_str prefix; /* literal text around the number ("x" in 'x0'), inside the pattern */
    dl_str suffix;
} numfmt;

/* Digits are capped so a typo (format_number(x, 1000000000)) is an error, not gigabytes. */
#define NUMFMT_MAX_DIGITS 4096

static dl_status
pattern_fail(dl_str pattern, const char *why, dl_error *err) {
    return dl_sql_fail_run(err,
                           "deltalite formats patterns of '#', '0', ',' and '.' with plain "
                           "text around them (as 'USD #,##0.00'); use format_string or concat "
                           "for the rest",
                           "format_number: the pattern '%.*s' %s", (int)DL_MIN(pattern.len, 200),
                           pattern.ptr, why);
}

/* Text around the number that deltalite writes as it is: no quotes, '%', per-mille, currency,
 * exponent, subpattern separator or digit. */
static bool
affix_is_literal(dl_str a) {
    for (size_t k = 0; k < a.len; k++) {
        uint8_t c = (uint8_t)a.ptr[k];
        if (strchr("%';E-", c) != NULL || (c >= '0' && c <= '9') || c == 0xC2 || c == 0xE2) {
            return false; /* 0xC2 0xA4 is the currency sign, 0xE2 0x80 0xB0 per-mille */
        }
    }
    return true;
}

/* Java's rule for patterns without a '0': "##.###" is "#0.###" and ".###" is ".0##". */
static void
pattern_add_zero(numfmt *f, int hashes_before_point, bool has_point) {
    if (!has_point) {
        return;
    }
    if (hashes_before_point > 0) {
        f->min_int = 1;
    } else if (f->max_frac > 0) {
        f->min_frac = 1;
    }
}

static dl_status
pattern_parse(dl_str p, numfmt *f, dl_error *err) {
    *f = (numfmt){.min_int = 1, .group = 3};
    if (p.len == 0) {
        return DL_OK;
    }
    f->min_int = 0;
    f->group = 0;
    size_t start = 0;
    while (start < p.len && strchr("#0,.", p.ptr[start]) == NULL) {
        start++;
    }
    size_t end = start;
    while (end < p.len && strchr("#0,.", p.ptr[end]) != NULL) {
        end++;
    }
    f->prefix = (dl_str){p.ptr, start};
    f->suffix = (dl_str){p.ptr + end, p.len - end};
    if (!affix_is_literal(f->prefix) || !affix_is_literal(f->suffix) || start == end) {
        return pattern_fail(
            p, start == end ? "has no digits" : "has text deltalite does not format", err);
    }
    dl_str whole = p;
    p = (dl_str){p.ptr + start, end - start};
    int hashes = 0;
    int zeros = 0;
    int since_comma = -1; /* digits after the last ',', -1 before any */
    size_t k = 0;
    for (; k < p.len && p.ptr[k] != '.'; k++) {
        char c = p.ptr[k];
        if (c == ',') {
            since_comma = 0;
            continue;
        }
        if (c == '#' && zeros > 0) {
            return pattern_fail(whole, "has a '#' after a '0' in its integer part", err);
        }
        hashes += c == '#';
        zeros += c == '0';
        since_comma += since_comma >= 0;
    }
    if (since_comma == 0) {
        return pattern_fail(whole, "ends its integer part with ','", err);
    }
    f->group = since_comma > 0 ? since_comma : 0;
    f->min_int = zeros;
    bool has_point = k < p.len;
    bool frac_hash = false;
    for (k += has_point; k < p.len; k++) {
        char c = p.ptr[k];
        if (c != '#' && c != '0') {
            return pattern_fail(whole, "has a ',' in its fraction", err);
        }
        if (c == '0' && frac_hash) {
            return pattern_fail(whole, "has a '0' after a '#' in its fraction", err);
        }
        frac_hash = frac_hash || c == '#';
        f->max_frac++;
        f->min_frac += c == '0';
        zeros += c == '0';
    }
    if (f->max_frac > NUMFMT_MAX_DIGITS || f->min_int > NUMFMT_MAX_DIGITS) {
        return pattern_fail(whole, "has too many digits", err);
    }
    if (zeros == 0) {
        pattern_add_zero(f, hashes, has_point);
    }
    f->point_always = has_point && f->max_frac == 0;
    return DL_OK;
}

/* A value's magnitude as decimal text: integer digits and fraction digits (rounded to the
 * pattern's max_frac already). */
typedef struct numtext {
    bool is_negative;
    dl_buf *digits; /* integer digits, then fraction digits (the row's output buffer, so
                       its capacity serves every row) */
    size_t int_len;
} numtext;

static dl_status
text_from_integer(int64_t v, numtext *t, dl_error *err) {
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    t->is_negative = v < 0;
    DL_TRY(dl_buf_appendf(t->digits, err, "%llu", (unsigned long long)m));
    t->int_len = t->digits->len;
    return DL_OK;
}

static dl_status
text_from_decimal(dl_i128 v, int scale, int max_frac, numtext *t, dl_error *err) {
    t->is_negative = v < 0;
    if (scale > max_frac) {
        v = dl_sql_dec_round(v, scale - max_frac, DL_SQL_ROUND_HALF_EVEN);
        scale = max_frac;
    }
    char text[64];
    size_t len = dl_sql_dec_format(v < 0 ? -v : v, scale, false, text);
    const char *point = memchr(text, '.', len);
    t->int_len = point != NULL ? (size_t)(point - text) : len;
    DL_TRY(dl_buf_append(t->digits, text, t->int_len, err));
    return point != NULL ? dl_buf_append(t->digits, point + 1, len - t->int_len - 1, err) : DL_OK;
}

static dl_status
text_from_double(double v, int max_frac, numtext *t, dl_error *err) {
    t->is_negative = signbit(v) != 0;
    v = fabs(v);
    char d[24];
    int exp;
    int n = dl_sql_double_digits(v, false, d, &exp);
    int frac_digits = n - 1 - exp; /* decimals of the shortest digits */
    if (frac_digits > max_frac) {
        /* glibc prints the exact binary value rounded to nearest, ties to even */
        int w = snprintf(NULL, 0, "%.*f", max_frac, v);
        DL_TRY(dl_buf_reserve(t->digits, (size_t)w + 1, err));
        (void)snprintf((char *)t->digits->data, (size_t)w + 1, "%.*f", max_frac, v);
        t->digits->len = (size_t)w;
        char *point = memchr(t->digits->data, '.', t->digits->len);
        t->int_len = point != NULL ? (size_t)(point - (char *)t->digits->data) : t->digits->len;
        if (point != NULL) {
            memmove(point, point + 1, t->digits->len - t->int_len - 1);
            t->digits->len--;
        }
        return DL_OK;
    }
    /* the shortest digits, placed around the point */
    int int_len = exp >= 0 ? exp + 1 : 1;
    for (int k = 0; k < int_len; k++) {
        DL_TRY(dl_buf_append_byte(t->digits, (uint8_t)(k <= exp && k < n ? d[k] : '0'), err));
    }
    for (int k = 1; k <= frac_digits; k++) {
        int idx = exp + k;
        DL_TRY(dl_buf_append_byte(t->digits, (uint8_t)(idx >= 0 && idx < n ? d[idx] : '0'), err));
    }
    t->int_len = (size_t)int_len;
    return DL_OK;
}

/* Lays the digits out as the pattern says. */
static dl_status
text_emit(const numtext *t, const numfmt *f, dl_buf *out, dl_error *err) {
    const char *d = (const char *)t->digits->data;
    size_t dlen = t->digits->len; /* out may be the same buffer: it grows past dlen */
    size_t lead = 0;
    while (lead < t->int_len && d[lead] == '0') {
        lead++;
    }
    int int_n = (int)(t->int_len - lead);
    int shown = DL_MAX(int_n, f->min_int);
    int frac_n = (int)(dlen - t->int_len);
    while (frac_n > f->min_frac && d[t->int_len + (size_t)frac_n - 1] == '0') {
        frac_n--;
    }
    DL_TRY(t->is_negative ? dl_buf_append_byte(out, '-', err) : DL_OK);
    DL_TRY(dl_buf_append(out, f->prefix.ptr, f->prefix.len, err));
    for (int k = 0; k < shown; k++) {
        int from_end = shown - k;
        if (f->group > 0 && k > 0 && from_end % f->group == 0) {
            DL_TRY(dl_buf_append_byte(out, ',', err));
        }
        int idx = k - (shown - int_n);
        DL_TRY(dl_buf_append_byte(out, (uint8_t)(idx >= 0 ? d[lead + (size_t)idx] : '0'), err));
    }
    if (shown == 0 && frac_n == 0 && f->min_frac == 0) {
        DL_TRY(dl_buf_append_byte(out, '0', err));
    }
    if (frac_n > 0 || f->min_frac > 0 || f->point_always) {
        DL_TRY(dl_buf_append_byte(out, '.', err));
    }
    DL_TRY(
        dl_buf_append(out, d + t->int_len, (size_t)DL_MIN(frac_n, (int)(dlen - t->int_len)), err));
    for (int k = (int)(dlen - t->int_len); k < f->min_frac; k++) {
        DL_TRY(dl_buf_append_byte(out, '0', err));
    }
    return dl_buf_append(out, f->suffix.ptr, f->suffix.len, err);
}

/* The row's pattern: from d (*out_null when d < 0: the result is NULL) or the pattern string. */
static dl_status
row_pattern(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, numfmt *f,
            bool *out_null, dl_error *err) {
    if (call->arg_types[1]->id == DL_VEC_TYPE_STRING) {
        return pattern_parse(dl_sql_u_str(&u[1], i), f, err);
    }
    int32_t d = DL_SQL_U(&u[1], int32_t, i);
    if (d < 0) {
        *out_null = true;
        return DL_OK;
    }
    DL_CHECK(d <= NUMFMT_MAX_DIGITS, err, DL_ERR_LIMIT,
             "format_number: %d decimals are more than the %d deltalite formats", (int)d,
             NUMFMT_MAX_DIGITS);
    *f = (numfmt){.min_int = 1, .group = 3, .min_frac = d, .max_frac = d};
    return DL_OK;
}

static dl_status
row_value(const dl_type *t, const dl_vec_unified *u, int64_t i, int max_frac, numtext *x,
          dl_buf *buf, bool *out_done, dl_error *err) {
    switch (t->id) {
    case DL_VEC_TYPE_BYTE:
        return text_from_integer(dl_sql_i8(DL_SQL_U(u, int8_t, i)), x, err);
    case DL_VEC_TYPE_SHORT:
        return text_from_integer(DL_SQL_U(u, int16_t, i), x, err);
    case DL_VEC_TYPE_INT:
        return text_from_integer(DL_SQL_U(u, int32_t, i), x, err);
    case DL_VEC_TYPE_LONG:
        return text_from_integer(DL_SQL_U(u, int64_t, i), x, err);
    case DL_VEC_TYPE_DECIMAL:
        return text_from_decimal(DL_SQL_U(u, dl_i128, i), t->scale, max_frac, x, err);
    default: {
        double v =
            t->id == DL_VEC_TYPE_FLOAT ? (double)DL_SQL_U(u, float, i) : DL_SQL_U(u, double, i);
        if (!isfinite(v)) {
            *out_done = true;
            return dl_buf_append_cstr(buf, isnan(v) ? "NaN" : v < 0 ? "-\u221e" : "\u221e", err);
        }
        return text_from_double(v, max_frac, x, err);
    }
    }
}

static dl_status
row_format_number(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
                  bool *out_null, dl_error *err) {
    *out_null = false;
    numfmt f;
    DL_TRY(row_pattern(call, u, i, &f, out_null, err));
    if (*out_null) {
        return DL_OK;
    }
    /* The digits go first into buf (reset for the row), the formatted text after them, which
     * then moves to the front: no allocation per row once buf has grown. */
    numtext x = {.digits = buf};
    bool done = false;
    DL_TRY(row_value(call->arg_types[0], &u[0], i, f.max_frac, &x, buf, &done, err));
    if (done) {
        return DL_OK;
    }
    size_t n = buf->len;
    size_t shown = DL_MAX(x.int_len, (size_t)f.min_int);
    /* room for every digit, a comma per digit, the padding zeros, sign, point and text, so the
     * digits do not move while the text is appended */
    DL_TRY(dl_buf_reserve(buf, 2 * shown + n + (size_t)f.min_frac + f.prefix.len + f.suffix.len + 4,
                          err));
    DL_TRY(text_emit(&x, &f, buf, err));
    memmove(buf->data, buf->data + n, buf->len - n);
    buf->len -= n;
    return DL_OK;
}

dl_status
dl_sql_bind_format_number(dl_sql_fn_bind *b, dl_error *err) {
    const dl_type *x = dl_sql_bind_arg(b, 0);
    if (x->id == DL_VEC_TYPE_NULL) {
        dl_sql_bind_cast(b, 0, dl_sql_t(DL_VEC_TYPE_DOUBLE));
    } else if (!dl_sql_is_numeric(x)) {
        char name[64];
        return dl_sql_bind_fail(b, err,
                                "[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] the first argument "
                                "must be a number, got %s",
                                dl_sql_type_name(x, name, sizeof(name)));
    }
    const dl_type *d = dl_sql_bind_arg(b, 1);
    if (d->id == DL_VEC_TYPE_NULL || d->id == DL_VEC_TYPE_BYTE || d->id == DL_VEC_TYPE_SHORT) {
        dl_sql_bind_cast(b, 1, dl_sql_t(DL_VEC_TYPE_INT));
    } else if (d->id != DL_VEC_TYPE_INT && !dl_sql_is_stringish(d)) {
        char name[64];
        return dl_sql_bind_fail(b, err,
                                "[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] the second argument "
                                "must be an INT (decimals) or a STRING (a pattern), got %s",
                                dl_sql_type_name(d, name, sizeof(name)));
    }
    b->ret_type = dl_sql_t(DL_VEC_TYPE_STRING);
    return DL_OK;
}

dl_status
dl_sql_fn_format_number(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                        dl_error *err) {
    return dl_sql_str_rows(call, args, count, out, row_format_number, err);
}
