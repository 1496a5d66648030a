/* SPDX-License-Identifier: Apache-2.0 */
/*
 * EXPLAIN's text (sql_plan.h, dl_sql_plan_explain_tree): a plan as a tree in Spark's layout,
 *
 *   Project [k, (id + 1) AS x]  (est. 10 rows)
 *   +- HashJoin INNER [id = id]
 *      :- Scan delta default.t (version 3)
 *      :       columns: id, k
 *      +- Range (0, 10, step 1)
 *
 * one node per line ("+- " before the last child, ":- " before the others), its details on the
 * lines under it, and expressions printed as SQL with the column names of the node's input.
 * Names are the physical operators' (HashAggregate, HashJoin, TopN) or, for the logical
 * sections of EXPLAIN EXTENDED, Spark's logical ones (Aggregate, Join, Sort). What only the
 * executor knows (files a scan keeps, EXPLAIN ANALYZE's counters) comes from hooks.
 */
#include <inttypes.h>
#include <string.h>

#include "sql/func/sql_fn_int.h"
#include "sql/plan/sql_plan.h"

/* The names an expression's COLUMN indexes stand for: a's fields, then b's (a join's
 * residual sees left ++ right). */
typedef struct names {
    const dl_type *a;
    const dl_type *b;
    const dl_sql_plan *from; /* the node producing a (one input only), or NULL */
} names;

static dl_status agg_sql(const names *n, const dl_sql_agg *a, dl_buf *out, dl_error *err);
static dl_status wfn_sql(const names *n, const dl_sql_wfn *f, dl_buf *out, dl_error *err);

static const char *
column_name(const names *n, int32_t index) {
    int32_t n_a = n->a != NULL ? n->a->n_fields : 0;
    if (index >= 0 && index < n_a) {
        return n->a->fields[index].name;
    }
    if (n->b != NULL && index >= n_a && index - n_a < n->b->n_fields) {
        return n->b->fields[index - n_a].name;
    }
    return NULL;
}

static dl_status expr_sql(const names *n, const dl_sql_bexpr *e, dl_buf *out, dl_error *err);

static dl_status
args_sql(const names *n, const dl_sql_bexpr *e, int32_t from, const char *sep, dl_buf *out,
         dl_error *err) {
    for (int32_t i = from; i < e->n_args; i++) {
        if (i > from) {
            DL_TRY(dl_buf_append_cstr(out, sep, err));
        }
        DL_TRY(expr_sql(n, e->args[i], out, err));
    }
    return DL_OK;
}

/* An operator is a function named by its symbol ("+", "<=>", "||"). */
static bool
is_symbol(const char *name) {
    return !((name[0] >= 'a' && name[0] <= 'z') || name[0] == '_');
}

static dl_status
call_sql(const names *n, const dl_sql_bexpr *e, dl_buf *out, dl_error *err) {
    const char *fn = e->fn->name;
    if (is_symbol(fn) && e->n_args == 2) {
        DL_TRY(dl_buf_append_cstr(out, "(", err));
        DL_TRY(expr_sql(n, e->args[0], out, err));
        DL_TRY(dl_buf_appendf(out, err, " %s ", fn));
        DL_TRY(expr_sql(n, e->args[1], out, err));
        return dl_buf_append_cstr(out, ")", err);
    }
    if (is_symbol(fn) && e->n_args == 1) {
        DL_TRY(dl_buf_append_cstr(out, fn, err));
        return expr_sql(n, e->args[0], out, err);
    }
    if (strcmp(fn, "not") == 0 && e->n_args == 1) {
        DL_TRY(dl_buf_append_cstr(out, "(NOT ", err));
        DL_TRY(expr_sql(n, e->args[0], out, err));
        return dl_buf_append_cstr(out, ")", err);
    }
    DL_TRY(dl_buf_appendf(out, err, "%s(", fn));
    DL_TRY(args_sql(n, e, 0, ", ", out, err));
    return dl_buf_append_cstr(out, ")", err);
}

static dl_status
case_sql(const names *n, const dl_sql_bexpr *e, dl_buf *out, dl_error *err) {
    int32_t n_conds = e->n_args - (e->has_else ? 1 : 0);
    DL_TRY(dl_buf_append_cstr(out, "CASE", err));
    for (int32_t i = 0; i + 1 < n_conds; i += 2) {
        DL_TRY(dl_buf_append_cstr(out, " WHEN ", err));
        DL_TRY(expr_sql(n, e->args[i], out, err));
        DL_TRY(dl_buf_append_cstr(out, " THEN ", err));
        DL_TRY(expr_sql(n, e->args[i + 1], out, err));
    }
    if (e->has_else) {
        DL_TRY(dl_buf_append_cstr(out, " ELSE ", err));
        DL_TRY(expr_sql(n, e->args[e->n_args - 1], out, err));
    }
    return dl_buf_append_cstr(out, " END", err);
}

static dl_status
is_sql(const names *n, const dl_sql_bexpr *e, dl_buf *out, dl_error *err) {
    static const char *const what[] = {
        [DL_SQL_BIS_NULL] = "NULL", [DL_SQL_BIS_TRUE] = "TRUE", [DL_SQL_BIS_FALSE] = "FALSE"};
    DL_TRY(dl_buf_append_cstr(out, "(", err));
    DL_TRY(expr_sql(n, e->args[0], out, err));
    return dl_buf_appendf(out, err, " IS %s%s)", e->is_not ? "NOT " : "", what[e->is_kind]);
}

/* An aggregate's output has internal names (__key0, __agg0): its key or aggregate instead. */
static bool
is_internal(const char *name) {
    return name[0] == '_' && name[1] == '_';
}

static dl_status
column_sql(const names *n, int32_t index, dl_buf *out, dl_error *err) {
    const char *name = column_name(n, index);
    const dl_sql_plan *from = n->from;
    if (name != NULL && is_internal(name) && from != NULL && from->kind == DL_SQL_PLAN_AGGREGATE &&
        n->b == NULL) {
        names below = {.a = from->left->schema, .from = from->left};
        const dl_sql_aggregate *g = &from->u.agg;
        if (index < g->n_keys) {
            return expr_sql(&below, g->keys[index], out, err);
        }
        if (index - g->n_keys < g->n_aggs) {
            return agg_sql(&below, &g->aggs[index - g->n_keys], out, err);
        }
    }
    if (name != NULL && is_internal(name) && from != NULL && from->kind == DL_SQL_PLAN_WINDOW &&
        n->b == NULL && index >= from->left->n_cols &&
        index - from->left->n_cols < from->u.window.n_fns) {
        names below = {.a = from->left->schema, .from = from->left};
        return wfn_sql(&below, &from->u.window.fns[index - from->left->n_cols], out, err);
    }
    if (name == NULL) {
        return dl_buf_appendf(out, err, "#%d", (int)index);
    }
    return dl_buf_append_cstr(out, name, err);
}

static dl_status
field_sql(const names *n, const dl_sql_bexpr *e, dl_buf *out, dl_error *err) {
    DL_TRY(expr_sql(n, e->args[0], out, err));
    const dl_type *t = e->args[0]->type;
    if (t->id == DL_VEC_TYPE_STRUCT && e->field_index >= 0 && e->field_index < t->n_fields) {
        return dl_buf_appendf(out, err, ".%s", t->fields[e->field_index].name);
    }
    return dl_buf_appendf(out, err, ".#%d", (int)e->field_index);
}

static dl_status
expr_sql(const names *n, const dl_sql_bexpr *e, dl_buf *out, dl_error *err) {
    switch (e->kind) {
    case DL_SQL_BEXPR_CONST:
        return dl_sql_value_print(e->value, 0, out, err);
    case DL_SQL_BEXPR_COLUMN:
        return column_sql(n, e->index, out, err);
    case DL_SQL_BEXPR_CALL:
        return call_sql(n, e, out, err);
    case DL_SQL_BEXPR_AND:
    case DL_SQL_BEXPR_OR:
        DL_TRY(dl_buf_append_cstr(out, "(", err));
        DL_TRY(args_sql(n, e, 0, e->kind == DL_SQL_BEXPR_AND ? " AND " : " OR ", out, err));
        return dl_buf_append_cstr(out, ")", err);
    case DL_SQL_BEXPR_NOT:
        DL_TRY(dl_buf_append_cstr(out, "(NOT ", err));
        DL_TRY(expr_sql(n, e->args[0], out, err));
        return dl_buf_append_cstr(out, ")", err);
    case DL_SQL_BEXPR_CAST:
        DL_TRY(dl_buf_append_cstr(out, "CAST(", err));
        DL_TRY(expr_sql(n, e->args[0], out, err));
        DL_TRY(dl_buf_append_cstr(out, " AS ", err));
        DL_TRY(dl_vec_type_to_string(e->type, out, err));
        return dl_buf_append_cstr(out, ")", err);
    case DL_SQL_BEXPR_IS:
        return is_sql(n, e, out, err);
    case DL_SQL_BEXPR_IN_LIST:
        DL_TRY(dl_buf_append_cstr(out, "(", err));
        DL_TRY(expr_sql(n, e->args[0], out, err));
        DL_TRY(dl_buf_append_cstr(out, e->is_not ? " NOT IN (" : " IN (", err));
        DL_TRY(args_sql(n, e, 1, ", ", out, err));
        return dl_buf_append_cstr(out, "))", err);
    case DL_SQL_BEXPR_CASE:
        return case_sql(n, e, out, err);
    case DL_SQL_BEXPR_COALESCE:
        DL_TRY(dl_buf_append_cstr(out, "coalesce(", err));
        DL_TRY(args_sql(n, e, 0, ", ", out, err));
        return dl_buf_append_cstr(out, ")", err);
    case DL_SQL_BEXPR_FIELD:
        return field_sql(n, e, out, err);
    case DL_SQL_BEXPR_SUBSCRIPT:
        DL_TRY(expr_sql(n, e->args[0], out, err));
        DL_TRY(dl_buf_append_cstr(out, "[", err));
        DL_TRY(expr_sql(n, e->args[1], out, err));
        return dl_buf_append_cstr(out, "]", err);
    case DL_SQL_BEXPR_SUBQUERY:
        return dl_buf_append_cstr(out, e->is_not ? "NOT (subquery)" : "(subquery)", err);
    case DL_SQL_BEXPR_OUTER:
        return dl_buf_appendf(out, err, "outer(#%d)", (int)e->index);
    }
    return dl_buf_append_cstr(out, "?", err);
}

dl_status
dl_sql_bexpr_explain(const dl_sql_bexpr *e, const dl_type *input, const dl_type *input2,
                     dl_buf *out, dl_error *err) {
    names n = {.a = input, .b = input2};
    return expr_sql(&n, e, out, err);
}

/* ---- one node's header ------------------------------------------------------------------- */

typedef struct render {
    const dl_sql_explain_opts *o;
    dl_buf *out;
    dl_buf prefix; /* the tree's drawing left of the current node's children */
    dl_buf lines;  /* a hook's detail lines */
} render;

static dl_status
exprs_sql(const names *n, dl_sql_bexpr *const *exprs, int32_t count, dl_buf *out, dl_error *err) {
    DL_TRY(dl_buf_append_cstr(out, "[", err));
    for (int32_t i = 0; i < count; i++) {
        DL_TRY(dl_buf_append_cstr(out, i > 0 ? ", " : "", err));
        DL_TRY(expr_sql(n, exprs[i], out, err));
    }
    return dl_buf_append_cstr(out, "]", err);
}

/* expr AS name, the name left out when the expression is a column of that name. */
static dl_status
named_sql(const names *n, const dl_sql_bexpr *e, const char *name, dl_buf *out, dl_error *err) {
    size_t at = out->len;
    DL_TRY(expr_sql(n, e, out, err));
    size_t len = out->len - at;
    if (name != NULL && !(strlen(name) == len && memcmp(out->data + at, name, len) == 0)) {
        DL_TRY(dl_buf_appendf(out, err, " AS %s", name));
    }
    return DL_OK;
}

static dl_status
sort_keys_sql(const names *n, const dl_sql_sort_key *keys, int32_t count, dl_buf *out,
              dl_error *err) {
    DL_TRY(dl_buf_append_cstr(out, "[", err));
    for (int32_t i = 0; i < count; i++) {
        DL_TRY(dl_buf_append_cstr(out, i > 0 ? ", " : "", err));
        DL_TRY(expr_sql(n, keys[i].expr, out, err));
        DL_TRY(dl_buf_appendf(out, err, " %s NULLS %s", keys[i].is_desc ? "DESC" : "ASC",
                              keys[i].is_nulls_first ? "FIRST" : "LAST"));
    }
    return dl_buf_append_cstr(out, "]", err);
}

static dl_status
agg_sql(const names *n, const dl_sql_agg *a, dl_buf *out, dl_error *err) {
    DL_TRY(dl_buf_appendf(out, err, "%s(%s", a->fn != NULL ? a->fn->name : "?",
                          a->is_distinct ? "DISTINCT " : ""));
    for (int32_t i = 0; i < a->n_args; i++) {
        DL_TRY(dl_buf_append_cstr(out, i > 0 ? ", " : "", err));
        DL_TRY(expr_sql(n, a->args[i], out, err));
    }
    if (a->fn != NULL && a->n_args == 0 && strcmp(a->fn->name, "count") == 0) {
        DL_TRY(dl_buf_append_cstr(out, "1", err));
    }
    DL_TRY(dl_buf_append_cstr(out, ")", err));
    if (a->filter != NULL) {
        DL_TRY(dl_buf_append_cstr(out, " FILTER (WHERE ", err));
        DL_TRY(expr_sql(n, a->filter, out, err));
        DL_TRY(dl_buf_append_cstr(out, ")", err));
    }
    return DL_OK;
}

static dl_status
aggregate_sql(const dl_sql_plan *p, bool is_logical, dl_buf *out, dl_error *err) {
    names n = {.a = p->left->schema, .from = p->left};
    const dl_sql_aggregate *g = &p->u.agg;
    DL_TRY(dl_buf_append_cstr(out, is_logical ? "Aggregate keys=" : "HashAggregate keys=", err));
    DL_TRY(exprs_sql(&n, g->keys, g->n_keys, out, err));
    DL_TRY(dl_buf_append_cstr(out, ", functions=[", err));
    for (int32_t i = 0; i < g->n_aggs; i++) {
        DL_TRY(dl_buf_append_cstr(out, i > 0 ? ", " : "", err));
        DL_TRY(agg_sql(&n, &g->aggs[i], out, err));
        int32_t col = g->n_keys + i;
        if (col < p->schema->n_fields && !is_internal(p->schema->fields[col].name)) {
            DL_TRY(dl_buf_appendf(out, err, " AS %s", p->schema->fields[col].name));
        }
    }
    DL_TRY(dl_buf_append_cstr(out, "]", err));
    if (g->sets != NULL) {
        DL_TRY(dl_buf_appendf(out, err, ", grouping sets=%d", (int)g->n_sets));
    }
    return DL_OK;
}

static const char *
join_type_name(const dl_sql_join *j) {
    static const char *const types[] = {
        [DL_SQL_JOIN_T_INNER] = "INNER",       [DL_SQL_JOIN_T_LEFT] = "LEFT OUTER",
        [DL_SQL_JOIN_T_RIGHT] = "RIGHT OUTER", [DL_SQL_JOIN_T_FULL] = "FULL OUTER",
        [DL_SQL_JOIN_T_SEMI] = "LEFT SEMI",    [DL_SQL_JOIN_T_ANTI] = "LEFT ANTI",
        [DL_SQL_JOIN_T_CROSS] = "CROSS",       [DL_SQL_JOIN_T_MARK] = "MARK",
        [DL_SQL_JOIN_T_SINGLE] = "SINGLE",
    };
    return types[j->type];
}

static dl_status
join_sql(const dl_sql_plan *p, bool is_logical, dl_buf *out, dl_error *err) {
    const dl_sql_join *j = &p->u.join;
    const char *op = is_logical ? "Join" : (j->n_keys > 0 ? "HashJoin" : "NestedLoopJoin");
    DL_TRY(dl_buf_appendf(out, err, "%s %s%s", op, join_type_name(j),
                          j->is_null_aware ? " (null-aware)" : ""));
    if (j->n_keys > 0) {
        names l = {.a = p->left->schema, .from = p->left};
        names r = {.a = p->right->schema, .from = p->right};
        DL_TRY(dl_buf_append_cstr(out, " [", err));
        for (int32_t i = 0; i < j->n_keys; i++) {
            DL_TRY(dl_buf_append_cstr(out, i > 0 ? ", " : "", err));
            DL_TRY(expr_sql(&l, j->left_keys[i], out, err));
            DL_TRY(dl_buf_append_cstr(out, j->is_null_equal[i] ? " <=> " : " = ", err));
            DL_TRY(expr_sql(&r, j->right_keys[i], out, err));
        }
        DL_TRY(dl_buf_append_cstr(out, "]", err));
    }
    if (j->residual != NULL) {
        names lr = {.a = p->left->schema, .b = p->right->schema};
        DL_TRY(dl_buf_append_cstr(out, " condition ", err));
        DL_TRY(expr_sql(&lr, j->residual, out, err));
    }
    return DL_OK;
}

static dl_status
frame_bound_sql(dl_sql_frame_bound_kind k, int64_t rows, const dl_sql_bexpr *value, dl_buf *out,
                dl_error *err) {
    names none = {0};
    switch (k) {
    case DL_SQL_FB_UNBOUNDED_PRECEDING:
        return dl_buf_append_cstr(out, "UNBOUNDED PRECEDING", err);
    case DL_SQL_FB_UNBOUNDED_FOLLOWING:
        return dl_buf_append_cstr(out, "UNBOUNDED FOLLOWING", err);
    case DL_SQL_FB_CURRENT_ROW:
        return dl_buf_append_cstr(out, "CURRENT ROW", err);
    case DL_SQL_FB_PRECEDING:
    case DL_SQL_FB_FOLLOWING:
        if (value != NULL) {
            DL_TRY(expr_sql(&none, value, out, err));
        } else {
            DL_TRY(dl_buf_appendf(out, err, "%" PRId64, rows));
        }
        return dl_buf_append_cstr(out, k == DL_SQL_FB_PRECEDING ? " PRECEDING" : " FOLLOWING", err);
    }
    return DL_OK;
}

static dl_status
wfn_sql(const names *n, const dl_sql_wfn *f, dl_buf *out, dl_error *err) {
    static const char *const fns[] = {
        [DL_SQL_WFN_ROW_NUMBER] = "row_number",
        [DL_SQL_WFN_RANK] = "rank",
        [DL_SQL_WFN_DENSE_RANK] = "dense_rank",
        [DL_SQL_WFN_PERCENT_RANK] = "percent_rank",
        [DL_SQL_WFN_CUME_DIST] = "cume_dist",
        [DL_SQL_WFN_NTILE] = "ntile",
        [DL_SQL_WFN_LAG] = "lag",
        [DL_SQL_WFN_LEAD] = "lead",
        [DL_SQL_WFN_FIRST_VALUE] = "first_value",
        [DL_SQL_WFN_LAST_VALUE] = "last_value",
        [DL_SQL_WFN_NTH_VALUE] = "nth_value",
    };
    if (f->kind == DL_SQL_WFN_AGGREGATE) {
        DL_TRY(agg_sql(n, &f->agg, out, err));
    } else {
        DL_TRY(dl_buf_appendf(out, err, "%s(", fns[f->kind]));
        for (int32_t i = 0; i < f->agg.n_args; i++) {
            DL_TRY(dl_buf_append_cstr(out, i > 0 ? ", " : "", err));
            DL_TRY(expr_sql(n, f->agg.args[i], out, err));
        }
        DL_TRY(dl_buf_append_cstr(out, ")", err));
    }
    if (f->ignore_nulls) {
        DL_TRY(dl_buf_append_cstr(out, " IGNORE NULLS", err));
    }
    DL_TRY(dl_buf_append_cstr(out, f->frame.is_range ? " RANGE BETWEEN " : " ROWS BETWEEN ", err));
    DL_TRY(frame_bound_sql(f->frame.start, f->frame.start_rows, f->frame.start_value, out, err));
    DL_TRY(dl_buf_append_cstr(out, " AND ", err));
    return frame_bound_sql(f->frame.end, f->frame.end_rows, f->frame.end_value, out, err);
}

static dl_status
window_sql(const dl_sql_plan *p, dl_buf *out, dl_error *err) {
    names n = {.a = p->left->schema, .from = p->left};
    const dl_sql_window_node *w = &p->u.window;
    DL_TRY(dl_buf_append_cstr(out, "Window [", err));
    for (int32_t i = 0; i < w->n_fns; i++) {
        DL_TRY(dl_buf_append_cstr(out, i > 0 ? ", " : "", err));
        DL_TRY(wfn_sql(&n, &w->fns[i], out, err));
        int32_t col = p->left->n_cols + i;
        if (col < p->schema->n_fields && !is_internal(p->schema->fields[col].name)) {
            DL_TRY(dl_buf_appendf(out, err, " AS %s", p->schema->fields[col].name));
        }
    }
    DL_TRY(dl_buf_append_cstr(out, "], partition=", err));
    DL_TRY(exprs_sql(&n, w->partition, w->n_partition, out, err));
    DL_TRY(dl_buf_append_cstr(out, ", order=", err));
    return sort_keys_sql(&n, w->order, w->n_order, out, err);
}

static dl_status
project_sql(const dl_sql_plan *p, dl_buf *out, dl_error *err) {
    names n = {.a = p->left->schema, .from = p->left};
    DL_TRY(dl_buf_append_cstr(out, "Project [", err));
    for (int32_t i = 0; i < p->u.project.n_exprs; i++) {
        DL_TRY(dl_buf_append_cstr(out, i > 0 ? ", " : "", err));
        DL_TRY(named_sql(&n, p->u.project.exprs[i], p->schema->fields[i].name, out, err));
    }
    return dl_buf_append_cstr(out, "]", err);
}

static dl_status
sort_sql(const dl_sql_plan *p, bool is_logical, dl_buf *out, dl_error *err) {
    names n = {.a = p->left->schema, .from = p->left};
    const dl_sql_sort *s = &p->u.sort;
    bool is_top = s->limit >= 0;
    DL_TRY(dl_buf_append_cstr(out, is_top && !is_logical ? "TopN " : "Sort ", err));
    DL_TRY(sort_keys_sql(&n, s->keys, s->n_keys, out, err));
    if (is_top) {
        DL_TRY(dl_buf_appendf(out, err, ", limit %" PRId64, s->limit));
    }
    if (s->offset > 0) {
        DL_TRY(dl_buf_appendf(out, err, ", offset %" PRId64, s->offset));
    }
    return DL_OK;
}

static dl_status
setop_sql(const dl_sql_plan *p, dl_buf *out, dl_error *err) {
    static const char *const ops[] = {[DL_SQL_SETOP_T_UNION] = "Union",
                                      [DL_SQL_SETOP_T_INTERSECT] = "Intersect",
                                      [DL_SQL_SETOP_T_EXCEPT] = "Except"};
    return dl_buf_appendf(out, err, "%s%s", ops[p->u.setop.type], p->u.setop.is_all ? " All" : "");
}

static dl_status
scan_sql(const dl_sql_plan *p, dl_buf *out, dl_error *err) {
    const dl_sql_scan *s = &p->u.scan;
    if (s->source == DL_SQL_SCAN_DELTA) {
        return dl_buf_appendf(out, err, "Scan delta %s (version %" PRId64 ")", s->table_name,
                              dl_delta_snapshot_version(s->snapshot));
    }
    return dl_buf_appendf(out, err, "Scan parquet %s (%d file%s)", s->table_name, (int)s->n_paths,
                          s->n_paths == 1 ? "" : "s");
}

static dl_status
header_sql(const dl_sql_plan *p, bool is_logical, dl_buf *out, dl_error *err) {
    switch (p->kind) {
    case DL_SQL_PLAN_SCAN:
        return scan_sql(p, out, err);
    case DL_SQL_PLAN_VALUES:
        return dl_buf_appendf(out, err, "LocalTableScan (%" PRId64 " row%s)", p->u.values.n_rows,
                              p->u.values.n_rows == 1 ? "" : "s");
    case DL_SQL_PLAN_RANGE:
        return dl_buf_appendf(out, err, "Range (%" PRId64 ", %" PRId64 ", step=%" PRId64 ")",
                              p->u.range.start, p->u.range.end, p->u.range.step);
    case DL_SQL_PLAN_ROWS:
        return dl_buf_append_cstr(out, "LocalRelation (computed rows)", err);
    case DL_SQL_PLAN_FILTER: {
        names n = {.a = p->left->schema, .from = p->left};
        DL_TRY(dl_buf_append_cstr(out, "Filter ", err));
        return expr_sql(&n, p->u.cond, out, err);
    }
    case DL_SQL_PLAN_PROJECT:
        return project_sql(p, out, err);
    case DL_SQL_PLAN_AGGREGATE:
        return aggregate_sql(p, is_logical, out, err);
    case DL_SQL_PLAN_JOIN:
        return join_sql(p, is_logical, out, err);
    case DL_SQL_PLAN_SETOP:
        return setop_sql(p, out, err);
    case DL_SQL_PLAN_SORT:
        return sort_sql(p, is_logical, out, err);
    case DL_SQL_PLAN_WINDOW:
        return window_sql(p, out, err);
    case DL_SQL_PLAN_LIMIT:
        DL_TRY(dl_buf_appendf(out, err, "Limit %" PRId64, p->u.limit.limit));
        if (p->u.limit.offset > 0) {
            DL_TRY(dl_buf_appendf(out, err, ", offset %" PRId64, p->u.limit.offset));
        }
        return DL_OK;
    }
    return dl_buf_append_cstr(out, "?", err);
}

/* The output columns: [a, b] or, with types, [a: int, b: string]. */
static dl_status
output_sql(const dl_type *schema, bool with_types, dl_buf *out, dl_error *err) {
    DL_TRY(dl_buf_appendf(out, err, "[%d]: [", (int)schema->n_fields));
    for (int32_t i = 0; i < schema->n_fields; i++) {
        DL_TRY(dl_buf_appendf(out, err, "%s%s", i > 0 ? ", " : "", schema->fields[i].name));
        if (with_types) {
            DL_TRY(dl_buf_append_cstr(out, ": ", err));
            DL_TRY(dl_vec_type_to_string(schema->fields[i].type, out, err));
        }
    }
    return dl_buf_append_cstr(out, "]", err);
}

/* The scan's own details: columns read, filters pushed into it, its limit. */
static dl_status
scan_details(const dl_sql_plan *p, dl_buf *lines, dl_error *err) {
    const dl_sql_scan *s = &p->u.scan;
    DL_TRY(dl_buf_append_cstr(lines, "columns: ", err));
    for (int32_t i = 0; i < s->n_columns; i++) {
        int32_t c = s->columns[i];
        DL_TRY(dl_buf_append_cstr(lines,
                                  c == DL_SQL_SCAN_FILE_INDEX  ? "<file index>"
                                  : c == DL_SQL_SCAN_ROW_INDEX ? "<row index>"
                                                               : s->table_schema->fields[c].name,
                                  err));
        DL_TRY(dl_buf_append_cstr(lines, i + 1 < s->n_columns ? ", " : "", err));
    }
    DL_TRY(dl_buf_append_cstr(lines, s->n_columns == 0 ? "(none: rows counted)\n" : "\n", err));
    if (s->n_filters > 0) {
        names n = {.a = p->schema};
        DL_TRY(dl_buf_append_cstr(lines, "pushed filters: ", err));
        DL_TRY(exprs_sql(&n, s->filters, s->n_filters, lines, err));
        DL_TRY(dl_buf_append_cstr(lines, "\n", err));
    }
    if (s->limit >= 0) {
        DL_TRY(dl_buf_appendf(lines, err, "limit: %" PRId64 " rows\n", s->limit));
    }
    return DL_OK;
}

/* ---- the tree ------------------------------------------------------------------------------ */

/* Appends each line of text (lines ending in '\n') after the prefix and indent. */
static dl_status
indent_lines(render *r, const char *indent, dl_str text, dl_error *err) {
    size_t at = 0;
    while (at < text.len) {
        const char *nl = memchr(text.ptr + at, '\n', text.len - at);
        size_t end = nl != NULL ? (size_t)(nl - text.ptr) : text.len;
        DL_TRY(dl_buf_append(r->out, r->prefix.data, r->prefix.len, err));
        DL_TRY(dl_buf_append_cstr(r->out, indent, err));
        DL_TRY(dl_buf_append(r->out, text.ptr + at, end - at, err));
        DL_TRY(dl_buf_append_cstr(r->out, "\n", err));
        at = end + 1;
    }
    return DL_OK;
}

static dl_status
node_suffix(render *r, const dl_sql_plan *p, int id, dl_error *err) {
    const dl_sql_explain_opts *o = r->o;
    if (o->is_numbered) {
        DL_TRY(dl_buf_appendf(r->out, err, " (%d)", id));
    }
    if (o->show_est && p->est_rows >= 0) {
        DL_TRY(dl_buf_appendf(r->out, err, "  (est. %.0f row%s)", p->est_rows,
                              p->est_rows >= 0.5 && p->est_rows < 1.5 ? "" : "s"));
    }
    if (o->show_output) {
        DL_TRY(dl_buf_append_cstr(r->out, "  output", err));
        DL_TRY(output_sql(p->schema, o->show_types, r->out, err));
    }
    if (o->hooks != NULL && o->hooks->suffix != NULL) {
        DL_TRY(o->hooks->suffix(o->hooks->ctx, p, r->out, err));
    }
    return DL_OK;
}

/* The node's detail lines (the scan's, then the hooks') into r->lines. */
static dl_status
node_lines(render *r, const dl_sql_plan *p, dl_error *err) {
    const dl_sql_explain_opts *o = r->o;
    dl_buf_reset(&r->lines);
    if (p->kind == DL_SQL_PLAN_SCAN && !o->is_logical) {
        DL_TRY(scan_details(p, &r->lines, err));
    }
    if (o->hooks != NULL && o->hooks->details != NULL) {
        DL_TRY(o->hooks->details(o->hooks->ctx, p, &r->lines, err));
    }
    return DL_OK;
}

/* Nodes in p's subtree. */
static int
subtree_size(const dl_sql_plan *p) {
    return 1 + (p->left != NULL ? subtree_size(p->left) : 0) +
           (p->right != NULL ? subtree_size(p->right) : 0);
}

/* One node and its subtree; base is the subtree's first operator number (FORMATTED numbers
 * children first, as Spark: the node's own number is base + size - 1). */
static dl_status
tree_node(render *r, const dl_sql_plan *p, int depth, bool is_last, int base, dl_error *err) {
    size_t prefix_len = r->prefix.len;
    DL_TRY(dl_buf_append(r->out, r->prefix.data, r->prefix.len, err));
    if (depth > 0) {
        DL_TRY(dl_buf_append_cstr(r->out, is_last ? "+- " : ":- ", err));
        DL_TRY(dl_buf_append_cstr(&r->prefix, is_last ? "   " : ":  ", err));
    }
    DL_TRY(header_sql(p, r->o->is_logical, r->out, err));
    DL_TRY(node_suffix(r, p, base + subtree_size(p) - 1, err));
    DL_TRY(dl_buf_append_cstr(r->out, "\n", err));
    if (!r->o->is_numbered) {
        DL_TRY(node_lines(r, p, err));
        DL_TRY(indent_lines(r, p->left != NULL ? ":       " : "        ", dl_buf_view(&r->lines),
                            err));
    }
    if (p->left != NULL) {
        DL_TRY(tree_node(r, p->left, depth + 1, p->right == NULL, base, err));
    }
    if (p->right != NULL) {
        DL_TRY(tree_node(r, p->right, depth + 1, true, base + subtree_size(p->left), err));
    }
    r->prefix.len = prefix_len;
    return DL_OK;
}

/* FORMATTED's second part: each operator by number, its output and details. */
static dl_status
formatted_details(render *r, const dl_sql_plan *p, int *next, dl_error *err) {
    if (p->left != NULL) {
        DL_TRY(formatted_details(r, p->left, next, err));
    }
    if (p->right != NULL) {
        DL_TRY(formatted_details(r, p->right, next, err));
    }
    DL_TRY(dl_buf_appendf(r->out, err, "\n(%d) ", (*next)++));
    DL_TRY(header_sql(p, false, r->out, err));
    DL_TRY(dl_buf_append_cstr(r->out, "\nOutput ", err));
    DL_TRY(output_sql(p->schema, true, r->out, err));
    DL_TRY(dl_buf_append_cstr(r->out, "\n", err));
    if (p->est_rows >= 0) {
        DL_TRY(dl_buf_appendf(r->out, err, "Estimated rows: %.0f\n", p->est_rows));
    }
    DL_TRY(node_lines(r, p, err));
    size_t saved = r->prefix.len;
    r->prefix.len = 0;
    dl_status s = indent_lines(r, "", dl_buf_view(&r->lines), err);
    r->prefix.len = saved;
    return s;
}

dl_status
dl_sql_plan_explain_tree(const dl_sql_plan *plan, const dl_sql_explain_opts *opts, dl_buf *out,
                         dl_error *err) {
    render r = {.o = opts, .out = out};
    dl_buf_init(&r.prefix, out->alloc);
    dl_buf_init(&r.lines, out->alloc);
    dl_status s = tree_node(&r, plan, 0, true, 1, err);
    if (s == DL_OK && opts->is_numbered) {
        int next = 1;
        s = formatted_details(&r, plan, &next, err);
    }
    dl_buf_destroy(&r.prefix);
    dl_buf_destroy(&r.lines);
    return s;
}

dl_status
dl_sql_plan_explain(const dl_sql_plan *plan, dl_buf *out, dl_error *err) {
    dl_sql_explain_opts opts = {.show_est = true};
    return dl_sql_plan_explain_tree(plan, &opts, out, err);
}
