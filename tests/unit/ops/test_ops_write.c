/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The write path (src/ops/ops.h): partition values and folder escaping, Spark's stats JSON,
 * partitioned and rolled files, adds committed through a transaction and checked by the
 * write side's protocol checker (tests/unit/delta/test_delta_txn_check.c), aborts that leave
 * nothing behind, and the errors for rows that do not fit the table.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "ops/ops.h"
#include "test_delta_txn_util.h"

static const char *const parts_p[] = {"p"};

#define SCHEMA_ID_P_NOT_NULL                                                                 \
    "{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true," \
    "\"metadata\":{}},{\"name\":\"p\",\"type\":\"string\",\"nullable\":false,\"metadata\":{}}]}"

/* A batch of (id long, p string) rows for the table's schema; p NULL where ps[i] is NULL. */
static dl_batch *
make_batch(const dl_type *schema, const int64_t *ids, const char *const *ps, int n) {
    dl_batch *batch = NULL;
    if (dl_vec_batch_new(NULL, schema, n, &batch, NULL) != DL_OK) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        dl_status s1 = dl_vec_append_i64(batch->cols[0], ids[i], NULL);
        dl_status s2 = ps[i] == NULL
                           ? dl_vec_append_null(batch->cols[1], NULL)
                           : dl_vec_append_str(batch->cols[1], ps[i], strlen(ps[i]), NULL);
        if (s1 != DL_OK || s2 != DL_OK) {
            dl_vec_batch_free(batch);
            return NULL;
        }
    }
    dl_vec_batch_set_count(batch, n);
    return batch;
}

typedef struct fixture {
    tl_table t;
    dl_delta_snapshot *snap;
    dl_ops_writer *w;
} fixture;

static bool
fixture_open(fixture *f, const char *schema_json, const char *const *parts, int32_t n_parts,
             int64_t target) {
    memset(f, 0, sizeof(*f));
    dl_error err;
    if (!tl_table_new(&f->t) || !tl_open(&f->t) || !tw_volatile(&f->t) ||
        tw_create(&f->t, schema_json, parts, n_parts, NULL, 0, NULL, &err) != DL_OK) {
        return false;
    }
    f->snap = tw_latest(&f->t, &err);
    if (f->snap == NULL) {
        return false;
    }
    const dl_delta_metadata *md = dl_delta_snapshot_metadata(f->snap);
    dl_ops_write_spec spec = {.store = f->t.store,
                              .table_root = "",
                              .schema = dl_delta_snapshot_schema(f->snap)->type,
                              .partition_columns = md->partition_columns,
                              .n_partition_columns = md->n_partition_columns,
                              .job_id = "00000000-0000-4000-8000-000000000001",
                              .target_file_bytes = target,
                              .data_change = true};
    return dl_ops_writer_new(&spec, &f->w, &err) == DL_OK;
}

static void
fixture_close(fixture *f) {
    dl_ops_writer_free(f->w);
    dl_delta_snapshot_unref(f->snap);
    tl_table_free(&f->t);
}

/* Writes the rows, closes the files and commits them as one WRITE. */
static dl_status
write_and_commit(fixture *f, const int64_t *ids, const char *const *ps, int n, dl_error *err) {
    dl_batch *batch = make_batch(dl_delta_snapshot_schema(f->snap)->type, ids, ps, n);
    if (batch == NULL) {
        return dl_error_set(err, DL_ERR_NOMEM, "batch");
    }
    dl_status s = dl_ops_writer_write(f->w, batch, err);
    dl_vec_batch_free(batch);
    s = s == DL_OK ? dl_ops_writer_finish(f->w, err) : s;
    dl_delta_tx *tx = NULL;
    s = s == DL_OK ? dl_delta_tx_begin(f->t.table, f->snap, NULL, &tx, err) : s;
    s = s == DL_OK ? dl_ops_writer_stage(f->w, tx, true, err) : s;
    s = s == DL_OK ? dl_delta_tx_commit(tx, NULL, err) : s;
    dl_delta_tx_free(tx);
    return s;
}

static bool
file_exists(fixture *f, const char *path) {
    dl_store_info info;
    dl_error err;
    return dl_store_stat(f->t.store, path, &info, &err) == DL_OK;
}

/* ---- values and names --------------------------------------------------------------------- */

TEST(test_decimal_text_keeps_scale_and_sign) {
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK(dl_ops_decimal_text(-150, 2, &out, NULL) == DL_OK);
    CHECK_STR_EQ(dl_buf_cstr(&out), "-1.50");
    dl_buf_reset(&out);
    CHECK(dl_ops_decimal_text(5, 3, &out, NULL) == DL_OK);
    CHECK_STR_EQ(dl_buf_cstr(&out), "0.005");
    dl_buf_reset(&out);
    CHECK(dl_ops_decimal_text(1234567, 0, &out, NULL) == DL_OK);
    CHECK_STR_EQ(dl_buf_cstr(&out), "1234567");
    dl_buf_destroy(&out);
}

TEST(test_path_escape_follows_spark) {
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK(dl_ops_path_escape(DL_STR("a/b=c%d e:f"), &out, NULL) == DL_OK);
    CHECK_STR_EQ(dl_buf_cstr(&out), "a%2Fb%3Dc%25d e%3Af");
    dl_buf_destroy(&out);
}

TEST(test_partition_values_serialise_as_the_protocol_says) {
    dl_vector *v = NULL;
    dl_buf out;
    dl_buf_init(&out, NULL);
    bool is_null = false;
    CHECK(dl_vec_new(NULL, dl_vec_type_prim(DL_VEC_TYPE_DATE), 2, &v, NULL) == DL_OK);
    CHECK(dl_vec_append_i32(v, 19723, NULL) == DL_OK);
    CHECK(dl_vec_append_null(v, NULL) == DL_OK);
    CHECK(dl_ops_partition_value(v, 0, &out, &is_null, NULL) == DL_OK);
    CHECK(!is_null);
    CHECK_STR_EQ(dl_buf_cstr(&out), "2024-01-01");
    CHECK(dl_ops_partition_value(v, 1, &out, &is_null, NULL) == DL_OK);
    CHECK(is_null);
    dl_vec_unref(v);
    CHECK(dl_vec_new(NULL, dl_vec_type_prim(DL_VEC_TYPE_STRING), 1, &v, NULL) == DL_OK);
    CHECK(dl_vec_append_str(v, "", 0, NULL) == DL_OK);
    dl_buf_reset(&out);
    CHECK(dl_ops_partition_value(v, 0, &out, &is_null, NULL) == DL_OK);
    CHECK(is_null); /* the empty string is a null partition value, as in Spark */
    dl_vec_unref(v);
    dl_buf_destroy(&out);
}

TEST(test_binary_partition_value_is_unsupported) {
    dl_vector *v = NULL;
    dl_error err;
    dl_buf out;
    dl_buf_init(&out, NULL);
    bool is_null = false;
    CHECK(dl_vec_new(NULL, dl_vec_type_prim(DL_VEC_TYPE_BINARY), 1, &v, NULL) == DL_OK);
    CHECK(dl_vec_append_str(v, "x", 1, NULL) == DL_OK);
    CHECK_STATUS(dl_ops_partition_value(v, 0, &out, &is_null, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK(strstr(err.msg, "binary") != NULL);
    dl_vec_unref(v);
    dl_buf_destroy(&out);
}

/* ---- files and commits --------------------------------------------------------------------- */

TEST(test_unpartitioned_write_commits_one_file_with_stats) {
    fixture f;
    CHECK(fixture_open(&f, TW_SCHEMA_ID_P, NULL, 0, 0));
    static const int64_t ids[] = {3, 1, 2};
    static const char *const ps[] = {"b", NULL, "a"};
    dl_error err;
    CHECK_STATUS(write_and_commit(&f, ids, ps, 3, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_ops_writer_file_count(f.w), 1);
    const dl_ops_file *file = dl_ops_writer_file(f.w, 0);
    CHECK_STR_EQ(file->path, "part-00000-00000000-0000-4000-8000-000000000001.c000.snappy.parquet");
    CHECK_STR_EQ(file->stats, "{\"numRecords\":3,\"minValues\":{\"id\":1,\"p\":\"a\"},"
                              "\"maxValues\":{\"id\":3,\"p\":\"b\"},\"nullCount\":{\"id\":0,"
                              "\"p\":1}}");
    CHECK_INT_EQ(dl_ops_writer_rows(f.w), 3);
    CHECK(file_exists(&f, file->path));
    CHECK(tw_count_actions(&f.t, 1, "add") == 1);
    CHECK_LOG(&f.t);
    fixture_close(&f);
}

/* Which of the three partitions the file is (1, 2, 4), 0 when its folder and values disagree. */
static int
classify(const dl_ops_file *file) {
    const char *v = file->partition_values[0].value;
    if (strncmp(file->path, "p=a/", 4) == 0) {
        return v != NULL && strcmp(v, "a") == 0 && file->num_records == 2 ? 1 : 0;
    }
    if (strncmp(file->path, "p=x%2Fy/", 8) == 0) {
        return v != NULL && strcmp(v, "x/y") == 0 ? 2 : 0;
    }
    if (strncmp(file->path, "p=" DL_OPS_NULL_PARTITION "/", 29) == 0) {
        return v == NULL ? 4 : 0;
    }
    return 0;
}

TEST(test_partitioned_write_makes_hive_folders) {
    fixture f;
    CHECK(fixture_open(&f, TW_SCHEMA_ID_P, parts_p, 1, 0));
    static const int64_t ids[] = {1, 2, 3, 4};
    static const char *const ps[] = {"a", "x/y", NULL, "a"};
    dl_error err;
    CHECK_STATUS(write_and_commit(&f, ids, ps, 4, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_ops_writer_file_count(f.w), 3);
    int seen = 0;
    for (size_t i = 0; i < dl_ops_writer_file_count(f.w); i++) {
        const dl_ops_file *file = dl_ops_writer_file(f.w, i);
        CHECK(file_exists(&f, file->path));
        CHECK_INT_EQ(file->n_partition_values, 1);
        /* The partition column is not in the file's statistics. */
        CHECK(strstr(file->stats, "\"p\"") == NULL);
        seen |= classify(file);
    }
    CHECK_INT_EQ(seen, 7);
    CHECK_LOG(&f.t);
    dl_delta_snapshot *snap = tw_latest(&f.t, &err);
    CHECK(snap != NULL);
    CHECK_INT_EQ(dl_delta_snapshot_file_count(snap), 3);
    dl_delta_snapshot_unref(snap);
    fixture_close(&f);
}

TEST(test_files_roll_at_the_target_size) {
    fixture f;
    CHECK(fixture_open(&f, TW_SCHEMA_ID_P, NULL, 0, 1));
    static const int64_t ids[] = {1, 2};
    static const char *const ps[] = {"a", "b"};
    dl_batch *batch = make_batch(dl_delta_snapshot_schema(f.snap)->type, ids, ps, 2);
    CHECK(batch != NULL);
    dl_error err;
    CHECK_STATUS(dl_ops_writer_write(f.w, batch, &err), DL_OK, &err);
    CHECK_STATUS(dl_ops_writer_write(f.w, batch, &err), DL_OK, &err);
    dl_vec_batch_free(batch);
    CHECK_STATUS(dl_ops_writer_finish(f.w, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_ops_writer_file_count(f.w), 2);
    CHECK(strcmp(dl_ops_writer_file(f.w, 0)->path, dl_ops_writer_file(f.w, 1)->path) != 0);
    fixture_close(&f);
}

TEST(test_abort_removes_every_file_written) {
    fixture f;
    CHECK(fixture_open(&f, TW_SCHEMA_ID_P, parts_p, 1, 0));
    static const int64_t ids[] = {1, 2};
    static const char *const ps[] = {"a", "b"};
    dl_batch *batch = make_batch(dl_delta_snapshot_schema(f.snap)->type, ids, ps, 2);
    CHECK(batch != NULL);
    dl_error err;
    CHECK_STATUS(dl_ops_writer_write(f.w, batch, &err), DL_OK, &err);
    dl_vec_batch_free(batch);
    CHECK_STATUS(dl_ops_writer_finish(f.w, &err), DL_OK, &err);
    char paths[2][256];
    for (size_t i = 0; i < 2; i++) {
        (void)snprintf(paths[i], sizeof(paths[i]), "%s", dl_ops_writer_file(f.w, i)->path);
        CHECK(file_exists(&f, paths[i]));
    }
    dl_ops_writer_abort(f.w);
    CHECK_INT_EQ(dl_ops_writer_file_count(f.w), 0);
    CHECK(!file_exists(&f, paths[0]));
    CHECK(!file_exists(&f, paths[1]));
    fixture_close(&f);
}

TEST(test_wrong_column_type_is_a_schema_error_naming_it) {
    fixture f;
    CHECK(fixture_open(&f, TW_SCHEMA_ID_P, NULL, 0, 0));
    const dl_type_field fields[] = {
        {.name = "id", .type = dl_vec_type_prim(DL_VEC_TYPE_INT), .is_nullable = true},
        {.name = "p", .type = dl_vec_type_prim(DL_VEC_TYPE_STRING), .is_nullable = true}};
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    const dl_type *wrong = NULL;
    CHECK(dl_vec_type_struct(&arena, fields, 2, &wrong, NULL) == DL_OK);
    dl_batch *batch = NULL;
    CHECK(dl_vec_batch_new(NULL, wrong, 1, &batch, NULL) == DL_OK);
    CHECK(dl_vec_append_i32(batch->cols[0], 1, NULL) == DL_OK);
    CHECK(dl_vec_append_str(batch->cols[1], "a", 1, NULL) == DL_OK);
    dl_vec_batch_set_count(batch, 1);
    dl_error err;
    dl_status s = dl_ops_writer_write(f.w, batch, &err);
    dl_vec_batch_free(batch);
    dl_arena_destroy(&arena);
    CHECK_STATUS(s, DL_ERR_SCHEMA, &err);
    CHECK(strstr(err.msg, "column 'id' is bigint in the table, not int") != NULL);
    fixture_close(&f);
}

TEST(test_null_in_not_null_partition_column_is_a_constraint_error) {
    fixture f;
    CHECK(fixture_open(&f, SCHEMA_ID_P_NOT_NULL, parts_p, 1, 0));
    static const int64_t ids[] = {1};
    static const char *const ps[] = {NULL};
    dl_batch *batch = make_batch(dl_delta_snapshot_schema(f.snap)->type, ids, ps, 1);
    CHECK(batch != NULL);
    dl_error err;
    dl_status s = dl_ops_writer_write(f.w, batch, &err);
    dl_vec_batch_free(batch);
    CHECK_STATUS(s, DL_ERR_CONSTRAINT, &err);
    CHECK(strstr(err.msg, "NOT NULL constraint violated for column: p") != NULL);
    fixture_close(&f);
}

TEST(test_partition_column_not_in_schema_is_refused) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    const dl_type_field fields[] = {
        {.name = "id", .type = dl_vec_type_prim(DL_VEC_TYPE_LONG), .is_nullable = true}};
    const dl_type *schema = NULL;
    CHECK(dl_vec_type_struct(&arena, fields, 1, &schema, NULL) == DL_OK);
    static const char *const parts[] = {"nope"};
    tl_table t;
    CHECK(tl_table_new(&t) && tl_open(&t));
    dl_ops_write_spec spec = {.store = t.store,
                              .table_root = "",
                              .schema = schema,
                              .partition_columns = parts,
                              .n_partition_columns = 1,
                              .job_id = "j"};
    dl_ops_writer *w = NULL;
    dl_error err;
    dl_status s = dl_ops_writer_new(&spec, &w, &err);
    tl_table_free(&t);
    dl_arena_destroy(&arena);
    CHECK_STATUS(s, DL_ERR_INVALID_ARG, &err);
    CHECK(strstr(err.msg, "'nope'") != NULL);
}

TEST(test_infinite_bounds_are_left_out_of_stats) {
    fixture f;
    CHECK(fixture_open(&f,
                       "{\"type\":\"struct\",\"fields\":[{\"name\":\"d\",\"type\":\"double\","
                       "\"nullable\":true,\"metadata\":{}}]}",
                       NULL, 0, 0));
    dl_batch *batch = NULL;
    CHECK(dl_vec_batch_new(NULL, dl_delta_snapshot_schema(f.snap)->type, 2, &batch, NULL) == DL_OK);
    CHECK(dl_vec_append_f64(batch->cols[0], 1.5, NULL) == DL_OK);
    CHECK(dl_vec_append_f64(batch->cols[0], HUGE_VAL, NULL) == DL_OK);
    dl_vec_batch_set_count(batch, 2);
    dl_error err;
    dl_status s = dl_ops_writer_write(f.w, batch, &err);
    dl_vec_batch_free(batch);
    CHECK_STATUS(s, DL_OK, &err);
    CHECK_STATUS(dl_ops_writer_finish(f.w, &err), DL_OK, &err);
    CHECK_STR_EQ(dl_ops_writer_file(f.w, 0)->stats,
                 "{\"numRecords\":2,\"minValues\":{\"d\":1.5},\"maxValues\":{},\"nullCount\":{"
                 "\"d\":0}}");
    fixture_close(&f);
}

/* Spark cuts both timestamp bounds down to the millisecond (readers widen the max); rounding
 * the max up wrote 9999-12-31 23:59:59.999999 as +10000-01-01, which Spark cannot parse. */
TEST(test_timestamp_bounds_are_cut_to_the_millisecond) {
    fixture f;
    CHECK(fixture_open(&f,
                       "{\"type\":\"struct\",\"fields\":[{\"name\":\"ts\",\"type\":\"timestamp\","
                       "\"nullable\":true,\"metadata\":{}},{\"name\":\"tn\",\"type\":"
                       "\"timestamp_ntz\",\"nullable\":true,\"metadata\":{}}]}",
                       NULL, 0, 0));
    dl_batch *batch = NULL;
    CHECK(dl_vec_batch_new(NULL, dl_delta_snapshot_schema(f.snap)->type, 2, &batch, NULL) == DL_OK);
    const int64_t max_us = INT64_C(253402300799999999); /* 9999-12-31 23:59:59.999999 */
    const int64_t before_epoch = -1500;                 /* 1969-12-31 23:59:59.9985 */
    for (int c = 0; c < 2; c++) {
        CHECK(dl_vec_append_i64(batch->cols[c], max_us, NULL) == DL_OK);
        CHECK(dl_vec_append_i64(batch->cols[c], before_epoch, NULL) == DL_OK);
    }
    dl_vec_batch_set_count(batch, 2);
    dl_error err;
    dl_status s = dl_ops_writer_write(f.w, batch, &err);
    dl_vec_batch_free(batch);
    CHECK_STATUS(s, DL_OK, &err);
    CHECK_STATUS(dl_ops_writer_finish(f.w, &err), DL_OK, &err);
    CHECK_STR_EQ(dl_ops_writer_file(f.w, 0)->stats,
                 "{\"numRecords\":2,\"minValues\":{\"ts\":\"1969-12-31T23:59:59.998Z\",\"tn\":"
                 "\"1969-12-31T23:59:59.998\"},\"maxValues\":{\"ts\":\"9999-12-31T23:59:59.999Z\","
                 "\"tn\":\"9999-12-31T23:59:59.999\"},\"nullCount\":{\"ts\":0,\"tn\":0}}");
    fixture_close(&f);
}

int
main(void) {
    RUN(test_decimal_text_keeps_scale_and_sign);
    RUN(test_path_escape_follows_spark);
    RUN(test_partition_values_serialise_as_the_protocol_says);
    RUN(test_binary_partition_value_is_unsupported);
    RUN(test_unpartitioned_write_commits_one_file_with_stats);
    RUN(test_partitioned_write_makes_hive_folders);
    RUN(test_files_roll_at_the_target_size);
    RUN(test_abort_removes_every_file_written);
    RUN(test_wrong_column_type_is_a_schema_error_naming_it);
    RUN(test_null_in_not_null_partition_column_is_a_constraint_error);
    RUN(test_partition_column_not_in_schema_is_refused);
    RUN(test_infinite_bounds_are_left_out_of_stats);
    RUN(test_timestamp_bounds_are_cut_to_the_millisecond);
    return harness_finish();
}
