/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: the RLE / bit-packing hybrid decoders (levels, RLE booleans, dictionary
 * indices) and the deprecated BIT_PACKED levels.
 *
 * Input: 6 parameter bytes, then the page section.
 *   [0] mode: 0 bare u32 runs, 1 length-prefixed u16 levels, 2 dictionary indices,
 *       3 length-prefixed RLE booleans, 4 deprecated BIT_PACKED u16 levels
 *   [1] bit width (mod 33, or mod 17 for 16-bit outputs)
 *   [2..3] number of values (LE u16)
 *   [4] batch size - 1, high bit: skip every third batch
 *   [5] dictionary size - 1 (mode 2)
 *
 * Properties checked (a violation traps):
 *   - no crash, undefined behaviour, leak or out-of-bounds read;
 *   - a refusal is CORRUPT, names the encoding, and its err.offset lies within the section;
 *   - every decoded value fits in the bit width (indices are below the dictionary size);
 *   - decoded values re-encode with our encoder and decode to the same values.
 */
#include <string.h>

#include "base/base.h"
#include "parquet/encoding/pq_encoding.h"

/* libFuzzer's fixed entry point name. */
// NOLINTNEXTLINE(readability-identifier-naming)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum {
    HEADER = 6,
    MAX_VALUES = 65535,
    PAGE_OFFSET = 1000
};

static uint32_t values[MAX_VALUES];
static uint32_t again[MAX_VALUES];
static uint16_t values16[MAX_VALUES];
static uint8_t values8[MAX_VALUES];

static void
require(bool cond) {
    if (!cond) {
        __builtin_trap();
    }
}

static void
check_refusal(dl_status st, const dl_error *err, const char *name, size_t len) {
    require(st == DL_ERR_CORRUPT);
    require(strncmp(err->msg, name, strlen(name)) == 0);
    require(err->offset >= PAGE_OFFSET && (size_t)err->offset <= PAGE_OFFSET + len);
}

/* Decodes n values in batches into values[] (as u32), via the mode's output width. */
static dl_status
decode(dl_pq_rle_decoder *dec, int mode, size_t n, size_t batch, bool is_skipping,
       uint32_t dict_size, dl_error *err) {
    for (size_t i = 0, round = 0; i < n; round++) {
        size_t k = n - i < batch ? n - i : batch;
        dl_status st;
        if (is_skipping && round % 3 == 1) {
            st = dl_pq_rle_skip(dec, k, err);
            memset(values + i, 0, k * sizeof(uint32_t));
        } else if (mode == 1) {
            st = dl_pq_rle_decode_u16(dec, k, values16, err);
            for (size_t j = 0; st == DL_OK && j < k; j++) {
                values[i + j] = values16[j];
            }
        } else if (mode == 3) {
            st = dl_pq_rle_decode_u8(dec, k, values8, err);
            for (size_t j = 0; st == DL_OK && j < k; j++) {
                values[i + j] = values8[j];
            }
        } else if (mode == 2) {
            st = dl_pq_rle_decode_indices(dec, k, values + i, dict_size, err);
        } else {
            st = dl_pq_rle_decode_u32(dec, k, values + i, err);
        }
        if (st != DL_OK) {
            return st;
        }
        i += k;
    }
    require(dec->remaining == 0);
    return DL_OK;
}

static void
check_round_trip(size_t n, unsigned bw) {
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    require(dl_pq_rle_encode_u32(values, n, bw, DL_PQ_RLE_BARE, &buf, &err) == DL_OK);
    dl_pq_rle_decoder dec;
    require(dl_pq_rle_decoder_init(&dec, buf.data, buf.len, bw, n, 0, &err) == DL_OK);
    require(dl_pq_rle_decode_u32(&dec, n, again, &err) == DL_OK);
    require(n == 0 || memcmp(values, again, n * sizeof(uint32_t)) == 0);
    dl_buf_destroy(&buf);
}

static void
run_hybrid(int mode, unsigned bw, const uint8_t *page, size_t len, size_t n, size_t batch,
           bool is_skipping, uint32_t dict_size) {
    dl_pq_rle_decoder dec;
    dl_error err;
    dl_status st;
    size_t used = 0;
    const char *name = mode == 2 ? "RLE_DICTIONARY" : "RLE";
    if (mode == 1 || mode == 3) {
        st = dl_pq_rle_decoder_init_prefixed(&dec, page, len, bw, n, PAGE_OFFSET, &used, &err);
    } else if (mode == 2) {
        st = dl_pq_dict_indices_init(&dec, page, len, n, PAGE_OFFSET, &err);
    } else {
        st = dl_pq_rle_decoder_init(&dec, page, len, bw, n, PAGE_OFFSET, &err);
    }
    if (st == DL_OK) {
        require(used <= len);
        bw = dec.bit_width;
        st = decode(&dec, mode, n, batch, is_skipping, dict_size, &err);
    }
    if (st != DL_OK) {
        check_refusal(st, &err, name, len);
        return;
    }
    uint64_t limit = mode == 2 ? dict_size : (bw == 32 ? UINT64_MAX : (uint64_t)1 << bw);
    for (size_t i = 0; i < n; i++) {
        require(values[i] < limit);
    }
    if (!is_skipping) {
        check_round_trip(n, bw);
    }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < HEADER) {
        return 0;
    }
    int mode = data[0] % 5;
    unsigned bw = data[1] % 33;
    size_t n = (size_t)data[2] | (size_t)data[3] << 8;
    size_t batch = (size_t)(data[4] & 0x7F) + 1;
    bool is_skipping = (data[4] & 0x80) != 0;
    uint32_t dict_size = (uint32_t)data[5] + 1;
    const uint8_t *page = data + HEADER;
    size_t len = size - HEADER;
    if (mode == 1 || mode == 4) {
        bw %= 17;
    } else if (mode == 3) {
        bw = 1;
    }
    if (mode == 4) {
        dl_error err;
        size_t start = n / 3;
        dl_status st = dl_pq_bit_packed_decode_u16(page, len, bw, start, n - start, values16,
                                                   PAGE_OFFSET, &err);
        if (st != DL_OK) {
            check_refusal(st, &err, "BIT_PACKED", len);
            return 0;
        }
        for (size_t i = 0; i < n - start; i++) {
            require(bw == 16 || values16[i] < (1u << bw));
        }
        return 0;
    }
    run_hybrid(mode, bw, page, len, n, batch, is_skipping, dict_size);
    return 0;
}
