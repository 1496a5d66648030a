/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Persistent views: one file per view, <schema folder>/.views/<name>.json, holding the
 * definition the SQL engine encodes (its query text, the columns captured at creation, ...;
 * the catalog stores the bytes and never reads them).
 *
 * Invariants:
 * - The folder's name begins with '.', which no table or schema name may (cat_name.c), so it
 *   never collides with a table folder, and listings of tables and schemas pass it over.
 * - A file appears whole or not at all: it is written through the store's write-then-rename
 *   (a temporary ".<name>.json.<hex>.tmp" renamed into place, then the folder synced). CREATE
 *   VIEW without OR REPLACE puts it only if absent (two sessions creating one view: exactly
 *   one wins, EXISTS for the other). A crash before the rename leaves only the temporary
 *   file, whose name begins with '.': it is not a view, and listings skip it.
 * - A name is folded (ASCII-lowercased) as a table's: views and tables share a namespace,
 *   which the SQL engine checks (a view may not take a table's name, nor a table a view's).
 */
#include <string.h>

#include "catalog/cat_int.h"

#define VIEW_FOLDER ".views/"
#define VIEW_SUFFIX ".json"

/* Where a view's file is: its path in the warehouse store, and the folded schema and name
 * for messages. */
typedef struct view_loc {
    dl_buf path;
    dl_buf schema;
    dl_buf name;
} view_loc;

static void
view_loc_destroy(view_loc *loc) {
    dl_buf_destroy(&loc->name);
    dl_buf_destroy(&loc->schema);
    dl_buf_destroy(&loc->path);
}

/* Initialises loc (destroy it whatever this returns) with the file of schema.name. */
static dl_status
view_loc_init(view_loc *loc, dl_cat *cat, const char *schema, const char *name, dl_error *err) {
    dl_buf_init(&loc->path, cat->alloc);
    dl_buf_init(&loc->schema, cat->alloc);
    dl_buf_init(&loc->name, cat->alloc);
    DL_TRY(dl_cat_name_fold(name, "view", &loc->name, err));
    DL_TRY(dl_cat_schema_dir(cat, schema, &loc->path, &loc->schema, err));
    DL_TRY(dl_buf_appendf(&loc->path, err, "%s%s%s", VIEW_FOLDER, dl_buf_cstr(&loc->name),
                          VIEW_SUFFIX));
    (void)dl_buf_cstr(&loc->schema);
    return DL_OK;
}

/* The NOT_FOUND error for the view at loc. */
static dl_status
view_not_found(const view_loc *loc, dl_error *err) {
    (void)dl_error_set(err, DL_ERR_NOT_FOUND, "view '%s' not found in schema '%s'",
                       (const char *)loc->name.data, (const char *)loc->schema.data);
    return DL_ERR_NOT_FOUND;
}

dl_status
dl_cat_view_read(dl_cat *cat, const char *schema, const char *name, dl_buf *out, dl_error *err) {
    view_loc loc;
    dl_status st = view_loc_init(&loc, cat, schema, name, err);
    if (st == DL_OK) {
        st = dl_store_read_all(cat->store, dl_buf_cstr(&loc.path), out, err);
        if (st == DL_ERR_NOT_FOUND) {
            st = view_not_found(&loc, err);
        } else if (st != DL_OK) {
            dl_error_prefix(err, "cannot read view '%s'", dl_buf_cstr(&loc.name));
        }
    }
    view_loc_destroy(&loc);
    return st;
}

dl_status
dl_cat_view_write(dl_cat *cat, const char *schema, const char *name, const char *text, size_t len,
                  bool is_replace, dl_error *err) {
    view_loc loc;
    dl_status st = view_loc_init(&loc, cat, schema, name, err);
    if (st == DL_OK) {
        const char *p = dl_buf_cstr(&loc.path);
        st = is_replace ? dl_store_write(cat->store, p, text, len, err)
                        : dl_store_put_if_absent(cat->store, p, text, len, err);
        if (st == DL_ERR_EXISTS) {
            (void)dl_error_set(err, DL_ERR_EXISTS, "view '%s' already exists in schema '%s'",
                               dl_buf_cstr(&loc.name), dl_buf_cstr(&loc.schema));
        } else if (st != DL_OK) {
            dl_error_prefix(err, "cannot write view '%s'", dl_buf_cstr(&loc.name));
        }
    }
    view_loc_destroy(&loc);
    return st;
}

dl_status
dl_cat_view_drop(dl_cat *cat, const char *schema, const char *name, dl_error *err) {
    view_loc loc;
    dl_status st = view_loc_init(&loc, cat, schema, name, err);
    if (st == DL_OK) {
        st = dl_store_remove(cat->store, dl_buf_cstr(&loc.path), err);
        if (st == DL_ERR_NOT_FOUND) {
            st = view_not_found(&loc, err);
        } else if (st != DL_OK) {
            dl_error_prefix(err, "cannot drop view '%s'", dl_buf_cstr(&loc.name));
        }
    }
    view_loc_destroy(&loc);
    return st;
}

dl_status
dl_cat_collect_views(dl_cat *cat, const char *dir, dl_arena *arena, dl_cat_names *out,
                     dl_error *err) {
    out->names = NULL;
    out->count = 0;
    dl_buf prefix;
    dl_buf_init(&prefix, cat->alloc);
    dl_status st = dl_buf_appendf(&prefix, err, "%s%s", dir, VIEW_FOLDER);
    dl_store_listing listing = {0};
    if (st == DL_OK) {
        st = dl_store_list(cat->store, dl_buf_cstr(&prefix), NULL, 0, arena, &listing, err);
    }
    size_t skip = prefix.len;
    dl_buf_destroy(&prefix);
    if (st == DL_ERR_NOT_FOUND) {
        return DL_OK; /* no view was ever made in this schema */
    }
    DL_TRY(st);
    const char **names = dl_arena_alloc_array(arena, listing.count + 1, sizeof(*names));
    DL_CHECK(names, err, DL_ERR_NOMEM, "out of memory listing views");
    size_t n = 0;
    for (size_t i = 0; i < listing.count; i++) {
        const dl_store_entry *e = &listing.entries[i];
        dl_str file = dl_str_slice(e->path, skip, e->path.len - skip);
        if (e->is_dir || file.len <= strlen(VIEW_SUFFIX) || file.ptr[0] == '.' ||
            !dl_str_ends_with(file, DL_STR(VIEW_SUFFIX))) {
            continue; /* temporary files of a write that never finished, and strangers */
        }
        names[n] = dl_arena_strndup(arena, file.ptr, file.len - strlen(VIEW_SUFFIX));
        DL_CHECK(names[n], err, DL_ERR_NOMEM, "out of memory listing views");
        n++;
    }
    out->names = names;
    out->count = n; /* sorted: the listing is, and the suffix is the same on every name */
    return DL_OK;
}

dl_status
dl_cat_view_list(dl_cat *cat, const char *schema,
                 dl_status (*visit)(void *vctx, const char *name, dl_error *err), void *vctx,
                 dl_error *err) {
    return dl_cat_list_names(cat, schema, dl_cat_collect_views, visit, vctx, err);
}
