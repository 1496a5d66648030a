/* SPDX-License-Identifier: Apache-2.0 */
/* The Parquet metadata model: FileMetaData, PageHeader, ColumnIndex, OffsetIndex and
 * BloomFilterHeader round trips through the encoders and the hardened decoder, the checks the
 * decoders add, forward compatibility, and memory failures. */
#include <stddef.h>

#include "base/base.h"
#include "harness.h"
#include "parquet/parquet.h"
#include "parquet/tc_proto.h"

static dl_arena arena;

/* ---- A FileMetaData using every field --------------------------------------------------- */

static dl_pq_schema_element schema[8];
static dl_pq_row_group row_groups[2];
static dl_pq_column_chunk chunks[2][3];
static dl_pq_key_value kvs[2];
static dl_pq_column_order orders[3];
static dl_pq_encoding encodings[3] = {DL_PQ_ENCODING_PLAIN, DL_PQ_ENCODING_RLE,
                                      DL_PQ_ENCODING_RLE_DICTIONARY};
static dl_str paths[3][2];
static dl_pq_page_encoding_stats enc_stats[2];
static dl_pq_sorting_column sorting[1];
static int64_t histogram[3] = {1, 2, 3};

static void
leaf(dl_pq_schema_element *e, const char *name, dl_pq_type type, dl_pq_repetition rep) {
    memset(e, 0, sizeof(*e));
    e->name = dl_str_from_cstr(name);
    e->type = type;
    e->has_type = true;
    e->repetition_type = rep;
    e->has_repetition_type = true;
}

static void
build_schema(void) {
    memset(&schema[0], 0, sizeof(schema[0]));
    schema[0].name = DL_STR("root");
    schema[0].num_children = 2;
    schema[0].has_num_children = true;
    leaf(&schema[1], "ts", DL_PQ_TYPE_INT64, DL_PQ_OPTIONAL);
    schema[1].logical_type.kind = DL_PQ_LT_TIMESTAMP;
    schema[1].logical_type.timestamp.unit = DL_PQ_UNIT_NANOS;
    schema[1].logical_type.timestamp.is_adjusted_to_utc = false;
    schema[1].has_logical_type = true;
    schema[1].field_id = 7;
    schema[1].has_field_id = true;
    memset(&schema[2], 0, sizeof(schema[2]));
    schema[2].name = DL_STR("s");
    schema[2].repetition_type = DL_PQ_REQUIRED;
    schema[2].has_repetition_type = true;
    schema[2].num_children = 2;
    schema[2].has_num_children = true;
    leaf(&schema[3], "price", DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY, DL_PQ_REQUIRED);
    schema[3].type_length = 16;
    schema[3].has_type_length = true;
    schema[3].converted_type = DL_PQ_CT_DECIMAL;
    schema[3].has_converted_type = true;
    schema[3].scale = 4;
    schema[3].precision = 38;
    schema[3].has_scale = schema[3].has_precision = true;
    schema[3].logical_type.kind = DL_PQ_LT_DECIMAL;
    schema[3].logical_type.decimal.scale = 4;
    schema[3].logical_type.decimal.precision = 38;
    schema[3].has_logical_type = true;
    leaf(&schema[4], "small", DL_PQ_TYPE_INT32, DL_PQ_OPTIONAL);
    schema[4].logical_type.kind = DL_PQ_LT_INTEGER;
    schema[4].logical_type.integer.bit_width = 8;
    schema[4].logical_type.integer.is_signed = false;
    schema[4].has_logical_type = true;
}

static void
build_chunk(dl_pq_column_chunk *c, size_t col, int64_t offset) {
    memset(c, 0, sizeof(*c));
    dl_pq_column_metadata *m = &c->meta_data;
    static const dl_pq_type types[3] = {DL_PQ_TYPE_INT64, DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY,
                                        DL_PQ_TYPE_INT32};
    c->file_offset = offset;
    c->has_meta_data = true;
    m->type = types[col];
    m->encodings = encodings;
    m->n_encodings = 3;
    m->path_in_schema = paths[col];
    m->n_path_in_schema = col == 0 ? 1 : 2;
    m->codec = 1;
    m->num_values = 10;
    m->total_uncompressed_size = 200;
    m->total_compressed_size = 100;
    m->data_page_offset = offset + 20;
    m->dictionary_page_offset = offset;
    m->has_dictionary_page_offset = true;
    m->statistics.min_value = DL_STR("\x01\x00\x00\x00\x00\x00\x00\x00");
    m->statistics.max_value = DL_STR("\x09\x00\x00\x00\x00\x00\x00\x00");
    m->statistics.has_min_value = m->statistics.has_max_value = true;
    m->statistics.null_count = 0;
    m->statistics.has_null_count = true;
    m->statistics.is_max_value_exact = true;
    m->statistics.has_is_max_value_exact = true;
    m->has_statistics = true;
    m->encoding_stats = enc_stats;
    m->n_encoding_stats = 2;
    m->has_encoding_stats = true;
    m->bloom_filter_offset = 5000;
    m->bloom_filter_length = 64;
    m->has_bloom_filter_offset = m->has_bloom_filter_length = true;
    m->size_statistics.definition_level_histogram = histogram;
    m->size_statistics.n_definition_level_histogram = 3;
    m->size_statistics.has_definition_level_histogram = true;
    m->has_size_statistics = true;
    m->key_value_metadata = kvs;
    m->n_key_value_metadata = 1;
    m->has_key_value_metadata = true;
    c->column_index_offset = 4000 + offset;
    c->column_index_length = 30;
    c->offset_index_offset = 4500 + offset;
    c->offset_index_length = 20;
    c->has_column_index_offset = c->has_column_index_length = true;
    c->has_offset_index_offset = c->has_offset_index_length = true;
}

static void
build_file_metadata(dl_pq_file_metadata *md) {
    build_schema();
    paths[0][0] = DL_STR("ts");
    paths[1][0] = DL_STR("s");
    paths[1][1] = DL_STR("price");
    paths[2][0] = DL_STR("s");
    paths[2][1] = DL_STR("small");
    enc_stats[0] = (dl_pq_page_encoding_stats){DL_PQ_PAGE_DICTIONARY, DL_PQ_ENCODING_PLAIN, 1};
    enc_stats[1] = (dl_pq_page_encoding_stats){DL_PQ_PAGE_DATA, DL_PQ_ENCODING_RLE_DICTIONARY, 3};
    kvs[0] =
        (dl_pq_key_value){.key = DL_STR("ARROW:schema"), .value = DL_STR("..."), .has_value = true};
    kvs[1] = (dl_pq_key_value){.key = DL_STR("no value")};
    sorting[0] = (dl_pq_sorting_column){.column_idx = 2, .descending = true, .nulls_first = false};
    for (size_t g = 0; g < 2; g++) {
        memset(&row_groups[g], 0, sizeof(row_groups[g]));
        for (size_t c = 0; c < 3; c++) {
            build_chunk(&chunks[g][c], c, 4 + (int64_t)(g * 300 + c * 100));
        }
        row_groups[g].columns = chunks[g];
        row_groups[g].n_columns = 3;
        row_groups[g].num_rows = 10;
        row_groups[g].total_byte_size = 600;
        row_groups[g].file_offset = 4 + (int64_t)g * 300;
        row_groups[g].total_compressed_size = 300;
        row_groups[g].ordinal = (int16_t)g;
        row_groups[g].has_file_offset = row_groups[g].has_total_compressed_size = true;
        row_groups[g].has_ordinal = true;
    }
    row_groups[1].sorting_columns = sorting;
    row_groups[1].n_sorting_columns = 1;
    row_groups[1].has_sorting_columns = true;
    orders[0].kind = DL_PQ_ORDER_TYPE_DEFINED;
    orders[1].kind = DL_PQ_ORDER_TYPE_DEFINED;
    orders[2].kind = DL_PQ_ORDER_IEEE_754_TOTAL;
    memset(md, 0, sizeof(*md));
    md->version = 2;
    md->schema = schema;
    md->n_schema = 5;
    md->num_rows = 20;
    md->row_groups = row_groups;
    md->n_row_groups = 2;
    md->key_value_metadata = kvs;
    md->n_key_value_metadata = 2;
    md->has_key_value_metadata = true;
    md->created_by = DL_STR("deltalite version 0.1.0");
    md->has_created_by = true;
    md->column_orders = orders;
    md->n_column_orders = 3;
    md->has_column_orders = true;
}

TEST(test_file_metadata_round_trips) {
    dl_pq_file_metadata md;
    build_file_metadata(&md);
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_pq_file_metadata_encode(&md, &out, &err), &err);
    dl_pq_file_metadata back;
    size_t used = 0;
    dl_status s = dl_pq_file_metadata_decode(out.data, out.len, 0, &arena, &back, &used, &err);
    size_t len = out.len;
    bool equal = s == DL_OK && dl_pq_file_metadata_equal(&md, &back);
    CHECK_OK(s, &err);
    CHECK(equal);
    CHECK_INT_EQ(used, len);
    CHECK(back.schema[1].logical_type.kind == DL_PQ_LT_TIMESTAMP);
    CHECK(back.schema[1].logical_type.timestamp.unit == DL_PQ_UNIT_NANOS);
    CHECK(back.schema[3].logical_type.decimal.precision == 38);
    CHECK(back.schema[4].logical_type.integer.bit_width == 8);
    CHECK(back.row_groups[1].columns[2].meta_data.size_statistics.definition_level_histogram[2] ==
          3);
    CHECK(back.column_orders[2].kind == DL_PQ_ORDER_IEEE_754_TOTAL);
    CHECK(!back.key_value_metadata[1].has_value);
    /* A change anywhere is seen. */
    back.row_groups[1].columns[2].meta_data.encoding_stats[1].count++;
    CHECK(!dl_pq_file_metadata_equal(&md, &back));
    dl_buf_destroy(&out);
}

TEST(test_every_prefix_of_a_file_metadata_is_refused) {
    dl_pq_file_metadata md;
    build_file_metadata(&md);
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_pq_file_metadata_encode(&md, &out, &err), &err);
    size_t n_fail = 0;
    for (size_t len = 0; len < out.len; len++) {
        dl_pq_file_metadata back;
        dl_arena_mark mark = dl_arena_get_mark(&arena);
        if (dl_pq_file_metadata_decode(out.data, len, 0, &arena, &back, NULL, &err) !=
                DL_ERR_CORRUPT ||
            err.msg[0] == '\0') {
            n_fail++;
        }
        dl_arena_rewind(&arena, mark);
    }
    dl_buf_destroy(&out);
    CHECK_INT_EQ(n_fail, 0);
}

/* Writes a ColumnChunk whose ColumnMetaData is complete, or, when is_bad, ends in an
 * 11-byte varint for total_compressed_size (*at receives its offset). */
static dl_status
write_chunk(dl_tc_writer *w, bool is_bad, size_t *at, dl_error *err) {
    DL_TRY(dl_tc_write_struct_begin(w, err));
    DL_TRY(dl_tc_write_field_header(w, DL_TC_I64, 2, err));
    DL_TRY(dl_tc_write_i64(w, 4, err));
    DL_TRY(dl_tc_write_field_header(w, DL_TC_STRUCT, 3, err));
    DL_TRY(dl_tc_write_struct_begin(w, err));
    DL_TRY(dl_tc_write_field_header(w, DL_TC_I32, 1, err));
    DL_TRY(dl_tc_write_i32(w, 1, err));
    DL_TRY(dl_tc_write_field_header(w, DL_TC_LIST, 2, err));
    DL_TRY(dl_tc_write_list_header(w, DL_TC_I32, 0, err));
    DL_TRY(dl_tc_write_field_header(w, DL_TC_LIST, 3, err));
    DL_TRY(dl_tc_write_list_header(w, DL_TC_BINARY, 0, err));
    DL_TRY(dl_tc_write_field_header(w, DL_TC_I32, 4, err));
    DL_TRY(dl_tc_write_i32(w, 0, err));
    DL_TRY(dl_tc_write_field_header(w, DL_TC_I64, 5, err));
    DL_TRY(dl_tc_write_i64(w, 0, err));
    DL_TRY(dl_tc_write_field_header(w, DL_TC_I64, 6, err));
    DL_TRY(dl_tc_write_i64(w, 0, err));
    DL_TRY(dl_tc_write_field_header(w, DL_TC_I64, 7, err));
    if (is_bad) {
        *at = w->out->len;
        for (int k = 0; k < 11; k++) {
            DL_TRY(dl_tc_write_byte(w, 0x80, err));
        }
        return DL_OK;
    }
    DL_TRY(dl_tc_write_i64(w, 0, err));
    DL_TRY(dl_tc_write_field_header(w, DL_TC_I64, 9, err));
    DL_TRY(dl_tc_write_i64(w, 4, err));
    DL_TRY(dl_tc_write_struct_end(w, err));
    return dl_tc_write_struct_end(w, err);
}

/* Writes FileMetaData fields up to row_groups[3].columns[1].meta_data, whose
 * total_compressed_size is then an 11-byte varint. */
static dl_status
write_bad_total_compressed_size(dl_buf *out, size_t *at, dl_error *err) {
    dl_tc_writer w;
    dl_tc_writer_init(&w, out);
    DL_TRY(dl_tc_write_struct_begin(&w, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_I32, 1, err));
    DL_TRY(dl_tc_write_i32(&w, 1, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_LIST, 2, err));
    DL_TRY(dl_tc_write_list_header(&w, DL_TC_STRUCT, 0, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_I64, 3, err));
    DL_TRY(dl_tc_write_i64(&w, 0, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_LIST, 4, err));
    DL_TRY(dl_tc_write_list_header(&w, DL_TC_STRUCT, 4, err));
    for (int g = 0; g < 4; g++) {
        DL_TRY(dl_tc_write_struct_begin(&w, err));
        DL_TRY(dl_tc_write_field_header(&w, DL_TC_LIST, 1, err));
        DL_TRY(dl_tc_write_list_header(&w, DL_TC_STRUCT, 2, err));
        DL_TRY(write_chunk(&w, false, at, err));
        DL_TRY(write_chunk(&w, g == 3, at, err));
        if (g == 3) {
            return DL_OK;
        }
        DL_TRY(dl_tc_write_field_header(&w, DL_TC_I64, 2, err));
        DL_TRY(dl_tc_write_i64(&w, 0, err));
        DL_TRY(dl_tc_write_field_header(&w, DL_TC_I64, 3, err));
        DL_TRY(dl_tc_write_i64(&w, 0, err));
        DL_TRY(dl_tc_write_struct_end(&w, err));
    }
    return DL_ERR_INTERNAL;
}

TEST(test_errors_name_the_field_path_and_file_byte) {
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    size_t at = 0;
    CHECK_OK(write_bad_total_compressed_size(&out, &at, &err), &err);
    dl_pq_file_metadata md;
    dl_status s = dl_pq_file_metadata_decode(out.data, out.len, 500, &arena, &md, NULL, &err);
    dl_buf_destroy(&out);
    CHECK_STATUS(s, DL_ERR_CORRUPT, &err);
    char want[256];
    (void)snprintf(want, sizeof(want),
                   "FileMetaData.row_groups[3].columns[1].meta_data.total_compressed_size at "
                   "byte %zu: varint longer than 10 bytes",
                   500 + at);
    CHECK_STR_EQ(err.msg, want);
    CHECK_INT_EQ(err.offset, (int64_t)(500 + at));
}

TEST(test_invalid_physical_type_is_corrupt) {
    dl_pq_file_metadata md;
    build_file_metadata(&md);
    schema[4].type = (dl_pq_type)9;
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_pq_file_metadata_encode(&md, &out, &err), &err);
    dl_pq_file_metadata back;
    dl_status s = dl_pq_file_metadata_decode(out.data, out.len, 0, &arena, &back, NULL, &err);
    dl_buf_destroy(&out);
    CHECK_STATUS(s, DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "FileMetaData.schema[4] at byte");
    CHECK_ERR_CONTAINS(&err, "invalid physical type 9");
}

TEST(test_negative_sizes_are_corrupt) {
    dl_pq_file_metadata md;
    build_file_metadata(&md);
    chunks[1][2].meta_data.total_compressed_size = -1;
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_pq_file_metadata_encode(&md, &out, &err), &err);
    dl_pq_file_metadata back;
    dl_status s = dl_pq_file_metadata_decode(out.data, out.len, 0, &arena, &back, NULL, &err);
    dl_buf_destroy(&out);
    CHECK_STATUS(s, DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "FileMetaData.row_groups[1].columns[2].meta_data at byte");
    CHECK_ERR_CONTAINS(&err, "total_compressed_size is negative (-1)");
}

TEST(test_unknown_fields_and_members_are_ignored) {
    /* A SchemaElement whose logicalType is a member this version does not know (FILE = 19),
     * a ColumnMetaData with geospatial_statistics (17), and FileMetaData field 100. */
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    dl_tc_writer w;
    dl_tc_writer_init(&w, &out);
    CHECK_OK(dl_tc_write_struct_begin(&w, &err), &err);
    CHECK_OK(dl_tc_write_field_header(&w, DL_TC_I32, 1, &err), &err);
    CHECK_OK(dl_tc_write_i32(&w, 1, &err), &err);
    CHECK_OK(dl_tc_write_field_header(&w, DL_TC_LIST, 2, &err), &err);
    CHECK_OK(dl_tc_write_list_header(&w, DL_TC_STRUCT, 1, &err), &err);
    CHECK_OK(dl_tc_write_struct_begin(&w, &err), &err);
    CHECK_OK(dl_tc_write_field_header(&w, DL_TC_BINARY, 4, &err), &err);
    CHECK_OK(dl_tc_write_binary(&w, DL_STR("root"), &err), &err);
    CHECK_OK(dl_tc_write_field_header(&w, DL_TC_STRUCT, 10, &err), &err);
    CHECK_OK(dl_tc_write_struct_begin(&w, &err), &err);
    CHECK_OK(dl_tc_write_field_header(&w, DL_TC_STRUCT, 19, &err), &err);
    CHECK_OK(dl_tc_write_struct_begin(&w, &err), &err);
    CHECK_OK(dl_tc_write_field_header(&w, DL_TC_BINARY, 1, &err), &err);
    CHECK_OK(dl_tc_write_binary(&w, DL_STR("future"), &err), &err);
    CHECK_OK(dl_tc_write_struct_end(&w, &err), &err);
    CHECK_OK(dl_tc_write_struct_end(&w, &err), &err);
    CHECK_OK(dl_tc_write_struct_end(&w, &err), &err);
    CHECK_OK(dl_tc_write_field_header(&w, DL_TC_I64, 3, &err), &err);
    CHECK_OK(dl_tc_write_i64(&w, 0, &err), &err);
    CHECK_OK(dl_tc_write_field_header(&w, DL_TC_LIST, 4, &err), &err);
    CHECK_OK(dl_tc_write_list_header(&w, DL_TC_STRUCT, 0, &err), &err);
    CHECK_OK(dl_tc_write_field_header(&w, DL_TC_MAP, 100, &err), &err);
    CHECK_OK(dl_tc_write_map_header(&w, DL_TC_BINARY, DL_TC_DOUBLE, 1, &err), &err);
    CHECK_OK(dl_tc_write_binary(&w, DL_STR("k"), &err), &err);
    CHECK_OK(dl_tc_write_double(&w, 3.0, &err), &err);
    CHECK_OK(dl_tc_write_struct_end(&w, &err), &err);
    dl_pq_file_metadata md;
    dl_status s = dl_pq_file_metadata_decode(out.data, out.len, 0, &arena, &md, NULL, &err);
    dl_buf_destroy(&out);
    CHECK_OK(s, &err);
    CHECK_INT_EQ(md.n_schema, 1);
    CHECK(md.schema[0].has_logical_type);
    CHECK(md.schema[0].logical_type.kind == DL_PQ_LT_NONE);
}

TEST(test_encryption_algorithm_presence_is_kept) {
    dl_pq_file_metadata md;
    build_file_metadata(&md);
    md.has_encryption_algorithm = true;
    chunks[0][1].has_crypto_metadata = true;
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_pq_file_metadata_encode(&md, &out, &err), &err);
    dl_pq_file_metadata back;
    dl_status s = dl_pq_file_metadata_decode(out.data, out.len, 0, &arena, &back, NULL, &err);
    dl_buf_destroy(&out);
    CHECK_OK(s, &err);
    CHECK(back.has_encryption_algorithm);
    CHECK(back.row_groups[0].columns[1].has_crypto_metadata);
    CHECK(!back.row_groups[0].columns[0].has_crypto_metadata);
}

/* ---- Page headers ----------------------------------------------------------------------- */

static dl_status
page_round_trip(const dl_pq_page_header *ph, dl_pq_page_header *back, dl_error *err) {
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_status s = dl_pq_page_header_encode(ph, &out, err);
    if (s == DL_OK) {
        size_t used = 0;
        s = dl_pq_page_header_decode(out.data, out.len, 0, &arena, back, &used, NULL, err);
        if (s == DL_OK && used != out.len) {
            s = DL_ERR_INTERNAL;
        }
    }
    dl_buf_destroy(&out);
    return s;
}

TEST(test_page_headers_round_trip) {
    dl_pq_page_header ph;
    dl_pq_page_header back;
    dl_error err;
    memset(&ph, 0, sizeof(ph));
    ph.type = DL_PQ_PAGE_DATA;
    ph.uncompressed_page_size = 1000;
    ph.compressed_page_size = 400;
    ph.crc = -123456;
    ph.has_crc = true;
    ph.data_page_header.num_values = 100;
    ph.data_page_header.encoding = DL_PQ_ENCODING_RLE_DICTIONARY;
    ph.data_page_header.definition_level_encoding = DL_PQ_ENCODING_RLE;
    ph.data_page_header.repetition_level_encoding = DL_PQ_ENCODING_BIT_PACKED;
    ph.data_page_header.statistics.null_count = 4;
    ph.data_page_header.statistics.has_null_count = true;
    ph.data_page_header.has_statistics = true;
    ph.has_data_page_header = true;
    CHECK_OK(page_round_trip(&ph, &back, &err), &err);
    CHECK(dl_pq_page_header_equal(&ph, &back));
    CHECK_INT_EQ(back.crc, -123456);

    memset(&ph, 0, sizeof(ph));
    ph.type = DL_PQ_PAGE_DICTIONARY;
    ph.dictionary_page_header.num_values = 7;
    ph.dictionary_page_header.encoding = DL_PQ_ENCODING_PLAIN_DICTIONARY;
    ph.dictionary_page_header.is_sorted = true;
    ph.dictionary_page_header.has_is_sorted = true;
    ph.has_dictionary_page_header = true;
    CHECK_OK(page_round_trip(&ph, &back, &err), &err);
    CHECK(dl_pq_page_header_equal(&ph, &back));

    memset(&ph, 0, sizeof(ph));
    ph.type = DL_PQ_PAGE_DATA_V2;
    ph.data_page_header_v2.num_values = 10;
    ph.data_page_header_v2.num_nulls = 2;
    ph.data_page_header_v2.num_rows = 5;
    ph.data_page_header_v2.encoding = DL_PQ_ENCODING_DELTA_BINARY_PACKED;
    ph.data_page_header_v2.definition_levels_byte_length = 3;
    ph.data_page_header_v2.repetition_levels_byte_length = 4;
    ph.data_page_header_v2.is_compressed = false;
    ph.data_page_header_v2.has_is_compressed = true;
    ph.has_data_page_header_v2 = true;
    CHECK_OK(page_round_trip(&ph, &back, &err), &err);
    CHECK(dl_pq_page_header_equal(&ph, &back));
    CHECK(!back.data_page_header_v2.is_compressed);

    memset(&ph, 0, sizeof(ph));
    ph.type = DL_PQ_PAGE_INDEX;
    ph.has_index_page_header = true;
    CHECK_OK(page_round_trip(&ph, &back, &err), &err);
    CHECK(back.has_index_page_header);
}

TEST(test_data_page_v2_is_compressed_defaults_to_true) {
    dl_pq_page_header ph;
    dl_pq_page_header back;
    dl_error err;
    memset(&ph, 0, sizeof(ph));
    ph.type = DL_PQ_PAGE_DATA_V2;
    ph.data_page_header_v2.num_values = 1;
    ph.has_data_page_header_v2 = true;
    CHECK_OK(page_round_trip(&ph, &back, &err), &err);
    CHECK(!back.data_page_header_v2.has_is_compressed);
    CHECK(back.data_page_header_v2.is_compressed);
}

TEST(test_page_without_its_sub_header_is_corrupt) {
    dl_pq_page_header ph;
    dl_pq_page_header back;
    dl_error err;
    memset(&ph, 0, sizeof(ph));
    ph.type = DL_PQ_PAGE_DATA;
    CHECK_STATUS(page_round_trip(&ph, &back, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "PageHeader at byte 7: DATA_PAGE page without data_page_header");
    ph.type = DL_PQ_PAGE_DICTIONARY;
    CHECK_STATUS(page_round_trip(&ph, &back, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "DICTIONARY_PAGE page without dictionary_page_header");
    ph.type = (dl_pq_page_type)9; /* unknown page types are left to the reader */
    CHECK_OK(page_round_trip(&ph, &back, &err), &err);
}

TEST(test_negative_page_counts_are_corrupt) {
    dl_pq_page_header ph;
    dl_pq_page_header back;
    dl_error err;
    memset(&ph, 0, sizeof(ph));
    ph.type = DL_PQ_PAGE_DICTIONARY;
    ph.dictionary_page_header.num_values = -1;
    ph.has_dictionary_page_header = true;
    CHECK_STATUS(page_round_trip(&ph, &back, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "PageHeader.dictionary_page_header at byte");
    CHECK_ERR_CONTAINS(&err, "num_values is negative (-1)");
    memset(&ph, 0, sizeof(ph));
    ph.type = DL_PQ_PAGE_DATA_V2;
    ph.data_page_header_v2.num_values = 2;
    ph.data_page_header_v2.num_nulls = 3;
    ph.has_data_page_header_v2 = true;
    CHECK_STATUS(page_round_trip(&ph, &back, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "num_nulls 3 exceeds num_values 2");
    memset(&ph, 0, sizeof(ph));
    ph.type = DL_PQ_PAGE_INDEX;
    ph.compressed_page_size = -5;
    CHECK_STATUS(page_round_trip(&ph, &back, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "compressed_page_size is negative (-5)");
}

TEST(test_short_window_page_header_is_truncated_then_decodes) {
    dl_pq_page_header ph;
    dl_error err;
    memset(&ph, 0, sizeof(ph));
    ph.type = DL_PQ_PAGE_DATA;
    ph.compressed_page_size = 10;
    ph.data_page_header.num_values = 3;
    ph.data_page_header.statistics.max_value = DL_STR("a long maximum value, longer than a window");
    ph.data_page_header.statistics.has_max_value = true;
    ph.data_page_header.has_statistics = true;
    ph.has_data_page_header = true;
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_pq_page_header_encode(&ph, &out, &err), &err);
    size_t header_len = out.len;
    CHECK_OK(dl_buf_append(&out, "page bytes", 10, &err), &err);
    dl_pq_page_header back;
    bool is_truncated = false;
    size_t used = 0;
    dl_status s =
        dl_pq_page_header_decode(out.data, 16, 1000, &arena, &back, &used, &is_truncated, &err);
    bool truncated_first = s == DL_ERR_CORRUPT && is_truncated;
    s = dl_pq_page_header_decode(out.data, out.len, 1000, &arena, &back, &used, &is_truncated,
                                 &err);
    dl_buf_destroy(&out);
    CHECK(truncated_first);
    CHECK_OK(s, &err);
    CHECK(!is_truncated);
    CHECK_INT_EQ(used, header_len);
}

/* ---- Page index and bloom filter headers ------------------------------------------------- */

TEST(test_column_index_round_trips_and_checks_list_lengths) {
    bool null_pages[3] = {false, true, false};
    dl_str mins[3] = {DL_STR("a"), DL_STR(""), DL_STR("m")};
    dl_str maxs[3] = {DL_STR("f"), DL_STR(""), DL_STR("z")};
    int64_t null_counts[3] = {0, 10, 1};
    dl_pq_column_index ci;
    memset(&ci, 0, sizeof(ci));
    ci.null_pages = null_pages;
    ci.n_null_pages = 3;
    ci.min_values = mins;
    ci.n_min_values = 3;
    ci.max_values = maxs;
    ci.n_max_values = 3;
    ci.boundary_order = DL_PQ_BOUNDARY_ASCENDING;
    ci.null_counts = null_counts;
    ci.n_null_counts = 3;
    ci.has_null_counts = true;
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_pq_column_index_encode(&ci, &out, &err), &err);
    dl_pq_column_index back;
    dl_status s = dl_pq_column_index_decode(out.data, out.len, 0, &arena, &back, &err);
    CHECK_OK(s, &err);
    CHECK(dl_pq_column_index_equal(&ci, &back));
    CHECK(back.null_pages[1] && !back.null_pages[2]);
    ci.n_max_values = 2;
    dl_buf_reset(&out);
    CHECK_OK(dl_pq_column_index_encode(&ci, &out, &err), &err);
    s = dl_pq_column_index_decode(out.data, out.len, 0, &arena, &back, &err);
    dl_buf_destroy(&out);
    CHECK_STATUS(s, DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "ColumnIndex at byte");
    CHECK_ERR_CONTAINS(&err, "per-page lists differ in length");
}

TEST(test_offset_index_round_trips_and_checks_row_order) {
    dl_pq_page_location locs[3] = {{100, 50, 0}, {150, 60, 1000}, {210, 70, 2000}};
    dl_pq_offset_index oi;
    memset(&oi, 0, sizeof(oi));
    oi.page_locations = locs;
    oi.n_page_locations = 3;
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_pq_offset_index_encode(&oi, &out, &err), &err);
    dl_pq_offset_index back;
    CHECK_OK(dl_pq_offset_index_decode(out.data, out.len, 0, &arena, &back, &err), &err);
    CHECK(dl_pq_offset_index_equal(&oi, &back));
    locs[2].first_row_index = 999;
    dl_buf_reset(&out);
    CHECK_OK(dl_pq_offset_index_encode(&oi, &out, &err), &err);
    dl_status s = dl_pq_offset_index_decode(out.data, out.len, 0, &arena, &back, &err);
    dl_buf_destroy(&out);
    CHECK_STATUS(s, DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "page_locations[2] is invalid");
}

TEST(test_bloom_filter_header_round_trips) {
    dl_pq_bloom_filter_header bf = {.num_bytes = 1024, .algorithm = 1, .hash = 1, .compression = 1};
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_pq_bloom_filter_header_encode(&bf, &out, &err), &err);
    CHECK_OK(dl_buf_append(&out, "bits", 4, &err), &err);
    dl_pq_bloom_filter_header back;
    size_t used = 0;
    dl_status s =
        dl_pq_bloom_filter_header_decode(out.data, out.len, 0, &arena, &back, &used, &err);
    size_t len = out.len;
    dl_buf_destroy(&out);
    CHECK_OK(s, &err);
    CHECK_INT_EQ(used, len - 4);
    CHECK(back.num_bytes == 1024 && back.algorithm == 1 && back.hash == 1 && back.compression == 1);
}

/* ---- Limits and memory ------------------------------------------------------------------- */

TEST(test_many_empty_structs_hit_the_allocation_budget) {
    /* One row group with 20000 empty column chunks: 20 KB of input, 20000 * sizeof(ColumnChunk)
     * bytes of model. */
    static uint8_t bytes[32768];
    size_t n = 0;
    bytes[n++] = 0x15; /* version */
    bytes[n++] = 0x02;
    bytes[n++] = 0x19; /* schema: empty */
    bytes[n++] = 0x0c;
    bytes[n++] = 0x16; /* num_rows */
    bytes[n++] = 0x00;
    bytes[n++] = 0x19; /* row_groups: one */
    bytes[n++] = 0x1c;
    bytes[n++] = 0x19; /* columns: 20000 */
    bytes[n++] = 0xfc;
    bytes[n++] = 0xa0;
    bytes[n++] = 0x9c;
    bytes[n++] = 0x01;
    memset(bytes + n, 0, 20000 + 3);
    n += 20003;
    dl_pq_file_metadata md;
    dl_error err;
    CHECK_STATUS(dl_pq_file_metadata_decode(bytes, n, 0, &arena, &md, NULL, &err), DL_ERR_LIMIT,
                 &err);
    CHECK_ERR_CONTAINS(&err, "FileMetaData.row_groups[0].columns at byte 13: decoding needs more "
                             "memory than allowed");
}

TEST(test_out_of_memory_while_decoding_is_nomem_without_leaks) {
    dl_pq_file_metadata md;
    build_file_metadata(&md);
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_pq_file_metadata_encode(&md, &out, &err), &err);
    bool done = false;
    for (int64_t fail_at = 1; fail_at < 100 && !done; fail_at++) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, fail_at, true);
        dl_arena a;
        dl_arena_init(&a, &fa.base, 256);
        dl_pq_file_metadata back;
        dl_status s = dl_pq_file_metadata_decode(out.data, out.len, 0, &a, &back, NULL, &err);
        if (s == DL_OK) {
            done = dl_pq_file_metadata_equal(&md, &back);
        } else if (s != DL_ERR_NOMEM || strstr(err.msg, "out of memory") == NULL) {
            fail_at = 1000;
        }
        dl_arena_destroy(&a);
        if (fa.live_blocks != 0) {
            fail_at = 1000;
        }
    }
    dl_buf_destroy(&out);
    CHECK(done);
}

TEST(test_enum_names) {
    CHECK_STR_EQ(dl_pq_type_name(DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY), "FIXED_LEN_BYTE_ARRAY");
    CHECK_STR_EQ(dl_pq_type_name(8), "UNKNOWN");
    CHECK_STR_EQ(dl_pq_type_name(-1), "UNKNOWN");
    CHECK_STR_EQ(dl_pq_encoding_name(DL_PQ_ENCODING_BYTE_STREAM_SPLIT), "BYTE_STREAM_SPLIT");
    CHECK_STR_EQ(dl_pq_encoding_name(1), "UNKNOWN"); /* GROUP_VAR_INT, never used */
    CHECK_STR_EQ(dl_pq_page_type_name(DL_PQ_PAGE_DATA_V2), "DATA_PAGE_V2");
    CHECK_STR_EQ(dl_pq_converted_type_name(DL_PQ_CT_INTERVAL), "INTERVAL");
    CHECK_STR_EQ(dl_pq_repetition_name(DL_PQ_REPEATED), "REPEATED");
    CHECK_STR_EQ(dl_pq_logical_kind_name(DL_PQ_LT_FLOAT16), "FLOAT16");
    CHECK_STR_EQ(dl_pq_logical_kind_name(9), "UNKNOWN");
}

int
main(void) {
    dl_arena_init(&arena, NULL, 0);
    RUN(test_file_metadata_round_trips);
    RUN(test_every_prefix_of_a_file_metadata_is_refused);
    RUN(test_errors_name_the_field_path_and_file_byte);
    RUN(test_invalid_physical_type_is_corrupt);
    RUN(test_negative_sizes_are_corrupt);
    RUN(test_unknown_fields_and_members_are_ignored);
    RUN(test_encryption_algorithm_presence_is_kept);
    RUN(test_page_headers_round_trip);
    RUN(test_data_page_v2_is_compressed_defaults_to_true);
    RUN(test_page_without_its_sub_header_is_corrupt);
    RUN(test_negative_page_counts_are_corrupt);
    RUN(test_short_window_page_header_is_truncated_then_decodes);
    RUN(test_column_index_round_trips_and_checks_list_lengths);
    RUN(test_offset_index_round_trips_and_checks_row_order);
    RUN(test_bloom_filter_header_round_trips);
    RUN(test_many_empty_structs_hit_the_allocation_budget);
    RUN(test_out_of_memory_while_decoding_is_nomem_without_leaks);
    RUN(test_enum_names);
    dl_arena_destroy(&arena);
    return harness_finish();
}
