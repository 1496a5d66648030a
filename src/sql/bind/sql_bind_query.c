/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Queries (sql_bind_int.h): WITH, VALUES, set operations, parenthesised queries, and the
 * ORDER BY / LIMIT / OFFSET that apply to a whole query; plus the plan-building helpers the
 * other binder files share (projections, renames, scopes).
 */
#include <string.h>

#include "sql/bind/sql_bind_int.h"

/* ---- helpers ------------------------------------------------------------------------------- */

dl_status
dl_sql_plan_project(dl_sql_binder *b, dl_sql_plan *child, dl_sql_bexpr **exprs,
                    const char *const *names, int32_t n, dl_sql_plan **out, dl_error *err) {
    dl_type_field *cols = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(*cols));
    DL_CHECK(cols != NULL, err, DL_ERR_NOMEM, "out of memory planning a projection");
    for (int32_t i = 0; i < n; i++) {
        cols[i] = (dl_type_field){.name = names[i], .type = exprs[i]->type, .is_nullable = true};
    }
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(b->arena, DL_SQL_PLAN_PROJECT, cols, n, &p, err));
    p->left = child;
    /* The caller's array may be its own (even on its stack): keep a copy. */
    p->u.project.exprs = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(void *));
    DL_CHECK(p->u.project.exprs != NULL, err, DL_ERR_NOMEM, "out of memory planning a projection");
    dl_sql_copy(p->u.project.exprs, exprs, (size_t)n * sizeof(void *));
    p->u.project.n_exprs = n;
    p->est_rows = child->est_rows;
    *out = p;
    return DL_OK;
}

dl_status
dl_sql_plan_rename(dl_sql_binder *b, dl_sql_plan *plan, const dl_sql_ident_list *names,
                   uint32_t loc, dl_sql_plan **out, dl_error *err) {
    if (names->n == 0) {
        *out = plan;
        return DL_OK;
    }
    if ((int32_t)names->n != plan->n_cols) {
        DL_SQL_BIND_FAIL(b, loc, DL_ERR_SQL_BIND, err,
                         "[ASSIGNMENT_ARITY_MISMATCH] %u column names given for a "
                         "relation of %d columns",
                         (unsigned)names->n, (int)plan->n_cols);
    }
    dl_sql_bexpr **exprs = dl_arena_alloc_zero(b->arena, names->n * sizeof(void *));
    const char **cnames = dl_arena_alloc_zero(b->arena, names->n * sizeof(char *));
    DL_CHECK(exprs != NULL && cnames != NULL, err, DL_ERR_NOMEM, "out of memory renaming");
    for (int32_t i = 0; i < plan->n_cols; i++) {
        exprs[i] = dl_sql_bexpr_column(b->arena, i, plan->schema->fields[i].type);
        DL_CHECK(exprs[i] != NULL, err, DL_ERR_NOMEM, "out of memory renaming");
        cnames[i] = names->items[i].name.ptr;
    }
    return dl_sql_plan_project(b, plan, exprs, cnames, plan->n_cols, out, err);
}

dl_status
dl_sql_scope_of(dl_sql_binder *b, const dl_sql_plan *plan, const char *qual, dl_sql_scope *out,
                dl_error *err) {
    memset(out, 0, sizeof(*out));
    out->cols = dl_arena_alloc_zero(b->arena, (size_t)(plan->n_cols + 1) * sizeof(dl_sql_bcol));
    DL_CHECK(out->cols != NULL, err, DL_ERR_NOMEM, "out of memory binding names");
    for (int32_t i = 0; i < plan->n_cols; i++) {
        out->cols[i] = (dl_sql_bcol){.name = plan->schema->fields[i].name,
                                     .qual = qual,
                                     .type = plan->schema->fields[i].type,
                                     .index = i};
    }
    out->n = plan->n_cols;
    return DL_OK;
}

/* A constant, non-negative integer clause (LIMIT, OFFSET). */
dl_status
dl_sql_binder_count_clause(dl_sql_binder *b, const dl_sql_expr *ast, const char *what, int64_t *out,
                           dl_error *err) {
    dl_sql_scope empty = {0};
    dl_sql_bctx cx = {.b = b, .scope = &empty, .clause = what};
    dl_sql_bexpr *e = NULL;
    DL_TRY(dl_sql_binder_expr(&cx, ast, &e, err));
    if (!dl_sql_bexpr_is_constant(e)) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[INVALID_LIMIT_LIKE_EXPRESSION.IS_UNFOLDABLE] the %s expression "
                         "must be a constant",
                         what);
    }
    DL_TRY(dl_sql_binder_cast(b, e, dl_vec_type_prim(DL_VEC_TYPE_LONG), &e, err));
    dl_vector *v = NULL;
    DL_TRY(dl_sql_binder_eval(b, e, &v, err));
    bool is_null = dl_vec_is_null(v, 0);
    int64_t n = is_null ? 0 : dl_sql_vec_i64(v, 0);
    dl_vec_unref(v);
    if (is_null || n < 0) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE] the %s expression "
                         "must be a non-negative integer",
                         what);
    }
    *out = n;
    return DL_OK;
}

/* LIMIT / OFFSET on top of plan. */
dl_status
dl_sql_binder_limit(dl_sql_binder *b, const dl_sql_query *q, dl_sql_plan **plan, dl_error *err) {
    if (q->limit == NULL && q->offset == NULL) {
        return DL_OK;
    }
    int64_t limit = -1;
    int64_t offset = 0;
    if (q->limit != NULL) {
        DL_TRY(dl_sql_binder_count_clause(b, q->limit, "LIMIT", &limit, err));
    }
    if (q->offset != NULL) {
        DL_TRY(dl_sql_binder_count_clause(b, q->offset, "OFFSET", &offset, err));
    }
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(b->arena, DL_SQL_PLAN_LIMIT, (*plan)->schema->fields, (*plan)->n_cols,
                           &p, err));
    p->left = *plan;
    p->u.limit.limit = limit;
    p->u.limit.offset = offset;
    p->loc = q->limit != NULL ? q->limit->loc : q->offset->loc;
    *plan = p;
    return DL_OK;
}

/* A SORT node over plan by keys. */
dl_status
dl_sql_plan_sort(dl_sql_binder *b, dl_sql_plan *plan, dl_sql_sort_key *keys, int32_t n,
                 uint32_t loc, dl_sql_plan **out, dl_error *err) {
    dl_sql_plan *p = NULL;
    DL_TRY(
        dl_sql_plan_new(b->arena, DL_SQL_PLAN_SORT, plan->schema->fields, plan->n_cols, &p, err));
    p->left = plan;
    p->loc = loc;
    p->u.sort.keys = keys;
    p->u.sort.n_keys = n;
    p->u.sort.limit = -1;
    p->est_rows = plan->est_rows;
    *out = p;
    return DL_OK;
}

/* An ORDER BY ordinal (1-based position in the output), as a column reference. */
static dl_status
ordinal_key(dl_sql_binder *b, const dl_sql_expr *e, const dl_sql_plan *plan, dl_sql_bexpr **out,
            dl_error *err) {
    int64_t pos = 0;
    for (size_t k = 0; k < e->u.lit.text.len && pos < 100000; k++) {
        pos = pos * 10 + (e->u.lit.text.ptr[k] - '0');
    }
    if (pos < 1 || pos > plan->n_cols) {
        DL_SQL_BIND_FAIL(b, e->loc, DL_ERR_SQL_BIND, err,
                         "[ORDER_BY_POS_OUT_OF_RANGE] ORDER BY position %lld is not in the select "
                         "list (1 to %d)",
                         (long long)pos, (int)plan->n_cols);
    }
    *out = dl_sql_bexpr_column(b->arena, (int32_t)pos - 1, plan->schema->fields[pos - 1].type);
    DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory binding ORDER BY");
    return DL_OK;
}

/* ORDER BY of a query whose rows are plan's output (VALUES, set operations, nested queries):
 * items are output names, ordinals or expressions over the output. */
static dl_status
bind_output_order(dl_sql_binder *b, const dl_sql_query *q, const dl_sql_scope *outer,
                  dl_sql_plan **plan, dl_error *err) {
    uint32_t n = q->order_by.n;
    if (n == 0) {
        return DL_OK;
    }
    dl_sql_scope scope = {0};
    DL_TRY(dl_sql_scope_of(b, *plan, NULL, &scope, err));
    scope.outer = outer;
    dl_sql_bctx cx = {.b = b, .scope = &scope, .clause = "ORDER BY"};
    dl_sql_sort_key *keys = dl_arena_alloc_zero(b->arena, n * sizeof(*keys));
    DL_CHECK(keys != NULL, err, DL_ERR_NOMEM, "out of memory binding ORDER BY");
    for (uint32_t i = 0; i < n; i++) {
        const dl_sql_sort_item *it = &q->order_by.items[i];
        const dl_sql_expr *e = it->expr;
        if (e->kind == DL_SQL_EXPR_LITERAL && e->u.lit.kind == DL_SQL_LIT_INT) {
            DL_TRY(ordinal_key(b, e, *plan, &keys[i].expr, err));
        } else {
            DL_TRY(dl_sql_binder_expr(&cx, e, &keys[i].expr, err));
        }
        keys[i].is_desc = it->dir == DL_SQL_SORT_DESC;
        keys[i].is_nulls_first = it->nulls == DL_SQL_NULLS_ORDER_DEFAULT
                                     ? !keys[i].is_desc
                                     : it->nulls == DL_SQL_NULLS_FIRST;
    }
    return dl_sql_plan_sort(b, *plan, keys, (int32_t)n, q->order_by.items[0].expr->loc, plan, err);
}

/* ---- VALUES --------------------------------------------------------------------------------- */

static dl_status
bind_values(dl_sql_binder *b, const dl_sql_query *q, const dl_sql_scope *outer, dl_sql_plan **out,
            dl_error *err) {
    uint32_t n_rows = q->u.values.n_rows;
    uint32_t n_cols = q->u.values.rows[0].n;
    dl_sql_scope empty = {.outer = outer};
    dl_sql_bctx cx = {.b = b, .scope = &empty, .clause = "VALUES"};
    dl_sql_bexpr ***rows = dl_arena_alloc_zero(b->arena, n_rows * sizeof(void *));
    DL_CHECK(rows != NULL, err, DL_ERR_NOMEM, "out of memory binding VALUES");
    for (uint32_t r = 0; r < n_rows; r++) {
        const dl_sql_expr_list *row = &q->u.values.rows[r];
        if (row->n != n_cols) {
            DL_SQL_BIND_FAIL(b, row->items[0]->loc, DL_ERR_SQL_BIND, err,
                             "[INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH] VALUES row %u has "
                             "%u values, the first row has %u",
                             (unsigned)r + 1, (unsigned)row->n, (unsigned)n_cols);
        }
        rows[r] = dl_arena_alloc_zero(b->arena, n_cols * sizeof(void *));
        DL_CHECK(rows[r] != NULL, err, DL_ERR_NOMEM, "out of memory binding VALUES");
        for (uint32_t c = 0; c < n_cols; c++) {
            DL_TRY(dl_sql_binder_expr(&cx, row->items[c], &rows[r][c], err));
            if (!dl_sql_bexpr_is_constant(rows[r][c])) {
                DL_SQL_BIND_FAIL(b, row->items[c]->loc, DL_ERR_SQL_BIND, err,
                                 "[INVALID_INLINE_TABLE.CANNOT_EVALUATE_EXPRESSION_IN_"
                                 "INLINE_TABLE] VALUES can hold only constant expressions");
            }
        }
    }
    dl_type_field *cols = dl_arena_alloc_zero(b->arena, (n_cols + 1) * sizeof(*cols));
    DL_CHECK(cols != NULL, err, DL_ERR_NOMEM, "out of memory binding VALUES");
    for (uint32_t c = 0; c < n_cols; c++) {
        const dl_type *t = rows[0][c]->type;
        for (uint32_t r = 1; r < n_rows; r++) {
            DL_TRY(dl_sql_binder_common_type(b, t, rows[r][c]->type, rows[r][c]->loc, "VALUES", &t,
                                             err));
        }
        for (uint32_t r = 0; r < n_rows; r++) {
            DL_TRY(dl_sql_binder_cast(b, rows[r][c], t, &rows[r][c], err));
        }
        cols[c] = (dl_type_field){.name = dl_arena_printf(b->arena, "col%u", (unsigned)c + 1),
                                  .type = t,
                                  .is_nullable = true};
    }
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(b->arena, DL_SQL_PLAN_VALUES, cols, (int32_t)n_cols, &p, err));
    p->u.values.rows = rows;
    p->u.values.n_rows = n_rows;
    p->est_rows = n_rows;
    p->loc = q->loc;
    *out = p;
    return DL_OK;
}

/* ---- set operations ------------------------------------------------------------------------- */

/* plan's columns cast to types (a PROJECT when any differs). */
static dl_status
cast_columns(dl_sql_binder *b, dl_sql_plan *plan, const dl_type *const *types, dl_sql_plan **out,
             dl_error *err) {
    bool same = true;
    for (int32_t i = 0; i < plan->n_cols && same; i++) {
        same = dl_vec_type_equal(plan->schema->fields[i].type, types[i]);
    }
    if (same) {
        *out = plan;
        return DL_OK;
    }
    dl_sql_bexpr **exprs = dl_arena_alloc_zero(b->arena, (size_t)plan->n_cols * sizeof(void *));
    const char **names = dl_arena_alloc_zero(b->arena, (size_t)plan->n_cols * sizeof(char *));
    DL_CHECK(exprs != NULL && names != NULL, err, DL_ERR_NOMEM, "out of memory binding a set op");
    for (int32_t i = 0; i < plan->n_cols; i++) {
        exprs[i] = dl_sql_bexpr_column(b->arena, i, plan->schema->fields[i].type);
        DL_CHECK(exprs[i] != NULL, err, DL_ERR_NOMEM, "out of memory binding a set op");
        DL_TRY(dl_sql_binder_cast(b, exprs[i], types[i], &exprs[i], err));
        names[i] = plan->schema->fields[i].name;
    }
    return dl_sql_plan_project(b, plan, exprs, names, plan->n_cols, out, err);
}

static dl_status
bind_setop(dl_sql_binder *b, const dl_sql_query *q, const dl_sql_scope *outer, dl_sql_plan **out,
           dl_error *err) {
    static const char *const names[] = {[DL_SQL_SETOP_UNION] = "UNION",
                                        [DL_SQL_SETOP_INTERSECT] = "INTERSECT",
                                        [DL_SQL_SETOP_EXCEPT] = "EXCEPT"};
    const char *what = names[q->u.setop.op];
    dl_sql_plan *left = NULL;
    dl_sql_plan *right = NULL;
    DL_TRY(dl_sql_binder_query(b, q->u.setop.left, outer, &left, err));
    DL_TRY(dl_sql_binder_query(b, q->u.setop.right, outer, &right, err));
    if (left->n_cols != right->n_cols) {
        DL_SQL_BIND_FAIL(b, q->loc, DL_ERR_SQL_BIND, err,
                         "[NUM_COLUMNS_MISMATCH] %s can only be performed on inputs with "
                         "the same number of columns, but the first input has %d columns "
                         "and the second input has %d columns",
                         what, (int)left->n_cols, (int)right->n_cols);
    }
    int32_t n = left->n_cols;
    const dl_type **types = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(void *));
    dl_type_field *cols = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(*cols));
    DL_CHECK(types != NULL && cols != NULL, err, DL_ERR_NOMEM, "out of memory binding %s", what);
    for (int32_t i = 0; i < n; i++) {
        DL_TRY(dl_sql_binder_common_type(b, left->schema->fields[i].type,
                                         right->schema->fields[i].type, q->loc, what, &types[i],
                                         err));
        cols[i] = (dl_type_field){
            .name = left->schema->fields[i].name, .type = types[i], .is_nullable = true};
    }
    DL_TRY(cast_columns(b, left, types, &left, err));
    DL_TRY(cast_columns(b, right, types, &right, err));
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(b->arena, DL_SQL_PLAN_SETOP, cols, n, &p, err));
    p->loc = q->loc;
    p->left = left;
    p->right = right;
    p->u.setop.type = (dl_sql_setop_type)q->u.setop.op;
    p->u.setop.is_all = q->u.setop.quant == DL_SQL_QUANT_ALL;
    p->est_rows = left->est_rows + right->est_rows;
    *out = p;
    return DL_OK;
}

/* ---- queries ------------------------------------------------------------------------------- */

static dl_status
bind_query_body(dl_sql_binder *b, const dl_sql_query *q, const dl_sql_scope *outer,
                dl_sql_plan **out, dl_error *err) {
    switch (q->kind) {
    case DL_SQL_QUERY_SELECT:
        return dl_sql_binder_select(b, q, outer, out, err);
    case DL_SQL_QUERY_VALUES:
        DL_TRY(bind_values(b, q, outer, out, err));
        break;
    case DL_SQL_QUERY_SETOP:
        DL_TRY(bind_setop(b, q, outer, out, err));
        break;
    case DL_SQL_QUERY_NESTED:
        DL_TRY(dl_sql_binder_query(b, q->u.nested, outer, out, err));
        break;
    }
    DL_TRY(bind_output_order(b, q, outer, out, err));
    return dl_sql_binder_limit(b, q, out, err);
}

dl_status
dl_sql_binder_query(dl_sql_binder *b, const dl_sql_query *q, const dl_sql_scope *outer,
                    dl_sql_plan **out, dl_error *err) {
    if (b->depth >= 200) {
        DL_SQL_BIND_FAIL(b, q->loc, DL_ERR_LIMIT, err, "queries are nested more than 200 deep");
    }
    b->depth++;
    dl_sql_cte_ref *saved = b->ctes;
    dl_status s = DL_OK;
    for (uint32_t i = 0; i < q->n_ctes && s == DL_OK; i++) {
        dl_sql_cte_ref *ref = dl_arena_alloc_zero(b->arena, sizeof(*ref));
        if (ref == NULL) {
            (void)dl_error_set(err, DL_ERR_NOMEM, "out of memory binding WITH");
            s = DL_ERR_NOMEM;
            break;
        }
        ref->cte = &q->ctes[i];
        ref->next = b->ctes;
        b->ctes = ref;
    }
    if (s == DL_OK) {
        s = bind_query_body(b, q, outer, out, err);
    }
    b->ctes = saved;
    b->depth--;
    return s;
}
