/* SPDX-License-Identifier: Apache-2.0 */
/* Arrow C Data Interface export: zero-copy, values, release protocol, moves, out of memory. */
#include <stdint.h>
#include <string.h>

#include "arrow_check.h"
#include "harness.h"
#include "vec_fixture.h"
#include "vector/vec_arrow.h"

TEST(test_arrow_check_catches_a_differing_value_and_null) {
    dl_error err;
    dl_vector *vec;
    CHECK_OK(fx_sample_vector(NULL, fx_prim(DL_VEC_TYPE_STRING), &vec, &err), &err);
    struct ArrowSchema schema;
    struct ArrowArray array;
    CHECK_OK(dl_vec_arrow_export(vec, "c", 0, &schema, &array, &err), &err);
    dl_vector *other;
    CHECK_OK(dl_vec_new(NULL, vec->type, 0, &other, &err), &err);
    CHECK_OK(dl_vec_copy_sel(other, vec, NULL, vec->length, &err), &err);
    CHECK(arrow_check(&schema, &array, other));
    dl_vec_view *views = other->data;
    views[7].ref.length -= 1; /* the view now disagrees with the export */
    CHECK(!arrow_check(&schema, &array, other));
    views[7] = ((const dl_vec_view *)vec->data)[7];
    CHECK_OK(dl_vec_set_null(other, 0, &err), &err);
    CHECK(!arrow_check(&schema, &array, other));
    dl_vec_unref(other);
    array.release(&array);
    schema.release(&schema);
    dl_vec_unref(vec);
}

static const dl_type *
dec(dl_arena *arena, int p, int s) {
    const dl_type *t = NULL;
    dl_error err;
    return dl_vec_type_decimal(arena, p, s, &t, &err) == DL_OK ? t : NULL;
}

TEST(test_every_primitive_type_exports_zero_copy_and_reads_back) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *types[] = {
        fx_prim(DL_VEC_TYPE_NULL),
        fx_prim(DL_VEC_TYPE_BOOLEAN),
        fx_prim(DL_VEC_TYPE_BYTE),
        fx_prim(DL_VEC_TYPE_SHORT),
        fx_prim(DL_VEC_TYPE_INT),
        fx_prim(DL_VEC_TYPE_LONG),
        fx_prim(DL_VEC_TYPE_FLOAT),
        fx_prim(DL_VEC_TYPE_DOUBLE),
        dec(&arena, 38, 10),
        dec(&arena, 9, 2),
        fx_prim(DL_VEC_TYPE_STRING),
        fx_prim(DL_VEC_TYPE_BINARY),
        fx_prim(DL_VEC_TYPE_DATE),
        fx_prim(DL_VEC_TYPE_TIMESTAMP),
        fx_prim(DL_VEC_TYPE_TIMESTAMP_NTZ),
    };
    for (size_t t = 0; t < DL_ARRAY_LEN(types); t++) {
        dl_vector *vec;
        CHECK_OK(fx_sample_vector(NULL, types[t], &vec, &err), &err);
        struct ArrowSchema schema;
        struct ArrowArray array;
        CHECK_OK(dl_vec_arrow_export(vec, "col", 0, &schema, &array, &err), &err);
        CHECK_STR_EQ(schema.name, "col");
        CHECK_INT_EQ(schema.flags, ARROW_FLAG_NULLABLE);
        CHECK(arrow_check(&schema, &array, vec));
        if (types[t]->id == DL_VEC_TYPE_NULL) {
            CHECK_INT_EQ(array.n_buffers, 0);
            CHECK_INT_EQ(array.null_count, 50);
        } else {
            /* zero-copy: Arrow's buffers are the vector's buffers */
            CHECK(array.buffers[0] == vec->validity);
            CHECK(array.buffers[1] == vec->data);
            CHECK_INT_EQ(array.null_count, 10);
            CHECK_INT_EQ(dl_vec_buffer_refcount(vec->data_buf), 2);
        }
        if (dl_vec_type_phys(types[t]) == DL_VEC_PHYS_VIEW) {
            CHECK(vec->n_heaps >= 2);
            CHECK_INT_EQ(array.n_buffers, 3 + vec->n_heaps);
            const int64_t *sizes = array.buffers[array.n_buffers - 1];
            for (int32_t h = 0; h < vec->n_heaps; h++) {
                CHECK(array.buffers[2 + h] == vec->heaps[h]->data);
                CHECK_INT_EQ(sizes[h], vec->heaps[h]->size);
            }
        }
        array.release(&array);
        schema.release(&schema);
        CHECK(array.release == NULL && schema.release == NULL);
        if (vec->data_buf != NULL) {
            CHECK_INT_EQ(dl_vec_buffer_refcount(vec->data_buf), 1);
        }
        dl_vec_unref(vec);
    }
    dl_arena_destroy(&arena);
}

TEST(test_nested_export_is_zero_copy_at_every_level) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *type;
    CHECK_OK(fx_nested_type(&arena, &type, &err), &err);
    dl_vector *vec;
    CHECK_OK(fx_nested_vector(NULL, type, &vec, &err), &err);
    struct ArrowSchema schema;
    struct ArrowArray array;
    CHECK_OK(dl_vec_arrow_export(vec, "s", 0, &schema, &array, &err), &err);
    CHECK(arrow_check(&schema, &array, vec));
    CHECK_STR_EQ(schema.format, "+s");
    CHECK_INT_EQ(schema.n_children, 4);
    CHECK_STR_EQ(schema.children[0]->name, "id");
    CHECK_INT_EQ(schema.children[0]->flags, 0); /* id is not nullable */
    CHECK_STR_EQ(schema.children[1]->format, "+l");
    CHECK_STR_EQ(schema.children[1]->children[0]->name, "element");
    const struct ArrowSchema *map = schema.children[2];
    CHECK_STR_EQ(map->format, "+m");
    CHECK_STR_EQ(map->children[0]->name, "entries");
    CHECK_INT_EQ(map->children[0]->flags, 0);
    CHECK_STR_EQ(map->children[0]->children[0]->name, "key");
    CHECK_INT_EQ(map->children[0]->children[0]->flags, 0);
    CHECK_STR_EQ(map->children[0]->children[1]->name, "value");
    CHECK_INT_EQ(map->children[0]->children[1]->flags, ARROW_FLAG_NULLABLE);
    CHECK(array.buffers[0] == vec->validity);
    CHECK(array.children[0]->buffers[1] == vec->children[0]->data);
    CHECK(array.children[1]->buffers[1] == vec->children[1]->data);
    CHECK(array.children[1]->children[0]->buffers[1] == vec->children[1]->children[0]->data);
    const dl_vector *keys = vec->children[2]->children[0]->children[0];
    CHECK(array.children[2]->children[0]->children[0]->buffers[1] == keys->data);
    CHECK(array.children[3]->children[0]->buffers[0] == vec->children[3]->children[0]->validity);
    CHECK_INT_EQ(array.children[1]->null_count, 2); /* row 1 (struct null) and row 2 */
    /* The vector may go first: the export keeps the buffers alive and unchanged. */
    dl_vec_unref(vec);
    CHECK_INT_EQ(((const int32_t *)array.children[0]->buffers[1])[3], 4);
    array.release(&array);
    schema.release(&schema);
    dl_arena_destroy(&arena);
}

/* Plain ("u"/"z", int32 offsets) and large ("U"/"Z", int64) strings, for consumers that
 * predate views: the values are copied into offsets and one data buffer, NULL slots empty. */
TEST(test_plain_and_large_string_export_copies_offsets_and_bytes) {
    dl_error err;
    dl_vector *vec;
    CHECK_OK(fx_sample_vector(NULL, fx_prim(DL_VEC_TYPE_STRING), &vec, &err), &err);
    static const unsigned flags[2] = {DL_VEC_ARROW_PLAIN_STRINGS, DL_VEC_ARROW_LARGE_STRINGS};
    for (int k = 0; k < 2; k++) {
        struct ArrowSchema schema;
        struct ArrowArray array;
        CHECK_OK(dl_vec_arrow_export(vec, "c", flags[k], &schema, &array, &err), &err);
        CHECK_STR_EQ(schema.format, k == 0 ? "u" : "U");
        CHECK_INT_EQ(array.n_buffers, 3);
        CHECK_INT_EQ(array.length, vec->length);
        const char *data = array.buffers[2];
        for (int64_t i = 0; i < vec->length; i++) {
            int64_t from = k == 0 ? ((const int32_t *)array.buffers[1])[i]
                                  : ((const int64_t *)array.buffers[1])[i];
            int64_t to = k == 0 ? ((const int32_t *)array.buffers[1])[i + 1]
                                : ((const int64_t *)array.buffers[1])[i + 1];
            bool is_null = dl_vec_is_null(vec, i);
            CHECK(is_null == (array.buffers[0] != NULL &&
                              (((const uint8_t *)array.buffers[0])[i / 8] & (1u << (i % 8))) == 0));
            dl_str want = is_null ? (dl_str){.ptr = "", .len = 0} : dl_vec_get_str(vec, i);
            CHECK_INT_EQ(to - from, (int64_t)want.len);
            CHECK(memcmp(data + from, want.ptr, want.len) == 0);
        }
        array.release(&array);
        schema.release(&schema);
    }
    dl_vec_unref(vec);
}

TEST(test_writes_after_export_leave_the_export_unchanged) {
    dl_error err;
    dl_vector *vec;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_INT), 64, &vec, &err), &err);
    for (int i = 0; i < 10; i++) {
        CHECK_OK(dl_vec_append_i32(vec, i, &err), &err);
    }
    struct ArrowArray array;
    CHECK_OK(dl_vec_arrow_export(vec, NULL, 0, NULL, &array, &err), &err);
    CHECK_OK(dl_vec_reset(vec, &err), &err);
    for (int i = 0; i < 10; i++) {
        CHECK_OK(dl_vec_append_i32(vec, -1, &err), &err);
    }
    CHECK(array.buffers[1] != vec->data);
    CHECK_INT_EQ(array.length, 10);
    CHECK_INT_EQ(((const int32_t *)array.buffers[1])[9], 9);
    array.release(&array);
    dl_vec_unref(vec);
}

TEST(test_moving_an_array_and_a_child_follows_the_release_protocol) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *type;
    CHECK_OK(fx_nested_type(&arena, &type, &err), &err);
    dl_vector *vec;
    CHECK_OK(fx_nested_vector(NULL, type, &vec, &err), &err);
    struct ArrowArray first;
    CHECK_OK(dl_vec_arrow_export(vec, "s", 0, NULL, &first, &err), &err);
    /* Move the whole array: bitwise copy, then mark the source released. */
    struct ArrowArray moved = first;
    first.release = NULL;
    /* Keep only the "tags" child: move it out, then release the parent at once. */
    struct ArrowArray tags = *moved.children[1];
    moved.children[1]->release = NULL;
    moved.release(&moved);
    CHECK(moved.release == NULL);
    CHECK_INT_EQ(dl_vec_buffer_refcount(vec->children[0]->data_buf), 1); /* id released */
    CHECK_INT_EQ(dl_vec_buffer_refcount(vec->children[1]->data_buf), 2); /* tags alive */
    const int32_t *offsets = tags.buffers[1];
    CHECK_INT_EQ(offsets[4] - offsets[3], 2);
    tags.release(&tags);
    CHECK(tags.release == NULL);
    CHECK_INT_EQ(dl_vec_buffer_refcount(vec->children[1]->data_buf), 1);
    CHECK_INT_EQ(dl_vec_buffer_refcount(vec->children[1]->children[0]->heaps[0]), 1);
    dl_vec_unref(vec);
    dl_arena_destroy(&arena);
}

/* A dictionary vector over 30 long strings, rows i % 30 with every fourth row null. */
static dl_status
dict_vector(const dl_allocator *alloc, dl_vector **out_dict, dl_vector **out, dl_error *err) {
    dl_vector *dict = NULL;
    dl_vector *vec = NULL;
    dl_status s = dl_vec_new(alloc, fx_prim(DL_VEC_TYPE_STRING), 0, &dict, err);
    for (int i = 0; i < 30 && s == DL_OK; i++) {
        char text[40];
        int len = snprintf(text, sizeof(text), "dictionary entry number %d", i);
        s = dl_vec_append_str(dict, text, (size_t)len, err);
    }
    if (s == DL_OK) {
        s = dl_vec_new(alloc, fx_prim(DL_VEC_TYPE_STRING), 0, &vec, err);
    }
    if (s == DL_OK) {
        s = dl_vec_set_dict(vec, dict, err);
    }
    for (int i = 0; i < 100 && s == DL_OK; i++) {
        s = i % 4 == 1 ? dl_vec_append_null(vec, err) : dl_vec_append_index(vec, i % 30, err);
    }
    if (s != DL_OK) {
        dl_vec_unref(dict);
        dl_vec_unref(vec);
        return s;
    }
    *out_dict = dict;
    *out = vec;
    return DL_OK;
}

TEST(test_dictionary_vector_exports_as_an_arrow_dictionary) {
    dl_error err;
    dl_vector *dict;
    dl_vector *vec;
    CHECK_OK(dict_vector(NULL, &dict, &vec, &err), &err);
    struct ArrowSchema schema;
    struct ArrowArray array;
    CHECK_OK(dl_vec_arrow_export(vec, "d", 0, &schema, &array, &err), &err);
    CHECK_STR_EQ(schema.format, "i");
    CHECK(schema.dictionary != NULL);
    CHECK_STR_EQ(schema.dictionary->format, "vu");
    CHECK(array.buffers[1] == vec->data); /* the indices */
    CHECK(array.dictionary->buffers[1] == dict->data);
    CHECK(array.dictionary->buffers[2] == dict->heaps[0]->data);
    CHECK_INT_EQ(array.null_count, 25);
    CHECK(arrow_check(&schema, &array, vec));
    array.release(&array);
    schema.release(&schema);
    CHECK_OK(dl_vec_arrow_export(vec, "d", DL_VEC_ARROW_FLATTEN_DICT, &schema, &array, &err), &err);
    CHECK_STR_EQ(schema.format, "vu");
    CHECK(schema.dictionary == NULL && array.dictionary == NULL);
    CHECK(arrow_check(&schema, &array, vec));
    CHECK(array.buffers[2] == dict->heaps[0]->data); /* flattened views still share the heap */
    array.release(&array);
    schema.release(&schema);
    CHECK_INT_EQ(dl_vec_buffer_refcount(dict->heaps[0]), 1);
    dl_vec_unref(vec);
    dl_vec_unref(dict);
}

TEST(test_constant_vector_exports_expanded) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    dl_vector *vec;
    const dl_type *d = dec(&arena, 12, 3);
    CHECK_OK(dl_vec_new(NULL, d, 1, &vec, &err), &err);
    CHECK_OK(dl_vec_append_i128(vec, 123456789, &err), &err);
    dl_vec_make_const(vec, 300);
    struct ArrowSchema schema;
    struct ArrowArray array;
    CHECK_OK(dl_vec_arrow_export(vec, "part", 0, &schema, &array, &err), &err);
    CHECK_STR_EQ(schema.format, "d:12,3");
    CHECK_INT_EQ(array.length, 300);
    CHECK(arrow_check(&schema, &array, vec));
    array.release(&array);
    schema.release(&schema);
    dl_vec_unref(vec);
    CHECK_OK(dl_vec_new_const_null(NULL, fx_prim(DL_VEC_TYPE_DATE), 7, &vec, &err), &err);
    CHECK_OK(dl_vec_arrow_export(vec, "p", 0, &schema, &array, &err), &err);
    CHECK_INT_EQ(array.null_count, 7);
    CHECK(arrow_check(&schema, &array, vec));
    array.release(&array);
    schema.release(&schema);
    dl_vec_unref(vec);
    dl_arena_destroy(&arena);
}

TEST(test_sliced_vector_exports_its_own_pointers) {
    dl_error err;
    dl_vector *vec;
    CHECK_OK(fx_sample_vector(NULL, fx_prim(DL_VEC_TYPE_BOOLEAN), &vec, &err), &err);
    dl_vector *slice;
    CHECK_OK(dl_vec_slice(vec, 16, 30, &slice, &err), &err);
    struct ArrowSchema schema;
    struct ArrowArray array;
    CHECK_OK(dl_vec_arrow_export(slice, "b", 0, &schema, &array, &err), &err);
    CHECK(array.buffers[1] == (const uint8_t *)vec->data + 2);
    CHECK(array.buffers[0] == vec->validity + 2);
    CHECK(arrow_check(&schema, &array, slice));
    dl_vec_unref(slice);
    dl_vec_unref(vec);
    array.release(&array);
    schema.release(&schema);
}

static dl_status
batch_type(dl_arena *arena, const dl_type **out, dl_error *err) {
    const dl_type *nested;
    DL_TRY(fx_nested_type(arena, &nested, err));
    dl_type_field fields[] = {
        {.name = "n", .type = nested, .is_nullable = true},
        {.name = "name", .type = fx_prim(DL_VEC_TYPE_STRING), .is_nullable = true},
        {.name = "part", .type = fx_prim(DL_VEC_TYPE_INT), .is_nullable = false},
    };
    return dl_vec_type_struct(arena, fields, 3, out, err);
}

/* A batch of 40 rows: nested rows, a dictionary column and a constant partition column. */
static dl_status
sample_batch(const dl_allocator *alloc, const dl_type *schema, dl_batch **out, dl_error *err) {
    dl_batch *batch;
    DL_TRY(dl_vec_batch_new(alloc, schema, 0, &batch, err));
    dl_status s = DL_OK;
    for (int i = 0; i < 10 && s == DL_OK; i++) {
        s = fx_nested_rows(batch->cols[0], err);
    }
    dl_vector *dict = NULL;
    dl_vector *dvec = NULL;
    if (s == DL_OK) {
        s = dict_vector(alloc, &dict, &dvec, err);
    }
    dl_vector *part = NULL;
    if (s == DL_OK) {
        dl_vector *slice = NULL;
        s = dl_vec_slice(dvec, 0, 40, &slice, err);
        if (s == DL_OK) {
            dl_vec_batch_set_col(batch, 1, slice);
            s = dl_vec_new(alloc, fx_prim(DL_VEC_TYPE_INT), 1, &part, err);
        }
    }
    if (s == DL_OK) {
        s = dl_vec_append_i32(part, 2024, err);
    }
    if (s == DL_OK) {
        dl_vec_make_const(part, 40);
        dl_vec_batch_set_col(batch, 2, part);
        part = NULL;
        dl_vec_batch_set_count(batch, 40);
    }
    dl_vec_unref(part);
    dl_vec_unref(dict);
    dl_vec_unref(dvec);
    if (s != DL_OK) {
        dl_vec_batch_free(batch);
        return s;
    }
    *out = batch;
    return DL_OK;
}

TEST(test_batch_exports_as_a_struct_of_its_columns) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *schema_type;
    CHECK_OK(batch_type(&arena, &schema_type, &err), &err);
    dl_batch *batch;
    CHECK_OK(sample_batch(NULL, schema_type, &batch, &err), &err);
    struct ArrowSchema schema;
    struct ArrowArray array;
    CHECK_OK(dl_vec_arrow_export_batch(batch, 0, &schema, &array, &err), &err);
    CHECK_STR_EQ(schema.format, "+s");
    CHECK_INT_EQ(schema.n_children, 3);
    CHECK_STR_EQ(schema.children[1]->name, "name");
    CHECK_STR_EQ(schema.children[1]->format, "i"); /* dictionary-encoded column */
    CHECK_STR_EQ(schema.children[2]->format, "i"); /* the constant, expanded */
    CHECK_INT_EQ(schema.children[2]->flags, 0);
    CHECK_INT_EQ(array.length, 40);
    CHECK(array.children[0]->buffers[0] == batch->cols[0]->validity);
    for (int32_t c = 0; c < 3; c++) {
        CHECK(arrow_check(schema.children[c], array.children[c], batch->cols[c]));
    }
    array.release(&array);
    schema.release(&schema);

    /* With a selection the live rows are copied. */
    uint32_t rows[] = {0, 5, 6, 33, 39};
    CHECK_OK(dl_vec_batch_set_sel(batch, rows, 5, &err), &err);
    CHECK_OK(dl_vec_arrow_export_batch(batch, DL_VEC_ARROW_FLATTEN_DICT, &schema, &array, &err),
             &err);
    CHECK_INT_EQ(array.length, 5);
    CHECK_STR_EQ(schema.children[1]->format, "vu");
    CHECK_OK(dl_vec_batch_apply_sel(batch, &err), &err);
    for (int32_t c = 0; c < 3; c++) {
        CHECK(arrow_check(schema.children[c], array.children[c], batch->cols[c]));
    }
    array.release(&array);
    schema.release(&schema);
    dl_vec_batch_free(batch);
    dl_arena_destroy(&arena);
}

TEST(test_type_schema_export_spells_arrow_formats) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    struct ArrowSchema schema;
    CHECK_OK(dl_vec_arrow_export_type(dec(&arena, 38, 0), "amount", false, 0, NULL, &schema, &err),
             &err);
    CHECK_STR_EQ(schema.format, "d:38,0");
    CHECK_STR_EQ(schema.name, "amount");
    CHECK(schema.metadata == NULL && schema.flags == 0 && schema.n_children == 0);
    schema.release(&schema);
    CHECK_OK(dl_vec_arrow_export_type(fx_prim(DL_VEC_TYPE_TIMESTAMP), NULL, true, 0, NULL, &schema,
                                      &err),
             &err);
    CHECK_STR_EQ(schema.format, "tsu:UTC");
    CHECK_STR_EQ(schema.name, "");
    schema.release(&schema);
    CHECK_OK(dl_vec_arrow_export_type(fx_prim(DL_VEC_TYPE_TIMESTAMP_NTZ), "t", true, 0, NULL,
                                      &schema, &err),
             &err);
    CHECK_STR_EQ(schema.format, "tsu:");
    schema.release(&schema);
    dl_arena_destroy(&arena);
}

static dl_status
export_workload(const dl_allocator *alloc, const dl_type *schema_type, dl_error *err) {
    dl_batch *batch;
    DL_TRY(sample_batch(alloc, schema_type, &batch, err));
    struct ArrowSchema schema;
    struct ArrowArray array;
    dl_status s = dl_vec_arrow_export_batch(batch, 0, &schema, &array, err);
    if (s == DL_OK) {
        array.release(&array);
        schema.release(&schema);
        uint32_t rows[] = {1, 2, 30};
        s = dl_vec_batch_set_sel(batch, rows, 3, err);
    }
    if (s == DL_OK) {
        s = dl_vec_arrow_export_batch(batch, DL_VEC_ARROW_FLATTEN_DICT, &schema, &array, err);
    }
    if (s == DL_OK) {
        array.release(&array);
        schema.release(&schema);
    }
    dl_vec_batch_free(batch);
    return s;
}

TEST(test_export_out_of_memory_is_nomem_and_leaks_nothing) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *schema_type;
    CHECK_OK(batch_type(&arena, &schema_type, &err), &err);
    int64_t n_failures = 0;
    for (int64_t fail_at = 1;; fail_at++) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, fail_at, false);
        dl_status s = export_workload(&fa.base, schema_type, &err);
        CHECK_INT_EQ(fa.live_blocks, 0);
        if (fa.n_failures == 0) {
            CHECK_OK(s, &err);
            break;
        }
        CHECK_STATUS(s, DL_ERR_NOMEM, &err);
        n_failures++;
    }
    CHECK(n_failures > 50);
    dl_arena_destroy(&arena);
}

int
main(void) {
    RUN(test_every_primitive_type_exports_zero_copy_and_reads_back);
    RUN(test_nested_export_is_zero_copy_at_every_level);
    RUN(test_writes_after_export_leave_the_export_unchanged);
    RUN(test_moving_an_array_and_a_child_follows_the_release_protocol);
    RUN(test_dictionary_vector_exports_as_an_arrow_dictionary);
    RUN(test_constant_vector_exports_expanded);
    RUN(test_sliced_vector_exports_its_own_pointers);
    RUN(test_batch_exports_as_a_struct_of_its_columns);
    RUN(test_type_schema_export_spells_arrow_formats);
    RUN(test_plain_and_large_string_export_copies_offsets_and_bytes);
    RUN(test_export_out_of_memory_is_nomem_and_leaks_nothing);
    RUN(test_arrow_check_catches_a_differing_value_and_null);
    return harness_finish();
}
