/* SPDX-License-Identifier: Apache-2.0 */
/* Bit packing kernels against a bit-at-a-time reference, for every width. */
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "parquet/encoding/pq_bitpack.h"

static uint64_t rng_state = 0x243F6A8885A308D3ULL;

static uint64_t
rng_next(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static uint64_t
mask_of(unsigned bw) {
    return bw == 64 ? UINT64_MAX : ((uint64_t)1 << bw) - 1;
}

/* The spec's packing, one bit at a time: value i's bit b goes to stream bit i * bw + b. */
static void
reference_pack(const uint64_t *values, unsigned bw, uint8_t *out) {
    memset(out, 0, 4 * (size_t)bw);
    for (unsigned i = 0; i < 32; i++) {
        for (unsigned b = 0; b < bw; b++) {
            size_t bit = (size_t)i * bw + b;
            if ((values[i] >> b) & 1) {
                out[bit / 8] |= (uint8_t)(1u << (bit % 8));
            }
        }
    }
}

TEST(test_bitpack_u32_matches_reference_for_every_width) {
    for (unsigned bw = 0; bw <= 32; bw++) {
        for (int trial = 0; trial < 20; trial++) {
            uint64_t v64[32];
            uint32_t v32[32];
            for (int i = 0; i < 32; i++) {
                v64[i] = rng_next() & mask_of(bw);
                v32[i] = (uint32_t)v64[i];
            }
            if (trial == 0) {
                for (int i = 0; i < 32; i++) {
                    v64[i] = mask_of(bw);
                    v32[i] = (uint32_t)v64[i];
                }
            }
            uint8_t ref[256], packed[256];
            reference_pack(v64, bw, ref);
            memset(packed, 0xEE, sizeof(packed));
            dl_pq_pack32_u32(v32, packed, bw);
            CHECK(memcmp(ref, packed, 4 * (size_t)bw) == 0);
            CHECK(packed[4 * (size_t)bw] == 0xEE);
            uint32_t back[32];
            dl_pq_unpack32_u32(ref, back, bw);
            CHECK(memcmp(back, v32, sizeof(back)) == 0);
        }
    }
}

TEST(test_bitpack_u64_matches_reference_for_every_width) {
    for (unsigned bw = 0; bw <= 64; bw++) {
        for (int trial = 0; trial < 20; trial++) {
            uint64_t v[32];
            for (int i = 0; i < 32; i++) {
                v[i] = trial == 0 ? mask_of(bw) : rng_next() & mask_of(bw);
            }
            uint8_t ref[260], packed[260];
            reference_pack(v, bw, ref);
            memset(packed, 0xEE, sizeof(packed));
            dl_pq_pack32_u64(v, packed, bw);
            CHECK(memcmp(ref, packed, 4 * (size_t)bw) == 0);
            CHECK(packed[4 * (size_t)bw] == 0xEE);
            uint64_t back[32];
            dl_pq_unpack32_u64(ref, back, bw);
            CHECK(memcmp(back, v, sizeof(back)) == 0);
        }
    }
}

TEST(test_bitpack_ignores_bits_above_the_width) {
    uint32_t v[32];
    for (int i = 0; i < 32; i++) {
        v[i] = 0xFFFFFFF0u | (uint32_t)(i & 7);
    }
    uint8_t packed[12];
    dl_pq_pack32_u32(v, packed, 3);
    uint32_t back[32];
    dl_pq_unpack32_u32(packed, back, 3);
    for (int i = 0; i < 32; i++) {
        CHECK_INT_EQ(back[i], i & 7);
    }
}

/* Encodings.md, RLE note 1: 0..7 at width 3 pack to 10001000 11000110 11111010. */
TEST(test_bitpack_spec_example_width_3) {
    uint32_t v[32] = {0, 1, 2, 3, 4, 5, 6, 7};
    uint8_t packed[12];
    dl_pq_pack32_u32(v, packed, 3);
    CHECK_INT_EQ(packed[0], 0x88);
    CHECK_INT_EQ(packed[1], 0xC6);
    CHECK_INT_EQ(packed[2], 0xFA);
}

TEST(test_bitpack_tail_reads_missing_bytes_as_zero) {
    for (unsigned bw = 1; bw <= 64; bw++) {
        uint64_t v[32];
        for (int i = 0; i < 32; i++) {
            v[i] = rng_next() & mask_of(bw);
        }
        uint8_t packed[256];
        dl_pq_pack32_u64(v, packed, bw);
        size_t cut = bw; /* the first 8 values' bytes only */
        uint64_t back[32];
        dl_pq_unpack32_u64_tail(packed, cut, back, bw);
        for (int i = 0; i < 8; i++) {
            CHECK(back[i] == v[i]);
        }
        for (int i = 8; i < 32; i++) {
            CHECK(back[i] == 0);
        }
        if (bw <= 32) {
            uint32_t back32[32];
            dl_pq_unpack32_u32_tail(packed, cut, back32, bw);
            for (int i = 0; i < 8; i++) {
                CHECK(back32[i] == v[i]);
            }
            CHECK(back32[31] == 0);
        }
    }
}

TEST(test_bit_width_of_max_values) {
    CHECK_INT_EQ(dl_pq_bit_width(0), 0);
    CHECK_INT_EQ(dl_pq_bit_width(1), 1);
    CHECK_INT_EQ(dl_pq_bit_width(2), 2);
    CHECK_INT_EQ(dl_pq_bit_width(255), 8);
    CHECK_INT_EQ(dl_pq_bit_width(256), 9);
    CHECK_INT_EQ(dl_pq_bit_width(UINT32_MAX), 32);
    CHECK_INT_EQ(dl_pq_bit_width(UINT64_MAX), 64);
}

int
main(void) {
    RUN(test_bitpack_u32_matches_reference_for_every_width);
    RUN(test_bitpack_u64_matches_reference_for_every_width);
    RUN(test_bitpack_ignores_bits_above_the_width);
    RUN(test_bitpack_spec_example_width_3);
    RUN(test_bitpack_tail_reads_missing_bytes_as_zero);
    RUN(test_bit_width_of_max_values);
    return harness_finish();
}
