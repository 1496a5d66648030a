/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sorter (sql_op_sort_int.h): collecting a child's rows into per-thread runs (a row store
 * and the rows' normalized-key entries), sorting each run's entries in parallel, and merging
 * the runs: the merge hands out (run, row) pairs, which the consumer gathers from the row
 * stores. Rows never move.
 */
#include <string.h>

#include "sql/exec/sql_op_sort_int.h"

/* What a full key comparison reads: the stores of the runs and where keys are stored. */
typedef struct store_keys {
    const dl_sql_rowstore *const *stores;
    const int32_t *key_col;
} store_keys;

static int
full_from_stores(const void *ctx, int32_t key, uint64_t a, uint64_t b, int *out_nulls) {
    const store_keys *sk = ctx;
    return dl_sql_rowstore_compare(sk->stores[DL_SQL_REF_RUN(a)], DL_SQL_REF_ROW(a),
                                   sk->stores[DL_SQL_REF_RUN(b)], DL_SQL_REF_ROW(b),
                                   sk->key_col[key], out_nulls);
}

dl_status
dl_sql_sorter_init(dl_sql_sorter *s, dl_sql_exec_ctx *exec, const dl_type *child_schema,
                   const dl_sql_sort_key *keys, int32_t n_keys, dl_error *err) {
    memset(s, 0, sizeof(*s));
    s->exec = exec;
    s->keys = keys;
    s->n_keys = n_keys;
    s->n_cols = child_schema->n_fields;
    dl_arena *arena = exec->arena;
    size_t nk = (size_t)DL_MAX(n_keys, 1);
    s->key_col = dl_arena_alloc_zero(arena, nk * sizeof(int32_t));
    const dl_type **col_types = dl_arena_alloc_zero(arena, (s->n_cols + nk) * sizeof(dl_type *));
    const dl_type **key_types = dl_arena_alloc_zero(arena, nk * sizeof(dl_type *));
    store_keys *sk = dl_arena_alloc_zero(arena, sizeof(*sk));
    DL_CHECK(s->key_col != NULL && col_types != NULL && key_types != NULL && sk != NULL, err,
             DL_ERR_NOMEM, "out of memory preparing a sort");
    for (int32_t c = 0; c < s->n_cols; c++) {
        col_types[c] = child_schema->fields[c].type;
    }
    for (int32_t j = 0; j < n_keys; j++) {
        const dl_sql_bexpr *e = keys[j].expr;
        key_types[j] = e->type;
        if (e->kind == DL_SQL_BEXPR_COLUMN) {
            s->key_col[j] = e->index;
        } else {
            s->key_col[j] = s->n_cols + s->n_extra;
            col_types[s->n_cols + s->n_extra++] = e->type;
        }
    }
    DL_TRY(dl_sql_rowlayout_init(&s->rowlay, arena, col_types, s->n_cols + s->n_extra, err));
    DL_TRY(dl_sql_sort_layout_init(&s->lay, arena, keys, key_types, n_keys, err));
    sk->key_col = s->key_col;
    s->cmp = (dl_sql_sort_cmp){.lay = &s->lay, .full = full_from_stores, .ctx = sk};
    s->cmp_ctx = sk;
    return DL_OK;
}

static void
run_destroy(dl_sql_sorter *s, dl_sql_sort_run *run) {
    dl_sql_rowstore_destroy(&run->rows);
    dl_mem_free(s->exec->alloc, run->entries,
                (size_t)run->cap_entries * (size_t)s->lay.nw * sizeof(uint64_t));
    memset(run, 0, sizeof(*run));
}

void
dl_sql_sorter_destroy(dl_sql_sorter *s) {
    if (s->exec == NULL) {
        return;
    }
    const dl_allocator *alloc = s->exec->alloc;
    for (int32_t r = 0; r < s->n_runs; r++) {
        run_destroy(s, &s->runs[r]);
    }
    dl_mem_free(alloc, s->runs, (size_t)s->cap_runs * sizeof(dl_sql_sort_run));
    dl_mem_free(alloc, s->stores, (size_t)s->cap_runs * sizeof(void *));
    dl_mem_free(alloc, s->heap, (size_t)s->cap_runs * sizeof(int32_t));
    s->runs = NULL;
    s->n_runs = 0;
    s->cap_runs = 0;
}

dl_status
dl_sql_entries_reserve(const dl_allocator *alloc, int32_t nw, uint64_t **entries, int64_t *cap,
                       int64_t n, dl_error *err) {
    if (n <= *cap) {
        return DL_OK;
    }
    int64_t grown_cap = DL_MAX(n, DL_MAX(*cap * 2, DL_BATCH_CAPACITY));
    size_t wb = (size_t)nw * sizeof(uint64_t);
    uint64_t *grown = dl_mem_realloc(alloc, *entries, (size_t)*cap * wb, (size_t)grown_cap * wb);
    DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory sorting %lld rows", (long long)n);
    *entries = grown;
    *cap = grown_cap;
    return DL_OK;
}

/* Moves run (taken over) to the sorter's list. */
static dl_status
add_run(dl_sql_sorter *s, dl_sql_sort_run *run, dl_error *err) {
    if (s->n_runs == s->cap_runs) {
        const dl_allocator *alloc = s->exec->alloc;
        int32_t cap = s->cap_runs == 0 ? 4 : s->cap_runs * 2;
        dl_sql_sort_run *runs = dl_mem_alloc_zero(alloc, (size_t)cap * sizeof(*runs));
        const dl_sql_rowstore **stores = dl_mem_alloc_zero(alloc, (size_t)cap * sizeof(void *));
        int32_t *heap = dl_mem_alloc_zero(alloc, (size_t)cap * sizeof(int32_t));
        if (runs == NULL || stores == NULL || heap == NULL) {
            dl_mem_free(alloc, runs, (size_t)cap * sizeof(*runs));
            dl_mem_free(alloc, stores, (size_t)cap * sizeof(void *));
            dl_mem_free(alloc, heap, (size_t)cap * sizeof(int32_t));
            DL_FAIL(err, DL_ERR_NOMEM, "out of memory collecting sort runs");
        }
        if (s->n_runs > 0) {
            memcpy(runs, s->runs, (size_t)s->n_runs * sizeof(*runs));
        }
        dl_mem_free(alloc, s->runs, (size_t)s->cap_runs * sizeof(*runs));
        dl_mem_free(alloc, s->stores, (size_t)s->cap_runs * sizeof(void *));
        dl_mem_free(alloc, s->heap, (size_t)s->cap_runs * sizeof(int32_t));
        s->runs = runs;
        s->stores = stores;
        s->heap = heap;
        s->cap_runs = cap;
    }
    s->runs[s->n_runs++] = *run;
    memset(run, 0, sizeof(*run));
    for (int32_t r = 0; r < s->n_runs; r++) {
        s->stores[r] = &s->runs[r].rows;
    }
    ((store_keys *)s->cmp_ctx)->stores = s->stores;
    return DL_OK;
}

/* ---- draining ------------------------------------------------------------------------------ */

typedef struct sort_sink_local {
    dl_sql_sort_run run;
    dl_sql_eval **evals;  /* one per key */
    dl_vector **key_vecs; /* one per key, this batch */
    dl_vector **extra;    /* the extra key columns' vectors, this batch */
} sort_sink_local;

static void
sort_sink_local_free(void *ctx, void *local) {
    dl_sql_sorter *s = ctx;
    sort_sink_local *l = local;
    size_t nk = (size_t)DL_MAX(s->n_keys, 1);
    if (l->evals != NULL) {
        for (int32_t j = 0; j < s->n_keys; j++) {
            dl_sql_eval_free(l->evals[j]);
        }
    }
    dl_mem_free(s->exec->alloc, l->evals, nk * sizeof(void *));
    dl_mem_free(s->exec->alloc, l->key_vecs, nk * sizeof(void *));
    dl_mem_free(s->exec->alloc, l->extra, nk * sizeof(void *));
    run_destroy(s, &l->run);
    dl_mem_free(s->exec->alloc, l, sizeof(*l));
}

static dl_status
sort_sink_local_new(void *ctx, void **out, dl_error *err) {
    dl_sql_sorter *s = ctx;
    const dl_allocator *alloc = s->exec->alloc;
    sort_sink_local *l = dl_mem_alloc_zero(alloc, sizeof(*l));
    DL_CHECK(l != NULL, err, DL_ERR_NOMEM, "out of memory starting a sort");
    *out = l;
    size_t nk = (size_t)DL_MAX(s->n_keys, 1);
    l->evals = dl_mem_alloc_zero(alloc, nk * sizeof(void *));
    l->key_vecs = dl_mem_alloc_zero(alloc, nk * sizeof(void *));
    l->extra = dl_mem_alloc_zero(alloc, nk * sizeof(void *));
    DL_CHECK(l->evals != NULL && l->key_vecs != NULL && l->extra != NULL, err, DL_ERR_NOMEM,
             "out of memory starting a sort");
    for (int32_t j = 0; j < s->n_keys; j++) {
        DL_TRY(dl_sql_eval_new(s->exec, s->keys[j].expr, &l->evals[j], err));
    }
    return dl_sql_rowstore_init(&l->run.rows, &s->rowlay, alloc, err);
}

dl_status
dl_sql_sorter_eval_keys(dl_sql_sorter *s, dl_sql_eval **evals, const dl_batch *batch,
                        dl_vector **key_vecs, dl_vector **extra, dl_error *err) {
    int32_t e = 0;
    for (int32_t j = 0; j < s->n_keys; j++) {
        dl_status st = dl_sql_eval_run(evals[j], batch, &key_vecs[j], err);
        if (st != DL_OK) {
            dl_sql_sorter_release_keys(s, key_vecs);
            return st;
        }
        if (s->key_col[j] >= s->n_cols) {
            extra[e++] = key_vecs[j];
        }
    }
    return DL_OK;
}

void
dl_sql_sorter_release_keys(dl_sql_sorter *s, dl_vector **key_vecs) {
    for (int32_t j = 0; j < s->n_keys; j++) {
        dl_vec_unref(key_vecs[j]);
        key_vecs[j] = NULL;
    }
}

static dl_status
sort_sink(void *ctx, void *local, dl_batch *batch, dl_error *err) {
    dl_sql_sorter *s = ctx;
    sort_sink_local *l = local;
    dl_sql_sort_run *run = &l->run;
    int64_t base = run->rows.count;
    DL_TRY(dl_sql_sorter_eval_keys(s, l->evals, batch, l->key_vecs, l->extra, err));
    dl_status st = dl_sql_entries_reserve(s->exec->alloc, s->lay.nw, &run->entries,
                                          &run->cap_entries, base + batch->count, err);
    if (st == DL_OK) {
        st = dl_sql_rowstore_append(&run->rows, batch, NULL, batch->count, l->extra, NULL,
                                    s->n_extra, err);
    }
    if (st == DL_OK) {
        dl_sql_sort_encode(&s->lay, l->key_vecs, batch->count, run->entries + base * s->lay.nw,
                           DL_SQL_ROW_REF(0, base));
    }
    dl_sql_sorter_release_keys(s, l->key_vecs);
    return st;
}

static dl_status
sort_sink_combine(void *ctx, void *local, dl_error *err) {
    dl_sql_sorter *s = ctx;
    sort_sink_local *l = local;
    if (l->run.rows.count == 0) {
        return DL_OK;
    }
    s->total += l->run.rows.count;
    return add_run(s, &l->run, err);
}

dl_status
dl_sql_sorter_drain(dl_sql_sorter *s, dl_sql_operator *child, dl_error *err) {
    static const dl_sql_sink sink = {
        .local_new = sort_sink_local_new,
        .sink = sort_sink,
        .combine = sort_sink_combine,
        .local_free = sort_sink_local_free,
    };
    return dl_sql_op_drain(child, &sink, s, err);
}

/* ---- sorting runs -------------------------------------------------------------------------- */

typedef struct sort_task {
    dl_sql_sorter *s;
    int32_t run;
} sort_task;

static dl_status
sort_one_run(void *arg, dl_error *err) {
    (void)err;
    sort_task *t = arg;
    dl_sql_sorter *s = t->s;
    dl_sql_sort_run *run = &s->runs[t->run];
    /* References carry run 0 while sorting: compare through this run's store only. */
    store_keys sk = {.stores = &s->stores[t->run], .key_col = s->key_col};
    dl_sql_sort_cmp cmp = {.lay = &s->lay, .full = full_from_stores, .ctx = &sk};
    dl_sql_sort_entries(&cmp, run->entries, run->rows.count);
    int32_t nw = s->lay.nw;
    for (int64_t i = 0; i < run->rows.count; i++) {
        uint64_t *e = run->entries + i * nw;
        uint32_t row = DL_SQL_REF_ROW(dl_sql_entry_ref(&s->lay, e));
        dl_sql_entry_set_ref(&s->lay, e, DL_SQL_ROW_REF(t->run, row));
    }
    return DL_OK;
}

static dl_status
run_tasks(dl_sql_sorter *s, sort_task *tasks, dl_error *err) {
    dl_status st = DL_OK;
    if (s->exec->pool == NULL || s->n_runs <= 1) {
        for (int32_t r = 0; r < s->n_runs && st == DL_OK; r++) {
            st = sort_one_run(&tasks[r], err);
        }
        return st;
    }
    dl_pool_group group;
    dl_pool_group_init(&group, s->exec->pool);
    for (int32_t r = 0; r < s->n_runs && st == DL_OK; r++) {
        st = dl_pool_submit(&group, sort_one_run, &tasks[r], err);
    }
    dl_error wait_err;
    dl_error_clear(&wait_err);
    dl_status ws = dl_pool_group_wait(&group, &wait_err);
    if (st == DL_OK && ws != DL_OK) {
        st = ws;
        if (err != NULL) {
            *err = wait_err;
        }
    }
    return st;
}

static inline const uint64_t *
run_head(const dl_sql_sorter *s, int32_t r) {
    const dl_sql_sort_run *run = &s->runs[r];
    return run->entries + run->pos * s->lay.nw;
}

static void
heap_sift_down(dl_sql_sorter *s, int32_t i) {
    int32_t *h = s->heap;
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= s->n_heap) {
            return;
        }
        if (c + 1 < s->n_heap &&
            dl_sql_sort_compare(&s->cmp, run_head(s, h[c + 1]), run_head(s, h[c])) < 0) {
            c++;
        }
        if (dl_sql_sort_compare(&s->cmp, run_head(s, h[i]), run_head(s, h[c])) <= 0) {
            return;
        }
        int32_t t = h[i];
        h[i] = h[c];
        h[c] = t;
        i = c;
    }
}

dl_status
dl_sql_sorter_sort(dl_sql_sorter *s, dl_error *err) {
    size_t bytes = (size_t)DL_MAX(s->n_runs, 1) * sizeof(sort_task);
    sort_task *tasks = dl_mem_alloc_zero(s->exec->alloc, bytes);
    DL_CHECK(tasks != NULL, err, DL_ERR_NOMEM, "out of memory sorting");
    for (int32_t r = 0; r < s->n_runs; r++) {
        tasks[r] = (sort_task){.s = s, .run = r};
    }
    dl_status st = run_tasks(s, tasks, err);
    dl_mem_free(s->exec->alloc, tasks, bytes);
    DL_TRY(st);
    for (int32_t r = 0; r < s->n_runs; r++) {
        s->runs[r].pos = 0;
        s->heap[r] = r;
    }
    s->n_heap = s->n_runs;
    for (int32_t i = s->n_heap / 2 - 1; i >= 0; i--) {
        heap_sift_down(s, i);
    }
    return DL_OK;
}

/* ---- merging ------------------------------------------------------------------------------- */

void
dl_sql_sorter_merge(dl_sql_sorter *s, uint32_t *runs, uint32_t *rows, int64_t max, int64_t *out_n) {
    int64_t n = 0;
    while (n < max && s->n_heap > 0) {
        int32_t r = s->heap[0];
        dl_sql_sort_run *run = &s->runs[r];
        /* Take from the top run until another run's head is smaller. */
        int64_t stop = run->rows.count;
        if (s->n_heap == 1) {
            stop = DL_MIN(stop, run->pos + (max - n));
        }
        do {
            runs[n] = (uint32_t)r;
            rows[n++] = DL_SQL_REF_ROW(dl_sql_entry_ref(&s->lay, run_head(s, r)));
            run->pos++;
        } while (s->n_heap == 1 && run->pos < stop);
        if (run->pos == run->rows.count) {
            s->heap[0] = s->heap[--s->n_heap];
        }
        heap_sift_down(s, 0);
    }
    *out_n = n;
}

void
dl_sql_sorter_skip(dl_sql_sorter *s, int64_t n) {
    uint32_t runs[DL_BATCH_CAPACITY];
    uint32_t rows[DL_BATCH_CAPACITY];
    while (n > 0) {
        int64_t got;
        dl_sql_sorter_merge(s, runs, rows, DL_MIN(n, DL_BATCH_CAPACITY), &got);
        if (got == 0) {
            return;
        }
        n -= got;
    }
}
