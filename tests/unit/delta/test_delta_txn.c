/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Transactions and commits: what a commit file holds (commitInfo as Spark writes it, the
 * actions' fields, URI-encoded paths), table creation and the protocol it picks, staging
 * errors, the rules checked at commit, in-commit timestamps, and tables read back through the
 * read side. Every table a test writes ends with the protocol checker (test_delta_txn_check.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "json/json.h"
#include "test_delta_txn_util.h"

static const char *const parts_p[] = {"p"};
static char text[1 << 16];

#define SCHEMA_NTZ                                                                                \
    "{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,"      \
    "\"metadata\":{}},{\"name\":\"t\",\"type\":\"timestamp_ntz\",\"nullable\":true,\"metadata\":" \
    "{}}]}"

/* The line of commit `version` holding `action`, parsed into doc; missing when absent. */
static dl_json_val
action_of(tl_table *t, int64_t version, const char *action, dl_json_doc *doc) {
    char name[64];
    (void)snprintf(name, sizeof(name), "%020lld.json", (long long)version);
    dl_json_val missing = {0};
    if (!tw_read_log_file(t, name, text, sizeof(text))) {
        return missing;
    }
    char needle[64];
    (void)snprintf(needle, sizeof(needle), "{\"%s\":", action);
    char *line = strstr(text, needle);
    if (line == NULL) {
        return missing;
    }
    char *nl = strchr(line, '\n');
    size_t len = nl != NULL ? (size_t)(nl - line) : strlen(line);
    if (dl_json_doc_parse(doc, line, len, NULL) != DL_OK) {
        return missing;
    }
    return dl_json_obj_get(dl_json_doc_root(doc), action);
}

static int64_t
jint(dl_json_val obj, const char *key) {
    int64_t v = INT64_MIN;
    if (dl_json_val_get_int64(dl_json_obj_get(obj, key), &v, NULL) != DL_OK) {
        v = INT64_MIN;
    }
    return v;
}

static bool
jstr(dl_json_val obj, const char *key, const char *want) {
    dl_json_val v = dl_json_obj_get(obj, key);
    return dl_json_val_type(v) == DL_JSON_STRING && dl_str_eq_cstr(dl_json_val_str(v), want);
}

static bool
jhas(dl_json_val obj, const char *key) {
    return !dl_json_val_is_missing(dl_json_obj_get(obj, key));
}

static bool
jlist_has(dl_json_val arr, const char *want) {
    dl_json_iter it = dl_json_val_iter(arr);
    dl_json_val v;
    while (dl_json_iter_next(&it, NULL, &v)) {
        if (dl_str_eq_cstr(dl_json_val_str(v), want)) {
            return true;
        }
    }
    return false;
}

static dl_status
begin_latest(tl_table *t, const dl_delta_tx_options *opts, dl_delta_tx **out, dl_error *err) {
    dl_delta_snapshot *snap = tw_latest(t, err);
    if (snap == NULL) {
        return err->code;
    }
    dl_status s = dl_delta_tx_begin(t->table, snap, opts, out, err);
    dl_delta_snapshot_unref(snap);
    return s;
}

/* ---- creating tables ------------------------------------------------------------------- */

TEST(test_create_plain_table_writes_protocol_1_2_metadata_and_spark_commit_info) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    dl_delta_commit_result res;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, parts_p, 1, NULL, 0, &res, &err), &err);
    CHECK_INT_EQ(res.version, 0);
    CHECK_INT_EQ(res.attempts, 1);
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_json_val p = action_of(&t, 0, "protocol", &doc);
    CHECK_INT_EQ(dl_json_val_count(p), 2);
    CHECK_INT_EQ(jint(p, "minReaderVersion"), 1);
    CHECK_INT_EQ(jint(p, "minWriterVersion"), 2);
    dl_json_val md = action_of(&t, 0, "metaData", &doc);
    CHECK_INT_EQ(dl_json_val_str(dl_json_obj_get(md, "id")).len, 36);
    CHECK(jstr(dl_json_obj_get(md, "format"), "provider", "parquet"));
    CHECK(jlist_has(dl_json_obj_get(md, "partitionColumns"), "p"));
    CHECK(jint(md, "createdTime") > 1600000000000);
    dl_json_val ci = action_of(&t, 0, "commitInfo", &doc);
    CHECK(strncmp(text, "{\"commitInfo\":", 14) == 0); /* first line */
    CHECK(jstr(ci, "operation", "CREATE TABLE"));
    dl_json_val params = dl_json_obj_get(ci, "operationParameters");
    CHECK(jstr(params, "isManaged", "false"));
    CHECK(dl_json_val_is_null(dl_json_obj_get(params, "description")));
    CHECK(jstr(params, "partitionBy", "[\"p\"]"));
    CHECK(jstr(params, "clusterBy", "[]"));
    CHECK(jstr(params, "properties", "{}"));
    CHECK(jstr(ci, "isolationLevel", "Serializable"));
    CHECK(dl_str_starts_with(dl_json_val_str(dl_json_obj_get(ci, "engineInfo")),
                             DL_STR("deltalite/")));
    CHECK(!jhas(ci, "readVersion"));
    CHECK(!jhas(ci, "inCommitTimestamp"));
    CHECK(dl_json_val_type(dl_json_obj_get(ci, "isBlindAppend")) == DL_JSON_BOOL);
    CHECK_INT_EQ(dl_json_val_str(dl_json_obj_get(ci, "txnId")).len, 36);
    CHECK(jint(ci, "timestamp") == res.timestamp);
    dl_json_doc_destroy(&doc);
    CHECK_LOG(&t);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_version(snap), 0);
    CHECK_INT_EQ(dl_delta_snapshot_partition_count(snap), 1);
    CHECK_INT_EQ(dl_delta_snapshot_schema(snap)->n_fields, 2);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

TEST(test_create_with_timestamp_ntz_uses_reader_3_writer_7_listing_legacy_features) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, SCHEMA_NTZ, NULL, 0, NULL, 0, NULL, &err), &err);
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_json_val p = action_of(&t, 0, "protocol", &doc);
    CHECK_INT_EQ(jint(p, "minReaderVersion"), 3);
    CHECK_INT_EQ(jint(p, "minWriterVersion"), 7);
    CHECK(jlist_has(dl_json_obj_get(p, "readerFeatures"), "timestampNtz"));
    CHECK(jlist_has(dl_json_obj_get(p, "writerFeatures"), "timestampNtz"));
    CHECK(jlist_has(dl_json_obj_get(p, "writerFeatures"), "appendOnly"));
    CHECK(jlist_has(dl_json_obj_get(p, "writerFeatures"), "invariants"));
    CHECK(!jlist_has(dl_json_obj_get(p, "readerFeatures"), "appendOnly"));
    dl_json_doc_destroy(&doc);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_create_with_properties_picks_features_and_drops_pseudo_properties) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    dl_delta_kv conf[] = {{"delta.enableDeletionVectors", "true"},
                          {"delta.enableInCommitTimestamps", "true"},
                          {"delta.feature.domainMetadata", "supported"},
                          {"delta.minWriterVersion", "7"},
                          {"custom.key", "v"}};
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, conf, 5, NULL, &err), &err);
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_json_val p = action_of(&t, 0, "protocol", &doc);
    CHECK_INT_EQ(jint(p, "minReaderVersion"), 3);
    dl_json_val rf = dl_json_obj_get(p, "readerFeatures");
    dl_json_val wf = dl_json_obj_get(p, "writerFeatures");
    CHECK(jlist_has(rf, "deletionVectors") && !jlist_has(rf, "inCommitTimestamp"));
    CHECK(jlist_has(wf, "deletionVectors") && jlist_has(wf, "inCommitTimestamp"));
    CHECK(jlist_has(wf, "domainMetadata"));
    dl_json_val md = action_of(&t, 0, "metaData", &doc);
    dl_json_val c = dl_json_obj_get(md, "configuration");
    CHECK(jstr(c, "custom.key", "v") && jstr(c, "delta.enableDeletionVectors", "true"));
    CHECK(!jhas(c, "delta.feature.domainMetadata") && !jhas(c, "delta.minWriterVersion"));
    /* ICT on from creation: the first commit carries it, no enablement properties. */
    dl_json_val ci = action_of(&t, 0, "commitInfo", &doc);
    CHECK(jint(ci, "inCommitTimestamp") > 0);
    CHECK(strncmp(text, "{\"commitInfo\":{\"inCommitTimestamp\":", 35) == 0);
    dl_json_doc_destroy(&doc);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_create_with_ict_only_uses_reader_1_writer_7) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    dl_delta_kv conf[] = {{"delta.enableInCommitTimestamps", "true"}};
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, conf, 1, NULL, &err), &err);
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_json_val p = action_of(&t, 0, "protocol", &doc);
    CHECK_INT_EQ(jint(p, "minReaderVersion"), 1);
    CHECK_INT_EQ(jint(p, "minWriterVersion"), 7);
    CHECK(!jhas(p, "readerFeatures"));
    dl_json_doc_destroy(&doc);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_create_with_column_mapping_uses_reader_2_writer_7) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    dl_delta_kv conf[] = {{"delta.columnMapping.mode", "name"}};
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_delta_schema schema = tw_schema(&arena, TW_SCHEMA_ID_P);
    dl_delta_create_spec spec = {.schema = &schema, .configuration = conf, .n_configuration = 1};
    dl_delta_tx *tx = NULL;
    CHECK_OK(dl_delta_tx_begin(t.table, NULL, NULL, &tx, &err), &err);
    CHECK_OK(dl_delta_tx_create_table(tx, &spec, &err), &err);
    CHECK_OK(dl_delta_tx_commit(tx, NULL, &err), &err);
    dl_delta_tx_free(tx);
    dl_arena_destroy(&arena);
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    /* As Delta 4: (2, 7) with writerFeatures columnMapping, invariants, appendOnly. */
    dl_json_val p = action_of(&t, 0, "protocol", &doc);
    CHECK_INT_EQ(jint(p, "minReaderVersion"), 2);
    CHECK_INT_EQ(jint(p, "minWriterVersion"), 7);
    CHECK(!jhas(p, "readerFeatures"));
    CHECK_INT_EQ((int64_t)dl_json_val_count(dl_json_obj_get(p, "writerFeatures")), 3);
    dl_json_doc_destroy(&doc);
    /* Every field got an id and a physical name; maxColumnId is the largest id. */
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    const dl_delta_schema *got = dl_delta_snapshot_schema(snap);
    int64_t max_id = 0;
    for (int32_t i = 0; i < got->n_fields; i++) {
        CHECK(got->fields[i].has_column_id);
        CHECK_INT_EQ(got->fields[i].column_id, i + 1);
        CHECK(got->fields[i].physical_name != NULL &&
              strncmp(got->fields[i].physical_name, "col-", 4) == 0);
        max_id = got->fields[i].column_id;
    }
    const char *conf_max = dl_delta_metadata_config(dl_delta_snapshot_metadata(snap),
                                                    "delta.columnMapping.maxColumnId");
    CHECK(conf_max != NULL && strtoll(conf_max, NULL, 10) == max_id);
    /* deltalite writes such tables. */
    CHECK_OK(dl_delta_tx_begin(t.table, snap, NULL, &tx, &err), &err);
    dl_delta_tx_free(tx);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

TEST(test_create_table_that_exists_is_exists_error) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, NULL, 0, NULL, &err), &err);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_delta_schema schema = tw_schema(&arena, TW_SCHEMA_ID_P);
    dl_delta_create_spec spec = {.schema = &schema};
    dl_delta_tx *tx = NULL;
    CHECK_OK(begin_latest(&t, NULL, &tx, &err), &err);
    CHECK_STATUS(dl_delta_tx_create_table(tx, &spec, &err), DL_ERR_EXISTS, &err);
    CHECK_ERR_CONTAINS(&err, "already exists");
    dl_delta_tx_free(tx);
    /* Two creators that both saw no table: the loser gets ProtocolChangedException. */
    CHECK_OK(dl_delta_tx_begin(t.table, NULL, NULL, &tx, &err), &err);
    CHECK_OK(dl_delta_tx_create_table(tx, &spec, &err), &err);
    CHECK_STATUS(dl_delta_tx_commit(tx, NULL, &err), DL_ERR_CONFLICT, &err);
    CHECK_INT_EQ(dl_delta_tx_conflict(tx), DL_DELTA_CONFLICT_PROTOCOL_CHANGED);
    CHECK_ERR_CONTAINS(&err, "ProtocolChangedException");
    CHECK_ERR_CONTAINS(&err, "version 0");
    dl_delta_tx_free(tx);
    dl_arena_destroy(&arena);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_create_bad_specs_are_invalid_arg_naming_the_problem) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    const char *bad_col[] = {"nope"};
    CHECK_STATUS(tw_create(&t, TW_SCHEMA_ID_P, bad_col, 1, NULL, 0, NULL, &err), DL_ERR_INVALID_ARG,
                 &err);
    CHECK_ERR_CONTAINS(&err, "partition column 'nope' is not in the schema");
    const char *twice[] = {"p", "P"};
    CHECK_STATUS(tw_create(&t, TW_SCHEMA_ID_P, twice, 2, NULL, 0, NULL, &err), DL_ERR_INVALID_ARG,
                 &err);
    CHECK_ERR_CONTAINS(&err, "repeated");
    dl_delta_kv bad_feature[] = {{"delta.feature.noSuchFeature", "supported"}};
    CHECK_STATUS(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, bad_feature, 1, NULL, &err),
                 DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "noSuchFeature");
    dl_delta_kv bad_version[] = {{"delta.minReaderVersion", "9"}};
    CHECK_STATUS(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, bad_version, 1, NULL, &err),
                 DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "delta.minReaderVersion");
    /* Nothing was committed by any of them. */
    dl_delta_snapshot *snap = NULL;
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, NULL, &snap, &err), DL_ERR_NOT_FOUND, &err);
    tl_table_free(&t);
}

/* ---- appending and reading back -------------------------------------------------------- */

TEST(test_appends_commit_next_versions_and_read_back_with_encoded_paths) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, parts_p, 1, NULL, 0, NULL, &err), &err);
    dl_delta_kv pv1[] = {{"p", "a b"}};
    dl_delta_kv pv2[] = {{"p", NULL}};
    dl_delta_commit_result res;
    CHECK_OK(tw_append(&t, "p=a b/part-0 #1.parquet", pv1, 1, 5, NULL, &res, &err), &err);
    CHECK_INT_EQ(res.version, 1);
    CHECK(res.is_blind_append);
    CHECK_OK(
        tw_append(&t, "p=__HIVE_DEFAULT_PARTITION__/part-1.parquet", pv2, 1, 7, NULL, &res, &err),
        &err);
    CHECK_INT_EQ(res.version, 2);
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_json_val add = action_of(&t, 1, "add", &doc);
    CHECK(jstr(add, "path", "p=a%20b/part-0%20%231.parquet"));
    CHECK(jstr(dl_json_obj_get(add, "partitionValues"), "p", "a b"));
    CHECK_INT_EQ(jint(add, "size"), 105);
    CHECK(dl_str_starts_with(dl_json_val_str(dl_json_obj_get(add, "stats")),
                             DL_STR("{\"numRecords\":5")));
    dl_json_val ci = action_of(&t, 1, "commitInfo", &doc);
    CHECK(jstr(ci, "operation", "WRITE"));
    CHECK(jstr(dl_json_obj_get(ci, "operationParameters"), "mode", "Append"));
    CHECK(jstr(dl_json_obj_get(ci, "operationMetrics"), "numFiles", "1"));
    CHECK_INT_EQ(jint(ci, "readVersion"), 0);
    CHECK(dl_json_val_type(dl_json_obj_get(ci, "isBlindAppend")) == DL_JSON_BOOL);
    dl_json_val pv = dl_json_obj_get(action_of(&t, 2, "add", &doc), "partitionValues");
    CHECK(dl_json_val_is_null(dl_json_obj_get(pv, "p")));
    dl_json_doc_destroy(&doc);
    CHECK_LOG(&t);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 2);
    bool found_space = false;
    for (size_t i = 0; i < 2; i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(snap, i);
        if (dl_str_eq_cstr(f->path, "p=a b/part-0 #1.parquet")) {
            found_space = true;
            CHECK(dl_str_eq_cstr(f->partition->values[0].u.str, "a b"));
        } else {
            CHECK(f->partition->values[0].is_null);
        }
    }
    CHECK(found_space);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

TEST(test_operation_parameters_are_raw_json_and_metrics_strings) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, NULL, 0, NULL, &err), &err);
    dl_delta_tx *tx = NULL;
    CHECK_OK(begin_latest(&t, NULL, &tx, &err), &err);
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_RESTORE);
    CHECK_OK(dl_delta_tx_param_json(tx, "version", "1", &err), &err);
    CHECK_OK(dl_delta_tx_param_json(tx, "timestamp", "null", &err), &err);
    CHECK_OK(dl_delta_tx_param_string(tx, "predicate", "[\"(id#1 < 5)\"]", &err), &err);
    CHECK_STATUS(dl_delta_tx_param_json(tx, "bad", "{oops", &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "operationParameters 'bad'");
    CHECK_STATUS(dl_delta_tx_param_json(tx, "version", "2", &err), DL_ERR_INVALID_ARG, &err);
    CHECK_OK(dl_delta_tx_metric(tx, "numRestoredFiles", 4, &err), &err);
    CHECK_OK(dl_delta_tx_metric(tx, "numRestoredFiles", 5, &err), &err);
    CHECK_OK(dl_delta_tx_set_user_metadata(tx, "note", &err), &err);
    CHECK_OK(dl_delta_tx_commit(tx, NULL, &err), &err);
    CHECK_STATUS(dl_delta_tx_commit(tx, NULL, &err), DL_ERR_INVALID_ARG, &err);
    dl_delta_tx_free(tx);
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_json_val ci = action_of(&t, 1, "commitInfo", &doc);
    CHECK(jstr(ci, "operation", "RESTORE"));
    dl_json_val params = dl_json_obj_get(ci, "operationParameters");
    CHECK_INT_EQ(jint(params, "version"), 1);
    CHECK(dl_json_val_is_null(dl_json_obj_get(params, "timestamp")));
    CHECK(jstr(params, "predicate", "[\"(id#1 < 5)\"]"));
    CHECK(jstr(dl_json_obj_get(ci, "operationMetrics"), "numRestoredFiles", "5"));
    CHECK(jstr(ci, "userMetadata", "note"));
    /* An empty commit changes no data: SnapshotIsolation, as Spark downgrades it. */
    CHECK(jstr(ci, "isolationLevel", "SnapshotIsolation"));
    dl_json_doc_destroy(&doc);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_remove_snapshot_file_copies_extended_metadata_and_stats) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, parts_p, 1, NULL, 0, NULL, &err), &err);
    dl_delta_kv pv[] = {{"p", "x"}};
    CHECK_OK(tw_append(&t, "p=x/a.parquet", pv, 1, 3, NULL, NULL, &err), &err);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    dl_delta_tx *tx = NULL;
    dl_delta_tx_options opts = {.now_ms = 1700000001234};
    CHECK_OK(dl_delta_tx_begin(t.table, snap, &opts, &tx, &err), &err);
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_DELETE);
    CHECK_OK(dl_delta_tx_param_string(tx, "predicate", "[]", &err), &err);
    CHECK_OK(dl_delta_tx_remove_snapshot_file(tx, dl_delta_snapshot_file(snap, 0), true, &err),
             &err);
    CHECK_STATUS(dl_delta_tx_remove_snapshot_file(tx, dl_delta_snapshot_file(snap, 0), true, &err),
                 DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "already in this commit");
    dl_delta_commit_result res;
    CHECK_OK(dl_delta_tx_commit(tx, &res, &err), &err);
    CHECK(!res.is_blind_append);
    dl_delta_tx_free(tx);
    dl_delta_snapshot_unref(snap);
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_json_val rm = action_of(&t, 2, "remove", &doc);
    CHECK(jstr(rm, "path", "p=x/a.parquet"));
    CHECK_INT_EQ(jint(rm, "deletionTimestamp"), 1700000001234);
    CHECK(dl_json_val_type(dl_json_obj_get(rm, "extendedFileMetadata")) == DL_JSON_BOOL);
    CHECK(jstr(dl_json_obj_get(rm, "partitionValues"), "p", "x"));
    CHECK_INT_EQ(jint(rm, "size"), 103);
    CHECK(dl_str_starts_with(dl_json_val_str(dl_json_obj_get(rm, "stats")),
                             DL_STR("{\"numRecords\":3")));
    dl_json_val ci = action_of(&t, 2, "commitInfo", &doc);
    CHECK(jstr(ci, "operation", "DELETE"));
    CHECK_INT_EQ(jint(ci, "timestamp"), 1700000001234);
    dl_json_doc_destroy(&doc);
    CHECK_LOG(&t);
    snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 0);
    CHECK_INT_EQ(dl_delta_snapshot_tombstone_count(snap), 1);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

/* ---- staging and commit-time errors ---------------------------------------------------- */

TEST(test_staging_errors_name_the_file_and_rule) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, NULL, 0, NULL, &err), &err);
    dl_delta_tx *tx = NULL;
    CHECK_OK(begin_latest(&t, NULL, &tx, &err), &err);
    dl_delta_add_file add = {.path = "a.parquet", .size = 1, .data_change = true};
    CHECK_OK(dl_delta_tx_add(tx, &add, &err), &err);
    CHECK_STATUS(dl_delta_tx_add(tx, &add, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "add 'a.parquet': the path is already in this commit");
    dl_delta_add_file bad = {.path = "b.parquet", .size = -1};
    CHECK_STATUS(dl_delta_tx_add(tx, &bad, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "size -1 is negative");
    bad = (dl_delta_add_file){.path = "c.parquet", .stats = "{\"numRecords\":"};
    CHECK_STATUS(dl_delta_tx_add(tx, &bad, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "'c.parquet': stats");
    bad = (dl_delta_add_file){.path = "_delta_log/x.parquet"};
    CHECK_STATUS(dl_delta_tx_add(tx, &bad, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "_delta_log/");
    bad = (dl_delta_add_file){.path = ""};
    CHECK_STATUS(dl_delta_tx_add(tx, &bad, &err), DL_ERR_INVALID_ARG, &err);
    dl_delta_kv dup[] = {{"k", "1"}, {"k", "2"}};
    bad = (dl_delta_add_file){.path = "d.parquet", .tags = dup, .n_tags = 2};
    CHECK_STATUS(dl_delta_tx_add(tx, &bad, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "key 'k' appears twice");
    dl_delta_dv_desc dv = {.storage_type = 'x', .path_or_inline_dv = DL_STR("abc")};
    bad = (dl_delta_add_file){.path = "e.parquet", .dv = &dv};
    CHECK_STATUS(dl_delta_tx_add(tx, &bad, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "'e.parquet': deletionVector");
    CHECK_STATUS(dl_delta_tx_set_app_version(tx, "", 1, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_OK(dl_delta_tx_set_app_version(tx, "app", 1, &err), &err);
    CHECK_STATUS(dl_delta_tx_set_app_version(tx, "app", 2, &err), DL_ERR_INVALID_ARG, &err);
    dl_delta_protocol bad_p = {.min_reader_version = 3, .min_writer_version = 5};
    CHECK_STATUS(dl_delta_tx_set_protocol(tx, &bad_p, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "reader version 3 requires writer version 7");
    dl_delta_metadata bad_md = {.id = "x", .format_provider = "parquet"};
    CHECK_STATUS(dl_delta_tx_set_metadata(tx, &bad_md, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "schemaString");
    /* The staged add and txn still commit after the refused calls. */
    CHECK_OK(dl_delta_tx_commit(tx, NULL, &err), &err);
    dl_delta_tx_free(tx);
    CHECK_INT_EQ(tw_count_actions(&t, 1, "add"), 1);
    CHECK_INT_EQ(tw_count_actions(&t, 1, "txn"), 1);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_partition_values_must_name_exactly_the_partition_columns) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, parts_p, 1, NULL, 0, NULL, &err), &err);
    dl_delta_kv wrong[] = {{"q", "1"}};
    CHECK_STATUS(tw_append(&t, "x.parquet", wrong, 1, 1, NULL, NULL, &err), DL_ERR_INVALID_ARG,
                 &err);
    CHECK_ERR_CONTAINS(&err, "add 'x.parquet': partitionValues {\"q\":\"1\"} must name exactly");
    CHECK_STATUS(tw_append(&t, "y.parquet", NULL, 0, 1, NULL, NULL, &err), DL_ERR_INVALID_ARG,
                 &err);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_version(snap), 0);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

TEST(test_append_only_table_refuses_data_changing_remove) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    dl_delta_kv conf[] = {{"delta.appendOnly", "true"}};
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, conf, 1, NULL, &err), &err);
    CHECK_OK(tw_append(&t, "a.parquet", NULL, 0, 1, NULL, NULL, &err), &err);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    for (int is_data_change = 1; is_data_change >= 0; is_data_change--) {
        dl_delta_tx *tx = NULL;
        CHECK_OK(dl_delta_tx_begin(t.table, snap, NULL, &tx, &err), &err);
        CHECK_OK(dl_delta_tx_remove_snapshot_file(tx, dl_delta_snapshot_file(snap, 0),
                                                  is_data_change != 0, &err),
                 &err);
        dl_delta_add_file add = {.path = "b.parquet", .size = 1, .data_change = false};
        CHECK_OK(dl_delta_tx_add(tx, &add, &err), &err);
        dl_status s = dl_delta_tx_commit(tx, NULL, &err);
        dl_delta_tx_free(tx);
        if (is_data_change) {
            CHECK_STATUS(s, DL_ERR_CONSTRAINT, &err);
            CHECK_ERR_CONTAINS(&err, "only allow appends");
        } else {
            CHECK_OK(s, &err); /* rearranging data (OPTIMIZE) is allowed */
        }
    }
    dl_delta_snapshot_unref(snap);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_legacy_table_with_active_unhandled_feature_is_refused) {
    tl_table t;
    CHECK(tl_table_new(&t));
    /* writer 3 with a CHECK constraint: every writer of new rows checks them in the data-file
     * writer (src/sql/commands/sql_dml_check.c) */
    CHECK(tl_commit(
        &t, 0,
        "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":3}}\n" TL_METADATA(
            TL_SCHEMA_ID_LONG, "[]", "{\"delta.constraints.positive\":\"id > 0\"}") "\n"));
    dl_error err;
    dl_delta_tx *tx = NULL;
    CHECK_OK(begin_latest(&t, NULL, &tx, &err), &err);
    dl_delta_tx_free(tx);
    /* writer 4 with a generated column: its rules are the caller's to enforce */
    CHECK(tl_commit(&t, 1,
                    "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":4}}\n" TL_METADATA(
                        "{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[{\\\"name\\\":\\\"id\\\","
                        "\\\"type\\\":\\\"long\\\",\\\"nullable\\\":true,\\\"metadata\\\":{"
                        "\\\"delta.generationExpression\\\":\\\"2\\\"}}]}",
                        "[]", "{}") "\n"));
    CHECK_STATUS(begin_latest(&t, NULL, &tx, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "it uses generated columns (generatedColumns)");
    dl_delta_tx_options opts = {.handled_features = (uint64_t)1
                                                    << DL_DELTA_FEATURE_GENERATED_COLUMNS};
    CHECK_OK(begin_latest(&t, &opts, &tx, &err), &err);
    dl_delta_tx_free(tx);
    /* writer 4 with the change data feed on: every writer of deltalite honours it (appends need
     * nothing, DELETE/UPDATE/MERGE write change data: src/sql/commands/sql_dml_cdf.c) */
    CHECK(
        tl_commit(&t, 2,
                  "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":4}}\n" TL_METADATA(
                      TL_SCHEMA_ID_LONG, "[]", "{\"delta.enableChangeDataFeed\":\"true\"}") "\n"));
    CHECK_OK(begin_latest(&t, NULL, &tx, &err), &err);
    dl_delta_tx_free(tx);
    /* An unknown writer feature of a table-features protocol is always refused. */
    CHECK(tl_commit(&t, 3,
                    "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":7,"
                    "\"writerFeatures\":[\"someFutureThing\"]}}\n"));
    CHECK_STATUS(begin_latest(&t, &opts, &tx, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "someFutureThing");
    tl_table_free(&t);
}

TEST(test_domain_metadata_needs_its_feature_and_commits_with_it) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, NULL, 0, NULL, &err), &err);
    dl_delta_tx *tx = NULL;
    CHECK_OK(begin_latest(&t, NULL, &tx, &err), &err);
    CHECK_OK(dl_delta_tx_set_domain(tx, "my.domain", "{\"a\":1}", false, &err), &err);
    CHECK_STATUS(dl_delta_tx_set_domain(tx, "my.domain", "{}", false, &err), DL_ERR_INVALID_ARG,
                 &err);
    CHECK_STATUS(dl_delta_tx_commit(tx, NULL, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "domainMetadata");
    dl_delta_tx_free(tx);
    tl_table_free(&t);
    CHECK(tl_table_new(&t));
    dl_delta_kv conf[] = {{"delta.feature.domainMetadata", "supported"}};
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, conf, 1, NULL, &err), &err);
    CHECK_OK(begin_latest(&t, NULL, &tx, &err), &err);
    CHECK_OK(dl_delta_tx_set_domain(tx, "my.domain", "{\"a\":1}", false, &err), &err);
    CHECK_OK(dl_delta_tx_commit(tx, NULL, &err), &err);
    dl_delta_tx_free(tx);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    CHECK_STR_EQ(dl_delta_snapshot_domain_config(snap, "my.domain"), "{\"a\":1}");
    dl_delta_snapshot_unref(snap);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_app_transaction_versions_are_written_and_read) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, NULL, 0, NULL, &err), &err);
    dl_delta_tx *tx = NULL;
    dl_delta_tx_options opts = {.now_ms = 1700000005000};
    CHECK_OK(begin_latest(&t, &opts, &tx, &err), &err);
    int64_t v = -1;
    bool found = true;
    CHECK_OK(dl_delta_tx_app_version(tx, "stream-1", &v, &found, &err), &err);
    CHECK(!found);
    CHECK_OK(dl_delta_tx_set_app_version(tx, "stream-1", 7, &err), &err);
    CHECK_OK(dl_delta_tx_commit(tx, NULL, &err), &err);
    dl_delta_tx_free(tx);
    CHECK_OK(begin_latest(&t, NULL, &tx, &err), &err);
    CHECK_OK(dl_delta_tx_app_version(tx, "stream-1", &v, &found, &err), &err);
    CHECK(found);
    CHECK_INT_EQ(v, 7);
    dl_delta_tx_free(tx);
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_json_val txn = action_of(&t, 1, "txn", &doc);
    CHECK(jstr(txn, "appId", "stream-1"));
    CHECK_INT_EQ(jint(txn, "lastUpdated"), 1700000005000);
    dl_json_doc_destroy(&doc);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_add_of_live_path_with_another_deletion_vector_needs_its_remove) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    dl_delta_kv conf[] = {{"delta.enableDeletionVectors", "true"}};
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, conf, 1, NULL, &err), &err);
    CHECK_OK(tw_append(&t, "a.parquet", NULL, 0, 10, NULL, NULL, &err), &err);
    dl_delta_dv *set = NULL;
    CHECK_OK(dl_delta_dv_new(NULL, &set, &err), &err);
    CHECK_OK(dl_delta_dv_add(set, 3, &err), &err);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_delta_dv_desc dv;
    CHECK_OK(dl_delta_dv_to_inline(set, &arena, &dv, &err), &err);
    dl_delta_dv_free(set);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    const dl_delta_file *live = dl_delta_snapshot_file(snap, 0);
    dl_delta_add_file add = {.path = "a.parquet",
                             .size = live->size,
                             .modification_time = 1,
                             .data_change = true,
                             .stats = "{\"numRecords\":10,\"tightBounds\":false}",
                             .dv = &dv};
    dl_delta_tx *tx = NULL;
    CHECK_OK(dl_delta_tx_begin(t.table, snap, NULL, &tx, &err), &err);
    CHECK_OK(dl_delta_tx_add(tx, &add, &err), &err);
    CHECK_STATUS(dl_delta_tx_commit(tx, NULL, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "live with another deletion vector");
    dl_delta_tx_free(tx);
    /* With the remove of the old logical file, the DELETE-by-DV commit is legal. */
    CHECK_OK(dl_delta_tx_begin(t.table, snap, NULL, &tx, &err), &err);
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_DELETE);
    CHECK_OK(dl_delta_tx_remove_snapshot_file(tx, live, true, &err), &err);
    CHECK_OK(dl_delta_tx_add(tx, &add, &err), &err);
    CHECK_OK(dl_delta_tx_commit(tx, NULL, &err), &err);
    dl_delta_tx_free(tx);
    dl_delta_snapshot_unref(snap);
    dl_arena_destroy(&arena);
    CHECK_LOG(&t);
    snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 1);
    CHECK(dl_delta_snapshot_file(snap, 0)->dv != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_file(snap, 0)->dv->cardinality, 1);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

/* ---- metadata changes and in-commit timestamps ----------------------------------------- */

static dl_status
set_properties(tl_table *t, const dl_delta_kv *extra, int32_t n_extra,
               const dl_delta_tx_options *opts, dl_error *err) {
    dl_delta_snapshot *snap = tw_latest(t, err);
    if (snap == NULL) {
        return err->code;
    }
    const dl_delta_metadata *old = dl_delta_snapshot_metadata(snap);
    dl_delta_kv conf[16];
    int32_t n = 0;
    for (int32_t i = 0; i < old->n_configuration && n < 16; i++) {
        conf[n++] = old->configuration[i];
    }
    for (int32_t i = 0; i < n_extra && n < 16; i++) {
        conf[n++] = extra[i];
    }
    dl_delta_metadata md = *old;
    md.configuration = conf;
    md.n_configuration = n;
    dl_delta_tx *tx = NULL;
    dl_status s = dl_delta_tx_begin(t->table, snap, opts, &tx, err);
    if (s == DL_OK) {
        dl_delta_tx_set_operation(tx, DL_DELTA_OP_SET_TBLPROPERTIES);
        s = dl_delta_tx_set_metadata(tx, &md, err);
    }
    if (s == DL_OK) {
        s = dl_delta_tx_commit(tx, NULL, err);
    }
    dl_delta_tx_free(tx);
    dl_delta_snapshot_unref(snap);
    return s;
}

TEST(test_metadata_enabling_deletion_vectors_upgrades_the_protocol) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, NULL, 0, NULL, &err), &err);
    dl_delta_kv dv[] = {{"delta.enableDeletionVectors", "true"}};
    CHECK_OK(set_properties(&t, dv, 1, NULL, &err), &err);
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_json_val p = action_of(&t, 1, "protocol", &doc);
    CHECK_INT_EQ(jint(p, "minReaderVersion"), 3);
    CHECK_INT_EQ(jint(p, "minWriterVersion"), 7);
    CHECK(jlist_has(dl_json_obj_get(p, "writerFeatures"), "appendOnly"));
    CHECK(jlist_has(dl_json_obj_get(p, "writerFeatures"), "invariants"));
    CHECK(jlist_has(dl_json_obj_get(p, "readerFeatures"), "deletionVectors"));
    CHECK(jstr(action_of(&t, 1, "commitInfo", &doc), "operation", "SET TBLPROPERTIES"));
    dl_json_doc_destroy(&doc);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_enabling_ict_records_enablement_and_timestamps_increase) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, NULL, 0, NULL, &err), &err);
    CHECK_OK(tw_append(&t, "a.parquet", NULL, 0, 1, NULL, NULL, &err), &err);
    dl_delta_kv ict[] = {{"delta.enableInCommitTimestamps", "true"}};
    CHECK_OK(set_properties(&t, ict, 1, NULL, &err), &err);
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_json_val ci = action_of(&t, 2, "commitInfo", &doc);
    int64_t ict2 = jint(ci, "inCommitTimestamp");
    CHECK(ict2 > 0);
    dl_json_val c = dl_json_obj_get(action_of(&t, 2, "metaData", &doc), "configuration");
    CHECK(jstr(c, "delta.inCommitTimestampEnablementVersion", "2"));
    char want[32];
    (void)snprintf(want, sizeof(want), "%lld", (long long)ict2);
    CHECK(jstr(c, "delta.inCommitTimestampEnablementTimestamp", want));
    /* A clock that goes backwards still gives increasing in-commit timestamps. */
    dl_delta_tx_options past = {.now_ms = 1000};
    dl_delta_commit_result res;
    CHECK_OK(tw_append(&t, "b.parquet", NULL, 0, 1, &past, &res, &err), &err);
    CHECK(res.has_in_commit_timestamp);
    CHECK_INT_EQ(res.in_commit_timestamp, ict2 + 1);
    CHECK_INT_EQ(jint(action_of(&t, 3, "commitInfo", &doc), "inCommitTimestamp"), ict2 + 1);
    dl_json_doc_destroy(&doc);
    CHECK_LOG(&t);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_timestamp(snap), ict2 + 1);
    dl_delta_snapshot_unref(snap);
    int64_t version = -1;
    CHECK_OK(dl_delta_version_at_timestamp(t.table, ict2, &version, &err), &err);
    CHECK_INT_EQ(version, 2);
    tl_table_free(&t);
}

TEST(test_replace_table_removes_every_file_and_gets_a_new_id) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, NULL, 0, NULL, &err), &err);
    CHECK_OK(tw_append(&t, "a.parquet", NULL, 0, 1, NULL, NULL, &err), &err);
    CHECK_OK(tw_append(&t, "b.parquet", NULL, 0, 1, NULL, NULL, &err), &err);
    dl_delta_snapshot *old = tw_latest(&t, &err);
    CHECK(old != NULL);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_delta_schema schema = tw_schema(&arena, SCHEMA_NTZ);
    dl_delta_create_spec spec = {
        .schema = &schema, .mode = DL_DELTA_CREATE_OR_REPLACE, .is_as_select = true};
    dl_delta_tx *tx = NULL;
    CHECK_OK(dl_delta_tx_begin(t.table, old, NULL, &tx, &err), &err);
    CHECK_OK(dl_delta_tx_create_table(tx, &spec, &err), &err);
    dl_delta_add_file add = {.path = "c.parquet", .size = 9, .data_change = true};
    CHECK_OK(dl_delta_tx_add(tx, &add, &err), &err);
    CHECK_OK(dl_delta_tx_commit(tx, NULL, &err), &err);
    dl_delta_tx_free(tx);
    dl_arena_destroy(&arena);
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    CHECK(jstr(action_of(&t, 3, "commitInfo", &doc), "operation",
               "CREATE OR REPLACE TABLE AS SELECT"));
    dl_json_doc_destroy(&doc);
    CHECK_INT_EQ(tw_count_actions(&t, 3, "remove"), 2);
    CHECK_INT_EQ(tw_count_actions(&t, 3, "protocol"), 1);
    CHECK_LOG(&t);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 1);
    CHECK(strcmp(dl_delta_snapshot_metadata(snap)->id, dl_delta_snapshot_metadata(old)->id) != 0);
    CHECK_INT_EQ(dl_delta_snapshot_protocol(snap)->min_reader_version, 3);
    dl_delta_snapshot_unref(snap);
    dl_delta_snapshot_unref(old);
    tl_table_free(&t);
}

TEST(test_time_travel_reads_every_written_version) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, NULL, 0, NULL, &err), &err);
    for (int i = 0; i < 5; i++) {
        char path[32];
        (void)snprintf(path, sizeof(path), "f%d.parquet", i);
        CHECK_OK(tw_append(&t, path, NULL, 0, i + 1, NULL, NULL, &err), &err);
    }
    for (int64_t v = 0; v <= 5; v++) {
        dl_delta_snapshot *snap = NULL;
        CHECK_OK(dl_delta_snapshot_at_version(t.table, v, NULL, &snap, &err), &err);
        CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), v);
        dl_delta_snapshot_unref(snap);
    }
    CHECK_LOG(&t);
    tl_table_free(&t);
}

int
main(void) {
    RUN(test_create_plain_table_writes_protocol_1_2_metadata_and_spark_commit_info);
    RUN(test_create_with_timestamp_ntz_uses_reader_3_writer_7_listing_legacy_features);
    RUN(test_create_with_properties_picks_features_and_drops_pseudo_properties);
    RUN(test_create_with_ict_only_uses_reader_1_writer_7);
    RUN(test_create_with_column_mapping_uses_reader_2_writer_7);
    RUN(test_create_table_that_exists_is_exists_error);
    RUN(test_create_bad_specs_are_invalid_arg_naming_the_problem);
    RUN(test_appends_commit_next_versions_and_read_back_with_encoded_paths);
    RUN(test_operation_parameters_are_raw_json_and_metrics_strings);
    RUN(test_remove_snapshot_file_copies_extended_metadata_and_stats);
    RUN(test_staging_errors_name_the_file_and_rule);
    RUN(test_partition_values_must_name_exactly_the_partition_columns);
    RUN(test_append_only_table_refuses_data_changing_remove);
    RUN(test_legacy_table_with_active_unhandled_feature_is_refused);
    RUN(test_domain_metadata_needs_its_feature_and_commits_with_it);
    RUN(test_app_transaction_versions_are_written_and_read);
    RUN(test_add_of_live_path_with_another_deletion_vector_needs_its_remove);
    RUN(test_metadata_enabling_deletion_vectors_upgrades_the_protocol);
    RUN(test_enabling_ict_records_enablement_and_timestamps_increase);
    RUN(test_replace_table_removes_every_file_and_gets_a_new_id);
    RUN(test_time_travel_reads_every_written_version);
    return harness_finish();
}
