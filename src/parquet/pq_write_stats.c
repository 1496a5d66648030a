/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Statistics of the values being written (parquet.thrift "Statistics" and "ColumnOrder",
 * PageIndex.md): running min/max/null/NaN counts per page, column chunk and file, and their
 * encoded form.
 *
 * Order (TYPE_ORDER, the only one written): signed for INT32, INT64 and decimals (compared by
 * unscaled value whatever their physical type), IEEE 754 for FLOAT and DOUBLE, false < true
 * for BOOLEAN, unsigned byte-wise for BYTE_ARRAY. Floats follow the spec's rules for
 * TYPE_ORDER: NaN is never a bound (a set of only NaN has no bounds); a zero min is written as
 * -0.0 and a zero max as +0.0, so a reader that compares -0.0 and +0.0 as different values
 * still finds both inside the bounds.
 *
 * Encoding: PLAIN without a length prefix (BOOLEAN one byte, INT32/FLOAT 4 bytes LE,
 * INT64/DOUBLE 8 bytes LE, FIXED_LEN_BYTE_ARRAY decimals big-endian two's complement). Byte
 * arrays longer than max_bytes are cut: the min to a prefix (a lower bound), the max to a
 * prefix whose last incrementable unit is incremented (an upper bound): for UTF-8 strings the
 * last code point that has a successor of the same encoded length (skipping the surrogates),
 * cut at a code point boundary so the bound stays valid UTF-8; for binary the last byte below
 * 0xFF. Bounds cut this way are marked inexact; a max that cannot be incremented (all 0xFF)
 * is left out.
 */
#include <math.h>
#include <string.h>

#include "parquet/pq_write_int.h"

void
dl_pq_wstats_init(dl_pq_wstats *st, const dl_allocator *alloc) {
    memset(st, 0, sizeof(*st));
    dl_buf_init(&st->min_bytes, alloc);
    dl_buf_init(&st->max_bytes, alloc);
}

void
dl_pq_wstats_destroy(dl_pq_wstats *st) {
    dl_buf_destroy(&st->min_bytes);
    dl_buf_destroy(&st->max_bytes);
}

void
dl_pq_wstats_reset(dl_pq_wstats *st) {
    st->has_value = false;
    st->null_count = 0;
    st->nan_count = 0;
    memset(&st->min, 0, sizeof(st->min));
    memset(&st->max, 0, sizeof(st->max));
    dl_buf_reset(&st->min_bytes);
    dl_buf_reset(&st->max_bytes);
}

static dl_status
set_bytes(dl_buf *buf, dl_str v, dl_error *err) {
    dl_buf_reset(buf);
    return dl_buf_append(buf, v.ptr, v.len, err);
}

/* Merges one candidate min and max of BYTES into st. */
static dl_status
merge_bytes(dl_pq_wstats *st, dl_str lo, dl_str hi, dl_error *err) {
    if (!st->has_value) {
        DL_TRY(set_bytes(&st->min_bytes, lo, err));
        DL_TRY(set_bytes(&st->max_bytes, hi, err));
        st->has_value = true;
        return DL_OK;
    }
    if (dl_str_cmp(lo, dl_buf_view(&st->min_bytes)) < 0) {
        DL_TRY(set_bytes(&st->min_bytes, lo, err));
    }
    if (dl_str_cmp(hi, dl_buf_view(&st->max_bytes)) > 0) {
        DL_TRY(set_bytes(&st->max_bytes, hi, err));
    }
    return DL_OK;
}

static dl_status
update_bytes(dl_pq_wstats *st, const dl_str *v, size_t n, dl_error *err) {
    if (n == 0) {
        return DL_OK;
    }
    dl_str lo = v[0];
    dl_str hi = v[0];
    for (size_t i = 1; i < n; i++) {
        if (dl_str_cmp(v[i], lo) < 0) {
            lo = v[i];
        } else if (dl_str_cmp(v[i], hi) > 0) {
            hi = v[i];
        }
    }
    return merge_bytes(st, lo, hi, err);
}

#define NEVER_NAN(x) ((void)(x), 0)

/* Min and max of n numbers of type T (NaN skipped and counted for floats), merged into st. */
#define UPDATE_NUM(T, member, IS_NAN)       \
    do {                                    \
        const T *v = (const T *)vals;       \
        size_t i = 0;                       \
        if (!st->has_value) {               \
            while (i < n && IS_NAN(v[i])) { \
                st->nan_count++;            \
                i++;                        \
            }                               \
            if (i == n) {                   \
                return DL_OK;               \
            }                               \
            st->min.member = v[i];          \
            st->max.member = v[i];          \
            st->has_value = true;           \
            i++;                            \
        }                                   \
        T lo = st->min.member;              \
        T hi = st->max.member;              \
        for (; i < n; i++) {                \
            T x = v[i];                     \
            if (IS_NAN(x)) {                \
                st->nan_count++;            \
                continue;                   \
            }                               \
            lo = x < lo ? x : lo;           \
            hi = x > hi ? x : hi;           \
        }                                   \
        st->min.member = lo;                \
        st->max.member = hi;                \
    } while (0)

static dl_status
update_bool(dl_pq_wstats *st, const uint8_t *v, size_t n) {
    if (n == 0) {
        return DL_OK;
    }
    int32_t lo = st->has_value ? st->min.i32 : 1;
    int32_t hi = st->has_value ? st->max.i32 : 0;
    for (size_t i = 0; i < n; i++) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    st->min.i32 = lo;
    st->max.i32 = hi;
    st->has_value = true;
    return DL_OK;
}

static dl_status
update_i128(dl_pq_wstats *st, const dl_i128 *v, size_t n) {
    if (n == 0) {
        return DL_OK;
    }
    size_t i = 0;
    if (!st->has_value) {
        st->min.i128 = v[0];
        st->max.i128 = v[0];
        st->has_value = true;
        i = 1;
    }
    for (; i < n; i++) {
        if (v[i] < st->min.i128) {
            st->min.i128 = v[i];
        }
        if (v[i] > st->max.i128) {
            st->max.i128 = v[i];
        }
    }
    return DL_OK;
}

static dl_status
update_i32(dl_pq_wstats *st, const void *vals, size_t n) {
    UPDATE_NUM(int32_t, i32, NEVER_NAN);
    return DL_OK;
}

static dl_status
update_i64(dl_pq_wstats *st, const void *vals, size_t n) {
    UPDATE_NUM(int64_t, i64, NEVER_NAN);
    return DL_OK;
}

static dl_status
update_f32(dl_pq_wstats *st, const void *vals, size_t n) {
    UPDATE_NUM(float, f32, isnan);
    return DL_OK;
}

static dl_status
update_f64(dl_pq_wstats *st, const void *vals, size_t n) {
    UPDATE_NUM(double, f64, isnan);
    return DL_OK;
}

dl_status
dl_pq_wstats_update(dl_pq_wstats *st, dl_pq_vkind vk, const void *vals, const dl_i128 *dec,
                    size_t n, dl_error *err) {
    switch (vk) {
    case DL_PQ_VK_BOOL:
        return update_bool(st, vals, n);
    case DL_PQ_VK_I32:
        return update_i32(st, vals, n);
    case DL_PQ_VK_I64:
        return update_i64(st, vals, n);
    case DL_PQ_VK_F32:
        return update_f32(st, vals, n);
    case DL_PQ_VK_F64:
        return update_f64(st, vals, n);
    case DL_PQ_VK_DEC:
        return update_i128(st, dec, n);
    case DL_PQ_VK_BYTES:
        return update_bytes(st, vals, n, err);
    default:
        return DL_OK;
    }
}

dl_status
dl_pq_wstats_merge(dl_pq_wstats *dst, const dl_pq_wstats *src, dl_pq_vkind vk, dl_error *err) {
    dst->null_count += src->null_count;
    dst->nan_count += src->nan_count;
    if (!src->has_value) {
        return DL_OK;
    }
    switch (vk) {
    case DL_PQ_VK_BOOL:
    case DL_PQ_VK_I32:
        (void)update_i32(dst, &src->min.i32, 1);
        return update_i32(dst, &src->max.i32, 1);
    case DL_PQ_VK_I64:
        (void)update_i64(dst, &src->min.i64, 1);
        return update_i64(dst, &src->max.i64, 1);
    case DL_PQ_VK_F32:
        (void)update_f32(dst, &src->min.f32, 1);
        return update_f32(dst, &src->max.f32, 1);
    case DL_PQ_VK_F64:
        (void)update_f64(dst, &src->min.f64, 1);
        return update_f64(dst, &src->max.f64, 1);
    case DL_PQ_VK_DEC:
        (void)update_i128(dst, &src->min.i128, 1);
        return update_i128(dst, &src->max.i128, 1);
    case DL_PQ_VK_BYTES:
        return merge_bytes(dst, dl_buf_view(&src->min_bytes), dl_buf_view(&src->max_bytes), err);
    default:
        return DL_OK;
    }
}

/* ---- Encoding ---------------------------------------------------------------------------- */

static dl_status
put_be(dl_buf *out, dl_i128 v, int32_t len, dl_error *err) {
    uint8_t *p = dl_buf_extend(out, (size_t)len, err);
    if (p == NULL) {
        return DL_ERR_NOMEM;
    }
    dl_u128 u = (dl_u128)v;
    for (int32_t i = len - 1; i >= 0; i--) {
        p[i] = (uint8_t)u;
        u >>= 8;
    }
    return DL_OK;
}

/* Appends the encoded form of one number of kind vk (min selects the zero rule for floats). */
static dl_status
put_num(dl_buf *out, const dl_pq_wstats_form *form, const dl_pq_wnum *v, bool is_min,
        dl_error *err) {
    switch (form->vk) {
    case DL_PQ_VK_BOOL: {
        uint8_t b = (uint8_t)(v->i32 != 0);
        return dl_buf_append(out, &b, 1, err);
    }
    case DL_PQ_VK_I32:
        return dl_buf_append(out, &v->i32, 4, err);
    case DL_PQ_VK_I64:
        return dl_buf_append(out, &v->i64, 8, err);
    case DL_PQ_VK_F32: {
        float f = v->f32 == 0.0f ? (is_min ? -0.0f : 0.0f) : v->f32;
        return dl_buf_append(out, &f, 4, err);
    }
    case DL_PQ_VK_F64: {
        double d = v->f64 == 0.0 ? (is_min ? -0.0 : 0.0) : v->f64;
        return dl_buf_append(out, &d, 8, err);
    }
    case DL_PQ_VK_DEC:
        return put_be(out, v->i128, form->type_length, err);
    default:
        return DL_OK;
    }
}

/* Appends len bytes (reserved before); p may be NULL when len is 0. */
static void
append_raw(dl_buf *out, const char *p, size_t len) {
    if (len > 0) {
        dl_buf_append_unchecked(out, p, len);
    }
}

/* Length of a prefix of s no longer than max that ends on a code point boundary. */
static size_t
utf8_cut(dl_str s, size_t max) {
    size_t cut = max;
    while (cut > 0 && ((uint8_t)s.ptr[cut] & 0xC0) == 0x80) {
        cut--;
    }
    return cut;
}

/* Appends a binary upper bound of the first cut bytes of s: the last byte below 0xFF
 * incremented, what follows dropped. False when every byte is 0xFF. */
static bool
binary_upper(dl_str s, size_t cut, dl_buf *out) {
    size_t end = cut;
    while (end > 0 && (uint8_t)s.ptr[end - 1] == 0xFF) {
        end--;
    }
    if (end == 0) {
        return false;
    }
    dl_buf_append_unchecked(out, s.ptr, end);
    out->data[out->len - 1]++;
    return true;
}

/* Decodes the code point of the UTF-8 sequence at p of len bytes (valid UTF-8). */
static uint32_t
utf8_decode(const uint8_t *p, size_t len) {
    if (len == 1) {
        return p[0];
    }
    uint32_t cp = p[0] & (0x7Fu >> len);
    for (size_t i = 1; i < len; i++) {
        cp = cp << 6 | (p[i] & 0x3Fu);
    }
    return cp;
}

static void
utf8_encode(uint32_t cp, size_t len, uint8_t *p) {
    static const uint8_t lead[5] = {0, 0, 0xC0, 0xE0, 0xF0};
    for (size_t i = len - 1; i > 0; i--) {
        p[i] = (uint8_t)(0x80 | (cp & 0x3F));
        cp >>= 6;
    }
    p[0] = (uint8_t)(len == 1 ? cp : (lead[len] | cp));
}

/* Appends a UTF-8 upper bound of the first cut bytes of s (valid UTF-8, cut on a boundary):
 * the last code point with a successor of the same length incremented. */
static bool
utf8_upper(dl_str s, size_t cut, dl_buf *out) {
    static const uint32_t max_cp[5] = {0, 0x7F, 0x7FF, 0xFFFF, 0x10FFFF};
    const uint8_t *p = (const uint8_t *)s.ptr;
    size_t end = cut;
    while (end > 0) {
        size_t start = end - 1;
        while (start > 0 && (p[start] & 0xC0) == 0x80) {
            start--;
        }
        size_t len = end - start;
        uint32_t next = utf8_decode(p + start, len) + 1;
        if (next >= 0xD800 && next <= 0xDFFF) {
            next = 0xE000;
        }
        if (next <= max_cp[len]) {
            append_raw(out, (const char *)p, start);
            utf8_encode(next, len, out->data + out->len);
            out->len += len;
            return true;
        }
        end = start;
    }
    return false;
}

static dl_status
encode_bytes(const dl_pq_wstats *st, const dl_pq_wstats_form *form, dl_buf *out, dl_pq_wbounds *b,
             dl_error *err) {
    dl_str lo = dl_buf_view(&st->min_bytes);
    dl_str hi = dl_buf_view(&st->max_bytes);
    size_t max = form->max_bytes;
    DL_TRY(dl_buf_reserve(out, DL_MIN(lo.len, max) + DL_MIN(hi.len, max), err));
    bool is_utf8 = form->is_utf8;
    b->min_off = out->len;
    b->has_min = true;
    b->is_min_exact = lo.len <= max;
    size_t lo_cut = lo.len;
    if (!b->is_min_exact) {
        lo_cut = is_utf8 && dl_utf8_valid(lo.ptr, lo.len) ? utf8_cut(lo, max) : max;
    }
    append_raw(out, lo.ptr, lo_cut);
    b->min_len = lo_cut;
    b->max_off = out->len;
    if (hi.len <= max) {
        append_raw(out, hi.ptr, hi.len);
        b->has_max = true;
        b->is_max_exact = true;
    } else if (is_utf8 && dl_utf8_valid(hi.ptr, hi.len)) {
        b->has_max = utf8_upper(hi, utf8_cut(hi, max), out);
    } else {
        b->has_max = binary_upper(hi, max, out);
    }
    b->max_len = out->len - b->max_off;
    return DL_OK;
}

dl_status
dl_pq_wstats_encode(const dl_pq_wstats *st, const dl_pq_wstats_form *form, dl_buf *out,
                    dl_pq_wbounds *bounds, dl_error *err) {
    memset(bounds, 0, sizeof(*bounds));
    if (!st->has_value || form->vk == DL_PQ_VK_NONE) {
        return DL_OK;
    }
    if (form->vk == DL_PQ_VK_BYTES) {
        return encode_bytes(st, form, out, bounds, err);
    }
    bounds->min_off = out->len;
    DL_TRY(put_num(out, form, &st->min, true, err));
    bounds->min_len = out->len - bounds->min_off;
    bounds->max_off = out->len;
    DL_TRY(put_num(out, form, &st->max, false, err));
    bounds->max_len = out->len - bounds->max_off;
    bounds->has_min = true;
    bounds->has_max = true;
    bounds->is_min_exact = true;
    bounds->is_max_exact = true;
    return DL_OK;
}

static int
cmp_num(double a, double b) {
    return a < b ? -1 : a > b ? 1 : 0;
}

int
dl_pq_wstats_compare(const dl_pq_wstats_form *form, dl_str a, dl_str b) {
    switch (form->vk) {
    case DL_PQ_VK_BOOL:
        return (int)(uint8_t)a.ptr[0] - (int)(uint8_t)b.ptr[0];
    case DL_PQ_VK_I32: {
        int32_t x, y;
        memcpy(&x, a.ptr, 4);
        memcpy(&y, b.ptr, 4);
        return x < y ? -1 : x > y;
    }
    case DL_PQ_VK_I64: {
        int64_t x, y;
        memcpy(&x, a.ptr, 8);
        memcpy(&y, b.ptr, 8);
        return x < y ? -1 : x > y;
    }
    case DL_PQ_VK_F32: {
        float x, y;
        memcpy(&x, a.ptr, 4);
        memcpy(&y, b.ptr, 4);
        return cmp_num((double)x, (double)y);
    }
    case DL_PQ_VK_F64: {
        double x, y;
        memcpy(&x, a.ptr, 8);
        memcpy(&y, b.ptr, 8);
        return cmp_num(x, y);
    }
    case DL_PQ_VK_DEC: {
        /* Big-endian two's complement of equal length: the sign byte decides first. */
        int sa = (int)(int8_t)a.ptr[0];
        int sb = (int)(int8_t)b.ptr[0];
        if (sa != sb) {
            return sa < sb ? -1 : 1;
        }
        return dl_str_cmp(dl_str_slice(a, 1, a.len), dl_str_slice(b, 1, b.len));
    }
    default:
        return dl_str_cmp(a, b);
    }
}
