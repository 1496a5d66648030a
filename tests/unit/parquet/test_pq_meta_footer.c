/* SPDX-License-Identifier: Apache-2.0 */
/* Footer parsing: the trailer and magic, encryption, and the validation of column chunks
 * against the schema and the file layout. Files are built in memory. */
#include "base/base.h"
#include "harness.h"
#include "parquet/parquet.h"

static dl_arena arena;

/* root { required int32 a; optional group g { repeated binary b } }, one row group of 5 rows:
 * a's pages at [4, 44), b's dictionary at 44 and data pages at 60, up to 104 where the footer
 * starts. */
static dl_pq_schema_element schema[4];
static dl_pq_row_group rg;
static dl_pq_column_chunk chunks[2];
static dl_str path_a[1];
static dl_str path_b[2];
static dl_pq_encoding encs[2] = {DL_PQ_ENCODING_PLAIN, DL_PQ_ENCODING_RLE};
static dl_pq_file_metadata md;

#define DATA_LEN 100

static void
build(void) {
    memset(schema, 0, sizeof(schema));
    schema[0].name = DL_STR("schema");
    schema[0].num_children = 2;
    schema[0].has_num_children = true;
    schema[1].name = DL_STR("a");
    schema[1].type = DL_PQ_TYPE_INT32;
    schema[1].repetition_type = DL_PQ_REQUIRED;
    schema[1].has_type = schema[1].has_repetition_type = true;
    schema[2].name = DL_STR("g");
    schema[2].repetition_type = DL_PQ_OPTIONAL;
    schema[2].num_children = 1;
    schema[2].has_repetition_type = schema[2].has_num_children = true;
    schema[3].name = DL_STR("b");
    schema[3].type = DL_PQ_TYPE_BYTE_ARRAY;
    schema[3].repetition_type = DL_PQ_REPEATED;
    schema[3].has_type = schema[3].has_repetition_type = true;
    path_a[0] = DL_STR("a");
    path_b[0] = DL_STR("g");
    path_b[1] = DL_STR("b");
    memset(chunks, 0, sizeof(chunks));
    for (int i = 0; i < 2; i++) {
        dl_pq_column_metadata *m = &chunks[i].meta_data;
        chunks[i].has_meta_data = true;
        m->encodings = encs;
        m->n_encodings = 2;
        m->codec = 0;
    }
    chunks[0].meta_data.type = DL_PQ_TYPE_INT32;
    chunks[0].meta_data.path_in_schema = path_a;
    chunks[0].meta_data.n_path_in_schema = 1;
    chunks[0].meta_data.num_values = 5;
    chunks[0].meta_data.data_page_offset = 4;
    chunks[0].meta_data.total_compressed_size = 40;
    chunks[1].meta_data.type = DL_PQ_TYPE_BYTE_ARRAY;
    chunks[1].meta_data.path_in_schema = path_b;
    chunks[1].meta_data.n_path_in_schema = 2;
    chunks[1].meta_data.num_values = 9;
    chunks[1].meta_data.dictionary_page_offset = 44;
    chunks[1].meta_data.has_dictionary_page_offset = true;
    chunks[1].meta_data.data_page_offset = 60;
    chunks[1].meta_data.total_compressed_size = 60;
    memset(&rg, 0, sizeof(rg));
    rg.columns = chunks;
    rg.n_columns = 2;
    rg.num_rows = 5;
    rg.total_byte_size = 100;
    memset(&md, 0, sizeof(md));
    md.version = 1;
    md.schema = schema;
    md.n_schema = 4;
    md.num_rows = 5;
    md.row_groups = &rg;
    md.n_row_groups = 1;
    md.created_by = DL_STR("parquet-cpp-arrow version 17.0.0");
    md.has_created_by = true;
}

/* "PAR1" + DATA_LEN bytes + FileMetaData + length + "PAR1". */
static dl_status
make_file(dl_buf *file, dl_error *err) {
    dl_buf_init(file, NULL);
    DL_TRY(dl_buf_append(file, "PAR1", 4, err));
    for (int i = 0; i < DATA_LEN; i++) {
        DL_TRY(dl_buf_append_byte(file, 0xaa, err));
    }
    size_t start = file->len;
    DL_TRY(dl_pq_file_metadata_encode(&md, file, err));
    uint32_t len = (uint32_t)(file->len - start);
    uint8_t le[4] = {(uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16), (uint8_t)(len >> 24)};
    DL_TRY(dl_buf_append(file, le, 4, err));
    return dl_buf_append(file, "PAR1", 4, err);
}

/* Builds the file from md and parses its footer from the whole file. */
static dl_status
parse(dl_pq_footer **out, dl_error *err) {
    dl_buf file;
    dl_status s = make_file(&file, err);
    if (s == DL_OK) {
        s = dl_pq_footer_parse(file.data, file.len, (int64_t)file.len, &arena, out, err);
    }
    dl_buf_destroy(&file);
    return s;
}

TEST(test_a_valid_footer_parses) {
    build();
    dl_buf file;
    dl_error err;
    CHECK_OK(make_file(&file, &err), &err);
    /* A reader's way: the trailer says how much tail it needs. */
    size_t needed = 0;
    CHECK_OK(dl_pq_footer_size(file.data + file.len - 8, 8, (int64_t)file.len, &needed, &err),
             &err);
    CHECK_INT_EQ(needed, file.len - 4 - DATA_LEN);
    dl_pq_footer *f = NULL;
    dl_status s = dl_pq_footer_parse(file.data + file.len - needed, needed, (int64_t)file.len,
                                     &arena, &f, &err);
    CHECK_OK(dl_pq_file_check_head(file.data, 4, &err), &err);
    /* The footer keeps no pointer into the caller's bytes. */
    memset(file.data, 0, file.len);
    dl_buf_destroy(&file);
    CHECK_OK(s, &err);
    CHECK_INT_EQ(f->metadata_offset, 4 + DATA_LEN);
    CHECK_INT_EQ(f->schema.n_leaves, 2);
    CHECK(dl_str_eq_cstr(f->meta.created_by, "parquet-cpp-arrow version 17.0.0"));
    CHECK(dl_str_eq_cstr(f->writer.app, "parquet-cpp-arrow") && f->writer.major == 17);
    CHECK_STR_EQ(f->schema.leaves[1]->path, "g.b");
    int64_t off = 0;
    int64_t len = 0;
    dl_pq_column_chunk_range(&f->meta.row_groups[0].columns[1], &off, &len);
    CHECK(off == 44 && len == 60);
}

TEST(test_trailer_errors) {
    build();
    dl_error err;
    size_t needed = 0;
    uint8_t tiny[11] = "PAR1\0\0\0PAR1";
    CHECK_STATUS(dl_pq_footer_size(tiny, sizeof(tiny), 11, &needed, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "not a Parquet file: 11 bytes are fewer than the 12");
    uint8_t trailer[8] = {10, 0, 0, 0, 'P', 'A', 'R', '2'};
    CHECK_STATUS(dl_pq_footer_size(trailer, 8, 1000, &needed, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "not a Parquet file: the closing magic is 50 41 52 32, expected 'PAR1'");
    trailer[7] = 'E';
    CHECK_STATUS(dl_pq_footer_size(trailer, 8, 1000, &needed, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "Parquet modular encryption is not supported ('PARE' magic");
    CHECK(err.hint[0] != '\0');
    uint8_t big[8] = {0xf0, 0x03, 0, 0, 'P', 'A', 'R', '1'}; /* 1008 */
    CHECK_STATUS(dl_pq_footer_size(big, 8, 1000, &needed, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "footer length 1008 does not fit in a file of 1000 bytes");
    uint8_t zero[8] = {0, 0, 0, 0, 'P', 'A', 'R', '1'};
    CHECK_STATUS(dl_pq_footer_size(zero, 8, 1000, &needed, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "footer length is 0");
    CHECK_STATUS(dl_pq_footer_size(zero, 7, 1000, &needed, &err), DL_ERR_INVALID_ARG, &err);
    uint8_t ok[8] = {0xe8, 0x03, 0, 0, 'P', 'A', 'R', '1'}; /* 1000 */
    CHECK_OK(dl_pq_footer_size(ok, 8, 1012, &needed, &err), &err);
    CHECK_INT_EQ(needed, 1008);
    dl_pq_footer *f = NULL;
    CHECK_STATUS(dl_pq_footer_parse(ok, 8, 1012, &arena, &f, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "footer tail of 8 bytes is shorter than the 1008 the footer needs");
}

TEST(test_leading_magic_is_checked) {
    build();
    dl_buf file;
    dl_error err;
    CHECK_OK(make_file(&file, &err), &err);
    file.data[0] = 'X';
    dl_pq_footer *f = NULL;
    dl_status s = dl_pq_footer_parse(file.data, file.len, (int64_t)file.len, &arena, &f, &err);
    dl_buf_destroy(&file);
    CHECK_STATUS(s, DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "the leading magic is 58 41 52 31");
    CHECK_STATUS(dl_pq_file_check_head((const uint8_t *)"PARE", 4, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_STATUS(dl_pq_file_check_head((const uint8_t *)"PA", 2, &err), DL_ERR_CORRUPT, &err);
}

TEST(test_metadata_errors_carry_file_offsets) {
    build();
    schema[3].num_children = -2;
    schema[3].has_num_children = true;
    dl_pq_footer *f = NULL;
    dl_error err;
    CHECK_STATUS(parse(&f, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "FileMetaData.schema[3] at byte 1");
    CHECK_ERR_CONTAINS(&err, "num_children is negative (-2)");
    CHECK(err.offset > 4 + DATA_LEN);
}

TEST(test_modular_encryption_is_unsupported) {
    build();
    md.has_encryption_algorithm = true;
    dl_pq_footer *f = NULL;
    dl_error err;
    CHECK_STATUS(parse(&f, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "Parquet modular encryption is not supported (plaintext footer");
    build();
    chunks[1].has_crypto_metadata = true;
    CHECK_STATUS(parse(&f, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_STR_EQ(err.msg, "row group 0, column 1 'g.b': Parquet modular encryption is not "
                          "supported (encrypted column)");
    build();
    chunks[0].encrypted_column_metadata = DL_STR("xx");
    chunks[0].has_encrypted_column_metadata = true;
    chunks[0].has_meta_data = false;
    CHECK_STATUS(parse(&f, &err), DL_ERR_UNSUPPORTED, &err);
}

TEST(test_chunks_in_other_files_are_unsupported) {
    build();
    chunks[0].file_path = DL_STR("other.parquet");
    chunks[0].has_file_path = true;
    dl_pq_footer *f = NULL;
    dl_error err;
    CHECK_STATUS(parse(&f, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "column chunks stored in another file ('other.parquet')");
}

TEST(test_chunks_must_match_the_schema) {
    dl_pq_footer *f = NULL;
    dl_error err;
    build();
    rg.n_columns = 1;
    CHECK_STATUS(parse(&f, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "row group 0 has 1 column chunks but the schema has 2 leaf columns");
    build();
    chunks[1].has_meta_data = false;
    CHECK_STATUS(parse(&f, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "column 1 'g.b': the column chunk has no meta_data");
    build();
    path_b[1] = DL_STR("c");
    CHECK_STATUS(parse(&f, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "path_in_schema 'g.c' does not match the schema");
    build();
    chunks[1].meta_data.n_path_in_schema = 1;
    CHECK_STATUS(parse(&f, &err), DL_ERR_CORRUPT, &err);
    build();
    chunks[0].meta_data.type = DL_PQ_TYPE_INT64;
    CHECK_STATUS(parse(&f, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "the column chunk's type INT64 differs from the schema's INT32");
}

TEST(test_value_counts_must_fit_the_row_count) {
    dl_pq_footer *f = NULL;
    dl_error err;
    build();
    chunks[0].meta_data.num_values = 4;
    CHECK_STATUS(parse(&f, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "column 0 'a': 4 values in a non-repeated column of a row group of "
                             "5 rows");
    build();
    chunks[1].meta_data.num_values = 4;
    CHECK_STATUS(parse(&f, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "4 values in a repeated column of a row group of 5 rows");
}

TEST(test_chunk_ranges_must_lie_in_the_data_region) {
    dl_pq_footer *f = NULL;
    dl_error err;
    build();
    chunks[1].meta_data.total_compressed_size = 61;
    CHECK_STATUS(parse(&f, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "row group 0, column 1 'g.b': pages at [44, +61) fall outside the data "
                          "region [4, 104)");
    build();
    chunks[0].meta_data.data_page_offset = 2;
    chunks[0].meta_data.num_values = 5;
    CHECK_STATUS(parse(&f, &err), DL_ERR_CORRUPT, &err);
    build();
    chunks[1].meta_data.data_page_offset = 200;
    CHECK_STATUS(parse(&f, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "data_page_offset 200 is outside the chunk [44, +60)");
    build();
    chunks[0].meta_data.total_compressed_size = INT64_MAX;
    CHECK_STATUS(parse(&f, &err), DL_ERR_CORRUPT, &err);
    build();
    chunks[0].column_index_offset = 90;
    chunks[0].column_index_length = 20;
    chunks[0].has_column_index_offset = chunks[0].has_column_index_length = true;
    CHECK_STATUS(parse(&f, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "column index at [90, +20) falls outside the data region");
    build();
    chunks[0].offset_index_offset = 1000;
    chunks[0].has_offset_index_offset = true;
    CHECK_STATUS(parse(&f, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "offset index at [1000, +0)");
    build();
    chunks[1].meta_data.bloom_filter_offset = 100;
    chunks[1].meta_data.bloom_filter_length = 8;
    chunks[1].meta_data.has_bloom_filter_offset = true;
    chunks[1].meta_data.has_bloom_filter_length = true;
    CHECK_STATUS(parse(&f, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "bloom filter at [100, +8)");
    chunks[1].meta_data.bloom_filter_offset = 96;
    CHECK_OK(parse(&f, &err), &err);
}

TEST(test_zero_offsets_mean_none) {
    dl_pq_footer *f = NULL;
    dl_error err;
    /* dictionary_page_offset 0 in a chunk without a dictionary (dict-page-offset-zero). */
    build();
    chunks[0].meta_data.dictionary_page_offset = 0;
    chunks[0].meta_data.has_dictionary_page_offset = true;
    CHECK_OK(parse(&f, &err), &err);
    int64_t off = 0;
    int64_t len = 0;
    dl_pq_column_chunk_range(&f->meta.row_groups[0].columns[0], &off, &len);
    CHECK(off == 4 && len == 40);
    /* data_page_offset 0 in a chunk of no rows with only a dictionary (parquet-cpp 17). */
    build();
    rg.num_rows = 0;
    md.num_rows = 0;
    chunks[0].meta_data.num_values = 0;
    chunks[1].meta_data.num_values = 0;
    chunks[1].meta_data.data_page_offset = 0;
    chunks[1].meta_data.total_compressed_size = 14;
    CHECK_OK(parse(&f, &err), &err);
    dl_pq_column_chunk_range(&f->meta.row_groups[0].columns[1], &off, &len);
    CHECK(off == 44 && len == 14);
}

TEST(test_out_of_memory_while_parsing_is_nomem_without_leaks) {
    build();
    dl_buf file;
    dl_error err;
    CHECK_OK(make_file(&file, &err), &err);
    bool done = false;
    bool clean = true;
    for (int64_t fail_at = 1; fail_at < 200 && !done && clean; fail_at++) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, fail_at, true);
        dl_arena a;
        dl_arena_init(&a, &fa.base, 128);
        dl_pq_footer *f = NULL;
        dl_status s = dl_pq_footer_parse(file.data, file.len, (int64_t)file.len, &a, &f, &err);
        done = s == DL_OK;
        clean = s == DL_OK || s == DL_ERR_NOMEM;
        dl_arena_destroy(&a);
        clean = clean && fa.live_blocks == 0;
    }
    dl_buf_destroy(&file);
    CHECK(clean);
    CHECK(done);
}

int
main(void) {
    dl_arena_init(&arena, NULL, 0);
    RUN(test_a_valid_footer_parses);
    RUN(test_trailer_errors);
    RUN(test_leading_magic_is_checked);
    RUN(test_metadata_errors_carry_file_offsets);
    RUN(test_modular_encryption_is_unsupported);
    RUN(test_chunks_in_other_files_are_unsupported);
    RUN(test_chunks_must_match_the_schema);
    RUN(test_value_counts_must_fit_the_row_count);
    RUN(test_chunk_ranges_must_lie_in_the_data_region);
    RUN(test_zero_offsets_mean_none);
    RUN(test_out_of_memory_while_parsing_is_nomem_without_leaks);
    dl_arena_destroy(&arena);
    return harness_finish();
}
