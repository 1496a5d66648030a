/* SPDX-License-Identifier: Apache-2.0 */
/* Selection vectors (see vec_sel.h). */
#include "vector/vec_sel.h"

#include <string.h>

#include "vector/vec_buffer.h"
#include "vector/vector_int.h"

void
dl_vec_sel_init(dl_sel *sel, const dl_allocator *alloc) {
    sel->rows = NULL;
    sel->count = 0;
    sel->capacity = 0;
    sel->alloc = alloc;
}

void
dl_vec_sel_destroy(dl_sel *sel) {
    dl_mem_free(sel->alloc, sel->rows, (size_t)sel->capacity * sizeof(uint32_t));
    sel->rows = NULL;
    sel->count = 0;
    sel->capacity = 0;
}

dl_status
dl_vec_sel_reserve(dl_sel *sel, int64_t capacity, dl_error *err) {
    if (capacity <= sel->capacity) {
        return DL_OK;
    }
    DL_CHECK(capacity <= (int64_t)UINT32_MAX + 1, err, DL_ERR_INVALID_ARG,
             "selection of %lld rows exceeds the 2^32 a selection can index", (long long)capacity);
    int64_t new_cap = DL_MAX(capacity, sel->capacity * 2);
    new_cap = DL_MIN(new_cap, (int64_t)UINT32_MAX + 1);
    uint32_t *rows = dl_mem_realloc(sel->alloc, sel->rows, (size_t)sel->capacity * sizeof(uint32_t),
                                    (size_t)new_cap * sizeof(uint32_t));
    DL_CHECK(rows != NULL, err, DL_ERR_NOMEM, "out of memory growing a selection to %lld rows",
             (long long)new_cap);
    sel->rows = rows;
    sel->capacity = new_cap;
    return DL_OK;
}

dl_status
dl_vec_sel_set_range(dl_sel *sel, int64_t start, int64_t count, dl_error *err) {
    DL_CHECK(start >= 0 && count >= 0 && start + count <= (int64_t)UINT32_MAX + 1, err,
             DL_ERR_INVALID_ARG, "selection range [%lld, +%lld) is out of range", (long long)start,
             (long long)count);
    DL_TRY(dl_vec_sel_reserve(sel, count, err));
    for (int64_t i = 0; i < count; i++) {
        sel->rows[i] = (uint32_t)(start + i);
    }
    sel->count = count;
    return DL_OK;
}

dl_status
dl_vec_sel_set_rows(dl_sel *sel, const uint32_t *rows, int64_t count, dl_error *err) {
    DL_TRY(dl_vec_sel_reserve(sel, count, err));
    if (count > 0) {
        memmove(sel->rows, rows, (size_t)count * sizeof(uint32_t));
    }
    sel->count = count;
    return DL_OK;
}

dl_status
dl_vec_sel_from_bits(dl_sel *sel, const uint8_t *bits, int64_t n, bool want, dl_error *err) {
    DL_TRY(dl_vec_sel_reserve(sel, n, err));
    if (bits == NULL) {
        sel->count = 0;
        if (want) {
            return dl_vec_sel_set_range(sel, 0, n, err);
        }
        return DL_OK;
    }
    sel->count = dl_vec_sel_filter_bits(NULL, n, bits, want, sel->rows);
    return DL_OK;
}

int64_t
dl_vec_sel_filter_bits(const uint32_t *rows_in, int64_t n, const uint8_t *bits, bool want,
                       uint32_t *out) {
    int64_t k = 0;
    if (rows_in == NULL) {
        for (int64_t i = 0; i < n; i++) {
            out[k] = (uint32_t)i;
            k += dl_vec_bit_get(bits, i) == want;
        }
        return k;
    }
    /* Branch-free: always write, advance only on a match (out may alias rows_in: k <= i). */
    for (int64_t i = 0; i < n; i++) {
        uint32_t row = rows_in[i];
        out[k] = row;
        k += dl_vec_bit_get(bits, row) == want;
    }
    return k;
}

void
dl_vec_sel_refine_bits(dl_sel *sel, const uint8_t *bits, bool want) {
    if (sel->rows == NULL) { /* nothing selected yet: nothing to refine */
        return;
    }
    sel->count = dl_vec_sel_filter_bits(sel->rows, sel->count, bits, want, sel->rows);
}

dl_status
dl_vec_sel_intersect(dl_sel *out, const uint32_t *a, int64_t n_a, const uint32_t *b, int64_t n_b,
                     dl_error *err) {
    if (a != out->rows) {
        DL_TRY(dl_vec_sel_reserve(out, DL_MIN(n_a, n_b), err));
    }
    int64_t i = 0;
    int64_t j = 0;
    int64_t k = 0;
    while (i < n_a && j < n_b) {
        if (a[i] < b[j]) {
            i++;
        } else if (b[j] < a[i]) {
            j++;
        } else {
            out->rows[k++] = a[i];
            i++;
            j++;
        }
    }
    out->count = k;
    return DL_OK;
}

dl_status
dl_vec_sel_difference(dl_sel *out, const uint32_t *a, int64_t n_a, const uint32_t *b, int64_t n_b,
                      dl_error *err) {
    if (a != out->rows) {
        DL_TRY(dl_vec_sel_reserve(out, n_a, err));
    }
    int64_t j = 0;
    int64_t k = 0;
    for (int64_t i = 0; i < n_a; i++) {
        while (j < n_b && b[j] < a[i]) {
            j++;
        }
        if (j < n_b && b[j] == a[i]) {
            continue;
        }
        out->rows[k++] = a[i];
    }
    out->count = k;
    return DL_OK;
}

dl_status
dl_vec_sel_compose(dl_sel *out, const uint32_t *outer, int64_t n, const uint32_t *inner,
                   dl_error *err) {
    DL_TRY(dl_vec_sel_reserve(out, n, err));
    for (int64_t k = 0; k < n; k++) {
        uint32_t mid = outer != NULL ? outer[k] : (uint32_t)k;
        out->rows[k] = inner != NULL ? inner[mid] : mid;
    }
    out->count = n;
    return DL_OK;
}

bool
dl_vec_sel_is_sorted(const uint32_t *rows, int64_t n) {
    for (int64_t i = 1; i < n; i++) {
        if (rows[i] <= rows[i - 1]) {
            return false;
        }
    }
    return true;
}
