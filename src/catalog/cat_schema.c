/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Schemas (Spark's databases): `default` is the warehouse root, any other schema s is the
 * folder <warehouse>/s.db, which CREATE SCHEMA makes and USE requires.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/cat_int.h"

static bool
is_default(const char *folded) {
    return strcmp(folded, DL_CAT_DEFAULT_SCHEMA) == 0;
}

/* Appends the folder of the folded schema name (without a trailing '/'). */
static dl_status
append_schema_folder(const char *folded, dl_buf *out, dl_error *err) {
    DL_TRY(dl_buf_append_cstr(out, folded, err));
    DL_TRY(dl_buf_append_cstr(out, DL_CAT_SCHEMA_SUFFIX, err));
    (void)dl_buf_cstr(out);
    return DL_OK;
}

static bool
folder_exists(dl_store *store, const char *path) {
    dl_store_info info;
    dl_status st = dl_store_stat(store, path, &info, NULL);
    return st == DL_OK && info.is_dir;
}

static void
hint_schemas(dl_cat *cat, dl_error *err, const char *want) {
    dl_arena arena;
    dl_arena_init(&arena, cat->alloc, 0);
    dl_cat_names names = {0};
    if (dl_cat_collect_schemas(cat, &arena, &names, NULL) == DL_OK) {
        dl_cat_hint_names(err, want, &names, "schemas", "", "CREATE SCHEMA makes a new one");
    }
    dl_arena_destroy(&arena);
}

dl_status
dl_cat_schema_dir(dl_cat *cat, const char *schema, dl_buf *dir, dl_buf *out_name, dl_error *err) {
    dl_buf name;
    dl_buf_init(&name, cat->alloc);
    dl_buf folder;
    dl_buf_init(&folder, cat->alloc);
    dl_status st = schema ? dl_cat_name_fold(schema, "schema", &name, err)
                          : dl_buf_append_cstr(&name, dl_cat_schema_current(cat), err);
    const char *folded = dl_buf_cstr(&name);
    if (st == DL_OK && !is_default(folded)) {
        st = append_schema_folder(folded, &folder, err);
        if (st == DL_OK && !folder_exists(cat->store, dl_buf_cstr(&folder))) {
            st = dl_error_set(err, DL_ERR_NOT_FOUND, "schema '%s' not found: no folder %s/%s",
                              folded, cat->root, dl_buf_cstr(&folder));
            hint_schemas(cat, err, folded);
        }
        if (st == DL_OK) {
            st = dl_buf_append_byte(&folder, '/', err);
        }
    }
    if (st == DL_OK) {
        st = dl_buf_append(dir, folder.data, folder.len, err);
        (void)dl_buf_cstr(dir);
    }
    if (st == DL_OK && out_name != NULL) {
        st = dl_buf_append_cstr(out_name, folded, err);
        (void)dl_buf_cstr(out_name);
    }
    dl_buf_destroy(&folder);
    dl_buf_destroy(&name);
    return st;
}

dl_status
dl_cat_schema_create(dl_cat *cat, const char *schema, bool if_not_exists, dl_error *err) {
    dl_buf name;
    dl_buf_init(&name, cat->alloc);
    dl_buf folder;
    dl_buf_init(&folder, cat->alloc);
    dl_status st = dl_cat_name_fold(schema, "schema", &name, err);
    const char *folded = dl_buf_cstr(&name);
    bool exists = st == DL_OK && is_default(folded);
    if (st == DL_OK && !exists) {
        st = append_schema_folder(folded, &folder, err);
        exists = st == DL_OK && folder_exists(cat->store, dl_buf_cstr(&folder));
    }
    if (st == DL_OK && exists && !if_not_exists) {
        st = dl_error_set(err, DL_ERR_EXISTS, "schema '%s' already exists", folded);
        dl_error_hint(err, "write CREATE SCHEMA IF NOT EXISTS to accept an existing schema");
    } else if (st == DL_OK && !exists) {
        st = dl_store_mkdirs(cat->store, dl_buf_cstr(&folder), err);
        if (st != DL_OK) {
            dl_error_prefix(err, "cannot create schema '%s'", folded);
        }
    }
    dl_buf_destroy(&folder);
    dl_buf_destroy(&name);
    return st;
}

dl_status
dl_cat_schema_use(dl_cat *cat, const char *schema, dl_error *err) {
    DL_CHECK(schema != NULL, err, DL_ERR_INVALID_ARG, "USE: schema name is NULL");
    dl_buf dir;
    dl_buf_init(&dir, cat->alloc);
    dl_buf name;
    dl_buf_init(&name, cat->alloc);
    dl_status st = dl_cat_schema_dir(cat, schema, &dir, &name, err);
    if (st == DL_OK) {
        dl_buf_move(&cat->current, &name);
    }
    dl_buf_destroy(&name);
    dl_buf_destroy(&dir);
    return st;
}

static int
compare_names(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

dl_status
dl_cat_collect_schemas(dl_cat *cat, dl_arena *arena, dl_cat_names *out, dl_error *err) {
    out->names = NULL;
    out->count = 0;
    dl_store_listing listing;
    DL_TRY(dl_store_list(cat->store, "", NULL, 0, arena, &listing, err));
    const char **names = dl_arena_alloc_array(arena, listing.count + 1, sizeof(*names));
    DL_CHECK(names, err, DL_ERR_NOMEM, "out of memory listing schemas");
    size_t n = 0;
    names[n++] = DL_CAT_DEFAULT_SCHEMA;
    size_t suffix = strlen(DL_CAT_SCHEMA_SUFFIX);
    for (size_t i = 0; i < listing.count; i++) {
        const dl_store_entry *e = &listing.entries[i];
        dl_str path = e->path;
        if (!e->is_dir || path.len <= suffix || path.ptr[0] == '.' ||
            !dl_str_ends_with(path, DL_STR(DL_CAT_SCHEMA_SUFFIX)) ||
            dl_cat_is_table_dir(cat->store, path.ptr)) {
            continue;
        }
        char *name = dl_arena_strndup(arena, path.ptr, path.len - suffix);
        DL_CHECK(name, err, DL_ERR_NOMEM, "out of memory listing schemas");
        if (!is_default(name)) {
            names[n++] = name;
        }
    }
    qsort(names, n, sizeof(*names), compare_names);
    out->names = names;
    out->count = n;
    return DL_OK;
}

dl_status
dl_cat_schema_list(dl_cat *cat, dl_status (*visit)(void *vctx, const char *name, dl_error *err),
                   void *vctx, dl_error *err) {
    dl_arena arena;
    dl_arena_init(&arena, cat->alloc, 0);
    dl_cat_names names;
    dl_status st = dl_cat_collect_schemas(cat, &arena, &names, err);
    for (size_t i = 0; st == DL_OK && i < names.count; i++) {
        st = visit(vctx, names.names[i], err);
    }
    dl_arena_destroy(&arena);
    return st;
}
