/* SPDX-License-Identifier: Apache-2.0 */
/* BYTE_STREAM_SPLIT for every width a column can have. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/buf.h"
#include "harness.h"
#include "parquet/encoding/pq_encoding.h"

static uint64_t rng_state = 0xBE5466CF34E90C6CULL;

static uint64_t
rng_next(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Encodings.md: three floats AA BB CC DD, 00 11 22 33, A3 B4 C5 D6. */
TEST(test_bss_spec_example) {
    static const uint8_t values[] = {0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11,
                                     0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6};
    static const uint8_t expect[] = {0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4,
                                     0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6};
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_OK(dl_pq_bss_encode(values, 3, 4, &buf, &err), &err);
    CHECK(buf.len == 12 && memcmp(buf.data, expect, 12) == 0);
    dl_pq_bss_decoder dec;
    float got[3];
    CHECK_OK(dl_pq_bss_decoder_init(&dec, expect, sizeof(expect), 4, 0, &err), &err);
    CHECK_OK(dl_pq_bss_decode(&dec, 3, got, &err), &err);
    CHECK(memcmp((const void *)got, values, 12) == 0);
    dl_buf_destroy(&buf);
}

TEST(test_bss_round_trip_widths_sizes_and_batches) {
    static const size_t widths[] = {1, 2, 3, 4, 8, 12, 16};
    static const size_t sizes[] = {0, 1, 7, 8, 9, 127, 128, 129, 10000};
    static uint8_t v[10000 * 16], got[10000 * 16];
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    for (size_t w = 0; w < DL_ARRAY_LEN(widths); w++) {
        for (size_t s = 0; s < DL_ARRAY_LEN(sizes); s++) {
            size_t width = widths[w];
            size_t n = sizes[s];
            for (size_t i = 0; i < n * width; i++) {
                v[i] = (uint8_t)rng_next();
            }
            dl_buf_reset(&buf);
            CHECK_OK(dl_pq_bss_encode(v, n, width, &buf, &err), &err);
            dl_pq_bss_decoder dec;
            CHECK_OK(dl_pq_bss_decoder_init(&dec, buf.data, buf.len, width, 0, &err), &err);
            CHECK_INT_EQ(dec.n_values, n);
            size_t i = 0;
            for (size_t k = 1; i < n; k = k * 3 + 1) {
                size_t take = n - i < k ? n - i : k;
                if (k == 4) {
                    CHECK_OK(dl_pq_bss_skip(&dec, take, &err), &err);
                    memcpy(got + i * width, v + i * width, take * width);
                } else {
                    CHECK_OK(dl_pq_bss_decode(&dec, take, got + i * width, &err), &err);
                }
                i += take;
            }
            CHECK(n == 0 || memcmp(v, got, n * width) == 0);
        }
    }
    dl_buf_destroy(&buf);
}

TEST(test_bss_preserves_nan_and_negative_zero_bits) {
    double d[3] = {-0.0, (double)NAN, 1.5};
    uint64_t payload = 0xFFF8000000000ABCULL;
    memcpy(&d[1], &payload, 8);
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_OK(dl_pq_bss_encode(d, 3, 8, &buf, &err), &err);
    dl_pq_bss_decoder dec;
    double got[3];
    CHECK_OK(dl_pq_bss_decoder_init(&dec, buf.data, buf.len, 8, 0, &err), &err);
    CHECK_OK(dl_pq_bss_decode(&dec, 3, got, &err), &err);
    /* Bit patterns, not values, must survive (NaN payloads, -0.0). */
    CHECK(memcmp((const void *)got, (const void *)d, sizeof(d)) == 0);
    dl_buf_destroy(&buf);
}

TEST(test_bss_bad_sections_are_corrupt) {
    uint8_t page[10] = {0};
    dl_pq_bss_decoder dec;
    dl_error err;
    CHECK_STATUS(dl_pq_bss_decoder_init(&dec, page, 10, 4, 33, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "BYTE_STREAM_SPLIT at byte 33: the section's 10 bytes are not a "
                          "multiple of the 4-byte value width");
    CHECK_STATUS(dl_pq_bss_decoder_init(&dec, page, 10, 0, 33, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_OK(dl_pq_bss_decoder_init(&dec, page, 8, 4, 33, &err), &err);
    uint32_t got[3];
    CHECK_STATUS(dl_pq_bss_decode(&dec, 3, got, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "3 more values are needed but the section holds only 2 more");
    CHECK_STATUS(dl_pq_bss_skip(&dec, 3, &err), DL_ERR_CORRUPT, &err);
}

int
main(void) {
    RUN(test_bss_spec_example);
    RUN(test_bss_round_trip_widths_sizes_and_batches);
    RUN(test_bss_preserves_nan_and_negative_zero_bits);
    RUN(test_bss_bad_sections_are_corrupt);
    return harness_finish();
}
