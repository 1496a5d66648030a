/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Page compression codecs (parquet-format Compression.md).
 *
 * Parquet compresses each (data or dictionary) page body on its own. The page header carries
 * both sizes, so decompression always knows the exact uncompressed size it must produce:
 * anything else is a CORRUPT page. The codec ids are the Thrift CompressionCodec values, so
 * a column chunk's `codec` field can be passed through unchanged.
 *
 *   UNCOMPRESSED  bytes as they are
 *   SNAPPY        one raw Snappy block (no framing)
 *   GZIP          RFC 1952 gzip; several concatenated members are accepted, and so is a
 *                 zlib (RFC 1950) stream, which some old writers produced
 *   LZO           not supported (no Debian library; no current writer produces it)
 *   BROTLI        one RFC 7932 stream
 *   LZ4           deprecated: Hadoop's framing, a sequence of blocks each made of a
 *                 big-endian u32 uncompressed size, then one or more chunks of a big-endian
 *                 u32 compressed size and that many bytes of raw LZ4 block. Old parquet-cpp
 *                 wrote a bare LZ4 block and some writers an LZ4 frame under this id, so the
 *                 decoder falls back to those, as parquet-mr and Arrow do.
 *   ZSTD          one or more Zstandard frames
 *   LZ4_RAW       one raw LZ4 block
 *
 * Memory: zstd, zlib, the brotli decoder and the LZ4 frame decoder allocate through the
 * context's dl_allocator (their custom-allocator hooks). Snappy and raw LZ4 blocks do not
 * allocate when decompressing. Two compressors cannot use the seam: Snappy's allocates its
 * working memory with C++ new (its C API has no hook), and brotli 1.0.9's encoder calls
 * exit() when its allocator fails, so it is left on libc malloc (codec_brotli.c).
 */
#ifndef DL_PQ_CODEC_H
#define DL_PQ_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/buf.h"
#include "base/error.h"

/* Thrift CompressionCodec values (parquet.thrift). */
typedef enum dl_pq_codec {
    DL_PQ_CODEC_UNCOMPRESSED = 0,
    DL_PQ_CODEC_SNAPPY = 1,
    DL_PQ_CODEC_GZIP = 2,
    DL_PQ_CODEC_LZO = 3,
    DL_PQ_CODEC_BROTLI = 4,
    DL_PQ_CODEC_LZ4 = 5,
    DL_PQ_CODEC_ZSTD = 6,
    DL_PQ_CODEC_LZ4_RAW = 7,
} dl_pq_codec;

/* Pass as `level` for the codec's default: zstd 3, gzip 6, brotli 8. Levels are ignored by
 * SNAPPY, LZ4 and LZ4_RAW. */
#define DL_PQ_CODEC_LEVEL_DEFAULT INT32_MIN

/*
 * Reusable library state (zstd and zlib contexts), created lazily on first use and kept for
 * later pages. One context serves one thread at a time. The libraries hold a pointer to the
 * context, so it must stay at the same address from first use until dl_pq_codec_ctx_destroy.
 */
typedef struct dl_pq_codec_ctx {
    const dl_allocator *alloc; /* where library state comes from; NULL = libc */
    void *zstd_dctx;           /* ZSTD_DCtx *, or NULL */
    void *zstd_cctx;           /* ZSTD_CCtx *, or NULL */
    void *inflate;             /* z_stream * set up for inflate, or NULL */
    void *deflate;             /* z_stream * set up for deflate, or NULL */
    int deflate_level;         /* the level `deflate` was set up with */
} dl_pq_codec_ctx;

/* Initialises an empty context. No allocation. */
void dl_pq_codec_ctx_init(dl_pq_codec_ctx *ctx, const dl_allocator *alloc);

/* Releases every library state the context holds. It may be initialised again. */
void dl_pq_codec_ctx_destroy(dl_pq_codec_ctx *ctx);

/* The codec's Parquet name ("SNAPPY", "LZ4_RAW", ...), or "UNKNOWN". Never NULL. */
const char *dl_pq_codec_name(int32_t codec);

/* True when this build can decompress and compress codec. */
bool dl_pq_codec_is_supported(int32_t codec);

/*
 * Decompresses src[0, src_len) into exactly dst_len bytes at dst.
 * Errors: CORRUPT (naming the codec and both sizes) when src is not valid for the codec or
 * does not produce exactly dst_len bytes; UNSUPPORTED naming the codec for LZO and unknown
 * ids; LIMIT when a size exceeds what the library's API takes (2 GiB for LZ4, 4 GiB for
 * zlib); NOMEM. dst may be NULL when dst_len is 0. On failure dst's contents are undefined.
 */
DL_NODISCARD dl_status dl_pq_codec_decompress(dl_pq_codec_ctx *ctx, int32_t codec,
                                              const uint8_t *src, size_t src_len, uint8_t *dst,
                                              size_t dst_len, dl_error *err);

/*
 * Compresses src[0, src_len) and appends the result to out (out->len grows by the
 * compressed size; earlier bytes are kept). LZ4 output uses Hadoop's framing (what
 * parquet-mr reads). level: DL_PQ_CODEC_LEVEL_DEFAULT or the library's own scale (zstd
 * ZSTD_minCLevel()..22, gzip 0..9, brotli 0..11); out of range is INVALID_ARG.
 * Errors: UNSUPPORTED for LZO and unknown ids; INVALID_ARG; LIMIT; NOMEM.
 */
DL_NODISCARD dl_status dl_pq_codec_compress(dl_pq_codec_ctx *ctx, int32_t codec, int level,
                                            const uint8_t *src, size_t src_len, dl_buf *out,
                                            dl_error *err);

#endif /* DL_PQ_CODEC_H */
