/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Row tracking on write (PROTOCOL.md "Writer Requirements for Row Tracking", delta_rowtrack.c):
 * each commit numbers the rows of its new files from the delta.rowTracking domain's
 * rowIdHighWaterMark and records the new mark in the same commit; a writer that lost its
 * version to a concurrent append numbers its files again after the winner's rows; enabling
 * row tracking on a table with files backfills their ids in that commit; the materialized
 * column names are assigned as Spark does.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "test_delta_txn_util.h"

static const char *const parts_p[] = {"p"};
static const dl_delta_kv rt_on[] = {{"delta.enableRowTracking", "true"}};

static dl_status
stage_rows(dl_delta_tx *tx, const char *path, const char *stats, dl_error *err) {
    dl_delta_kv pv[] = {{"p", "1"}};
    dl_delta_add_file add = {.path = path,
                             .partition_values = pv,
                             .n_partition_values = 1,
                             .size = 10,
                             .modification_time = 1,
                             .data_change = true,
                             .stats = stats};
    return dl_delta_tx_add(tx, &add, err);
}

/* The base row id and default commit version of path in the latest snapshot ({-2, -2} when
 * the file is not live). */
static void
ids_of(tl_table *t, const char *path, int64_t out[2]) {
    dl_error err;
    dl_delta_snapshot *snap = tw_latest(t, &err);
    const dl_delta_file *f = snap != NULL ? tw_file_named(snap, path) : NULL;
    out[0] = f != NULL ? f->base_row_id : -2;
    out[1] = f != NULL ? f->default_row_commit_version : -2;
    dl_delta_snapshot_unref(snap);
}

/* The latest snapshot's delta.rowTracking configuration, copied into buf ("" when none). */
static const char *
hwm_config(tl_table *t, char *buf, size_t cap) {
    dl_error err;
    dl_delta_snapshot *snap = tw_latest(t, &err);
    const char *conf =
        snap != NULL ? dl_delta_snapshot_domain_config(snap, "delta.rowTracking") : NULL;
    (void)snprintf(buf, cap, "%s", conf != NULL ? conf : "");
    dl_delta_snapshot_unref(snap);
    return buf;
}

/* A table partitioned by p (configuration conf) with one file p=1/a.parquet of rows rows. */
static bool
table_with_a(tl_table *t, const dl_delta_kv *conf, int32_t n_conf, int64_t rows) {
    dl_error err;
    dl_delta_kv pv[] = {{"p", "1"}};
    if (!tl_table_new(t) ||
        tw_create(t, TW_SCHEMA_ID_P, parts_p, 1, conf, n_conf, NULL, &err) != DL_OK ||
        tw_append(t, "p=1/a.parquet", pv, 1, rows, NULL, NULL, &err) != DL_OK) {
        printf("  setup: %s\n", err.msg);
        return false;
    }
    return true;
}

TEST(test_appends_number_rows_from_the_high_water_mark) {
    tl_table t;
    dl_error err;
    char buf[128];
    dl_delta_kv pv[] = {{"p", "1"}};
    CHECK(table_with_a(&t, rt_on, 1, 5));
    CHECK_OK(tw_append(&t, "p=1/b.parquet", pv, 1, 3, NULL, NULL, &err), &err);
    int64_t a[2], b[2];
    ids_of(&t, "p=1/a.parquet", a);
    ids_of(&t, "p=1/b.parquet", b);
    CHECK_INT_EQ(a[0], 0);
    CHECK_INT_EQ(a[1], 1);
    CHECK_INT_EQ(b[0], 5);
    CHECK_INT_EQ(b[1], 2);
    CHECK_STR_EQ(hwm_config(&t, buf, sizeof(buf)),
                 "{\"rowIdHighWaterMark\":7,\"domainName\":\"delta.rowTracking\"}");
    CHECK_INT_EQ(tw_count_actions(&t, 2, "domainMetadata"), 1);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    const dl_delta_metadata *md = dl_delta_snapshot_metadata(snap);
    const char *id_col =
        dl_delta_metadata_config(md, "delta.rowTracking.materializedRowIdColumnName");
    const char *v_col =
        dl_delta_metadata_config(md, "delta.rowTracking.materializedRowCommitVersionColumnName");
    CHECK(id_col != NULL && strncmp(id_col, "_row-id-col-", 12) == 0 && strlen(id_col) == 48);
    CHECK(v_col != NULL && strncmp(v_col, "_row-commit-version-col-", 24) == 0);
    CHECK(dl_delta_protocol_has_feature(dl_delta_snapshot_protocol(snap),
                                        DL_DELTA_FEATURE_ROW_TRACKING));
    CHECK(dl_delta_protocol_has_feature(dl_delta_snapshot_protocol(snap),
                                        DL_DELTA_FEATURE_DOMAIN_METADATA));
    dl_delta_snapshot_unref(snap);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_concurrent_append_retries_with_fresh_row_ids) {
    tl_table t;
    dl_error err;
    char buf[128];
    CHECK(table_with_a(&t, rt_on, 1, 5));
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    dl_delta_tx *winner = NULL;
    dl_delta_tx *loser = NULL;
    CHECK_OK(dl_delta_tx_begin(t.table, snap, NULL, &winner, &err), &err);
    CHECK_OK(dl_delta_tx_begin(t.table, snap, NULL, &loser, &err), &err);
    CHECK_OK(stage_rows(winner, "p=1/w.parquet", "{\"numRecords\":3}", &err), &err);
    CHECK_OK(stage_rows(loser, "p=1/l.parquet", "{\"numRecords\":2}", &err), &err);
    dl_delta_commit_result res;
    CHECK_OK(dl_delta_tx_commit(winner, &res, &err), &err);
    CHECK_INT_EQ(res.version, 2);
    CHECK_OK(dl_delta_tx_commit(loser, &res, &err), &err);
    CHECK_INT_EQ(res.version, 3);
    CHECK_INT_EQ(res.attempts, 2);
    dl_delta_tx_free(winner);
    dl_delta_tx_free(loser);
    dl_delta_snapshot_unref(snap);
    int64_t w[2], l[2];
    ids_of(&t, "p=1/w.parquet", w);
    ids_of(&t, "p=1/l.parquet", l);
    CHECK_INT_EQ(w[0], 5);
    CHECK_INT_EQ(w[1], 2);
    CHECK_INT_EQ(l[0], 8);
    CHECK_INT_EQ(l[1], 3);
    CHECK_STR_EQ(hwm_config(&t, buf, sizeof(buf)),
                 "{\"rowIdHighWaterMark\":9,\"domainName\":\"delta.rowTracking\"}");
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_enabling_on_a_table_with_files_backfills_their_ids) {
    tl_table t;
    dl_error err;
    char buf[128];
    dl_delta_kv pv[] = {{"p", "1"}};
    CHECK(table_with_a(&t, NULL, 0, 5));
    CHECK_OK(tw_append(&t, "p=1/b.parquet", pv, 1, 3, NULL, NULL, &err), &err);
    int64_t a[2];
    ids_of(&t, "p=1/a.parquet", a);
    CHECK_INT_EQ(a[0], -1);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    dl_delta_tx *tx = NULL;
    CHECK_OK(dl_delta_tx_begin(t.table, snap, NULL, &tx, &err), &err);
    dl_delta_metadata md = *dl_delta_snapshot_metadata(snap);
    dl_delta_kv conf[] = {{"delta.enableRowTracking", "true"}};
    md.configuration = conf;
    md.n_configuration = 1;
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_SET_TBLPROPERTIES);
    CHECK_OK(dl_delta_tx_set_metadata(tx, &md, &err), &err);
    dl_delta_commit_result res;
    CHECK_OK(dl_delta_tx_commit(tx, &res, &err), &err);
    dl_delta_tx_free(tx);
    dl_delta_snapshot_unref(snap);
    CHECK_INT_EQ(res.version, 3);
    CHECK_INT_EQ(tw_count_actions(&t, 3, "add"), 2);
    CHECK_INT_EQ(tw_count_actions(&t, 3, "remove"), 0);
    int64_t b[2];
    ids_of(&t, "p=1/a.parquet", a);
    ids_of(&t, "p=1/b.parquet", b);
    CHECK(a[0] >= 0 && b[0] >= 0 && a[0] != b[0]);
    CHECK(a[0] == 0 ? b[0] == 5 : (b[0] == 0 && a[0] == 3));
    CHECK_INT_EQ(a[1], 3);
    CHECK_INT_EQ(b[1], 3);
    CHECK_STR_EQ(hwm_config(&t, buf, sizeof(buf)),
                 "{\"rowIdHighWaterMark\":7,\"domainName\":\"delta.rowTracking\"}");
    CHECK_OK(tw_append(&t, "p=1/c.parquet", pv, 1, 2, NULL, NULL, &err), &err);
    int64_t c[2];
    ids_of(&t, "p=1/c.parquet", c);
    CHECK_INT_EQ(c[0], 8);
    CHECK_INT_EQ(c[1], 4);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_prepare_enable_upgrades_then_backfills_as_spark) {
    tl_table t;
    dl_error err;
    char buf[128];
    CHECK(table_with_a(&t, NULL, 0, 5));
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    dl_delta_snapshot *latest = NULL;
    CHECK_OK(dl_delta_rt_prepare_enable(t.table, snap, &latest, &err), &err);
    dl_delta_snapshot_unref(snap);
    CHECK(latest != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_version(latest), 3);
    CHECK(dl_delta_protocol_has_feature(dl_delta_snapshot_protocol(latest),
                                        DL_DELTA_FEATURE_ROW_TRACKING));
    CHECK(dl_delta_metadata_config(dl_delta_snapshot_metadata(latest), "delta.enableRowTracking") ==
          NULL);
    dl_delta_snapshot *again = NULL;
    CHECK_OK(dl_delta_rt_prepare_enable(t.table, latest, &again, &err), &err);
    CHECK(again == NULL);
    dl_delta_snapshot_unref(latest);
    CHECK_INT_EQ(tw_count_actions(&t, 2, "protocol"), 1);
    CHECK_INT_EQ(tw_count_actions(&t, 3, "add"), 1);
    int64_t a[2];
    ids_of(&t, "p=1/a.parquet", a);
    CHECK_INT_EQ(a[0], 0);
    CHECK_INT_EQ(a[1], 3);
    CHECK_STR_EQ(hwm_config(&t, buf, sizeof(buf)),
                 "{\"rowIdHighWaterMark\":4,\"domainName\":\"delta.rowTracking\"}");
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_add_without_num_records_is_refused) {
    tl_table t;
    dl_error err;
    CHECK(tl_table_new(&t));
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, parts_p, 1, rt_on, 1, NULL, &err), &err);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    dl_delta_tx *tx = NULL;
    CHECK_OK(dl_delta_tx_begin(t.table, snap, NULL, &tx, &err), &err);
    CHECK_OK(stage_rows(tx, "p=1/x.parquet", NULL, &err), &err);
    CHECK_STATUS(dl_delta_tx_commit(tx, NULL, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "needs numRecords");
    dl_delta_tx_free(tx);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

int
main(void) {
    RUN(test_appends_number_rows_from_the_high_water_mark);
    RUN(test_concurrent_append_retries_with_fresh_row_ids);
    RUN(test_enabling_on_a_table_with_files_backfills_their_ids);
    RUN(test_prepare_enable_upgrades_then_backfills_as_spark);
    RUN(test_add_without_num_records_is_refused);
    return harness_finish();
}
