/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Physical Parquet values to vector values (the table in pq_reader.h): widening of small and
 * unsigned integers, decimals to 128 bits, timestamp units to microseconds, INT96 to
 * microseconds, FLOAT16 to float, UUIDs to their text form, and byte arrays to binary views.
 *
 * Byte arrays are never copied when they lie in a page buffer: the view points into the
 * buffer, which the vector then holds as one of its heaps (vector.h). Values that do not (a
 * DELTA_BYTE_ARRAY value rebuilt from a prefix and a suffix, a UUID's text) are copied into
 * the vector's own heap. Values of up to 12 bytes are inlined in the view either way.
 *
 * Decimals are taken as stored: a value with more digits than its column's precision is not
 * refused (DuckDB and Arrow do not check either), but one that does not fit 128 bits is.
 */
#include <math.h>
#include <string.h>

#include "parquet/pq_reader_int.h"

dl_status
dl_pq_vec_room(dl_vector *vec, int64_t n, dl_error *err) {
    int64_t need = vec->length + n;
    if (need <= vec->capacity &&
        (vec->data_buf == NULL || dl_vec_buffer_is_unique(vec->data_buf)) &&
        (vec->validity_buf == NULL || dl_vec_buffer_is_unique(vec->validity_buf))) {
        return DL_OK;
    }
    int64_t cap = DL_MAX(need, DL_MAX(vec->capacity * 2, 64));
    if (cap > DL_VEC_MAX_LENGTH && need <= DL_VEC_MAX_LENGTH) {
        cap = DL_VEC_MAX_LENGTH;
    }
    return dl_vec_reserve(vec, cap, err);
}

dl_status
dl_pq_decimal_from_be(const uint8_t *bytes, size_t len, dl_i128 *out, dl_error *err) {
    if (len == 0) {
        *out = 0;
        return DL_OK;
    }
    uint8_t sign = (bytes[0] & 0x80) != 0 ? 0xFF : 0x00;
    size_t skip = 0;
    while (len - skip > 16) {
        DL_CHECK(bytes[skip] == sign, err, DL_ERR_CORRUPT,
                 "a %zu-byte decimal value does not fit 128 bits", len);
        skip++;
    }
    if (len - skip == 16 && skip > 0) {
        DL_CHECK((bytes[skip] & 0x80) == (sign & 0x80), err, DL_ERR_CORRUPT,
                 "a %zu-byte decimal value does not fit 128 bits", len);
    }
    dl_u128 v = sign != 0 ? ~(dl_u128)0 : 0;
    for (size_t i = skip; i < len; i++) {
        v = (v << 8) | bytes[i];
    }
    *out = (dl_i128)v;
    return DL_OK;
}

/* ---- Fixed-width sources ---------------------------------------------------------------- */

static void
conv_bool(const uint8_t *src, size_t n, dl_vector *out) {
    uint8_t *bits = out->data;
    int64_t at = out->length;
    for (size_t i = 0; i < n; i++) {
        dl_vec_bit_put(bits, at + (int64_t)i, src[i] != 0);
    }
}

static dl_status
conv_i32(dl_pq_conv conv, const int32_t *src, size_t n, dl_vector *out, dl_error *err) {
    int64_t at = out->length;
    switch (conv) {
    case DL_PQ_CONV_I32:
        memcpy((int32_t *)out->data + at, src, n * sizeof(int32_t));
        return DL_OK;
    case DL_PQ_CONV_I32_I8:
        for (size_t i = 0; i < n; i++) {
            ((int8_t *)out->data)[at + (int64_t)i] = (int8_t)src[i];
        }
        return DL_OK;
    case DL_PQ_CONV_I32_I16:
        for (size_t i = 0; i < n; i++) {
            ((int16_t *)out->data)[at + (int64_t)i] = (int16_t)src[i];
        }
        return DL_OK;
    case DL_PQ_CONV_U16_I32:
        for (size_t i = 0; i < n; i++) {
            ((int32_t *)out->data)[at + (int64_t)i] = (int32_t)((uint32_t)src[i] & 0xFFFFu);
        }
        return DL_OK;
    case DL_PQ_CONV_U32_I64:
        for (size_t i = 0; i < n; i++) {
            ((int64_t *)out->data)[at + (int64_t)i] = (int64_t)(uint32_t)src[i];
        }
        return DL_OK;
    case DL_PQ_CONV_I32_MS_US:
        for (size_t i = 0; i < n; i++) {
            ((int64_t *)out->data)[at + (int64_t)i] = (int64_t)src[i] * 1000;
        }
        return DL_OK;
    case DL_PQ_CONV_I32_DEC:
        for (size_t i = 0; i < n; i++) {
            dl_i128 v = src[i];
            memcpy((uint8_t *)out->data + (size_t)(at + (int64_t)i) * 16, &v, 16);
        }
        return DL_OK;
    default:
        DL_FAIL(err, DL_ERR_INTERNAL, "INT32 values for conversion %d", (int)conv);
    }
}

static dl_status
conv_i64_time(dl_pq_conv conv, const int64_t *src, size_t n, int64_t *dst, dl_error *err) {
    if (conv == DL_PQ_CONV_I64_NS_US) {
        for (size_t i = 0; i < n; i++) {
            int64_t q = src[i] / 1000;
            dst[i] = src[i] % 1000 < 0 ? q - 1 : q;
        }
        return DL_OK;
    }
    bool overflow = false;
    for (size_t i = 0; i < n; i++) {
        overflow |= DL_MUL_OVERFLOW(src[i], (int64_t)1000, &dst[i]);
    }
    if (!overflow) {
        return DL_OK;
    }
    size_t bad = 0;
    while (bad < n && src[bad] <= INT64_MAX / 1000 && src[bad] >= INT64_MIN / 1000) {
        bad++;
    }
    DL_FAIL(err, DL_ERR_CORRUPT, "the millisecond value %lld is out of the range of timestamps",
            (long long)(bad < n ? src[bad] : 0));
}

static dl_status
conv_i64(dl_pq_conv conv, const int64_t *src, size_t n, dl_vector *out, dl_error *err) {
    int64_t at = out->length;
    switch (conv) {
    case DL_PQ_CONV_I64:
        memcpy((int64_t *)out->data + at, src, n * sizeof(int64_t));
        return DL_OK;
    case DL_PQ_CONV_I64_MS_US:
    case DL_PQ_CONV_I64_NS_US:
        return conv_i64_time(conv, src, n, (int64_t *)out->data + at, err);
    case DL_PQ_CONV_I64_DEC:
    case DL_PQ_CONV_U64_DEC:
        for (size_t i = 0; i < n; i++) {
            dl_i128 v = conv == DL_PQ_CONV_I64_DEC ? (dl_i128)src[i] : (dl_i128)(uint64_t)src[i];
            memcpy((uint8_t *)out->data + (size_t)(at + (int64_t)i) * 16, &v, 16);
        }
        return DL_OK;
    default:
        DL_FAIL(err, DL_ERR_INTERNAL, "INT64 values for conversion %d", (int)conv);
    }
}

/*
 * INT96 (8 bytes little-endian nanoseconds within the day, 4 bytes little-endian Julian day)
 * to microseconds, floored, computed as Spark reads it: the day is a signed int32 and the
 * arithmetic wraps at 64 bits. Spark writes timestamps beyond year 262143 with a 64-bit
 * overflow (a negative day, negative nanoseconds), and only the same wrapping arithmetic gets
 * back the instant it meant (parquet-testing int96_from_spark.md); for every day a real clock
 * produces the wrap never happens and the result is exact.
 */
static void
conv_int96(const uint8_t *src, size_t n, int64_t *dst) {
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = src + i * DL_PQ_INT96_SIZE;
        int64_t nanos;
        uint32_t day;
        memcpy(&nanos, p, 8);
        memcpy(&day, p + 8, 4);
        int64_t days = (int64_t)(int32_t)day - 2440588;
        int64_t micros = nanos / 1000 - (nanos % 1000 < 0);
        dst[i] = (int64_t)((uint64_t)days * 86400000000ULL + (uint64_t)micros);
    }
}

/* ---- Byte arrays -------------------------------------------------------------------------- */

dl_status
dl_pq_vec_heap(dl_vector *vec, dl_vec_buffer *heap, int32_t *out, dl_error *err) {
    for (int32_t i = vec->n_heaps - 1; i >= 0; i--) {
        if (vec->heaps[i] == heap) {
            *out = i;
            return DL_OK;
        }
    }
    return dl_vec_add_heap(vec, heap, out, err);
}

/* Writes the view of s to v: inlined, a reference into heap (index *hi, added on first use),
 * or (when s is elsewhere) *out_copy is set for the caller to append a copy. */
static dl_status
make_view(dl_vector *out, dl_vec_buffer *heap, int32_t *hi, dl_str s, dl_vec_view *v,
          bool *out_copy, dl_error *err) {
    *out_copy = false;
    if (s.len <= DL_VEC_VIEW_INLINE) {
        memset(v, 0, sizeof(*v));
        v->inlined.length = (int32_t)s.len;
        if (s.len > 0) {
            memcpy(v->inlined.data, s.ptr, s.len);
        }
        return DL_OK;
    }
    /* Compare addresses as integers: s may point anywhere (the page, a decoder's arena). The
     * offset must be checked against the heap's size before it is subtracted from it. */
    uintptr_t at = (uintptr_t)s.ptr;
    uintptr_t start = heap != NULL ? (uintptr_t)heap->data : 0;
    bool inside = heap != NULL && at >= start && at - start <= heap->size &&
                  at - start <= INT32_MAX && s.len <= heap->size - (size_t)(at - start);
    const uint8_t *p = (const uint8_t *)s.ptr;
    if (!inside) {
        *out_copy = true;
        return DL_OK;
    }
    if (*hi < 0) {
        DL_TRY(dl_pq_vec_heap(out, heap, hi, err));
    }
    v->ref.length = (int32_t)s.len;
    memcpy(v->ref.prefix, p, 4);
    v->ref.buffer_index = *hi;
    v->ref.offset = (int32_t)(p - heap->data);
    return DL_OK;
}

static dl_status
conv_views(const dl_pq_phys *phys, bool check_utf8, dl_vector *out, dl_error *err) {
    int32_t hi = -1;
    int64_t base = out->length;
    for (size_t i = 0; i < phys->n; i++) {
        dl_str s = phys->strs[i];
        DL_CHECK(!check_utf8 || dl_utf8_valid(s.ptr, s.len), err, DL_ERR_CORRUPT,
                 "value %zu of the page is not valid UTF-8 (%zu bytes)", i, s.len);
        DL_CHECK(s.len <= INT32_MAX, err, DL_ERR_LIMIT,
                 "a %zu-byte value exceeds the 2 GiB limit of one string", s.len);
        bool copy = false;
        dl_vec_view *v = (dl_vec_view *)out->data + base + (int64_t)i;
        DL_TRY(make_view(out, phys->heap, &hi, s, v, &copy, err));
        if (copy) {
            out->length = base + (int64_t)i;
            DL_TRY(dl_vec_append_str(out, s.ptr, s.len, err));
        }
    }
    return DL_OK;
}

static dl_status
conv_decimal_strs(const dl_pq_phys *phys, dl_vector *out, dl_error *err) {
    uint8_t *dst = (uint8_t *)out->data + (size_t)out->length * 16;
    for (size_t i = 0; i < phys->n; i++) {
        dl_i128 v;
        DL_TRY(
            dl_pq_decimal_from_be((const uint8_t *)phys->strs[i].ptr, phys->strs[i].len, &v, err));
        memcpy(dst + i * 16, &v, 16);
    }
    return DL_OK;
}

/* IEEE 754 binary16 to binary32 (exact). */
static float
half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h >> 15) << 31;
    uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t mant = h & 0x3FFu;
    uint32_t bits;
    if (exp == 0x1F) {
        bits = sign | 0x7F800000u | (mant << 13); /* inf, NaN */
    } else if (exp != 0) {
        bits = sign | ((exp + 112u) << 23) | (mant << 13);
    } else if (mant == 0) {
        bits = sign;
    } else {
        float f = ldexpf((float)mant, -24); /* subnormal: mant * 2^-24 */
        return sign != 0 ? -f : f;
    }
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

static void
conv_f16(const dl_pq_phys *phys, dl_vector *out) {
    float *dst = (float *)out->data + out->length;
    for (size_t i = 0; i < phys->n; i++) {
        const uint8_t *b = (const uint8_t *)phys->strs[i].ptr;
        dst[i] = half_to_float((uint16_t)(b[0] | (b[1] << 8)));
    }
}

static dl_status
conv_uuid(const dl_pq_phys *phys, dl_vector *out, dl_error *err) {
    static const char hex[] = "0123456789abcdef";
    int64_t base = out->length;
    for (size_t i = 0; i < phys->n; i++) {
        const uint8_t *b = (const uint8_t *)phys->strs[i].ptr;
        char text[36];
        size_t k = 0;
        for (size_t j = 0; j < 16; j++) {
            if (j == 4 || j == 6 || j == 8 || j == 10) {
                text[k++] = '-';
            }
            text[k++] = hex[b[j] >> 4];
            text[k++] = hex[b[j] & 15];
        }
        out->length = base + (int64_t)i;
        DL_TRY(dl_vec_append_str(out, text, sizeof(text), err));
    }
    out->length = base;
    return DL_OK;
}

static dl_status
conv_strs(dl_pq_conv conv, const dl_pq_phys *phys, bool utf8_unchecked, dl_vector *out,
          dl_error *err) {
    switch (conv) {
    case DL_PQ_CONV_BA_STR:
        return conv_views(phys, !utf8_unchecked, out, err);
    case DL_PQ_CONV_BA_BIN:
    case DL_PQ_CONV_FLBA_BIN:
        return conv_views(phys, false, out, err);
    case DL_PQ_CONV_BA_DEC:
    case DL_PQ_CONV_FLBA_DEC:
        return conv_decimal_strs(phys, out, err);
    case DL_PQ_CONV_FLBA_F16:
        conv_f16(phys, out);
        return DL_OK;
    case DL_PQ_CONV_FLBA_UUID:
        return conv_uuid(phys, out, err);
    default:
        DL_FAIL(err, DL_ERR_INTERNAL, "byte-array values for conversion %d", (int)conv);
    }
}

dl_status
dl_pq_conv_append(dl_pq_conv conv, const dl_type *type, const dl_pq_phys *phys, bool utf8_unchecked,
                  dl_vector *out, dl_error *err) {
    (void)type;
    size_t n = phys->n;
    if (n == 0) {
        return DL_OK;
    }
    DL_ASSERT(out->layout == DL_VEC_FLAT && out->length + (int64_t)n <= out->capacity);
    int64_t at = out->length;
    switch (phys->type) {
    case DL_PQ_TYPE_BOOLEAN:
        conv_bool(phys->fixed, n, out);
        break;
    case DL_PQ_TYPE_INT32:
        DL_TRY(conv_i32(conv, phys->fixed, n, out, err));
        break;
    case DL_PQ_TYPE_INT64:
        DL_TRY(conv_i64(conv, phys->fixed, n, out, err));
        break;
    case DL_PQ_TYPE_INT96:
        conv_int96(phys->fixed, n, (int64_t *)out->data + at);
        break;
    case DL_PQ_TYPE_FLOAT:
        memcpy((float *)out->data + at, phys->fixed, n * sizeof(float));
        break;
    case DL_PQ_TYPE_DOUBLE:
        memcpy((double *)out->data + at, phys->fixed, n * sizeof(double));
        break;
    default:
        DL_TRY(conv_strs(conv, phys, utf8_unchecked, out, err));
        break;
    }
    out->length = at + (int64_t)n;
    return DL_OK;
}
