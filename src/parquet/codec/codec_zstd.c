/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ZSTD: a page is one or more Zstandard frames (RFC 8878); ZSTD_decompressDCtx walks them
 * all and skips skippable frames. The contexts are created once per dl_pq_codec_ctx with our
 * allocator (ZSTD_customMem) and reused for every page.
 */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zstd_errors.h>

#include "parquet/codec/pq_codec_int.h"

#define ZSTD_DEFAULT_LEVEL 3

static ZSTD_customMem
custom_mem(dl_pq_codec_ctx *ctx) {
    ZSTD_customMem mem = {dl_pq_codec_lib_alloc, dl_pq_codec_lib_free, ctx};
    return mem;
}

void
dl_pq_zstd_ctx_destroy(dl_pq_codec_ctx *ctx) {
    if (ctx->zstd_dctx != NULL) {
        ZSTD_freeDCtx(ctx->zstd_dctx);
        ctx->zstd_dctx = NULL;
    }
    if (ctx->zstd_cctx != NULL) {
        ZSTD_freeCCtx(ctx->zstd_cctx);
        ctx->zstd_cctx = NULL;
    }
}

dl_status
dl_pq_zstd_decompress(dl_pq_codec_ctx *ctx, const uint8_t *src, size_t src_len, uint8_t *dst,
                      size_t dst_len, dl_error *err) {
    if (ctx->zstd_dctx == NULL) {
        ctx->zstd_dctx = ZSTD_createDCtx_advanced(custom_mem(ctx));
        DL_CHECK(ctx->zstd_dctx != NULL, err, DL_ERR_NOMEM,
                 "out of memory creating a ZSTD decompression context");
    }
    uint8_t empty = 0;
    size_t got =
        ZSTD_decompressDCtx(ctx->zstd_dctx, dst_len > 0 ? dst : &empty, dst_len, src, src_len);
    if (ZSTD_isError(got)) {
        ZSTD_ErrorCode code = ZSTD_getErrorCode(got);
        if (code == ZSTD_error_memory_allocation) {
            DL_FAIL(err, DL_ERR_NOMEM, "out of memory decompressing a ZSTD page");
        }
        if (code == ZSTD_error_dstSize_tooSmall) {
            DL_FAIL(err, DL_ERR_CORRUPT,
                    "ZSTD page of %zu bytes decompresses to more than the %zu bytes its header "
                    "declares",
                    src_len, dst_len);
        }
        DL_FAIL(err, DL_ERR_CORRUPT,
                "ZSTD page of %zu bytes is corrupt (expected %zu bytes uncompressed): %s", src_len,
                dst_len, ZSTD_getErrorName(got));
    }
    DL_CHECK(got == dst_len, err, DL_ERR_CORRUPT,
             "ZSTD page of %zu bytes decompresses to %zu bytes but its header declares %zu",
             src_len, got, dst_len);
    return DL_OK;
}

dl_status
dl_pq_zstd_compress(dl_pq_codec_ctx *ctx, int level, const uint8_t *src, size_t src_len,
                    dl_buf *out, dl_error *err) {
    if (level == DL_PQ_CODEC_LEVEL_DEFAULT) {
        level = ZSTD_DEFAULT_LEVEL;
    }
    DL_CHECK(level >= ZSTD_minCLevel() && level <= ZSTD_maxCLevel(), err, DL_ERR_INVALID_ARG,
             "ZSTD level %d is outside %d..%d", level, ZSTD_minCLevel(), ZSTD_maxCLevel());
    if (ctx->zstd_cctx == NULL) {
        ctx->zstd_cctx = ZSTD_createCCtx_advanced(custom_mem(ctx));
        DL_CHECK(ctx->zstd_cctx != NULL, err, DL_ERR_NOMEM,
                 "out of memory creating a ZSTD compression context");
    }
    size_t cap = ZSTD_compressBound(src_len);
    DL_CHECK(!ZSTD_isError(cap), err, DL_ERR_LIMIT, "ZSTD cannot compress %zu bytes at once",
             src_len);
    DL_TRY(dl_buf_reserve(out, cap, err));
    uint8_t empty = 0;
    size_t got = ZSTD_compressCCtx(ctx->zstd_cctx, out->data + out->len, cap,
                                   src_len > 0 ? src : &empty, src_len, level);
    if (ZSTD_isError(got)) {
        DL_CHECK(ZSTD_getErrorCode(got) != ZSTD_error_memory_allocation, err, DL_ERR_NOMEM,
                 "out of memory compressing a ZSTD page");
        DL_FAIL(err, DL_ERR_INTERNAL, "ZSTD failed to compress %zu bytes: %s", src_len,
                ZSTD_getErrorName(got));
    }
    out->len += got;
    return DL_OK;
}
