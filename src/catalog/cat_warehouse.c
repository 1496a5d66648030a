/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The catalog object: the warehouse store, the current schema, the stores of path
 * references, and the dl_sql_catalog callbacks that hand all of it to the SQL engine.
 */
#include <string.h>

#include "catalog/cat_int.h"

static dl_status
open_root(dl_cat *cat, const char *warehouse, bool create, dl_error *err) {
    dl_buf abs;
    dl_buf_init(&abs, cat->alloc);
    dl_status st = dl_cat_path_absolute(warehouse, &abs, err);
    if (st == DL_OK) {
        cat->root = dl_arena_strndup(&cat->arena, (const char *)abs.data, abs.len);
        st = cat->root ? DL_OK
                       : dl_error_set(err, DL_ERR_NOMEM, "out of memory opening a warehouse");
    }
    dl_buf_destroy(&abs);
    DL_TRY(st);
    dl_store_local_options opts = {
        .alloc = cat->alloc, .is_volatile = cat->is_volatile, .is_readonly = cat->is_readonly};
    DL_TRY(dl_store_local_new(cat->root, &opts, &cat->store, err));
    dl_store_info info;
    st = dl_store_stat(cat->store, "", &info, err);
    if (st == DL_ERR_NOT_FOUND && create) {
        DL_TRY_CTX(dl_store_mkdirs(cat->store, "", err), err, "cannot create the warehouse %s",
                   cat->root);
        return DL_OK;
    }
    if (st == DL_ERR_NOT_FOUND) {
        (void)dl_error_set(err, DL_ERR_NOT_FOUND, "warehouse folder %s does not exist", cat->root);
        dl_error_hint(err, "create the folder first, or check the path");
        return DL_ERR_NOT_FOUND;
    }
    DL_TRY_CTX(st, err, "cannot open the warehouse %s", cat->root);
    if (!info.is_dir) {
        (void)dl_error_set(err, DL_ERR_IO, "warehouse %s is a file, not a folder", cat->root);
        dl_error_hint(err, "a warehouse is a folder of Delta tables; pass a folder");
        return DL_ERR_IO;
    }
    return DL_OK;
}

dl_status
dl_cat_new(const char *warehouse, const dl_cat_options *opts, dl_cat **out, dl_error *err) {
    DL_CHECK(warehouse != NULL && out != NULL, err, DL_ERR_INVALID_ARG,
             "dl_cat_new: NULL argument");
    dl_cat_options defaults = {0};
    opts = opts ? opts : &defaults;
    const dl_allocator *alloc = opts->alloc ? opts->alloc : dl_allocator_default();
    dl_cat *cat = dl_mem_alloc_zero(alloc, sizeof(*cat));
    DL_CHECK(cat, err, DL_ERR_NOMEM, "out of memory opening a warehouse");
    cat->alloc = alloc;
    cat->is_volatile = opts->is_volatile;
    cat->is_readonly = opts->is_readonly;
    dl_arena_init(&cat->arena, alloc, 0);
    dl_buf_init(&cat->current, alloc);
    dl_hmap_init(&cat->path_index, alloc);
    dl_buf_init(&cat->path_stores, alloc);
    dl_status st = dl_buf_append_cstr(&cat->current, DL_CAT_DEFAULT_SCHEMA, err);
    if (st == DL_OK) {
        (void)dl_buf_cstr(&cat->current);
        st = open_root(cat, warehouse, opts->create_if_missing, err);
    }
    if (st != DL_OK) {
        dl_cat_free(cat);
        return st;
    }
    *out = cat;
    return DL_OK;
}

void
dl_cat_free(dl_cat *cat) {
    if (cat == NULL) {
        return;
    }
    const dl_cat_path_store *stores = (const dl_cat_path_store *)(void *)cat->path_stores.data;
    for (size_t i = 0; i < cat->path_stores.len / sizeof(dl_cat_path_store); i++) {
        dl_store_free(stores[i].store);
    }
    dl_buf_destroy(&cat->path_stores);
    dl_hmap_destroy(&cat->path_index);
    dl_store_free(cat->store);
    dl_buf_destroy(&cat->current);
    dl_arena_destroy(&cat->arena);
    dl_mem_free(cat->alloc, cat, sizeof(*cat));
}

const char *
dl_cat_root(const dl_cat *cat) {
    return cat->root;
}

dl_store *
dl_cat_store(const dl_cat *cat) {
    return cat->store;
}

const char *
dl_cat_schema_current(const dl_cat *cat) {
    return (const char *)cat->current.data;
}

/* ---- the dl_sql_catalog callbacks ------------------------------------------------------- */

static dl_status
cb_open_table(void *ctx, const char *schema, const char *name, dl_delta_table **out,
              dl_error *err) {
    return dl_cat_table_open(ctx, schema, name, out, err);
}

static dl_status
cb_open_path(void *ctx, const char *path, dl_delta_table **out, dl_error *err) {
    return dl_cat_path_open(ctx, path, out, err);
}

static dl_status
cb_path_store(void *ctx, const char *path, dl_store **out, dl_error *err) {
    return dl_cat_path_folder(ctx, path, out, err);
}

static dl_status
cb_table_location(void *ctx, const char *schema, const char *name, dl_buf *out, dl_error *err) {
    return dl_cat_table_location(ctx, schema, name, out, err);
}

static dl_status
cb_create_schema(void *ctx, const char *schema, bool if_not_exists, dl_error *err) {
    return dl_cat_schema_create(ctx, schema, if_not_exists, err);
}

static dl_status
cb_use_schema(void *ctx, const char *schema, dl_error *err) {
    return dl_cat_schema_use(ctx, schema, err);
}

static const char *
cb_current_schema(void *ctx) {
    return dl_cat_schema_current(ctx);
}

static dl_status
cb_list_tables(void *ctx, const char *schema,
               dl_status (*visit)(void *vctx, const char *name, dl_error *err), void *vctx,
               dl_error *err) {
    return dl_cat_table_list(ctx, schema, visit, vctx, err);
}

static dl_status
cb_list_schemas(void *ctx, dl_status (*visit)(void *vctx, const char *name, dl_error *err),
                void *vctx, dl_error *err) {
    return dl_cat_schema_list(ctx, visit, vctx, err);
}

static dl_status
cb_read_view(void *ctx, const char *schema, const char *name, dl_buf *out, dl_error *err) {
    return dl_cat_view_read(ctx, schema, name, out, err);
}

static dl_status
cb_write_view(void *ctx, const char *schema, const char *name, const char *text, size_t len,
              bool is_replace, dl_error *err) {
    return dl_cat_view_write(ctx, schema, name, text, len, is_replace, err);
}

static dl_status
cb_drop_view(void *ctx, const char *schema, const char *name, dl_error *err) {
    return dl_cat_view_drop(ctx, schema, name, err);
}

static dl_status
cb_list_views(void *ctx, const char *schema,
              dl_status (*visit)(void *vctx, const char *name, dl_error *err), void *vctx,
              dl_error *err) {
    return dl_cat_view_list(ctx, schema, visit, vctx, err);
}

static dl_status
cb_drop_table(void *ctx, const char *schema, const char *name, dl_error *err) {
    return dl_cat_table_drop(ctx, schema, name, err);
}

static dl_status
cb_drop_schema(void *ctx, const char *schema, bool is_cascade, dl_error *err) {
    return dl_cat_schema_drop(ctx, schema, is_cascade, err);
}

void
dl_cat_sql_catalog(dl_cat *cat, dl_sql_catalog *out) {
    memset(out, 0, sizeof(*out));
    out->ctx = cat;
    out->open_table = cb_open_table;
    out->open_path = cb_open_path;
    out->path_store = cb_path_store;
    out->table_location = cb_table_location;
    out->create_schema = cb_create_schema;
    out->use_schema = cb_use_schema;
    out->current_schema = cb_current_schema;
    out->list_tables = cb_list_tables;
    out->list_schemas = cb_list_schemas;
    out->read_view = cb_read_view;
    out->write_view = cb_write_view;
    out->drop_view = cb_drop_view;
    out->list_views = cb_list_views;
    out->drop_table = cb_drop_table;
    out->drop_schema = cb_drop_schema;
}
