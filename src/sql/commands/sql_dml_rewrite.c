/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DELETE FROM t [WHERE cond] and UPDATE t SET c = v, ... [WHERE cond] (sql_dml.h), by
 * copy-on-write of the files that hold a matching row, as Spark's DeleteCommand and
 * UpdateCommand do. A row whose condition is NULL does not match.
 *
 *   1. Candidates: the live files the Delta scan keeps for the condition's conjuncts on the
 *      table's columns (sql_dml_files.c).
 *   2. Metadata-only DELETE: when the condition is on partition columns only and every part
 *      of it is one the scan decides exactly (comparisons, IN, IS NULL of a partition column
 *      with constants, under AND/OR/NOT) -- or there is no condition -- every candidate holds
 *      matching rows only: it is removed without being read, and numDeletedRows comes from
 *      the files' stats numRecords (the files are counted by reading them when a stats entry
 *      lacks it or a deletion vector hides rows).
 *   3. Otherwise the candidates are read and the condition evaluated: files with no matching
 *      row are left alone; the others ("touched") are read again, whole, their rows written
 *      back (DELETE: the rows that do not match; UPDATE: every row, the matching ones with
 *      their new values) and the files removed in the same commit. The first read may skip
 *      row groups and pages the condition rules out (they hold no matching row); the second
 *      reads through a scan with no predicate (dl_sql_dml_files_copy_scan): skipping chooses
 *      which files are rewritten, never which of their rows survive.
 *   When no file is touched, nothing is committed, as in Spark.
 *
 * A condition with subqueries is planned as joins and run through the executor, twice: over
 * the candidates, with each row's file (the scan's hidden file index), to mark the files
 * holding a matching row; then over those files only, whose rows are written back as above.
 *
 * What the transaction records as read (for conflict detection): every candidate file, and
 * the partitions the condition's `p = constant` / `p IN (constants)` conjuncts allow
 * (sql_dml_files.c).
 *
 * Deletion vectors (delta.enableDeletionVectors, sql_dml_dv.c), as Spark's
 * DMLWithDeletionVectorsHelper: the candidates are read once and the matching rows marked in
 * their files' deletion vectors (the Delta reader's first row of each batch, or with
 * subqueries the scan's hidden row index, says where they are); UPDATE writes the new versions
 * of the matching rows, and only those, to new files. No file is read again or copied; a file
 * whose every row matches is removed (delta/delta_dv_dml.h). The metadata-only DELETE of
 * whole partitions stays as it is.
 *
 * commitInfo as Spark: DELETE with operationParameters predicate (a JSON array of the
 * condition's SQL) and operationMetrics numRemovedFiles, numRemovedBytes, numCopiedRows,
 * numDeletionVectorsAdded/Removed/Updated, numAddedChangeFiles, executionTimeMs,
 * numDeletedRows, scanTimeMs, numAddedFiles, numAddedBytes, rewriteTimeMs; UPDATE the same
 * with numUpdatedRows instead of numDeletedRows.
 */
#include <string.h>

#include "sql/commands/sql_dml.h"

enum {
    CODE_COPY = 0,
    CODE_MATCHED = 1
};

typedef struct rewrite {
    dl_sql_dml_target t;
    dl_sql_dml_files files;   /* candidates and touched files */
    dl_sql_plan *scan;        /* the target's scan (columns, then the file index) */
    dl_sql_plan *plan;        /* the target's rows (then with the code column) */
    dl_sql_scope scope;       /* names of the target's columns */
    const char *qual;         /* their qualifier */
    dl_sql_bexpr *cond;       /* WHERE, or NULL (every row matches) */
    const dl_sql_expr *where; /* its SQL, bound again for every use (plans are trees) */
    bool is_shared;           /* cond has subqueries: planned once per plan, then shared */
    bool is_dv;               /* rows are marked in deletion vectors, not files rewritten */
    dl_delta_dv_marks *marks; /* is_dv: the rows deleted or replaced */
    bool is_cdf;              /* the table has the change data feed (sql_dml_cdf.c) */
    dl_sql_dml_cdf *cdf;      /* the change data written, or NULL */
    const char *predicate;
    uint32_t loc;
    int64_t start_ms;
    int64_t scan_ms; /* finding the touched files */
} rewrite;

/*
 * The target's rows as rw->plan (each with its file, unnamed) and the condition bound over
 * them; a condition with subqueries grows the plan by their joins. The first call also plans
 * the candidates from the condition's conjuncts on the table's columns.
 */
static dl_status
plan_rows(dl_sql_binder *b, rewrite *rw, dl_error *err) {
    dl_delta_snapshot *snap = dl_delta_snapshot_ref(rw->t.snap);
    DL_TRY(rw->is_dv
               ? dl_sql_plan_delta_scan_rows(b, snap, rw->t.display, rw->loc, &rw->scan, err)
               : dl_sql_plan_delta_scan_files(b, snap, rw->t.display, rw->loc, &rw->scan, err));
    rw->plan = rw->scan;
    DL_TRY(dl_sql_scope_of(b, rw->plan, rw->qual, &rw->scope, err));
    rw->scope.n = rw->t.schema->n_fields;
    rw->cond = NULL;
    if (rw->where != NULL) {
        dl_sql_bctx cx = {.b = b, .scope = &rw->scope, .clause = "WHERE"};
        DL_TRY(dl_sql_binder_cond(&cx, rw->where, &rw->cond, err));
        rw->is_shared = dl_sql_bexpr_has_subquery(rw->cond);
    }
    if (rw->files.candidates == NULL) {
        dl_sql_bexpr **conjs = NULL;
        int32_t n_conjs = 0;
        DL_TRY(dl_sql_dml_target_conjuncts(b, &rw->t, rw->cond, &conjs, &n_conjs, err));
        DL_TRY(dl_sql_dml_files_plan(b, &rw->t, conjs, n_conjs, !rw->is_shared, &rw->files, err));
    }
    if (rw->is_shared) {
        DL_TRY(dl_sql_plan_subqueries(b, &rw->plan, &rw->cond, false, err));
    }
    return DL_OK;
}

static dl_status
open_rewrite(dl_sql_binder *b, const dl_sql_name *name, bool has_alias, const dl_sql_ident *alias,
             const dl_sql_expr *where, uint32_t loc, rewrite *rw, dl_error *err) {
    rw->start_ms = dl_sql_dml_clock_ms();
    rw->loc = loc;
    DL_TRY(dl_sql_dml_open(b, name, loc, &rw->t, err));
    rw->is_dv = dl_sql_dml_uses_dvs(&rw->t);
    rw->is_cdf = dl_sql_dml_is_cdf(&rw->t);
    if (rw->is_dv) {
        DL_TRY(dl_sql_dml_marks_new(b, &rw->t, &rw->marks, err));
    }
    rw->qual = has_alias ? dl_arena_strndup(b->arena, alias->name.ptr, alias->name.len)
                         : name->parts[name->n_parts - 1].name.ptr;
    DL_CHECK(rw->qual != NULL, err, DL_ERR_NOMEM, "out of memory");
    rw->predicate = where != NULL ? dl_sql_dml_expr_text(b, where) : NULL;
    rw->where = where;
    return plan_rows(b, rw, err);
}

/* The condition for one more use: a fresh binding, so that no node is shared. */
static dl_status
fresh_cond(dl_sql_binder *b, rewrite *rw, dl_sql_bexpr **out, dl_error *err) {
    if (rw->is_shared || rw->where == NULL) {
        *out = rw->cond;
        return DL_OK;
    }
    dl_sql_bctx cx = {.b = b, .scope = &rw->scope, .clause = "WHERE"};
    return dl_sql_binder_cond(&cx, rw->where, out, err);
}

/* CASE WHEN cond THEN 1 ELSE 0 END (1 without a condition). */
static dl_status
code_expr(dl_sql_binder *b, rewrite *rw, uint32_t loc, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_bexpr *one = dl_sql_dml_int(b, CODE_MATCHED);
    dl_sql_bexpr *zero = dl_sql_dml_int(b, CODE_COPY);
    DL_CHECK(one != NULL && zero != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (rw->cond == NULL) {
        *out = one;
        return DL_OK;
    }
    dl_sql_bexpr *cond = NULL;
    DL_TRY(fresh_cond(b, rw, &cond, err));
    return dl_sql_binder_make_case(b, &cond, &one, 1, zero, loc, out, err);
}

/* Projects the table's columns (exprs[0..n)) and the code; with deletion vectors also each
 * row's file and file row number (the scan's hidden columns n and n + 1); for an UPDATE that
 * writes change data, then the old values of the table's columns (from *out_old_col). exprs
 * has room for 2n + 3. */
static dl_status
project_with_code(dl_sql_binder *b, rewrite *rw, dl_sql_bexpr **exprs, bool is_update, uint32_t loc,
                  int32_t *out_old_col, dl_error *err) {
    int32_t n = rw->t.schema->n_fields;
    const char **names = dl_arena_alloc_zero(b->arena, (size_t)(2 * n + 3) * sizeof(const char *));
    DL_CHECK(names != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < n; i++) {
        names[i] = rw->t.schema->fields[i].name;
    }
    names[n] = "__dl_action";
    DL_TRY(code_expr(b, rw, loc, &exprs[n], err));
    int32_t width = n + 1;
    if (rw->is_dv) {
        names[n + 1] = "__dl_file";
        names[n + 2] = "__dl_row";
        exprs[n + 1] = dl_sql_bexpr_column(b->arena, n, dl_vec_type_prim(DL_VEC_TYPE_INT));
        exprs[n + 2] = dl_sql_bexpr_column(b->arena, n + 1, dl_vec_type_prim(DL_VEC_TYPE_LONG));
        DL_CHECK(exprs[n + 1] != NULL && exprs[n + 2] != NULL, err, DL_ERR_NOMEM, "out of memory");
        width = n + 3;
    }
    *out_old_col = width;
    for (int32_t i = 0; rw->is_cdf && is_update && i < n; i++) {
        names[width] = rw->t.schema->fields[i].name;
        exprs[width] = dl_sql_bexpr_column(b->arena, i, rw->t.schema->fields[i].type);
        DL_CHECK(exprs[width] != NULL, err, DL_ERR_NOMEM, "out of memory");
        width++;
    }
    return dl_sql_plan_project(b, rw->plan, exprs, names, width, &rw->plan, err);
}

/* operationParameters.predicate: a JSON array of the condition's SQL ([] without one). */
static dl_status
param_predicate(dl_sql_binder *b, dl_delta_tx *tx, const char *predicate, dl_error *err) {
    return dl_sql_dml_param_array(b, tx, "predicate", &predicate, predicate != NULL ? 1 : 0, err);
}

/* What a DELETE or UPDATE did, for its operationMetrics. */
typedef struct tally {
    int64_t n_matched, n_copied, rewrite_ms;
    dl_sql_dml_removed removed; /* files removed (copy-on-write, or every row deleted) */
    int64_t dvs_added, dvs_updated;
    int64_t n_cdc_files; /* change data files */
} tally;

/* The operation, its predicate, what it read, and operationMetrics as Spark writes them. */
static dl_status
stage_commit_info(dl_sql_binder *b, rewrite *rw, dl_delta_tx *tx, dl_ops_writer *w, const tally *c,
                  bool is_update, dl_error *err) {
    dl_delta_tx_set_operation(tx, is_update ? DL_DELTA_OP_UPDATE : DL_DELTA_OP_DELETE);
    DL_TRY(param_predicate(b, tx, rw->predicate, err));
    int64_t n_cdc_files = 0;
    DL_TRY(dl_sql_dml_cdf_stage(rw->cdf, tx, &n_cdc_files, err));
    DL_TRY(dl_sql_dml_files_record_reads(tx, &rw->files, err));
    dl_sql_dml_metric metrics[] = {
        {"numRemovedFiles", c->removed.n_files},
        {"numRemovedBytes", c->removed.n_bytes},
        {"numCopiedRows", c->n_copied},
        {"numDeletionVectorsAdded", c->dvs_added},
        {"numDeletionVectorsRemoved", c->removed.n_dvs},
        {"numDeletionVectorsUpdated", c->dvs_updated},
        {"numAddedChangeFiles", n_cdc_files},
        {"executionTimeMs", dl_sql_dml_clock_ms() - rw->start_ms},
        {is_update ? "numUpdatedRows" : "numDeletedRows", c->n_matched},
        {"scanTimeMs", rw->scan_ms},
        {"numAddedFiles", (int64_t)dl_ops_writer_file_count(w)},
        {"numAddedBytes", dl_ops_writer_bytes(w)},
        {"rewriteTimeMs", c->rewrite_ms},
    };
    return dl_sql_dml_set_metrics(tx, metrics, DL_ARRAY_LEN(metrics), err);
}

/* With deletion vectors: the marks staged (files replaced or removed), then the new files. */
static dl_status
stage_marks(dl_sql_binder *b, rewrite *rw, dl_delta_tx *tx, dl_ops_writer *w, tally *c,
            bool is_update, dl_error *err) {
    dl_delta_dv_marks_result r;
    DL_TRY(dl_sql_dml_marks_stage(&rw->t, tx, rw->marks, &r, err));
    DL_TRY(dl_ops_writer_stage(w, tx, false, err));
    c->removed = (dl_sql_dml_removed){
        .n_files = r.n_files_removed, .n_bytes = r.removed_bytes, .n_dvs = r.n_dvs_removed};
    c->dvs_added = r.n_dvs_added;
    c->dvs_updated = r.n_dvs_updated;
    c->rewrite_ms = dl_sql_dml_clock_ms() - rw->start_ms - rw->scan_ms;
    return stage_commit_info(b, rw, tx, w, c, is_update, err);
}

static dl_status
stage_rewrite(dl_sql_binder *b, rewrite *rw, dl_delta_tx *tx, dl_ops_writer *w,
              const dl_sql_dml_sink *sink, bool is_update, dl_error *err) {
    tally c = {.n_matched = sink->counts[CODE_MATCHED]};
    if (rw->is_dv) {
        return stage_marks(b, rw, tx, w, &c, is_update, err);
    }
    c.n_copied = sink->counts[CODE_COPY];
    DL_TRY(dl_sql_dml_files_remove(&rw->t, tx, &rw->files, &c.removed, err));
    DL_TRY(dl_ops_writer_stage(w, tx, false, err));
    c.rewrite_ms = dl_sql_dml_clock_ms() - rw->start_ms - rw->scan_ms;
    return stage_commit_info(b, rw, tx, w, &c, is_update, err);
}

/* Commits; the change data files stay when it did. */
static dl_status
commit_rewrite(dl_sql_binder *b, rewrite *rw, dl_delta_tx *tx, dl_ops_writer *w, dl_error *err) {
    DL_TRY(dl_sql_dml_commit_counted(b, tx, w, err));
    dl_sql_dml_cdf_kept(rw->cdf);
    return DL_OK;
}

/* The statement's writers: its data files and, when it writes change data (not for a DELETE
 * with deletion vectors or of whole partitions: sql_dml_cdf.c), its change data files. */
static dl_status
rewrite_writers(dl_sql_binder *b, rewrite *rw, dl_delta_tx *tx, bool is_cdc, dl_ops_writer **w,
                dl_error *err) {
    DL_TRY(dl_sql_dml_writer(b, &rw->t, tx, w, err));
    return is_cdc ? dl_sql_dml_cdf_new(b, &rw->t, tx, &rw->cdf, err) : DL_OK;
}

/* Runs the planned rewrite and commits it when a row matched. */
static dl_status
finish_rewrite(dl_sql_binder *b, rewrite *rw, uint32_t keep_mask, bool is_update, int32_t old_col,
               dl_error *err) {
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(rw->t.table, rw->t.snap, NULL, &tx, err));
    dl_ops_writer *w = NULL;
    dl_status s = rewrite_writers(b, rw, tx, is_update || !rw->is_dv, &w, err);
    int32_t n = rw->t.schema->n_fields;
    dl_sql_dml_sink sink = {.writer = w,
                            .schema = rw->t.schema,
                            .code_col = n,
                            .keep_mask = keep_mask,
                            .source_col = -1,
                            .marks = rw->marks,
                            .file_col = n + 1,
                            .row_col = n + 2,
                            .mark_mask = 1u << CODE_MATCHED};
    if (rw->cdf != NULL && is_update) {
        dl_sql_dml_cdf_route(&sink, rw->cdf, old_col, CODE_MATCHED, DL_SQL_CDF_POSTIMAGE,
                             DL_SQL_CDF_PREIMAGE);
    } else if (rw->cdf != NULL) {
        dl_sql_dml_cdf_route(&sink, rw->cdf, 0, CODE_MATCHED, DL_SQL_CDF_NONE, DL_SQL_CDF_DELETE);
    }
    if (s == DL_OK) {
        s = dl_sql_dml_run(b, rw->plan, &sink, err);
    }
    if (s == DL_OK && sink.counts[CODE_MATCHED] == 0) {
        dl_sql_dml_discard(tx, w);
        return DL_OK;
    }
    if (s == DL_OK) {
        s = stage_rewrite(b, rw, tx, w, &sink, is_update, err);
    }
    if (s != DL_OK) {
        dl_sql_dml_discard(tx, w);
        return s;
    }
    return commit_rewrite(b, rw, tx, w, err);
}

/* ---- exact partition conditions ------------------------------------------------------------ */

static bool
is_exact_compare(const rewrite *rw, const dl_sql_bexpr *e) {
    static const char *const ops[] = {"=", "==", "<>", "<", "<=", ">", ">="};
    if (e->n_args != 2 || e->fn == NULL) {
        return false;
    }
    bool is_op = false;
    for (size_t i = 0; i < DL_ARRAY_LEN(ops); i++) {
        is_op = is_op || strcmp(e->fn->name, ops[i]) == 0;
    }
    const dl_sql_bexpr *l = e->args[0];
    const dl_sql_bexpr *r = e->args[1];
    return is_op && ((dl_sql_dml_is_partition_ref(&rw->t, l) && dl_sql_dml_is_exact_const(r, l)) ||
                     (dl_sql_dml_is_partition_ref(&rw->t, r) && dl_sql_dml_is_exact_const(l, r)));
}

/*
 * Whether e is decided exactly by partition values in the scan's skipping: only partition
 * columns, and only shapes the SQL scan translates whole (sql_op_scan.c). Conservative: a
 * false answer only costs reading the candidates.
 */
static bool
is_exact_on_partitions(const rewrite *rw, const dl_sql_bexpr *e) {
    switch (e->kind) {
    case DL_SQL_BEXPR_AND:
    case DL_SQL_BEXPR_OR:
    case DL_SQL_BEXPR_NOT:
        for (int32_t i = 0; i < e->n_args; i++) {
            if (!is_exact_on_partitions(rw, e->args[i])) {
                return false;
            }
        }
        return e->n_args > 0;
    case DL_SQL_BEXPR_CALL:
        return is_exact_compare(rw, e);
    case DL_SQL_BEXPR_IN_LIST:
        if (e->is_not || !dl_sql_dml_is_partition_ref(&rw->t, e->args[0])) {
            return false;
        }
        for (int32_t i = 1; i < e->n_args; i++) {
            if (!dl_sql_dml_is_exact_const(e->args[i], e->args[0])) {
                return false;
            }
        }
        return true;
    case DL_SQL_BEXPR_IS:
        return e->is_kind == DL_SQL_BIS_NULL && dl_sql_dml_is_partition_ref(&rw->t, e->args[0]);
    default:
        return false;
    }
}

/* ---- reading the candidates ------------------------------------------------------------ */

typedef struct pruned {
    dl_sql_binder *b;
    rewrite *rw;
    bool is_update;
    bool is_metadata_only;
    dl_delta_scan *scan; /* the candidates (rw->files), for finding matches only */
    dl_delta_scan *copy; /* the touched files whole, for the rows written back */
    size_t n_units;
    int64_t *matched;   /* per unit: matching rows */
    dl_sql_eval *cond;  /* NULL: every row matches */
    dl_sql_eval **vals; /* UPDATE: each column's new value */
    dl_batch *batch;
    int64_t n_matched; /* pass 1: rows matching the condition */
    int64_t n_copied;  /* pass 2: rows written back unchanged */
    /* Deletion vectors: pass 1 marks the matching rows (rw->marks) and, for UPDATE, writes
     * their new versions to writer (outs: scratch for the new values); there is no pass 2. */
    dl_ops_writer *writer;
    dl_vector **outs;
    int64_t rows[DL_BATCH_CAPACITY];
    uint32_t changed[DL_BATCH_CAPACITY]; /* change data: the rows changed (physical, or dense) */
    uint32_t dense[DL_BATCH_CAPACITY];
} pruned;

static void
pruned_free(pruned *pr) {
    dl_sql_eval_free(pr->cond);
    for (int32_t i = 0; pr->vals != NULL && i < pr->rw->t.schema->n_fields; i++) {
        dl_sql_eval_free(pr->vals[i]);
    }
    dl_vec_batch_free(pr->batch);
}

/* Reading the candidates: per-unit counts and a batch. */
static dl_status
plan_candidates(pruned *pr, dl_error *err) {
    dl_sql_binder *b = pr->b;
    pr->scan = pr->rw->files.scan;
    pr->n_units = dl_delta_scan_unit_count(pr->scan);
    pr->matched = dl_arena_alloc_zero(b->arena, (pr->n_units + 1) * sizeof(int64_t));
    DL_CHECK(pr->matched != NULL, err, DL_ERR_NOMEM, "out of memory");
    return dl_vec_batch_new(b->exec->alloc, dl_delta_scan_schema(pr->scan), DL_BATCH_CAPACITY,
                            &pr->batch, err);
}

static dl_status write_updated(pruned *pr, dl_ops_writer *w, dl_vector **outs, dl_error *err);

/* Deletion vectors: marks the batch's rows (read by rd from unit u) and, for UPDATE, writes
 * their new versions. */
static dl_status
mark_batch(pruned *pr, const dl_delta_scan_reader *rd, size_t u, dl_error *err) {
    int64_t first = dl_delta_scan_reader_batch_first_row(rd);
    DL_CHECK(first >= 0, err, DL_ERR_INTERNAL, "a batch without its file row numbers");
    for (int64_t k = 0; k < pr->batch->count; k++) {
        pr->rows[k] = first + dl_vec_batch_row(pr->batch, k);
    }
    DL_TRY(dl_delta_dv_marks_add(pr->rw->marks, dl_delta_scan_unit_file_index(pr->scan, u),
                                 pr->rows, (size_t)pr->batch->count, err));
    return pr->is_update ? write_updated(pr, pr->writer, pr->outs, err) : DL_OK;
}

/* Adds to matched[u] unit u's rows matching the condition (with count_matches), else every
 * live row it reads; with deletion vectors also marks them (mark_batch). */
static dl_status
count_unit(pruned *pr, size_t u, bool count_matches, dl_error *err) {
    dl_delta_scan_reader *rd = NULL;
    DL_TRY(dl_delta_scan_reader_new(pr->scan, u, &rd, err));
    dl_status s = DL_OK;
    for (;;) {
        s = dl_delta_scan_reader_next(rd, pr->batch, err);
        if (s != DL_OK || pr->batch->count == 0) {
            break;
        }
        if (count_matches && pr->cond != NULL) {
            s = dl_sql_eval_select(pr->cond, pr->batch, err);
        }
        if (s == DL_OK && pr->writer != NULL && pr->batch->count > 0) {
            s = mark_batch(pr, rd, u, err);
        }
        if (s != DL_OK) {
            break;
        }
        pr->matched[u] += pr->batch->count;
    }
    dl_delta_scan_reader_free(rd);
    return s;
}

/* Rows of a metadata-only delete: stats numRecords, or the rows read when it is unknown. */
static dl_status
count_metadata_only(pruned *pr, dl_error *err) {
    dl_delta_stats_reader rd;
    dl_delta_stats_reader_init(&rd, pr->b->exec->alloc);
    dl_status s = DL_OK;
    for (size_t u = 0; u < pr->n_units && s == DL_OK; u++) {
        const dl_delta_file *f = dl_delta_scan_unit_file(pr->scan, u);
        dl_delta_stats st;
        bool has = false;
        dl_error ignored;
        if (f->dv == NULL &&
            dl_delta_file_stats(pr->rw->t.snap, f, &rd, &st, &has, &ignored) == DL_OK && has &&
            st.has_num_records) {
            pr->matched[u] = st.num_records;
        } else {
            s = count_unit(pr, u, false, err);
        }
    }
    dl_delta_stats_reader_destroy(&rd);
    return s;
}

/* Pass 1: which candidates hold a matching row, and how many. */
static dl_status
find_touched(pruned *pr, dl_error *err) {
    int64_t start = dl_sql_dml_clock_ms();
    if (pr->is_metadata_only) {
        DL_TRY(count_metadata_only(pr, err));
    } else {
        for (size_t u = 0; u < pr->n_units; u++) {
            DL_TRY(count_unit(pr, u, true, err));
        }
    }
    for (size_t u = 0; u < pr->n_units; u++) {
        pr->n_matched += pr->matched[u];
        if (pr->matched[u] > 0) {
            dl_sql_dml_files_touch(&pr->rw->files, dl_delta_scan_unit_file_index(pr->scan, u));
        }
    }
    pr->rw->scan_ms = dl_sql_dml_clock_ms() - start;
    return DL_OK;
}

/* DELETE: writes the rows of the batch whose condition is not TRUE. */
static dl_status
write_kept(pruned *pr, dl_ops_writer *w, uint32_t *sel, dl_error *err) {
    dl_batch *in = pr->batch;
    dl_vector *v = NULL;
    DL_TRY(dl_sql_eval_run(pr->cond, in, &v, err));
    int64_t kept = 0;
    int64_t deleted = 0;
    for (int64_t k = 0; k < in->count; k++) {
        const dl_vector *flat = NULL;
        int64_t i = dl_vec_resolve(v, k, &flat);
        if (dl_vec_is_null(v, k) || !dl_vec_get_bool(flat, i)) {
            sel[kept++] = (uint32_t)dl_vec_batch_row(in, k);
        } else {
            pr->changed[deleted++] = (uint32_t)dl_vec_batch_row(in, k);
        }
    }
    dl_vec_unref(v);
    pr->n_copied += kept;
    DL_TRY(dl_sql_dml_cdf_write(pr->rw->cdf, in->cols, deleted, pr->changed, DL_SQL_CDF_DELETE,
                                in->alloc, err));
    dl_batch view = {.schema = pr->rw->t.schema,
                     .n_cols = in->n_cols,
                     .cols = in->cols,
                     .count = kept,
                     .sel = sel,
                     .alloc = in->alloc};
    return kept > 0 ? dl_ops_writer_write(w, &view, err) : DL_OK;
}

/* UPDATE with change data: the old and new values of the batch's updated rows (with deletion
 * vectors every row the batch holds; else those matching the condition). */
static dl_status
write_images(pruned *pr, dl_vector **outs, dl_error *err) {
    dl_batch *in = pr->batch;
    const dl_allocator *alloc = in->alloc;
    if (pr->writer != NULL || pr->cond == NULL) {
        DL_TRY(dl_sql_dml_cdf_write(pr->rw->cdf, in->cols, in->count, in->sel, DL_SQL_CDF_PREIMAGE,
                                    alloc, err));
        return dl_sql_dml_cdf_write(pr->rw->cdf, outs, in->count, NULL, DL_SQL_CDF_POSTIMAGE, alloc,
                                    err);
    }
    dl_vector *v = NULL;
    DL_TRY(dl_sql_eval_run(pr->cond, in, &v, err));
    int64_t m = 0;
    for (int64_t k = 0; k < in->count; k++) {
        const dl_vector *flat = NULL;
        int64_t i = dl_vec_resolve(v, k, &flat);
        if (!dl_vec_is_null(v, k) && dl_vec_get_bool(flat, i)) {
            pr->changed[m] = (uint32_t)dl_vec_batch_row(in, k);
            pr->dense[m++] = (uint32_t)k;
        }
    }
    dl_vec_unref(v);
    DL_TRY(dl_sql_dml_cdf_write(pr->rw->cdf, in->cols, m, pr->changed, DL_SQL_CDF_PREIMAGE, alloc,
                                err));
    return dl_sql_dml_cdf_write(pr->rw->cdf, outs, m, pr->dense, DL_SQL_CDF_POSTIMAGE, alloc, err);
}

/* UPDATE: writes every row of the batch with its new values. */
static dl_status
write_updated(pruned *pr, dl_ops_writer *w, dl_vector **outs, dl_error *err) {
    int32_t n = pr->rw->t.schema->n_fields;
    dl_status s = DL_OK;
    int32_t made = 0;
    for (; made < n && s == DL_OK; made++) {
        s = dl_sql_eval_run(pr->vals[made], pr->batch, &outs[made], err);
    }
    if (s == DL_OK) {
        dl_batch view = {.schema = pr->rw->t.schema,
                         .n_cols = n,
                         .cols = outs,
                         .count = pr->batch->count,
                         .alloc = pr->batch->alloc};
        s = dl_ops_writer_write(w, &view, err);
    }
    if (s == DL_OK && pr->rw->cdf != NULL) {
        s = write_images(pr, outs, err);
    }
    for (int32_t i = 0; i < made; i++) {
        dl_vec_unref(outs[i]);
        outs[i] = NULL;
    }
    return s;
}

/* Pass 2: the rows of the copy scan's unit u written back; *n_read counts its live rows. */
static dl_status
rewrite_unit(pruned *pr, size_t u, dl_ops_writer *w, void *scratch, int64_t *n_read,
             dl_error *err) {
    dl_delta_scan_reader *rd = NULL;
    DL_TRY(dl_delta_scan_reader_new(pr->copy, u, &rd, err));
    dl_status s = DL_OK;
    for (;;) {
        s = dl_delta_scan_reader_next(rd, pr->batch, err);
        if (s != DL_OK || pr->batch->count == 0) {
            break;
        }
        *n_read += pr->batch->count;
        s = pr->is_update ? write_updated(pr, w, scratch, err) : write_kept(pr, w, scratch, err);
        if (s != DL_OK) {
            break;
        }
    }
    dl_delta_scan_reader_free(rd);
    return s;
}

/*
 * Pass 2: every live row of the touched files, read again through a scan without predicate,
 * written back. UPDATE copies the rows read less those pass 1 found matching.
 */
static dl_status
copy_touched(pruned *pr, dl_ops_writer *w, void *scratch, dl_error *err) {
    DL_TRY(dl_sql_dml_files_copy_scan(pr->b, &pr->rw->t, &pr->rw->files, &pr->copy, err));
    dl_vec_batch_free(pr->batch);
    pr->batch = NULL;
    DL_TRY(dl_vec_batch_new(pr->b->exec->alloc, dl_delta_scan_schema(pr->copy), DL_BATCH_CAPACITY,
                            &pr->batch, err));
    int64_t n_read = 0;
    for (size_t u = 0; u < dl_delta_scan_unit_count(pr->copy); u++) {
        DL_TRY(rewrite_unit(pr, u, w, scratch, &n_read, err));
    }
    if (pr->is_update) {
        pr->n_copied = n_read - pr->n_matched;
    } else {
        /* numDeletedRows: what this pass left out, so the metrics add up to the rows read. */
        pr->n_matched = n_read - pr->n_copied;
    }
    return DL_OK;
}

/* Pass 2 over the touched files; stages their removes. */
static dl_status
rewrite_touched(pruned *pr, dl_delta_tx *tx, dl_ops_writer *w, dl_sql_dml_removed *out,
                dl_error *err) {
    size_t cap = pr->is_update ? (size_t)pr->rw->t.schema->n_fields * sizeof(dl_vector *)
                               : DL_BATCH_CAPACITY * sizeof(uint32_t);
    void *scratch = dl_arena_alloc_zero(pr->b->arena, cap + sizeof(uint32_t));
    DL_CHECK(scratch != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (!pr->is_metadata_only) {
        DL_TRY(copy_touched(pr, w, scratch, err));
    }
    DL_TRY(dl_sql_dml_files_remove(&pr->rw->t, tx, &pr->rw->files, out, err));
    return dl_ops_writer_finish(w, err);
}

static dl_status
stage_pruned(pruned *pr, dl_delta_tx *tx, dl_ops_writer *w, dl_error *err) {
    int64_t start = dl_sql_dml_clock_ms();
    tally c = {.n_matched = pr->n_matched};
    if (pr->writer != NULL) {
        return stage_marks(pr->b, pr->rw, tx, w, &c, pr->is_update, err);
    }
    DL_TRY(rewrite_touched(pr, tx, w, &c.removed, err));
    DL_TRY(dl_ops_writer_stage(w, tx, false, err));
    c.n_matched = pr->n_matched;
    c.n_copied = pr->n_copied;
    c.rewrite_ms = pr->is_metadata_only ? 0 : dl_sql_dml_clock_ms() - start;
    return stage_commit_info(pr->b, pr->rw, tx, w, &c, pr->is_update, err);
}

/* Binds the evaluators: the condition, and for UPDATE each column's new value. */
static dl_status
prepare_evals(pruned *pr, dl_sql_bexpr **exprs, dl_error *err) {
    dl_sql_binder *b = pr->b;
    if (pr->rw->cond != NULL && !pr->is_metadata_only) {
        DL_TRY(dl_sql_eval_new(b->exec, pr->rw->cond, &pr->cond, err));
    }
    if (!pr->is_update) {
        return DL_OK;
    }
    int32_t n = pr->rw->t.schema->n_fields;
    pr->vals = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(dl_sql_eval *));
    DL_CHECK(pr->vals != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < n; i++) {
        DL_TRY(dl_sql_eval_new(b->exec, exprs[i], &pr->vals[i], err));
    }
    return DL_OK;
}

/*
 * With deletion vectors (not for a metadata-only DELETE): one pass over the candidates marks
 * the matching rows and, for UPDATE, writes their new versions through w.
 */
static dl_status
mark_matching(pruned *pr, dl_ops_writer *w, dl_error *err) {
    pr->writer = w;
    if (pr->is_update) {
        size_t n = (size_t)pr->rw->t.schema->n_fields + 1;
        pr->outs = dl_arena_alloc_zero(pr->b->arena, n * sizeof(dl_vector *));
        DL_CHECK(pr->outs != NULL, err, DL_ERR_NOMEM, "out of memory");
    }
    DL_TRY(find_touched(pr, err));
    return dl_ops_writer_finish(w, err);
}

static dl_status
run_pruned_steps(pruned *pr, dl_sql_bexpr **exprs, dl_error *err) {
    DL_TRY(plan_candidates(pr, err));
    DL_TRY(prepare_evals(pr, exprs, err));
    bool is_marking = pr->rw->is_dv && !pr->is_metadata_only;
    if (!is_marking) {
        DL_TRY(find_touched(pr, err));
        if (pr->n_matched == 0) {
            return DL_OK;
        }
    }
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(pr->rw->t.table, pr->rw->t.snap, NULL, &tx, err));
    dl_ops_writer *w = NULL;
    bool is_cdc = pr->is_update || (!pr->rw->is_dv && !pr->is_metadata_only);
    dl_status s = rewrite_writers(pr->b, pr->rw, tx, is_cdc, &w, err);
    if (s == DL_OK && is_marking) {
        s = mark_matching(pr, w, err);
    }
    if (s == DL_OK && pr->n_matched == 0) {
        dl_sql_dml_discard(tx, w);
        return DL_OK;
    }
    if (s == DL_OK) {
        s = stage_pruned(pr, tx, w, err);
    }
    if (s != DL_OK) {
        dl_sql_dml_discard(tx, w);
        return s;
    }
    return commit_rewrite(pr->b, pr->rw, tx, w, err);
}

/*
 * DELETE / UPDATE of only the files that hold a matching row (the file comment). exprs
 * (UPDATE) are the columns' new values over the table's columns. Assumes: the condition has
 * no subquery.
 */
static dl_status
run_pruned(dl_sql_binder *b, rewrite *rw, dl_sql_bexpr **exprs, bool is_update, dl_error *err) {
    pruned pr = {.b = b, .rw = rw, .is_update = is_update};
    pr.is_metadata_only = !is_update && (rw->cond == NULL || is_exact_on_partitions(rw, rw->cond));
    dl_status s = run_pruned_steps(&pr, exprs, err);
    pruned_free(&pr);
    return s;
}

/* exprs[i] = column i wherever it is still NULL. */
static dl_status
keep_columns(dl_sql_binder *b, const rewrite *rw, dl_sql_bexpr **exprs, dl_error *err) {
    for (int32_t i = 0; i < rw->t.schema->n_fields; i++) {
        if (exprs[i] != NULL) {
            continue;
        }
        exprs[i] = dl_sql_bexpr_column(b->arena, i, rw->t.schema->fields[i].type);
        DL_CHECK(exprs[i] != NULL, err, DL_ERR_NOMEM, "out of memory");
    }
    return DL_OK;
}

/* The new value of column i: CASE WHEN cond THEN value ELSE column END. */
static dl_status
assign_expr(dl_sql_binder *b, rewrite *rw, const dl_sql_assign *a, dl_sql_bexpr **exprs,
            dl_error *err) {
    const dl_sql_ident *last = &a->column.parts[a->column.n_parts - 1];
    int32_t c = dl_vec_type_field_index(rw->t.schema, last->name);
    for (int32_t i = 0; i < rw->t.schema->n_fields && c < 0; i++) {
        if (dl_str_eq_nocase(dl_str_from_cstr(rw->t.schema->fields[i].name), last->name)) {
            c = i;
        }
    }
    if (c < 0) {
        DL_SQL_BIND_FAIL(b, last->loc, DL_ERR_SQL_BIND, err,
                         "[UNRESOLVED_COLUMN.WITH_SUGGESTION] table %s has no column '%.*s'",
                         rw->t.display, DL_STR_FMT(last->name));
    }
    if (exprs[c] != NULL) {
        DL_SQL_BIND_FAIL(b, last->loc, DL_ERR_SQL_BIND, err, "column '%.*s' is set twice",
                         DL_STR_FMT(last->name));
    }
    dl_sql_bctx cx = {.b = b, .scope = &rw->scope, .clause = "SET"};
    dl_sql_bexpr *v = NULL;
    DL_TRY(dl_sql_binder_expr(&cx, a->value, &v, err));
    const dl_type_field *f = &rw->t.schema->fields[c];
    dl_status s = dl_sql_binder_store_cast(b, v, f, rw->t.display, &v, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "cannot set column '%s'", f->name);
        return s;
    }
    if (rw->cond == NULL) {
        exprs[c] = v;
        return DL_OK;
    }
    dl_sql_bexpr *old = dl_sql_bexpr_column(b->arena, c, f->type);
    DL_CHECK(old != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_sql_bexpr *cond = NULL;
    DL_TRY(fresh_cond(b, rw, &cond, err));
    return dl_sql_binder_make_case(b, &cond, &v, 1, old, a->value->loc, &exprs[c], err);
}

/* Each column's new value over rw->plan: DELETE keeps every column, UPDATE assigns some. */
static dl_status
new_values(dl_sql_binder *b, rewrite *rw, const dl_sql_assign_list *assigns, dl_sql_bexpr ***out,
           dl_error *err) {
    int32_t n = rw->t.schema->n_fields;
    dl_sql_bexpr **exprs =
        dl_arena_alloc_zero(b->arena, (size_t)(2 * n + 3) * sizeof(dl_sql_bexpr *));
    DL_CHECK(exprs != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; assigns != NULL && i < assigns->n; i++) {
        DL_TRY(assign_expr(b, rw, &assigns->items[i], exprs, err));
    }
    DL_TRY(keep_columns(b, rw, exprs, err));
    *out = exprs;
    return DL_OK;
}

/* Pass 1 of a condition with subqueries: marks the candidates holding a matching row. */
static dl_status
find_matching_files(dl_sql_binder *b, rewrite *rw, dl_error *err) {
    int64_t start = dl_sql_dml_clock_ms();
    dl_sql_plan_scan_restrict(rw->scan, rw->files.candidates);
    dl_sql_bexpr *exprs[2] = {
        dl_sql_bexpr_column(b->arena, rw->t.schema->n_fields, dl_vec_type_prim(DL_VEC_TYPE_INT)),
        NULL};
    DL_CHECK(exprs[0] != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(code_expr(b, rw, rw->loc, &exprs[1], err));
    const char *names[2] = {"__dl_file", "__dl_action"};
    dl_sql_plan *plan = NULL;
    DL_TRY(dl_sql_plan_project(b, rw->plan, exprs, names, 2, &plan, err));
    DL_TRY(dl_sql_dml_files_find(b, plan, 0, 1, 1u << CODE_MATCHED, -1, &rw->files, err));
    rw->scan_ms = dl_sql_dml_clock_ms() - start;
    return DL_OK;
}

/*
 * DELETE (assigns NULL) or UPDATE: with a plain condition, the candidates are read directly
 * (run_pruned); with subqueries, the plan is run twice: to find the touched files, then,
 * planned again over those files only, to rewrite them -- once with deletion vectors, whose
 * rows carry their position and are marked as they come.
 */
static dl_status
run_rewrite(dl_sql_binder *b, rewrite *rw, const dl_sql_assign_list *assigns, bool is_update,
            dl_error *err) {
    dl_sql_bexpr **exprs = NULL;
    if (!rw->is_shared) {
        DL_TRY(new_values(b, rw, assigns, &exprs, err));
        return run_pruned(b, rw, exprs, is_update, err);
    }
    if (rw->is_dv) {
        /* One pass over the candidates: the matching rows marked, UPDATE's new rows written. */
        dl_sql_plan_scan_restrict(rw->scan, rw->files.candidates);
        DL_TRY(new_values(b, rw, assigns, &exprs, err));
        int32_t old_col = 0;
        DL_TRY(project_with_code(b, rw, exprs, is_update, rw->loc, &old_col, err));
        return finish_rewrite(b, rw, is_update ? 1u << CODE_MATCHED : 0u, is_update, old_col, err);
    }
    DL_TRY(find_matching_files(b, rw, err));
    if (rw->files.n_touched == 0) {
        return DL_OK;
    }
    DL_TRY(plan_rows(b, rw, err));
    dl_sql_plan_scan_restrict(rw->scan, rw->files.touched);
    DL_TRY(new_values(b, rw, assigns, &exprs, err));
    int32_t old_col = 0;
    DL_TRY(project_with_code(b, rw, exprs, is_update, rw->loc, &old_col, err));
    uint32_t keep = (1u << CODE_COPY) | (is_update ? 1u << CODE_MATCHED : 0u);
    return finish_rewrite(b, rw, keep, is_update, old_col, err);
}

dl_status
dl_sql_dml_delete(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    rewrite *rw = dl_arena_alloc_zero(b->arena, sizeof(*rw));
    DL_CHECK(rw != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(open_rewrite(b, &stmt->u.delete_.table, stmt->u.delete_.has_alias,
                        &stmt->u.delete_.alias, stmt->u.delete_.where, stmt->loc, rw, err));
    return run_rewrite(b, rw, NULL, false, err);
}

dl_status
dl_sql_dml_update(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    rewrite *rw = dl_arena_alloc_zero(b->arena, sizeof(*rw));
    DL_CHECK(rw != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(open_rewrite(b, &stmt->u.update.table, stmt->u.update.has_alias, &stmt->u.update.alias,
                        stmt->u.update.where, stmt->loc, rw, err));
    return run_rewrite(b, rw, &stmt->u.update.assigns, true, err);
}
