/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Checkpoints and expired log cleanup: checkpoints written after commits at the interval and
 * on demand, in Spark's Parquet layout (checked column by column by the protocol checker),
 * with stats as JSON and as structs, expired tombstones dropped, _last_checkpoint kept
 * pointing at the newest; a failing checkpoint never fails its commit; cleanup deletes only
 * below the newest checkpoint older than the retention and leaves every version inside the
 * window reconstructible. Reading a table back through a Parquet checkpoint needs the read
 * side's checkpoint reader: until it lands those reads are UNSUPPORTED, and the tests accept
 * exactly that (dl_delta_can_read_parquet_checkpoints says which world they run in).
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "delta/delta_int.h"
#include "harness.h"
#include "parquet/pq_reader.h"
#include "test_delta_txn_util.h"

#define DAY_MS ((int64_t)86400000)

static const char *const parts_p[] = {"p"};

static int64_t
now_ms(void) {
    struct timespec ts;
    (void)clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool
log_file_exists(tl_table *t, const char *name) {
    char p[512];
    struct stat st;
    (void)snprintf(p, sizeof(p), "%s/_delta_log/%s", t->dir, name);
    return stat(p, &st) == 0;
}

static bool
commit_exists(tl_table *t, int64_t v) {
    char name[64];
    (void)snprintf(name, sizeof(name), "%020lld.json", (long long)v);
    return log_file_exists(t, name);
}

static bool
checkpoint_exists(tl_table *t, int64_t v) {
    char name[64];
    (void)snprintf(name, sizeof(name), "%020lld.checkpoint.parquet", (long long)v);
    return log_file_exists(t, name);
}

static bool
set_commit_mtime(tl_table *t, int64_t v, int64_t ms) {
    char name[64];
    (void)snprintf(name, sizeof(name), "%020lld.json", (long long)v);
    return tl_set_mtime(t, name, ms);
}

/* Appends files f<from>..f<to-1>, one commit each. */
static dl_status
append_range(tl_table *t, int from, int to, const dl_delta_kv *pv, int32_t n_pv,
             dl_delta_commit_result *last, dl_error *err) {
    for (int i = from; i < to; i++) {
        char path[64];
        (void)snprintf(path, sizeof(path), "f%03d.parquet", i);
        DL_TRY(tw_append(t, path, pv, n_pv, i + 1, NULL, last, err));
    }
    return DL_OK;
}

/* ---- checkpoints ----------------------------------------------------------------------- */

TEST(test_commit_at_interval_writes_checkpoint_and_last_checkpoint) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    dl_delta_kv pv[] = {{"p", "a"}};
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, parts_p, 1, NULL, 0, NULL, &err), &err);
    dl_delta_commit_result res;
    CHECK_OK(append_range(&t, 1, 10, pv, 1, &res, &err), &err);
    CHECK(!res.has_checkpoint);
    CHECK(!checkpoint_exists(&t, 9));
    CHECK_OK(append_range(&t, 10, 11, pv, 1, &res, &err), &err);
    CHECK_INT_EQ(res.version, 10);
    CHECK(res.has_checkpoint);
    CHECK_INT_EQ(res.post_commit_error.code, DL_OK);
    CHECK(checkpoint_exists(&t, 10));
    char text[8192];
    CHECK(tw_read_log_file(&t, "_last_checkpoint", text, sizeof(text)));
    CHECK(strncmp(text, "{\"version\":10,\"size\":12,", 24) == 0); /* protocol, metaData, 10 adds */
    CHECK(strstr(text, "\"numOfAddFiles\":10") != NULL);
    CHECK(strstr(text, "\"checkpointSchema\":{\"type\":\"struct\"") != NULL);
    CHECK_LOG(&t);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_version(snap), 10);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 10);
    CHECK_INT_EQ(dl_delta_snapshot_checkpoint_version(snap),
                 dl_delta_can_read_parquet_checkpoints() ? 10 : -1);
    /* Read through the checkpoint, every file keeps its path, size, partition and stats. */
    dl_delta_stats_reader rd;
    dl_delta_stats_reader_init(&rd, NULL);
    for (size_t i = 0; i < dl_delta_snapshot_file_count(snap); i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(snap, i);
        int k = -1;
        CHECK(sscanf(f->path.ptr, "f%03d.parquet", &k) == 1 && k >= 1 && k <= 10);
        CHECK_INT_EQ(f->size, 100 + k + 1);
        CHECK(f->partition != NULL && dl_str_eq_cstr(f->partition->values[0].u.str, "a"));
        dl_delta_stats st;
        bool has_stats = false;
        CHECK_OK(dl_delta_file_stats(snap, f, &rd, &st, &has_stats, &err), &err);
        CHECK(has_stats && st.has_num_records);
        CHECK_INT_EQ(st.num_records, k + 1);
    }
    dl_delta_stats_reader_destroy(&rd);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

TEST(test_checkpoint_interval_property_sets_the_cadence) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    dl_delta_kv conf[] = {{"delta.checkpointInterval", "3"}};
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, conf, 1, NULL, &err), &err);
    CHECK_OK(append_range(&t, 1, 8, NULL, 0, NULL, &err), &err);
    CHECK(checkpoint_exists(&t, 3) && checkpoint_exists(&t, 6));
    CHECK(!checkpoint_exists(&t, 0) && !checkpoint_exists(&t, 5) && !checkpoint_exists(&t, 7));
    CHECK_LOG(&t);
    tl_table_free(&t);
}

/* A table with v2Checkpoint gets classic-named V2 checkpoints: one checkpointMetadata row. */
TEST(test_v2_checkpoint_table_gets_a_checkpoint_metadata_row) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    dl_delta_kv conf[] = {{"delta.checkpointPolicy", "v2"}, {"delta.checkpointInterval", "3"}};
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, conf, 2, NULL, &err), &err);
    CHECK_OK(append_range(&t, 1, 4, NULL, 0, NULL, &err), &err);
    CHECK(checkpoint_exists(&t, 3));
    char text[8192];
    CHECK(tw_read_log_file(&t, "_last_checkpoint", text, sizeof(text)));
    /* protocol, metaData, checkpointMetadata, 3 adds */
    CHECK(strncmp(text, "{\"version\":3,\"size\":6,", 22) == 0);
    CHECK(strstr(text, "{\"name\":\"checkpointMetadata\",\"type\":{\"type\":\"struct\","
                       "\"fields\":[{\"name\":\"version\",\"type\":\"long\"") != NULL);
    CHECK_LOG(&t);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_checkpoint_version(snap), 3);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 3);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

TEST(test_on_demand_checkpoint_never_moves_last_checkpoint_back) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, NULL, 0, NULL, &err), &err);
    CHECK_OK(append_range(&t, 1, 8, NULL, 0, NULL, &err), &err);
    dl_delta_checkpoint_info info;
    CHECK_OK(dl_delta_checkpoint_version(t.table, 7, 0, &info, &err), &err);
    CHECK_INT_EQ(info.version, 7);
    CHECK_INT_EQ(info.num_of_add_files, 7);
    CHECK_INT_EQ(info.size, 9);
    CHECK(info.size_in_bytes > 0);
    CHECK_OK(dl_delta_checkpoint_version(t.table, 4, 0, &info, &err), &err);
    char text[8192];
    CHECK(tw_read_log_file(&t, "_last_checkpoint", text, sizeof(text)));
    CHECK(strncmp(text, "{\"version\":7,", 13) == 0);
    CHECK_STATUS(dl_delta_checkpoint_version(t.table, 99, 0, &info, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_expired_tombstones_are_dropped_from_checkpoints) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, NULL, 0, NULL, &err), &err);
    CHECK_OK(append_range(&t, 1, 4, NULL, 0, NULL, &err), &err);
    int64_t now = 1800000000000;
    /* f001 removed 8 days before now (expired under the 1-week default), f002 1 day before. */
    for (int i = 1; i <= 2; i++) {
        dl_delta_snapshot *snap = tw_latest(&t, &err);
        CHECK(snap != NULL);
        dl_delta_tx_options opts = {.now_ms = now - (i == 1 ? 8 : 1) * DAY_MS};
        dl_delta_tx *tx = NULL;
        CHECK_OK(dl_delta_tx_begin(t.table, snap, &opts, &tx, &err), &err);
        const dl_delta_file *victim = NULL;
        for (size_t k = 0; k < dl_delta_snapshot_file_count(snap); k++) {
            char want[32];
            (void)snprintf(want, sizeof(want), "f%03d.parquet", i);
            if (dl_str_eq_cstr(dl_delta_snapshot_file(snap, k)->path, want)) {
                victim = dl_delta_snapshot_file(snap, k);
            }
        }
        CHECK(victim != NULL);
        CHECK_OK(dl_delta_tx_remove_snapshot_file(tx, victim, true, &err), &err);
        CHECK_OK(dl_delta_tx_commit(tx, NULL, &err), &err);
        dl_delta_tx_free(tx);
        dl_delta_snapshot_unref(snap);
    }
    dl_delta_checkpoint_info info;
    CHECK_OK(dl_delta_checkpoint_version(t.table, -1, now, &info, &err), &err);
    CHECK_INT_EQ(info.version, 5);
    CHECK_INT_EQ(info.num_of_add_files, 1);
    CHECK_INT_EQ(info.n_tombstones, 1);
    CHECK_INT_EQ(info.n_expired, 1);
    CHECK_INT_EQ(info.size, 4);
    CHECK_LOG(&t);
    /* A shorter table retention expires the other one too. */
    tl_table_free(&t);
}

/* A file whose add sits in a Parquet checkpoint (stats not kept in memory) is removed with
 * its stats, read back from the checkpoint row: the remove action carries them. */
TEST(test_remove_after_checkpoint_carries_stats_from_the_checkpoint) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, NULL, 0, NULL, &err), &err);
    CHECK_OK(append_range(&t, 1, 3, NULL, 0, NULL, &err), &err);
    CHECK_OK(dl_delta_checkpoint_version(t.table, -1, 0, NULL, &err), &err);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    const dl_delta_file *victim = NULL;
    for (size_t k = 0; k < dl_delta_snapshot_file_count(snap); k++) {
        if (dl_str_eq_cstr(dl_delta_snapshot_file(snap, k)->path, "f001.parquet")) {
            victim = dl_delta_snapshot_file(snap, k);
        }
    }
    CHECK(victim != NULL && victim->stats.len == 0 && victim->stats_source >= 0);
    dl_delta_tx *tx = NULL;
    CHECK_OK(dl_delta_tx_begin(t.table, snap, NULL, &tx, &err), &err);
    CHECK_OK(dl_delta_tx_remove_snapshot_file(tx, victim, true, &err), &err);
    dl_delta_commit_result res;
    CHECK_OK(dl_delta_tx_commit(tx, &res, &err), &err);
    dl_delta_tx_free(tx);
    dl_delta_snapshot_unref(snap);
    char name[64];
    (void)snprintf(name, sizeof(name), "%020lld.json", (long long)res.version);
    char text[8192];
    CHECK(tw_read_log_file(&t, name, text, sizeof(text)));
    const char *remove = strstr(text, "{\"remove\"");
    CHECK(remove != NULL && strstr(remove, "numRecords\\\":2") != NULL);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

/* Reads the checkpoint of version into a batch (one batch: small tables). */
typedef struct ckpt_read {
    dl_pq_file *file;
    dl_pq_reader *rd;
    dl_batch *batch;
} ckpt_read;

static bool
ckpt_read_open(tl_table *t, int64_t version, ckpt_read *cr) {
    memset(cr, 0, sizeof(*cr));
    char path[256];
    (void)snprintf(path, sizeof(path), "_delta_log/%020lld.checkpoint.parquet", (long long)version);
    dl_error err;
    dl_pq_read_options opts = {.is_dict_flattened = true};
    bool is_ok =
        dl_pq_file_open(t->store, path, NULL, &cr->file, &err) == DL_OK &&
        dl_pq_reader_new(cr->file, &opts, &cr->rd, &err) == DL_OK &&
        dl_vec_batch_new(NULL, dl_pq_reader_schema(cr->rd), 0, &cr->batch, &err) == DL_OK &&
        dl_pq_reader_next(cr->rd, cr->batch, &err) == DL_OK;
    if (!is_ok) {
        printf("  checkpoint read: %s\n", err.msg);
    }
    return is_ok;
}

static void
ckpt_read_close(ckpt_read *cr) {
    dl_vec_batch_free(cr->batch);
    dl_pq_reader_free(cr->rd);
    dl_pq_file_free(cr->file);
}

static const dl_vector *
child(const dl_vector *v, const char *name) {
    int32_t i = dl_vec_type_field_index(v->type, dl_str_from_cstr(name));
    return i >= 0 ? v->children[i] : NULL;
}

#define SCHEMA_STATS                                                                       \
    "{\"type\":\"struct\",\"fields\":["                                                    \
    "{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}},"               \
    "{\"name\":\"name\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}},"           \
    "{\"name\":\"amount\",\"type\":\"decimal(10,2)\",\"nullable\":true,\"metadata\":{}},"  \
    "{\"name\":\"flag\",\"type\":\"boolean\",\"nullable\":true,\"metadata\":{}},"          \
    "{\"name\":\"s\",\"type\":{\"type\":\"struct\",\"fields\":[{\"name\":\"x\",\"type\":"  \
    "\"integer\",\"nullable\":true,\"metadata\":{}}]},\"nullable\":true,\"metadata\":{}}," \
    "{\"name\":\"p\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}},"              \
    "{\"name\":\"q\",\"type\":\"integer\",\"nullable\":true,\"metadata\":{}}]}"

TEST(test_stats_as_struct_writes_typed_stats_and_partition_values) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    const char *parts[] = {"p", "q"};
    dl_delta_kv conf[] = {{"delta.checkpoint.writeStatsAsStruct", "true"},
                          {"delta.checkpoint.writeStatsAsJson", "false"}};
    CHECK_OK(tw_create(&t, SCHEMA_STATS, parts, 2, conf, 2, NULL, &err), &err);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    dl_delta_kv pv[] = {{"p", "x"}, {"q", "5"}};
    dl_delta_add_file add = {
        .path = "p=x/q=5/a.parquet",
        .partition_values = pv,
        .n_partition_values = 2,
        .size = 10,
        .data_change = true,
        .stats = "{\"numRecords\":3,\"minValues\":{\"id\":1,\"name\":\"a\",\"amount\":1.50,"
                 "\"s\":{\"x\":-2}},\"maxValues\":{\"id\":9,\"name\":\"zz\",\"amount\":99.99,"
                 "\"s\":{\"x\":7}},\"nullCount\":{\"id\":0,\"name\":1,\"amount\":0,\"flag\":2,"
                 "\"s\":{\"x\":0}}}"};
    dl_delta_tx *tx = NULL;
    CHECK_OK(dl_delta_tx_begin(t.table, snap, NULL, &tx, &err), &err);
    CHECK_OK(dl_delta_tx_add(tx, &add, &err), &err);
    CHECK_OK(dl_delta_tx_commit(tx, NULL, &err), &err);
    dl_delta_tx_free(tx);
    dl_delta_snapshot_unref(snap);
    CHECK_OK(dl_delta_checkpoint_version(t.table, 1, 0, NULL, &err), &err);
    CHECK_LOG(&t);
    ckpt_read cr;
    CHECK(ckpt_read_open(&t, 1, &cr));
    const dl_vector *addv = cr.batch->cols[1];
    int64_t row = -1;
    for (int64_t r = 0; r < cr.batch->count; r++) {
        row = dl_vec_is_null(addv, r) ? row : r;
    }
    CHECK(row >= 0);
    CHECK(child(addv, "stats") == NULL); /* writeStatsAsJson=false */
    const dl_vector *pvp = child(addv, "partitionValues_parsed");
    CHECK(pvp != NULL);
    CHECK(dl_str_eq_cstr(dl_vec_get_str(child(pvp, "p"), row), "x"));
    CHECK_INT_EQ(((const int32_t *)child(pvp, "q")->data)[row], 5);
    const dl_vector *sp = child(addv, "stats_parsed");
    CHECK(sp != NULL);
    CHECK_INT_EQ(((const int64_t *)child(sp, "numRecords")->data)[row], 3);
    const dl_vector *mn = child(sp, "minValues");
    const dl_vector *mx = child(sp, "maxValues");
    const dl_vector *nc = child(sp, "nullCount");
    CHECK(mn != NULL && mx != NULL && nc != NULL);
    CHECK(child(mn, "flag") == NULL);        /* booleans have no min/max */
    CHECK(child(mn, "p") == NULL);           /* partition columns have no stats */
    CHECK(child(sp, "tightBounds") == NULL); /* no deletion vectors on this table */
    CHECK_INT_EQ(((const int64_t *)child(mn, "id")->data)[row], 1);
    CHECK(dl_str_eq_cstr(dl_vec_get_str(child(mx, "name"), row), "zz"));
    CHECK(((const dl_i128 *)child(mn, "amount")->data)[row] == 150);
    CHECK(((const dl_i128 *)child(mx, "amount")->data)[row] == 9999);
    CHECK_INT_EQ(((const int32_t *)child(child(mn, "s"), "x")->data)[row], -2);
    CHECK_INT_EQ(((const int64_t *)child(nc, "flag")->data)[row], 2);
    CHECK_INT_EQ(((const int64_t *)child(child(nc, "s"), "x")->data)[row], 0);
    ckpt_read_close(&cr);
    if (dl_delta_can_read_parquet_checkpoints()) {
        /* The read side takes the stats from stats_parsed (there is no JSON copy). */
        dl_delta_snapshot *back = tw_latest(&t, &err);
        CHECK(back != NULL);
        CHECK_INT_EQ(dl_delta_snapshot_checkpoint_version(back), 1);
        const dl_delta_file *f = dl_delta_snapshot_file(back, 0);
        CHECK_INT_EQ(f->partition->values[1].u.i64, 5);
        dl_delta_stats_reader rd;
        dl_delta_stats_reader_init(&rd, NULL);
        dl_delta_stats st;
        bool has_stats = false;
        dl_status s = dl_delta_file_stats(back, f, &rd, &st, &has_stats, &err);
        if (s == DL_OK && has_stats) {
            CHECK_INT_EQ(st.num_records, 3);
            const char *path[] = {"id"};
            dl_delta_value v;
            bool found = false;
            CHECK_OK(dl_delta_stats_get(&st, DL_DELTA_STAT_MAX, path, 1,
                                        dl_vec_type_prim(DL_VEC_TYPE_LONG), &v, &found, &err),
                     &err);
            CHECK(found && v.u.i64 == 9);
        } else {
            printf("  note: the read side gives no stats from stats_parsed (%s)\n",
                   s == DL_OK ? "none" : err.msg);
        }
        dl_delta_stats_reader_destroy(&rd);
        dl_delta_snapshot_unref(back);
    }
    tl_table_free(&t);
}

TEST(test_failed_checkpoint_does_not_fail_the_commit) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, NULL, 0, NULL, &err), &err);
    CHECK_OK(append_range(&t, 1, 10, NULL, 0, NULL, &err), &err);
    /* A folder where the checkpoint must go makes its rename fail. */
    char dir[512];
    (void)snprintf(dir, sizeof(dir), "%s/_delta_log/%020d.checkpoint.parquet", t.dir, 10);
    CHECK(mkdir(dir, 0700) == 0);
    dl_delta_commit_result res;
    CHECK_OK(append_range(&t, 10, 11, NULL, 0, &res, &err), &err);
    CHECK_INT_EQ(res.version, 10);
    CHECK(!res.has_checkpoint);
    CHECK(res.post_commit_error.code != DL_OK);
    CHECK(strstr(res.post_commit_error.msg, "after commit 10: checkpoint") != NULL);
    CHECK(commit_exists(&t, 10));
    CHECK(!log_file_exists(&t, "_last_checkpoint"));
    CHECK(rmdir(dir) == 0);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 10);
    dl_delta_snapshot_unref(snap);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

/* ---- log cleanup ----------------------------------------------------------------------- */

/* Versions 0..25 with checkpoints at 10 and 20 and no automatic cleanup. */
static bool
make_history(tl_table *t) {
    dl_error err;
    dl_delta_kv conf[] = {{"delta.enableExpiredLogCleanup", "false"}};
    if (!tl_table_new(t) || tw_create(t, TW_SCHEMA_ID_P, NULL, 0, conf, 1, NULL, &err) != DL_OK ||
        append_range(t, 1, 26, NULL, 0, NULL, &err) != DL_OK) {
        printf("  make_history: %s\n", err.msg);
        return false;
    }
    return checkpoint_exists(t, 10) && checkpoint_exists(t, 20);
}

TEST(test_cleanup_deletes_only_below_the_newest_checkpoint_older_than_the_cutoff) {
    tl_table t;
    CHECK(make_history(&t));
    int64_t now = 1800000000000;
    for (int64_t v = 0; v <= 25; v++) {
        CHECK(set_commit_mtime(&t, v, now - (v <= 15 ? 40 : 1) * DAY_MS + v));
    }
    dl_error err;
    dl_delta_cleanup_result res;
    CHECK_OK(dl_delta_log_cleanup(t.table, NULL, now, &res, &err), &err);
    CHECK_INT_EQ(res.cutoff_checkpoint, 10);
    CHECK_INT_EQ(res.earliest_version, 10);
    CHECK_INT_EQ(res.n_deleted, 10);
    CHECK_INT_EQ(res.cutoff_ms % DAY_MS, 0);
    for (int64_t v = 0; v <= 25; v++) {
        CHECK(commit_exists(&t, v) == (v >= 10));
    }
    CHECK(checkpoint_exists(&t, 10) && checkpoint_exists(&t, 20));
    CHECK_LOG(&t); /* seeds its replay from checkpoint 10 */
    dl_delta_snapshot *snap = NULL;
    dl_status s = dl_delta_snapshot_at_version(t.table, 12, NULL, &snap, &err);
    if (dl_delta_can_read_parquet_checkpoints()) {
        CHECK_OK(s, &err);
        CHECK_INT_EQ(dl_delta_snapshot_checkpoint_version(snap), 10);
        CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 12);
        dl_delta_snapshot_unref(snap);
        CHECK_STATUS(dl_delta_snapshot_at_version(t.table, 9, NULL, &snap, &err), DL_ERR_NOT_FOUND,
                     &err);
    } else {
        CHECK_STATUS(s, DL_ERR_UNSUPPORTED, &err);
    }
    /* Again: nothing more is expired. */
    CHECK_OK(dl_delta_log_cleanup(t.table, NULL, now, &res, &err), &err);
    CHECK_INT_EQ(res.n_deleted, 0);
    tl_table_free(&t);
}

TEST(test_cleanup_without_an_old_enough_checkpoint_deletes_nothing) {
    tl_table t;
    CHECK(make_history(&t));
    int64_t now = 1800000000000;
    for (int64_t v = 0; v <= 25; v++) {
        CHECK(set_commit_mtime(&t, v, now - (v <= 9 ? 40 : 1) * DAY_MS + v));
    }
    dl_error err;
    dl_delta_cleanup_result res;
    CHECK_OK(dl_delta_log_cleanup(t.table, NULL, now, &res, &err), &err);
    CHECK_INT_EQ(res.cutoff_checkpoint, -1);
    CHECK_INT_EQ(res.n_deleted, 0);
    CHECK(commit_exists(&t, 0));
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_cleanup_follows_log_retention_and_monotonic_commit_times) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    dl_delta_kv conf[] = {{"delta.logRetentionDuration", "interval 2 days"},
                          {"delta.enableExpiredLogCleanup", "false"},
                          {"delta.checkpointInterval", "5"}};
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, conf, 3, NULL, &err), &err);
    CHECK_OK(append_range(&t, 1, 12, NULL, 0, NULL, &err), &err);
    int64_t now = 1800000000000;
    for (int64_t v = 0; v <= 11; v++) {
        CHECK(set_commit_mtime(&t, v, now - 3 * DAY_MS + v));
    }
    /* Commit 6 has a time far in the future: 7.. keep a later adjusted time than 6, so the
     * expired prefix stops at 5 and checkpoint 5 is the one kept. */
    CHECK(set_commit_mtime(&t, 6, now + DAY_MS));
    dl_delta_cleanup_result res;
    CHECK_OK(dl_delta_log_cleanup(t.table, NULL, now, &res, &err), &err);
    CHECK_INT_EQ(res.cutoff_checkpoint, 5);
    CHECK_INT_EQ(res.n_deleted, 5);
    CHECK(!commit_exists(&t, 4) && commit_exists(&t, 5) && checkpoint_exists(&t, 10));
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_post_commit_cleanup_runs_after_a_checkpoint_unless_disabled) {
    for (int is_disabled = 0; is_disabled < 2; is_disabled++) {
        tl_table t;
        CHECK(tl_table_new(&t));
        dl_error err;
        dl_delta_kv conf[] = {{"delta.enableExpiredLogCleanup", is_disabled ? "false" : "true"}};
        CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, conf, 1, NULL, &err), &err);
        CHECK_OK(append_range(&t, 1, 20, NULL, 0, NULL, &err), &err);
        int64_t old = now_ms() - 45 * DAY_MS;
        for (int64_t v = 0; v <= 15; v++) {
            CHECK(set_commit_mtime(&t, v, old + v));
        }
        dl_delta_commit_result res;
        CHECK_OK(append_range(&t, 20, 21, NULL, 0, &res, &err), &err);
        CHECK(res.has_checkpoint);
        CHECK_INT_EQ(res.post_commit_error.code, DL_OK);
        CHECK_INT_EQ(res.n_log_files_deleted, is_disabled ? 0 : 10);
        CHECK(commit_exists(&t, 0) == (is_disabled != 0));
        CHECK_LOG(&t);
        tl_table_free(&t);
    }
}

TEST(test_cleanup_keeps_time_travel_by_timestamp_inside_the_window) {
    tl_table t;
    CHECK(make_history(&t));
    int64_t now = now_ms();
    for (int64_t v = 0; v <= 25; v++) {
        CHECK(set_commit_mtime(&t, v, now - (v <= 15 ? 40 * DAY_MS : (30 - v) * 60000) + v));
    }
    dl_error err;
    int64_t before = -1;
    CHECK_OK(dl_delta_version_at_timestamp(t.table, now - 9 * 60000, &before, &err), &err);
    CHECK_OK(dl_delta_log_cleanup(t.table, NULL, now, NULL, &err), &err);
    int64_t after = -1;
    dl_status s = dl_delta_version_at_timestamp(t.table, now - 9 * 60000, &after, &err);
    if (dl_delta_can_read_parquet_checkpoints()) {
        CHECK_OK(s, &err);
        CHECK_INT_EQ(after, before);
    } else {
        CHECK(s == DL_OK || s == DL_ERR_UNSUPPORTED);
        CHECK(s != DL_OK || after == before);
    }
    CHECK_LOG(&t);
    tl_table_free(&t);
}

int
main(void) {
    RUN(test_remove_after_checkpoint_carries_stats_from_the_checkpoint);
    RUN(test_commit_at_interval_writes_checkpoint_and_last_checkpoint);
    RUN(test_checkpoint_interval_property_sets_the_cadence);
    RUN(test_v2_checkpoint_table_gets_a_checkpoint_metadata_row);
    RUN(test_on_demand_checkpoint_never_moves_last_checkpoint_back);
    RUN(test_expired_tombstones_are_dropped_from_checkpoints);
    RUN(test_stats_as_struct_writes_typed_stats_and_partition_values);
    RUN(test_failed_checkpoint_does_not_fail_the_commit);
    RUN(test_cleanup_deletes_only_below_the_newest_checkpoint_older_than_the_cutoff);
    RUN(test_cleanup_without_an_old_enough_checkpoint_deletes_nothing);
    RUN(test_cleanup_follows_log_retention_and_monotonic_commit_times);
    RUN(test_post_commit_cleanup_runs_after_a_checkpoint_unless_disabled);
    RUN(test_cleanup_keeps_time_travel_by_timestamp_inside_the_window);
    return harness_finish();
}
