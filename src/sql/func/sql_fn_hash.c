/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hash functions: md5, sha1/sha, sha2 (224, 256, 384, 512; 0 means 256) as lower-case hex,
 * crc32 as bigint, and Spark's hash (Murmur3_x86_32, seed 42) and xxhash64 (XXH64, seed 42)
 * over any number of values of any type.
 *
 * Digests follow RFC 1321 (MD5) and FIPS 180-4 (SHA-1, SHA-2); CRC-32 is the IEEE 802.3
 * polynomial as zlib computes it. Strings are hashed as their UTF-8 bytes.
 *
 * hash and xxhash64 fold the arguments left to right, each value's hash seeding the next,
 * exactly as Spark's HashExpression does, so the values match Spark's:
 *   NULL                  leaves the seed as it is
 *   boolean, byte, short, int, date, year-month interval     hashInt(value) (true is 1)
 *   long, timestamps, day-time interval                      hashLong(value)
 *   float, double         of their IEEE bits, -0.0 hashed as 0 and NaN canonical
 *   decimal               hashLong(unscaled) up to precision 18, else the unscaled value's
 *                         big-endian two's complement bytes (BigInteger.toByteArray)
 *   string, binary        the bytes (Murmur3: Spark's hashUnsafeBytes, which mixes the tail
 *                         bytes one at a time as signed ints, unlike standard Murmur3)
 *   array, struct, map    elements, fields, or key then value, in order
 */
#include <pthread.h>
#include <string.h>

#include "sql/func/sql_fn_int.h"

/* ---- Murmur3_x86_32 as Spark has it ---------------------------------------------------------- */

static uint32_t
rotl32(uint32_t x, int r) {
    return (x << r) | (x >> (32 - r));
}

static uint32_t
mix_k1(uint32_t k1) {
    k1 *= 0xcc9e2d51u;
    k1 = rotl32(k1, 15);
    return k1 * 0x1b873593u;
}

static uint32_t
mix_h1(uint32_t h1, uint32_t k1) {
    h1 ^= k1;
    h1 = rotl32(h1, 13);
    return h1 * 5 + 0xe6546b64u;
}

static uint32_t
fmix32(uint32_t h1, uint32_t len) {
    h1 ^= len;
    h1 ^= h1 >> 16;
    h1 *= 0x85ebca6bu;
    h1 ^= h1 >> 13;
    h1 *= 0xc2b2ae35u;
    return h1 ^ (h1 >> 16);
}

static uint32_t
load_le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t
load_le64(const uint8_t *p) {
    return (uint64_t)load_le32(p) | (uint64_t)load_le32(p + 4) << 32;
}

uint32_t
dl_sql_murmur3_int(uint32_t value, uint32_t seed) {
    return fmix32(mix_h1(seed, mix_k1(value)), 4);
}

uint32_t
dl_sql_murmur3_long(uint64_t value, uint32_t seed) {
    uint32_t h1 = mix_h1(seed, mix_k1((uint32_t)value));
    h1 = mix_h1(h1, mix_k1((uint32_t)(value >> 32)));
    return fmix32(h1, 8);
}

uint32_t
dl_sql_murmur3_bytes(const void *data, size_t len, uint32_t seed) {
    const uint8_t *p = data;
    size_t aligned = len - len % 4;
    uint32_t h1 = seed;
    for (size_t i = 0; i < aligned; i += 4) {
        h1 = mix_h1(h1, mix_k1(load_le32(p + i)));
    }
    for (size_t i = aligned; i < len; i++) {
        h1 = mix_h1(h1, mix_k1((uint32_t)(int32_t)(int8_t)p[i]));
    }
    return fmix32(h1, (uint32_t)len);
}

/* ---- XXH64 ------------------------------------------------------------------------------------
 */

#define P64_1 0x9E3779B185EBCA87ull
#define P64_2 0xC2B2AE3D27D4EB4Full
#define P64_3 0x165667B19E3779F9ull
#define P64_4 0x85EBCA77C2B2AE63ull
#define P64_5 0x27D4EB2F165667C5ull

static uint64_t
rotl64(uint64_t x, int r) {
    return (x << r) | (x >> (64 - r));
}

static uint64_t
xxh_round(uint64_t acc, uint64_t input) {
    acc += input * P64_2;
    acc = rotl64(acc, 31);
    return acc * P64_1;
}

static uint64_t
xxh_merge(uint64_t acc, uint64_t v) {
    acc ^= xxh_round(0, v);
    return acc * P64_1 + P64_4;
}

static uint64_t
xxh_tail(uint64_t h, const uint8_t *p, size_t len) {
    while (len >= 8) {
        h ^= xxh_round(0, load_le64(p));
        h = rotl64(h, 27) * P64_1 + P64_4;
        p += 8;
        len -= 8;
    }
    if (len >= 4) {
        h ^= (uint64_t)load_le32(p) * P64_1;
        h = rotl64(h, 23) * P64_2 + P64_3;
        p += 4;
        len -= 4;
    }
    while (len > 0) {
        h ^= (uint64_t)*p * P64_5;
        h = rotl64(h, 11) * P64_1;
        p++;
        len--;
    }
    h ^= h >> 33;
    h *= P64_2;
    h ^= h >> 29;
    h *= P64_3;
    return h ^ (h >> 32);
}

uint64_t
dl_sql_xxh64_bytes(const void *data, size_t len, uint64_t seed) {
    const uint8_t *p = data;
    uint64_t h;
    size_t left = len;
    if (len >= 32) {
        uint64_t v1 = seed + P64_1 + P64_2;
        uint64_t v2 = seed + P64_2;
        uint64_t v3 = seed;
        uint64_t v4 = seed - P64_1;
        while (left >= 32) {
            v1 = xxh_round(v1, load_le64(p));
            v2 = xxh_round(v2, load_le64(p + 8));
            v3 = xxh_round(v3, load_le64(p + 16));
            v4 = xxh_round(v4, load_le64(p + 24));
            p += 32;
            left -= 32;
        }
        h = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
        h = xxh_merge(h, v1);
        h = xxh_merge(h, v2);
        h = xxh_merge(h, v3);
        h = xxh_merge(h, v4);
    } else {
        h = seed + P64_5;
    }
    h += (uint64_t)len;
    return xxh_tail(h, p, left);
}

uint64_t
dl_sql_xxh64_int(uint32_t value, uint64_t seed) {
    uint8_t b[4] = {(uint8_t)value, (uint8_t)(value >> 8), (uint8_t)(value >> 16),
                    (uint8_t)(value >> 24)};
    return dl_sql_xxh64_bytes(b, 4, seed);
}

uint64_t
dl_sql_xxh64_long(uint64_t value, uint64_t seed) {
    uint8_t b[8];
    for (int i = 0; i < 8; i++) {
        b[i] = (uint8_t)(value >> (8 * i));
    }
    return dl_sql_xxh64_bytes(b, 8, seed);
}

/* ---- hash and xxhash64 over values ------------------------------------------------------------
 */

typedef struct hasher {
    bool is_xx;
} hasher;

static uint64_t
h_int(const hasher *h, uint32_t v, uint64_t seed) {
    return h->is_xx ? dl_sql_xxh64_int(v, seed) : dl_sql_murmur3_int(v, (uint32_t)seed);
}

static uint64_t
h_long(const hasher *h, uint64_t v, uint64_t seed) {
    return h->is_xx ? dl_sql_xxh64_long(v, seed) : dl_sql_murmur3_long(v, (uint32_t)seed);
}

static uint64_t
h_bytes(const hasher *h, const void *p, size_t n, uint64_t seed) {
    return h->is_xx ? dl_sql_xxh64_bytes(p, n, seed) : dl_sql_murmur3_bytes(p, n, (uint32_t)seed);
}

/* BigInteger.toByteArray of v: minimal big-endian two's complement. */
static size_t
bigint_bytes(dl_i128 v, uint8_t out[16]) {
    uint8_t be[16];
    dl_u128 u = (dl_u128)v;
    for (int i = 15; i >= 0; i--) {
        be[i] = (uint8_t)u;
        u >>= 8;
    }
    int start = 0;
    while (start < 15 && ((be[start] == 0x00 && (be[start + 1] & 0x80) == 0) ||
                          (be[start] == 0xFF && (be[start + 1] & 0x80) != 0))) {
        start++;
    }
    memcpy(out, be + start, (size_t)(16 - start));
    return (size_t)(16 - start);
}

static uint64_t hash_value(const hasher *h, const dl_type *t, const dl_vector *v, int64_t i,
                           uint64_t seed);

static uint64_t
hash_element(const hasher *h, const dl_type *t, const dl_vector *v, int64_t i, uint64_t seed) {
    if (v->validity != NULL && !dl_vec_bit_get(v->validity, i)) {
        return seed;
    }
    return hash_value(h, t, v, i, seed);
}

static uint64_t
hash_nested(const hasher *h, const dl_type *t, const dl_vector *v, int64_t i, uint64_t seed) {
    if (t->id == DL_VEC_TYPE_STRUCT) {
        for (int32_t f = 0; f < t->n_fields; f++) {
            seed = hash_element(h, t->fields[f].type, v->children[f], i, seed);
        }
        return seed;
    }
    int64_t s;
    int64_t e;
    dl_vec_list_bounds(v, i, &s, &e);
    for (int64_t k = s; k < e; k++) {
        if (t->id == DL_VEC_TYPE_MAP) {
            const dl_vector *entries = v->children[0];
            seed = hash_element(h, t->key, entries->children[0], k, seed);
            seed = hash_element(h, t->value, entries->children[1], k, seed);
        } else {
            seed = hash_element(h, t->element, v->children[0], k, seed);
        }
    }
    return seed;
}

static uint64_t
hash_value(const hasher *h, const dl_type *t, const dl_vector *v, int64_t i, uint64_t seed) {
    switch (t->id) {
    case DL_VEC_TYPE_BOOLEAN:
        return h_int(h, dl_vec_get_bool(v, i) ? 1 : 0, seed);
    case DL_VEC_TYPE_BYTE:
        return h_int(h, (uint32_t)dl_sql_i8(((const int8_t *)v->data)[i]), seed);
    case DL_VEC_TYPE_SHORT:
        return h_int(h, (uint32_t)((const int16_t *)v->data)[i], seed);
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_DATE:
    case DL_VEC_TYPE_INTERVAL_YM:
        return h_int(h, (uint32_t)((const int32_t *)v->data)[i], seed);
    case DL_VEC_TYPE_LONG:
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
    case DL_VEC_TYPE_INTERVAL_DT:
        return h_long(h, (uint64_t)((const int64_t *)v->data)[i], seed);
    case DL_VEC_TYPE_FLOAT: {
        float f = ((const float *)v->data)[i];
        uint32_t bits = 0x7fc00000u;
        if (f == 0) {
            bits = 0;
        } else if (f == f) {
            memcpy(&bits, &f, sizeof(bits));
        }
        return h_int(h, bits, seed);
    }
    case DL_VEC_TYPE_DOUBLE: {
        double d = ((const double *)v->data)[i];
        uint64_t bits = 0x7ff8000000000000ull;
        if (d == 0) {
            bits = 0;
        } else if (d == d) {
            memcpy(&bits, &d, sizeof(bits));
        }
        return h_long(h, bits, seed);
    }
    case DL_VEC_TYPE_DECIMAL: {
        dl_i128 x = ((const dl_i128 *)v->data)[i];
        if (t->precision <= 18) {
            return h_long(h, (uint64_t)(int64_t)x, seed);
        }
        uint8_t bytes[16];
        size_t n = bigint_bytes(x, bytes);
        return h_bytes(h, bytes, n, seed);
    }
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY: {
        dl_str s = dl_vec_get_str(v, i);
        return h_bytes(h, s.ptr, s.len, seed);
    }
    case DL_VEC_TYPE_STRUCT:
    case DL_VEC_TYPE_ARRAY:
    case DL_VEC_TYPE_MAP:
        return hash_nested(h, t, v, i, seed);
    default:
        return seed;
    }
}

dl_status
dl_sql_bind_hash(dl_sql_fn_bind *b, dl_error *err) {
    DL_UNUSED(err);
    bool is_xx = strcmp(b->name, "xxhash64") == 0;
    b->ret_type = dl_sql_t(is_xx ? DL_VEC_TYPE_LONG : DL_VEC_TYPE_INT);
    return DL_OK;
}

dl_status
dl_sql_fn_hash(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
               dl_error *err) {
    hasher h = {.is_xx = strcmp(call->def->name, "xxhash64") == 0};
    int32_t n = call->n_args;
    const dl_allocator *alloc = call->env != NULL ? call->env->alloc : NULL;
    dl_vec_unified *u = dl_mem_alloc_array(alloc, (size_t)n, sizeof(*u));
    DL_CHECK(u != NULL, err, DL_ERR_NOMEM, "%s: out of memory", call->def->name);
    dl_sql_unify_args(args, n, count, u);
    dl_status s = dl_sql_out_reserve(out, count, err);
    for (int64_t i = 0; i < count && s == DL_OK; i++) {
        uint64_t seed = 42;
        for (int32_t k = 0; k < n; k++) {
            if (!dl_sql_u_null(&u[k], i)) {
                seed = hash_value(&h, args[k]->type, u[k].flat, u[k].sel[i], seed);
            }
        }
        if (h.is_xx) {
            ((int64_t *)out->data)[i] = (int64_t)seed;
        } else {
            ((int32_t *)out->data)[i] = (int32_t)(uint32_t)seed;
        }
    }
    if (s == DL_OK) {
        dl_vec_set_length(out, count);
    }
    dl_mem_free(alloc, u, (size_t)n * sizeof(*u));
    return s;
}

/* ---- CRC-32 ---------------------------------------------------------------------------------- */

static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void
make_crc_table(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) {
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        }
        crc_table[i] = c;
    }
}

static uint32_t
crc32_bytes(const uint8_t *p, size_t n) {
    (void)pthread_once(&crc_once, make_crc_table);
    const uint32_t *table = crc_table;
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    }
    return c ^ 0xFFFFFFFFu;
}

dl_status
dl_sql_bind_crc32(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_BINARY), "binary or a string", err));
    b->ret_type = dl_sql_t(DL_VEC_TYPE_LONG);
    return DL_OK;
}

dl_status
dl_sql_fn_crc32(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                dl_error *err) {
    DL_UNUSED(call);
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(dl_sql_out_nulls(out, 0, &u, 1, count, err));
    for (int64_t i = 0; i < count; i++) {
        dl_str s = dl_sql_u_str(&u, i);
        ((int64_t *)out->data)[i] = crc32_bytes((const uint8_t *)s.ptr, s.len);
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}
