/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The race test: two processes put-if-absent the same names, round after round, and for
 * every name exactly one must win, the file must hold the winner's bytes, and no temporary
 * file may remain. This is the property a Delta commit rests on.
 *
 * The children run in loose lockstep through a shared page (a file mapped MAP_SHARED): before
 * round i each announces it is there and waits, spinning, until the other has reached round i
 * too, so both attempt every name at nearly the same moment. A child that waits too long
 * (the other died) carries on alone, and the parent's checks then fail.
 */
#include <fcntl.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/buf.h"
#include "harness.h"
#include "store/store.h"
#include "store_testutil.h"

#define MAX_ROUNDS    1000
#define WAIT_LIMIT_NS ((int64_t)20 * 1000000000)

static char g_root[TESTUTIL_ROOT_CAP];

static int64_t
now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int
make_content(char *out, size_t cap, int child, int round) {
    /* Different lengths per child, so a mixed-up file cannot pass for either. */
    return snprintf(out, cap, "{\"commitInfo\":{\"child\":%d,\"round\":%d%s}}\n", child, round,
                    child == 0 ? "" : ",\"pad\":\"xxxxxxxxxxxxxxxx\"");
}

static void
wait_for_other(atomic_int *progress, int child, int round) {
    atomic_store(&progress[child], round);
    int64_t start = now_ns();
    int spins = 0;
    while (atomic_load(&progress[1 - child]) < round) {
        if (++spins % 64 == 0) {
            if (now_ns() - start > WAIT_LIMIT_NS) {
                return;
            }
            (void)sched_yield();
        }
    }
}

/* One racer: writes one result byte per round ('W' won, 'L' lost, 'E' error) to out_fd. */
static void
race_child(int child, int rounds, const dl_store_local_options *opts, atomic_int *progress,
           int out_fd) {
    char results[MAX_ROUNDS];
    memset(results, 'E', sizeof(results));
    dl_store *store = NULL;
    dl_error err;
    if (dl_store_local_new(g_root, opts, &store, &err) == DL_OK) {
        for (int round = 0; round < rounds; round++) {
            char name[64];
            char content[128];
            (void)snprintf(name, sizeof(name), "_delta_log/%020d.json", round);
            int len = make_content(content, sizeof(content), child, round);
            wait_for_other(progress, child, round);
            dl_status s = dl_store_put_if_absent(store, name, content, (size_t)len, &err);
            results[round] = s == DL_OK ? 'W' : s == DL_ERR_EXISTS ? 'L' : 'E';
            if (s != DL_OK && s != DL_ERR_EXISTS) {
                printf("  child %d round %d: %s\n", child, round, err.msg);
            }
        }
        atomic_store(&progress[child], rounds);
        dl_store_free(store);
    }
    size_t done = 0;
    while (done < (size_t)rounds) {
        ssize_t n = write(out_fd, results + done, (size_t)rounds - done);
        if (n <= 0) {
            break;
        }
        done += (size_t)n;
    }
    (void)fflush(stdout);
    _exit(done == (size_t)rounds ? 0 : 1);
}

/* Maps a zeroed shared page backed by a file in the scratch folder. */
static atomic_int *
map_progress(void) {
    char path[TESTUTIL_PATH_CAP];
    (void)snprintf(path, sizeof(path), "%s/progress", g_root);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        return NULL;
    }
    void *page = MAP_FAILED;
    if (ftruncate(fd, 4096) == 0) {
        page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    }
    (void)close(fd);
    (void)unlink(path);
    return page == MAP_FAILED ? NULL : (atomic_int *)page;
}

static bool
read_all_fd(int fd, char *out, size_t len) {
    size_t done = 0;
    while (done < len) {
        ssize_t n = read(fd, out + done, len - done);
        if (n <= 0) {
            return false;
        }
        done += (size_t)n;
    }
    return true;
}

static void
check_race(int rounds, const dl_store_local_options *opts) {
    atomic_int *progress = map_progress();
    CHECK(progress != NULL);
    atomic_init(&progress[0], -1);
    atomic_init(&progress[1], -1);
    int pipes[2][2];
    pid_t pids[2];
    (void)fflush(stdout);
    for (int child = 0; child < 2; child++) {
        CHECK(pipe(pipes[child]) == 0);
        pids[child] = fork();
        CHECK(pids[child] >= 0);
        if (pids[child] == 0) {
            (void)close(pipes[child][0]);
            race_child(child, rounds, opts, progress, pipes[child][1]);
        }
        (void)close(pipes[child][1]);
    }
    static char results[2][MAX_ROUNDS];
    bool is_read[2];
    for (int child = 0; child < 2; child++) {
        is_read[child] = read_all_fd(pipes[child][0], results[child], (size_t)rounds);
        (void)close(pipes[child][0]);
        int status = 0;
        CHECK(waitpid(pids[child], &status, 0) == pids[child]);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    (void)munmap(progress, 4096);
    CHECK(is_read[0] && is_read[1]);

    dl_store *store = NULL;
    dl_error err;
    CHECK_OK(dl_store_local_new(g_root, NULL, &store, &err), &err);
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    int wins[2] = {0, 0};
    for (int round = 0; round < rounds; round++) {
        char a = results[0][round];
        char b = results[1][round];
        if (!((a == 'W' && b == 'L') || (a == 'L' && b == 'W'))) {
            HARNESS_FAIL_AT("round %d: child 0 '%c', child 1 '%c'", round, a, b);
            break;
        }
        int winner = a == 'W' ? 0 : 1;
        wins[winner]++;
        char name[64];
        char want[128];
        (void)snprintf(name, sizeof(name), "_delta_log/%020d.json", round);
        int len = make_content(want, sizeof(want), winner, round);
        dl_buf_reset(&buf);
        CHECK_OK(dl_store_read_all(store, name, &buf, &err), &err);
        CHECK_INT_EQ(buf.len, len);
        CHECK(memcmp(buf.data, want, buf.len) == 0);
    }
    dl_buf_destroy(&buf);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_store_listing listing;
    CHECK_OK(dl_store_list(store, "_delta_log/", NULL, 0, &arena, &listing, &err), &err);
    CHECK_INT_EQ(listing.count, rounds);
    CHECK_INT_EQ(testutil_count_tmp_files(g_root), 0);
    dl_arena_destroy(&arena);
    dl_store_free(store);
    printf("  %d rounds (%s%s): child 0 won %d, child 1 won %d\n", rounds,
           opts->put_method == DL_STORE_LOCAL_PUT_LINK ? "link" : "renameat2",
           opts->is_volatile ? ", no fsync" : ", fsync", wins[0], wins[1]);
}

/* Atomicity does not depend on fsync, and without it 1,000 rounds take a second, not ten. */
TEST(test_two_processes_racing_put_if_absent_have_one_winner_per_name) {
    dl_store_local_options opts = {.is_volatile = true};
    check_race(MAX_ROUNDS, &opts);
}

TEST(test_two_processes_racing_durable_puts_have_one_winner_per_name) {
    dl_store_local_options opts = {0};
    check_race(150, &opts);
}

TEST(test_two_processes_racing_through_link_have_one_winner_per_name) {
    dl_store_local_options opts = {.put_method = DL_STORE_LOCAL_PUT_LINK, .is_volatile = true};
    check_race(300, &opts);
}

static void
run_in_scratch(void (*test)(void), const char *name) {
    if (!testutil_make_tmp_dir(g_root)) {
        printf("cannot create a scratch folder under /tmp\n");
        exit(2);
    }
    harness_current_failed = 0;
    test();
    if (harness_current_failed) {
        harness_failed++;
        printf("FAIL %s\n", name);
    } else {
        harness_passed++;
        printf("ok   %s\n", name);
    }
    (void)fflush(stdout);
    testutil_remove_tree(g_root);
}

#define RUN_IN_SCRATCH(name) run_in_scratch(name, #name)

int
main(void) {
    RUN_IN_SCRATCH(test_two_processes_racing_put_if_absent_have_one_winner_per_name);
    RUN_IN_SCRATCH(test_two_processes_racing_durable_puts_have_one_winner_per_name);
    RUN_IN_SCRATCH(test_two_processes_racing_through_link_have_one_winner_per_name);
    return harness_finish();
}
