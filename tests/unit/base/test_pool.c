/* SPDX-License-Identifier: Apache-2.0 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "base/pool.h"
#include "harness.h"

static _Atomic int64_t sum;
static _Atomic int64_t n_ran;

static dl_status
add_index(void *arg, dl_error *err) {
    DL_UNUSED(err);
    atomic_fetch_add(&sum, (int64_t)(intptr_t)arg);
    atomic_fetch_add(&n_ran, 1);
    return DL_OK;
}

static dl_status
sum_many(int n_workers, int n_tasks, int64_t *out_sum, dl_error *err) {
    dl_pool *pool = NULL;
    DL_TRY(dl_pool_new(n_workers, NULL, &pool, err));
    atomic_store(&sum, 0);
    dl_pool_group group;
    dl_pool_group_init(&group, pool);
    dl_status s = DL_OK;
    for (int i = 0; i < n_tasks && s == DL_OK; i++) {
        s = dl_pool_submit(&group, add_index, (void *)(intptr_t)i, err);
    }
    dl_status w = dl_pool_group_wait(&group, err);
    dl_pool_free(pool);
    *out_sum = atomic_load(&sum);
    return s != DL_OK ? s : w;
}

TEST(test_pool_sums_10000_tiny_tasks_on_2_and_4_workers) {
    dl_error err;
    const int n = 10000;
    const int worker_counts[] = {1, 2, 4};
    for (size_t i = 0; i < DL_ARRAY_LEN(worker_counts); i++) {
        int64_t got = 0;
        CHECK_OK(sum_many(worker_counts[i], n, &got, &err), &err);
        CHECK_INT_EQ(got, (int64_t)n * (n - 1) / 2);
    }
}

TEST(test_pool_zero_workers_runs_tasks_inline_at_submit) {
    dl_error err;
    dl_pool *pool = NULL;
    CHECK_OK(dl_pool_new(0, NULL, &pool, &err), &err);
    CHECK_INT_EQ(dl_pool_n_workers(pool), 0);
    dl_pool_group group;
    dl_pool_group_init(&group, pool);
    atomic_store(&sum, 0);
    for (int i = 1; i <= 100; i++) {
        CHECK_OK(dl_pool_submit(&group, add_index, (void *)(intptr_t)i, &err), &err);
        CHECK_INT_EQ(atomic_load(&sum), (int64_t)i * (i + 1) / 2); /* already ran */
    }
    CHECK_OK(dl_pool_group_wait(&group, &err), &err);
    int64_t got = 0;
    CHECK_OK(sum_many(0, 10000, &got, &err), &err);
    CHECK_INT_EQ(got, INT64_C(10000) * 9999 / 2);
    dl_pool_free(pool);
}

/* Each outer task submits inner tasks into its own group and waits for them, possibly while
 * every worker is busy with other outer tasks. */
typedef struct nest_arg {
    dl_pool *pool;
    int depth;
} nest_arg;

static dl_status
nested(void *arg, dl_error *err) {
    const nest_arg *na = arg;
    if (na->depth == 0) {
        atomic_fetch_add(&n_ran, 1);
        return DL_OK;
    }
    nest_arg child = {.pool = na->pool, .depth = na->depth - 1};
    dl_pool_group inner;
    dl_pool_group_init(&inner, na->pool);
    for (int i = 0; i < 6; i++) {
        DL_TRY(dl_pool_submit(&inner, nested, &child, err));
    }
    return dl_pool_group_wait(&inner, err);
}

TEST(test_pool_nested_group_wait_does_not_deadlock) {
    dl_error err;
    const int worker_counts[] = {0, 1, 2, 4};
    for (size_t w = 0; w < DL_ARRAY_LEN(worker_counts); w++) {
        dl_pool *pool = NULL;
        CHECK_OK(dl_pool_new(worker_counts[w], NULL, &pool, &err), &err);
        atomic_store(&n_ran, 0);
        nest_arg top = {.pool = pool, .depth = 3};
        dl_pool_group outer;
        dl_pool_group_init(&outer, pool);
        for (int i = 0; i < 8; i++) {
            CHECK_OK(dl_pool_submit(&outer, nested, &top, &err), &err);
        }
        CHECK_OK(dl_pool_group_wait(&outer, &err), &err);
        CHECK_INT_EQ(atomic_load(&n_ran), 8 * 6 * 6 * 6);
        dl_pool_free(pool);
    }
}

static dl_status
fail_some(void *arg, dl_error *err) {
    int i = (int)(intptr_t)arg;
    atomic_fetch_add(&n_ran, 1);
    if (i % 10 == 3) {
        DL_FAIL(err, DL_ERR_CORRUPT, "task %d found a bad page", i);
    }
    return DL_OK;
}

TEST(test_pool_first_error_wins_and_the_others_are_counted) {
    dl_error err;
    const int worker_counts[] = {0, 3};
    for (size_t w = 0; w < DL_ARRAY_LEN(worker_counts); w++) {
        dl_pool *pool = NULL;
        CHECK_OK(dl_pool_new(worker_counts[w], NULL, &pool, &err), &err);
        dl_pool_group group;
        dl_pool_group_init(&group, pool);
        atomic_store(&n_ran, 0);
        for (int i = 0; i < 30; i++) {
            CHECK_OK(dl_pool_submit(&group, fail_some, (void *)(intptr_t)i, &err), &err);
        }
        CHECK_STATUS(dl_pool_group_wait(&group, &err), DL_ERR_CORRUPT, &err);
        CHECK_INT_EQ(atomic_load(&n_ran), 30); /* a failure does not cancel the rest */
        CHECK_ERR_CONTAINS(&err, "found a bad page, and 2 more tasks failed");
        if (worker_counts[w] == 0) {
            CHECK_ERR_CONTAINS(&err, "task 3 found a bad page");
        }
        CHECK(!dl_pool_group_has_failed(&group));
        /* the group is reusable and starts clean */
        CHECK_OK(dl_pool_submit(&group, fail_some, (void *)(intptr_t)1, &err), &err);
        CHECK_OK(dl_pool_group_wait(&group, &err), &err);
        dl_pool_free(pool);
    }
}

static dl_status
fail_silently(void *arg, dl_error *err) {
    DL_UNUSED(arg);
    DL_UNUSED(err);
    return DL_ERR_IO;
}

TEST(test_pool_task_failing_without_message_gets_one) {
    dl_error err;
    dl_pool *pool = NULL;
    CHECK_OK(dl_pool_new(1, NULL, &pool, &err), &err);
    dl_pool_group group;
    dl_pool_group_init(&group, pool);
    CHECK_OK(dl_pool_submit(&group, fail_silently, NULL, &err), &err);
    CHECK_STATUS(dl_pool_group_wait(&group, &err), DL_ERR_IO, &err);
    CHECK_ERR_CONTAINS(&err, "a pool task failed with IO and no message");
    CHECK_INT_EQ(err.code, DL_ERR_IO);
    dl_pool_free(pool);
}

TEST(test_pool_has_failed_is_visible_before_wait) {
    dl_error err;
    dl_pool *pool = NULL;
    CHECK_OK(dl_pool_new(0, NULL, &pool, &err), &err);
    dl_pool_group group;
    dl_pool_group_init(&group, pool);
    CHECK(!dl_pool_group_has_failed(&group));
    CHECK_OK(dl_pool_submit(&group, fail_silently, NULL, &err), &err);
    CHECK(dl_pool_group_has_failed(&group));
    CHECK_STATUS(dl_pool_group_wait(&group, NULL), DL_ERR_IO, &err);
    dl_pool_free(pool);
}

/* Two groups filled from two threads at once complete independently. */
typedef struct feeder {
    dl_pool *pool;
    int64_t base;
    dl_status status;
} feeder;

static _Atomic int64_t sum_b;

static dl_status
add_b(void *arg, dl_error *err) {
    DL_UNUSED(err);
    atomic_fetch_add(&sum_b, (int64_t)(intptr_t)arg);
    return DL_OK;
}

static void *
feed(void *arg) {
    feeder *f = arg;
    dl_error err;
    dl_pool_group group;
    dl_pool_group_init(&group, f->pool);
    f->status = DL_OK;
    for (int i = 0; i < 5000 && f->status == DL_OK; i++) {
        f->status = dl_pool_submit(&group, add_b, (void *)(intptr_t)(f->base + i), &err);
    }
    dl_status w = dl_pool_group_wait(&group, &err);
    if (f->status == DL_OK) {
        f->status = w;
    }
    return NULL;
}

TEST(test_pool_groups_from_several_threads_complete_independently) {
    dl_error err;
    dl_pool *pool = NULL;
    CHECK_OK(dl_pool_new(2, NULL, &pool, &err), &err);
    atomic_store(&sum_b, 0);
    feeder feeders[3];
    pthread_t threads[3];
    for (int i = 0; i < 3; i++) {
        feeders[i] = (feeder){.pool = pool, .base = i * 100000, .status = DL_ERR_INTERNAL};
        CHECK(pthread_create(&threads[i], NULL, feed, &feeders[i]) == 0);
    }
    for (int i = 0; i < 3; i++) {
        CHECK(pthread_join(threads[i], NULL) == 0);
        CHECK_INT_EQ(feeders[i].status, DL_OK);
    }
    /* sum over i of (5000 * base_i + 0 + ... + 4999) */
    CHECK_INT_EQ(atomic_load(&sum_b), 5000 * (0 + 100000 + 200000) + 3 * (4999 * 5000 / 2));
    dl_pool_free(pool);
}

TEST(test_pool_repeated_create_and_free_leaks_nothing) {
    dl_error err;
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, 0, false);
    for (int round = 0; round < 40; round++) {
        dl_pool *pool = NULL;
        CHECK_OK(dl_pool_new(round % 5, &fa.base, &pool, &err), &err);
        dl_pool_group group;
        dl_pool_group_init(&group, pool);
        atomic_store(&sum, 0);
        for (int i = 0; i < 200; i++) {
            CHECK_OK(dl_pool_submit(&group, add_index, (void *)(intptr_t)i, &err), &err);
        }
        CHECK_OK(dl_pool_group_wait(&group, &err), &err);
        CHECK_INT_EQ(atomic_load(&sum), 199 * 200 / 2);
        dl_pool_free(pool);
        CHECK_INT_EQ(fa.live_blocks, 0);
        CHECK_INT_EQ(fa.live_bytes, 0);
    }
    dl_pool_free(NULL);
}

TEST(test_pool_steady_state_reuses_task_nodes) {
    dl_error err;
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, 0, false);
    dl_pool *pool = NULL;
    CHECK_OK(dl_pool_new(2, &fa.base, &pool, &err), &err);
    dl_pool_group group;
    dl_pool_group_init(&group, pool);
    for (int i = 0; i < 32; i++) {
        CHECK_OK(dl_pool_submit(&group, add_index, NULL, &err), &err);
    }
    CHECK_OK(dl_pool_group_wait(&group, &err), &err);
    int64_t requests = fa.n_requests;
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < 32; i++) {
            CHECK_OK(dl_pool_submit(&group, add_index, NULL, &err), &err);
        }
        CHECK_OK(dl_pool_group_wait(&group, &err), &err);
    }
    CHECK_INT_EQ(fa.n_requests, requests);
    dl_pool_free(pool);
    CHECK_INT_EQ(fa.live_blocks, 0);
}

TEST(test_pool_out_of_memory_is_clean) {
    dl_error err;
    /* every allocation of pool creation, in turn */
    for (int fail_at = 1; fail_at <= 2; fail_at++) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, fail_at, true);
        dl_pool *pool = NULL;
        CHECK_STATUS(dl_pool_new(3, &fa.base, &pool, &err), DL_ERR_NOMEM, &err);
        CHECK(pool == NULL);
        CHECK_INT_EQ(fa.live_blocks, 0);
    }
    /* the first task node chunk */
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, 3, true);
    dl_pool *pool = NULL;
    CHECK_OK(dl_pool_new(2, &fa.base, &pool, &err), &err);
    dl_pool_group group;
    dl_pool_group_init(&group, pool);
    CHECK_STATUS(dl_pool_submit(&group, add_index, NULL, &err), DL_ERR_NOMEM, &err);
    CHECK_ERR_CONTAINS(&err, "out of memory queueing a pool task");
    CHECK_OK(dl_pool_group_wait(&group, &err), &err);
    dl_pool_free(pool);
    CHECK_INT_EQ(fa.live_blocks, 0);
}

TEST(test_pool_rejects_bad_worker_counts) {
    dl_error err;
    dl_pool *pool = NULL;
    CHECK_STATUS(dl_pool_new(-1, NULL, &pool, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "a pool needs 0 to 1024 workers, not -1");
    CHECK_STATUS(dl_pool_new(DL_POOL_MAX_WORKERS + 1, NULL, &pool, &err), DL_ERR_INVALID_ARG, &err);
    CHECK(dl_pool_default_n_workers() >= 1);
}

int
main(void) {
    RUN(test_pool_sums_10000_tiny_tasks_on_2_and_4_workers);
    RUN(test_pool_zero_workers_runs_tasks_inline_at_submit);
    RUN(test_pool_nested_group_wait_does_not_deadlock);
    RUN(test_pool_first_error_wins_and_the_others_are_counted);
    RUN(test_pool_task_failing_without_message_gets_one);
    RUN(test_pool_has_failed_is_visible_before_wait);
    RUN(test_pool_groups_from_several_threads_complete_independently);
    RUN(test_pool_repeated_create_and_free_leaks_nothing);
    RUN(test_pool_steady_state_reuses_task_nodes);
    RUN(test_pool_out_of_memory_is_clean);
    RUN(test_pool_rejects_bad_worker_counts);
    return harness_finish();
}
