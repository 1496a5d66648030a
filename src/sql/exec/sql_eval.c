/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The expression evaluator (sql_exec.h, sql_eval_int.h): building the runtime tree of a bound
 * expression, and evaluating constants, column references, function calls (with NULL
 * propagation), casts, struct fields and subscripts. Logic and conditionals are in
 * sql_eval_logic.c.
 */
#include <string.h>

#include "sql/exec/sql_eval_int.h"
#include "sql/func/sql_fn_int.h"

/* ---- building ------------------------------------------------------------------------------ */

static dl_status
build_node(dl_sql_eval *ev, const dl_sql_bexpr *expr, dl_sql_enode **out, dl_error *err) {
    dl_sql_enode *node = dl_arena_alloc_zero(&ev->arena, sizeof(*node));
    DL_CHECK(node != NULL, err, DL_ERR_NOMEM, "out of memory preparing an expression");
    node->expr = expr;
    node->n_kids = expr->n_args;
    if (expr->n_args > 0) {
        node->kids = dl_arena_alloc_zero(&ev->arena, (size_t)expr->n_args * sizeof(void *));
        node->argv = dl_arena_alloc_zero(&ev->arena, (size_t)expr->n_args * sizeof(void *));
        node->arg_types = dl_arena_alloc_zero(&ev->arena, (size_t)expr->n_args * sizeof(void *));
        DL_CHECK(node->kids != NULL && node->argv != NULL && node->arg_types != NULL, err,
                 DL_ERR_NOMEM, "out of memory preparing an expression");
    }
    for (int32_t i = 0; i < expr->n_args; i++) {
        DL_TRY(build_node(ev, expr->args[i], &node->kids[i], err));
        node->arg_types[i] = expr->args[i]->type;
    }
    if (expr->kind == DL_SQL_BEXPR_CALL || expr->kind == DL_SQL_BEXPR_IN_LIST) {
        node->call.def = expr->fn;
        node->call.arg_types = node->arg_types;
        node->call.n_args = expr->kind == DL_SQL_BEXPR_IN_LIST ? 2 : expr->n_args;
        node->call.ret_type =
            expr->kind == DL_SQL_BEXPR_IN_LIST ? dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN) : expr->type;
        node->call.bind_data = expr->bind_data;
        node->call.env = &ev->exec->env;
        if (expr->kind == DL_SQL_BEXPR_IN_LIST && expr->n_args > 1) {
            node->arg_types[1] = expr->args[0]->type;
        }
    }
    *out = node;
    return DL_OK;
}

dl_status
dl_sql_eval_new(dl_sql_exec_ctx *exec, const dl_sql_bexpr *expr, dl_sql_eval **out, dl_error *err) {
    dl_sql_eval *ev = dl_mem_alloc_zero(exec->alloc, sizeof(*ev));
    DL_CHECK(ev != NULL, err, DL_ERR_NOMEM, "out of memory preparing an expression");
    ev->exec = exec;
    dl_arena_init(&ev->arena, exec->alloc, 0);
    dl_status s = build_node(ev, expr, &ev->root, err);
    if (s != DL_OK) {
        dl_sql_eval_free(ev);
        return s;
    }
    *out = ev;
    return DL_OK;
}

static void
free_node(dl_sql_enode *node) {
    if (node == NULL) {
        return;
    }
    for (int32_t i = 0; i < node->n_kids; i++) {
        free_node(node->kids[i]);
    }
    if (node->call.state != NULL && node->call.def != NULL && node->call.def->free_state != NULL) {
        node->call.def->free_state(&node->call);
    }
    dl_vec_unref(node->cache);
    node->cache = NULL;
    dl_sql_eval_in_set_free(node);
}

void
dl_sql_eval_free(dl_sql_eval *ev) {
    if (ev == NULL) {
        return;
    }
    free_node(ev->root);
    dl_arena_destroy(&ev->arena);
    dl_mem_free(ev->exec->alloc, ev, sizeof(*ev));
}

/* ---- shared helpers ------------------------------------------------------------------------ */

uint32_t *
dl_sql_enode_scratch(dl_sql_eval *ev, dl_sql_enode *node, int i) {
    if (node->scratch[i] == NULL) {
        node->scratch[i] = dl_arena_alloc(&ev->arena, DL_BATCH_CAPACITY * sizeof(uint32_t));
    }
    return node->scratch[i];
}

void
dl_sql_einput_sub(const dl_sql_einput *in, const uint32_t *k, int64_t n, uint32_t *phys,
                  dl_sql_einput *out) {
    if (in->rows != NULL) {
        for (int64_t j = 0; j < n; j++) {
            phys[j] = in->rows[k[j]];
        }
    } else {
        memcpy(phys, k, (size_t)n * sizeof(uint32_t));
    }
    out->batch = in->batch;
    out->rows = phys;
    out->count = n;
}

dl_status
dl_sql_enode_out(dl_sql_eval *ev, dl_sql_enode *node, const dl_type *type, int64_t count,
                 dl_vector **out, dl_error *err) {
    dl_vector *vec = node->cache;
    if (vec != NULL && dl_vec_is_unique(vec) && vec->type == type) {
        DL_TRY(dl_vec_reset(vec, err));
        DL_TRY(dl_vec_reserve(vec, count, err));
    } else {
        dl_vec_unref(vec);
        node->cache = NULL;
        DL_TRY(dl_vec_new(ev->exec->alloc, type, count, &vec, err));
        node->cache = vec;
    }
    *out = dl_vec_ref(vec);
    return DL_OK;
}

static void
set_error_offset(const dl_sql_bexpr *expr, dl_error *err) {
    if (err != NULL && err->offset < 0 && expr->loc != UINT32_MAX) {
        err->offset = (int64_t)expr->loc;
    }
}

/* ---- NULL propagation ---------------------------------------------------------------------- */

static bool
may_have_nulls(const dl_vector *v) {
    if (v->type->id == DL_VEC_TYPE_NULL || v->validity != NULL) {
        return true;
    }
    return v->layout == DL_VEC_DICT && v->dict->validity != NULL;
}

/* k for which every argument is non-NULL, into keep; returns how many. */
static int64_t
rows_without_nulls(dl_vector **argv, int32_t n, int64_t count, uint32_t *keep) {
    uint8_t ok[DL_BATCH_CAPACITY / 8] = {0};
    dl_vec_bits_fill(ok, 0, count, true);
    for (int32_t a = 0; a < n; a++) {
        if (!may_have_nulls(argv[a])) {
            continue;
        }
        dl_vec_unified u;
        dl_vec_unify(argv[a], count, &u);
        if (u.validity == NULL) {
            continue;
        }
        for (int64_t k = 0; k < count; k++) {
            if (!dl_vec_bit_get(u.validity, k)) {
                dl_vec_bit_clear(ok, k);
            }
        }
    }
    int64_t m = 0;
    for (int64_t k = 0; k < count; k++) {
        if (dl_vec_bit_get(ok, k)) {
            keep[m++] = (uint32_t)k;
        }
    }
    return m;
}

/* A DICT vector of count rows over res (FLAT, m rows): row keep[j] is res[j], others NULL. */
static dl_status
expand_rows(dl_vector *res, const uint32_t *keep, int64_t m, int64_t count, dl_vector **out,
            dl_error *err) {
    dl_vector *flat = res;
    if (res->layout != DL_VEC_FLAT) {
        DL_TRY(dl_vec_new(res->alloc, res->type, m, &flat, err));
        dl_status cs = dl_vec_copy_sel(flat, res, NULL, m, err);
        if (cs != DL_OK) {
            dl_vec_unref(flat);
            return cs;
        }
    } else {
        dl_vec_ref(flat);
    }
    dl_vector *vec = NULL;
    dl_status s = dl_vec_new(res->alloc, res->type, 0, &vec, err);
    if (s != DL_OK) {
        dl_vec_unref(flat);
        return s;
    }
    s = dl_vec_set_dict(vec, flat, err);
    dl_vec_unref(flat);
    if (s == DL_OK) {
        s = dl_vec_reserve(vec, count, err);
    }
    if (s == DL_OK) {
        dl_vec_set_length(vec, count);
        s = dl_vec_make_validity(vec, err);
    }
    if (s != DL_OK) {
        dl_vec_unref(vec);
        return s;
    }
    int32_t *idx = vec->data;
    int64_t j = 0;
    for (int64_t k = 0; k < count; k++) {
        if (j < m && keep[j] == (uint32_t)k) {
            idx[k] = (int32_t)j++;
        } else {
            idx[k] = 0;
            dl_vec_bit_clear(vec->validity, k);
        }
    }
    *out = vec;
    return DL_OK;
}

static dl_status
call_kernel(dl_sql_eval *ev, dl_sql_enode *node, dl_vector **argv, int64_t count, dl_vector **out,
            dl_error *err) {
    dl_vector *res = NULL;
    DL_TRY(dl_sql_enode_out(ev, node, node->call.ret_type, count, &res, err));
    dl_status s = node->call.def->scalar(&node->call, argv, count, res, err);
    if (s != DL_OK) {
        dl_vec_unref(res);
        set_error_offset(node->expr, err);
        return s;
    }
    *out = res;
    return DL_OK;
}

static dl_status
call_on_subset(dl_sql_eval *ev, dl_sql_enode *node, dl_vector **argv, int32_t n, int64_t count,
               const uint32_t *keep, int64_t m, dl_vector **out, dl_error *err) {
    dl_vector *sub[64] = {0};
    DL_CHECK(n <= 64, err, DL_ERR_UNSUPPORTED, "%s: more than 64 arguments", node->call.def->name);
    int32_t made = 0;
    dl_status s = DL_OK;
    for (; made < n && s == DL_OK; made++) {
        s = dl_sql_vec_select(argv[made], keep, m, &sub[made], err);
    }
    if (s != DL_OK) {
        made--;
    }
    dl_vector *res = NULL;
    if (s == DL_OK) {
        s = call_kernel(ev, node, sub, m, &res, err);
    }
    for (int32_t i = 0; i < made; i++) {
        dl_vec_unref(sub[i]);
    }
    if (s == DL_OK) {
        s = expand_rows(res, keep, m, count, out, err);
        dl_vec_unref(res);
    }
    return s;
}

dl_status
dl_sql_enode_call(dl_sql_eval *ev, dl_sql_enode *node, dl_vector **argv, int32_t n, int64_t count,
                  dl_vector **out, dl_error *err) {
    const dl_sql_fn_def *def = node->call.def;
    bool has_nulls = false;
    for (int32_t i = 0; i < n && def->is_null_propagating; i++) {
        has_nulls = has_nulls || may_have_nulls(argv[i]);
    }
    if (!has_nulls) {
        return call_kernel(ev, node, argv, count, out, err);
    }
    uint32_t *keep = dl_sql_enode_scratch(ev, node, 4);
    DL_CHECK(keep != NULL, err, DL_ERR_NOMEM, "out of memory evaluating %s", def->name);
    int64_t m = rows_without_nulls(argv, n, count, keep);
    if (m == count) {
        return call_kernel(ev, node, argv, count, out, err);
    }
    if (m == 0) {
        return dl_vec_new_const_null(ev->exec->alloc, node->call.ret_type, count, out, err);
    }
    return call_on_subset(ev, node, argv, n, count, keep, m, out, err);
}

/* ---- leaves, calls, casts ------------------------------------------------------------------ */

static dl_status
eval_args(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, dl_error *err) {
    for (int32_t i = 0; i < node->n_kids; i++) {
        dl_status s = dl_sql_enode_run(ev, node->kids[i], in, &node->argv[i], err);
        if (s != DL_OK) {
            for (int32_t j = 0; j < i; j++) {
                dl_vec_unref(node->argv[j]);
                node->argv[j] = NULL;
            }
            return s;
        }
    }
    return DL_OK;
}

static void
release_args(dl_sql_enode *node) {
    for (int32_t i = 0; i < node->n_kids; i++) {
        dl_vec_unref(node->argv[i]);
        node->argv[i] = NULL;
    }
}

/* Whether row i of a numeric divisor is zero. */
static bool
is_zero_at(const dl_vec_unified *u, dl_type_id id, int64_t i) {
    uint32_t e = u->sel[i];
    switch (id) {
    case DL_VEC_TYPE_BYTE:
        return ((const int8_t *)u->data)[e] == 0;
    case DL_VEC_TYPE_SHORT:
        return ((const int16_t *)u->data)[e] == 0;
    case DL_VEC_TYPE_INT:
        return ((const int32_t *)u->data)[e] == 0;
    case DL_VEC_TYPE_LONG:
        return ((const int64_t *)u->data)[e] == 0;
    case DL_VEC_TYPE_FLOAT:
        return ((const float *)u->data)[e] == 0.0F;
    case DL_VEC_TYPE_DOUBLE:
        return ((const double *)u->data)[e] == 0.0;
    case DL_VEC_TYPE_DECIMAL:
        return ((const dl_i128 *)u->data)[e] == 0;
    default:
        return false;
    }
}

/* The rows (k into the input) whose dividend must be evaluated: a non-NULL divisor, and not
 * zero where a zero divisor gives NULL. Returns how many, into keep. */
static int64_t
rows_to_divide(const dl_sql_enode *node, const dl_vector *divisor, int64_t count, uint32_t *keep) {
    const dl_sql_fn_def *def = node->call.def;
    const dl_type *rt = node->call.ret_type;
    bool is_numeric = rt->id == DL_VEC_TYPE_BYTE || rt->id == DL_VEC_TYPE_SHORT ||
                      rt->id == DL_VEC_TYPE_INT || rt->id == DL_VEC_TYPE_LONG ||
                      rt->id == DL_VEC_TYPE_FLOAT || rt->id == DL_VEC_TYPE_DOUBLE ||
                      rt->id == DL_VEC_TYPE_DECIMAL;
    /* an interval divided by zero fails in every mode (INTERVAL_DIVIDED_BY_ZERO) */
    bool zero_is_null =
        is_numeric && (def->is_try || node->call.env == NULL || !node->call.env->ansi);
    dl_vec_unified u;
    dl_vec_unify(divisor, count, &u);
    int64_t m = 0;
    for (int64_t k = 0; k < count; k++) {
        if ((u.validity != NULL && !dl_vec_bit_get(u.validity, k)) ||
            (zero_is_null && is_zero_at(&u, divisor->type->id, k))) {
            continue;
        }
        keep[m++] = (uint32_t)k;
    }
    return m;
}

/* A division (Spark's DivModLike): the divisor first, the dividend only on the rows that need
 * it (the others NULL, so the kernel makes them NULL). */
static dl_status
eval_divisor_first(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, dl_error *err) {
    DL_TRY(dl_sql_enode_run(ev, node->kids[1], in, &node->argv[1], err));
    uint32_t *keep = dl_sql_enode_scratch(ev, node, 2);
    uint32_t *phys = dl_sql_enode_scratch(ev, node, 3);
    dl_status s = keep != NULL && phys != NULL ? DL_OK : DL_ERR_NOMEM;
    if (s != DL_OK) {
        (void)dl_error_set(err, s, "out of memory evaluating %s", node->call.def->name);
    }
    int64_t m = s == DL_OK ? rows_to_divide(node, node->argv[1], in->count, keep) : 0;
    if (s == DL_OK && m == in->count) {
        s = dl_sql_enode_run(ev, node->kids[0], in, &node->argv[0], err);
    } else if (s == DL_OK && m == 0) {
        s = dl_vec_new_const_null(ev->exec->alloc, node->kids[0]->expr->type, in->count,
                                  &node->argv[0], err);
    } else if (s == DL_OK) {
        dl_sql_einput sub;
        dl_sql_einput_sub(in, keep, m, phys, &sub);
        dl_vector *part = NULL;
        s = dl_sql_enode_run(ev, node->kids[0], &sub, &part, err);
        if (s == DL_OK) {
            s = expand_rows(part, keep, m, in->count, &node->argv[0], err);
            dl_vec_unref(part);
        }
    }
    if (s != DL_OK) {
        dl_vec_unref(node->argv[1]);
        node->argv[1] = NULL;
    }
    return s;
}

static dl_status
eval_call(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, dl_vector **out,
          dl_error *err) {
    if (node->call.def->is_divisor_first && node->n_kids == 2) {
        DL_TRY(eval_divisor_first(ev, node, in, err));
    } else {
        DL_TRY(eval_args(ev, node, in, err));
    }
    dl_status s = dl_sql_enode_call(ev, node, node->argv, node->n_kids, in->count, out, err);
    release_args(node);
    return s;
}

/* dl_sql_cast; a write's cast (DL_SQL_CAST_STORE) names its column and table in errors. */
static dl_status
store_cast(dl_sql_eval *ev, const dl_sql_bexpr *expr, const dl_vector *arg, int64_t count,
           dl_vector *res, dl_error *err) {
    const dl_sql_store_target *target = expr->bind_data;
    if (target == NULL) {
        return dl_sql_cast(&ev->exec->env, expr->cast_mode, arg, count, res, err);
    }
    dl_sql_fn_env env = ev->exec->env;
    env.store_column = target->column;
    dl_status s = dl_sql_cast(&env, expr->cast_mode, arg, count, res, err);
    if (s != DL_OK && target->table != NULL) {
        dl_error_prefix(err, "cannot write column '%s' of %s", target->column, target->table);
    }
    return s;
}

static dl_status
eval_cast(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, dl_vector **out,
          dl_error *err) {
    dl_vector *arg = NULL;
    DL_TRY(dl_sql_enode_run(ev, node->kids[0], in, &arg, err));
    if (dl_vec_type_equal(arg->type, node->expr->type)) {
        *out = arg;
        return DL_OK;
    }
    dl_vector *res = NULL;
    dl_status s = dl_sql_enode_out(ev, node, node->expr->type, in->count, &res, err);
    if (s == DL_OK) {
        s = store_cast(ev, node->expr, arg, in->count, res, err);
        if (s != DL_OK) {
            dl_vec_unref(res);
            set_error_offset(node->expr, err);
        }
    }
    dl_vec_unref(arg);
    if (s == DL_OK) {
        *out = res;
    }
    return s;
}

static dl_status
eval_column(const dl_sql_bexpr *expr, const dl_sql_einput *in, dl_vector **out, dl_error *err) {
    DL_CHECK(in->batch != NULL && expr->index >= 0 && expr->index < in->batch->n_cols, err,
             DL_ERR_INTERNAL, "column reference #%d outside the input", (int)expr->index);
    return dl_sql_vec_select(in->batch->cols[expr->index], in->rows, in->count, out, err);
}

static dl_status
eval_const(const dl_sql_bexpr *expr, int64_t count, dl_vector **out, dl_error *err) {
    return dl_sql_vec_const_of(expr->value, 0, count, out, err);
}

/* ---- struct fields and subscripts ---------------------------------------------------------- */

/* A DICT vector of count rows over flat child: row k is element idx[k], or NULL where
 * is_valid is false. */
static dl_status
dict_over(const dl_vector *child, const int32_t *idx, const uint8_t *is_valid, int64_t count,
          dl_vector **out, dl_error *err) {
    dl_vector *vec = NULL;
    DL_TRY(dl_vec_new(child->alloc, child->type, 0, &vec, err));
    dl_status s = dl_vec_set_dict(vec, dl_sql_vec_shared(child), err);
    if (s == DL_OK) {
        s = dl_vec_reserve(vec, count, err);
    }
    if (s == DL_OK) {
        dl_vec_set_length(vec, count);
        memcpy(vec->data, idx, (size_t)count * sizeof(int32_t));
        s = dl_vec_make_validity(vec, err);
    }
    if (s != DL_OK) {
        dl_vec_unref(vec);
        return s;
    }
    memcpy(vec->validity, is_valid, dl_vec_bitmap_bytes(count));
    *out = vec;
    return DL_OK;
}

static dl_status
eval_field(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, dl_vector **out,
           dl_error *err) {
    dl_vector *base = NULL;
    DL_TRY(dl_sql_enode_run(ev, node->kids[0], in, &base, err));
    int64_t count = in->count;
    dl_vec_unified u;
    dl_vec_unify(base, count, &u);
    const dl_vector *child = u.flat->children[node->expr->field_index];
    int32_t idx[DL_BATCH_CAPACITY];
    uint8_t valid[DL_BATCH_CAPACITY / 8] = {0};
    for (int64_t k = 0; k < count; k++) {
        idx[k] = (int32_t)u.sel[k];
        dl_vec_bit_put(valid, k, u.validity == NULL || dl_vec_bit_get(u.validity, k));
    }
    dl_status s = dict_over(child, idx, valid, count, out, err);
    dl_vec_unref(base);
    return s;
}

/* arr[i] (0-based) for every row. */
static dl_status
subscript_array(dl_sql_eval *ev, const dl_vec_unified *ub, const dl_vector *index, int64_t count,
                dl_vector **out, dl_error *err) {
    dl_vec_unified ui;
    dl_vec_unify(index, count, &ui);
    int32_t idx[DL_BATCH_CAPACITY];
    uint8_t valid[DL_BATCH_CAPACITY / 8] = {0};
    const int32_t *offsets = ub->data;
    bool has_bad = false;
    int64_t bad = 0;
    int64_t bad_len = 0;
    for (int64_t k = 0; k < count; k++) {
        idx[k] = 0;
        bool is_null = (ub->validity != NULL && !dl_vec_bit_get(ub->validity, k)) ||
                       (ui.validity != NULL && !dl_vec_bit_get(ui.validity, k));
        int64_t i = is_null ? -1 : ((const int32_t *)ui.data)[ui.sel[k]];
        int64_t start = offsets[ub->sel[k]];
        int64_t len = offsets[ub->sel[k] + 1] - start;
        if (!is_null && (i < 0 || i >= len) && !has_bad) {
            has_bad = true;
            bad = i;
            bad_len = len;
        }
        if (!is_null && i >= 0 && i < len) {
            idx[k] = (int32_t)(start + i);
            dl_vec_bit_set(valid, k);
        }
    }
    if (has_bad && ev->exec->env.ansi) {
        return dl_sql_fail_run(err,
                               "use the SQL function get() to tolerate accessing an element at "
                               "an invalid index and return NULL instead, or set "
                               "spark.sql.ansi.enabled to false",
                               "[INVALID_ARRAY_INDEX] The index %lld is out of bounds. The array "
                               "has %lld elements.",
                               (long long)bad, (long long)bad_len);
    }
    return dict_over(ub->flat->children[0], idx, valid, count, out, err);
}

/* map[key] for every row: the value of the first entry whose key equals. */
static dl_status
subscript_map(const dl_vec_unified *ub, const dl_vector *key, int64_t count, dl_vector **out,
              dl_error *err) {
    const dl_vector *entries = ub->flat->children[0];
    const dl_vector *keys = entries->children[0];
    int32_t idx[DL_BATCH_CAPACITY];
    uint8_t valid[DL_BATCH_CAPACITY / 8] = {0};
    const int32_t *offsets = ub->data;
    for (int64_t k = 0; k < count; k++) {
        idx[k] = 0;
        if ((ub->validity != NULL && !dl_vec_bit_get(ub->validity, k)) || dl_vec_is_null(key, k)) {
            continue;
        }
        for (int64_t e = offsets[ub->sel[k]]; e < offsets[ub->sel[k] + 1]; e++) {
            if (dl_sql_value_equal(keys, e, key, k)) {
                idx[k] = (int32_t)e;
                dl_vec_bit_set(valid, k);
                break;
            }
        }
    }
    return dict_over(entries->children[1], idx, valid, count, out, err);
}

static dl_status
eval_subscript(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, dl_vector **out,
               dl_error *err) {
    DL_TRY(eval_args(ev, node, in, err));
    dl_vec_unified ub;
    dl_vec_unify(node->argv[0], in->count, &ub);
    dl_status s = DL_OK;
    if (node->argv[0]->type->id == DL_VEC_TYPE_ARRAY) {
        s = subscript_array(ev, &ub, node->argv[1], in->count, out, err);
    } else {
        s = subscript_map(&ub, node->argv[1], in->count, out, err);
    }
    if (s != DL_OK) {
        set_error_offset(node->expr, err);
    }
    release_args(node);
    return s;
}

/* ---- dispatch and the public API ----------------------------------------------------------- */

dl_status
dl_sql_enode_run(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, dl_vector **out,
                 dl_error *err) {
    const dl_sql_bexpr *expr = node->expr;
    switch (expr->kind) {
    case DL_SQL_BEXPR_CONST:
        return eval_const(expr, in->count, out, err);
    case DL_SQL_BEXPR_COLUMN:
        return eval_column(expr, in, out, err);
    case DL_SQL_BEXPR_CALL:
        return eval_call(ev, node, in, out, err);
    case DL_SQL_BEXPR_CAST:
        return eval_cast(ev, node, in, out, err);
    case DL_SQL_BEXPR_FIELD:
        return eval_field(ev, node, in, out, err);
    case DL_SQL_BEXPR_SUBSCRIPT:
        return eval_subscript(ev, node, in, out, err);
    case DL_SQL_BEXPR_CASE:
    case DL_SQL_BEXPR_COALESCE:
        return dl_sql_eval_case(ev, node, in, out, err);
    case DL_SQL_BEXPR_AND:
    case DL_SQL_BEXPR_OR:
    case DL_SQL_BEXPR_NOT:
    case DL_SQL_BEXPR_IS:
    case DL_SQL_BEXPR_IN_LIST:
        return dl_sql_eval_logic(ev, node, in, out, err);
    case DL_SQL_BEXPR_SUBQUERY:
    case DL_SQL_BEXPR_OUTER:
        break;
    }
    DL_FAIL(err, DL_ERR_INTERNAL, "expression kind %d cannot be evaluated (not planned)",
            (int)expr->kind);
}

dl_status
dl_sql_eval_run(dl_sql_eval *ev, const dl_batch *batch, dl_vector **out, dl_error *err) {
    dl_sql_einput in = {.batch = batch, .rows = batch->sel, .count = batch->count};
    return dl_sql_enode_run(ev, ev->root, &in, out, err);
}

dl_status
dl_sql_eval_select(dl_sql_eval *ev, dl_batch *batch, dl_error *err) {
    if (batch->count == 0) {
        return DL_OK;
    }
    dl_sql_einput in = {.batch = batch, .rows = batch->sel, .count = batch->count};
    if (ev->top_sel == NULL) {
        ev->top_sel = dl_arena_alloc(&ev->arena, DL_BATCH_CAPACITY * sizeof(uint32_t));
    }
    uint32_t *k = ev->top_sel;
    DL_CHECK(k != NULL, err, DL_ERR_NOMEM, "out of memory filtering rows");
    int64_t n = 0;
    DL_TRY(dl_sql_enode_select(ev, ev->root, &in, k, &n, err));
    if (n == batch->count) {
        return DL_OK;
    }
    if (batch->sel != NULL) {
        for (int64_t j = 0; j < n; j++) {
            k[j] = batch->sel[k[j]];
        }
    }
    return dl_vec_batch_set_sel(batch, k, n, err);
}

dl_status
dl_sql_eval_const(dl_sql_exec_ctx *exec, const dl_sql_bexpr *expr, dl_vector **out, dl_error *err) {
    dl_sql_eval *ev = NULL;
    DL_TRY(dl_sql_eval_new(exec, expr, &ev, err));
    dl_sql_einput in = {.batch = NULL, .rows = NULL, .count = 1};
    dl_status s = dl_sql_enode_run(ev, ev->root, &in, out, err);
    dl_sql_eval_free(ev);
    return s;
}
