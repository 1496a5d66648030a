/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Column pruning through the plan (sql_optimize.c's last pass, top down): every node is told
 * which of its output columns its consumer reads, asks its inputs for only what it needs, and
 * remaps its expressions to its inputs' narrower outputs. So a scan under joins, filters and
 * sorts reads only the columns the query uses (TPC-H's lineitem has 16; q3 reads 4), and a
 * join builds and gathers only them.
 *
 *   PROJECT     keeps the expressions its consumer uses and reads their columns; its output
 *               narrows
 *   AGGREGATE   reads the columns of its keys, arguments and FILTER clauses
 *   FILTER      what its consumer reads and the condition's columns; its output narrows
 *   SORT, LIMIT as FILTER, with the sort keys
 *   WINDOW      what its consumer reads of its input and its own expressions' columns
 *   JOIN        per side, what its consumer reads of that side and the side's keys and the
 *               residual's columns; its output narrows
 *   SCAN        what its consumer reads and its filters' columns; its output narrows
 *
 * A node whose output narrows returns the map (old column -> new column, -1 when gone) for
 * its consumer to remap its expressions. Other nodes (VALUES, RANGE, ROWS, SETOP) keep
 * their output and ask their inputs for every column. The root keeps its output.
 *
 * Expressions are rewritten as copies (the binder and merge_projects may share nodes between
 * expressions, so an in-place remap could apply twice).
 */
#include <string.h>

#include "sql/plan/sql_plan.h"

/* What a node's consumer reads: used[i] for output column i (NULL: every column). */
typedef struct need {
    const bool *used;
} need;

static bool
is_used(need nd, int32_t i) {
    return nd.used == NULL || nd.used[i];
}

static void
mark(const dl_sql_bexpr *e, bool *used, int32_t lo, int32_t hi) {
    if (e == NULL) {
        return;
    }
    if (e->kind == DL_SQL_BEXPR_COLUMN && e->index >= lo && e->index < hi) {
        used[e->index - lo] = true;
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        mark(e->args[i], used, lo, hi);
    }
}

/* *e remapped in place of the pointer (map NULL: unchanged). */
static dl_status
remap_expr(dl_arena *arena, dl_sql_bexpr **e, const int32_t *map, int32_t n, dl_error *err) {
    if (*e == NULL || map == NULL) {
        return DL_OK;
    }
    *e = dl_sql_bexpr_remap(arena, *e, map, n);
    DL_CHECK(*e != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    return DL_OK;
}

static dl_status prune(dl_arena *arena, dl_sql_plan *p, need nd, int32_t **out_map, dl_error *err);

static dl_status
alloc_used(dl_arena *arena, int32_t n, bool **out, dl_error *err) {
    *out = dl_arena_alloc_zero(arena, (size_t)n + 1);
    DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    return DL_OK;
}

/* Child c of a node, asked for used; *out_map its map (NULL when its output kept its width). */
static dl_status
prune_child(dl_arena *arena, dl_sql_plan *c, const bool *used, int32_t **out_map, dl_error *err) {
    need nd = {.used = used};
    return prune(arena, c, nd, out_map, err);
}

/* The node's schema narrowed by map (width n before). */
static dl_status
narrow_schema(dl_arena *arena, dl_sql_plan *p, const int32_t *map, dl_error *err) {
    int32_t n = p->n_cols;
    int32_t kept = 0;
    dl_type_field *f = dl_arena_alloc_zero(arena, (size_t)(n + 1) * sizeof(*f));
    DL_CHECK(f != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    for (int32_t i = 0; i < n; i++) {
        if (map[i] >= 0) {
            f[map[i]] = p->schema->fields[i];
            kept++;
        }
    }
    DL_TRY(dl_vec_type_struct(arena, f, kept, &p->schema, err));
    p->n_cols = kept;
    return DL_OK;
}

static dl_status
prune_scan_node(dl_arena *arena, dl_sql_plan *p, need nd, int32_t **out_map, dl_error *err) {
    dl_sql_scan *s = &p->u.scan;
    int32_t n = p->n_cols;
    bool *used = NULL;
    DL_TRY(alloc_used(arena, n, &used, err));
    int32_t kept = 0;
    for (int32_t i = 0; i < n; i++) {
        used[i] = is_used(nd, i);
    }
    for (int32_t f = 0; f < s->n_filters; f++) {
        mark(s->filters[f], used, 0, n);
    }
    int32_t *map = dl_arena_alloc_zero(arena, (size_t)(n + 1) * sizeof(int32_t));
    int32_t *cols = dl_arena_alloc_zero(arena, (size_t)(n + 1) * sizeof(int32_t));
    DL_CHECK(map != NULL && cols != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    for (int32_t i = 0; i < n; i++) {
        map[i] = used[i] ? kept : -1;
        if (used[i]) {
            cols[kept++] = s->columns[i];
        }
    }
    if (kept == n) {
        return DL_OK;
    }
    for (int32_t f = 0; f < s->n_filters; f++) {
        DL_TRY(remap_expr(arena, &s->filters[f], map, n, err));
    }
    s->columns = cols;
    s->n_columns = kept;
    DL_TRY(narrow_schema(arena, p, map, err));
    *out_map = map;
    return DL_OK;
}

/* Keeps the expressions its consumer reads (at least one: a node has a column), asks the
 * child for their columns; *out_map says where the kept ones went. */
static dl_status
prune_project(dl_arena *arena, dl_sql_plan *p, need nd, int32_t **out_map, dl_error *err) {
    int32_t n = p->u.project.n_exprs;
    dl_sql_bexpr **exprs = p->u.project.exprs;
    int32_t nc = p->left->n_cols;
    bool *used = NULL;
    DL_TRY(alloc_used(arena, nc, &used, err));
    int32_t *map = dl_arena_alloc_zero(arena, (size_t)(n + 1) * sizeof(int32_t));
    DL_CHECK(map != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    int32_t kept = 0;
    for (int32_t i = 0; i < n; i++) {
        bool is_kept = is_used(nd, i) || (kept == 0 && i == n - 1);
        map[i] = is_kept ? kept : -1;
        if (is_kept) {
            exprs[kept++] = exprs[i];
            mark(exprs[i], used, 0, nc);
        }
    }
    int32_t *child_map = NULL;
    DL_TRY(prune_child(arena, p->left, used, &child_map, err));
    for (int32_t i = 0; i < kept; i++) {
        DL_TRY(remap_expr(arena, &exprs[i], child_map, nc, err));
    }
    if (kept < n) {
        DL_TRY(narrow_schema(arena, p, map, err));
        p->u.project.n_exprs = kept;
        *out_map = map;
    }
    return DL_OK;
}

static dl_status
prune_aggregate(dl_arena *arena, dl_sql_plan *p, dl_error *err) {
    dl_sql_aggregate *a = &p->u.agg;
    int32_t nc = p->left->n_cols;
    bool *used = NULL;
    DL_TRY(alloc_used(arena, nc, &used, err));
    for (int32_t k = 0; k < a->n_keys; k++) {
        mark(a->keys[k], used, 0, nc);
    }
    for (int32_t i = 0; i < a->n_aggs; i++) {
        for (int32_t j = 0; j < a->aggs[i].n_args; j++) {
            mark(a->aggs[i].args[j], used, 0, nc);
        }
        mark(a->aggs[i].filter, used, 0, nc);
    }
    int32_t *map = NULL;
    DL_TRY(prune_child(arena, p->left, used, &map, err));
    for (int32_t k = 0; k < a->n_keys; k++) {
        DL_TRY(remap_expr(arena, &a->keys[k], map, nc, err));
    }
    for (int32_t i = 0; i < a->n_aggs; i++) {
        for (int32_t j = 0; j < a->aggs[i].n_args; j++) {
            DL_TRY(remap_expr(arena, &a->aggs[i].args[j], map, nc, err));
        }
        DL_TRY(remap_expr(arena, &a->aggs[i].filter, map, nc, err));
    }
    return DL_OK;
}

/* FILTER, SORT and LIMIT: the output is the child's; *out_map is the child's. */
static dl_status
prune_passthrough(dl_arena *arena, dl_sql_plan *p, need nd, int32_t **out_map, dl_error *err) {
    int32_t n = p->n_cols;
    bool *used = NULL;
    DL_TRY(alloc_used(arena, n, &used, err));
    for (int32_t i = 0; i < n; i++) {
        used[i] = is_used(nd, i);
    }
    if (p->kind == DL_SQL_PLAN_FILTER) {
        mark(p->u.cond, used, 0, n);
    }
    for (int32_t k = 0; p->kind == DL_SQL_PLAN_SORT && k < p->u.sort.n_keys; k++) {
        mark(p->u.sort.keys[k].expr, used, 0, n);
    }
    int32_t *map = NULL;
    DL_TRY(prune_child(arena, p->left, used, &map, err));
    if (map == NULL) {
        return DL_OK;
    }
    if (p->kind == DL_SQL_PLAN_FILTER) {
        DL_TRY(remap_expr(arena, &p->u.cond, map, n, err));
    }
    for (int32_t k = 0; p->kind == DL_SQL_PLAN_SORT && k < p->u.sort.n_keys; k++) {
        DL_TRY(remap_expr(arena, &p->u.sort.keys[k].expr, map, n, err));
    }
    p->schema = p->left->schema;
    p->n_cols = p->left->n_cols;
    *out_map = map;
    return DL_OK;
}

/* One expression of a WINDOW node: its columns marked in used, or (used NULL) remapped. */
static dl_status
window_expr(dl_arena *arena, dl_sql_bexpr **e, bool *used, const int32_t *map, int32_t nc,
            dl_error *err) {
    if (used != NULL) {
        mark(*e, used, 0, nc);
        return DL_OK;
    }
    return remap_expr(arena, e, map, nc, err);
}

/* The expressions of a WINDOW node (over the child's columns), through window_expr. */
static dl_status
window_exprs(dl_arena *arena, dl_sql_window_node *w, bool *used, const int32_t *map, int32_t nc,
             dl_error *err) {
    for (int32_t k = 0; k < w->n_partition + w->n_order; k++) {
        dl_sql_bexpr **e =
            k < w->n_partition ? &w->partition[k] : &w->order[k - w->n_partition].expr;
        DL_TRY(window_expr(arena, e, used, map, nc, err));
    }
    for (int32_t f = 0; f < w->n_fns; f++) {
        dl_sql_agg *a = &w->fns[f].agg;
        for (int32_t j = 0; j <= a->n_args; j++) {
            DL_TRY(
                window_expr(arena, j < a->n_args ? &a->args[j] : &a->filter, used, map, nc, err));
        }
    }
    return DL_OK;
}

/* WINDOW: the child's columns its consumer reads and the window's own; the functions stay. */
static dl_status
prune_window(dl_arena *arena, dl_sql_plan *p, need nd, int32_t **out_map, dl_error *err) {
    int32_t nc = p->left->n_cols;
    bool *used = NULL;
    DL_TRY(alloc_used(arena, nc, &used, err));
    for (int32_t i = 0; i < nc; i++) {
        used[i] = is_used(nd, i);
    }
    DL_TRY(window_exprs(arena, &p->u.window, used, NULL, nc, err));
    int32_t *child_map = NULL;
    DL_TRY(prune_child(arena, p->left, used, &child_map, err));
    if (child_map == NULL) {
        return DL_OK;
    }
    DL_TRY(window_exprs(arena, &p->u.window, NULL, child_map, nc, err));
    int32_t *map = dl_arena_alloc_zero(arena, (size_t)(p->n_cols + 1) * sizeof(int32_t));
    DL_CHECK(map != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    for (int32_t i = 0; i < p->n_cols; i++) {
        map[i] = i < nc ? child_map[i] : p->left->n_cols + (i - nc);
    }
    DL_TRY(narrow_schema(arena, p, map, err));
    *out_map = map;
    return DL_OK;
}

/* The join's output map from its sides' maps (NULL: the side kept its width). */
static dl_status
join_output_map(dl_arena *arena, const dl_sql_plan *p, int32_t nl, int32_t nr, const int32_t *lm,
                const int32_t *rm, int32_t **out, dl_error *err) {
    int32_t n = p->n_cols;
    int32_t *map = dl_arena_alloc_zero(arena, (size_t)(n + 1) * sizeof(int32_t));
    DL_CHECK(map != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    int32_t nl_new = p->left->n_cols;
    for (int32_t i = 0; i < n; i++) {
        if (i < nl) {
            map[i] = lm != NULL ? lm[i] : i;
        } else if (i < nl + nr && p->u.join.type != DL_SQL_JOIN_T_MARK) {
            int32_t r = rm != NULL ? rm[i - nl] : i - nl;
            map[i] = r >= 0 ? nl_new + r : -1;
        } else {
            map[i] = nl_new; /* MARK's mark column */
        }
    }
    *out = map;
    return DL_OK;
}

/* Asks each side of a join for what the consumer and the join's own expressions read. */
static dl_status
prune_join(dl_arena *arena, dl_sql_plan *p, need nd, int32_t **out_map, dl_error *err) {
    dl_sql_join *j = &p->u.join;
    int32_t nl = p->left->n_cols;
    int32_t nr = p->right->n_cols;
    bool has_right = j->type != DL_SQL_JOIN_T_SEMI && j->type != DL_SQL_JOIN_T_ANTI &&
                     j->type != DL_SQL_JOIN_T_MARK;
    bool *lu = NULL;
    bool *ru = NULL;
    DL_TRY(alloc_used(arena, nl, &lu, err));
    DL_TRY(alloc_used(arena, nr, &ru, err));
    for (int32_t i = 0; i < nl; i++) {
        lu[i] = is_used(nd, i);
    }
    for (int32_t i = 0; i < nr && has_right; i++) {
        ru[i] = is_used(nd, nl + i);
    }
    for (int32_t k = 0; k < j->n_keys; k++) {
        mark(j->left_keys[k], lu, 0, nl);
        mark(j->right_keys[k], ru, 0, nr);
    }
    mark(j->residual, lu, 0, nl);
    mark(j->residual, ru, nl, nl + nr);
    int32_t *lm = NULL;
    int32_t *rm = NULL;
    DL_TRY(prune_child(arena, p->left, lu, &lm, err));
    DL_TRY(prune_child(arena, p->right, ru, &rm, err));
    if (lm == NULL && rm == NULL) {
        return DL_OK;
    }
    for (int32_t k = 0; k < j->n_keys; k++) {
        DL_TRY(remap_expr(arena, &j->left_keys[k], lm, nl, err));
        DL_TRY(remap_expr(arena, &j->right_keys[k], rm, nr, err));
    }
    int32_t *both = NULL;
    DL_TRY(join_output_map(arena, p, nl, nr, lm, rm, &both, err));
    if (j->residual != NULL) {
        /* The residual sees left ++ right whatever the join outputs. */
        int32_t *rmap = dl_arena_alloc_zero(arena, (size_t)(nl + nr + 1) * sizeof(int32_t));
        DL_CHECK(rmap != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
        for (int32_t i = 0; i < nl + nr; i++) {
            int32_t r = i < nl ? (lm != NULL ? lm[i] : i) : (rm != NULL ? rm[i - nl] : i - nl);
            rmap[i] = r < 0 ? -1 : i < nl ? r : p->left->n_cols + r;
        }
        DL_TRY(remap_expr(arena, &j->residual, rmap, nl + nr, err));
    }
    DL_TRY(narrow_schema(arena, p, both, err));
    *out_map = both;
    return DL_OK;
}

/* A node that keeps its output: its inputs asked for every column. */
static dl_status
prune_inputs_whole(dl_arena *arena, dl_sql_plan *p, dl_error *err) {
    int32_t *ignored = NULL;
    if (p->left != NULL) {
        DL_TRY(prune_child(arena, p->left, NULL, &ignored, err));
    }
    return p->right != NULL ? prune_child(arena, p->right, NULL, &ignored, err) : DL_OK;
}

static dl_status
prune(dl_arena *arena, dl_sql_plan *p, need nd, int32_t **out_map, dl_error *err) {
    *out_map = NULL;
    switch (p->kind) {
    case DL_SQL_PLAN_SCAN:
        return prune_scan_node(arena, p, nd, out_map, err);
    case DL_SQL_PLAN_PROJECT:
        return prune_project(arena, p, nd, out_map, err);
    case DL_SQL_PLAN_AGGREGATE:
        return prune_aggregate(arena, p, err);
    case DL_SQL_PLAN_FILTER:
    case DL_SQL_PLAN_SORT:
    case DL_SQL_PLAN_LIMIT:
        return prune_passthrough(arena, p, nd, out_map, err);
    case DL_SQL_PLAN_JOIN:
        return prune_join(arena, p, nd, out_map, err);
    case DL_SQL_PLAN_WINDOW:
        return prune_window(arena, p, nd, out_map, err);
    default:
        return prune_inputs_whole(arena, p, err);
    }
}

dl_status
dl_sql_prune_columns(dl_arena *arena, dl_sql_plan *root, dl_error *err) {
    int32_t *map = NULL;
    need all = {.used = NULL};
    return prune(arena, root, all, &map, err);
}
