/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SNAPPY: a page is one raw Snappy block (format_description.txt in google/snappy): a
 * varint of the uncompressed length, then literal and copy elements. The length prefix lets
 * us check the page header's size before touching the data; snappy_uncompress itself
 * rejects malformed elements and never writes past the length we give it.
 */
#include <snappy-c.h>

#include "parquet/codec/pq_codec_int.h"

dl_status
dl_pq_snappy_decompress(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
                        dl_error *err) {
    size_t declared = 0;
    if (snappy_uncompressed_length((const char *)src, src_len, &declared) != SNAPPY_OK) {
        DL_FAIL(err, DL_ERR_CORRUPT,
                "SNAPPY page of %zu bytes is corrupt: its length prefix does not parse", src_len);
    }
    DL_CHECK(declared == dst_len, err, DL_ERR_CORRUPT,
             "SNAPPY page of %zu bytes decompresses to %zu bytes but its header declares %zu",
             src_len, declared, dst_len);
    size_t out_len = dst_len;
    char empty = 0;
    char *out = dst_len > 0 ? (char *)dst : &empty;
    if (snappy_uncompress((const char *)src, src_len, out, &out_len) != SNAPPY_OK ||
        out_len != dst_len) {
        DL_FAIL(err, DL_ERR_CORRUPT,
                "SNAPPY page of %zu bytes is corrupt (expected %zu bytes uncompressed)", src_len,
                dst_len);
    }
    return DL_OK;
}

dl_status
dl_pq_snappy_compress(const uint8_t *src, size_t src_len, dl_buf *out, dl_error *err) {
    size_t cap = snappy_max_compressed_length(src_len);
    DL_TRY(dl_buf_reserve(out, cap, err));
    size_t out_len = cap;
    char empty = 0;
    const char *in = src_len > 0 ? (const char *)src : &empty;
    if (snappy_compress(in, src_len, (char *)out->data + out->len, &out_len) != SNAPPY_OK) {
        DL_FAIL(err, DL_ERR_INTERNAL, "SNAPPY failed to compress %zu bytes", src_len);
    }
    out->len += out_len;
    return DL_OK;
}
