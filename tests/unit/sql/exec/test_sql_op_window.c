/* SPDX-License-Identifier: Apache-2.0 */
/* Window operator (sql_op_window*.c): ranking functions with ties, NTILE, LAG/LEAD with
 * defaults and IGNORE NULLS, FIRST/LAST/NTH_VALUE over frames, aggregates over ROWS and RANGE
 * frames, NULL partition keys, many rows on several threads, bad arguments. */
#include "harness.h"
#include "test_sql_op_util.h"

/* ---- a test aggregate: sum of BIGINT, NULL over no values ---------------------------------- */

typedef struct sum_state {
    int64_t sum;
    int64_t n;
} sum_state;

static void
sum_init(const dl_sql_fn_call *call, void *state) {
    (void)call;
    memset(state, 0, sizeof(sum_state));
}

static dl_status
sum_update(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, void *const *states,
           dl_error *err) {
    (void)call;
    (void)err;
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    for (int64_t i = 0; i < count; i++) {
        if (u.validity == NULL || dl_vec_bit_get(u.validity, i)) {
            sum_state *s = states[i];
            s->sum += ((const int64_t *)u.data)[u.sel[i]];
            s->n++;
        }
    }
    return DL_OK;
}

static dl_status
sum_combine(dl_sql_fn_call *call, const void *src, void *dst, dl_error *err) {
    (void)call;
    (void)err;
    const sum_state *s = src;
    sum_state *d = dst;
    d->sum += s->sum;
    d->n += s->n;
    return DL_OK;
}

static dl_status
sum_finalize(dl_sql_fn_call *call, void *const *states, int64_t count, dl_vector *out,
             dl_error *err) {
    (void)call;
    for (int64_t i = 0; i < count; i++) {
        const sum_state *s = states[i];
        if (s->n == 0) {
            DL_TRY(dl_vec_append_null(out, err));
        } else {
            DL_TRY(dl_vec_append_i64(out, s->sum, err));
        }
    }
    return DL_OK;
}

static const dl_sql_fn_def sum_def = {
    .name = "test_sum",
    .kind = DL_SQL_FN_AGGREGATE,
    .min_args = 1,
    .max_args = 1,
    .state_size = sizeof(sum_state),
    .init = sum_init,
    .update = sum_update,
    .combine = sum_combine,
    .finalize = sum_finalize,
};

/* ---- building windows ---------------------------------------------------------------------- */

#define LONG_T   tx_prim(DL_VEC_TYPE_LONG)
#define INT_T    tx_prim(DL_VEC_TYPE_INT)
#define DOUBLE_T tx_prim(DL_VEC_TYPE_DOUBLE)

static dl_sql_frame
frame_rows(dl_sql_frame_bound_kind start, int64_t sn, dl_sql_frame_bound_kind end, int64_t en) {
    return (dl_sql_frame){.start = start, .end = end, .start_rows = sn, .end_rows = en};
}

static const dl_sql_frame whole = {.start = DL_SQL_FB_UNBOUNDED_PRECEDING,
                                   .end = DL_SQL_FB_UNBOUNDED_FOLLOWING};

static dl_sql_frame
frame_default(void) {
    return (dl_sql_frame){
        .is_range = true, .start = DL_SQL_FB_UNBOUNDED_PRECEDING, .end = DL_SQL_FB_CURRENT_ROW};
}

static dl_sql_bexpr *
const_long(tx *t, int64_t v) {
    dl_vector *vec;
    if (dl_vec_new(NULL, LONG_T, 1, &vec, &t->err) != DL_OK ||
        dl_vec_append_i64(vec, v, &t->err) != DL_OK) {
        abort();
    }
    dl_sql_bexpr *e = dl_sql_bexpr_const(&t->arena, vec, 0);
    dl_vec_unref(vec);
    if (e == NULL) {
        abort();
    }
    return e;
}

static dl_sql_wfn
wfn(tx *t, dl_sql_wfn_kind kind, const dl_type *type, int n_args, dl_sql_bexpr *a0,
    dl_sql_bexpr *a1, dl_sql_bexpr *a2, dl_sql_frame frame) {
    dl_sql_bexpr **args = dl_arena_alloc_zero(&t->arena, 3 * sizeof(void *));
    args[0] = a0;
    args[1] = a1;
    args[2] = a2;
    dl_sql_wfn fn = {.kind = kind, .frame = frame};
    fn.agg.args = args;
    fn.agg.n_args = n_args;
    fn.agg.type = type;
    if (kind == DL_SQL_WFN_AGGREGATE) {
        const dl_type **at = dl_arena_alloc_zero(&t->arena, sizeof(void *));
        at[0] = a0->type;
        fn.agg.fn = &sum_def;
        fn.agg.arg_types = at;
    }
    return fn;
}

/* Runs a window over text rows of schema: PARTITION BY column pcol (or none when -1),
 * ORDER BY columns ocols[0..n_order) ascending, functions fns. */
static dl_status
run_window(tx *t, const dl_type *schema, const char *rows, int32_t pcol, const int32_t *ocols,
           int n_order, dl_sql_wfn *fns, int n_fns, bool is_parallel, dl_buf *out) {
    dl_sql_operator *src = tx_source(t, schema, is_parallel);
    DL_TRY(tx_src_rows(t, src, rows, is_parallel ? 2048 : 3, is_parallel ? NULL : "0|0|0"));
    const dl_type *types[16];
    int n = 0;
    for (int c = 0; c < schema->n_fields; c++) {
        types[n++] = schema->fields[c].type;
    }
    for (int f = 0; f < n_fns; f++) {
        types[n++] = fns[f].agg.type;
    }
    dl_sql_plan *plan = tx_plan(t, DL_SQL_PLAN_WINDOW, tx_schema(t, n, types));
    dl_sql_window_node *w = &plan->u.window;
    w->partition = dl_arena_alloc_zero(&t->arena, sizeof(void *));
    if (pcol >= 0) {
        w->partition[0] = tx_col(t, pcol, schema->fields[pcol].type);
        w->n_partition = 1;
    }
    w->order = dl_arena_alloc_zero(&t->arena, 4 * sizeof(dl_sql_sort_key));
    for (int j = 0; j < n_order; j++) {
        w->order[j] = (dl_sql_sort_key){.expr = tx_col(t, ocols[j], schema->fields[ocols[j]].type),
                                        .is_nulls_first = true};
    }
    w->n_order = n_order;
    w->fns = fns;
    w->n_fns = n_fns;
    dl_sql_operator *op;
    dl_status s = dl_sql_op_window_new(&t->exec, plan, src, &op, &t->err);
    if (s != DL_OK) {
        dl_sql_op_free(src);
        return s;
    }
    s = tx_run(t, op, out);
    tx_sort_lines(out);
    return s;
}

TEST(test_ranks_with_ties_and_a_null_partition) {
    tx t;
    tx_init(&t, 0);
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_STRING), LONG_T};
    const dl_type *schema = tx_schema(&t, 2, types);
    dl_sql_wfn fns[4];
    fns[0] = wfn(&t, DL_SQL_WFN_RANK, INT_T, 0, NULL, NULL, NULL, frame_default());
    fns[1] = wfn(&t, DL_SQL_WFN_DENSE_RANK, INT_T, 0, NULL, NULL, NULL, frame_default());
    fns[2] = wfn(&t, DL_SQL_WFN_PERCENT_RANK, DOUBLE_T, 0, NULL, NULL, NULL, frame_default());
    fns[3] = wfn(&t, DL_SQL_WFN_CUME_DIST, DOUBLE_T, 0, NULL, NULL, NULL, frame_default());
    int32_t order[] = {1};
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(run_window(&t, schema, "a|1\nb|3\na|2\nNULL|5\na|4\na|2\nNULL|5\n", 0, order, 1, fns,
                        4, false, &out),
             &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "NULL|5|1|1|0|1\nNULL|5|1|1|0|1\na|1|1|1|0|0.25\n"
                                    "a|2|2|2|0.333333|0.75\na|2|2|2|0.333333|0.75\n"
                                    "a|4|4|3|1|1\nb|3|1|1|0|1\n");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_row_number_ntile_lag_lead_and_frame_values) {
    tx t;
    tx_init(&t, 0);
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_STRING), LONG_T, LONG_T};
    const dl_type *schema = tx_schema(&t, 3, types);
    dl_sql_bexpr *v = tx_col(&t, 2, LONG_T);
    dl_sql_wfn fns[8];
    fns[0] = wfn(&t, DL_SQL_WFN_ROW_NUMBER, INT_T, 0, NULL, NULL, NULL, frame_default());
    fns[1] = wfn(&t, DL_SQL_WFN_NTILE, INT_T, 1, const_long(&t, 2), NULL, NULL, frame_default());
    fns[2] = wfn(&t, DL_SQL_WFN_LAG, LONG_T, 1, v, NULL, NULL, frame_default());
    fns[3] = wfn(&t, DL_SQL_WFN_LEAD, LONG_T, 3, v, const_long(&t, 2), const_long(&t, -1),
                 frame_default());
    fns[4] = wfn(&t, DL_SQL_WFN_LAG, LONG_T, 1, v, NULL, NULL, frame_default());
    fns[4].ignore_nulls = true;
    fns[5] = wfn(&t, DL_SQL_WFN_FIRST_VALUE, LONG_T, 1, v, NULL, NULL,
                 frame_rows(DL_SQL_FB_PRECEDING, 1, DL_SQL_FB_FOLLOWING, 1));
    fns[5].ignore_nulls = true;
    fns[6] = wfn(&t, DL_SQL_WFN_LAST_VALUE, LONG_T, 1, v, NULL, NULL, frame_default());
    fns[7] = wfn(&t, DL_SQL_WFN_NTH_VALUE, LONG_T, 2, v, const_long(&t, 2), NULL, whole);
    int32_t order[] = {1};
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(run_window(&t, schema, "a|3|30\nb|1|7\na|1|10\na|5|NULL\na|2|NULL\na|4|40\n", 0, order,
                        1, fns, 8, false, &out),
             &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "a|1|10|1|1|NULL|30|NULL|10|10|NULL\n"
                                    "a|2|NULL|2|1|10|40|10|10|NULL|NULL\n"
                                    "a|3|30|3|1|NULL|NULL|10|30|30|NULL\n"
                                    "a|4|40|4|2|30|-1|30|30|40|NULL\n"
                                    "a|5|NULL|5|2|40|-1|40|40|NULL|NULL\n"
                                    "b|1|7|1|1|NULL|-1|NULL|7|7|NULL\n");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_aggregates_over_rows_and_range_frames) {
    tx t;
    tx_init(&t, 0);
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_STRING), LONG_T, LONG_T};
    const dl_type *schema = tx_schema(&t, 3, types);
    dl_sql_bexpr *v = tx_col(&t, 2, LONG_T);
    dl_sql_wfn fns[6];
    fns[0] = wfn(&t, DL_SQL_WFN_AGGREGATE, LONG_T, 1, v, NULL, NULL, frame_default());
    fns[1] = wfn(&t, DL_SQL_WFN_AGGREGATE, LONG_T, 1, v, NULL, NULL, whole);
    fns[2] = wfn(&t, DL_SQL_WFN_AGGREGATE, LONG_T, 1, v, NULL, NULL,
                 frame_rows(DL_SQL_FB_PRECEDING, 1, DL_SQL_FB_FOLLOWING, 1));
    fns[3] = wfn(&t, DL_SQL_WFN_AGGREGATE, LONG_T, 1, v, NULL, NULL,
                 (dl_sql_frame){.is_range = true,
                                .start = DL_SQL_FB_PRECEDING,
                                .start_value = const_long(&t, 2),
                                .end = DL_SQL_FB_CURRENT_ROW});
    fns[4] = wfn(&t, DL_SQL_WFN_AGGREGATE, LONG_T, 1, v, NULL, NULL,
                 frame_rows(DL_SQL_FB_CURRENT_ROW, 0, DL_SQL_FB_UNBOUNDED_FOLLOWING, 0));
    fns[5] = wfn(&t, DL_SQL_WFN_AGGREGATE, LONG_T, 1, v, NULL, NULL,
                 (dl_sql_frame){.is_range = true,
                                .start = DL_SQL_FB_CURRENT_ROW,
                                .end = DL_SQL_FB_FOLLOWING,
                                .end_value = const_long(&t, 1)});
    int32_t order[] = {1};
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(run_window(&t, schema, "a|1|10\na|2|20\na|3|5\na|4|NULL\na|6|1\nb|1|3\n", 0, order, 1,
                        fns, 6, false, &out),
             &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "a|1|10|10|36|30|10|36|30\n"
                                    "a|2|20|30|36|35|30|26|25\n"
                                    "a|3|5|35|36|25|35|6|5\n"
                                    "a|4|NULL|35|36|6|25|1|NULL\n"
                                    "a|6|1|36|36|1|1|1|1\n"
                                    "b|1|3|3|3|3|3|3|3\n");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_default_frame_includes_peers_and_no_order_means_whole_partition) {
    tx t;
    tx_init(&t, 0);
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_STRING), LONG_T, LONG_T};
    const dl_type *schema = tx_schema(&t, 3, types);
    dl_sql_bexpr *v = tx_col(&t, 2, LONG_T);
    dl_sql_wfn fns[1];
    fns[0] = wfn(&t, DL_SQL_WFN_AGGREGATE, LONG_T, 1, v, NULL, NULL, frame_default());
    int32_t order[] = {1};
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(run_window(&t, schema, "a|1|1\na|2|10\na|2|100\na|3|1000\n", 0, order, 1, fns, 1,
                        false, &out),
             &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "a|1|1|1\na|2|100|111\na|2|10|111\na|3|1000|1111\n");
    dl_buf_reset(&out);
    fns[0].frame = whole;
    CHECK_OK(run_window(&t, schema, "a|1|1\nb|2|10\na|2|100\n", -1, NULL, 0, fns, 1, false, &out),
             &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "a|1|1|111\na|2|100|111\nb|2|10|111\n");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_window_over_many_rows_on_threads) {
    tx t;
    tx_init(&t, 2);
    const dl_type *types[] = {LONG_T, LONG_T, LONG_T};
    const dl_type *schema = tx_schema(&t, 3, types);
    dl_buf rows, want, out;
    dl_buf_init(&rows, NULL);
    dl_buf_init(&want, NULL);
    dl_buf_init(&out, NULL);
    int64_t run[7] = {0};
    int64_t rn[7] = {0};
    for (int i = 0; i < 9000; i++) {
        CHECK_OK(dl_buf_appendf(&rows, &t.err, "%d|%d|%d\n", i % 7, i, i % 10), &t.err);
        run[i % 7] += i % 10;
        rn[i % 7]++;
        CHECK_OK(dl_buf_appendf(&want, &t.err, "%d|%d|%d|%lld|%lld\n", i % 7, i, i % 10,
                                (long long)rn[i % 7], (long long)run[i % 7]),
                 &t.err);
    }
    tx_sort_lines(&want);
    dl_sql_wfn fns[2];
    fns[0] = wfn(&t, DL_SQL_WFN_ROW_NUMBER, LONG_T, 0, NULL, NULL, NULL, frame_default());
    fns[1] = wfn(&t, DL_SQL_WFN_AGGREGATE, LONG_T, 1, tx_col(&t, 2, LONG_T), NULL, NULL,
                 frame_rows(DL_SQL_FB_UNBOUNDED_PRECEDING, 0, DL_SQL_FB_CURRENT_ROW, 0));
    int32_t order[] = {1};
    CHECK_OK(run_window(&t, schema, dl_buf_cstr(&rows), 0, order, 1, fns, 2, true, &out), &t.err);
    CHECK_INT_EQ(out.len, want.len);
    CHECK(memcmp(out.data, want.data, want.len) == 0);
    dl_buf_destroy(&rows);
    dl_buf_destroy(&want);
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_window_over_no_rows_returns_no_rows) {
    tx t;
    tx_init(&t, 0);
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_STRING), LONG_T, LONG_T};
    const dl_type *schema = tx_schema(&t, 3, types);
    dl_sql_wfn fns[2];
    fns[0] = wfn(&t, DL_SQL_WFN_ROW_NUMBER, INT_T, 0, NULL, NULL, NULL, frame_default());
    fns[1] = wfn(&t, DL_SQL_WFN_AGGREGATE, LONG_T, 1, tx_col(&t, 2, LONG_T), NULL, NULL, whole);
    int32_t order[] = {1};
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(run_window(&t, schema, "", 0, order, 1, fns, 2, false, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_ntile_with_zero_buckets_is_an_error) {
    tx t;
    tx_init(&t, 0);
    const dl_type *types[] = {LONG_T};
    const dl_type *schema = tx_schema(&t, 1, types);
    dl_sql_wfn fns[1];
    fns[0] = wfn(&t, DL_SQL_WFN_NTILE, INT_T, 1, const_long(&t, 0), NULL, NULL, frame_default());
    int32_t order[] = {0};
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_STATUS(run_window(&t, schema, "1\n2\n", -1, order, 1, fns, 1, false, &out), DL_ERR_DATA,
                 &t.err);
    CHECK_ERR_CONTAINS(&t.err, "buckets expression must be positive, but got: 0");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

static dl_status
fault_window(tx *t, dl_buf *out) {
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_STRING), LONG_T, LONG_T};
    const dl_type *schema = tx_schema(t, 3, types);
    dl_sql_bexpr *v = tx_col(t, 2, LONG_T);
    dl_sql_wfn *fns = dl_arena_alloc_zero(&t->arena, 4 * sizeof(dl_sql_wfn));
    fns[0] = wfn(t, DL_SQL_WFN_RANK, INT_T, 0, NULL, NULL, NULL, frame_default());
    fns[1] = wfn(t, DL_SQL_WFN_LAG, LONG_T, 1, v, NULL, NULL, frame_default());
    fns[2] = wfn(t, DL_SQL_WFN_AGGREGATE, LONG_T, 1, v, NULL, NULL, frame_default());
    fns[3] = wfn(t, DL_SQL_WFN_AGGREGATE, LONG_T, 1, v, NULL, NULL,
                 frame_rows(DL_SQL_FB_PRECEDING, 1, DL_SQL_FB_CURRENT_ROW, 0));
    static const int32_t order[] = {1};
    return run_window(t, schema,
                      "a string longer than twelve|1|10\nb|1|5\na string longer than twelve|2|20\n",
                      0, order, 1, fns, 4, false, out);
}

TEST(test_window_out_of_memory_fails_cleanly_at_every_allocation) {
    CHECK(tx_fault_loop(fault_window, "a string longer than twelve|1|10|1|NULL|10|10\n"
                                      "a string longer than twelve|2|20|2|10|30|30\n"
                                      "b|1|5|1|NULL|5|5\n") > 10);
}

int
main(void) {
    RUN(test_ranks_with_ties_and_a_null_partition);
    RUN(test_row_number_ntile_lag_lead_and_frame_values);
    RUN(test_aggregates_over_rows_and_range_frames);
    RUN(test_default_frame_includes_peers_and_no_order_means_whole_partition);
    RUN(test_window_over_many_rows_on_threads);
    RUN(test_window_over_no_rows_returns_no_rows);
    RUN(test_ntile_with_zero_buckets_is_an_error);
    RUN(test_window_out_of_memory_fails_cleanly_at_every_allocation);
    return harness_finish();
}
