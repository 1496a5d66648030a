/* SPDX-License-Identifier: Apache-2.0 */
/* The public API without running SQL: opening and closing, options, errors, completeness. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deltalite.h"

#include "harness.h"

static char base[256];

static int
make_base(void) {
    const char *tmp = getenv("TMPDIR");
    (void)snprintf(base, sizeof(base), "%s/dl_api_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    return mkdtemp(base) != NULL ? 0 : -1;
}

TEST(test_open_missing_warehouse_fails_with_a_handle_that_explains) {
    char path[512];
    (void)snprintf(path, sizeof(path), "%s/none", base);
    deltalite_db *db = NULL;
    CHECK_INT_EQ(deltalite_open(path, NULL, &db), DELTALITE_ERROR_NOT_FOUND);
    CHECK(db != NULL);
    CHECK_INT_EQ(deltalite_error_status(db), DELTALITE_ERROR_NOT_FOUND);
    CHECK(strstr(deltalite_error_message(db), "does not exist") != NULL);
    CHECK(strstr(deltalite_error_message(db), path) != NULL);
    CHECK(deltalite_error_hint(db)[0] != '\0');
    CHECK_INT_EQ(deltalite_error_offset(db), -1);
    CHECK_STR_EQ(deltalite_error_caret(db), "");
    CHECK_INT_EQ(deltalite_exec(db, "SELECT 1"), DELTALITE_ERROR_INVALID_ARG);
    CHECK(strstr(deltalite_error_message(db), "failed to open") != NULL);
    CHECK_INT_EQ(deltalite_close(db), DELTALITE_OK);
}

TEST(test_open_with_create_makes_the_folder_and_reports_it_absolute) {
    char path[512];
    (void)snprintf(path, sizeof(path), "%s/new/wh", base);
    deltalite_options opts = {.flags = DELTALITE_OPEN_CREATE | DELTALITE_OPEN_NO_FSYNC,
                              .threads = -1};
    deltalite_db *db = NULL;
    CHECK_INT_EQ(deltalite_open(path, &opts, &db), DELTALITE_OK);
    CHECK_STR_EQ(deltalite_warehouse(db), path);
    CHECK_INT_EQ(deltalite_error_status(db), DELTALITE_OK);
    CHECK_STR_EQ(deltalite_error_message(db), "");
    struct stat st;
    CHECK(stat(path, &st) == 0 && S_ISDIR(st.st_mode));
    CHECK_INT_EQ(deltalite_close(db), DELTALITE_OK);
}

TEST(test_open_refuses_bad_options) {
    deltalite_db *db = NULL;
    deltalite_options opts = {.threads = -2};
    CHECK_INT_EQ(deltalite_open(base, &opts, &db), DELTALITE_ERROR_INVALID_ARG);
    CHECK(strstr(deltalite_error_message(db), "threads") != NULL);
    CHECK_INT_EQ(deltalite_close(db), DELTALITE_OK);
    opts = (deltalite_options){.flags = 0x80};
    CHECK_INT_EQ(deltalite_open(base, &opts, &db), DELTALITE_ERROR_INVALID_ARG);
    CHECK(strstr(deltalite_error_message(db), "unknown flags") != NULL);
    CHECK_INT_EQ(deltalite_close(db), DELTALITE_OK);
    int dummy = 0;
    opts = (deltalite_options){.reserved = {&dummy}};
    CHECK_INT_EQ(deltalite_open(base, &opts, &db), DELTALITE_ERROR_INVALID_ARG);
    CHECK_INT_EQ(deltalite_close(db), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_open(NULL, NULL, &db), DELTALITE_ERROR_INVALID_ARG);
    CHECK_INT_EQ(deltalite_close(db), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_open(base, NULL, NULL), DELTALITE_ERROR_INVALID_ARG);
}

TEST(test_open_a_file_as_warehouse_is_an_io_error) {
    char path[512];
    (void)snprintf(path, sizeof(path), "%s/file.txt", base);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    (void)fclose(f);
    deltalite_db *db = NULL;
    CHECK_INT_EQ(deltalite_open(path, NULL, &db), DELTALITE_ERROR_IO);
    CHECK(strstr(deltalite_error_message(db), "not a folder") != NULL);
    CHECK_INT_EQ(deltalite_close(db), DELTALITE_OK);
}

TEST(test_null_handles_are_tolerated) {
    CHECK_INT_EQ(deltalite_close(NULL), DELTALITE_OK);
    deltalite_result_free(NULL);
    CHECK_STR_EQ(deltalite_error_message(NULL), "out of memory");
    CHECK_INT_EQ(deltalite_error_status(NULL), DELTALITE_ERROR_NOMEM);
    CHECK_INT_EQ(deltalite_exec(NULL, "SELECT 1"), DELTALITE_ERROR_INVALID_ARG);
    CHECK_INT_EQ(deltalite_result_column_count(NULL), 0);
    CHECK(deltalite_result_column_name(NULL, 0) == NULL);
    CHECK_STR_EQ(deltalite_warehouse(NULL), "");
}

TEST(test_query_arguments_are_checked) {
    deltalite_db *db = NULL;
    CHECK_INT_EQ(deltalite_open(base, NULL, &db), DELTALITE_OK);
    deltalite_result *r = NULL;
    CHECK_INT_EQ(deltalite_query(db, NULL, &r), DELTALITE_ERROR_INVALID_ARG);
    CHECK(r == NULL);
    CHECK_INT_EQ(deltalite_query(db, "SELECT 1", NULL), DELTALITE_ERROR_INVALID_ARG);
    CHECK_INT_EQ(deltalite_query(db, "  -- only a comment\n ; ;", &r), DELTALITE_ERROR_INVALID_ARG);
    CHECK(strstr(deltalite_error_message(db), "holds no statement") != NULL);
    CHECK_INT_EQ(deltalite_exec(db, " /* nothing */ "), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_exec(db, NULL), DELTALITE_ERROR_INVALID_ARG);
    CHECK_INT_EQ(deltalite_close(db), DELTALITE_OK);
}

TEST(test_is_complete_knows_strings_and_comments) {
    CHECK(deltalite_is_complete("SELECT 1;"));
    CHECK(deltalite_is_complete("SELECT 1; -- done\n"));
    CHECK(!deltalite_is_complete("SELECT 1"));
    CHECK(!deltalite_is_complete("SELECT ';'"));
    CHECK(!deltalite_is_complete("SELECT 1 /* ; */"));
    CHECK(deltalite_is_complete("SELECT 'a;b';"));
    CHECK(!deltalite_is_complete(NULL));
}

TEST(test_version_and_status_names) {
    char want[32];
    (void)snprintf(want, sizeof(want), "%d.%d.%d", DELTALITE_VERSION_MAJOR, DELTALITE_VERSION_MINOR,
                   DELTALITE_VERSION_PATCH);
    CHECK_STR_EQ(deltalite_version(), want);
    CHECK_STR_EQ(deltalite_status_name(DELTALITE_ERROR_SQL_SYNTAX), "SQL_SYNTAX");
    CHECK_STR_EQ(deltalite_status_name(DELTALITE_OK), "OK");
}

static void
remove_base(void) {
    char path[600];
    (void)snprintf(path, sizeof(path), "%s/new/wh", base);
    (void)rmdir(path);
    (void)snprintf(path, sizeof(path), "%s/new", base);
    (void)rmdir(path);
    (void)snprintf(path, sizeof(path), "%s/file.txt", base);
    (void)unlink(path);
    (void)rmdir(base);
}

int
main(void) {
    if (make_base() != 0) {
        printf("cannot make a temporary folder\n");
        return 1;
    }
    RUN(test_open_missing_warehouse_fails_with_a_handle_that_explains);
    RUN(test_open_with_create_makes_the_folder_and_reports_it_absolute);
    RUN(test_open_refuses_bad_options);
    RUN(test_open_a_file_as_warehouse_is_an_io_error);
    RUN(test_null_handles_are_tolerated);
    RUN(test_query_arguments_are_checked);
    RUN(test_is_complete_knows_strings_and_comments);
    RUN(test_version_and_status_names);
    remove_base();
    return harness_finish();
}
