/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The optimizer (sql_bind_int.h): rewrites a bound plan in place before execution.
 *
 *   0. Filters move down through projections and into join inputs (sql_optimize_push.c).
 *      Then, when the plan has a join, every node gets a cardinality estimate from the Delta
 *      log's stats (sql_optimize_card.c) and each tree of three or more inner and cross
 *      joins is reordered by cost (sql_optimize_order.c).
 *   1. Filters over scans become the scan's filters: conjuncts that only read the scan's
 *      columns move into the scan, which applies them exactly and also uses them to skip
 *      files (partition values, Delta statistics) and row groups (Parquet statistics).
 *   2. Columns nobody reads are pruned: a scan reads only the columns its consumers use
 *      (projections and filters above are remapped), so a count(*) reads no column at all.
 *   3. SORT followed by LIMIT becomes a top-N sort; LIMIT directly over a scan without
 *      filters lets the scan stop early.
 *   4. Inner joins put the smaller input (by estimated rows) on the build (right) side.
 *   5. An aggregate grouped by a join's keys aggregates only the groups the other side can
 *      meet: a SEMI join with a copy of that side's selective key source goes under it
 *      (sql_optimize_reduce.c; TPC-H q17 and q20's correlated aggregates).
 *   6. Columns nobody reads are pruned through the whole plan, joins included
 *      (sql_optimize_prune.c).
 */
#include <string.h>

#include "sql/plan/sql_plan.h"

/* ---- column usage --------------------------------------------------------------------------- */

static void
mark_used(const dl_sql_bexpr *e, bool *used, int32_t n) {
    if (e == NULL) {
        return;
    }
    if (e->kind == DL_SQL_BEXPR_COLUMN && e->index >= 0 && e->index < n) {
        used[e->index] = true;
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        mark_used(e->args[i], used, n);
    }
}

static void
remap(dl_sql_bexpr *e, const int32_t *map, int32_t n) {
    if (e == NULL) {
        return;
    }
    if (e->kind == DL_SQL_BEXPR_COLUMN && e->index >= 0 && e->index < n) {
        e->index = map[e->index];
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        remap(e->args[i], map, n);
    }
}

/* Prunes scan's output to the columns marked used; fills map (old -> new index). */
static dl_status
prune_scan(dl_arena *arena, dl_sql_plan *scan, const bool *used, int32_t *map, dl_error *err) {
    dl_sql_scan *s = &scan->u.scan;
    int32_t n = 0;
    int32_t *cols = dl_arena_alloc_zero(arena, (size_t)(scan->n_cols + 1) * sizeof(int32_t));
    dl_type_field *fields =
        dl_arena_alloc_zero(arena, (size_t)(scan->n_cols + 1) * sizeof(*fields));
    DL_CHECK(cols != NULL && fields != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    for (int32_t i = 0; i < scan->n_cols; i++) {
        map[i] = -1;
        if (used[i]) {
            map[i] = n;
            cols[n] = s->columns[i];
            fields[n] = scan->schema->fields[i];
            n++;
        }
    }
    for (int32_t f = 0; f < s->n_filters; f++) {
        remap(s->filters[f], map, scan->n_cols);
    }
    DL_TRY(dl_vec_type_struct(arena, fields, n, &scan->schema, err));
    s->columns = cols;
    s->n_columns = n;
    scan->n_cols = n;
    return DL_OK;
}

/* A PROJECT directly over a SCAN (possibly through FILTERs folded into the scan): the scan
 * reads only what the projection uses. */
static dl_status
prune_under_project(dl_arena *arena, dl_sql_plan *proj, dl_error *err) {
    dl_sql_plan *scan = proj->left;
    if (scan == NULL || scan->kind != DL_SQL_PLAN_SCAN) {
        return DL_OK;
    }
    int32_t n = scan->n_cols;
    bool *used = dl_arena_alloc_zero(arena, (size_t)n + 1);
    int32_t *map = dl_arena_alloc_zero(arena, (size_t)(n + 1) * sizeof(int32_t));
    DL_CHECK(used != NULL && map != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    for (int32_t i = 0; i < proj->u.project.n_exprs; i++) {
        mark_used(proj->u.project.exprs[i], used, n);
    }
    for (int32_t f = 0; f < scan->u.scan.n_filters; f++) {
        mark_used(scan->u.scan.filters[f], used, n);
    }
    DL_TRY(prune_scan(arena, scan, used, map, err));
    for (int32_t i = 0; i < proj->u.project.n_exprs; i++) {
        remap(proj->u.project.exprs[i], map, n);
    }
    return DL_OK;
}

/* An AGGREGATE directly over a SCAN: the scan reads only keys, arguments and filters. */
static dl_status
prune_under_agg(dl_arena *arena, dl_sql_plan *agg, dl_error *err) {
    dl_sql_plan *scan = agg->left;
    if (scan == NULL || scan->kind != DL_SQL_PLAN_SCAN) {
        return DL_OK;
    }
    int32_t n = scan->n_cols;
    bool *used = dl_arena_alloc_zero(arena, (size_t)n + 1);
    int32_t *map = dl_arena_alloc_zero(arena, (size_t)(n + 1) * sizeof(int32_t));
    DL_CHECK(used != NULL && map != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    const dl_sql_aggregate *a = &agg->u.agg;
    for (int32_t k = 0; k < a->n_keys; k++) {
        mark_used(a->keys[k], used, n);
    }
    for (int32_t i = 0; i < a->n_aggs; i++) {
        for (int32_t j = 0; j < a->aggs[i].n_args; j++) {
            mark_used(a->aggs[i].args[j], used, n);
        }
        mark_used(a->aggs[i].filter, used, n);
    }
    for (int32_t f = 0; f < scan->u.scan.n_filters; f++) {
        mark_used(scan->u.scan.filters[f], used, n);
    }
    DL_TRY(prune_scan(arena, scan, used, map, err));
    for (int32_t k = 0; k < a->n_keys; k++) {
        remap(a->keys[k], map, n);
    }
    for (int32_t i = 0; i < a->n_aggs; i++) {
        for (int32_t j = 0; j < a->aggs[i].n_args; j++) {
            remap(a->aggs[i].args[j], map, n);
        }
        remap(a->aggs[i].filter, map, n);
    }
    return DL_OK;
}

/* ---- projections ----------------------------------------------------------------------------- */

/* PROJECT of column references over a PROJECT: one PROJECT picking the inner expressions. */
static void
merge_projects(dl_sql_plan *p) {
    while (p->left != NULL && p->left->kind == DL_SQL_PLAN_PROJECT) {
        dl_sql_plan *inner = p->left;
        for (int32_t i = 0; i < p->u.project.n_exprs; i++) {
            if (p->u.project.exprs[i]->kind != DL_SQL_BEXPR_COLUMN) {
                return;
            }
        }
        for (int32_t i = 0; i < p->u.project.n_exprs; i++) {
            p->u.project.exprs[i] = inner->u.project.exprs[p->u.project.exprs[i]->index];
        }
        p->left = inner->left;
    }
}

/* ---- filters into scans ------------------------------------------------------------------------
 */

static bool
has_volatile_or_subquery(const dl_sql_bexpr *e) {
    if (e->kind == DL_SQL_BEXPR_SUBQUERY || e->kind == DL_SQL_BEXPR_OUTER ||
        (e->kind == DL_SQL_BEXPR_CALL && e->fn->is_volatile)) {
        return true;
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        if (has_volatile_or_subquery(e->args[i])) {
            return true;
        }
    }
    return false;
}

/* FILTER(SCAN) -> SCAN with the filter's conjuncts. */
static dl_status
push_filter(dl_arena *arena, dl_sql_plan **node, dl_error *err) {
    dl_sql_plan *f = *node;
    dl_sql_plan *scan = f->left;
    if (scan == NULL || scan->kind != DL_SQL_PLAN_SCAN || has_volatile_or_subquery(f->u.cond)) {
        return DL_OK;
    }
    dl_sql_bexpr *c = f->u.cond;
    int32_t n = c->kind == DL_SQL_BEXPR_AND ? c->n_args : 1;
    dl_sql_scan *s = &scan->u.scan;
    dl_sql_bexpr **all =
        dl_arena_alloc_zero(arena, (size_t)(s->n_filters + n + 1) * sizeof(void *));
    DL_CHECK(all != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    if (s->n_filters > 0) {
        memcpy(all, s->filters, (size_t)s->n_filters * sizeof(void *));
    }
    if (c->kind == DL_SQL_BEXPR_AND) {
        memcpy(all + s->n_filters, c->args, (size_t)n * sizeof(void *));
    } else {
        all[s->n_filters] = c;
    }
    s->filters = all;
    s->n_filters += n;
    scan->est_rows = f->est_rows;
    *node = scan;
    return DL_OK;
}

/* A copy of e over right ++ left from one over left ++ right (nl, nr: the sides' widths). */
static dl_sql_bexpr *
swap_sides(dl_arena *arena, const dl_sql_bexpr *e, int32_t nl, int32_t nr) {
    dl_sql_bexpr *c = dl_arena_memdup(arena, e, sizeof(*e));
    if (c == NULL) {
        return NULL;
    }
    if (e->n_args > 0) {
        c->args = dl_arena_alloc_zero(arena, (size_t)e->n_args * sizeof(void *));
        if (c->args == NULL) {
            return NULL;
        }
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        c->args[i] = swap_sides(arena, e->args[i], nl, nr);
        if (c->args[i] == NULL) {
            return NULL;
        }
    }
    if (c->kind == DL_SQL_BEXPR_COLUMN) {
        c->index = c->index < nl ? c->index + nr : c->index - nl;
    }
    return c;
}

/* The join with its children swapped (same output as before, through a projection). */
static dl_status
swap_join(dl_arena *arena, dl_sql_plan **node, dl_error *err) {
    dl_sql_plan *j = *node;
    dl_sql_join *jn = &j->u.join;
    int32_t nl = j->left->n_cols;
    int32_t nr = j->right->n_cols;
    int32_t n = nl + nr;
    dl_type_field *f = dl_arena_alloc_zero(arena, (size_t)(n + 1) * sizeof(*f));
    dl_sql_bexpr **exprs = dl_arena_alloc_zero(arena, (size_t)(n + 1) * sizeof(void *));
    DL_CHECK(f != NULL && exprs != NULL, err, DL_ERR_NOMEM, "out of memory optimizing a join");
    dl_sql_copy(f, j->schema->fields + nl, (size_t)nr * sizeof(*f));
    dl_sql_copy(f + nr, j->schema->fields, (size_t)nl * sizeof(*f));
    if (jn->residual != NULL) {
        jn->residual = swap_sides(arena, jn->residual, nl, nr);
        DL_CHECK(jn->residual != NULL, err, DL_ERR_NOMEM, "out of memory optimizing a join");
    }
    dl_sql_bexpr **keys = jn->left_keys;
    jn->left_keys = jn->right_keys;
    jn->right_keys = keys;
    jn->type = jn->type == DL_SQL_JOIN_T_LEFT    ? DL_SQL_JOIN_T_RIGHT
               : jn->type == DL_SQL_JOIN_T_RIGHT ? DL_SQL_JOIN_T_LEFT
                                                 : jn->type;
    dl_sql_plan *t = j->left;
    j->left = j->right;
    j->right = t;
    const dl_type *orig = j->schema;
    DL_TRY(dl_vec_type_struct(arena, f, n, &j->schema, err));
    for (int32_t i = 0; i < n; i++) {
        int32_t from = i < nl ? nr + i : i - nl;
        exprs[i] = dl_sql_bexpr_column(arena, from, orig->fields[i].type);
        DL_CHECK(exprs[i] != NULL, err, DL_ERR_NOMEM, "out of memory optimizing a join");
    }
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(arena, DL_SQL_PLAN_PROJECT, orig->fields, n, &p, err));
    p->left = j;
    p->u.project.exprs = exprs;
    p->u.project.n_exprs = n;
    p->est_rows = j->est_rows;
    *node = p;
    return DL_OK;
}

/* Joins build their right side: put the smaller input (by estimated rows) there. */
static dl_status
optimize_join(dl_arena *arena, dl_sql_plan **node, dl_error *err) {
    dl_sql_plan *j = *node;
    dl_sql_join_type type = j->u.join.type;
    bool swappable = type == DL_SQL_JOIN_T_INNER || type == DL_SQL_JOIN_T_LEFT ||
                     type == DL_SQL_JOIN_T_RIGHT || type == DL_SQL_JOIN_T_FULL ||
                     type == DL_SQL_JOIN_T_CROSS;
    if (!swappable || j->left == NULL || j->right == NULL) {
        return DL_OK;
    }
    double l = j->left->est_rows;
    double r = j->right->est_rows;
    if (l < 0 || r < 0 || l >= r) {
        return DL_OK;
    }
    return swap_join(arena, node, err);
}

/* ---- the walk ---------------------------------------------------------------------------------
 */

static dl_status
optimize_node(dl_arena *arena, dl_sql_plan **node, dl_error *err) {
    dl_sql_plan *p = *node;
    if (p->left != NULL) {
        DL_TRY(optimize_node(arena, &p->left, err));
    }
    if (p->right != NULL) {
        DL_TRY(optimize_node(arena, &p->right, err));
    }
    switch (p->kind) {
    case DL_SQL_PLAN_FILTER:
        return push_filter(arena, node, err);
    case DL_SQL_PLAN_PROJECT:
        merge_projects(p);
        return prune_under_project(arena, p, err);
    case DL_SQL_PLAN_AGGREGATE:
        return prune_under_agg(arena, p, err);
    case DL_SQL_PLAN_LIMIT:
        if (p->left == NULL) {
            return DL_OK;
        }
        if (p->left->kind == DL_SQL_PLAN_SORT && p->left->u.sort.limit < 0 &&
            p->u.limit.limit >= 0) {
            p->left->u.sort.limit = p->u.limit.limit;
            p->left->u.sort.offset = p->u.limit.offset;
            *node = p->left;
        } else if (p->left->kind == DL_SQL_PLAN_SCAN && p->left->u.scan.n_filters == 0 &&
                   p->u.limit.limit >= 0) {
            p->left->u.scan.limit = p->u.limit.limit + p->u.limit.offset;
        }
        return DL_OK;
    case DL_SQL_PLAN_JOIN:
        return optimize_join(arena, node, err);
    default:
        return DL_OK;
    }
}

static bool
has_join(const dl_sql_plan *p) {
    return p != NULL && (p->kind == DL_SQL_PLAN_JOIN || has_join(p->left) || has_join(p->right));
}

dl_status
dl_sql_optimize(dl_arena *arena, dl_sql_plan **plan, dl_error *err) {
    DL_TRY(dl_sql_push_filters(arena, plan, err));
    if (has_join(*plan)) {
        dl_sql_estimate(arena, *plan);
        DL_TRY(dl_sql_order_joins(arena, plan, err));
    }
    DL_TRY(optimize_node(arena, plan, err));
    DL_TRY(dl_sql_reduce_aggregates(arena, *plan, err));
    return dl_sql_prune_columns(arena, *plan, err);
}
