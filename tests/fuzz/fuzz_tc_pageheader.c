/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: bytes -> PageHeader (Thrift compact protocol), and the same bytes as a
 * ColumnIndex, an OffsetIndex and a BloomFilterHeader.
 *
 * Properties checked (a violation traps):
 *   - no crash, undefined behaviour, leak or oversized allocation;
 *   - a refused input has a status of CORRUPT or LIMIT and a message;
 *   - an accepted page header used at most the bytes given, re-encodes, and the encoding
 *     decodes to an equal header whose encoding is the same bytes again;
 *   - windows: a header that decodes from a prefix of the input decodes the same way, with
 *     the same length, from the whole input; one that fails as truncated on the whole input
 *     fails as truncated on its first half too (or hits the half's smaller allocation
 *     budget first).
 */
#include "base/base.h"
#include "parquet/parquet.h"

static void
require(bool cond) {
    if (!cond) {
        __builtin_trap();
    }
}

static void
check_refusal(dl_status s, const dl_error *err) {
    require(s == DL_ERR_CORRUPT || s == DL_ERR_LIMIT);
    require(err->msg[0] != '\0');
}

static void
check_round_trip(const dl_pq_page_header *ph, dl_arena *arena) {
    dl_buf first;
    dl_buf second;
    dl_error err;
    dl_buf_init(&first, NULL);
    dl_buf_init(&second, NULL);
    require(dl_pq_page_header_encode(ph, &first, &err) == DL_OK);
    dl_pq_page_header again;
    size_t used = 0;
    require(dl_pq_page_header_decode(first.data, first.len, 0, arena, &again, &used, NULL, &err) ==
            DL_OK);
    require(used == first.len);
    require(dl_pq_page_header_equal(ph, &again));
    require(dl_pq_page_header_encode(&again, &second, &err) == DL_OK);
    require(first.len == second.len && memcmp(first.data, second.data, first.len) == 0);
    dl_buf_destroy(&first);
    dl_buf_destroy(&second);
}

static void
check_indexes(const uint8_t *data, size_t size, dl_arena *arena) {
    dl_error err;
    dl_pq_column_index ci;
    dl_status s = dl_pq_column_index_decode(data, size, 0, arena, &ci, &err);
    if (s == DL_OK) {
        require(ci.n_min_values == ci.n_null_pages && ci.n_max_values == ci.n_null_pages);
        dl_buf out;
        dl_buf_init(&out, NULL);
        require(dl_pq_column_index_encode(&ci, &out, &err) == DL_OK);
        dl_pq_column_index again;
        require(dl_pq_column_index_decode(out.data, out.len, 0, arena, &again, &err) == DL_OK);
        require(dl_pq_column_index_equal(&ci, &again));
        dl_buf_destroy(&out);
    } else {
        check_refusal(s, &err);
    }
    dl_pq_offset_index oi;
    s = dl_pq_offset_index_decode(data, size, 0, arena, &oi, &err);
    if (s == DL_OK) {
        dl_buf out;
        dl_buf_init(&out, NULL);
        require(dl_pq_offset_index_encode(&oi, &out, &err) == DL_OK);
        dl_pq_offset_index again;
        require(dl_pq_offset_index_decode(out.data, out.len, 0, arena, &again, &err) == DL_OK);
        require(dl_pq_offset_index_equal(&oi, &again));
        dl_buf_destroy(&out);
    } else {
        check_refusal(s, &err);
    }
    dl_pq_bloom_filter_header bf;
    size_t used = 0;
    s = dl_pq_bloom_filter_header_decode(data, size, 0, arena, &bf, &used, &err);
    if (s != DL_OK) {
        check_refusal(s, &err);
    } else {
        require(used <= size);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_pq_page_header ph;
    dl_error err;
    size_t used = 0;
    bool is_truncated = false;
    dl_status s = dl_pq_page_header_decode(data, size, 4, &arena, &ph, &used, &is_truncated, &err);
    size_t window = size / 2;
    dl_pq_page_header part;
    size_t part_used = 0;
    bool part_truncated = false;
    dl_error part_err;
    dl_status ps = dl_pq_page_header_decode(data, window, 4, &arena, &part, &part_used,
                                            &part_truncated, &part_err);
    if (s == DL_OK) {
        require(used <= size);
        check_round_trip(&ph, &arena);
    } else {
        check_refusal(s, &err);
    }
    if (ps == DL_OK) {
        require(s == DL_OK && part_used == used && dl_pq_page_header_equal(&ph, &part));
    } else {
        check_refusal(ps, &part_err);
        /* A shorter window has a smaller allocation budget, so LIMIT may come first. */
        require(!(s != DL_OK && is_truncated) || part_truncated || ps == DL_ERR_LIMIT);
    }
    check_indexes(data, size, &arena);
    dl_arena_destroy(&arena);
    return 0;
}
