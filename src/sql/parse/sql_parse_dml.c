/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data-changing statements (Spark's DML with Delta's extensions):
 *
 *   INSERT INTO|OVERWRITE [TABLE] name [WITH ('option' = 'v', ...)] [PARTITION (c [= v], ...)]
 *       [(columns) | BY NAME] [REPLACE WHERE cond] query
 *   UPDATE name [[AS] alias] SET col = expr {, col = expr} [WHERE cond]
 *   DELETE FROM name [[AS] alias] [WHERE cond]
 *   MERGE [WITH SCHEMA EVOLUTION] INTO name [[AS] alias] USING relation ON cond clause...
 *     clause := WHEN MATCHED [AND cond] THEN UPDATE SET * | UPDATE SET assigns | DELETE
 *             | WHEN NOT MATCHED [BY TARGET] [AND cond] THEN INSERT *
 *                                                   | INSERT [(columns)] VALUES (exprs)
 *             | WHEN NOT MATCHED BY SOURCE [AND cond] THEN UPDATE SET assigns | DELETE
 *   TRUNCATE TABLE name [PARTITION (...)]
 *
 * MERGE keeps its clauses in the order written: Delta applies the first clause of a kind whose
 * condition holds.
 */
#include "sql/parse/sql_parse_int.h"

dl_status
dl_sql_parse_partition_spec(dl_sql_parser *p, dl_sql_partition_spec *out) {
    if (!dl_sql_accept_kw(p, DL_SQL_KW_PARTITION)) {
        return DL_OK;
    }
    const dl_sql_token *open = dl_sql_tok(p);
    DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LPAREN));
    dl_sql_vec items = {0};
    do {
        dl_sql_partition_value *v;
        DL_SQL_PUSH(p, items, v);
        DL_TRY(dl_sql_parse_ident(p, "a partition column", &v->column));
        if (dl_sql_accept(p, DL_SQL_TOK_EQ)) {
            DL_TRY(dl_sql_parse_value_expr(p, &v->value));
        }
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    out->items = items.data;
    out->n = items.n;
    return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "PARTITION clause");
}

static dl_status
parse_assigns(dl_sql_parser *p, dl_sql_assign_list *out) {
    dl_sql_vec items = {0};
    do {
        dl_sql_assign *a;
        DL_SQL_PUSH(p, items, a);
        DL_TRY(dl_sql_parse_name(p, "a column name", &a->column));
        DL_TRY(dl_sql_expect(p, DL_SQL_TOK_EQ));
        DL_TRY(dl_sql_parse_expr(p, &a->value));
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    out->items = items.data;
    out->n = items.n;
    return DL_OK;
}

/* ---- INSERT ------------------------------------------------------------------------------- */

dl_status
dl_sql_parse_insert(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_advance(p);
    s->kind = DL_SQL_STMT_INSERT;
    if (dl_sql_accept_kw(p, DL_SQL_KW_OVERWRITE)) {
        s->u.insert.is_overwrite = true;
        if (dl_sql_tok_is_word(p, dl_sql_tok(p), "DIRECTORY") ||
            dl_sql_tok_is_word(p, dl_sql_tok(p), "LOCAL")) {
            return dl_sql_fail_tok(p, dl_sql_tok(p), DL_ERR_UNSUPPORTED,
                                   "INSERT OVERWRITE DIRECTORY is not supported (use COPY ... TO)");
        }
    } else {
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_INTO));
    }
    (void)dl_sql_accept_kw(p, DL_SQL_KW_TABLE);
    DL_TRY(dl_sql_parse_name(p, "a table name", &s->u.insert.table));
    if (dl_sql_is_kw(p, DL_SQL_KW_WITH) && dl_sql_peek_is(p, 1, DL_SQL_TOK_LPAREN)) {
        /* Spark 4's write options; WITH name AS (...) would be the query's CTE */
        dl_sql_advance(p);
        DL_TRY(dl_sql_parse_props(p, true, &s->u.insert.options));
    }
    DL_TRY(dl_sql_parse_partition_spec(p, &s->u.insert.partition));
    if (dl_sql_is(p, DL_SQL_TOK_LPAREN) && !dl_sql_looks_like_query(p)) {
        s->u.insert.has_columns = true;
        DL_TRY(dl_sql_parse_ident_list(p, "a column name", &s->u.insert.columns));
    } else if (dl_sql_is_kw(p, DL_SQL_KW_BY) && dl_sql_peek_is_kw(p, 1, DL_SQL_KW_NAME)) {
        dl_sql_advance(p);
        dl_sql_advance(p);
        s->u.insert.by_name = true;
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_REPLACE) && dl_sql_peek_is_kw(p, 1, DL_SQL_KW_WHERE)) {
        dl_sql_advance(p);
        dl_sql_advance(p);
        DL_TRY(dl_sql_parse_expr(p, &s->u.insert.replace_where));
    }
    return dl_sql_parse_query(p, &s->u.insert.query);
}

/* ---- UPDATE, DELETE ----------------------------------------------------------------------- */

dl_status
dl_sql_parse_update(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_advance(p);
    s->kind = DL_SQL_STMT_UPDATE;
    DL_TRY(dl_sql_parse_name(p, "a table name", &s->u.update.table));
    DL_TRY(dl_sql_parse_alias(p, false, &s->u.update.has_alias, &s->u.update.alias, NULL));
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_SET));
    DL_TRY(parse_assigns(p, &s->u.update.assigns));
    if (dl_sql_accept_kw(p, DL_SQL_KW_WHERE)) {
        DL_TRY(dl_sql_parse_expr(p, &s->u.update.where));
    }
    return DL_OK;
}

dl_status
dl_sql_parse_delete(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_advance(p);
    s->kind = DL_SQL_STMT_DELETE;
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_FROM));
    DL_TRY(dl_sql_parse_name(p, "a table name", &s->u.delete_.table));
    DL_TRY(dl_sql_parse_alias(p, false, &s->u.delete_.has_alias, &s->u.delete_.alias, NULL));
    if (dl_sql_accept_kw(p, DL_SQL_KW_WHERE)) {
        DL_TRY(dl_sql_parse_expr(p, &s->u.delete_.where));
    }
    return DL_OK;
}

dl_status
dl_sql_parse_truncate(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_advance(p);
    s->kind = DL_SQL_STMT_TRUNCATE;
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_TABLE));
    DL_TRY(dl_sql_parse_name(p, "a table name", &s->u.truncate.table));
    return dl_sql_parse_partition_spec(p, &s->u.truncate.partition);
}

/* ---- MERGE -------------------------------------------------------------------------------- */

/* WHEN [NOT] MATCHED [BY TARGET | BY SOURCE] (WHEN consumed). */
static dl_status
parse_merge_match(dl_sql_parser *p, dl_sql_merge_clause *c) {
    bool is_not = dl_sql_accept_kw(p, DL_SQL_KW_NOT);
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_MATCHED));
    c->match = is_not ? DL_SQL_MERGE_NOT_MATCHED : DL_SQL_MERGE_MATCHED;
    if (is_not && dl_sql_accept_kw(p, DL_SQL_KW_BY)) {
        if (dl_sql_accept_kw(p, DL_SQL_KW_SOURCE)) {
            c->match = DL_SQL_MERGE_NOT_MATCHED_BY_SOURCE;
        } else if (!dl_sql_accept_kw(p, DL_SQL_KW_TARGET)) {
            return dl_sql_fail_expected(p, "TARGET or SOURCE after NOT MATCHED BY");
        }
    }
    if (dl_sql_accept_kw(p, DL_SQL_KW_AND)) {
        DL_TRY(dl_sql_parse_expr(p, &c->cond));
    }
    return dl_sql_expect_kw(p, DL_SQL_KW_THEN);
}

static dl_status
parse_merge_insert(dl_sql_parser *p, dl_sql_merge_clause *c) {
    if (dl_sql_accept(p, DL_SQL_TOK_STAR)) {
        c->action = DL_SQL_MERGE_INSERT_STAR;
        return DL_OK;
    }
    c->action = DL_SQL_MERGE_INSERT;
    if (dl_sql_is(p, DL_SQL_TOK_LPAREN)) {
        DL_TRY(dl_sql_parse_ident_list(p, "a column name", &c->columns));
    }
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_VALUES));
    const dl_sql_token *open = dl_sql_tok(p);
    DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LPAREN));
    DL_TRY(dl_sql_parse_expr_list(p, &c->values));
    return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "VALUES list");
}

static dl_status
parse_merge_action(dl_sql_parser *p, dl_sql_merge_clause *c) {
    const dl_sql_token *at = dl_sql_tok(p);
    if (dl_sql_accept_kw(p, DL_SQL_KW_DELETE)) {
        if (c->match == DL_SQL_MERGE_NOT_MATCHED) {
            return dl_sql_fail_tok(p, at, DL_ERR_SQL_SYNTAX,
                                   "WHEN NOT MATCHED can only INSERT (there is no target row)");
        }
        c->action = DL_SQL_MERGE_DELETE;
        return DL_OK;
    }
    if (dl_sql_accept_kw(p, DL_SQL_KW_UPDATE)) {
        if (c->match == DL_SQL_MERGE_NOT_MATCHED) {
            return dl_sql_fail_tok(p, at, DL_ERR_SQL_SYNTAX,
                                   "WHEN NOT MATCHED can only INSERT (there is no target row)");
        }
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_SET));
        if (c->match == DL_SQL_MERGE_MATCHED && dl_sql_accept(p, DL_SQL_TOK_STAR)) {
            c->action = DL_SQL_MERGE_UPDATE_STAR;
            return DL_OK;
        }
        c->action = DL_SQL_MERGE_UPDATE;
        return parse_assigns(p, &c->assigns);
    }
    if (dl_sql_accept_kw(p, DL_SQL_KW_INSERT)) {
        if (c->match != DL_SQL_MERGE_NOT_MATCHED) {
            return dl_sql_fail_tok(p, at, DL_ERR_SQL_SYNTAX,
                                   "only WHEN NOT MATCHED [BY TARGET] can INSERT");
        }
        return parse_merge_insert(p, c);
    }
    return dl_sql_fail_expected(p, c->match == DL_SQL_MERGE_NOT_MATCHED ? "INSERT"
                                                                        : "UPDATE or DELETE");
}

dl_status
dl_sql_parse_merge(dl_sql_parser *p, dl_sql_stmt *s) {
    dl_sql_advance(p);
    s->kind = DL_SQL_STMT_MERGE;
    if (dl_sql_accept_kw(p, DL_SQL_KW_WITH)) {
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_SCHEMA));
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_EVOLUTION));
        s->u.merge.with_schema_evolution = true;
    }
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_INTO));
    DL_TRY(dl_sql_parse_name(p, "a target table", &s->u.merge.target));
    DL_TRY(dl_sql_parse_alias(p, false, &s->u.merge.has_alias, &s->u.merge.alias, NULL));
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_USING));
    DL_TRY(dl_sql_parse_primary_relation(p, &s->u.merge.source));
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_ON));
    DL_TRY(dl_sql_parse_expr(p, &s->u.merge.on));
    dl_sql_vec clauses = {0};
    if (!dl_sql_is_kw(p, DL_SQL_KW_WHEN)) {
        return dl_sql_fail_expected(p, "WHEN MATCHED or WHEN NOT MATCHED");
    }
    while (dl_sql_is_kw(p, DL_SQL_KW_WHEN)) {
        dl_sql_merge_clause *c;
        DL_SQL_PUSH(p, clauses, c);
        c->loc = dl_sql_tok(p)->off;
        dl_sql_advance(p);
        DL_TRY(parse_merge_match(p, c));
        DL_TRY(parse_merge_action(p, c));
    }
    s->u.merge.clauses = clauses.data;
    s->u.merge.n_clauses = clauses.n;
    return DL_OK;
}
