/* SPDX-License-Identifier: Apache-2.0 */
/* Arrays, maps and structs (sql_fn_nested.c): construction, access, searching, sorting. */
#include "fn_test_util.h"
#include "harness.h"

/* An array<int> column [3, 1, null, 2], [5, 5, 4, 5], [null x 4], built with array(). */
static dl_vector *
arrays(tf *t) {
    dl_vector *args[4] = {tf_col(t, "int", 3, (const char *[]){"3", "5", "NULL"}),
                          tf_col(t, "int", 3, (const char *[]){"1", "5", "NULL"}),
                          tf_col(t, "int", 3, (const char *[]){"NULL", "4", "NULL"}),
                          tf_col(t, "int", 3, (const char *[]){"2", "5", "NULL"})};
    dl_vector *out = NULL;
    if (tf_call(t, "array", 4, args, 3, &out) != DL_OK) {
        return NULL;
    }
    return out;
}

/* map('a', 1, 'b', NULL) and map('c', 3, 'a', 4). */
static dl_vector *
maps(tf *t) {
    dl_vector *args[4] = {tf_col(t, "string", 2, (const char *[]){"a", "c"}),
                          tf_col(t, "int", 2, (const char *[]){"1", "3"}),
                          tf_col(t, "string", 2, (const char *[]){"b", "a"}),
                          tf_col(t, "int", 2, (const char *[]){"NULL", "4"})};
    dl_vector *out = NULL;
    if (tf_call(t, "map", 4, args, 2, &out) != DL_OK) {
        return NULL;
    }
    return out;
}

TEST(test_array_map_and_struct_constructors) {
    tf t;
    tf_init(&t, false, "UTC");
    dl_vector *a = arrays(&t);
    CHECK(a != NULL);
    CHECK_STR_EQ(tf_texts(&t, a), "[3, 1, null, 2]|[5, 5, 4, 5]|[null, null, null, null]");
    dl_vector *m = maps(&t);
    CHECK(m != NULL);
    CHECK_STR_EQ(tf_texts(&t, m), "{a -> 1, b -> null}|{c -> 3, a -> 4}");
    dl_vector *s_args[4] = {
        tf_const(&t, "string", 1, "x"), tf_col(&t, "int", 1, (const char *[]){"1"}),
        tf_const(&t, "string", 1, "y"), tf_col(&t, "string", 1, (const char *[]){"NULL"})};
    dl_vector *s = NULL;
    CHECK_OK(tf_call(&t, "named_struct", 4, s_args, 1, &s), &t.err);
    CHECK_STR_EQ(tf_text(&t, s, 0), "{1, null}");
    CHECK_STR_EQ(tf_ret_type(&t, "named_struct", 4, s_args), "struct<x:int,y:string>");
    CHECK_STR_EQ(tf_ret_type(&t, "struct", 2, s_args + 1), "struct<col1:int,col2:string>");
    dl_vector *mixed[2] = {tf_col(&t, "int", 1, (const char *[]){"1"}),
                           tf_col(&t, "double", 1, (const char *[]){"2.5"})};
    CHECK_STR_EQ(tf_ret_type(&t, "array", 2, mixed), "array<double>");
    dl_vector *dup[4] = {tf_col(&t, "string", 1, (const char *[]){"k"}), mixed[0],
                         tf_col(&t, "string", 1, (const char *[]){"k"}), mixed[0]};
    CHECK(strstr(tf_eval(&t, "map", 4, dup, 1), "[DUPLICATED_MAP_KEY]") != NULL);
    tf_destroy(&t);
}

TEST(test_size_and_search_functions) {
    tf t;
    tf_init(&t, false, "UTC");
    dl_vector *a = arrays(&t);
    dl_vector *one[1] = {a};
    CHECK_STR_EQ(tf_eval(&t, "size", 1, one, 3), "4|4|4");
    dl_vector *nul[1] = {NULL};
    CHECK_OK(dl_vec_new_const_null(NULL, tf_type(&t, "array<int>"), 2, &nul[0], &t.err), &t.err);
    CHECK_STR_EQ(tf_eval(&t, "size", 1, nul, 2), "-1|-1");
    CHECK_STR_EQ(tf_eval(&t, "array_size", 1, nul, 2), "NULL|NULL");
    dl_vec_unref(nul[0]);
    dl_vector *c[2] = {a, tf_const(&t, "int", 3, "2")};
    CHECK_STR_EQ(tf_eval(&t, "array_contains", 2, c, 3), "true|false|NULL");
    c[1] = tf_const(&t, "int", 3, "5");
    CHECK_STR_EQ(tf_eval(&t, "array_contains", 2, c, 3), "NULL|true|NULL");
    CHECK_STR_EQ(tf_eval(&t, "array_position", 2, c, 3), "0|1|0");
    dl_vector *m = maps(&t);
    dl_vector *k[2] = {m, tf_const(&t, "string", 2, "a")};
    CHECK_STR_EQ(tf_eval(&t, "map_contains_key", 2, k, 2), "true|true");
    dl_vector *mk[1] = {m};
    CHECK_STR_EQ(tf_eval(&t, "map_keys", 1, mk, 2), "[a, b]|[c, a]");
    CHECK_STR_EQ(tf_eval(&t, "map_values", 1, mk, 2), "[1, null]|[3, 4]");
    tf_destroy(&t);
}

TEST(test_element_access_by_index_and_key) {
    tf t;
    tf_init(&t, false, "UTC");
    dl_vector *a = arrays(&t);
    dl_vector *args[2] = {a, tf_const(&t, "int", 3, "1")};
    CHECK_STR_EQ(tf_eval(&t, "element_at", 2, args, 3), "3|5|NULL");
    args[1] = tf_const(&t, "int", 3, "-1");
    CHECK_STR_EQ(tf_eval(&t, "element_at", 2, args, 3), "2|5|NULL");
    args[1] = tf_const(&t, "int", 3, "1");
    CHECK_STR_EQ(tf_eval(&t, "subscript", 2, args, 3), "1|5|NULL");
    args[1] = tf_const(&t, "int", 3, "9");
    CHECK_STR_EQ(tf_eval(&t, "element_at", 2, args, 3), "NULL|NULL|NULL");
    CHECK_STR_EQ(tf_eval(&t, "get", 2, args, 3), "NULL|NULL|NULL");
    args[1] = tf_const(&t, "int", 3, "0");
    CHECK(strstr(tf_eval(&t, "element_at", 2, args, 3), "[INVALID_INDEX_OF_ZERO]") != NULL);
    dl_vector *m = maps(&t);
    dl_vector *mk[2] = {m, tf_const(&t, "string", 2, "a")};
    CHECK_STR_EQ(tf_eval(&t, "element_at", 2, mk, 2), "1|4");
    mk[1] = tf_const(&t, "string", 2, "b");
    CHECK_STR_EQ(tf_eval(&t, "subscript", 2, mk, 2), "NULL|NULL");
    tf_destroy(&t);
    tf_init(&t, true, "UTC");
    a = arrays(&t);
    args[0] = a;
    args[1] = tf_const(&t, "int", 3, "9");
    CHECK(strstr(tf_eval(&t, "element_at", 2, args, 3), "[INVALID_ARRAY_INDEX_IN_ELEMENT_AT]") !=
          NULL);
    CHECK_STR_EQ(tf_eval(&t, "try_element_at", 2, args, 3), "NULL|NULL|NULL");
    tf_destroy(&t);
}

TEST(test_array_transformations) {
    tf t;
    tf_init(&t, false, "UTC");
    dl_vector *a = arrays(&t);
    dl_vector *one[1] = {a};
    CHECK_STR_EQ(tf_eval(&t, "sort_array", 1, one, 3),
                 "[null, 1, 2, 3]|[4, 5, 5, 5]|[null, null, null, null]");
    dl_vector *desc[2] = {a, tf_const(&t, "boolean", 3, "false")};
    CHECK_STR_EQ(tf_eval(&t, "sort_array", 2, desc, 3),
                 "[3, 2, 1, null]|[5, 5, 5, 4]|[null, null, null, null]");
    CHECK_STR_EQ(tf_eval(&t, "array_distinct", 1, one, 3), "[3, 1, null, 2]|[5, 4]|[null]");
    CHECK_STR_EQ(tf_eval(&t, "array_max", 1, one, 3), "3|5|NULL");
    CHECK_STR_EQ(tf_eval(&t, "array_min", 1, one, 3), "1|4|NULL");
    CHECK_STR_EQ(tf_eval(&t, "reverse", 1, one, 3),
                 "[2, null, 1, 3]|[5, 4, 5, 5]|[null, null, null, null]");
    dl_vector *two[2] = {a, a};
    CHECK_STR_EQ(tf_eval(&t, "concat", 2, two, 1), "[3, 1, null, 2, 3, 1, null, 2]");
    dl_vector *j[3] = {a, tf_const(&t, "string", 3, ","), tf_const(&t, "string", 3, "?")};
    CHECK_STR_EQ(tf_eval(&t, "array_join", 2, j, 3), "3,1,2|5,5,4,5|");
    CHECK_STR_EQ(tf_eval(&t, "array_join", 3, j, 3), "3,1,?,2|5,5,4,5|?,?,?,?");
    CHECK_STR_EQ(tf_ret_type(&t, "typeof", 1, one), "string");
    CHECK_STR_EQ(tf_eval(&t, "typeof", 1, one, 1), "array<int>");
    tf_destroy(&t);
}

int
main(void) {
    RUN(test_array_map_and_struct_constructors);
    RUN(test_size_and_search_functions);
    RUN(test_element_access_by_index_and_key);
    RUN(test_array_transformations);
    return harness_finish();
}
