/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: DELTA_BINARY_PACKED (INT32, INT64), DELTA_LENGTH_BYTE_ARRAY and
 * DELTA_BYTE_ARRAY decoders.
 *
 * Input: 5 parameter bytes, then the page section.
 *   [0] mode: 0 DELTA_BINARY_PACKED INT32, 1 INT64, 2 DELTA_LENGTH_BYTE_ARRAY,
 *       3 DELTA_BYTE_ARRAY, 4 DELTA_BYTE_ARRAY with a fixed length
 *   [1..2] number of values the page claims (LE u16)
 *   [3] batch size - 1, high bit: skip every third batch
 *   [4] the fixed length (mode 4)
 *
 * Properties checked (a violation traps):
 *   - no crash, undefined behaviour, leak or out-of-bounds read, also when each batch's
 *     output arena is destroyed before the next batch (DELTA_BYTE_ARRAY keeps its previous
 *     value alive by itself);
 *   - a refusal is CORRUPT (or LIMIT for DELTA_BYTE_ARRAY's output cap), names the
 *     encoding, and its err.offset lies within the section;
 *   - DELTA_LENGTH_BYTE_ARRAY values are views inside the section; fixed-length values have
 *     that length;
 *   - whatever decodes re-encodes with our encoders and decodes to the same values, and a
 *     DELTA_BINARY_PACKED stream ends within the section.
 */
#include <string.h>

#include "base/base.h"
#include "parquet/encoding/pq_encoding.h"

/* libFuzzer's fixed entry point name. */
// NOLINTNEXTLINE(readability-identifier-naming)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum {
    HEADER = 5,
    MAX_VALUES = 65535,
    PAGE_OFFSET = 500
};

static int64_t ints[MAX_VALUES];
static int64_t ints_again[MAX_VALUES];
static dl_str strs[MAX_VALUES];
static dl_str strs_again[MAX_VALUES];

static void
require(bool cond) {
    if (!cond) {
        __builtin_trap();
    }
}

static void
check_refusal(dl_status st, const dl_error *err, const char *name, size_t len) {
    require(st == DL_ERR_CORRUPT || st == DL_ERR_LIMIT);
    require(strncmp(err->msg, name, strlen(name)) == 0);
    require(err->offset >= PAGE_OFFSET && (size_t)err->offset <= PAGE_OFFSET + len);
}

static dl_status
take_ints(dl_pq_delta_decoder *dec, bool is32, size_t n, size_t batch, bool is_skipping,
          dl_error *err) {
    for (size_t i = 0, round = 0; i < n; round++) {
        size_t k = n - i < batch ? n - i : batch;
        dl_status st;
        if (is_skipping && round % 3 == 1) {
            st = dl_pq_delta_skip(dec, k, err);
        } else if (is32) {
            int32_t tmp[256];
            st = dl_pq_delta_decode_i32(dec, k, tmp, err);
            for (size_t j = 0; st == DL_OK && j < k; j++) {
                ints[i + j] = tmp[j];
            }
        } else {
            st = dl_pq_delta_decode_i64(dec, k, ints + i, err);
        }
        if (st != DL_OK) {
            return st;
        }
        i += k;
    }
    return DL_OK;
}

static void
check_int_round_trip(bool is32, size_t n) {
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    dl_pq_delta_decoder dec;
    if (is32) {
        static int32_t narrow[MAX_VALUES], back[MAX_VALUES];
        for (size_t i = 0; i < n; i++) {
            narrow[i] = (int32_t)ints[i];
        }
        require(dl_pq_delta_encode_i32(narrow, n, &buf, &err) == DL_OK);
        require(dl_pq_delta_decoder_init(&dec, buf.data, buf.len, true, 0, &err) == DL_OK);
        require(dl_pq_delta_decode_i32(&dec, n, back, &err) == DL_OK);
        require(n == 0 || memcmp(narrow, back, n * sizeof(int32_t)) == 0);
    } else {
        require(dl_pq_delta_encode_i64(ints, n, &buf, &err) == DL_OK);
        require(dl_pq_delta_decoder_init(&dec, buf.data, buf.len, false, 0, &err) == DL_OK);
        require(dl_pq_delta_decode_i64(&dec, n, ints_again, &err) == DL_OK);
        require(n == 0 || memcmp(ints, ints_again, n * sizeof(int64_t)) == 0);
    }
    require(dec.pos == buf.len);
    dl_buf_destroy(&buf);
}

static void
run_binary_packed(bool is32, const uint8_t *page, size_t len, size_t n, size_t batch,
                  bool is_skipping) {
    dl_pq_delta_decoder dec;
    dl_error err;
    dl_status st = dl_pq_delta_decoder_init(&dec, page, len, is32, PAGE_OFFSET, &err);
    if (st == DL_OK) {
        st = take_ints(&dec, is32, n, batch, is_skipping, &err);
    }
    if (st != DL_OK) {
        check_refusal(st, &err, "DELTA_BINARY_PACKED", len);
        return;
    }
    require(dec.pos <= len);
    if (!is_skipping) {
        check_int_round_trip(is32, n);
    }
}

/* Re-encodes strs[0, n) and checks they decode back the same. */
static void
check_str_round_trip(bool is_dba, size_t n) {
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    if (is_dba) {
        require(dl_pq_dba_encode(strs, n, &buf, &err) == DL_OK);
        dl_pq_dba_decoder dec;
        require(dl_pq_dba_decoder_init(&dec, buf.data, buf.len, n, -1, 0, &arena, &err) == DL_OK);
        require(dl_pq_dba_decode(&dec, n, strs_again, NULL, &err) == DL_OK);
    } else {
        require(dl_pq_dlba_encode(strs, n, &buf, &err) == DL_OK);
        dl_pq_dlba_decoder dec;
        require(dl_pq_dlba_decoder_init(&dec, buf.data, buf.len, n, 0, &arena, &err) == DL_OK);
        require(dl_pq_dlba_decode(&dec, n, strs_again, &err) == DL_OK);
    }
    for (size_t i = 0; i < n; i++) {
        require(dl_str_eq(strs[i], strs_again[i]));
    }
    dl_arena_destroy(&arena);
    dl_buf_destroy(&buf);
}

static dl_status
take_dlba(dl_pq_dlba_decoder *dec, const uint8_t *page, size_t len, size_t batch, dl_error *err) {
    size_t n = dec->n_values;
    for (size_t i = 0; i < n; i += batch) {
        size_t k = n - i < batch ? n - i : batch;
        DL_TRY(dl_pq_dlba_decode(dec, k, strs + i, err));
        for (size_t j = 0; j < k; j++) {
            const uint8_t *p = (const uint8_t *)strs[i + j].ptr;
            require(strs[i + j].len == 0 || (p >= page && p + strs[i + j].len <= page + len));
        }
    }
    return DL_OK;
}

/* DELTA_BYTE_ARRAY in batches, each batch's arena destroyed before the next one; the values
 * kept for the round trip are copied into `keep`. */
static dl_status
take_dba(dl_pq_dba_decoder *dec, size_t batch, int32_t fixed_len, dl_arena *keep, dl_error *err) {
    size_t n = dec->n_values;
    for (size_t i = 0; i < n; i += batch) {
        size_t k = n - i < batch ? n - i : batch;
        dl_arena out;
        dl_arena_init(&out, NULL, 64);
        dl_status st = dl_pq_dba_decode(dec, k, strs + i, &out, err);
        for (size_t j = 0; st == DL_OK && j < k; j++) {
            require(fixed_len < 0 || strs[i + j].len == (size_t)fixed_len);
            char *copy = dl_arena_memdup(keep, strs[i + j].ptr, strs[i + j].len);
            require(copy != NULL || strs[i + j].len == 0);
            strs[i + j].ptr = copy;
        }
        dl_arena_destroy(&out);
        DL_TRY(st);
    }
    return DL_OK;
}

static void
run_byte_arrays(int mode, const uint8_t *page, size_t len, size_t n, size_t batch,
                int32_t fixed_len) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    dl_status st;
    size_t got = 0;
    if (mode == 2) {
        dl_pq_dlba_decoder dec;
        st = dl_pq_dlba_decoder_init(&dec, page, len, n, PAGE_OFFSET, &arena, &err);
        if (st == DL_OK) {
            got = dec.n_values;
            st = take_dlba(&dec, page, len, batch, &err);
        }
    } else {
        dl_pq_dba_decoder dec;
        st = dl_pq_dba_decoder_init(&dec, page, len, n, fixed_len, PAGE_OFFSET, &arena, &err);
        if (st == DL_OK) {
            dec.output_limit = (size_t)1 << 22;
            got = dec.n_values;
            st = take_dba(&dec, batch, fixed_len, &arena, &err);
        }
    }
    if (st != DL_OK) {
        check_refusal(st, &err, mode == 2 ? "DELTA_LENGTH_BYTE_ARRAY" : "DELTA_BYTE_ARRAY", len);
    } else {
        require(got <= n);
        check_str_round_trip(mode != 2, got);
    }
    dl_arena_destroy(&arena);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < HEADER) {
        return 0;
    }
    int mode = data[0] % 5;
    size_t n = (size_t)data[1] | (size_t)data[2] << 8;
    size_t batch = (size_t)(data[3] & 0x7F) + 1;
    bool is_skipping = (data[3] & 0x80) != 0;
    int32_t fixed_len = mode == 4 ? data[4] : -1;
    const uint8_t *page = data + HEADER;
    size_t len = size - HEADER;
    if (mode <= 1) {
        run_binary_packed(mode == 0, page, len, n, batch, is_skipping);
    } else {
        run_byte_arrays(mode, page, len, n, batch, fixed_len);
    }
    return 0;
}
