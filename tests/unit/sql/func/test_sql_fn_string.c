/* SPDX-License-Identifier: Apache-2.0 */
/* String functions (sql_fn_string.c, sql_fn_string2.c, sql_fn_format.c): Spark's documented
 * examples, code-point semantics on multi-byte text, NULL handling and every vector layout. */
#include "fn_test_util.h"
#include "harness.h"

/* Calls name on one row of string arguments given as text ("NULL" for null). */
static const char *
s1(tf *t, const char *name, int n, const char *a0, const char *a1, const char *a2) {
    const char *texts[3] = {a0, a1, a2};
    dl_vector *args[3];
    for (int i = 0; i < n; i++) {
        args[i] = tf_col(t, "string", 1, &texts[i]);
    }
    return tf_eval(t, name, n, args, 1);
}

/* Calls name(string, int [, ...]) on one row. */
static const char *
si(tf *t, const char *name, const char *s, const char *n, const char *third) {
    dl_vector *args[3] = {tf_col(t, "string", 1, &s), tf_col(t, "int", 1, &n),
                          third != NULL ? tf_col(t, "string", 1, &third) : NULL};
    return tf_eval(t, name, third != NULL ? 3 : 2, args, 1);
}

TEST(test_lengths_count_code_points_and_bytes) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(s1(&t, "length", 1, "Spark SQL ", NULL, NULL), "10");
    CHECK_STR_EQ(s1(&t, "char_length", 1, "h\xc3\xa9llo", NULL, NULL), "5");
    CHECK_STR_EQ(s1(&t, "octet_length", 1, "h\xc3\xa9llo", NULL, NULL), "6");
    CHECK_STR_EQ(s1(&t, "bit_length", 1, "ab", NULL, NULL), "16");
    CHECK_STR_EQ(s1(&t, "length", 1, "NULL", NULL, NULL), "NULL");
    const char *v[] = {"a", "NULL", "abcdefghijklmnop"};
    dl_vector *d[1] = {tf_dict(&t, "string", 3, v)};
    CHECK_STR_EQ(tf_eval(&t, "length", 1, d, 3), "1|NULL|16");
    dl_vector *c[1] = {tf_const(&t, "int", 2, "12345")};
    CHECK_STR_EQ(tf_eval(&t, "length", 1, c, 2), "5|5");
    tf_destroy(&t);
}

TEST(test_case_mapping_is_unicode_aware) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(s1(&t, "upper", 1, "SparkSql \xc3\xa9t\xc3\xa9", NULL, NULL),
                 "SPARKSQL \xc3\x89T\xc3\x89");
    CHECK_STR_EQ(s1(&t, "lower", 1,
                    "\xd0\x90"
                    "BC",
                    NULL, NULL),
                 "\xd0\xb0"
                 "bc");
    CHECK_STR_EQ(s1(&t, "initcap", 1, "sPark sql hello-world", NULL, NULL),
                 "Spark Sql Hello-world");
    CHECK_STR_EQ(s1(&t, "reverse", 1, "Spark \xc3\xa9", NULL, NULL), "\xc3\xa9 krapS");
    tf_destroy(&t);
}

TEST(test_trim_removes_spaces_or_given_characters) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(s1(&t, "trim", 1, "  Spark SQL \t ", NULL, NULL), "Spark SQL \t");
    CHECK_STR_EQ(s1(&t, "ltrim", 1, "    Spark SQL   ", NULL, NULL), "Spark SQL   ");
    CHECK_STR_EQ(s1(&t, "rtrim", 1, "    Spark SQL   ", NULL, NULL), "    Spark SQL");
    CHECK_STR_EQ(s1(&t, "trim", 2, "SSparkSQLS", "SL", NULL), "parkSQ");
    CHECK_STR_EQ(s1(&t, "btrim", 2, "xyxSparkyx", "xy", NULL), "Spark");
    tf_destroy(&t);
}

TEST(test_substring_follows_spark_positions) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(si(&t, "substr", "Spark SQL", "5", NULL), "k SQL");
    CHECK_STR_EQ(si(&t, "substr", "Spark SQL", "-3", NULL), "SQL");
    CHECK_STR_EQ(si(&t, "substring", "Spark SQL", "0", NULL), "Spark SQL");
    dl_vector *args[3] = {tf_col(&t, "string", 1, (const char *[]){"abc"}),
                          tf_col(&t, "int", 1, (const char *[]){"-5"}),
                          tf_col(&t, "int", 1, (const char *[]){"3"})};
    CHECK_STR_EQ(tf_eval(&t, "substr", 3, args, 1), "a");
    args[0] = tf_col(&t, "string", 1, (const char *[]){"h\xc3\xa9llo"});
    args[1] = tf_col(&t, "int", 1, (const char *[]){"2"});
    args[2] = tf_col(&t, "int", 1, (const char *[]){"2"});
    CHECK_STR_EQ(tf_eval(&t, "substring", 3, args, 1), "\xc3\xa9l");
    CHECK_STR_EQ(si(&t, "left", "Spark SQL", "3", NULL), "Spa");
    CHECK_STR_EQ(si(&t, "right", "Spark SQL", "3", NULL), "SQL");
    CHECK_STR_EQ(si(&t, "right", "Spark", "-1", NULL), "");
    CHECK_STR_EQ(si(&t, "left", "Spark", "10", NULL), "Spark");
    tf_destroy(&t);
}

TEST(test_concat_propagates_nulls_and_concat_ws_skips_them) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(s1(&t, "concat", 3, "Spark", "SQL", "!"), "SparkSQL!");
    CHECK_STR_EQ(s1(&t, "concat", 2, "Spark", "NULL", NULL), "NULL");
    CHECK_STR_EQ(s1(&t, "||", 2, "a", "b", NULL), "ab");
    CHECK_STR_EQ(s1(&t, "concat_ws", 3, " ", "Spark", "SQL"), "Spark SQL");
    CHECK_STR_EQ(s1(&t, "concat_ws", 3, "-", "NULL", "SQL"), "SQL");
    CHECK_STR_EQ(s1(&t, "concat_ws", 1, "s", NULL, NULL), "");
    CHECK_STR_EQ(s1(&t, "concat_ws", 2, "NULL", "a", NULL), "NULL");
    dl_vector *args[2] = {tf_col(&t, "string", 1, (const char *[]){"x"}),
                          tf_col(&t, "int", 1, (const char *[]){"7"})};
    CHECK_STR_EQ(tf_eval(&t, "concat", 2, args, 1), "x7");
    tf_destroy(&t);
}

TEST(test_replace_translate_and_padding) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(s1(&t, "replace", 3, "ABCabc", "abc", "DEF"), "ABCDEF");
    CHECK_STR_EQ(s1(&t, "replace", 2, "ABCabc", "b", NULL), "ABCac");
    CHECK_STR_EQ(s1(&t, "replace", 3, "aaa", "", "x"), "aaa");
    CHECK_STR_EQ(s1(&t, "translate", 3, "AaBbCc", "abc", "123"), "A1B2C3");
    CHECK_STR_EQ(s1(&t, "translate", 3, "AaBbCc", "abc", "1"), "A1BC");
    CHECK_STR_EQ(si(&t, "lpad", "hi", "5", "??"), "???hi");
    CHECK_STR_EQ(si(&t, "lpad", "hi", "1", "??"), "h");
    CHECK_STR_EQ(si(&t, "rpad", "hi", "5", "??"), "hi???");
    CHECK_STR_EQ(si(&t, "lpad", "hi", "5", NULL), "   hi");
    CHECK_STR_EQ(si(&t, "rpad", "hi", "-1", NULL), "");
    CHECK_STR_EQ(si(&t, "repeat", "ab", "3", NULL), "ababab");
    dl_vector *n[1] = {tf_col(&t, "int", 1, (const char *[]){"2"})};
    CHECK_STR_EQ(tf_eval(&t, "space", 1, n, 1), "  ");
    tf_destroy(&t);
}

TEST(test_searching_functions_return_one_based_code_point_positions) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(s1(&t, "instr", 2, "SparkSQL", "SQL", NULL), "6");
    CHECK_STR_EQ(s1(&t, "instr", 2,
                    "\xc3\xa9"
                    "t\xc3\xa9",
                    "t", NULL),
                 "2");
    CHECK_STR_EQ(s1(&t, "locate", 2, "bar", "foobarbar", NULL), "4");
    dl_vector *args[3] = {tf_col(&t, "string", 1, (const char *[]){"bar"}),
                          tf_col(&t, "string", 1, (const char *[]){"foobarbar"}),
                          tf_col(&t, "int", 1, (const char *[]){"5"})};
    CHECK_STR_EQ(tf_eval(&t, "locate", 3, args, 1), "7");
    args[2] = tf_col(&t, "int", 1, (const char *[]){"0"});
    CHECK_STR_EQ(tf_eval(&t, "position", 3, args, 1), "0");
    CHECK_STR_EQ(s1(&t, "startswith", 2, "Spark SQL", "Spark", NULL), "true");
    CHECK_STR_EQ(s1(&t, "endswith", 2, "Spark SQL", "Spark", NULL), "false");
    CHECK_STR_EQ(s1(&t, "contains", 2, "Spark SQL", "k S", NULL), "true");
    CHECK_STR_EQ(s1(&t, "contains", 2, "Spark SQL", "NULL", NULL), "NULL");
    tf_destroy(&t);
}

TEST(test_splitting_and_overlay_match_spark_examples) {
    tf t;
    tf_init(&t, false, "UTC");
    dl_vector *args[4];
    args[0] = tf_col(&t, "string", 1, (const char *[]){"www.apache.org"});
    args[1] = tf_col(&t, "string", 1, (const char *[]){"."});
    args[2] = tf_col(&t, "int", 1, (const char *[]){"2"});
    CHECK_STR_EQ(tf_eval(&t, "substring_index", 3, args, 1), "www.apache");
    args[2] = tf_col(&t, "int", 1, (const char *[]){"-2"});
    CHECK_STR_EQ(tf_eval(&t, "substring_index", 3, args, 1), "apache.org");
    args[2] = tf_col(&t, "int", 1, (const char *[]){"9"});
    CHECK_STR_EQ(tf_eval(&t, "substring_index", 3, args, 1), "www.apache.org");
    args[0] = tf_col(&t, "string", 1, (const char *[]){"11.12.13"});
    args[2] = tf_col(&t, "int", 1, (const char *[]){"3"});
    CHECK_STR_EQ(tf_eval(&t, "split_part", 3, args, 1), "13");
    args[2] = tf_col(&t, "int", 1, (const char *[]){"-2"});
    CHECK_STR_EQ(tf_eval(&t, "split_part", 3, args, 1), "12");
    args[2] = tf_col(&t, "int", 1, (const char *[]){"5"});
    CHECK_STR_EQ(tf_eval(&t, "split_part", 3, args, 1), "");
    args[2] = tf_col(&t, "int", 1, (const char *[]){"0"});
    CHECK(strstr(tf_eval(&t, "split_part", 3, args, 1), "INVALID_INDEX_OF_ZERO") != NULL);
    args[0] = tf_col(&t, "string", 1, (const char *[]){"Spark SQL"});
    args[1] = tf_col(&t, "string", 1, (const char *[]){"tructured"});
    args[2] = tf_col(&t, "int", 1, (const char *[]){"2"});
    args[3] = tf_col(&t, "int", 1, (const char *[]){"4"});
    CHECK_STR_EQ(tf_eval(&t, "overlay", 4, args, 1), "Structured SQL");
    args[1] = tf_col(&t, "string", 1, (const char *[]){"_"});
    args[2] = tf_col(&t, "int", 1, (const char *[]){"6"});
    CHECK_STR_EQ(tf_eval(&t, "overlay", 3, args, 1), "Spark_SQL");
    tf_destroy(&t);
}

TEST(test_character_codes_and_encodings) {
    tf t;
    tf_init(&t, false, "UTC");
    CHECK_STR_EQ(s1(&t, "ascii", 1, "222", NULL, NULL), "50");
    CHECK_STR_EQ(s1(&t, "ascii", 1, "", NULL, NULL), "0");
    dl_vector *n[1] = {tf_col(&t, "int", 1, (const char *[]){"321"})};
    CHECK_STR_EQ(tf_eval(&t, "chr", 1, n, 1), "A");
    n[0] = tf_col(&t, "int", 1, (const char *[]){"233"});
    CHECK_STR_EQ(tf_eval(&t, "char", 1, n, 1), "\xc3\xa9");
    n[0] = tf_col(&t, "int", 1, (const char *[]){"17"});
    CHECK_STR_EQ(tf_eval(&t, "hex", 1, n, 1), "11");
    n[0] = tf_col(&t, "bigint", 1, (const char *[]){"-1"});
    CHECK_STR_EQ(tf_eval(&t, "hex", 1, n, 1), "FFFFFFFFFFFFFFFF");
    CHECK_STR_EQ(s1(&t, "hex", 1, "Spark SQL", NULL, NULL), "537061726B2053514C");
    CHECK_STR_EQ(s1(&t, "unhex", 1, "537061726B2053514C", NULL, NULL), "Spark SQL");
    CHECK_STR_EQ(s1(&t, "unhex", 1, "GG", NULL, NULL), "NULL");
    CHECK_STR_EQ(s1(&t, "base64", 1, "Spark SQL", NULL, NULL), "U3BhcmsgU1FM");
    CHECK_STR_EQ(s1(&t, "base64", 1, "ab", NULL, NULL), "YWI=");
    CHECK_STR_EQ(s1(&t, "unbase64", 1, "U3BhcmsgU1FM", NULL, NULL), "Spark SQL");
    CHECK_STR_EQ(s1(&t, "unbase64", 1, "YWI=", NULL, NULL), "ab");
    tf_destroy(&t);
}

static const char *
fmt(tf *t, const char *f, const char *type, const char *v) {
    dl_vector *args[2] = {tf_col(t, "string", 1, &f), tf_col(t, type, 1, &v)};
    return tf_eval(t, "format_string", 2, args, 1);
}

TEST(test_format_string_follows_java_formatter) {
    tf t;
    tf_init(&t, false, "UTC");
    dl_vector *args[3] = {tf_col(&t, "string", 1, (const char *[]){"Hello World %d %s"}),
                          tf_col(&t, "int", 1, (const char *[]){"100"}),
                          tf_col(&t, "string", 1, (const char *[]){"days"})};
    CHECK_STR_EQ(tf_eval(&t, "format_string", 3, args, 1), "Hello World 100 days");
    args[0] = tf_col(&t, "string", 1, (const char *[]){"%2$s %1$s %%"});
    CHECK_STR_EQ(tf_eval(&t, "printf", 3, args, 1), "days 100 %");
    CHECK_STR_EQ(fmt(&t, "%.2f", "double", "1.005"), "1.01");
    CHECK_STR_EQ(fmt(&t, "%.1f", "double", "0.25"), "0.3");
    CHECK_STR_EQ(fmt(&t, "%5d|", "int", "42"), "   42|");
    CHECK_STR_EQ(fmt(&t, "%-5s|", "string", "ab"), "ab   |");
    CHECK_STR_EQ(fmt(&t, "%08.3f", "double", "-3.14159"), "-003.142");
    CHECK_STR_EQ(fmt(&t, "%,d", "int", "1234567"), "1,234,567");
    CHECK_STR_EQ(fmt(&t, "%x", "int", "-1"), "ffffffff");
    CHECK_STR_EQ(fmt(&t, "%e", "double", "12345.678"), "1.234568e+04");
    CHECK_STR_EQ(fmt(&t, "%g", "double", "0.0001234"), "0.000123400");
    CHECK_STR_EQ(fmt(&t, "%g", "double", "123456789"), "1.23457e+08");
    CHECK_STR_EQ(fmt(&t, "%.3g", "double", "99999"), "1.00e+05");
    CHECK_STR_EQ(fmt(&t, "%(d", "int", "-5"), "(5)");
    CHECK_STR_EQ(fmt(&t, "%10.3e", "double", "0.000123456"), " 1.235e-04");
    CHECK_STR_EQ(fmt(&t, "%5.2s|", "string", "hello"), "   he|");
    CHECK_STR_EQ(fmt(&t, "%s", "string", "NULL"), "null");
    CHECK_STR_EQ(fmt(&t, "%b", "string", "NULL"), "false");
    CHECK_STR_EQ(fmt(&t, "%S", "string", "hi"), "HI");
    CHECK_STR_EQ(fmt(&t, "%.2f", "decimal(10,3)", "2.345"), "2.35");
    CHECK_STR_EQ(fmt(&t, "%s", "double", "1e10"), "1.0E10");
    CHECK(strstr(fmt(&t, "%d", "string", "x"), "[FORMAT_STRING] %d cannot format a string") !=
          NULL);
    CHECK(strstr(fmt(&t, "%d %d", "int", "1"), "needs argument 2") != NULL);
    tf_destroy(&t);
}

int
main(void) {
    RUN(test_lengths_count_code_points_and_bytes);
    RUN(test_case_mapping_is_unicode_aware);
    RUN(test_trim_removes_spaces_or_given_characters);
    RUN(test_substring_follows_spark_positions);
    RUN(test_concat_propagates_nulls_and_concat_ws_skips_them);
    RUN(test_replace_translate_and_padding);
    RUN(test_searching_functions_return_one_based_code_point_positions);
    RUN(test_splitting_and_overlay_match_spark_examples);
    RUN(test_character_codes_and_encodings);
    RUN(test_format_string_follows_java_formatter);
    return harness_finish();
}
