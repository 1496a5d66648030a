/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Codec dispatch: maps a Thrift CompressionCodec id to its library wrapper, and the sized
 * allocation shim the libraries' allocator hooks go through (see pq_codec.h).
 */
#include <string.h>

#include "parquet/codec/pq_codec_int.h"

/* Every block handed to a library starts this many bytes after our allocation, which
 * records its size. 16 keeps the library's pointer 16-byte aligned like malloc's. */
#define LIB_HEADER 16

void
dl_pq_codec_ctx_init(dl_pq_codec_ctx *ctx, const dl_allocator *alloc) {
    memset(ctx, 0, sizeof(*ctx));
    ctx->alloc = alloc;
}

void
dl_pq_codec_ctx_destroy(dl_pq_codec_ctx *ctx) {
    dl_pq_zstd_ctx_destroy(ctx);
    dl_pq_gzip_ctx_destroy(ctx);
}

void *
dl_pq_codec_lib_alloc(void *opaque, size_t size) {
    const dl_pq_codec_ctx *ctx = opaque;
    if (size > SIZE_MAX - LIB_HEADER) {
        return NULL;
    }
    uint8_t *p = dl_mem_alloc(ctx->alloc, size + LIB_HEADER);
    if (p == NULL) {
        return NULL;
    }
    memcpy(p, &size, sizeof(size));
    return p + LIB_HEADER;
}

void
dl_pq_codec_lib_free(void *opaque, void *ptr) {
    const dl_pq_codec_ctx *ctx = opaque;
    if (ptr == NULL) {
        return;
    }
    uint8_t *p = (uint8_t *)ptr - LIB_HEADER;
    size_t size;
    memcpy(&size, p, sizeof(size));
    dl_mem_free(ctx->alloc, p, size + LIB_HEADER);
}

const char *
dl_pq_codec_name(int32_t codec) {
    switch (codec) {
    case DL_PQ_CODEC_UNCOMPRESSED:
        return "UNCOMPRESSED";
    case DL_PQ_CODEC_SNAPPY:
        return "SNAPPY";
    case DL_PQ_CODEC_GZIP:
        return "GZIP";
    case DL_PQ_CODEC_LZO:
        return "LZO";
    case DL_PQ_CODEC_BROTLI:
        return "BROTLI";
    case DL_PQ_CODEC_LZ4:
        return "LZ4";
    case DL_PQ_CODEC_ZSTD:
        return "ZSTD";
    case DL_PQ_CODEC_LZ4_RAW:
        return "LZ4_RAW";
    default:
        return "UNKNOWN";
    }
}

bool
dl_pq_codec_is_supported(int32_t codec) {
    return codec >= DL_PQ_CODEC_UNCOMPRESSED && codec <= DL_PQ_CODEC_LZ4_RAW &&
           codec != DL_PQ_CODEC_LZO;
}

static dl_status
unsupported(int32_t codec, dl_error *err) {
    if (codec == DL_PQ_CODEC_LZO) {
        DL_ERROR_WHERE(err);
        dl_error_set(err, DL_ERR_UNSUPPORTED, "compression codec LZO is not supported");
        dl_error_hint(err, "rewrite the file with SNAPPY, ZSTD or GZIP compression");
        return DL_ERR_UNSUPPORTED;
    }
    DL_FAIL(err, DL_ERR_UNSUPPORTED, "unknown compression codec %d", (int)codec);
}

static dl_status
copy_uncompressed(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len, dl_error *err) {
    DL_CHECK(src_len == dst_len, err, DL_ERR_CORRUPT,
             "UNCOMPRESSED page has %zu bytes but its header declares %zu", src_len, dst_len);
    if (dst_len > 0) {
        memcpy(dst, src, dst_len);
    }
    return DL_OK;
}

dl_status
dl_pq_codec_decompress(dl_pq_codec_ctx *ctx, int32_t codec, const uint8_t *src, size_t src_len,
                       uint8_t *dst, size_t dst_len, dl_error *err) {
    switch (codec) {
    case DL_PQ_CODEC_UNCOMPRESSED:
        return copy_uncompressed(src, src_len, dst, dst_len, err);
    case DL_PQ_CODEC_SNAPPY:
        return dl_pq_snappy_decompress(src, src_len, dst, dst_len, err);
    case DL_PQ_CODEC_GZIP:
        return dl_pq_gzip_decompress(ctx, src, src_len, dst, dst_len, err);
    case DL_PQ_CODEC_BROTLI:
        return dl_pq_brotli_decompress(ctx, src, src_len, dst, dst_len, err);
    case DL_PQ_CODEC_LZ4:
        return dl_pq_lz4_hadoop_decompress(ctx, src, src_len, dst, dst_len, err);
    case DL_PQ_CODEC_ZSTD:
        return dl_pq_zstd_decompress(ctx, src, src_len, dst, dst_len, err);
    case DL_PQ_CODEC_LZ4_RAW:
        return dl_pq_lz4_raw_decompress(src, src_len, dst, dst_len, err);
    default:
        return unsupported(codec, err);
    }
}

dl_status
dl_pq_codec_compress(dl_pq_codec_ctx *ctx, int32_t codec, int level, const uint8_t *src,
                     size_t src_len, dl_buf *out, dl_error *err) {
    switch (codec) {
    case DL_PQ_CODEC_UNCOMPRESSED:
        return dl_buf_append(out, src, src_len, err);
    case DL_PQ_CODEC_SNAPPY:
        return dl_pq_snappy_compress(src, src_len, out, err);
    case DL_PQ_CODEC_GZIP:
        return dl_pq_gzip_compress(ctx, level, src, src_len, out, err);
    case DL_PQ_CODEC_BROTLI:
        return dl_pq_brotli_compress(ctx, level, src, src_len, out, err);
    case DL_PQ_CODEC_LZ4:
        return dl_pq_lz4_hadoop_compress(src, src_len, out, err);
    case DL_PQ_CODEC_ZSTD:
        return dl_pq_zstd_compress(ctx, level, src, src_len, out, err);
    case DL_PQ_CODEC_LZ4_RAW:
        return dl_pq_lz4_raw_compress(src, src_len, out, err);
    default:
        return unsupported(codec, err);
    }
}
