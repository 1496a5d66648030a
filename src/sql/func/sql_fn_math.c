/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Math functions: round (HALF_UP), bround (HALF_EVEN), ceil/ceiling, floor, sign/signum, sqrt,
 * cbrt, exp, expm1, ln, log, log10, log2, log1p, the trigonometric and hyperbolic functions,
 * degrees, radians, isnan, pow/power, atan2, hypot, nanvl, pi, e, rand/random, randn.
 *
 * Types (Spark's):
 *   round/bround(x [, d])  the type of x; a decimal(p, s) becomes decimal(p - s + 1 + min(s, d),
 *                          min(s, d)) (or decimal(max(p - s + 1, 1 - d), 0) for d < 0); d must
 *                          be a constant. Doubles round their shortest decimal text (Spark's
 *                          BigDecimal(d).setScale), so round(1.005, 2) is 1.01
 *   ceil/floor(x)          bigint, or decimal(p - s + 1, 0) for decimals (a decimal(p, 0) stays
 *                          itself); with a scale, as round
 *   everything else        double (integers, decimals and strings are cast to double)
 * ln, log10, log2 and log are NULL for arguments <= 0 (and log1p for <= -1), as Spark returns;
 * sqrt of a negative number is NaN. isnan(NULL) is false.
 *
 * rand and randn draw from a xorshift64* generator kept per call instance (dl_sql_fn_call.state):
 * seeded from the argument, or from the clock and a process counter. Their values differ from
 * Spark's (which seeds XORShiftRandom with seed + partition index).
 */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sql/func/sql_fn_int.h"

#define PI_VALUE 3.14159265358979323846
#define E_VALUE  2.71828182845904523536

static const dl_type *
t_double(void) {
    return dl_sql_t(DL_VEC_TYPE_DOUBLE);
}

/* ---- rounding -------------------------------------------------------------------------------- */

typedef struct round_bind {
    dl_sql_scalar_fn fn;
    dl_sql_round_mode mode;
    int scale;     /* digits after the point; negative rounds to tens, hundreds, ... */
    int out_scale; /* decimals: the result's scale */
} round_bind;

/* d rounded at scale decimals the way BigDecimal(Double.toString(d)).setScale(scale, mode)
 * does, back to double. */
static double
round_double(double d, int scale, dl_sql_round_mode mode) {
    if (!isfinite(d)) {
        return d;
    }
    if (d == 0) {
        return 0.0; /* Spark rounds through BigDecimal, which has no -0.0 */
    }
    char digits[32];
    int exp;
    int n = dl_sql_double_digits(fabs(d), false, digits, &exp);
    int keep = exp + 1 + scale;
    if (keep >= n) {
        return d;
    }
    /* The kept digits as an integer, rounded by the dropped ones. */
    dl_i128 v = 0;
    for (int k = 0; k < n; k++) {
        v = v * 10 + (digits[k] - '0');
    }
    v = d < 0 ? -v : v;
    dl_i128 r = dl_sql_dec_round(v, n - keep, mode);
    if (r == 0) {
        return 0.0;
    }
    char text[64];
    (void)snprintf(text, sizeof(text), "%lldE%d", (long long)r, exp - keep + 1);
    return strtod(text, NULL);
}

static int64_t
pow10_i64(int n) {
    return n > 18 ? 0 : (int64_t)dl_sql_pow10(n);
}

/* An integer rounded at a negative scale (to tens, hundreds, ...), before narrowing. */
static dl_i128
round_int(int64_t v, int scale, dl_sql_round_mode mode) {
    if (scale >= 0) {
        return v;
    }
    if (-scale > 18) {
        return 0;
    }
    dl_i128 r = dl_sql_dec_round(v, -scale, mode);
    return r * pow10_i64(-scale);
}

/* The rounded integer r in the bits of its type: wrapped as Java's intValue (legacy), or
 * ARITHMETIC_OVERFLOW when it does not fit and exact (ANSI mode, Spark's toIntExact). */
static dl_status
narrow_int(bool exact, dl_i128 r, int bits, int64_t *out, dl_error *err) {
    dl_i128 lim = (dl_i128)1 << (bits - 1);
    if (exact && (r < -lim || r >= lim)) {
        return dl_sql_fail_overflow(err,
                                    bits == 64   ? "long"
                                    : bits == 32 ? "integer"
                                    : bits == 16 ? "smallint"
                                                 : "tinyint",
                                    NULL);
    }
    *out = (int64_t)r;
    return DL_OK;
}

static dl_status
k_round(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
        dl_error *err) {
    const round_bind *bd = call->bind_data;
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(dl_sql_out_nulls(out, 0, &u, 1, count, err));
    const dl_type *in = args[0]->type;
    for (int64_t i = 0; i < count; i++) {
        int64_t n = 0;
        bool exact = call->env != NULL && call->env->ansi && !dl_sql_u_null(&u, i);
        switch (out->type->id) {
        case DL_VEC_TYPE_DOUBLE:
            ((double *)out->data)[i] = round_double(DL_SQL_U(&u, double, i), bd->scale, bd->mode);
            break;
        case DL_VEC_TYPE_FLOAT:
            ((float *)out->data)[i] =
                (float)round_double((double)DL_SQL_U(&u, float, i), bd->scale, bd->mode);
            break;
        case DL_VEC_TYPE_DECIMAL: {
            dl_i128 v = DL_SQL_U(&u, dl_i128, i);
            int drop = in->scale - bd->scale;
            dl_i128 r = dl_sql_dec_round(v, drop, bd->mode);
            if (bd->scale < 0) {
                r *= dl_sql_pow10(DL_MIN(-bd->scale, DL_SQL_DEC_MAX));
            }
            ((dl_i128 *)out->data)[i] = r;
            break;
        }
        case DL_VEC_TYPE_LONG:
            DL_TRY(narrow_int(exact, round_int(DL_SQL_U(&u, int64_t, i), bd->scale, bd->mode), 64,
                              &((int64_t *)out->data)[i], err));
            break;
        case DL_VEC_TYPE_INT:
            DL_TRY(narrow_int(exact, round_int(DL_SQL_U(&u, int32_t, i), bd->scale, bd->mode), 32,
                              &n, err));
            ((int32_t *)out->data)[i] = (int32_t)n;
            break;
        case DL_VEC_TYPE_SHORT:
            DL_TRY(narrow_int(exact, round_int(DL_SQL_U(&u, int16_t, i), bd->scale, bd->mode), 16,
                              &n, err));
            ((int16_t *)out->data)[i] = (int16_t)n;
            break;
        default:
            DL_TRY(narrow_int(exact,
                              round_int(dl_sql_i8(DL_SQL_U(&u, int8_t, i)), bd->scale, bd->mode), 8,
                              &n, err));
            ((int8_t *)out->data)[i] = (int8_t)n;
            break;
        }
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

/* ceil/floor without a scale: doubles to bigint. */
static dl_status
k_ceil_double(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
              dl_error *err) {
    const round_bind *bd = call->bind_data;
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(dl_sql_out_nulls(out, 0, &u, 1, count, err));
    int64_t *r = out->data;
    for (int64_t i = 0; i < count; i++) {
        double d = DL_SQL_U(&u, double, i);
        d = bd->mode == DL_SQL_ROUND_CEILING ? ceil(d) : floor(d);
        r[i] = isnan(d)                      ? 0
               : d >= 9223372036854775807.0  ? INT64_MAX
               : d <= -9223372036854775808.0 ? INT64_MIN
                                             : (int64_t)d;
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

static dl_status
bind_decimal_round(dl_sql_fn_bind *b, round_bind *bd, dl_error *err) {
    const dl_type *t = b->arg_types[0];
    int p = t->precision;
    int s = t->scale;
    int least_int = p - s + 1;
    if (bd->scale < 0) {
        return dl_sql_decimal_type(b->arena, DL_MAX(least_int, -bd->scale + 1), 0, &b->ret_type,
                                   err);
    }
    int ns = DL_MIN(s, bd->scale);
    bd->scale = ns;
    return dl_sql_decimal_type(b->arena, least_int + ns, ns, &b->ret_type, err);
}

dl_status
dl_sql_bind_round(dl_sql_fn_bind *b, dl_error *err) {
    static const char *const names[] = {"round", "bround", "ceil", "ceiling", "floor"};
    static const dl_sql_round_mode modes[] = {DL_SQL_ROUND_HALF_UP, DL_SQL_ROUND_HALF_EVEN,
                                              DL_SQL_ROUND_CEILING, DL_SQL_ROUND_CEILING,
                                              DL_SQL_ROUND_FLOOR};
    int k = dl_sql_name_index(b->name, names, (int)DL_ARRAY_LEN(names));
    round_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    bd->mode = modes[k < 0 ? 0 : k];
    bd->fn = k_round;
    b->bind_data = bd;
    int64_t scale = 0;
    if (b->n_args > 1 && !dl_sql_bind_const_i64(b, 1, &scale)) {
        return dl_sql_bind_fail(b, err, "the scale (argument 2) must be a constant integer");
    }
    DL_CHECK(scale >= -38 && scale <= 38, err, DL_ERR_SQL_BIND, "%s: scale %lld is out of range",
             b->name, (long long)scale);
    bd->scale = (int)scale;
    const dl_type *t = b->arg_types[0];
    if (t->id == DL_VEC_TYPE_STRING || t->id == DL_VEC_TYPE_NULL) {
        t = t_double();
        dl_sql_bind_cast(b, 0, t);
    }
    if (!dl_sql_is_numeric(t)) {
        return dl_sql_bind_arg_fail(b, 0, "numeric", err);
    }
    bool is_ceil_floor = k >= 2;
    if (t->id == DL_VEC_TYPE_DECIMAL && is_ceil_floor && b->n_args == 1 && t->scale == 0) {
        b->ret_type = t; /* Spark's Floor/Ceil keep a decimal(p, 0) as it is */
        return DL_OK;
    }
    if (t->id == DL_VEC_TYPE_DECIMAL) {
        return bind_decimal_round(b, bd, err);
    }
    if (is_ceil_floor && b->n_args == 1) {
        if (dl_sql_is_integral(t)) {
            dl_sql_bind_cast(b, 0, dl_sql_t(DL_VEC_TYPE_LONG));
            bd->scale = 0;
        } else {
            dl_sql_bind_cast(b, 0, t_double());
            bd->fn = k_ceil_double;
        }
        b->ret_type = dl_sql_t(DL_VEC_TYPE_LONG);
        return DL_OK;
    }
    b->ret_type = t;
    return DL_OK;
}

/* ---- one-argument functions ------------------------------------------------------------------ */

typedef enum math1_op {
    M_SIGN,
    M_SQRT,
    M_CBRT,
    M_EXP,
    M_EXPM1,
    M_LN,
    M_LOG10,
    M_LOG2,
    M_LOG1P,
    M_SIN,
    M_COS,
    M_TAN,
    M_ASIN,
    M_ACOS,
    M_ATAN,
    M_SINH,
    M_COSH,
    M_TANH,
    M_DEGREES,
    M_RADIANS,
    M_ISNAN,
} math1_op;

static const char *const math1_names[] = {"sign", "signum",  "sqrt",    "cbrt",  "exp",  "expm1",
                                          "ln",   "log10",   "log2",    "log1p", "sin",  "cos",
                                          "tan",  "asin",    "acos",    "atan",  "sinh", "cosh",
                                          "tanh", "degrees", "radians", "isnan"};
static const math1_op math1_ops[] = {M_SIGN, M_SIGN,    M_SQRT,    M_CBRT,  M_EXP,  M_EXPM1,
                                     M_LN,   M_LOG10,   M_LOG2,    M_LOG1P, M_SIN,  M_COS,
                                     M_TAN,  M_ASIN,    M_ACOS,    M_ATAN,  M_SINH, M_COSH,
                                     M_TANH, M_DEGREES, M_RADIANS, M_ISNAN};

typedef struct math1_bind {
    math1_op op;
} math1_bind;

/* The value, and whether Spark returns NULL for it. */
static double
math1(math1_op op, double x, bool *out_null) {
    *out_null = false;
    switch (op) {
    case M_SIGN:
        return x > 0 ? 1.0 : x < 0 ? -1.0 : x;
    case M_SQRT:
        return sqrt(x);
    case M_CBRT:
        return cbrt(x);
    case M_EXP:
        return exp(x);
    case M_EXPM1:
        return expm1(x);
    case M_LN:
    case M_LOG10:
    case M_LOG2:
        *out_null = x <= 0;
        return op == M_LN ? log(x) : op == M_LOG10 ? log10(x) : log2(x);
    case M_LOG1P:
        *out_null = x <= -1;
        return log1p(x);
    case M_SIN:
        return sin(x);
    case M_COS:
        return cos(x);
    case M_TAN:
        return tan(x);
    case M_ASIN:
        return asin(x);
    case M_ACOS:
        return acos(x);
    case M_ATAN:
        return atan(x);
    case M_SINH:
        return sinh(x);
    case M_COSH:
        return cosh(x);
    case M_TANH:
        return tanh(x);
    case M_DEGREES:
        return x * (180.0 / PI_VALUE);
    default:
        return x * (PI_VALUE / 180.0);
    }
}

dl_status
dl_sql_bind_math1(dl_sql_fn_bind *b, dl_error *err) {
    int k = dl_sql_name_index(b->name, math1_names, (int)DL_ARRAY_LEN(math1_names));
    math1_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    bd->op = math1_ops[k < 0 ? 0 : k];
    b->bind_data = bd;
    DL_TRY(dl_sql_bind_expect(b, 0, t_double(), "numeric", err));
    b->ret_type = bd->op == M_ISNAN ? dl_sql_t(DL_VEC_TYPE_BOOLEAN) : t_double();
    return DL_OK;
}

dl_status
dl_sql_fn_math1(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                dl_error *err) {
    const math1_bind *bd = call->bind_data;
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    if (bd->op == M_ISNAN) {
        for (int64_t i = 0; i < count; i++) {
            dl_vec_bit_put(out->data, i, !dl_sql_u_null(&u, i) && isnan(DL_SQL_U(&u, double, i)));
        }
        dl_vec_set_length(out, count);
        return DL_OK;
    }
    DL_TRY(dl_sql_out_nulls(out, 0, &u, 1, count, err));
    double *r = out->data;
    for (int64_t i = 0; i < count; i++) {
        bool is_null;
        r[i] = math1(bd->op, DL_SQL_U(&u, double, i), &is_null);
        if (is_null) {
            DL_TRY(dl_sql_out_set_null(out, i, err));
        }
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

/* ---- two-argument functions ------------------------------------------------------------------ */

typedef enum math2_op {
    M2_LOG,
    M2_POW,
    M2_ATAN2,
    M2_HYPOT,
    M2_NANVL,
} math2_op;

typedef struct math2_bind {
    math2_op op;
} math2_bind;

dl_status
dl_sql_bind_math2(dl_sql_fn_bind *b, dl_error *err) {
    static const char *const names[] = {"log", "pow", "power", "atan2", "hypot", "nanvl"};
    static const math2_op ops[] = {M2_LOG, M2_POW, M2_POW, M2_ATAN2, M2_HYPOT, M2_NANVL};
    int k = dl_sql_name_index(b->name, names, (int)DL_ARRAY_LEN(names));
    math2_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    bd->op = ops[k < 0 ? 0 : k];
    b->bind_data = bd;
    DL_TRY(dl_sql_bind_expect_range(b, 0, b->n_args, t_double(), "numeric", err));
    b->ret_type = t_double();
    return DL_OK;
}

dl_status
dl_sql_fn_math2(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                dl_error *err) {
    const math2_bind *bd = call->bind_data;
    int32_t n = call->n_args;
    dl_vec_unified u[2];
    dl_sql_unify_args(args, n, count, u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(dl_sql_out_nulls(out, 0, u, n, count, err));
    double *r = out->data;
    for (int64_t i = 0; i < count; i++) {
        double a = DL_SQL_U(&u[0], double, i);
        double c = n > 1 ? DL_SQL_U(&u[1], double, i) : 0;
        bool is_null = false;
        switch (bd->op) {
        case M2_LOG:
            if (n == 1) {
                is_null = a <= 0;
                r[i] = log(a);
            } else {
                is_null = a <= 0 || c <= 0;
                r[i] = log(c) / log(a);
            }
            break;
        case M2_POW:
            r[i] = pow(a, c);
            break;
        case M2_ATAN2:
            r[i] = atan2(a, c);
            break;
        case M2_HYPOT:
            r[i] = hypot(a, c);
            break;
        default:
            r[i] = isnan(a) ? c : a;
            break;
        }
        if (is_null) {
            DL_TRY(dl_sql_out_set_null(out, i, err));
        }
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

/* ---- pi, e ----------------------------------------------------------------------------------- */

dl_status
dl_sql_bind_const_math(dl_sql_fn_bind *b, dl_error *err) {
    DL_UNUSED(err);
    b->ret_type = t_double();
    return DL_OK;
}

dl_status
dl_sql_fn_const_math(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                     dl_error *err) {
    DL_UNUSED(args);
    double v = strcmp(call->def->name, "pi") == 0 ? PI_VALUE : E_VALUE;
    DL_TRY(dl_vec_append_f64(out, v, err));
    if (count != 1) {
        dl_vec_make_const(out, count);
    }
    return DL_OK;
}

/* ---- rand, randn ----------------------------------------------------------------------------- */

typedef struct rand_state {
    uint64_t s;
    bool has_spare;
    double spare;
} rand_state;

static _Atomic(uint64_t) rand_instances;

static uint64_t
next_u64(rand_state *st) {
    st->s ^= st->s >> 12;
    st->s ^= st->s << 25;
    st->s ^= st->s >> 27;
    return st->s * 0x2545F4914F6CDD1DULL;
}

static double
next_double(rand_state *st) {
    return (double)(next_u64(st) >> 11) * (1.0 / 9007199254740992.0);
}

static double
next_gaussian(rand_state *st) {
    if (st->has_spare) {
        st->has_spare = false;
        return st->spare;
    }
    double u;
    double v;
    double s;
    do {
        u = next_double(st) * 2 - 1;
        v = next_double(st) * 2 - 1;
        s = u * u + v * v;
    } while (s >= 1 || s == 0);
    double m = sqrt(-2.0 * log(s) / s);
    st->spare = v * m;
    st->has_spare = true;
    return u * m;
}

dl_status
dl_sql_bind_rand(dl_sql_fn_bind *b, dl_error *err) {
    if (b->n_args > 0) {
        int64_t seed;
        if (b->arg_types[0]->id != DL_VEC_TYPE_NULL && !dl_sql_bind_const_i64(b, 0, &seed)) {
            return dl_sql_bind_fail(b, err, "the seed must be a constant integer");
        }
    }
    b->ret_type = t_double();
    return DL_OK;
}

dl_status
dl_sql_fn_rand(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
               dl_error *err) {
    rand_state *st = call->state;
    if (st == NULL) {
        st = dl_mem_alloc_zero(call->env != NULL ? call->env->alloc : NULL, sizeof(*st));
        DL_CHECK(st != NULL, err, DL_ERR_NOMEM, "%s: out of memory", call->def->name);
        uint64_t seed;
        if (call->n_args > 0 && !dl_vec_is_null(args[0], 0)) {
            const dl_vector *flat;
            int64_t idx = dl_vec_resolve(args[0], 0, &flat);
            seed = flat->type->id == DL_VEC_TYPE_LONG
                       ? (uint64_t)((const int64_t *)flat->data)[idx]
                       : (uint64_t)((const int32_t *)flat->data)[idx];
        } else {
            struct timespec ts;
            (void)clock_gettime(CLOCK_REALTIME, &ts);
            seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^
                   dl_hash_u64(atomic_fetch_add(&rand_instances, 1) + 1);
        }
        st->s = dl_hash_u64(seed ^ 0x9E3779B97F4A7C15ULL) | 1;
        call->state = st;
    }
    bool gaussian = strcmp(call->def->name, "randn") == 0;
    DL_TRY(dl_sql_out_reserve(out, count, err));
    double *r = out->data;
    for (int64_t i = 0; i < count; i++) {
        r[i] = gaussian ? next_gaussian(st) : next_double(st);
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

void
dl_sql_free_rand(dl_sql_fn_call *call) {
    dl_mem_free(call->env != NULL ? call->env->alloc : NULL, call->state, sizeof(rand_state));
    call->state = NULL;
}
