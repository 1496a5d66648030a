/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SQL engine's interface: sessions, statements and result streams, and the catalog
 * interface the binder resolves table names through.
 *
 * A session holds the settings (SET/RESET), the current schema and a catalog. Running a
 * statement parses it, binds it against the catalog (each table reference becomes a Delta
 * snapshot at the version its time-travel clause names), plans and optimises it, and returns
 * a result: a schema and a stream of batches pulled one at a time. Statements that return no
 * rows (SET, CREATE SCHEMA, USE, ...) return a result with zero columns and no batches.
 *
 * Layering: `sql` sits above `catalog` in the link order (docs/design-notes.md), so the
 * engine cannot call the catalog part directly; the catalog fills a dl_sql_catalog (a table
 * of callbacks) and hands it to the session. Tests may supply their own.
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
#include "sql/sql.h"
#include "store/store.h"
#include "vector/vector.h"

/* ---- the catalog interface ---------------------------------------------------------------- */

/*
 * Names to tables. Every callback returns DL_OK or an error in err; ctx is the catalog's own
 * state. Names are as the user wrote them after unquoting; matching is case-insensitive as in
 * Spark. schema NULL means the session's current schema.
 */
typedef struct dl_sql_catalog {
    void *ctx;
    /* Opens the table schema.name. NOT_FOUND (with a message naming the table and the schema
     * searched) when there is none. *out is owned by the caller (dl_delta_table_free). */
    dl_status (*open_table)(void *ctx, const char *schema, const char *name, dl_delta_table **out,
                            dl_error *err);
    /* Opens the table at a path (delta.`/path`); relative paths are relative to the process's
     * working directory. */
    dl_status (*open_path)(void *ctx, const char *path, dl_delta_table **out, dl_error *err);
    /* The store rooted at a table path, for CREATE TABLE delta.`/path` (the folder need not
     * exist); owned by the catalog. */
    dl_status (*path_store)(void *ctx, const char *path, dl_store **out, dl_error *err);
    /* The root folder a new table schema.name would have (for CREATE TABLE), written into out
     * as a NUL-terminated string; EXISTS is not checked here. */
    dl_status (*table_location)(void *ctx, const char *schema, const char *name, dl_buf *out,
                                dl_error *err);
    /* CREATE SCHEMA [IF NOT EXISTS]; USE schema (NOT_FOUND when absent); DROP SCHEMA. */
    dl_status (*create_schema)(void *ctx, const char *schema, bool if_not_exists, dl_error *err);
    dl_status (*use_schema)(void *ctx, const char *schema, dl_error *err);
    /* The current schema's name (static or owned by the catalog; valid until the next
     * use_schema). */
    const char *(*current_schema)(void *ctx);
    /* SHOW TABLES / SHOW SCHEMAS: calls visit for each name, sorted. */
    dl_status (*list_tables)(void *ctx, const char *schema,
                             dl_status (*visit)(void *vctx, const char *name, dl_error *err),
                             void *vctx, dl_error *err);
    dl_status (*list_schemas)(void *ctx,
                              dl_status (*visit)(void *vctx, const char *name, dl_error *err),
                              void *vctx, dl_error *err);
} dl_sql_catalog;

/* ---- sessions ------------------------------------------------------------------------------ */

typedef struct dl_sql_session dl_sql_session;

typedef struct dl_sql_session_config {
    dl_sql_catalog catalog;    /* copied; catalog.ctx must outlive the session */
    dl_store *store;           /* where tables live; must outlive the session */
    const dl_allocator *alloc; /* NULL = libc */
    dl_pool *pool;             /* worker threads for scans and operators; NULL = run inline */
    const char *time_zone;     /* initial spark.sql.session.timeZone; NULL = "UTC" */
} dl_sql_session_config;

DL_NODISCARD dl_status dl_sql_session_new(const dl_sql_session_config *config, dl_sql_session **out,
                                          dl_error *err);
void dl_sql_session_free(dl_sql_session *session);

/* A session setting's current value ("true", "UTC", ...) or NULL when unset and unknown. The
 * string stays valid until the next SET/RESET of that key. */
const char *dl_sql_session_get(const dl_sql_session *session, const char *key);

/* A numeric setting's value (checked when it was set); 0 when unset and unknown. */
int64_t dl_sql_session_get_i64(const dl_sql_session *session, const char *key);
double dl_sql_session_get_double(const dl_sql_session *session, const char *key);

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

/* Asks every statement running on session to stop, as dl_sql_result_interrupt does; statements
 * started afterwards run normally. One atomic store: safe from another thread and from a
 * signal handler. NULL-tolerant. */
void dl_sql_session_interrupt(dl_sql_session *session);

/* Whether dl_sql_session_interrupt was called since the session's last statement started (a
 * caller running several statements stops after the one the interrupt arrived in). */
bool dl_sql_session_is_interrupted(const dl_sql_session *session);

/* Releases the result and everything it holds (snapshots, files, memory). NULL-tolerant. */
void dl_sql_result_free(dl_sql_result *result);

#endif /* DL_SQL_SQL_ENGINE_H */
