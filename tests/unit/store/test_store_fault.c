/* SPDX-License-Identifier: Apache-2.0 */
/* The fault-injecting store: which operations it counts, how each kind of fault behaves, and
 * that a failed write or commit leaves the store as it was, with no temporary file. */
#include <errno.h>
#include <stdlib.h>

#include "base/arena.h"
#include "base/buf.h"
#include "harness.h"
#include "store/store.h"
#include "store/store_fault.h"
#include "store_testutil.h"

static char g_root[TESTUTIL_ROOT_CAP];
static dl_store *g_local;
static dl_store *g_fault;

static void
setup(void) {
    dl_error err;
    if (!testutil_make_tmp_dir(g_root) ||
        dl_store_local_new(g_root, NULL, &g_local, &err) != DL_OK ||
        dl_store_fault_new(g_local, NULL, &g_fault, &err) != DL_OK) {
        printf("cannot set up a scratch store under /tmp\n");
        exit(2);
    }
}

static void
teardown(void) {
    dl_store_free(g_fault);
    dl_store_free(g_local);
    g_fault = NULL;
    g_local = NULL;
    testutil_remove_tree(g_root);
}

#define RUN_IN_STORE(name) \
    do {                   \
        setup();           \
        RUN(name);         \
        teardown();        \
    } while (0)

static void
arm(int64_t fail_at, bool is_sticky, dl_store_fault_kind kind) {
    dl_store_fault_options opts = {.fail_at = fail_at, .is_sticky = is_sticky, .kind = kind};
    dl_store_fault_arm(g_fault, &opts);
}

/* True when path exists in the inner store with exactly the given contents. */
static bool
has_contents(const char *path, const char *want) {
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    bool is_same = dl_store_read_all(g_local, path, &buf, &err) == DL_OK &&
                   buf.len == strlen(want) && memcmp(buf.data, want, buf.len) == 0;
    dl_buf_destroy(&buf);
    return is_same;
}

static bool
is_absent(const char *path) {
    dl_store_info info;
    dl_error err;
    return dl_store_stat(g_local, path, &info, &err) == DL_ERR_NOT_FOUND;
}

TEST(test_fault_each_step_of_put_if_absent_fails_cleanly) {
    dl_error err;
    const char *path = "_delta_log/00000000000000000001.json";
    int64_t fail_at = 1;
    for (;; fail_at++) {
        arm(fail_at, false, DL_STORE_FAULT_EIO);
        dl_status s = dl_store_put_if_absent(g_fault, path, "{\"add\":{}}", 10, &err);
        if (s == DL_OK) {
            break;
        }
        CHECK_STATUS(s, DL_ERR_IO, &err);
        CHECK_INT_EQ(err.sys_errno, EIO);
        CHECK_ERR_CONTAINS(&err, "simulated failure of store operation");
        CHECK_ERR_CONTAINS(&err, path);
        CHECK_INT_EQ(dl_store_fault_n_failures(g_fault), 1);
        CHECK(is_absent(path));
        CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
    }
    /* writer open, append, commit */
    CHECK_INT_EQ(fail_at, 4);
    CHECK_INT_EQ(dl_store_fault_n_ops(g_fault), 3);
    CHECK_INT_EQ(dl_store_fault_n_failures(g_fault), 0);
    CHECK(has_contents(path, "{\"add\":{}}"));
}

TEST(test_fault_enospc_mid_write_keeps_the_old_file) {
    dl_error err;
    CHECK_OK(dl_store_write(g_fault, "_last_checkpoint", "{\"version\":10}", 14, &err), &err);
    arm(2, false, DL_STORE_FAULT_ENOSPC);
    CHECK_STATUS(
        dl_store_write(g_fault, "_last_checkpoint", "{\"version\":20,\"size\":3}", 23, &err),
        DL_ERR_IO, &err);
    CHECK_INT_EQ(err.sys_errno, ENOSPC);
    CHECK_ERR_CONTAINS(&err, "No space left on device");
    CHECK(strstr(err.hint, "free disk space") != NULL);
    CHECK(has_contents("_last_checkpoint", "{\"version\":10}"));
    CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
}

TEST(test_fault_failed_append_poisons_the_writer_until_abort) {
    dl_error err;
    arm(3, false, DL_STORE_FAULT_ENOSPC);
    dl_store_writer *w = NULL;
    CHECK_OK(dl_store_writer_open(g_fault, "part-0.parquet", DL_STORE_PUT_OVERWRITE, &w, &err),
             &err);
    CHECK_OK(dl_store_writer_append(w, "PAR1", 4, &err), &err);
    CHECK_STATUS(dl_store_writer_append(w, "rowgroup", 8, &err), DL_ERR_IO, &err);
    CHECK(w->is_failed);
    CHECK_STATUS(dl_store_writer_append(w, "more", 4, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "must be aborted");
    /* The half-written temporary file exists until the writer ends. */
    CHECK_INT_EQ(testutil_count_tmp_files(g_root), 1);
    CHECK_STATUS(dl_store_writer_commit(w, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "part-0.parquet");
    CHECK(is_absent("part-0.parquet"));
    CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
}

TEST(test_fault_lost_ack_commit_is_visible_and_a_retry_sees_exists) {
    dl_error err;
    const char *path = "_delta_log/00000000000000000002.json";
    arm(3, false, DL_STORE_FAULT_LOST_ACK);
    CHECK_STATUS(dl_store_put_if_absent(g_fault, path, "mine", 4, &err), DL_ERR_IO, &err);
    CHECK_ERR_CONTAINS(&err, path);
    CHECK(has_contents(path, "mine"));
    CHECK_STATUS(dl_store_put_if_absent(g_fault, path, "mine", 4, &err), DL_ERR_EXISTS, &err);
    CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
    /* A lost acknowledgement on open or append leaves nothing. */
    for (int64_t fail_at = 1; fail_at <= 2; fail_at++) {
        arm(fail_at, false, DL_STORE_FAULT_LOST_ACK);
        CHECK_STATUS(dl_store_put_if_absent(g_fault, "other.json", "x", 1, &err), DL_ERR_IO, &err);
        CHECK(is_absent("other.json"));
        CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
    }
}

TEST(test_fault_remove_and_mkdirs_fail_before_or_after_acting) {
    dl_error err;
    CHECK_OK(dl_store_write(g_local, "old.parquet", "x", 1, &err), &err);
    arm(1, false, DL_STORE_FAULT_EIO);
    CHECK_STATUS(dl_store_remove(g_fault, "old.parquet", &err), DL_ERR_IO, &err);
    CHECK(!is_absent("old.parquet"));
    arm(1, false, DL_STORE_FAULT_LOST_ACK);
    CHECK_STATUS(dl_store_remove(g_fault, "old.parquet", &err), DL_ERR_IO, &err);
    CHECK(is_absent("old.parquet"));
    arm(1, false, DL_STORE_FAULT_EIO);
    CHECK_STATUS(dl_store_mkdirs(g_fault, "a/b", &err), DL_ERR_IO, &err);
    CHECK(is_absent("a"));
    arm(1, false, DL_STORE_FAULT_LOST_ACK);
    CHECK_STATUS(dl_store_mkdirs(g_fault, "a/b", &err), DL_ERR_IO, &err);
    CHECK(!is_absent("a/b"));
    /* Real errors of the inner store come through unchanged. */
    arm(0, false, DL_STORE_FAULT_EIO);
    CHECK_STATUS(dl_store_remove(g_fault, "old.parquet", &err), DL_ERR_NOT_FOUND, &err);
}

TEST(test_fault_sticky_fails_every_later_operation) {
    dl_error err;
    arm(2, true, DL_STORE_FAULT_EIO);
    CHECK_OK(dl_store_mkdirs(g_fault, "a", &err), &err);
    CHECK_STATUS(dl_store_mkdirs(g_fault, "b", &err), DL_ERR_IO, &err);
    CHECK_STATUS(dl_store_mkdirs(g_fault, "c", &err), DL_ERR_IO, &err);
    CHECK_STATUS(dl_store_write(g_fault, "d", "x", 1, &err), DL_ERR_IO, &err);
    CHECK_INT_EQ(dl_store_fault_n_ops(g_fault), 4);
    CHECK_INT_EQ(dl_store_fault_n_failures(g_fault), 3);
    CHECK(is_absent("b") && is_absent("c") && is_absent("d"));
}

TEST(test_fault_reads_and_listings_pass_through_uncounted) {
    dl_error err;
    CHECK_OK(dl_store_write(g_local, "dir/f", "0123", 4, &err), &err);
    arm(1, true, DL_STORE_FAULT_EIO);
    char out[2];
    CHECK_OK(dl_store_read_at(g_fault, "dir/f", 2, out, 2, &err), &err);
    CHECK(out[0] == '2' && out[1] == '3');
    dl_store_info info;
    CHECK_OK(dl_store_stat(g_fault, "dir/f", &info, &err), &err);
    CHECK_INT_EQ(info.size, 4);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_store_listing listing;
    CHECK_OK(dl_store_list(g_fault, "dir/", NULL, 0, &arena, &listing, &err), &err);
    CHECK_INT_EQ(listing.count, 1);
    dl_arena_destroy(&arena);
    CHECK_INT_EQ(dl_store_fault_n_ops(g_fault), 0);
    CHECK_STR_EQ(g_fault->location, g_local->location);
}

/* A commit in miniature: a data file, then the log entry that adds it. A failure anywhere
 * before the log entry exists must leave the log as it was (the data file is an orphan). */
static dl_status
mini_commit(dl_store *store, dl_error *err) {
    DL_TRY(dl_store_write(store, "part-00001.parquet", "PAR1....PAR1", 12, err));
    return dl_store_put_if_absent(store, "_delta_log/00000000000000000001.json",
                                  "{\"add\":{\"path\":\"part-00001.parquet\"}}\n", 38, err);
}

static void
check_faultsim_commit(dl_store_fault_kind kind) {
    dl_error err;
    arm(0, false, kind);
    CHECK_OK(
        dl_store_put_if_absent(g_fault, "_delta_log/00000000000000000000.json", "{}\n", 3, &err),
        &err);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    int64_t fail_at = 1;
    for (;; fail_at++) {
        arm(fail_at, false, kind);
        dl_status s = mini_commit(g_fault, &err);
        if (s == DL_OK) {
            break;
        }
        CHECK_STATUS(s, DL_ERR_IO, &err);
        dl_store_listing log;
        CHECK_OK(dl_store_list(g_local, "_delta_log/", NULL, 0, &arena, &log, &err), &err);
        CHECK_INT_EQ(log.count, 1);
        CHECK_STR_EQ(log.entries[0].path.ptr, "_delta_log/00000000000000000000.json");
        CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
        dl_arena_reset(&arena);
    }
    CHECK_INT_EQ(fail_at, 7);
    CHECK(has_contents("_delta_log/00000000000000000001.json",
                       "{\"add\":{\"path\":\"part-00001.parquet\"}}\n"));
    dl_arena_destroy(&arena);
}

TEST(test_fault_failed_commit_leaves_the_log_unchanged_eio) {
    check_faultsim_commit(DL_STORE_FAULT_EIO);
}

TEST(test_fault_failed_commit_leaves_the_log_unchanged_enospc) {
    check_faultsim_commit(DL_STORE_FAULT_ENOSPC);
}

TEST(test_fault_wrapper_needs_a_store) {
    dl_error err;
    dl_store *store = NULL;
    CHECK_STATUS(dl_store_fault_new(NULL, NULL, &store, &err), DL_ERR_INVALID_ARG, &err);
    CHECK(store == NULL);
}

int
main(void) {
    RUN_IN_STORE(test_fault_each_step_of_put_if_absent_fails_cleanly);
    RUN_IN_STORE(test_fault_enospc_mid_write_keeps_the_old_file);
    RUN_IN_STORE(test_fault_failed_append_poisons_the_writer_until_abort);
    RUN_IN_STORE(test_fault_lost_ack_commit_is_visible_and_a_retry_sees_exists);
    RUN_IN_STORE(test_fault_remove_and_mkdirs_fail_before_or_after_acting);
    RUN_IN_STORE(test_fault_sticky_fails_every_later_operation);
    RUN_IN_STORE(test_fault_reads_and_listings_pass_through_uncounted);
    RUN_IN_STORE(test_fault_failed_commit_leaves_the_log_unchanged_eio);
    RUN_IN_STORE(test_fault_failed_commit_leaves_the_log_unchanged_enospc);
    RUN_IN_STORE(test_fault_wrapper_needs_a_store);
    return harness_finish();
}
