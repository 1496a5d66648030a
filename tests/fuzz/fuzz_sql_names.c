/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for table names and paths: names typed in SQL become folder names and
 * store paths (the catalog, src/store/store_local.c's fixed-size path buffers, the log's
 * listings). A 4,200-byte name once overwrote the stack in the local store's listing.
 *
 * Input: the bytes of a name (any bytes; a '`' is doubled when quoted). In a fresh warehouse
 * it runs, through the public API,
 *
 *     CREATE TABLE `name` (a INT); INSERT INTO `name` VALUES (1); SELECT a FROM `name`;
 *     SELECT a FROM delta.`<warehouse>/name`;
 *
 * Properties, on any bytes:
 *   1. Nothing crashes, reads or writes out of bounds, leaks or triggers undefined behaviour.
 *   2. Every statement succeeds or fails with a message; none fails as an internal error.
 *   3. A name that CREATE TABLE accepted works: the INSERT and the SELECT by that name succeed
 *      and the SELECT returns exactly the one row inserted (a name is never half-usable).
 * A violation aborts, so libFuzzer records the input.
 */
/* nftw is XSI. */
#define _XOPEN_SOURCE 700 /* NOLINT(bugprone-reserved-identifier,readability-identifier-naming) */

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deltalite.h"

#include "base/base.h"

#define FUZZ_ASSERT(cond)                                                                     \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            (void)fprintf(stderr, "fuzz_sql_names: property violated: %s (line %d)\n", #cond, \
                          __LINE__);                                                          \
            abort();                                                                          \
        }                                                                                     \
    } while (0)

#define NAME_MAX_BYTES 8192 /* longer inputs are cut: far past every path limit already */

/* libFuzzer's fixed entry point name. */
// NOLINTNEXTLINE(readability-identifier-naming)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Appends s[0, len) to out with every '`' doubled, between backticks. */
static void
append_quoted(dl_buf *out, const uint8_t *s, size_t len) {
    FUZZ_ASSERT(dl_buf_append_byte(out, '`', NULL) == DL_OK);
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '`') {
            FUZZ_ASSERT(dl_buf_append_byte(out, '`', NULL) == DL_OK);
        }
        FUZZ_ASSERT(dl_buf_append_byte(out, s[i], NULL) == DL_OK);
    }
    FUZZ_ASSERT(dl_buf_append_byte(out, '`', NULL) == DL_OK);
}

/* Runs sql; returns its status. With out_rows, reads the rows: their count, and checks that
 * each holds the value 1. */
static deltalite_status
run(deltalite_db *db, const dl_buf *sql, int64_t *out_rows) {
    deltalite_result *r = NULL;
    deltalite_status ds = deltalite_query_len(db, (const char *)sql->data, sql->len, &r);
    int64_t n = 0;
    bool has_row = ds == DELTALITE_OK;
    while (ds == DELTALITE_OK && has_row) {
        ds = deltalite_result_next_row(r, &has_row);
        if (ds == DELTALITE_OK && has_row && out_rows != NULL) {
            int64_t v = 0;
            FUZZ_ASSERT(deltalite_result_get_int64(r, 0, &v) == DELTALITE_OK && v == 1);
            n++;
        }
    }
    deltalite_result_free(r);
    if (ds != DELTALITE_OK) {
        FUZZ_ASSERT(ds != DELTALITE_ERROR_INTERNAL);
        FUZZ_ASSERT(deltalite_error_message(db)[0] != '\0');
    }
    if (out_rows != NULL) {
        *out_rows = n;
    }
    return ds;
}

static void
statement(dl_buf *sql, const char *head, const uint8_t *name, size_t len, const char *tail) {
    dl_buf_reset(sql);
    FUZZ_ASSERT(dl_buf_append_cstr(sql, head, NULL) == DL_OK);
    append_quoted(sql, name, len);
    FUZZ_ASSERT(dl_buf_append_cstr(sql, tail, NULL) == DL_OK);
}

static void
run_name(deltalite_db *db, const char *warehouse, const uint8_t *name, size_t len) {
    dl_buf sql;
    dl_buf_init(&sql, NULL);
    statement(&sql, "CREATE TABLE ", name, len, " (a INT)");
    bool is_created = run(db, &sql, NULL) == DELTALITE_OK;
    statement(&sql, "INSERT INTO ", name, len, " VALUES (1)");
    deltalite_status inserted = run(db, &sql, NULL);
    statement(&sql, "SELECT a FROM ", name, len, "");
    int64_t rows = 0;
    deltalite_status selected = run(db, &sql, &rows);
    if (is_created) {
        FUZZ_ASSERT(inserted == DELTALITE_OK);
        FUZZ_ASSERT(selected == DELTALITE_OK && rows == 1);
    }
    /* The same folder by path: delta.`<warehouse>/<name>`. */
    dl_buf path;
    dl_buf_init(&path, NULL);
    FUZZ_ASSERT(dl_buf_appendf(&path, NULL, "%s/", warehouse) == DL_OK);
    FUZZ_ASSERT(dl_buf_append(&path, name, len, NULL) == DL_OK);
    statement(&sql, "SELECT a FROM delta.", path.data, path.len, "");
    (void)run(db, &sql, &rows);
    dl_buf_destroy(&path);
    dl_buf_destroy(&sql);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static unsigned long counter;
    const char *tmp = getenv("TMPDIR");
    char warehouse[512];
    int n = snprintf(warehouse, sizeof(warehouse), "%s/dl_fuzz_names_%ld_%lu",
                     tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp", (long)getpid(), counter++);
    FUZZ_ASSERT(n > 0 && (size_t)n < sizeof(warehouse));
    deltalite_options opts = {.threads = -1, .flags = DELTALITE_OPEN_CREATE};
    deltalite_db *db = NULL;
    FUZZ_ASSERT(deltalite_open(warehouse, &opts, &db) == DELTALITE_OK);
    run_name(db, warehouse, data, DL_MIN(size, (size_t)NAME_MAX_BYTES));
    FUZZ_ASSERT(deltalite_close(db) == DELTALITE_OK);
    (void)nftw(warehouse, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return 0;
}
