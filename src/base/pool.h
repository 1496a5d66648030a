/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dl_pool: a fixed set of worker threads that run tasks submitted into groups.
 *
 * A task is a function `dl_status fn(void *arg, dl_error *err)`. The caller submits tasks
 * into a group (dl_pool_group, caller storage) and later waits for the group: the wait returns
 * when every task of the group has finished, with the group's first error (by completion time)
 * and a count of the others. A group may be reused after its wait.
 *
 * Waiting never deadlocks on nesting: a thread that waits, worker or not, runs the queued tasks
 * of the group it waits for itself instead of sleeping, so a task may submit a nested group and
 * wait for it even when every worker is busy. It sleeps only while its group's remaining tasks
 * are running on other threads.
 *
 * A pool of 0 workers runs each task inside dl_pool_submit, on the caller's thread, before
 * submit returns: single-threaded builds and deterministic tests use the same code paths.
 *
 * Threads: dl_pool_submit and dl_pool_group_wait may be called from any thread, including
 * tasks. A group must be waited for by one thread at a time. All shared state is guarded by
 * one mutex; task nodes come from a free list, so steady state allocates nothing.
 */
#ifndef DL_BASE_POOL_H
#define DL_BASE_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/error.h"

/* Upper bound on workers per pool (guards against a bad setting, not a tuning knob). */
#define DL_POOL_MAX_WORKERS 1024

typedef struct dl_pool dl_pool;
typedef struct dl_pool_task dl_pool_task;

/* A task: does its work on arg and reports failure through err (a fresh, cleared record). */
typedef dl_status (*dl_pool_fn)(void *arg, dl_error *err);

/* A set of tasks to wait for together. Caller storage; fields are private to pool.c. */
typedef struct dl_pool_group {
    dl_pool *pool;
    int64_t n_pending;         /* submitted and not yet finished */
    int64_t n_errors;          /* tasks that returned non-OK */
    int n_waiters;             /* threads sleeping in dl_pool_group_wait */
    dl_pool_task *queued_head; /* this group's queued tasks, oldest first */
    dl_pool_task *queued_tail;
    dl_error first_error; /* the first failure, when n_errors > 0 */
} dl_pool_group;

/* Starts a pool of n_workers threads (0..DL_POOL_MAX_WORKERS). On success *out_pool owns the
 * threads until dl_pool_free. Fails with INVALID_ARG, NOMEM, or NOMEM with errno when the
 * system refuses a thread (no thread is left running then). */
DL_NODISCARD dl_status dl_pool_new(int n_workers, const dl_allocator *alloc, dl_pool **out_pool,
                                   dl_error *err);

/* Stops and joins the workers and frees the pool. Queued tasks still run first. Assumes: every
 * group has been waited for and no thread still submits. NULL is a no-op. */
void dl_pool_free(dl_pool *pool);

/* Number of worker threads. */
int dl_pool_n_workers(const dl_pool *pool);

/* Number of online processors, at least 1: a sensible n_workers. */
int dl_pool_default_n_workers(void);

/* Prepares an empty group of tasks for pool. */
void dl_pool_group_init(dl_pool_group *group, dl_pool *pool);

/* Queues fn(arg) in group (or, with 0 workers, runs it now). arg must stay valid until the
 * group's wait returns. Fails only with NOMEM (the task is then not queued; tasks submitted
 * before must still be waited for). */
DL_NODISCARD dl_status dl_pool_submit(dl_pool_group *group, dl_pool_fn fn, void *arg,
                                      dl_error *err);

/* Waits until every task of group has finished, running its queued tasks on this thread
 * meanwhile. A task must not wait for its own group (it would wait for itself). Returns DL_OK when
 * all succeeded; otherwise the first failure's status, with its message copied into err and ", and
 * N more tasks failed" appended when others failed too. Leaves the group empty and error-free,
 * ready for reuse. */
DL_NODISCARD dl_status dl_pool_group_wait(dl_pool_group *group, dl_error *err);

/* True once a task of group has failed: long tasks may poll it to stop early. Cheap, but it
 * takes the pool's lock. */
bool dl_pool_group_has_failed(dl_pool_group *group);

#endif /* DL_BASE_POOL_H */
