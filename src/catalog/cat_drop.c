/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DROP TABLE and DROP SCHEMA on the warehouse: a table of the warehouse is managed (Spark's
 * meaning), so dropping it deletes its folder and everything in it, as Spark deletes a managed
 * table's location; dropping a schema deletes its folder.
 *
 * What may go, and what never does:
 * - Deletion walks the folder without following symbolic links: a link inside is removed as
 *   a link, never descended (the store's recursive listing does not descend links), and a
 *   table or schema folder that is itself a link is refused, so nothing outside the warehouse
 *   is deleted through a link.
 * - A schema folder is deleted only when it holds nothing but tables, its views and
 *   temporary files deltalite left (names beginning with '.'): any other file or folder is
 *   refused, naming it, before anything is deleted (Spark would delete it with the schema).
 *   RESTRICT (the default) refuses a schema with a table or a view (SCHEMA_NOT_EMPTY).
 * - Children go before their folder (the listing is sorted, so reverse order removes a
 *   folder's contents first); a failure stops the walk and names the path that stayed.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog/cat_int.h"

/* Refuses a folder that is a symbolic link (path relative to the warehouse). */
static dl_status
refuse_link(dl_cat *cat, const char *path, const char *what, dl_error *err) {
    dl_buf full;
    dl_buf_init(&full, cat->alloc);
    dl_status st = dl_buf_appendf(&full, err, "%s/%s", cat->root, path);
    struct stat sb;
    if (st == DL_OK && lstat(dl_buf_cstr(&full), &sb) == 0 && S_ISLNK(sb.st_mode)) {
        st = dl_error_set(err, DL_ERR_UNSUPPORTED,
                          "cannot drop %s: its folder %s is a symbolic link, and deltalite "
                          "deletes nothing outside the warehouse",
                          what, dl_buf_cstr(&full));
        dl_error_hint(err, "remove the link yourself (and the folder it points to, if you mean "
                           "to)");
    }
    dl_buf_destroy(&full);
    return st;
}

/* Deletes the folder path and everything under it, links removed as links. */
static dl_status
delete_tree(dl_cat *cat, const char *path, const char *what, dl_error *err) {
    DL_TRY(refuse_link(cat, path, what, err));
    dl_arena arena;
    dl_arena_init(&arena, cat->alloc, 0);
    dl_buf prefix;
    dl_buf_init(&prefix, cat->alloc);
    dl_store_listing listing = {0};
    dl_status st = dl_buf_appendf(&prefix, err, "%s/", path);
    if (st == DL_OK) {
        st = dl_store_list(cat->store, dl_buf_cstr(&prefix), NULL, DL_STORE_LIST_RECURSIVE, &arena,
                           &listing, err);
    }
    for (size_t i = listing.count; st == DL_OK && i > 0; i--) {
        st = dl_store_remove(cat->store, listing.entries[i - 1].path.ptr, err);
        if (st == DL_ERR_NOT_FOUND) {
            st = DL_OK; /* gone already (another process dropping it too) */
        }
    }
    if (st == DL_OK) {
        st = dl_store_remove(cat->store, path, err);
    }
    if (st != DL_OK) {
        dl_error_prefix(err, "cannot drop %s (%s/%s)", what, cat->root, path);
    }
    dl_buf_destroy(&prefix);
    dl_arena_destroy(&arena);
    return st;
}

dl_status
dl_cat_table_drop(dl_cat *cat, const char *schema, const char *name, dl_error *err) {
    dl_buf folder;
    dl_buf_init(&folder, cat->alloc);
    dl_status st = dl_cat_table_folder(cat, schema, name, &folder, err);
    if (st == DL_OK) {
        char what[160];
        (void)snprintf(what, sizeof(what), "table '%s'", name);
        st = delete_tree(cat, dl_buf_cstr(&folder), what, err);
    }
    dl_buf_destroy(&folder);
    return st;
}

/* What a schema folder holds: its tables, its views, and the first entry that is neither. */
typedef struct schema_contents {
    dl_cat_names tables;
    dl_cat_names views;
    const char *stranger; /* NULL when there is none */
} schema_contents;

static dl_status
survey_schema(dl_cat *cat, const char *dir, dl_arena *arena, schema_contents *out, dl_error *err) {
    DL_TRY(dl_cat_collect_tables(cat, dir, arena, &out->tables, err));
    DL_TRY(dl_cat_collect_views(cat, dir, arena, &out->views, err));
    dl_store_listing listing;
    DL_TRY(dl_store_list(cat->store, dir, NULL, 0, arena, &listing, err));
    size_t dir_len = strlen(dir);
    size_t t = 0;
    for (size_t i = 0; i < listing.count && out->stranger == NULL; i++) {
        const char *entry = listing.entries[i].path.ptr + dir_len;
        while (t < out->tables.count && strcmp(out->tables.names[t], entry) < 0) {
            t++;
        }
        bool is_table = t < out->tables.count && strcmp(out->tables.names[t], entry) == 0;
        if (!is_table && entry[0] != '.') {
            out->stranger = listing.entries[i].path.ptr;
        }
    }
    return DL_OK;
}

static dl_status
check_droppable(dl_cat *cat, const char *folded, const schema_contents *c, bool is_cascade,
                dl_error *err) {
    if (c->stranger != NULL) {
        (void)dl_error_set(err, DL_ERR_UNSUPPORTED,
                           "cannot drop schema '%s': %s/%s is neither a table nor a view, and "
                           "deltalite deletes only what the schema's tables and views are made of",
                           folded, cat->root, c->stranger);
        dl_error_hint(err, "move it out of the schema's folder first");
        return DL_ERR_UNSUPPORTED;
    }
    if (!is_cascade && c->tables.count + c->views.count > 0) {
        (void)dl_error_set(err, DL_ERR_SQL_BIND,
                           "[SCHEMA_NOT_EMPTY] cannot drop schema '%s': it holds %zu table(s) "
                           "and %zu view(s)",
                           folded, c->tables.count, c->views.count);
        dl_error_hint(err, "drop them first, or write DROP SCHEMA %s CASCADE to drop them with it",
                      folded);
        return DL_ERR_SQL_BIND;
    }
    return DL_OK;
}

dl_status
dl_cat_schema_drop(dl_cat *cat, const char *schema, bool is_cascade, dl_error *err) {
    dl_buf dir, name;
    dl_buf_init(&dir, cat->alloc);
    dl_buf_init(&name, cat->alloc);
    dl_arena arena;
    dl_arena_init(&arena, cat->alloc, 0);
    schema_contents c = {0};
    dl_status st = dl_cat_schema_dir(cat, schema, &dir, &name, err);
    const char *folded = dl_buf_cstr(&name);
    if (st == DL_OK && dir.len == 0) {
        st = dl_error_set(err, DL_ERR_SQL_BIND,
                          "[UNSUPPORTED_FEATURE.DROP_DATABASE] the default schema cannot be "
                          "dropped: it is the warehouse folder itself");
        dl_error_hint(err, "drop its tables and views one by one instead");
    } else if (st == DL_ERR_NOT_FOUND) {
        dl_error_prefix(err, "[SCHEMA_NOT_FOUND]");
    }
    if (st == DL_OK) {
        st = survey_schema(cat, dl_buf_cstr(&dir), &arena, &c, err);
    }
    if (st == DL_OK) {
        st = check_droppable(cat, folded, &c, is_cascade, err);
    }
    if (st == DL_OK) {
        char what[160];
        (void)snprintf(what, sizeof(what), "schema '%s'", folded);
        dir.len--; /* without the trailing '/' */
        st = delete_tree(cat, dl_buf_cstr(&dir), what, err);
    }
    if (st == DL_OK && strcmp(folded, dl_cat_schema_current(cat)) == 0) {
        dl_buf_reset(&cat->current); /* the session falls back to default */
        st = dl_buf_append_cstr(&cat->current, DL_CAT_DEFAULT_SCHEMA, err);
        (void)dl_buf_cstr(&cat->current);
    }
    dl_arena_destroy(&arena);
    dl_buf_destroy(&name);
    dl_buf_destroy(&dir);
    return st;
}
