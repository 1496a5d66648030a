/* SPDX-License-Identifier: Apache-2.0 */
/* Math, hash and miscellaneous scalar functions (sql_fn_math.c, sql_fn_hash.c,
 * sql_fn_digest.c, sql_fn_misc.c): Spark's documented values, result types, NULL rules. */
#include <math.h>

#include "fn_test_util.h"
#include "harness.h"
#include "sql/func/sql_fn_int.h"

static const char *
f1(tf *t, const char *name, const char *type, const char *v) {
    dl_vector *args[1] = {tf_col(t, type, 1, &v)};
    return tf_eval(t, name, 1, args, 1);
}

static const char *
f2(tf *t, const char *name, const char *ta, const char *a, const char *tb, const char *b) {
    dl_vector *args[2] = {tf_col(t, ta, 1, &a), tf_const(t, tb, 1, b)};
    return tf_eval(t, name, 2, args, 1);
}

TEST(test_round_is_half_up_on_the_decimal_text_and_bround_half_even) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(f1(&t, "round", "double", "2.5"), "3.0");
    CHECK_STR_EQ(f1(&t, "round", "double", "-2.5"), "-3.0");
    CHECK_STR_EQ(f1(&t, "bround", "double", "2.5"), "2.0");
    CHECK_STR_EQ(f2(&t, "round", "double", "1.005", "int", "2"), "1.01");
    CHECK_STR_EQ(f2(&t, "round", "double", "0.125", "int", "2"), "0.13");
    CHECK_STR_EQ(f2(&t, "bround", "double", "0.125", "int", "2"), "0.12");
    CHECK_STR_EQ(f2(&t, "round", "int", "125", "int", "-1"), "130");
    CHECK_STR_EQ(f2(&t, "round", "decimal(10,3)", "1.235", "int", "2"), "1.24");
    dl_vector *args[2] = {tf_col(&t, "decimal(10,3)", 1, (const char *[]){"1.235"}),
                          tf_const(&t, "int", 1, "2")};
    CHECK_STR_EQ(tf_ret_type(&t, "round", 2, args), "decimal(10,2)");
    args[1] = tf_const(&t, "int", 1, "-1");
    CHECK_STR_EQ(tf_ret_type(&t, "round", 2, args), "decimal(8,0)");
    args[1] = tf_col(&t, "int", 1, (const char *[]){"2"});
    CHECK(strstr(tf_eval(&t, "round", 2, args, 1), "must be a constant integer") != NULL);
    tf_destroy(&t);
}

TEST(test_ceil_and_floor_return_bigint_or_decimal) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(f1(&t, "ceil", "double", "-0.1"), "0");
    CHECK_STR_EQ(f1(&t, "floor", "double", "-0.1"), "-1");
    CHECK_STR_EQ(f1(&t, "ceiling", "int", "5"), "5");
    CHECK_STR_EQ(f1(&t, "ceil", "decimal(5,2)", "3.14"), "4");
    dl_vector *args[1] = {tf_col(&t, "double", 1, (const char *[]){"1.5"})};
    CHECK_STR_EQ(tf_ret_type(&t, "floor", 1, args), "bigint");
    args[0] = tf_col(&t, "decimal(5,2)", 1, (const char *[]){"1.5"});
    CHECK_STR_EQ(tf_ret_type(&t, "floor", 1, args), "decimal(4,0)");
    CHECK_STR_EQ(f2(&t, "ceil", "decimal(5,4)", "3.1411", "int", "3"), "3.142");
    tf_destroy(&t);
}

TEST(test_math_functions_return_doubles_and_null_outside_the_domain) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(f1(&t, "sqrt", "int", "4"), "2.0");
    CHECK_STR_EQ(f1(&t, "sqrt", "int", "-1"), "NaN");
    CHECK_STR_EQ(f1(&t, "ln", "int", "0"), "NULL");
    CHECK_STR_EQ(f1(&t, "log10", "int", "100"), "2.0");
    CHECK_STR_EQ(f1(&t, "log2", "int", "8"), "3.0");
    CHECK_STR_EQ(f2(&t, "log", "int", "2", "int", "8"), "3.0");
    CHECK_STR_EQ(f2(&t, "pow", "int", "2", "int", "10"), "1024.0");
    CHECK_STR_EQ(f1(&t, "exp", "int", "0"), "1.0");
    CHECK_STR_EQ(f1(&t, "signum", "int", "-7"), "-1.0");
    CHECK_STR_EQ(f1(&t, "abs", "string", "-1.5"), "1.5");
    CHECK_STR_EQ(f1(&t, "degrees", "double", "3.141592653589793"), "180.0");
    CHECK_STR_EQ(f1(&t, "isnan", "double", "NULL"), "false");
    CHECK_STR_EQ(f1(&t, "isnan", "double", "NaN"), "true");
    CHECK_STR_EQ(f2(&t, "nanvl", "double", "NaN", "double", "123"), "123.0");
    dl_vector *none[1] = {NULL};
    CHECK_STR_EQ(tf_eval(&t, "pi", 0, none, 1), "3.141592653589793");
    tf_destroy(&t);
}

TEST(test_rand_is_seeded_per_call_and_within_range) {
    tf t;
    tf_init(&t, false, "UTC");
    dl_vector *seed[1] = {tf_const(&t, "int", 64, "42")};
    dl_vector *a = NULL;
    dl_vector *b = NULL;
    CHECK_OK(tf_call(&t, "rand", 1, seed, 64, &a), &t.err);
    CHECK_OK(tf_call(&t, "rand", 1, seed, 64, &b), &t.err);
    CHECK_INT_EQ(a->layout, DL_VEC_FLAT);
    for (int i = 0; i < 64; i++) {
        double x = ((const double *)a->data)[i];
        CHECK(x >= 0 && x < 1);
        CHECK(x == ((const double *)b->data)[i]);
    }
    CHECK(((const double *)a->data)[0] != ((const double *)a->data)[1]);
    tf_destroy(&t);
}

TEST(test_digests_match_spark_examples) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(f1(&t, "md5", "string", "Spark"), "8cde774d6f7333752ed72cacddb05126");
    CHECK_STR_EQ(f1(&t, "sha1", "string", "Spark"), "85f5955f4b27a9a4c2aab6ffe5d7189fc298b92c");
    CHECK_STR_EQ(f2(&t, "sha2", "string", "Spark", "int", "256"),
                 "529bc3b07127ecb7e53a4dcf1991d9152c24537d919178022b2c42657f79a26b");
    CHECK_STR_EQ(f2(&t, "sha2", "string", "", "int", "224"),
                 "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f");
    CHECK_STR_EQ(f2(&t, "sha2", "string", "abc", "int", "384"),
                 "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
                 "8086072ba1e7cc2358baeca134c825a7");
    CHECK_STR_EQ(f2(&t, "sha2", "string", "abc", "int", "512"),
                 "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                 "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
    CHECK_STR_EQ(f2(&t, "sha2", "string", "abc", "int", "100"), "NULL");
    CHECK_STR_EQ(f1(&t, "crc32", "string", "Spark"), "1557323817");
    const char *longer = "The quick brown fox jumps over the lazy dog, twice: The quick brown fox.";
    CHECK_STR_EQ(f1(&t, "md5", "string", longer), "4f5764f9db6de23ce221406841c47d8d");
    tf_destroy(&t);
}

TEST(test_hash_and_xxhash64_match_spark) {
    tf t;
    tf_init(&t, false, "UTC");
    dl_vector *arr = NULL;
    CHECK_OK(dl_vec_new(NULL, tf_type(&t, "array<int>"), 1, &arr, &t.err), &t.err);
    CHECK_OK(dl_vec_append_i32(arr->children[0], 123, &t.err), &t.err);
    CHECK_OK(dl_vec_append_list(arr, &t.err), &t.err);
    dl_vector *args[3] = {tf_col(&t, "string", 1, (const char *[]){"Spark"}), arr,
                          tf_col(&t, "int", 1, (const char *[]){"2"})};
    CHECK_STR_EQ(tf_eval(&t, "hash", 3, args, 1), "-1321691492");
    CHECK_STR_EQ(tf_eval(&t, "xxhash64", 3, args, 1), "5602566077635097486");
    dl_vec_unref(arr);
    /* NULL leaves the seed: hash(NULL) is 42. */
    CHECK_STR_EQ(f1(&t, "hash", "int", "NULL"), "42");
    tf_destroy(&t);
}

TEST(test_misc_functions) {
    tf t;
    tf_init(&t, false, "UTC");
    dl_vector *a[3] = {tf_col(&t, "int", 2, (const char *[]){"1", "NULL"}),
                       tf_col(&t, "int", 2, (const char *[]){"10", "11"}),
                       tf_col(&t, "bigint", 2, (const char *[]){"20", "21"})};
    CHECK_STR_EQ(tf_eval(&t, "nvl2", 3, a, 2), "10|21");
    CHECK_STR_EQ(f1(&t, "typeof", "decimal(10,2)", "1"), "decimal(10,2)");
    CHECK_STR_EQ(f1(&t, "raise_error", "string", "boom"), "ERROR: [USER_RAISED_EXCEPTION] boom");
    CHECK_STR_EQ(f1(&t, "assert_true", "boolean", "true"), "NULL");
    CHECK(strstr(f1(&t, "assert_true", "boolean", "false"), "USER_RAISED_EXCEPTION") != NULL);
    dl_vector *none[1] = {NULL};
    dl_vector *out = NULL;
    CHECK_OK(tf_call(&t, "uuid", 0, none, 2, &out), &t.err);
    dl_str u0 = dl_vec_get_str(out, 0);
    dl_str u1 = dl_vec_get_str(out, 1);
    CHECK_INT_EQ(u0.len, 36);
    CHECK(u0.ptr[14] == '4' && u0.ptr[8] == '-');
    CHECK(!dl_str_eq(u0, u1));
    tf_destroy(&t);
}

TEST(test_registry_finds_names_in_any_case_and_lists_every_function) {
    CHECK(dl_sql_fn_lookup(DL_STR("UPPER")) != NULL);
    CHECK(dl_sql_fn_lookup(DL_STR("Date_Format")) != NULL);
    CHECK(dl_sql_fn_lookup(DL_STR("no_such_function")) == NULL);
    CHECK(dl_sql_fn_lookup(DL_STR("")) == NULL);
    const dl_sql_fn_def *sum = dl_sql_fn_lookup(DL_STR("sum"));
    CHECK(sum != NULL && sum->kind == DL_SQL_FN_AGGREGATE && sum->state_size <= 64);
    const dl_sql_fn_def *rn = dl_sql_fn_lookup(DL_STR("row_number"));
    CHECK(rn != NULL && rn->kind == DL_SQL_FN_WINDOW);
    const dl_sql_fn_def *rand = dl_sql_fn_lookup(DL_STR("rand"));
    CHECK(rand != NULL && rand->is_volatile && rand->free_state != NULL);
    CHECK(dl_sql_fn_lookup(DL_STR("+"))->is_null_propagating);
    CHECK(!dl_sql_fn_lookup(DL_STR("concat_ws"))->is_null_propagating);
}

int
main(void) {
    RUN(test_round_is_half_up_on_the_decimal_text_and_bround_half_even);
    RUN(test_ceil_and_floor_return_bigint_or_decimal);
    RUN(test_math_functions_return_doubles_and_null_outside_the_domain);
    RUN(test_rand_is_seeded_per_call_and_within_range);
    RUN(test_digests_match_spark_examples);
    RUN(test_hash_and_xxhash64_match_spark);
    RUN(test_misc_functions);
    RUN(test_registry_finds_names_in_any_case_and_lists_every_function);
    return harness_finish();
}
