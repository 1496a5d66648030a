/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Streaming operators: FILTER (refines the selection of its child's batch in place), PROJECT
 * (evaluates expressions; column references share the input vectors) and LIMIT/OFFSET (trims
 * the selection and stops pulling once satisfied).
 */
#include <string.h>

#include "sql/exec/sql_exec_int.h"

dl_status
dl_sql_batch_trim(dl_batch *batch, int64_t from, int64_t n, dl_error *err) {
    if (from == 0 && n == batch->count) {
        return DL_OK;
    }
    if (batch->sel == NULL) {
        DL_ASSERT(from + n <= DL_BATCH_CAPACITY);
        return dl_vec_batch_set_sel(batch, dl_sql_identity_sel(from), n, err);
    }
    DL_ASSERT(batch->sel == batch->sel_storage.rows);
    memmove(batch->sel_storage.rows, batch->sel + from, (size_t)n * sizeof(uint32_t));
    batch->sel_storage.count = n;
    batch->count = n;
    return DL_OK;
}

/* ---- FILTER -------------------------------------------------------------------------------- */

typedef struct filter_local {
    void *child;
    dl_sql_eval *eval;
} filter_local;

static dl_status
filter_local_new(dl_sql_operator *op, void **out, dl_error *err) {
    filter_local *l = dl_mem_alloc_zero(op->exec->alloc, sizeof(*l));
    DL_CHECK(l != NULL, err, DL_ERR_NOMEM, "out of memory starting a filter");
    *out = l;
    DL_TRY(dl_sql_op_local_new(op->children[0], &l->child, err));
    return dl_sql_eval_new(op->exec, op->plan->u.cond, &l->eval, err);
}

static void
filter_local_free(dl_sql_operator *op, void *local) {
    filter_local *l = local;
    if (l == NULL) {
        return;
    }
    dl_sql_op_local_free(op->children[0], l->child);
    dl_sql_eval_free(l->eval);
    dl_mem_free(op->exec->alloc, l, sizeof(*l));
}

static dl_status
filter_next(dl_sql_operator *op, void *local, dl_batch *out, dl_error *err) {
    filter_local *l = local;
    for (;;) {
        DL_TRY(dl_sql_op_next(op->children[0], l->child, out, err));
        if (out->count == 0) {
            return DL_OK;
        }
        DL_TRY(dl_sql_eval_select(l->eval, out, err));
        if (out->count > 0) {
            return DL_OK;
        }
    }
}

static const dl_sql_op_vtable filter_vt = {
    .name = "filter",
    .local_new = filter_local_new,
    .next = filter_next,
    .local_free = filter_local_free,
};

dl_status
dl_sql_op_filter_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan, dl_sql_operator *child,
                     dl_sql_operator **out, dl_error *err) {
    dl_sql_operator *op = dl_sql_op_alloc(exec, &filter_vt, plan, child, NULL);
    DL_CHECK(op != NULL, err, DL_ERR_NOMEM, "out of memory building a filter");
    op->is_parallel = child->is_parallel;
    *out = op;
    return DL_OK;
}

/* ---- PROJECT ------------------------------------------------------------------------------- */

typedef struct project_local {
    void *child;
    dl_batch *in;
    dl_sql_eval **evals;
    int32_t n_evals;
} project_local;

static void
project_local_free(dl_sql_operator *op, void *local) {
    project_local *l = local;
    if (l == NULL) {
        return;
    }
    dl_sql_op_local_free(op->children[0], l->child);
    dl_vec_batch_free(l->in);
    for (int32_t i = 0; i < l->n_evals; i++) {
        dl_sql_eval_free(l->evals[i]);
    }
    dl_mem_free(op->exec->alloc, l->evals, (size_t)l->n_evals * sizeof(void *));
    dl_mem_free(op->exec->alloc, l, sizeof(*l));
}

static dl_status
project_local_new(dl_sql_operator *op, void **out, dl_error *err) {
    const dl_sql_plan *plan = op->plan;
    project_local *l = dl_mem_alloc_zero(op->exec->alloc, sizeof(*l));
    DL_CHECK(l != NULL, err, DL_ERR_NOMEM, "out of memory starting a projection");
    *out = l;
    DL_TRY(dl_sql_op_local_new(op->children[0], &l->child, err));
    DL_TRY(dl_sql_batch_new(op->exec, op->children[0]->schema, &l->in, err));
    int32_t n = plan->u.project.n_exprs;
    l->evals = dl_mem_alloc_zero(op->exec->alloc, (size_t)n * sizeof(void *));
    DL_CHECK(l->evals != NULL || n == 0, err, DL_ERR_NOMEM, "out of memory starting a projection");
    l->n_evals = n;
    for (int32_t i = 0; i < n; i++) {
        DL_TRY(dl_sql_eval_new(op->exec, plan->u.project.exprs[i], &l->evals[i], err));
    }
    return DL_OK;
}

static dl_status
project_next(dl_sql_operator *op, void *local, dl_batch *out, dl_error *err) {
    project_local *l = local;
    DL_TRY(dl_sql_op_next(op->children[0], l->child, l->in, err));
    if (l->in->count == 0) {
        dl_vec_batch_set_count(out, 0);
        return DL_OK;
    }
    for (int32_t i = 0; i < l->n_evals; i++) {
        dl_vector *vec = NULL;
        DL_TRY(dl_sql_eval_run(l->evals[i], l->in, &vec, err));
        dl_vec_batch_set_col(out, i, vec);
    }
    dl_vec_batch_set_count(out, l->in->count);
    return DL_OK;
}

static const dl_sql_op_vtable project_vt = {
    .name = "project",
    .local_new = project_local_new,
    .next = project_next,
    .local_free = project_local_free,
};

dl_status
dl_sql_op_project_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan, dl_sql_operator *child,
                      dl_sql_operator **out, dl_error *err) {
    dl_sql_operator *op = dl_sql_op_alloc(exec, &project_vt, plan, child, NULL);
    DL_CHECK(op != NULL, err, DL_ERR_NOMEM, "out of memory building a projection");
    op->is_parallel = child->is_parallel;
    *out = op;
    return DL_OK;
}

/* ---- LIMIT / OFFSET ------------------------------------------------------------------------ */

typedef struct limit_local {
    void *child;
    int64_t to_skip; /* offset rows still to drop */
    int64_t left;    /* rows still to return; -1 = unlimited */
} limit_local;

static dl_status
limit_local_new(dl_sql_operator *op, void **out, dl_error *err) {
    limit_local *l = dl_mem_alloc_zero(op->exec->alloc, sizeof(*l));
    DL_CHECK(l != NULL, err, DL_ERR_NOMEM, "out of memory starting a limit");
    l->to_skip = op->plan->u.limit.offset;
    l->left = op->plan->u.limit.limit;
    *out = l;
    return dl_sql_op_local_new(op->children[0], &l->child, err);
}

static void
limit_local_free(dl_sql_operator *op, void *local) {
    limit_local *l = local;
    if (l == NULL) {
        return;
    }
    dl_sql_op_local_free(op->children[0], l->child);
    dl_mem_free(op->exec->alloc, l, sizeof(*l));
}

static dl_status
limit_next(dl_sql_operator *op, void *local, dl_batch *out, dl_error *err) {
    limit_local *l = local;
    for (;;) {
        if (l->left == 0) {
            dl_vec_batch_set_count(out, 0);
            return DL_OK;
        }
        DL_TRY(dl_sql_op_next(op->children[0], l->child, out, err));
        if (out->count == 0) {
            return DL_OK;
        }
        int64_t from = 0;
        if (l->to_skip > 0) {
            from = DL_MIN(l->to_skip, out->count);
            l->to_skip -= from;
            if (from == out->count) {
                continue;
            }
        }
        int64_t n = out->count - from;
        if (l->left >= 0) {
            n = DL_MIN(n, l->left);
            l->left -= n;
        }
        return dl_sql_batch_trim(out, from, n, err);
    }
}

static const dl_sql_op_vtable limit_vt = {
    .name = "limit",
    .local_new = limit_local_new,
    .next = limit_next,
    .local_free = limit_local_free,
};

dl_status
dl_sql_op_limit_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan, dl_sql_operator *child,
                    dl_sql_operator **out, dl_error *err) {
    dl_sql_operator *op = dl_sql_op_alloc(exec, &limit_vt, plan, child, NULL);
    DL_CHECK(op != NULL, err, DL_ERR_NOMEM, "out of memory building a limit");
    *out = op;
    return DL_OK;
}
