/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The public API running SQL: results, typed getters, text, errors with offsets and carets,
 * scripts, the Arrow stream, a corpus table, and deltalite_interrupt. Exits 77 (skipped) while the
 * library is built without the SQL engine.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "deltalite.h"

#include "harness.h"
#include "store/store_testutil.h"

static deltalite_db *db;

static deltalite_result *
query(const char *sql) {
    deltalite_result *r = NULL;
    if (deltalite_query(db, sql, &r) != DELTALITE_OK) {
        printf("  query failed: %s\n  %s\n", sql, deltalite_error_message(db));
        return NULL;
    }
    return r;
}

static bool
next(deltalite_result *r) {
    bool has_row = false;
    if (deltalite_result_next_row(r, &has_row) != DELTALITE_OK) {
        printf("  next_row failed: %s\n", deltalite_error_message(db));
        return false;
    }
    return has_row;
}

static const char *
text(deltalite_result *r, int32_t col) {
    const char *t = NULL;
    if (deltalite_result_get_text(r, col, &t, NULL) != DELTALITE_OK) {
        return "(error)";
    }
    return t ? t : "(null)";
}

TEST(test_select_literals_gives_names_types_and_typed_values) {
    deltalite_result *r = query("SELECT 1 AS one, 'x' AS s, CAST(25.5 AS DECIMAL(10,2)) AS d, "
                                "DATE '2026-10-02' AS dt, TIMESTAMP '2026-10-02 08:00:00.5' AS ts, "
                                "true AS b, CAST(NULL AS INT) AS n, CAST(1.5 AS DOUBLE) AS dbl, "
                                "CAST(7 AS BIGINT) AS big");
    CHECK(r != NULL);
    CHECK_INT_EQ(deltalite_result_column_count(r), 9);
    CHECK_STR_EQ(deltalite_result_column_name(r, 0), "one");
    CHECK_INT_EQ(deltalite_result_column_type(r, 0), DELTALITE_TYPE_INT);
    CHECK_STR_EQ(deltalite_result_column_type_name(r, 2), "decimal(10,2)");
    CHECK_INT_EQ(deltalite_result_column_type(r, 4), DELTALITE_TYPE_TIMESTAMP);
    int32_t p = 0;
    int32_t s = 0;
    CHECK_INT_EQ(deltalite_result_column_decimal(r, 2, &p, &s), DELTALITE_OK);
    CHECK(p == 10 && s == 2);
    CHECK_INT_EQ(deltalite_result_column_decimal(r, 0, &p, &s), DELTALITE_ERROR_SCHEMA);
    CHECK(next(r));
    int64_t i = 0;
    CHECK_INT_EQ(deltalite_result_get_int64(r, 0, &i), DELTALITE_OK);
    CHECK_INT_EQ(i, 1);
    CHECK_INT_EQ(deltalite_result_get_int64(r, 8, &i), DELTALITE_OK);
    CHECK_INT_EQ(i, 7);
    CHECK_STR_EQ(text(r, 1), "x");
    CHECK_STR_EQ(text(r, 2), "25.50");
    double d = 0;
    CHECK_INT_EQ(deltalite_result_get_double(r, 2, &d), DELTALITE_OK);
    CHECK(d == 25.5);
    int32_t days = 0;
    CHECK_INT_EQ(deltalite_result_get_date(r, 3, &days), DELTALITE_OK);
    CHECK_INT_EQ(days, 20728);
    CHECK_STR_EQ(text(r, 3), "2026-10-02");
    int64_t micros = 0;
    CHECK_INT_EQ(deltalite_result_get_timestamp(r, 4, &micros), DELTALITE_OK);
    CHECK_INT_EQ(micros, INT64_C(1790928000500000));
    CHECK_STR_EQ(text(r, 4), "2026-10-02 08:00:00.5");
    bool b = false;
    CHECK_INT_EQ(deltalite_result_get_bool(r, 5, &b), DELTALITE_OK);
    CHECK(b);
    CHECK_STR_EQ(text(r, 5), "true");
    CHECK(deltalite_result_is_null(r, 6));
    CHECK(!deltalite_result_is_null(r, 0));
    CHECK_STR_EQ(text(r, 6), "(null)");
    CHECK_INT_EQ(deltalite_result_get_int64(r, 6, &i), DELTALITE_ERROR_INVALID_ARG);
    CHECK(strstr(deltalite_error_message(db), "is NULL") != NULL);
    CHECK_INT_EQ(deltalite_result_get_double(r, 7, &d), DELTALITE_OK);
    CHECK(d == 1.5);
    CHECK_STR_EQ(text(r, 7), "1.5");
    CHECK(!next(r));
    CHECK(!next(r));
    deltalite_result_free(r);
}

TEST(test_getters_refuse_wrong_types_and_positions) {
    deltalite_result *r = query("SELECT 'abc' AS s");
    CHECK(r != NULL);
    int64_t i = 0;
    CHECK_INT_EQ(deltalite_result_get_int64(r, 0, &i), DELTALITE_ERROR_INVALID_ARG);
    CHECK(strstr(deltalite_error_message(db), "no current row") != NULL);
    CHECK(next(r));
    CHECK_INT_EQ(deltalite_result_get_int64(r, 0, &i), DELTALITE_ERROR_SCHEMA);
    CHECK(strstr(deltalite_error_message(db), "column 0 's' is string, not an integer") != NULL);
    CHECK_INT_EQ(deltalite_result_get_int64(r, 5, &i), DELTALITE_ERROR_INVALID_ARG);
    CHECK(deltalite_result_column_name(r, 5) == NULL);
    const void *bytes = NULL;
    size_t len = 0;
    CHECK_INT_EQ(deltalite_result_get_blob(r, 0, &bytes, &len), DELTALITE_OK);
    CHECK(len == 3 && memcmp(bytes, "abc", 3) == 0);
    deltalite_result_free(r);
}

TEST(test_script_returns_the_last_statement_and_errors_point_into_the_whole_text) {
    deltalite_result *r = query("SELECT 1;\nSELECT 2 AS two");
    CHECK(r != NULL);
    CHECK_STR_EQ(deltalite_result_column_name(r, 0), "two");
    deltalite_result_free(r);
    const char *sql = "SELECT 1;\nSELECT (2 FROM t";
    CHECK_INT_EQ(deltalite_query(db, sql, &r), DELTALITE_ERROR_SQL_SYNTAX);
    CHECK(r == NULL);
    int64_t off = deltalite_error_offset(db);
    CHECK(off >= 10 && off < (int64_t)strlen(sql));
    CHECK_INT_EQ(deltalite_error_line(db), 2);
    CHECK(strstr(deltalite_error_message(db), "line 2, column 11") != NULL);
    CHECK(deltalite_error_column(db) > 1);
    const char *caret = deltalite_error_caret(db);
    CHECK(strstr(caret, "SELECT (2 FROM t\n") == caret);
    CHECK(strchr(caret, '^') != NULL);
    CHECK_INT_EQ(deltalite_exec(db, "SELECT 1; SELECT 2"), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_error_status(db), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_error_offset(db), -1);
}

TEST(test_missing_table_is_not_found_with_the_catalog_message) {
    deltalite_result *r = NULL;
    deltalite_status st = deltalite_query(db, "SELECT * FROM no_such_table", &r);
    CHECK_INT_EQ(st, DELTALITE_ERROR_NOT_FOUND);
    CHECK(strstr(deltalite_error_message(db), "no_such_table") != NULL);
}

TEST(test_close_is_refused_while_a_result_is_open) {
    deltalite_result *r = query("SELECT 1");
    CHECK(r != NULL);
    CHECK_INT_EQ(deltalite_close(db), DELTALITE_ERROR_INVALID_ARG);
    CHECK(strstr(deltalite_error_message(db), "still open") != NULL);
    deltalite_result_free(r);
}

TEST(test_arrow_stream_exports_schema_and_batches) {
    struct ArrowArrayStream stream;
    CHECK_INT_EQ(
        deltalite_query_arrow(db, "SELECT * FROM VALUES (1, 'x'), (2, 'y') AS t(a, b)", &stream),
        DELTALITE_OK);
    struct ArrowSchema schema;
    CHECK_INT_EQ(stream.get_schema(&stream, &schema), 0);
    CHECK_STR_EQ(schema.format, "+s");
    CHECK_INT_EQ(schema.n_children, 2);
    CHECK_STR_EQ(schema.children[0]->name, "a");
    CHECK_STR_EQ(schema.children[0]->format, "i");
    schema.release(&schema);
    int64_t rows = 0;
    int rc = 0;
    for (;;) {
        struct ArrowArray array;
        rc = stream.get_next(&stream, &array);
        if (rc != 0 || array.release == NULL) {
            break;
        }
        rows += array.n_children == 2 ? array.length : -1000;
        array.release(&array);
    }
    if (rc != 0) {
        printf("  get_next: %s\n", stream.get_last_error(&stream));
        stream.release(&stream);
    }
    CHECK_INT_EQ(rc, 0);
    CHECK_INT_EQ(rows, 2);
    CHECK(stream.get_last_error(&stream) == NULL);
    stream.release(&stream);
    CHECK(stream.release == NULL);
}

/* Consumers that predate string views ask for "u"/"z" or "U"/"Z": the schema says so at every
 * level (inside arrays too) and the arrays hold offsets and the bytes. */
TEST(test_arrow_stream_gives_plain_or_large_strings_on_request) {
    static const uint32_t flags[2] = {DELTALITE_ARROW_PLAIN_STRINGS, DELTALITE_ARROW_LARGE_STRINGS};
    for (int k = 0; k < 2; k++) {
        deltalite_result *r = query("SELECT * FROM VALUES ('abc', X'0001', array('x', NULL)), "
                                    "(NULL, X'', array('yz')) AS t(s, b, xs)");
        CHECK(r != NULL);
        struct ArrowArrayStream stream;
        CHECK_INT_EQ(deltalite_result_to_arrow_flags(r, flags[k], &stream), DELTALITE_OK);
        struct ArrowSchema schema;
        CHECK_INT_EQ(stream.get_schema(&stream, &schema), 0);
        CHECK_STR_EQ(schema.children[0]->format, k == 0 ? "u" : "U");
        CHECK_STR_EQ(schema.children[1]->format, k == 0 ? "z" : "Z");
        CHECK_STR_EQ(schema.children[2]->children[0]->format, k == 0 ? "u" : "U");
        schema.release(&schema);
        struct ArrowArray array;
        CHECK_INT_EQ(stream.get_next(&stream, &array), 0);
        CHECK(array.release != NULL && array.length == 2);
        const struct ArrowArray *str = array.children[0];
        CHECK_INT_EQ(str->n_buffers, 3);
        CHECK_INT_EQ(str->null_count, 1);
        int64_t end0 =
            k == 0 ? ((const int32_t *)str->buffers[1])[1] : ((const int64_t *)str->buffers[1])[1];
        int64_t end1 =
            k == 0 ? ((const int32_t *)str->buffers[1])[2] : ((const int64_t *)str->buffers[1])[2];
        CHECK_INT_EQ(end0, 3);
        CHECK_INT_EQ(end1, 3); /* the NULL holds no bytes */
        CHECK(memcmp(str->buffers[2], "abc", 3) == 0);
        const struct ArrowArray *elems = array.children[2]->children[0];
        CHECK_INT_EQ(elems->length, 3);
        int64_t elems_end = k == 0 ? ((const int32_t *)elems->buffers[1])[3]
                                   : ((const int64_t *)elems->buffers[1])[3];
        CHECK_INT_EQ(elems_end, 3);
        CHECK(memcmp(elems->buffers[2], "xyz", 3) == 0);
        array.release(&array);
        stream.release(&stream);
    }
    deltalite_result *r = query("SELECT 'a' AS s");
    CHECK(r != NULL);
    struct ArrowArrayStream bad;
    CHECK_INT_EQ(deltalite_result_to_arrow_flags(r, 3, &bad), DELTALITE_ERROR_INVALID_ARG);
    CHECK(strstr(deltalite_error_message(db), "at most one of") != NULL);
}

/* deltalite_progress counts the parts (files) the running statement's scans read: all of
 * them once it is read to its end, zero for a statement without a scan. */
TEST(test_progress_counts_the_files_a_query_reads) {
    CHECK_INT_EQ(deltalite_exec(db, "SET spark.sql.files.maxRecordsPerFile = 10; "
                                    "CREATE TABLE progress_t USING delta AS SELECT id FROM "
                                    "range(45); RESET spark.sql.files.maxRecordsPerFile"),
                 DELTALITE_OK);
    deltalite_result *r = query("SELECT count(*) FROM progress_t");
    CHECK(r != NULL);
    int64_t done = -1;
    int64_t total = -1;
    while (next(r)) {
    }
    deltalite_progress(db, &done, &total);
    deltalite_result_free(r);
    CHECK_INT_EQ(total, 5);
    CHECK_INT_EQ(done, 5);
    r = query("SELECT 1");
    CHECK(r != NULL && next(r));
    deltalite_progress(db, &done, NULL);
    deltalite_result_free(r);
    CHECK_INT_EQ(done, 0);
    deltalite_progress(NULL, &done, &total); /* no handle: nothing runs */
    CHECK_INT_EQ(total, 0);
}

TEST(test_arrow_stream_continues_after_rows_read_one_by_one) {
    deltalite_result *r = query("SELECT id FROM range(0, 5) AS t(id)");
    CHECK(r != NULL);
    CHECK(next(r));
    CHECK(next(r));
    struct ArrowArrayStream stream;
    CHECK_INT_EQ(deltalite_result_to_arrow(r, &stream), DELTALITE_OK);
    int64_t rows = 0;
    int rc = 0;
    for (;;) {
        struct ArrowArray array;
        rc = stream.get_next(&stream, &array);
        if (rc != 0 || array.release == NULL) {
            break;
        }
        rows += array.length;
        array.release(&array);
    }
    if (rc != 0) {
        printf("  get_next: %s\n", stream.get_last_error(&stream));
        stream.release(&stream);
    }
    CHECK_INT_EQ(rc, 0);
    CHECK_INT_EQ(rows, 3);
    stream.release(&stream);
}

TEST(test_arrow_stream_failure_is_the_handles_last_error) {
    struct ArrowArrayStream stream;
    CHECK_INT_EQ(
        deltalite_query_arrow(db, "SELECT 1 / (id - 3) FROM range(0, 5) AS t(id)", &stream),
        DELTALITE_OK);
    struct ArrowArray array;
    int rc = stream.get_next(&stream, &array);
    CHECK(rc != 0);
    CHECK(strstr(stream.get_last_error(&stream), "DIVIDE_BY_ZERO") != NULL);
    CHECK(deltalite_error_status(db) != DELTALITE_OK);
    CHECK(strstr(deltalite_error_message(db), "DIVIDE_BY_ZERO") != NULL);
    stream.release(&stream);
}

/* The first column of the only row of sql, as text ("(error)" on failure). */
static const char *
scalar(const char *sql, char *buf, size_t cap) {
    deltalite_result *r = query(sql);
    (void)snprintf(buf, cap, "%s", r != NULL && next(r) ? text(r, 0) : "(error)");
    deltalite_result_free(r);
    return buf;
}

TEST(test_a_registered_arrow_stream_reads_as_a_relation_shadowing_a_table) {
    struct ArrowArrayStream stream;
    CHECK_INT_EQ(deltalite_query_arrow(db,
                                       "SELECT id, CAST(id AS STRING) AS s FROM range(0, 5000) "
                                       "AS t(id)",
                                       &stream),
                 DELTALITE_OK);
    CHECK_INT_EQ(deltalite_register_arrow_stream(db, "src", &stream), DELTALITE_OK);
    CHECK(stream.release == NULL);
    char buf[64];
    CHECK_STR_EQ(
        scalar("SELECT count(*) || ' ' || sum(id) || ' ' || max(s) FROM src", buf, sizeof(buf)),
        "5000 12497500 999");
    /* read twice in one statement, and by a second statement */
    CHECK_STR_EQ(scalar("SELECT count(*) FROM src a JOIN src b ON a.id = b.id", buf, sizeof(buf)),
                 "5000");
    CHECK_INT_EQ(deltalite_exec(db, "CREATE TABLE src (id BIGINT) USING delta; "
                                    "INSERT INTO src VALUES (42)"),
                 DELTALITE_ERROR_SQL_BIND); /* the INSERT: src is the relation */
    CHECK(strstr(deltalite_error_message(db), "temporary relation") != NULL);
    CHECK_INT_EQ(deltalite_exec(db, "INSERT INTO default.src VALUES (42)"), DELTALITE_OK);
    CHECK_STR_EQ(scalar("SELECT count(*) FROM src", buf, sizeof(buf)), "5000");
    CHECK_STR_EQ(scalar("SELECT count(*) FROM default.src", buf, sizeof(buf)), "1");
    bool found = false;
    CHECK_INT_EQ(deltalite_unregister(db, "SRC", &found), DELTALITE_OK);
    CHECK(found);
    CHECK_INT_EQ(deltalite_unregister(db, "src", &found), DELTALITE_OK);
    CHECK(!found);
    CHECK_STR_EQ(scalar("SELECT count(*) FROM src", buf, sizeof(buf)), "1");
}

TEST(test_registering_refuses_bad_names_and_releases_the_stream) {
    struct ArrowArrayStream stream;
    CHECK_INT_EQ(deltalite_query_arrow(db, "SELECT 1 AS x", &stream), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_register_arrow_stream(db, "a.b", &stream), DELTALITE_ERROR_INVALID_ARG);
    CHECK(stream.release == NULL);
    CHECK(strstr(deltalite_error_message(db), "plain name") != NULL);
    CHECK_INT_EQ(deltalite_register_arrow_stream(db, "x", NULL), DELTALITE_ERROR_INVALID_ARG);
}

TEST(test_corpus_table_reads_by_path) {
    char sql[1024];
    const char *path = DL_CORPUS_DIR "/dat/reader_tests/generated/basic_append/delta";
    if (access(path, F_OK) != 0) {
        printf("  (skipped: no corpus at %s)\n", path);
        return;
    }
    (void)snprintf(sql, sizeof(sql), "SELECT count(*), sum(number) FROM delta.`%s`", path);
    deltalite_result *r = query(sql);
    CHECK(r != NULL);
    CHECK(next(r));
    CHECK_STR_EQ(text(r, 0), "5");
    CHECK_STR_EQ(text(r, 1), "15");
    deltalite_result_free(r);
    (void)snprintf(sql, sizeof(sql), "SELECT count(*) FROM delta.`%s` VERSION AS OF 0", path);
    r = query(sql);
    CHECK(r != NULL);
    CHECK(next(r));
    CHECK_STR_EQ(text(r, 0), "3");
    deltalite_result_free(r);
}

TEST(test_session_time_zone_shapes_timestamp_text) {
    deltalite_db *tzdb = NULL;
    deltalite_options opts = {.time_zone = "+02:00", .threads = -1};
    CHECK_INT_EQ(deltalite_open(".", &opts, &tzdb), DELTALITE_OK);
    deltalite_result *r = NULL;
    CHECK_INT_EQ(deltalite_query(tzdb, "SELECT TIMESTAMP '2026-10-02 08:00:00' AS ts", &r),
                 DELTALITE_OK);
    CHECK(next(r));
    CHECK_STR_EQ(text(r, 0), "2026-10-02 08:00:00");
    int64_t micros = 0;
    CHECK_INT_EQ(deltalite_result_get_timestamp(r, 0, &micros), DELTALITE_OK);
    CHECK_INT_EQ(micros, INT64_C(1790920800000000));
    deltalite_result_free(r);
    CHECK_INT_EQ(deltalite_close(tzdb), DELTALITE_OK);
}

TEST(test_get_json_writes_any_value_as_json) {
    deltalite_result *r =
        query("SELECT named_struct('a', 1, 'b', CAST(NULL AS INT), 'c', array('x', 'y\"')) AS s, "
              "CAST(NULL AS STRING) AS n, 2.50BD AS d, 'q' AS t, DATE '2026-10-02' AS dt");
    CHECK(r != NULL && next(r));
    const char *j = NULL;
    size_t len = 0;
    CHECK_INT_EQ(deltalite_result_get_json(r, 0, &j, &len), DELTALITE_OK);
    CHECK_STR_EQ(j, "{\"a\":1,\"b\":null,\"c\":[\"x\",\"y\\\"\"]}");
    CHECK_INT_EQ(len, strlen(j));
    CHECK_INT_EQ(deltalite_result_get_json(r, 1, &j, NULL), DELTALITE_OK);
    CHECK_STR_EQ(j, "null");
    CHECK_INT_EQ(deltalite_result_get_json(r, 2, &j, NULL), DELTALITE_OK);
    CHECK_STR_EQ(j, "2.50");
    CHECK_INT_EQ(deltalite_result_get_json(r, 3, &j, NULL), DELTALITE_OK);
    CHECK_STR_EQ(j, "\"q\"");
    CHECK_INT_EQ(deltalite_result_get_json(r, 4, &j, NULL), DELTALITE_OK);
    CHECK_STR_EQ(j, "\"2026-10-02\"");
    CHECK_INT_EQ(deltalite_result_get_json(r, 9, &j, NULL), DELTALITE_ERROR_INVALID_ARG);
    deltalite_result_free(r);
}

/* ---- deltalite_interrupt ---- */

typedef struct runner {
    deltalite_db *db;
    const char *sql;
    deltalite_status status;
    _Atomic(int) is_started;
} runner;

static void *
run_sql(void *arg) {
    runner *r = arg;
    atomic_store(&r->is_started, 1);
    r->status = deltalite_exec(r->db, r->sql);
    return NULL;
}

/* Runs sql on a thread, interrupts db after 100 ms, and returns what the statement ended with. */
static deltalite_status
interrupted(deltalite_db *d, const char *sql) {
    runner r = {.db = d, .sql = sql};
    pthread_t t;
    if (pthread_create(&t, NULL, run_sql, &r) != 0) {
        return DELTALITE_ERROR_INTERNAL;
    }
    while (atomic_load(&r.is_started) == 0) {
        sched_yield();
    }
    struct timespec pause = {.tv_sec = 0, .tv_nsec = 100 * 1000 * 1000};
    (void)nanosleep(&pause, NULL);
    deltalite_interrupt(d);
    (void)pthread_join(t, NULL);
    return r.status;
}

TEST(test_interrupt_cancels_a_running_query_and_not_the_next) {
    /* Minutes of work on any machine, cancelled after 100 ms. */
    CHECK_INT_EQ(interrupted(db, "SELECT count(*) FROM range(1000000000000) WHERE id % 7 = 3"),
                 DELTALITE_ERROR_INTERRUPTED);
    CHECK(strstr(deltalite_error_message(db), "interrupted") != NULL);
    deltalite_result *r = query("SELECT count(*) FROM range(10)");
    CHECK(r != NULL && next(r));
    CHECK_STR_EQ(text(r, 0), "10");
    deltalite_result_free(r);
    deltalite_interrupt(NULL); /* harmless */
}

TEST(test_interrupted_create_table_as_select_commits_nothing) {
    char dir[TESTUTIL_ROOT_CAP];
    CHECK(testutil_make_tmp_dir(dir));
    deltalite_db *d = NULL;
    deltalite_options opts = {.flags = DELTALITE_OPEN_NO_FSYNC};
    CHECK_INT_EQ(deltalite_open(dir, &opts, &d), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_exec(d, "CREATE TABLE t (id BIGINT) USING delta"), DELTALITE_OK);
    CHECK_INT_EQ(interrupted(d, "INSERT INTO t SELECT id FROM range(1000000000000)"),
                 DELTALITE_ERROR_INTERRUPTED);
    deltalite_result *r = NULL;
    CHECK_INT_EQ(deltalite_query(d,
                                 "SELECT count(*), (SELECT max(version) FROM (DESCRIBE "
                                 "HISTORY t)) FROM t",
                                 &r),
                 DELTALITE_OK);
    bool has_row = false;
    CHECK_INT_EQ(deltalite_result_next_row(r, &has_row), DELTALITE_OK);
    CHECK(has_row);
    int64_t rows = -1;
    int64_t version = -1;
    CHECK_INT_EQ(deltalite_result_get_int64(r, 0, &rows), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_result_get_int64(r, 1, &version), DELTALITE_OK);
    CHECK_INT_EQ(rows, 0);
    CHECK_INT_EQ(version, 0); /* only the CREATE TABLE */
    deltalite_result_free(r);
    CHECK_INT_EQ(deltalite_close(d), DELTALITE_OK);
    testutil_remove_tree(dir);
}

/* An interrupt that arrives after a change committed (the statement ran inside
 * deltalite_query; only its result row is left) does not turn the commit into an error: a
 * caller retrying on the error would run OPTIMIZE twice. It failed with "the statement was
 * interrupted". */
TEST(test_interrupt_after_the_commit_reports_the_commit) {
    char dir[TESTUTIL_ROOT_CAP];
    CHECK(testutil_make_tmp_dir(dir));
    deltalite_db *d = NULL;
    deltalite_options opts = {.flags = DELTALITE_OPEN_NO_FSYNC};
    CHECK_INT_EQ(deltalite_open(dir, &opts, &d), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_exec(d, "CREATE TABLE t (id BIGINT) USING delta; INSERT INTO t VALUES "
                                   "(1); INSERT INTO t VALUES (2)"),
                 DELTALITE_OK);
    deltalite_result *r = NULL;
    CHECK_INT_EQ(deltalite_query(d, "OPTIMIZE t", &r), DELTALITE_OK);
    deltalite_interrupt(d); /* Ctrl-C, after the commit */
    bool has_row = false;
    CHECK_INT_EQ(deltalite_result_next_row(r, &has_row), DELTALITE_OK);
    CHECK(has_row);
    const char *path = NULL;
    CHECK_INT_EQ(deltalite_result_get_text(r, 0, &path, NULL), DELTALITE_OK);
    CHECK(strstr(path, dir) != NULL);
    deltalite_result_free(r);
    /* A query is still stopped by it. */
    CHECK_INT_EQ(deltalite_query(d, "SELECT id FROM t", &r), DELTALITE_OK);
    deltalite_interrupt(d);
    CHECK_INT_EQ(deltalite_result_next_row(r, &has_row), DELTALITE_ERROR_INTERRUPTED);
    deltalite_result_free(r);
    CHECK_INT_EQ(deltalite_close(d), DELTALITE_OK);
    testutil_remove_tree(dir);
}

int
main(void) {
    char base[256];
    const char *tmp = getenv("TMPDIR");
    (void)snprintf(base, sizeof(base), "%s/dl_api_sql_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (mkdtemp(base) == NULL) {
        return 1;
    }
    deltalite_options opts = {.flags = DELTALITE_OPEN_NO_FSYNC};
    if (deltalite_open(base, &opts, &db) != DELTALITE_OK) {
        printf("open: %s\n", deltalite_error_message(db));
        return 1;
    }
    deltalite_result *probe = NULL;
    if (deltalite_query(db, "SELECT 1", &probe) == DELTALITE_ERROR_UNSUPPORTED &&
        strstr(deltalite_error_message(db), "not built") != NULL) {
        printf("skipped: %s\n", deltalite_error_message(db));
        (void)deltalite_close(db);
        (void)rmdir(base);
        return 77;
    }
    deltalite_result_free(probe);
    RUN(test_select_literals_gives_names_types_and_typed_values);
    RUN(test_getters_refuse_wrong_types_and_positions);
    RUN(test_script_returns_the_last_statement_and_errors_point_into_the_whole_text);
    RUN(test_missing_table_is_not_found_with_the_catalog_message);
    RUN(test_close_is_refused_while_a_result_is_open);
    RUN(test_arrow_stream_exports_schema_and_batches);
    RUN(test_arrow_stream_continues_after_rows_read_one_by_one);
    RUN(test_arrow_stream_gives_plain_or_large_strings_on_request);
    RUN(test_progress_counts_the_files_a_query_reads);
    RUN(test_arrow_stream_failure_is_the_handles_last_error);
    RUN(test_a_registered_arrow_stream_reads_as_a_relation_shadowing_a_table);
    RUN(test_registering_refuses_bad_names_and_releases_the_stream);
    RUN(test_corpus_table_reads_by_path);
    RUN(test_session_time_zone_shapes_timestamp_text);
    RUN(test_get_json_writes_any_value_as_json);
    RUN(test_interrupt_cancels_a_running_query_and_not_the_next);
    RUN(test_interrupted_create_table_as_select_commits_nothing);
    RUN(test_interrupt_after_the_commit_reports_the_commit);
    if (deltalite_close(db) != DELTALITE_OK) {
        printf("close: %s\n", deltalite_error_message(db));
        return 1;
    }
    (void)rmdir(base);
    return harness_finish();
}
