/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private interface between the codec dispatcher (codec.c) and the per-library wrappers
 * (codec_<name>.c). Each wrapper's decompress assumes: dst_len is the exact expected size,
 * and src/dst are valid for their lengths (dst may be NULL when dst_len is 0). Each
 * compress appends to out.
 */
#ifndef DL_PQ_CODEC_INT_H
#define DL_PQ_CODEC_INT_H

#include "parquet/codec/pq_codec.h"

/*
 * Allocation for libraries whose free callback is not told the size (zstd, zlib, brotli,
 * lz4frame): each block carries a 16-byte header recording its size, so the dl_allocator
 * seam, which wants sizes on free, still sees balanced calls. opaque is the dl_pq_codec_ctx.
 */
void *dl_pq_codec_lib_alloc(void *opaque, size_t size);
void dl_pq_codec_lib_free(void *opaque, void *ptr);

DL_NODISCARD dl_status dl_pq_snappy_decompress(const uint8_t *src, size_t src_len, uint8_t *dst,
                                               size_t dst_len, dl_error *err);
DL_NODISCARD dl_status dl_pq_snappy_compress(const uint8_t *src, size_t src_len, dl_buf *out,
                                             dl_error *err);

DL_NODISCARD dl_status dl_pq_gzip_decompress(dl_pq_codec_ctx *ctx, const uint8_t *src,
                                             size_t src_len, uint8_t *dst, size_t dst_len,
                                             dl_error *err);
DL_NODISCARD dl_status dl_pq_gzip_compress(dl_pq_codec_ctx *ctx, int level, const uint8_t *src,
                                           size_t src_len, dl_buf *out, dl_error *err);
void dl_pq_gzip_ctx_destroy(dl_pq_codec_ctx *ctx);

DL_NODISCARD dl_status dl_pq_zstd_decompress(dl_pq_codec_ctx *ctx, const uint8_t *src,
                                             size_t src_len, uint8_t *dst, size_t dst_len,
                                             dl_error *err);
DL_NODISCARD dl_status dl_pq_zstd_compress(dl_pq_codec_ctx *ctx, int level, const uint8_t *src,
                                           size_t src_len, dl_buf *out, dl_error *err);
void dl_pq_zstd_ctx_destroy(dl_pq_codec_ctx *ctx);

DL_NODISCARD dl_status dl_pq_lz4_raw_decompress(const uint8_t *src, size_t src_len, uint8_t *dst,
                                                size_t dst_len, dl_error *err);
DL_NODISCARD dl_status dl_pq_lz4_raw_compress(const uint8_t *src, size_t src_len, dl_buf *out,
                                              dl_error *err);
DL_NODISCARD dl_status dl_pq_lz4_hadoop_decompress(dl_pq_codec_ctx *ctx, const uint8_t *src,
                                                   size_t src_len, uint8_t *dst, size_t dst_len,
                                                   dl_error *err);
DL_NODISCARD dl_status dl_pq_lz4_hadoop_compress(const uint8_t *src, size_t src_len, dl_buf *out,
                                                 dl_error *err);

DL_NODISCARD dl_status dl_pq_brotli_decompress(dl_pq_codec_ctx *ctx, const uint8_t *src,
                                               size_t src_len, uint8_t *dst, size_t dst_len,
                                               dl_error *err);
DL_NODISCARD dl_status dl_pq_brotli_compress(dl_pq_codec_ctx *ctx, int level, const uint8_t *src,
                                             size_t src_len, dl_buf *out, dl_error *err);

#endif /* DL_PQ_CODEC_INT_H */
