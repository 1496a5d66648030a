/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Values as text: CAST(x AS STRING) for every type, the way Spark writes them.
 *
 *   boolean       true / false
 *   integers      decimal digits
 *   float double  Java's Float.toString / Double.toString: the shortest digits that read back
 *                 as the same value; plain between 1e-3 and 1e7 ("0.001", "100.0"), else
 *                 computerized scientific notation ("1.0E7", "1.0E-4"); NaN, Infinity
 *   decimal       with its scale ("25.50"); in legacy (non-ANSI) mode as Java's
 *                 BigDecimal.toString, which turns to scientific notation below 1E-6 ("0E-18")
 *   date          yyyy-MM-dd
 *   timestamp     yyyy-MM-dd HH:mm:ss[.ffffff] in the session zone, fraction without trailing
 *                 zeros; timestamp_ntz the same without a zone
 *   binary        the bytes themselves
 *   intervals     INTERVAL '1-2' YEAR TO MONTH, INTERVAL '1 02:03:04.5' DAY TO SECOND
 *   array         [1, 2, null]
 *   map           {a -> 1, b -> null}
 *   struct        {1, x, null}
 *
 * Shortest digits: a normal double within half an ulp of a decimal of k <= 15 significant
 * digits rounds to that decimal at 15 digits (the 15-digit grid is coarser than the ulp), so
 * printing 15 digits and dropping trailing zeros finds it; otherwise 16, then 17 digits
 * (always enough). Floats start at 6 digits the same way.
 *
 * Number text goes through the C library's printf and strtod under the "C" locale (uselocale
 * around each call), so a program's locale never changes the decimal point.
 */
#include <float.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sql/func/sql_fn_int.h"

/* ---- the C locale -----------------------------------------------------------------------------
 */

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void
make_c_locale(void) {
    c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

/* Switches the calling thread to the C locale; returns the previous one for restore_locale. */
static locale_t
enter_c_locale(void) {
    (void)pthread_once(&c_locale_once, make_c_locale);
    if (c_locale == (locale_t)0) {
        return (locale_t)0;
    }
    return uselocale(c_locale);
}

static void
restore_locale(locale_t old) {
    if (old != (locale_t)0) {
        (void)uselocale(old);
    }
}

/* ---- Java's Double.toString -------------------------------------------------------------------
 */

/* The shortest significant digits of d (finite, non-zero) and its decimal exponent: d is
 * 0.D * 10^(*out_exp + 1) read as D[0].D[1..] * 10^exp. Returns the digit count. */
static int
shortest_digits(double d, bool is_float, char *digits, int *out_exp) {
    char buf[48];
    /* Normal values: the shortest text has at most this many digits when it is shorter than
     * the start (see the file comment); subnormals have fewer bits, so search from two digits
     * (Java prints at least two: Double.MIN_VALUE is 4.9E-324, not 5.0E-324). */
    bool is_subnormal = fabs(d) < (is_float ? (double)FLT_MIN : DBL_MIN);
    int first = is_subnormal ? 2 : is_float ? 6 : 15;
    digits[0] = '0';
    int last = is_float ? 9 : 17;
    int prec = first;
    for (; prec < last; prec++) {
        (void)snprintf(buf, sizeof(buf), "%.*e", prec - 1, d);
        if (is_float ? strtof(buf, NULL) == (float)d : strtod(buf, NULL) == d) {
            break;
        }
    }
    (void)snprintf(buf, sizeof(buf), "%.*e", prec - 1, d);
    const char *p = buf;
    if (*p == '-') {
        p++;
    }
    int n = 0;
    for (; *p != 'e'; p++) {
        if (*p >= '0' && *p <= '9') {
            digits[n++] = *p;
        }
    }
    *out_exp = (int)strtol(p + 1, NULL, 10);
    while (n > 1 && digits[n - 1] == '0') {
        n--;
    }
    return DL_MAX(n, 1);
}

static size_t
layout_java(bool is_negative, const char *digits, int n, int exp, char *out) {
    size_t len = 0;
    if (is_negative) {
        out[len++] = '-';
    }
    if (exp >= -3 && exp < 7) {
        if (exp < 0) {
            out[len++] = '0';
            out[len++] = '.';
            for (int i = -1; i > exp; i--) {
                out[len++] = '0';
            }
            memcpy(out + len, digits, (size_t)n);
            len += (size_t)n;
        } else {
            for (int i = 0; i <= exp; i++) {
                out[len++] = (char)(i < n ? digits[i] : '0');
            }
            out[len++] = '.';
            if (n > exp + 1) {
                memcpy(out + len, digits + exp + 1, (size_t)(n - exp - 1));
                len += (size_t)(n - exp - 1);
            } else {
                out[len++] = '0';
            }
        }
        out[len] = '\0';
        return len;
    }
    out[len++] = digits[0];
    out[len++] = '.';
    if (n > 1) {
        memcpy(out + len, digits + 1, (size_t)n - 1);
        len += (size_t)n - 1;
    } else {
        out[len++] = '0';
    }
    int w = snprintf(out + len, 8, "E%d", exp);
    return len + (size_t)DL_MAX(w, 0);
}

static size_t
format_java(double d, bool is_float, char *out) {
    if (isnan(d)) {
        memcpy(out, "NaN", 4);
        return 3;
    }
    if (isinf(d)) {
        const char *s = d < 0 ? "-Infinity" : "Infinity";
        size_t n = strlen(s);
        memcpy(out, s, n + 1);
        return n;
    }
    if (d == 0) {
        const char *s = signbit(d) ? "-0.0" : "0.0";
        size_t n = strlen(s);
        memcpy(out, s, n + 1);
        return n;
    }
    char digits[24];
    int exp;
    locale_t old = enter_c_locale();
    int n = shortest_digits(d, is_float, digits, &exp);
    restore_locale(old);
    return layout_java(d < 0, digits, n, exp, out);
}

int
dl_sql_double_digits(double d, bool is_float, char *digits, int *out_exp) {
    if (d == 0) {
        digits[0] = '0';
        *out_exp = 0;
        return 1;
    }
    locale_t old = enter_c_locale();
    int n = shortest_digits(d, is_float, digits, out_exp);
    restore_locale(old);
    return n;
}

size_t
dl_sql_format_double(double d, char *out) {
    return format_java(d, false, out);
}

size_t
dl_sql_format_float(float f, char *out) {
    return format_java((double)f, true, out);
}

/* ---- intervals --------------------------------------------------------------------------------
 */

static dl_status
interval_ym_text(int32_t months, dl_buf *buf, dl_error *err) {
    int64_t m = months;
    const char *sign = m < 0 ? "-" : "";
    m = m < 0 ? -m : m;
    return dl_buf_appendf(buf, err, "INTERVAL '%s%lld-%lld' YEAR TO MONTH", sign,
                          (long long)(m / 12), (long long)(m % 12));
}

static dl_status
interval_dt_text(int64_t micros, dl_buf *buf, dl_error *err) {
    const char *sign = micros < 0 ? "-" : "";
    uint64_t m = micros < 0 ? (uint64_t)0 - (uint64_t)micros : (uint64_t)micros;
    uint64_t days = m / (uint64_t)DL_MICROS_PER_DAY;
    m %= (uint64_t)DL_MICROS_PER_DAY;
    uint64_t hours = m / (uint64_t)DL_MICROS_PER_HOUR;
    m %= (uint64_t)DL_MICROS_PER_HOUR;
    uint64_t minutes = m / (uint64_t)DL_MICROS_PER_MINUTE;
    m %= (uint64_t)DL_MICROS_PER_MINUTE;
    uint64_t seconds = m / (uint64_t)DL_MICROS_PER_SECOND;
    uint64_t frac = m % (uint64_t)DL_MICROS_PER_SECOND;
    char fraction[16] = "";
    if (frac != 0) {
        int w = snprintf(fraction, sizeof(fraction), ".%06llu", (unsigned long long)frac);
        while (w > 1 && fraction[w - 1] == '0') {
            fraction[--w] = '\0';
        }
    }
    return dl_buf_appendf(buf, err, "INTERVAL '%s%llu %02llu:%02llu:%02llu%s' DAY TO SECOND", sign,
                          (unsigned long long)days, (unsigned long long)hours,
                          (unsigned long long)minutes, (unsigned long long)seconds, fraction);
}

/* ---- one value --------------------------------------------------------------------------------
 */

static dl_status nested_to_text(const dl_sql_fn_env *env, const dl_sql_tz *tz, const dl_type *t,
                                const dl_vector *v, int64_t idx, dl_buf *buf, dl_error *err);

static dl_status
element_text(const dl_sql_fn_env *env, const dl_sql_tz *tz, const dl_type *t, const dl_vector *v,
             int64_t idx, bool is_first, dl_buf *buf, dl_error *err) {
    if (!is_first) {
        DL_TRY(dl_buf_append_byte(buf, ' ', err));
    }
    if (v->validity != NULL && !dl_vec_bit_get(v->validity, idx)) {
        return dl_buf_append_cstr(buf, "null", err);
    }
    return dl_sql_value_to_text(env, tz, t, v, idx, buf, err);
}

static dl_status
struct_to_text(const dl_sql_fn_env *env, const dl_sql_tz *tz, const dl_type *t, const dl_vector *v,
               int64_t idx, dl_buf *buf, dl_error *err) {
    DL_TRY(dl_buf_append_byte(buf, '{', err));
    for (int32_t f = 0; f < t->n_fields; f++) {
        if (f > 0) {
            DL_TRY(dl_buf_append_byte(buf, ',', err));
        }
        DL_TRY(element_text(env, tz, t->fields[f].type, v->children[f], idx, f == 0, buf, err));
    }
    return dl_buf_append_byte(buf, '}', err);
}

static dl_status
map_to_text(const dl_sql_fn_env *env, const dl_sql_tz *tz, const dl_type *t, const dl_vector *v,
            int64_t idx, dl_buf *buf, dl_error *err) {
    int64_t start;
    int64_t end;
    dl_vec_list_bounds(v, idx, &start, &end);
    const dl_vector *entries = v->children[0];
    DL_TRY(dl_buf_append_byte(buf, '{', err));
    for (int64_t i = start; i < end; i++) {
        if (i > start) {
            DL_TRY(dl_buf_append_cstr(buf, ", ", err));
        }
        DL_TRY(dl_sql_value_to_text(env, tz, t->key, entries->children[0], i, buf, err));
        DL_TRY(dl_buf_append_cstr(buf, " ->", err));
        DL_TRY(element_text(env, tz, t->value, entries->children[1], i, false, buf, err));
    }
    return dl_buf_append_byte(buf, '}', err);
}

static dl_status
nested_to_text(const dl_sql_fn_env *env, const dl_sql_tz *tz, const dl_type *t, const dl_vector *v,
               int64_t idx, dl_buf *buf, dl_error *err) {
    if (t->id == DL_VEC_TYPE_STRUCT) {
        return struct_to_text(env, tz, t, v, idx, buf, err);
    }
    if (t->id == DL_VEC_TYPE_MAP) {
        return map_to_text(env, tz, t, v, idx, buf, err);
    }
    int64_t start;
    int64_t end;
    dl_vec_list_bounds(v, idx, &start, &end);
    DL_TRY(dl_buf_append_byte(buf, '[', err));
    for (int64_t i = start; i < end; i++) {
        if (i > start) {
            DL_TRY(dl_buf_append_byte(buf, ',', err));
        }
        DL_TRY(element_text(env, tz, t->element, v->children[0], i, i == start, buf, err));
    }
    return dl_buf_append_byte(buf, ']', err);
}

static dl_status
timestamp_text(const dl_sql_tz *tz, int64_t us, bool is_ntz, dl_buf *buf, dl_error *err) {
    char text[DL_TS_STR_CAP];
    int64_t local = us;
    if (!is_ntz) {
        int64_t offset = (int64_t)dl_sql_tz_offset_utc(tz, us) * DL_MICROS_PER_SECOND;
        if (DL_ADD_OVERFLOW(us, offset, &local)) {
            local = us;
        }
    }
    size_t n = dl_ts_format(local, DL_TS_STYLE_SPARK, text);
    return dl_buf_append(buf, text, n, err);
}

dl_status
dl_sql_value_to_text(const dl_sql_fn_env *env, const dl_sql_tz *tz, const dl_type *t,
                     const dl_vector *v, int64_t idx, dl_buf *buf, dl_error *err) {
    char text[64];
    size_t n;
    switch (t->id) {
    case DL_VEC_TYPE_BOOLEAN:
        return dl_buf_append_cstr(buf, dl_vec_get_bool(v, idx) ? "true" : "false", err);
    case DL_VEC_TYPE_BYTE:
        return dl_buf_appendf(buf, err, "%lld",
                              (long long)dl_sql_i8(((const int8_t *)v->data)[idx]));
    case DL_VEC_TYPE_SHORT:
        return dl_buf_appendf(buf, err, "%d", ((const int16_t *)v->data)[idx]);
    case DL_VEC_TYPE_INT:
        return dl_buf_appendf(buf, err, "%d", ((const int32_t *)v->data)[idx]);
    case DL_VEC_TYPE_LONG:
        return dl_buf_appendf(buf, err, "%lld", (long long)((const int64_t *)v->data)[idx]);
    case DL_VEC_TYPE_FLOAT:
        n = dl_sql_format_float(((const float *)v->data)[idx], text);
        return dl_buf_append(buf, text, n, err);
    case DL_VEC_TYPE_DOUBLE:
        n = dl_sql_format_double(((const double *)v->data)[idx], text);
        return dl_buf_append(buf, text, n, err);
    case DL_VEC_TYPE_DECIMAL:
        n = dl_sql_dec_format(((const dl_i128 *)v->data)[idx], t->scale, env == NULL || !env->ansi,
                              text);
        return dl_buf_append(buf, text, n, err);
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY: {
        dl_str s = dl_vec_get_str(v, idx);
        return dl_buf_append(buf, s.ptr, s.len, err);
    }
    case DL_VEC_TYPE_DATE:
        n = dl_date_format(((const int32_t *)v->data)[idx], text);
        return dl_buf_append(buf, text, n, err);
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        return timestamp_text(tz, ((const int64_t *)v->data)[idx],
                              t->id == DL_VEC_TYPE_TIMESTAMP_NTZ, buf, err);
    case DL_VEC_TYPE_INTERVAL_YM:
        return interval_ym_text(((const int32_t *)v->data)[idx], buf, err);
    case DL_VEC_TYPE_INTERVAL_DT:
        return interval_dt_text(((const int64_t *)v->data)[idx], buf, err);
    case DL_VEC_TYPE_STRUCT:
    case DL_VEC_TYPE_ARRAY:
    case DL_VEC_TYPE_MAP:
        return nested_to_text(env, tz, t, v, idx, buf, err);
    default:
        return dl_buf_append_cstr(buf, "null", err);
    }
}

/* ---- the cast ---------------------------------------------------------------------------------
 */

/* Integers: digits straight into the view, no buffer. */
static dl_status
ints_to_string(const dl_vec_unified *u, int64_t count, dl_vector *out, dl_error *err) {
    const dl_type *t = u->flat->type;
    for (int64_t i = 0; i < count; i++) {
        if (dl_sql_u_null(u, i)) {
            DL_TRY(dl_vec_append_null(out, err));
            continue;
        }
        int64_t v;
        switch (t->id) {
        case DL_VEC_TYPE_BYTE:
            v = dl_sql_i8(DL_SQL_U(u, int8_t, i));
            break;
        case DL_VEC_TYPE_SHORT:
            v = DL_SQL_U(u, int16_t, i);
            break;
        case DL_VEC_TYPE_INT:
            v = DL_SQL_U(u, int32_t, i);
            break;
        default:
            v = DL_SQL_U(u, int64_t, i);
            break;
        }
        char text[24];
        char *p = text + sizeof(text);
        uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
        do {
            *--p = (char)('0' + m % 10);
            m /= 10;
        } while (m != 0);
        if (v < 0) {
            *--p = '-';
        }
        DL_TRY(dl_vec_append_str(out, p, (size_t)(text + sizeof(text) - p), err));
    }
    return DL_OK;
}

static dl_status
values_to_string(const dl_sql_fn_env *env, const dl_vec_unified *u, int64_t count, dl_vector *out,
                 dl_error *err) {
    const dl_sql_tz *tz = NULL;
    DL_TRY(dl_sql_tz_env(env, &tz, err));
    dl_buf buf;
    dl_buf_init(&buf, env != NULL ? env->alloc : NULL);
    dl_status s = DL_OK;
    for (int64_t i = 0; i < count && s == DL_OK; i++) {
        if (dl_sql_u_null(u, i)) {
            s = dl_vec_append_null(out, err);
            continue;
        }
        dl_buf_reset(&buf);
        s = dl_sql_value_to_text(env, tz, u->flat->type, u->flat, u->sel[i], &buf, err);
        if (s == DL_OK) {
            s = dl_vec_append_str(out, buf.data, buf.len, err);
        }
    }
    dl_buf_destroy(&buf);
    return s;
}

static dl_status
copy_strings(const dl_vec_unified *u, int64_t count, dl_vector *out, dl_error *err) {
    for (int64_t i = 0; i < count; i++) {
        dl_str s = dl_sql_u_null(u, i) ? DL_STR("") : dl_sql_u_str(u, i);
        DL_TRY(dl_sql_u_null(u, i) ? dl_vec_append_null(out, err)
                                   : dl_vec_append_str(out, s.ptr, s.len, err));
    }
    return DL_OK;
}

dl_status
dl_sql_cast_to_string(const dl_sql_fn_env *env, dl_sql_cast_mode mode, const dl_vector *src,
                      int64_t count, dl_vector *out, dl_error *err) {
    DL_UNUSED(mode);
    dl_vec_unified u;
    dl_vec_unify(src, count, &u);
    if (dl_sql_is_integral(src->type)) {
        return ints_to_string(&u, count, out, err);
    }
    if (src->type->id == DL_VEC_TYPE_STRING || src->type->id == DL_VEC_TYPE_BINARY) {
        return copy_strings(&u, count, out, err);
    }
    return values_to_string(env, &u, count, out, err);
}

/* ---- errors of one value ----------------------------------------------------------------------
 */

static void
upper_name(const dl_type *t, char *buf, size_t cap) {
    (void)dl_sql_type_name(t, buf, cap);
    for (char *p = buf; *p != '\0'; p++) {
        if (*p >= 'a' && *p <= 'z') {
            *p = (char)(*p - 'a' + 'A');
        }
    }
}

/* The value as Spark's toSQLValue writes it in messages: 'text' for strings, 300L, 7S, 1Y,
 * 1.0E20D, 1.5BD, CAST(1.5 AS FLOAT) for numbers. */
static void
sql_value(dl_str text, const dl_type *t, char *buf, size_t cap) {
    int n = (int)DL_MIN(text.len, 200);
    const char *p = text.ptr != NULL ? text.ptr : "";
    bool is_number = n > 0 && (p[0] == '-' || (p[0] >= '0' && p[0] <= '9'));
    const char *suffix = "";
    switch (t->id) {
    case DL_VEC_TYPE_STRING:
        (void)snprintf(buf, cap, "'%.*s'", n, p);
        return;
    case DL_VEC_TYPE_FLOAT:
        (void)snprintf(buf, cap, "CAST(%.*s AS FLOAT)", n, p);
        return;
    case DL_VEC_TYPE_LONG:
        suffix = "L";
        break;
    case DL_VEC_TYPE_SHORT:
        suffix = "S";
        break;
    case DL_VEC_TYPE_BYTE:
        suffix = "Y";
        break;
    case DL_VEC_TYPE_DOUBLE:
        suffix = "D";
        break;
    case DL_VEC_TYPE_DECIMAL:
        suffix = "BD";
        break;
    default:
        break;
    }
    (void)snprintf(buf, cap, "%.*s%s", n, p, is_number ? suffix : "");
}

/* What the user can do instead, by mode: the try_ form, or the setting that bypasses it. */
static const char *
bypass_hint(dl_sql_cast_mode mode, bool is_overflow) {
    if (mode == DL_SQL_CAST_STORE) {
        return is_overflow ? "use try_cast on the input value to tolerate overflow and return "
                             "NULL instead, or set spark.sql.storeAssignmentPolicy to LEGACY"
                           : "correct the value, or use try_cast on the input value to tolerate "
                             "malformed input and return NULL instead, or set "
                             "spark.sql.storeAssignmentPolicy to LEGACY";
    }
    return is_overflow ? "use try_cast to tolerate overflow and return NULL instead, or set "
                         "spark.sql.ansi.enabled to false"
                       : "correct the value as per the syntax, or change its target type; use "
                         "try_cast to tolerate malformed input and return NULL instead, or set "
                         "spark.sql.ansi.enabled to false";
}

dl_status
dl_sql_cast_bad_value(const dl_sql_fn_env *env, dl_sql_cast_mode mode, const char *error_class,
                      dl_str text, const dl_type *from, const dl_type *to, dl_vector *out,
                      int64_t row, dl_error *err) {
    if (mode != DL_SQL_CAST_ANSI && mode != DL_SQL_CAST_STORE) {
        return dl_sql_out_set_null(out, row, err);
    }
    char from_name[96];
    char to_name[96];
    char value[256];
    upper_name(from, from_name, sizeof(from_name));
    upper_name(to, to_name, sizeof(to_name));
    sql_value(text, from, value, sizeof(value));
    bool is_invalid = strcmp(error_class, "CAST_INVALID_INPUT") == 0;
    const char *hint = bypass_hint(mode, !is_invalid);
    const char *column = env != NULL ? env->store_column : NULL;
    if (strcmp(error_class, "NUMERIC_OUT_OF_SUPPORTED_RANGE") == 0) {
        return dl_sql_fail_run(err, NULL,
                               "[NUMERIC_OUT_OF_SUPPORTED_RANGE] The value %.*s cannot be "
                               "interpreted as a numeric since it has more than 38 digits",
                               (int)DL_MIN(text.len, 200), text.ptr ? text.ptr : "");
    }
    if (strcmp(error_class, "NUMERIC_VALUE_OUT_OF_RANGE") == 0 && to->id == DL_VEC_TYPE_DECIMAL) {
        return dl_sql_fail_run(err, hint,
                               "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] %.*s cannot be "
                               "represented as Decimal(%d, %d)",
                               (int)DL_MIN(text.len, 200), text.ptr ? text.ptr : "", to->precision,
                               to->scale);
    }
    if (mode == DL_SQL_CAST_STORE && !is_invalid && column != NULL) {
        return dl_sql_fail_run(err, hint,
                               "[CAST_OVERFLOW_IN_TABLE_INSERT] Fail to assign a value of \"%s\" "
                               "type to the \"%s\" type column or variable `%s` due to an "
                               "overflow (the value %s)",
                               from_name, to_name, column, value);
    }
    return dl_sql_fail_run(
        err, hint, "[%s] The value %s of the type \"%s\" cannot be cast to \"%s\" %s", error_class,
        value, from_name, to_name, is_invalid ? "because it is malformed" : "due to an overflow");
}

/* ---- Java's Double.parseDouble ----------------------------------------------------------------
 */

static bool
is_special_word(const char *s, size_t n, const char *word) {
    return strlen(word) == n && strncasecmp(s, word, n) == 0;
}

/* Spark's special words (any case) and Java's own spellings. */
static bool
parse_special(const char *s, size_t n, double *out) {
    bool is_negative = n > 0 && s[0] == '-';
    bool has_sign = n > 0 && (s[0] == '-' || s[0] == '+');
    const char *w = has_sign ? s + 1 : s;
    size_t wn = has_sign ? n - 1 : n;
    if (is_special_word(w, wn, "inf") || is_special_word(w, wn, "infinity")) {
        *out = is_negative ? -HUGE_VAL : HUGE_VAL;
        return true;
    }
    if ((!has_sign && is_special_word(w, wn, "nan")) || (wn == 3 && memcmp(w, "NaN", 3) == 0)) {
        *out = (double)NAN;
        return true;
    }
    return false;
}

/* [+-] (digits [. digits] | . digits) [eE [+-] digits] [fFdD] */
static bool
is_java_number(const char *s, size_t n, size_t *out_len) {
    size_t i = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) {
        i++;
    }
    size_t digits = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
        i++;
        digits++;
    }
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
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
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            i++;
            exp_digits++;
        }
        if (exp_digits == 0) {
            return false;
        }
    }
    *out_len = i;
    if (i < n && (s[i] == 'f' || s[i] == 'F' || s[i] == 'd' || s[i] == 'D')) {
        i++;
    }
    return i == n;
}

bool
dl_sql_text_to_double(dl_str text, double *out) {
    const char *s = text.ptr;
    size_t n = text.len;
    while (n > 0 && (unsigned char)s[0] <= ' ') {
        s++;
        n--;
    }
    while (n > 0 && (unsigned char)s[n - 1] <= ' ') {
        n--;
    }
    if (parse_special(s, n, out)) {
        return true;
    }
    size_t len;
    char buf[1024];
    if (n >= sizeof(buf) || !is_java_number(s, n, &len)) {
        return false;
    }
    memcpy(buf, s, len);
    buf[len] = '\0';
    locale_t old = enter_c_locale();
    *out = strtod(buf, NULL);
    restore_locale(old);
    return true;
}
