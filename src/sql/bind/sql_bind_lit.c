/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Literals, interval literals, parsed types and auto-generated column names (sql_bind_int.h).
 *
 * Literal types follow Spark: an integer literal is INT when it fits 32 bits, else BIGINT, else
 * DECIMAL(digits, 0) up to 38 digits; 10L, 10S, 10Y are BIGINT, SMALLINT, TINYINT; a number
 * with a point is DECIMAL(p, s) with s the digits after the point and p the significant digits
 * (at least s); 1e3 and 1.5D are DOUBLE, 1.5F FLOAT. DATE '...' and TIMESTAMP '...' parse as
 * CAST does, a TIMESTAMP at the session time zone. INTERVAL literals of years and months are
 * INTERVAL YEAR TO MONTH (months), of weeks down to microseconds INTERVAL DAY TO SECOND
 * (microseconds); mixing the two families is refused, as Spark 3's ANSI intervals do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/timefmt.h"
#include "sql/bind/sql_bind_int.h"

/* ---- building constants -------------------------------------------------------------------- */

static dl_status
const_from(dl_sql_binder *b, dl_vector *vec, uint32_t loc, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_bexpr *e = dl_sql_bexpr_const(b->arena, vec, 0);
    dl_vec_unref(vec);
    DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding a literal");
    e->loc = loc;
    *out = e;
    return DL_OK;
}

static dl_status
new_one(dl_sql_binder *b, dl_type_id id, dl_vector **out, dl_error *err) {
    return dl_vec_new(b->exec->alloc, dl_vec_type_prim(id), 1, out, err);
}

/* A literal's value; the member used depends on the type. */
typedef struct lit_value {
    int64_t i;
    double f;
    dl_str s;
    bool b;
} lit_value;

static dl_status
append_value(dl_vector *vec, dl_type_id id, const lit_value *v, dl_error *err) {
    switch (id) {
    case DL_VEC_TYPE_BOOLEAN:
        return dl_vec_append_bool(vec, v->b, err);
    case DL_VEC_TYPE_BYTE:
        return dl_vec_append_i8(vec, (int8_t)v->i, err);
    case DL_VEC_TYPE_SHORT:
        return dl_vec_append_i16(vec, (int16_t)v->i, err);
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_DATE:
    case DL_VEC_TYPE_INTERVAL_YM:
        return dl_vec_append_i32(vec, (int32_t)v->i, err);
    case DL_VEC_TYPE_FLOAT:
        return dl_vec_append_f32(vec, (float)v->f, err);
    case DL_VEC_TYPE_DOUBLE:
        return dl_vec_append_f64(vec, v->f, err);
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY:
        return dl_vec_append_str(vec, v->s.ptr, v->s.len, err);
    default:
        return dl_vec_append_i64(vec, v->i, err);
    }
}

/* A constant of a primitive type. */
static dl_status
make_const(dl_sql_binder *b, dl_type_id id, const lit_value *v, uint32_t loc, dl_sql_bexpr **out,
           dl_error *err) {
    dl_vector *vec = NULL;
    DL_TRY(new_one(b, id, &vec, err));
    dl_status s = append_value(vec, id, v, err);
    if (s != DL_OK) {
        dl_vec_unref(vec);
        return s;
    }
    return const_from(b, vec, loc, out, err);
}

static dl_status
null_literal(dl_sql_binder *b, uint32_t loc, dl_sql_bexpr **out, dl_error *err) {
    dl_vector *vec = NULL;
    DL_TRY(dl_vec_new_const_null(b->exec->alloc, dl_vec_type_prim(DL_VEC_TYPE_NULL), 1, &vec, err));
    return const_from(b, vec, loc, out, err);
}

/* ---- numbers ------------------------------------------------------------------------------- */

/* The digits of text as a number up to 2^63 (the magnitude of INT64_MIN). */
static bool
parse_magnitude(dl_str text, dl_u128 *out) {
    if (text.len == 0 || text.len > 19) {
        return false;
    }
    dl_u128 v = 0;
    for (size_t i = 0; i < text.len; i++) {
        if (text.ptr[i] < '0' || text.ptr[i] > '9') {
            return false;
        }
        v = v * 10 + (dl_u128)(text.ptr[i] - '0');
    }
    *out = v;
    return v <= (dl_u128)INT64_MAX + 1;
}

static bool
parse_i64(dl_str text, int64_t *out) {
    dl_u128 v = 0;
    if (!parse_magnitude(text, &v) || v > (dl_u128)INT64_MAX) {
        return false;
    }
    *out = (int64_t)v;
    return true;
}

/* Precision and scale of a decimal literal "123.45" (digits, optional point). */
static bool
decimal_shape(dl_str t, int *out_p, int *out_s) {
    int int_digits = 0;
    int frac = 0;
    bool seen_point = false;
    bool leading = true;
    for (size_t i = 0; i < t.len; i++) {
        char c = t.ptr[i];
        if (c == '.') {
            if (seen_point) {
                return false;
            }
            seen_point = true;
            continue;
        }
        if (c < '0' || c > '9') {
            return false;
        }
        if (seen_point) {
            frac++;
        } else if (!(leading && c == '0')) {
            leading = false;
            int_digits++;
        }
    }
    *out_s = frac;
    *out_p = DL_MAX(int_digits + frac, 1);
    return true;
}

static dl_status
decimal_literal(dl_sql_binder *b, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    dl_str t = ast->u.lit.text;
    int p = 0, s = 0;
    if (memchr(t.ptr, 'e', t.len) != NULL || memchr(t.ptr, 'E', t.len) != NULL ||
        !decimal_shape(t, &p, &s)) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_UNSUPPORTED, err,
                         "decimal literal '%.*s' with an exponent is not supported", DL_STR_FMT(t));
    }
    if (p > DL_VEC_DECIMAL_MAX_PRECISION) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION] decimal literal "
                         "'%.*s' has %d digits, more than the maximum of 38",
                         DL_STR_FMT(t), p);
    }
    const dl_type *type = NULL;
    DL_TRY(dl_vec_type_decimal(b->arena, p, s, &type, err));
    dl_i128 v;
    DL_TRY(dl_delta_decimal_parse(t, p, s, &v, err));
    dl_vector *vec = NULL;
    DL_TRY(dl_vec_new(b->exec->alloc, type, 1, &vec, err));
    dl_status st = dl_vec_append_i128(vec, v, err);
    if (st != DL_OK) {
        dl_vec_unref(vec);
        return st;
    }
    return const_from(b, vec, ast->loc, out, err);
}

static dl_status
int_literal(dl_sql_binder *b, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    dl_str t = ast->u.lit.text;
    lit_value v = {0};
    bool fits = parse_i64(t, &v.i);
    dl_sql_lit_kind kind = ast->u.lit.kind;
    if (kind == DL_SQL_LIT_INT) {
        if (!fits) {
            return decimal_literal(b, ast, out, err);
        }
        dl_type_id id = v.i <= INT32_MAX ? DL_VEC_TYPE_INT : DL_VEC_TYPE_LONG;
        return make_const(b, id, &v, ast->loc, out, err);
    }
    int64_t max = kind == DL_SQL_LIT_SMALLINT  ? INT16_MAX
                  : kind == DL_SQL_LIT_TINYINT ? INT8_MAX
                                               : INT64_MAX;
    if (!fits || v.i > max) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[INVALID_NUMERIC_LITERAL_RANGE] numeric literal %.*s is outside the "
                         "range of its type",
                         DL_STR_FMT(t));
    }
    dl_type_id id = kind == DL_SQL_LIT_SMALLINT  ? DL_VEC_TYPE_SHORT
                    : kind == DL_SQL_LIT_TINYINT ? DL_VEC_TYPE_BYTE
                                                 : DL_VEC_TYPE_LONG;
    return make_const(b, id, &v, ast->loc, out, err);
}

dl_status
dl_sql_binder_negative_literal(dl_sql_binder *b, const dl_sql_expr *lit, uint32_t loc,
                               dl_sql_bexpr **out, dl_error *err) {
    *out = NULL;
    dl_sql_lit_kind kind = lit->u.lit.kind;
    dl_u128 mag = 0;
    if ((kind != DL_SQL_LIT_INT && kind != DL_SQL_LIT_BIGINT && kind != DL_SQL_LIT_SMALLINT &&
         kind != DL_SQL_LIT_TINYINT) ||
        !parse_magnitude(lit->u.lit.text, &mag)) {
        return DL_OK;
    }
    dl_u128 limit = kind == DL_SQL_LIT_SMALLINT  ? (dl_u128)INT16_MAX + 1
                    : kind == DL_SQL_LIT_TINYINT ? (dl_u128)INT8_MAX + 1
                                                 : (dl_u128)INT64_MAX + 1;
    if (mag > limit) {
        return DL_OK; /* out of range: the literal's own error */
    }
    lit_value v = {.i = mag == (dl_u128)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag};
    dl_type_id id = kind == DL_SQL_LIT_SMALLINT                  ? DL_VEC_TYPE_SHORT
                    : kind == DL_SQL_LIT_TINYINT                 ? DL_VEC_TYPE_BYTE
                    : kind == DL_SQL_LIT_INT && v.i >= INT32_MIN ? DL_VEC_TYPE_INT
                                                                 : DL_VEC_TYPE_LONG;
    return make_const(b, id, &v, loc, out, err);
}

/* A decimal number's text (digits, an optional '.', an optional exponent; a type suffix after
 * it is ignored) as significant digits and the power of ten of the first one: 12.5e3 is
 * "125" and 4. Zero has no digits. False when the text has no digits. An exponent past
 * 10^9 is held at about that (the comparison with a type's range needs no more). */
typedef struct dec_text {
    char digits[64]; /* the first 63 significant digits, then a '1' when any further is not 0 */
    size_t n;
    int64_t exp10;
} dec_text;

static bool
dec_text_parse(dl_str t, dec_text *out) {
    *out = (dec_text){0};
    size_t i = 0;
    int64_t point = 0; /* digits before the point, counting from the first significant one */
    bool seen_point = false, any = false;
    int64_t lead = 0; /* zeros after the point before the first significant digit */
    for (; i < t.len; i++) {
        char c = t.ptr[i];
        if (c == '.' && !seen_point) {
            seen_point = true;
            continue;
        }
        if (c < '0' || c > '9') {
            break;
        }
        any = true;
        if (out->n == 0 && c == '0') {
            lead += seen_point ? 1 : 0;
            continue;
        }
        if (!seen_point) {
            point++;
        }
        if (out->n < sizeof(out->digits) - 1) {
            out->digits[out->n++] = c;
        } else if (c != '0') {
            out->digits[sizeof(out->digits) - 1] = '1';
        }
    }
    int64_t e = 0;
    if (i < t.len && (t.ptr[i] == 'e' || t.ptr[i] == 'E')) {
        i++;
        bool neg = i < t.len && t.ptr[i] == '-';
        i += i < t.len && (t.ptr[i] == '-' || t.ptr[i] == '+') ? 1 : 0;
        for (; i < t.len && t.ptr[i] >= '0' && t.ptr[i] <= '9'; i++) {
            if (e < 100000000) { /* saturates: 1e99999999999 stays far above every bound */
                e = e * 10 + (t.ptr[i] - '0');
            }
        }
        e = neg ? -e : e;
    }
    while (out->n > 0 && out->digits[out->n - 1] == '0') {
        out->n--;
    }
    out->exp10 = (point > 0 ? point - 1 : -lead - 1) + e;
    return any;
}

/* True when the literal's magnitude is above bound's (both decimal texts), compared exactly as
 * Spark compares a literal with its type's range (BigDecimal). */
static bool
dec_text_above(dl_str lit, const char *bound) {
    dec_text a, m;
    if (!dec_text_parse(lit, &a) || a.n == 0 || !dec_text_parse(dl_str_from_cstr(bound), &m)) {
        return false;
    }
    if (a.exp10 != m.exp10) {
        return a.exp10 > m.exp10;
    }
    for (size_t i = 0; i < a.n || i < m.n; i++) {
        int x = i < a.n ? a.digits[i] : '0';
        int y = i < m.n ? m.digits[i] : '0';
        if (x != y) {
            return x > y;
        }
    }
    return false;
}

static dl_status
float_literal(dl_sql_binder *b, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    char buf[128];
    dl_str t = ast->u.lit.text;
    DL_CHECK(t.len < sizeof(buf), err, DL_ERR_SQL_BIND, "numeric literal too long: %.*s",
             DL_STR_FMT(t));
    memcpy(buf, t.ptr, t.len);
    buf[t.len] = '\0';
    errno = 0;
    double d = strtod(buf, NULL);
    bool is_float = ast->u.lit.kind == DL_SQL_LIT_FLOAT;
    /* Spark's range: the largest finite value as a double prints it, compared exactly with
     * the literal (3.4028235E38F is out of range; a value too small is 0). */
    const char *max = is_float ? "3.4028234663852886E38" : "1.7976931348623157E308";
    if (dec_text_above(t, max)) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[INVALID_NUMERIC_LITERAL_RANGE] Numeric literal %.*s is outside the "
                         "valid range for %s with minimum value of -%s and maximum value of %s. "
                         "Please adjust the value accordingly.",
                         DL_STR_FMT(t), is_float ? "float" : "double", max, max);
    }
    lit_value v = {.f = d};
    dl_type_id id = is_float ? DL_VEC_TYPE_FLOAT : DL_VEC_TYPE_DOUBLE;
    return make_const(b, id, &v, ast->loc, out, err);
}

/* ---- dates and timestamps ------------------------------------------------------------------ */

/* TIMESTAMP 'text': the string cast to TIMESTAMP at the session zone (the function library
 * knows time zones). */
static dl_status
timestamp_literal(dl_sql_binder *b, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    lit_value v = {.s = ast->u.lit.text};
    dl_sql_bexpr *lit = NULL;
    DL_TRY(make_const(b, DL_VEC_TYPE_STRING, &v, ast->loc, &lit, err));
    dl_sql_bexpr *cast = dl_sql_bexpr_new(b, DL_SQL_BEXPR_CAST,
                                          dl_vec_type_prim(DL_VEC_TYPE_TIMESTAMP), ast->loc, 1);
    DL_CHECK(cast != NULL, err, DL_ERR_NOMEM, "out of memory binding a literal");
    cast->args[0] = lit;
    cast->cast_mode = DL_SQL_CAST_ANSI;
    dl_vector *value = NULL;
    DL_TRY(dl_sql_binder_eval(b, cast, &value, err));
    return const_from(b, value, ast->loc, out, err);
}

static dl_status
time_literal(dl_sql_binder *b, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    dl_str t = ast->u.lit.text;
    dl_status s;
    lit_value v = {0};
    if (ast->u.lit.kind == DL_SQL_LIT_DATE) {
        int32_t days = 0;
        s = dl_date_parse(t, &days, err);
        v.i = days;
        if (s == DL_OK) {
            return make_const(b, DL_VEC_TYPE_DATE, &v, ast->loc, out, err);
        }
    } else if (ast->u.lit.kind == DL_SQL_LIT_TIMESTAMP_NTZ) {
        s = dl_ts_ntz_parse(t, false, &v.i, err);
        if (s == DL_OK) {
            return make_const(b, DL_VEC_TYPE_TIMESTAMP_NTZ, &v, ast->loc, out, err);
        }
    } else {
        s = timestamp_literal(b, ast, out, err);
        if (s == DL_OK || s == DL_ERR_NOMEM) {
            return s;
        }
    }
    dl_error_prefix(err,
                    "[INVALID_TYPED_LITERAL] the value of the typed literal '%.*s' is not valid",
                    DL_STR_FMT(t));
    dl_sql_binder_locate(b, ast->loc, err);
    if (err != NULL) {
        err->code = DL_ERR_SQL_BIND;
    }
    return DL_ERR_SQL_BIND;
}

/* ---- parameter markers --------------------------------------------------------------------- */

static const dl_vector *
param_value(const dl_sql_params *params, const dl_sql_expr *ast) {
    if (params == NULL) {
        return NULL;
    }
    bool is_named = ast->u.param.index == 0;
    if ((params->names != NULL) != is_named) {
        return NULL;
    }
    if (!is_named) {
        uint32_t i = ast->u.param.index;
        return i <= (uint32_t)params->n ? params->values[i - 1] : NULL;
    }
    for (int32_t i = 0; i < params->n; i++) {
        if (dl_str_eq(params->names[i], ast->u.param.name)) {
            return params->values[i];
        }
    }
    return NULL;
}

/* A decimal value with its type made again in the statement's arena: the caller's type lives
 * only as long as its bindings, and the statement's plan may outlive them. */
static dl_status
decimal_param(dl_sql_binder *b, const dl_vector *v, uint32_t loc, dl_sql_bexpr **out,
              dl_error *err) {
    const dl_type *type = NULL;
    DL_TRY(dl_vec_type_decimal(b->arena, v->type->precision, v->type->scale, &type, err));
    const dl_vector *flat = NULL;
    int64_t row = dl_vec_resolve(v, 0, &flat);
    dl_vector *vec = NULL;
    DL_TRY(dl_vec_new(b->exec->alloc, type, 1, &vec, err));
    dl_status s = dl_vec_is_null(flat, row)
                      ? dl_vec_append_null(vec, err)
                      : dl_vec_append_i128(vec, ((const dl_i128 *)flat->data)[row], err);
    if (s != DL_OK) {
        dl_vec_unref(vec);
        return s;
    }
    return const_from(b, vec, loc, out, err);
}

dl_status
dl_sql_binder_param(dl_sql_binder *b, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    const dl_vector *v = param_value(b->params, ast);
    if (v == NULL) {
        char name[80];
        if (ast->u.param.index > 0) {
            (void)snprintf(name, sizeof(name), "? (parameter %u)", (unsigned)ast->u.param.index);
        } else {
            (void)snprintf(name, sizeof(name), ":%.*s", (int)DL_MIN(ast->u.param.name.len, 64),
                           ast->u.param.name.ptr);
        }
        dl_status s =
            dl_sql_binder_fail(b, ast->loc, DL_ERR_SQL_BIND, err,
                               "[UNBOUND_SQL_PARAMETER] Found the unbound parameter: %s", name);
        dl_error_hint(err, b->params == NULL
                               ? "run the statement with deltalite_prepare and bind a value to "
                                 "each marker (deltalite_bind_*)"
                               : "bind a value to the marker before executing the statement");
        return s;
    }
    if (v->type->id == DL_VEC_TYPE_DECIMAL) {
        return decimal_param(b, v, ast->loc, out, err);
    }
    dl_sql_bexpr *e = dl_sql_bexpr_const(b->arena, v, 0);
    DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding a parameter");
    e->loc = ast->loc;
    *out = e;
    return DL_OK;
}

dl_status
dl_sql_binder_literal(dl_sql_binder *b, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    if (ast->kind == DL_SQL_EXPR_INTERVAL) {
        return dl_sql_binder_interval(b, ast, out, err);
    }
    dl_str t = ast->u.lit.text;
    switch (ast->u.lit.kind) {
    case DL_SQL_LIT_NULL:
        return null_literal(b, ast->loc, out, err);
    case DL_SQL_LIT_BOOL: {
        lit_value v = {.b = ast->u.lit.b};
        return make_const(b, DL_VEC_TYPE_BOOLEAN, &v, ast->loc, out, err);
    }
    case DL_SQL_LIT_INT:
    case DL_SQL_LIT_BIGINT:
    case DL_SQL_LIT_SMALLINT:
    case DL_SQL_LIT_TINYINT:
        return int_literal(b, ast, out, err);
    case DL_SQL_LIT_DECIMAL:
        return decimal_literal(b, ast, out, err);
    case DL_SQL_LIT_DOUBLE:
    case DL_SQL_LIT_FLOAT:
        return float_literal(b, ast, out, err);
    case DL_SQL_LIT_STRING:
    case DL_SQL_LIT_BINARY: {
        lit_value v = {.s = t};
        dl_type_id id =
            ast->u.lit.kind == DL_SQL_LIT_STRING ? DL_VEC_TYPE_STRING : DL_VEC_TYPE_BINARY;
        return make_const(b, id, &v, ast->loc, out, err);
    }
    default:
        return time_literal(b, ast, out, err);
    }
}

/* ---- types --------------------------------------------------------------------------------- */

static dl_status
bind_struct_type(dl_sql_binder *b, const dl_sql_type *ast, const dl_type **out, dl_error *err) {
    dl_type_field *fields = NULL;
    if (ast->n_fields > 0) {
        fields = dl_arena_alloc_zero(b->arena, ast->n_fields * sizeof(*fields));
        DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory binding a type");
    }
    for (uint32_t i = 0; i < ast->n_fields; i++) {
        fields[i].name = ast->fields[i].name.name.ptr;
        fields[i].is_nullable = !ast->fields[i].is_not_null;
        DL_TRY(dl_sql_binder_type(b, ast->fields[i].type, &fields[i].type, err));
    }
    return dl_vec_type_struct(b->arena, fields, (int32_t)ast->n_fields, out, err);
}

dl_status
dl_sql_binder_type(dl_sql_binder *b, const dl_sql_type *ast, const dl_type **out, dl_error *err) {
    static const dl_type_id prims[] = {
        [DL_SQL_TYPE_BOOLEAN] = DL_VEC_TYPE_BOOLEAN,
        [DL_SQL_TYPE_TINYINT] = DL_VEC_TYPE_BYTE,
        [DL_SQL_TYPE_SMALLINT] = DL_VEC_TYPE_SHORT,
        [DL_SQL_TYPE_INT] = DL_VEC_TYPE_INT,
        [DL_SQL_TYPE_BIGINT] = DL_VEC_TYPE_LONG,
        [DL_SQL_TYPE_FLOAT] = DL_VEC_TYPE_FLOAT,
        [DL_SQL_TYPE_DOUBLE] = DL_VEC_TYPE_DOUBLE,
        [DL_SQL_TYPE_STRING] = DL_VEC_TYPE_STRING,
        [DL_SQL_TYPE_VARCHAR] = DL_VEC_TYPE_STRING,
        [DL_SQL_TYPE_CHAR] = DL_VEC_TYPE_STRING,
        [DL_SQL_TYPE_BINARY] = DL_VEC_TYPE_BINARY,
        [DL_SQL_TYPE_DATE] = DL_VEC_TYPE_DATE,
        [DL_SQL_TYPE_TIMESTAMP] = DL_VEC_TYPE_TIMESTAMP,
        [DL_SQL_TYPE_TIMESTAMP_NTZ] = DL_VEC_TYPE_TIMESTAMP_NTZ,
        [DL_SQL_TYPE_TIMESTAMP_LTZ] = DL_VEC_TYPE_TIMESTAMP,
        [DL_SQL_TYPE_VOID] = DL_VEC_TYPE_NULL,
    };
    switch (ast->kind) {
    case DL_SQL_TYPE_DECIMAL:
        return dl_vec_type_decimal(b->arena, ast->precision < 0 ? 10 : ast->precision,
                                   ast->scale < 0 ? 0 : ast->scale, out, err);
    case DL_SQL_TYPE_INTERVAL: {
        bool is_ym = ast->start_unit == DL_SQL_UNIT_YEAR || ast->start_unit == DL_SQL_UNIT_MONTH;
        *out = dl_vec_type_prim(is_ym ? DL_VEC_TYPE_INTERVAL_YM : DL_VEC_TYPE_INTERVAL_DT);
        return DL_OK;
    }
    case DL_SQL_TYPE_ARRAY: {
        const dl_type *elem = NULL;
        DL_TRY(dl_sql_binder_type(b, ast->elem, &elem, err));
        return dl_vec_type_array(b->arena, elem, true, out, err);
    }
    case DL_SQL_TYPE_MAP: {
        const dl_type *key = NULL;
        const dl_type *value = NULL;
        DL_TRY(dl_sql_binder_type(b, ast->key, &key, err));
        DL_TRY(dl_sql_binder_type(b, ast->value, &value, err));
        return dl_vec_type_map(b->arena, key, value, true, out, err);
    }
    case DL_SQL_TYPE_STRUCT:
        return bind_struct_type(b, ast, out, err);
    default:
        *out = dl_vec_type_prim(prims[ast->kind]);
        return DL_OK;
    }
}

/* ---- auto names ---------------------------------------------------------------------------- */

const char *
dl_sql_binder_auto_name(dl_sql_binder *b, const dl_sql_expr *ast) {
    if (ast->kind == DL_SQL_EXPR_COLUMN) {
        return ast->u.column.parts[ast->u.column.n_parts - 1].name.ptr;
    }
    if (ast->kind == DL_SQL_EXPR_FIELD) {
        return ast->u.field.name.name.ptr;
    }
    dl_buf buf;
    dl_buf_init(&buf, b->exec->alloc);
    const char *name = "?column?";
    dl_error ignored;
    if (dl_sql_binder_spark_name(ast, &buf, &ignored) == DL_OK) {
        dl_str v = dl_buf_view(&buf);
        const char *copy = dl_arena_strndup(b->arena, v.ptr, v.len);
        name = copy != NULL ? copy : name;
    }
    dl_buf_destroy(&buf);
    return name;
}

/* ---- intervals ----------------------------------------------------------------------------- */

typedef struct ival {
    int64_t months;
    int64_t micros;
    bool has_ym;
    bool has_dt;
} ival;

static int64_t
unit_micros(dl_sql_unit unit) {
    switch (unit) {
    case DL_SQL_UNIT_WEEK:
        return DL_MICROS_PER_WEEK;
    case DL_SQL_UNIT_DAY:
        return DL_MICROS_PER_DAY;
    case DL_SQL_UNIT_HOUR:
        return DL_MICROS_PER_HOUR;
    case DL_SQL_UNIT_MINUTE:
        return DL_MICROS_PER_MINUTE;
    case DL_SQL_UNIT_SECOND:
        return DL_MICROS_PER_SECOND;
    case DL_SQL_UNIT_MILLISECOND:
        return DL_MICROS_PER_MILLI;
    default:
        return 1;
    }
}

/* Reads "[+-]digits[.digits]" at *p: whole part and the fraction in millionths. */
static bool
read_number(const char **p, const char *end, bool *neg, int64_t *whole, int64_t *frac) {
    const char *s = *p;
    *neg = false;
    if (s < end && (*s == '+' || *s == '-')) {
        *neg = *s == '-';
        s++;
    }
    const char *digits = s;
    int64_t w = 0;
    for (; s < end && *s >= '0' && *s <= '9'; s++) {
        if (w > (INT64_MAX - 9) / 10) {
            return false;
        }
        w = w * 10 + (*s - '0');
    }
    int64_t f = 0;
    int64_t scale = 100000;
    if (s < end && *s == '.') {
        for (s++; s < end && *s >= '0' && *s <= '9'; s++) {
            f += (*s - '0') * scale;
            scale /= 10;
        }
    }
    if (s == digits) {
        return false;
    }
    *p = s;
    *whole = w;
    *frac = f;
    return true;
}

static bool
add_amount(ival *iv, dl_sql_unit unit, bool neg, int64_t whole, int64_t frac) {
    if (unit == DL_SQL_UNIT_YEAR || unit == DL_SQL_UNIT_MONTH) {
        int64_t m = unit == DL_SQL_UNIT_YEAR ? whole * 12 : whole;
        iv->months += neg ? -m : m;
        iv->has_ym = true;
        return whole <= INT32_MAX && frac == 0;
    }
    int64_t per = unit_micros(unit);
    int64_t us = 0;
    if (DL_MUL_OVERFLOW(whole, per, &us)) {
        return false;
    }
    us += (int64_t)((dl_i128)frac * per / 1000000);
    iv->micros += neg ? -us : us;
    iv->has_dt = true;
    return true;
}

/* The units from `from` to `to`, in order, as the fields of 'd h:m:s' / 'y-m' strings. */
static bool
parse_to_form(ival *iv, dl_str text, dl_sql_unit from, dl_sql_unit to, bool neg_outer) {
    const char *p = text.ptr;
    const char *end = text.ptr + text.len;
    while (p < end && *p == ' ') {
        p++;
    }
    bool neg = false;
    if (p < end && (*p == '-' || *p == '+')) {
        neg = *p == '-';
        p++;
    }
    neg = neg != neg_outer;
    for (dl_sql_unit u = from; u <= to; u++) {
        if (u == DL_SQL_UNIT_WEEK) {
            continue;
        }
        bool n2 = false;
        int64_t whole = 0, frac = 0;
        if (!read_number(&p, end, &n2, &whole, &frac) || n2) {
            return false;
        }
        if (frac != 0 && u != DL_SQL_UNIT_SECOND) {
            return false;
        }
        if (!add_amount(iv, u, neg, whole, frac)) {
            return false;
        }
        if (u < to) {
            if (p >= end || (*p != '-' && *p != ' ' && *p != ':')) {
                return false;
            }
            p++;
        }
    }
    while (p < end && *p == ' ') {
        p++;
    }
    return p == end;
}

static dl_sql_unit
unit_named(dl_str w) {
    static const struct {
        const char *name;
        dl_sql_unit unit;
    } names[] = {
        {"year", DL_SQL_UNIT_YEAR},
        {"month", DL_SQL_UNIT_MONTH},
        {"week", DL_SQL_UNIT_WEEK},
        {"day", DL_SQL_UNIT_DAY},
        {"hour", DL_SQL_UNIT_HOUR},
        {"minute", DL_SQL_UNIT_MINUTE},
        {"second", DL_SQL_UNIT_SECOND},
        {"millisecond", DL_SQL_UNIT_MILLISECOND},
        {"microsecond", DL_SQL_UNIT_MICROSECOND},
    };

    if (w.len > 1 && (w.ptr[w.len - 1] == 's' || w.ptr[w.len - 1] == 'S')) {
        dl_str single = dl_str_make(w.ptr, w.len - 1);
        for (size_t i = 0; i < DL_ARRAY_LEN(names); i++) {
            if (dl_str_eq_nocase(single, dl_str_from_cstr(names[i].name))) {
                return names[i].unit;
            }
        }
    }
    for (size_t i = 0; i < DL_ARRAY_LEN(names); i++) {
        if (dl_str_eq_nocase(w, dl_str_from_cstr(names[i].name))) {
            return names[i].unit;
        }
    }
    return DL_SQL_UNIT_NONE;
}

/* 'text' alone: "[interval] n unit [n unit ...]". */
static bool
parse_free_text(ival *iv, dl_str text, bool neg_outer) {
    const char *p = text.ptr;
    const char *end = text.ptr + text.len;
    bool any = false;
    for (;;) {
        while (p < end && *p == ' ') {
            p++;
        }
        if (p == end) {
            return any;
        }
        if ((size_t)(end - p) > 8 && !any &&
            dl_str_eq_nocase(dl_str_make(p, 8), DL_STR("interval"))) {
            p += 8;
            continue;
        }
        bool neg = false;
        int64_t whole = 0, frac = 0;
        if (!read_number(&p, end, &neg, &whole, &frac)) {
            return false;
        }
        while (p < end && *p == ' ') {
            p++;
        }
        const char *w = p;
        while (p < end && *p != ' ') {
            p++;
        }
        dl_sql_unit u = unit_named(dl_str_make(w, (size_t)(p - w)));
        if (u == DL_SQL_UNIT_NONE || !add_amount(iv, u, neg != neg_outer, whole, frac)) {
            return false;
        }
        any = true;
    }
}

static bool
interval_part(ival *iv, const dl_sql_interval_part *part) {
    if (part->unit == DL_SQL_UNIT_NONE) {
        return parse_free_text(iv, part->value, part->is_negative);
    }
    if (part->to_unit != DL_SQL_UNIT_NONE) {
        return parse_to_form(iv, part->value, part->unit, part->to_unit, part->is_negative);
    }
    const char *p = part->value.ptr;
    const char *end = p + part->value.len;
    while (p < end && *p == ' ') {
        p++;
    }
    bool neg = false;
    int64_t whole = 0, frac = 0;
    if (!read_number(&p, end, &neg, &whole, &frac)) {
        return false;
    }
    while (p < end && *p == ' ') {
        p++;
    }
    return p == end && add_amount(iv, part->unit, neg != part->is_negative, whole, frac);
}

dl_status
dl_sql_binder_interval(dl_sql_binder *b, const dl_sql_expr *ast, dl_sql_bexpr **out,
                       dl_error *err) {
    ival iv = {0};
    for (uint32_t i = 0; i < ast->u.interval.n_parts; i++) {
        if (!interval_part(&iv, &ast->u.interval.parts[i])) {
            DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err,
                             "[INVALID_INTERVAL_FORMAT] cannot read the interval '%.*s'",
                             DL_STR_FMT(ast->u.interval.parts[i].value));
        }
    }
    if (iv.has_ym && iv.has_dt) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_UNSUPPORTED, err,
                         "an interval mixing years or months with days or smaller units "
                         "is not supported; write them as two intervals");
    }
    if (iv.has_ym) {
        DL_CHECK(iv.months >= INT32_MIN && iv.months <= INT32_MAX, err, DL_ERR_SQL_BIND,
                 "interval of %lld months is out of range", (long long)iv.months);
        lit_value v = {.i = iv.months};
        return make_const(b, DL_VEC_TYPE_INTERVAL_YM, &v, ast->loc, out, err);
    }
    lit_value v = {.i = iv.micros};
    return make_const(b, DL_VEC_TYPE_INTERVAL_DT, &v, ast->loc, out, err);
}
