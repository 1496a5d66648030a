/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tree heights and names of statement kinds.
 *
 * A node's height is one more than the tallest of its children (expressions, queries and
 * table references alike, so a subquery inside an expression counts). The parser sets it when
 * a node is complete, from the children's recorded heights, so computing it never recurses;
 * refusing trees taller than DL_SQL_MAX_DEPTH bounds every later recursive walk (printer,
 * binder) whatever shape the SQL has, including left-deep chains built by loops.
 */
#include "sql/parse/sql_parse_int.h"

static uint32_t
eh(const dl_sql_expr *e) {
    return e != NULL ? e->height : 0;
}

static uint32_t
qh(const dl_sql_query *q) {
    return q != NULL ? q->height : 0;
}

static uint32_t
th(const dl_sql_tref *t) {
    return t != NULL ? t->height : 0;
}

static uint32_t
list_h(dl_sql_expr_list l) {
    uint32_t m = 0;
    for (uint32_t i = 0; i < l.n; i++) {
        m = DL_MAX(m, eh(l.items[i]));
    }
    return m;
}

static uint32_t
sort_h(dl_sql_sort_list l) {
    uint32_t m = 0;
    for (uint32_t i = 0; i < l.n; i++) {
        m = DL_MAX(m, eh(l.items[i].expr));
    }
    return m;
}

static uint32_t
window_h(const dl_sql_window *w) {
    if (w == NULL) {
        return 0;
    }
    uint32_t m = DL_MAX(list_h(w->partition_by), sort_h(w->order_by));
    return DL_MAX(m, DL_MAX(eh(w->start.offset), eh(w->end.offset)));
}

static uint32_t
func_h(const dl_sql_expr *e) {
    uint32_t m = DL_MAX(list_h(e->u.func.args), sort_h(e->u.func.within_group));
    return DL_MAX(m, DL_MAX(eh(e->u.func.filter), window_h(e->u.func.over)));
}

static uint32_t
case_h(const dl_sql_expr *e) {
    uint32_t m = DL_MAX(eh(e->u.case_.operand), eh(e->u.case_.else_result));
    for (uint32_t i = 0; i < e->u.case_.n_whens; i++) {
        m = DL_MAX(m, DL_MAX(eh(e->u.case_.whens[i].cond), eh(e->u.case_.whens[i].result)));
    }
    return m;
}

/* The tallest child of e. */
static uint32_t
expr_children_h(const dl_sql_expr *e) {
    switch (e->kind) {
    case DL_SQL_EXPR_UNARY:
        return eh(e->u.unary.arg);
    case DL_SQL_EXPR_BINARY:
        return DL_MAX(eh(e->u.binary.left), eh(e->u.binary.right));
    case DL_SQL_EXPR_IS:
        return eh(e->u.is.arg);
    case DL_SQL_EXPR_BETWEEN:
        return DL_MAX(eh(e->u.between.arg), DL_MAX(eh(e->u.between.low), eh(e->u.between.high)));
    case DL_SQL_EXPR_IN_LIST:
        return DL_MAX(eh(e->u.in_list.arg), list_h(e->u.in_list.list));
    case DL_SQL_EXPR_IN_QUERY:
        return DL_MAX(eh(e->u.in_query.arg), qh(e->u.in_query.query));
    case DL_SQL_EXPR_LIKE:
        return DL_MAX(eh(e->u.like.arg), DL_MAX(eh(e->u.like.pattern), list_h(e->u.like.patterns)));
    case DL_SQL_EXPR_EXISTS:
    case DL_SQL_EXPR_SUBQUERY:
        return qh(e->u.subquery);
    case DL_SQL_EXPR_CASE:
        return case_h(e);
    case DL_SQL_EXPR_CAST:
        return eh(e->u.cast.arg);
    case DL_SQL_EXPR_FUNC:
        return func_h(e);
    case DL_SQL_EXPR_SUBSCRIPT:
        return DL_MAX(eh(e->u.subscript.base), eh(e->u.subscript.index));
    case DL_SQL_EXPR_FIELD:
        return eh(e->u.field.base);
    case DL_SQL_EXPR_LAMBDA:
        return eh(e->u.lambda.body);
    case DL_SQL_EXPR_ROW:
        return list_h(e->u.row);
    case DL_SQL_EXPR_NAMED_ARG:
        return eh(e->u.named_arg.value);
    default:
        return 0;
    }
}

static uint32_t
select_h(const dl_sql_select *s) {
    uint32_t m = DL_MAX(eh(s->where), DL_MAX(eh(s->having), eh(s->qualify)));
    for (uint32_t i = 0; i < s->n_items; i++) {
        m = DL_MAX(m, eh(s->items[i].expr));
    }
    for (uint32_t i = 0; i < s->n_from; i++) {
        m = DL_MAX(m, th(s->from[i]));
    }
    for (uint32_t i = 0; i < s->n_group_by; i++) {
        const dl_sql_group_item *g = &s->group_by[i];
        m = DL_MAX(m, DL_MAX(eh(g->expr), list_h(g->list)));
        for (uint32_t j = 0; j < g->n_sets; j++) {
            m = DL_MAX(m, list_h(g->sets[j]));
        }
    }
    for (uint32_t i = 0; i < s->n_windows; i++) {
        m = DL_MAX(m, window_h(s->windows[i].spec));
    }
    return m;
}

static uint32_t
query_children_h(const dl_sql_query *q) {
    uint32_t m = DL_MAX(sort_h(q->order_by), DL_MAX(eh(q->limit), eh(q->offset)));
    for (uint32_t i = 0; i < q->n_ctes; i++) {
        m = DL_MAX(m, qh(q->ctes[i].query));
    }
    switch (q->kind) {
    case DL_SQL_QUERY_SELECT:
        return DL_MAX(m, select_h(q->u.select));
    case DL_SQL_QUERY_SETOP:
        return DL_MAX(m, DL_MAX(qh(q->u.setop.left), qh(q->u.setop.right)));
    case DL_SQL_QUERY_VALUES:
        for (uint32_t i = 0; i < q->u.values.n_rows; i++) {
            m = DL_MAX(m, list_h(q->u.values.rows[i]));
        }
        return m;
    case DL_SQL_QUERY_NESTED:
        return DL_MAX(m, qh(q->u.nested));
    }
    return m;
}

static uint32_t
describe_h(const dl_sql_stmt *s) {
    if (s == NULL) {
        return 0;
    }
    if (s->kind == DL_SQL_STMT_DESCRIBE_TABLE) {
        return eh(s->u.describe_table.tt.expr);
    }
    if (s->kind == DL_SQL_STMT_DESCRIBE_HISTORY) {
        return eh(s->u.describe_history.limit);
    }
    return 0;
}

static uint32_t
tref_children_h(const dl_sql_tref *t) {
    switch (t->kind) {
    case DL_SQL_TREF_TABLE:
        return eh(t->u.table.tt.expr);
    case DL_SQL_TREF_FUNC:
        return list_h(t->u.func.args);
    case DL_SQL_TREF_SUBQUERY:
    case DL_SQL_TREF_VALUES:
        return qh(t->u.query);
    case DL_SQL_TREF_DESCRIBE:
        return describe_h(t->u.describe);
    case DL_SQL_TREF_JOIN:
        return DL_MAX(DL_MAX(th(t->u.join.left), th(t->u.join.right)), eh(t->u.join.on));
    }
    return 0;
}

static dl_status
check_height(dl_sql_parser *p, uint32_t loc, uint32_t height) {
    if (height > DL_SQL_MAX_DEPTH) {
        return dl_sql_fail_off(p, loc, DL_ERR_LIMIT,
                               "the statement nests more than %u levels deep (expressions, "
                               "subqueries, joins and set operations count)",
                               DL_SQL_MAX_DEPTH);
    }
    return DL_OK;
}

dl_status
dl_sql_expr_done(dl_sql_parser *p, dl_sql_expr *e) {
    e->height = expr_children_h(e) + 1;
    return check_height(p, e->loc, e->height);
}

dl_status
dl_sql_query_done(dl_sql_parser *p, dl_sql_query *q) {
    q->height = query_children_h(q) + 1;
    return check_height(p, q->loc, q->height);
}

dl_status
dl_sql_tref_done(dl_sql_parser *p, dl_sql_tref *t) {
    t->height = tref_children_h(t) + 1;
    return check_height(p, t->loc, t->height);
}

const char *
dl_sql_stmt_kind_name(dl_sql_stmt_kind kind) {
    static const char *const names[] = {
        [DL_SQL_STMT_QUERY] = "SELECT",
        [DL_SQL_STMT_CREATE_TABLE] = "CREATE TABLE",
        [DL_SQL_STMT_CREATE_VIEW] = "CREATE VIEW",
        [DL_SQL_STMT_CREATE_SCHEMA] = "CREATE SCHEMA",
        [DL_SQL_STMT_DROP] = "DROP",
        [DL_SQL_STMT_USE] = "USE",
        [DL_SQL_STMT_INSERT] = "INSERT",
        [DL_SQL_STMT_UPDATE] = "UPDATE",
        [DL_SQL_STMT_DELETE] = "DELETE",
        [DL_SQL_STMT_MERGE] = "MERGE",
        [DL_SQL_STMT_RESTORE] = "RESTORE",
        [DL_SQL_STMT_VACUUM] = "VACUUM",
        [DL_SQL_STMT_OPTIMIZE] = "OPTIMIZE",
        [DL_SQL_STMT_DESCRIBE_HISTORY] = "DESCRIBE HISTORY",
        [DL_SQL_STMT_DESCRIBE_DETAIL] = "DESCRIBE DETAIL",
        [DL_SQL_STMT_DESCRIBE_TABLE] = "DESCRIBE TABLE",
        [DL_SQL_STMT_SHOW] = "SHOW",
        [DL_SQL_STMT_ALTER_TABLE] = "ALTER TABLE",
        [DL_SQL_STMT_SET] = "SET",
        [DL_SQL_STMT_RESET] = "RESET",
        [DL_SQL_STMT_COPY] = "COPY",
        [DL_SQL_STMT_COPY_INTO] = "COPY INTO",
        [DL_SQL_STMT_EXPLAIN] = "EXPLAIN",
        [DL_SQL_STMT_CONVERT] = "CONVERT TO DELTA",
        [DL_SQL_STMT_TRUNCATE] = "TRUNCATE",
        [DL_SQL_STMT_GENERATE] = "GENERATE",
        [DL_SQL_STMT_CACHE] = "CACHE",
    };
    if ((size_t)kind >= DL_ARRAY_LEN(names) || names[kind] == NULL) {
        return "statement";
    }
    return names[kind];
}
