/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Normalized sort keys (the format is in sql_op_sort_int.h): laying keys out, encoding a
 * batch of key vectors into entries, and comparing two entries.
 */
#include <math.h>
#include <string.h>

#include "sql/exec/sql_op_sort_int.h"

/* Shortest string prefix kept in a key (the prefix grows to end on a word boundary). */
#define STRING_PREFIX_MIN 14

static int32_t
value_width(dl_vec_phys phys) {
    switch (phys) {
    case DL_VEC_PHYS_NONE:
        return 0;
    case DL_VEC_PHYS_BIT:
    case DL_VEC_PHYS_I8:
        return 1;
    case DL_VEC_PHYS_I16:
        return 2;
    case DL_VEC_PHYS_I32:
    case DL_VEC_PHYS_F32:
        return 4;
    case DL_VEC_PHYS_I64:
    case DL_VEC_PHYS_F64:
        return 8;
    case DL_VEC_PHYS_I128:
        return 16;
    default:
        return -1;
    }
}

static void
layout_key(dl_sql_skey *k, dl_vec_phys phys, int32_t offset) {
    k->phys = phys;
    k->offset = offset;
    int32_t w = value_width(phys);
    if (phys == DL_VEC_PHYS_VIEW) {
        int32_t end = offset + 1 + STRING_PREFIX_MIN + 1;
        k->prefix = STRING_PREFIX_MIN + (8 - end % 8) % 8;
        k->kind = DL_SQL_SKEY_STRING;
        k->width = 1 + k->prefix + 1;
    } else if (w >= 0) {
        k->kind = DL_SQL_SKEY_FIXED;
        k->width = 1 + w;
    } else {
        k->kind = DL_SQL_SKEY_FULL;
        k->width = 1;
    }
    if (offset + k->width > DL_SQL_SORT_KEY_MAX) {
        k->kind = DL_SQL_SKEY_FULL;
        k->width = 0; /* not even a marker: NULLs are compared in full too */
    }
}

dl_status
dl_sql_sort_layout_init(dl_sql_sort_layout *lay, dl_arena *arena, const dl_sql_sort_key *keys,
                        const dl_type *const *types, int32_t n_keys, dl_error *err) {
    memset(lay, 0, sizeof(*lay));
    lay->n_keys = n_keys;
    lay->keys = dl_arena_alloc_zero(arena, (size_t)DL_MAX(n_keys, 1) * sizeof(dl_sql_skey));
    lay->inexact = dl_arena_alloc_zero(arena, (size_t)DL_MAX(n_keys, 1) * sizeof(int32_t));
    DL_CHECK(lay->keys != NULL && lay->inexact != NULL, err, DL_ERR_NOMEM,
             "out of memory preparing %d sort keys", (int)n_keys);
    int32_t offset = 0;
    for (int32_t j = 0; j < n_keys; j++) {
        dl_sql_skey *k = &lay->keys[j];
        layout_key(k, dl_vec_type_phys(types[j]), offset);
        k->is_desc = keys[j].is_desc;
        k->is_nulls_first = keys[j].is_nulls_first;
        offset += k->width;
        if (k->kind != DL_SQL_SKEY_FIXED) {
            lay->inexact[lay->n_inexact++] = j;
        }
    }
    lay->key_bytes = offset;
    lay->nw = (offset + 6 + 7) / 8;
    lay->is_exact = lay->n_inexact == 0;
    return DL_OK;
}

/* ---- encoding ------------------------------------------------------------------------------ */

static inline void
put_be64(uint8_t *p, uint64_t v, int n) {
    for (int k = 0; k < n; k++) {
        p[k] = (uint8_t)(v >> (8 * (n - 1 - k)));
    }
}

static inline uint64_t
f64_bits(double x) {
    if (isnan(x)) {
        return UINT64_MAX;
    }
    if (x == 0.0) {
        x = 0.0;
    }
    uint64_t u;
    memcpy(&u, &x, sizeof(u));
    return (u >> 63) != 0 ? ~u : (u | (UINT64_C(1) << 63));
}

static inline uint32_t
f32_bits(float x) {
    if (isnan(x)) {
        return UINT32_MAX;
    }
    if (x == 0.0f) {
        x = 0.0f;
    }
    uint32_t u;
    memcpy(&u, &x, sizeof(u));
    return (u >> 31) != 0 ? ~u : (u | (UINT32_C(1) << 31));
}

/* Each macro loop: b points at the marker of row i's key; v the value as uint64 (for widths
 * up to 8 bytes), written big endian over width bytes, inverted for DESC. */
#define ENCODE_LOOP(ctype, nbytes, expr)                                \
    do {                                                                \
        const ctype *d = (const ctype *)u.data;                         \
        for (int64_t i = 0; i < count; i++) {                           \
            uint8_t *b = (uint8_t *)(entries + i * nw) + k->offset;     \
            if (u.validity != NULL && !dl_vec_bit_get(u.validity, i)) { \
                b[0] = null_mark;                                       \
                continue;                                               \
            }                                                           \
            b[0] = valid_mark;                                          \
            ctype x = d[u.sel[i]];                                      \
            uint64_t v = (expr);                                        \
            put_be64(b + 1, v ^ flip, (nbytes));                        \
        }                                                               \
    } while (0)

static void
encode_i128(const dl_sql_skey *k, const dl_vec_unified *u, int64_t count, uint64_t *entries,
            int32_t nw, uint8_t valid_mark, uint8_t null_mark) {
    const dl_i128 *d = u->data;
    uint64_t flip = k->is_desc ? UINT64_MAX : 0;
    for (int64_t i = 0; i < count; i++) {
        uint8_t *b = (uint8_t *)(entries + i * nw) + k->offset;
        if (u->validity != NULL && !dl_vec_bit_get(u->validity, i)) {
            b[0] = null_mark;
            continue;
        }
        b[0] = valid_mark;
        dl_u128 x = (dl_u128)d[u->sel[i]] ^ ((dl_u128)1 << 127);
        put_be64(b + 1, (uint64_t)(x >> 64) ^ flip, 8);
        put_be64(b + 9, (uint64_t)x ^ flip, 8);
    }
}

static void
encode_string(const dl_sql_skey *k, const dl_vec_unified *u, int64_t count, uint64_t *entries,
              int32_t nw, uint8_t valid_mark, uint8_t null_mark) {
    const dl_vec_view *d = u->data;
    int32_t p = k->prefix;
    for (int64_t i = 0; i < count; i++) {
        uint8_t *b = (uint8_t *)(entries + i * nw) + k->offset;
        if (u->validity != NULL && !dl_vec_bit_get(u->validity, i)) {
            b[0] = null_mark;
            continue;
        }
        b[0] = valid_mark;
        dl_str s = dl_vec_view_str(u->flat, &d[u->sel[i]]);
        size_t n = DL_MIN(s.len, (size_t)p);
        memcpy(b + 1, s.ptr, n);
        b[1 + p] = (uint8_t)DL_MIN(s.len, (size_t)p + 1);
        if (k->is_desc) {
            for (int32_t q = 1; q <= p + 1; q++) {
                b[q] = (uint8_t)~b[q];
            }
        }
    }
}

static void
encode_markers(const dl_sql_skey *k, const dl_vec_unified *u, int64_t count, uint64_t *entries,
               int32_t nw, uint8_t valid_mark, uint8_t null_mark) {
    bool is_null_type = u->flat->type->id == DL_VEC_TYPE_NULL;
    for (int64_t i = 0; i < count; i++) {
        uint8_t *b = (uint8_t *)(entries + i * nw) + k->offset;
        bool is_null = is_null_type || (u->validity != NULL && !dl_vec_bit_get(u->validity, i));
        b[0] = is_null ? null_mark : valid_mark;
    }
}

static void
encode_key(const dl_sql_skey *k, const dl_vector *vec, int64_t count, uint64_t *entries,
           int32_t nw) {
    dl_vec_unified u;
    dl_vec_unify(vec, count, &u);
    uint8_t valid_mark = k->is_nulls_first ? 1 : 0;
    uint8_t null_mark = k->is_nulls_first ? 0 : 1;
    uint64_t flip = k->is_desc ? UINT64_MAX : 0;
    if (k->width == 0) {
        return;
    }
    if (k->kind == DL_SQL_SKEY_FULL || k->phys == DL_VEC_PHYS_NONE) {
        encode_markers(k, &u, count, entries, nw, valid_mark, null_mark);
        return;
    }
    switch (k->phys) {
    case DL_VEC_PHYS_BIT:
        for (int64_t i = 0; i < count; i++) {
            uint8_t *b = (uint8_t *)(entries + i * nw) + k->offset;
            if (u.validity != NULL && !dl_vec_bit_get(u.validity, i)) {
                b[0] = null_mark;
                continue;
            }
            b[0] = valid_mark;
            b[1] = (uint8_t)((dl_vec_bit_get(u.data, u.sel[i]) ? 1u : 0u) ^ (uint8_t)flip);
        }
        return;
    case DL_VEC_PHYS_I8:
        ENCODE_LOOP(int8_t, 1, (uint64_t)(uint8_t)x ^ 0x80u);
        return;
    case DL_VEC_PHYS_I16:
        ENCODE_LOOP(int16_t, 2, (uint64_t)(uint16_t)x ^ 0x8000u);
        return;
    case DL_VEC_PHYS_I32:
        ENCODE_LOOP(int32_t, 4, (uint64_t)(uint32_t)x ^ 0x80000000u);
        return;
    case DL_VEC_PHYS_I64:
        ENCODE_LOOP(int64_t, 8, (uint64_t)x ^ (UINT64_C(1) << 63));
        return;
    case DL_VEC_PHYS_F32:
        ENCODE_LOOP(float, 4, (uint64_t)f32_bits(x));
        return;
    case DL_VEC_PHYS_F64:
        ENCODE_LOOP(double, 8, f64_bits(x));
        return;
    case DL_VEC_PHYS_I128:
        encode_i128(k, &u, count, entries, nw, valid_mark, null_mark);
        return;
    case DL_VEC_PHYS_VIEW:
        encode_string(k, &u, count, entries, nw, valid_mark, null_mark);
        return;
    default:
        encode_markers(k, &u, count, entries, nw, valid_mark, null_mark);
        return;
    }
}

static inline uint64_t
to_host_order(uint64_t w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return __builtin_bswap64(w);
#else
    return w;
#endif
}

void
dl_sql_sort_encode(const dl_sql_sort_layout *lay, dl_vector *const *key_vecs, int64_t count,
                   uint64_t *entries, uint64_t ref_base) {
    int32_t nw = lay->nw;
    memset(entries, 0, (size_t)(count * nw) * sizeof(uint64_t));
    for (int32_t j = 0; j < lay->n_keys; j++) {
        encode_key(&lay->keys[j], key_vecs[j], count, entries, nw);
    }
    for (int64_t i = 0; i < count; i++) {
        uint64_t *e = entries + i * nw;
        for (int32_t w = 0; w < nw; w++) {
            e[w] = to_host_order(e[w]);
        }
        e[nw - 1] |= ref_base + (uint64_t)i;
    }
}

/* ---- comparison ---------------------------------------------------------------------------- */

static inline uint8_t
entry_byte(const uint64_t *e, int32_t p) {
    return (uint8_t)(e[p / 8] >> (56 - 8 * (p % 8)));
}

int
dl_sql_sort_full_vectors(const void *ctx, int32_t key, uint64_t a, uint64_t b, int *out_nulls) {
    dl_vector *const *const *run_keys = ctx;
    const dl_vector *va = run_keys[DL_SQL_REF_RUN(a)][key];
    const dl_vector *vb = run_keys[DL_SQL_REF_RUN(b)][key];
    int64_t ra = DL_SQL_REF_ROW(a);
    int64_t rb = DL_SQL_REF_ROW(b);
    *out_nulls = (dl_vec_is_null(va, ra) ? 1 : 0) | (dl_vec_is_null(vb, rb) ? 2 : 0);
    if (*out_nulls != 0) {
        return 0;
    }
    return dl_sql_value_compare(va, ra, vb, rb);
}

/* Full comparison of inexact key j of two entries whose encodings of it are equal; 0 when the
 * encodings settle it. */
static int
compare_full(const dl_sql_sort_cmp *cmp, int32_t j, const uint64_t *a, const uint64_t *b) {
    const dl_sql_sort_layout *lay = cmp->lay;
    const dl_sql_skey *k = &lay->keys[j];
    if (k->width > 0) {
        uint8_t valid_mark = k->is_nulls_first ? 1 : 0;
        if (entry_byte(a, k->offset) != valid_mark) {
            return 0; /* both NULL */
        }
        if (k->kind == DL_SQL_SKEY_STRING) {
            uint8_t long_mark = (uint8_t)(k->prefix + 1);
            if (k->is_desc) {
                long_mark = (uint8_t)~long_mark;
            }
            if (entry_byte(a, k->offset + k->width - 1) != long_mark) {
                return 0;
            }
        }
    }
    int nulls = 0;
    int c = cmp->full(cmp->ctx, j, dl_sql_entry_ref(lay, a), dl_sql_entry_ref(lay, b), &nulls);
    if (nulls != 0) {
        /* Only keys without an encoding get here with NULLs. */
        if (nulls == 3) {
            return 0;
        }
        c = (nulls & 1) != 0 ? -1 : 1;
        return k->is_nulls_first ? c : -c;
    }
    return k->is_desc ? -c : c;
}

int
dl_sql_sort_compare(const dl_sql_sort_cmp *cmp, const uint64_t *a, const uint64_t *b) {
    const dl_sql_sort_layout *lay = cmp->lay;
    int32_t w = 0;
    while (w < lay->nw && a[w] == b[w]) {
        w++;
    }
    int sign = w < lay->nw ? (a[w] < b[w] ? -1 : 1) : 0;
    if (lay->is_exact) {
        return sign;
    }
    int32_t d = w * 8;
    if (w < lay->nw) {
        d += __builtin_clzll(a[w] ^ b[w]) / 8;
    }
    for (int32_t i = 0; i < lay->n_inexact; i++) {
        int32_t j = lay->inexact[i];
        const dl_sql_skey *k = &lay->keys[j];
        if (k->offset + k->width > d) {
            break;
        }
        int c = compare_full(cmp, j, a, b);
        if (c != 0) {
            return c;
        }
    }
    return sign;
}

bool
dl_sql_sort_group_needs_full(const dl_sql_sort_layout *lay, int32_t j, const uint64_t *e,
                             int64_t n) {
    const dl_sql_skey *k = &lay->keys[j];
    if (k->width == 0 || k->kind == DL_SQL_SKEY_FULL) {
        return n > 1;
    }
    uint8_t valid_mark = k->is_nulls_first ? 1 : 0;
    uint8_t long_mark = (uint8_t)(k->prefix + 1);
    if (k->is_desc) {
        long_mark = (uint8_t)~long_mark;
    }
    for (int64_t i = 0; i < n; i++) {
        const uint64_t *x = e + i * lay->nw;
        if (entry_byte(x, k->offset) != valid_mark) {
            continue;
        }
        if (entry_byte(x, k->offset + k->width - 1) == long_mark) {
            return true;
        }
    }
    return false;
}
