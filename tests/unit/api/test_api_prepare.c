/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The public API's prepared statements (markers, binding by index and name, executing many
 * times, unbound and mixed markers) and its status classes for failures while a statement
 * runs (DATA, with the caret inside the statement that failed). Exits 77 (skipped) while the
 * library is built without the SQL engine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deltalite.h"

#include "harness.h"
#include "store/store_testutil.h"

static deltalite_db *db;

/* Runs sql and returns column 0 of its first row as text ("(error)" on failure). */
static const char *
first_text(const char *sql, char *buf, size_t cap) {
    deltalite_result *r = NULL;
    bool has_row = false;
    const char *t = NULL;
    (void)snprintf(buf, cap, "(error)");
    if (deltalite_query(db, sql, &r) == DELTALITE_OK &&
        deltalite_result_next_row(r, &has_row) == DELTALITE_OK && has_row &&
        deltalite_result_get_text(r, 0, &t, NULL) == DELTALITE_OK) {
        (void)snprintf(buf, cap, "%s", t ? t : "(null)");
    }
    deltalite_result_free(r);
    return buf;
}

/* Runs sql and returns column 0 of every row as text, joined with ','. */
static const char *
all_text(const char *sql, char *buf, size_t cap) {
    deltalite_result *r = NULL;
    bool has_row = false;
    size_t n = 0;
    buf[0] = '\0';
    if (deltalite_query(db, sql, &r) != DELTALITE_OK) {
        (void)snprintf(buf, cap, "(error) %s", deltalite_error_message(db));
        return buf;
    }
    while (deltalite_result_next_row(r, &has_row) == DELTALITE_OK && has_row) {
        const char *t = NULL;
        (void)deltalite_result_get_text(r, 0, &t, NULL);
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", n > 0 ? "," : "", t ? t : "(null)");
    }
    deltalite_result_free(r);
    return buf;
}

/* Executes st and returns the text of column col of its first row in buf. */
static const char *
exec_text(deltalite_stmt *st, int32_t col, char *buf, size_t cap) {
    deltalite_result *r = NULL;
    bool has_row = false;
    const char *t = NULL;
    (void)snprintf(buf, cap, "(error)");
    if (deltalite_stmt_execute(st, &r) != DELTALITE_OK) {
        printf("  execute failed: %s\n", deltalite_error_message(db));
    } else if (deltalite_result_next_row(r, &has_row) == DELTALITE_OK && has_row &&
               deltalite_result_get_text(r, col, &t, NULL) == DELTALITE_OK) {
        (void)snprintf(buf, cap, "%s", t ? t : "(null)");
    }
    deltalite_result_free(r);
    return buf;
}

/* The status of reading the first row of sql's result. */
static deltalite_status
run_status(const char *sql) {
    deltalite_result *r = NULL;
    deltalite_status st = deltalite_query(db, sql, &r);
    bool has_row = false;
    if (st == DELTALITE_OK) {
        st = deltalite_result_next_row(r, &has_row);
    }
    deltalite_result_free(r);
    return st;
}

/* ---- status classes ----------------------------------------------------------------------- */

TEST(test_runtime_failures_are_data_errors_not_invalid_arg) {
    CHECK_INT_EQ(run_status("SELECT 1 / 0"), DELTALITE_ERROR_DATA);
    CHECK(strstr(deltalite_error_message(db), "[DIVIDE_BY_ZERO]") != NULL);
    CHECK_STR_EQ(deltalite_status_name(deltalite_error_status(db)), "DATA");
    CHECK_INT_EQ(run_status("SELECT CAST('x1' AS INT)"), DELTALITE_ERROR_DATA);
    CHECK(strstr(deltalite_error_message(db), "[CAST_INVALID_INPUT]") != NULL);
    CHECK_INT_EQ(run_status("SELECT 9223372036854775807L + 1L"), DELTALITE_ERROR_DATA);
    CHECK_INT_EQ(run_status("SELECT raise_error('boom')"), DELTALITE_ERROR_DATA);
    CHECK_INT_EQ(run_status("SELECT (SELECT id FROM range(3))"), DELTALITE_ERROR_DATA);
    CHECK_INT_EQ(deltalite_exec(db, "SET spark.sql.ansi.enabled = maybe"), DELTALITE_ERROR_DATA);
    CHECK_INT_EQ(deltalite_exec(db, "SELECT 1 / 0"), DELTALITE_ERROR_DATA);
    /* the API's own misuse stays INVALID_ARG */
    CHECK_INT_EQ(deltalite_exec(db, NULL), DELTALITE_ERROR_INVALID_ARG);
}

TEST(test_runtime_error_caret_points_into_the_statement_that_failed) {
    const char *sql = "SELECT 1;\nSELECT 2;\nSELECT 10 / 0 AS x";
    CHECK_INT_EQ(deltalite_exec(db, sql), DELTALITE_ERROR_DATA);
    CHECK_INT_EQ(deltalite_error_line(db), 3);
    int64_t off = deltalite_error_offset(db);
    CHECK(off >= (int64_t)(strstr(sql, "10 / 0") - sql) && off < (int64_t)strlen(sql));
    const char *caret = deltalite_error_caret(db);
    CHECK(strstr(caret, "SELECT 10 / 0 AS x\n") == caret);
    /* the last statement of deltalite_query fails while its rows are read */
    CHECK_INT_EQ(run_status(sql), DELTALITE_ERROR_DATA);
    CHECK_INT_EQ(deltalite_error_line(db), 3);
    caret = deltalite_error_caret(db);
    CHECK(strstr(caret, "SELECT 10 / 0 AS x\n") == caret);
    /* ... and in a statement in the middle */
    const char *mid = "SELECT 1;\n  SELECT CAST('z' AS INT);\nSELECT 3";
    CHECK_INT_EQ(deltalite_exec(db, mid), DELTALITE_ERROR_DATA);
    CHECK_INT_EQ(deltalite_error_line(db), 2);
    CHECK(strstr(deltalite_error_caret(db), "  SELECT CAST('z' AS INT);") ==
          deltalite_error_caret(db));
}

/* ---- prepared statements ------------------------------------------------------------------- */

TEST(test_positional_markers_take_the_type_of_their_values) {
    deltalite_stmt *st = NULL;
    CHECK_INT_EQ(deltalite_prepare(db, "SELECT ?", &st), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_bind_int32(st, 1, 7), DELTALITE_OK);
    deltalite_result *named = NULL;
    CHECK_INT_EQ(deltalite_stmt_execute(st, &named), DELTALITE_OK);
    CHECK_STR_EQ(deltalite_result_column_name(named, 0), "?"); /* docs/sql.md */
    deltalite_result_free(named);
    deltalite_finalize(st);
    CHECK_INT_EQ(deltalite_prepare(db, "SELECT ? + 1 AS x, ? AS s", &st), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_bind_parameter_count(st), 2);
    CHECK(deltalite_bind_parameter_name(st, 1) == NULL);
    CHECK_INT_EQ(deltalite_bind_int64(st, 1, 41), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_bind_text(st, 2, "it's -- not SQL", DELTALITE_NTS), DELTALITE_OK);
    deltalite_result *r = NULL;
    CHECK_INT_EQ(deltalite_stmt_execute(st, &r), DELTALITE_OK);
    CHECK_STR_EQ(deltalite_result_column_type_name(r, 0), "bigint");
    CHECK_STR_EQ(deltalite_result_column_type_name(r, 1), "string");
    bool has_row = false;
    CHECK_INT_EQ(deltalite_result_next_row(r, &has_row), DELTALITE_OK);
    int64_t x = 0;
    const char *s = NULL;
    CHECK_INT_EQ(deltalite_result_get_int64(r, 0, &x), DELTALITE_OK);
    CHECK_INT_EQ(x, 42);
    CHECK_INT_EQ(deltalite_result_get_text(r, 1, &s, NULL), DELTALITE_OK);
    CHECK_STR_EQ(s, "it's -- not SQL");
    /* executing again with other types while the first result is open */
    deltalite_result *r2 = NULL;
    CHECK_INT_EQ(deltalite_bind_double(st, 1, 0.5), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_bind_decimal(st, 2, "-12.50"), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_stmt_execute(st, &r2), DELTALITE_OK);
    CHECK_STR_EQ(deltalite_result_column_type_name(r2, 0), "double");
    CHECK_STR_EQ(deltalite_result_column_type_name(r2, 1), "decimal(4,2)");
    CHECK_INT_EQ(deltalite_result_next_row(r2, &has_row), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_result_get_text(r2, 0, &s, NULL), DELTALITE_OK);
    CHECK_STR_EQ(s, "1.5");
    CHECK_INT_EQ(deltalite_result_get_text(r2, 1, &s, NULL), DELTALITE_OK);
    CHECK_STR_EQ(s, "-12.50");
    deltalite_finalize(st);
    /* results outlive their statement */
    CHECK_INT_EQ(deltalite_result_get_text(r, 1, &s, NULL), DELTALITE_OK);
    CHECK_STR_EQ(s, "it's -- not SQL");
    deltalite_result_free(r);
    deltalite_result_free(r2);
}

TEST(test_named_markers_share_one_index_per_name) {
    deltalite_stmt *st = NULL;
    CHECK_INT_EQ(deltalite_prepare(db, "SELECT :a * 2 AS x, :b AS b, :a IS NULL", &st),
                 DELTALITE_OK);
    CHECK_INT_EQ(deltalite_bind_parameter_count(st), 2);
    CHECK_INT_EQ(deltalite_bind_parameter_index(st, ":a"), 1);
    CHECK_INT_EQ(deltalite_bind_parameter_index(st, "b"), 2);
    CHECK_INT_EQ(deltalite_bind_parameter_index(st, ":A"), 0);
    CHECK_INT_EQ(deltalite_bind_parameter_index(st, ":c"), 0);
    CHECK_STR_EQ(deltalite_bind_parameter_name(st, 2), ":b");
    CHECK_INT_EQ(deltalite_bind_int32(st, 1, 21), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_bind_bool(st, 2, true), DELTALITE_OK);
    char buf[64];
    CHECK_STR_EQ(exec_text(st, 0, buf, sizeof(buf)), "42");
    CHECK_STR_EQ(exec_text(st, 1, buf, sizeof(buf)), "true");
    CHECK_STR_EQ(exec_text(st, 2, buf, sizeof(buf)), "false");
    CHECK_INT_EQ(deltalite_bind_null(st, 1), DELTALITE_OK);
    CHECK_STR_EQ(exec_text(st, 2, buf, sizeof(buf)), "true");
    deltalite_finalize(st);
}

TEST(test_markers_work_in_insert_where_update_merge_and_delete) {
    CHECK_INT_EQ(deltalite_exec(db, "CREATE TABLE p (id BIGINT, name STRING, amount "
                                    "DECIMAL(10,2), d DATE, ts TIMESTAMP, b BINARY)"),
                 DELTALITE_OK);
    deltalite_stmt *ins = NULL;
    CHECK_INT_EQ(deltalite_prepare(db, "INSERT INTO p VALUES (?, ?, ?, ?, ?, ?)", &ins),
                 DELTALITE_OK);
    const char *names[] = {"ann", "bob", "cy"};
    for (int i = 0; i < 3; i++) {
        CHECK_INT_EQ(deltalite_bind_int64(ins, 1, i + 1), DELTALITE_OK);
        CHECK_INT_EQ(deltalite_bind_text(ins, 2, names[i], strlen(names[i])), DELTALITE_OK);
        CHECK_INT_EQ(deltalite_bind_decimal(ins, 3, i == 0 ? "1.5" : "20"), DELTALITE_OK);
        CHECK_INT_EQ(deltalite_bind_date(ins, 4, 20000 + i), DELTALITE_OK);
        CHECK_INT_EQ(deltalite_bind_timestamp(ins, 5, INT64_C(1700000000000000) + i), DELTALITE_OK);
        CHECK_INT_EQ(deltalite_bind_blob(ins, 6, "\x00\x01", 2), DELTALITE_OK);
        char buf[64];
        CHECK_STR_EQ(exec_text(ins, 1, buf, sizeof(buf)), "1"); /* num_inserted_rows */
    }
    deltalite_finalize(ins);
    char buf[128];
    CHECK_STR_EQ(all_text("SELECT concat(CAST(id AS STRING), name, CAST(amount AS STRING), "
                          "CAST(d AS STRING), hex(b)) FROM p ORDER BY id",
                          buf, sizeof(buf)),
                 "1ann1.502024-10-040001,2bob20.002024-10-050001,3cy20.002024-10-060001");
    deltalite_stmt *sel = NULL;
    CHECK_INT_EQ(deltalite_prepare(db, "SELECT count(*) FROM p WHERE id > ? AND ts >= ?", &sel),
                 DELTALITE_OK);
    CHECK_INT_EQ(deltalite_bind_int32(sel, 1, 1), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_bind_timestamp(sel, 2, INT64_C(1700000000000002)), DELTALITE_OK);
    CHECK_STR_EQ(exec_text(sel, 0, buf, sizeof(buf)), "1");
    deltalite_finalize(sel);
    deltalite_stmt *upd = NULL;
    CHECK_INT_EQ(deltalite_prepare(db,
                                   "UPDATE p SET name = :n, amount = amount + :n_add "
                                   "WHERE id = :id",
                                   &upd),
                 DELTALITE_OK);
    CHECK_INT_EQ(
        deltalite_bind_text(upd, deltalite_bind_parameter_index(upd, ":n"), "BOB", DELTALITE_NTS),
        DELTALITE_OK);
    CHECK_INT_EQ(deltalite_bind_int32(upd, deltalite_bind_parameter_index(upd, ":n_add"), 1),
                 DELTALITE_OK);
    CHECK_INT_EQ(deltalite_bind_int64(upd, deltalite_bind_parameter_index(upd, ":id"), 2),
                 DELTALITE_OK);
    CHECK_STR_EQ(exec_text(upd, 0, buf, sizeof(buf)), "1");
    deltalite_finalize(upd);
    deltalite_stmt *mrg = NULL;
    CHECK_INT_EQ(deltalite_prepare(db,
                                   "MERGE INTO p USING (SELECT ? AS id, ? AS name) s "
                                   "ON p.id = s.id WHEN MATCHED THEN UPDATE SET name = "
                                   "s.name WHEN NOT MATCHED THEN INSERT (id, name) VALUES "
                                   "(s.id, s.name)",
                                   &mrg),
                 DELTALITE_OK);
    CHECK_INT_EQ(deltalite_bind_int64(mrg, 1, 3), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_bind_text(mrg, 2, "CY", 2), DELTALITE_OK);
    CHECK_STR_EQ(exec_text(mrg, 0, buf, sizeof(buf)), "1"); /* num_affected_rows */
    deltalite_finalize(mrg);
    CHECK_STR_EQ(all_text("SELECT concat(CAST(id AS STRING), name, CAST(amount AS STRING)) "
                          "FROM p ORDER BY id",
                          buf, sizeof(buf)),
                 "1ann1.50,2BOB21.00,3CY20.00");
    deltalite_stmt *del = NULL;
    CHECK_INT_EQ(deltalite_prepare(db, "DELETE FROM p WHERE name = ?", &del), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_bind_text(del, 1, "ann", 3), DELTALITE_OK);
    CHECK_STR_EQ(exec_text(del, 0, buf, sizeof(buf)), "1");
    deltalite_finalize(del);
    CHECK_STR_EQ(first_text("SELECT count(*) FROM p", buf, sizeof(buf)), "2");
}

TEST(test_unbound_and_mixed_markers_are_refused_naming_the_marker) {
    deltalite_stmt *st = NULL;
    CHECK_INT_EQ(deltalite_prepare(db, "SELECT ?, ?", &st), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_bind_int32(st, 1, 1), DELTALITE_OK);
    deltalite_result *r = NULL;
    CHECK_INT_EQ(deltalite_stmt_execute(st, &r), DELTALITE_ERROR_SQL_BIND);
    CHECK(r == NULL);
    CHECK(strstr(deltalite_error_message(db), "[UNBOUND_SQL_PARAMETER]") != NULL);
    CHECK(strstr(deltalite_error_message(db), "parameter 2") != NULL);
    CHECK_INT_EQ(deltalite_error_offset(db), 10);
    CHECK(strchr(deltalite_error_caret(db), '^') != NULL);
    CHECK_INT_EQ(deltalite_bind_int32(st, 2, 2), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_clear_bindings(st), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_stmt_execute(st, &r), DELTALITE_ERROR_SQL_BIND);
    CHECK(strstr(deltalite_error_message(db), "parameter 1") != NULL);
    /* bad indexes and values are the caller's misuse */
    CHECK_INT_EQ(deltalite_bind_int32(st, 0, 1), DELTALITE_ERROR_INVALID_ARG);
    CHECK(strstr(deltalite_error_message(db), "out of range") != NULL);
    CHECK_INT_EQ(deltalite_bind_int32(st, 3, 1), DELTALITE_ERROR_INVALID_ARG);
    CHECK_INT_EQ(deltalite_bind_decimal(st, 1, "1e5"), DELTALITE_ERROR_INVALID_ARG);
    CHECK_INT_EQ(deltalite_bind_decimal(st, 1, "123456789012345678901234567890123456789"),
                 DELTALITE_ERROR_INVALID_ARG);
    CHECK_INT_EQ(deltalite_bind_text(st, 1, "\xff", 1), DELTALITE_ERROR_INVALID_ARG);
    CHECK_INT_EQ(deltalite_close(db), DELTALITE_ERROR_INVALID_ARG); /* st is alive */
    deltalite_finalize(st);
    /* a marker outside a prepared statement is unbound */
    CHECK_INT_EQ(run_status("SELECT 1 + :x"), DELTALITE_ERROR_SQL_BIND);
    CHECK(strstr(deltalite_error_message(db), "unbound parameter: :x") != NULL);
    CHECK_INT_EQ(deltalite_error_offset(db), 11);
    CHECK_INT_EQ(deltalite_prepare(db, "SELECT ?, :a", &st), DELTALITE_ERROR_SQL_BIND);
    CHECK(st == NULL);
    CHECK(strstr(deltalite_error_message(db), "INVALID_QUERY_MIXED_QUERY_PARAMETERS") != NULL);
    CHECK_INT_EQ(deltalite_error_offset(db), 10);
    CHECK_INT_EQ(deltalite_prepare(db, "SELECT ?; SELECT ?", &st), DELTALITE_ERROR_SQL_SYNTAX);
    /* statements that keep SQL text refuse markers */
    CHECK_INT_EQ(deltalite_prepare(db, "CREATE VIEW pv AS SELECT ? AS x", &st), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_bind_int32(st, 1, 1), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_stmt_execute(st, &r), DELTALITE_ERROR_UNSUPPORTED);
    CHECK(strstr(deltalite_error_message(db), "PARAMETER_MARKER_IN_UNEXPECTED_STATEMENT") != NULL);
    deltalite_finalize(st);
}

TEST(test_a_failing_execution_is_a_data_error_with_its_caret) {
    deltalite_stmt *st = NULL;
    CHECK_INT_EQ(deltalite_prepare(db, "SELECT 10 / ?", &st), DELTALITE_OK);
    CHECK_INT_EQ(deltalite_bind_int32(st, 1, 0), DELTALITE_OK);
    deltalite_result *r = NULL;
    CHECK_INT_EQ(deltalite_stmt_execute(st, &r), DELTALITE_OK);
    bool has_row = false;
    CHECK_INT_EQ(deltalite_result_next_row(r, &has_row), DELTALITE_ERROR_DATA);
    CHECK(strstr(deltalite_error_caret(db), "SELECT 10 / ?") == deltalite_error_caret(db));
    deltalite_result_free(r);
    CHECK_INT_EQ(deltalite_bind_int32(st, 1, 5), DELTALITE_OK);
    char buf[32];
    CHECK_STR_EQ(exec_text(st, 0, buf, sizeof(buf)), "2.0");
    deltalite_finalize(st);
}

int
main(void) {
    char base[256];
    const char *tmp = getenv("TMPDIR");
    (void)snprintf(base, sizeof(base), "%s/dl_api_prep_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (mkdtemp(base) == NULL) {
        return 1;
    }
    deltalite_options opts = {.flags = DELTALITE_OPEN_NO_FSYNC};
    if (deltalite_open(base, &opts, &db) != DELTALITE_OK) {
        printf("open: %s\n", deltalite_error_message(db));
        return 1;
    }
    deltalite_result *probe = NULL;
    if (deltalite_query(db, "SELECT 1", &probe) == DELTALITE_ERROR_UNSUPPORTED) {
        printf("skipped: %s\n", deltalite_error_message(db));
        (void)deltalite_close(db);
        (void)rmdir(base);
        return 77;
    }
    deltalite_result_free(probe);
    RUN(test_runtime_failures_are_data_errors_not_invalid_arg);
    RUN(test_runtime_error_caret_points_into_the_statement_that_failed);
    RUN(test_positional_markers_take_the_type_of_their_values);
    RUN(test_named_markers_share_one_index_per_name);
    RUN(test_markers_work_in_insert_where_update_merge_and_delete);
    RUN(test_unbound_and_mixed_markers_are_refused_naming_the_marker);
    RUN(test_a_failing_execution_is_a_data_error_with_its_caret);
    if (deltalite_close(db) != DELTALITE_OK) {
        printf("close: %s\n", deltalite_error_message(db));
        return 1;
    }
    testutil_remove_tree(base);
    return harness_finish();
}
