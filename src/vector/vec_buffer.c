/* SPDX-License-Identifier: Apache-2.0 */
/* Reference-counted buffers and bitmap helpers (see vec_buffer.h). */
#include "vector/vec_buffer.h"

#include <string.h>

#include "vector/vector_int.h"

dl_status
dl_vec_buffer_new(const dl_allocator *alloc, size_t capacity, dl_vec_buffer **out, dl_error *err) {
    size_t header = sizeof(dl_vec_buffer);
    size_t block_size;
    if (DL_ADD_OVERFLOW(header + DL_VEC_ALIGN - 1, capacity, &block_size)) {
        DL_FAIL(err, DL_ERR_NOMEM, "buffer of %zu bytes is too large", capacity);
    }
    uint8_t *block = dl_mem_alloc(alloc, block_size);
    DL_CHECK(block != NULL, err, DL_ERR_NOMEM, "out of memory allocating a %zu-byte buffer",
             capacity);
    dl_vec_buffer *buf = (dl_vec_buffer *)block;
    uintptr_t start = (uintptr_t)(block + header);
    uintptr_t aligned = (start + DL_VEC_ALIGN - 1) & ~(uintptr_t)(DL_VEC_ALIGN - 1);
    buf->data = block + header + (aligned - start);
    buf->size = 0;
    buf->capacity = capacity;
    atomic_init(&buf->refcount, 1);
    buf->alloc = alloc;
    buf->block_size = block_size;
    buf->release = NULL;
    buf->release_ctx = NULL;
    *out = buf;
    return DL_OK;
}

dl_status
dl_vec_buffer_wrap(const dl_allocator *alloc, void *data, size_t size, dl_vec_release_fn release,
                   void *release_ctx, dl_vec_buffer **out, dl_error *err) {
    dl_vec_buffer *buf = dl_mem_alloc(alloc, sizeof(*buf));
    DL_CHECK(buf != NULL, err, DL_ERR_NOMEM, "out of memory wrapping a %zu-byte buffer", size);
    buf->data = data;
    buf->size = size;
    buf->capacity = 0;
    atomic_init(&buf->refcount, 1);
    buf->alloc = alloc;
    buf->block_size = sizeof(*buf);
    buf->release = release;
    buf->release_ctx = release_ctx;
    *out = buf;
    return DL_OK;
}

dl_vec_buffer *
dl_vec_buffer_ref(dl_vec_buffer *buf) {
    atomic_fetch_add_explicit(&buf->refcount, 1, memory_order_relaxed);
    return buf;
}

void
dl_vec_buffer_unref(dl_vec_buffer *buf) {
    if (buf == NULL) {
        return;
    }
    /* acq_rel: the freeing thread must see every write made under the other references. */
    if (atomic_fetch_sub_explicit(&buf->refcount, 1, memory_order_acq_rel) != 1) {
        return;
    }
    if (buf->release != NULL) {
        buf->release(buf->release_ctx, buf->data);
    }
    dl_mem_free(buf->alloc, buf, buf->block_size);
}

int64_t
dl_vec_buffer_refcount(const dl_vec_buffer *buf) {
    return atomic_load_explicit(&buf->refcount, memory_order_acquire);
}

int64_t
dl_vec_bits_count(const uint8_t *bits, int64_t n) {
    int64_t count = 0;
    int64_t n_words = n / 64;
    for (int64_t w = 0; w < n_words; w++) {
        uint64_t word;
        memcpy(&word, bits + w * 8, sizeof(word));
        count += __builtin_popcountll(word);
    }
    for (int64_t i = n_words * 64; i < n; i++) {
        count += dl_vec_bit_get(bits, i);
    }
    return count;
}

void
dl_vec_bits_fill(uint8_t *bits, int64_t start, int64_t n, bool value) {
    int64_t i = start;
    int64_t end = start + n;
    while (i < end && (i & 7) != 0) {
        dl_vec_bit_put(bits, i++, value);
    }
    int64_t n_bytes = (end - i) / 8;
    if (n_bytes > 0) {
        memset(bits + i / 8, value ? 0xFF : 0, (size_t)n_bytes);
        i += n_bytes * 8;
    }
    while (i < end) {
        dl_vec_bit_put(bits, i++, value);
    }
}

void
dl_vec_bits_copy(uint8_t *dst, int64_t dst_start, const uint8_t *src, int64_t src_start,
                 int64_t n) {
    if ((dst_start & 7) == 0 && (src_start & 7) == 0) {
        size_t n_bytes = (size_t)(n / 8);
        memmove(dst + dst_start / 8, src + src_start / 8, n_bytes);
        for (int64_t i = (int64_t)n_bytes * 8; i < n; i++) {
            dl_vec_bit_put(dst, dst_start + i, dl_vec_bit_get(src, src_start + i));
        }
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        dl_vec_bit_put(dst, dst_start + i, dl_vec_bit_get(src, src_start + i));
    }
}
