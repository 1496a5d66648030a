/* SPDX-License-Identifier: Apache-2.0 */
/*
 * When min/max statistics may be trusted (parquet.thrift, Statistics and ColumnOrder).
 *
 * Statistics carry two pairs of bounds. The deprecated `min`/`max` were defined as computed by
 * *signed* comparison: right for signed integers, floats and decimals stored as integers, but
 * for byte arrays parquet-mr compared Java's signed bytes, which is neither the byte-wise
 * unsigned order of strings nor the numeric order of big-endian decimals, and for unsigned
 * integers it compared them as signed (PARQUET-686). parquet-mr before 1.8.0 also corrupted
 * byte-array statistics outright (PARQUET-251). `min_value`/`max_value` (PARQUET-1025) follow
 * the column's ColumnOrder: TYPE_ORDER is the order of the logical type (signed, unsigned or
 * undefined, see dl_pq_leaf_sort_order); IEEE_754_TOTAL_ORDER applies to floating point;
 * INT96_TIMESTAMP_ORDER to INT96. Files without column_orders are read as TYPE_ORDER, as
 * Arrow, DuckDB and parquet-rs read them.
 *
 * Floating-point bounds written with TYPE_ORDER may be NaN in old files; a NaN bound says
 * nothing and is dropped. Bounds of fixed-size types must have that size; a bound of another
 * size is dropped rather than trusted.
 *
 * The writer's version (created_by) is parsed here too, since the statistics rules are the
 * first to need it.
 */
#include <math.h>
#include <string.h>

#include "parquet/parquet_int.h"

/* ---- created_by ------------------------------------------------------------------------ */

static bool
is_space(char c) {
    return c == ' ' || c == '\t';
}

static bool
is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* Parses up to three dot-separated numbers from s at *at. */
static bool
parse_version_numbers(dl_str s, size_t at, int32_t out[3]) {
    if (at < s.len && (s.ptr[at] == 'v' || s.ptr[at] == 'V')) {
        at++;
    }
    for (int part = 0; part < 3; part++) {
        if (at >= s.len || !is_digit(s.ptr[at])) {
            return part > 0;
        }
        int64_t v = 0;
        while (at < s.len && is_digit(s.ptr[at])) {
            v = v * 10 + (s.ptr[at++] - '0');
            if (v > INT32_MAX) {
                return false;
            }
        }
        out[part] = (int32_t)v;
        if (at >= s.len || s.ptr[at] != '.') {
            return true;
        }
        at++;
    }
    return true;
}

dl_pq_writer_version
dl_pq_writer_version_parse(dl_str created_by) {
    dl_pq_writer_version w;
    memset(&w, 0, sizeof(w));
    dl_str s = dl_str_trim(created_by);
    static const char key[] = " version";
    size_t key_len = sizeof(key) - 1;
    size_t at = s.len;
    for (size_t i = 0; i + key_len <= s.len; i++) {
        if (memcmp(s.ptr + i, key, key_len) == 0) {
            at = i;
            break;
        }
    }
    w.app = dl_str_trim(dl_str_make(s.ptr, at));
    if (at == s.len) {
        return w;
    }
    size_t v = at + key_len;
    while (v < s.len && is_space(s.ptr[v])) {
        v++;
    }
    int32_t parts[3] = {0, 0, 0};
    if (parse_version_numbers(s, v, parts)) {
        w.major = parts[0];
        w.minor = parts[1];
        w.patch = parts[2];
        w.has_version = true;
    }
    return w;
}

bool
dl_pq_writer_version_lt(const dl_pq_writer_version *w, const char *app, int32_t major,
                        int32_t minor, int32_t patch) {
    if (w == NULL || !w->has_version || !dl_str_eq_nocase(w->app, dl_str_from_cstr(app))) {
        return false;
    }
    if (w->major != major) {
        return w->major < major;
    }
    if (w->minor != minor) {
        return w->minor < minor;
    }
    return w->patch < patch;
}

/* ---- Sort orders ----------------------------------------------------------------------- */

dl_pq_sort_order
dl_pq_leaf_sort_order(const dl_pq_schema_node *leaf) {
    if (leaf->has_unknown_logical) {
        return DL_PQ_SORT_UNKNOWN;
    }
    switch (leaf->logical.kind) {
    case DL_PQ_LT_STRING:
    case DL_PQ_LT_ENUM:
    case DL_PQ_LT_JSON:
    case DL_PQ_LT_BSON:
    case DL_PQ_LT_UUID:
        return DL_PQ_SORT_UNSIGNED;
    case DL_PQ_LT_DECIMAL:
    case DL_PQ_LT_DATE:
    case DL_PQ_LT_TIME:
    case DL_PQ_LT_TIMESTAMP:
    case DL_PQ_LT_FLOAT16:
        return DL_PQ_SORT_SIGNED;
    case DL_PQ_LT_INTEGER:
        return leaf->logical.integer.is_signed ? DL_PQ_SORT_SIGNED : DL_PQ_SORT_UNSIGNED;
    case DL_PQ_LT_NONE:
        break;
    default: /* MAP, LIST, UNKNOWN (null), VARIANT, GEOMETRY, GEOGRAPHY */
        return DL_PQ_SORT_UNKNOWN;
    }
    const dl_pq_schema_element *e = leaf->element;
    if (e != NULL && e->has_converted_type && e->converted_type == DL_PQ_CT_INTERVAL) {
        return DL_PQ_SORT_UNKNOWN;
    }
    switch (leaf->type) {
    case DL_PQ_TYPE_BOOLEAN:
    case DL_PQ_TYPE_BYTE_ARRAY:
    case DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY:
        return DL_PQ_SORT_UNSIGNED;
    case DL_PQ_TYPE_INT32:
    case DL_PQ_TYPE_INT64:
    case DL_PQ_TYPE_FLOAT:
    case DL_PQ_TYPE_DOUBLE:
        return DL_PQ_SORT_SIGNED;
    default: /* INT96: chronological order only under INT96_TIMESTAMP_ORDER; not used */
        return DL_PQ_SORT_UNKNOWN;
    }
}

/* ---- Usability ------------------------------------------------------------------------- */

static bool
is_byte_array(const dl_pq_schema_node *leaf) {
    return leaf->type == DL_PQ_TYPE_BYTE_ARRAY || leaf->type == DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY;
}

static bool
is_float16(const dl_pq_schema_node *leaf) {
    return leaf->logical.kind == DL_PQ_LT_FLOAT16;
}

static bool
is_floating(const dl_pq_schema_node *leaf) {
    return leaf->type == DL_PQ_TYPE_FLOAT || leaf->type == DL_PQ_TYPE_DOUBLE || is_float16(leaf);
}

/* The byte size every value of the leaf has, or 0 when values vary in size. */
static size_t
fixed_size(const dl_pq_schema_node *leaf) {
    switch (leaf->type) {
    case DL_PQ_TYPE_BOOLEAN:
        return 1;
    case DL_PQ_TYPE_INT32:
    case DL_PQ_TYPE_FLOAT:
        return 4;
    case DL_PQ_TYPE_INT64:
    case DL_PQ_TYPE_DOUBLE:
        return 8;
    case DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY:
        return leaf->type_length > 0 ? (size_t)leaf->type_length : 0;
    default:
        return 0;
    }
}

static bool
is_nan_bound(const dl_pq_schema_node *leaf, dl_str b) {
    if (leaf->type == DL_PQ_TYPE_FLOAT && b.len == 4) {
        float f = 0;
        memcpy(&f, b.ptr, sizeof(f));
        return isnan(f);
    }
    if (leaf->type == DL_PQ_TYPE_DOUBLE && b.len == 8) {
        double d = 0;
        memcpy(&d, b.ptr, sizeof(d));
        return isnan(d);
    }
    if (is_float16(leaf) && b.len == 2) {
        uint16_t h = (uint16_t)((uint8_t)b.ptr[0] | ((uint8_t)b.ptr[1] << 8));
        return (h & 0x7c00) == 0x7c00 && (h & 0x03ff) != 0;
    }
    return false;
}

/* Keeps a bound only when it has the type's size and, for floats, is not NaN. */
static bool
bound_ok(const dl_pq_schema_node *leaf, dl_str b) {
    size_t size = fixed_size(leaf);
    if (size != 0 && b.len != size) {
        return false;
    }
    return !(is_floating(leaf) && is_nan_bound(leaf, b));
}

static bool
column_order_ok(const dl_pq_schema_node *leaf, const char **why) {
    switch (leaf->column_order) {
    case DL_PQ_ORDER_UNDEFINED:
    case DL_PQ_ORDER_TYPE_DEFINED:
        return true;
    case DL_PQ_ORDER_IEEE_754_TOTAL:
        if (is_floating(leaf)) {
            return true;
        }
        *why = "IEEE_754_TOTAL_ORDER on a column that is not floating point";
        return false;
    case DL_PQ_ORDER_INT96_TIMESTAMP:
        *why = "INT96_TIMESTAMP_ORDER on a column that is not INT96";
        return false;
    default:
        *why = "the column order is one this version does not know";
        return false;
    }
}

static bool
deprecated_ok(const dl_pq_schema_node *leaf, const dl_pq_writer_version *writer,
              const dl_pq_statistics *st, dl_pq_sort_order order, const char **why) {
    bool is_equal = st->has_min && st->has_max && dl_str_eq(st->min, st->max);
    if (is_byte_array(leaf)) {
        if (writer == NULL || writer->app.len == 0 ||
            dl_pq_writer_version_lt(writer, "parquet-mr", 1, 8, 0)) {
            *why = "deprecated byte-array min/max from an unknown writer or parquet-mr < 1.8.0 "
                   "(PARQUET-251)";
            return false;
        }
        if (!is_equal) {
            *why = "deprecated min/max of a byte array were compared as signed bytes "
                   "(PARQUET-686)";
            return false;
        }
        return true;
    }
    if (order != DL_PQ_SORT_SIGNED && !is_equal) {
        *why = "deprecated min/max were compared as signed, the column's order is not";
        return false;
    }
    return true;
}

bool
dl_pq_stats_usable(const dl_pq_schema_node *leaf, const dl_pq_writer_version *writer,
                   const dl_pq_statistics *stats, dl_pq_stats_bounds *out) {
    memset(out, 0, sizeof(*out));
    out->order = dl_pq_leaf_sort_order(leaf);
    const char *why = NULL;
    dl_str min = {0};
    dl_str max = {0};
    bool has_min = false;
    bool has_max = false;
    if (stats == NULL ||
        (!stats->has_min_value && !stats->has_max_value && !stats->has_min && !stats->has_max)) {
        why = "no min/max statistics";
    } else if (out->order == DL_PQ_SORT_UNKNOWN) {
        why = "the column's type has no defined sort order";
    } else if (stats->has_min_value || stats->has_max_value) {
        if (column_order_ok(leaf, &why)) {
            min = stats->min_value;
            max = stats->max_value;
            has_min = stats->has_min_value;
            has_max = stats->has_max_value;
            out->is_min_exact = stats->has_is_min_value_exact && stats->is_min_value_exact;
            out->is_max_exact = stats->has_is_max_value_exact && stats->is_max_value_exact;
        }
    } else if (deprecated_ok(leaf, writer, stats, out->order, &why)) {
        min = stats->min;
        max = stats->max;
        has_min = stats->has_min;
        has_max = stats->has_max;
        out->is_from_deprecated = true;
    }
    if (has_min && bound_ok(leaf, min)) {
        out->min = min;
        out->has_min = true;
    }
    if (has_max && bound_ok(leaf, max)) {
        out->max = max;
        out->has_max = true;
    }
    if (!out->has_min) {
        out->is_min_exact = false;
    }
    if (!out->has_max) {
        out->is_max_exact = false;
    }
    if (!out->has_min && !out->has_max) {
        out->why_not = why != NULL ? why : "bounds are NaN or of the wrong size";
        return false;
    }
    return true;
}
