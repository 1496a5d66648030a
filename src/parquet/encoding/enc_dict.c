/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Dictionary gathers (Encodings.md "Dictionary Encoding"): a dictionary page holds the
 * column chunk's distinct values PLAIN-encoded; data pages hold indices into it
 * (enc_rle_bp.c decodes and bounds-checks them). These loops turn checked indices into
 * values. Assumes every index < the dictionary's size.
 */
#include <string.h>

#include "parquet/encoding/pq_encoding.h"

void
dl_pq_dict_gather_u32(const uint32_t *dict, const uint32_t *indices, size_t n, uint32_t *out) {
    for (size_t i = 0; i < n; i++) {
        out[i] = dict[indices[i]];
    }
}

void
dl_pq_dict_gather_u64(const uint64_t *dict, const uint32_t *indices, size_t n, uint64_t *out) {
    for (size_t i = 0; i < n; i++) {
        out[i] = dict[indices[i]];
    }
}

void
dl_pq_dict_gather_str(const dl_str *dict, const uint32_t *indices, size_t n, dl_str *out) {
    for (size_t i = 0; i < n; i++) {
        out[i] = dict[indices[i]];
    }
}

void
dl_pq_dict_gather_bytes(const uint8_t *dict, size_t width, const uint32_t *indices, size_t n,
                        uint8_t *out) {
    for (size_t i = 0; i < n; i++) {
        memcpy(out + i * width, dict + (size_t)indices[i] * width, width);
    }
}
