/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The hash join's build side and table (layout in sql_op_join_int.h): draining the right
 * child, inserting rows into groups of equal keys (in parallel for large tables), and finding
 * the groups of probe rows.
 */
#include <math.h>
#include <string.h>

#include "sql/exec/sql_op_join_int.h"

/* Below this many build rows the table is built on one thread. */
#define PARALLEL_BUILD_MIN (INT64_C(1) << 16)
/* A direct table is built when the keys span fewer than rows * DIRECT_SPREAD + DIRECT_SLACK
 * values. */
#define DIRECT_SPREAD 4
#define DIRECT_SLACK  1024
/* From this many build rows on, probes prefetch the right columns of matched rows. */
#define PREFETCH_PAYLOAD_MIN (INT64_C(1) << 16)

/* ---- draining the build side --------------------------------------------------------------- */

typedef struct build_local {
    dl_sql_join_part part;
    dl_sql_eval **evals;
    dl_vector **key_vecs;
    dl_vector **extra; /* this batch's extra key columns */
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
part_destroy(const dl_allocator *alloc, dl_sql_join_part *part) {
    dl_mem_free(alloc, part->hashes, (size_t)part->cap_hashes * sizeof(uint64_t));
    dl_sql_colbuf_destroy(&part->rows);
    memset(part, 0, sizeof(*part));
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
    part_destroy(alloc, &l->part);
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
    const dl_sql_join_build *b = &st->build;
    return dl_sql_colbuf_init(&l->part.rows, alloc, b->types, st->n_right + b->n_extra, err);
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
            l->extra[n_extra++] = l->key_vecs[k];
        }
    }
    dl_sql_join_part *part = &l->part;
    if (j->n_keys > 0) {
        DL_TRY(append_hashes(st->exec->alloc, &part->hashes, &part->cap_hashes, part->rows.count,
                             l->h, batch->count, err));
    }
    return dl_sql_colbuf_append(&part->rows, batch, NULL, batch->count, l->extra, NULL, n_extra,
                                err);
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

/* Moves a thread's part (when it has rows) to the build's list. */
static dl_status
build_combine(void *ctx, void *local, dl_error *err) {
    dl_sql_join_state *st = ctx;
    build_local *l = local;
    dl_sql_join_build *b = &st->build;
    if (l->part.rows.count == 0) {
        return DL_OK;
    }
    if (b->n_parts == b->cap_parts) {
        int32_t cap = b->cap_parts == 0 ? 4 : b->cap_parts * 2;
        dl_sql_join_part *grown =
            dl_mem_realloc(st->exec->alloc, b->parts, (size_t)b->cap_parts * sizeof(*grown),
                           (size_t)cap * sizeof(*grown));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory building a join");
        b->parts = grown;
        b->cap_parts = cap;
    }
    b->parts[b->n_parts++] = l->part;
    memset(&l->part, 0, sizeof(l->part));
    return DL_OK;
}

/* ---- one build side out of the parts ------------------------------------------------------- */

typedef struct concat_task {
    dl_sql_join_build *b;
    int32_t col;
} concat_task;

/* Appends column col of every part but the first (already in b->rows) to b->rows. */
static dl_status
concat_column(void *arg, dl_error *err) {
    concat_task *t = arg;
    dl_sql_join_build *b = t->b;
    dl_vector *dst = b->rows.cols[t->col];
    int64_t total = 0;
    for (int32_t p = 0; p < b->n_parts; p++) {
        total += b->parts[p].rows.count;
    }
    DL_TRY(dl_vec_reserve(dst, total, err));
    for (int32_t p = 1; p < b->n_parts; p++) {
        const dl_sql_join_part *part = &b->parts[p];
        DL_TRY(dl_vec_copy_sel(dst, part->rows.cols[t->col], NULL, part->rows.count, err));
    }
    return DL_OK;
}

static dl_status
concat_hashes(dl_sql_join_state *st, dl_error *err) {
    dl_sql_join_build *b = &st->build;
    dl_sql_join_part *first = &b->parts[0];
    b->hashes = first->hashes;
    b->cap_hashes = first->cap_hashes;
    first->hashes = NULL;
    first->cap_hashes = 0;
    int64_t at = b->rows.count; /* the first part's rows, already moved */
    for (int32_t p = 1; p < b->n_parts; p++) {
        const dl_sql_join_part *part = &b->parts[p];
        DL_TRY(append_hashes(st->exec->alloc, &b->hashes, &b->cap_hashes, at, part->hashes,
                             part->rows.count, err));
        at += part->rows.count;
    }
    return DL_OK;
}

/* Makes b->rows (and b->hashes) out of the parts: the largest part is taken as it is, the
 * others are appended to it, one task per column. */
static dl_status
consolidate(dl_sql_join_state *st, dl_error *err) {
    dl_sql_join_build *b = &st->build;
    if (b->n_parts == 0) {
        return DL_OK;
    }
    int32_t largest = 0;
    int64_t total = 0;
    for (int32_t p = 0; p < b->n_parts; p++) {
        total += b->parts[p].rows.count;
        if (b->parts[p].rows.count > b->parts[largest].rows.count) {
            largest = p;
        }
    }
    DL_CHECK(total < (int64_t)UINT32_MAX, err, DL_ERR_LIMIT,
             "the build side of a join has %lld rows, more than %u", (long long)total,
             (unsigned)UINT32_MAX - 1);
    dl_sql_join_part tmp = b->parts[0];
    b->parts[0] = b->parts[largest];
    b->parts[largest] = tmp;
    dl_sql_colbuf_destroy(&b->rows);
    b->rows = b->parts[0].rows;
    memset(&b->parts[0].rows, 0, sizeof(b->parts[0].rows));
    if (st->join->n_keys > 0) {
        DL_TRY(concat_hashes(st, err));
    }
    if (b->n_parts > 1) {
        int32_t n = b->rows.n_cols;
        concat_task *tasks =
            dl_mem_alloc_zero(st->exec->alloc, (size_t)DL_MAX(n, 1) * sizeof(*tasks));
        DL_CHECK(tasks != NULL, err, DL_ERR_NOMEM, "out of memory building a join");
        for (int32_t c = 0; c < n; c++) {
            tasks[c] = (concat_task){.b = b, .col = c};
        }
        dl_status s = dl_sql_exec_parallel(st->exec, concat_column, tasks, sizeof(*tasks), n, err);
        dl_mem_free(st->exec->alloc, tasks, (size_t)DL_MAX(n, 1) * sizeof(*tasks));
        DL_TRY(s);
    }
    b->rows.count = total;
    for (int32_t p = 0; p < b->n_parts; p++) {
        part_destroy(st->exec->alloc, &b->parts[p]);
    }
    b->n_parts = 0;
    return DL_OK;
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

/*
 * Inserts row, probing from its home slot up to (not including) slot `end` (the end of the
 * caller's range; cap + home for an unbounded probe). Returns false, writing nothing, when the
 * probe reached end. *out_dup is set when the row joined an existing group.
 */
static bool
insert_row(dl_sql_join_state *st, int64_t row, uint64_t end, bool *out_dup) {
    dl_sql_join_build *b = &st->build;
    uint64_t h = b->hashes[row];
    uint64_t salt = h >> DL_SQL_JT_SALT_SHIFT;
    uint64_t pos = h & b->mask;
    int32_t stride = b->stride;
    int64_t key = b->is_int_key ? int_at(st->key_phys[0], b->key_vecs[0]->data, row) : 0;
    for (uint64_t step = pos; step < end; step++) {
        uint64_t *at = b->slots + pos * (uint64_t)stride;
        uint64_t slot = at[0];
        if (slot == 0) {
            at[0] = (salt << DL_SQL_JT_SALT_SHIFT) | (uint64_t)(row + 1);
            if (b->is_int_key) {
                at[1] = (uint64_t)key;
            }
            return true;
        }
        if ((slot >> DL_SQL_JT_SALT_SHIFT) == salt) {
            int64_t head = (int64_t)(slot & DL_SQL_JT_ROW_MASK) - 1;
            if (b->is_int_key ? (int64_t)at[1] == key : build_rows_equal(st, row, head)) {
                b->next[row] = b->next[head];
                b->next[head] = (uint32_t)(row + 1);
                at[0] = slot | DL_SQL_JT_DUP;
                *out_dup = true;
                return true;
            }
        }
        pos = (pos + 1) & b->mask;
    }
    return false;
}

static dl_status
note_row(const dl_allocator *alloc, uint32_t **rows, int64_t *n, int64_t *cap, int64_t row,
         dl_error *err) {
    if (*n == *cap) {
        int64_t grown_cap = *cap == 0 ? 64 : *cap * 2;
        uint32_t *grown = dl_mem_realloc(alloc, *rows, (size_t)*cap * sizeof(uint32_t),
                                         (size_t)grown_cap * sizeof(uint32_t));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory building a join");
        *rows = grown;
        *cap = grown_cap;
    }
    (*rows)[(*n)++] = (uint32_t)row;
    return DL_OK;
}

/* True when some key that is not null-safe may hold a NULL on the build side. */
static bool
may_have_null_keys(const dl_sql_join_state *st) {
    const dl_sql_join *j = st->join;
    bool may = false;
    for (int32_t k = 0; k < j->n_keys; k++) {
        may |= !j->is_null_equal[k] && st->build.key_vecs[k]->validity != NULL;
    }
    return may;
}

/* One task of the build: the rows whose home slot is in [lo, hi). */
typedef struct insert_task {
    dl_sql_join_state *st; /* tasks write only slots of their range and next[] of its rows */
    uint64_t lo;
    uint64_t hi;
    bool has_nulls; /* skip rows with a NULL key (listed apart) */
    bool has_dup;
    uint32_t *spill; /* rows whose probe left the range */
    int64_t n_spill;
    int64_t cap_spill;
} insert_task;

static dl_status
insert_range(void *arg, dl_error *err) {
    insert_task *t = arg;
    dl_sql_join_state *st = t->st;
    const dl_sql_join_build *b = &st->build;
    int64_t n = b->rows.count;
    for (int64_t row = 0; row < n; row++) {
        if (row + 16 < n) {
            uint64_t ahead = b->hashes[row + 16] & b->mask;
            if (ahead >= t->lo && ahead < t->hi) {
                __builtin_prefetch(&b->slots[ahead * (uint64_t)b->stride], 1);
            }
        }
        uint64_t home = b->hashes[row] & b->mask;
        if (home < t->lo || home >= t->hi) {
            continue;
        }
        if (t->has_nulls && build_row_has_null_key(st, row)) {
            continue;
        }
        if (!insert_row(st, row, t->hi, &t->has_dup)) {
            DL_TRY(note_row(st->exec->alloc, &t->spill, &t->n_spill, &t->cap_spill, row, err));
        }
    }
    return DL_OK;
}

/* Inserts every row with parts tasks over ranges of the slots, then the rows set aside. */
static dl_status
insert_all(dl_sql_join_state *st, insert_task *tasks, int parts, dl_error *err) {
    dl_sql_join_build *b = &st->build;
    uint64_t cap = b->mask + 1;
    bool has_nulls = may_have_null_keys(st);
    for (int p = 0; p < parts; p++) {
        tasks[p] =
            (insert_task){.st = st,
                          .lo = cap / (uint64_t)parts * (uint64_t)p,
                          .hi = p + 1 == parts ? cap : cap / (uint64_t)parts * (uint64_t)(p + 1),
                          .has_nulls = has_nulls};
    }
    DL_TRY(dl_sql_exec_parallel(st->exec, insert_range, tasks, sizeof(*tasks), parts, err));
    for (int p = 0; p < parts; p++) {
        st->has_dup_groups |= tasks[p].has_dup;
        for (int64_t i = 0; i < tasks[p].n_spill; i++) {
            uint32_t row = tasks[p].spill[i];
            bool inserted =
                insert_row(st, row, (b->hashes[row] & b->mask) + cap, &st->has_dup_groups);
            DL_ASSERT(inserted);
            (void)inserted;
        }
    }
    if (!has_nulls) {
        return DL_OK;
    }
    for (int64_t row = 0; row < b->rows.count; row++) {
        if (build_row_has_null_key(st, row)) {
            DL_TRY(note_row(st->exec->alloc, &b->null_rows, &b->n_null_rows, &b->cap_null_rows, row,
                            err));
        }
    }
    return DL_OK;
}

/* The smallest and largest non-NULL key of a one-integer-key build side; false when every
 * key is NULL. */
static bool
key_range(const dl_sql_join_state *st, int64_t *out_lo, int64_t *out_hi) {
    const dl_sql_join_build *b = &st->build;
    const dl_vector *kv = b->key_vecs[0];
    dl_vec_phys phys = st->key_phys[0];
    int64_t lo = INT64_MAX;
    int64_t hi = INT64_MIN;
    for (int64_t row = 0; row < b->rows.count; row++) {
        if (kv->validity != NULL && !dl_vec_bit_get(kv->validity, row)) {
            continue;
        }
        int64_t x = int_at(phys, kv->data, row);
        lo = DL_MIN(lo, x);
        hi = DL_MAX(hi, x);
    }
    *out_lo = lo;
    *out_hi = hi;
    return lo <= hi;
}

/* Fills the direct table (sql_op_join_int.h) in row order; rows with a NULL key are listed in
 * null_rows. */
static dl_status
fill_direct(dl_sql_join_state *st, dl_error *err) {
    dl_sql_join_build *b = &st->build;
    const dl_vector *kv = b->key_vecs[0];
    dl_vec_phys phys = st->key_phys[0];
    for (int64_t row = 0; row < b->rows.count; row++) {
        if (kv->validity != NULL && !dl_vec_bit_get(kv->validity, row)) {
            DL_TRY(note_row(st->exec->alloc, &b->null_rows, &b->n_null_rows, &b->cap_null_rows, row,
                            err));
            continue;
        }
        uint64_t d = (uint64_t)int_at(phys, kv->data, row) - (uint64_t)b->direct_min;
        uint32_t *at = &b->direct[d];
        if (*at == 0) {
            *at = (uint32_t)(row + 1);
            continue;
        }
        uint32_t head = (*at & ~DL_SQL_JT_DIRECT_DUP) - 1;
        b->next[row] = b->next[head];
        b->next[head] = (uint32_t)(row + 1);
        *at |= DL_SQL_JT_DIRECT_DUP;
        st->has_dup_groups = true;
    }
    return DL_OK;
}

/* Builds a direct table when the side has one integer key whose values are dense enough;
 * *out_done says whether it did. */
static dl_status
build_direct(dl_sql_join_state *st, bool *out_done, dl_error *err) {
    dl_sql_join_build *b = &st->build;
    int64_t n = b->rows.count;
    *out_done = false;
    int64_t lo;
    int64_t hi;
    if (!b->is_int_key || n >= (int64_t)DL_SQL_JT_DIRECT_DUP ||
        b->key_vecs[0]->layout != DL_VEC_FLAT || !key_range(st, &lo, &hi)) {
        return DL_OK;
    }
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    if (span >= (uint64_t)n * DIRECT_SPREAD + DIRECT_SLACK) {
        return DL_OK;
    }
    b->direct_len = span + 1; /* before allocating: the free path sizes direct by it */
    b->direct = dl_mem_alloc_zero(st->exec->alloc, b->direct_len * sizeof(uint32_t));
    DL_CHECK(b->direct != NULL, err, DL_ERR_NOMEM,
             "out of memory building a join table of %lld rows", (long long)n);
    b->direct_min = lo;
    *out_done = true;
    return fill_direct(st, err);
}

/* The hashed table (sql_op_join_int.h). */
static dl_status
build_hashed(dl_sql_join_state *st, dl_error *err) {
    dl_sql_join_build *b = &st->build;
    int64_t n = b->rows.count;
    uint64_t cap = 1024;
    while (cap < (uint64_t)n * 2) {
        cap *= 2;
    }
    const dl_allocator *alloc = st->exec->alloc;
    b->stride = b->is_int_key ? 2 : 1;
    b->mask = cap - 1; /* before allocating: the free path sizes slots by it */
    b->slots = dl_mem_alloc_zero(alloc, cap * (uint64_t)b->stride * sizeof(uint64_t));
    DL_CHECK(b->slots != NULL, err, DL_ERR_NOMEM,
             "out of memory building a join table of %lld rows", (long long)n);
    int parts = n >= PARALLEL_BUILD_MIN && st->exec->pool != NULL ? st->exec->n_threads : 1;
    insert_task *tasks = dl_mem_alloc_zero(alloc, (size_t)parts * sizeof(*tasks));
    DL_CHECK(tasks != NULL, err, DL_ERR_NOMEM, "out of memory building a join");
    dl_status s = insert_all(st, tasks, parts, err);
    for (int p = 0; p < parts; p++) {
        dl_mem_free(alloc, tasks[p].spill, (size_t)tasks[p].cap_spill * sizeof(uint32_t));
    }
    dl_mem_free(alloc, tasks, (size_t)parts * sizeof(*tasks));
    return s;
}

static dl_status
build_table(dl_sql_join_state *st, dl_error *err) {
    dl_sql_join_build *b = &st->build;
    int64_t n = b->rows.count;
    const dl_allocator *alloc = st->exec->alloc;
    const dl_sql_join *j = st->join;
    dl_vec_phys kp = st->key_phys[0];
    b->is_int_key = j->n_keys == 1 && !j->is_null_equal[0] &&
                    (kp == DL_VEC_PHYS_I8 || kp == DL_VEC_PHYS_I16 || kp == DL_VEC_PHYS_I32 ||
                     kp == DL_VEC_PHYS_I64);
    b->next = dl_mem_alloc_zero(alloc, (size_t)DL_MAX(n, 1) * sizeof(uint32_t));
    DL_CHECK(b->next != NULL, err, DL_ERR_NOMEM, "out of memory building a join table of %lld rows",
             (long long)n);
    bool is_direct;
    dl_status s = build_direct(st, &is_direct, err);
    if (s == DL_OK && !is_direct) {
        s = build_hashed(st, err);
    }
    dl_mem_free(alloc, b->hashes, (size_t)b->cap_hashes * sizeof(uint64_t));
    b->hashes = NULL;
    b->cap_hashes = 0;
    return s;
}

/* ---- small dictionaries of right columns --------------------------------------------------- */

#define CODE_SLOTS (2 * DL_SQL_JOIN_CODE_MAX) /* a power of two */

/* Bytes of one value of a fixed-width physical type; 0 for the others. */
static size_t
fixed_width(dl_vec_phys phys) {
    switch (phys) {
    case DL_VEC_PHYS_I8:
        return 1;
    case DL_VEC_PHYS_I16:
        return 2;
    case DL_VEC_PHYS_I32:
    case DL_VEC_PHYS_F32:
        return 4;
    case DL_VEC_PHYS_I64:
    case DL_VEC_PHYS_F64:
        return 8;
    case DL_VEC_PHYS_I128:
        return 16;
    default:
        return 0;
    }
}

/* Hash of the bytes of element row of the FLAT vector col (width w, 0 for views). */
static inline uint64_t
code_hash(const dl_vector *col, size_t w, int64_t row) {
    if (w == 0) {
        dl_str s = dl_vec_get_str(col, row);
        return dl_hash_bytes(s.ptr, s.len, 0);
    }
    return dl_hash_bytes((const char *)col->data + (size_t)row * w, w, 0);
}

/* Elements a and b of col are the same bytes (floats by bits: -0.0 and NaNs stay apart). */
static inline bool
code_equal(const dl_vector *col, size_t w, int64_t a, int64_t b) {
    if (w == 0) {
        const dl_vec_view *v = col->data;
        return dl_vec_view_equal(col, v + a, col, v + b);
    }
    const char *d = col->data;
    return memcmp(d + (size_t)a * w, d + (size_t)b * w, w) == 0;
}

/* One right column to code. */
typedef struct code_task {
    const dl_sql_join_state *st;
    int32_t col;
    uint16_t *codes; /* out: per build row, NULL when the column is not coded */
    dl_vector *dict; /* out: the distinct values, in order of first appearance */
    uint16_t *table; /* scratch: CODE_SLOTS slots of code + 1 (0 empty) */
    uint32_t *first; /* scratch: per code, its first row */
} code_task;

/* Codes every row of the column; false (codes left partial) on the DL_SQL_JOIN_CODE_MAX + 1st
 * distinct value. *out_n: the number of distinct values. */
static bool
code_rows(code_task *t, const dl_vector *col, size_t w, int64_t n, int32_t *out_n) {
    int32_t n_codes = 0;
    for (int64_t row = 0; row < n; row++) {
        uint64_t pos = code_hash(col, w, row) & (CODE_SLOTS - 1);
        for (;;) {
            uint16_t e = t->table[pos];
            if (e == 0) {
                if (n_codes == DL_SQL_JOIN_CODE_MAX) {
                    return false;
                }
                t->first[n_codes] = (uint32_t)row;
                t->table[pos] = (uint16_t)(n_codes + 1);
                t->codes[row] = (uint16_t)n_codes++;
                break;
            }
            if (code_equal(col, w, t->first[e - 1], row)) {
                t->codes[row] = (uint16_t)(e - 1);
                break;
            }
            pos = (pos + 1) & (CODE_SLOTS - 1);
        }
    }
    *out_n = n_codes;
    return true;
}

static dl_status
code_column(void *arg, dl_error *err) {
    code_task *t = arg;
    const dl_sql_join_build *b = &t->st->build;
    const dl_allocator *alloc = t->st->exec->alloc;
    const dl_vector *col = b->rows.cols[t->col];
    dl_vec_phys phys = dl_vec_type_phys(col->type);
    size_t w = fixed_width(phys);
    int64_t n = b->rows.count;
    if (col->layout != DL_VEC_FLAT || col->validity != NULL ||
        (w == 0 && phys != DL_VEC_PHYS_VIEW)) {
        return DL_OK;
    }
    t->codes = dl_mem_alloc(alloc, (size_t)n * sizeof(uint16_t));
    t->table = dl_mem_alloc_zero(alloc, (size_t)CODE_SLOTS * sizeof(uint16_t));
    t->first = dl_mem_alloc(alloc, (size_t)DL_SQL_JOIN_CODE_MAX * sizeof(uint32_t));
    DL_CHECK(t->codes != NULL && t->table != NULL && t->first != NULL, err, DL_ERR_NOMEM,
             "out of memory coding a join's build column");
    int32_t n_codes = 0;
    if (!code_rows(t, col, w, n, &n_codes)) {
        dl_mem_free(alloc, t->codes, (size_t)n * sizeof(uint16_t));
        t->codes = NULL;
        return DL_OK;
    }
    DL_TRY(dl_vec_new(alloc, col->type, n_codes, &t->dict, err));
    return dl_vec_copy_sel(t->dict, col, t->first, n_codes, err);
}

/* Codes the right columns with few distinct values (large enough build sides only). */
static dl_status
code_columns(dl_sql_join_state *st, dl_error *err) {
    dl_sql_join_build *b = &st->build;
    int32_t n = st->n_right;
    if (b->rows.count < DL_SQL_JOIN_CODE_MIN_ROWS || n == 0) {
        return DL_OK;
    }
    dl_arena *arena = st->exec->arena;
    b->codes = dl_arena_alloc_zero(arena, (size_t)n * sizeof(uint16_t *));
    b->small_dict = dl_arena_alloc_zero(arena, (size_t)n * sizeof(dl_vector *));
    code_task *tasks = dl_mem_alloc_zero(st->exec->alloc, (size_t)n * sizeof(*tasks));
    if (b->codes == NULL || b->small_dict == NULL || tasks == NULL) {
        dl_mem_free(st->exec->alloc, tasks, (size_t)n * sizeof(*tasks));
        b->codes = NULL;
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory coding a join's build columns");
    }
    for (int32_t c = 0; c < n; c++) {
        tasks[c] = (code_task){.st = st, .col = c};
    }
    dl_status s = dl_sql_exec_parallel(st->exec, code_column, tasks, sizeof(*tasks), n, err);
    for (int32_t c = 0; c < n; c++) {
        code_task *t = &tasks[c];
        dl_mem_free(st->exec->alloc, t->table, (size_t)CODE_SLOTS * sizeof(uint16_t));
        dl_mem_free(st->exec->alloc, t->first, (size_t)DL_SQL_JOIN_CODE_MAX * sizeof(uint32_t));
        if (t->codes != NULL && t->dict != NULL) {
            b->codes[c] = t->codes;
            b->small_dict[c] = t->dict;
        } else {
            dl_mem_free(st->exec->alloc, t->codes, (size_t)b->rows.count * sizeof(uint16_t));
            dl_vec_unref(t->dict);
        }
    }
    dl_mem_free(st->exec->alloc, tasks, (size_t)n * sizeof(*tasks));
    return s;
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
    b->types = build_types(st, right, arena);
    DL_CHECK(b->types != NULL, err, DL_ERR_NOMEM, "out of memory building a join");
    int32_t n = st->n_right + b->n_extra;
    dl_type_field *fields = dl_arena_alloc_zero(arena, (size_t)DL_MAX(n, 1) * sizeof(*fields));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory building a join");
    for (int32_t c = 0; c < n; c++) {
        const char *name = c < st->n_right ? right->schema->fields[c].name : "key";
        fields[c] = (dl_type_field){.name = name, .type = b->types[c], .is_nullable = true};
    }
    DL_TRY(dl_vec_type_struct(arena, fields, n, &b->row_type, err));
    return dl_sql_colbuf_init(&b->rows, st->exec->alloc, b->types, n, err);
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
    DL_TRY(consolidate(st, err));
    for (int32_t k = 0; k < st->join->n_keys; k++) {
        b->key_vecs[k] = b->rows.cols[b->key_col[k]];
    }
    if (st->join->n_keys > 0) {
        DL_TRY(build_table(st, err));
    }
    DL_TRY(code_columns(st, err));
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
    dl_mem_free(alloc, b->direct, (size_t)b->direct_len * sizeof(uint32_t));
    if (b->slots != NULL) {
        dl_mem_free(alloc, b->slots, (size_t)(b->mask + 1) * (size_t)b->stride * sizeof(uint64_t));
    }
    dl_mem_free(alloc, b->next, (size_t)DL_MAX(n, 1) * sizeof(uint32_t));
    dl_mem_free(alloc, b->null_rows, (size_t)b->cap_null_rows * sizeof(uint32_t));
    if (b->matched_mem != NULL) {
        dl_mem_free(alloc, b->matched_mem, (size_t)DL_MAX(n, 1));
    }
    for (int32_t c = 0; b->codes != NULL && c < st->n_right; c++) {
        dl_mem_free(alloc, b->codes[c], (size_t)n * sizeof(uint16_t));
        dl_vec_unref(b->small_dict[c]);
    }
    for (int32_t p = 0; p < b->n_parts; p++) {
        part_destroy(alloc, &b->parts[p]);
    }
    dl_mem_free(alloc, b->parts, (size_t)b->cap_parts * sizeof(dl_sql_join_part));
    dl_sql_colbuf_destroy(&b->rows);
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

/* Probing a direct table. */
static void
probe_direct(const dl_sql_join_state *st, dl_sql_join_local *l, int64_t count) {
    const dl_sql_join_build *b = &st->build;
    const dl_vec_unified *u = &l->ukeys[0];
    dl_vec_phys phys = st->key_phys[0];
    uint32_t seen = 0;
    for (int64_t k = 0; k < count; k++) {
        l->head[k] = 0;
        if (l->null_key[k]) {
            continue;
        }
        uint64_t d = (uint64_t)int_at(phys, u->data, u->sel[k]) - (uint64_t)b->direct_min;
        if (d < b->direct_len) {
            uint32_t e = b->direct[d];
            l->head[k] = e & ~DL_SQL_JT_DIRECT_DUP;
            seen |= e;
        }
    }
    l->has_dups = (seen & DL_SQL_JT_DIRECT_DUP) != 0;
}

/* Prefetches, for large build sides, what the output will read of each matched build row: the
 * code or the fixed-width value of every right column. */
static void
prefetch_payload(const dl_sql_join_state *st, const dl_sql_join_local *l, int64_t count) {
    const dl_sql_join_build *b = &st->build;
    if (b->rows.count < PREFETCH_PAYLOAD_MIN) {
        return;
    }
    for (int32_t c = 0; c < st->n_right; c++) {
        const dl_vector *col = b->rows.cols[c];
        const char *base = col->data;
        size_t w = fixed_width(dl_vec_type_phys(col->type));
        if (b->codes != NULL && b->codes[c] != NULL) {
            base = (const char *)b->codes[c];
            w = sizeof(uint16_t);
        } else if (col->layout != DL_VEC_FLAT || w == 0) {
            continue;
        }
        for (int64_t k = 0; k < count; k++) {
            if (l->head[k] != 0) {
                __builtin_prefetch(base + (size_t)(l->head[k] - 1) * w);
            }
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
    if (b->direct != NULL) {
        probe_direct(st, l, count);
        prefetch_payload(st, l, count);
        return;
    }
    int32_t stride = b->stride;
    for (int64_t k = 0; k < count; k++) {
        __builtin_prefetch(&b->slots[(l->hashes[k] & b->mask) * (uint64_t)stride]);
    }
    if (b->is_int_key) {
        probe_int(st, l, count);
        prefetch_payload(st, l, count);
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
