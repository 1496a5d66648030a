/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JOIN (DL_SQL_PLAN_JOIN, sql_plan.h): the hash join for every dl_sql_join_type, and nested
 * loops when there are no equi keys (CROSS, or a residual predicate only). The design is in
 * sql_op_join_int.h; the build side is sql_op_join_table.c, the probe side and outputs
 * sql_op_join_emit.c.
 *
 * open drains the right (build) child into the table; next probes with the left child's
 * batches and is parallel whenever the left child is: each thread has its own local state.
 */
#include <string.h>

#include "sql/exec/sql_op_join_int.h"

static dl_status
pair_type_new(dl_sql_join_state *st, const dl_sql_operator *op, dl_error *err) {
    const dl_type *ls = op->children[0]->schema;
    const dl_type *rs = op->children[1]->schema;
    int32_t n = ls->n_fields + rs->n_fields;
    dl_type_field *fields =
        dl_arena_alloc_zero(st->exec->arena, (size_t)DL_MAX(n, 1) * sizeof(dl_type_field));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory starting a join");
    for (int32_t c = 0; c < ls->n_fields; c++) {
        fields[c] = ls->fields[c];
    }
    for (int32_t c = 0; c < rs->n_fields; c++) {
        fields[ls->n_fields + c] = rs->fields[c];
    }
    return dl_vec_type_struct(st->exec->arena, fields, n, &st->pair_type, err);
}

static dl_status
join_open(dl_sql_operator *op, dl_error *err) {
    dl_sql_join_state *st = dl_mem_alloc_zero(op->exec->alloc, sizeof(*st));
    DL_CHECK(st != NULL, err, DL_ERR_NOMEM, "out of memory starting a join");
    op->state = st;
    const dl_sql_join *j = &op->plan->u.join;
    st->join = j;
    st->exec = op->exec;
    st->n_left = op->children[0]->schema->n_fields;
    st->n_right = op->children[1]->schema->n_fields;
    atomic_init(&st->n_locals, 0);
    atomic_init(&st->n_finished, 0);
    atomic_init(&st->is_emit_claimed, false);
    st->key_phys =
        dl_arena_alloc_zero(op->exec->arena, (size_t)DL_MAX(j->n_keys, 1) * sizeof(dl_vec_phys));
    DL_CHECK(st->key_phys != NULL, err, DL_ERR_NOMEM, "out of memory starting a join");
    for (int32_t k = 0; k < j->n_keys; k++) {
        st->key_phys[k] = dl_vec_type_phys(j->left_keys[k]->type);
    }
    bool is_filtering = j->type == DL_SQL_JOIN_T_SEMI || j->type == DL_SQL_JOIN_T_ANTI ||
                        j->type == DL_SQL_JOIN_T_MARK;
    if (j->residual != NULL && is_filtering) {
        DL_TRY(pair_type_new(st, op, err));
    }
    return dl_sql_join_build_run(st, op->children[1], err);
}

static void
join_local_free(dl_sql_operator *op, void *local) {
    dl_sql_join_state *st = op->state;
    dl_sql_join_local *l = local;
    if (l == NULL) {
        return;
    }
    const dl_allocator *alloc = op->exec->alloc;
    size_t nk = (size_t)DL_MAX(st->join->n_keys, 1);
    dl_sql_op_local_free(op->children[0], l->child);
    dl_vec_batch_free(l->in);
    dl_vec_batch_free(l->pairs);
    dl_sql_eval_free(l->residual);
    for (int32_t k = 0; k < st->join->n_keys; k++) {
        if (l->key_evals != NULL) {
            dl_sql_eval_free(l->key_evals[k]);
        }
        if (l->keys != NULL) {
            dl_vec_unref(l->keys[k]);
        }
    }
    dl_mem_free(alloc, l->key_evals, nk * sizeof(void *));
    dl_mem_free(alloc, l->keys, nk * sizeof(void *));
    dl_mem_free(alloc, l->ukeys, nk * sizeof(dl_vec_unified));
    dl_mem_free(alloc, l, sizeof(*l));
}

static dl_status
join_local_new(dl_sql_operator *op, void **out, dl_error *err) {
    dl_sql_join_state *st = op->state;
    const dl_sql_join *j = st->join;
    const dl_allocator *alloc = op->exec->alloc;
    dl_sql_join_local *l = dl_mem_alloc_zero(alloc, sizeof(*l));
    DL_CHECK(l != NULL, err, DL_ERR_NOMEM, "out of memory starting a join");
    *out = l;
    atomic_fetch_add(&st->n_locals, 1);
    size_t nk = (size_t)DL_MAX(j->n_keys, 1);
    l->key_evals = dl_mem_alloc_zero(alloc, nk * sizeof(void *));
    l->keys = dl_mem_alloc_zero(alloc, nk * sizeof(void *));
    l->ukeys = dl_mem_alloc_zero(alloc, nk * sizeof(dl_vec_unified));
    DL_CHECK(l->key_evals != NULL && l->keys != NULL && l->ukeys != NULL, err, DL_ERR_NOMEM,
             "out of memory starting a join");
    DL_TRY(dl_sql_op_local_new(op->children[0], &l->child, err));
    DL_TRY(dl_sql_batch_new(op->exec, op->children[0]->schema, &l->in, err));
    for (int32_t k = 0; k < j->n_keys; k++) {
        DL_TRY(dl_sql_eval_new(op->exec, j->left_keys[k], &l->key_evals[k], err));
    }
    if (j->residual != NULL) {
        DL_TRY(dl_sql_eval_new(op->exec, j->residual, &l->residual, err));
    }
    if (st->pair_type != NULL) {
        DL_TRY(dl_sql_batch_new(op->exec, st->pair_type, &l->pairs, err));
    }
    return DL_OK;
}

static dl_status
join_next(dl_sql_operator *op, void *local, dl_batch *out, dl_error *err) {
    return dl_sql_join_next(op, local, out, err);
}

static void
join_free(dl_sql_operator *op) {
    dl_sql_join_state *st = op->state;
    if (st == NULL) {
        return;
    }
    dl_sql_join_build_free(st);
    dl_mem_free(op->exec->alloc, st, sizeof(*st));
    op->state = NULL;
}

static const dl_sql_op_vtable join_vt = {
    .name = "hash_join",
    .open = join_open,
    .local_new = join_local_new,
    .next = join_next,
    .local_free = join_local_free,
    .free = join_free,
};

dl_status
dl_sql_op_join_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan, dl_sql_operator *left,
                   dl_sql_operator *right, dl_sql_operator **out, dl_error *err) {
    const dl_sql_join *j = &plan->u.join;
    DL_CHECK(left != NULL && right != NULL, err, DL_ERR_INTERNAL, "a join needs two inputs");
    DL_CHECK(j->n_keys == 0 ||
                 (j->left_keys != NULL && j->right_keys != NULL && j->is_null_equal != NULL),
             err, DL_ERR_INTERNAL, "a join's keys are incomplete");
    DL_CHECK(!j->is_null_aware || j->type == DL_SQL_JOIN_T_ANTI || j->type == DL_SQL_JOIN_T_MARK,
             err, DL_ERR_INTERNAL, "only ANTI and MARK joins can be null-aware");
    for (int32_t k = 0; k < j->n_keys; k++) {
        const dl_type *a = j->left_keys[k]->type;
        const dl_type *b = j->right_keys[k]->type;
        DL_CHECK(a->id == b->id && a->scale == b->scale, err, DL_ERR_INTERNAL,
                 "join key %d compares %s with %s", (int)k, dl_vec_type_name(a->id),
                 dl_vec_type_name(b->id));
    }
    dl_sql_operator *op = dl_sql_op_alloc(exec, &join_vt, plan, left, right);
    DL_CHECK(op != NULL, err, DL_ERR_NOMEM, "out of memory building a join");
    op->is_parallel = left->is_parallel;
    *out = op;
    return DL_OK;
}
