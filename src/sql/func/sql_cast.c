/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Type coercion and CAST: which casts Spark allows (Cast.canCast, and canAnsiCast in ANSI
 * mode), which it makes implicitly (TypeCoercion.implicitCast), the common type of two types
 * (findTightestCommonType, findWiderTypeForTwo, the comparison rules of PromoteStrings and
 * their ANSI counterparts), and dl_sql_cast, which dispatches one column to the loops of its
 * (from, to) family:
 *
 *   same type                  copy (zero-copy for strings: heaps are shared)
 *   void -> anything           NULLs
 *   anything -> string         sql_cast_str.c
 *   string -> anything         sql_cast_parse.c
 *   numbers, boolean, seconds  sql_cast_num.c
 *   dates and timestamps       sql_cast_time.c
 *   integer -> binary          big-endian bytes, here
 *   arrays, maps, structs      element by element, here, recursing into the child vectors in
 *                              chunks of a batch
 *
 * Decimal widening follows DecimalPrecision.widerDecimalType: scale max(s1, s2), integer digits
 * max(p1 - s1, p2 - s2), precision capped at 38.
 */
#include <string.h>
#include <strings.h>

#include "sql/func/sql_fn_int.h"

/* ---- which casts exist ----------------------------------------------------------------------- */

static bool
is_atomic(const dl_type *t) {
    return t->id != DL_VEC_TYPE_NULL && !dl_vec_type_is_nested(t);
}

static bool
nested_castable(const dl_type *from, const dl_type *to,
                bool (*rule)(const dl_type *, const dl_type *)) {
    switch (to->id) {
    case DL_VEC_TYPE_ARRAY:
        return from->id == DL_VEC_TYPE_ARRAY && rule(from->element, to->element);
    case DL_VEC_TYPE_MAP:
        return from->id == DL_VEC_TYPE_MAP && rule(from->key, to->key) &&
               rule(from->value, to->value);
    case DL_VEC_TYPE_STRUCT:
        if (from->id != DL_VEC_TYPE_STRUCT || from->n_fields != to->n_fields) {
            return false;
        }
        for (int32_t i = 0; i < to->n_fields; i++) {
            if (!rule(from->fields[i].type, to->fields[i].type)) {
                return false;
            }
        }
        return true;
    default:
        return false;
    }
}

static bool cast_allowed(const dl_type *from, const dl_type *to, bool ansi);

static bool
legacy_rule(const dl_type *from, const dl_type *to) {
    return cast_allowed(from, to, false);
}

static bool
ansi_rule(const dl_type *from, const dl_type *to) {
    return cast_allowed(from, to, true);
}

static bool
cast_allowed(const dl_type *from, const dl_type *to, bool ansi) {
    dl_type_id f = from->id;
    if (dl_vec_type_equal(from, to) || f == DL_VEC_TYPE_NULL || to->id == DL_VEC_TYPE_STRING) {
        return true;
    }
    bool is_string = f == DL_VEC_TYPE_STRING;
    bool is_num = dl_sql_is_numeric(from);
    switch (to->id) {
    case DL_VEC_TYPE_BINARY:
        return is_string || (!ansi && dl_sql_is_integral(from));
    case DL_VEC_TYPE_BOOLEAN:
        return is_string || is_num ||
               (!ansi && (f == DL_VEC_TYPE_DATE || f == DL_VEC_TYPE_TIMESTAMP));
    case DL_VEC_TYPE_TIMESTAMP:
        return is_string || is_num || f == DL_VEC_TYPE_DATE || f == DL_VEC_TYPE_TIMESTAMP_NTZ ||
               (!ansi && f == DL_VEC_TYPE_BOOLEAN);
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        return is_string || f == DL_VEC_TYPE_DATE || f == DL_VEC_TYPE_TIMESTAMP;
    case DL_VEC_TYPE_DATE:
        return is_string || f == DL_VEC_TYPE_TIMESTAMP || f == DL_VEC_TYPE_TIMESTAMP_NTZ;
    case DL_VEC_TYPE_INTERVAL_YM:
    case DL_VEC_TYPE_INTERVAL_DT:
        return is_string || f == to->id;
    case DL_VEC_TYPE_BYTE:
    case DL_VEC_TYPE_SHORT:
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_LONG:
    case DL_VEC_TYPE_FLOAT:
    case DL_VEC_TYPE_DOUBLE:
    case DL_VEC_TYPE_DECIMAL:
        return is_string || is_num || f == DL_VEC_TYPE_BOOLEAN || f == DL_VEC_TYPE_TIMESTAMP ||
               (!ansi && f == DL_VEC_TYPE_DATE);
    default:
        return nested_castable(from, to, ansi ? ansi_rule : legacy_rule);
    }
}

bool
dl_sql_cast_is_allowed(const dl_type *from, const dl_type *to) {
    return cast_allowed(from, to, false);
}

bool
dl_sql_cast_is_allowed_ansi(const dl_type *from, const dl_type *to) {
    return cast_allowed(from, to, true);
}

bool
dl_sql_cast_is_implicit(const dl_type *from, const dl_type *to) {
    dl_type_id f = from->id;
    if (dl_vec_type_equal(from, to) || f == DL_VEC_TYPE_NULL) {
        return true;
    }
    if (dl_sql_is_numeric(from) && dl_sql_is_numeric(to)) {
        return true;
    }
    switch (to->id) {
    case DL_VEC_TYPE_STRING:
        return is_atomic(from);
    case DL_VEC_TYPE_DATE:
        return f == DL_VEC_TYPE_STRING || f == DL_VEC_TYPE_TIMESTAMP ||
               f == DL_VEC_TYPE_TIMESTAMP_NTZ;
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        return f == DL_VEC_TYPE_STRING || f == DL_VEC_TYPE_DATE;
    case DL_VEC_TYPE_BINARY:
        return f == DL_VEC_TYPE_STRING;
    case DL_VEC_TYPE_ARRAY:
        return f == DL_VEC_TYPE_ARRAY && dl_sql_cast_is_implicit(from->element, to->element);
    default:
        return f == DL_VEC_TYPE_STRING && dl_sql_is_numeric(to);
    }
}

/* ---- common types ---------------------------------------------------------------------------- */

typedef struct coerce {
    dl_sql_coerce how;
    bool ansi;
    dl_arena *arena;
} coerce;

static int
numeric_rank(dl_type_id id) {
    switch (id) {
    case DL_VEC_TYPE_BYTE:
        return 1;
    case DL_VEC_TYPE_SHORT:
        return 2;
    case DL_VEC_TYPE_INT:
        return 3;
    case DL_VEC_TYPE_LONG:
        return 4;
    case DL_VEC_TYPE_FLOAT:
        return 5;
    case DL_VEC_TYPE_DOUBLE:
        return 6;
    default:
        return 0;
    }
}

/* DecimalType.isWiderThan for an integral or decimal other. */
static bool
decimal_is_wider(const dl_type *d, const dl_type *other) {
    int p;
    int s;
    if (!dl_sql_decimal_for(other, &p, &s)) {
        return false;
    }
    return d->precision - d->scale >= p - s && d->scale >= s;
}

/* DecimalType.isTighterThan for an integral or decimal other. */
static bool
decimal_is_tighter(const dl_type *d, const dl_type *other) {
    int p;
    int s;
    if (!dl_sql_decimal_for(other, &p, &s)) {
        return false;
    }
    return d->precision - d->scale <= p - s && d->scale <= s;
}

static bool
is_timestamp(dl_type_id id) {
    return id == DL_VEC_TYPE_TIMESTAMP || id == DL_VEC_TYPE_TIMESTAMP_NTZ;
}

/* UpCastRule.canUpCast (the STRICT store assignment policy). Nullability of nested elements is
 * not part of deltalite's types, so the rule's resolvableNullability always holds. */
bool
dl_sql_cast_is_upcast(const dl_type *from, const dl_type *to) {
    dl_type_id f = from->id;
    dl_type_id t = to->id;
    if (dl_vec_type_equal(from, to) || f == DL_VEC_TYPE_NULL) {
        return true;
    }
    if (t == DL_VEC_TYPE_DECIMAL && dl_sql_is_numeric(from)) {
        return (dl_sql_is_integral(from) || f == DL_VEC_TYPE_DECIMAL) && decimal_is_wider(to, from);
    }
    if (f == DL_VEC_TYPE_DECIMAL && dl_sql_is_numeric(to)) {
        return dl_sql_is_integral(to) && decimal_is_tighter(from, to);
    }
    int rf = numeric_rank(f);
    if (rf > 0 && rf < numeric_rank(t)) {
        return true;
    }
    if ((f == DL_VEC_TYPE_DATE && is_timestamp(t)) || (is_timestamp(f) && is_timestamp(t))) {
        return true;
    }
    if (t == DL_VEC_TYPE_STRING) {
        return is_atomic(from);
    }
    if ((f == DL_VEC_TYPE_TIMESTAMP && t == DL_VEC_TYPE_LONG) ||
        (f == DL_VEC_TYPE_LONG && t == DL_VEC_TYPE_TIMESTAMP) ||
        (f == DL_VEC_TYPE_INTERVAL_DT && t == DL_VEC_TYPE_INTERVAL_DT) ||
        (f == DL_VEC_TYPE_INTERVAL_YM && t == DL_VEC_TYPE_INTERVAL_YM)) {
        return true;
    }
    return dl_vec_type_is_nested(to) && nested_castable(from, to, dl_sql_cast_is_upcast);
}

static dl_status
wider_decimal(const dl_type *a, const dl_type *b, dl_arena *arena, const dl_type **out,
              dl_error *err) {
    int p1;
    int s1;
    int p2;
    int s2;
    (void)dl_sql_decimal_for(a, &p1, &s1);
    (void)dl_sql_decimal_for(b, &p2, &s2);
    int scale = DL_MAX(s1, s2);
    int range = DL_MAX(p1 - s1, p2 - s2);
    /* Spark 4's DecimalType.boundedPreferIntegralDigits: past 38 digits the scale gives way,
     * so the integral digits of both sides fit */
    if (range + scale > DL_SQL_DEC_MAX) {
        scale = DL_MAX(0, scale - (range + scale - DL_SQL_DEC_MAX));
    }
    return dl_sql_decimal_type(arena, range + scale, scale, out, err);
}

static dl_status common_of(const coerce *c, const dl_type *a, const dl_type *b, const dl_type **out,
                           dl_error *err);

static dl_status
common_nested(const coerce *c, const dl_type *a, const dl_type *b, const dl_type **out,
              dl_error *err) {
    *out = NULL;
    const dl_type *x;
    const dl_type *y;
    if (a->id == DL_VEC_TYPE_ARRAY && b->id == DL_VEC_TYPE_ARRAY) {
        DL_TRY(common_of(c, a->element, b->element, &x, err));
        if (x != NULL) {
            DL_TRY(dl_vec_type_array(c->arena, x, a->contains_null || b->contains_null, out, err));
        }
        return DL_OK;
    }
    if (a->id == DL_VEC_TYPE_MAP && b->id == DL_VEC_TYPE_MAP) {
        DL_TRY(common_of(c, a->key, b->key, &x, err));
        DL_TRY(common_of(c, a->value, b->value, &y, err));
        if (x != NULL && y != NULL) {
            DL_TRY(dl_vec_type_map(c->arena, x, y, a->contains_null || b->contains_null, out, err));
        }
        return DL_OK;
    }
    if (a->id != DL_VEC_TYPE_STRUCT || b->id != DL_VEC_TYPE_STRUCT || a->n_fields != b->n_fields) {
        return DL_OK;
    }
    dl_type_field *fields = NULL;
    if (a->n_fields > 0) {
        fields = dl_arena_alloc_array(c->arena, (size_t)a->n_fields, sizeof(*fields));
        DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory building a struct type");
    }
    for (int32_t i = 0; i < a->n_fields; i++) {
        if (strcasecmp(a->fields[i].name, b->fields[i].name) != 0) {
            return DL_OK;
        }
        DL_TRY(common_of(c, a->fields[i].type, b->fields[i].type, &x, err));
        if (x == NULL) {
            return DL_OK;
        }
        fields[i] = a->fields[i];
        fields[i].type = x;
        fields[i].is_nullable = a->fields[i].is_nullable || b->fields[i].is_nullable;
    }
    return dl_vec_type_struct(c->arena, fields, a->n_fields, out, err);
}

/* findTightestCommonType, without the complex types. */
static const dl_type *
tightest(const dl_type *a, const dl_type *b, bool ansi) {
    if (dl_vec_type_equal(a, b) || b->id == DL_VEC_TYPE_NULL) {
        return a;
    }
    if (a->id == DL_VEC_TYPE_NULL) {
        return b;
    }
    if (dl_sql_is_integral(a) && b->id == DL_VEC_TYPE_DECIMAL && decimal_is_wider(b, a)) {
        return b;
    }
    if (dl_sql_is_integral(b) && a->id == DL_VEC_TYPE_DECIMAL && decimal_is_wider(a, b)) {
        return a;
    }
    int ra = numeric_rank(a->id);
    int rb = numeric_rank(b->id);
    if (ra > 0 && rb > 0) {
        const dl_type *w = ra > rb ? a : b;
        if (ansi && w->id == DL_VEC_TYPE_FLOAT) {
            return dl_sql_t(DL_VEC_TYPE_DOUBLE);
        }
        return w;
    }
    if (dl_sql_is_datetime(a) && dl_sql_is_datetime(b)) {
        if (a->id == DL_VEC_TYPE_TIMESTAMP || b->id == DL_VEC_TYPE_TIMESTAMP) {
            return dl_sql_t(DL_VEC_TYPE_TIMESTAMP);
        }
        return dl_sql_t(DL_VEC_TYPE_TIMESTAMP_NTZ);
    }
    return NULL;
}

/* String against another type: the rules of PromoteStrings (comparisons), stringPromotion
 * (everything else) and their ANSI counterpart findWiderTypeForString. */
static const dl_type *
string_rule(const coerce *c, const dl_type *s, const dl_type *other) {
    if (other->id == DL_VEC_TYPE_STRING || !is_atomic(other)) {
        return NULL;
    }
    if (c->ansi) {
        if (dl_sql_is_integral(other)) {
            return dl_sql_t(DL_VEC_TYPE_LONG);
        }
        if (dl_sql_is_floating(other) || other->id == DL_VEC_TYPE_DECIMAL) {
            return dl_sql_t(DL_VEC_TYPE_DOUBLE);
        }
        return dl_sql_is_interval(other) ? NULL : other;
    }
    if (c->how == DL_SQL_COERCE_COMPARE) {
        return other->id == DL_VEC_TYPE_DECIMAL ? dl_sql_t(DL_VEC_TYPE_DOUBLE) : other;
    }
    if (other->id == DL_VEC_TYPE_BINARY || other->id == DL_VEC_TYPE_BOOLEAN) {
        return NULL;
    }
    return s;
}

static dl_status
common_of(const coerce *c, const dl_type *a, const dl_type *b, const dl_type **out, dl_error *err) {
    *out = NULL;
    if (a == NULL || b == NULL) {
        return DL_OK;
    }
    *out = tightest(a, b, c->ansi);
    if (*out != NULL) {
        return DL_OK;
    }
    bool a_dec = a->id == DL_VEC_TYPE_DECIMAL;
    bool b_dec = b->id == DL_VEC_TYPE_DECIMAL;
    if ((a_dec && (b_dec || dl_sql_is_integral(b))) || (b_dec && dl_sql_is_integral(a))) {
        return wider_decimal(a, b, c->arena, out, err);
    }
    if ((a_dec && dl_sql_is_floating(b)) || (b_dec && dl_sql_is_floating(a))) {
        *out = dl_sql_t(DL_VEC_TYPE_DOUBLE);
        return DL_OK;
    }
    if (a->id == DL_VEC_TYPE_STRING) {
        *out = string_rule(c, a, b);
    } else if (b->id == DL_VEC_TYPE_STRING) {
        *out = string_rule(c, b, a);
    }
    if (*out != NULL) {
        return DL_OK;
    }
    return common_nested(c, a, b, out, err);
}

dl_status
dl_sql_type_common_ex(const dl_type *a, const dl_type *b, dl_sql_coerce how, bool ansi,
                      dl_arena *arena, const dl_type **out, dl_error *err) {
    coerce c = {.how = how, .ansi = ansi, .arena = arena};
    return common_of(&c, a, b, out, err);
}

dl_status
dl_sql_type_common(const dl_type *a, const dl_type *b, dl_arena *arena, const dl_type **out,
                   dl_error *err) {
    return dl_sql_type_common_ex(a, b, DL_SQL_COERCE_WIDER, false, arena, out, err);
}

/* ---- casting nested values ------------------------------------------------------------------- */

/* Casts rows [start, start + n) of the flat vector src to the end of out, a batch at a time. */
static dl_status
cast_range(const dl_sql_fn_env *env, dl_sql_cast_mode mode, const dl_vector *src, int64_t start,
           int64_t n, dl_vector *out, dl_error *err) {
    for (int64_t off = 0; off < n; off += DL_BATCH_CAPACITY) {
        int64_t m = DL_MIN(n - off, DL_BATCH_CAPACITY);
        dl_vector *slice;
        DL_TRY(dl_vec_slice(src, start + off, m, &slice, err));
        dl_status s = dl_sql_cast_append(env, mode, slice, m, out, err);
        dl_vec_unref(slice);
        DL_TRY(s);
    }
    return DL_OK;
}

static dl_status
copy_nulls(const dl_vector *src, int64_t count, dl_vector *out, int64_t base, dl_error *err) {
    if (src->validity == NULL) {
        return DL_OK;
    }
    for (int64_t i = 0; i < count; i++) {
        if (!dl_vec_bit_get(src->validity, i)) {
            DL_TRY(dl_sql_out_set_null(out, base + i, err));
        }
    }
    return DL_OK;
}

static dl_status
cast_struct(const dl_sql_fn_env *env, dl_sql_cast_mode mode, const dl_vector *src, int64_t count,
            dl_vector *out, dl_error *err) {
    int64_t base = out->length;
    for (int32_t f = 0; f < out->n_children; f++) {
        DL_TRY(cast_range(env, mode, src->children[f], 0, count, out->children[f], err));
    }
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(copy_nulls(src, count, out, base, err));
    dl_vec_set_length(out, base + count);
    return DL_OK;
}

static dl_status
cast_list(const dl_sql_fn_env *env, dl_sql_cast_mode mode, const dl_vector *src, int64_t count,
          dl_vector *out, dl_error *err) {
    int64_t base = out->length;
    const int32_t *so = src->data;
    dl_vector *child = out->children[0];
    int64_t child_base = child->length;
    DL_TRY(cast_range(env, mode, src->children[0], so[0], (int64_t)so[count] - so[0], child, err));
    DL_CHECK(child->length <= INT32_MAX, err, DL_ERR_LIMIT,
             "a list of %lld elements exceeds the int32 offset limit", (long long)child->length);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    int32_t *oo = out->data;
    for (int64_t i = 0; i < count; i++) {
        oo[base + i + 1] = (int32_t)(child_base + (so[i + 1] - so[0]));
    }
    DL_TRY(copy_nulls(src, count, out, base, err));
    dl_vec_set_length(out, base + count);
    return DL_OK;
}

static dl_status
cast_nested(const dl_sql_fn_env *env, dl_sql_cast_mode mode, const dl_vector *src, int64_t count,
            dl_vector *out, dl_error *err) {
    const dl_vector *flat = src;
    dl_vector *tmp = NULL;
    if (src->layout != DL_VEC_FLAT) {
        DL_TRY(dl_vec_new(env != NULL ? env->alloc : NULL, src->type, count, &tmp, err));
        dl_status s = dl_vec_copy_sel(tmp, src, NULL, count, err);
        if (s != DL_OK) {
            dl_vec_unref(tmp);
            return s;
        }
        flat = tmp;
    }
    dl_status s = out->type->id == DL_VEC_TYPE_STRUCT
                      ? cast_struct(env, mode, flat, count, out, err)
                      : cast_list(env, mode, flat, count, out, err);
    dl_vec_unref(tmp);
    return s;
}

/* Nested types equal but for nullability flags and field names. */
static bool
same_shape(const dl_type *a, const dl_type *b) {
    if (a->id != b->id) {
        return false;
    }
    switch (a->id) {
    case DL_VEC_TYPE_DECIMAL:
        return a->precision == b->precision && a->scale == b->scale;
    case DL_VEC_TYPE_ARRAY:
        return same_shape(a->element, b->element);
    case DL_VEC_TYPE_MAP:
        return same_shape(a->key, b->key) && same_shape(a->value, b->value);
    case DL_VEC_TYPE_STRUCT:
        if (a->n_fields != b->n_fields) {
            return false;
        }
        for (int32_t i = 0; i < a->n_fields; i++) {
            if (!same_shape(a->fields[i].type, b->fields[i].type)) {
                return false;
            }
        }
        return true;
    default:
        return true;
    }
}

/* ---- the cast -------------------------------------------------------------------------------- */

static dl_status
append_nulls(dl_vector *out, int64_t count, dl_error *err) {
    for (int64_t i = 0; i < count; i++) {
        DL_TRY(dl_vec_append_null(out, err));
    }
    return DL_OK;
}

/* Spark's integer -> binary: the value's big-endian two's complement bytes. */
static dl_status
integer_to_binary(const dl_vector *src, int64_t count, dl_vector *out, dl_error *err) {
    dl_vec_unified u;
    dl_vec_unify(src, count, &u);
    size_t width = dl_vec_type_width(src->type);
    for (int64_t i = 0; i < count; i++) {
        if (dl_sql_u_null(&u, i)) {
            DL_TRY(dl_vec_append_null(out, err));
            continue;
        }
        const uint8_t *p = (const uint8_t *)u.data + (size_t)u.sel[i] * width;
        uint8_t bytes[8];
        for (size_t k = 0; k < width; k++) {
            bytes[k] = p[width - 1 - k];
        }
        DL_TRY(dl_vec_append_str(out, bytes, width, err));
    }
    return DL_OK;
}

static bool
is_number_like(const dl_type *t) {
    return dl_sql_is_numeric(t) || t->id == DL_VEC_TYPE_BOOLEAN;
}

dl_status
dl_sql_cast_append(const dl_sql_fn_env *env, dl_sql_cast_mode mode, const dl_vector *src,
                   int64_t count, dl_vector *out, dl_error *err) {
    const dl_type *from = src->type;
    const dl_type *to = out->type;
    if (dl_vec_type_equal(from, to)) {
        return dl_vec_copy_sel(out, src, NULL, count, err);
    }
    if (from->id == DL_VEC_TYPE_NULL) {
        return append_nulls(out, count, err);
    }
    if (dl_vec_type_is_nested(to) && same_shape(from, to)) {
        return cast_nested(env, mode, src, count, out, err);
    }
    char fname[96];
    char tname[96];
    DL_CHECK(dl_sql_cast_is_allowed(from, to), err, DL_ERR_SQL_BIND, "cannot cast %s to %s",
             dl_sql_type_name(from, fname, sizeof(fname)),
             dl_sql_type_name(to, tname, sizeof(tname)));
    if (to->id == DL_VEC_TYPE_STRING) {
        return dl_sql_cast_to_string(env, mode, src, count, out, err);
    }
    if (from->id == DL_VEC_TYPE_STRING) {
        return dl_sql_cast_from_string(env, mode, src, count, out, err);
    }
    if (to->id == DL_VEC_TYPE_BINARY) {
        return integer_to_binary(src, count, out, err);
    }
    if (dl_vec_type_is_nested(to)) {
        return cast_nested(env, mode, src, count, out, err);
    }
    bool to_number = is_number_like(to);
    bool from_number = is_number_like(from);
    if ((to_number && (from_number || dl_sql_is_datetime(from))) ||
        (to->id == DL_VEC_TYPE_TIMESTAMP && from_number)) {
        return dl_sql_cast_numeric(env, mode, src, count, out, err);
    }
    if (dl_sql_is_datetime(to) && dl_sql_is_datetime(from)) {
        return dl_sql_cast_datetime(env, mode, src, count, out, err);
    }
    DL_FAIL(err, DL_ERR_UNSUPPORTED, "cast from %s to %s is not supported",
            dl_sql_type_name(from, fname, sizeof(fname)),
            dl_sql_type_name(to, tname, sizeof(tname)));
}

dl_status
dl_sql_cast(const dl_sql_fn_env *env, dl_sql_cast_mode mode, const dl_vector *src, int64_t count,
            dl_vector *out, dl_error *err) {
    DL_CHECK(out->layout == DL_VEC_FLAT, err, DL_ERR_INVALID_ARG,
             "cast: the result vector must be flat");
    return dl_sql_cast_append(env, mode, src, count, out, err);
}
