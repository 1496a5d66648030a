/* SPDX-License-Identifier: Apache-2.0 */
/* The streaming writer: compact output, escaping, misuse, and parse-write round trips. */
#include <math.h>

#include "harness.h"
#include "json/json.h"

TEST(test_json_writer_emits_compact_nested_output) {
    dl_buf out;
    dl_json_writer w;
    dl_error err;
    dl_buf_init(&out, NULL);
    dl_json_writer_init(&w, &out, 0);
    CHECK_OK(dl_json_writer_begin_object(&w, &err), &err);
    CHECK_OK(dl_json_writer_key_cstr(&w, "add", &err), &err);
    CHECK_OK(dl_json_writer_begin_object(&w, &err), &err);
    CHECK_OK(dl_json_writer_key_cstr(&w, "path", &err), &err);
    CHECK_OK(dl_json_writer_string_cstr(&w, "a.parquet", &err), &err);
    CHECK_OK(dl_json_writer_key_cstr(&w, "size", &err), &err);
    CHECK_OK(dl_json_writer_int64(&w, -42, &err), &err);
    CHECK_OK(dl_json_writer_key_cstr(&w, "big", &err), &err);
    CHECK_OK(dl_json_writer_uint64(&w, UINT64_MAX, &err), &err);
    CHECK_OK(dl_json_writer_key_cstr(&w, "min", &err), &err);
    CHECK_OK(dl_json_writer_int64(&w, INT64_MIN, &err), &err);
    CHECK_OK(dl_json_writer_key_cstr(&w, "d", &err), &err);
    CHECK_OK(dl_json_writer_double(&w, 0.5, &err), &err);
    CHECK_OK(dl_json_writer_key_cstr(&w, "arr", &err), &err);
    CHECK_OK(dl_json_writer_begin_array(&w, &err), &err);
    CHECK_OK(dl_json_writer_bool(&w, true, &err), &err);
    CHECK_OK(dl_json_writer_bool(&w, false, &err), &err);
    CHECK_OK(dl_json_writer_null(&w, &err), &err);
    CHECK_OK(dl_json_writer_begin_array(&w, &err), &err);
    CHECK_OK(dl_json_writer_end_array(&w, &err), &err);
    CHECK_OK(dl_json_writer_begin_object(&w, &err), &err);
    CHECK_OK(dl_json_writer_end_object(&w, &err), &err);
    CHECK_OK(dl_json_writer_raw(&w, DL_STR("{\"pre\":[1]}"), &err), &err);
    CHECK_OK(dl_json_writer_end_array(&w, &err), &err);
    CHECK_OK(dl_json_writer_end_object(&w, &err), &err);
    CHECK_OK(dl_json_writer_end_object(&w, &err), &err);
    CHECK_OK(dl_json_writer_finish(&w, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out),
                 "{\"add\":{\"path\":\"a.parquet\",\"size\":-42,\"big\":18446744073709551615,"
                 "\"min\":-9223372036854775808,\"d\":0.5,\"arr\":[true,false,null,[],{},"
                 "{\"pre\":[1]}]}}");
    dl_json_writer_destroy(&w);
    dl_buf_destroy(&out);
}

TEST(test_json_writer_escapes_quotes_backslashes_and_controls) {
    dl_buf out;
    dl_json_writer w;
    dl_error err;
    dl_buf_init(&out, NULL);
    dl_json_writer_init(&w, &out, 0);
    char all[40];
    size_t n = 0;
    for (int c = 0; c < 0x20; c++) {
        all[n++] = (char)c;
    }
    memcpy(all + n, "\"\\/\x7f", 4);
    n += 4;
    CHECK_OK(dl_json_writer_string(&w, dl_str_make(all, n), &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out),
                 "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r"
                 "\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018"
                 "\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f\\\"\\\\/\x7f\"");
    /* And it reads back as the same bytes. */
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    CHECK_OK(dl_json_doc_parse(&doc, (const char *)out.data, out.len, &err), &err);
    dl_str back = dl_json_val_str(dl_json_doc_root(&doc));
    CHECK(back.len == n && memcmp(back.ptr, all, n) == 0);
    dl_json_doc_destroy(&doc);
    dl_json_writer_destroy(&w);
    dl_buf_destroy(&out);
}

TEST(test_json_writer_keeps_or_escapes_non_ascii) {
    const char *s = "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80";
    dl_buf out;
    dl_json_writer w;
    dl_error err;
    dl_buf_init(&out, NULL);
    dl_json_writer_init(&w, &out, 0);
    CHECK_OK(dl_json_writer_string_cstr(&w, s, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"");
    dl_json_writer_destroy(&w);
    dl_buf_reset(&out);
    dl_json_writer_init(&w, &out, DL_JSON_WRITE_ESCAPE_NON_ASCII);
    CHECK_OK(dl_json_writer_string_cstr(&w, s, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "\"caf\\u00e9 \\u20ac \\ud83d\\ude00\"");
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    CHECK_OK(dl_json_doc_parse(&doc, (const char *)out.data, out.len, &err), &err);
    CHECK(dl_str_eq_cstr(dl_json_val_str(dl_json_doc_root(&doc)), s));
    dl_json_doc_destroy(&doc);
    dl_json_writer_destroy(&w);
    dl_buf_destroy(&out);
}

TEST(test_json_writer_refuses_invalid_utf8_and_leaves_output_unchanged) {
    dl_buf out;
    dl_json_writer w;
    dl_error err;
    dl_buf_init(&out, NULL);
    dl_json_writer_init(&w, &out, 0);
    CHECK_OK(dl_json_writer_begin_array(&w, &err), &err);
    CHECK_OK(dl_json_writer_int64(&w, 1, &err), &err);
    CHECK_STATUS(dl_json_writer_string_cstr(&w, "ab\xC3(", &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "not valid UTF-8 (byte 0xC3 at offset 2)");
    CHECK_STATUS(dl_json_writer_string_cstr(&w, "\xED\xA0\x80", &err), DL_ERR_INVALID_ARG, &err);
    dl_json_writer_destroy(&w);
    dl_json_writer_init(&w, &out, DL_JSON_WRITE_ESCAPE_NON_ASCII);
    dl_buf_reset(&out);
    CHECK_OK(dl_json_writer_begin_array(&w, &err), &err);
    CHECK_STATUS(dl_json_writer_string_cstr(&w, "x\xFF", &err), DL_ERR_INVALID_ARG, &err);
    CHECK_OK(dl_json_writer_string_cstr(&w, "ok", &err), &err);
    CHECK_OK(dl_json_writer_end_array(&w, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "[\"ok\"]");
    dl_json_writer_destroy(&w);
    dl_buf_destroy(&out);
}

TEST(test_json_writer_misuse_is_invalid_arg_and_appends_nothing) {
    dl_buf out;
    dl_json_writer w;
    dl_error err;
    dl_buf_init(&out, NULL);
    dl_json_writer_init(&w, &out, 0);
    CHECK_STATUS(dl_json_writer_key_cstr(&w, "k", &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "a key outside an object");
    CHECK_STATUS(dl_json_writer_end_object(&w, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "end of object without a begin");
    CHECK_STATUS(dl_json_writer_finish(&w, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "no value was written");
    CHECK_OK(dl_json_writer_begin_object(&w, &err), &err);
    CHECK_STATUS(dl_json_writer_int64(&w, 1, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "a value inside an object needs a key first");
    CHECK_STATUS(dl_json_writer_begin_array(&w, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_STATUS(dl_json_writer_end_array(&w, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "end of array while an object is open");
    CHECK_OK(dl_json_writer_key_cstr(&w, "k", &err), &err);
    CHECK_STATUS(dl_json_writer_key_cstr(&w, "k2", &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "two keys in a row");
    CHECK_STATUS(dl_json_writer_end_object(&w, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "right after a key");
    CHECK_OK(dl_json_writer_begin_array(&w, &err), &err);
    CHECK_STATUS(dl_json_writer_key_cstr(&w, "k", &err), DL_ERR_INVALID_ARG, &err);
    CHECK_STATUS(dl_json_writer_end_object(&w, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "end of object while an array is open");
    CHECK_STATUS(dl_json_writer_finish(&w, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "2 array(s) or object(s) are still open");
    CHECK_STATUS(dl_json_writer_double(&w, (double)NAN, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "NaN cannot be written");
    CHECK_STATUS(dl_json_writer_double(&w, -(double)INFINITY, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "an infinity cannot be written");
    CHECK_STATUS(dl_json_writer_raw(&w, DL_STR(""), &err), DL_ERR_INVALID_ARG, &err);
    CHECK_OK(dl_json_writer_end_array(&w, &err), &err);
    CHECK_OK(dl_json_writer_end_object(&w, &err), &err);
    CHECK_OK(dl_json_writer_finish(&w, &err), &err);
    CHECK_STATUS(dl_json_writer_null(&w, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "already has its top-level value");
    CHECK_STATUS(dl_json_writer_begin_object(&w, &err), DL_ERR_INVALID_ARG, &err);
    /* Every refused call appended nothing. */
    CHECK_STR_EQ(dl_buf_cstr(&out), "{\"k\":[]}");
    /* After a reset the next value follows (NDJSON is the caller's newline). */
    CHECK_OK(dl_buf_append_byte(&out, '\n', &err), &err);
    dl_json_writer_reset(&w);
    CHECK_OK(dl_json_writer_int64(&w, 7, &err), &err);
    CHECK_OK(dl_json_writer_finish(&w, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "{\"k\":[]}\n7");
    dl_json_writer_destroy(&w);
    dl_buf_destroy(&out);
}

TEST(test_json_writer_doubles_read_back_bit_for_bit) {
    static const double values[] = {0.0,           -0.0,
                                    1.0,           -1.5,
                                    0.1,           1e-300,
                                    5e-324,        1.7976931348623157e308,
                                    123456789.125, 3.141592653589793};
    dl_buf out;
    dl_json_writer w;
    dl_error err;
    dl_buf_init(&out, NULL);
    dl_json_writer_init(&w, &out, 0);
    CHECK_OK(dl_json_writer_begin_array(&w, &err), &err);
    for (size_t i = 0; i < DL_ARRAY_LEN(values); i++) {
        CHECK_OK(dl_json_writer_double(&w, values[i], &err), &err);
    }
    CHECK_OK(dl_json_writer_end_array(&w, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "[0.0,-0.0,1.0,-1.5,0.1,1e-300,5e-324,1.7976931348623157e+308,"
                                    "123456789.125,3.141592653589793]");
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    CHECK_OK(dl_json_doc_parse(&doc, (const char *)out.data, out.len, &err), &err);
    dl_json_iter it = dl_json_val_iter(dl_json_doc_root(&doc));
    dl_json_val v;
    for (size_t i = 0; dl_json_iter_next(&it, NULL, &v); i++) {
        double d;
        CHECK_OK(dl_json_val_get_double(v, &d, &err), &err);
        uint64_t got_bits;
        uint64_t want_bits;
        memcpy(&got_bits, &d, sizeof(got_bits));
        memcpy(&want_bits, &values[i], sizeof(want_bits));
        CHECK(got_bits == want_bits);
    }
    dl_json_doc_destroy(&doc);
    dl_json_writer_destroy(&w);
    dl_buf_destroy(&out);
}

/* Parses text, writes the root back, and returns the output in out. */
static dl_status
rewrite(const char *text, dl_buf *out, unsigned flags, dl_error *err) {
    dl_json_doc doc;
    dl_json_writer w;
    dl_json_doc_init(&doc, NULL);
    dl_json_writer_init(&w, out, flags);
    dl_buf_reset(out);
    dl_status s = dl_json_doc_parse(&doc, text, strlen(text), err);
    if (s == DL_OK) {
        s = dl_json_writer_value(&w, dl_json_doc_root(&doc), err);
    }
    if (s == DL_OK) {
        s = dl_json_writer_finish(&w, err);
    }
    dl_json_writer_destroy(&w);
    dl_json_doc_destroy(&doc);
    return s;
}

TEST(test_json_writer_value_round_trips_compact_documents) {
    static const char *texts[] = {
        "{\"a\":[1,-2,3.5,\"x\\\"y\",null,true,false,{},[]],\"b\":{\"c\":{\"d\":[[[]]]}}}",
        "[18446744073709551615,-9223372036854775808,123456789012345678901234567890,-0.0]",
        "\"\\u0000\\u001f\"",
        "{\"\":{\"\":\"\"},\"dup\":1,\"dup\":2}",
        "1e+300",
        "[]",
    };
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    for (size_t i = 0; i < DL_ARRAY_LEN(texts); i++) {
        CHECK_OK(rewrite(texts[i], &out, 0, &err), &err);
        CHECK_STR_EQ(dl_buf_cstr(&out), texts[i]);
    }
    /* White space goes, escapes are normalised. */
    CHECK_OK(rewrite(" { \"a\\/\" : [ 1E2 , \"\\u0041\\u00e9\" ] } ", &out, 0, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "{\"a/\":[100.0,\"A\xC3\xA9\"]}");
    CHECK_OK(rewrite("[\"\xC3\xA9\"]", &out, DL_JSON_WRITE_ESCAPE_NON_ASCII, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "[\"\\u00e9\"]");
    dl_buf_destroy(&out);
}

TEST(test_json_writer_value_handles_deep_nesting) {
    /* Deeper than the writer's inline levels and writer_value's inline stack. */
    dl_buf in;
    dl_buf out;
    dl_error err;
    dl_buf_init(&in, NULL);
    dl_buf_init(&out, NULL);
    for (int i = 0; i < 300; i++) {
        CHECK_OK(dl_buf_append_cstr(&in, i % 2 == 0 ? "[" : "{\"k\":", &err), &err);
    }
    CHECK_OK(dl_buf_append_cstr(&in, "0", &err), &err);
    for (int i = 299; i >= 0; i--) {
        CHECK_OK(dl_buf_append_cstr(&in, i % 2 == 0 ? "]" : "}", &err), &err);
    }
    CHECK_OK(rewrite(dl_buf_cstr(&in), &out, 0, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), dl_buf_cstr(&in));
    dl_buf_destroy(&in);
    dl_buf_destroy(&out);
}

TEST(test_json_writer_value_respects_the_writer_state) {
    dl_json_doc doc;
    dl_buf out;
    dl_json_writer w;
    dl_error err;
    dl_json_doc_init(&doc, NULL);
    dl_buf_init(&out, NULL);
    dl_json_writer_init(&w, &out, 0);
    CHECK_OK(dl_json_doc_parse(&doc, "{\"x\":[1]}", 9, &err), &err);
    CHECK_OK(dl_json_writer_begin_object(&w, &err), &err);
    CHECK_STATUS(dl_json_writer_value(&w, dl_json_doc_root(&doc), &err), DL_ERR_INVALID_ARG, &err);
    CHECK_OK(dl_json_writer_key_cstr(&w, "stats", &err), &err);
    CHECK_OK(dl_json_writer_value(&w, dl_json_obj_get(dl_json_doc_root(&doc), "x"), &err), &err);
    CHECK_OK(dl_json_writer_key_cstr(&w, "raw", &err), &err);
    CHECK_OK(dl_json_writer_raw(&w, dl_json_val_raw(dl_json_doc_root(&doc)), &err), &err);
    CHECK_OK(dl_json_writer_end_object(&w, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out), "{\"stats\":[1],\"raw\":{\"x\":[1]}}");
    dl_json_val missing = dl_json_obj_get(dl_json_doc_root(&doc), "nope");
    dl_json_writer_reset(&w);
    CHECK_STATUS(dl_json_writer_value(&w, missing, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "missing");
    dl_json_writer_destroy(&w);
    dl_buf_destroy(&out);
    dl_json_doc_destroy(&doc);
}

TEST(test_json_writer_out_of_memory_is_nomem) {
    for (int64_t fail_at = 1; fail_at < 8; fail_at++) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, fail_at, true);
        dl_buf out;
        dl_json_writer w;
        dl_error err;
        dl_buf_init(&out, &fa.base);
        dl_json_writer_init(&w, &out, 0);
        dl_status s = DL_OK;
        for (int i = 0; i < 1000 && s == DL_OK; i++) {
            s = dl_json_writer_begin_array(&w, &err);
        }
        for (int i = 0; i < 1000 && s == DL_OK; i++) {
            s = dl_json_writer_end_array(&w, &err);
        }
        CHECK_INT_EQ(s, DL_ERR_NOMEM);
        CHECK_ERR_CONTAINS(&err, "out of memory");
        dl_json_writer_destroy(&w);
        dl_buf_destroy(&out);
        CHECK_INT_EQ(fa.live_blocks, 0);
    }
}

int
main(void) {
    RUN(test_json_writer_emits_compact_nested_output);
    RUN(test_json_writer_escapes_quotes_backslashes_and_controls);
    RUN(test_json_writer_keeps_or_escapes_non_ascii);
    RUN(test_json_writer_refuses_invalid_utf8_and_leaves_output_unchanged);
    RUN(test_json_writer_misuse_is_invalid_arg_and_appends_nothing);
    RUN(test_json_writer_doubles_read_back_bit_for_bit);
    RUN(test_json_writer_value_round_trips_compact_documents);
    RUN(test_json_writer_value_handles_deep_nesting);
    RUN(test_json_writer_value_respects_the_writer_state);
    RUN(test_json_writer_out_of_memory_is_nomem);
    return harness_finish();
}
