/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GZIP: a page is an RFC 1952 gzip member. Compression.md asks readers to accept several
 * concatenated members, so after each member ends the stream is reset and the next one
 * decoded into the rest of the output. inflate is set up with windowBits 15 + 32, which also
 * detects an RFC 1950 zlib header, as some early writers produced. Bytes left after the last
 * member that are not another member are CORRUPT.
 *
 * zlib's allocations go through zalloc/zfree to the context's allocator; the z_streams
 * themselves are allocated from it too and kept for later pages (inflateReset is cheap).
 */
#include <limits.h>
#include <string.h>
#define ZLIB_CONST
#include <zlib.h>

#include "parquet/codec/pq_codec_int.h"

#define GZIP_DEFAULT_LEVEL 6
#define WINDOW_AUTO_DETECT (15 + 32)
#define WINDOW_GZIP        (15 + 16)

static voidpf
zlib_alloc(voidpf opaque, uInt items, uInt size) {
    return dl_pq_codec_lib_alloc(opaque, (size_t)items * size);
}

static void
zlib_free(voidpf opaque, voidpf ptr) {
    dl_pq_codec_lib_free(opaque, ptr);
}

static z_stream *
new_stream(dl_pq_codec_ctx *ctx) {
    z_stream *zs = dl_mem_alloc_zero(ctx->alloc, sizeof(z_stream));
    if (zs != NULL) {
        zs->zalloc = zlib_alloc;
        zs->zfree = zlib_free;
        zs->opaque = ctx;
    }
    return zs;
}

void
dl_pq_gzip_ctx_destroy(dl_pq_codec_ctx *ctx) {
    if (ctx->inflate != NULL) {
        (void)inflateEnd(ctx->inflate);
        dl_mem_free(ctx->alloc, ctx->inflate, sizeof(z_stream));
        ctx->inflate = NULL;
    }
    if (ctx->deflate != NULL) {
        (void)deflateEnd(ctx->deflate);
        dl_mem_free(ctx->alloc, ctx->deflate, sizeof(z_stream));
        ctx->deflate = NULL;
    }
}

static dl_status
get_inflate(dl_pq_codec_ctx *ctx, z_stream **out_zs, dl_error *err) {
    z_stream *zs = ctx->inflate;
    if (zs != NULL) {
        DL_CHECK(inflateReset(zs) == Z_OK, err, DL_ERR_INTERNAL, "zlib inflateReset failed");
        *out_zs = zs;
        return DL_OK;
    }
    zs = new_stream(ctx);
    DL_CHECK(zs != NULL, err, DL_ERR_NOMEM, "out of memory creating a GZIP decoder");
    if (inflateInit2(zs, WINDOW_AUTO_DETECT) != Z_OK) {
        dl_mem_free(ctx->alloc, zs, sizeof(z_stream));
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory creating a GZIP decoder");
    }
    ctx->inflate = zs;
    *out_zs = zs;
    return DL_OK;
}

/* Prepares zs for the next concatenated member. */
static dl_status
next_member(z_stream *zs, dl_error *err) {
    DL_CHECK(inflateReset(zs) == Z_OK, err, DL_ERR_INTERNAL, "zlib inflateReset failed");
    return DL_OK;
}

/* Explains a failed inflate call. */
static dl_status
inflate_error(const z_stream *zs, int ret, size_t src_len, size_t dst_len, dl_error *err) {
    if (ret == Z_MEM_ERROR) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory decompressing a GZIP page");
    }
    if (ret == Z_BUF_ERROR && zs->avail_out == 0) {
        DL_FAIL(err, DL_ERR_CORRUPT,
                "GZIP page of %zu bytes decompresses to more than the %zu bytes its header "
                "declares",
                src_len, dst_len);
    }
    if (ret == Z_BUF_ERROR) {
        DL_FAIL(err, DL_ERR_CORRUPT,
                "GZIP page of %zu bytes is truncated: it ends after %zu of the %zu bytes its "
                "header declares",
                src_len, dst_len - zs->avail_out, dst_len);
    }
    DL_FAIL(err, DL_ERR_CORRUPT,
            "GZIP page of %zu bytes is corrupt at byte %zu (expected %zu bytes uncompressed): %s",
            src_len, src_len - zs->avail_in, dst_len, zs->msg ? zs->msg : "invalid data");
}

dl_status
dl_pq_gzip_decompress(dl_pq_codec_ctx *ctx, const uint8_t *src, size_t src_len, uint8_t *dst,
                      size_t dst_len, dl_error *err) {
    DL_CHECK(src_len <= UINT_MAX && dst_len <= UINT_MAX, err, DL_ERR_LIMIT,
             "GZIP page of %zu bytes (%zu uncompressed) exceeds zlib's 4 GiB limit", src_len,
             dst_len);
    z_stream *zs;
    DL_TRY(get_inflate(ctx, &zs, err));
    uint8_t empty = 0;
    zs->next_in = src;
    zs->avail_in = (uInt)src_len;
    zs->next_out = dst_len > 0 ? dst : &empty;
    zs->avail_out = (uInt)dst_len;
    for (;;) {
        uInt in_before = zs->avail_in;
        uInt out_before = zs->avail_out;
        int ret = inflate(zs, Z_FINISH);
        if (ret == Z_STREAM_END && zs->avail_in == 0) {
            break;
        }
        if (ret == Z_STREAM_END) {
            DL_TRY(next_member(zs, err));
            continue;
        }
        bool is_stuck = zs->avail_in == in_before && zs->avail_out == out_before;
        if (ret != Z_OK || is_stuck) {
            return inflate_error(zs, ret == Z_OK ? Z_BUF_ERROR : ret, src_len, dst_len, err);
        }
    }
    DL_CHECK(zs->avail_out == 0, err, DL_ERR_CORRUPT,
             "GZIP page of %zu bytes decompresses to %zu bytes but its header declares %zu",
             src_len, dst_len - zs->avail_out, dst_len);
    return DL_OK;
}

static dl_status
get_deflate(dl_pq_codec_ctx *ctx, int level, z_stream **out_zs, dl_error *err) {
    z_stream *zs = ctx->deflate;
    if (zs != NULL && ctx->deflate_level == level) {
        DL_CHECK(deflateReset(zs) == Z_OK, err, DL_ERR_INTERNAL, "zlib deflateReset failed");
        *out_zs = zs;
        return DL_OK;
    }
    if (zs != NULL) {
        (void)deflateEnd(zs);
        dl_mem_free(ctx->alloc, zs, sizeof(z_stream));
        ctx->deflate = NULL;
    }
    zs = new_stream(ctx);
    DL_CHECK(zs != NULL, err, DL_ERR_NOMEM, "out of memory creating a GZIP encoder");
    if (deflateInit2(zs, level, Z_DEFLATED, WINDOW_GZIP, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        dl_mem_free(ctx->alloc, zs, sizeof(z_stream));
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory creating a GZIP encoder");
    }
    ctx->deflate = zs;
    ctx->deflate_level = level;
    *out_zs = zs;
    return DL_OK;
}

dl_status
dl_pq_gzip_compress(dl_pq_codec_ctx *ctx, int level, const uint8_t *src, size_t src_len,
                    dl_buf *out, dl_error *err) {
    if (level == DL_PQ_CODEC_LEVEL_DEFAULT) {
        level = GZIP_DEFAULT_LEVEL;
    }
    DL_CHECK(level >= 0 && level <= 9, err, DL_ERR_INVALID_ARG, "GZIP level %d is outside 0..9",
             level);
    DL_CHECK(src_len <= UINT_MAX / 2, err, DL_ERR_LIMIT,
             "GZIP cannot compress %zu bytes at once (limit 2 GiB)", src_len);
    z_stream *zs;
    DL_TRY(get_deflate(ctx, level, &zs, err));
    size_t cap = deflateBound(zs, (uLong)src_len);
    DL_TRY(dl_buf_reserve(out, cap, err));
    uint8_t empty = 0;
    zs->next_in = src_len > 0 ? src : &empty;
    zs->avail_in = (uInt)src_len;
    zs->next_out = out->data + out->len;
    zs->avail_out = (uInt)cap;
    int ret = deflate(zs, Z_FINISH);
    DL_CHECK(ret != Z_MEM_ERROR, err, DL_ERR_NOMEM, "out of memory compressing a GZIP page");
    DL_CHECK(ret == Z_STREAM_END, err, DL_ERR_INTERNAL, "zlib deflate failed (%d) on %zu bytes",
             ret, src_len);
    out->len += cap - zs->avail_out;
    return DL_OK;
}
