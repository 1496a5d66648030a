/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-file statistics as Spark writes them into add.stats (PROTOCOL.md "Per-file
 * Statistics"), from the leaf statistics the Parquet writer collected:
 *
 *   {"numRecords":N,"minValues":{"c":..},"maxValues":{"c":..},"nullCount":{"c":..}}
 *
 * Keys are the column names of the top-level, non-nested columns of the file, the first
 * DL_OPS_STATS_COLUMNS of them. minValues/maxValues hold numbers (decimals as plain numbers),
 * dates as "yyyy-MM-dd", timestamps as "yyyy-MM-ddTHH:mm:ss.SSSZ" (both cut down to the
 * millisecond, as Spark writes them: readers, ours included, widen a timestamp max by 999
 * microseconds; rounding the max up instead wrote 9999-12-31 23:59:59.999999 as
 * +10000-01-01, a year Spark cannot parse), strings cut to DL_OPS_STATS_PREFIX code
 * points (a cut max ends in U+10FFFF, above every character, so it is still a bound);
 * booleans and binary get only a null count, as in Spark.
 */
#include <math.h>
#include <string.h>

#include "base/timefmt.h"
#include "json/json.h"
#include "ops/ops_int.h"

/* Bytes of the first n code points of s (all of s when shorter). */
static size_t
prefix_bytes(dl_str s, size_t n, bool *out_is_cut) {
    size_t i = 0;
    size_t cps = 0;
    while (i < s.len && cps < n) {
        i++;
        while (i < s.len && ((unsigned char)s.ptr[i] & 0xC0) == 0x80) {
            i++;
        }
        cps++;
    }
    *out_is_cut = i < s.len;
    return i;
}

static dl_status
write_ts(dl_json_writer *jw, const dl_pq_leaf_stats *leaf, int64_t us, dl_error *err) {
    char text[64];
    us -= dl_floor_mod(us, 1000);
    dl_ts_style style = leaf->type->id == DL_VEC_TYPE_TIMESTAMP ? DL_TS_STYLE_ISO_MILLIS
                                                                : DL_TS_STYLE_ISO_MILLIS_NTZ;
    return dl_json_writer_string(jw, dl_str_make(text, dl_ts_format(us, style, text)), err);
}

static dl_status
write_str(dl_json_writer *jw, dl_buf *scratch, const dl_pq_leaf_stats *leaf, dl_str v, bool is_max,
          dl_error *err) {
    bool is_cut = false;
    size_t n = prefix_bytes(v, DL_OPS_STATS_PREFIX, &is_cut);
    dl_buf_reset(scratch);
    DL_TRY(dl_buf_append(scratch, v.ptr, n, err));
    if (is_max && (is_cut || !leaf->is_max_exact)) {
        DL_TRY(dl_buf_append_cstr(scratch, "\xF4\x8F\xBF\xBF", err));
    }
    return dl_json_writer_string(jw, dl_buf_view(scratch), err);
}

static dl_status
write_bound(dl_json_writer *jw, dl_buf *scratch, const dl_pq_leaf_stats *leaf, bool is_max,
            dl_error *err) {
    const dl_pq_stat_value *v = is_max ? &leaf->max : &leaf->min;
    char text[64];
    switch (leaf->type->id) {
    case DL_VEC_TYPE_FLOAT:
    case DL_VEC_TYPE_DOUBLE:
        return dl_json_writer_double(jw, v->f64, err);
    case DL_VEC_TYPE_DECIMAL:
        dl_buf_reset(scratch);
        DL_TRY(dl_ops_decimal_text(v->i128, leaf->type->scale, scratch, err));
        return dl_json_writer_raw(jw, dl_buf_view(scratch), err);
    case DL_VEC_TYPE_DATE:
        return dl_json_writer_string(jw, dl_str_make(text, dl_date_format((int32_t)v->i64, text)),
                                     err);
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        return write_ts(jw, leaf, v->i64, err);
    case DL_VEC_TYPE_STRING:
        return write_str(jw, scratch, leaf, v->bytes, is_max, err);
    default:
        return dl_json_writer_int64(jw, v->i64, err);
    }
}

/* A bound JSON can hold: finite numbers (Spark leaves out infinities too), valid UTF-8. A
 * FLOAT/DOUBLE column holding NaN gets no max: Parquet's bounds leave NaN out, but Spark
 * orders NaN above every number and writes "NaN" as the max, so a max of the other values
 * would let Spark's data skipping drop the NaN rows (`x > 5`, `x = 'NaN'`); without a max,
 * no reader skips on it. */
static bool
is_writable_bound(const dl_pq_leaf_stats *leaf, bool is_max) {
    if (!dl_delta_stats_type_has_bounds(leaf->type)) {
        return false;
    }
    const dl_pq_stat_value *v = is_max ? &leaf->max : &leaf->min;
    dl_type_id id = leaf->type->id;
    if (id == DL_VEC_TYPE_FLOAT || id == DL_VEC_TYPE_DOUBLE) {
        return isfinite(v->f64) && !(is_max && leaf->nan_count > 0);
    }
    if (id == DL_VEC_TYPE_STRING) {
        return dl_utf8_valid(v->bytes.ptr, v->bytes.len);
    }
    return true;
}

/* The leaves that get statistics: top level, not nested, first DL_OPS_STATS_COLUMNS. */
static bool
is_stats_leaf(const dl_pq_leaf_stats *leaf) {
    return leaf->n_field_path == 1 && !leaf->is_repeated && !dl_vec_type_is_nested(leaf->type);
}

static dl_status
write_section(dl_json_writer *jw, dl_buf *scratch, const dl_pq_write_result *res, int section,
              dl_error *err) {
    static const char *const names[] = {"minValues", "maxValues", "nullCount"};
    DL_TRY(dl_json_writer_key_cstr(jw, names[section], err));
    DL_TRY(dl_json_writer_begin_object(jw, err));
    size_t n_cols = 0;
    for (size_t i = 0; i < res->n_leaves && n_cols < DL_OPS_STATS_COLUMNS; i++) {
        const dl_pq_leaf_stats *leaf = &res->leaves[i];
        if (!is_stats_leaf(leaf)) {
            continue;
        }
        n_cols++;
        if (section == 2) {
            DL_TRY(dl_json_writer_key_cstr(jw, leaf->field_path[0], err));
            DL_TRY(dl_json_writer_int64(jw, leaf->null_count, err));
            continue;
        }
        bool has = section == 0 ? leaf->has_min : leaf->has_max;
        if (!has || !is_writable_bound(leaf, section == 1)) {
            continue;
        }
        DL_TRY(dl_json_writer_key_cstr(jw, leaf->field_path[0], err));
        DL_TRY(write_bound(jw, scratch, leaf, section == 1, err));
    }
    return dl_json_writer_end_object(jw, err);
}

dl_status
dl_ops_stats_json(const dl_pq_write_result *res, dl_buf *out, dl_error *err) {
    dl_json_writer jw;
    dl_json_writer_init(&jw, out, 0);
    dl_buf scratch;
    dl_buf_init(&scratch, NULL);
    dl_status s = dl_json_writer_begin_object(&jw, err);
    if (s == DL_OK) {
        s = dl_json_writer_key_cstr(&jw, "numRecords", err);
    }
    if (s == DL_OK) {
        s = dl_json_writer_int64(&jw, res->num_rows, err);
    }
    for (int section = 0; section < 3 && s == DL_OK; section++) {
        s = write_section(&jw, &scratch, res, section, err);
    }
    if (s == DL_OK) {
        s = dl_json_writer_end_object(&jw, err);
    }
    dl_buf_destroy(&scratch);
    dl_json_writer_destroy(&jw);
    return s;
}
