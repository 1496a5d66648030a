/* SPDX-License-Identifier: Apache-2.0 */
/* DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY: spec examples, round trips, corruption. */
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "harness.h"
#include "parquet/encoding/pq_encoding.h"

static uint64_t rng_state = 0x082EFA98EC4E6C89ULL;

static uint64_t
rng_next(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static const size_t sizes[] = {0, 1, 7, 8, 9, 127, 128, 129, 1000, 10000};

/* Makes n strings in arena: sorted-ish words sharing prefixes, some empty, some long. */
static dl_str *
make_strings(dl_arena *arena, size_t n) {
    dl_str *v = dl_arena_alloc_array(arena, n == 0 ? 1 : n, sizeof(dl_str));
    char prev[64] = "prefix";
    size_t prev_len = 6;
    for (size_t i = 0; i < n; i++) {
        size_t keep = prev_len == 0 ? 0 : (size_t)(rng_next() % (prev_len + 1));
        size_t add = (size_t)(rng_next() % 12);
        if (rng_next() % 20 == 0) {
            keep = 0;
            add = 0;
        }
        if (keep + add > 60) {
            add = 60 - keep;
        }
        for (size_t j = 0; j < add; j++) {
            prev[keep + j] = (char)('a' + rng_next() % 26);
        }
        prev_len = keep + add;
        char *s = dl_arena_alloc(arena, prev_len + 1);
        memcpy(s, prev, prev_len);
        v[i] = dl_str_make(s, prev_len);
    }
    return v;
}

TEST(test_dlba_spec_example) {
    dl_str v[4] = {DL_STR("Hello"), DL_STR("World"), DL_STR("Foobar"), DL_STR("ABCDEF")};
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_OK(dl_pq_dlba_encode(v, 4, &buf, &err), &err);
    CHECK(buf.len > 22);
    CHECK(memcmp(buf.data + buf.len - 22, "HelloWorldFoobarABCDEF", 22) == 0);
    /* The lengths stream is DeltaEncoding(5, 5, 6, 6). */
    dl_pq_delta_decoder lens;
    int32_t got_lens[4];
    CHECK_OK(dl_pq_delta_decoder_init(&lens, buf.data, buf.len - 22, true, 0, &err), &err);
    CHECK_OK(dl_pq_delta_decode_i32(&lens, 4, got_lens, &err), &err);
    CHECK(got_lens[0] == 5 && got_lens[1] == 5 && got_lens[2] == 6 && got_lens[3] == 6);
    CHECK_INT_EQ(lens.pos, buf.len - 22);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_pq_dlba_decoder dec;
    dl_str got[4];
    CHECK_OK(dl_pq_dlba_decoder_init(&dec, buf.data, buf.len, 4, 0, &arena, &err), &err);
    CHECK_OK(dl_pq_dlba_decode(&dec, 4, got, &err), &err);
    for (int i = 0; i < 4; i++) {
        CHECK(dl_str_eq(got[i], v[i]));
    }
    dl_arena_destroy(&arena);
    dl_buf_destroy(&buf);
}

TEST(test_dba_spec_example) {
    dl_str v[4] = {DL_STR("axis"), DL_STR("axle"), DL_STR("babble"), DL_STR("babyhood")};
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_OK(dl_pq_dba_encode(v, 4, &buf, &err), &err);
    CHECK(memcmp(buf.data + buf.len - 17, "axislebabbleyhood", 17) == 0);
    dl_pq_delta_decoder d;
    int32_t lens[4];
    CHECK_OK(dl_pq_delta_decoder_init(&d, buf.data, buf.len, true, 0, &err), &err);
    CHECK_OK(dl_pq_delta_decode_i32(&d, 4, lens, &err), &err);
    CHECK(lens[0] == 0 && lens[1] == 2 && lens[2] == 0 && lens[3] == 3);
    size_t at = d.pos;
    CHECK_OK(dl_pq_delta_decoder_init(&d, buf.data + at, buf.len - at, true, 0, &err), &err);
    CHECK_OK(dl_pq_delta_decode_i32(&d, 4, lens, &err), &err);
    CHECK(lens[0] == 4 && lens[1] == 2 && lens[2] == 6 && lens[3] == 5);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_pq_dba_decoder dec;
    dl_str got[4];
    CHECK_OK(dl_pq_dba_decoder_init(&dec, buf.data, buf.len, 4, -1, 0, &arena, &err), &err);
    CHECK_OK(dl_pq_dba_decode(&dec, 4, got, NULL, &err), &err);
    for (int i = 0; i < 4; i++) {
        CHECK(dl_str_eq(got[i], v[i]));
    }
    dl_arena_destroy(&arena);
    dl_buf_destroy(&buf);
}

TEST(test_dlba_round_trip_sizes_and_batches) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    static dl_str got[10000];
    for (size_t s = 0; s < DL_ARRAY_LEN(sizes); s++) {
        size_t n = sizes[s];
        dl_str *v = make_strings(&arena, n);
        dl_buf_reset(&buf);
        CHECK_OK(dl_pq_dlba_encode(v, n, &buf, &err), &err);
        dl_pq_dlba_decoder dec;
        CHECK_OK(dl_pq_dlba_decoder_init(&dec, buf.data, buf.len, n, 0, &arena, &err), &err);
        for (size_t i = 0, round = 0; i < n; round++) {
            size_t k = n - i < 33 ? n - i : 33;
            if (round % 4 == 3) {
                CHECK_OK(dl_pq_dlba_skip(&dec, k, &err), &err);
            } else {
                CHECK_OK(dl_pq_dlba_decode(&dec, k, got, &err), &err);
                for (size_t j = 0; j < k; j++) {
                    CHECK(dl_str_eq(got[j], v[i + j]));
                }
            }
            i += k;
        }
        CHECK_STATUS(dl_pq_dlba_decode(&dec, 1, got, &err), DL_ERR_CORRUPT, &err);
    }
    dl_buf_destroy(&buf);
    dl_arena_destroy(&arena);
}

/* Decodes in batches, each into a fresh arena that is destroyed before the next batch, so
 * a previous value kept in a dead arena would be caught by AddressSanitizer. */
static bool
dba_batches(const uint8_t *page, size_t len, const dl_str *v, size_t n, size_t batch,
            dl_arena *page_arena) {
    dl_error err;
    dl_pq_dba_decoder dec;
    if (dl_pq_dba_decoder_init(&dec, page, len, n, -1, 0, page_arena, &err) != DL_OK) {
        printf("  init: %s\n", err.msg);
        return false;
    }
    static dl_str got[256];
    for (size_t i = 0; i < n; i += batch) {
        size_t k = n - i < batch ? n - i : batch;
        dl_arena out;
        dl_arena_init(&out, NULL, 64);
        bool is_ok = dl_pq_dba_decode(&dec, k, got, &out, &err) == DL_OK;
        for (size_t j = 0; is_ok && j < k; j++) {
            is_ok = dl_str_eq(got[j], v[i + j]);
        }
        dl_arena_destroy(&out);
        if (!is_ok) {
            printf("  batch at %zu: %s\n", i, err.msg);
            return false;
        }
    }
    return true;
}

TEST(test_dba_round_trip_sizes_and_batches_with_arena_resets) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    static const size_t batches[] = {1, 3, 64, 256};
    for (size_t s = 0; s < DL_ARRAY_LEN(sizes); s++) {
        size_t n = sizes[s];
        dl_str *v = make_strings(&arena, n);
        dl_buf_reset(&buf);
        CHECK_OK(dl_pq_dba_encode(v, n, &buf, &err), &err);
        for (size_t b = 0; b < DL_ARRAY_LEN(batches); b++) {
            if (!dba_batches(buf.data, buf.len, v, n, batches[b], &arena)) {
                HARNESS_FAIL_AT("n %zu batch %zu", n, batches[b]);
                dl_buf_destroy(&buf);
                dl_arena_destroy(&arena);
                return;
            }
        }
    }
    dl_buf_destroy(&buf);
    dl_arena_destroy(&arena);
}

TEST(test_dba_fixed_len_checks_every_value) {
    dl_str v[3] = {DL_STR("abcd"), DL_STR("abce"), DL_STR("zzzz")};
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_OK(dl_pq_dba_encode(v, 3, &buf, &err), &err);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_pq_dba_decoder dec;
    dl_str got[3];
    CHECK_OK(dl_pq_dba_decoder_init(&dec, buf.data, buf.len, 3, 4, 0, &arena, &err), &err);
    CHECK_OK(dl_pq_dba_decode(&dec, 3, got, NULL, &err), &err);
    CHECK(dl_str_eq(got[1], v[1]));
    CHECK_OK(dl_pq_dba_decoder_init(&dec, buf.data, buf.len, 3, 5, 0, &arena, &err), &err);
    CHECK_STATUS(dl_pq_dba_decode(&dec, 3, got, NULL, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "value 0 has 4 bytes but the column's FIXED_LEN_BYTE_ARRAY length "
                             "is 5");
    dl_arena_destroy(&arena);
    dl_buf_destroy(&buf);
}

/* Builds a DELTA_BYTE_ARRAY page from explicit prefix lengths and suffixes. */
static void
build_dba(dl_buf *buf, const int32_t *prefixes, const dl_str *suffixes, size_t n) {
    dl_error err;
    dl_buf_reset(buf);
    if (dl_pq_delta_encode_i32(prefixes, n, buf, &err) != DL_OK ||
        dl_pq_dlba_encode(suffixes, n, buf, &err) != DL_OK) {
        printf("  build_dba: %s\n", err.msg);
    }
}

TEST(test_dba_bad_prefixes_are_corrupt) {
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    dl_pq_dba_decoder dec;
    dl_str got[3];
    dl_str sfx[3] = {DL_STR("ab"), DL_STR("c"), DL_STR("d")};
    int32_t too_long[3] = {0, 2, 4};
    build_dba(&buf, too_long, sfx, 3);
    CHECK_OK(dl_pq_dba_decoder_init(&dec, buf.data, buf.len, 3, -1, 50, &arena, &err), &err);
    CHECK_STATUS(dl_pq_dba_decode(&dec, 3, got, NULL, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "DELTA_BYTE_ARRAY at byte 50: value 2 has prefix length 4 but the "
                          "previous value has only 3 bytes");
    int32_t first_prefix[3] = {1, 0, 0};
    build_dba(&buf, first_prefix, sfx, 3);
    CHECK_OK(dl_pq_dba_decoder_init(&dec, buf.data, buf.len, 3, -1, 0, &arena, &err), &err);
    CHECK_STATUS(dl_pq_dba_decode(&dec, 1, got, NULL, &err), DL_ERR_CORRUPT, &err);
    int32_t negative[3] = {0, -1, 0};
    build_dba(&buf, negative, sfx, 3);
    CHECK_STATUS(dl_pq_dba_decoder_init(&dec, buf.data, buf.len, 3, -1, 0, &arena, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "value 1 has negative prefix length -1");
    /* Three prefixes, two suffixes. */
    dl_buf_reset(&buf);
    int32_t zeros[3] = {0, 0, 0};
    CHECK_OK(dl_pq_delta_encode_i32(zeros, 3, &buf, &err), &err);
    CHECK_OK(dl_pq_dlba_encode(sfx, 2, &buf, &err), &err);
    CHECK_STATUS(dl_pq_dba_decoder_init(&dec, buf.data, buf.len, 3, -1, 0, &arena, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "3 prefix lengths but 2 suffixes");
    dl_arena_destroy(&arena);
    dl_buf_destroy(&buf);
}

TEST(test_dba_output_limit_stops_a_bomb) {
    enum {
        N = 2000
    };

    static int32_t prefixes[N];
    static dl_str sfx[N];
    static char big[1000];
    memset(big, 'x', sizeof(big));
    sfx[0] = dl_str_make(big, sizeof(big));
    for (int i = 1; i < N; i++) {
        prefixes[i] = 1000;
        sfx[i] = DL_STR("y");
    }
    prefixes[0] = 0;
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    build_dba(&buf, prefixes, sfx, N);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_pq_dba_decoder dec;
    dl_error err;
    static dl_str got[N];
    CHECK_OK(dl_pq_dba_decoder_init(&dec, buf.data, buf.len, N, -1, 0, &arena, &err), &err);
    dec.output_limit = 100000;
    CHECK_STATUS(dl_pq_dba_decode(&dec, N, got, NULL, &err), DL_ERR_LIMIT, &err);
    CHECK_ERR_CONTAINS(&err, "past 100000 bytes");
    dl_arena_destroy(&arena);
    dl_buf_destroy(&buf);
}

TEST(test_dlba_bad_lengths_are_corrupt) {
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    dl_pq_dlba_decoder dec;
    int32_t lens[3] = {2, -5, 1};
    CHECK_OK(dl_pq_delta_encode_i32(lens, 3, &buf, &err), &err);
    CHECK_OK(dl_buf_append(&buf, "abcdefgh", 8, &err), &err);
    CHECK_STATUS(dl_pq_dlba_decoder_init(&dec, buf.data, buf.len, 3, 10, &arena, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "DELTA_LENGTH_BYTE_ARRAY at byte 10: value 1 has negative length -5");
    dl_buf_reset(&buf);
    int32_t long_lens[3] = {2, 5, 4};
    CHECK_OK(dl_pq_delta_encode_i32(long_lens, 3, &buf, &err), &err);
    size_t header = buf.len;
    CHECK_OK(dl_buf_append(&buf, "abcdefgh", 8, &err), &err);
    CHECK_STATUS(dl_pq_dlba_decoder_init(&dec, buf.data, buf.len, 3, 10, &arena, &err),
                 DL_ERR_CORRUPT, &err);
    char expect[160];
    (void)snprintf(
        expect, sizeof(expect),
        "DELTA_LENGTH_BYTE_ARRAY at byte %zu: the 3 values' lengths add up to 11 bytes but "
        "only 8 follow",
        10 + header);
    CHECK_STR_EQ(err.msg, expect);
    CHECK_STATUS(dl_pq_dlba_decoder_init(&dec, buf.data, buf.len, 2, 10, &arena, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "the lengths' header declares 3 values but the page holds 2");
    /* A broken length stream keeps the encoding's context. */
    static const uint8_t bad[] = {0x08, 0x01, 0x01, 0x00};
    CHECK_STATUS(dl_pq_dlba_decoder_init(&dec, bad, sizeof(bad), 5, 10, &arena, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "DELTA_LENGTH_BYTE_ARRAY lengths: DELTA_BINARY_PACKED at byte 10");
    dl_arena_destroy(&arena);
    dl_buf_destroy(&buf);
}

TEST(test_dlba_encoders_reject_huge_values) {
    dl_str v[1] = {dl_str_make("x", (size_t)INT32_MAX + 1)};
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_STATUS(dl_pq_dlba_encode(v, 1, &buf, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_STATUS(dl_pq_dba_encode(v, 1, &buf, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_INT_EQ(buf.len, 0);
    dl_buf_destroy(&buf);
}

TEST(test_dlba_allocation_failure_is_nomem) {
    dl_str v[3] = {DL_STR("a"), DL_STR("b"), DL_STR("c")};
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    CHECK_OK(dl_pq_dlba_encode(v, 3, &buf, &err), &err);
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, 1, true);
    dl_arena arena;
    dl_arena_init(&arena, &fa.base, 0);
    dl_pq_dlba_decoder dec;
    CHECK_STATUS(dl_pq_dlba_decoder_init(&dec, buf.data, buf.len, 3, 0, &arena, &err), DL_ERR_NOMEM,
                 &err);
    dl_arena_destroy(&arena);
    CHECK_INT_EQ(fa.live_blocks, 0);
    dl_buf_destroy(&buf);
}

int
main(void) {
    RUN(test_dlba_spec_example);
    RUN(test_dba_spec_example);
    RUN(test_dlba_round_trip_sizes_and_batches);
    RUN(test_dba_round_trip_sizes_and_batches_with_arena_resets);
    RUN(test_dba_fixed_len_checks_every_value);
    RUN(test_dba_bad_prefixes_are_corrupt);
    RUN(test_dba_output_limit_stops_a_bomb);
    RUN(test_dlba_bad_lengths_are_corrupt);
    RUN(test_dlba_encoders_reject_huge_values);
    RUN(test_dlba_allocation_failure_is_nomem);
    return harness_finish();
}
