/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Statements and queries: each input is parsed, printed canonically and compared with the
 * expected text; the expected text must also parse back to itself (the canonical form is a
 * fixed point). A few tests look into the tree for what the text does not show.
 */
#include "harness.h"
#include "sql/parse/sql_parse.h"

typedef struct canon_case {
    const char *sql;
    const char *expected; /* NULL: the input is already canonical */
} canon_case;

/* Parses sql, prints it into out (reset first). */
static dl_status
canon(dl_arena *arena, const char *sql, dl_buf *out, dl_error *err) {
    dl_sql_stmt *stmt;
    dl_buf_reset(out);
    DL_TRY(dl_sql_parse_stmt(arena, sql, strlen(sql), &stmt, err));
    return dl_sql_stmt_print(stmt, out, err);
}

static int
run_cases(const canon_case *cases, size_t n) {
    dl_arena arena;
    dl_buf out;
    dl_buf again;
    dl_error err;
    int failures = 0;
    dl_arena_init(&arena, NULL, 0);
    dl_buf_init(&out, NULL);
    dl_buf_init(&again, NULL);
    for (size_t i = 0; i < n; i++) {
        const char *want = cases[i].expected != NULL ? cases[i].expected : cases[i].sql;
        if (canon(&arena, cases[i].sql, &out, &err) != DL_OK) {
            printf("  case %zu: %s\n    %s\n", i, cases[i].sql, err.msg);
            failures++;
            continue;
        }
        if (strcmp(dl_buf_cstr(&out), want) != 0) {
            printf("  case %zu: %s\n    got:  %s\n    want: %s\n", i, cases[i].sql,
                   dl_buf_cstr(&out), want);
            failures++;
            continue;
        }
        if (canon(&arena, want, &again, &err) != DL_OK || strcmp(dl_buf_cstr(&again), want) != 0) {
            printf("  case %zu: canonical text is not a fixed point: %s\n    %s\n", i, want,
                   err.msg);
            failures++;
        }
        dl_arena_reset(&arena);
    }
    dl_buf_destroy(&again);
    dl_buf_destroy(&out);
    dl_arena_destroy(&arena);
    return failures;
}

#define RUN_CASES(cases) CHECK_INT_EQ(run_cases(cases, DL_ARRAY_LEN(cases)), 0)

TEST(test_select_clauses_print_canonically) {
    static const canon_case cases[] = {
        {"select 1", "SELECT 1"},
        {"SELECT DISTINCT a, b AS c, d e FROM t", "SELECT DISTINCT a, b AS c, d AS e FROM t"},
        {"SELECT ALL a FROM t", NULL},
        {"SELECT * FROM t WHERE a > 1 GROUP BY a, b HAVING count(*) > 2 ORDER BY a DESC NULLS "
         "LAST, b ASC NULLS FIRST LIMIT 10 OFFSET 5",
         NULL},
        {"SELECT t.*, s.* FROM t, s", NULL},
        {"SELECT * EXCEPT (a, b) FROM t", NULL},
        {"SELECT t.* EXCEPT (t.a) FROM t", NULL},
        {"SELECT a FROM t GROUP BY ALL", NULL},
        {"SELECT a, b, sum(c) FROM t GROUP BY ROLLUP (a, b)", NULL},
        {"SELECT a, b, sum(c) FROM t GROUP BY cube(a, b)",
         "SELECT a, b, sum(c) FROM t GROUP BY CUBE (a, b)"},
        {"SELECT a, b FROM t GROUP BY GROUPING SETS ((a, b), a, ())",
         "SELECT a, b FROM t GROUP BY GROUPING SETS ((a, b), (a), ())"},
        {"SELECT a FROM t GROUP BY a, b WITH ROLLUP", NULL},
        {"SELECT a FROM t LIMIT ALL", NULL},
        {"SELECT a FROM t QUALIFY row_number() OVER (PARTITION BY a ORDER BY b) = 1", NULL},
        {"SELECT sum(a) OVER w FROM t WINDOW w AS (PARTITION BY b ORDER BY c)", NULL},
        {"SELECT a FROM t WINDOW w AS (ORDER BY a) QUALIFY rank() OVER w = 1", NULL},
        {"SELECT a FROM t QUALIFY x = 1 WINDOW w AS (ORDER BY a)",
         "SELECT a FROM t WINDOW w AS (ORDER BY a) QUALIFY x = 1"},
        {"SELECT 1 AS `select`, 2 AS `a b`, 3 AS `x``y`", NULL},
        {"SELECT version, timestamp, operation, date, status, year, region FROM h", NULL},
        {"SELECT a AS version FROM t", NULL},
    };
    RUN_CASES(cases);
}

TEST(test_set_operations_bind_intersect_tighter) {
    static const canon_case cases[] = {
        {"SELECT 1 UNION SELECT 2 UNION ALL SELECT 3",
         "(SELECT 1 UNION SELECT 2) UNION ALL SELECT 3"},
        {"SELECT 1 UNION SELECT 2 INTERSECT SELECT 3",
         "SELECT 1 UNION (SELECT 2 INTERSECT SELECT 3)"},
        {"SELECT 1 INTERSECT SELECT 2 UNION SELECT 3",
         "(SELECT 1 INTERSECT SELECT 2) UNION SELECT 3"},
        {"SELECT 1 EXCEPT ALL SELECT 2", NULL},
        {"SELECT 1 MINUS SELECT 2", "SELECT 1 EXCEPT SELECT 2"},
        {"SELECT 1 UNION DISTINCT SELECT 2 ORDER BY 1 LIMIT 1", NULL},
        {"(SELECT 1) UNION (SELECT 2)", "SELECT 1 UNION SELECT 2"},
        {"(SELECT 1 ORDER BY 1 LIMIT 1) UNION ALL (SELECT 2)",
         "(SELECT 1 ORDER BY 1 LIMIT 1) UNION ALL SELECT 2"},
        {"(SELECT a FROM t ORDER BY a LIMIT 5) LIMIT 2", NULL},
        {"(WITH a AS (SELECT 1) SELECT * FROM a) ORDER BY 1", NULL},
        {"WITH x AS (SELECT 2) (WITH a AS (SELECT 1) SELECT * FROM a) ORDER BY 1", NULL},
        {"((SELECT 1))", "SELECT 1"},
        {"SELECT 1 UNION (SELECT 2 UNION SELECT 3)", NULL},
        {"VALUES (1, 2), (3, 4)", NULL},
        {"VALUES 1, 2", "VALUES (1), (2)"},
        {"VALUES (1) + 2", "VALUES (1 + 2)"},
        {"VALUES ((1, 2))", NULL},
        {"VALUES (1) UNION VALUES (2)", NULL},
        {"WITH a AS (SELECT 1), b (x) AS (SELECT 2) SELECT * FROM a, b",
         "WITH a AS (SELECT 1), b(x) AS (SELECT 2) SELECT * FROM a, b"},
        {"WITH a AS (SELECT 1) (SELECT * FROM a) UNION SELECT 3",
         "WITH a AS (SELECT 1) SELECT * FROM a UNION SELECT 3"},
    };
    RUN_CASES(cases);
}

TEST(test_joins_and_relations_print_canonically) {
    static const canon_case cases[] = {
        {"SELECT * FROM a JOIN b ON a.x = b.x", NULL},
        {"SELECT * FROM a INNER JOIN b USING (x, y)", "SELECT * FROM a JOIN b USING (x, y)"},
        {"SELECT * FROM a LEFT OUTER JOIN b ON a.x = b.x RIGHT JOIN c ON c.y = a.y FULL OUTER "
         "JOIN d ON TRUE",
         "SELECT * FROM a LEFT JOIN b ON a.x = b.x RIGHT JOIN c ON c.y = a.y FULL JOIN d ON TRUE"},
        {"SELECT * FROM a LEFT SEMI JOIN b ON a.x = b.x LEFT ANTI JOIN c ON a.x = c.x", NULL},
        {"SELECT * FROM a SEMI JOIN b ON a.x = b.x ANTI JOIN c ON TRUE",
         "SELECT * FROM a LEFT SEMI JOIN b ON a.x = b.x LEFT ANTI JOIN c ON TRUE"},
        {"SELECT * FROM a CROSS JOIN b NATURAL JOIN c NATURAL LEFT JOIN d", NULL},
        {"SELECT * FROM a, b JOIN c ON b.x = c.x", NULL},
        {"SELECT * FROM a JOIN (b JOIN c ON b.x = c.x) ON a.y = b.y", NULL},
        {"SELECT * FROM (a JOIN b ON a.x = b.x)", "SELECT * FROM a JOIN b ON a.x = b.x"},
        {"SELECT * FROM (a JOIN b ON TRUE) j", "SELECT * FROM (a JOIN b ON TRUE) AS j"},
        {"SELECT * FROM s.t, c.s.t AS x, delta.`/data/events`, parquet.`/tmp/p`", NULL},
        {"SELECT * FROM read_parquet('/data/*.parquet') AS f", NULL},
        {"SELECT * FROM read_parquet(['a.parquet', 'b.parquet'])",
         "SELECT * FROM read_parquet(array('a.parquet', 'b.parquet'))"},
        {"SELECT * FROM range(10), range(0, 10, 2) r(id)",
         "SELECT * FROM range(10), range(0, 10, 2) AS r(id)"},
        {"SELECT * FROM read_files(path => '/x', format => 'csv')", NULL},
        {"SELECT * FROM (SELECT 1 AS a) sub", "SELECT * FROM (SELECT 1 AS a) AS sub"},
        {"SELECT * FROM (SELECT 1 AS a)", NULL},
        {"SELECT * FROM (SELECT 1) AS s(a)", NULL},
        {"SELECT * FROM VALUES (1, 'a'), (2, 'b') AS t(id, name)", NULL},
        {"SELECT * FROM (VALUES (1)) AS t(a)", NULL},
        {"SELECT * FROM (DESCRIBE HISTORY t) h", "SELECT * FROM (DESCRIBE HISTORY t) AS h"},
        {"SELECT * FROM (DESCRIBE DETAIL s.t)", NULL},
        {"SELECT * FROM (DESC t VERSION AS OF 6)",
         "SELECT * FROM (DESCRIBE TABLE t VERSION AS OF 6)"},
        {"SELECT * FROM ((SELECT 1) UNION (SELECT 2)) u",
         "SELECT * FROM (SELECT 1 UNION SELECT 2) AS u"},
    };
    RUN_CASES(cases);
}

TEST(test_time_travel_in_every_spelling) {
    static const canon_case cases[] = {
        {"SELECT * FROM t VERSION AS OF 3", NULL},
        {"SELECT * FROM t TIMESTAMP AS OF '2026-10-02 08:00:00'", NULL},
        {"SELECT * FROM t FOR SYSTEM_VERSION AS OF 2", NULL},
        {"SELECT * FROM t FOR SYSTEM_TIME AS OF '2024-06-15T09:32:00.000'", NULL},
        {"SELECT * FROM t SYSTEM_VERSION AS OF 2", "SELECT * FROM t FOR SYSTEM_VERSION AS OF 2"},
        {"SELECT * FROM t FOR VERSION AS OF 2", "SELECT * FROM t FOR SYSTEM_VERSION AS OF 2"},
        {"SELECT * FROM t@v3", NULL},
        {"SELECT * FROM t@V3 x", "SELECT * FROM t@v3 AS x"},
        {"SELECT * FROM t@20261002080000123", NULL},
        {"SELECT * FROM delta.`/path/to/table`@v3", NULL},
        {"SELECT * FROM t VERSION AS OF 1 AS x JOIN t VERSION AS OF 2 y ON x.id = y.id",
         "SELECT * FROM t VERSION AS OF 1 AS x JOIN t VERSION AS OF 2 AS y ON x.id = y.id"},
        {"SELECT * FROM t TIMESTAMP AS OF (SELECT max(timestamp) FROM (DESCRIBE HISTORY t))", NULL},
        {"SELECT * FROM t TIMESTAMP AS OF current_timestamp() - INTERVAL 1 DAY",
         "SELECT * FROM t TIMESTAMP AS OF (current_timestamp() - INTERVAL 1 DAY)"},
        {"SELECT * FROM t TIMESTAMP AS OF date_sub(current_date(), 1)", NULL},
        {"SELECT * FROM t version", "SELECT * FROM t AS version"},
    };
    RUN_CASES(cases);
}

TEST(test_ddl_statements_print_canonically) {
    static const canon_case cases[] = {
        {"CREATE TABLE t (a INT, b STRING NOT NULL COMMENT 'the b', c DECIMAL(10,2)) USING delta",
         "CREATE TABLE t (a INT, b STRING NOT NULL COMMENT 'the b', c DECIMAL(10, 2)) USING "
         "delta"},
        {"create or replace table t (a int)", "CREATE OR REPLACE TABLE t (a INT)"},
        {"CREATE OR REPLACE TABLE s.t (id BIGINT GENERATED ALWAYS AS IDENTITY (START WITH 1 "
         "INCREMENT BY 1), d DATE GENERATED ALWAYS AS (CAST(ts AS DATE)), ts TIMESTAMP, n INT "
         "DEFAULT 0, CONSTRAINT pos CHECK (n >= 0)) USING DELTA PARTITIONED BY (d) LOCATION "
         "'/tmp/t' COMMENT 'c' TBLPROPERTIES ('delta.appendOnly' = 'true', delta.x = 1)",
         "CREATE OR REPLACE TABLE s.t (id BIGINT GENERATED ALWAYS AS IDENTITY (START WITH 1 "
         "INCREMENT BY 1), d DATE GENERATED ALWAYS AS (CAST(ts AS DATE)), ts TIMESTAMP, n INT "
         "DEFAULT 0, CONSTRAINT pos CHECK (n >= 0)) USING DELTA PARTITIONED BY (d) LOCATION "
         "'/tmp/t' COMMENT 'c' TBLPROPERTIES ('delta.appendOnly' = 'true', 'delta.x' = '1')"},
        {"CREATE TABLE t (id INT GENERATED BY DEFAULT AS IDENTITY) CLUSTER BY (id)", NULL},
        {"CREATE TABLE t AS SELECT 1 AS a", NULL},
        {"CREATE TABLE t USING DELTA AS SELECT * FROM s", NULL},
        {"CREATE TABLE t (SELECT 1)", "CREATE TABLE t AS SELECT 1"},
        {"CREATE TABLE t SELECT 1", "CREATE TABLE t AS SELECT 1"},
        {"REPLACE TABLE t (a INT) USING DELTA", NULL},
        {"CREATE TABLE IF NOT EXISTS t LIKE s", NULL},
        {"CREATE TABLE t CLONE s VERSION AS OF 3",
         "CREATE TABLE t SHALLOW CLONE s VERSION AS OF 3"},
        {"CREATE TABLE t DEEP CLONE s LOCATION '/x'", NULL},
        {"CREATE TABLE t (version INT, timestamp TIMESTAMP, date DATE, `order` INT, m MAP<STRING, "
         "ARRAY<STRUCT<a: INT, b STRING>>>, v VARCHAR(10), c CHAR(2))",
         "CREATE TABLE t (version INT, timestamp TIMESTAMP, date DATE, `order` INT, m MAP<STRING, "
         "ARRAY<STRUCT<a: INT, b: STRING>>>, v VARCHAR(10), c CHAR(2))"},
        {"CREATE VIEW v AS SELECT 1", NULL},
        {"CREATE OR REPLACE TEMPORARY VIEW v (a COMMENT 'x', b) COMMENT 'view' AS SELECT 1, 2",
         "CREATE OR REPLACE TEMP VIEW v (a COMMENT 'x', b) COMMENT 'view' AS SELECT 1, 2"},
        {"CREATE GLOBAL TEMP VIEW IF NOT EXISTS v AS SELECT 1", NULL},
        {"CREATE SCHEMA IF NOT EXISTS f1_demo", NULL},
        {"CREATE DATABASE d COMMENT 'x' LOCATION '/w/d' WITH DBPROPERTIES ('a' = 'b')",
         "CREATE SCHEMA d COMMENT 'x' LOCATION '/w/d' WITH DBPROPERTIES ('a' = 'b')"},
        {"DROP TABLE IF EXISTS s.t PURGE", NULL},
        {"DROP VIEW v", NULL},
        {"DROP DATABASE IF EXISTS d CASCADE", "DROP SCHEMA IF EXISTS d CASCADE"},
        {"USE delta_demo", NULL},
        {"USE SCHEMA s", NULL},
        {"USE DATABASE s", "USE SCHEMA s"},
        {"TRUNCATE TABLE t", NULL},
        {"CACHE LAZY TABLE t", NULL},
        {"UNCACHE TABLE IF EXISTS s.t", NULL},
        {"refresh t", "REFRESH TABLE t"},
        {"CLEAR CACHE", NULL},
        {"ANALYZE TABLE t COMPUTE STATISTICS FOR COLUMNS a, b",
         "ANALYZE TABLE t COMPUTE STATISTICS"},
    };
    RUN_CASES(cases);
}

TEST(test_alter_table_actions_print_canonically) {
    static const canon_case cases[] = {
        {"ALTER TABLE t ADD COLUMNS (a INT COMMENT 'x', b STRING FIRST, c.d INT AFTER b)", NULL},
        {"ALTER TABLE t ADD COLUMN a INT", "ALTER TABLE t ADD COLUMNS (a INT)"},
        {"ALTER TABLE t DROP COLUMN a", "ALTER TABLE t DROP COLUMNS (a)"},
        {"ALTER TABLE t DROP COLUMNS IF EXISTS (a, b)", NULL},
        {"ALTER TABLE t RENAME COLUMN a TO b", NULL},
        {"ALTER TABLE t ALTER COLUMN a TYPE BIGINT", NULL},
        {"ALTER TABLE t CHANGE COLUMN a SET NOT NULL", "ALTER TABLE t ALTER COLUMN a SET NOT NULL"},
        {"ALTER TABLE t ALTER COLUMN a DROP NOT NULL", NULL},
        {"ALTER TABLE t ALTER COLUMN a COMMENT 'hello'", NULL},
        {"ALTER TABLE t ALTER COLUMN a SET DEFAULT 1 + 1",
         "ALTER TABLE t ALTER COLUMN a SET DEFAULT 1 + 1"},
        {"ALTER TABLE t ALTER COLUMN a DROP DEFAULT", NULL},
        {"ALTER TABLE t ALTER COLUMN a AFTER b", NULL},
        {"ALTER TABLE t SET TBLPROPERTIES ('delta.deletedFileRetentionDuration' = 'interval 30 "
         "days', 'delta.logRetentionDuration' = 'interval 30 days')",
         NULL},
        {"ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('a', b.c)",
         "ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('a', 'b.c')"},
        {"ALTER TABLE t ADD CONSTRAINT pos CHECK (amount > 0)", NULL},
        {"ALTER TABLE t DROP CONSTRAINT IF EXISTS pos", NULL},
        {"ALTER TABLE t RENAME TO s.u", NULL},
        {"ALTER TABLE t CLUSTER BY (a, b)", NULL},
        {"ALTER TABLE t CLUSTER BY NONE", NULL},
    };
    RUN_CASES(cases);
}

TEST(test_dml_statements_print_canonically) {
    static const canon_case cases[] = {
        {"INSERT INTO t VALUES (1, 'a'), (2, 'b')", NULL},
        {"INSERT INTO TABLE t SELECT * FROM s", "INSERT INTO t SELECT * FROM s"},
        {"INSERT OVERWRITE t SELECT * FROM s", "INSERT OVERWRITE TABLE t SELECT * FROM s"},
        {"INSERT OVERWRITE t WITH ('partitionOverwriteMode' = 'dynamic') SELECT * FROM s",
         "INSERT OVERWRITE TABLE t WITH ('partitionOverwriteMode' = 'dynamic') SELECT * FROM s"},
        {"INSERT INTO t WITH q AS (SELECT 1) SELECT * FROM q", NULL},
        {"INSERT INTO t (a, b) VALUES (1, 2)", NULL},
        {"INSERT INTO t (SELECT 1)", "INSERT INTO t SELECT 1"},
        {"INSERT INTO t (a) (SELECT 1)", "INSERT INTO t (a) SELECT 1"},
        {"INSERT INTO t BY NAME SELECT 1 AS a", NULL},
        {"INSERT INTO t PARTITION (region = 'EU', day) SELECT 1, 2", NULL},
        {"INSERT INTO t REPLACE WHERE d >= '2024-01-01' SELECT * FROM s",
         "INSERT INTO t REPLACE WHERE (d >= '2024-01-01') SELECT * FROM s"},
        {"WITH x AS (SELECT 1) SELECT * FROM x", NULL},
        {"UPDATE t SET a = 1, b = b + 1 WHERE c = 2", NULL},
        {"UPDATE s.t AS x SET x.a = DEFAULT_VALUE()", NULL},
        {"UPDATE t u SET a = 1", "UPDATE t AS u SET a = 1"},
        {"DELETE FROM t WHERE a IN (1, 2)", NULL},
        {"DELETE FROM t AS x", NULL},
        {"MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED "
         "THEN INSERT *",
         NULL},
        {"MERGE INTO t tgt USING (SELECT * FROM s) src ON tgt.id = src.id WHEN MATCHED AND "
         "tgt.x <> src.x THEN UPDATE SET tgt.x = src.x, y = 2 WHEN MATCHED THEN DELETE WHEN NOT "
         "MATCHED BY TARGET AND src.z THEN INSERT (id, x) VALUES (src.id, src.x) WHEN NOT "
         "MATCHED BY SOURCE AND tgt.old THEN DELETE WHEN NOT MATCHED BY SOURCE THEN UPDATE SET "
         "x = NULL",
         "MERGE INTO t AS tgt USING (SELECT * FROM s) AS src ON tgt.id = src.id WHEN MATCHED AND "
         "tgt.x <> src.x THEN UPDATE SET tgt.x = src.x, y = 2 WHEN MATCHED THEN DELETE WHEN NOT "
         "MATCHED AND src.z THEN INSERT (id, x) VALUES (src.id, src.x) WHEN NOT MATCHED BY "
         "SOURCE AND tgt.old THEN DELETE WHEN NOT MATCHED BY SOURCE THEN UPDATE SET x = NULL"},
        {"MERGE WITH SCHEMA EVOLUTION INTO t USING s VERSION AS OF 3 AS s ON TRUE WHEN NOT "
         "MATCHED THEN INSERT VALUES (1)",
         NULL},
    };
    RUN_CASES(cases);
}

TEST(test_delta_and_utility_statements_print_canonically) {
    static const canon_case cases[] = {
        {"RESTORE TABLE orders TO VERSION AS OF 0", NULL},
        {"RESTORE t TIMESTAMP AS OF '2026-01-01'",
         "RESTORE TABLE t TO TIMESTAMP AS OF '2026-01-01'"},
        {"RESTORE TABLE t TO TIMESTAMP AS OF (SELECT timestamp FROM (DESCRIBE HISTORY t) WHERE "
         "version = 3)",
         NULL},
        {"VACUUM t", NULL},
        {"VACUUM t RETAIN 168 HOURS", NULL},
        {"VACUUM '/data/t' DRY RUN RETAIN 0.5 HOURS LITE",
         "VACUUM '/data/t' LITE RETAIN 0.5 HOURS DRY RUN"},
        {"VACUUM delta.`/p` FULL", NULL},
        {"OPTIMIZE t", NULL},
        {"OPTIMIZE t WHERE d >= '2024-01-01' ZORDER BY (a, b)", NULL},
        {"OPTIMIZE t ZORDER BY a, b", "OPTIMIZE t ZORDER BY (a, b)"},
        {"OPTIMIZE t FULL", NULL},
        {"DESCRIBE HISTORY t LIMIT 5", NULL},
        {"DESC HISTORY '/data/t'", "DESCRIBE HISTORY '/data/t'"},
        {"DESCRIBE DETAIL delta.`/x`", NULL},
        {"DESCRIBE t", "DESCRIBE TABLE t"},
        {"DESCRIBE TABLE EXTENDED t VERSION AS OF 6", NULL},
        {"DESCRIBE FORMATTED t c", "DESCRIBE TABLE EXTENDED t c"},
        {"DESCRIBE history", "DESCRIBE TABLE history"},
        {"DESCRIBE `extended` c", "DESCRIBE TABLE `extended` c"},
        {"DESCRIBE extended", "DESCRIBE TABLE `extended`"},
        {"SHOW TABLES", NULL},
        {"SHOW TABLES FROM s LIKE 'a*'", "SHOW TABLES IN s LIKE 'a*'"},
        {"SHOW TABLES 'a*'", "SHOW TABLES LIKE 'a*'"},
        {"SHOW DATABASES", "SHOW SCHEMAS"},
        {"SHOW COLUMNS FROM t IN s", "SHOW COLUMNS IN t IN s"},
        {"SHOW TBLPROPERTIES t", NULL},
        {"SHOW TBLPROPERTIES t (delta.appendOnly)", "SHOW TBLPROPERTIES t ('delta.appendOnly')"},
        {"SHOW CREATE TABLE t", NULL},
        {"SHOW PARTITIONS t", NULL},
        {"SHOW PARTITIONS t PARTITION (p = 'x', q = 1)", NULL},
        {"SHOW VIEWS IN s", NULL},
        {"SHOW FUNCTIONS LIKE 'a%'", NULL},
        {"SET", NULL},
        {"SET spark.databricks.delta.schema.autoMerge.enabled = true", NULL},
        {"SET spark.databricks.delta.retentionDurationCheck.enabled=false",
         "SET spark.databricks.delta.retentionDurationCheck.enabled = false"},
        {"SET spark.sql.shuffle.partitions", NULL},
        {"SET -v", NULL},
        {"SET k = 'a b'", NULL},
        {"SET k = a b", "SET k = 'a b'"},
        {"SET k = 'simple'", "SET k = simple"},
        {"SET TIME ZONE 'UTC'", "SET spark.sql.session.timeZone = UTC"},
        {"SET TIME ZONE LOCAL", "SET spark.sql.session.timeZone = LOCAL"},
        {"RESET", NULL},
        {"RESET spark.sql.shuffle.partitions", NULL},
        {"COPY (SELECT * FROM t) TO 'out.parquet'", NULL},
        {"COPY (SELECT * FROM t) TO 'out.parquet' (FORMAT parquet, COMPRESSION 'zstd', "
         "ROW_GROUP_SIZE 100000)",
         NULL},
        {"COPY t TO 'out.csv' WITH (FORMAT csv, HEADER, DELIMITER = ',')",
         "COPY t TO 'out.csv' (FORMAT csv, HEADER, DELIMITER ',')"},
        {"EXPLAIN SELECT 1", NULL},
        {"EXPLAIN EXTENDED DELETE FROM t", NULL},
        {"CONVERT TO DELTA parquet.`/data/p`", NULL},
        {"CONVERT TO DELTA parquet.`/data/p` NO STATISTICS PARTITIONED BY (d DATE, r STRING)",
         NULL},
        {"GENERATE symlink_format_manifest FOR TABLE delta.`/t`", NULL},
    };
    RUN_CASES(cases);
}

TEST(test_script_holds_statements_in_order) {
    dl_arena arena;
    dl_error err;
    dl_sql_script script;
    const char *sql = ";; SELECT 1; -- one\n/* two; */ SELECT ';' ;\n\n UPDATE t SET a = 1;;";
    dl_arena_init(&arena, NULL, 0);
    CHECK_OK(dl_sql_parse(&arena, sql, strlen(sql), &script, &err), &err);
    CHECK_INT_EQ(script.n_stmts, 3);
    CHECK_INT_EQ(script.stmts[0]->kind, DL_SQL_STMT_QUERY);
    CHECK_INT_EQ(script.stmts[1]->kind, DL_SQL_STMT_QUERY);
    CHECK_INT_EQ(script.stmts[2]->kind, DL_SQL_STMT_UPDATE);
    CHECK_INT_EQ(script.stmts[0]->loc, 3);
    CHECK_INT_EQ(script.stmts[0]->end, 11);
    CHECK(strncmp(sql + script.stmts[1]->loc, "SELECT ';'", 10) == 0);
    CHECK_STR_EQ(dl_sql_stmt_kind_name(script.stmts[2]->kind), "UPDATE");
    CHECK_OK(dl_sql_parse(&arena, "  -- nothing\n", 13, &script, &err), &err);
    CHECK_INT_EQ(script.n_stmts, 0);
    dl_arena_destroy(&arena);
}

TEST(test_reader_parses_one_statement_at_a_time) {
    dl_arena arena;
    dl_error err;
    dl_sql_reader r;
    dl_sql_stmt *s;
    const char *sql = "CREATE TABLE t (a INT);\nINSERT INTO t VALUES (1);\nSELECT * FROM t";
    dl_arena_init(&arena, NULL, 0);
    dl_sql_reader_init(&r, sql, strlen(sql));
    CHECK_OK(dl_sql_reader_next(&r, &arena, &s, &err), &err);
    CHECK_INT_EQ(s->kind, DL_SQL_STMT_CREATE_TABLE);
    CHECK_INT_EQ(r.line, 1);
    dl_arena_reset(&arena);
    CHECK_OK(dl_sql_reader_next(&r, &arena, &s, &err), &err);
    CHECK_INT_EQ(s->kind, DL_SQL_STMT_INSERT);
    CHECK_INT_EQ(r.line, 2);
    CHECK_OK(dl_sql_reader_next(&r, &arena, &s, &err), &err);
    CHECK_INT_EQ(s->kind, DL_SQL_STMT_QUERY);
    CHECK_OK(dl_sql_reader_next(&r, &arena, &s, &err), &err);
    CHECK(s == NULL);
    dl_arena_destroy(&arena);
}

TEST(test_tree_does_not_point_into_the_text) {
    dl_arena arena;
    dl_error err;
    dl_sql_stmt *s;
    char sql[] = "SELECT `a b`, 'x''y' FROM delta.`/p` WHERE c = 1";
    dl_arena_init(&arena, NULL, 0);
    CHECK_OK(dl_sql_parse_stmt(&arena, sql, strlen(sql), &s, &err), &err);
    memset(sql, '#', strlen(sql));
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_sql_stmt_print(s, &out, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "SELECT `a b`, 'x\\'y' FROM delta.`/p` WHERE c = 1");
    const dl_sql_select *sel = s->u.query->u.select;
    CHECK(sel->items[0].expr->u.column.parts[0].is_quoted);
    CHECK_STR_EQ(sel->items[0].expr->u.column.parts[0].name.ptr, "a b");
    CHECK_STR_EQ(sel->from[0]->u.table.name.parts[1].name.ptr, "/p");
    CHECK_INT_EQ(sel->from[0]->loc, 26);
    CHECK_INT_EQ(sel->where->loc, 43);
    dl_buf_destroy(&out);
    dl_arena_destroy(&arena);
}

TEST(test_time_travel_tree_carries_kind_and_expression) {
    dl_arena arena;
    dl_error err;
    dl_sql_stmt *s;
    const char *sql = "SELECT * FROM a@v12, b@20261002080000123, c FOR SYSTEM_TIME AS OF x";
    dl_arena_init(&arena, NULL, 0);
    CHECK_OK(dl_sql_parse_stmt(&arena, sql, strlen(sql), &s, &err), &err);
    dl_sql_tref **from = s->u.query->u.select->from;
    CHECK_INT_EQ(from[0]->u.table.tt.kind, DL_SQL_TT_VERSION);
    CHECK_INT_EQ(from[0]->u.table.tt.syntax, DL_SQL_TT_AT);
    CHECK_STR_EQ(from[0]->u.table.tt.expr->u.lit.text.ptr, "12");
    CHECK_INT_EQ(from[1]->u.table.tt.kind, DL_SQL_TT_TIMESTAMP);
    CHECK_STR_EQ(from[1]->u.table.tt.expr->u.lit.text.ptr, "20261002080000123");
    CHECK_INT_EQ(from[2]->u.table.tt.kind, DL_SQL_TT_TIMESTAMP);
    CHECK_INT_EQ(from[2]->u.table.tt.syntax, DL_SQL_TT_FOR_SYSTEM);
    CHECK_INT_EQ(from[2]->u.table.tt.expr->kind, DL_SQL_EXPR_COLUMN);
    dl_arena_destroy(&arena);
}

TEST(test_merge_clauses_keep_their_order_and_kinds) {
    dl_arena arena;
    dl_error err;
    dl_sql_stmt *s;
    const char *sql = "MERGE INTO t USING s ON t.k = s.k WHEN NOT MATCHED BY SOURCE THEN DELETE "
                      "WHEN MATCHED AND s.d THEN DELETE WHEN MATCHED THEN UPDATE SET * WHEN NOT "
                      "MATCHED THEN INSERT *";
    dl_arena_init(&arena, NULL, 0);
    CHECK_OK(dl_sql_parse_stmt(&arena, sql, strlen(sql), &s, &err), &err);
    CHECK_INT_EQ(s->u.merge.n_clauses, 4);
    CHECK_INT_EQ(s->u.merge.clauses[0].match, DL_SQL_MERGE_NOT_MATCHED_BY_SOURCE);
    CHECK_INT_EQ(s->u.merge.clauses[0].action, DL_SQL_MERGE_DELETE);
    CHECK(s->u.merge.clauses[1].cond != NULL);
    CHECK_INT_EQ(s->u.merge.clauses[2].action, DL_SQL_MERGE_UPDATE_STAR);
    CHECK_INT_EQ(s->u.merge.clauses[3].action, DL_SQL_MERGE_INSERT_STAR);
    CHECK_INT_EQ(s->u.merge.source->kind, DL_SQL_TREF_TABLE);
    dl_arena_destroy(&arena);
}

TEST(test_statement_lists_its_markers_in_text_order) {
    dl_arena arena;
    dl_error err;
    dl_sql_stmt *s;
    const char *sql = "UPDATE t SET a = ? WHERE b = :x AND c IN (SELECT ? FROM u) -- ?\n";
    dl_arena_init(&arena, NULL, 0);
    CHECK_OK(dl_sql_parse_stmt(&arena, sql, strlen(sql), &s, &err), &err);
    CHECK_INT_EQ(s->n_params, 3);
    CHECK_INT_EQ(s->params[0]->u.param.index, 1);
    CHECK_INT_EQ(s->params[0]->loc, 17);
    CHECK_STR_EQ(s->params[1]->u.param.name.ptr, "x");
    CHECK_INT_EQ(s->params[2]->u.param.index, 2);
    CHECK_OK(dl_sql_parse_stmt(&arena, "SELECT '?', `?`", 15, &s, &err), &err);
    CHECK_INT_EQ(s->n_params, 0);
    dl_arena_destroy(&arena);
}

int
main(void) {
    RUN(test_select_clauses_print_canonically);
    RUN(test_set_operations_bind_intersect_tighter);
    RUN(test_joins_and_relations_print_canonically);
    RUN(test_time_travel_in_every_spelling);
    RUN(test_ddl_statements_print_canonically);
    RUN(test_alter_table_actions_print_canonically);
    RUN(test_dml_statements_print_canonically);
    RUN(test_delta_and_utility_statements_print_canonically);
    RUN(test_script_holds_statements_in_order);
    RUN(test_reader_parses_one_statement_at_a_time);
    RUN(test_tree_does_not_point_into_the_text);
    RUN(test_time_travel_tree_carries_kind_and_expression);
    RUN(test_merge_clauses_keep_their_order_and_kinds);
    RUN(test_statement_lists_its_markers_in_text_order);
    return harness_finish();
}
