/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dl_vec_buffer: a reference-counted block of bytes, the unit that vectors, their slices,
 * dictionaries and exported Arrow arrays share. The count is atomic, so an exported array may
 * be released on another thread than the one that built it.
 *
 * A buffer either owns its bytes (dl_vec_buffer_new: one allocation holding the header and the
 * data, the data 64-byte aligned as Arrow recommends) or wraps foreign memory
 * (dl_vec_buffer_wrap: e.g. a decompressed Parquet page owned by a reader), in which case the
 * last unref calls the release callback the wrapper was given.
 *
 * Contract: bytes of a buffer whose reference count is above one are immutable. A writer that
 * finds a shared buffer copies it first (vector.h does this for vectors), which keeps exported
 * data unchanged as the Arrow C Data Interface requires ("Mutability").
 *
 * Also here: the LSB-first bitmap helpers used for validity and booleans (Arrow's bit order:
 * row i is bit i % 8 of byte i / 8).
 */
#ifndef DL_VECTOR_VEC_BUFFER_H
#define DL_VECTOR_VEC_BUFFER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/error.h"

/* Alignment of owned data, in bytes (Arrow's recommendation; a cache line). */
#define DL_VEC_ALIGN 64

/* Called with release_ctx and the wrapped data when the last reference to a foreign buffer
 * goes away. It may run on any thread. */
typedef void (*dl_vec_release_fn)(void *release_ctx, void *data);

typedef struct dl_vec_buffer {
    uint8_t *data;             /* first byte; DL_VEC_ALIGN-aligned when owned */
    size_t size;               /* bytes in use (string heaps: bytes written so far) */
    size_t capacity;           /* bytes that may be written at data; 0 for foreign memory */
    _Atomic(int64_t) refcount; /* live references */
    const dl_allocator *alloc; /* frees the block */
    size_t block_size;         /* bytes of the block holding this header (and owned data) */
    dl_vec_release_fn release; /* foreign memory: its release, else NULL */
    void *release_ctx;         /* passed to release */
} dl_vec_buffer;

/* A new owned buffer of capacity bytes (uninitialised), size 0, one reference. */
DL_NODISCARD dl_status dl_vec_buffer_new(const dl_allocator *alloc, size_t capacity,
                                         dl_vec_buffer **out, dl_error *err);

/* A buffer of size bytes at data that it does not own; one reference. release (may be NULL)
 * runs when the last reference goes. On failure nothing is released: the memory stays the
 * caller's. */
DL_NODISCARD dl_status dl_vec_buffer_wrap(const dl_allocator *alloc, void *data, size_t size,
                                          dl_vec_release_fn release, void *release_ctx,
                                          dl_vec_buffer **out, dl_error *err);

/* Takes one more reference; returns buf. */
dl_vec_buffer *dl_vec_buffer_ref(dl_vec_buffer *buf);

/* Drops one reference, freeing the buffer (and releasing foreign memory) at zero.
 * NULL is a no-op. */
void dl_vec_buffer_unref(dl_vec_buffer *buf);

/* The current number of references (for tests and copy-on-write decisions). */
int64_t dl_vec_buffer_refcount(const dl_vec_buffer *buf);

/* True when the caller holds the only reference, so the bytes may be written. */
static inline bool
dl_vec_buffer_is_unique(const dl_vec_buffer *buf) {
    return dl_vec_buffer_refcount(buf) == 1;
}

/* Bytes needed for a bitmap of n bits. */
static inline size_t
dl_vec_bitmap_bytes(int64_t n) {
    return (size_t)((n + 7) / 8);
}

static inline bool
dl_vec_bit_get(const uint8_t *bits, int64_t i) {
    return (bits[i >> 3] >> (i & 7)) & 1u;
}

static inline void
dl_vec_bit_set(uint8_t *bits, int64_t i) {
    bits[i >> 3] = (uint8_t)(bits[i >> 3] | (1u << (i & 7)));
}

static inline void
dl_vec_bit_clear(uint8_t *bits, int64_t i) {
    bits[i >> 3] = (uint8_t)(bits[i >> 3] & ~(1u << (i & 7)));
}

static inline void
dl_vec_bit_put(uint8_t *bits, int64_t i, bool value) {
    if (value) {
        dl_vec_bit_set(bits, i);
    } else {
        dl_vec_bit_clear(bits, i);
    }
}

/* Number of set bits among bits [0, n). */
int64_t dl_vec_bits_count(const uint8_t *bits, int64_t n);

/* Sets bits [start, start + n) to value. */
void dl_vec_bits_fill(uint8_t *bits, int64_t start, int64_t n, bool value);

/* Copies n bits from src starting at src_start to dst starting at dst_start. */
void dl_vec_bits_copy(uint8_t *dst, int64_t dst_start, const uint8_t *src, int64_t src_start,
                      int64_t n);

#endif /* DL_VECTOR_VEC_BUFFER_H */
