/* SPDX-License-Identifier: Apache-2.0 */
/* Set operations (sql_op_setop.c): UNION [ALL], INTERSECT [ALL], EXCEPT [ALL] with bag
 * semantics, NULLs equal to each other, empty inputs, many rows and several threads. */
#include "harness.h"
#include "test_sql_op_util.h"

static dl_status
run_setop(tx *t, dl_sql_setop_type type, bool is_all, const char *left, const char *right,
          bool is_parallel, int batch_rows, dl_buf *out) {
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_STRING)};
    const dl_type *schema = tx_schema(t, 2, types);
    dl_sql_operator *l = tx_source(t, schema, is_parallel);
    dl_sql_operator *r = tx_source(t, schema, is_parallel);
    DL_TRY(tx_src_rows(t, l, left, batch_rows, "-1|junk"));
    DL_TRY(tx_src_rows(t, r, right, batch_rows, NULL));
    dl_sql_plan *plan = tx_plan(t, DL_SQL_PLAN_SETOP, schema);
    plan->u.setop = (dl_sql_setop_node){.type = type, .is_all = is_all};
    dl_sql_operator *op;
    dl_status s = dl_sql_op_setop_new(&t->exec, plan, l, r, &op, &t->err);
    if (s != DL_OK) {
        dl_sql_op_free(l);
        dl_sql_op_free(r);
        return s;
    }
    s = tx_run(t, op, out);
    tx_sort_lines(out);
    return s;
}

static const char left_rows[] = "1|a\n1|a\n1|a\n2|b\nNULL|n\nNULL|n\n3|NULL\n";
static const char right_rows[] = "1|a\n2|b\n2|b\nNULL|n\n4|d\n";

static void
check(dl_sql_setop_type type, bool is_all, const char *want) {
    for (int parallel = 0; parallel < 2; parallel++) {
        tx t;
        tx_init(&t, parallel ? 2 : 0);
        dl_buf out;
        dl_buf_init(&out, NULL);
        CHECK_OK(run_setop(&t, type, is_all, left_rows, right_rows, parallel, 2, &out), &t.err);
        CHECK_STR_EQ(dl_buf_cstr(&out), want);
        dl_buf_destroy(&out);
        tx_destroy(&t);
    }
}

TEST(test_union_all_keeps_every_row_of_both_inputs) {
    check(DL_SQL_SETOP_T_UNION, true,
          "1|a\n1|a\n1|a\n1|a\n2|b\n2|b\n2|b\n3|NULL\n4|d\nNULL|n\nNULL|n\nNULL|n\n");
}

TEST(test_union_removes_duplicates_and_treats_nulls_as_equal) {
    check(DL_SQL_SETOP_T_UNION, false, "1|a\n2|b\n3|NULL\n4|d\nNULL|n\n");
}

TEST(test_intersect_and_intersect_all_keep_min_multiplicity) {
    check(DL_SQL_SETOP_T_INTERSECT, false, "1|a\n2|b\nNULL|n\n");
    check(DL_SQL_SETOP_T_INTERSECT, true, "1|a\n2|b\nNULL|n\n");
}

TEST(test_except_and_except_all_subtract_multiplicities) {
    check(DL_SQL_SETOP_T_EXCEPT, false, "3|NULL\n");
    check(DL_SQL_SETOP_T_EXCEPT, true, "1|a\n1|a\n3|NULL\nNULL|n\n");
}

TEST(test_set_operations_with_an_empty_input) {
    tx t;
    tx_init(&t, 0);
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(run_setop(&t, DL_SQL_SETOP_T_EXCEPT, true, left_rows, "", false, 3, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "1|a\n1|a\n1|a\n2|b\n3|NULL\nNULL|n\nNULL|n\n");
    dl_buf_reset(&out);
    CHECK_OK(run_setop(&t, DL_SQL_SETOP_T_INTERSECT, false, "", right_rows, false, 3, &out),
             &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "");
    CHECK_OK(run_setop(&t, DL_SQL_SETOP_T_UNION, false, "", right_rows, false, 3, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "1|a\n2|b\n4|d\nNULL|n\n");
    dl_buf_reset(&out);
    CHECK_OK(run_setop(&t, DL_SQL_SETOP_T_UNION, true, "", "", false, 3, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

/* Left: i % 5000 for i < 12000 (values 0..1999 three times, the rest twice); right: even
 * numbers below 6000 once. */
TEST(test_except_all_many_rows_on_threads) {
    tx t;
    tx_init(&t, 2);
    dl_buf l, r, want, out;
    dl_buf_init(&l, NULL);
    dl_buf_init(&r, NULL);
    dl_buf_init(&want, NULL);
    dl_buf_init(&out, NULL);
    for (int i = 0; i < 12000; i++) {
        CHECK_OK(dl_buf_appendf(&l, &t.err, "%d|s%d\n", i % 5000, (i % 5000) % 7), &t.err);
    }
    for (int j = 0; j < 6000; j += 2) {
        CHECK_OK(dl_buf_appendf(&r, &t.err, "%d|s%d\n", j, j % 7), &t.err);
    }
    for (int v = 0; v < 5000; v++) {
        int m = v < 2000 ? 3 : 2;
        int n = v % 2 == 0 ? 1 : 0;
        for (int c = 0; c < m - n; c++) {
            CHECK_OK(dl_buf_appendf(&want, &t.err, "%d|s%d\n", v, v % 7), &t.err);
        }
    }
    tx_sort_lines(&want);
    CHECK_OK(run_setop(&t, DL_SQL_SETOP_T_EXCEPT, true, dl_buf_cstr(&l), dl_buf_cstr(&r), true,
                       2048, &out),
             &t.err);
    CHECK_INT_EQ(out.len, want.len);
    CHECK(memcmp(out.data, want.data, want.len) == 0);
    dl_buf_destroy(&l);
    dl_buf_destroy(&r);
    dl_buf_destroy(&want);
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

static dl_status
fault_except_all(tx *t, dl_buf *out) {
    return run_setop(t, DL_SQL_SETOP_T_EXCEPT, true, left_rows, right_rows, false, 2, out);
}

static dl_status
fault_union_all(tx *t, dl_buf *out) {
    return run_setop(t, DL_SQL_SETOP_T_UNION, true, "1|a\n", "2|b\n", false, 2, out);
}

TEST(test_set_operations_out_of_memory_fail_cleanly_at_every_allocation) {
    CHECK(tx_fault_loop(fault_except_all, "1|a\n1|a\n3|NULL\nNULL|n\n") > 10);
    CHECK(tx_fault_loop(fault_union_all, "1|a\n2|b\n") > 0);
}

int
main(void) {
    RUN(test_union_all_keeps_every_row_of_both_inputs);
    RUN(test_union_removes_duplicates_and_treats_nulls_as_equal);
    RUN(test_intersect_and_intersect_all_keep_min_multiplicity);
    RUN(test_except_and_except_all_subtract_multiplicities);
    RUN(test_set_operations_with_an_empty_input);
    RUN(test_except_all_many_rows_on_threads);
    RUN(test_set_operations_out_of_memory_fail_cleanly_at_every_allocation);
    return harness_finish();
}
