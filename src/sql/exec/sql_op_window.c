/* SPDX-License-Identifier: Apache-2.0 */
/*
 * WINDOW (DL_SQL_PLAN_WINDOW, sql_plan.h): the operator, materialization of the sorted input,
 * partitions, peer groups, function arguments and frames. The design is in
 * sql_op_window_int.h; ranking and value functions are sql_op_window_fn.c, aggregates
 * sql_op_window_agg.c.
 */
#include <math.h>
#include <string.h>

#include "sql/exec/sql_op_window_int.h"

/* ---- materializing the sorted input -------------------------------------------------------- */

static dl_status
materialize(dl_sql_window_state *st, dl_error *err) {
    dl_sql_sorter *s = &st->sorter;
    const dl_allocator *alloc = st->exec->alloc;
    int64_t n = s->total;
    st->n = n;
    int32_t n_cols = s->rowlay.n_cols;
    st->cols = dl_arena_alloc_zero(st->exec->arena, (size_t)DL_MAX(n_cols, 1) * sizeof(void *));
    size_t bytes = (size_t)DL_MAX(n, 1) * sizeof(uint32_t);
    uint32_t *runs = dl_mem_alloc(alloc, bytes);
    uint32_t *rows = dl_mem_alloc(alloc, bytes);
    dl_status ret = DL_OK;
    if (st->cols == NULL || runs == NULL || rows == NULL) {
        ret =
            dl_error_set(err, DL_ERR_NOMEM, "out of memory in a window of %lld rows", (long long)n);
    }
    int64_t got = 0;
    while (ret == DL_OK && got < n) {
        int64_t m;
        dl_sql_sorter_merge(s, runs + got, rows + got, n - got, &m);
        got += m;
        if (m == 0) {
            break;
        }
    }
    for (int32_t c = 0; c < n_cols && ret == DL_OK; c++) {
        ret = dl_vec_new(alloc, s->rowlay.types[c], 0, &st->cols[c], err);
        if (ret == DL_OK && n > 0) {
            ret = dl_sql_rowstore_gather(st->cols[c], s->stores, c, runs, rows, n, err);
        }
    }
    dl_mem_free(alloc, runs, bytes);
    dl_mem_free(alloc, rows, bytes);
    return ret;
}

/* True when rows a and b are equal on keys [from, to) of the sorter. */
static bool
rows_equal_on(const dl_sql_window_state *st, int32_t from, int32_t to, int64_t a, int64_t b) {
    for (int32_t j = from; j < to; j++) {
        const dl_vector *v = st->cols[st->sorter.key_col[j]];
        if (!dl_sql_value_equal(v, a, v, b)) {
            return false;
        }
    }
    return true;
}

static dl_status
find_groups(dl_sql_window_state *st, dl_error *err) {
    const dl_allocator *alloc = st->exec->alloc;
    int64_t n = st->n;
    int32_t np = st->node->n_partition;
    int32_t nk = np + st->node->n_order;
    size_t bytes = (size_t)(n + 1) * sizeof(uint32_t);
    st->part = dl_mem_alloc(alloc, bytes);
    st->peer_start = dl_mem_alloc(alloc, bytes);
    st->peer_end = dl_mem_alloc(alloc, bytes);
    DL_CHECK(st->part != NULL && st->peer_start != NULL && st->peer_end != NULL, err, DL_ERR_NOMEM,
             "out of memory in a window of %lld rows", (long long)n);
    st->n_parts = 0;
    int64_t peer = 0;
    for (int64_t i = 0; i < n; i++) {
        bool is_new_part = i == 0 || !rows_equal_on(st, 0, np, i - 1, i);
        if (is_new_part) {
            st->part[st->n_parts++] = (uint32_t)i;
        }
        if (is_new_part || !rows_equal_on(st, np, nk, i - 1, i)) {
            for (int64_t r = peer; r < i; r++) {
                st->peer_end[r] = (uint32_t)i;
            }
            peer = i;
        }
        st->peer_start[i] = (uint32_t)peer;
    }
    for (int64_t r = peer; r < n; r++) {
        st->peer_end[r] = (uint32_t)n;
    }
    st->part[st->n_parts] = (uint32_t)n;
    return DL_OK;
}

/* A BYTE value, sign-extended. */
static int64_t
byte_value(const void *data, int64_t e) {
    int32_t u = ((const uint8_t *)data)[e];
    return u >= 128 ? u - 256 : u;
}

/* ---- arguments ----------------------------------------------------------------------------- */

/* Which arguments of fn are per-row values (the others are constants read once). */
static bool
arg_is_values(const dl_sql_wfn *fn, int32_t a) {
    switch (fn->kind) {
    case DL_SQL_WFN_AGGREGATE:
        return true;
    case DL_SQL_WFN_LAG:
    case DL_SQL_WFN_LEAD:
        return a == 0 || a == 2;
    case DL_SQL_WFN_FIRST_VALUE:
    case DL_SQL_WFN_LAST_VALUE:
    case DL_SQL_WFN_NTH_VALUE:
        return a == 0;
    default:
        return false;
    }
}

/* Evaluates expr over every materialized row into a new vector of n rows. */
static dl_status
eval_rows(dl_sql_window_state *st, const dl_sql_bexpr *expr, dl_vector **out, dl_error *err) {
    if (expr->kind == DL_SQL_BEXPR_COLUMN) {
        *out = dl_vec_ref(st->cols[expr->index]);
        return DL_OK;
    }
    dl_sql_eval *ev = NULL;
    dl_batch *batch = NULL;
    DL_TRY(dl_vec_new(st->exec->alloc, expr->type, st->n, out, err));
    dl_status s = dl_sql_eval_new(st->exec, expr, &ev, err);
    if (s == DL_OK) {
        s = dl_sql_batch_new(st->exec, st->child_schema, &batch, err);
    }
    for (int64_t off = 0; s == DL_OK && off < st->n; off += DL_BATCH_CAPACITY) {
        int64_t cnt = DL_MIN(DL_BATCH_CAPACITY, st->n - off);
        for (int32_t c = 0; c < st->n_cols && s == DL_OK; c++) {
            dl_vector *slice;
            s = dl_vec_slice(st->cols[c], off, cnt, &slice, err);
            if (s == DL_OK) {
                dl_vec_batch_set_col(batch, c, slice);
            }
        }
        dl_vector *v = NULL;
        if (s == DL_OK) {
            dl_vec_batch_set_count(batch, cnt);
            s = dl_sql_eval_run(ev, batch, &v, err);
        }
        if (s == DL_OK) {
            s = dl_vec_copy_sel(*out, v, NULL, cnt, err);
        }
        dl_vec_unref(v);
    }
    dl_vec_batch_free(batch);
    dl_sql_eval_free(ev);
    return s;
}

static dl_status
eval_fn_args(dl_sql_window_state *st, int32_t f, dl_error *err) {
    const dl_sql_wfn *fn = &st->fns[f];
    int32_t na = fn->agg.n_args;
    st->args[f] = dl_arena_alloc_zero(st->exec->arena, (size_t)DL_MAX(na, 1) * sizeof(void *));
    DL_CHECK(st->args[f] != NULL, err, DL_ERR_NOMEM, "out of memory in a window");
    for (int32_t a = 0; a < na; a++) {
        if (arg_is_values(fn, a)) {
            DL_TRY(eval_rows(st, fn->agg.args[a], &st->args[f][a], err));
        }
    }
    return DL_OK;
}

static dl_status
eval_args(dl_sql_window_state *st, dl_error *err) {
    const dl_sql_window_node *node = st->node;
    st->args =
        dl_arena_alloc_zero(st->exec->arena, (size_t)DL_MAX(node->n_fns, 1) * sizeof(void *));
    DL_CHECK(st->args != NULL, err, DL_ERR_NOMEM, "out of memory in a window");
    for (int32_t f = 0; f < node->n_fns; f++) {
        DL_TRY(eval_fn_args(st, f, err));
    }
    return DL_OK;
}

dl_status
dl_sql_window_const_int(dl_sql_window_state *st, const dl_sql_bexpr *expr, const char *what,
                        int64_t *out, dl_error *err) {
    dl_vector *v;
    DL_TRY(dl_sql_eval_const(st->exec, expr, &v, err));
    dl_status s = DL_OK;
    if (dl_vec_is_null(v, 0)) {
        s = dl_error_set(err, DL_ERR_DATA, "%s must not be NULL", what);
    } else {
        const dl_vector *flat;
        int64_t e = dl_vec_resolve(v, 0, &flat);
        switch (dl_vec_type_phys(flat->type)) {
        case DL_VEC_PHYS_I8:
            *out = byte_value(flat->data, e);
            break;
        case DL_VEC_PHYS_I16:
            *out = ((const int16_t *)flat->data)[e];
            break;
        case DL_VEC_PHYS_I32:
            *out = ((const int32_t *)flat->data)[e];
            break;
        case DL_VEC_PHYS_I64:
            *out = ((const int64_t *)flat->data)[e];
            break;
        default:
            s = dl_error_set(err, DL_ERR_DATA, "%s must be an integer, not %s", what,
                             dl_vec_type_name(flat->type->id));
        }
    }
    dl_vec_unref(v);
    if (s != DL_OK && expr->loc != UINT32_MAX && err != NULL) {
        err->offset = expr->loc;
    }
    return s;
}

/* ---- frames -------------------------------------------------------------------------------- */

/* A value of the order key or a bound: integers, decimals and times exactly, floats as double. */
typedef struct num {
    bool is_float;
    double f;
    dl_i128 i;
} num;

static num
num_at(const dl_vector *v, int64_t row) {
    const dl_vector *flat;
    int64_t e = dl_vec_resolve(v, row, &flat);
    const void *d = flat->data;
    num x = {0};
    switch (dl_vec_type_phys(flat->type)) {
    case DL_VEC_PHYS_I8:
        x.i = byte_value(d, e);
        break;
    case DL_VEC_PHYS_I16:
        x.i = ((const int16_t *)d)[e];
        break;
    case DL_VEC_PHYS_I32:
        x.i = ((const int32_t *)d)[e];
        break;
    case DL_VEC_PHYS_I64:
        x.i = ((const int64_t *)d)[e];
        break;
    case DL_VEC_PHYS_I128:
        x.i = ((const dl_i128 *)d)[e];
        break;
    case DL_VEC_PHYS_F32:
        x.is_float = true;
        x.f = (double)((const float *)d)[e];
        break;
    default:
        x.is_float = true;
        x.f = ((const double *)d)[e];
        break;
    }
    return x;
}

static int
num_cmp(num a, num b) {
    if (a.is_float) {
        if (isnan(a.f) || isnan(b.f)) {
            return isnan(a.f) && isnan(b.f) ? 0 : (isnan(a.f) ? 1 : -1);
        }
        return a.f < b.f ? -1 : (a.f > b.f ? 1 : 0);
    }
    return a.i < b.i ? -1 : (a.i > b.i ? 1 : 0);
}

/* A day-time interval offset (micros) in the units of a date or timestamp key. */
static dl_status
interval_units(const dl_type *key_type, num *off, dl_error *err) {
    if (key_type->id == DL_VEC_TYPE_DATE) {
        DL_CHECK(off->i % INT64_C(86400000000) == 0, err, DL_ERR_UNSUPPORTED,
                 "a RANGE offset over a date must be whole days");
        off->i /= INT64_C(86400000000);
        return DL_OK;
    }
    DL_CHECK(key_type->id == DL_VEC_TYPE_TIMESTAMP || key_type->id == DL_VEC_TYPE_TIMESTAMP_NTZ,
             err, DL_ERR_UNSUPPORTED, "a day-time interval offset over a %s key",
             dl_vec_type_name(key_type->id));
    return DL_OK;
}

/* The offset of a RANGE bound in the order key's units. */
static dl_status
range_offset(const dl_sql_window_state *st, const dl_sql_bexpr *expr, const dl_type *key_type,
             num *out, dl_error *err) {
    DL_CHECK(expr != NULL, err, DL_ERR_INTERNAL, "a RANGE frame offset without a value");
    dl_vector *v;
    DL_TRY(dl_sql_eval_const(st->exec, expr, &v, err));
    bool is_null = dl_vec_is_null(v, 0);
    *out = is_null ? (num){0} : num_at(v, 0);
    dl_type_id id = v->type->id;
    dl_vec_unref(v);
    DL_CHECK(!is_null, err, DL_ERR_DATA, "a RANGE frame offset must not be NULL");
    DL_CHECK(id != DL_VEC_TYPE_INTERVAL_YM, err, DL_ERR_UNSUPPORTED,
             "RANGE frames with year-month interval offsets");
    if (id == DL_VEC_TYPE_INTERVAL_DT) {
        DL_TRY(interval_units(key_type, out, err));
    }
    if (dl_vec_type_phys(key_type) == DL_VEC_PHYS_F32 ||
        dl_vec_type_phys(key_type) == DL_VEC_PHYS_F64) {
        if (!out->is_float) {
            out->f = (double)out->i;
        }
        out->is_float = true;
    }
    return DL_OK;
}

/* First row r in [lo, hi) of the sorted key (ASC, or DESC when is_desc) whose value is past
 * bound: key >= bound (ASC) / key <= bound (DESC); with is_strict, key > / key <. */
static int64_t
search(const dl_vector *key, int64_t lo, int64_t hi, num bound, bool is_desc, bool is_strict) {
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        int c = num_cmp(num_at(key, mid), bound);
        if (is_desc) {
            c = -c;
        }
        if (c > 0 || (c == 0 && !is_strict)) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return lo;
}

static dl_status
range_bound(const dl_sql_window_state *st, const dl_sql_frame *fr, bool is_start, int64_t ps,
            int64_t pe, int64_t i, int64_t *out, dl_error *err) {
    dl_sql_frame_bound_kind kind = is_start ? fr->start : fr->end;
    if (kind == DL_SQL_FB_CURRENT_ROW) {
        *out = is_start ? st->peer_start[i] : st->peer_end[i];
        return DL_OK;
    }
    DL_CHECK(st->node->n_order == 1, err, DL_ERR_SQL_BIND,
             "a RANGE frame with an offset needs exactly one ORDER BY expression");
    const dl_sql_sort_key *ok = &st->node->order[0];
    const dl_vector *key = st->cols[st->sorter.key_col[st->node->n_partition]];
    if (dl_vec_is_null(key, i)) {
        *out = is_start ? st->peer_start[i] : st->peer_end[i];
        return DL_OK;
    }
    /* The rows with a non-NULL key: NULLs sit at one end of the partition. */
    int64_t lo = ps;
    int64_t hi = pe;
    while (lo < hi && dl_vec_is_null(key, ok->is_nulls_first ? lo : hi - 1)) {
        if (ok->is_nulls_first) {
            lo++;
        } else {
            hi--;
        }
    }
    num off;
    DL_TRY(range_offset(st, is_start ? fr->start_value : fr->end_value, ok->expr->type, &off, err));
    num v = num_at(key, i);
    bool is_preceding = kind == DL_SQL_FB_PRECEDING;
    /* PRECEDING moves against the order: v - off for ASC, v + off for DESC. */
    bool is_minus = is_preceding != ok->is_desc;
    num b = v;
    if (b.is_float) {
        b.f = is_minus ? v.f - off.f : v.f + off.f;
    } else {
        b.i = is_minus ? v.i - off.i : v.i + off.i;
    }
    *out = search(key, lo, hi, b, ok->is_desc, !is_start);
    return DL_OK;
}

static int64_t
rows_bound(dl_sql_frame_bound_kind kind, int64_t n, int64_t ps, int64_t pe, int64_t i,
           bool is_start) {
    int64_t at = i;
    switch (kind) {
    case DL_SQL_FB_UNBOUNDED_PRECEDING:
        return ps;
    case DL_SQL_FB_UNBOUNDED_FOLLOWING:
        return pe;
    case DL_SQL_FB_PRECEDING:
        at = i - n;
        break;
    case DL_SQL_FB_FOLLOWING:
        at = i + n;
        break;
    case DL_SQL_FB_CURRENT_ROW:
        break;
    }
    if (!is_start) {
        at++;
    }
    return DL_MIN(DL_MAX(at, ps), pe);
}

dl_status
dl_sql_window_frame(const dl_sql_window_state *st, const dl_sql_wfn *fn, int64_t ps, int64_t pe,
                    int64_t i, int64_t *fs, int64_t *fe, dl_error *err) {
    const dl_sql_frame *fr = &fn->frame;
    if (!fr->is_range) {
        *fs = rows_bound(fr->start, fr->start_rows, ps, pe, i, true);
        *fe = rows_bound(fr->end, fr->end_rows, ps, pe, i, false);
        return DL_OK;
    }
    if (fr->start == DL_SQL_FB_UNBOUNDED_PRECEDING) {
        *fs = ps;
    } else {
        DL_TRY(range_bound(st, fr, true, ps, pe, i, fs, err));
    }
    if (fr->end == DL_SQL_FB_UNBOUNDED_FOLLOWING) {
        *fe = pe;
    } else {
        DL_TRY(range_bound(st, fr, false, ps, pe, i, fe, err));
    }
    return DL_OK;
}

/* ---- the operator -------------------------------------------------------------------------- */

static dl_status
sort_input(dl_sql_operator *op, dl_sql_window_state *st, dl_error *err) {
    const dl_sql_window_node *node = st->node;
    int32_t nk = node->n_partition + node->n_order;
    dl_sql_sort_key *keys =
        dl_arena_alloc_zero(op->exec->arena, (size_t)DL_MAX(nk, 1) * sizeof(dl_sql_sort_key));
    DL_CHECK(keys != NULL, err, DL_ERR_NOMEM, "out of memory starting a window");
    for (int32_t j = 0; j < node->n_partition; j++) {
        keys[j] = (dl_sql_sort_key){.expr = node->partition[j], .is_nulls_first = true};
    }
    for (int32_t j = 0; j < node->n_order; j++) {
        keys[node->n_partition + j] = node->order[j];
    }
    DL_TRY(dl_sql_sorter_init(&st->sorter, op->exec, st->child_schema, keys, nk, err));
    DL_TRY(dl_sql_sorter_drain(&st->sorter, op->children[0], err));
    DL_TRY(dl_sql_sorter_sort(&st->sorter, err));
    return materialize(st, err);
}

/*
 * The functions to run. first_value / last_value (and first / last) bound as aggregates with
 * IGNORE NULLS written after the call run as FIRST_VALUE / LAST_VALUE, which honour it; the
 * aggregate kernels only see an ignore-nulls argument.
 */
static dl_status
prepare_fns(dl_sql_window_state *st, dl_error *err) {
    const dl_sql_window_node *node = st->node;
    st->fns =
        dl_arena_alloc_zero(st->exec->arena, (size_t)DL_MAX(node->n_fns, 1) * sizeof(*st->fns));
    DL_CHECK(st->fns != NULL, err, DL_ERR_NOMEM, "out of memory starting a window");
    for (int32_t f = 0; f < node->n_fns; f++) {
        dl_sql_wfn *fn = &st->fns[f];
        *fn = node->fns[f];
        if (fn->kind != DL_SQL_WFN_AGGREGATE || !fn->ignore_nulls || fn->agg.fn == NULL ||
            fn->agg.n_args != 1) {
            continue;
        }
        const char *name = fn->agg.fn->name;
        if (strcmp(name, "first_value") == 0 || strcmp(name, "first") == 0) {
            fn->kind = DL_SQL_WFN_FIRST_VALUE;
        } else if (strcmp(name, "last_value") == 0 || strcmp(name, "last") == 0) {
            fn->kind = DL_SQL_WFN_LAST_VALUE;
        }
    }
    return DL_OK;
}

static dl_status
window_open(dl_sql_operator *op, dl_error *err) {
    dl_sql_window_state *st = dl_mem_alloc_zero(op->exec->alloc, sizeof(*st));
    DL_CHECK(st != NULL, err, DL_ERR_NOMEM, "out of memory starting a window");
    op->state = st;
    st->exec = op->exec;
    st->node = &op->plan->u.window;
    st->child_schema = op->children[0]->schema;
    st->n_cols = st->child_schema->n_fields;
    DL_TRY(prepare_fns(st, err));
    DL_TRY(sort_input(op, st, err));
    DL_TRY(find_groups(st, err));
    DL_TRY(eval_args(st, err));
    int32_t n_fns = st->node->n_fns;
    st->results = dl_arena_alloc_zero(op->exec->arena, (size_t)DL_MAX(n_fns, 1) * sizeof(void *));
    DL_CHECK(st->results != NULL, err, DL_ERR_NOMEM, "out of memory in a window");
    for (int32_t f = 0; f < n_fns; f++) {
        const dl_sql_wfn *fn = &st->fns[f];
        DL_TRY(dl_vec_new(op->exec->alloc, fn->agg.type, 0, &st->results[f], err));
        if (fn->kind == DL_SQL_WFN_AGGREGATE) {
            DL_TRY(dl_sql_window_agg_run(st, f, err));
        } else {
            DL_TRY(dl_sql_window_fn_run(st, f, err));
        }
        DL_CHECK(st->results[f]->length == st->n, err, DL_ERR_INTERNAL,
                 "window function %d produced %lld rows for %lld", (int)f,
                 (long long)st->results[f]->length, (long long)st->n);
    }
    return DL_OK;
}

static dl_status
window_next(dl_sql_operator *op, void *local, dl_batch *out, dl_error *err) {
    (void)local;
    dl_sql_window_state *st = op->state;
    int64_t n = DL_MIN(DL_BATCH_CAPACITY, st->n - st->pos);
    if (n <= 0) {
        dl_vec_batch_set_count(out, 0);
        return DL_OK;
    }
    for (int32_t c = 0; c < out->n_cols; c++) {
        dl_vector *src = c < st->n_cols ? st->cols[c] : st->results[c - st->n_cols];
        dl_vector *slice;
        DL_TRY(dl_vec_slice(src, st->pos, n, &slice, err));
        dl_vec_batch_set_col(out, c, slice);
    }
    dl_vec_batch_set_count(out, n);
    st->pos += n;
    return DL_OK;
}

static void
window_free(dl_sql_operator *op) {
    dl_sql_window_state *st = op->state;
    if (st == NULL) {
        return;
    }
    const dl_allocator *alloc = op->exec->alloc;
    dl_sql_sorter_destroy(&st->sorter);
    int32_t n_cols = st->sorter.rowlay.n_cols;
    for (int32_t c = 0; st->cols != NULL && c < n_cols; c++) {
        dl_vec_unref(st->cols[c]);
    }
    for (int32_t f = 0; f < st->node->n_fns; f++) {
        int32_t n_args =
            st->fns != NULL && st->args != NULL && st->args[f] != NULL ? st->fns[f].agg.n_args : 0;
        for (int32_t a = 0; a < n_args; a++) {
            dl_vec_unref(st->args[f][a]);
        }
        if (st->results != NULL) {
            dl_vec_unref(st->results[f]);
        }
    }
    size_t bytes = (size_t)(st->n + 1) * sizeof(uint32_t);
    dl_mem_free(alloc, st->part, bytes);
    dl_mem_free(alloc, st->peer_start, bytes);
    dl_mem_free(alloc, st->peer_end, bytes);
    dl_mem_free(alloc, st, sizeof(*st));
    op->state = NULL;
}

static const dl_sql_op_vtable window_vt = {
    .name = "window",
    .open = window_open,
    .next = window_next,
    .free = window_free,
};

static dl_status
check_fn(const dl_sql_wfn *fn, dl_error *err) {
    if (fn->kind != DL_SQL_WFN_AGGREGATE) {
        return DL_OK;
    }
    DL_CHECK(!fn->agg.is_distinct && fn->agg.filter == NULL, err, DL_ERR_UNSUPPORTED,
             "%s: DISTINCT and FILTER are not supported in window aggregates",
             fn->agg.fn != NULL ? fn->agg.fn->name : "aggregate");
    return DL_OK;
}

dl_status
dl_sql_op_window_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan, dl_sql_operator *child,
                     dl_sql_operator **out, dl_error *err) {
    const dl_sql_window_node *node = &plan->u.window;
    DL_CHECK(plan->n_cols == child->schema->n_fields + node->n_fns, err, DL_ERR_INTERNAL,
             "a window of %d columns over %d columns and %d functions", (int)plan->n_cols,
             (int)child->schema->n_fields, (int)node->n_fns);
    for (int32_t f = 0; f < node->n_fns; f++) {
        DL_TRY(check_fn(&node->fns[f], err));
    }
    dl_sql_operator *op = dl_sql_op_alloc(exec, &window_vt, plan, child, NULL);
    DL_CHECK(op != NULL, err, DL_ERR_NOMEM, "out of memory building a window");
    *out = op;
    return DL_OK;
}
