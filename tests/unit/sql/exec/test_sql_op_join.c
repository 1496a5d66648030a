/* SPDX-License-Identifier: Apache-2.0 */
/* Hash join operator (sql_op_join*.c): every join type, NULL keys, null-safe keys, NOT IN,
 * MARK, scalar subqueries, residual predicates, nested loops, many rows and several threads. */
#include "harness.h"
#include "sql/exec/sql_op_join_int.h"
#include "test_sql_op_util.h"

/* ---- a residual predicate: c_a < c_b over BIGINT columns ---------------------------------- */

static dl_status
lt_kernel(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
          dl_error *err) {
    (void)call;
    dl_vec_unified a, b;
    dl_vec_unify(args[0], count, &a);
    dl_vec_unify(args[1], count, &b);
    for (int64_t i = 0; i < count; i++) {
        bool na = a.validity != NULL && !dl_vec_bit_get(a.validity, i);
        bool nb = b.validity != NULL && !dl_vec_bit_get(b.validity, i);
        if (na || nb) {
            DL_TRY(dl_vec_append_null(out, err));
            continue;
        }
        int64_t x = ((const int64_t *)a.data)[a.sel[i]];
        int64_t y = ((const int64_t *)b.data)[b.sel[i]];
        DL_TRY(dl_vec_append_bool(out, x < y, err));
    }
    return DL_OK;
}

static const dl_sql_fn_def lt_def = {
    .name = "test_lt",
    .kind = DL_SQL_FN_SCALAR,
    .min_args = 2,
    .max_args = 2,
    .scalar = lt_kernel,
};

static dl_sql_bexpr *
lt_expr(tx *t, int32_t a, int32_t b) {
    const dl_type *lt = tx_prim(DL_VEC_TYPE_LONG);
    dl_sql_bexpr *call = dl_arena_alloc_zero(&t->arena, sizeof(*call));
    dl_sql_bexpr **args = dl_arena_alloc_zero(&t->arena, 2 * sizeof(void *));
    args[0] = tx_col(t, a, lt);
    args[1] = tx_col(t, b, lt);
    *call = (dl_sql_bexpr){.kind = DL_SQL_BEXPR_CALL,
                           .type = tx_prim(DL_VEC_TYPE_BOOLEAN),
                           .n_args = 2,
                           .args = args,
                           .fn = &lt_def};
    return call;
}

/* ---- running joins ------------------------------------------------------------------------- */

typedef struct join_spec {
    dl_sql_join_type type;
    const dl_type *left;  /* schema */
    const dl_type *right; /* schema */
    const char *left_rows;
    const char *right_rows;
    const char *left_junk;
    int batch_rows;
    int n_keys;
    int32_t lk[4], rk[4];
    bool null_equal[4];
    dl_sql_bexpr *residual;
    bool is_null_aware;
    bool is_parallel;
} join_spec;

static const dl_type *
output_schema(tx *t, const join_spec *js) {
    if (js->type == DL_SQL_JOIN_T_SEMI || js->type == DL_SQL_JOIN_T_ANTI) {
        return js->left;
    }
    if (js->type == DL_SQL_JOIN_T_MARK) {
        const dl_type *types[16];
        int n = 0;
        for (int i = 0; i < js->left->n_fields; i++) {
            types[n++] = js->left->fields[i].type;
        }
        types[n++] = tx_prim(DL_VEC_TYPE_BOOLEAN);
        return tx_schema(t, n, types);
    }
    return tx_concat(t, js->left, js->right);
}

static dl_status
run_join(tx *t, const join_spec *js, dl_buf *out) {
    dl_sql_operator *left = tx_source(t, js->left, js->is_parallel);
    dl_sql_operator *right = tx_source(t, js->right, js->is_parallel);
    int batch_rows = js->batch_rows > 0 ? js->batch_rows : 3;
    DL_TRY(tx_src_rows(t, left, js->left_rows, batch_rows, js->left_junk));
    DL_TRY(tx_src_rows(t, right, js->right_rows, batch_rows, NULL));
    dl_sql_plan *plan = tx_plan(t, DL_SQL_PLAN_JOIN, output_schema(t, js));
    dl_sql_join *j = &plan->u.join;
    j->type = js->type;
    j->n_keys = js->n_keys;
    j->left_keys = dl_arena_alloc_zero(&t->arena, 4 * sizeof(void *));
    j->right_keys = dl_arena_alloc_zero(&t->arena, 4 * sizeof(void *));
    j->is_null_equal = dl_arena_alloc_zero(&t->arena, 4 * sizeof(bool));
    for (int k = 0; k < js->n_keys; k++) {
        j->left_keys[k] = tx_col(t, js->lk[k], js->left->fields[js->lk[k]].type);
        j->right_keys[k] = tx_col(t, js->rk[k], js->right->fields[js->rk[k]].type);
        j->is_null_equal[k] = js->null_equal[k];
    }
    j->residual = js->residual;
    j->is_null_aware = js->is_null_aware;
    dl_sql_operator *op;
    dl_status s = dl_sql_op_join_new(&t->exec, plan, left, right, &op, &t->err);
    if (s != DL_OK) {
        dl_sql_op_free(left);
        dl_sql_op_free(right);
        return s;
    }
    s = tx_run(t, op, out);
    tx_sort_lines(out);
    return s;
}

/* Left: (id BIGINT, k BIGINT, s STRING); right: (k BIGINT, v STRING). */
static void
two_tables(tx *t, join_spec *js) {
    const dl_type *l[] = {tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_LONG),
                          tx_prim(DL_VEC_TYPE_STRING)};
    const dl_type *r[] = {tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_STRING)};
    js->left = tx_schema(t, 3, l);
    js->right = tx_schema(t, 2, r);
    js->left_rows = "1|10|a\n2|20|b\n3|NULL|c\n4|30|d\n5|10|e\n";
    js->right_rows = "10|x\n10|y\n30|z\nNULL|n\n40|w\n";
    js->left_junk = "99|10|junk";
    js->n_keys = 1;
    js->lk[0] = 1;
    js->rk[0] = 0;
}

static void
check_join(dl_sql_join_type type, bool is_parallel, const char *want) {
    tx t;
    tx_init(&t, is_parallel ? 2 : 0);
    join_spec js = {.type = type, .is_parallel = is_parallel};
    js.is_null_aware = type == DL_SQL_JOIN_T_MARK; /* IN (subquery) */
    two_tables(&t, &js);
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(run_join(&t, &js, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), want);
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

static const char inner_want[] = "1|10|a|10|x\n1|10|a|10|y\n4|30|d|30|z\n5|10|e|10|x\n"
                                 "5|10|e|10|y\n";

TEST(test_inner_join_matches_duplicates_and_never_null_keys) {
    check_join(DL_SQL_JOIN_T_INNER, false, inner_want);
    check_join(DL_SQL_JOIN_T_INNER, true, inner_want);
}

TEST(test_left_join_keeps_unmatched_and_null_key_rows) {
    const char *want = "1|10|a|10|x\n1|10|a|10|y\n2|20|b|NULL|NULL\n3|NULL|c|NULL|NULL\n"
                       "4|30|d|30|z\n5|10|e|10|x\n5|10|e|10|y\n";
    check_join(DL_SQL_JOIN_T_LEFT, false, want);
    check_join(DL_SQL_JOIN_T_LEFT, true, want);
}

TEST(test_right_join_emits_unmatched_build_rows_once) {
    const char *want = "1|10|a|10|x\n1|10|a|10|y\n4|30|d|30|z\n5|10|e|10|x\n5|10|e|10|y\n"
                       "NULL|NULL|NULL|40|w\nNULL|NULL|NULL|NULL|n\n";
    check_join(DL_SQL_JOIN_T_RIGHT, false, want);
    check_join(DL_SQL_JOIN_T_RIGHT, true, want);
}

TEST(test_full_join_keeps_both_sides) {
    const char *want = "1|10|a|10|x\n1|10|a|10|y\n2|20|b|NULL|NULL\n3|NULL|c|NULL|NULL\n"
                       "4|30|d|30|z\n5|10|e|10|x\n5|10|e|10|y\nNULL|NULL|NULL|40|w\n"
                       "NULL|NULL|NULL|NULL|n\n";
    check_join(DL_SQL_JOIN_T_FULL, false, want);
    check_join(DL_SQL_JOIN_T_FULL, true, want);
}

TEST(test_semi_and_anti_join_select_left_rows) {
    check_join(DL_SQL_JOIN_T_SEMI, false, "1|10|a\n4|30|d\n5|10|e\n");
    check_join(DL_SQL_JOIN_T_ANTI, false, "2|20|b\n3|NULL|c\n");
    check_join(DL_SQL_JOIN_T_ANTI, true, "2|20|b\n3|NULL|c\n");
}

TEST(test_mark_join_is_true_false_or_null) {
    /* The build side has a NULL key, so a row without a match is NULL, not FALSE. */
    check_join(DL_SQL_JOIN_T_MARK, false,
               "1|10|a|true\n2|20|b|NULL\n3|NULL|c|NULL\n4|30|d|true\n5|10|e|true\n");
}

static void
check_not_in(const char *left_rows, const char *right_rows, const char *want,
             dl_sql_join_type type) {
    tx t;
    tx_init(&t, 0);
    join_spec js = {.type = type,
                    .is_null_aware = type == DL_SQL_JOIN_T_ANTI || type == DL_SQL_JOIN_T_MARK};
    two_tables(&t, &js);
    js.left_rows = left_rows;
    js.right_rows = right_rows;
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(run_join(&t, &js, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), want);
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_not_in_with_a_null_on_the_build_side_returns_nothing) {
    check_not_in("1|10|a\n2|20|b\n3|NULL|c\n", "10|x\nNULL|n\n", "", DL_SQL_JOIN_T_ANTI);
}

TEST(test_not_in_drops_null_probe_keys_unless_build_is_empty) {
    check_not_in("1|10|a\n2|20|b\n3|NULL|c\n", "10|x\n30|z\n", "2|20|b\n", DL_SQL_JOIN_T_ANTI);
    check_not_in("1|10|a\n2|20|b\n3|NULL|c\n", "", "1|10|a\n2|20|b\n3|NULL|c\n",
                 DL_SQL_JOIN_T_ANTI);
}

TEST(test_mark_join_without_build_nulls_is_false_for_misses) {
    check_not_in("1|10|a\n2|20|b\n3|NULL|c\n", "10|x\n30|z\n",
                 "1|10|a|true\n2|20|b|false\n3|NULL|c|NULL\n", DL_SQL_JOIN_T_MARK);
    check_not_in("1|10|a\n3|NULL|c\n", "", "1|10|a|false\n3|NULL|c|false\n", DL_SQL_JOIN_T_MARK);
}

TEST(test_mark_join_that_is_not_null_aware_is_exists) {
    tx t;
    tx_init(&t, 0);
    join_spec js = {.type = DL_SQL_JOIN_T_MARK};
    two_tables(&t, &js);
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(run_join(&t, &js, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out),
                 "1|10|a|true\n2|20|b|false\n3|NULL|c|false\n4|30|d|true\n5|10|e|true\n");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

/* x IN (SELECT y FROM r WHERE r.z = l.z): key 0 is x = y, key 1 the correlation z = z. */
static void
check_correlated_in(dl_sql_join_type type, const char *want) {
    tx t;
    tx_init(&t, 0);
    const dl_type *lt[] = {tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_LONG),
                           tx_prim(DL_VEC_TYPE_LONG)};
    const dl_type *rt[] = {tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_LONG)};
    join_spec js = {.type = type, .is_null_aware = true, .n_keys = 2, .lk = {1, 2}, .rk = {0, 1}};
    js.left = tx_schema(&t, 3, lt);
    js.right = tx_schema(&t, 2, rt);
    js.left_rows = "1|10|1\n2|20|1\n3|NULL|1\n4|10|2\n5|NULL|3\n";
    js.right_rows = "10|1\nNULL|2\n30|1\n";
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(run_join(&t, &js, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), want);
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_correlated_in_and_not_in_are_null_aware_on_the_in_key_only) {
    check_correlated_in(DL_SQL_JOIN_T_MARK,
                        "1|10|1|true\n2|20|1|false\n3|NULL|1|NULL\n4|10|2|NULL\n5|NULL|3|false\n");
    check_correlated_in(DL_SQL_JOIN_T_ANTI, "2|20|1\n5|NULL|3\n");
}

TEST(test_single_join_is_a_left_join_with_at_most_one_match) {
    check_not_in("1|10|a\n2|20|b\n3|NULL|c\n", "10|x\n30|z\n",
                 "1|10|a|10|x\n2|20|b|NULL|NULL\n3|NULL|c|NULL|NULL\n", DL_SQL_JOIN_T_SINGLE);
}

TEST(test_single_join_with_two_matches_is_an_error) {
    tx t;
    tx_init(&t, 0);
    join_spec js = {.type = DL_SQL_JOIN_T_SINGLE};
    two_tables(&t, &js);
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_STATUS(run_join(&t, &js, &out), DL_ERR_DATA, &t.err);
    CHECK_ERR_CONTAINS(&t.err, "more than one row returned by a subquery used as an expression");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_null_safe_keys_match_null_with_null) {
    tx t;
    tx_init(&t, 0);
    join_spec js = {.type = DL_SQL_JOIN_T_INNER};
    two_tables(&t, &js);
    js.null_equal[0] = true;
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(run_join(&t, &js, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "1|10|a|10|x\n1|10|a|10|y\n3|NULL|c|NULL|n\n4|30|d|30|z\n"
                                    "5|10|e|10|x\n5|10|e|10|y\n");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_two_keys_of_string_and_double_with_nan_and_negative_zero) {
    tx t;
    tx_init(&t, 0);
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_STRING), tx_prim(DL_VEC_TYPE_DOUBLE)};
    join_spec js = {.type = DL_SQL_JOIN_T_INNER, .n_keys = 2, .lk = {0, 1}, .rk = {0, 1}};
    js.left = tx_schema(&t, 2, types);
    js.right = js.left;
    js.left_rows = "a|nan\na|-0.0\nlong string beyond twelve|1.5\nb|1.5\na|2\n";
    js.right_rows = "a|nan\na|0.0\nlong string beyond twelve|1.5\nb|2\n";
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(run_join(&t, &js, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out),
                 "a|-0|a|0\na|nan|a|nan\nlong string beyond twelve|1.5|long string beyond "
                 "twelve|1.5\n");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_residual_predicate_filters_pairs_before_left_join_fills_nulls) {
    tx t;
    tx_init(&t, 0);
    join_spec js = {.type = DL_SQL_JOIN_T_LEFT};
    const dl_type *l[] = {tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_LONG)};
    js.left = tx_schema(&t, 2, l);
    js.right = js.left;
    js.left_rows = "1|5\n2|5\n3|7\n";
    js.right_rows = "1|4\n1|6\n2|3\n";
    js.n_keys = 1;
    js.lk[0] = 0;
    js.rk[0] = 0;
    js.residual = lt_expr(&t, 1, 3); /* left.c1 < right.c1 */
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(run_join(&t, &js, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "1|5|1|6\n2|5|NULL|NULL\n3|7|NULL|NULL\n");
    dl_buf_reset(&out);
    js.type = DL_SQL_JOIN_T_SEMI;
    CHECK_OK(run_join(&t, &js, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "1|5\n");
    dl_buf_reset(&out);
    js.type = DL_SQL_JOIN_T_ANTI;
    CHECK_OK(run_join(&t, &js, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "2|5\n3|7\n");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_cross_join_and_nested_loop_with_only_a_residual) {
    tx t;
    tx_init(&t, 0);
    join_spec js = {.type = DL_SQL_JOIN_T_CROSS};
    const dl_type *l[] = {tx_prim(DL_VEC_TYPE_LONG)};
    js.left = tx_schema(&t, 1, l);
    js.right = js.left;
    js.left_rows = "1\n2\n3\n";
    js.right_rows = "2\n3\n";
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(run_join(&t, &js, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "1|2\n1|3\n2|2\n2|3\n3|2\n3|3\n");
    dl_buf_reset(&out);
    js.type = DL_SQL_JOIN_T_FULL;
    js.residual = lt_expr(&t, 0, 1);
    js.right_rows = "2\n3\n0\n";
    CHECK_OK(run_join(&t, &js, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "1|2\n1|3\n2|3\n3|NULL\nNULL|0\n");
    dl_buf_reset(&out);
    js.type = DL_SQL_JOIN_T_MARK;
    CHECK_OK(run_join(&t, &js, &out), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "1|true\n2|true\n3|false\n");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_joins_with_an_empty_side) {
    check_not_in("", "10|x\n", "", DL_SQL_JOIN_T_INNER);
    check_not_in("1|10|a\n", "", "", DL_SQL_JOIN_T_INNER);
    check_not_in("1|10|a\n", "", "1|10|a|NULL|NULL\n", DL_SQL_JOIN_T_LEFT);
    check_not_in("", "10|x\n", "NULL|NULL|NULL|10|x\n", DL_SQL_JOIN_T_RIGHT);
    check_not_in("1|10|a\n", "", "", DL_SQL_JOIN_T_SEMI);
}

/* ---- many rows ----------------------------------------------------------------------------- */

/* Left: i, i % m (NULL every 13th); right: j, j % n. Reference by nested loops. */
static void
check_many(dl_sql_join_type type, int n_left, int n_right, int m, int workers) {
    tx t;
    tx_init(&t, workers);
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_LONG)};
    join_spec js = {.type = type, .n_keys = 1, .lk = {1}, .rk = {1}, .is_parallel = true};
    js.left = tx_schema(&t, 2, types);
    js.right = js.left;
    js.batch_rows = 2048;
    dl_buf lt, rt, want;
    dl_buf_init(&lt, NULL);
    dl_buf_init(&rt, NULL);
    dl_buf_init(&want, NULL);
    for (int i = 0; i < n_left; i++) {
        if (i % 13 == 0) {
            CHECK_OK(dl_buf_appendf(&lt, &t.err, "%d|NULL\n", i), &t.err);
        } else {
            CHECK_OK(dl_buf_appendf(&lt, &t.err, "%d|%d\n", i, i % m), &t.err);
        }
    }
    for (int j = 0; j < n_right; j++) {
        CHECK_OK(dl_buf_appendf(&rt, &t.err, "%d|%d\n", j, (j * 7) % (2 * m)), &t.err);
    }
    bool *right_hit = dl_mem_alloc_zero(NULL, (size_t)n_right);
    for (int i = 0; i < n_left; i++) {
        bool hit = false;
        for (int j = 0; j < n_right && i % 13 != 0; j++) {
            if ((j * 7) % (2 * m) == i % m) {
                hit = true;
                right_hit[j] = true;
                if (type != DL_SQL_JOIN_T_SEMI && type != DL_SQL_JOIN_T_ANTI) {
                    CHECK_OK(dl_buf_appendf(&want, &t.err, "%d|%d|%d|%d\n", i, i % m, j,
                                            (j * 7) % (2 * m)),
                             &t.err);
                }
            }
        }
        if (type == DL_SQL_JOIN_T_SEMI && hit) {
            CHECK_OK(dl_buf_appendf(&want, &t.err, "%d|%d\n", i, i % m), &t.err);
        }
        if (type == DL_SQL_JOIN_T_ANTI && !hit) {
            if (i % 13 == 0) {
                CHECK_OK(dl_buf_appendf(&want, &t.err, "%d|NULL\n", i), &t.err);
            } else {
                CHECK_OK(dl_buf_appendf(&want, &t.err, "%d|%d\n", i, i % m), &t.err);
            }
        }
    }
    for (int j = 0; j < n_right && type == DL_SQL_JOIN_T_RIGHT; j++) {
        if (!right_hit[j]) {
            CHECK_OK(dl_buf_appendf(&want, &t.err, "NULL|NULL|%d|%d\n", j, (j * 7) % (2 * m)),
                     &t.err);
        }
    }
    tx_sort_lines(&want);
    js.left_rows = dl_buf_cstr(&lt);
    js.right_rows = dl_buf_cstr(&rt);
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(run_join(&t, &js, &out), &t.err);
    CHECK_INT_EQ(out.len, want.len);
    CHECK(memcmp(out.data, want.data, want.len) == 0);
    dl_mem_free(NULL, right_hit, (size_t)n_right);
    dl_buf_destroy(&out);
    dl_buf_destroy(&want);
    dl_buf_destroy(&lt);
    dl_buf_destroy(&rt);
    tx_destroy(&t);
}

TEST(test_inner_join_many_rows_unique_build_keys_on_threads) {
    check_many(DL_SQL_JOIN_T_INNER, 9000, 3000, 4000, 2);
}

TEST(test_inner_join_many_rows_with_duplicate_build_keys) {
    check_many(DL_SQL_JOIN_T_INNER, 5000, 3000, 300, 0);
}

TEST(test_right_join_many_rows_on_threads_emits_unmatched_once) {
    check_many(DL_SQL_JOIN_T_RIGHT, 7000, 5000, 2000, 3);
}

TEST(test_semi_and_anti_many_rows_on_threads) {
    check_many(DL_SQL_JOIN_T_SEMI, 7000, 500, 2000, 2);
    check_many(DL_SQL_JOIN_T_ANTI, 7000, 500, 2000, 2);
}

/* ---- large build sides: the table is built in parallel ------------------------------------ */

/* Runs a join whose build side (70,000 rows: keys repeat, every 17th is NULL) is large enough
 * for a parallel table build, on a pool of workers (0: no pool, a serial build). */
/*
 * Finds n BIGINT keys of at least 100000 whose home slot in a table of 262144 slots (the size
 * for the 70,000 build rows below) is `home`, so that the test can crowd the last slot of a
 * task's range and force rows out of it (a white-box test of sql_op_join_table.c).
 */
static void
keys_with_home(uint64_t home, int n, int64_t *out) {
    dl_error err;
    dl_vector *v = NULL;
    CHECK_OK(dl_vec_new(NULL, tx_prim(DL_VEC_TYPE_LONG), DL_BATCH_CAPACITY, &v, &err), &err);
    uint64_t h[DL_BATCH_CAPACITY];
    int found = 0;
    for (int64_t base = 100000; found < n; base += DL_BATCH_CAPACITY) {
        int64_t *d = v->data;
        for (int64_t i = 0; i < DL_BATCH_CAPACITY; i++) {
            d[i] = base + i;
        }
        dl_vec_set_length(v, DL_BATCH_CAPACITY);
        dl_sql_hash_vec(v, DL_BATCH_CAPACITY, h, true);
        for (int64_t i = 0; i < DL_BATCH_CAPACITY && found < n; i++) {
            if ((h[i] & (262144u - 1)) == home) {
                out[found++] = base + i;
            }
        }
    }
    dl_vec_unref(v);
}

static void
run_large_build(dl_sql_join_type type, bool is_string_key, int workers, dl_buf *out) {
    tx t;
    tx_init(&t, workers);
    const dl_type *kt = tx_prim(is_string_key ? DL_VEC_TYPE_STRING : DL_VEC_TYPE_LONG);
    const dl_type *types[] = {tx_prim(DL_VEC_TYPE_LONG), kt};
    join_spec js = {.type = type, .n_keys = 1, .lk = {1}, .rk = {1}, .is_parallel = true};
    js.is_null_aware = type == DL_SQL_JOIN_T_MARK;
    js.left = tx_schema(&t, 2, types);
    js.right = js.left;
    js.batch_rows = 2048;
    dl_buf lt, rt;
    dl_buf_init(&lt, NULL);
    dl_buf_init(&rt, NULL);
    const char *pre = is_string_key ? "key number " : "";
    for (int i = 0; i < 3000; i++) {
        if (i % 13 == 0) {
            CHECK_OK(dl_buf_appendf(&lt, &t.err, "%d|NULL\n", i), &t.err);
        } else {
            CHECK_OK(dl_buf_appendf(&lt, &t.err, "%d|%s%d\n", i, pre, (i * 37) % 50000), &t.err);
        }
    }
    /* With 3 tasks (2 workers and the caller) the ranges end at slots 87381 and 262144: four
     * keys homed on each last slot, twice each on the build side, leave their range. */
    int64_t crowd[8];
    keys_with_home(87380, 4, crowd);
    keys_with_home(262143, 4, crowd + 4);
    for (int c = 0; c < 8 && !is_string_key; c++) {
        CHECK_OK(dl_buf_appendf(&lt, &t.err, "%d|%lld\n", 5000 + c, (long long)crowd[c]), &t.err);
    }
    for (int j = 0; j < 70000; j++) {
        if (j < 16 && !is_string_key) {
            CHECK_OK(dl_buf_appendf(&rt, &t.err, "%d|%lld\n", j, (long long)crowd[j / 2]), &t.err);
        } else if (j % 17 == 0) {
            CHECK_OK(dl_buf_appendf(&rt, &t.err, "%d|NULL\n", j), &t.err);
        } else {
            CHECK_OK(dl_buf_appendf(&rt, &t.err, "%d|%s%d\n", j, pre, j % 40000), &t.err);
        }
    }
    /* A key far from the others keeps the keys sparse: the hashed table, not a direct one. */
    CHECK_OK(dl_buf_appendf(&rt, &t.err, "70000|%s1000000000000\n", pre), &t.err);
    js.left_rows = dl_buf_cstr(&lt);
    js.right_rows = dl_buf_cstr(&rt);
    CHECK_OK(run_join(&t, &js, out), &t.err);
    dl_buf_destroy(&lt);
    dl_buf_destroy(&rt);
    tx_destroy(&t);
}

/* The same rows, whether the table was built on one thread or on several. */
static void
check_large_build(dl_sql_join_type type, bool is_string_key, size_t min_len) {
    dl_buf serial, parallel;
    dl_buf_init(&serial, NULL);
    dl_buf_init(&parallel, NULL);
    run_large_build(type, is_string_key, 0, &serial);
    run_large_build(type, is_string_key, 2, &parallel);
    CHECK(serial.len >= min_len);
    CHECK_INT_EQ(parallel.len, serial.len);
    CHECK(serial.len == parallel.len && memcmp(serial.data, parallel.data, serial.len) == 0);
    dl_buf_destroy(&serial);
    dl_buf_destroy(&parallel);
}

TEST(test_parallel_build_gives_the_serial_results_for_every_join_type) {
    /* 3000 probe rows, 2769 with a key; keys below 40000 match one or two build rows. */
    check_large_build(DL_SQL_JOIN_T_INNER, false, 2000 * 10);
    check_large_build(DL_SQL_JOIN_T_LEFT, false, 3000 * 10);
    check_large_build(DL_SQL_JOIN_T_RIGHT, false, 70000 * 10);
    check_large_build(DL_SQL_JOIN_T_FULL, false, 70000 * 10);
    check_large_build(DL_SQL_JOIN_T_SEMI, false, 1000 * 6);
    check_large_build(DL_SQL_JOIN_T_ANTI, false, 0);
    check_large_build(DL_SQL_JOIN_T_MARK, false, 3000 * 10);
}

TEST(test_parallel_build_with_string_keys_and_duplicates) {
    check_large_build(DL_SQL_JOIN_T_INNER, true, 2000 * 20);
    check_large_build(DL_SQL_JOIN_T_FULL, true, 70000 * 20);
}

/* ---- white-box: direct tables and coded columns --------------------------------------------- */

/* Opens a join of js and pulls it to the end on this thread, rendering into out; inspect (when
 * not NULL) sees the open operator and every output batch. */
typedef void (*inspect_fn)(const dl_sql_operator *op, const dl_batch *batch);

static dl_status
run_join_inspect(tx *t, const join_spec *js, dl_buf *out, inspect_fn inspect) {
    dl_sql_operator *left = tx_source(t, js->left, false);
    dl_sql_operator *right = tx_source(t, js->right, false);
    DL_TRY(tx_src_rows(t, left, js->left_rows, 2048, NULL));
    DL_TRY(tx_src_rows(t, right, js->right_rows, 2048, NULL));
    dl_sql_plan *plan = tx_plan(t, DL_SQL_PLAN_JOIN, output_schema(t, js));
    dl_sql_join *j = &plan->u.join;
    j->type = js->type;
    j->n_keys = 1;
    j->left_keys = dl_arena_alloc_zero(&t->arena, sizeof(void *));
    j->right_keys = dl_arena_alloc_zero(&t->arena, sizeof(void *));
    j->is_null_equal = dl_arena_alloc_zero(&t->arena, sizeof(bool));
    j->left_keys[0] = tx_col(t, js->lk[0], js->left->fields[js->lk[0]].type);
    j->right_keys[0] = tx_col(t, js->rk[0], js->right->fields[js->rk[0]].type);
    dl_sql_operator *op;
    DL_TRY(dl_sql_op_join_new(&t->exec, plan, left, right, &op, &t->err));
    dl_status s = dl_sql_op_open(op, &t->err);
    void *local = NULL;
    dl_batch *b = NULL;
    if (s == DL_OK) {
        s = dl_sql_op_local_new(op, &local, &t->err);
    }
    if (s == DL_OK) {
        s = dl_sql_batch_new(&t->exec, op->schema, &b, &t->err);
    }
    while (s == DL_OK) {
        s = dl_sql_op_next(op, local, b, &t->err);
        if (s != DL_OK || b->count == 0) {
            break;
        }
        if (inspect != NULL) {
            inspect(op, b);
        }
        s = tx_render_batch(out, b, &t->err);
    }
    dl_vec_batch_free(b);
    dl_sql_op_local_free(op, local);
    dl_sql_op_free(op);
    tx_sort_lines(out);
    return s;
}

static void
inspect_direct(const dl_sql_operator *op, const dl_batch *batch) {
    (void)batch;
    const dl_sql_join_state *st = op->state;
    CHECK(st->build.direct != NULL);
    CHECK(st->build.slots == NULL);
    CHECK_INT_EQ(st->build.direct_min, -50);
    CHECK_INT_EQ((int64_t)st->build.direct_len, 100);
    CHECK(st->has_dup_groups);
    CHECK_INT_EQ(st->build.n_null_rows, 1);
}

/* The expected output of the probe row of key k of check_direct. */
static dl_status
want_direct_probe_row(dl_buf *want, dl_sql_join_type type, int k, dl_error *err) {
    bool hit = k >= -50 && k < 50;
    for (int c = 0; c < 3 && hit && type != DL_SQL_JOIN_T_ANTI; c++) {
        DL_TRY(dl_buf_appendf(want, err, "%d|%d|%d|%d\n", k + 60, k, k + 50 + 100 * c, k));
    }
    if (!hit && type == DL_SQL_JOIN_T_LEFT) {
        return dl_buf_appendf(want, err, "%d|%d|NULL|NULL\n", k + 60, k);
    }
    if (!hit && type == DL_SQL_JOIN_T_ANTI) {
        return dl_buf_appendf(want, err, "%d|%d\n", k + 60, k);
    }
    return DL_OK;
}

static void
check_direct(dl_sql_join_type type) {
    tx t;
    tx_init(&t, 0);
    const dl_type *lt[] = {tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_LONG)};
    join_spec js = {.type = type, .n_keys = 1, .lk = {1}, .rk = {1}};
    js.left = tx_schema(&t, 2, lt);
    js.right = js.left;
    dl_buf lr, rr, want, out;
    dl_buf_init(&lr, NULL);
    dl_buf_init(&rr, NULL);
    dl_buf_init(&want, NULL);
    dl_buf_init(&out, NULL);
    /* Build: keys -50..49, three rows each, and a NULL; probe: keys -60..60 and a NULL. */
    for (int r = 0; r < 300; r++) {
        CHECK_OK(dl_buf_appendf(&rr, &t.err, "%d|%d\n", r, r % 100 - 50), &t.err);
    }
    CHECK_OK(dl_buf_appendf(&rr, &t.err, "300|NULL\n"), &t.err);
    CHECK_OK(dl_buf_appendf(&lr, &t.err, "1000|NULL\n"), &t.err);
    if (type != DL_SQL_JOIN_T_INNER && type != DL_SQL_JOIN_T_RIGHT) {
        CHECK_OK(
            dl_buf_appendf(&want, &t.err,
                           type == DL_SQL_JOIN_T_ANTI ? "1000|NULL\n" : "1000|NULL|NULL|NULL\n"),
            &t.err);
    }
    for (int k = -60; k <= 60; k++) {
        CHECK_OK(dl_buf_appendf(&lr, &t.err, "%d|%d\n", k + 60, k), &t.err);
        CHECK_OK(want_direct_probe_row(&want, type, k, &t.err), &t.err);
    }
    if (type == DL_SQL_JOIN_T_RIGHT) {
        CHECK_OK(dl_buf_appendf(&want, &t.err, "NULL|NULL|300|NULL\n"), &t.err);
    }
    tx_sort_lines(&want);
    js.left_rows = dl_buf_cstr(&lr);
    js.right_rows = dl_buf_cstr(&rr);
    CHECK_OK(run_join_inspect(&t, &js, &out, inspect_direct), &t.err);
    CHECK_INT_EQ(out.len, want.len);
    CHECK(out.len == want.len && memcmp(out.data, want.data, want.len) == 0);
    dl_buf_destroy(&lr);
    dl_buf_destroy(&rr);
    dl_buf_destroy(&want);
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_dense_integer_keys_probe_a_direct_table_with_duplicates_and_nulls) {
    static const dl_sql_join_type types[] = {DL_SQL_JOIN_T_INNER, DL_SQL_JOIN_T_LEFT,
                                             DL_SQL_JOIN_T_RIGHT, DL_SQL_JOIN_T_ANTI};
    for (size_t ti = 0; ti < sizeof(types) / sizeof(types[0]); ti++) {
        check_direct(types[ti]);
    }
}

static void
inspect_hashed(const dl_sql_operator *op, const dl_batch *batch) {
    (void)batch;
    const dl_sql_join_state *st = op->state;
    CHECK(st->build.direct == NULL);
    CHECK(st->build.slots != NULL);
}

TEST(test_sparse_integer_keys_keep_the_hashed_table) {
    tx t;
    tx_init(&t, 0);
    const dl_type *lt[] = {tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_LONG)};
    join_spec js = {.type = DL_SQL_JOIN_T_INNER, .n_keys = 1, .lk = {1}, .rk = {1}};
    js.left = tx_schema(&t, 2, lt);
    js.right = js.left;
    /* 300 keys spread over 3 million values, and INT64 extremes that must not wrap. */
    dl_buf lr, rr, out;
    dl_buf_init(&lr, NULL);
    dl_buf_init(&rr, NULL);
    dl_buf_init(&out, NULL);
    for (int r = 0; r < 300; r++) {
        CHECK_OK(dl_buf_appendf(&rr, &t.err, "%d|%d\n", r, r * 10007), &t.err);
    }
    CHECK_OK(dl_buf_appendf(&rr, &t.err, "300|-9223372036854775808\n301|9223372036854775807\n"),
             &t.err);
    CHECK_OK(dl_buf_appendf(&lr, &t.err,
                            "1|10007\n2|10008\n3|9223372036854775807\n"
                            "4|-9223372036854775808\n"),
             &t.err);
    js.left_rows = dl_buf_cstr(&lr);
    js.right_rows = dl_buf_cstr(&rr);
    CHECK_OK(run_join_inspect(&t, &js, &out, inspect_hashed), &t.err);
    CHECK_STR_EQ(dl_buf_cstr(&out),
                 "1|10007|1|10007\n3|9223372036854775807|301|9223372036854775807\n"
                 "4|-9223372036854775808|300|-9223372036854775808\n");
    dl_buf_destroy(&lr);
    dl_buf_destroy(&rr);
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

static void
inspect_coded(const dl_sql_operator *op, const dl_batch *batch) {
    const dl_sql_join_state *st = op->state;
    const dl_sql_join_build *b = &st->build;
    CHECK(b->codes != NULL);
    if (b->codes == NULL) {
        return;
    }
    CHECK(b->codes[0] == NULL); /* 5000 distinct keys: not coded */
    CHECK(b->codes[1] != NULL);
    CHECK(b->codes[2] == NULL); /* NULLs: not coded */
    CHECK(b->codes[3] != NULL);
    CHECK_INT_EQ(b->small_dict[1]->length, 3);
    CHECK_INT_EQ(b->small_dict[3]->length, 3);
    const dl_vector *seg = batch->cols[st->n_left + 1];
    CHECK(seg->layout == DL_VEC_DICT && seg->dict == b->small_dict[1]);
}

static const char *const coded_segs[] = {"alpha", "a segment name longer than twelve", "gamma"};
static const char *const coded_dbl[] = {"0", "-0", "nan"};

/* The expected output of probe row p of check_coded. */
static dl_status
want_coded_probe_row(dl_buf *want, dl_sql_join_type type, int p, dl_error *err) {
    if (p < 5000) {
        return dl_buf_appendf(want, err, "%d|%d|%d|%s|%s|%s\n", p, 3 * p, 3 * p, coded_segs[p % 3],
                              p % 7 == 0 ? "NULL" : "5", coded_dbl[p % 3]);
    }
    if (type != DL_SQL_JOIN_T_INNER) {
        return dl_buf_appendf(want, err, "%d|%d|NULL|NULL|NULL|NULL\n", p, 3 * p);
    }
    return DL_OK;
}

static void
check_coded(dl_sql_join_type type) {
    const char *const *segs = coded_segs;
    const char *const *dbl = coded_dbl;
    tx t;
    tx_init(&t, 0);
    const dl_type *lt[] = {tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_LONG)};
    const dl_type *rt[] = {tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_STRING),
                           tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_DOUBLE)};
    join_spec js = {.type = type, .n_keys = 1, .lk = {1}, .rk = {0}};
    js.left = tx_schema(&t, 2, lt);
    js.right = tx_schema(&t, 4, rt);
    dl_buf lr, rr, want, out;
    dl_buf_init(&lr, NULL);
    dl_buf_init(&rr, NULL);
    dl_buf_init(&want, NULL);
    dl_buf_init(&out, NULL);
    /* Build: 5000 rows, keys 0..4999 (times 3: a hashed table), 3 segments, a column
     * with NULLs, doubles 0, -0 and NaN; probe: keys 0..5999 step 2 (times 3). */
    for (int r = 0; r < 5000; r++) {
        CHECK_OK(dl_buf_appendf(&rr, &t.err, "%d|%s|%s|%s\n", 3 * r, segs[r % 3],
                                r % 7 == 0 ? "NULL" : "5", dbl[r % 3]),
                 &t.err);
    }
    for (int p = 0; p < 6000; p += 2) {
        CHECK_OK(dl_buf_appendf(&lr, &t.err, "%d|%d\n", p, 3 * p), &t.err);
        CHECK_OK(want_coded_probe_row(&want, type, p, &t.err), &t.err);
    }
    for (int r = 1; r < 5000 && type == DL_SQL_JOIN_T_FULL; r += 2) {
        CHECK_OK(dl_buf_appendf(&want, &t.err, "NULL|NULL|%d|%s|%s|%s\n", 3 * r, segs[r % 3],
                                r % 7 == 0 ? "NULL" : "5", dbl[r % 3]),
                 &t.err);
    }
    tx_sort_lines(&want);
    js.left_rows = dl_buf_cstr(&lr);
    js.right_rows = dl_buf_cstr(&rr);
    CHECK_OK(run_join_inspect(&t, &js, &out, inspect_coded), &t.err);
    CHECK_INT_EQ(out.len, want.len);
    CHECK(out.len == want.len && memcmp(out.data, want.data, want.len) == 0);
    dl_buf_destroy(&lr);
    dl_buf_destroy(&rr);
    dl_buf_destroy(&want);
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

TEST(test_right_columns_of_few_values_come_out_over_a_small_dictionary) {
    static const dl_sql_join_type types[] = {DL_SQL_JOIN_T_INNER, DL_SQL_JOIN_T_LEFT,
                                             DL_SQL_JOIN_T_FULL};
    for (size_t ti = 0; ti < sizeof(types) / sizeof(types[0]); ti++) {
        check_coded(types[ti]);
    }
}

TEST(test_bad_plan_with_mismatched_key_types_is_rejected) {
    tx t;
    tx_init(&t, 0);
    join_spec js = {.type = DL_SQL_JOIN_T_INNER};
    two_tables(&t, &js);
    js.lk[0] = 2; /* string = bigint */
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_STATUS(run_join(&t, &js, &out), DL_ERR_INTERNAL, &t.err);
    CHECK_ERR_CONTAINS(&t.err, "join key 0 compares string with bigint");
    dl_buf_destroy(&out);
    tx_destroy(&t);
}

static dl_status
fault_join(tx *t, dl_buf *out, dl_sql_join_type type) {
    join_spec js = {.type = type, .is_null_aware = type == DL_SQL_JOIN_T_MARK};
    two_tables(t, &js);
    js.right_rows = "10|x\n10|a string longer than twelve\n30|z\nNULL|n\n40|w\n";
    return run_join(t, &js, out);
}

static dl_status
fault_full(tx *t, dl_buf *out) {
    return fault_join(t, out, DL_SQL_JOIN_T_FULL);
}

static dl_status
fault_mark(tx *t, dl_buf *out) {
    return fault_join(t, out, DL_SQL_JOIN_T_MARK);
}

static dl_status
fault_residual(tx *t, dl_buf *out) {
    join_spec js = {.type = DL_SQL_JOIN_T_ANTI};
    const dl_type *l[] = {tx_prim(DL_VEC_TYPE_LONG), tx_prim(DL_VEC_TYPE_LONG)};
    js.left = tx_schema(t, 2, l);
    js.right = js.left;
    js.left_rows = "1|5\n2|5\n3|7\n";
    js.right_rows = "1|4\n1|6\n2|3\n";
    js.n_keys = 1;
    js.residual = lt_expr(t, 1, 3);
    return run_join(t, &js, out);
}

TEST(test_join_out_of_memory_fails_cleanly_at_every_allocation) {
    CHECK(tx_fault_loop(fault_full, "1|10|a|10|a string longer than twelve\n1|10|a|10|x\n"
                                    "2|20|b|NULL|NULL\n3|NULL|c|NULL|NULL\n4|30|d|30|z\n"
                                    "5|10|e|10|a string longer than twelve\n5|10|e|10|x\n"
                                    "NULL|NULL|NULL|40|w\nNULL|NULL|NULL|NULL|n\n") > 10);
    CHECK(tx_fault_loop(fault_mark, "1|10|a|true\n2|20|b|NULL\n3|NULL|c|NULL\n4|30|d|true\n"
                                    "5|10|e|true\n") > 10);
    CHECK(tx_fault_loop(fault_residual, "2|5\n3|7\n") > 10);
}

int
main(void) {
    RUN(test_inner_join_matches_duplicates_and_never_null_keys);
    RUN(test_left_join_keeps_unmatched_and_null_key_rows);
    RUN(test_right_join_emits_unmatched_build_rows_once);
    RUN(test_full_join_keeps_both_sides);
    RUN(test_semi_and_anti_join_select_left_rows);
    RUN(test_mark_join_is_true_false_or_null);
    RUN(test_not_in_with_a_null_on_the_build_side_returns_nothing);
    RUN(test_not_in_drops_null_probe_keys_unless_build_is_empty);
    RUN(test_mark_join_without_build_nulls_is_false_for_misses);
    RUN(test_mark_join_that_is_not_null_aware_is_exists);
    RUN(test_correlated_in_and_not_in_are_null_aware_on_the_in_key_only);
    RUN(test_single_join_is_a_left_join_with_at_most_one_match);
    RUN(test_single_join_with_two_matches_is_an_error);
    RUN(test_null_safe_keys_match_null_with_null);
    RUN(test_two_keys_of_string_and_double_with_nan_and_negative_zero);
    RUN(test_residual_predicate_filters_pairs_before_left_join_fills_nulls);
    RUN(test_cross_join_and_nested_loop_with_only_a_residual);
    RUN(test_joins_with_an_empty_side);
    RUN(test_inner_join_many_rows_unique_build_keys_on_threads);
    RUN(test_inner_join_many_rows_with_duplicate_build_keys);
    RUN(test_right_join_many_rows_on_threads_emits_unmatched_once);
    RUN(test_semi_and_anti_many_rows_on_threads);
    RUN(test_parallel_build_gives_the_serial_results_for_every_join_type);
    RUN(test_parallel_build_with_string_keys_and_duplicates);
    RUN(test_dense_integer_keys_probe_a_direct_table_with_duplicates_and_nulls);
    RUN(test_sparse_integer_keys_keep_the_hashed_table);
    RUN(test_right_columns_of_few_values_come_out_over_a_small_dictionary);
    RUN(test_bad_plan_with_mismatched_key_types_is_rejected);
    RUN(test_join_out_of_memory_fails_cleanly_at_every_allocation);
    return harness_finish();
}
