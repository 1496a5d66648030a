/* SPDX-License-Identifier: Apache-2.0 */
/* Shared fixtures of the vector tests: types and sample vectors. */
#ifndef DL_TESTS_VEC_FIXTURE_H
#define DL_TESTS_VEC_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "vector/vector.h"

static inline const dl_type *
fx_prim(dl_type_id id) {
    return dl_vec_type_prim(id);
}

static inline int
fx_str_is(dl_str s, const char *expected) {
    return s.len == strlen(expected) && (s.len == 0 || memcmp(s.ptr, expected, s.len) == 0);
}

/* struct<id:int, tags:array<string>, attrs:map<string,int>, inner:struct<x:double>> */
static inline dl_status
fx_nested_type(dl_arena *arena, const dl_type **out, dl_error *err) {
    const dl_type *tags;
    const dl_type *attrs;
    const dl_type *inner;
    DL_TRY(dl_vec_type_array(arena, fx_prim(DL_VEC_TYPE_STRING), true, &tags, err));
    DL_TRY(dl_vec_type_map(arena, fx_prim(DL_VEC_TYPE_STRING), fx_prim(DL_VEC_TYPE_INT), true,
                           &attrs, err));
    dl_type_field x = {.name = "x", .type = fx_prim(DL_VEC_TYPE_DOUBLE), .is_nullable = true};
    DL_TRY(dl_vec_type_struct(arena, &x, 1, &inner, err));
    dl_type_field fields[] = {
        {.name = "id", .type = fx_prim(DL_VEC_TYPE_INT), .is_nullable = false},
        {.name = "tags", .type = tags, .is_nullable = true},
        {.name = "attrs", .type = attrs, .is_nullable = true},
        {.name = "inner", .type = inner, .is_nullable = true},
    };
    return dl_vec_type_struct(arena, fields, 4, out, err);
}

static inline dl_status
fx_append_entry(dl_vector *map, const char *key, const int32_t *value, dl_error *err) {
    dl_vector *entries = map->children[0];
    DL_TRY(dl_vec_append_str(entries->children[0], key, strlen(key), err));
    if (value != NULL) {
        DL_TRY(dl_vec_append_i32(entries->children[1], *value, err));
    } else {
        DL_TRY(dl_vec_append_null(entries->children[1], err));
    }
    return dl_vec_append_struct(entries, err);
}

/*
 * Four rows of fx_nested_type, with nulls at every level:
 *   0: {id 1, tags ["a", "a string longer than twelve"], attrs {"k1": 10}, inner {x 1.5}}
 *   1: null struct
 *   2: {id 3, tags null, attrs {} (empty), inner null}
 *   3: {id 4, tags [null, "b"], attrs {"k2": null, "k3": 30}, inner {x null}}
 */
static inline dl_status
fx_nested_rows(dl_vector *vec, dl_error *err) {
    dl_vector *id = vec->children[0];
    dl_vector *tags = vec->children[1];
    dl_vector *attrs = vec->children[2];
    dl_vector *inner = vec->children[3];
    const char *long_tag = "a string longer than twelve";
    int32_t v10 = 10;
    int32_t v30 = 30;
    /* row 0 */
    DL_TRY(dl_vec_append_i32(id, 1, err));
    DL_TRY(dl_vec_append_str(tags->children[0], "a", 1, err));
    DL_TRY(dl_vec_append_str(tags->children[0], long_tag, strlen(long_tag), err));
    DL_TRY(dl_vec_append_list(tags, err));
    DL_TRY(fx_append_entry(attrs, "k1", &v10, err));
    DL_TRY(dl_vec_append_list(attrs, err));
    DL_TRY(dl_vec_append_f64(inner->children[0], 1.5, err));
    DL_TRY(dl_vec_append_struct(inner, err));
    DL_TRY(dl_vec_append_struct(vec, err));
    /* row 1 */
    DL_TRY(dl_vec_append_null(vec, err));
    /* row 2 */
    DL_TRY(dl_vec_append_i32(id, 3, err));
    DL_TRY(dl_vec_append_null(tags, err));
    DL_TRY(dl_vec_append_list(attrs, err));
    DL_TRY(dl_vec_append_null(inner, err));
    DL_TRY(dl_vec_append_struct(vec, err));
    /* row 3 */
    DL_TRY(dl_vec_append_i32(id, 4, err));
    DL_TRY(dl_vec_append_null(tags->children[0], err));
    DL_TRY(dl_vec_append_str(tags->children[0], "b", 1, err));
    DL_TRY(dl_vec_append_list(tags, err));
    DL_TRY(fx_append_entry(attrs, "k2", NULL, err));
    DL_TRY(fx_append_entry(attrs, "k3", &v30, err));
    DL_TRY(dl_vec_append_list(attrs, err));
    DL_TRY(dl_vec_append_null(inner->children[0], err));
    DL_TRY(dl_vec_append_struct(inner, err));
    return dl_vec_append_struct(vec, err);
}

/* A new nested vector holding fx_nested_rows. */
static inline dl_status
fx_nested_vector(const dl_allocator *alloc, const dl_type *type, dl_vector **out, dl_error *err) {
    dl_vector *vec;
    DL_TRY(dl_vec_new(alloc, type, 2, &vec, err));
    dl_status s = fx_nested_rows(vec, err);
    if (s != DL_OK) {
        dl_vec_unref(vec);
        return s;
    }
    *out = vec;
    return DL_OK;
}

/* A flat vector of type with 50 rows, every fifth null, values derived from the row. */
static inline dl_status
fx_sample_vector(const dl_allocator *alloc, const dl_type *type, dl_vector **out, dl_error *err) {
    dl_vector *vec;
    DL_TRY(dl_vec_new(alloc, type, 8, &vec, err));
    dl_status s = DL_OK;
    char text[64];
    for (int i = 0; i < 50 && s == DL_OK; i++) {
        if (i % 5 == 4 || type->id == DL_VEC_TYPE_NULL) {
            s = dl_vec_append_null(vec, err);
            continue;
        }
        switch (dl_vec_type_phys(type)) {
        case DL_VEC_PHYS_BIT:
            s = dl_vec_append_bool(vec, i % 3 == 0, err);
            break;
        case DL_VEC_PHYS_I8:
            s = dl_vec_append_i8(vec, (int8_t)(i - 20), err);
            break;
        case DL_VEC_PHYS_I16:
            s = dl_vec_append_i16(vec, (int16_t)(i * 300), err);
            break;
        case DL_VEC_PHYS_I32:
            s = dl_vec_append_i32(vec, i * 70000, err);
            break;
        case DL_VEC_PHYS_I64:
            s = dl_vec_append_i64(vec, (int64_t)i << 40, err);
            break;
        case DL_VEC_PHYS_F32:
            s = dl_vec_append_f32(vec, (float)i / 3.0f, err);
            break;
        case DL_VEC_PHYS_F64:
            s = dl_vec_append_f64(vec, (double)i / 7.0, err);
            break;
        case DL_VEC_PHYS_I128:
            s = dl_vec_append_i128(vec, -((dl_i128)i << 100), err);
            break;
        default: { /* views: short and long, the long ones spread over several heaps */
            size_t len = i % 2 == 0 ? (size_t)(i % 13) : 800 + (size_t)i;
            char *big = dl_mem_alloc(NULL, len + 1);
            if (big == NULL) {
                s = DL_ERR_NOMEM;
                break;
            }
            memset(big, 'a' + i % 26, len);
            (void)snprintf(text, sizeof(text), "%d", i);
            memcpy(big, text, DL_MIN(strlen(text), len));
            s = dl_vec_append_str(vec, big, len, err);
            dl_mem_free(NULL, big, len + 1);
            break;
        }
        }
    }
    if (s != DL_OK) {
        dl_vec_unref(vec);
        return s;
    }
    *out = vec;
    return DL_OK;
}

#endif /* DL_TESTS_VEC_FIXTURE_H */
