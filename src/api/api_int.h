/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The api part's private interface: the handles behind include/deltalite.h and the text of
 * values they share with the shell and the sqllogictest runner (through the text getter).
 */
#ifndef DL_API_API_INT_H
#define DL_API_API_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "deltalite.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/error.h"
#include "base/pool.h"
#include "catalog/catalog.h"
#include "sql/parse/sql_parse.h"
#include "sql/sql_engine.h"
#include "vector/vector.h"

/* ---- values as text (api_text.c) ---------------------------------------------------------- */

/*
 * Casts column col of batch to text (the engine's CAST(x AS STRING), in time_zone; NULL =
 * UTC): *out is a new flat STRING vector with one row per live row of the batch (NULL where
 * the value is NULL). The caller unrefs it.
 */
DL_NODISCARD dl_status dl_api_text_column(const char *time_zone, const dl_batch *batch, int32_t col,
                                          const dl_allocator *alloc, dl_vector **out,
                                          dl_error *err);

/* ---- handles ------------------------------------------------------------------------------ */

struct deltalite_db {
    const dl_allocator *alloc;
    dl_cat *cat;
    dl_pool *pool;
    dl_sql_session *session;
    dl_error err;     /* the last error; code DL_OK after a success */
    dl_buf caret;     /* the caret rendering of err, NUL-terminated */
    int64_t err_line; /* 1-based position of err.offset in the failing SQL, or 0 */
    int64_t err_col;
    int64_t n_open; /* results and streams alive */
    bool is_open;   /* false after a failed deltalite_open */
};

struct deltalite_result {
    deltalite_db *db;
    dl_sql_result *res;
    const dl_type *schema; /* STRUCT, one field per column */
    int32_t n_cols;
    const dl_batch *batch;   /* the current batch, or NULL */
    int64_t row;             /* live row of batch that is current, -1 before the first */
    bool is_done;            /* no more rows */
    bool is_failed;          /* an error ended the result */
    dl_vector **texts;       /* n_cols: the current batch's columns as text, or NULL */
    dl_buf *cells;           /* n_cols text buffers for get_text */
    dl_buf *json_cells;      /* n_cols buffers for get_json */
    bool *cell_ready;        /* cells[i] holds the current row's text */
    const char **type_names; /* n_cols, in arena */
    const char *sql;         /* a copy of the SQL text the statement came from, or NULL */
    size_t sql_len;
    dl_sql_piece piece; /* where in sql the statement is (its errors' offsets count from there) */
    dl_arena arena;
};

/* A prepared statement (api_stmt.c): the text, its markers, and the values bound to them. */
struct deltalite_stmt {
    deltalite_db *db;
    const char *sql; /* a copy, in arena */
    size_t sql_len;
    int32_t n_params;         /* distinct parameters: ? markers, or distinct :names */
    bool is_named;            /* :name markers (else ?) */
    dl_str *names;            /* n_params names without ':' (is_named), in arena */
    const char **labels;      /* n_params ":name" (is_named) or NULL, in arena */
    uint32_t *locs;           /* n_params: offset of each parameter's first marker */
    dl_vector **values;       /* n_params: the bound values (one row each), NULL = unbound */
    const dl_type **decimals; /* n_params: the type of a bound DECIMAL, in arena */
    dl_arena arena;
};

/* Records a failure (err's code, message and hint) as db's last error and returns its code;
 * sql/len (may be NULL) is the text err.offset points into. */
deltalite_status dl_api_fail(deltalite_db *db, const dl_error *err, const char *sql, size_t len);

/* Clears db's last error (a successful call). */
void dl_api_ok(deltalite_db *db);

/* Sets db's last error from a format and returns code. */
deltalite_status dl_api_failf(deltalite_db *db, dl_status code, const char *fmt, ...)
    DL_PRINTF(3, 4);

/* An engine failure while it ran the statement at piece of sql[0, len) (sql NULL: no text):
 * the engine's INVALID_ARG becomes DATA (running SQL never misuses the API: the API checked
 * its arguments before), and err->offset, with the message's "line L, column C", moves from
 * counting in the statement to counting in sql (api_exec.c). */
void dl_api_engine_error(const char *sql, size_t len, const dl_sql_piece *piece, dl_error *err);

/* Wraps an engine result in a new public result (taking it over, also on failure), with a
 * copy of the SQL text sql[0, len) it came from and the statement's place in it (sql NULL:
 * none), for the caret of errors that come while its rows are read. */
DL_NODISCARD dl_status dl_api_result_new(deltalite_db *db, dl_sql_result *res, const char *sql,
                                         size_t len, const dl_sql_piece *piece,
                                         deltalite_result **out, dl_error *err);

#endif /* DL_API_API_INT_H */
