/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tables by name: <warehouse>/[<schema>.db/]<name> when that folder holds _delta_log.
 *
 * Lookup folds the name and tries that folder first (one stat). When it is absent, the schema
 * folder is listed once: a single folder matching the name case-insensitively is the table (a
 * folder another tool created with capitals); several are ambiguous; none is NOT_FOUND, and
 * the same listing feeds the hint.
 */
#include <stdio.h>
#include <string.h>

#include "catalog/cat_int.h"

bool
dl_cat_is_table_dir(dl_store *store, const char *path) {
    dl_buf log;
    dl_buf_init(&log, store->alloc);
    bool is_table = false;
    if (dl_buf_append_cstr(&log, path, NULL) == DL_OK &&
        dl_buf_append_cstr(&log, path[0] != '\0' ? "/_delta_log" : "_delta_log", NULL) == DL_OK) {
        dl_store_info info;
        is_table = dl_store_stat(store, dl_buf_cstr(&log), &info, NULL) == DL_OK && info.is_dir;
    }
    dl_buf_destroy(&log);
    return is_table;
}

dl_status
dl_cat_collect_tables(dl_cat *cat, const char *dir, dl_arena *arena, dl_cat_names *out,
                      dl_error *err) {
    out->names = NULL;
    out->count = 0;
    dl_store_listing listing;
    dl_status st = dl_store_list(cat->store, dir, NULL, 0, arena, &listing, err);
    if (st == DL_ERR_NOT_FOUND) {
        return DL_OK; /* the schema folder vanished: no tables */
    }
    DL_TRY(st);
    const char **names = dl_arena_alloc_array(arena, listing.count + 1, sizeof(*names));
    DL_CHECK(names, err, DL_ERR_NOMEM, "out of memory listing tables");
    size_t dir_len = strlen(dir);
    size_t n = 0;
    for (size_t i = 0; i < listing.count; i++) {
        const dl_store_entry *e = &listing.entries[i];
        dl_str name = dl_str_slice(e->path, dir_len, e->path.len - dir_len);
        if (!e->is_dir || name.len == 0 || name.ptr[0] == '.' ||
            !dl_cat_is_table_dir(cat->store, e->path.ptr)) {
            continue;
        }
        names[n++] = name.ptr; /* NUL-terminated: the listing's path is */
    }
    out->names = names;
    out->count = n; /* the listing is sorted, and so is a suffix of each path */
    return DL_OK;
}

static dl_status
name_in_other_schemas(dl_cat *cat, const char *folded, const char *skip_schema, dl_buf *out,
                      dl_error *err) {
    dl_arena arena;
    dl_arena_init(&arena, cat->alloc, 0);
    dl_cat_names schemas;
    dl_status st = dl_cat_collect_schemas(cat, &arena, &schemas, err);
    dl_buf path;
    dl_buf_init(&path, cat->alloc);
    for (size_t i = 0; st == DL_OK && i < schemas.count; i++) {
        const char *s = schemas.names[i];
        if (strcmp(s, skip_schema) == 0) {
            continue;
        }
        dl_buf_reset(&path);
        bool is_def = strcmp(s, DL_CAT_DEFAULT_SCHEMA) == 0;
        st = dl_buf_appendf(&path, err, "%s%s%s%s", is_def ? "" : s,
                            is_def ? "" : DL_CAT_SCHEMA_SUFFIX, is_def ? "" : "/", folded);
        if (st == DL_OK && dl_cat_is_table_dir(cat->store, dl_buf_cstr(&path))) {
            st = dl_buf_appendf(out, err, "%s%s.%s", out->len ? ", " : "", s, folded);
        }
    }
    (void)dl_buf_cstr(out);
    dl_buf_destroy(&path);
    dl_arena_destroy(&arena);
    return st;
}

typedef struct lookup {
    dl_cat *cat;
    dl_buf dir;    /* the schema folder, "" or "x.db/" */
    dl_buf schema; /* folded schema name */
    dl_buf name;   /* folded table name */
    dl_buf path;   /* the table folder found */
} lookup;

static void
lookup_init(lookup *lk, dl_cat *cat) {
    lk->cat = cat;
    dl_buf_init(&lk->dir, cat->alloc);
    dl_buf_init(&lk->schema, cat->alloc);
    dl_buf_init(&lk->name, cat->alloc);
    dl_buf_init(&lk->path, cat->alloc);
}

static void
lookup_destroy(lookup *lk) {
    dl_buf_destroy(&lk->dir);
    dl_buf_destroy(&lk->schema);
    dl_buf_destroy(&lk->name);
    dl_buf_destroy(&lk->path);
}

static dl_status
report_not_found(lookup *lk, const dl_cat_names *names, dl_error *err) {
    const char *schema = dl_buf_cstr(&lk->schema);
    const char *name = dl_buf_cstr(&lk->name);
    dl_buf others;
    dl_buf_init(&others, lk->cat->alloc);
    dl_buf extra;
    dl_buf_init(&extra, lk->cat->alloc);
    dl_status st = name_in_other_schemas(lk->cat, name, schema, &others, err);
    if (st == DL_OK && others.len > 0) {
        st = dl_buf_appendf(&extra, err, "a table of that name exists as %s", dl_buf_cstr(&others));
    } else if (st == DL_OK) {
        st = dl_buf_append_cstr(&extra,
                                "to read a table outside the warehouse, write delta.`/path`", err);
    }
    if (st == DL_OK) {
        dl_store_info info;
        bool is_folder =
            dl_store_stat(lk->cat->store, dl_buf_cstr(&lk->path), &info, NULL) == DL_OK &&
            info.is_dir;
        (void)dl_error_set(err, DL_ERR_NOT_FOUND,
                           "table '%s' not found in schema '%s': no Delta table at %s/%s (%s)",
                           name, schema, lk->cat->root, dl_buf_cstr(&lk->path),
                           is_folder ? "the folder has no _delta_log" : "no such folder");
        char scope[DL_ERROR_HINT_CAP];
        (void)snprintf(scope, sizeof(scope), "in schema '%s'", schema);
        dl_cat_hint_names(err, name, names, "tables", scope, dl_buf_cstr(&extra));
        st = DL_ERR_NOT_FOUND;
    }
    dl_buf_destroy(&extra);
    dl_buf_destroy(&others);
    return st;
}

/* Finds the folder of the table lk->name in lk->dir, into lk->path. */
static dl_status
find_table(lookup *lk, dl_error *err) {
    DL_TRY(dl_buf_append(&lk->path, lk->dir.data, lk->dir.len, err));
    DL_TRY(dl_buf_append(&lk->path, lk->name.data, lk->name.len, err));
    if (dl_cat_is_table_dir(lk->cat->store, dl_buf_cstr(&lk->path))) {
        return DL_OK;
    }
    dl_arena arena;
    dl_arena_init(&arena, lk->cat->alloc, 0);
    dl_cat_names names;
    dl_status st = dl_cat_collect_tables(lk->cat, dl_buf_cstr(&lk->dir), &arena, &names, err);
    const char *match = NULL;
    size_t n_match = 0;
    for (size_t i = 0; st == DL_OK && i < names.count; i++) {
        if (dl_str_eq_nocase(dl_str_from_cstr(names.names[i]), dl_buf_view(&lk->name))) {
            match = names.names[i];
            n_match++;
        }
    }
    if (st == DL_OK && n_match == 1) {
        dl_buf_reset(&lk->path);
        st = dl_buf_appendf(&lk->path, err, "%s%s", dl_buf_cstr(&lk->dir), match);
    } else if (st == DL_OK && n_match > 1) {
        st = dl_error_set(err, DL_ERR_SQL_BIND,
                          "table name '%s' is ambiguous: %zu folders in %s/%s match it when case "
                          "is ignored",
                          dl_buf_cstr(&lk->name), n_match, lk->cat->root, dl_buf_cstr(&lk->dir));
        dl_error_hint(err, "rename the folders so that their names differ in more than case");
    } else if (st == DL_OK) {
        st = report_not_found(lk, &names, err);
    }
    dl_arena_destroy(&arena);
    return st;
}

dl_status
dl_cat_table_folder(dl_cat *cat, const char *schema, const char *name, dl_buf *out, dl_error *err) {
    lookup lk;
    lookup_init(&lk, cat);
    dl_status st = dl_cat_name_fold(name, "table", &lk.name, err);
    if (st == DL_OK) {
        st = dl_cat_schema_dir(cat, schema, &lk.dir, &lk.schema, err);
    }
    if (st == DL_OK) {
        st = find_table(&lk, err);
    }
    if (st == DL_OK) {
        st = dl_buf_append(out, lk.path.data, lk.path.len, err);
        (void)dl_buf_cstr(out);
    }
    lookup_destroy(&lk);
    return st;
}

dl_status
dl_cat_table_open(dl_cat *cat, const char *schema, const char *name, dl_delta_table **out,
                  dl_error *err) {
    DL_CHECK(out != NULL, err, DL_ERR_INVALID_ARG, "dl_cat_table_open: NULL argument");
    *out = NULL;
    dl_buf folder;
    dl_buf_init(&folder, cat->alloc);
    dl_status st = dl_cat_table_folder(cat, schema, name, &folder, err);
    if (st == DL_OK) {
        st = dl_delta_table_open(cat->store, dl_buf_cstr(&folder), cat->alloc, out, err);
    }
    dl_buf_destroy(&folder);
    return st;
}

dl_status
dl_cat_table_location(dl_cat *cat, const char *schema, const char *name, dl_buf *out,
                      dl_error *err) {
    lookup lk;
    lookup_init(&lk, cat);
    dl_status st = dl_cat_name_fold(name, "table", &lk.name, err);
    if (st == DL_OK) {
        st = dl_cat_schema_dir(cat, schema, &lk.dir, &lk.schema, err);
    }
    if (st == DL_OK) {
        st = dl_buf_appendf(out, err, "%s%s", dl_buf_cstr(&lk.dir), dl_buf_cstr(&lk.name));
        (void)dl_buf_cstr(out);
    }
    lookup_destroy(&lk);
    return st;
}

dl_status
dl_cat_list_names(dl_cat *cat, const char *schema, dl_cat_collect_fn collect,
                  dl_status (*visit)(void *vctx, const char *name, dl_error *err), void *vctx,
                  dl_error *err) {
    dl_buf dir;
    dl_buf_init(&dir, cat->alloc);
    dl_arena arena;
    dl_arena_init(&arena, cat->alloc, 0);
    dl_cat_names names = {0};
    dl_status st = dl_cat_schema_dir(cat, schema, &dir, NULL, err);
    if (st == DL_OK) {
        st = collect(cat, dl_buf_cstr(&dir), &arena, &names, err);
    }
    for (size_t i = 0; st == DL_OK && i < names.count; i++) {
        st = visit(vctx, names.names[i], err);
    }
    dl_arena_destroy(&arena);
    dl_buf_destroy(&dir);
    return st;
}

dl_status
dl_cat_table_list(dl_cat *cat, const char *schema,
                  dl_status (*visit)(void *vctx, const char *name, dl_error *err), void *vctx,
                  dl_error *err) {
    return dl_cat_list_names(cat, schema, dl_cat_collect_tables, visit, vctx, err);
}
