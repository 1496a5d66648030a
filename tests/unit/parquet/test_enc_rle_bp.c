/* SPDX-License-Identifier: Apache-2.0 */
/* The RLE / bit-packing hybrid: spec examples, round trips, and every corruption class. */
#include <stdint.h>
#include <string.h>

#include "base/buf.h"
#include "harness.h"
#include "parquet/encoding/pq_encoding.h"

static uint64_t rng_state = 0x13198A2E03707344ULL;

static uint64_t
rng_next(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static const size_t sizes[] = {0, 1, 7, 8, 9, 31, 32, 33, 127, 128, 129, 1000, 10000};

/* Fills values with a pattern of bit width bw: 0 random, 1 long runs, 2 runs and noise. */
static void
fill_pattern(uint32_t *v, size_t n, unsigned bw, int pattern) {
    uint64_t mask = bw == 32 ? UINT32_MAX : ((uint64_t)1 << bw) - 1;
    uint32_t cur = (uint32_t)(rng_next() & mask);
    for (size_t i = 0; i < n; i++) {
        if (pattern == 0 || (pattern == 2 && rng_next() % 3 == 0)) {
            v[i] = (uint32_t)(rng_next() & mask);
        } else {
            if (rng_next() % 50 == 0) {
                cur = (uint32_t)(rng_next() & mask);
            }
            v[i] = cur;
        }
    }
}

/* Decodes n values in batches of `batch` (skipping every third batch when is_skipping). */
static bool
decode_in_batches(dl_pq_rle_decoder *dec, const uint32_t *expect, size_t n, size_t batch,
                  bool is_skipping) {
    static uint32_t got[10000];
    dl_error err;
    size_t i = 0;
    for (int round = 0; i < n; round++) {
        size_t k = n - i < batch ? n - i : batch;
        if (is_skipping && round % 3 == 1) {
            if (dl_pq_rle_skip(dec, k, &err) != DL_OK) {
                printf("  skip: %s\n", err.msg);
                return false;
            }
        } else {
            if (dl_pq_rle_decode_u32(dec, k, got, &err) != DL_OK) {
                printf("  decode: %s\n", err.msg);
                return false;
            }
            if (memcmp(got, expect + i, k * sizeof(uint32_t)) != 0) {
                printf("  mismatch in values %zu..%zu\n", i, i + k);
                return false;
            }
        }
        i += k;
    }
    return dec->remaining == 0;
}

TEST(test_rle_round_trip_every_width_size_and_batch) {
    static uint32_t v[10000];
    static const size_t batches[] = {1, 7, 32, 100, 10000};
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    for (unsigned bw = 0; bw <= 32; bw++) {
        for (size_t s = 0; s < DL_ARRAY_LEN(sizes); s++) {
            for (int pattern = 0; pattern < 3; pattern++) {
                size_t n = sizes[s];
                fill_pattern(v, n, bw, pattern);
                dl_buf_reset(&buf);
                CHECK_OK(dl_pq_rle_encode_u32(v, n, bw, DL_PQ_RLE_BARE, &buf, &err), &err);
                for (size_t b = 0; b < DL_ARRAY_LEN(batches); b++) {
                    dl_pq_rle_decoder dec;
                    CHECK_OK(dl_pq_rle_decoder_init(&dec, buf.data, buf.len, bw, n, 0, &err), &err);
                    if (!decode_in_batches(&dec, v, n, batches[b], b % 2 == 1)) {
                        HARNESS_FAIL_AT("bw %u n %zu pattern %d batch %zu", bw, n, pattern,
                                        batches[b]);
                        dl_buf_destroy(&buf);
                        return;
                    }
                }
            }
        }
    }
    dl_buf_destroy(&buf);
}

TEST(test_rle_u16_and_u8_outputs_with_length_prefix) {
    static uint16_t v16[5000], got16[5000];
    static uint8_t v8[5000], got8[5000];
    for (size_t i = 0; i < 5000; i++) {
        v16[i] = (uint16_t)(i % 700 < 300 ? 3 : rng_next() % 5);
        v8[i] = (uint8_t)(rng_next() % 2);
    }
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_OK(dl_pq_rle_encode_u16(v16, 5000, 3, DL_PQ_RLE_LENGTH_PREFIX, &buf, &err), &err);
    size_t first_size = buf.len;
    CHECK_OK(dl_pq_rle_encode_u8(v8, 5000, 1, DL_PQ_RLE_LENGTH_PREFIX, &buf, &err), &err);
    dl_pq_rle_decoder dec;
    size_t used = 0;
    CHECK_OK(dl_pq_rle_decoder_init_prefixed(&dec, buf.data, buf.len, 3, 5000, 0, &used, &err),
             &err);
    CHECK_INT_EQ(used, first_size);
    CHECK_OK(dl_pq_rle_decode_u16(&dec, 5000, got16, &err), &err);
    CHECK(memcmp(v16, got16, sizeof(v16)) == 0);
    CHECK_OK(dl_pq_rle_decoder_init_prefixed(&dec, buf.data + used, buf.len - used, 1, 5000, used,
                                             &used, &err),
             &err);
    CHECK_OK(dl_pq_rle_decode_u8(&dec, 5000, got8, &err), &err);
    CHECK(memcmp(v8, got8, sizeof(v8)) == 0);
    dl_buf_destroy(&buf);
}

/* Encodings.md: 0..7 at width 3 as one bit-packed run: header 1 << 1 | 1, then 3 bytes. */
TEST(test_rle_spec_example_bit_packed_run) {
    static const uint8_t page[] = {0x03, 0x88, 0xC6, 0xFA};
    dl_pq_rle_decoder dec;
    dl_error err;
    CHECK_OK(dl_pq_rle_decoder_init(&dec, page, sizeof(page), 3, 8, 0, &err), &err);
    uint32_t got[8];
    CHECK_OK(dl_pq_rle_decode_u32(&dec, 8, got, &err), &err);
    for (uint32_t i = 0; i < 8; i++) {
        CHECK_INT_EQ(got[i], i);
    }
    uint32_t v[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    CHECK_OK(dl_pq_rle_encode_u32(v, 8, 3, DL_PQ_RLE_BARE, &buf, &err), &err);
    CHECK_INT_EQ(buf.len, sizeof(page));
    CHECK(memcmp(buf.data, page, sizeof(page)) == 0);
    dl_buf_destroy(&buf);
}

TEST(test_rle_hand_built_runs_decode) {
    /* RLE run of 300 x 5 at width 3 (varint 600 = d8 04), bit-packed run of 8 at width 3,
     * RLE run of 2 x 65535 at width 16. */
    static const uint8_t page[] = {0xD8, 0x04, 0x05, 0x03, 0x88, 0xC6, 0xFA};
    dl_pq_rle_decoder dec;
    dl_error err;
    uint32_t got[308];
    CHECK_OK(dl_pq_rle_decoder_init(&dec, page, sizeof(page), 3, 308, 0, &err), &err);
    CHECK_OK(dl_pq_rle_decode_u32(&dec, 308, got, &err), &err);
    CHECK_INT_EQ(got[0], 5);
    CHECK_INT_EQ(got[299], 5);
    CHECK_INT_EQ(got[300], 0);
    CHECK_INT_EQ(got[307], 7);
    static const uint8_t wide[] = {0x04, 0xFF, 0xFF};
    CHECK_OK(dl_pq_rle_decoder_init(&dec, wide, sizeof(wide), 16, 2, 0, &err), &err);
    CHECK_OK(dl_pq_rle_decode_u32(&dec, 2, got, &err), &err);
    CHECK_INT_EQ(got[1], 65535);
}

TEST(test_rle_encoder_picks_rle_runs_for_repeats) {
    static uint32_t v[4096];
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    for (int i = 0; i < 4096; i++) {
        v[i] = 1;
    }
    CHECK_OK(dl_pq_rle_encode_u32(v, 4096, 1, DL_PQ_RLE_BARE, &buf, &err), &err);
    CHECK_INT_EQ(buf.len, 3); /* varint(8192) + 1 byte */
    /* 5 literals then a long run: the run pads the literals to a group of 8. */
    dl_buf_reset(&buf);
    for (int i = 0; i < 5; i++) {
        v[i] = (uint32_t)i;
    }
    CHECK_OK(dl_pq_rle_encode_u32(v, 1000, 3, DL_PQ_RLE_BARE, &buf, &err), &err);
    CHECK_INT_EQ(buf.len, 1 + 3 + 2 + 1);
    dl_pq_rle_decoder dec;
    CHECK_OK(dl_pq_rle_decoder_init(&dec, buf.data, buf.len, 3, 1000, 0, &err), &err);
    CHECK(decode_in_batches(&dec, v, 1000, 1000, false));
    dl_buf_destroy(&buf);
}

TEST(test_rle_encoder_rejects_values_wider_than_bit_width) {
    uint32_t v[3] = {1, 8, 2};
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_STATUS(dl_pq_rle_encode_u32(v, 3, 3, DL_PQ_RLE_BARE, &buf, &err), DL_ERR_INVALID_ARG,
                 &err);
    CHECK_ERR_CONTAINS(&err, "needs 4 bits but the bit width is 3");
    dl_buf_destroy(&buf);
}

static dl_status
decode_all(const uint8_t *page, size_t len, unsigned bw, size_t n, dl_error *err) {
    static uint32_t got[4096];
    dl_pq_rle_decoder dec;
    dl_status st = dl_pq_rle_decoder_init(&dec, page, len, bw, n, 100, err);
    if (st == DL_OK) {
        st = dl_pq_rle_decode_u32(&dec, n, got, err);
    }
    return st;
}

TEST(test_rle_run_longer_than_values_left_is_corrupt) {
    /* RLE run of 4096 (varint 8192 = 80 40) but the page has 200 values. */
    static const uint8_t page[] = {0x80, 0x40, 0x01};
    dl_error err;
    CHECK_STATUS(decode_all(page, sizeof(page), 1, 200, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "RLE at byte 100: RLE run of 4096 values exceeds the 200 values left");
}

TEST(test_rle_bit_packed_run_longer_than_values_left_is_corrupt) {
    /* 3 groups (24 values) for 16 values: more than padding. */
    static const uint8_t page[] = {0x07, 0, 0, 0};
    dl_error err;
    CHECK_STATUS(decode_all(page, sizeof(page), 1, 16, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "bit-packed run of 24 values exceeds the 16 values left");
    /* 2 groups for 10 values is padding, and fine. */
    static const uint8_t padded[] = {0x05, 0xFF, 0x03};
    CHECK_OK(decode_all(padded, sizeof(padded), 1, 10, &err), &err);
}

TEST(test_rle_bit_packed_run_past_the_data_is_corrupt) {
    /* 2 groups at width 8 need 16 bytes; 5 present. */
    static const uint8_t page[] = {0x05, 1, 2, 3, 4, 5};
    dl_error err;
    CHECK_STATUS(decode_all(page, sizeof(page), 8, 16, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "RLE at byte 100: bit-packed run of 16 values at bit width 8 needs 16 "
                          "bytes but only 5 are left");
}

TEST(test_rle_bit_packed_run_missing_only_padding_bytes_decodes) {
    /* One group of 8 at width 8 for 3 values: only the 3 needed bytes present. */
    static const uint8_t page[] = {0x03, 7, 8, 9};
    dl_pq_rle_decoder dec;
    dl_error err;
    uint32_t got[3];
    CHECK_OK(dl_pq_rle_decoder_init(&dec, page, sizeof(page), 8, 3, 0, &err), &err);
    CHECK_OK(dl_pq_rle_decode_u32(&dec, 3, got, &err), &err);
    CHECK_INT_EQ(got[0], 7);
    CHECK_INT_EQ(got[2], 9);
}

TEST(test_rle_value_wider_than_bit_width_is_corrupt) {
    static const uint8_t page[] = {0x10, 0x09};
    dl_error err;
    CHECK_STATUS(decode_all(page, sizeof(page), 3, 8, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "RLE at byte 101: RLE run value 9 does not fit in bit width 3");
}

TEST(test_rle_truncated_inputs_are_corrupt) {
    dl_error err;
    static const uint8_t no_value[] = {0x10};
    CHECK_STATUS(decode_all(no_value, sizeof(no_value), 8, 8, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "the value of an RLE run needs 1 bytes but only 0 are left");
    static const uint8_t cut_header[] = {0x80, 0x80};
    CHECK_STATUS(decode_all(cut_header, sizeof(cut_header), 1, 8, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "run header is cut off");
    static const uint8_t short_data[] = {0x08, 0x01};
    CHECK_STATUS(decode_all(short_data, sizeof(short_data), 1, 10, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "RLE at byte 102: the data ends but 6 more values are expected");
    static const uint8_t huge_varint[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                          0xFF, 0xFF, 0xFF, 0xFF, 0x7F};
    CHECK_STATUS(decode_all(huge_varint, sizeof(huge_varint), 1, 8, &err), DL_ERR_CORRUPT, &err);
}

TEST(test_rle_length_prefix_errors) {
    static const uint8_t page[] = {0x10, 0, 0, 0, 1, 2};
    dl_pq_rle_decoder dec;
    dl_error err;
    size_t used;
    CHECK_STATUS(dl_pq_rle_decoder_init_prefixed(&dec, page, 3, 1, 1, 40, &used, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "RLE at byte 40: the 4-byte length prefix is cut off");
    CHECK_STATUS(dl_pq_rle_decoder_init_prefixed(&dec, page, sizeof(page), 1, 1, 40, &used, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "RLE at byte 40: length prefix 16 exceeds the 2 bytes left");
}

TEST(test_rle_asking_more_than_declared_is_invalid_arg) {
    static const uint8_t page[] = {0x10, 0x01};
    dl_pq_rle_decoder dec;
    dl_error err;
    uint32_t got[9];
    CHECK_OK(dl_pq_rle_decoder_init(&dec, page, sizeof(page), 1, 8, 0, &err), &err);
    CHECK_STATUS(dl_pq_rle_decode_u32(&dec, 9, got, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_STATUS(dl_pq_rle_decoder_init(&dec, page, 2, 33, 8, 0, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_OK(dl_pq_rle_decoder_init(&dec, page, sizeof(page), 9, 8, 0, &err), &err);
    uint8_t got8[8];
    CHECK_STATUS(dl_pq_rle_decode_u8(&dec, 8, got8, &err), DL_ERR_INVALID_ARG, &err);
}

TEST(test_dict_indices_round_trip_and_bounds) {
    static uint32_t idx[3000], got[3000];
    for (int i = 0; i < 3000; i++) {
        idx[i] = (uint32_t)(i % 500 < 100 ? 42 : rng_next() % 1000);
    }
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_OK(dl_pq_dict_indices_encode(idx, 3000, 1000, &buf, &err), &err);
    CHECK_INT_EQ(buf.data[0], 10);
    dl_pq_rle_decoder dec;
    CHECK_OK(dl_pq_dict_indices_init(&dec, buf.data, buf.len, 3000, 0, &err), &err);
    CHECK_OK(dl_pq_rle_decode_indices(&dec, 3000, got, 1000, &err), &err);
    CHECK(memcmp(idx, got, sizeof(idx)) == 0);
    /* The same page against a smaller dictionary. */
    CHECK_OK(dl_pq_dict_indices_init(&dec, buf.data, buf.len, 3000, 0, &err), &err);
    CHECK_STATUS(dl_pq_rle_decode_indices(&dec, 3000, got, 900, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "RLE_DICTIONARY at byte");
    CHECK_ERR_CONTAINS(&err, "is out of range for a dictionary of 900 values");
    CHECK_STATUS(dl_pq_dict_indices_encode(idx, 3000, 900, &buf, &err), DL_ERR_INVALID_ARG, &err);
    /* A one-entry dictionary has bit width 0. */
    dl_buf_reset(&buf);
    uint32_t zeros[20] = {0};
    CHECK_OK(dl_pq_dict_indices_encode(zeros, 20, 1, &buf, &err), &err);
    CHECK_INT_EQ(buf.data[0], 0);
    CHECK_OK(dl_pq_dict_indices_init(&dec, buf.data, buf.len, 20, 0, &err), &err);
    CHECK_OK(dl_pq_rle_decode_indices(&dec, 20, got, 1, &err), &err);
    CHECK_INT_EQ(got[19], 0);
    dl_buf_destroy(&buf);
}

TEST(test_dict_indices_bad_headers_are_corrupt) {
    static const uint8_t wide[] = {33, 0x02, 0, 0, 0, 0};
    dl_pq_rle_decoder dec;
    dl_error err;
    CHECK_STATUS(dl_pq_dict_indices_init(&dec, wide, sizeof(wide), 1, 7, &err), DL_ERR_CORRUPT,
                 &err);
    CHECK_STR_EQ(err.msg, "RLE_DICTIONARY at byte 7: bit width 33 exceeds 32");
    CHECK_STATUS(dl_pq_dict_indices_init(&dec, wide, 0, 5, 7, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "the section is empty but 5 indices are expected");
    CHECK_OK(dl_pq_dict_indices_init(&dec, wide, 0, 0, 7, &err), &err);
    /* Width 2, RLE run of 4 x 3, dictionary of 3 entries. */
    static const uint8_t page[] = {2, 0x08, 0x03};
    uint32_t got[4];
    CHECK_OK(dl_pq_dict_indices_init(&dec, page, sizeof(page), 4, 7, &err), &err);
    CHECK_STATUS(dl_pq_rle_decode_indices(&dec, 4, got, 3, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg,
                 "RLE_DICTIONARY at byte 8: index 3 is out of range for a dictionary of 3 values");
}

TEST(test_dict_gathers) {
    uint32_t d32[4] = {10, 20, 30, 40};
    uint64_t d64[4] = {1, UINT64_MAX, 3, 4};
    dl_str dstr[2] = {DL_STR("a"), DL_STR("bc")};
    uint8_t d12[2 * 12];
    for (int i = 0; i < 24; i++) {
        d12[i] = (uint8_t)i;
    }
    uint32_t idx[5] = {3, 0, 1, 1, 2};
    uint32_t o32[5];
    uint64_t o64[5];
    dl_str ostr[5];
    uint8_t o12[5 * 12];
    dl_pq_dict_gather_u32(d32, idx, 5, o32);
    dl_pq_dict_gather_u64(d64, idx, 5, o64);
    uint32_t idx2[2] = {1, 0};
    dl_pq_dict_gather_str(dstr, idx2, 2, ostr);
    dl_pq_dict_gather_bytes(d12, 12, idx2, 2, o12);
    CHECK_INT_EQ(o32[0], 40);
    CHECK(o64[2] == UINT64_MAX);
    CHECK(dl_str_eq(ostr[1], DL_STR("a")));
    CHECK_INT_EQ(o12[0], 12);
    CHECK_INT_EQ(o12[12], 0);
}

/* Encodings.md "Bit-packed (Deprecated)": 0..7 at width 3 MSB-first: 00000101 00111001 01110111. */
TEST(test_bit_packed_deprecated_spec_example) {
    static const uint8_t page[] = {0x05, 0x39, 0x77};
    uint16_t got[8];
    dl_error err;
    CHECK_OK(dl_pq_bit_packed_decode_u16(page, sizeof(page), 3, 0, 8, got, 0, &err), &err);
    for (int i = 0; i < 8; i++) {
        CHECK_INT_EQ(got[i], i);
    }
    CHECK_OK(dl_pq_bit_packed_decode_u16(page, sizeof(page), 3, 5, 3, got, 0, &err), &err);
    CHECK_INT_EQ(got[0], 5);
    CHECK_INT_EQ(got[2], 7);
    CHECK_STATUS(dl_pq_bit_packed_decode_u16(page, sizeof(page), 3, 0, 9, got, 12, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "BIT_PACKED at byte 12: levels up to 9 at bit width 3 need 4 bytes but "
                          "the section has 3");
}

TEST(test_bit_packed_deprecated_wide_values) {
    /* Width 11: 0x7FF, 0x001, 0x400 MSB-first = 11111111 11100000 00000110 00000000 0 */
    static const uint8_t page[] = {0xFF, 0xE0, 0x06, 0x00, 0x00};
    uint16_t got[3];
    dl_error err;
    CHECK_OK(dl_pq_bit_packed_decode_u16(page, sizeof(page), 11, 0, 3, got, 0, &err), &err);
    CHECK_INT_EQ(got[0], 0x7FF);
    CHECK_INT_EQ(got[1], 0x001);
    CHECK_INT_EQ(got[2], 0x400);
}

int
main(void) {
    RUN(test_rle_round_trip_every_width_size_and_batch);
    RUN(test_rle_u16_and_u8_outputs_with_length_prefix);
    RUN(test_rle_spec_example_bit_packed_run);
    RUN(test_rle_hand_built_runs_decode);
    RUN(test_rle_encoder_picks_rle_runs_for_repeats);
    RUN(test_rle_encoder_rejects_values_wider_than_bit_width);
    RUN(test_rle_run_longer_than_values_left_is_corrupt);
    RUN(test_rle_bit_packed_run_longer_than_values_left_is_corrupt);
    RUN(test_rle_bit_packed_run_past_the_data_is_corrupt);
    RUN(test_rle_bit_packed_run_missing_only_padding_bytes_decodes);
    RUN(test_rle_value_wider_than_bit_width_is_corrupt);
    RUN(test_rle_truncated_inputs_are_corrupt);
    RUN(test_rle_length_prefix_errors);
    RUN(test_rle_asking_more_than_declared_is_invalid_arg);
    RUN(test_dict_indices_round_trip_and_bounds);
    RUN(test_dict_indices_bad_headers_are_corrupt);
    RUN(test_dict_gathers);
    RUN(test_bit_packed_deprecated_spec_example);
    RUN(test_bit_packed_deprecated_wide_values);
    return harness_finish();
}
