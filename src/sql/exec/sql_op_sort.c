/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SORT and top-N (DL_SQL_PLAN_SORT, sql_plan.h): ORDER BY with optional LIMIT / OFFSET.
 *
 * A full sort drains its child into per-thread runs (row stores and normalized keys), sorts
 * them in parallel and merges them as it is pulled (sql_op_sort_run.c); each output batch
 * gathers its rows out of the row stores.
 *
 * With a limit, only N = offset + limit rows matter: each thread keeps a bounded max-heap of
 * its N best entries (the worst on top). A batch's rows are first compared with the heap's
 * top as it was before the batch, and only those that beat it (all of them while the heap is
 * not full) are copied into the thread's candidate buffer and pushed; the buffer is compacted
 * to the heap's rows when it grows past 2N + 4096. After the drain the candidates of every
 * thread are sorted together and rows [offset, offset + limit) are output. Above TOPN_MAX the
 * full sort is cheaper, and is used.
 *
 * The output of a full sort is one merged stream, but gathering rows out of the row stores
 * (random reads, a cache miss per row) is the dear part, so it runs ahead on the pool: the
 * merge hands out the (run, row) pairs of OUT_AHEAD batches per thread at once, one task per
 * batch gathers them, and next passes the ready batches on one by one, in order.
 */
#include <string.h>

#include "sql/exec/sql_op_sort_int.h"

#define TOPN_MAX   (INT64_C(1) << 18)
#define TOPN_SLACK 4096
#define OUT_AHEAD  2 /* batches gathered ahead per thread */

/* One batch of a full sort's output gathered by one task. */
typedef struct out_task {
    const dl_sql_sorter *sorter;
    dl_batch *batch;
    uint32_t *runs; /* DL_BATCH_CAPACITY pairs */
    uint32_t *rows;
    int64_t n;
} out_task;

/* A thread's top-N candidates, kept after the drain: rows and their key columns. */
typedef struct topn_run {
    dl_sql_colbuf rows;
    dl_vector **keys; /* n_keys, pointing into rows.cols */
} topn_run;

typedef struct sort_state {
    dl_sql_sorter sorter;
    int64_t left; /* rows still to output; -1 = all */
    bool is_topn;
    int64_t n_topn; /* N = offset + limit */
    /* top-N: every thread's candidates, then the chosen rows */
    topn_run *truns;
    int32_t n_truns;
    int32_t cap_truns;
    dl_vector ***tkeys; /* tkeys[run] = truns[run].keys, for comparisons */
    dl_vector **srcs;   /* gather scratch: one column of every run */
    dl_sql_sort_cmp tcmp;
    uint64_t *cands;
    int64_t n_cands;
    int64_t cap_cands;
    uint32_t *pick_runs;
    uint32_t *pick_rows;
    int64_t n_picks;
    int64_t pos_picks;
    /* full sort: batches gathered ahead */
    out_task *ahead;
    int32_t n_ahead; /* slots: batches and pairs */
    int32_t n_ready;
    int32_t pos_ready;
    uint32_t *pair_runs; /* n_ahead * DL_BATCH_CAPACITY */
    uint32_t *pair_rows;
} sort_state;

/* ---- top-N sink ---------------------------------------------------------------------------- */

typedef struct topn_local {
    topn_run run;   /* candidate rows */
    uint64_t *heap; /* n_heap entries, the worst on top */
    int64_t n_heap;
    int64_t cap_heap;
    dl_sql_eval **evals;
    dl_vector **key_vecs;
    dl_vector **extra;
    uint64_t *scratch;       /* this batch's entries */
    dl_vector **cmp_keys[2]; /* run 0: the candidates, run 1: this batch */
    dl_sql_sort_cmp cmp;
    uint32_t cand[DL_BATCH_CAPACITY];
    uint32_t phys[DL_BATCH_CAPACITY];
} topn_local;

static void
topn_run_destroy(const dl_sql_sorter *s, topn_run *run) {
    dl_sql_colbuf_destroy(&run->rows);
    if (run->keys != NULL) {
        dl_mem_free(s->exec->alloc, run->keys, (size_t)DL_MAX(s->n_keys, 1) * sizeof(void *));
    }
    run->keys = NULL;
}

static void
topn_run_refresh(const dl_sql_sorter *s, topn_run *run) {
    for (int32_t j = 0; j < s->n_keys; j++) {
        run->keys[j] = run->rows.cols[s->key_col[j]];
    }
}

static void
topn_local_free(void *ctx, void *local) {
    sort_state *st = ctx;
    dl_sql_sorter *s = &st->sorter;
    topn_local *l = local;
    const dl_allocator *alloc = s->exec->alloc;
    size_t nk = (size_t)DL_MAX(s->n_keys, 1);
    size_t wb = (size_t)s->lay.nw * sizeof(uint64_t);
    if (l->evals != NULL) {
        for (int32_t j = 0; j < s->n_keys; j++) {
            dl_sql_eval_free(l->evals[j]);
        }
    }
    dl_mem_free(alloc, l->evals, nk * sizeof(void *));
    dl_mem_free(alloc, l->key_vecs, nk * sizeof(void *));
    dl_mem_free(alloc, l->extra, nk * sizeof(void *));
    dl_mem_free(alloc, l->scratch, (size_t)DL_BATCH_CAPACITY * wb);
    dl_mem_free(alloc, l->heap, (size_t)l->cap_heap * wb);
    topn_run_destroy(s, &l->run);
    dl_mem_free(alloc, l, sizeof(*l));
}

static dl_status
topn_local_new(void *ctx, void **out, dl_error *err) {
    sort_state *st = ctx;
    dl_sql_sorter *s = &st->sorter;
    const dl_allocator *alloc = s->exec->alloc;
    topn_local *l = dl_mem_alloc_zero(alloc, sizeof(*l));
    DL_CHECK(l != NULL, err, DL_ERR_NOMEM, "out of memory starting a top-N");
    *out = l;
    size_t nk = (size_t)DL_MAX(s->n_keys, 1);
    l->evals = dl_mem_alloc_zero(alloc, nk * sizeof(void *));
    l->key_vecs = dl_mem_alloc_zero(alloc, nk * sizeof(void *));
    l->extra = dl_mem_alloc_zero(alloc, nk * sizeof(void *));
    l->run.keys = dl_mem_alloc_zero(alloc, nk * sizeof(void *));
    l->scratch =
        dl_mem_alloc(alloc, (size_t)DL_BATCH_CAPACITY * (size_t)s->lay.nw * sizeof(uint64_t));
    DL_CHECK(l->evals != NULL && l->key_vecs != NULL && l->extra != NULL && l->run.keys != NULL &&
                 l->scratch != NULL,
             err, DL_ERR_NOMEM, "out of memory starting a top-N");
    for (int32_t j = 0; j < s->n_keys; j++) {
        DL_TRY(dl_sql_eval_new(s->exec, s->keys[j].expr, &l->evals[j], err));
    }
    DL_TRY(dl_sql_colbuf_init(&l->run.rows, alloc, s->rowlay.types, s->rowlay.n_cols, err));
    topn_run_refresh(s, &l->run);
    DL_TRY(dl_sql_entries_reserve(alloc, s->lay.nw, &l->heap, &l->cap_heap, st->n_topn, err));
    l->cmp_keys[0] = l->run.keys;
    l->cmp_keys[1] = l->key_vecs;
    l->cmp = (dl_sql_sort_cmp){
        .lay = &s->lay, .full = dl_sql_sort_full_vectors, .ctx = (const void *)l->cmp_keys};
    return DL_OK;
}

static void
heap_up(const dl_sql_sort_cmp *cmp, uint64_t *h, int64_t i) {
    int32_t nw = cmp->lay->nw;
    uint64_t tmp[DL_SQL_SORT_KEY_MAX / 8 + 2];
    memcpy(tmp, h + i * nw, (size_t)nw * sizeof(uint64_t));
    while (i > 0) {
        int64_t parent = (i - 1) / 2;
        if (dl_sql_sort_compare(cmp, h + parent * nw, tmp) >= 0) {
            break;
        }
        memcpy(h + i * nw, h + parent * nw, (size_t)nw * sizeof(uint64_t));
        i = parent;
    }
    memcpy(h + i * nw, tmp, (size_t)nw * sizeof(uint64_t));
}

static void
heap_down(const dl_sql_sort_cmp *cmp, uint64_t *h, int64_t n) {
    int32_t nw = cmp->lay->nw;
    uint64_t tmp[DL_SQL_SORT_KEY_MAX / 8 + 2];
    memcpy(tmp, h, (size_t)nw * sizeof(uint64_t));
    int64_t i = 0;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= n) {
            break;
        }
        if (c + 1 < n && dl_sql_sort_compare(cmp, h + (c + 1) * nw, h + c * nw) > 0) {
            c++;
        }
        if (dl_sql_sort_compare(cmp, h + c * nw, tmp) <= 0) {
            break;
        }
        memcpy(h + i * nw, h + c * nw, (size_t)nw * sizeof(uint64_t));
        i = c;
    }
    memcpy(h + i * nw, tmp, (size_t)nw * sizeof(uint64_t));
}

/* Keeps only the heap's rows in the candidate buffer. */
static dl_status
topn_compact(dl_sql_sorter *s, topn_local *l, dl_error *err) {
    const dl_sql_sort_layout *lay = &s->lay;
    size_t bytes = (size_t)DL_MAX(l->n_heap, 1) * sizeof(uint32_t);
    uint32_t *perm = dl_mem_alloc(s->exec->alloc, bytes);
    DL_CHECK(perm != NULL, err, DL_ERR_NOMEM, "out of memory in a top-N");
    for (int64_t i = 0; i < l->n_heap; i++) {
        uint64_t *e = l->heap + i * lay->nw;
        perm[i] = DL_SQL_REF_ROW(dl_sql_entry_ref(lay, e));
        dl_sql_entry_set_ref(lay, e, DL_SQL_ROW_REF(0, i));
    }
    dl_status st = dl_sql_colbuf_permute(&l->run.rows, perm, l->n_heap, err);
    dl_mem_free(s->exec->alloc, perm, bytes);
    topn_run_refresh(s, &l->run);
    return st;
}

/* Pushes the candidates (already in the buffer from row base on) into the heap. */
static void
topn_push(sort_state *st, topn_local *l, int64_t n_cand, int64_t base) {
    const dl_sql_sort_layout *lay = &st->sorter.lay;
    int32_t nw = lay->nw;
    for (int64_t i = 0; i < n_cand; i++) {
        uint64_t *e = l->scratch + (int64_t)l->cand[i] * nw;
        dl_sql_entry_set_ref(lay, e, DL_SQL_ROW_REF(0, base + i));
        if (l->n_heap < st->n_topn) {
            memcpy(l->heap + l->n_heap * nw, e, (size_t)nw * sizeof(uint64_t));
            heap_up(&l->cmp, l->heap, l->n_heap++);
        } else if (dl_sql_sort_compare(&l->cmp, e, l->heap) < 0) {
            memcpy(l->heap, e, (size_t)nw * sizeof(uint64_t));
            heap_down(&l->cmp, l->heap, l->n_heap);
        }
    }
}

static dl_status
topn_sink_batch(sort_state *st, topn_local *l, dl_batch *batch, dl_error *err) {
    dl_sql_sorter *s = &st->sorter;
    int32_t nw = s->lay.nw;
    int64_t count = batch->count;
    dl_sql_sort_encode(&s->lay, l->key_vecs, count, l->scratch, DL_SQL_ROW_REF(1, 0));
    int64_t n_cand = 0;
    bool is_full = l->n_heap == st->n_topn;
    for (int64_t k = 0; k < count; k++) {
        if (!is_full || dl_sql_sort_compare(&l->cmp, l->scratch + k * nw, l->heap) < 0) {
            l->cand[n_cand] = (uint32_t)k;
            l->phys[n_cand++] = (uint32_t)dl_vec_batch_row(batch, k);
        }
    }
    if (n_cand == 0) {
        return DL_OK;
    }
    int64_t base = l->run.rows.count;
    DL_TRY(dl_sql_colbuf_append(&l->run.rows, batch, l->phys, n_cand, l->extra, l->cand, s->n_extra,
                                err));
    topn_push(st, l, n_cand, base);
    if (l->run.rows.count > 2 * st->n_topn + TOPN_SLACK) {
        DL_TRY(topn_compact(s, l, err));
    }
    return DL_OK;
}

static dl_status
topn_sink(void *ctx, void *local, dl_batch *batch, dl_error *err) {
    sort_state *st = ctx;
    topn_local *l = local;
    DL_TRY(dl_sql_sorter_eval_keys(&st->sorter, l->evals, batch, l->key_vecs, l->extra, err));
    dl_status s = topn_sink_batch(st, l, batch, err);
    dl_sql_sorter_release_keys(&st->sorter, l->key_vecs);
    return s;
}

/* Replaces *p (old elements of elem bytes) with a copy of cap elements; fresh is the new block
 * (taken over). */
static void
move_array(const dl_allocator *alloc, void **p, void *fresh, size_t elem, int32_t old) {
    if (old > 0) {
        memcpy(fresh, *p, (size_t)old * elem);
    }
    dl_mem_free(alloc, *p, (size_t)old * elem);
    *p = fresh;
}

static dl_status
topn_add_run(sort_state *st, topn_run *run, dl_error *err) {
    if (st->n_truns == st->cap_truns) {
        const dl_allocator *alloc = st->sorter.exec->alloc;
        int32_t old = st->cap_truns;
        int32_t cap = old == 0 ? 4 : old * 2;
        void *truns = dl_mem_alloc(alloc, (size_t)cap * sizeof(topn_run));
        void *tkeys = dl_mem_alloc(alloc, (size_t)cap * sizeof(void *));
        void *srcs = dl_mem_alloc(alloc, (size_t)cap * sizeof(void *));
        if (truns == NULL || tkeys == NULL || srcs == NULL) {
            dl_mem_free(alloc, truns, (size_t)cap * sizeof(topn_run));
            dl_mem_free(alloc, tkeys, (size_t)cap * sizeof(void *));
            dl_mem_free(alloc, srcs, (size_t)cap * sizeof(void *));
            DL_FAIL(err, DL_ERR_NOMEM, "out of memory in a top-N");
        }
        move_array(alloc, (void **)&st->truns, truns, sizeof(topn_run), old);
        move_array(alloc, (void **)&st->tkeys, tkeys, sizeof(void *), old);
        move_array(alloc, (void **)&st->srcs, srcs, sizeof(void *), old);
        st->cap_truns = cap;
    }
    st->truns[st->n_truns] = *run;
    st->tkeys[st->n_truns++] = run->keys;
    memset(run, 0, sizeof(*run));
    return DL_OK;
}

static dl_status
topn_combine(void *ctx, void *local, dl_error *err) {
    sort_state *st = ctx;
    const dl_sql_sort_layout *lay = &st->sorter.lay;
    topn_local *l = local;
    if (l->n_heap == 0) {
        return DL_OK;
    }
    int32_t nw = lay->nw;
    DL_TRY(dl_sql_entries_reserve(st->sorter.exec->alloc, nw, &st->cands, &st->cap_cands,
                                  st->n_cands + l->n_heap, err));
    int32_t run = st->n_truns;
    for (int64_t i = 0; i < l->n_heap; i++) {
        uint64_t *dst = st->cands + (st->n_cands + i) * nw;
        memcpy(dst, l->heap + i * nw, (size_t)nw * sizeof(uint64_t));
        dl_sql_entry_set_ref(lay, dst,
                             DL_SQL_ROW_REF(run, DL_SQL_REF_ROW(dl_sql_entry_ref(lay, dst))));
    }
    st->n_cands += l->n_heap;
    l->n_heap = 0;
    return topn_add_run(st, &l->run, err);
}

static dl_status
topn_open(dl_sql_operator *op, sort_state *st, dl_error *err) {
    static const dl_sql_sink sink = {
        .local_new = topn_local_new,
        .sink = topn_sink,
        .combine = topn_combine,
        .local_free = topn_local_free,
    };
    dl_sql_sorter *s = &st->sorter;
    DL_TRY(dl_sql_op_drain(op->children[0], &sink, st, err));
    st->tcmp = (dl_sql_sort_cmp){
        .lay = &s->lay, .full = dl_sql_sort_full_vectors, .ctx = (const void *)st->tkeys};
    dl_sql_sort_entries(&st->tcmp, st->cands, st->n_cands);
    const dl_sql_sort *plan = &op->plan->u.sort;
    int64_t from = DL_MIN(plan->offset, st->n_cands);
    int64_t to = DL_MIN(st->n_topn, st->n_cands);
    st->n_picks = to - from;
    size_t n = (size_t)DL_MAX(st->n_picks, 1);
    st->pick_runs = dl_mem_alloc_array(s->exec->alloc, n, sizeof(uint32_t));
    st->pick_rows = dl_mem_alloc_array(s->exec->alloc, n, sizeof(uint32_t));
    DL_CHECK(st->pick_runs != NULL && st->pick_rows != NULL, err, DL_ERR_NOMEM,
             "out of memory in a top-N");
    for (int64_t i = 0; i < st->n_picks; i++) {
        uint64_t ref = dl_sql_entry_ref(&s->lay, st->cands + (from + i) * s->lay.nw);
        st->pick_runs[i] = DL_SQL_REF_RUN(ref);
        st->pick_rows[i] = DL_SQL_REF_ROW(ref);
    }
    return DL_OK;
}

/* ---- the operator -------------------------------------------------------------------------- */

static dl_status
sort_open(dl_sql_operator *op, dl_error *err) {
    const dl_sql_sort *plan = &op->plan->u.sort;
    sort_state *st = dl_mem_alloc_zero(op->exec->alloc, sizeof(*st));
    DL_CHECK(st != NULL, err, DL_ERR_NOMEM, "out of memory starting a sort");
    op->state = st;
    DL_TRY(dl_sql_sorter_init(&st->sorter, op->exec, op->children[0]->schema, plan->keys,
                              plan->n_keys, err));
    st->left = plan->limit;
    if (plan->limit == 0) {
        return DL_OK;
    }
    if (plan->limit > 0 && plan->offset <= TOPN_MAX && plan->limit <= TOPN_MAX - plan->offset) {
        st->is_topn = true;
        st->n_topn = plan->offset + plan->limit;
        return topn_open(op, st, err);
    }
    DL_TRY(dl_sql_sorter_drain(&st->sorter, op->children[0], err));
    DL_TRY(dl_sql_sorter_sort(&st->sorter, err));
    dl_sql_sorter_skip(&st->sorter, plan->offset);
    return DL_OK;
}

/* ---- output -------------------------------------------------------------------------------- */

static dl_status
gather_task(void *arg, dl_error *err) {
    out_task *t = arg;
    DL_TRY(dl_vec_batch_reset(t->batch, err));
    const dl_sql_sorter *s = t->sorter;
    DL_TRY(dl_sql_rowstore_gather_batch(t->batch->cols, t->batch->n_cols, s->stores, t->runs,
                                        t->rows, t->n, err));
    dl_vec_batch_set_count(t->batch, t->n);
    return DL_OK;
}

static dl_status
ahead_init(dl_sql_operator *op, sort_state *st, dl_error *err) {
    dl_sql_exec_ctx *exec = op->exec;
    int32_t n = exec->pool != NULL ? OUT_AHEAD * exec->n_threads : 1;
    size_t pairs = (size_t)n * DL_BATCH_CAPACITY * sizeof(uint32_t);
    st->n_ahead = n; /* first: the free path sizes the arrays by it */
    st->ahead = dl_mem_alloc_zero(exec->alloc, (size_t)n * sizeof(out_task));
    st->pair_runs = dl_mem_alloc(exec->alloc, pairs);
    st->pair_rows = dl_mem_alloc(exec->alloc, pairs);
    DL_CHECK(st->ahead != NULL && st->pair_runs != NULL && st->pair_rows != NULL, err, DL_ERR_NOMEM,
             "out of memory sorting");
    for (int32_t i = 0; i < n; i++) {
        st->ahead[i].sorter = &st->sorter;
        st->ahead[i].runs = st->pair_runs + (size_t)i * DL_BATCH_CAPACITY;
        st->ahead[i].rows = st->pair_rows + (size_t)i * DL_BATCH_CAPACITY;
        DL_TRY(dl_sql_batch_new(exec, op->schema, &st->ahead[i].batch, err));
    }
    return DL_OK;
}

/* Merges the pairs of up to n_ahead batches and gathers them in parallel. */
static dl_status
gather_ahead(dl_sql_operator *op, sort_state *st, dl_error *err) {
    if (st->ahead == NULL) {
        DL_TRY(ahead_init(op, st, err));
    }
    int64_t left = st->left; /* -1: all */
    int32_t n = 0;
    while (n < st->n_ahead && left != 0) {
        out_task *t = &st->ahead[n];
        int64_t max = left < 0 ? DL_BATCH_CAPACITY : DL_MIN(left, DL_BATCH_CAPACITY);
        dl_sql_sorter_merge(&st->sorter, t->runs, t->rows, max, &t->n);
        if (t->n == 0) {
            break;
        }
        left = left < 0 ? left : left - t->n;
        n++;
    }
    st->n_ready = n;
    st->pos_ready = 0;
    return dl_sql_exec_parallel(op->exec, gather_task, st->ahead, sizeof(out_task), n, err);
}

static dl_status
sort_next_full(dl_sql_operator *op, sort_state *st, dl_batch *out, dl_error *err) {
    if (st->pos_ready == st->n_ready) {
        DL_TRY(gather_ahead(op, st, err));
    }
    if (st->pos_ready == st->n_ready) {
        dl_vec_batch_set_count(out, 0);
        return DL_OK;
    }
    const dl_batch *b = st->ahead[st->pos_ready++].batch;
    for (int32_t c = 0; c < out->n_cols; c++) {
        dl_vec_batch_set_col(out, c, dl_vec_ref(b->cols[c]));
    }
    dl_vec_batch_set_count(out, b->count);
    if (st->left > 0) {
        st->left -= b->count;
    }
    return DL_OK;
}

static dl_status
sort_next_topn(sort_state *st, dl_batch *out, dl_error *err) {
    int64_t max = st->left < 0 ? DL_BATCH_CAPACITY : DL_MIN(st->left, DL_BATCH_CAPACITY);
    int64_t n = DL_MIN(max, st->n_picks - st->pos_picks);
    const uint32_t *runs = st->pick_runs + st->pos_picks;
    const uint32_t *rows = st->pick_rows + st->pos_picks;
    st->pos_picks += n;
    DL_TRY(dl_vec_batch_reset(out, err));
    if (n <= 0) {
        dl_vec_batch_set_count(out, 0);
        return DL_OK;
    }
    for (int32_t c = 0; c < out->n_cols; c++) {
        for (int32_t r = 0; r < st->n_truns; r++) {
            st->srcs[r] = st->truns[r].rows.cols[c];
        }
        DL_TRY(dl_sql_gather(out->cols[c], st->srcs, runs, rows, n, err));
    }
    dl_vec_batch_set_count(out, n);
    if (st->left > 0) {
        st->left -= n;
    }
    return DL_OK;
}

static dl_status
sort_next(dl_sql_operator *op, void *local, dl_batch *out, dl_error *err) {
    (void)local;
    sort_state *st = op->state;
    if (st->left == 0) {
        DL_TRY(dl_vec_batch_reset(out, err));
        dl_vec_batch_set_count(out, 0);
        return DL_OK;
    }
    if (st->is_topn) {
        return sort_next_topn(st, out, err);
    }
    return sort_next_full(op, st, out, err);
}

static void
sort_free(dl_sql_operator *op) {
    sort_state *st = op->state;
    if (st == NULL) {
        return;
    }
    const dl_allocator *alloc = op->exec->alloc;
    size_t wb = (size_t)st->sorter.lay.nw * sizeof(uint64_t);
    dl_mem_free(alloc, st->cands, (size_t)st->cap_cands * wb);
    size_t n = (size_t)DL_MAX(st->n_picks, 1);
    dl_mem_free(alloc, st->pick_runs, n * sizeof(uint32_t));
    dl_mem_free(alloc, st->pick_rows, n * sizeof(uint32_t));
    for (int32_t r = 0; r < st->n_truns; r++) {
        topn_run_destroy(&st->sorter, &st->truns[r]);
    }
    dl_mem_free(alloc, st->truns, (size_t)st->cap_truns * sizeof(topn_run));
    dl_mem_free(alloc, st->tkeys, (size_t)st->cap_truns * sizeof(void *));
    dl_mem_free(alloc, st->srcs, (size_t)st->cap_truns * sizeof(void *));
    if (st->ahead != NULL) {
        for (int32_t i = 0; i < st->n_ahead; i++) {
            dl_vec_batch_free(st->ahead[i].batch);
        }
    }
    size_t n_ahead = (size_t)DL_MAX(st->n_ahead, 1);
    dl_mem_free(alloc, st->ahead, n_ahead * sizeof(out_task));
    dl_mem_free(alloc, st->pair_runs, n_ahead * DL_BATCH_CAPACITY * sizeof(uint32_t));
    dl_mem_free(alloc, st->pair_rows, n_ahead * DL_BATCH_CAPACITY * sizeof(uint32_t));
    dl_sql_sorter_destroy(&st->sorter);
    dl_mem_free(alloc, st, sizeof(*st));
    op->state = NULL;
}

static const dl_sql_op_vtable sort_vt = {
    .name = "sort",
    .open = sort_open,
    .next = sort_next,
    .free = sort_free,
};

dl_status
dl_sql_op_sort_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan, dl_sql_operator *child,
                   dl_sql_operator **out, dl_error *err) {
    DL_CHECK(plan->u.sort.offset >= 0, err, DL_ERR_INTERNAL, "sort with a negative offset %lld",
             (long long)plan->u.sort.offset);
    dl_sql_operator *op = dl_sql_op_alloc(exec, &sort_vt, plan, child, NULL);
    DL_CHECK(op != NULL, err, DL_ERR_NOMEM, "out of memory building a sort");
    *out = op;
    return DL_OK;
}
