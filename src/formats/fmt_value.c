/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Text values to typed values (fmt_int.h), with the grammar of the Java parser Spark's CSV
 * reader calls for each type. Every parser is total: false for text it does not take.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formats/fmt_int.h"

static bool
is_digit(char c) {
    return c >= '0' && c <= '9';
}

bool
dl_fmt_parse_bool(const char *s, size_t n, bool *out) {
    if (n == 4 && strncasecmp(s, "true", 4) == 0) {
        *out = true;
        return true;
    }
    if (n == 5 && strncasecmp(s, "false", 5) == 0) {
        *out = false;
        return true;
    }
    return false;
}

bool
dl_fmt_parse_int(const char *s, size_t n, int64_t min, int64_t max, int64_t *out) {
    size_t i = 0;
    bool is_neg = false;
    if (n > 0 && (s[0] == '-' || s[0] == '+')) {
        is_neg = s[0] == '-';
        i = 1;
    }
    if (i == n) {
        return false;
    }
    /* accumulate negatively: INT64_MIN has no positive twin */
    int64_t v = 0;
    for (; i < n; i++) {
        if (!is_digit(s[i])) {
            return false;
        }
        int64_t d = s[i] - '0';
        if (v < (INT64_MIN + d) / 10) {
            return false;
        }
        v = v * 10 - d;
    }
    if (!is_neg) {
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

static bool
is_space(char c) {
    return (unsigned char)c <= ' ';
}

/* The number part of Java's grammar: digits with an optional point and exponent. */
static bool
is_decimal_text(const char *s, size_t n) {
    size_t i = 0;
    size_t digits = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) {
        i++;
    }
    while (i < n && is_digit(s[i])) {
        i++;
        digits++;
    }
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && is_digit(s[i])) {
            i++;
            digits++;
        }
    }
    if (digits == 0) {
        return false;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) {
            i++;
        }
        size_t exp_digits = 0;
        while (i < n && is_digit(s[i])) {
            i++;
            exp_digits++;
        }
        if (exp_digits == 0) {
            return false;
        }
    }
    return i == n;
}

bool
dl_fmt_parse_double(const char *s, size_t n, double *out) {
    while (n > 0 && is_space(s[0])) {
        s++;
        n--;
    }
    while (n > 0 && is_space(s[n - 1])) {
        n--;
    }
    if (n > 0 && strchr("dDfF", s[n - 1]) != NULL && n > 1 && s[n - 2] != 'e' && s[n - 2] != 'E') {
        n--; /* 1.5d, 2f */
    }
    size_t i = (n > 0 && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    bool is_neg = n > 0 && s[0] == '-';
    if (n - i == 3 && memcmp(s + i, "NaN", 3) == 0) {
        *out = (double)NAN;
        return true;
    }
    if (n - i == 8 && memcmp(s + i, "Infinity", 8) == 0) {
        *out = is_neg ? -(double)INFINITY : (double)INFINITY;
        return true;
    }
    if (n == 0 || n > 400 || !is_decimal_text(s, n)) {
        return false;
    }
    char tmp[401];
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    *out = strtod(tmp, NULL);
    return true;
}

int
dl_fmt_integer_digits(const char *s, size_t n) {
    size_t i = (n > 0 && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    if (i == n) {
        return 0;
    }
    for (size_t k = i; k < n; k++) {
        if (!is_digit(s[k])) {
            return 0;
        }
    }
    while (i + 1 < n && s[i] == '0') {
        i++; /* BigDecimal's precision counts no leading zeros */
    }
    return (int)(n - i);
}

/* 10^k for k in 0..38. */
static dl_i128
pow10_i128(int k) {
    dl_i128 v = 1;
    for (int i = 0; i < k; i++) {
        v *= 10;
    }
    return v;
}

bool
dl_fmt_parse_decimal(const char *s, size_t n, int precision, int scale, dl_i128 *out) {
    if (!is_decimal_text(s, n)) {
        return false;
    }
    size_t i = 0;
    bool is_neg = false;
    if (s[0] == '+' || s[0] == '-') {
        is_neg = s[0] == '-';
        i++;
    }
    /* the significant digits and where the point sits: value = digits * 10^-frac */
    char digits[80];
    int n_digits = 0;
    int frac = 0;
    bool in_frac = false;
    for (; i < n && s[i] != 'e' && s[i] != 'E'; i++) {
        if (s[i] == '.') {
            in_frac = true;
            continue;
        }
        if (n_digits == 0 && s[i] == '0') {
            frac += in_frac ? 1 : 0; /* leading zeros carry no digits */
            continue;
        }
        if (n_digits == (int)sizeof(digits)) {
            return false;
        }
        digits[n_digits++] = s[i];
        frac += in_frac ? 1 : 0;
    }
    if (i < n) {
        int64_t e = 0;
        if (!dl_fmt_parse_int(s + i + 1, n - i - 1, -100000, 100000, &e)) {
            return false;
        }
        frac -= (int)e;
    }
    /* keep digits down to 10^-scale, rounding half up on the first dropped one */
    int keep = n_digits - (frac - scale);
    if (keep > DL_VEC_DECIMAL_MAX_PRECISION) {
        return false;
    }
    dl_i128 v = 0;
    for (int k = 0; k < keep && k < n_digits; k++) {
        v = v * 10 + (digits[k] - '0');
    }
    if (keep > n_digits) {
        v *= pow10_i128(keep - n_digits);
    }
    if (keep >= 0 && keep < n_digits && digits[keep] >= '5') {
        v += 1;
    }
    if (v >= pow10_i128(precision)) {
        return false;
    }
    *out = is_neg ? -v : v;
    return true;
}
