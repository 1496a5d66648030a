/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Partition values and partition folders (PROTOCOL.md "Partition Value Serialization"; Spark's
 * ExternalCatalogUtils.escapePathName for the folder names).
 *
 *   boolean            true | false
 *   byte .. long       decimal digits
 *   float, double      shortest text that reads back to the same value
 *   decimal(p, s)      the plain number with s digits after the point
 *   date               yyyy-MM-dd
 *   timestamp          yyyy-MM-dd HH:mm:ss[.ffffff] (UTC)
 *   timestamp_ntz      the same, without a zone
 *   string             as it is
 *
 * NULL and the empty string are a null partition value (Spark writes both as
 * __HIVE_DEFAULT_PARTITION__ and reads both back as NULL).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/timefmt.h"
#include "ops/ops.h"

__extension__ typedef unsigned __int128 u128;

dl_status
dl_ops_decimal_text(dl_i128 unscaled, int scale, dl_buf *out, dl_error *err) {
    char digits[48];
    int n = 0;
    bool is_neg = unscaled < 0;
    /* Work on the magnitude as unsigned so that the most negative value is fine. */
    u128 mag = is_neg ? (u128)0 - (u128)unscaled : (u128)unscaled;
    do {
        digits[n++] = (char)('0' + (int)(mag % 10));
        mag /= 10;
    } while (mag != 0 && n < 40);
    while (n <= scale && n < 46) {
        digits[n++] = '0';
    }
    if (is_neg) {
        DL_TRY(dl_buf_append_byte(out, '-', err));
    }
    for (int i = n - 1; i >= 0; i--) {
        if (i == scale - 1) {
            DL_TRY(dl_buf_append_byte(out, '.', err));
        }
        DL_TRY(dl_buf_append_byte(out, (uint8_t)digits[i], err));
    }
    return DL_OK;
}

static dl_status
append_double(double v, dl_buf *out, dl_error *err) {
    char text[40];
    for (int prec = 1; prec <= 17; prec++) {
        (void)snprintf(text, sizeof(text), "%.*g", prec, v);
        if (strtod(text, NULL) == v) {
            break;
        }
    }
    return dl_buf_append_cstr(out, text, err);
}

static dl_status
append_int(int64_t v, dl_buf *out, dl_error *err) {
    return dl_buf_appendf(out, err, "%" PRId64, v);
}

static dl_status
append_ts(int64_t micros, dl_buf *out, dl_error *err) {
    char text[64];
    size_t n = dl_ts_format(micros, DL_TS_STYLE_SPARK, text);
    return dl_buf_append(out, text, n, err);
}

static dl_status
append_date(int32_t days, dl_buf *out, dl_error *err) {
    char text[32];
    size_t n = dl_date_format(days, text);
    return dl_buf_append(out, text, n, err);
}

dl_status
dl_ops_partition_value(const dl_vector *vec, int64_t row, dl_buf *out, bool *out_is_null,
                       dl_error *err) {
    *out_is_null = dl_vec_is_null(vec, row);
    if (*out_is_null) {
        return DL_OK;
    }
    const dl_vector *flat = NULL;
    int64_t i = dl_vec_resolve(vec, row, &flat);
    const void *d = flat->data;
    switch (vec->type->id) {
    case DL_VEC_TYPE_BOOLEAN:
        return dl_buf_append_cstr(out, dl_vec_get_bool(flat, i) ? "true" : "false", err);
    case DL_VEC_TYPE_BYTE:
        return append_int(((const int8_t *)d)[i], out, err);
    case DL_VEC_TYPE_SHORT:
        return append_int(((const int16_t *)d)[i], out, err);
    case DL_VEC_TYPE_INT:
        return append_int(((const int32_t *)d)[i], out, err);
    case DL_VEC_TYPE_LONG:
        return append_int(((const int64_t *)d)[i], out, err);
    case DL_VEC_TYPE_FLOAT:
        return append_double((double)((const float *)d)[i], out, err);
    case DL_VEC_TYPE_DOUBLE:
        return append_double(((const double *)d)[i], out, err);
    case DL_VEC_TYPE_DECIMAL:
        return dl_ops_decimal_text(((const dl_i128 *)d)[i], vec->type->scale, out, err);
    case DL_VEC_TYPE_DATE:
        return append_date(((const int32_t *)d)[i], out, err);
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        return append_ts(((const int64_t *)d)[i], out, err);
    case DL_VEC_TYPE_STRING: {
        dl_str s = dl_vec_get_str(flat, i);
        *out_is_null = s.len == 0;
        return dl_buf_append(out, s.ptr, s.len, err);
    }
    default:
        DL_FAIL(err, DL_ERR_UNSUPPORTED, "a column of type %s cannot be a partition column",
                dl_vec_type_name(vec->type->id));
    }
}

static bool
needs_escape(unsigned char c) {
    return c < 0x20 || c == 0x7F || strchr("\"#%'*/:=?\\{[]^", (int)c) != NULL;
}

dl_status
dl_ops_path_escape(dl_str value, dl_buf *out, dl_error *err) {
    for (size_t i = 0; i < value.len; i++) {
        unsigned char c = (unsigned char)value.ptr[i];
        if (c != 0 && needs_escape(c)) {
            DL_TRY(dl_buf_appendf(out, err, "%%%02X", (unsigned)c));
        } else {
            DL_TRY(dl_buf_append_byte(out, c, err));
        }
    }
    return DL_OK;
}

dl_status
dl_ops_value_text(const dl_delta_value *v, const dl_type *type, dl_buf *out, dl_error *err) {
    switch (type->id) {
    case DL_VEC_TYPE_BOOLEAN:
        return dl_buf_append_cstr(out, v->u.b ? "true" : "false", err);
    case DL_VEC_TYPE_BYTE:
    case DL_VEC_TYPE_SHORT:
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_LONG:
        return append_int(v->u.i64, out, err);
    case DL_VEC_TYPE_FLOAT:
    case DL_VEC_TYPE_DOUBLE:
        return append_double(v->u.f64, out, err);
    case DL_VEC_TYPE_DECIMAL:
        return dl_ops_decimal_text(v->u.dec, type->scale, out, err);
    case DL_VEC_TYPE_DATE:
        return append_date((int32_t)v->u.i64, out, err);
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        return append_ts(v->u.i64, out, err);
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY:
        return dl_buf_append(out, v->u.str.ptr, v->u.str.len, err);
    default:
        DL_FAIL(err, DL_ERR_UNSUPPORTED, "a column of type %s cannot be a partition column",
                dl_vec_type_name(type->id));
    }
}
