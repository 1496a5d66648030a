/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The operator framework (sql_exec.h): building the operator tree from a plan, opening it,
 * local states, pulling batches, draining a child into a sink on the pool, and slicing batch
 * columns by their selection.
 */
#include <string.h>
#include <time.h>

#include "sql/exec/sql_exec_int.h"

/* ---- identity selections ----------------------------------------------------------------- */

#define SEQ1(n)    (n)
#define SEQ2(n)    SEQ1(n), SEQ1((n) + 1)
#define SEQ4(n)    SEQ2(n), SEQ2((n) + 2)
#define SEQ8(n)    SEQ4(n), SEQ4((n) + 4)
#define SEQ16(n)   SEQ8(n), SEQ8((n) + 8)
#define SEQ32(n)   SEQ16(n), SEQ16((n) + 16)
#define SEQ64(n)   SEQ32(n), SEQ32((n) + 32)
#define SEQ128(n)  SEQ64(n), SEQ64((n) + 64)
#define SEQ256(n)  SEQ128(n), SEQ128((n) + 128)
#define SEQ512(n)  SEQ256(n), SEQ256((n) + 256)
#define SEQ1024(n) SEQ512(n), SEQ512((n) + 512)
#define SEQ2048(n) SEQ1024(n), SEQ1024((n) + 1024)

_Static_assert(DL_BATCH_CAPACITY == 2048, "identity below is spelled for 2048 rows");
static const uint32_t identity[2 * DL_BATCH_CAPACITY] = {SEQ2048(0u), SEQ2048(2048u)};

const uint32_t *
dl_sql_identity_sel(int64_t offset) {
    DL_ASSERT(offset >= 0 && offset <= DL_BATCH_CAPACITY);
    return identity + offset;
}

/* ---- operators ----------------------------------------------------------------------------- */

dl_sql_operator *
dl_sql_op_alloc(dl_sql_exec_ctx *exec, const dl_sql_op_vtable *vt, const dl_sql_plan *plan,
                dl_sql_operator *left, dl_sql_operator *right) {
    dl_sql_operator *op = dl_arena_alloc_zero(exec->arena, sizeof(*op));
    if (op == NULL) {
        return NULL;
    }
    op->vt = vt;
    op->plan = plan;
    op->schema = plan->schema;
    op->exec = exec;
    op->children[0] = left;
    op->children[1] = right;
    op->n_children = right != NULL ? 2 : (left != NULL ? 1 : 0);
    for (int32_t i = 0; i < op->n_children; i++) {
        op->children[i]->parent = op;
    }
    if (exec->is_profiling) {
        op->profile = dl_arena_alloc_zero(exec->arena, sizeof(*op->profile));
        if (op->profile == NULL) {
            return NULL;
        }
        atomic_init(&op->profile->rows, 0);
        atomic_init(&op->profile->batches, 0);
        atomic_init(&op->profile->self_ns, 0);
    }
    return op;
}

/* ---- profiling (EXPLAIN ANALYZE) ------------------------------------------------------------
 *
 * A timed region (an operator's open, next or sink) measures its wall time on its thread and
 * subtracts the timed regions nested in it on the same thread (the children's calls): each
 * thread keeps the nanoseconds of the nested regions of the region it is in. A drain is a region
 * of its own that nobody is charged for, so a breaker's open is not charged for the children it
 * drains (they are, and its sink is, on whichever thread ran them). */

static _Thread_local int64_t nested_ns;

typedef struct prof_mark {
    int64_t start;
    int64_t saved;
} prof_mark;

int64_t
dl_sql_exec_now_ns(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
        return 0;
    }
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static prof_mark
prof_begin(void) {
    prof_mark m = {.start = dl_sql_exec_now_ns(), .saved = nested_ns};
    nested_ns = 0;
    return m;
}

/* Ends the region: returns its own time and counts all of it as nested in the enclosing one. */
static int64_t
prof_end(prof_mark m) {
    int64_t elapsed = dl_sql_exec_now_ns() - m.start;
    int64_t self = elapsed - nested_ns;
    nested_ns = m.saved + elapsed;
    return self > 0 ? self : 0;
}

static void
prof_charge(dl_sql_operator *op, prof_mark m) {
    int64_t self = prof_end(m);
    if (op != NULL && op->profile != NULL) {
        (void)atomic_fetch_add_explicit(&op->profile->self_ns, self, memory_order_relaxed);
    }
}

static dl_status
build_node(dl_sql_exec_ctx *exec, const dl_sql_plan *plan, dl_sql_operator *left,
           dl_sql_operator *right, dl_sql_operator **out, dl_error *err) {
    switch (plan->kind) {
    case DL_SQL_PLAN_SCAN:
        return dl_sql_op_scan_new(exec, plan, out, err);
    case DL_SQL_PLAN_VALUES:
    case DL_SQL_PLAN_RANGE:
    case DL_SQL_PLAN_ROWS:
        return dl_sql_op_source_new(exec, plan, out, err);
    case DL_SQL_PLAN_FILTER:
        return dl_sql_op_filter_new(exec, plan, left, out, err);
    case DL_SQL_PLAN_PROJECT:
        return dl_sql_op_project_new(exec, plan, left, out, err);
    case DL_SQL_PLAN_AGGREGATE:
        return dl_sql_op_agg_new(exec, plan, left, out, err);
    case DL_SQL_PLAN_LIMIT:
        return dl_sql_op_limit_new(exec, plan, left, out, err);
    case DL_SQL_PLAN_JOIN:
        return dl_sql_op_join_new(exec, plan, left, right, out, err);
    case DL_SQL_PLAN_SETOP:
        return dl_sql_op_setop_new(exec, plan, left, right, out, err);
    case DL_SQL_PLAN_SORT:
        return dl_sql_op_sort_new(exec, plan, left, out, err);
    case DL_SQL_PLAN_WINDOW:
        return dl_sql_op_window_new(exec, plan, left, out, err);
    }
    DL_FAIL(err, DL_ERR_INTERNAL, "plan node kind %d has no operator", (int)plan->kind);
}

dl_status
dl_sql_op_build(dl_sql_exec_ctx *exec, const dl_sql_plan *plan, dl_sql_operator **out,
                dl_error *err) {
    dl_sql_operator *left = NULL;
    dl_sql_operator *right = NULL;
    dl_status s = DL_OK;
    if (plan->left != NULL) {
        s = dl_sql_op_build(exec, plan->left, &left, err);
    }
    if (s == DL_OK && plan->right != NULL) {
        s = dl_sql_op_build(exec, plan->right, &right, err);
    }
    if (s == DL_OK) {
        s = build_node(exec, plan, left, right, out, err);
    }
    if (s != DL_OK) {
        dl_sql_op_free(left);
        dl_sql_op_free(right);
    }
    return s;
}

dl_status
dl_sql_op_open(dl_sql_operator *op, dl_error *err) {
    if (op->is_open) {
        return DL_OK;
    }
    for (int32_t i = 0; i < op->n_children; i++) {
        DL_TRY(dl_sql_op_open(op->children[i], err));
    }
    if (op->vt->open != NULL && op->profile != NULL) {
        prof_mark m = prof_begin();
        dl_status s = op->vt->open(op, err);
        prof_charge(op, m);
        DL_TRY(s);
    } else if (op->vt->open != NULL) {
        DL_TRY(op->vt->open(op, err));
    }
    op->is_open = true;
    return DL_OK;
}

dl_status
dl_sql_op_local_new(dl_sql_operator *op, void **out, dl_error *err) {
    *out = NULL;
    if (op->vt->local_new == NULL) {
        return DL_OK;
    }
    return op->vt->local_new(op, out, err);
}

void
dl_sql_op_local_free(dl_sql_operator *op, void *local) {
    if (op->vt->local_free != NULL) {
        op->vt->local_free(op, local);
    }
}

dl_status
dl_sql_op_next(dl_sql_operator *op, void *local, dl_batch *out, dl_error *err) {
    DL_CHECK(!dl_sql_exec_is_interrupted(op->exec), err, DL_ERR_INTERRUPTED,
             "the statement was interrupted");
    if (op->profile == NULL) {
        return op->vt->next(op, local, out, err);
    }
    prof_mark m = prof_begin();
    dl_status s = op->vt->next(op, local, out, err);
    prof_charge(op, m);
    if (s == DL_OK && out->count > 0) {
        (void)atomic_fetch_add_explicit(&op->profile->rows, out->count, memory_order_relaxed);
        (void)atomic_fetch_add_explicit(&op->profile->batches, 1, memory_order_relaxed);
    }
    return s;
}

void
dl_sql_op_free(dl_sql_operator *op) {
    if (op == NULL) {
        return;
    }
    void (*release)(dl_sql_operator * op) = op->vt->free;
    if (release != NULL) {
        release(op);
    }
    for (int32_t i = 0; i < op->n_children; i++) {
        dl_sql_op_free(op->children[i]);
    }
    op->n_children = 0;
}

dl_status
dl_sql_batch_new(dl_sql_exec_ctx *exec, const dl_type *schema, dl_batch **out, dl_error *err) {
    return dl_vec_batch_new(exec->alloc, schema, 0, out, err);
}

/* ---- draining ------------------------------------------------------------------------------ */

typedef struct drain_task {
    dl_sql_operator *child;
    const dl_sql_sink *sink;
    void *ctx;
    void *sink_local;
    atomic_bool *is_failed;
} drain_task;

static dl_status
drain_loop(drain_task *t, void *child_local, dl_batch *batch, dl_error *err) {
    for (;;) {
        if (atomic_load_explicit(t->is_failed, memory_order_relaxed)) {
            return DL_OK; /* another task failed: its error is the one reported */
        }
        DL_TRY(dl_sql_op_next(t->child, child_local, batch, err));
        if (batch->count == 0) {
            return DL_OK;
        }
        if (t->child->profile == NULL) {
            DL_TRY(t->sink->sink(t->ctx, t->sink_local, batch, err));
            continue;
        }
        prof_mark m = prof_begin();
        dl_status s = t->sink->sink(t->ctx, t->sink_local, batch, err);
        prof_charge(t->child->parent, m);
        DL_TRY(s);
    }
}

static dl_status
drain_task_run(void *arg, dl_error *err) {
    drain_task *t = arg;
    void *child_local = NULL;
    dl_batch *batch = NULL;
    dl_status s = DL_OK;
    if (t->sink->local_new != NULL) {
        s = t->sink->local_new(t->ctx, &t->sink_local, err);
    }
    if (s == DL_OK) {
        s = dl_sql_op_local_new(t->child, &child_local, err);
    }
    if (s == DL_OK) {
        s = dl_sql_batch_new(t->child->exec, t->child->schema, &batch, err);
    }
    if (s == DL_OK) {
        s = drain_loop(t, child_local, batch, err);
    }
    dl_vec_batch_free(batch);
    dl_sql_op_local_free(t->child, child_local);
    if (s != DL_OK) {
        atomic_store(t->is_failed, true);
    }
    return s;
}

static dl_status
drain_finish(drain_task *tasks, int n, const dl_sql_sink *sink, void *ctx, dl_status s,
             dl_error *err) {
    for (int i = 0; i < n; i++) {
        if (s == DL_OK && sink->combine != NULL) {
            s = sink->combine(ctx, tasks[i].sink_local, err);
        }
        if (sink->local_free != NULL && tasks[i].sink_local != NULL) {
            sink->local_free(ctx, tasks[i].sink_local);
        }
    }
    return s;
}

dl_status
dl_sql_op_drain(dl_sql_operator *child, const dl_sql_sink *sink, void *ctx, dl_error *err) {
    dl_sql_exec_ctx *exec = child->exec;
    int n = child->is_parallel && exec->pool != NULL ? exec->n_threads : 1;
    drain_task *tasks = dl_mem_alloc_zero(exec->alloc, (size_t)n * sizeof(*tasks));
    DL_CHECK(tasks != NULL, err, DL_ERR_NOMEM, "out of memory starting %d tasks", n);
    atomic_bool is_failed;
    atomic_init(&is_failed, false);
    for (int i = 0; i < n; i++) {
        tasks[i] = (drain_task){.child = child, .sink = sink, .ctx = ctx, .is_failed = &is_failed};
    }
    dl_status s = DL_OK;
    bool is_profiling = child->profile != NULL;
    prof_mark m = is_profiling ? prof_begin() : (prof_mark){0};
    if (n == 1) {
        s = drain_task_run(&tasks[0], err);
    } else {
        dl_pool_group group;
        dl_pool_group_init(&group, exec->pool);
        for (int i = 0; i < n && s == DL_OK; i++) {
            s = dl_pool_submit(&group, drain_task_run, &tasks[i], err);
        }
        dl_error wait_err;
        dl_error_clear(&wait_err);
        dl_status ws = dl_pool_group_wait(&group, &wait_err);
        if (s == DL_OK && ws != DL_OK) {
            s = ws;
            if (err != NULL) {
                *err = wait_err;
            }
        }
    }
    if (is_profiling) {
        (void)prof_end(m); /* charged to the children and the sink, where they ran */
    }
    s = drain_finish(tasks, n, sink, ctx, s, err);
    dl_mem_free(exec->alloc, tasks, (size_t)n * sizeof(*tasks));
    return s;
}

dl_status
dl_sql_exec_parallel(dl_sql_exec_ctx *exec, dl_pool_fn fn, void *args, size_t arg_size, int n,
                     dl_error *err) {
    uint8_t *base = args;
    dl_status s = DL_OK;
    if (exec->pool == NULL || n <= 1) {
        for (int i = 0; i < n && s == DL_OK; i++) {
            s = fn(base + (size_t)i * arg_size, err);
        }
        return s;
    }
    dl_pool_group group;
    dl_pool_group_init(&group, exec->pool);
    for (int i = 0; i < n && s == DL_OK; i++) {
        s = dl_pool_submit(&group, fn, base + (size_t)i * arg_size, err);
    }
    dl_error wait_err;
    dl_error_clear(&wait_err);
    dl_status ws = dl_pool_group_wait(&group, &wait_err);
    if (s == DL_OK && ws != DL_OK) {
        s = ws;
        if (err != NULL) {
            *err = wait_err;
        }
    }
    return s;
}

/* ---- slicing by selection ------------------------------------------------------------------ */

static dl_status
slice_dict(const dl_vector *col, const uint32_t *sel, int64_t count, dl_vector **out,
           dl_error *err) {
    const dl_vector *dict = col->layout == DL_VEC_DICT ? col->dict : col;
    dl_vector *vec = NULL;
    DL_TRY(dl_vec_new(col->alloc, col->type, 0, &vec, err));
    dl_status s = dl_vec_set_dict(vec, dl_sql_vec_shared(dict), err);
    if (s == DL_OK) {
        s = dl_vec_reserve(vec, count, err);
    }
    if (s != DL_OK) {
        dl_vec_unref(vec);
        return s;
    }
    int32_t *idx = vec->data;
    if (col->layout == DL_VEC_DICT) {
        const int32_t *src = col->data;
        for (int64_t k = 0; k < count; k++) {
            idx[k] = src[sel[k]];
        }
    } else {
        for (int64_t k = 0; k < count; k++) {
            idx[k] = (int32_t)sel[k];
        }
    }
    dl_vec_set_length(vec, count);
    if (col->layout == DL_VEC_DICT && col->validity != NULL) {
        s = dl_vec_make_validity(vec, err);
        if (s != DL_OK) {
            dl_vec_unref(vec);
            return s;
        }
        for (int64_t k = 0; k < count; k++) {
            if (!dl_vec_bit_get(col->validity, sel[k])) {
                dl_vec_bit_clear(vec->validity, k);
            }
        }
    }
    *out = vec;
    return DL_OK;
}

dl_status
dl_sql_vec_select(const dl_vector *col, const uint32_t *sel, int64_t count, dl_vector **out,
                  dl_error *err) {
    if (sel == NULL) {
        if (col->length == count) {
            *out = dl_vec_ref(dl_sql_vec_shared(col));
            return DL_OK;
        }
        return dl_vec_slice(col, 0, count, out, err);
    }
    if (col->layout == DL_VEC_CONST) {
        /* A selection may repeat rows (a join's probe row with several matches): more rows
         * than the constant holds. */
        return dl_sql_vec_const_of(col, 0, count, out, err);
    }
    return slice_dict(col, sel, count, out, err);
}

dl_status
dl_sql_batch_column(const dl_batch *batch, int32_t col, dl_vector **out, dl_error *err) {
    return dl_sql_vec_select(batch->cols[col], batch->sel, batch->count, out, err);
}

dl_status
dl_sql_plan_run(dl_sql_exec_ctx *exec, dl_sql_plan *plan, int64_t max_rows,
                dl_status (*take)(void *ctx, const dl_batch *batch, dl_error *err), void *ctx,
                dl_error *err) {
    DL_TRY(dl_sql_optimize(exec->arena, &plan, err));
    dl_sql_operator *root = NULL;
    void *local = NULL;
    dl_batch *batch = NULL;
    dl_status s = dl_sql_op_build(exec, plan, &root, err);
    if (s == DL_OK) {
        s = dl_sql_op_open(root, err);
    }
    if (s == DL_OK) {
        s = dl_sql_op_local_new(root, &local, err);
    }
    if (s == DL_OK) {
        s = dl_sql_batch_new(exec, plan->schema, &batch, err);
    }
    int64_t rows = 0;
    while (s == DL_OK && (max_rows < 0 || rows <= max_rows)) {
        s = dl_sql_op_next(root, local, batch, err);
        if (s != DL_OK || batch->count == 0) {
            break;
        }
        rows += batch->count;
        s = take(ctx, batch, err);
    }
    if (root != NULL) {
        dl_sql_op_local_free(root, local);
        dl_sql_op_free(root);
    }
    dl_vec_batch_free(batch);
    return s;
}
