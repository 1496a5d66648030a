/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the JSON reader and writer (src/json/).
 *
 * Property checked, on any input bytes:
 *   1. Parsing never crashes, reads out of bounds, triggers undefined behaviour or leaks
 *      (ASan + UBSan + LSan), and a refusal is CORRUPT or LIMIT with "JSON at byte N" and
 *      0 <= N <= size in dl_error.offset.
 *   2. For an accepted input, every accessor works on every value (walked recursively), and
 *      writing the document back and re-parsing it gives an equal document (round-trip
 *      determinism): parse(write(doc)) == doc, and write(parse(write(doc))) == write(doc)
 *      byte for byte. The same holds for the writer that escapes non-ASCII.
 *   3. Each line of the input (the NDJSON splitter) parses or is refused cleanly, with one
 *      reused doc.
 * A violation aborts, so libFuzzer records the input.
 */
#include <stdio.h>
#include <stdlib.h>

#include "json/json.h"

#define FUZZ_ASSERT(cond)                                                                \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            (void)fprintf(stderr, "fuzz_json: property violated: %s (line %d)\n", #cond, \
                          __LINE__);                                                     \
            abort();                                                                     \
        }                                                                                \
    } while (0)

/* libFuzzer's fixed entry point name. */
// NOLINTNEXTLINE(readability-identifier-naming)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_refusal(dl_status s, const dl_error *err, size_t size) {
    FUZZ_ASSERT(s == DL_ERR_CORRUPT || s == DL_ERR_LIMIT);
    FUZZ_ASSERT(err->code == s);
    FUZZ_ASSERT(err->offset >= 0 && (size_t)err->offset <= size);
    FUZZ_ASSERT(strncmp(err->msg, "JSON at byte ", 13) == 0);
}

/* Calls every accessor on v and its descendants. */
static void
walk(dl_json_val v, dl_str text) {
    dl_json_type t = dl_json_val_type(v);
    FUZZ_ASSERT(t != DL_JSON_MISSING);
    dl_str raw = dl_json_val_raw(v);
    FUZZ_ASSERT(raw.len > 0 && raw.ptr >= text.ptr && raw.ptr + raw.len <= text.ptr + text.len);
    FUZZ_ASSERT(dl_json_val_offset(v) == raw.ptr - text.ptr);
    dl_str s;
    int64_t i;
    uint64_t u;
    double d;
    bool b;
    FUZZ_ASSERT((dl_json_val_get_str(v, &s, NULL) == DL_OK) == (t == DL_JSON_STRING));
    FUZZ_ASSERT((dl_json_val_get_bool(v, &b, NULL) == DL_OK) == (t == DL_JSON_BOOL));
    FUZZ_ASSERT((dl_json_val_get_double(v, &d, NULL) == DL_OK) == (t == DL_JSON_NUMBER));
    dl_json_num_kind kind = dl_json_val_num_kind(v);
    bool is_int64 = dl_json_val_get_int64(v, &i, NULL) == DL_OK;
    FUZZ_ASSERT(is_int64 == (kind == DL_JSON_NUM_INT64));
    bool is_uint64 = dl_json_val_get_uint64(v, &u, NULL) == DL_OK;
    FUZZ_ASSERT(is_uint64 == (kind == DL_JSON_NUM_UINT64 || (is_int64 && i >= 0)));
    if (t == DL_JSON_STRING) {
        FUZZ_ASSERT(dl_utf8_valid(s.ptr, s.len));
    }
    if (t != DL_JSON_ARRAY && t != DL_JSON_OBJECT) {
        return;
    }
    dl_json_iter it = dl_json_val_iter(v);
    dl_str key;
    dl_json_val child;
    uint32_t n = 0;
    while (dl_json_iter_next(&it, &key, &child)) {
        if (t == DL_JSON_OBJECT) {
            FUZZ_ASSERT(dl_utf8_valid(key.ptr, key.len));
            FUZZ_ASSERT(!dl_json_val_is_missing(dl_json_obj_get_str(v, key)));
        } else if (n < 8) {
            FUZZ_ASSERT(dl_json_val_equal(dl_json_arr_at(v, n), child));
        }
        walk(child, text);
        n++;
    }
    FUZZ_ASSERT(n == dl_json_val_count(v));
}

/* Writes v into out (reset first) with the given writer flags. */
static void
write_val(dl_json_val v, dl_buf *out, unsigned flags) {
    dl_json_writer w;
    dl_error err;
    dl_buf_reset(out);
    dl_json_writer_init(&w, out, flags);
    FUZZ_ASSERT(dl_json_writer_value(&w, v, &err) == DL_OK);
    FUZZ_ASSERT(dl_json_writer_finish(&w, &err) == DL_OK);
    dl_json_writer_destroy(&w);
}

/* parse(write(root)) == root, and writing that again gives the same bytes. */
static void
check_round_trip(dl_json_val root, unsigned flags) {
    dl_buf out1;
    dl_buf out2;
    dl_json_doc doc2;
    dl_error err;
    dl_buf_init(&out1, NULL);
    dl_buf_init(&out2, NULL);
    dl_json_doc_init(&doc2, NULL);
    write_val(root, &out1, flags);
    FUZZ_ASSERT(dl_json_doc_parse(&doc2, (const char *)out1.data, out1.len, &err) == DL_OK);
    FUZZ_ASSERT(dl_json_val_equal(root, dl_json_doc_root(&doc2)));
    write_val(dl_json_doc_root(&doc2), &out2, flags);
    FUZZ_ASSERT(dl_str_eq(dl_buf_view(&out1), dl_buf_view(&out2)));
    dl_json_doc_destroy(&doc2);
    dl_buf_destroy(&out2);
    dl_buf_destroy(&out1);
}

static void
check_lines(const char *text, size_t size) {
    dl_json_doc doc;
    dl_json_lines lines;
    dl_str line;
    dl_error err;
    dl_json_doc_init(&doc, NULL);
    dl_json_lines_init(&lines, text, size);
    while (dl_json_lines_next(&lines, &line)) {
        FUZZ_ASSERT(line.ptr == text + lines.offset && lines.offset + line.len <= size);
        dl_status s = dl_json_doc_parse(&doc, line.ptr, line.len, &err);
        if (s != DL_OK) {
            check_refusal(s, &err, line.len);
        }
    }
    dl_json_doc_destroy(&doc);
}

int
// NOLINTNEXTLINE(readability-identifier-naming)
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    dl_json_doc doc;
    dl_error err;
    dl_json_doc_init(&doc, NULL);
    dl_status s = dl_json_doc_parse(&doc, text, size, &err);
    if (s != DL_OK) {
        check_refusal(s, &err, size);
        FUZZ_ASSERT(dl_json_val_is_missing(dl_json_doc_root(&doc)));
    } else {
        dl_json_val root = dl_json_doc_root(&doc);
        walk(root, dl_str_make(text, size));
        check_round_trip(root, 0);
        check_round_trip(root, DL_JSON_WRITE_ESCAPE_NON_ASCII);
    }
    dl_json_doc_destroy(&doc);
    if (size > 0 && memchr(text, '\n', size) != NULL) {
        check_lines(text, size);
    }
    return 0;
}
