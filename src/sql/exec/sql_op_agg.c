/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The AGGREGATE operator (sql_plan.h, dl_sql_aggregate): hash aggregation with GROUP BY keys,
 * grouping sets, FILTER clauses and DISTINCT aggregates.
 *
 * A pipeline breaker. open drains the child (dl_sql_op_drain): each thread aggregates into its
 * own hash table (sql_agg_ht.h), then the tables are combined into one on the calling thread
 * with the aggregates' combine kernels; next emits the groups, DL_BATCH_CAPACITY at a time,
 * key columns by reference to the table's key chunks and aggregate columns from the finalize
 * kernels. With DISTINCT aggregates the child is drained on one thread (per-thread sets of
 * seen values could not be combined exactly).
 *
 * Grouping sets run each input batch once per set: keys outside the set are NULL and a
 * BIGINT grouping id (Spark's: bit n-1-k set when key k is not grouped) is an extra key.
 * Without keys and sets the output is exactly one row, also over empty input.
 *
 * What does not spill: the hash table and the aggregate states live in memory.
 */
#include <string.h>

#include "sql/exec/sql_agg_ht.h"

typedef struct agg_state {
    const dl_sql_aggregate *a;
    dl_sql_fn_call *calls; /* per aggregate: init, combine, finalize (read-only calls) */
    size_t *offsets;       /* per aggregate: its state in the block */
    size_t stride;
    const dl_type *key_schema; /* the keys, then the grouping id when there are sets */
    int32_t n_key_cols;
    bool has_distinct;
    bool has_table;
    dl_sql_agg_ht ht;
    int64_t next_group; /* emission cursor */
} agg_state;

typedef struct agg_local {
    agg_state *st;
    dl_sql_exec_ctx *exec;
    dl_arena arena; /* this thread's: locals are made on pool threads at once, and the
                       statement's arena is not for concurrent use */
    dl_sql_agg_ht ht;
    dl_sql_eval **key_evals;
    dl_sql_eval **arg_evals; /* flattened: agg i's args start at arg_base[i] */
    int32_t *arg_base;
    dl_sql_eval **filter_evals;
    dl_sql_fn_call *calls;   /* per aggregate, this thread's kernel state */
    dl_sql_agg_ht *distinct; /* per DISTINCT aggregate: seen (group, arguments) */
    const dl_type **distinct_schemas;
    int32_t n_args_total;
} agg_local;

static void
init_block(void *ctx, uint8_t *block) {
    const agg_state *st = ctx;
    for (int32_t i = 0; i < st->a->n_aggs; i++) {
        st->calls[i].def->init(&st->calls[i], block + st->offsets[i]);
    }
}

static void
destroy_states(const agg_state *st, dl_sql_agg_ht *ht) {
    for (int32_t i = 0; i < st->a->n_aggs; i++) {
        if (st->calls[i].def->destroy == NULL) {
            continue;
        }
        for (int64_t g = 0; g < ht->n_groups; g++) {
            st->calls[i].def->destroy(&st->calls[i], dl_sql_agg_ht_state(ht, g) + st->offsets[i]);
        }
    }
}

/* ---- per-thread state ------------------------------------------------------------------------ */

static void
local_free(void *ctx, void *vl) {
    agg_local *l = vl;
    agg_state *st = ((dl_sql_operator *)ctx)->state;
    if (l == NULL) {
        return;
    }
    const dl_allocator *alloc = l->exec->alloc;
    int32_t n_aggs = st->a->n_aggs;
    for (int32_t k = 0; k < st->a->n_keys && l->key_evals != NULL; k++) {
        dl_sql_eval_free(l->key_evals[k]);
    }
    for (int32_t i = 0; i < l->n_args_total && l->arg_evals != NULL; i++) {
        dl_sql_eval_free(l->arg_evals[i]);
    }
    for (int32_t i = 0; i < n_aggs && l->filter_evals != NULL; i++) {
        dl_sql_eval_free(l->filter_evals[i]);
    }
    for (int32_t i = 0; i < n_aggs && l->distinct != NULL; i++) {
        dl_sql_agg_ht_destroy(&l->distinct[i]);
    }
    for (int32_t i = 0; i < n_aggs && l->calls != NULL; i++) {
        if (l->calls[i].state != NULL && l->calls[i].def->free_state != NULL) {
            l->calls[i].def->free_state(&l->calls[i]);
        }
    }
    destroy_states(st, &l->ht);
    dl_sql_agg_ht_destroy(&l->ht);
    dl_arena_destroy(&l->arena);
    dl_mem_free(alloc, l, sizeof(*l));
}

static dl_status
local_evals(agg_local *l, const dl_sql_aggregate *a, dl_error *err) {
    dl_arena *arena = &l->arena;
    l->key_evals = dl_arena_alloc_zero(arena, (size_t)(a->n_keys + 1) * sizeof(void *));
    l->filter_evals = dl_arena_alloc_zero(arena, (size_t)(a->n_aggs + 1) * sizeof(void *));
    l->arg_base = dl_arena_alloc_zero(arena, (size_t)(a->n_aggs + 1) * sizeof(int32_t));
    DL_CHECK(l->key_evals != NULL && l->filter_evals != NULL && l->arg_base != NULL, err,
             DL_ERR_NOMEM, "out of memory starting an aggregation");
    int32_t total = 0;
    for (int32_t i = 0; i < a->n_aggs; i++) {
        l->arg_base[i] = total;
        total += a->aggs[i].n_args;
    }
    l->arg_evals = dl_arena_alloc_zero(arena, (size_t)(total + 1) * sizeof(void *));
    DL_CHECK(l->arg_evals != NULL, err, DL_ERR_NOMEM, "out of memory starting an aggregation");
    l->n_args_total = total;
    for (int32_t k = 0; k < a->n_keys; k++) {
        DL_TRY(dl_sql_eval_new(l->exec, a->keys[k], &l->key_evals[k], err));
    }
    for (int32_t i = 0; i < a->n_aggs; i++) {
        for (int32_t j = 0; j < a->aggs[i].n_args; j++) {
            DL_TRY(dl_sql_eval_new(l->exec, a->aggs[i].args[j], &l->arg_evals[l->arg_base[i] + j],
                                   err));
        }
        if (a->aggs[i].filter != NULL) {
            DL_TRY(dl_sql_eval_new(l->exec, a->aggs[i].filter, &l->filter_evals[i], err));
        }
    }
    return DL_OK;
}

/* The (group id, arguments...) key schema of a DISTINCT aggregate's seen-set. */
static dl_status
distinct_sets(agg_local *l, const dl_sql_aggregate *a, dl_error *err) {
    dl_arena *arena = &l->arena;
    l->distinct = dl_arena_alloc_zero(arena, (size_t)(a->n_aggs + 1) * sizeof(dl_sql_agg_ht));
    DL_CHECK(l->distinct != NULL, err, DL_ERR_NOMEM, "out of memory starting an aggregation");
    for (int32_t i = 0; i < a->n_aggs; i++) {
        const dl_sql_agg *g = &a->aggs[i];
        dl_type_field *f = dl_arena_alloc_zero(arena, (size_t)(g->n_args + 1) * sizeof(*f));
        DL_CHECK(f != NULL, err, DL_ERR_NOMEM, "out of memory starting an aggregation");
        f[0] = (dl_type_field){.name = "g", .type = dl_vec_type_prim(DL_VEC_TYPE_LONG)};
        for (int32_t j = 0; j < g->n_args; j++) {
            f[j + 1] = (dl_type_field){.name = "a", .type = g->args[j]->type, .is_nullable = true};
        }
        const dl_type *schema = NULL;
        DL_TRY(dl_vec_type_struct(arena, f, g->n_args + 1, &schema, err));
        dl_sql_agg_ht_init(&l->distinct[i], l->exec->alloc, schema, 0, NULL, NULL);
    }
    return DL_OK;
}

static dl_status
local_new(void *ctx, void **out, dl_error *err) {
    dl_sql_operator *op = ctx;
    agg_state *st = op->state;
    const dl_sql_aggregate *a = st->a;
    agg_local *l = dl_mem_alloc_zero(op->exec->alloc, sizeof(*l));
    DL_CHECK(l != NULL, err, DL_ERR_NOMEM, "out of memory starting an aggregation");
    *out = l;
    l->st = st;
    l->exec = op->exec;
    dl_arena_init(&l->arena, op->exec->alloc, 0);
    dl_sql_agg_ht_init(&l->ht, op->exec->alloc, st->key_schema, st->stride, init_block, st);
    l->calls = dl_arena_alloc_zero(&l->arena, (size_t)(a->n_aggs + 1) * sizeof(*l->calls));
    DL_CHECK(l->calls != NULL, err, DL_ERR_NOMEM, "out of memory starting an aggregation");
    for (int32_t i = 0; i < a->n_aggs; i++) {
        l->calls[i] = st->calls[i];
    }
    DL_TRY(local_evals(l, a, err));
    if (st->has_distinct) {
        DL_TRY(distinct_sets(l, a, err));
    }
    return DL_OK;
}

/* ---- sinking a batch --------------------------------------------------------------------------
 */

/* Keeps in (args, ptrs) only the rows r with keep(r); returns how many are left. */
static dl_status
compact(dl_vector **args, int32_t n_args, void **ptrs, const uint32_t *rows, int64_t n,
        dl_error *err) {
    for (int32_t j = 0; j < n_args; j++) {
        dl_vector *sel = NULL;
        DL_TRY(dl_sql_vec_select(args[j], rows, n, &sel, err));
        dl_vec_unref(args[j]);
        args[j] = sel;
    }
    for (int64_t i = 0; i < n; i++) {
        ptrs[i] = ptrs[rows[i]];
    }
    return DL_OK;
}

/* Rows of the batch where the FILTER clause holds. */
static dl_status
filter_rows(agg_local *l, int32_t i, const dl_batch *batch, uint32_t *rows, int64_t *n,
            dl_error *err) {
    dl_vector *f = NULL;
    DL_TRY(dl_sql_eval_run(l->filter_evals[i], batch, &f, err));
    dl_vec_unified u;
    dl_vec_unify(f, batch->count, &u);
    int64_t m = 0;
    for (int64_t r = 0; r < batch->count; r++) {
        if ((u.validity == NULL || dl_vec_bit_get(u.validity, r)) &&
            dl_vec_bit_get((const uint8_t *)u.data, u.sel[r])) {
            rows[m++] = (uint32_t)r;
        }
    }
    dl_vec_unref(f);
    *n = m;
    return DL_OK;
}

/* Rows whose (group, arguments) DISTINCT aggregate i has not seen yet. */
static dl_status
distinct_rows(agg_local *l, int32_t i, dl_vector **args, int32_t n_args, const uint32_t *gids,
              int64_t count, uint32_t *rows, int64_t *n, dl_error *err) {
    dl_vector *keys[65] = {0};
    DL_CHECK(n_args < 64, err, DL_ERR_LIMIT, "DISTINCT aggregate of more than 63 arguments");
    DL_TRY(dl_vec_new(l->exec->alloc, dl_vec_type_prim(DL_VEC_TYPE_LONG), count, &keys[0], err));
    int64_t *g = keys[0]->data;
    for (int64_t r = 0; r < count; r++) {
        g[r] = gids[r];
    }
    dl_vec_set_length(keys[0], count);
    for (int32_t j = 0; j < n_args; j++) {
        keys[j + 1] = args[j];
    }
    dl_sql_agg_ht *seen = &l->distinct[i];
    int64_t before = seen->n_groups;
    uint32_t found[DL_BATCH_CAPACITY];
    dl_status s = dl_sql_agg_ht_find(seen, keys, count, found, err);
    dl_vec_unref(keys[0]);
    DL_TRY(s);
    int64_t m = 0;
    for (int64_t r = 0; r < count; r++) {
        if ((int64_t)found[r] == before + m) {
            rows[m++] = (uint32_t)r;
        }
    }
    *n = m;
    return DL_OK;
}

static dl_status
update_agg(agg_local *l, int32_t i, const dl_batch *batch, const uint32_t *gids, dl_error *err) {
    const agg_state *st = l->st;
    const dl_sql_agg *ag = &st->a->aggs[i];
    int64_t count = batch->count;
    dl_vector *args[64] = {0};
    void *ptrs[DL_BATCH_CAPACITY] = {0};
    uint32_t rows[DL_BATCH_CAPACITY];
    DL_CHECK(ag->n_args <= 64, err, DL_ERR_LIMIT, "aggregate of more than 64 arguments");
    for (int64_t r = 0; r < count; r++) {
        ptrs[r] = dl_sql_agg_ht_state(&l->ht, gids[r]) + st->offsets[i];
    }
    dl_status s = DL_OK;
    int32_t made = 0;
    for (; made < ag->n_args && s == DL_OK; made++) {
        s = dl_sql_eval_run(l->arg_evals[l->arg_base[i] + made], batch, &args[made], err);
    }
    for (int32_t j = 0; j < made && s == DL_OK; j++) {
        dl_sql_vec_prefetch(args[j], count);
    }
    int64_t n = count;
    if (s == DL_OK && ag->filter != NULL) {
        s = filter_rows(l, i, batch, rows, &n, err);
        if (s == DL_OK && n < count) {
            s = compact(args, ag->n_args, ptrs, rows, n, err);
        }
    }
    if (s == DL_OK && ag->is_distinct && n > 0) {
        uint32_t g2[DL_BATCH_CAPACITY];
        for (int64_t r = 0; r < n; r++) {
            g2[r] = (uint32_t)(((uint8_t *)ptrs[r] - st->offsets[i] - l->ht.states) / st->stride);
        }
        int64_t m = 0;
        s = distinct_rows(l, i, args, ag->n_args, g2, n, rows, &m, err);
        if (s == DL_OK && m < n) {
            s = compact(args, ag->n_args, ptrs, rows, m, err);
        }
        n = m;
    }
    if (s == DL_OK && n > 0) {
        s = l->calls[i].def->update(&l->calls[i], args, n, ptrs, err);
    }
    for (int32_t j = 0; j < made; j++) {
        dl_vec_unref(args[j]);
    }
    return s;
}

/* Groups and updates for one grouping set (mask of the keys grouped; all for no sets). */
static dl_status
sink_set(agg_local *l, const dl_batch *batch, dl_vector **keys, uint64_t mask, int64_t set_id,
         dl_error *err) {
    const agg_state *st = l->st;
    int32_t nk = st->a->n_keys;
    dl_vector *cols[65] = {0};
    dl_status s = DL_OK;
    for (int32_t k = 0; k < nk && s == DL_OK; k++) {
        DL_CHECK(keys[k] != NULL, err, DL_ERR_INTERNAL, "grouping key %d was not evaluated",
                 (int)k);
        if ((mask >> k) & 1u) {
            cols[k] = dl_vec_ref(keys[k]);
        } else {
            s = dl_vec_new_const_null(l->exec->alloc, keys[k]->type, batch->count, &cols[k], err);
        }
    }
    if (s == DL_OK && st->a->n_sets > 0) {
        int64_t gid = 0;
        for (int32_t k = 0; k < nk; k++) {
            gid |= ((mask >> k) & 1u) ? 0 : (INT64_C(1) << (nk - 1 - k));
        }
        (void)set_id;
        s = dl_vec_new(l->exec->alloc, dl_vec_type_prim(DL_VEC_TYPE_LONG), 1, &cols[nk], err);
        if (s == DL_OK) {
            s = dl_vec_append_i64(cols[nk], gid, err);
            dl_vec_make_const(cols[nk], batch->count);
        }
    }
    uint32_t gids[DL_BATCH_CAPACITY];
    if (s == DL_OK) {
        s = dl_sql_agg_ht_find(&l->ht, cols, batch->count, gids, err);
    }
    for (int32_t i = 0; i < st->a->n_aggs && s == DL_OK; i++) {
        s = update_agg(l, i, batch, gids, err);
    }
    for (int32_t k = 0; k <= nk; k++) {
        dl_vec_unref(cols[k]);
    }
    return s;
}

static dl_status
sink(void *ctx, void *vl, dl_batch *batch, dl_error *err) {
    agg_local *l = vl;
    (void)ctx;
    const dl_sql_aggregate *a = l->st->a;
    dl_vector *keys[64] = {0};
    dl_status s = DL_OK;
    int32_t made = 0;
    for (; made < a->n_keys && s == DL_OK; made++) {
        s = dl_sql_eval_run(l->key_evals[made], batch, &keys[made], err);
    }
    if (a->n_sets == 0 && s == DL_OK) {
        s = sink_set(l, batch, keys, ~UINT64_C(0), 0, err);
    }
    for (int32_t i = 0; i < a->n_sets && s == DL_OK; i++) {
        s = sink_set(l, batch, keys, a->sets[i], i, err);
    }
    for (int32_t k = 0; k < made; k++) {
        dl_vec_unref(keys[k]);
    }
    return s;
}

/* ---- combining and emitting --------------------------------------------------------------------
 */

/* Merges one state block into another, aggregate by aggregate. */
static dl_status
combine_block(agg_state *st, const uint8_t *from, uint8_t *to, dl_error *err) {
    for (int32_t i = 0; i < st->a->n_aggs; i++) {
        DL_TRY(st->calls[i].def->combine(&st->calls[i], from + st->offsets[i], to + st->offsets[i],
                                         err));
    }
    return DL_OK;
}

static dl_status
combine_into(agg_state *st, dl_sql_agg_ht *src, dl_error *err) {
    for (int64_t c = 0; c < src->keys.n_chunks; c++) {
        const dl_batch *chunk = src->keys.chunks[c];
        uint32_t gids[DL_BATCH_CAPACITY];
        DL_TRY(dl_sql_agg_ht_find(&st->ht, chunk->cols, chunk->count, gids, err));
        for (int64_t r = 0; r < chunk->count; r++) {
            const uint8_t *from = dl_sql_agg_ht_state(src, c * DL_BATCH_CAPACITY + r);
            DL_TRY(combine_block(st, from, dl_sql_agg_ht_state(&st->ht, gids[r]), err));
        }
    }
    return DL_OK;
}

static dl_status
combine(void *ctx, void *vl, dl_error *err) {
    agg_state *st = ((dl_sql_operator *)ctx)->state;
    agg_local *l = vl;
    if (!st->has_table) {
        st->ht = l->ht; /* the first table becomes the result */
        st->ht.init_ctx = st;
        dl_sql_agg_ht_init(&l->ht, l->exec->alloc, st->key_schema, st->stride, init_block, st);
        st->has_table = true;
        return DL_OK;
    }
    return combine_into(st, &l->ht, err);
}

static const dl_sql_sink agg_sink = {
    .local_new = local_new,
    .sink = sink,
    .combine = combine,
    .local_free = local_free,
};

/* Drains the child on this thread only (DISTINCT aggregates). */
static dl_status
drain_serial(dl_sql_operator *op, dl_error *err) {
    dl_sql_operator *child = op->children[0];
    void *sl = NULL;
    void *cl = NULL;
    dl_batch *batch = NULL;
    dl_status s = local_new(op, &sl, err);
    if (s == DL_OK) {
        s = dl_sql_op_local_new(child, &cl, err);
    }
    if (s == DL_OK) {
        s = dl_sql_batch_new(op->exec, child->schema, &batch, err);
    }
    while (s == DL_OK) {
        s = dl_sql_op_next(child, cl, batch, err);
        if (s != DL_OK || batch->count == 0) {
            break;
        }
        s = sink(op, sl, batch, err);
    }
    if (s == DL_OK) {
        s = combine(op, sl, err);
    }
    dl_vec_batch_free(batch);
    dl_sql_op_local_free(child, cl);
    local_free(op, sl);
    return s;
}

static dl_status
agg_prepare(dl_sql_operator *op, agg_state *st, dl_error *err) {
    const dl_sql_aggregate *a = &op->plan->u.agg;
    dl_arena *arena = op->exec->arena;
    st->a = a;
    st->calls = dl_arena_alloc_zero(arena, (size_t)(a->n_aggs + 1) * sizeof(*st->calls));
    st->offsets = dl_arena_alloc_zero(arena, (size_t)(a->n_aggs + 1) * sizeof(size_t));
    DL_CHECK(st->calls != NULL && st->offsets != NULL, err, DL_ERR_NOMEM,
             "out of memory starting an aggregation");
    for (int32_t i = 0; i < a->n_aggs; i++) {
        const dl_sql_agg *g = &a->aggs[i];
        st->calls[i] = (dl_sql_fn_call){.def = g->fn,
                                        .arg_types = g->arg_types,
                                        .n_args = g->n_args,
                                        .ret_type = g->type,
                                        .bind_data = g->bind_data,
                                        .env = &op->exec->env};
        st->offsets[i] = st->stride;
        st->stride += (g->fn->state_size + 15) & ~(size_t)15;
        st->has_distinct = st->has_distinct || g->is_distinct;
    }
    st->n_key_cols = a->n_keys + (a->n_sets > 0 ? 1 : 0);
    dl_type_field *f = dl_arena_alloc_zero(arena, (size_t)(st->n_key_cols + 1) * sizeof(*f));
    DL_CHECK(f != NULL, err, DL_ERR_NOMEM, "out of memory starting an aggregation");
    for (int32_t k = 0; k < st->n_key_cols; k++) {
        f[k] = op->schema->fields[k < a->n_keys ? k : a->n_keys + a->n_aggs];
    }
    DL_TRY(dl_vec_type_struct(arena, f, st->n_key_cols, &st->key_schema, err));
    dl_sql_agg_ht_init(&st->ht, op->exec->alloc, st->key_schema, st->stride, init_block, st);
    return DL_OK;
}

static dl_status
agg_open(dl_sql_operator *op, dl_error *err) {
    agg_state *st = dl_mem_alloc_zero(op->exec->alloc, sizeof(*st));
    DL_CHECK(st != NULL, err, DL_ERR_NOMEM, "out of memory starting an aggregation");
    op->state = st;
    DL_TRY(agg_prepare(op, st, err));
    if (st->has_distinct) {
        DL_TRY(drain_serial(op, err));
    } else {
        DL_TRY(dl_sql_op_drain(op->children[0], &agg_sink, op, err));
    }
    if (st->a->n_keys == 0 && st->a->n_sets == 0 && st->ht.n_groups == 0) {
        uint32_t gid = 0;
        DL_TRY(dl_sql_agg_ht_find(&st->ht, NULL, 1, &gid, err)); /* the one row of no input */
    }
    return DL_OK;
}

static dl_status
agg_next(dl_sql_operator *op, void *local, dl_batch *out, dl_error *err) {
    (void)local;
    agg_state *st = op->state;
    const dl_sql_aggregate *a = st->a;
    int64_t first = st->next_group;
    if (first >= st->ht.n_groups) {
        dl_vec_batch_set_count(out, 0);
        return DL_OK;
    }
    const dl_batch *chunk = st->ht.keys.chunks[first / DL_BATCH_CAPACITY];
    int64_t n = chunk->count;
    st->next_group += n;
    for (int32_t k = 0; k < a->n_keys; k++) {
        dl_vec_batch_set_col(out, k, dl_vec_ref(chunk->cols[k]));
    }
    if (a->n_sets > 0) {
        dl_vec_batch_set_col(out, a->n_keys + a->n_aggs, dl_vec_ref(chunk->cols[a->n_keys]));
    }
    void *ptrs[DL_BATCH_CAPACITY] = {0};
    for (int32_t i = 0; i < a->n_aggs; i++) {
        for (int64_t r = 0; r < n; r++) {
            ptrs[r] = dl_sql_agg_ht_state(&st->ht, first + r) + st->offsets[i];
        }
        dl_vector *v = NULL;
        DL_TRY(dl_vec_new(op->exec->alloc, a->aggs[i].type, n, &v, err));
        dl_status s = st->calls[i].def->finalize(&st->calls[i], ptrs, n, v, err);
        if (s != DL_OK) {
            dl_vec_unref(v);
            return s;
        }
        dl_vec_batch_set_col(out, a->n_keys + i, v);
    }
    dl_vec_batch_set_count(out, n);
    return DL_OK;
}

static void
agg_free(dl_sql_operator *op) {
    agg_state *st = op->state;
    if (st == NULL) {
        return;
    }
    if (st->calls != NULL) {
        destroy_states(st, &st->ht);
    }
    dl_sql_agg_ht_destroy(&st->ht);
    dl_mem_free(op->exec->alloc, st, sizeof(*st));
    op->state = NULL;
}

static const dl_sql_op_vtable agg_vt = {
    .name = "hash_aggregate",
    .open = agg_open,
    .next = agg_next,
    .free = agg_free,
};

dl_status
dl_sql_op_agg_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan, dl_sql_operator *child,
                  dl_sql_operator **out, dl_error *err) {
    dl_sql_operator *op = dl_sql_op_alloc(exec, &agg_vt, plan, child, NULL);
    DL_CHECK(op != NULL, err, DL_ERR_NOMEM, "out of memory building an aggregation");
    *out = op;
    return DL_OK;
}
