/* SPDX-License-Identifier: Apache-2.0 */
/*
 * EXPLAIN's executor side (sql_exec.h): what planning a scan tells before anything is read
 * (files kept and skipped, by partition values and the log's statistics), and EXPLAIN ANALYZE,
 * which runs the plan with profiling on and prints each operator's counters under its node.
 *
 * Plain EXPLAIN plans every Delta scan the way the operator will (dl_delta_scan_new with the
 * scan's predicate) but without reading a Parquet footer: row groups and pages are decided by
 * the readers, so only EXPLAIN ANALYZE shows them.
 */
#include <inttypes.h>
#include <string.h>

#include "sql/exec/sql_exec_int.h"

/* ---- plan-time scan details ------------------------------------------------------------------ */

typedef struct plan_ctx {
    dl_sql_exec_ctx *exec;
} plan_ctx;

static dl_status
files_line(const dl_delta_scan_stats *st, int64_t kept, dl_buf *lines, dl_error *err) {
    DL_TRY(dl_buf_appendf(lines, err, "files: %" PRId64 " of %" PRId64 " kept", kept,
                          st->files_total));
    int64_t skipped = st->files_skipped_partition + st->files_skipped_stats;
    if (skipped > 0) {
        DL_TRY(dl_buf_appendf(lines, err,
                              " (%" PRId64 " skipped: %" PRId64 " by partition values, %" PRId64
                              " by file statistics)",
                              skipped, st->files_skipped_partition, st->files_skipped_stats));
    }
    int64_t other = st->files_total - kept - skipped;
    if (other > 0) {
        DL_TRY(dl_buf_appendf(lines, err, " (%" PRId64 " not part of this statement)", other));
    }
    return dl_buf_append_cstr(lines, "\n", err);
}

/* Plans the Delta scan of s as its operator will and tells which files it keeps. */
static dl_status
delta_plan_lines(plan_ctx *c, const dl_sql_scan *s, dl_buf *lines, dl_error *err) {
    dl_arena *arena = c->exec->arena;
    const char **cols = dl_arena_alloc_zero(arena, (size_t)(s->n_columns + 1) * sizeof(char *));
    DL_CHECK(cols != NULL, err, DL_ERR_NOMEM, "out of memory explaining a scan");
    size_t n = 0;
    for (int32_t i = 0; i < s->n_columns; i++) {
        if (!DL_SQL_SCAN_IS_HIDDEN(s->columns[i])) {
            cols[n++] = s->table_schema->fields[s->columns[i]].name;
        }
    }
    dl_delta_scan_options opts = {.columns = cols,
                                  .n_columns = n,
                                  .predicate = dl_sql_scan_predicate(arena, s),
                                  .alloc = c->exec->alloc,
                                  .file_set = s->file_set};
    dl_delta_scan *scan = NULL;
    DL_TRY_CTX(dl_delta_scan_new(s->snapshot, &opts, &scan, err), err, "table %s", s->table_name);
    dl_delta_scan_stats st;
    dl_delta_scan_get_stats(scan, &st);
    int64_t kept = (int64_t)dl_delta_scan_unit_count(scan);
    dl_delta_scan_free(scan);
    if (opts.predicate == NULL && s->n_filters > 0) {
        DL_TRY(dl_buf_append_cstr(lines, "skipping: none of the filters can skip files\n", err));
    }
    return files_line(&st, kept, lines, err);
}

static dl_status
plan_details(void *ctx, const dl_sql_plan *p, dl_buf *lines, dl_error *err) {
    if (p->kind != DL_SQL_PLAN_SCAN || p->u.scan.source != DL_SQL_SCAN_DELTA) {
        return DL_OK;
    }
    return delta_plan_lines(ctx, &p->u.scan, lines, err);
}

dl_status
dl_sql_explain_plan(dl_sql_exec_ctx *exec, const dl_sql_plan *plan, const dl_sql_explain_opts *opts,
                    dl_buf *out, dl_error *err) {
    plan_ctx c = {.exec = exec};
    dl_sql_explain_hooks hooks = {.details = plan_details, .ctx = &c};
    dl_sql_explain_opts o = *opts;
    o.hooks = &hooks;
    return dl_sql_plan_explain_tree(plan, &o, out, err);
}

/* ---- EXPLAIN ANALYZE --------------------------------------------------------------------------
 */

typedef struct analyze_ctx {
    dl_sql_operator *root;
} analyze_ctx;

/* The operator that ran plan node p (operators mirror the plan tree). */
static const dl_sql_operator *
op_of(const dl_sql_operator *op, const dl_sql_plan *p) {
    if (op == NULL || op->plan == p) {
        return op;
    }
    for (int32_t i = 0; i < op->n_children; i++) {
        const dl_sql_operator *found = op_of(op->children[i], p);
        if (found != NULL) {
            return found;
        }
    }
    return NULL;
}

static dl_status
analyze_suffix(void *ctx, const dl_sql_plan *p, dl_buf *out, dl_error *err) {
    const analyze_ctx *c = ctx;
    const dl_sql_operator *op = op_of(c->root, p);
    if (op == NULL || op->profile == NULL) {
        return dl_buf_append_cstr(out, "  (not run)", err);
    }
    int64_t rows = atomic_load(&op->profile->rows);
    double ms = (double)atomic_load(&op->profile->self_ns) / 1e6;
    return dl_buf_appendf(out, err, "  (actual %" PRId64 " row%s, %.3f ms)", rows,
                          rows == 1 ? "" : "s", ms);
}

static dl_status
scan_lines(const dl_sql_plan *p, const dl_sql_scan_report *r, dl_buf *lines, dl_error *err) {
    const dl_delta_scan_stats *d = &r->delta;
    if (p->u.scan.source == DL_SQL_SCAN_DELTA) {
        DL_TRY(files_line(d, d->files_read, lines, err));
        DL_TRY(dl_buf_appendf(lines, err,
                              "rows read: %" PRId64 " (%" PRId64 " dropped by deletion vectors)\n",
                              d->rows_read, d->rows_deleted));
    } else {
        DL_TRY(dl_buf_appendf(lines, err, "files: %" PRId64 " read\n", d->files_read));
    }
    DL_TRY(dl_buf_appendf(lines, err,
                          "row groups: %" PRId64 " read, %" PRId64 " skipped by statistics\n",
                          d->row_groups_read, d->row_groups_skipped));
    DL_TRY(dl_buf_appendf(lines, err,
                          "pages: %" PRId64 " read, %" PRId64 " skipped by the page index\n",
                          r->pages_read, r->pages_skipped));
    return dl_buf_appendf(lines, err, "bytes read: %" PRId64 "\n", d->bytes_read);
}

static dl_status
analyze_details(void *ctx, const dl_sql_plan *p, dl_buf *lines, dl_error *err) {
    const analyze_ctx *c = ctx;
    const dl_sql_operator *op = op_of(c->root, p);
    if (op == NULL || p->kind != DL_SQL_PLAN_SCAN) {
        return DL_OK;
    }
    dl_sql_scan_report r;
    dl_sql_op_scan_report(op, &r);
    return scan_lines(p, &r, lines, err);
}

/* Opens root and pulls every batch; *out_rows the rows it returned. */
static dl_status
run_to_end(dl_sql_operator *root, void **local, int64_t *out_rows, dl_error *err) {
    *out_rows = 0;
    DL_TRY(dl_sql_op_open(root, err));
    DL_TRY(dl_sql_op_local_new(root, local, err));
    dl_batch *batch = NULL;
    DL_TRY(dl_sql_batch_new(root->exec, root->schema, &batch, err));
    dl_status s = DL_OK;
    for (;;) {
        s = dl_sql_op_next(root, *local, batch, err);
        if (s != DL_OK || batch->count == 0) {
            break;
        }
        *out_rows += batch->count;
    }
    dl_vec_batch_free(batch);
    return s;
}

dl_status
dl_sql_explain_analyze(dl_sql_exec_ctx *exec, const dl_sql_plan *plan, dl_buf *out, dl_error *err) {
    bool was_profiling = exec->is_profiling;
    exec->is_profiling = true;
    dl_sql_operator *root = NULL;
    dl_status s = dl_sql_op_build(exec, plan, &root, err);
    exec->is_profiling = was_profiling;
    DL_TRY(s);
    void *local = NULL;
    int64_t rows = 0;
    int64_t start = dl_sql_exec_now_ns();
    s = run_to_end(root, &local, &rows, err);
    double ms = (double)(dl_sql_exec_now_ns() - start) / 1e6;
    dl_sql_op_local_free(root, local); /* readers hand their counters to the scans here */
    if (s == DL_OK) {
        s = dl_buf_appendf(out, err,
                           "== Physical Plan (executed: %" PRId64 " row%s in %.3f ms on %d "
                           "thread%s; each operator's time is its own, without its children, "
                           "summed over threads) ==\n",
                           rows, rows == 1 ? "" : "s", ms, exec->n_threads,
                           exec->n_threads == 1 ? "" : "s");
    }
    if (s == DL_OK) {
        analyze_ctx c = {.root = root};
        dl_sql_explain_hooks hooks = {
            .suffix = analyze_suffix, .details = analyze_details, .ctx = &c};
        dl_sql_explain_opts opts = {.show_est = true, .hooks = &hooks};
        s = dl_sql_plan_explain_tree(plan, &opts, out, err);
    }
    dl_sql_op_free(root);
    return s;
}
