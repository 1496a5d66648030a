/* SPDX-License-Identifier: Apache-2.0 */
/* Selection vectors and batches. */
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "vec_fixture.h"
#include "vector/vec_sel.h"
#include "vector/vector.h"

static int
rows_are(const dl_sel *sel, const uint32_t *expected, int64_t n) {
    return sel->count == n && (n == 0 || memcmp(sel->rows, expected, (size_t)n * 4) == 0);
}

TEST(test_selection_from_bits_and_refinement) {
    dl_error err;
    dl_sel sel;
    dl_vec_sel_init(&sel, NULL);
    uint8_t bits[2] = {0xA5, 0x03}; /* rows 0, 2, 5, 7, 8, 9 */
    CHECK_OK(dl_vec_sel_from_bits(&sel, bits, 12, true, &err), &err);
    uint32_t set[] = {0, 2, 5, 7, 8, 9};
    CHECK(rows_are(&sel, set, 6));
    uint8_t even[2] = {0x55, 0x55};
    dl_vec_sel_refine_bits(&sel, even, true); /* AND: successive refinement */
    uint32_t both[] = {0, 2, 8};
    CHECK(rows_are(&sel, both, 3));
    CHECK_OK(dl_vec_sel_from_bits(&sel, bits, 12, false, &err), &err);
    uint32_t unset[] = {1, 3, 4, 6, 10, 11};
    CHECK(rows_are(&sel, unset, 6));
    CHECK_OK(dl_vec_sel_from_bits(&sel, NULL, 4, true, &err), &err);
    uint32_t all[] = {0, 1, 2, 3};
    CHECK(rows_are(&sel, all, 4));
    dl_vec_sel_destroy(&sel);
}

TEST(test_selection_intersect_difference_and_compose) {
    dl_error err;
    dl_sel out;
    dl_vec_sel_init(&out, NULL);
    uint32_t a[] = {1, 3, 5, 7, 9, 11};
    uint32_t b[] = {0, 3, 4, 9, 10, 11, 12};
    CHECK_OK(dl_vec_sel_intersect(&out, a, 6, b, 7, &err), &err);
    uint32_t inter[] = {3, 9, 11};
    CHECK(rows_are(&out, inter, 3));
    CHECK_OK(dl_vec_sel_difference(&out, a, 6, b, 7, &err), &err);
    uint32_t diff[] = {1, 5, 7};
    CHECK(rows_are(&out, diff, 3));
    /* in place: a deletion vector removes rows from the live selection */
    uint32_t deleted[] = {5};
    CHECK_OK(dl_vec_sel_difference(&out, out.rows, out.count, deleted, 1, &err), &err);
    uint32_t left[] = {1, 7};
    CHECK(rows_are(&out, left, 2));
    uint32_t outer[] = {2, 0};
    CHECK_OK(dl_vec_sel_compose(&out, outer, 2, a, &err), &err);
    uint32_t composed[] = {5, 1};
    CHECK(rows_are(&out, composed, 2));
    CHECK(!dl_vec_sel_is_sorted(out.rows, out.count));
    CHECK(dl_vec_sel_is_sorted(a, 6));
    CHECK_OK(dl_vec_sel_set_range(&out, 10, 3, &err), &err);
    uint32_t range[] = {10, 11, 12};
    CHECK(rows_are(&out, range, 3));
    CHECK_STATUS(dl_vec_sel_set_range(&out, -1, 3, &err), DL_ERR_INVALID_ARG, &err);
    dl_vec_sel_destroy(&out);
}

TEST(test_filter_kernel_form_refines_in_place) {
    uint32_t rows[] = {1, 2, 3, 4, 5, 6};
    uint8_t bits[1] = {0x2A}; /* rows 1, 3, 5 */
    int64_t n = dl_vec_sel_filter_bits(rows, 6, bits, true, rows);
    CHECK_INT_EQ(n, 3);
    CHECK(rows[0] == 1 && rows[1] == 3 && rows[2] == 5);
    uint32_t out[8];
    n = dl_vec_sel_filter_bits(NULL, 8, bits, false, out);
    CHECK_INT_EQ(n, 5);
    CHECK(out[0] == 0 && out[1] == 2 && out[4] == 7);
}

TEST(test_selection_out_of_memory_is_nomem) {
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, 1, true);
    dl_error err;
    dl_sel sel;
    dl_vec_sel_init(&sel, &fa.base);
    CHECK_STATUS(dl_vec_sel_set_range(&sel, 0, 100, &err), DL_ERR_NOMEM, &err);
    CHECK_ERR_CONTAINS(&err, "out of memory growing a selection to 100 rows");
    dl_vec_sel_destroy(&sel);
    CHECK_INT_EQ(fa.live_blocks, 0);
}

/* A batch of (id int, name string) with n rows: id i, name "name-<i>-padding" or null. */
static dl_status
make_batch(const dl_allocator *alloc, const dl_type *schema, int n, dl_batch **out, dl_error *err) {
    DL_TRY(dl_vec_batch_new(alloc, schema, n, out, err));
    dl_batch *batch = *out;
    dl_status s = DL_OK;
    for (int i = 0; i < n && s == DL_OK; i++) {
        char name[32];
        int len = snprintf(name, sizeof(name), "name-%d-padding", i);
        s = dl_vec_append_i32(batch->cols[0], i, err);
        if (s == DL_OK) {
            s = i % 4 == 3 ? dl_vec_append_null(batch->cols[1], err)
                           : dl_vec_append_str(batch->cols[1], name, (size_t)len, err);
        }
    }
    if (s != DL_OK) {
        dl_vec_batch_free(batch);
        return s;
    }
    dl_vec_batch_set_count(batch, n);
    return DL_OK;
}

static dl_status
two_column_schema(dl_arena *arena, const dl_type **out, dl_error *err) {
    dl_type_field fields[] = {
        {.name = "id", .type = fx_prim(DL_VEC_TYPE_INT), .is_nullable = false},
        {.name = "name", .type = fx_prim(DL_VEC_TYPE_STRING), .is_nullable = true},
    };
    return dl_vec_type_struct(arena, fields, 2, out, err);
}

TEST(test_batch_filter_refines_selection_without_copying) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *schema;
    CHECK_OK(two_column_schema(&arena, &schema, &err), &err);
    dl_batch *batch;
    CHECK_OK(make_batch(NULL, schema, 100, &batch, &err), &err);
    CHECK_OK(dl_vec_batch_check(batch, &err), &err);
    const void *ids = batch->cols[0]->data;
    uint8_t even[13];
    memset(even, 0x55, sizeof(even));
    CHECK_OK(dl_vec_batch_refine(batch, even, &err), &err);
    CHECK_INT_EQ(batch->count, 50);
    /* a second predicate: name is not null */
    CHECK_OK(dl_vec_batch_refine(batch, batch->cols[1]->validity, &err), &err);
    CHECK_INT_EQ(batch->count, 50); /* nulls sit on odd rows (i % 4 == 3) */
    uint8_t lt_ten[13] = {0xFF, 0x03};
    CHECK_OK(dl_vec_batch_refine(batch, lt_ten, &err), &err);
    CHECK_INT_EQ(batch->count, 5);
    CHECK(batch->cols[0]->data == ids && batch->cols[0]->length == 100); /* nothing copied */
    CHECK_INT_EQ(dl_vec_batch_row(batch, 4), 8);
    CHECK_OK(dl_vec_batch_check(batch, &err), &err);
    CHECK_OK(dl_vec_batch_apply_sel(batch, &err), &err);
    CHECK(batch->sel == NULL && batch->count == 5 && batch->cols[1]->length == 5);
    CHECK_INT_EQ(((const int32_t *)batch->cols[0]->data)[4], 8);
    CHECK(fx_str_is(dl_vec_get_str(batch->cols[1], 2), "name-4-padding"));
    CHECK_OK(dl_vec_batch_check(batch, &err), &err);
    CHECK_OK(dl_vec_batch_reset(batch, &err), &err);
    CHECK(batch->count == 0 && batch->cols[0]->length == 0);
    dl_vec_batch_free(batch);
    dl_arena_destroy(&arena);
}

TEST(test_batch_check_reports_broken_invariants) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *schema;
    CHECK_OK(two_column_schema(&arena, &schema, &err), &err);
    dl_batch *batch;
    CHECK_OK(make_batch(NULL, schema, 10, &batch, &err), &err);
    CHECK_OK(dl_vec_append_i32(batch->cols[0], 10, &err), &err);
    CHECK_STATUS(dl_vec_batch_check(batch, &err), DL_ERR_INTERNAL, &err);
    CHECK_ERR_CONTAINS(&err, "batch column 'name' has 10 rows, column 0 has 11");
    dl_vector *longs;
    CHECK_OK(dl_vec_new(NULL, fx_prim(DL_VEC_TYPE_LONG), 0, &longs, &err), &err);
    dl_vec_batch_set_col(batch, 0, longs);
    CHECK_STATUS(dl_vec_batch_check(batch, &err), DL_ERR_INTERNAL, &err);
    CHECK_ERR_CONTAINS(&err, "batch column 'id' is bigint, the schema says int");
    uint32_t rows[] = {3, 2};
    CHECK_OK(dl_vec_batch_set_sel(batch, rows, 2, &err), &err);
    CHECK_OK(dl_vec_batch_reset(batch, &err), &err);
    CHECK(batch->sel == NULL);
    CHECK_STATUS(dl_vec_batch_new(NULL, fx_prim(DL_VEC_TYPE_INT), 1, &batch, &err),
                 DL_ERR_INVALID_ARG, &err);
    dl_vec_batch_free(batch);
    dl_arena_destroy(&arena);
}

TEST(test_batch_out_of_memory_is_nomem_and_leaves_the_batch_intact) {
    dl_arena arena;
    dl_error err;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *schema;
    CHECK_OK(two_column_schema(&arena, &schema, &err), &err);
    for (int64_t fail_at = 1;; fail_at++) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, 0, false);
        dl_batch *batch;
        CHECK_OK(make_batch(&fa.base, schema, 40, &batch, &err), &err);
        uint32_t rows[] = {1, 5, 30, 39};
        CHECK_OK(dl_vec_batch_set_sel(batch, rows, 4, &err), &err);
        fa.fail_at = fa.n_requests + fail_at;
        dl_status s = dl_vec_batch_apply_sel(batch, &err);
        bool is_done = fa.n_failures == 0;
        if (is_done) {
            CHECK_OK(s, &err);
        } else {
            CHECK_STATUS(s, DL_ERR_NOMEM, &err);
            CHECK(batch->sel != NULL && batch->cols[0]->length == 40); /* unchanged */
        }
        dl_vec_batch_free(batch);
        CHECK_INT_EQ(fa.live_blocks, 0);
        if (is_done) {
            break;
        }
    }
    dl_arena_destroy(&arena);
}

int
main(void) {
    RUN(test_selection_from_bits_and_refinement);
    RUN(test_selection_intersect_difference_and_compose);
    RUN(test_filter_kernel_form_refines_in_place);
    RUN(test_selection_out_of_memory_is_nomem);
    RUN(test_batch_filter_refines_selection_without_copying);
    RUN(test_batch_check_reports_broken_invariants);
    RUN(test_batch_out_of_memory_is_nomem_and_leaves_the_batch_intact);
    return harness_finish();
}
