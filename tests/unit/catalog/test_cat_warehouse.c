/* SPDX-License-Identifier: Apache-2.0 */
/* The catalog over a warehouse folder: schemas, names, case, paths and not-found messages. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "cat_test_fs.h"
#include "catalog/cat_int.h"
#include "catalog/catalog.h"
#include "harness.h"

static char wh[256];

/* A warehouse with: default.sales, default.sales_2024, default.notes (no _delta_log),
 * f1_demo.drivers, and a file readme.txt. */
static int
make_warehouse(void) {
    if (fs_tempdir(wh, sizeof(wh)) != 0) {
        return -1;
    }
    int rc = fs_fake_table(wh, "sales") | fs_fake_table(wh, "sales_2024") | fs_mkdirs(wh, "notes") |
             fs_fake_table(wh, "f1_demo.db/drivers") | fs_write_file(wh, "readme.txt", "hello");
    return rc;
}

static dl_cat *
open_cat(void) {
    dl_cat *cat = NULL;
    dl_error err;
    if (dl_cat_new(wh, NULL, &cat, &err) != DL_OK) {
        printf("  dl_cat_new: %s\n", err.msg);
        return NULL;
    }
    return cat;
}

static void
done(dl_cat *cat) {
    dl_cat_free(cat);
    fs_remove_tree(wh);
}

static const char *
root_of(dl_delta_table *t) {
    return dl_delta_table_root(t);
}

TEST(test_cat_default_schema_tables_are_folders_of_the_warehouse_root) {
    CHECK(make_warehouse() == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_error err;
    dl_delta_table *t = NULL;
    CHECK_OK(dl_cat_table_open(cat, NULL, "sales", &t, &err), &err);
    CHECK_STR_EQ(root_of(t), "sales");
    dl_delta_table_free(t);
    CHECK_OK(dl_cat_table_open(cat, "default", "sales_2024", &t, &err), &err);
    CHECK_STR_EQ(root_of(t), "sales_2024");
    dl_delta_table_free(t);
    CHECK_STR_EQ(dl_cat_schema_current(cat), "default");
    done(cat);
}

TEST(test_cat_other_schemas_are_db_folders) {
    CHECK(make_warehouse() == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_error err;
    dl_delta_table *t = NULL;
    CHECK_OK(dl_cat_table_open(cat, "f1_demo", "drivers", &t, &err), &err);
    CHECK_STR_EQ(root_of(t), "f1_demo.db/drivers");
    dl_delta_table_free(t);
    done(cat);
}

TEST(test_cat_names_are_case_insensitive) {
    CHECK(make_warehouse() == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_error err;
    dl_delta_table *t = NULL;
    CHECK_OK(dl_cat_table_open(cat, "F1_Demo", "DRIVERS", &t, &err), &err);
    CHECK_STR_EQ(root_of(t), "f1_demo.db/drivers");
    dl_delta_table_free(t);
    CHECK_OK(dl_cat_table_open(cat, "DEFAULT", "Sales", &t, &err), &err);
    CHECK_STR_EQ(root_of(t), "sales");
    dl_delta_table_free(t);
    done(cat);
}

TEST(test_cat_folder_written_with_capitals_is_found) {
    CHECK(make_warehouse() == 0);
    CHECK(fs_fake_table(wh, "MixedCase") == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_error err;
    dl_delta_table *t = NULL;
    CHECK_OK(dl_cat_table_open(cat, NULL, "mixedcase", &t, &err), &err);
    CHECK_STR_EQ(root_of(t), "MixedCase");
    dl_delta_table_free(t);
    done(cat);
}

TEST(test_cat_folders_differing_only_in_case_are_ambiguous) {
    CHECK(make_warehouse() == 0);
    CHECK(fs_fake_table(wh, "Orders") == 0);
    CHECK(fs_fake_table(wh, "ORDERS") == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_error err;
    dl_delta_table *t = NULL;
    CHECK_STATUS(dl_cat_table_open(cat, NULL, "orders", &t, &err), DL_ERR_SQL_BIND, &err);
    CHECK_ERR_CONTAINS(&err, "table name 'orders' is ambiguous: 2 folders");
    CHECK(t == NULL);
    done(cat);
}

TEST(test_cat_missing_table_names_table_schema_and_folder_and_suggests_similar) {
    CHECK(make_warehouse() == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_error err;
    dl_delta_table *t = NULL;
    CHECK_STATUS(dl_cat_table_open(cat, NULL, "slaes", &t, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "table 'slaes' not found in schema 'default'");
    CHECK_ERR_CONTAINS(&err, wh);
    CHECK_ERR_CONTAINS(&err, "no such folder");
    CHECK(strstr(err.hint, "did you mean: sales") != NULL);
    CHECK(strstr(err.hint, "sales_2024") == NULL);
    done(cat);
}

TEST(test_cat_missing_table_hint_names_the_schema_that_has_it) {
    CHECK(make_warehouse() == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_error err;
    dl_delta_table *t = NULL;
    CHECK_STATUS(dl_cat_table_open(cat, NULL, "drivers", &t, &err), DL_ERR_NOT_FOUND, &err);
    CHECK(strstr(err.hint, "exists as f1_demo.drivers") != NULL);
    done(cat);
}

TEST(test_cat_missing_table_without_similar_names_lists_the_tables) {
    CHECK(make_warehouse() == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_error err;
    dl_delta_table *t = NULL;
    CHECK_STATUS(dl_cat_table_open(cat, NULL, "zzz", &t, &err), DL_ERR_NOT_FOUND, &err);
    CHECK(strstr(err.hint, "tables in schema 'default': sales, sales_2024") != NULL);
    CHECK(strstr(err.hint, "delta.`/path`") != NULL);
    done(cat);
}

TEST(test_cat_folder_without_delta_log_is_not_a_table) {
    CHECK(make_warehouse() == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_error err;
    dl_delta_table *t = NULL;
    CHECK_STATUS(dl_cat_table_open(cat, NULL, "notes", &t, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "the folder has no _delta_log");
    done(cat);
}

TEST(test_cat_missing_schema_is_not_found_with_the_schemas_as_hint) {
    CHECK(make_warehouse() == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_error err;
    dl_delta_table *t = NULL;
    CHECK_STATUS(dl_cat_table_open(cat, "f1_dem", "drivers", &t, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "schema 'f1_dem' not found: no folder");
    CHECK_ERR_CONTAINS(&err, "f1_dem.db");
    CHECK(strstr(err.hint, "did you mean: f1_demo") != NULL);
    done(cat);
}

TEST(test_cat_use_schema_changes_where_unqualified_names_resolve) {
    CHECK(make_warehouse() == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_error err;
    CHECK_OK(dl_cat_schema_use(cat, "F1_DEMO", &err), &err);
    CHECK_STR_EQ(dl_cat_schema_current(cat), "f1_demo");
    dl_delta_table *t = NULL;
    CHECK_OK(dl_cat_table_open(cat, NULL, "drivers", &t, &err), &err);
    dl_delta_table_free(t);
    CHECK_STATUS(dl_cat_table_open(cat, NULL, "sales", &t, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "in schema 'f1_demo'");
    CHECK_STATUS(dl_cat_schema_use(cat, "nope", &err), DL_ERR_NOT_FOUND, &err);
    CHECK_STR_EQ(dl_cat_schema_current(cat), "f1_demo");
    CHECK_OK(dl_cat_schema_use(cat, "default", &err), &err);
    CHECK_STR_EQ(dl_cat_schema_current(cat), "default");
    done(cat);
}

TEST(test_cat_create_schema_makes_a_lowercase_db_folder_once) {
    CHECK(make_warehouse() == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_error err;
    CHECK_OK(dl_cat_schema_create(cat, "Gold", false, &err), &err);
    char path[512];
    (void)snprintf(path, sizeof(path), "%s/gold.db", wh);
    CHECK(access(path, F_OK) == 0);
    CHECK_STATUS(dl_cat_schema_create(cat, "GOLD", false, &err), DL_ERR_EXISTS, &err);
    CHECK_ERR_CONTAINS(&err, "schema 'gold' already exists");
    CHECK_OK(dl_cat_schema_create(cat, "gold", true, &err), &err);
    CHECK_STATUS(dl_cat_schema_create(cat, "default", false, &err), DL_ERR_EXISTS, &err);
    CHECK_OK(dl_cat_schema_create(cat, "default", true, &err), &err);
    done(cat);
}

TEST(test_cat_table_location_is_relative_to_the_warehouse_and_lowercase) {
    CHECK(make_warehouse() == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_error err;
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_cat_table_location(cat, NULL, "NewTable", &out, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "newtable");
    dl_buf_reset(&out);
    CHECK_OK(dl_cat_table_location(cat, "F1_demo", "Laps", &out, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "f1_demo.db/laps");
    dl_buf_reset(&out);
    CHECK_STATUS(dl_cat_table_location(cat, "nope", "x", &out, &err), DL_ERR_NOT_FOUND, &err);
    dl_buf_destroy(&out);
    done(cat);
}

typedef struct collected {
    char text[512];
} collected;

static dl_status
collect(void *vctx, const char *name, dl_error *err) {
    (void)err;
    collected *c = vctx;
    size_t len = strlen(c->text);
    (void)snprintf(c->text + len, sizeof(c->text) - len, "%s%s", len ? "," : "", name);
    return DL_OK;
}

static dl_status
stop_at_first(void *vctx, const char *name, dl_error *err) {
    (void)vctx;
    return dl_error_set(err, DL_ERR_INTERRUPTED, "stopped at %s", name);
}

TEST(test_cat_lists_tables_and_schemas_sorted) {
    CHECK(make_warehouse() == 0);
    CHECK(fs_mkdirs(wh, "archive.db") == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_error err;
    collected c = {.text = ""};
    CHECK_OK(dl_cat_table_list(cat, NULL, collect, &c, &err), &err);
    CHECK_STR_EQ(c.text, "sales,sales_2024");
    c.text[0] = '\0';
    CHECK_OK(dl_cat_table_list(cat, "f1_demo", collect, &c, &err), &err);
    CHECK_STR_EQ(c.text, "drivers");
    c.text[0] = '\0';
    CHECK_OK(dl_cat_table_list(cat, "archive", collect, &c, &err), &err);
    CHECK_STR_EQ(c.text, "");
    c.text[0] = '\0';
    CHECK_OK(dl_cat_schema_list(cat, collect, &c, &err), &err);
    CHECK_STR_EQ(c.text, "archive,default,f1_demo");
    CHECK_STATUS(dl_cat_table_list(cat, NULL, stop_at_first, NULL, &err), DL_ERR_INTERRUPTED, &err);
    CHECK_ERR_CONTAINS(&err, "stopped at sales");
    done(cat);
}

TEST(test_cat_names_that_cannot_be_folders_are_refused) {
    CHECK(make_warehouse() == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_error err;
    dl_delta_table *t = NULL;
    CHECK_STATUS(dl_cat_table_open(cat, NULL, "a/b", &t, &err), DL_ERR_SQL_BIND, &err);
    CHECK_ERR_CONTAINS(&err, "table name 'a/b' cannot name a folder: it contains '/'");
    CHECK(strstr(err.hint, "delta.`") != NULL);
    CHECK_STATUS(dl_cat_table_open(cat, NULL, "..", &t, &err), DL_ERR_SQL_BIND, &err);
    CHECK_STATUS(dl_cat_table_open(cat, NULL, ".hidden", &t, &err), DL_ERR_SQL_BIND, &err);
    CHECK_STATUS(dl_cat_table_open(cat, NULL, "", &t, &err), DL_ERR_SQL_BIND, &err);
    CHECK_ERR_CONTAINS(&err, "table name is empty");
    CHECK_STATUS(dl_cat_schema_create(cat, "../escape", false, &err), DL_ERR_SQL_BIND, &err);
    CHECK_ERR_CONTAINS(&err, "schema name");
    done(cat);
}

TEST(test_cat_path_references_open_absolute_relative_and_file_urls) {
    CHECK(make_warehouse() == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_error err;
    dl_delta_table *t = NULL;
    char path[512];
    (void)snprintf(path, sizeof(path), "%s/f1_demo.db/drivers", wh);
    CHECK_OK(dl_cat_path_open(cat, path, &t, &err), &err);
    dl_delta_table_free(t);
    (void)snprintf(path, sizeof(path), "file://%s/./f1_demo.db/../sales/", wh);
    CHECK_OK(dl_cat_path_open(cat, path, &t, &err), &err);
    dl_delta_table_free(t);
    char cwd[512];
    CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
    CHECK(chdir(wh) == 0);
    dl_status st = dl_cat_path_open(cat, "sales_2024", &t, &err);
    CHECK(chdir(cwd) == 0);
    CHECK_OK(st, &err);
    dl_delta_table_free(t);
    done(cat);
}

TEST(test_cat_path_reference_errors_say_what_is_at_the_path) {
    CHECK(make_warehouse() == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_error err;
    dl_delta_table *t = NULL;
    char path[512];
    (void)snprintf(path, sizeof(path), "%s/nothing/here", wh);
    CHECK_STATUS(dl_cat_path_open(cat, path, &t, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "does not exist");
    (void)snprintf(path, sizeof(path), "%s/notes", wh);
    CHECK_STATUS(dl_cat_path_open(cat, path, &t, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "(no _delta_log folder)");
    (void)snprintf(path, sizeof(path), "%s/readme.txt", wh);
    CHECK_STATUS(dl_cat_path_open(cat, path, &t, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "is a file, not a Delta table folder");
    CHECK(strstr(err.hint, "read_parquet") != NULL);
    CHECK_STATUS(dl_cat_path_open(cat, "s3://bucket/t", &t, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_STATUS(dl_cat_path_open(cat, "file://host/t", &t, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_STATUS(dl_cat_path_open(cat, "", &t, &err), DL_ERR_INVALID_ARG, &err);
    done(cat);
}

TEST(test_cat_path_absolute_normalises_dots_and_slashes) {
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_error err;
    CHECK_OK(dl_cat_path_absolute("/a//b/./c/../d/", &out, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "/a/b/d");
    dl_buf_reset(&out);
    CHECK_OK(dl_cat_path_absolute("/../..", &out, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "/");
    dl_buf_reset(&out);
    CHECK_OK(dl_cat_path_absolute("file:///x/y", &out, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "/x/y");
    dl_buf_reset(&out);
    CHECK_OK(dl_cat_path_absolute("file:/x", &out, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "/x");
    dl_buf_reset(&out);
    CHECK_OK(dl_cat_path_absolute("file://localhost/x", &out, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "/x");
    dl_buf_reset(&out);
    CHECK_STATUS(dl_cat_path_absolute("file:x", &out, &err), DL_ERR_INVALID_ARG, &err);
    dl_buf_destroy(&out);
}

TEST(test_cat_missing_warehouse_is_not_found_unless_created) {
    char base[256];
    CHECK(fs_tempdir(base, sizeof(base)) == 0);
    char path[512];
    (void)snprintf(path, sizeof(path), "%s/new/warehouse", base);
    dl_cat *cat = NULL;
    dl_error err;
    CHECK_STATUS(dl_cat_new(path, NULL, &cat, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "warehouse folder");
    CHECK_ERR_CONTAINS(&err, "does not exist");
    dl_cat_options opts = {.create_if_missing = true, .is_volatile = true};
    CHECK_OK(dl_cat_new(path, &opts, &cat, &err), &err);
    CHECK_STR_EQ(dl_cat_root(cat), path);
    CHECK(access(path, F_OK) == 0);
    dl_cat_free(cat);
    (void)snprintf(path, sizeof(path), "%s/file", base);
    CHECK(fs_write_file(base, "file", "x") == 0);
    CHECK_STATUS(dl_cat_new(path, NULL, &cat, &err), DL_ERR_IO, &err);
    CHECK_ERR_CONTAINS(&err, "is a file, not a folder");
    fs_remove_tree(base);
}

static dl_sql_catalog cb;

static dl_status
count_visit(void *vctx, const char *name, dl_error *err) {
    (void)name;
    (void)err;
    (*(int *)vctx)++;
    return DL_OK;
}

TEST(test_cat_sql_catalog_callbacks_reach_the_catalog) {
    CHECK(make_warehouse() == 0);
    dl_cat *cat = open_cat();
    CHECK(cat != NULL);
    dl_cat_sql_catalog(cat, &cb);
    dl_error err;
    dl_delta_table *t = NULL;
    CHECK_OK(cb.open_table(cb.ctx, "f1_demo", "drivers", &t, &err), &err);
    dl_delta_table_free(t);
    char path[512];
    (void)snprintf(path, sizeof(path), "%s/sales", wh);
    CHECK_OK(cb.open_path(cb.ctx, path, &t, &err), &err);
    dl_delta_table_free(t);
    CHECK_OK(cb.create_schema(cb.ctx, "silver", false, &err), &err);
    CHECK_OK(cb.use_schema(cb.ctx, "silver", &err), &err);
    CHECK_STR_EQ(cb.current_schema(cb.ctx), "silver");
    dl_buf loc;
    dl_buf_init(&loc, NULL);
    CHECK_OK(cb.table_location(cb.ctx, NULL, "t", &loc, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&loc), "silver.db/t");
    dl_buf_destroy(&loc);
    int n = 0;
    CHECK_OK(cb.list_tables(cb.ctx, "default", count_visit, &n, &err), &err);
    CHECK_INT_EQ(n, 2);
    n = 0;
    CHECK_OK(cb.list_schemas(cb.ctx, count_visit, &n, &err), &err);
    CHECK_INT_EQ(n, 3);
    done(cat);
}

TEST(test_cat_allocation_failures_give_nomem_and_leak_nothing) {
    CHECK(make_warehouse() == 0);
    int n_ok = 0;
    for (int64_t fail_at = 1; fail_at < 400; fail_at++) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, fail_at, true);
        dl_cat_options opts = {.alloc = &fa.base};
        dl_cat *cat = NULL;
        dl_error err;
        dl_status st = dl_cat_new(wh, &opts, &cat, &err);
        dl_delta_table *t = NULL;
        if (st == DL_OK) {
            st = dl_cat_table_open(cat, NULL, "slaes", &t, &err);
            st = st == DL_ERR_NOT_FOUND ? dl_cat_table_open(cat, "f1_demo", "drivers", &t, &err)
                                        : st;
        }
        CHECK(st == DL_OK || st == DL_ERR_NOMEM);
        dl_delta_table_free(t);
        dl_cat_free(cat);
        CHECK_INT_EQ(fa.live_bytes, 0);
        n_ok += st == DL_OK ? 1 : 0;
        if (fa.n_failures == 0) {
            break;
        }
    }
    CHECK(n_ok > 0);
    fs_remove_tree(wh);
}

TEST(test_cat_opens_a_real_table_and_reads_its_snapshot) {
    const char *path = "../shared/corpus/dat/reader_tests/generated/basic_append/delta";
    char src[512];
    (void)snprintf(src, sizeof(src), "%s/%s", DL_SOURCE_DIR, path);
    if (access(src, F_OK) != 0) {
        printf("  (skipped: %s not found)\n", src);
        return;
    }
    char base[256];
    CHECK(fs_tempdir(base, sizeof(base)) == 0);
    dl_cat *cat = NULL;
    dl_error err;
    CHECK_OK(dl_cat_new(base, NULL, &cat, &err), &err);
    dl_delta_table *t = NULL;
    CHECK_OK(dl_cat_path_open(cat, src, &t, &err), &err);
    dl_delta_snapshot *snap = NULL;
    CHECK_OK(dl_delta_snapshot_latest(t, NULL, &snap, &err), &err);
    CHECK(dl_delta_snapshot_version(snap) >= 0);
    dl_delta_snapshot_unref(snap);
    dl_delta_table_free(t);
    dl_cat_free(cat);
    fs_remove_tree(base);
}

int
main(void) {
    RUN(test_cat_default_schema_tables_are_folders_of_the_warehouse_root);
    RUN(test_cat_other_schemas_are_db_folders);
    RUN(test_cat_names_are_case_insensitive);
    RUN(test_cat_folder_written_with_capitals_is_found);
    RUN(test_cat_folders_differing_only_in_case_are_ambiguous);
    RUN(test_cat_missing_table_names_table_schema_and_folder_and_suggests_similar);
    RUN(test_cat_missing_table_hint_names_the_schema_that_has_it);
    RUN(test_cat_missing_table_without_similar_names_lists_the_tables);
    RUN(test_cat_folder_without_delta_log_is_not_a_table);
    RUN(test_cat_missing_schema_is_not_found_with_the_schemas_as_hint);
    RUN(test_cat_use_schema_changes_where_unqualified_names_resolve);
    RUN(test_cat_create_schema_makes_a_lowercase_db_folder_once);
    RUN(test_cat_table_location_is_relative_to_the_warehouse_and_lowercase);
    RUN(test_cat_lists_tables_and_schemas_sorted);
    RUN(test_cat_names_that_cannot_be_folders_are_refused);
    RUN(test_cat_path_references_open_absolute_relative_and_file_urls);
    RUN(test_cat_path_reference_errors_say_what_is_at_the_path);
    RUN(test_cat_path_absolute_normalises_dots_and_slashes);
    RUN(test_cat_missing_warehouse_is_not_found_unless_created);
    RUN(test_cat_sql_catalog_callbacks_reach_the_catalog);
    RUN(test_cat_allocation_failures_give_nomem_and_leak_nothing);
    RUN(test_cat_opens_a_real_table_and_reads_its_snapshot);
    return harness_finish();
}
