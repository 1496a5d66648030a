/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Arrow C Data Interface import: an export imported back reads the same for every type,
 * shares the buffers it can, releases the array with the last vector; hand-built arrays with
 * offsets, 32-bit string offsets, unsigned and nanosecond values, dictionaries; values the
 * engine cannot hold are refused.
 */
#include <stdint.h>
#include <string.h>

#include "arrow_check.h"
#include "harness.h"
#include "vec_fixture.h"
#include "vector/vec_arrow.h"

/* Exports vec twice, imports the first export, checks it against the second. */
static int
roundtrip(const dl_vector *vec, dl_vector **out_imported) {
    dl_error err;
    struct ArrowSchema sa, sb;
    struct ArrowArray aa, ab;
    if (dl_vec_arrow_export(vec, "col", 0, &sa, &aa, &err) != DL_OK ||
        dl_vec_arrow_export(vec, "col", 0, &sb, &ab, &err) != DL_OK) {
        return 0;
    }
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *type = NULL;
    dl_vector *imported = NULL;
    int ok = dl_vec_arrow_import_field_type(&sa, &arena, &type, &err) == DL_OK &&
             dl_vec_type_equal(type, vec->type) &&
             dl_vec_arrow_import(&sa, &aa, vec->type, NULL, &imported, &err) == DL_OK &&
             aa.release == NULL && arrow_check(&sb, &ab, imported);
    if (!ok) {
        printf("  roundtrip failed: %s\n", err.msg);
    }
    if (aa.release != NULL) {
        aa.release(&aa);
    }
    ab.release(&ab);
    sa.release(&sa);
    sb.release(&sb);
    dl_arena_destroy(&arena);
    if (out_imported != NULL && ok) {
        *out_imported = imported;
    } else {
        dl_vec_unref(imported);
    }
    return ok;
}

TEST(test_every_primitive_type_imports_back_to_the_same_rows) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *d38 = NULL;
    CHECK_OK(dl_vec_type_decimal(&arena, 38, 10, &d38, &err), &err);
    const dl_type *types[] = {
        fx_prim(DL_VEC_TYPE_NULL),
        fx_prim(DL_VEC_TYPE_BOOLEAN),
        fx_prim(DL_VEC_TYPE_BYTE),
        fx_prim(DL_VEC_TYPE_SHORT),
        fx_prim(DL_VEC_TYPE_INT),
        fx_prim(DL_VEC_TYPE_LONG),
        fx_prim(DL_VEC_TYPE_FLOAT),
        fx_prim(DL_VEC_TYPE_DOUBLE),
        d38,
        fx_prim(DL_VEC_TYPE_STRING),
        fx_prim(DL_VEC_TYPE_BINARY),
        fx_prim(DL_VEC_TYPE_DATE),
        fx_prim(DL_VEC_TYPE_TIMESTAMP),
        fx_prim(DL_VEC_TYPE_TIMESTAMP_NTZ),
    };
    for (size_t t = 0; t < DL_ARRAY_LEN(types); t++) {
        dl_vector *vec = NULL;
        CHECK_OK(fx_sample_vector(NULL, types[t], &vec, &err), &err);
        CHECK(roundtrip(vec, NULL));
        dl_vec_unref(vec);
    }
    dl_arena_destroy(&arena);
}

TEST(test_nested_vectors_import_back_to_the_same_rows) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *type;
    CHECK_OK(fx_nested_type(&arena, &type, &err), &err);
    dl_vector *vec;
    CHECK_OK(fx_nested_vector(NULL, type, &vec, &err), &err);
    CHECK(roundtrip(vec, NULL));
    dl_vec_unref(vec);
    dl_arena_destroy(&arena);
}

static int released;

static void
count_release(struct ArrowArray *a) {
    released++;
    a->release = NULL;
}

static void
count_schema_release(struct ArrowSchema *s) {
    s->release = NULL;
}

TEST(test_values_are_shared_and_the_array_released_with_the_last_vector) {
    static int64_t values[5] = {1, 2, 3, 4, 5};
    const void *buffers[2] = {NULL, values};
    struct ArrowSchema s = {.format = "l", .name = "n", .release = count_schema_release};
    struct ArrowArray a = {
        .length = 4, .offset = 1, .n_buffers = 2, .buffers = buffers, .release = count_release};
    released = 0;
    dl_error err;
    dl_vector *vec = NULL;
    CHECK_OK(dl_vec_arrow_import(&s, &a, fx_prim(DL_VEC_TYPE_LONG), NULL, &vec, &err), &err);
    CHECK(a.release == NULL);
    CHECK(vec->data == &values[1]); /* no copy, the offset applied */
    CHECK_INT_EQ(vec->length, 4);
    dl_vector *slice = NULL;
    CHECK_OK(dl_vec_slice(vec, 0, 2, &slice, &err), &err);
    dl_vec_unref(vec);
    CHECK_INT_EQ(released, 0); /* the slice still reads the values */
    CHECK_INT_EQ(((const int64_t *)slice->data)[1], 3);
    dl_vec_unref(slice);
    CHECK_INT_EQ(released, 1);
}

TEST(test_utf8_with_offsets_becomes_views_over_the_shared_bytes) {
    static const char bytes[] = "XXshorta string longer than twelvex";
    static const int32_t offsets[] = {0, 2, 2, 7, 34, 34, 35};
    static const uint8_t validity[] = {0xEF}; /* row 4 null */
    const void *buffers[3] = {validity, offsets, bytes};
    struct ArrowSchema s = {.format = "u", .name = "s", .release = count_schema_release};
    struct ArrowArray a = {.length = 5,
                           .null_count = 1,
                           .offset = 1,
                           .n_buffers = 3,
                           .buffers = buffers,
                           .release = count_release};
    dl_error err;
    dl_vector *vec = NULL;
    CHECK_OK(dl_vec_arrow_import(&s, &a, fx_prim(DL_VEC_TYPE_STRING), NULL, &vec, &err), &err);
    CHECK(fx_str_is(dl_vec_get_str(vec, 0), ""));
    CHECK(fx_str_is(dl_vec_get_str(vec, 1), "short"));
    CHECK(fx_str_is(dl_vec_get_str(vec, 2), "a string longer than twelve"));
    CHECK(dl_vec_get_str(vec, 2).ptr == bytes + 7); /* the long string is not copied */
    CHECK(dl_vec_is_null(vec, 3));
    CHECK(fx_str_is(dl_vec_get_str(vec, 4), "x"));
    dl_vec_unref(vec);
}

TEST(test_invalid_utf8_is_refused_naming_the_column_and_row) {
    static const char bytes[] = "ok\xff\xfe";
    static const int32_t offsets[] = {0, 2, 4};
    const void *buffers[3] = {NULL, offsets, bytes};
    struct ArrowSchema s = {.format = "u", .name = "name", .release = count_schema_release};
    struct ArrowArray a = {
        .length = 2, .n_buffers = 3, .buffers = buffers, .release = count_release};
    dl_error err;
    dl_vector *vec = NULL;
    CHECK_STATUS(dl_vec_arrow_import(&s, &a, fx_prim(DL_VEC_TYPE_STRING), NULL, &vec, &err),
                 DL_ERR_SCHEMA, &err);
    CHECK(strstr(err.msg, "column 'name'") != NULL && strstr(err.msg, "row 1") != NULL);
    CHECK(vec == NULL && a.release == NULL);
}

TEST(test_unsigned_values_widen_and_past_bigint_are_refused) {
    static const uint8_t small[3] = {0, 200, 255};
    const void *b1[2] = {NULL, small};
    struct ArrowSchema s = {.format = "C", .name = "u8", .release = count_schema_release};
    struct ArrowArray a = {.length = 3, .n_buffers = 2, .buffers = b1, .release = count_release};
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    const dl_type *type = NULL;
    CHECK_OK(dl_vec_arrow_import_field_type(&s, &arena, &type, &err), &err);
    CHECK_INT_EQ(type->id, DL_VEC_TYPE_SHORT);
    dl_vector *vec = NULL;
    CHECK_OK(dl_vec_arrow_import(&s, &a, type, NULL, &vec, &err), &err);
    CHECK_INT_EQ(((const int16_t *)vec->data)[1], 200);
    dl_vec_unref(vec);
    static const uint64_t big[2] = {1, UINT64_MAX};
    const void *b2[2] = {NULL, big};
    struct ArrowSchema s2 = {.format = "L", .name = "u64", .release = count_schema_release};
    struct ArrowArray a2 = {.length = 2, .n_buffers = 2, .buffers = b2, .release = count_release};
    CHECK_STATUS(dl_vec_arrow_import(&s2, &a2, fx_prim(DL_VEC_TYPE_LONG), NULL, &vec, &err),
                 DL_ERR_SCHEMA, &err);
    CHECK(strstr(err.msg, "does not fit a bigint") != NULL);
    dl_arena_destroy(&arena);
}

TEST(test_nanoseconds_import_when_whole_microseconds_and_are_refused_otherwise) {
    static const int64_t ns[2] = {2000, -5000};
    const void *b[2] = {NULL, ns};
    struct ArrowSchema s = {.format = "tsn:UTC", .name = "ts", .release = count_schema_release};
    struct ArrowArray a = {.length = 2, .n_buffers = 2, .buffers = b, .release = count_release};
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    const dl_type *type = NULL;
    CHECK_OK(dl_vec_arrow_import_field_type(&s, &arena, &type, &err), &err);
    CHECK_INT_EQ(type->id, DL_VEC_TYPE_TIMESTAMP);
    dl_vector *vec = NULL;
    CHECK_OK(dl_vec_arrow_import(&s, &a, type, NULL, &vec, &err), &err);
    CHECK_INT_EQ(((const int64_t *)vec->data)[0], 2);
    CHECK_INT_EQ(((const int64_t *)vec->data)[1], -5);
    dl_vec_unref(vec);
    static const int64_t cut[1] = {1500};
    const void *b2[2] = {NULL, cut};
    struct ArrowSchema s2 = {.format = "tsn:", .name = "ts", .release = count_schema_release};
    struct ArrowArray a2 = {.length = 1, .n_buffers = 2, .buffers = b2, .release = count_release};
    CHECK_OK(dl_vec_arrow_import_field_type(&s2, &arena, &type, &err), &err);
    CHECK_INT_EQ(type->id, DL_VEC_TYPE_TIMESTAMP_NTZ);
    CHECK_STATUS(dl_vec_arrow_import(&s2, &a2, type, NULL, &vec, &err), DL_ERR_SCHEMA, &err);
    CHECK(strstr(err.msg, "nanoseconds") != NULL);
    dl_arena_destroy(&arena);
}

TEST(test_a_dictionary_array_becomes_a_dictionary_vector) {
    static const char bytes[] = "redgreen";
    static const int32_t offsets[] = {0, 3, 8};
    const void *db[3] = {NULL, offsets, bytes};
    struct ArrowArray dict = {.length = 2, .n_buffers = 3, .buffers = db, .release = count_release};
    struct ArrowSchema ds = {.format = "u", .release = count_schema_release};
    static const int8_t idx[4] = {1, 0, 5, 1}; /* row 2 null: its index is not read */
    static const uint8_t validity[] = {0x0B};
    const void *ib[2] = {validity, idx};
    struct ArrowArray a = {.length = 4,
                           .null_count = 1,
                           .n_buffers = 2,
                           .buffers = ib,
                           .dictionary = &dict,
                           .release = count_release};
    struct ArrowSchema s = {
        .format = "c", .name = "color", .dictionary = &ds, .release = count_schema_release};
    dl_error err;
    dl_vector *vec = NULL;
    CHECK_OK(dl_vec_arrow_import(&s, &a, fx_prim(DL_VEC_TYPE_STRING), NULL, &vec, &err), &err);
    CHECK_INT_EQ(vec->layout, DL_VEC_DICT);
    const dl_vector *flat = NULL;
    int64_t e = dl_vec_resolve(vec, 0, &flat);
    CHECK(fx_str_is(dl_vec_get_str(flat, e), "green"));
    CHECK(dl_vec_is_null(vec, 2));
    e = dl_vec_resolve(vec, 1, &flat);
    CHECK(fx_str_is(dl_vec_get_str(flat, e), "red"));
    dl_vec_unref(vec);
}

TEST(test_types_without_a_spark_type_and_null_rows_are_refused) {
    struct ArrowSchema half = {.format = "e", .name = "h", .release = count_schema_release};
    struct ArrowSchema *children[1] = {&half};
    struct ArrowSchema s = {
        .format = "+s", .n_children = 1, .children = children, .release = count_schema_release};
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    const dl_type *type = NULL;
    CHECK_STATUS(dl_vec_arrow_import_type(&s, &arena, &type, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK(strstr(err.msg, "column 'h'") != NULL && strstr(err.msg, "half float") != NULL);
    static const int32_t v[2] = {1, 2};
    const void *cb[2] = {NULL, v};
    struct ArrowArray col = {.length = 2, .n_buffers = 2, .buffers = cb, .release = count_release};
    struct ArrowArray *cols[1] = {&col};
    static const uint8_t validity[] = {0x01};
    const void *rb[1] = {validity};
    struct ArrowArray batch = {.length = 2,
                               .null_count = 1,
                               .n_buffers = 1,
                               .buffers = rb,
                               .n_children = 1,
                               .children = cols,
                               .release = count_release};
    struct ArrowSchema ints = {.format = "i", .name = "x", .release = count_schema_release};
    children[0] = &ints;
    CHECK_OK(dl_vec_arrow_import_type(&s, &arena, &type, &err), &err);
    dl_vector *out[1];
    CHECK_STATUS(dl_vec_arrow_import_batch(&s, &batch, type, NULL, out, &err), DL_ERR_INVALID_ARG,
                 &err);
    CHECK(strstr(err.msg, "null rows") != NULL && batch.release == NULL);
    dl_arena_destroy(&arena);
}

int
main(void) {
    RUN(test_every_primitive_type_imports_back_to_the_same_rows);
    RUN(test_nested_vectors_import_back_to_the_same_rows);
    RUN(test_values_are_shared_and_the_array_released_with_the_last_vector);
    RUN(test_utf8_with_offsets_becomes_views_over_the_shared_bytes);
    RUN(test_invalid_utf8_is_refused_naming_the_column_and_row);
    RUN(test_unsigned_values_widen_and_past_bigint_are_refused);
    RUN(test_nanoseconds_import_when_whole_microseconds_and_are_refused_otherwise);
    RUN(test_a_dictionary_array_becomes_a_dictionary_vector);
    RUN(test_types_without_a_spark_type_and_null_rows_are_refused);
    return harness_finish();
}
