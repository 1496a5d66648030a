/* SPDX-License-Identifier: Apache-2.0 */
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "vec_fixture.h"
#include "vector/vector.h"
#include "vector/vector_int.h"

/* ---- helpers ------------------------------------------------------------------------------ */

/* True when vec row k equals fixture row r of fx_nested_rows, whatever vec's layout. */
static int
nested_row_is(const dl_vector *vec, int64_t k, int r) {
    if (r == 1 || dl_vec_is_null(vec, k)) {
        return r == 1 && dl_vec_is_null(vec, k);
    }
    const dl_vector *flat;
    int64_t e = dl_vec_resolve(vec, k, &flat);
    const dl_vector *tags = flat->children[1];
    const dl_vector *attrs = flat->children[2];
    const dl_vector *inner = flat->children[3];
    const dl_vector *tag_values = tags->children[0];
    const dl_vector *keys = attrs->children[0]->children[0];
    const dl_vector *values = attrs->children[0]->children[1];
    int32_t id = ((const int32_t *)flat->children[0]->data)[e];
    int64_t ts;
    int64_t te;
    int64_t as;
    int64_t ae;
    dl_vec_list_bounds(attrs, e, &as, &ae);
    if (r == 2) {
        return id == 3 && dl_vec_is_null(tags, e) && ae == as && dl_vec_is_null(inner, e);
    }
    dl_vec_list_bounds(tags, e, &ts, &te);
    if (te - ts != 2 || dl_vec_is_null(inner, e)) {
        return 0;
    }
    const dl_vector *x = inner->children[0];
    if (r == 0) {
        return id == 1 && fx_str_is(dl_vec_get_str(tag_values, ts), "a") &&
               fx_str_is(dl_vec_get_str(tag_values, ts + 1), "a string longer than twelve") &&
               ae - as == 1 && fx_str_is(dl_vec_get_str(keys, as), "k1") &&
               ((const int32_t *)values->data)[as] == 10 && ((const double *)x->data)[e] == 1.5;
    }
    return id == 4 && dl_vec_is_null(tag_values, ts) &&
           fx_str_is(dl_vec_get_str(tag_values, ts + 1), "b") && ae - as == 2 &&
           fx_str_is(dl_vec_get_str(keys, as), "k2") && dl_vec_is_null(values, as) &&
           fx_str_is(dl_vec_get_str(keys, as + 1), "k3") &&
           ((const int32_t *)values->data)[as + 1] == 30 && dl_vec_is_null(x, e);
}

static const dl_type *
decimal_type(dl_arena *arena, int p, int s) {
    const dl_type *t = NULL;
    dl_error err;
    if (dl_vec_type_decimal(arena, p, s, &t, &err) != DL_OK) {
        return NULL;
    }
    return t;
}

/* Appends value v (as the type's physical class) to vec. */
static dl_status
append_number(dl_vector *vec, int64_t v, dl_error *err) {
    switch (dl_vec_type_phys(vec->type)) {
    case DL_VEC_PHYS_I8:
        return dl_vec_append_i8(vec, (int8_t)v, err);
    case DL_VEC_PHYS_I16:
        return dl_vec_append_i16(vec, (int16_t)v, err);
    case DL_VEC_PHYS_I32:
        return dl_vec_append_i32(vec, (int32_t)v, err);
    case DL_VEC_PHYS_I64:
        return dl_vec_append_i64(vec, v * 1000003, err);
    case DL_VEC_PHYS_F32:
        return dl_vec_append_f32(vec, (float)v + 0.5f, err);
    case DL_VEC_PHYS_F64:
        return dl_vec_append_f64(vec, (double)v + 0.25, err);
    default:
        return dl_vec_append_i128(vec, (dl_i128)v * ((dl_i128)1 << 70), err);
    }
}

/* True when element e of u's data holds the value append_number(v) wrote. */
static int
number_is(const dl_vec_unified *u, int64_t i, int64_t v) {
    uint32_t e = u->sel[i];
    switch (dl_vec_type_phys(u->flat->type)) {
    case DL_VEC_PHYS_I8:
        return ((const int8_t *)u->data)[e] == (int8_t)v;
    case DL_VEC_PHYS_I16:
        return ((const int16_t *)u->data)[e] == (int16_t)v;
    case DL_VEC_PHYS_I32:
        return ((const int32_t *)u->data)[e] == (int32_t)v;
    case DL_VEC_PHYS_I64:
        return ((const int64_t *)u->data)[e] == v * 1000003;
    case DL_VEC_PHYS_F32:
        return ((const float *)u->data)[e] == (float)v + 0.5f;
    case DL_VEC_PHYS_F64:
        return ((const double *)u->data)[e] == (double)v + 0.25;
    default: {
        dl_i128 got;
        memcpy(&got, (const uint8_t *)u->data + (size_t)e * 16, 16);
        return got == (dl_i128)v * ((dl_i128)1 << 70);
    }
    }
}

/* ---- fixed-width types ------------------------------------------------------------------- */

TEST(test_every_fixed_width_type_round_trips_through_builder_and_unify) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *types[] = {
        fx_prim(DL_VEC_TYPE_BYTE),          fx_prim(DL_VEC_TYPE_SHORT),
        fx_prim(DL_VEC_TYPE_INT),           fx_prim(DL_VEC_TYPE_LONG),
        fx_prim(DL_VEC_TYPE_FLOAT),         fx_prim(DL_VEC_TYPE_DOUBLE),
        fx_prim(DL_VEC_TYPE_DATE),          fx_prim(DL_VEC_TYPE_TIMESTAMP),
        fx_prim(DL_VEC_TYPE_TIMESTAMP_NTZ), decimal_type(&arena, 38, 4),
        decimal_type(&arena, 5, 2),
    };
    for (size_t t = 0; t < DL_ARRAY_LEN(types); t++) {
        dl_vector *vec;
        CHECK_OK(dl_vec_new(NULL, types[t], 4, &vec, &err), &err);
        for (int64_t i = 0; i < 100; i++) {
            if (i % 7 == 3) {
                CHECK_OK(dl_vec_append_null(vec, &err), &err);
            } else {
                CHECK_OK(append_number(vec, i - 50, &err), &err);
            }
        }
        CHECK_INT_EQ(vec->length, 100);
        CHECK(((uintptr_t)vec->data % DL_VEC_ALIGN) == 0);
        CHECK(((uintptr_t)vec->validity % DL_VEC_ALIGN) == 0);
        CHECK_INT_EQ(dl_vec_null_count(vec), 14);
        dl_vec_unified u;
        dl_vec_unify(vec, vec->length, &u);
        CHECK(u.flat == vec && u.validity == vec->validity);
        for (int64_t i = 0; i < 100; i++) {
            CHECK_INT_EQ(u.sel[i], i);
            CHECK_INT_EQ(dl_vec_bit_get(u.validity, i), i % 7 != 3);
            if (i % 7 != 3) {
                CHECK(number_is(&u, i, i - 50));
            }
        }
        dl_vec_unref(vec);
    }
    dl_arena_destroy(&arena);
}

TEST(test_booleans_are_arrow_bit_packed) {
    dl_error err;
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_BOOLEAN), 0, &vec, &err), &err);
    for (int i = 0; i < 20; i++) {
        CHECK_OK(dl_vec_append_bool(vec, i % 3 == 0, &err), &err);
    }
    const uint8_t *bits = vec->data;
    /* rows 0, 3, 6 set in byte 0: 0b01001001; rows 9, 12, 15 in byte 1: 0b10010010 */
    CHECK_INT_EQ(bits[0], 0x49);
    CHECK_INT_EQ(bits[1], 0x92);
    dl_vec_unified u;
    dl_vec_unify(vec, vec->length, &u);
    for (int i = 0; i < 20; i++) {
        CHECK_INT_EQ(dl_vec_bit_get(u.data, u.sel[i]), i % 3 == 0);
    }
    CHECK(u.validity == NULL);
    dl_vec_unref(vec);
}

TEST(test_validity_is_absent_until_the_first_null_and_lsb_first) {
    dl_error err;
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_INT), 16, &vec, &err), &err);
    for (int i = 0; i < 10; i++) {
        CHECK_OK(dl_vec_append_i32(vec, i, &err), &err);
    }
    CHECK(vec->validity == NULL);
    CHECK_INT_EQ(dl_vec_null_count(vec), 0);
    CHECK_OK(dl_vec_append_null(vec, &err), &err);
    CHECK_OK(dl_vec_append_i32(vec, 11, &err), &err);
    CHECK_OK(dl_vec_set_null(vec, 3, &err), &err);
    CHECK(vec->validity != NULL);
    CHECK_INT_EQ(vec->validity[0], 0xF7);        /* row 3 cleared */
    CHECK_INT_EQ(vec->validity[1] & 0x0F, 0x0B); /* row 10 cleared, rows 8, 9, 11 set */
    CHECK(dl_vec_is_null(vec, 10) && dl_vec_is_null(vec, 3) && !dl_vec_is_null(vec, 11));
    CHECK_INT_EQ(dl_vec_null_count(vec), 2);
    dl_vec_unref(vec);
}

TEST(test_null_type_vectors_are_all_null) {
    dl_error err;
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_NULL), 0, &vec, &err), &err);
    for (int i = 0; i < 3; i++) {
        CHECK_OK(dl_vec_append_null(vec, &err), &err);
    }
    CHECK(vec->data == NULL);
    CHECK_INT_EQ(dl_vec_null_count(vec), 3);
    dl_vec_unified u;
    dl_vec_unify(vec, 3, &u);
    CHECK(u.validity != NULL && !dl_vec_bit_get(u.validity, 2));
    dl_vec_unref(vec);
}

/* ---- strings ----------------------------------------------------------------------------- */

TEST(test_short_strings_are_inlined_and_zero_padded) {
    dl_error err;
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_STRING), 0, &vec, &err), &err);
    CHECK_OK(dl_vec_append_str(vec, "", 0, &err), &err);
    CHECK_OK(dl_vec_append_str(vec, "hello", 5, &err), &err);
    CHECK_OK(dl_vec_append_str(vec, "twelve bytes", 12, &err), &err);
    CHECK_INT_EQ(vec->n_heaps, 0);
    const dl_vec_view *views = vec->data;
    CHECK_INT_EQ(views[1].inlined.length, 5);
    CHECK(memcmp(views[1].inlined.data, "hello\0\0\0\0\0\0\0", 12) == 0);
    CHECK(fx_str_is(dl_vec_get_str(vec, 0), ""));
    CHECK(fx_str_is(dl_vec_get_str(vec, 1), "hello"));
    CHECK(fx_str_is(dl_vec_get_str(vec, 2), "twelve bytes"));
    dl_vec_unref(vec);
}

TEST(test_long_strings_go_to_heaps_with_prefix_index_and_offset) {
    dl_error err;
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_BINARY), 0, &vec, &err), &err);
    char big[1000];
    for (int i = 0; i < 60; i++) {
        memset(big, 'a' + (i % 26), sizeof(big));
        size_t len = i == 0 ? 13 : sizeof(big) - (size_t)i;
        CHECK_OK(dl_vec_append_str(vec, big, len, &err), &err);
    }
    CHECK(vec->n_heaps >= 2); /* 60 KB does not fit the first 16 KiB heap */
    const dl_vec_view *views = vec->data;
    CHECK_INT_EQ(views[0].ref.length, 13);
    CHECK(memcmp(views[0].ref.prefix, "aaaa", 4) == 0);
    CHECK_INT_EQ(views[0].ref.buffer_index, 0);
    CHECK_INT_EQ(views[0].ref.offset, 0);
    CHECK(views[59].ref.buffer_index > 0);
    for (int i = 0; i < 60; i++) {
        dl_str s = dl_vec_get_str(vec, i);
        CHECK_INT_EQ(s.len, i == 0 ? 13 : 1000 - i);
        CHECK(s.ptr[0] == 'a' + (i % 26) && s.ptr[s.len - 1] == 'a' + (i % 26));
    }
    dl_vec_unref(vec);
}

static int n_page_releases;

static void
release_page(void *ctx, void *data) {
    (void)ctx;
    (void)data;
    n_page_releases++;
}

TEST(test_string_refs_point_into_a_foreign_page_without_copying) {
    dl_error err;
    static char page[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    dl_vec_buffer *buf;
    n_page_releases = 0;
    CHECK_OK(dl_vec_buffer_wrap(NULL, page, sizeof(page) - 1, release_page, NULL, &buf, &err),
             &err);
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_STRING), 0, &vec, &err), &err);
    int32_t heap;
    CHECK_OK(dl_vec_add_heap(vec, buf, &heap, &err), &err);
    dl_vec_buffer_unref(buf); /* the vector holds the page now */
    CHECK_OK(dl_vec_append_str_ref(vec, heap, 10, 20, &err), &err);
    CHECK_OK(dl_vec_append_str_ref(vec, heap, 0, 3, &err), &err);
    dl_str s = dl_vec_get_str(vec, 0);
    CHECK(s.ptr == page + 10 && s.len == 20); /* zero-copy */
    CHECK(fx_str_is(dl_vec_get_str(vec, 1), "012"));
    CHECK_STATUS(dl_vec_append_str_ref(vec, heap, 30, 10, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "string reference [30, +10) is outside heap 0 of 36 bytes");
    CHECK_STATUS(dl_vec_append_str_ref(vec, 7, 0, 1, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "heap 7 of a vector with 1 heaps");
    /* A copied long string must not be written into the foreign page. */
    CHECK_OK(dl_vec_append_str(vec, "a copied long string", 20, &err), &err);
    CHECK_INT_EQ(vec->n_heaps, 2);
    CHECK(strcmp(page, "0123456789abcdefghijklmnopqrstuvwxyz") == 0);
    CHECK_INT_EQ(n_page_releases, 0);
    dl_vec_unref(vec);
    CHECK_INT_EQ(n_page_releases, 1);
}

TEST(test_view_equality_and_order_settle_on_prefix_first) {
    dl_error err;
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_STRING), 0, &vec, &err), &err);
    const char *values[] = {
        "abc", "abd",         "abcdefghijklmnop", "abcdefghijklmnoq", "abcdefghijklmnop",
        "",    "abcdefghijkl"};
    for (size_t i = 0; i < DL_ARRAY_LEN(values); i++) {
        CHECK_OK(dl_vec_append_str(vec, values[i], strlen(values[i]), &err), &err);
    }
    const dl_vec_view *v = vec->data;
    for (size_t i = 0; i < DL_ARRAY_LEN(values); i++) {
        for (size_t j = 0; j < DL_ARRAY_LEN(values); j++) {
            int expected = strcmp(values[i], values[j]);
            int got = dl_vec_view_compare(vec, &v[i], vec, &v[j]);
            CHECK((expected < 0) == (got < 0) && (expected > 0) == (got > 0));
            CHECK_INT_EQ(dl_vec_view_equal(vec, &v[i], vec, &v[j]), expected == 0);
        }
    }
    dl_vec_unref(vec);
}

/* ---- nested ------------------------------------------------------------------------------ */

TEST(test_struct_array_and_map_hold_nulls_at_every_level) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *type;
    CHECK_OK(fx_nested_type(&arena, &type, &err), &err);
    dl_vector *vec;
    CHECK_OK(fx_nested_vector(NULL, type, &vec, &err), &err);
    CHECK_INT_EQ(vec->length, 4);
    for (int r = 0; r < 4; r++) {
        CHECK(nested_row_is(vec, r, r));
        CHECK_INT_EQ(vec->children[0]->length, 4); /* a null struct row keeps its slots */
    }
    /* Arrow invariants: offsets start at 0, a null list is an empty range. */
    const int32_t *tag_offsets = vec->children[1]->data;
    CHECK_INT_EQ(tag_offsets[0], 0);
    CHECK_INT_EQ(tag_offsets[2], tag_offsets[3]);
    CHECK_INT_EQ(vec->children[2]->children[0]->length, 3); /* three map entries */
    CHECK(vec->children[2]->children[0]->validity == NULL); /* entries are never null */
    dl_vec_unref(vec);
    dl_arena_destroy(&arena);
}

TEST(test_struct_row_with_a_missing_field_is_invalid) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *type;
    CHECK_OK(fx_nested_type(&arena, &type, &err), &err);
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, type, 0, &vec, &err), &err);
    CHECK_OK(dl_vec_append_i32(vec->children[0], 1, &err), &err);
    CHECK_STATUS(dl_vec_append_struct(vec, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "struct row 0: field 'tags' has 0 rows, expected 1");
    dl_vec_unref(vec);
    dl_arena_destroy(&arena);
}

/* ---- dictionary and constant ---------------------------------------------------------------- */

/* A dictionary of strings: "a", "bb", a long one, and a null entry. */
static dl_status
string_dict(dl_vector **out, dl_error *err) {
    dl_vector *dict;
    DL_TRY(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_STRING), 4, &dict, err));
    dl_status s = dl_vec_append_str(dict, "a", 1, err);
    if (s == DL_OK) {
        s = dl_vec_append_str(dict, "bb", 2, err);
    }
    if (s == DL_OK) {
        s = dl_vec_append_str(dict, "a long dictionary entry", 23, err);
    }
    if (s == DL_OK) {
        s = dl_vec_append_null(dict, err);
    }
    if (s != DL_OK) {
        dl_vec_unref(dict);
        return s;
    }
    *out = dict;
    return DL_OK;
}

TEST(test_dictionary_vector_unifies_through_its_indices) {
    dl_error err;
    dl_vector *dict;
    CHECK_OK(string_dict(&dict, &err), &err);
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_STRING), 0, &vec, &err), &err);
    CHECK_OK(dl_vec_set_dict(vec, dict, &err), &err);
    int32_t idx[] = {2, 0, -1, 1, 3, 2};
    for (size_t i = 0; i < DL_ARRAY_LEN(idx); i++) {
        if (idx[i] < 0) {
            CHECK_OK(dl_vec_append_null(vec, &err), &err);
        } else {
            CHECK_OK(dl_vec_append_index(vec, idx[i], &err), &err);
        }
    }
    CHECK_OK(dl_vec_check_indices(vec, &err), &err);
    dl_vec_unified u;
    dl_vec_unify(vec, vec->length, &u);
    CHECK(u.flat == dict && u.data == dict->data);
    CHECK(u.sel == (const uint32_t *)vec->data); /* the indices, not a copy */
    CHECK(u.validity == u.validity_scratch);     /* index nulls and dictionary nulls combined */
    const char *expected[] = {"a long dictionary entry", "a", NULL, "bb", NULL,
                              "a long dictionary entry"};
    for (int64_t i = 0; i < vec->length; i++) {
        int is_valid = dl_vec_bit_get(u.validity, i);
        CHECK_INT_EQ(is_valid, expected[i] != NULL);
        CHECK_INT_EQ(dl_vec_is_null(vec, i), expected[i] == NULL);
        if (is_valid) {
            CHECK(fx_str_is(dl_vec_view_str(u.flat, (const dl_vec_view *)u.data + u.sel[i]),
                            expected[i]));
        }
    }
    CHECK_INT_EQ(dl_vec_null_count(vec), 2);
    dl_vec_unref(dict);
    CHECK_INT_EQ(vec->dict->length, 4); /* the vector keeps the dictionary alive */
    dl_vec_unref(vec);
}

TEST(test_dictionary_indices_are_checked) {
    dl_error err;
    dl_vector *dict;
    CHECK_OK(string_dict(&dict, &err), &err);
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_STRING), 0, &vec, &err), &err);
    CHECK_OK(dl_vec_set_dict(vec, dict, &err), &err);
    CHECK_STATUS(dl_vec_append_index(vec, 4, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "dictionary index 4 is outside the dictionary of 4 entries");
    /* A reader writing raw indices from a file gets CORRUPT with the row. */
    CHECK_OK(dl_vec_reserve(vec, 3, &err), &err);
    int32_t *indices = vec->data;
    indices[0] = 1;
    indices[1] = 0;
    indices[2] = 9;
    dl_vec_set_length(vec, 3);
    CHECK_STATUS(dl_vec_check_indices(vec, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "dictionary index 9 at row 2 is outside the dictionary of 4 entries");
    dl_vec_unref(vec);
    dl_vec_unref(dict);
}

TEST(test_set_dict_refuses_other_types_and_non_empty_vectors) {
    dl_error err;
    dl_vector *dict;
    CHECK_OK(string_dict(&dict, &err), &err);
    dl_vector *ints;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_INT), 0, &ints, &err), &err);
    CHECK_STATUS(dl_vec_set_dict(ints, dict, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "a string dictionary for a int vector");
    CHECK_OK(dl_vec_append_i32(ints, 1, &err), &err);
    CHECK_STATUS(dl_vec_set_dict(ints, ints, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "only an empty flat vector");
    dl_vec_unref(ints);
    dl_vec_unref(dict);
}

TEST(test_constant_vector_unifies_to_element_zero) {
    dl_error err;
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_LONG), 1, &vec, &err), &err);
    CHECK_OK(dl_vec_append_i64(vec, 42, &err), &err);
    dl_vec_make_const(vec, 1000);
    CHECK_INT_EQ(vec->length, 1000);
    dl_vec_unified u;
    dl_vec_unify(vec, 1000, &u);
    CHECK(u.validity == NULL);
    for (int i = 0; i < 1000; i++) {
        CHECK_INT_EQ(((const int64_t *)u.data)[u.sel[i]], 42);
    }
    dl_vector *nulls;
    CHECK_OK(dl_vec_new_const_null(NULL, fx_prim(DL_VEC_TYPE_STRING), 2048, &nulls, &err), &err);
    dl_vec_unify(nulls, 2048, &u);
    CHECK(u.validity != NULL && !dl_vec_bit_get(u.validity, 2047));
    CHECK_INT_EQ(dl_vec_null_count(nulls), 2048);
    CHECK(dl_vec_is_null(nulls, 1999));
    CHECK_STATUS(dl_vec_reserve(nulls, 10, &err), DL_ERR_INVALID_ARG, &err);
    dl_vec_unref(nulls);
    dl_vec_unref(vec);
}

TEST(test_flatten_expands_constant_and_dictionary_vectors) {
    dl_error err;
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_STRING), 1, &vec, &err), &err);
    CHECK_OK(dl_vec_append_str(vec, "a partition value", 17, &err), &err);
    dl_vec_make_const(vec, 5);
    CHECK_OK(dl_vec_flatten(vec, &err), &err);
    CHECK_INT_EQ(vec->layout, DL_VEC_FLAT);
    CHECK_INT_EQ(vec->length, 5);
    for (int i = 0; i < 5; i++) {
        CHECK(fx_str_is(dl_vec_get_str(vec, i), "a partition value"));
    }
    CHECK_INT_EQ(vec->n_heaps, 1); /* the five views share one heap, not five copies */
    dl_vec_unref(vec);

    dl_vector *dict;
    CHECK_OK(string_dict(&dict, &err), &err);
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_STRING), 0, &vec, &err), &err);
    CHECK_OK(dl_vec_set_dict(vec, dict, &err), &err);
    CHECK_OK(dl_vec_append_index(vec, 3, &err), &err);
    CHECK_OK(dl_vec_append_index(vec, 2, &err), &err);
    CHECK_OK(dl_vec_append_null(vec, &err), &err);
    CHECK_OK(dl_vec_flatten(vec, &err), &err);
    CHECK(vec->dict == NULL && vec->layout == DL_VEC_FLAT);
    CHECK(dl_vec_is_null(vec, 0) && dl_vec_is_null(vec, 2) && !dl_vec_is_null(vec, 1));
    CHECK(fx_str_is(dl_vec_get_str(vec, 1), "a long dictionary entry"));
    CHECK(vec->heaps[0] == dict->heaps[0]); /* the entry's bytes are shared, not copied */
    dl_vec_unref(vec);
    dl_vec_unref(dict);
}

/* ---- copies and slices ------------------------------------------------------------------- */

TEST(test_copy_sel_gathers_nested_rows) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *type;
    CHECK_OK(fx_nested_type(&arena, &type, &err), &err);
    dl_vector *src;
    CHECK_OK(fx_nested_vector(NULL, type, &src, &err), &err);
    dl_vector *dst;
    CHECK_OK(dl_vec_new(NULL, type, 0, &dst, &err), &err);
    uint32_t rows[] = {3, 1, 0, 0, 2};
    CHECK_OK(dl_vec_copy_sel(dst, src, rows, 5, &err), &err);
    CHECK_OK(dl_vec_copy_sel(dst, src, NULL, 4, &err), &err);
    CHECK_INT_EQ(dst->length, 9);
    int expected[] = {3, 1, 0, 0, 2, 0, 1, 2, 3};
    for (int k = 0; k < 9; k++) {
        CHECK(nested_row_is(dst, k, expected[k]));
    }
    dl_vec_unref(src); /* dst must not depend on src's lifetime */
    for (int k = 0; k < 9; k++) {
        CHECK(nested_row_is(dst, k, expected[k]));
    }
    dl_vector *ints;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_INT), 0, &ints, &err), &err);
    CHECK_STATUS(dl_vec_copy_sel(ints, dst, NULL, 1, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "cannot copy struct rows into a int vector");
    dl_vec_unref(ints);
    dl_vec_unref(dst);
    dl_arena_destroy(&arena);
}

TEST(test_aligned_slice_shares_buffers_and_unaligned_slice_copies) {
    dl_error err;
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_INT), 0, &vec, &err), &err);
    for (int i = 0; i < 5000; i++) { /* longer than a batch: a whole page */
        if (i % 10 == 9) {
            CHECK_OK(dl_vec_append_null(vec, &err), &err);
        } else {
            CHECK_OK(dl_vec_append_i32(vec, i, &err), &err);
        }
    }
    for (int64_t off = 0; off < 5000; off += DL_BATCH_CAPACITY) {
        dl_vector *batch;
        int64_t n = DL_MIN((int64_t)DL_BATCH_CAPACITY, 5000 - off);
        CHECK_OK(dl_vec_slice(vec, off, n, &batch, &err), &err);
        CHECK(batch->data == (int32_t *)vec->data + off);
        CHECK(batch->validity == vec->validity + off / 8);
        CHECK(batch->data_buf == vec->data_buf);
        CHECK_INT_EQ(dl_vec_buffer_refcount(vec->data_buf), 2);
        dl_vec_unified u;
        dl_vec_unify(batch, n, &u);
        for (int64_t i = 0; i < n; i++) {
            int64_t row = off + i;
            CHECK_INT_EQ(u.validity == NULL || dl_vec_bit_get(u.validity, i), row % 10 != 9);
            if (row % 10 != 9) {
                CHECK_INT_EQ(((const int32_t *)u.data)[u.sel[i]], row);
            }
        }
        dl_vec_unref(batch);
    }
    CHECK_INT_EQ(dl_vec_buffer_refcount(vec->data_buf), 1);
    dl_vector *odd;
    CHECK_OK(dl_vec_slice(vec, 3, 20, &odd, &err), &err);
    CHECK(odd->data_buf != vec->data_buf);
    CHECK_INT_EQ(((const int32_t *)odd->data)[0], 3);
    CHECK(dl_vec_is_null(odd, 6)); /* row 9 of the source */
    dl_vec_unref(odd);
    CHECK_STATUS(dl_vec_slice(vec, 4990, 20, &odd, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "slice [4990, +20) is outside a vector of 5000 rows");
    dl_vec_unref(vec);
}

TEST(test_slices_of_nested_and_dictionary_vectors) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *type;
    CHECK_OK(fx_nested_type(&arena, &type, &err), &err);
    dl_vector *src;
    CHECK_OK(dl_vec_new(NULL, type, 0, &src, &err), &err);
    for (int i = 0; i < 5; i++) {
        CHECK_OK(fx_nested_rows(src, &err), &err);
    }
    dl_vector *shared;
    CHECK_OK(dl_vec_slice(src, 8, 9, &shared, &err), &err);
    dl_vector *copied;
    CHECK_OK(dl_vec_slice(src, 5, 9, &copied, &err), &err);
    CHECK(shared->children[0]->data_buf == src->children[0]->data_buf);
    CHECK_INT_EQ(shared->children[0]->length, 9);
    for (int k = 0; k < 9; k++) {
        CHECK(nested_row_is(shared, k, k % 4));
        CHECK(nested_row_is(copied, k, (5 + k) % 4));
    }
    dl_vec_unref(shared);
    dl_vec_unref(copied);
    dl_vec_unref(src);

    dl_vector *dict;
    CHECK_OK(string_dict(&dict, &err), &err);
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_STRING), 0, &vec, &err), &err);
    CHECK_OK(dl_vec_set_dict(vec, dict, &err), &err);
    for (int i = 0; i < 20; i++) {
        CHECK_OK(dl_vec_append_index(vec, i % 3, &err), &err);
    }
    CHECK_OK(dl_vec_slice(vec, 16, 4, &shared, &err), &err);
    CHECK(shared->layout == DL_VEC_DICT && shared->dict == dict);
    const dl_vector *flat;
    int64_t e = dl_vec_resolve(shared, 0, &flat); /* row 16: index 1 */
    CHECK(flat == dict && fx_str_is(dl_vec_get_str(flat, e), "bb"));
    dl_vec_unref(shared);
    dl_vec_unref(vec);
    dl_vec_unref(dict);
    dl_arena_destroy(&arena);
}

/* ---- copy-on-write and reuse ------------------------------------------------------------- */

TEST(test_writing_a_shared_buffer_copies_it_first) {
    dl_error err;
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_INT), 64, &vec, &err), &err);
    for (int i = 0; i < 10; i++) {
        CHECK_OK(dl_vec_append_i32(vec, i, &err), &err);
    }
    CHECK_OK(dl_vec_set_null(vec, 0, &err), &err);
    /* Someone (an exported array) holds the buffers. */
    dl_vec_buffer *data = dl_vec_buffer_ref(vec->data_buf);
    dl_vec_buffer *validity = dl_vec_buffer_ref(vec->validity_buf);
    CHECK_OK(dl_vec_append_i32(vec, 10, &err), &err);
    CHECK_OK(dl_vec_set_null(vec, 5, &err), &err);
    CHECK(vec->data_buf != data && vec->validity_buf != validity);
    CHECK_INT_EQ(((const int32_t *)vec->data)[9], 9);
    CHECK_INT_EQ(((const int32_t *)data->data)[9], 9);
    CHECK(dl_vec_bit_get(validity->data, 5)); /* the held bitmap did not change */
    CHECK(dl_vec_is_null(vec, 5) && dl_vec_is_null(vec, 0));
    dl_vec_buffer_unref(data);
    dl_vec_buffer_unref(validity);
    dl_vec_unref(vec);
}

TEST(test_reset_keeps_unique_buffers_and_lets_shared_ones_go) {
    dl_error err;
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_STRING), 128, &vec, &err), &err);
    CHECK_OK(dl_vec_append_str(vec, "a string longer than twelve", 27, &err), &err);
    CHECK_OK(dl_vec_append_null(vec, &err), &err);
    void *data = vec->data;
    dl_vec_buffer *heap = vec->heaps[0];
    CHECK_OK(dl_vec_reset(vec, &err), &err);
    CHECK(vec->data == data && vec->heaps[0] == heap && heap->size == 0);
    CHECK(vec->validity == NULL && vec->length == 0);
    CHECK_OK(dl_vec_append_str(vec, "another long string here", 24, &err), &err);
    dl_vec_buffer *held = dl_vec_buffer_ref(vec->data_buf);
    dl_vec_buffer *held_heap = dl_vec_buffer_ref(vec->heaps[0]);
    CHECK_OK(dl_vec_reset(vec, &err), &err);
    CHECK(vec->data_buf == NULL && vec->n_heaps == 0);
    CHECK_OK(dl_vec_append_str(vec, "a third long string, new", 24, &err), &err);
    CHECK(memcmp(held_heap->data, "another long string here", 24) == 0);
    dl_vec_buffer_unref(held);
    dl_vec_buffer_unref(held_heap);
    dl_vec_unref(vec);
}

TEST(test_reset_replaces_a_shared_child) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *type;
    CHECK_OK(fx_nested_type(&arena, &type, &err), &err);
    dl_vector *vec;
    CHECK_OK(fx_nested_vector(NULL, type, &vec, &err), &err);
    dl_vector *ids = dl_vec_ref(vec->children[0]); /* a projection of field id */
    CHECK_OK(dl_vec_reset(vec, &err), &err);
    CHECK(vec->children[0] != ids);
    CHECK_INT_EQ(ids->length, 4);
    CHECK_INT_EQ(((const int32_t *)ids->data)[3], 4);
    CHECK_OK(fx_nested_rows(vec, &err), &err);
    CHECK(nested_row_is(vec, 3, 3));
    dl_vec_unref(ids);
    dl_vec_unref(vec);
    dl_arena_destroy(&arena);
}

TEST(test_vector_length_is_limited_to_int32) {
    dl_error err;
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_BOOLEAN), 0, &vec, &err), &err);
    CHECK_STATUS(dl_vec_reserve(vec, (int64_t)INT32_MAX + 1, &err), DL_ERR_LIMIT, &err);
    CHECK_ERR_CONTAINS(&err, "exceeds the limit of 2147483647 rows");
    dl_vec_unref(vec);
    CHECK_STATUS(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_INT), -1, &vec, &err), DL_ERR_INVALID_ARG,
                 &err);
}

/* ---- out of memory ----------------------------------------------------------------------- */

/* Everything a reader and an operator do to vectors, on one allocator. */
static dl_status
vector_workload(const dl_allocator *alloc, const dl_type *type, dl_error *err) {
    dl_vector *vec = NULL;
    dl_vector *copy = NULL;
    dl_vector *slice = NULL;
    dl_vector *dict = NULL;
    dl_vector *dvec = NULL;
    dl_status s = dl_vec_new(alloc, type, 1, &vec, err);
    for (int i = 0; i < 3 && s == DL_OK; i++) {
        s = fx_nested_rows(vec, err);
    }
    if (s == DL_OK) {
        s = dl_vec_new(alloc, type, 0, &copy, err);
    }
    uint32_t rows[] = {11, 0, 3, 6, 2};
    if (s == DL_OK) {
        s = dl_vec_copy_sel(copy, vec, rows, 5, err);
    }
    if (s == DL_OK) {
        s = dl_vec_slice(vec, 3, 5, &slice, err);
    }
    if (s == DL_OK) {
        s = dl_vec_new(alloc, fx_prim(DL_VEC_TYPE_STRING), 0, &dict, err);
    }
    for (int i = 0; i < 40 && s == DL_OK; i++) {
        s = dl_vec_append_str(dict, "a dictionary entry of some length", 33, err);
    }
    if (s == DL_OK) {
        s = dl_vec_new(alloc, fx_prim(DL_VEC_TYPE_STRING), 0, &dvec, err);
    }
    if (s == DL_OK) {
        s = dl_vec_set_dict(dvec, dict, err);
    }
    for (int i = 0; i < 30 && s == DL_OK; i++) {
        s = i % 5 == 0 ? dl_vec_append_null(dvec, err) : dl_vec_append_index(dvec, i, err);
    }
    if (s == DL_OK) {
        s = dl_vec_flatten(dvec, err);
    }
    if (s == DL_OK) {
        s = dl_vec_reset(vec, err);
    }
    dl_vec_unref(vec);
    dl_vec_unref(copy);
    dl_vec_unref(slice);
    dl_vec_unref(dict);
    dl_vec_unref(dvec);
    return s;
}

TEST(test_out_of_memory_anywhere_is_nomem_and_leaks_nothing) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *type;
    CHECK_OK(fx_nested_type(&arena, &type, &err), &err);
    int64_t n_failures = 0;
    for (int64_t fail_at = 1;; fail_at++) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, fail_at, false);
        dl_status s = vector_workload(&fa.base, type, &err);
        CHECK_INT_EQ(fa.live_blocks, 0);
        CHECK_INT_EQ(fa.live_bytes, 0);
        if (fa.n_failures == 0) {
            CHECK_OK(s, &err);
            break;
        }
        CHECK_STATUS(s, DL_ERR_NOMEM, &err);
        CHECK_ERR_CONTAINS(&err, "out of memory");
        n_failures++;
    }
    CHECK(n_failures > 50);
    dl_arena_destroy(&arena);
}

int
main(void) {
    RUN(test_every_fixed_width_type_round_trips_through_builder_and_unify);
    RUN(test_booleans_are_arrow_bit_packed);
    RUN(test_validity_is_absent_until_the_first_null_and_lsb_first);
    RUN(test_null_type_vectors_are_all_null);
    RUN(test_short_strings_are_inlined_and_zero_padded);
    RUN(test_long_strings_go_to_heaps_with_prefix_index_and_offset);
    RUN(test_string_refs_point_into_a_foreign_page_without_copying);
    RUN(test_view_equality_and_order_settle_on_prefix_first);
    RUN(test_struct_array_and_map_hold_nulls_at_every_level);
    RUN(test_struct_row_with_a_missing_field_is_invalid);
    RUN(test_dictionary_vector_unifies_through_its_indices);
    RUN(test_dictionary_indices_are_checked);
    RUN(test_set_dict_refuses_other_types_and_non_empty_vectors);
    RUN(test_constant_vector_unifies_to_element_zero);
    RUN(test_flatten_expands_constant_and_dictionary_vectors);
    RUN(test_copy_sel_gathers_nested_rows);
    RUN(test_aligned_slice_shares_buffers_and_unaligned_slice_copies);
    RUN(test_slices_of_nested_and_dictionary_vectors);
    RUN(test_writing_a_shared_buffer_copies_it_first);
    RUN(test_reset_keeps_unique_buffers_and_lets_shared_ones_go);
    RUN(test_reset_replaces_a_shared_child);
    RUN(test_vector_length_is_limited_to_int32);
    RUN(test_out_of_memory_anywhere_is_nomem_and_leaks_nothing);
    return harness_finish();
}
