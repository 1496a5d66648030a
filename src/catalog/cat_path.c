/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tables by path (delta.`/data/sales`). A store's paths are relative to its root and cannot
 * climb out of it, so each referenced folder gets a store rooted at the folder itself, kept
 * in a map from the absolute path until the catalog is freed (a statement that names the
 * same folder twice, or a session that reads it again, reuses it).
 */
#include <string.h>

#include "catalog/cat_int.h"

static dl_status
store_for(dl_cat *cat, const char *abs, dl_store **out, dl_error *err) {
    uint64_t index = 0;
    if (dl_hmap_get(&cat->path_index, dl_str_from_cstr(abs), &index)) {
        *out = ((const dl_cat_path_store *)(void *)cat->path_stores.data)[index].store;
        return DL_OK;
    }
    char *key = dl_arena_strndup(&cat->arena, abs, strlen(abs));
    DL_CHECK(key, err, DL_ERR_NOMEM, "out of memory opening table %s", abs);
    dl_store_local_options opts = {
        .alloc = cat->alloc, .is_volatile = cat->is_volatile, .is_readonly = cat->is_readonly};
    dl_store *store = NULL;
    DL_TRY(dl_store_local_new(abs, &opts, &store, err));
    index = cat->path_stores.len / sizeof(dl_cat_path_store);
    dl_cat_path_store entry = {.store = store};
    dl_status st = dl_buf_append(&cat->path_stores, &entry, sizeof(entry), err);
    if (st != DL_OK) {
        dl_store_free(store);
        return st;
    }
    st = dl_hmap_put(&cat->path_index, dl_str_from_cstr(key), index, err);
    if (st != DL_OK) {
        cat->path_stores.len -= sizeof(entry);
        dl_store_free(store);
        return st;
    }
    *out = store;
    return DL_OK;
}

static dl_status
check_table_folder(dl_store *store, const char *path, const char *abs, dl_error *err) {
    dl_store_info info;
    dl_status st = dl_store_stat(store, "", &info, err);
    if (st == DL_ERR_NOT_FOUND) {
        (void)dl_error_set(err, DL_ERR_NOT_FOUND, "table path '%s': %s does not exist", path, abs);
        dl_error_hint(err, "relative paths start from the working directory; check the path");
        return DL_ERR_NOT_FOUND;
    }
    DL_TRY_CTX(st, err, "table path '%s'", path);
    if (!info.is_dir) {
        (void)dl_error_set(err, DL_ERR_NOT_FOUND,
                           "table path '%s': %s is a file, not a Delta table folder", path, abs);
        dl_error_hint(err,
                      "a Delta table is a folder holding _delta_log/; to read one Parquet "
                      "file, write read_parquet('%s')",
                      path);
        return DL_ERR_NOT_FOUND;
    }
    if (!dl_cat_is_table_dir(store, "")) {
        (void)dl_error_set(err, DL_ERR_NOT_FOUND,
                           "table path '%s': no Delta table at %s (no _delta_log folder)", path,
                           abs);
        dl_error_hint(err,
                      "a Delta table is a folder holding _delta_log/; for Parquet files "
                      "alone, write read_parquet('%s/*.parquet')",
                      path);
        return DL_ERR_NOT_FOUND;
    }
    return DL_OK;
}

dl_status
dl_cat_path_folder(dl_cat *cat, const char *path, dl_store **out, dl_error *err) {
    DL_CHECK(out != NULL, err, DL_ERR_INVALID_ARG, "dl_cat_path_folder: NULL argument");
    *out = NULL;
    dl_buf abs;
    dl_buf_init(&abs, cat->alloc);
    dl_status st = dl_cat_path_absolute(path, &abs, err);
    if (st == DL_OK) {
        st = store_for(cat, dl_buf_cstr(&abs), out, err);
    }
    dl_store_info info;
    dl_error ignored;
    if (st == DL_OK && dl_store_stat(*out, "", &info, &ignored) == DL_OK && !info.is_dir) {
        st = dl_error_set(err, DL_ERR_NOT_FOUND,
                          "table path '%s': %s is a file, not a folder for a Delta table", path,
                          dl_buf_cstr(&abs));
        *out = NULL;
    }
    dl_buf_destroy(&abs);
    return st;
}

dl_status
dl_cat_path_open(dl_cat *cat, const char *path, dl_delta_table **out, dl_error *err) {
    DL_CHECK(out != NULL, err, DL_ERR_INVALID_ARG, "dl_cat_path_open: NULL argument");
    *out = NULL;
    dl_buf abs;
    dl_buf_init(&abs, cat->alloc);
    dl_store *store = NULL;
    dl_status st = dl_cat_path_absolute(path, &abs, err);
    if (st == DL_OK) {
        st = store_for(cat, dl_buf_cstr(&abs), &store, err);
    }
    if (st == DL_OK) {
        st = check_table_folder(store, path, dl_buf_cstr(&abs), err);
    }
    if (st == DL_OK) {
        st = dl_delta_table_open(store, "", cat->alloc, out, err);
    }
    dl_buf_destroy(&abs);
    return st;
}
