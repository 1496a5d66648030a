/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which files a DELETE, UPDATE or MERGE reads and which it rewrites (sql_dml.h,
 * dl_sql_dml_files), as Spark's DeleteCommand, UpdateCommand and MergeIntoCommand decide it.
 *
 *   1. Candidates: the live files the Delta scan keeps for the conjuncts of the statement's
 *      condition that read only the target's columns (partition values exactly, min/max/
 *      nullCount statistics as bounds; delta/delta_scan.h). A MERGE's conjuncts are the ON
 *      condition's target-only ones, none when it has NOT MATCHED BY SOURCE clauses (then an
 *      unmatched row of any file may change): Spark's filterFiles(targetOnlyPredicates).
 *   2. Touched: the candidates holding a row the statement changes. A plan over the
 *      candidates carries each row's file (the scan's file index column, sql_plan.h) and an
 *      action code; dl_sql_dml_files_find marks the file of every row whose code changes it.
 *   3. Only the touched files are read again, rewritten and removed in the commit; the other
 *      files keep their paths.
 *
 * What the transaction records as read (for conflict detection, delta/delta_txn.h): every
 * candidate file, and a read predicate that keeps the files a concurrent writer adds to a
 * partition the condition rules out -- from its top-level conjuncts `p = constant` and
 * `p IN (constants)` on a partition column p, as Spark keeps the partition part of its read
 * predicates; a condition without such a conjunct reads every partition.
 */
#include <string.h>

#include "sql/commands/sql_dml.h"

/* ---- partition columns and exact constants ---------------------------------------------- */

bool
dl_sql_dml_is_partition_ref(const dl_sql_dml_target *t, const dl_sql_bexpr *e) {
    return e->kind == DL_SQL_BEXPR_COLUMN && dl_sql_dml_is_partition_column(t, e->index, NULL);
}

/* Types whose partition values the scan compares exactly with a constant of the same type. */
static bool
is_exact_type(const dl_type *t) {
    switch (t->id) {
    case DL_VEC_TYPE_BOOLEAN:
    case DL_VEC_TYPE_BYTE:
    case DL_VEC_TYPE_SHORT:
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_LONG:
    case DL_VEC_TYPE_DATE:
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_DECIMAL:
        return true;
    default:
        return false;
    }
}

bool
dl_sql_dml_is_exact_const(const dl_sql_bexpr *e, const dl_sql_bexpr *col) {
    return e->kind == DL_SQL_BEXPR_CONST && is_exact_type(e->type) && e->type->id == col->type->id;
}

/* ---- conjuncts ------------------------------------------------------------------------------ */

/* Whether e reads only columns below n and has no subquery. */
static bool
reads_only_below(const dl_sql_bexpr *e, int32_t n) {
    if (e->kind == DL_SQL_BEXPR_SUBQUERY || e->kind == DL_SQL_BEXPR_OUTER ||
        (e->kind == DL_SQL_BEXPR_COLUMN && e->index >= n)) {
        return false;
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        if (!reads_only_below(e->args[i], n)) {
            return false;
        }
    }
    return true;
}

dl_status
dl_sql_dml_target_conjuncts(dl_sql_binder *b, const dl_sql_dml_target *t, dl_sql_bexpr *cond,
                            dl_sql_bexpr ***out, int32_t *out_n, dl_error *err) {
    *out_n = 0;
    int32_t n = cond == NULL ? 0 : cond->kind == DL_SQL_BEXPR_AND ? cond->n_args : 1;
    *out = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(dl_sql_bexpr *));
    DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < n; i++) {
        dl_sql_bexpr *e = cond->kind == DL_SQL_BEXPR_AND ? cond->args[i] : cond;
        if (reads_only_below(e, t->schema->n_fields)) {
            (*out)[(*out_n)++] = e;
        }
    }
    return DL_OK;
}

/* ---- candidates ----------------------------------------------------------------------------- */

static void
free_scan(void *scan) {
    dl_delta_scan_free(scan);
}

static dl_status plan_reads(dl_sql_binder *b, const dl_sql_dml_target *t, dl_sql_bexpr **conjs,
                            int32_t n_conjs, dl_sql_dml_files *files, dl_error *err);

/* A scan planned with opts, freed when the statement's arena is reset. */
static dl_status
statement_scan(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_delta_scan_options *opts,
               dl_delta_scan **out, dl_error *err) {
    DL_TRY_CTX(dl_delta_scan_new(t->snap, opts, out, err), err, "table %s", t->display);
    dl_status s = dl_arena_on_reset(b->arena, free_scan, *out, err);
    if (s != DL_OK) {
        dl_delta_scan_free(*out);
        *out = NULL;
    }
    return s;
}

dl_status
dl_sql_dml_files_plan(dl_sql_binder *b, const dl_sql_dml_target *t, dl_sql_bexpr **conjs,
                      int32_t n_conjs, bool with_columns, dl_sql_dml_files *files, dl_error *err) {
    memset(files, 0, sizeof(*files));
    DL_TRY(plan_reads(b, t, conjs, n_conjs, files, err));
    const dl_delta_pred *pred = NULL;
    DL_TRY(dl_sql_dml_skip_predicate(b, t, conjs, n_conjs, &pred, err));
    static const char *const no_columns[1] = {NULL};
    dl_delta_scan_options opts = {
        .columns = with_columns ? NULL : no_columns, .predicate = pred, .alloc = b->exec->alloc};
    DL_TRY(statement_scan(b, t, &opts, &files->scan, err));
    files->n_files = dl_delta_snapshot_file_count(t->snap);
    files->candidates = dl_arena_alloc_zero(b->arena, files->n_files + 1);
    files->touched = dl_arena_alloc_zero(b->arena, files->n_files + 1);
    DL_CHECK(files->candidates != NULL && files->touched != NULL, err, DL_ERR_NOMEM,
             "out of memory");
    for (size_t u = 0; u < dl_delta_scan_unit_count(files->scan); u++) {
        files->candidates[dl_delta_scan_unit_file_index(files->scan, u)] = 1;
    }
    return DL_OK;
}

dl_status
dl_sql_dml_files_copy_scan(dl_sql_binder *b, const dl_sql_dml_target *t,
                           const dl_sql_dml_files *files, dl_delta_scan **out, dl_error *err) {
    dl_delta_scan_options opts = {.alloc = b->exec->alloc, .file_set = files->touched};
    return statement_scan(b, t, &opts, out, err);
}

void
dl_sql_dml_files_touch(dl_sql_dml_files *files, size_t file) {
    files->n_touched += files->touched[file] == 0 ? 1 : 0;
    files->touched[file] = 1;
}

/* ---- touched files ------------------------------------------------------------------------- */

typedef struct finder {
    dl_sql_dml_files *files;
    int32_t file_col;
    int32_t code_col;
    uint32_t touch_mask;
    int32_t present_col;
} finder;

static bool
row_touches(const finder *f, const dl_batch *batch, int64_t row) {
    const dl_vector *code = batch->cols[f->code_col];
    int64_t c = dl_vec_is_null(code, row) ? 0 : dl_sql_vec_i64(code, row);
    if (c >= 0 && c < 32 && ((f->touch_mask >> c) & 1u)) {
        return true;
    }
    return f->present_col >= 0 && !dl_vec_is_null(batch->cols[f->present_col], row);
}

static dl_status
find_take(void *ctx, const dl_batch *batch, dl_error *err) {
    finder *f = ctx;
    const dl_vector *files = batch->cols[f->file_col];
    for (int64_t k = 0; k < batch->count; k++) {
        int64_t row = dl_vec_batch_row(batch, k);
        if (!row_touches(f, batch, row)) {
            continue;
        }
        const dl_vector *flat = NULL;
        int64_t i = dl_vec_resolve(files, row, &flat);
        int32_t file = dl_vec_is_null(files, row) ? -1 : ((const int32_t *)flat->data)[i];
        DL_CHECK(file >= 0 && (size_t)file < f->files->n_files, err, DL_ERR_INTERNAL,
                 "a row of file %d of %zu live files", (int)file, f->files->n_files);
        dl_sql_dml_files_touch(f->files, (size_t)file);
    }
    return DL_OK;
}

dl_status
dl_sql_dml_files_find(dl_sql_binder *b, dl_sql_plan *plan, int32_t file_col, int32_t code_col,
                      uint32_t touch_mask, int32_t present_col, dl_sql_dml_files *files,
                      dl_error *err) {
    finder f = {.files = files,
                .file_col = file_col,
                .code_col = code_col,
                .touch_mask = touch_mask,
                .present_col = present_col};
    return dl_sql_plan_run(b->exec, plan, -1, find_take, &f, err);
}

dl_status
dl_sql_dml_files_remove(const dl_sql_dml_target *t, dl_delta_tx *tx, const dl_sql_dml_files *files,
                        dl_sql_dml_removed *out, dl_error *err) {
    *out = (dl_sql_dml_removed){0};
    for (size_t i = 0; i < files->n_files; i++) {
        if (files->touched[i] == 0) {
            continue;
        }
        const dl_delta_file *f = dl_delta_snapshot_file(t->snap, i);
        DL_TRY(dl_delta_tx_remove_snapshot_file(tx, f, true, err));
        out->n_files += 1;
        out->n_bytes += f->size > 0 ? f->size : 0;
        out->n_dvs += f->dv != NULL ? 1 : 0;
    }
    return DL_OK;
}

/* ---- what the statement read ----------------------------------------------------------------- */

/* One conjunct `p = c` / `p IN (c, ...)` on a partition column: the serialised constants. */
typedef struct read_conj {
    const char *column;        /* metaData's partition column name */
    const char *const *values; /* protocol serialisation; NULL entries left out */
    int32_t n_values;
} read_conj;

typedef struct read_pred {
    read_conj *conj;
    int32_t n_conj;
} read_pred;

static bool
read_pred_may_match(void *ctx, const dl_delta_kv *pv, int32_t n_pv) {
    const read_pred *rp = ctx;
    for (int32_t i = 0; i < rp->n_conj; i++) {
        const read_conj *c = &rp->conj[i];
        for (int32_t j = 0; j < n_pv; j++) {
            if (strcmp(pv[j].key, c->column) != 0) {
                continue;
            }
            const char *have = pv[j].value;
            bool is_found = false;
            for (int32_t k = 0; k < c->n_values && have != NULL && have[0] != '\0'; k++) {
                is_found = is_found || strcmp(have, c->values[k]) == 0;
            }
            if (!is_found) {
                return false;
            }
        }
    }
    return true;
}

/* Adds the constant k's serialisation to *c (NULL constants match nothing: left out). */
static dl_status
conj_value(dl_sql_binder *b, const dl_sql_bexpr *k, const char **values, int32_t *n,
           dl_error *err) {
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    bool is_null = false;
    dl_status s = dl_ops_partition_value(k->value, 0, &text, &is_null, err);
    if (s == DL_OK && !is_null) {
        values[*n] = dl_arena_strndup(b->arena, (const char *)text.data, text.len);
        s = values[*n] != NULL ? DL_OK : dl_error_set(err, DL_ERR_NOMEM, "out of memory");
        *n += 1;
    }
    dl_buf_destroy(&text);
    return s;
}

/* The conjunct e as a read_conj, when it has the shape; *out_ok false otherwise. */
static dl_status
read_conj_of(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_sql_bexpr *e, read_conj *out,
             bool *out_ok, dl_error *err) {
    *out_ok = false;
    bool is_eq = e->kind == DL_SQL_BEXPR_CALL && e->n_args == 2 && e->fn != NULL &&
                 (strcmp(e->fn->name, "=") == 0 || strcmp(e->fn->name, "==") == 0);
    bool is_in = e->kind == DL_SQL_BEXPR_IN_LIST && !e->is_not;
    if (!is_eq && !is_in) {
        return DL_OK;
    }
    const dl_sql_bexpr *col = e->args[0];
    int32_t first = 1;
    if (is_eq && !dl_sql_dml_is_partition_ref(t, col)) {
        col = e->args[1];
        first = 0;
    }
    if (!dl_sql_dml_is_partition_ref(t, col) ||
        !dl_sql_dml_is_partition_column(t, col->index, &out->column)) {
        return DL_OK;
    }
    int32_t n_k = is_eq ? 1 : e->n_args - 1;
    const char **values = dl_arena_alloc_zero(b->arena, (size_t)(n_k + 1) * sizeof(char *));
    DL_CHECK(values != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < n_k; i++) {
        const dl_sql_bexpr *k = e->args[first + i];
        if (!dl_sql_dml_is_exact_const(k, col)) {
            return DL_OK;
        }
        DL_TRY(conj_value(b, k, values, &out->n_values, err));
    }
    out->values = values;
    *out_ok = true;
    return DL_OK;
}

/* The read predicate of conjs, computed at planning: the optimizer may rewrite the conjuncts'
 * column references in place once a plan runs. */
static dl_status
plan_reads(dl_sql_binder *b, const dl_sql_dml_target *t, dl_sql_bexpr **conjs, int32_t n_conjs,
           dl_sql_dml_files *files, dl_error *err) {
    read_pred *rp = dl_arena_alloc_zero(b->arena, sizeof(*rp));
    DL_CHECK(rp != NULL, err, DL_ERR_NOMEM, "out of memory");
    rp->conj = dl_arena_alloc_zero(b->arena, (size_t)(n_conjs + 1) * sizeof(read_conj));
    DL_CHECK(rp->conj != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < n_conjs; i++) {
        bool is_ok = false;
        DL_TRY(read_conj_of(b, t, conjs[i], &rp->conj[rp->n_conj], &is_ok, err));
        rp->n_conj += is_ok ? 1 : 0;
    }
    files->read_pred = rp;
    return DL_OK;
}

dl_status
dl_sql_dml_files_record_reads(dl_delta_tx *tx, const dl_sql_dml_files *files, dl_error *err) {
    for (size_t u = 0; u < dl_delta_scan_unit_count(files->scan); u++) {
        DL_TRY(dl_delta_tx_read_file(tx, dl_delta_scan_unit_file(files->scan, u)->path.ptr, err));
    }
    return dl_delta_tx_read_predicate(tx, read_pred_may_match, files->read_pred, err);
}
