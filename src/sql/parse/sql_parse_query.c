/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Queries and relations (Spark's query / queryTerm / querySpecification / relation):
 *
 *   query      := [WITH cte {, cte}] setops [ORDER BY sort] [LIMIT expr | LIMIT ALL]
 *                 [OFFSET expr]
 *   cte        := name [(columns)] [AS] '(' query ')'
 *   setops     := term { (UNION | EXCEPT | MINUS) [ALL | DISTINCT] term }   -- INTERSECT binds
 *   term       := SELECT ... | VALUES rows | '(' query ')'                     -- tighter
 *   select     := SELECT [DISTINCT | ALL] item {, item} [FROM relation {, relation}]
 *                 [WHERE expr] [GROUP BY ALL | GROUP BY group {, group} [WITH ROLLUP|CUBE]]
 *                 [HAVING expr] [WINDOW w AS (spec) {, ...}] [QUALIFY expr]
 *   relation   := primary { [NATURAL] join primary [ON expr | USING (columns)] }
 *   primary    := name [time travel] [alias] | name '(' args ')' [alias]
 *               | '(' query ')' [alias] | '(' DESCRIBE ... ')' [alias] | '(' relation ')'
 *               | VALUES rows [alias]
 *   time travel:= @v<n> | @yyyyMMddHHmmssSSS | [FOR] (VERSION | SYSTEM_VERSION) AS OF value
 *               | [FOR] (TIMESTAMP | SYSTEM_TIME) AS OF value
 *   alias      := [AS] name [(columns)]
 *
 * A parenthesised query that already has clauses of its own (ORDER BY, LIMIT) and is given
 * more becomes DL_SQL_QUERY_NESTED, so no clause is lost or merged.
 *
 * Refused on purpose, with DL_ERR_UNSUPPORTED: LATERAL, PIVOT, UNPIVOT, TABLESAMPLE, and the
 * Hive clauses CLUSTER BY, DISTRIBUTE BY, SORT BY in queries.
 */
#include <string.h>

#include "sql/parse/sql_parse_int.h"

static dl_status parse_setops(dl_sql_parser *p, dl_sql_query *first, int min_prec,
                              dl_sql_query **out);

static dl_status
refuse(dl_sql_parser *p, const char *what) {
    return dl_sql_fail_tok(p, dl_sql_tok(p), DL_ERR_UNSUPPORTED, "%s", what);
}

static dl_status
new_query(dl_sql_parser *p, dl_sql_query_kind kind, uint32_t loc, dl_sql_query **out) {
    DL_SQL_NEW(p, *out);
    (*out)->kind = kind;
    (*out)->loc = loc;
    (*out)->height = 1;
    return DL_OK;
}

static dl_status
new_tref(dl_sql_parser *p, dl_sql_tref_kind kind, uint32_t loc, dl_sql_tref **out) {
    DL_SQL_NEW(p, *out);
    (*out)->kind = kind;
    (*out)->loc = loc;
    (*out)->height = 1;
    return DL_OK;
}

bool
dl_sql_continues_query(const dl_sql_parser *p) {
    return dl_sql_is_kw(p, DL_SQL_KW_UNION) || dl_sql_is_kw(p, DL_SQL_KW_INTERSECT) ||
           dl_sql_is_kw(p, DL_SQL_KW_EXCEPT) || dl_sql_is_kw(p, DL_SQL_KW_MINUS) ||
           dl_sql_is_kw(p, DL_SQL_KW_ORDER) || dl_sql_is_kw(p, DL_SQL_KW_LIMIT) ||
           dl_sql_is_kw(p, DL_SQL_KW_OFFSET);
}

/* ---- VALUES ------------------------------------------------------------------------------- */

/* One row: '(' e, ... ')' (a struct in a one-value row needs its own parentheses), or one
 * expression. "(1) + 2" is the one-value row 3, as in Spark. */
static dl_status
parse_row(dl_sql_parser *p, dl_sql_expr_list *out) {
    if (!dl_sql_is(p, DL_SQL_TOK_LPAREN) || dl_sql_looks_like_query(p)) {
        return dl_sql_parse_expr_as_list(p, out);
    }
    const dl_sql_token *open = dl_sql_tok(p);
    dl_sql_advance(p);
    dl_sql_paren content;
    DL_TRY(dl_sql_parse_paren_content(p, open, "row", &content));
    *out = content.list;
    if (content.list.n == 1 && dl_sql_continues_expr(p)) {
        DL_TRY(dl_sql_parse_expr_from(p, content.list.items[0], &out->items[0]));
    }
    return DL_OK;
}

dl_status
dl_sql_parse_values(dl_sql_parser *p, uint32_t loc, dl_sql_query **out) {
    DL_TRY(new_query(p, DL_SQL_QUERY_VALUES, loc, out));
    dl_sql_vec rows = {0};
    do {
        dl_sql_expr_list *row;
        DL_SQL_PUSH(p, rows, row);
        DL_TRY(parse_row(p, row));
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    (*out)->u.values.rows = rows.data;
    (*out)->u.values.n_rows = rows.n;
    return dl_sql_query_done(p, *out);
}

/* ---- aliases and time travel -------------------------------------------------------------- */

dl_status
dl_sql_parse_alias(dl_sql_parser *p, bool allow_columns, bool *has_alias, dl_sql_ident *alias,
                   dl_sql_ident_list *columns) {
    if (dl_sql_accept_kw(p, DL_SQL_KW_AS)) {
        DL_TRY(dl_sql_parse_ident(p, "an alias", alias));
    } else if (dl_sql_is_ident(p, dl_sql_tok(p), false, true)) {
        DL_TRY(dl_sql_parse_ident(p, "an alias", alias));
    } else {
        return DL_OK;
    }
    *has_alias = true;
    if (allow_columns && dl_sql_is(p, DL_SQL_TOK_LPAREN)) {
        DL_TRY(dl_sql_parse_ident_list(p, "a column alias", columns));
    }
    return DL_OK;
}

static bool
is_digits(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return false;
        }
    }
    return n > 0;
}

/* @v3 or @20261002080000123 (the '@' is current). */
static dl_status
parse_at_suffix(dl_sql_parser *p, dl_sql_time_travel *out) {
    out->loc = dl_sql_tok(p)->off;
    out->syntax = DL_SQL_TT_AT;
    dl_sql_advance(p);
    const dl_sql_token *t = dl_sql_tok(p);
    const char *s = p->text + t->off;
    dl_str digits;
    if (t->kind == DL_SQL_TOK_WORD && t->len > 1 && (s[0] == 'v' || s[0] == 'V') &&
        is_digits(s + 1, t->len - 1)) {
        out->kind = DL_SQL_TT_VERSION;
        digits = dl_str_make(s + 1, t->len - 1);
    } else if (t->kind == DL_SQL_TOK_NUMBER && t->flags == 0 && t->len == 17) {
        out->kind = DL_SQL_TT_TIMESTAMP;
        digits = dl_str_make(s, t->len);
    } else {
        return dl_sql_fail_expected(
            p, "v<version> or a timestamp yyyyMMddHHmmssSSS (17 digits) after '@'");
    }
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_LITERAL, t->off, &out->expr));
    out->expr->u.lit.kind = DL_SQL_LIT_INT;
    DL_TRY(dl_sql_strdup(p, digits.ptr, digits.len, &out->expr->u.lit.text));
    dl_sql_advance(p);
    return DL_OK;
}

dl_status
dl_sql_parse_time_travel(dl_sql_parser *p, dl_sql_time_travel *out) {
    memset(out, 0, sizeof(*out));
    if (dl_sql_is(p, DL_SQL_TOK_AT)) {
        return parse_at_suffix(p, out);
    }
    uint32_t k = dl_sql_is_kw(p, DL_SQL_KW_FOR) ? 1 : 0;
    const dl_sql_token *t = dl_sql_peek(p, k);
    bool is_version = dl_sql_peek_is_kw(p, k, DL_SQL_KW_VERSION) ||
                      dl_sql_peek_is_kw(p, k, DL_SQL_KW_SYSTEM_VERSION);
    bool is_time = dl_sql_peek_is_kw(p, k, DL_SQL_KW_TIMESTAMP) ||
                   dl_sql_peek_is_kw(p, k, DL_SQL_KW_SYSTEM_TIME);
    if ((!is_version && !is_time) || !dl_sql_peek_is_kw(p, k + 1, DL_SQL_KW_AS) ||
        !dl_sql_peek_is_kw(p, k + 2, DL_SQL_KW_OF)) {
        if (k == 1) {
            return dl_sql_fail_tok(p, t, DL_ERR_SQL_SYNTAX,
                                   "expected SYSTEM_VERSION AS OF or SYSTEM_TIME AS OF after FOR");
        }
        return DL_OK;
    }
    out->loc = dl_sql_tok(p)->off;
    out->kind = is_version ? DL_SQL_TT_VERSION : DL_SQL_TT_TIMESTAMP;
    out->syntax = (k == 1 || t->kw == DL_SQL_KW_SYSTEM_VERSION || t->kw == DL_SQL_KW_SYSTEM_TIME)
                      ? DL_SQL_TT_FOR_SYSTEM
                      : DL_SQL_TT_AS_OF;
    for (uint32_t i = 0; i < k + 3; i++) {
        dl_sql_advance(p);
    }
    return dl_sql_parse_value_expr(p, &out->expr);
}

/* ---- relations ---------------------------------------------------------------------------- */

/* '(' ...: a subquery, a DESCRIBE relation or a parenthesised relation. */
static dl_status
parse_paren_relation(dl_sql_parser *p, dl_sql_tref **out) {
    const dl_sql_token *open = dl_sql_tok(p);
    if (dl_sql_peek_is_kw(p, 1, DL_SQL_KW_DESCRIBE) || dl_sql_peek_is_kw(p, 1, DL_SQL_KW_DESC)) {
        dl_sql_advance(p);
        DL_TRY(new_tref(p, DL_SQL_TREF_DESCRIBE, open->off, out));
        dl_sql_stmt *s;
        DL_SQL_NEW(p, s);
        s->loc = dl_sql_tok(p)->off;
        DL_TRY(dl_sql_parse_describe(p, s));
        const dl_sql_token *last = &p->toks[p->pos - 1];
        s->end = last->off + last->len;
        (*out)->u.describe = s;
        return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "DESCRIBE relation");
    }
    dl_sql_advance(p);
    if (dl_sql_looks_like_query(p)) {
        dl_sql_paren content;
        DL_TRY(dl_sql_parse_paren_content(p, open, "subquery", &content));
        if (content.query == NULL) {
            return dl_sql_fail_tok(p, open, DL_ERR_SQL_SYNTAX,
                                   "expected a query or a relation inside the parentheses");
        }
        DL_TRY(new_tref(p, DL_SQL_TREF_SUBQUERY, open->off, out));
        (*out)->u.query = content.query;
        return DL_OK;
    }
    DL_TRY(dl_sql_parse_relation(p, out));
    return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "parenthesis");
}

/* name '(' args ')': a table-valued function (the current token is '('). */
static dl_status
parse_tvf(dl_sql_parser *p, uint32_t loc, dl_sql_name name, dl_sql_tref **out) {
    const dl_sql_token *open = dl_sql_tok(p);
    dl_sql_advance(p);
    DL_TRY(new_tref(p, DL_SQL_TREF_FUNC, loc, out));
    (*out)->u.func.name = name;
    dl_sql_vec args = {0};
    if (!dl_sql_is(p, DL_SQL_TOK_RPAREN)) {
        do {
            dl_sql_expr **slot;
            DL_SQL_PUSH_PTR(p, args, slot);
            DL_TRY(dl_sql_parse_arg(p, slot));
        } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    }
    (*out)->u.func.args.items = args.data;
    (*out)->u.func.args.n = args.n;
    return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "argument list");
}

static dl_status
parse_primary_body(dl_sql_parser *p, dl_sql_tref **out) {
    const dl_sql_token *t = dl_sql_tok(p);
    if (t->kind == DL_SQL_TOK_LPAREN) {
        return parse_paren_relation(p, out);
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_VALUES)) {
        dl_sql_advance(p);
        DL_TRY(new_tref(p, DL_SQL_TREF_VALUES, t->off, out));
        return dl_sql_parse_values(p, t->off, &(*out)->u.query);
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_LATERAL)) {
        return refuse(p, "LATERAL is not supported");
    }
    if (!dl_sql_is_ident(p, t, false, false)) {
        return dl_sql_fail_expected(p, "a table name, a table function, '(' or VALUES");
    }
    dl_sql_name name;
    DL_TRY(dl_sql_parse_name(p, "a table name", &name));
    if (dl_sql_is(p, DL_SQL_TOK_LPAREN)) {
        return parse_tvf(p, t->off, name, out);
    }
    DL_TRY(new_tref(p, DL_SQL_TREF_TABLE, t->off, out));
    (*out)->u.table.name = name;
    return dl_sql_parse_time_travel(p, &(*out)->u.table.tt);
}

dl_status
dl_sql_parse_primary_relation(dl_sql_parser *p, dl_sql_tref **out) {
    DL_TRY(dl_sql_enter(p));
    dl_sql_tref *t = NULL;
    DL_TRY(parse_primary_body(p, &t));
    DL_SQL_HAVE_NODE(p, t);
    if (dl_sql_is_kw(p, DL_SQL_KW_TABLESAMPLE)) {
        return refuse(p, "TABLESAMPLE is not supported");
    }
    bool had_alias = t->has_alias;
    bool has_alias = false;
    dl_sql_ident alias;
    dl_sql_ident_list columns = {0};
    const dl_sql_token *at = dl_sql_tok(p);
    DL_TRY(dl_sql_parse_alias(p, true, &has_alias, &alias, &columns));
    if (has_alias) {
        if (had_alias) {
            return dl_sql_fail_tok(p, at, DL_ERR_SQL_SYNTAX,
                                   "the relation in parentheses already has an alias");
        }
        t->has_alias = true;
        t->alias = alias;
        t->column_aliases = columns;
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_PIVOT) || dl_sql_is_kw(p, DL_SQL_KW_UNPIVOT)) {
        return refuse(p, "PIVOT and UNPIVOT are not supported");
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_LATERAL)) {
        return refuse(p, "LATERAL VIEW is not supported");
    }
    DL_TRY(dl_sql_tref_done(p, t));
    *out = t;
    dl_sql_leave(p);
    return DL_OK;
}

/* The join keywords at the current token: consumes them and returns the kind, or 0. */
static dl_sql_join_kind
accept_join(dl_sql_parser *p) {
    static const struct {
        dl_sql_kw first;
        dl_sql_kw second; /* optional word between the first and JOIN, or NONE */
        dl_sql_join_kind kind;
    } forms[] = {
        {DL_SQL_KW_JOIN, DL_SQL_NO_KW, DL_SQL_JOIN_INNER},
        {DL_SQL_KW_INNER, DL_SQL_NO_KW, DL_SQL_JOIN_INNER},
        {DL_SQL_KW_CROSS, DL_SQL_NO_KW, DL_SQL_JOIN_CROSS},
        {DL_SQL_KW_LEFT, DL_SQL_KW_SEMI, DL_SQL_JOIN_SEMI},
        {DL_SQL_KW_LEFT, DL_SQL_KW_ANTI, DL_SQL_JOIN_ANTI},
        {DL_SQL_KW_LEFT, DL_SQL_KW_OUTER, DL_SQL_JOIN_LEFT},
        {DL_SQL_KW_RIGHT, DL_SQL_KW_OUTER, DL_SQL_JOIN_RIGHT},
        {DL_SQL_KW_FULL, DL_SQL_KW_OUTER, DL_SQL_JOIN_FULL},
        {DL_SQL_KW_SEMI, DL_SQL_NO_KW, DL_SQL_JOIN_SEMI},
        {DL_SQL_KW_ANTI, DL_SQL_NO_KW, DL_SQL_JOIN_ANTI},
    };

    for (size_t i = 0; i < DL_ARRAY_LEN(forms); i++) {
        if (!dl_sql_is_kw(p, forms[i].first)) {
            continue;
        }
        uint32_t k = 1;
        if (forms[i].second != DL_SQL_NO_KW && dl_sql_peek_is_kw(p, 1, forms[i].second)) {
            k = 2;
        } else if (forms[i].second == DL_SQL_KW_SEMI || forms[i].second == DL_SQL_KW_ANTI) {
            continue;
        }
        if (forms[i].first != DL_SQL_KW_JOIN && !dl_sql_peek_is_kw(p, k, DL_SQL_KW_JOIN)) {
            continue;
        }
        for (uint32_t j = 0; j < (forms[i].first == DL_SQL_KW_JOIN ? 1 : k + 1); j++) {
            dl_sql_advance(p);
        }
        return forms[i].kind;
    }
    return (dl_sql_join_kind)0;
}

static dl_status
parse_join_criteria(dl_sql_parser *p, dl_sql_tref *j) {
    if (dl_sql_accept_kw(p, DL_SQL_KW_ON)) {
        if (j->u.join.is_natural) {
            return dl_sql_fail(p, "a NATURAL join takes no ON clause");
        }
        return dl_sql_parse_expr(p, &j->u.join.on);
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_USING)) {
        if (j->u.join.is_natural) {
            return dl_sql_fail(p, "a NATURAL join takes no USING clause");
        }
        dl_sql_advance(p);
        return dl_sql_parse_ident_list(p, "a column name", &j->u.join.using);
    }
    return DL_OK;
}

dl_status
dl_sql_parse_relation(dl_sql_parser *p, dl_sql_tref **out) {
    dl_sql_tref *left = NULL;
    DL_TRY(dl_sql_parse_primary_relation(p, &left));
    DL_SQL_HAVE_NODE(p, left);
    for (;;) {
        const dl_sql_token *start = dl_sql_tok(p);
        bool natural = dl_sql_accept_kw(p, DL_SQL_KW_NATURAL);
        dl_sql_join_kind kind = accept_join(p);
        if (kind == 0) {
            if (natural) {
                return dl_sql_fail_expected(p, "a join after NATURAL");
            }
            break;
        }
        dl_sql_tref *j = NULL;
        DL_TRY(new_tref(p, DL_SQL_TREF_JOIN, start->off, &j));
        j->u.join.kind = kind;
        j->u.join.is_natural = natural;
        j->u.join.left = left;
        DL_TRY(dl_sql_parse_primary_relation(p, &j->u.join.right));
        DL_TRY(parse_join_criteria(p, j));
        DL_TRY(dl_sql_tref_done(p, j));
        left = j;
    }
    *out = left;
    return DL_OK;
}

/* ---- SELECT ------------------------------------------------------------------------------- */

static dl_status
parse_select_items(dl_sql_parser *p, dl_sql_select *s) {
    dl_sql_vec items = {0};
    do {
        dl_sql_select_item *it;
        DL_SQL_PUSH(p, items, it);
        DL_TRY(dl_sql_parse_expr(p, &it->expr));
        dl_sql_ident_list none = {0};
        DL_TRY(dl_sql_parse_alias(p, false, &it->has_alias, &it->alias, &none));
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    s->items = items.data;
    s->n_items = items.n;
    return DL_OK;
}

static dl_status
parse_from(dl_sql_parser *p, dl_sql_select *s) {
    dl_sql_vec from = {0};
    do {
        dl_sql_tref **slot;
        DL_SQL_PUSH_PTR(p, from, slot);
        DL_TRY(dl_sql_parse_relation(p, slot));
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    s->from = from.data;
    s->n_from = from.n;
    return DL_OK;
}

/* One grouping set: (a, b), (), or a. */
static dl_status
parse_grouping_set(dl_sql_parser *p, dl_sql_expr_list *set) {
    const dl_sql_token *open = dl_sql_tok(p);
    if (!dl_sql_accept(p, DL_SQL_TOK_LPAREN)) {
        return dl_sql_parse_expr_as_list(p, set);
    }
    if (!dl_sql_is(p, DL_SQL_TOK_RPAREN)) {
        DL_TRY(dl_sql_parse_expr_list(p, set));
    }
    return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "grouping set");
}

/* GROUPING SETS ( (a, b), a, () ) */
static dl_status
parse_grouping_sets(dl_sql_parser *p, dl_sql_group_item *g) {
    const dl_sql_token *open = dl_sql_tok(p);
    DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LPAREN));
    dl_sql_vec sets = {0};
    do {
        dl_sql_expr_list *set;
        DL_SQL_PUSH(p, sets, set);
        DL_TRY(parse_grouping_set(p, set));
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    g->sets = sets.data;
    g->n_sets = sets.n;
    return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "GROUPING SETS");
}

static dl_status
parse_group_item(dl_sql_parser *p, dl_sql_group_item *g) {
    bool call = dl_sql_peek_is(p, 1, DL_SQL_TOK_LPAREN);
    if (call && (dl_sql_is_kw(p, DL_SQL_KW_ROLLUP) || dl_sql_is_kw(p, DL_SQL_KW_CUBE))) {
        g->kind = dl_sql_is_kw(p, DL_SQL_KW_ROLLUP) ? DL_SQL_GROUP_ROLLUP : DL_SQL_GROUP_CUBE;
        dl_sql_advance(p);
        const dl_sql_token *open = dl_sql_tok(p);
        dl_sql_advance(p);
        DL_TRY(dl_sql_parse_expr_list(p, &g->list));
        return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "list");
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_GROUPING) && dl_sql_peek_is_kw(p, 1, DL_SQL_KW_SETS)) {
        g->kind = DL_SQL_GROUP_SETS;
        dl_sql_advance(p);
        dl_sql_advance(p);
        return parse_grouping_sets(p, g);
    }
    g->kind = DL_SQL_GROUP_EXPR;
    return dl_sql_parse_expr(p, &g->expr);
}

static dl_status
parse_group_by(dl_sql_parser *p, dl_sql_select *s) {
    if (dl_sql_accept_kw(p, DL_SQL_KW_ALL)) {
        s->group_by_all = true;
        return DL_OK;
    }
    dl_sql_vec items = {0};
    do {
        dl_sql_group_item *g;
        DL_SQL_PUSH(p, items, g);
        DL_TRY(parse_group_item(p, g));
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    s->group_by = items.data;
    s->n_group_by = items.n;
    if (dl_sql_is_kw(p, DL_SQL_KW_WITH) &&
        (dl_sql_peek_is_kw(p, 1, DL_SQL_KW_ROLLUP) || dl_sql_peek_is_kw(p, 1, DL_SQL_KW_CUBE))) {
        dl_sql_advance(p);
        s->group_with = dl_sql_is_kw(p, DL_SQL_KW_ROLLUP) ? DL_SQL_GROUP_ROLLUP : DL_SQL_GROUP_CUBE;
        dl_sql_advance(p);
    }
    return DL_OK;
}

static dl_status
parse_windows(dl_sql_parser *p, dl_sql_select *s) {
    dl_sql_vec wins = {0};
    do {
        dl_sql_named_window *w;
        DL_SQL_PUSH(p, wins, w);
        DL_TRY(dl_sql_parse_ident(p, "a window name", &w->name));
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_AS));
        DL_TRY(dl_sql_parse_window(p, false, &w->spec));
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    s->windows = wins.data;
    s->n_windows = wins.n;
    return DL_OK;
}

/* WHERE ... QUALIFY: the clauses after FROM. */
static dl_status
parse_select_tail(dl_sql_parser *p, dl_sql_select *s) {
    if (dl_sql_accept_kw(p, DL_SQL_KW_WHERE)) {
        DL_TRY(dl_sql_parse_expr(p, &s->where));
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_GROUP)) {
        dl_sql_advance(p);
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_BY));
        DL_TRY(parse_group_by(p, s));
    }
    if (dl_sql_accept_kw(p, DL_SQL_KW_HAVING)) {
        DL_TRY(dl_sql_parse_expr(p, &s->having));
    }
    for (int i = 0; i < 2; i++) {
        if (s->n_windows == 0 && dl_sql_accept_kw(p, DL_SQL_KW_WINDOW)) {
            DL_TRY(parse_windows(p, s));
        }
        if (s->qualify == NULL && dl_sql_accept_kw(p, DL_SQL_KW_QUALIFY)) {
            DL_TRY(dl_sql_parse_expr(p, &s->qualify));
        }
    }
    if ((dl_sql_is_kw(p, DL_SQL_KW_CLUSTER) || dl_sql_is_kw(p, DL_SQL_KW_DISTRIBUTE) ||
         dl_sql_is_kw(p, DL_SQL_KW_SORT)) &&
        dl_sql_peek_is_kw(p, 1, DL_SQL_KW_BY)) {
        return refuse(
            p, "CLUSTER BY, DISTRIBUTE BY and SORT BY in queries are not supported (use ORDER BY)");
    }
    return DL_OK;
}

static dl_status
parse_select(dl_sql_parser *p, dl_sql_query **out) {
    uint32_t loc = dl_sql_tok(p)->off;
    dl_sql_advance(p);
    DL_TRY(new_query(p, DL_SQL_QUERY_SELECT, loc, out));
    dl_sql_select *s;
    DL_SQL_NEW(p, s);
    (*out)->u.select = s;
    if (dl_sql_accept_kw(p, DL_SQL_KW_DISTINCT)) {
        s->quant = DL_SQL_QUANT_DISTINCT;
    } else if (dl_sql_accept_kw(p, DL_SQL_KW_ALL)) {
        s->quant = DL_SQL_QUANT_ALL;
    }
    DL_TRY(parse_select_items(p, s));
    if (dl_sql_accept_kw(p, DL_SQL_KW_FROM)) {
        DL_TRY(parse_from(p, s));
    }
    DL_TRY(parse_select_tail(p, s));
    return dl_sql_query_done(p, *out);
}

/* ---- query structure ---------------------------------------------------------------------- */

static dl_status
parse_term(dl_sql_parser *p, dl_sql_query **out) {
    const dl_sql_token *t = dl_sql_tok(p);
    if (dl_sql_is_kw(p, DL_SQL_KW_SELECT)) {
        return parse_select(p, out);
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_VALUES)) {
        dl_sql_advance(p);
        return dl_sql_parse_values(p, t->off, out);
    }
    if (t->kind == DL_SQL_TOK_LPAREN) {
        dl_sql_advance(p);
        dl_sql_paren content;
        DL_TRY(dl_sql_parse_paren_content(p, t, "parenthesised query", &content));
        if (content.query == NULL) {
            return dl_sql_fail_tok(p, t, DL_ERR_SQL_SYNTAX,
                                   "expected a query (SELECT, WITH or VALUES) inside the "
                                   "parentheses");
        }
        *out = content.query;
        return DL_OK;
    }
    return dl_sql_fail_expected(p, "a query (SELECT, WITH, VALUES or '(')");
}

static int
setop_at(const dl_sql_parser *p, dl_sql_setop *op) {
    if (dl_sql_is_kw(p, DL_SQL_KW_INTERSECT)) {
        *op = DL_SQL_SETOP_INTERSECT;
        return 2;
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_UNION)) {
        *op = DL_SQL_SETOP_UNION;
        return 1;
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_EXCEPT) || dl_sql_is_kw(p, DL_SQL_KW_MINUS)) {
        *op = DL_SQL_SETOP_EXCEPT;
        return 1;
    }
    return 0;
}

static dl_status
parse_setops(dl_sql_parser *p, dl_sql_query *first, int min_prec, dl_sql_query **out) {
    dl_sql_query *left = first;
    if (left == NULL) {
        DL_TRY(parse_term(p, &left));
        DL_SQL_HAVE_NODE(p, left);
    }
    for (;;) {
        dl_sql_setop op;
        int prec = setop_at(p, &op);
        if (prec == 0 || prec < min_prec) {
            break;
        }
        dl_sql_advance(p);
        dl_sql_query *q = NULL;
        DL_TRY(new_query(p, DL_SQL_QUERY_SETOP, left->loc, &q));
        q->u.setop.op = op;
        if (dl_sql_accept_kw(p, DL_SQL_KW_ALL)) {
            q->u.setop.quant = DL_SQL_QUANT_ALL;
        } else if (dl_sql_accept_kw(p, DL_SQL_KW_DISTINCT)) {
            q->u.setop.quant = DL_SQL_QUANT_DISTINCT;
        }
        q->u.setop.left = left;
        DL_TRY(parse_setops(p, NULL, prec + 1, &q->u.setop.right));
        DL_TRY(dl_sql_query_done(p, q));
        left = q;
    }
    *out = left;
    return DL_OK;
}

static bool
has_clauses(const dl_sql_query *q) {
    return q->order_by.n > 0 || q->limit != NULL || q->is_limit_all || q->offset != NULL;
}

static dl_status
wrap_nested(dl_sql_parser *p, dl_sql_query **q) {
    dl_sql_query *n = NULL;
    DL_TRY(new_query(p, DL_SQL_QUERY_NESTED, (*q)->loc, &n));
    n->u.nested = *q;
    *q = n;
    return DL_OK;
}

/* ORDER BY, LIMIT, OFFSET after the set operations. */
static dl_status
parse_query_clauses(dl_sql_parser *p, dl_sql_query **q) {
    bool any = dl_sql_is_kw(p, DL_SQL_KW_ORDER) || dl_sql_is_kw(p, DL_SQL_KW_LIMIT) ||
               dl_sql_is_kw(p, DL_SQL_KW_OFFSET);
    if (!any) {
        return DL_OK;
    }
    /* A parenthesised query keeps its own clauses and WITH; new clauses go around it. */
    if (has_clauses(*q) || (*q)->n_ctes > 0) {
        DL_TRY(wrap_nested(p, q));
    }
    if (dl_sql_accept_kw(p, DL_SQL_KW_ORDER)) {
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_BY));
        DL_TRY(dl_sql_parse_sort_list(p, &(*q)->order_by));
    }
    if (dl_sql_accept_kw(p, DL_SQL_KW_LIMIT)) {
        if (dl_sql_accept_kw(p, DL_SQL_KW_ALL)) {
            (*q)->is_limit_all = true;
        } else {
            DL_TRY(dl_sql_parse_expr(p, &(*q)->limit));
        }
    }
    if (dl_sql_accept_kw(p, DL_SQL_KW_OFFSET)) {
        DL_TRY(dl_sql_parse_expr(p, &(*q)->offset));
    }
    return dl_sql_query_done(p, *q);
}

static dl_status
parse_ctes(dl_sql_parser *p, dl_sql_cte **out, uint32_t *n_out) {
    dl_sql_vec ctes = {0};
    if (dl_sql_tok_is_word(p, dl_sql_tok(p), "RECURSIVE")) {
        return refuse(p, "WITH RECURSIVE is not supported");
    }
    do {
        dl_sql_cte *c;
        DL_SQL_PUSH(p, ctes, c);
        DL_TRY(dl_sql_parse_ident(p, "a name for the WITH query", &c->name));
        if (dl_sql_is(p, DL_SQL_TOK_LPAREN)) {
            DL_TRY(dl_sql_parse_ident_list(p, "a column name", &c->columns));
        }
        (void)dl_sql_accept_kw(p, DL_SQL_KW_AS);
        const dl_sql_token *open = dl_sql_tok(p);
        DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LPAREN));
        DL_TRY(dl_sql_parse_query(p, &c->query));
        DL_TRY(dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "WITH query"));
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    *out = ctes.data;
    *n_out = ctes.n;
    return DL_OK;
}

dl_status
dl_sql_parse_query_rest(dl_sql_parser *p, dl_sql_query *first, dl_sql_query **out) {
    *out = NULL;
    DL_TRY(parse_setops(p, first, 1, out));
    DL_SQL_HAVE_NODE(p, *out);
    return parse_query_clauses(p, out);
}

dl_status
dl_sql_parse_query(dl_sql_parser *p, dl_sql_query **out) {
    DL_TRY(dl_sql_enter(p));
    dl_sql_cte *ctes = NULL;
    uint32_t n_ctes = 0;
    uint32_t loc = dl_sql_tok(p)->off;
    if (dl_sql_accept_kw(p, DL_SQL_KW_WITH)) {
        DL_TRY(parse_ctes(p, &ctes, &n_ctes));
    }
    dl_sql_query *q = NULL;
    DL_TRY(dl_sql_parse_query_rest(p, NULL, &q));
    DL_SQL_HAVE_NODE(p, q);
    if (n_ctes > 0) {
        if (q->n_ctes > 0) {
            DL_TRY(wrap_nested(p, &q));
        }
        q->ctes = ctes;
        q->n_ctes = n_ctes;
        q->loc = loc;
        DL_TRY(dl_sql_query_done(p, q));
    }
    *out = q;
    dl_sql_leave(p);
    return DL_OK;
}
