/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Expressions, with Spark's precedence (SqlBaseParser.g4 booleanExpression / predicate /
 * valueExpression / primaryExpression), loosest first:
 *
 *   expr       := or
 *   or         := and { OR and }
 *   and        := not { AND not }
 *   not        := NOT not | '!' not | predicate
 *   predicate  := value [ [NOT] BETWEEN value AND value | [NOT] IN ( list | query )
 *                       | [NOT] LIKE|ILIKE pattern [ESCAPE 'c'] | [NOT] LIKE|ILIKE ANY|ALL (...)
 *                       | [NOT] RLIKE|REGEXP pattern
 *                       | IS [NOT] NULL|TRUE|FALSE|UNKNOWN | IS [NOT] DISTINCT FROM value ]
 *   value      := unary { infix unary }, by binding power (left-associative):
 *                   1  = == <> != <=> < <= > >=     5  << >> >>>
 *                   2  |                            6  + - ||
 *                   3  ^                            7  * / % DIV
 *                   4  &
 *   unary      := - unary | + unary | ~ unary | postfix
 *   postfix    := primary { [expr] | .name | .* | ::type }
 *
 * A predicate applies once to a value (Spark's `valueExpression predicate?`): `a = b IS NULL`
 * is `(a = b) IS NULL`, and `a IS NULL IS NULL` needs parentheses.
 *
 * Parentheses. After '(' comes a query, a lambda's parameters, or expressions (one is a
 * parenthesised expression, more are a struct, or the list of IN (...)). `((SELECT 1) + 1)`
 * and `((SELECT 1) UNION (SELECT 2))` are told apart without backtracking: the inner
 * parenthesised query is parsed once, and what follows it decides whether it continues a
 * query (UNION, ORDER BY, LIMIT, ')') or becomes the first operand of an expression, which
 * dl_sql_parse_expr_from then continues. As in Spark, `x IN ((SELECT 1))` is an IN subquery.
 */
#include <string.h>

#include "sql/parse/sql_parse_int.h"

static dl_status parse_or(dl_sql_parser *p, dl_sql_expr *first, dl_sql_expr **out);
static dl_status parse_value(dl_sql_parser *p, dl_sql_expr *first, int min_bp, dl_sql_expr **out);
static dl_status parse_unary(dl_sql_parser *p, dl_sql_expr **out);

/* ---- nodes -------------------------------------------------------------------------------- */

dl_status
dl_sql_new_expr(dl_sql_parser *p, dl_sql_expr_kind kind, uint32_t loc, dl_sql_expr **out) {
    dl_sql_expr *e;
    DL_SQL_NEW(p, e);
    e->kind = kind;
    e->loc = loc;
    e->height = 1;
    *out = e;
    return DL_OK;
}

dl_status
dl_sql_new_string_lit(dl_sql_parser *p, uint32_t loc, dl_str s, dl_sql_expr **out) {
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_LITERAL, loc, out));
    (*out)->u.lit.kind = DL_SQL_LIT_STRING;
    (*out)->u.lit.text = s;
    return DL_OK;
}

static dl_status
new_binary(dl_sql_parser *p, dl_sql_op op, dl_sql_expr *l, dl_sql_expr *r, dl_sql_expr **out) {
    DL_SQL_HAVE_NODE(p, l);
    DL_SQL_HAVE_NODE(p, r);
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_BINARY, l->loc, out));
    (*out)->u.binary.op = op;
    (*out)->u.binary.left = l;
    (*out)->u.binary.right = r;
    return dl_sql_expr_done(p, *out);
}

static dl_status
new_unary(dl_sql_parser *p, dl_sql_op op, uint32_t loc, dl_sql_expr *arg, dl_sql_expr **out) {
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_UNARY, loc, out));
    (*out)->u.unary.op = op;
    (*out)->u.unary.arg = arg;
    return dl_sql_expr_done(p, *out);
}

/* One expression, or a struct of several (the contents of parentheses). */
static dl_status
list_to_expr(dl_sql_parser *p, uint32_t loc, dl_sql_expr_list list, dl_sql_expr **out) {
    if (list.n == 1) {
        *out = list.items[0];
        return DL_OK;
    }
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_ROW, loc, out));
    (*out)->u.row = list;
    return dl_sql_expr_done(p, *out);
}

/* ---- lists -------------------------------------------------------------------------------- */

dl_status
dl_sql_parse_expr_as_list(dl_sql_parser *p, dl_sql_expr_list *out) {
    dl_sql_vec items = {0};
    dl_sql_expr **slot;
    DL_SQL_PUSH_PTR(p, items, slot);
    DL_TRY(dl_sql_parse_expr(p, slot));
    out->items = items.data;
    out->n = items.n;
    return DL_OK;
}

dl_status
dl_sql_parse_expr_list(dl_sql_parser *p, dl_sql_expr_list *out) {
    dl_sql_vec items = {0};
    do {
        dl_sql_expr **slot;
        DL_SQL_PUSH_PTR(p, items, slot);
        DL_TRY(dl_sql_parse_expr(p, slot));
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    out->items = items.data;
    out->n = items.n;
    return DL_OK;
}

/* SELECT, WITH or VALUES k tokens ahead; VALUES followed by '.', ',' or ')' is a name. */
static bool
is_query_start(const dl_sql_parser *p, uint32_t k) {
    if (dl_sql_peek_is_kw(p, k, DL_SQL_KW_VALUES)) {
        return !dl_sql_peek_is(p, k + 1, DL_SQL_TOK_DOT) &&
               !dl_sql_peek_is(p, k + 1, DL_SQL_TOK_COMMA) &&
               !dl_sql_peek_is(p, k + 1, DL_SQL_TOK_RPAREN);
    }
    return dl_sql_peek_is_kw(p, k, DL_SQL_KW_SELECT) || dl_sql_peek_is_kw(p, k, DL_SQL_KW_WITH);
}

/* True when a query starts k tokens ahead, possibly after '('s. */
static bool
looks_like_query_at(const dl_sql_parser *p, uint32_t k) {
    uint32_t limit = k + DL_SQL_MAX_RECURSION;
    while (dl_sql_peek_is(p, k, DL_SQL_TOK_LPAREN) && k <= limit) {
        k++;
    }
    return is_query_start(p, k);
}

bool
dl_sql_looks_like_query(const dl_sql_parser *p) {
    return looks_like_query_at(p, 0);
}

/* After the inner parenthesised query of "((query) ...": finishes the outer content. */
static dl_status
paren_after_query(dl_sql_parser *p, const dl_sql_token *open, const char *what, dl_sql_query *inner,
                  dl_sql_paren *out, dl_sql_expr **out_first) {
    *out_first = NULL;
    if (dl_sql_continues_query(p)) {
        DL_TRY(dl_sql_parse_query_rest(p, inner, &out->query));
        return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, what);
    }
    if (dl_sql_is(p, DL_SQL_TOK_RPAREN)) {
        dl_sql_advance(p);
        out->query = inner;
        return DL_OK;
    }
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_SUBQUERY, inner->loc, out_first));
    (*out_first)->u.subquery = inner;
    return dl_sql_expr_done(p, *out_first);
}

dl_status
dl_sql_parse_paren_content(dl_sql_parser *p, const dl_sql_token *open, const char *what,
                           dl_sql_paren *out) {
    memset(out, 0, sizeof(*out));
    DL_TRY(dl_sql_enter(p));
    if (is_query_start(p, 0)) {
        DL_TRY(dl_sql_parse_query(p, &out->query));
        DL_TRY(dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, what));
        dl_sql_leave(p);
        return DL_OK;
    }
    dl_sql_expr *first = NULL;
    if (dl_sql_is(p, DL_SQL_TOK_LPAREN) && dl_sql_looks_like_query(p)) {
        const dl_sql_token *inner_open = dl_sql_tok(p);
        dl_sql_advance(p);
        dl_sql_paren inner;
        DL_TRY(dl_sql_parse_paren_content(p, inner_open, "parenthesis", &inner));
        if (inner.query != NULL) {
            DL_TRY(paren_after_query(p, open, what, inner.query, out, &first));
            if (out->query != NULL) {
                dl_sql_leave(p);
                return DL_OK;
            }
        } else {
            DL_TRY(list_to_expr(p, inner_open->off, inner.list, &first));
        }
    }
    dl_sql_vec items = {0};
    dl_sql_expr **slot;
    DL_SQL_PUSH_PTR(p, items, slot);
    DL_TRY(first != NULL ? dl_sql_parse_expr_from(p, first, slot) : dl_sql_parse_expr(p, slot));
    while (dl_sql_accept(p, DL_SQL_TOK_COMMA)) {
        DL_SQL_PUSH_PTR(p, items, slot);
        DL_TRY(dl_sql_parse_expr(p, slot));
    }
    DL_TRY(dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, what));
    out->list.items = items.data;
    out->list.n = items.n;
    dl_sql_leave(p);
    return DL_OK;
}

/* ---- literals ----------------------------------------------------------------------------- */

static dl_status
parse_number(dl_sql_parser *p, dl_sql_expr **out) {
    const dl_sql_token *t = dl_sql_tok(p);

    static const struct {
        uint8_t flag;
        uint8_t len;
        dl_sql_lit_kind kind;
    } suffixes[] = {
        {DL_SQL_NUMF_L, 1, DL_SQL_LIT_BIGINT},  {DL_SQL_NUMF_S, 1, DL_SQL_LIT_SMALLINT},
        {DL_SQL_NUMF_Y, 1, DL_SQL_LIT_TINYINT}, {DL_SQL_NUMF_D, 1, DL_SQL_LIT_DOUBLE},
        {DL_SQL_NUMF_F, 1, DL_SQL_LIT_FLOAT},   {DL_SQL_NUMF_BD, 2, DL_SQL_LIT_DECIMAL},
    };

    dl_sql_lit_kind kind = (t->flags & DL_SQL_NUMF_EXP)   ? DL_SQL_LIT_DOUBLE
                           : (t->flags & DL_SQL_NUMF_DOT) ? DL_SQL_LIT_DECIMAL
                                                          : DL_SQL_LIT_INT;
    uint32_t len = t->len;
    for (size_t i = 0; i < DL_ARRAY_LEN(suffixes); i++) {
        if (t->flags & suffixes[i].flag) {
            kind = suffixes[i].kind;
            len -= suffixes[i].len;
        }
    }
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_LITERAL, t->off, out));
    (*out)->u.lit.kind = kind;
    DL_TRY(dl_sql_strdup(p, p->text + t->off, len, &(*out)->u.lit.text));
    dl_sql_advance(p);
    return DL_OK;
}

static int
hex_digit(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    c = (char)(c | 0x20);
    return (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
}

/* X'1F2E': the word X is current, a string follows. An odd count gets a leading 0 (Spark). */
static dl_status
parse_binary_lit(dl_sql_parser *p, dl_sql_expr **out) {
    uint32_t loc = dl_sql_tok(p)->off;
    dl_sql_advance(p);
    uint32_t str_off = dl_sql_tok(p)->off;
    dl_str hex;
    DL_TRY(dl_sql_parse_string(p, "a hexadecimal string", &hex));
    size_t n = (hex.len + 1) / 2;
    char *bytes = dl_sql_alloc(p, n + 1);
    if (bytes == NULL) {
        return DL_ERR_NOMEM;
    }
    size_t odd = hex.len % 2;
    for (size_t i = 0; i < hex.len; i++) {
        int h = hex_digit(hex.ptr[i]);
        if (h < 0) {
            return dl_sql_fail_off(p, str_off, DL_ERR_SQL_SYNTAX,
                                   "binary literal X'...' holds a character that is not a "
                                   "hexadecimal digit");
        }
        size_t at = (i + odd) / 2;
        bytes[at] = (char)(((i + odd) % 2 == 0) ? h << 4 : (bytes[at] | h));
    }
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_LITERAL, loc, out));
    (*out)->u.lit.kind = DL_SQL_LIT_BINARY;
    (*out)->u.lit.text = dl_str_make(bytes, n);
    return DL_OK;
}

static dl_status
parse_typed_lit(dl_sql_parser *p, dl_sql_lit_kind kind, dl_sql_expr **out) {
    uint32_t loc = dl_sql_tok(p)->off;
    dl_sql_advance(p);
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_LITERAL, loc, out));
    (*out)->u.lit.kind = kind;
    return dl_sql_parse_string(p, "a string", &(*out)->u.lit.text);
}

static dl_status
parse_simple_lit(dl_sql_parser *p, dl_sql_lit_kind kind, bool b, dl_sql_expr **out) {
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_LITERAL, dl_sql_tok(p)->off, out));
    (*out)->u.lit.kind = kind;
    (*out)->u.lit.b = b;
    dl_sql_advance(p);
    return DL_OK;
}

static dl_status
parse_param(dl_sql_parser *p, dl_sql_expr **out) {
    const dl_sql_token *t = dl_sql_tok(p);
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_PARAM, t->off, out));
    dl_sql_expr **slot;
    DL_SQL_PUSH_PTR(p, p->params, slot);
    *slot = *out;
    if (t->kind == DL_SQL_TOK_QUESTION) {
        (*out)->u.param.index = ++p->n_params;
        dl_sql_advance(p);
        return DL_OK;
    }
    const dl_sql_token *name = dl_sql_peek(p, 1);
    if (name->off != t->off + 1 || !dl_sql_is_ident(p, name, true, false) ||
        name->kind != DL_SQL_TOK_WORD) {
        return dl_sql_fail_expected(p, "an expression");
    }
    dl_sql_advance(p);
    dl_sql_ident id;
    DL_TRY(dl_sql_parse_ident_any(p, "a parameter name", &id));
    (*out)->u.param.name = id.name;
    return DL_OK;
}

/* ---- calls -------------------------------------------------------------------------------- */

/* One argument: an expression or name => value. */
dl_status
dl_sql_parse_arg(dl_sql_parser *p, dl_sql_expr **out) {
    if (dl_sql_is_ident(p, dl_sql_tok(p), true, false) &&
        dl_sql_peek_is(p, 1, DL_SQL_TOK_FATARROW)) {
        DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_NAMED_ARG, dl_sql_tok(p)->off, out));
        DL_TRY(dl_sql_parse_ident_any(p, "an argument name", &(*out)->u.named_arg.name));
        dl_sql_advance(p);
        DL_TRY(dl_sql_parse_expr(p, &(*out)->u.named_arg.value));
        return dl_sql_expr_done(p, *out);
    }
    return dl_sql_parse_expr(p, out);
}

static dl_status
parse_args(dl_sql_parser *p, dl_sql_expr *f) {
    if (dl_sql_is(p, DL_SQL_TOK_RPAREN)) {
        return DL_OK;
    }
    if (dl_sql_is(p, DL_SQL_TOK_STAR) && dl_sql_peek_is(p, 1, DL_SQL_TOK_RPAREN)) {
        f->u.func.is_star = true;
        dl_sql_advance(p);
        return DL_OK;
    }
    if (dl_sql_accept_kw(p, DL_SQL_KW_DISTINCT)) {
        f->u.func.quant = DL_SQL_QUANT_DISTINCT;
    } else if (dl_sql_is_kw(p, DL_SQL_KW_ALL) && !dl_sql_peek_is(p, 1, DL_SQL_TOK_RPAREN)) {
        dl_sql_advance(p);
        f->u.func.quant = DL_SQL_QUANT_ALL;
    }
    dl_sql_vec args = {0};
    do {
        dl_sql_expr **slot;
        DL_SQL_PUSH_PTR(p, args, slot);
        DL_TRY(dl_sql_parse_arg(p, slot));
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    f->u.func.args.items = args.data;
    f->u.func.args.n = args.n;
    return DL_OK;
}

/* What may follow a call's ')': WITHIN GROUP, FILTER, IGNORE|RESPECT NULLS, OVER. */
static dl_status
parse_call_clauses(dl_sql_parser *p, dl_sql_expr *f) {
    if (dl_sql_is_kw(p, DL_SQL_KW_WITHIN) && dl_sql_peek_is_kw(p, 1, DL_SQL_KW_GROUP)) {
        dl_sql_advance(p);
        dl_sql_advance(p);
        const dl_sql_token *open = dl_sql_tok(p);
        DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LPAREN));
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_ORDER));
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_BY));
        DL_TRY(dl_sql_parse_sort_list(p, &f->u.func.within_group));
        DL_TRY(dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "WITHIN GROUP clause"));
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_FILTER) && dl_sql_peek_is(p, 1, DL_SQL_TOK_LPAREN)) {
        dl_sql_advance(p);
        const dl_sql_token *open = dl_sql_tok(p);
        dl_sql_advance(p);
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_WHERE));
        DL_TRY(dl_sql_parse_expr(p, &f->u.func.filter));
        DL_TRY(dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "FILTER clause"));
    }
    if ((dl_sql_is_kw(p, DL_SQL_KW_IGNORE) || dl_sql_is_kw(p, DL_SQL_KW_RESPECT)) &&
        dl_sql_peek_is_kw(p, 1, DL_SQL_KW_NULLS)) {
        f->u.func.nulls =
            dl_sql_is_kw(p, DL_SQL_KW_IGNORE) ? DL_SQL_NULLS_IGNORE : DL_SQL_NULLS_RESPECT;
        dl_sql_advance(p);
        dl_sql_advance(p);
    }
    if (dl_sql_accept_kw(p, DL_SQL_KW_OVER)) {
        DL_TRY(dl_sql_parse_window(p, true, &f->u.func.over));
    }
    return DL_OK;
}

/* name '(' args ')' clauses: the current token is '('. */
static dl_status
parse_call(dl_sql_parser *p, uint32_t loc, dl_sql_name name, dl_sql_expr **out) {
    const dl_sql_token *open = dl_sql_tok(p);
    dl_sql_advance(p);
    dl_sql_expr *f = NULL;
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_FUNC, loc, &f));
    f->u.func.name = name;
    DL_TRY(parse_args(p, f));
    DL_TRY(dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "argument list"));
    DL_TRY(parse_call_clauses(p, f));
    *out = f;
    return DL_OK;
}

/* A one-part name made from a word (for keywords used as function names). */
static dl_status
word_name(dl_sql_parser *p, const char *spelling, uint32_t loc, dl_sql_name *out) {
    DL_SQL_NEW(p, out->parts);
    out->n_parts = 1;
    out->parts[0].loc = loc;
    return dl_sql_strdup(p, spelling, strlen(spelling), &out->parts[0].name);
}

/* A call of a plain function with args already parsed (the desugared special forms). */
static dl_status
make_call(dl_sql_parser *p, const char *name, uint32_t loc, dl_sql_expr_list args,
          dl_sql_expr **out) {
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_FUNC, loc, out));
    DL_TRY(word_name(p, name, loc, &(*out)->u.func.name));
    (*out)->u.func.args = args;
    return DL_OK;
}

static dl_status
push_arg(dl_sql_parser *p, dl_sql_vec *args, dl_sql_expr *e) {
    dl_sql_expr **slot;
    DL_SQL_PUSH_PTR(p, *args, slot);
    *slot = e;
    return DL_OK;
}

/* ---- special call syntaxes ---------------------------------------------------------------- */

/* EXTRACT(field FROM source) is date_part('field', source). */
static dl_status
parse_extract(dl_sql_parser *p, dl_sql_expr **out) {
    uint32_t loc = dl_sql_tok(p)->off;
    dl_sql_advance(p);
    const dl_sql_token *open = dl_sql_tok(p);
    dl_sql_advance(p);
    dl_sql_ident field;
    DL_TRY(dl_sql_parse_ident_any(p, "a field name", &field));
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_FROM));
    dl_sql_vec args = {0};
    dl_sql_expr *e = NULL;
    DL_TRY(dl_sql_new_string_lit(p, field.loc, field.name, &e));
    DL_TRY(push_arg(p, &args, e));
    DL_TRY(dl_sql_parse_expr(p, &e));
    DL_TRY(push_arg(p, &args, e));
    DL_TRY(dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "argument list"));
    dl_sql_expr_list list = {args.data, args.n};
    return make_call(p, "date_part", loc, list, out);
}

/* The rest of a plain call whose first argument is parsed: [, arg ...] ')' clauses. */
static dl_status
finish_plain_call(dl_sql_parser *p, uint32_t loc, dl_sql_name name, const dl_sql_token *open,
                  dl_sql_expr *first, dl_sql_expr **out) {
    dl_sql_vec args = {0};
    DL_TRY(push_arg(p, &args, first));
    while (dl_sql_accept(p, DL_SQL_TOK_COMMA)) {
        dl_sql_expr *e = NULL;
        DL_TRY(dl_sql_parse_arg(p, &e));
        DL_TRY(push_arg(p, &args, e));
    }
    DL_TRY(dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "argument list"));
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_FUNC, loc, out));
    (*out)->u.func.name = name;
    (*out)->u.func.args.items = args.data;
    (*out)->u.func.args.n = args.n;
    return parse_call_clauses(p, *out);
}

/* True when the call's first argument needs the general path (named, DISTINCT, *, none). */
static bool
is_general_call(const dl_sql_parser *p) {
    return dl_sql_peek_is(p, 1, DL_SQL_TOK_RPAREN) || dl_sql_peek_is(p, 1, DL_SQL_TOK_STAR) ||
           dl_sql_peek_is_kw(p, 1, DL_SQL_KW_DISTINCT) || dl_sql_peek_is_kw(p, 1, DL_SQL_KW_ALL) ||
           dl_sql_peek_is(p, 2, DL_SQL_TOK_FATARROW);
}

/* TRIM([BOTH|LEADING|TRAILING] [chars] FROM s), or a plain trim(...) call. */
static dl_status
parse_trim(dl_sql_parser *p, dl_sql_expr **out) {
    uint32_t loc = dl_sql_tok(p)->off;
    dl_sql_name name;
    DL_TRY(dl_sql_parse_name(p, "a function name", &name));
    const dl_sql_token *open = dl_sql_tok(p);
    dl_sql_trim_spec spec = dl_sql_peek_is_kw(p, 1, DL_SQL_KW_BOTH)       ? DL_SQL_TRIM_BOTH
                            : dl_sql_peek_is_kw(p, 1, DL_SQL_KW_LEADING)  ? DL_SQL_TRIM_LEADING
                            : dl_sql_peek_is_kw(p, 1, DL_SQL_KW_TRAILING) ? DL_SQL_TRIM_TRAILING
                                                                          : DL_SQL_TRIM_DEFAULT;
    if (spec == DL_SQL_TRIM_DEFAULT && is_general_call(p)) {
        return parse_call(p, loc, name, out);
    }
    dl_sql_advance(p);
    dl_sql_expr *chars = NULL;
    if (spec != DL_SQL_TRIM_DEFAULT) {
        dl_sql_advance(p);
    }
    if (!dl_sql_is_kw(p, DL_SQL_KW_FROM) || spec == DL_SQL_TRIM_DEFAULT) {
        DL_TRY(dl_sql_parse_expr(p, &chars));
    }
    if (spec == DL_SQL_TRIM_DEFAULT && !dl_sql_is_kw(p, DL_SQL_KW_FROM)) {
        return finish_plain_call(p, loc, name, open, chars, out);
    }
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_FROM));
    dl_sql_vec args = {0};
    dl_sql_expr *src = NULL;
    DL_TRY(dl_sql_parse_expr(p, &src));
    DL_TRY(push_arg(p, &args, src));
    if (chars != NULL) {
        DL_TRY(push_arg(p, &args, chars));
    }
    DL_TRY(dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "argument list"));
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_FUNC, loc, out));
    (*out)->u.func.name = name;
    (*out)->u.func.syntax = DL_SQL_FUNC_TRIM;
    (*out)->u.func.trim_spec = spec;
    (*out)->u.func.args.items = args.data;
    (*out)->u.func.args.n = args.n;
    return DL_OK;
}

/*
 * Calls whose first argument may be followed by a keyword instead of ',':
 *   POSITION(a IN b) -> position(a, b)        (the first argument is a value expression)
 *   SUBSTRING(s FROM i [FOR n]) -> substring(s, i [, n])   (also SUBSTR)
 *   OVERLAY(s PLACING r FROM i [FOR n]) -> overlay(s, r, i [, n])
 * Written with commas they are plain calls.
 */
static dl_status
parse_keyword_args_call(dl_sql_parser *p, dl_sql_expr **out) {
    uint32_t loc = dl_sql_tok(p)->off;
    dl_sql_kw kw = (dl_sql_kw)dl_sql_tok(p)->kw;
    dl_sql_name name;
    DL_TRY(dl_sql_parse_name(p, "a function name", &name));
    const dl_sql_token *open = dl_sql_tok(p);
    if (is_general_call(p)) {
        return parse_call(p, loc, name, out);
    }
    dl_sql_advance(p);
    dl_sql_expr *first;
    dl_sql_kw sep = kw == DL_SQL_KW_POSITION  ? DL_SQL_KW_IN
                    : kw == DL_SQL_KW_OVERLAY ? DL_SQL_KW_PLACING
                                              : DL_SQL_KW_FROM;
    if (kw == DL_SQL_KW_POSITION) {
        /* a value expression, so that IN is not taken for the IN predicate */
        DL_TRY(dl_sql_parse_value_expr(p, &first));
        if (!dl_sql_is_kw(p, DL_SQL_KW_IN)) {
            DL_TRY(dl_sql_parse_expr_from(p, first, &first));
        }
    } else {
        DL_TRY(dl_sql_parse_expr(p, &first));
    }
    if (!dl_sql_accept_kw(p, sep)) {
        return finish_plain_call(p, loc, name, open, first, out);
    }
    dl_sql_vec args = {0};
    DL_TRY(push_arg(p, &args, first));
    for (;;) {
        dl_sql_expr *e = NULL;
        DL_TRY(dl_sql_parse_expr(p, &e));
        DL_TRY(push_arg(p, &args, e));
        bool more = (args.n == 2 && kw == DL_SQL_KW_OVERLAY && dl_sql_is_kw(p, DL_SQL_KW_FROM)) ||
                    (kw != DL_SQL_KW_POSITION && args.n == (kw == DL_SQL_KW_OVERLAY ? 3u : 2u) &&
                     dl_sql_is_kw(p, DL_SQL_KW_FOR));
        if (!more) {
            break;
        }
        dl_sql_advance(p);
    }
    DL_TRY(dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "argument list"));
    dl_sql_expr_list list = {args.data, args.n};
    return make_call(p,
                     kw == DL_SQL_KW_POSITION    ? "position"
                     : kw == DL_SQL_KW_OVERLAY   ? "overlay"
                     : kw == DL_SQL_KW_SUBSTRING ? "substring"
                                                 : "substr",
                     loc, list, out);
}

/* ---- CASE, CAST, EXISTS ------------------------------------------------------------------- */

static dl_status
parse_case(dl_sql_parser *p, dl_sql_expr **out) {
    const dl_sql_token *start = dl_sql_tok(p);
    dl_sql_advance(p);
    dl_sql_expr *e = NULL;
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_CASE, start->off, &e));
    if (!dl_sql_is_kw(p, DL_SQL_KW_WHEN)) {
        DL_TRY(dl_sql_parse_expr(p, &e->u.case_.operand));
    }
    dl_sql_vec whens = {0};
    if (!dl_sql_is_kw(p, DL_SQL_KW_WHEN)) {
        return dl_sql_fail_expected(p, "WHEN");
    }
    while (dl_sql_accept_kw(p, DL_SQL_KW_WHEN)) {
        dl_sql_case_when *w;
        DL_SQL_PUSH(p, whens, w);
        DL_TRY(dl_sql_parse_expr(p, &w->cond));
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_THEN));
        DL_TRY(dl_sql_parse_expr(p, &w->result));
    }
    if (dl_sql_accept_kw(p, DL_SQL_KW_ELSE)) {
        DL_TRY(dl_sql_parse_expr(p, &e->u.case_.else_result));
    }
    if (!dl_sql_accept_kw(p, DL_SQL_KW_END)) {
        char found[80];
        dl_sql_describe_tok(p, dl_sql_tok(p), found, sizeof(found));
        return dl_sql_fail(p,
                           "expected WHEN, ELSE or END to continue the CASE opened at line "
                           "%u, column %u, found %s",
                           start->line, start->col, found);
    }
    e->u.case_.whens = whens.data;
    e->u.case_.n_whens = whens.n;
    *out = e;
    return DL_OK;
}

static dl_status
parse_cast(dl_sql_parser *p, bool is_try, dl_sql_expr **out) {
    uint32_t loc = dl_sql_tok(p)->off;
    dl_sql_advance(p);
    const dl_sql_token *open = dl_sql_tok(p);
    DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LPAREN));
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_CAST, loc, out));
    (*out)->u.cast.is_try = is_try;
    DL_TRY(dl_sql_parse_expr(p, &(*out)->u.cast.arg));
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_AS));
    DL_TRY(dl_sql_parse_type(p, &(*out)->u.cast.type));
    return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, is_try ? "TRY_CAST" : "CAST");
}

static dl_status
parse_exists(dl_sql_parser *p, dl_sql_expr **out) {
    uint32_t loc = dl_sql_tok(p)->off;
    dl_sql_advance(p);
    const dl_sql_token *open = dl_sql_tok(p);
    DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LPAREN));
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_EXISTS, loc, out));
    DL_TRY(dl_sql_parse_query(p, &(*out)->u.subquery));
    return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "EXISTS subquery");
}

/* ---- names, stars, lambdas ---------------------------------------------------------------- */

static dl_status
parse_star(dl_sql_parser *p, uint32_t loc, dl_sql_name qualifier, dl_sql_expr **out) {
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_STAR, loc, out));
    (*out)->u.star.qualifier = qualifier;
    dl_sql_advance(p); /* the '*' */
    if (dl_sql_is_kw(p, DL_SQL_KW_EXCEPT) && dl_sql_peek_is(p, 1, DL_SQL_TOK_LPAREN) &&
        !is_query_start(p, 2) && !dl_sql_peek_is(p, 2, DL_SQL_TOK_LPAREN)) {
        dl_sql_advance(p);
        DL_TRY(dl_sql_parse_name_list(p, "a column name", true, &(*out)->u.star.except));
    }
    return DL_OK;
}

/* x -> body, the current token being x. */
static dl_status
parse_lambda1(dl_sql_parser *p, dl_sql_expr **out) {
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_LAMBDA, dl_sql_tok(p)->off, out));
    DL_SQL_NEW(p, (*out)->u.lambda.params.items);
    (*out)->u.lambda.params.n = 1;
    DL_TRY(dl_sql_parse_ident_any(p, "a parameter", (*out)->u.lambda.params.items));
    dl_sql_advance(p); /* -> */
    return dl_sql_parse_expr(p, &(*out)->u.lambda.body);
}

/* True when the tokens are '(' ident {',' ident} ')' '->'. */
static bool
is_lambda_params(const dl_sql_parser *p) {
    uint32_t k = 1;
    for (;;) {
        if (!dl_sql_is_ident(p, dl_sql_peek(p, k), true, false)) {
            return false;
        }
        k++;
        if (dl_sql_peek_is(p, k, DL_SQL_TOK_RPAREN)) {
            return dl_sql_peek_is(p, k + 1, DL_SQL_TOK_ARROW);
        }
        if (!dl_sql_peek_is(p, k, DL_SQL_TOK_COMMA)) {
            return false;
        }
        k++;
    }
}

static dl_status
parse_lambda_n(dl_sql_parser *p, dl_sql_expr **out) {
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_LAMBDA, dl_sql_tok(p)->off, out));
    dl_sql_advance(p);
    dl_sql_vec params = {0};
    do {
        dl_sql_ident *id;
        DL_SQL_PUSH(p, params, id);
        DL_TRY(dl_sql_parse_ident_any(p, "a parameter", id));
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    dl_sql_advance(p); /* ) */
    dl_sql_advance(p); /* -> */
    (*out)->u.lambda.params.items = params.data;
    (*out)->u.lambda.params.n = params.n;
    return dl_sql_parse_expr(p, &(*out)->u.lambda.body);
}

/* A name: a column, a call (name followed by '('), or a qualified star. */
static dl_status
parse_name_primary(dl_sql_parser *p, dl_sql_expr **out) {
    uint32_t loc = dl_sql_tok(p)->off;
    dl_sql_name name;
    if (dl_sql_is_ident(p, dl_sql_tok(p), false, false)) {
        DL_TRY(dl_sql_parse_name(p, "a name", &name));
    } else {
        /* A reserved word as a function name: left(s, 2), filter(a, x -> x > 0). */
        dl_sql_ident *id;
        DL_SQL_NEW(p, id);
        DL_TRY(dl_sql_parse_ident_any(p, "a function name", id));
        name.parts = id;
        name.n_parts = 1;
    }
    if (dl_sql_is(p, DL_SQL_TOK_LPAREN)) {
        return parse_call(p, loc, name, out);
    }
    if (dl_sql_is(p, DL_SQL_TOK_DOT) && dl_sql_peek_is(p, 1, DL_SQL_TOK_STAR)) {
        dl_sql_advance(p);
        return parse_star(p, loc, name, out);
    }
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_COLUMN, loc, out));
    (*out)->u.column = name;
    return DL_OK;
}

/* ---- primaries ---------------------------------------------------------------------------- */

/* Keyword-led primaries; *handled false when the word is an ordinary name here. */
static dl_status
parse_keyword_primary(dl_sql_parser *p, bool *handled, dl_sql_expr **out) {
    const dl_sql_token *t = dl_sql_tok(p);
    const dl_sql_token *t1 = dl_sql_peek(p, 1);
    bool call = t1->kind == DL_SQL_TOK_LPAREN;
    bool str = t1->kind == DL_SQL_TOK_STRING || t1->kind == DL_SQL_TOK_RSTRING;
    bool num = t1->kind == DL_SQL_TOK_NUMBER;
    bool sign = t1->kind == DL_SQL_TOK_MINUS || t1->kind == DL_SQL_TOK_PLUS;
    *handled = true;
    switch ((dl_sql_kw)t->kw) {
    case DL_SQL_KW_NULL:
        return parse_simple_lit(p, DL_SQL_LIT_NULL, false, out);
    case DL_SQL_KW_TRUE:
    case DL_SQL_KW_FALSE:
        return parse_simple_lit(p, DL_SQL_LIT_BOOL, t->kw == DL_SQL_KW_TRUE, out);
    case DL_SQL_KW_CASE:
        return parse_case(p, out);
    case DL_SQL_KW_CAST:
        return parse_cast(p, false, out);
    default:
        break;
    }
    switch ((dl_sql_kw)t->kw) {
    case DL_SQL_KW_TRY_CAST:
        if (call) {
            return parse_cast(p, true, out);
        }
        break;
    case DL_SQL_KW_EXISTS: /* EXISTS (query); exists(array, lambda) is a call */
        if (call && looks_like_query_at(p, 2)) {
            return parse_exists(p, out);
        }
        break;
    case DL_SQL_KW_INTERVAL:
        if (str || num ||
            (sign && (dl_sql_peek_is(p, 2, DL_SQL_TOK_NUMBER) ||
                      dl_sql_peek_is(p, 2, DL_SQL_TOK_STRING)))) {
            dl_sql_advance(p);
            return dl_sql_parse_interval(p, t->off, out);
        }
        break;
    case DL_SQL_KW_DATE:
    case DL_SQL_KW_TIMESTAMP:
    case DL_SQL_KW_TIMESTAMP_NTZ:
    case DL_SQL_KW_TIMESTAMP_LTZ:
        if (str) {
            return parse_typed_lit(p,
                                   t->kw == DL_SQL_KW_DATE            ? DL_SQL_LIT_DATE
                                   : t->kw == DL_SQL_KW_TIMESTAMP     ? DL_SQL_LIT_TIMESTAMP
                                   : t->kw == DL_SQL_KW_TIMESTAMP_NTZ ? DL_SQL_LIT_TIMESTAMP_NTZ
                                                                      : DL_SQL_LIT_TIMESTAMP_LTZ,
                                   out);
        }
        break;
    case DL_SQL_KW_CURRENT_DATE:
    case DL_SQL_KW_CURRENT_TIMESTAMP:
    case DL_SQL_KW_CURRENT_USER:
        if (!call) {
            DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_FUNC, t->off, out));
            (*out)->u.func.syntax = DL_SQL_FUNC_NO_PARENS;
            DL_TRY(
                word_name(p, dl_sql_keyword_name((dl_sql_kw)t->kw), t->off, &(*out)->u.func.name));
            dl_sql_advance(p);
            return DL_OK;
        }
        break;
    case DL_SQL_KW_EXTRACT:
        if (call && dl_sql_is_ident(p, dl_sql_peek(p, 2), true, false) &&
            dl_sql_peek_is_kw(p, 3, DL_SQL_KW_FROM)) {
            return parse_extract(p, out);
        }
        break;
    case DL_SQL_KW_TRIM:
        if (call) {
            return parse_trim(p, out);
        }
        break;
    case DL_SQL_KW_POSITION:
    case DL_SQL_KW_SUBSTRING:
    case DL_SQL_KW_SUBSTR:
    case DL_SQL_KW_OVERLAY:
        if (call) {
            return parse_keyword_args_call(p, out);
        }
        break;
    default:
        break;
    }
    *handled = false;
    return DL_OK;
}

static dl_status
parse_word_primary(dl_sql_parser *p, dl_sql_expr **out) {
    const dl_sql_token *t = dl_sql_tok(p);
    const dl_sql_token *t1 = dl_sql_peek(p, 1);
    if (t->kind == DL_SQL_TOK_WORD && t->kw != DL_SQL_NO_KW) {
        bool handled;
        DL_TRY(parse_keyword_primary(p, &handled, out));
        if (handled) {
            return DL_OK;
        }
    }
    if (t->kind == DL_SQL_TOK_WORD && t->len == 1 && (p->text[t->off] | 0x20) == 'x' &&
        (t1->kind == DL_SQL_TOK_STRING || t1->kind == DL_SQL_TOK_RSTRING)) {
        return parse_binary_lit(p, out);
    }
    if (t1->kind == DL_SQL_TOK_ARROW && dl_sql_is_ident(p, t, true, false)) {
        return parse_lambda1(p, out);
    }
    if (dl_sql_is_ident(p, t, false, false) ||
        (t->kind == DL_SQL_TOK_WORD && t1->kind == DL_SQL_TOK_LPAREN)) {
        return parse_name_primary(p, out);
    }
    return dl_sql_fail_expected(p, "an expression");
}

static dl_status
parse_paren_primary(dl_sql_parser *p, dl_sql_expr **out) {
    if (is_lambda_params(p)) {
        return parse_lambda_n(p, out);
    }
    const dl_sql_token *open = dl_sql_tok(p);
    dl_sql_advance(p);
    dl_sql_paren content;
    DL_TRY(dl_sql_parse_paren_content(p, open, "parenthesis", &content));
    if (content.query != NULL) {
        DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_SUBQUERY, open->off, out));
        (*out)->u.subquery = content.query;
        return DL_OK;
    }
    return list_to_expr(p, open->off, content.list, out);
}

/* [a, b]: DuckDB's list literal, for read_parquet(['a.parquet', 'b.parquet']); array(a, b). */
static dl_status
parse_bracket_list(dl_sql_parser *p, dl_sql_expr **out) {
    const dl_sql_token *open = dl_sql_tok(p);
    dl_sql_advance(p);
    dl_sql_expr_list items = {0};
    if (!dl_sql_is(p, DL_SQL_TOK_RBRACKET)) {
        DL_TRY(dl_sql_parse_expr_list(p, &items));
    }
    DL_TRY(dl_sql_expect_close(p, DL_SQL_TOK_RBRACKET, open, "list"));
    return make_call(p, "array", open->off, items, out);
}

static dl_status
parse_primary(dl_sql_parser *p, dl_sql_expr **out) {
    const dl_sql_token *t = dl_sql_tok(p);
    dl_sql_name none = {NULL, 0};
    switch ((dl_sql_tok_kind)t->kind) {
    case DL_SQL_TOK_NUMBER:
        DL_TRY(parse_number(p, out));
        break;
    case DL_SQL_TOK_STRING:
    case DL_SQL_TOK_RSTRING:
        DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_LITERAL, t->off, out));
        (*out)->u.lit.kind = DL_SQL_LIT_STRING;
        DL_TRY(dl_sql_parse_string(p, "a string", &(*out)->u.lit.text));
        break;
    case DL_SQL_TOK_QUESTION:
    case DL_SQL_TOK_COLON:
        DL_TRY(parse_param(p, out));
        break;
    case DL_SQL_TOK_LPAREN:
        DL_TRY(parse_paren_primary(p, out));
        break;
    case DL_SQL_TOK_STAR:
        DL_TRY(parse_star(p, t->off, none, out));
        break;
    case DL_SQL_TOK_LBRACKET:
        DL_TRY(parse_bracket_list(p, out));
        break;
    case DL_SQL_TOK_WORD:
    case DL_SQL_TOK_QIDENT:
        DL_TRY(parse_word_primary(p, out));
        break;
    default:
        return dl_sql_fail_expected(p, "an expression");
    }
    return dl_sql_expr_done(p, *out);
}

/* ---- postfix and unary -------------------------------------------------------------------- */

/* base.a.b... where base is a plain name: one longer name (no nesting). */
static dl_status
extend_name(dl_sql_parser *p, dl_sql_expr *base, dl_sql_expr **out) {
    dl_sql_vec parts = {0};
    for (uint32_t i = 0; i < base->u.column.n_parts; i++) {
        dl_sql_ident *id;
        DL_SQL_PUSH(p, parts, id);
        *id = base->u.column.parts[i];
    }
    while (dl_sql_is(p, DL_SQL_TOK_DOT) && dl_sql_is_ident(p, dl_sql_peek(p, 1), true, false)) {
        dl_sql_advance(p);
        dl_sql_ident *id;
        DL_SQL_PUSH(p, parts, id);
        DL_TRY(dl_sql_parse_ident_any(p, "a field name", id));
    }
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_COLUMN, base->loc, out));
    (*out)->u.column.parts = parts.data;
    (*out)->u.column.n_parts = parts.n;
    return DL_OK;
}

static dl_status
parse_postfix_one(dl_sql_parser *p, dl_sql_expr *base, dl_sql_expr **out) {
    const dl_sql_token *t = dl_sql_tok(p);
    if (t->kind == DL_SQL_TOK_LBRACKET) {
        dl_sql_advance(p);
        DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_SUBSCRIPT, base->loc, out));
        (*out)->u.subscript.base = base;
        DL_TRY(dl_sql_parse_expr(p, &(*out)->u.subscript.index));
        return dl_sql_expect_close(p, DL_SQL_TOK_RBRACKET, t, "subscript");
    }
    if (t->kind == DL_SQL_TOK_DCOLON) {
        dl_sql_advance(p);
        DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_CAST, base->loc, out));
        (*out)->u.cast.arg = base;
        (*out)->u.cast.is_colon_form = true;
        return dl_sql_parse_type(p, &(*out)->u.cast.type);
    }
    /* '.' */
    if (dl_sql_peek_is(p, 1, DL_SQL_TOK_STAR)) {
        if (base->kind != DL_SQL_EXPR_COLUMN) {
            return dl_sql_fail_tok(p, dl_sql_peek(p, 1), DL_ERR_SQL_SYNTAX,
                                   "'.*' must follow a table or struct name");
        }
        dl_sql_advance(p);
        return parse_star(p, base->loc, base->u.column, out);
    }
    if (base->kind == DL_SQL_EXPR_COLUMN) {
        return extend_name(p, base, out);
    }
    dl_sql_advance(p);
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_FIELD, base->loc, out));
    (*out)->u.field.base = base;
    return dl_sql_parse_ident_any(p, "a field name", &(*out)->u.field.name);
}

static dl_status
parse_postfix(dl_sql_parser *p, dl_sql_expr *base, dl_sql_expr **out) {
    DL_SQL_HAVE_NODE(p, base);
    for (;;) {
        bool dot =
            dl_sql_is(p, DL_SQL_TOK_DOT) && (dl_sql_is_ident(p, dl_sql_peek(p, 1), true, false) ||
                                             dl_sql_peek_is(p, 1, DL_SQL_TOK_STAR));
        if (!dot && !dl_sql_is(p, DL_SQL_TOK_LBRACKET) && !dl_sql_is(p, DL_SQL_TOK_DCOLON)) {
            break;
        }
        if (base->kind == DL_SQL_EXPR_STAR) {
            break;
        }
        DL_TRY(parse_postfix_one(p, base, &base));
        DL_TRY(dl_sql_expr_done(p, base));
    }
    *out = base;
    return DL_OK;
}

static dl_status
parse_unary(dl_sql_parser *p, dl_sql_expr **out) {
    const dl_sql_token *t = dl_sql_tok(p);
    dl_sql_op op = t->kind == DL_SQL_TOK_MINUS   ? DL_SQL_OP_NEG
                   : t->kind == DL_SQL_TOK_PLUS  ? DL_SQL_OP_PLUS
                   : t->kind == DL_SQL_TOK_TILDE ? DL_SQL_OP_BITNOT
                                                 : (dl_sql_op)0;
    if (op == 0) {
        dl_sql_expr *prim = NULL;
        DL_TRY(parse_primary(p, &prim));
        return parse_postfix(p, prim, out);
    }
    DL_TRY(dl_sql_enter(p));
    dl_sql_advance(p);
    dl_sql_expr *arg = NULL;
    DL_TRY(parse_unary(p, &arg));
    DL_TRY(new_unary(p, op, t->off, arg, out));
    dl_sql_leave(p);
    return DL_OK;
}

/* ---- binary operators --------------------------------------------------------------------- */

/* The infix operator at the current token and its binding power, or 0. */
static int
infix_power(const dl_sql_parser *p, dl_sql_op *op) {
    static const struct {
        uint8_t tok;
        uint8_t power;
        uint8_t op;
    } table[] = {
        {DL_SQL_TOK_EQ, 1, DL_SQL_OP_EQ},        {DL_SQL_TOK_EQEQ, 1, DL_SQL_OP_EQ},
        {DL_SQL_TOK_NE, 1, DL_SQL_OP_NE},        {DL_SQL_TOK_BANGEQ, 1, DL_SQL_OP_NE},
        {DL_SQL_TOK_NSEQ, 1, DL_SQL_OP_NSEQ},    {DL_SQL_TOK_LT, 1, DL_SQL_OP_LT},
        {DL_SQL_TOK_LE, 1, DL_SQL_OP_LE},        {DL_SQL_TOK_GT, 1, DL_SQL_OP_GT},
        {DL_SQL_TOK_GE, 1, DL_SQL_OP_GE},        {DL_SQL_TOK_PIPE, 2, DL_SQL_OP_BITOR},
        {DL_SQL_TOK_CARET, 3, DL_SQL_OP_BITXOR}, {DL_SQL_TOK_AMP, 4, DL_SQL_OP_BITAND},
        {DL_SQL_TOK_SHL, 5, DL_SQL_OP_SHL},      {DL_SQL_TOK_SHR, 5, DL_SQL_OP_SHR},
        {DL_SQL_TOK_SHRU, 5, DL_SQL_OP_SHRU},    {DL_SQL_TOK_PLUS, 6, DL_SQL_OP_ADD},
        {DL_SQL_TOK_MINUS, 6, DL_SQL_OP_SUB},    {DL_SQL_TOK_CONCAT, 6, DL_SQL_OP_CONCAT},
        {DL_SQL_TOK_STAR, 7, DL_SQL_OP_MUL},     {DL_SQL_TOK_SLASH, 7, DL_SQL_OP_DIV},
        {DL_SQL_TOK_PERCENT, 7, DL_SQL_OP_MOD},
    };

    const dl_sql_token *t = dl_sql_tok(p);
    if (t->kind == DL_SQL_TOK_WORD && t->kw == DL_SQL_KW_DIV) {
        *op = DL_SQL_OP_INTDIV;
        return 7;
    }
    for (size_t i = 0; i < DL_ARRAY_LEN(table); i++) {
        if (table[i].tok == t->kind) {
            *op = (dl_sql_op)table[i].op;
            return table[i].power;
        }
    }
    return 0;
}

static dl_status
parse_value(dl_sql_parser *p, dl_sql_expr *first, int min_bp, dl_sql_expr **out) {
    dl_sql_expr *lhs = NULL;
    if (first != NULL) {
        DL_TRY(parse_postfix(p, first, &lhs));
    } else {
        DL_TRY(parse_unary(p, &lhs));
    }
    DL_SQL_HAVE_NODE(p, lhs);
    for (;;) {
        dl_sql_op op;
        int bp = infix_power(p, &op);
        if (bp == 0 || bp < min_bp) {
            break;
        }
        dl_sql_advance(p);
        dl_sql_expr *rhs = NULL;
        DL_TRY(parse_value(p, NULL, bp + 1, &rhs));
        DL_TRY(new_binary(p, op, lhs, rhs, &lhs));
    }
    *out = lhs;
    return DL_OK;
}

bool
dl_sql_continues_expr(const dl_sql_parser *p) {
    static const dl_sql_kw words[] = {
        DL_SQL_KW_AND,     DL_SQL_KW_OR,   DL_SQL_KW_IS,    DL_SQL_KW_NOT,   DL_SQL_KW_IN,
        DL_SQL_KW_BETWEEN, DL_SQL_KW_LIKE, DL_SQL_KW_ILIKE, DL_SQL_KW_RLIKE, DL_SQL_KW_REGEXP};
    dl_sql_op op;
    if (infix_power(p, &op) > 0 || dl_sql_is(p, DL_SQL_TOK_LBRACKET) ||
        dl_sql_is(p, DL_SQL_TOK_DOT) || dl_sql_is(p, DL_SQL_TOK_DCOLON)) {
        return true;
    }
    for (size_t i = 0; i < DL_ARRAY_LEN(words); i++) {
        if (dl_sql_is_kw(p, words[i])) {
            return true;
        }
    }
    return false;
}

dl_status
dl_sql_parse_value_expr(dl_sql_parser *p, dl_sql_expr **out) {
    DL_TRY(dl_sql_enter(p));
    DL_TRY(parse_value(p, NULL, 1, out));
    dl_sql_leave(p);
    return DL_OK;
}

/* ---- predicates --------------------------------------------------------------------------- */

static dl_status
parse_in(dl_sql_parser *p, dl_sql_expr *arg, bool is_not, dl_sql_expr **out) {
    dl_sql_advance(p);
    const dl_sql_token *open = dl_sql_tok(p);
    DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LPAREN));
    dl_sql_paren content;
    DL_TRY(dl_sql_parse_paren_content(p, open, "IN list", &content));
    if (content.query != NULL) {
        DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_IN_QUERY, arg->loc, out));
        (*out)->u.in_query.arg = arg;
        (*out)->u.in_query.query = content.query;
        (*out)->u.in_query.is_not = is_not;
        return DL_OK;
    }
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_IN_LIST, arg->loc, out));
    (*out)->u.in_list.arg = arg;
    (*out)->u.in_list.list = content.list;
    (*out)->u.in_list.is_not = is_not;
    return DL_OK;
}

static dl_status
parse_like(dl_sql_parser *p, dl_sql_expr *arg, bool is_not, dl_sql_expr **out) {
    dl_sql_kw kw = (dl_sql_kw)dl_sql_tok(p)->kw;
    dl_sql_advance(p);
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_LIKE, arg->loc, out));
    dl_sql_expr *e = *out;
    e->u.like.arg = arg;
    e->u.like.is_not = is_not;
    e->u.like.op = kw == DL_SQL_KW_LIKE    ? DL_SQL_LIKE_LIKE
                   : kw == DL_SQL_KW_ILIKE ? DL_SQL_LIKE_ILIKE
                                           : DL_SQL_LIKE_RLIKE;
    bool quantified = e->u.like.op != DL_SQL_LIKE_RLIKE &&
                      dl_sql_peek_is(p, 1, DL_SQL_TOK_LPAREN) &&
                      (dl_sql_is_kw(p, DL_SQL_KW_ANY) || dl_sql_is_kw(p, DL_SQL_KW_SOME) ||
                       dl_sql_is_kw(p, DL_SQL_KW_ALL));
    if (quantified) {
        e->u.like.quant = dl_sql_is_kw(p, DL_SQL_KW_ALL) ? DL_SQL_QUANT_ALL : DL_SQL_QUANT_ANY;
        dl_sql_advance(p);
        const dl_sql_token *open = dl_sql_tok(p);
        dl_sql_advance(p);
        if (!dl_sql_is(p, DL_SQL_TOK_RPAREN)) {
            DL_TRY(dl_sql_parse_expr_list(p, &e->u.like.patterns));
        }
        return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "pattern list");
    }
    DL_TRY(dl_sql_parse_value_expr(p, &e->u.like.pattern));
    if (e->u.like.op != DL_SQL_LIKE_RLIKE && dl_sql_accept_kw(p, DL_SQL_KW_ESCAPE)) {
        e->u.like.has_escape = true;
        DL_TRY(dl_sql_parse_string(p, "an escape character", &e->u.like.escape));
    }
    return DL_OK;
}

static dl_status
parse_is(dl_sql_parser *p, dl_sql_expr *arg, dl_sql_expr **out) {
    dl_sql_advance(p);
    bool is_not = dl_sql_accept_kw(p, DL_SQL_KW_NOT);
    if (dl_sql_accept_kw(p, DL_SQL_KW_DISTINCT)) {
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_FROM));
        dl_sql_expr *right = NULL;
        DL_TRY(dl_sql_parse_value_expr(p, &right));
        return new_binary(p, is_not ? DL_SQL_OP_IS_NOT_DISTINCT : DL_SQL_OP_IS_DISTINCT, arg, right,
                          out);
    }
    dl_sql_is_test test = dl_sql_is_kw(p, DL_SQL_KW_NULL)      ? DL_SQL_IS_NULL
                          : dl_sql_is_kw(p, DL_SQL_KW_TRUE)    ? DL_SQL_IS_TRUE
                          : dl_sql_is_kw(p, DL_SQL_KW_FALSE)   ? DL_SQL_IS_FALSE
                          : dl_sql_is_kw(p, DL_SQL_KW_UNKNOWN) ? DL_SQL_IS_UNKNOWN
                                                               : (dl_sql_is_test)0;
    if (test == 0) {
        return dl_sql_fail_expected(p, "NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM after IS");
    }
    dl_sql_advance(p);
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_IS, arg->loc, out));
    (*out)->u.is.arg = arg;
    (*out)->u.is.test = test;
    (*out)->u.is.is_not = is_not;
    return DL_OK;
}

static bool
is_predicate_kw(const dl_sql_parser *p, uint32_t k) {
    return dl_sql_peek_is_kw(p, k, DL_SQL_KW_BETWEEN) || dl_sql_peek_is_kw(p, k, DL_SQL_KW_IN) ||
           dl_sql_peek_is_kw(p, k, DL_SQL_KW_LIKE) || dl_sql_peek_is_kw(p, k, DL_SQL_KW_ILIKE) ||
           dl_sql_peek_is_kw(p, k, DL_SQL_KW_RLIKE) || dl_sql_peek_is_kw(p, k, DL_SQL_KW_REGEXP);
}

static dl_status
parse_predicate(dl_sql_parser *p, dl_sql_expr *first, dl_sql_expr **out) {
    dl_sql_expr *v = NULL;
    DL_TRY(parse_value(p, first, 1, &v));
    bool is_not = false;
    if (dl_sql_is_kw(p, DL_SQL_KW_NOT) && is_predicate_kw(p, 1)) {
        dl_sql_advance(p);
        is_not = true;
    }
    dl_sql_expr *e = v;
    switch ((dl_sql_kw)(dl_sql_is(p, DL_SQL_TOK_WORD) ? dl_sql_tok(p)->kw : 0)) {
    case DL_SQL_KW_BETWEEN:
        dl_sql_advance(p);
        DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_BETWEEN, v->loc, &e));
        e->u.between.arg = v;
        e->u.between.is_not = is_not;
        DL_TRY(dl_sql_parse_value_expr(p, &e->u.between.low));
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_AND));
        DL_TRY(dl_sql_parse_value_expr(p, &e->u.between.high));
        break;
    case DL_SQL_KW_IN:
        DL_TRY(parse_in(p, v, is_not, &e));
        break;
    case DL_SQL_KW_LIKE:
    case DL_SQL_KW_ILIKE:
    case DL_SQL_KW_RLIKE:
    case DL_SQL_KW_REGEXP:
        DL_TRY(parse_like(p, v, is_not, &e));
        break;
    case DL_SQL_KW_IS:
        DL_TRY(parse_is(p, v, &e));
        break;
    default:
        *out = v;
        return DL_OK;
    }
    DL_TRY(dl_sql_expr_done(p, e));
    *out = e;
    return DL_OK;
}

/* ---- NOT, AND, OR ------------------------------------------------------------------------- */

static dl_status
parse_not(dl_sql_parser *p, dl_sql_expr *first, dl_sql_expr **out) {
    if (first == NULL && (dl_sql_is_kw(p, DL_SQL_KW_NOT) || dl_sql_is(p, DL_SQL_TOK_BANG))) {
        uint32_t loc = dl_sql_tok(p)->off;
        DL_TRY(dl_sql_enter(p));
        dl_sql_advance(p);
        dl_sql_expr *arg = NULL;
        DL_TRY(parse_not(p, NULL, &arg));
        DL_TRY(new_unary(p, DL_SQL_OP_NOT, loc, arg, out));
        dl_sql_leave(p);
        return DL_OK;
    }
    return parse_predicate(p, first, out);
}

static dl_status
parse_and(dl_sql_parser *p, dl_sql_expr *first, dl_sql_expr **out) {
    dl_sql_expr *l = NULL;
    DL_TRY(parse_not(p, first, &l));
    while (dl_sql_accept_kw(p, DL_SQL_KW_AND)) {
        dl_sql_expr *r = NULL;
        DL_TRY(parse_not(p, NULL, &r));
        DL_TRY(new_binary(p, DL_SQL_OP_AND, l, r, &l));
    }
    *out = l;
    return DL_OK;
}

static dl_status
parse_or(dl_sql_parser *p, dl_sql_expr *first, dl_sql_expr **out) {
    DL_TRY(dl_sql_enter(p));
    dl_sql_expr *l = NULL;
    DL_TRY(parse_and(p, first, &l));
    while (dl_sql_accept_kw(p, DL_SQL_KW_OR)) {
        dl_sql_expr *r = NULL;
        DL_TRY(parse_and(p, NULL, &r));
        DL_TRY(new_binary(p, DL_SQL_OP_OR, l, r, &l));
    }
    *out = l;
    dl_sql_leave(p);
    return DL_OK;
}

dl_status
dl_sql_parse_expr(dl_sql_parser *p, dl_sql_expr **out) {
    return parse_or(p, NULL, out);
}

dl_status
dl_sql_parse_expr_from(dl_sql_parser *p, dl_sql_expr *first, dl_sql_expr **out) {
    return parse_or(p, first, out);
}

/* ---- ORDER BY and windows ----------------------------------------------------------------- */

dl_status
dl_sql_parse_sort_list(dl_sql_parser *p, dl_sql_sort_list *out) {
    dl_sql_vec items = {0};
    do {
        dl_sql_sort_item *it;
        DL_SQL_PUSH(p, items, it);
        DL_TRY(dl_sql_parse_expr(p, &it->expr));
        if (dl_sql_accept_kw(p, DL_SQL_KW_ASC)) {
            it->dir = DL_SQL_SORT_ASC;
        } else if (dl_sql_accept_kw(p, DL_SQL_KW_DESC)) {
            it->dir = DL_SQL_SORT_DESC;
        }
        if (dl_sql_accept_kw(p, DL_SQL_KW_NULLS)) {
            if (dl_sql_accept_kw(p, DL_SQL_KW_FIRST)) {
                it->nulls = DL_SQL_NULLS_FIRST;
            } else if (dl_sql_accept_kw(p, DL_SQL_KW_LAST)) {
                it->nulls = DL_SQL_NULLS_LAST;
            } else {
                return dl_sql_fail_expected(p, "FIRST or LAST after NULLS");
            }
        }
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    out->items = items.data;
    out->n = items.n;
    return DL_OK;
}

static dl_status
parse_frame_bound(dl_sql_parser *p, dl_sql_frame_bound *out) {
    if (dl_sql_accept_kw(p, DL_SQL_KW_UNBOUNDED)) {
        if (dl_sql_accept_kw(p, DL_SQL_KW_PRECEDING)) {
            out->kind = DL_SQL_BOUND_UNBOUNDED_PRECEDING;
            return DL_OK;
        }
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_FOLLOWING));
        out->kind = DL_SQL_BOUND_UNBOUNDED_FOLLOWING;
        return DL_OK;
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_CURRENT) && dl_sql_peek_is_kw(p, 1, DL_SQL_KW_ROW)) {
        dl_sql_advance(p);
        dl_sql_advance(p);
        out->kind = DL_SQL_BOUND_CURRENT_ROW;
        return DL_OK;
    }
    DL_TRY(dl_sql_parse_value_expr(p, &out->offset));
    if (dl_sql_accept_kw(p, DL_SQL_KW_PRECEDING)) {
        out->kind = DL_SQL_BOUND_PRECEDING;
        return DL_OK;
    }
    DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_FOLLOWING));
    out->kind = DL_SQL_BOUND_FOLLOWING;
    return DL_OK;
}

static dl_status
parse_frame(dl_sql_parser *p, dl_sql_window *w) {
    w->frame = dl_sql_accept_kw(p, DL_SQL_KW_ROWS) ? DL_SQL_FRAME_ROWS : DL_SQL_FRAME_RANGE;
    if (w->frame == DL_SQL_FRAME_RANGE) {
        dl_sql_advance(p);
    }
    if (dl_sql_accept_kw(p, DL_SQL_KW_BETWEEN)) {
        w->has_between = true;
        DL_TRY(parse_frame_bound(p, &w->start));
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_AND));
        return parse_frame_bound(p, &w->end);
    }
    return parse_frame_bound(p, &w->start);
}

static bool
is_window_clause_kw(const dl_sql_parser *p) {
    return dl_sql_is_kw(p, DL_SQL_KW_PARTITION) || dl_sql_is_kw(p, DL_SQL_KW_DISTRIBUTE) ||
           dl_sql_is_kw(p, DL_SQL_KW_ORDER) || dl_sql_is_kw(p, DL_SQL_KW_SORT) ||
           dl_sql_is_kw(p, DL_SQL_KW_ROWS) || dl_sql_is_kw(p, DL_SQL_KW_RANGE);
}

dl_status
dl_sql_parse_window(dl_sql_parser *p, bool allow_ref, dl_sql_window **out) {
    dl_sql_window *w;
    DL_SQL_NEW(p, w);
    w->loc = dl_sql_tok(p)->off;
    *out = w;
    if (allow_ref && !dl_sql_is(p, DL_SQL_TOK_LPAREN)) {
        w->is_ref = true;
        return dl_sql_parse_ident(p, "a window name or '('", &w->base_name);
    }
    const dl_sql_token *open = dl_sql_tok(p);
    DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LPAREN));
    if (dl_sql_is_ident(p, dl_sql_tok(p), false, false) && !is_window_clause_kw(p)) {
        w->has_base = true;
        DL_TRY(dl_sql_parse_ident(p, "a window name", &w->base_name));
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_PARTITION) || dl_sql_is_kw(p, DL_SQL_KW_DISTRIBUTE)) {
        dl_sql_advance(p);
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_BY));
        DL_TRY(dl_sql_parse_expr_list(p, &w->partition_by));
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_ORDER) || dl_sql_is_kw(p, DL_SQL_KW_SORT)) {
        dl_sql_advance(p);
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_BY));
        DL_TRY(dl_sql_parse_sort_list(p, &w->order_by));
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_ROWS) || dl_sql_is_kw(p, DL_SQL_KW_RANGE)) {
        DL_TRY(parse_frame(p, w));
    }
    return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "window specification");
}
