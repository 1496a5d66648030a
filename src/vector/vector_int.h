/* SPDX-License-Identifier: Apache-2.0 */
/* Private helpers shared by the vector part's files; not for other parts. */
#ifndef DL_VECTOR_VECTOR_INT_H
#define DL_VECTOR_VECTOR_INT_H

#include "vector/vector.h"

/* Elements stored in the buffers: length for FLAT and DICT, one for CONST. */
static inline int64_t
dl_vec_stored(const dl_vector *vec) {
    return vec->layout == DL_VEC_CONST ? 1 : vec->length;
}

/* Bytes of the data buffer for n elements (DICT: n int32 indices; lists: n + 1 offsets). */
size_t dl_vec_data_bytes(const dl_vector *vec, int64_t n);

/* Makes the buffers of vec its own and able to hold n elements, keeping the stored ones.
 * Does not touch children. LIMIT beyond DL_VEC_MAX_LENGTH. */
DL_NODISCARD dl_status dl_vec_grow(dl_vector *vec, int64_t n, dl_error *err);

/* As dl_vec_grow, but does nothing when vec is already writable with room for n. */
DL_NODISCARD dl_status dl_vec_ensure(dl_vector *vec, int64_t n, dl_error *err);

/* Cuts a FLAT vector (and its children) back to n rows after a failed append; validity bits
 * from n on are set again so later appends of valid values need not touch them. */
void dl_vec_truncate(dl_vector *vec, int64_t n);

/* A new vector sharing every buffer, child and dictionary of src (capacity 0). */
DL_NODISCARD dl_status dl_vec_share(const dl_vector *src, dl_vector **out, dl_error *err);

/* Moves the contents (everything but the reference count and allocator) of src into dst,
 * and dst's old contents into src. */
void dl_vec_swap_contents(dl_vector *a, dl_vector *b);

/* The index of heap in vec's heaps, adding a reference when absent. */
DL_NODISCARD dl_status dl_vec_heap_find_or_add(dl_vector *vec, dl_vec_buffer *heap,
                                               int32_t *out_index, dl_error *err);

/* Rounds a byte count up to a multiple of DL_VEC_ALIGN (so bitmaps can be read by words). */
static inline size_t
dl_vec_round_up(size_t n) {
    return (n + DL_VEC_ALIGN - 1) & ~(size_t)(DL_VEC_ALIGN - 1);
}

#endif /* DL_VECTOR_VECTOR_INT_H */
