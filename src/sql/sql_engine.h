/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SQL engine's interface: sessions, statements and result streams, and the catalog
 * interface the binder resolves table names through.
 *
 * A session holds the settings (SET/RESET), the current schema and a catalog. Running a
 * statement parses it, binds it against the catalog (each table reference becomes a Delta
 * snapshot at the version its time-travel clause names), plans and optimises it, and returns
 * a result: a schema and a stream of batches pulled one at a time. Statements that return no
 * rows (SET, CREATE SCHEMA, USE, ...) return a result with zero columns and no batches; the
 * data-changing statements return one row of counts (commands/sql_dml.c).
 *
 * Sessions and the catalog interface are declared in bind/sql_session.h (included here): the
 * binder is the lowest stage that reads them.
 *
 * Threads: a session and its results are used by one thread at a time. The engine may run
 * work on the session's pool internally.
 */
#ifndef DL_SQL_SQL_ENGINE_H
#define DL_SQL_SQL_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/buf.h"
#include "base/compiler.h"
#include "base/error.h"
#include "base/pool.h"
#include "delta/delta.h"
#include "sql/bind/sql_session.h"
#include "sql/parse/sql_parse.h"
#include "store/store.h"
#include "vector/vector.h"

/* ---- statements and results ---------------------------------------------------------------- */

typedef struct dl_sql_result dl_sql_result;

/*
 * Runs exactly one statement (a trailing ';' is allowed) and returns its result. On a syntax
 * or bind error err->offset is the byte offset in text of the offending token, so the caller
 * can render a caret (dl_sql_render_caret). Queries are lazy: most work happens in
 * dl_sql_result_next. The text need not outlive the call.
 */
DL_NODISCARD dl_status dl_sql_exec(dl_sql_session *session, const char *text, size_t len,
                                   dl_sql_result **out, dl_error *err);

/* As dl_sql_exec, with values for the statement's parameter markers (NULL: none bound, and a
 * marker fails to bind with UNBOUND_SQL_PARAMETER). The values are copied into the result;
 * params need not outlive the call. */
DL_NODISCARD dl_status dl_sql_exec_params(dl_sql_session *session, const char *text, size_t len,
                                          const dl_sql_params *params, dl_sql_result **out,
                                          dl_error *err);

/* The result's columns: a STRUCT type with one field per column (Spark's column names). Valid
 * until dl_sql_result_free. Zero fields for statements that return nothing. */
const dl_type *dl_sql_result_schema(const dl_sql_result *result);

/*
 * The next batch of rows in *out, or *out = NULL at the end. The batch (and its vectors) stays
 * valid until the next call or dl_sql_result_free; it may carry a selection (dl_batch.sel) and
 * columns in any layout (flat, constant, dictionary). Errors during execution (a corrupt file,
 * an overflow in ANSI mode, raise_error) come back here, naming the table, file or function.
 */
DL_NODISCARD dl_status dl_sql_result_next(dl_sql_result *result, const dl_batch **out,
                                          dl_error *err);

/* The kind of statement that produced the result (for messages and the shell). */
dl_sql_stmt_kind dl_sql_result_stmt_kind(const dl_sql_result *result);

/* Asks a running statement to stop: the next dl_sql_result_next (or the one running on another
 * thread) fails with DL_ERR_INTERRUPTED at its next batch boundary. A statement that changes
 * tables and has finished (its commit landed) is not stopped: its result rows report it. The only
 * function that may be called from another thread while the result is in use (a shell's Ctrl-C
 * handler). */
void dl_sql_result_interrupt(dl_sql_result *result);

/* Whether dl_sql_session_interrupt was called since the session's last statement started (a
 * caller running several statements stops after the one the interrupt arrived in). */
bool dl_sql_session_is_interrupted(const dl_sql_session *session);

/* How far the session's running statement got: *out_done of *out_total parts (the files and
 * row groups its scans read; the total grows as scans open). Safe from any thread. */
void dl_sql_session_progress(const dl_sql_session *session, int64_t *out_done, int64_t *out_total);

/* Releases the result and everything it holds (snapshots, files, memory). NULL-tolerant. */
void dl_sql_result_free(dl_sql_result *result);

#endif /* DL_SQL_SQL_ENGINE_H */
