/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table_changes('table', start [, end]): the change data feed of a Delta table, as Spark's
 * table function returns it: the table's columns (at the end version) and `_change_type`
 * (insert, delete, update_preimage, update_postimage), `_commit_version` (BIGINT) and
 * `_commit_timestamp` (TIMESTAMP). The table is a name ('t', 'db.t') or a path
 * ('delta.`/path`'); start and end are versions (integers) or timestamps (strings or
 * TIMESTAMP values): a start timestamp names the first commit at or after it, an end
 * timestamp the last commit at or before it. Without end, the range runs to the latest
 * version; an end after it is the latest. The rows come from one scan of the change files
 * (delta/delta_changes.h), so they stream like any table's.
 */
#include <string.h>

#include "base/timefmt.h"
#include "delta/delta_changes.h"
#include "sql/bind/sql_describe_int.h"

/* The table argument: a name ('t', 'db.t') or a path (delta.`/p`, or any text with a '/'). */
static dl_status
open_changes_table(dl_sql_binder *b, const dl_sql_expr *arg, dl_delta_table **out,
                   const char **out_display, dl_error *err) {
    if (arg->kind != DL_SQL_EXPR_LITERAL || arg->u.lit.kind != DL_SQL_LIT_STRING) {
        DL_SQL_BIND_FAIL(b, arg->loc, DL_ERR_SQL_BIND, err,
                         "[DELTA_CDC_NON_CONSTANT_ARGUMENT] The table argument (position 1) of "
                         "the table_changes function must be a string naming the table");
    }
    return dl_sql_open_table_arg(b, arg, "table_changes", out, out_display, err);
}

/* A version or timestamp bound (pos 2 or 3) as a version. */
static dl_status
bound_version(dl_sql_binder *b, dl_delta_table *table, const dl_sql_expr *ast, int pos,
              int64_t *out, dl_error *err) {
    const char *what = pos == 2 ? "startingVersion" : "endingVersion";
    dl_sql_scope empty = {0};
    dl_sql_bctx cx = {.b = b, .scope = &empty, .clause = "table_changes()"};
    dl_sql_bexpr *e = NULL;
    DL_TRY(dl_sql_binder_expr(&cx, ast, &e, err));
    if (!dl_sql_bexpr_is_constant(e)) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[DELTA_CDC_NON_CONSTANT_ARGUMENT] The %s argument (position %d) of the "
                         "table_changes function requires a constant value",
                         what, pos);
    }
    dl_type_id id = e->type->id;
    bool is_version = id == DL_VEC_TYPE_BYTE || id == DL_VEC_TYPE_SHORT || id == DL_VEC_TYPE_INT ||
                      id == DL_VEC_TYPE_LONG;
    const dl_type *want = dl_vec_type_prim(is_version ? DL_VEC_TYPE_LONG : DL_VEC_TYPE_TIMESTAMP);
    int64_t x = 0;
    bool is_null = false;
    DL_TRY(dl_sql_binder_const_i64(b, e, want, &x, &is_null, err));
    if (is_null) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[DELTA_CDC_READ_NULL_RANGE_BOUNDARY] CDC read start/end parameters "
                         "cannot be null. Please provide a valid version or timestamp.");
    }
    if (is_version) {
        *out = x;
        return DL_OK;
    }
    dl_status s = dl_delta_changes_version_at(table, dl_ts_to_millis(x), pos == 2, out, err);
    if (s != DL_OK) {
        dl_sql_binder_locate(b, ast->loc, err);
    }
    return s;
}

/* The scan's columns as the function's: the table's, then _change_type (the file's, else the
 * kind of its action), _commit_version, _commit_timestamp. */
static dl_status
change_columns(dl_sql_binder *b, dl_sql_plan *scan, uint32_t loc, dl_sql_plan **out,
               dl_error *err) {
    int32_t n = scan->schema->n_fields - 4; /* the table's columns */
    dl_sql_bexpr **exprs = dl_arena_alloc_zero(b->arena, (size_t)(n + 3) * sizeof(dl_sql_bexpr *));
    const char **names = dl_arena_alloc_zero(b->arena, (size_t)(n + 3) * sizeof(const char *));
    DL_CHECK(exprs != NULL && names != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < n; i++) {
        exprs[i] = dl_sql_bexpr_column(b->arena, i, scan->schema->fields[i].type);
        names[i] = scan->schema->fields[i].name;
        DL_CHECK(exprs[i] != NULL, err, DL_ERR_NOMEM, "out of memory");
    }
    dl_sql_bexpr *type =
        dl_sql_bexpr_new(b, DL_SQL_BEXPR_COALESCE, scan->schema->fields[n].type, loc, 2);
    DL_CHECK(type != NULL, err, DL_ERR_NOMEM, "out of memory");
    type->args[0] = dl_sql_bexpr_column(b->arena, n, scan->schema->fields[n].type);
    type->args[1] = dl_sql_bexpr_column(b->arena, n + 1, scan->schema->fields[n + 1].type);
    exprs[n] = type;
    exprs[n + 1] = dl_sql_bexpr_column(b->arena, n + 2, scan->schema->fields[n + 2].type);
    exprs[n + 2] = dl_sql_bexpr_column(b->arena, n + 3, scan->schema->fields[n + 3].type);
    DL_CHECK(type->args[0] && type->args[1] && exprs[n + 1] && exprs[n + 2], err, DL_ERR_NOMEM,
             "out of memory");
    names[n] = "_change_type";
    names[n + 1] = "_commit_version";
    names[n + 2] = "_commit_timestamp";
    return dl_sql_plan_project(b, scan, exprs, names, n + 3, out, err);
}

static dl_status
plan_changes(dl_sql_binder *b, const dl_sql_tref *tref, dl_delta_table *table, const char *display,
             dl_sql_plan **out, dl_error *err) {
    const dl_sql_expr_list *args = &tref->u.func.args;
    int64_t start = 0, end = -1;
    DL_TRY(bound_version(b, table, args->items[1], 2, &start, err));
    if (args->n == 3) {
        DL_TRY(bound_version(b, table, args->items[2], 3, &end, err));
    }
    dl_delta_snapshot *snap = NULL;
    int64_t last = 0;
    dl_status s = dl_delta_changes_snapshot(table, start, end, &snap, &last, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "table_changes(%s)", display);
        dl_sql_binder_locate(b, tref->loc, err);
        return s;
    }
    dl_sql_plan *scan = NULL;
    DL_TRY(dl_sql_plan_delta_scan(b, snap, display, tref->loc, &scan, err));
    return change_columns(b, scan, tref->loc, out, err);
}

dl_status
dl_sql_binder_table_changes(dl_sql_binder *b, const dl_sql_tref *tref, dl_sql_plan **out,
                            dl_error *err) {
    const dl_sql_expr_list *args = &tref->u.func.args;
    if (args->n < 2 || args->n > 3) {
        DL_SQL_BIND_FAIL(b, tref->loc, DL_ERR_SQL_BIND, err,
                         "[WRONG_NUM_ARGS] table_changes takes 2 or 3 arguments (the table, the "
                         "start and the end version or timestamp), %u given",
                         (unsigned)args->n);
    }
    dl_delta_table *table = NULL;
    const char *display = NULL;
    DL_TRY(open_changes_table(b, args->items[0], &table, &display, err));
    dl_status s = plan_changes(b, tref, table, display, out, err);
    dl_delta_table_free(table);
    return s;
}
