/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Aggregates over numbers and booleans: count, count_if, sum, try_sum, avg/mean, try_avg,
 * bool_and/every, bool_or/some/any, and stddev/std/stddev_samp, stddev_pop, variance/var_samp,
 * var_pop. DISTINCT and FILTER are the executor's; these see the rows to fold.
 *
 * Types (Spark's): count is bigint; sum of integers is bigint, of floats double, of
 * decimal(p, s) decimal(min(38, p + 10), s), of an interval the interval; avg is double, or
 * decimal(min(38, p + 4), min(38, s + 4)) for decimals (computed as Spark's Divide of the
 * decimal sum by the count, then cast: the quotient's scale follows the division rules and is
 * rounded HALF_UP twice when the two scales differ, as in Spark); the statistics are double.
 *
 * Overflow: integer sums are exact in 128 bits and checked at the end: beyond bigint they wrap
 * like Java's long in legacy mode and fail in ANSI mode; a decimal sum that needs more than its
 * result precision is NULL in legacy mode and an error in ANSI mode; try_sum and try_avg give
 * NULL for both.
 *
 * Statistics use Welford's update and Chan's merge of (n, mean, M2); with one row the sample
 * statistics are NULL (Spark 3's default, spark.sql.legacy.statisticalAggregate false).
 *
 * Every update dispatches on the input type once per batch; when all rows of the batch fold
 * into one state (no GROUP BY) the loop accumulates in registers and touches the state once.
 */
#include <math.h>
#include <string.h>

#include "sql/func/sql_fn_int.h"

static bool
one_state(void *const *states, int64_t count) {
    for (int64_t i = 1; i < count; i++) {
        if (states[i] != states[0]) {
            return false;
        }
    }
    return true;
}

/* ---- count, count_if ------------------------------------------------------------------------- */

typedef struct count_state {
    int64_t n;
} count_state;

_Static_assert(sizeof(count_state) <= 8, "count's state is 8 bytes in sql_functions.def");

dl_status
dl_sql_bind_count(dl_sql_fn_bind *b, dl_error *err) {
    if (strcmp(b->name, "count_if") == 0) {
        DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_BOOLEAN), "a boolean", err));
    }
    b->ret_type = dl_sql_t(DL_VEC_TYPE_LONG);
    return DL_OK;
}

void
dl_sql_agg_count_init(const dl_sql_fn_call *call, void *state) {
    DL_UNUSED(call);
    ((count_state *)state)->n = 0;
}

dl_status
dl_sql_agg_count_update(dl_sql_fn_call *call, dl_vector *const *args, int64_t count,
                        void *const *states, dl_error *err) {
    DL_UNUSED(err);
    int32_t n = call->n_args;
    bool is_if = strcmp(call->def->name, "count_if") == 0;
    dl_vec_unified u[4];
    int32_t nu = DL_MIN(n, 4);
    dl_sql_unify_args(args, nu, count, u);
    bool any_null = dl_sql_any_null(u, nu);
    if (!is_if && !any_null && n <= 4) {
        if (one_state(states, count) && count > 0) {
            ((count_state *)states[0])->n += count;
            return DL_OK;
        }
        for (int64_t i = 0; i < count; i++) {
            ((count_state *)states[i])->n++;
        }
        return DL_OK;
    }
    for (int64_t i = 0; i < count; i++) {
        bool counts = true;
        for (int32_t k = 0; k < n && counts; k++) {
            counts = k < 4 ? !dl_sql_u_null(&u[k], i) : !dl_vec_is_null(args[k], i);
        }
        if (counts && is_if) {
            counts = dl_vec_get_bool(u[0].flat, u[0].sel[i]);
        }
        ((count_state *)states[i])->n += counts;
    }
    return DL_OK;
}

dl_status
dl_sql_agg_count_combine(dl_sql_fn_call *call, const void *src, void *dst, dl_error *err) {
    DL_UNUSED(call);
    DL_UNUSED(err);
    ((count_state *)dst)->n += ((const count_state *)src)->n;
    return DL_OK;
}

dl_status
dl_sql_agg_count_finalize(dl_sql_fn_call *call, void *const *states, int64_t count, dl_vector *out,
                          dl_error *err) {
    DL_UNUSED(call);
    for (int64_t i = 0; i < count; i++) {
        DL_TRY(dl_vec_append_i64(out, ((const count_state *)states[i])->n, err));
    }
    return DL_OK;
}

/* ---- sum, avg -------------------------------------------------------------------------------- */

typedef enum sum_kind {
    SK_INT, /* exact in 128 bits */
    SK_DOUBLE,
    SK_DECIMAL, /* exact in 128 bits, with an overflow flag */
} sum_kind;

typedef struct sum_state {
    union {
        dl_i128 isum; /* SK_INT, SK_DECIMAL */
        double dsum;  /* SK_DOUBLE */
    };

    int64_t n;
    bool overflow;
} sum_state;

_Static_assert(sizeof(sum_state) <= 32, "sum's state is 32 bytes in sql_functions.def");

typedef struct sum_bind {
    sum_kind kind;
    bool is_avg;
    bool is_try;
    int in_scale;  /* decimal input scale */
    int sum_prec;  /* decimal sum precision (p + 10, capped) */
    int div_scale; /* avg of decimals: the scale of Spark's intermediate quotient */
} sum_bind;

dl_status
dl_sql_bind_sum(dl_sql_fn_bind *b, dl_error *err) {
    sum_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    b->bind_data = bd;
    const char *name = b->name;
    bd->is_avg = strstr(name, "avg") != NULL || strcmp(name, "mean") == 0;
    bd->is_try = strncmp(name, "try_", 4) == 0;
    const dl_type *t = b->arg_types[0];
    if (t->id == DL_VEC_TYPE_STRING || t->id == DL_VEC_TYPE_NULL) {
        t = dl_sql_t(DL_VEC_TYPE_DOUBLE);
        dl_sql_bind_cast(b, 0, t);
    }
    if (dl_sql_is_integral(t) || dl_sql_is_interval(t)) {
        bd->kind = SK_INT;
        b->ret_type = dl_sql_is_interval(t) ? t
                      : bd->is_avg          ? dl_sql_t(DL_VEC_TYPE_DOUBLE)
                                            : dl_sql_t(DL_VEC_TYPE_LONG);
        return DL_OK;
    }
    if (dl_sql_is_floating(t)) {
        bd->kind = SK_DOUBLE;
        b->ret_type = dl_sql_t(DL_VEC_TYPE_DOUBLE);
        return DL_OK;
    }
    if (t->id != DL_VEC_TYPE_DECIMAL) {
        return dl_sql_bind_arg_fail(b, 0, "numeric or an interval", err);
    }
    bd->kind = SK_DECIMAL;
    bd->in_scale = t->scale;
    bd->sum_prec = DL_MIN(DL_SQL_DEC_MAX, t->precision + 10);
    if (!bd->is_avg) {
        return dl_sql_decimal_type(b->arena, bd->sum_prec, t->scale, &b->ret_type, err);
    }
    const dl_type *div;
    int scale = DL_MAX(6, t->scale + 21);
    DL_TRY(dl_sql_decimal_adjusted(b->arena, bd->sum_prec - t->scale + scale, scale, &div, err));
    bd->div_scale = div->scale;
    return dl_sql_decimal_type(b->arena, t->precision + 4, t->scale + 4, &b->ret_type, err);
}

void
dl_sql_agg_sum_init(const dl_sql_fn_call *call, void *state) {
    DL_UNUSED(call);
    memset(state, 0, sizeof(sum_state));
}

static int64_t
int_at(const dl_vec_unified *u, dl_type_id id, int64_t i) {
    switch (id) {
    case DL_VEC_TYPE_BYTE:
        return dl_sql_i8(DL_SQL_U(u, int8_t, i));
    case DL_VEC_TYPE_SHORT:
        return DL_SQL_U(u, int16_t, i);
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_INTERVAL_YM:
        return DL_SQL_U(u, int32_t, i);
    default:
        return DL_SQL_U(u, int64_t, i);
    }
}

/* One state for the whole batch, integers without nulls: the common ungrouped case. */
static void
sum_ints_single(const dl_vec_unified *u, dl_type_id id, int64_t count, sum_state *s) {
    dl_i128 acc = 0;
    if (id == DL_VEC_TYPE_INT && u->validity == NULL) {
        const int32_t *x = u->data;
        for (int64_t i = 0; i < count; i++) {
            acc += x[u->sel[i]];
        }
    } else if (id == DL_VEC_TYPE_LONG && u->validity == NULL) {
        const int64_t *x = u->data;
        for (int64_t i = 0; i < count; i++) {
            acc += x[u->sel[i]];
        }
    } else {
        for (int64_t i = 0; i < count; i++) {
            if (!dl_sql_u_null(u, i)) {
                acc += int_at(u, id, i);
                s->n++;
            }
        }
        s->isum += acc;
        return;
    }
    s->isum += acc;
    s->n += count;
}

static void
sum_doubles_single(const dl_vec_unified *u, dl_type_id id, int64_t count, sum_state *s) {
    double acc = 0;
    int64_t n = 0;
    for (int64_t i = 0; i < count; i++) {
        if (dl_sql_u_null(u, i)) {
            continue;
        }
        acc += id == DL_VEC_TYPE_FLOAT ? (double)DL_SQL_U(u, float, i) : DL_SQL_U(u, double, i);
        n++;
    }
    s->dsum += acc;
    s->n += n;
}

static void
sum_one(const sum_bind *bd, const dl_vec_unified *u, dl_type_id id, int64_t i, sum_state *s) {
    switch (bd->kind) {
    case SK_INT:
        s->isum += int_at(u, id, i);
        break;
    case SK_DOUBLE:
        s->dsum += id == DL_VEC_TYPE_FLOAT ? (double)DL_SQL_U(u, float, i) : DL_SQL_U(u, double, i);
        break;
    default:
        s->overflow = s->overflow || DL_ADD_OVERFLOW(s->isum, DL_SQL_U(u, dl_i128, i), &s->isum);
        break;
    }
    s->n++;
}

dl_status
dl_sql_agg_sum_update(dl_sql_fn_call *call, dl_vector *const *args, int64_t count,
                      void *const *states, dl_error *err) {
    DL_UNUSED(err);
    const sum_bind *bd = call->bind_data;
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    dl_type_id id = args[0]->type->id;
    if (count > 0 && one_state(states, count) && bd->kind != SK_DECIMAL) {
        if (bd->kind == SK_INT) {
            sum_ints_single(&u, id, count, states[0]);
        } else {
            sum_doubles_single(&u, id, count, states[0]);
        }
        return DL_OK;
    }
    for (int64_t i = 0; i < count; i++) {
        if (!dl_sql_u_null(&u, i)) {
            sum_one(bd, &u, id, i, states[i]);
        }
    }
    return DL_OK;
}

dl_status
dl_sql_agg_sum_combine(dl_sql_fn_call *call, const void *src, void *dst, dl_error *err) {
    DL_UNUSED(err);
    const sum_bind *bd = call->bind_data;
    const sum_state *a = src;
    sum_state *b = dst;
    if (bd->kind == SK_DOUBLE) {
        b->dsum += a->dsum;
    } else {
        b->overflow = b->overflow || a->overflow || DL_ADD_OVERFLOW(b->isum, a->isum, &b->isum);
    }
    b->n += a->n;
    return DL_OK;
}

static dl_status
sum_overflow(const dl_sql_fn_call *call, const sum_bind *bd, dl_vector *out, bool *out_null,
             dl_error *err) {
    DL_UNUSED(out);
    bool ansi = call->env != NULL && call->env->ansi;
    if (bd->is_try || (!ansi && bd->kind == SK_DECIMAL)) {
        *out_null = true;
        return DL_OK;
    }
    if (!ansi) {
        return DL_OK; /* integers wrap like Java's long */
    }
    if (bd->kind == SK_DECIMAL) {
        /* Spark 4.2 (sum and avg, grouped or not) */
        bool is_avg = strstr(call->def->name, "avg") != NULL;
        return dl_sql_fail_run(err,
                               is_avg ? "use try_avg to tolerate overflow and return NULL instead"
                                      : "use try_sum to tolerate overflow and return NULL instead",
                               "[ARITHMETIC_OVERFLOW] Overflow in sum of decimals (%s: the sum "
                               "does not fit decimal(%d,%d))",
                               call->def->name, bd->sum_prec, bd->in_scale);
    }
    return dl_sql_fail_overflow(err, "long", "try_sum");
}

static dl_status
finalize_int(const dl_sql_fn_call *call, const sum_bind *bd, const sum_state *s, dl_vector *out,
             dl_error *err) {
    if (bd->is_avg && out->type->id == DL_VEC_TYPE_DOUBLE) {
        return dl_vec_append_f64(out, (double)s->isum / (double)s->n, err);
    }
    dl_i128 v = s->isum;
    if (bd->is_avg) {
        /* The average of an interval, rounded HALF_UP (Spark's DivideDTInterval). */
        dl_i128 r = v % s->n;
        v /= s->n;
        dl_u128 twice = (dl_u128)(r < 0 ? -r : r) * 2;
        if (twice >= (dl_u128)s->n) {
            v += r < 0 ? -1 : 1;
        }
    }
    bool is_null = false;
    bool is_i32 = out->type->id == DL_VEC_TYPE_INTERVAL_YM;
    dl_i128 lo = is_i32 ? INT32_MIN : INT64_MIN;
    dl_i128 hi = is_i32 ? INT32_MAX : INT64_MAX;
    if (v < lo || v > hi) {
        DL_TRY(sum_overflow(call, bd, out, &is_null, err));
    }
    if (is_null) {
        return dl_vec_append_null(out, err);
    }
    return is_i32 ? dl_vec_append_i32(out, (int32_t)(uint32_t)(dl_u128)v, err)
                  : dl_vec_append_i64(out, (int64_t)(uint64_t)(dl_u128)v, err);
}

static dl_status
finalize_decimal(const dl_sql_fn_call *call, const sum_bind *bd, const sum_state *s, dl_vector *out,
                 dl_error *err) {
    bool is_null = false;
    dl_i128 v = s->isum;
    bool bad = s->overflow || !dl_sql_dec_fits(v, bd->sum_prec);
    if (!bad && bd->is_avg) {
        /* Spark: Divide(sum, count) at the division's scale, then cast to the result. */
        int shift = bd->div_scale - bd->in_scale;
        dl_i128 q;
        bad = !dl_sql_dec_div_round(v, shift, s->n, &q);
        v = bad ? 0 : dl_sql_dec_round(q, bd->div_scale - out->type->scale, DL_SQL_ROUND_HALF_UP);
        if (!bad && out->type->scale > bd->div_scale) {
            bad = !dl_sql_dec_rescale(v, out->type->scale - bd->div_scale, &v);
        }
        bad = bad || !dl_sql_dec_fits(v, out->type->precision);
    }
    if (bad) {
        DL_TRY(sum_overflow(call, bd, out, &is_null, err));
        is_null = true;
    }
    return is_null ? dl_vec_append_null(out, err) : dl_vec_append_i128(out, v, err);
}

dl_status
dl_sql_agg_sum_finalize(dl_sql_fn_call *call, void *const *states, int64_t count, dl_vector *out,
                        dl_error *err) {
    const sum_bind *bd = call->bind_data;
    for (int64_t i = 0; i < count; i++) {
        const sum_state *s = states[i];
        if (s->n == 0) {
            DL_TRY(dl_vec_append_null(out, err));
        } else if (bd->kind == SK_DOUBLE) {
            DL_TRY(dl_vec_append_f64(out, bd->is_avg ? s->dsum / (double)s->n : s->dsum, err));
        } else if (bd->kind == SK_INT) {
            DL_TRY(finalize_int(call, bd, s, out, err));
        } else {
            DL_TRY(finalize_decimal(call, bd, s, out, err));
        }
    }
    return DL_OK;
}

/* ---- bool_and, bool_or ----------------------------------------------------------------------- */

typedef struct bool_state {
    bool has;
    bool value;
} bool_state;

dl_status
dl_sql_bind_bool_agg(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_BOOLEAN), "a boolean", err));
    b->ret_type = dl_sql_t(DL_VEC_TYPE_BOOLEAN);
    return DL_OK;
}

static bool
is_and(const dl_sql_fn_call *call) {
    return strcmp(call->def->name, "bool_and") == 0 || strcmp(call->def->name, "every") == 0;
}

void
dl_sql_agg_bool_init(const dl_sql_fn_call *call, void *state) {
    bool_state *s = state;
    s->has = false;
    s->value = is_and(call);
}

dl_status
dl_sql_agg_bool_update(dl_sql_fn_call *call, dl_vector *const *args, int64_t count,
                       void *const *states, dl_error *err) {
    DL_UNUSED(err);
    bool and_op = is_and(call);
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    for (int64_t i = 0; i < count; i++) {
        if (dl_sql_u_null(&u, i)) {
            continue;
        }
        bool v = dl_vec_get_bool(u.flat, u.sel[i]);
        bool_state *s = states[i];
        s->has = true;
        s->value = and_op ? s->value && v : s->value || v;
    }
    return DL_OK;
}

dl_status
dl_sql_agg_bool_combine(dl_sql_fn_call *call, const void *src, void *dst, dl_error *err) {
    DL_UNUSED(err);
    const bool_state *a = src;
    bool_state *b = dst;
    if (a->has) {
        b->value = is_and(call) ? b->value && a->value : b->value || a->value;
        b->has = true;
    }
    return DL_OK;
}

dl_status
dl_sql_agg_bool_finalize(dl_sql_fn_call *call, void *const *states, int64_t count, dl_vector *out,
                         dl_error *err) {
    DL_UNUSED(call);
    for (int64_t i = 0; i < count; i++) {
        const bool_state *s = states[i];
        DL_TRY(s->has ? dl_vec_append_bool(out, s->value, err) : dl_vec_append_null(out, err));
    }
    return DL_OK;
}

/* ---- stddev, variance ------------------------------------------------------------------------ */

typedef struct moments {
    double n;
    double mean;
    double m2;
} moments;

_Static_assert(sizeof(moments) <= 24, "the statistics' state is 24 bytes in sql_functions.def");

typedef enum stat_kind {
    ST_STDDEV_SAMP,
    ST_STDDEV_POP,
    ST_VAR_SAMP,
    ST_VAR_POP,
} stat_kind;

typedef struct stat_bind {
    stat_kind kind;
} stat_bind;

dl_status
dl_sql_bind_moments(dl_sql_fn_bind *b, dl_error *err) {
    static const char *const names[] = {"stddev",   "std",      "stddev_samp", "stddev_pop",
                                        "variance", "var_samp", "var_pop"};
    static const stat_kind kinds[] = {ST_STDDEV_SAMP, ST_STDDEV_SAMP, ST_STDDEV_SAMP, ST_STDDEV_POP,
                                      ST_VAR_SAMP,    ST_VAR_SAMP,    ST_VAR_POP};
    int k = dl_sql_name_index(b->name, names, (int)DL_ARRAY_LEN(names));
    stat_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    bd->kind = kinds[k < 0 ? 0 : k];
    b->bind_data = bd;
    DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_DOUBLE), "numeric", err));
    b->ret_type = dl_sql_t(DL_VEC_TYPE_DOUBLE);
    return DL_OK;
}

void
dl_sql_agg_moments_init(const dl_sql_fn_call *call, void *state) {
    DL_UNUSED(call);
    memset(state, 0, sizeof(moments));
}

static void
moments_add(moments *m, double x) {
    m->n += 1;
    double delta = x - m->mean;
    m->mean += delta / m->n;
    m->m2 += delta * (x - m->mean);
}

dl_status
dl_sql_agg_moments_update(dl_sql_fn_call *call, dl_vector *const *args, int64_t count,
                          void *const *states, dl_error *err) {
    DL_UNUSED(call);
    DL_UNUSED(err);
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    for (int64_t i = 0; i < count; i++) {
        if (!dl_sql_u_null(&u, i)) {
            moments_add(states[i], DL_SQL_U(&u, double, i));
        }
    }
    return DL_OK;
}

dl_status
dl_sql_agg_moments_combine(dl_sql_fn_call *call, const void *src, void *dst, dl_error *err) {
    DL_UNUSED(call);
    DL_UNUSED(err);
    const moments *a = src;
    moments *b = dst;
    if (a->n == 0) {
        return DL_OK;
    }
    if (b->n == 0) {
        *b = *a;
        return DL_OK;
    }
    double n = a->n + b->n;
    double delta = a->mean - b->mean;
    b->mean += delta * a->n / n;
    b->m2 += a->m2 + delta * delta * a->n * b->n / n;
    b->n = n;
    return DL_OK;
}

dl_status
dl_sql_agg_moments_finalize(dl_sql_fn_call *call, void *const *states, int64_t count,
                            dl_vector *out, dl_error *err) {
    const stat_bind *bd = call->bind_data;
    for (int64_t i = 0; i < count; i++) {
        const moments *m = states[i];
        bool sample = bd->kind == ST_STDDEV_SAMP || bd->kind == ST_VAR_SAMP;
        if (m->n == 0 || (sample && m->n == 1)) {
            DL_TRY(dl_vec_append_null(out, err));
            continue;
        }
        double var = m->m2 / (sample ? m->n - 1 : m->n);
        bool root = bd->kind == ST_STDDEV_SAMP || bd->kind == ST_STDDEV_POP;
        DL_TRY(dl_vec_append_f64(out, root ? sqrt(var) : var, err));
    }
    return DL_OK;
}
