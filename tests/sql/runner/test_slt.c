/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sqllogictest runner against a fake engine: parsing records, comparing results (sort
 * modes, NULL and (empty), row- and value-wise layouts), expected errors, and that a wrong
 * result fails its record with the file and line in the report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "slt.h"

/* ---- a fake engine -------------------------------------------------------------------- */

/* "SELECT <a>,<b>;<c>,<d>" returns rows split at ';' and cells at ','; "null" is NULL and
 * "empty" the empty string. "FAIL <text>" fails with <text>. Anything else succeeds with no
 * columns. */
static dl_status
fake_run(void *ctx, const char *sql, dl_arena *arena, slt_result *out, dl_error *err) {
    (void)ctx;
    (void)err;
    memset(out, 0, sizeof(*out));
    if (strncmp(sql, "FAIL ", 5) == 0) {
        out->error = dl_arena_strndup(arena, sql + 5, strlen(sql + 5));
        return DL_OK;
    }
    out->is_ok = true;
    if (strncmp(sql, "SELECT ", 7) != 0) {
        return DL_OK;
    }
    const char *body = sql + 7;
    const char *first_row_end = strchr(body, ';');
    size_t first_len = first_row_end ? (size_t)(first_row_end - body) : strlen(body);
    out->n_cols = 1;
    for (size_t i = 0; i < first_len; i++) {
        out->n_cols += body[i] == ',' ? 1 : 0;
    }
    const char **cells = dl_arena_alloc_array(arena, 256, sizeof(char *));
    int64_t n = 0;
    const char *p = body;
    while (*p != '\0' && n < 256) {
        size_t len = strcspn(p, ",;");
        char *cell = dl_arena_strndup(arena, p, len);
        cells[n++] = strcmp(cell, "null") == 0 ? NULL : strcmp(cell, "empty") == 0 ? "" : cell;
        p += len;
        if (*p != '\0') {
            p++;
        }
    }
    out->cells = cells;
    out->n_rows = n / out->n_cols;
    return DL_OK;
}

static dl_arena arena;
static char report[8192];

static slt_counts
run_text(const char *text) {
    slt_counts counts = {0};
    slt_file file;
    dl_error err;
    report[0] = '\0';
    if (slt_parse("t.test", text, strlen(text), &arena, &file, &err) != DL_OK) {
        (void)snprintf(report, sizeof(report), "parse: %s", err.msg);
        counts.failed = -1;
        return counts;
    }
    FILE *f = fmemopen(report, sizeof(report) - 1, "w");
    slt_exec exec = {.run = fake_run};
    slt_vars vars = {.corpus = "/corpus", .warehouse = "/wh", .test_dir = "/tests"};
    if (slt_run_file(&file, &exec, &vars, f, &counts, &err) != DL_OK) {
        counts.failed = -2;
    }
    (void)fclose(f);
    return counts;
}

TEST(test_slt_parses_records_with_their_lines) {
    const char *text = "# a comment\n"
                       "\n"
                       "statement ok\n"
                       "CREATE TABLE t (a INT)\n"
                       "\n"
                       "statement error\n"
                       "SELECT x\n"
                       "----\n"
                       "cannot resolve\n"
                       "\n"
                       "query IT rowsort\n"
                       "SELECT a,\n"
                       "  b FROM t\n"
                       "----\n"
                       "1\tx\n"
                       "2\ty\n";
    slt_file f;
    dl_error err;
    CHECK_OK(slt_parse("t.test", text, strlen(text), &arena, &f, &err), &err);
    CHECK_INT_EQ(f.n_records, 3);
    CHECK_INT_EQ(f.records[0].kind, SLT_STATEMENT_OK);
    CHECK_INT_EQ(f.records[0].line, 3);
    CHECK_STR_EQ(f.records[0].sql, "CREATE TABLE t (a INT)");
    CHECK_INT_EQ(f.records[1].kind, SLT_STATEMENT_ERROR);
    CHECK_STR_EQ(f.records[1].expected[0], "cannot resolve");
    CHECK_INT_EQ(f.records[2].kind, SLT_QUERY);
    CHECK_INT_EQ(f.records[2].line, 11);
    CHECK_STR_EQ(f.records[2].types, "IT");
    CHECK_INT_EQ(f.records[2].sort, SLT_ROWSORT);
    CHECK_STR_EQ(f.records[2].sql, "SELECT a,\n  b FROM t");
    CHECK_INT_EQ(f.records[2].n_expected, 2);
    CHECK_STR_EQ(f.records[2].expected[1], "2\ty");
}

TEST(test_slt_unknown_record_is_a_syntax_error_naming_file_and_line) {
    slt_file f;
    dl_error err;
    const char *text = "statement ok\nSELECT 1\n\nloop i 0 10\n";
    CHECK_STATUS(slt_parse("x.test", text, strlen(text), &arena, &f, &err), DL_ERR_SQL_SYNTAX,
                 &err);
    CHECK_ERR_CONTAINS(&err, "x.test:4: unknown record 'loop'");
    text = "query\nSELECT 1\n";
    CHECK_STATUS(slt_parse("x.test", text, strlen(text), &arena, &f, &err), DL_ERR_SQL_SYNTAX,
                 &err);
    CHECK_ERR_CONTAINS(&err, "x.test:1: query needs its column types");
}

TEST(test_slt_passing_records_count_as_passed) {
    slt_counts c = run_text("statement ok\nCREATE x\n\n"
                            "query IT\nSELECT 1,a;2,null\n----\n1\ta\n2\tNULL\n\n"
                            "query T\nSELECT empty\n----\n(empty)\n");
    CHECK_INT_EQ(c.failed, 0);
    CHECK_INT_EQ(c.passed, 3);
}

TEST(test_slt_wrong_result_fails_with_file_line_expected_and_actual) {
    slt_counts c = run_text("statement ok\nCREATE x\n\nquery I\nSELECT 1;2\n----\n1\n3\n");
    CHECK_INT_EQ(c.passed, 1);
    CHECK_INT_EQ(c.failed, 1);
    CHECK(strstr(report, "FAIL t.test:4: wrong result") != NULL);
    CHECK(strstr(report, "-- expected (2 lines):\n1\n3\n") != NULL);
    CHECK(strstr(report, "-- actual (2 lines):\n1\n2\n") != NULL);
}

TEST(test_slt_rowsort_and_valuesort_sort_before_comparing) {
    slt_counts c = run_text("query IT rowsort\nSELECT 2,b;1,a\n----\n1\ta\n2\tb\n\n"
                            "query II valuesort\nSELECT 4,1;3,2\n----\n1\n2\n3\n4\n\n"
                            "query IT nosort\nSELECT 2,b;1,a\n----\n1\ta\n2\tb\n");
    CHECK_INT_EQ(c.passed, 2);
    CHECK_INT_EQ(c.failed, 1);
    CHECK(strstr(report, "t.test:15: wrong result") != NULL);
}

TEST(test_slt_accepts_one_value_per_line) {
    slt_counts c = run_text("query IT\nSELECT 1,a;2,b\n----\n1\na\n2\nb\n");
    CHECK_INT_EQ(c.failed, 0);
    CHECK_INT_EQ(c.passed, 1);
}

TEST(test_slt_column_count_must_match_the_types) {
    slt_counts c = run_text("query III\nSELECT 1,2\n----\n1\t2\n");
    CHECK_INT_EQ(c.failed, 1);
    CHECK(strstr(report, "wrong number of columns") != NULL);
}

TEST(test_slt_statement_error_matches_substring_or_regex) {
    slt_counts c =
        run_text("statement error\nFAIL version 42 does not exist\n----\nversion\n\n"
                 "statement error\nFAIL boom\n\n"
                 "statement error\nFAIL table 't' not found\n----\n<REGEX>:table '.' not\n\n"
                 "statement error\nFAIL other\n----\n<!REGEX>:ver.ion\n");
    CHECK_INT_EQ(c.failed, 0);
    CHECK_INT_EQ(c.passed, 4);
}

TEST(test_slt_unexpected_success_or_wrong_error_fails) {
    slt_counts c = run_text("statement error\nCREATE x\n----\nanything\n\n"
                            "statement error\nFAIL boom\n----\nbang\n\n"
                            "statement ok\nFAIL nope\n\n"
                            "query I\nFAIL no query\n----\n1\n");
    CHECK_INT_EQ(c.failed, 4);
    CHECK(strstr(report, "t.test:1: statement succeeded but an error was expected") != NULL);
    CHECK(strstr(report, "-- expected an error containing:\nbang\n-- actual error:\nboom") != NULL);
    CHECK(strstr(report, "t.test:11: statement failed\nFAIL nope\n-- error:\nnope") != NULL);
    CHECK(strstr(report, "t.test:14: query failed") != NULL);
}

TEST(test_slt_skipif_onlyif_and_mode_skip_skip_records) {
    slt_counts c = run_text("skipif deltalite\nstatement ok\nFAIL a\n\n"
                            "onlyif duckdb\nstatement ok\nFAIL b\n\n"
                            "onlyif deltalite\nstatement ok\nCREATE c\n\n"
                            "mode skip\n\nstatement ok\nFAIL d\n\nmode unskip\n\n"
                            "statement ok\nCREATE e\n\n"
                            "halt\n\nstatement ok\nFAIL f\n");
    CHECK_INT_EQ(c.failed, 0);
    CHECK_INT_EQ(c.passed, 2);
    CHECK_INT_EQ(c.skipped, 3);
}

TEST(test_slt_substitutes_corpus_warehouse_and_test_dir) {
    slt_counts c = run_text("query TTT\nSELECT ${CORPUS},${WAREHOUSE}/t,${TEST_DIR}\n----\n"
                            "/corpus\t/wh/t\t/tests\n");
    CHECK_INT_EQ(c.failed, 0);
    CHECK_INT_EQ(c.passed, 1);
    dl_buf b;
    dl_buf_init(&b, NULL);
    slt_vars none = {0};
    dl_error err;
    CHECK_OK(slt_substitute("a ${CORPUS} $x ${OTHER}", &none, &b, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&b), "a  $x ${OTHER}");
    dl_buf_destroy(&b);
}

TEST(test_slt_require_skips_the_file_when_unmet) {
    slt_counts c = run_text("require corpus\n\nstatement ok\nCREATE x\n");
    CHECK(!c.is_file_skipped);
    CHECK_INT_EQ(c.passed, 1);
    c = run_text("require spark\n\nstatement ok\nFAIL x\n");
    CHECK(c.is_file_skipped);
    CHECK_STR_EQ(c.skip_reason, "spark");
    CHECK_INT_EQ(c.failed, 0);
}

int
main(void) {
    dl_arena_init(&arena, NULL, 0);
    RUN(test_slt_parses_records_with_their_lines);
    RUN(test_slt_unknown_record_is_a_syntax_error_naming_file_and_line);
    RUN(test_slt_passing_records_count_as_passed);
    RUN(test_slt_wrong_result_fails_with_file_line_expected_and_actual);
    RUN(test_slt_rowsort_and_valuesort_sort_before_comparing);
    RUN(test_slt_accepts_one_value_per_line);
    RUN(test_slt_column_count_must_match_the_types);
    RUN(test_slt_statement_error_matches_substring_or_regex);
    RUN(test_slt_unexpected_success_or_wrong_error_fails);
    RUN(test_slt_skipif_onlyif_and_mode_skip_skip_records);
    RUN(test_slt_substitutes_corpus_warehouse_and_test_dir);
    RUN(test_slt_require_skips_the_file_when_unmet);
    dl_arena_destroy(&arena);
    return harness_finish();
}
