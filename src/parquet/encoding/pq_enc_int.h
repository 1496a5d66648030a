/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private helpers shared by the encoding files: little-endian loads and stores, ULEB128
 * varints and zigzag (Encodings.md, "Delta Encoding"), and the inlining attribute the
 * specialised loops use. Parquet is little-endian on disk; so is every host we build for,
 * and the decoders copy bytes straight into typed arrays, so a big-endian host is refused
 * at compile time rather than misread at run time.
 */
#ifndef DL_PQ_ENC_INT_H
#define DL_PQ_ENC_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/error.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#    error "the Parquet encodings assume a little-endian host"
#endif

#define DL_PQ_INLINE inline __attribute__((always_inline))

/*
 * Sets err to code with a formatted message, records `at` (the byte offset within the page
 * that the message names) in err->offset, and returns code. NULL-tolerant.
 */
static inline dl_status dl_pq_fail_at(dl_error *err, dl_status code, size_t at, const char *fmt,
                                      ...) DL_PRINTF(4, 5);

static inline dl_status
dl_pq_fail_at(dl_error *err, dl_status code, size_t at, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    dl_error_setv(err, code, fmt, ap);
    va_end(ap);
    if (err != NULL) {
        err->offset = (int64_t)at;
    }
    return code;
}

/* DL_FAIL and DL_CHECK for errors at a byte offset of the page. */
#define DL_PQ_FAIL_AT(err, code, at, ...)                       \
    do {                                                        \
        DL_ERROR_WHERE(err);                                    \
        return dl_pq_fail_at((err), (code), (at), __VA_ARGS__); \
    } while (0)

#define DL_PQ_CHECK_AT(cond, err, code, at, ...)             \
    do {                                                     \
        if (DL_UNLIKELY(!(cond))) {                          \
            DL_PQ_FAIL_AT((err), (code), (at), __VA_ARGS__); \
        }                                                    \
    } while (0)

/* The longest ULEB128 encoding of a 64-bit value. */
#define DL_PQ_ULEB_MAX 10

#define DL_PQ_MIN_SIZE(a, b) ((a) < (b) ? (a) : (b))

/* Decoders accept data == NULL for an empty section; they keep a real pointer instead, so
 * that `data + 0` is never arithmetic on NULL. */
#define DL_PQ_NONNULL(p) ((p) != NULL ? (p) : (const uint8_t *)"")

static inline uint32_t
dl_pq_load_le32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static inline void
dl_pq_store_le32(uint8_t *p, uint32_t v) {
    memcpy(p, &v, sizeof(v));
}

/*
 * Reads a ULEB128 value at data[*pos]; advances *pos past it. False when the data ends
 * inside the varint or the value does not fit in 64 bits (the caller reports where).
 */
static inline bool
dl_pq_uleb_read(const uint8_t *data, size_t len, size_t *pos, uint64_t *out) {
    uint64_t v = 0;
    size_t p = *pos;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (p >= len) {
            return false;
        }
        uint8_t b = data[p++];
        if (shift == 63 && b > 1) {
            return false;
        }
        v |= (uint64_t)(b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
            *pos = p;
            *out = v;
            return true;
        }
    }
    return false;
}

/* Writes v as ULEB128 at out (room for DL_PQ_ULEB_MAX bytes); returns the bytes written. */
static inline size_t
dl_pq_uleb_write(uint8_t *out, uint64_t v) {
    size_t n = 0;
    while (v >= 0x80) {
        out[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
}

static inline uint64_t
dl_pq_zigzag(int64_t v) {
    uint64_t u = (uint64_t)v;
    return (u << 1) ^ (0 - (u >> 63));
}

/* The signed value as its two's-complement bit pattern (so the caller can wrap freely). */
static inline uint64_t
dl_pq_unzigzag(uint64_t v) {
    return (v >> 1) ^ (0 - (v & 1));
}

#endif /* DL_PQ_ENC_INT_H */
