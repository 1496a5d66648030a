/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Decorrelation (sql_bind_int.h, "Subqueries"): a correlated subquery's plan is rewritten so
 * that it no longer reads the enclosing query's columns, and the predicates that did become
 * the condition of the join with the enclosing query, as Spark's RewritePredicateSubquery and
 * RewriteCorrelatedScalarSubquery do:
 *
 *   - conjuncts of a FILTER that read outer columns leave the FILTER;
 *   - the subquery's columns they read are carried up as extra output columns: appended to
 *     projections, and to an aggregate as extra GROUP BY keys (so a correlated scalar
 *     aggregate becomes one row per correlation value);
 *   - `inner = outer` conjuncts become equi-join keys, the others the join's residual.
 *
 * Supported: outer references one level up, in WHERE/HAVING of the subquery (FILTER nodes)
 * under projections, aggregates without grouping sets and sorts. Elsewhere (a join condition,
 * a LIMIT below the reference, a SELECT list) they are refused with UNSUPPORTED.
 */
#include <string.h>

#include "sql/bind/sql_bind_int.h"

typedef struct conds {
    dl_sql_bexpr **items; /* over the node's output (COLUMN) and the outer query (OUTER) */
    int32_t n;
    int32_t cap;
} conds;

static bool
has_outer(const dl_sql_bexpr *e) {
    if (e->kind == DL_SQL_BEXPR_OUTER) {
        return true;
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        if (has_outer(e->args[i])) {
            return true;
        }
    }
    return e->kind == DL_SQL_BEXPR_SUBQUERY && e->depth > 0;
}

static dl_status
push_cond(dl_sql_binder *b, conds *c, dl_sql_bexpr *e, dl_error *err) {
    if (c->n == c->cap) {
        int32_t cap = c->cap == 0 ? 8 : 2 * c->cap;
        dl_sql_bexpr **grown = dl_arena_alloc_zero(b->arena, (size_t)cap * sizeof(void *));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
        if (c->n > 0) {
            memcpy(grown, c->items, (size_t)c->n * sizeof(void *));
        }
        c->items = grown;
        c->cap = cap;
    }
    c->items[c->n++] = e;
    return DL_OK;
}

static bool
has_column(const dl_sql_bexpr *e) {
    if (e->kind == DL_SQL_BEXPR_COLUMN) {
        return true;
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        if (has_column(e->args[i])) {
            return true;
        }
    }
    return false;
}

/* `inner = outer`: one side reads only the subquery's columns, the other only outer ones. */
static bool
is_equality(const dl_sql_bexpr *e) {
    if (e->kind != DL_SQL_BEXPR_CALL || e->n_args != 2 ||
        (strcmp(e->fn->name, "=") != 0 && strcmp(e->fn->name, "==") != 0 &&
         strcmp(e->fn->name, "<=>") != 0)) {
        return false;
    }
    const dl_sql_bexpr *a = e->args[0];
    const dl_sql_bexpr *c = e->args[1];
    return (!has_outer(a) && has_outer(c) && !has_column(c)) ||
           (!has_outer(c) && has_outer(a) && !has_column(a));
}

/* A copy of e with COLUMN i replaced by COLUMN map[i]. */
static dl_sql_bexpr *
remap_columns(dl_sql_binder *b, const dl_sql_bexpr *e, const int32_t *map) {
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
        c->args[i] = remap_columns(b, e->args[i], map);
        if (c->args[i] == NULL) {
            return NULL;
        }
    }
    if (c->kind == DL_SQL_BEXPR_COLUMN) {
        c->index = map[c->index];
    }
    return c;
}

/* Collects the distinct COLUMN indexes of e into cols. */
static void
collect_columns(const dl_sql_bexpr *e, int32_t *cols, int32_t *n, int32_t cap) {
    if (e->kind == DL_SQL_BEXPR_COLUMN) {
        for (int32_t i = 0; i < *n; i++) {
            if (cols[i] == e->index) {
                return;
            }
        }
        if (*n < cap) {
            cols[(*n)++] = e->index;
        }
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        collect_columns(e->args[i], cols, n, cap);
    }
}

static dl_status decorrelate(dl_sql_binder *b, dl_sql_plan **node, conds *out, dl_error *err);

static dl_status
unsupported(dl_sql_binder *b, const dl_sql_plan *p, dl_error *err) {
    DL_SQL_BIND_FAIL(b, p->loc, DL_ERR_UNSUPPORTED, err,
                     "a correlated subquery may refer to the outer query only in its "
                     "WHERE or HAVING conditions (here it does elsewhere)");
}

static bool
plan_has_outer(const dl_sql_plan *p) {
    if (p == NULL) {
        return false;
    }
    bool found = false;
    switch (p->kind) {
    case DL_SQL_PLAN_FILTER:
        found = has_outer(p->u.cond);
        break;
    case DL_SQL_PLAN_PROJECT:
        for (int32_t i = 0; i < p->u.project.n_exprs && !found; i++) {
            found = has_outer(p->u.project.exprs[i]);
        }
        break;
    case DL_SQL_PLAN_SCAN:
        for (int32_t i = 0; i < p->u.scan.n_filters && !found; i++) {
            found = has_outer(p->u.scan.filters[i]);
        }
        break;
    case DL_SQL_PLAN_JOIN:
        found = p->u.join.residual != NULL && has_outer(p->u.join.residual);
        break;
    default:
        break;
    }
    return found || plan_has_outer(p->left) || plan_has_outer(p->right);
}

static dl_status
decor_filter(dl_sql_binder *b, dl_sql_plan **node, conds *out, dl_error *err) {
    dl_sql_plan *f = *node;
    DL_TRY(decorrelate(b, &f->left, out, err));
    dl_sql_bexpr *c = f->u.cond;
    dl_sql_bexpr **conj = c->kind == DL_SQL_BEXPR_AND ? c->args : &f->u.cond;
    int32_t n = c->kind == DL_SQL_BEXPR_AND ? c->n_args : 1;
    int32_t kept = 0;
    for (int32_t i = 0; i < n; i++) {
        if (has_outer(conj[i])) {
            DL_TRY(push_cond(b, out, conj[i], err));
        } else {
            conj[kept++] = conj[i];
        }
    }
    /* The child may have grown columns: the filter passes them through. */
    f->schema = f->left->schema;
    f->n_cols = f->left->n_cols;
    if (kept == 0) {
        *node = f->left;
    } else if (c->kind == DL_SQL_BEXPR_AND) {
        c->n_args = kept;
        f->u.cond = kept == 1 ? c->args[0] : c;
    }
    return DL_OK;
}

/* The columns the conditions read, appended to a PROJECT (passed through from its child). */
static dl_status
decor_project(dl_sql_binder *b, dl_sql_plan **node, conds *out, dl_error *err) {
    dl_sql_plan *p = *node;
    conds inner = {0};
    DL_TRY(decorrelate(b, &p->left, &inner, err));
    if (inner.n == 0) {
        return DL_OK;
    }
    int32_t cols[256];
    int32_t nc = 0;
    for (int32_t i = 0; i < inner.n; i++) {
        collect_columns(inner.items[i], cols, &nc, 256);
    }
    int32_t n_old = p->u.project.n_exprs;
    int32_t n = n_old + nc;
    dl_sql_bexpr **exprs = dl_arena_alloc_zero(b->arena, (size_t)n * sizeof(void *));
    const char **names = dl_arena_alloc_zero(b->arena, (size_t)n * sizeof(char *));
    int32_t *map = dl_arena_alloc_zero(b->arena, (size_t)(p->left->n_cols + 1) * sizeof(int32_t));
    DL_CHECK(exprs != NULL && names != NULL && map != NULL, err, DL_ERR_NOMEM,
             "out of memory planning a subquery");
    for (int32_t i = 0; i < n_old; i++) {
        exprs[i] = p->u.project.exprs[i];
        names[i] = p->schema->fields[i].name;
    }
    for (int32_t k = 0; k < nc; k++) {
        exprs[n_old + k] =
            dl_sql_bexpr_column(b->arena, cols[k], p->left->schema->fields[cols[k]].type);
        DL_CHECK(exprs[n_old + k] != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
        names[n_old + k] = "__corr";
        map[cols[k]] = n_old + k;
    }
    for (int32_t i = 0; i < inner.n; i++) {
        dl_sql_bexpr *c = remap_columns(b, inner.items[i], map);
        DL_CHECK(c != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
        DL_TRY(push_cond(b, out, c, err));
    }
    return dl_sql_plan_project(b, p->left, exprs, names, n, node, err);
}

/* The inner sides of the equalities (`inner = outer`), distinct, as the extra GROUP BY keys of
 * a correlated aggregate; which[i] is the key of conds i. */
static dl_status
inner_keys(dl_sql_binder *b, const conds *inner, dl_sql_bexpr ***out_keys, int32_t **out_which,
           int32_t *out_n, dl_error *err) {
    dl_sql_bexpr **keys = dl_arena_alloc_zero(b->arena, (size_t)inner->n * sizeof(void *));
    int32_t *which = dl_arena_alloc_zero(b->arena, (size_t)inner->n * sizeof(int32_t));
    DL_CHECK(keys != NULL && which != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
    int32_t n = 0;
    for (int32_t i = 0; i < inner->n; i++) {
        const dl_sql_bexpr *e = inner->items[i];
        dl_sql_bexpr *side = e->args[has_outer(e->args[0]) ? 1 : 0];
        int32_t k = 0;
        while (k < n && !dl_sql_bexpr_equal(keys[k], side)) {
            k++;
        }
        if (k == n) {
            keys[n++] = side;
        }
        which[i] = k;
    }
    *out_keys = keys;
    *out_which = which;
    *out_n = n;
    return DL_OK;
}

/* The equality conds i with its inner side replaced by COLUMN col (the carried-up key). */
static dl_status
push_keyed_cond(dl_sql_binder *b, conds *out, const dl_sql_bexpr *e, int32_t col, dl_error *err) {
    dl_sql_bexpr *c = dl_arena_memdup(b->arena, e, sizeof(*e));
    DL_CHECK(c != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
    c->args = dl_arena_alloc_zero(b->arena, 2 * sizeof(void *));
    DL_CHECK(c->args != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
    int side = has_outer(e->args[0]) ? 1 : 0;
    c->args[1 - side] = e->args[1 - side];
    c->args[side] = dl_sql_bexpr_column(b->arena, col, e->args[side]->type);
    DL_CHECK(c->args[side] != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
    return push_cond(b, out, c, err);
}

/* The inner sides of the equalities become extra GROUP BY keys (the expressions themselves:
 * `s.id % 3 = t.k` groups by s.id % 3); a PROJECT above restores the aggregate's column order
 * (keys, aggregates) and appends the new keys. */
static dl_status
decor_aggregate(dl_sql_binder *b, dl_sql_plan **node, conds *out, dl_error *err) {
    dl_sql_plan *a = *node;
    conds inner = {0};
    DL_TRY(decorrelate(b, &a->left, &inner, err));
    if (inner.n == 0) {
        return DL_OK;
    }
    if (a->u.agg.n_sets > 0) {
        return unsupported(b, a, err);
    }
    for (int32_t i = 0; i < inner.n; i++) {
        if (!is_equality(inner.items[i])) {
            DL_SQL_BIND_FAIL(b, inner.items[i]->loc, DL_ERR_UNSUPPORTED, err,
                             "a correlated subquery with an aggregate may refer to the outer "
                             "query only through equalities (inner = outer), as in Spark");
        }
    }
    dl_sql_bexpr **extra = NULL;
    int32_t *which = NULL;
    int32_t nc = 0;
    DL_TRY(inner_keys(b, &inner, &extra, &which, &nc, err));
    int32_t nk = a->u.agg.n_keys;
    int32_t na = a->u.agg.n_aggs;
    dl_sql_bexpr **keys = dl_arena_alloc_zero(b->arena, (size_t)(nk + nc + 1) * sizeof(void *));
    dl_type_field *f = dl_arena_alloc_zero(b->arena, (size_t)(nk + nc + na + 1) * sizeof(*f));
    DL_CHECK(keys != NULL && f != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
    for (int32_t k = 0; k < nk; k++) {
        keys[k] = a->u.agg.keys[k];
        f[k] = a->schema->fields[k];
    }
    for (int32_t i = 0; i < na; i++) {
        f[nk + nc + i] = a->schema->fields[nk + i];
    }
    for (int32_t k = 0; k < nc; k++) {
        keys[nk + k] = extra[k];
        f[nk + k] = (dl_type_field){.name = "__corr", .type = extra[k]->type, .is_nullable = true};
    }
    dl_sql_plan *agg;
    DL_TRY(dl_sql_plan_new(b->arena, DL_SQL_PLAN_AGGREGATE, f, nk + nc + na, &agg, err));
    agg->left = a->left;
    agg->loc = a->loc;
    agg->u.agg = a->u.agg;
    agg->u.agg.keys = keys;
    agg->u.agg.n_keys = nk + nc;
    /* PROJECT: old keys, aggregates, then the new keys. */
    int32_t n = nk + na + nc;
    dl_sql_bexpr **exprs = dl_arena_alloc_zero(b->arena, (size_t)n * sizeof(void *));
    const char **names = dl_arena_alloc_zero(b->arena, (size_t)n * sizeof(char *));
    DL_CHECK(exprs != NULL && names != NULL, err, DL_ERR_NOMEM,
             "out of memory planning a subquery");
    for (int32_t i = 0; i < n; i++) {
        int32_t from = i < nk ? i : (i < nk + na ? i + nc : i - na);
        exprs[i] = dl_sql_bexpr_column(b->arena, from, agg->schema->fields[from].type);
        DL_CHECK(exprs[i] != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
        names[i] = agg->schema->fields[from].name;
    }
    for (int32_t i = 0; i < inner.n; i++) {
        DL_TRY(push_keyed_cond(b, out, inner.items[i], nk + na + which[i], err));
    }
    return dl_sql_plan_project(b, agg, exprs, names, n, node, err);
}

static dl_status
decorrelate(dl_sql_binder *b, dl_sql_plan **node, conds *out, dl_error *err) {
    dl_sql_plan *p = *node;
    if (p == NULL) {
        return DL_OK;
    }
    switch (p->kind) {
    case DL_SQL_PLAN_FILTER:
        return decor_filter(b, node, out, err);
    case DL_SQL_PLAN_PROJECT:
        for (int32_t i = 0; i < p->u.project.n_exprs; i++) {
            if (has_outer(p->u.project.exprs[i])) {
                return unsupported(b, p, err);
            }
        }
        return decor_project(b, node, out, err);
    case DL_SQL_PLAN_AGGREGATE:
        return decor_aggregate(b, node, out, err);
    case DL_SQL_PLAN_SORT: {
        int32_t before = out->n;
        if (p->u.sort.limit >= 0 && plan_has_outer(p->left)) {
            return unsupported(b, p, err);
        }
        DL_TRY(decorrelate(b, &p->left, out, err));
        if (out->n > before) {
            *node = p->left; /* order does not matter inside a correlated subquery */
        }
        return DL_OK;
    }
    default:
        return plan_has_outer(p) ? unsupported(b, p, err) : DL_OK;
    }
}

/* A copy of e over left ++ right: OUTER i becomes COLUMN i, COLUMN j becomes COLUMN nl + j. */
static dl_sql_bexpr *
to_join_side(dl_sql_binder *b, const dl_sql_bexpr *e, int32_t nl) {
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
        c->args[i] = to_join_side(b, e->args[i], nl);
        if (c->args[i] == NULL) {
            return NULL;
        }
    }
    if (c->kind == DL_SQL_BEXPR_OUTER) {
        c->kind = DL_SQL_BEXPR_COLUMN;
        c->depth = 0;
    } else if (c->kind == DL_SQL_BEXPR_COLUMN) {
        c->index += nl;
    }
    return c;
}

/* The conditions as one AND over left ++ right (NULL when there are none). */
static dl_status
join_condition(dl_sql_binder *b, const conds *cc, int32_t nl, uint32_t loc, dl_sql_bexpr **out,
               dl_error *err) {
    *out = NULL;
    if (cc->n == 0) {
        return DL_OK;
    }
    dl_sql_bexpr *all =
        dl_sql_bexpr_new(b, DL_SQL_BEXPR_AND, dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN), loc, cc->n);
    DL_CHECK(all != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
    for (int32_t i = 0; i < cc->n; i++) {
        if (cc->items[i]->kind == DL_SQL_BEXPR_SUBQUERY) {
            DL_SQL_BIND_FAIL(b, loc, DL_ERR_UNSUPPORTED, err,
                             "subqueries nested in a correlated condition are not supported");
        }
        all->args[i] = to_join_side(b, cc->items[i], nl);
        DL_CHECK(all->args[i] != NULL, err, DL_ERR_NOMEM, "out of memory planning a subquery");
    }
    *out = cc->n == 1 ? all->args[0] : all;
    return DL_OK;
}

dl_status
dl_sql_decorrelate(dl_sql_binder *b, dl_sql_plan *j, const dl_sql_bexpr *sq, dl_error *err) {
    conds cc = {0};
    DL_TRY(decorrelate(b, &j->right, &cc, err));
    dl_sql_bexpr *cond = NULL;
    DL_TRY(join_condition(b, &cc, j->left->n_cols, sq->loc, &cond, err));
    return cond != NULL ? dl_sql_join_split(b, j, cond, err) : DL_OK;
}
