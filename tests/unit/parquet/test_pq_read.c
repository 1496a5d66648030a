/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Parquet reader on flat columns, with files built page by page (test_pq_read_util.c):
 * page versions, level encodings, every value encoding, codecs, CRCs, nulls, dictionary
 * vectors, batches across pages and row groups, projection, type conversions, and the errors
 * bad pages must give.
 */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "parquet/codec/pq_codec.h"
#include "parquet/encoding/pq_encoding.h"
#include "test_pq_read_util.h"

static dl_error err;

/* ---- Helpers ----------------------------------------------------------------------------------
 */

/* Encodes n fixed-width values PLAIN into buf (reset first). */
static void
plain(dl_buf *buf, const void *values, size_t n, size_t width) {
    dl_buf_reset(buf);
    if (dl_pq_plain_encode_fixed(values, n, width, buf, &err) != DL_OK) {
        printf("plain encode failed: %s\n", err.msg);
    }
}

static void
plain_strs(dl_buf *buf, const char *const *values, size_t n) {
    dl_str s[64];
    for (size_t i = 0; i < n; i++) {
        s[i] = dl_str_from_cstr(values[i]);
    }
    dl_buf_reset(buf);
    if (dl_pq_plain_encode_byte_array(s, n, buf, &err) != DL_OK) {
        printf("plain encode failed: %s\n", err.msg);
    }
}

/* A file of one top-level leaf column "a"; returns the column. */
static size_t
one_column(pqt_file *f, dl_pq_repetition rep, dl_pq_type type, int32_t converted, int32_t codec) {
    pqt_file_init(f, 1);
    return pqt_add_leaf(f, "a", rep, type, converted, codec);
}

/* Finishes f into out and reads it as JSON lines. */
static dl_status
finish_and_read(pqt_file *f, const char *columns, const dl_pq_read_options *opts, dl_buf *json) {
    dl_buf file;
    dl_buf_init(&file, NULL);
    pqt_finish(f, &file);
    dl_buf_reset(json);
    dl_status s = pqt_read_json(file.data, file.len, columns, opts, json, &err);
    dl_buf_destroy(&file);
    return s;
}

#define CHECK_JSON(json, want) CHECK_STR_EQ(dl_buf_cstr(json), want)

/* ---- Pages and levels --------------------------------------------------------------------------
 */

TEST(test_required_int32_plain_v1) {
    pqt_file f;
    size_t c = one_column(&f, DL_PQ_REQUIRED, DL_PQ_TYPE_INT32, -1, DL_PQ_CODEC_UNCOMPRESSED);
    dl_buf v;
    dl_buf json;
    dl_buf_init(&v, NULL);
    dl_buf_init(&json, NULL);
    int32_t vals[] = {1, -2, 3};
    plain(&v, vals, 3, 4);
    pqt_add_page(&f, c,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = 3,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_PLAIN});
    pqt_end_row_group(&f, 3);
    CHECK_OK(finish_and_read(&f, NULL, NULL, &json), &err);
    CHECK_JSON(&json, "{\"a\":1}\n{\"a\":-2}\n{\"a\":3}\n");
    pqt_file_destroy(&f);
    dl_buf_destroy(&v);
    dl_buf_destroy(&json);
}

/* Optional int64 with nulls: RLE definition levels (v1, length prefix) spread values. */
TEST(test_optional_int64_nulls_rle_levels_v1) {
    pqt_file f;
    size_t c = one_column(&f, DL_PQ_OPTIONAL, DL_PQ_TYPE_INT64, -1, DL_PQ_CODEC_SNAPPY);
    dl_buf v;
    dl_buf json;
    dl_buf_init(&v, NULL);
    dl_buf_init(&json, NULL);
    int64_t vals[] = {10, 20, 30};
    uint16_t def[] = {1, 0, 0, 1, 1, 0};
    plain(&v, vals, 3, 8);
    pqt_add_page(&f, c,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = 6,
                             .def = def,
                             .max_def = 1,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_PLAIN});
    pqt_end_row_group(&f, 6);
    CHECK_OK(finish_and_read(&f, NULL, NULL, &json), &err);
    CHECK_JSON(&json, "{\"a\":\"10\"}\n{\"a\":null}\n{\"a\":null}\n{\"a\":\"20\"}\n{\"a\":\"30\"}\n"
                      "{\"a\":null}\n");
    pqt_file_destroy(&f);
    dl_buf_destroy(&v);
    dl_buf_destroy(&json);
}

/* The deprecated BIT_PACKED level encoding (MSB first, no length prefix). */
TEST(test_bit_packed_levels_v1) {
    pqt_file f;
    size_t c = one_column(&f, DL_PQ_OPTIONAL, DL_PQ_TYPE_INT32, -1, DL_PQ_CODEC_UNCOMPRESSED);
    dl_buf v;
    dl_buf json;
    dl_buf_init(&v, NULL);
    dl_buf_init(&json, NULL);
    int32_t vals[] = {7, 8};
    uint16_t def[] = {0, 1, 0, 1, 0};
    plain(&v, vals, 2, 4);
    pqt_add_page(&f, c,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = 5,
                             .def = def,
                             .max_def = 1,
                             .levels_bit_packed = true,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_PLAIN});
    pqt_end_row_group(&f, 5);
    CHECK_OK(finish_and_read(&f, NULL, NULL, &json), &err);
    CHECK_JSON(&json, "{\"a\":null}\n{\"a\":7}\n{\"a\":null}\n{\"a\":8}\n{\"a\":null}\n");
    pqt_file_destroy(&f);
    dl_buf_destroy(&v);
    dl_buf_destroy(&json);
}

/* Data page v2: levels outside the compressed section; compressed and uncompressed values. */
TEST(test_data_page_v2_compressed_and_not) {
    for (int raw = 0; raw < 2; raw++) {
        pqt_file f;
        size_t c = one_column(&f, DL_PQ_OPTIONAL, DL_PQ_TYPE_DOUBLE, -1, DL_PQ_CODEC_ZSTD);
        dl_buf v;
        dl_buf json;
        dl_buf_init(&v, NULL);
        dl_buf_init(&json, NULL);
        double vals[] = {1.5, -2.25};
        uint16_t def[] = {1, 0, 1};
        plain(&v, vals, 2, 8);
        pqt_add_page(&f, c,
                     &(pqt_page){.type = DL_PQ_PAGE_DATA_V2,
                                 .num_values = 3,
                                 .num_nulls = 1,
                                 .num_rows = 3,
                                 .def = def,
                                 .max_def = 1,
                                 .values = v.data,
                                 .values_len = v.len,
                                 .encoding = DL_PQ_ENCODING_PLAIN,
                                 .v2_uncompressed = raw == 1});
        pqt_end_row_group(&f, 3);
        CHECK_OK(finish_and_read(&f, NULL, NULL, &json), &err);
        CHECK_JSON(&json, "{\"a\":1.5}\n{\"a\":null}\n{\"a\":-2.25}\n");
        pqt_file_destroy(&f);
        dl_buf_destroy(&v);
        dl_buf_destroy(&json);
    }
}

/* A v2 page whose values are all null has an empty values section (nothing to decompress);
 * a dictionary-encoded page in a chunk without a dictionary page is CORRUPT. */
TEST(test_data_page_v2_all_null_empty_values) {
    for (int dict = 0; dict < 2; dict++) {
        pqt_file f;
        size_t c = one_column(&f, DL_PQ_OPTIONAL, DL_PQ_TYPE_INT32, -1, DL_PQ_CODEC_SNAPPY);
        dl_buf json;
        dl_buf_init(&json, NULL);
        uint16_t def[] = {0, 0};
        pqt_add_page(
            &f, c,
            &(pqt_page){.type = DL_PQ_PAGE_DATA_V2,
                        .num_values = 2,
                        .num_nulls = 2,
                        .num_rows = 2,
                        .def = def,
                        .max_def = 1,
                        .values = NULL,
                        .values_len = 0,
                        .encoding = dict ? DL_PQ_ENCODING_RLE_DICTIONARY : DL_PQ_ENCODING_PLAIN});
        pqt_end_row_group(&f, 2);
        dl_status s = finish_and_read(&f, NULL, NULL, &json);
        if (dict) {
            CHECK_STATUS(s, DL_ERR_CORRUPT, &err);
            CHECK_ERR_CONTAINS(&err, "no dictionary page");
        } else {
            CHECK_OK(s, &err);
            CHECK_JSON(&json, "{\"a\":null}\n{\"a\":null}\n");
        }
        pqt_file_destroy(&f);
        dl_buf_destroy(&json);
    }
}

/* Batches of 7 rows over pages of 10, 3 and 12 values: batches cross page boundaries. */
TEST(test_batches_cross_pages) {
    pqt_file f;
    size_t c = one_column(&f, DL_PQ_OPTIONAL, DL_PQ_TYPE_INT32, -1, DL_PQ_CODEC_GZIP);
    dl_buf v;
    dl_buf json;
    dl_buf_init(&v, NULL);
    dl_buf_init(&json, NULL);
    int32_t next = 0;
    int32_t sizes[] = {10, 3, 12};
    char want[2048] = "";
    for (size_t p = 0; p < 3; p++) {
        int32_t vals[16];
        uint16_t def[16];
        int32_t n = 0;
        for (int32_t i = 0; i < sizes[p]; i++) {
            def[i] = (uint16_t)((next + i) % 4 != 0);
            if (def[i]) {
                vals[n++] = next + i;
            }
            char line[32];
            if (def[i]) {
                (void)snprintf(line, sizeof(line), "{\"a\":%d}\n", (int)(next + i));
            } else {
                (void)snprintf(line, sizeof(line), "{\"a\":null}\n");
            }
            (void)strncat(want, line, sizeof(want) - strlen(want) - 1);
        }
        plain(&v, vals, (size_t)n, 4);
        pqt_add_page(&f, c,
                     &(pqt_page){.type = p == 1 ? DL_PQ_PAGE_DATA_V2 : DL_PQ_PAGE_DATA,
                                 .num_values = sizes[p],
                                 .num_nulls = sizes[p] - n,
                                 .num_rows = sizes[p],
                                 .def = def,
                                 .max_def = 1,
                                 .values = v.data,
                                 .values_len = v.len,
                                 .encoding = DL_PQ_ENCODING_PLAIN});
        next += sizes[p];
    }
    pqt_end_row_group(&f, next);
    dl_pq_read_options o = {.batch_rows = 7};
    CHECK_OK(finish_and_read(&f, NULL, &o, &json), &err);
    CHECK_JSON(&json, want);
    pqt_file_destroy(&f);
    dl_buf_destroy(&v);
    dl_buf_destroy(&json);
}

/* Two row groups: batches stop at the row group's end; row group and first row reported. */
TEST(test_batches_stop_at_row_groups) {
    pqt_file f;
    size_t c = one_column(&f, DL_PQ_REQUIRED, DL_PQ_TYPE_INT32, -1, DL_PQ_CODEC_UNCOMPRESSED);
    dl_buf v;
    dl_buf file;
    dl_buf_init(&v, NULL);
    dl_buf_init(&file, NULL);
    int32_t a[] = {1, 2, 3, 4, 5};
    int32_t b[] = {6, 7, 8};
    plain(&v, a, 5, 4);
    pqt_add_page(&f, c,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = 5,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_PLAIN});
    pqt_end_row_group(&f, 5);
    plain(&v, b, 3, 4);
    pqt_add_page(&f, c,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = 3,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_PLAIN});
    pqt_end_row_group(&f, 3);
    pqt_finish(&f, &file);
    dl_pq_file *pf;
    CHECK_OK(dl_pq_file_open_memory(file.data, file.len, "rg.parquet", NULL, &pf, &err), &err);
    CHECK_INT_EQ(dl_pq_file_num_rows(pf), 8);
    dl_pq_read_options o = {.batch_rows = 4};
    dl_pq_reader *r;
    CHECK_OK(dl_pq_reader_new(pf, &o, &r, &err), &err);
    dl_batch *batch;
    CHECK_OK(dl_vec_batch_new(NULL, dl_pq_reader_schema(r), 0, &batch, &err), &err);
    int64_t counts[4];
    int32_t groups[4];
    int64_t firsts[4];
    int n = 0;
    for (;;) {
        CHECK_OK(dl_pq_reader_next(r, batch, &err), &err);
        if (batch->count == 0 || n == 4) {
            break;
        }
        counts[n] = batch->count;
        groups[n] = dl_pq_reader_row_group(r);
        firsts[n] = dl_pq_reader_batch_first_row(r);
        n++;
    }
    CHECK_INT_EQ(n, 3);
    CHECK(counts[0] == 4 && counts[1] == 1 && counts[2] == 3);
    CHECK(groups[0] == 0 && groups[1] == 0 && groups[2] == 1);
    CHECK(firsts[0] == 0 && firsts[1] == 4 && firsts[2] == 5);
    dl_pq_reader_stats st;
    dl_pq_reader_get_stats(r, &st);
    CHECK_INT_EQ(st.rows, 8);
    CHECK_INT_EQ(st.row_groups_read, 2);
    dl_vec_batch_free(batch);
    dl_pq_reader_free(r);
    dl_pq_file_free(pf);
    pqt_file_destroy(&f);
    dl_buf_destroy(&v);
    dl_buf_destroy(&file);
}

/* ---- Dictionaries
 * -------------------------------------------------------------------------------- */

static void
dict_file(pqt_file *f, bool fallback, dl_buf *v) {
    size_t c =
        one_column(f, DL_PQ_OPTIONAL, DL_PQ_TYPE_BYTE_ARRAY, DL_PQ_CT_UTF8, DL_PQ_CODEC_SNAPPY);
    const char *dict[] = {"apple", "a much longer banana", "cherry"};
    plain_strs(v, dict, 3);
    pqt_add_page(f, c,
                 &(pqt_page){.type = DL_PQ_PAGE_DICTIONARY,
                             .num_values = 3,
                             .values = v->data,
                             .values_len = v->len});
    uint32_t idx[] = {1, 0, 2, 1};
    uint16_t def[] = {1, 1, 0, 1, 1};
    dl_buf_reset(v);
    if (dl_pq_dict_indices_encode(idx, 4, 3, v, &err) != DL_OK) {
        printf("%s\n", err.msg);
    }
    pqt_add_page(f, c,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = 5,
                             .def = def,
                             .max_def = 1,
                             .values = v->data,
                             .values_len = v->len,
                             .encoding = DL_PQ_ENCODING_RLE_DICTIONARY});
    int64_t rows = 5;
    if (fallback) {
        const char *more[] = {"plain after dictionary fallback", "x"};
        plain_strs(v, more, 2);
        pqt_add_page(f, c,
                     &(pqt_page){.type = DL_PQ_PAGE_DATA,
                                 .num_values = 2,
                                 .def = def,
                                 .max_def = 1,
                                 .values = v->data,
                                 .values_len = v->len,
                                 .encoding = DL_PQ_ENCODING_PLAIN});
        rows += 2;
    }
    pqt_end_row_group(f, rows);
}

/* Dictionary-encoded strings come out as a DICT vector over the chunk's dictionary. */
TEST(test_dictionary_strings_are_dict_vectors) {
    pqt_file f;
    dl_buf v;
    dl_buf file;
    dl_buf_init(&v, NULL);
    dl_buf_init(&file, NULL);
    dict_file(&f, false, &v);
    pqt_finish(&f, &file);
    dl_pq_file *pf;
    CHECK_OK(dl_pq_file_open_memory(file.data, file.len, "d.parquet", NULL, &pf, &err), &err);
    dl_pq_reader *r;
    CHECK_OK(dl_pq_reader_new(pf, NULL, &r, &err), &err);
    dl_batch *b;
    CHECK_OK(dl_vec_batch_new(NULL, dl_pq_reader_schema(r), 0, &b, &err), &err);
    CHECK_OK(dl_pq_reader_next(r, b, &err), &err);
    CHECK_INT_EQ(b->count, 5);
    const dl_vector *col = b->cols[0];
    CHECK(col->layout == DL_VEC_DICT);
    CHECK_INT_EQ(col->dict->length, 3);
    CHECK(dl_vec_is_null(col, 2));
    const dl_vector *flat;
    int64_t e = dl_vec_resolve(col, 0, &flat);
    CHECK(dl_str_eq_cstr(dl_vec_get_str(flat, e), "a much longer banana"));
    e = dl_vec_resolve(col, 4, &flat);
    CHECK(dl_str_eq_cstr(dl_vec_get_str(flat, e), "a much longer banana"));
    CHECK_OK(dl_pq_reader_next(r, b, &err), &err);
    CHECK_INT_EQ(b->count, 0);
    dl_vec_batch_free(b);
    dl_pq_reader_free(r);
    dl_pq_file_free(pf);
    pqt_file_destroy(&f);
    dl_buf_destroy(&v);
    dl_buf_destroy(&file);
}

/* A chunk falling back from dictionary to plain pages mid-batch, and the flatten option. */
TEST(test_dictionary_fallback_mid_batch_and_flattened) {
    for (int flatten = 0; flatten < 2; flatten++) {
        pqt_file f;
        dl_buf v;
        dl_buf json;
        dl_buf_init(&v, NULL);
        dl_buf_init(&json, NULL);
        dict_file(&f, true, &v);
        dl_pq_read_options o = {.is_dict_flattened = flatten == 1};
        CHECK_OK(finish_and_read(&f, NULL, &o, &json), &err);
        CHECK_JSON(&json, "{\"a\":\"a much longer banana\"}\n{\"a\":\"apple\"}\n{\"a\":null}\n"
                          "{\"a\":\"cherry\"}\n{\"a\":\"a much longer banana\"}\n"
                          "{\"a\":\"plain after dictionary fallback\"}\n{\"a\":\"x\"}\n");
        pqt_file_destroy(&f);
        dl_buf_destroy(&v);
        dl_buf_destroy(&json);
    }
}

/* Numeric dictionaries are gathered into flat vectors; an index past the dictionary is CORRUPT. */
TEST(test_numeric_dictionary_and_bad_index) {
    for (int bad = 0; bad < 2; bad++) {
        pqt_file f;
        size_t c = one_column(&f, DL_PQ_REQUIRED, DL_PQ_TYPE_INT64, -1, DL_PQ_CODEC_UNCOMPRESSED);
        dl_buf v;
        dl_buf json;
        dl_buf_init(&v, NULL);
        dl_buf_init(&json, NULL);
        int64_t dict[] = {100, 200};
        plain(&v, dict, 2, 8);
        pqt_add_page(&f, c,
                     &(pqt_page){.type = DL_PQ_PAGE_DICTIONARY,
                                 .num_values = 2,
                                 .values = v.data,
                                 .values_len = v.len});
        uint32_t idx[] = {1, 1, 0};
        dl_buf_reset(&v);
        CHECK_OK(dl_pq_dict_indices_encode(idx, 3, bad ? 3 : 2, &v, &err), &err);
        if (bad) {
            uint32_t three[] = {2, 2, 2};
            dl_buf_reset(&v);
            CHECK_OK(dl_pq_dict_indices_encode(three, 3, 4, &v, &err), &err);
        }
        pqt_add_page(&f, c,
                     &(pqt_page){.type = DL_PQ_PAGE_DATA,
                                 .num_values = 3,
                                 .values = v.data,
                                 .values_len = v.len,
                                 .encoding = DL_PQ_ENCODING_PLAIN_DICTIONARY});
        pqt_end_row_group(&f, 3);
        dl_status s = finish_and_read(&f, NULL, NULL, &json);
        if (bad) {
            CHECK_STATUS(s, DL_ERR_CORRUPT, &err);
            CHECK_ERR_CONTAINS(&err, "column 'a'");
        } else {
            CHECK_OK(s, &err);
            CHECK_JSON(&json, "{\"a\":\"200\"}\n{\"a\":\"200\"}\n{\"a\":\"100\"}\n");
        }
        pqt_file_destroy(&f);
        dl_buf_destroy(&v);
        dl_buf_destroy(&json);
    }
}

/* ---- Encodings
 * ----------------------------------------------------------------------------------- */

TEST(test_delta_binary_packed_int32_int64) {
    pqt_file f;
    pqt_file_init(&f, 2);
    size_t a =
        pqt_add_leaf(&f, "a", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32, -1, DL_PQ_CODEC_UNCOMPRESSED);
    size_t b =
        pqt_add_leaf(&f, "b", DL_PQ_OPTIONAL, DL_PQ_TYPE_INT64, -1, DL_PQ_CODEC_UNCOMPRESSED);
    dl_buf v;
    dl_buf json;
    dl_buf_init(&v, NULL);
    dl_buf_init(&json, NULL);
    int32_t i32[] = {5, -7, 2147483647, 0};
    int64_t i64[] = {-9000000000LL, 1, 9000000000LL};
    uint16_t def[] = {1, 1, 0, 1};
    CHECK_OK(dl_pq_delta_encode_i32(i32, 4, &v, &err), &err);
    pqt_add_page(&f, a,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = 4,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_DELTA_BINARY_PACKED});
    dl_buf_reset(&v);
    CHECK_OK(dl_pq_delta_encode_i64(i64, 3, &v, &err), &err);
    pqt_add_page(&f, b,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = 4,
                             .def = def,
                             .max_def = 1,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_DELTA_BINARY_PACKED});
    pqt_end_row_group(&f, 4);
    CHECK_OK(finish_and_read(&f, NULL, NULL, &json), &err);
    CHECK_JSON(&json, "{\"a\":5,\"b\":\"-9000000000\"}\n{\"a\":-7,\"b\":\"1\"}\n"
                      "{\"a\":2147483647,\"b\":null}\n{\"a\":0,\"b\":\"9000000000\"}\n");
    pqt_file_destroy(&f);
    dl_buf_destroy(&v);
    dl_buf_destroy(&json);
}

TEST(test_delta_length_and_delta_byte_array) {
    for (int dba = 0; dba < 2; dba++) {
        pqt_file f;
        size_t c = one_column(&f, DL_PQ_OPTIONAL, DL_PQ_TYPE_BYTE_ARRAY, DL_PQ_CT_UTF8,
                              DL_PQ_CODEC_UNCOMPRESSED);
        dl_buf v;
        dl_buf json;
        dl_buf_init(&v, NULL);
        dl_buf_init(&json, NULL);
        dl_str s[] = {DL_STR("prefix shared by many values: 1"),
                      DL_STR("prefix shared by many values: 2"), DL_STR(""), DL_STR("short")};
        uint16_t def[] = {1, 0, 1, 1, 1};
        if (dba) {
            CHECK_OK(dl_pq_dba_encode(s, 4, &v, &err), &err);
        } else {
            CHECK_OK(dl_pq_dlba_encode(s, 4, &v, &err), &err);
        }
        pqt_add_page(&f, c,
                     &(pqt_page){.type = DL_PQ_PAGE_DATA,
                                 .num_values = 5,
                                 .def = def,
                                 .max_def = 1,
                                 .values = v.data,
                                 .values_len = v.len,
                                 .encoding = dba ? DL_PQ_ENCODING_DELTA_BYTE_ARRAY
                                                 : DL_PQ_ENCODING_DELTA_LENGTH_BYTE_ARRAY});
        pqt_end_row_group(&f, 5);
        CHECK_OK(finish_and_read(&f, NULL, NULL, &json), &err);
        CHECK_JSON(&json, "{\"a\":\"prefix shared by many values: 1\"}\n{\"a\":null}\n"
                          "{\"a\":\"prefix shared by many values: 2\"}\n{\"a\":\"\"}\n"
                          "{\"a\":\"short\"}\n");
        pqt_file_destroy(&f);
        dl_buf_destroy(&v);
        dl_buf_destroy(&json);
    }
}

TEST(test_byte_stream_split_float_int32_flba) {
    pqt_file f;
    pqt_file_init(&f, 3);
    size_t a = pqt_add_leaf(&f, "a", DL_PQ_REQUIRED, DL_PQ_TYPE_FLOAT, -1, DL_PQ_CODEC_SNAPPY);
    size_t b = pqt_add_leaf(&f, "b", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32, -1, DL_PQ_CODEC_SNAPPY);
    size_t c = pqt_add_leaf(&f, "c", DL_PQ_REQUIRED, DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY, -1,
                            DL_PQ_CODEC_SNAPPY);
    pqt_last(&f)->type_length = 3;
    pqt_last(&f)->has_type_length = true;
    dl_buf v;
    dl_buf json;
    dl_buf_init(&v, NULL);
    dl_buf_init(&json, NULL);
    float fl[] = {1.5f, -0.25f};
    int32_t in[] = {65536, -1};
    uint8_t fx[] = {'a', 'b', 'c', 0, 1, 2};
    CHECK_OK(dl_pq_bss_encode(fl, 2, 4, &v, &err), &err);
    pqt_add_page(&f, a,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = 2,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_BYTE_STREAM_SPLIT});
    dl_buf_reset(&v);
    CHECK_OK(dl_pq_bss_encode(in, 2, 4, &v, &err), &err);
    pqt_add_page(&f, b,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA_V2,
                             .num_values = 2,
                             .num_rows = 2,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_BYTE_STREAM_SPLIT});
    dl_buf_reset(&v);
    CHECK_OK(dl_pq_bss_encode(fx, 2, 3, &v, &err), &err);
    pqt_add_page(&f, c,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = 2,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_BYTE_STREAM_SPLIT});
    pqt_end_row_group(&f, 2);
    CHECK_OK(finish_and_read(&f, NULL, NULL, &json), &err);
    CHECK_JSON(&json, "{\"a\":1.5,\"b\":65536,\"c\":\"abc\"}\n"
                      "{\"a\":-0.25,\"b\":-1,\"c\":\"\\\\x00\\\\x01\\\\x02\"}\n");
    pqt_file_destroy(&f);
    dl_buf_destroy(&v);
    dl_buf_destroy(&json);
}

TEST(test_booleans_plain_and_rle) {
    for (int rle = 0; rle < 2; rle++) {
        pqt_file f;
        size_t c = one_column(&f, DL_PQ_OPTIONAL, DL_PQ_TYPE_BOOLEAN, -1, DL_PQ_CODEC_UNCOMPRESSED);
        dl_buf v;
        dl_buf json;
        dl_buf_init(&v, NULL);
        dl_buf_init(&json, NULL);
        uint8_t vals[] = {1, 0, 1, 1, 0, 0, 0, 1, 1};
        uint16_t def[] = {1, 1, 1, 1, 1, 0, 1, 1, 1, 1};
        if (rle) {
            CHECK_OK(dl_pq_rle_encode_u8(vals, 9, 1, DL_PQ_RLE_LENGTH_PREFIX, &v, &err), &err);
        } else {
            CHECK_OK(dl_pq_plain_encode_bool(vals, 9, &v, &err), &err);
        }
        pqt_add_page(&f, c,
                     &(pqt_page){.type = DL_PQ_PAGE_DATA,
                                 .num_values = 10,
                                 .def = def,
                                 .max_def = 1,
                                 .values = v.data,
                                 .values_len = v.len,
                                 .encoding = rle ? DL_PQ_ENCODING_RLE : DL_PQ_ENCODING_PLAIN});
        pqt_end_row_group(&f, 10);
        CHECK_OK(finish_and_read(&f, NULL, NULL, &json), &err);
        CHECK_JSON(&json,
                   "{\"a\":true}\n{\"a\":false}\n{\"a\":true}\n{\"a\":true}\n{\"a\":false}\n"
                   "{\"a\":null}\n{\"a\":false}\n{\"a\":false}\n{\"a\":true}\n{\"a\":true}\n");
        pqt_file_destroy(&f);
        dl_buf_destroy(&v);
        dl_buf_destroy(&json);
    }
}

/* ---- CRCs
 * ------------------------------------------------------------------------------------------ */

TEST(test_page_crc_verified_and_mismatch_is_corrupt) {
    for (int corrupt = 0; corrupt < 3; corrupt++) {
        pqt_file f;
        size_t c = one_column(&f, DL_PQ_REQUIRED, DL_PQ_TYPE_INT32, -1, DL_PQ_CODEC_SNAPPY);
        dl_buf v;
        dl_buf json;
        dl_buf_init(&v, NULL);
        dl_buf_init(&json, NULL);
        int32_t vals[] = {42, 43};
        plain(&v, vals, 2, 4);
        pqt_add_page(&f, c,
                     &(pqt_page){.type = DL_PQ_PAGE_DATA,
                                 .num_values = 2,
                                 .values = v.data,
                                 .values_len = v.len,
                                 .encoding = DL_PQ_ENCODING_PLAIN,
                                 .with_crc = true,
                                 .corrupt_crc = corrupt > 0});
        pqt_end_row_group(&f, 2);
        dl_pq_read_options o = {.is_crc_skipped = corrupt == 2};
        dl_status s = finish_and_read(&f, NULL, &o, &json);
        if (corrupt == 1) {
            CHECK_STATUS(s, DL_ERR_CORRUPT, &err);
            CHECK_ERR_CONTAINS(&err, "page CRC mismatch");
            CHECK_ERR_CONTAINS(&err, "column 'a': page 0 at offset 4");
        } else {
            CHECK_OK(s, &err);
            CHECK_JSON(&json, "{\"a\":42}\n{\"a\":43}\n");
        }
        pqt_file_destroy(&f);
        dl_buf_destroy(&v);
        dl_buf_destroy(&json);
    }
}

/* ---- Types
 * ------------------------------------------------------------------------------------------ */

static void
set_logical(pqt_file *f, dl_pq_logical_type lt) {
    pqt_last(f)->logical_type = lt;
    pqt_last(f)->has_logical_type = true;
}

TEST(test_type_conversions) {
    pqt_file f;
    pqt_file_init(&f, 8);
    size_t u8 = pqt_add_leaf(&f, "u8", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32, DL_PQ_CT_UINT_8, 0);
    size_t u32 = pqt_add_leaf(&f, "u32", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32, DL_PQ_CT_UINT_32, 0);
    size_t u64 = pqt_add_leaf(&f, "u64", DL_PQ_REQUIRED, DL_PQ_TYPE_INT64, DL_PQ_CT_UINT_64, 0);
    size_t ms = pqt_add_leaf(&f, "ms", DL_PQ_REQUIRED, DL_PQ_TYPE_INT64, -1, 0);
    set_logical(&f, (dl_pq_logical_type){
                        .kind = DL_PQ_LT_TIMESTAMP,
                        .timestamp = {.is_adjusted_to_utc = true, .unit = DL_PQ_UNIT_MILLIS}});
    size_t ns = pqt_add_leaf(&f, "ns", DL_PQ_REQUIRED, DL_PQ_TYPE_INT64, -1, 0);
    set_logical(&f, (dl_pq_logical_type){
                        .kind = DL_PQ_LT_TIMESTAMP,
                        .timestamp = {.is_adjusted_to_utc = false, .unit = DL_PQ_UNIT_NANOS}});
    size_t dec = pqt_add_leaf(&f, "dec", DL_PQ_REQUIRED, DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY,
                              DL_PQ_CT_DECIMAL, 0);
    pqt_last(&f)->type_length = 5;
    pqt_last(&f)->has_type_length = true;
    pqt_last(&f)->precision = 10;
    pqt_last(&f)->has_precision = true;
    pqt_last(&f)->scale = 2;
    pqt_last(&f)->has_scale = true;
    size_t f16 = pqt_add_leaf(&f, "f16", DL_PQ_REQUIRED, DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY, -1, 0);
    pqt_last(&f)->type_length = 2;
    pqt_last(&f)->has_type_length = true;
    set_logical(&f, (dl_pq_logical_type){.kind = DL_PQ_LT_FLOAT16});
    size_t uuid = pqt_add_leaf(&f, "uuid", DL_PQ_REQUIRED, DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY, -1, 0);
    pqt_last(&f)->type_length = 16;
    pqt_last(&f)->has_type_length = true;
    set_logical(&f, (dl_pq_logical_type){.kind = DL_PQ_LT_UUID});

    dl_buf v;
    dl_buf json;
    dl_buf_init(&v, NULL);
    dl_buf_init(&json, NULL);
    int32_t i32a[] = {255};
    int32_t i32b[] = {-1}; /* 4294967295 unsigned */
    int64_t i64a[] = {-1}; /* 18446744073709551615 unsigned */
    int64_t i64b[] = {1500};
    int64_t i64c[] = {-1500};                      /* floored: -2 micros */
    uint8_t d5[] = {0xFF, 0xFF, 0xFF, 0xFF, 0x85}; /* -123 */
    uint8_t h[] = {0x00, 0x3E};                    /* 1.5 */
    uint8_t u[16] = {0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0,
                     0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};

    struct {
        size_t col;
        const void *p;
        size_t width;
    } cols[] = {{u8, i32a, 4}, {u32, i32b, 4}, {u64, i64a, 8}, {ms, i64b, 8},
                {ns, i64c, 8}, {dec, d5, 5},   {f16, h, 2},    {uuid, u, 16}};

    for (size_t i = 0; i < DL_ARRAY_LEN(cols); i++) {
        plain(&v, cols[i].p, 1, cols[i].width);
        pqt_add_page(&f, cols[i].col,
                     &(pqt_page){.type = DL_PQ_PAGE_DATA,
                                 .num_values = 1,
                                 .values = v.data,
                                 .values_len = v.len,
                                 .encoding = DL_PQ_ENCODING_PLAIN});
    }
    pqt_end_row_group(&f, 1);
    CHECK_OK(finish_and_read(&f, NULL, NULL, &json), &err);
    CHECK_JSON(&json, "{\"u8\":255,\"u32\":\"4294967295\",\"u64\":\"18446744073709551615\","
                      "\"ms\":\"1970-01-01 00:00:01.5\",\"ns\":\"1969-12-31 23:59:59.999998\","
                      "\"dec\":\"-1.23\",\"f16\":1.5,"
                      "\"uuid\":\"12345678-9abc-def0-0123-456789abcdef\"}\n");
    pqt_file_destroy(&f);
    dl_buf_destroy(&v);
    dl_buf_destroy(&json);
}

/* An INTERVAL column is UNSUPPORTED by name; the file's other columns still read. */
TEST(test_unsupported_type_names_column) {
    pqt_file f;
    pqt_file_init(&f, 2);
    size_t a = pqt_add_leaf(&f, "a", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32, -1, 0);
    size_t b = pqt_add_leaf(&f, "iv", DL_PQ_REQUIRED, DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY,
                            DL_PQ_CT_INTERVAL, 0);
    pqt_last(&f)->type_length = 12;
    pqt_last(&f)->has_type_length = true;
    dl_buf v;
    dl_buf json;
    dl_buf_init(&v, NULL);
    dl_buf_init(&json, NULL);
    int32_t one[] = {1};
    uint8_t twelve[12] = {0};
    plain(&v, one, 1, 4);
    pqt_add_page(&f, a,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = 1,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_PLAIN});
    plain(&v, twelve, 1, 12);
    pqt_add_page(&f, b,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = 1,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_PLAIN});
    pqt_end_row_group(&f, 1);
    CHECK_STATUS(finish_and_read(&f, NULL, NULL, &json), DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "column 'iv'");
    CHECK_ERR_CONTAINS(&err, "INTERVAL");
    CHECK_OK(finish_and_read(&f, "a", NULL, &json), &err);
    CHECK_JSON(&json, "{\"a\":1}\n");
    pqt_file_destroy(&f);
    dl_buf_destroy(&v);
    dl_buf_destroy(&json);
}

/* ---- Bad pages
 * ------------------------------------------------------------------------------------- */

typedef enum bad_kind {
    BAD_TOO_FEW_VALUES,
    BAD_TOO_MANY_ENTRIES,
    BAD_FEWER_ROWS_THAN_GROUP,
    BAD_MORE_VALUES_THAN_ROWS,
    BAD_UNKNOWN_ENCODING,
    BAD_ENCODING_FOR_TYPE,
} bad_kind;

static dl_status
read_bad(bad_kind kind) {
    pqt_file f;
    size_t c = one_column(&f, DL_PQ_OPTIONAL, DL_PQ_TYPE_INT32, -1, DL_PQ_CODEC_UNCOMPRESSED);
    dl_buf v;
    dl_buf json;
    dl_buf_init(&v, NULL);
    dl_buf_init(&json, NULL);
    int32_t vals[] = {1, 2, 3};
    uint16_t def[] = {1, 1, 1};
    plain(&v, vals, kind == BAD_TOO_FEW_VALUES ? 2 : 3, 4);
    pqt_page p = {.type = DL_PQ_PAGE_DATA,
                  .num_values = 3,
                  .def = def,
                  .max_def = 1,
                  .values = v.data,
                  .values_len = v.len,
                  .encoding = DL_PQ_ENCODING_PLAIN};
    int64_t rows = 3;
    switch (kind) {
    case BAD_TOO_MANY_ENTRIES:
        rows = 2; /* the footer check refuses num_values != rows for a flat column */
        break;
    case BAD_FEWER_ROWS_THAN_GROUP:
        rows = 4;
        break;
    case BAD_UNKNOWN_ENCODING:
        p.encoding = (dl_pq_encoding)42;
        break;
    case BAD_ENCODING_FOR_TYPE:
        p.encoding = DL_PQ_ENCODING_DELTA_LENGTH_BYTE_ARRAY;
        break;
    default:
        break;
    }
    pqt_add_page(&f, c, &p);
    if (kind == BAD_MORE_VALUES_THAN_ROWS) {
        /* A second page whose entries the row group's rows never use: cheat the footer's
         * num_values check by declaring 3 values for 3 rows but writing 2 pages. */
        f.cols[c].num_values -= 3;
    }
    if (kind == BAD_MORE_VALUES_THAN_ROWS) {
        pqt_add_page(&f, c, &p);
        f.cols[c].num_values = 3;
    }
    pqt_end_row_group(&f, rows);
    if (kind == BAD_FEWER_ROWS_THAN_GROUP) {
        f.rgs[0].columns[0].meta_data.num_values = 4;
    }
    dl_status s = finish_and_read(&f, NULL, NULL, &json);
    pqt_file_destroy(&f);
    dl_buf_destroy(&v);
    dl_buf_destroy(&json);
    return s;
}

TEST(test_bad_pages_are_refused_with_reasons) {
    CHECK_STATUS(read_bad(BAD_TOO_FEW_VALUES), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "PLAIN at byte");
    CHECK_STATUS(read_bad(BAD_TOO_MANY_ENTRIES), DL_ERR_CORRUPT, &err);
    CHECK_STATUS(read_bad(BAD_FEWER_ROWS_THAN_GROUP), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "pages end after 3 of the 4 values");
    CHECK_STATUS(read_bad(BAD_MORE_VALUES_THAN_ROWS), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "page 1 at offset");
    CHECK_ERR_CONTAINS(&err, "holds 3 more values than the column chunk's 3");
    CHECK_STATUS(read_bad(BAD_UNKNOWN_ENCODING), DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "encoding (42) is not supported");
    CHECK_STATUS(read_bad(BAD_ENCODING_FOR_TYPE), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "DELTA_LENGTH_BYTE_ARRAY encoding is not valid for a INT32 column");
}

/* A definition level above the column's maximum (but within its bit width) is CORRUPT. */
TEST(test_level_above_max_is_corrupt) {
    pqt_file f;
    pqt_file_init(&f, 1);
    pqt_add_group(&f, "g", DL_PQ_OPTIONAL, 1, -1);
    size_t c = pqt_add_leaf(&f, "a", DL_PQ_OPTIONAL, DL_PQ_TYPE_INT32, -1, 0);
    dl_buf v;
    dl_buf json;
    dl_buf_init(&v, NULL);
    dl_buf_init(&json, NULL);
    int32_t vals[] = {1, 2};
    uint16_t def[] = {2, 3, 2};
    plain(&v, vals, 2, 4);
    pqt_add_page(&f, c,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = 3,
                             .def = def,
                             .max_def = 2,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_PLAIN});
    pqt_end_row_group(&f, 3);
    CHECK_STATUS(finish_and_read(&f, NULL, NULL, &json), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "column 'g.a': page 0 at offset 4: a definition level of 3 exceeds "
                             "the column's maximum 2");
    pqt_file_destroy(&f);
    dl_buf_destroy(&v);
    dl_buf_destroy(&json);
}

/* A page decompressing beyond max_page_size is LIMIT, before any allocation of that size. */
TEST(test_page_size_limit) {
    pqt_file f;
    size_t c = one_column(&f, DL_PQ_REQUIRED, DL_PQ_TYPE_INT64, -1, DL_PQ_CODEC_ZSTD);
    dl_buf v;
    dl_buf json;
    dl_buf_init(&v, NULL);
    dl_buf_init(&json, NULL);
    int64_t vals[1000] = {0};
    plain(&v, vals, 1000, 8);
    pqt_add_page(&f, c,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = 1000,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_PLAIN});
    pqt_end_row_group(&f, 1000);
    dl_pq_read_options o = {.max_page_size = 4096};
    CHECK_STATUS(finish_and_read(&f, NULL, &o, &json), DL_ERR_LIMIT, &err);
    CHECK_ERR_CONTAINS(&err, "more than the limit of 4096");
    pqt_file_destroy(&f);
    dl_buf_destroy(&v);
    dl_buf_destroy(&json);
}

/* Bad reader options and a field from another file are INVALID_ARG. */
TEST(test_bad_options) {
    pqt_file f;
    size_t c = one_column(&f, DL_PQ_REQUIRED, DL_PQ_TYPE_INT32, -1, 0);
    dl_buf v;
    dl_buf file;
    dl_buf_init(&v, NULL);
    dl_buf_init(&file, NULL);
    int32_t vals[] = {1};
    plain(&v, vals, 1, 4);
    pqt_add_page(&f, c,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = 1,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_PLAIN});
    pqt_end_row_group(&f, 1);
    pqt_finish(&f, &file);
    dl_pq_file *a;
    dl_pq_file *b;
    CHECK_OK(dl_pq_file_open_memory(file.data, file.len, "a.parquet", NULL, &a, &err), &err);
    CHECK_OK(dl_pq_file_open_memory(file.data, file.len, "b.parquet", NULL, &b, &err), &err);
    dl_pq_reader *r = NULL;
    int32_t rg = 5;
    dl_pq_read_options o1 = {.row_groups = &rg, .n_row_groups = 1};
    CHECK_STATUS(dl_pq_reader_new(a, &o1, &r, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "row group 5 does not exist");
    dl_pq_read_options o2 = {.batch_rows = 5000};
    CHECK_STATUS(dl_pq_reader_new(a, &o2, &r, &err), DL_ERR_INVALID_ARG, &err);
    const dl_pq_field *foreign = dl_pq_file_root(b)->children[0];
    dl_pq_read_options o3 = {.columns = &foreign, .n_columns = 1};
    CHECK_STATUS(dl_pq_reader_new(a, &o3, &r, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "not a field of this file");
    /* No columns at all: batches carry only a count. */
    dl_pq_read_options o4 = {.columns = &foreign, .n_columns = 0};
    CHECK_OK(dl_pq_reader_new(a, &o4, &r, &err), &err);
    dl_batch *batch;
    CHECK_OK(dl_vec_batch_new(NULL, dl_pq_reader_schema(r), 0, &batch, &err), &err);
    CHECK_OK(dl_pq_reader_next(r, batch, &err), &err);
    CHECK_INT_EQ(batch->count, 1);
    CHECK_INT_EQ(batch->n_cols, 0);
    dl_vec_batch_free(batch);
    dl_pq_reader_free(r);
    dl_pq_file_free(a);
    dl_pq_file_free(b);
    pqt_file_destroy(&f);
    dl_buf_destroy(&v);
    dl_buf_destroy(&file);
}

/* Files that are not Parquet fail cleanly at open, from memory and from a store. */
TEST(test_open_not_parquet) {
    dl_pq_file *pf = NULL;
    static const uint8_t junk[] = "this is not a parquet file at all";
    CHECK_STATUS(dl_pq_file_open_memory(junk, sizeof(junk), "junk.bin", NULL, &pf, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "'junk.bin'");
    CHECK_STATUS(dl_pq_file_open_memory(junk, 5, "tiny.bin", NULL, &pf, &err), DL_ERR_CORRUPT,
                 &err);
    CHECK_ERR_CONTAINS(&err, "too few");
}

/* Every allocation failure gives a clean NOMEM and leaks nothing (SQLite's do_faultsim_test):
 * the file is opened and read with an allocator failing at the 1st, 2nd, ... request. */
static dl_status
read_with(const dl_allocator *alloc, const dl_buf *file) {
    dl_pq_file *pf = NULL;
    dl_pq_reader *r = NULL;
    dl_batch *b = NULL;
    dl_status s = dl_pq_file_open_memory(file->data, file->len, "f.parquet", alloc, &pf, &err);
    dl_pq_read_options o = {.batch_rows = 2};
    if (s == DL_OK) {
        s = dl_pq_reader_new(pf, &o, &r, &err);
    }
    if (s == DL_OK) {
        s = dl_vec_batch_new(alloc, dl_pq_reader_schema(r), 0, &b, &err);
    }
    while (s == DL_OK) {
        s = dl_pq_reader_next(r, b, &err);
        if (s != DL_OK || b->count == 0) {
            break;
        }
    }
    dl_vec_batch_free(b);
    dl_pq_reader_free(r);
    dl_pq_file_free(pf);
    return s;
}

TEST(test_allocation_failures_are_clean) {
    pqt_file f;
    dl_buf v;
    dl_buf file;
    dl_buf_init(&v, NULL);
    dl_buf_init(&file, NULL);
    dict_file(&f, true, &v);
    pqt_finish(&f, &file);
    int64_t n_ok = 0;
    for (int64_t fail_at = 1; fail_at < 400 && n_ok == 0; fail_at++) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, fail_at, false);
        dl_status s = read_with(&fa.base, &file);
        CHECK(s == DL_OK || s == DL_ERR_NOMEM);
        CHECK_INT_EQ(fa.live_blocks, 0);
        n_ok += s == DL_OK;
    }
    CHECK(n_ok == 1);
    pqt_file_destroy(&f);
    dl_buf_destroy(&v);
    dl_buf_destroy(&file);
}

int
main(void) {
    RUN(test_required_int32_plain_v1);
    RUN(test_optional_int64_nulls_rle_levels_v1);
    RUN(test_bit_packed_levels_v1);
    RUN(test_data_page_v2_compressed_and_not);
    RUN(test_data_page_v2_all_null_empty_values);
    RUN(test_batches_cross_pages);
    RUN(test_batches_stop_at_row_groups);
    RUN(test_dictionary_strings_are_dict_vectors);
    RUN(test_dictionary_fallback_mid_batch_and_flattened);
    RUN(test_numeric_dictionary_and_bad_index);
    RUN(test_delta_binary_packed_int32_int64);
    RUN(test_delta_length_and_delta_byte_array);
    RUN(test_byte_stream_split_float_int32_flba);
    RUN(test_booleans_plain_and_rle);
    RUN(test_page_crc_verified_and_mismatch_is_corrupt);
    RUN(test_type_conversions);
    RUN(test_unsupported_type_names_column);
    RUN(test_bad_pages_are_refused_with_reasons);
    RUN(test_level_above_max_is_corrupt);
    RUN(test_page_size_limit);
    RUN(test_bad_options);
    RUN(test_open_not_parquet);
    RUN(test_allocation_failures_are_clean);
    return harness_finish();
}
