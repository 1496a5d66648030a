/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Entry points of the metadata model (parquet.h): decoding and encoding each top-level
 * parquet.thrift struct through its descriptor (pq_meta_desc.c), comparison, and the names of
 * enum values for messages.
 */
#include "parquet/parquet_int.h"

dl_status
dl_pq_file_metadata_decode(const uint8_t *data, size_t len, int64_t file_offset, dl_arena *arena,
                           dl_pq_file_metadata *out, size_t *out_len, dl_error *err) {
    return dl_tc_decode(&dl_pq_desc_file_metadata, data, len, file_offset, arena, out, out_len,
                        NULL, err);
}

dl_status
dl_pq_page_header_decode(const uint8_t *data, size_t avail, int64_t file_offset, dl_arena *arena,
                         dl_pq_page_header *out, size_t *out_len, bool *out_truncated,
                         dl_error *err) {
    return dl_tc_decode(&dl_pq_desc_page_header, data, avail, file_offset, arena, out, out_len,
                        out_truncated, err);
}

dl_status
dl_pq_column_index_decode(const uint8_t *data, size_t len, int64_t file_offset, dl_arena *arena,
                          dl_pq_column_index *out, dl_error *err) {
    return dl_tc_decode(&dl_pq_desc_column_index, data, len, file_offset, arena, out, NULL, NULL,
                        err);
}

dl_status
dl_pq_offset_index_decode(const uint8_t *data, size_t len, int64_t file_offset, dl_arena *arena,
                          dl_pq_offset_index *out, dl_error *err) {
    return dl_tc_decode(&dl_pq_desc_offset_index, data, len, file_offset, arena, out, NULL, NULL,
                        err);
}

dl_status
dl_pq_bloom_filter_header_decode(const uint8_t *data, size_t avail, int64_t file_offset,
                                 dl_arena *arena, dl_pq_bloom_filter_header *out, size_t *out_len,
                                 dl_error *err) {
    return dl_tc_decode(&dl_pq_desc_bloom_filter_header, data, avail, file_offset, arena, out,
                        out_len, NULL, err);
}

static dl_status
encode(const dl_tc_struct *desc, const void *obj, dl_buf *out, dl_error *err) {
    dl_tc_writer w;
    dl_tc_writer_init(&w, out);
    return dl_tc_write_struct(&w, desc, obj, err);
}

dl_status
dl_pq_file_metadata_encode(const dl_pq_file_metadata *md, dl_buf *out, dl_error *err) {
    return encode(&dl_pq_desc_file_metadata, md, out, err);
}

dl_status
dl_pq_page_header_encode(const dl_pq_page_header *ph, dl_buf *out, dl_error *err) {
    return encode(&dl_pq_desc_page_header, ph, out, err);
}

dl_status
dl_pq_column_index_encode(const dl_pq_column_index *ci, dl_buf *out, dl_error *err) {
    return encode(&dl_pq_desc_column_index, ci, out, err);
}

dl_status
dl_pq_offset_index_encode(const dl_pq_offset_index *oi, dl_buf *out, dl_error *err) {
    return encode(&dl_pq_desc_offset_index, oi, out, err);
}

dl_status
dl_pq_bloom_filter_header_encode(const dl_pq_bloom_filter_header *bf, dl_buf *out, dl_error *err) {
    return encode(&dl_pq_desc_bloom_filter_header, bf, out, err);
}

bool
dl_pq_file_metadata_equal(const dl_pq_file_metadata *a, const dl_pq_file_metadata *b) {
    return dl_tc_struct_equal(&dl_pq_desc_file_metadata, a, b);
}

bool
dl_pq_page_header_equal(const dl_pq_page_header *a, const dl_pq_page_header *b) {
    return dl_tc_struct_equal(&dl_pq_desc_page_header, a, b);
}

bool
dl_pq_column_index_equal(const dl_pq_column_index *a, const dl_pq_column_index *b) {
    return dl_tc_struct_equal(&dl_pq_desc_column_index, a, b);
}

bool
dl_pq_offset_index_equal(const dl_pq_offset_index *a, const dl_pq_offset_index *b) {
    return dl_tc_struct_equal(&dl_pq_desc_offset_index, a, b);
}

/* ---- Names ----------------------------------------------------------------------------- */

static const char *
name_of(const char *const *names, size_t n, int32_t v) {
    if (v < 0 || (size_t)v >= n || names[v] == NULL) {
        return "UNKNOWN";
    }
    return names[v];
}

const char *
dl_pq_type_name(int32_t type) {
    static const char *const names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                        "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
    return name_of(names, DL_ARRAY_LEN(names), type);
}

const char *
dl_pq_encoding_name(int32_t encoding) {
    static const char *const names[] = {
        [DL_PQ_ENCODING_PLAIN] = "PLAIN",
        [DL_PQ_ENCODING_PLAIN_DICTIONARY] = "PLAIN_DICTIONARY",
        [DL_PQ_ENCODING_RLE] = "RLE",
        [DL_PQ_ENCODING_BIT_PACKED] = "BIT_PACKED",
        [DL_PQ_ENCODING_DELTA_BINARY_PACKED] = "DELTA_BINARY_PACKED",
        [DL_PQ_ENCODING_DELTA_LENGTH_BYTE_ARRAY] = "DELTA_LENGTH_BYTE_ARRAY",
        [DL_PQ_ENCODING_DELTA_BYTE_ARRAY] = "DELTA_BYTE_ARRAY",
        [DL_PQ_ENCODING_RLE_DICTIONARY] = "RLE_DICTIONARY",
        [DL_PQ_ENCODING_BYTE_STREAM_SPLIT] = "BYTE_STREAM_SPLIT",
        [DL_PQ_ENCODING_ALP] = "ALP",
    };
    return name_of(names, DL_ARRAY_LEN(names), encoding);
}

const char *
dl_pq_page_type_name(int32_t page_type) {
    static const char *const names[] = {"DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE",
                                        "DATA_PAGE_V2"};
    return name_of(names, DL_ARRAY_LEN(names), page_type);
}

const char *
dl_pq_converted_type_name(int32_t converted_type) {
    static const char *const names[] = {"UTF8",
                                        "MAP",
                                        "MAP_KEY_VALUE",
                                        "LIST",
                                        "ENUM",
                                        "DECIMAL",
                                        "DATE",
                                        "TIME_MILLIS",
                                        "TIME_MICROS",
                                        "TIMESTAMP_MILLIS",
                                        "TIMESTAMP_MICROS",
                                        "UINT_8",
                                        "UINT_16",
                                        "UINT_32",
                                        "UINT_64",
                                        "INT_8",
                                        "INT_16",
                                        "INT_32",
                                        "INT_64",
                                        "JSON",
                                        "BSON",
                                        "INTERVAL"};
    return name_of(names, DL_ARRAY_LEN(names), converted_type);
}

const char *
dl_pq_repetition_name(int32_t repetition) {
    static const char *const names[] = {"REQUIRED", "OPTIONAL", "REPEATED"};
    return name_of(names, DL_ARRAY_LEN(names), repetition);
}

const char *
dl_pq_logical_kind_name(int32_t kind) {
    static const char *const names[] = {
        [DL_PQ_LT_NONE] = "NONE",
        [DL_PQ_LT_STRING] = "STRING",
        [DL_PQ_LT_MAP] = "MAP",
        [DL_PQ_LT_LIST] = "LIST",
        [DL_PQ_LT_ENUM] = "ENUM",
        [DL_PQ_LT_DECIMAL] = "DECIMAL",
        [DL_PQ_LT_DATE] = "DATE",
        [DL_PQ_LT_TIME] = "TIME",
        [DL_PQ_LT_TIMESTAMP] = "TIMESTAMP",
        [DL_PQ_LT_INTEGER] = "INTEGER",
        [DL_PQ_LT_UNKNOWN] = "UNKNOWN",
        [DL_PQ_LT_JSON] = "JSON",
        [DL_PQ_LT_BSON] = "BSON",
        [DL_PQ_LT_UUID] = "UUID",
        [DL_PQ_LT_FLOAT16] = "FLOAT16",
        [DL_PQ_LT_VARIANT] = "VARIANT",
        [DL_PQ_LT_GEOMETRY] = "GEOMETRY",
        [DL_PQ_LT_GEOGRAPHY] = "GEOGRAPHY",
    };
    return name_of(names, DL_ARRAY_LEN(names), kind);
}
