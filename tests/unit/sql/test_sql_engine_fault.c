/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Out-of-memory behaviour of the engine (STYLE.md, "Memory by lifetime"): every allocation of
 * a statement, from parsing to the last batch, fails in turn; each run must end with DL_OK or
 * DL_ERR_NOMEM (never a crash or another error) and leave nothing allocated once the result
 * and the session are freed.
 */
#include <string.h>

#include "harness.h"
#include "sql/sql_engine.h"

/* Runs sql to the end on a session whose allocator fails at request fail_at (sticky).
 * Returns the status; *out_live the blocks still allocated after everything was freed. */
static dl_status
run_failing(const char *sql, int64_t fail_at, int64_t *out_live, int64_t *out_requests) {
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, fail_at, true);
    dl_sql_session_config cfg = {.alloc = &fa.base};
    dl_sql_session *s = NULL;
    dl_error err;
    dl_error_clear(&err);
    dl_status st = dl_sql_session_new(&cfg, &s, &err);
    dl_sql_result *r = NULL;
    if (st == DL_OK) {
        st = dl_sql_exec(s, sql, strlen(sql), &r, &err);
    }
    while (st == DL_OK) {
        const dl_batch *b = NULL;
        st = dl_sql_result_next(r, &b, &err);
        if (b == NULL) {
            break;
        }
    }
    if (st != DL_OK && st != DL_ERR_NOMEM) {
        printf("  fail_at %lld: %s: %s\n", (long long)fail_at, dl_status_name(st), err.msg);
    }
    dl_sql_result_free(r);
    dl_sql_session_free(s);
    *out_live = fa.live_blocks;
    *out_requests = fa.n_requests;
    return st;
}

static int
check_all_failures(const char *sql) {
    for (int64_t fail_at = 1;; fail_at++) {
        int64_t live = 0;
        int64_t requests = 0;
        dl_status st = run_failing(sql, fail_at, &live, &requests);
        if (live != 0) {
            printf("  fail_at %lld: %lld blocks leaked\n", (long long)fail_at, (long long)live);
            return 0;
        }
        if (st != DL_OK && st != DL_ERR_NOMEM) {
            return 0;
        }
        if (st == DL_OK && requests < fail_at) {
            printf("  %lld allocations, each failed once\n", (long long)requests);
            return 1; /* ran to the end without reaching the failing request */
        }
    }
}

TEST(test_aggregate_query_survives_every_allocation_failure) {
    CHECK(check_all_failures("SELECT k, count(*), sum(id) FROM (SELECT id % 3 AS k, id FROM "
                             "range(5000)) GROUP BY k"));
}

TEST(test_expression_query_survives_every_allocation_failure) {
    CHECK(check_all_failures("SELECT CASE WHEN id % 2 = 0 THEN 'even' ELSE NULL END, coalesce("
                             "NULL, id), id IN (1, 2, NULL) FROM range(3000) WHERE id > 10 "
                             "LIMIT 2500"));
}

TEST(test_values_and_settings_survive_every_allocation_failure) {
    CHECK(check_all_failures("SELECT * FROM VALUES (1, 'a'), (2, 'bbbbbbbbbbbbbbbbbbbbbbbbb') AS "
                             "t(x, y) WHERE y <> 'c'"));
    CHECK(check_all_failures("SET spark.sql.shuffle.partitions = 8"));
    CHECK(check_all_failures("SET spark.sql.session.timeZone = 'America/New_York'"));
    CHECK(check_all_failures("SET spark.sql.sources.partitionOverwriteMode = dynamic"));
}

/* A build side of 600 rows: past DL_SQL_JOIN_CODE_MIN_ROWS, so its few-valued string column is
 * coded (sql_op_join_int.h), and its dense integer key gets the direct table; the second join
 * hashes a string key. */
TEST(test_join_query_survives_every_allocation_failure) {
    CHECK(check_all_failures(
        "SELECT b.tag, count(*), sum(a.id) FROM range(1500) a JOIN (SELECT id, CASE WHEN id % 3 "
        "= 0 THEN 'x' WHEN id % 3 = 1 THEN 'y' ELSE 'z' END AS tag FROM range(600)) b ON a.id % "
        "600 = b.id GROUP BY b.tag"));
    CHECK(check_all_failures("SELECT count(*) FROM (SELECT CAST(id % 50 AS STRING) AS s FROM "
                             "range(700)) a JOIN (SELECT CAST(id AS STRING) AS s, id FROM "
                             "range(300)) b ON a.s = b.s WHERE b.id < 40"));
}

int
main(void) {
    RUN(test_aggregate_query_survives_every_allocation_failure);
    RUN(test_expression_query_survives_every_allocation_failure);
    RUN(test_values_and_settings_survive_every_allocation_failure);
    RUN(test_join_query_survives_every_allocation_failure);
    return harness_finish();
}
