/* SPDX-License-Identifier: Apache-2.0 */
/* DELTA_BINARY_PACKED: the spec's examples, round trips, wrapping, leniency and corruption. */
#include <stdint.h>
#include <string.h>

#include "base/buf.h"
#include "harness.h"
#include "parquet/encoding/pq_encoding.h"

static uint64_t rng_state = 0xA4093822299F31D0ULL;

static uint64_t
rng_next(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static const size_t sizes[] = {0, 1, 2, 7, 8, 9, 31, 32, 33, 127, 128, 129, 130, 1000, 10000};

/* Patterns: 0 random full range, 1 sorted with small steps, 2 constant, 3 extremes,
 * 4 random with a few bits, 5 timestamps (large base, small jitter). */
static int64_t
value_for(int pattern, size_t i, int64_t prev) {
    switch (pattern) {
    case 0:
        return (int64_t)rng_next();
    case 1:
        return prev + (int64_t)(rng_next() % 100);
    case 2:
        return -7;
    case 3:
        return (rng_next() & 1) ? INT64_MIN : INT64_MAX;
    case 4:
        return (int64_t)(rng_next() % 13) - 6;
    default:
        return 1700000000000000LL + (int64_t)i * 1000000 + (int64_t)(rng_next() % 1000);
    }
}

static bool
check_i64(const int64_t *v, size_t n, size_t batch, bool is_skipping) {
    static int64_t got[10000];
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    bool is_ok = dl_pq_delta_encode_i64(v, n, &buf, &err) == DL_OK;
    dl_pq_delta_decoder dec;
    is_ok = is_ok && dl_pq_delta_decoder_init(&dec, buf.data, buf.len, false, 0, &err) == DL_OK;
    is_ok = is_ok && dec.total == n;
    for (size_t i = 0, round = 0; is_ok && i < n; round++) {
        size_t k = n - i < batch ? n - i : batch;
        if (is_skipping && round % 3 == 1) {
            is_ok = dl_pq_delta_skip(&dec, k, &err) == DL_OK;
        } else {
            is_ok = dl_pq_delta_decode_i64(&dec, k, got, &err) == DL_OK &&
                    memcmp(got, v + i, k * sizeof(int64_t)) == 0;
        }
        i += k;
    }
    is_ok = is_ok && dec.pos == buf.len;
    if (!is_ok) {
        printf("  n=%zu batch=%zu: %s\n", n, batch, err.msg);
    }
    dl_buf_destroy(&buf);
    return is_ok;
}

static bool
check_i32(const int32_t *v, size_t n, size_t batch) {
    static int32_t got[10000];
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    bool is_ok = dl_pq_delta_encode_i32(v, n, &buf, &err) == DL_OK;
    dl_pq_delta_decoder dec;
    is_ok = is_ok && dl_pq_delta_decoder_init(&dec, buf.data, buf.len, true, 0, &err) == DL_OK;
    for (size_t i = 0; is_ok && i < n; i += batch) {
        size_t k = n - i < batch ? n - i : batch;
        is_ok = dl_pq_delta_decode_i32(&dec, k, got, &err) == DL_OK &&
                memcmp(got, v + i, k * sizeof(int32_t)) == 0;
    }
    is_ok = is_ok && dec.pos == buf.len;
    if (!is_ok) {
        printf("  n=%zu batch=%zu: %s\n", n, batch, err.msg);
    }
    dl_buf_destroy(&buf);
    return is_ok;
}

TEST(test_delta_round_trip_int64_sizes_patterns_batches) {
    static int64_t v[10000];
    static const size_t batches[] = {1, 5, 32, 100, 10000};
    for (int pattern = 0; pattern < 6; pattern++) {
        for (size_t s = 0; s < DL_ARRAY_LEN(sizes); s++) {
            int64_t prev = -500;
            for (size_t i = 0; i < sizes[s]; i++) {
                v[i] = prev = value_for(pattern, i, prev);
            }
            for (size_t b = 0; b < DL_ARRAY_LEN(batches); b++) {
                if (!check_i64(v, sizes[s], batches[b], b % 2 == 1)) {
                    HARNESS_FAIL_AT("pattern %d size %zu batch %zu", pattern, sizes[s], batches[b]);
                    return;
                }
            }
        }
    }
}

TEST(test_delta_round_trip_int32_sizes_patterns_batches) {
    static int32_t v[10000];
    static const size_t batches[] = {1, 32, 77, 10000};
    for (int pattern = 0; pattern < 6; pattern++) {
        for (size_t s = 0; s < DL_ARRAY_LEN(sizes); s++) {
            int32_t prev = 0;
            for (size_t i = 0; i < sizes[s]; i++) {
                int64_t x = value_for(pattern, i, prev);
                v[i] = prev = pattern == 3 ? ((x < 0) ? INT32_MIN : INT32_MAX) : (int32_t)x;
            }
            for (size_t b = 0; b < DL_ARRAY_LEN(batches); b++) {
                if (!check_i32(v, sizes[s], batches[b])) {
                    HARNESS_FAIL_AT("pattern %d size %zu batch %zu", pattern, sizes[s], batches[b]);
                    return;
                }
            }
        }
    }
}

/* Encodings.md example 1 (1, 2, 3, 4, 5) with the smallest legal block: 128 values in 4
 * miniblocks. */
TEST(test_delta_spec_example_1_bytes) {
    static const uint8_t expect[] = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0, 0, 0, 0};
    int32_t v[5] = {1, 2, 3, 4, 5};
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_OK(dl_pq_delta_encode_i32(v, 5, &buf, &err), &err);
    CHECK_INT_EQ(buf.len, sizeof(expect));
    CHECK(memcmp(buf.data, expect, sizeof(expect)) == 0);
    dl_pq_delta_decoder dec;
    int32_t got[5];
    CHECK_OK(dl_pq_delta_decoder_init(&dec, expect, sizeof(expect), true, 0, &err), &err);
    CHECK_OK(dl_pq_delta_decode_i32(&dec, 5, got, &err), &err);
    CHECK(memcmp(got, v, sizeof(v)) == 0);
    dl_buf_destroy(&buf);
}

/* Example 2 (7, 5, 3, 1, 2, 3, 4, 5): min delta -2, width 2, relative deltas 0 0 0 3 3 3 3
 * packed LSB-first: 11000000 00111111, then zeros to fill the 32-value miniblock. */
TEST(test_delta_spec_example_2_bytes) {
    static const uint8_t expect[] = {0x80, 0x01, 0x04, 0x08, 0x0E, 0x03, 0x02, 0, 0,
                                     0,    0xC0, 0x3F, 0,    0,    0,    0,    0, 0};
    int64_t v[8] = {7, 5, 3, 1, 2, 3, 4, 5};
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_OK(dl_pq_delta_encode_i64(v, 8, &buf, &err), &err);
    CHECK_INT_EQ(buf.len, sizeof(expect));
    CHECK(memcmp(buf.data, expect, sizeof(expect)) == 0);
    dl_pq_delta_decoder dec;
    int64_t got[8];
    CHECK_OK(dl_pq_delta_decoder_init(&dec, expect, sizeof(expect), false, 0, &err), &err);
    CHECK_OK(dl_pq_delta_decode_i64(&dec, 8, got, &err), &err);
    CHECK(memcmp(got, v, sizeof(v)) == 0);
    dl_buf_destroy(&buf);
}

TEST(test_delta_spec_examples_block_size_8_is_corrupt) {
    /* The spec's examples use block size 8 "to keep them short"; it is not legal. */
    static const uint8_t page[] = {0x08, 0x01, 0x05, 0x02, 0x02, 0x00};
    dl_pq_delta_decoder dec;
    dl_error err;
    CHECK_STATUS(dl_pq_delta_decoder_init(&dec, page, sizeof(page), true, 20, &err), DL_ERR_CORRUPT,
                 &err);
    CHECK_ERR_CONTAINS(&err, "DELTA_BINARY_PACKED at byte 20: block size 8 is not a positive "
                             "multiple of 128");
}

TEST(test_delta_int32_with_64_bit_deltas_decodes) {
    /* arrow-go wrote INT32 deltas computed in 64 bits: widths above 32. */
    int64_t wide[200];
    int32_t expect[200];
    for (int i = 0; i < 200; i++) {
        expect[i] = (i % 2) ? INT32_MAX : INT32_MIN;
        wide[i] = expect[i];
    }
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_OK(dl_pq_delta_encode_i64(wide, 200, &buf, &err), &err);
    dl_pq_delta_decoder dec;
    int32_t got[200];
    CHECK_OK(dl_pq_delta_decoder_init(&dec, buf.data, buf.len, true, 0, &err), &err);
    CHECK_OK(dl_pq_delta_decode_i32(&dec, 200, got, &err), &err);
    CHECK(memcmp(got, expect, sizeof(expect)) == 0);
    CHECK_INT_EQ(dec.bit_width, 33);
    dl_buf_destroy(&buf);
}

TEST(test_delta_accepts_garbage_in_unused_widths_and_padding) {
    int64_t v[40];
    for (int i = 0; i < 40; i++) {
        v[i] = (int64_t)i * 3;
    }
    v[5] = 1000;
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_OK(dl_pq_delta_encode_i64(v, 40, &buf, &err), &err);
    /* Header: 80 01 04 28 00; block: min delta (2 bytes, -994 zigzag), 4 widths. */
    size_t widths = 5 + 2;
    CHECK(buf.data[widths + 1] != 0 && buf.data[widths + 2] == 0);
    buf.data[widths + 2] = 200; /* unused miniblock: any value */
    buf.data[widths + 3] = 99;
    buf.data[buf.len - 1] ^= 0xFF; /* padding bits of the last miniblock */
    dl_pq_delta_decoder dec;
    int64_t got[40];
    CHECK_OK(dl_pq_delta_decoder_init(&dec, buf.data, buf.len, false, 0, &err), &err);
    CHECK_OK(dl_pq_delta_decode_i64(&dec, 40, got, &err), &err);
    CHECK(memcmp(got, v, sizeof(v)) == 0);
    dl_buf_destroy(&buf);
}

TEST(test_delta_width_above_64_is_corrupt) {
    /* total 2, first 0; block: min delta 0, widths 65 0 0 0. */
    static const uint8_t page[] = {0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 65, 0, 0, 0, 0, 0, 0};
    dl_pq_delta_decoder dec;
    dl_error err;
    int64_t got[2];
    CHECK_OK(dl_pq_delta_decoder_init(&dec, page, sizeof(page), false, 31, &err), &err);
    CHECK_STATUS(dl_pq_delta_decode_i64(&dec, 2, got, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "DELTA_BINARY_PACKED at byte 37: miniblock bit width 65 exceeds 64");
}

TEST(test_delta_bad_layouts_are_corrupt) {
    dl_pq_delta_decoder dec;
    dl_error err;
    static const uint8_t odd_mb[] = {0x80, 0x01, 0x03, 0x01, 0x00};
    CHECK_STATUS(dl_pq_delta_decoder_init(&dec, odd_mb, sizeof(odd_mb), false, 0, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "3 miniblocks per block of 128 values");
    static const uint8_t mb_16[] = {0x80, 0x01, 0x08, 0x01, 0x00};
    CHECK_STATUS(dl_pq_delta_decoder_init(&dec, mb_16, sizeof(mb_16), false, 0, &err),
                 DL_ERR_CORRUPT, &err);
    static const uint8_t zero_mb[] = {0x80, 0x01, 0x00, 0x01, 0x00};
    CHECK_STATUS(dl_pq_delta_decoder_init(&dec, zero_mb, sizeof(zero_mb), false, 0, &err),
                 DL_ERR_CORRUPT, &err);
    static const uint8_t cut[] = {0x80, 0x01, 0x04, 0x01};
    CHECK_STATUS(dl_pq_delta_decoder_init(&dec, cut, sizeof(cut), false, 0, &err), DL_ERR_CORRUPT,
                 &err);
    CHECK_STR_EQ(err.msg, "DELTA_BINARY_PACKED at byte 4: the first value is cut off or longer "
                          "than 64 bits");
    static const uint8_t big_first[] = {0x80, 0x01, 0x04, 0x01, 0x80, 0x80, 0x80, 0x80, 0x10};
    CHECK_STATUS(dl_pq_delta_decoder_init(&dec, big_first, sizeof(big_first), true, 0, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "first value 2147483648 does not fit in INT32");
    CHECK_OK(dl_pq_delta_decoder_init(&dec, big_first, sizeof(big_first), false, 0, &err), &err);
}

TEST(test_delta_truncated_blocks_are_corrupt) {
    dl_pq_delta_decoder dec;
    dl_error err;
    int64_t got[40];
    /* total 3: block header missing. */
    static const uint8_t no_block[] = {0x80, 0x01, 0x04, 0x03, 0x00};
    CHECK_OK(dl_pq_delta_decoder_init(&dec, no_block, sizeof(no_block), false, 0, &err), &err);
    CHECK_STATUS(dl_pq_delta_decode_i64(&dec, 3, got, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "at byte 5: a block's min delta is cut off");
    /* Widths cut off. */
    static const uint8_t no_widths[] = {0x80, 0x01, 0x04, 0x03, 0x00, 0x00, 0x01};
    CHECK_OK(dl_pq_delta_decoder_init(&dec, no_widths, sizeof(no_widths), false, 0, &err), &err);
    CHECK_STATUS(dl_pq_delta_decode_i64(&dec, 3, got, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "a block's 4 miniblock bit widths are cut off (1 bytes left)");
    /* Miniblock of 2 values at width 8 needs 2 bytes; 1 left. */
    static const uint8_t short_mb[] = {0x80, 0x01, 0x04, 0x03, 0x00, 0x00, 8, 0, 0, 0, 0x05};
    CHECK_OK(dl_pq_delta_decoder_init(&dec, short_mb, sizeof(short_mb), false, 0, &err), &err);
    CHECK_STATUS(dl_pq_delta_decode_i64(&dec, 3, got, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "DELTA_BINARY_PACKED at byte 10: miniblock of 2 values at bit width 8 "
                          "needs 2 bytes but only 1 are left");
    /* The same with both values present but no padding: accepted. */
    static const uint8_t no_pad[] = {0x80, 0x01, 0x04, 0x03, 0x00, 0x02, 8, 0, 0, 0, 0x05, 0x06};
    CHECK_OK(dl_pq_delta_decoder_init(&dec, no_pad, sizeof(no_pad), false, 0, &err), &err);
    CHECK_OK(dl_pq_delta_decode_i64(&dec, 3, got, &err), &err);
    CHECK_INT_EQ(got[1], 6);
    CHECK_INT_EQ(got[2], 13);
}

TEST(test_delta_more_values_than_declared_is_corrupt) {
    int64_t v[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_OK(dl_pq_delta_encode_i64(v, 10, &buf, &err), &err);
    dl_pq_delta_decoder dec;
    int64_t got[11];
    CHECK_OK(dl_pq_delta_decoder_init(&dec, buf.data, buf.len, false, 0, &err), &err);
    CHECK_OK(dl_pq_delta_decode_i64(&dec, 4, got, &err), &err);
    CHECK_STATUS(dl_pq_delta_decode_i64(&dec, 7, got, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "7 more values are needed but the header declares only 6 more");
    int32_t got32[1];
    CHECK_STATUS(dl_pq_delta_decode_i32(&dec, 1, got32, &err), DL_ERR_INVALID_ARG, &err);
    /* An empty section reads as no values. */
    CHECK_OK(dl_pq_delta_decoder_init(&dec, buf.data, 0, false, 0, &err), &err);
    CHECK_INT_EQ(dec.total, 0);
    dl_buf_destroy(&buf);
}

TEST(test_delta_streaming_encoder_matches_one_shot) {
    static int64_t v[1000];
    for (int i = 0; i < 1000; i++) {
        v[i] = (int64_t)(rng_next() % 100000);
    }
    dl_buf one, streamed;
    dl_buf_init(&one, NULL);
    dl_buf_init(&streamed, NULL);
    dl_error err;
    CHECK_OK(dl_pq_delta_encode_i64(v, 1000, &one, &err), &err);
    dl_pq_delta_encoder enc;
    dl_pq_delta_encoder_init(&enc, false, 1000, &streamed);
    for (size_t i = 0; i < 1000; i += 37) {
        CHECK_OK(dl_pq_delta_encoder_put_i64(&enc, v + i, i + 37 <= 1000 ? 37 : 1000 - i, &err),
                 &err);
    }
    CHECK_OK(dl_pq_delta_encoder_finish(&enc, &err), &err);
    CHECK_INT_EQ(one.len, streamed.len);
    CHECK(memcmp(one.data, streamed.data, one.len) == 0);
    dl_pq_delta_encoder_init(&enc, false, 5, &streamed);
    CHECK_STATUS(dl_pq_delta_encoder_put_i64(&enc, v, 6, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_OK(dl_pq_delta_encoder_put_i64(&enc, v, 4, &err), &err);
    CHECK_STATUS(dl_pq_delta_encoder_finish(&enc, &err), DL_ERR_INVALID_ARG, &err);
    int32_t v32[1] = {0};
    CHECK_STATUS(dl_pq_delta_encoder_put_i32(&enc, v32, 1, &err), DL_ERR_INVALID_ARG, &err);
    dl_buf_destroy(&one);
    dl_buf_destroy(&streamed);
}

int
main(void) {
    RUN(test_delta_round_trip_int64_sizes_patterns_batches);
    RUN(test_delta_round_trip_int32_sizes_patterns_batches);
    RUN(test_delta_spec_example_1_bytes);
    RUN(test_delta_spec_example_2_bytes);
    RUN(test_delta_spec_examples_block_size_8_is_corrupt);
    RUN(test_delta_int32_with_64_bit_deltas_decodes);
    RUN(test_delta_accepts_garbage_in_unused_widths_and_padding);
    RUN(test_delta_width_above_64_is_corrupt);
    RUN(test_delta_bad_layouts_are_corrupt);
    RUN(test_delta_truncated_blocks_are_corrupt);
    RUN(test_delta_more_values_than_declared_is_corrupt);
    RUN(test_delta_streaming_encoder_matches_one_shot);
    return harness_finish();
}
