/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The thread pool (see pool.h).
 *
 * Queues. Every queued task sits on two lists at once: the pool's queue of all queued tasks
 * (doubly linked, oldest first), which workers take from the front, and its group's list
 * (singly linked, oldest first), which a waiting thread takes from to help. Both lists are in
 * submission order, so the pool's oldest task is always the oldest of its group too: a worker
 * pops the head of both lists, a helper pops its group's head and unlinks it from the middle of
 * the pool's queue. Both are O(1).
 *
 * Sleeping. Workers sleep on work_cv, signalled once per queued task. Waiters sleep on
 * done_cv, broadcast when a group they wait for finishes its last task or gets a new queued
 * task (a running task of the group may submit more). n_waiters keeps both broadcasts away
 * from the common case where nobody waits.
 *
 * Lifetime. A group lives in its waiter's storage: after the last task's result is recorded
 * and the lock released, the pool never touches the group again, so the waiter may return
 * and drop it.
 */
#include "base/pool.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define TASKS_PER_CHUNK 64

struct dl_pool_task {
    dl_pool_fn fn;
    void *arg;
    dl_pool_group *group;
    dl_pool_task *prev;       /* pool queue */
    dl_pool_task *next;       /* pool queue */
    dl_pool_task *group_next; /* group's queued list, or the free list */
};

typedef struct task_chunk {
    struct task_chunk *next;
    dl_pool_task tasks[TASKS_PER_CHUNK];
} task_chunk;

struct dl_pool {
    const dl_allocator *alloc;
    pthread_mutex_t mu;
    pthread_cond_t work_cv; /* a task was queued, or the pool is stopping */
    pthread_cond_t done_cv; /* a waited-for group finished or got a queued task */
    dl_pool_task *head;     /* all queued tasks, oldest first */
    dl_pool_task *tail;
    dl_pool_task *free_list;
    task_chunk *chunks;
    bool is_stopping;
    int n_workers;
    int n_started;
    pthread_t *threads;
};

/* ---- queues (all under pool->mu) ------------------------------------------------------ */

static dl_pool_task *
take_node_locked(dl_pool *pool) {
    if (pool->free_list == NULL) {
        task_chunk *chunk = dl_mem_alloc(pool->alloc, sizeof(task_chunk));
        if (chunk == NULL) {
            return NULL;
        }
        chunk->next = pool->chunks;
        pool->chunks = chunk;
        for (int i = 0; i < TASKS_PER_CHUNK; i++) {
            chunk->tasks[i].group_next = pool->free_list;
            pool->free_list = &chunk->tasks[i];
        }
    }
    dl_pool_task *t = pool->free_list;
    pool->free_list = t->group_next;
    return t;
}

static void
release_node_locked(dl_pool *pool, dl_pool_task *t) {
    t->group_next = pool->free_list;
    pool->free_list = t;
}

static void
enqueue_locked(dl_pool *pool, dl_pool_task *t) {
    t->next = NULL;
    t->prev = pool->tail;
    if (pool->tail != NULL) {
        pool->tail->next = t;
    } else {
        pool->head = t;
    }
    pool->tail = t;
    dl_pool_group *g = t->group;
    t->group_next = NULL;
    if (g->queued_tail != NULL) {
        g->queued_tail->group_next = t;
    } else {
        g->queued_head = t;
    }
    g->queued_tail = t;
}

static void
unlink_from_queue_locked(dl_pool *pool, dl_pool_task *t) {
    if (t->prev != NULL) {
        t->prev->next = t->next;
    } else {
        pool->head = t->next;
    }
    if (t->next != NULL) {
        t->next->prev = t->prev;
    } else {
        pool->tail = t->prev;
    }
}

/* Removes the oldest task of group g from both lists. Assumes: g has a queued task. */
static dl_pool_task *
dequeue_group_head_locked(dl_pool *pool, dl_pool_group *g) {
    dl_pool_task *t = g->queued_head;
    g->queued_head = t->group_next;
    if (g->queued_head == NULL) {
        g->queued_tail = NULL;
    }
    unlink_from_queue_locked(pool, t);
    return t;
}

/* ---- running ------------------------------------------------------------------------- */

/* Records a finished task's result in its group. */
static void
finish_locked(dl_pool *pool, dl_pool_group *g, dl_status status, const dl_error *task_err) {
    if (status != DL_OK) {
        if (g->n_errors == 0) {
            g->first_error = *task_err;
            g->first_error.code = status;
            if (g->first_error.msg[0] == '\0') {
                (void)snprintf(g->first_error.msg, sizeof(g->first_error.msg),
                               "a pool task failed with %s and no message", dl_status_name(status));
            }
        }
        g->n_errors++;
    }
    g->n_pending--;
    if (g->n_pending == 0 && g->n_waiters > 0) {
        pthread_cond_broadcast(&pool->done_cv);
    }
}

/* Runs fn(arg) with the lock released and records its result; the lock is held on entry and
 * on return. */
static void
run_unlocked(dl_pool *pool, dl_pool_group *g, dl_pool_fn fn, void *arg) {
    pthread_mutex_unlock(&pool->mu);
    dl_error task_err;
    dl_error_clear(&task_err);
    dl_status status = fn(arg, &task_err);
    pthread_mutex_lock(&pool->mu);
    finish_locked(pool, g, status, &task_err);
}

/* Runs queued task t (already off both lists); lock held on entry and return. */
static void
run_task_locked(dl_pool *pool, dl_pool_task *t) {
    dl_pool_fn fn = t->fn;
    void *arg = t->arg;
    dl_pool_group *g = t->group;
    release_node_locked(pool, t);
    run_unlocked(pool, g, fn, arg);
}

static void *
worker_main(void *ctx) {
    dl_pool *pool = ctx;
    pthread_mutex_lock(&pool->mu);
    for (;;) {
        while (pool->head == NULL && !pool->is_stopping) {
            pthread_cond_wait(&pool->work_cv, &pool->mu);
        }
        if (pool->head == NULL) {
            break; /* stopping, and nothing left to run */
        }
        /* The pool's oldest task is the oldest of its group (see the top of this file). */
        dl_pool_group *g = pool->head->group;
        DL_ASSERT(g->queued_head == pool->head);
        run_task_locked(pool, dequeue_group_head_locked(pool, g));
    }
    pthread_mutex_unlock(&pool->mu);
    return NULL;
}

/* ---- lifecycle ----------------------------------------------------------------------- */

int
dl_pool_default_n_workers(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) {
        return 1;
    }
    return n > DL_POOL_MAX_WORKERS ? DL_POOL_MAX_WORKERS : (int)n;
}

/* Stops and joins the started workers and releases everything. */
static void
pool_teardown(dl_pool *pool) {
    pthread_mutex_lock(&pool->mu);
    pool->is_stopping = true;
    pthread_cond_broadcast(&pool->work_cv);
    pthread_mutex_unlock(&pool->mu);
    for (int i = 0; i < pool->n_started; i++) {
        pthread_join(pool->threads[i], NULL);
    }
    while (pool->chunks != NULL) {
        task_chunk *next = pool->chunks->next;
        dl_mem_free(pool->alloc, pool->chunks, sizeof(task_chunk));
        pool->chunks = next;
    }
    if (pool->threads != NULL) {
        dl_mem_free(pool->alloc, pool->threads, (size_t)pool->n_workers * sizeof(pthread_t));
    }
    pthread_cond_destroy(&pool->done_cv);
    pthread_cond_destroy(&pool->work_cv);
    pthread_mutex_destroy(&pool->mu);
    dl_mem_free(pool->alloc, pool, sizeof(dl_pool));
}

/* Initialises the lock and condition variables; on failure nothing is left to destroy. */
static dl_status
init_sync(dl_pool *pool, dl_error *err) {
    int rc = pthread_mutex_init(&pool->mu, NULL);
    if (rc != 0) {
        return dl_error_set_errno(err, DL_ERR_NOMEM, rc, "cannot create the pool's mutex");
    }
    rc = pthread_cond_init(&pool->work_cv, NULL);
    if (rc != 0) {
        pthread_mutex_destroy(&pool->mu);
        return dl_error_set_errno(err, DL_ERR_NOMEM, rc, "cannot create a pool condition");
    }
    rc = pthread_cond_init(&pool->done_cv, NULL);
    if (rc != 0) {
        pthread_cond_destroy(&pool->work_cv);
        pthread_mutex_destroy(&pool->mu);
        return dl_error_set_errno(err, DL_ERR_NOMEM, rc, "cannot create a pool condition");
    }
    return DL_OK;
}

dl_status
dl_pool_new(int n_workers, const dl_allocator *alloc, dl_pool **out_pool, dl_error *err) {
    DL_CHECK(n_workers >= 0 && n_workers <= DL_POOL_MAX_WORKERS, err, DL_ERR_INVALID_ARG,
             "a pool needs 0 to %d workers, not %d", DL_POOL_MAX_WORKERS, n_workers);
    dl_pool *pool = dl_mem_alloc_zero(alloc, sizeof(dl_pool));
    DL_CHECK(pool != NULL, err, DL_ERR_NOMEM, "out of memory creating a thread pool");
    pool->alloc = alloc;
    pool->n_workers = n_workers;
    dl_status s = init_sync(pool, err);
    if (s != DL_OK) {
        dl_mem_free(alloc, pool, sizeof(dl_pool));
        return s;
    }
    if (n_workers > 0) {
        pool->threads = dl_mem_alloc_array(alloc, (size_t)n_workers, sizeof(pthread_t));
        if (pool->threads == NULL) {
            pool_teardown(pool);
            DL_FAIL(err, DL_ERR_NOMEM, "out of memory creating a pool of %d workers", n_workers);
        }
    }
    for (int i = 0; i < n_workers; i++) {
        int rc = pthread_create(&pool->threads[i], NULL, worker_main, pool);
        if (rc != 0) {
            pool_teardown(pool);
            return dl_error_set_errno(err, DL_ERR_NOMEM, rc, "cannot start worker thread %d of %d",
                                      i + 1, n_workers);
        }
        pool->n_started++;
    }
    *out_pool = pool;
    return DL_OK;
}

void
dl_pool_free(dl_pool *pool) {
    if (pool != NULL) {
        pool_teardown(pool);
    }
}

int
dl_pool_n_workers(const dl_pool *pool) {
    return pool->n_workers;
}

/* ---- groups -------------------------------------------------------------------------- */

void
dl_pool_group_init(dl_pool_group *group, dl_pool *pool) {
    memset(group, 0, sizeof(*group));
    group->pool = pool;
    dl_error_clear(&group->first_error);
}

dl_status
dl_pool_submit(dl_pool_group *group, dl_pool_fn fn, void *arg, dl_error *err) {
    dl_pool *pool = group->pool;
    pthread_mutex_lock(&pool->mu);
    if (pool->n_workers == 0) {
        group->n_pending++;
        run_unlocked(pool, group, fn, arg);
        pthread_mutex_unlock(&pool->mu);
        return DL_OK;
    }
    dl_pool_task *t = take_node_locked(pool);
    if (t == NULL) {
        pthread_mutex_unlock(&pool->mu);
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory queueing a pool task");
    }
    t->fn = fn;
    t->arg = arg;
    t->group = group;
    enqueue_locked(pool, t);
    group->n_pending++;
    pthread_cond_signal(&pool->work_cv);
    if (group->n_waiters > 0) {
        pthread_cond_broadcast(&pool->done_cv);
    }
    pthread_mutex_unlock(&pool->mu);
    return DL_OK;
}

dl_status
dl_pool_group_wait(dl_pool_group *group, dl_error *err) {
    dl_pool *pool = group->pool;
    pthread_mutex_lock(&pool->mu);
    while (group->n_pending > 0) {
        if (group->queued_head != NULL) {
            run_task_locked(pool, dequeue_group_head_locked(pool, group));
            continue;
        }
        group->n_waiters++;
        pthread_cond_wait(&pool->done_cv, &pool->mu);
        group->n_waiters--;
    }
    dl_status status = DL_OK;
    if (group->n_errors > 0) {
        status = group->first_error.code;
        if (err != NULL) {
            *err = group->first_error;
            if (group->n_errors > 1) {
                size_t len = strlen(err->msg);
                (void)snprintf(err->msg + len, sizeof(err->msg) - len,
                               ", and %lld more tasks failed", (long long)(group->n_errors - 1));
            }
        }
        group->n_errors = 0;
        dl_error_clear(&group->first_error);
    }
    pthread_mutex_unlock(&pool->mu);
    return status;
}

bool
dl_pool_group_has_failed(dl_pool_group *group) {
    dl_pool *pool = group->pool;
    pthread_mutex_lock(&pool->mu);
    bool has_failed = group->n_errors > 0;
    pthread_mutex_unlock(&pool->mu);
    return has_failed;
}
