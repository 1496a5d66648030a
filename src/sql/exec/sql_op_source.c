/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sources without files: VALUES (constant rows), range(start, end, step) and ROWS (rows a
 * callback produces when the operator opens: DESCRIBE HISTORY, SHOW TABLES, delta_log). VALUES
 * and ROWS materialise their rows once at open and hand out the chunks by reference; range
 * generates its ids per batch. All three are parallel: threads take chunks or id ranges from
 * a shared atomic cursor.
 */
#include <string.h>

#include "sql/exec/sql_exec_int.h"

typedef struct source_state {
    dl_sql_rows rows;        /* VALUES, ROWS */
    _Atomic(int64_t) cursor; /* next chunk (VALUES, ROWS) or next id index (RANGE) */
    int64_t n_ids;           /* RANGE: how many ids */
} source_state;

/* The number of ids of range(start, end, step). */
static int64_t
range_count(const dl_sql_range *r) {
    if (r->step > 0 && r->end > r->start) {
        dl_u128 span = (dl_u128)((dl_i128)r->end - (dl_i128)r->start);
        return (int64_t)((span + (dl_u128)r->step - 1) / (dl_u128)r->step);
    }
    if (r->step < 0 && r->end < r->start) {
        dl_u128 span = (dl_u128)((dl_i128)r->start - (dl_i128)r->end);
        dl_u128 step = (dl_u128)(-(dl_i128)r->step);
        return (int64_t)((span + step - 1) / step);
    }
    return 0;
}

static dl_status
values_fill(dl_sql_operator *op, source_state *st, dl_error *err) {
    const dl_sql_plan *plan = op->plan;
    for (int64_t r = 0; r < plan->u.values.n_rows; r++) {
        dl_batch *tail = NULL;
        DL_TRY(dl_sql_rows_tail(&st->rows, &tail, err));
        for (int32_t c = 0; c < plan->n_cols; c++) {
            dl_vector *v = NULL;
            dl_status e = dl_sql_eval_const(op->exec, plan->u.values.rows[r][c], &v, err);
            if (e != DL_OK && e != DL_ERR_NOMEM && e != DL_ERR_INTERRUPTED) {
                /* Spark evaluates an inline table's rows while it analyses the statement and
                 * wraps what fails; the cause stays in the message */
                dl_error_prefix(err,
                                "[INVALID_INLINE_TABLE.FAILED_SQL_EXPRESSION_EVALUATION] Invalid "
                                "inline table: failed to evaluate the value of VALUES row %lld, "
                                "column %d",
                                (long long)r + 1, (int)c + 1);
            }
            DL_TRY(e);
            dl_status s = dl_vec_copy_sel(tail->cols[c], v, NULL, 1, err);
            dl_vec_unref(v);
            DL_TRY(s);
        }
        dl_sql_rows_commit_row(&st->rows);
    }
    return DL_OK;
}

static dl_status
source_open(dl_sql_operator *op, dl_error *err) {
    source_state *st = dl_mem_alloc_zero(op->exec->alloc, sizeof(*st));
    DL_CHECK(st != NULL, err, DL_ERR_NOMEM, "out of memory opening a source");
    op->state = st;
    dl_sql_rows_init(&st->rows, op->exec->alloc, op->schema);
    atomic_init(&st->cursor, 0);
    switch (op->plan->kind) {
    case DL_SQL_PLAN_VALUES:
        return values_fill(op, st, err);
    case DL_SQL_PLAN_ROWS:
        return op->plan->u.rows.produce(op->plan->u.rows.ctx, &st->rows, err);
    default:
        st->n_ids = range_count(&op->plan->u.range);
        return DL_OK;
    }
}

static void
source_free(dl_sql_operator *op) {
    source_state *st = op->state;
    if (st == NULL) {
        return;
    }
    dl_sql_rows_destroy(&st->rows);
    dl_mem_free(op->exec->alloc, st, sizeof(*st));
    op->state = NULL;
}

static dl_status
range_next(dl_sql_operator *op, source_state *st, dl_batch *out, dl_error *err) {
    int64_t first = atomic_fetch_add(&st->cursor, DL_BATCH_CAPACITY);
    if (first >= st->n_ids) {
        dl_vec_batch_set_count(out, 0);
        return DL_OK;
    }
    int64_t n = DL_MIN((int64_t)DL_BATCH_CAPACITY, st->n_ids - first);
    DL_TRY(dl_vec_batch_reset(out, err));
    dl_vector *col = out->cols[0];
    DL_TRY(dl_vec_reserve(col, n, err));
    const dl_sql_range *r = &op->plan->u.range;
    int64_t *ids = col->data;
    for (int64_t i = 0; i < n; i++) {
        ids[i] = (int64_t)((dl_u128)r->start + (dl_u128)(first + i) * (dl_u128)r->step);
    }
    dl_vec_set_length(col, n);
    dl_vec_batch_set_count(out, n);
    return DL_OK;
}

static dl_status
source_next(dl_sql_operator *op, void *local, dl_batch *out, dl_error *err) {
    (void)local;
    source_state *st = op->state;
    if (op->plan->kind == DL_SQL_PLAN_RANGE) {
        return range_next(op, st, out, err);
    }
    int64_t chunk = atomic_fetch_add(&st->cursor, 1);
    if (chunk >= st->rows.n_chunks) {
        dl_vec_batch_set_count(out, 0);
        return DL_OK;
    }
    const dl_batch *src = st->rows.chunks[chunk];
    for (int32_t c = 0; c < out->n_cols; c++) {
        dl_vec_batch_set_col(out, c, dl_vec_ref(src->cols[c]));
    }
    dl_vec_batch_set_count(out, src->count);
    return DL_OK;
}

static const dl_sql_op_vtable source_vt = {
    .name = "source",
    .open = source_open,
    .next = source_next,
    .free = source_free,
};

dl_status
dl_sql_op_source_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan, dl_sql_operator **out,
                     dl_error *err) {
    dl_sql_operator *op = dl_sql_op_alloc(exec, &source_vt, plan, NULL, NULL);
    DL_CHECK(op != NULL, err, DL_ERR_NOMEM, "out of memory building a source");
    op->is_parallel = true;
    *out = op;
    return DL_OK;
}
