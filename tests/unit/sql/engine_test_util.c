/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers for the engine's tests (engine_test_util.h). */
#include "engine_test_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/pool.h"
#include "base/timefmt.h"

static dl_pool *et_pool;

dl_sql_session *
et_session(int n_workers) {
    dl_error err;
    dl_error_clear(&err);
    if (n_workers > 0 && et_pool == NULL && dl_pool_new(n_workers, NULL, &et_pool, &err) != DL_OK) {
        return NULL;
    }
    dl_sql_session_config cfg = {.pool = n_workers > 0 ? et_pool : NULL};
    dl_sql_session *s = NULL;
    if (dl_sql_session_new(&cfg, &s, &err) != DL_OK) {
        printf("session: %s\n", err.msg);
        return NULL;
    }
    return s;
}

void
et_session_free(dl_sql_session *s) {
    dl_sql_session_free(s);
}

static dl_status
decimal_text(dl_i128 v, int scale, dl_buf *out, dl_error *err) {
    char digits[64];
    int n = 0;
    bool neg = v < 0;
    dl_u128 u = neg ? (dl_u128)(-(v + 1)) + 1 : (dl_u128)v;
    do {
        digits[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u > 0 || n <= scale);
    if (neg) {
        DL_TRY(dl_buf_append_byte(out, '-', err));
    }
    for (int i = n - 1; i >= 0; i--) {
        DL_TRY(dl_buf_append_byte(out, (uint8_t)digits[i], err));
        if (i == scale && scale > 0) {
            DL_TRY(dl_buf_append_byte(out, '.', err));
        }
    }
    return DL_OK;
}

static dl_status
scalar_text(const dl_vector *flat, int64_t i, dl_buf *out, dl_error *err) {
    const void *d = flat->data;
    char tmp[64];
    switch (flat->type->id) {
    case DL_VEC_TYPE_BOOLEAN:
        return dl_buf_append_cstr(out, dl_vec_get_bool(flat, i) ? "true" : "false", err);
    case DL_VEC_TYPE_BYTE:
        return dl_buf_appendf(out, err, "%d", (int)((const int8_t *)d)[i]);
    case DL_VEC_TYPE_SHORT:
        return dl_buf_appendf(out, err, "%d", (int)((const int16_t *)d)[i]);
    case DL_VEC_TYPE_INT:
        return dl_buf_appendf(out, err, "%" PRId32, ((const int32_t *)d)[i]);
    case DL_VEC_TYPE_LONG:
        return dl_buf_appendf(out, err, "%" PRId64, ((const int64_t *)d)[i]);
    case DL_VEC_TYPE_FLOAT:
        return dl_buf_appendf(out, err, "%g", (double)((const float *)d)[i]);
    case DL_VEC_TYPE_DOUBLE:
        return dl_buf_appendf(out, err, "%g", ((const double *)d)[i]);
    case DL_VEC_TYPE_DECIMAL:
        return decimal_text(((const dl_i128 *)d)[i], flat->type->scale, out, err);
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY: {
        dl_str s = dl_vec_get_str(flat, i);
        return s.len == 0 ? dl_buf_append_cstr(out, "(empty)", err)
                          : dl_buf_append(out, s.ptr, s.len, err);
    }
    case DL_VEC_TYPE_DATE:
        dl_date_format(((const int32_t *)d)[i], tmp);
        return dl_buf_append_cstr(out, tmp, err);
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        return dl_buf_appendf(out, err, "ts:%" PRId64, ((const int64_t *)d)[i]);
    default:
        return dl_buf_appendf(out, err, "<%s>", dl_vec_type_name(flat->type->id));
    }
}

static dl_status render(const dl_vector *vec, int64_t row, dl_buf *out, dl_error *err);

static dl_status
nested_text(const dl_vector *flat, int64_t i, dl_buf *out, dl_error *err) {
    if (flat->type->id == DL_VEC_TYPE_STRUCT) {
        DL_TRY(dl_buf_append_cstr(out, "{", err));
        for (int32_t f = 0; f < flat->n_children; f++) {
            DL_TRY(
                dl_buf_appendf(out, err, "%s%s:", f > 0 ? ", " : "", flat->type->fields[f].name));
            DL_TRY(render(flat->children[f], i, out, err));
        }
        return dl_buf_append_cstr(out, "}", err);
    }
    int64_t start, end;
    dl_vec_list_bounds(flat, i, &start, &end);
    DL_TRY(dl_buf_append_cstr(out, "[", err));
    for (int64_t e = start; e < end; e++) {
        if (e > start) {
            DL_TRY(dl_buf_append_cstr(out, ", ", err));
        }
        DL_TRY(render(flat->children[0], e, out, err));
    }
    return dl_buf_append_cstr(out, "]", err);
}

static dl_status
render(const dl_vector *vec, int64_t row, dl_buf *out, dl_error *err) {
    if (dl_vec_is_null(vec, row)) {
        return dl_buf_append_cstr(out, "NULL", err);
    }
    const dl_vector *flat;
    int64_t i = dl_vec_resolve(vec, row, &flat);
    if (dl_vec_type_is_nested(flat->type)) {
        return nested_text(flat, i, out, err);
    }
    return scalar_text(flat, i, out, err);
}

dl_status
et_value(const dl_batch *batch, int32_t c, int64_t k, dl_buf *out, dl_error *err) {
    return render(batch->cols[c], dl_vec_batch_row(batch, k), out, err);
}

dl_status
et_query(dl_sql_session *s, const char *sql, dl_buf *out, dl_error *err) {
    dl_sql_result *r = NULL;
    DL_TRY(dl_sql_exec(s, sql, strlen(sql), &r, err));
    dl_status st = DL_OK;
    for (;;) {
        const dl_batch *b = NULL;
        st = dl_sql_result_next(r, &b, err);
        if (st != DL_OK || b == NULL) {
            break;
        }
        for (int64_t k = 0; k < b->count && st == DL_OK; k++) {
            for (int32_t c = 0; c < b->n_cols && st == DL_OK; c++) {
                if (c > 0) {
                    st = dl_buf_append_byte(out, '\t', err);
                }
                if (st == DL_OK) {
                    st = et_value(b, c, k, out, err);
                }
            }
            if (st == DL_OK) {
                st = dl_buf_append_byte(out, '\n', err);
            }
        }
    }
    dl_sql_result_free(r);
    return st;
}

int
et_check(dl_sql_session *s, const char *sql, const char *want) {
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_error err;
    dl_error_clear(&err);
    dl_status st = et_query(s, sql, &out, &err);
    int ok = st == DL_OK && strcmp(dl_buf_cstr(&out), want) == 0;
    if (!ok) {
        printf("  query: %s\n", sql);
        if (st != DL_OK) {
            printf("  failed: %s: %s\n", dl_status_name(st), err.msg);
        } else {
            printf("  got:\n%s  want:\n%s", dl_buf_cstr(&out), want);
        }
    }
    dl_buf_destroy(&out);
    return ok;
}

int
et_check_error(dl_sql_session *s, const char *sql, dl_status code, const char *needle) {
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_error err;
    dl_error_clear(&err);
    dl_status st = et_query(s, sql, &out, &err);
    int ok = st == code && strstr(err.msg, needle) != NULL;
    if (!ok) {
        printf("  query: %s\n  got %s: %s\n  want %s containing '%s'\n", sql, dl_status_name(st),
               st == DL_OK ? dl_buf_cstr(&out) : err.msg, dl_status_name(code), needle);
    }
    dl_buf_destroy(&out);
    return ok;
}
