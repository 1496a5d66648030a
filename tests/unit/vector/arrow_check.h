/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A test-side Arrow consumer: walks an exported ArrowSchema + ArrowArray the way a reader of
 * the C Data Interface would (format strings, validity bitmaps, offsets, binary views with
 * variadic buffers, dictionaries) and compares every row with the source vector, read through
 * the vector API. arrow_check returns 1 when they agree, else prints why and returns 0.
 */
#ifndef DL_TESTS_ARROW_CHECK_H
#define DL_TESTS_ARROW_CHECK_H

#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "vector/vec_arrow.h"

static int
ac_fail(const char *what, int64_t row) {
    printf("  arrow check: %s at row %lld\n", what, (long long)row);
    return 0;
}

static int
ac_is_null(const struct ArrowArray *a, int64_t i) {
    if (a->n_buffers == 0) {
        return 1; /* the null type */
    }
    const uint8_t *validity = a->buffers[0];
    return validity != NULL && !dl_vec_bit_get(validity, a->offset + i);
}

/* The Arrow format the vector API promises for type (decimal spelled out). */
static int
ac_format_is(const struct ArrowSchema *s, const dl_type *type) {
    static const char *const formats[DL_VEC_TYPE_COUNT] = {
        [DL_VEC_TYPE_NULL] = "n",
        [DL_VEC_TYPE_BOOLEAN] = "b",
        [DL_VEC_TYPE_BYTE] = "c",
        [DL_VEC_TYPE_SHORT] = "s",
        [DL_VEC_TYPE_INT] = "i",
        [DL_VEC_TYPE_LONG] = "l",
        [DL_VEC_TYPE_FLOAT] = "f",
        [DL_VEC_TYPE_DOUBLE] = "g",
        [DL_VEC_TYPE_STRING] = "vu",
        [DL_VEC_TYPE_BINARY] = "vz",
        [DL_VEC_TYPE_DATE] = "tdD",
        [DL_VEC_TYPE_TIMESTAMP] = "tsu:UTC",
        [DL_VEC_TYPE_TIMESTAMP_NTZ] = "tsu:",
        [DL_VEC_TYPE_STRUCT] = "+s",
        [DL_VEC_TYPE_ARRAY] = "+l",
        [DL_VEC_TYPE_MAP] = "+m",
    };
    if (type->id == DL_VEC_TYPE_DECIMAL) {
        char expected[32];
        (void)snprintf(expected, sizeof(expected), "d:%d,%d", type->precision, type->scale);
        return strcmp(s->format, expected) == 0;
    }
    return strcmp(s->format, formats[type->id]) == 0;
}

static int ac_value(const struct ArrowSchema *s, const struct ArrowArray *a, int64_t ai,
                    const dl_vector *vec, int64_t vi);

static int
ac_view(const struct ArrowArray *a, int64_t ai, const dl_vector *flat, int64_t e) {
    const dl_vec_view *view = (const dl_vec_view *)a->buffers[1] + a->offset + ai;
    int64_t n_heaps = a->n_buffers - 3;
    const int64_t *sizes = a->buffers[a->n_buffers - 1];
    const char *bytes = (const char *)view->inlined.data;
    if (view->inlined.length > DL_VEC_VIEW_INLINE) {
        int32_t b = view->ref.buffer_index;
        if (b < 0 || b >= n_heaps || view->ref.offset + view->ref.length > sizes[b]) {
            return ac_fail("view outside its variadic buffer", ai);
        }
        bytes = (const char *)a->buffers[2 + b] + view->ref.offset;
        if (memcmp(view->ref.prefix, bytes, 4) != 0) {
            return ac_fail("view prefix differs from its bytes", ai);
        }
    }
    dl_str expected = dl_vec_get_str(flat, e);
    if ((size_t)view->inlined.length != expected.len ||
        (expected.len > 0 && memcmp(bytes, expected.ptr, expected.len) != 0)) {
        return ac_fail("string bytes differ", ai);
    }
    return 1;
}

static int
ac_list(const struct ArrowSchema *s, const struct ArrowArray *a, int64_t ai, const dl_vector *flat,
        int64_t e) {
    const int32_t *offsets = (const int32_t *)a->buffers[1] + a->offset;
    int64_t start;
    int64_t end;
    dl_vec_list_bounds(flat, e, &start, &end);
    if (offsets[ai + 1] - offsets[ai] != end - start) {
        return ac_fail("list lengths differ", ai);
    }
    for (int64_t p = 0; p < end - start; p++) {
        if (!ac_value(s->children[0], a->children[0], offsets[ai] + p, flat->children[0],
                      start + p)) {
            return ac_fail("in list element", ai);
        }
    }
    return 1;
}

static int
ac_fixed(const struct ArrowArray *a, int64_t ai, const dl_vector *flat, int64_t e) {
    size_t width = dl_vec_type_width(flat->type);
    if (width == 0) { /* boolean */
        int got = dl_vec_bit_get(a->buffers[1], a->offset + ai);
        return got == dl_vec_get_bool(flat, e) ? 1 : ac_fail("boolean differs", ai);
    }
    const uint8_t *got = (const uint8_t *)a->buffers[1] + (size_t)(a->offset + ai) * width;
    const uint8_t *want = (const uint8_t *)flat->data + (size_t)e * width;
    return memcmp(got, want, width) == 0 ? 1 : ac_fail("value bytes differ", ai);
}

static int
ac_value(const struct ArrowSchema *s, const struct ArrowArray *a, int64_t ai, const dl_vector *vec,
         int64_t vi) {
    int is_vec_null = dl_vec_is_null(vec, vi);
    if (s->dictionary != NULL) {
        if (strcmp(s->format, "i") != 0 || a->dictionary == NULL) {
            return ac_fail("dictionary without int32 indices", ai);
        }
        if (ac_is_null(a, ai)) {
            return is_vec_null ? 1 : ac_fail("null index for a valid row", ai);
        }
        int32_t index = ((const int32_t *)a->buffers[1])[a->offset + ai];
        if (index < 0 || index >= a->dictionary->length) {
            return ac_fail("index outside the dictionary", ai);
        }
        return ac_value(s->dictionary, a->dictionary, index, vec, vi);
    }
    if (!ac_format_is(s, vec->type)) {
        return ac_fail(s->format, ai);
    }
    if (ac_is_null(a, ai) != is_vec_null) {
        return ac_fail("null differs", ai);
    }
    if (is_vec_null) {
        return 1;
    }
    const dl_vector *flat;
    int64_t e = dl_vec_resolve(vec, vi, &flat);
    switch (dl_vec_type_phys(vec->type)) {
    case DL_VEC_PHYS_VIEW:
        return ac_view(a, ai, flat, e);
    case DL_VEC_PHYS_LIST:
        return ac_list(s, a, ai, flat, e);
    case DL_VEC_PHYS_STRUCT:
        for (int32_t j = 0; j < flat->n_children; j++) {
            if (!ac_value(s->children[j], a->children[j], ai, flat->children[j], e)) {
                return ac_fail("in struct field", ai);
            }
        }
        return 1;
    default:
        return ac_fixed(a, ai, flat, e);
    }
}

/* Checks the structure of the export (sizes, null count, released flags) and every row. */
static int
arrow_check(const struct ArrowSchema *s, const struct ArrowArray *a, const dl_vector *vec) {
    if (s->release == NULL || a->release == NULL) {
        return ac_fail("released structure", -1);
    }
    if (a->length != vec->length || a->offset != 0) {
        return ac_fail("length or offset differs", -1);
    }
    if (a->null_count != -1 && s->dictionary == NULL && a->null_count != dl_vec_null_count(vec)) {
        return ac_fail("null_count differs", -1);
    }
    for (int64_t i = 0; i < vec->length; i++) {
        if (!ac_value(s, a, i, vec, i)) {
            return 0;
        }
    }
    return 1;
}

#endif /* DL_TESTS_ARROW_CHECK_H */
