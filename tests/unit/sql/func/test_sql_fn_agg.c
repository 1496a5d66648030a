/* SPDX-License-Identifier: Apache-2.0 */
/* Aggregates (sql_fn_agg*.c): Spark's result types and values, grouped and ungrouped, with
 * partial states combined (tf_agg folds half the rows into one state, half into another). */
#include <stdlib.h>

#include "fn_test_util.h"
#include "harness.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char *
agg1(tf *t, const char *name, const char *type, int n, const char *const *v) {
    dl_vector *args[1] = {tf_col(t, type, n, v)};
    return tf_agg(t, name, 1, args, n, NULL, 1);
}

static const char *
agg_type(tf *t, const char *name, const char *type) {
    const char *one = "1";
    dl_vector *args[1] = {tf_col(t, type, 1, &one)};
    return tf_ret_type(t, name, 1, args);
}

TEST(test_count_counts_rows_and_non_null_values) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *v[] = {"1", "NULL", "3", "NULL", "5"};
    CHECK_STR_EQ(agg1(&t, "count", "int", N(v), v), "3");
    dl_vector *none[1] = {tf_col(&t, "int", N(v), v)};
    CHECK_STR_EQ(tf_agg(&t, "count", 0, none, N(v), NULL, 1), "5");
    const char *b[] = {"true", "false", "NULL", "true"};
    CHECK_STR_EQ(agg1(&t, "count_if", "boolean", N(b), b), "2");
    dl_vector *two[2] = {tf_col(&t, "int", 3, (const char *[]){"1", "NULL", "3"}),
                         tf_col(&t, "int", 3, (const char *[]){"1", "2", "NULL"})};
    CHECK_STR_EQ(tf_agg(&t, "count", 2, two, 3, NULL, 1), "1");
    const char *empty[] = {"NULL"};
    CHECK_STR_EQ(agg1(&t, "count", "int", 1, empty), "0");
    tf_destroy(&t);
}

TEST(test_sum_and_avg_use_spark_result_types) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(agg_type(&t, "sum", "int"), "bigint");
    CHECK_STR_EQ(agg_type(&t, "sum", "float"), "double");
    CHECK_STR_EQ(agg_type(&t, "sum", "decimal(10,2)"), "decimal(20,2)");
    CHECK_STR_EQ(agg_type(&t, "sum", "decimal(35,2)"), "decimal(38,2)");
    CHECK_STR_EQ(agg_type(&t, "avg", "int"), "double");
    CHECK_STR_EQ(agg_type(&t, "avg", "decimal(10,2)"), "decimal(14,6)");
    CHECK_STR_EQ(agg_type(&t, "sum", "string"), "double");
    const char *v[] = {"1", "2", "NULL", "4"};
    CHECK_STR_EQ(agg1(&t, "sum", "int", N(v), v), "7");
    CHECK_STR_EQ(agg1(&t, "avg", "int", N(v), v), "2.3333333333333335");
    const char *d[] = {"1.10", "2.20", "3.35"};
    CHECK_STR_EQ(agg1(&t, "sum", "decimal(10,2)", N(d), d), "6.65");
    CHECK_STR_EQ(agg1(&t, "avg", "decimal(10,2)", N(d), d), "2.216667");
    const char *nulls[] = {"NULL", "NULL"};
    CHECK_STR_EQ(agg1(&t, "sum", "int", N(nulls), nulls), "NULL");
    CHECK_STR_EQ(agg1(&t, "avg", "double", N(nulls), nulls), "NULL");
    const char *iv[] = {"0 01:00:00", "0 02:00:01"};
    CHECK_STR_EQ(agg1(&t, "avg", "interval day to second", N(iv), iv),
                 "INTERVAL '0 01:30:00.5' DAY TO SECOND");
    tf_destroy(&t);
}

TEST(test_sum_overflow_wraps_in_legacy_and_fails_in_ansi) {
    tf t;
    const char *v[] = {"9223372036854775807", "1"};
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(agg1(&t, "sum", "bigint", N(v), v), "-9223372036854775808");
    CHECK_STR_EQ(agg1(&t, "try_sum", "bigint", N(v), v), "NULL");
    const char *big[] = {"99999999999999999999999999999999999999",
                         "99999999999999999999999999999999999999"};
    CHECK_STR_EQ(agg1(&t, "sum", "decimal(38,0)", N(big), big), "NULL");
    tf_destroy(&t);
    tf_init(&t, true, "UTC");
    CHECK_STR_EQ(agg1(&t, "sum", "bigint", N(v), v), "ERROR: [ARITHMETIC_OVERFLOW] long overflow");
    /* Partial sums may leave the range and come back: only the total counts. */
    const char *back[] = {"9223372036854775807", "10", "-20"};
    CHECK_STR_EQ(agg1(&t, "sum", "bigint", N(back), back), "9223372036854775797");
    tf_destroy(&t);
}

TEST(test_grouped_aggregation_keeps_one_state_per_group) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *v[] = {"1", "10", "2", "20", "3", "NULL"};
    int groups[] = {0, 1, 0, 1, 0, 1};
    dl_vector *args[1] = {tf_col(&t, "int", N(v), v)};
    CHECK_STR_EQ(tf_agg(&t, "sum", 1, args, N(v), groups, 2), "6|30");
    CHECK_STR_EQ(tf_agg(&t, "max", 1, args, N(v), groups, 2), "3|20");
    CHECK_STR_EQ(tf_agg(&t, "count", 1, args, N(v), groups, 2), "3|2");
    CHECK_STR_EQ(tf_agg(&t, "collect_list", 1, args, N(v), groups, 2), "[1, 2, 3]|[10, 20]");
    tf_destroy(&t);
}

TEST(test_min_max_cover_every_orderable_type) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *s[] = {"pear", "apple", "NULL", "zucchini-long-string"};
    CHECK_STR_EQ(agg1(&t, "min", "string", N(s), s), "apple");
    CHECK_STR_EQ(agg1(&t, "max", "string", N(s), s), "zucchini-long-string");
    const char *d[] = {"1.5", "NaN", "-3"};
    CHECK_STR_EQ(agg1(&t, "max", "double", N(d), d), "NaN");
    CHECK_STR_EQ(agg1(&t, "min", "double", N(d), d), "-3.0");
    const char *dt[] = {"2024-01-02", "2023-12-31"};
    CHECK_STR_EQ(agg1(&t, "min", "date", N(dt), dt), "2023-12-31");
    const char *dec[] = {"1.10", "-2.50"};
    CHECK_STR_EQ(agg1(&t, "max", "decimal(5,2)", N(dec), dec), "1.10");
    const char *b[] = {"false", "true"};
    CHECK_STR_EQ(agg1(&t, "max", "boolean", N(b), b), "true");
    const char *nulls[] = {"NULL"};
    CHECK_STR_EQ(agg1(&t, "max", "string", N(nulls), nulls), "NULL");
    tf_destroy(&t);
}

TEST(test_first_last_any_value_and_max_by) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *v[] = {"NULL", "b", "c", "NULL"};
    CHECK_STR_EQ(agg1(&t, "first", "string", N(v), v), "NULL");
    CHECK_STR_EQ(agg1(&t, "last", "string", N(v), v), "NULL");
    dl_vector *args[2] = {tf_col(&t, "string", N(v), v), tf_const(&t, "boolean", N(v), "true")};
    CHECK_STR_EQ(tf_agg(&t, "first", 2, args, N(v), NULL, 1), "b");
    CHECK_STR_EQ(tf_agg(&t, "last_value", 2, args, N(v), NULL, 1), "c");
    CHECK_STR_EQ(tf_agg(&t, "any_value", 2, args, N(v), NULL, 1), "b");
    const char *x[] = {"a", "b", "c", "d"};
    const char *o[] = {"10", "50", "NULL", "20"};
    dl_vector *by[2] = {tf_col(&t, "string", 4, x), tf_col(&t, "int", 4, o)};
    CHECK_STR_EQ(tf_agg(&t, "max_by", 2, by, 4, NULL, 1), "b");
    CHECK_STR_EQ(tf_agg(&t, "min_by", 2, by, 4, NULL, 1), "a");
    tf_destroy(&t);
}

TEST(test_boolean_and_statistical_aggregates) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *b[] = {"true", "NULL", "false"};
    CHECK_STR_EQ(agg1(&t, "bool_and", "boolean", N(b), b), "false");
    CHECK_STR_EQ(agg1(&t, "bool_or", "boolean", N(b), b), "true");
    CHECK_STR_EQ(agg1(&t, "every", "boolean", 1, b), "true");
    const char *v[] = {"2", "4", "4", "4", "5", "5", "7", "9"};
    CHECK_STR_EQ(agg1(&t, "stddev_pop", "int", N(v), v), "2.0");
    CHECK_STR_EQ(agg1(&t, "var_pop", "int", N(v), v), "4.0");
    CHECK_STR_EQ(agg1(&t, "var_samp", "int", N(v), v), "4.571428571428571");
    CHECK_STR_EQ(agg1(&t, "stddev", "int", 1, v), "NULL");
    CHECK_STR_EQ(agg1(&t, "stddev_pop", "int", 1, v), "0.0");
    tf_destroy(&t);
}

TEST(test_collect_set_and_percentiles) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *v[] = {"b", "a", "b", "NULL", "a", "c"};
    CHECK_STR_EQ(agg1(&t, "collect_set", "string", N(v), v), "[b, a, c]");
    CHECK_STR_EQ(agg1(&t, "collect_list", "string", N(v), v), "[b, a, b, a, c]");
    const char *n[] = {"0", "1", "2", "10"};
    dl_vector *args[2] = {tf_col(&t, "int", 4, n), tf_const(&t, "double", 4, "0.5")};
    CHECK_STR_EQ(tf_agg(&t, "percentile_approx", 2, args, 4, NULL, 1), "1");
    CHECK_STR_EQ(tf_agg(&t, "percentile", 2, args, 4, NULL, 1), "1.5");
    dl_vector *m[1] = {args[0]};
    CHECK_STR_EQ(tf_agg(&t, "median", 1, m, 4, NULL, 1), "1.5");
    dl_vector *arr = NULL;
    CHECK_OK(dl_vec_new(NULL, tf_type(&t, "array<double>"), 1, &arr, &t.err), &t.err);
    CHECK_OK(dl_vec_append_f64(arr->children[0], 0.5, &t.err), &t.err);
    CHECK_OK(dl_vec_append_f64(arr->children[0], 0.4, &t.err), &t.err);
    CHECK_OK(dl_vec_append_f64(arr->children[0], 0.1, &t.err), &t.err);
    CHECK_OK(dl_vec_append_list(arr, &t.err), &t.err);
    dl_vec_make_const(arr, 4);
    args[1] = arr;
    CHECK_STR_EQ(tf_agg(&t, "percentile_approx", 2, args, 4, NULL, 1), "[1, 1, 0]");
    dl_vec_unref(arr);
    args[1] = tf_const(&t, "double", 4, "1.5");
    CHECK(strstr(tf_agg(&t, "percentile_approx", 2, args, 4, NULL, 1), "between 0.0 and 1.0") !=
          NULL);
    tf_destroy(&t);
}

TEST(test_approx_count_distinct_is_close) {
    tf t;
    tf_init(&t, false, "UTC");

    enum {
        ROWS = 2000
    };

    static char bufs[ROWS][16];
    static const char *texts[ROWS];
    for (int k = 0; k < ROWS; k++) {
        (void)snprintf(bufs[k], sizeof(bufs[k]), "%d", k % 1000);
        texts[k] = bufs[k];
    }
    dl_vector *args[1] = {tf_col(&t, "int", ROWS, texts)};
    const char *res = tf_agg(&t, "approx_count_distinct", 1, args, ROWS, NULL, 1);
    long est = strtol(res, NULL, 10);
    CHECK(est > 900 && est < 1100);
    const char *few[] = {"a", "b", "a", "NULL"};
    CHECK_STR_EQ(agg1(&t, "approx_count_distinct", "string", N(few), few), "2");
    tf_destroy(&t);
}

int
main(void) {
    RUN(test_count_counts_rows_and_non_null_values);
    RUN(test_sum_and_avg_use_spark_result_types);
    RUN(test_sum_overflow_wraps_in_legacy_and_fails_in_ansi);
    RUN(test_grouped_aggregation_keeps_one_state_per_group);
    RUN(test_min_max_cover_every_orderable_type);
    RUN(test_first_last_any_value_and_max_by);
    RUN(test_boolean_and_statistical_aggregates);
    RUN(test_collect_set_and_percentiles);
    RUN(test_approx_count_distinct_is_close);
    return harness_finish();
}
