/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Numbers between JSON text and binary, exactly.
 *
 * Reading (RFC 8259 §6: number = [ "-" ] int [ frac ] [ exp ]). The grammar is checked by the
 * reader; here the text becomes the correctly rounded double. Clinger's fast path covers the
 * common case: when the significant digits form an integer w <= 2^53 and the decimal exponent
 * e satisfies |e| <= 22, both w and 10^|e| are exact doubles and one IEEE multiplication or
 * division rounds correctly. (It also covers e up to 22 + 15 when w * 10^(e-22) stays below
 * 2^53.) Everything else goes to strtod, which glibc implements with correct rounding. The
 * fast path needs FLT_EVAL_METHOD == 0 (no extended-precision intermediates), true on x86-64
 * and AArch64; elsewhere strtod does all the work.
 *
 * Writing. A double is printed with the fewest significant digits, 15 to 17, that strtod
 * reads back to the same bits: 17 always suffice (DBL_DECIMAL_DIG), and up to DBL_DIG = 15
 * digits a decimal survives the trip through a double, so %.15g (which drops trailing zeros)
 * is already the shortest for a normal double that has a representation of 15 or fewer
 * digits. Subnormals, with less precision, search from 1 digit up.
 *
 * Locale. strtod and printf use the current locale's decimal point. JSON always uses '.', so
 * the reader swaps it in before strtod and the writer swaps it back after snprintf.
 */
#include <errno.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "json/json_int.h"

static const double exact_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

#define MAX_EXACT_INT ((uint64_t)1 << 53)

/* The significant digits (up to 19) and decimal exponent of a JSON number's text. */
typedef struct decimal {
    uint64_t digits;   /* significant digits, leading zeros dropped */
    int n_digits;      /* how many digits are in `digits` */
    bool is_truncated; /* more than 19 significant digits: `digits` is not exact */
    bool is_negative;
    int64_t exp10; /* the value is digits * 10^exp10 (when not truncated) */
} decimal;

static void
add_digit(decimal *dec, unsigned d, bool is_fraction) {
    if (dec->digits == 0 && d == 0) {
        dec->exp10 -= is_fraction ? 1 : 0; /* a leading zero: not significant */
        return;
    }
    if (dec->n_digits < 19) {
        dec->digits = dec->digits * 10 + d;
        dec->n_digits++;
        dec->exp10 -= is_fraction ? 1 : 0;
        return;
    }
    dec->is_truncated = dec->is_truncated || d != 0; /* dropped zeros lose nothing */
    dec->exp10 += is_fraction ? 0 : 1;
}

static void
scan_decimal(const char *s, size_t len, decimal *dec) {
    const char *p = s;
    const char *end = s + len;
    memset(dec, 0, sizeof(*dec));
    if (p < end && *p == '-') {
        dec->is_negative = true;
        p++;
    }
    for (; p < end && *p >= '0' && *p <= '9'; p++) {
        add_digit(dec, (unsigned)(*p - '0'), false);
    }
    if (p < end && *p == '.') {
        for (p++; p < end && *p >= '0' && *p <= '9'; p++) {
            add_digit(dec, (unsigned)(*p - '0'), true);
        }
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        bool is_neg_exp = false;
        if (p < end && (*p == '+' || *p == '-')) {
            is_neg_exp = *p == '-';
            p++;
        }
        int64_t e = 0;
        for (; p < end && *p >= '0' && *p <= '9'; p++) {
            if (e < 100000000) { /* far beyond any double; stops overflow */
                e = e * 10 + (*p - '0');
            }
        }
        dec->exp10 += is_neg_exp ? -e : e;
    }
}

/* Clinger's fast path; false when it does not apply. */
static bool
fast_double(const decimal *dec, double *out) {
#if FLT_EVAL_METHOD != 0
    DL_UNUSED(dec);
    DL_UNUSED(out);
    return false;
#else
    if (dec->digits == 0) {
        *out = dec->is_negative ? -0.0 : 0.0;
        return true;
    }
    if (dec->is_truncated || dec->digits > MAX_EXACT_INT) {
        return false;
    }
    double w = (double)dec->digits;
    double r;
    if (dec->exp10 >= 0 && dec->exp10 <= 22) {
        r = w * exact_pow10[dec->exp10];
    } else if (dec->exp10 < 0 && dec->exp10 >= -22) {
        r = w / exact_pow10[-dec->exp10];
    } else if (dec->exp10 > 22 && dec->exp10 <= 22 + 15) {
        uint64_t scaled = dec->digits;
        for (int64_t k = 22; k < dec->exp10; k++) {
            scaled *= 10; /* cannot overflow: digits <= 2^53 and at most 15 steps are taken */
            if (scaled > MAX_EXACT_INT) {
                return false;
            }
        }
        r = (double)scaled * exact_pow10[22];
    } else {
        return false;
    }
    *out = dec->is_negative ? -r : r;
    return true;
#endif
}

/* The locale's decimal point when it is not ".", else NULL. */
static const char *
locale_decimal_point(void) {
    const struct lconv *lc = localeconv();
    const char *dp = lc != NULL ? lc->decimal_point : NULL;
    if (dp == NULL || (dp[0] == '.' && dp[1] == '\0') || dp[0] == '\0' || strlen(dp) > 7) {
        return NULL;
    }
    return dp;
}

double
dl_json_num_to_double(const char *s, size_t len, char *tmp) {
    decimal dec;
    scan_decimal(s, len, &dec);
    double r;
    if (fast_double(&dec, &r)) {
        return r;
    }
    const char *dp = locale_decimal_point();
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '.' && dp != NULL) {
            size_t dp_len = strlen(dp);
            memcpy(tmp + n, dp, dp_len);
            n += dp_len;
        } else {
            tmp[n++] = s[i];
        }
    }
    tmp[n] = '\0';
    int saved_errno = errno;
    r = strtod(tmp, NULL);
    errno = saved_errno;
    return r;
}

/* Writes the decimal digits of v and a NUL to out (room for 21 bytes); returns the length. */
static size_t
format_digits(uint64_t v, char *out) {
    char rev[24];
    size_t n = 0;
    do {
        rev[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v != 0);
    for (size_t i = 0; i < n; i++) {
        out[i] = rev[n - 1 - i];
    }
    out[n] = '\0';
    return n;
}

size_t
dl_json_num_format_u64(uint64_t v, char out[24]) {
    return format_digits(v, out);
}

size_t
dl_json_num_format_i64(int64_t v, char out[24]) {
    if (v >= 0) {
        return format_digits((uint64_t)v, out);
    }
    out[0] = '-';
    /* Negate in unsigned arithmetic so that INT64_MIN works. */
    return 1 + format_digits(0 - (uint64_t)v, out + 1);
}

/* Prints d with prec significant digits into buf (locale form); true when it reads back. */
static bool
print_round_trips(double d, int prec, char *buf, size_t cap) {
    int n = snprintf(buf, cap, "%.*g", prec, d);
    if (n <= 0 || (size_t)n >= cap) {
        return false;
    }
    int saved_errno = errno;
    double back = strtod(buf, NULL);
    errno = saved_errno;
    uint64_t back_bits;
    uint64_t d_bits;
    memcpy(&back_bits, &back, sizeof(back_bits));
    memcpy(&d_bits, &d, sizeof(d_bits));
    return back_bits == d_bits;
}

size_t
dl_json_format_double(double d, char out[32]) {
    out[0] = '\0';
    if (!isfinite(d)) {
        return 0;
    }
    char buf[48];
    /* Subnormals carry fewer than 15 significant digits, so their shortest form may be
     * shorter still: search from one digit up (rare, so the cost does not matter). */
    int prec = d > -DBL_MIN && d < DBL_MIN && d != 0 ? 1 : 15;
    while (prec < 17 && !print_round_trips(d, prec, buf, sizeof(buf))) {
        prec++;
    }
    if (prec == 17) {
        int n = snprintf(buf, sizeof(buf), "%.17g", d);
        if (n <= 0 || (size_t)n >= sizeof(buf)) {
            return 0; /* cannot happen: %.17g of a finite double is at most 24 characters */
        }
    }
    /* Back to JSON's form: '.' as the decimal point, and ".0" on integral values so that the
     * text reads back as a double rather than an integer. */
    const char *dp = locale_decimal_point();
    size_t dp_len = dp != NULL ? strlen(dp) : 1;
    size_t n = 0;
    bool has_point_or_exp = false;
    for (size_t i = 0; buf[i] != '\0' && n < 29; i++) {
        if (dp != NULL && strncmp(buf + i, dp, dp_len) == 0) {
            out[n++] = '.';
            i += dp_len - 1;
            has_point_or_exp = true;
            continue;
        }
        has_point_or_exp = has_point_or_exp || buf[i] == '.' || buf[i] == 'e';
        out[n++] = buf[i];
    }
    if (!has_point_or_exp) {
        out[n++] = '.';
        out[n++] = '0';
    }
    out[n] = '\0';
    return n;
}
