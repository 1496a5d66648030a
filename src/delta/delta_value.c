/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Typed values from the log: partition values and per-file statistics (PROTOCOL.md,
 * "Partition Value Serialization" and "Per-file Statistics").
 *
 * Partition values are strings in add.partitionValues: numbers in decimal notation, dates
 * `yyyy-MM-dd`, timestamps `yyyy-MM-dd HH:mm:ss[.ffffff]` (legacy: the writer's zone, read here
 * as UTC like the kernels do) or ISO-8601 in UTC with a zone, booleans `true`/`false`, binary
 * as the string's bytes. A JSON null or an empty string is a null value; Hive's
 * `__HIVE_DEFAULT_PARTITION__` (directory names, and some old writers' log values) is too.
 *
 * Statistics are a JSON object {"numRecords":n,"minValues":{...},"maxValues":{...},
 * "nullCount":{...},"tightBounds":b} whose inner objects mirror the physical schema. Numbers are
 * JSON numbers (decimals read exactly from their text), dates and timestamps strings
 * (timestamps truncated to milliseconds by Spark, with any zone offset), strings possibly
 * truncated prefixes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "delta/delta_int.h"

/* ---- decimals ------------------------------------------------------------------------ */

#define MAX_DECIMAL_DIGITS 38

static dl_u128
pow10_u128(int n) {
    dl_u128 p = 1;
    for (int i = 0; i < n; i++) {
        p *= 10;
    }
    return p;
}

/* Splits "[+-]digits[.digits][(e|E)[+-]digits]" into a mantissa (leading zeros dropped, at
 * most 38 significant digits), the count of fraction digits and the exponent. */
typedef struct dec_parts {
    bool is_negative;
    dl_u128 mantissa;
    int n_digits; /* significant digits in mantissa */
    int n_frac;   /* digits after the point */
    int64_t exp;
} dec_parts;

static bool
read_exponent(dl_str t, size_t i, int64_t *out) {
    bool neg = false;
    if (i < t.len && (t.ptr[i] == '+' || t.ptr[i] == '-')) {
        neg = t.ptr[i] == '-';
        i++;
    }
    size_t start = i;
    int64_t e = 0;
    while (i < t.len && t.ptr[i] >= '0' && t.ptr[i] <= '9') {
        if (e < 100000) {
            e = e * 10 + (t.ptr[i] - '0');
        }
        i++;
    }
    *out = neg ? -e : e;
    return i > start && i == t.len;
}

static bool
split_decimal(dl_str t, dec_parts *p) {
    memset(p, 0, sizeof(*p));
    size_t i = 0;
    if (i < t.len && (t.ptr[i] == '+' || t.ptr[i] == '-')) {
        p->is_negative = t.ptr[i] == '-';
        i++;
    }
    bool seen_digit = false;
    bool seen_point = false;
    for (; i < t.len; i++) {
        char c = t.ptr[i];
        if (c == '.' && !seen_point) {
            seen_point = true;
            continue;
        }
        if (c < '0' || c > '9') {
            break;
        }
        seen_digit = true;
        p->n_frac += seen_point ? 1 : 0;
        if (p->n_digits == 0 && c == '0') {
            continue;
        }
        if (p->n_digits == MAX_DECIMAL_DIGITS) {
            return false;
        }
        p->mantissa = p->mantissa * 10 + (dl_u128)(c - '0');
        p->n_digits++;
    }
    if (!seen_digit) {
        return false;
    }
    if (i < t.len) {
        return (t.ptr[i] == 'e' || t.ptr[i] == 'E') && read_exponent(t, i + 1, &p->exp);
    }
    return true;
}

/* Divides *m by 10^n when the digits dropped are all zeros; false otherwise. */
static bool
drop_zero_digits(dl_u128 *m, int64_t n) {
    for (int64_t i = 0; i < n && *m != 0; i++) {
        if (*m % 10 != 0) {
            return false;
        }
        *m /= 10;
    }
    return true;
}

dl_status
dl_delta_decimal_parse(dl_str text, int precision, int scale, dl_i128 *out, dl_error *err) {
    dec_parts p;
    DL_CHECK(split_decimal(text, &p), err, DL_ERR_CORRUPT,
             "\"%.*s\" is not a decimal number (or has more than 38 digits)", DL_STR_FMT(text));
    int64_t shift = (int64_t)scale - p.n_frac + p.exp;
    dl_u128 m = p.mantissa;
    if (shift < 0) {
        DL_CHECK(drop_zero_digits(&m, -shift), err, DL_ERR_CORRUPT,
                 "\"%.*s\" has more fraction digits than decimal(%d,%d) holds", DL_STR_FMT(text),
                 precision, scale);
    } else if (m != 0) {
        DL_CHECK(shift <= MAX_DECIMAL_DIGITS, err, DL_ERR_CORRUPT,
                 "\"%.*s\" does not fit decimal(%d,%d)", DL_STR_FMT(text), precision, scale);
        dl_u128 f = pow10_u128((int)shift);
        DL_CHECK(m <= pow10_u128(MAX_DECIMAL_DIGITS) / f, err, DL_ERR_CORRUPT,
                 "\"%.*s\" does not fit decimal(%d,%d)", DL_STR_FMT(text), precision, scale);
        m *= f;
    }
    DL_CHECK(m < pow10_u128(precision), err, DL_ERR_CORRUPT, "\"%.*s\" does not fit decimal(%d,%d)",
             DL_STR_FMT(text), precision, scale);
    *out = p.is_negative ? -(dl_i128)m : (dl_i128)m;
    return DL_OK;
}

/* ---- scalars from text --------------------------------------------------------------- */

static dl_status
parse_int_range(dl_str text, int64_t lo, int64_t hi, int64_t *out, dl_error *err) {
    size_t i = 0;
    bool neg = false;
    if (i < text.len && (text.ptr[i] == '-' || text.ptr[i] == '+')) {
        neg = text.ptr[i] == '-';
        i++;
    }
    DL_CHECK(i < text.len, err, DL_ERR_CORRUPT, "\"%.*s\" is not an integer", DL_STR_FMT(text));
    int64_t v = 0;
    for (; i < text.len; i++) {
        char c = text.ptr[i];
        DL_CHECK(c >= '0' && c <= '9', err, DL_ERR_CORRUPT, "\"%.*s\" is not an integer",
                 DL_STR_FMT(text));
        bool overflow = DL_MUL_OVERFLOW(v, 10, &v) ||
                        (neg ? DL_SUB_OVERFLOW(v, c - '0', &v) : DL_ADD_OVERFLOW(v, c - '0', &v));
        DL_CHECK(!overflow, err, DL_ERR_CORRUPT, "\"%.*s\" is out of range", DL_STR_FMT(text));
    }
    DL_CHECK(v >= lo && v <= hi, err, DL_ERR_CORRUPT, "\"%.*s\" is out of range", DL_STR_FMT(text));
    *out = v;
    return DL_OK;
}

static dl_status
parse_double(dl_str text, double *out, dl_error *err) {
    char buf[64];
    DL_CHECK(text.len > 0 && text.len < sizeof(buf), err, DL_ERR_CORRUPT,
             "\"%.*s\" is not a number", DL_STR_FMT(text));
    memcpy(buf, text.ptr, text.len);
    buf[text.len] = '\0';
    if (strcmp(buf, "Infinity") == 0 || strcmp(buf, "-Infinity") == 0) {
        *out = buf[0] == '-' ? -HUGE_VAL : HUGE_VAL;
        return DL_OK;
    }
    char *end = NULL;
    errno = 0;
    double d = strtod(buf, &end);
    DL_CHECK(end == buf + text.len && text.ptr[0] != ' ', err, DL_ERR_CORRUPT,
             "\"%.*s\" is not a number", DL_STR_FMT(text));
    *out = d;
    return DL_OK;
}

/* Runs a base/ time parser and turns its INVALID_ARG into CORRUPT. */
static dl_status
as_corrupt(dl_status st, dl_error *err) {
    if (st == DL_ERR_INVALID_ARG && err) {
        err->code = DL_ERR_CORRUPT;
        return DL_ERR_CORRUPT;
    }
    return st;
}

static dl_status
parse_typed_text(dl_str text, const dl_type *type, dl_delta_value *out, dl_error *err) {
    switch (type->id) {
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY:
        out->u.str = text;
        return DL_OK;
    case DL_VEC_TYPE_BOOLEAN:
        DL_CHECK(dl_delta_str_eq_nocase_cstr(text, "true") ||
                     dl_delta_str_eq_nocase_cstr(text, "false"),
                 err, DL_ERR_CORRUPT, "\"%.*s\" is not a boolean", DL_STR_FMT(text));
        out->u.b = dl_delta_str_eq_nocase_cstr(text, "true");
        return DL_OK;
    case DL_VEC_TYPE_BYTE:
        return parse_int_range(text, INT8_MIN, INT8_MAX, &out->u.i64, err);
    case DL_VEC_TYPE_SHORT:
        return parse_int_range(text, INT16_MIN, INT16_MAX, &out->u.i64, err);
    case DL_VEC_TYPE_INT:
        return parse_int_range(text, INT32_MIN, INT32_MAX, &out->u.i64, err);
    case DL_VEC_TYPE_LONG:
        return parse_int_range(text, INT64_MIN, INT64_MAX, &out->u.i64, err);
    case DL_VEC_TYPE_FLOAT:
    case DL_VEC_TYPE_DOUBLE:
        return parse_double(text, &out->u.f64, err);
    case DL_VEC_TYPE_DECIMAL:
        return dl_delta_decimal_parse(text, type->precision, type->scale, &out->u.dec, err);
    case DL_VEC_TYPE_DATE: {
        int32_t days;
        DL_TRY(as_corrupt(dl_date_parse(text, &days, err), err));
        out->u.i64 = days;
        return DL_OK;
    }
    case DL_VEC_TYPE_TIMESTAMP:
        return as_corrupt(dl_ts_parse(text, 0, &out->u.i64, err), err);
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        return as_corrupt(dl_ts_ntz_parse(text, true, &out->u.i64, err), err);
    case DL_VEC_TYPE_NULL:
        out->is_null = true;
        return DL_OK;
    default:
        DL_FAIL(err, DL_ERR_UNSUPPORTED, "a %s column cannot be a partition column",
                dl_vec_type_name(type->id));
    }
}

dl_status
dl_delta_partition_value_parse(dl_str text, bool is_null, const dl_type *type, dl_delta_value *out,
                               dl_error *err) {
    memset(out, 0, sizeof(*out));
    out->type_id = type->id;
    if (is_null || text.len == 0 || dl_str_eq_cstr(text, "__HIVE_DEFAULT_PARTITION__")) {
        out->is_null = true;
        return DL_OK;
    }
    dl_buf name;
    dl_status st = parse_typed_text(text, type, out, err);
    if (st != DL_OK && st != DL_ERR_NOMEM) {
        dl_buf_init(&name, NULL);
        if (dl_delta_type_to_string(type, &name, NULL) == DL_OK) {
            dl_error_prefix(err, "partition value \"%.*s\" of type %s", DL_STR_FMT(text),
                            dl_buf_cstr(&name));
        }
        dl_buf_destroy(&name);
    }
    return st;
}

/* ---- statistics ---------------------------------------------------------------------- */

dl_status
dl_delta_stats_parse(dl_str json, dl_json_doc *doc, dl_delta_stats *out, dl_error *err) {
    memset(out, 0, sizeof(*out));
    out->tight_bounds = true;
    DL_TRY_CTX(dl_json_doc_parse(doc, json.ptr, json.len, err), err, "stats");
    dl_json_val root = dl_json_doc_root(doc);
    DL_CHECK(dl_json_val_type(root) == DL_JSON_OBJECT, err, DL_ERR_CORRUPT,
             "stats: a %s, not an object", dl_json_type_name(dl_json_val_type(root)));
    dl_json_val n = dl_json_obj_get(root, "numRecords");
    if (!dl_json_val_is_missing(n) && !dl_json_val_is_null(n)) {
        DL_TRY_CTX(dl_json_val_get_int64(n, &out->num_records, err), err, "stats: numRecords");
        DL_CHECK(out->num_records >= 0, err, DL_ERR_CORRUPT, "stats: numRecords %lld is negative",
                 (long long)out->num_records);
        out->has_num_records = true;
    }
    dl_json_val tb = dl_json_obj_get(root, "tightBounds");
    if (dl_json_val_type(tb) == DL_JSON_BOOL) {
        DL_TRY(dl_json_val_get_bool(tb, &out->tight_bounds, err));
    }
    out->min_values = dl_json_obj_get(root, "minValues");
    out->max_values = dl_json_obj_get(root, "maxValues");
    out->null_count = dl_json_obj_get(root, "nullCount");
    return DL_OK;
}

static dl_status
stat_from_json(dl_json_val v, dl_delta_stat_kind kind, const dl_type *type, dl_delta_value *out,
               dl_error *err) {
    switch (type->id) {
    case DL_VEC_TYPE_BYTE:
    case DL_VEC_TYPE_SHORT:
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_LONG:
        return dl_json_val_get_int64(v, &out->u.i64, err);
    case DL_VEC_TYPE_FLOAT:
    case DL_VEC_TYPE_DOUBLE:
        return dl_json_val_get_double(v, &out->u.f64, err);
    case DL_VEC_TYPE_DECIMAL:
        DL_CHECK(dl_json_val_type(v) == DL_JSON_NUMBER, err, DL_ERR_CORRUPT,
                 "expected a number, found a %s", dl_json_type_name(dl_json_val_type(v)));
        return dl_delta_decimal_parse(dl_json_val_raw(v), type->precision, type->scale, &out->u.dec,
                                      err);
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY:
        return dl_json_val_get_str(v, &out->u.str, err);
    case DL_VEC_TYPE_BOOLEAN:
        return dl_json_val_get_bool(v, &out->u.b, err);
    default:
        break;
    }
    dl_str text;
    DL_TRY(dl_json_val_get_str(v, &text, err));
    if (type->id == DL_VEC_TYPE_TIMESTAMP || type->id == DL_VEC_TYPE_TIMESTAMP_NTZ) {
        DL_TRY(parse_typed_text(text, type, out, err));
        if (kind == DL_DELTA_STAT_MAX && out->u.i64 <= INT64_MAX - 999) {
            out->u.i64 += 999;
        }
        return DL_OK;
    }
    DL_CHECK(type->id == DL_VEC_TYPE_DATE, err, DL_ERR_UNSUPPORTED,
             "no min/max statistics for %s columns", dl_vec_type_name(type->id));
    return parse_typed_text(text, type, out, err);
}

dl_status
dl_delta_stats_get(const dl_delta_stats *stats, dl_delta_stat_kind kind, const char *const *path,
                   size_t n_path, const dl_type *type, dl_delta_value *out, bool *out_found,
                   dl_error *err) {
    memset(out, 0, sizeof(*out));
    *out_found = false;
    dl_json_val v = kind == DL_DELTA_STAT_MIN   ? stats->min_values
                    : kind == DL_DELTA_STAT_MAX ? stats->max_values
                                                : stats->null_count;
    for (size_t i = 0; i < n_path && !dl_json_val_is_missing(v); i++) {
        v = dl_json_obj_get(v, path[i]);
    }
    if (dl_json_val_is_missing(v) || n_path == 0) {
        return DL_OK;
    }
    *out_found = true;
    out->type_id = kind == DL_DELTA_STAT_NULL_COUNT ? DL_VEC_TYPE_LONG : type->id;
    if (dl_json_val_is_null(v)) {
        out->is_null = true;
        return DL_OK;
    }
    dl_status st = kind == DL_DELTA_STAT_NULL_COUNT ? dl_json_val_get_int64(v, &out->u.i64, err)
                                                    : stat_from_json(v, kind, type, out, err);
    if (st != DL_OK) {
        if (err && st == DL_ERR_INVALID_ARG) {
            err->code = st = DL_ERR_CORRUPT;
        }
        dl_error_prefix(err, "stats: %s of column '%s'",
                        kind == DL_DELTA_STAT_MIN   ? "minValues"
                        : kind == DL_DELTA_STAT_MAX ? "maxValues"
                                                    : "nullCount",
                        path[n_path - 1]);
    }
    return st;
}

bool
dl_delta_stats_type_has_bounds(const dl_type *t) {
    switch (t->id) {
    case DL_VEC_TYPE_BYTE:
    case DL_VEC_TYPE_SHORT:
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_LONG:
    case DL_VEC_TYPE_FLOAT:
    case DL_VEC_TYPE_DOUBLE:
    case DL_VEC_TYPE_DECIMAL:
    case DL_VEC_TYPE_DATE:
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
    case DL_VEC_TYPE_STRING:
        return true;
    default:
        return false;
    }
}
