/* SPDX-License-Identifier: Apache-2.0 */
/* Snapshots from hand-written logs: reconciliation rules and errors (delta_replay.c,
 * delta_snapshot.c). */
#include "harness.h"
#include "test_delta_log_util.h"

static dl_delta_snapshot *
load(tl_table *t, int64_t version, dl_error *err, dl_status *st) {
    dl_delta_snapshot *s = NULL;
    *st = version < 0 ? dl_delta_snapshot_latest(t->table, NULL, &s, err)
                      : dl_delta_snapshot_at_version(t->table, version, NULL, &s, err);
    return *st == DL_OK ? s : NULL;
}

/* The live file with this path, or NULL. */
static const dl_delta_file *
find_file(const dl_delta_snapshot *s, const char *path, bool is_tombstone) {
    size_t n =
        is_tombstone ? dl_delta_snapshot_tombstone_count(s) : dl_delta_snapshot_file_count(s);
    for (size_t i = 0; i < n; i++) {
        const dl_delta_file *f =
            is_tombstone ? dl_delta_snapshot_tombstone(s, i) : dl_delta_snapshot_file(s, i);
        if (strcmp(f->path.ptr, path) == 0) {
            return f;
        }
    }
    return NULL;
}

#define HEADER TL_PROTOCOL_1_2 "\n" TL_METADATA_ID_LONG "\n"

/* An add of f<n> with numRecords n (two %lld). */
#define TL_ADD_FMT                                                     \
    "{\"add\":{\"path\":\"f%lld\",\"partitionValues\":{},\"size\":10," \
    "\"modificationTime\":1,\"dataChange\":true,\"stats\":\"{\\\"numRecords\\\":%lld}\"}}\n"

TEST(test_add_then_remove_leaves_a_tombstone) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, HEADER TL_ADD("a") "\n" TL_ADD("b") "\n"));
    CHECK(tl_commit(&t, 1, TL_REMOVE("a") "\n"));
    dl_error err;
    dl_status st;
    dl_delta_snapshot *s = load(&t, -1, &err, &st);
    CHECK_OK(st, &err);
    CHECK_INT_EQ(dl_delta_snapshot_version(s), 1);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(s), 1);
    CHECK(find_file(s, "b", false) != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_tombstone_count(s), 1);
    const dl_delta_file *tomb = find_file(s, "a", true);
    CHECK(tomb != NULL);
    CHECK_INT_EQ(tomb->modification_time, 2);
    CHECK_INT_EQ(tomb->version, 1);
    CHECK_INT_EQ(dl_delta_snapshot_total_bytes(s), 10);
    CHECK_INT_EQ(dl_delta_snapshot_commits_read(s), 2);
    dl_delta_snapshot_unref(s);
    /* Version 0 still has both. */
    s = load(&t, 0, &err, &st);
    CHECK_OK(st, &err);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(s), 2);
    CHECK_INT_EQ(dl_delta_snapshot_tombstone_count(s), 0);
    dl_delta_snapshot_unref(s);
    tl_table_free(&t);
}

TEST(test_re_add_after_remove_is_live) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, HEADER TL_ADD("a") "\n"));
    CHECK(tl_commit(&t, 1, TL_REMOVE("a") "\n"));
    CHECK(tl_commit(&t, 2,
                    "{\"add\":{\"path\":\"a\",\"partitionValues\":{},\"size\":77,"
                    "\"modificationTime\":3,\"dataChange\":true}}\n"));
    dl_error err;
    dl_status st;
    dl_delta_snapshot *s = load(&t, -1, &err, &st);
    CHECK_OK(st, &err);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(s), 1);
    const dl_delta_file *f = find_file(s, "a", false);
    CHECK(f != NULL);
    CHECK_INT_EQ(f->size, 77); /* the newest add's fields win */
    CHECK_INT_EQ(f->version, 2);
    CHECK_INT_EQ(f->stats.len, 0);
    CHECK_INT_EQ(f->stats_source, -1);
    CHECK_INT_EQ(dl_delta_snapshot_tombstone_count(s), 0);
    dl_delta_snapshot_unref(s);
    tl_table_free(&t);
}

#define DV_U(id, card)                                                                      \
    "\"deletionVector\":{\"storageType\":\"u\",\"pathOrInlineDv\":\"" id "\",\"offset\":1," \
    "\"sizeInBytes\":40,\"cardinality\":" #card "}"
#define DV1 "ab^-aqEH.-t@S}K{vb[*k^"
#define DV2 "zz^-aqEH.-t@S}K{vb[*k^"

TEST(test_same_path_with_different_dv_ids) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, HEADER TL_ADD("p") "\n"));
    /* DELETE with DVs: remove (p, NULL), add (p, dv1). */
    CHECK(tl_commit(&t, 1,
                    TL_REMOVE("p") "\n{\"add\":{\"path\":\"p\",\"partitionValues\":{},\"size\":10,"
                                   "\"modificationTime\":1,\"dataChange\":true,"
                                   "\"stats\":\"{\\\"numRecords\\\":5}\"," DV_U(DV1, 1) "}}\n"));
    /* Another DELETE: remove (p, dv1), add (p, dv2). */
    CHECK(tl_commit(&t, 2,
                    "{\"remove\":{\"path\":\"p\",\"dataChange\":true," DV_U(
                        DV1, 1) "}}\n"
                                "{\"add\":{\"path\":\"p\",\"partitionValues\":{},\"size\":10,"
                                "\"modificationTime\":1,\"dataChange\":true," DV_U(DV2, 3) "}}\n"));
    dl_error err;
    dl_status st;
    dl_delta_snapshot *s = load(&t, -1, &err, &st);
    CHECK_OK(st, &err);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(s), 1);
    const dl_delta_file *f = dl_delta_snapshot_file(s, 0);
    CHECK(f->dv != NULL);
    CHECK_INT_EQ(f->dv->cardinality, 3);
    CHECK(dl_str_eq_cstr(f->dv->path_or_inline_dv, DV2));
    CHECK(dl_str_eq_cstr(f->path, "p"));
    CHECK_INT_EQ(f->path.len, 1);
    /* Two tombstones: (p, NULL) and (p, dv1). */
    CHECK_INT_EQ(dl_delta_snapshot_tombstone_count(s), 2);
    dl_delta_snapshot_unref(s);
    s = load(&t, 1, &err, &st);
    CHECK_OK(st, &err);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(s), 1);
    CHECK_INT_EQ(dl_delta_snapshot_file(s, 0)->dv->cardinality, 1);
    dl_delta_snapshot_unref(s);
    tl_table_free(&t);
}

TEST(test_txn_latest_per_app_id) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0,
                    HEADER "{\"txn\":{\"appId\":\"a\",\"version\":1}}\n"
                           "{\"txn\":{\"appId\":\"b\",\"version\":10,\"lastUpdated\":5}}\n"));
    CHECK(tl_commit(&t, 1, "{\"txn\":{\"appId\":\"a\",\"version\":2}}\n"));
    CHECK(tl_commit(&t, 2, "{\"txn\":{\"appId\":\"b\",\"version\":3}}\n")); /* may go down */
    dl_error err;
    dl_status st;
    dl_delta_snapshot *s = load(&t, -1, &err, &st);
    CHECK_OK(st, &err);
    int64_t v;
    CHECK_INT_EQ(dl_delta_snapshot_txn_count(s), 2);
    CHECK(dl_delta_snapshot_txn_version(s, "a", &v));
    CHECK_INT_EQ(v, 2);
    CHECK(dl_delta_snapshot_txn_version(s, "b", &v));
    CHECK_INT_EQ(v, 3);
    CHECK(!dl_delta_snapshot_txn_version(s, "c", &v));
    dl_delta_snapshot_unref(s);
    s = load(&t, 0, &err, &st);
    CHECK_OK(st, &err);
    CHECK(dl_delta_snapshot_txn_version(s, "b", &v));
    CHECK_INT_EQ(v, 10);
    dl_delta_snapshot_unref(s);
    tl_table_free(&t);
}

TEST(test_protocol_and_metadata_newest_wins) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, HEADER));
    CHECK(tl_commit(&t, 1,
                    "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,"
                    "\"readerFeatures\":[\"deletionVectors\"],\"writerFeatures\":"
                    "[\"deletionVectors\"]}}\n" TL_METADATA(
                        "{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[{\\\"name\\\":\\\"x\\\","
                        "\\\"type\\\":\\\"string\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}}]}",
                        "[]", "{\"delta.enableDeletionVectors\":\"true\"}") "\n"));
    dl_error err;
    dl_status st;
    dl_delta_snapshot *s = load(&t, -1, &err, &st);
    CHECK_OK(st, &err);
    CHECK_INT_EQ(dl_delta_snapshot_protocol(s)->min_reader_version, 3);
    CHECK_STR_EQ(dl_delta_snapshot_protocol(s)->reader_features[0], "deletionVectors");
    CHECK_STR_EQ(dl_delta_snapshot_schema(s)->fields[0].name, "x");
    CHECK_STR_EQ(
        dl_delta_metadata_config(dl_delta_snapshot_metadata(s), "delta.enableDeletionVectors"),
        "true");
    dl_delta_snapshot_unref(s);
    s = load(&t, 0, &err, &st);
    CHECK_OK(st, &err);
    CHECK_INT_EQ(dl_delta_snapshot_protocol(s)->min_reader_version, 1);
    CHECK_STR_EQ(dl_delta_snapshot_schema(s)->fields[0].name, "id");
    dl_delta_snapshot_unref(s);
    tl_table_free(&t);
}

TEST(test_domain_metadata_tombstones_hide_older_domains) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0,
                    HEADER "{\"domainMetadata\":{\"domain\":\"a\",\"configuration\":\"1\","
                           "\"removed\":false}}\n{\"domainMetadata\":{\"domain\":\"b\","
                           "\"configuration\":\"2\",\"removed\":false}}\n"));
    CHECK(tl_commit(&t, 1,
                    "{\"domainMetadata\":{\"domain\":\"a\",\"configuration\":\"1\","
                    "\"removed\":true}}\n{\"domainMetadata\":{\"domain\":\"b\","
                    "\"configuration\":\"3\",\"removed\":false}}\n"));
    dl_error err;
    dl_status st;
    dl_delta_snapshot *s = load(&t, -1, &err, &st);
    CHECK_OK(st, &err);
    CHECK_INT_EQ(dl_delta_snapshot_domain_count(s), 1);
    CHECK(dl_delta_snapshot_domain_config(s, "a") == NULL);
    CHECK_STR_EQ(dl_delta_snapshot_domain_config(s, "b"), "3");
    dl_delta_snapshot_unref(s);
    tl_table_free(&t);
}

TEST(test_paths_match_after_url_decoding) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, HEADER TL_ADD("a%20b.parquet") "\n" TL_ADD("/abs/x%23y") "\n"));
    CHECK(tl_commit(&t, 1, TL_REMOVE("a b.parquet") "\n" TL_REMOVE("file:///abs/x%23y") "\n"));
    dl_error err;
    dl_status st;
    dl_delta_snapshot *s = load(&t, -1, &err, &st);
    CHECK_OK(st, &err);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(s), 0);
    CHECK_INT_EQ(dl_delta_snapshot_tombstone_count(s), 2);
    const dl_delta_file *abs = find_file(s, "/abs/x#y", true);
    CHECK(abs && (abs->flags & DL_DELTA_FILE_ABSOLUTE));
    dl_delta_snapshot_unref(s);
    s = load(&t, 0, &err, &st);
    CHECK_OK(st, &err);
    CHECK(find_file(s, "a b.parquet", false) != NULL);
    dl_delta_snapshot_unref(s);
    tl_table_free(&t);
}

#define PART_SCHEMA                                                                                   \
    "{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":["                                                   \
    "{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"long\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}},"  \
    "{\\\"name\\\":\\\"d\\\",\\\"type\\\":\\\"date\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}},"   \
    "{\\\"name\\\":\\\"s\\\",\\\"type\\\":\\\"string\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}}," \
    "{\\\"name\\\":\\\"m\\\",\\\"type\\\":\\\"decimal(5,2)\\\",\\\"nullable\\\":true,"                \
    "\\\"metadata\\\":{}}]}"
#define PADD(path, pv)                                                       \
    "{\"add\":{\"path\":\"" path "\",\"partitionValues\":" pv ",\"size\":1," \
    "\"modificationTime\":1,\"dataChange\":true}}\n"

TEST(test_partition_values_are_typed) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0,
                    TL_PROTOCOL_1_2
                    "\n" TL_METADATA(PART_SCHEMA, "[\"d\",\"s\",\"m\"]", "{}") "\n" PADD(
                        "f1", "{\"d\":\"2021-09-08\",\"s\":\"x y\",\"m\":\"-1.5\"}")
                        PADD("f2", "{\"d\":null,\"s\":\"\",\"m\":\"__HIVE_DEFAULT_PARTITION__\"}")
                            PADD("f3", "{\"d\":\"2021-09-08\",\"s\":\"x y\",\"m\":\"-1.5\"}")));
    dl_error err;
    dl_status st;
    dl_delta_snapshot *s = load(&t, -1, &err, &st);
    CHECK_OK(st, &err);
    CHECK_INT_EQ(dl_delta_snapshot_partition_count(s), 3);
    CHECK_STR_EQ(dl_delta_snapshot_partition_field(s, 1)->name, "s");
    const dl_delta_file *f1 = find_file(s, "f1", false);
    const dl_delta_file *f2 = find_file(s, "f2", false);
    const dl_delta_file *f3 = find_file(s, "f3", false);
    CHECK(f1 && f2 && f3);
    CHECK(f1->partition == f3->partition); /* interned once */
    const dl_delta_value *v = f1->partition->values;
    CHECK_INT_EQ(v[0].type_id, DL_VEC_TYPE_DATE);
    CHECK_INT_EQ(v[0].u.i64, 18878);
    CHECK(dl_str_eq_cstr(v[1].u.str, "x y"));
    CHECK(v[2].u.dec == -150);
    for (int i = 0; i < 3; i++) {
        CHECK(f2->partition->values[i].is_null);
    }
    dl_delta_snapshot_unref(s);
    tl_table_free(&t);
}

TEST(test_bad_partition_value_is_corrupt) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0,
                    TL_PROTOCOL_1_2 "\n" TL_METADATA(PART_SCHEMA, "[\"d\"]", "{}") "\n" PADD(
                        "f1", "{\"d\":\"yesterday\"}")));
    dl_error err;
    dl_status st;
    CHECK(load(&t, -1, &err, &st) == NULL);
    CHECK_INT_EQ(st, DL_ERR_CORRUPT);
    CHECK_ERR_CONTAINS(&err, "column 'd'");
    CHECK_ERR_CONTAINS(&err, "yesterday");
    tl_table_free(&t);
}

TEST(test_stats_are_parsed_lazily) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0,
                    HEADER "{\"add\":{\"path\":\"f\",\"partitionValues\":{},\"size\":1,"
                           "\"modificationTime\":1,\"dataChange\":true,\"stats\":"
                           "\"{\\\"numRecords\\\":7,\\\"minValues\\\":{\\\"id\\\":-3},"
                           "\\\"maxValues\\\":{\\\"id\\\":90},\\\"nullCount\\\":{\\\"id\\\":1},"
                           "\\\"tightBounds\\\":false}\"}}\n"
                           "{\"add\":{\"path\":\"g\",\"partitionValues\":{},\"size\":1,"
                           "\"modificationTime\":1,\"dataChange\":true,\"stats\":\"{oops\"}}\n"));
    dl_error err;
    dl_status st;
    dl_delta_snapshot *s = load(&t, -1, &err, &st);
    CHECK_OK(st, &err); /* a bad stats string does not stop the snapshot */
    dl_delta_stats_reader rd;
    dl_delta_stats_reader_init(&rd, NULL);
    dl_delta_stats stats;
    bool has;
    const dl_delta_file *f = find_file(s, "f", false);
    CHECK(f->stats.len == 0 && f->stats_source >= 0); /* located, not copied */
    CHECK_OK(dl_delta_file_stats(s, f, &rd, &stats, &has, &err), &err);
    CHECK(has);
    CHECK_INT_EQ(stats.num_records, 7);
    CHECK(!stats.tight_bounds);
    const char *path[] = {"id"};
    dl_delta_value v;
    bool found;
    CHECK_OK(dl_delta_stats_get(&stats, DL_DELTA_STAT_MAX, path, 1,
                                dl_vec_type_prim(DL_VEC_TYPE_LONG), &v, &found, &err),
             &err);
    CHECK(found);
    CHECK_INT_EQ(v.u.i64, 90);
    CHECK_STATUS(dl_delta_file_stats(s, find_file(s, "g", false), &rd, &stats, &has, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "file 'g': stats");
    dl_delta_snapshot_unref(s);
    /* The same, with the stats text kept in memory. */
    dl_delta_snapshot_options opts = {.is_stats_in_memory = true};
    CHECK_OK(dl_delta_snapshot_latest(t.table, &opts, &s, &err), &err);
    f = find_file(s, "f", false);
    CHECK(f->stats.len > 0 && f->stats_source == -1);
    CHECK_OK(dl_delta_file_stats(s, f, &rd, &stats, &has, &err), &err);
    CHECK_INT_EQ(stats.num_records, 7);
    dl_delta_snapshot_unref(s);
    /* And without stats. */
    opts = (dl_delta_snapshot_options){.is_without_stats = true};
    CHECK_OK(dl_delta_snapshot_latest(t.table, &opts, &s, &err), &err);
    CHECK_OK(dl_delta_file_stats(s, find_file(s, "f", false), &rd, &stats, &has, &err), &err);
    CHECK(!has);
    dl_delta_snapshot_unref(s);
    dl_delta_stats_reader_destroy(&rd);
    tl_table_free(&t);
}

/* 150 commits: enough for the replay to read them ahead on a helper thread (delta_replay.c,
 * "reading commits ahead"). Commit v adds f<v> and, when odd, removes f<v-1>, so which files
 * are live depends on the commits being replayed newest first; stats stay located in the
 * commit files read ahead. */
static bool
write_many_commits(tl_table *t, int64_t n) {
    char text[512];
    for (int64_t v = 0; v < n; v++) {
        int len = snprintf(text, sizeof(text), "%s" TL_ADD_FMT, v == 0 ? HEADER : "", (long long)v,
                           (long long)v);
        if (v % 2 == 1) {
            (void)snprintf(text + len, sizeof(text) - (size_t)len,
                           "{\"remove\":{\"path\":\"f%lld\",\"deletionTimestamp\":2,"
                           "\"dataChange\":true}}\n",
                           (long long)(v - 1));
        }
        if (!tl_commit(t, v, text)) {
            return false;
        }
    }
    return true;
}

TEST(test_many_commits_replay_in_order_when_read_ahead) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(write_many_commits(&t, 150));
    CHECK(tl_open(&t));
    dl_error err;
    dl_status st;
    dl_delta_snapshot *s = load(&t, -1, &err, &st);
    CHECK_OK(st, &err);
    CHECK_INT_EQ(dl_delta_snapshot_commits_read(s), 150);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(s), 75); /* f1, f3, ..., f149 */
    CHECK_INT_EQ(dl_delta_snapshot_tombstone_count(s), 75);
    CHECK(find_file(s, "f149", false) != NULL);
    CHECK(find_file(s, "f148", true) != NULL);
    const dl_delta_file *f = find_file(s, "f77", false);
    CHECK(f != NULL);
    CHECK_INT_EQ(f->version, 77);
    dl_delta_stats_reader rd;
    dl_delta_stats_reader_init(&rd, NULL);
    dl_delta_stats stats;
    bool has = false;
    st = dl_delta_file_stats(s, f, &rd, &stats, &has, &err);
    dl_delta_stats_reader_destroy(&rd);
    CHECK_OK(st, &err);
    CHECK(has);
    CHECK_INT_EQ(stats.num_records, 77);
    dl_delta_snapshot_unref(s);
    tl_table_free(&t);
}

TEST(test_corrupt_commit_read_ahead_names_the_file) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(write_many_commits(&t, 120));
    CHECK(tl_commit(&t, 40, "{\"add\":{\"path\":\"a\" \"size\":1}}\n"));
    CHECK(tl_open(&t));
    dl_error err;
    dl_status st;
    CHECK(load(&t, -1, &err, &st) == NULL);
    CHECK_INT_EQ(st, DL_ERR_CORRUPT);
    CHECK_ERR_CONTAINS(&err, "_delta_log/00000000000000000040.json: line 1");
    tl_table_free(&t);
}

TEST(test_unknown_reader_feature_refuses_the_table) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0,
                    "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,"
                    "\"readerFeatures\":[\"teleportation\"],\"writerFeatures\":"
                    "[\"teleportation\"]}}\n" TL_METADATA_ID_LONG "\n"
                    "{\"add\":{\"path\":\"x\",\"teleport\":true}}\n"));
    dl_error err;
    dl_status st;
    CHECK(load(&t, -1, &err, &st) == NULL);
    CHECK_INT_EQ(st, DL_ERR_UNSUPPORTED);
    CHECK_ERR_CONTAINS(&err, "teleportation");
    tl_table_free(&t);
}

TEST(test_corrupt_commit_names_file_line_and_byte) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, HEADER));
    CHECK(tl_commit(&t, 1, "{\"commitInfo\":{}}\n{\"add\":{\"path\":\"a\" \"size\":1}}\n"));
    dl_error err;
    dl_status st;
    CHECK(load(&t, -1, &err, &st) == NULL);
    CHECK_INT_EQ(st, DL_ERR_CORRUPT);
    CHECK_ERR_CONTAINS(&err, "_delta_log/00000000000000000001.json: line 2, byte 37");
    CHECK_INT_EQ(err.offset, 37);
    tl_table_free(&t);
}

/* A 0-byte commit (a crash or a full disk lost its contents) is corrupt, named, for the
 * snapshot and the history; the versions before it still load. It read as an empty commit,
 * and writes continued on top of it. */
TEST(test_empty_commit_is_corrupt_and_named) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, HEADER));
    CHECK(tl_commit(&t, 1, "{\"commitInfo\":{}}\n" TL_ADD("a") "\n"));
    CHECK(tl_commit(&t, 2, ""));
    dl_error err;
    dl_status st;
    CHECK(load(&t, -1, &err, &st) == NULL);
    CHECK_INT_EQ(st, DL_ERR_CORRUPT);
    CHECK_ERR_CONTAINS(&err, "commit _delta_log/00000000000000000002.json is empty (0 bytes)");
    CHECK(strstr(err.hint, "restore the file from a backup") != NULL);
    dl_delta_snapshot *snap = load(&t, 1, &err, &st);
    CHECK(snap != NULL);
    dl_delta_snapshot_unref(snap);
    dl_delta_history *h = NULL;
    CHECK_STATUS(dl_delta_history_read(t.table, -1, &h, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "00000000000000000002.json is empty");
    /* Blank lines only: no action either. */
    CHECK(tl_commit(&t, 2, "\n \n"));
    CHECK(tl_open(&t));
    CHECK(load(&t, -1, &err, &st) == NULL);
    CHECK_INT_EQ(st, DL_ERR_CORRUPT);
    CHECK_ERR_CONTAINS(&err, "_delta_log/00000000000000000002.json: the file holds no actions");
    tl_table_free(&t);
}

TEST(test_gap_names_the_missing_version) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, HEADER));
    CHECK(tl_commit(&t, 2, "{\"commitInfo\":{}}\n"));
    dl_error err;
    dl_status st;
    CHECK(load(&t, -1, &err, &st) == NULL);
    CHECK_INT_EQ(st, DL_ERR_CORRUPT);
    CHECK_ERR_CONTAINS(&err, "versions are not contiguous: ([0, 2])");
    CHECK_ERR_CONTAINS(&err, "00000000000000000001.json is missing");
    tl_table_free(&t);
}

TEST(test_missing_protocol_or_metadata_is_corrupt) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, TL_METADATA_ID_LONG "\n"));
    dl_error err;
    dl_status st;
    CHECK(load(&t, -1, &err, &st) == NULL);
    CHECK_INT_EQ(st, DL_ERR_CORRUPT);
    CHECK_ERR_CONTAINS(&err, "No protocol found");
    CHECK(tl_commit(&t, 0, TL_PROTOCOL_1_2 "\n"));
    CHECK(load(&t, -1, &err, &st) == NULL);
    CHECK_ERR_CONTAINS(&err, "No metadata found");
    tl_table_free(&t);
}

TEST(test_not_a_table) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_error err;
    dl_status st;
    CHECK(load(&t, -1, &err, &st) == NULL);
    CHECK_INT_EQ(st, DL_ERR_NOT_FOUND);
    CHECK_ERR_CONTAINS(&err, "is not a Delta table");
    tl_table_free(&t);
}

TEST(test_version_out_of_range_names_available_versions) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, HEADER));
    CHECK(tl_commit(&t, 1, "{\"commitInfo\":{\"operation\":\"X\"}}\n"));
    dl_error err;
    dl_status st;
    CHECK(load(&t, 5, &err, &st) == NULL);
    CHECK_INT_EQ(st, DL_ERR_NOT_FOUND);
    CHECK_STR_EQ(err.msg, "[DELTA_VERSION_NOT_FOUND] Cannot time travel Delta table to version 5. "
                          "Available versions: [0, 1].");
    CHECK(dl_delta_snapshot_at_version(t.table, -2, NULL, &(dl_delta_snapshot *){NULL}, &err) ==
          DL_ERR_NOT_FOUND);
    dl_delta_snapshot *s = load(&t, 1, &err, &st);
    CHECK_OK(st, &err);
    CHECK(dl_str_eq_cstr(dl_delta_snapshot_commit_info(s), "{\"operation\":\"X\"}"));
    dl_delta_snapshot_unref(s);
    tl_table_free(&t);
}

TEST(test_metadata_only_load_stops_early) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, HEADER TL_ADD("a") "\n"));
    CHECK(tl_commit(&t, 1, TL_PROTOCOL_1_2 "\n" TL_METADATA_ID_LONG "\n" TL_ADD("b") "\n"));
    CHECK(tl_commit(&t, 2, TL_ADD("c") "\n"));
    dl_delta_snapshot_options opts = {.is_metadata_only = true};
    dl_delta_snapshot *s = NULL;
    dl_error err;
    CHECK_OK(dl_delta_snapshot_latest(t.table, &opts, &s, &err), &err);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(s), 0);
    CHECK_INT_EQ(dl_delta_snapshot_commits_read(s), 2);
    dl_delta_snapshot_unref(s);
    tl_table_free(&t);
}

TEST(test_v2_json_checkpoint_is_read) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, HEADER TL_ADD("old") "\n"));
    CHECK(tl_commit(&t, 1, TL_ADD("a") "\n"));
    /* The checkpoint disagrees with the commits on purpose: it must be what is used. */
    CHECK(tl_write(&t, "00000000000000000001.checkpoint.aaaa-bbbb.json",
                   "{\"checkpointMetadata\":{\"version\":1}}\n" HEADER TL_ADD(
                       "from-checkpoint") "\n" TL_REMOVE("gone") "\n"));
    CHECK(tl_commit(&t, 2, TL_REMOVE("from-checkpoint") "\n" TL_ADD("b") "\n"));
    CHECK(tl_remove(&t, "00000000000000000000.json"));
    dl_error err;
    dl_status st;
    dl_delta_snapshot *s = load(&t, -1, &err, &st);
    CHECK_OK(st, &err);
    CHECK_INT_EQ(dl_delta_snapshot_checkpoint_version(s), 1);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(s), 1);
    CHECK(find_file(s, "b", false) != NULL);
    CHECK(find_file(s, "gone", true) != NULL);
    CHECK(find_file(s, "from-checkpoint", true) != NULL);
    dl_delta_snapshot_unref(s);
    /* A V2 checkpoint whose Parquet sidecar is missing is corrupt (test_delta_checkpoint.c
     * reads sidecars that are there). */
    CHECK(tl_write(&t, "00000000000000000001.checkpoint.aaaa-bbbb.json",
                   "{\"checkpointMetadata\":{\"version\":1}}\n" HEADER
                   "{\"sidecar\":{\"path\":\"s.parquet\",\"sizeInBytes\":1,"
                   "\"modificationTime\":1}}\n"));
    CHECK(load(&t, -1, &err, &st) == NULL);
    CHECK_INT_EQ(st, DL_ERR_CORRUPT);
    CHECK_ERR_CONTAINS(&err, "_delta_log/_sidecars/s.parquet (a sidecar of checkpoint");
    tl_table_free(&t);
}

/* Loads the table with allocation fail_at failing (and every later one): it must either work
 * (n_ok counts it) or fail with NOMEM, leaking nothing. false with why filled otherwise. */
static bool
load_with_failure(tl_table *t, int64_t fail_at, int *n_ok, char *why, size_t cap) {
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, fail_at, true);
    dl_delta_table *table = NULL;
    dl_delta_snapshot *s = NULL;
    dl_error err;
    dl_status st = dl_delta_table_open(t->store, "", &fa.base, &table, &err);
    if (st == DL_OK) {
        st = dl_delta_snapshot_latest(table, NULL, &s, &err);
    }
    bool ok = true;
    if (st == DL_OK) {
        (*n_ok)++;
        ok = dl_delta_snapshot_file_count(s) == 1;
        (void)snprintf(why, cap, "the snapshot has %zu files", dl_delta_snapshot_file_count(s));
    } else if (st != DL_ERR_NOMEM) {
        ok = false;
        (void)snprintf(why, cap, "failing allocation %lld gave %s: %s", (long long)fail_at,
                       dl_status_name(st), err.msg);
    }
    dl_delta_snapshot_unref(s);
    dl_delta_table_free(table);
    if (ok && fa.live_blocks != 0) {
        ok = false;
        (void)snprintf(why, cap, "failing allocation %lld leaked %lld blocks", (long long)fail_at,
                       (long long)fa.live_blocks);
    }
    return ok;
}

TEST(test_load_failures_leak_nothing) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(
        &t, 0,
        TL_PROTOCOL_1_2 "\n" TL_METADATA(PART_SCHEMA, "[\"d\",\"s\"]", "{}") "\n" PADD(
            "f1",
            "{\"d\":\"2021-09-08\",\"s\":\"x\"}") "{\"txn\":{\"appId\":\"a\",\"version\":1}}\n"));
    CHECK(tl_commit(&t, 1,
                    TL_REMOVE("f1") "\n" TL_ADD(
                        "f2") "\n"
                              "{\"domainMetadata\":{\"domain\":\"d\",\"configuration\":\"\","
                              "\"removed\":false}}\n"));
    int n_ok = 0;
    for (int64_t fail_at = 1; fail_at < 400 && n_ok == 0; fail_at++) {
        char why[DL_ERROR_MSG_CAP + 64];
        if (!load_with_failure(&t, fail_at, &n_ok, why, sizeof(why))) {
            HARNESS_FAIL_AT("%s", why);
            return;
        }
    }
    CHECK_INT_EQ(n_ok, 1);
    tl_table_free(&t);
}

int
main(void) {
    RUN(test_add_then_remove_leaves_a_tombstone);
    RUN(test_re_add_after_remove_is_live);
    RUN(test_same_path_with_different_dv_ids);
    RUN(test_txn_latest_per_app_id);
    RUN(test_protocol_and_metadata_newest_wins);
    RUN(test_domain_metadata_tombstones_hide_older_domains);
    RUN(test_paths_match_after_url_decoding);
    RUN(test_partition_values_are_typed);
    RUN(test_bad_partition_value_is_corrupt);
    RUN(test_stats_are_parsed_lazily);
    RUN(test_many_commits_replay_in_order_when_read_ahead);
    RUN(test_corrupt_commit_read_ahead_names_the_file);
    RUN(test_unknown_reader_feature_refuses_the_table);
    RUN(test_corrupt_commit_names_file_line_and_byte);
    RUN(test_empty_commit_is_corrupt_and_named);
    RUN(test_gap_names_the_missing_version);
    RUN(test_missing_protocol_or_metadata_is_corrupt);
    RUN(test_not_a_table);
    RUN(test_version_out_of_range_names_available_versions);
    RUN(test_metadata_only_load_stops_early);
    RUN(test_v2_json_checkpoint_is_read);
    RUN(test_load_failures_leak_nothing);
    return harness_finish();
}
