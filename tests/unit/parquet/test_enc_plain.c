/* SPDX-License-Identifier: Apache-2.0 */
/* PLAIN for every physical type, and INT96 timestamps. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/buf.h"
#include "harness.h"
#include "parquet/encoding/pq_encoding.h"

static uint64_t rng_state = 0x452821E638D01377ULL;

static uint64_t
rng_next(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static const size_t sizes[] = {0, 1, 7, 8, 9, 127, 128, 129, 10000};

/* Round-trips n values of width bytes (random bytes, so every bit pattern of floats, NaN
 * payloads and -0.0 included) in batches. */
static bool
fixed_round_trip(size_t width, size_t n, size_t batch) {
    static uint8_t v[10000 * 16], got[10000 * 16];
    for (size_t i = 0; i < n * width; i++) {
        v[i] = (uint8_t)rng_next();
    }
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    bool is_ok = dl_pq_plain_encode_fixed(v, n, width, &buf, &err) == DL_OK && buf.len == n * width;
    dl_pq_plain_decoder dec;
    dl_pq_plain_decoder_init(&dec, buf.data, buf.len, 0);
    for (size_t i = 0; is_ok && i < n; i += batch) {
        size_t k = n - i < batch ? n - i : batch;
        is_ok = dl_pq_plain_decode_fixed(&dec, width, k, got + i * width, &err) == DL_OK;
    }
    is_ok = is_ok && memcmp(v, got, n * width) == 0;
    dl_buf_destroy(&buf);
    return is_ok;
}

TEST(test_plain_fixed_width_types_round_trip) {
    static const size_t widths[] = {4, 8, 12, 1, 3, 16};
    for (size_t w = 0; w < DL_ARRAY_LEN(widths); w++) {
        for (size_t s = 0; s < DL_ARRAY_LEN(sizes); s++) {
            CHECK(fixed_round_trip(widths[w], sizes[s], 1 + sizes[s] / 3));
        }
    }
}

TEST(test_plain_preserves_extreme_values_and_float_bits) {
    int64_t i64[4] = {INT64_MIN, INT64_MAX, -1, 0};
    double d[4] = {-0.0, (double)NAN, (double)INFINITY, -(double)INFINITY};
    uint64_t nan_payload = 0x7FF4000000000123ULL;
    memcpy(&d[1], &nan_payload, 8);
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_OK(dl_pq_plain_encode_fixed(i64, 4, 8, &buf, &err), &err);
    CHECK_OK(dl_pq_plain_encode_fixed(d, 4, 8, &buf, &err), &err);
    CHECK_INT_EQ(buf.data[7], 0x80); /* INT64_MIN little-endian */
    dl_pq_plain_decoder dec;
    dl_pq_plain_decoder_init(&dec, buf.data, buf.len, 0);
    int64_t gi[4];
    double gd[4];
    CHECK_OK(dl_pq_plain_decode_fixed(&dec, 8, 4, gi, &err), &err);
    CHECK_OK(dl_pq_plain_decode_fixed(&dec, 8, 4, gd, &err), &err);
    CHECK(memcmp(gi, i64, sizeof(gi)) == 0);
    /* Bit patterns, not values, must survive (NaN payloads, -0.0). */
    CHECK(memcmp((const void *)gd, (const void *)d, sizeof(gd)) == 0);
    dl_buf_destroy(&buf);
}

TEST(test_plain_view_points_into_the_page) {
    uint8_t page[12] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
    dl_pq_plain_decoder dec;
    dl_pq_plain_decoder_init(&dec, page, sizeof(page), 0);
    const uint8_t *p;
    dl_error err;
    CHECK_OK(dl_pq_plain_skip(&dec, 4, 1, &err), &err);
    CHECK_OK(dl_pq_plain_view_fixed(&dec, 4, 2, &p, &err), &err);
    CHECK(p == page + 4);
    CHECK_STATUS(dl_pq_plain_view_fixed(&dec, 4, 1, &p, &err), DL_ERR_CORRUPT, &err);
}

TEST(test_plain_truncated_fixed_is_corrupt) {
    uint8_t page[10] = {0};
    dl_pq_plain_decoder dec;
    dl_pq_plain_decoder_init(&dec, page, sizeof(page), 200);
    int32_t got[3];
    dl_error err;
    CHECK_OK(dl_pq_plain_decode_fixed(&dec, 4, 2, got, &err), &err);
    CHECK_STATUS(dl_pq_plain_decode_fixed(&dec, 4, 1, got, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "PLAIN at byte 208: 1 more values of 4 bytes (after value 2) do not fit "
                          "in the 2 bytes left");
    CHECK_STATUS(dl_pq_plain_decode_fixed(&dec, SIZE_MAX / 2, 3, got, &err), DL_ERR_CORRUPT, &err);
}

TEST(test_plain_booleans_bit_order_and_round_trip) {
    /* LSB first: 1,0,1,1,0,0,0,0 | 1 → 0x0D 0x01. */
    uint8_t v[9] = {1, 0, 1, 1, 0, 0, 0, 0, 1};
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_OK(dl_pq_plain_encode_bool(v, 9, &buf, &err), &err);
    CHECK_INT_EQ(buf.len, 2);
    CHECK_INT_EQ(buf.data[0], 0x0D);
    CHECK_INT_EQ(buf.data[1], 0x01);
    static uint8_t many[10000], got[10000];
    for (size_t s = 0; s < DL_ARRAY_LEN(sizes); s++) {
        size_t n = sizes[s];
        for (size_t i = 0; i < n; i++) {
            many[i] = (uint8_t)(rng_next() % 2);
        }
        dl_buf_reset(&buf);
        CHECK_OK(dl_pq_plain_encode_bool(many, n, &buf, &err), &err);
        CHECK_INT_EQ(buf.len, (n + 7) / 8);
        dl_pq_plain_decoder dec;
        dl_pq_plain_decoder_init(&dec, buf.data, buf.len, 0);
        size_t i = 0;
        for (size_t k = 1; i < n; k = k * 2 + 1) {
            size_t take = n - i < k ? n - i : k;
            if (k == 3) {
                CHECK_OK(dl_pq_plain_skip_bool(&dec, take, &err), &err);
                memcpy(got + i, many + i, take);
            } else {
                CHECK_OK(dl_pq_plain_decode_bool(&dec, take, got + i, &err), &err);
            }
            i += take;
        }
        CHECK(memcmp(many, got, n) == 0);
        if (n % 8 != 0) {
            uint8_t pad;
            CHECK_STATUS(dl_pq_plain_decode_bool(&dec, 8, &pad, &err), DL_ERR_CORRUPT, &err);
        }
    }
    dl_pq_plain_decoder dec;
    dl_pq_plain_decoder_init(&dec, buf.data, 1, 3);
    uint8_t got9[9];
    CHECK_STATUS(dl_pq_plain_decode_bool(&dec, 9, got9, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "PLAIN at byte 3: BOOLEAN values 0..9 need 9 bits but only 8 are left");
    dl_buf_destroy(&buf);
}

TEST(test_plain_byte_arrays_round_trip) {
    static char text[20000];
    static dl_str v[10000], got[10000];
    for (size_t i = 0; i < sizeof(text); i++) {
        text[i] = (char)rng_next();
    }
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    for (size_t s = 0; s < DL_ARRAY_LEN(sizes); s++) {
        size_t n = sizes[s];
        for (size_t i = 0; i < n; i++) {
            v[i] = dl_str_make(text + rng_next() % 10000, (size_t)(rng_next() % 20));
        }
        dl_buf_reset(&buf);
        CHECK_OK(dl_pq_plain_encode_byte_array(v, n, &buf, &err), &err);
        dl_pq_plain_decoder dec;
        dl_pq_plain_decoder_init(&dec, buf.data, buf.len, 0);
        size_t half = n / 2;
        CHECK_OK(dl_pq_plain_decode_byte_array(&dec, half, got, &err), &err);
        CHECK_OK(dl_pq_plain_skip(&dec, 0, n / 4, &err), &err);
        CHECK_OK(dl_pq_plain_decode_byte_array(&dec, n - half - n / 4, got + half + n / 4, &err),
                 &err);
        for (size_t i = 0; i < n; i++) {
            if (i >= half && i < half + n / 4) {
                continue;
            }
            CHECK(dl_str_eq(got[i], v[i]));
            CHECK((const uint8_t *)got[i].ptr >= buf.data &&
                  (const uint8_t *)got[i].ptr + got[i].len <= buf.data + buf.len);
        }
        CHECK_INT_EQ(dec.pos, buf.len);
    }
    dl_buf_destroy(&buf);
}

TEST(test_plain_byte_array_lengths_past_the_page_are_corrupt) {
    static const uint8_t page[] = {2, 0, 0, 0, 'h', 'i', 9, 0, 0, 0, 'x', 'y', 0xFF, 0xFF};
    dl_pq_plain_decoder dec;
    dl_pq_plain_decoder_init(&dec, page, sizeof(page), 64);
    dl_str got[2];
    dl_error err;
    CHECK_STATUS(dl_pq_plain_decode_byte_array(&dec, 2, got, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg,
                 "PLAIN at byte 70: BYTE_ARRAY value 1 has length 9 but only 4 bytes are left");
    dl_pq_plain_decoder_init(&dec, page, 8, 64);
    CHECK_OK(dl_pq_plain_decode_byte_array(&dec, 1, got, &err), &err);
    CHECK_STATUS(dl_pq_plain_decode_byte_array(&dec, 1, got, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "PLAIN at byte 70: BYTE_ARRAY value 1 needs a 4-byte length but only 2 "
                          "bytes are left");
    dl_pq_plain_decoder_init(&dec, page + 6, 8, 0);
    CHECK_STATUS(dl_pq_plain_skip(&dec, 0, 1, &err), DL_ERR_CORRUPT, &err);
}

TEST(test_plain_byte_array_encoder_rejects_huge_values) {
    dl_str v[1] = {dl_str_make("x", (size_t)INT32_MAX + 1)};
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_STATUS(dl_pq_plain_encode_byte_array(v, 1, &buf, &err), DL_ERR_INVALID_ARG, &err);
    dl_buf_destroy(&buf);
}

static void
int96(uint8_t out[12], int64_t nanos, uint32_t day) {
    memcpy(out, &nanos, 8);
    memcpy(out + 8, &day, 4);
}

TEST(test_int96_converts_known_timestamps) {
    uint8_t v[5 * 12];
    int96(v, 0, 2440588);                   /* 1970-01-01 00:00:00 */
    int96(v + 12, 1500, 2451545);           /* 2000-01-01 00:00:00.0000015 */
    int96(v + 24, 86399999999999, 2440587); /* 1969-12-31 23:59:59.999999999 */
    int96(v + 36, 43200000000000, 2299161); /* 1582-10-15 12:00 (Gregorian start) */
    int96(v + 48, -1, 2440588);             /* 1 ns before the epoch */
    int64_t us[5], ns[5];
    dl_error err;
    CHECK_OK(dl_pq_int96_to_micros(v, 5, us, &err), &err);
    CHECK(us[0] == 0);
    CHECK(us[1] == 946684800000001LL);
    CHECK(us[2] == -1);
    CHECK(us[3] == -12219249600000000LL);
    CHECK(us[4] == -1);
    CHECK_OK(dl_pq_int96_to_nanos(v, 3, ns, &err), &err);
    CHECK(ns[1] == 946684800000001500LL);
    CHECK(ns[2] == -1);
    CHECK_STATUS(dl_pq_int96_to_nanos(v + 36, 1, ns, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "INT96 value 0 (Julian day 2299161");
    uint8_t far[12];
    int96(far, 0, UINT32_MAX);
    CHECK_STATUS(dl_pq_int96_to_micros(far, 1, us, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "outside the range of a timestamp in microseconds");
}

TEST(test_int96_from_micros_round_trips) {
    static const int64_t cases[] = {
        0, 1, -1, 946684800000001LL, -12219249600000000LL, 253402300799999999LL};
    for (size_t i = 0; i < DL_ARRAY_LEN(cases); i++) {
        uint8_t v[12];
        CHECK(dl_pq_int96_from_micros(cases[i], v));
        int64_t nanos;
        memcpy(&nanos, v, 8);
        CHECK(nanos >= 0 && nanos < 86400000000000LL);
        int64_t back;
        dl_error err;
        CHECK_OK(dl_pq_int96_to_micros(v, 1, &back, &err), &err);
        CHECK(back == cases[i]);
    }
    uint8_t v[12];
    CHECK(!dl_pq_int96_from_micros(INT64_MIN, v));
    CHECK(!dl_pq_int96_from_micros(-210866803200000001LL, v));
    CHECK(dl_pq_int96_from_micros(-210866803200000000LL, v));
    CHECK_INT_EQ(v[8] | v[9] | v[10] | v[11], 0);
}

int
main(void) {
    RUN(test_plain_fixed_width_types_round_trip);
    RUN(test_plain_preserves_extreme_values_and_float_bits);
    RUN(test_plain_view_points_into_the_page);
    RUN(test_plain_truncated_fixed_is_corrupt);
    RUN(test_plain_booleans_bit_order_and_round_trip);
    RUN(test_plain_byte_arrays_round_trip);
    RUN(test_plain_byte_array_lengths_past_the_page_are_corrupt);
    RUN(test_plain_byte_array_encoder_rejects_huge_values);
    RUN(test_int96_converts_known_timestamps);
    RUN(test_int96_from_micros_round_trips);
    return harness_finish();
}
