/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The catalog part's interface: names to Delta tables, over a warehouse folder laid out the
 * way Spark lays out spark-warehouse.
 *
 * Layout (Spark's default catalog with a file-system warehouse, spark.sql.warehouse.dir):
 *
 *   <warehouse>/                     the warehouse root; also the schema `default`
 *   <warehouse>/<table>/_delta_log/  a table of schema `default`
 *   <warehouse>/<schema>.db/         any other schema (CREATE SCHEMA makes the folder)
 *   <warehouse>/<schema>.db/<table>/_delta_log/
 *
 * A table is a folder holding a `_delta_log` folder; anything else in the warehouse is
 * ignored. Names are case-insensitive as in Spark: the catalog lowercases them (ASCII letters
 * only; other characters are kept as written) and new folders get the lowercased name. A table
 * folder written with capitals by another tool is still found when exactly one folder matches
 * case-insensitively. Names that cannot be folder names ('/', NUL, "." and "..", empty, or
 * starting with '.') are refused with DL_ERR_SQL_BIND.
 *
 * Path references (delta.`/data/sales`): an absolute or relative path (relative to the
 * process's working directory) or a `file:` URL names a table folder anywhere on the local
 * file system. Each distinct folder gets its own store, kept until the catalog is freed.
 *
 * Errors say what was looked for and where: "table 'slaes' not found in schema 'default':
 * no Delta table at /data/wh/slaes (no _delta_log folder)", with a hint naming similar tables,
 * the same name in another schema, or the tables there are.
 *
 * Lifetimes: tables opened through the catalog borrow a store the catalog owns, so every table
 * and every snapshot taken from one must be released before dl_cat_free.
 * Threads: a catalog is used by one thread at a time (the session's).
 */
#ifndef DL_CATALOG_CATALOG_H
#define DL_CATALOG_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "base/alloc.h"
#include "base/buf.h"
#include "base/compiler.h"
#include "base/error.h"
#include "delta/delta.h"
#include "sql/bind/sql_session.h"
#include "store/store.h"

/* The name of the schema that is the warehouse root itself. */
#define DL_CAT_DEFAULT_SCHEMA "default"

/* The suffix of a schema folder. */
#define DL_CAT_SCHEMA_SUFFIX ".db"

typedef struct dl_cat dl_cat;

typedef struct dl_cat_options {
    const dl_allocator *alloc; /* NULL = libc */
    bool create_if_missing;    /* create the warehouse folder (and parents) when absent */
    bool is_volatile;          /* stores skip fsync (tests and scratch data only) */
    bool is_readonly;          /* stores refuse every change (DL_ERR_READONLY) */
} dl_cat_options;

/*
 * Opens the warehouse folder (relative paths are resolved against the working directory
 * now). NOT_FOUND when it does not exist and opts->create_if_missing is false; IO when it is
 * not a folder. The current schema starts as `default`. opts may be NULL. Free with
 * dl_cat_free.
 */
DL_NODISCARD dl_status dl_cat_new(const char *warehouse, const dl_cat_options *opts, dl_cat **out,
                                  dl_error *err);

/* Frees the catalog and every store it opened. NULL-tolerant. Assumes: no table or snapshot
 * opened through it is still alive. */
void dl_cat_free(dl_cat *cat);

/* The warehouse root as an absolute path without a trailing '/'. Valid until dl_cat_free. */
const char *dl_cat_root(const dl_cat *cat);

/* The store rooted at the warehouse folder (the session's store). Owned by the catalog. */
dl_store *dl_cat_store(const dl_cat *cat);

/* Fills out with callbacks into cat (for dl_sql_session_config.catalog). */
void dl_cat_sql_catalog(dl_cat *cat, dl_sql_catalog *out);

/* ---- the operations behind dl_sql_catalog (same contracts as its callbacks) ---------------- */

/*
 * Opens schema.name (schema NULL: the current schema). NOT_FOUND naming the table, the folder
 * searched and a hint; SQL_BIND for a name that cannot be a folder or that matches several
 * folders case-insensitively. *out borrows the warehouse store: free it before the catalog.
 */
DL_NODISCARD dl_status dl_cat_table_open(dl_cat *cat, const char *schema, const char *name,
                                         dl_delta_table **out, dl_error *err);

/*
 * Opens the table at a path: absolute, relative to the working directory, or a `file:` URL
 * (file:/x, file:///x). NOT_FOUND when the folder does not exist or holds no _delta_log.
 */
DL_NODISCARD dl_status dl_cat_path_open(dl_cat *cat, const char *path, dl_delta_table **out,
                                        dl_error *err);

/*
 * The store rooted at a table path (as dl_cat_path_open takes it), for creating a table there
 * (CREATE TABLE delta.`/path`): the folder need not exist (the first commit creates it), but
 * a file at the path is NOT_FOUND with a message. The store is the catalog's.
 */
DL_NODISCARD dl_status dl_cat_path_folder(dl_cat *cat, const char *path, dl_store **out,
                                          dl_error *err);

/*
 * Appends to out (NUL-terminated) the folder, relative to the warehouse store, that the table
 * schema.name has or would have: "name" in `default`, "schema.db/name" otherwise, lowercased.
 * NOT_FOUND when the schema does not exist; whether the table exists is not checked.
 */
DL_NODISCARD dl_status dl_cat_table_location(dl_cat *cat, const char *schema, const char *name,
                                             dl_buf *out, dl_error *err);

/* CREATE SCHEMA: makes <warehouse>/<schema>.db. EXISTS when it exists (also for `default`)
 * unless if_not_exists. */
DL_NODISCARD dl_status dl_cat_schema_create(dl_cat *cat, const char *schema, bool if_not_exists,
                                            dl_error *err);

/* USE schema: NOT_FOUND (with the schemas there are as a hint) when it does not exist. */
DL_NODISCARD dl_status dl_cat_schema_use(dl_cat *cat, const char *schema, dl_error *err);

/* The current schema's name, lowercased. Valid until the next dl_cat_schema_use. */
const char *dl_cat_schema_current(const dl_cat *cat);

/* Visits the tables of schema (NULL: the current one), sorted by name. NOT_FOUND when the
 * schema does not exist. A visit that fails stops the listing with its status. */
DL_NODISCARD dl_status dl_cat_table_list(dl_cat *cat, const char *schema,
                                         dl_status (*visit)(void *vctx, const char *name,
                                                            dl_error *err),
                                         void *vctx, dl_error *err);

/* Visits `default` and every other schema, sorted by name. */
DL_NODISCARD dl_status dl_cat_schema_list(dl_cat *cat,
                                          dl_status (*visit)(void *vctx, const char *name,
                                                             dl_error *err),
                                          void *vctx, dl_error *err);

/* ---- views (cat_view.c): a definition's bytes per schema.name, written atomically ---------- */

/* Appends the definition of view schema.name to out; NOT_FOUND when there is none. */
DL_NODISCARD dl_status dl_cat_view_read(dl_cat *cat, const char *schema, const char *name,
                                        dl_buf *out, dl_error *err);

/* Writes the definition: is_replace replaces one there atomically, else it is created only if
 * absent (EXISTS otherwise, atomic between processes). */
DL_NODISCARD dl_status dl_cat_view_write(dl_cat *cat, const char *schema, const char *name,
                                         const char *text, size_t len, bool is_replace,
                                         dl_error *err);

/* Deletes the definition; NOT_FOUND when there is none. */
DL_NODISCARD dl_status dl_cat_view_drop(dl_cat *cat, const char *schema, const char *name,
                                        dl_error *err);

/* Visits the views of schema (NULL: the current one), sorted by name. */
DL_NODISCARD dl_status dl_cat_view_list(dl_cat *cat, const char *schema,
                                        dl_status (*visit)(void *vctx, const char *name,
                                                           dl_error *err),
                                        void *vctx, dl_error *err);

/* ---- DROP (cat_drop.c) ------------------------------------------------------------------- */

/* DROP TABLE: deletes the table's folder and everything in it (links removed, never
 * followed; a folder that is a link is refused). NOT_FOUND as dl_cat_table_open. */
DL_NODISCARD dl_status dl_cat_table_drop(dl_cat *cat, const char *schema, const char *name,
                                         dl_error *err);

/* DROP SCHEMA: deletes <schema>.db when it holds only tables, views and deltalite's temporary
 * files (else UNSUPPORTED naming the first other entry); without is_cascade a schema with a
 * table or view is SCHEMA_NOT_EMPTY (SQL_BIND). `default` cannot be dropped. The current
 * schema becomes `default` when it was the one dropped. */
DL_NODISCARD dl_status dl_cat_schema_drop(dl_cat *cat, const char *schema, bool is_cascade,
                                          dl_error *err);

#endif /* DL_CATALOG_CATALOG_H */
