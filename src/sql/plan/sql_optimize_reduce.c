/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Semi-join reduction of grouped aggregates (sql_optimize.c's fourth pass, after filters are in
 * the scans and before columns are pruned). A join whose one side is an aggregate grouped by
 * the join's keys -- a decorrelated scalar subquery (`l_quantity < (SELECT 0.2 * avg(l_quantity)
 * FROM lineitem WHERE l_partkey = p_partkey)` becomes a SINGLE join with lineitem grouped by
 * l_partkey: TPC-H q17, q20) or a derived table joined on its GROUP BY keys -- needs only the
 * groups whose keys the other side holds. When the other side's keys come from a selective
 * input much smaller than the aggregate's (the ~200 parts of q17's brand and container
 * against 6 M lineitem rows), that input is copied under the aggregate as the build side of a
 * SEMI join on the grouping expressions, so only the rows of the groups that can match are
 * aggregated (DuckDB's delim join and Spark's dynamic filters do the same work).
 *
 * Why it is exact: a group's rows all share its keys, so dropping rows by key drops whole
 * groups and leaves the others unchanged. The copy (the key source) is found by walking down
 * the other side from the join's key columns through nodes whose output key values are a subset
 * of their input's: projections of plain columns, filters (left out of the copy), inner and
 * cross joins (only the side holding the keys is copied), the preserved side of LEFT, SINGLE and
 * MARK joins, aggregates grouping by the key columns; it stops at a SEMI or ANTI join (copied
 * whole: that is usually where the selectivity is), a scan, or a filter over a scan or range. So
 * every key the join can meet is in the copy, and a group the reduction drops has no partner. NULL
 * keys: a key compared with
 * `<=>` keeps `<=>` in the SEMI join; otherwise a NULL key matches nothing either way. The
 * empty-group rules are untouched: a COUNT subquery's outer row without a group still gets
 * its 0 from the SINGLE join's presence column (sql_bind_subq.c).
 *
 * When it pays: the key source must hold a filter or a join, be made of scans, ranges,
 * filters, projections and joins without subqueries or volatile calls (it runs a second time), and
 * be estimated at most half the aggregate's input.
 */
#include <string.h>

#include "sql/plan/sql_plan.h"

#define MAX_KEYS 16

/* ---- copying the key source ---------------------------------------------------------------- */

static bool
is_pure(const dl_sql_bexpr *e) {
    if (e == NULL) {
        return true;
    }
    if (e->kind == DL_SQL_BEXPR_SUBQUERY || e->kind == DL_SQL_BEXPR_OUTER || e->is_volatile ||
        (e->kind == DL_SQL_BEXPR_CALL && e->fn->is_volatile)) {
        return false;
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        if (!is_pure(e->args[i])) {
            return false;
        }
    }
    return true;
}

static bool
all_pure(dl_sql_bexpr *const *es, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        if (!is_pure(es[i])) {
            return false;
        }
    }
    return true;
}

/* Whether p can run a second time as a copy; *selective: it holds a filter or a join. */
static bool
is_copyable(const dl_sql_plan *p, bool *selective) {
    switch (p->kind) {
    case DL_SQL_PLAN_RANGE:
        return true;
    case DL_SQL_PLAN_SCAN:
        *selective = *selective || p->u.scan.n_filters > 0 || p->u.scan.file_set != NULL;
        return all_pure(p->u.scan.filters, p->u.scan.n_filters);
    case DL_SQL_PLAN_FILTER:
        *selective = true;
        return is_pure(p->u.cond) && is_copyable(p->left, selective);
    case DL_SQL_PLAN_PROJECT:
        return all_pure(p->u.project.exprs, p->u.project.n_exprs) &&
               is_copyable(p->left, selective);
    case DL_SQL_PLAN_JOIN:
        *selective = true;
        return all_pure(p->u.join.left_keys, p->u.join.n_keys) &&
               all_pure(p->u.join.right_keys, p->u.join.n_keys) && is_pure(p->u.join.residual) &&
               is_copyable(p->left, selective) && is_copyable(p->right, selective);
    default:
        return false;
    }
}

static dl_status
copy_exprs(dl_arena *arena, dl_sql_bexpr ***es, int32_t n, dl_error *err) {
    if (n == 0) {
        return DL_OK;
    }
    dl_sql_bexpr **c = dl_arena_alloc_zero(arena, (size_t)n * sizeof(void *));
    DL_CHECK(c != NULL, err, DL_ERR_NOMEM, "out of memory optimizing a join");
    for (int32_t i = 0; i < n; i++) {
        c[i] = dl_sql_bexpr_remap(arena, (*es)[i], NULL, 0);
        DL_CHECK(c[i] != NULL, err, DL_ERR_NOMEM, "out of memory optimizing a join");
    }
    *es = c;
    return DL_OK;
}

static dl_status
copy_expr(dl_arena *arena, dl_sql_bexpr **e, dl_error *err) {
    if (*e != NULL) {
        *e = dl_sql_bexpr_remap(arena, *e, NULL, 0);
        DL_CHECK(*e != NULL, err, DL_ERR_NOMEM, "out of memory optimizing a join");
    }
    return DL_OK;
}

static dl_status
copy_join(dl_arena *arena, dl_sql_join *j, dl_error *err) {
    DL_TRY(copy_exprs(arena, &j->left_keys, j->n_keys, err));
    DL_TRY(copy_exprs(arena, &j->right_keys, j->n_keys, err));
    if (j->n_keys > 0) {
        j->is_null_equal = dl_arena_memdup(arena, j->is_null_equal, (size_t)j->n_keys);
        DL_CHECK(j->is_null_equal != NULL, err, DL_ERR_NOMEM, "out of memory optimizing a join");
    }
    return copy_expr(arena, &j->residual, err);
}

/* The node's own expressions and the arrays later passes rewrite, copied (c is a copy of p). */
static dl_status
copy_payload(dl_arena *arena, const dl_sql_plan *p, dl_sql_plan *c, dl_error *err) {
    switch (p->kind) {
    case DL_SQL_PLAN_SCAN:
        c->u.scan.columns =
            dl_arena_memdup(arena, p->u.scan.columns, (size_t)(p->n_cols + 1) * sizeof(int32_t));
        DL_CHECK(c->u.scan.columns != NULL, err, DL_ERR_NOMEM, "out of memory optimizing a join");
        return copy_exprs(arena, &c->u.scan.filters, p->u.scan.n_filters, err);
    case DL_SQL_PLAN_FILTER:
        return copy_expr(arena, &c->u.cond, err);
    case DL_SQL_PLAN_PROJECT:
        return copy_exprs(arena, &c->u.project.exprs, p->u.project.n_exprs, err);
    case DL_SQL_PLAN_JOIN:
        return copy_join(arena, &c->u.join, err);
    default: /* RANGE */
        return DL_OK;
    }
}

/* A deep copy of a copyable plan (nodes, expressions and the arrays later passes rewrite). */
static dl_status
copy_plan(dl_arena *arena, const dl_sql_plan *p, dl_sql_plan **out, dl_error *err) {
    dl_sql_plan *c = dl_arena_memdup(arena, p, sizeof(*p));
    DL_CHECK(c != NULL, err, DL_ERR_NOMEM, "out of memory optimizing a join");
    DL_TRY(copy_payload(arena, p, c, err));
    if (p->left != NULL) {
        DL_TRY(copy_plan(arena, p->left, &c->left, err));
    }
    if (p->right != NULL) {
        DL_TRY(copy_plan(arena, p->right, &c->right, err));
    }
    *out = c;
    return DL_OK;
}

/* ---- finding the key source and the grouping keys ---------------------------------------------
 */

/* True when every cols[i] is below n. */
static bool
all_below(const int32_t *cols, int32_t n_cols, int32_t n) {
    for (int32_t i = 0; i < n_cols; i++) {
        if (cols[i] >= n) {
            return false;
        }
    }
    return true;
}

static bool
all_at_least(const int32_t *cols, int32_t n_cols, int32_t n) {
    for (int32_t i = 0; i < n_cols; i++) {
        if (cols[i] < n) {
            return false;
        }
    }
    return true;
}

/* The next node down from p whose key values (cols, rewritten to its columns) include p's,
 * or NULL where the walk stops (module comment). */
static const dl_sql_plan *
source_step(const dl_sql_plan *p, int32_t *cols, int32_t n) {
    switch (p->kind) {
    case DL_SQL_PLAN_FILTER:
        return p->left;
    case DL_SQL_PLAN_PROJECT:
        for (int32_t i = 0; i < n; i++) {
            if (p->u.project.exprs[cols[i]]->kind != DL_SQL_BEXPR_COLUMN) {
                return NULL;
            }
        }
        for (int32_t i = 0; i < n; i++) {
            cols[i] = p->u.project.exprs[cols[i]]->index;
        }
        return p->left;
    case DL_SQL_PLAN_AGGREGATE:
        if (p->u.agg.n_sets > 0 || !all_below(cols, n, p->u.agg.n_keys)) {
            return NULL;
        }
        for (int32_t i = 0; i < n; i++) {
            if (p->u.agg.keys[cols[i]]->kind != DL_SQL_BEXPR_COLUMN) {
                return NULL;
            }
        }
        for (int32_t i = 0; i < n; i++) {
            cols[i] = p->u.agg.keys[cols[i]]->index;
        }
        return p->left;
    case DL_SQL_PLAN_JOIN: {
        dl_sql_join_type t = p->u.join.type;
        int32_t nl = p->left->n_cols;
        bool inner = t == DL_SQL_JOIN_T_INNER || t == DL_SQL_JOIN_T_CROSS;
        bool keeps_left = inner || t == DL_SQL_JOIN_T_LEFT || t == DL_SQL_JOIN_T_SINGLE ||
                          t == DL_SQL_JOIN_T_MARK;
        if (keeps_left && all_below(cols, n, nl)) {
            return p->left;
        }
        if ((inner || t == DL_SQL_JOIN_T_RIGHT) && all_at_least(cols, n, nl)) {
            for (int32_t i = 0; i < n; i++) {
                cols[i] -= nl;
            }
            return p->right;
        }
        return NULL;
    }
    default:
        return NULL;
    }
}

/* The key source of p for its columns cols (rewritten to the source's columns). */
static const dl_sql_plan *
key_source(const dl_sql_plan *p, int32_t *cols, int32_t n) {
    for (;;) {
        bool is_leaf_filter = p->kind == DL_SQL_PLAN_FILTER && (p->left->kind == DL_SQL_PLAN_SCAN ||
                                                                p->left->kind == DL_SQL_PLAN_RANGE);
        if (p->kind == DL_SQL_PLAN_SCAN || is_leaf_filter ||
            (p->kind == DL_SQL_PLAN_JOIN &&
             (p->u.join.type == DL_SQL_JOIN_T_SEMI || p->u.join.type == DL_SQL_JOIN_T_ANTI))) {
            return p;
        }
        int32_t saved[MAX_KEYS];
        memcpy(saved, cols, (size_t)n * sizeof(int32_t));
        const dl_sql_plan *next = source_step(p, cols, n);
        if (next == NULL) {
            memcpy(cols, saved, (size_t)n * sizeof(int32_t));
            return p;
        }
        p = next;
    }
}

/* The AGGREGATE under p (through projections of plain columns and filters) whose grouping
 * keys p's columns cols are: the slot it hangs in (cols become key numbers), or NULL. */
static dl_sql_plan **
grouped_by(dl_sql_plan **slot, int32_t *cols, int32_t n) {
    while (*slot != NULL) {
        dl_sql_plan *p = *slot;
        if (p->kind == DL_SQL_PLAN_AGGREGATE) {
            return p->u.agg.n_sets == 0 && all_below(cols, n, p->u.agg.n_keys) ? slot : NULL;
        }
        if (p->kind == DL_SQL_PLAN_PROJECT) {
            for (int32_t i = 0; i < n; i++) {
                if (p->u.project.exprs[cols[i]]->kind != DL_SQL_BEXPR_COLUMN) {
                    return NULL;
                }
                cols[i] = p->u.project.exprs[cols[i]]->index;
            }
        } else if (p->kind != DL_SQL_PLAN_FILTER) {
            return NULL;
        }
        slot = &p->left;
    }
    return NULL;
}

/* ---- the rewrite ----------------------------------------------------------------------------- */

typedef struct side_keys {
    int32_t agg_cols[MAX_KEYS];   /* the aggregate side's key columns */
    int32_t other_cols[MAX_KEYS]; /* the other side's */
    bool null_equal[MAX_KEYS];
    int32_t n;
} side_keys;

/* The keys of j that are plain columns on both sides; agg_is_right picks the sides. */
static void
plain_keys(const dl_sql_join *j, bool agg_is_right, side_keys *k) {
    k->n = 0;
    for (int32_t i = 0; i < j->n_keys && k->n < MAX_KEYS; i++) {
        const dl_sql_bexpr *a = agg_is_right ? j->right_keys[i] : j->left_keys[i];
        const dl_sql_bexpr *o = agg_is_right ? j->left_keys[i] : j->right_keys[i];
        if (a->kind == DL_SQL_BEXPR_COLUMN && o->kind == DL_SQL_BEXPR_COLUMN) {
            k->agg_cols[k->n] = a->index;
            k->other_cols[k->n] = o->index;
            k->null_equal[k->n] = j->is_null_equal[i];
            k->n++;
        }
    }
}

/* SEMI(agg's input, copy of src) on the grouping expressions = the source's key columns. */
static dl_status
insert_semi(dl_arena *arena, dl_sql_plan *agg, const dl_sql_plan *src, const side_keys *k,
            dl_error *err) {
    dl_sql_plan *in = agg->left;
    dl_sql_plan *semi = NULL;
    DL_TRY(dl_sql_plan_new(arena, DL_SQL_PLAN_JOIN, in->schema->fields, in->n_cols, &semi, err));
    dl_sql_join *j = &semi->u.join;
    j->type = DL_SQL_JOIN_T_SEMI;
    j->n_keys = k->n;
    j->left_keys = dl_arena_alloc_zero(arena, (size_t)k->n * sizeof(void *));
    j->right_keys = dl_arena_alloc_zero(arena, (size_t)k->n * sizeof(void *));
    j->is_null_equal = dl_arena_alloc_zero(arena, (size_t)k->n);
    DL_CHECK(j->left_keys != NULL && j->right_keys != NULL && j->is_null_equal != NULL, err,
             DL_ERR_NOMEM, "out of memory optimizing a join");
    for (int32_t i = 0; i < k->n; i++) {
        j->left_keys[i] = dl_sql_bexpr_remap(arena, agg->u.agg.keys[k->agg_cols[i]], NULL, 0);
        j->right_keys[i] = dl_sql_bexpr_column(arena, k->other_cols[i],
                                               src->schema->fields[k->other_cols[i]].type);
        DL_CHECK(j->left_keys[i] != NULL && j->right_keys[i] != NULL, err, DL_ERR_NOMEM,
                 "out of memory optimizing a join");
        j->is_null_equal[i] = k->null_equal[i];
    }
    DL_TRY(copy_plan(arena, src, &semi->right, err));
    semi->left = in;
    semi->loc = agg->loc;
    semi->est_rows = DL_MIN(in->est_rows, src->est_rows);
    agg->left = semi;
    return DL_OK;
}

/* Whether every key's type is the same on both sides of the SEMI join to be. */
static bool
types_match(const dl_sql_plan *agg, const dl_sql_plan *src, const side_keys *k) {
    for (int32_t i = 0; i < k->n; i++) {
        if (!dl_vec_type_equal(agg->u.agg.keys[k->agg_cols[i]]->type,
                               src->schema->fields[k->other_cols[i]].type)) {
            return false;
        }
    }
    return true;
}

/* Tries the reduction with the aggregate on one side of join j (module comment). */
static dl_status
reduce_side(dl_arena *arena, dl_sql_plan *j, bool agg_is_right, dl_error *err) {
    side_keys k;
    plain_keys(&j->u.join, agg_is_right, &k);
    if (k.n == 0) {
        return DL_OK;
    }
    dl_sql_plan **slot = grouped_by(agg_is_right ? &j->right : &j->left, k.agg_cols, k.n);
    if (slot == NULL) {
        return DL_OK;
    }
    dl_sql_plan *agg = *slot;
    const dl_sql_plan *src = key_source(agg_is_right ? j->left : j->right, k.other_cols, k.n);
    bool selective = false;
    if (src == NULL || !is_copyable(src, &selective) || !selective || !types_match(agg, src, &k)) {
        return DL_OK;
    }
    double in = agg->left->est_rows;
    if (src->est_rows < 0 || in < 0 || src->est_rows * 2 > in) {
        return DL_OK;
    }
    return insert_semi(arena, agg, src, &k, err);
}

static dl_status
reduce_node(dl_arena *arena, dl_sql_plan *p, dl_error *err) {
    if (p->left != NULL) {
        DL_TRY(reduce_node(arena, p->left, err));
    }
    if (p->right != NULL) {
        DL_TRY(reduce_node(arena, p->right, err));
    }
    if (p->kind != DL_SQL_PLAN_JOIN || p->u.join.n_keys == 0 || p->u.join.is_null_aware) {
        return DL_OK;
    }
    dl_sql_join_type t = p->u.join.type;
    if (t == DL_SQL_JOIN_T_INNER || t == DL_SQL_JOIN_T_SINGLE || t == DL_SQL_JOIN_T_LEFT ||
        t == DL_SQL_JOIN_T_SEMI) {
        DL_TRY(reduce_side(arena, p, true, err));
    }
    if (t == DL_SQL_JOIN_T_INNER || t == DL_SQL_JOIN_T_RIGHT) {
        DL_TRY(reduce_side(arena, p, false, err));
    }
    return DL_OK;
}

dl_status
dl_sql_reduce_aggregates(dl_arena *arena, dl_sql_plan *root, dl_error *err) {
    return reduce_node(arena, root, err);
}
