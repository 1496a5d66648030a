/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The data-changing statements end to end (src/sql/commands/sql_dml*.c over src/ops): each test
 * runs SQL in a fresh warehouse through the public API, then checks the table's whole log with the
 * write side's protocol checker (test_delta_txn_check.c), what the commits say, and that a
 * failed statement left the table, and its folder, as they were.
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "deltalite.h"

#include "harness.h"
#include "test_delta_txn_util.h"

typedef struct wh {
    tl_table root; /* the warehouse folder (removed at the end) */
    deltalite_db *db;
} wh;

static bool
wh_open(wh *w) {
    memset(w, 0, sizeof(*w));
    (void)snprintf(w->root.dir, sizeof(w->root.dir), "/tmp/dl_ops_sql_XXXXXX");
    if (mkdtemp(w->root.dir) == NULL) {
        return false;
    }
    return deltalite_open(w->root.dir, NULL, &w->db) == DELTALITE_OK;
}

static void
wh_close(wh *w) {
    if (deltalite_close(w->db) != DELTALITE_OK) {
        printf("  close: %s\n", deltalite_error_message(w->db));
    }
    tl_table_free(&w->root);
}

/* Runs sql; on failure prints the engine's message. */
static bool
run(wh *w, const char *sql) {
    if (deltalite_exec(w->db, sql) != DELTALITE_OK) {
        printf("  %s\n  -> %s\n", sql, deltalite_error_message(w->db));
        return false;
    }
    return true;
}

/* The first column of the first row of a query as an integer. */
static int64_t
scalar(wh *w, const char *sql) {
    deltalite_result *r = NULL;
    int64_t v = -999;
    bool has = false;
    if (deltalite_query(w->db, sql, &r) == DELTALITE_OK &&
        deltalite_result_next_row(r, &has) == DELTALITE_OK && has &&
        !deltalite_result_is_null(r, 0)) {
        (void)deltalite_result_get_int64(r, 0, &v);
    } else {
        printf("  %s -> %s\n", sql, deltalite_error_message(w->db));
    }
    deltalite_result_free(r);
    return v;
}

/* Opens the table folder name of the default schema for the checker. */
static bool
table_open(wh *w, const char *name, tl_table *t) {
    memset(t, 0, sizeof(*t));
    char dir[600];
    int n = snprintf(dir, sizeof(dir), "%s/%s", w->root.dir, name);
    if (n < 0 || (size_t)n >= sizeof(t->dir)) {
        return false;
    }
    memcpy(t->dir, dir, (size_t)n + 1);
    return tl_open(t);
}

static void
table_close(tl_table *t) {
    t->dir[0] = '\0'; /* the warehouse removes it */
    tl_table_free(t);
}

/* Number of .parquet files under dir (recursively). */
static int
count_parquet(const char *dir) {
    DIR *d = opendir(dir);
    if (d == NULL) {
        return 0;
    }
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "_delta_log") == 0) {
            continue;
        }
        size_t len = strlen(e->d_name);
        char p[1024];
        (void)snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
        if (len > 8 && strcmp(e->d_name + len - 8, ".parquet") == 0) {
            n++;
        } else {
            n += count_parquet(p);
        }
    }
    (void)closedir(d);
    return n;
}

TEST(test_every_statement_writes_a_log_the_checker_accepts) {
    wh w;
    CHECK(wh_open(&w));
    CHECK(run(&w, "CREATE TABLE t (id BIGINT NOT NULL, p STRING, amount DECIMAL(10,2)) "
                  "USING DELTA PARTITIONED BY (p) TBLPROPERTIES ('delta.appendOnly' = 'false')"));
    CHECK(run(&w, "INSERT INTO t VALUES (1, 'a', 1.50), (2, 'b', 2.25), (3, NULL, 3)"));
    CHECK(run(&w, "UPDATE t SET amount = amount * 2 WHERE p = 'a'"));
    CHECK(run(&w, "DELETE FROM t WHERE id = 2"));
    CHECK(run(&w, "MERGE INTO t USING (SELECT 3 AS id, 'c' AS p, 9.99 AS amount UNION ALL "
                  "SELECT 4, 'd', 4) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET amount = "
                  "s.amount WHEN NOT MATCHED THEN INSERT *"));
    CHECK(run(&w, "INSERT OVERWRITE t SELECT id + 10, p, amount FROM t"));
    CHECK(run(&w, "RESTORE TABLE t TO VERSION AS OF 3"));
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM t"), 2);
    CHECK_INT_EQ(scalar(&w, "SELECT CAST(sum(amount) * 100 AS BIGINT) FROM t"), 600);
    /* A timestamp_ntz column upgrades the protocol to table features. */
    CHECK(run(&w, "ALTER TABLE t ADD COLUMNS (note STRING COMMENT 'why' AFTER id, seen "
                  "TIMESTAMP_NTZ)"));
    CHECK(run(&w, "INSERT INTO t VALUES (5, 'n', 'e', 1, TIMESTAMP_NTZ '2026-01-02 03:04:05')"));
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM t WHERE note IS NULL AND seen IS NULL"), 2);
    /* MERGE schema evolution: a new column and a struct column with a new field. */
    CHECK(run(&w, "ALTER TABLE t ADD COLUMNS (st STRUCT<x: INT>)"));
    CHECK(run(&w, "MERGE WITH SCHEMA EVOLUTION INTO t USING (SELECT 5 AS id, named_struct('y', "
                  "'b', 'x', 2) AS st, 7 AS extra) s ON t.id = s.id WHEN MATCHED THEN UPDATE "
                  "SET *"));
    CHECK_INT_EQ(scalar(&w, "SELECT st.x * 100 + extra FROM t WHERE id = 5"), 207);
    CHECK_INT_EQ(scalar(&w, "SELECT max(version) FROM (DESCRIBE HISTORY t)"), 10);
    tl_table t;
    CHECK(table_open(&w, "t", &t));
    CHECK_LOG(&t);
    table_close(&t);
    wh_close(&w);
}

TEST(test_history_has_spark_operations_and_metrics) {
    wh w;
    CHECK(wh_open(&w));
    CHECK(run(&w, "CREATE TABLE h AS SELECT * FROM VALUES (1, 'x'), (2, 'y') AS v(id, s)"));
    CHECK(run(&w, "INSERT INTO h VALUES (3, 'z')"));
    CHECK(run(&w, "DELETE FROM h WHERE id >= 2"));
    CHECK(run(&w, "UPDATE h SET s = 'w'"));
    CHECK_INT_EQ(scalar(&w, "SELECT CAST(operationMetrics['numOutputRows'] AS INT) FROM "
                            "(DESCRIBE HISTORY h) WHERE version = 0 AND operation = "
                            "'CREATE TABLE AS SELECT'"),
                 2);
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM (DESCRIBE HISTORY h) WHERE version = 1 AND "
                            "operation = 'WRITE' AND operationParameters['mode'] = 'Append'"),
                 1);
    CHECK_INT_EQ(scalar(&w, "SELECT CAST(operationMetrics['numDeletedRows'] AS INT) FROM "
                            "(DESCRIBE HISTORY h) WHERE version = 2"),
                 2);
    CHECK_INT_EQ(scalar(&w, "SELECT CAST(operationMetrics['numUpdatedRows'] AS INT) FROM "
                            "(DESCRIBE HISTORY h) WHERE version = 3 AND operation = 'UPDATE'"),
                 1);
    wh_close(&w);
}

TEST(test_failed_statement_leaves_table_and_folder_unchanged) {
    wh w;
    CHECK(wh_open(&w));
    CHECK(run(&w, "CREATE TABLE f AS SELECT * FROM VALUES (1), (2), (3) AS v(id)"));
    char dir[512];
    (void)snprintf(dir, sizeof(dir), "%s/f", w.root.dir);
    int files = count_parquet(dir);
    CHECK(deltalite_exec(w.db, "INSERT OVERWRITE f SELECT CASE WHEN id = 3 THEN "
                               "raise_error('boom') ELSE id END FROM f") != DELTALITE_OK);
    CHECK(strstr(deltalite_error_message(w.db), "boom") != NULL);
    CHECK(deltalite_exec(w.db, "UPDATE f SET id = CAST(raise_error('nope') AS INT) WHERE id = 2") !=
          DELTALITE_OK);
    CHECK_INT_EQ(count_parquet(dir), files);
    CHECK_INT_EQ(scalar(&w, "SELECT max(version) FROM (DESCRIBE HISTORY f)"), 0);
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM f"), 3);
    wh_close(&w);
}

TEST(test_delete_matching_nothing_commits_nothing) {
    wh w;
    CHECK(wh_open(&w));
    CHECK(run(&w, "CREATE TABLE n AS SELECT * FROM VALUES (1), (2) AS v(id)"));
    CHECK(run(&w, "DELETE FROM n WHERE id > 5"));
    CHECK(run(&w, "UPDATE n SET id = 0 WHERE id IS NULL"));
    CHECK_INT_EQ(scalar(&w, "SELECT max(version) FROM (DESCRIBE HISTORY n)"), 0);
    wh_close(&w);
}

TEST(test_insert_errors_name_the_column) {
    wh w;
    CHECK(wh_open(&w));
    CHECK(run(&w, "CREATE TABLE e (id INT NOT NULL, d DATE) USING DELTA"));
    CHECK(deltalite_exec(w.db, "INSERT INTO e (id, d, extra) VALUES (1, DATE '2024-01-01', 2)") !=
          DELTALITE_OK);
    CHECK(strstr(deltalite_error_message(w.db), "extra") != NULL);
    CHECK(deltalite_exec(w.db, "INSERT INTO e VALUES (1)") != DELTALITE_OK);
    CHECK(strstr(deltalite_error_message(w.db), "columns") != NULL);
    CHECK(deltalite_exec(w.db, "INSERT INTO e VALUES (NULL, DATE '2024-01-01')") != DELTALITE_OK);
    CHECK(strstr(deltalite_error_message(w.db), "id") != NULL);
    CHECK(deltalite_exec(w.db, "CREATE TABLE e (x INT)") != DELTALITE_OK);
    CHECK(strstr(deltalite_error_message(w.db), "already exists") != NULL);
    CHECK(run(&w, "CREATE TABLE IF NOT EXISTS e (x INT)"));
    CHECK_INT_EQ(scalar(&w, "SELECT max(version) FROM (DESCRIBE HISTORY e)"), 0);
    wh_close(&w);
}

/* Removes from disk the data files that version `version` of table name added (path LIKE
 * pattern); returns how many. */
static int
remove_added_files(wh *w, const char *name, int64_t version, const char *like) {
    char sql[512];
    (void)snprintf(sql, sizeof(sql),
                   "SELECT path FROM delta_log('%s') WHERE version = %lld AND action = 'add' AND "
                   "path LIKE '%s'",
                   name, (long long)version, like);
    deltalite_result *r = NULL;
    int n = 0;
    bool has = false;
    if (deltalite_query(w->db, sql, &r) != DELTALITE_OK) {
        printf("  %s -> %s\n", sql, deltalite_error_message(w->db));
        return -1;
    }
    while (deltalite_result_next_row(r, &has) == DELTALITE_OK && has) {
        const char *path = NULL;
        char full[1024];
        if (deltalite_result_get_text(r, 0, &path, NULL) != DELTALITE_OK || path == NULL) {
            break;
        }
        (void)snprintf(full, sizeof(full), "%s/%s/%s", w->root.dir, name, path);
        n += remove(full) == 0 ? 1 : 0;
    }
    deltalite_result_free(r);
    return n;
}

TEST(test_delete_does_not_read_files_that_statistics_rule_out) {
    wh w;
    CHECK(wh_open(&w));
    CHECK(run(&w, "CREATE TABLE s AS SELECT id, id * 10 AS v FROM range(0, 10) AS r(id)"));
    CHECK(run(&w, "INSERT INTO s SELECT id, id * 10 FROM range(100, 110) AS r(id)"));
    /* The second file is gone: a DELETE that read it would fail with NOT_FOUND. */
    CHECK_INT_EQ(remove_added_files(&w, "s", 1, "%"), 1);
    CHECK(run(&w, "DELETE FROM s WHERE id = 4"));
    CHECK(run(&w, "UPDATE s SET v = 0 WHERE id < 2"));
    CHECK_INT_EQ(scalar(&w, "SELECT CAST(operationMetrics['numRemovedFiles'] AS INT) * 100 + "
                            "CAST(operationMetrics['numCopiedRows'] AS INT) FROM "
                            "(DESCRIBE HISTORY s) WHERE version = 2"),
                 109);
    CHECK_INT_EQ(scalar(&w, "SELECT CAST(operationMetrics['numUpdatedRows'] AS INT) * 100 + "
                            "CAST(operationMetrics['numCopiedRows'] AS INT) FROM "
                            "(DESCRIBE HISTORY s) WHERE version = 3"),
                 207);
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM delta_log('s') WHERE version = 1 AND action = "
                            "'add' AND path IN (SELECT path FROM delta_log('s') WHERE action = "
                            "'remove')"),
                 0);
    wh_close(&w);
}

TEST(test_partition_delete_is_metadata_only) {
    wh w;
    CHECK(wh_open(&w));
    CHECK(run(&w, "CREATE TABLE m USING DELTA PARTITIONED BY (p) AS SELECT id, CAST(id % 3 AS "
                  "STRING) AS p FROM range(0, 30) AS r(id)"));
    CHECK(run(&w, "INSERT INTO m SELECT id, CAST(id % 3 AS STRING) FROM range(30, 60) AS r(id)"));
    /* The partition's files are gone from disk: only a metadata-only delete succeeds. */
    CHECK_INT_EQ(remove_added_files(&w, "m", 0, "p=2/%") + remove_added_files(&w, "m", 1, "p=2/%"),
                 2);
    CHECK(run(&w, "DELETE FROM m WHERE p = '2'"));
    CHECK_INT_EQ(scalar(&w, "SELECT CAST(operationMetrics['numDeletedRows'] AS INT) * 100 + "
                            "CAST(operationMetrics['numRemovedFiles'] AS INT) * 10 + "
                            "CAST(operationMetrics['numAddedFiles'] AS INT) FROM "
                            "(DESCRIBE HISTORY m) WHERE version = 2"),
                 2020);
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM m"), 40);
    CHECK(run(&w, "DELETE FROM m WHERE p = '1' AND id = 1"));
    CHECK(run(&w, "MERGE INTO m USING (SELECT 1000 AS id, '7' AS p) s ON m.id = s.id "
                  "WHEN NOT MATCHED THEN INSERT *"));
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM delta_log('m') WHERE version = 4 AND action = "
                            "'remove'"),
                 0);
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM m"), 40);
    tl_table t;
    CHECK(table_open(&w, "m", &t));
    CHECK_LOG(&t);
    table_close(&t);
    wh_close(&w);
}

TEST(test_merge_with_two_source_rows_for_one_target_row_fails) {
    wh w;
    CHECK(wh_open(&w));
    CHECK(run(&w, "CREATE TABLE g AS SELECT * FROM VALUES (1, 'a'), (2, 'b') AS v(id, s)"));
    CHECK(deltalite_exec(w.db, "MERGE INTO g USING (SELECT 1 AS id, 'x' AS s UNION ALL SELECT 1, "
                               "'y') src ON g.id = src.id WHEN MATCHED THEN UPDATE SET *") !=
          DELTALITE_OK);
    CHECK(strstr(deltalite_error_message(w.db),
                 "DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE") != NULL);
    CHECK(strstr(deltalite_error_message(w.db), "g") != NULL);
    CHECK_INT_EQ(scalar(&w, "SELECT max(version) FROM (DESCRIBE HISTORY g)"), 0);
    /* One source row per target row is fine, and so is an unconditional DELETE. */
    CHECK(run(&w, "MERGE INTO g USING (SELECT 1 AS id UNION ALL SELECT 1) src ON g.id = src.id "
                  "WHEN MATCHED THEN DELETE"));
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM g"), 1);
    wh_close(&w);
}

/*
 * MERGE and a DELETE with a subquery read only the candidates their conditions' target-only
 * conjuncts keep, and rewrite only the files holding a changed row: with the other
 * partitions' files gone from disk they still succeed (reading one would fail NOT_FOUND).
 */
TEST(test_merge_and_subquery_delete_read_only_candidate_files) {
    wh w;
    CHECK(wh_open(&w));
    CHECK(run(&w, "CREATE TABLE k USING DELTA PARTITIONED BY (p) AS SELECT id, CAST(id % 3 AS "
                  "STRING) AS p, id AS v FROM range(0, 30) AS r(id)"));
    CHECK(run(&w, "INSERT INTO k SELECT id, CAST(id % 3 AS STRING), id FROM range(30, 60) AS "
                  "r(id)"));
    CHECK(run(&w, "CREATE TABLE src AS SELECT * FROM VALUES (4, 100), (7, 200), (99, 300) AS "
                  "s(id, v)"));
    CHECK_INT_EQ(remove_added_files(&w, "k", 0, "p=2/%") + remove_added_files(&w, "k", 1, "p=2/%"),
                 2);
    CHECK(run(&w, "MERGE INTO k USING src ON k.id = src.id AND k.p = '1' WHEN MATCHED THEN "
                  "UPDATE SET v = src.v WHEN NOT MATCHED THEN INSERT (id, p, v) VALUES (src.id, "
                  "'0', src.v)"));
    CHECK_INT_EQ(scalar(&w, "SELECT CAST(operationMetrics['numTargetFilesRemoved'] AS INT) * 100 + "
                            "CAST(operationMetrics['numTargetRowsUpdated'] AS INT) * 10 + "
                            "CAST(operationMetrics['numTargetRowsInserted'] AS INT) FROM "
                            "(DESCRIBE HISTORY k) WHERE version = 2"),
                 121);
    CHECK(run(&w, "DELETE FROM k WHERE p = '0' AND id IN (SELECT id FROM src)"));
    CHECK_INT_EQ(scalar(&w, "SELECT CAST(operationMetrics['numRemovedFiles'] AS INT) * 10 + "
                            "CAST(operationMetrics['numDeletedRows'] AS INT) FROM "
                            "(DESCRIBE HISTORY k) WHERE version = 3"),
                 11);
    CHECK_INT_EQ(scalar(&w, "SELECT sum(v) FROM k WHERE p IN ('0', '1')"),
                 (0 + 57) * 20 / 2 + (1 + 58) * 20 / 2 - 4 - 7 + 100 + 200);
    tl_table t;
    CHECK(table_open(&w, "k", &t));
    CHECK_LOG(&t);
    table_close(&t);
    wh_close(&w);
}

/* A writer thread: runs its statements (head, a number from first on, tail) on its own
 * handle until one fails. */
typedef struct racer {
    deltalite_db *db;
    const char *head;
    const char *tail;
    int first;
    int n_ok;
    char error[512];
} racer;

static void *
race(void *arg) {
    racer *r = arg;
    for (int i = 0; i < 12; i++) {
        char sql[300];
        (void)snprintf(sql, sizeof(sql), "%s%d%s", r->head, r->first + i, r->tail);
        if (deltalite_exec(r->db, sql) != DELTALITE_OK) {
            (void)snprintf(r->error, sizeof(r->error), "%s -> %s", sql,
                           deltalite_error_message(r->db));
            break;
        }
        r->n_ok++;
    }
    return NULL;
}

/*
 * Table c holds 40 rows of partition a. writer (12 statements on partition a) races 12 blind
 * appends to partition b from two handles: every statement must commit, as when the writer
 * records only partition a as read (with the whole table recorded as read, an append that
 * wins first fails it with ConcurrentAppendException under the default Serializable level).
 */
static void
race_appends(wh *w, racer *writer) {
    CHECK(run(w, "CREATE TABLE c USING DELTA PARTITIONED BY (p) AS SELECT id, 'a' AS p FROM "
                 "range(0, 40) AS r(id)"));
    racer app = {.head = "INSERT INTO c VALUES (", .tail = ", 'b')", .first = 1000};
    CHECK(deltalite_open(w->root.dir, NULL, &writer->db) == DELTALITE_OK);
    CHECK(deltalite_open(w->root.dir, NULL, &app.db) == DELTALITE_OK);
    pthread_t t1;
    pthread_t t2;
    CHECK(pthread_create(&t1, NULL, race, writer) == 0);
    CHECK(pthread_create(&t2, NULL, race, &app) == 0);
    (void)pthread_join(t1, NULL);
    (void)pthread_join(t2, NULL);
    (void)deltalite_close(writer->db);
    (void)deltalite_close(app.db);
    if (writer->error[0] != '\0' || app.error[0] != '\0') {
        printf("  %s\n  %s\n", writer->error, app.error);
    }
    CHECK_INT_EQ(writer->n_ok, 12);
    CHECK_INT_EQ(app.n_ok, 12);
    CHECK_INT_EQ(scalar(w, "SELECT count(*) FROM c"), 40);
    CHECK_INT_EQ(scalar(w, "SELECT max(version) FROM (DESCRIBE HISTORY c)"), 24);
}

TEST(test_concurrent_blind_append_to_another_partition_does_not_conflict) {
    wh w;
    CHECK(wh_open(&w));
    racer del = {.head = "DELETE FROM c WHERE p = 'a' AND id = ", .tail = ""};
    race_appends(&w, &del);
    wh_close(&w);
}

/* The same for a MERGE whose ON condition reads partition a only: it records the files of a
 * and that partition as read, as Spark. */
TEST(test_concurrent_append_to_a_partition_a_merge_does_not_read_does_not_conflict) {
    wh w;
    CHECK(wh_open(&w));
    racer mrg = {.head = "MERGE INTO c USING (SELECT ",
                 .tail = " AS id) s ON c.id = s.id AND c.p = 'a' WHEN MATCHED THEN DELETE"};
    race_appends(&w, &mrg);
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM c WHERE id < 12"), 0);
    wh_close(&w);
}

/* The same for INSERT OVERWRITE in dynamic partition overwrite mode, as Delta: it reads only
 * the partitions it writes (a), so appends to b do not conflict with it; partition a ends
 * with the last overwrite's 28 rows. */
TEST(test_concurrent_append_to_another_partition_does_not_fail_dynamic_overwrite) {
    wh w;
    CHECK(wh_open(&w));
    racer ovw = {.head = "INSERT OVERWRITE c WITH ('partitionOverwriteMode' = 'dynamic') SELECT "
                         "id, 'a' FROM range(0, ",
                 .tail = ") AS r(id)",
                 .first = 17};
    race_appends(&w, &ovw);
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM c WHERE p = 'a'"), 28);
    wh_close(&w);
}

/* The first row of a query: column col's text into out (empty when NULL or on error). */
static void
text_of(wh *w, const char *sql, int32_t col, char *out, size_t cap) {
    deltalite_result *r = NULL;
    bool has = false;
    out[0] = '\0';
    if (deltalite_query(w->db, sql, &r) == DELTALITE_OK &&
        deltalite_result_next_row(r, &has) == DELTALITE_OK && has) {
        const char *t = NULL;
        if (deltalite_result_get_text(r, col, &t, NULL) == DELTALITE_OK && t != NULL) {
            (void)snprintf(out, cap, "%s", t);
        }
    } else {
        printf("  %s -> %s\n", sql, deltalite_error_message(w->db));
    }
    deltalite_result_free(r);
}

/*
 * OPTIMIZE returns Spark's row: the table's location and the metrics struct (numFilesAdded,
 * numFilesRemoved, filesAdded {min, max, avg, totalFiles, totalSize}, filesRemoved {...},
 * partitionsOptimized, zOrderStats, numBins, numBatches, totalConsideredFiles,
 * totalFilesSkipped, preserveInsertionOrder, ...); the log it writes passes the checker.
 */
TEST(test_optimize_returns_path_and_metrics_and_writes_a_valid_log) {
    wh w;
    CHECK(wh_open(&w));
    CHECK(run(&w, "CREATE TABLE o (id BIGINT, p STRING) USING DELTA PARTITIONED BY (p)"));
    for (int i = 0; i < 3; i++) {
        char sql[128];
        (void)snprintf(sql, sizeof(sql), "INSERT INTO o VALUES (%d, 'a'), (%d, 'b'), (%d, 'c')", i,
                       i + 10, i + 20);
        CHECK(run(&w, sql));
    }
    CHECK(run(&w, "INSERT INTO o VALUES (30, 'd')"));
    char path[1024];
    char metrics[2048];
    char want[1100];
    text_of(&w, "OPTIMIZE o", 0, path, sizeof(path));
    text_of(&w,
            "SELECT CAST(operationMetrics['numAddedBytes'] AS BIGINT) FROM "
            "(DESCRIBE HISTORY o) WHERE version = 5",
            0, want, sizeof(want));
    int64_t added = atoll(want);
    (void)snprintf(want, sizeof(want), "%s/o", w.root.dir);
    CHECK(strcmp(path, want) == 0);
    /* Run again on a fresh table to see the struct (the first run's row was read above). */
    CHECK(run(&w, "CREATE TABLE o2 (id BIGINT, p STRING) USING DELTA PARTITIONED BY (p)"));
    CHECK(run(&w, "INSERT INTO o2 VALUES (1, 'a')"));
    CHECK(run(&w, "INSERT INTO o2 VALUES (2, 'a')"));
    text_of(&w, "OPTIMIZE o2", 1, metrics, sizeof(metrics));
    CHECK(strncmp(metrics, "{1, 2, {", 8) == 0);
    /* filesRemoved: two files; partitionsOptimized 1, zOrderStats null, numBins 1,
     * numBatches 1, totalConsideredFiles 2, totalFilesSkipped 0, preserveInsertionOrder. */
    CHECK(strstr(metrics, ".0, 2, ") != NULL);
    CHECK(strstr(metrics, "}, 1, null, 1, 1, 2, 0, true, 0, 0, ") != NULL);
    CHECK(strstr(metrics, ", null, 2, 2}") != NULL); /* no DVs; 2 columns, both with stats */
    CHECK(added > 0);
    CHECK_INT_EQ(scalar(&w, "SELECT numFiles FROM (DESCRIBE DETAIL o)"), 4);
    CHECK_INT_EQ(scalar(&w, "SELECT sum(id) FROM o"), 3 + 33 + 63 + 30);
    tl_table t;
    CHECK(table_open(&w, "o", &t));
    CHECK_LOG(&t);
    table_close(&t);
    wh_close(&w);
}

/* Copies ../shared/corpus/<rel> to <warehouse>/<name>, without the Hadoop checksums of its
 * log files (the checker takes them for temporary files); false when the corpus is absent. */
static bool
copy_corpus_table(wh *w, const char *rel, const char *name) {
    char cmd[2048];
    (void)snprintf(cmd, sizeof(cmd), "cp -R '%s/%s' '%s/%s' && rm -f '%s/%s/_delta_log/'.*.crc",
                   DL_CORPUS_DIR, rel, w->root.dir, name, w->root.dir, name);
    return system(cmd) == 0;
}

/* Rows a deletion vector hides are purged: the rewritten file has them no more, and the
 * metrics count the vectors and rows removed. A lone file with a DV is rewritten too. (The
 * table's first commits are Spark's, which the log checker, made for deltalite's commits,
 * does not accept: the commit is checked through delta_log instead.) */
TEST(test_optimize_purges_deletion_vectors) {
    wh w;
    CHECK(wh_open(&w));
    if (!copy_corpus_table(&w, "kernel-defaults/basic-dv-no-checkpoint", "dv") ||
        !copy_corpus_table(&w, "kernel-defaults/basic-dv-no-checkpoint", "dv1")) {
        printf("  (corpus absent: skipped)\n");
        wh_close(&w);
        return;
    }
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) * 1000 + sum(id) FROM dv"), 8000 + 44);
    CHECK(run(&w, "OPTIMIZE dv"));
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) * 1000 + sum(id) FROM dv"), 8000 + 44);
    CHECK_INT_EQ(scalar(&w, "SELECT numFiles FROM (DESCRIBE DETAIL dv)"), 1);
    /* Spark's commit names numDeletionVectorsRemoved only (the rows are in the result row). */
    CHECK_INT_EQ(scalar(&w, "SELECT CAST(operationMetrics['numDeletionVectorsRemoved'] AS INT) * "
                            "100 + CAST(operationMetrics['numRemovedFiles'] AS INT) + CASE WHEN "
                            "operationMetrics['numDeletionVectorRowsRemoved'] IS NULL THEN 0 ELSE "
                            "50 END FROM (DESCRIBE HISTORY dv) WHERE version = 2"),
                 102);
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM delta_log('dv') WHERE version = 2 AND action = "
                            "'remove' AND deletionVector IS NOT NULL AND NOT dataChange"),
                 1);
    CHECK_INT_EQ(scalar(&w,
                        "SELECT count(*) FROM delta_log('dv') WHERE version = 2 AND action = "
                        "'add' AND deletionVector IS NULL AND stats LIKE '%\"numRecords\":8,%'"),
                 1);
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM dv VERSION AS OF 1"), 8);
    /* Bins of one file each: only the file with a DV is rewritten. */
    CHECK(run(&w, "SET spark.databricks.delta.optimize.maxFileSize = 1"));
    CHECK(run(&w, "OPTIMIZE dv1"));
    CHECK_INT_EQ(scalar(&w, "SELECT CAST(operationMetrics['numRemovedFiles'] AS INT) * 10 + "
                            "CAST(operationMetrics['numAddedFiles'] AS INT) FROM "
                            "(DESCRIBE HISTORY dv1) WHERE version = 2"),
                 11);
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) * 1000 + sum(id) FROM dv1"), 8000 + 44);
    CHECK(run(&w, "OPTIMIZE dv1"));
    CHECK_INT_EQ(scalar(&w, "SELECT max(version) FROM (DESCRIBE HISTORY dv1)"), 2);
    wh_close(&w);
}

/*
 * OPTIMIZE changes no data: it commits under SnapshotIsolation, so appends that win the race
 * to a version never fail it (Spark: COMPACTION x INSERT cannot conflict), and no row is lost
 * or doubled. (The WHERE holds for every partition; it only gives each run a number.)
 */
TEST(test_concurrent_appends_do_not_fail_optimize) {
    wh w;
    CHECK(wh_open(&w));
    CHECK(run(&w, "CREATE TABLE k (id BIGINT, p STRING) USING DELTA PARTITIONED BY (p)"));
    for (int i = 0; i < 4; i++) {
        char sql[128];
        (void)snprintf(sql, sizeof(sql), "INSERT INTO k VALUES (%d, 'a'), (%d, 'b')", i, 50 + i);
        CHECK(run(&w, sql));
    }
    racer opt = {.head = "OPTIMIZE k WHERE p <> '", .tail = "'", .first = 0};
    racer app = {.head = "INSERT INTO k VALUES (", .tail = ", 'b')", .first = 1000};
    CHECK(deltalite_open(w.root.dir, NULL, &opt.db) == DELTALITE_OK);
    CHECK(deltalite_open(w.root.dir, NULL, &app.db) == DELTALITE_OK);
    pthread_t t1;
    pthread_t t2;
    CHECK(pthread_create(&t1, NULL, race, &opt) == 0);
    CHECK(pthread_create(&t2, NULL, race, &app) == 0);
    (void)pthread_join(t1, NULL);
    (void)pthread_join(t2, NULL);
    (void)deltalite_close(opt.db);
    (void)deltalite_close(app.db);
    if (opt.error[0] != '\0' || app.error[0] != '\0') {
        printf("  %s\n  %s\n", opt.error, app.error);
    }
    CHECK_INT_EQ(opt.n_ok, 12);
    CHECK_INT_EQ(app.n_ok, 12);
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM k"), 20);
    CHECK_INT_EQ(scalar(&w, "SELECT sum(id) FROM k"), 6 + 206 + (1000 + 1011) * 12 / 2);
    CHECK(run(&w, "OPTIMIZE k"));
    CHECK_INT_EQ(scalar(&w, "SELECT numFiles FROM (DESCRIBE DETAIL k)"), 2);
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM k"), 20);
    tl_table t;
    CHECK(table_open(&w, "k", &t));
    CHECK_LOG(&t);
    table_close(&t);
    wh_close(&w);
}

/* Writes the file dir/name with text and a modification time days in the past. */
static bool
write_old_file(const char *dir, const char *name, const char *text, int days) {
    char path[1024];
    int n = snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = n > 0 && (size_t)n < sizeof(path) ? fopen(path, "wb") : NULL;
    if (f == NULL) {
        return false;
    }
    bool ok = fputs(text, f) >= 0;
    ok = fclose(f) == 0 && ok;
    time_t then = time(NULL) - (time_t)days * 86400;
    struct timespec times[2] = {{.tv_sec = then}, {.tv_sec = then}};
    return ok && utimensat(AT_FDCWD, path, times, 0) == 0;
}

static bool
file_exists(const char *dir, const char *name) {
    char path[1024];
    int n = snprintf(path, sizeof(path), "%s/%s", dir, name);
    struct stat st;
    return n > 0 && (size_t)n < sizeof(path) && stat(path, &st) == 0;
}

/* VACUUM deletes files, so it is a write: a protocol whose writer features deltalite cannot
 * honour is refused before anything is deleted (VACUUM ran and deleted files). With only
 * vacuumProtocolCheck it runs. */
TEST(test_vacuum_refuses_a_table_whose_writer_features_are_unsupported) {
    wh w;
    CHECK(wh_open(&w));
    CHECK(run(&w, "CREATE TABLE v (id INT)"));
    CHECK(run(&w, "INSERT INTO v VALUES (1)"));
    char dir[512];
    (void)snprintf(dir, sizeof(dir), "%s/v", w.root.dir);
    CHECK(write_old_file(dir, "orphan-1.parquet", "x", 30));
    tl_table t;
    CHECK(table_open(&w, "v", &t));
    CHECK(tl_commit(&t, 2,
                    "{\"commitInfo\":{\"operation\":\"UPGRADE PROTOCOL\"}}\n"
                    "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,"
                    "\"readerFeatures\":[\"vacuumProtocolCheck\"],\"writerFeatures\":"
                    "[\"vacuumProtocolCheck\",\"generatedColumns\"]}}\n"));
    CHECK(deltalite_exec(w.db, "VACUUM v") == DELTALITE_ERROR_UNSUPPORTED);
    CHECK(strstr(deltalite_error_message(w.db), "generatedColumns") != NULL);
    CHECK(strstr(deltalite_error_hint(w.db), "write it with Spark") != NULL);
    CHECK(deltalite_exec(w.db, "VACUUM v DRY RUN") == DELTALITE_ERROR_UNSUPPORTED);
    CHECK(file_exists(dir, "orphan-1.parquet"));
    CHECK(tl_commit(&t, 3,
                    "{\"commitInfo\":{\"operation\":\"DROP FEATURE\"}}\n"
                    "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,"
                    "\"readerFeatures\":[\"vacuumProtocolCheck\"],\"writerFeatures\":"
                    "[\"vacuumProtocolCheck\"]}}\n"));
    CHECK(run(&w, "VACUUM v"));
    CHECK(!file_exists(dir, "orphan-1.parquet"));
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM v"), 1);
    table_close(&t);
    wh_close(&w);
}

/* Temporary files of writers killed before their commit (".<name>.<16 hex>.tmp", beside data
 * files and in _delta_log) are removed by VACUUM once older than the retention, like any file
 * no version refers to; they were never removed. Recent ones and other hidden files stay. */
TEST(test_vacuum_removes_stale_temporary_files_of_killed_writers) {
    wh w;
    CHECK(wh_open(&w));
    CHECK(run(&w, "CREATE TABLE k (id INT, p STRING) PARTITIONED BY (p)"));
    CHECK(run(&w, "INSERT INTO k VALUES (1, 'a')"));
    char dir[512];
    (void)snprintf(dir, sizeof(dir), "%s/k", w.root.dir);
    static const char *const stale[] = {
        "_delta_log/.00000000000000000002.json.0123456789abcdef.tmp",
        ".part-00000-x.snappy.parquet.fedcba9876543210.tmp",
        "p=a/.part-00001-y.snappy.parquet.00000000ffffffff.tmp"};
    for (size_t i = 0; i < DL_ARRAY_LEN(stale); i++) {
        CHECK(write_old_file(dir, stale[i], "partial", 30));
    }
    CHECK(write_old_file(dir, ".part-2.parquet.0123456789abcdef.tmp", "writing", 0));
    CHECK(write_old_file(dir, "_delta_log/.keep", "x", 30));
    CHECK(write_old_file(dir, ".part-3.parquet.0123456789ABCDEF.tmp", "not ours", 30));
    deltalite_result *r = NULL;
    CHECK_INT_EQ(deltalite_query(w.db, "VACUUM k DRY RUN", &r), DELTALITE_OK);
    int n_listed = 0;
    bool has_row = false;
    while (deltalite_result_next_row(r, &has_row) == DELTALITE_OK && has_row) {
        const char *path = NULL;
        CHECK_INT_EQ(deltalite_result_get_text(r, 0, &path, NULL), DELTALITE_OK);
        n_listed += strstr(path, ".tmp") != NULL ? 1 : 0;
    }
    deltalite_result_free(r);
    CHECK_INT_EQ(n_listed, 3);
    CHECK(run(&w, "VACUUM k"));
    for (size_t i = 0; i < DL_ARRAY_LEN(stale); i++) {
        CHECK(!file_exists(dir, stale[i]));
    }
    CHECK(file_exists(dir, ".part-2.parquet.0123456789abcdef.tmp"));
    CHECK(file_exists(dir, "_delta_log/.keep"));
    CHECK(file_exists(dir, ".part-3.parquet.0123456789ABCDEF.tmp"));
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM k"), 1);
    wh_close(&w);
}

/* The rows of a one-column query (at most cap, in out as copies); -1 when it fails. */
static int
text_rows(wh *w, const char *sql, char out[][512], int cap) {
    deltalite_result *r = NULL;
    if (deltalite_query(w->db, sql, &r) != DELTALITE_OK) {
        printf("  %s -> %s\n", sql, deltalite_error_message(w->db));
        return -1;
    }
    int n = 0;
    bool has_row = false;
    while (deltalite_result_next_row(r, &has_row) == DELTALITE_OK && has_row) {
        const char *text = NULL;
        if (n < cap && deltalite_result_get_text(r, 0, &text, NULL) == DELTALITE_OK) {
            (void)snprintf(out[n], 512, "%s", text);
        }
        n++;
    }
    deltalite_result_free(r);
    return n;
}

static void
pause_ms(long ms) {
    struct timespec ts = {.tv_sec = 0, .tv_nsec = ms * 1000000L};
    (void)nanosleep(&ts, NULL);
}

/* VACUUM LITE takes its candidates from the log's removes, not from listing the folder: an
 * orphan file only FULL finds stays; DRY RUN lists the removed file by its absolute path; the
 * next LITE starts after where the last one stopped (_delta_log/_last_vacuum_info), so it finds
 * nothing again. */
TEST(test_vacuum_lite_deletes_only_files_the_log_removed) {
    wh w;
    CHECK(wh_open(&w));
    CHECK(run(&w, "CREATE TABLE l (id INT)"));
    CHECK(run(&w, "INSERT INTO l VALUES (1)"));
    CHECK(run(&w, "INSERT INTO l VALUES (2)"));
    CHECK(run(&w, "DELETE FROM l WHERE id = 1"));
    CHECK(run(&w, "SET spark.databricks.delta.retentionDurationCheck.enabled = false"));
    char dir[512];
    (void)snprintf(dir, sizeof(dir), "%s/l", w.root.dir);
    CHECK(write_old_file(dir, "orphan.parquet", "x", 30));
    pause_ms(30);
    char rows[4][512];
    CHECK_INT_EQ(text_rows(&w, "VACUUM l RETAIN 0 HOURS LITE DRY RUN", rows, 4), 1);
    char removed[512];
    CHECK_INT_EQ(
        text_rows(&w, "SELECT path FROM delta_log('l') WHERE action = 'remove'", &removed, 1), 1);
    char want[1100];
    (void)snprintf(want, sizeof(want), "%s/%s", dir, removed);
    CHECK(strcmp(rows[0], want) == 0);
    CHECK(run(&w, "VACUUM l RETAIN 0 HOURS LITE"));
    CHECK(!file_exists(dir, removed));
    CHECK(file_exists(dir, "orphan.parquet"));
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM l"), 1);
    CHECK_INT_EQ(scalar(&w, "SELECT CAST(operationMetrics['numDeletedFiles'] AS INT) FROM "
                            "(DESCRIBE HISTORY l) WHERE operation = 'VACUUM END'"),
                 1);
    char info[600];
    (void)snprintf(info, sizeof(info), "%s/_delta_log/_last_vacuum_info", dir);
    FILE *f = fopen(info, "rb");
    CHECK(f != NULL);
    char text[128] = {0};
    if (f != NULL) {
        CHECK(fread(text, 1, sizeof(text) - 1, f) > 0);
        (void)fclose(f);
    }
    CHECK(strcmp(text, "{\"latestCommitVersionOutsideOfRetentionWindow\":3}") == 0);
    pause_ms(30);
    CHECK_INT_EQ(text_rows(&w, "VACUUM l RETAIN 0 HOURS LITE DRY RUN", rows, 4), 0);
    CHECK_INT_EQ(text_rows(&w, "VACUUM l RETAIN 0 HOURS FULL DRY RUN", rows, 4), 1);
    CHECK(strstr(rows[0], "orphan.parquet") != NULL);
    CHECK(run(&w, "SET spark.databricks.delta.vacuum.lite.enabled = true"));
    CHECK_INT_EQ(text_rows(&w, "VACUUM l RETAIN 0 HOURS DRY RUN", rows, 4), 0);
    wh_close(&w);
}

/* When the log's first commits were cleaned up and no VACUUM LITE recorded where it stopped,
 * LITE cannot see every removed file: DELTA_CANNOT_VACUUM_LITE, as Delta; FULL still runs. */
TEST(test_vacuum_lite_refuses_a_log_whose_start_was_cleaned_up) {
    wh w;
    CHECK(wh_open(&w));
    CHECK(run(&w, "CREATE TABLE c (id INT) TBLPROPERTIES ('delta.checkpointInterval' = '1')"));
    CHECK(run(&w, "INSERT INTO c VALUES (1)"));
    CHECK(run(&w, "INSERT INTO c VALUES (2)"));
    char log0[600];
    (void)snprintf(log0, sizeof(log0), "%s/c/_delta_log/00000000000000000000.json", w.root.dir);
    CHECK(remove(log0) == 0);
    CHECK(run(&w, "SET spark.databricks.delta.retentionDurationCheck.enabled = false"));
    CHECK(run(&w, "VACUUM c LITE")); /* nothing is older than 7 days: nothing to read */
    pause_ms(30);
    CHECK(deltalite_exec(w.db, "VACUUM c RETAIN 0 HOURS LITE") == DELTALITE_ERROR_UNSUPPORTED);
    CHECK(strstr(deltalite_error_message(w.db), "DELTA_CANNOT_VACUUM_LITE") != NULL);
    CHECK(run(&w, "VACUUM c RETAIN 0 HOURS FULL"));
    CHECK(deltalite_exec(w.db, "VACUUM c RETAIN 0 HOURS LITE DRY RUN") ==
          DELTALITE_ERROR_UNSUPPORTED);
    CHECK_INT_EQ(scalar(&w, "SELECT count(*) FROM c"), 2);
    wh_close(&w);
}

int
main(void) {
    RUN(test_every_statement_writes_a_log_the_checker_accepts);
    RUN(test_history_has_spark_operations_and_metrics);
    RUN(test_failed_statement_leaves_table_and_folder_unchanged);
    RUN(test_delete_matching_nothing_commits_nothing);
    RUN(test_insert_errors_name_the_column);
    RUN(test_delete_does_not_read_files_that_statistics_rule_out);
    RUN(test_partition_delete_is_metadata_only);
    RUN(test_merge_with_two_source_rows_for_one_target_row_fails);
    RUN(test_merge_and_subquery_delete_read_only_candidate_files);
    RUN(test_concurrent_blind_append_to_another_partition_does_not_conflict);
    RUN(test_concurrent_append_to_a_partition_a_merge_does_not_read_does_not_conflict);
    RUN(test_concurrent_append_to_another_partition_does_not_fail_dynamic_overwrite);
    RUN(test_optimize_returns_path_and_metrics_and_writes_a_valid_log);
    RUN(test_optimize_purges_deletion_vectors);
    RUN(test_concurrent_appends_do_not_fail_optimize);
    RUN(test_vacuum_refuses_a_table_whose_writer_features_are_unsupported);
    RUN(test_vacuum_removes_stale_temporary_files_of_killed_writers);
    RUN(test_vacuum_lite_deletes_only_files_the_log_removed);
    RUN(test_vacuum_lite_refuses_a_log_whose_start_was_cleaned_up);
    return harness_finish();
}
