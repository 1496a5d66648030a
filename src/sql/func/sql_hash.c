/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hashing, equality and ordering of values, shared by grouping, joins, set operations, DISTINCT
 * and sort (sql_exec.h). The rules are Spark's for grouping keys and ORDER BY:
 *
 *   - floating point: -0.0 equals 0.0 and every NaN equals every other NaN (Spark normalises
 *     both before grouping); in ORDER BY, NaN sorts above every other value;
 *   - strings and binary: unsigned bytes, so UTF-8 text sorts by code point;
 *   - decimals: by unscaled value (both sides share the type, hence the scale);
 *   - structs field by field, arrays element by element then shorter first, maps entry by
 *     entry; inside nested values NULL equals NULL and sorts first.
 *
 * Hashes are consistent with equality: equal values hash equal, whatever their layout.
 */
#include <math.h>
#include <string.h>

#include "sql/func/sql_func.h"

/* The hash of NULL, and the seed mixed into combined hashes. */
#define NULL_HASH   UINT64_C(0x9b1a6c5e3f27d481)
#define COMBINE_MIX UINT64_C(0x9e3779b97f4a7c15)

static inline uint64_t
combine(uint64_t a, uint64_t b) {
    return dl_hash_u64(a ^ (b + COMBINE_MIX + (a << 6) + (a >> 2)));
}

static inline uint64_t
hash_f64(double v) {
    if (v == 0.0) {
        v = 0.0; /* -0.0 */
    }
    if (isnan(v)) {
        return UINT64_C(0x7ff8000000000000);
    }
    uint64_t bits = 0;
    memcpy(&bits, &v, sizeof(bits));
    return dl_hash_u64(bits);
}

static inline uint64_t
hash_i128(dl_i128 v) {
    uint64_t lo = (uint64_t)v;
    uint64_t hi = (uint64_t)((dl_u128)v >> 64);
    return combine(dl_hash_u64(lo), hi);
}

static uint64_t hash_element(const dl_vector *flat, int64_t idx);

static uint64_t
hash_row(const dl_vector *vec, int64_t row) {
    if (dl_vec_is_null(vec, row)) {
        return NULL_HASH;
    }
    const dl_vector *flat = NULL;
    int64_t idx = dl_vec_resolve(vec, row, &flat);
    return hash_element(flat, idx);
}

/* The hash of element idx (not null) of a flat or const vector. */
static uint64_t
hash_element(const dl_vector *flat, int64_t idx) {
    const void *d = flat->data;
    switch (dl_vec_type_phys(flat->type)) {
    case DL_VEC_PHYS_BIT:
        return dl_hash_u64(dl_vec_get_bool(flat, idx) ? 1u : 2u);
    case DL_VEC_PHYS_I8:
        return dl_hash_u64((uint64_t)(int64_t)((const int8_t *)d)[idx]);
    case DL_VEC_PHYS_I16:
        return dl_hash_u64((uint64_t)(int64_t)((const int16_t *)d)[idx]);
    case DL_VEC_PHYS_I32:
        return dl_hash_u64((uint64_t)(int64_t)((const int32_t *)d)[idx]);
    case DL_VEC_PHYS_I64:
        return dl_hash_u64((uint64_t)((const int64_t *)d)[idx]);
    case DL_VEC_PHYS_F32:
        return hash_f64((double)((const float *)d)[idx]);
    case DL_VEC_PHYS_F64:
        return hash_f64(((const double *)d)[idx]);
    case DL_VEC_PHYS_I128:
        return hash_i128(((const dl_i128 *)d)[idx]);
    case DL_VEC_PHYS_VIEW: {
        dl_str s = dl_vec_get_str(flat, idx);
        return dl_hash_bytes(s.ptr, s.len, 0);
    }
    case DL_VEC_PHYS_STRUCT: {
        uint64_t h = UINT64_C(0x51ed270b);
        for (int32_t f = 0; f < flat->n_children; f++) {
            h = combine(h, hash_row(flat->children[f], idx));
        }
        return h;
    }
    case DL_VEC_PHYS_LIST: {
        int64_t start = 0, end = 0;
        dl_vec_list_bounds(flat, idx, &start, &end);
        uint64_t h = dl_hash_u64((uint64_t)(end - start));
        for (int64_t e = start; e < end; e++) {
            h = combine(h, hash_row(flat->children[0], e));
        }
        return h;
    }
    default:
        return NULL_HASH;
    }
}

#define HASH_LOOP(ctype, expr)                                          \
    do {                                                                \
        const ctype *v = (const ctype *)u.data;                         \
        for (int64_t i = 0; i < count; i++) {                           \
            uint64_t h;                                                 \
            if (u.validity != NULL && !dl_vec_bit_get(u.validity, i)) { \
                h = NULL_HASH;                                          \
            } else {                                                    \
                ctype x = v[u.sel[i]];                                  \
                h = (expr);                                             \
            }                                                           \
            hashes[i] = is_first ? h : combine(hashes[i], h);           \
        }                                                               \
    } while (0)

/* A dictionary vector with a small dictionary: hash each entry once, then map the rows. */
static void
hash_dict(const dl_vector *vec, int64_t count, uint64_t *hashes, bool is_first) {
    uint64_t dh[DL_BATCH_CAPACITY];
    dl_sql_hash_vec(vec->dict, vec->dict->length, dh, true);
    const int32_t *idx = vec->data;
    for (int64_t i = 0; i < count; i++) {
        uint64_t h =
            vec->validity != NULL && !dl_vec_bit_get(vec->validity, i) ? NULL_HASH : dh[idx[i]];
        hashes[i] = is_first ? h : combine(hashes[i], h);
    }
}

/* Dictionaries of more entries than this are prefetched row by row. */
#define PREFETCH_DICT_MIN (INT64_C(1) << 15)

void
dl_sql_vec_prefetch(const dl_vector *vec, int64_t count) {
    if (vec->layout != DL_VEC_DICT || vec->dict->length < PREFETCH_DICT_MIN ||
        vec->dict->layout != DL_VEC_FLAT) {
        return;
    }
    size_t width;
    switch (dl_vec_type_phys(vec->type)) {
    case DL_VEC_PHYS_I32:
    case DL_VEC_PHYS_F32:
        width = 4;
        break;
    case DL_VEC_PHYS_I64:
    case DL_VEC_PHYS_F64:
        width = 8;
        break;
    case DL_VEC_PHYS_I128:
    case DL_VEC_PHYS_VIEW:
        width = 16;
        break;
    default:
        return;
    }
    const char *data = vec->dict->data;
    const int32_t *idx = vec->data;
    for (int64_t i = 0; i < count; i++) {
        __builtin_prefetch(data + (size_t)idx[i] * width);
    }
}

void
dl_sql_hash_vec(const dl_vector *vec, int64_t count, uint64_t *hashes, bool is_first) {
    dl_sql_vec_prefetch(vec, count);
    if (vec->layout == DL_VEC_DICT && vec->dict->length <= count &&
        vec->dict->length <= DL_BATCH_CAPACITY) {
        hash_dict(vec, count, hashes, is_first);
        return;
    }
    dl_vec_unified u;
    dl_vec_unify(vec, count, &u);
    switch (dl_vec_type_phys(vec->type)) {
    case DL_VEC_PHYS_I8:
        HASH_LOOP(int8_t, dl_hash_u64((uint64_t)(int64_t)x));
        return;
    case DL_VEC_PHYS_I16:
        HASH_LOOP(int16_t, dl_hash_u64((uint64_t)(int64_t)x));
        return;
    case DL_VEC_PHYS_I32:
        HASH_LOOP(int32_t, dl_hash_u64((uint64_t)(int64_t)x));
        return;
    case DL_VEC_PHYS_I64:
        HASH_LOOP(int64_t, dl_hash_u64((uint64_t)x));
        return;
    case DL_VEC_PHYS_F32:
        HASH_LOOP(float, hash_f64((double)x));
        return;
    case DL_VEC_PHYS_F64:
        HASH_LOOP(double, hash_f64(x));
        return;
    case DL_VEC_PHYS_I128:
        HASH_LOOP(dl_i128, hash_i128(x));
        return;
    case DL_VEC_PHYS_VIEW: {
        const dl_vec_view *v = (const dl_vec_view *)u.data;
        for (int64_t i = 0; i < count; i++) {
            uint64_t h = NULL_HASH;
            if (u.validity == NULL || dl_vec_bit_get(u.validity, i)) {
                dl_str s = dl_vec_view_str(u.flat, &v[u.sel[i]]);
                h = dl_hash_bytes(s.ptr, s.len, 0);
            }
            hashes[i] = is_first ? h : combine(hashes[i], h);
        }
        return;
    }
    default:
        for (int64_t i = 0; i < count; i++) {
            uint64_t h = NULL_HASH;
            if (u.validity == NULL || dl_vec_bit_get(u.validity, i)) {
                h = hash_element(u.flat, u.sel[i]);
            }
            hashes[i] = is_first ? h : combine(hashes[i], h);
        }
        return;
    }
}

/* ---- comparison ---------------------------------------------------------------------------- */

static int compare_element(const dl_vector *fa, int64_t ia, const dl_vector *fb, int64_t ib);

/* Order of two rows where NULL sorts first (inside nested values). */
static int
compare_row_nulls_first(const dl_vector *a, int64_t ra, const dl_vector *b, int64_t rb) {
    bool na = dl_vec_is_null(a, ra);
    bool nb = dl_vec_is_null(b, rb);
    if (na || nb) {
        return na && nb ? 0 : (na ? -1 : 1);
    }
    const dl_vector *fa = NULL;
    const dl_vector *fb = NULL;
    int64_t ia = dl_vec_resolve(a, ra, &fa);
    int64_t ib = dl_vec_resolve(b, rb, &fb);
    return compare_element(fa, ia, fb, ib);
}

static inline int
compare_f64(double x, double y) {
    bool nx = isnan(x);
    bool ny = isnan(y);
    if (nx || ny) {
        return nx && ny ? 0 : (nx ? 1 : -1);
    }
    return x < y ? -1 : (x > y ? 1 : 0);
}

#define CMP(x, y) ((x) < (y) ? -1 : ((x) > (y) ? 1 : 0))

static int
compare_lists(const dl_vector *fa, int64_t ia, const dl_vector *fb, int64_t ib) {
    int64_t sa, ea, sb, eb;
    dl_vec_list_bounds(fa, ia, &sa, &ea);
    dl_vec_list_bounds(fb, ib, &sb, &eb);
    for (; sa < ea && sb < eb; sa++, sb++) {
        int c = compare_row_nulls_first(fa->children[0], sa, fb->children[0], sb);
        if (c != 0) {
            return c;
        }
    }
    return CMP(ea - sa, eb - sb);
}

static int
compare_element(const dl_vector *fa, int64_t ia, const dl_vector *fb, int64_t ib) {
    const void *a = fa->data;
    const void *b = fb->data;
    switch (dl_vec_type_phys(fa->type)) {
    case DL_VEC_PHYS_BIT:
        return CMP((int)dl_vec_get_bool(fa, ia), (int)dl_vec_get_bool(fb, ib));
    case DL_VEC_PHYS_I8:
        return CMP(((const int8_t *)a)[ia], ((const int8_t *)b)[ib]);
    case DL_VEC_PHYS_I16:
        return CMP(((const int16_t *)a)[ia], ((const int16_t *)b)[ib]);
    case DL_VEC_PHYS_I32:
        return CMP(((const int32_t *)a)[ia], ((const int32_t *)b)[ib]);
    case DL_VEC_PHYS_I64:
        return CMP(((const int64_t *)a)[ia], ((const int64_t *)b)[ib]);
    case DL_VEC_PHYS_F32:
        return compare_f64((double)((const float *)a)[ia], (double)((const float *)b)[ib]);
    case DL_VEC_PHYS_F64:
        return compare_f64(((const double *)a)[ia], ((const double *)b)[ib]);
    case DL_VEC_PHYS_I128:
        return CMP(((const dl_i128 *)a)[ia], ((const dl_i128 *)b)[ib]);
    case DL_VEC_PHYS_VIEW: {
        int c =
            dl_vec_view_compare(fa, (const dl_vec_view *)a + ia, fb, (const dl_vec_view *)b + ib);
        return CMP(c, 0);
    }
    case DL_VEC_PHYS_STRUCT:
        for (int32_t f = 0; f < fa->n_children; f++) {
            int c = compare_row_nulls_first(fa->children[f], ia, fb->children[f], ib);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    case DL_VEC_PHYS_LIST:
        return compare_lists(fa, ia, fb, ib);
    default:
        return 0;
    }
}

int
dl_sql_value_compare(const dl_vector *a, int64_t ra, const dl_vector *b, int64_t rb) {
    const dl_vector *fa = NULL;
    const dl_vector *fb = NULL;
    int64_t ia = dl_vec_resolve(a, ra, &fa);
    int64_t ib = dl_vec_resolve(b, rb, &fb);
    return compare_element(fa, ia, fb, ib);
}

bool
dl_sql_value_equal(const dl_vector *a, int64_t ra, const dl_vector *b, int64_t rb) {
    bool na = dl_vec_is_null(a, ra);
    bool nb = dl_vec_is_null(b, rb);
    if (na || nb) {
        return na && nb;
    }
    const dl_vector *fa = NULL;
    const dl_vector *fb = NULL;
    int64_t ia = dl_vec_resolve(a, ra, &fa);
    int64_t ib = dl_vec_resolve(b, rb, &fb);
    if (dl_vec_type_phys(fa->type) == DL_VEC_PHYS_VIEW) {
        return dl_vec_view_equal(fa, (const dl_vec_view *)fa->data + ia, fb,
                                 (const dl_vec_view *)fb->data + ib);
    }
    return compare_element(fa, ia, fb, ib) == 0;
}
