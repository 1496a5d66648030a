/* SPDX-License-Identifier: Apache-2.0 */
/* The strict reader: strings, escapes, UTF-8, structure errors with offsets, limits,
 * navigation, reuse without allocation, and a real Delta `add` line. */
#include <stdlib.h>

#include "harness.h"
#include "json/json.h"

/* Parses a NUL-terminated literal; fails the test on error. */
#define PARSE_OK(doc, text, err) \
    CHECK_OK(dl_json_doc_parse((doc), (text), strlen(text), (err)), (err))

/* Parses text (len bytes) expecting code at byte off with needle in the message. */
#define CHECK_PARSE_ERROR(doc, text, len, code, off, needle)                     \
    do {                                                                         \
        dl_error e_;                                                             \
        dl_error_clear(&e_);                                                     \
        CHECK_STATUS(dl_json_doc_parse((doc), (text), (len), &e_), (code), &e_); \
        CHECK_ERR_CONTAINS(&e_, needle);                                         \
        CHECK_INT_EQ(e_.offset, (off));                                          \
        CHECK(dl_json_val_is_missing(dl_json_doc_root(doc)));                    \
    } while (0)

static bool
str_is(dl_str s, const char *bytes, size_t len) {
    return s.len == len && (len == 0 || memcmp(s.ptr, bytes, len) == 0);
}

TEST(test_json_scalars_parse_at_top_level) {
    dl_json_doc doc;
    dl_error err;
    dl_json_doc_init(&doc, NULL);
    PARSE_OK(&doc, "null", &err);
    CHECK(dl_json_val_is_null(dl_json_doc_root(&doc)));
    PARSE_OK(&doc, " true ", &err);
    bool b = false;
    CHECK_OK(dl_json_val_get_bool(dl_json_doc_root(&doc), &b, &err), &err);
    CHECK(b);
    PARSE_OK(&doc, "\tfalse\r\n", &err);
    CHECK_OK(dl_json_val_get_bool(dl_json_doc_root(&doc), &b, &err), &err);
    CHECK(!b);
    PARSE_OK(&doc, "\"hi\"", &err);
    CHECK(str_is(dl_json_val_str(dl_json_doc_root(&doc)), "hi", 2));
    PARSE_OK(&doc, "42", &err);
    int64_t i = 0;
    CHECK_OK(dl_json_val_get_int64(dl_json_doc_root(&doc), &i, &err), &err);
    CHECK_INT_EQ(i, 42);
    dl_json_doc_destroy(&doc);
}

TEST(test_json_every_simple_escape_is_decoded) {
    dl_json_doc doc;
    dl_error err;
    dl_json_doc_init(&doc, NULL);
    PARSE_OK(&doc, "\"a\\\"b\\\\c\\/d\\be\\ff\\ng\\rh\\ti\"", &err);
    dl_str s = dl_json_val_str(dl_json_doc_root(&doc));
    CHECK(str_is(s, "a\"b\\c/d\be\ff\ng\rh\ti", 17));
    /* The raw text keeps the escapes. */
    CHECK_INT_EQ(dl_json_val_raw(dl_json_doc_root(&doc)).len, 27);
    dl_json_doc_destroy(&doc);
}

TEST(test_json_unicode_escapes_decode_to_utf8) {
    dl_json_doc doc;
    dl_error err;
    dl_json_doc_init(&doc, NULL);
    PARSE_OK(&doc, "\"\\u0041\\u00e9\\u20AC\\u0000\\u007f\\u07FF\\uFFFF\"", &err);
    dl_str s = dl_json_val_str(dl_json_doc_root(&doc));
    CHECK(str_is(s, "A\xC3\xA9\xE2\x82\xAC\0\x7F\xDF\xBF\xEF\xBF\xBF", 13));
    dl_json_doc_destroy(&doc);
}

TEST(test_json_surrogate_pairs_decode_to_four_bytes) {
    dl_json_doc doc;
    dl_error err;
    dl_json_doc_init(&doc, NULL);
    PARSE_OK(&doc, "\"x\\ud83d\\ude00y\\uD800\\uDC00\\uDBFF\\uDFFF\"", &err);
    dl_str s = dl_json_val_str(dl_json_doc_root(&doc));
    CHECK(str_is(s, "x\xF0\x9F\x98\x80y\xF0\x90\x80\x80\xF4\x8F\xBF\xBF", 14));
    dl_json_doc_destroy(&doc);
}

TEST(test_json_lone_surrogates_are_rejected) {
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    const char *t1 = "\"ab\\ud83d\"";
    CHECK_PARSE_ERROR(&doc, t1, strlen(t1), DL_ERR_CORRUPT, 3, "unpaired high surrogate \\uD83D");
    const char *t2 = "\"\\ud83dx\"";
    CHECK_PARSE_ERROR(&doc, t2, strlen(t2), DL_ERR_CORRUPT, 1, "expected a low surrogate");
    const char *t3 = "\"\\ud83d\\u0041\"";
    CHECK_PARSE_ERROR(&doc, t3, strlen(t3), DL_ERR_CORRUPT, 1, "unpaired high surrogate");
    const char *t4 = "\"\\ud83d\\ud83d\"";
    CHECK_PARSE_ERROR(&doc, t4, strlen(t4), DL_ERR_CORRUPT, 1, "unpaired high surrogate");
    const char *t5 = "[\"\\udc00\"]";
    CHECK_PARSE_ERROR(&doc, t5, strlen(t5), DL_ERR_CORRUPT, 2, "unpaired low surrogate \\uDC00");
    const char *t6 = "\"\\ud83d\\n\"";
    CHECK_PARSE_ERROR(&doc, t6, strlen(t6), DL_ERR_CORRUPT, 1, "unpaired high surrogate");
    const char *t7 = "\"\\ud83d\\u12\"";
    CHECK_PARSE_ERROR(&doc, t7, strlen(t7), DL_ERR_CORRUPT, 11, "expected 4 hex digits");
    dl_json_doc_destroy(&doc);
}

TEST(test_json_bad_escapes_are_rejected) {
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    const char *t1 = "\"ab\\x\"";
    CHECK_PARSE_ERROR(&doc, t1, strlen(t1), DL_ERR_CORRUPT, 4,
                      "invalid escape in string: expected one of");
    CHECK_PARSE_ERROR(&doc, t1, strlen(t1), DL_ERR_CORRUPT, 4, "found 'x'");
    const char *t2 = "\"\\u12G4\"";
    CHECK_PARSE_ERROR(&doc, t2, strlen(t2), DL_ERR_CORRUPT, 5,
                      "expected 4 hex digits after '\\u', found 'G'");
    const char *t3 = "\"\\u12";
    CHECK_PARSE_ERROR(&doc, t3, strlen(t3), DL_ERR_CORRUPT, 5, "found end of input");
    const char *t4 = "\"abc\\";
    CHECK_PARSE_ERROR(&doc, t4, strlen(t4), DL_ERR_CORRUPT, 5, "found end of input");
    const char *t5 = "\"\\'\"";
    CHECK_PARSE_ERROR(&doc, t5, strlen(t5), DL_ERR_CORRUPT, 2, "found '''");
    dl_json_doc_destroy(&doc);
}

TEST(test_json_invalid_utf8_in_strings_is_rejected) {
    static const struct {
        const char *text;
        int64_t offset;
    } cases[] = {
        {"\"ab\xC0\x80\"", 3},           /* overlong NUL */
        {"\"\xC1\xBF\"", 1},             /* overlong */
        {"\"\xE0\x80\x80\"", 1},         /* overlong 3-byte */
        {"\"\xF0\x80\x80\x80\"", 1},     /* overlong 4-byte */
        {"\"\xED\xA0\x80\"", 1},         /* encoded surrogate U+D800 */
        {"\"\xF4\x90\x80\x80\"", 1},     /* above U+10FFFF */
        {"\"\xE2\x82\"", 1},             /* truncated before the quote */
        {"\"x\x80y\"", 2},               /* lone continuation byte */
        {"\"\xFE\"", 1},                 /* never valid */
        {"\"\xFF\"", 1},                 /* never valid */
        {"\"12345678901234\xC3(\"", 15}, /* bad continuation after an 8-byte block */
        {"\"\\n\xC3\"", 3},              /* after an escape (slow path) */
        {"\"\xF0\x9F\x98", 1},           /* truncated at end of input */
    };

    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    for (size_t i = 0; i < DL_ARRAY_LEN(cases); i++) {
        dl_error e;
        dl_error_clear(&e);
        dl_status s = dl_json_doc_parse(&doc, cases[i].text, strlen(cases[i].text), &e);
        if (s != DL_ERR_CORRUPT || e.offset != cases[i].offset ||
            strstr(e.msg, "invalid UTF-8") == NULL) {
            HARNESS_FAIL_AT("case %zu: status %s offset %lld msg %s", i, dl_status_name(s),
                            (long long)e.offset, e.msg);
            return;
        }
    }
    dl_json_doc_destroy(&doc);
}

TEST(test_json_valid_utf8_is_kept_as_a_view) {
    dl_json_doc doc;
    dl_error err;
    dl_json_doc_init(&doc, NULL);
    const char *text =
        "{\"k\xC3\xA9y\":\"\xE2\x82\xAC \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF \xEF\xBF\xBF\"}";
    PARSE_OK(&doc, text, &err);
    dl_json_val v = dl_json_obj_get(dl_json_doc_root(&doc), "k\xC3\xA9y");
    dl_str s = dl_json_val_str(v);
    CHECK(str_is(s, "\xE2\x82\xAC \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF \xEF\xBF\xBF", 17));
    /* No escapes: the view points into the input. */
    CHECK(s.ptr == text + 9);
    CHECK_INT_EQ(doc.scratch_len, 0);
    dl_json_doc_destroy(&doc);
}

TEST(test_json_control_characters_in_strings_are_rejected) {
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    for (int c = 0; c < 0x20; c++) {
        char text[16] = "\"abcdefghij?\"";
        text[11] = (char)c;
        dl_error e;
        dl_error_clear(&e);
        dl_status s = dl_json_doc_parse(&doc, text, 13, &e);
        if (s != DL_ERR_CORRUPT || e.offset != 11 || strstr(e.msg, "must be escaped") == NULL) {
            HARNESS_FAIL_AT("control 0x%02X: %s %s", (unsigned)c, dl_status_name(s), e.msg);
            return;
        }
    }
    dl_json_doc_destroy(&doc);
}

/* text holds '"' and len >= 2 plain bytes: make the last one a control character (refused),
 * then end the content with an escape (accepted). */
static void
check_special_at_end(dl_json_doc *doc, char *text, size_t len) {
    dl_error err;
    text[len] = '\x01';
    CHECK_PARSE_ERROR(doc, text, len + 2, DL_ERR_CORRUPT, (int64_t)len, "control");
    text[len - 1] = '\\';
    text[len] = 'n';
    CHECK_OK(dl_json_doc_parse(doc, text, len + 2, &err), &err);
    dl_str s = dl_json_val_str(dl_json_doc_root(doc));
    CHECK_INT_EQ(s.len, len - 1);
    CHECK_INT_EQ(s.ptr[len - 2], '\n');
}

/* A string of len plain bytes; then a control character, an escape, and no closing quote. */
static void
check_string_of_len(dl_json_doc *doc, size_t len) {
    dl_error err;
    char text[64];
    text[0] = '"';
    memset(text + 1, 'a', len);
    text[1 + len] = '"';
    CHECK_OK(dl_json_doc_parse(doc, text, len + 2, &err), &err);
    CHECK_INT_EQ(dl_json_val_str(dl_json_doc_root(doc)).len, len);
    if (len >= 2) {
        check_special_at_end(doc, text, len);
        CHECK(!harness_current_failed);
    }
    /* Unterminated: the quote never comes. */
    memset(text + 1, 'b', len);
    CHECK_PARSE_ERROR(doc, text, len + 1, DL_ERR_CORRUPT, (int64_t)len + 1,
                      "unterminated string starting at byte 0");
}

TEST(test_json_string_scan_finds_specials_at_every_position) {
    /* A quote, escape or bad byte at each position across several 8-byte blocks. */
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    for (size_t len = 0; len < 40 && !harness_current_failed; len++) {
        check_string_of_len(&doc, len);
    }
    dl_json_doc_destroy(&doc);
}

TEST(test_json_empty_and_blank_input_is_rejected) {
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    CHECK_PARSE_ERROR(&doc, "", 0, DL_ERR_CORRUPT, 0, "expected a value, found end of input");
    CHECK_PARSE_ERROR(&doc, NULL, 0, DL_ERR_CORRUPT, 0, "JSON at byte 0: expected a value");
    CHECK_PARSE_ERROR(&doc, " \n\t\r ", 5, DL_ERR_CORRUPT, 5, "found end of input");
    dl_json_doc_destroy(&doc);
}

TEST(test_json_trailing_garbage_is_rejected) {
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    CHECK_PARSE_ERROR(&doc, "{} x", 4, DL_ERR_CORRUPT, 3,
                      "unexpected 'x' after the top-level value");
    CHECK_PARSE_ERROR(&doc, "1 2", 3, DL_ERR_CORRUPT, 2, "unexpected '2'");
    CHECK_PARSE_ERROR(&doc, "[]]", 3, DL_ERR_CORRUPT, 2, "unexpected ']'");
    CHECK_PARSE_ERROR(&doc, "nullx", 5, DL_ERR_CORRUPT, 4, "unexpected 'x'");
    CHECK_PARSE_ERROR(&doc, "{}\n{}", 5, DL_ERR_CORRUPT, 3, "unexpected '{'");
    CHECK_PARSE_ERROR(&doc, "\"a\"\0", 4, DL_ERR_CORRUPT, 3, "unexpected byte 0x00");
    dl_json_doc_destroy(&doc);
}

TEST(test_json_malformed_input_reports_offset_and_expectation) {
    static const struct {
        const char *text;
        dl_status code;
        int64_t offset;
        const char *needle;
    } cases[] = {
        {"{\"a\":1 x}", DL_ERR_CORRUPT, 7,
         "JSON at byte 7: expected ',' or '}' after object member, found 'x'"},
        {"[1 2]", DL_ERR_CORRUPT, 3, "expected ',' or ']' after array element, found '2'"},
        {"[1,]", DL_ERR_CORRUPT, 3, "expected a value, found ']'"},
        {"{\"a\":1,}", DL_ERR_CORRUPT, 7,
         "expected '\"' to start a member key after ',', found '}'"},
        {"{,}", DL_ERR_CORRUPT, 1, "member key after '{', found ','"},
        {"{a:1}", DL_ERR_CORRUPT, 1, "found 'a'"},
        {"{\"a\" 1}", DL_ERR_CORRUPT, 5, "expected ':' after object member key, found '1'"},
        {"{\"a\":}", DL_ERR_CORRUPT, 5, "expected a value, found '}'"},
        {"[", DL_ERR_CORRUPT, 1, "expected a value, found end of input"},
        {"{", DL_ERR_CORRUPT, 1, "found end of input"},
        {"[1", DL_ERR_CORRUPT, 2, "expected ',' or ']' after array element, found end of input"},
        {"{\"a\":1", DL_ERR_CORRUPT, 6, "expected ',' or '}'"},
        {"[1}", DL_ERR_CORRUPT, 2, "expected ',' or ']'"},
        {"{\"a\":1]", DL_ERR_CORRUPT, 6, "expected ',' or '}'"},
        {"tru", DL_ERR_CORRUPT, 3, "invalid literal: expected 'true', found end of input"},
        {"nul1", DL_ERR_CORRUPT, 3, "expected 'null', found '1'"},
        {"[fals]", DL_ERR_CORRUPT, 5, "expected 'false'"},
        {"True", DL_ERR_CORRUPT, 0, "expected a value, found 'T'"},
        {"NaN", DL_ERR_CORRUPT, 0, "found 'N'"},
        {"[Infinity]", DL_ERR_CORRUPT, 1, "found 'I'"},
        {"'a'", DL_ERR_CORRUPT, 0, "found '''"},
        {"+1", DL_ERR_CORRUPT, 0, "found '+'"},
        {"-", DL_ERR_CORRUPT, 1, "expected a digit after '-', found end of input"},
        {"-a", DL_ERR_CORRUPT, 1, "expected a digit after '-', found 'a'"},
        {"01", DL_ERR_CORRUPT, 0, "leading zeros are not allowed"},
        {"-012", DL_ERR_CORRUPT, 1, "leading zeros"},
        {"[00]", DL_ERR_CORRUPT, 1, "leading zeros"},
        {"1.", DL_ERR_CORRUPT, 2, "expected a digit after the decimal point, found end of input"},
        {"1.e5", DL_ERR_CORRUPT, 2, "after the decimal point, found 'e'"},
        {".5", DL_ERR_CORRUPT, 0, "found '.'"},
        {"1e", DL_ERR_CORRUPT, 2, "expected a digit in the exponent"},
        {"1e+", DL_ERR_CORRUPT, 3, "expected a digit in the exponent"},
        {"1E-x", DL_ERR_CORRUPT, 3, "found 'x'"},
        {"0x10", DL_ERR_CORRUPT, 1, "unexpected 'x'"},
        {"[1,,2]", DL_ERR_CORRUPT, 3, "expected a value, found ','"},
        {"/*c*/1", DL_ERR_CORRUPT, 0, "found '/'"},
        {"[1]//", DL_ERR_CORRUPT, 3, "unexpected '/'"},
        {"\xEF\xBB\xBF{}", DL_ERR_CORRUPT, 0, "found byte 0xEF"},
        {"[\x0C]", DL_ERR_CORRUPT, 1, "found byte 0x0C"},
        {"{\"a\":1}}", DL_ERR_CORRUPT, 7, "unexpected '}'"},
        {"\"abc", DL_ERR_CORRUPT, 4, "unterminated string starting at byte 0"},
        {"{\"ab", DL_ERR_CORRUPT, 4, "unterminated string starting at byte 1"},
        {"1e400", DL_ERR_LIMIT, 0, "number 1e400 is beyond the range of a double"},
        {"[-1.5e309]", DL_ERR_LIMIT, 1, "beyond the range of a double"},
    };

    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    for (size_t i = 0; i < DL_ARRAY_LEN(cases); i++) {
        dl_error e;
        dl_error_clear(&e);
        dl_status s = dl_json_doc_parse(&doc, cases[i].text, strlen(cases[i].text), &e);
        if (s != cases[i].code || e.offset != cases[i].offset ||
            strstr(e.msg, cases[i].needle) == NULL) {
            HARNESS_FAIL_AT(
                "case %zu (%s): status %s offset %lld msg \"%s\", wanted \"%s\" at %lld", i,
                cases[i].text, dl_status_name(s), (long long)e.offset, e.msg, cases[i].needle,
                (long long)cases[i].offset);
            return;
        }
        CHECK(dl_json_val_is_missing(dl_json_doc_root(&doc)));
    }
    dl_json_doc_destroy(&doc);
}

TEST(test_json_non_ascii_outside_strings_is_rejected) {
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    const char *t = "[1,\xC3\xA9]";
    CHECK_PARSE_ERROR(&doc, t, strlen(t), DL_ERR_CORRUPT, 3, "expected a value, found byte 0xC3");
    const char *t2 = "[1\xC2\xA0]"; /* a no-break space is not JSON white space */
    CHECK_PARSE_ERROR(&doc, t2, strlen(t2), DL_ERR_CORRUPT, 2, "found byte 0xC2");
    dl_json_doc_destroy(&doc);
}

static char *
nested(size_t depth, size_t *out_len) {
    char *text = dl_mem_alloc(NULL, 2 * depth + 1);
    for (size_t i = 0; i < depth; i++) {
        text[i] = '[';
        text[2 * depth - 1 - i] = ']';
    }
    text[2 * depth] = '\0';
    *out_len = 2 * depth;
    return text;
}

TEST(test_json_depth_limit_is_enforced) {
    dl_json_doc doc;
    dl_error err;
    dl_json_doc_init(&doc, NULL);
    size_t len;
    char *ok = nested(512, &len);
    CHECK_OK(dl_json_doc_parse(&doc, ok, len, &err), &err);
    dl_mem_free(NULL, ok, len + 1);
    char *deep = nested(513, &len);
    CHECK_PARSE_ERROR(&doc, deep, len, DL_ERR_LIMIT, 512,
                      "nesting deeper than the limit of 512 arrays and objects");
    dl_mem_free(NULL, deep, len + 1);

    doc.max_depth = 3;
    PARSE_OK(&doc, "{\"a\":[{\"b\":1}]}", &err);
    const char *t = "{\"a\":[{\"b\":[1]}]}";
    CHECK_PARSE_ERROR(&doc, t, strlen(t), DL_ERR_LIMIT, 11, "limit of 3");
    doc.max_depth = 0;
    CHECK_STATUS(dl_json_doc_parse(&doc, "1", 1, &err), DL_ERR_INVALID_ARG, &err);
    dl_json_doc_destroy(&doc);
}

TEST(test_json_very_deep_nesting_does_not_recurse) {
    /* A million brackets with a raised limit: the parser's stack is on the heap. */
    dl_json_doc doc;
    dl_error err;
    dl_json_doc_init(&doc, NULL);
    doc.max_depth = 1000000;
    size_t len;
    char *text = nested(1000000, &len);
    CHECK_OK(dl_json_doc_parse(&doc, text, len, &err), &err);
    CHECK_INT_EQ(dl_json_val_count(dl_json_doc_root(&doc)), 1);
    dl_mem_free(NULL, text, len + 1);
    dl_json_doc_destroy(&doc);
}

TEST(test_json_size_limit_is_enforced) {
    dl_json_doc doc;
    dl_error err;
    dl_json_doc_init(&doc, NULL);
    CHECK_INT_EQ(doc.max_size, (int64_t)2 << 30);
    doc.max_size = 10;
    PARSE_OK(&doc, "[1,2,3,45]", &err);
    CHECK_PARSE_ERROR(&doc, "[1,2,3,456]", 11, DL_ERR_LIMIT, 10,
                      "JSON text of 11 bytes exceeds the size limit of 10 bytes");
    doc.max_size = (size_t)UINT32_MAX;
    CHECK_STATUS(dl_json_doc_parse(&doc, "1", 1, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "exceeds the largest supported");
    dl_json_doc_destroy(&doc);
}

TEST(test_json_duplicate_keys_keep_all_and_lookup_returns_last) {
    dl_json_doc doc;
    dl_error err;
    dl_json_doc_init(&doc, NULL);
    PARSE_OK(&doc, "{\"a\":1,\"b\":2,\"a\":3}", &err);
    dl_json_val root = dl_json_doc_root(&doc);
    CHECK_INT_EQ(dl_json_val_count(root), 3);
    int64_t v = 0;
    CHECK_OK(dl_json_val_get_int64(dl_json_obj_get(root, "a"), &v, &err), &err);
    CHECK_INT_EQ(v, 3);
    dl_json_iter it = dl_json_val_iter(root);
    dl_str key;
    dl_json_val val;
    int64_t seen[3];
    int n = 0;
    while (dl_json_iter_next(&it, &key, &val)) {
        CHECK_OK(dl_json_val_get_int64(val, &seen[n], &err), &err);
        n++;
    }
    CHECK_INT_EQ(n, 3);
    CHECK(seen[0] == 1 && seen[1] == 2 && seen[2] == 3);
    dl_json_doc_destroy(&doc);
}

TEST(test_json_navigation_lookup_iteration_and_raw_text) {
    dl_json_doc doc;
    dl_error err;
    dl_json_doc_init(&doc, NULL);
    const char *text =
        " { \"a\" : [ 1 , { \"x\" : null } , [ ] , \"s\\n\" ] , \"e\\u0041\" : { } , "
        "\"\" : true } ";
    PARSE_OK(&doc, text, &err);
    dl_json_val root = dl_json_doc_root(&doc);
    CHECK_INT_EQ(dl_json_val_type(root), DL_JSON_OBJECT);
    CHECK_INT_EQ(dl_json_val_count(root), 3);
    CHECK_INT_EQ(dl_json_val_offset(root), 1);
    dl_json_val a = dl_json_obj_get(root, "a");
    CHECK_INT_EQ(dl_json_val_type(a), DL_JSON_ARRAY);
    CHECK_INT_EQ(dl_json_val_count(a), 4);
    dl_str raw = dl_json_val_raw(a);
    CHECK(str_is(raw, "[ 1 , { \"x\" : null } , [ ] , \"s\\n\" ]", 36));
    CHECK(dl_json_val_is_null(dl_json_obj_get(dl_json_arr_at(a, 1), "x")));
    CHECK(str_is(dl_json_val_raw(dl_json_arr_at(a, 1)), "{ \"x\" : null }", 14));
    CHECK_INT_EQ(dl_json_val_count(dl_json_arr_at(a, 2)), 0);
    CHECK(str_is(dl_json_val_str(dl_json_arr_at(a, 3)), "s\n", 2));
    CHECK(dl_json_val_is_missing(dl_json_arr_at(a, 4)));
    /* Escaped key, empty key, empty object. */
    CHECK_INT_EQ(dl_json_val_type(dl_json_obj_get(root, "eA")), DL_JSON_OBJECT);
    CHECK_INT_EQ(dl_json_val_type(dl_json_obj_get(root, "")), DL_JSON_BOOL);
    /* Missing chains stay missing; getters say so. */
    dl_json_val m = dl_json_obj_get(dl_json_obj_get(root, "nope"), "deeper");
    CHECK(dl_json_val_is_missing(m));
    CHECK_INT_EQ(dl_json_val_type(m), DL_JSON_MISSING);
    CHECK(!dl_json_val_is_null(m));
    CHECK_INT_EQ(dl_json_val_offset(m), -1);
    CHECK_INT_EQ(dl_json_val_raw(m).len, 0);
    dl_str s;
    CHECK_STATUS(dl_json_val_get_str(m, &s, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "JSON value is missing (expected a string)");
    /* Iterating a non-container yields nothing; arrays give empty keys. */
    dl_json_iter it = dl_json_val_iter(dl_json_arr_at(a, 0));
    dl_json_val v;
    CHECK(!dl_json_iter_next(&it, NULL, &v));
    it = dl_json_val_iter(a);
    dl_str key = DL_STR("junk");
    CHECK(dl_json_iter_next(&it, &key, &v));
    CHECK_INT_EQ(key.len, 0);
    CHECK(str_is(dl_json_val_raw(v), "1", 1));
    it = dl_json_val_iter(root);
    const char *keys[] = {"a", "eA", ""};
    for (int i = 0; i < 3; i++) {
        CHECK(dl_json_iter_next(&it, &key, &v));
        CHECK(dl_str_eq_cstr(key, keys[i]));
    }
    CHECK(!dl_json_iter_next(&it, &key, &v));
    dl_json_doc_destroy(&doc);
}

TEST(test_json_typed_getters_report_mismatches_with_offsets) {
    dl_json_doc doc;
    dl_error err;
    dl_json_doc_init(&doc, NULL);
    PARSE_OK(&doc, "{\"s\":\"x\",\"n\":1.5,\"b\":true,\"a\":[],\"u\":18446744073709551615}", &err);
    dl_json_val root = dl_json_doc_root(&doc);
    int64_t i = 7;
    CHECK_STATUS(dl_json_val_get_int64(dl_json_obj_get(root, "s"), &i, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err,
                       "JSON at byte 5: expected an integer in the int64 range, found a string");
    CHECK_INT_EQ(err.offset, 5);
    CHECK_INT_EQ(i, 7);
    CHECK_STATUS(dl_json_val_get_int64(dl_json_obj_get(root, "n"), &i, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "found the number 1.5");
    CHECK_STATUS(dl_json_val_get_int64(dl_json_obj_get(root, "u"), &i, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "found the number 18446744073709551615");
    dl_str s;
    CHECK_STATUS(dl_json_val_get_str(dl_json_obj_get(root, "a"), &s, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "expected a string, found an array");
    bool b;
    CHECK_STATUS(dl_json_val_get_bool(dl_json_obj_get(root, "s"), &b, &err), DL_ERR_CORRUPT, &err);
    double d;
    CHECK_STATUS(dl_json_val_get_double(dl_json_obj_get(root, "b"), &d, &err), DL_ERR_CORRUPT,
                 &err);
    CHECK_ERR_CONTAINS(&err, "expected a number, found a boolean");
    CHECK_STATUS(dl_json_val_get_double(root, &d, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "found an object");
    CHECK_INT_EQ(dl_json_val_str(dl_json_obj_get(root, "n")).len, 0);
    CHECK_STR_EQ(dl_json_type_name(DL_JSON_MISSING), "missing value");
    dl_json_doc_destroy(&doc);
}

TEST(test_json_equality_is_structural) {
    dl_json_doc a;
    dl_json_doc b;
    dl_error err;
    dl_json_doc_init(&a, NULL);
    dl_json_doc_init(&b, NULL);
    PARSE_OK(&a, "{\"k\":[1,2.5,\"\\u0041\",null,true,{}],\"z\":1.5}", &err);
    PARSE_OK(&b, " { \"k\" : [ 1 , 25e-1 , \"A\" , null , true , { } ] , \"z\" : 0 } ", &err);
    dl_json_val ra = dl_json_doc_root(&a);
    dl_json_val rb = dl_json_doc_root(&b);
    CHECK(!dl_json_val_equal(ra, rb)); /* z differs */
    CHECK(dl_json_val_equal(dl_json_obj_get(ra, "k"), dl_json_obj_get(rb, "k")));
    PARSE_OK(&b, "{\"k\":[1,2.5,\"A\",null,true,{}]}", &err);
    CHECK(!dl_json_val_equal(dl_json_doc_root(&a), dl_json_doc_root(&b)));
    PARSE_OK(&a, "[1.0]", &err);
    PARSE_OK(&b, "[1]", &err);
    CHECK(!dl_json_val_equal(dl_json_doc_root(&a), dl_json_doc_root(&b)));
    PARSE_OK(&a, "[[1],2]", &err);
    PARSE_OK(&b, "[[1,2]]", &err);
    CHECK(!dl_json_val_equal(dl_json_doc_root(&a), dl_json_doc_root(&b)));
    dl_json_val missing = dl_json_obj_get(dl_json_doc_root(&a), "x");
    CHECK(dl_json_val_equal(missing, missing));
    CHECK(!dl_json_val_equal(missing, dl_json_doc_root(&a)));
    dl_json_doc_destroy(&a);
    dl_json_doc_destroy(&b);
}

/* A Delta `add` action as Spark writes it, stats embedded as an escaped JSON string. */
static const char add_line[] =
    "{\"add\":{\"path\":\"date=2024-01-15/part-00000-3f1c2b8e-8a8d-4a52-9d6e-1b2c3d4e5f60.c000."
    "snappy.parquet\",\"partitionValues\":{\"date\":\"2024-01-15\",\"region\":null},\"size\":"
    "123456,\"modificationTime\":1705312800000,\"dataChange\":true,\"stats\":\"{\\\"numRecords\\\""
    ":1000,\\\"minValues\\\":{\\\"id\\\":1,\\\"name\\\":\\\"Al\\\\\\\"ice\\\",\\\"amount\\\":-12.5}"
    ",\\\"maxValues\\\":{\\\"id\\\":1000,\\\"name\\\":\\\"Zo\\u00eb\\\",\\\"amount\\\":99999.99},"
    "\\\"nullCount\\\":{\\\"id\\\":0,\\\"name\\\":3,\\\"amount\\\":0}}\",\"tags\":{\"INSERTION_TIME"
    "\":\"1705312800000000\",\"OPTIMIZE_TARGET_SIZE\":\"268435456\"}}}";

TEST(test_json_delta_add_action_is_parsed_and_navigated) {
    dl_json_doc doc;
    dl_json_doc stats_doc;
    dl_error err;
    dl_json_doc_init(&doc, NULL);
    dl_json_doc_init(&stats_doc, NULL);
    CHECK_OK(dl_json_doc_parse(&doc, add_line, strlen(add_line), &err), &err);
    dl_json_val add = dl_json_obj_get(dl_json_doc_root(&doc), "add");
    CHECK_INT_EQ(dl_json_val_type(add), DL_JSON_OBJECT);
    dl_str path;
    CHECK_OK(dl_json_val_get_str(dl_json_obj_get(add, "path"), &path, &err), &err);
    CHECK(dl_str_starts_with(path, DL_STR("date=2024-01-15/part-00000-")));
    CHECK(dl_str_ends_with(path, DL_STR(".c000.snappy.parquet")));
    dl_json_val pv = dl_json_obj_get(add, "partitionValues");
    CHECK(dl_str_eq_cstr(dl_json_val_str(dl_json_obj_get(pv, "date")), "2024-01-15"));
    CHECK(dl_json_val_is_null(dl_json_obj_get(pv, "region")));
    int64_t size = 0;
    int64_t mtime = 0;
    bool data_change = false;
    CHECK_OK(dl_json_val_get_int64(dl_json_obj_get(add, "size"), &size, &err), &err);
    CHECK_OK(dl_json_val_get_int64(dl_json_obj_get(add, "modificationTime"), &mtime, &err), &err);
    CHECK_OK(dl_json_val_get_bool(dl_json_obj_get(add, "dataChange"), &data_change, &err), &err);
    CHECK_INT_EQ(size, 123456);
    CHECK_INT_EQ(mtime, 1705312800000LL);
    CHECK(data_change);
    CHECK(dl_str_eq_cstr(
        dl_json_val_str(dl_json_obj_get(dl_json_obj_get(add, "tags"), "OPTIMIZE_TARGET_SIZE")),
        "268435456"));
    /* The stats string is itself JSON: parse the unescaped bytes with a second doc. */
    dl_str stats;
    CHECK_OK(dl_json_val_get_str(dl_json_obj_get(add, "stats"), &stats, &err), &err);
    CHECK_INT_EQ(stats.ptr[0], '{');
    CHECK_OK(dl_json_doc_parse(&stats_doc, stats.ptr, stats.len, &err), &err);
    dl_json_val st = dl_json_doc_root(&stats_doc);
    int64_t n = 0;
    CHECK_OK(dl_json_val_get_int64(dl_json_obj_get(st, "numRecords"), &n, &err), &err);
    CHECK_INT_EQ(n, 1000);
    dl_json_val min = dl_json_obj_get(st, "minValues");
    CHECK(dl_str_eq_cstr(dl_json_val_str(dl_json_obj_get(min, "name")), "Al\"ice"));
    double amount = 0;
    CHECK_OK(dl_json_val_get_double(dl_json_obj_get(min, "amount"), &amount, &err), &err);
    CHECK(amount == -12.5);
    dl_json_val max = dl_json_obj_get(st, "maxValues");
    CHECK(dl_str_eq_cstr(dl_json_val_str(dl_json_obj_get(max, "name")), "Zo\xC3\xAB"));
    CHECK_OK(dl_json_val_get_double(dl_json_obj_get(max, "amount"), &amount, &err), &err);
    CHECK(amount == 99999.99);
    CHECK_OK(
        dl_json_val_get_int64(dl_json_obj_get(dl_json_obj_get(st, "nullCount"), "name"), &n, &err),
        &err);
    CHECK_INT_EQ(n, 3);
    /* The raw accessor gives the stats exactly as stored in the log line. */
    dl_str raw = dl_json_val_raw(dl_json_obj_get(add, "stats"));
    CHECK(dl_str_starts_with(raw, DL_STR("\"{\\\"numRecords\\\":1000")));
    dl_json_doc_destroy(&stats_doc);
    dl_json_doc_destroy(&doc);
}

static const char *const reuse_lines[] = {
    add_line,
    "{\"commitInfo\":{\"timestamp\":1705312800000,\"operation\":\"WRITE\",\"operationParameters\""
    ":{\"mode\":\"Append\",\"partitionBy\":\"[\\\"date\\\"]\"},\"isBlindAppend\":true}}",
    "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}",
    "{\"remove\":{\"path\":\"a\\u0020b.parquet\",\"deletionTimestamp\":1,\"dataChange\":true}}",
};

/* Parses every line of reuse_lines, and one malformed line, with the same doc. */
static void
parse_reuse_lines(dl_json_doc *doc) {
    dl_error err;
    for (size_t i = 0; i < DL_ARRAY_LEN(reuse_lines); i++) {
        CHECK_OK(dl_json_doc_parse(doc, reuse_lines[i], strlen(reuse_lines[i]), &err), &err);
        CHECK(dl_json_val_type(dl_json_doc_root(doc)) == DL_JSON_OBJECT);
    }
    CHECK_STATUS(dl_json_doc_parse(doc, "{\"a\":[1,2,", 10, &err), DL_ERR_CORRUPT, &err);
}

TEST(test_json_parser_reuse_allocates_nothing_after_warmup) {
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, 0, false);
    dl_json_doc doc;
    dl_json_doc_init(&doc, &fa.base);
    for (int round = 0; round < 3; round++) {
        parse_reuse_lines(&doc);
    }
    int64_t after_warmup = fa.n_requests;
    CHECK(after_warmup > 0);
    for (int round = 0; round < 1000 && !harness_current_failed; round++) {
        parse_reuse_lines(&doc);
    }
    CHECK_INT_EQ(fa.n_requests, after_warmup);
    dl_json_doc_destroy(&doc);
    CHECK_INT_EQ(fa.live_blocks, 0);
    CHECK_INT_EQ(fa.live_bytes, 0);
}

/* Parses text with an allocator failing from request fail_at on; expects success or a clean
 * NOMEM, and no leak. */
static void
check_parse_under_faults(const char *text, size_t len, int64_t fail_at, int64_t *n_ok) {
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, fail_at, true);
    dl_json_doc doc;
    dl_error err;
    dl_json_doc_init(&doc, &fa.base);
    dl_status s = dl_json_doc_parse(&doc, text, len, &err);
    if (s == DL_OK) {
        (*n_ok)++;
        CHECK_INT_EQ(dl_json_val_count(dl_json_doc_root(&doc)), 2);
    } else {
        CHECK_INT_EQ(s, DL_ERR_NOMEM);
        CHECK_ERR_CONTAINS(&err, "out of memory");
        CHECK(dl_json_val_is_missing(dl_json_doc_root(&doc)));
    }
    dl_json_doc_destroy(&doc);
    CHECK_INT_EQ(fa.live_blocks, 0);
}

TEST(test_json_out_of_memory_at_every_allocation_is_clean) {
    /* Big enough to need several growths of the tape, the scratch area and the stack. */
    char text[8192];
    size_t len = 0;
    for (int i = 0; i < 40; i++) {
        len += (size_t)snprintf(text + len, sizeof(text) - len, "[\"e\\n%d\",", i);
    }
    text[len++] = '1';
    for (int i = 0; i < 40; i++) {
        text[len++] = ']';
    }
    int64_t n_ok = 0;
    for (int64_t fail_at = 1; fail_at < 100 && !harness_current_failed; fail_at++) {
        check_parse_under_faults(text, len, fail_at, &n_ok);
    }
    CHECK(n_ok > 0);
}

TEST(test_json_lines_split_ndjson) {
    const char data[] = "{\"a\":1}\r\n\n{\"b\":2}\n{\"c\":3}";
    dl_json_lines it;
    dl_json_lines_init(&it, data, sizeof(data) - 1);
    dl_str line;
    CHECK(dl_json_lines_next(&it, &line));
    CHECK(dl_str_eq_cstr(line, "{\"a\":1}"));
    CHECK_INT_EQ(it.line_no, 1);
    CHECK_INT_EQ(it.offset, 0);
    CHECK(dl_json_lines_next(&it, &line));
    CHECK_INT_EQ(line.len, 0);
    CHECK_INT_EQ(it.line_no, 2);
    CHECK(dl_json_lines_next(&it, &line));
    CHECK(dl_str_eq_cstr(line, "{\"b\":2}"));
    CHECK_INT_EQ(it.offset, 10);
    CHECK(dl_json_lines_next(&it, &line));
    CHECK(dl_str_eq_cstr(line, "{\"c\":3}"));
    CHECK_INT_EQ(it.line_no, 4);
    CHECK(!dl_json_lines_next(&it, &line));
    /* A final newline does not make an extra line; an empty buffer has none. */
    dl_json_lines_init(&it, "x\n", 2);
    CHECK(dl_json_lines_next(&it, &line));
    CHECK(!dl_json_lines_next(&it, &line));
    dl_json_lines_init(&it, NULL, 0);
    CHECK(!dl_json_lines_next(&it, &line));
}

TEST(test_json_failed_parse_leaves_doc_empty_and_reusable) {
    dl_json_doc doc;
    dl_error err;
    dl_json_doc_init(&doc, NULL);
    PARSE_OK(&doc, "[1,2]", &err);
    CHECK_STATUS(dl_json_doc_parse(&doc, "[1,2", 4, &err), DL_ERR_CORRUPT, &err);
    CHECK(dl_json_val_is_missing(dl_json_doc_root(&doc)));
    PARSE_OK(&doc, "[3]", &err);
    CHECK_INT_EQ(dl_json_val_count(dl_json_doc_root(&doc)), 1);
    dl_json_doc_destroy(&doc);
    dl_json_doc_destroy(NULL);
}

int
main(void) {
    RUN(test_json_scalars_parse_at_top_level);
    RUN(test_json_every_simple_escape_is_decoded);
    RUN(test_json_unicode_escapes_decode_to_utf8);
    RUN(test_json_surrogate_pairs_decode_to_four_bytes);
    RUN(test_json_lone_surrogates_are_rejected);
    RUN(test_json_bad_escapes_are_rejected);
    RUN(test_json_invalid_utf8_in_strings_is_rejected);
    RUN(test_json_valid_utf8_is_kept_as_a_view);
    RUN(test_json_control_characters_in_strings_are_rejected);
    RUN(test_json_string_scan_finds_specials_at_every_position);
    RUN(test_json_empty_and_blank_input_is_rejected);
    RUN(test_json_trailing_garbage_is_rejected);
    RUN(test_json_malformed_input_reports_offset_and_expectation);
    RUN(test_json_non_ascii_outside_strings_is_rejected);
    RUN(test_json_depth_limit_is_enforced);
    RUN(test_json_very_deep_nesting_does_not_recurse);
    RUN(test_json_size_limit_is_enforced);
    RUN(test_json_duplicate_keys_keep_all_and_lookup_returns_last);
    RUN(test_json_navigation_lookup_iteration_and_raw_text);
    RUN(test_json_typed_getters_report_mismatches_with_offsets);
    RUN(test_json_equality_is_structural);
    RUN(test_json_delta_add_action_is_parsed_and_navigated);
    RUN(test_json_parser_reuse_allocates_nothing_after_warmup);
    RUN(test_json_out_of_memory_at_every_allocation_is_clean);
    RUN(test_json_lines_split_ndjson);
    RUN(test_json_failed_parse_leaves_doc_empty_and_reusable);
    return harness_finish();
}
