/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The dictionary of a column chunk being written (Encodings.md "Dictionary Encoding"): the
 * distinct values in first-seen order, kept PLAIN-encoded so that the dictionary page body is
 * the buffer itself, and an open-addressing hash table (linear probing, load <= 1/2) from a
 * value to its index. A slot holds the value's 32-bit hash and its index + 1, so growth never
 * rehashes values and most probes settle without touching the values.
 *
 * Values are compared by their bytes: floats by bit pattern, so -0.0 and +0.0, and NaNs with
 * different payloads, are different entries and come back as they went in.
 */
#include <string.h>

#include "parquet/pq_write_int.h"

#define MIN_CAP 64

void
dl_pq_wdict_init(dl_pq_wdict *dict, const dl_allocator *alloc, size_t width) {
    memset(dict, 0, sizeof(*dict));
    dict->alloc = alloc;
    dict->width = width;
    dl_buf_init(&dict->values, alloc);
    dl_buf_init(&dict->offsets, alloc);
}

void
dl_pq_wdict_destroy(dl_pq_wdict *dict) {
    dl_buf_destroy(&dict->values);
    dl_buf_destroy(&dict->offsets);
    dl_mem_free(dict->alloc, dict->slots, dict->cap * sizeof(uint64_t));
    dict->slots = NULL;
    dict->cap = 0;
    dict->n_entries = 0;
}

void
dl_pq_wdict_reset(dl_pq_wdict *dict) {
    dl_buf_reset(&dict->values);
    dl_buf_reset(&dict->offsets);
    if (dict->slots != NULL) {
        memset(dict->slots, 0, dict->cap * sizeof(uint64_t));
    }
    dict->n_entries = 0;
}

/* Makes room for one more entry: grows (doubling) when the table would pass half full. */
static dl_status
reserve_slot(dl_pq_wdict *dict, dl_error *err) {
    if (dict->cap != 0 && ((size_t)dict->n_entries + 1) * 2 <= dict->cap) {
        return DL_OK;
    }
    DL_CHECK(dict->n_entries < UINT32_MAX - 1, err, DL_ERR_LIMIT,
             "dictionary: more than %u distinct values", (unsigned)(UINT32_MAX - 1));
    size_t cap = dict->cap == 0 ? MIN_CAP : dict->cap * 2;
    uint64_t *slots = dl_mem_alloc_zero(dict->alloc, cap * sizeof(uint64_t));
    DL_CHECK(slots != NULL, err, DL_ERR_NOMEM, "dictionary: out of memory for %zu slots", cap);
    for (size_t i = 0; i < dict->cap; i++) {
        uint64_t s = dict->slots[i];
        if (s == 0) {
            continue;
        }
        size_t pos = (size_t)(s >> 32) & (cap - 1);
        while (slots[pos] != 0) {
            pos = (pos + 1) & (cap - 1);
        }
        slots[pos] = s;
    }
    dl_mem_free(dict->alloc, dict->slots, dict->cap * sizeof(uint64_t));
    dict->slots = slots;
    dict->cap = cap;
    return DL_OK;
}

static inline uint32_t
hash32(uint64_t h) {
    return (uint32_t)(h ^ (h >> 32));
}

/* Finds the slot of a fixed-width value (4 or 8 bytes, or dict->width), or the empty slot
 * where it belongs. */
static inline size_t
find_fixed(const dl_pq_wdict *dict, const void *val, size_t width, uint32_t h) {
    size_t mask = dict->cap - 1;
    size_t pos = h & mask;
    for (;;) {
        uint64_t s = dict->slots[pos];
        if (s == 0) {
            return pos;
        }
        if ((uint32_t)(s >> 32) == h) {
            size_t idx = (size_t)(uint32_t)s - 1;
            if (memcmp(dict->values.data + idx * width, val, width) == 0) {
                return pos;
            }
        }
        pos = (pos + 1) & mask;
    }
}

static dl_status
put_fixed_width(dl_pq_wdict *dict, const uint8_t *vals, size_t n, size_t width, uint32_t *out,
                dl_error *err) {
    for (size_t i = 0; i < n; i++) {
        const uint8_t *v = vals + i * width;
        uint64_t word = 0;
        uint32_t h;
        if (width == 4 || width == 8) {
            memcpy(&word, v, width);
            h = hash32(dl_hash_u64(word));
        } else {
            h = hash32(dl_hash_bytes(v, width, 0));
        }
        if (dict->cap == 0) {
            DL_TRY(reserve_slot(dict, err));
        }
        size_t pos = find_fixed(dict, v, width, h);
        if (dict->slots[pos] != 0) {
            out[i] = (uint32_t)dict->slots[pos] - 1;
            continue;
        }
        size_t n_before = dict->cap;
        DL_TRY(reserve_slot(dict, err));
        if (dict->cap != n_before) {
            pos = find_fixed(dict, v, width, h);
        }
        DL_TRY(dl_buf_append(&dict->values, v, width, err));
        uint32_t idx = dict->n_entries++;
        dict->slots[pos] = (uint64_t)h << 32 | (idx + 1u);
        out[i] = idx;
    }
    return DL_OK;
}

dl_status
dl_pq_wdict_put_u32(dl_pq_wdict *dict, const uint32_t *vals, size_t n, uint32_t *out,
                    dl_error *err) {
    DL_ASSERT(dict->width == 4);
    return put_fixed_width(dict, (const uint8_t *)vals, n, 4, out, err);
}

dl_status
dl_pq_wdict_put_u64(dl_pq_wdict *dict, const uint64_t *vals, size_t n, uint32_t *out,
                    dl_error *err) {
    DL_ASSERT(dict->width == 8);
    return put_fixed_width(dict, (const uint8_t *)vals, n, 8, out, err);
}

dl_status
dl_pq_wdict_put_fixed(dl_pq_wdict *dict, const uint8_t *vals, size_t n, uint32_t *out,
                      dl_error *err) {
    DL_ASSERT(dict->width > 0);
    return put_fixed_width(dict, vals, n, dict->width, out, err);
}

/* The entry idx of a BYTE_ARRAY dictionary (without its length prefix). */
static inline dl_str
entry_bytes(const dl_pq_wdict *dict, size_t idx) {
    size_t off = ((const size_t *)dict->offsets.data)[idx];
    uint32_t len;
    memcpy(&len, dict->values.data + off, 4);
    return dl_str_make((const char *)dict->values.data + off + 4, len);
}

static inline size_t
find_bytes(const dl_pq_wdict *dict, dl_str v, uint32_t h) {
    size_t mask = dict->cap - 1;
    size_t pos = h & mask;
    for (;;) {
        uint64_t s = dict->slots[pos];
        if (s == 0) {
            return pos;
        }
        if ((uint32_t)(s >> 32) == h && dl_str_eq(entry_bytes(dict, (uint32_t)s - 1u), v)) {
            return pos;
        }
        pos = (pos + 1) & mask;
    }
}

static dl_status
add_bytes(dl_pq_wdict *dict, dl_str v, dl_error *err) {
    DL_CHECK(v.len <= INT32_MAX, err, DL_ERR_INVALID_ARG,
             "a BYTE_ARRAY value of %zu bytes exceeds Parquet's 2 GiB limit", v.len);
    size_t off = dict->values.len;
    DL_TRY(dl_buf_append(&dict->offsets, &off, sizeof(off), err));
    uint8_t *p = dl_buf_extend(&dict->values, 4 + v.len, err);
    if (p == NULL) {
        dict->offsets.len -= sizeof(off);
        return DL_ERR_NOMEM;
    }
    uint32_t len = (uint32_t)v.len;
    memcpy(p, &len, 4);
    if (v.len > 0) {
        memcpy(p + 4, v.ptr, v.len);
    }
    return DL_OK;
}

dl_status
dl_pq_wdict_put_bytes(dl_pq_wdict *dict, const dl_str *vals, size_t n, uint32_t *out,
                      dl_error *err) {
    DL_ASSERT(dict->width == 0);
    for (size_t i = 0; i < n; i++) {
        dl_str v = vals[i];
        uint32_t h = hash32(dl_hash_bytes(v.ptr, v.len, 0));
        if (dict->cap == 0) {
            DL_TRY(reserve_slot(dict, err));
        }
        size_t pos = find_bytes(dict, v, h);
        if (dict->slots[pos] != 0) {
            out[i] = (uint32_t)dict->slots[pos] - 1;
            continue;
        }
        size_t n_before = dict->cap;
        DL_TRY(reserve_slot(dict, err));
        if (dict->cap != n_before) {
            pos = find_bytes(dict, v, h);
        }
        DL_TRY(add_bytes(dict, v, err));
        uint32_t idx = dict->n_entries++;
        dict->slots[pos] = (uint64_t)h << 32 | (idx + 1u);
        out[i] = idx;
    }
    return DL_OK;
}

dl_status
dl_pq_wdict_gather(const dl_pq_wdict *dict, const uint32_t *indices, size_t n, dl_buf *out,
                   dl_error *err) {
    if (dict->width > 0) {
        size_t w = dict->width;
        uint8_t *p = dl_buf_extend(out, n * w, err);
        if (p == NULL && n > 0) {
            return DL_ERR_NOMEM;
        }
        for (size_t i = 0; i < n; i++) {
            memcpy(p + i * w, dict->values.data + (size_t)indices[i] * w, w);
        }
        return DL_OK;
    }
    const size_t *offs = (const size_t *)dict->offsets.data;
    for (size_t i = 0; i < n; i++) {
        size_t off = offs[indices[i]];
        size_t end = indices[i] + 1u < dict->n_entries ? offs[indices[i] + 1] : dict->values.len;
        DL_TRY(dl_buf_append(out, dict->values.data + off, end - off, err));
    }
    return DL_OK;
}
