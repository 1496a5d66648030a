/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fault injection (SQLite's do_faultsim_test): a commit is run with the N-th store operation
 * failing (EIO, ENOSPC half-way through a write, or a lost acknowledgement), and again with
 * the N-th allocation failing, for N = 1, 2, ... until it runs clean. After every failure the
 * table is unchanged (the same files in _delta_log, no temporary file, the same latest
 * version) and nothing leaked; a lost acknowledgement of the commit itself is recognised by
 * reading the commit back (its txnId), so the commit reports success. A fault after the
 * commit (in its checkpoint) never fails the commit and never leaves a broken checkpoint or
 * _last_checkpoint behind.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "store/store_fault.h"
#include "test_delta_txn_util.h"

/* The names in _delta_log, sorted and joined, dot files included. */
static void
log_listing(tl_table *t, char *out, size_t cap) {
    char dir[512];
    (void)snprintf(dir, sizeof(dir), "%s/_delta_log", t->dir);
    char names[64][256];
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL && n < 64) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            (void)snprintf(names[n++], sizeof(names[0]), "%s", e->d_name);
        }
    }
    if (d != NULL) {
        (void)closedir(d);
    }
    qsort(names, (size_t)n, sizeof(names[0]), (int (*)(const void *, const void *))strcmp);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        (void)strncat(out, names[i], cap - strlen(out) - 2);
        (void)strncat(out, ",", cap - strlen(out) - 1);
    }
}

/* A table at version 2 with a.parquet and b.parquet. */
static bool
setup(tl_table *t, const dl_delta_kv *conf, int32_t n_conf) {
    dl_error err;
    if (!tl_table_new(t) || !tw_volatile(t) ||
        tw_create(t, TW_SCHEMA_ID_P, NULL, 0, conf, n_conf, NULL, &err) != DL_OK ||
        tw_append(t, "a.parquet", NULL, 0, 1, NULL, NULL, &err) != DL_OK ||
        tw_append(t, "b.parquet", NULL, 0, 2, NULL, NULL, &err) != DL_OK) {
        printf("  setup: %s\n", err.msg);
        return false;
    }
    return true;
}

/* A rewrite of a.parquet through table (a handle on a faulty store or allocator). */
static dl_status
rewrite(dl_delta_table *table, const dl_delta_tx_options *opts, dl_delta_commit_result *res,
        char *txn_id, dl_error *err) {
    dl_delta_snapshot *snap = NULL;
    DL_TRY(dl_delta_snapshot_latest(table, NULL, &snap, err));
    dl_delta_tx *tx = NULL;
    dl_status s = dl_delta_tx_begin(table, snap, opts, &tx, err);
    for (size_t i = 0; s == DL_OK && i < dl_delta_snapshot_file_count(snap); i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(snap, i);
        if (dl_str_eq_cstr(f->path, "a.parquet")) {
            s = dl_delta_tx_remove_snapshot_file(tx, f, true, err);
        }
    }
    dl_delta_add_file add = {
        .path = "a2.parquet", .size = 5, .data_change = true, .stats = "{\"numRecords\":1}"};
    s = s == DL_OK ? dl_delta_tx_add(tx, &add, err) : s;
    s = s == DL_OK ? dl_delta_tx_commit(tx, res, err) : s;
    if (tx != NULL) {
        memcpy(txn_id, dl_delta_tx_id(tx), 37);
    }
    dl_delta_tx_free(tx);
    dl_delta_snapshot_unref(snap);
    return s;
}

static void
store_faults(dl_store_fault_kind kind) {
    int n_failed = 0;
    for (int64_t fail_at = 1; fail_at < 100; fail_at++) {
        tl_table t;
        CHECK(setup(&t, NULL, 0));
        char before[4096];
        char after[4096];
        log_listing(&t, before, sizeof(before));
        dl_store *fs = NULL;
        dl_delta_table *table = NULL;
        dl_error err;
        dl_store_fault_options fo = {.fail_at = fail_at, .is_sticky = true, .kind = kind};
        CHECK_OK(dl_store_fault_new(t.store, &fo, &fs, &err), &err);
        CHECK_OK(dl_delta_table_open(fs, "", NULL, &table, &err), &err);
        dl_delta_commit_result res;
        char txn_id[37] = "";
        dl_status s = rewrite(table, NULL, &res, txn_id, &err);
        int64_t n_failures = dl_store_fault_n_failures(fs);
        dl_delta_table_free(table);
        dl_store_free(fs);
        log_listing(&t, after, sizeof(after));
        if (s == DL_OK) {
            CHECK_INT_EQ(res.version, 3);
            CHECK(strstr(after, "00000000000000000003.json") != NULL);
            CHECK_LOG(&t);
            dl_delta_snapshot *snap = tw_latest(&t, &err);
            CHECK(snap != NULL);
            CHECK(strstr(dl_delta_snapshot_commit_info(snap).ptr, txn_id) != NULL);
            dl_delta_snapshot_unref(snap);
        } else {
            n_failed++;
            CHECK_INT_EQ(s, DL_ERR_IO);
            CHECK_ERR_CONTAINS(&err, "cannot commit on top of version 2");
            CHECK_STR_EQ(after, before); /* no commit, no temporary file */
        }
        tl_table_free(&t);
        if (n_failures == 0) {
            CHECK(s == DL_OK);
            break;
        }
    }
    /* The commit is 3 store operations (open, append, commit); a lost acknowledgement of the
     * last one is recognised, so it fails only for the first two. */
    CHECK_INT_EQ(n_failed, kind == DL_STORE_FAULT_LOST_ACK ? 2 : 3);
}

TEST(test_store_eio_during_commit_leaves_the_table_unchanged) {
    store_faults(DL_STORE_FAULT_EIO);
}

TEST(test_store_enospc_mid_write_leaves_the_table_unchanged) {
    store_faults(DL_STORE_FAULT_ENOSPC);
}

/* A failed first commit says so in words ("commit after version -1" reached shell users). */
TEST(test_failed_first_commit_says_the_table_was_not_created) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tw_volatile(&t));
    dl_error err;
    dl_store *fs = NULL;
    dl_store_fault_options fo = {.fail_at = 1, .is_sticky = true, .kind = DL_STORE_FAULT_EIO};
    CHECK_OK(dl_store_fault_new(t.store, &fo, &fs, &err), &err);
    dl_delta_table *real = t.table;
    CHECK_OK(dl_delta_table_open(fs, "", NULL, &t.table, &err), &err);
    dl_status s = tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, NULL, 0, NULL, &err);
    dl_delta_table_free(t.table);
    t.table = real;
    dl_store_free(fs);
    CHECK_INT_EQ(s, DL_ERR_IO);
    CHECK_ERR_CONTAINS(&err, "cannot commit the table's first version");
    tl_table_free(&t);
}

TEST(test_lost_acknowledgement_of_the_commit_is_recognised_as_committed) {
    store_faults(DL_STORE_FAULT_LOST_ACK);
}

TEST(test_faults_in_the_checkpoint_never_fail_the_commit) {
    int n_post_failures = 0;
    for (int64_t fail_at = 4; fail_at < 200; fail_at++) {
        tl_table t;
        dl_delta_kv conf[] = {{"delta.checkpointInterval", "3"}};
        CHECK(setup(&t, conf, 1)); /* the rewrite commits version 3: a checkpoint follows */
        dl_store *fs = NULL;
        dl_delta_table *table = NULL;
        dl_error err;
        dl_store_fault_options fo = {
            .fail_at = fail_at, .is_sticky = true, .kind = DL_STORE_FAULT_ENOSPC};
        CHECK_OK(dl_store_fault_new(t.store, &fo, &fs, &err), &err);
        CHECK_OK(dl_delta_table_open(fs, "", NULL, &table, &err), &err);
        dl_delta_commit_result res;
        char txn_id[37];
        CHECK_OK(rewrite(table, NULL, &res, txn_id, &err), &err);
        int64_t n_failures = dl_store_fault_n_failures(fs);
        dl_delta_table_free(table);
        dl_store_free(fs);
        CHECK_INT_EQ(res.version, 3);
        if (n_failures > 0) {
            n_post_failures++;
            CHECK(res.post_commit_error.code != DL_OK);
            CHECK(!res.has_checkpoint);
        }
        CHECK_LOG(&t); /* any checkpoint or _last_checkpoint left is whole and consistent */
        tl_table_free(&t);
        if (n_failures == 0) {
            CHECK(res.has_checkpoint);
            break;
        }
    }
    CHECK(n_post_failures >= 3);
}

TEST(test_allocation_failures_fail_cleanly_without_leaks_or_changes) {
    int n_failed = 0;
    for (int64_t fail_at = 1; fail_at < 5000; fail_at++) {
        tl_table t;
        CHECK(setup(&t, NULL, 0));
        char before[4096];
        char after[4096];
        log_listing(&t, before, sizeof(before));
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, fail_at, true);
        dl_delta_table *table = NULL;
        dl_error err;
        dl_status s = dl_delta_table_open(t.store, "", &fa.base, &table, &err);
        dl_delta_commit_result res;
        char txn_id[37];
        s = s == DL_OK ? rewrite(table, NULL, &res, txn_id, &err) : s;
        dl_delta_table_free(table);
        CHECK_INT_EQ(fa.live_blocks, 0); /* nothing leaked, success or failure */
        CHECK_INT_EQ(fa.live_bytes, 0);
        log_listing(&t, after, sizeof(after));
        if (s != DL_OK) {
            n_failed++;
            CHECK_STATUS(s, DL_ERR_NOMEM, &err);
            CHECK_STR_EQ(after, before);
        } else {
            CHECK(strstr(after, "00000000000000000003.json") != NULL);
            CHECK(fa.n_failures == 0 || res.post_commit_error.code == DL_ERR_NOMEM);
            CHECK_LOG(&t);
        }
        tl_table_free(&t);
        if (fa.n_failures == 0) {
            CHECK(s == DL_OK);
            printf("  %d allocation points failed cleanly\n", n_failed);
            return;
        }
    }
    HARNESS_FAIL_AT("the commit never ran clean");
}

TEST(test_allocation_failures_in_a_checkpoint_leave_no_partial_file_or_leak) {
    tl_table t;
    dl_delta_kv conf[] = {{"delta.checkpoint.writeStatsAsStruct", "true"}};
    CHECK(setup(&t, conf, 1));
    int n_failed = 0;
    /* Every point of the first 300, then every 11th (the Parquet writer's repeated pages). */
    for (int64_t fail_at = 1; fail_at < 100000; fail_at += fail_at < 300 ? 1 : 11) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, fail_at, true);
        dl_delta_table *table = NULL;
        dl_error err;
        dl_status s = dl_delta_table_open(t.store, "", &fa.base, &table, &err);
        dl_delta_checkpoint_info info;
        s = s == DL_OK ? dl_delta_checkpoint_version(table, 2, 0, &info, &err) : s;
        dl_delta_table_free(table);
        CHECK_INT_EQ(fa.live_blocks, 0);
        if (s != DL_OK) {
            n_failed++;
            CHECK_STATUS(s, DL_ERR_NOMEM, &err);
        }
        CHECK_LOG(&t); /* a checkpoint is there whole or not at all */
        if (fa.n_failures == 0) {
            CHECK_OK(s, &err);
            CHECK_INT_EQ(info.num_of_add_files, 2);
            printf("  %d of the checkpoint's allocation points failed cleanly\n", n_failed);
            break;
        }
    }
    tl_table_free(&t);
}

int
main(void) {
    RUN(test_store_eio_during_commit_leaves_the_table_unchanged);
    RUN(test_store_enospc_mid_write_leaves_the_table_unchanged);
    RUN(test_failed_first_commit_says_the_table_was_not_created);
    RUN(test_lost_acknowledgement_of_the_commit_is_recognised_as_committed);
    RUN(test_faults_in_the_checkpoint_never_fail_the_commit);
    RUN(test_allocation_failures_fail_cleanly_without_leaks_or_changes);
    RUN(test_allocation_failures_in_a_checkpoint_leave_no_partial_file_or_leak);
    return harness_finish();
}
