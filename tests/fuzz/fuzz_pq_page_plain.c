/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: PLAIN decoders for every physical type, BYTE_STREAM_SPLIT, and the INT96
 * timestamp conversions.
 *
 * Input: 5 parameter bytes, then the page section.
 *   [0] mode: 0 PLAIN fixed width, 1 PLAIN BOOLEAN, 2 PLAIN BYTE_ARRAY,
 *       3 BYTE_STREAM_SPLIT, 4 PLAIN INT96 converted to microseconds and nanoseconds
 *   [1] value width - 1 (mod 16; modes 0 and 3)
 *   [2..3] number of values the page claims (LE u16)
 *   [4] batch size - 1, high bit: skip every third batch
 *
 * Properties checked (a violation traps):
 *   - no crash, undefined behaviour, leak or out-of-bounds read;
 *   - a refusal is CORRUPT, names the encoding, and its err.offset lies within the section;
 *   - BYTE_ARRAY values are views inside the section;
 *   - decoded values re-encode to exactly the bytes they came from (BOOLEAN: up to the
 *     padding bits of the last byte; BYTE_STREAM_SPLIT: the whole section);
 *   - an INT96 value that converts to microseconds converts back to the same microseconds
 *     (when INT96 can hold the instant).
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
    MAX_WIDTH = 16,
    PAGE_OFFSET = 77
};

static uint8_t bytes[MAX_VALUES * MAX_WIDTH];
static dl_str strs[MAX_VALUES];
static int64_t times[MAX_VALUES];

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

/* Takes n values in batches; skipped values are not written. */
static dl_status
take_plain(dl_pq_plain_decoder *dec, int mode, size_t width, size_t n, size_t batch,
           bool is_skipping, dl_error *err) {
    for (size_t i = 0, round = 0; i < n; round++) {
        size_t k = n - i < batch ? n - i : batch;
        bool is_skip = is_skipping && round % 3 == 1;
        if (mode == 1) {
            DL_TRY(is_skip ? dl_pq_plain_skip_bool(dec, k, err)
                           : dl_pq_plain_decode_bool(dec, k, bytes + i, err));
        } else if (mode == 2) {
            DL_TRY(is_skip ? dl_pq_plain_skip(dec, 0, k, err)
                           : dl_pq_plain_decode_byte_array(dec, k, strs + i, err));
        } else {
            DL_TRY(is_skip ? dl_pq_plain_skip(dec, width, k, err)
                           : dl_pq_plain_decode_fixed(dec, width, k, bytes + i * width, err));
        }
        i += k;
    }
    return DL_OK;
}

static void
check_plain_round_trip(int mode, size_t width, size_t n, const uint8_t *page,
                       const dl_pq_plain_decoder *dec) {
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    dl_error err;
    if (mode == 1) {
        require(dl_pq_plain_encode_bool(bytes, n, &buf, &err) == DL_OK);
        require(buf.len == (n + 7) / 8 && buf.len == dec->pos);
        for (size_t i = 0; i < n; i++) {
            require(((buf.data[i / 8] ^ page[i / 8]) >> (i % 8) & 1) == 0);
        }
    } else if (mode == 2) {
        for (size_t i = 0; i < n; i++) {
            const uint8_t *p = (const uint8_t *)strs[i].ptr;
            require(p >= page && p + strs[i].len <= page + dec->len);
        }
        require(dl_pq_plain_encode_byte_array(strs, n, &buf, &err) == DL_OK);
        require(buf.len == dec->pos && (n == 0 || memcmp(buf.data, page, buf.len) == 0));
    } else {
        require(dl_pq_plain_encode_fixed(bytes, n, width, &buf, &err) == DL_OK);
        require(buf.len == dec->pos && (n == 0 || memcmp(buf.data, page, buf.len) == 0));
    }
    dl_buf_destroy(&buf);
}

static void
run_plain(int mode, size_t width, const uint8_t *page, size_t len, size_t n, size_t batch,
          bool is_skipping) {
    dl_pq_plain_decoder dec;
    dl_pq_plain_decoder_init(&dec, page, len, PAGE_OFFSET);
    dl_error err;
    dl_status st = take_plain(&dec, mode, width, n, batch, is_skipping, &err);
    if (st != DL_OK) {
        check_refusal(st, &err, "PLAIN", len);
        return;
    }
    require(dec.pos <= len);
    if (!is_skipping) {
        check_plain_round_trip(mode, width, n, page, &dec);
    }
}

static void
run_bss(size_t width, const uint8_t *page, size_t len, size_t n, size_t batch) {
    dl_pq_bss_decoder dec;
    dl_error err;
    dl_status st = dl_pq_bss_decoder_init(&dec, page, len, width, PAGE_OFFSET, &err);
    for (size_t i = 0; st == DL_OK && i < n; i += batch) {
        size_t k = n - i < batch ? n - i : batch;
        st = dl_pq_bss_decode(&dec, k, bytes + i * width, &err);
    }
    if (st != DL_OK) {
        check_refusal(st, &err, "BYTE_STREAM_SPLIT", len);
        return;
    }
    if (n == dec.n_values) {
        dl_buf buf;
        dl_buf_init(&buf, NULL);
        require(dl_pq_bss_encode(bytes, n, width, &buf, &err) == DL_OK);
        require(buf.len == len && (len == 0 || memcmp(buf.data, page, len) == 0));
        dl_buf_destroy(&buf);
    }
}

static void
run_int96(const uint8_t *page, size_t len, size_t n) {
    size_t have = len / DL_PQ_INT96_SIZE;
    n = n < have ? n : have;
    dl_error err;
    dl_status st = dl_pq_int96_to_micros(page, n, times, &err);
    require(st == DL_OK || (st == DL_ERR_CORRUPT && strncmp(err.msg, "INT96 value", 11) == 0));
    if (st == DL_OK) {
        for (size_t i = 0; i < n; i++) {
            uint8_t back[DL_PQ_INT96_SIZE];
            int64_t again;
            if (dl_pq_int96_from_micros(times[i], back)) {
                require(dl_pq_int96_to_micros(back, 1, &again, &err) == DL_OK);
                require(again == times[i]);
            }
        }
    }
    st = dl_pq_int96_to_nanos(page, n, times, &err);
    require(st == DL_OK || st == DL_ERR_CORRUPT);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < HEADER) {
        return 0;
    }
    int mode = data[0] % 5;
    size_t width = (size_t)(data[1] % MAX_WIDTH) + 1;
    size_t n = (size_t)data[2] | (size_t)data[3] << 8;
    size_t batch = (size_t)(data[4] & 0x7F) + 1;
    bool is_skipping = (data[4] & 0x80) != 0;
    const uint8_t *page = data + HEADER;
    size_t len = size - HEADER;
    if (mode == 3) {
        run_bss(width, page, len, n, batch);
    } else if (mode == 4) {
        run_int96(page, len, n);
    } else {
        run_plain(mode, width, page, len, n, batch, is_skipping);
    }
    return 0;
}
