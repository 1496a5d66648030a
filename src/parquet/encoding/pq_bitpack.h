/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bit packing in the RLE/bit-packing hybrid's order (Encodings.md, "Run Length Encoding /
 * Bit-Packing Hybrid", note 1): values are packed from the least significant bit of each
 * byte upwards, each value's own bits in their usual order. The same order serves
 * DELTA_BINARY_PACKED miniblocks and PLAIN booleans.
 *
 * The kernels work on groups of 32 values, which take exactly 4 * bit_width bytes (so a
 * group can be read as bit_width little-endian 32-bit words). Each bit width has its own
 * fully unrolled loop, chosen by one switch per group: no per-value branches or calls.
 */
#ifndef DL_PQ_BITPACK_H
#define DL_PQ_BITPACK_H

#include <stddef.h>
#include <stdint.h>

/* Bits needed for max_value: 0 for 0, 64 for values >= 2^63. */
static inline unsigned
dl_pq_bit_width(uint64_t max_value) {
    return max_value == 0 ? 0 : 64 - (unsigned)__builtin_clzll(max_value);
}

/* Unpacks 32 values of bit_width (0..32) bits from the 4 * bit_width bytes at in. */
void dl_pq_unpack32_u32(const uint8_t *in, uint32_t *out, unsigned bit_width);

/* Unpacks 32 values of bit_width (0..64) bits from the 4 * bit_width bytes at in. */
void dl_pq_unpack32_u64(const uint8_t *in, uint64_t *out, unsigned bit_width);

/*
 * As dl_pq_unpack32_u32/_u64 when only in_len < 4 * bit_width bytes are available (the end
 * of a page): the missing bytes read as zero. Assumes bit_width is in range.
 */
void dl_pq_unpack32_u32_tail(const uint8_t *in, size_t in_len, uint32_t *out, unsigned bit_width);
void dl_pq_unpack32_u64_tail(const uint8_t *in, size_t in_len, uint64_t *out, unsigned bit_width);

/*
 * Packs 32 values into the 4 * bit_width bytes at out. Bits of a value above bit_width are
 * ignored. bit_width 0..32 (u32) or 0..64 (u64).
 */
void dl_pq_pack32_u32(const uint32_t *in, uint8_t *out, unsigned bit_width);
void dl_pq_pack32_u64(const uint64_t *in, uint8_t *out, unsigned bit_width);

#endif /* DL_PQ_BITPACK_H */
