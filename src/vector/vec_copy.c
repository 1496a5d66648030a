/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Copies between vectors: gathering rows by selection (any layout into a flat vector),
 * flattening constant and dictionary vectors, slicing, and sharing buffers.
 *
 * Every copy reduces to gather_flat: element k of the output is element map(k) of a FLAT
 * source, optionally masked null. Constant sources map every row to element 0; dictionary
 * sources map row r to indices[r] of the dictionary, masked by the index validity. Nested
 * types recurse: struct fields with the same map, list children with the concatenated
 * element ranges. Out-of-line strings stay where they are: the destination takes a reference
 * to each source heap it needs.
 */
#include <string.h>

#include "vector/vector_int.h"

/* Element of output k: idx[k], or start + step * k when idx is NULL. */
typedef struct elem_map {
    const uint32_t *idx;
    int64_t start;
    int64_t step;
} elem_map;

static inline int64_t
elem_at(const elem_map *map, int64_t k) {
    return map->idx != NULL ? (int64_t)map->idx[k] : map->start + map->step * k;
}

static dl_status gather_flat(dl_vector *dst, const dl_vector *src, const elem_map *map,
                             int64_t count, const uint8_t *mask, dl_error *err);

static bool
dst_is_null(const dl_vector *dst, int64_t row) {
    return dst->validity != NULL && !dl_vec_bit_get(dst->validity, row);
}

static void
gather_validity(dl_vector *dst, int64_t base, const dl_vector *src, const elem_map *map,
                int64_t count, const uint8_t *mask) {
    for (int64_t k = 0; k < count; k++) {
        bool is_valid = (mask == NULL || dl_vec_bit_get(mask, k)) &&
                        (src->validity == NULL || dl_vec_bit_get(src->validity, elem_at(map, k)));
        if (!is_valid) {
            dl_vec_bit_clear(dst->validity, base + k);
        }
    }
}

static void
gather_fixed(uint8_t *out, const uint8_t *in, const elem_map *map, int64_t count, size_t width) {
    /* One loop per width so that memcpy of a constant size becomes a move. */
    switch (width) {
    case 1:
        for (int64_t k = 0; k < count; k++) {
            out[k] = in[elem_at(map, k)];
        }
        break;
    case 2:
        for (int64_t k = 0; k < count; k++) {
            memcpy(out + k * 2, in + elem_at(map, k) * 2, 2);
        }
        break;
    case 4:
        for (int64_t k = 0; k < count; k++) {
            memcpy(out + k * 4, in + elem_at(map, k) * 4, 4);
        }
        break;
    case 8:
        for (int64_t k = 0; k < count; k++) {
            memcpy(out + k * 8, in + elem_at(map, k) * 8, 8);
        }
        break;
    default:
        for (int64_t k = 0; k < count; k++) {
            memcpy(out + k * 16, in + elem_at(map, k) * 16, 16);
        }
        break;
    }
}

/* Points an out-of-line view of src at the same heap in dst; caches the last mapping. */
static dl_status
remap_heap(dl_vector *dst, const dl_vector *src, dl_vec_view *view, int32_t *src_heap,
           int32_t *dst_heap, dl_error *err) {
    if (view->ref.buffer_index != *src_heap) {
        DL_ASSERT(view->ref.buffer_index < src->n_heaps);
        *src_heap = view->ref.buffer_index;
        DL_TRY(dl_vec_heap_find_or_add(dst, src->heaps[*src_heap], dst_heap, err));
    }
    view->ref.buffer_index = *dst_heap;
    return DL_OK;
}

static dl_status
gather_views(dl_vector *dst, int64_t base, const dl_vector *src, const elem_map *map, int64_t count,
             dl_error *err) {
    const dl_vec_view *in = src->data;
    dl_vec_view *out = (dl_vec_view *)dst->data + base;
    int32_t src_heap = -1;
    int32_t dst_heap = -1;
    for (int64_t k = 0; k < count; k++) {
        if (dst_is_null(dst, base + k)) {
            memset(&out[k], 0, sizeof(out[k]));
            continue;
        }
        dl_vec_view view = in[elem_at(map, k)];
        if (view.inlined.length > DL_VEC_VIEW_INLINE) {
            DL_TRY(remap_heap(dst, src, &view, &src_heap, &dst_heap, err));
        }
        out[k] = view;
    }
    return DL_OK;
}

static int64_t
list_len(const dl_vector *dst, int64_t row, const int32_t *offsets, int64_t e) {
    return dst_is_null(dst, row) ? 0 : (int64_t)offsets[e + 1] - offsets[e];
}

static dl_status
gather_lists(dl_vector *dst, int64_t base, const dl_vector *src, const elem_map *map, int64_t count,
             dl_error *err) {
    const int32_t *in = src->data;
    int32_t *out = dst->data;
    int64_t end = out[base];
    for (int64_t k = 0; k < count; k++) {
        end += list_len(dst, base + k, in, elem_at(map, k));
        DL_CHECK(end <= INT32_MAX, err, DL_ERR_LIMIT,
                 "copying lists: %lld child elements exceed the int32 offset limit",
                 (long long)end);
        out[base + k + 1] = (int32_t)end;
    }
    int64_t total = end - out[base];
    if (total == 0) {
        return DL_OK;
    }
    uint32_t *idx = dl_mem_alloc_array(dst->alloc, (size_t)total, sizeof(uint32_t));
    DL_CHECK(idx != NULL, err, DL_ERR_NOMEM, "out of memory copying %lld list elements",
             (long long)total);
    int64_t j = 0;
    for (int64_t k = 0; k < count; k++) {
        int64_t e = elem_at(map, k);
        int64_t n = list_len(dst, base + k, in, e);
        for (int64_t p = 0; p < n; p++) {
            idx[j++] = (uint32_t)(in[e] + p);
        }
    }
    elem_map child_map = {.idx = idx, .start = 0, .step = 0};
    dl_status s = gather_flat(dst->children[0], src->children[0], &child_map, total, NULL, err);
    dl_mem_free(dst->alloc, idx, (size_t)total * sizeof(uint32_t));
    return s;
}

static dl_status
gather_values(dl_vector *dst, int64_t base, const dl_vector *src, const elem_map *map,
              int64_t count, dl_error *err) {
    switch (dl_vec_type_phys(src->type)) {
    case DL_VEC_PHYS_NONE:
        return DL_OK;
    case DL_VEC_PHYS_BIT:
        for (int64_t k = 0; k < count; k++) {
            dl_vec_bit_put(dst->data, base + k, dl_vec_bit_get(src->data, elem_at(map, k)));
        }
        return DL_OK;
    case DL_VEC_PHYS_VIEW:
        return gather_views(dst, base, src, map, count, err);
    case DL_VEC_PHYS_STRUCT:
        for (int32_t i = 0; i < src->n_children; i++) {
            DL_TRY(gather_flat(dst->children[i], src->children[i], map, count, NULL, err));
        }
        return DL_OK;
    case DL_VEC_PHYS_LIST:
        return gather_lists(dst, base, src, map, count, err);
    default: {
        size_t width = dl_vec_type_width(src->type);
        gather_fixed((uint8_t *)dst->data + (size_t)base * width, src->data, map, count, width);
        return DL_OK;
    }
    }
}

/* Undoes a failed gather into dst of count rows at base. */
static void
rollback(dl_vector *dst, int64_t base, int64_t count) {
    if (dst->validity != NULL) {
        dl_vec_bits_fill(dst->validity, base, count, true);
    }
    if (dst->type->id == DL_VEC_TYPE_STRUCT) {
        for (int32_t i = 0; i < dst->n_children; i++) {
            dl_vec_truncate(dst->children[i], base);
        }
    } else if (dl_vec_type_phys(dst->type) == DL_VEC_PHYS_LIST) {
        dl_vec_truncate(dst->children[0], ((const int32_t *)dst->data)[base]);
    }
}

static dl_status
gather_flat(dl_vector *dst, const dl_vector *src, const elem_map *map, int64_t count,
            const uint8_t *mask, dl_error *err) {
    DL_ASSERT(src->layout != DL_VEC_DICT && dst->layout == DL_VEC_FLAT);
    int64_t base = dst->length;
    DL_CHECK(count <= DL_VEC_MAX_LENGTH - base, err, DL_ERR_LIMIT,
             "copying %lld rows after %lld exceeds the limit of %d rows", (long long)count,
             (long long)base, DL_VEC_MAX_LENGTH);
    int64_t target = base + count;
    if (target > dst->capacity) {
        target = DL_MIN(DL_MAX(target, dst->capacity * 2), (int64_t)DL_VEC_MAX_LENGTH);
    }
    DL_TRY(dl_vec_ensure(dst, target, err));
    if (src->validity != NULL || mask != NULL) {
        DL_TRY(dl_vec_make_validity(dst, err));
        gather_validity(dst, base, src, map, count, mask);
    }
    dl_status s = gather_values(dst, base, src, map, count, err);
    if (s != DL_OK) {
        rollback(dst, base, count);
        return s;
    }
    dst->length = base + count;
    return DL_OK;
}

/* Rows rows[k] (or start + k) of a DICT vector. */
static dl_status
copy_dict_rows(dl_vector *dst, const dl_vector *src, const uint32_t *rows, int64_t start,
               int64_t count, dl_error *err) {
    size_t idx_bytes = (size_t)count * sizeof(uint32_t);
    size_t scratch_bytes = idx_bytes + dl_vec_bitmap_bytes(count);
    uint8_t *scratch = dl_mem_alloc(dst->alloc, scratch_bytes);
    DL_CHECK(scratch != NULL, err, DL_ERR_NOMEM, "out of memory copying %lld dictionary rows",
             (long long)count);
    uint32_t *idx = (uint32_t *)(void *)scratch;
    uint8_t *mask = src->validity != NULL ? scratch + idx_bytes : NULL;
    const int32_t *indices = src->data;
    for (int64_t k = 0; k < count; k++) {
        int64_t row = rows != NULL ? (int64_t)rows[k] : start + k;
        idx[k] = (uint32_t)indices[row];
        if (mask != NULL) {
            dl_vec_bit_put(mask, k, dl_vec_bit_get(src->validity, row));
        }
    }
    elem_map map = {.idx = idx, .start = 0, .step = 0};
    dl_status s = gather_flat(dst, src->dict, &map, count, mask, err);
    dl_mem_free(dst->alloc, scratch, scratch_bytes);
    return s;
}

static dl_status
copy_rows(dl_vector *dst, const dl_vector *src, const uint32_t *rows, int64_t start, int64_t count,
          dl_error *err) {
    switch (src->layout) {
    case DL_VEC_CONST: {
        elem_map map = {.idx = NULL, .start = 0, .step = 0};
        return gather_flat(dst, src, &map, count, NULL, err);
    }
    case DL_VEC_DICT:
        return copy_dict_rows(dst, src, rows, start, count, err);
    default: {
        elem_map map = {.idx = rows, .start = start, .step = 1};
        return gather_flat(dst, src, &map, count, NULL, err);
    }
    }
}

dl_status
dl_vec_copy_sel(dl_vector *dst, const dl_vector *src, const uint32_t *rows, int64_t count,
                dl_error *err) {
    DL_ASSERT(dst != src);
    DL_CHECK(dst->layout == DL_VEC_FLAT, err, DL_ERR_INVALID_ARG,
             "rows can only be copied into a flat vector");
    DL_CHECK(dl_vec_type_equal(dst->type, src->type), err, DL_ERR_INVALID_ARG,
             "cannot copy %s rows into a %s vector", dl_vec_type_name(src->type->id),
             dl_vec_type_name(dst->type->id));
    DL_CHECK(count >= 0 && (rows != NULL || count <= src->length), err, DL_ERR_INVALID_ARG,
             "cannot copy %lld rows of a vector of %lld rows", (long long)count,
             (long long)src->length);
    if (count == 0) {
        return DL_OK;
    }
    return copy_rows(dst, src, rows, 0, count, err);
}

void
dl_vec_swap_contents(dl_vector *a, dl_vector *b) {
#define SWAP_FIELD(f)              \
    do {                           \
        __typeof__(a->f) t = a->f; \
        a->f = b->f;               \
        b->f = t;                  \
    } while (0)
    SWAP_FIELD(type);
    SWAP_FIELD(layout);
    SWAP_FIELD(length);
    SWAP_FIELD(capacity);
    SWAP_FIELD(validity);
    SWAP_FIELD(data);
    SWAP_FIELD(validity_buf);
    SWAP_FIELD(data_buf);
    SWAP_FIELD(heaps);
    SWAP_FIELD(n_heaps);
    SWAP_FIELD(cap_heaps);
    SWAP_FIELD(n_children);
    SWAP_FIELD(children);
    SWAP_FIELD(dict);
#undef SWAP_FIELD
}

dl_status
dl_vec_flatten(dl_vector *vec, dl_error *err) {
    if (vec->layout == DL_VEC_FLAT) {
        return DL_OK;
    }
    DL_ASSERT(dl_vec_is_unique(vec));
    dl_vector *tmp;
    DL_TRY(dl_vec_new(vec->alloc, vec->type, vec->length, &tmp, err));
    dl_status s = copy_rows(tmp, vec, NULL, 0, vec->length, err);
    if (s == DL_OK) {
        dl_vec_swap_contents(vec, tmp);
    }
    dl_vec_unref(tmp);
    return s;
}

dl_status
dl_vec_share(const dl_vector *src, dl_vector **out, dl_error *err) {
    dl_vector *vec = dl_mem_alloc_zero(src->alloc, sizeof(*vec));
    DL_CHECK(vec != NULL, err, DL_ERR_NOMEM, "out of memory sharing a vector");
    size_t heaps_bytes = (size_t)src->n_heaps * sizeof(void *);
    size_t children_bytes = (size_t)src->n_children * sizeof(void *);
    vec->heaps = src->n_heaps > 0 ? dl_mem_alloc(src->alloc, heaps_bytes) : NULL;
    vec->children = src->n_children > 0 ? dl_mem_alloc(src->alloc, children_bytes) : NULL;
    if ((src->n_heaps > 0 && vec->heaps == NULL) ||
        (src->n_children > 0 && vec->children == NULL)) {
        dl_mem_free(src->alloc, vec->heaps, heaps_bytes);
        dl_mem_free(src->alloc, vec->children, children_bytes);
        dl_mem_free(src->alloc, vec, sizeof(*vec));
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory sharing a vector");
    }
    vec->type = src->type;
    vec->layout = src->layout;
    vec->length = src->length;
    vec->alloc = src->alloc;
    atomic_init(&vec->refcount, 1);
    vec->validity = src->validity;
    vec->data = src->data;
    vec->validity_buf = src->validity_buf != NULL ? dl_vec_buffer_ref(src->validity_buf) : NULL;
    vec->data_buf = src->data_buf != NULL ? dl_vec_buffer_ref(src->data_buf) : NULL;
    for (int32_t i = 0; i < src->n_heaps; i++) {
        vec->heaps[i] = dl_vec_buffer_ref(src->heaps[i]);
    }
    vec->n_heaps = vec->cap_heaps = src->n_heaps;
    for (int32_t i = 0; i < src->n_children; i++) {
        vec->children[i] = dl_vec_ref(src->children[i]);
    }
    vec->n_children = src->n_children;
    vec->dict = src->dict != NULL ? dl_vec_ref(src->dict) : NULL;
    *out = vec;
    return DL_OK;
}

/* Moves the data pointer of a shared FLAT or DICT vector forward by offset elements. */
static void
advance_data(dl_vector *vec, int64_t offset) {
    if (vec->data == NULL) {
        return;
    }
    size_t skip;
    dl_vec_phys phys = dl_vec_type_phys(vec->type);
    if (vec->layout == DL_VEC_DICT || phys == DL_VEC_PHYS_LIST) {
        skip = (size_t)offset * sizeof(int32_t); /* indices or offsets */
    } else if (phys == DL_VEC_PHYS_BIT) {
        skip = (size_t)offset / 8;
    } else {
        skip = (size_t)offset * dl_vec_type_width(vec->type);
    }
    vec->data = (uint8_t *)vec->data + skip;
}

static dl_status
slice_shared(const dl_vector *src, int64_t offset, int64_t count, dl_vector **out, dl_error *err) {
    dl_vector *vec;
    DL_TRY(dl_vec_share(src, &vec, err));
    vec->length = count;
    if (src->layout == DL_VEC_CONST) {
        *out = vec;
        return DL_OK;
    }
    if (vec->validity != NULL && offset > 0) {
        vec->validity += offset / 8;
    }
    if (offset > 0) {
        advance_data(vec, offset);
    }
    if (src->layout == DL_VEC_FLAT && src->type->id == DL_VEC_TYPE_STRUCT) {
        for (int32_t i = 0; i < vec->n_children; i++) {
            dl_vector *child;
            dl_status s = dl_vec_slice(src->children[i], offset, count, &child, err);
            if (s != DL_OK) {
                dl_vec_unref(vec);
                return s;
            }
            dl_vec_unref(vec->children[i]);
            vec->children[i] = child;
        }
    }
    *out = vec;
    return DL_OK;
}

dl_status
dl_vec_slice(const dl_vector *src, int64_t offset, int64_t count, dl_vector **out, dl_error *err) {
    DL_CHECK(offset >= 0 && count >= 0 && offset <= src->length - count, err, DL_ERR_INVALID_ARG,
             "slice [%lld, +%lld) is outside a vector of %lld rows", (long long)offset,
             (long long)count, (long long)src->length);
    if (src->layout == DL_VEC_CONST || offset % 8 == 0) {
        return slice_shared(src, offset, count, out, err);
    }
    dl_vector *vec;
    DL_TRY(dl_vec_new(src->alloc, src->type, count, &vec, err));
    dl_status s = copy_rows(vec, src, NULL, offset, count, err);
    if (s != DL_OK) {
        dl_vec_unref(vec);
        return s;
    }
    *out = vec;
    return DL_OK;
}
