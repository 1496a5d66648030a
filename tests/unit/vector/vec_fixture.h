/* SPDX-License-Identifier: Apache-2.0 */
/* Shared fixtures of the vector tests: types and sample vectors. */
#ifndef DL_TESTS_VEC_FIXTURE_H
#define DL_TESTS_VEC_FIXTURE_H

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

#endif /* DL_TESTS_VEC_FIXTURE_H */
