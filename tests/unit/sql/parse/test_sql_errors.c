/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Errors: every class of refusal with its status, byte offset, line, column and message;
 * nesting limits; statements refused on purpose; out of memory at every allocation.
 */
#include "harness.h"
#include "sql/parse/sql_parse.h"

/* Parses sql as a script and checks the failure: status, offset, "at line L, column C: " and
 * a fragment of the message. Returns false (after printing why) on a mismatch. */
static bool
fails_with(const char *sql, size_t len, dl_status code, int64_t offset, int line, int col,
           const char *fragment) {
    dl_arena arena;
    dl_error err;
    dl_sql_script script;
    char where[64];
    bool ok = true;
    dl_arena_init(&arena, NULL, 0);
    dl_error_clear(&err);
    dl_status s = dl_sql_parse(&arena, sql, len, &script, &err);
    (void)snprintf(where, sizeof(where), " at line %d, column %d: ", line, col);
    if (s != code || err.code != code) {
        printf("  %.60s: status %s, want %s (%s)\n", sql, dl_status_name(s), dl_status_name(code),
               err.msg);
        ok = false;
    } else if (err.offset != offset || strstr(err.msg, where) == NULL ||
               strstr(err.msg, fragment) == NULL) {
        printf("  %.60s:\n    got  offset %lld: %s\n    want offset %lld, '%s', '%s'\n", sql,
               (long long)err.offset, err.msg, (long long)offset, where, fragment);
        ok = false;
    }
    dl_arena_destroy(&arena);
    return ok;
}

#define CHECK_FAILS(sql, code, off, line, col, frag) \
    CHECK(fails_with((sql), strlen(sql), (code), (off), (line), (col), (frag)))

TEST(test_syntax_errors_name_position_expected_and_found) {
    CHECK_FAILS("SELECT count(a\n  FROM t", DL_ERR_SQL_SYNTAX, 17, 2, 3,
                "syntax error at line 2, column 3: expected ')' to close the argument list "
                "opened at line 1, column 13, found 'FROM'");
    CHECK_FAILS("SELECT FROM t", DL_ERR_SQL_SYNTAX, 7, 1, 8,
                "expected an expression, found 'FROM'");
    CHECK_FAILS("SELECT a,\nFROM t", DL_ERR_SQL_SYNTAX, 10, 2, 1,
                "expected an expression, found 'FROM'");
    CHECK_FAILS("SELECT 1 2", DL_ERR_SQL_SYNTAX, 9, 1, 10,
                "expected the end of the statement, found '2'");
    CHECK_FAILS("SELECT * FROM t WHERE", DL_ERR_SQL_SYNTAX, 21, 1, 22,
                "expected an expression, found end of input");
    CHECK_FAILS("SELECT (1 + 2;", DL_ERR_SQL_SYNTAX, 13, 1, 14,
                "expected ')' to close the parenthesis opened at line 1, column 8, found ';'");
    CHECK_FAILS("SELECT CASE WHEN a THEN 1 FROM t", DL_ERR_SQL_SYNTAX, 26, 1, 27,
                "expected WHEN, ELSE or END to continue the CASE opened at line 1, column 8, "
                "found 'FROM'");
    CHECK_FAILS("SELECT CAST(a AS FOO)", DL_ERR_SQL_SYNTAX, 17, 1, 18,
                "expected a type (BOOLEAN, INT");
    CHECK_FAILS("SELECT a FROM t ORDER a", DL_ERR_SQL_SYNTAX, 22, 1, 23, "expected BY, found 'a'");
    CHECK_FAILS("SELECT 1;\nSELECT 'h\xc3\xa9llo' + FROM t", DL_ERR_SQL_SYNTAX, 28, 2, 18,
                "expected an expression, found 'FROM'");
    CHECK_FAILS("SELECT x IS 3", DL_ERR_SQL_SYNTAX, 12, 1, 13,
                "expected NULL, TRUE, FALSE, UNKNOWN or DISTINCT FROM after IS, found '3'");
    CHECK_FAILS("SELECT * FROM t@x", DL_ERR_SQL_SYNTAX, 16, 1, 17,
                "expected v<version> or a timestamp");
    CHECK_FAILS("SELECT * FROM t@12", DL_ERR_SQL_SYNTAX, 16, 1, 17, "(17 digits) after '@'");
    CHECK_FAILS("SELECT * FROM t FOR VERSION", DL_ERR_SQL_SYNTAX, 20, 1, 21,
                "expected SYSTEM_VERSION AS OF or SYSTEM_TIME AS OF after FOR");
    CHECK_FAILS("SELECT 'a' AS", DL_ERR_SQL_SYNTAX, 13, 1, 14,
                "expected an alias, found end of input");
    CHECK_FAILS("SELECT a FROM t JOIN u ON", DL_ERR_SQL_SYNTAX, 25, 1, 26,
                "expected an expression");
    CHECK_FAILS("SELECT a NOT 1", DL_ERR_SQL_SYNTAX, 9, 1, 10,
                "expected the end of the statement, found 'NOT'");
}

TEST(test_statement_errors_say_what_was_expected) {
    CHECK_FAILS("FOO bar", DL_ERR_SQL_SYNTAX, 0, 1, 1,
                "unknown statement 'FOO'; expected SELECT, WITH, VALUES, INSERT, UPDATE, DELETE, "
                "MERGE, CREATE");
    CHECK_FAILS("  42", DL_ERR_SQL_SYNTAX, 2, 1, 3, "expected a statement (SELECT, WITH");
    CHECK_FAILS("CREATE FUNCTION f", DL_ERR_SQL_SYNTAX, 7, 1, 8,
                "expected TABLE, VIEW, SCHEMA or DATABASE after CREATE, found 'FUNCTION'");
    CHECK_FAILS("CREATE OR REPLACE TABLE IF NOT EXISTS t (a INT)", DL_ERR_SQL_SYNTAX, 24, 1, 25,
                "OR REPLACE and IF NOT EXISTS cannot be used together");
    CHECK_FAILS("CREATE TABLE t (a INT) LOCATION 'x' LOCATION 'y'", DL_ERR_SQL_SYNTAX, 36, 1, 37,
                "LOCATION is given twice");
    CHECK_FAILS("CREATE TABLE t (a DECIMAL(39, 2))", DL_ERR_SQL_SYNTAX, 26, 1, 27,
                "DECIMAL precision 39 is out of range: it must be 1 to 38");
    CHECK_FAILS("CREATE TABLE t (a DECIMAL(5, 6))", DL_ERR_SQL_SYNTAX, 29, 1, 30,
                "DECIMAL scale 6 exceeds its precision 5");
    CHECK_FAILS("CREATE TABLE t (a VARCHAR(0))", DL_ERR_SQL_SYNTAX, 26, 1, 27,
                "VARCHAR length must be at least 1");
    CHECK_FAILS("CREATE TEMP TABLE t (a INT)", DL_ERR_SQL_SYNTAX, 12, 1, 13,
                "expected VIEW (only views can be temporary)");
    CHECK_FAILS("MERGE INTO t USING s ON a = b WHEN NOT MATCHED THEN DELETE", DL_ERR_SQL_SYNTAX, 52,
                1, 53, "WHEN NOT MATCHED can only INSERT");
    CHECK_FAILS("MERGE INTO t USING s ON a = b WHEN MATCHED THEN INSERT *", DL_ERR_SQL_SYNTAX, 48,
                1, 49, "only WHEN NOT MATCHED [BY TARGET] can INSERT");
    CHECK_FAILS("MERGE INTO t USING s ON a = b", DL_ERR_SQL_SYNTAX, 29, 1, 30,
                "expected WHEN MATCHED or WHEN NOT MATCHED");
    CHECK_FAILS("RESTORE TABLE t", DL_ERR_SQL_SYNTAX, 15, 1, 16,
                "expected VERSION AS OF or TIMESTAMP AS OF");
    CHECK_FAILS("VACUUM t RETAIN 1 HOURS RETAIN 2 HOURS", DL_ERR_SQL_SYNTAX, 24, 1, 25,
                "RETAIN is given twice");
    CHECK_FAILS("SET = 1", DL_ERR_SQL_SYNTAX, 4, 1, 5, "expected a setting name before '='");
    CHECK_FAILS("EXPLAIN EXPLAIN SELECT 1", DL_ERR_SQL_SYNTAX, 8, 1, 9,
                "EXPLAIN cannot explain an EXPLAIN");
    CHECK_FAILS("SELECT * FROM t NATURAL a", DL_ERR_SQL_SYNTAX, 24, 1, 25,
                "expected a join after NATURAL");
    CHECK_FAILS("SELECT * FROM a NATURAL JOIN b ON TRUE", DL_ERR_SQL_SYNTAX, 34, 1, 35,
                "a NATURAL join takes no ON clause");
}

TEST(test_lexical_errors_point_at_the_bad_bytes) {
    CHECK_FAILS("SELECT 'abc", DL_ERR_SQL_SYNTAX, 7, 1, 8, "unterminated string literal");
    CHECK_FAILS("SELECT 1;\nSELECT `abc", DL_ERR_SQL_SYNTAX, 17, 2, 8,
                "unterminated quoted identifier");
    CHECK_FAILS("SELECT 1 /* a /* b */", DL_ERR_SQL_SYNTAX, 9, 1, 10, "unterminated comment");
    CHECK_FAILS("SELECT #", DL_ERR_SQL_SYNTAX, 7, 1, 8, "unexpected character '#'");
    CHECK_FAILS("SELECT \xe2\x82\xac", DL_ERR_SQL_SYNTAX, 7, 1, 8,
                "unexpected character '\xe2\x82\xac'");
    CHECK_FAILS("SELECT 1 \x01", DL_ERR_SQL_SYNTAX, 9, 1, 10, "unexpected character: byte 0x01");
    CHECK_FAILS("SELECT 'a\xff'", DL_ERR_SQL_SYNTAX, 9, 1, 10, "invalid UTF-8: byte 0xFF");
    CHECK_FAILS("SELECT 1 -- \xc3\x28", DL_ERR_SQL_SYNTAX, 12, 1, 13, "invalid UTF-8: byte 0xC3");
    CHECK_FAILS("SELECT '\\u12G4'", DL_ERR_SQL_SYNTAX, 8, 1, 9,
                "\\u must be followed by 4 hexadecimal digits");
    CHECK_FAILS("SELECT 'ab\\uD800'", DL_ERR_SQL_SYNTAX, 10, 1, 11,
                "\\uD800 is an unpaired surrogate");
    CHECK_FAILS("SELECT X'1G'", DL_ERR_SQL_SYNTAX, 8, 1, 9, "not a hexadecimal digit");
    const char nul_sql[] = "SELECT \0";
    CHECK(fails_with(nul_sql, sizeof(nul_sql) - 1, DL_ERR_SQL_SYNTAX, 7, 1, 8,
                     "unexpected character: byte 0x00"));
}

TEST(test_refused_statements_are_unsupported_not_syntax_errors) {
    CHECK_FAILS("MSCK REPAIR TABLE t", DL_ERR_UNSUPPORTED, 0, 1, 1,
                "unsupported SQL at line 1, column 1: MSCK REPAIR is not supported");
    CHECK_FAILS("CACHE TABLE t AS SELECT 1", DL_ERR_UNSUPPORTED, 14, 1, 15,
                "CACHE TABLE ... AS query is not supported");
    CHECK_FAILS("SELECT * FROM t TABLESAMPLE (10 PERCENT)", DL_ERR_UNSUPPORTED, 16, 1, 17,
                "TABLESAMPLE is not supported");
    CHECK_FAILS("SELECT * FROM t LATERAL VIEW explode(a) x", DL_ERR_UNSUPPORTED, 16, 1, 17,
                "LATERAL VIEW is not supported");
    CHECK_FAILS("SELECT * FROM t PIVOT (sum(a) FOR b IN (1))", DL_ERR_UNSUPPORTED, 16, 1, 17,
                "PIVOT and UNPIVOT are not supported");
    CHECK_FAILS("SELECT a FROM t SORT BY a", DL_ERR_UNSUPPORTED, 16, 1, 17, "use ORDER BY");
    CHECK_FAILS("WITH RECURSIVE r AS (SELECT 1) SELECT * FROM r", DL_ERR_UNSUPPORTED, 5, 1, 6,
                "WITH RECURSIVE is not supported");
    CHECK_FAILS("COPY INTO t FROM 'x' FILEFORMAT = CSV VALIDATE ALL", DL_ERR_UNSUPPORTED, 38, 1, 39,
                "COPY INTO ... VALIDATE is not supported yet");
    CHECK_FAILS("INSERT OVERWRITE DIRECTORY '/x' SELECT 1", DL_ERR_UNSUPPORTED, 17, 1, 18,
                "INSERT OVERWRITE DIRECTORY is not supported");
    CHECK_FAILS("CREATE TABLE t (a INT, CONSTRAINT pk PRIMARY KEY (a))", DL_ERR_UNSUPPORTED, 37, 1,
                38, "only CHECK constraints are supported");
    CHECK_FAILS("DESCRIBE FUNCTION upper", DL_ERR_UNSUPPORTED, 9, 1, 10,
                "DESCRIBE FUNCTION is not supported");
}

/* prefix, n copies of a, mid, n copies of b. */
static const char *
nest(dl_buf *buf, const char *prefix, const char *a, const char *mid, const char *b, int n) {
    dl_buf_reset(buf);
    if (dl_buf_append_cstr(buf, prefix, NULL) != DL_OK) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (dl_buf_append_cstr(buf, a, NULL) != DL_OK) {
            return NULL;
        }
    }
    if (dl_buf_append_cstr(buf, mid, NULL) != DL_OK) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (dl_buf_append_cstr(buf, b, NULL) != DL_OK) {
            return NULL;
        }
    }
    return dl_buf_cstr(buf);
}

static dl_status
parse_status(const char *sql, dl_error *err) {
    dl_arena arena;
    dl_sql_script script;
    dl_arena_init(&arena, NULL, 0);
    dl_status s = dl_sql_parse(&arena, sql, strlen(sql), &script, err);
    dl_arena_destroy(&arena);
    return s;
}

TEST(test_deep_nesting_is_a_limit_error_not_a_crash) {
    dl_buf buf;
    dl_error err;
    dl_buf_init(&buf, NULL);
    /* Far past every limit: parentheses, unary and NOT chains, subqueries, types. */
    CHECK_STATUS(parse_status(nest(&buf, "", "(", "SELECT 1", ")", 100000), &err), DL_ERR_LIMIT,
                 &err);
    CHECK_ERR_CONTAINS(&err, "SQL too complex at line 1, column ");
    CHECK_ERR_CONTAINS(&err, "nests too deeply");
    CHECK_STATUS(parse_status(nest(&buf, "SELECT ", "(", "1", ")", 50000), &err), DL_ERR_LIMIT,
                 &err);
    CHECK_STATUS(parse_status(nest(&buf, "SELECT ", "- ", "1", "", 100000), &err), DL_ERR_LIMIT,
                 &err);
    CHECK_STATUS(parse_status(nest(&buf, "SELECT ", "NOT ", "1", "", 100000), &err), DL_ERR_LIMIT,
                 &err);
    CHECK_STATUS(parse_status(nest(&buf, "SELECT * FROM ", "(", "t", ")", 50000), &err),
                 DL_ERR_LIMIT, &err);
    CHECK_STATUS(parse_status(nest(&buf, "SELECT ", "f(", "1", ")", 50000), &err), DL_ERR_LIMIT,
                 &err);
    CHECK_STATUS(parse_status(nest(&buf, "SELECT ", "CASE WHEN ", "1", " THEN 1 END", 50000), &err),
                 DL_ERR_LIMIT, &err);
    CHECK_STATUS(parse_status(nest(&buf, "SELECT CAST(a AS ", "ARRAY<", "INT", ">", 200), &err),
                 DL_ERR_LIMIT, &err);
    CHECK_ERR_CONTAINS(&err, "types nest more than 100 levels deep");
    /* Left-deep chains built in loops are bounded by the tree height. */
    CHECK_STATUS(parse_status(nest(&buf, "SELECT 1", "", "", " + 1", 5000), &err), DL_ERR_LIMIT,
                 &err);
    CHECK_ERR_CONTAINS(&err, "nests more than 1000 levels deep");
    CHECK_STATUS(parse_status(nest(&buf, "SELECT 1", "", "", " UNION SELECT 1", 5000), &err),
                 DL_ERR_LIMIT, &err);
    CHECK_STATUS(parse_status(nest(&buf, "SELECT * FROM t", "", "", " JOIN t ON TRUE", 5000), &err),
                 DL_ERR_LIMIT, &err);
    CHECK_STATUS(parse_status(nest(&buf, "SELECT a", "", "", "[0]", 5000), &err), DL_ERR_LIMIT,
                 &err);
    /* Just inside the limits it parses. */
    CHECK_OK(parse_status(nest(&buf, "SELECT 1", "", "", " + 1", 990), &err), &err);
    CHECK_OK(parse_status(nest(&buf, "SELECT ", "", "1", "", 1), &err), &err);
    CHECK_OK(parse_status(nest(&buf, "", "(", "SELECT 1", ")", 900), &err), &err);
    CHECK_OK(parse_status(nest(&buf, "SELECT ", "- ", "1", "", 990), &err), &err);
    CHECK(nest(&buf, "SELECT CAST(a AS ", "ARRAY<", "INT", ">", 99) != NULL);
    CHECK_OK(dl_buf_append_cstr(&buf, ")", &err), &err);
    CHECK_OK(parse_status(dl_buf_cstr(&buf), &err), &err);
    dl_buf_destroy(&buf);
}

TEST(test_deepest_accepted_tree_prints_and_parses_again) {
    dl_buf buf;
    dl_buf text;
    dl_error err;
    dl_arena arena;
    dl_sql_stmt *s;
    dl_buf_init(&buf, NULL);
    dl_buf_init(&text, NULL);
    dl_arena_init(&arena, NULL, 0);
    const char *sql = nest(&buf, "SELECT 1", "", "", " + 1", 998);
    CHECK_OK(dl_sql_parse_stmt(&arena, sql, strlen(sql), &s, &err), &err);
    CHECK_INT_EQ(s->u.query->u.select->items[0].expr->height, 999);
    CHECK_OK(dl_sql_stmt_print(s, &text, &err), &err);
    CHECK_OK(dl_sql_parse_stmt(&arena, (const char *)text.data, text.len, &s, &err), &err);
    dl_buf_destroy(&text);
    dl_buf_destroy(&buf);
    dl_arena_destroy(&arena);
}

TEST(test_parse_stmt_takes_exactly_one_statement) {
    dl_arena arena;
    dl_error err;
    dl_sql_stmt *s;
    dl_arena_init(&arena, NULL, 0);
    CHECK_OK(dl_sql_parse_stmt(&arena, "SELECT 1;", 9, &s, &err), &err);
    CHECK_STATUS(dl_sql_parse_stmt(&arena, "SELECT 1;\n  SELECT 2", 20, &s, &err),
                 DL_ERR_SQL_SYNTAX, &err);
    CHECK_ERR_CONTAINS(&err, "syntax error at line 2, column 3: expected one statement");
    CHECK_INT_EQ(err.offset, 12);
    CHECK(s == NULL);
    CHECK_STATUS(dl_sql_parse_stmt(&arena, " ; -- x", 7, &s, &err), DL_ERR_SQL_SYNTAX, &err);
    CHECK_ERR_CONTAINS(&err, "empty statement");
    dl_sql_expr *e;
    CHECK_STATUS(dl_sql_parse_expr_text(&arena, "a +", 3, &e, &err), DL_ERR_SQL_SYNTAX, &err);
    CHECK_ERR_CONTAINS(&err, "expected an expression, found end of input");
    CHECK_STATUS(dl_sql_parse_expr_text(&arena, "a b", 3, &e, &err), DL_ERR_SQL_SYNTAX, &err);
    CHECK_ERR_CONTAINS(&err, "expected the end of the text, found 'b'");
    dl_arena_destroy(&arena);
}

/* Parses sql with an allocator that fails from the fail_at-th request on; reports whether
 * everything was freed and how many statements came back. */
static dl_status
parse_with_fault(const char *sql, int64_t fail_at, bool *out_leak_free, uint32_t *out_n,
                 dl_error *err) {
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, fail_at, true);
    dl_arena arena;
    dl_sql_script script;
    dl_arena_init(&arena, &fa.base, 256);
    dl_status s = dl_sql_parse(&arena, sql, strlen(sql), &script, err);
    *out_n = s == DL_OK ? script.n_stmts : 0;
    dl_arena_destroy(&arena);
    *out_leak_free = fa.live_blocks == 0;
    return s;
}

TEST(test_out_of_memory_at_every_allocation_is_clean) {
    const char *sql = "WITH c AS (SELECT a, count(*) AS n FROM t@v2 GROUP BY a) "
                      "SELECT x.*, CASE WHEN n > 1 THEN 'many' END FROM c x JOIN u ON x.a = u.a "
                      "WHERE u.b IN (1, 2, 3) ORDER BY n DESC LIMIT 5; "
                      "MERGE INTO t USING s ON t.k = s.k WHEN MATCHED THEN UPDATE SET v = s.v";
    int n_nomem = 0;
    dl_status s = DL_ERR_NOMEM;
    for (int64_t fail_at = 1; s == DL_ERR_NOMEM && fail_at < 10000; fail_at++) {
        dl_error err;
        bool leak_free;
        uint32_t n_stmts;
        s = parse_with_fault(sql, fail_at, &leak_free, &n_stmts, &err);
        CHECK(leak_free);
        CHECK(s == DL_OK || s == DL_ERR_NOMEM);
        CHECK(s == DL_ERR_NOMEM || n_stmts == 2);
        n_nomem += s == DL_ERR_NOMEM ? 1 : 0;
    }
    CHECK_INT_EQ(s, DL_OK);
    CHECK(n_nomem > 3);
}

TEST(test_caret_points_under_the_error) {
    const char *sql = "SELECT a,\n\tb FROM t WHERE x = 'h\xc3\xa9' AND FROM";
    dl_arena arena;
    dl_error err;
    dl_sql_script script;
    dl_buf out;
    dl_arena_init(&arena, NULL, 0);
    dl_buf_init(&out, NULL);
    CHECK_STATUS(dl_sql_parse(&arena, sql, strlen(sql), &script, &err), DL_ERR_SQL_SYNTAX, &err);
    CHECK_ERR_CONTAINS(&err, "line 2, column 30");
    CHECK_OK(dl_sql_render_caret(sql, strlen(sql), err.offset, &out, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "\tb FROM t WHERE x = 'h\xc3\xa9' AND FROM\n"
                                    "\t                            ^\n");
    dl_buf_destroy(&out);
    dl_arena_destroy(&arena);
}

int
main(void) {
    RUN(test_syntax_errors_name_position_expected_and_found);
    RUN(test_statement_errors_say_what_was_expected);
    RUN(test_lexical_errors_point_at_the_bad_bytes);
    RUN(test_refused_statements_are_unsupported_not_syntax_errors);
    RUN(test_deep_nesting_is_a_limit_error_not_a_crash);
    RUN(test_deepest_accepted_tree_prints_and_parses_again);
    RUN(test_parse_stmt_takes_exactly_one_statement);
    RUN(test_out_of_memory_at_every_allocation_is_clean);
    RUN(test_caret_points_under_the_error);
    return harness_finish();
}
