/* SPDX-License-Identifier: Apache-2.0 */
/* Table scans: columns, partition values, deletion vectors, column mapping, schema evolution,
 * type widening, file and row-group skipping, parallel units (delta_scan*.c). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/pool.h"
#include "delta/delta_scan.h"
#include "delta_rows.h"
#include "harness.h"
#include "test_delta_cp_util.h"
#include "test_delta_log_util.h"

/* ---- building tables ----------------------------------------------------------------- */

#define FIELD(name, type) \
    "{\"name\":\"" name "\",\"type\":\"" type "\",\"nullable\":true,\"metadata\":{}}"
#define SCHEMA(fields) "{\"type\":\"struct\",\"fields\":[" fields "]}"

/* Commit 0: protocol, metaData with schema_json (escaped here), partition columns and
 * configuration (JSON), then extra lines. */
static bool
commit0(tl_table *t, const char *protocol, const char *schema_json, const char *parts,
        const char *conf, const char *extra) {
    dl_buf b;
    dl_buf_init(&b, NULL);
    dl_json_writer w;
    dl_json_writer_init(&w, &b, 0);
    bool ok = dl_buf_appendf(&b, NULL,
                             "%s\n{\"metaData\":{\"id\":\"t\",\"format\":{\"provider\":"
                             "\"parquet\",\"options\":{}},\"schemaString\":",
                             protocol) == DL_OK &&
              dl_json_writer_string_cstr(&w, schema_json, NULL) == DL_OK &&
              dl_buf_appendf(&b, NULL, ",\"partitionColumns\":%s,\"configuration\":%s}}\n%s", parts,
                             conf, extra) == DL_OK &&
              tl_commit(t, 0, dl_buf_cstr(&b));
    dl_json_writer_destroy(&w);
    dl_buf_destroy(&b);
    return ok;
}

static bool
data_file(tl_table *t, const char *path, const char *schema_json, const char *rows,
          const tp_options *o) {
    dl_error err;
    const char *slash = strrchr(path, '/');
    if (slash) {
        char dir[512];
        (void)snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
        if (dl_store_mkdirs(t->store, dir, &err) != DL_OK) {
            printf("  mkdirs: %s\n", err.msg);
            return false;
        }
    }
    if (!tp_write(t->store, path, schema_json, rows, o, &err)) {
        printf("  tp_write: %s\n", err.msg);
        return false;
    }
    return true;
}

#define P12 "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}"
#define ADD(path, pv, stats)                                                 \
    "{\"add\":{\"path\":\"" path "\",\"partitionValues\":" pv ",\"size\":1," \
    "\"modificationTime\":1,\"dataChange\":true" stats "}}\n"

/* Scans snap with opts into rows; also returns the scan's statistics. */
static dl_status
scan_rows(dl_delta_snapshot *snap, const dl_delta_scan_options *opts, dr_rows *rows,
          dl_delta_scan_stats *stats, dl_error *err) {
    dl_delta_scan *scan = NULL;
    DL_TRY(dl_delta_scan_new(snap, opts, &scan, err));
    dl_batch *batch = NULL;
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_status st = dl_vec_batch_new(NULL, dl_delta_scan_schema(scan), 0, &batch, err);
    bool has = st == DL_OK;
    while (st == DL_OK && has) {
        st = dl_delta_scan_next(scan, batch, &has, err);
        if (st == DL_OK && has) {
            st = dl_vec_batch_check(batch, err);
        }
        if (st == DL_OK && has) {
            st = dr_rows_add_batch(rows, batch, &doc, err);
        }
    }
    if (stats) {
        dl_delta_scan_get_stats(scan, stats);
    }
    dl_json_doc_destroy(&doc);
    dl_vec_batch_free(batch);
    dl_delta_scan_free(scan);
    return st;
}

/* Checks the scan's rows against want ('\n'-separated JSON objects). */
static bool
rows_are(dr_rows *got, const char *want) {
    dr_rows w;
    dr_rows_init(&w);
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_buf tmp;
    dl_buf_init(&tmp, NULL);
    dl_json_lines it;
    dl_json_lines_init(&it, want, strlen(want));
    dl_str line;
    bool ok = true;
    while (ok && dl_json_lines_next(&it, &line)) {
        ok = line.len == 0 || dr_rows_add_json(&w, line, &doc, &tmp, NULL) == DL_OK;
    }
    char why[1024];
    ok = ok && dr_rows_equal(got, &w, why, sizeof(why));
    if (!ok) {
        printf("  rows differ: %s\n", why);
    }
    dl_buf_destroy(&tmp);
    dl_json_doc_destroy(&doc);
    dr_rows_destroy(&w);
    return ok;
}

static dl_delta_snapshot *
latest(tl_table *t) {
    dl_delta_snapshot *snap = NULL;
    dl_error err;
    if (dl_delta_snapshot_latest(t->table, NULL, &snap, &err) != DL_OK) {
        printf("  load: %s\n", err.msg);
    }
    return snap;
}

/* ---- a partitioned table ------------------------------------------------------------- */

#define T1_SCHEMA SCHEMA(FIELD("id", "long") "," FIELD("s", "string") "," FIELD("p", "integer"))
#define T1_DATA   SCHEMA(FIELD("id", "long") "," FIELD("s", "string"))
#define T1_STATS(lo, hi, nulls)                                                              \
    ",\"stats\":\"{\\\"numRecords\\\":3,\\\"minValues\\\":{\\\"id\\\":" lo "},"              \
    "\\\"maxValues\\\":{\\\"id\\\":" hi "},\\\"nullCount\\\":{\\\"id\\\":0,\\\"s\\\":" nulls \
    "}}\""

static bool
make_t1(tl_table *t) {
    return tl_table_new(t) &&
           data_file(t, "p=1/a.parquet", T1_DATA,
                     "{\"id\":1,\"s\":\"x\"}\n{\"id\":2,\"s\":null}\n{\"id\":3,\"s\":\"z\"}\n",
                     NULL) &&
           data_file(t, "p=2/b.parquet", T1_DATA,
                     "{\"id\":10,\"s\":\"u\"}\n{\"id\":11,\"s\":\"v\"}\n{\"id\":12,\"s\":\"w\"}\n",
                     NULL) &&
           data_file(t, "p=null/c.parquet", T1_DATA,
                     "{\"id\":20,\"s\":\"k\"}\n{\"id\":21,\"s\":\"l\"}\n{\"id\":22,\"s\":\"m\"}\n",
                     NULL) &&
           commit0(t, P12, T1_SCHEMA, "[\"p\"]", "{}",
                   ADD("p=1/a.parquet", "{\"p\":\"1\"}", T1_STATS("1", "3", "1"))
                       ADD("p=2/b.parquet", "{\"p\":\"2\"}", T1_STATS("10", "12", "0"))
                           ADD("p=null/c.parquet", "{\"p\":null}", ""));
}

TEST(test_scan_returns_every_row_with_partition_values) {
    tl_table t;
    CHECK(make_t1(&t));
    dl_delta_snapshot *snap = latest(&t);
    CHECK(snap);
    dr_rows rows;
    dr_rows_init(&rows);
    dl_error err;
    dl_delta_scan_stats st;
    CHECK_STATUS(scan_rows(snap, NULL, &rows, &st, &err), DL_OK, &err);
    bool ok =
        rows_are(&rows, "{\"id\":\"1\",\"s\":\"x\",\"p\":1}\n{\"id\":\"2\",\"s\":null,\"p\":1}\n"
                        "{\"id\":\"3\",\"s\":\"z\",\"p\":1}\n{\"id\":\"10\",\"s\":\"u\",\"p\":2}\n"
                        "{\"id\":\"11\",\"s\":\"v\",\"p\":2}\n{\"id\":\"12\",\"s\":\"w\",\"p\":2}\n"
                        "{\"id\":\"20\",\"s\":\"k\",\"p\":null}\n"
                        "{\"id\":\"21\",\"s\":\"l\",\"p\":null}\n"
                        "{\"id\":\"22\",\"s\":\"m\",\"p\":null}\n");
    dr_rows_destroy(&rows);
    CHECK(ok);
    CHECK_INT_EQ(st.files_total, 3);
    CHECK_INT_EQ(st.files_read, 3);
    CHECK_INT_EQ(st.rows_read, 9);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

TEST(test_scan_returns_the_requested_columns_in_order) {
    tl_table t;
    CHECK(make_t1(&t));
    dl_delta_snapshot *snap = latest(&t);
    CHECK(snap);
    const char *cols[] = {"P", "id"};
    dl_delta_scan_options o = {.columns = cols, .n_columns = 2};
    dl_delta_scan *scan = NULL;
    dl_error err;
    CHECK_STATUS(dl_delta_scan_new(snap, &o, &scan, &err), DL_OK, &err);
    const dl_type *schema = dl_delta_scan_schema(scan);
    CHECK_INT_EQ(schema->n_fields, 2);
    CHECK_STR_EQ(schema->fields[0].name, "p");
    CHECK_INT_EQ(schema->fields[0].type->id, DL_VEC_TYPE_INT);
    CHECK_STR_EQ(schema->fields[1].name, "id");
    dl_delta_scan_free(scan);
    /* No columns at all: only row counts. */
    o = (dl_delta_scan_options){.columns = cols, .n_columns = 0};
    dr_rows rows;
    dr_rows_init(&rows);
    CHECK_STATUS(scan_rows(snap, &o, &rows, NULL, &err), DL_OK, &err);
    CHECK_INT_EQ(rows.n, 9);
    dr_rows_destroy(&rows);
    const char *bad[] = {"nope"};
    o = (dl_delta_scan_options){.columns = bad, .n_columns = 1};
    CHECK_STATUS(dl_delta_scan_new(snap, &o, &scan, &err), DL_ERR_NOT_FOUND, &err);
    CHECK(strstr(err.msg, "column 'nope' does not exist; the columns are: id, s, p") != NULL);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

/* A file set reads only its files, before any skipping; units name their files by index. */
TEST(test_scan_reads_only_the_files_in_its_file_set) {
    tl_table t;
    CHECK(make_t1(&t));
    dl_delta_snapshot *snap = latest(&t);
    CHECK(snap);
    size_t want = 3;
    for (size_t i = 0; i < dl_delta_snapshot_file_count(snap); i++) {
        if (strcmp(dl_delta_snapshot_file(snap, i)->path.ptr, "p=2/b.parquet") == 0) {
            want = i;
        }
    }
    CHECK(want < 3);
    uint8_t set[3] = {0, 0, 0};
    set[want] = 1;
    dl_delta_scan_options o = {.file_set = set};
    dl_delta_scan *scan = NULL;
    dl_error err;
    CHECK_STATUS(dl_delta_scan_new(snap, &o, &scan, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_scan_unit_count(scan), 1);
    CHECK_INT_EQ(dl_delta_scan_unit_file_index(scan, 0), want);
    CHECK_STR_EQ(dl_delta_scan_unit_file(scan, 0)->path.ptr, "p=2/b.parquet");
    dl_delta_scan_free(scan);
    dr_rows rows;
    dr_rows_init(&rows);
    CHECK_STATUS(scan_rows(snap, &o, &rows, NULL, &err), DL_OK, &err);
    bool ok = rows_are(&rows, "{\"id\":\"10\",\"s\":\"u\",\"p\":2}\n"
                              "{\"id\":\"11\",\"s\":\"v\",\"p\":2}\n"
                              "{\"id\":\"12\",\"s\":\"w\",\"p\":2}\n");
    dr_rows_destroy(&rows);
    CHECK(ok);
    set[want] = 0;
    CHECK_STATUS(dl_delta_scan_new(snap, &o, &scan, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_scan_unit_count(scan), 0);
    dl_delta_scan_free(scan);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

static const char *const id_col[] = {"id"};
static const char *const p_col[] = {"p"};
static const char *const s_col[] = {"s"};

/* Files left after planning with pred, and how they were skipped. */
static bool
planned(dl_delta_snapshot *snap, const dl_delta_pred *pred, int64_t want_units,
        int64_t want_by_partition, int64_t want_by_stats) {
    dl_delta_scan_options o = {.predicate = pred};
    dl_delta_scan *scan = NULL;
    dl_error err;
    if (dl_delta_scan_new(snap, &o, &scan, &err) != DL_OK) {
        printf("  scan: %s\n", err.msg);
        return false;
    }
    dl_delta_scan_stats st;
    dl_delta_scan_get_stats(scan, &st);
    int64_t units = (int64_t)dl_delta_scan_unit_count(scan);
    dl_delta_scan_free(scan);
    if (units != want_units || st.files_skipped_partition != want_by_partition ||
        st.files_skipped_stats != want_by_stats) {
        printf("  %lld units (skipped %lld by partition, %lld by stats), expected %lld (%lld, "
               "%lld)\n",
               (long long)units, (long long)st.files_skipped_partition,
               (long long)st.files_skipped_stats, (long long)want_units,
               (long long)want_by_partition, (long long)want_by_stats);
        return false;
    }
    return true;
}

#define LEAF(o, c, v) \
    { .op = (o), .column = (c), .n_column = 1, .values = (v), .n_values = 1 }

TEST(test_scan_skips_files_by_partition_values_and_stats) {
    tl_table t;
    CHECK(make_t1(&t));
    dl_delta_snapshot *snap = latest(&t);
    CHECK(snap);
    dl_delta_scalar one = {.kind = DL_DELTA_SCALAR_INT, .i = 1};
    dl_delta_scalar eleven = {.kind = DL_DELTA_SCALAR_INT, .i = 11};
    dl_delta_scalar five = {.kind = DL_DELTA_SCALAR_INT, .i = 5};
    dl_delta_scalar null = {.kind = DL_DELTA_SCALAR_NULL};
    dl_delta_pred p_eq_1 = LEAF(DL_DELTA_PRED_EQ, p_col, &one);
    CHECK(planned(snap, &p_eq_1, 1, 2, 0));
    dl_delta_pred p_null = {.op = DL_DELTA_PRED_IS_NULL, .column = p_col, .n_column = 1};
    CHECK(planned(snap, &p_null, 1, 2, 0));
    dl_delta_pred id_eq_11 = LEAF(DL_DELTA_PRED_EQ, id_col, &eleven);
    CHECK(planned(snap, &id_eq_11, 2, 0, 1)); /* c.parquet has no stats: kept */
    dl_delta_pred id_gt_5 = LEAF(DL_DELTA_PRED_GT, id_col, &five);
    CHECK(planned(snap, &id_gt_5, 2, 0, 1));
    dl_delta_pred id_le_5 = LEAF(DL_DELTA_PRED_LE, id_col, &five);
    CHECK(planned(snap, &id_le_5, 2, 0, 1));
    /* NOT (id > 5) is id <= 5. */
    dl_delta_pred not_gt = {.op = DL_DELTA_PRED_NOT, .children = &id_gt_5, .n_children = 1};
    CHECK(planned(snap, &not_gt, 2, 0, 1));
    /* OR: either side may match. */
    dl_delta_pred either[2] = {p_eq_1, id_eq_11};
    dl_delta_pred p_or = {.op = DL_DELTA_PRED_OR, .children = either, .n_children = 2};
    CHECK(planned(snap, &p_or, 3, 0, 0));
    dl_delta_pred p_and = {.op = DL_DELTA_PRED_AND, .children = either, .n_children = 2};
    CHECK(planned(snap, &p_and, 0, 2, 1));
    /* NOT (p = 1 AND id = 11) is p <> 1 OR id <> 11: nothing can be ruled out. */
    dl_delta_pred not_and = {.op = DL_DELTA_PRED_NOT, .children = &p_and, .n_children = 1};
    CHECK(planned(snap, &not_and, 3, 0, 0));
    /* IN: 5 and 11 only fit b.parquet's range. */
    dl_delta_scalar in_vals[2] = {five, eleven};
    dl_delta_pred id_in = {
        .op = DL_DELTA_PRED_IN, .column = id_col, .n_column = 1, .values = in_vals, .n_values = 2};
    CHECK(planned(snap, &id_in, 2, 0, 1));
    /* A comparison with NULL is never true. */
    dl_delta_pred id_eq_null = LEAF(DL_DELTA_PRED_EQ, id_col, &null);
    CHECK(planned(snap, &id_eq_null, 0, 3, 0));
    /* s IS NULL: only a.parquet has nulls (c.parquet has no stats). */
    dl_delta_pred s_null = {.op = DL_DELTA_PRED_IS_NULL, .column = s_col, .n_column = 1};
    CHECK(planned(snap, &s_null, 2, 0, 1));
    dl_delta_scan_stats st;
    dr_rows rows;
    dr_rows_init(&rows);
    dl_delta_scan_options o = {.predicate = &p_eq_1};
    dl_error err;
    CHECK_STATUS(scan_rows(snap, &o, &rows, &st, &err), DL_OK, &err);
    CHECK_INT_EQ(rows.n, 3);
    dr_rows_destroy(&rows);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

TEST(test_scan_predicate_errors_name_the_problem) {
    tl_table t;
    CHECK(make_t1(&t));
    dl_delta_snapshot *snap = latest(&t);
    CHECK(snap);
    const char *bad[] = {"missing"};
    dl_delta_scalar one = {.kind = DL_DELTA_SCALAR_INT, .i = 1};
    dl_delta_pred unknown = LEAF(DL_DELTA_PRED_EQ, bad, &one);
    dl_delta_scan_options o = {.predicate = &unknown};
    dl_delta_scan *scan = NULL;
    dl_error err;
    CHECK_STATUS(dl_delta_scan_new(snap, &o, &scan, &err), DL_ERR_NOT_FOUND, &err);
    CHECK(strstr(err.msg, "predicate column 'missing' does not exist") != NULL);
    dl_delta_pred no_value = {.op = DL_DELTA_PRED_LT, .column = id_col, .n_column = 1};
    o.predicate = &no_value;
    CHECK_STATUS(dl_delta_scan_new(snap, &o, &scan, &err), DL_ERR_INVALID_ARG, &err);
    CHECK(strstr(err.msg, "exactly one value") != NULL);
    dl_delta_pred bad_not = {.op = DL_DELTA_PRED_NOT, .n_children = 0};
    o.predicate = &bad_not;
    CHECK_STATUS(dl_delta_scan_new(snap, &o, &scan, &err), DL_ERR_INVALID_ARG, &err);
    CHECK(strstr(err.msg, "NOT takes exactly one child") != NULL);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

/* ---- statistics that are not bounds -------------------------------------------------- */

#define T2_SCHEMA SCHEMA(FIELD("s", "string") "," FIELD("d", "double") "," FIELD("n", "long"))
#define LONG_S    "abcdefghijklmnopqrstuvwxyz0123456789"

TEST(test_scan_keeps_files_whose_stats_are_not_bounds) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(data_file(&t, "a.parquet", T2_SCHEMA, "{\"s\":\"" LONG_S "\",\"d\":1.5,\"n\":null}\n",
                    NULL));
    /* A truncated string max (32 characters, below the real value), a double max that hides a
     * NaN, and a nullCount that is not tight. */
    CHECK(commit0(&t, P12, T2_SCHEMA, "[]", "{}",
                  ADD("a.parquet", "{}",
                      ",\"stats\":\"{\\\"numRecords\\\":1,\\\"tightBounds\\\":false,"
                      "\\\"minValues\\\":{\\\"s\\\":\\\"abcdefghijklmnopqrstuvwxyz012345\\\","
                      "\\\"d\\\":1.5},\\\"maxValues\\\":{\\\"s\\\":"
                      "\\\"abcdefghijklmnopqrstuvwxyz012345\\\",\\\"d\\\":1.5},"
                      "\\\"nullCount\\\":{\\\"n\\\":0}}\"")));
    dl_delta_snapshot *snap = latest(&t);
    CHECK(snap);
    dl_delta_scalar s = {.kind = DL_DELTA_SCALAR_STRING, .s = DL_STR(LONG_S)};
    dl_delta_pred s_eq = LEAF(DL_DELTA_PRED_EQ, s_col, &s);
    CHECK(planned(snap, &s_eq, 1, 0, 0));
    dl_delta_scalar two = {.kind = DL_DELTA_SCALAR_DOUBLE, .f = 2.0};
    const char *d_col[] = {"d"};
    dl_delta_pred d_gt = LEAF(DL_DELTA_PRED_GT, d_col, &two);
    CHECK(planned(snap, &d_gt, 1, 0, 0));
    dl_delta_pred d_eq = LEAF(DL_DELTA_PRED_EQ, d_col, &two);
    CHECK(planned(snap, &d_eq, 0, 0, 1)); /* 2.0 > max 1.5 is a valid upper bound for = */
    const char *n_col[] = {"n"};
    dl_delta_pred n_null = {.op = DL_DELTA_PRED_IS_NULL, .column = n_col, .n_column = 1};
    CHECK(planned(snap, &n_null, 1, 0, 0)); /* nullCount 0 but not tight */
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

/* ---- deletion vectors ---------------------------------------------------------------- */

static bool
inline_dv(const int64_t *rows, size_t n, dl_buf *out_json) {
    dl_delta_dv *dv = NULL;
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_delta_dv_desc d;
    bool ok =
        dl_delta_dv_new(NULL, &dv, NULL) == DL_OK &&
        dl_delta_dv_add_rows(dv, rows, n, NULL) == DL_OK &&
        dl_delta_dv_to_inline(dv, &arena, &d, NULL) == DL_OK &&
        dl_buf_appendf(out_json, NULL,
                       ",\"deletionVector\":{\"storageType\":\"i\",\"pathOrInlineDv\":\"%.*s\","
                       "\"sizeInBytes\":%d,\"cardinality\":%lld}",
                       DL_STR_FMT(d.path_or_inline_dv), (int)d.size_in_bytes,
                       (long long)d.cardinality) == DL_OK;
    dl_delta_dv_free(dv);
    dl_arena_destroy(&arena);
    return ok;
}

/* The live rows of a scan of a one-column (long) table: count and sum, and whether compacted
 * batches came without a selection. */
typedef struct dv_sums {
    int64_t n;
    int64_t sum;
    bool is_sel_right;
    dl_delta_scan_stats stats;
} dv_sums;

static void
add_batch(const dl_batch *batch, dv_sums *out) {
    for (int64_t k = 0; k < batch->count; k++) {
        int64_t row = dl_vec_batch_row(batch, k);
        out->sum += ((const int64_t *)batch->cols[0]->data)[row];
        out->n++;
    }
}

static dl_status
sum_ids(dl_delta_snapshot *snap, bool is_compacted, dv_sums *out, dl_error *err) {
    memset(out, 0, sizeof(*out));
    out->is_sel_right = true;
    dl_delta_scan_options so = {.is_compacted = is_compacted};
    dl_delta_scan *scan = NULL;
    DL_TRY(dl_delta_scan_new(snap, &so, &scan, err));
    dl_batch *batch = NULL;
    dl_status st = dl_vec_batch_new(NULL, dl_delta_scan_schema(scan), 0, &batch, err);
    bool has = st == DL_OK;
    while (st == DL_OK && has) {
        st = dl_delta_scan_next(scan, batch, &has, err);
        out->is_sel_right = out->is_sel_right && (!is_compacted || batch->sel == NULL);
        add_batch(batch, out);
    }
    dl_delta_scan_get_stats(scan, &out->stats);
    dl_vec_batch_free(batch);
    dl_delta_scan_free(scan);
    return st;
}

#define DV_PROTOCOL                                                                    \
    "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":" \
    "[\"deletionVectors\"],\"writerFeatures\":[\"deletionVectors\"]}}"

TEST(test_scan_drops_rows_in_deletion_vectors) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_buf rows;
    dl_buf_init(&rows, NULL);
    for (int i = 0; i < 5000; i++) {
        CHECK(dl_buf_appendf(&rows, NULL, "{\"id\":%d}\n", i) == DL_OK);
    }
    tp_options o = {.row_group_rows = 1500};
    bool ok = data_file(&t, "a.parquet", SCHEMA(FIELD("id", "long")), dl_buf_cstr(&rows), &o);
    dl_buf_destroy(&rows);
    CHECK(ok);
    static const int64_t deleted[] = {0, 7, 2047, 2048, 2049, 3000, 4999};
    dl_buf dv;
    dl_buf_init(&dv, NULL);
    CHECK(inline_dv(deleted, DL_ARRAY_LEN(deleted), &dv));
    dl_buf add;
    dl_buf_init(&add, NULL);
    CHECK(dl_buf_appendf(&add, NULL,
                         "{\"add\":{\"path\":\"a.parquet\",\"partitionValues\":{},\"size\":1,"
                         "\"modificationTime\":1,\"dataChange\":true%s}}\n",
                         dl_buf_cstr(&dv)) == DL_OK);
    dl_buf_destroy(&dv);
    ok = commit0(&t, DV_PROTOCOL, SCHEMA(FIELD("id", "long")), "[]", "{}", dl_buf_cstr(&add));
    dl_buf_destroy(&add);
    CHECK(ok);
    dl_delta_snapshot *snap = latest(&t);
    CHECK(snap);
    for (int compact = 0; compact < 2; compact++) {
        dv_sums sums;
        dl_error err;
        CHECK_STATUS(sum_ids(snap, compact == 1, &sums, &err), DL_OK, &err);
        CHECK(sums.is_sel_right);
        CHECK_INT_EQ(sums.n, 5000 - 7);
        CHECK_INT_EQ(sums.sum, 4999LL * 5000 / 2 - (0 + 7 + 2047 + 2048 + 2049 + 3000 + 4999));
        CHECK_INT_EQ(sums.stats.rows_deleted, 7);
        CHECK_INT_EQ(sums.stats.rows_read, 5000);
        CHECK_INT_EQ(sums.stats.dvs_loaded, 1);
    }
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

/* ---- column mapping, schema evolution, type widening --------------------------------- */

#define CM_PROTOCOL "{\"protocol\":{\"minReaderVersion\":2,\"minWriterVersion\":5}}"
#define CM_FIELD(name, type, id, phys)                                          \
    "{\"name\":\"" name "\",\"type\":" type ",\"nullable\":true,\"metadata\":{" \
    "\"delta.columnMapping.id\":" id ",\"delta.columnMapping.physicalName\":\"" phys "\"}}"
#define CM_SCHEMA                                                                                 \
    SCHEMA(CM_FIELD("a", "\"long\"", "1", "col-1") "," CM_FIELD(                                  \
        "st",                                                                                     \
        "{\"type\":\"struct\",\"fields\":[" CM_FIELD(                                             \
            "x", "\"integer\"", "3", "col-3") "," CM_FIELD("y", "\"string\"", "4", "col-4") "]}", \
        "2", "col-2") "," CM_FIELD("late", "\"string\"", "5", "col-5"))
/* The file: physical names, no "late" column, and no "y" inside the struct. */
#define CM_FILE_SCHEMA                                                                  \
    SCHEMA(FIELD("col-1", "long") ",{\"name\":\"col-2\",\"type\":{\"type\":\"struct\"," \
                                  "\"fields\":[" FIELD(                                 \
                                      "col-3", "integer") "]},"                         \
                                                          "\"nullable\":true,\"metadata\":{}}")

static void
check_column_mapping(const char *mode, bool with_ids) {
    tl_table t;
    CHECK(tl_table_new(&t));
    static const int32_t ids[] = {1, 2, 3};
    tp_options o = {.field_ids = with_ids ? ids : NULL, .n_field_ids = with_ids ? 3 : 0};
    /* In id mode the names in the file are not the physical names: only ids match. */
    CHECK(data_file(
        &t, "a.parquet",
        with_ids ? SCHEMA(FIELD("p1", "long") ",{\"name\":\"p2\","
                                              "\"type\":{\"type\":\"struct\",\"fields\":[" FIELD(
                                                  "p3", "integer") "]},\"nullable\":true,"
                                                                   "\"metadata\":{}}")
                 : CM_FILE_SCHEMA,
        "{\"col-1\":7,\"col-2\":{\"col-3\":8},\"p1\":7,\"p2\":{\"p3\":8}}\n", &o));
    char conf[128];
    (void)snprintf(conf, sizeof(conf), "{\"delta.columnMapping.mode\":\"%s\"}", mode);
    CHECK(commit0(&t, CM_PROTOCOL, CM_SCHEMA, "[]", conf, ADD("a.parquet", "{}", "")));
    dl_delta_snapshot *snap = latest(&t);
    CHECK(snap);
    dr_rows rows;
    dr_rows_init(&rows);
    dl_error err;
    CHECK_STATUS(scan_rows(snap, NULL, &rows, NULL, &err), DL_OK, &err);
    bool ok = rows_are(&rows, "{\"a\":\"7\",\"st\":{\"x\":8,\"y\":null},\"late\":null}\n");
    dr_rows_destroy(&rows);
    CHECK(ok);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

TEST(test_scan_resolves_column_mapping_by_name_and_fills_missing_columns) {
    check_column_mapping("name", false);
}

TEST(test_scan_resolves_column_mapping_by_field_id) {
    check_column_mapping("id", true);
}

#define TW_PROTOCOL                                                                    \
    "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":" \
    "[\"typeWidening\",\"timestampNtz\"],\"writerFeatures\":[\"typeWidening\","        \
    "\"timestampNtz\"]}}"

TEST(test_scan_widens_narrower_file_types) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(data_file(&t, "a.parquet",
                    SCHEMA(FIELD("i", "integer") "," FIELD("f", "float") "," FIELD(
                        "dec", "decimal(5,2)") "," FIELD("d", "date") "," FIELD("b", "byte")),
                    "{\"i\":-5,\"f\":1.5,\"dec\":123.45,\"d\":\"2024-02-29\",\"b\":7}\n"
                    "{\"i\":null,\"f\":null,\"dec\":null,\"d\":null,\"b\":null}\n",
                    NULL));
    CHECK(commit0(
        &t, TW_PROTOCOL,
        SCHEMA(
            FIELD("i", "long") "," FIELD("f", "double") "," FIELD("dec", "decimal(10,4)") "," FIELD(
                "d", "timestamp_ntz") "," FIELD("b", "decimal(10,0)")),
        "[]", "{}", ADD("a.parquet", "{}", "")));
    dl_delta_snapshot *snap = latest(&t);
    CHECK(snap);
    dr_rows rows;
    dr_rows_init(&rows);
    dl_error err;
    CHECK_STATUS(scan_rows(snap, NULL, &rows, NULL, &err), DL_OK, &err);
    bool ok =
        rows_are(&rows, "{\"i\":\"-5\",\"f\":1.5,\"dec\":\"123.4500\",\"d\":\"1709164800000000\","
                        "\"b\":\"7\"}\n"
                        "{\"i\":null,\"f\":null,\"dec\":null,\"d\":null,\"b\":null}\n");
    dr_rows_destroy(&rows);
    CHECK(ok);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

TEST(test_scan_refuses_a_file_type_it_cannot_widen) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(data_file(&t, "a.parquet", SCHEMA(FIELD("i", "string")), "{\"i\":\"x\"}\n", NULL));
    CHECK(commit0(&t, P12, SCHEMA(FIELD("i", "long")), "[]", "{}", ADD("a.parquet", "{}", "")));
    dl_delta_snapshot *snap = latest(&t);
    CHECK(snap);
    dr_rows rows;
    dr_rows_init(&rows);
    dl_error err;
    CHECK_STATUS(scan_rows(snap, NULL, &rows, NULL, &err), DL_ERR_SCHEMA, &err);
    dr_rows_destroy(&rows);
    CHECK(strstr(err.msg, "a.parquet") != NULL);
    CHECK(strstr(err.msg, "file type string cannot be read as bigint") != NULL);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

TEST(test_scan_of_a_missing_data_file_names_it) {
    tl_table t;
    CHECK(tl_table_new(&t));
    CHECK(commit0(&t, P12, SCHEMA(FIELD("i", "long")), "[]", "{}", ADD("gone.parquet", "{}", "")));
    dl_delta_snapshot *snap = latest(&t);
    CHECK(snap);
    dr_rows rows;
    dr_rows_init(&rows);
    dl_error err;
    CHECK_STATUS(scan_rows(snap, NULL, &rows, NULL, &err), DL_ERR_NOT_FOUND, &err);
    dr_rows_destroy(&rows);
    CHECK(strstr(err.msg, "gone.parquet") != NULL);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

/* ---- row groups and parallel units --------------------------------------------------- */

/* A file of 3 row groups (ids 0..2999) scanned for id = 1500: *out_rows rows, *st what the
 * scan did. Fails the current test on error. */
static void
scan_three_row_groups(bool is_files_only, int64_t *out_rows, dl_delta_scan_stats *st) {
    tl_table t;
    CHECK(tl_table_new(&t));
    dl_buf rows;
    dl_buf_init(&rows, NULL);
    for (int i = 0; i < 3000; i++) {
        CHECK(dl_buf_appendf(&rows, NULL, "{\"id\":%d}\n", i) == DL_OK);
    }
    tp_options o = {.row_group_rows = 1000};
    bool ok = data_file(&t, "a.parquet", SCHEMA(FIELD("id", "long")), dl_buf_cstr(&rows), &o);
    dl_buf_destroy(&rows);
    CHECK(ok);
    CHECK(commit0(&t, P12, SCHEMA(FIELD("id", "long")), "[]", "{}", ADD("a.parquet", "{}", "")));
    dl_delta_snapshot *snap = latest(&t);
    CHECK(snap);
    dl_delta_scalar v = {.kind = DL_DELTA_SCALAR_INT, .i = 1500};
    dl_delta_pred eq = LEAF(DL_DELTA_PRED_EQ, id_col, &v);
    dl_delta_scan_options so = {.predicate = &eq, .is_files_only = is_files_only};
    dr_rows got;
    dr_rows_init(&got);
    dl_error err;
    dl_status s = scan_rows(snap, &so, &got, st, &err);
    *out_rows = (int64_t)got.n;
    dr_rows_destroy(&got);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
    CHECK_STATUS(s, DL_OK, &err);
}

TEST(test_scan_skips_row_groups_by_parquet_stats) {
    int64_t n = 0;
    dl_delta_scan_stats st;
    scan_three_row_groups(false, &n, &st);
    CHECK(!harness_current_failed);
    CHECK_INT_EQ(st.row_groups_skipped, 2);
    CHECK_INT_EQ(st.row_groups_read, 1);
    CHECK(st.rows_read >= 1 && st.rows_read <= 1000);
}

/* A rewrite copies the files it chose whole: the predicate must not skip row groups. */
TEST(test_scan_of_files_only_returns_every_row_of_a_kept_file) {
    int64_t n = 0;
    dl_delta_scan_stats st;
    scan_three_row_groups(true, &n, &st);
    CHECK(!harness_current_failed);
    CHECK_INT_EQ(st.row_groups_skipped, 0);
    CHECK_INT_EQ(st.row_groups_read, 3);
    CHECK_INT_EQ(n, 3000);
}

typedef struct unit_task {
    dl_delta_scan *scan;
    size_t unit;
    int64_t rows;
} unit_task;

static dl_status
read_unit(void *arg, dl_error *err) {
    unit_task *u = arg;
    dl_delta_scan_reader *r = NULL;
    DL_TRY(dl_delta_scan_reader_new(u->scan, u->unit, &r, err));
    dl_batch *batch = NULL;
    dl_status st = dl_vec_batch_new(NULL, dl_delta_scan_schema(u->scan), 0, &batch, err);
    while (st == DL_OK) {
        st = dl_delta_scan_reader_next(r, batch, err);
        if (st != DL_OK || batch->count == 0) {
            break;
        }
        u->rows += batch->count;
    }
    dl_vec_batch_free(batch);
    dl_delta_scan_reader_free(r);
    return st;
}

TEST(test_scan_units_read_on_several_threads) {
    tl_table t;
    CHECK(make_t1(&t));
    dl_delta_snapshot *snap = latest(&t);
    CHECK(snap);
    dl_delta_scan *scan = NULL;
    dl_error err;
    CHECK_STATUS(dl_delta_scan_new(snap, NULL, &scan, &err), DL_OK, &err);
    dl_pool *pool = NULL;
    CHECK(dl_pool_new(2, NULL, &pool, NULL) == DL_OK);
    dl_pool_group g;
    dl_pool_group_init(&g, pool);
    unit_task tasks[3];
    CHECK_INT_EQ(dl_delta_scan_unit_count(scan), 3);
    for (size_t i = 0; i < 3; i++) {
        tasks[i] = (unit_task){.scan = scan, .unit = i};
        CHECK(dl_pool_submit(&g, read_unit, &tasks[i], NULL) == DL_OK);
    }
    dl_status st = dl_pool_group_wait(&g, &err);
    dl_pool_free(pool);
    dl_delta_scan_stats stats;
    dl_delta_scan_get_stats(scan, &stats);
    dl_delta_scan_free(scan);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
    CHECK_STATUS(st, DL_OK, &err);
    CHECK_INT_EQ(tasks[0].rows + tasks[1].rows + tasks[2].rows, 9);
    CHECK_INT_EQ(stats.files_read, 3);
    CHECK_INT_EQ(stats.rows_read, 9);
}

/* Opens, loads and scans make_t1's table with allocation fail_at failing and every later one:
 * it works (9 rows), or fails with NOMEM leaking nothing. */
static bool
scan_with_failure(tl_table *t, int64_t fail_at, bool *out_ok, char *why, size_t cap) {
    dl_fault_allocator fa;
    dl_fault_allocator_init(&fa, fail_at, true);
    dl_delta_table *table = NULL;
    dl_delta_snapshot *snap = NULL;
    dl_delta_scan *scan = NULL;
    dl_batch *batch = NULL;
    dl_error err;
    int64_t rows = 0;
    dl_status st = dl_delta_table_open(t->store, "", &fa.base, &table, &err);
    if (st == DL_OK) {
        st = dl_delta_snapshot_latest(table, NULL, &snap, &err);
    }
    if (st == DL_OK) {
        st = dl_delta_scan_new(snap, NULL, &scan, &err);
    }
    if (st == DL_OK) {
        st = dl_vec_batch_new(&fa.base, dl_delta_scan_schema(scan), 0, &batch, &err);
    }
    bool has = st == DL_OK;
    while (st == DL_OK && has) {
        st = dl_delta_scan_next(scan, batch, &has, &err);
        rows += st == DL_OK && has ? batch->count : 0;
    }
    *out_ok = st == DL_OK && rows == 9;
    bool ok = *out_ok || st == DL_ERR_NOMEM;
    if (!ok) {
        (void)snprintf(why, cap, "failing allocation %lld gave %s (%lld rows): %s",
                       (long long)fail_at, dl_status_name(st), (long long)rows, err.msg);
    }
    dl_vec_batch_free(batch);
    dl_delta_scan_free(scan);
    dl_delta_snapshot_unref(snap);
    dl_delta_table_free(table);
    if (ok && fa.live_blocks != 0) {
        ok = false;
        (void)snprintf(why, cap, "failing allocation %lld leaked %lld blocks", (long long)fail_at,
                       (long long)fa.live_blocks);
    }
    return ok;
}

TEST(test_scan_failures_leak_nothing) {
    tl_table t;
    CHECK(make_t1(&t));
    char why[1200] = "";
    bool is_done = false;
    int64_t n = 1;
    for (; n < 100000 && !is_done; n++) {
        if (!scan_with_failure(&t, n, &is_done, why, sizeof(why))) {
            break;
        }
    }
    tl_table_free(&t);
    if (!is_done) {
        HARNESS_FAIL_AT("%s", why[0] ? why : "never finished");
        return;
    }
    printf("  the scan succeeded once %lld allocations could succeed\n", (long long)n - 1);
    CHECK(n > 100);
}

/* ---- row-group units ------------------------------------------------------------------ */

/* Rows of a two-column (id long, p integer partition) scan: count, sums and a checksum. */
typedef struct unit_sums {
    int64_t n;
    int64_t sum_id;
    int64_t sum_p;
    int64_t sum_sq; /* sum of id * id: tells a lost row from a doubled one */
} unit_sums;

static void
add_unit_batch(const dl_batch *batch, unit_sums *out) {
    for (int64_t k = 0; k < batch->count; k++) {
        int64_t row = dl_vec_batch_row(batch, k);
        const dl_vector *flat = NULL;
        int64_t i = dl_vec_resolve(batch->cols[0], row, &flat);
        int64_t id = ((const int64_t *)flat->data)[i];
        i = dl_vec_resolve(batch->cols[1], row, &flat);
        out->sum_p += ((const int32_t *)flat->data)[i];
        out->sum_id += id;
        out->sum_sq += id * id;
        out->n++;
    }
}

/* Two partitions, one file each, of several row groups, with deletion vectors. */
static bool
make_split_table(tl_table *t) {
    static const int64_t del_a[] = {0, 7, 1499, 1500, 2049, 4999};
    static const int64_t del_b[] = {0, 1000, 2999};
    dl_buf rows, dv_a, dv_b, adds;
    dl_buf_init(&rows, NULL);
    dl_buf_init(&dv_a, NULL);
    dl_buf_init(&dv_b, NULL);
    dl_buf_init(&adds, NULL);
    bool ok = tl_table_new(t);
    for (int i = 0; ok && i < 5000; i++) {
        ok = dl_buf_appendf(&rows, NULL, "{\"id\":%d}\n", i) == DL_OK;
    }
    tp_options oa = {.row_group_rows = 1500};
    ok = ok && data_file(t, "p=1/a.parquet", SCHEMA(FIELD("id", "long")), dl_buf_cstr(&rows), &oa);
    dl_buf_reset(&rows);
    for (int i = 5000; ok && i < 8000; i++) {
        ok = dl_buf_appendf(&rows, NULL, "{\"id\":%d}\n", i) == DL_OK;
    }
    tp_options ob = {.row_group_rows = 1000};
    ok = ok && data_file(t, "p=2/b.parquet", SCHEMA(FIELD("id", "long")), dl_buf_cstr(&rows), &ob);
    ok = ok && inline_dv(del_a, DL_ARRAY_LEN(del_a), &dv_a) &&
         inline_dv(del_b, DL_ARRAY_LEN(del_b), &dv_b) &&
         dl_buf_appendf(&adds, NULL,
                        "{\"add\":{\"path\":\"p=1/a.parquet\",\"partitionValues\":{\"p\":\"1\"},"
                        "\"size\":1,\"modificationTime\":1,\"dataChange\":true%s}}\n"
                        "{\"add\":{\"path\":\"p=2/b.parquet\",\"partitionValues\":{\"p\":\"2\"},"
                        "\"size\":1,\"modificationTime\":1,\"dataChange\":true%s}}\n",
                        dl_buf_cstr(&dv_a), dl_buf_cstr(&dv_b)) == DL_OK;
    ok = ok && commit0(t, DV_PROTOCOL, SCHEMA(FIELD("id", "long") "," FIELD("p", "integer")),
                       "[\"p\"]", "{}", dl_buf_cstr(&adds));
    dl_buf_destroy(&rows);
    dl_buf_destroy(&dv_a);
    dl_buf_destroy(&dv_b);
    dl_buf_destroy(&adds);
    return ok;
}

typedef struct split_task {
    dl_delta_scan *scan;
    _Atomic(size_t) *next;
    unit_sums sums;
} split_task;

/* Reads units from the shared cursor until none is left, with one scratch for all of them. */
static dl_status
read_split_units(void *arg, dl_error *err) {
    split_task *t = arg;
    dl_pq_scratch *scratch = NULL;
    dl_batch *batch = NULL;
    DL_TRY(dl_pq_scratch_new(NULL, &scratch, err));
    dl_status st = dl_vec_batch_new(NULL, dl_delta_scan_schema(t->scan), 0, &batch, err);
    for (;;) {
        size_t u = atomic_fetch_add(t->next, 1);
        if (st != DL_OK || u >= dl_delta_scan_unit_count(t->scan)) {
            break;
        }
        dl_delta_scan_reader *r = NULL;
        st = dl_delta_scan_reader_open(t->scan, u, scratch, &r, err);
        while (st == DL_OK) {
            st = dl_delta_scan_reader_next(r, batch, err);
            if (st != DL_OK || batch->count == 0) {
                break;
            }
            add_unit_batch(batch, &t->sums);
        }
        dl_delta_scan_reader_free(r);
    }
    dl_vec_batch_free(batch);
    dl_pq_scratch_free(scratch);
    return st;
}

/* A file of n row groups gives n units; read on two threads they return exactly the rows of a
 * whole-file scan: deletion vectors by file row number, partition values on every row. */
TEST(test_row_group_units_return_exactly_the_rows_of_whole_files) {
    tl_table t;
    CHECK(make_split_table(&t));
    dl_delta_snapshot *snap = latest(&t);
    CHECK(snap);
    dl_error err;
    /* The whole files, one unit each. */
    dl_delta_scan *whole = NULL;
    CHECK_STATUS(dl_delta_scan_new(snap, NULL, &whole, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_scan_unit_count(whole), 2);
    CHECK_INT_EQ(dl_delta_scan_unit_row_group(whole, 0), -1);
    dl_batch *batch = NULL;
    CHECK_OK(dl_vec_batch_new(NULL, dl_delta_scan_schema(whole), 0, &batch, &err), &err);
    unit_sums want = {0};
    bool has = true;
    while (has) {
        CHECK_STATUS(dl_delta_scan_next(whole, batch, &has, &err), DL_OK, &err);
        add_unit_batch(batch, &want);
    }
    dl_vec_batch_free(batch);
    dl_delta_scan_free(whole);
    CHECK_INT_EQ(want.n, 8000 - 9);
    CHECK_INT_EQ(want.sum_p, (5000 - 6) * 1 + (3000 - 3) * 2);
    /* Row groups: 4 of a.parquet (1500 rows each, the last 500), 3 of b.parquet. */
    dl_delta_scan_options so = {.row_group_units_max_files = 2};
    dl_delta_scan *split = NULL;
    CHECK_STATUS(dl_delta_scan_new(snap, &so, &split, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_scan_unit_count(split), 7);
    CHECK_INT_EQ(dl_delta_scan_unit_row_group(split, 3), 3);
    CHECK_INT_EQ(dl_delta_scan_unit_row_group(split, 4), 0);
    CHECK(dl_str_eq(dl_delta_scan_unit_file(split, 4)->path, DL_STR("p=2/b.parquet")));
    dl_pool *pool = NULL;
    CHECK(dl_pool_new(2, NULL, &pool, NULL) == DL_OK);
    _Atomic(size_t) next;
    atomic_init(&next, 0);
    split_task tasks[2] = {{.scan = split, .next = &next}, {.scan = split, .next = &next}};
    dl_pool_group g;
    dl_pool_group_init(&g, pool);
    for (size_t i = 0; i < 2; i++) {
        CHECK(dl_pool_submit(&g, read_split_units, &tasks[i], NULL) == DL_OK);
    }
    dl_status st = dl_pool_group_wait(&g, &err);
    dl_pool_free(pool);
    dl_delta_scan_stats stats;
    dl_delta_scan_get_stats(split, &stats);
    dl_delta_scan_free(split);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
    CHECK_STATUS(st, DL_OK, &err);
    CHECK_INT_EQ(tasks[0].sums.n + tasks[1].sums.n, want.n);
    CHECK_INT_EQ(tasks[0].sums.sum_id + tasks[1].sums.sum_id, want.sum_id);
    CHECK_INT_EQ(tasks[0].sums.sum_sq + tasks[1].sums.sum_sq, want.sum_sq);
    CHECK_INT_EQ(tasks[0].sums.sum_p + tasks[1].sums.sum_p, want.sum_p);
    CHECK_INT_EQ(stats.files_read, 2);
    CHECK_INT_EQ(stats.row_groups_read, 7);
    CHECK_INT_EQ(stats.rows_read, 8000);
    CHECK_INT_EQ(stats.rows_deleted, 9);
    CHECK_INT_EQ(stats.dvs_loaded, 2); /* one per file, shared by its row groups */
}

/* More files than the limit keep files as the units; with row-group units, row groups that
 * statistics rule out are skipped inside their unit. */
TEST(test_row_group_units_only_for_few_files_and_skip_by_statistics) {
    tl_table t;
    CHECK(make_split_table(&t));
    dl_delta_snapshot *snap = latest(&t);
    CHECK(snap);
    dl_error err;
    dl_delta_scan_options so = {.row_group_units_max_files = 1};
    dl_delta_scan *scan = NULL;
    CHECK_STATUS(dl_delta_scan_new(snap, &so, &scan, &err), DL_OK, &err);
    CHECK_INT_EQ(dl_delta_scan_unit_count(scan), 2);
    dl_delta_scan_free(scan);
    /* id = 1600 lies in row group 1 of a.parquet; partition p = 1 keeps that file only. */
    dl_delta_scalar v = {.kind = DL_DELTA_SCALAR_INT, .i = 1600};
    dl_delta_pred eq = LEAF(DL_DELTA_PRED_EQ, id_col, &v);
    dl_delta_scan_options fo = {.predicate = &eq, .row_group_units_max_files = 8};
    dr_rows got;
    dr_rows_init(&got);
    dl_delta_scan_stats st;
    CHECK_STATUS(scan_rows(snap, &fo, &got, &st, &err), DL_OK, &err);
    dr_rows_destroy(&got);
    CHECK_INT_EQ(st.row_groups_read, 1);
    CHECK_INT_EQ(st.row_groups_skipped, 6);
    dl_delta_snapshot_unref(snap);
    tl_table_free(&t);
}

int
main(void) {
    RUN(test_scan_returns_every_row_with_partition_values);
    RUN(test_scan_returns_the_requested_columns_in_order);
    RUN(test_scan_reads_only_the_files_in_its_file_set);
    RUN(test_scan_skips_files_by_partition_values_and_stats);
    RUN(test_scan_predicate_errors_name_the_problem);
    RUN(test_scan_keeps_files_whose_stats_are_not_bounds);
    RUN(test_scan_drops_rows_in_deletion_vectors);
    RUN(test_scan_resolves_column_mapping_by_name_and_fills_missing_columns);
    RUN(test_scan_resolves_column_mapping_by_field_id);
    RUN(test_scan_widens_narrower_file_types);
    RUN(test_scan_refuses_a_file_type_it_cannot_widen);
    RUN(test_scan_of_a_missing_data_file_names_it);
    RUN(test_scan_skips_row_groups_by_parquet_stats);
    RUN(test_scan_of_files_only_returns_every_row_of_a_kept_file);
    RUN(test_scan_units_read_on_several_threads);
    RUN(test_scan_failures_leak_nothing);
    RUN(test_row_group_units_return_exactly_the_rows_of_whole_files);
    RUN(test_row_group_units_only_for_few_files_and_skip_by_statistics);
    return harness_finish();
}
