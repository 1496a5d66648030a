/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DELTA_LENGTH_BYTE_ARRAY (Encodings.md "Delta-length byte array"): every value's length as
 * one DELTA_BINARY_PACKED INT32 stream, then all the values' bytes back to back.
 *
 *   "Hello", "World", "Foobar", "ABCDEF"  →  DELTA(5, 5, 6, 6) "HelloWorldFoobarABCDEF"
 *
 * The bytes start where the length stream ends, which is only known once every length is
 * decoded, so the decoder decodes all lengths up front into an arena array (4 bytes per
 * value) and checks them then: no negative length, and no more bytes than follow. Values are
 * then handed out as views, in any batch sizes.
 */
#include <string.h>

#include "parquet/encoding/pq_enc_int.h"
#include "parquet/encoding/pq_encoding.h"

/* Reports the first negative length. Assumes there is one. */
static dl_status
negative_length(const int32_t *lens, size_t n, size_t page_offset, dl_error *err) {
    size_t i = 0;
    while (i + 1 < n && lens[i] >= 0) {
        i++;
    }
    DL_PQ_FAIL_AT(err, DL_ERR_CORRUPT, page_offset,
                  "DELTA_LENGTH_BYTE_ARRAY at byte %zu: value %zu has negative length %d",
                  page_offset, i, lens[i]);
}

dl_status
dl_pq_dlba_decoder_init(dl_pq_dlba_decoder *dec, const uint8_t *data, size_t len,
                        uint64_t max_values, size_t page_offset, dl_arena *arena, dl_error *err) {
    memset(dec, 0, sizeof(*dec));
    data = DL_PQ_NONNULL(data);
    dec->data = data;
    dec->page_offset = page_offset;
    dl_pq_delta_decoder lengths;
    DL_TRY_CTX(dl_pq_delta_decoder_init(&lengths, data, len, true, page_offset, err), err,
               "DELTA_LENGTH_BYTE_ARRAY lengths");
    DL_PQ_CHECK_AT(
        lengths.total <= max_values, err, DL_ERR_CORRUPT, page_offset,
        "DELTA_LENGTH_BYTE_ARRAY at byte %zu: the lengths' header declares %llu values but "
        "the page holds %llu",
        page_offset, (unsigned long long)lengths.total, (unsigned long long)max_values);
    size_t n = (size_t)lengths.total;
    int32_t *lens = dl_arena_alloc_array(arena, n == 0 ? 1 : n, sizeof(int32_t));
    DL_CHECK(lens != NULL, err, DL_ERR_NOMEM,
             "out of memory for %zu DELTA_LENGTH_BYTE_ARRAY lengths", n);
    DL_TRY_CTX(dl_pq_delta_decode_i32(&lengths, n, lens, err), err,
               "DELTA_LENGTH_BYTE_ARRAY lengths");
    uint32_t sign = 0;
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        sign |= (uint32_t)lens[i];
        sum += (uint32_t)lens[i];
    }
    if (DL_UNLIKELY(sign >> 31)) {
        return negative_length(lens, n, page_offset, err);
    }
    size_t left = len - lengths.pos;
    DL_PQ_CHECK_AT(
        sum <= left, err, DL_ERR_CORRUPT, page_offset + lengths.pos,
        "DELTA_LENGTH_BYTE_ARRAY at byte %zu: the %zu values' lengths add up to %llu bytes "
        "but only %zu follow",
        page_offset + lengths.pos, n, (unsigned long long)sum, left);
    dec->lengths = (const uint32_t *)lens;
    dec->n_values = n;
    dec->data_pos = lengths.pos;
    return DL_OK;
}

static dl_status
check_count(const dl_pq_dlba_decoder *dec, size_t n, dl_error *err) {
    DL_PQ_CHECK_AT(
        n <= dec->n_values - dec->next, err, DL_ERR_CORRUPT, dec->page_offset,
        "DELTA_LENGTH_BYTE_ARRAY at byte %zu: %zu more values are needed but the section "
        "holds only %zu more",
        dec->page_offset, n, dec->n_values - dec->next);
    return DL_OK;
}

dl_status
dl_pq_dlba_decode(dl_pq_dlba_decoder *dec, size_t n, dl_str *out, dl_error *err) {
    DL_TRY(check_count(dec, n, err));
    const uint32_t *lens = dec->lengths + dec->next;
    const char *p = (const char *)dec->data + dec->data_pos;
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        out[i].ptr = p + used;
        out[i].len = lens[i];
        used += lens[i];
    }
    dec->data_pos += used;
    dec->next += n;
    return DL_OK;
}

dl_status
dl_pq_dlba_skip(dl_pq_dlba_decoder *dec, size_t n, dl_error *err) {
    DL_TRY(check_count(dec, n, err));
    const uint32_t *lens = dec->lengths + dec->next;
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        used += lens[i];
    }
    dec->data_pos += used;
    dec->next += n;
    return DL_OK;
}

dl_status
dl_pq_dlba_encode(const dl_str *values, size_t n, dl_buf *out, dl_error *err) {
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        DL_CHECK(values[i].len <= INT32_MAX, err, DL_ERR_INVALID_ARG,
                 "DELTA_LENGTH_BYTE_ARRAY: value %zu of %zu bytes exceeds the 2 GiB limit", i,
                 values[i].len);
        total += values[i].len;
    }
    dl_pq_delta_encoder enc;
    dl_pq_delta_encoder_init(&enc, true, n, out);
    int32_t lens[256];
    for (size_t i = 0; i < n; i += DL_ARRAY_LEN(lens)) {
        size_t k = DL_PQ_MIN_SIZE(n - i, DL_ARRAY_LEN(lens));
        for (size_t j = 0; j < k; j++) {
            lens[j] = (int32_t)values[i + j].len;
        }
        DL_TRY(dl_pq_delta_encoder_put_i32(&enc, lens, k, err));
    }
    DL_TRY(dl_pq_delta_encoder_finish(&enc, err));
    DL_TRY(dl_buf_reserve(out, total, err));
    for (size_t i = 0; i < n; i++) {
        if (values[i].len > 0) {
            dl_buf_append_unchecked(out, values[i].ptr, values[i].len);
        }
    }
    return DL_OK;
}
