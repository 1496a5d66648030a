/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Subqueries (sql_bind_int.h, "Subqueries"). Uncorrelated scalar subqueries and EXISTS run
 * while binding and become constants. IN subqueries become joins once their clause is bound:
 * a WHERE conjunct `x IN (q)` a SEMI join, `x NOT IN (q)` a null-aware ANTI join, and anywhere
 * else a MARK join whose mark column replaces the expression.
 */
#include <string.h>

#include "sql/bind/sql_bind_int.h"

/* ---- running a plan while binding ------------------------------------------------------------ */

typedef struct scalar_sink {
    dl_vector *value; /* first row, column 0 */
    int64_t rows;
} scalar_sink;

static dl_status
scalar_take(void *ctx, const dl_batch *batch, dl_error *err) {
    scalar_sink *s = ctx;
    if (s->rows == 0 && batch->count > 0 && batch->n_cols > 0) {
        dl_vector *col = NULL;
        DL_TRY(dl_sql_batch_column(batch, 0, &col, err));
        dl_status st = dl_sql_vec_const_of(col, 0, 1, &s->value, err);
        dl_vec_unref(col);
        DL_TRY(st);
    }
    s->rows += batch->count;
    return DL_OK;
}

dl_status
dl_sql_run_scalar(dl_sql_binder *b, dl_sql_plan *plan, uint32_t loc, dl_sql_bexpr **out,
                  dl_error *err) {
    scalar_sink sink = {0};
    dl_status s = dl_sql_plan_run(b->exec, plan, 2, scalar_take, &sink, err);
    if (s == DL_OK && sink.rows > 1) {
        s = dl_sql_binder_fail(b, loc, DL_ERR_DATA, err,
                               "[SCALAR_SUBQUERY_TOO_MANY_ROWS] more than one row returned by a "
                               "subquery used as an expression");
    }
    if (s == DL_OK && sink.value == NULL) {
        s = dl_vec_new_const_null(b->exec->alloc, plan->schema->fields[0].type, 1, &sink.value,
                                  err);
    }
    if (s == DL_OK) {
        *out = dl_sql_bexpr_const(b->arena, sink.value, 0);
        s = *out != NULL ? DL_OK : DL_ERR_NOMEM;
        if (s == DL_OK) {
            (*out)->loc = loc;
        }
    }
    dl_vec_unref(sink.value);
    if (s != DL_OK) {
        dl_sql_binder_locate(b, loc, err);
    }
    return s;
}

/* ---- binding --------------------------------------------------------------------------------- */

static dl_status
bool_const(dl_sql_binder *b, bool value, uint32_t loc, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_expr lit = {.kind = DL_SQL_EXPR_LITERAL, .loc = loc, .height = 1};
    lit.u.lit.kind = DL_SQL_LIT_BOOL;
    lit.u.lit.b = value;
    return dl_sql_binder_literal(b, &lit, out, err);
}

/* EXISTS (q) without correlation: whether q returns a row. */
static dl_status
run_exists(dl_sql_binder *b, dl_sql_plan *plan, uint32_t loc, bool is_not, dl_sql_bexpr **out,
           dl_error *err) {
    dl_sql_plan *lim = NULL;
    DL_TRY(dl_sql_plan_new(b->arena, DL_SQL_PLAN_LIMIT, plan->schema->fields, plan->n_cols, &lim,
                           err));
    lim->left = plan;
    lim->u.limit.limit = 1;
    scalar_sink sink = {0};
    dl_status s = dl_sql_plan_run(b->exec, lim, 1, scalar_take, &sink, err);
    dl_vec_unref(sink.value);
    DL_TRY(s);
    return bool_const(b, (sink.rows > 0) != is_not, loc, out, err);
}

/* The subquery's single column cast to type (a PROJECT when needed). */
static dl_status
cast_column(dl_sql_binder *b, dl_sql_plan *plan, const dl_type *type, dl_sql_plan **out,
            dl_error *err) {
    if (dl_vec_type_equal(plan->schema->fields[0].type, type)) {
        *out = plan;
        return DL_OK;
    }
    dl_sql_bexpr *col = dl_sql_bexpr_column(b->arena, 0, plan->schema->fields[0].type);
    DL_CHECK(col != NULL, err, DL_ERR_NOMEM, "out of memory binding a subquery");
    DL_TRY(dl_sql_binder_cast(b, col, type, &col, err));
    const char *name = plan->schema->fields[0].name;
    return dl_sql_plan_project(b, plan, &col, &name, 1, out, err);
}

static dl_status
bind_in_subquery(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_plan *plan, bool corr,
                 dl_sql_bexpr **out, dl_error *err) {
    dl_sql_binder *b = cx->b;
    dl_sql_bexpr *arg = NULL;
    DL_TRY(dl_sql_binder_expr(cx, ast->u.in_query.arg, &arg, err));
    const dl_type *t = NULL;
    DL_TRY(dl_sql_binder_common_type(b, arg->type, plan->schema->fields[0].type, ast->loc, "IN", &t,
                                     err));
    DL_TRY(dl_sql_binder_cast(b, arg, t, &arg, err));
    DL_TRY(cast_column(b, plan, t, &plan, err));
    dl_sql_bexpr *e = dl_sql_bexpr_new(b, DL_SQL_BEXPR_SUBQUERY,
                                       dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN), ast->loc, 1);
    DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding IN");
    e->args[0] = arg;
    e->subq_kind = DL_SQL_SUBQ_IN;
    e->subquery = plan;
    e->is_not = ast->u.in_query.is_not;
    e->depth = corr ? 1 : 0; /* depth > 0 marks a correlated subquery */
    *out = e;
    return DL_OK;
}

/* True when e reads the enclosing query (one level up) and nothing of the subquery. */
static bool
is_outer_only(const dl_sql_bexpr *e, bool *has_outer) {
    if (e->kind == DL_SQL_BEXPR_COLUMN || e->kind == DL_SQL_BEXPR_SUBQUERY ||
        (e->kind == DL_SQL_BEXPR_OUTER && e->depth != 1)) {
        return false;
    }
    *has_outer = *has_outer || e->kind == DL_SQL_BEXPR_OUTER;
    for (int32_t i = 0; i < e->n_args; i++) {
        if (!is_outer_only(e->args[i], has_outer)) {
            return false;
        }
    }
    return true;
}

/* A copy of an outer-only e over the FROM scope (OUTER becomes COLUMN), or NULL. */
static dl_sql_bexpr *
outer_as_from(dl_sql_binder *b, const dl_sql_bexpr *e) {
    dl_sql_bexpr *c = dl_arena_memdup(b->arena, e, sizeof(*e));
    if (c == NULL) {
        return NULL;
    }
    if (e->n_args > 0) {
        c->args = dl_arena_alloc_zero(b->arena, (size_t)e->n_args * sizeof(void *));
        if (c->args == NULL) {
            return NULL;
        }
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        c->args[i] = outer_as_from(b, e->args[i]);
        if (c->args[i] == NULL) {
            return NULL;
        }
    }
    if (c->kind == DL_SQL_BEXPR_OUTER) {
        c->kind = DL_SQL_BEXPR_COLUMN;
        c->depth = 0;
    }
    return c;
}

/* The GROUP BY key an outer-only expression equals, or -1. */
static int32_t
outer_key(dl_sql_binder *b, const dl_sql_aggctx *agg, const dl_sql_bexpr *e) {
    bool has_outer = false;
    if (!is_outer_only(e, &has_outer) || !has_outer) {
        return -1;
    }
    const dl_sql_bexpr *f = outer_as_from(b, e);
    for (int32_t k = 0; f != NULL && k < agg->n_keys; k++) {
        if (dl_sql_bexpr_equal(f, agg->keys[k])) {
            return k;
        }
    }
    return -1;
}

/*
 * In an aggregate query's SELECT list or HAVING, a correlated subquery reads the row after
 * grouping: each outer expression it reads (bound over the FROM scope) must be a GROUP BY key
 * (a column, or an expression equal to one: `s.k = t.id % 3` under GROUP BY t.id % 3) and
 * becomes that key's column of the aggregate's output. Returns a rewritten copy of e.
 */
static dl_status
outer_to_key(dl_sql_bctx *cx, const dl_sql_bexpr *e, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_binder *b = cx->b;
    int32_t key = outer_key(b, cx->agg, e);
    if (key >= 0) {
        *out = dl_sql_bexpr_new(b, DL_SQL_BEXPR_OUTER, cx->agg->keys[key]->type, e->loc, 0);
        DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory binding a subquery");
        (*out)->index = key;
        (*out)->depth = 1;
        return DL_OK;
    }
    dl_sql_bexpr *c = dl_arena_memdup(b->arena, e, sizeof(*e));
    DL_CHECK(c != NULL, err, DL_ERR_NOMEM, "out of memory binding a subquery");
    if (e->n_args > 0) {
        c->args = dl_arena_alloc_zero(b->arena, (size_t)e->n_args * sizeof(void *));
        DL_CHECK(c->args != NULL, err, DL_ERR_NOMEM, "out of memory binding a subquery");
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        DL_TRY(outer_to_key(cx, e->args[i], &c->args[i], err));
    }
    *out = c;
    if (e->kind != DL_SQL_BEXPR_OUTER || e->depth != 1) {
        return DL_OK;
    }
    DL_SQL_BIND_FAIL(b, e->loc, DL_ERR_SQL_BIND, err,
                     "[MISSING_AGGREGATION] the correlated subquery reads a column that is "
                     "not in GROUP BY; group by it or move the condition into the subquery");
}

/* outer_to_key over the conditions of the subquery's FILTER nodes (where decorrelation
 * takes outer references from; elsewhere it refuses them). */
static dl_status
plan_outer_to_keys(dl_sql_bctx *cx, dl_sql_plan *p, dl_error *err) {
    if (p == NULL) {
        return DL_OK;
    }
    if (p->kind == DL_SQL_PLAN_FILTER) {
        DL_TRY(outer_to_key(cx, p->u.cond, &p->u.cond, err));
    }
    DL_TRY(plan_outer_to_keys(cx, p->left, err));
    return plan_outer_to_keys(cx, p->right, err);
}

dl_status
dl_sql_binder_subquery(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_binder *b = cx->b;
    const dl_sql_query *q =
        ast->kind == DL_SQL_EXPR_IN_QUERY ? ast->u.in_query.query : ast->u.subquery;
    dl_sql_scope outer = cx->agg != NULL ? *cx->agg->from : *cx->scope;
    bool corr = false;
    outer.is_correlated = &corr;
    dl_sql_plan *plan = NULL;
    DL_TRY(dl_sql_binder_query(b, q, &outer, &plan, err));
    if (ast->kind != DL_SQL_EXPR_EXISTS && plan->n_cols != 1) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[INVALID_SUBQUERY_EXPRESSION] a subquery used as a value must "
                         "return one column, this one returns %d",
                         (int)plan->n_cols);
    }
    if (corr && cx->agg != NULL) {
        DL_TRY(plan_outer_to_keys(cx, plan, err));
    }
    if (ast->kind == DL_SQL_EXPR_IN_QUERY) {
        return bind_in_subquery(cx, ast, plan, corr, out, err);
    }
    if (!corr) {
        if (ast->kind == DL_SQL_EXPR_EXISTS) {
            return run_exists(b, plan, ast->loc, false, out, err);
        }
        return dl_sql_run_scalar(b, plan, ast->loc, out, err);
    }
    bool is_exists = ast->kind == DL_SQL_EXPR_EXISTS;
    dl_sql_bexpr *e = dl_sql_bexpr_new(b, DL_SQL_BEXPR_SUBQUERY,
                                       is_exists ? dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN)
                                                 : plan->schema->fields[0].type,
                                       ast->loc, 0);
    DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding a subquery");
    e->subq_kind = is_exists ? DL_SQL_SUBQ_EXISTS : DL_SQL_SUBQ_SCALAR;
    e->subquery = plan;
    e->depth = 1;
    *out = e;
    return DL_OK;
}

/* ---- subqueries as joins ------------------------------------------------------------------- */

/* Adds the IN subquery's key (its argument = the subquery's first column). */
static dl_status
add_in_key(dl_sql_binder *b, dl_sql_plan *j, const dl_sql_bexpr *sq, dl_error *err) {
    dl_sql_join *jn = &j->u.join;
    int32_t n = jn->n_keys + 1;
    dl_sql_bexpr **lk = dl_arena_alloc_zero(b->arena, (size_t)n * sizeof(void *));
    dl_sql_bexpr **rk = dl_arena_alloc_zero(b->arena, (size_t)n * sizeof(void *));
    bool *ne = dl_arena_alloc_zero(b->arena, (size_t)n);
    DL_CHECK(lk != NULL && rk != NULL && ne != NULL, err, DL_ERR_NOMEM,
             "out of memory planning a subquery");
    lk[0] = sq->args[0];
    rk[0] = dl_sql_bexpr_column(b->arena, 0, j->right->schema->fields[0].type);
    DL_CHECK(rk[0] != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
    for (int32_t i = 0; i < jn->n_keys; i++) {
        lk[i + 1] = jn->left_keys[i];
        rk[i + 1] = jn->right_keys[i];
        ne[i + 1] = jn->is_null_equal[i];
    }
    jn->left_keys = lk;
    jn->right_keys = rk;
    jn->is_null_equal = ne;
    jn->n_keys = n;
    return DL_OK;
}

/*
 * A null-aware join whose correlation left a residual (`t.s NOT IN (SELECT s FROM x WHERE x.k =
 * t.k AND x.a > t.v)`): which subquery rows may match depends on the residual, so the IN
 * comparison moves from key 0 into it, as `(residual) IS TRUE AND x = y` (sql_plan.h): a pair
 * where that is TRUE matches, one where it is NULL could have.
 */
static dl_status
in_key_into_residual(dl_sql_binder *b, dl_sql_plan *j, dl_error *err) {
    dl_sql_join *jn = &j->u.join;
    int32_t nl = j->left->n_cols;
    const dl_sql_fn_def *eq = dl_sql_binder_lookup(b, DL_STR("="));
    DL_CHECK(eq != NULL, err, DL_ERR_UNSUPPORTED, "operator '=' is not available");
    dl_sql_bexpr *args[2] = {jn->left_keys[0],
                             dl_sql_bexpr_column(b->arena, nl, jn->right_keys[0]->type)};
    dl_sql_bexpr *is_true =
        dl_sql_bexpr_new(b, DL_SQL_BEXPR_IS, dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN), j->loc, 1);
    dl_sql_bexpr *both =
        dl_sql_bexpr_new(b, DL_SQL_BEXPR_AND, dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN), j->loc, 2);
    DL_CHECK(args[1] != NULL && is_true != NULL && both != NULL, err, DL_ERR_NOMEM,
             "out of memory planning a subquery");
    DL_CHECK(jn->right_keys[0]->kind == DL_SQL_BEXPR_COLUMN && jn->right_keys[0]->index == 0, err,
             DL_ERR_INTERNAL, "an IN subquery's key is not its first column");
    is_true->args[0] = jn->residual;
    is_true->is_kind = DL_SQL_BIS_TRUE;
    both->args[0] = is_true;
    DL_TRY(dl_sql_binder_call(b, eq, "=", args, 2, j->loc, &both->args[1], err));
    jn->residual = both;
    jn->left_keys++;
    jn->right_keys++;
    jn->is_null_equal++;
    jn->n_keys--;
    return DL_OK;
}

/* The output columns of a join of type over left and right. */
static dl_status
join_schema(dl_sql_binder *b, dl_sql_plan *j, dl_error *err) {
    dl_sql_join_type type = j->u.join.type;
    int32_t nl = j->left->n_cols;
    int32_t nr = type == DL_SQL_JOIN_T_SINGLE ? j->right->n_cols
                 : type == DL_SQL_JOIN_T_MARK ? 1
                                              : 0;
    dl_type_field *cols = dl_arena_alloc_zero(b->arena, (size_t)(nl + nr + 1) * sizeof(*cols));
    DL_CHECK(cols != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
    dl_sql_copy(cols, j->left->schema->fields, (size_t)nl * sizeof(*cols));
    if (type == DL_SQL_JOIN_T_MARK) {
        cols[nl] = (dl_type_field){
            .name = "__mark", .type = dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN), .is_nullable = true};
    } else if (type == DL_SQL_JOIN_T_SINGLE) {
        dl_sql_copy(cols + nl, j->right->schema->fields, (size_t)nr * sizeof(*cols));
        for (int32_t i = nl; i < nl + nr; i++) {
            cols[i].is_nullable = true;
        }
    }
    DL_TRY(dl_vec_type_struct(b->arena, cols, nl + nr, &j->schema, err));
    j->n_cols = nl + nr;
    return DL_OK;
}

/* plan with a last BOOLEAN column, always TRUE: after an outer join, NULL there means the
 * row had no match. */
static dl_status
add_presence(dl_sql_binder *b, dl_sql_plan **plan, dl_error *err) {
    dl_sql_plan *p = *plan;
    int32_t n = p->n_cols + 1;
    dl_sql_bexpr **exprs = dl_arena_alloc_zero(b->arena, (size_t)n * sizeof(void *));
    const char **names = dl_arena_alloc_zero(b->arena, (size_t)n * sizeof(char *));
    DL_CHECK(exprs != NULL && names != NULL, err, DL_ERR_NOMEM,
             "out of memory planning a subquery");
    for (int32_t i = 0; i < p->n_cols; i++) {
        exprs[i] = dl_sql_bexpr_column(b->arena, i, p->schema->fields[i].type);
        DL_CHECK(exprs[i] != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
        names[i] = p->schema->fields[i].name;
    }
    DL_TRY(bool_const(b, true, p->loc, &exprs[n - 1], err));
    names[n - 1] = "__present";
    return dl_sql_plan_project(b, p, exprs, names, n, plan, err);
}

/* JOIN(*plan, sq's plan) of type, decorrelated; *plan becomes the join. With want_presence the
 * right side gets a last TRUE column (add_presence). */
static dl_status
join_subquery(dl_sql_binder *b, dl_sql_plan **plan, const dl_sql_bexpr *sq, dl_sql_join_type type,
              bool is_null_aware, bool want_presence, dl_error *err) {
    dl_sql_plan *j = dl_arena_alloc_zero(b->arena, sizeof(*j));
    DL_CHECK(j != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
    j->kind = DL_SQL_PLAN_JOIN;
    j->loc = sq->loc;
    j->left = *plan;
    j->right = sq->subquery;
    j->est_rows = (*plan)->est_rows;
    j->u.join.type = type;
    j->u.join.is_null_aware = is_null_aware;
    if (sq->depth > 0) {
        DL_TRY(dl_sql_decorrelate(b, j, sq, err));
    }
    if (sq->subq_kind == DL_SQL_SUBQ_IN) {
        DL_TRY(add_in_key(b, j, sq, err));
        if (is_null_aware && j->u.join.residual != NULL) {
            DL_TRY(in_key_into_residual(b, j, err));
        }
    }
    if (want_presence) {
        DL_TRY(add_presence(b, &j->right, err));
    }
    DL_TRY(join_schema(b, j, err));
    *plan = j;
    return DL_OK;
}

/*
 * The value a correlated scalar subquery `SELECT f(agg) ... WHERE inner = outer` has for an
 * outer row without matching rows: its aggregate over no input (count(*) is 0, not NULL), as
 * Spark's RewriteCorrelatedScalarSubquery computes it. *out NULL when that value is NULL or
 * the subquery is not a projection of an aggregate without keys.
 */
static dl_status
empty_value(dl_sql_binder *b, const dl_sql_plan *sub, dl_sql_bexpr **out, dl_error *err) {
    *out = NULL;
    const dl_sql_plan *a = sub->kind == DL_SQL_PLAN_PROJECT ? sub->left : NULL;
    if (a == NULL || a->kind != DL_SQL_PLAN_AGGREGATE || a->u.agg.n_keys > 0 ||
        a->u.agg.n_sets > 0) {
        return DL_OK;
    }
    dl_sql_plan *none = NULL;
    DL_TRY(dl_sql_plan_new(b->arena, DL_SQL_PLAN_VALUES, a->left->schema->fields, a->left->n_cols,
                           &none, err));
    dl_sql_plan *agg = dl_arena_memdup(b->arena, a, sizeof(*a));
    dl_sql_plan *proj = dl_arena_memdup(b->arena, sub, sizeof(*sub));
    DL_CHECK(agg != NULL && proj != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
    agg->left = none;
    proj->left = agg;
    dl_sql_bexpr *v = NULL;
    DL_TRY(dl_sql_run_scalar(b, proj, sub->loc, &v, err));
    *out = dl_sql_bexpr_is_null_const(v) ? NULL : v;
    return DL_OK;
}

/* A correlated scalar subquery's value column, with the empty value for unmatched rows. */
static dl_status
scalar_column(dl_sql_binder *b, dl_sql_plan **plan, const dl_sql_bexpr *e, dl_sql_bexpr **out,
              dl_error *err) {
    int32_t nl = (*plan)->n_cols;
    dl_sql_bexpr *empty = NULL;
    if (e->depth > 0) {
        DL_TRY(empty_value(b, e->subquery, &empty, err));
    }
    DL_TRY(join_subquery(b, plan, e, DL_SQL_JOIN_T_SINGLE, false, empty != NULL, err));
    dl_sql_bexpr *col = dl_sql_bexpr_column(b->arena, nl, e->type);
    DL_CHECK(col != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
    *out = col;
    if (empty == NULL) {
        return DL_OK;
    }
    dl_sql_bexpr *present =
        dl_sql_bexpr_column(b->arena, (*plan)->n_cols - 1, dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN));
    dl_sql_bexpr *missing =
        dl_sql_bexpr_new(b, DL_SQL_BEXPR_IS, dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN), e->loc, 1);
    DL_CHECK(present != NULL && missing != NULL, err, DL_ERR_NOMEM,
             "out of memory planning a subquery");
    missing->args[0] = present;
    missing->is_kind = DL_SQL_BIS_NULL;
    DL_TRY(dl_sql_binder_cast(b, empty, e->type, &empty, err));
    return dl_sql_binder_make_case(b, &missing, &empty, 1, col, e->loc, out, err);
}

/* Replaces every SUBQUERY node under *expr by a column of a join: the mark of a MARK join
 * (IN, EXISTS) or the value of a SINGLE join (scalar). */
static dl_status
replace_marks(dl_sql_binder *b, dl_sql_plan **plan, dl_sql_bexpr **expr, dl_error *err) {
    dl_sql_bexpr *e = *expr;
    for (int32_t i = 0; i < e->n_args; i++) {
        DL_TRY(replace_marks(b, plan, &e->args[i], err));
    }
    if (e->kind != DL_SQL_BEXPR_SUBQUERY) {
        return DL_OK;
    }
    dl_sql_bexpr *col = NULL;
    if (e->subq_kind == DL_SQL_SUBQ_SCALAR) {
        DL_TRY(scalar_column(b, plan, e, &col, err));
    } else {
        int32_t nl = (*plan)->n_cols;
        bool is_in = e->subq_kind == DL_SQL_SUBQ_IN; /* NULL marks; EXISTS is TRUE or FALSE */
        DL_TRY(join_subquery(b, plan, e, DL_SQL_JOIN_T_MARK, is_in, false, err));
        col = dl_sql_bexpr_column(b->arena, nl, dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN));
        DL_CHECK(col != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
    }
    *expr = e->is_not ? dl_sql_binder_not(b, col, e->loc) : col;
    DL_CHECK(*expr != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
    return DL_OK;
}

/* A WHERE conjunct that is `x [NOT] IN (q)`, `[NOT] EXISTS (q)` or NOT of those: planned as
 * a SEMI or ANTI join (NOT IN null-aware). */
static dl_status
filter_conjunct(dl_sql_binder *b, dl_sql_plan **plan, dl_sql_bexpr *c, bool *out_done,
                dl_error *err) {
    bool negate = false;
    if (c->kind == DL_SQL_BEXPR_NOT && c->args[0]->kind == DL_SQL_BEXPR_SUBQUERY) {
        negate = true;
        c = c->args[0];
    }
    *out_done = false;
    if (c->kind != DL_SQL_BEXPR_SUBQUERY || c->subq_kind == DL_SQL_SUBQ_SCALAR) {
        return DL_OK;
    }
    bool is_anti = c->is_not != negate;
    bool is_in = c->subq_kind == DL_SQL_SUBQ_IN;
    DL_TRY(join_subquery(b, plan, c, is_anti ? DL_SQL_JOIN_T_ANTI : DL_SQL_JOIN_T_SEMI,
                         is_anti && is_in, false, err));
    *out_done = true;
    return DL_OK;
}

dl_status
dl_sql_plan_subqueries(dl_sql_binder *b, dl_sql_plan **plan, dl_sql_bexpr **expr, bool is_filter,
                       dl_error *err) {
    dl_sql_bexpr *e = *expr;
    if (!dl_sql_bexpr_has_subquery(e)) {
        return DL_OK;
    }
    if (!is_filter) {
        return replace_marks(b, plan, expr, err);
    }
    dl_sql_bexpr **conj = e->kind == DL_SQL_BEXPR_AND ? e->args : expr;
    int32_t n = e->kind == DL_SQL_BEXPR_AND ? e->n_args : 1;
    int32_t kept = 0;
    for (int32_t i = 0; i < n; i++) {
        bool done = false;
        DL_TRY(filter_conjunct(b, plan, conj[i], &done, err));
        if (!done) {
            DL_TRY(replace_marks(b, plan, &conj[i], err));
            conj[kept++] = conj[i];
        }
    }
    if (kept == 0) {
        *expr = NULL; /* every conjunct became a join */
    } else if (e->kind == DL_SQL_BEXPR_AND) {
        e->n_args = kept;
        *expr = kept == 1 ? e->args[0] : e;
    }
    return DL_OK;
}
