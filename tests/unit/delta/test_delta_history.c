/* SPDX-License-Identifier: Apache-2.0 */
/* DESCRIBE HISTORY's commits and the raw log iterator (delta_history.c). */
#include <string.h>

#include "delta/delta.h"
#include "harness.h"
#include "test_delta_log_util.h"

#define HEADER TL_PROTOCOL_1_2 "\n" TL_METADATA_ID_LONG "\n"
#define CI(op, extra)                                                                       \
    "{\"commitInfo\":{\"timestamp\":99,\"operation\":\"" op "\",\"operationParameters\":"   \
    "{\"mode\":\"Append\"},\"operationMetrics\":{\"numFiles\":\"1\"},\"userName\":\"ann\"," \
    "\"isolationLevel\":\"Serializable\",\"isBlindAppend\":true,\"engineInfo\":\"x/1\","    \
    "\"txnId\":\"t-1\"" extra "}}\n"

static bool
str_is(dl_str s, const char *want) {
    return dl_str_eq_cstr(s, want);
}

TEST(test_history_lists_commits_newest_first_with_their_commit_info) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, CI("CREATE TABLE", "") HEADER));
    CHECK(tl_commit(&t, 1, CI("WRITE", ",\"readVersion\":0,\"userMetadata\":\"hi\"") TL_ADD("a")));
    CHECK(tl_commit(&t, 2, TL_ADD("b") "\n" CI("DELETE", ",\"notebook\":{\"notebookId\":\"7\"}")));
    CHECK(tl_commit(&t, 3, TL_ADD("c") "\n"));
    dl_delta_history *h = NULL;
    dl_error err;
    CHECK_STATUS(dl_delta_history_read(t.table, 0, &h, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_history_count(h), 4);
    const dl_delta_commit *c3 = dl_delta_history_at(h, 0);
    const dl_delta_commit *c2 = dl_delta_history_at(h, 1);
    const dl_delta_commit *c1 = dl_delta_history_at(h, 2);
    const dl_delta_commit *c0 = dl_delta_history_at(h, 3);
    CHECK_INT_EQ(c3->version, 3);
    CHECK_INT_EQ(c3->commit_info.len, 0);
    CHECK_INT_EQ(c3->operation.len, 0);
    CHECK(str_is(c2->operation, "DELETE"));
    CHECK(str_is(c2->notebook, "{\"notebookId\":\"7\"}"));
    CHECK(str_is(c1->operation, "WRITE"));
    CHECK(c1->has_read_version && c1->read_version == 0);
    CHECK(str_is(c1->user_metadata, "hi"));
    CHECK(str_is(c1->operation_parameters, "{\"mode\":\"Append\"}"));
    CHECK(str_is(c1->operation_metrics, "{\"numFiles\":\"1\"}"));
    CHECK(str_is(c1->user_name, "ann"));
    CHECK(str_is(c1->isolation_level, "Serializable"));
    CHECK(c1->has_is_blind_append && c1->is_blind_append);
    CHECK(str_is(c1->engine_info, "x/1"));
    CHECK(str_is(c1->txn_id, "t-1"));
    CHECK(c1->has_info_timestamp && c1->info_timestamp == 99);
    CHECK(str_is(c0->operation, "CREATE TABLE"));
    CHECK(!c0->has_read_version);
    dl_delta_history_free(h);
    CHECK_STATUS(dl_delta_history_read(t.table, 2, &h, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_history_count(h), 2);
    CHECK_INT_EQ(dl_delta_history_at(h, 1)->version, 2);
    dl_delta_history_free(h);
    tl_table_free(&t);
}

TEST(test_history_timestamps_are_file_times_made_monotonic) {
    tl_table t;
    CHECK(tl_table_new(&t));
    static const int64_t mtimes[] = {1000, 5000, 4000, 4000, 9000};
    for (int v = 0; v < 5; v++) {
        CHECK(tl_commit(&t, v, v == 0 ? HEADER : CI("WRITE", "")));
        char name[64];
        (void)snprintf(name, sizeof(name), "%020d.json", v);
        CHECK(tl_set_mtime(&t, name, mtimes[v]));
    }
    dl_delta_history *h = NULL;
    dl_error err;
    CHECK_STATUS(dl_delta_history_read(t.table, 0, &h, &err), DL_OK, &err);
    static const int64_t want[] = {9000, 5002, 5001, 5000, 1000};
    for (size_t i = 0; i < 5; i++) {
        CHECK_INT_EQ(dl_delta_history_at(h, i)->timestamp_ms, want[i]);
        CHECK(!dl_delta_history_at(h, i)->is_ict);
    }
    dl_delta_history_free(h);
    /* With a limit, only the commits listed are made monotonic (as Spark's getHistory). */
    CHECK_STATUS(dl_delta_history_read(t.table, 3, &h, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_history_at(h, 2)->timestamp_ms, 4000);
    CHECK_INT_EQ(dl_delta_history_at(h, 1)->timestamp_ms, 4001);
    dl_delta_history_free(h);
    tl_table_free(&t);
}

#define ICT_PROTOCOL                                                                   \
    "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":7,\"writerFeatures\":" \
    "[\"inCommitTimestamp\"]}}"
#define ICT_METADATA                                                  \
    TL_METADATA(TL_SCHEMA_ID_LONG, "[]",                              \
                "{\"delta.enableInCommitTimestamps\":\"true\","       \
                "\"delta.inCommitTimestampEnablementVersion\":\"2\"," \
                "\"delta.inCommitTimestampEnablementTimestamp\":\"50000\"}")

TEST(test_history_uses_in_commit_timestamps_from_the_enablement_version) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, HEADER));
    CHECK(tl_commit(&t, 1, CI("WRITE", "")));
    CHECK(tl_commit(
        &t, 2,
        "{\"commitInfo\":{\"inCommitTimestamp\":50000,\"operation\":\"SET TBLPROPERTIES\"}}"
        "\n" ICT_PROTOCOL "\n" ICT_METADATA "\n"));
    CHECK(tl_commit(&t, 3, "{\"commitInfo\":{\"inCommitTimestamp\":60000}}\n"));
    CHECK(tl_set_mtime(&t, "00000000000000000000.json", 7000));
    CHECK(tl_set_mtime(&t, "00000000000000000001.json", 3000));
    CHECK(tl_set_mtime(&t, "00000000000000000002.json", 1));
    CHECK(tl_set_mtime(&t, "00000000000000000003.json", 1));
    dl_delta_history *h = NULL;
    dl_error err;
    CHECK_STATUS(dl_delta_history_read(t.table, 0, &h, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_history_at(h, 0)->timestamp_ms, 60000);
    CHECK(dl_delta_history_at(h, 0)->is_ict);
    CHECK_INT_EQ(dl_delta_history_at(h, 1)->timestamp_ms, 50000);
    CHECK_INT_EQ(dl_delta_history_at(h, 2)->timestamp_ms, 7001);
    CHECK(!dl_delta_history_at(h, 2)->is_ict);
    CHECK_INT_EQ(dl_delta_history_at(h, 3)->timestamp_ms, 7000);
    dl_delta_history_free(h);
    tl_table_free(&t);
}

TEST(test_history_of_a_bad_commit_info_names_the_file_and_line) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, HEADER));
    CHECK(tl_commit(&t, 1, TL_ADD("a") "\n{\"commitInfo\":{\"operation\":}\n"));
    dl_delta_history *h = NULL;
    dl_error err;
    CHECK_STATUS(dl_delta_history_read(t.table, 0, &h, &err), DL_ERR_CORRUPT, &err);
    CHECK(strstr(err.msg, "_delta_log/00000000000000000001.json: line 2") != NULL);
    CHECK(h == NULL);
    tl_table_free(&t);
}

TEST(test_history_of_a_folder_without_commits_is_not_found) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_delta_history *h = NULL;
    dl_error err;
    CHECK_STATUS(dl_delta_history_read(t.table, 0, &h, &err), DL_ERR_NOT_FOUND, &err);
    CHECK(strstr(err.msg, "not a Delta table") != NULL);
    tl_table_free(&t);
}

/* What the iterator yielded: position, kind and (for adds) the file fields. */
typedef struct seen_action {
    int64_t version;
    int64_t line;
    dl_delta_action_kind kind;
    bool is_add_right; /* an add with the expected path, size, dataChange and stats */
} seen_action;

static dl_status
collect(dl_delta_log_iter *it, seen_action *out, size_t cap, size_t *out_n, dl_error *err) {
    *out_n = 0;
    for (;;) {
        dl_delta_log_entry e;
        bool has;
        DL_TRY(dl_delta_log_iter_next(it, &e, &has, err));
        if (!has || *out_n == cap) {
            return DL_OK;
        }
        const dl_delta_file_action *f = &e.action->file;
        out[*out_n] =
            (seen_action){.version = e.version,
                          .line = e.line,
                          .kind = e.action->kind,
                          .is_add_right = e.action->kind == DL_DELTA_ACTION_ADD && f->size == 10 &&
                                          f->data_change &&
                                          str_is(dl_json_val_str(f->stats), "{\"numRecords\":5}")};
        (*out_n)++;
    }
}

TEST(test_log_iterator_yields_every_action_in_order) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, CI("CREATE TABLE", "") HEADER));
    CHECK(tl_commit(&t, 1, TL_ADD("a%20b") "\n{\"future\":{\"x\":1}}\n\n" TL_REMOVE("c") "\n"));
    CHECK(tl_commit(&t, 2, TL_ADD("d") "\n"));
    dl_delta_log_iter *it = NULL;
    dl_error err;
    CHECK_STATUS(dl_delta_log_iter_new(t.table, 0, -1, &it, &err), DL_OK, &err);
    static const seen_action want[] = {
        {0, 1, DL_DELTA_ACTION_COMMIT_INFO, false}, {0, 2, DL_DELTA_ACTION_PROTOCOL, false},
        {0, 3, DL_DELTA_ACTION_METADATA, false},    {1, 1, DL_DELTA_ACTION_ADD, true},
        {1, 4, DL_DELTA_ACTION_REMOVE, false},      {2, 1, DL_DELTA_ACTION_ADD, true}};
    seen_action got[16];
    size_t n;
    dl_status st = collect(it, got, 16, &n, &err);
    dl_delta_log_iter_free(it);
    CHECK_STATUS(st, DL_OK, &err);
    CHECK_INT_EQ(n, DL_ARRAY_LEN(want));
    for (size_t i = 0; i < n; i++) {
        CHECK_INT_EQ(got[i].version, want[i].version);
        CHECK_INT_EQ(got[i].line, want[i].line);
        CHECK_INT_EQ(got[i].kind, want[i].kind);
        CHECK_INT_EQ(got[i].is_add_right, want[i].is_add_right);
    }
    /* A range: only version 1. */
    CHECK_STATUS(dl_delta_log_iter_new(t.table, 1, 1, &it, &err), DL_OK, &err);
    st = collect(it, got, 16, &n, &err);
    dl_delta_log_iter_free(it);
    CHECK_STATUS(st, DL_OK, &err);
    CHECK_INT_EQ(n, 2);
    CHECK(got[0].version == 1 && got[1].version == 1);
    tl_table_free(&t);
}

TEST(test_log_iterator_reports_a_bad_line_with_file_and_line) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, HEADER));
    CHECK(tl_commit(&t, 1, TL_ADD("a") "\n[1,2]\n"));
    dl_delta_log_iter *it = NULL;
    dl_error err;
    CHECK_STATUS(dl_delta_log_iter_new(t.table, 0, -1, &it, &err), DL_OK, &err);
    dl_delta_log_entry e;
    bool has = true;
    dl_status st = DL_OK;
    while (has && st == DL_OK) {
        st = dl_delta_log_iter_next(it, &e, &has, &err);
    }
    dl_delta_log_iter_free(it);
    CHECK_INT_EQ(st, DL_ERR_CORRUPT);
    CHECK(strstr(err.msg, "_delta_log/00000000000000000001.json: line 2") != NULL);
    CHECK(strstr(err.msg, "must be a JSON object") != NULL);
    tl_table_free(&t);
}

int
main(void) {
    RUN(test_history_lists_commits_newest_first_with_their_commit_info);
    RUN(test_history_timestamps_are_file_times_made_monotonic);
    RUN(test_history_uses_in_commit_timestamps_from_the_enablement_version);
    RUN(test_history_of_a_bad_commit_info_names_the_file_and_line);
    RUN(test_history_of_a_folder_without_commits_is_not_found);
    RUN(test_log_iterator_yields_every_action_in_order);
    RUN(test_log_iterator_reports_a_bad_line_with_file_and_line);
    return harness_finish();
}
