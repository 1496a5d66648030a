/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A warehouse opened DELTALITE_OPEN_READONLY: every statement that would write fails with
 * DELTALITE_ERROR_READONLY and the files on disk stay exactly as they were, for tables of the
 * warehouse and tables read by path; queries, DESCRIBE, SHOW and SET still work. The refusal
 * is in the stores the catalog opens, so no write path of the engine can slip past it.
 * Exits 77 (skipped) while the library is built without the SQL engine.
 */
#define _XOPEN_SOURCE 700 /* NOLINT(bugprone-reserved-identifier,readability-identifier-naming) */

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "deltalite.h"

#include "harness.h"
#include "store/store_testutil.h"

static char dir[TESTUTIL_ROOT_CAP];
static char outside[TESTUTIL_ROOT_CAP + 32];
static char listing[65536]; /* every file under dir: path, size, mtime */
static size_t listing_len;

static int
add_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)flag, (void)ftw;
    int n =
        snprintf(listing + listing_len, sizeof(listing) - listing_len, "%s %lld %lld.%09ld\n", path,
                 (long long)st->st_size, (long long)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec);
    if (n > 0 && (size_t)n < sizeof(listing) - listing_len) {
        listing_len += (size_t)n;
    }
    return 0;
}

/* Every file and folder under dir (nftw walks in a fixed order for an unchanged tree). */
static const char *
list_tree(void) {
    listing_len = 0;
    listing[0] = '\0';
    (void)nftw(dir, add_entry, 16, FTW_PHYS);
    return listing;
}

static deltalite_db *
open_db(uint32_t flags) {
    deltalite_db *d = NULL;
    deltalite_options opts = {.flags = flags | DELTALITE_OPEN_NO_FSYNC};
    if (deltalite_open(dir, &opts, &d) != DELTALITE_OK) {
        printf("  open: %s\n", deltalite_error_message(d));
        (void)deltalite_close(d);
        return NULL;
    }
    return d;
}

static int64_t
count_rows(deltalite_db *d, const char *sql) {
    deltalite_result *r = NULL;
    bool has_row = false;
    int64_t n = -1;
    if (deltalite_query(d, sql, &r) == DELTALITE_OK &&
        deltalite_result_next_row(r, &has_row) == DELTALITE_OK && has_row) {
        (void)deltalite_result_get_int64(r, 0, &n);
    }
    deltalite_result_free(r);
    return n;
}

TEST(test_readonly_refuses_every_write_and_changes_no_file) {
    deltalite_db *d = open_db(DELTALITE_OPEN_READONLY);
    CHECK(d != NULL);
    char sql[1024];
    (void)snprintf(sql, sizeof(sql), "INSERT INTO delta.`%s` VALUES (9)", outside);
    char copy[1024];
    (void)snprintf(copy, sizeof(copy), "COPY (SELECT 1 AS a) TO '%s/copied.csv'", dir);
    const char *const writes[] = {
        "INSERT INTO t VALUES (4, 'd')",
        "INSERT OVERWRITE t SELECT * FROM t",
        "UPDATE t SET s = 'z' WHERE id = 1",
        "DELETE FROM t WHERE id = 2",
        "MERGE INTO t USING (SELECT 1 AS id, 'm' AS s) src ON t.id = src.id "
        "WHEN MATCHED THEN UPDATE SET s = src.s",
        "CREATE TABLE n (a INT) USING delta",
        "CREATE TABLE n2 USING delta AS SELECT 1 AS a",
        "CREATE SCHEMA s2",
        "ALTER TABLE t ADD COLUMNS (extra INT)",
        "ALTER TABLE t SET TBLPROPERTIES ('delta.appendOnly' = 'false')",
        "OPTIMIZE t",
        "RESTORE TABLE t TO VERSION AS OF 1",
        sql,
        copy, /* COPY TO writes a file outside every table */
    };
    const char *before = list_tree();
    static char saved[sizeof(listing)];
    (void)snprintf(saved, sizeof(saved), "%s", before);
    for (size_t i = 0; i < sizeof(writes) / sizeof(writes[0]); i++) {
        deltalite_status st = deltalite_exec(d, writes[i]);
        if (st != DELTALITE_ERROR_READONLY) {
            printf("  %s: %s (%s)\n", writes[i], deltalite_status_name(st),
                   deltalite_error_message(d));
            CHECK(false);
        }
        CHECK(strstr(deltalite_error_message(d), "read-only") != NULL);
        CHECK(strstr(deltalite_error_message(d), "writes files") != NULL); /* names it first */
    }
    CHECK_STR_EQ(list_tree(), saved);
    /* Reading still works, and so do session settings. */
    CHECK_INT_EQ(count_rows(d, "SELECT count(*) FROM t"), 3);
    CHECK_INT_EQ(count_rows(d, "SELECT count(*) FROM (DESCRIBE HISTORY t)"), 3);
    CHECK_INT_EQ(deltalite_exec(d, "SET spark.sql.ansi.enabled = false; SHOW TABLES; VACUUM t "
                                   "DRY RUN; DESCRIBE DETAIL t; EXPLAIN SELECT * FROM t"),
                 DELTALITE_OK);
    CHECK_STR_EQ(list_tree(), saved);
    CHECK_INT_EQ(deltalite_close(d), DELTALITE_OK);
}

TEST(test_readonly_cannot_be_combined_with_create_nor_create_the_folder) {
    deltalite_db *d = NULL;
    deltalite_options opts = {.flags = DELTALITE_OPEN_READONLY | DELTALITE_OPEN_CREATE};
    CHECK_INT_EQ(deltalite_open(dir, &opts, &d), DELTALITE_ERROR_INVALID_ARG);
    CHECK(strstr(deltalite_error_message(d), "read-only warehouse cannot be created") != NULL);
    CHECK_INT_EQ(deltalite_close(d), DELTALITE_OK);
    char missing[TESTUTIL_ROOT_CAP + 16];
    (void)snprintf(missing, sizeof(missing), "%s/missing", dir);
    opts.flags = DELTALITE_OPEN_READONLY;
    CHECK_INT_EQ(deltalite_open(missing, &opts, &d), DELTALITE_ERROR_NOT_FOUND);
    CHECK_INT_EQ(deltalite_close(d), DELTALITE_OK);
    struct stat st;
    CHECK(stat(missing, &st) != 0);
    CHECK_STR_EQ(deltalite_status_name(DELTALITE_ERROR_READONLY), "READONLY");
}

int
main(void) {
    if (!testutil_make_tmp_dir(dir)) {
        return 1;
    }
    (void)snprintf(outside, sizeof(outside), "%s/outside.db/p", dir);
    deltalite_db *d = open_db(0);
    if (d == NULL) {
        return 1;
    }
    deltalite_result *probe = NULL;
    if (deltalite_query(d, "SELECT 1", &probe) == DELTALITE_ERROR_UNSUPPORTED) {
        printf("skipped: %s\n", deltalite_error_message(d));
        (void)deltalite_close(d);
        testutil_remove_tree(dir);
        return 77;
    }
    deltalite_result_free(probe);
    char sql[1024];
    (void)snprintf(sql, sizeof(sql),
                   "CREATE TABLE t (id INT, s STRING) USING delta; "
                   "INSERT INTO t VALUES (1, 'a'), (2, 'b'); INSERT INTO t VALUES (3, 'c'); "
                   "CREATE TABLE delta.`%s` (x INT) USING delta",
                   outside);
    if (deltalite_exec(d, sql) != DELTALITE_OK) {
        printf("setup: %s\n", deltalite_error_message(d));
        return 1;
    }
    (void)deltalite_close(d);
    RUN(test_readonly_refuses_every_write_and_changes_no_file);
    RUN(test_readonly_cannot_be_combined_with_create_nor_create_the_folder);
    testutil_remove_tree(dir);
    return harness_finish();
}
