/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Rows deleted through deletion vectors (delta/delta_dv_dml.h): the commit replaces each
 * marked file's logical file by the same path with a larger DV (the old one in its remove),
 * one DV file holds every DV of a commit at its own offset, a second delete unites with the
 * DV already there, a file whose every row is deleted is removed, and every DV written loads
 * back through the reader with the rows marked. Every log passes the protocol checker.
 */
#include <string.h>

#include "delta/delta_dv.h"
#include "delta/delta_dv_dml.h"
#include "harness.h"
#include "json/json.h"
#include "test_delta_cp_util.h"
#include "test_delta_txn_util.h"

static const char *const parts_p[] = {"p"};

/* A DV table with files a (10 rows, p=x) and b (5 rows, p=y). */
static bool
make_table(tl_table *t, dl_error *err) {
    dl_delta_kv conf[] = {{"delta.enableDeletionVectors", "true"}};
    dl_delta_kv px[] = {{"p", "x"}};
    dl_delta_kv py[] = {{"p", "y"}};
    return tl_table_new(t) && tw_volatile(t) &&
           tw_create(t, TW_SCHEMA_ID_P, parts_p, 1, conf, 1, NULL, err) == DL_OK &&
           tw_append(t, "p=x/a.parquet", px, 1, 10, NULL, NULL, err) == DL_OK &&
           tw_append(t, "p=y/b.parquet", py, 1, 5, NULL, NULL, err) == DL_OK;
}

/* The live file with this path, or NULL; *out_index its number. */
static const dl_delta_file *
find_file(dl_delta_snapshot *snap, const char *path, size_t *out_index) {
    for (size_t i = 0; i < dl_delta_snapshot_file_count(snap); i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(snap, i);
        if (strcmp(f->path.ptr, path) == 0) {
            *out_index = i;
            return f;
        }
    }
    return NULL;
}

typedef struct mark {
    const char *path;
    const int64_t *rows;
    size_t n;
} mark;

/* Marks the rows in the latest snapshot and commits them as a DELETE. */
static dl_status
delete_rows(tl_table *t, const mark *marks, size_t n_marks, dl_delta_dv_marks_result *res,
            dl_error *err) {
    dl_delta_snapshot *snap = tw_latest(t, err);
    if (snap == NULL) {
        return DL_ERR_INTERNAL;
    }
    dl_delta_dv_marks *m = NULL;
    dl_delta_tx *tx = NULL;
    dl_status s = dl_delta_dv_marks_new(snap, NULL, &m, err);
    for (size_t i = 0; i < n_marks && s == DL_OK; i++) {
        size_t index = 0;
        s = find_file(snap, marks[i].path, &index) != NULL
                ? dl_delta_dv_marks_add(m, index, marks[i].rows, marks[i].n, err)
                : dl_error_set(err, DL_ERR_NOT_FOUND, "no live file %s", marks[i].path);
    }
    if (s == DL_OK) {
        s = dl_delta_tx_begin(t->table, snap, NULL, &tx, err);
    }
    if (s == DL_OK) {
        dl_delta_tx_set_operation(tx, DL_DELTA_OP_DELETE);
        s = dl_delta_dv_marks_stage(m, tx, res, err);
    }
    if (s == DL_OK) {
        s = dl_delta_tx_commit(tx, NULL, err);
    }
    dl_delta_tx_free(tx);
    dl_delta_dv_marks_free(m);
    dl_delta_snapshot_unref(snap);
    return s;
}

/* Whether the live file path has a DV holding exactly rows[0, n), loaded through the reader. */
static bool
dv_is(tl_table *t, const char *path, const int64_t *rows, size_t n) {
    dl_error err;
    dl_delta_snapshot *snap = tw_latest(t, &err);
    size_t index = 0;
    const dl_delta_file *f = snap != NULL ? find_file(snap, path, &index) : NULL;
    dl_delta_dv *dv = NULL;
    bool is_same = f != NULL && f->dv != NULL && f->dv->storage_type == 'u' &&
                   dl_delta_dv_load(dl_delta_snapshot_store(snap), dl_delta_snapshot_root(snap),
                                    f->dv, NULL, &dv, &err) == DL_OK &&
                   dl_delta_dv_cardinality(dv) == (int64_t)n;
    for (size_t i = 0; is_same && i < n; i++) {
        is_same = dl_delta_dv_contains(dv, rows[i]);
    }
    dl_delta_dv_free(dv);
    dl_delta_snapshot_unref(snap);
    return is_same;
}

/* The stats text of the live file path in the latest snapshot (into buf). */
static bool
stats_of(tl_table *t, const char *path, char *buf, size_t cap) {
    dl_error err;
    dl_delta_snapshot *snap = tw_latest(t, &err);
    size_t index = 0;
    const dl_delta_file *f = snap != NULL ? find_file(snap, path, &index) : NULL;
    dl_delta_stats_reader rd;
    dl_delta_stats_reader_init(&rd, NULL);
    dl_str text = {0};
    bool has = false;
    bool is_ok = f != NULL && dl_delta_file_stats_json(snap, f, &rd, &text, &has, &err) == DL_OK &&
                 has && text.len < cap;
    if (is_ok) {
        memcpy(buf, text.ptr, text.len);
        buf[text.len] = '\0';
    }
    dl_delta_stats_reader_destroy(&rd);
    dl_delta_snapshot_unref(snap);
    return is_ok;
}

TEST(test_dv_delete_marks_rows_and_replaces_the_logical_file) {
    tl_table t;
    dl_error err;
    CHECK_OK(make_table(&t, &err) ? DL_OK : DL_ERR_INTERNAL, &err);
    static const int64_t rows[] = {7, 3, 7};
    mark m = {"p=x/a.parquet", rows, 3};
    dl_delta_dv_marks_result res;
    CHECK_OK(delete_rows(&t, &m, 1, &res, &err), &err);
    CHECK_INT_EQ(res.n_dvs_added, 1);
    CHECK_INT_EQ(res.n_dvs_updated, 0);
    CHECK_INT_EQ(res.n_files_removed, 0);
    CHECK(res.dv_file_bytes > 9);
    static const int64_t want[] = {3, 7};
    CHECK(dv_is(&t, "p=x/a.parquet", want, 2));
    char stats[512];
    CHECK(stats_of(&t, "p=x/a.parquet", stats, sizeof(stats)));
    CHECK_STR_EQ(stats, "{\"numRecords\":10,\"minValues\":{\"id\":0},\"maxValues\":{\"id\":9},"
                        "\"nullCount\":{\"id\":0},\"tightBounds\":false}");
    /* The commit: one remove and one add of a's path, nothing about b. */
    CHECK_INT_EQ(tw_count_actions(&t, 3, "add"), 1);
    CHECK_INT_EQ(tw_count_actions(&t, 3, "remove"), 1);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_dv_second_delete_unites_with_the_dv_and_removes_a_file_fully_deleted) {
    tl_table t;
    dl_error err;
    CHECK_OK(make_table(&t, &err) ? DL_OK : DL_ERR_INTERNAL, &err);
    static const int64_t first[] = {3, 7};
    static const int64_t b_some[] = {4};
    mark m1[] = {{"p=x/a.parquet", first, 2}, {"p=y/b.parquet", b_some, 1}};
    dl_delta_dv_marks_result res;
    CHECK_OK(delete_rows(&t, m1, 2, &res, &err), &err);
    CHECK_INT_EQ(res.n_dvs_added, 2);
    /* Both DVs in one file, at their own offsets. */
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    size_t ia = 0;
    size_t ib = 0;
    const dl_delta_file *fa = find_file(snap, "p=x/a.parquet", &ia);
    const dl_delta_file *fb = find_file(snap, "p=y/b.parquet", &ib);
    CHECK(fa != NULL && fb != NULL && fa->dv != NULL && fb->dv != NULL);
    CHECK(dl_str_eq(fa->dv->path_or_inline_dv, fb->dv->path_or_inline_dv));
    CHECK(fa->dv->offset == 1 || fb->dv->offset == 1);
    CHECK(fa->dv->offset != fb->dv->offset);
    CHECK_INT_EQ(res.dv_file_bytes, 1 + 2 * 8 + fa->dv->size_in_bytes + fb->dv->size_in_bytes);
    dl_delta_snapshot_unref(snap);
    /* Second delete: a gains row 0; b loses its other four rows and goes. */
    static const int64_t second[] = {0};
    static const int64_t b_rest[] = {0, 1, 2, 3};
    mark m2[] = {{"p=x/a.parquet", second, 1}, {"p=y/b.parquet", b_rest, 4}};
    CHECK_OK(delete_rows(&t, m2, 2, &res, &err), &err);
    CHECK_INT_EQ(res.n_dvs_added, 0);
    CHECK_INT_EQ(res.n_dvs_updated, 1);
    CHECK_INT_EQ(res.n_files_removed, 1);
    CHECK_INT_EQ(res.n_dvs_removed, 1);
    static const int64_t want[] = {0, 3, 7};
    CHECK(dv_is(&t, "p=x/a.parquet", want, 3));
    snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 1);
    dl_delta_snapshot_unref(snap);
    /* The removes carry the old DVs: a's remove has the first DV (cardinality 2). */
    char text[8192];
    CHECK(tw_read_log_file(&t, "00000000000000000004.json", text, sizeof(text)));
    CHECK(strstr(text, "\"cardinality\":2") != NULL);
    CHECK(strstr(text, "\"cardinality\":3") != NULL);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_dv_delete_refuses_a_row_past_the_end_of_the_file) {
    tl_table t;
    dl_error err;
    CHECK_OK(make_table(&t, &err) ? DL_OK : DL_ERR_INTERNAL, &err);
    static const int64_t rows[] = {10};
    mark m = {"p=x/a.parquet", rows, 1};
    dl_delta_dv_marks_result res;
    CHECK_INT_EQ(delete_rows(&t, &m, 1, &res, &err), DL_ERR_CORRUPT);
    CHECK(strstr(err.msg, "p=x/a.parquet: deleting row 10 of a file of 10 rows") != NULL);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_version(snap), 2);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

TEST(test_dv_delete_keeps_stats_and_marks_bounds_wide) {
    tl_table t;
    dl_error err;
    CHECK(tl_table_new(&t) && tw_volatile(&t));
    dl_delta_kv conf[] = {{"delta.enableDeletionVectors", "true"}};
    CHECK_OK(tw_create(&t, TW_SCHEMA_ID_P, NULL, 0, conf, 1, NULL, &err), &err);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    dl_delta_tx *tx = NULL;
    CHECK_OK(dl_delta_tx_begin(t.table, snap, NULL, &tx, &err), &err);
    dl_delta_add_file add = {
        .path = "c.parquet",
        .size = 100,
        .data_change = true,
        .stats = "{\"numRecords\":4,\"minValues\":{\"id\":1},\"maxValues\":{\"id\":9},"
                 "\"nullCount\":{\"id\":0},\"tightBounds\":true}"};
    CHECK_OK(dl_delta_tx_add(tx, &add, &err), &err);
    CHECK_OK(dl_delta_tx_commit(tx, NULL, &err), &err);
    dl_delta_tx_free(tx);
    dl_delta_snapshot_unref(snap);
    static const int64_t rows[] = {1};
    mark m = {"c.parquet", rows, 1};
    dl_delta_dv_marks_result res;
    CHECK_OK(delete_rows(&t, &m, 1, &res, &err), &err);
    char stats[512];
    CHECK(stats_of(&t, "c.parquet", stats, sizeof(stats)));
    CHECK_STR_EQ(stats, "{\"numRecords\":4,\"minValues\":{\"id\":1},\"maxValues\":{\"id\":9},"
                        "\"nullCount\":{\"id\":0},\"tightBounds\":false}");
    CHECK_LOG(&t);
    tl_table_free(&t);
}

TEST(test_dv_marks_count_each_row_once_and_check_their_input) {
    tl_table t;
    dl_error err;
    CHECK_OK(make_table(&t, &err) ? DL_OK : DL_ERR_INTERNAL, &err);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    size_t ia = 0;
    size_t ib = 0;
    CHECK(find_file(snap, "p=x/a.parquet", &ia) != NULL && find_file(snap, "p=y/b.parquet", &ib));
    dl_delta_dv_marks *m = NULL;
    CHECK_OK(dl_delta_dv_marks_new(snap, NULL, &m, &err), &err);
    static const int64_t a_rows[] = {1, 1, 2};
    static const int64_t b_rows[] = {2, 3};
    CHECK_OK(dl_delta_dv_marks_add(m, ia, a_rows, 3, &err), &err);
    CHECK_INT_EQ(dl_delta_dv_marks_rows(m), 2);
    CHECK_INT_EQ(dl_delta_dv_marks_files(m), 1);
    CHECK_OK(dl_delta_dv_marks_add(m, ib, b_rows, 2, &err), &err);
    CHECK_INT_EQ(dl_delta_dv_marks_rows(m), 4);
    CHECK_INT_EQ(dl_delta_dv_marks_files(m), 2);
    CHECK_STATUS(dl_delta_dv_marks_add(m, 7, a_rows, 1, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "file 7 of a snapshot with 2 live files");
    static const int64_t bad[] = {-1};
    CHECK_STATUS(dl_delta_dv_marks_add(m, ia, bad, 1, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "p=x/a.parquet");
    CHECK_INT_EQ(dl_delta_dv_marks_rows(m), 4);
    dl_delta_dv_marks_free(m);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

/* An unpartitioned DV table whose one file, d.parquet (4 rows), has no stats in the log. */
static bool
make_statless(tl_table *t, dl_error *err) {
    dl_delta_kv conf[] = {{"delta.enableDeletionVectors", "true"}};
    if (!tl_table_new(t) || !tw_volatile(t) ||
        tw_create(t, TW_SCHEMA_ID_P, NULL, 0, conf, 1, NULL, err) != DL_OK ||
        !tp_write(t->store, "d.parquet", TW_SCHEMA_ID_P,
                  "{\"id\":1}\n{\"id\":2}\n{\"id\":3}\n{\"id\":4}\n", NULL, err)) {
        return false;
    }
    dl_delta_snapshot *snap = tw_latest(t, err);
    dl_delta_tx *tx = NULL;
    dl_delta_add_file add = {.path = "d.parquet", .size = 100, .data_change = true};
    bool is_ok = snap != NULL && dl_delta_tx_begin(t->table, snap, NULL, &tx, err) == DL_OK &&
                 dl_delta_tx_add(tx, &add, err) == DL_OK &&
                 dl_delta_tx_commit(tx, NULL, err) == DL_OK;
    dl_delta_tx_free(tx);
    dl_delta_snapshot_unref(snap);
    return is_ok;
}

TEST(test_dv_delete_counts_a_file_without_stats_from_its_footer) {
    tl_table t;
    dl_error err;
    CHECK_OK(make_statless(&t, &err) ? DL_OK : DL_ERR_INTERNAL, &err);
    static const int64_t some[] = {0, 3};
    mark m = {"d.parquet", some, 2};
    dl_delta_dv_marks_result res;
    CHECK_OK(delete_rows(&t, &m, 1, &res, &err), &err);
    CHECK_INT_EQ(res.n_dvs_added, 1);
    char stats[512];
    CHECK(stats_of(&t, "d.parquet", stats, sizeof(stats)));
    CHECK_STR_EQ(stats, "{\"numRecords\":4,\"tightBounds\":false}");
    /* The other two rows: every row is now deleted, so the file goes. */
    static const int64_t rest[] = {1, 2};
    mark m2 = {"d.parquet", rest, 2};
    CHECK_OK(delete_rows(&t, &m2, 1, &res, &err), &err);
    CHECK_INT_EQ(res.n_files_removed, 1);
    CHECK_INT_EQ(res.n_dvs_removed, 1);
    dl_delta_snapshot *snap = tw_latest(&t, &err);
    CHECK(snap != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 0);
    dl_delta_snapshot_unref(snap);
    CHECK_LOG(&t);
    tl_table_free(&t);
}

int
main(void) {
    RUN(test_dv_delete_marks_rows_and_replaces_the_logical_file);
    RUN(test_dv_second_delete_unites_with_the_dv_and_removes_a_file_fully_deleted);
    RUN(test_dv_delete_refuses_a_row_past_the_end_of_the_file);
    RUN(test_dv_delete_keeps_stats_and_marks_bounds_wide);
    RUN(test_dv_marks_count_each_row_once_and_check_their_input);
    RUN(test_dv_delete_counts_a_file_without_stats_from_its_footer);
    return harness_finish();
}
