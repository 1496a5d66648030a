/* SPDX-License-Identifier: Apache-2.0 */
#include "base/arena.h"
#include "base/buf.h"
#include "harness.h"
#include "vector/vec_type.h"

static const dl_type *
prim(dl_type_id id) {
    return dl_vec_type_prim(id);
}

/* Checks that type prints as expected in Spark's spelling. */
static int
spells(const dl_type *type, const char *expected) {
    dl_buf buf;
    dl_error err;
    dl_buf_init(&buf, NULL);
    int ok = dl_vec_type_to_string(type, &buf, &err) == DL_OK &&
             strcmp(dl_buf_cstr(&buf), expected) == 0;
    if (!ok) {
        printf("  spelled \"%s\", expected \"%s\"\n", dl_buf_cstr(&buf), expected);
    }
    dl_buf_destroy(&buf);
    return ok;
}

TEST(test_primitive_types_spell_like_spark) {
    CHECK(spells(prim(DL_VEC_TYPE_BOOLEAN), "boolean"));
    CHECK(spells(prim(DL_VEC_TYPE_BYTE), "tinyint"));
    CHECK(spells(prim(DL_VEC_TYPE_SHORT), "smallint"));
    CHECK(spells(prim(DL_VEC_TYPE_INT), "int"));
    CHECK(spells(prim(DL_VEC_TYPE_LONG), "bigint"));
    CHECK(spells(prim(DL_VEC_TYPE_FLOAT), "float"));
    CHECK(spells(prim(DL_VEC_TYPE_DOUBLE), "double"));
    CHECK(spells(prim(DL_VEC_TYPE_STRING), "string"));
    CHECK(spells(prim(DL_VEC_TYPE_BINARY), "binary"));
    CHECK(spells(prim(DL_VEC_TYPE_DATE), "date"));
    CHECK(spells(prim(DL_VEC_TYPE_TIMESTAMP), "timestamp"));
    CHECK(spells(prim(DL_VEC_TYPE_TIMESTAMP_NTZ), "timestamp_ntz"));
    CHECK(spells(prim(DL_VEC_TYPE_NULL), "void"));
}

TEST(test_parameterized_ids_have_no_constant) {
    CHECK(prim(DL_VEC_TYPE_DECIMAL) == NULL);
    CHECK(prim(DL_VEC_TYPE_STRUCT) == NULL);
    CHECK(prim(DL_VEC_TYPE_ARRAY) == NULL);
    CHECK(prim(DL_VEC_TYPE_MAP) == NULL);
    CHECK(prim((dl_type_id)99) == NULL);
    CHECK_STR_EQ(dl_vec_type_name((dl_type_id)99), "?");
}

TEST(test_nested_types_spell_like_spark) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *dec;
    const dl_type *arr;
    const dl_type *map;
    const dl_type *st;
    const dl_type *nested;
    CHECK_OK(dl_vec_type_decimal(&arena, 10, 2, &dec, &err), &err);
    CHECK(spells(dec, "decimal(10,2)"));
    CHECK_OK(dl_vec_type_array(&arena, prim(DL_VEC_TYPE_INT), true, &arr, &err), &err);
    CHECK(spells(arr, "array<int>"));
    CHECK_OK(
        dl_vec_type_map(&arena, prim(DL_VEC_TYPE_STRING), prim(DL_VEC_TYPE_INT), true, &map, &err),
        &err);
    CHECK(spells(map, "map<string,int>"));
    dl_type_field fields[] = {
        {.name = "a", .type = prim(DL_VEC_TYPE_INT), .is_nullable = true},
        {.name = "b", .type = prim(DL_VEC_TYPE_STRING), .is_nullable = false},
    };
    CHECK_OK(dl_vec_type_struct(&arena, fields, 2, &st, &err), &err);
    CHECK(spells(st, "struct<a:int,b:string>"));
    dl_type_field outer[] = {
        {.name = "m", .type = map, .is_nullable = true},
        {.name = "s", .type = st, .is_nullable = true},
        {.name = "d", .type = dec, .is_nullable = true},
        {.name = "t", .type = prim(DL_VEC_TYPE_TIMESTAMP_NTZ), .is_nullable = true},
    };
    CHECK_OK(dl_vec_type_struct(&arena, outer, 4, &nested, &err), &err);
    CHECK_OK(dl_vec_type_array(&arena, nested, false, &nested, &err), &err);
    CHECK(spells(nested, "array<struct<m:map<string,int>,s:struct<a:int,b:string>,d:decimal(10,2),"
                         "t:timestamp_ntz>>"));
    dl_arena_destroy(&arena);
}

TEST(test_struct_type_copies_names_and_finds_fields) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    char name[] = "price";
    dl_type_field f = {.name = name, .type = prim(DL_VEC_TYPE_DOUBLE), .is_nullable = true};
    const dl_type *st;
    CHECK_OK(dl_vec_type_struct(&arena, &f, 1, &st, &err), &err);
    name[0] = 'X';
    CHECK_STR_EQ(st->fields[0].name, "price");
    CHECK_INT_EQ(dl_vec_type_field_index(st, DL_STR("price")), 0);
    CHECK_INT_EQ(dl_vec_type_field_index(st, DL_STR("Price")), -1);
    CHECK_INT_EQ(dl_vec_type_field_index(prim(DL_VEC_TYPE_INT), DL_STR("price")), -1);
    const dl_type *empty;
    CHECK_OK(dl_vec_type_struct(&arena, NULL, 0, &empty, &err), &err);
    CHECK(spells(empty, "struct<>"));
    dl_arena_destroy(&arena);
}

TEST(test_decimal_parameters_are_validated) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *t;
    CHECK_OK(dl_vec_type_decimal(&arena, 38, 38, &t, &err), &err);
    CHECK_OK(dl_vec_type_decimal(&arena, 1, 0, &t, &err), &err);
    CHECK_STATUS(dl_vec_type_decimal(&arena, 39, 2, &t, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "decimal(39,2): precision 39 exceeds the maximum 38");
    CHECK_STATUS(dl_vec_type_decimal(&arena, 5, 6, &t, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "decimal(5,6)");
    CHECK_STATUS(dl_vec_type_decimal(&arena, 0, 0, &t, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_STATUS(dl_vec_type_decimal(&arena, 10, -1, &t, &err), DL_ERR_INVALID_ARG, &err);
    dl_arena_destroy(&arena);
}

TEST(test_bad_nested_arguments_are_refused) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *t;
    CHECK_STATUS(dl_vec_type_array(&arena, NULL, true, &t, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_STATUS(dl_vec_type_map(&arena, NULL, prim(DL_VEC_TYPE_INT), true, &t, &err),
                 DL_ERR_INVALID_ARG, &err);
    dl_type_field f = {.name = NULL, .type = prim(DL_VEC_TYPE_INT)};
    CHECK_STATUS(dl_vec_type_struct(&arena, &f, 1, &t, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "field 0 has no name");
    dl_arena_destroy(&arena);
}

TEST(test_equality_is_deep_and_sees_names_and_nullability) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *d1;
    const dl_type *d2;
    const dl_type *d3;
    CHECK_OK(dl_vec_type_decimal(&arena, 10, 2, &d1, &err), &err);
    CHECK_OK(dl_vec_type_decimal(&arena, 10, 2, &d2, &err), &err);
    CHECK_OK(dl_vec_type_decimal(&arena, 10, 3, &d3, &err), &err);
    CHECK(dl_vec_type_equal(d1, d2));
    CHECK(!dl_vec_type_equal(d1, d3));
    dl_type_field a[] = {{.name = "x", .type = d1, .is_nullable = true}};
    dl_type_field b[] = {{.name = "x", .type = d2, .is_nullable = true}};
    dl_type_field c[] = {{.name = "y", .type = d2, .is_nullable = true}};
    dl_type_field d[] = {{.name = "x", .type = d2, .is_nullable = false}};
    const dl_type *sa;
    const dl_type *sb;
    const dl_type *sc;
    const dl_type *sd;
    CHECK_OK(dl_vec_type_struct(&arena, a, 1, &sa, &err), &err);
    CHECK_OK(dl_vec_type_struct(&arena, b, 1, &sb, &err), &err);
    CHECK_OK(dl_vec_type_struct(&arena, c, 1, &sc, &err), &err);
    CHECK_OK(dl_vec_type_struct(&arena, d, 1, &sd, &err), &err);
    CHECK(dl_vec_type_equal(sa, sb));
    CHECK(!dl_vec_type_equal(sa, sc));
    CHECK(!dl_vec_type_equal(sa, sd));
    const dl_type *m1;
    const dl_type *m2;
    CHECK_OK(dl_vec_type_map(&arena, prim(DL_VEC_TYPE_STRING), sa, true, &m1, &err), &err);
    CHECK_OK(dl_vec_type_map(&arena, prim(DL_VEC_TYPE_STRING), sa, false, &m2, &err), &err);
    CHECK(!dl_vec_type_equal(m1, m2));
    CHECK(!dl_vec_type_equal(prim(DL_VEC_TYPE_TIMESTAMP), prim(DL_VEC_TYPE_TIMESTAMP_NTZ)));
    CHECK(!dl_vec_type_equal(prim(DL_VEC_TYPE_INT), NULL));
    dl_arena_destroy(&arena);
}

TEST(test_physical_classes_and_widths) {
    CHECK_INT_EQ(dl_vec_type_phys(prim(DL_VEC_TYPE_BOOLEAN)), DL_VEC_PHYS_BIT);
    CHECK_INT_EQ(dl_vec_type_width(prim(DL_VEC_TYPE_BOOLEAN)), 0);
    CHECK_INT_EQ(dl_vec_type_width(prim(DL_VEC_TYPE_BYTE)), 1);
    CHECK_INT_EQ(dl_vec_type_width(prim(DL_VEC_TYPE_SHORT)), 2);
    CHECK_INT_EQ(dl_vec_type_phys(prim(DL_VEC_TYPE_DATE)), DL_VEC_PHYS_I32);
    CHECK_INT_EQ(dl_vec_type_phys(prim(DL_VEC_TYPE_TIMESTAMP_NTZ)), DL_VEC_PHYS_I64);
    CHECK_INT_EQ(dl_vec_type_width(prim(DL_VEC_TYPE_STRING)), 16);
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *dec;
    CHECK_OK(dl_vec_type_decimal(&arena, 5, 1, &dec, &err), &err);
    CHECK_INT_EQ(dl_vec_type_width(dec), 16); /* always decimal128, whatever the precision */
    CHECK_INT_EQ(dl_vec_type_phys(dec), DL_VEC_PHYS_I128);
    const dl_type *arr;
    CHECK_OK(dl_vec_type_array(&arena, dec, true, &arr, &err), &err);
    CHECK_INT_EQ(dl_vec_type_phys(arr), DL_VEC_PHYS_LIST);
    CHECK(dl_vec_type_is_nested(arr));
    CHECK(!dl_vec_type_is_nested(dec));
    dl_arena_destroy(&arena);
}

TEST(test_type_construction_out_of_memory_is_nomem) {
    for (int64_t fail_at = 1; fail_at <= 3; fail_at++) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, fail_at, true);
        dl_arena arena;
        dl_error err;
        dl_arena_init(&arena, &fa.base, 64);
        const dl_type *map = NULL;
        dl_status s = dl_vec_type_map(&arena, prim(DL_VEC_TYPE_STRING), prim(DL_VEC_TYPE_INT), true,
                                      &map, &err);
        CHECK(s == DL_OK || s == DL_ERR_NOMEM);
        if (s == DL_ERR_NOMEM) {
            CHECK_ERR_CONTAINS(&err, "out of memory");
        }
        dl_arena_destroy(&arena);
        CHECK_INT_EQ(fa.live_blocks, 0);
    }
}

int
main(void) {
    RUN(test_primitive_types_spell_like_spark);
    RUN(test_parameterized_ids_have_no_constant);
    RUN(test_nested_types_spell_like_spark);
    RUN(test_struct_type_copies_names_and_finds_fields);
    RUN(test_decimal_parameters_are_validated);
    RUN(test_bad_nested_arguments_are_refused);
    RUN(test_equality_is_deep_and_sees_names_and_nullability);
    RUN(test_physical_classes_and_widths);
    RUN(test_type_construction_out_of_memory_is_nomem);
    return harness_finish();
}
