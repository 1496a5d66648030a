/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DELETE FROM t [WHERE cond] and UPDATE t SET c = v, ... [WHERE cond] (sql_dml.h), by
 * copy-on-write: the table's rows are planned with an action code (0 = copy, 1 = matched),
 * the rows that stay are written as new files, and every live file is removed in the same
 * commit. A row whose condition is NULL does not match. When nothing matches, nothing is
 * committed and the files written are removed.
 *
 * commitInfo as Spark: DELETE with operationParameters predicate (a JSON array of the
 * condition's SQL) and operationMetrics numRemovedFiles, numRemovedBytes, numCopiedRows,
 * numDeletionVectorsAdded/Removed, numAddedChangeFiles, executionTimeMs, numDeletedRows,
 * scanTimeMs, numAddedFiles, numAddedBytes, rewriteTimeMs; UPDATE the same with
 * numUpdatedRows instead of numDeletedRows.
 */
#include <string.h>
#include <time.h>

#include "json/json.h"
#include "sql/sql_dml.h"

enum {
    CODE_COPY = 0,
    CODE_MATCHED = 1
};

typedef struct rewrite {
    dl_sql_dml_target t;
    dl_sql_plan *plan;        /* the target's rows (then with the code column) */
    dl_sql_scope scope;       /* names of the target's columns */
    dl_sql_bexpr *cond;       /* WHERE, or NULL (every row matches) */
    const dl_sql_expr *where; /* its SQL, bound again for every use (plans are trees) */
    bool is_shared;           /* cond has subqueries: planned once, then shared */
    const char *predicate;
    int64_t start_ms;
} rewrite;

static int64_t
clock_ms(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
        return 0;
    }
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static dl_status
open_rewrite(dl_sql_binder *b, const dl_sql_name *name, bool has_alias, const dl_sql_ident *alias,
             const dl_sql_expr *where, uint32_t loc, rewrite *rw, dl_error *err) {
    rw->start_ms = clock_ms();
    DL_TRY(dl_sql_dml_open(b, name, loc, &rw->t, err));
    DL_TRY(dl_sql_plan_delta_scan(b, dl_delta_snapshot_ref(rw->t.snap), rw->t.display, loc,
                                  &rw->plan, err));
    const char *qual = has_alias ? dl_arena_strndup(b->arena, alias->name.ptr, alias->name.len)
                                 : name->parts[name->n_parts - 1].name.ptr;
    DL_CHECK(qual != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(dl_sql_scope_of(b, rw->plan, qual, &rw->scope, err));
    rw->predicate = where != NULL ? dl_sql_dml_expr_text(b, where) : NULL;
    if (where == NULL) {
        return DL_OK;
    }
    rw->where = where;
    dl_sql_bctx cx = {.b = b, .scope = &rw->scope, .clause = "WHERE"};
    DL_TRY(dl_sql_binder_cond(&cx, where, &rw->cond, err));
    if (dl_sql_bexpr_has_subquery(rw->cond)) {
        rw->is_shared = true;
        DL_TRY(dl_sql_plan_subqueries(b, &rw->plan, &rw->cond, false, err));
    }
    return DL_OK;
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

/* Projects the table's columns (exprs[0..n)) and the code. */
static dl_status
project_with_code(dl_sql_binder *b, rewrite *rw, dl_sql_bexpr **exprs, uint32_t loc,
                  dl_error *err) {
    int32_t n = rw->t.schema->n_fields;
    const char **names = dl_arena_alloc_zero(b->arena, (size_t)(n + 2) * sizeof(const char *));
    DL_CHECK(names != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < n; i++) {
        names[i] = rw->t.schema->fields[i].name;
    }
    names[n] = "__dl_action";
    DL_TRY(code_expr(b, rw, loc, &exprs[n], err));
    return dl_sql_plan_project(b, rw->plan, exprs, names, n + 1, &rw->plan, err);
}

static dl_status
param_predicate(dl_sql_binder *b, dl_delta_tx *tx, const char *predicate, dl_error *err) {
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    dl_json_writer jw;
    dl_json_writer_init(&jw, &text, 0);
    dl_status s = dl_json_writer_begin_array(&jw, err);
    if (s == DL_OK && predicate != NULL) {
        s = dl_json_writer_string_cstr(&jw, predicate, err);
    }
    if (s == DL_OK) {
        s = dl_json_writer_end_array(&jw, err);
    }
    if (s == DL_OK) {
        s = dl_delta_tx_param_string(tx, "predicate", dl_buf_cstr(&text), err);
    }
    dl_json_writer_destroy(&jw);
    dl_buf_destroy(&text);
    return s;
}

typedef struct metric {
    const char *key;
    int64_t value;
} metric;

static dl_status
stage_rewrite(dl_sql_binder *b, rewrite *rw, dl_delta_tx *tx, dl_ops_writer *w,
              const dl_sql_dml_sink *sink, bool is_update, dl_error *err) {
    dl_delta_tx_set_operation(tx, is_update ? DL_DELTA_OP_UPDATE : DL_DELTA_OP_DELETE);
    DL_TRY(param_predicate(b, tx, rw->predicate, err));
    dl_delta_tx_read_whole_table(tx);
    int64_t n_removed = 0;
    int64_t removed_bytes = 0;
    DL_TRY(dl_sql_dml_remove_all(&rw->t, tx, &n_removed, &removed_bytes, err));
    DL_TRY(dl_ops_writer_stage(w, tx, false, err));
    int64_t elapsed = clock_ms() - rw->start_ms;
    metric metrics[] = {
        {"numRemovedFiles", n_removed},
        {"numRemovedBytes", removed_bytes},
        {"numCopiedRows", sink->counts[CODE_COPY]},
        {"numDeletionVectorsAdded", 0},
        {"numDeletionVectorsRemoved", 0},
        {"numAddedChangeFiles", 0},
        {"executionTimeMs", elapsed},
        {is_update ? "numUpdatedRows" : "numDeletedRows", sink->counts[CODE_MATCHED]},
        {"scanTimeMs", 0},
        {"numAddedFiles", (int64_t)dl_ops_writer_file_count(w)},
        {"numAddedBytes", dl_ops_writer_bytes(w)},
        {"rewriteTimeMs", elapsed},
    };
    for (size_t i = 0; i < DL_ARRAY_LEN(metrics); i++) {
        DL_TRY(dl_delta_tx_metric(tx, metrics[i].key, metrics[i].value, err));
    }
    return DL_OK;
}

/* Runs the planned rewrite and commits it when a row matched. */
static dl_status
finish_rewrite(dl_sql_binder *b, rewrite *rw, uint32_t keep_mask, bool is_update, dl_error *err) {
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(rw->t.table, rw->t.snap, NULL, &tx, err));
    dl_ops_writer *w = NULL;
    dl_status s = dl_sql_dml_writer(b, &rw->t, tx, &w, err);
    dl_sql_dml_sink sink = {.writer = w,
                            .schema = rw->t.schema,
                            .code_col = rw->t.schema->n_fields,
                            .keep_mask = keep_mask,
                            .source_col = -1};
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
    return dl_sql_dml_commit(tx, w, err);
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

dl_status
dl_sql_dml_delete(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    rewrite *rw = dl_arena_alloc_zero(b->arena, sizeof(*rw));
    DL_CHECK(rw != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(open_rewrite(b, &stmt->u.delete_.table, stmt->u.delete_.has_alias,
                        &stmt->u.delete_.alias, stmt->u.delete_.where, stmt->loc, rw, err));
    int32_t n = rw->t.schema->n_fields;
    dl_sql_bexpr **exprs = dl_arena_alloc_zero(b->arena, (size_t)(n + 2) * sizeof(dl_sql_bexpr *));
    DL_CHECK(exprs != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(keep_columns(b, rw, exprs, err));
    DL_TRY(project_with_code(b, rw, exprs, stmt->loc, err));
    return finish_rewrite(b, rw, 1u << CODE_COPY, false, err);
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
                         "[UNRESOLVED_COLUMN] table %s has no column '%.*s'", rw->t.display,
                         DL_STR_FMT(last->name));
    }
    if (exprs[c] != NULL) {
        DL_SQL_BIND_FAIL(b, last->loc, DL_ERR_SQL_BIND, err, "column '%.*s' is set twice",
                         DL_STR_FMT(last->name));
    }
    dl_sql_bctx cx = {.b = b, .scope = &rw->scope, .clause = "SET"};
    dl_sql_bexpr *v = NULL;
    DL_TRY(dl_sql_binder_expr(&cx, a->value, &v, err));
    const dl_type_field *f = &rw->t.schema->fields[c];
    dl_status s = dl_sql_binder_cast(b, v, f->type, &v, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "cannot set column '%s': ", f->name);
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

dl_status
dl_sql_dml_update(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    rewrite *rw = dl_arena_alloc_zero(b->arena, sizeof(*rw));
    DL_CHECK(rw != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(open_rewrite(b, &stmt->u.update.table, stmt->u.update.has_alias, &stmt->u.update.alias,
                        stmt->u.update.where, stmt->loc, rw, err));
    int32_t n = rw->t.schema->n_fields;
    dl_sql_bexpr **exprs = dl_arena_alloc_zero(b->arena, (size_t)(n + 2) * sizeof(dl_sql_bexpr *));
    DL_CHECK(exprs != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < stmt->u.update.assigns.n; i++) {
        DL_TRY(assign_expr(b, rw, &stmt->u.update.assigns.items[i], exprs, err));
    }
    DL_TRY(keep_columns(b, rw, exprs, err));
    DL_TRY(project_with_code(b, rw, exprs, stmt->loc, err));
    return finish_rewrite(b, rw, (1u << CODE_COPY) | (1u << CODE_MATCHED), true, err);
}
