/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Several processes commit to one table at once (fork; each child has its own store and
 * table handles, released together through a pipe so that they really collide):
 *
 *   - blind appends: every child's every commit succeeds (retrying over the winners); every
 *     acknowledged commit is in the log at the version it was acknowledged with and holds
 *     its txnId; versions run 0..N without a gap and none holds two commits; checkpoints
 *     written along the way by whichever child committed a multiple of the interval pass the
 *     protocol checker;
 *   - overlapping rewrites (remove the same file, add a new one): in each round exactly one
 *     child wins, the others fail with ConcurrentDeleteReadException (they recorded the file
 *     as read) or ConcurrentDeleteDeleteException (they only removed it);
 *   - concurrent creates: exactly one creates the table, the others get
 *     ProtocolChangedException.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "test_delta_txn_util.h"

#define N_CHILDREN      4
#define N_APPENDS       15
#define N_ROUNDS        5
#define N_FAIR_CHILDREN 8 /* the stream of blind appends a loser must get through */
#define N_FAIR_APPENDS  25
#define MAX_CHILDREN    8

/* One child's report of one commit, written atomically to a pipe (< PIPE_BUF). */
typedef struct report {
    int child;
    int seq;
    int status;   /* dl_status */
    int conflict; /* dl_delta_conflict */
    int attempts;
    int64_t version;
    int64_t commit_us; /* how long dl_delta_tx_commit took: writing, losing, waiting */
    char txn_id[37];
} report;

static void
send_report(int fd, const report *r) {
    if (write(fd, r, sizeof(*r)) != (ssize_t)sizeof(*r)) {
        _exit(3);
    }
}

static void
wait_byte(int fd) {
    char c;
    while (read(fd, &c, 1) < 0 && errno == EINTR) {
    }
}

/* Opens a private store and table on the parent's folder (after fork). */
static bool
child_open(const char *dir, dl_store **store, dl_delta_table **table) {
    return dl_store_local_new(dir, NULL, store, NULL) == DL_OK &&
           dl_delta_table_open(*store, "", NULL, table, NULL) == DL_OK;
}

static int appends_per_child = N_APPENDS; /* set before the children are forked */

static int64_t
now_us(void) {
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int
append_child(const char *dir, int id, int start_fd, int out_fd) {
    dl_store *store = NULL;
    dl_delta_table *table = NULL;
    if (!child_open(dir, &store, &table)) {
        return 2;
    }
    wait_byte(start_fd);
    int failures = 0;
    for (int k = 0; k < appends_per_child; k++) {
        dl_error err;
        report r = {.child = id, .seq = k, .version = -1};
        dl_delta_snapshot *snap = NULL;
        dl_delta_tx *tx = NULL;
        char path[64];
        (void)snprintf(path, sizeof(path), "c%d-%02d.parquet", id, k);
        dl_delta_add_file add = {
            .path = path, .size = 10, .data_change = true, .stats = "{\"numRecords\":1}"};
        dl_delta_commit_result res;
        dl_status s = dl_delta_snapshot_latest(table, NULL, &snap, &err);
        s = s == DL_OK ? dl_delta_tx_begin(table, snap, NULL, &tx, &err) : s;
        s = s == DL_OK ? dl_delta_tx_add(tx, &add, &err) : s;
        int64_t start = now_us();
        s = s == DL_OK ? dl_delta_tx_commit(tx, &res, &err) : s;
        r.commit_us = now_us() - start;
        r.status = (int)s;
        if (s == DL_OK) {
            r.version = res.version;
            r.attempts = res.attempts;
            memcpy(r.txn_id, dl_delta_tx_id(tx), sizeof(r.txn_id));
        } else {
            printf("  child %d commit %d: %s\n", id, k, err.msg);
            failures++;
        }
        send_report(out_fd, &r);
        dl_delta_tx_free(tx);
        dl_delta_snapshot_unref(snap);
    }
    dl_delta_table_free(table);
    dl_store_free(store);
    return failures == 0 ? 0 : 1;
}

/* Forks n children running fn; each gets the start pipe's read end and the report pipe's
 * write end. Returns false when a fork fails. */
typedef int (*child_fn)(const char *dir, int id, int start_fd, int out_fd, void *ctx);

typedef struct run {
    int n_children;
    pid_t pids[MAX_CHILDREN];
    int start[2];
    int ready[2];
    int out[2];
} run;

static bool
run_start(run *rn, int n_children, const char *dir, child_fn fn, void *ctx) {
    rn->n_children = n_children;
    if (pipe(rn->start) != 0 || pipe(rn->out) != 0 || pipe(rn->ready) != 0) {
        return false;
    }
    (void)fflush(stdout);
    for (int i = 0; i < n_children; i++) {
        rn->pids[i] = fork();
        if (rn->pids[i] < 0) {
            return false;
        }
        if (rn->pids[i] == 0) {
            (void)close(rn->start[1]);
            (void)close(rn->out[0]);
            (void)close(rn->ready[0]);
            int code = fn(dir, i, rn->start[0], rn->out[1], (void *)(intptr_t)rn->ready[1]);
            (void)fflush(stdout);
            (void)ctx;
            _exit(code); /* skip the parent's atexit handlers and leak checks */
        }
    }
    (void)close(rn->start[0]);
    (void)close(rn->out[1]);
    (void)close(rn->ready[1]);
    return true;
}

/* Waits for every child to say it is ready, then lets them all go at once. */
static void
run_release(run *rn, int n_ready) {
    for (int i = 0; i < n_ready; i++) {
        wait_byte(rn->ready[0]);
    }
    (void)close(rn->start[1]); /* EOF wakes every reader at once */
}

/* Reads every report; returns how many (up to cap) and whether every child exited 0. */
static size_t
run_finish(run *rn, report *reports, size_t cap, bool *out_all_zero) {
    size_t n = 0;
    report r;
    ssize_t got;
    while ((got = read(rn->out[0], &r, sizeof(r))) == (ssize_t)sizeof(r) ||
           (got < 0 && errno == EINTR)) {
        if (got > 0 && n < cap) {
            reports[n++] = r;
        }
    }
    (void)close(rn->out[0]);
    (void)close(rn->ready[0]);
    *out_all_zero = true;
    for (int i = 0; i < rn->n_children; i++) {
        int st = 0;
        if (waitpid(rn->pids[i], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            *out_all_zero = false;
        }
    }
    return n;
}

static int
append_entry(const char *dir, int id, int start_fd, int out_fd, void *ctx) {
    int ready_fd = (int)(intptr_t)ctx;
    if (write(ready_fd, "r", 1) != 1) {
        return 3;
    }
    return append_child(dir, id, start_fd, out_fd);
}

static bool
commit_holds(tl_table *t, int64_t version, const char *needle) {
    char name[64];
    static char text[1 << 16];
    (void)snprintf(name, sizeof(name), "%020lld.json", (long long)version);
    return tw_read_log_file(t, name, text, sizeof(text)) && strstr(text, needle) != NULL;
}

TEST(test_concurrent_blind_appends_from_processes_all_land_once) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, NULL, 0, NULL, &err), &err);
    run rn;
    CHECK(run_start(&rn, N_CHILDREN, t.dir, append_entry, NULL));
    run_release(&rn, N_CHILDREN);
    static report reports[N_CHILDREN * N_APPENDS + 8];
    bool is_clean = false;
    size_t n = run_finish(&rn, reports, DL_ARRAY_LEN(reports), &is_clean);
    CHECK(is_clean);
    CHECK_INT_EQ(n, N_CHILDREN * N_APPENDS);
    bool seen[N_CHILDREN * N_APPENDS + 1] = {false};
    int lost = 0;
    for (size_t i = 0; i < n; i++) {
        const report *r = &reports[i];
        lost += r->attempts - 1;
        CHECK_INT_EQ(r->status, DL_OK);
        CHECK(r->version >= 1 && r->version <= N_CHILDREN * N_APPENDS);
        CHECK(!seen[r->version]); /* no version acknowledged twice */
        seen[r->version] = true;
        char file[64];
        (void)snprintf(file, sizeof(file), "c%d-%02d.parquet", r->child, r->seq);
        CHECK(commit_holds(&t, r->version, r->txn_id));
        CHECK(commit_holds(&t, r->version, file));
    }
    printf("  %d commits from %d processes, %d attempts lost and retried\n", N_CHILDREN * N_APPENDS,
           N_CHILDREN, lost);
    CHECK_LOG(&t); /* contiguous versions, one commitInfo each, checkpoints valid */
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    if (snap != NULL) {
        CHECK_INT_EQ(dl_delta_snapshot_version(snap), N_CHILDREN * N_APPENDS);
        CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), N_CHILDREN * N_APPENDS);
        dl_delta_snapshot_unref(snap);
    } else {
        CHECK_INT_EQ(err.code, DL_ERR_UNSUPPORTED);
    }
    tl_table_free(&t);
}

/* Eight processes appending as fast as they can: a writer that loses the race waits a bounded
 * time and gets through. With back-off doubling per loss (and the winners not waiting), one
 * commit waited up to 6.5 s. */
TEST(test_losers_of_a_stream_of_blind_appends_wait_a_bounded_time) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, NULL, 0, NULL, &err), &err);
    appends_per_child = N_FAIR_APPENDS;
    run rn;
    int64_t start = now_us();
    CHECK(run_start(&rn, N_FAIR_CHILDREN, t.dir, append_entry, NULL));
    run_release(&rn, N_FAIR_CHILDREN);
    static report reports[N_FAIR_CHILDREN * N_FAIR_APPENDS + 8];
    bool is_clean = false;
    size_t n = run_finish(&rn, reports, DL_ARRAY_LEN(reports), &is_clean);
    int64_t total_us = now_us() - start;
    appends_per_child = N_APPENDS;
    CHECK(is_clean);
    CHECK_INT_EQ(n, N_FAIR_CHILDREN * N_FAIR_APPENDS);
    int64_t longest_us = 0;
    int max_attempts = 0;
    int lost = 0;
    for (size_t i = 0; i < n; i++) {
        CHECK_INT_EQ(reports[i].status, DL_OK);
        longest_us = DL_MAX(longest_us, reports[i].commit_us);
        max_attempts = DL_MAX(max_attempts, reports[i].attempts);
        lost += reports[i].attempts - 1;
    }
    printf("  %d commits from %d processes in %.2f s: longest commit %.3f s, most attempts %d, "
           "%d attempts lost\n",
           (int)n, N_FAIR_CHILDREN, (double)total_us / 1e6, (double)longest_us / 1e6, max_attempts,
           lost);
    CHECK(longest_us < 1500000);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

/* ---- overlapping rewrites --------------------------------------------------------------- */

typedef struct round_ctx {
    int round;
    const char *victim;
} round_ctx;

static round_ctx the_round;

static int
rewrite_entry(const char *dir, int id, int start_fd, int out_fd, void *ctx) {
    int ready_fd = (int)(intptr_t)ctx;
    dl_store *store = NULL;
    dl_delta_table *table = NULL;
    dl_delta_snapshot *snap = NULL;
    dl_delta_tx *tx = NULL;
    dl_error err;
    report r = {.child = id, .seq = the_round.round, .version = -1};
    if (!child_open(dir, &store, &table) ||
        dl_delta_snapshot_latest(table, NULL, &snap, &err) != DL_OK ||
        dl_delta_tx_begin(table, snap, NULL, &tx, &err) != DL_OK) {
        return 2;
    }
    const dl_delta_file *victim = NULL;
    for (size_t i = 0; i < dl_delta_snapshot_file_count(snap); i++) {
        if (dl_str_eq_cstr(dl_delta_snapshot_file(snap, i)->path, the_round.victim)) {
            victim = dl_delta_snapshot_file(snap, i);
        }
    }
    char path[64];
    (void)snprintf(path, sizeof(path), "r%d-c%d.parquet", the_round.round, id);
    dl_delta_add_file add = {.path = path, .size = 10, .data_change = true};
    dl_delta_remove_file rm = {.path = the_round.victim, .data_change = true};
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_UPDATE);
    dl_status s = victim == NULL ? DL_ERR_NOT_FOUND
                  : id % 2 == 0  ? dl_delta_tx_remove_snapshot_file(tx, victim, true, &err)
                                 : dl_delta_tx_remove(tx, &rm, &err);
    s = s == DL_OK ? dl_delta_tx_add(tx, &add, &err) : s;
    if (write(ready_fd, "r", 1) != 1) {
        return 3;
    }
    wait_byte(start_fd);
    dl_delta_commit_result res;
    s = s == DL_OK ? dl_delta_tx_commit(tx, &res, &err) : s;
    r.status = (int)s;
    r.conflict = (int)dl_delta_tx_conflict(tx);
    if (s == DL_OK) {
        r.version = res.version;
        memcpy(r.txn_id, dl_delta_tx_id(tx), sizeof(r.txn_id));
    }
    send_report(out_fd, &r);
    dl_delta_tx_free(tx);
    dl_delta_snapshot_unref(snap);
    dl_delta_table_free(table);
    dl_store_free(store);
    return 0;
}

TEST(test_overlapping_rewrites_from_processes_have_exactly_one_winner) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, NULL, 0, NULL, &err), &err);
    CHECK_OK(tw_append(&t, "base.parquet", NULL, 0, 1, NULL, NULL, &err), &err);
    static char victim[64] = "base.parquet";
    int n_delete_read = 0;
    int n_delete_delete = 0;
    for (int round = 0; round < N_ROUNDS; round++) {
        the_round = (round_ctx){.round = round, .victim = victim};
        run rn;
        CHECK(run_start(&rn, N_CHILDREN, t.dir, rewrite_entry, NULL));
        run_release(&rn, N_CHILDREN);
        report reports[N_CHILDREN + 2];
        bool is_clean = false;
        size_t n = run_finish(&rn, reports, DL_ARRAY_LEN(reports), &is_clean);
        CHECK(is_clean);
        CHECK_INT_EQ(n, N_CHILDREN);
        int winners = 0;
        for (size_t i = 0; i < n; i++) {
            if (reports[i].status == DL_OK) {
                winners++;
                CHECK(commit_holds(&t, reports[i].version, reports[i].txn_id));
                (void)snprintf(victim, sizeof(victim), "r%d-c%d.parquet", round, reports[i].child);
                continue;
            }
            CHECK_INT_EQ(reports[i].status, DL_ERR_CONFLICT);
            bool is_read = reports[i].conflict == DL_DELTA_CONFLICT_DELETE_READ;
            bool is_delete = reports[i].conflict == DL_DELTA_CONFLICT_DELETE_DELETE;
            CHECK(is_read || is_delete);
            CHECK(!is_read || reports[i].child % 2 == 0); /* only readers see DeleteRead */
            n_delete_read += is_read;
            n_delete_delete += is_delete;
        }
        CHECK_INT_EQ(winners, 1);
    }
    CHECK_INT_EQ(n_delete_read + n_delete_delete, N_ROUNDS * (N_CHILDREN - 1));
    CHECK_LOG(&t);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_version(snap), 1 + N_ROUNDS);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 1);
    CHECK(dl_str_eq_cstr(dl_delta_snapshot_file(snap, 0)->path, victim));
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

/* ---- concurrent creates ------------------------------------------------------------------ */

static int
create_entry(const char *dir, int id, int start_fd, int out_fd, void *ctx) {
    int ready_fd = (int)(intptr_t)ctx;
    dl_store *store = NULL;
    dl_delta_table *table = NULL;
    dl_delta_tx *tx = NULL;
    dl_error err;
    if (!child_open(dir, &store, &table) ||
        dl_delta_tx_begin(table, NULL, NULL, &tx, &err) != DL_OK) {
        return 2;
    }
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_delta_schema schema = tw_schema(&arena, TW_SCHEMA_ID_P);
    dl_delta_create_spec spec = {.schema = &schema};
    dl_status s = dl_delta_tx_create_table(tx, &spec, &err);
    if (write(ready_fd, "r", 1) != 1) {
        return 3;
    }
    wait_byte(start_fd);
    s = s == DL_OK ? dl_delta_tx_commit(tx, NULL, &err) : s;
    report r = {.child = id, .status = (int)s, .conflict = (int)dl_delta_tx_conflict(tx)};
    send_report(out_fd, &r);
    dl_delta_tx_free(tx);
    dl_arena_destroy(&arena);
    dl_delta_table_free(table);
    dl_store_free(store);
    return 0;
}

TEST(test_concurrent_creates_from_processes_make_one_table) {
    tl_table t;
    CHECK(tl_table_new(&t));
    run rn;
    CHECK(run_start(&rn, N_CHILDREN, t.dir, create_entry, NULL));
    run_release(&rn, N_CHILDREN);
    report reports[N_CHILDREN + 2];
    bool is_clean = false;
    size_t n = run_finish(&rn, reports, DL_ARRAY_LEN(reports), &is_clean);
    CHECK(is_clean);
    CHECK_INT_EQ(n, N_CHILDREN);
    int winners = 0;
    for (size_t i = 0; i < n; i++) {
        winners += reports[i].status == DL_OK;
        CHECK(reports[i].status == DL_OK ||
              (reports[i].status == DL_ERR_CONFLICT &&
               reports[i].conflict == DL_DELTA_CONFLICT_PROTOCOL_CHANGED));
    }
    CHECK_INT_EQ(winners, 1);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

int
main(void) {
    RUN(test_concurrent_blind_appends_from_processes_all_land_once);
    RUN(test_losers_of_a_stream_of_blind_appends_wait_a_bounded_time);
    RUN(test_overlapping_rewrites_from_processes_have_exactly_one_winner);
    RUN(test_concurrent_creates_from_processes_make_one_table);
    return harness_finish();
}
