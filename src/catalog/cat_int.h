/* SPDX-License-Identifier: Apache-2.0 */
/* The catalog part's private interface: the catalog object and helpers shared by its files. */
#ifndef DL_CATALOG_CAT_INT_H
#define DL_CATALOG_CAT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/hmap.h"
#include "catalog/catalog.h"

/* The store of a folder named by path (an element of dl_cat.path_stores). */
typedef struct dl_cat_path_store {
    dl_store *store;
} dl_cat_path_store;

struct dl_cat {
    const dl_allocator *alloc;
    dl_store *store;    /* rooted at the warehouse */
    char *root;         /* absolute warehouse path, in arena */
    dl_buf current;     /* the current schema, folded, NUL-terminated */
    dl_arena arena;     /* the root and the keys of path_stores */
    dl_hmap path_index; /* absolute folder -> index in path_stores (delta.`path` references) */
    dl_buf path_stores; /* dl_store * array, one per referenced folder */
    bool is_volatile;
    bool is_readonly;
};

/* A list of names in an arena, sorted byte-wise. */
typedef struct dl_cat_names {
    const char **names;
    size_t count;
} dl_cat_names;

/*
 * Validates a table or schema name (what: "table", "schema") and appends its folded
 * (ASCII-lowercased) form to out, NUL-terminated. SQL_BIND when it cannot be a folder name.
 */
DL_NODISCARD dl_status dl_cat_name_fold(const char *name, const char *what, dl_buf *out,
                                        dl_error *err);

/* Folds schema (NULL: the current one) and appends its folder to dir: "" for `default`, else
 * "<schema>.db/" (with the '/'). The folded name goes to out_name (may be NULL). NOT_FOUND
 * with a hint when the schema does not exist. */
DL_NODISCARD dl_status dl_cat_schema_dir(dl_cat *cat, const char *schema, dl_buf *dir,
                                         dl_buf *out_name, dl_error *err);

/* True when path (relative to the warehouse store) is a folder holding a _delta_log folder. */
bool dl_cat_is_table_dir(dl_store *store, const char *path);

/* The names of the table folders in the schema folder dir ("" or "x.db/"), in arena. */
DL_NODISCARD dl_status dl_cat_collect_tables(dl_cat *cat, const char *dir, dl_arena *arena,
                                             dl_cat_names *out, dl_error *err);

/* The folder (relative to the warehouse) of the existing table schema.name, appended to out
 * NUL-terminated; NOT_FOUND as dl_cat_table_open. */
DL_NODISCARD dl_status dl_cat_table_folder(dl_cat *cat, const char *schema, const char *name,
                                           dl_buf *out, dl_error *err);

/* A collector of names in a schema folder: dl_cat_collect_tables, dl_cat_collect_views. */
typedef dl_status (*dl_cat_collect_fn)(dl_cat *cat, const char *dir, dl_arena *arena,
                                       dl_cat_names *out, dl_error *err);

/* Calls visit with each name collect finds in schema's folder (NULL: the current one), in
 * order, stopping at the first error. */
DL_NODISCARD dl_status dl_cat_list_names(dl_cat *cat, const char *schema, dl_cat_collect_fn collect,
                                         dl_status (*visit)(void *vctx, const char *name,
                                                            dl_error *err),
                                         void *vctx, dl_error *err);

/* The names of the views in the schema folder dir ("" or "x.db/"), in arena, sorted
 * (cat_view.c). */
DL_NODISCARD dl_status dl_cat_collect_views(dl_cat *cat, const char *dir, dl_arena *arena,
                                            dl_cat_names *out, dl_error *err);

/* The names of the schemas (`default` included, without ".db"), in arena, sorted. */
DL_NODISCARD dl_status dl_cat_collect_schemas(dl_cat *cat, dl_arena *arena, dl_cat_names *out,
                                              dl_error *err);

/*
 * Writes into err's hint what the user may have meant by want among names: the similar ones
 * ("did you mean: sales, sales_2024?"), else all of them when few ("tables in schema 'x':
 * a, b"), else how many there are. what is "tables" or "schemas"; scope names where ("in
 * schema 'x'", or ""). extra (may be NULL or empty) is appended as a further sentence.
 */
void dl_cat_hint_names(dl_error *err, const char *want, const dl_cat_names *names, const char *what,
                       const char *scope, const char *extra);

/* True when a and b are close enough to suggest one for the other (case-insensitive edit
 * distance within a third of the length, or one a prefix of the other). */
bool dl_cat_name_is_similar(const char *a, const char *b);

/*
 * Appends to out the absolute, lexically normalised form of path (no "." or ".." parts, no
 * repeated or trailing '/'), resolving a relative path against the working directory and
 * accepting `file:/x` and `file:///x` URLs. INVALID_ARG for other URLs and empty paths; IO
 * when the working directory cannot be read.
 */
DL_NODISCARD dl_status dl_cat_path_absolute(const char *path, dl_buf *out, dl_error *err);

#endif /* DL_CATALOG_CAT_INT_H */
