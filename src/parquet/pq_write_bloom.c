/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The writer's Bloom filters (BloomFilter.md; the filter itself is in pq_bloom.c).
 *
 * A column with a filter hashes every value it writes (xxHash64 of the PLAIN form: the
 * converted 4- or 8-byte number, the big-endian bytes of a FIXED_LEN_BYTE_ARRAY decimal, the
 * bytes of a string or binary) into a bitset of the largest size allowed. When the chunk
 * closes, the number of distinct values is estimated from the share of bits set, the filter
 * is folded to the size that number needs at the wanted false-positive probability (folding
 * keeps exactly the values inserted, see pq_bloom.c), and written as
 *
 *     BloomFilterHeader { numBytes, algorithm BLOCK, hash XXHASH, compression UNCOMPRESSED }
 *     numBytes bytes of bitset
 *
 * A duplicate value sets bits already set, so duplicates cost nothing. The estimate errs high
 * as the filter fills (collisions), which only makes the folded filter larger than needed.
 */
#include <string.h>

#include "parquet/pq_write_int.h"

dl_status
dl_pq_wleaf_bloom_enable(dl_pq_wleaf *leaf, const dl_allocator *alloc, size_t max_bytes,
                         dl_error *err) {
    DL_CHECK(leaf->vk != DL_PQ_VK_BOOL && leaf->vk != DL_PQ_VK_NONE, err, DL_ERR_INVALID_ARG,
             "Parquet writer: column '%s' is %s: Bloom filters are not written for it", leaf->path,
             leaf->vk == DL_PQ_VK_BOOL ? "BOOLEAN" : "void");
    if (leaf->bloom != NULL) {
        return DL_OK; /* named twice */
    }
    size_t cap = DL_PQ_BLOOM_BLOCK_BYTES;
    while (cap * 2 <= max_bytes && cap * 2 <= DL_PQ_BLOOM_MAX_BYTES) {
        cap *= 2;
    }
    leaf->bloom = dl_mem_alloc_zero(alloc, cap);
    DL_CHECK(leaf->bloom != NULL, err, DL_ERR_NOMEM,
             "Parquet writer: out of memory for the Bloom filter of column '%s'", leaf->path);
    leaf->bloom_cap = cap;
    return DL_OK;
}

void
dl_pq_wleaf_bloom_add(dl_pq_wleaf *leaf, const void *vals, size_t n) {
    if (leaf->vk == DL_PQ_VK_BYTES) {
        const dl_str *s = vals;
        for (size_t i = 0; i < n; i++) {
            uint64_t h = dl_pq_xxhash64(s[i].len > 0 ? s[i].ptr : "", s[i].len, 0);
            dl_pq_bloom_insert(leaf->bloom, leaf->bloom_cap, h);
        }
        return;
    }
    const uint8_t *p = vals;
    size_t w = leaf->width;
    for (size_t i = 0; i < n; i++) {
        dl_pq_bloom_insert(leaf->bloom, leaf->bloom_cap, dl_pq_xxhash64(p + i * w, w, 0));
    }
}

dl_status
dl_pq_wleaf_bloom_take(dl_pq_wleaf *leaf, double fpp, dl_buf *out, dl_error *err) {
    if (leaf->bloom == NULL) {
        return DL_OK;
    }
    uint64_t ndv = dl_pq_bloom_estimate_ndv(leaf->bloom, leaf->bloom_cap);
    size_t want = dl_pq_bloom_bytes_for(ndv, fpp, leaf->bloom_cap);
    size_t len = dl_pq_bloom_fold(leaf->bloom, leaf->bloom_cap, want);
    dl_pq_bloom_filter_header h = {
        .num_bytes = (int32_t)len, .algorithm = 1, .hash = 1, .compression = 1};
    dl_status s = dl_pq_bloom_filter_header_encode(&h, out, err);
    if (s == DL_OK) {
        s = dl_buf_append(out, leaf->bloom, len, err);
    }
    memset(leaf->bloom, 0, leaf->bloom_cap);
    return s;
}
