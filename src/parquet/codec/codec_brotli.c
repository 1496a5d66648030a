/* SPDX-License-Identifier: Apache-2.0 */
/*
 * BROTLI: a page is one RFC 7932 stream. Decoder and encoder instances are created per page
 * (their state is small; the ring buffer they allocate while working is what costs, and it
 * is sized by the stream either way).
 *
 * The decoder allocates through our allocator and reports a failed allocation as an error.
 * The encoder does not: brotli 1.0.9's encoder calls exit() when its allocator returns NULL
 * (enc/memory.c), so a failing dl_allocator would turn NOMEM into the end of the process. It
 * uses libc malloc instead, where that can only happen when the system is out of memory.
 */
#include <brotli/decode.h>
#include <brotli/encode.h>

#include "parquet/codec/pq_codec_int.h"

#define BROTLI_LEVEL_DEFAULT 8

static void *
brotli_alloc(void *opaque, size_t size) {
    return dl_pq_codec_lib_alloc(opaque, size);
}

static void
brotli_free(void *opaque, void *ptr) {
    dl_pq_codec_lib_free(opaque, ptr);
}

dl_status
dl_pq_brotli_decompress(dl_pq_codec_ctx *ctx, const uint8_t *src, size_t src_len, uint8_t *dst,
                        size_t dst_len, dl_error *err) {
    BrotliDecoderState *st = BrotliDecoderCreateInstance(brotli_alloc, brotli_free, ctx);
    DL_CHECK(st != NULL, err, DL_ERR_NOMEM, "out of memory creating a BROTLI decoder");
    size_t avail_in = src_len;
    const uint8_t *next_in = src;
    size_t avail_out = dst_len;
    uint8_t *next_out = dst;
    BrotliDecoderResult res =
        BrotliDecoderDecompressStream(st, &avail_in, &next_in, &avail_out, &next_out, NULL);
    BrotliDecoderErrorCode code = BrotliDecoderGetErrorCode(st);
    bool has_more =
        res == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT || BrotliDecoderHasMoreOutput(st);
    BrotliDecoderDestroyInstance(st);
    size_t got = dst_len - avail_out;
    if (res == BROTLI_DECODER_RESULT_SUCCESS && avail_in == 0 && got == dst_len) {
        return DL_OK;
    }
    if (res == BROTLI_DECODER_RESULT_ERROR && code <= BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES &&
        code >= BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory decompressing a BROTLI page");
    }
    if (has_more) {
        DL_FAIL(err, DL_ERR_CORRUPT,
                "BROTLI page of %zu bytes decompresses to more than the %zu bytes its header "
                "declares",
                src_len, dst_len);
    }
    if (res == BROTLI_DECODER_RESULT_ERROR) {
        DL_FAIL(err, DL_ERR_CORRUPT,
                "BROTLI page of %zu bytes is corrupt at byte %zu (expected %zu bytes "
                "uncompressed): %s",
                src_len, src_len - avail_in, dst_len, BrotliDecoderErrorString(code));
    }
    if (res == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) {
        DL_FAIL(err, DL_ERR_CORRUPT,
                "BROTLI page of %zu bytes is truncated: it ends after %zu of the %zu bytes its "
                "header declares",
                src_len, got, dst_len);
    }
    DL_CHECK(avail_in == 0, err, DL_ERR_CORRUPT,
             "BROTLI page of %zu bytes has %zu bytes after the end of its stream", src_len,
             avail_in);
    DL_FAIL(err, DL_ERR_CORRUPT,
            "BROTLI page of %zu bytes decompresses to %zu bytes but its header declares %zu",
            src_len, got, dst_len);
}

dl_status
dl_pq_brotli_compress(dl_pq_codec_ctx *ctx, int level, const uint8_t *src, size_t src_len,
                      dl_buf *out, dl_error *err) {
    if (level == DL_PQ_CODEC_LEVEL_DEFAULT) {
        level = BROTLI_LEVEL_DEFAULT;
    }
    DL_CHECK(level >= BROTLI_MIN_QUALITY && level <= BROTLI_MAX_QUALITY, err, DL_ERR_INVALID_ARG,
             "BROTLI level %d is outside %d..%d", level, BROTLI_MIN_QUALITY, BROTLI_MAX_QUALITY);
    size_t cap = BrotliEncoderMaxCompressedSize(src_len);
    DL_CHECK(cap != 0 || src_len == 0, err, DL_ERR_LIMIT,
             "BROTLI cannot compress %zu bytes at once", src_len);
    if (cap < 16) {
        cap = 16;
    }
    DL_TRY(dl_buf_reserve(out, cap, err));
    DL_UNUSED(ctx);
    BrotliEncoderState *st = BrotliEncoderCreateInstance(NULL, NULL, NULL);
    DL_CHECK(st != NULL, err, DL_ERR_NOMEM, "out of memory creating a BROTLI encoder");
    (void)BrotliEncoderSetParameter(st, BROTLI_PARAM_QUALITY, (uint32_t)level);
    (void)BrotliEncoderSetParameter(st, BROTLI_PARAM_SIZE_HINT,
                                    src_len > UINT32_MAX ? UINT32_MAX : (uint32_t)src_len);
    size_t avail_in = src_len;
    const uint8_t *next_in = src;
    size_t avail_out = cap;
    uint8_t *next_out = out->data + out->len;
    BROTLI_BOOL is_ok = BrotliEncoderCompressStream(st, BROTLI_OPERATION_FINISH, &avail_in,
                                                    &next_in, &avail_out, &next_out, NULL);
    bool is_done = is_ok && BrotliEncoderIsFinished(st);
    BrotliEncoderDestroyInstance(st);
    DL_CHECK(is_done, err, DL_ERR_NOMEM, "BROTLI failed to compress %zu bytes (out of memory)",
             src_len);
    out->len += cap - avail_out;
    return DL_OK;
}
