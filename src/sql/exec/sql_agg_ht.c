/* SPDX-License-Identifier: Apache-2.0 */
/* The aggregation hash table (sql_agg_ht.h). */
#include "sql/exec/sql_agg_ht.h"

/* One key column of the batch, read through its unified view. */
typedef struct key_view {
    dl_vec_unified u;
    dl_vec_phys phys;
} key_view;

#include <string.h>

void
dl_sql_agg_ht_init(dl_sql_agg_ht *ht, const dl_allocator *alloc, const dl_type *key_schema,
                   size_t stride, void (*init_state)(void *ctx, uint8_t *block), void *init_ctx) {
    memset(ht, 0, sizeof(*ht));
    ht->alloc = alloc;
    ht->n_keys = key_schema->n_fields;
    dl_sql_rows_init(&ht->keys, alloc, key_schema);
    ht->stride = stride;
    ht->init_state = init_state;
    ht->init_ctx = init_ctx;
}

/* The per-batch unified views of the key columns (allocated on first use). */
static dl_status
ensure_views(dl_sql_agg_ht *ht, dl_error *err) {
    if (ht->views != NULL || ht->n_keys == 0) {
        return DL_OK;
    }
    ht->views = dl_mem_alloc(ht->alloc, (size_t)ht->n_keys * sizeof(key_view));
    DL_CHECK(ht->views != NULL, err, DL_ERR_NOMEM, "out of memory grouping");
    return DL_OK;
}

void
dl_sql_agg_ht_destroy(dl_sql_agg_ht *ht) {
    dl_mem_free(ht->alloc, ht->slot_hash, ht->cap * sizeof(uint64_t));
    dl_mem_free(ht->alloc, ht->slot_gid, ht->cap * sizeof(uint32_t));
    dl_mem_free(ht->alloc, ht->group_hash, (size_t)ht->cap_groups * sizeof(uint64_t));
    dl_mem_free(ht->alloc, ht->states, (size_t)ht->cap_groups * ht->stride);
    dl_mem_free(ht->alloc, ht->views, (size_t)ht->n_keys * sizeof(key_view));
    dl_mem_free(ht->alloc, ht->code_gid, DL_SQL_AGG_CODES * sizeof(uint32_t));
    dl_sql_rows_destroy(&ht->keys);
    memset(ht, 0, sizeof(*ht));
}

static dl_status
rehash(dl_sql_agg_ht *ht, size_t cap, dl_error *err) {
    uint64_t *hashes = dl_mem_alloc_zero(ht->alloc, cap * sizeof(uint64_t));
    uint32_t *gids = dl_mem_alloc(ht->alloc, cap * sizeof(uint32_t));
    if (hashes == NULL || gids == NULL) {
        dl_mem_free(ht->alloc, hashes, cap * sizeof(uint64_t));
        dl_mem_free(ht->alloc, gids, cap * sizeof(uint32_t));
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory growing the aggregation table");
    }
    size_t mask = cap - 1;
    for (int64_t g = 0; g < ht->n_groups; g++) {
        uint64_t h = ht->group_hash[g];
        size_t s = (size_t)(h >> 1) & mask;
        while (hashes[s] != 0) {
            s = (s + 1) & mask;
        }
        hashes[s] = h;
        gids[s] = (uint32_t)g;
    }
    dl_mem_free(ht->alloc, ht->slot_hash, ht->cap * sizeof(uint64_t));
    dl_mem_free(ht->alloc, ht->slot_gid, ht->cap * sizeof(uint32_t));
    ht->slot_hash = hashes;
    ht->slot_gid = gids;
    ht->cap = cap;
    return DL_OK;
}

/* Room for n more groups: slots, hashes and state blocks. */
static dl_status
reserve_groups(dl_sql_agg_ht *ht, int64_t n, dl_error *err) {
    int64_t need = ht->n_groups + n;
    if ((size_t)need * 2 > ht->cap) {
        size_t cap = ht->cap == 0 ? 1024 : ht->cap;
        while ((size_t)need * 2 > cap) {
            cap *= 2;
        }
        DL_TRY(rehash(ht, cap, err));
    }
    if (need <= ht->cap_groups) {
        return DL_OK;
    }
    DL_CHECK(need <= UINT32_MAX, err, DL_ERR_LIMIT, "more than 4 billion groups");
    int64_t cap = ht->cap_groups == 0 ? 1024 : ht->cap_groups;
    while (cap < need) {
        cap *= 2;
    }
    uint64_t *gh =
        dl_mem_realloc(ht->alloc, ht->group_hash, (size_t)ht->cap_groups * sizeof(uint64_t),
                       (size_t)cap * sizeof(uint64_t));
    DL_CHECK(gh != NULL, err, DL_ERR_NOMEM, "out of memory growing the aggregation table");
    ht->group_hash = gh;
    if (ht->stride > 0) {
        uint8_t *st = dl_mem_realloc(ht->alloc, ht->states, (size_t)ht->cap_groups * ht->stride,
                                     (size_t)cap * ht->stride);
        DL_CHECK(st != NULL, err, DL_ERR_NOMEM, "out of memory growing the aggregation states");
        ht->states = st;
    }
    ht->cap_groups = cap;
    return DL_OK;
}

/* Equality of two non-null elements of flat vectors of one type (grouping semantics: NaN
 * equals NaN, -0.0 equals 0.0). */
static inline bool
elem_equal(dl_vec_phys phys, const dl_vector *fa, int64_t ia, const dl_vector *fb, int64_t ib) {
    const void *a = fa->data;
    const void *b = fb->data;
    switch (phys) {
    case DL_VEC_PHYS_I8:
        return ((const int8_t *)a)[ia] == ((const int8_t *)b)[ib];
    case DL_VEC_PHYS_I16:
        return ((const int16_t *)a)[ia] == ((const int16_t *)b)[ib];
    case DL_VEC_PHYS_I32:
        return ((const int32_t *)a)[ia] == ((const int32_t *)b)[ib];
    case DL_VEC_PHYS_I64:
        return ((const int64_t *)a)[ia] == ((const int64_t *)b)[ib];
    case DL_VEC_PHYS_I128:
        return ((const dl_i128 *)a)[ia] == ((const dl_i128 *)b)[ib];
    case DL_VEC_PHYS_VIEW:
        return dl_vec_view_equal(fa, (const dl_vec_view *)a + ia, fb, (const dl_vec_view *)b + ib);
    default:
        return dl_sql_value_equal(fa, ia, fb, ib);
    }
}

/* Row i of key k equals row j of the same batch. */
static bool
batch_equal(const key_view *kv, int64_t i, int64_t j) {
    bool ni = kv->u.validity != NULL && !dl_vec_bit_get(kv->u.validity, i);
    bool nj = kv->u.validity != NULL && !dl_vec_bit_get(kv->u.validity, j);
    if (ni || nj) {
        return ni && nj;
    }
    return elem_equal(kv->phys, kv->u.flat, kv->u.sel[i], kv->u.flat, kv->u.sel[j]);
}

/* Row i of key k equals element idx of a group's flat key column. */
static bool
group_equal(const key_view *kv, int64_t i, const dl_vector *col, int64_t idx) {
    bool ni = kv->u.validity != NULL && !dl_vec_bit_get(kv->u.validity, i);
    bool ng = col->validity != NULL && !dl_vec_bit_get(col->validity, idx);
    if (ni || ng) {
        return ni && ng;
    }
    return elem_equal(kv->phys, kv->u.flat, kv->u.sel[i], col, idx);
}

/* Key columns of group g equal row i of the batch's keys? New groups of this batch
 * (g >= first_new) compare with the batch row that created them. */
static bool
keys_equal(const dl_sql_agg_ht *ht, const key_view *kv, int64_t i, uint32_t g, int64_t first_new,
           const uint32_t *new_rows) {
    for (int32_t k = 0; k < ht->n_keys; k++) {
        bool eq;
        if ((int64_t)g >= first_new && new_rows != NULL) {
            eq = batch_equal(&kv[k], i, new_rows[(int64_t)g - first_new]);
        } else {
            int64_t idx = 0;
            const dl_vector *col = dl_sql_rows_col(&ht->keys, g, k, &idx);
            eq = group_equal(&kv[k], i, col, idx);
        }
        if (!eq) {
            return false;
        }
    }
    return true;
}

/* Appends the new groups' keys (batch rows new_rows[0..n)) to the key collection. */
static dl_status
append_keys(dl_sql_agg_ht *ht, dl_vector *const *keys, const uint32_t *new_rows, int64_t n,
            dl_error *err) {
    int64_t done = 0;
    while (done < n) {
        dl_batch *tail = NULL;
        DL_TRY(dl_sql_rows_tail(&ht->keys, &tail, err));
        int64_t m = DL_MIN(n - done, DL_BATCH_CAPACITY - tail->count);
        for (int32_t k = 0; k < ht->n_keys; k++) {
            DL_TRY(dl_vec_copy_sel(tail->cols[k], keys[k], new_rows + done, m, err));
        }
        tail->count += m;
        ht->keys.count += m;
        done += m;
    }
    return DL_OK;
}

/*
 * The combined dictionary code of each row into codes (UINT32_MAX for a row that is NULL at
 * the row level), when every key is a DICT vector and the codes fit; false otherwise.
 */
static bool
dict_codes(dl_sql_agg_ht *ht, dl_vector *const *keys, int64_t count, uint32_t *codes) {
    uint32_t span = 1;
    for (int32_t k = 0; k < ht->n_keys; k++) {
        const dl_vector *v = keys[k];
        if (v->layout != DL_VEC_DICT || v->dict->length <= 0 ||
            v->dict->length > DL_SQL_AGG_CODES / span) {
            return false;
        }
        span *= (uint32_t)v->dict->length;
    }
    if (ht->n_keys == 0 || count < 4 * (int64_t)span) {
        return false; /* too few rows per code to pay for the shortcut */
    }
    for (int64_t i = 0; i < count; i++) {
        codes[i] = 0;
    }
    span = 1;
    for (int32_t k = 0; k < ht->n_keys; k++) {
        const int32_t *idx = keys[k]->data;
        for (int64_t i = 0; i < count; i++) {
            codes[i] += (uint32_t)idx[i] * span;
        }
        span *= (uint32_t)keys[k]->dict->length;
    }
    for (int32_t k = 0; k < ht->n_keys; k++) { /* after the sums: UINT32_MAX must stay */
        const uint8_t *validity = keys[k]->validity;
        for (int64_t i = 0; i < count && validity != NULL; i++) {
            if (!dl_vec_bit_get(validity, i)) {
                codes[i] = UINT32_MAX;
            }
        }
    }
    return true;
}

/* Finds or creates the group of row i (hash h) of the batch. */
static inline uint32_t
find_row(dl_sql_agg_ht *ht, const key_view *kv, int64_t i, uint64_t h, int64_t first_new,
         uint32_t *new_rows, int64_t *n_new) {
    size_t mask = ht->cap - 1;
    size_t s = (size_t)(h >> 1) & mask;
    for (;;) {
        uint64_t sh = ht->slot_hash[s];
        if (sh == 0) {
            uint32_t g = (uint32_t)ht->n_groups++;
            ht->slot_hash[s] = h;
            ht->slot_gid[s] = g;
            ht->group_hash[g] = h;
            if (ht->init_state != NULL) {
                ht->init_state(ht->init_ctx, dl_sql_agg_ht_state(ht, g));
            }
            new_rows[(*n_new)++] = (uint32_t)i;
            return g;
        }
        if (sh == h && keys_equal(ht, kv, i, ht->slot_gid[s], first_new, new_rows)) {
            return ht->slot_gid[s];
        }
        s = (s + 1) & mask;
    }
}

/* Probes every row, the first row of each dictionary code only when codes is not NULL. */
static void
find_rows(dl_sql_agg_ht *ht, const key_view *kv, const uint64_t *hashes, const uint32_t *codes,
          int64_t count, uint32_t *out_gids, uint32_t *new_rows, int64_t *n_new) {
    int64_t first_new = ht->n_groups;
    uint32_t *cache = ht->code_gid;
    if (codes != NULL) {
        memset(cache, 0xff, DL_SQL_AGG_CODES * sizeof(uint32_t));
    }
    for (int64_t i = 0; i < count; i++) {
        uint32_t code = codes != NULL ? codes[i] : UINT32_MAX;
        if (code != UINT32_MAX && cache[code] != UINT32_MAX) {
            out_gids[i] = cache[code];
            continue;
        }
        uint64_t h = hashes[i] | 1u; // NOLINT(clang-analyzer-core.UndefinedBinaryOperatorResult):
                                     // dl_sql_hash_vec filled it
        out_gids[i] = find_row(ht, kv, i, h, first_new, new_rows, n_new);
        if (code != UINT32_MAX) {
            cache[code] = out_gids[i];
        }
    }
}

dl_status
dl_sql_agg_ht_find(dl_sql_agg_ht *ht, dl_vector *const *keys, int64_t count, uint32_t *out_gids,
                   dl_error *err) {
    uint64_t hashes[DL_BATCH_CAPACITY];
    uint32_t new_rows[DL_BATCH_CAPACITY];
    uint32_t codes[DL_BATCH_CAPACITY];
    if (ht->n_keys == 0 && ht->n_groups > 0) {
        memset(out_gids, 0, (size_t)count * sizeof(uint32_t)); /* the one group, made */
        return DL_OK;
    }
    if (ht->n_keys == 0) {
        for (int64_t i = 0; i < count; i++) {
            hashes[i] = 1; /* one group */
        }
    }
    for (int32_t k = 0; k < ht->n_keys; k++) {
        dl_sql_hash_vec(keys[k], count, hashes, k == 0);
    }
    DL_TRY(reserve_groups(ht, count, err));
    DL_TRY(ensure_views(ht, err));
    key_view *kv = ht->views;
    for (int32_t k = 0; k < ht->n_keys; k++) {
        dl_vec_unify(keys[k], count, &kv[k].u);
        kv[k].phys = dl_vec_type_phys(keys[k]->type);
    }
    bool has_codes = dict_codes(ht, keys, count, codes);
    if (has_codes && ht->code_gid == NULL) {
        ht->code_gid = dl_mem_alloc(ht->alloc, DL_SQL_AGG_CODES * sizeof(uint32_t));
        DL_CHECK(ht->code_gid != NULL, err, DL_ERR_NOMEM, "out of memory grouping");
    }
    int64_t n_new = 0;
    find_rows(ht, kv, hashes, has_codes ? codes : NULL, count, out_gids, new_rows, &n_new);
    if (n_new == 0) {
        return DL_OK;
    }
    if (ht->n_keys == 0) {
        dl_batch *tail = NULL;
        DL_TRY(dl_sql_rows_tail(&ht->keys, &tail, err));
        tail->count += n_new;
        ht->keys.count += n_new;
        return DL_OK;
    }
    return append_keys(ht, keys, new_rows, n_new, err);
}

dl_status
dl_sql_agg_ht_probe(dl_sql_agg_ht *ht, dl_vector *const *keys, int64_t count, uint32_t *out_gids,
                    dl_error *err) {
    uint64_t hashes[DL_BATCH_CAPACITY];
    DL_CHECK(ht->n_keys > 0, err, DL_ERR_INTERNAL, "probing a table without keys");
    for (int32_t k = 0; k < ht->n_keys; k++) {
        dl_sql_hash_vec(keys[k], count, hashes, k == 0);
    }
    DL_TRY(ensure_views(ht, err));
    key_view *kv = ht->views;
    for (int32_t k = 0; k < ht->n_keys; k++) {
        dl_vec_unify(keys[k], count, &kv[k].u);
        kv[k].phys = dl_vec_type_phys(keys[k]->type);
    }
    size_t mask = ht->cap - 1;
    for (int64_t i = 0; i < count; i++) {
        out_gids[i] = UINT32_MAX;
        if (ht->cap == 0) {
            continue;
        }
        uint64_t h = hashes[i] | 1u; // NOLINT(clang-analyzer-core.UndefinedBinaryOperatorResult)
        for (size_t s = (size_t)(h >> 1) & mask; ht->slot_hash[s] != 0; s = (s + 1) & mask) {
            if (ht->slot_hash[s] == h &&
                keys_equal(ht, kv, i, ht->slot_gid[s], ht->n_groups, NULL)) {
                out_gids[i] = ht->slot_gid[s];
                break;
            }
        }
    }
    return DL_OK;
}
