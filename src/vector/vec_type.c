/* SPDX-License-Identifier: Apache-2.0 */
/* Logical types: constants, arena constructors, equality and Spark spelling (see vec_type.h). */
#include "vector/vec_type.h"

#include <string.h>

#include "vector/vector_int.h"

static const dl_type prim_types[DL_VEC_TYPE_COUNT] = {
#define DL_VEC_TYPE_X(tid, spark, phys, width, arrow) \
    [DL_VEC_TYPE_##tid] = {.id = DL_VEC_TYPE_##tid},
#include "vector/vec_types.def"
#undef DL_VEC_TYPE_X
};

static const char *const type_names[DL_VEC_TYPE_COUNT] = {
#define DL_VEC_TYPE_X(tid, spark, phys, width, arrow) [DL_VEC_TYPE_##tid] = (spark),
#include "vector/vec_types.def"
#undef DL_VEC_TYPE_X
};

static const dl_vec_phys type_phys[DL_VEC_TYPE_COUNT] = {
#define DL_VEC_TYPE_X(tid, spark, phys, width, arrow) [DL_VEC_TYPE_##tid] = DL_VEC_PHYS_##phys,
#include "vector/vec_types.def"
#undef DL_VEC_TYPE_X
};

static const uint8_t type_widths[DL_VEC_TYPE_COUNT] = {
#define DL_VEC_TYPE_X(tid, spark, phys, width, arrow) [DL_VEC_TYPE_##tid] = (width),
#include "vector/vec_types.def"
#undef DL_VEC_TYPE_X
};

static bool
is_parameterized(dl_type_id id) {
    return id == DL_VEC_TYPE_DECIMAL || id == DL_VEC_TYPE_STRUCT || id == DL_VEC_TYPE_ARRAY ||
           id == DL_VEC_TYPE_MAP;
}

const dl_type *
dl_vec_type_prim(dl_type_id id) {
    if ((unsigned)id >= DL_VEC_TYPE_COUNT || is_parameterized(id)) {
        return NULL;
    }
    return &prim_types[id];
}

const char *
dl_vec_type_name(dl_type_id id) {
    if ((unsigned)id >= DL_VEC_TYPE_COUNT) {
        return "?";
    }
    return type_names[id];
}

dl_vec_phys
dl_vec_type_phys(const dl_type *type) {
    return type_phys[type->id];
}

size_t
dl_vec_type_width(const dl_type *type) {
    return type_widths[type->id];
}

bool
dl_vec_type_is_nested(const dl_type *type) {
    return type->id == DL_VEC_TYPE_STRUCT || type->id == DL_VEC_TYPE_ARRAY ||
           type->id == DL_VEC_TYPE_MAP;
}

static dl_type *
new_type(dl_arena *arena, dl_type_id id, dl_error *err) {
    dl_type *t = dl_arena_alloc_zero(arena, sizeof(*t));
    if (t == NULL) {
        dl_error_set(err, DL_ERR_NOMEM, "out of memory building a %s type", type_names[id]);
        return NULL;
    }
    t->id = id;
    return t;
}

dl_status
dl_vec_type_decimal(dl_arena *arena, int precision, int scale, const dl_type **out, dl_error *err) {
    DL_CHECK(precision <= DL_VEC_DECIMAL_MAX_PRECISION, err, DL_ERR_UNSUPPORTED,
             "decimal(%d,%d): precision %d exceeds the maximum %d", precision, scale, precision,
             DL_VEC_DECIMAL_MAX_PRECISION);
    DL_CHECK(precision >= 1 && scale >= 0 && scale <= precision, err, DL_ERR_INVALID_ARG,
             "decimal(%d,%d): precision must be 1..%d and scale 0..precision", precision, scale,
             DL_VEC_DECIMAL_MAX_PRECISION);
    dl_type *t = new_type(arena, DL_VEC_TYPE_DECIMAL, err);
    if (t == NULL) {
        return DL_ERR_NOMEM;
    }
    t->precision = (uint8_t)precision;
    t->scale = (uint8_t)scale;
    *out = t;
    return DL_OK;
}

dl_status
dl_vec_type_array(dl_arena *arena, const dl_type *element, bool contains_null, const dl_type **out,
                  dl_error *err) {
    DL_CHECK(element != NULL, err, DL_ERR_INVALID_ARG, "array type: element type is NULL");
    dl_type *t = new_type(arena, DL_VEC_TYPE_ARRAY, err);
    if (t == NULL) {
        return DL_ERR_NOMEM;
    }
    t->element = element;
    t->contains_null = contains_null;
    *out = t;
    return DL_OK;
}

dl_status
dl_vec_type_map(dl_arena *arena, const dl_type *key, const dl_type *value, bool value_contains_null,
                const dl_type **out, dl_error *err) {
    DL_CHECK(key != NULL && value != NULL, err, DL_ERR_INVALID_ARG,
             "map type: key or value type is NULL");
    dl_type_field entry_fields[2] = {
        {.name = "key", .type = key, .is_nullable = false},
        {.name = "value", .type = value, .is_nullable = value_contains_null},
    };
    const dl_type *entries;
    DL_TRY(dl_vec_type_struct(arena, entry_fields, 2, &entries, err));
    dl_type *t = new_type(arena, DL_VEC_TYPE_MAP, err);
    if (t == NULL) {
        return DL_ERR_NOMEM;
    }
    t->element = entries;
    t->key = key;
    t->value = value;
    t->contains_null = value_contains_null;
    *out = t;
    return DL_OK;
}

dl_status
dl_vec_type_struct(dl_arena *arena, const dl_type_field *fields, int32_t n_fields,
                   const dl_type **out, dl_error *err) {
    DL_CHECK(n_fields >= 0 && (n_fields == 0 || fields != NULL), err, DL_ERR_INVALID_ARG,
             "struct type: %d fields given without a field array", (int)n_fields);
    dl_type_field *copy = NULL;
    if (n_fields > 0) {
        copy = dl_arena_alloc_array(arena, (size_t)n_fields, sizeof(*copy));
        DL_CHECK(copy != NULL, err, DL_ERR_NOMEM, "out of memory building a struct type");
    }
    for (int32_t i = 0; i < n_fields; i++) {
        DL_CHECK(fields[i].name != NULL && fields[i].type != NULL, err, DL_ERR_INVALID_ARG,
                 "struct type: field %d has no name or no type", (int)i);
        copy[i] = fields[i];
        copy[i].name = dl_arena_strndup(arena, fields[i].name, strlen(fields[i].name));
        DL_CHECK(copy[i].name != NULL, err, DL_ERR_NOMEM, "out of memory building a struct type");
    }
    dl_type *t = new_type(arena, DL_VEC_TYPE_STRUCT, err);
    if (t == NULL) {
        return DL_ERR_NOMEM;
    }
    t->fields = copy;
    t->n_fields = n_fields;
    *out = t;
    return DL_OK;
}

bool
dl_vec_type_equal(const dl_type *a, const dl_type *b) {
    if (a == b) {
        return true;
    }
    if (a == NULL || b == NULL || a->id != b->id) {
        return false;
    }
    switch (a->id) {
    case DL_VEC_TYPE_DECIMAL:
        return a->precision == b->precision && a->scale == b->scale;
    case DL_VEC_TYPE_ARRAY:
        return a->contains_null == b->contains_null && dl_vec_type_equal(a->element, b->element);
    case DL_VEC_TYPE_MAP:
        return a->contains_null == b->contains_null && dl_vec_type_equal(a->key, b->key) &&
               dl_vec_type_equal(a->value, b->value);
    case DL_VEC_TYPE_STRUCT:
        if (a->n_fields != b->n_fields) {
            return false;
        }
        for (int32_t i = 0; i < a->n_fields; i++) {
            const dl_type_field *fa = &a->fields[i];
            const dl_type_field *fb = &b->fields[i];
            if (fa->is_nullable != fb->is_nullable || strcmp(fa->name, fb->name) != 0 ||
                !dl_vec_type_equal(fa->type, fb->type)) {
                return false;
            }
        }
        return true;
    default:
        return true;
    }
}

static dl_status
struct_to_string(const dl_type *type, dl_buf *out, dl_error *err) {
    DL_TRY(dl_buf_append_cstr(out, "struct<", err));
    for (int32_t i = 0; i < type->n_fields; i++) {
        if (i > 0) {
            DL_TRY(dl_buf_append_byte(out, ',', err));
        }
        DL_TRY(dl_buf_append_cstr(out, type->fields[i].name, err));
        DL_TRY(dl_buf_append_byte(out, ':', err));
        DL_TRY(dl_vec_type_to_string(type->fields[i].type, out, err));
    }
    return dl_buf_append_byte(out, '>', err);
}

dl_status
dl_vec_type_to_string(const dl_type *type, dl_buf *out, dl_error *err) {
    switch (type->id) {
    case DL_VEC_TYPE_DECIMAL:
        return dl_buf_appendf(out, err, "decimal(%d,%d)", type->precision, type->scale);
    case DL_VEC_TYPE_ARRAY:
        DL_TRY(dl_buf_append_cstr(out, "array<", err));
        DL_TRY(dl_vec_type_to_string(type->element, out, err));
        return dl_buf_append_byte(out, '>', err);
    case DL_VEC_TYPE_MAP:
        DL_TRY(dl_buf_append_cstr(out, "map<", err));
        DL_TRY(dl_vec_type_to_string(type->key, out, err));
        DL_TRY(dl_buf_append_byte(out, ',', err));
        DL_TRY(dl_vec_type_to_string(type->value, out, err));
        return dl_buf_append_byte(out, '>', err);
    case DL_VEC_TYPE_STRUCT:
        return struct_to_string(type, out, err);
    default:
        return dl_buf_append_cstr(out, dl_vec_type_name(type->id), err);
    }
}

int32_t
dl_vec_type_field_index(const dl_type *type, dl_str name) {
    if (type->id != DL_VEC_TYPE_STRUCT) {
        return -1;
    }
    for (int32_t i = 0; i < type->n_fields; i++) {
        if (dl_str_eq_cstr(name, type->fields[i].name)) {
            return i;
        }
    }
    return -1;
}
