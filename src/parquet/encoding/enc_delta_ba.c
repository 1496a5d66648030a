/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DELTA_BYTE_ARRAY (Encodings.md "Delta Strings"), front coding: each value is stored as the
 * length of the prefix it shares with the previous value plus the rest (its suffix). The
 * prefix lengths form one DELTA_BINARY_PACKED INT32 stream; the suffixes follow as
 * DELTA_LENGTH_BYTE_ARRAY.
 *
 *   "axis", "axle", "babble", "babyhood"
 *     →  DELTA(0, 2, 0, 3)  DELTA(4, 2, 6, 5)  "axislebabbleyhood"
 *
 * FIXED_LEN_BYTE_ARRAY columns store every length too. A prefix longer than the previous
 * value is CORRUPT (the first value's previous value is empty).
 *
 * Reconstructing costs a copy only when both prefix and suffix are non-empty: an empty
 * prefix makes the value its suffix (a view into the page), an empty suffix makes it a
 * prefix of the previous value (a view of that). Since each value may repeat the whole
 * previous value with one new byte, a small page can describe a huge output; output_limit
 * bounds what one page may build.
 */
#include <string.h>

#include "parquet/encoding/pq_enc_int.h"
#include "parquet/encoding/pq_encoding.h"

dl_status
dl_pq_dba_decoder_init(dl_pq_dba_decoder *dec, const uint8_t *data, size_t len, uint64_t max_values,
                       int32_t fixed_len, size_t page_offset, dl_arena *arena, dl_error *err) {
    memset(dec, 0, sizeof(*dec));
    data = DL_PQ_NONNULL(data);
    dec->page_offset = page_offset;
    dec->fixed_len = fixed_len;
    dec->arena = arena;
    dec->output_limit = DL_PQ_DBA_OUTPUT_LIMIT;
    dl_pq_delta_decoder prefixes;
    DL_TRY_CTX(dl_pq_delta_decoder_init(&prefixes, data, len, true, page_offset, err), err,
               "DELTA_BYTE_ARRAY prefix lengths");
    DL_PQ_CHECK_AT(
        prefixes.total <= max_values, err, DL_ERR_CORRUPT, page_offset,
        "DELTA_BYTE_ARRAY at byte %zu: the prefix lengths' header declares %llu values but "
        "the page holds %llu",
        page_offset, (unsigned long long)prefixes.total, (unsigned long long)max_values);
    size_t n = (size_t)prefixes.total;
    int32_t *lens = dl_arena_alloc_array(arena, n == 0 ? 1 : n, sizeof(int32_t));
    DL_CHECK(lens != NULL, err, DL_ERR_NOMEM, "out of memory for %zu DELTA_BYTE_ARRAY prefixes", n);
    DL_TRY_CTX(dl_pq_delta_decode_i32(&prefixes, n, lens, err), err,
               "DELTA_BYTE_ARRAY prefix lengths");
    for (size_t i = 0; i < n; i++) {
        DL_PQ_CHECK_AT(lens[i] >= 0, err, DL_ERR_CORRUPT, page_offset,
                       "DELTA_BYTE_ARRAY at byte %zu: value %zu has negative prefix length %d",
                       page_offset, i, lens[i]);
    }
    size_t at = prefixes.pos;
    DL_TRY_CTX(dl_pq_dlba_decoder_init(&dec->suffixes, data + at, len - at, max_values,
                                       page_offset + at, arena, err),
               err, "DELTA_BYTE_ARRAY suffixes");
    DL_PQ_CHECK_AT(dec->suffixes.n_values == n, err, DL_ERR_CORRUPT, page_offset + at,
                   "DELTA_BYTE_ARRAY at byte %zu: %zu prefix lengths but %zu suffixes",
                   page_offset + at, n, dec->suffixes.n_values);
    dec->prefix_lengths = (const uint32_t *)lens;
    dec->n_values = n;
    return DL_OK;
}

/* Builds value i from the previous value and its suffix. */
static DL_PQ_INLINE dl_status
build_value(dl_pq_dba_decoder *dec, size_t i, dl_str suffix, dl_arena *out_arena, dl_str *out,
            bool *out_is_built, dl_error *err) {
    size_t prefix = dec->prefix_lengths[i];
    DL_PQ_CHECK_AT(prefix <= dec->prev.len, err, DL_ERR_CORRUPT, dec->page_offset,
                   "DELTA_BYTE_ARRAY at byte %zu: value %zu has prefix length %zu but the previous "
                   "value has only %zu bytes",
                   dec->page_offset, i, prefix, dec->prev.len);
    *out_is_built = false;
    if (prefix == 0) {
        *out = suffix;
    } else if (suffix.len == 0) {
        *out = dl_str_make(dec->prev.ptr, prefix);
    } else {
        size_t n = prefix + suffix.len;
        DL_PQ_CHECK_AT(
            n <= dec->output_limit - dec->output_bytes, err, DL_ERR_LIMIT, dec->page_offset,
            "DELTA_BYTE_ARRAY at byte %zu: value %zu would take the page's reconstructed "
            "values past %zu bytes",
            dec->page_offset, i, dec->output_limit);
        char *p = dl_arena_alloc(out_arena, n);
        DL_CHECK(p != NULL, err, DL_ERR_NOMEM,
                 "out of memory for a DELTA_BYTE_ARRAY value of %zu bytes", n);
        memcpy(p, dec->prev.ptr, prefix);
        memcpy(p + prefix, suffix.ptr, suffix.len);
        dec->output_bytes += n;
        *out = dl_str_make(p, n);
        *out_is_built = true;
    }
    DL_PQ_CHECK_AT(dec->fixed_len < 0 || out->len == (size_t)dec->fixed_len, err, DL_ERR_CORRUPT,
                   dec->page_offset,
                   "DELTA_BYTE_ARRAY at byte %zu: value %zu has %zu bytes but the column's "
                   "FIXED_LEN_BYTE_ARRAY length is %d",
                   dec->page_offset, i, out->len, dec->fixed_len);
    return DL_OK;
}

/* Decodes up to 256 values at a time into out (which may be scratch for a skip). */
static dl_status
decode_chunk(dl_pq_dba_decoder *dec, size_t n, dl_str *out, dl_arena *out_arena, dl_error *err) {
    DL_TRY(dl_pq_dlba_decode(&dec->suffixes, n, out, err));
    for (size_t i = 0; i < n; i++) {
        bool is_built = false;
        DL_TRY(build_value(dec, dec->next + i, out[i], out_arena, &out[i], &is_built, err));
        dec->prev = out[i];
        /* A view of a built value is as transient as the value. */
        dec->is_prev_transient = is_built || (dec->is_prev_transient && out[i].len > 0 &&
                                              dec->prefix_lengths[dec->next + i] > 0);
    }
    dec->next += n;
    return DL_OK;
}

/* Copies a previous value that lives in the caller's arena to the decoder's own. */
static dl_status
save_prev(dl_pq_dba_decoder *dec, dl_error *err) {
    if (!dec->is_prev_transient) {
        return DL_OK;
    }
    char *p = dl_arena_memdup(dec->arena, dec->prev.ptr, dec->prev.len);
    DL_CHECK(p != NULL || dec->prev.len == 0, err, DL_ERR_NOMEM,
             "out of memory saving a DELTA_BYTE_ARRAY value of %zu bytes", dec->prev.len);
    dec->prev.ptr = p;
    dec->is_prev_transient = false;
    return DL_OK;
}

dl_status
dl_pq_dba_decode(dl_pq_dba_decoder *dec, size_t n, dl_str *out, dl_arena *out_arena,
                 dl_error *err) {
    DL_PQ_CHECK_AT(n <= dec->n_values - dec->next, err, DL_ERR_CORRUPT, dec->page_offset,
                   "DELTA_BYTE_ARRAY at byte %zu: %zu more values are needed but the section holds "
                   "only %zu more",
                   dec->page_offset, n, dec->n_values - dec->next);
    dl_arena *arena = out_arena != NULL ? out_arena : dec->arena;
    dl_status st = decode_chunk(dec, n, out, arena, err);
    if (arena != dec->arena && st == DL_OK) {
        st = save_prev(dec, err);
    }
    if (arena == dec->arena) {
        dec->is_prev_transient = false;
    }
    return st;
}

dl_status
dl_pq_dba_skip(dl_pq_dba_decoder *dec, size_t n, dl_arena *out_arena, dl_error *err) {
    dl_str scratch[256];
    while (n > 0) {
        size_t k = DL_PQ_MIN_SIZE(n, DL_ARRAY_LEN(scratch));
        DL_TRY(dl_pq_dba_decode(dec, k, scratch, out_arena, err));
        n -= k;
    }
    return DL_OK;
}

static size_t
common_prefix(dl_str a, dl_str b) {
    size_t n = DL_PQ_MIN_SIZE(a.len, b.len);
    size_t i = 0;
    while (i + 8 <= n) {
        uint64_t x, y;
        memcpy(&x, a.ptr + i, 8);
        memcpy(&y, b.ptr + i, 8);
        if (x != y) {
            return i + (size_t)__builtin_ctzll(x ^ y) / 8;
        }
        i += 8;
    }
    while (i < n && a.ptr[i] == b.ptr[i]) {
        i++;
    }
    return i;
}

dl_status
dl_pq_dba_encode(const dl_str *values, size_t n, dl_buf *out, dl_error *err) {
    for (size_t i = 0; i < n; i++) {
        DL_CHECK(values[i].len <= INT32_MAX, err, DL_ERR_INVALID_ARG,
                 "DELTA_BYTE_ARRAY: value %zu of %zu bytes exceeds the 2 GiB limit", i,
                 values[i].len);
    }
    /* Pass 0 writes the prefix lengths, pass 1 the suffix lengths. */
    dl_pq_delta_encoder prefixes;
    int32_t lens[256];
    dl_str suffixes[256];
    for (int pass = 0; pass < 2; pass++) {
        dl_pq_delta_encoder_init(&prefixes, true, n, out);
        for (size_t i = 0; i < n; i += DL_ARRAY_LEN(lens)) {
            size_t k = DL_PQ_MIN_SIZE(n - i, DL_ARRAY_LEN(lens));
            for (size_t j = 0; j < k; j++) {
                dl_str prev = i + j > 0 ? values[i + j - 1] : dl_str_make(NULL, 0);
                size_t p = common_prefix(prev, values[i + j]);
                lens[j] = (int32_t)(pass == 0 ? p : values[i + j].len - p);
            }
            DL_TRY(dl_pq_delta_encoder_put_i32(&prefixes, lens, k, err));
        }
        DL_TRY(dl_pq_delta_encoder_finish(&prefixes, err));
    }
    for (size_t i = 0; i < n; i += DL_ARRAY_LEN(suffixes)) {
        size_t k = DL_PQ_MIN_SIZE(n - i, DL_ARRAY_LEN(suffixes));
        size_t bytes = 0;
        for (size_t j = 0; j < k; j++) {
            dl_str prev = i + j > 0 ? values[i + j - 1] : dl_str_make(NULL, 0);
            size_t p = common_prefix(prev, values[i + j]);
            suffixes[j] = dl_str_make(values[i + j].ptr + p, values[i + j].len - p);
            bytes += suffixes[j].len;
        }
        DL_TRY(dl_buf_reserve(out, bytes, err));
        for (size_t j = 0; j < k; j++) {
            if (suffixes[j].len > 0) {
                dl_buf_append_unchecked(out, suffixes[j].ptr, suffixes[j].len);
            }
        }
    }
    return DL_OK;
}
