/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Column buffers and gathers (sql_op_sort_int.h): rows collected into long FLAT vectors, and
 * copies out of them by row number for sort output, permuted runs and window results.
 *
 * Gathers write fixed-width values, bits and string views with typed loops. A string view
 * that points into a heap is re-pointed at the same heap in the destination: a permutation
 * takes all of the source's heaps in their order (views copy unchanged); a gather from
 * several sources maps each source heap to a destination heap through a small cache.
 * Nested values go through dl_vec_copy_sel.
 */
#include <string.h>

#include "sql/exec/sql_op_sort_int.h"

/* ---- column buffers ------------------------------------------------------------------------ */

dl_status
dl_sql_colbuf_init(dl_sql_colbuf *cb, const dl_allocator *alloc, const dl_type *const *types,
                   int32_t n_cols, dl_error *err) {
    memset(cb, 0, sizeof(*cb));
    cb->alloc = alloc;
    if (n_cols == 0) {
        return DL_OK;
    }
    cb->cols = dl_mem_alloc_zero(alloc, (size_t)n_cols * sizeof(dl_vector *));
    DL_CHECK(cb->cols != NULL, err, DL_ERR_NOMEM, "out of memory collecting %d columns",
             (int)n_cols);
    cb->n_cols = n_cols;
    for (int32_t c = 0; c < n_cols; c++) {
        DL_TRY(dl_vec_new(alloc, types[c], 0, &cb->cols[c], err));
    }
    return DL_OK;
}

dl_status
dl_sql_colbuf_init_like(dl_sql_colbuf *cb, const dl_allocator *alloc, const dl_sql_colbuf *proto,
                        dl_error *err) {
    memset(cb, 0, sizeof(*cb));
    cb->alloc = alloc;
    if (proto->n_cols == 0) {
        return DL_OK;
    }
    cb->cols = dl_mem_alloc_zero(alloc, (size_t)proto->n_cols * sizeof(dl_vector *));
    DL_CHECK(cb->cols != NULL, err, DL_ERR_NOMEM, "out of memory collecting %d columns",
             (int)proto->n_cols);
    cb->n_cols = proto->n_cols;
    for (int32_t c = 0; c < proto->n_cols; c++) {
        DL_TRY(dl_vec_new(alloc, proto->cols[c]->type, 0, &cb->cols[c], err));
    }
    return DL_OK;
}

void
dl_sql_colbuf_destroy(dl_sql_colbuf *cb) {
    for (int32_t c = 0; c < cb->n_cols; c++) {
        dl_vec_unref(cb->cols[c]);
    }
    if (cb->cols != NULL) {
        dl_mem_free(cb->alloc, cb->cols, (size_t)cb->n_cols * sizeof(dl_vector *));
    }
    cb->cols = NULL;
    cb->n_cols = 0;
    cb->count = 0;
}

dl_status
dl_sql_colbuf_append(dl_sql_colbuf *cb, const dl_batch *batch, const uint32_t *rows, int64_t count,
                     dl_vector *const *extra, const uint32_t *extra_rows, int32_t n_extra,
                     dl_error *err) {
    if (count == 0) {
        return DL_OK;
    }
    DL_CHECK(cb->count + count <= DL_VEC_MAX_LENGTH, err, DL_ERR_LIMIT,
             "more than %d rows to hold in memory", DL_VEC_MAX_LENGTH);
    int32_t n_batch = batch != NULL ? batch->n_cols : 0;
    DL_ASSERT(n_batch + n_extra == cb->n_cols);
    const uint32_t *sel = rows != NULL ? rows : (batch != NULL ? batch->sel : NULL);
    for (int32_t c = 0; c < n_batch; c++) {
        DL_TRY(dl_vec_copy_sel(cb->cols[c], batch->cols[c], sel, count, err));
    }
    for (int32_t e = 0; e < n_extra; e++) {
        DL_TRY(dl_vec_copy_sel(cb->cols[n_batch + e], extra[e], extra_rows, count, err));
    }
    cb->count += count;
    return DL_OK;
}

/* ---- gathers ------------------------------------------------------------------------------- */

static inline uint32_t
run_of(const uint32_t *runs, int64_t i) {
    return runs != NULL ? runs[i] : 0;
}

/* Copies n values of w bytes: value i is row rows[i] of srcs[runs[i]]. Inlined with a constant
 * w at each call, so each copy is a single move. */
__attribute__((always_inline)) static inline void
gather_width(uint8_t *o, dl_vector *const *srcs, const uint32_t *runs, const uint32_t *rows,
             int64_t n, size_t w) {
    if (runs == NULL) {
        const uint8_t *in = srcs[0]->data;
        for (int64_t i = 0; i < n; i++) {
            memcpy(o + (size_t)i * w, in + (size_t)rows[i] * w, w);
        }
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        memcpy(o + (size_t)i * w, (const uint8_t *)srcs[runs[i]]->data + (size_t)rows[i] * w, w);
    }
}

static bool
any_validity(dl_vector *const *srcs, const uint32_t *runs, int64_t n) {
    if (runs == NULL) {
        return srcs[0]->validity != NULL;
    }
    for (int64_t i = 0; i < n; i++) {
        if (srcs[runs[i]]->validity != NULL) {
            return true;
        }
    }
    return false;
}

static dl_status
gather_validity(dl_vector *dst, dl_vector *const *srcs, const uint32_t *runs, const uint32_t *rows,
                int64_t n, dl_error *err) {
    if (!any_validity(srcs, runs, n)) {
        return DL_OK;
    }
    DL_TRY(dl_vec_make_validity(dst, err));
    for (int64_t i = 0; i < n; i++) {
        const uint8_t *v = srcs[run_of(runs, i)]->validity;
        if (v != NULL && !dl_vec_bit_get(v, rows[i])) {
            dl_vec_bit_clear(dst->validity, i);
        }
    }
    return DL_OK;
}

dl_status
dl_sql_heap_cache_map(dl_vector *dst, dl_sql_heap_cache *hc, dl_vec_buffer *heap, int32_t *out,
                      dl_error *err) {
    uintptr_t p = (uintptr_t)heap;
    size_t slot = (size_t)((p >> 4) ^ (p >> 12)) & (DL_SQL_HEAP_CACHE - 1);
    if (hc->key[slot] == heap) {
        *out = hc->idx[slot];
        return DL_OK;
    }
    DL_TRY(dl_vec_add_heap(dst, heap, out, err));
    hc->key[slot] = heap;
    hc->idx[slot] = *out;
    return DL_OK;
}

static dl_status
gather_views_runs(dl_vector *dst, dl_vector *const *srcs, const uint32_t *runs,
                  const uint32_t *rows, int64_t n, dl_error *err) {
    dl_sql_heap_cache hc;
    memset(hc.key, 0, sizeof(hc.key));
    dl_vec_view *o = dst->data;
    dl_status s = DL_OK;
    for (int64_t i = 0; i < n && s == DL_OK; i++) {
        const dl_vector *src = srcs[run_of(runs, i)];
        dl_vec_view v = ((const dl_vec_view *)src->data)[rows[i]];
        if (v.inlined.length > DL_VEC_VIEW_INLINE) {
            int32_t idx = 0;
            s = dl_sql_heap_cache_map(dst, &hc, src->heaps[v.ref.buffer_index], &idx, err);
            v.ref.buffer_index = idx;
        }
        o[i] = v;
    }
    return s;
}

static dl_status
gather_views(dl_vector *dst, dl_vector *const *srcs, const uint32_t *runs, const uint32_t *rows,
             int64_t n, dl_error *err) {
    if (runs != NULL || dst->n_heaps != 0) {
        return gather_views_runs(dst, srcs, runs, rows, n, err);
    }
    /* One source: take its heaps in order, so every view copies unchanged. */
    const dl_vector *src = srcs[0];
    for (int32_t h = 0; h < src->n_heaps; h++) {
        int32_t idx;
        DL_TRY(dl_vec_add_heap(dst, src->heaps[h], &idx, err));
        DL_ASSERT(idx == h);
    }
    gather_width(dst->data, srcs, NULL, rows, n, sizeof(dl_vec_view));
    return DL_OK;
}

static dl_status
gather_nested(dl_vector *dst, dl_vector *const *srcs, const uint32_t *runs, const uint32_t *rows,
              int64_t n, dl_error *err) {
    if (runs == NULL) {
        return dl_vec_copy_sel(dst, srcs[0], rows, n, err);
    }
    int64_t i = 0;
    while (i < n) {
        int64_t j = i + 1;
        while (j < n && runs[j] == runs[i]) {
            j++;
        }
        DL_TRY(dl_vec_copy_sel(dst, srcs[runs[i]], rows + i, j - i, err));
        i = j;
    }
    return DL_OK;
}

dl_status
dl_sql_gather(dl_vector *dst, dl_vector *const *srcs, const uint32_t *runs, const uint32_t *rows,
              int64_t n, dl_error *err) {
    DL_ASSERT(dst->layout == DL_VEC_FLAT && dst->length == 0);
    dl_vec_phys phys = dl_vec_type_phys(dst->type);
    if (phys == DL_VEC_PHYS_STRUCT || phys == DL_VEC_PHYS_LIST || phys == DL_VEC_PHYS_NONE) {
        return gather_nested(dst, srcs, runs, rows, n, err);
    }
    DL_TRY(dl_vec_reserve(dst, n, err));
    DL_TRY(gather_validity(dst, srcs, runs, rows, n, err));
    switch (phys) {
    case DL_VEC_PHYS_BIT:
        for (int64_t i = 0; i < n; i++) {
            const dl_vector *src = srcs[run_of(runs, i)];
            dl_vec_bit_put(dst->data, i, dl_vec_get_bool(src, rows[i]));
        }
        break;
    case DL_VEC_PHYS_I8:
        gather_width(dst->data, srcs, runs, rows, n, 1);
        break;
    case DL_VEC_PHYS_I16:
        gather_width(dst->data, srcs, runs, rows, n, 2);
        break;
    case DL_VEC_PHYS_I32:
    case DL_VEC_PHYS_F32:
        gather_width(dst->data, srcs, runs, rows, n, 4);
        break;
    case DL_VEC_PHYS_I64:
    case DL_VEC_PHYS_F64:
        gather_width(dst->data, srcs, runs, rows, n, 8);
        break;
    case DL_VEC_PHYS_I128:
        gather_width(dst->data, srcs, runs, rows, n, 16);
        break;
    case DL_VEC_PHYS_VIEW:
        DL_TRY(gather_views(dst, srcs, runs, rows, n, err));
        break;
    default:
        DL_FAIL(err, DL_ERR_INTERNAL, "gather of an unexpected storage class %d", (int)phys);
    }
    dl_vec_set_length(dst, n);
    return DL_OK;
}

dl_status
dl_sql_colbuf_permute(dl_sql_colbuf *cb, const uint32_t *rows, int64_t n, dl_error *err) {
    for (int32_t c = 0; c < cb->n_cols; c++) {
        dl_vector *fresh;
        DL_TRY(dl_vec_new(cb->alloc, cb->cols[c]->type, 0, &fresh, err));
        dl_status s = dl_sql_gather(fresh, &cb->cols[c], NULL, rows, n, err);
        if (s != DL_OK) {
            dl_vec_unref(fresh);
            return s;
        }
        dl_vec_unref(cb->cols[c]);
        cb->cols[c] = fresh;
    }
    cb->count = n;
    return DL_OK;
}

dl_status
dl_sql_dict_new(dl_vector *dict, const uint32_t *idx, const uint8_t *is_null, int64_t n,
                dl_vector **out, dl_error *err) {
    dl_vector *vec;
    DL_TRY(dl_vec_new(dict->alloc, dict->type, 0, &vec, err));
    dl_status s = dl_vec_set_dict(vec, dict, err);
    if (s == DL_OK) {
        s = dl_vec_reserve(vec, n, err);
    }
    if (s == DL_OK && is_null != NULL) {
        s = dl_vec_make_validity(vec, err);
    }
    if (s != DL_OK) {
        dl_vec_unref(vec);
        return s;
    }
    int32_t *o = vec->data;
    if (is_null == NULL) {
        for (int64_t i = 0; i < n; i++) {
            o[i] = (int32_t)idx[i];
        }
    } else {
        for (int64_t i = 0; i < n; i++) {
            o[i] = is_null[i] ? 0 : (int32_t)idx[i];
            if (is_null[i]) {
                dl_vec_bit_clear(vec->validity, i);
            }
        }
    }
    dl_vec_set_length(vec, n);
    *out = vec;
    return DL_OK;
}
