/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Conflict detection, in one process: two transactions start from the same snapshot, the
 * first commits, and the second either rebases onto it (retrying at the next version) or fails
 * with the exception Spark's ConflictChecker raises for that pair — the matrix of Spark's
 * docs ("Concurrency control"): INSERT x INSERT never conflict; a read of the table against a
 * concurrent append conflicts under Serializable and not under WriteSerializable when the
 * append is blind; deletes against reads and against deletes conflict; protocol, metadata,
 * txn appIds and metadata domains conflict; compaction (no data change) ignores appends.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "test_delta_txn_util.h"

static const char *const parts_p[] = {"p"};

/* A table partitioned by p with files p=1/a.parquet and p=2/b.parquet (versions 0..2). */
static bool
setup(tl_table *t) {
    dl_error err;
    dl_delta_kv pv1[] = {{"p", "1"}};
    dl_delta_kv pv2[] = {{"p", "2"}};
    if (!tl_table_new(t) ||
        tw_create(t, TW_SCHEMA_ID_P, parts_p, 1, NULL, 0, NULL, &err) != DL_OK ||
        tw_append(t, "p=1/a.parquet", pv1, 1, 5, NULL, NULL, &err) != DL_OK ||
        tw_append(t, "p=2/b.parquet", pv2, 1, 5, NULL, NULL, &err) != DL_OK) {
        printf("  setup: %s\n", err.msg);
        return false;
    }
    return true;
}

static dl_status
stage_add(dl_delta_tx *tx, const char *path, const char *p, bool data_change, dl_error *err) {
    dl_delta_kv pv[] = {{"p", p}};
    dl_delta_add_file add = {.path = path,
                             .partition_values = pv,
                             .n_partition_values = 1,
                             .size = 10,
                             .modification_time = 1,
                             .data_change = data_change,
                             .stats = "{\"numRecords\":1}"};
    return dl_delta_tx_add(tx, &add, err);
}

/* Two transactions from the table's latest snapshot. */
typedef struct pair {
    dl_delta_snapshot *snap;
    dl_delta_tx *winner;
    dl_delta_tx *loser;
} pair;

static bool
pair_begin(tl_table *t, pair *p) {
    dl_error err;
    memset(p, 0, sizeof(*p));
    p->snap = tw_latest(t, &err);
    return p->snap != NULL &&
           dl_delta_tx_begin(t->table, p->snap, NULL, &p->winner, &err) == DL_OK &&
           dl_delta_tx_begin(t->table, p->snap, NULL, &p->loser, &err) == DL_OK;
}

static void
pair_end(pair *p) {
    dl_delta_tx_free(p->winner);
    dl_delta_tx_free(p->loser);
    dl_delta_snapshot_unref(p->snap);
}

TEST(test_concurrent_blind_appends_both_commit) {
    tl_table t;
    CHECK(setup(&t));
    pair p;
    CHECK(pair_begin(&t, &p));
    dl_error err;
    CHECK_OK(stage_add(p.winner, "p=1/c.parquet", "1", true, &err), &err);
    CHECK_OK(stage_add(p.loser, "p=1/d.parquet", "1", true, &err), &err);
    dl_delta_commit_result res;
    CHECK_OK(dl_delta_tx_commit(p.winner, &res, &err), &err);
    CHECK_INT_EQ(res.version, 3);
    CHECK_OK(dl_delta_tx_commit(p.loser, &res, &err), &err);
    CHECK_INT_EQ(res.version, 4);
    CHECK_INT_EQ(res.attempts, 2);
    CHECK(res.is_blind_append);
    pair_end(&p);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

/* The loser reads the whole table and rewrites a file; the winner blind-appends. */
static void
read_table_against_append(dl_delta_isolation level, dl_status want, dl_delta_conflict kind) {
    tl_table t;
    CHECK(setup(&t));
    pair p;
    CHECK(pair_begin(&t, &p));
    dl_error err;
    CHECK_OK(stage_add(p.winner, "p=1/c.parquet", "1", true, &err), &err);
    dl_delta_tx_set_isolation(p.loser, level);
    dl_delta_tx_set_operation(p.loser, DL_DELTA_OP_UPDATE);
    dl_delta_tx_read_whole_table(p.loser);
    CHECK_OK(dl_delta_tx_remove_snapshot_file(p.loser, tw_file_named(p.snap, "p=2/b.parquet"), true,
                                              &err),
             &err);
    CHECK_OK(stage_add(p.loser, "p=2/b2.parquet", "2", true, &err), &err);
    CHECK_OK(dl_delta_tx_commit(p.winner, NULL, &err), &err);
    CHECK_STATUS(dl_delta_tx_commit(p.loser, NULL, &err), want, &err);
    CHECK_INT_EQ(dl_delta_tx_conflict(p.loser), kind);
    if (want == DL_ERR_CONFLICT) {
        CHECK_ERR_CONTAINS(&err, "ConcurrentAppendException");
        CHECK_ERR_CONTAINS(&err, "Files were added to partition [p=1] by a concurrent update");
        CHECK_ERR_CONTAINS(&err, "version 3, operation WRITE");
        CHECK_INT_EQ(err.version, 3);
    }
    pair_end(&p);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_serializable_read_of_table_conflicts_with_concurrent_append) {
    read_table_against_append(DL_DELTA_ISOLATION_SERIALIZABLE, DL_ERR_CONFLICT,
                              DL_DELTA_CONFLICT_CONCURRENT_APPEND);
}

TEST(test_write_serializable_ignores_concurrent_blind_append) {
    read_table_against_append(DL_DELTA_ISOLATION_WRITE_SERIALIZABLE, DL_OK, DL_DELTA_CONFLICT_NONE);
}

/* Partition reads: an append to another partition passes, one to the same partition fails. */
TEST(test_partition_read_conflicts_only_with_appends_to_that_partition) {
    tl_table t;
    CHECK(setup(&t));
    dl_error err;
    for (int same = 0; same < 2; same++) {
        pair p;
        CHECK(pair_begin(&t, &p));
        char path[64];
        (void)snprintf(path, sizeof(path), "p=%s/new%d.parquet", same ? "2" : "1", same);
        CHECK_OK(stage_add(p.winner, path, same ? "2" : "1", true, &err), &err);
        dl_delta_kv part[] = {{"p", "2"}};
        CHECK_OK(dl_delta_tx_read_partition(p.loser, part, 1, &err), &err);
        char mine[64];
        (void)snprintf(mine, sizeof(mine), "p=2/mine%d.parquet", same);
        CHECK_OK(stage_add(p.loser, mine, "2", true, &err), &err);
        CHECK_OK(dl_delta_tx_commit(p.winner, NULL, &err), &err);
        dl_status s = dl_delta_tx_commit(p.loser, NULL, &err);
        if (same) {
            CHECK_STATUS(s, DL_ERR_CONFLICT, &err);
            CHECK_INT_EQ(dl_delta_tx_conflict(p.loser), DL_DELTA_CONFLICT_CONCURRENT_APPEND);
            CHECK_ERR_CONTAINS(&err, "partition [p=2]");
        } else {
            CHECK_OK(s, &err);
        }
        pair_end(&p);
    }
    CHECK_LOG(&t);
    tl_table_free(&t);
}

static bool
only_p1(void *ctx, const dl_delta_kv *pv, int32_t n) {
    int *calls = ctx;
    (*calls)++;
    return n == 1 && pv[0].value != NULL && strcmp(pv[0].value, "1") == 0;
}

TEST(test_read_predicate_decides_which_concurrent_appends_conflict) {
    tl_table t;
    CHECK(setup(&t));
    dl_error err;
    int calls = 0;
    pair p;
    CHECK(pair_begin(&t, &p));
    CHECK_OK(stage_add(p.winner, "p=2/x.parquet", "2", true, &err), &err);
    CHECK_OK(dl_delta_tx_read_predicate(p.loser, only_p1, &calls, &err), &err);
    CHECK_OK(stage_add(p.loser, "p=1/y.parquet", "1", true, &err), &err);
    CHECK_OK(dl_delta_tx_commit(p.winner, NULL, &err), &err);
    CHECK_OK(dl_delta_tx_commit(p.loser, NULL, &err), &err);
    CHECK_INT_EQ(calls, 1);
    pair_end(&p);
    CHECK(pair_begin(&t, &p));
    CHECK_OK(stage_add(p.winner, "p=1/z.parquet", "1", true, &err), &err);
    CHECK_OK(dl_delta_tx_read_predicate(p.loser, only_p1, &calls, &err), &err);
    CHECK_OK(stage_add(p.loser, "p=1/w.parquet", "1", true, &err), &err);
    CHECK_OK(dl_delta_tx_commit(p.winner, NULL, &err), &err);
    CHECK_STATUS(dl_delta_tx_commit(p.loser, NULL, &err), DL_ERR_CONFLICT, &err);
    CHECK_INT_EQ(dl_delta_tx_conflict(p.loser), DL_DELTA_CONFLICT_CONCURRENT_APPEND);
    pair_end(&p);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_delete_of_a_file_read_is_concurrent_delete_read) {
    tl_table t;
    CHECK(setup(&t));
    pair p;
    CHECK(pair_begin(&t, &p));
    dl_error err;
    const dl_delta_file *a = tw_file_named(p.snap, "p=1/a.parquet");
    CHECK_OK(dl_delta_tx_remove_snapshot_file(p.winner, a, true, &err), &err);
    CHECK_OK(dl_delta_tx_read_file(p.loser, "p=1/a.parquet", &err), &err);
    CHECK_OK(stage_add(p.loser, "p=1/derived.parquet", "1", true, &err), &err);
    CHECK_OK(dl_delta_tx_commit(p.winner, NULL, &err), &err);
    CHECK_STATUS(dl_delta_tx_commit(p.loser, NULL, &err), DL_ERR_CONFLICT, &err);
    CHECK_INT_EQ(dl_delta_tx_conflict(p.loser), DL_DELTA_CONFLICT_DELETE_READ);
    CHECK_ERR_CONTAINS(&err, "ConcurrentDeleteReadException");
    CHECK_ERR_CONTAINS(&err, "p=1/a.parquet");
    pair_end(&p);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_delete_of_a_file_also_deleted_is_concurrent_delete_delete) {
    tl_table t;
    CHECK(setup(&t));
    pair p;
    CHECK(pair_begin(&t, &p));
    dl_error err;
    dl_delta_remove_file rm = {.path = "p=1/a.parquet", .data_change = true};
    CHECK_OK(dl_delta_tx_remove(p.winner, &rm, &err), &err);
    CHECK_OK(dl_delta_tx_remove(p.loser, &rm, &err), &err);
    CHECK_OK(dl_delta_tx_commit(p.winner, NULL, &err), &err);
    CHECK_STATUS(dl_delta_tx_commit(p.loser, NULL, &err), DL_ERR_CONFLICT, &err);
    CHECK_INT_EQ(dl_delta_tx_conflict(p.loser), DL_DELTA_CONFLICT_DELETE_DELETE);
    CHECK_ERR_CONTAINS(&err, "ConcurrentDeleteDeleteException");
    pair_end(&p);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_whole_table_read_conflicts_with_any_concurrent_delete) {
    tl_table t;
    CHECK(setup(&t));
    pair p;
    CHECK(pair_begin(&t, &p));
    dl_error err;
    CHECK_OK(dl_delta_tx_remove_snapshot_file(p.winner, tw_file_named(p.snap, "p=2/b.parquet"),
                                              true, &err),
             &err);
    dl_delta_tx_read_whole_table(p.loser);
    dl_delta_tx_set_isolation(p.loser, DL_DELTA_ISOLATION_WRITE_SERIALIZABLE);
    CHECK_OK(stage_add(p.loser, "p=1/agg.parquet", "1", true, &err), &err);
    CHECK_OK(dl_delta_tx_commit(p.winner, NULL, &err), &err);
    CHECK_STATUS(dl_delta_tx_commit(p.loser, NULL, &err), DL_ERR_CONFLICT, &err);
    CHECK_INT_EQ(dl_delta_tx_conflict(p.loser), DL_DELTA_CONFLICT_DELETE_READ);
    pair_end(&p);
    tl_table_free(&t);
}

TEST(test_compaction_without_data_change_ignores_concurrent_appends) {
    tl_table t;
    CHECK(setup(&t));
    pair p;
    CHECK(pair_begin(&t, &p));
    dl_error err;
    CHECK_OK(stage_add(p.winner, "p=1/c.parquet", "1", true, &err), &err);
    dl_delta_tx_set_operation(p.loser, DL_DELTA_OP_OPTIMIZE);
    dl_delta_tx_read_whole_table(p.loser);
    CHECK_OK(dl_delta_tx_remove_snapshot_file(p.loser, tw_file_named(p.snap, "p=1/a.parquet"),
                                              false, &err),
             &err);
    CHECK_OK(stage_add(p.loser, "p=1/compacted.parquet", "1", false, &err), &err);
    CHECK_OK(dl_delta_tx_commit(p.winner, NULL, &err), &err);
    dl_delta_commit_result res;
    CHECK_OK(dl_delta_tx_commit(p.loser, &res, &err), &err);
    CHECK_INT_EQ(res.isolation, DL_DELTA_ISOLATION_SNAPSHOT);
    pair_end(&p);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

/* A compaction (dataChange false, SnapshotIsolation) whose input file a concurrent DELETE
 * removed must fail: its new file would bring the deleted rows back. */
TEST(test_compaction_fails_when_its_input_file_is_deleted_concurrently) {
    tl_table t;
    CHECK(setup(&t));
    pair p;
    CHECK(pair_begin(&t, &p));
    dl_error err;
    const dl_delta_file *a = tw_file_named(p.snap, "p=1/a.parquet");
    CHECK_OK(dl_delta_tx_remove_snapshot_file(p.winner, a, true, &err), &err);
    dl_delta_tx_set_operation(p.loser, DL_DELTA_OP_OPTIMIZE);
    CHECK_OK(dl_delta_tx_remove_snapshot_file(p.loser, a, false, &err), &err);
    CHECK_OK(stage_add(p.loser, "p=1/compacted.parquet", "1", false, &err), &err);
    CHECK_OK(dl_delta_tx_commit(p.winner, NULL, &err), &err);
    CHECK_STATUS(dl_delta_tx_commit(p.loser, NULL, &err), DL_ERR_CONFLICT, &err);
    CHECK_INT_EQ(dl_delta_tx_conflict(p.loser), DL_DELTA_CONFLICT_DELETE_READ);
    CHECK_ERR_CONTAINS(&err, "ConcurrentDeleteReadException");
    pair_end(&p);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_concurrent_metadata_change_fails_even_a_blind_append) {
    tl_table t;
    CHECK(setup(&t));
    pair p;
    CHECK(pair_begin(&t, &p));
    dl_error err;
    dl_delta_metadata md = *dl_delta_snapshot_metadata(p.snap);
    dl_delta_kv conf[] = {{"k", "v"}};
    md.configuration = conf;
    md.n_configuration = 1;
    CHECK_OK(dl_delta_tx_set_metadata(p.winner, &md, &err), &err);
    CHECK_OK(stage_add(p.loser, "p=1/c.parquet", "1", true, &err), &err);
    CHECK_OK(dl_delta_tx_commit(p.winner, NULL, &err), &err);
    CHECK_STATUS(dl_delta_tx_commit(p.loser, NULL, &err), DL_ERR_CONFLICT, &err);
    CHECK_INT_EQ(dl_delta_tx_conflict(p.loser), DL_DELTA_CONFLICT_METADATA_CHANGED);
    CHECK_ERR_CONTAINS(&err, "MetadataChangedException");
    pair_end(&p);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_concurrent_protocol_change_is_protocol_changed) {
    tl_table t;
    CHECK(setup(&t));
    pair p;
    CHECK(pair_begin(&t, &p));
    dl_error err;
    dl_delta_protocol proto = {.min_reader_version = 1, .min_writer_version = 3};
    CHECK_OK(dl_delta_tx_set_protocol(p.winner, &proto, &err), &err);
    dl_delta_tx_set_operation(p.winner, DL_DELTA_OP_UPGRADE_PROTOCOL);
    CHECK_OK(stage_add(p.loser, "p=1/c.parquet", "1", true, &err), &err);
    CHECK_OK(dl_delta_tx_commit(p.winner, NULL, &err), &err);
    CHECK_STATUS(dl_delta_tx_commit(p.loser, NULL, &err), DL_ERR_CONFLICT, &err);
    CHECK_INT_EQ(dl_delta_tx_conflict(p.loser), DL_DELTA_CONFLICT_PROTOCOL_CHANGED);
    CHECK_ERR_CONTAINS(&err, "operation UPGRADE PROTOCOL");
    pair_end(&p);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_same_app_id_is_concurrent_transaction) {
    tl_table t;
    CHECK(setup(&t));
    dl_error err;
    pair p;
    CHECK(pair_begin(&t, &p));
    int64_t v;
    bool found;
    CHECK_OK(dl_delta_tx_app_version(p.loser, "stream", &v, &found, &err), &err);
    CHECK_OK(dl_delta_tx_set_app_version(p.winner, "stream", 1, &err), &err);
    CHECK_OK(dl_delta_tx_set_app_version(p.loser, "stream", 1, &err), &err);
    CHECK_OK(stage_add(p.loser, "p=1/c.parquet", "1", true, &err), &err);
    CHECK_OK(dl_delta_tx_commit(p.winner, NULL, &err), &err);
    CHECK_STATUS(dl_delta_tx_commit(p.loser, NULL, &err), DL_ERR_CONFLICT, &err);
    CHECK_INT_EQ(dl_delta_tx_conflict(p.loser), DL_DELTA_CONFLICT_CONCURRENT_TRANSACTION);
    CHECK_ERR_CONTAINS(&err, "'stream'");
    pair_end(&p);
    /* Another appId does not conflict. */
    CHECK(pair_begin(&t, &p));
    CHECK_OK(dl_delta_tx_set_app_version(p.winner, "other", 1, &err), &err);
    CHECK_OK(dl_delta_tx_set_app_version(p.loser, "stream", 2, &err), &err);
    CHECK_OK(dl_delta_tx_commit(p.winner, NULL, &err), &err);
    CHECK_OK(dl_delta_tx_commit(p.loser, NULL, &err), &err);
    pair_end(&p);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_same_metadata_domain_is_concurrent_transaction) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    dl_delta_kv conf[] = {{"delta.feature.domainMetadata", "supported"}};
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, conf, 1, NULL, &err), &err);
    pair p;
    CHECK(pair_begin(&t, &p));
    CHECK_OK(dl_delta_tx_set_domain(p.winner, "app.x", "{}", false, &err), &err);
    CHECK_OK(dl_delta_tx_set_domain(p.loser, "app.x", "{\"v\":2}", false, &err), &err);
    CHECK_OK(dl_delta_tx_commit(p.winner, NULL, &err), &err);
    CHECK_STATUS(dl_delta_tx_commit(p.loser, NULL, &err), DL_ERR_CONFLICT, &err);
    CHECK_INT_EQ(dl_delta_tx_conflict(p.loser), DL_DELTA_CONFLICT_CONCURRENT_TRANSACTION);
    CHECK_ERR_CONTAINS(&err, "A conflicting metadata domain app.x is added");
    pair_end(&p);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_rebase_over_several_winners_keeps_in_commit_timestamps_increasing) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    dl_delta_kv conf[] = {{"delta.enableInCommitTimestamps", "true"}};
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, conf, 1, NULL, &err), &err);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    dl_delta_tx *late = NULL;
    dl_delta_tx_options past = {.now_ms = 5}; /* a clock far behind the winners' */
    CHECK_OK(dl_delta_tx_begin(t.table, snap, &past, &late, &err), &err);
    CHECK_OK(dl_delta_tx_add(late, &(dl_delta_add_file){.path = "late.parquet", .size = 1}, &err),
             &err);
    for (int i = 0; i < 3; i++) {
        char path[32];
        (void)snprintf(path, sizeof(path), "w%d.parquet", i);
        CHECK_OK(tw_append(&t, path, NULL, 0, 1, NULL, NULL, &err), &err);
    }
    dl_delta_commit_result res;
    CHECK_OK(dl_delta_tx_commit(late, &res, &err), &err);
    CHECK_INT_EQ(res.version, 4);
    CHECK_INT_EQ(res.attempts, 2);
    dl_delta_tx_free(late);
    dl_delta_snapshot_unref(snap);
    CHECK_LOG(&t); /* checks inCommitTimestamp strictly increases */
    tl_table_free(&t);
}

TEST(test_too_many_lost_attempts_is_a_conflict_naming_the_attempts) {
    tl_table t;
    CHECK(setup(&t));
    dl_error err;
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    dl_delta_tx *tx = NULL;
    dl_delta_tx_options opts = {.max_attempts = 1};
    CHECK_OK(dl_delta_tx_begin(t.table, snap, &opts, &tx, &err), &err);
    CHECK_OK(stage_add(tx, "p=1/late.parquet", "1", true, &err), &err);
    CHECK_OK(tw_append(&t, "p=1/win.parquet", (dl_delta_kv[]){{"p", "1"}}, 1, 1, NULL, NULL, &err),
             &err);
    CHECK_STATUS(dl_delta_tx_commit(tx, NULL, &err), DL_ERR_CONFLICT, &err);
    CHECK_INT_EQ(dl_delta_tx_conflict(tx), DL_DELTA_CONFLICT_TOO_MANY_ATTEMPTS);
    CHECK_ERR_CONTAINS(&err, "gave up after 1 commit attempts");
    dl_delta_tx_free(tx);
    dl_delta_snapshot_unref(snap);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

int
main(void) {
    RUN(test_concurrent_blind_appends_both_commit);
    RUN(test_serializable_read_of_table_conflicts_with_concurrent_append);
    RUN(test_write_serializable_ignores_concurrent_blind_append);
    RUN(test_partition_read_conflicts_only_with_appends_to_that_partition);
    RUN(test_read_predicate_decides_which_concurrent_appends_conflict);
    RUN(test_delete_of_a_file_read_is_concurrent_delete_read);
    RUN(test_delete_of_a_file_also_deleted_is_concurrent_delete_delete);
    RUN(test_whole_table_read_conflicts_with_any_concurrent_delete);
    RUN(test_compaction_without_data_change_ignores_concurrent_appends);
    RUN(test_compaction_fails_when_its_input_file_is_deleted_concurrently);
    RUN(test_concurrent_metadata_change_fails_even_a_blind_append);
    RUN(test_concurrent_protocol_change_is_protocol_changed);
    RUN(test_same_app_id_is_concurrent_transaction);
    RUN(test_same_metadata_domain_is_concurrent_transaction);
    RUN(test_rebase_over_several_winners_keeps_in_commit_timestamps_increasing);
    RUN(test_too_many_lost_attempts_is_a_conflict_naming_the_attempts);
    return harness_finish();
}
