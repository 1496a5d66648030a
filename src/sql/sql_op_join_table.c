/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The hash join's build side and table (layout in sql_op_join_int.h): draining the right
 * child, inserting rows into groups of equal keys, and finding the groups of probe rows.
 */
#include <math.h>
#include <string.h>

#include "sql/sql_op_join_int.h"

/* ---- draining the build side --------------------------------------------------------------- */

typedef struct build_local {
    dl_sql_rows rows;
    dl_batch *stage; /* this batch's live rows and extra keys, as the row type */
    uint64_t *hashes;
    int64_t cap_hashes;
    dl_sql_eval **evals;
    dl_vector **key_vecs;
    dl_vector **extra;
    uint64_t h[DL_BATCH_CAPACITY];
} build_local;

static const dl_type **
build_types(const dl_sql_join_state *st, const dl_sql_operator *right, dl_arena *arena) {
    const dl_sql_join *j = st->join;
    const dl_type **types =
        dl_arena_alloc_zero(arena, (size_t)(st->n_right + j->n_keys + 1) * sizeof(dl_type *));
    if (types == NULL) {
        return NULL;
    }
    for (int32_t c = 0; c < st->n_right; c++) {
        types[c] = right->schema->fields[c].type;
    }
    for (int32_t k = 0; k < j->n_keys; k++) {
        if (st->build.key_col[k] >= st->n_right) {
            types[st->build.key_col[k]] = j->right_keys[k]->type;
        }
    }
    return types;
}

static void
build_local_free(void *ctx, void *local) {
    dl_sql_join_state *st = ctx;
    build_local *l = local;
    const dl_allocator *alloc = st->exec->alloc;
    size_t nk = (size_t)DL_MAX(st->join->n_keys, 1);
    if (l->evals != NULL) {
        for (int32_t k = 0; k < st->join->n_keys; k++) {
            dl_sql_eval_free(l->evals[k]);
        }
    }
    dl_mem_free(alloc, l->evals, nk * sizeof(void *));
    dl_mem_free(alloc, l->key_vecs, nk * sizeof(void *));
    dl_mem_free(alloc, l->extra, nk * sizeof(void *));
    dl_mem_free(alloc, l->hashes, (size_t)l->cap_hashes * sizeof(uint64_t));
    dl_sql_rows_destroy(&l->rows);
    dl_vec_batch_free(l->stage);
    dl_mem_free(alloc, l, sizeof(*l));
}

static dl_status
build_local_new(void *ctx, void **out, dl_error *err) {
    dl_sql_join_state *st = ctx;
    const dl_allocator *alloc = st->exec->alloc;
    build_local *l = dl_mem_alloc_zero(alloc, sizeof(*l));
    DL_CHECK(l != NULL, err, DL_ERR_NOMEM, "out of memory building a join");
    *out = l;
    size_t nk = (size_t)DL_MAX(st->join->n_keys, 1);
    l->evals = dl_mem_alloc_zero(alloc, nk * sizeof(void *));
    l->key_vecs = dl_mem_alloc_zero(alloc, nk * sizeof(void *));
    l->extra = dl_mem_alloc_zero(alloc, nk * sizeof(void *));
    DL_CHECK(l->evals != NULL && l->key_vecs != NULL && l->extra != NULL, err, DL_ERR_NOMEM,
             "out of memory building a join");
    for (int32_t k = 0; k < st->join->n_keys; k++) {
        DL_TRY(dl_sql_eval_new(st->exec, st->join->right_keys[k], &l->evals[k], err));
    }
    dl_sql_rows_init(&l->rows, alloc, st->build.row_type);
    return dl_sql_batch_new(st->exec, st->build.row_type, &l->stage, err);
}

static dl_status
append_hashes(const dl_allocator *alloc, uint64_t **hashes, int64_t *cap, int64_t count,
              const uint64_t *h, int64_t n, dl_error *err) {
    if (count + n > *cap) {
        int64_t grown_cap = DL_MAX(count + n, DL_MAX(*cap * 2, DL_BATCH_CAPACITY));
        uint64_t *grown = dl_mem_realloc(alloc, *hashes, (size_t)*cap * sizeof(uint64_t),
                                         (size_t)grown_cap * sizeof(uint64_t));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory building a join");
        *hashes = grown;
        *cap = grown_cap;
    }
    memcpy(*hashes + count, h, (size_t)n * sizeof(uint64_t));
    return DL_OK;
}

static dl_status
build_sink_batch(dl_sql_join_state *st, build_local *l, dl_batch *batch, dl_error *err) {
    const dl_sql_join *j = st->join;
    int32_t n_extra = 0;
    for (int32_t k = 0; k < j->n_keys; k++) {
        dl_sql_hash_vec(l->key_vecs[k], batch->count, l->h, k == 0);
        if (st->build.key_col[k] >= st->n_right) {
            dl_vec_batch_set_col(l->stage, st->n_right + n_extra++, dl_vec_ref(l->key_vecs[k]));
        }
    }
    if (j->n_keys > 0) {
        DL_TRY(append_hashes(st->exec->alloc, &l->hashes, &l->cap_hashes, l->rows.count, l->h,
                             batch->count, err));
    }
    for (int32_t c = 0; c < st->n_right; c++) {
        dl_vector *v;
        DL_TRY(dl_sql_batch_column(batch, c, &v, err));
        dl_vec_batch_set_col(l->stage, c, v);
    }
    dl_vec_batch_set_count(l->stage, batch->count);
    dl_status s = dl_sql_rows_append(&l->rows, l->stage, err);
    for (int32_t c = 0; c < l->stage->n_cols; c++) {
        dl_vec_batch_set_col(l->stage, c, NULL); /* let the child reuse its vectors */
    }
    return s;
}

static dl_status
build_sink(void *ctx, void *local, dl_batch *batch, dl_error *err) {
    dl_sql_join_state *st = ctx;
    build_local *l = local;
    int32_t n_keys = st->join->n_keys;
    dl_status s = DL_OK;
    int32_t done = 0;
    for (; done < n_keys && s == DL_OK; done++) {
        s = dl_sql_eval_run(l->evals[done], batch, &l->key_vecs[done], err);
    }
    if (s == DL_OK) {
        s = build_sink_batch(st, l, batch, err);
    }
    for (int32_t k = 0; k < done; k++) {
        dl_vec_unref(l->key_vecs[k]);
        l->key_vecs[k] = NULL;
    }
    return s;
}

static dl_status
build_combine(void *ctx, void *local, dl_error *err) {
    dl_sql_join_state *st = ctx;
    build_local *l = local;
    dl_sql_join_build *b = &st->build;
    if (l->rows.count == 0) {
        return DL_OK;
    }
    if (st->join->n_keys > 0) {
        DL_TRY(append_hashes(st->exec->alloc, &b->hashes, &b->cap_hashes, b->collect.count,
                             l->hashes, l->rows.count, err));
    }
    return dl_sql_rows_move_append(&b->collect, &l->rows, err);
}

/* ---- the table ----------------------------------------------------------------------------- */

static bool
build_row_has_null_key(const dl_sql_join_state *st, int64_t row) {
    const dl_sql_join *j = st->join;
    for (int32_t k = 0; k < j->n_keys; k++) {
        const dl_vector *v = st->build.key_vecs[k];
        if (!j->is_null_equal[k] && dl_vec_is_null(v, row)) {
            return true;
        }
    }
    return false;
}

static bool
build_rows_equal(const dl_sql_join_state *st, int64_t a, int64_t b) {
    for (int32_t k = 0; k < st->join->n_keys; k++) {
        const dl_vector *v = st->build.key_vecs[k];
        if (!dl_sql_value_equal(v, a, v, b)) {
            return false;
        }
    }
    return true;
}

/* An integer key value, widened. Assumes: phys is I8, I16, I32 or I64. */
static inline int64_t
int_at(dl_vec_phys phys, const void *data, int64_t e) {
    switch (phys) {
    case DL_VEC_PHYS_I8:
        return (int64_t)((const uint8_t *)data)[e] - (((const uint8_t *)data)[e] >= 128 ? 256 : 0);
    case DL_VEC_PHYS_I16:
        return ((const int16_t *)data)[e];
    case DL_VEC_PHYS_I32:
        return ((const int32_t *)data)[e];
    default:
        return ((const int64_t *)data)[e];
    }
}

static void
insert_row(dl_sql_join_state *st, int64_t row) {
    dl_sql_join_build *b = &st->build;
    uint64_t h = b->hashes[row];
    uint64_t salt = h >> DL_SQL_JT_SALT_SHIFT;
    uint64_t pos = h & b->mask;
    int32_t stride = b->stride;
    int64_t key = b->is_int_key ? int_at(st->key_phys[0], b->key_vecs[0]->data, row) : 0;
    for (;;) {
        uint64_t *at = b->slots + pos * (uint64_t)stride;
        uint64_t slot = at[0];
        if (slot == 0) {
            at[0] = (salt << DL_SQL_JT_SALT_SHIFT) | (uint64_t)(row + 1);
            if (b->is_int_key) {
                at[1] = (uint64_t)key;
            }
            return;
        }
        if ((slot >> DL_SQL_JT_SALT_SHIFT) == salt) {
            int64_t head = (int64_t)(slot & DL_SQL_JT_ROW_MASK) - 1;
            if (b->is_int_key ? (int64_t)at[1] == key : build_rows_equal(st, row, head)) {
                b->next[row] = b->next[head];
                b->next[head] = (uint32_t)(row + 1);
                at[0] = slot | DL_SQL_JT_DUP;
                st->has_dup_groups = true;
                return;
            }
        }
        pos = (pos + 1) & b->mask;
    }
}

static dl_status
note_null_row(dl_sql_join_state *st, int64_t row, dl_error *err) {
    dl_sql_join_build *b = &st->build;
    if (b->n_null_rows == b->cap_null_rows) {
        int64_t cap = b->cap_null_rows == 0 ? 64 : b->cap_null_rows * 2;
        uint32_t *grown = dl_mem_realloc(st->exec->alloc, b->null_rows,
                                         (size_t)b->cap_null_rows * sizeof(uint32_t),
                                         (size_t)cap * sizeof(uint32_t));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory building a join");
        b->null_rows = grown;
        b->cap_null_rows = cap;
    }
    b->null_rows[b->n_null_rows++] = (uint32_t)row;
    return DL_OK;
}

static dl_status
build_table(dl_sql_join_state *st, dl_error *err) {
    dl_sql_join_build *b = &st->build;
    int64_t n = b->rows.count;
    DL_CHECK(n < (int64_t)UINT32_MAX, err, DL_ERR_LIMIT,
             "the build side of a join has %lld rows, more than %u", (long long)n,
             (unsigned)UINT32_MAX - 1);
    uint64_t cap = 1024;
    while (cap < (uint64_t)n * 2) {
        cap *= 2;
    }
    const dl_allocator *alloc = st->exec->alloc;
    const dl_sql_join *j = st->join;
    dl_vec_phys kp = st->key_phys[0];
    b->is_int_key = j->n_keys == 1 && !j->is_null_equal[0] &&
                    (kp == DL_VEC_PHYS_I8 || kp == DL_VEC_PHYS_I16 || kp == DL_VEC_PHYS_I32 ||
                     kp == DL_VEC_PHYS_I64);
    b->stride = b->is_int_key ? 2 : 1;
    b->mask = cap - 1; /* before allocating: the free path sizes slots by it */
    b->slots = dl_mem_alloc_zero(alloc, cap * (uint64_t)b->stride * sizeof(uint64_t));
    b->next = dl_mem_alloc_zero(alloc, (size_t)DL_MAX(n, 1) * sizeof(uint32_t));
    DL_CHECK(b->slots != NULL && b->next != NULL, err, DL_ERR_NOMEM,
             "out of memory building a join table of %lld rows", (long long)n);
    bool may_have_null_keys = false;
    for (int32_t k = 0; k < j->n_keys; k++) {
        may_have_null_keys |= !j->is_null_equal[k] && b->key_vecs[k]->validity != NULL;
    }
    for (int64_t row = 0; row < n; row++) {
        if (row + 16 < n) {
            uint64_t ahead = (b->hashes[row + 16] & b->mask) * (uint64_t)b->stride;
            __builtin_prefetch(&b->slots[ahead], 1);
        }
        if (may_have_null_keys && build_row_has_null_key(st, row)) {
            DL_TRY(note_null_row(st, row, err));
            continue;
        }
        insert_row(st, row);
    }
    dl_mem_free(alloc, b->hashes, (size_t)b->cap_hashes * sizeof(uint64_t));
    b->hashes = NULL;
    b->cap_hashes = 0;
    return DL_OK;
}

static dl_status
build_prepare(dl_sql_join_state *st, const dl_sql_operator *right, dl_error *err) {
    const dl_sql_join *j = st->join;
    dl_sql_join_build *b = &st->build;
    dl_arena *arena = st->exec->arena;
    size_t nk = (size_t)DL_MAX(j->n_keys, 1);
    b->key_col = dl_arena_alloc_zero(arena, nk * sizeof(int32_t));
    b->key_vecs = dl_arena_alloc_zero(arena, nk * sizeof(dl_vector *));
    DL_CHECK(b->key_col != NULL && b->key_vecs != NULL, err, DL_ERR_NOMEM,
             "out of memory building a join");
    for (int32_t k = 0; k < j->n_keys; k++) {
        const dl_sql_bexpr *e = j->right_keys[k];
        b->key_col[k] = e->kind == DL_SQL_BEXPR_COLUMN ? e->index : st->n_right + b->n_extra++;
    }
    const dl_type **types = build_types(st, right, arena);
    DL_CHECK(types != NULL, err, DL_ERR_NOMEM, "out of memory building a join");
    int32_t n = st->n_right + b->n_extra;
    dl_type_field *fields = dl_arena_alloc_zero(arena, (size_t)DL_MAX(n, 1) * sizeof(*fields));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory building a join");
    for (int32_t c = 0; c < n; c++) {
        const char *name = c < st->n_right ? right->schema->fields[c].name : "key";
        fields[c] = (dl_type_field){.name = name, .type = types[c], .is_nullable = true};
    }
    DL_TRY(dl_vec_type_struct(arena, fields, n, &b->row_type, err));
    dl_sql_rows_init(&b->collect, st->exec->alloc, b->row_type);
    return dl_sql_colbuf_init(&b->rows, st->exec->alloc, types, n, err);
}

/* Copies the collected chunks once into vectors of exactly the collected size. */
static dl_status
consolidate(dl_sql_join_build *b, dl_error *err) {
    int64_t n = b->collect.count;
    for (int32_t c = 0; c < b->rows.n_cols && n > 0; c++) {
        DL_TRY(dl_vec_reserve(b->rows.cols[c], n, err));
        for (int64_t i = 0; i < b->collect.n_chunks; i++) {
            const dl_batch *chunk = b->collect.chunks[i];
            DL_TRY(dl_vec_copy_sel(b->rows.cols[c], chunk->cols[c], NULL, chunk->count, err));
        }
    }
    b->rows.count = n;
    dl_sql_rows_destroy(&b->collect);
    return DL_OK;
}

dl_status
dl_sql_join_build_run(dl_sql_join_state *st, dl_sql_operator *right, dl_error *err) {
    static const dl_sql_sink sink = {
        .local_new = build_local_new,
        .sink = build_sink,
        .combine = build_combine,
        .local_free = build_local_free,
    };
    DL_TRY(build_prepare(st, right, err));
    DL_TRY(dl_sql_op_drain(right, &sink, st, err));
    dl_sql_join_build *b = &st->build;
    DL_TRY(consolidate(b, err));
    for (int32_t k = 0; k < st->join->n_keys; k++) {
        b->key_vecs[k] = b->rows.cols[b->key_col[k]];
    }
    if (st->join->n_keys > 0) {
        DL_TRY(build_table(st, err));
    }
    dl_sql_join_type t = st->join->type;
    if (t == DL_SQL_JOIN_T_RIGHT || t == DL_SQL_JOIN_T_FULL) {
        b->matched_mem = dl_mem_alloc_zero(st->exec->alloc, (size_t)DL_MAX(b->rows.count, 1));
        b->matched = b->matched_mem;
        DL_CHECK(b->matched != NULL, err, DL_ERR_NOMEM, "out of memory building a join");
    }
    return DL_OK;
}

void
dl_sql_join_build_free(dl_sql_join_state *st) {
    dl_sql_join_build *b = &st->build;
    const dl_allocator *alloc = st->exec->alloc;
    int64_t n = b->rows.count;
    dl_mem_free(alloc, b->hashes, (size_t)b->cap_hashes * sizeof(uint64_t));
    if (b->slots != NULL) {
        dl_mem_free(alloc, b->slots, (size_t)(b->mask + 1) * (size_t)b->stride * sizeof(uint64_t));
    }
    dl_mem_free(alloc, b->next, (size_t)DL_MAX(n, 1) * sizeof(uint32_t));
    dl_mem_free(alloc, b->null_rows, (size_t)b->cap_null_rows * sizeof(uint32_t));
    if (b->matched_mem != NULL) {
        dl_mem_free(alloc, b->matched_mem, (size_t)DL_MAX(n, 1));
    }
    dl_sql_colbuf_destroy(&b->rows);
    if (b->row_type != NULL) {
        dl_sql_rows_destroy(&b->collect);
    }
    memset(b, 0, sizeof(*b));
}

/* ---- probing ------------------------------------------------------------------------------- */

static inline bool
doubles_equal(double x, double y) {
    return x == y || (isnan(x) && isnan(y));
}

/* Values of key kk: probe row k (unified u) and build row b (FLAT bv), neither NULL. */
static inline bool
values_equal(dl_vec_phys phys, const dl_vec_unified *u, const dl_vector *pv, int64_t k,
             const dl_vector *bv, int64_t b) {
    const void *pd = u->data;
    const void *bd = bv->data;
    int64_t e = u->sel[k];
    switch (phys) {
    case DL_VEC_PHYS_BIT:
        return dl_vec_bit_get(pd, e) == dl_vec_bit_get(bd, b);
    case DL_VEC_PHYS_I8:
        return ((const int8_t *)pd)[e] == ((const int8_t *)bd)[b];
    case DL_VEC_PHYS_I16:
        return ((const int16_t *)pd)[e] == ((const int16_t *)bd)[b];
    case DL_VEC_PHYS_I32:
        return ((const int32_t *)pd)[e] == ((const int32_t *)bd)[b];
    case DL_VEC_PHYS_I64:
        return ((const int64_t *)pd)[e] == ((const int64_t *)bd)[b];
    case DL_VEC_PHYS_I128:
        return ((const dl_i128 *)pd)[e] == ((const dl_i128 *)bd)[b];
    case DL_VEC_PHYS_F32:
        return doubles_equal((double)((const float *)pd)[e], (double)((const float *)bd)[b]);
    case DL_VEC_PHYS_F64:
        return doubles_equal(((const double *)pd)[e], ((const double *)bd)[b]);
    case DL_VEC_PHYS_VIEW:
        return dl_vec_view_equal(u->flat, (const dl_vec_view *)pd + e, bv,
                                 (const dl_vec_view *)bd + b);
    default:
        return dl_sql_value_equal(pv, k, bv, b);
    }
}

static inline bool
keys_equal(const dl_sql_join_state *st, const dl_sql_join_local *l, int64_t k, int64_t b,
           bool is_null_match) {
    for (int32_t kk = 0; kk < st->join->n_keys; kk++) {
        const dl_vec_unified *u = &l->ukeys[kk];
        const dl_vector *bv = st->build.key_vecs[kk];
        bool pn = u->validity != NULL && !dl_vec_bit_get(u->validity, k);
        bool bn = bv->validity != NULL && !dl_vec_bit_get(bv->validity, b);
        if (pn || bn) {
            if (is_null_match || (pn && bn)) {
                continue;
            }
            return false;
        }
        if (!values_equal(st->key_phys[kk], u, l->keys[kk], k, bv, b)) {
            return false;
        }
    }
    return true;
}

bool
dl_sql_join_maybe_equal(const dl_sql_join_state *st, const dl_sql_join_local *l, int64_t k,
                        int64_t b) {
    return keys_equal(st, l, k, b, true);
}

static void
mark_null_keys(const dl_sql_join_state *st, dl_sql_join_local *l, int64_t count) {
    memset(l->null_key, 0, (size_t)count);
    for (int32_t kk = 0; kk < st->join->n_keys; kk++) {
        const uint8_t *v = l->ukeys[kk].validity;
        if (st->join->is_null_equal[kk] || v == NULL) {
            continue;
        }
        for (int64_t k = 0; k < count; k++) {
            if (!dl_vec_bit_get(v, k)) {
                l->null_key[k] = 1;
            }
        }
    }
}

/* Probing a table keyed by one integer: the key sits next to its slot word. */
static void
probe_int(const dl_sql_join_state *st, dl_sql_join_local *l, int64_t count) {
    const dl_sql_join_build *b = &st->build;
    const dl_vec_unified *u = &l->ukeys[0];
    dl_vec_phys phys = st->key_phys[0];
    for (int64_t k = 0; k < count; k++) {
        l->head[k] = 0;
        if (l->null_key[k]) {
            continue;
        }
        int64_t key = int_at(phys, u->data, u->sel[k]);
        uint64_t h = l->hashes[k];
        uint64_t salt = h >> DL_SQL_JT_SALT_SHIFT;
        uint64_t pos = h & b->mask;
        for (;;) {
            const uint64_t *at = b->slots + pos * 2;
            if (at[0] == 0) {
                break;
            }
            if ((at[0] >> DL_SQL_JT_SALT_SHIFT) == salt && (int64_t)at[1] == key) {
                l->head[k] = (uint32_t)(at[0] & DL_SQL_JT_ROW_MASK);
                l->has_dups |= (at[0] & DL_SQL_JT_DUP) != 0;
                break;
            }
            pos = (pos + 1) & b->mask;
        }
    }
}

void
dl_sql_join_probe(const dl_sql_join_state *st, dl_sql_join_local *l, int64_t count) {
    const dl_sql_join_build *b = &st->build;
    l->has_dups = false;
    if (st->join->n_keys == 0) {
        memset(l->null_key, 0, (size_t)count);
        for (int64_t k = 0; k < count; k++) {
            l->head[k] = b->rows.count > 0 ? 1 : 0;
        }
        l->has_dups = b->rows.count > 1;
        return;
    }
    mark_null_keys(st, l, count);
    int32_t stride = b->stride;
    for (int64_t k = 0; k < count; k++) {
        __builtin_prefetch(&b->slots[(l->hashes[k] & b->mask) * (uint64_t)stride]);
    }
    if (b->is_int_key) {
        probe_int(st, l, count);
        return;
    }
    for (int64_t k = 0; k < count; k++) {
        l->head[k] = 0;
        if (l->null_key[k]) {
            continue;
        }
        uint64_t h = l->hashes[k];
        uint64_t salt = h >> DL_SQL_JT_SALT_SHIFT;
        uint64_t pos = h & b->mask;
        for (;;) {
            uint64_t slot = b->slots[pos];
            if (slot == 0) {
                break;
            }
            if ((slot >> DL_SQL_JT_SALT_SHIFT) == salt) {
                int64_t row = (int64_t)(slot & DL_SQL_JT_ROW_MASK) - 1;
                if (keys_equal(st, l, k, row, false)) {
                    l->head[k] = (uint32_t)(row + 1);
                    l->has_dups |= (slot & DL_SQL_JT_DUP) != 0;
                    break;
                }
            }
            pos = (pos + 1) & b->mask;
        }
    }
}
