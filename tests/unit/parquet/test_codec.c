/* SPDX-License-Identifier: Apache-2.0 */
/* Page compression codecs: round trips, framing variants, and every way a page can lie. */
#include <lz4.h>
#include <lz4frame.h>
#include <stdint.h>
#include <string.h>
#define ZLIB_CONST
#include <zlib.h>

#include "base/alloc.h"
#include "base/buf.h"
#include "harness.h"
#include "parquet/codec/pq_codec.h"

static const int32_t all_codecs[] = {
    DL_PQ_CODEC_UNCOMPRESSED, DL_PQ_CODEC_SNAPPY, DL_PQ_CODEC_GZIP,    DL_PQ_CODEC_BROTLI,
    DL_PQ_CODEC_LZ4,          DL_PQ_CODEC_ZSTD,   DL_PQ_CODEC_LZ4_RAW,
};

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t
rng_next(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Fills p with random bytes, or with compressible text-like bytes when is_compressible. */
static void
fill(uint8_t *p, size_t n, bool is_compressible) {
    static const char words[] = "parquet delta lake column page row group footer ";
    for (size_t i = 0; i < n; i++) {
        p[i] = is_compressible ? (uint8_t)words[(i + (i / 97)) % (sizeof(words) - 1)]
                               : (uint8_t)rng_next();
    }
}

/* Compresses n bytes with codec and checks they come back unchanged. */
static bool
round_trip(dl_pq_codec_ctx *ctx, int32_t codec, int level, size_t n, bool is_compressible) {
    dl_error err;
    dl_buf src, comp;
    dl_buf_init(&src, NULL);
    dl_buf_init(&comp, NULL);
    bool is_ok = false;
    uint8_t *back = NULL;
    if (dl_buf_reserve(&src, n + 1, &err) != DL_OK) {
        goto done;
    }
    fill(src.data, n, is_compressible);
    src.len = n;
    if (dl_buf_append_byte(&comp, 0xAB, &err) != DL_OK) {
        goto done;
    }
    if (dl_pq_codec_compress(ctx, codec, level, src.data, n, &comp, &err) != DL_OK) {
        printf("  compress %s n=%zu: %s\n", dl_pq_codec_name(codec), n, err.msg);
        goto done;
    }
    back = dl_mem_alloc(NULL, n + 1);
    if (dl_pq_codec_decompress(ctx, codec, comp.data + 1, comp.len - 1, back, n, &err) != DL_OK) {
        printf("  decompress %s n=%zu: %s\n", dl_pq_codec_name(codec), n, err.msg);
        goto done;
    }
    is_ok = comp.data[0] == 0xAB && (n == 0 || memcmp(back, src.data, n) == 0);
done:
    dl_mem_free(NULL, back, n + 1);
    dl_buf_destroy(&src);
    dl_buf_destroy(&comp);
    return is_ok;
}

TEST(test_codec_round_trips_every_codec_and_size) {
    static const size_t sizes[] = {0, 1, 7, 100, 4096, 65537, 1 << 20};
    dl_pq_codec_ctx ctx;
    dl_pq_codec_ctx_init(&ctx, NULL);
    for (size_t c = 0; c < DL_ARRAY_LEN(all_codecs); c++) {
        for (size_t s = 0; s < DL_ARRAY_LEN(sizes); s++) {
            for (int comp = 0; comp < 2; comp++) {
                if (!round_trip(&ctx, all_codecs[c], DL_PQ_CODEC_LEVEL_DEFAULT, sizes[s],
                                comp == 1)) {
                    dl_pq_codec_ctx_destroy(&ctx);
                    HARNESS_FAIL_AT("%s size %zu compressible %d", dl_pq_codec_name(all_codecs[c]),
                                    sizes[s], comp);
                    return;
                }
            }
        }
    }
    dl_pq_codec_ctx_destroy(&ctx);
}

TEST(test_codec_levels_round_trip_and_out_of_range_is_invalid_arg) {
    dl_pq_codec_ctx ctx;
    dl_pq_codec_ctx_init(&ctx, NULL);
    CHECK(round_trip(&ctx, DL_PQ_CODEC_ZSTD, 1, 50000, true));
    CHECK(round_trip(&ctx, DL_PQ_CODEC_ZSTD, 19, 50000, true));
    CHECK(round_trip(&ctx, DL_PQ_CODEC_ZSTD, -5, 50000, true));
    CHECK(round_trip(&ctx, DL_PQ_CODEC_GZIP, 0, 50000, true));
    CHECK(round_trip(&ctx, DL_PQ_CODEC_GZIP, 9, 50000, true));
    CHECK(round_trip(&ctx, DL_PQ_CODEC_GZIP, 1, 50000, false));
    CHECK(round_trip(&ctx, DL_PQ_CODEC_BROTLI, 0, 50000, true));
    CHECK(round_trip(&ctx, DL_PQ_CODEC_BROTLI, 11, 5000, true));
    dl_error err;
    dl_buf out;
    dl_buf_init(&out, NULL);
    uint8_t b[4] = {1, 2, 3, 4};
    CHECK_STATUS(dl_pq_codec_compress(&ctx, DL_PQ_CODEC_GZIP, 10, b, 4, &out, &err),
                 DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "GZIP level 10");
    CHECK_STATUS(dl_pq_codec_compress(&ctx, DL_PQ_CODEC_ZSTD, 99, b, 4, &out, &err),
                 DL_ERR_INVALID_ARG, &err);
    CHECK_STATUS(dl_pq_codec_compress(&ctx, DL_PQ_CODEC_BROTLI, 12, b, 4, &out, &err),
                 DL_ERR_INVALID_ARG, &err);
    dl_buf_destroy(&out);
    dl_pq_codec_ctx_destroy(&ctx);
}

/* Compresses a compressible block of n bytes into comp. */
static bool
compress_sample(dl_pq_codec_ctx *ctx, int32_t codec, size_t n, uint8_t *src, dl_buf *comp) {
    dl_error err;
    fill(src, n, true);
    return dl_pq_codec_compress(ctx, codec, DL_PQ_CODEC_LEVEL_DEFAULT, src, n, comp, &err) == DL_OK;
}

TEST(test_codec_wrong_expected_size_is_corrupt_naming_codec_and_sizes) {
    enum {
        N = 5000
    };

    static uint8_t src[N], dst[N + 100];
    dl_pq_codec_ctx ctx;
    dl_pq_codec_ctx_init(&ctx, NULL);
    for (size_t c = 0; c < DL_ARRAY_LEN(all_codecs); c++) {
        int32_t codec = all_codecs[c];
        dl_buf comp;
        dl_buf_init(&comp, NULL);
        CHECK(compress_sample(&ctx, codec, N, src, &comp));
        dl_error err;
        size_t wrong[2] = {N - 1, N + 100};
        for (int w = 0; w < 2; w++) {
            dl_status st =
                dl_pq_codec_decompress(&ctx, codec, comp.data, comp.len, dst, wrong[w], &err);
            if (st != DL_ERR_CORRUPT || strstr(err.msg, dl_pq_codec_name(codec)) == NULL) {
                HARNESS_FAIL_AT("%s expected %zu: %s %s", dl_pq_codec_name(codec), wrong[w],
                                dl_status_name(st), err.msg);
                dl_buf_destroy(&comp);
                dl_pq_codec_ctx_destroy(&ctx);
                return;
            }
            char size_text[32];
            (void)snprintf(size_text, sizeof(size_text), "%zu", wrong[w]);
            if (strstr(err.msg, size_text) == NULL) {
                HARNESS_FAIL_AT("message lacks the expected size: %s", err.msg);
            }
        }
        dl_buf_destroy(&comp);
    }
    dl_pq_codec_ctx_destroy(&ctx);
}

TEST(test_codec_truncated_input_is_corrupt) {
    enum {
        N = 20000
    };

    static uint8_t src[N], dst[N];
    dl_pq_codec_ctx ctx;
    dl_pq_codec_ctx_init(&ctx, NULL);
    for (size_t c = 0; c < DL_ARRAY_LEN(all_codecs); c++) {
        int32_t codec = all_codecs[c];
        dl_buf comp;
        dl_buf_init(&comp, NULL);
        CHECK(compress_sample(&ctx, codec, N, src, &comp));
        size_t cuts[3] = {0, comp.len / 2, comp.len - 1};
        for (int k = 0; k < 3; k++) {
            dl_error err;
            dl_status st = dl_pq_codec_decompress(&ctx, codec, comp.data, cuts[k], dst, N, &err);
            if (st != DL_ERR_CORRUPT || strstr(err.msg, dl_pq_codec_name(codec)) == NULL) {
                HARNESS_FAIL_AT("%s cut to %zu: %s %s", dl_pq_codec_name(codec), cuts[k],
                                dl_status_name(st), err.msg);
            }
        }
        dl_buf_destroy(&comp);
    }
    dl_pq_codec_ctx_destroy(&ctx);
}

TEST(test_codec_garbage_input_is_corrupt) {
    uint8_t garbage[64];
    memset(garbage, 0xFF, sizeof(garbage));
    uint8_t dst[1000];
    dl_pq_codec_ctx ctx;
    dl_pq_codec_ctx_init(&ctx, NULL);
    for (size_t c = 1; c < DL_ARRAY_LEN(all_codecs); c++) {
        dl_error err;
        CHECK_STATUS(dl_pq_codec_decompress(&ctx, all_codecs[c], garbage, sizeof(garbage), dst,
                                            sizeof(dst), &err),
                     DL_ERR_CORRUPT, &err);
        CHECK_ERR_CONTAINS(&err, dl_pq_codec_name(all_codecs[c]));
        CHECK_ERR_CONTAINS(&err, "64 bytes");
    }
    dl_pq_codec_ctx_destroy(&ctx);
}

TEST(test_codec_random_corruption_never_crashes) {
    enum {
        N = 3000
    };

    static uint8_t src[N], dst[N];
    dl_pq_codec_ctx ctx;
    dl_pq_codec_ctx_init(&ctx, NULL);
    for (size_t c = 1; c < DL_ARRAY_LEN(all_codecs); c++) {
        dl_buf comp;
        dl_buf_init(&comp, NULL);
        CHECK(compress_sample(&ctx, all_codecs[c], N, src, &comp));
        for (int trial = 0; trial < 200; trial++) {
            size_t at = (size_t)(rng_next() % comp.len);
            uint8_t saved = comp.data[at];
            comp.data[at] ^= (uint8_t)(1u << (rng_next() % 8));
            dl_error err;
            dl_status st =
                dl_pq_codec_decompress(&ctx, all_codecs[c], comp.data, comp.len, dst, N, &err);
            CHECK(st == DL_OK || st == DL_ERR_CORRUPT);
            comp.data[at] = saved;
        }
        dl_buf_destroy(&comp);
    }
    dl_pq_codec_ctx_destroy(&ctx);
}

TEST(test_codec_lzo_and_unknown_ids_are_unsupported) {
    dl_pq_codec_ctx ctx;
    dl_pq_codec_ctx_init(&ctx, NULL);
    dl_error err;
    uint8_t b[1] = {0};
    CHECK_STATUS(dl_pq_codec_decompress(&ctx, DL_PQ_CODEC_LZO, b, 1, b, 1, &err),
                 DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "LZO");
    CHECK_STATUS(dl_pq_codec_decompress(&ctx, 42, b, 1, b, 1, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "unknown compression codec 42");
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_STATUS(dl_pq_codec_compress(&ctx, -1, 0, b, 1, &out, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "codec -1");
    CHECK(!dl_pq_codec_is_supported(DL_PQ_CODEC_LZO));
    CHECK(dl_pq_codec_is_supported(DL_PQ_CODEC_LZ4_RAW));
    CHECK_STR_EQ(dl_pq_codec_name(DL_PQ_CODEC_LZ4_RAW), "LZ4_RAW");
    CHECK_STR_EQ(dl_pq_codec_name(99), "UNKNOWN");
    dl_pq_codec_ctx_destroy(&ctx);
}

TEST(test_codec_uncompressed_size_mismatch_is_corrupt) {
    dl_pq_codec_ctx ctx;
    dl_pq_codec_ctx_init(&ctx, NULL);
    dl_error err;
    uint8_t b[8] = {0};
    CHECK_STATUS(dl_pq_codec_decompress(&ctx, DL_PQ_CODEC_UNCOMPRESSED, b, 8, b, 7, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "UNCOMPRESSED page has 8 bytes but its header declares 7");
    dl_pq_codec_ctx_destroy(&ctx);
}

/* Appends a gzip member of src to out with zlib directly (windowBits selects the header). */
static bool
zlib_compress(const uint8_t *src, size_t n, int window_bits, dl_buf *out) {
    z_stream zs;
    memset(&zs, 0, sizeof(zs));
    if (deflateInit2(&zs, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        return false;
    }
    dl_error err;
    size_t cap = deflateBound(&zs, (uLong)n);
    bool is_ok = dl_buf_reserve(out, cap, &err) == DL_OK;
    if (is_ok) {
        zs.next_in = src;
        zs.avail_in = (uInt)n;
        zs.next_out = out->data + out->len;
        zs.avail_out = (uInt)cap;
        is_ok = deflate(&zs, Z_FINISH) == Z_STREAM_END;
        out->len += cap - zs.avail_out;
    }
    (void)deflateEnd(&zs);
    return is_ok;
}

TEST(test_gzip_concatenated_members_and_zlib_header_decode) {
    enum {
        N = 10000
    };

    static uint8_t src[N], dst[N];
    fill(src, N, true);
    dl_buf comp;
    dl_buf_init(&comp, NULL);
    CHECK(zlib_compress(src, 3000, 15 + 16, &comp));
    CHECK(zlib_compress(src + 3000, 0, 15 + 16, &comp));
    CHECK(zlib_compress(src + 3000, N - 3000, 15 + 16, &comp));
    dl_pq_codec_ctx ctx;
    dl_pq_codec_ctx_init(&ctx, NULL);
    dl_error err;
    CHECK_OK(dl_pq_codec_decompress(&ctx, DL_PQ_CODEC_GZIP, comp.data, comp.len, dst, N, &err),
             &err);
    CHECK(memcmp(src, dst, N) == 0);
    /* Trailing garbage after the last member. */
    CHECK_OK(dl_buf_append(&comp, "junk", 4, &err), &err);
    CHECK_STATUS(dl_pq_codec_decompress(&ctx, DL_PQ_CODEC_GZIP, comp.data, comp.len, dst, N, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "GZIP");
    dl_buf_reset(&comp);
    CHECK(zlib_compress(src, N, 15, &comp));
    CHECK_OK(dl_pq_codec_decompress(&ctx, DL_PQ_CODEC_GZIP, comp.data, comp.len, dst, N, &err),
             &err);
    CHECK(memcmp(src, dst, N) == 0);
    dl_buf_destroy(&comp);
    dl_pq_codec_ctx_destroy(&ctx);
}

static void
put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Appends a raw LZ4 block of src (optionally preceded by its be32 size) to out. */
static bool
append_lz4_chunk(const uint8_t *src, size_t n, bool with_size, dl_buf *out) {
    dl_error err;
    int cap = LZ4_compressBound((int)n);
    if (dl_buf_reserve(out, (size_t)cap + 4, &err) != DL_OK) {
        return false;
    }
    uint8_t *at = out->data + out->len + (with_size ? 4 : 0);
    int got = LZ4_compress_default((const char *)src, (char *)at, (int)n, cap);
    if (got <= 0) {
        return false;
    }
    if (with_size) {
        put_be32(out->data + out->len, (uint32_t)got);
    }
    out->len += (size_t)got + (with_size ? 4 : 0);
    return true;
}

static bool
append_be32(dl_buf *out, uint32_t v) {
    dl_error err;
    uint8_t b[4];
    put_be32(b, v);
    return dl_buf_append(out, b, 4, &err) == DL_OK;
}

TEST(test_lz4_hadoop_framing_hand_built) {
    enum {
        N = 9000
    };

    static uint8_t src[N], dst[N];
    fill(src, N, true);
    dl_pq_codec_ctx ctx;
    dl_pq_codec_ctx_init(&ctx, NULL);
    dl_error err;
    dl_buf comp;
    dl_buf_init(&comp, NULL);
    /* One block, one chunk. */
    CHECK(append_be32(&comp, N) && append_lz4_chunk(src, N, true, &comp));
    CHECK_OK(dl_pq_codec_decompress(&ctx, DL_PQ_CODEC_LZ4, comp.data, comp.len, dst, N, &err),
             &err);
    CHECK(memcmp(src, dst, N) == 0);
    /* Two blocks, the second of two chunks. */
    dl_buf_reset(&comp);
    memset(dst, 0, N);
    CHECK(append_be32(&comp, 4000) && append_lz4_chunk(src, 4000, true, &comp));
    CHECK(append_be32(&comp, N - 4000) && append_lz4_chunk(src + 4000, 2000, true, &comp));
    CHECK(append_lz4_chunk(src + 6000, N - 6000, true, &comp));
    CHECK_OK(dl_pq_codec_decompress(&ctx, DL_PQ_CODEC_LZ4, comp.data, comp.len, dst, N, &err),
             &err);
    CHECK(memcmp(src, dst, N) == 0);
    /* A bare block (old parquet-cpp). */
    dl_buf_reset(&comp);
    memset(dst, 0, N);
    CHECK(append_lz4_chunk(src, N, false, &comp));
    CHECK_OK(dl_pq_codec_decompress(&ctx, DL_PQ_CODEC_LZ4, comp.data, comp.len, dst, N, &err),
             &err);
    CHECK(memcmp(src, dst, N) == 0);
    dl_buf_destroy(&comp);
    dl_pq_codec_ctx_destroy(&ctx);
}

TEST(test_lz4_frame_format_fallback) {
    enum {
        N = 70000
    };

    static uint8_t src[N], dst[N], frame[N + 1024];
    fill(src, N, true);
    size_t got = LZ4F_compressFrame(frame, sizeof(frame), src, N, NULL);
    CHECK(!LZ4F_isError(got));
    dl_pq_codec_ctx ctx;
    dl_pq_codec_ctx_init(&ctx, NULL);
    dl_error err;
    CHECK_OK(dl_pq_codec_decompress(&ctx, DL_PQ_CODEC_LZ4, frame, got, dst, N, &err), &err);
    CHECK(memcmp(src, dst, N) == 0);
    CHECK_STATUS(dl_pq_codec_decompress(&ctx, DL_PQ_CODEC_LZ4, frame, got - 3, dst, N, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_STATUS(dl_pq_codec_decompress(&ctx, DL_PQ_CODEC_LZ4, frame, got, dst, N - 1, &err),
                 DL_ERR_CORRUPT, &err);
    dl_pq_codec_ctx_destroy(&ctx);
}

TEST(test_lz4_hadoop_bad_framing_is_corrupt) {
    enum {
        N = 1000
    };

    static uint8_t src[N], dst[N];
    fill(src, N, true);
    dl_pq_codec_ctx ctx;
    dl_pq_codec_ctx_init(&ctx, NULL);
    dl_error err;
    dl_buf comp;
    dl_buf_init(&comp, NULL);
    /* The block claims more than the page's size. */
    CHECK(append_be32(&comp, N + 1) && append_lz4_chunk(src, N, true, &comp));
    CHECK_STATUS(dl_pq_codec_decompress(&ctx, DL_PQ_CODEC_LZ4, comp.data, comp.len, dst, N, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "LZ4 page of");
    CHECK_ERR_CONTAINS(&err, "1000 bytes its header declares");
    /* The chunk size runs past the page. */
    dl_buf_reset(&comp);
    CHECK(append_be32(&comp, N) && append_be32(&comp, 5000) &&
          append_lz4_chunk(src, N, false, &comp));
    CHECK_STATUS(dl_pq_codec_decompress(&ctx, DL_PQ_CODEC_LZ4, comp.data, comp.len, dst, N, &err),
                 DL_ERR_CORRUPT, &err);
    dl_buf_destroy(&comp);
    dl_pq_codec_ctx_destroy(&ctx);
}

/* Runs one round trip with the fault allocator failing at request k; true when it either
 * worked or failed cleanly with NOMEM, leaking nothing. */
static bool
fault_round_trip(int32_t codec, int64_t k, bool *out_completed) {
    enum {
        N = 40000
    };

    static uint8_t src[N], dst[N];
    fill(src, N, true);
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, k, true);
    dl_pq_codec_ctx ctx;
    dl_pq_codec_ctx_init(&ctx, &fa.base);
    /* The brotli encoder cannot take a failing allocator (see codec_brotli.c). */
    dl_pq_codec_ctx plain_ctx;
    dl_pq_codec_ctx_init(&plain_ctx, NULL);
    dl_pq_codec_ctx *comp_ctx = codec == DL_PQ_CODEC_BROTLI ? &plain_ctx : &ctx;
    dl_buf comp;
    dl_buf_init(&comp, NULL);
    dl_error err;
    dl_status st =
        dl_pq_codec_compress(comp_ctx, codec, DL_PQ_CODEC_LEVEL_DEFAULT, src, N, &comp, &err);
    dl_pq_codec_ctx_destroy(&plain_ctx);
    if (st == DL_OK) {
        st = dl_pq_codec_decompress(&ctx, codec, comp.data, comp.len, dst, N, &err);
    }
    dl_pq_codec_ctx_destroy(&ctx);
    dl_buf_destroy(&comp);
    *out_completed = st == DL_OK;
    bool is_clean = st == DL_OK ? memcmp(src, dst, N) == 0 : st == DL_ERR_NOMEM;
    if (!is_clean || fa.live_blocks != 0) {
        printf("  %s fail_at %lld: %s %s, %lld blocks leaked\n", dl_pq_codec_name(codec),
               (long long)k, dl_status_name(st), err.msg, (long long)fa.live_blocks);
        return false;
    }
    return true;
}

TEST(test_codec_allocation_failures_are_nomem_without_leaks) {
    static const int32_t codecs[] = {DL_PQ_CODEC_GZIP, DL_PQ_CODEC_ZSTD, DL_PQ_CODEC_BROTLI,
                                     DL_PQ_CODEC_LZ4};
    for (size_t c = 0; c < DL_ARRAY_LEN(codecs); c++) {
        bool is_completed = false;
        for (int64_t k = 1; k < 200 && !is_completed; k++) {
            CHECK(fault_round_trip(codecs[c], k, &is_completed));
        }
        CHECK(is_completed);
    }
}

TEST(test_lz4_frame_allocation_failure_is_nomem) {
    enum {
        N = 5000
    };

    static uint8_t src[N], dst[N], frame[N + 1024];
    fill(src, N, true);
    size_t got = LZ4F_compressFrame(frame, sizeof(frame), src, N, NULL);
    CHECK(!LZ4F_isError(got));
    bool is_completed = false;
    for (int64_t k = 1; k < 50 && !is_completed; k++) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, k, true);
        dl_pq_codec_ctx ctx;
        dl_pq_codec_ctx_init(&ctx, &fa.base);
        dl_error err;
        dl_status st = dl_pq_codec_decompress(&ctx, DL_PQ_CODEC_LZ4, frame, got, dst, N, &err);
        dl_pq_codec_ctx_destroy(&ctx);
        CHECK(st == DL_OK || st == DL_ERR_NOMEM);
        CHECK_INT_EQ(fa.live_blocks, 0);
        is_completed = st == DL_OK;
    }
    CHECK(is_completed);
}

int
main(void) {
    RUN(test_codec_round_trips_every_codec_and_size);
    RUN(test_codec_levels_round_trip_and_out_of_range_is_invalid_arg);
    RUN(test_codec_wrong_expected_size_is_corrupt_naming_codec_and_sizes);
    RUN(test_codec_truncated_input_is_corrupt);
    RUN(test_codec_garbage_input_is_corrupt);
    RUN(test_codec_random_corruption_never_crashes);
    RUN(test_codec_lzo_and_unknown_ids_are_unsupported);
    RUN(test_codec_uncompressed_size_mismatch_is_corrupt);
    RUN(test_gzip_concatenated_members_and_zlib_header_decode);
    RUN(test_lz4_hadoop_framing_hand_built);
    RUN(test_lz4_frame_format_fallback);
    RUN(test_lz4_hadoop_bad_framing_is_corrupt);
    RUN(test_codec_allocation_failures_are_nomem_without_leaks);
    RUN(test_lz4_frame_allocation_failure_is_nomem);
    return harness_finish();
}
