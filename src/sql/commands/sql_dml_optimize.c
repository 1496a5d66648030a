/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OPTIMIZE t [WHERE partition_condition] (sql_dml.h): file compaction, as Spark's
 * OptimizeTableCommand and OptimizeExecutor do it.
 *
 *   scope       the live files whose partition values satisfy the WHERE condition, which may
 *               name partition columns only (DELTA_NON_PARTITION_COLUMN_REFERENCE otherwise,
 *               at the column's position). The condition is evaluated on each file's typed
 *               partition values, so any expression works, not only the shapes the scan
 *               can skip by.
 *   candidates  files in scope smaller than spark.databricks.delta.optimize.minFileSize
 *               (default 1 GiB), or with a deletion vector that hides more than
 *               spark.databricks.delta.optimize.maxDeletedRowsRatio (0.05) of their rows
 *               (or whose row count is unknown).
 *   bins        per partition, candidates in insertion order (the version that added them,
 *               then modification time, then path) packed greedily into bins of at most
 *               spark.databricks.delta.optimize.maxFileSize bytes (default 1 GiB). A bin of
 *               one file is left alone unless that file has a deletion vector. Spark packs
 *               files sorted by size; deltalite keeps insertion order so that compacted
 *               files keep the clustering of the order rows arrived in (Databricks'
 *               preserveInsertionOrder), and says so in the metrics.
 *   rewrite     each bin's live rows (deletion vectors applied: deleted rows are purged) go
 *               to one new file of the bin's partition; bins run in parallel on the
 *               statement's pool, each with its own writer and job id.
 *
 * One commit, only when some file was written (as Spark: nothing to compact, no commit, so
 * running OPTIMIZE again commits nothing): adds and removes with dataChange false; removes
 * as Spark's AddFile.removeWithTimestamp (deletionTimestamp, extendedFileMetadata,
 * partitionValues, size, stats, tags, deletion vector). Only the rewritten files are recorded
 * as read, and a commit that changes no data runs under SnapshotIsolation
 * (delta/delta_txn.h): a concurrent append commits first without failing OPTIMIZE, a
 * concurrent delete of a file OPTIMIZE rewrote fails it (ConcurrentDeleteReadException).
 *
 * commitInfo: OPTIMIZE with operationParameters predicate (JSON array of the condition's
 * SQL), zOrderBy, clusterBy ("[]") and auto (false), and operationMetrics numAddedFiles,
 * numRemovedFiles, numAddedBytes, numRemovedBytes, minFileSize, p25FileSize, p50FileSize,
 * p75FileSize, maxFileSize (of the added files), numDeletionVectorsRemoved (as Delta 4.4 writes
 * them; the rows removed are in the result row's deletionVectorStats).
 *
 * REORG TABLE t [WHERE partition_condition] APPLY (PURGE) is the same statement with
 * is_purge, as Spark's REORG with DeletionVectorsPurge: the candidates are the files in scope
 * that have a deletion vector, whatever their size; each bin is rewritten without its deleted
 * rows (a bin of one such file too). commitInfo: REORG with operationParameters predicate and
 * applyPurge (true), OPTIMIZE's metrics. Without any deletion vector in scope nothing is
 * committed.
 *
 * The result is Spark's: one row, `path` (the table's location) and `metrics`, a struct of
 * OptimizeMetrics' fields with Spark's types (see metrics_type), less clusteringStats and
 * autoCompactParallelismStats, which are always null here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "delta/delta_dv.h"
#include "sql/bind/sql_describe_int.h"
#include "sql/commands/sql_cluster.h"
#include "sql/commands/sql_dml.h"

/* A compaction candidate: a file in scope and what orders it. */
typedef struct cand {
    size_t unit; /* its unit in the scan (one unit per file) */
    const dl_delta_file *file;
    const char *part_key; /* its partition values as text: equal for files of one partition */
} cand;

struct optimize;

/* One bin: files of one partition rewritten into one file, on any thread. */
typedef struct bin {
    struct optimize *opt;
    const cand *files; /* a run of opt->cands */
    int32_t n_files;
    char job_id[40];       /* the uuid in the new file's name */
    dl_ops_writer *writer; /* NULL until the bin runs */
} bin;

/* What OPTIMIZE did, for the metrics and the result row. */
typedef struct totals {
    int64_t n_added, added_bytes, n_removed, removed_bytes;
    int64_t min_added, max_added, min_removed, max_removed;
    int64_t n_dvs, dv_rows;
    int64_t n_partitions;
    int64_t start_ms, end_ms;
    int64_t *added_sizes; /* sorted, for the percentiles */
} totals;

typedef struct optimize {
    dl_sql_binder *b;
    const dl_sql_stmt *stmt;
    dl_sql_dml_target t;
    dl_sql_bexpr *cond;    /* WHERE, or NULL */
    const char *predicate; /* its SQL, or NULL */
    int64_t min_file_size;
    int64_t max_file_size;
    double max_deleted_ratio;
    dl_delta_scan *scan;
    int64_t n_scope; /* files in scope: totalConsideredFiles */
    cand *cands;
    int32_t n_cands;
    bin *bins;
    int32_t n_bins;
    totals tot;
    dl_sql_optimize_cluster cl; /* ZORDER BY or liquid clustering (sql_dml_zorder.c) */
} optimize;

/* ---- the WHERE condition ------------------------------------------------------------------ */

/* The first column reference of e that is not a partition column, or NULL. */
static const dl_sql_bexpr *
non_partition_ref(const dl_sql_dml_target *t, const dl_sql_bexpr *e) {
    if (e->kind == DL_SQL_BEXPR_COLUMN && !dl_sql_dml_is_partition_column(t, e->index, NULL)) {
        return e;
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        const dl_sql_bexpr *bad = non_partition_ref(t, e->args[i]);
        if (bad != NULL) {
            return bad;
        }
    }
    return NULL;
}

/* The statement's name in messages. */
static const char *
op_name(const optimize *o) {
    return o->stmt->u.optimize.is_purge ? "REORG" : "OPTIMIZE";
}

static dl_status
fail_non_partition(optimize *o, const dl_sql_bexpr *col, dl_error *err) {
    char list[512] = "";
    size_t used = 0;
    for (int32_t i = 0; i < o->t.n_parts && used < sizeof(list); i++) {
        int n =
            snprintf(list + used, sizeof(list) - used, "%s%s", i > 0 ? ", " : "", o->t.parts[i]);
        used += n > 0 ? (size_t)n : 0;
    }
    DL_SQL_BIND_FAIL(o->b, col->loc, DL_ERR_SQL_BIND, err,
                     "[DELTA_NON_PARTITION_COLUMN_REFERENCE] %s %s: the predicate references "
                     "non-partition column '%s'. Only the partition columns may be referenced: "
                     "[%s]",
                     op_name(o), o->t.display, o->t.schema->fields[col->index].name, list);
}

/* Binds WHERE over the table's columns; it may name partition columns only. */
static dl_status
bind_where(optimize *o, const dl_sql_expr *where, dl_error *err) {
    dl_sql_binder *b = o->b;
    dl_sql_plan *plan = NULL;
    DL_TRY(dl_sql_plan_delta_scan(b, dl_delta_snapshot_ref(o->t.snap), o->t.display, where->loc,
                                  &plan, err));
    dl_sql_scope scope;
    DL_TRY(dl_sql_scope_of(b, plan, o->t.display, &scope, err));
    dl_sql_bctx cx = {.b = b, .scope = &scope, .clause = "WHERE"};
    DL_TRY(dl_sql_binder_cond(&cx, where, &o->cond, err));
    if (dl_sql_bexpr_has_subquery(o->cond)) {
        DL_SQL_BIND_FAIL(b, where->loc, DL_ERR_SQL_BIND, err,
                         "[DELTA_UNSUPPORTED_SUBQUERY_IN_PARTITION_PREDICATES] %s %s: "
                         "subqueries are not supported in the partition predicate",
                         op_name(o), o->t.display);
    }
    const dl_sql_bexpr *bad = non_partition_ref(&o->t, o->cond);
    if (bad != NULL) {
        return fail_non_partition(o, bad, err);
    }
    o->predicate = dl_sql_dml_expr_text(b, where);
    return DL_OK;
}

/* ---- scope and candidates ----------------------------------------------------------------- */

static dl_status
plan_scan(optimize *o, dl_error *err) {
    dl_sql_binder *b = o->b;
    const dl_delta_pred *pred = NULL;
    DL_TRY(dl_sql_dml_skip_predicate(b, &o->t, &o->cond, o->cond != NULL ? 1 : 0, &pred, err));
    /* The partition condition chooses files; a compacted file is copied whole. */
    dl_delta_scan_options opts = {
        .predicate = pred, .is_files_only = true, .alloc = b->exec->alloc};
    DL_TRY_CTX(dl_delta_scan_new(o->t.snap, &opts, &o->scan, err), err, "table %s", o->t.display);
    size_t n_units = dl_delta_scan_unit_count(o->scan);
    o->cands = dl_arena_alloc_zero(b->arena, (n_units + 1) * sizeof(cand));
    DL_CHECK(o->cands != NULL, err, DL_ERR_NOMEM, "out of memory");
    return DL_OK;
}

/* The snapshot's partition index of each table column (-1: a data column), in arena. */
static dl_status
partition_index(optimize *o, int32_t **out, dl_error *err) {
    int32_t n = o->t.schema->n_fields;
    int32_t *idx = dl_arena_alloc_zero(o->b->arena, (size_t)(n + 1) * sizeof(int32_t));
    DL_CHECK(idx != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t c = 0; c < n; c++) {
        idx[c] = -1;
        dl_str name = dl_str_from_cstr(o->t.schema->fields[c].name);
        for (int32_t p = 0; p < dl_delta_snapshot_partition_count(o->t.snap); p++) {
            const dl_delta_field *f = dl_delta_snapshot_partition_field(o->t.snap, p);
            if (dl_str_eq_nocase(dl_str_from_cstr(f->name), name)) {
                idx[c] = p;
            }
        }
    }
    *out = idx;
    return DL_OK;
}

/* Row k of batch: the partition values of unit u's file (data columns NULL). */
static dl_status
append_file_row(optimize *o, const int32_t *pidx, size_t u, dl_batch *batch, dl_error *err) {
    const dl_delta_file *f = dl_delta_scan_unit_file(o->scan, u);
    for (int32_t c = 0; c < batch->n_cols; c++) {
        if (pidx[c] < 0 || f->partition == NULL || f->partition->values == NULL) {
            DL_TRY(dl_vec_append_null(batch->cols[c], err));
        } else {
            DL_TRY(dl_delta_value_append(batch->cols[c], &f->partition->values[pidx[c]], err));
        }
    }
    return DL_OK;
}

/* Whether f is worth rewriting: small, or with many rows deleted (Spark's rule). */
static bool
is_candidate(const optimize *o, const dl_delta_file *f, dl_delta_stats_reader *rd) {
    if (o->stmt->u.optimize.is_purge) {
        return f->dv != NULL && f->dv->cardinality > 0; /* REORG ... APPLY (PURGE) */
    }
    if (o->cl.n_cols > 0) {
        return dl_sql_optimize_cluster_candidate(&o->cl, f);
    }
    if (f->size < o->min_file_size) {
        return true;
    }
    if (f->dv == NULL) {
        return false;
    }
    dl_delta_stats st;
    bool has = false;
    dl_error ignored;
    if (dl_delta_file_stats(o->t.snap, f, rd, &st, &has, &ignored) != DL_OK || !has ||
        !st.has_num_records || st.num_records <= 0) {
        return true;
    }
    return (double)f->dv->cardinality / (double)st.num_records > o->max_deleted_ratio;
}

/* Scratch text for partition keys. */
typedef struct key_scratch {
    dl_buf key;
    dl_buf val;
} key_scratch;

/* The partition key of f (dl_sql_dml_partition_key), in the statement arena. */
static dl_status
part_key(optimize *o, const dl_delta_file *f, key_scratch *ks, const char **out, dl_error *err) {
    DL_TRY(dl_sql_dml_partition_key(o->t.snap, f, &ks->key, &ks->val, err));
    *out = dl_arena_strndup(o->b->arena, (const char *)ks->key.data, ks->key.len);
    DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory");
    return DL_OK;
}

/* Adds the files of the batch's selected rows (units first..) to scope and candidates. */
static dl_status
take_selected(optimize *o, const dl_batch *batch, size_t first, dl_delta_stats_reader *rd,
              key_scratch *ks, dl_error *err) {
    for (int64_t k = 0; k < batch->count; k++) {
        size_t u = first + (size_t)dl_vec_batch_row(batch, k);
        const dl_delta_file *f = dl_delta_scan_unit_file(o->scan, u);
        o->n_scope++;
        if (!is_candidate(o, f, rd)) {
            continue;
        }
        cand *c = &o->cands[o->n_cands++];
        c->unit = u;
        c->file = f;
        DL_TRY(part_key(o, f, ks, &c->part_key, err));
    }
    return DL_OK;
}

/* One chunk of units [first, first + n): the condition on their partition values. */
static dl_status
scope_chunk(optimize *o, const int32_t *pidx, dl_sql_eval *cond, dl_batch *batch, size_t first,
            size_t n, dl_delta_stats_reader *rd, key_scratch *ks, dl_error *err) {
    DL_TRY(dl_vec_batch_reset(batch, err));
    for (size_t i = 0; i < n; i++) {
        DL_TRY(append_file_row(o, pidx, first + i, batch, err));
    }
    batch->count = (int64_t)n;
    batch->sel = NULL;
    if (cond != NULL) {
        DL_TRY(dl_sql_eval_select(cond, batch, err));
    }
    return take_selected(o, batch, first, rd, ks, err);
}

/* Scope and candidates: the scan's units whose partition values satisfy the condition. */
static dl_status
find_candidates(optimize *o, dl_error *err) {
    int32_t *pidx = NULL;
    DL_TRY(partition_index(o, &pidx, err));
    const dl_allocator *alloc = o->b->exec->alloc;
    dl_batch *batch = NULL;
    DL_TRY(dl_vec_batch_new(alloc, o->t.schema, DL_BATCH_CAPACITY, &batch, err));
    dl_sql_eval *cond = NULL;
    dl_status s = o->cond != NULL ? dl_sql_eval_new(o->b->exec, o->cond, &cond, err) : DL_OK;
    dl_delta_stats_reader rd;
    dl_delta_stats_reader_init(&rd, alloc);
    key_scratch ks;
    dl_buf_init(&ks.key, alloc);
    dl_buf_init(&ks.val, alloc);
    size_t n_units = dl_delta_scan_unit_count(o->scan);
    for (size_t u = 0; u < n_units && s == DL_OK; u += DL_BATCH_CAPACITY) {
        size_t n = n_units - u < DL_BATCH_CAPACITY ? n_units - u : DL_BATCH_CAPACITY;
        s = scope_chunk(o, pidx, cond, batch, u, n, &rd, &ks, err);
    }
    dl_buf_destroy(&ks.val);
    dl_buf_destroy(&ks.key);
    dl_delta_stats_reader_destroy(&rd);
    dl_sql_eval_free(cond);
    dl_vec_batch_free(batch);
    return s;
}

/* ---- bins --------------------------------------------------------------------------------- */

static int
cmp_i64(int64_t a, int64_t c) {
    return a < c ? -1 : a > c ? 1 : 0;
}

/* By partition, then insertion order: the adding version, modification time, path. */
static int
cmp_cand(const void *pa, const void *pb) {
    const cand *a = pa;
    const cand *c = pb;
    int r = strcmp(a->part_key, c->part_key);
    r = r != 0 ? r : cmp_i64(a->file->version, c->file->version);
    r = r != 0 ? r : cmp_i64(a->file->modification_time, c->file->modification_time);
    return r != 0 ? r : strcmp(a->file->path.ptr, c->file->path.ptr);
}

/* Keeps files[0..n) as a bin when rewriting it changes something. */
static dl_status
close_bin(optimize *o, const cand *files, int32_t n, dl_error *err) {
    if (n == 0 || (n == 1 && files[0].file->dv == NULL && o->cl.n_cols == 0)) {
        return DL_OK;
    }
    bin *bn = &o->bins[o->n_bins++];
    bn->opt = o;
    bn->files = files;
    bn->n_files = n;
    uint8_t uuid[16];
    DL_TRY(dl_delta_uuid_random(uuid, err));
    dl_delta_uuid_format(uuid, bn->job_id);
    return DL_OK;
}

/* Packs the sorted candidates of each partition into bins of at most maxFileSize bytes. */
static dl_status
make_bins(optimize *o, dl_error *err) {
    qsort(o->cands, (size_t)o->n_cands, sizeof(cand), cmp_cand);
    o->bins = dl_arena_alloc_zero(o->b->arena, (size_t)(o->n_cands + 1) * sizeof(bin));
    DL_CHECK(o->bins != NULL, err, DL_ERR_NOMEM, "out of memory");
    int32_t start = 0;
    int64_t bytes = 0;
    for (int32_t i = 0; i < o->n_cands; i++) {
        int64_t size = o->cands[i].file->size > 0 ? o->cands[i].file->size : 0;
        bool is_new_part = i > start && strcmp(o->cands[i].part_key, o->cands[start].part_key) != 0;
        bool is_full = i > start && bytes + size > o->max_file_size && o->cl.n_cols == 0;
        if (is_new_part || is_full) {
            DL_TRY(close_bin(o, &o->cands[start], i - start, err));
            start = i;
            bytes = 0;
        }
        bytes += size;
    }
    return close_bin(o, &o->cands[start], o->n_cands - start, err);
}

/* ---- rewriting ---------------------------------------------------------------------------- */

/* Copies the live rows of unit u into w. */
static dl_status
copy_unit(optimize *o, size_t u, dl_ops_writer *w, dl_batch *batch, dl_error *err) {
    dl_delta_scan_reader *rd = NULL;
    DL_TRY(dl_delta_scan_reader_new(o->scan, u, &rd, err));
    dl_status s = DL_OK;
    for (;;) {
        s = dl_delta_scan_reader_next(rd, batch, err);
        if (s != DL_OK || batch->count == 0) {
            break;
        }
        s = dl_ops_writer_write(w, batch, err);
        if (s != DL_OK) {
            dl_error_prefix(err, "table %s: ", o->t.display);
            break;
        }
    }
    dl_delta_scan_reader_free(rd);
    return s;
}

/* A clustering bin: its files' rows ordered along the curve, files rolled at maxFileSize. */
static dl_status
cluster_bin(bin *bn, dl_error *err) {
    optimize *o = bn->opt;
    size_t *units = dl_mem_alloc(o->b->exec->alloc, (size_t)bn->n_files * sizeof(size_t));
    DL_CHECK(units != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < bn->n_files; i++) {
        units[i] = bn->files[i].unit;
    }
    dl_status s = dl_sql_cluster_write(o->scan, units, bn->n_files, &o->cl.spec, bn->writer,
                                       o->b->exec->alloc, err);
    dl_mem_free(o->b->exec->alloc, units, (size_t)bn->n_files * sizeof(size_t));
    if (s != DL_OK) {
        dl_error_prefix(err, "table %s: ", o->t.display);
        return s;
    }
    return dl_ops_writer_finish(bn->writer, err);
}

/* A pool task: the bin's files, in order, into one new file. */
static dl_status
run_bin(void *arg, dl_error *err) {
    bin *bn = arg;
    optimize *o = bn->opt;
    dl_ops_write_spec spec;
    dl_sql_dml_write_spec(o->b, &o->t, bn->job_id, &spec);
    spec.data_change = false;
    spec.target_file_bytes = o->cl.n_cols > 0 ? o->max_file_size : INT64_MAX;
    DL_TRY_CTX(dl_ops_writer_new(&spec, &bn->writer, err), err, "table %s", o->t.display);
    if (o->cl.n_cols > 0) {
        return cluster_bin(bn, err);
    }
    dl_batch *batch = NULL;
    DL_TRY(dl_vec_batch_new(o->b->exec->alloc, dl_delta_scan_schema(o->scan), DL_BATCH_CAPACITY,
                            &batch, err));
    dl_status s = DL_OK;
    for (int32_t i = 0; i < bn->n_files && s == DL_OK; i++) {
        s = copy_unit(o, bn->files[i].unit, bn->writer, batch, err);
    }
    if (s == DL_OK) {
        s = dl_ops_writer_finish(bn->writer, err);
    }
    dl_vec_batch_free(batch);
    return s;
}

/* Removes every file the bins wrote (a failed or refused statement). */
static void
discard_bins(optimize *o) {
    for (int32_t i = 0; i < o->n_bins; i++) {
        dl_ops_writer_abort(o->bins[i].writer);
        dl_ops_writer_free(o->bins[i].writer);
        o->bins[i].writer = NULL;
    }
}

static void
free_bins(optimize *o) {
    for (int32_t i = 0; i < o->n_bins; i++) {
        dl_ops_writer_free(o->bins[i].writer);
        o->bins[i].writer = NULL;
    }
}

/* ---- totals, commit ----------------------------------------------------------------------- */

static int
cmp_size(const void *pa, const void *pb) {
    return cmp_i64(*(const int64_t *)pa, *(const int64_t *)pb);
}

static void
count_removed(totals *tot, const dl_delta_file *f) {
    int64_t size = f->size > 0 ? f->size : 0;
    tot->min_removed = tot->n_removed == 0 || size < tot->min_removed ? size : tot->min_removed;
    tot->max_removed = size > tot->max_removed ? size : tot->max_removed;
    tot->n_removed++;
    tot->removed_bytes += size;
    if (f->dv != NULL) {
        tot->n_dvs++;
        tot->dv_rows += f->dv->cardinality;
    }
}

/* Counts what the bins wrote and will remove. */
static dl_status
count_totals(optimize *o, dl_error *err) {
    totals *tot = &o->tot;
    int64_t n_added = 0;
    for (int32_t i = 0; i < o->n_bins; i++) {
        n_added += (int64_t)dl_ops_writer_file_count(o->bins[i].writer);
        bool is_new_part =
            i == 0 || strcmp(o->bins[i].files[0].part_key, o->bins[i - 1].files[0].part_key) != 0;
        tot->n_partitions += is_new_part ? 1 : 0;
        for (int32_t k = 0; k < o->bins[i].n_files; k++) {
            count_removed(tot, o->bins[i].files[k].file);
        }
    }
    tot->added_sizes = dl_arena_alloc_zero(o->b->arena, (size_t)(n_added + 1) * sizeof(int64_t));
    DL_CHECK(tot->added_sizes != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < o->n_bins; i++) {
        for (size_t k = 0; k < dl_ops_writer_file_count(o->bins[i].writer); k++) {
            tot->added_sizes[tot->n_added++] = dl_ops_writer_file(o->bins[i].writer, k)->size;
        }
    }
    qsort(tot->added_sizes, (size_t)tot->n_added, sizeof(int64_t), cmp_size);
    for (int64_t k = 0; k < tot->n_added; k++) {
        tot->added_bytes += tot->added_sizes[k];
    }
    tot->min_added = tot->n_added > 0 ? tot->added_sizes[0] : 0;
    tot->max_added = tot->n_added > 0 ? tot->added_sizes[tot->n_added - 1] : 0;
    return DL_OK;
}

static dl_status
stage_metrics(const optimize *o, dl_delta_tx *tx, dl_error *err) {
    const totals *tot = &o->tot;
    const int64_t *sz = tot->added_sizes;
    int64_t n = tot->n_added;
    dl_sql_dml_metric metrics[] = {
        {"numAddedFiles", n},
        {"numRemovedFiles", tot->n_removed},
        {"numAddedBytes", tot->added_bytes},
        {"numRemovedBytes", tot->removed_bytes},
        {"minFileSize", sz[0]},
        {"p25FileSize", sz[n / 4]},
        {"p50FileSize", sz[n / 2]},
        {"p75FileSize", sz[n * 3 / 4]},
        {"maxFileSize", sz[n - 1]},
        {"numDeletionVectorsRemoved", tot->n_dvs},
    };
    return dl_sql_dml_set_metrics(tx, metrics, DL_ARRAY_LEN(metrics), err);
}

/* Stages the new files, the removes and commitInfo. Assumes: some file was added. */
static dl_status
stage(optimize *o, dl_delta_tx *tx, dl_error *err) {
    dl_sql_binder *b = o->b;
    bool is_purge = o->stmt->u.optimize.is_purge;
    dl_delta_tx_set_operation(tx, is_purge ? DL_DELTA_OP_REORG : DL_DELTA_OP_OPTIMIZE);
    DL_TRY(dl_sql_dml_param_array(b, tx, "predicate", &o->predicate, o->predicate != NULL, err));
    if (is_purge) {
        DL_TRY(dl_delta_tx_param_json(tx, "applyPurge", "true", err));
    } else {
        DL_TRY(dl_sql_optimize_cluster_params(b, &o->cl, tx, err));
        DL_TRY(dl_delta_tx_param_json(tx, "auto", "false", err));
    }
    for (int32_t i = 0; i < o->n_bins; i++) {
        DL_TRY(dl_sql_optimize_cluster_stage(&o->cl, o->bins[i].writer, tx, err));
        for (int32_t k = 0; k < o->bins[i].n_files; k++) {
            DL_TRY(dl_delta_tx_remove_snapshot_file(tx, o->bins[i].files[k].file, false, err));
        }
    }
    return stage_metrics(o, tx, err);
}

/* Commits the rewrite when it added files; otherwise drops what the bins left. */
static dl_status
commit(optimize *o, dl_error *err) {
    if (o->tot.n_added == 0) {
        discard_bins(o);
        return DL_OK;
    }
    dl_delta_tx *tx = NULL;
    dl_status s = dl_delta_tx_begin(o->t.table, o->t.snap, NULL, &tx, err);
    if (s == DL_OK) {
        s = stage(o, tx, err);
    }
    if (s == DL_OK) {
        s = dl_delta_tx_commit(tx, NULL, err);
    }
    dl_delta_tx_free(tx);
    if (s != DL_OK) {
        dl_error_prefix(err, "%s %s: ", op_name(o), o->t.display);
        discard_bins(o);
        return s;
    }
    free_bins(o);
    return DL_OK;
}

/* ---- the result row ----------------------------------------------------------------------- */

/* Spark's OptimizeMetrics, field by field (clusteringStats and autoCompactParallelismStats
 * left out). */
enum {
    M_FILES_ADDED_N,
    M_FILES_REMOVED_N,
    M_FILES_ADDED,
    M_FILES_REMOVED,
    M_PARTITIONS,
    M_ZORDER,
    M_BINS,
    M_BATCHES,
    M_CONSIDERED,
    M_SKIPPED,
    M_PRESERVE_ORDER,
    M_WA_FILES,
    M_WA_BYTES,
    M_START,
    M_END,
    M_PARALLELISM,
    M_TASKS,
    M_DV,
    M_COLUMNS,
    M_COLUMNS_STATS,
    M_COUNT
};

static dl_status
zorder_stats_type(dl_sql_binder *b, const dl_type **out, dl_error *err) {
    const dl_type *i64 = dl_vec_type_prim(DL_VEC_TYPE_LONG);
    const dl_type *files = NULL;
    dl_sql_col_spec fs[] = {{"num", i64}, {"size", i64}};
    DL_TRY(dl_sql_make_schema(b, fs, 2, &files, err));
    dl_sql_col_spec specs[] = {
        {"strategyName", dl_vec_type_prim(DL_VEC_TYPE_STRING)},
        {"inputCubeFiles", files},
        {"inputOtherFiles", files},
        {"inputNumCubes", i64},
        {"mergedFiles", files},
        {"numOutputCubes", i64},
        {"mergedNumCubes", i64},
    };
    return dl_sql_make_schema(b, specs, (int32_t)DL_ARRAY_LEN(specs), out, err);
}

static dl_status
metrics_type(dl_sql_binder *b, const dl_type **out, dl_error *err) {
    const dl_type *i64 = dl_vec_type_prim(DL_VEC_TYPE_LONG);
    const dl_type *sizes = NULL;
    const dl_type *zorder = NULL;
    const dl_type *dv = NULL;
    dl_sql_col_spec size_specs[] = {{"min", i64},
                                    {"max", i64},
                                    {"avg", dl_vec_type_prim(DL_VEC_TYPE_DOUBLE)},
                                    {"totalFiles", i64},
                                    {"totalSize", i64}};
    dl_sql_col_spec dv_specs[] = {{"numDeletionVectorsRemoved", i64},
                                  {"numDeletionVectorRowsRemoved", i64}};
    DL_TRY(dl_sql_make_schema(b, size_specs, (int32_t)DL_ARRAY_LEN(size_specs), &sizes, err));
    DL_TRY(dl_sql_make_schema(b, dv_specs, (int32_t)DL_ARRAY_LEN(dv_specs), &dv, err));
    DL_TRY(zorder_stats_type(b, &zorder, err));
    dl_sql_col_spec specs[M_COUNT] = {
        {"numFilesAdded", i64},
        {"numFilesRemoved", i64},
        {"filesAdded", sizes},
        {"filesRemoved", sizes},
        {"partitionsOptimized", i64},
        {"zOrderStats", zorder},
        {"numBins", i64},
        {"numBatches", i64},
        {"totalConsideredFiles", i64},
        {"totalFilesSkipped", i64},
        {"preserveInsertionOrder", dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN)},
        {"numFilesSkippedToReduceWriteAmplification", i64},
        {"numBytesSkippedToReduceWriteAmplification", i64},
        {"startTimeMs", i64},
        {"endTimeMs", i64},
        {"totalClusterParallelism", i64},
        {"totalScheduledTasks", i64},
        {"deletionVectorStats", dv},
        {"numTableColumns", i64},
        {"numTableColumnsWithStats", i64},
    };
    return dl_sql_make_schema(b, specs, M_COUNT, out, err);
}

/* A FileSizeMetrics row: min and max NULL when there are no files. */
static dl_status
put_sizes(dl_vector *v, int64_t n, int64_t total, int64_t min, int64_t max, dl_error *err) {
    dl_vector **c = v->children;
    DL_TRY(n > 0 ? dl_vec_append_i64(c[0], min, err) : dl_vec_append_null(c[0], err));
    DL_TRY(n > 0 ? dl_vec_append_i64(c[1], max, err) : dl_vec_append_null(c[1], err));
    DL_TRY(dl_vec_append_f64(c[2], n > 0 ? (double)total / (double)n : 0.0, err));
    DL_TRY(dl_vec_append_i64(c[3], n, err));
    DL_TRY(dl_vec_append_i64(c[4], total, err));
    return dl_vec_append_struct(v, err);
}

static dl_status
put_dv_stats(dl_vector *v, const totals *tot, dl_error *err) {
    if (tot->n_dvs == 0) {
        return dl_vec_append_null(v, err);
    }
    DL_TRY(dl_vec_append_i64(v->children[0], tot->n_dvs, err));
    DL_TRY(dl_vec_append_i64(v->children[1], tot->dv_rows, err));
    return dl_vec_append_struct(v, err);
}

/* Spark's delta.dataSkippingNumIndexedCols (default 32; -1: every column), at most n. */
static int64_t
columns_with_stats(const optimize *o, int64_t n) {
    const char *conf = dl_delta_metadata_config(dl_delta_snapshot_metadata(o->t.snap),
                                                "delta.dataSkippingNumIndexedCols");
    int64_t k = conf != NULL ? strtoll(conf, NULL, 10) : DL_OPS_STATS_COLUMNS;
    return k < 0 || k > n ? n : k;
}

static dl_status
put_metrics(const optimize *o, dl_vector *v, dl_error *err) {
    const totals *tot = &o->tot;
    dl_vector **c = v->children;
    int64_t n_cols = o->t.schema->n_fields;
    int64_t longs[M_COUNT] = {
        [M_FILES_ADDED_N] = tot->n_added,
        [M_FILES_REMOVED_N] = tot->n_removed,
        [M_PARTITIONS] = tot->n_partitions,
        [M_BINS] = o->n_bins,
        [M_BATCHES] = o->n_bins,
        [M_CONSIDERED] = o->n_scope,
        [M_SKIPPED] = o->n_scope - tot->n_removed,
        [M_START] = tot->start_ms,
        [M_END] = tot->end_ms,
        [M_PARALLELISM] = o->b->exec->n_threads,
        [M_TASKS] = o->n_bins,
        [M_COLUMNS] = n_cols,
        [M_COLUMNS_STATS] = columns_with_stats(o, n_cols),
    };
    for (int32_t i = 0; i < M_COUNT; i++) {
        if (c[i]->type->id == DL_VEC_TYPE_LONG) {
            DL_TRY(dl_vec_append_i64(c[i], longs[i], err));
        }
    }
    DL_TRY(put_sizes(c[M_FILES_ADDED], tot->n_added, tot->added_bytes, tot->min_added,
                     tot->max_added, err));
    DL_TRY(put_sizes(c[M_FILES_REMOVED], tot->n_removed, tot->removed_bytes, tot->min_removed,
                     tot->max_removed, err));
    DL_TRY(dl_sql_optimize_zorder_stats(&o->cl, c[M_ZORDER], tot->n_removed, tot->removed_bytes,
                                        o->n_bins, err));
    DL_TRY(dl_vec_append_bool(c[M_PRESERVE_ORDER], o->cl.n_cols == 0, err));
    DL_TRY(put_dv_stats(c[M_DV], tot, err));
    return dl_vec_append_struct(v, err);
}

static dl_status
fill_row(void *ctx, dl_batch *tail, dl_error *err) {
    const optimize *o = ctx;
    const char *loc = dl_sql_snapshot_location(o->b, o->t.snap);
    DL_CHECK(loc != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(dl_vec_append_str(tail->cols[0], loc, strlen(loc), err));
    return put_metrics(o, tail->cols[1], err);
}

/* The result: one row, the table's location and the metrics. */
static dl_status
result_row(optimize *o, dl_sql_plan **out, dl_error *err) {
    const dl_type *metrics = NULL;
    const dl_type *schema = NULL;
    DL_TRY(metrics_type(o->b, &metrics, err));
    dl_sql_col_spec specs[] = {{"path", dl_vec_type_prim(DL_VEC_TYPE_STRING)},
                               {"metrics", metrics}};
    DL_TRY(dl_sql_make_schema(o->b, specs, 2, &schema, err));
    return dl_sql_plan_one_row(o->b, schema, fill_row, o, out, err);
}

/* ---- the statement ------------------------------------------------------------------------ */

static dl_status
run_optimize(optimize *o, dl_error *err) {
    if (o->stmt->u.optimize.where != NULL) {
        DL_TRY(bind_where(o, o->stmt->u.optimize.where, err));
    }
    DL_TRY(plan_scan(o, err));
    DL_TRY(find_candidates(o, err));
    DL_TRY(make_bins(o, err));
    dl_status s = dl_sql_exec_parallel(o->b->exec, run_bin, o->bins, sizeof(bin), o->n_bins, err);
    if (s == DL_OK) {
        s = count_totals(o, err);
    }
    if (s != DL_OK) {
        discard_bins(o);
        return s;
    }
    return commit(o, err);
}

dl_status
dl_sql_dml_optimize(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    optimize *o = dl_arena_alloc_zero(b->arena, sizeof(*o));
    DL_CHECK(o != NULL, err, DL_ERR_NOMEM, "out of memory");
    o->b = b;
    o->stmt = stmt;
    o->tot.start_ms = dl_sql_dml_now_ms();
    DL_TRY(dl_sql_dml_open_target(b, &stmt->u.optimize.target, stmt->loc, &o->t, err));
    o->min_file_size =
        dl_sql_session_get_i64(b->session, "spark.databricks.delta.optimize.minFileSize");
    o->max_file_size =
        dl_sql_session_get_i64(b->session, "spark.databricks.delta.optimize.maxFileSize");
    o->max_deleted_ratio = dl_sql_session_get_double(
        b->session, "spark.databricks.delta.optimize.maxDeletedRowsRatio");
    DL_TRY(dl_sql_optimize_cluster_init(b, stmt, &o->t, &o->cl, err));
    dl_status s = run_optimize(o, err);
    dl_delta_scan_free(o->scan);
    if (s != DL_OK) {
        return s;
    }
    o->tot.end_ms = dl_sql_dml_now_ms();
    return result_row(o, out, err);
}
