/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Aggregates that keep the group's values: collect_list/array_agg, collect_set, and the
 * percentiles (percentile_approx/approx_percentile, percentile, median), plus
 * approx_count_distinct.
 *
 *   collect_list(x)            array of the non-NULL values, in arrival order
 *   collect_set(x)             the distinct non-NULL values, in first-arrival order (Spark's
 *                              order is its hash set's; both are unspecified)
 *   percentile_approx(x, p [, accuracy])
 *                              the smallest value v with at least ceil(p * n) values <= v,
 *                              for a constant p in [0, 1] or an array of them; x numeric, date
 *                              or timestamp; the result has x's type. This is computed
 *                              exactly (all values kept, sorted at the end), which is within
 *                              any accuracy Spark's sketch promises; memory grows with the
 *                              group's rows.
 *   percentile(x, p), median(x) the exact percentile with linear interpolation, as double
 *   approx_count_distinct(x [, rsd])
 *                              HyperLogLog with 2^b registers, b = ceil(2 log2(1.106 / rsd))
 *                              (rsd 0.05 gives 512 registers, relative standard error about
 *                              4.6%), linear counting below 2.5 m; values are hashed with
 *                              dl_sql_value_hash, so estimates differ from Spark's HLL++
 *                              (which hashes with XXH64 and corrects bias) within that error
 *
 * Values are kept in a flat vector of x's type per group (strings referencing the batch's
 * buffers, which the vector holds), released by destroy.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sql/func/sql_fn_int.h"

typedef enum coll_op {
    CO_LIST,
    CO_SET,
    CO_PCT_APPROX,
    CO_PCT_EXACT,
} coll_op;

typedef struct coll_state {
    dl_vector *elems;
    uint32_t *table; /* collect_set: element index + 1 per slot, 0 empty */
    uint32_t cap;    /* slots, a power of two */
} coll_state;

_Static_assert(sizeof(coll_state) <= 48, "collect states are 48 bytes in sql_functions.def");

typedef struct coll_bind {
    coll_op op;
    const dl_type *et; /* the values' type */
    double *pcts;      /* percentiles */
    int32_t n_pcts;
    bool pct_array; /* the percentage was an array: the result is an array */
} coll_bind;

static const dl_allocator *
alloc_of(const dl_sql_fn_call *call) {
    return call->env != NULL ? call->env->alloc : NULL;
}

/* ---- binding --------------------------------------------------------------------------------- */

/* The constant percentage(s) of argument i, as doubles in [0, 1]. */
static dl_status
bind_percentages(dl_sql_fn_bind *b, coll_bind *bd, int32_t i, dl_error *err) {
    const dl_sql_fn_const *c = &b->consts[i];
    DL_CHECK(c->is_const && !c->is_null, err, DL_ERR_SQL_BIND,
             "%s: the percentage must be a constant number or array of numbers", b->name);
    const dl_type *t = c->vec->type;
    bd->pct_array = t->id == DL_VEC_TYPE_ARRAY;
    const dl_type *dt = dl_sql_t(DL_VEC_TYPE_DOUBLE);
    const dl_type *want = dt;
    if (bd->pct_array) {
        DL_TRY(dl_vec_type_array(b->arena, dt, true, &want, err));
    }
    DL_CHECK(dl_sql_cast_is_allowed(t, want) &&
                 (bd->pct_array ? dl_sql_is_numeric(t->element) : dl_sql_is_numeric(t)),
             err, DL_ERR_SQL_BIND, "%s: the percentage must be numeric", b->name);
    dl_vector *v;
    DL_TRY(dl_vec_new(NULL, want, 1, &v, err));
    dl_status s = dl_sql_cast(b->env, DL_SQL_CAST_LEGACY, c->vec, 1, v, err);
    const dl_vector *vals = bd->pct_array ? (s == DL_OK ? v->children[0] : NULL) : v;
    int64_t n = vals != NULL ? vals->length : 0;
    bd->pcts =
        s == DL_OK ? dl_arena_alloc_array(b->arena, (size_t)DL_MAX(n, 1), sizeof(double)) : NULL;
    for (int64_t k = 0; s == DL_OK && k < n; k++) {
        double p = ((const double *)vals->data)[k];
        if (bd->pcts == NULL || dl_vec_is_null(vals, k) || !(p >= 0 && p <= 1)) {
            s = dl_sql_bind_fail(b, err, "percentages must be between 0.0 and 1.0");
        } else {
            bd->pcts[k] = p;
        }
    }
    bd->n_pcts = (int32_t)n;
    dl_vec_unref(v);
    return s;
}

dl_status
dl_sql_bind_collect(dl_sql_fn_bind *b, dl_error *err) {
    coll_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    bd->op = strcmp(b->name, "collect_set") == 0 ? CO_SET : CO_LIST;
    bd->et = b->arg_types[0];
    b->bind_data = bd;
    if (bd->op == CO_SET && !dl_sql_type_orderable(bd->et)) {
        return dl_sql_bind_arg_fail(b, 0, "of a comparable type (not a map)", err);
    }
    return dl_vec_type_array(b->arena, bd->et, false, &b->ret_type, err);
}

dl_status
dl_sql_bind_percentile(dl_sql_fn_bind *b, dl_error *err) {
    coll_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    bool approx = strstr(b->name, "approx") != NULL;
    bd->op = approx ? CO_PCT_APPROX : CO_PCT_EXACT;
    b->bind_data = bd;
    const dl_type *t = b->arg_types[0];
    if (t->id == DL_VEC_TYPE_STRING || t->id == DL_VEC_TYPE_NULL ||
        (!approx && t->id != DL_VEC_TYPE_DOUBLE)) {
        t = dl_sql_t(DL_VEC_TYPE_DOUBLE);
        DL_TRY(dl_sql_bind_expect(b, 0, t, "numeric", err));
    }
    if (!dl_sql_is_numeric(t) && !dl_sql_is_datetime(t) && !dl_sql_is_interval(t)) {
        return dl_sql_bind_arg_fail(b, 0, "numeric, a date or a timestamp", err);
    }
    bd->et = t;
    if (strcmp(b->name, "median") == 0) {
        static double half = 0.5;
        bd->pcts = &half;
        bd->n_pcts = 1;
    } else {
        DL_TRY(bind_percentages(b, bd, 1, err));
    }
    if (b->n_args > 2) {
        int64_t accuracy;
        DL_CHECK(dl_sql_bind_const_i64(b, 2, &accuracy) && accuracy > 0, err, DL_ERR_SQL_BIND,
                 "%s: the accuracy must be a positive constant integer", b->name);
    }
    const dl_type *rt = approx ? t : dl_sql_t(DL_VEC_TYPE_DOUBLE);
    if (bd->pct_array) {
        return dl_vec_type_array(b->arena, rt, false, &b->ret_type, err);
    }
    b->ret_type = rt;
    return DL_OK;
}

/* ---- states ---------------------------------------------------------------------------------- */

void
dl_sql_agg_collect_init(const dl_sql_fn_call *call, void *state) {
    DL_UNUSED(call);
    memset(state, 0, sizeof(coll_state));
}

void
dl_sql_agg_collect_destroy(const dl_sql_fn_call *call, void *state) {
    coll_state *s = state;
    dl_vec_unref(s->elems);
    dl_mem_free(alloc_of(call), s->table, (size_t)s->cap * sizeof(uint32_t));
    memset(s, 0, sizeof(*s));
}

static dl_status
ensure_elems(const dl_sql_fn_call *call, const coll_bind *bd, coll_state *s, dl_error *err) {
    if (s->elems == NULL) {
        DL_TRY(dl_vec_new(alloc_of(call), bd->et, 0, &s->elems, err));
    }
    return DL_OK;
}

/* collect_set's table: index of the slot holding a value equal to element idx of flat, or the
 * empty slot where it would go. */
static uint32_t
set_probe(const coll_bind *bd, const coll_state *s, const dl_vector *flat, int64_t idx,
          bool *out_found) {
    uint32_t mask = s->cap - 1;
    uint32_t k = (uint32_t)dl_sql_value_hash(bd->et, flat, idx) & mask;
    for (;; k = (k + 1) & mask) {
        uint32_t e = s->table[k];
        if (e == 0) {
            *out_found = false;
            return k;
        }
        if (dl_sql_value_cmp(bd->et, s->elems, e - 1, flat, idx) == 0) {
            *out_found = true;
            return k;
        }
    }
}

static dl_status
set_grow(const dl_sql_fn_call *call, const coll_bind *bd, coll_state *s, dl_error *err) {
    uint32_t cap = s->cap == 0 ? 16 : s->cap * 2;
    DL_CHECK(cap != 0 && cap <= (1u << 30), err, DL_ERR_LIMIT,
             "collect_set: too many distinct values in one group");
    uint32_t *table = dl_mem_alloc_zero(alloc_of(call), (size_t)cap * sizeof(uint32_t));
    DL_CHECK(table != NULL, err, DL_ERR_NOMEM, "collect_set: out of memory");
    dl_mem_free(alloc_of(call), s->table, (size_t)s->cap * sizeof(uint32_t));
    s->table = table;
    s->cap = cap;
    for (int64_t e = 0; e < s->elems->length; e++) {
        bool found;
        uint32_t k = set_probe(bd, s, s->elems, e, &found);
        s->table[k] = (uint32_t)e + 1;
    }
    return DL_OK;
}

/* Adds element idx of flat (not NULL) to the state. */
static dl_status
coll_add(const dl_sql_fn_call *call, const coll_bind *bd, coll_state *s, const dl_vector *flat,
         int64_t idx, dl_error *err) {
    DL_TRY(ensure_elems(call, bd, s, err));
    if (bd->op != CO_SET) {
        return dl_sql_append_elem(s->elems, flat, idx, err);
    }
    if ((uint64_t)(s->elems->length + 1) * 2 > s->cap) {
        DL_TRY(set_grow(call, bd, s, err));
    }
    bool found;
    uint32_t k = set_probe(bd, s, flat, idx, &found);
    if (found) {
        return DL_OK;
    }
    DL_TRY(dl_sql_append_elem(s->elems, flat, idx, err));
    s->table[k] = (uint32_t)s->elems->length;
    return DL_OK;
}

dl_status
dl_sql_agg_collect_update(dl_sql_fn_call *call, dl_vector *const *args, int64_t count,
                          void *const *states, dl_error *err) {
    const coll_bind *bd = call->bind_data;
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    for (int64_t i = 0; i < count; i++) {
        if (!dl_sql_u_null(&u, i)) {
            DL_TRY(coll_add(call, bd, states[i], u.flat, u.sel[i], err));
        }
    }
    return DL_OK;
}

dl_status
dl_sql_agg_collect_combine(dl_sql_fn_call *call, const void *src, void *dst, dl_error *err) {
    const coll_bind *bd = call->bind_data;
    const coll_state *a = src;
    if (a->elems == NULL) {
        return DL_OK;
    }
    for (int64_t e = 0; e < a->elems->length; e++) {
        DL_TRY(coll_add(call, bd, dst, a->elems, e, err));
    }
    return DL_OK;
}

/* ---- finalize -------------------------------------------------------------------------------- */

typedef struct sort_ctx {
    const dl_type *t;
    const dl_vector *v;
} sort_ctx;

static _Thread_local const sort_ctx *sort_current;

static int
compare_idx(const void *pa, const void *pb) {
    int64_t a = *(const int64_t *)pa;
    int64_t b = *(const int64_t *)pb;
    int c = dl_sql_value_cmp(sort_current->t, sort_current->v, a, sort_current->v, b);
    return c != 0 ? c : (a < b ? -1 : a > b);
}

static double
as_double(const dl_type *t, const dl_vector *v, int64_t i) {
    switch (t->id) {
    case DL_VEC_TYPE_DOUBLE:
        return ((const double *)v->data)[i];
    case DL_VEC_TYPE_FLOAT:
        return (double)((const float *)v->data)[i];
    case DL_VEC_TYPE_DECIMAL:
        return dl_sql_dec_to_double(((const dl_i128 *)v->data)[i], t->scale);
    case DL_VEC_TYPE_BYTE:
        return (double)dl_sql_i8(((const int8_t *)v->data)[i]);
    case DL_VEC_TYPE_SHORT:
        return ((const int16_t *)v->data)[i];
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_DATE:
    case DL_VEC_TYPE_INTERVAL_YM:
        return ((const int32_t *)v->data)[i];
    default:
        return (double)((const int64_t *)v->data)[i];
    }
}

/* One percentile of the sorted indices into dst (a value of the result type). */
static dl_status
emit_percentile(const coll_bind *bd, const coll_state *s, const int64_t *idx, int64_t n, double p,
                dl_vector *dst, dl_error *err) {
    if (bd->op == CO_PCT_APPROX) {
        int64_t rank = (int64_t)ceil(p * (double)n);
        int64_t k = DL_MAX(rank - 1, 0);
        return dl_sql_append_elem(dst, s->elems, idx[DL_MIN(k, n - 1)], err);
    }
    double pos = p * (double)(n - 1);
    int64_t lo = (int64_t)floor(pos);
    int64_t hi = (int64_t)ceil(pos);
    double a = as_double(bd->et, s->elems, idx[lo]);
    double b = as_double(bd->et, s->elems, idx[hi]);
    return dl_vec_append_f64(dst, lo == hi ? a : a + (pos - (double)lo) * (b - a), err);
}

static dl_status
finalize_percentiles(const dl_sql_fn_call *call, const coll_bind *bd, const coll_state *s,
                     dl_vector *out, dl_error *err) {
    int64_t n = s->elems != NULL ? s->elems->length : 0;
    if (n == 0) {
        return dl_vec_append_null(out, err);
    }
    int64_t *idx = dl_mem_alloc_array(alloc_of(call), (size_t)n, sizeof(*idx));
    DL_CHECK(idx != NULL, err, DL_ERR_NOMEM, "%s: out of memory", call->def->name);
    for (int64_t k = 0; k < n; k++) {
        idx[k] = k;
    }
    sort_ctx c = {.t = bd->et, .v = s->elems};
    sort_current = &c;
    qsort(idx, (size_t)n, sizeof(*idx), compare_idx);
    sort_current = NULL;
    dl_status st = DL_OK;
    dl_vector *dst = bd->pct_array ? out->children[0] : out;
    for (int32_t k = 0; k < bd->n_pcts && st == DL_OK; k++) {
        st = emit_percentile(bd, s, idx, n, bd->pcts[k], dst, err);
    }
    if (st == DL_OK && bd->pct_array) {
        st = dl_vec_append_list(out, err);
    }
    dl_mem_free(alloc_of(call), idx, (size_t)n * sizeof(*idx));
    return st;
}

dl_status
dl_sql_agg_collect_finalize(dl_sql_fn_call *call, void *const *states, int64_t count,
                            dl_vector *out, dl_error *err) {
    const coll_bind *bd = call->bind_data;
    for (int64_t i = 0; i < count; i++) {
        const coll_state *s = states[i];
        if (bd->op == CO_PCT_APPROX || bd->op == CO_PCT_EXACT) {
            DL_TRY(finalize_percentiles(call, bd, s, out, err));
            continue;
        }
        if (s->elems != NULL) {
            DL_TRY(dl_vec_copy_sel(out->children[0], s->elems, NULL, s->elems->length, err));
        }
        DL_TRY(dl_vec_append_list(out, err));
    }
    return DL_OK;
}

/* ---- approx_count_distinct ------------------------------------------------------------------- */

typedef struct hll_state {
    uint8_t *regs;
    int32_t bits; /* registers: 2^bits */
} hll_state;

_Static_assert(sizeof(hll_state) <= 16, "approx_count_distinct's state is 16 bytes");

typedef struct hll_bind {
    int32_t bits;
    const dl_type *t;
} hll_bind;

dl_status
dl_sql_bind_hll(dl_sql_fn_bind *b, dl_error *err) {
    hll_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    double rsd = 0.05;
    if (b->n_args > 1) {
        const dl_sql_fn_const *c = &b->consts[1];
        DL_CHECK(c->is_const && !c->is_null, err, DL_ERR_SQL_BIND,
                 "approx_count_distinct: the relative standard deviation must be a constant");
        dl_vector *v;
        DL_TRY(dl_vec_new(NULL, dl_sql_t(DL_VEC_TYPE_DOUBLE), 1, &v, err));
        dl_status s = dl_sql_cast(b->env, DL_SQL_CAST_LEGACY, c->vec, 1, v, err);
        rsd = s == DL_OK && !dl_vec_is_null(v, 0) ? ((const double *)v->data)[0] : -1;
        dl_vec_unref(v);
        DL_TRY(s);
    }
    DL_CHECK(rsd > 0 && rsd <= 0.39, err, DL_ERR_SQL_BIND,
             "approx_count_distinct: the relative standard deviation must be in (0, 0.39]");
    bd->bits = DL_MIN(DL_MAX((int32_t)ceil(2.0 * log2(1.106 / rsd)), 4), 16);
    bd->t = b->arg_types[0];
    b->bind_data = bd;
    b->ret_type = dl_sql_t(DL_VEC_TYPE_LONG);
    return DL_OK;
}

void
dl_sql_agg_hll_init(const dl_sql_fn_call *call, void *state) {
    const hll_bind *bd = call->bind_data;
    hll_state *s = state;
    s->regs = NULL;
    s->bits = bd->bits;
}

void
dl_sql_agg_hll_destroy(const dl_sql_fn_call *call, void *state) {
    hll_state *s = state;
    dl_mem_free(alloc_of(call), s->regs, (size_t)1 << s->bits);
    s->regs = NULL;
}

static dl_status
hll_regs(const dl_sql_fn_call *call, hll_state *s, dl_error *err) {
    if (s->regs == NULL) {
        s->regs = dl_mem_alloc_zero(alloc_of(call), (size_t)1 << s->bits);
        DL_CHECK(s->regs != NULL, err, DL_ERR_NOMEM, "approx_count_distinct: out of memory");
    }
    return DL_OK;
}

dl_status
dl_sql_agg_hll_update(dl_sql_fn_call *call, dl_vector *const *args, int64_t count,
                      void *const *states, dl_error *err) {
    const hll_bind *bd = call->bind_data;
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    for (int64_t i = 0; i < count; i++) {
        if (dl_sql_u_null(&u, i)) {
            continue;
        }
        hll_state *s = states[i];
        DL_TRY(hll_regs(call, s, err));
        uint64_t h = dl_hash_u64(dl_sql_value_hash(bd->t, u.flat, u.sel[i]));
        uint64_t j = h >> (64 - s->bits);
        uint64_t rest = (h << s->bits) | ((uint64_t)1 << (s->bits - 1));
        uint8_t rank = (uint8_t)(__builtin_clzll(rest) + 1);
        if (rank > s->regs[j]) {
            s->regs[j] = rank;
        }
    }
    return DL_OK;
}

dl_status
dl_sql_agg_hll_combine(dl_sql_fn_call *call, const void *src, void *dst, dl_error *err) {
    const hll_state *a = src;
    hll_state *b = dst;
    if (a->regs == NULL) {
        return DL_OK;
    }
    DL_TRY(hll_regs(call, b, err));
    for (size_t j = 0; j < (size_t)1 << b->bits; j++) {
        b->regs[j] = DL_MAX(b->regs[j], a->regs[j]);
    }
    return DL_OK;
}

dl_status
dl_sql_agg_hll_finalize(dl_sql_fn_call *call, void *const *states, int64_t count, dl_vector *out,
                        dl_error *err) {
    DL_UNUSED(call);
    for (int64_t i = 0; i < count; i++) {
        const hll_state *s = states[i];
        if (s->regs == NULL) {
            DL_TRY(dl_vec_append_i64(out, 0, err));
            continue;
        }
        double m = (double)((size_t)1 << s->bits);
        double sum = 0;
        int64_t zeros = 0;
        for (size_t j = 0; j < (size_t)1 << s->bits; j++) {
            sum += ldexp(1.0, -s->regs[j]);
            zeros += s->regs[j] == 0;
        }
        double alpha = 0.7213 / (1 + 1.079 / m);
        double e = alpha * m * m / sum;
        if (e <= 2.5 * m && zeros > 0) {
            e = m * log(m / (double)zeros);
        }
        DL_TRY(dl_vec_append_i64(out, (int64_t)llround(e), err));
    }
    return DL_OK;
}
