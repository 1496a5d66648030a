/* SPDX-License-Identifier: Apache-2.0 */
/* Parquet checkpoints: classic, multi-part, V2 with sidecars, parsed stats and partition
 * values, stats read back by row, and broken checkpoints (delta_checkpoint.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "delta/delta_int.h"
#include "harness.h"
#include "parquet/pq_writer.h"
#include "test_delta_cp_util.h"
#include "test_delta_log_util.h"

#define SCHEMA_ID_PART                                                                       \
    "{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":[{\\\"name\\\":\\\"id\\\",\\\"type\\\":"    \
    "\\\"long\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}},{\\\"name\\\":\\\"p\\\","       \
    "\\\"type\\\":\\\"integer\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}},{\\\"name\\\":" \
    "\\\"d\\\",\\\"type\\\":\\\"date\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}}]}"

#define CP_PROTOCOL "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}\n"
#define CP_METADATA                                                                      \
    "{\"metaData\":{\"id\":\"t1\",\"format\":{\"provider\":\"parquet\",\"options\":{}}," \
    "\"schemaString\":\"" SCHEMA_ID_PART "\",\"partitionColumns\":[\"p\"],"              \
    "\"configuration\":{\"delta.checkpointInterval\":\"2\"},\"createdTime\":7}}\n"
#define CP_ADD(path, p, n)                                                                \
    "{\"add\":{\"path\":\"" path "\",\"partitionValues\":{\"p\":\"" p "\"},\"size\":100," \
    "\"modificationTime\":5,\"dataChange\":false,\"stats\":\"{\\\"numRecords\\\":" n "}\"}}\n"

/* A table: checkpoint at version 2 (files a, b, c; a tombstone t; a txn and a domain), then
 * commit 3 removing b and adding d. */
static bool
write_classic(tl_table *t) {
    cp_shape shape = {.has_domain = true};
    char cp[128];
    (void)snprintf(cp, sizeof(cp), "_delta_log/%020d.checkpoint.parquet", 2);
    return cp_write(
               t->store, cp, &shape,
               CP_PROTOCOL CP_METADATA CP_ADD("p=1/a.parquet", "1",
                                              "10") CP_ADD("p=1/b%20c.parquet", "1", "20")
                   CP_ADD("p=2/c.parquet", "2",
                          "30") "{\"remove\":{\"path\":\"p=2/t.parquet\",\"deletionTimestamp\":9,"
                                "\"dataChange\":true}}\n"
                                "{\"txn\":{\"appId\":\"app\",\"version\":4}}\n"
                                "{\"domainMetadata\":{\"domain\":\"dom\",\"configuration\":\"{}\","
                                "\"removed\":false}}\n",
               NULL) &&
           tl_commit(t, 3,
                     "{\"commitInfo\":{\"operation\":\"WRITE\"}}\n"
                     "{\"remove\":{\"path\":\"p=1/b%20c.parquet\",\"deletionTimestamp\":10,"
                     "\"dataChange\":true}}\n" CP_ADD("p=3/d.parquet", "3", "40"));
}

static const dl_delta_file *
find_file(dl_delta_snapshot *snap, const char *path) {
    for (size_t i = 0; i < dl_delta_snapshot_file_count(snap); i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(snap, i);
        if (strcmp(f->path.ptr, path) == 0) {
            return f;
        }
    }
    return NULL;
}

/* numRecords of the file's stats, -1 when it has none, -2 on error. */
static int64_t
num_records(dl_delta_snapshot *snap, const dl_delta_file *f, dl_delta_stats_reader *rd) {
    dl_delta_stats st;
    bool has;
    if (dl_delta_file_stats(snap, f, rd, &st, &has, NULL) != DL_OK) {
        return -2;
    }
    return has && st.has_num_records ? st.num_records : -1;
}

TEST(test_classic_checkpoint_then_commit_gives_reconciled_files) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(write_classic(&t));
    dl_error err;
    dl_delta_snapshot *snap = NULL;
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, NULL, &snap, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_snapshot_version(snap), 3);
    CHECK_INT_EQ(dl_delta_snapshot_checkpoint_version(snap), 2);
    CHECK_INT_EQ(dl_delta_snapshot_commits_read(snap), 1);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 3);
    CHECK(find_file(snap, "p=1/a.parquet") != NULL);
    CHECK(find_file(snap, "p=2/c.parquet") != NULL);
    CHECK(find_file(snap, "p=3/d.parquet") != NULL);
    CHECK(find_file(snap, "p=1/b c.parquet") == NULL);
    CHECK_INT_EQ(dl_delta_snapshot_tombstone_count(snap), 2);
    int64_t v = -1;
    CHECK(dl_delta_snapshot_txn_version(snap, "app", &v));
    CHECK_INT_EQ(v, 4);
    CHECK(dl_delta_snapshot_domain_config(snap, "dom") != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_protocol(snap)->min_writer_version, 2);
    CHECK_STR_EQ(
        dl_delta_metadata_config(dl_delta_snapshot_metadata(snap), "delta.checkpointInterval"),
        "2");
    CHECK_INT_EQ(dl_delta_snapshot_metadata(snap)->created_time, 7);
    const dl_delta_file *c = find_file(snap, "p=2/c.parquet");
    CHECK_INT_EQ(c->partition->values[0].u.i64, 2);
    CHECK_INT_EQ(c->size, 100);
    CHECK(!(c->flags & DL_DELTA_FILE_DATA_CHANGE));
    dl_delta_stats_reader rd;
    dl_delta_stats_reader_init(&rd, NULL);
    /* In snapshot order (commit first, then the checkpoint's rows), then backwards. */
    int64_t rows = 0;
    for (size_t i = 0; i < dl_delta_snapshot_file_count(snap); i++) {
        rows += num_records(snap, dl_delta_snapshot_file(snap, i), &rd);
    }
    int64_t back = num_records(snap, find_file(snap, "p=1/a.parquet"), &rd);
    dl_delta_stats_reader_destroy(&rd);
    CHECK_INT_EQ(rows, 80);
    CHECK_INT_EQ(back, 10);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

TEST(test_checkpoint_stats_in_memory_and_without_stats) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(write_classic(&t));
    dl_error err;
    dl_delta_snapshot *snap = NULL;
    dl_delta_snapshot_options o = {.is_stats_in_memory = true};
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, &o, &snap, &err), DL_OK, &err);
    const dl_delta_file *a = find_file(snap, "p=1/a.parquet");
    CHECK(a && a->stats.len > 0);
    CHECK(strstr(a->stats.ptr, "\"numRecords\":10") != NULL);
    dl_delta_snapshot_unref(snap);
    o = (dl_delta_snapshot_options){.is_without_stats = true};
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, &o, &snap, &err), DL_OK, &err);
    dl_delta_stats_reader rd;
    dl_delta_stats_reader_init(&rd, NULL);
    int64_t n = num_records(snap, find_file(snap, "p=1/a.parquet"), &rd);
    dl_delta_stats_reader_destroy(&rd);
    CHECK_INT_EQ(n, -1);
    dl_delta_snapshot_unref(snap);
    o = (dl_delta_snapshot_options){.is_metadata_only = true};
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, &o, &snap, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 0);
    CHECK_INT_EQ(dl_delta_snapshot_protocol(snap)->min_reader_version, 1);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

TEST(test_checkpoint_row_without_stats_has_none) {
    tl_table t;
    CHECK(tl_table_new(&t));
    cp_shape shape = {0};
    CHECK(cp_write(t.store, "_delta_log/00000000000000000001.checkpoint.parquet", &shape,
                   CP_PROTOCOL CP_METADATA
                   "{\"add\":{\"path\":\"p=1/x.parquet\",\"partitionValues\":{\"p\":\"1\"},"
                   "\"size\":1,\"modificationTime\":1,\"dataChange\":true}}\n",
                   NULL));
    dl_error err;
    dl_delta_snapshot *snap = NULL;
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, NULL, &snap, &err), DL_OK, &err);
    dl_delta_stats_reader rd;
    dl_delta_stats_reader_init(&rd, NULL);
    int64_t n = num_records(snap, dl_delta_snapshot_file(snap, 0), &rd);
    dl_delta_stats_reader_destroy(&rd);
    CHECK_INT_EQ(n, -1);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

/* Many files over several row groups: stats read back in order and out of order. */
TEST(test_checkpoint_stats_read_back_across_row_groups) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_buf lines;
    dl_buf_init(&lines, NULL);
    CHECK(dl_buf_append_cstr(&lines, CP_PROTOCOL CP_METADATA, NULL) == DL_OK);
    for (int i = 0; i < 5000; i++) {
        CHECK(dl_buf_appendf(&lines, NULL,
                             "{\"add\":{\"path\":\"f%d.parquet\",\"partitionValues\":{\"p\":"
                             "\"%d\"},\"size\":%d,\"modificationTime\":1,\"dataChange\":true,"
                             "\"stats\":\"{\\\"numRecords\\\":%d}\"}}\n",
                             i, i % 7, i, i) == DL_OK);
    }
    cp_shape shape = {.row_group_rows = 700};
    bool ok = cp_write(t.store, "_delta_log/00000000000000000004.checkpoint.parquet", &shape,
                       dl_buf_cstr(&lines), NULL);
    dl_buf_destroy(&lines);
    CHECK(ok);
    dl_error err;
    dl_delta_snapshot *snap = NULL;
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, NULL, &snap, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 5000);
    CHECK_INT_EQ(dl_delta_snapshot_partition_count(snap), 1);
    dl_delta_stats_reader rd;
    dl_delta_stats_reader_init(&rd, NULL);
    bool is_right = true;
    for (size_t i = 0; i < 5000 && is_right; i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(snap, i);
        is_right =
            num_records(snap, f, &rd) == f->size && f->partition->values[0].u.i64 == f->size % 7;
    }
    for (size_t i = 5000; i > 0 && is_right; i -= 3) {
        const dl_delta_file *f = dl_delta_snapshot_file(snap, i - 1);
        is_right = num_records(snap, f, &rd) == f->size;
        if (i < 3) {
            break;
        }
    }
    dl_delta_stats_reader_destroy(&rd);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
    CHECK(is_right);
}

static bool
write_parts(tl_table *t, int64_t v, int n_parts, int skip_part) {
    const char *parts[3] = {CP_PROTOCOL CP_METADATA, CP_ADD("p=1/a.parquet", "1", "1"),
                            CP_ADD("p=1/b.parquet", "1", "2") CP_ADD("p=1/c.parquet", "1", "3")};
    cp_shape shape = {0};
    for (int i = 0; i < n_parts; i++) {
        if (i + 1 == skip_part) {
            continue;
        }
        char name[128];
        (void)snprintf(name, sizeof(name), "_delta_log/%020lld.checkpoint.%010d.%010d.parquet",
                       (long long)v, i + 1, n_parts);
        if (!cp_write(t->store, name, &shape, parts[i], NULL)) {
            return false;
        }
    }
    return true;
}

TEST(test_multi_part_checkpoint_reads_every_part) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(write_parts(&t, 5, 3, 0));
    dl_error err;
    dl_delta_snapshot *snap = NULL;
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, NULL, &snap, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_snapshot_version(snap), 5);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 3);
    dl_delta_stats_reader rd;
    dl_delta_stats_reader_init(&rd, NULL);
    int64_t sum = 0;
    for (size_t i = 0; i < 3; i++) {
        sum += num_records(snap, dl_delta_snapshot_file(snap, i), &rd);
    }
    dl_delta_stats_reader_destroy(&rd);
    CHECK_INT_EQ(sum, 6);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

TEST(test_multi_part_checkpoint_with_a_missing_part_is_not_used) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(write_parts(&t, 5, 3, 2));
    dl_error err;
    dl_delta_snapshot *snap = NULL;
    /* Nothing else builds version 5: the error names the missing part. */
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, NULL, &snap, &err), DL_ERR_CORRUPT, &err);
    CHECK(strstr(err.msg, "00000000000000000005.checkpoint.0000000002.0000000003.parquet is "
                          "missing") != NULL);
    /* With the commits from 0 there, they are used instead. */
    for (int64_t v = 0; v <= 5; v++) {
        CHECK(tl_commit(&t, v,
                        v == 0 ? CP_PROTOCOL CP_METADATA CP_ADD("p=1/a.parquet", "1", "1")
                               : "{\"commitInfo\":{}}\n"));
    }
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, NULL, &snap, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_snapshot_checkpoint_version(snap), -1);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 1);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

#define V2_SIDECAR_NAME "00000000000000000006.checkpoint.0000000001.0000000001.3a0d65cd.parquet"

static bool
write_sidecars(tl_table *t) {
    char dir[400];
    (void)snprintf(dir, sizeof(dir), "%s/_delta_log/_sidecars", t->dir);
    if (mkdir(dir, 0700) != 0) {
        return false;
    }
    cp_shape sc = {.is_sidecar = true};
    return cp_write(t->store, "_delta_log/_sidecars/" V2_SIDECAR_NAME, &sc,
                    CP_ADD("p=1/a.parquet", "1", "5") CP_ADD("p=2/b.parquet", "2", "6"), NULL) &&
           cp_write(
               t->store, "_delta_log/_sidecars/second.parquet", &sc,
               CP_ADD("p=3/c.parquet", "3",
                      "7") "{\"remove\":{\"path\":\"p=3/gone.parquet\",\"deletionTimestamp\":1,"
                           "\"dataChange\":true}}\n",
               NULL);
}

#define V2_TOP                                                                            \
    "{\"checkpointMetadata\":{\"version\":6}}\n" CP_PROTOCOL CP_METADATA                  \
    "{\"sidecar\":{\"path\":\"" V2_SIDECAR_NAME "\",\"sizeInBytes\":1,"                   \
    "\"modificationTime\":1}}\n"                                                          \
    "{\"sidecar\":{\"path\":\"file:///somewhere/t/_delta_log/_sidecars/second.parquet\"," \
    "\"sizeInBytes\":1,\"modificationTime\":1}}\n"

static void
check_v2(tl_table *t) {
    dl_error err;
    dl_delta_snapshot *snap = NULL;
    CHECK_STATUS(dl_delta_snapshot_latest(t->table, NULL, &snap, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_snapshot_version(snap), 6);
    CHECK_INT_EQ(dl_delta_snapshot_checkpoint_version(snap), 6);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 3);
    CHECK_INT_EQ(dl_delta_snapshot_tombstone_count(snap), 1);
    dl_delta_stats_reader rd;
    dl_delta_stats_reader_init(&rd, NULL);
    int64_t sum = 0;
    for (size_t i = 0; i < 3; i++) {
        sum += num_records(snap, dl_delta_snapshot_file(snap, i), &rd);
    }
    dl_delta_stats_reader_destroy(&rd);
    CHECK_INT_EQ(sum, 18);
    dl_delta_snapshot_unref(snap);
}

TEST(test_v2_parquet_checkpoint_reads_its_sidecars) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(write_sidecars(&t));
    cp_shape top = {.is_v2 = true};
    CHECK(cp_write(t.store,
                   "_delta_log/00000000000000000006.checkpoint."
                   "80a083e8-7026-4e79-81be-64bd76c43a11.parquet",
                   &top, V2_TOP, NULL));
    check_v2(&t);
    tl_table_free(&t);
}

TEST(test_v2_json_checkpoint_reads_parquet_sidecars) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(write_sidecars(&t));
    CHECK(tl_write(&t, "00000000000000000006.checkpoint.80a083e8-7026-4e79-81be-64bd76c43a11.json",
                   V2_TOP));
    check_v2(&t);
    tl_table_free(&t);
}

TEST(test_v2_checkpoint_with_a_missing_sidecar_is_corrupt_naming_it) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(write_sidecars(&t));
    char p[512];
    (void)snprintf(p, sizeof(p), "%s/_delta_log/_sidecars/second.parquet", t.dir);
    CHECK(remove(p) == 0);
    CHECK(tl_write(&t, "00000000000000000006.checkpoint.80a083e8-7026-4e79-81be-64bd76c43a11.json",
                   V2_TOP));
    dl_error err;
    dl_delta_snapshot *snap = NULL;
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, NULL, &snap, &err), DL_ERR_CORRUPT, &err);
    CHECK(strstr(err.msg, "_delta_log/_sidecars/second.parquet") != NULL);
    CHECK(strstr(err.msg, "is missing") != NULL);
    tl_table_free(&t);
}

TEST(test_sidecar_outside_the_sidecar_folder_is_corrupt) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_write(&t, "00000000000000000006.checkpoint.80a083e8-7026-4e79-81be-64bd76c43a11.json",
                   CP_PROTOCOL CP_METADATA
                   "{\"sidecar\":{\"path\":\"../x/y.parquet\",\"sizeInBytes\":1,"
                   "\"modificationTime\":1}}\n"));
    dl_error err;
    dl_delta_snapshot *snap = NULL;
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, NULL, &snap, &err), DL_ERR_CORRUPT, &err);
    CHECK(strstr(err.msg, "not a file in _delta_log/_sidecars/") != NULL);
    tl_table_free(&t);
}

TEST(test_corrupt_checkpoint_is_an_error_naming_the_file) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_write(&t, "00000000000000000003.checkpoint.parquet", "PAR1 this is not parquet"));
    dl_error err;
    dl_delta_snapshot *snap = NULL;
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, NULL, &snap, &err), DL_ERR_CORRUPT, &err);
    CHECK(strstr(err.msg, "00000000000000000003.checkpoint.parquet") != NULL);
    tl_table_free(&t);
}

TEST(test_checkpoint_row_missing_a_required_field_is_corrupt_naming_the_row) {
    tl_table t;
    CHECK(tl_table_new(&t));
    cp_shape shape = {0};
    CHECK(cp_write(t.store, "_delta_log/00000000000000000001.checkpoint.parquet", &shape,
                   CP_PROTOCOL CP_METADATA
                   "{\"add\":{\"path\":\"x.parquet\",\"partitionValues\":{},"
                   "\"modificationTime\":1,\"dataChange\":true}}\n",
                   NULL));
    dl_error err;
    dl_delta_snapshot *snap = NULL;
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, NULL, &snap, &err), DL_ERR_CORRUPT, &err);
    CHECK(strstr(err.msg, "_delta_log/00000000000000000001.checkpoint.parquet: row 2: add "
                          "action: missing required field 'size'") != NULL);
    tl_table_free(&t);
}

TEST(test_parquet_file_without_action_columns_is_not_a_checkpoint) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *type = NULL;
    dl_type_field f = {.name = "x", .type = dl_vec_type_prim(DL_VEC_TYPE_LONG)};
    CHECK(dl_vec_type_struct(&arena, &f, 1, &type, NULL) == DL_OK);
    dl_pq_writer *w = NULL;
    CHECK(dl_pq_writer_open(t.store, "_delta_log/00000000000000000001.checkpoint.parquet",
                            DL_STORE_PUT_OVERWRITE, type, NULL, NULL, &w, NULL) == DL_OK);
    CHECK(dl_pq_writer_close(w, NULL, NULL, NULL) == DL_OK);
    dl_arena_destroy(&arena);
    dl_error err;
    dl_delta_snapshot *snap = NULL;
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, NULL, &snap, &err), DL_ERR_CORRUPT, &err);
    CHECK(strstr(err.msg, "none of the action columns") != NULL);
    tl_table_free(&t);
}

#define STATS_PARSED                                                                        \
    "{\"type\":\"struct\",\"fields\":[{\"name\":\"numRecords\",\"type\":\"long\","          \
    "\"nullable\":true,\"metadata\":{}},{\"name\":\"minValues\",\"type\":{\"type\":"        \
    "\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,"          \
    "\"metadata\":{}},{\"name\":\"d\",\"type\":\"date\",\"nullable\":true,\"metadata\":{}}" \
    "]},\"nullable\":true,\"metadata\":{}},{\"name\":\"nullCount\",\"type\":{\"type\":"     \
    "\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,"          \
    "\"metadata\":{}}]},\"nullable\":true,\"metadata\":{}}]}"
#define PARTITION_PARSED                                                                  \
    "{\"type\":\"struct\",\"fields\":[{\"name\":\"p\",\"type\":\"integer\",\"nullable\":" \
    "true,\"metadata\":{}}]}"

TEST(test_checkpoint_uses_stats_parsed_and_partition_values_parsed) {
    tl_table t;
    CHECK(tl_table_new(&t));
    cp_shape shape = {
        .no_stats = true, .stats_parsed = STATS_PARSED, .partition_parsed = PARTITION_PARSED};
    /* partitionValues (the string map) disagrees with partitionValues_parsed on purpose. */
    CHECK(cp_write(t.store, "_delta_log/00000000000000000001.checkpoint.parquet", &shape,
                   CP_PROTOCOL CP_METADATA
                   "{\"add\":{\"path\":\"a.parquet\",\"partitionValues\":{\"p\":\"9\"},"
                   "\"partitionValues_parsed\":{\"p\":4},\"size\":1,\"modificationTime\":1,"
                   "\"dataChange\":true,\"stats_parsed\":{\"numRecords\":12,\"minValues\":{"
                   "\"id\":-3,\"d\":\"2024-02-29\"},\"nullCount\":{\"id\":1}}}}\n"
                   "{\"add\":{\"path\":\"b.parquet\",\"partitionValues\":{\"p\":null},"
                   "\"partitionValues_parsed\":{\"p\":null},\"size\":1,\"modificationTime\":1,"
                   "\"dataChange\":true}}\n"
                   "{\"add\":{\"path\":\"c.parquet\",\"partitionValues\":{\"p\":\"6\"},"
                   "\"size\":1,\"modificationTime\":1,\"dataChange\":true}}\n",
                   NULL));
    dl_error err;
    dl_delta_snapshot *snap = NULL;
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, NULL, &snap, &err), DL_OK, &err);
    const dl_delta_file *a = find_file(snap, "a.parquet");
    const dl_delta_file *b = find_file(snap, "b.parquet");
    CHECK(a && b);
    CHECK(!a->partition->values[0].is_null);
    CHECK_INT_EQ(a->partition->values[0].u.i64, 4);
    CHECK(b->partition->values[0].is_null);
    /* No partitionValues_parsed on that row: the string map is used. */
    const dl_delta_file *c = find_file(snap, "c.parquet");
    CHECK(c && !c->partition->values[0].is_null && c->partition->values[0].u.i64 == 6);
    dl_delta_stats_reader rd;
    dl_delta_stats_reader_init(&rd, NULL);
    dl_delta_stats st;
    bool has;
    CHECK_STATUS(dl_delta_file_stats(snap, a, &rd, &st, &has, &err), DL_OK, &err);
    CHECK(has && st.has_num_records);
    CHECK_INT_EQ(st.num_records, 12);
    const char *id[] = {"id"};
    const char *d[] = {"d"};
    dl_delta_value v;
    bool found;
    CHECK(dl_delta_stats_get(&st, DL_DELTA_STAT_MIN, id, 1, dl_vec_type_prim(DL_VEC_TYPE_LONG), &v,
                             &found, NULL) == DL_OK);
    CHECK(found && v.u.i64 == -3);
    CHECK(dl_delta_stats_get(&st, DL_DELTA_STAT_MIN, d, 1, dl_vec_type_prim(DL_VEC_TYPE_DATE), &v,
                             &found, NULL) == DL_OK);
    CHECK(found && v.u.i64 == 19782);
    CHECK(dl_delta_stats_get(&st, DL_DELTA_STAT_NULL_COUNT, id, 1, NULL, &v, &found, NULL) ==
          DL_OK);
    CHECK(found && v.u.i64 == 1);
    CHECK_STATUS(dl_delta_file_stats(snap, b, &rd, &st, &has, &err), DL_OK, &err);
    CHECK(!has);
    dl_delta_stats_reader_destroy(&rd);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

TEST(test_time_travel_before_the_checkpoint_uses_the_commits) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(&t, 0, CP_PROTOCOL CP_METADATA CP_ADD("p=1/a.parquet", "1", "10")));
    CHECK(tl_commit(&t, 1, CP_ADD("p=1/b.parquet", "1", "10")));
    CHECK(tl_commit(&t, 2, CP_ADD("p=1/c.parquet", "1", "10")));
    CHECK(write_classic(&t));
    CHECK(tl_write(&t, "_last_checkpoint", "{\"version\":2,\"size\":8}"));
    dl_error err;
    dl_delta_snapshot *snap = NULL;
    CHECK_STATUS(dl_delta_snapshot_at_version(t.table, 1, NULL, &snap, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_snapshot_checkpoint_version(snap), -1);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 2);
    dl_delta_snapshot_unref(snap);
    CHECK_STATUS(dl_delta_snapshot_at_version(t.table, 2, NULL, &snap, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_snapshot_checkpoint_version(snap), 2);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 3);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

/* The reader over a checkpoint in memory, as the fuzz target drives it. */
static dl_status
count_actions(void *ctx, const dl_delta_action *a, int64_t row, dl_error *err) {
    (void)err;
    int64_t *counts = ctx;
    counts[a->kind]++;
    counts[DL_DELTA_ACTION_SIDECAR + 1] = row;
    return DL_OK;
}

TEST(test_checkpoint_read_visits_each_action_with_its_row) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(write_classic(&t));
    dl_pq_file *file = NULL;
    dl_error err;
    CHECK_STATUS(dl_pq_file_open(t.store, "_delta_log/00000000000000000002.checkpoint.parquet",
                                 NULL, &file, &err),
                 DL_OK, &err);
    int64_t counts[DL_DELTA_ACTION_SIDECAR + 2] = {0};
    dl_delta_cp_read_options o = {.with_stats = true};
    CHECK_STATUS(dl_delta_checkpoint_read(file, &o, count_actions, counts, &err), DL_OK, &err);
    dl_pq_file_free(file);
    CHECK_INT_EQ(counts[DL_DELTA_ACTION_ADD], 3);
    CHECK_INT_EQ(counts[DL_DELTA_ACTION_REMOVE], 1);
    CHECK_INT_EQ(counts[DL_DELTA_ACTION_PROTOCOL], 1);
    CHECK_INT_EQ(counts[DL_DELTA_ACTION_METADATA], 1);
    CHECK_INT_EQ(counts[DL_DELTA_ACTION_TXN], 1);
    CHECK_INT_EQ(counts[DL_DELTA_ACTION_DOMAIN_METADATA], 1);
    CHECK_INT_EQ(counts[DL_DELTA_ACTION_SIDECAR + 1], 7);
    tl_table_free(&t);
}

/* Visiting stops at the first error the visitor returns, with and without the helper thread;
 * otherwise both ways visit the same rows. */
static dl_status
stop_at_row(void *ctx, const dl_delta_action *a, int64_t row, dl_error *err) {
    int64_t *seen = ctx;
    (void)a;
    seen[0]++;
    seen[1] += row;
    if (seen[2] >= 0 && row == seen[2]) {
        DL_FAIL(err, DL_ERR_INTERRUPTED, "stopped at row %lld", (long long)row);
    }
    return DL_OK;
}

TEST(test_checkpoint_read_on_a_helper_thread_visits_the_same_rows) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_buf lines;
    dl_buf_init(&lines, NULL);
    for (int i = 0; i < 9000; i++) {
        CHECK(dl_buf_appendf(&lines, NULL,
                             "{\"add\":{\"path\":\"f%d\",\"partitionValues\":{},\"size\":1,"
                             "\"modificationTime\":1,\"dataChange\":true}}\n",
                             i) == DL_OK);
    }
    cp_shape shape = {.no_stats = true};
    bool ok = cp_write(t.store, "x.parquet", &shape, dl_buf_cstr(&lines), NULL);
    dl_buf_destroy(&lines);
    CHECK(ok);
    dl_pq_file *file = NULL;
    dl_error err;
    CHECK_STATUS(dl_pq_file_open(t.store, "x.parquet", NULL, &file, &err), DL_OK, &err);
    int64_t piped[3] = {0, 0, -1};
    int64_t plain[3] = {0, 0, -1};
    int64_t stopped[3] = {0, 0, 5000};
    dl_delta_cp_read_options o = {.is_always_piped = true};
    dl_status st1 = dl_delta_checkpoint_read(file, &o, stop_at_row, piped, &err);
    dl_status st3 = dl_delta_checkpoint_read(file, &o, stop_at_row, stopped, &err);
    o = (dl_delta_cp_read_options){.is_single_threaded = true};
    dl_status st2 = dl_delta_checkpoint_read(file, &o, stop_at_row, plain, NULL);
    dl_pq_file_free(file);
    tl_table_free(&t);
    CHECK_INT_EQ(st1, DL_OK);
    CHECK_INT_EQ(st2, DL_OK);
    CHECK_INT_EQ(piped[0], 9000);
    CHECK_INT_EQ(piped[1], plain[1]);
    CHECK_INT_EQ(st3, DL_ERR_INTERRUPTED);
    CHECK(strstr(err.msg, "row 5000") != NULL);
    CHECK_INT_EQ(stopped[0], 5001);
}

/* A checkpoint large enough to be replayed on two threads (2^17 rows or more, several row
 * groups) gives the same snapshot as a small one would: every file once, commits after it
 * applied, stats read back by row, partitions parsed. */
TEST(test_large_checkpoint_replayed_on_two_threads_gives_every_file_once) {
    tl_table t;
    CHECK(tl_table_new(&t));
    cp_shape shape = {.row_group_rows = 40000};
    dl_error err;
    cp_writer *cw =
        cp_writer_open(t.store, "_delta_log/00000000000000000007.checkpoint.parquet", &shape, &err);
    CHECK(cw);
    bool ok = cp_writer_add(cw, DL_STR(CP_PROTOCOL), &err) &&
              cp_writer_add(cw, DL_STR(CP_METADATA), &err);
    char line[400];
    for (int i = 0; ok && i < 140000; i++) {
        int n = snprintf(line, sizeof(line),
                         "{\"add\":{\"path\":\"p=%d/f%d.parquet\",\"partitionValues\":{\"p\":"
                         "\"%d\"},\"size\":%d,\"modificationTime\":1,\"dataChange\":true,"
                         "\"stats\":\"{\\\"numRecords\\\":%d}\"}}",
                         i % 3, i, i % 3, i, i);
        ok = cp_writer_add(cw, dl_str_make(line, (size_t)n), &err);
        if (ok && i % 1000 == 0) {
            n = snprintf(line, sizeof(line),
                         "{\"remove\":{\"path\":\"gone%d.parquet\",\"deletionTimestamp\":1,"
                         "\"dataChange\":true}}",
                         i);
            ok = cp_writer_add(cw, dl_str_make(line, (size_t)n), &err);
        }
    }
    if (!ok) {
        cp_writer_abort(cw);
    }
    CHECK(ok && cp_writer_close(cw, &err));
    CHECK(tl_commit(&t, 8,
                    "{\"remove\":{\"path\":\"p=1/f1.parquet\",\"deletionTimestamp\":9,"
                    "\"dataChange\":true}}\n" CP_ADD("p=9/new.parquet", "9", "5")));
    dl_delta_snapshot *snap = NULL;
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, NULL, &snap, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 140000);
    CHECK_INT_EQ(dl_delta_snapshot_tombstone_count(snap), 141);
    CHECK_INT_EQ(dl_delta_snapshot_total_bytes(snap), 140000LL * 139999 / 2 - 1 + 100);
    CHECK_INT_EQ(dl_delta_snapshot_actions_read(snap), 2 + 140000 + 140 + 2);
    dl_delta_stats_reader rd;
    dl_delta_stats_reader_init(&rd, NULL);
    int64_t sum = 0;
    bool is_right = true;
    for (size_t i = 0; i < dl_delta_snapshot_file_count(snap) && is_right; i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(snap, i);
        int64_t n = num_records(snap, f, &rd);
        is_right = n >= 0 && f->partition && f->partition->values &&
                   (f->size == 100 || (n == f->size && f->partition->values[0].u.i64 == n % 3));
        sum += n;
    }
    dl_delta_stats_reader_destroy(&rd);
    dl_delta_snapshot_unref(snap);
    /* With stats in memory, the workers keep the text. */
    dl_delta_snapshot_options o = {.is_stats_in_memory = true};
    dl_status st = dl_delta_snapshot_latest(t.table, &o, &snap, &err);
    size_t n_with_text = 0;
    for (size_t i = 0; st == DL_OK && i < dl_delta_snapshot_file_count(snap); i++) {
        n_with_text += dl_delta_snapshot_file(snap, i)->stats.len > 0;
    }
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
    CHECK_STATUS(st, DL_OK, &err);
    CHECK_INT_EQ(n_with_text, 140000);
    CHECK(is_right);
    CHECK_INT_EQ(sum, 140000LL * 139999 / 2 - 1 + 5);
}

/* Metadata-only loads skip row groups that hold only adds, but find the protocol, metaData and
 * txns wherever they are. */
TEST(test_metadata_only_load_finds_actions_after_many_adds) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_buf lines;
    dl_buf_init(&lines, NULL);
    for (int i = 0; i < 3000; i++) {
        CHECK(dl_buf_appendf(&lines, NULL,
                             "{\"add\":{\"path\":\"f%d\",\"partitionValues\":{\"p\":\"1\"},"
                             "\"size\":1,\"modificationTime\":1,\"dataChange\":true}}\n",
                             i) == DL_OK);
    }
    CHECK(dl_buf_append_cstr(&lines,
                             CP_PROTOCOL CP_METADATA "{\"txn\":{\"appId\":\"z\",\"version\":3}}\n",
                             NULL) == DL_OK);
    cp_shape shape = {.row_group_rows = 500};
    bool ok = cp_write(t.store, "_delta_log/00000000000000000002.checkpoint.parquet", &shape,
                       dl_buf_cstr(&lines), NULL);
    dl_buf_destroy(&lines);
    CHECK(ok);
    dl_error err;
    dl_delta_snapshot *snap = NULL;
    dl_delta_snapshot_options o = {.is_metadata_only = true};
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, &o, &snap, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_snapshot_metadata(snap)->created_time, 7);
    dl_delta_snapshot_unref(snap);
    CHECK_STATUS(dl_delta_snapshot_latest(t.table, NULL, &snap, &err), DL_OK, &err);
    int64_t v = -1;
    CHECK(dl_delta_snapshot_txn_version(snap, "z", &v) && v == 3);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 3000);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

/* Loads the checkpointed table (and reads one file's stats back) with allocation fail_at failing
 * and every later one: it works, or fails with NOMEM leaking nothing. */
static bool
load_with_failure(tl_table *t, int64_t fail_at, bool *out_ok, char *why, size_t cap) {
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, fail_at, true);
    dl_delta_table *table = NULL;
    dl_delta_snapshot *snap = NULL;
    dl_error err;
    dl_status st = dl_delta_table_open(t->store, "", &fa.base, &table, &err);
    if (st == DL_OK) {
        st = dl_delta_snapshot_latest(table, NULL, &snap, &err);
    }
    if (st == DL_OK) {
        dl_delta_stats_reader rd;
        dl_delta_stats_reader_init(&rd, &fa.base);
        dl_delta_stats stats;
        bool has;
        const dl_delta_file *f = find_file(snap, "p=1/a.parquet");
        st = f ? dl_delta_file_stats(snap, f, &rd, &stats, &has, &err) : DL_ERR_INTERNAL;
        dl_delta_stats_reader_destroy(&rd);
    }
    *out_ok = st == DL_OK;
    bool ok = st == DL_OK || st == DL_ERR_NOMEM;
    if (!ok) {
        (void)snprintf(why, cap, "failing allocation %lld gave %s: %s", (long long)fail_at,
                       dl_status_name(st), err.msg);
    }
    dl_delta_snapshot_unref(snap);
    dl_delta_table_free(table);
    if (ok && fa.live_blocks != 0) {
        ok = false;
        (void)snprintf(why, cap, "failing allocation %lld leaked %lld blocks", (long long)fail_at,
                       (long long)fa.live_blocks);
    }
    return ok;
}

TEST(test_checkpoint_load_failures_leak_nothing) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(write_classic(&t));
    char why[1200] = "";
    bool is_loaded = false;
    int64_t n = 1;
    for (; n < 100000 && !is_loaded; n++) {
        if (!load_with_failure(&t, n, &is_loaded, why, sizeof(why))) {
            break;
        }
    }
    tl_table_free(&t);
    if (!is_loaded) {
        HARNESS_FAIL_AT("%s", why[0] ? why : "never loaded");
        return;
    }
    CHECK(n > 10);
}

int
main(void) {
    RUN(test_classic_checkpoint_then_commit_gives_reconciled_files);
    RUN(test_checkpoint_stats_in_memory_and_without_stats);
    RUN(test_checkpoint_row_without_stats_has_none);
    RUN(test_checkpoint_stats_read_back_across_row_groups);
    RUN(test_multi_part_checkpoint_reads_every_part);
    RUN(test_multi_part_checkpoint_with_a_missing_part_is_not_used);
    RUN(test_v2_parquet_checkpoint_reads_its_sidecars);
    RUN(test_v2_json_checkpoint_reads_parquet_sidecars);
    RUN(test_v2_checkpoint_with_a_missing_sidecar_is_corrupt_naming_it);
    RUN(test_sidecar_outside_the_sidecar_folder_is_corrupt);
    RUN(test_corrupt_checkpoint_is_an_error_naming_the_file);
    RUN(test_checkpoint_row_missing_a_required_field_is_corrupt_naming_the_row);
    RUN(test_parquet_file_without_action_columns_is_not_a_checkpoint);
    RUN(test_checkpoint_uses_stats_parsed_and_partition_values_parsed);
    RUN(test_time_travel_before_the_checkpoint_uses_the_commits);
    RUN(test_checkpoint_read_visits_each_action_with_its_row);
    RUN(test_checkpoint_read_on_a_helper_thread_visits_the_same_rows);
    RUN(test_large_checkpoint_replayed_on_two_threads_gives_every_file_once);
    RUN(test_metadata_only_load_finds_actions_after_many_adds);
    RUN(test_checkpoint_load_failures_leak_nothing);
    return harness_finish();
}
