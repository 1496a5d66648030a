/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sql part's interface. This round: SQL text to a syntax tree (sql_ast.h) and back to
 * canonical SQL text; the binder, planner and executor come later.
 *
 * Parsing. dl_sql_parse turns a script (statements separated by ';') into trees allocated in
 * a caller's arena; dl_sql_reader does the same one statement at a time, so a shell can run
 * each statement before parsing the next. dl_sql_parse_expr and dl_sql_parse_type parse an
 * expression or a type alone (CHECK constraints and generation expressions that Delta stores
 * as SQL text).
 *
 * Errors. Malformed SQL is DL_ERR_SQL_SYNTAX with the message
 *   syntax error at line 3, column 12: expected ')' to close the argument list opened at
 *   line 3, column 5, found 'FROM'
 * and err->offset set to the byte offset (line and column are 1-based; columns count UTF-8
 * code points). A tree taller than DL_SQL_MAX_DEPTH, parser recursion past
 * DL_SQL_MAX_RECURSION or types nested past DL_SQL_MAX_TYPE_DEPTH is DL_ERR_LIMIT, and
 * statements deltalite refuses on purpose (CACHE TABLE, LATERAL VIEW, ...) are
 * DL_ERR_UNSUPPORTED, both in the same form. Out of memory is DL_ERR_NOMEM.
 * dl_sql_render_caret shows the line with a caret.
 *
 * Stack: the deepest statements the limits allow need about 1.2 MiB of stack at -O2 (3.5 MiB
 * under AddressSanitizer), so parse on a thread with the default 8 MiB stack.
 *
 * Canonical text. dl_sql_stmt_print writes a tree back as one line of SQL: keywords in upper
 * case, single spaces, identifiers quoted only where needed, every nested operator
 * parenthesised ("(a + (b * c))"), synonyms in one spelling. Parsing the canonical text
 * gives a tree that prints the same text again (the fuzz target checks this).
 *
 * Threads: everything here is reentrant; a tree may be read by many threads.
 */
#ifndef DL_SQL_SQL_H
#define DL_SQL_SQL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/compiler.h"
#include "base/error.h"
#include "sql/parse/sql_ast.h"

/* The longest text the parser takes (offsets in the tree are 32-bit). */
#define DL_SQL_MAX_TEXT ((size_t)UINT32_MAX - 1)

/* ---- parsing ------------------------------------------------------------------------------ */

typedef struct dl_sql_script {
    dl_sql_stmt **stmts; /* in the order written; empty statements (";;") are skipped */
    uint32_t n_stmts;
} dl_sql_script;

/*
 * Parses every statement of text[0..len) into arena. On failure nothing in *out is valid
 * (what was allocated stays in the arena until it is reset). A text with no statement gives
 * n_stmts 0. The tree does not point into text.
 */
DL_NODISCARD dl_status dl_sql_parse(dl_arena *arena, const char *text, size_t len,
                                    dl_sql_script *out, dl_error *err);

/* Parses exactly one statement (a trailing ';' is allowed). Empty input is a syntax error. */
DL_NODISCARD dl_status dl_sql_parse_stmt(dl_arena *arena, const char *text, size_t len,
                                         dl_sql_stmt **out, dl_error *err);

/* Parses one expression, e.g. "amount > 0" or "CAST(ts AS DATE)". */
DL_NODISCARD dl_status dl_sql_parse_expr_text(dl_arena *arena, const char *text, size_t len,
                                              dl_sql_expr **out, dl_error *err);

/* Parses one type, e.g. "DECIMAL(10,2)" or "MAP<STRING, ARRAY<INT>>". */
DL_NODISCARD dl_status dl_sql_parse_type_text(dl_arena *arena, const char *text, size_t len,
                                              dl_sql_type **out, dl_error *err);

/* Reads the statements of a text one at a time. The text must stay valid while reading. */
typedef struct dl_sql_reader {
    const char *text;
    uint32_t len;
    uint32_t pos;  /* where the next statement starts */
    uint32_t line; /* line and column of pos */
    uint32_t col;
    bool is_too_long; /* the text exceeds DL_SQL_MAX_TEXT: every read fails */
} dl_sql_reader;

void dl_sql_reader_init(dl_sql_reader *r, const char *text, size_t len);

/*
 * Parses the next statement into arena: *out is the statement, or NULL when the text holds no
 * more. After a failure the reader stays at the failed statement. Scratch memory (the
 * statement's tokens) comes from arena's allocator and is released before returning.
 */
DL_NODISCARD dl_status dl_sql_reader_next(dl_sql_reader *r, dl_arena *arena, dl_sql_stmt **out,
                                          dl_error *err);

/* ---- splitting and positions -------------------------------------------------------------- */

/*
 * Splits a script at its ';' without parsing, knowing strings, quoted names and comments: for
 * a shell that collects lines until a statement is complete. Never fails; text it cannot read
 * (a stray byte) is passed through inside a piece.
 */
typedef struct dl_sql_splitter {
    const char *text;
    size_t len;
    size_t pos;
} dl_sql_splitter;

typedef struct dl_sql_piece {
    size_t offset;      /* first byte of the statement (after leading white space/comments) */
    size_t len;         /* bytes up to, not including, the ';' */
    bool is_terminated; /* ended by ';' (false for the text's last piece) */
    bool is_open;       /* ends inside an unterminated string, quoted name or comment */
} dl_sql_piece;

/* Assumes: len < 4 GiB (longer texts come back as one piece). */
void dl_sql_splitter_init(dl_sql_splitter *s, const char *text, size_t len);

/* The next non-empty piece; false when there is none. */
bool dl_sql_splitter_next(dl_sql_splitter *s, dl_sql_piece *out);

/* True when text ends with a complete statement: its last ';' is outside strings and comments
 * and only white space or comments follow it. */
bool dl_sql_text_is_complete(const char *text, size_t len);

/* The 1-based line and column (in code points) of byte offset off of text (clamped to len). */
void dl_sql_offset_to_line_col(const char *text, size_t len, size_t off, uint32_t *out_line,
                               uint32_t *out_col);

/*
 * Appends to out the line of text holding byte offset off and, on the next line, a caret
 * under it:
 *     SELECT a FROM t WHERE (b
 *                             ^
 * Tabs in the line are kept in the caret line so the caret lines up; a long line is cut to a
 * window around the caret, with "..." marking the cuts. Nothing is appended when off < 0.
 */
DL_NODISCARD dl_status dl_sql_render_caret(const char *text, size_t len, int64_t off, dl_buf *out,
                                           dl_error *err);

/* ---- printing ----------------------------------------------------------------------------- */

/* Appends the canonical SQL of a statement / query / expression / type to out. */
DL_NODISCARD dl_status dl_sql_stmt_print(const dl_sql_stmt *stmt, dl_buf *out, dl_error *err);
DL_NODISCARD dl_status dl_sql_query_print(const dl_sql_query *query, dl_buf *out, dl_error *err);
DL_NODISCARD dl_status dl_sql_expr_print(const dl_sql_expr *expr, dl_buf *out, dl_error *err);
DL_NODISCARD dl_status dl_sql_type_print(const dl_sql_type *type, dl_buf *out, dl_error *err);

/* A statement kind's name for messages: "SELECT", "CREATE TABLE", "DESCRIBE HISTORY". */
const char *dl_sql_stmt_kind_name(dl_sql_stmt_kind kind);

#endif /* DL_SQL_SQL_H */
