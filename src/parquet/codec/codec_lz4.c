/* SPDX-License-Identifier: Apache-2.0 */
/*
 * LZ4_RAW and the deprecated LZ4 codec.
 *
 * LZ4_RAW: one LZ4 block (lz4_Block_format.md), nothing else.
 *
 * LZ4 (deprecated, Compression.md): parquet-mr wrote Hadoop's BlockCompressorStream
 * framing, a sequence of
 *     block := be32 uncompressed_size, chunk+
 *     chunk := be32 compressed_size, compressed_size bytes of LZ4 block
 * where a block's chunks decompress to its uncompressed_size (in practice one chunk per
 * block). Early parquet-cpp wrote a bare LZ4 block under the same id, and some writers an
 * LZ4 frame (magic 04 22 4D 18). Like parquet-mr and Arrow we try the Hadoop framing first;
 * it is accepted only if it accounts for every input byte and exactly the expected output
 * size, so a raw block is very unlikely to be misread as framed. Then a raw block, then a
 * frame. Writing uses the Hadoop framing with one block, which every reader accepts.
 */
#define LZ4F_STATIC_LINKING_ONLY
#include <limits.h>
#include <lz4.h>
#include <lz4frame.h>
#include <string.h>

#include "parquet/codec/pq_codec_int.h"

static const uint8_t frame_magic[4] = {0x04, 0x22, 0x4D, 0x18};

static dl_status
check_int_sizes(const char *name, size_t src_len, size_t dst_len, dl_error *err) {
    DL_CHECK(src_len <= INT_MAX && dst_len <= INT_MAX, err, DL_ERR_LIMIT,
             "%s page of %zu bytes (%zu uncompressed) exceeds LZ4's 2 GiB limit", name, src_len,
             dst_len);
    return DL_OK;
}

/* Decompresses one raw block into exactly dst_len bytes; -1 when that fails. */
static int
raw_block(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len) {
    char empty = 0;
    char *out = dst_len > 0 ? (char *)dst : &empty;
    return LZ4_decompress_safe((const char *)src, out, (int)src_len, (int)dst_len);
}

dl_status
dl_pq_lz4_raw_decompress(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                         dl_error *err) {
    DL_TRY(check_int_sizes("LZ4_RAW", src_len, dst_len, err));
    int got = raw_block(src, src_len, dst, dst_len);
    DL_CHECK(got >= 0, err, DL_ERR_CORRUPT,
             "LZ4_RAW page of %zu bytes is corrupt or decompresses to more than the %zu bytes "
             "its header declares",
             src_len, dst_len);
    DL_CHECK((size_t)got == dst_len, err, DL_ERR_CORRUPT,
             "LZ4_RAW page of %zu bytes decompresses to %d bytes but its header declares %zu",
             src_len, got, dst_len);
    return DL_OK;
}

static uint32_t
load_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void
store_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Decodes one Hadoop block's chunks at src[*pos] into dst[0, size). */
static bool
hadoop_block(const uint8_t *src, size_t src_len, size_t *pos, uint8_t *dst, size_t size) {
    size_t done = 0;
    while (done < size) {
        if (src_len - *pos < 4) {
            return false;
        }
        size_t chunk = load_be32(src + *pos);
        *pos += 4;
        if (chunk == 0 || chunk > src_len - *pos) {
            return false;
        }
        int got = LZ4_decompress_safe((const char *)src + *pos, (char *)dst + done, (int)chunk,
                                      (int)(size - done));
        if (got <= 0) {
            return false;
        }
        done += (size_t)got;
        *pos += chunk;
    }
    return true;
}

/* True when src is a complete Hadoop-framed stream producing exactly dst_len bytes. */
static bool
hadoop_frames(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len) {
    size_t pos = 0;
    size_t out = 0;
    while (pos < src_len) {
        if (src_len - pos < 8) {
            return false;
        }
        size_t size = load_be32(src + pos);
        pos += 4;
        if (size > dst_len - out || !hadoop_block(src, src_len, &pos, dst + out, size)) {
            return false;
        }
        out += size;
    }
    return out == dst_len;
}

static void *
lz4f_alloc(void *opaque, size_t size) {
    return dl_pq_codec_lib_alloc(opaque, size);
}

static void
lz4f_free(void *opaque, void *ptr) {
    dl_pq_codec_lib_free(opaque, ptr);
}

/* Decodes one or more LZ4 frames into exactly dst_len bytes. */
static dl_status
lz4_frames(dl_pq_codec_ctx *ctx, const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
           bool *out_ok, dl_error *err) {
    LZ4F_CustomMem mem = {lz4f_alloc, NULL, lz4f_free, ctx};
    LZ4F_dctx *dctx = LZ4F_createDecompressionContext_advanced(mem, LZ4F_VERSION);
    DL_CHECK(dctx != NULL, err, DL_ERR_NOMEM, "out of memory creating an LZ4 frame decoder");
    size_t pos = 0;
    size_t out = 0;
    size_t hint = 1;
    while (pos < src_len) {
        size_t in_size = src_len - pos;
        size_t out_size = dst_len - out;
        hint = LZ4F_decompress(dctx, dst_len > 0 ? dst + out : NULL, &out_size, src + pos, &in_size,
                               NULL);
        if (LZ4F_isError(hint) && LZ4F_getErrorCode(hint) == LZ4F_ERROR_allocation_failed) {
            (void)LZ4F_freeDecompressionContext(dctx);
            DL_FAIL(err, DL_ERR_NOMEM, "out of memory decoding an LZ4 frame");
        }
        if (LZ4F_isError(hint) || (in_size == 0 && out_size == 0)) {
            hint = 1;
            break;
        }
        pos += in_size;
        out += out_size;
    }
    (void)LZ4F_freeDecompressionContext(dctx);
    *out_ok = hint == 0 && pos == src_len && out == dst_len;
    return DL_OK;
}

dl_status
dl_pq_lz4_hadoop_decompress(dl_pq_codec_ctx *ctx, const uint8_t *src, size_t src_len, uint8_t *dst,
                            size_t dst_len, dl_error *err) {
    DL_TRY(check_int_sizes("LZ4", src_len, dst_len, err));
    if (hadoop_frames(src, src_len, dst, dst_len)) {
        return DL_OK;
    }
    int got = raw_block(src, src_len, dst, dst_len);
    if (got >= 0 && (size_t)got == dst_len) {
        return DL_OK;
    }
    if (src_len >= 4 && memcmp(src, frame_magic, 4) == 0) {
        bool is_ok = false;
        DL_TRY(lz4_frames(ctx, src, src_len, dst, dst_len, &is_ok, err));
        if (is_ok) {
            return DL_OK;
        }
    }
    DL_FAIL(err, DL_ERR_CORRUPT,
            "LZ4 page of %zu bytes is corrupt: it is neither Hadoop-framed, a raw LZ4 block nor "
            "an LZ4 frame that decompresses to the %zu bytes its header declares",
            src_len, dst_len);
}

static dl_status
raw_compress_into(const uint8_t *src, size_t src_len, dl_buf *out, size_t skip, size_t *out_len,
                  dl_error *err) {
    DL_CHECK(src_len <= LZ4_MAX_INPUT_SIZE, err, DL_ERR_LIMIT,
             "LZ4 cannot compress %zu bytes at once (limit %d)", src_len, LZ4_MAX_INPUT_SIZE);
    int cap = LZ4_compressBound((int)src_len);
    DL_TRY(dl_buf_reserve(out, skip + (size_t)cap, err));
    char empty = 0;
    const char *in = src_len > 0 ? (const char *)src : &empty;
    int got = LZ4_compress_default(in, (char *)out->data + out->len + skip, (int)src_len, cap);
    DL_CHECK(got > 0, err, DL_ERR_INTERNAL, "LZ4 failed to compress %zu bytes", src_len);
    *out_len = (size_t)got;
    return DL_OK;
}

dl_status
dl_pq_lz4_raw_compress(const uint8_t *src, size_t src_len, dl_buf *out, dl_error *err) {
    size_t got = 0;
    DL_TRY(raw_compress_into(src, src_len, out, 0, &got, err));
    out->len += got;
    return DL_OK;
}

dl_status
dl_pq_lz4_hadoop_compress(const uint8_t *src, size_t src_len, dl_buf *out, dl_error *err) {
    if (src_len == 0) {
        return DL_OK;
    }
    size_t got = 0;
    DL_TRY(raw_compress_into(src, src_len, out, 8, &got, err));
    store_be32(out->data + out->len, (uint32_t)src_len);
    store_be32(out->data + out->len + 4, (uint32_t)got);
    out->len += 8 + got;
    return DL_OK;
}
