/* SPDX-License-Identifier: Apache-2.0 */
/* LIKE/ILIKE (sql_fn_like.c), regular expressions (sql_fn_regex.c) and the comparison
 * operators (sql_fn_compare.c). */
#include "fn_test_util.h"
#include "harness.h"

/* name(text, pattern) with a constant pattern over the column of texts. */
static const char *
match(tf *t, const char *name, int n, const char *const *texts, const char *pattern) {
    dl_vector *args[2] = {tf_col(t, "string", n, texts), tf_const(t, "string", n, pattern)};
    return tf_eval(t, name, 2, args, n);
}

TEST(test_like_matches_wildcards_by_code_point) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *s[] = {"Spark", "spark", "Sp", "S\xc3\xa9rk", "NULL", ""};
    CHECK_STR_EQ(match(&t, "like", 6, s, "Sp%"), "true|false|true|false|NULL|false");
    CHECK_STR_EQ(match(&t, "like", 6, s, "%rk"), "true|true|false|true|NULL|false");
    CHECK_STR_EQ(match(&t, "like", 6, s, "%par%"), "true|true|false|false|NULL|false");
    CHECK_STR_EQ(match(&t, "like", 6, s, "S_rk"), "false|false|false|true|NULL|false");
    CHECK_STR_EQ(match(&t, "like", 6, s, "S%a%k"), "true|false|false|false|NULL|false");
    CHECK_STR_EQ(match(&t, "like", 6, s, "%"), "true|true|true|true|NULL|true");
    CHECK_STR_EQ(match(&t, "like", 6, s, "Spark"), "true|false|false|false|NULL|false");
    CHECK_STR_EQ(match(&t, "ilike", 6, s, "SPARK"), "true|true|false|false|NULL|false");
    CHECK_STR_EQ(match(&t, "ilike", 6, s, "s\xc3\x89%"), "false|false|false|true|NULL|false");
    tf_destroy(&t);
}

TEST(test_like_escapes_and_rejects_bad_escapes) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *s[] = {"100%", "100x", "a_b", "a\\b"};
    CHECK_STR_EQ(match(&t, "like", 4, s, "100\\%"), "true|false|false|false");
    CHECK_STR_EQ(match(&t, "like", 4, s, "a\\_b"), "false|false|true|false");
    CHECK_STR_EQ(match(&t, "like", 4, s, "a\\\\b"), "false|false|false|true");
    dl_vector *args[3] = {tf_col(&t, "string", 4, s), tf_const(&t, "string", 4, "100#%"),
                          tf_const(&t, "string", 4, "#")};
    CHECK_STR_EQ(tf_eval(&t, "like", 3, args, 4), "true|false|false|false");
    CHECK(strstr(match(&t, "like", 4, s, "a\\b"), "[INVALID_FORMAT.ESCAPE]") != NULL);
    CHECK(strstr(match(&t, "like", 4, s, "ab\\"), "ends with the escape character") != NULL);
    /* A pattern that varies per row. */
    const char *p[] = {"1%", "%y", "a%", "%"};
    dl_vector *rows[2] = {tf_col(&t, "string", 4, s), tf_col(&t, "string", 4, p)};
    CHECK_STR_EQ(tf_eval(&t, "like", 2, rows, 4), "true|false|true|true");
    tf_destroy(&t);
}

TEST(test_rlike_and_regexp_functions_translate_java_syntax) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *s[] = {"abc123", "xyz", "NULL", "A1"};
    CHECK_STR_EQ(match(&t, "rlike", 4, s, "\\d+"), "true|false|NULL|true");
    CHECK_STR_EQ(match(&t, "regexp", 4, s, "^[a-z]+\\d{3}$"), "true|false|NULL|false");
    CHECK_STR_EQ(match(&t, "rlike", 4, s, "(?i)^a"), "true|false|NULL|true");
    CHECK_STR_EQ(match(&t, "regexp_count", 4, s, "[a-z]"), "3|3|NULL|0");
    dl_vector *args[3] = {tf_col(&t, "string", 1, (const char *[]){"100-200"}),
                          tf_const(&t, "string", 1, "(\\d+)-(\\d+)"), tf_const(&t, "int", 1, "2")};
    CHECK_STR_EQ(tf_eval(&t, "regexp_extract", 3, args, 1), "200");
    args[2] = tf_const(&t, "int", 1, "3");
    CHECK(strstr(tf_eval(&t, "regexp_extract", 3, args, 1), "REGEX_GROUP_INDEX") != NULL);
    args[1] = tf_const(&t, "string", 1, "(?:x)?(\\d+)");
    args[2] = tf_const(&t, "int", 1, "1");
    CHECK_STR_EQ(tf_eval(&t, "regexp_extract_all", 3, args, 1), "[100, 200]");
    args[1] = tf_const(&t, "string", 1, "(\\d+)");
    args[2] = tf_const(&t, "string", 1, "<$1>");
    CHECK_STR_EQ(tf_eval(&t, "regexp_replace", 3, args, 1), "<100>-<200>");
    args[1] = tf_const(&t, "string", 1, "a*?");
    CHECK(strstr(tf_eval(&t, "regexp_replace", 3, args, 1), "lazy or possessive") != NULL);
    args[1] = tf_const(&t, "string", 1, "(?=x)");
    CHECK(strstr(tf_eval(&t, "rlike", 2, args, 1), "lookaround") != NULL);
    tf_destroy(&t);
}

TEST(test_split_follows_java_string_split) {
    tf t;
    tf_init(&t, false, "UTC");
    dl_vector *args[3] = {tf_col(&t, "string", 1, (const char *[]){"oneAtwoBthreeC"}),
                          tf_const(&t, "string", 1, "[ABC]"), NULL};
    CHECK_STR_EQ(tf_eval(&t, "split", 2, args, 1), "[one, two, three, ]");
    args[2] = tf_const(&t, "int", 1, "2");
    CHECK_STR_EQ(tf_eval(&t, "split", 3, args, 1), "[one, twoBthreeC]");
    args[0] = tf_col(&t, "string", 1, (const char *[]){"abc"});
    args[1] = tf_const(&t, "string", 1, "");
    CHECK_STR_EQ(tf_eval(&t, "split", 2, args, 1), "[a, b, c]");
    tf_destroy(&t);
}

static const char *
cmp(tf *t, const char *op, const char *ta, int n, const char *const *a, const char *tb,
    const char *const *b) {
    dl_vector *args[2] = {tf_col(t, ta, n, a), tf_col(t, tb, n, b)};
    return tf_eval(t, op, 2, args, n);
}

TEST(test_comparisons_coerce_like_spark_and_order_nan_last) {
    tf t;
    tf_init(&t, false, "UTC");
    const char *i[] = {"1", "2", "NULL", "3"};
    const char *s[] = {"1", "10", "5", "abc"};
    CHECK_STR_EQ(cmp(&t, "=", "int", 4, i, "string", s), "true|false|NULL|NULL");
    CHECK_STR_EQ(cmp(&t, "<", "int", 4, i, "string", s), "false|true|NULL|NULL");
    CHECK_STR_EQ(cmp(&t, "<=>", "int", 4, i, "string", s), "true|false|false|false");
    const char *d1[] = {"NaN", "1", "-0.0", "NaN"};
    const char *d2[] = {"NaN", "NaN", "0.0", "1e308"};
    CHECK_STR_EQ(cmp(&t, "=", "double", 4, d1, "double", d2), "true|false|true|false");
    CHECK_STR_EQ(cmp(&t, ">", "double", 4, d1, "double", d2), "false|false|false|true");
    const char *x1[] = {"1.50", "2.00"};
    const char *x2[] = {"1.5", "1.999"};
    CHECK_STR_EQ(cmp(&t, "=", "decimal(5,2)", 2, x1, "decimal(6,3)", x2), "true|false");
    const char *a[] = {"apple", "apple pie", "b", "NULL"};
    const char *b[] = {"apple", "apple", "abcdefghijklmnopq", "NULL"};
    CHECK_STR_EQ(cmp(&t, ">", "string", 4, a, "string", b), "false|true|true|NULL");
    CHECK_STR_EQ(cmp(&t, "<=>", "string", 4, a, "string", b), "true|false|false|true");
    const char *dt[] = {"2024-01-01", "2024-01-02"};
    const char *ds[] = {"2024-01-01", "2024-01-01 00:00:00"};
    CHECK_STR_EQ(cmp(&t, "=", "date", 2, dt, "string", ds), "true|false");
    const char *bools[] = {"true", "false"};
    CHECK(strstr(cmp(&t, "=", "boolean", 2, bools, "date", dt),
                 "cannot compare boolean with date") != NULL);
    dl_vector *g[3] = {tf_col(&t, "int", 2, (const char *[]){"1", "NULL"}),
                       tf_col(&t, "double", 2, (const char *[]){"2.5", "NULL"}),
                       tf_col(&t, "int", 2, (const char *[]){"NULL", "NULL"})};
    CHECK_STR_EQ(tf_eval(&t, "greatest", 3, g, 2), "2.5|NULL");
    CHECK_STR_EQ(tf_eval(&t, "least", 3, g, 2), "1.0|NULL");
    dl_vector *nb[1] = {tf_col(&t, "boolean", 3, (const char *[]){"true", "false", "NULL"})};
    CHECK_STR_EQ(tf_eval(&t, "not", 1, nb, 3), "false|true|NULL");
    CHECK_STR_EQ(tf_eval(&t, "isnull", 1, nb, 3), "false|false|true");
    tf_destroy(&t);
}

TEST(test_comparisons_on_long_batches_and_dictionaries) {
    tf t;
    tf_init(&t, false, "UTC");

    enum {
        ROWS = 20
    };

    const char *a[ROWS];
    const char *b[ROWS];
    char bufs[ROWS][16];
    for (int k = 0; k < ROWS; k++) {
        (void)snprintf(bufs[k], sizeof(bufs[k]), "%d", k);
        a[k] = bufs[k];
        b[k] = "9";
    }
    dl_vector *args[2] = {tf_dict(&t, "bigint", ROWS, a), tf_const(&t, "bigint", ROWS, "9")};
    CHECK_STR_EQ(tf_eval(&t, ">=", 2, args, ROWS),
                 "false|false|false|false|false|false|false|false|false|true|true|true|true|true|"
                 "true|true|true|true|true|true");
    DL_UNUSED(b);
    tf_destroy(&t);
}

int
main(void) {
    RUN(test_like_matches_wildcards_by_code_point);
    RUN(test_like_escapes_and_rejects_bad_escapes);
    RUN(test_rlike_and_regexp_functions_translate_java_syntax);
    RUN(test_split_follows_java_string_split);
    RUN(test_comparisons_coerce_like_spark_and_order_nan_last);
    RUN(test_comparisons_on_long_batches_and_dictionaries);
    return harness_finish();
}
