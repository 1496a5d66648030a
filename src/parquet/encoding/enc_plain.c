/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PLAIN (Encodings.md "Plain"): values back to back.
 *   BOOLEAN               bit-packed, least significant bit first, one bit per value
 *   INT32, FLOAT          4 bytes little-endian
 *   INT64, DOUBLE         8 bytes little-endian
 *   INT96                 12 bytes (see enc_int96.c)
 *   BYTE_ARRAY            u32 little-endian length, then that many bytes
 *   FIXED_LEN_BYTE_ARRAY  type_length bytes
 * The section has no header or count: the page header says how many values it holds, and
 * every read is checked against the bytes left.
 */
#include <string.h>

#include "parquet/encoding/pq_enc_int.h"
#include "parquet/encoding/pq_encoding.h"

void
dl_pq_plain_decoder_init(dl_pq_plain_decoder *dec, const uint8_t *data, size_t len,
                         size_t page_offset) {
    dec->data = DL_PQ_NONNULL(data);
    dec->len = len;
    dec->pos = 0;
    dec->bit_pos = 0;
    dec->page_offset = page_offset;
    dec->n_read = 0;
}

/* Checks that n values of width bytes are left and returns their size. */
static dl_status
take_fixed(dl_pq_plain_decoder *dec, size_t width, size_t n, size_t *out_bytes, dl_error *err) {
    size_t bytes = 0;
    size_t left = dec->len - dec->pos;
    if (DL_UNLIKELY(DL_MUL_OVERFLOW(n, width, &bytes) || bytes > left)) {
        DL_PQ_FAIL_AT(
            err, DL_ERR_CORRUPT, dec->page_offset + dec->pos,
            "PLAIN at byte %zu: %zu more values of %zu bytes (after value %zu) do not fit in "
            "the %zu bytes left",
            dec->page_offset + dec->pos, n, width, dec->n_read, left);
    }
    *out_bytes = bytes;
    return DL_OK;
}

dl_status
dl_pq_plain_decode_fixed(dl_pq_plain_decoder *dec, size_t width, size_t n, void *out,
                         dl_error *err) {
    size_t bytes = 0;
    DL_TRY(take_fixed(dec, width, n, &bytes, err));
    if (bytes > 0) {
        memcpy(out, dec->data + dec->pos, bytes);
    }
    dec->pos += bytes;
    dec->n_read += n;
    return DL_OK;
}

dl_status
dl_pq_plain_view_fixed(dl_pq_plain_decoder *dec, size_t width, size_t n, const uint8_t **out_values,
                       dl_error *err) {
    size_t bytes = 0;
    DL_TRY(take_fixed(dec, width, n, &bytes, err));
    *out_values = dec->data + dec->pos;
    dec->pos += bytes;
    dec->n_read += n;
    return DL_OK;
}

static dl_status
check_bits(const dl_pq_plain_decoder *dec, size_t n, dl_error *err) {
    size_t bits_left = (dec->len - dec->bit_pos / 8) * 8 - dec->bit_pos % 8;
    if (DL_UNLIKELY(dec->len > SIZE_MAX / 8 || n > bits_left)) {
        DL_PQ_FAIL_AT(
            err, DL_ERR_CORRUPT, dec->page_offset + dec->bit_pos / 8,
            "PLAIN at byte %zu: BOOLEAN values %zu..%zu need %zu bits but only %zu are left",
            dec->page_offset + dec->bit_pos / 8, dec->n_read, dec->n_read + n, n, bits_left);
    }
    return DL_OK;
}

dl_status
dl_pq_plain_decode_bool(dl_pq_plain_decoder *dec, size_t n, uint8_t *out, dl_error *err) {
    DL_TRY(check_bits(dec, n, err));
    const uint8_t *data = dec->data;
    size_t bit = dec->bit_pos;
    size_t i = 0;
    for (; i < n && (bit & 7) != 0; i++, bit++) {
        out[i] = (uint8_t)((data[bit >> 3] >> (bit & 7)) & 1);
    }
    for (; i + 8 <= n; i += 8, bit += 8) {
        uint8_t byte = data[bit >> 3];
        for (unsigned k = 0; k < 8; k++) {
            out[i + k] = (uint8_t)((byte >> k) & 1);
        }
    }
    for (; i < n; i++, bit++) {
        out[i] = (uint8_t)((data[bit >> 3] >> (bit & 7)) & 1);
    }
    dec->bit_pos = bit;
    dec->pos = (bit + 7) / 8;
    dec->n_read += n;
    return DL_OK;
}

dl_status
dl_pq_plain_skip_bool(dl_pq_plain_decoder *dec, size_t n, dl_error *err) {
    DL_TRY(check_bits(dec, n, err));
    dec->bit_pos += n;
    dec->pos = (dec->bit_pos + 7) / 8;
    dec->n_read += n;
    return DL_OK;
}

/* Reads one BYTE_ARRAY value at dec->pos. */
static DL_PQ_INLINE dl_status
next_byte_array(dl_pq_plain_decoder *dec, size_t index, dl_str *out, dl_error *err) {
    size_t pos = dec->pos;
    size_t left = dec->len - pos;
    if (DL_UNLIKELY(left < 4)) {
        DL_PQ_FAIL_AT(err, DL_ERR_CORRUPT, dec->page_offset + pos,
                      "PLAIN at byte %zu: BYTE_ARRAY value %zu needs a 4-byte length but only %zu "
                      "bytes are left",
                      dec->page_offset + pos, index, left);
    }
    uint32_t n = dl_pq_load_le32(dec->data + pos);
    if (DL_UNLIKELY(n > left - 4)) {
        DL_PQ_FAIL_AT(
            err, DL_ERR_CORRUPT, dec->page_offset + pos,
            "PLAIN at byte %zu: BYTE_ARRAY value %zu has length %u but only %zu bytes are "
            "left",
            dec->page_offset + pos, index, n, left - 4);
    }
    out->ptr = (const char *)dec->data + pos + 4;
    out->len = n;
    dec->pos = pos + 4 + n;
    return DL_OK;
}

dl_status
dl_pq_plain_decode_byte_array(dl_pq_plain_decoder *dec, size_t n, dl_str *out, dl_error *err) {
    for (size_t i = 0; i < n; i++) {
        DL_TRY(next_byte_array(dec, dec->n_read + i, &out[i], err));
    }
    dec->n_read += n;
    return DL_OK;
}

dl_status
dl_pq_plain_skip(dl_pq_plain_decoder *dec, size_t width, size_t n, dl_error *err) {
    if (width > 0) {
        size_t bytes = 0;
        DL_TRY(take_fixed(dec, width, n, &bytes, err));
        dec->pos += bytes;
        dec->n_read += n;
        return DL_OK;
    }
    dl_str s = {NULL, 0};
    for (size_t i = 0; i < n; i++) {
        DL_TRY(next_byte_array(dec, dec->n_read + i, &s, err));
    }
    dec->n_read += n;
    return DL_OK;
}

dl_status
dl_pq_plain_encode_fixed(const void *values, size_t n, size_t width, dl_buf *out, dl_error *err) {
    size_t bytes;
    DL_CHECK(!DL_MUL_OVERFLOW(n, width, &bytes), err, DL_ERR_INVALID_ARG,
             "PLAIN: %zu values of %zu bytes overflow", n, width);
    return dl_buf_append(out, values, bytes, err);
}

dl_status
dl_pq_plain_encode_bool(const uint8_t *values, size_t n, dl_buf *out, dl_error *err) {
    size_t bytes = n / 8 + (n % 8 != 0);
    if (bytes == 0) {
        return DL_OK;
    }
    uint8_t *p = dl_buf_extend(out, bytes, err);
    if (p == NULL) {
        return err ? err->code : DL_ERR_NOMEM;
    }
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint8_t byte = 0;
        for (unsigned k = 0; k < 8; k++) {
            byte |= (uint8_t)((values[i + k] != 0) << k);
        }
        *p++ = byte;
    }
    if (i < n) {
        uint8_t byte = 0;
        for (unsigned k = 0; i + k < n; k++) {
            byte |= (uint8_t)((values[i + k] != 0) << k);
        }
        *p = byte;
    }
    return DL_OK;
}

dl_status
dl_pq_plain_encode_byte_array(const dl_str *values, size_t n, dl_buf *out, dl_error *err) {
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        DL_CHECK(values[i].len <= INT32_MAX, err, DL_ERR_INVALID_ARG,
                 "PLAIN: BYTE_ARRAY value %zu of %zu bytes exceeds the 2 GiB limit", i,
                 values[i].len);
        DL_CHECK(!DL_ADD_OVERFLOW(total, values[i].len + 4, &total), err, DL_ERR_INVALID_ARG,
                 "PLAIN: BYTE_ARRAY values overflow");
    }
    DL_TRY(dl_buf_reserve(out, total, err));
    for (size_t i = 0; i < n; i++) {
        uint8_t len_le[4];
        dl_pq_store_le32(len_le, (uint32_t)values[i].len);
        dl_buf_append_unchecked(out, len_le, 4);
        if (values[i].len > 0) {
            dl_buf_append_unchecked(out, values[i].ptr, values[i].len);
        }
    }
    return DL_OK;
}
