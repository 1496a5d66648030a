/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bit packing kernels (see pq_bitpack.h for the bit order).
 *
 * A group of 32 values of width b is exactly b little-endian 32-bit words; value i starts
 * at bit i * b, that is word (i * b) / 32, bit (i * b) % 32, and spills into the next word
 * (and, for 64-bit values, the one after) when it does not fit. Each kernel is written
 * once as an always-inline function of a constant width, with its 32 steps spelled out by
 * REP32, and instantiated per width in a switch, so every width gets straight-line code of
 * shifts and masks with no loop or branch inside the group.
 */
#include <string.h>

#include "parquet/encoding/pq_bitpack.h"
#include "parquet/encoding/pq_enc_int.h"

#define REP8(M, b) \
    M((b) + 0) M((b) + 1) M((b) + 2) M((b) + 3) M((b) + 4) M((b) + 5) M((b) + 6) M((b) + 7)
#define REP32(M) REP8(M, 0) REP8(M, 8) REP8(M, 16) REP8(M, 24)

#define WIDTHS_1_16(M) \
    M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15) M(16)
#define WIDTHS_17_32(M) \
    M(17) M(18) M(19) M(20) M(21) M(22) M(23) M(24) M(25) M(26) M(27) M(28) M(29) M(30) M(31) M(32)
#define WIDTHS_33_48(M) \
    M(33) M(34) M(35) M(36) M(37) M(38) M(39) M(40) M(41) M(42) M(43) M(44) M(45) M(46) M(47) M(48)
#define WIDTHS_49_64(M) \
    M(49) M(50) M(51) M(52) M(53) M(54) M(55) M(56) M(57) M(58) M(59) M(60) M(61) M(62) M(63) M(64)

static DL_PQ_INLINE uint32_t
extract_u32(const uint32_t *w, unsigned i, unsigned bw, uint32_t mask) {
    unsigned start = i * bw;
    unsigned k = start >> 5;
    unsigned off = start & 31;
    uint32_t v = w[k] >> off;
    if (off + bw > 32) {
        v |= w[k + 1] << (32 - off);
    }
    return v & mask;
}

static DL_PQ_INLINE uint64_t
extract_u64(const uint32_t *w, unsigned i, unsigned bw, uint64_t mask) {
    unsigned start = i * bw;
    unsigned k = start >> 5;
    unsigned off = start & 31;
    uint64_t v = (uint64_t)w[k] >> off;
    if (off + bw > 32) {
        v |= (uint64_t)w[k + 1] << (32 - off);
    }
    if (off + bw > 64) {
        v |= (uint64_t)w[k + 2] << (64 - off);
    }
    return v & mask;
}

static DL_PQ_INLINE void
insert_u32(uint32_t *w, uint32_t v, unsigned i, unsigned bw) {
    unsigned start = i * bw;
    unsigned k = start >> 5;
    unsigned off = start & 31;
    w[k] |= v << off;
    if (off + bw > 32) {
        w[k + 1] |= v >> (32 - off);
    }
}

static DL_PQ_INLINE void
insert_u64(uint32_t *w, uint64_t v, unsigned i, unsigned bw) {
    unsigned start = i * bw;
    unsigned k = start >> 5;
    unsigned off = start & 31;
    w[k] |= (uint32_t)(v << off);
    if (off + bw > 32) {
        w[k + 1] |= (uint32_t)(v >> (32 - off));
    }
    if (off + bw > 64) {
        w[k + 2] |= (uint32_t)(v >> (64 - off));
    }
}

static DL_PQ_INLINE void
unpack_u32_fixed(const uint8_t *in, uint32_t *out, const unsigned bw) {
    uint32_t w[32];
    memcpy(w, in, 4 * (size_t)bw);
    const uint32_t mask = bw == 32 ? UINT32_MAX : (1u << (bw & 31)) - 1u;
#define STEP(i) out[i] = extract_u32(w, (i), bw, mask);
    REP32(STEP)
#undef STEP
}

static DL_PQ_INLINE void
unpack_u64_fixed(const uint8_t *in, uint64_t *out, const unsigned bw) {
    uint32_t w[64];
    memcpy(w, in, 4 * (size_t)bw);
    const uint64_t mask = bw == 64 ? UINT64_MAX : ((uint64_t)1 << (bw & 63)) - 1u;
#define STEP(i) out[i] = extract_u64(w, (i), bw, mask);
    REP32(STEP)
#undef STEP
}

static DL_PQ_INLINE void
pack_u32_fixed(const uint32_t *in, uint8_t *out, const unsigned bw) {
    uint32_t w[32];
    memset(w, 0, 4 * (size_t)bw);
    const uint32_t mask = bw == 32 ? UINT32_MAX : (1u << (bw & 31)) - 1u;
#define STEP(i) insert_u32(w, in[i] & mask, (i), bw);
    REP32(STEP)
#undef STEP
    memcpy(out, w, 4 * (size_t)bw);
}

static DL_PQ_INLINE void
pack_u64_fixed(const uint64_t *in, uint8_t *out, const unsigned bw) {
    uint32_t w[64];
    memset(w, 0, 4 * (size_t)bw);
    const uint64_t mask = bw == 64 ? UINT64_MAX : ((uint64_t)1 << (bw & 63)) - 1u;
#define STEP(i) insert_u64(w, in[i] & mask, (i), bw);
    REP32(STEP)
#undef STEP
    memcpy(out, w, 4 * (size_t)bw);
}

void
dl_pq_unpack32_u32(const uint8_t *in, uint32_t *out, unsigned bit_width) {
    switch (bit_width) {
#define CASE(b)                       \
    case b:                           \
        unpack_u32_fixed(in, out, b); \
        return;
        WIDTHS_1_16(CASE)
        WIDTHS_17_32(CASE)
#undef CASE
    default:
        memset(out, 0, 32 * sizeof(*out));
        return;
    }
}

void
dl_pq_unpack32_u64(const uint8_t *in, uint64_t *out, unsigned bit_width) {
    switch (bit_width) {
#define CASE(b)                       \
    case b:                           \
        unpack_u64_fixed(in, out, b); \
        return;
        WIDTHS_1_16(CASE)
        WIDTHS_17_32(CASE)
        WIDTHS_33_48(CASE)
        WIDTHS_49_64(CASE)
#undef CASE
    default:
        memset(out, 0, 32 * sizeof(*out));
        return;
    }
}

void
dl_pq_pack32_u32(const uint32_t *in, uint8_t *out, unsigned bit_width) {
    switch (bit_width) {
#define CASE(b)                     \
    case b:                         \
        pack_u32_fixed(in, out, b); \
        return;
        WIDTHS_1_16(CASE)
        WIDTHS_17_32(CASE)
#undef CASE
    default:
        return;
    }
}

void
dl_pq_pack32_u64(const uint64_t *in, uint8_t *out, unsigned bit_width) {
    switch (bit_width) {
#define CASE(b)                     \
    case b:                         \
        pack_u64_fixed(in, out, b); \
        return;
        WIDTHS_1_16(CASE)
        WIDTHS_17_32(CASE)
        WIDTHS_33_48(CASE)
        WIDTHS_49_64(CASE)
#undef CASE
    default:
        return;
    }
}

void
dl_pq_unpack32_u32_tail(const uint8_t *in, size_t in_len, uint32_t *out, unsigned bit_width) {
    uint8_t padded[4 * 32] = {0};
    size_t n = DL_PQ_MIN_SIZE(in_len, 4 * (size_t)bit_width);
    if (n > 0) {
        memcpy(padded, in, n);
    }
    dl_pq_unpack32_u32(padded, out, bit_width);
}

void
dl_pq_unpack32_u64_tail(const uint8_t *in, size_t in_len, uint64_t *out, unsigned bit_width) {
    uint8_t padded[4 * 64] = {0};
    size_t n = DL_PQ_MIN_SIZE(in_len, 4 * (size_t)bit_width);
    if (n > 0) {
        memcpy(padded, in, n);
    }
    dl_pq_unpack32_u64(padded, out, bit_width);
}
