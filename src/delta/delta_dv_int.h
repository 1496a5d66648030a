/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private to the deletion vector files (delta_dv*.c): the layout of a dl_delta_dv and the
 * helpers they share. A dl_delta_dv is an array of buckets sorted by key, each a CRoaring
 * 32-bit bitmap of the low 32 bits of the rows whose high 32 bits are the key; buckets are
 * never empty once a parse or an add has finished with them.
 */
#ifndef DL_DELTA_DELTA_DV_INT_H
#define DL_DELTA_DELTA_DV_INT_H

#include <stdint.h>

#include "delta/delta_dv.h"

struct roaring_bitmap_s;

typedef struct dl_delta_dv_bucket {
    uint32_t key;                /* high 32 bits of every row in bm */
    struct roaring_bitmap_s *bm; /* low 32 bits; owned */
} dl_delta_dv_bucket;

struct dl_delta_dv {
    const dl_allocator *alloc;   /* where the struct and the bucket array come from */
    dl_delta_dv_bucket *buckets; /* n_buckets, ascending by key */
    size_t n_buckets;
    size_t cap_buckets;
    int64_t cardinality; /* rows in all buckets */
};

/* Appends an empty bucket with key (greater than every existing key) and returns it, or NULL
 * with err set (DL_ERR_NOMEM). */
dl_delta_dv_bucket *dl_delta_dv_push_bucket(dl_delta_dv *dv, uint32_t key, dl_error *err);

/* Index of the first bucket whose key is >= key (n_buckets when there is none). */
size_t dl_delta_dv_lower_bound(const dl_delta_dv *dv, uint32_t key);

/* The CRC-32 (zlib's, java.util.zip.CRC32's) of p[0, n). */
uint32_t dl_delta_dv_crc32(const uint8_t *p, size_t n);

/*
 * Checks one framed DV, frame[0, size_in_bytes + 8), found at offset in the DV file name: its
 * big-endian size equals size_in_bytes and its CRC-32 matches (DL_ERR_CORRUPT otherwise).
 */
DL_NODISCARD dl_status dl_delta_dv_check_frame(const uint8_t *frame, int32_t size_in_bytes,
                                               const char *name, int64_t offset, dl_error *err);

/* Big-endian and little-endian loads and stores of unaligned bytes. */
static inline uint32_t
dl_delta_load_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void
dl_delta_store_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static inline uint16_t
dl_delta_load_le16(const uint8_t *p) {
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t
dl_delta_load_le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t
dl_delta_load_le64(const uint8_t *p) {
    return (uint64_t)dl_delta_load_le32(p) | (uint64_t)dl_delta_load_le32(p + 4) << 32;
}

static inline void
dl_delta_store_le32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

#endif /* DL_DELTA_DELTA_DV_INT_H */
