/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sessions and the catalog interface: what a statement is bound against. A session holds the
 * catalog (names to tables), the store, the allocators and pool statements run with, and the
 * settings (SET/RESET). The binder and the Delta statements read it; the part's face
 * (sql_engine.h) hands it to callers.
 *
 * Layering: `sql` sits above `catalog` in the link order (docs/design-notes.md), so the
 * engine cannot call the catalog part directly; the catalog fills a dl_sql_catalog (a table
 * of callbacks) and hands it to the session. Tests may supply their own.
 */
#ifndef DL_SQL_BIND_SQL_SESSION_H
#define DL_SQL_BIND_SQL_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/buf.h"
#include "base/compiler.h"
#include "base/error.h"
#include "base/pool.h"
#include "delta/delta.h"
#include "store/store.h"
#include "vector/vector.h"

/* ---- statement parameters ----------------------------------------------------------------- */

/*
 * Values for a statement's parameter markers (a prepared statement's bindings). values[i] is a
 * one-row vector whose type becomes the marker's (as Spark's parameterized queries substitute a
 * literal): for the ? marker i + 1 when names is NULL, else for the marker :names[i] (names
 * match exactly). A NULL values[i] is unbound; a marker without a value fails to bind with
 * UNBOUND_SQL_PARAMETER naming it.
 */
typedef struct dl_sql_params {
    dl_vector *const *values;
    const dl_str *names;
    int32_t n;
} dl_sql_params;

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
    /* Persistent views: a definition's bytes (the engine's encoding, sql_view.c) per
     * schema.name. read: NOT_FOUND when none; write: atomic, is_replace false creates only if
     * absent (EXISTS); drop: NOT_FOUND when none; list: names sorted. NULL: no views. */
    dl_status (*read_view)(void *ctx, const char *schema, const char *name, dl_buf *out,
                           dl_error *err);
    dl_status (*write_view)(void *ctx, const char *schema, const char *name, const char *text,
                            size_t len, bool is_replace, dl_error *err);
    dl_status (*drop_view)(void *ctx, const char *schema, const char *name, dl_error *err);
    dl_status (*list_views)(void *ctx, const char *schema,
                            dl_status (*visit)(void *vctx, const char *name, dl_error *err),
                            void *vctx, dl_error *err);
    /* DROP TABLE (deletes a managed table's folder; NOT_FOUND when none) and DROP SCHEMA. */
    dl_status (*drop_table)(void *ctx, const char *schema, const char *name, dl_error *err);
    dl_status (*drop_schema)(void *ctx, const char *schema, bool is_cascade, dl_error *err);
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

/* A key deltalite knows (checks and acts on), as SET -v shows it: static strings. */
typedef struct dl_sql_setting_doc {
    const char *key;
    const char *default_value;
    const char *meaning;
    const char *since; /* the Spark release that brought it, or "" (Delta's and Hadoop's keys: Spark
                          lists none) */
} dl_sql_setting_doc;

/* The i-th known key into *out, in the table's order; false past the end. */
bool dl_sql_session_known(size_t i, dl_sql_setting_doc *out);

/* A numeric setting's value (checked when it was set); 0 when unset and unknown. */
int64_t dl_sql_session_get_i64(const dl_sql_session *session, const char *key);
double dl_sql_session_get_double(const dl_sql_session *session, const char *key);

/* Asks every statement running on session to stop, as dl_sql_result_interrupt does; statements
 * started afterwards run normally. One atomic store: safe from another thread and from a
 * signal handler. NULL-tolerant. */
void dl_sql_session_interrupt(dl_sql_session *session);

/* ---- temporary relations -------------------------------------------------------------------- */

/*
 * A temporary relation: rows held in memory under a name for the session's statements (the C
 * API's deltalite_register_arrow_stream). As Spark's temporary views, an unqualified name is
 * looked up among them before the catalog, so one hides a table of the same name, which stays
 * reachable qualified (default.t); statements that change, describe or vacuum a table refuse
 * the name. The rows are batches whose vectors are shared, never written, so any number of
 * statements (and both passes of a MERGE) read them. A relation is refcounted: a statement
 * reading one keeps it until the statement is freed.
 */
typedef struct dl_sql_temp_rel dl_sql_temp_rel;

/* A new empty relation named name (copied); one reference. */
DL_NODISCARD dl_status dl_sql_temp_rel_new(const dl_allocator *alloc, const char *name,
                                           dl_sql_temp_rel **out, dl_error *err);
/* Drops a reference (the creator's, before registering); NULL-tolerant. */
void dl_sql_temp_rel_free(dl_sql_temp_rel *rel);
/* The arena that lives as long as rel, for its schema's types. */
dl_arena *dl_sql_temp_rel_arena(dl_sql_temp_rel *rel);
/* Sets the STRUCT schema (one field per column), built in rel's arena; before any append. */
void dl_sql_temp_rel_set_schema(dl_sql_temp_rel *rel, const dl_type *schema);
/* Appends rows [0, n) of cols (one vector per column, of the schema's types, at least n
 * long), taking references and cutting them into batches of DL_BATCH_CAPACITY rows (shared
 * slices; dl_vec_slice). */
DL_NODISCARD dl_status dl_sql_temp_rel_append(dl_sql_temp_rel *rel, dl_vector *const *cols,
                                              int64_t n, dl_error *err);
/* Gives rel (the caller's reference) to session, replacing a relation of the same name;
 * on failure rel is freed. */
DL_NODISCARD dl_status dl_sql_session_register(dl_sql_session *session, dl_sql_temp_rel *rel,
                                               dl_error *err);
/* Removes the relation named name (no case); true when there was one. */
bool dl_sql_session_unregister(dl_sql_session *session, const char *name);

#endif /* DL_SQL_BIND_SQL_SESSION_H */
