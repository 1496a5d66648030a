/* SPDX-License-Identifier: Apache-2.0 */
/* Numbers: exact 64-bit integers, integers beyond them, correctly rounded doubles, and the
 * shortest round-trip double text. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "json/json.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

/* splitmix64: a deterministic PRNG, so failures reproduce. */
static uint64_t
next_random(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static bool
same_bits(double a, double b) {
    uint64_t x;
    uint64_t y;
    memcpy(&x, &a, sizeof(x));
    memcpy(&y, &b, sizeof(y));
    return x == y;
}

/* Parses text as one number into *out_val of doc. */
static dl_status
parse_number(dl_json_doc *doc, const char *text, dl_json_val *out_val, dl_error *err) {
    dl_status s = dl_json_doc_parse(doc, text, strlen(text), err);
    *out_val = dl_json_doc_root(doc);
    return s;
}

TEST(test_json_int64_and_uint64_extremes_are_exact) {
    dl_json_doc doc;
    dl_error err;
    dl_json_val v;
    int64_t i = 0;
    uint64_t u = 0;
    dl_json_doc_init(&doc, NULL);
    CHECK_OK(parse_number(&doc, "9223372036854775807", &v, &err), &err);
    CHECK_INT_EQ(dl_json_val_num_kind(v), DL_JSON_NUM_INT64);
    CHECK_OK(dl_json_val_get_int64(v, &i, &err), &err);
    CHECK(i == INT64_MAX);
    CHECK_OK(dl_json_val_get_uint64(v, &u, &err), &err);
    CHECK(u == (uint64_t)INT64_MAX);
    CHECK_OK(parse_number(&doc, "-9223372036854775808", &v, &err), &err);
    CHECK_OK(dl_json_val_get_int64(v, &i, &err), &err);
    CHECK(i == INT64_MIN);
    CHECK_STATUS(dl_json_val_get_uint64(v, &u, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "expected a non-negative integer in the uint64 range, found the "
                             "number -9223372036854775808");
    CHECK_OK(parse_number(&doc, "9223372036854775808", &v, &err), &err);
    CHECK_INT_EQ(dl_json_val_num_kind(v), DL_JSON_NUM_UINT64);
    CHECK_STATUS(dl_json_val_get_int64(v, &i, &err), DL_ERR_CORRUPT, &err);
    CHECK_OK(dl_json_val_get_uint64(v, &u, &err), &err);
    CHECK(u == (uint64_t)INT64_MAX + 1);
    CHECK_OK(parse_number(&doc, "18446744073709551615", &v, &err), &err);
    CHECK_OK(dl_json_val_get_uint64(v, &u, &err), &err);
    CHECK(u == UINT64_MAX);
    double d = 0;
    CHECK_OK(dl_json_val_get_double(v, &d, &err), &err);
    CHECK(d == 18446744073709551616.0);
    CHECK_OK(parse_number(&doc, "-1", &v, &err), &err);
    CHECK_STATUS(dl_json_val_get_uint64(v, &u, &err), DL_ERR_CORRUPT, &err);
    dl_json_doc_destroy(&doc);
}

TEST(test_json_integers_beyond_64_bits_are_bigint_with_exact_text) {
    static const char *texts[] = {
        "18446744073709551616",
        "-9223372036854775809",
        "123456789012345678901234567890",
        "-99999999999999999999999999999999999999",
    };
    dl_json_doc doc;
    dl_error err;
    dl_json_val v;
    dl_json_doc_init(&doc, NULL);
    for (size_t k = 0; k < DL_ARRAY_LEN(texts); k++) {
        CHECK_OK(parse_number(&doc, texts[k], &v, &err), &err);
        CHECK_INT_EQ(dl_json_val_num_kind(v), DL_JSON_NUM_BIGINT);
        CHECK(dl_str_eq_cstr(dl_json_val_raw(v), texts[k]));
        int64_t i;
        uint64_t u;
        CHECK_STATUS(dl_json_val_get_int64(v, &i, &err), DL_ERR_CORRUPT, &err);
        CHECK_ERR_CONTAINS(&err, "expected an integer in the int64 range, found the number");
        CHECK_ERR_CONTAINS(&err, texts[k]);
        CHECK_STATUS(dl_json_val_get_uint64(v, &u, &err), DL_ERR_CORRUPT, &err);
        double d = 0;
        CHECK_OK(dl_json_val_get_double(v, &d, &err), &err);
        CHECK(same_bits(d, strtod(texts[k], NULL)));
    }
    /* An integer too large even for a double is refused. */
    char huge[400];
    memset(huge, '9', 350);
    huge[350] = '\0';
    CHECK_STATUS(parse_number(&doc, huge, &v, &err), DL_ERR_LIMIT, &err);
    CHECK_ERR_CONTAINS(&err, "beyond the range of a double");
    dl_json_doc_destroy(&doc);
}

TEST(test_json_negative_zero) {
    dl_json_doc doc;
    dl_error err;
    dl_json_val v;
    double d = 1;
    int64_t i = 1;
    dl_json_doc_init(&doc, NULL);
    CHECK_OK(parse_number(&doc, "-0", &v, &err), &err);
    CHECK_INT_EQ(dl_json_val_num_kind(v), DL_JSON_NUM_INT64);
    CHECK_OK(dl_json_val_get_int64(v, &i, &err), &err);
    CHECK_INT_EQ(i, 0);
    CHECK_OK(parse_number(&doc, "-0.0", &v, &err), &err);
    CHECK_INT_EQ(dl_json_val_num_kind(v), DL_JSON_NUM_DOUBLE);
    CHECK_OK(dl_json_val_get_double(v, &d, &err), &err);
    CHECK(same_bits(d, -0.0));
    CHECK_OK(parse_number(&doc, "-0e10", &v, &err), &err);
    CHECK_OK(dl_json_val_get_double(v, &d, &err), &err);
    CHECK(same_bits(d, -0.0));
    CHECK_OK(parse_number(&doc, "0.0", &v, &err), &err);
    CHECK_OK(dl_json_val_get_double(v, &d, &err), &err);
    CHECK(same_bits(d, 0.0));
    char text[32];
    CHECK_INT_EQ(dl_json_format_double(-0.0, text), 4);
    CHECK_STR_EQ(text, "-0.0");
    dl_json_doc_destroy(&doc);
}

TEST(test_json_exponents_and_hard_cases_round_correctly) {
    static const struct {
        const char *text;
        double value;
    } cases[] = {
        {"1e2", 100.0},
        {"1E2", 100.0},
        {"1e+2", 100.0},
        {"1e-2", 0.01},
        {"1.5e300", 1.5e300},
        {"2.5E-300", 2.5E-300},
        {"0.1e-0", 0.1},
        {"1e0000000000000000000000000001", 10.0},
        {"5e-324", 5e-324},
        {"2.4703282292062328e-324", 5e-324},
        {"2.4703282292062327e-324", 0.0},
        {"1e-400", 0.0},
        {"1.7976931348623157e308", DBL_MAX},
        {"2.2250738585072011e-308", 2.2250738585072011e-308},
        {"2.2250738585072014e-308", DBL_MIN},
        {"9007199254740993.0", 9007199254740992.0},
        {"9007199254740995.0", 9007199254740996.0},
        {"1e23", 1e23},
        {"1e22", 1e22},
        {"123456789012345678901234567890e-10", 12345678901234567890.123456789},
        {"0.000000000000000000000000000000000000000000001", 1e-45},
        {"100000000000000000000000000000000000000e-38", 1.0},
        {"1.00000000000000011102230246251565404236316680908203125", 1.0}, /* tie: to even */
        {"1.00000000000000011102230246251565404236316680908203126", 1.0000000000000002},
        {"1.00000000000000011102230246251565404236316680908203124", 1.0},
        {"7.2057594037927933e16", 72057594037927936.0},
        {"3.0e37", 3.0e37},
        {"12345e31", 12345e31},
        {"0.30000000000000004", 0.30000000000000004},
    };

    dl_json_doc doc;
    dl_error err;
    dl_json_val v;
    dl_json_doc_init(&doc, NULL);
    for (size_t k = 0; k < DL_ARRAY_LEN(cases); k++) {
        CHECK_OK(parse_number(&doc, cases[k].text, &v, &err), &err);
        double d = -1;
        CHECK_OK(dl_json_val_get_double(v, &d, &err), &err);
        if (!same_bits(d, cases[k].value)) {
            HARNESS_FAIL_AT("%s parsed as %.17g, expected %.17g", cases[k].text, d, cases[k].value);
            return;
        }
    }
    dl_json_doc_destroy(&doc);
}

/* A random decimal: 1-25 significant digits, a point somewhere, an exponent. */
static size_t
random_decimal(char *out, size_t cap) {
    size_t n = 0;
    if (next_random() & 1) {
        out[n++] = '-';
    }
    int n_digits = 1 + (int)(next_random() % 25);
    int point = (int)(next_random() % (uint64_t)(n_digits + 1));
    if (point == 0) {
        out[n++] = '0';
        out[n++] = '.';
    }
    for (int i = 0; i < n_digits; i++) {
        int d = (int)(next_random() % 10);
        if (i == 0 && point != 0 && d == 0) {
            d = 1 + (int)(next_random() % 9); /* no leading zero */
        }
        out[n++] = (char)('0' + d);
        if (i + 1 == point && point != n_digits) {
            out[n++] = '.';
        }
    }
    if (point == 0 || (next_random() & 3) != 0) {
        int e = (int)(next_random() % 660) - 340;
        n += (size_t)snprintf(out + n, cap - n, "e%d", e);
    } else if (point == n_digits) {
        out[n++] = '.';
        out[n++] = '5';
    }
    out[n] = '\0';
    return n;
}

/* Parses text and compares with strtod; counts the finite ones in *n_checked. */
static void
check_decimal_like_strtod(dl_json_doc *doc, const char *text, int *n_checked) {
    dl_error err;
    double want = strtod(text, NULL);
    dl_status s = dl_json_doc_parse(doc, text, strlen(text), &err);
    if (!isfinite(want)) {
        CHECK_INT_EQ(s, DL_ERR_LIMIT);
        return;
    }
    CHECK_OK(s, &err);
    double got = 0;
    CHECK_OK(dl_json_val_get_double(dl_json_doc_root(doc), &got, &err), &err);
    if (!same_bits(got, want)) {
        HARNESS_FAIL_AT("%s parsed as %.17g, strtod gives %.17g", text, got, want);
        return;
    }
    (*n_checked)++;
}

TEST(test_json_parsed_doubles_match_strtod_on_random_decimals) {
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    int n_checked = 0;
    for (int k = 0; k < 200000 && !harness_current_failed; k++) {
        char text[64];
        random_decimal(text, sizeof(text));
        check_decimal_like_strtod(&doc, text, &n_checked);
    }
    CHECK(n_checked > 150000);
    dl_json_doc_destroy(&doc);
}

/* Formats d, parses the text, and expects the same bits back. */
static void
check_double_round_trip(dl_json_doc *doc, double d) {
    dl_error err;
    char text[32];
    size_t n = dl_json_format_double(d, text);
    if (!isfinite(d)) {
        CHECK_INT_EQ(n, 0);
        return;
    }
    CHECK(n > 0 && n < 32);
    CHECK_INT_EQ(strlen(text), n);
    CHECK_OK(dl_json_doc_parse(doc, text, n, &err), &err);
    dl_json_val v = dl_json_doc_root(doc);
    CHECK_INT_EQ(dl_json_val_num_kind(v), DL_JSON_NUM_DOUBLE);
    double back = 0;
    CHECK_OK(dl_json_val_get_double(v, &back, &err), &err);
    if (!same_bits(back, d)) {
        HARNESS_FAIL_AT("%.17g written as %s read back as %.17g", d, text, back);
    }
}

TEST(test_json_doubles_round_trip_bit_for_bit) {
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    for (int k = 0; k < 200000 && !harness_current_failed; k++) {
        uint64_t bits = next_random();
        if (k % 4 == 1) {
            bits &= 0x800FFFFFFFFFFFFFULL; /* subnormals and zeros */
        } else if (k % 4 == 2) {
            bits = (bits & 0x8000000003FFFFFFULL) | 0x3FF0000000000000ULL; /* short mantissas */
        }
        double d;
        memcpy(&d, &bits, sizeof(d));
        check_double_round_trip(&doc, d);
    }
    dl_json_doc_destroy(&doc);
}

TEST(test_json_double_text_is_shortest) {
    static const struct {
        double value;
        const char *text;
    } cases[] = {
        {0.1, "0.1"},
        {1.0, "1.0"},
        {-2.0, "-2.0"},
        {0.0, "0.0"},
        {100.0, "100.0"},
        {123.456, "123.456"},
        {1e300, "1e+300"},
        {1e21, "1e+21"},
        {1e-7, "1e-07"},
        {5e-324, "5e-324"},
        {0.30000000000000004, "0.30000000000000004"},
        {DBL_MAX, "1.7976931348623157e+308"},
        {2.5e-310, "2.5e-310"},
        {9007199254740993.0, "9007199254740992.0"},
        {1.0 / 3.0, "0.3333333333333333"},
    };

    for (size_t k = 0; k < DL_ARRAY_LEN(cases); k++) {
        char text[32];
        size_t n = dl_json_format_double(cases[k].value, text);
        CHECK_INT_EQ(n, strlen(cases[k].text));
        CHECK_STR_EQ(text, cases[k].text);
    }
    char text[32];
    CHECK_INT_EQ(dl_json_format_double((double)NAN, text), 0);
    CHECK_INT_EQ(dl_json_format_double((double)INFINITY, text), 0);
    CHECK_INT_EQ(dl_json_format_double(-(double)INFINITY, text), 0);
    CHECK_STR_EQ(text, "");
}

TEST(test_json_long_numbers_use_the_slow_path) {
    /* More digits than the small stack buffer holds: strtod runs on a scratch copy. */
    dl_json_doc doc;
    dl_error err;
    dl_json_val v;
    dl_json_doc_init(&doc, NULL);
    char text[1200];
    size_t n = 0;
    text[n++] = '[';
    text[n++] = '"';
    text[n++] = '\\';
    text[n++] = 't';
    text[n++] = '"';
    text[n++] = ',';
    size_t num_start = n;
    text[n++] = '0';
    text[n++] = '.';
    for (int i = 0; i < 1000; i++) {
        text[n++] = '0';
    }
    for (const char *c = "12345678901234567890123e1001"; *c != '\0'; c++) {
        text[n++] = *c;
    }
    size_t num_len = n - num_start;
    text[n++] = ']';
    CHECK_OK(dl_json_doc_parse(&doc, text, n, &err), &err);
    v = dl_json_arr_at(dl_json_doc_root(&doc), 1);
    double d = 0;
    CHECK_OK(dl_json_val_get_double(v, &d, &err), &err);
    CHECK(same_bits(d, strtod("1.2345678901234567890123", NULL)));
    CHECK_INT_EQ(dl_json_val_raw(v).len, num_len);
    /* The scratch area still holds the escaped string before the number. */
    CHECK(dl_str_eq_cstr(dl_json_val_str(dl_json_arr_at(dl_json_doc_root(&doc), 0)), "\t"));
    dl_json_doc_destroy(&doc);
}

int
main(void) {
    RUN(test_json_int64_and_uint64_extremes_are_exact);
    RUN(test_json_integers_beyond_64_bits_are_bigint_with_exact_text);
    RUN(test_json_negative_zero);
    RUN(test_json_exponents_and_hard_cases_round_correctly);
    RUN(test_json_parsed_doubles_match_strtod_on_random_decimals);
    RUN(test_json_doubles_round_trip_bit_for_bit);
    RUN(test_json_double_text_is_shortest);
    RUN(test_json_long_numbers_use_the_slow_path);
    return harness_finish();
}
