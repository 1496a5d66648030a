/* SPDX-License-Identifier: Apache-2.0 */
/*
 * End-to-end tests of the engine without tables: literals, expressions with NULLs, VALUES,
 * range(), filters, projections, aggregation (GROUP BY, ROLLUP, DISTINCT), LIMIT/OFFSET,
 * CTEs, subqueries, settings, and the errors a user sees.
 */
#include <stdio.h>
#include <string.h>

#include "engine_test_util.h"
#include "harness.h"
#include "sql/bind/sql_session_int.h"
#include "sql/exec/sql_exec_int.h"

static dl_sql_session *session;

/* ---- private aggregate kernels, used only where the library has none (yet) ------------------ */

typedef struct agg_i64 {
    int64_t v;
    bool has;
} agg_i64;

static dl_status
agg_bind(dl_sql_fn_bind *b, dl_error *err) {
    (void)err;
    if (b->n_args > 0 && b->arg_types[0]->id != DL_VEC_TYPE_LONG && strcmp(b->name, "count") != 0) {
        b->cast_to[0] = dl_vec_type_prim(DL_VEC_TYPE_LONG);
    }
    b->ret_type = dl_vec_type_prim(DL_VEC_TYPE_LONG);
    return DL_OK;
}

static void
agg_init(const dl_sql_fn_call *call, void *state) {
    (void)call;
    *(agg_i64 *)state = (agg_i64){0};
}

static dl_status
agg_update(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, void *const *states,
           dl_error *err) {
    (void)err;
    const char *name = call->def->name;
    for (int64_t i = 0; i < count; i++) {
        agg_i64 *st = states[i];
        if (call->n_args > 0 && dl_vec_is_null(args[0], i)) {
            continue;
        }
        if (strcmp(name, "count") == 0) {
            st->v++;
        } else {
            int64_t x = dl_sql_vec_i64(args[0], i);
            bool take = !st->has || (strcmp(name, "min") == 0 && x < st->v) ||
                        (strcmp(name, "max") == 0 && x > st->v);
            st->v = strcmp(name, "sum") == 0 ? (st->has ? st->v + x : x) : (take ? x : st->v);
        }
        st->has = true;
    }
    return DL_OK;
}

static dl_status
agg_combine(dl_sql_fn_call *call, const void *src, void *dst, dl_error *err) {
    (void)err;
    const agg_i64 *a = src;
    agg_i64 *d = dst;
    const char *name = call->def->name;
    if (!a->has) {
        return DL_OK;
    }
    if (!d->has || strcmp(name, "count") == 0 || strcmp(name, "sum") == 0) {
        d->v = d->has ? d->v + a->v : a->v;
    } else if ((strcmp(name, "min") == 0) == (a->v < d->v)) {
        d->v = a->v;
    }
    d->has = true;
    return DL_OK;
}

static dl_status
agg_finalize(dl_sql_fn_call *call, void *const *states, int64_t count, dl_vector *out,
             dl_error *err) {
    for (int64_t i = 0; i < count; i++) {
        const agg_i64 *st = states[i];
        if (!st->has && strcmp(call->def->name, "count") != 0) {
            DL_TRY(dl_vec_append_null(out, err));
        } else {
            DL_TRY(dl_vec_append_i64(out, st->v, err));
        }
    }
    return DL_OK;
}

#define TEST_AGG(n)                                                                               \
    {                                                                                             \
        .name = (n), .kind = DL_SQL_FN_AGGREGATE, .min_args = 0, .max_args = 1, .bind = agg_bind, \
        .state_size = sizeof(agg_i64), .init = agg_init, .update = agg_update,                    \
        .combine = agg_combine, .finalize = agg_finalize                                          \
    }

static const dl_sql_fn_def test_aggs[] = {TEST_AGG("count"), TEST_AGG("sum"), TEST_AGG("min"),
                                          TEST_AGG("max")};

static const dl_sql_fn_def *
lookup(dl_str name) {
    const dl_sql_fn_def *def = dl_sql_fn_lookup(name);
    for (size_t i = 0; def == NULL && i < DL_ARRAY_LEN(test_aggs); i++) {
        if (dl_str_eq_nocase(name, dl_str_from_cstr(test_aggs[i].name))) {
            def = &test_aggs[i];
        }
    }
    return def;
}

TEST(test_select_literals_and_arithmetic) {
    CHECK(et_check(session, "SELECT 1", "1\n"));
    CHECK(et_check(session, "SELECT 1 + 2, 'a' || 'b', 7 % 3", "3\tab\t1\n"));
    CHECK(et_check(session, "SELECT 25.50, CAST(1 AS BIGINT) * 3", "25.50\t3\n"));
}

TEST(test_three_valued_logic) {
    CHECK(et_check(session, "SELECT NULL AND false, NULL OR true, NULL AND true, NOT NULL",
                   "false\ttrue\tNULL\tNULL\n"));
    CHECK(et_check(session, "SELECT 1 IN (1, NULL), 2 IN (1, NULL), 2 NOT IN (1, 3), NULL IN (1)",
                   "true\tNULL\ttrue\tNULL\n"));
    CHECK(et_check(session, "SELECT NULL IS NULL, 1 IS NOT NULL, (1 = NULL) IS UNKNOWN",
                   "true\ttrue\ttrue\n"));
    CHECK(et_check(session, "SELECT 1 <=> NULL, NULL <=> NULL, 1 IS DISTINCT FROM NULL",
                   "false\ttrue\ttrue\n"));
}

TEST(test_conditionals_short_circuit) {
    CHECK(et_check(session, "SELECT CASE WHEN 1 > 2 THEN 'a' WHEN 2 > 1 THEN 'b' END", "b\n"));
    CHECK(et_check(session,
                   "SELECT coalesce(NULL, NULL, 3), nvl(NULL, 'x'), nullif(1, 1), if(true, 1, 2)",
                   "3\tx\tNULL\t1\n"));
    CHECK(et_check(session,
                   "SELECT CASE WHEN id = 0 THEN -1 ELSE 10 / id END FROM range(3) ORDER BY id",
                   "-1\n10\n5\n"));
    CHECK(
        et_check(session, "SELECT id BETWEEN 1 AND 2 FROM range(4)", "false\ntrue\ntrue\nfalse\n"));
}

TEST(test_values_with_aliases_and_filter) {
    CHECK(et_check(session,
                   "SELECT * FROM VALUES (1, 'a'), (2, 'b'), (3, NULL) AS t(x, y) WHERE x > 1",
                   "2\tb\n3\tNULL\n"));
    CHECK(et_check(session, "SELECT t.y, x FROM (VALUES (1, 'a')) AS t(x, y)", "a\t1\n"));
    CHECK(et_check(session, "SELECT * EXCEPT (x) FROM VALUES (1, 'a', true) AS t(x, y, z)",
                   "a\ttrue\n"));
}

TEST(test_range_and_aggregates) {
    CHECK(et_check(session, "SELECT count(*), sum(id), min(id), max(id) FROM range(10)",
                   "10\t45\t0\t9\n"));
    CHECK(et_check(session, "SELECT count(*), sum(id) FROM range(0)", "0\tNULL\n"));
    CHECK(et_check(session, "SELECT count(*) FROM range(1, 100001) WHERE id % 7 = 0", "14285\n"));
    CHECK(et_check(session, "SELECT id FROM range(5, 0, -2)", "5\n3\n1\n"));
}

TEST(test_group_by_having_order) {
    CHECK(et_check(session,
                   "SELECT id % 3 AS k, count(*), sum(id) FROM range(10) GROUP BY k ORDER BY k",
                   "0\t4\t18\n1\t3\t12\n2\t3\t15\n"));
    CHECK(et_check(session,
                   "SELECT id % 3, count(*) FROM range(10) GROUP BY id % 3 HAVING count(*) > 3",
                   "0\t4\n"));
    CHECK(
        et_check(session,
                 "SELECT k, count(DISTINCT v) FROM VALUES (1, 'a'), (1, 'a'), (1, 'b'), (2, NULL) "
                 "AS t(k, v) GROUP BY k ORDER BY 1",
                 "1\t2\n2\t0\n"));
    CHECK(et_check(session, "SELECT DISTINCT id % 2 FROM range(10) ORDER BY 1", "0\n1\n"));
}

TEST(test_rollup_and_grouping) {
    CHECK(
        et_check(session,
                 "SELECT a, b, count(*), grouping(a), grouping_id(a, b) FROM VALUES (1, 'x'), "
                 "(1, 'y'), (2, 'x') AS t(a, b) GROUP BY ROLLUP(a, b) ORDER BY a NULLS LAST, "
                 "b NULLS LAST",
                 "1\tx\t1\t0\t0\n1\ty\t1\t0\t0\n1\tNULL\t2\t0\t1\n2\tx\t1\t0\t0\n2\tNULL\t1\t0\t1\n"
                 "NULL\tNULL\t3\t1\t3\n"));
}

TEST(test_limit_offset_and_cte) {
    CHECK(et_check(session, "SELECT id FROM range(100) LIMIT 3 OFFSET 5", "5\n6\n7\n"));
    CHECK(et_check(session,
                   "WITH a AS (SELECT id FROM range(4)), b AS (SELECT id * 10 AS x FROM a) "
                   "SELECT sum(x) FROM b",
                   "60\n"));
    CHECK(et_check(session, "SELECT id FROM range(10) ORDER BY id DESC LIMIT 2", "9\n8\n"));
}

TEST(test_scalar_and_exists_subqueries) {
    CHECK(et_check(session, "SELECT (SELECT max(id) FROM range(5)) + 1", "5\n"));
    CHECK(et_check(session, "SELECT EXISTS (SELECT 1 FROM range(0)), EXISTS (SELECT 1)",
                   "false\ttrue\n"));
    CHECK(et_check(session, "SELECT (SELECT id FROM range(0))", "NULL\n"));
    CHECK(et_check_error(session, "SELECT (SELECT id FROM range(3))", DL_ERR_DATA,
                         "more than one row"));
}

TEST(test_settings_set_and_reset) {
    CHECK(et_check(session, "SET spark.sql.ansi.enabled = FALSE", ""));
    CHECK(et_check(session, "SET spark.sql.ansi.enabled", "spark.sql.ansi.enabled\tfalse\n"));
    CHECK(strcmp(dl_sql_session_get(session, "spark.sql.ansi.enabled"), "false") == 0);
    CHECK(et_check(session, "RESET spark.sql.ansi.enabled", ""));
    CHECK(strcmp(dl_sql_session_get(session, "spark.sql.ansi.enabled"), "true") == 0);
    CHECK(et_check(session, "SET spark.sql.storeAssignmentPolicy = strict", ""));
    CHECK(dl_sql_session_store_policy(session) == DL_SQL_STORE_STRICT);
    CHECK(et_check(session, "SET spark.sql.storeAssignmentPolicy",
                   "spark.sql.storeAssignmentPolicy\tSTRICT\n"));
    CHECK(et_check_error(session, "SET spark.sql.storeAssignmentPolicy = loose", DL_ERR_DATA,
                         "It should be one of 'ANSI, LEGACY, STRICT'"));
    CHECK(et_check(session, "RESET spark.sql.storeAssignmentPolicy", ""));
    CHECK(dl_sql_session_store_policy(session) == DL_SQL_STORE_ANSI);
    CHECK(et_check(session, "SET my.own.key = hello", ""));
    CHECK(et_check(session, "SET my.own.key", "my.own.key\thello\n"));
    CHECK(et_check(session, "SET unknown.key", "unknown.key\t<undefined>\n"));
    CHECK(et_check_error(session, "SET spark.sql.ansi.enabled = maybe", DL_ERR_DATA,
                         "It should be a/an 'boolean' value"));
}

TEST(test_unknown_column_suggests_and_points) {
    dl_sql_result *r = NULL;
    dl_error err;
    dl_error_clear(&err);
    const char *sql = "SELECT idd FROM range(3)";
    CHECK_STATUS(dl_sql_exec(session, sql, strlen(sql), &r, &err), DL_ERR_SQL_BIND, &err);
    CHECK(strstr(err.msg, "column 'idd' not found; did you mean 'id'?") != NULL);
    CHECK_INT_EQ(err.offset, 7);
    CHECK(strstr(err.msg, "line 1, column 8") != NULL);
}

TEST(test_bind_errors_name_the_problem) {
    CHECK(et_check_error(session, "SELECT nosuchfn(1)", DL_ERR_SQL_BIND,
                         "function 'nosuchfn' not found"));
    CHECK(et_check_error(session, "SELECT id, count(*) FROM range(3)", DL_ERR_SQL_BIND,
                         "MISSING_AGGREGATION"));
    CHECK(et_check_error(session, "SELECT 1 FROM range(3) WHERE count(*) > 1", DL_ERR_SQL_BIND,
                         "not allowed in WHERE"));
    CHECK(et_check_error(session, "SELECT * FROM nosuchtable", DL_ERR_NOT_FOUND, "nosuchtable"));
    CHECK(et_check_error(session, "INSERT INTO t VALUES (1)", DL_ERR_NOT_FOUND, "no catalog"));
}

TEST(test_interrupt_stops_a_running_query) {
    const char *sql = "SELECT id FROM range(10000000)";
    dl_sql_result *r = NULL;
    dl_error err;
    dl_error_clear(&err);
    CHECK_STATUS(dl_sql_exec(session, sql, strlen(sql), &r, &err), DL_OK, &err);
    const dl_batch *b = NULL;
    CHECK_STATUS(dl_sql_result_next(r, &b, &err), DL_OK, &err);
    CHECK(b != NULL && b->count > 0);
    dl_sql_result_interrupt(r);
    dl_status st = dl_sql_result_next(r, &b, &err);
    dl_sql_result_free(r);
    CHECK_INT_EQ(st, DL_ERR_INTERRUPTED);
    CHECK(strstr(err.msg, "interrupted") != NULL);
}

/* FROM a, b, c WHERE equalities: hash joins on those keys, never a cross product. */
TEST(test_comma_joins_become_equi_joins) {
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_error err;
    dl_error_clear(&err);
    dl_status st = et_query(session,
                            "EXPLAIN SELECT a.id FROM range(10) a, range(20) b, range(30) c "
                            "WHERE a.id = b.id AND c.id = b.id + 1 AND (a.id = c.id OR b.id = 3)",
                            &out, &err);
    const char *plan = dl_buf_cstr(&out);
    /* a.id = c.id OR b.id = 3 stays above (a FILTER, or the residual of the join that meets
     * both sides); nothing it implies reaches one side alone. */
    int ok = st == DL_OK && strstr(plan, "NestedLoopJoin") == NULL &&
             strstr(plan, "HashJoin INNER [") != NULL &&
             (strstr(plan, "Filter ") != NULL || strstr(plan, "] condition ") != NULL);
    if (!ok) {
        printf("  %s\n", st == DL_OK ? plan : err.msg);
    }
    dl_buf_destroy(&out);
    CHECK(ok);
    CHECK(et_check(session,
                   "SELECT a.id, c.id FROM range(10) a, range(20) b, range(30) c "
                   "WHERE a.id = b.id AND c.id = b.id + 1 AND (a.id = c.id OR b.id = 3)",
                   "3\t4\n"));
    /* a and b share no equality, c links both: no cross product of a and b either. */
    dl_buf_init(&out, NULL);
    st = et_query(session,
                  "EXPLAIN SELECT b.id FROM range(10) a, range(20) b, range(30) c "
                  "WHERE a.id = c.id AND b.id = c.id + 1",
                  &out, &err);
    plan = dl_buf_cstr(&out);
    ok = st == DL_OK && strstr(plan, "NestedLoopJoin") == NULL;
    if (!ok) {
        printf("  %s\n", st == DL_OK ? plan : err.msg);
    }
    dl_buf_destroy(&out);
    CHECK(ok);
    CHECK(et_check(session,
                   "SELECT a.id, b.id, c.id FROM range(10) a, range(20) b, range(30) c "
                   "WHERE a.id = c.id AND b.id = c.id + 1 AND a.id > 7 ORDER BY 1",
                   "8\t9\t8\n9\t10\t9\n"));
}

/* Whether the line after the first occurrence of line (which ends in '\n') contains want. */
static int
next_line_has(const char *plan, const char *line, const char *want) {
    const char *at = strstr(plan, line);
    if (at == NULL) {
        return 0;
    }
    at += strlen(line);
    const char *end = strchr(at, '\n');
    const char *found = strstr(at, want);
    return found != NULL && (end == NULL || found < end);
}

/* Scans under joins, windows and sorts read only the columns the query uses. */
TEST(test_scans_under_joins_read_only_used_columns) {
    CHECK(et_check(session,
                   "COPY (SELECT id, id * 2 AS a, 'x' AS b, id % 3 AS c FROM range(100)) TO "
                   "'/tmp/dl_test_sql_engine_prune.parquet'",
                   ""));
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_error err;
    dl_error_clear(&err);
    dl_status st = et_query(session,
                            "EXPLAIN SELECT t1.a, rank() OVER (ORDER BY t2.id) FROM "
                            "read_parquet('/tmp/dl_test_sql_engine_prune.parquet') t1 JOIN "
                            "read_parquet('/tmp/dl_test_sql_engine_prune.parquet') t2 "
                            "ON t1.id = t2.c WHERE t2.b = 'x' ORDER BY t1.a",
                            &out, &err);
    const char *plan = dl_buf_cstr(&out);
    int ok = st == DL_OK && strstr(plan, "columns: id, a\n") != NULL &&
             strstr(plan, "columns: id, b, c\n") != NULL;
    if (!ok) {
        printf("  %s\n", st == DL_OK ? plan : err.msg);
    }
    dl_buf_destroy(&out);
    CHECK(ok);
    /* A disjunction over both sides: what it implies about t1 alone goes into t1's scan. */
    dl_buf_init(&out, NULL);
    st = et_query(session,
                  "EXPLAIN SELECT t1.a FROM read_parquet('/tmp/dl_test_sql_engine_prune.parquet') "
                  "t1, read_parquet('/tmp/dl_test_sql_engine_prune.parquet') t2 WHERE "
                  "(t1.id = t2.c AND t1.a = 2) OR (t2.c = t1.id AND t1.a = 4 AND t2.b = 'y')",
                  &out, &err);
    plan = dl_buf_cstr(&out);
    ok = st == DL_OK && next_line_has(plan, "columns: id, a\n", "pushed filters: [(");
    if (!ok) {
        printf("  %s\n", st == DL_OK ? plan : err.msg);
    }
    dl_buf_destroy(&out);
    CHECK(ok);
    CHECK(et_check(session,
                   "SELECT sum(t1.a), count(*), max(t2.id) FROM "
                   "read_parquet('/tmp/dl_test_sql_engine_prune.parquet') t1 JOIN "
                   "read_parquet('/tmp/dl_test_sql_engine_prune.parquet') t2 "
                   "ON t1.id = t2.c WHERE t2.b = 'x'",
                   "198\t100\t99\n"));
}

TEST(test_explain_shows_filters_pushed_into_the_scan) {
    CHECK(et_check(session,
                   "COPY (SELECT id, id % 5 AS k FROM range(100)) TO "
                   "'/tmp/dl_test_sql_engine_explain.parquet'",
                   ""));
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_error err;
    dl_error_clear(&err);
    dl_status st = et_query(session,
                            "EXPLAIN SELECT k FROM read_parquet("
                            "'/tmp/dl_test_sql_engine_explain.parquet') WHERE id > 90 AND k = 1",
                            &out, &err);
    const char *plan = dl_buf_cstr(&out);
    int ok = st == DL_OK && strstr(plan, "Scan parquet read_parquet (1 file)") != NULL &&
             next_line_has(plan, "columns: id, k\n", "pushed filters: [(id > 90), (k = 1)]") &&
             strstr(plan, "Filter ") == NULL;
    if (!ok) {
        printf("  %s\n", st == DL_OK ? dl_buf_cstr(&out) : err.msg);
    }
    dl_buf_destroy(&out);
    CHECK(ok);
    CHECK(et_check(session,
                   "SELECT k, id FROM read_parquet('/tmp/dl_test_sql_engine_explain.parquet') "
                   "WHERE id > 90 AND k = 1",
                   "1\t91\n1\t96\n"));
}

/* EXPLAIN of sql contains every one of the NULL-terminated strings in want. */
static int
explain_has(const char *sql, const char *const *want) {
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_error err;
    dl_error_clear(&err);
    dl_status st = et_query(session, sql, &out, &err);
    int ok = st == DL_OK;
    for (int i = 0; ok && want[i] != NULL; i++) {
        ok = strstr(dl_buf_cstr(&out), want[i]) != NULL;
    }
    if (!ok) {
        printf("  %s\n", st == DL_OK ? dl_buf_cstr(&out) : err.msg);
    }
    dl_buf_destroy(&out);
    return ok;
}

/* A correlated avg grouped by the correlation aggregates only the groups of the outer side's
 * filtered keys: a SEMI join with a copy of the filtered range under the aggregate;
 * EXPLAIN shows the estimated rows. */
TEST(test_correlated_aggregate_is_reduced_by_the_outer_keys) {
    const char *sql =
        "SELECT count(*) FROM range(100000) a, range(1000) p WHERE a.id % 1000 = p.id "
        "AND p.id % 10 = 3 AND a.id % 7 < (SELECT avg(b.id % 7) FROM range(100000) b "
        "WHERE b.id % 1000 = p.id)";
    char explain[512];
    snprintf(explain, sizeof(explain), "EXPLAIN %s", sql);
    static const char *const want[] = {"HashAggregate keys=[(id % 1000)]", "HashJoin LEFT SEMI",
                                       "Range (0, 100000, step=1)  (est. 100000 rows)", NULL};
    CHECK(explain_has(explain, want));
    CHECK(et_check(session, sql, "4901\n"));
}

/* A CTE referenced twice whose result is an aggregate's is computed once: both references
 * read its rows (ROWS), none aggregates range(1000) again. */
TEST(test_cte_referenced_twice_is_computed_once) {
    static const char *const want[] = {"LocalRelation (computed rows)  (est. 7 rows)", NULL};
    CHECK(explain_has("EXPLAIN WITH r AS (SELECT id % 7 AS k, count(*) AS n FROM range(1000) "
                      "GROUP BY id % 7) SELECT a.k FROM r a JOIN r b ON a.k = b.k + 1 "
                      "WHERE a.n = (SELECT max(n) FROM r)",
                      want));
    CHECK(et_check(session,
                   "WITH r AS (SELECT id % 7 AS k, count(*) AS n FROM range(1000) GROUP BY "
                   "id % 7) SELECT a.k, a.n, b.n FROM r a JOIN r b ON a.k = b.k + 1 "
                   "WHERE a.n = (SELECT max(n) FROM r) ORDER BY 1",
                   "1\t143\t143\n2\t143\t143\n3\t143\t143\n4\t143\t143\n5\t143\t143\n"));
}

/* The column names of sql's result, joined with '|'; "" when it fails. */
static int
check_names(const char *sql, const char *want) {
    dl_error err;
    dl_error_clear(&err);
    dl_sql_result *r = NULL;
    if (dl_sql_exec(session, sql, strlen(sql), &r, &err) != DL_OK) {
        printf("  %s: %s\n", sql, err.msg);
        return 0;
    }
    const dl_type *t = dl_sql_result_schema(r);
    char got[1024] = "";
    size_t len = 0;
    for (int32_t c = 0; c < t->n_fields; c++) {
        int n = snprintf(got + len, sizeof(got) - len, "%s%s", c > 0 ? "|" : "", t->fields[c].name);
        len = n > 0 ? DL_MIN(len + (size_t)n, sizeof(got) - 1) : len;
    }
    dl_sql_result_free(r);
    int ok = strcmp(got, want) == 0;
    if (!ok) {
        printf("  %s\n  want %s\n  got  %s\n", sql, want, got);
    }
    return ok;
}

TEST(test_unaliased_columns_get_spark_names) {
    CHECK(check_names("SELECT 1, 'a', 1 + 2, id = 1, upper('x'), -id, id <> 2 FROM range(1)",
                      "1|a|(1 + 2)|(id = 1)|upper(x)|(- id)|(NOT (id = 2))"));
    CHECK(check_names("SELECT id IS NULL, NOT (id > 1), id IN (1, 2), id BETWEEN 1 AND 2, "
                      "CAST(id AS DECIMAL(5, 2)) FROM range(1)",
                      "(id IS NULL)|(NOT (id > 1))|(id IN (1, 2))|((id >= 1) AND (id <= 2))|"
                      "CAST(id AS DECIMAL(5,2))"));
    CHECK(check_names("SELECT CASE id WHEN 1 THEN 'x' END, coalesce(id, 3), 1e10, 0.5D, "
                      "map('k', 1)['k'], 'a' || 'b', count(*), count(DISTINCT id) FROM range(1) "
                      "GROUP BY id",
                      "CASE WHEN (id = 1) THEN x END|coalesce(id, 3)|1.0E10|0.5|map(k, 1)[k]|"
                      "concat(a, b)|count(1)|count(DISTINCT id)"));
}

/* The count of occurrences of needle in hay. */
static int
count_of(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = strstr(hay, needle); p != NULL; p = strstr(p + 1, needle)) {
        n++;
    }
    return n;
}

/* EXPLAIN of sql has exactly n_cross cross products (Join CROSS) and n_joins joins. */
static int
explain_joins(const char *sql, int n_joins, int n_cross) {
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_error err;
    dl_error_clear(&err);
    dl_status st = et_query(session, sql, &out, &err);
    const char *plan = dl_buf_cstr(&out);
    int ok = st == DL_OK && count_of(plan, "Join ") == n_joins &&
             count_of(plan, "Join CROSS") == n_cross;
    if (!ok) {
        printf("  %s\n", st == DL_OK ? plan : err.msg);
    }
    dl_buf_destroy(&out);
    return ok;
}

/* Comma joins written in an order where neighbours share no equality are reordered by cost:
 * no cross product (a 5-table chain written a, c, e, b, d; a 12-table chain in scrambled order,
 * ordered greedily), exactly one where the join graph is disconnected; the answers are the
 * same as in the connected order. */
TEST(test_join_order_avoids_cross_products) {
    const char *chain5 =
        "SELECT count(*), sum(e.id) FROM range(100) a, range(90) c, range(80) e, range(95) b, "
        "range(85) d WHERE a.id = b.id AND b.id = c.id + 1 AND c.id = d.id AND d.id = e.id + 2";
    char sql[2048];
    snprintf(sql, sizeof(sql), "EXPLAIN %s", chain5);
    CHECK(explain_joins(sql, 4, 0));
    CHECK(et_check(session, chain5, "80\t3160\n"));
    CHECK(et_check(session,
                   "SELECT count(*), sum(e.id) FROM range(100) a, range(95) b, range(90) c, "
                   "range(85) d, range(80) e WHERE a.id = b.id AND b.id = c.id + 1 AND "
                   "c.id = d.id AND d.id = e.id + 2",
                   "80\t3160\n"));
    const char *disconnected = "SELECT count(*) FROM range(10) a, range(7) x, range(20) b, "
                               "range(30) c WHERE a.id = c.id AND c.id = b.id";
    snprintf(sql, sizeof(sql), "EXPLAIN %s", disconnected);
    CHECK(explain_joins(sql, 3, 1));
    CHECK(et_check(session, disconnected, "70\n"));
    dl_buf q;
    dl_buf_init(&q, NULL);
    dl_error qe;
    dl_error_clear(&qe);
    static const int order[12] = {7, 2, 11, 0, 5, 9, 3, 10, 1, 6, 4, 8};
    int ok = dl_buf_append_cstr(&q, "EXPLAIN SELECT count(*) FROM ", &qe) == DL_OK;
    for (int i = 0; i < 12 && ok; i++) {
        ok = dl_buf_appendf(&q, &qe, "%srange(%d) t%d", i > 0 ? ", " : "", 50 + order[i],
                            order[i]) == DL_OK;
    }
    ok = ok && dl_buf_append_cstr(&q, " WHERE t0.id = t1.id", &qe) == DL_OK;
    for (int i = 1; i < 11 && ok; i++) {
        ok = dl_buf_appendf(&q, &qe, " AND t%d.id = t%d.id", i, i + 1) == DL_OK;
    }
    CHECK(ok);
    CHECK(explain_joins(dl_buf_cstr(&q), 11, 0));
    CHECK(et_check(session, dl_buf_cstr(&q) + strlen("EXPLAIN "), "50\n"));
    dl_buf_destroy(&q);
}

int
main(void) {
    session = et_session(0);
    if (session == NULL) {
        return 1;
    }
    dl_sql_session_set_fn_lookup(session, lookup);
    RUN(test_select_literals_and_arithmetic);
    RUN(test_three_valued_logic);
    RUN(test_conditionals_short_circuit);
    RUN(test_values_with_aliases_and_filter);
    RUN(test_range_and_aggregates);
    RUN(test_group_by_having_order);
    RUN(test_rollup_and_grouping);
    RUN(test_limit_offset_and_cte);
    RUN(test_scalar_and_exists_subqueries);
    RUN(test_settings_set_and_reset);
    RUN(test_unknown_column_suggests_and_points);
    RUN(test_bind_errors_name_the_problem);
    RUN(test_interrupt_stops_a_running_query);
    RUN(test_explain_shows_filters_pushed_into_the_scan);
    RUN(test_correlated_aggregate_is_reduced_by_the_outer_keys);
    RUN(test_cte_referenced_twice_is_computed_once);
    RUN(test_comma_joins_become_equi_joins);
    RUN(test_join_order_avoids_cross_products);
    RUN(test_scans_under_joins_read_only_used_columns);
    RUN(test_unaliased_columns_get_spark_names);
    et_session_free(session);
    return harness_finish();
}
