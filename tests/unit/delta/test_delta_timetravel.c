/* SPDX-License-Identifier: Apache-2.0 */
/* Timestamps to versions and @ suffixes (delta_timetravel.c). */
#include "harness.h"
#include "test_delta_log_util.h"

#define HEADER TL_PROTOCOL_1_2 "\n" TL_METADATA_ID_LONG "\n"

static const char *
name_of(int64_t v) {
    static char buf[64];
    (void)snprintf(buf, sizeof(buf), "%020lld.json", (long long)v);
    return buf;
}

/* Commits 0..n-1 whose files have the given modification times. */
static bool
table_with_mtimes(tl_table *t, const int64_t *mtimes, int n) {
    if (!tl_table_new(t)) {
        return false;
    }
    for (int v = 0; v < n; v++) {
        if (!tl_commit(t, v, v == 0 ? HEADER : "{\"commitInfo\":{}}\n") ||
            !tl_set_mtime(t, name_of(v), mtimes[v])) {
            return false;
        }
    }
    return true;
}

static dl_status
at(tl_table *t, int64_t ts, int64_t *v, dl_error *err) {
    *v = -1;
    return dl_delta_version_at_timestamp(t->table, ts, v, err);
}

TEST(test_file_times_are_made_monotonic) {
    /* Raw 0,5,10,7,8,14 (x1000 ms, plus a base) become 0,5,10,11,12,14 (+1 ms steps). */
    const int64_t base = INT64_C(1600000000000);
    int64_t m[] = {base, base + 5000, base + 10000, base + 7000, base + 8000, base + 14000};
    tl_table t;
    CHECK(table_with_mtimes(&t, m, 6));
    int64_t v;
    dl_error err;
    CHECK_OK(at(&t, base, &v, &err), &err);
    CHECK_INT_EQ(v, 0);
    CHECK_OK(at(&t, base + 4999, &v, &err), &err);
    CHECK_INT_EQ(v, 0);
    CHECK_OK(at(&t, base + 10000, &v, &err), &err);
    CHECK_INT_EQ(v, 2);
    CHECK_OK(at(&t, base + 10001, &v, &err), &err); /* v3 adjusted to +10001 */
    CHECK_INT_EQ(v, 3);
    CHECK_OK(at(&t, base + 10002, &v, &err), &err); /* v4 adjusted to +10002 */
    CHECK_INT_EQ(v, 4);
    CHECK_OK(at(&t, base + 13999, &v, &err), &err);
    CHECK_INT_EQ(v, 4);
    CHECK_OK(at(&t, base + 14000, &v, &err), &err);
    CHECK_INT_EQ(v, 5);
    tl_table_free(&t);
}

TEST(test_timestamps_outside_the_log_are_errors) {
    const int64_t base = INT64_C(1540415658000);
    int64_t m[] = {base, base + 1200000, base + 2400000};
    tl_table t;
    CHECK(table_with_mtimes(&t, m, 3));
    int64_t v;
    dl_error err;
    CHECK_STATUS(at(&t, base - 1, &v, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "The provided timestamp (2018-10-24 21:14:17.999) is before the "
                             "earliest version available to this table (2018-10-24 21:14:18)");
    CHECK_STATUS(at(&t, base + 2400001, &v, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "is after the table's latest version (2018-10-24 21:54:18)");
    CHECK_OK(at(&t, base + 2400000, &v, &err), &err);
    CHECK_INT_EQ(v, 2);
    dl_delta_snapshot *s = NULL;
    CHECK_OK(dl_delta_snapshot_at_timestamp(t.table, base + 1300000, NULL, &s, &err), &err);
    CHECK_INT_EQ(dl_delta_snapshot_version(s), 1);
    CHECK_INT_EQ(dl_delta_snapshot_timestamp(s), base + 1200000);
    dl_delta_snapshot_unref(s);
    tl_table_free(&t);
}

#define ICT_PROTOCOL                                                                   \
    "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":7,\"writerFeatures\":" \
    "[\"inCommitTimestamp\"]}}\n"
#define ICT_COMMIT(ts) "{\"commitInfo\":{\"timestamp\":1,\"inCommitTimestamp\":" #ts "}}\n"

TEST(test_in_commit_timestamps_from_creation) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(
        &t, 0,
        ICT_COMMIT(1000) ICT_PROTOCOL TL_METADATA(
            TL_SCHEMA_ID_LONG, "[]", "{\"delta.enableInCommitTimestamps\":\"true\"}") "\n"));
    CHECK(tl_commit(&t, 1, ICT_COMMIT(2000)));
    CHECK(tl_commit(&t, 2, ICT_COMMIT(3000)));
    CHECK(tl_commit(&t, 3, ICT_COMMIT(4000)));
    /* File times that disagree: in-commit timestamps must win. */
    for (int v = 0; v < 4; v++) {
        CHECK(tl_set_mtime(&t, name_of(v), INT64_C(9000000) - v));
    }
    int64_t v;
    dl_error err;
    CHECK_OK(at(&t, 1000, &v, &err), &err);
    CHECK_INT_EQ(v, 0);
    CHECK_OK(at(&t, 2999, &v, &err), &err);
    CHECK_INT_EQ(v, 1);
    CHECK_OK(at(&t, 3000, &v, &err), &err);
    CHECK_INT_EQ(v, 2);
    CHECK_OK(at(&t, 4000, &v, &err), &err);
    CHECK_INT_EQ(v, 3);
    CHECK_STATUS(at(&t, 999, &v, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "before the earliest version");
    CHECK_STATUS(at(&t, 4001, &v, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_ERR_CONTAINS(&err, "after the table's latest version");
    dl_delta_snapshot *s = NULL;
    CHECK_OK(dl_delta_snapshot_at_version(t.table, 2, NULL, &s, &err), &err);
    CHECK_INT_EQ(dl_delta_snapshot_timestamp(s), 3000);
    dl_delta_snapshot_unref(s);
    tl_table_free(&t);
}

TEST(test_in_commit_timestamps_enabled_later) {
    tl_table t;
    CHECK(tl_table_new(&t));
    /* Versions 0 and 1 by file time (100 s, 200 s); ICT from version 2 on (300 s, 400 s). */
    CHECK(tl_commit(&t, 0, HEADER));
    CHECK(tl_commit(&t, 1, "{\"commitInfo\":{}}\n"));
    CHECK(tl_commit(&t, 2,
                    ICT_COMMIT(300000) ICT_PROTOCOL TL_METADATA(
                        TL_SCHEMA_ID_LONG, "[]",
                        "{\"delta.enableInCommitTimestamps\":\"true\","
                        "\"delta.inCommitTimestampEnablementVersion\":\"2\","
                        "\"delta.inCommitTimestampEnablementTimestamp\":\"300000\"}") "\n"));
    CHECK(tl_commit(&t, 3, ICT_COMMIT(400000)));
    CHECK(tl_set_mtime(&t, name_of(0), 100000));
    CHECK(tl_set_mtime(&t, name_of(1), 200000));
    CHECK(tl_set_mtime(&t, name_of(2), 50000)); /* ignored: ICT */
    CHECK(tl_set_mtime(&t, name_of(3), 60000));
    int64_t v;
    dl_error err;
    CHECK_OK(at(&t, 150000, &v, &err), &err);
    CHECK_INT_EQ(v, 0);
    CHECK_OK(at(&t, 299999, &v, &err), &err);
    CHECK_INT_EQ(v, 1);
    CHECK_OK(at(&t, 300000, &v, &err), &err);
    CHECK_INT_EQ(v, 2);
    CHECK_OK(at(&t, 400000, &v, &err), &err);
    CHECK_INT_EQ(v, 3);
    CHECK_STATUS(at(&t, 99999, &v, &err), DL_ERR_NOT_FOUND, &err);
    CHECK_STATUS(at(&t, 400001, &v, &err), DL_ERR_NOT_FOUND, &err);
    tl_table_free(&t);
}

TEST(test_missing_in_commit_timestamp_is_corrupt) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(tl_commit(
        &t, 0,
        ICT_COMMIT(1000) ICT_PROTOCOL TL_METADATA(
            TL_SCHEMA_ID_LONG, "[]", "{\"delta.enableInCommitTimestamps\":\"true\"}") "\n"));
    CHECK(tl_commit(&t, 1, TL_ADD("x") "\n"));
    int64_t v;
    dl_error err;
    CHECK_STATUS(at(&t, 5000, &v, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "00000000000000000001.json");
    CHECK_ERR_CONTAINS(&err, "inCommitTimestamp");
    tl_table_free(&t);
}

static dl_status
suffix(const char *ref, dl_str *path, dl_delta_tt *tt, dl_error *err) {
    return dl_delta_tt_parse_suffix(dl_str_from_cstr(ref), 0, path, tt, err);
}

TEST(test_time_travel_suffixes) {
    dl_str path;
    dl_delta_tt tt;
    dl_error err;
    CHECK_OK(suffix("/data/events@v123", &path, &tt, &err), &err);
    CHECK_INT_EQ(tt.kind, DL_DELTA_TT_VERSION);
    CHECK_INT_EQ(tt.version, 123);
    CHECK(dl_str_eq_cstr(path, "/data/events"));
    CHECK_OK(suffix("events@20190101000000000", &path, &tt, &err), &err);
    CHECK_INT_EQ(tt.kind, DL_DELTA_TT_TIMESTAMP);
    CHECK_INT_EQ(tt.ts_ms, INT64_C(1546300800000));
    CHECK(dl_str_eq_cstr(path, "events"));
    CHECK_OK(dl_delta_tt_parse_suffix(DL_STR("t@20190101000000001"), 3600, &path, &tt, &err), &err);
    CHECK_INT_EQ(tt.ts_ms, INT64_C(1546300800000) - 3600000 + 1);
    static const char *const plain[] = {"special p@#h", "a@v", "a@vx1", "a@2019", "@v1", "plain"};
    for (size_t i = 0; i < DL_ARRAY_LEN(plain); i++) {
        CHECK_OK(suffix(plain[i], &path, &tt, &err), &err);
        CHECK_INT_EQ(tt.kind, DL_DELTA_TT_NONE);
        CHECK(dl_str_eq_cstr(path, plain[i]));
    }
    CHECK_STATUS(suffix("a@v99999999999999999999", &path, &tt, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_STATUS(suffix("a@20191301000000000", &path, &tt, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "time travel timestamp");
}

int
main(void) {
    RUN(test_file_times_are_made_monotonic);
    RUN(test_timestamps_outside_the_log_are_errors);
    RUN(test_in_commit_timestamps_from_creation);
    RUN(test_in_commit_timestamps_enabled_later);
    RUN(test_missing_in_commit_timestamp_is_corrupt);
    RUN(test_time_travel_suffixes);
    return harness_finish();
}
