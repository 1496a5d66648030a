/* SPDX-License-Identifier: Apache-2.0 */
/* Log file names, listings and segments (delta_segment.c). */
#include <unistd.h>

#include "delta/delta_int.h"
#include "harness.h"
#include "test_delta_log_util.h"

static bool
name_is(const char *name, dl_delta_log_kind kind, int64_t version) {
    dl_delta_log_file f;
    return dl_delta_log_name_parse(dl_str_from_cstr(name), &f) && f.kind == kind &&
           f.version == version;
}

TEST(test_log_file_names) {
    CHECK(name_is("00000000000000000010.json", DL_DELTA_LOG_COMMIT, 10));
    CHECK(name_is("7.json", DL_DELTA_LOG_COMMIT, 7));
    CHECK(name_is("00000000000000000010.crc", DL_DELTA_LOG_CRC, 10));
    CHECK(name_is("00000000000000000010.checkpoint.parquet", DL_DELTA_LOG_CHECKPOINT, 10));
    dl_delta_log_file f;
    CHECK(dl_delta_log_name_parse(DL_STR("00000000000000000010.checkpoint.0000000002.0000000003."
                                         "parquet"),
                                  &f));
    CHECK_INT_EQ(f.kind, DL_DELTA_LOG_CHECKPOINT_PART);
    CHECK_INT_EQ(f.part, 2);
    CHECK_INT_EQ(f.n_parts, 3);
    CHECK(dl_delta_log_name_parse(DL_STR("00000000000000000002.checkpoint.80a083e8-7026-4e79-81be-"
                                         "64bd76c43a11.json"),
                                  &f));
    CHECK_INT_EQ(f.kind, DL_DELTA_LOG_CHECKPOINT_V2);
    CHECK(f.is_json);
    CHECK(dl_delta_log_name_parse(DL_STR("00000000000000000002.checkpoint.abc.parquet"), &f));
    CHECK(!f.is_json);
    CHECK(dl_delta_log_name_parse(
        DL_STR("00000000000000000004.00000000000000000006.compacted.json"), &f));
    CHECK_INT_EQ(f.kind, DL_DELTA_LOG_COMPACTED);
    CHECK_INT_EQ(f.end_version, 6);
    static const char *const junk[] = {
        "_last_checkpoint",
        "._00000000000000000000.json",
        ".00000000000000000000.json.crc",
        "00000000000000000000.json.tmp",
        "0000000000000000000a.json",
        "00000000000000000006.00000000000000000004.compacted.json",
        "00000000000000000010.checkpoint.0000000004.0000000003.parquet",
        "00000000000000000010.checkpoint.json",
        "99999999999999999999.json",
        ".json",
        "json"};
    for (size_t i = 0; i < DL_ARRAY_LEN(junk); i++) {
        if (dl_delta_log_name_parse(dl_str_from_cstr(junk[i]), &f)) {
            HARNESS_FAIL_AT("'%s' parsed as a log file", junk[i]);
            return;
        }
    }
}

/* Writes commits 0..n-1 with a protocol and metadata in commit 0. */
static bool
write_commits(tl_table *t, int64_t from, int64_t to) {
    for (int64_t v = from; v <= to; v++) {
        bool ok = v == 0 ? tl_commit(t, 0, TL_PROTOCOL_1_2 "\n" TL_METADATA_ID_LONG "\n")
                         : tl_commit(t, v, "{\"commitInfo\":{}}\n");
        if (!ok) {
            return false;
        }
    }
    return true;
}

typedef struct fixture {
    tl_table t;
    dl_arena arena;
    dl_delta_log_list list;
} fixture;

static bool
list_log(fixture *f, dl_error *err) {
    dl_arena_reset(&f->arena);
    return dl_delta_log_list_read(f->t.table, -1, &f->arena, &f->list, err) == DL_OK;
}

TEST(test_listing_sorts_and_classifies) {
    fixture f;
    CHECK(tl_table_new(&f.t));
    dl_arena_init(&f.arena, NULL, 0);
    dl_error err;
    bool ok = write_commits(&f.t, 0, 3) && tl_write(&f.t, "00000000000000000002.crc", "{}") &&
              tl_write(&f.t, "00000000000000000002.checkpoint.parquet", "PAR1") &&
              tl_write(&f.t, "_last_checkpoint", "{\"version\":2}") &&
              tl_write(&f.t, "notes.txt", "x") && list_log(&f, &err);
    CHECK(ok);
    CHECK_INT_EQ(f.list.n_commits, 4);
    CHECK_INT_EQ(f.list.n_checkpoints, 1);
    CHECK_INT_EQ(f.list.n_crcs, 1);
    CHECK_INT_EQ(f.list.commits[3].version, 3);
    CHECK_INT_EQ(dl_delta_log_latest_version(&f.list), 3);
    int64_t hint;
    CHECK_OK(dl_delta_last_checkpoint_version(f.t.table, &hint, &err), &err);
    CHECK_INT_EQ(hint, 2);
    dl_delta_log_list from;
    CHECK_OK(dl_delta_log_list_read(f.t.table, 2, &f.arena, &from, &err), &err);
    CHECK_INT_EQ(from.n_commits, 2); /* 2 and 3 */
    CHECK_INT_EQ(from.n_checkpoints, 1);
    CHECK(!from.is_from_start);
    dl_arena_destroy(&f.arena);
    tl_table_free(&f.t);
}

TEST(test_corrupt_last_checkpoint_is_only_a_missed_hint) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_write(&t, "_last_checkpoint", "{\"version\":"));
    int64_t hint = 5;
    dl_error err;
    CHECK_OK(dl_delta_last_checkpoint_version(t.table, &hint, &err), &err);
    CHECK_INT_EQ(hint, -1);
    tl_table_free(&t);
}

TEST(test_segment_from_commits_and_checkpoints) {
    fixture f;
    CHECK(tl_table_new(&f.t));
    dl_arena_init(&f.arena, NULL, 0);
    dl_error err;
    dl_delta_segment seg;
    CHECK(write_commits(&f.t, 0, 5));
    CHECK(tl_write(&f.t, "00000000000000000003.checkpoint.parquet", "PAR1"));
    CHECK(list_log(&f, &err));
    /* A Parquet checkpoint this build cannot read: the commits from 0 do. */
    CHECK_OK(dl_delta_segment_build(&f.list, -1, false, true, &seg, &err), &err);
    CHECK(seg.checkpoint == NULL);
    CHECK_INT_EQ(seg.n_commits, 6);
    CHECK_INT_EQ(seg.version, 5);
    CHECK(seg.version_file && seg.version_file->version == 5);
    /* A reader that can read it starts there. */
    CHECK_OK(dl_delta_segment_build(&f.list, -1, true, true, &seg, &err), &err);
    CHECK(seg.checkpoint && seg.checkpoint->version == 3);
    CHECK_INT_EQ(seg.n_commits, 2);
    CHECK_INT_EQ(seg.commits[0].version, 4);
    /* Time travel below the checkpoint ignores it. */
    CHECK_OK(dl_delta_segment_build(&f.list, 2, true, true, &seg, &err), &err);
    CHECK(seg.checkpoint == NULL);
    CHECK_INT_EQ(seg.n_commits, 3);
    CHECK_STATUS(dl_delta_segment_build(&f.list, 6, true, true, &seg, &err), DL_ERR_NOT_FOUND,
                 &err);
    /* A V2 JSON checkpoint is readable here and preferred to replaying from 0. */
    CHECK(tl_write(
        &f.t, "00000000000000000004.checkpoint.0b5e1c1a-aaaa-bbbb-cccc-000000000000.json", "{}\n"));
    CHECK(list_log(&f, &err));
    CHECK_OK(dl_delta_segment_build(&f.list, -1, false, true, &seg, &err), &err);
    CHECK(seg.checkpoint && seg.checkpoint->version == 4);
    CHECK_INT_EQ(seg.n_commits, 1);
    CHECK_OK(dl_delta_segment_build(&f.list, -1, false, false, &seg, &err), &err);
    CHECK(seg.checkpoint == NULL);
    CHECK_INT_EQ(dl_delta_log_earliest_version(&f.list, false), 0);
    dl_arena_destroy(&f.arena);
    tl_table_free(&f.t);
}

TEST(test_gap_in_versions_names_the_missing_commit) {
    fixture f;
    CHECK(tl_table_new(&f.t));
    dl_arena_init(&f.arena, NULL, 0);
    dl_error err;
    dl_delta_segment seg;
    CHECK(write_commits(&f.t, 0, 4));
    CHECK(tl_remove(&f.t, "00000000000000000002.json"));
    CHECK(list_log(&f, &err));
    CHECK_STATUS(dl_delta_segment_build(&f.list, -1, true, true, &seg, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "versions are not contiguous: ([1, 3, 4])");
    CHECK_ERR_CONTAINS(&err, "00000000000000000002.json is missing");
    /* Below the gap the table still loads. */
    CHECK_OK(dl_delta_segment_build(&f.list, 1, true, true, &seg, &err), &err);
    CHECK_INT_EQ(dl_delta_log_earliest_version(&f.list, true), -1);
    /* A checkpoint after the gap bridges it, when it can be read. */
    CHECK(tl_write(&f.t, "00000000000000000003.checkpoint.parquet", "PAR1"));
    CHECK(list_log(&f, &err));
    CHECK_OK(dl_delta_segment_build(&f.list, -1, true, true, &seg, &err), &err);
    CHECK(seg.checkpoint && seg.checkpoint->version == 3);
    CHECK_INT_EQ(dl_delta_log_earliest_version(&f.list, true), 3);
    CHECK_STATUS(dl_delta_segment_build(&f.list, -1, false, true, &seg, &err), DL_ERR_UNSUPPORTED,
                 &err);
    CHECK_ERR_CONTAINS(&err, "00000000000000000003.checkpoint.parquet");
    dl_arena_destroy(&f.arena);
    tl_table_free(&f.t);
}

TEST(test_missing_first_commit_without_checkpoint) {
    fixture f;
    CHECK(tl_table_new(&f.t));
    dl_arena_init(&f.arena, NULL, 0);
    dl_error err;
    dl_delta_segment seg;
    CHECK(write_commits(&f.t, 0, 2));
    CHECK(tl_remove(&f.t, "00000000000000000000.json"));
    CHECK(list_log(&f, &err));
    CHECK_STATUS(dl_delta_segment_build(&f.list, -1, true, true, &seg, &err), DL_ERR_NOT_FOUND,
                 &err);
    CHECK_ERR_CONTAINS(&err, "00000000000000000000.json is missing");
    dl_arena_destroy(&f.arena);
    tl_table_free(&f.t);
}

TEST(test_incomplete_multi_part_checkpoint_is_ignored) {
    fixture f;
    CHECK(tl_table_new(&f.t));
    dl_arena_init(&f.arena, NULL, 0);
    dl_error err;
    dl_delta_segment seg;
    CHECK(write_commits(&f.t, 0, 5));
    CHECK(tl_write(&f.t, "00000000000000000002.checkpoint.0000000001.0000000002.parquet", "x"));
    CHECK(tl_write(&f.t, "00000000000000000002.checkpoint.0000000002.0000000002.parquet", "x"));
    CHECK(tl_write(&f.t, "00000000000000000004.checkpoint.0000000001.0000000003.parquet", "x"));
    CHECK(tl_write(&f.t, "00000000000000000004.checkpoint.0000000003.0000000003.parquet", "x"));
    CHECK(list_log(&f, &err));
    CHECK_OK(dl_delta_segment_build(&f.list, -1, true, true, &seg, &err), &err);
    CHECK(seg.checkpoint && seg.checkpoint->version == 2);
    CHECK_INT_EQ(seg.n_checkpoint_files, 2);
    CHECK_INT_EQ(seg.n_commits, 3);
    dl_arena_destroy(&f.arena);
    tl_table_free(&f.t);
}

TEST(test_folder_without_log_is_not_a_table) {
    tl_table t;
    CHECK(tl_table_new(&t));
    char log[300];
    (void)snprintf(log, sizeof(log), "%s/_delta_log", t.dir);
    CHECK(rmdir(log) == 0);
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_delta_log_list list;
    dl_error err;
    CHECK_STATUS(dl_delta_log_list_read(t.table, -1, &arena, &list, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "is not a Delta table");
    dl_arena_destroy(&arena);
    tl_table_free(&t);
}

int
main(void) {
    RUN(test_log_file_names);
    RUN(test_listing_sorts_and_classifies);
    RUN(test_corrupt_last_checkpoint_is_only_a_missed_hint);
    RUN(test_segment_from_commits_and_checkpoints);
    RUN(test_gap_in_versions_names_the_missing_commit);
    RUN(test_missing_first_commit_without_checkpoint);
    RUN(test_incomplete_multi_part_checkpoint_is_ignored);
    RUN(test_folder_without_log_is_not_a_table);
    return harness_finish();
}
