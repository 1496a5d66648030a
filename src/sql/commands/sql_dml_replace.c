/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The rows of a table replaced by a condition (sql_dml.h, dl_sql_dml_replace_rows): the part
 * of Delta's replaceWhere (INSERT INTO t REPLACE WHERE cond, INSERT OVERWRITE t PARTITION
 * (p = v)) that takes the old rows away, by copy-on-write as Delta's WriteIntoDelta does with
 * a data-column predicate (spark.databricks.delta.replaceWhere.dataColumns.enabled, on by
 * default):
 *
 *   1. Candidates: the live files the Delta scan keeps for the condition's conjuncts.
 *   2. The candidates are read and the condition evaluated: a file with no row where it is
 *      TRUE is left alone (and a NULL condition keeps a row, as DELETE's).
 *   3. The other files ("touched") are read again whole, their rows where the condition is
 *      not TRUE written back through the statement's writer, and the files removed.
 *
 * The transaction records every candidate as read (and the partitions the conjuncts allow),
 * so that a concurrent write into the replaced rows conflicts. A condition with a subquery is
 * refused, as Delta refuses it.
 */
#include "sql/commands/sql_dml.h"

enum {
    CODE_KEEP = 0,
    CODE_MATCHED = 1
};

/* The table's rows (with the scan's hidden file index after its columns) and the condition
 * bound over them; *out_scan the scan under the plan. */
static dl_status
bind_rows(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_sql_expr *where, uint32_t loc,
          dl_sql_plan **out_scan, dl_sql_bexpr **out_cond, dl_error *err) {
    dl_delta_snapshot *snap = dl_delta_snapshot_ref(t->snap);
    DL_TRY(dl_sql_plan_delta_scan_files(b, snap, t->display, loc, out_scan, err));
    dl_sql_scope scope;
    DL_TRY(dl_sql_scope_of(b, *out_scan, NULL, &scope, err));
    scope.n = t->schema->n_fields;
    dl_sql_bctx cx = {.b = b, .scope = &scope, .clause = "REPLACE WHERE"};
    DL_TRY(dl_sql_binder_cond(&cx, where, out_cond, err));
    if (dl_sql_bexpr_has_subquery(*out_cond)) {
        DL_SQL_BIND_FAIL(b, where->loc, DL_ERR_UNSUPPORTED, err,
                         "[DELTA_REPLACE_WHERE_WITH_SUBQUERY] the replaceWhere condition of %s "
                         "has a subquery: it must be a condition on the table's columns only",
                         t->display);
    }
    return DL_OK;
}

/* A PROJECT of exprs[0..n) named names over plan, the last being CASE WHEN cond THEN 1 ELSE
 * 0 END. */
static dl_status
project_code(dl_sql_binder *b, dl_sql_plan *plan, dl_sql_bexpr *cond, dl_sql_bexpr **exprs,
             const char **names, int32_t n, uint32_t loc, dl_sql_plan **out, dl_error *err) {
    dl_sql_bexpr *one = dl_sql_dml_int(b, CODE_MATCHED);
    dl_sql_bexpr *zero = dl_sql_dml_int(b, CODE_KEEP);
    DL_CHECK(one != NULL && zero != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(dl_sql_binder_make_case(b, &cond, &one, 1, zero, loc, &exprs[n - 1], err));
    names[n - 1] = "__dl_action";
    return dl_sql_plan_project(b, plan, exprs, names, n, out, err);
}

/* Pass 1: marks the candidates that hold a row where cond is TRUE. */
static dl_status
find_touched(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_sql_expr *where, uint32_t loc,
             dl_sql_dml_files *files, dl_error *err) {
    dl_sql_plan *scan = NULL;
    dl_sql_bexpr *cond = NULL;
    DL_TRY(bind_rows(b, t, where, loc, &scan, &cond, err));
    dl_sql_bexpr **conjs = NULL;
    int32_t n_conjs = 0;
    DL_TRY(dl_sql_dml_target_conjuncts(b, t, cond, &conjs, &n_conjs, err));
    DL_TRY(dl_sql_dml_files_plan(b, t, conjs, n_conjs, false, files, err));
    dl_sql_plan_scan_restrict(scan, files->candidates);
    dl_sql_bexpr *exprs[2] = {
        dl_sql_bexpr_column(b->arena, t->schema->n_fields, dl_vec_type_prim(DL_VEC_TYPE_INT)),
        NULL};
    DL_CHECK(exprs[0] != NULL, err, DL_ERR_NOMEM, "out of memory");
    const char *names[2] = {"__dl_file", NULL};
    dl_sql_plan *plan = NULL;
    DL_TRY(project_code(b, scan, cond, exprs, names, 2, loc, &plan, err));
    return dl_sql_dml_files_find(b, plan, 0, 1, 1u << CODE_MATCHED, -1, files, err);
}

dl_status
dl_sql_dml_project_code(dl_sql_binder *b, const dl_sql_dml_target *t, dl_sql_plan *plan,
                        dl_sql_bexpr *cond, uint32_t loc, dl_sql_plan **out, dl_error *err) {
    int32_t n = t->schema->n_fields;
    dl_sql_bexpr **exprs = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(dl_sql_bexpr *));
    const char **names = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(*names));
    DL_CHECK(exprs != NULL && names != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < n; i++) {
        exprs[i] = dl_sql_bexpr_column(b->arena, i, t->schema->fields[i].type);
        DL_CHECK(exprs[i] != NULL, err, DL_ERR_NOMEM, "out of memory");
        names[i] = t->schema->fields[i].name;
    }
    return project_code(b, plan, cond, exprs, names, n + 1, loc, out, err);
}

/* Pass 2: the touched files' rows where cond is not TRUE written through w. */
static dl_status
copy_kept(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_sql_expr *where, uint32_t loc,
          const dl_sql_dml_files *files, dl_ops_writer *w, dl_sql_dml_replaced *out,
          dl_error *err) {
    dl_sql_plan *scan = NULL;
    dl_sql_bexpr *cond = NULL;
    DL_TRY(bind_rows(b, t, where, loc, &scan, &cond, err));
    dl_sql_plan_scan_restrict(scan, files->touched);
    dl_sql_plan *plan = NULL;
    DL_TRY(dl_sql_dml_project_code(b, t, scan, cond, loc, &plan, err));
    int32_t n = t->schema->n_fields;
    dl_sql_dml_sink sink = {.writer = w,
                            .schema = t->schema,
                            .code_col = n,
                            .keep_mask = 1u << CODE_KEEP,
                            .source_col = -1,
                            .file_col = -1,
                            .row_col = -1};
    DL_TRY(dl_sql_dml_run(b, plan, &sink, err));
    out->n_deleted = sink.counts[CODE_MATCHED];
    out->n_copied = sink.counts[CODE_KEEP];
    return DL_OK;
}

dl_status
dl_sql_dml_replace_rows(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_sql_expr *where,
                        dl_delta_tx *tx, dl_ops_writer *w, dl_sql_dml_replaced *out,
                        dl_error *err) {
    *out = (dl_sql_dml_replaced){0};
    if (t->snap == NULL || dl_delta_snapshot_file_count(t->snap) == 0) {
        return DL_OK;
    }
    dl_sql_dml_files *files = dl_arena_alloc_zero(b->arena, sizeof(*files));
    DL_CHECK(files != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(find_touched(b, t, where, where->loc, files, err));
    DL_TRY(dl_sql_dml_files_record_reads(tx, files, err));
    if (files->n_touched == 0) {
        return DL_OK;
    }
    DL_TRY(copy_kept(b, t, where, where->loc, files, w, out, err));
    return dl_sql_dml_files_remove(t, tx, files, &out->removed, err);
}
