/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Aggregates over window frames (sql_op_window_int.h), through the aggregate kernels of
 * sql_func.h (init, update, combine, finalize, destroy).
 *
 * Three strategies, chosen per function from its frame:
 *
 *   whole partition   (UNBOUNDED PRECEDING .. UNBOUNDED FOLLOWING): one state per partition,
 *                     finalized once, its value repeated for every row;
 *   running           (UNBOUNDED PRECEDING .. anything else): one state accumulates the rows
 *                     as the frame's end advances; each row gets a copy of it (init, then
 *                     combine into the copy) which is finalized with a batch of others;
 *   sliding           (any other frame): every row's frame is aggregated from scratch. The
 *                     frames of up to a batch of rows are fed to the kernel together: one
 *                     update call over a DICT vector of all their rows, each element pointing
 *                     at its row's state. This costs the sum of the frame lengths, fine for
 *                     the usual bounded frames; a frame that grows with the partition
 *                     (n PRECEDING .. UNBOUNDED FOLLOWING) is quadratic. A segment tree
 *                     would make it n log n: not done yet.
 */
#include <string.h>

#include "sql/exec/sql_op_window_int.h"

typedef struct agg_ctx {
    dl_sql_window_state *st;
    const dl_sql_wfn *fn;
    int32_t f;
    dl_sql_fn_call call;
    size_t state_size; /* aligned to 16 */
    uint8_t *temps;    /* DL_BATCH_CAPACITY states */
    int64_t n_temps;   /* initialized temps */
    uint8_t *acc;      /* the partition or running state */
    bool is_acc_live;  /* acc was initialized */
    dl_vector **argv;  /* scratch: DICT views of the arguments */
    int64_t n_elems;   /* pending update elements */
    uint32_t idx[DL_BATCH_CAPACITY];
    void *states[DL_BATCH_CAPACITY];
} agg_ctx;

static void
state_init(agg_ctx *a, void *state) {
    memset(state, 0, a->state_size);
    a->call.def->init(&a->call, state);
}

static void
state_destroy(agg_ctx *a, void *state) {
    if (a->call.def->destroy != NULL) {
        a->call.def->destroy(&a->call, state);
    }
}

/* Runs the kernel's update on the pending elements. */
static dl_status
feed_flush(agg_ctx *a, dl_error *err) {
    int64_t m = a->n_elems;
    if (m == 0) {
        return DL_OK;
    }
    int32_t na = a->fn->agg.n_args;
    int32_t built = 0;
    dl_status s = DL_OK;
    for (; built < na && s == DL_OK; built++) {
        s = dl_sql_dict_new(a->st->args[a->f][built], a->idx, NULL, m, &a->argv[built], err);
    }
    if (s == DL_OK) {
        s = a->call.def->update(&a->call, a->argv, m, a->states, err);
    }
    for (int32_t i = 0; i < built; i++) {
        dl_vec_unref(a->argv[i]);
        a->argv[i] = NULL;
    }
    a->n_elems = 0;
    return s;
}

/* Adds rows [from, to) to state. */
static dl_status
feed_rows(agg_ctx *a, int64_t from, int64_t to, void *state, dl_error *err) {
    for (int64_t r = from; r < to; r++) {
        if (a->n_elems == DL_BATCH_CAPACITY) {
            DL_TRY(feed_flush(a, err));
        }
        a->idx[a->n_elems] = (uint32_t)r;
        a->states[a->n_elems++] = state;
    }
    return DL_OK;
}

/* Finalizes the initialized temps into the result and destroys them. */
static dl_status
temps_flush(agg_ctx *a, dl_error *err) {
    if (a->n_temps == 0) {
        return DL_OK;
    }
    DL_TRY(feed_flush(a, err));
    void *ptrs[DL_BATCH_CAPACITY];
    for (int64_t t = 0; t < a->n_temps; t++) {
        ptrs[t] = a->temps + (size_t)t * a->state_size;
    }
    dl_status s = a->call.def->finalize(&a->call, ptrs, a->n_temps, a->st->results[a->f], err);
    for (int64_t t = 0; t < a->n_temps; t++) {
        state_destroy(a, ptrs[t]);
    }
    a->n_temps = 0;
    return s;
}

/* A fresh temp state for the next result row (flushing a full batch first). */
static dl_status
temp_next(agg_ctx *a, void **out, dl_error *err) {
    if (a->n_temps == DL_BATCH_CAPACITY) {
        DL_TRY(temps_flush(a, err));
    }
    void *t = a->temps + (size_t)(a->n_temps++) * a->state_size;
    state_init(a, t);
    *out = t;
    return DL_OK;
}

static void
acc_reset(agg_ctx *a) {
    if (a->is_acc_live) {
        state_destroy(a, a->acc);
    }
    state_init(a, a->acc);
    a->is_acc_live = true;
}

/* ---- the three strategies ------------------------------------------------------------------ */

static dl_status
whole_partition(agg_ctx *a, int64_t ps, int64_t pe, dl_error *err) {
    acc_reset(a);
    DL_TRY(feed_rows(a, ps, pe, a->acc, err));
    DL_TRY(feed_flush(a, err));
    dl_vector *one;
    DL_TRY(dl_vec_new(a->st->exec->alloc, a->call.ret_type, 1, &one, err));
    void *ptr = a->acc;
    dl_status s = a->call.def->finalize(&a->call, &ptr, 1, one, err);
    uint32_t zeros[DL_BATCH_CAPACITY];
    memset(zeros, 0, sizeof(zeros));
    for (int64_t r = ps; r < pe && s == DL_OK; r += DL_BATCH_CAPACITY) {
        s = dl_vec_copy_sel(a->st->results[a->f], one, zeros, DL_MIN(DL_BATCH_CAPACITY, pe - r),
                            err);
    }
    dl_vec_unref(one);
    return s;
}

static dl_status
running(agg_ctx *a, int64_t ps, int64_t pe, dl_error *err) {
    acc_reset(a);
    int64_t fed = ps;
    for (int64_t i = ps; i < pe; i++) {
        int64_t fs, fe;
        DL_TRY(dl_sql_window_frame(a->st, a->fn, ps, pe, i, &fs, &fe, err));
        if (fe > fed) {
            DL_TRY(feed_rows(a, fed, fe, a->acc, err));
            DL_TRY(feed_flush(a, err));
            fed = fe;
        }
        void *t;
        DL_TRY(temp_next(a, &t, err));
        DL_TRY(a->call.def->combine(&a->call, a->acc, t, err));
    }
    return temps_flush(a, err);
}

static dl_status
sliding(agg_ctx *a, int64_t ps, int64_t pe, dl_error *err) {
    for (int64_t i = ps; i < pe; i++) {
        int64_t fs, fe;
        DL_TRY(dl_sql_window_frame(a->st, a->fn, ps, pe, i, &fs, &fe, err));
        void *t;
        DL_TRY(temp_next(a, &t, err));
        DL_TRY(feed_rows(a, fs, fe, t, err));
    }
    return temps_flush(a, err);
}

static dl_status
run_partitions(agg_ctx *a, dl_error *err) {
    const dl_sql_frame *fr = &a->fn->frame;
    bool from_start = fr->start == DL_SQL_FB_UNBOUNDED_PRECEDING;
    bool to_end = fr->end == DL_SQL_FB_UNBOUNDED_FOLLOWING;
    const dl_sql_window_state *st = a->st;
    for (int64_t p = 0; p < st->n_parts; p++) {
        int64_t ps = st->part[p];
        int64_t pe = st->part[p + 1];
        if (from_start && to_end) {
            DL_TRY(whole_partition(a, ps, pe, err));
        } else if (from_start) {
            DL_TRY(running(a, ps, pe, err));
        } else {
            DL_TRY(sliding(a, ps, pe, err));
        }
    }
    return DL_OK;
}

static dl_status
agg_ctx_init(agg_ctx *a, dl_sql_window_state *st, int32_t f, dl_error *err) {
    const dl_sql_wfn *fn = &st->fns[f];
    const dl_sql_fn_def *def = fn->agg.fn;
    DL_CHECK(def != NULL && def->kind == DL_SQL_FN_AGGREGATE && def->init != NULL &&
                 def->update != NULL && def->combine != NULL && def->finalize != NULL,
             err, DL_ERR_INTERNAL, "window aggregate %d has no aggregate kernels", (int)f);
    a->st = st;
    a->fn = fn;
    a->f = f;
    a->state_size = (DL_MAX(def->state_size, (size_t)1) + 15) & ~(size_t)15;
    a->call = (dl_sql_fn_call){.def = def,
                               .arg_types = fn->agg.arg_types,
                               .n_args = fn->agg.n_args,
                               .ret_type = fn->agg.type,
                               .bind_data = fn->agg.bind_data,
                               .env = &st->exec->env};
    const dl_allocator *alloc = st->exec->alloc;
    a->temps = dl_mem_alloc(alloc, DL_BATCH_CAPACITY * a->state_size);
    a->acc = dl_mem_alloc(alloc, a->state_size);
    a->argv = dl_mem_alloc_zero(alloc, (size_t)DL_MAX(fn->agg.n_args, 1) * sizeof(void *));
    DL_CHECK(a->temps != NULL && a->acc != NULL && a->argv != NULL, err, DL_ERR_NOMEM,
             "out of memory in a window aggregate");
    return DL_OK;
}

static void
agg_ctx_destroy(agg_ctx *a) {
    const dl_allocator *alloc = a->st->exec->alloc;
    for (int64_t t = 0; t < a->n_temps; t++) {
        state_destroy(a, a->temps + (size_t)t * a->state_size);
    }
    if (a->is_acc_live) {
        state_destroy(a, a->acc);
    }
    dl_mem_free(alloc, a->temps, DL_BATCH_CAPACITY * a->state_size);
    dl_mem_free(alloc, a->acc, a->state_size);
    dl_mem_free(alloc, a->argv, (size_t)DL_MAX(a->fn->agg.n_args, 1) * sizeof(void *));
}

dl_status
dl_sql_window_agg_run(dl_sql_window_state *st, int32_t f, dl_error *err) {
    agg_ctx *a = dl_mem_alloc_zero(st->exec->alloc, sizeof(*a));
    DL_CHECK(a != NULL, err, DL_ERR_NOMEM, "out of memory in a window aggregate");
    a->st = st;
    a->fn = &st->fns[f];
    dl_status s = agg_ctx_init(a, st, f, err);
    if (s == DL_OK) {
        s = run_partitions(a, err);
    }
    agg_ctx_destroy(a);
    dl_mem_free(st->exec->alloc, a, sizeof(*a));
    return s;
}
