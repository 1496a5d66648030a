/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DELTA_BINARY_PACKED (Encodings.md "Delta Encoding") for INT32 and INT64:
 *
 *   header := uleb(block_size) uleb(miniblocks_per_block) uleb(total_count) zigzag(first)
 *   block  := zigzag(min_delta) u8 bit_width[miniblocks_per_block] miniblock*
 *
 * block_size is a positive multiple of 128 and each miniblock holds block_size /
 * miniblocks_per_block values, a multiple of 32. A miniblock stores (delta - min_delta) for
 * its values bit-packed at its width (pq_bitpack.h order), always padded to a full miniblock
 * (writers should pad with zeros; readers accept anything). Miniblocks after the last value
 * take no bytes, and their width bytes may hold anything. Value i is value i-1 + min_delta +
 * packed delta, wrapping in two's complement at the type's width, so all arithmetic here is
 * unsigned: INT64 in uint64_t, INT32 in uint32_t (or uint64_t truncated, the same modulo
 * 2^32).
 *
 * The spec forbids miniblock widths above the type's width, but arrow-go wrote INT32 deltas
 * computed in 64 bits with widths up to 33 or 34; the wrapping sum still restores them, so
 * INT32 accepts widths up to 64 and only > 64 is CORRUPT.
 *
 * Decoding keeps the page's position at the end of the current miniblock's full extent, so
 * once every value is taken, pos is where the stream ends (DELTA_LENGTH_BYTE_ARRAY needs
 * that: its bytes follow the lengths).
 */
#include <string.h>

#include "parquet/encoding/pq_enc_int.h"
#include "parquet/encoding/pq_encoding.h"

/* Largest block size accepted: far above what any writer uses, small enough for 32 bits. */
#define MAX_BLOCK_SIZE ((uint64_t)1 << 30)

static dl_status
read_uleb(dl_pq_delta_decoder *dec, size_t *pos, uint64_t *out, const char *what, dl_error *err) {
    size_t at = *pos;
    DL_PQ_CHECK_AT(dl_pq_uleb_read(dec->data, dec->len, pos, out), err, DL_ERR_CORRUPT,
                   dec->page_offset + at,
                   "DELTA_BINARY_PACKED at byte %zu: %s is cut off or longer than 64 bits",
                   dec->page_offset + at, what);
    return DL_OK;
}

/* Checks the header's block layout and records it in dec. */
static dl_status
check_layout(dl_pq_delta_decoder *dec, uint64_t block_size, uint64_t n_miniblocks, dl_error *err) {
    DL_PQ_CHECK_AT(
        block_size > 0 && block_size % 128 == 0 && block_size <= MAX_BLOCK_SIZE, err,
        DL_ERR_CORRUPT, dec->page_offset,
        "DELTA_BINARY_PACKED at byte %zu: block size %llu is not a positive multiple of 128 "
        "(up to %llu)",
        dec->page_offset, (unsigned long long)block_size, (unsigned long long)MAX_BLOCK_SIZE);
    DL_PQ_CHECK_AT(
        n_miniblocks > 0 && block_size % n_miniblocks == 0 && (block_size / n_miniblocks) % 32 == 0,
        err, DL_ERR_CORRUPT, dec->page_offset,
        "DELTA_BINARY_PACKED at byte %zu: %llu miniblocks per block of %llu values do not "
        "make miniblocks of a multiple of 32 values",
        dec->page_offset, (unsigned long long)n_miniblocks, (unsigned long long)block_size);
    dec->block_size = (uint32_t)block_size;
    dec->n_miniblocks = (uint32_t)n_miniblocks;
    dec->mb_size = (uint32_t)(block_size / n_miniblocks);
    return DL_OK;
}

dl_status
dl_pq_delta_decoder_init(dl_pq_delta_decoder *dec, const uint8_t *data, size_t len, bool is_int32,
                         size_t page_offset, dl_error *err) {
    memset(dec, 0, offsetof(dl_pq_delta_decoder, buf));
    dec->data = DL_PQ_NONNULL(data);
    dec->len = len;
    dec->page_offset = page_offset;
    dec->is_int32 = is_int32;
    if (len == 0) {
        return DL_OK;
    }
    size_t pos = 0;
    uint64_t block_size = 0;
    uint64_t n_miniblocks = 0;
    uint64_t total = 0;
    uint64_t first = 0;
    DL_TRY(read_uleb(dec, &pos, &block_size, "the block size", err));
    DL_TRY(read_uleb(dec, &pos, &n_miniblocks, "the miniblock count", err));
    DL_TRY(check_layout(dec, block_size, n_miniblocks, err));
    DL_TRY(read_uleb(dec, &pos, &total, "the value count", err));
    size_t first_at = pos;
    DL_TRY(read_uleb(dec, &pos, &first, "the first value", err));
    first = dl_pq_unzigzag(first);
    DL_PQ_CHECK_AT(!is_int32 || (int64_t)first == (int32_t)first, err, DL_ERR_CORRUPT,
                   page_offset + first_at,
                   "DELTA_BINARY_PACKED at byte %zu: first value %lld does not fit in INT32",
                   page_offset + first_at, (long long)first);
    dec->pos = pos;
    dec->mb_index = dec->n_miniblocks;
    dec->total = total;
    dec->remaining = total;
    dec->first = first;
    dec->last = first;
    if (total > 0) {
        dec->deltas_left = total - 1;
        dec->buf[0] = first;
        dec->buf_len = 1;
    }
    return DL_OK;
}

static dl_status
read_block_header(dl_pq_delta_decoder *dec, dl_error *err) {
    uint64_t min_delta = 0;
    DL_TRY(read_uleb(dec, &dec->pos, &min_delta, "a block's min delta", err));
    dec->min_delta = dl_pq_unzigzag(min_delta);
    size_t left = dec->len - dec->pos;
    DL_PQ_CHECK_AT(dec->n_miniblocks <= left, err, DL_ERR_CORRUPT, dec->page_offset + dec->pos,
                   "DELTA_BINARY_PACKED at byte %zu: a block's %u miniblock bit widths are cut off "
                   "(%zu bytes left)",
                   dec->page_offset + dec->pos, dec->n_miniblocks, left);
    dec->widths = dec->pos;
    dec->pos += dec->n_miniblocks;
    dec->mb_index = 0;
    return DL_OK;
}

/* Moves to the next miniblock (and block). Assumes deltas_left > 0. */
static dl_status
enter_miniblock(dl_pq_delta_decoder *dec, dl_error *err) {
    if (dec->mb_index >= dec->n_miniblocks) {
        DL_TRY(read_block_header(dec, err));
    }
    size_t width_at = dec->widths + dec->mb_index;
    unsigned bw = dec->data[width_at];
    DL_PQ_CHECK_AT(bw <= 64, err, DL_ERR_CORRUPT, dec->page_offset + width_at,
                   "DELTA_BINARY_PACKED at byte %zu: miniblock bit width %u exceeds 64",
                   dec->page_offset + width_at, bw);
    uint64_t count = DL_PQ_MIN_SIZE((uint64_t)dec->mb_size, dec->deltas_left);
    uint64_t need = (count * bw + 7) / 8;
    size_t left = dec->len - dec->pos;
    DL_PQ_CHECK_AT(
        need <= left, err, DL_ERR_CORRUPT, dec->page_offset + dec->pos,
        "DELTA_BINARY_PACKED at byte %zu: miniblock of %llu values at bit width %u needs "
        "%llu bytes but only %zu are left",
        dec->page_offset + dec->pos, (unsigned long long)count, bw, (unsigned long long)need, left);
    size_t full = (size_t)dec->mb_size / 8 * bw;
    dec->mb_index++;
    dec->bit_width = bw;
    dec->mb_next = dec->pos;
    dec->mb_end = dec->pos + DL_PQ_MIN_SIZE(full, left);
    dec->pos = dec->mb_end;
    dec->mb_left = count;
    dec->deltas_left -= count;
    return DL_OK;
}

/* Unpacks the next group of the miniblock into buf as values. Assumes mb_left > 0. */
static void
fill_buf(dl_pq_delta_decoder *dec) {
    size_t group_bytes = 4 * (size_t)dec->bit_width;
    size_t avail = dec->mb_end - dec->mb_next;
    if (avail >= group_bytes) {
        dl_pq_unpack32_u64(dec->data + dec->mb_next, dec->buf, dec->bit_width);
        dec->mb_next += group_bytes;
    } else {
        dl_pq_unpack32_u64_tail(dec->data + dec->mb_next, avail, dec->buf, dec->bit_width);
        dec->mb_next += avail;
    }
    uint32_t count = (uint32_t)DL_PQ_MIN_SIZE(dec->mb_left, 32);
    uint64_t last = dec->last;
    uint64_t min_delta = dec->min_delta;
    for (uint32_t j = 0; j < count; j++) {
        last += dec->buf[j] + min_delta;
        dec->buf[j] = last;
    }
    dec->last = last;
    dec->buf_pos = 0;
    dec->buf_len = count;
    dec->mb_left -= count;
}

/* Decodes whole groups of 32 straight into out[at...]; returns the values written. */
static DL_PQ_INLINE size_t
unpack_groups(dl_pq_delta_decoder *dec, void *out, size_t at, size_t want, const bool is32) {
    const unsigned bw = dec->bit_width;
    const size_t group_bytes = 4 * (size_t)bw;
    size_t done = 0;
    while (want - done >= 32 && dec->mb_left >= 32 && dec->mb_end - dec->mb_next >= group_bytes) {
        const uint8_t *in = dec->data + dec->mb_next;
        if (is32 && bw <= 32) {
            uint32_t *o = (uint32_t *)out + at + done;
            dl_pq_unpack32_u32(in, o, bw);
            uint32_t last = (uint32_t)dec->last;
            uint32_t min_delta = (uint32_t)dec->min_delta;
            for (unsigned j = 0; j < 32; j++) {
                last += o[j] + min_delta;
                o[j] = last;
            }
            dec->last = last;
        } else if (is32) {
            uint64_t tmp[32];
            dl_pq_unpack32_u64(in, tmp, bw);
            uint32_t *o = (uint32_t *)out + at + done;
            uint32_t last = (uint32_t)dec->last;
            uint32_t min_delta = (uint32_t)dec->min_delta;
            for (unsigned j = 0; j < 32; j++) {
                last += (uint32_t)tmp[j] + min_delta;
                o[j] = last;
            }
            dec->last = last;
        } else {
            uint64_t *o = (uint64_t *)out + at + done;
            dl_pq_unpack32_u64(in, o, bw);
            uint64_t last = dec->last;
            for (unsigned j = 0; j < 32; j++) {
                last += o[j] + dec->min_delta;
                o[j] = last;
            }
            dec->last = last;
        }
        dec->mb_next += group_bytes;
        dec->mb_left -= 32;
        done += 32;
    }
    return done;
}

static DL_PQ_INLINE dl_status
decode_values(dl_pq_delta_decoder *dec, size_t n, void *out, const bool is32, dl_error *err) {
    DL_PQ_CHECK_AT(n <= dec->remaining, err, DL_ERR_CORRUPT, dec->page_offset,
                   "DELTA_BINARY_PACKED at byte %zu: %zu more values are needed but the header "
                   "declares only %llu more",
                   dec->page_offset, n, (unsigned long long)dec->remaining);
    size_t i = 0;
    while (i < n) {
        if (dec->buf_pos < dec->buf_len) {
            size_t k = DL_PQ_MIN_SIZE(n - i, (size_t)(dec->buf_len - dec->buf_pos));
            const uint64_t *src = dec->buf + dec->buf_pos;
            if (is32) {
                uint32_t *o = (uint32_t *)out + i;
                for (size_t j = 0; j < k; j++) {
                    o[j] = (uint32_t)src[j];
                }
            } else {
                memcpy((uint64_t *)out + i, src, k * sizeof(uint64_t));
            }
            dec->buf_pos += (uint32_t)k;
            i += k;
        } else if (dec->mb_left == 0) {
            DL_TRY(enter_miniblock(dec, err));
        } else {
            size_t k = unpack_groups(dec, out, i, n - i, is32);
            if (k == 0) {
                fill_buf(dec);
            }
            i += k;
        }
    }
    dec->remaining -= n;
    return DL_OK;
}

dl_status
dl_pq_delta_decode_i32(dl_pq_delta_decoder *dec, size_t n, int32_t *out, dl_error *err) {
    DL_CHECK(dec->is_int32, err, DL_ERR_INVALID_ARG,
             "DELTA_BINARY_PACKED: INT32 values asked of an INT64 decoder");
    return decode_values(dec, n, out, true, err);
}

dl_status
dl_pq_delta_decode_i64(dl_pq_delta_decoder *dec, size_t n, int64_t *out, dl_error *err) {
    DL_CHECK(!dec->is_int32, err, DL_ERR_INVALID_ARG,
             "DELTA_BINARY_PACKED: INT64 values asked of an INT32 decoder");
    return decode_values(dec, n, out, false, err);
}

dl_status
dl_pq_delta_skip(dl_pq_delta_decoder *dec, size_t n, dl_error *err) {
    int64_t scratch[256];
    while (n > 0) {
        size_t k = DL_PQ_MIN_SIZE(n, DL_ARRAY_LEN(scratch));
        DL_TRY(decode_values(dec, k, scratch, dec->is_int32, err));
        n -= k;
    }
    return DL_OK;
}

/* ---- encoder ---------------------------------------------------------------------------- */

void
dl_pq_delta_encoder_init(dl_pq_delta_encoder *enc, bool is_int32, uint64_t total, dl_buf *out) {
    enc->out = out;
    enc->total = total;
    enc->count = 0;
    enc->last = 0;
    enc->n_block = 0;
    enc->is_int32 = is_int32;
}

static dl_status
write_header(dl_pq_delta_encoder *enc, uint64_t first, dl_error *err) {
    dl_buf *out = enc->out;
    DL_TRY(dl_buf_reserve(out, (size_t)4 * DL_PQ_ULEB_MAX, err));
    out->len += dl_pq_uleb_write(out->data + out->len, DL_PQ_DELTA_BLOCK_SIZE);
    out->len += dl_pq_uleb_write(out->data + out->len, DL_PQ_DELTA_N_MINIBLOCKS);
    out->len += dl_pq_uleb_write(out->data + out->len, enc->total);
    out->len += dl_pq_uleb_write(out->data + out->len, dl_pq_zigzag((int64_t)first));
    return DL_OK;
}

static dl_status
flush_block(dl_pq_delta_encoder *enc, dl_error *err) {
    enum {
        MB_SIZE = DL_PQ_DELTA_BLOCK_SIZE / DL_PQ_DELTA_N_MINIBLOCKS
    };

    uint32_t n = enc->n_block;
    if (n == 0) {
        return DL_OK;
    }
    int64_t min_delta = enc->block[0];
    for (uint32_t j = 1; j < n; j++) {
        min_delta = enc->block[j] < min_delta ? enc->block[j] : min_delta;
    }
    uint64_t rel[DL_PQ_DELTA_BLOCK_SIZE] = {0};
    for (uint32_t j = 0; j < n; j++) {
        rel[j] = (uint64_t)enc->block[j] - (uint64_t)min_delta;
    }
    uint8_t widths[DL_PQ_DELTA_N_MINIBLOCKS] = {0};
    for (uint32_t m = 0; m * MB_SIZE < n; m++) {
        uint64_t all = 0;
        for (uint32_t j = 0; j < MB_SIZE; j++) {
            all |= rel[m * MB_SIZE + j];
        }
        widths[m] = (uint8_t)dl_pq_bit_width(all);
    }
    dl_buf *out = enc->out;
    DL_TRY(dl_buf_reserve(
        out, DL_PQ_ULEB_MAX + DL_PQ_DELTA_N_MINIBLOCKS + 8 * DL_PQ_DELTA_BLOCK_SIZE, err));
    out->len += dl_pq_uleb_write(out->data + out->len, dl_pq_zigzag(min_delta));
    memcpy(out->data + out->len, widths, sizeof(widths));
    out->len += sizeof(widths);
    for (uint32_t m = 0; m * MB_SIZE < n; m++) {
        for (uint32_t g = 0; g < MB_SIZE; g += 32) {
            const uint64_t *group = rel + (size_t)m * MB_SIZE + g;
            if (widths[m] <= 32) {
                uint32_t narrow[32];
                for (unsigned j = 0; j < 32; j++) {
                    narrow[j] = (uint32_t)group[j];
                }
                dl_pq_pack32_u32(narrow, out->data + out->len, widths[m]);
            } else {
                dl_pq_pack32_u64(group, out->data + out->len, widths[m]);
            }
            out->len += 4 * (size_t)widths[m];
        }
    }
    enc->n_block = 0;
    return DL_OK;
}

static DL_PQ_INLINE dl_status
put_values(dl_pq_delta_encoder *enc, const void *values, size_t n, const bool is32, dl_error *err) {
    DL_CHECK(n <= enc->total - enc->count, err, DL_ERR_INVALID_ARG,
             "DELTA_BINARY_PACKED: %zu values put but only %llu of the %llu promised are left", n,
             (unsigned long long)(enc->total - enc->count), (unsigned long long)enc->total);
    size_t i = 0;
    if (n > 0 && enc->count == 0) {
        uint64_t first = is32 ? (uint64_t)(int64_t)((const int32_t *)values)[0]
                              : (uint64_t)((const int64_t *)values)[0];
        DL_TRY(write_header(enc, first, err));
        enc->last = first;
        i = 1;
    }
    uint64_t last = enc->last;
    for (; i < n; i++) {
        if (is32) {
            uint32_t v = (uint32_t)((const int32_t *)values)[i];
            enc->block[enc->n_block++] = (int32_t)(v - (uint32_t)last);
            last = v;
        } else {
            uint64_t v = (uint64_t)((const int64_t *)values)[i];
            enc->block[enc->n_block++] = (int64_t)(v - last);
            last = v;
        }
        if (enc->n_block == DL_PQ_DELTA_BLOCK_SIZE) {
            DL_TRY(flush_block(enc, err));
        }
    }
    enc->last = last;
    enc->count += n;
    return DL_OK;
}

dl_status
dl_pq_delta_encoder_put_i32(dl_pq_delta_encoder *enc, const int32_t *values, size_t n,
                            dl_error *err) {
    DL_CHECK(enc->is_int32, err, DL_ERR_INVALID_ARG,
             "DELTA_BINARY_PACKED: INT32 values put into an INT64 encoder");
    return put_values(enc, values, n, true, err);
}

dl_status
dl_pq_delta_encoder_put_i64(dl_pq_delta_encoder *enc, const int64_t *values, size_t n,
                            dl_error *err) {
    DL_CHECK(!enc->is_int32, err, DL_ERR_INVALID_ARG,
             "DELTA_BINARY_PACKED: INT64 values put into an INT32 encoder");
    return put_values(enc, values, n, false, err);
}

dl_status
dl_pq_delta_encoder_finish(dl_pq_delta_encoder *enc, dl_error *err) {
    DL_CHECK(enc->count == enc->total, err, DL_ERR_INVALID_ARG,
             "DELTA_BINARY_PACKED: %llu values were promised but %llu put",
             (unsigned long long)enc->total, (unsigned long long)enc->count);
    if (enc->total == 0) {
        return write_header(enc, 0, err);
    }
    return flush_block(enc, err);
}

dl_status
dl_pq_delta_encode_i32(const int32_t *values, size_t n, dl_buf *out, dl_error *err) {
    dl_pq_delta_encoder enc;
    dl_pq_delta_encoder_init(&enc, true, n, out);
    DL_TRY(dl_pq_delta_encoder_put_i32(&enc, values, n, err));
    return dl_pq_delta_encoder_finish(&enc, err);
}

dl_status
dl_pq_delta_encode_i64(const int64_t *values, size_t n, dl_buf *out, dl_error *err) {
    dl_pq_delta_encoder enc;
    dl_pq_delta_encoder_init(&enc, false, n, out);
    DL_TRY(dl_pq_delta_encoder_put_i64(&enc, values, n, err));
    return dl_pq_delta_encoder_finish(&enc, err);
}
