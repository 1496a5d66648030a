/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sql part's private header: the parser state shared by the sql_parse*.c files, and the
 * helpers they share (tokens, errors, allocation, lists, names, strings).
 *
 * The parser is recursive descent over the tokens of one statement, lexed up front into an
 * array (the reader lexes up to the next ';'), so any lookahead is an index. Every parse
 * function returns a dl_status and writes its result through an out-pointer; the first error
 * ends the statement, so the functions return at once without cleaning up (the arena owns
 * everything).
 *
 * Recursion is bounded twice. p->depth counts nesting at the points every cycle of the grammar
 * passes (a full expression, a value expression, a parenthesis, a unary or NOT prefix, a query,
 * a relation, a type), up to DL_SQL_MAX_RECURSION. And every expression, query and table
 * reference records its height when it is finished (dl_sql_expr_done and friends), up to
 * DL_SQL_MAX_DEPTH, so left-deep chains built in loops (a + b + c ..., UNION ... UNION,
 * JOIN ... JOIN) are bounded for later recursive walks too. The canonical text of a tree of
 * height h nests at most about 2h counted levels (a parenthesis and an expression per level),
 * which is why the recursion budget is three times the height limit.
 */
#ifndef DL_SQL_SQL_INT_H
#define DL_SQL_SQL_INT_H

#include <stdarg.h>

#include "base/arena.h"
#include "base/error.h"
#include "sql/parse/sql_lex.h"
#include "sql/parse/sql_parse.h"

/* A growable array in the parser's arena (a list under construction). */
typedef struct dl_sql_vec {
    void *data;
    uint32_t n;
    uint32_t cap;
} dl_sql_vec;

typedef struct dl_sql_parser {
    const char *text;
    uint32_t text_len;
    dl_arena *arena;     /* the tree's memory */
    dl_sql_token *toks;  /* the statement's tokens; the last is its end (EOF or ';') */
    uint32_t n_toks;     /* >= 1 */
    uint32_t pos;        /* the current token */
    uint32_t depth;      /* nesting, see dl_sql_enter */
    uint32_t type_depth; /* nesting of types */
    uint32_t n_params;   /* ? markers seen */
    dl_sql_vec params;   /* every marker seen (dl_sql_expr *), for dl_sql_stmt.params */
    dl_error *err;
} dl_sql_parser;

/* ---- tokens (sql_parse.c) ----------------------------------------------------------------- */

/* The current token, and the one k places after it (clamped to the statement's end). */
const dl_sql_token *dl_sql_tok(const dl_sql_parser *p);
const dl_sql_token *dl_sql_peek(const dl_sql_parser *p, uint32_t k);

/* True when the current token (or the one k after it) is the keyword / of the kind. */
bool dl_sql_is_kw(const dl_sql_parser *p, dl_sql_kw kw);
bool dl_sql_peek_is_kw(const dl_sql_parser *p, uint32_t k, dl_sql_kw kw);
bool dl_sql_is(const dl_sql_parser *p, dl_sql_tok_kind kind);
bool dl_sql_peek_is(const dl_sql_parser *p, uint32_t k, dl_sql_tok_kind kind);

/* True at the statement's end (';' or end of input). */
bool dl_sql_at_end(const dl_sql_parser *p);

/* Consumes the current token. */
void dl_sql_advance(dl_sql_parser *p);

/* Consumes the current token when it is the keyword / of the kind, and says whether it did. */
bool dl_sql_accept_kw(dl_sql_parser *p, dl_sql_kw kw);
bool dl_sql_accept(dl_sql_parser *p, dl_sql_tok_kind kind);

/* Consumes the keyword / token or fails with "expected X, found Y". */
DL_NODISCARD dl_status dl_sql_expect_kw(dl_sql_parser *p, dl_sql_kw kw);
DL_NODISCARD dl_status dl_sql_expect(dl_sql_parser *p, dl_sql_tok_kind kind);

/* Consumes the ')' (or ']', '>') that closes what open_tok opened, or fails with "expected
 * ')' to close the <what> opened at line L, column C, found Y". */
DL_NODISCARD dl_status dl_sql_expect_close(dl_sql_parser *p, dl_sql_tok_kind kind,
                                           const dl_sql_token *open_tok, const char *what);

/* A word (keyword or not) whose text equals the upper-case word w, any case. */
bool dl_sql_tok_is_word(const dl_sql_parser *p, const dl_sql_token *tok, const char *w);

/* The spelling of a token kind for messages: "')'", "identifier". */
const char *dl_sql_tok_kind_text(dl_sql_tok_kind kind);

/* ---- errors (sql_parse.c) ----------------------------------------------------------------- */

/* Fails at tok with code and "<class> at line L, column C: <message>"; a lexer error token
 * reports its own message instead. Sets err->offset. Returns code. */
DL_NODISCARD dl_status dl_sql_fail_tok(dl_sql_parser *p, const dl_sql_token *tok, dl_status code,
                                       const char *fmt, ...) DL_PRINTF(4, 5);

/* As dl_sql_fail_tok for a syntax error at the current token. */
DL_NODISCARD dl_status dl_sql_fail(dl_sql_parser *p, const char *fmt, ...) DL_PRINTF(2, 3);

/* As dl_sql_fail_tok at byte offset off of the text (inside the statement). */
DL_NODISCARD dl_status dl_sql_fail_off(dl_sql_parser *p, uint32_t off, dl_status code,
                                       const char *fmt, ...) DL_PRINTF(4, 5);

/* DL_ERR_INTERNAL: a parser invariant failed (a bug in deltalite). */
DL_NODISCARD dl_status dl_sql_fail_internal(dl_sql_parser *p);

/* "expected <what>, found <current token>". */
DL_NODISCARD dl_status dl_sql_fail_expected(dl_sql_parser *p, const char *what);

/* Writes a description of tok ("'FROM'", "end of input", "string 'abc'") into buf. */
void dl_sql_describe_tok(const dl_sql_parser *p, const dl_sql_token *tok, char *buf, size_t cap);

/* Enters a nested construct at the current token; fails with DL_ERR_LIMIT past
 * DL_SQL_MAX_DEPTH. dl_sql_leave undoes it on success paths (after a failure the parse is
 * over and the count no longer matters). */
DL_NODISCARD dl_status dl_sql_enter(dl_sql_parser *p);
void dl_sql_leave(dl_sql_parser *p);

/* ---- memory (sql_parse.c) ----------------------------------------------------------------- */

/* size zeroed bytes from the tree arena, or NULL with err set to NOMEM. */
void *dl_sql_alloc(dl_sql_parser *p, size_t size);

/* Appends a zeroed element of elem_size to v; returns it, or NULL with err set to NOMEM. */
void *dl_sql_vec_push(dl_sql_parser *p, dl_sql_vec *v, size_t elem_size);

/* Appends a NULL pointer slot to v, for lists of node pointers (every pointer to a struct
 * type has the same size and representation, C11 6.2.5p28). NULL with err set to NOMEM. */
void *dl_sql_vec_push_ptr(dl_sql_parser *p, dl_sql_vec *v);

/* Appends a pointer slot to vec and points slot (a T **) at it, or returns DL_ERR_NOMEM. */
#define DL_SQL_PUSH_PTR(p, vec, slot)              \
    do {                                           \
        (slot) = dl_sql_vec_push_ptr((p), &(vec)); \
        if ((slot) == NULL) {                      \
            return DL_ERR_NOMEM;                   \
        }                                          \
    } while (0)

/* After a parse call that returned DL_OK through a recursive or other-file function: its
 * node out-parameter is set. States the invariant where the static analyzer cannot follow it;
 * a violation is DL_ERR_INTERNAL, never a crash. */
#define DL_SQL_HAVE_NODE(p, node)             \
    do {                                      \
        if ((node) == NULL) {                 \
            return dl_sql_fail_internal((p)); \
        }                                     \
    } while (0)

/* Allocates *ptr (zeroed) or returns DL_ERR_NOMEM from the calling function. */
#define DL_SQL_NEW(p, ptr)                         \
    do {                                           \
        (ptr) = dl_sql_alloc((p), sizeof(*(ptr))); \
        if ((ptr) == NULL) {                       \
            return DL_ERR_NOMEM;                   \
        }                                          \
    } while (0)

/* Appends a zeroed slot to vec and points slot at it, or returns DL_ERR_NOMEM. */
#define DL_SQL_PUSH(p, vec, slot)                               \
    do {                                                        \
        (slot) = dl_sql_vec_push((p), &(vec), sizeof(*(slot))); \
        if ((slot) == NULL) {                                   \
            return DL_ERR_NOMEM;                                \
        }                                                       \
    } while (0)

/* A copy of len bytes at s, NUL-terminated, in the tree arena. */
DL_NODISCARD dl_status dl_sql_strdup(dl_sql_parser *p, const char *s, size_t len, dl_str *out);

/* ---- names and literals (sql_parse.c) ----------------------------------------------------- */

/* True when the current token can be an identifier: a non-reserved word or a quoted name
 * (allow_reserved: any word). no_alias also refuses class-A keywords (implicit aliases). */
bool dl_sql_is_ident(const dl_sql_parser *p, const dl_sql_token *tok, bool allow_reserved,
                     bool no_alias);

/* Parses an identifier; `what` names it in the error ("a table name"). */
DL_NODISCARD dl_status dl_sql_parse_ident(dl_sql_parser *p, const char *what, dl_sql_ident *out);

/* As dl_sql_parse_ident, accepting reserved words too (after a '.'). */
DL_NODISCARD dl_status dl_sql_parse_ident_any(dl_sql_parser *p, const char *what,
                                              dl_sql_ident *out);

/* Parses a dotted name a.b.c. */
DL_NODISCARD dl_status dl_sql_parse_name(dl_sql_parser *p, const char *what, dl_sql_name *out);

/* Parses '(' ident, ... ')'. */
DL_NODISCARD dl_status dl_sql_parse_ident_list(dl_sql_parser *p, const char *what,
                                               dl_sql_ident_list *out);

/* Parses name, name, ... (no parentheses) or '(' name, ... ')' when parenthesised. */
DL_NODISCARD dl_status dl_sql_parse_name_list(dl_sql_parser *p, const char *what,
                                              bool parenthesised, dl_sql_name_list *out);

/* Parses one or more adjacent string literals (concatenated) into out. */
DL_NODISCARD dl_status dl_sql_parse_string(dl_sql_parser *p, const char *what, dl_str *out);

/* Decodes one string token (escapes, doubled quotes, raw strings) and appends its bytes to
 * buf (reserved room: tok->len bytes suffice). Returns the decoded length via *out_len. */
DL_NODISCARD dl_status dl_sql_string_decode(dl_sql_parser *p, const dl_sql_token *tok, char *buf,
                                            size_t *out_len);

/* Parses a non-negative integer literal that fits int64 (LIMIT-like positions that want a
 * plain number: DECIMAL(p, s), VARCHAR(n)). */
DL_NODISCARD dl_status dl_sql_parse_int(dl_sql_parser *p, const char *what, int64_t *out);

/* Parses '(' key [=] value, ... ')' (TBLPROPERTIES, OPTIONS); with_values false for key lists
 * (UNSET TBLPROPERTIES). */
DL_NODISCARD dl_status dl_sql_parse_props(dl_sql_parser *p, bool with_values,
                                          dl_sql_prop_list *out);

/* Parses a property key: a string literal or a dotted name (joined with '.'). */
DL_NODISCARD dl_status dl_sql_parse_prop_key(dl_sql_parser *p, dl_str *out);

/* ---- expressions (sql_parse_expr.c) ------------------------------------------------------- */

/* A full expression (OR level). */
DL_NODISCARD dl_status dl_sql_parse_expr(dl_sql_parser *p, dl_sql_expr **out);

/* A full expression whose first primary has been parsed already (first). */
DL_NODISCARD dl_status dl_sql_parse_expr_from(dl_sql_parser *p, dl_sql_expr *first,
                                              dl_sql_expr **out);

/* A value expression: arithmetic and comparisons, no AND/OR/NOT/predicates (Spark's
 * valueExpression: time-travel timestamps, BETWEEN bounds, frame offsets). */
DL_NODISCARD dl_status dl_sql_parse_value_expr(dl_sql_parser *p, dl_sql_expr **out);

/* One function argument: an expression or name => value. */
DL_NODISCARD dl_status dl_sql_parse_arg(dl_sql_parser *p, dl_sql_expr **out);

/* True when the current token can continue an expression (an operator, '[', '.', '::',
 * AND, OR, IS, NOT, IN, BETWEEN, LIKE, ...). */
bool dl_sql_continues_expr(const dl_sql_parser *p);

/* One expression as a list of one. */
DL_NODISCARD dl_status dl_sql_parse_expr_as_list(dl_sql_parser *p, dl_sql_expr_list *out);

/* Comma-separated expressions until the current token is not ','. */
DL_NODISCARD dl_status dl_sql_parse_expr_list(dl_sql_parser *p, dl_sql_expr_list *out);

/* What follows a '(' that was consumed: a query or a list of expressions, and the ')'. */
typedef struct dl_sql_paren {
    dl_sql_query *query;   /* a query, or NULL */
    dl_sql_expr_list list; /* else the expressions (>= 1) */
} dl_sql_paren;

DL_NODISCARD dl_status dl_sql_parse_paren_content(dl_sql_parser *p, const dl_sql_token *open_tok,
                                                  const char *what, dl_sql_paren *out);

/* True when the current token starts a query (SELECT, WITH, VALUES) possibly after '('s. */
bool dl_sql_looks_like_query(const dl_sql_parser *p);

/* ORDER BY items: expr [ASC | DESC] [NULLS FIRST | LAST], ... */
DL_NODISCARD dl_status dl_sql_parse_sort_list(dl_sql_parser *p, dl_sql_sort_list *out);

/* A window specification after OVER or in WINDOW w AS (...). */
DL_NODISCARD dl_status dl_sql_parse_window(dl_sql_parser *p, bool allow_ref, dl_sql_window **out);

/* A new expression node of the kind at the current token (height 1, loc set). */
DL_NODISCARD dl_status dl_sql_new_expr(dl_sql_parser *p, dl_sql_expr_kind kind, uint32_t loc,
                                       dl_sql_expr **out);

/* Literal helpers: a string literal expression holding bytes s. */
DL_NODISCARD dl_status dl_sql_new_string_lit(dl_sql_parser *p, uint32_t loc, dl_str s,
                                             dl_sql_expr **out);

/* ---- types (sql_parse_type.c) ------------------------------------------------------------- */

DL_NODISCARD dl_status dl_sql_parse_type(dl_sql_parser *p, dl_sql_type **out);

/* An interval unit word at the current token (YEAR, DAYS, ...), or DL_SQL_UNIT_NONE. */
dl_sql_unit dl_sql_unit_at(const dl_sql_parser *p);

/* The literal after INTERVAL (the INTERVAL keyword consumed). */
DL_NODISCARD dl_status dl_sql_parse_interval(dl_sql_parser *p, uint32_t loc, dl_sql_expr **out);

/* ---- queries (sql_parse_query.c) ---------------------------------------------------------- */

/* A query with its WITH, set operations, ORDER BY, LIMIT and OFFSET. */
DL_NODISCARD dl_status dl_sql_parse_query(dl_sql_parser *p, dl_sql_query **out);

/* The rest of a query whose first operand (a parenthesised query) is parsed already. */
DL_NODISCARD dl_status dl_sql_parse_query_rest(dl_sql_parser *p, dl_sql_query *first,
                                               dl_sql_query **out);

/* True when the current token continues a query (UNION, ORDER BY, LIMIT, ...). */
bool dl_sql_continues_query(const dl_sql_parser *p);

/* A relation: primary relations joined. */
DL_NODISCARD dl_status dl_sql_parse_relation(dl_sql_parser *p, dl_sql_tref **out);

/* One relation without joins: a table, function, subquery, VALUES or DESCRIBE. */
DL_NODISCARD dl_status dl_sql_parse_primary_relation(dl_sql_parser *p, dl_sql_tref **out);

/* Optional time travel after a table name. */
DL_NODISCARD dl_status dl_sql_parse_time_travel(dl_sql_parser *p, dl_sql_time_travel *out);

/* An optional alias: [AS] name [(columns)] (columns only when allow_columns). */
DL_NODISCARD dl_status dl_sql_parse_alias(dl_sql_parser *p, bool allow_columns, bool *has_alias,
                                          dl_sql_ident *alias, dl_sql_ident_list *columns);

/* VALUES rows (the VALUES keyword consumed) into a DL_SQL_QUERY_VALUES query. */
DL_NODISCARD dl_status dl_sql_parse_values(dl_sql_parser *p, uint32_t loc, dl_sql_query **out);

/* ---- statements (sql_parse_ddl.c, sql_parse_dml.c, sql_parse_delta.c) --------------------- */

DL_NODISCARD dl_status dl_sql_parse_statement(dl_sql_parser *p, dl_sql_stmt **out);
DL_NODISCARD dl_status dl_sql_parse_create(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_replace(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_drop(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_use(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_alter(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_column_def(dl_sql_parser *p, bool allow_position,
                                               dl_sql_column_def *out);
DL_NODISCARD dl_status dl_sql_parse_insert(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_update(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_delete(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_merge(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_truncate(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_partition_spec(dl_sql_parser *p, dl_sql_partition_spec *out);
DL_NODISCARD dl_status dl_sql_parse_restore(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_vacuum(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_optimize(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_reorg(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_describe(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_show(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_set(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_reset(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_copy(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_convert(dl_sql_parser *p, dl_sql_stmt *s);
DL_NODISCARD dl_status dl_sql_parse_generate(dl_sql_parser *p, dl_sql_stmt *s);
/* CACHE [LAZY] TABLE, UNCACHE TABLE, REFRESH [TABLE], CLEAR CACHE, ANALYZE TABLE. */
DL_NODISCARD dl_status dl_sql_parse_cache(dl_sql_parser *p, dl_sql_stmt *s);

/* ---- heights (sql_ast.c) ------------------------------------------------------------------ */

/* Sets the node's height from its children's and fails with DL_ERR_LIMIT when it exceeds
 * DL_SQL_MAX_DEPTH. Call once a node is complete. */
DL_NODISCARD dl_status dl_sql_expr_done(dl_sql_parser *p, dl_sql_expr *e);
DL_NODISCARD dl_status dl_sql_query_done(dl_sql_parser *p, dl_sql_query *q);
DL_NODISCARD dl_status dl_sql_tref_done(dl_sql_parser *p, dl_sql_tref *t);

/* ---- printing (sql_print_expr.c, sql_print_stmt.c) --------------------------------------- */

/* Printer state: output goes to out until the first failure, which is kept in status. */
typedef struct dl_sql_printer {
    dl_buf *out;
    dl_status status;
    dl_error *err;
} dl_sql_printer;

void dl_sql_pr_str(dl_sql_printer *pr, const char *s);
void dl_sql_pr_mem(dl_sql_printer *pr, const char *s, size_t len);
void dl_sql_pr_fmt(dl_sql_printer *pr, const char *fmt, ...) DL_PRINTF(2, 3);

/* An identifier, in backticks when it is not a plain word or is a word the parser would read
 * as a keyword there. */
void dl_sql_pr_ident(dl_sql_printer *pr, const dl_sql_ident *id);
void dl_sql_pr_name(dl_sql_printer *pr, const dl_sql_name *name);

/* As dl_sql_pr_ident, and quoted also when it spells one of words (where the parser would
 * read that keyword, not a name). */
void dl_sql_pr_ident_unless(dl_sql_printer *pr, const dl_sql_ident *id, const dl_sql_kw *words,
                            size_t n_words);
void dl_sql_pr_ident_list(dl_sql_printer *pr, dl_sql_ident_list list);

/* A string literal in single quotes with the escapes it needs. */
void dl_sql_pr_string(dl_sql_printer *pr, dl_str s);

/* An expression. top: written where the grammar takes a full expression, so the outermost
 * operator needs no parentheses. */
void dl_sql_pr_expr(dl_sql_printer *pr, const dl_sql_expr *e, bool top);
void dl_sql_pr_expr_list(dl_sql_printer *pr, dl_sql_expr_list list);
void dl_sql_pr_sort_list(dl_sql_printer *pr, dl_sql_sort_list list);
void dl_sql_pr_window(dl_sql_printer *pr, const dl_sql_window *w);
void dl_sql_pr_type(dl_sql_printer *pr, const dl_sql_type *t);
void dl_sql_pr_query(dl_sql_printer *pr, const dl_sql_query *q);
void dl_sql_pr_stmt(dl_sql_printer *pr, const dl_sql_stmt *s);

#endif /* DL_SQL_SQL_INT_H */
