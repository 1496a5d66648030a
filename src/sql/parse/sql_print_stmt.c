/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The canonical printer, part 2: queries, relations and statements (conventions in
 * sql_print_expr.c). Set-operation operands that are themselves set operations, or that carry
 * WITH, ORDER BY, LIMIT or OFFSET, are parenthesised; a join is parenthesised when it is the
 * right operand of another join or has an alias. Optional words are printed one way: INSERT
 * OVERWRITE TABLE, DESCRIBE TABLE, SHALLOW CLONE, JOIN for INNER JOIN.
 */
#include "sql/parse/sql_parse_int.h"

static void pr_tref(dl_sql_printer *pr, const dl_sql_tref *t, bool as_primary);

/* ---- small pieces ------------------------------------------------------------------------- */

static void
pr_kw_if(dl_sql_printer *pr, bool cond, const char *text) {
    if (cond) {
        dl_sql_pr_str(pr, text);
    }
}

static void
pr_props(dl_sql_printer *pr, dl_sql_prop_list props) {
    dl_sql_pr_str(pr, "(");
    for (uint32_t i = 0; i < props.n; i++) {
        dl_sql_pr_str(pr, i > 0 ? ", " : "");
        dl_sql_pr_string(pr, props.items[i].key);
        if (props.items[i].has_value) {
            dl_sql_pr_str(pr, " = ");
            dl_sql_pr_string(pr, props.items[i].value);
        }
    }
    dl_sql_pr_str(pr, ")");
}

static void
pr_name_list(dl_sql_printer *pr, dl_sql_name_list names) {
    dl_sql_pr_str(pr, "(");
    for (uint32_t i = 0; i < names.n; i++) {
        dl_sql_pr_str(pr, i > 0 ? ", " : "");
        dl_sql_pr_name(pr, &names.items[i]);
    }
    dl_sql_pr_str(pr, ")");
}

static void
pr_target(dl_sql_printer *pr, const dl_sql_target *t) {
    if (t->is_path) {
        dl_sql_pr_string(pr, t->path);
    } else {
        dl_sql_pr_name(pr, &t->name);
    }
}

static void
pr_time_travel(dl_sql_printer *pr, const dl_sql_time_travel *tt) {
    if (tt->kind == DL_SQL_TT_NONE) {
        return;
    }
    bool version = tt->kind == DL_SQL_TT_VERSION;
    if (tt->syntax == DL_SQL_TT_AT) {
        dl_sql_pr_str(pr, version ? "@v" : "@");
        dl_sql_pr_mem(pr, tt->expr->u.lit.text.ptr, tt->expr->u.lit.text.len);
        return;
    }
    if (tt->syntax == DL_SQL_TT_FOR_SYSTEM) {
        dl_sql_pr_str(pr, version ? " FOR SYSTEM_VERSION AS OF " : " FOR SYSTEM_TIME AS OF ");
    } else {
        dl_sql_pr_str(pr, version ? " VERSION AS OF " : " TIMESTAMP AS OF ");
    }
    dl_sql_pr_expr(pr, tt->expr, false);
}

static void
pr_alias(dl_sql_printer *pr, bool has_alias, const dl_sql_ident *alias, dl_sql_ident_list columns) {
    if (!has_alias) {
        return;
    }
    dl_sql_pr_str(pr, " AS ");
    dl_sql_pr_ident(pr, alias);
    if (columns.n > 0) {
        dl_sql_pr_ident_list(pr, columns);
    }
}

static void
pr_partition_spec(dl_sql_printer *pr, dl_sql_partition_spec spec) {
    if (spec.n == 0) {
        return;
    }
    dl_sql_pr_str(pr, " PARTITION (");
    for (uint32_t i = 0; i < spec.n; i++) {
        dl_sql_pr_str(pr, i > 0 ? ", " : "");
        dl_sql_pr_ident(pr, &spec.items[i].column);
        if (spec.items[i].value != NULL) {
            dl_sql_pr_str(pr, " = ");
            dl_sql_pr_expr(pr, spec.items[i].value, false);
        }
    }
    dl_sql_pr_str(pr, ")");
}

/* ---- queries ------------------------------------------------------------------------------ */

static void
pr_values(dl_sql_printer *pr, const dl_sql_query *q) {
    dl_sql_pr_str(pr, "VALUES ");
    for (uint32_t i = 0; i < q->u.values.n_rows; i++) {
        dl_sql_pr_str(pr, i > 0 ? ", (" : "(");
        dl_sql_pr_expr_list(pr, q->u.values.rows[i]);
        dl_sql_pr_str(pr, ")");
    }
}

static void
pr_group_item(dl_sql_printer *pr, const dl_sql_group_item *g) {
    switch (g->kind) {
    case DL_SQL_GROUP_ROLLUP:
    case DL_SQL_GROUP_CUBE:
        dl_sql_pr_str(pr, g->kind == DL_SQL_GROUP_ROLLUP ? "ROLLUP (" : "CUBE (");
        dl_sql_pr_expr_list(pr, g->list);
        dl_sql_pr_str(pr, ")");
        return;
    case DL_SQL_GROUP_SETS:
        dl_sql_pr_str(pr, "GROUPING SETS (");
        for (uint32_t i = 0; i < g->n_sets; i++) {
            dl_sql_pr_str(pr, i > 0 ? ", (" : "(");
            dl_sql_pr_expr_list(pr, g->sets[i]);
            dl_sql_pr_str(pr, ")");
        }
        dl_sql_pr_str(pr, ")");
        return;
    default:
        dl_sql_pr_expr(pr, g->expr, true);
        return;
    }
}

static void
pr_select_tail(dl_sql_printer *pr, const dl_sql_select *s) {
    if (s->where != NULL) {
        dl_sql_pr_str(pr, " WHERE ");
        dl_sql_pr_expr(pr, s->where, true);
    }
    if (s->group_by_all) {
        dl_sql_pr_str(pr, " GROUP BY ALL");
    }
    for (uint32_t i = 0; i < s->n_group_by; i++) {
        dl_sql_pr_str(pr, i > 0 ? ", " : " GROUP BY ");
        pr_group_item(pr, &s->group_by[i]);
    }
    pr_kw_if(pr, s->group_with == DL_SQL_GROUP_ROLLUP, " WITH ROLLUP");
    pr_kw_if(pr, s->group_with == DL_SQL_GROUP_CUBE, " WITH CUBE");
    if (s->having != NULL) {
        dl_sql_pr_str(pr, " HAVING ");
        dl_sql_pr_expr(pr, s->having, true);
    }
    for (uint32_t i = 0; i < s->n_windows; i++) {
        dl_sql_pr_str(pr, i > 0 ? ", " : " WINDOW ");
        dl_sql_pr_ident(pr, &s->windows[i].name);
        dl_sql_pr_str(pr, " AS ");
        dl_sql_pr_window(pr, s->windows[i].spec);
    }
    if (s->qualify != NULL) {
        dl_sql_pr_str(pr, " QUALIFY ");
        dl_sql_pr_expr(pr, s->qualify, true);
    }
}

static void
pr_select(dl_sql_printer *pr, const dl_sql_select *s) {
    dl_sql_pr_str(pr, "SELECT ");
    pr_kw_if(pr, s->quant == DL_SQL_QUANT_DISTINCT, "DISTINCT ");
    pr_kw_if(pr, s->quant == DL_SQL_QUANT_ALL, "ALL ");
    for (uint32_t i = 0; i < s->n_items; i++) {
        dl_sql_pr_str(pr, i > 0 ? ", " : "");
        dl_sql_pr_expr(pr, s->items[i].expr, true);
        dl_sql_ident_list none = {0};
        pr_alias(pr, s->items[i].has_alias, &s->items[i].alias, none);
    }
    for (uint32_t i = 0; i < s->n_from; i++) {
        dl_sql_pr_str(pr, i > 0 ? ", " : " FROM ");
        pr_tref(pr, s->from[i], false);
    }
    pr_select_tail(pr, s);
}

static bool
needs_operand_parens(const dl_sql_query *q) {
    return q->kind == DL_SQL_QUERY_SETOP || q->kind == DL_SQL_QUERY_NESTED || q->n_ctes > 0 ||
           q->order_by.n > 0 || q->limit != NULL || q->is_limit_all || q->offset != NULL;
}

static void
pr_operand(dl_sql_printer *pr, const dl_sql_query *q) {
    bool parens = needs_operand_parens(q);
    dl_sql_pr_str(pr, parens ? "(" : "");
    dl_sql_pr_query(pr, q);
    dl_sql_pr_str(pr, parens ? ")" : "");
}

static void
pr_setop(dl_sql_printer *pr, const dl_sql_query *q) {
    static const char *const ops[] = {
        [DL_SQL_SETOP_UNION] = " UNION",
        [DL_SQL_SETOP_INTERSECT] = " INTERSECT",
        [DL_SQL_SETOP_EXCEPT] = " EXCEPT",
    };
    pr_operand(pr, q->u.setop.left);
    dl_sql_pr_str(pr, ops[q->u.setop.op]);
    pr_kw_if(pr, q->u.setop.quant == DL_SQL_QUANT_ALL, " ALL");
    pr_kw_if(pr, q->u.setop.quant == DL_SQL_QUANT_DISTINCT, " DISTINCT");
    dl_sql_pr_str(pr, " ");
    pr_operand(pr, q->u.setop.right);
}

static void
pr_ctes(dl_sql_printer *pr, const dl_sql_query *q) {
    for (uint32_t i = 0; i < q->n_ctes; i++) {
        const dl_sql_cte *c = &q->ctes[i];
        dl_sql_pr_str(pr, i > 0 ? ", " : "WITH ");
        dl_sql_pr_ident(pr, &c->name);
        if (c->columns.n > 0) {
            dl_sql_pr_ident_list(pr, c->columns);
        }
        dl_sql_pr_str(pr, " AS (");
        dl_sql_pr_query(pr, c->query);
        dl_sql_pr_str(pr, ")");
    }
    dl_sql_pr_str(pr, q->n_ctes > 0 ? " " : "");
}

void
dl_sql_pr_query(dl_sql_printer *pr, const dl_sql_query *q) {
    pr_ctes(pr, q);
    switch (q->kind) {
    case DL_SQL_QUERY_SELECT:
        pr_select(pr, q->u.select);
        break;
    case DL_SQL_QUERY_SETOP:
        pr_setop(pr, q);
        break;
    case DL_SQL_QUERY_VALUES:
        pr_values(pr, q);
        break;
    case DL_SQL_QUERY_NESTED:
        dl_sql_pr_str(pr, "(");
        dl_sql_pr_query(pr, q->u.nested);
        dl_sql_pr_str(pr, ")");
        break;
    }
    if (q->order_by.n > 0) {
        dl_sql_pr_str(pr, " ORDER BY ");
        dl_sql_pr_sort_list(pr, q->order_by);
    }
    if (q->is_limit_all) {
        dl_sql_pr_str(pr, " LIMIT ALL");
    } else if (q->limit != NULL) {
        dl_sql_pr_str(pr, " LIMIT ");
        dl_sql_pr_expr(pr, q->limit, true);
    }
    if (q->offset != NULL) {
        dl_sql_pr_str(pr, " OFFSET ");
        dl_sql_pr_expr(pr, q->offset, true);
    }
}

/* ---- relations ---------------------------------------------------------------------------- */

static void
pr_join(dl_sql_printer *pr, const dl_sql_tref *t) {
    static const char *const kinds[] = {
        [DL_SQL_JOIN_INNER] = " JOIN ",          [DL_SQL_JOIN_LEFT] = " LEFT JOIN ",
        [DL_SQL_JOIN_RIGHT] = " RIGHT JOIN ",    [DL_SQL_JOIN_FULL] = " FULL JOIN ",
        [DL_SQL_JOIN_CROSS] = " CROSS JOIN ",    [DL_SQL_JOIN_SEMI] = " LEFT SEMI JOIN ",
        [DL_SQL_JOIN_ANTI] = " LEFT ANTI JOIN ",
    };
    pr_tref(pr, t->u.join.left, false);
    pr_kw_if(pr, t->u.join.is_natural, " NATURAL");
    dl_sql_pr_str(pr, kinds[t->u.join.kind]);
    pr_tref(pr, t->u.join.right, true);
    if (t->u.join.on != NULL) {
        dl_sql_pr_str(pr, " ON ");
        dl_sql_pr_expr(pr, t->u.join.on, true);
    }
    if (t->u.join.using.n > 0) {
        dl_sql_pr_str(pr, " USING ");
        dl_sql_pr_ident_list(pr, t->u.join.using);
    }
}

static void
pr_tref_body(dl_sql_printer *pr, const dl_sql_tref *t) {
    switch (t->kind) {
    case DL_SQL_TREF_TABLE:
        dl_sql_pr_name(pr, &t->u.table.name);
        pr_time_travel(pr, &t->u.table.tt);
        return;
    case DL_SQL_TREF_FUNC:
        dl_sql_pr_name(pr, &t->u.func.name);
        dl_sql_pr_str(pr, "(");
        dl_sql_pr_expr_list(pr, t->u.func.args);
        dl_sql_pr_str(pr, ")");
        return;
    case DL_SQL_TREF_SUBQUERY:
        dl_sql_pr_str(pr, "(");
        dl_sql_pr_query(pr, t->u.query);
        dl_sql_pr_str(pr, ")");
        return;
    case DL_SQL_TREF_VALUES:
        pr_values(pr, t->u.query);
        return;
    case DL_SQL_TREF_DESCRIBE:
        dl_sql_pr_str(pr, "(");
        dl_sql_pr_stmt(pr, t->u.describe);
        dl_sql_pr_str(pr, ")");
        return;
    case DL_SQL_TREF_JOIN:
        pr_join(pr, t);
        return;
    }
}

/* as_primary: the place takes one relation without joins (a join's right side, MERGE's
 * source), so a join must be parenthesised. */
static void
pr_tref(dl_sql_printer *pr, const dl_sql_tref *t, bool as_primary) {
    bool parens = t->kind == DL_SQL_TREF_JOIN && (as_primary || t->has_alias);
    dl_sql_pr_str(pr, parens ? "(" : "");
    pr_tref_body(pr, t);
    dl_sql_pr_str(pr, parens ? ")" : "");
    pr_alias(pr, t->has_alias, &t->alias, t->column_aliases);
}

/* ---- CREATE ------------------------------------------------------------------------------- */

static void
pr_column_def(dl_sql_printer *pr, const dl_sql_column_def *c) {
    dl_sql_pr_name(pr, &c->name);
    dl_sql_pr_str(pr, " ");
    dl_sql_pr_type(pr, c->type);
    pr_kw_if(pr, c->is_not_null, " NOT NULL");
    if (c->generated != NULL) {
        dl_sql_pr_str(pr, " GENERATED ALWAYS AS (");
        dl_sql_pr_expr(pr, c->generated, true);
        dl_sql_pr_str(pr, ")");
    }
    if (c->is_identity) {
        dl_sql_pr_str(pr, c->is_identity_always ? " GENERATED ALWAYS AS IDENTITY"
                                                : " GENERATED BY DEFAULT AS IDENTITY");
        if (c->identity_start != NULL || c->identity_step != NULL) {
            dl_sql_pr_str(pr, " (");
            if (c->identity_start != NULL) {
                dl_sql_pr_str(pr, "START WITH ");
                dl_sql_pr_expr(pr, c->identity_start, false);
            }
            if (c->identity_step != NULL) {
                dl_sql_pr_str(pr, c->identity_start != NULL ? " INCREMENT BY " : "INCREMENT BY ");
                dl_sql_pr_expr(pr, c->identity_step, false);
            }
            dl_sql_pr_str(pr, ")");
        }
    }
    if (c->default_value != NULL) {
        dl_sql_pr_str(pr, " DEFAULT ");
        dl_sql_pr_expr(pr, c->default_value, false);
    }
    if (c->has_comment) {
        dl_sql_pr_str(pr, " COMMENT ");
        dl_sql_pr_string(pr, c->comment);
    }
    if (c->position == DL_SQL_COLPOS_FIRST) {
        dl_sql_pr_str(pr, " FIRST");
    } else if (c->position == DL_SQL_COLPOS_AFTER) {
        dl_sql_pr_str(pr, " AFTER ");
        dl_sql_pr_name(pr, &c->after);
    }
}

static void
pr_columns(dl_sql_printer *pr, dl_sql_column_list cols, const dl_sql_check *checks,
           uint32_t n_checks) {
    dl_sql_pr_str(pr, " (");
    for (uint32_t i = 0; i < cols.n; i++) {
        dl_sql_pr_str(pr, i > 0 ? ", " : "");
        pr_column_def(pr, &cols.items[i]);
    }
    for (uint32_t i = 0; i < n_checks; i++) {
        dl_sql_pr_str(pr, i + cols.n > 0 ? ", CONSTRAINT " : "CONSTRAINT ");
        dl_sql_pr_ident(pr, &checks[i].name);
        dl_sql_pr_str(pr, " CHECK (");
        dl_sql_pr_expr(pr, checks[i].check, true);
        dl_sql_pr_str(pr, ")");
    }
    dl_sql_pr_str(pr, ")");
}

static void
pr_table_clauses(dl_sql_printer *pr, const dl_sql_stmt *s) {
    if (s->u.create_table.has_using) {
        dl_sql_pr_str(pr, " USING ");
        dl_sql_pr_ident(pr, &s->u.create_table.using);
    }
    if (s->u.create_table.partitioned_by.n > 0) {
        dl_sql_pr_str(pr, " PARTITIONED BY ");
        dl_sql_pr_ident_list(pr, s->u.create_table.partitioned_by);
    }
    if (s->u.create_table.cluster_by.n > 0) {
        dl_sql_pr_str(pr, " CLUSTER BY ");
        pr_name_list(pr, s->u.create_table.cluster_by);
    }
    if (s->u.create_table.has_location) {
        dl_sql_pr_str(pr, " LOCATION ");
        dl_sql_pr_string(pr, s->u.create_table.location);
    }
    if (s->u.create_table.has_comment) {
        dl_sql_pr_str(pr, " COMMENT ");
        dl_sql_pr_string(pr, s->u.create_table.comment);
    }
    if (s->u.create_table.props.n > 0) {
        dl_sql_pr_str(pr, " TBLPROPERTIES ");
        pr_props(pr, s->u.create_table.props);
    }
    if (s->u.create_table.options.n > 0) {
        dl_sql_pr_str(pr, " OPTIONS ");
        pr_props(pr, s->u.create_table.options);
    }
}

static void
pr_create_table(dl_sql_printer *pr, const dl_sql_stmt *s) {
    if (s->u.create_table.is_replace) {
        dl_sql_pr_str(pr, "REPLACE TABLE ");
    } else {
        dl_sql_pr_str(pr, "CREATE ");
        pr_kw_if(pr, s->u.create_table.or_replace, "OR REPLACE ");
        pr_kw_if(pr, s->u.create_table.is_external, "EXTERNAL ");
        dl_sql_pr_str(pr, "TABLE ");
        pr_kw_if(pr, s->u.create_table.if_not_exists, "IF NOT EXISTS ");
    }
    dl_sql_pr_name(pr, &s->u.create_table.name);
    if (s->u.create_table.has_like) {
        dl_sql_pr_str(pr, " LIKE ");
        dl_sql_pr_name(pr, &s->u.create_table.like);
    }
    if (s->u.create_table.is_clone) {
        dl_sql_pr_str(pr, s->u.create_table.is_deep_clone ? " DEEP CLONE " : " SHALLOW CLONE ");
        dl_sql_pr_name(pr, &s->u.create_table.clone_source);
        pr_time_travel(pr, &s->u.create_table.clone_tt);
    }
    if (s->u.create_table.columns.n > 0 || s->u.create_table.n_checks > 0) {
        pr_columns(pr, s->u.create_table.columns, s->u.create_table.checks,
                   s->u.create_table.n_checks);
    }
    pr_table_clauses(pr, s);
    if (s->u.create_table.as_query != NULL) {
        dl_sql_pr_str(pr, " AS ");
        dl_sql_pr_query(pr, s->u.create_table.as_query);
    }
}

static void
pr_create_view(dl_sql_printer *pr, const dl_sql_stmt *s) {
    dl_sql_pr_str(pr, "CREATE ");
    pr_kw_if(pr, s->u.create_view.or_replace, "OR REPLACE ");
    pr_kw_if(pr, s->u.create_view.is_global, "GLOBAL ");
    pr_kw_if(pr, s->u.create_view.is_temp, "TEMP ");
    dl_sql_pr_str(pr, "VIEW ");
    pr_kw_if(pr, s->u.create_view.if_not_exists, "IF NOT EXISTS ");
    dl_sql_pr_name(pr, &s->u.create_view.name);
    if (s->u.create_view.columns.n > 0) {
        dl_sql_pr_str(pr, " (");
        for (uint32_t i = 0; i < s->u.create_view.columns.n; i++) {
            dl_sql_pr_str(pr, i > 0 ? ", " : "");
            dl_sql_pr_ident(pr, &s->u.create_view.columns.items[i]);
            dl_str comment = s->u.create_view.column_comments[i];
            if (comment.ptr != NULL) {
                dl_sql_pr_str(pr, " COMMENT ");
                dl_sql_pr_string(pr, comment);
            }
        }
        dl_sql_pr_str(pr, ")");
    }
    if (s->u.create_view.has_comment) {
        dl_sql_pr_str(pr, " COMMENT ");
        dl_sql_pr_string(pr, s->u.create_view.comment);
    }
    if (s->u.create_view.props.n > 0) {
        dl_sql_pr_str(pr, " TBLPROPERTIES ");
        pr_props(pr, s->u.create_view.props);
    }
    dl_sql_pr_str(pr, " AS ");
    dl_sql_pr_query(pr, s->u.create_view.query);
}

static void
pr_create_schema(dl_sql_printer *pr, const dl_sql_stmt *s) {
    dl_sql_pr_str(pr, "CREATE SCHEMA ");
    pr_kw_if(pr, s->u.create_schema.if_not_exists, "IF NOT EXISTS ");
    dl_sql_pr_name(pr, &s->u.create_schema.name);
    if (s->u.create_schema.has_comment) {
        dl_sql_pr_str(pr, " COMMENT ");
        dl_sql_pr_string(pr, s->u.create_schema.comment);
    }
    if (s->u.create_schema.has_location) {
        dl_sql_pr_str(pr, " LOCATION ");
        dl_sql_pr_string(pr, s->u.create_schema.location);
    }
    if (s->u.create_schema.props.n > 0) {
        dl_sql_pr_str(pr, " WITH DBPROPERTIES ");
        pr_props(pr, s->u.create_schema.props);
    }
}

static void
pr_drop(dl_sql_printer *pr, const dl_sql_stmt *s) {
    static const char *const objects[] = {
        [DL_SQL_OBJ_TABLE] = "DROP TABLE ",
        [DL_SQL_OBJ_VIEW] = "DROP VIEW ",
        [DL_SQL_OBJ_SCHEMA] = "DROP SCHEMA ",
        [DL_SQL_OBJ_CATALOG] = "DROP CATALOG ",
    };
    dl_sql_pr_str(pr, objects[s->u.drop.object]);
    pr_kw_if(pr, s->u.drop.if_exists, "IF EXISTS ");
    dl_sql_pr_name(pr, &s->u.drop.name);
    pr_kw_if(pr, s->u.drop.is_purge, " PURGE");
    pr_kw_if(pr, s->u.drop.is_cascade, " CASCADE");
    pr_kw_if(pr, s->u.drop.is_restrict, " RESTRICT");
}

/* ---- DML ---------------------------------------------------------------------------------- */

static void
pr_assigns(dl_sql_printer *pr, dl_sql_assign_list list) {
    for (uint32_t i = 0; i < list.n; i++) {
        dl_sql_pr_str(pr, i > 0 ? ", " : "");
        dl_sql_pr_name(pr, &list.items[i].column);
        dl_sql_pr_str(pr, " = ");
        dl_sql_pr_expr(pr, list.items[i].value, true);
    }
}

static void
pr_insert(dl_sql_printer *pr, const dl_sql_stmt *s) {
    dl_sql_pr_str(pr, s->u.insert.is_overwrite ? "INSERT OVERWRITE TABLE " : "INSERT INTO ");
    dl_sql_pr_name(pr, &s->u.insert.table);
    if (s->u.insert.options.n > 0) {
        dl_sql_pr_str(pr, " WITH ");
        pr_props(pr, s->u.insert.options);
    }
    pr_partition_spec(pr, s->u.insert.partition);
    if (s->u.insert.has_columns) {
        dl_sql_pr_str(pr, " ");
        dl_sql_pr_ident_list(pr, s->u.insert.columns);
    }
    pr_kw_if(pr, s->u.insert.by_name, " BY NAME");
    if (s->u.insert.replace_where != NULL) {
        dl_sql_pr_str(pr, " REPLACE WHERE (");
        dl_sql_pr_expr(pr, s->u.insert.replace_where, true);
        dl_sql_pr_str(pr, ")");
    }
    dl_sql_pr_str(pr, " ");
    dl_sql_pr_query(pr, s->u.insert.query);
}

static void
pr_merge_clause(dl_sql_printer *pr, const dl_sql_merge_clause *c) {
    static const char *const matches[] = {
        [DL_SQL_MERGE_MATCHED] = " WHEN MATCHED",
        [DL_SQL_MERGE_NOT_MATCHED] = " WHEN NOT MATCHED",
        [DL_SQL_MERGE_NOT_MATCHED_BY_SOURCE] = " WHEN NOT MATCHED BY SOURCE",
    };
    dl_sql_pr_str(pr, matches[c->match]);
    if (c->cond != NULL) {
        dl_sql_pr_str(pr, " AND ");
        dl_sql_pr_expr(pr, c->cond, true);
    }
    switch (c->action) {
    case DL_SQL_MERGE_UPDATE:
        dl_sql_pr_str(pr, " THEN UPDATE SET ");
        pr_assigns(pr, c->assigns);
        return;
    case DL_SQL_MERGE_UPDATE_STAR:
        dl_sql_pr_str(pr, " THEN UPDATE SET *");
        return;
    case DL_SQL_MERGE_DELETE:
        dl_sql_pr_str(pr, " THEN DELETE");
        return;
    case DL_SQL_MERGE_INSERT_STAR:
        dl_sql_pr_str(pr, " THEN INSERT *");
        return;
    case DL_SQL_MERGE_INSERT:
        dl_sql_pr_str(pr, " THEN INSERT ");
        if (c->columns.n > 0) {
            dl_sql_pr_ident_list(pr, c->columns);
            dl_sql_pr_str(pr, " ");
        }
        dl_sql_pr_str(pr, "VALUES (");
        dl_sql_pr_expr_list(pr, c->values);
        dl_sql_pr_str(pr, ")");
        return;
    }
}

static void
pr_merge(dl_sql_printer *pr, const dl_sql_stmt *s) {
    dl_sql_pr_str(pr, s->u.merge.with_schema_evolution ? "MERGE WITH SCHEMA EVOLUTION INTO "
                                                       : "MERGE INTO ");
    dl_sql_pr_name(pr, &s->u.merge.target);
    dl_sql_ident_list none = {0};
    pr_alias(pr, s->u.merge.has_alias, &s->u.merge.alias, none);
    dl_sql_pr_str(pr, " USING ");
    pr_tref(pr, s->u.merge.source, true);
    dl_sql_pr_str(pr, " ON ");
    dl_sql_pr_expr(pr, s->u.merge.on, true);
    for (uint32_t i = 0; i < s->u.merge.n_clauses; i++) {
        pr_merge_clause(pr, &s->u.merge.clauses[i]);
    }
}

static void
pr_update_delete(dl_sql_printer *pr, const dl_sql_stmt *s) {
    dl_sql_ident_list none = {0};
    if (s->kind == DL_SQL_STMT_UPDATE) {
        dl_sql_pr_str(pr, "UPDATE ");
        dl_sql_pr_name(pr, &s->u.update.table);
        pr_alias(pr, s->u.update.has_alias, &s->u.update.alias, none);
        dl_sql_pr_str(pr, " SET ");
        pr_assigns(pr, s->u.update.assigns);
    } else {
        dl_sql_pr_str(pr, "DELETE FROM ");
        dl_sql_pr_name(pr, &s->u.delete_.table);
        pr_alias(pr, s->u.delete_.has_alias, &s->u.delete_.alias, none);
    }
    const dl_sql_expr *where =
        s->kind == DL_SQL_STMT_UPDATE ? s->u.update.where : s->u.delete_.where;
    if (where != NULL) {
        dl_sql_pr_str(pr, " WHERE ");
        dl_sql_pr_expr(pr, where, true);
    }
}

/* ---- Delta commands ----------------------------------------------------------------------- */

static void
pr_vacuum(dl_sql_printer *pr, const dl_sql_stmt *s) {
    dl_sql_pr_str(pr, "VACUUM ");
    pr_target(pr, &s->u.vacuum.target);
    pr_kw_if(pr, s->u.vacuum.mode == DL_SQL_VACUUM_LITE, " LITE");
    pr_kw_if(pr, s->u.vacuum.mode == DL_SQL_VACUUM_FULL, " FULL");
    if (s->u.vacuum.retain_hours != NULL) {
        dl_sql_pr_str(pr, " RETAIN ");
        dl_sql_pr_expr(pr, s->u.vacuum.retain_hours, false);
        dl_sql_pr_str(pr, " HOURS");
    }
    pr_kw_if(pr, s->u.vacuum.is_dry_run, " DRY RUN");
}

static void
pr_optimize(dl_sql_printer *pr, const dl_sql_stmt *s) {
    if (s->u.optimize.is_purge) {
        dl_sql_pr_str(pr, "REORG TABLE ");
        pr_target(pr, &s->u.optimize.target);
        if (s->u.optimize.where != NULL) {
            dl_sql_pr_str(pr, " WHERE ");
            dl_sql_pr_expr(pr, s->u.optimize.where, true);
        }
        dl_sql_pr_str(pr, " APPLY (PURGE)");
        return;
    }
    dl_sql_pr_str(pr, "OPTIMIZE ");
    pr_target(pr, &s->u.optimize.target);
    pr_kw_if(pr, s->u.optimize.is_full, " FULL");
    if (s->u.optimize.where != NULL) {
        dl_sql_pr_str(pr, " WHERE ");
        dl_sql_pr_expr(pr, s->u.optimize.where, true);
    }
    if (s->u.optimize.zorder_by.n > 0) {
        dl_sql_pr_str(pr, " ZORDER BY ");
        pr_name_list(pr, s->u.optimize.zorder_by);
    }
}

static void
pr_describe(dl_sql_printer *pr, const dl_sql_stmt *s) {
    if (s->kind == DL_SQL_STMT_DESCRIBE_HISTORY) {
        dl_sql_pr_str(pr, "DESCRIBE HISTORY ");
        pr_target(pr, &s->u.describe_history.target);
        if (s->u.describe_history.limit != NULL) {
            dl_sql_pr_str(pr, " LIMIT ");
            dl_sql_pr_expr(pr, s->u.describe_history.limit, false);
        }
        return;
    }
    if (s->kind == DL_SQL_STMT_DESCRIBE_DETAIL) {
        dl_sql_pr_str(pr, "DESCRIBE DETAIL ");
        pr_target(pr, &s->u.describe_detail.target);
        return;
    }
    static const dl_sql_kw modifiers[] = {DL_SQL_KW_EXTENDED, DL_SQL_KW_FORMATTED};
    const dl_sql_name *table = &s->u.describe_table.table;
    dl_sql_pr_str(pr,
                  s->u.describe_table.is_extended ? "DESCRIBE TABLE EXTENDED " : "DESCRIBE TABLE ");
    for (uint32_t i = 0; i < table->n_parts; i++) {
        dl_sql_pr_str(pr, i > 0 ? "." : "");
        dl_sql_pr_ident_unless(pr, &table->parts[i], modifiers, i == 0 ? 2 : 0);
    }
    pr_time_travel(pr, &s->u.describe_table.tt);
    if (s->u.describe_table.has_column) {
        dl_sql_pr_str(pr, " ");
        dl_sql_pr_name(pr, &s->u.describe_table.column);
    }
}

static void
pr_show(dl_sql_printer *pr, const dl_sql_stmt *s) {
    static const char *const kinds[] = {
        [DL_SQL_SHOW_TABLES] = "SHOW TABLES",
        [DL_SQL_SHOW_VIEWS] = "SHOW VIEWS",
        [DL_SQL_SHOW_SCHEMAS] = "SHOW SCHEMAS",
        [DL_SQL_SHOW_COLUMNS] = "SHOW COLUMNS IN",
        [DL_SQL_SHOW_TBLPROPERTIES] = "SHOW TBLPROPERTIES",
        [DL_SQL_SHOW_CREATE_TABLE] = "SHOW CREATE TABLE",
        [DL_SQL_SHOW_PARTITIONS] = "SHOW PARTITIONS",
        [DL_SQL_SHOW_FUNCTIONS] = "SHOW FUNCTIONS",
    };
    dl_sql_show_kind k = s->u.show.kind;
    dl_sql_pr_str(pr, kinds[k]);
    if (s->u.show.has_name) {
        dl_sql_pr_str(pr, k == DL_SQL_SHOW_TABLES || k == DL_SQL_SHOW_VIEWS ? " IN " : " ");
        dl_sql_pr_name(pr, &s->u.show.name);
    }
    if (s->u.show.has_schema) {
        dl_sql_pr_str(pr, " IN ");
        dl_sql_pr_name(pr, &s->u.show.schema);
    }
    if (s->u.show.has_key) {
        dl_sql_pr_str(pr, " (");
        dl_sql_pr_string(pr, s->u.show.key);
        dl_sql_pr_str(pr, ")");
    }
    if (s->u.show.has_pattern) {
        dl_sql_pr_str(pr, " LIKE ");
        dl_sql_pr_string(pr, s->u.show.pattern);
    }
    pr_partition_spec(pr, s->u.show.partition);
}

/* ---- ALTER TABLE -------------------------------------------------------------------------- */

static void
pr_alter_column(dl_sql_printer *pr, const dl_sql_stmt *s) {
    dl_sql_pr_str(pr, " ALTER COLUMN ");
    dl_sql_pr_name(pr, &s->u.alter.column);
    switch (s->u.alter.change) {
    case DL_SQL_CHANGE_TYPE:
        dl_sql_pr_str(pr, " TYPE ");
        dl_sql_pr_type(pr, s->u.alter.type);
        return;
    case DL_SQL_CHANGE_SET_NOT_NULL:
        dl_sql_pr_str(pr, " SET NOT NULL");
        return;
    case DL_SQL_CHANGE_DROP_NOT_NULL:
        dl_sql_pr_str(pr, " DROP NOT NULL");
        return;
    case DL_SQL_CHANGE_COMMENT:
        dl_sql_pr_str(pr, " COMMENT ");
        dl_sql_pr_string(pr, s->u.alter.comment);
        return;
    case DL_SQL_CHANGE_SET_DEFAULT:
        dl_sql_pr_str(pr, " SET DEFAULT ");
        dl_sql_pr_expr(pr, s->u.alter.default_value, true);
        return;
    case DL_SQL_CHANGE_DROP_DEFAULT:
        dl_sql_pr_str(pr, " DROP DEFAULT");
        return;
    case DL_SQL_CHANGE_POSITION:
        if (s->u.alter.position == DL_SQL_COLPOS_FIRST) {
            dl_sql_pr_str(pr, " FIRST");
        } else {
            dl_sql_pr_str(pr, " AFTER ");
            dl_sql_pr_name(pr, &s->u.alter.after);
        }
        return;
    }
}

static void
pr_alter_action(dl_sql_printer *pr, const dl_sql_stmt *s) {
    switch (s->u.alter.kind) {
    case DL_SQL_ALTER_ADD_COLUMNS:
        dl_sql_pr_str(pr, " ADD COLUMNS");
        pr_columns(pr, s->u.alter.columns, NULL, 0);
        return;
    case DL_SQL_ALTER_DROP_COLUMNS:
        dl_sql_pr_str(pr, s->u.alter.if_exists ? " DROP COLUMNS IF EXISTS " : " DROP COLUMNS ");
        pr_name_list(pr, s->u.alter.names);
        return;
    case DL_SQL_ALTER_RENAME_COLUMN:
        dl_sql_pr_str(pr, " RENAME COLUMN ");
        dl_sql_pr_name(pr, &s->u.alter.column);
        dl_sql_pr_str(pr, " TO ");
        dl_sql_pr_ident(pr, &s->u.alter.new_name);
        return;
    case DL_SQL_ALTER_COLUMN:
        pr_alter_column(pr, s);
        return;
    case DL_SQL_ALTER_SET_PROPS:
    case DL_SQL_ALTER_UNSET_PROPS:
        dl_sql_pr_str(pr, s->u.alter.kind == DL_SQL_ALTER_SET_PROPS ? " SET TBLPROPERTIES "
                          : s->u.alter.if_exists ? " UNSET TBLPROPERTIES IF EXISTS "
                                                 : " UNSET TBLPROPERTIES ");
        pr_props(pr, s->u.alter.props);
        return;
    case DL_SQL_ALTER_ADD_CONSTRAINT:
        dl_sql_pr_str(pr, " ADD CONSTRAINT ");
        dl_sql_pr_ident(pr, &s->u.alter.constraint.name);
        dl_sql_pr_str(pr, " CHECK (");
        dl_sql_pr_expr(pr, s->u.alter.constraint.check, true);
        dl_sql_pr_str(pr, ")");
        return;
    case DL_SQL_ALTER_DROP_CONSTRAINT:
        dl_sql_pr_str(pr,
                      s->u.alter.if_exists ? " DROP CONSTRAINT IF EXISTS " : " DROP CONSTRAINT ");
        dl_sql_pr_ident(pr, &s->u.alter.constraint.name);
        return;
    case DL_SQL_ALTER_RENAME_TO:
        dl_sql_pr_str(pr, " RENAME TO ");
        dl_sql_pr_name(pr, &s->u.alter.new_table);
        return;
    case DL_SQL_ALTER_CLUSTER_BY:
        dl_sql_pr_str(pr, " CLUSTER BY ");
        if (s->u.alter.names.n == 0) {
            dl_sql_pr_str(pr, "NONE");
        } else {
            pr_name_list(pr, s->u.alter.names);
        }
        return;
    }
}

/* ---- utility statements ------------------------------------------------------------------- */

/* A SET value as raw words when they would read back the same, else as a string. */
static void
pr_setting_value(dl_sql_printer *pr, dl_str v) {
    bool raw = v.len > 0;
    for (size_t i = 0; i < v.len && raw; i++) {
        char c = v.ptr[i];
        raw = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == ':' || c == '+' || c == '-' || c == '/';
        if (raw && i > 0 &&
            ((v.ptr[i - 1] == '-' && c == '-') || (v.ptr[i - 1] == '/' && c == '*'))) {
            raw = false;
        }
    }
    if (raw) {
        dl_sql_pr_mem(pr, v.ptr, v.len);
    } else {
        dl_sql_pr_string(pr, v);
    }
}

static void
pr_set_reset(dl_sql_printer *pr, const dl_sql_stmt *s) {
    if (s->kind == DL_SQL_STMT_RESET) {
        dl_sql_pr_str(pr, "RESET");
        if (s->u.reset.has_key) {
            dl_sql_pr_str(pr, " ");
            dl_sql_pr_mem(pr, s->u.reset.key.ptr, s->u.reset.key.len);
        }
        return;
    }
    dl_sql_pr_str(pr, "SET");
    if (s->u.set.has_key) {
        dl_sql_pr_str(pr, " ");
        dl_sql_pr_mem(pr, s->u.set.key.ptr, s->u.set.key.len);
    }
    if (s->u.set.has_value) {
        dl_sql_pr_str(pr, " = ");
        pr_setting_value(pr, s->u.set.value);
    }
}

static void
pr_copy(dl_sql_printer *pr, const dl_sql_stmt *s) {
    dl_sql_pr_str(pr, "COPY ");
    if (s->u.copy.query != NULL) {
        dl_sql_pr_str(pr, "(");
        dl_sql_pr_query(pr, s->u.copy.query);
        dl_sql_pr_str(pr, ")");
    } else {
        dl_sql_pr_name(pr, &s->u.copy.table);
    }
    dl_sql_pr_str(pr, " TO ");
    dl_sql_pr_string(pr, s->u.copy.path);
    for (uint32_t i = 0; i < s->u.copy.n_options; i++) {
        const dl_sql_copy_option *o = &s->u.copy.options[i];
        dl_sql_pr_str(pr, i > 0 ? ", " : " (");
        dl_sql_pr_ident(pr, &o->name);
        if (o->value != NULL) {
            dl_sql_pr_str(pr, " ");
            dl_sql_pr_expr(pr, o->value, true);
        }
    }
    dl_sql_pr_str(pr, s->u.copy.n_options > 0 ? ")" : "");
}

static void
pr_props_clause(dl_sql_printer *pr, const char *word, const dl_sql_prop_list *l) {
    if (l->n == 0) {
        return;
    }
    dl_sql_pr_str(pr, word);
    dl_sql_pr_str(pr, " ");
    pr_props(pr, *l);
}

static void
pr_copy_into(dl_sql_printer *pr, const dl_sql_stmt *s) {
    dl_sql_pr_str(pr, "COPY INTO ");
    dl_sql_pr_name(pr, &s->u.copy_into.table);
    dl_sql_pr_str(pr, " FROM ");
    dl_sql_pr_string(pr, s->u.copy_into.path);
    dl_sql_pr_str(pr, " FILEFORMAT = ");
    dl_sql_pr_ident(pr, &s->u.copy_into.format);
    if (s->u.copy_into.has_files) {
        for (uint32_t i = 0; i < s->u.copy_into.n_files; i++) {
            dl_sql_pr_str(pr, i > 0 ? ", " : " FILES = (");
            dl_sql_pr_string(pr, s->u.copy_into.files[i]);
        }
        dl_sql_pr_str(pr, ")");
    }
    if (s->u.copy_into.has_pattern) {
        dl_sql_pr_str(pr, " PATTERN = ");
        dl_sql_pr_string(pr, s->u.copy_into.pattern);
    }
    pr_props_clause(pr, " FORMAT_OPTIONS", &s->u.copy_into.format_options);
    pr_props_clause(pr, " COPY_OPTIONS", &s->u.copy_into.copy_options);
}

static void
pr_convert(dl_sql_printer *pr, const dl_sql_stmt *s) {
    dl_sql_pr_str(pr, "CONVERT TO DELTA ");
    dl_sql_pr_name(pr, &s->u.convert.table);
    pr_kw_if(pr, s->u.convert.no_statistics, " NO STATISTICS");
    dl_sql_column_list cols = s->u.convert.partition_columns;
    for (uint32_t i = 0; i < cols.n; i++) {
        dl_sql_pr_str(pr, i > 0 ? ", " : " PARTITIONED BY (");
        dl_sql_pr_name(pr, &cols.items[i].name);
        dl_sql_pr_str(pr, " ");
        dl_sql_pr_type(pr, cols.items[i].type);
    }
    dl_sql_pr_str(pr, cols.n > 0 ? ")" : "");
}

/* CACHE and its kin; ANALYZE's column list is not kept (the statement does nothing with it). */
static void
pr_cache(dl_sql_printer *pr, const dl_sql_stmt *s) {
    static const char *const heads[] = {
        [DL_SQL_CACHE_TABLE] = "CACHE TABLE ",     [DL_SQL_CACHE_UNCACHE] = "UNCACHE TABLE ",
        [DL_SQL_CACHE_REFRESH] = "REFRESH TABLE ", [DL_SQL_CACHE_CLEAR] = "CLEAR CACHE",
        [DL_SQL_CACHE_ANALYZE] = "ANALYZE TABLE ",
    };
    if (s->u.cache.kind == DL_SQL_CACHE_TABLE && s->u.cache.is_lazy) {
        dl_sql_pr_str(pr, "CACHE LAZY TABLE ");
    } else {
        dl_sql_pr_str(pr, heads[s->u.cache.kind]);
    }
    if (s->u.cache.if_exists) {
        dl_sql_pr_str(pr, "IF EXISTS ");
    }
    if (s->u.cache.has_name) {
        dl_sql_pr_name(pr, &s->u.cache.name);
    }
    if (s->u.cache.kind == DL_SQL_CACHE_ANALYZE) {
        dl_sql_pr_str(pr, " COMPUTE STATISTICS");
    }
}

static void
pr_misc(dl_sql_printer *pr, const dl_sql_stmt *s) {
    static const char *const modes[] = {
        [DL_SQL_EXPLAIN_DEFAULT] = "EXPLAIN ",
        [DL_SQL_EXPLAIN_EXTENDED] = "EXPLAIN EXTENDED ",
        [DL_SQL_EXPLAIN_FORMATTED] = "EXPLAIN FORMATTED ",
        [DL_SQL_EXPLAIN_CODEGEN] = "EXPLAIN CODEGEN ",
        [DL_SQL_EXPLAIN_COST] = "EXPLAIN COST ",
        [DL_SQL_EXPLAIN_ANALYZE] = "EXPLAIN ANALYZE ",
    };
    switch (s->kind) {
    case DL_SQL_STMT_USE:
        dl_sql_pr_str(pr, s->u.use.object == DL_SQL_OBJ_SCHEMA    ? "USE SCHEMA "
                          : s->u.use.object == DL_SQL_OBJ_CATALOG ? "USE CATALOG "
                                                                  : "USE ");
        dl_sql_pr_name(pr, &s->u.use.name);
        return;
    case DL_SQL_STMT_RESTORE:
        dl_sql_pr_str(pr, "RESTORE TABLE ");
        dl_sql_pr_name(pr, &s->u.restore.table);
        dl_sql_pr_str(pr, s->u.restore.tt.syntax == DL_SQL_TT_AT ? "" : " TO");
        pr_time_travel(pr, &s->u.restore.tt);
        return;
    case DL_SQL_STMT_EXPLAIN:
        dl_sql_pr_str(pr, modes[s->u.explain.mode]);
        dl_sql_pr_stmt(pr, s->u.explain.stmt);
        return;
    case DL_SQL_STMT_TRUNCATE:
        dl_sql_pr_str(pr, "TRUNCATE TABLE ");
        dl_sql_pr_name(pr, &s->u.truncate.table);
        pr_partition_spec(pr, s->u.truncate.partition);
        return;
    case DL_SQL_STMT_CACHE:
        pr_cache(pr, s);
        return;
    case DL_SQL_STMT_GENERATE:
        dl_sql_pr_str(pr, "GENERATE ");
        dl_sql_pr_ident(pr, &s->u.generate.mode);
        dl_sql_pr_str(pr, " FOR TABLE ");
        dl_sql_pr_name(pr, &s->u.generate.table);
        return;
    default:
        return;
    }
}

void
dl_sql_pr_stmt(dl_sql_printer *pr, const dl_sql_stmt *s) {
    switch (s->kind) {
    case DL_SQL_STMT_QUERY:
        dl_sql_pr_query(pr, s->u.query);
        return;
    case DL_SQL_STMT_CREATE_TABLE:
        pr_create_table(pr, s);
        return;
    case DL_SQL_STMT_CREATE_VIEW:
        pr_create_view(pr, s);
        return;
    case DL_SQL_STMT_CREATE_SCHEMA:
        pr_create_schema(pr, s);
        return;
    case DL_SQL_STMT_DROP:
        pr_drop(pr, s);
        return;
    case DL_SQL_STMT_INSERT:
        pr_insert(pr, s);
        return;
    case DL_SQL_STMT_UPDATE:
    case DL_SQL_STMT_DELETE:
        pr_update_delete(pr, s);
        return;
    case DL_SQL_STMT_MERGE:
        pr_merge(pr, s);
        return;
    case DL_SQL_STMT_VACUUM:
        pr_vacuum(pr, s);
        return;
    case DL_SQL_STMT_OPTIMIZE:
        pr_optimize(pr, s);
        return;
    case DL_SQL_STMT_DESCRIBE_HISTORY:
    case DL_SQL_STMT_DESCRIBE_DETAIL:
    case DL_SQL_STMT_DESCRIBE_TABLE:
        pr_describe(pr, s);
        return;
    case DL_SQL_STMT_SHOW:
        pr_show(pr, s);
        return;
    case DL_SQL_STMT_ALTER_TABLE:
        dl_sql_pr_str(pr, "ALTER TABLE ");
        dl_sql_pr_name(pr, &s->u.alter.table);
        pr_alter_action(pr, s);
        return;
    case DL_SQL_STMT_SET:
    case DL_SQL_STMT_RESET:
        pr_set_reset(pr, s);
        return;
    case DL_SQL_STMT_COPY:
        pr_copy(pr, s);
        return;
    case DL_SQL_STMT_COPY_INTO:
        pr_copy_into(pr, s);
        return;
    case DL_SQL_STMT_CONVERT:
        pr_convert(pr, s);
        return;
    default:
        pr_misc(pr, s);
        return;
    }
}

dl_status
dl_sql_stmt_print(const dl_sql_stmt *stmt, dl_buf *out, dl_error *err) {
    dl_sql_printer pr = {.out = out, .status = DL_OK, .err = err};
    dl_sql_pr_stmt(&pr, stmt);
    return pr.status;
}

dl_status
dl_sql_query_print(const dl_sql_query *query, dl_buf *out, dl_error *err) {
    dl_sql_printer pr = {.out = out, .status = DL_OK, .err = err};
    dl_sql_pr_query(&pr, query);
    return pr.status;
}
