/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Expressions: Spark's operator precedence (shown by the printer's parentheses), literals of
 * every kind with their decoded values, special call syntaxes, windows, lambdas and types.
 */
#include "harness.h"
#include "sql/parse/sql_parse.h"

/* Parses an expression and prints it into a static buffer; on error, "ERROR: <message>". */
static const char *
expr_canon(const char *sql) {
    static char result[2048];
    dl_arena arena;
    dl_error err;
    dl_sql_expr *e;
    dl_buf out;
    dl_arena_init(&arena, NULL, 0);
    dl_buf_init(&out, NULL);
    if (dl_sql_parse_expr_text(&arena, sql, strlen(sql), &e, &err) != DL_OK) {
        (void)snprintf(result, sizeof(result), "ERROR: %s", err.msg);
    } else if (dl_sql_expr_print(e, &out, &err) != DL_OK) {
        (void)snprintf(result, sizeof(result), "PRINT ERROR: %s", err.msg);
    } else {
        (void)snprintf(result, sizeof(result), "%s", dl_buf_cstr(&out));
    }
    dl_buf_destroy(&out);
    dl_arena_destroy(&arena);
    return result;
}

typedef struct expr_case {
    const char *sql;
    const char *expected;
} expr_case;

static int
run_expr_cases(const expr_case *cases, size_t n) {
    int failures = 0;
    for (size_t i = 0; i < n; i++) {
        const char *got = expr_canon(cases[i].sql);
        if (strcmp(got, cases[i].expected) != 0) {
            printf("  %s\n    got:  %s\n    want: %s\n", cases[i].sql, got, cases[i].expected);
            failures++;
            continue;
        }
        char copy[2048];
        (void)snprintf(copy, sizeof(copy), "%s", got);
        if (strcmp(expr_canon(copy), copy) != 0) {
            printf("  not a fixed point: %s -> %s\n", copy, expr_canon(copy));
            failures++;
        }
    }
    return failures;
}

#define RUN_EXPR_CASES(cases) CHECK_INT_EQ(run_expr_cases(cases, DL_ARRAY_LEN(cases)), 0)

TEST(test_arithmetic_and_bitwise_precedence_follows_spark) {
    static const expr_case cases[] = {
        {"1 + 2 * 3", "1 + (2 * 3)"},
        {"1 * 2 + 3", "(1 * 2) + 3"},
        {"1 - 2 - 3", "(1 - 2) - 3"},
        {"a / b % c DIV d", "((a / b) % c) DIV d"},
        {"a || b + c", "(a || b) + c"},
        {"a + b || c", "(a + b) || c"},
        {"a << 1 + 2", "a << (1 + 2)"},
        {"a & b ^ c | d", "((a & b) ^ c) | d"},
        {"a | b ^ c & d", "a | (b ^ (c & d))"},
        {"a | b = c & d", "(a | b) = (c & d)"},
        {"-a * b", "(-a) * b"},
        {"- -a", "- -a"},
        {"-(-(a))", "- -a"},
        {"~a + 1", "(~a) + 1"},
        {"-a.b[0]", "-a.b[0]"},
        {"-x::INT", "-x::INT"},
        {"(a + b) * c", "(a + b) * c"},
        {"((((a))))", "a"},
        {"a = b = c", "(a = b) = c"},
        {"a == b", "a = b"},
        {"a != b", "a <> b"},
        {"a <=> b", "a <=> b"},
        {"a >>> 2 >> 1", "(a >>> 2) >> 1"},
    };
    RUN_EXPR_CASES(cases);
}

TEST(test_boolean_and_predicate_precedence_follows_spark) {
    static const expr_case cases[] = {
        {"a OR b AND c", "a OR (b AND c)"},
        {"a AND b OR c AND d", "(a AND b) OR (c AND d)"},
        {"NOT a AND b", "(NOT a) AND b"},
        {"NOT a = b", "NOT (a = b)"},
        {"NOT NOT a", "NOT NOT a"},
        {"!a", "NOT a"},
        {"a = b IS NULL", "(a = b) IS NULL"},
        {"a IS NOT NULL AND b IS TRUE OR c IS NOT FALSE",
         "((a IS NOT NULL) AND (b IS TRUE)) OR (c IS NOT FALSE)"},
        {"a IS UNKNOWN", "a IS UNKNOWN"},
        {"a IS DISTINCT FROM b + 1", "a IS DISTINCT FROM (b + 1)"},
        {"a IS NOT DISTINCT FROM b", "a IS NOT DISTINCT FROM b"},
        {"a BETWEEN 1 AND 2 AND b", "(a BETWEEN 1 AND 2) AND b"},
        {"a NOT BETWEEN b + 1 AND c * 2", "a NOT BETWEEN (b + 1) AND (c * 2)"},
        {"a + 1 IN (1, 2, 3)", "(a + 1) IN (1, 2, 3)"},
        {"a NOT IN (SELECT b FROM t)", "a NOT IN (SELECT b FROM t)"},
        {"a IN ((SELECT 1))", "a IN (SELECT 1)"},
        {"a IN ((SELECT 1), 2)", "a IN ((SELECT 1), 2)"},
        {"(a, b) IN ((1, 2), (3, 4))", "(a, b) IN ((1, 2), (3, 4))"},
        {"a IN ((1, 2))", "a IN ((1, 2))"},
        {"a LIKE 'x%' ESCAPE '\\\\'", "a LIKE 'x%' ESCAPE '\\\\'"},
        {"a NOT ILIKE b || '%'", "a NOT ILIKE (b || '%')"},
        {"a RLIKE '^x' OR a REGEXP 'y'", "(a RLIKE '^x') OR (a RLIKE 'y')"},
        {"a LIKE ANY ('a%', 'b%')", "a LIKE ANY ('a%', 'b%')"},
        {"a NOT LIKE ALL ('a%')", "a NOT LIKE ALL ('a%')"},
        {"a LIKE SOME ()", "a LIKE ANY ()"},
        {"EXISTS (SELECT 1) AND NOT EXISTS (SELECT 2)",
         "EXISTS (SELECT 1) AND (NOT EXISTS (SELECT 2))"},
        {"(SELECT max(v) FROM t) + 1", "(SELECT max(v) FROM t) + 1"},
        {"((SELECT 1) + 1)", "(SELECT 1) + 1"},
        {"((SELECT 1) UNION (SELECT 2))", "(SELECT 1 UNION SELECT 2)"},
        {"((SELECT 1) LIMIT 1)", "(SELECT 1 LIMIT 1)"},
    };
    RUN_EXPR_CASES(cases);
}

TEST(test_literals_print_with_their_kinds) {
    static const expr_case cases[] = {
        {"123", "123"},
        {"10L", "10L"},
        {"10l", "10L"},
        {"7S", "7S"},
        {"7Y", "7Y"},
        {"1.5", "1.5"},
        {".5", ".5"},
        {"5.", "5."},
        {"1e10", "1e10"},
        {"1.5E-3", "1.5E-3"},
        {"1.5D", "1.5D"},
        {"2D", "2D"},
        {"1.5F", "1.5F"},
        {"1.5BD", "1.5"},
        {"15BD", "15BD"},
        {"1e3BD", "1e3BD"},
        {"'it''s'", "'it\\'s'"},
        {"\"double\"", "'double'"},
        {"'a' 'b' \"c\"", "'abc'"},
        {"'tab\\there\\nnew'", "'tab\\there\\nnew'"},
        {"'\\u00e9\\101\\0'", "'\xc3\xa9"
                              "A\\u0000'"},
        {"'\\uD83D\\uDE00'", "'\xf0\x9f\x98\x80'"},
        {"'\\%\\_'", "'\\\\%\\\\_'"},
        {"'\\q'", "'q'"},
        {"r'raw\\n'", "'raw\\\\n'"},
        {"R\"raw''\"", "'raw\\'\\''"},
        {"X'1F2e'", "X'1F2E'"},
        {"x'abc'", "X'0ABC'"},
        {"X''", "X''"},
        {"DATE '2026-01-01'", "DATE '2026-01-01'"},
        {"TIMESTAMP '2026-01-01 08:00:00'", "TIMESTAMP '2026-01-01 08:00:00'"},
        {"timestamp_ntz'2026-01-01'", "TIMESTAMP_NTZ '2026-01-01'"},
        {"TIMESTAMP_LTZ '2026-01-01'", "TIMESTAMP_LTZ '2026-01-01'"},
        {"NULL", "NULL"},
        {"true AND False", "TRUE AND FALSE"},
        {"INTERVAL '1' DAY", "INTERVAL '1' DAY"},
        {"INTERVAL 30 DAYS", "INTERVAL 30 DAY"},
        {"INTERVAL 1 DAY 2 HOURS -3 MINUTES", "INTERVAL 1 DAY 2 HOUR -3 MINUTE"},
        {"INTERVAL '1-2' YEAR TO MONTH", "INTERVAL '1-2' YEAR TO MONTH"},
        {"INTERVAL '1 day 2 hours'", "INTERVAL '1 day 2 hours'"},
        {"INTERVAL -'1' WEEK", "INTERVAL -'1' WEEK"},
        {"ts - INTERVAL 1 DAY - 1", "(ts - INTERVAL 1 DAY) - 1"},
        {"?", "?"},
        {":name + ?", ":name + ?"},
    };
    RUN_EXPR_CASES(cases);
}

TEST(test_calls_casts_and_special_forms) {
    static const expr_case cases[] = {
        {"count(*)", "count(*)"},
        {"COUNT(DISTINCT a, b)", "COUNT(DISTINCT a, b)"},
        {"sum(ALL a)", "sum(ALL a)"},
        {"s.f(1)", "s.f(1)"},
        {"f()", "f()"},
        {"count(*) FILTER (WHERE a > 1)", "count(*) FILTER (WHERE a > 1)"},
        {"percentile_cont(0.5) WITHIN GROUP (ORDER BY x)",
         "percentile_cont(0.5) WITHIN GROUP (ORDER BY x)"},
        {"first_value(x) IGNORE NULLS OVER (ORDER BY t)",
         "first_value(x) IGNORE NULLS OVER (ORDER BY t)"},
        {"row_number() OVER (PARTITION BY a, b ORDER BY c DESC)",
         "row_number() OVER (PARTITION BY a, b ORDER BY c DESC)"},
        {"sum(x) OVER (ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)",
         "sum(x) OVER (ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"},
        {"sum(x) OVER (ORDER BY t RANGE BETWEEN INTERVAL 1 DAY PRECEDING AND 2 FOLLOWING)",
         "sum(x) OVER (ORDER BY t RANGE BETWEEN INTERVAL 1 DAY PRECEDING AND 2 FOLLOWING)"},
        {"sum(x) OVER (ROWS 3 PRECEDING)", "sum(x) OVER (ROWS 3 PRECEDING)"},
        {"lag(v) OVER w", "lag(v) OVER w"},
        {"sum(v) OVER (w ORDER BY t)", "sum(v) OVER (w ORDER BY t)"},
        {"sum(v) OVER (`partition` ORDER BY t)", "sum(v) OVER (`partition` ORDER BY t)"},
        {"sum(v) OVER (`rows`)", "sum(v) OVER (`rows`)"},
        {"sum(v) OVER (DISTRIBUTE BY a SORT BY b)", "sum(v) OVER (PARTITION BY a ORDER BY b)"},
        {"CAST(a AS DECIMAL(10,2))", "CAST(a AS DECIMAL(10, 2))"},
        {"TRY_CAST(a AS BIGINT)", "TRY_CAST(a AS BIGINT)"},
        {"a::long::string", "a::BIGINT::STRING"},
        {"CAST(m AS MAP<STRING,ARRAY<INT>>)", "CAST(m AS MAP<STRING, ARRAY<INT>>)"},
        {"CAST(x AS ARRAY<ARRAY<ARRAY<BYTE>>>)", "CAST(x AS ARRAY<ARRAY<ARRAY<TINYINT>>>)"},
        {"CAST(s AS STRUCT<a:INT NOT NULL COMMENT 'x',`b c` STRING>)",
         "CAST(s AS STRUCT<a: INT NOT NULL COMMENT 'x', `b c`: STRING>)"},
        {"CAST(s AS STRUCT<>)", "CAST(s AS STRUCT<>)"},
        {"CAST(i AS INTERVAL DAY TO SECOND)", "CAST(i AS INTERVAL DAY TO SECOND)"},
        {"CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END",
         "CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END"},
        {"CASE x WHEN 1 THEN 'a' END", "CASE x WHEN 1 THEN 'a' END"},
        {"current_timestamp", "CURRENT_TIMESTAMP"},
        {"current_date + 1", "CURRENT_DATE + 1"},
        {"current_timestamp()", "current_timestamp()"},
        {"EXTRACT(YEAR FROM d)", "date_part('YEAR', d)"},
        {"extract(a, b)", "extract(a, b)"},
        {"POSITION('a' IN s)", "position('a', s)"},
        {"position((a IN (1, 2)), 2)", "position((a IN (1, 2)), 2)"},
        {"position(k => 'x', str => s)", "position(k => 'x', str => s)"},
        {"SUBSTRING(s FROM 2 FOR 3)", "substring(s, 2, 3)"},
        {"substr(s, 2)", "substr(s, 2)"},
        {"OVERLAY(s PLACING 'x' FROM 2 FOR 1)", "overlay(s, 'x', 2, 1)"},
        {"TRIM(s)", "TRIM(s)"},
        {"trim(BOTH 'x' FROM s)", "trim(BOTH 'x' FROM s)"},
        {"trim(LEADING FROM s)", "trim(LEADING FROM s)"},
        {"trim('x' FROM s)", "trim('x' FROM s)"},
        {"left(s, 2) || right(s, 1)", "left(s, 2) || right(s, 1)"},
        {"filter(arr, x -> x > 0)", "filter(arr, x -> x > 0)"},
        {"exists(arr, x -> x IS NULL)", "`exists`(arr, x -> x IS NULL)"},
        {"transform(arr, (v, i) -> v + i)", "transform(arr, (v, i) -> v + i)"},
        {"aggregate(a, 0, (acc, x) -> acc + x, acc -> acc * 10)",
         "aggregate(a, 0, (acc, x) -> acc + x, acc -> acc * 10)"},
        {"f(x => 1, y => 'a')", "f(x => 1, y => 'a')"},
        {"named_struct('a', 1).a", "named_struct('a', 1).a"},
        {"m['k'].f[0]", "m['k'].f[0]"},
        {"t.col.field", "t.col.field"},
        {"(a).b", "a.b"},
        {"('x').a", "('x').a"},
        {"[1, 2, 3]", "array(1, 2, 3)"},
        {"[]", "array()"},
        {"if(a, 1, 2)", "if(a, 1, 2)"},
        {"`select`(1) + `x y`", "`select`(1) + `x y`"},
        {"(distinct(a))", "`distinct`(a)"},
        {"interval", "`interval`"},
        {"`interval` - 1", "`interval` - 1"},
        {"date(x) + timestamp(y)", "date(x) + timestamp(y)"},
        {"version + date + timestamp", "(version + date) + timestamp"},
        {"(values.a) + f(values.b, values)", "`values`.a + f(`values`.b, `values`)"},
        {"2024_sales + 1a", "`2024_sales` + `1a`"},
        {"operationMetrics['numRemovedFiles']", "operationMetrics['numRemovedFiles']"},
    };
    RUN_EXPR_CASES(cases);
}

TEST(test_literal_tree_holds_text_and_kind) {
    dl_arena arena;
    dl_error err;
    dl_sql_expr *e;
    dl_arena_init(&arena, NULL, 0);
    CHECK_OK(dl_sql_parse_expr_text(&arena, "123456789012345678901234567890", 30, &e, &err), &err);
    CHECK_INT_EQ(e->u.lit.kind, DL_SQL_LIT_INT);
    CHECK_STR_EQ(e->u.lit.text.ptr, "123456789012345678901234567890");
    CHECK_OK(dl_sql_parse_expr_text(&arena, "1.50BD", 6, &e, &err), &err);
    CHECK_INT_EQ(e->u.lit.kind, DL_SQL_LIT_DECIMAL);
    CHECK_STR_EQ(e->u.lit.text.ptr, "1.50");
    CHECK_OK(dl_sql_parse_expr_text(&arena, "X'00FF'", 7, &e, &err), &err);
    CHECK_INT_EQ(e->u.lit.kind, DL_SQL_LIT_BINARY);
    CHECK_INT_EQ(e->u.lit.text.len, 2);
    CHECK_INT_EQ((unsigned char)e->u.lit.text.ptr[1], 0xFF);
    CHECK_OK(dl_sql_parse_expr_text(&arena, "'a\\u0000b'", 10, &e, &err), &err);
    CHECK_INT_EQ(e->u.lit.text.len, 3);
    CHECK_INT_EQ(e->u.lit.text.ptr[1], 0);
    CHECK_OK(dl_sql_parse_expr_text(&arena, "INTERVAL -1.5 SECONDS", 21, &e, &err), &err);
    CHECK_INT_EQ(e->kind, DL_SQL_EXPR_INTERVAL);
    CHECK(e->u.interval.parts[0].is_negative);
    CHECK_STR_EQ(e->u.interval.parts[0].value.ptr, "1.5");
    CHECK_INT_EQ(e->u.interval.parts[0].unit, DL_SQL_UNIT_SECOND);
    CHECK_OK(dl_sql_parse_expr_text(&arena, "? + ? + :p", 10, &e, &err), &err);
    CHECK_INT_EQ(e->u.binary.left->u.binary.right->u.param.index, 2);
    CHECK_STR_EQ(e->u.binary.right->u.param.name.ptr, "p");
    dl_arena_destroy(&arena);
}

TEST(test_expression_heights_are_recorded) {
    dl_arena arena;
    dl_error err;
    dl_sql_expr *e;
    dl_arena_init(&arena, NULL, 0);
    CHECK_OK(dl_sql_parse_expr_text(&arena, "a", 1, &e, &err), &err);
    CHECK_INT_EQ(e->height, 1);
    CHECK_OK(dl_sql_parse_expr_text(&arena, "1 + 2 + 3", 9, &e, &err), &err);
    CHECK_INT_EQ(e->height, 3);
    CHECK_OK(dl_sql_parse_expr_text(&arena, "f((SELECT 1))", 13, &e, &err), &err);
    CHECK(e->height >= 3);
    dl_arena_destroy(&arena);
}

TEST(test_types_parse_alone) {
    dl_arena arena;
    dl_error err;
    dl_sql_type *t;
    dl_buf out;
    dl_arena_init(&arena, NULL, 0);
    dl_buf_init(&out, NULL);
    const char *sql = "map<string, array<struct<a: decimal(38,0), b: timestamp_ntz>>>";
    CHECK_OK(dl_sql_parse_type_text(&arena, sql, strlen(sql), &t, &err), &err);
    CHECK_INT_EQ(t->kind, DL_SQL_TYPE_MAP);
    CHECK_INT_EQ(t->value->elem->fields[0].type->precision, 38);
    CHECK_INT_EQ(t->value->elem->fields[0].type->scale, 0);
    CHECK_OK(dl_sql_type_print(t, &out, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out),
                 "MAP<STRING, ARRAY<STRUCT<a: DECIMAL(38, 0), b: TIMESTAMP_NTZ>>>");
    CHECK_OK(dl_sql_parse_type_text(&arena, "DECIMAL", 7, &t, &err), &err);
    CHECK_INT_EQ(t->precision, -1);
    const char *names[] = {"boolean", "tinyint",    "byte",    "smallint",    "short", "int",
                           "integer", "bigint",     "long",    "float",       "real",  "double",
                           "dec",     "numeric",    "string",  "binary",      "date",  "timestamp",
                           "void",    "VARCHAR(3)", "char(1)", "character(2)"};
    for (size_t i = 0; i < DL_ARRAY_LEN(names); i++) {
        CHECK_OK(dl_sql_parse_type_text(&arena, names[i], strlen(names[i]), &t, &err), &err);
    }
    dl_buf_destroy(&out);
    dl_arena_destroy(&arena);
}

int
main(void) {
    RUN(test_arithmetic_and_bitwise_precedence_follows_spark);
    RUN(test_boolean_and_predicate_precedence_follows_spark);
    RUN(test_literals_print_with_their_kinds);
    RUN(test_calls_casts_and_special_forms);
    RUN(test_literal_tree_holds_text_and_kind);
    RUN(test_expression_heights_are_recorded);
    RUN(test_types_parse_alone);
    return harness_finish();
}
