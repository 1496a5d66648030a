/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Row stores (sql_op_sort_int.h): rows in a fixed-width row format, appended from batches,
 * gathered back into vectors, compared column by column.
 *
 * Row format: a NULL bitmap of ceil(n_cols / 8) bytes (bit c set = column c is NULL), then
 * each column's slot at its offset, aligned to its width (at most 8): booleans as one byte
 * 0/1, fixed-width values in host order, string views of 16 bytes whose buffer index is an
 * index into the store's heaps (each heap referenced once, found again through a small
 * pointer hash). A NULL's slot holds whatever was there. Nested columns are kept in the
 * side colbuf; NULL-type columns have no slot, only the NULL bit.
 */
#include <math.h>
#include <string.h>

#include "sql/exec/sql_op_sort_int.h"

/* ---- layout -------------------------------------------------------------------------------- */

static int32_t
slot_width(dl_vec_phys phys) {
    switch (phys) {
    case DL_VEC_PHYS_NONE:
        return 0;
    case DL_VEC_PHYS_BIT:
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
    case DL_VEC_PHYS_VIEW:
        return 16;
    default:
        return -1;
    }
}

dl_status
dl_sql_rowlayout_init(dl_sql_rowlayout *lay, dl_arena *arena, const dl_type *const *types,
                      int32_t n_cols, dl_error *err) {
    memset(lay, 0, sizeof(*lay));
    size_t n = (size_t)DL_MAX(n_cols, 1);
    lay->n_cols = n_cols;
    lay->types = dl_arena_alloc_zero(arena, n * sizeof(dl_type *));
    lay->offsets = dl_arena_alloc_zero(arena, n * sizeof(int32_t));
    lay->side_of = dl_arena_alloc_zero(arena, n * sizeof(int32_t));
    lay->side_types = dl_arena_alloc_zero(arena, n * sizeof(dl_type *));
    DL_CHECK(lay->types != NULL && lay->offsets != NULL && lay->side_of != NULL &&
                 lay->side_types != NULL,
             err, DL_ERR_NOMEM, "out of memory laying out rows");
    int32_t offset = (n_cols + 7) / 8;
    for (int32_t c = 0; c < n_cols; c++) {
        lay->types[c] = types[c];
        lay->side_of[c] = -1;
        int32_t w = slot_width(dl_vec_type_phys(types[c]));
        if (w < 0) {
            lay->offsets[c] = -1;
            lay->side_of[c] = lay->n_side;
            lay->side_types[lay->n_side++] = types[c];
            continue;
        }
        int32_t align = DL_MIN(DL_MAX(w, 1), 8);
        offset = (offset + align - 1) / align * align;
        lay->offsets[c] = offset;
        offset += w;
    }
    lay->width = DL_MAX((offset + 7) / 8 * 8, 8);
    return DL_OK;
}

/* ---- stores -------------------------------------------------------------------------------- */

dl_status
dl_sql_rowstore_init(dl_sql_rowstore *rs, const dl_sql_rowlayout *lay, const dl_allocator *alloc,
                     dl_error *err) {
    memset(rs, 0, sizeof(*rs));
    rs->lay = lay;
    rs->alloc = alloc;
    return dl_sql_colbuf_init(&rs->side, alloc, lay->side_types, lay->n_side, err);
}

void
dl_sql_rowstore_destroy(dl_sql_rowstore *rs) {
    if (rs->lay == NULL) {
        return;
    }
    dl_mem_free(rs->alloc, rs->data, (size_t)rs->cap * (size_t)rs->lay->width);
    for (int32_t h = 0; h < rs->n_heaps; h++) {
        dl_vec_buffer_unref(rs->heaps[h]);
    }
    dl_mem_free(rs->alloc, rs->heaps, (size_t)rs->cap_heaps * sizeof(void *));
    dl_mem_free(rs->alloc, rs->hkeys, (size_t)rs->cap_hash * sizeof(void *));
    dl_mem_free(rs->alloc, rs->hvals, (size_t)rs->cap_hash * sizeof(int32_t));
    dl_sql_colbuf_destroy(&rs->side);
    memset(rs, 0, sizeof(*rs));
}

static dl_status
reserve_rows(dl_sql_rowstore *rs, int64_t n, dl_error *err) {
    if (n <= rs->cap) {
        return DL_OK;
    }
    DL_CHECK(n <= DL_VEC_MAX_LENGTH, err, DL_ERR_LIMIT, "more than %d rows to hold in memory",
             DL_VEC_MAX_LENGTH);
    int64_t cap = DL_MIN(DL_MAX(n, DL_MAX(rs->cap * 2, DL_BATCH_CAPACITY)), DL_VEC_MAX_LENGTH);
    size_t w = (size_t)rs->lay->width;
    uint8_t *grown = dl_mem_realloc(rs->alloc, rs->data, (size_t)rs->cap * w, (size_t)cap * w);
    DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory holding %lld rows", (long long)n);
    rs->data = grown;
    rs->cap = cap;
    return DL_OK;
}

static inline size_t
hash_ptr(const void *p, int32_t cap) {
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 29;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 32;
    return (size_t)x & (size_t)(cap - 1);
}

static dl_status
grow_hash(dl_sql_rowstore *rs, dl_error *err) {
    int32_t cap = rs->cap_hash == 0 ? 64 : rs->cap_hash * 2;
    const dl_vec_buffer **keys = dl_mem_alloc_zero(rs->alloc, (size_t)cap * sizeof(void *));
    int32_t *vals = dl_mem_alloc(rs->alloc, (size_t)cap * sizeof(int32_t));
    if (keys == NULL || vals == NULL) {
        dl_mem_free(rs->alloc, keys, (size_t)cap * sizeof(void *));
        dl_mem_free(rs->alloc, vals, (size_t)cap * sizeof(int32_t));
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory holding strings");
    }
    for (int32_t h = 0; h < rs->n_heaps; h++) {
        size_t slot = hash_ptr(rs->heaps[h], cap);
        while (keys[slot] != NULL) {
            slot = (slot + 1) & (size_t)(cap - 1);
        }
        keys[slot] = rs->heaps[h];
        vals[slot] = h;
    }
    dl_mem_free(rs->alloc, rs->hkeys, (size_t)rs->cap_hash * sizeof(void *));
    dl_mem_free(rs->alloc, rs->hvals, (size_t)rs->cap_hash * sizeof(int32_t));
    rs->hkeys = keys;
    rs->hvals = vals;
    rs->cap_hash = cap;
    return DL_OK;
}

/* The index of heap in rs->heaps, adding it (with a reference) when new. */
static dl_status
find_heap(dl_sql_rowstore *rs, dl_vec_buffer *heap, int32_t *out, dl_error *err) {
    if (2 * (rs->n_heaps + 1) > rs->cap_hash) {
        DL_TRY(grow_hash(rs, err));
    }
    size_t slot = hash_ptr(heap, rs->cap_hash);
    while (rs->hkeys[slot] != NULL) {
        if (rs->hkeys[slot] == heap) {
            *out = rs->hvals[slot];
            return DL_OK;
        }
        slot = (slot + 1) & (size_t)(rs->cap_hash - 1);
    }
    if (rs->n_heaps == rs->cap_heaps) {
        int32_t cap = rs->cap_heaps == 0 ? 16 : rs->cap_heaps * 2;
        dl_vec_buffer **grown =
            dl_mem_realloc(rs->alloc, rs->heaps, (size_t)rs->cap_heaps * sizeof(void *),
                           (size_t)cap * sizeof(void *));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory holding strings");
        rs->heaps = grown;
        rs->cap_heaps = cap;
    }
    rs->heaps[rs->n_heaps] = dl_vec_buffer_ref(heap);
    rs->hkeys[slot] = heap;
    rs->hvals[slot] = rs->n_heaps;
    *out = rs->n_heaps++;
    return DL_OK;
}

/* ---- appending ----------------------------------------------------------------------------- */

/* Where the rows of one source vector are: element and validity of physical row r. */
typedef struct src_view {
    dl_vec_unified u; /* over the vector's rows, when it has at most a batch of them */
    const dl_vector *vec;
    bool is_unified;
} src_view;

static void
src_init(src_view *sv, const dl_vector *vec) {
    sv->vec = vec;
    sv->is_unified = vec->length <= DL_BATCH_CAPACITY;
    if (sv->is_unified) {
        dl_vec_unify(vec, vec->length, &sv->u);
    }
}

/* The flat vector and element of row r, or NULL when the row is NULL. */
static inline const dl_vector *
src_at(const src_view *sv, int64_t r, int64_t *out_elem) {
    if (sv->is_unified) {
        if (sv->u.validity != NULL && !dl_vec_bit_get(sv->u.validity, r)) {
            return NULL;
        }
        *out_elem = sv->u.sel[r];
        return sv->u.flat;
    }
    if (dl_vec_is_null(sv->vec, r)) {
        return NULL;
    }
    const dl_vector *flat;
    *out_elem = dl_vec_resolve(sv->vec, r, &flat);
    return flat;
}

static inline void
set_null_bit(uint8_t *row, int32_t c) {
    row[c / 8] = (uint8_t)(row[c / 8] | (1u << (c % 8)));
}

/* The last heap mapped, since consecutive views mostly share a heap. */
typedef struct heap_memo {
    const dl_vector *flat;
    int32_t src;
    int32_t dst;
} heap_memo;

/* Re-points an out-of-line view of flat at the store's copy of its heap. */
static dl_status
remap_view(dl_sql_rowstore *rs, heap_memo *memo, const dl_vector *flat, dl_vec_view *v,
           dl_error *err) {
    if (flat != memo->flat || v->ref.buffer_index != memo->src) {
        memo->flat = flat;
        memo->src = v->ref.buffer_index;
        DL_TRY(find_heap(rs, flat->heaps[memo->src], &memo->dst, err));
    }
    v->ref.buffer_index = memo->dst;
    return DL_OK;
}

/* Writes string views, re-pointing out-of-line ones at the store's heaps. */
static dl_status
write_views(dl_sql_rowstore *rs, uint8_t *base, int32_t c, const src_view *sv, const uint32_t *rows,
            int64_t count, dl_error *err) {
    int32_t w = rs->lay->width;
    int32_t off = rs->lay->offsets[c];
    heap_memo memo = {.flat = NULL, .src = -1, .dst = -1};
    for (int64_t k = 0; k < count; k++) {
        uint8_t *row = base + k * w;
        int64_t e;
        const dl_vector *flat = src_at(sv, rows != NULL ? rows[k] : k, &e);
        if (flat == NULL) {
            set_null_bit(row, c);
            continue;
        }
        dl_vec_view v = ((const dl_vec_view *)flat->data)[e];
        if (v.inlined.length > DL_VEC_VIEW_INLINE) {
            DL_TRY(remap_view(rs, &memo, flat, &v, err));
        }
        memcpy(row + off, &v, sizeof(v));
    }
    return DL_OK;
}

static void
write_fixed(const dl_sql_rowlayout *lay, uint8_t *base, int32_t c, const src_view *sv,
            const uint32_t *rows, int64_t count, size_t width) {
    int32_t w = lay->width;
    int32_t off = lay->offsets[c];
    bool is_bit = dl_vec_type_phys(lay->types[c]) == DL_VEC_PHYS_BIT;
    for (int64_t k = 0; k < count; k++) {
        uint8_t *row = base + k * w;
        int64_t e;
        const dl_vector *flat = src_at(sv, rows != NULL ? rows[k] : k, &e);
        if (flat == NULL) {
            set_null_bit(row, c);
        } else if (is_bit) {
            row[off] = dl_vec_get_bool(flat, e) ? 1 : 0;
        } else {
            memcpy(row + off, (const uint8_t *)flat->data + (size_t)e * width, width);
        }
    }
}

static dl_status
write_col(dl_sql_rowstore *rs, uint8_t *base, int32_t c, const dl_vector *vec, const uint32_t *rows,
          int64_t count, dl_error *err) {
    const dl_sql_rowlayout *lay = rs->lay;
    if (lay->offsets[c] < 0) {
        return dl_vec_copy_sel(rs->side.cols[lay->side_of[c]], vec, rows, count, err);
    }
    dl_vec_phys phys = dl_vec_type_phys(lay->types[c]);
    if (phys == DL_VEC_PHYS_NONE) {
        for (int64_t k = 0; k < count; k++) {
            set_null_bit(base + k * lay->width, c);
        }
        return DL_OK;
    }
    src_view sv;
    src_init(&sv, vec);
    if (phys == DL_VEC_PHYS_VIEW) {
        return write_views(rs, base, c, &sv, rows, count, err);
    }
    write_fixed(lay, base, c, &sv, rows, count, (size_t)slot_width(phys));
    return DL_OK;
}

dl_status
dl_sql_rowstore_append(dl_sql_rowstore *rs, const dl_batch *batch, const uint32_t *rows,
                       int64_t count, dl_vector *const *extra, const uint32_t *extra_rows,
                       int32_t n_extra, dl_error *err) {
    if (count == 0) {
        return DL_OK;
    }
    const dl_sql_rowlayout *lay = rs->lay;
    int32_t n_batch = batch != NULL ? batch->n_cols : 0;
    DL_ASSERT(n_batch + n_extra == lay->n_cols);
    DL_TRY(reserve_rows(rs, rs->count + count, err));
    uint8_t *base = rs->data + rs->count * lay->width;
    int32_t null_bytes = (lay->n_cols + 7) / 8;
    for (int64_t k = 0; k < count; k++) {
        uint8_t *row = base + k * lay->width;
        for (int32_t i = 0; i < null_bytes; i++) {
            row[i] = 0;
        }
    }
    const uint32_t *sel = rows != NULL ? rows : (batch != NULL ? batch->sel : NULL);
    for (int32_t c = 0; c < n_batch; c++) {
        DL_TRY(write_col(rs, base, c, batch->cols[c], sel, count, err));
    }
    for (int32_t e = 0; e < n_extra; e++) {
        DL_TRY(write_col(rs, base, n_batch + e, extra[e], extra_rows, count, err));
    }
    rs->side.count += lay->n_side > 0 ? count : 0;
    rs->count += count;
    return DL_OK;
}

/* ---- gathering ----------------------------------------------------------------------------- */

static inline const uint8_t *
row_at(const dl_sql_rowstore *const *stores, const uint32_t *runs, const uint32_t *rows,
       int64_t i) {
    const dl_sql_rowstore *rs = stores[runs != NULL ? runs[i] : 0];
    return rs->data + (size_t)rows[i] * (size_t)rs->lay->width;
}

static inline bool
row_is_null(const uint8_t *row, int32_t c) {
    return (row[c / 8] >> (c % 8)) & 1u;
}

static dl_status
gather_side(dl_vector *dst, const dl_sql_rowstore *const *stores, int32_t col, const uint32_t *runs,
            const uint32_t *rows, int64_t n, dl_error *err) {
    int32_t s = stores[0]->lay->side_of[col];
    int64_t i = 0;
    while (i < n) {
        uint32_t run = runs != NULL ? runs[i] : 0;
        int64_t j = i + 1;
        while (j < n && (runs != NULL ? runs[j] : 0) == run) {
            j++;
        }
        DL_TRY(dl_vec_copy_sel(dst, stores[run]->side.cols[s], rows + i, j - i, err));
        i = j;
    }
    return DL_OK;
}

/* How far ahead row_ptrs_load prefetches. */
#define PREFETCH_AHEAD 16

/* The rows of one gather step: their addresses, and their stores (for string heaps). */
typedef struct row_ptrs {
    const uint8_t *ptr[DL_BATCH_CAPACITY];
    const dl_sql_rowstore *const *stores;
    const uint32_t *runs; /* NULL: every row is in stores[0] */
    int64_t n;
    uint8_t any_null[32]; /* OR of the rows' NULL bitmaps (the first 256 columns) */
} row_ptrs;

/* Addresses of rows [from, from + n) of the request, prefetched ahead, and their NULLs. */
static void
row_ptrs_load(row_ptrs *rp, const dl_sql_rowstore *const *stores, const uint32_t *runs,
              const uint32_t *rows, int64_t from, int64_t n) {
    const dl_sql_rowlayout *lay = stores[0]->lay;
    int32_t null_bytes = DL_MIN((lay->n_cols + 7) / 8, (int32_t)sizeof(rp->any_null));
    rp->stores = stores;
    rp->runs = runs != NULL ? runs + from : NULL;
    rp->n = n;
    memset(rp->any_null, 0, sizeof(rp->any_null));
    for (int64_t i = 0; i < n && i < PREFETCH_AHEAD; i++) {
        __builtin_prefetch(row_at(stores, runs, rows, from + i));
    }
    for (int64_t i = 0; i < n; i++) {
        if (i + PREFETCH_AHEAD < n) {
            __builtin_prefetch(row_at(stores, runs, rows, from + i + PREFETCH_AHEAD));
        }
        const uint8_t *row = row_at(stores, runs, rows, from + i);
        rp->ptr[i] = row;
        for (int32_t b = 0; b < null_bytes; b++) {
            rp->any_null[b] |= row[b];
        }
    }
}

static dl_status
gather_views(dl_vector *dst, int64_t base, const row_ptrs *rp, int32_t off, dl_error *err) {
    dl_vec_view *o = (dl_vec_view *)dst->data + base;
    dl_sql_heap_cache hc;
    memset(hc.key, 0, sizeof(hc.key));
    for (int64_t i = 0; i < rp->n; i++) {
        dl_vec_view v;
        memcpy(&v, rp->ptr[i] + off, sizeof(v));
        if (dst->validity != NULL && !dl_vec_bit_get(dst->validity, base + i)) {
            memset(&v, 0, sizeof(v));
        } else if (v.inlined.length > DL_VEC_VIEW_INLINE) {
            const dl_sql_rowstore *rs = rp->stores[rp->runs != NULL ? rp->runs[i] : 0];
            int32_t idx = 0;
            DL_TRY(dl_sql_heap_cache_map(dst, &hc, rs->heaps[v.ref.buffer_index], &idx, err));
            v.ref.buffer_index = idx;
        }
        o[i] = v;
    }
    return DL_OK;
}

/* Copies n slots of w bytes at offset off. Inlined with a constant w at each call. */
__attribute__((always_inline)) static inline void
gather_slots(uint8_t *o, const row_ptrs *rp, int32_t off, size_t w) {
    for (int64_t i = 0; i < rp->n; i++) {
        memcpy(o + (size_t)i * w, rp->ptr[i] + off, w);
    }
}

static dl_status
gather_nulls(dl_vector *dst, int64_t base, const row_ptrs *rp, int32_t col, bool is_null_type,
             dl_error *err) {
    bool may_be_null = col / 8 >= (int32_t)sizeof(rp->any_null) ||
                       ((rp->any_null[col / 8] >> (col % 8)) & 1u) != 0;
    if (!is_null_type && !may_be_null) {
        return DL_OK;
    }
    DL_TRY(dl_vec_make_validity(dst, err));
    for (int64_t i = 0; i < rp->n; i++) {
        if (is_null_type || row_is_null(rp->ptr[i], col)) {
            dl_vec_bit_clear(dst->validity, base + i);
        }
    }
    return DL_OK;
}

/* Writes column col of the rows of rp at dst rows [base, base + rp->n); dst has room. */
static dl_status
gather_col(dl_vector *dst, int64_t base, const row_ptrs *rp, int32_t col, dl_error *err) {
    const dl_sql_rowlayout *lay = rp->stores[0]->lay;
    int32_t off = lay->offsets[col];
    dl_vec_phys phys = dl_vec_type_phys(lay->types[col]);
    DL_TRY(gather_nulls(dst, base, rp, col, phys == DL_VEC_PHYS_NONE, err));
    uint8_t *o = (uint8_t *)dst->data;
    switch (phys) {
    case DL_VEC_PHYS_NONE:
        return DL_OK;
    case DL_VEC_PHYS_BIT:
        for (int64_t i = 0; i < rp->n; i++) {
            dl_vec_bit_put(dst->data, base + i, rp->ptr[i][off] != 0);
        }
        return DL_OK;
    case DL_VEC_PHYS_I8:
        gather_slots(o + base, rp, off, 1);
        return DL_OK;
    case DL_VEC_PHYS_I16:
        gather_slots(o + base * 2, rp, off, 2);
        return DL_OK;
    case DL_VEC_PHYS_I32:
    case DL_VEC_PHYS_F32:
        gather_slots(o + base * 4, rp, off, 4);
        return DL_OK;
    case DL_VEC_PHYS_I64:
    case DL_VEC_PHYS_F64:
        gather_slots(o + base * 8, rp, off, 8);
        return DL_OK;
    case DL_VEC_PHYS_I128:
        gather_slots(o + base * 16, rp, off, 16);
        return DL_OK;
    case DL_VEC_PHYS_VIEW:
        return gather_views(dst, base, rp, off, err);
    default:
        DL_FAIL(err, DL_ERR_INTERNAL, "row gather of an unexpected storage class %d", (int)phys);
    }
}

dl_status
dl_sql_rowstore_gather(dl_vector *dst, const dl_sql_rowstore *const *stores, int32_t col,
                       const uint32_t *runs, const uint32_t *rows, int64_t n, dl_error *err) {
    DL_ASSERT(dst->layout == DL_VEC_FLAT && dst->length == 0);
    if (stores[0]->lay->offsets[col] < 0) {
        return gather_side(dst, stores, col, runs, rows, n, err);
    }
    DL_TRY(dl_vec_reserve(dst, DL_MAX(n, 1), err));
    row_ptrs *rp = dl_mem_alloc(dst->alloc, sizeof(*rp));
    DL_CHECK(rp != NULL, err, DL_ERR_NOMEM, "out of memory gathering rows");
    dl_status s = DL_OK;
    for (int64_t base = 0; base < n && s == DL_OK; base += DL_BATCH_CAPACITY) {
        row_ptrs_load(rp, stores, runs, rows, base, DL_MIN(DL_BATCH_CAPACITY, n - base));
        s = gather_col(dst, base, rp, col, err);
    }
    dl_mem_free(dst->alloc, rp, sizeof(*rp));
    if (s == DL_OK) {
        dl_vec_set_length(dst, n);
    }
    return s;
}

dl_status
dl_sql_rowstore_gather_batch(dl_vector *const *dsts, int32_t n_cols,
                             const dl_sql_rowstore *const *stores, const uint32_t *runs,
                             const uint32_t *rows, int64_t n, dl_error *err) {
    DL_ASSERT(n <= DL_BATCH_CAPACITY);
    if (n_cols == 0) {
        return DL_OK;
    }
    row_ptrs *rp = dl_mem_alloc(dsts[0]->alloc, sizeof(*rp));
    DL_CHECK(rp != NULL, err, DL_ERR_NOMEM, "out of memory gathering rows");
    row_ptrs_load(rp, stores, runs, rows, 0, n);
    dl_status s = DL_OK;
    for (int32_t c = 0; c < n_cols && s == DL_OK; c++) {
        dl_vector *dst = dsts[c];
        DL_ASSERT(dst->layout == DL_VEC_FLAT && dst->length == 0);
        if (stores[0]->lay->offsets[c] < 0) {
            s = gather_side(dst, stores, c, runs, rows, n, err);
            continue;
        }
        s = dl_vec_reserve(dst, DL_MAX(n, 1), err);
        if (s == DL_OK) {
            s = gather_col(dst, 0, rp, c, err);
        }
        if (s == DL_OK) {
            dl_vec_set_length(dst, n);
        }
    }
    dl_mem_free(dsts[0]->alloc, rp, sizeof(*rp));
    return s;
}

/* ---- comparing ----------------------------------------------------------------------------- */

#define CMP3(x, y) ((x) < (y) ? -1 : ((x) > (y) ? 1 : 0))

static int
compare_doubles(double x, double y) {
    bool nx = isnan(x);
    bool ny = isnan(y);
    if (nx || ny) {
        return nx && ny ? 0 : (nx ? 1 : -1);
    }
    return CMP3(x, y);
}

static dl_str
view_bytes(const dl_sql_rowstore *rs, const uint8_t *slot, dl_vec_view *v) {
    memcpy(v, slot, sizeof(*v));
    if (v->inlined.length <= DL_VEC_VIEW_INLINE) {
        return dl_str_make((const char *)v->inlined.data, (size_t)v->inlined.length);
    }
    const dl_vec_buffer *heap = rs->heaps[v->ref.buffer_index];
    return dl_str_make((const char *)heap->data + v->ref.offset, (size_t)v->ref.length);
}

static int
compare_slots(const dl_sql_rowstore *a, const uint8_t *sa, const dl_sql_rowstore *b,
              const uint8_t *sb, dl_vec_phys phys) {
    switch (phys) {
#define FIXED_CASE(tag, ctype)     \
    case tag: {                    \
        ctype x, y;                \
        memcpy(&x, sa, sizeof(x)); \
        memcpy(&y, sb, sizeof(y)); \
        return CMP3(x, y);         \
    }
        FIXED_CASE(DL_VEC_PHYS_BIT, uint8_t)
        FIXED_CASE(DL_VEC_PHYS_I8, int8_t)
        FIXED_CASE(DL_VEC_PHYS_I16, int16_t)
        FIXED_CASE(DL_VEC_PHYS_I32, int32_t)
        FIXED_CASE(DL_VEC_PHYS_I64, int64_t)
        FIXED_CASE(DL_VEC_PHYS_I128, dl_i128)
#undef FIXED_CASE
    case DL_VEC_PHYS_F32: {
        float x, y;
        memcpy(&x, sa, sizeof(x));
        memcpy(&y, sb, sizeof(y));
        return compare_doubles((double)x, (double)y);
    }
    case DL_VEC_PHYS_F64: {
        double x, y;
        memcpy(&x, sa, sizeof(x));
        memcpy(&y, sb, sizeof(y));
        return compare_doubles(x, y);
    }
    case DL_VEC_PHYS_VIEW: {
        dl_vec_view va, vb;
        dl_str x = view_bytes(a, sa, &va);
        dl_str y = view_bytes(b, sb, &vb);
        int c = memcmp(x.ptr, y.ptr, DL_MIN(x.len, y.len));
        return c != 0 ? CMP3(c, 0) : CMP3(x.len, y.len);
    }
    default:
        return 0;
    }
}

int
dl_sql_rowstore_compare(const dl_sql_rowstore *a, int64_t ra, const dl_sql_rowstore *b, int64_t rb,
                        int32_t col, int *out_nulls) {
    const dl_sql_rowlayout *lay = a->lay;
    int32_t off = lay->offsets[col];
    if (off < 0) {
        const dl_vector *va = a->side.cols[lay->side_of[col]];
        const dl_vector *vb = b->side.cols[lay->side_of[col]];
        *out_nulls = (dl_vec_is_null(va, ra) ? 1 : 0) | (dl_vec_is_null(vb, rb) ? 2 : 0);
        return *out_nulls != 0 ? 0 : dl_sql_value_compare(va, ra, vb, rb);
    }
    const uint8_t *xa = a->data + (size_t)ra * (size_t)lay->width;
    const uint8_t *xb = b->data + (size_t)rb * (size_t)lay->width;
    *out_nulls = (row_is_null(xa, col) ? 1 : 0) | (row_is_null(xb, col) ? 2 : 0);
    if (*out_nulls != 0) {
        return 0;
    }
    return compare_slots(a, xa + off, b, xb + off, dl_vec_type_phys(lay->types[col]));
}
