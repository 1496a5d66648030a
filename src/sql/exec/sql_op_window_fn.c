/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Ranking, navigation and value window functions (sql_op_window_int.h): ROW_NUMBER, RANK,
 * DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE (Spark's buckets: the first n mod k buckets hold
 * one row more), LAG and LEAD (offset, default, IGNORE NULLS), FIRST_VALUE, LAST_VALUE and
 * NTH_VALUE over frames (IGNORE NULLS).
 *
 * Navigation and value functions first decide, for each row, where its value comes from (a
 * row of the value vector, the default vector's row, or NULL), a batch of rows at a time, and
 * then copy the values in runs with dl_vec_copy_sel.
 */
#include <string.h>

#include "sql/exec/sql_op_window_int.h"

/* ---- integer and double results ------------------------------------------------------------ */

static dl_status
reserve_result(dl_vector *res, int64_t n, dl_error *err) {
    return dl_vec_reserve(res, DL_MAX(n, 1), err);
}

static inline void
put_int(dl_vector *res, int64_t i, int64_t v) {
    if (res->type->id == DL_VEC_TYPE_LONG) {
        ((int64_t *)res->data)[i] = v;
    } else {
        ((int32_t *)res->data)[i] = (int32_t)v;
    }
}

static dl_status
check_int_result(const dl_vector *res, const char *name, dl_error *err) {
    DL_CHECK(res->type->id == DL_VEC_TYPE_INT || res->type->id == DL_VEC_TYPE_LONG, err,
             DL_ERR_INTERNAL, "%s with a %s result", name, dl_vec_type_name(res->type->id));
    return DL_OK;
}

static dl_status
run_ranking(dl_sql_window_state *st, int32_t f, dl_error *err) {
    const dl_sql_wfn *fn = &st->fns[f];
    dl_vector *res = st->results[f];
    DL_TRY(reserve_result(res, st->n, err));
    bool is_double = fn->kind == DL_SQL_WFN_PERCENT_RANK || fn->kind == DL_SQL_WFN_CUME_DIST;
    if (is_double) {
        DL_CHECK(res->type->id == DL_VEC_TYPE_DOUBLE, err, DL_ERR_INTERNAL,
                 "a window rank with a %s result", dl_vec_type_name(res->type->id));
    } else {
        DL_TRY(check_int_result(res, "a window rank", err));
    }
    double *dd = res->data;
    for (int64_t p = 0; p < st->n_parts; p++) {
        int64_t ps = st->part[p];
        int64_t pe = st->part[p + 1];
        int64_t dense = 0;
        for (int64_t i = ps; i < pe; i++) {
            int64_t rank = (int64_t)st->peer_start[i] - ps + 1;
            dense += st->peer_start[i] == i ? 1 : 0;
            switch (fn->kind) {
            case DL_SQL_WFN_ROW_NUMBER:
                put_int(res, i, i - ps + 1);
                break;
            case DL_SQL_WFN_RANK:
                put_int(res, i, rank);
                break;
            case DL_SQL_WFN_DENSE_RANK:
                put_int(res, i, dense);
                break;
            case DL_SQL_WFN_PERCENT_RANK:
                dd[i] = pe - ps > 1 ? (double)(rank - 1) / (double)(pe - ps - 1) : 0.0;
                break;
            default: /* CUME_DIST */
                dd[i] = (double)((int64_t)st->peer_end[i] - ps) / (double)(pe - ps);
                break;
            }
        }
    }
    dl_vec_set_length(res, st->n);
    return DL_OK;
}

static dl_status
run_ntile(dl_sql_window_state *st, int32_t f, dl_error *err) {
    const dl_sql_wfn *fn = &st->fns[f];
    dl_vector *res = st->results[f];
    DL_CHECK(fn->agg.n_args == 1, err, DL_ERR_INTERNAL, "ntile takes one argument");
    int64_t k;
    DL_TRY(dl_sql_window_const_int(st, fn->agg.args[0], "ntile: the number of buckets", &k, err));
    DL_CHECK(k > 0, err, DL_ERR_DATA, "ntile: buckets expression must be positive, but got: %lld",
             (long long)k);
    DL_TRY(check_int_result(res, "ntile", err));
    DL_TRY(reserve_result(res, st->n, err));
    for (int64_t p = 0; p < st->n_parts; p++) {
        int64_t ps = st->part[p];
        int64_t n = st->part[p + 1] - ps;
        int64_t size = n / k;
        int64_t extra = n % k; /* the first `extra` buckets hold size + 1 rows */
        for (int64_t r = 0; r < n; r++) {
            int64_t bucket;
            if (r < extra * (size + 1)) {
                bucket = r / (size + 1);
            } else {
                bucket = extra + (r - extra * (size + 1)) / DL_MAX(size, 1);
            }
            put_int(res, ps + r, bucket + 1);
        }
    }
    dl_vec_set_length(res, st->n);
    return DL_OK;
}

/* ---- choosing value sources ---------------------------------------------------------------- */

#define SRC_NULL    (-1)
#define SRC_DEFAULT (-2)

/* Collects, for consecutive result rows, where each value comes from, and copies them. */
typedef struct chooser {
    dl_vector *res;
    const dl_vector *values;
    const dl_vector *defaults; /* one row per result row, or NULL */
    int64_t next_row;          /* result row of src[0] */
    int64_t n;
    int64_t src[DL_BATCH_CAPACITY];
    uint32_t idx[DL_BATCH_CAPACITY];
} chooser;

/* Appends m values of one kind of source (idx: their rows). */
static dl_status
chooser_copy(chooser *ch, int64_t kind, int64_t m, dl_error *err) {
    if (kind == 0) {
        return dl_vec_copy_sel(ch->res, ch->values, ch->idx, m, err);
    }
    if (kind == SRC_DEFAULT && ch->defaults != NULL) {
        return dl_vec_copy_sel(ch->res, ch->defaults, ch->idx, m, err);
    }
    for (int64_t r = 0; r < m; r++) {
        DL_TRY(dl_vec_append_null(ch->res, err));
    }
    return DL_OK;
}

static dl_status
chooser_flush(chooser *ch, dl_error *err) {
    int64_t i = 0;
    while (i < ch->n) {
        int64_t kind = ch->src[i] >= 0 ? 0 : ch->src[i];
        int64_t j = i;
        int64_t m = 0;
        while (j < ch->n && (ch->src[j] >= 0 ? 0 : ch->src[j]) == kind) {
            ch->idx[m++] = (uint32_t)(kind == 0 ? ch->src[j] : ch->next_row + j);
            j++;
        }
        DL_TRY(chooser_copy(ch, kind, m, err));
        i = j;
    }
    ch->next_row += ch->n;
    ch->n = 0;
    return DL_OK;
}

static dl_status
chooser_put(chooser *ch, int64_t src, dl_error *err) {
    ch->src[ch->n++] = src;
    if (ch->n == DL_BATCH_CAPACITY) {
        return chooser_flush(ch, err);
    }
    return DL_OK;
}

/* Non-NULL rows of the value vector in [ps, pe), in order, into nn; returns how many. */
static int64_t
non_null_rows(const dl_vector *values, int64_t ps, int64_t pe, uint32_t *nn) {
    int64_t m = 0;
    for (int64_t r = ps; r < pe; r++) {
        if (!dl_vec_is_null(values, r)) {
            nn[m++] = (uint32_t)r;
        }
    }
    return m;
}

/* Index of the first entry of nn[0..m) >= row. */
static int64_t
lower_bound(const uint32_t *nn, int64_t m, int64_t row) {
    int64_t lo = 0;
    int64_t hi = m;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if ((int64_t)nn[mid] < row) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* ---- LAG and LEAD -------------------------------------------------------------------------- */

static int64_t
lag_source(const uint32_t *nn, int64_t m, bool ignore_nulls, int64_t ps, int64_t pe, int64_t i,
           int64_t delta) {
    if (!ignore_nulls) {
        int64_t t = i + delta;
        return t >= ps && t < pe ? t : SRC_DEFAULT;
    }
    if (delta == 0) {
        return i;
    }
    /* The |delta|-th non-NULL row before (delta < 0) or after (delta > 0) row i. */
    int64_t at = lower_bound(nn, m, delta < 0 ? i : i + 1);
    int64_t t = delta < 0 ? at + delta : at + delta - 1;
    return t >= 0 && t < m ? (int64_t)nn[t] : SRC_DEFAULT;
}

/* A new vector of the n rows of src cast to type, a batch at a time. */
static dl_status
cast_rows(dl_sql_window_state *st, const dl_vector *src, const dl_type *type, dl_vector **out,
          dl_error *err) {
    DL_TRY(dl_vec_new(st->exec->alloc, type, st->n, out, err));
    dl_status s = DL_OK;
    for (int64_t off = 0; off < st->n && s == DL_OK; off += DL_BATCH_CAPACITY) {
        int64_t cnt = DL_MIN(DL_BATCH_CAPACITY, st->n - off);
        dl_vector *slice = NULL;
        dl_vector *tmp = NULL;
        s = dl_vec_slice(src, off, cnt, &slice, err);
        if (s == DL_OK) {
            s = dl_vec_new(st->exec->alloc, type, cnt, &tmp, err);
        }
        if (s == DL_OK) {
            s = dl_sql_cast(&st->exec->env, DL_SQL_CAST_LEGACY, slice, cnt, tmp, err);
        }
        if (s == DL_OK) {
            s = dl_vec_copy_sel(*out, tmp, NULL, cnt, err);
        }
        dl_vec_unref(slice);
        dl_vec_unref(tmp);
    }
    if (s != DL_OK) {
        dl_vec_unref(*out);
        *out = NULL;
    }
    return s;
}

static dl_status
run_lag_lead(dl_sql_window_state *st, int32_t f, chooser *ch, uint32_t *nn, dl_error *err) {
    const dl_sql_wfn *fn = &st->fns[f];
    int64_t offset = 1;
    if (fn->agg.n_args >= 2) {
        DL_TRY(dl_sql_window_const_int(st, fn->agg.args[1], "lag/lead: the offset", &offset, err));
    }
    int64_t delta = fn->kind == DL_SQL_WFN_LAG ? -offset : offset;
    ch->defaults = fn->agg.n_args >= 3 ? st->args[f][2] : NULL;
    if (ch->defaults != NULL && !dl_vec_type_equal(ch->defaults->type, ch->values->type)) {
        /* The binder casts the default to the value's type; be safe if it did not. */
        dl_vector *cast;
        DL_TRY(cast_rows(st, ch->defaults, ch->values->type, &cast, err));
        dl_vec_unref(st->args[f][2]);
        st->args[f][2] = cast;
        ch->defaults = cast;
    }
    for (int64_t p = 0; p < st->n_parts; p++) {
        int64_t ps = st->part[p];
        int64_t pe = st->part[p + 1];
        int64_t m = fn->ignore_nulls ? non_null_rows(ch->values, ps, pe, nn) : 0;
        for (int64_t i = ps; i < pe; i++) {
            DL_TRY(chooser_put(ch, lag_source(nn, m, fn->ignore_nulls, ps, pe, i, delta), err));
        }
    }
    return chooser_flush(ch, err);
}

/* ---- FIRST_VALUE, LAST_VALUE, NTH_VALUE ---------------------------------------------------- */

static int64_t
value_source(const dl_sql_wfn *fn, const uint32_t *nn, int64_t m, int64_t fs, int64_t fe,
             int64_t nth) {
    if (fs >= fe) {
        return SRC_NULL;
    }
    if (!fn->ignore_nulls) {
        switch (fn->kind) {
        case DL_SQL_WFN_FIRST_VALUE:
            return fs;
        case DL_SQL_WFN_LAST_VALUE:
            return fe - 1;
        default:
            return fs + nth - 1 < fe ? fs + nth - 1 : SRC_NULL;
        }
    }
    int64_t first = lower_bound(nn, m, fs);
    int64_t end = lower_bound(nn, m, fe);
    if (first >= end) {
        return SRC_NULL;
    }
    switch (fn->kind) {
    case DL_SQL_WFN_FIRST_VALUE:
        return nn[first];
    case DL_SQL_WFN_LAST_VALUE:
        return nn[end - 1];
    default:
        return first + nth - 1 < end ? (int64_t)nn[first + nth - 1] : SRC_NULL;
    }
}

static dl_status
run_value(dl_sql_window_state *st, int32_t f, chooser *ch, uint32_t *nn, dl_error *err) {
    const dl_sql_wfn *fn = &st->fns[f];
    int64_t nth = 1;
    if (fn->kind == DL_SQL_WFN_NTH_VALUE) {
        DL_CHECK(fn->agg.n_args >= 2, err, DL_ERR_INTERNAL, "nth_value takes two arguments");
        DL_TRY(dl_sql_window_const_int(st, fn->agg.args[1], "nth_value: n", &nth, err));
        DL_CHECK(nth > 0, err, DL_ERR_DATA,
                 "nth_value: the offset must be a positive integer, got %lld", (long long)nth);
    }
    for (int64_t p = 0; p < st->n_parts; p++) {
        int64_t ps = st->part[p];
        int64_t pe = st->part[p + 1];
        int64_t m = fn->ignore_nulls ? non_null_rows(ch->values, ps, pe, nn) : 0;
        for (int64_t i = ps; i < pe; i++) {
            int64_t fs, fe;
            DL_TRY(dl_sql_window_frame(st, fn, ps, pe, i, &fs, &fe, err));
            DL_TRY(chooser_put(ch, value_source(fn, nn, m, fs, fe, nth), err));
        }
    }
    return chooser_flush(ch, err);
}

static dl_status
run_navigation(dl_sql_window_state *st, int32_t f, dl_error *err) {
    const dl_sql_wfn *fn = &st->fns[f];
    DL_CHECK(fn->agg.n_args >= 1 && st->args[f][0] != NULL, err, DL_ERR_INTERNAL,
             "window function %d without a value", (int)f);
    const dl_allocator *alloc = st->exec->alloc;
    chooser *ch = dl_mem_alloc_zero(alloc, sizeof(*ch));
    size_t nn_bytes = (size_t)DL_MAX(st->n, 1) * sizeof(uint32_t);
    uint32_t *nn = fn->ignore_nulls ? dl_mem_alloc(alloc, nn_bytes) : NULL;
    dl_status s = DL_OK;
    if (ch == NULL || (fn->ignore_nulls && nn == NULL)) {
        s = dl_error_set(err, DL_ERR_NOMEM, "out of memory in a window function");
    } else {
        ch->res = st->results[f];
        ch->values = st->args[f][0];
        bool is_lag = fn->kind == DL_SQL_WFN_LAG || fn->kind == DL_SQL_WFN_LEAD;
        s = is_lag ? run_lag_lead(st, f, ch, nn, err) : run_value(st, f, ch, nn, err);
    }
    dl_mem_free(alloc, ch, sizeof(*ch));
    dl_mem_free(alloc, nn, nn != NULL ? nn_bytes : 0);
    return s;
}

dl_status
dl_sql_window_fn_run(dl_sql_window_state *st, int32_t f, dl_error *err) {
    switch (st->fns[f].kind) {
    case DL_SQL_WFN_ROW_NUMBER:
    case DL_SQL_WFN_RANK:
    case DL_SQL_WFN_DENSE_RANK:
    case DL_SQL_WFN_PERCENT_RANK:
    case DL_SQL_WFN_CUME_DIST:
        return run_ranking(st, f, err);
    case DL_SQL_WFN_NTILE:
        return run_ntile(st, f, err);
    case DL_SQL_WFN_LAG:
    case DL_SQL_WFN_LEAD:
    case DL_SQL_WFN_FIRST_VALUE:
    case DL_SQL_WFN_LAST_VALUE:
    case DL_SQL_WFN_NTH_VALUE:
        return run_navigation(st, f, err);
    default:
        DL_FAIL(err, DL_ERR_INTERNAL, "window function kind %d", (int)st->fns[f].kind);
    }
}
