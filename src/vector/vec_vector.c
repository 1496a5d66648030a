/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Vectors: lifecycle, growth with copy-on-write, builders and row access (see vector.h for
 * the layouts).
 *
 * Invariants of a writable FLAT or DICT vector (capacity > 0):
 *   - data_buf and validity_buf (when present) are held only by this vector, data and
 *     validity point at their starts, and they have room for capacity elements;
 *   - validity bits at and beyond length are set, so appending a valid value never touches
 *     the bitmap;
 *   - ARRAY/MAP offsets[0..length] are written (offsets[0] is 0 in a vector built here).
 * Anything else (a slice, shared or foreign buffers) has capacity 0 and is copied on the next
 * write by dl_vec_grow.
 */
#include <string.h>

#include "vector/vector_int.h"

/* Heaps for copied strings start at this size and double up to the max; a longer string gets
 * a heap of its own size. */
#define HEAP_MIN_BYTES (16u << 10)
#define HEAP_MAX_BYTES (2u << 20)

static const uint8_t zero_bytes[16];

size_t
dl_vec_data_bytes(const dl_vector *vec, int64_t n) {
    if (vec->layout == DL_VEC_DICT) {
        return (size_t)n * sizeof(int32_t);
    }
    switch (dl_vec_type_phys(vec->type)) {
    case DL_VEC_PHYS_NONE:
    case DL_VEC_PHYS_STRUCT:
        return 0;
    case DL_VEC_PHYS_BIT:
        return dl_vec_bitmap_bytes(n);
    case DL_VEC_PHYS_LIST:
        return (size_t)(n + 1) * sizeof(int32_t);
    default:
        return (size_t)n * dl_vec_type_width(vec->type);
    }
}

static bool
is_list(const dl_vector *vec) {
    return vec->layout != DL_VEC_DICT && dl_vec_type_phys(vec->type) == DL_VEC_PHYS_LIST;
}

static bool
is_writable(const dl_vector *vec) {
    return (vec->data_buf == NULL || dl_vec_buffer_is_unique(vec->data_buf)) &&
           (vec->validity_buf == NULL || dl_vec_buffer_is_unique(vec->validity_buf));
}

static dl_status
grow_data(dl_vector *vec, int64_t n, int64_t stored, dl_error *err) {
    size_t need = dl_vec_data_bytes(vec, n);
    if (need == 0) {
        return DL_OK;
    }
    dl_vec_buffer *buf;
    DL_TRY(dl_vec_buffer_new(vec->alloc, dl_vec_round_up(need), &buf, err));
    size_t keep = dl_vec_data_bytes(vec, stored);
    if (vec->data != NULL && keep > 0) {
        memcpy(buf->data, vec->data, keep);
    } else if (is_list(vec)) {
        memset(buf->data, 0, sizeof(int32_t)); /* offsets[0] of an empty list vector */
    }
    dl_vec_buffer_unref(vec->data_buf);
    vec->data_buf = buf;
    vec->data = buf->data;
    return DL_OK;
}

static dl_status
grow_validity(dl_vector *vec, int64_t n, int64_t stored, dl_error *err) {
    size_t bytes = dl_vec_round_up(dl_vec_bitmap_bytes(DL_MAX(n, 1)));
    dl_vec_buffer *buf;
    DL_TRY(dl_vec_buffer_new(vec->alloc, bytes, &buf, err));
    if (vec->validity != NULL) {
        memcpy(buf->data, vec->validity, dl_vec_bitmap_bytes(stored));
        dl_vec_bits_fill(buf->data, stored, (int64_t)bytes * 8 - stored, true);
    } else {
        memset(buf->data, 0xFF, bytes);
    }
    dl_vec_buffer_unref(vec->validity_buf);
    vec->validity_buf = buf;
    vec->validity = buf->data;
    return DL_OK;
}

dl_status
dl_vec_grow(dl_vector *vec, int64_t n, dl_error *err) {
    DL_CHECK(n <= DL_VEC_MAX_LENGTH, err, DL_ERR_LIMIT,
             "a vector of %lld rows exceeds the limit of %d rows", (long long)n, DL_VEC_MAX_LENGTH);
    int64_t stored = vec->layout == DL_VEC_CONST ? 1 : vec->length;
    n = DL_MAX(n, stored);
    DL_TRY(grow_data(vec, n, stored, err));
    if (vec->validity != NULL) {
        DL_TRY(grow_validity(vec, n, stored, err));
    }
    vec->capacity = n;
    return DL_OK;
}

dl_status
dl_vec_ensure(dl_vector *vec, int64_t n, dl_error *err) {
    if (n <= vec->capacity && is_writable(vec)) {
        return DL_OK;
    }
    return dl_vec_grow(vec, DL_MAX(n, vec->capacity), err);
}

static dl_status
prepare_append(dl_vector *vec, dl_error *err) {
    if (DL_LIKELY(vec->length < vec->capacity && is_writable(vec))) {
        return DL_OK;
    }
    int64_t target = DL_MAX(vec->length + 1, DL_MAX(vec->capacity * 2, 16));
    if (target > DL_VEC_MAX_LENGTH && vec->length < DL_VEC_MAX_LENGTH) {
        target = DL_VEC_MAX_LENGTH;
    }
    return dl_vec_grow(vec, target, err);
}

/* ---- Lifecycle ------------------------------------------------------------------------- */

static void
drop_heaps(dl_vector *vec, int32_t keep) {
    for (int32_t i = keep; i < vec->n_heaps; i++) {
        dl_vec_buffer_unref(vec->heaps[i]);
        vec->heaps[i] = NULL;
    }
    vec->n_heaps = DL_MIN(vec->n_heaps, keep);
}

static void
free_vector(dl_vector *vec) {
    dl_vec_buffer_unref(vec->validity_buf);
    dl_vec_buffer_unref(vec->data_buf);
    drop_heaps(vec, 0);
    dl_mem_free(vec->alloc, vec->heaps, (size_t)vec->cap_heaps * sizeof(void *));
    for (int32_t i = 0; i < vec->n_children; i++) {
        dl_vec_unref(vec->children[i]);
    }
    dl_mem_free(vec->alloc, vec->children, (size_t)vec->n_children * sizeof(void *));
    dl_vec_unref(vec->dict);
    dl_mem_free(vec->alloc, vec, sizeof(*vec));
}

static const dl_type *
child_type(const dl_type *type, int32_t i) {
    return type->id == DL_VEC_TYPE_STRUCT ? type->fields[i].type : type->element;
}

static int32_t
child_count(const dl_type *type) {
    if (type->id == DL_VEC_TYPE_STRUCT) {
        return type->n_fields;
    }
    return type->id == DL_VEC_TYPE_ARRAY || type->id == DL_VEC_TYPE_MAP ? 1 : 0;
}

static dl_status
alloc_vector(const dl_allocator *alloc, const dl_type *type, dl_vector **out, dl_error *err) {
    dl_vector *vec = dl_mem_alloc_zero(alloc, sizeof(*vec));
    DL_CHECK(vec != NULL, err, DL_ERR_NOMEM, "out of memory allocating a %s vector",
             dl_vec_type_name(type->id));
    vec->type = type;
    vec->layout = DL_VEC_FLAT;
    vec->alloc = alloc;
    atomic_init(&vec->refcount, 1);
    *out = vec;
    return DL_OK;
}

static dl_status
new_children(dl_vector *vec, int64_t capacity, dl_error *err) {
    int32_t n = child_count(vec->type);
    if (n == 0) {
        return DL_OK;
    }
    vec->children = dl_mem_alloc_zero(vec->alloc, (size_t)n * sizeof(void *));
    DL_CHECK(vec->children != NULL, err, DL_ERR_NOMEM, "out of memory allocating %d children",
             (int)n);
    vec->n_children = n;
    int64_t child_capacity = vec->type->id == DL_VEC_TYPE_STRUCT ? capacity : 0;
    for (int32_t i = 0; i < n; i++) {
        DL_TRY(dl_vec_new(vec->alloc, child_type(vec->type, i), child_capacity, &vec->children[i],
                          err));
    }
    return DL_OK;
}

dl_status
dl_vec_new(const dl_allocator *alloc, const dl_type *type, int64_t capacity, dl_vector **out,
           dl_error *err) {
    DL_CHECK(capacity >= 0, err, DL_ERR_INVALID_ARG, "negative vector capacity %lld",
             (long long)capacity);
    dl_vector *vec;
    DL_TRY(alloc_vector(alloc, type, &vec, err));
    dl_status s = new_children(vec, capacity, err);
    if (s == DL_OK) {
        s = dl_vec_grow(vec, capacity, err);
    }
    if (s != DL_OK) {
        free_vector(vec);
        return s;
    }
    *out = vec;
    return DL_OK;
}

dl_vector *
dl_vec_ref(dl_vector *vec) {
    atomic_fetch_add_explicit(&vec->refcount, 1, memory_order_relaxed);
    return vec;
}

void
dl_vec_unref(dl_vector *vec) {
    if (vec == NULL) {
        return;
    }
    if (atomic_fetch_sub_explicit(&vec->refcount, 1, memory_order_acq_rel) == 1) {
        free_vector(vec);
    }
}

bool
dl_vec_is_unique(const dl_vector *vec) {
    return atomic_load_explicit(&vec->refcount, memory_order_acquire) == 1;
}

static void
reset_data(dl_vector *vec) {
    bool keep = vec->layout == DL_VEC_FLAT && vec->data_buf != NULL && vec->capacity > 0 &&
                vec->data == vec->data_buf->data && dl_vec_buffer_is_unique(vec->data_buf);
    if (!keep) {
        dl_vec_buffer_unref(vec->data_buf);
        vec->data_buf = NULL;
        vec->data = NULL;
        vec->capacity = 0;
    }
    if (is_list(vec) && vec->data != NULL) {
        memset(vec->data, 0, sizeof(int32_t));
    }
}

static void
reset_heaps(dl_vector *vec) {
    if (vec->n_heaps == 0) {
        return;
    }
    /* Keep the newest heap for reuse when it is ours alone. */
    dl_vec_buffer *last = vec->heaps[vec->n_heaps - 1];
    if (last->capacity > 0 && dl_vec_buffer_is_unique(last)) {
        vec->heaps[vec->n_heaps - 1] = NULL;
        vec->n_heaps--;
        drop_heaps(vec, 0);
        last->size = 0;
        vec->heaps[0] = last;
        vec->n_heaps = 1;
        return;
    }
    drop_heaps(vec, 0);
}

dl_status
dl_vec_reset(dl_vector *vec, dl_error *err) {
    DL_ASSERT(dl_vec_is_unique(vec));
    if (vec->layout == DL_VEC_DICT) {
        dl_vec_unref(vec->dict);
        vec->dict = NULL;
        dl_vec_buffer_unref(vec->data_buf);
        vec->data_buf = NULL;
        vec->data = NULL;
        vec->capacity = 0;
    }
    reset_data(vec);
    vec->layout = DL_VEC_FLAT;
    vec->length = 0;
    dl_vec_buffer_unref(vec->validity_buf);
    vec->validity_buf = NULL;
    vec->validity = NULL;
    reset_heaps(vec);
    if (vec->data == NULL && dl_vec_data_bytes(vec, 0) > 0) {
        DL_TRY(dl_vec_grow(vec, 0, err)); /* offsets[0] of a list */
    }
    for (int32_t i = 0; i < vec->n_children; i++) {
        dl_vector *child = vec->children[i];
        if (dl_vec_is_unique(child)) {
            DL_TRY(dl_vec_reset(child, err));
            continue;
        }
        dl_vector *fresh;
        DL_TRY(dl_vec_new(vec->alloc, child->type, 0, &fresh, err));
        dl_vec_unref(child);
        vec->children[i] = fresh;
    }
    return DL_OK;
}

dl_status
dl_vec_reserve(dl_vector *vec, int64_t capacity, dl_error *err) {
    DL_CHECK(vec->layout != DL_VEC_CONST, err, DL_ERR_INVALID_ARG,
             "cannot reserve rows in a constant vector");
    DL_TRY(dl_vec_ensure(vec, capacity, err));
    if (vec->layout == DL_VEC_FLAT && vec->type->id == DL_VEC_TYPE_STRUCT) {
        for (int32_t i = 0; i < vec->n_children; i++) {
            DL_TRY(dl_vec_reserve(vec->children[i], capacity, err));
        }
    }
    return DL_OK;
}

void
dl_vec_truncate(dl_vector *vec, int64_t n) {
    if (n >= vec->length) {
        return;
    }
    if (vec->layout == DL_VEC_FLAT && vec->type->id == DL_VEC_TYPE_STRUCT) {
        for (int32_t i = 0; i < vec->n_children; i++) {
            dl_vec_truncate(vec->children[i], n);
        }
    } else if (is_list(vec)) {
        dl_vec_truncate(vec->children[0], ((const int32_t *)vec->data)[n]);
    }
    if (vec->validity != NULL && is_writable(vec)) {
        dl_vec_bits_fill(vec->validity, n, vec->length - n, true);
    }
    vec->length = n;
}

/* ---- Builders ---------------------------------------------------------------------------- */

dl_status
dl_vec_make_validity(dl_vector *vec, dl_error *err) {
    int64_t stored = dl_vec_stored(vec);
    int64_t bits = DL_MAX(vec->capacity, stored);
    if (vec->validity != NULL && vec->validity == vec->validity_buf->data &&
        dl_vec_buffer_is_unique(vec->validity_buf) &&
        vec->validity_buf->capacity >= dl_vec_bitmap_bytes(bits)) {
        return DL_OK;
    }
    return grow_validity(vec, bits, stored, err);
}

dl_status
dl_vec_set_null(dl_vector *vec, int64_t row, dl_error *err) {
    DL_ASSERT(row >= 0 && row < dl_vec_stored(vec));
    DL_TRY(dl_vec_make_validity(vec, err));
    dl_vec_bit_clear(vec->validity, row);
    return DL_OK;
}

static dl_status
append_null_values(dl_vector *vec, dl_error *err) {
    int64_t row = vec->length;
    if (vec->layout == DL_VEC_DICT) {
        ((int32_t *)vec->data)[row] = 0;
        return DL_OK;
    }
    switch (dl_vec_type_phys(vec->type)) {
    case DL_VEC_PHYS_NONE:
        return DL_OK;
    case DL_VEC_PHYS_BIT:
        dl_vec_bit_clear(vec->data, row);
        return DL_OK;
    case DL_VEC_PHYS_STRUCT:
        for (int32_t i = 0; i < vec->n_children; i++) {
            dl_status s = dl_vec_append_null(vec->children[i], err);
            if (s != DL_OK) {
                for (int32_t j = 0; j < i; j++) {
                    dl_vec_truncate(vec->children[j], row);
                }
                return s;
            }
        }
        return DL_OK;
    case DL_VEC_PHYS_LIST: {
        int32_t *offsets = vec->data;
        offsets[row + 1] = offsets[row];
        return DL_OK;
    }
    default: {
        size_t width = dl_vec_type_width(vec->type);
        memset((uint8_t *)vec->data + (size_t)row * width, 0, width);
        return DL_OK;
    }
    }
}

dl_status
dl_vec_append_null(dl_vector *vec, dl_error *err) {
    DL_ASSERT(vec->layout != DL_VEC_CONST);
    DL_TRY(prepare_append(vec, err));
    DL_TRY(dl_vec_make_validity(vec, err));
    DL_TRY(append_null_values(vec, err));
    dl_vec_bit_clear(vec->validity, vec->length);
    vec->length++;
    return DL_OK;
}

static dl_status
append_fixed(dl_vector *vec, const void *value, size_t width, dl_error *err) {
    DL_ASSERT(vec->layout == DL_VEC_FLAT && dl_vec_type_width(vec->type) == width &&
              dl_vec_type_phys(vec->type) != DL_VEC_PHYS_VIEW &&
              dl_vec_type_phys(vec->type) != DL_VEC_PHYS_LIST);
    DL_TRY(prepare_append(vec, err));
    memcpy((uint8_t *)vec->data + (size_t)vec->length * width, value, width);
    vec->length++;
    return DL_OK;
}

dl_status
dl_vec_append_bool(dl_vector *vec, bool value, dl_error *err) {
    DL_ASSERT(vec->layout == DL_VEC_FLAT && vec->type->id == DL_VEC_TYPE_BOOLEAN);
    DL_TRY(prepare_append(vec, err));
    dl_vec_bit_put(vec->data, vec->length, value);
    vec->length++;
    return DL_OK;
}

dl_status
dl_vec_append_i8(dl_vector *vec, int8_t value, dl_error *err) {
    return append_fixed(vec, &value, sizeof(value), err);
}

dl_status
dl_vec_append_i16(dl_vector *vec, int16_t value, dl_error *err) {
    return append_fixed(vec, &value, sizeof(value), err);
}

dl_status
dl_vec_append_i32(dl_vector *vec, int32_t value, dl_error *err) {
    DL_ASSERT(dl_vec_type_phys(vec->type) == DL_VEC_PHYS_I32);
    return append_fixed(vec, &value, sizeof(value), err);
}

dl_status
dl_vec_append_i64(dl_vector *vec, int64_t value, dl_error *err) {
    DL_ASSERT(dl_vec_type_phys(vec->type) == DL_VEC_PHYS_I64);
    return append_fixed(vec, &value, sizeof(value), err);
}

dl_status
dl_vec_append_f32(dl_vector *vec, float value, dl_error *err) {
    DL_ASSERT(dl_vec_type_phys(vec->type) == DL_VEC_PHYS_F32);
    return append_fixed(vec, &value, sizeof(value), err);
}

dl_status
dl_vec_append_f64(dl_vector *vec, double value, dl_error *err) {
    DL_ASSERT(dl_vec_type_phys(vec->type) == DL_VEC_PHYS_F64);
    return append_fixed(vec, &value, sizeof(value), err);
}

dl_status
dl_vec_append_i128(dl_vector *vec, dl_i128 value, dl_error *err) {
    return append_fixed(vec, &value, sizeof(value), err);
}

static dl_status
add_heap_slot(dl_vector *vec, dl_error *err) {
    if (vec->n_heaps < vec->cap_heaps) {
        return DL_OK;
    }
    DL_CHECK(vec->cap_heaps < INT32_MAX / 2, err, DL_ERR_LIMIT,
             "a vector cannot reference more than %d heaps", INT32_MAX / 2);
    int32_t cap = vec->cap_heaps == 0 ? 4 : vec->cap_heaps * 2;
    dl_vec_buffer **heaps =
        dl_mem_realloc(vec->alloc, vec->heaps, (size_t)vec->cap_heaps * sizeof(void *),
                       (size_t)cap * sizeof(void *));
    DL_CHECK(heaps != NULL, err, DL_ERR_NOMEM, "out of memory growing a heap list to %d", (int)cap);
    vec->heaps = heaps;
    vec->cap_heaps = cap;
    return DL_OK;
}

dl_status
dl_vec_add_heap(dl_vector *vec, dl_vec_buffer *buf, int32_t *out_index, dl_error *err) {
    DL_ASSERT(dl_vec_type_phys(vec->type) == DL_VEC_PHYS_VIEW);
    DL_TRY(add_heap_slot(vec, err));
    vec->heaps[vec->n_heaps] = dl_vec_buffer_ref(buf);
    *out_index = vec->n_heaps++;
    return DL_OK;
}

dl_status
dl_vec_heap_find_or_add(dl_vector *vec, dl_vec_buffer *heap, int32_t *out_index, dl_error *err) {
    for (int32_t i = vec->n_heaps - 1; i >= 0; i--) {
        if (vec->heaps[i] == heap) {
            *out_index = i;
            return DL_OK;
        }
    }
    return dl_vec_add_heap(vec, heap, out_index, err);
}

/* A heap of vec with len bytes free that only vec holds; a new one if need be. */
static dl_status
writable_heap(dl_vector *vec, size_t len, int32_t *out_index, dl_error *err) {
    if (vec->n_heaps > 0) {
        dl_vec_buffer *last = vec->heaps[vec->n_heaps - 1];
        if (last->capacity > 0 && last->capacity - last->size >= len &&
            dl_vec_buffer_is_unique(last)) {
            *out_index = vec->n_heaps - 1;
            return DL_OK;
        }
    }
    size_t size = HEAP_MIN_BYTES;
    for (int32_t i = 0; i < vec->n_heaps && size < HEAP_MAX_BYTES; i++) {
        size *= 2;
    }
    DL_TRY(add_heap_slot(vec, err));
    dl_vec_buffer *heap;
    DL_TRY(dl_vec_buffer_new(vec->alloc, DL_MAX(size, len), &heap, err));
    vec->heaps[vec->n_heaps] = heap;
    *out_index = vec->n_heaps++;
    return DL_OK;
}

static dl_vec_view *
next_view(dl_vector *vec, size_t len) {
    dl_vec_view *view = (dl_vec_view *)vec->data + vec->length;
    memset(view, 0, sizeof(*view));
    view->inlined.length = (int32_t)len;
    return view;
}

dl_status
dl_vec_append_str(dl_vector *vec, const void *bytes, size_t len, dl_error *err) {
    DL_ASSERT(vec->layout == DL_VEC_FLAT && dl_vec_type_phys(vec->type) == DL_VEC_PHYS_VIEW);
    DL_CHECK(len <= INT32_MAX, err, DL_ERR_LIMIT,
             "a %zu-byte value exceeds the 2 GiB limit of one string", len);
    DL_TRY(prepare_append(vec, err));
    if (len <= DL_VEC_VIEW_INLINE) {
        dl_vec_view *view = next_view(vec, len);
        if (len > 0) {
            memcpy(view->inlined.data, bytes, len);
        }
        vec->length++;
        return DL_OK;
    }
    int32_t index;
    DL_TRY(writable_heap(vec, len, &index, err));
    dl_vec_buffer *heap = vec->heaps[index];
    memcpy(heap->data + heap->size, bytes, len);
    dl_vec_view *view = next_view(vec, len);
    memcpy(view->ref.prefix, bytes, sizeof(view->ref.prefix));
    view->ref.buffer_index = index;
    view->ref.offset = (int32_t)heap->size;
    heap->size += len;
    vec->length++;
    return DL_OK;
}

dl_status
dl_vec_append_str_ref(dl_vector *vec, int32_t heap_index, int64_t offset, int64_t len,
                      dl_error *err) {
    DL_ASSERT(vec->layout == DL_VEC_FLAT && dl_vec_type_phys(vec->type) == DL_VEC_PHYS_VIEW);
    DL_CHECK(heap_index >= 0 && heap_index < vec->n_heaps, err, DL_ERR_INVALID_ARG,
             "string reference to heap %d of a vector with %d heaps", (int)heap_index,
             (int)vec->n_heaps);
    const dl_vec_buffer *heap = vec->heaps[heap_index];
    DL_CHECK(offset >= 0 && len >= 0 && offset <= INT32_MAX && len <= INT32_MAX &&
                 (size_t)(offset + len) <= heap->size,
             err, DL_ERR_INVALID_ARG,
             "string reference [%lld, +%lld) is outside heap %d of %zu bytes", (long long)offset,
             (long long)len, (int)heap_index, heap->size);
    DL_TRY(prepare_append(vec, err));
    const uint8_t *bytes = heap->data + offset;
    dl_vec_view *view = next_view(vec, (size_t)len);
    if (len <= DL_VEC_VIEW_INLINE) {
        if (len > 0) {
            memcpy(view->inlined.data, bytes, (size_t)len);
        }
    } else {
        memcpy(view->ref.prefix, bytes, sizeof(view->ref.prefix));
        view->ref.buffer_index = heap_index;
        view->ref.offset = (int32_t)offset;
    }
    vec->length++;
    return DL_OK;
}

dl_status
dl_vec_append_struct(dl_vector *vec, dl_error *err) {
    DL_ASSERT(vec->layout == DL_VEC_FLAT && vec->type->id == DL_VEC_TYPE_STRUCT);
    for (int32_t i = 0; i < vec->n_children; i++) {
        DL_CHECK(vec->children[i]->length == vec->length + 1, err, DL_ERR_INVALID_ARG,
                 "struct row %lld: field '%s' has %lld rows, expected %lld", (long long)vec->length,
                 vec->type->fields[i].name, (long long)vec->children[i]->length,
                 (long long)vec->length + 1);
    }
    DL_TRY(prepare_append(vec, err));
    vec->length++;
    return DL_OK;
}

dl_status
dl_vec_append_list(dl_vector *vec, dl_error *err) {
    DL_ASSERT(vec->layout == DL_VEC_FLAT && is_list(vec));
    DL_TRY(prepare_append(vec, err));
    int32_t *offsets = vec->data;
    int64_t end = vec->children[0]->length;
    DL_CHECK(end <= INT32_MAX, err, DL_ERR_LIMIT,
             "list row %lld: %lld child elements exceed the int32 offset limit",
             (long long)vec->length, (long long)end);
    DL_CHECK(end >= offsets[vec->length], err, DL_ERR_INVALID_ARG,
             "list row %lld: the child shrank below the previous row's end",
             (long long)vec->length);
    offsets[vec->length + 1] = (int32_t)end;
    vec->length++;
    return DL_OK;
}

void
dl_vec_set_length(dl_vector *vec, int64_t length) {
    DL_ASSERT(length >= 0 && length <= vec->capacity);
    vec->length = length;
}

void
dl_vec_make_const(dl_vector *vec, int64_t count) {
    DL_ASSERT(vec->layout == DL_VEC_FLAT && vec->length == 1 && count >= 0);
    vec->layout = DL_VEC_CONST;
    vec->length = count;
    vec->capacity = 0;
}

dl_status
dl_vec_new_const_null(const dl_allocator *alloc, const dl_type *type, int64_t count,
                      dl_vector **out, dl_error *err) {
    dl_vector *vec;
    DL_TRY(dl_vec_new(alloc, type, 1, &vec, err));
    dl_status s = dl_vec_append_null(vec, err);
    if (s != DL_OK) {
        dl_vec_unref(vec);
        return s;
    }
    dl_vec_make_const(vec, count);
    *out = vec;
    return DL_OK;
}

dl_status
dl_vec_set_dict(dl_vector *vec, dl_vector *dict, dl_error *err) {
    DL_CHECK(vec->layout == DL_VEC_FLAT && vec->length == 0, err, DL_ERR_INVALID_ARG,
             "only an empty flat vector can become a dictionary vector");
    DL_CHECK(dict->layout == DL_VEC_FLAT, err, DL_ERR_INVALID_ARG,
             "a dictionary must be a flat vector");
    DL_CHECK(dl_vec_type_equal(vec->type, dict->type), err, DL_ERR_INVALID_ARG,
             "a %s dictionary for a %s vector", dl_vec_type_name(dict->type->id),
             dl_vec_type_name(vec->type->id));
    dl_vec_buffer_unref(vec->data_buf);
    dl_vec_buffer_unref(vec->validity_buf);
    vec->data_buf = NULL;
    vec->validity_buf = NULL;
    vec->data = NULL;
    vec->validity = NULL;
    vec->capacity = 0;
    drop_heaps(vec, 0);
    vec->layout = DL_VEC_DICT;
    vec->dict = dl_vec_ref(dict);
    return DL_OK;
}

dl_status
dl_vec_append_index(dl_vector *vec, int32_t index, dl_error *err) {
    DL_ASSERT(vec->layout == DL_VEC_DICT);
    DL_CHECK(index >= 0 && index < vec->dict->length, err, DL_ERR_INVALID_ARG,
             "dictionary index %d is outside the dictionary of %lld entries", (int)index,
             (long long)vec->dict->length);
    DL_TRY(prepare_append(vec, err));
    ((int32_t *)vec->data)[vec->length] = index;
    vec->length++;
    return DL_OK;
}

dl_status
dl_vec_check_indices(const dl_vector *vec, dl_error *err) {
    DL_ASSERT(vec->layout == DL_VEC_DICT);
    const int32_t *indices = vec->data;
    int64_t n_dict = vec->dict->length;
    for (int64_t i = 0; i < vec->length; i++) {
        DL_CHECK(indices[i] >= 0 && indices[i] < n_dict, err, DL_ERR_CORRUPT,
                 "dictionary index %d at row %lld is outside the dictionary of %lld entries",
                 (int)indices[i], (long long)i, (long long)n_dict);
    }
    return DL_OK;
}

/* ---- Reading ----------------------------------------------------------------------------- */

int64_t
dl_vec_resolve(const dl_vector *vec, int64_t row, const dl_vector **out_flat) {
    switch (vec->layout) {
    case DL_VEC_CONST:
        *out_flat = vec;
        return 0;
    case DL_VEC_DICT:
        *out_flat = vec->dict;
        return ((const int32_t *)vec->data)[row];
    default:
        *out_flat = vec;
        return row;
    }
}

bool
dl_vec_is_null(const dl_vector *vec, int64_t row) {
    if (vec->layout == DL_VEC_CONST) {
        row = 0;
    }
    if (vec->validity != NULL && !dl_vec_bit_get(vec->validity, row)) {
        return true;
    }
    if (vec->layout != DL_VEC_DICT || vec->dict->validity == NULL) {
        return false;
    }
    int32_t index = ((const int32_t *)vec->data)[row];
    return !dl_vec_bit_get(vec->dict->validity, index);
}

int64_t
dl_vec_null_count(const dl_vector *vec) {
    switch (vec->layout) {
    case DL_VEC_CONST:
        return dl_vec_is_null(vec, 0) ? vec->length : 0;
    case DL_VEC_DICT: {
        int64_t n = 0;
        for (int64_t i = 0; i < vec->length; i++) {
            n += dl_vec_is_null(vec, i);
        }
        return n;
    }
    default:
        return vec->validity == NULL ? 0
                                     : vec->length - dl_vec_bits_count(vec->validity, vec->length);
    }
}

bool
dl_vec_view_equal(const dl_vector *a, const dl_vec_view *va, const dl_vector *b,
                  const dl_vec_view *vb) {
    /* Length and the first four bytes sit in the first eight bytes of both forms. */
    if (memcmp(va, vb, 8) != 0) {
        return false;
    }
    if (va->inlined.length <= DL_VEC_VIEW_INLINE) {
        return memcmp(va->inlined.data + 4, vb->inlined.data + 4, 8) == 0; /* zero padded */
    }
    return dl_str_eq(dl_vec_view_str(a, va), dl_vec_view_str(b, vb));
}

int
dl_vec_view_compare(const dl_vector *a, const dl_vec_view *va, const dl_vector *b,
                    const dl_vec_view *vb) {
    int32_t n = DL_MIN(DL_MIN(va->inlined.length, vb->inlined.length), 4);
    const uint8_t *pa = va->inlined.length > 0 ? va->inlined.data : zero_bytes;
    const uint8_t *pb = vb->inlined.length > 0 ? vb->inlined.data : zero_bytes;
    int c = memcmp(pa, pb, (size_t)n);
    if (c != 0) {
        return c;
    }
    return dl_str_cmp(dl_vec_view_str(a, va), dl_vec_view_str(b, vb));
}
