/* SPDX-License-Identifier: Apache-2.0 */
/* SORT and top-N operators (sql_op_sort*.c): orders, NULL placement, NaN, strings longer than
 * the key prefix, expression keys, many rows across batches and threads, LIMIT/OFFSET. */
#include "harness.h"
#include "test_sql_op_util.h"

static dl_sql_sort_key *
keys_new(tx *t, int n) {
    return dl_arena_alloc_zero(&t->arena, (size_t)n * sizeof(dl_sql_sort_key));
}

static dl_sql_sort_key
key(tx *t, int32_t col, const dl_type *type, bool is_desc, bool is_nulls_first) {
    return (dl_sql_sort_key){
        .expr = tx_col(t, col, type), .is_desc = is_desc, .is_nulls_first = is_nulls_first};
}

/* Sorts the text rows with keys and renders the result into out. */
static dl_status
run_sort(tx *t, const dl_type *schema, const char *rows, const char *junk, int batch_rows,
         bool is_parallel, dl_sql_sort_key *keys, int n_keys, int64_t limit, int64_t offset,
         dl_buf *out) {
    dl_sql_operator *src = tx_source(t, schema, is_parallel);
    DL_CHECK(src != NULL, &t->err, DL_ERR_NOMEM, "source");
    if (rows != NULL) {
        DL_TRY(tx_src_rows(t, src, rows, batch_rows, junk));
    }
    dl_sql_plan *plan = tx_plan(t, DL_SQL_PLAN_SORT, schema);
    DL_CHECK(plan != NULL, &t->err, DL_ERR_NOMEM, "plan");
    plan->u.sort = (dl_sql_sort){.keys = keys, .n_keys = n_keys, .limit = limit, .offset = offset};
    dl_sql_operator *op;
    dl_status s = dl_sql_op_sort_new(&t->exec, plan, src, &op, &t->err);
    if (s != DL_OK) {
        dl_sql_op_free(src);
        return s;
    }
    return tx_run(t, op, out);
}

TEST(test_sort_int_asc_nulls_first_and_desc_nulls_last) {
    tx t;
    tx_init(&t, 0);
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_STRING)};
    const dl_type *schema = tx_schema(&t, 2, types);
    const char *rows = "3|c\nNULL|n\n-5|m\n10|x\n0|z\n3|d\n";
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_sql_sort_key *k = keys_new(&t, 2);
    k[0] = key(&t, 0, types[0], false, true);
    k[1] = key(&t, 1, types[1], false, true);
    CHECK_OK(run_sort(&t, schema, rows, "999|junk", 4, false, k, 2, -1, 0, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "NULL|n\n-5|m\n0|z\n3|c\n3|d\n10|x\n");
    dl_buf_reset(&out);
    k[0] = key(&t, 0, types[0], true, false);
    k[1] = key(&t, 1, types[1], true, false);
    CHECK_OK(run_sort(&t, schema, rows, NULL, 2, false, k, 2, -1, 0, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "10|x\n3|d\n3|c\n0|z\n-5|m\nNULL|n\n");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_sort_nulls_last_ascending_and_nulls_first_descending) {
    tx t;
    tx_init(&t, 0);
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_INT)};
    const dl_type *schema = tx_schema(&t, 1, types);
    const char *rows = "2\nNULL\n1\nNULL\n3\n";
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_sql_sort_key *k = keys_new(&t, 1);
    k[0] = key(&t, 0, types[0], false, false);
    CHECK_OK(run_sort(&t, schema, rows, NULL, 100, false, k, 1, -1, 0, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "1\n2\n3\nNULL\nNULL\n");
    dl_buf_reset(&out);
    k[0] = key(&t, 0, types[0], true, true);
    CHECK_OK(run_sort(&t, schema, rows, NULL, 100, false, k, 1, -1, 0, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "NULL\nNULL\n3\n2\n1\n");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_sort_doubles_put_nan_above_infinity_and_negative_zero_equal_zero) {
    tx t;
    tx_init(&t, 0);
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_DOUBLE), tx_prim(DL_VEC_TYPE_INT)};
    const dl_type *schema = tx_schema(&t, 2, types);
    const char *rows = "nan|1\ninf|2\n-inf|3\n-0.0|4\n0.0|5\n-1.5|6\n2.25|7\nNULL|8\n-nan|9\n";
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_sql_sort_key *k = keys_new(&t, 2);
    k[0] = key(&t, 0, types[0], false, true);
    k[1] = key(&t, 1, types[1], false, true);
    CHECK_OK(run_sort(&t, schema, rows, NULL, 3, false, k, 2, -1, 0, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out),
                 "NULL|8\n-inf|3\n-1.5|6\n-0|4\n0|5\n2.25|7\ninf|2\nnan|1\n-nan|9\n");
    dl_buf_reset(&out);
    k[0] = key(&t, 0, types[0], true, false);
    CHECK_OK(run_sort(&t, schema, rows, NULL, 3, false, k, 2, -1, 0, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out),
                 "nan|1\n-nan|9\ninf|2\n2.25|7\n-0|4\n0|5\n-1.5|6\n-inf|3\nNULL|8\n");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_sort_strings_longer_than_the_key_prefix_compare_in_full) {
    tx t;
    tx_init(&t, 0);
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_STRING), tx_prim(DL_VEC_TYPE_INT)};
    const dl_type *schema = tx_schema(&t, 2, types);
    /* Long strings sharing a 20-byte prefix, short ones, the empty string, and ties that the
     * second key must order. */
    const char *rows = "abcdefghijklmnopqrstZ|1\n"
                       "abcdefghijklmnopqrstA|2\n"
                       "abcdefghijklmnopqrst|3\n"
                       "abc|4\n"
                       "|5\n"
                       "abcdefghijklmnopqrstA|0\n"
                       "b|6\n"
                       "abc|-1\n";
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_sql_sort_key *k = keys_new(&t, 2);
    k[0] = key(&t, 0, types[0], false, true);
    k[1] = key(&t, 1, types[1], false, true);
    CHECK_OK(run_sort(&t, schema, rows, NULL, 3, false, k, 2, -1, 0, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "|5\nabc|-1\nabc|4\nabcdefghijklmnopqrst|3\n"
                                    "abcdefghijklmnopqrstA|0\nabcdefghijklmnopqrstA|2\n"
                                    "abcdefghijklmnopqrstZ|1\nb|6\n");
    dl_buf_reset(&out);
    k[0] = key(&t, 0, types[0], true, true);
    CHECK_OK(run_sort(&t, schema, rows, NULL, 3, false, k, 2, -1, 0, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "b|6\nabcdefghijklmnopqrstZ|1\nabcdefghijklmnopqrstA|0\n"
                                    "abcdefghijklmnopqrstA|2\nabcdefghijklmnopqrst|3\n"
                                    "abc|-1\nabc|4\n|5\n");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_sort_booleans_decimals_and_small_integers) {
    tx t;
    tx_init(&t, 0);
    const dl_type *dec = NULL;
    CHECK_OK(dl_vec_type_decimal(&t.arena, 20, 2, &dec, &t.err), &t.err);
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_BOOLEAN), dec, tx_prim(DL_VEC_TYPE_SHORT),
                              tx_prim(DL_VEC_TYPE_BYTE)};
    const dl_type *schema = tx_schema(&t, 4, types);
    const char *rows = "true|5|1|-1\nfalse|-7|2|3\ntrue|-7|-3|3\nNULL|0|4|-128\nfalse|100|-5|127\n";
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_sql_sort_key *k = keys_new(&t, 2);
    k[0] = key(&t, 0, types[0], true, false);
    k[1] = key(&t, 1, types[1], false, true);
    CHECK_OK(run_sort(&t, schema, rows, NULL, 2, false, k, 2, -1, 0, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out),
                 "true|-7|-3|3\ntrue|5|1|-1\nfalse|-7|2|3\nfalse|100|-5|127\nNULL|0|4|-128\n");
    dl_buf_reset(&out);
    k[0] = key(&t, 3, types[3], false, true);
    k[1] = key(&t, 2, types[2], true, true);
    CHECK_OK(run_sort(&t, schema, rows, NULL, 2, false, k, 2, -1, 0, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out),
                 "NULL|0|4|-128\ntrue|5|1|-1\nfalse|-7|2|3\ntrue|-7|-3|3\nfalse|100|-5|127\n");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_sort_of_empty_input_returns_no_rows) {
    tx t;
    tx_init(&t, 0);
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_LONG)};
    const dl_type *schema = tx_schema(&t, 1, types);
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_sql_sort_key *k = keys_new(&t, 1);
    k[0] = key(&t, 0, types[0], false, true);
    CHECK_OK(run_sort(&t, schema, NULL, NULL, 2, false, k, 1, -1, 0, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "");
    CHECK_OK(run_sort(&t, schema, NULL, NULL, 2, false, k, 1, 5, 0, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_sort_limit_and_offset_pick_the_right_slice) {
    tx t;
    tx_init(&t, 0);
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_STRING)};
    const dl_type *schema = tx_schema(&t, 2, types);
    const char *rows = "5|e\n1|a\n4|d\nNULL|n\n2|b\n3|c\n";
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_sql_sort_key *k = keys_new(&t, 1);
    k[0] = key(&t, 0, types[0], false, false);
    CHECK_OK(run_sort(&t, schema, rows, "0|junk", 2, false, k, 1, 2, 1, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "2|b\n3|c\n");
    dl_buf_reset(&out);
    CHECK_OK(run_sort(&t, schema, rows, NULL, 2, false, k, 1, -1, 4, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "5|e\nNULL|n\n");
    dl_buf_reset(&out);
    CHECK_OK(run_sort(&t, schema, rows, NULL, 2, false, k, 1, 0, 0, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "");
    CHECK_OK(run_sort(&t, schema, rows, NULL, 2, false, k, 1, 10, 5, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "NULL|n\n");
    dl_buf_reset(&out);
    CHECK_OK(run_sort(&t, schema, rows, NULL, 2, false, k, 1, 3, 10, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

/* ---- many rows ----------------------------------------------------------------------------- */

typedef struct ref_row {
    int64_t a; /* INT64_MIN = NULL */
    char s[24];
    int64_t id;
} ref_row;

static uint64_t
lcg(uint64_t *state) {
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

static int
ref_cmp(const void *pa, const void *pb) {
    const ref_row *a = pa;
    const ref_row *b = pb;
    /* a DESC NULLS LAST, s ASC, id ASC */
    if (a->a != b->a) {
        if (a->a == INT64_MIN || b->a == INT64_MIN) {
            return a->a == INT64_MIN ? 1 : -1;
        }
        return a->a > b->a ? -1 : 1;
    }
    int c = strcmp(a->s, b->s);
    if (c != 0) {
        return c;
    }
    return a->id < b->id ? -1 : (a->id > b->id ? 1 : 0);
}

static void
make_rows(ref_row *rows, int n, uint64_t seed) {
    uint64_t st = seed;
    for (int i = 0; i < n; i++) {
        uint64_t r = lcg(&st);
        rows[i].a = r % 17 == 0 ? INT64_MIN : (int64_t)(r % 97) - 40;
        /* Strings with a long shared prefix so the key prefix cannot decide. */
        (void)snprintf(rows[i].s, sizeof(rows[i].s), "%s%u",
                       r % 3 == 0 ? "shared-prefix-long-" : "s", (unsigned)(lcg(&st) % 50));
        rows[i].id = i;
    }
}

static dl_status
render_rows(const ref_row *rows, int from, int to, dl_buf *out) {
    for (int i = from; i < to; i++) {
        if (rows[i].a == INT64_MIN) {
            DL_TRY(dl_buf_appendf(out, NULL, "NULL|%s|%" PRId64 "\n", rows[i].s, rows[i].id));
        } else {
            DL_TRY(dl_buf_appendf(out, NULL, "%" PRId64 "|%s|%" PRId64 "\n", rows[i].a, rows[i].s,
                                  rows[i].id));
        }
    }
    return DL_OK;
}

static void
check_many(int n_workers, int n, int64_t limit, int64_t offset, int batch_rows) {
    tx t;
    tx_init(&t, n_workers);
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_STRING),
                              tx_prim(DL_VEC_TYPE_LONG)};
    const dl_type *schema = tx_schema(&t, 3, types);
    ref_row *rows = dl_mem_alloc(NULL, (size_t)n * sizeof(ref_row));
    make_rows(rows, n, 42 + (uint64_t)n);
    dl_buf text;
    dl_buf_init(&text, NULL);
    CHECK_OK(render_rows(rows, 0, n, &text), &t.err);
    qsort(rows, (size_t)n, sizeof(ref_row), ref_cmp);
    dl_buf want;
    dl_buf_init(&want, NULL);
    int from = (int)DL_MIN(offset, n);
    int to = limit < 0 ? n : (int)DL_MIN(offset + limit, n);
    CHECK_OK(render_rows(rows, from, to, &want), &t.err);
    dl_sql_sort_key *k = keys_new(&t, 3);
    k[0] = key(&t, 0, types[0], true, false);
    k[1] = key(&t, 1, types[1], false, true);
    k[2] = key(&t, 2, types[2], false, true);
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(run_sort(&t, schema, dl_buf_cstr(&text), "7|junk|-1", batch_rows, true, k, 3, limit,
                      offset, &out),
             &t.err);
    CHECK_INT_EQ(out.len, want.len);
    CHECK(memcmp(out.data, want.data, want.len) == 0);
    dl_buf_destroy(&out);
    dl_buf_destroy(&want);
    dl_buf_destroy(&text);
    dl_mem_free(NULL, rows, (size_t)n * sizeof(ref_row));
    tx_destroy(&t);
}

TEST(test_sort_many_rows_across_batches_on_one_thread) {
    check_many(0, 5000, -1, 0, 1000);
}

TEST(test_sort_many_rows_on_several_threads_merges_runs) {
    check_many(3, 20000, -1, 0, 2048);
}

TEST(test_sort_offset_without_limit_on_several_threads) {
    check_many(2, 7000, -1, 2500, 700);
}

TEST(test_full_sort_with_a_limit_past_top_n_stops_mid_gather_on_threads) {
    /* A limit above the top-N bound sorts in full; the output is gathered several batches at
     * a time on the pool and must stop exactly at the limit. */
    check_many(2, 270000, 262150, 3, 2048);
}

TEST(test_top_n_on_several_threads_keeps_the_best_rows) {
    check_many(3, 30000, 10, 0, 2048);
    check_many(3, 30000, 100, 37, 1000);
}

TEST(test_top_n_larger_than_input_returns_everything_sorted) {
    check_many(2, 3000, 5000, 0, 500);
}

TEST(test_top_n_compacts_its_candidates) {
    /* N = 3000: every early batch beats the heap, so candidates pile up and get compacted. */
    check_many(0, 40000, 3000, 0, 2048);
}

/* ---- expression keys ----------------------------------------------------------------------- */

static dl_status
neg_kernel(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
           dl_error *err) {
    (void)call;
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    for (int64_t i = 0; i < count; i++) {
        if (u.validity != NULL && !dl_vec_bit_get(u.validity, i)) {
            DL_TRY(dl_vec_append_null(out, err));
        } else {
            DL_TRY(dl_vec_append_i64(out, -((const int64_t *)u.data)[u.sel[i]], err));
        }
    }
    return DL_OK;
}

static const dl_sql_fn_def neg_def = {
    .name = "test_neg",
    .kind = DL_SQL_FN_SCALAR,
    .min_args = 1,
    .max_args = 1,
    .scalar = neg_kernel,
};

TEST(test_sort_by_an_expression_key_not_in_the_output) {
    tx t;
    tx_init(&t, 0);
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_LONG)};
    const dl_type *schema = tx_schema(&t, 1, types);
    dl_sql_bexpr *call = dl_arena_alloc_zero(&t.arena, sizeof(*call));
    dl_sql_bexpr **args = dl_arena_alloc_zero(&t.arena, sizeof(void *));
    args[0] = tx_col(&t, 0, types[0]);
    *call = (dl_sql_bexpr){.kind = DL_SQL_BEXPR_CALL,
                           .type = types[0],
                           .n_args = 1,
                           .args = args,
                           .fn = &neg_def,
                           .loc = 0};
    dl_sql_sort_key *k = keys_new(&t, 1);
    k[0] = (dl_sql_sort_key){.expr = call, .is_desc = false, .is_nulls_first = true};
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(run_sort(&t, schema, "1\n5\nNULL\n3\n", "100", 3, false, k, 1, -1, 0, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "NULL\n5\n3\n1\n");
    dl_buf_reset(&out);
    CHECK_OK(run_sort(&t, schema, "1\n5\nNULL\n3\n", NULL, 3, false, k, 1, 2, 0, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "NULL\n5\n");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

static dl_status
fault_sort_full(tx *t, dl_buf *out) {
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_STRING)};
    const dl_type *schema = tx_schema(t, 2, types);
    dl_sql_sort_key *k = keys_new(t, 2);
    k[0] = key(t, 1, types[1], false, true);
    k[1] = key(t, 0, types[0], true, false);
    return run_sort(t, schema,
                    "3|a string longer than twelve\n1|b\nNULL|a string longer than twelve\n2|b\n",
                    "0|junk", 2, false, k, 2, -1, 1, out);
}

static dl_status
fault_sort_topn(tx *t, dl_buf *out) {
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_STRING)};
    const dl_type *schema = tx_schema(t, 2, types);
    dl_sql_sort_key *k = keys_new(t, 1);
    k[0] = key(t, 1, types[1], false, true);
    return run_sort(t, schema, "3|c\n1|a\n2|b\n4|d\n5|a\n", NULL, 2, false, k, 1, 2, 0, out);
}

TEST(test_sort_out_of_memory_fails_cleanly_at_every_allocation) {
    CHECK(tx_fault_loop(fault_sort_full, "1|b\n2|b\nNULL|a string longer than twelve\n") > 10);
    CHECK(tx_fault_loop(fault_sort_topn, "1|a\n5|a\n") > 10);
}

int
main(void) {
    RUN(test_sort_int_asc_nulls_first_and_desc_nulls_last);
    RUN(test_sort_nulls_last_ascending_and_nulls_first_descending);
    RUN(test_sort_doubles_put_nan_above_infinity_and_negative_zero_equal_zero);
    RUN(test_sort_strings_longer_than_the_key_prefix_compare_in_full);
    RUN(test_sort_booleans_decimals_and_small_integers);
    RUN(test_sort_of_empty_input_returns_no_rows);
    RUN(test_sort_limit_and_offset_pick_the_right_slice);
    RUN(test_sort_many_rows_across_batches_on_one_thread);
    RUN(test_sort_many_rows_on_several_threads_merges_runs);
    RUN(test_sort_offset_without_limit_on_several_threads);
    RUN(test_full_sort_with_a_limit_past_top_n_stops_mid_gather_on_threads);
    RUN(test_top_n_on_several_threads_keeps_the_best_rows);
    RUN(test_top_n_larger_than_input_returns_everything_sorted);
    RUN(test_top_n_compacts_its_candidates);
    RUN(test_sort_by_an_expression_key_not_in_the_output);
    RUN(test_sort_out_of_memory_fails_cleanly_at_every_allocation);
    return harness_finish();
}
