/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bloom filters (parquet-format BloomFilter.md): the split block Bloom filter and xxHash64.
 *
 * A filter is a bitset of z blocks of 256 bits, each block eight little-endian 32-bit words.
 * A value is hashed with xxHash64 (seed 0) over its PLAIN encoding without a length prefix
 * (4 bytes for INT32 and FLOAT, 8 for INT64 and DOUBLE, the bytes of a BYTE_ARRAY or
 * FIXED_LEN_BYTE_ARRAY). The top 32 bits of the hash pick the block, ((h >> 32) * z) >> 32;
 * the low 32 bits, multiplied by eight odd salts, pick one bit in each word (the top 5 bits
 * of each product). Inserting sets the eight bits, checking tests them: a value never
 * inserted passes with the false-positive probability the filter was sized for, a value
 * inserted always passes.
 *
 * In a file, a filter is a BloomFilterHeader (numBytes, algorithm BLOCK, hash XXHASH,
 * compression UNCOMPRESSED) followed by numBytes of bitset, at ColumnMetaData's
 * bloom_filter_offset.
 *
 * Folding: halving the block count maps block i of 2z blocks to block i / 2 of z (the block
 * index is floor(x * z / 2^32), and floor(floor(2a) / 2) = floor(a)), and the word bits do not
 * depend on z, so OR-ing blocks 2i and 2i + 1 gives exactly the filter the same values would
 * have built with z blocks. The writer fills a filter of the largest allowed size and folds it
 * to the size its estimated number of distinct values needs.
 *
 * xxHash64 is Yann Collet's algorithm as its specification (xxhash.com, "xxHash fast digest
 * algorithm", XXH64) defines it, written here from that description.
 */
#include <math.h>
#include <string.h>

#include "parquet/parquet_int.h"

/* ---- xxHash64 ---------------------------------------------------------------------------- */

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL
#define P4 0x85EBCA77C2B2AE63ULL
#define P5 0x27D4EB2F165667C5ULL

static uint64_t
rotl64(uint64_t x, int r) {
    return (x << r) | (x >> (64 - r));
}

static uint64_t
read64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}

static uint32_t
read32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t
xx_round(uint64_t acc, uint64_t input) {
    acc += input * P2;
    return rotl64(acc, 31) * P1;
}

static uint64_t
xx_merge(uint64_t acc, uint64_t v) {
    acc ^= xx_round(0, v);
    return acc * P1 + P4;
}

/* The 32-byte stripes of p[0, len), len >= 32; *used receives the bytes consumed. */
static uint64_t
xx_stripes(const uint8_t *p, size_t len, uint64_t seed, size_t *used) {
    uint64_t v1 = seed + P1 + P2;
    uint64_t v2 = seed + P2;
    uint64_t v3 = seed;
    uint64_t v4 = seed - P1;
    size_t i = 0;
    for (; i + 32 <= len; i += 32) {
        v1 = xx_round(v1, read64(p + i));
        v2 = xx_round(v2, read64(p + i + 8));
        v3 = xx_round(v3, read64(p + i + 16));
        v4 = xx_round(v4, read64(p + i + 24));
    }
    *used = i;
    uint64_t h = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
    h = xx_merge(h, v1);
    h = xx_merge(h, v2);
    h = xx_merge(h, v3);
    return xx_merge(h, v4);
}

uint64_t
dl_pq_xxhash64(const void *data, size_t len, uint64_t seed) {
    const uint8_t *p = data;
    size_t i = 0;
    uint64_t h = len >= 32 ? xx_stripes(p, len, seed, &i) : seed + P5;
    h += (uint64_t)len;
    for (; i + 8 <= len; i += 8) {
        h ^= xx_round(0, read64(p + i));
        h = rotl64(h, 27) * P1 + P4;
    }
    if (i + 4 <= len) {
        h ^= (uint64_t)read32(p + i) * P1;
        h = rotl64(h, 23) * P2 + P3;
        i += 4;
    }
    for (; i < len; i++) {
        h ^= (uint64_t)p[i] * P5;
        h = rotl64(h, 11) * P1;
    }
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    h ^= h >> 32;
    return h;
}

/* ---- Split block Bloom filters ------------------------------------------------------------ */

static const uint32_t salt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                 0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

/* The byte offset of the block hash falls in, in a bitset of len bytes. */
static size_t
block_at(size_t len, uint64_t hash) {
    uint64_t z = len / DL_PQ_BLOOM_BLOCK_BYTES;
    return (size_t)(((hash >> 32) * z) >> 32) * DL_PQ_BLOOM_BLOCK_BYTES;
}

void
dl_pq_bloom_insert(uint8_t *bitset, size_t len, uint64_t hash) {
    uint8_t *block = bitset + block_at(len, hash);
    uint32_t key = (uint32_t)hash;
    for (int i = 0; i < 8; i++) {
        uint32_t bit = (key * salt[i]) >> 27;
        block[4 * i + bit / 8] |= (uint8_t)(1u << (bit % 8));
    }
}

bool
dl_pq_bloom_check(const uint8_t *bitset, size_t len, uint64_t hash) {
    const uint8_t *block = bitset + block_at(len, hash);
    uint32_t key = (uint32_t)hash;
    for (int i = 0; i < 8; i++) {
        uint32_t bit = (key * salt[i]) >> 27;
        if ((block[4 * i + bit / 8] & (1u << (bit % 8))) == 0) {
            return false;
        }
    }
    return true;
}

size_t
dl_pq_bloom_bytes_for(uint64_t ndv, double fpp, size_t max_bytes) {
    size_t max = DL_MAX(max_bytes, (size_t)DL_PQ_BLOOM_BLOCK_BYTES);
    if (!(fpp > 0.0 && fpp < 1.0)) {
        return max;
    }
    /* m = -8 n / ln(1 - p^(1/8)) bits (BloomFilter.md, "Sizing an SBBF"). */
    double bits = -8.0 * (double)ndv / log(1.0 - pow(fpp, 1.0 / 8.0));
    size_t bytes = DL_PQ_BLOOM_BLOCK_BYTES;
    while (bytes < max && (double)bytes * 8.0 < bits) {
        bytes *= 2;
    }
    return DL_MIN(bytes, max);
}

size_t
dl_pq_bloom_fold(uint8_t *bitset, size_t len, size_t target) {
    while (len > target && len > DL_PQ_BLOOM_BLOCK_BYTES &&
           len % (2 * DL_PQ_BLOOM_BLOCK_BYTES) == 0) {
        size_t half = len / 2;
        for (size_t b = 0; b < half / DL_PQ_BLOOM_BLOCK_BYTES; b++) {
            uint8_t *dst = bitset + b * DL_PQ_BLOOM_BLOCK_BYTES;
            const uint8_t *lo = bitset + 2 * b * DL_PQ_BLOOM_BLOCK_BYTES;
            const uint8_t *hi = lo + DL_PQ_BLOOM_BLOCK_BYTES;
            for (size_t k = 0; k < DL_PQ_BLOOM_BLOCK_BYTES; k++) {
                dst[k] = (uint8_t)(lo[k] | hi[k]);
            }
        }
        len = half;
    }
    return len;
}

uint64_t
dl_pq_bloom_estimate_ndv(const uint8_t *bitset, size_t len) {
    uint64_t set = 0;
    for (size_t i = 0; i < len; i++) {
        set += (uint64_t)__builtin_popcount(bitset[i]);
    }
    double m = (double)len * 8.0;
    if ((double)set >= m) {
        return UINT64_MAX;
    }
    /* A value sets one bit of each word of one of z = m / 256 blocks, so a given bit stays
     * zero after n values with probability (1 - 1 / (32 z))^n: n = ln(zero share) /
     * ln(1 - 1 / (32 z)). */
    double zero = 1.0 - (double)set / m;
    double n = log(zero) / log1p(-1.0 / (32.0 * (m / 256.0)));
    return n < 0 ? 0 : (uint64_t)ceil(n);
}
