/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Persistent views through the public API: a view one connection makes is seen by another
 * (and by one opened later), SHOW CREATE TABLE's text makes the same view again, a write that
 * never reached its rename leaves no view, and DROP never deletes through a symbolic link or
 * a schema folder's strangers. Exits 77 (skipped) while the SQL engine is not built in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deltalite.h"

#include "harness.h"
#include "store/store_testutil.h"

static char base[256];

static deltalite_db *
open_db(void) {
    deltalite_options opts = {.flags = DELTALITE_OPEN_NO_FSYNC};
    deltalite_db *d = NULL;
    if (deltalite_open(base, &opts, &d) != DELTALITE_OK) {
        printf("  open: %s\n", deltalite_error_message(d));
        (void)deltalite_close(d);
        return NULL;
    }
    return d;
}

static bool
exec_ok(deltalite_db *d, const char *sql) {
    if (deltalite_exec(d, sql) != DELTALITE_OK) {
        printf("  failed: %s\n  %s\n", sql, deltalite_error_message(d));
        return false;
    }
    return true;
}

/* The first column of the first row of sql as text, copied into out ("" when no row). */
static bool
scalar(deltalite_db *d, const char *sql, char *out, size_t cap) {
    deltalite_result *r = NULL;
    out[0] = '\0';
    if (deltalite_query(d, sql, &r) != DELTALITE_OK) {
        printf("  query failed: %s\n  %s\n", sql, deltalite_error_message(d));
        return false;
    }
    bool has_row = false;
    const char *t = NULL;
    bool ok = deltalite_result_next_row(r, &has_row) == DELTALITE_OK;
    if (ok && has_row && deltalite_result_get_text(r, 0, &t, NULL) == DELTALITE_OK && t != NULL) {
        (void)snprintf(out, cap, "%s", t);
    }
    deltalite_result_free(r);
    return ok;
}

/* How many rows of sql have want in column col. -1 when the query fails. */
static int
count_rows(deltalite_db *d, const char *sql, int32_t col, const char *want) {
    deltalite_result *r = NULL;
    if (deltalite_query(d, sql, &r) != DELTALITE_OK) {
        printf("  query failed: %s\n  %s\n", sql, deltalite_error_message(d));
        return -1;
    }
    int n = 0;
    bool has_row = false;
    while (deltalite_result_next_row(r, &has_row) == DELTALITE_OK && has_row) {
        const char *t = NULL;
        if (deltalite_result_get_text(r, col, &t, NULL) == DELTALITE_OK && t != NULL &&
            strcmp(t, want) == 0) {
            n++;
        }
    }
    deltalite_result_free(r);
    return n;
}

static void
write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (f != NULL) {
        (void)fputs(text, f);
        (void)fclose(f);
    }
}

TEST(test_a_view_made_in_one_connection_is_seen_by_another) {
    deltalite_db *a = open_db();
    deltalite_db *b = open_db();
    CHECK(a != NULL && b != NULL);
    CHECK(exec_ok(a, "CREATE TABLE t (id INT, s STRING) USING DELTA"));
    CHECK(exec_ok(a, "INSERT INTO t VALUES (1, 'one'), (2, 'two')"));
    CHECK(exec_ok(a, "CREATE VIEW big AS SELECT s FROM t WHERE id > 1"));
    char got[256];
    CHECK(scalar(b, "SELECT s FROM big", got, sizeof(got)));
    CHECK_STR_EQ(got, "two");
    CHECK_INT_EQ(count_rows(b, "SHOW VIEWS", 1, "big"), 1);
    CHECK_INT_EQ(count_rows(b, "SHOW TABLES", 1, "big"), 1);
    /* A temporary view stays in its connection. */
    CHECK(exec_ok(a, "CREATE TEMP VIEW mine AS SELECT 1 AS x"));
    CHECK_INT_EQ(deltalite_exec(b, "SELECT * FROM mine"), DELTALITE_ERROR_NOT_FOUND);
    /* Dropped in one, gone in the other. */
    CHECK(exec_ok(b, "DROP VIEW big"));
    CHECK_INT_EQ(deltalite_exec(a, "SELECT * FROM big"), DELTALITE_ERROR_NOT_FOUND);
    CHECK_INT_EQ(deltalite_close(a), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_close(b), DELTALITE_OK);
}

TEST(test_show_create_table_of_a_view_makes_the_same_view) {
    deltalite_db *d = open_db();
    CHECK(d != NULL);
    CHECK(exec_ok(d, "CREATE VIEW rt (a COMMENT 'it''s a', b) COMMENT 'c' TBLPROPERTIES ('k' = "
                     "'v') AS SELECT id, s FROM t WHERE id = 2"));
    char text[1024];
    CHECK(scalar(d, "SHOW CREATE TABLE rt", text, sizeof(text)));
    CHECK_STR_EQ(text, "CREATE VIEW default.rt (\n  a COMMENT 'it\\'s a',\n  b)\nCOMMENT 'c'\n"
                       "TBLPROPERTIES (\n  'k' = 'v')\nWITH SCHEMA COMPENSATION\n"
                       "AS SELECT id, s FROM t WHERE id = 2\n");
    CHECK(exec_ok(d, "DROP VIEW rt"));
    CHECK(exec_ok(d, text));
    char again[1024];
    CHECK(scalar(d, "SHOW CREATE TABLE rt", again, sizeof(again)));
    CHECK_STR_EQ(again, text);
    CHECK(scalar(d, "SELECT b FROM rt", again, sizeof(again)));
    CHECK_STR_EQ(again, "two");
    CHECK(exec_ok(d, "DROP VIEW rt"));
    CHECK_INT_EQ(deltalite_close(d), DELTALITE_OK);
}

/* What a crash between writing a view's file and renaming it into place leaves: the store's
 * temporary file (".<name>.<hex>.tmp", here half written). It is no view: not listed, not
 * found, and the view can be made afterwards. */
TEST(test_a_crash_before_the_rename_leaves_no_half_view) {
    char dir[512];
    char tmp[600];
    (void)snprintf(dir, sizeof(dir), "%s/.views", base);
    (void)mkdir(dir, 0755);
    (void)snprintf(tmp, sizeof(tmp), "%s/.half.json.0123456789abcdef.tmp", dir);
    write_file(tmp, "{\"format\":1,\"name\":\"half\",\"viewText\":\"SEL");
    deltalite_db *d = open_db();
    CHECK(d != NULL);
    char got[256];
    CHECK_INT_EQ(count_rows(d, "SHOW VIEWS", 1, "half"), 0);
    CHECK_INT_EQ(count_rows(d, "SHOW TABLES", 1, "half"), 0);
    CHECK_INT_EQ(deltalite_exec(d, "SELECT * FROM half"), DELTALITE_ERROR_NOT_FOUND);
    CHECK(exec_ok(d, "CREATE VIEW half AS SELECT 1 AS one"));
    CHECK(scalar(d, "SELECT one FROM half", got, sizeof(got)));
    CHECK_STR_EQ(got, "1");
    CHECK(exec_ok(d, "DROP VIEW half"));
    CHECK_INT_EQ(deltalite_close(d), DELTALITE_OK);
    (void)unlink(tmp);
}

/* A damaged view file is an error naming the view, never a wrong answer. */
TEST(test_a_damaged_view_file_is_an_error_naming_the_view) {
    char path[512];
    (void)snprintf(path, sizeof(path), "%s/.views/bad.json", base);
    write_file(path, "{\"format\":1,\"name\":\"bad\"}");
    deltalite_db *d = open_db();
    CHECK(d != NULL);
    CHECK_INT_EQ(deltalite_exec(d, "SELECT * FROM bad"), DELTALITE_ERROR_CORRUPT);
    CHECK(strstr(deltalite_error_message(d), "view bad") != NULL);
    write_file(path, "{\"format\":9,\"name\":\"bad\"}");
    CHECK_INT_EQ(deltalite_exec(d, "SELECT * FROM bad"), DELTALITE_ERROR_UNSUPPORTED);
    CHECK(exec_ok(d, "DROP VIEW bad"));
    CHECK_INT_EQ(deltalite_close(d), DELTALITE_OK);
}

/* DROP TABLE removes a link inside the table folder, never what it points to; a table folder
 * that is a link is refused; a schema folder holding a stranger is refused whole. */
TEST(test_drop_never_deletes_through_a_link_or_a_stranger) {
    char outside[512];
    char keep[600];
    char link[600];
    (void)snprintf(outside, sizeof(outside), "%s_outside", base);
    (void)mkdir(outside, 0755);
    (void)snprintf(keep, sizeof(keep), "%s/keep.txt", outside);
    write_file(keep, "keep me");
    deltalite_db *d = open_db();
    CHECK(d != NULL);
    CHECK(exec_ok(d, "CREATE TABLE linked (a INT) USING DELTA"));
    (void)snprintf(link, sizeof(link), "%s/linked/elsewhere", base);
    CHECK_INT_EQ(symlink(outside, link), 0);
    CHECK(exec_ok(d, "DROP TABLE linked"));
    struct stat st;
    CHECK_INT_EQ(stat(keep, &st), 0);
    /* A table folder that is itself a link. */
    char real[600];
    (void)snprintf(real, sizeof(real), "%s/real_t", outside);
    CHECK(exec_ok(d, "CREATE TABLE moved (a INT) USING DELTA"));
    char moved[600];
    (void)snprintf(moved, sizeof(moved), "%s/moved", base);
    CHECK_INT_EQ(rename(moved, real), 0);
    CHECK_INT_EQ(symlink(real, moved), 0);
    CHECK_INT_EQ(deltalite_exec(d, "DROP TABLE moved"), DELTALITE_ERROR_UNSUPPORTED);
    CHECK(strstr(deltalite_error_message(d), "symbolic link") != NULL);
    CHECK_INT_EQ(lstat(real, &st), 0);
    (void)unlink(moved);
    /* A schema folder with a file that is neither table nor view. */
    CHECK(exec_ok(d, "CREATE SCHEMA odd"));
    CHECK(exec_ok(d, "CREATE TABLE odd.x (a INT) USING DELTA"));
    char notes[600];
    (void)snprintf(notes, sizeof(notes), "%s/odd.db/notes.txt", base);
    write_file(notes, "mine");
    CHECK_INT_EQ(deltalite_exec(d, "DROP SCHEMA odd CASCADE"), DELTALITE_ERROR_UNSUPPORTED);
    CHECK(strstr(deltalite_error_message(d), "notes.txt") != NULL);
    CHECK_INT_EQ(deltalite_exec(d, "SELECT * FROM odd.x"), DELTALITE_OK);
    (void)unlink(notes);
    CHECK(exec_ok(d, "DROP SCHEMA odd CASCADE"));
    CHECK_INT_EQ(deltalite_close(d), DELTALITE_OK);
    testutil_remove_tree(outside);
}

int
main(void) {
    const char *tmp = getenv("TMPDIR");
    (void)snprintf(base, sizeof(base), "%s/dl_api_views_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (mkdtemp(base) == NULL) {
        return 1;
    }
    deltalite_db *d = open_db();
    if (d == NULL) {
        return 1;
    }
    if (deltalite_exec(d, "SELECT 1") == DELTALITE_ERROR_UNSUPPORTED &&
        strstr(deltalite_error_message(d), "not built") != NULL) {
        (void)deltalite_close(d);
        (void)rmdir(base);
        return 77;
    }
    (void)deltalite_close(d);
    RUN(test_a_view_made_in_one_connection_is_seen_by_another);
    RUN(test_show_create_table_of_a_view_makes_the_same_view);
    RUN(test_a_crash_before_the_rename_leaves_no_half_view);
    RUN(test_a_damaged_view_file_is_an_error_naming_the_view);
    RUN(test_drop_never_deletes_through_a_link_or_a_stranger);
    testutil_remove_tree(base);
    return harness_finish();
}
