/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Decimal arithmetic on the vector layer's representation: the unscaled value as a signed
 * 128-bit integer, the scale in the type (vec_type.h). Spark computes decimals with Java's
 * BigDecimal and then rounds to the result type with HALF_UP (Decimal.changePrecision); we get
 * the same digits from exact integer arithmetic:
 *
 *   - rescaling multiplies by 10^k or divides with HALF_UP rounding (the first dropped digit
 *     decides: >= 5 rounds away from zero);
 *   - a product of two 38-digit values needs 77 digits, so products (and dividends scaled up
 *     for division) are formed in 256 bits (four 64-bit limbs of the magnitude), rounded, and
 *     must come back under 2^127;
 *   - text goes both ways: Java's BigDecimal.toString (scientific below 1E-6) for legacy
 *     CAST(d AS STRING), plain text otherwise; parsing rounds HALF_UP at any digit count.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/func/sql_fn_int.h"

#define E18 INT64_C(1000000000000000000)

static const dl_i128 pow10_table[DL_SQL_DEC_MAX + 1] = {
    1,
    10,
    100,
    1000,
    10000,
    100000,
    1000000,
    10000000,
    100000000,
    1000000000,
    INT64_C(10000000000),
    INT64_C(100000000000),
    INT64_C(1000000000000),
    INT64_C(10000000000000),
    INT64_C(100000000000000),
    INT64_C(1000000000000000),
    INT64_C(10000000000000000),
    INT64_C(100000000000000000),
    E18,
    (dl_i128)E18 * 10,
    (dl_i128)E18 * 100,
    (dl_i128)E18 * 1000,
    (dl_i128)E18 * 10000,
    (dl_i128)E18 * 100000,
    (dl_i128)E18 * 1000000,
    (dl_i128)E18 * 10000000,
    (dl_i128)E18 * 100000000,
    (dl_i128)E18 * 1000000000,
    (dl_i128)E18 *INT64_C(10000000000),
    (dl_i128)E18 *INT64_C(100000000000),
    (dl_i128)E18 *INT64_C(1000000000000),
    (dl_i128)E18 *INT64_C(10000000000000),
    (dl_i128)E18 *INT64_C(100000000000000),
    (dl_i128)E18 *INT64_C(1000000000000000),
    (dl_i128)E18 *INT64_C(10000000000000000),
    (dl_i128)E18 *INT64_C(100000000000000000),
    (dl_i128)E18 *E18,
    (dl_i128)E18 *E18 * 10,
    (dl_i128)E18 *E18 * 100,
};

dl_i128
dl_sql_pow10(int n) {
    DL_ASSERT(n >= 0 && n <= DL_SQL_DEC_MAX);
    return pow10_table[n];
}

static dl_u128
magnitude(dl_i128 v) {
    return v < 0 ? (dl_u128)0 - (dl_u128)v : (dl_u128)v;
}

dl_i128
dl_sql_dec_round(dl_i128 v, int drop, dl_sql_round_mode mode) {
    if (drop <= 0) {
        return v;
    }
    int sign = v < 0 ? -1 : 1;
    if (drop > DL_SQL_DEC_MAX) {
        /* |v| < 1.7e38 is below half of 10^39: only the directed modes move it. */
        if (mode == DL_SQL_ROUND_FLOOR && v < 0) {
            return -1;
        }
        if (mode == DL_SQL_ROUND_CEILING && v > 0) {
            return 1;
        }
        return 0;
    }
    dl_i128 p = pow10_table[drop];
    dl_i128 q = v / p;
    dl_i128 r = v % p;
    if (r == 0) {
        return q;
    }
    dl_u128 twice = magnitude(r) * 2;
    switch (mode) {
    case DL_SQL_ROUND_HALF_UP:
        return twice >= (dl_u128)p ? q + sign : q;
    case DL_SQL_ROUND_HALF_EVEN:
        if (twice > (dl_u128)p || (twice == (dl_u128)p && (q & 1) != 0)) {
            return q + sign;
        }
        return q;
    case DL_SQL_ROUND_FLOOR:
        return r < 0 ? q - 1 : q;
    case DL_SQL_ROUND_CEILING:
        return r > 0 ? q + 1 : q;
    default:
        return q;
    }
}

bool
dl_sql_dec_rescale(dl_i128 v, int shift, dl_i128 *out) {
    if (shift >= 0) {
        if (shift > DL_SQL_DEC_MAX) {
            *out = 0;
            return v == 0;
        }
        return !DL_MUL_OVERFLOW(v, pow10_table[shift], out);
    }
    *out = dl_sql_dec_round(v, -shift, DL_SQL_ROUND_HALF_UP);
    return true;
}

/* ---- text ------------------------------------------------------------------------------------ */

/* Decimal digits of m (no sign) into buf; returns the count. buf needs 40 bytes. */
static int
u128_digits(dl_u128 m, char *buf) {
    char tmp[48];
    int n = 0;
    while (m >= (dl_u128)E18) {
        uint64_t chunk = (uint64_t)(m % (dl_u128)E18);
        m /= (dl_u128)E18;
        for (int i = 0; i < 18; i++) {
            tmp[n++] = (char)('0' + chunk % 10);
            chunk /= 10;
        }
    }
    uint64_t rest = (uint64_t)m;
    do {
        tmp[n++] = (char)('0' + rest % 10);
        rest /= 10;
    } while (rest != 0);
    for (int i = 0; i < n; i++) {
        buf[i] = tmp[n - 1 - i];
    }
    buf[n] = '\0';
    return n;
}

size_t
dl_sql_dec_format(dl_i128 v, int scale, bool is_java_string, char *out) {
    char digits[48];
    int n = u128_digits(magnitude(v), digits);
    size_t len = 0;
    if (v < 0) {
        out[len++] = '-';
    }
    int adjusted = n - 1 - scale;
    if (is_java_string && adjusted < -6) {
        out[len++] = digits[0];
        if (n > 1) {
            out[len++] = '.';
            memcpy(out + len, digits + 1, (size_t)n - 1);
            len += (size_t)n - 1;
        }
        int w = snprintf(out + len, 16, "E%d", adjusted);
        return len + (size_t)DL_MAX(w, 0);
    }
    if (scale == 0) {
        memcpy(out + len, digits, (size_t)n);
        len += (size_t)n;
    } else if (n > scale) {
        memcpy(out + len, digits, (size_t)(n - scale));
        len += (size_t)(n - scale);
        out[len++] = '.';
        memcpy(out + len, digits + n - scale, (size_t)scale);
        len += (size_t)scale;
    } else {
        out[len++] = '0';
        out[len++] = '.';
        for (int i = n; i < scale; i++) {
            out[len++] = '0';
        }
        memcpy(out + len, digits, (size_t)n);
        len += (size_t)n;
    }
    out[len] = '\0';
    return len;
}

static bool
is_space(char c) {
    return (unsigned char)c <= ' ';
}

/* The significant digits of decimal text: at most 38 kept in acc, the value being
 * acc * 10^exp plus a dropped tail whose first digit is first_dropped. */
typedef struct dec_text {
    dl_i128 acc;
    int n_kept;
    int64_t exp;
    int first_dropped; /* -1: nothing dropped */
    bool is_negative;
} dec_text;

static void
take_digit(dec_text *t, int d, bool is_fraction) {
    if (t->n_kept == 0 && d == 0) {
        if (is_fraction) {
            t->exp--;
        }
        return;
    }
    if (t->n_kept < DL_SQL_DEC_MAX) {
        t->acc = t->acc * 10 + d;
        t->n_kept++;
        if (is_fraction) {
            t->exp--;
        }
        return;
    }
    if (t->first_dropped < 0) {
        t->first_dropped = d;
    }
    if (!is_fraction) {
        t->exp++;
    }
}

static bool
scan_digits(const char **p, const char *end, dec_text *t, bool is_fraction) {
    bool any = false;
    while (*p < end && **p >= '0' && **p <= '9') {
        take_digit(t, **p - '0', is_fraction);
        (*p)++;
        any = true;
    }
    return any;
}

static bool
scan_exponent(const char **p, const char *end, int64_t *out) {
    bool is_negative = false;
    if (*p < end && (**p == '+' || **p == '-')) {
        is_negative = **p == '-';
        (*p)++;
    }
    int64_t e = 0;
    bool any = false;
    while (*p < end && **p >= '0' && **p <= '9') {
        if (e < 100000000) {
            e = e * 10 + (**p - '0');
        }
        (*p)++;
        any = true;
    }
    *out = is_negative ? -e : e;
    return any;
}

static bool
parse_dec_text(dl_str text, dec_text *t) {
    const char *p = text.ptr;
    const char *end = text.ptr + text.len;
    while (p < end && is_space(*p)) {
        p++;
    }
    while (end > p && is_space(end[-1])) {
        end--;
    }
    memset(t, 0, sizeof(*t));
    t->first_dropped = -1;
    if (p < end && (*p == '+' || *p == '-')) {
        t->is_negative = *p == '-';
        p++;
    }
    bool any = scan_digits(&p, end, t, false);
    if (p < end && *p == '.') {
        p++;
        any = scan_digits(&p, end, t, true) || any;
    }
    if (!any) {
        return false;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        int64_t e;
        if (!scan_exponent(&p, end, &e)) {
            return false;
        }
        t->exp += e;
    }
    return p == end;
}

int64_t
dl_sql_dec_text_integral_digits(dl_str text) {
    dec_text t;
    if (!parse_dec_text(text, &t) || t.acc == 0) {
        return 0;
    }
    return t.n_kept + t.exp;
}

bool
dl_sql_dec_parse(dl_str text, int precision, int scale, dl_i128 *out, bool *out_overflow) {
    dec_text t;
    *out_overflow = false;
    if (!parse_dec_text(text, &t)) {
        return false;
    }
    int64_t shift = t.exp + scale;
    dl_i128 v;
    if (t.acc == 0) {
        v = 0;
    } else if (shift > 0) {
        if (shift > DL_SQL_DEC_MAX || !dl_sql_dec_rescale(t.acc, (int)shift, &v)) {
            *out_overflow = true;
            return false;
        }
    } else if (shift == 0) {
        v = t.acc + (t.first_dropped >= 5 ? 1 : 0);
    } else {
        v = dl_sql_dec_round(t.acc, shift < -100 ? 100 : (int)-shift, DL_SQL_ROUND_HALF_UP);
    }
    if (t.is_negative) {
        v = -v;
    }
    if (!dl_sql_dec_fits(v, precision)) {
        *out_overflow = true;
        return false;
    }
    *out = v;
    return true;
}

/* ---- doubles --------------------------------------------------------------------------------- */

static const double exact_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

double
dl_sql_dec_to_double(dl_i128 v, int scale) {
    dl_u128 m = magnitude(v);
    if (m < ((dl_u128)1 << 53) && scale <= 22) {
        double d = (double)(int64_t)m / exact_pow10[scale];
        return v < 0 ? -d : d;
    }
    char text[64];
    (void)dl_sql_dec_format(v, scale, false, text);
    return strtod(text, NULL);
}

bool
dl_sql_dec_from_double(double d, int precision, int scale, dl_i128 *out) {
    if (!isfinite(d)) {
        return false;
    }
    char text[40];
    size_t n = dl_sql_format_double(d, text);
    bool overflow;
    return dl_sql_dec_parse(dl_str_make(text, n), precision, scale, out, &overflow);
}

/* ---- 256-bit products and quotients ---------------------------------------------------------- */

typedef struct u256 {
    uint64_t w[4]; /* little-endian limbs */
} u256;

static u256
u256_from(dl_u128 v) {
    u256 r = {{(uint64_t)v, (uint64_t)(v >> 64), 0, 0}};
    return r;
}

static u256
u256_mul(dl_u128 a, dl_u128 b) {
    uint64_t x[2] = {(uint64_t)a, (uint64_t)(a >> 64)};
    uint64_t y[2] = {(uint64_t)b, (uint64_t)(b >> 64)};
    u256 r = {{0, 0, 0, 0}};
    for (int i = 0; i < 2; i++) {
        dl_u128 carry = 0;
        for (int j = 0; j < 2; j++) {
            dl_u128 t = (dl_u128)x[i] * y[j] + r.w[i + j] + carry;
            r.w[i + j] = (uint64_t)t;
            carry = t >> 64;
        }
        r.w[i + 2] = (uint64_t)carry;
    }
    return r;
}

/* x / d in place; returns the remainder. */
static uint64_t
u256_div_small(u256 *x, uint64_t d) {
    dl_u128 rem = 0;
    for (int i = 3; i >= 0; i--) {
        dl_u128 cur = (rem << 64) | x->w[i];
        x->w[i] = (uint64_t)(cur / d);
        rem = cur % d;
    }
    return (uint64_t)rem;
}

/* x * m in place (m fits 64 bits); false on overflow of 256 bits. */
static bool
u256_mul_small(u256 *x, uint64_t m) {
    dl_u128 carry = 0;
    for (int i = 0; i < 4; i++) {
        dl_u128 t = (dl_u128)x->w[i] * m + carry;
        x->w[i] = (uint64_t)t;
        carry = t >> 64;
    }
    return carry == 0;
}

static bool
u256_fits_i128(const u256 *x) {
    return x->w[3] == 0 && x->w[2] == 0 && (x->w[1] >> 63) == 0;
}

static dl_u128
u256_low(const u256 *x) {
    return ((dl_u128)x->w[1] << 64) | x->w[0];
}

/* floor(x / 10^n) in place. */
static void
u256_div_pow10(u256 *x, int n) {
    while (n >= 19) {
        (void)u256_div_small(x, (uint64_t)E18 * 10);
        n -= 19;
    }
    if (n > 0) {
        (void)u256_div_small(x, (uint64_t)pow10_table[n]);
    }
}

/* x rounded HALF_UP after dropping drop digits. */
static void
u256_round(u256 *x, int drop) {
    if (drop <= 0) {
        return;
    }
    u256_div_pow10(x, drop - 1);
    uint64_t digit = u256_div_small(x, 10);
    if (digit >= 5) {
        for (int i = 0; i < 4 && ++x->w[i] == 0; i++) {
        }
    }
}

static bool
finish(const u256 *x, bool is_negative, dl_i128 *out) {
    if (!u256_fits_i128(x)) {
        return false;
    }
    dl_i128 v = (dl_i128)u256_low(x);
    *out = is_negative ? -v : v;
    return true;
}

bool
dl_sql_dec_mul_round(dl_i128 a, dl_i128 b, int drop, dl_i128 *out) {
    u256 p = u256_mul(magnitude(a), magnitude(b));
    if (drop > 77) {
        *out = 0;
        return true;
    }
    u256_round(&p, drop);
    return finish(&p, (a < 0) != (b < 0), out);
}

/* n / d for a 256-bit n and a 128-bit d < 2^127: quotient in n, remainder returned. */
static dl_u128
u256_div_u128(u256 *n, dl_u128 d) {
    if (n->w[3] == 0 && n->w[2] == 0) {
        dl_u128 v = u256_low(n);
        *n = u256_from(v / d);
        return v % d;
    }
    u256 q = {{0, 0, 0, 0}};
    dl_u128 rem = 0;
    for (int bit = 255; bit >= 0; bit--) {
        rem = (rem << 1) | ((n->w[bit / 64] >> (bit % 64)) & 1u);
        if (rem >= d) {
            rem -= d;
            q.w[bit / 64] |= (uint64_t)1 << (bit % 64);
        }
    }
    *n = q;
    return rem;
}

bool
dl_sql_dec_div_round(dl_i128 a, int shift, dl_i128 b, dl_i128 *out) {
    dl_u128 d = magnitude(b);
    if (d == 0 || shift < 0 || shift > 76) {
        return false;
    }
    u256 n = u256_from(magnitude(a));
    for (int s = shift; s > 0; s -= 19) {
        int k = DL_MIN(s, 19);
        uint64_t m = k == 19 ? (uint64_t)E18 * 10 : (uint64_t)pow10_table[k];
        if (!u256_mul_small(&n, m)) {
            return false;
        }
    }
    dl_u128 rem = u256_div_u128(&n, d);
    if (rem >= d - rem) {
        for (int i = 0; i < 4 && ++n.w[i] == 0; i++) {
        }
    }
    return finish(&n, (a < 0) != (b < 0), out);
}
