/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Casts among date, timestamp and timestamp_ntz, in the session time zone:
 *
 *   date -> timestamp          midnight of the date in the session zone
 *   date -> timestamp_ntz      midnight, no zone
 *   timestamp -> date          the date of the instant in the session zone
 *   timestamp_ntz -> date      the date of the wall-clock time
 *   timestamp -> timestamp_ntz the session zone's wall-clock time of the instant
 *   timestamp_ntz -> timestamp the instant of the wall-clock time in the session zone
 *
 * Values outside the timestamp range (dates beyond year 294247) are NULL, or an error in ANSI
 * mode.
 */
#include <stdio.h>

#include "sql/func/sql_fn_int.h"

static dl_status
overflow(const dl_sql_fn_env *env, dl_sql_cast_mode mode, const dl_vector *src, dl_vector *out,
         int64_t row, int64_t v, dl_error *err) {
    char text[32];
    int n = snprintf(text, sizeof(text), "%lld", (long long)v);
    return dl_sql_cast_bad_value(env, mode, "CAST_OVERFLOW",
                                 dl_str_make(text, (size_t)DL_MAX(n, 0)), src->type, out->type, out,
                                 row, err);
}

/* Microseconds of local midnight of days, as wall-clock (false beyond the range). */
static bool
midnight(int32_t days, int64_t *out) {
    return !DL_MUL_OVERFLOW((int64_t)days, DL_MICROS_PER_DAY, out);
}

static dl_status
from_date(const dl_sql_fn_env *env, const dl_sql_tz *tz, dl_sql_cast_mode mode,
          const dl_vector *src, const dl_vec_unified *u, int64_t count, dl_vector *out,
          int64_t base, dl_error *err) {
    int64_t *data = out->data;
    bool is_ntz = out->type->id == DL_VEC_TYPE_TIMESTAMP_NTZ;
    for (int64_t i = 0; i < count; i++) {
        int64_t local = 0;
        if (dl_sql_u_null(u, i)) {
            data[base + i] = 0;
            continue;
        }
        int32_t days = DL_SQL_U(u, int32_t, i);
        if (!midnight(days, &local)) {
            DL_TRY(overflow(env, mode, src, out, base + i, days, err));
            data[base + i] = 0;
            continue;
        }
        data[base + i] = is_ntz ? local : dl_sql_tz_to_utc(tz, local);
    }
    return DL_OK;
}

static dl_status
from_timestamp(const dl_sql_tz *tz, const dl_vector *src, const dl_vec_unified *u, int64_t count,
               dl_vector *out, int64_t base) {
    bool is_ntz = src->type->id == DL_VEC_TYPE_TIMESTAMP_NTZ;
    dl_type_id to = out->type->id;
    for (int64_t i = 0; i < count; i++) {
        int64_t v = dl_sql_u_null(u, i) ? 0 : DL_SQL_U(u, int64_t, i);
        int64_t local = v;
        if (!is_ntz) {
            int64_t off = (int64_t)dl_sql_tz_offset_utc(tz, v) * DL_MICROS_PER_SECOND;
            if (DL_ADD_OVERFLOW(v, off, &local)) {
                local = v;
            }
        }
        if (to == DL_VEC_TYPE_DATE) {
            ((int32_t *)out->data)[base + i] = dl_ts_to_date(local);
        } else if (to == DL_VEC_TYPE_TIMESTAMP_NTZ) {
            ((int64_t *)out->data)[base + i] = local;
        } else {
            ((int64_t *)out->data)[base + i] = is_ntz ? dl_sql_tz_to_utc(tz, v) : v;
        }
    }
    return DL_OK;
}

dl_status
dl_sql_cast_datetime(const dl_sql_fn_env *env, dl_sql_cast_mode mode, const dl_vector *src,
                     int64_t count, dl_vector *out, dl_error *err) {
    const dl_sql_tz *tz;
    DL_TRY(dl_sql_tz_env(env, &tz, err));
    int64_t base = out->length;
    DL_TRY(dl_sql_out_reserve(out, count, err));
    dl_vec_unified u;
    dl_vec_unify(src, count, &u);
    DL_TRY(dl_sql_out_nulls(out, base, &u, 1, count, err));
    if (src->type->id == DL_VEC_TYPE_DATE) {
        DL_TRY(from_date(env, tz, mode, src, &u, count, out, base, err));
    } else {
        DL_TRY(from_timestamp(tz, src, &u, count, out, base));
    }
    dl_vec_set_length(out, base + count);
    return DL_OK;
}
