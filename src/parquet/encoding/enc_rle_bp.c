/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The RLE / bit-packing hybrid (Encodings.md "Run Length Encoding / Bit-Packing Hybrid"),
 * used for repetition and definition levels, RLE booleans and dictionary indices:
 *
 *   encoded-data    := run*
 *   run             := bit-packed-run | rle-run
 *   bit-packed-run  := varint(groups << 1 | 1) then groups * bit_width bytes: 8 * groups
 *                      values bit-packed LSB-first (pq_bitpack.h)
 *   rle-run         := varint(count << 1) then the value in ceil(bit_width / 8) bytes LE
 *
 * v1 data pages put a u32 byte length before level and boolean sections; dictionary indices
 * start with one byte of bit width instead. The deprecated BIT_PACKED level encoding (MSB
 * first, no header) is decoded here too.
 *
 * Invariants the decoder keeps, whatever the input: a run never yields more values than the
 * caller declared are left (only a bit-packed run's last group of 8 may pad past them, and
 * the padding is dropped); a bit-packed run is only read within the bytes it has (its last
 * group may be cut short by the end of the page, the missing bits read as zero, provided the
 * values actually taken are all present); an RLE value must fit in bit_width bits, so
 * decoded values are always < 2^bit_width.
 */
#include <string.h>

#include "parquet/encoding/pq_enc_int.h"
#include "parquet/encoding/pq_encoding.h"

/* Shortest run the encoder writes as an RLE run. */
#define MIN_RLE_RUN 8
/* Longest run one header may declare (Encodings.md note 3: at most 2^31 - 1 values). */
#define MAX_RLE_RUN ((uint64_t)INT32_MAX)
/* Longest bit-packed run the encoder writes, a multiple of 32. */
#define MAX_BP_RUN ((size_t)1 << 20)

static void
rle_reset(dl_pq_rle_decoder *dec, const uint8_t *data, size_t len, unsigned bit_width,
          uint64_t n_values, size_t page_offset, const char *name) {
    memset(dec, 0, offsetof(dl_pq_rle_decoder, buf));
    dec->data = DL_PQ_NONNULL(data);
    dec->len = len;
    dec->page_offset = page_offset;
    dec->name = name;
    dec->remaining = n_values;
    dec->bit_width = bit_width;
}

dl_status
dl_pq_rle_decoder_init(dl_pq_rle_decoder *dec, const uint8_t *data, size_t len, unsigned bit_width,
                       uint64_t n_values, size_t page_offset, dl_error *err) {
    DL_CHECK(bit_width <= 32, err, DL_ERR_INVALID_ARG, "RLE: bit width %u exceeds 32", bit_width);
    rle_reset(dec, data, len, bit_width, n_values, page_offset, "RLE");
    return DL_OK;
}

dl_status
dl_pq_rle_decoder_init_prefixed(dl_pq_rle_decoder *dec, const uint8_t *data, size_t len,
                                unsigned bit_width, uint64_t n_values, size_t page_offset,
                                size_t *out_size, dl_error *err) {
    DL_PQ_CHECK_AT(len >= 4, err, DL_ERR_CORRUPT, page_offset,
                   "RLE at byte %zu: the 4-byte length prefix is cut off (%zu bytes left)",
                   page_offset, len);
    uint32_t n = dl_pq_load_le32(data);
    DL_PQ_CHECK_AT(n <= len - 4, err, DL_ERR_CORRUPT, page_offset,
                   "RLE at byte %zu: length prefix %u exceeds the %zu bytes left", page_offset, n,
                   len - 4);
    DL_TRY(dl_pq_rle_decoder_init(dec, data + 4, n, bit_width, n_values, page_offset + 4, err));
    *out_size = 4 + (size_t)n;
    return DL_OK;
}

dl_status
dl_pq_dict_indices_init(dl_pq_rle_decoder *dec, const uint8_t *data, size_t len, uint64_t n_values,
                        size_t page_offset, dl_error *err) {
    if (len == 0) {
        DL_PQ_CHECK_AT(
            n_values == 0, err, DL_ERR_CORRUPT, page_offset,
            "RLE_DICTIONARY at byte %zu: the section is empty but %llu indices are expected",
            page_offset, (unsigned long long)n_values);
        rle_reset(dec, data, 0, 0, 0, page_offset, "RLE_DICTIONARY");
        return DL_OK;
    }
    unsigned bit_width = data[0];
    DL_PQ_CHECK_AT(bit_width <= 32, err, DL_ERR_CORRUPT, page_offset,
                   "RLE_DICTIONARY at byte %zu: bit width %u exceeds 32", page_offset, bit_width);
    rle_reset(dec, data + 1, len - 1, bit_width, n_values, page_offset + 1, "RLE_DICTIONARY");
    return DL_OK;
}

/* Reads the value of an RLE run whose header ended at dec->pos. */
static dl_status
read_rle_value(dl_pq_rle_decoder *dec, uint64_t count, dl_error *err) {
    size_t n_bytes = (dec->bit_width + 7) / 8;
    size_t left = dec->len - dec->pos;
    DL_PQ_CHECK_AT(n_bytes <= left, err, DL_ERR_CORRUPT, dec->page_offset + dec->pos,
                   "%s at byte %zu: the value of an RLE run needs %zu bytes but only %zu are left",
                   dec->name, dec->page_offset + dec->pos, n_bytes, left);
    uint32_t value = 0;
    memcpy(&value, dec->data + dec->pos, n_bytes);
    DL_PQ_CHECK_AT(dec->bit_width == 32 || (value >> dec->bit_width) == 0, err, DL_ERR_CORRUPT,
                   dec->page_offset + dec->pos,
                   "%s at byte %zu: RLE run value %u does not fit in bit width %u", dec->name,
                   dec->page_offset + dec->pos, value, dec->bit_width);
    dec->pos += n_bytes;
    dec->rle_value = value;
    dec->rle_left = count;
    return DL_OK;
}

/* Sets up a bit-packed run of `groups` groups of 8 whose header ended at dec->pos. */
static dl_status
read_bit_packed(dl_pq_rle_decoder *dec, uint64_t groups, dl_error *err) {
    size_t at = dec->page_offset + dec->run_start;
    DL_PQ_CHECK_AT(groups <= dec->remaining / 8 + (dec->remaining % 8 != 0), err, DL_ERR_CORRUPT,
                   at, "%s at byte %zu: bit-packed run of %llu values exceeds the %llu values left",
                   dec->name, at, (unsigned long long)groups * 8,
                   (unsigned long long)dec->remaining);
    uint64_t count = DL_PQ_MIN_SIZE(groups * 8, dec->remaining);
    size_t left = dec->len - dec->pos;
    dl_u128 need = ((dl_u128)count * dec->bit_width + 7) / 8;
    DL_PQ_CHECK_AT(
        need <= left, err, DL_ERR_CORRUPT, at,
        "%s at byte %zu: bit-packed run of %llu values at bit width %u needs %llu bytes but "
        "only %zu are left",
        dec->name, at, (unsigned long long)count, dec->bit_width, (unsigned long long)need, left);
    dl_u128 full = (dl_u128)groups * dec->bit_width;
    dec->bp_next = dec->pos;
    dec->bp_end = dec->pos + (full < left ? (size_t)full : left);
    dec->bp_left = count;
    dec->pos = dec->bp_end;
    return DL_OK;
}

/* Reads the next run header. Assumes the current run is used up. */
static dl_status
read_run(dl_pq_rle_decoder *dec, dl_error *err) {
    dec->run_start = dec->pos;
    size_t at = dec->page_offset + dec->pos;
    DL_PQ_CHECK_AT(dec->pos < dec->len, err, DL_ERR_CORRUPT, at,
                   "%s at byte %zu: the data ends but %llu more values are expected", dec->name, at,
                   (unsigned long long)dec->remaining);
    uint64_t header;
    DL_PQ_CHECK_AT(dl_pq_uleb_read(dec->data, dec->len, &dec->pos, &header), err, DL_ERR_CORRUPT,
                   at, "%s at byte %zu: run header is cut off or longer than 64 bits", dec->name,
                   at);
    if ((header & 1) != 0) {
        return read_bit_packed(dec, header >> 1, err);
    }
    uint64_t count = header >> 1;
    DL_PQ_CHECK_AT(count <= dec->remaining, err, DL_ERR_CORRUPT, at,
                   "%s at byte %zu: RLE run of %llu values exceeds the %llu values left", dec->name,
                   at, (unsigned long long)count, (unsigned long long)dec->remaining);
    return read_rle_value(dec, count, err);
}

/* Unpacks the next group of the bit-packed run into dec->buf. Assumes bp_left > 0. */
static void
fill_buf(dl_pq_rle_decoder *dec) {
    size_t group_bytes = 4 * (size_t)dec->bit_width;
    size_t avail = dec->bp_end - dec->bp_next;
    if (avail >= group_bytes) {
        dl_pq_unpack32_u32(dec->data + dec->bp_next, dec->buf, dec->bit_width);
        dec->bp_next += group_bytes;
    } else {
        dl_pq_unpack32_u32_tail(dec->data + dec->bp_next, avail, dec->buf, dec->bit_width);
        dec->bp_next += avail;
    }
    dec->buf_len = (uint32_t)DL_PQ_MIN_SIZE(dec->bp_left, 32);
    dec->buf_pos = 0;
    dec->bp_left -= dec->buf_len;
}

static DL_PQ_INLINE void
store_values(void *out, size_t at, const uint32_t *src, size_t n, const unsigned size) {
    if (size == 4) {
        memcpy((uint32_t *)out + at, src, n * sizeof(uint32_t));
    } else if (size == 2) {
        uint16_t *o = (uint16_t *)out + at;
        for (size_t i = 0; i < n; i++) {
            o[i] = (uint16_t)src[i];
        }
    } else {
        uint8_t *o = (uint8_t *)out + at;
        for (size_t i = 0; i < n; i++) {
            o[i] = (uint8_t)src[i];
        }
    }
}

static DL_PQ_INLINE void
fill_values(void *out, size_t at, uint32_t value, size_t n, const unsigned size) {
    if (size == 4) {
        uint32_t *o = (uint32_t *)out + at;
        for (size_t i = 0; i < n; i++) {
            o[i] = value;
        }
    } else if (size == 2) {
        uint16_t *o = (uint16_t *)out + at;
        for (size_t i = 0; i < n; i++) {
            o[i] = (uint16_t)value;
        }
    } else {
        memset((uint8_t *)out + at, (int)value, n);
    }
}

/* Unpacks whole groups of the bit-packed run straight to out[at...]; returns the values
 * written (a multiple of 32, possibly 0). */
static DL_PQ_INLINE size_t
unpack_groups(dl_pq_rle_decoder *dec, void *out, size_t at, size_t want, const unsigned size) {
    const unsigned bw = dec->bit_width;
    const size_t group_bytes = 4 * (size_t)bw;
    size_t done = 0;
    while (want - done >= 32 && dec->bp_left >= 32 && dec->bp_end - dec->bp_next >= group_bytes) {
        if (size == 4) {
            dl_pq_unpack32_u32(dec->data + dec->bp_next, (uint32_t *)out + at + done, bw);
        } else {
            uint32_t tmp[32];
            dl_pq_unpack32_u32(dec->data + dec->bp_next, tmp, bw);
            store_values(out, at + done, tmp, 32, size);
        }
        dec->bp_next += group_bytes;
        dec->bp_left -= 32;
        done += 32;
    }
    return done;
}

static DL_PQ_INLINE dl_status
decode_values(dl_pq_rle_decoder *dec, size_t n, void *out, const unsigned size, dl_error *err) {
    DL_CHECK(n <= dec->remaining, err, DL_ERR_INVALID_ARG,
             "%s: %zu values requested but only %llu are left", dec->name, n,
             (unsigned long long)dec->remaining);
    size_t i = 0;
    while (i < n) {
        size_t want = n - i;
        if (dec->buf_pos < dec->buf_len) {
            size_t k = DL_PQ_MIN_SIZE(want, (size_t)(dec->buf_len - dec->buf_pos));
            store_values(out, i, dec->buf + dec->buf_pos, k, size);
            dec->buf_pos += (uint32_t)k;
            dec->remaining -= k;
            i += k;
        } else if (dec->rle_left > 0) {
            size_t k = (size_t)DL_PQ_MIN_SIZE(want, dec->rle_left);
            fill_values(out, i, dec->rle_value, k, size);
            dec->rle_left -= k;
            dec->remaining -= k;
            i += k;
        } else if (dec->bp_left > 0) {
            size_t k = unpack_groups(dec, out, i, want, size);
            if (k == 0) {
                fill_buf(dec);
            }
            dec->remaining -= k;
            i += k;
        } else {
            DL_TRY(read_run(dec, err));
        }
    }
    return DL_OK;
}

dl_status
dl_pq_rle_decode_u32(dl_pq_rle_decoder *dec, size_t n, uint32_t *out, dl_error *err) {
    return decode_values(dec, n, out, 4, err);
}

dl_status
dl_pq_rle_decode_u16(dl_pq_rle_decoder *dec, size_t n, uint16_t *out, dl_error *err) {
    DL_CHECK(dec->bit_width <= 16, err, DL_ERR_INVALID_ARG,
             "%s: bit width %u is too wide for 16-bit output", dec->name, dec->bit_width);
    return decode_values(dec, n, out, 2, err);
}

dl_status
dl_pq_rle_decode_u8(dl_pq_rle_decoder *dec, size_t n, uint8_t *out, dl_error *err) {
    DL_CHECK(dec->bit_width <= 8, err, DL_ERR_INVALID_ARG,
             "%s: bit width %u is too wide for 8-bit output", dec->name, dec->bit_width);
    return decode_values(dec, n, out, 1, err);
}

dl_status
dl_pq_rle_decode_indices(dl_pq_rle_decoder *dec, size_t n, uint32_t *out, uint32_t dict_size,
                         dl_error *err) {
    uint64_t max_value = 0;
    if (dec->bit_width > 0) {
        max_value = ~(uint64_t)0 >> (64 - dec->bit_width);
    }
    DL_TRY(decode_values(dec, n, out, 4, err));
    if (max_value < dict_size) {
        return DL_OK; /* every value of this bit width is a valid index */
    }
    uint32_t is_bad = 0;
    for (size_t i = 0; i < n; i++) {
        is_bad |= out[i] >= dict_size;
    }
    if (DL_LIKELY(!is_bad)) {
        return DL_OK;
    }
    for (size_t i = 0; i < n; i++) {
        if (out[i] >= dict_size) {
            DL_PQ_FAIL_AT(err, DL_ERR_CORRUPT, dec->page_offset + dec->run_start,
                          "%s at byte %zu: index %u is out of range for a dictionary of %u values",
                          dec->name, dec->page_offset + dec->run_start, out[i], dict_size);
        }
    }
    return DL_OK;
}

dl_status
dl_pq_rle_skip(dl_pq_rle_decoder *dec, size_t n, dl_error *err) {
    DL_CHECK(n <= dec->remaining, err, DL_ERR_INVALID_ARG,
             "%s: %zu values to skip but only %llu are left", dec->name, n,
             (unsigned long long)dec->remaining);
    size_t group_bytes = 4 * (size_t)dec->bit_width;
    size_t i = 0;
    while (i < n) {
        size_t want = n - i;
        if (dec->buf_pos < dec->buf_len) {
            size_t k = DL_PQ_MIN_SIZE(want, (size_t)(dec->buf_len - dec->buf_pos));
            dec->buf_pos += (uint32_t)k;
            dec->remaining -= k;
            i += k;
        } else if (dec->rle_left > 0) {
            size_t k = (size_t)DL_PQ_MIN_SIZE(want, dec->rle_left);
            dec->rle_left -= k;
            dec->remaining -= k;
            i += k;
        } else if (dec->bp_left >= 32 && want >= 32 && dec->bp_end - dec->bp_next >= group_bytes) {
            dec->bp_next += group_bytes;
            dec->bp_left -= 32;
            dec->remaining -= 32;
            i += 32;
        } else if (dec->bp_left > 0) {
            fill_buf(dec);
        } else {
            DL_TRY(read_run(dec, err));
        }
    }
    return DL_OK;
}

dl_status
dl_pq_bit_packed_decode_u16(const uint8_t *data, size_t len, unsigned bit_width, uint64_t start,
                            size_t n, uint16_t *out, size_t page_offset, dl_error *err) {
    DL_CHECK(bit_width <= 16, err, DL_ERR_INVALID_ARG, "BIT_PACKED: bit width %u exceeds 16",
             bit_width);
    dl_u128 end_bit = ((dl_u128)start + n) * bit_width;
    DL_PQ_CHECK_AT(
        end_bit <= (dl_u128)len * 8, err, DL_ERR_CORRUPT, page_offset,
        "BIT_PACKED at byte %zu: levels up to %llu at bit width %u need %llu bytes but the "
        "section has %zu",
        page_offset, (unsigned long long)(start + n), bit_width,
        (unsigned long long)((end_bit + 7) / 8), len);
    if (bit_width == 0) {
        memset(out, 0, n * sizeof(*out));
        return DL_OK;
    }
    uint32_t mask = (1u << bit_width) - 1;
    uint64_t bit = start * bit_width;
    for (size_t i = 0; i < n; i++, bit += bit_width) {
        size_t k = (size_t)(bit >> 3);
        unsigned off = (unsigned)(bit & 7);
        /* A 24-bit big-endian window holds any value of <= 16 bits at any bit offset. */
        uint32_t window = (uint32_t)data[k] << 16;
        if (k + 1 < len) {
            window |= (uint32_t)data[k + 1] << 8;
        }
        if (k + 2 < len) {
            window |= data[k + 2];
        }
        out[i] = (uint16_t)((window >> (24 - off - bit_width)) & mask);
    }
    return DL_OK;
}

/* ---- encoder ---------------------------------------------------------------------------- */

static DL_PQ_INLINE uint32_t
get_value(const void *values, size_t i, const unsigned size) {
    if (size == 4) {
        return ((const uint32_t *)values)[i];
    }
    if (size == 2) {
        return ((const uint16_t *)values)[i];
    }
    return ((const uint8_t *)values)[i];
}

static dl_status
emit_rle(dl_buf *out, uint32_t value, uint64_t count, unsigned bit_width, dl_error *err) {
    size_t value_bytes = (bit_width + 7) / 8;
    while (count > 0) {
        uint64_t c = DL_PQ_MIN_SIZE(count, MAX_RLE_RUN);
        DL_TRY(dl_buf_reserve(out, DL_PQ_ULEB_MAX + 4, err));
        out->len += dl_pq_uleb_write(out->data + out->len, c << 1);
        dl_pq_store_le32(out->data + out->len, value);
        out->len += value_bytes;
        count -= c;
    }
    return DL_OK;
}

/* Writes values[start, start + count) as bit-packed runs; the last group is padded with 0. */
static DL_PQ_INLINE dl_status
emit_bit_packed(dl_buf *out, const void *values, size_t start, size_t count, unsigned bit_width,
                const unsigned size, dl_error *err) {
    while (count > 0) {
        size_t c = DL_PQ_MIN_SIZE(count, MAX_BP_RUN);
        size_t groups = (c + 7) / 8;
        DL_TRY(dl_buf_reserve(out, DL_PQ_ULEB_MAX + (groups + 4) * bit_width, err));
        out->len += dl_pq_uleb_write(out->data + out->len, (uint64_t)groups << 1 | 1);
        for (size_t j = 0; j < c; j += 32) {
            uint32_t tmp[32] = {0};
            size_t k = DL_PQ_MIN_SIZE(c - j, 32);
            for (size_t t = 0; t < k; t++) {
                tmp[t] = get_value(values, start + j + t, size);
            }
            dl_pq_pack32_u32(tmp, out->data + out->len, bit_width);
            out->len += (k + 7) / 8 * bit_width;
        }
        start += c;
        count -= c;
    }
    return DL_OK;
}

static DL_PQ_INLINE dl_status
check_fit(const void *values, size_t n, unsigned bit_width, const unsigned size, dl_error *err) {
    DL_CHECK(bit_width <= 32, err, DL_ERR_INVALID_ARG, "RLE: bit width %u exceeds 32", bit_width);
    uint32_t all = 0;
    for (size_t i = 0; i < n; i++) {
        all |= get_value(values, i, size);
    }
    DL_CHECK(dl_pq_bit_width(all) <= bit_width, err, DL_ERR_INVALID_ARG,
             "RLE: a value needs %u bits but the bit width is %u", dl_pq_bit_width(all), bit_width);
    return DL_OK;
}

/* The runs: RLE for runs of MIN_RLE_RUN or more equal values that start on a group boundary
 * of the pending literals (a run is shortened at its start to pad the literals to a group
 * of 8), bit-packed groups for everything else. */
static DL_PQ_INLINE dl_status
encode_runs(const void *values, size_t n, unsigned bit_width, const unsigned size, dl_buf *out,
            dl_error *err) {
    size_t lit_start = 0;
    size_t i = 0;
    while (i < n) {
        uint32_t v = get_value(values, i, size);
        size_t j = i + 1;
        if (j < n && get_value(values, j, size) != v) {
            i = j; /* the common case in literal stretches: no run starts here */
            continue;
        }
        while (j < n && get_value(values, j, size) == v) {
            j++;
        }
        size_t pending = i - lit_start;
        size_t pad = (8 - pending % 8) % 8;
        if (j - i >= MIN_RLE_RUN + pad) {
            DL_TRY(emit_bit_packed(out, values, lit_start, pending + pad, bit_width, size, err));
            DL_TRY(emit_rle(out, v, j - i - pad, bit_width, err));
            lit_start = j;
        }
        i = j;
    }
    if (lit_start < n) {
        DL_TRY(emit_bit_packed(out, values, lit_start, n - lit_start, bit_width, size, err));
    }
    return DL_OK;
}

static DL_PQ_INLINE dl_status
encode_values(const void *values, size_t n, unsigned bit_width, dl_pq_rle_framing framing,
              const unsigned size, dl_buf *out, dl_error *err) {
    DL_TRY(check_fit(values, n, bit_width, size, err));
    size_t prefix_at = out->len;
    if (framing == DL_PQ_RLE_LENGTH_PREFIX) {
        DL_TRY(dl_buf_append(out, "\0\0\0\0", 4, err));
    }
    DL_TRY(encode_runs(values, n, bit_width, size, out, err));
    if (framing == DL_PQ_RLE_LENGTH_PREFIX) {
        size_t body = out->len - prefix_at - 4;
        DL_CHECK(body <= UINT32_MAX, err, DL_ERR_LIMIT,
                 "RLE: %zu bytes of runs exceed the 4 GiB length prefix", body);
        dl_pq_store_le32(out->data + prefix_at, (uint32_t)body);
    }
    return DL_OK;
}

dl_status
dl_pq_rle_encode_u32(const uint32_t *values, size_t n, unsigned bit_width,
                     dl_pq_rle_framing framing, dl_buf *out, dl_error *err) {
    return encode_values(values, n, bit_width, framing, 4, out, err);
}

dl_status
dl_pq_rle_encode_u16(const uint16_t *values, size_t n, unsigned bit_width,
                     dl_pq_rle_framing framing, dl_buf *out, dl_error *err) {
    return encode_values(values, n, bit_width, framing, 2, out, err);
}

dl_status
dl_pq_rle_encode_u8(const uint8_t *values, size_t n, unsigned bit_width, dl_pq_rle_framing framing,
                    dl_buf *out, dl_error *err) {
    return encode_values(values, n, bit_width, framing, 1, out, err);
}

dl_status
dl_pq_dict_indices_encode(const uint32_t *indices, size_t n, uint32_t dict_size, dl_buf *out,
                          dl_error *err) {
    uint32_t max = 0;
    for (size_t i = 0; i < n; i++) {
        max = indices[i] > max ? indices[i] : max;
    }
    DL_CHECK(n == 0 || max < dict_size, err, DL_ERR_INVALID_ARG,
             "RLE_DICTIONARY: index %u is out of range for a dictionary of %u values", max,
             dict_size);
    unsigned bit_width = dict_size > 1 ? dl_pq_bit_width(dict_size - 1) : 0;
    DL_TRY(dl_buf_append_byte(out, (uint8_t)bit_width, err));
    return encode_values(indices, n, bit_width, DL_PQ_RLE_BARE, 4, out, err);
}
