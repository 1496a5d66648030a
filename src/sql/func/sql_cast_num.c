/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Casts among boolean, the integers, float, double and decimal (and timestamps as seconds),
 * as Spark's Cast does them:
 *
 *   - narrowing integers wraps like Java's (int) in legacy mode and is an overflow in ANSI mode
 *     (NULL under TRY);
 *   - float and double to an integer truncate toward zero; in legacy mode NaN is 0 and values
 *     beyond the range saturate (Java's (long) / (int)), bytes and shorts then wrap from int;
 *     in ANSI mode NaN and out-of-range values are overflows;
 *   - decimal to an integer truncates; legacy mode keeps the low bits (BigDecimal.longValue),
 *     ANSI mode checks the range;
 *   - anything to decimal(p, s) rounds HALF_UP to s digits and fails (NULL, or an error in ANSI
 *     mode) when p digits do not hold the result; double goes through its shortest text as
 *     Spark's BigDecimal(Double.toString(d)) does;
 *   - boolean is 1 or 0, and a number is true when non-zero;
 *   - a timestamp is its seconds since the epoch (floored) as an integer, with the fraction as a
 *     double or decimal; numbers become timestamps as seconds (booleans as one microsecond);
 *   - a date is not a number: legacy mode gives NULL.
 *
 * Shape: one pass loads the source column into a canonical array (int64, double or 128-bit
 * decimal) with one switch on the source type, a second converts to the target with one switch
 * on the target type; rows that fail are rare and handled one at a time.
 */
#include <math.h>
#include <stdio.h>

#include "sql/func/sql_fn_int.h"

typedef enum num_class {
    CLS_INT,
    CLS_DOUBLE,
    CLS_DECIMAL,
} num_class;

typedef struct num_src {
    num_class cls;
    int scale; /* CLS_DECIMAL */
    bool is_timestamp;
    const dl_vec_unified *u;
    int64_t i64[DL_BATCH_CAPACITY];
    double f64[DL_BATCH_CAPACITY];
    dl_i128 dec[DL_BATCH_CAPACITY];
} num_src;

static void
load_ints(num_src *s, const dl_type *t, int64_t count) {
    const dl_vec_unified *u = s->u;
    switch (t->id) {
    case DL_VEC_TYPE_BOOLEAN:
        for (int64_t i = 0; i < count; i++) {
            s->i64[i] = dl_vec_bit_get(u->data, u->sel[i]);
        }
        return;
    case DL_VEC_TYPE_BYTE:
        for (int64_t i = 0; i < count; i++) {
            s->i64[i] = dl_sql_i8(DL_SQL_U(u, int8_t, i));
        }
        return;
    case DL_VEC_TYPE_SHORT:
        for (int64_t i = 0; i < count; i++) {
            s->i64[i] = DL_SQL_U(u, int16_t, i);
        }
        return;
    case DL_VEC_TYPE_INT:
        for (int64_t i = 0; i < count; i++) {
            s->i64[i] = DL_SQL_U(u, int32_t, i);
        }
        return;
    default:
        for (int64_t i = 0; i < count; i++) {
            s->i64[i] = DL_SQL_U(u, int64_t, i);
        }
        return;
    }
}

static void
load(num_src *s, const dl_type *t, int64_t count) {
    const dl_vec_unified *u = s->u;
    s->is_timestamp = t->id == DL_VEC_TYPE_TIMESTAMP;
    if (t->id == DL_VEC_TYPE_FLOAT || t->id == DL_VEC_TYPE_DOUBLE) {
        s->cls = CLS_DOUBLE;
        for (int64_t i = 0; i < count; i++) {
            s->f64[i] =
                t->id == DL_VEC_TYPE_FLOAT ? (double)DL_SQL_U(u, float, i) : DL_SQL_U(u, double, i);
        }
    } else if (t->id == DL_VEC_TYPE_DECIMAL) {
        s->cls = CLS_DECIMAL;
        s->scale = t->scale;
        for (int64_t i = 0; i < count; i++) {
            s->dec[i] = DL_SQL_U(u, dl_i128, i);
        }
    } else {
        s->cls = CLS_INT;
        load_ints(s, t, count);
    }
}

/* The text of source row i, for messages. */
static dl_str
value_text(const num_src *s, int64_t i, char *buf, size_t cap) {
    size_t n;
    switch (s->cls) {
    case CLS_DOUBLE:
        n = dl_sql_format_double(s->f64[i], buf);
        break;
    case CLS_DECIMAL:
        n = dl_sql_dec_format(s->dec[i], s->scale, false, buf);
        break;
    default: {
        int w = snprintf(buf, cap, "%lld", (long long)s->i64[i]);
        n = (size_t)DL_MAX(w, 0);
        break;
    }
    }
    return dl_str_make(buf, n);
}

typedef struct num_ctx {
    const dl_sql_fn_env *env;
    dl_sql_cast_mode mode;
    const dl_type *from;
    dl_vector *out;
    int64_t base;
    const num_src *src;
} num_ctx;

static dl_status
bad(const num_ctx *c, int64_t i, const char *error_class, dl_error *err) {
    char text[64];
    dl_str s = value_text(c->src, i, text, sizeof(text));
    return dl_sql_cast_bad_value(c->env, c->mode, error_class, s, c->from, c->out->type, c->out,
                                 c->base + i, err);
}

/* ---- to integers ----------------------------------------------------------------------------- */

/* Java's saturating (long) d / (int) d. */
static int64_t
java_double_to_long(double d, int64_t min, int64_t max) {
    if (isnan(d)) {
        return 0;
    }
    if (d >= (double)max) {
        return max;
    }
    if (d <= (double)min) {
        return min;
    }
    return (int64_t)d;
}

/* Source row i as an integer: *out_bad when it has none in [min, max] under the mode (in
 * legacy mode values are wrapped by the caller instead). */
static int64_t
int_value(const num_src *s, int64_t i, bool is_legacy, bool is_long, int64_t min, int64_t max,
          bool *out_bad) {
    *out_bad = false;
    switch (s->cls) {
    case CLS_DOUBLE: {
        double d = s->f64[i];
        if (is_legacy) {
            return is_long ? java_double_to_long(d, INT64_MIN, INT64_MAX)
                           : java_double_to_long(d, INT32_MIN, INT32_MAX);
        }
        if (isnan(d) || floor(d) > (double)max || ceil(d) < (double)min ||
            (max == INT64_MAX && floor(d) >= 9223372036854775808.0)) {
            *out_bad = true;
            return 0;
        }
        return (int64_t)d;
    }
    case CLS_DECIMAL: {
        dl_i128 t = s->dec[i] / dl_sql_pow10(s->scale);
        if (is_legacy) {
            return (int64_t)(uint64_t)(dl_u128)t;
        }
        *out_bad = t < min || t > max;
        return (int64_t)t;
    }
    default: {
        int64_t v = s->is_timestamp ? dl_floor_div(s->i64[i], DL_MICROS_PER_SECOND) : s->i64[i];
        *out_bad = !is_legacy && (v < min || v > max);
        return v;
    }
    }
}

static dl_status
to_integer(const num_ctx *c, int64_t count, dl_error *err) {
    static const int64_t mins[] = {INT8_MIN, INT16_MIN, INT32_MIN, INT64_MIN};
    static const int64_t maxs[] = {INT8_MAX, INT16_MAX, INT32_MAX, INT64_MAX};
    dl_type_id to = c->out->type->id;
    int k = to == DL_VEC_TYPE_BYTE    ? 0
            : to == DL_VEC_TYPE_SHORT ? 1
            : to == DL_VEC_TYPE_INT   ? 2
                                      : 3;
    bool is_legacy = c->mode == DL_SQL_CAST_LEGACY;
    void *data = c->out->data;
    const dl_vec_unified *u = c->src->u;
    for (int64_t i = 0; i < count; i++) {
        if (dl_sql_u_null(u, i)) {
            continue;
        }
        bool is_bad;
        int64_t v = int_value(c->src, i, is_legacy, k == 3, mins[k], maxs[k], &is_bad);
        if (is_bad) {
            DL_TRY(bad(c, i, "CAST_OVERFLOW", err));
            v = 0;
        }
        int64_t row = c->base + i;
        switch (k) {
        case 0:
            ((int8_t *)data)[row] = (int8_t)(uint8_t)(uint64_t)v;
            break;
        case 1:
            ((int16_t *)data)[row] = (int16_t)(uint16_t)(uint64_t)v;
            break;
        case 2:
            ((int32_t *)data)[row] = (int32_t)(uint32_t)(uint64_t)v;
            break;
        default:
            ((int64_t *)data)[row] = v;
            break;
        }
    }
    return DL_OK;
}

/* ---- to floating point and boolean ----------------------------------------------------------- */

static double
double_value(const num_src *s, int64_t i) {
    switch (s->cls) {
    case CLS_DOUBLE:
        return s->f64[i];
    case CLS_DECIMAL:
        return dl_sql_dec_to_double(s->dec[i], s->scale);
    default:
        return s->is_timestamp ? (double)s->i64[i] / 1e6 : (double)s->i64[i];
    }
}

static dl_status
to_floating(const num_ctx *c, int64_t count, dl_error *err) {
    DL_UNUSED(err);
    bool is_float = c->out->type->id == DL_VEC_TYPE_FLOAT;
    void *data = c->out->data;
    const num_src *s = c->src;
    for (int64_t i = 0; i < count; i++) {
        double d;
        if (s->cls == CLS_INT && !s->is_timestamp && is_float) {
            ((float *)data)[c->base + i] = (float)s->i64[i];
            continue;
        }
        d = double_value(s, i);
        if (is_float) {
            ((float *)data)[c->base + i] = (float)d;
        } else {
            ((double *)data)[c->base + i] = d;
        }
    }
    return DL_OK;
}

static dl_status
to_boolean(const num_ctx *c, int64_t count, dl_error *err) {
    DL_UNUSED(err);
    const num_src *s = c->src;
    for (int64_t i = 0; i < count; i++) {
        bool b;
        switch (s->cls) {
        case CLS_DOUBLE:
            b = s->f64[i] != 0;
            break;
        case CLS_DECIMAL:
            b = s->dec[i] != 0;
            break;
        default:
            b = s->i64[i] != 0;
            break;
        }
        dl_vec_bit_put(c->out->data, c->base + i, b);
    }
    return DL_OK;
}

/* ---- to decimal ------------------------------------------------------------------------------ */

static bool
decimal_value(const num_src *s, int64_t i, int precision, int scale, dl_i128 *out) {
    switch (s->cls) {
    case CLS_DOUBLE:
        return dl_sql_dec_from_double(s->f64[i], precision, scale, out);
    case CLS_DECIMAL:
        return dl_sql_dec_rescale(s->dec[i], scale - s->scale, out) &&
               dl_sql_dec_fits(*out, precision);
    default:
        if (s->is_timestamp) {
            return dl_sql_dec_from_double((double)s->i64[i] / 1e6, precision, scale, out);
        }
        return dl_sql_dec_rescale(s->i64[i], scale, out) && dl_sql_dec_fits(*out, precision);
    }
}

/* A value that does not fit the decimal: NaN or an infinity is NULL under ANSI CAST, as Spark's
 * (Decimal(d) throws NumberFormatException, which its cast turns into null); a write into a
 * table (DL_SQL_CAST_STORE) refuses it instead of storing a NULL the user did not write
 * (docs/sql.md, "Differences from Spark"); the rest is an error or NULL as the mode says. */
static dl_status
decimal_misfit(const num_ctx *c, int64_t i, dl_error *err) {
    bool is_nan = c->src->cls == CLS_DOUBLE && !isfinite(c->src->f64[i]);
    if (is_nan && c->mode == DL_SQL_CAST_ANSI) {
        return dl_sql_out_set_null(c->out, c->base + i, err);
    }
    return bad(c, i, is_nan ? "CAST_INVALID_INPUT" : "NUMERIC_VALUE_OUT_OF_RANGE", err);
}

static dl_status
to_decimal(const num_ctx *c, int64_t count, dl_error *err) {
    const dl_type *t = c->out->type;
    dl_i128 *data = c->out->data;
    const dl_vec_unified *u = c->src->u;
    for (int64_t i = 0; i < count; i++) {
        dl_i128 v = 0;
        if (!dl_sql_u_null(u, i) && !decimal_value(c->src, i, t->precision, t->scale, &v)) {
            DL_TRY(decimal_misfit(c, i, err));
            v = 0;
        }
        data[c->base + i] = v;
    }
    return DL_OK;
}

/* ---- to timestamp ---------------------------------------------------------------------------- */

static bool
timestamp_value(const num_src *s, int64_t i, bool is_legacy, int64_t *out) {
    switch (s->cls) {
    case CLS_DOUBLE: {
        double d = s->f64[i];
        if (!isfinite(d)) {
            return false;
        }
        double us = d * 1e6;
        if (!is_legacy && (us >= 9223372036854775808.0 || us < -9223372036854775808.0)) {
            return false;
        }
        *out = java_double_to_long(us, INT64_MIN, INT64_MAX);
        return true;
    }
    case CLS_DECIMAL: {
        dl_i128 us;
        if (!dl_sql_dec_rescale(s->dec[i], 6, &us)) {
            return false;
        }
        us = dl_sql_dec_round(us, s->scale, DL_SQL_ROUND_DOWN);
        if (!is_legacy && (us > INT64_MAX || us < INT64_MIN)) {
            return false;
        }
        *out = (int64_t)(uint64_t)(dl_u128)us;
        return true;
    }
    default:
        if (DL_MUL_OVERFLOW(s->i64[i], DL_MICROS_PER_SECOND, out)) {
            if (!is_legacy) {
                return false;
            }
            *out = s->i64[i] < 0 ? INT64_MIN : INT64_MAX;
        }
        return true;
    }
}

static dl_status
to_timestamp(const num_ctx *c, int64_t count, bool is_bool, dl_error *err) {
    int64_t *data = c->out->data;
    const dl_vec_unified *u = c->src->u;
    bool is_legacy = c->mode == DL_SQL_CAST_LEGACY;
    for (int64_t i = 0; i < count; i++) {
        int64_t v = 0;
        if (dl_sql_u_null(u, i)) {
            data[c->base + i] = 0;
            continue;
        }
        if (is_bool) {
            v = c->src->i64[i];
        } else if (!timestamp_value(c->src, i, is_legacy, &v)) {
            DL_TRY(bad(c, i, "CAST_OVERFLOW", err));
            v = 0;
        }
        data[c->base + i] = v;
    }
    return DL_OK;
}

/* ---- entry ----------------------------------------------------------------------------------- */

static dl_status
date_to_number(dl_sql_cast_mode mode, const dl_vector *src, int64_t count, dl_vector *out,
               int64_t base, dl_error *err) {
    char name[64];
    DL_CHECK(mode == DL_SQL_CAST_LEGACY, err, DL_ERR_SQL_BIND,
             "cannot cast date to %s: date is not a number in ANSI mode",
             dl_sql_type_name(out->type, name, sizeof(name)));
    DL_UNUSED(src);
    for (int64_t i = 0; i < count; i++) {
        DL_TRY(dl_sql_out_set_null(out, base + i, err));
    }
    dl_vec_set_length(out, base + count);
    return DL_OK;
}

dl_status
dl_sql_cast_numeric(const dl_sql_fn_env *env, dl_sql_cast_mode mode, const dl_vector *src,
                    int64_t count, dl_vector *out, dl_error *err) {
    DL_UNUSED(env);
    int64_t base = out->length;
    DL_TRY(dl_sql_out_reserve(out, count, err));
    if (src->type->id == DL_VEC_TYPE_DATE) {
        return date_to_number(mode, src, count, out, base, err);
    }
    dl_vec_unified u;
    dl_vec_unify(src, count, &u);
    DL_TRY(dl_sql_out_nulls(out, base, &u, 1, count, err));
    num_src *s = dl_mem_alloc(env != NULL ? env->alloc : NULL, sizeof(*s));
    DL_CHECK(s != NULL, err, DL_ERR_NOMEM, "out of memory casting %lld values", (long long)count);
    s->u = &u;
    load(s, src->type, count);
    num_ctx c = {.env = env, .mode = mode, .from = src->type, .out = out, .base = base, .src = s};
    dl_status st;
    switch (out->type->id) {
    case DL_VEC_TYPE_BOOLEAN:
        st = to_boolean(&c, count, err);
        break;
    case DL_VEC_TYPE_FLOAT:
    case DL_VEC_TYPE_DOUBLE:
        st = to_floating(&c, count, err);
        break;
    case DL_VEC_TYPE_DECIMAL:
        st = to_decimal(&c, count, err);
        break;
    case DL_VEC_TYPE_TIMESTAMP:
        st = to_timestamp(&c, count, src->type->id == DL_VEC_TYPE_BOOLEAN, err);
        break;
    default:
        st = to_integer(&c, count, err);
        break;
    }
    dl_mem_free(env != NULL ? env->alloc : NULL, s, sizeof(*s));
    if (st == DL_OK) {
        dl_vec_set_length(out, base + count);
    }
    return st;
}
