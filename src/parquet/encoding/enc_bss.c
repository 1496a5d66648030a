/* SPDX-License-Identifier: Apache-2.0 */
/*
 * BYTE_STREAM_SPLIT (Encodings.md "Byte Stream Split") for FLOAT, DOUBLE, INT32, INT64 and
 * FIXED_LEN_BYTE_ARRAY: N values of K bytes are stored as K streams of N bytes, stream k
 * holding byte k of every value, streams back to back:
 *
 *   AA BB CC DD | 00 11 22 33 | A3 B4 C5 D6   →   AA 00 A3 | BB 11 B4 | CC 22 C5 | DD 33 D6
 *
 * There is no header: N is the section length divided by K, which must divide it exactly.
 * Value i's byte k is at data[k * N + i]. The common widths 4 and 8 have their own loops.
 */
#include <string.h>

#include "parquet/encoding/pq_enc_int.h"
#include "parquet/encoding/pq_encoding.h"

dl_status
dl_pq_bss_decoder_init(dl_pq_bss_decoder *dec, const uint8_t *data, size_t len, size_t width,
                       size_t page_offset, dl_error *err) {
    DL_CHECK(width > 0, err, DL_ERR_INVALID_ARG, "BYTE_STREAM_SPLIT: value width is 0");
    DL_PQ_CHECK_AT(
        len % width == 0, err, DL_ERR_CORRUPT, page_offset,
        "BYTE_STREAM_SPLIT at byte %zu: the section's %zu bytes are not a multiple of the "
        "%zu-byte value width",
        page_offset, len, width);
    dec->data = DL_PQ_NONNULL(data);
    dec->page_offset = page_offset;
    dec->width = width;
    dec->n_values = len / width;
    dec->next = 0;
    return DL_OK;
}

static dl_status
check_count(const dl_pq_bss_decoder *dec, size_t n, dl_error *err) {
    DL_PQ_CHECK_AT(
        n <= dec->n_values - dec->next, err, DL_ERR_CORRUPT, dec->page_offset,
        "BYTE_STREAM_SPLIT at byte %zu: %zu more values are needed but the section holds "
        "only %zu more",
        dec->page_offset, n, dec->n_values - dec->next);
    return DL_OK;
}

static void
gather4(const uint8_t *s, size_t stride, size_t n, uint8_t *out) {
    const uint8_t *s0 = s;
    const uint8_t *s1 = s + stride;
    const uint8_t *s2 = s + 2 * stride;
    const uint8_t *s3 = s + 3 * stride;
    for (size_t i = 0; i < n; i++) {
        uint32_t v =
            (uint32_t)s0[i] | (uint32_t)s1[i] << 8 | (uint32_t)s2[i] << 16 | (uint32_t)s3[i] << 24;
        memcpy(out + 4 * i, &v, 4);
    }
}

static void
gather8(const uint8_t *s, size_t stride, size_t n, uint8_t *out) {
    const uint8_t *s0 = s;
    const uint8_t *s1 = s + stride;
    const uint8_t *s2 = s + 2 * stride;
    const uint8_t *s3 = s + 3 * stride;
    const uint8_t *s4 = s + 4 * stride;
    const uint8_t *s5 = s + 5 * stride;
    const uint8_t *s6 = s + 6 * stride;
    const uint8_t *s7 = s + 7 * stride;
    for (size_t i = 0; i < n; i++) {
        uint64_t lo =
            (uint64_t)s0[i] | (uint64_t)s1[i] << 8 | (uint64_t)s2[i] << 16 | (uint64_t)s3[i] << 24;
        uint64_t hi =
            (uint64_t)s4[i] | (uint64_t)s5[i] << 8 | (uint64_t)s6[i] << 16 | (uint64_t)s7[i] << 24;
        uint64_t v = lo | hi << 32;
        memcpy(out + 8 * i, &v, 8);
    }
}

dl_status
dl_pq_bss_decode(dl_pq_bss_decoder *dec, size_t n, void *out, dl_error *err) {
    DL_TRY(check_count(dec, n, err));
    const uint8_t *s = dec->data + dec->next;
    size_t stride = dec->n_values;
    uint8_t *o = out;
    if (dec->width == 4) {
        gather4(s, stride, n, o);
    } else if (dec->width == 8) {
        gather8(s, stride, n, o);
    } else {
        size_t w = dec->width;
        for (size_t k = 0; k < w; k++) {
            const uint8_t *stream = s + k * stride;
            for (size_t i = 0; i < n; i++) {
                o[i * w + k] = stream[i];
            }
        }
    }
    dec->next += n;
    return DL_OK;
}

dl_status
dl_pq_bss_skip(dl_pq_bss_decoder *dec, size_t n, dl_error *err) {
    DL_TRY(check_count(dec, n, err));
    dec->next += n;
    return DL_OK;
}

dl_status
dl_pq_bss_encode(const void *values, size_t n, size_t width, dl_buf *out, dl_error *err) {
    size_t bytes;
    DL_CHECK(width > 0 && !DL_MUL_OVERFLOW(n, width, &bytes), err, DL_ERR_INVALID_ARG,
             "BYTE_STREAM_SPLIT: %zu values of %zu bytes", n, width);
    if (bytes == 0) {
        return DL_OK;
    }
    uint8_t *o = dl_buf_extend(out, bytes, err);
    if (o == NULL) {
        return err ? err->code : DL_ERR_NOMEM;
    }
    const uint8_t *v = values;
    for (size_t k = 0; k < width; k++) {
        uint8_t *stream = o + k * n;
        for (size_t i = 0; i < n; i++) {
            stream[i] = v[i * width + k];
        }
    }
    return DL_OK;
}
