/* SPDX-License-Identifier: Apache-2.0 */
/* Parsing actions, commit files and paths (delta_action.c). */
#include "harness.h"
#include "test_delta_log_util.h"

static dl_arena arena;
static dl_json_doc doc;

/* Parses a line holding one action into *out. */
static dl_status
parse_line(const char *line, dl_delta_action *out, dl_error *err) {
    memset(out, 0, sizeof(*out));
    DL_TRY(dl_json_doc_parse(&doc, line, strlen(line), err));
    dl_json_iter it = dl_json_val_iter(dl_json_doc_root(&doc));
    dl_str key;
    dl_json_val body;
    if (!dl_json_iter_next(&it, &key, &body)) {
        return dl_error_set(err, DL_ERR_INVALID_ARG, "empty line object");
    }
    return dl_delta_action_parse(key, body, &arena, out, err);
}

TEST(test_add_with_every_field) {
    const char *line =
        "{\"add\":{\"path\":\"p=1/a%20b.parquet\",\"partitionValues\":{\"p\":\"1\"},\"size\":42,"
        "\"modificationTime\":1700,\"dataChange\":false,\"stats\":\"{\\\"numRecords\\\":3}\","
        "\"tags\":{\"k\":\"v\"},\"baseRowId\":100,\"defaultRowCommitVersion\":4,"
        "\"clusteringProvider\":\"liquid\",\"deletionVector\":{\"storageType\":\"u\","
        "\"pathOrInlineDv\":\"ab^-aqEH.-t@S}K{vb[*k^\",\"offset\":1,\"sizeInBytes\":36,"
        "\"cardinality\":2},\"someFutureField\":[1,2,3]}}";
    dl_delta_action a;
    dl_error err;
    CHECK_OK(parse_line(line, &a, &err), &err);
    CHECK_INT_EQ(a.kind, DL_DELTA_ACTION_ADD);
    CHECK(dl_str_eq_cstr(a.file.path, "p=1/a%20b.parquet"));
    CHECK(dl_str_eq_cstr(a.file.partition_values, "{\"p\":\"1\"}"));
    CHECK_INT_EQ(a.file.size, 42);
    CHECK_INT_EQ(a.file.modification_time, 1700);
    CHECK(!a.file.data_change);
    CHECK(dl_str_eq_cstr(dl_json_val_str(a.file.stats), "{\"numRecords\":3}"));
    CHECK(dl_str_eq_cstr(a.file.tags, "{\"k\":\"v\"}"));
    CHECK(a.file.has_base_row_id);
    CHECK_INT_EQ(a.file.base_row_id, 100);
    CHECK_INT_EQ(a.file.default_row_commit_version, 4);
    CHECK(dl_str_eq_cstr(a.file.clustering_provider, "liquid"));
    CHECK(a.file.has_dv);
    CHECK_INT_EQ(a.file.dv.storage_type, 'u');
    CHECK(a.file.dv.has_offset);
    CHECK_INT_EQ(a.file.dv.offset, 1);
    CHECK_INT_EQ(a.file.dv.size_in_bytes, 36);
    CHECK_INT_EQ(a.file.dv.cardinality, 2);
}

TEST(test_remove_and_cdc) {
    dl_delta_action a;
    dl_error err;
    CHECK_OK(parse_line("{\"remove\":{\"path\":\"x\",\"deletionTimestamp\":9,\"dataChange\":true,"
                        "\"extendedFileMetadata\":true,\"size\":5,\"partitionValues\":{}}}",
                        &a, &err),
             &err);
    CHECK_INT_EQ(a.kind, DL_DELTA_ACTION_REMOVE);
    CHECK(a.file.has_deletion_timestamp);
    CHECK_INT_EQ(a.file.deletion_timestamp, 9);
    CHECK(a.file.extended_file_metadata);
    CHECK_INT_EQ(a.file.size, 5);
    CHECK_OK(parse_line("{\"remove\":{\"path\":\"x\",\"dataChange\":false}}", &a, &err), &err);
    CHECK_INT_EQ(a.file.size, -1);
    CHECK(!a.file.has_deletion_timestamp);
    CHECK_OK(parse_line("{\"cdc\":{\"path\":\"_change_data/c.parquet\",\"partitionValues\":{},"
                        "\"size\":3,\"dataChange\":false}}",
                        &a, &err),
             &err);
    CHECK_INT_EQ(a.kind, DL_DELTA_ACTION_CDC);
}

TEST(test_metadata_and_protocol_are_copied) {
    dl_delta_action a;
    dl_error err;
    CHECK_OK(parse_line("{\"metaData\":{\"id\":\"abc\",\"name\":null,\"format\":{\"provider\":"
                        "\"parquet\",\"options\":{\"o\":\"1\"}},\"schemaString\":\"{}\","
                        "\"partitionColumns\":[\"a\",\"b\"],\"createdTime\":123,"
                        "\"configuration\":{\"delta.appendOnly\":\"true\",\"n\":null}}}",
                        &a, &err),
             &err);
    CHECK_INT_EQ(a.kind, DL_DELTA_ACTION_METADATA);
    CHECK_STR_EQ(a.metadata.id, "abc");
    CHECK(a.metadata.name == NULL);
    CHECK_STR_EQ(a.metadata.format_provider, "parquet");
    CHECK_INT_EQ(a.metadata.n_format_options, 1);
    CHECK_STR_EQ(a.metadata.schema_string, "{}");
    CHECK_INT_EQ(a.metadata.n_partition_columns, 2);
    CHECK_STR_EQ(a.metadata.partition_columns[1], "b");
    CHECK(a.metadata.has_created_time);
    CHECK_STR_EQ(dl_delta_metadata_config(&a.metadata, "delta.appendOnly"), "true");
    CHECK(dl_delta_metadata_config(&a.metadata, "n") == NULL);
    CHECK(dl_delta_metadata_config(&a.metadata, "missing") == NULL);
    CHECK_OK(parse_line("{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,"
                        "\"readerFeatures\":[\"deletionVectors\"],\"writerFeatures\":"
                        "[\"deletionVectors\",\"appendOnly\"]}}",
                        &a, &err),
             &err);
    CHECK_INT_EQ(a.kind, DL_DELTA_ACTION_PROTOCOL);
    CHECK_INT_EQ(a.protocol.min_reader_version, 3);
    CHECK_INT_EQ(a.protocol.n_writer_features, 2);
    CHECK_STR_EQ(a.protocol.writer_features[1], "appendOnly");
    CHECK(a.protocol.has_reader_features);
    CHECK_OK(parse_line("{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}", &a, &err),
             &err);
    CHECK(!a.protocol.has_reader_features);
    CHECK(a.protocol.reader_features == NULL);
}

TEST(test_small_actions) {
    dl_delta_action a;
    dl_error err;
    CHECK_OK(parse_line("{\"txn\":{\"appId\":\"app\",\"version\":7,\"lastUpdated\":5}}", &a, &err),
             &err);
    CHECK(dl_str_eq_cstr(a.txn.app_id, "app"));
    CHECK_INT_EQ(a.txn.version, 7);
    CHECK_OK(parse_line("{\"domainMetadata\":{\"domain\":\"d\",\"configuration\":\"{}\","
                        "\"removed\":true}}",
                        &a, &err),
             &err);
    CHECK(a.domain.is_removed);
    CHECK_OK(parse_line("{\"commitInfo\":{\"timestamp\":10,\"inCommitTimestamp\":12,"
                        "\"operation\":\"WRITE\",\"anything\":{\"x\":[1]}}}",
                        &a, &err),
             &err);
    CHECK(a.commit_info.has_in_commit_timestamp);
    CHECK_INT_EQ(a.commit_info.in_commit_timestamp, 12);
    CHECK(dl_str_eq_cstr(a.commit_info.operation, "WRITE"));
    CHECK_OK(parse_line("{\"checkpointMetadata\":{\"version\":3,\"tags\":{}}}", &a, &err), &err);
    CHECK_INT_EQ(a.checkpoint.version, 3);
    CHECK_OK(parse_line("{\"sidecar\":{\"path\":\"s.parquet\",\"sizeInBytes\":9,"
                        "\"modificationTime\":1}}",
                        &a, &err),
             &err);
    CHECK_INT_EQ(a.sidecar.size_in_bytes, 9);
}

TEST(test_unknown_and_null_actions_are_ignored) {
    dl_delta_action a;
    dl_error err;
    CHECK_OK(parse_line("{\"someNewAction\":{\"x\":1}}", &a, &err), &err);
    CHECK_INT_EQ(a.kind, DL_DELTA_ACTION_UNKNOWN);
    CHECK_OK(parse_line("{\"add\":null}", &a, &err), &err);
    CHECK_INT_EQ(a.kind, DL_DELTA_ACTION_UNKNOWN);
}

TEST(test_missing_or_mistyped_required_fields_are_corrupt) {
    dl_delta_action a;
    dl_error err;
    CHECK_STATUS(parse_line("{\"add\":{\"path\":\"x\",\"partitionValues\":{},"
                            "\"modificationTime\":1,\"dataChange\":true}}",
                            &a, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "add action: missing required field 'size'");
    CHECK_STATUS(parse_line("{\"add\":{\"path\":3,\"partitionValues\":{},\"size\":1,"
                            "\"modificationTime\":1,\"dataChange\":true}}",
                            &a, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "add action: field 'path'");
    CHECK_STATUS(parse_line("{\"add\":{\"path\":\"x\",\"partitionValues\":[],\"size\":1,"
                            "\"modificationTime\":1,\"dataChange\":true}}",
                            &a, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "'partitionValues' is a array");
    CHECK_STATUS(parse_line("{\"remove\":{\"path\":\"x\"}}", &a, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "'dataChange'");
    CHECK_STATUS(parse_line("{\"txn\":{\"appId\":\"a\",\"version\":1.5}}", &a, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_STATUS(parse_line("{\"protocol\":{\"minReaderVersion\":1}}", &a, &err), DL_ERR_CORRUPT,
                 &err);
    CHECK_ERR_CONTAINS(&err, "minWriterVersion");
    CHECK_STATUS(parse_line("{\"metaData\":{\"id\":\"x\",\"format\":{},\"partitionColumns\":[],"
                            "\"configuration\":{\"k\":5}}}",
                            &a, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "configuration");
    CHECK_STATUS(parse_line("{\"add\":[1]}", &a, &err), DL_ERR_CORRUPT, &err);
    CHECK_STATUS(parse_line("{\"add\":{\"path\":\"x\",\"partitionValues\":{},\"size\":1,"
                            "\"modificationTime\":1,\"dataChange\":true,\"deletionVector\":{"
                            "\"storageType\":\"q\",\"pathOrInlineDv\":\"x\",\"sizeInBytes\":1,"
                            "\"cardinality\":1}}}",
                            &a, &err),
                 DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "deletionVector");
}

typedef struct seen {
    int n;
    dl_delta_action_kind kinds[16];
    int64_t lines[16];
} seen;

static dl_status
collect(void *ctx, const dl_delta_action *a, int64_t line_no, dl_error *err) {
    seen *s = ctx;
    (void)err;
    if (s->n < 16) {
        s->kinds[s->n] = a->kind;
        s->lines[s->n] = line_no;
        s->n++;
    }
    return DL_OK;
}

TEST(test_text_walks_lines_and_members) {
    const char *text = "{\"commitInfo\":{}}\n"
                       "\n"
                       "   \r\n"
                       "{\"add\":"
                       "{\"path\":\"a\",\"partitionValues\":{},\"size\":1,"
                       "\"modificationTime\":1,\"dataChange\":true},\"newThing\":{}}\r\n"
                       "{\"remove\":{\"path\":\"a\",\"dataChange\":true}}";
    seen s = {0};
    dl_error err;
    CHECK_OK(dl_delta_actions_parse_text(text, strlen(text), &doc, &arena, collect, &s, &err),
             &err);
    CHECK_INT_EQ(s.n, 3);
    CHECK_INT_EQ(s.kinds[0], DL_DELTA_ACTION_COMMIT_INFO);
    CHECK_INT_EQ(s.kinds[1], DL_DELTA_ACTION_ADD);
    CHECK_INT_EQ(s.lines[1], 4);
    CHECK_INT_EQ(s.kinds[2], DL_DELTA_ACTION_REMOVE);
    CHECK_INT_EQ(s.lines[2], 5);
}

TEST(test_corrupt_line_names_line_and_byte) {
    const char *text = "{\"commitInfo\":{}}\n"
                       "{\"add\":{\"path\":\"a\",,}}\n";
    seen s = {0};
    dl_error err;
    CHECK_STATUS(dl_delta_actions_parse_text(text, strlen(text), &doc, &arena, collect, &s, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "line 2, byte 37");
    CHECK_INT_EQ(err.offset, 37);
    CHECK(text[err.offset] == ',');
    const char *not_object = "[1,2]\n";
    CHECK_STATUS(dl_delta_actions_parse_text(not_object, strlen(not_object), &doc, &arena, collect,
                                             &s, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "line 1, byte 0: an action line must be a JSON object");
    const char *bad_field = "\n{\"add\":{\"path\":\"a\"}}";
    CHECK_STATUS(
        dl_delta_actions_parse_text(bad_field, strlen(bad_field), &doc, &arena, collect, &s, &err),
        DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "line 2, byte 1: add action: missing required field");
}

static const char *
decode(const char *path, bool *is_abs, dl_error *err, dl_status *st) {
    static char out[256];
    dl_buf b;
    dl_buf_init(&b, NULL);
    *st = dl_delta_path_decode(dl_str_from_cstr(path), &b, is_abs, err);
    dl_str_copy_to(dl_buf_view(&b), out, sizeof(out));
    dl_buf_destroy(&b);
    return out;
}

TEST(test_paths_are_url_decoded_and_canonical) {
    bool abs;
    dl_error err;
    dl_status st;
    CHECK_STR_EQ(decode("a%20b/c%3Ad+e.parquet", &abs, &err, &st), "a b/c:d+e.parquet");
    CHECK_INT_EQ(st, DL_OK);
    CHECK(!abs);
    CHECK_STR_EQ(decode("special%20p@%23h", &abs, &err, &st), "special p@#h");
    CHECK_STR_EQ(decode("file:/some/path", &abs, &err, &st), "/some/path");
    CHECK(abs);
    CHECK_STR_EQ(decode("file:///some/path", &abs, &err, &st), "/some/path");
    CHECK_STR_EQ(decode("file://localhost/some/with%20space", &abs, &err, &st), "/some/with space");
    CHECK_STR_EQ(decode("s3://bucket/k%2Fx", &abs, &err, &st), "s3://bucket/k/x");
    CHECK(abs);
    (void)decode("bad%2", &abs, &err, &st);
    CHECK_INT_EQ(st, DL_ERR_CORRUPT);
    CHECK_ERR_CONTAINS(&err, "malformed escape");
    (void)decode("nul%00byte", &abs, &err, &st);
    CHECK_INT_EQ(st, DL_ERR_CORRUPT);
    (void)decode("", &abs, &err, &st);
    CHECK_INT_EQ(st, DL_ERR_CORRUPT);
}

int
main(void) {
    dl_arena_init(&arena, NULL, 0);
    dl_json_doc_init(&doc, NULL);
    RUN(test_add_with_every_field);
    RUN(test_remove_and_cdc);
    RUN(test_metadata_and_protocol_are_copied);
    RUN(test_small_actions);
    RUN(test_unknown_and_null_actions_are_ignored);
    RUN(test_missing_or_mistyped_required_fields_are_corrupt);
    RUN(test_text_walks_lines_and_members);
    RUN(test_corrupt_line_names_line_and_byte);
    RUN(test_paths_are_url_decoded_and_canonical);
    dl_json_doc_destroy(&doc);
    dl_arena_destroy(&arena);
    return harness_finish();
}
