/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The serialized deletion vector: Delta's RoaringBitmapArray and the DV file that frames it
 * (PROTOCOL.md, "Deletion Vector Format" and "Deletion Vector File Storage Format";
 * RoaringFormatSpec for the 32-bit layout and its 64-bit extension).
 *
 * RoaringBitmapArray, little-endian throughout:
 *
 *   magic      u32  1681511377 (portable) or 1681511376 (Spark's legacy native layout)
 *   portable:  numBuckets u64, then per bucket, keys strictly ascending:
 *                key u32 (the rows' high 32 bits; Delta requires the top bit clear)
 *                a 32-bit Roaring bitmap of the rows' low 32 bits (below)
 *   native:    numBitmaps i32 >= 0, then per bitmap i (its key is i):
 *                size i32, then a 32-bit Roaring bitmap of exactly size bytes
 *
 * A 32-bit Roaring bitmap (RoaringFormatSpec), holding n containers of 16-bit values:
 *
 *   cookie u32 = 12346: then n u32, no run containers, and an offset header
 *   cookie u32 low 16 bits = 12347: n - 1 in the high 16 bits, then a bitset of ceil(n / 8)
 *              bytes marking the run containers; the offset header only when n >= 4
 *   n x (key u16, cardinality - 1 u16)        keys strictly ascending
 *   [n x offset u32]                           byte offsets of the containers (skipped, as
 *                                              Java and CRoaring do)
 *   containers, in key order:
 *     run:     nRuns u16 >= 1, then nRuns x (start u16, length - 1 u16), ordered, disjoint,
 *              each ending at or below 65535
 *     array:   cardinality <= 4096: that many u16, strictly ascending
 *     bitset:  cardinality > 4096: 1024 u64 words, bit v set for value v; its population
 *              must equal the declared cardinality
 *
 * The Debian CRoaring (0.2.66) checks only lengths when deserializing: it trusts a bitset's
 * declared cardinality and the order of array values and runs, and prints to stderr on bad
 * input. So every rule above is checked here first, and CRoaring only ever sees valid
 * bitmaps; its deserializer is then called with exactly the validated length.
 *
 * A DV file: version u8 = 1; then DVs, each at the descriptor's offset:
 *   dataSize u32 big-endian (must equal sizeInBytes), the RoaringBitmapArray (dataSize bytes),
 *   checksum u32 big-endian = CRC-32 (zlib's, java.util.zip.CRC32's) of the bitmap bytes.
 */
#include <inttypes.h>
#include <roaring/roaring.h>
#include <stdarg.h>
#include <string.h>
#include <zlib.h>

#include "delta/delta_dv_int.h"

#define RB_COOKIE_NO_RUNS      12346u
#define RB_COOKIE_RUNS         12347u
#define RB_MAX_CONTAINERS      65536u
#define RB_ARRAY_MAX_CARD      4096u
#define RB_BITSET_BYTES        8192u
#define RB_NO_OFFSET_THRESHOLD 4u
#define RB_MIN_BITMAP_BYTES    8u /* cookie 12346 and a count of 0 */

/* Sets err to CORRUPT "RoaringBitmapArray at byte <at>: <message>" with offset at. */
static dl_status
DL_PRINTF(3, 4) corrupt_at(dl_error *err, size_t at, const char *fmt, ...) {
    if (err == NULL) {
        return DL_ERR_CORRUPT;
    }
    va_list ap;
    va_start(ap, fmt);
    (void)dl_error_setv(err, DL_ERR_CORRUPT, fmt, ap);
    va_end(ap);
    dl_error_prefix(err, "RoaringBitmapArray at byte %zu", at);
    err->offset = (int64_t)at;
    return DL_ERR_CORRUPT;
}

/* A 32-bit bitmap being validated: p[0, avail) with p at byte base of the whole input. */
typedef struct bitmap_reader {
    const uint8_t *p;
    size_t avail;
    size_t pos;    /* bytes of p consumed */
    size_t base;   /* offset of p in the input, for messages */
    uint32_t key;  /* bucket key, for messages */
    uint64_t card; /* values seen so far */
} bitmap_reader;

static dl_status
need(const bitmap_reader *r, size_t n, const char *what, dl_error *err) {
    if (r->avail - r->pos < n) {
        return corrupt_at(err, r->base + r->pos,
                          "bucket %" PRIu32 ": %s needs %zu bytes but only %zu remain", r->key,
                          what, n, r->avail - r->pos);
    }
    return DL_OK;
}

static dl_status
check_run_container(bitmap_reader *r, uint32_t index, dl_error *err) {
    DL_TRY(need(r, 2, "a run container's run count", err));
    uint32_t n_runs = dl_delta_load_le16(r->p + r->pos);
    if (n_runs == 0) {
        return corrupt_at(err, r->base + r->pos,
                          "bucket %" PRIu32 ": run container %" PRIu32 " has no runs", r->key,
                          index);
    }
    r->pos += 2;
    DL_TRY(need(r, (size_t)n_runs * 4, "a run container's runs", err));
    int64_t prev_last = -1;
    for (uint32_t k = 0; k < n_runs; k++) {
        const uint8_t *q = r->p + r->pos + (size_t)k * 4;
        uint32_t first = dl_delta_load_le16(q);
        uint32_t last = first + dl_delta_load_le16(q + 2);
        if (last > 0xFFFF || (int64_t)first <= prev_last) {
            return corrupt_at(err, r->base + r->pos + (size_t)k * 4,
                              "bucket %" PRIu32 ": run container %" PRIu32 ": run %" PRIu32
                              " [%" PRIu32 ", %" PRIu32 "] %s",
                              r->key, index, k, first, last,
                              last > 0xFFFF ? "passes 65535"
                                            : "overlaps or precedes the one before");
        }
        r->card += last - first + 1;
        prev_last = last;
    }
    r->pos += (size_t)n_runs * 4;
    return DL_OK;
}

static dl_status
check_array_container(bitmap_reader *r, uint32_t index, uint32_t card, dl_error *err) {
    DL_TRY(need(r, (size_t)card * 2, "an array container", err));
    int32_t prev = -1;
    for (uint32_t k = 0; k < card; k++) {
        int32_t v = dl_delta_load_le16(r->p + r->pos + (size_t)k * 2);
        if (v <= prev) {
            return corrupt_at(err, r->base + r->pos + (size_t)k * 2,
                              "bucket %" PRIu32 ": array container %" PRIu32
                              ": value %d after %d is not ascending",
                              r->key, index, (int)v, (int)prev);
        }
        prev = v;
    }
    r->pos += (size_t)card * 2;
    r->card += card;
    return DL_OK;
}

static dl_status
check_bitset_container(bitmap_reader *r, uint32_t index, uint32_t card, dl_error *err) {
    DL_TRY(need(r, RB_BITSET_BYTES, "a bitset container", err));
    uint32_t pop = 0;
    for (size_t k = 0; k < RB_BITSET_BYTES; k += 8) {
        pop += (uint32_t)__builtin_popcountll(dl_delta_load_le64(r->p + r->pos + k));
    }
    if (pop != card) {
        return corrupt_at(err, r->base + r->pos,
                          "bucket %" PRIu32 ": bitset container %" PRIu32 " holds %" PRIu32
                          " values but declares %" PRIu32,
                          r->key, index, pop, card);
    }
    r->pos += RB_BITSET_BYTES;
    r->card += card;
    return DL_OK;
}

/*
 * Validates the 32-bit Roaring bitmap at p[0, avail) and sets *out_size to its length and
 * *out_card to its number of values. base is p's offset in the whole input (for messages).
 */
static dl_status
check_bitmap32(const uint8_t *p, size_t avail, size_t base, uint32_t key, size_t *out_size,
               uint64_t *out_card, dl_error *err) {
    bitmap_reader r = {.p = p, .avail = avail, .base = base, .key = key};
    DL_TRY(need(&r, 4, "the cookie", err));
    uint32_t cookie = dl_delta_load_le32(p);
    uint32_t n;
    const uint8_t *run_bits = NULL;
    if (cookie == RB_COOKIE_NO_RUNS) {
        DL_TRY(need(&r, 8, "the container count", err));
        n = dl_delta_load_le32(p + 4);
        if (n > RB_MAX_CONTAINERS) {
            return corrupt_at(err, base + 4,
                              "bucket %" PRIu32 ": %" PRIu32 " containers (at most 65536)", key, n);
        }
        r.pos = 8;
    } else if ((cookie & 0xFFFF) == RB_COOKIE_RUNS) {
        n = (cookie >> 16) + 1;
        r.pos = 4;
        DL_TRY(need(&r, (n + 7) / 8, "the run-container bitset", err));
        run_bits = p + r.pos;
        r.pos += (n + 7) / 8;
    } else {
        return corrupt_at(err, base,
                          "bucket %" PRIu32 ": cookie %" PRIu32 " is neither 12346 nor 12347", key,
                          cookie);
    }
    DL_TRY(need(&r, (size_t)n * 4, "the container headers", err));
    const uint8_t *headers = p + r.pos;
    r.pos += (size_t)n * 4;
    if (run_bits == NULL || n >= RB_NO_OFFSET_THRESHOLD) {
        DL_TRY(need(&r, (size_t)n * 4, "the container offsets", err));
        r.pos += (size_t)n * 4;
    }
    int32_t prev_key = -1;
    for (uint32_t i = 0; i < n; i++) {
        int32_t ckey = dl_delta_load_le16(headers + (size_t)i * 4);
        uint32_t card = (uint32_t)dl_delta_load_le16(headers + (size_t)i * 4 + 2) + 1;
        if (ckey <= prev_key) {
            return corrupt_at(err, (size_t)(headers - p) + base + (size_t)i * 4,
                              "bucket %" PRIu32 ": container key %d after %d is not ascending", key,
                              (int)ckey, (int)prev_key);
        }
        prev_key = ckey;
        if (run_bits != NULL && (run_bits[i / 8] >> (i % 8) & 1) != 0) {
            DL_TRY(check_run_container(&r, i, err));
        } else if (card <= RB_ARRAY_MAX_CARD) {
            DL_TRY(check_array_container(&r, i, card, err));
        } else {
            DL_TRY(check_bitset_container(&r, i, card, err));
        }
    }
    *out_size = r.pos;
    *out_card = r.card;
    return DL_OK;
}

/* Validates the bitmap at data[pos, limit) and, when it is not empty, adds it as bucket key. */
static dl_status
take_bucket(dl_delta_dv *dv, const uint8_t *data, size_t pos, size_t limit, uint32_t key,
            size_t *out_size, dl_error *err) {
    uint64_t card = 0;
    DL_TRY(check_bitmap32(data + pos, limit - pos, pos, key, out_size, &card, err));
    if (card == 0) {
        return DL_OK;
    }
    dl_delta_dv_bucket *b = dl_delta_dv_push_bucket(dv, key, err);
    if (b == NULL) {
        return DL_ERR_NOMEM;
    }
    /* push_bucket made an empty bitmap; replace it with the deserialized one. */
    roaring_bitmap_t *bm =
        roaring_bitmap_portable_deserialize_safe((const char *)data + pos, *out_size);
    if (bm == NULL) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory decoding deletion vector bucket %" PRIu32, key);
    }
    roaring_bitmap_free(b->bm);
    b->bm = bm;
    if (roaring_bitmap_get_cardinality(bm) != card) {
        DL_FAIL(err, DL_ERR_INTERNAL,
                "CRoaring decoded bucket %" PRIu32 " with %" PRIu64 " values, validated %" PRIu64,
                key, roaring_bitmap_get_cardinality(bm), card);
    }
    dv->cardinality += (int64_t)card;
    return DL_OK;
}

static dl_status
parse_portable(dl_delta_dv *dv, const uint8_t *data, size_t len, dl_error *err) {
    if (len - 4 < 8) {
        return corrupt_at(err, 4, "the 8-byte bucket count needs %zu more bytes", 8 - (len - 4));
    }
    uint64_t n = dl_delta_load_le64(data + 4);
    size_t pos = 12;
    if (n > (len - pos) / (4 + RB_MIN_BITMAP_BYTES)) {
        return corrupt_at(err, 4, "%" PRIu64 " buckets cannot fit in the %zu bytes that follow", n,
                          len - pos);
    }
    int64_t prev_key = -1;
    for (uint64_t i = 0; i < n; i++) {
        if (len - pos < 4) {
            return corrupt_at(err, pos, "bucket %" PRIu64 " of %" PRIu64 ": key truncated", i, n);
        }
        uint32_t key = dl_delta_load_le32(data + pos);
        if ((key & 0x80000000u) != 0 || (int64_t)key <= prev_key) {
            return corrupt_at(err, pos, "bucket %" PRIu64 ": key %" PRIu32 " %s", i, key,
                              (key & 0x80000000u) != 0 ? "has its top bit set"
                                                       : "is not above the previous key");
        }
        prev_key = key;
        pos += 4;
        size_t used = 0;
        DL_TRY(take_bucket(dv, data, pos, len, key, &used, err));
        pos += used;
    }
    if (pos != len) {
        return corrupt_at(err, pos, "%zu bytes left over after the last bucket", len - pos);
    }
    return DL_OK;
}

static dl_status
parse_native(dl_delta_dv *dv, const uint8_t *data, size_t len, dl_error *err) {
    if (len - 4 < 4) {
        return corrupt_at(err, 4, "the 4-byte bitmap count needs %zu more bytes", 4 - (len - 4));
    }
    uint32_t n = dl_delta_load_le32(data + 4);
    size_t pos = 8;
    if (n > INT32_MAX || n > (len - pos) / (4 + RB_MIN_BITMAP_BYTES)) {
        return corrupt_at(err, 4, "%" PRIu32 " bitmaps cannot fit in the %zu bytes that follow", n,
                          len - pos);
    }
    for (uint32_t i = 0; i < n; i++) {
        if (len - pos < 4) {
            return corrupt_at(err, pos, "bitmap %" PRIu32 ": size truncated", i);
        }
        uint32_t size = dl_delta_load_le32(data + pos);
        if (size > INT32_MAX || size > len - pos - 4) {
            return corrupt_at(err, pos,
                              "bitmap %" PRIu32 ": size %" PRIu32
                              " runs past the end (%zu bytes remain)",
                              i, size, len - pos - 4);
        }
        pos += 4;
        size_t used = 0;
        DL_TRY(take_bucket(dv, data, pos, pos + size, i, &used, err));
        if (used != size) {
            return corrupt_at(err, pos, "bitmap %" PRIu32 " uses %zu of its %" PRIu32 " bytes", i,
                              used, size);
        }
        pos += size;
    }
    if (pos != len) {
        return corrupt_at(err, pos, "%zu bytes left over after the last bitmap", len - pos);
    }
    return DL_OK;
}

dl_status
dl_delta_dv_parse(const uint8_t *data, size_t len, const dl_allocator *alloc, dl_delta_dv **out,
                  dl_error *err) {
    *out = NULL;
    if (len < 4) {
        return corrupt_at(err, 0, "%zu bytes cannot hold the 4-byte magic number", len);
    }
    uint32_t magic = dl_delta_load_le32(data);
    if (magic != DL_DELTA_DV_MAGIC_PORTABLE && magic != DL_DELTA_DV_MAGIC_NATIVE) {
        return corrupt_at(err, 0, "unknown magic number %" PRIu32 " (expected %u or %u)", magic,
                          DL_DELTA_DV_MAGIC_PORTABLE, DL_DELTA_DV_MAGIC_NATIVE);
    }
    dl_delta_dv *dv;
    DL_TRY(dl_delta_dv_new(alloc, &dv, err));
    dl_status status = magic == DL_DELTA_DV_MAGIC_PORTABLE ? parse_portable(dv, data, len, err)
                                                           : parse_native(dv, data, len, err);
    if (status != DL_OK) {
        dl_delta_dv_free(dv);
        return status;
    }
    *out = dv;
    return DL_OK;
}

static void
store_le64(uint8_t *p, uint64_t v) {
    dl_delta_store_le32(p, (uint32_t)v);
    dl_delta_store_le32(p + 4, (uint32_t)(v >> 32));
}

dl_status
dl_delta_dv_serialize(const dl_delta_dv *dv, dl_buf *out, dl_error *err) {
    size_t total = 12;
    for (size_t i = 0; i < dv->n_buckets; i++) {
        total += 4 + roaring_bitmap_portable_size_in_bytes(dv->buckets[i].bm);
    }
    uint8_t *dst = dl_buf_extend(out, total, err);
    if (dst == NULL) {
        return DL_ERR_NOMEM;
    }
    dl_delta_store_le32(dst, DL_DELTA_DV_MAGIC_PORTABLE);
    store_le64(dst + 4, dv->n_buckets);
    size_t pos = 12;
    for (size_t i = 0; i < dv->n_buckets; i++) {
        dl_delta_store_le32(dst + pos, dv->buckets[i].key);
        pos += 4;
        pos += roaring_bitmap_portable_serialize(dv->buckets[i].bm, (char *)dst + pos);
    }
    DL_ASSERT(pos == total);
    return DL_OK;
}

uint32_t
dl_delta_dv_crc32(const uint8_t *p, size_t n) {
    uLong crc = crc32(0L, Z_NULL, 0);
    while (n > 0) {
        uInt step = n > 0x40000000u ? 0x40000000u : (uInt)n;
        crc = crc32(crc, p, step);
        p += step;
        n -= step;
    }
    return (uint32_t)crc;
}

dl_status
dl_delta_dv_check_frame(const uint8_t *frame, int32_t size_in_bytes, const char *name,
                        int64_t offset, dl_error *err) {
    uint32_t stored_size = dl_delta_load_be32(frame);
    if (stored_size != (uint32_t)size_in_bytes) {
        (void)dl_error_set(err, DL_ERR_CORRUPT,
                           "deletion vector file '%s': the DV at offset %lld has size %" PRIu32
                           " in the file but sizeInBytes %d in its descriptor",
                           name, (long long)offset, stored_size, (int)size_in_bytes);
        if (err != NULL) {
            err->offset = offset;
        }
        return DL_ERR_CORRUPT;
    }
    size_t size = (size_t)size_in_bytes;
    uint32_t stored_crc = dl_delta_load_be32(frame + 4 + size);
    uint32_t actual_crc = dl_delta_dv_crc32(frame + 4, size);
    if (stored_crc != actual_crc) {
        (void)dl_error_set(err, DL_ERR_CORRUPT,
                           "deletion vector file '%s': the DV at offset %lld (%zu bytes) fails its "
                           "checksum: the file says CRC-32 0x%08" PRIx32
                           ", the bytes give 0x%08" PRIx32,
                           name, (long long)offset, size, stored_crc, actual_crc);
        if (err != NULL) {
            err->offset = offset + 4 + (int64_t)size;
        }
        return DL_ERR_CORRUPT;
    }
    return DL_OK;
}

dl_status
dl_delta_dv_parse_file(const uint8_t *file, size_t file_len, int64_t offset, int32_t size_in_bytes,
                       const char *name, const dl_allocator *alloc, dl_delta_dv **out,
                       dl_error *err) {
    *out = NULL;
    DL_CHECK(file_len >= 1, err, DL_ERR_CORRUPT, "deletion vector file '%s' is empty", name);
    DL_CHECK(file[0] == DL_DELTA_DV_FILE_VERSION, err, DL_ERR_UNSUPPORTED,
             "deletion vector file '%s' has format version %u; only version 1 is supported", name,
             (unsigned)file[0]);
    DL_CHECK(offset >= 1 && size_in_bytes >= 0, err, DL_ERR_CORRUPT,
             "deletion vector file '%s': a DV cannot be at offset %lld with %d bytes", name,
             (long long)offset, (int)size_in_bytes);
    DL_CHECK((uint64_t)offset <= file_len && file_len - (size_t)offset >= (size_t)size_in_bytes + 8,
             err, DL_ERR_CORRUPT,
             "deletion vector file '%s': the DV at offset %lld (%d bytes plus 8 of framing) runs "
             "past the end of the file (%zu bytes)",
             name, (long long)offset, (int)size_in_bytes, file_len);
    const uint8_t *frame = file + offset;
    DL_TRY(dl_delta_dv_check_frame(frame, size_in_bytes, name, offset, err));
    dl_status status = dl_delta_dv_parse(frame + 4, (size_t)size_in_bytes, alloc, out, err);
    if (status != DL_OK) {
        dl_error_prefix(err, "deletion vector file '%s', DV at offset %lld", name,
                        (long long)offset);
        if (err != NULL && status == DL_ERR_CORRUPT) {
            err->offset += offset + 4;
        }
    }
    return status;
}
