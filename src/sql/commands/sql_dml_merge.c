/* SPDX-License-Identifier: Apache-2.0 */
/*
 * MERGE INTO target [AS t] USING source [AS s] ON cond WHEN ... (sql_dml.h), by copy-on-write of
 * the target files that hold a changed row, as Spark's MergeIntoCommand does it.
 *
 * Plan. The target's rows with a marker column, FULL OUTER JOIN the source's rows with a
 * marker column, ON cond. A row with both markers is matched; with only the target's it is
 * not matched by source; with only the source's it is not matched (by target). The clauses
 * are tried in the order written, each of its kind with its own AND condition (a NULL
 * condition does not fire), and the first that fires gives the row's action code:
 *
 *   0            no clause fired on a target row: copied as it is
 *   1 + i        clause i fired: UPDATE and INSERT rows are written with the clause's values,
 *                DELETE rows are dropped
 *   DROP         no clause fired on a source-only row: nothing is written
 *
 * A second projection computes each table column as CASE code WHEN (clause assigning it) THEN
 * its value ... ELSE the target's value END, so one pass writes the new rows.
 *
 * Files (sql_dml_files.c). The candidates are the target files that the ON condition's
 * target-only conjuncts keep (partition values, statistics; every file when NOT MATCHED BY
 * SOURCE clauses may change an unmatched row anywhere). Pass 1 joins the candidates with the
 * source (INNER, or LEFT for NOT MATCHED BY SOURCE clauses), each target row carrying its
 * file (the scan's file index), and marks touched the files of rows on which a MATCHED or
 * NOT MATCHED BY SOURCE clause fires -- of every matched row when the MERGE also inserts, as
 * Spark, since pass 2 reads only the touched files and a source row whose target row were
 * left out would be taken for unmatched. Pass 2 is the plan above over the touched files only:
 * their rows are written back (copied, updated or dropped), inserted rows added, and only the
 * touched files removed; the other files keep their paths. A MERGE that changes nothing
 * commits no file actions (Spark still records the commit). Both passes read the source: a
 * nondeterministic source (rand(), a table changed in between) may disagree with itself,
 * where Spark materializes it.
 *
 * The target's rows carry a uuid() each in pass 2: a target row that the ON condition matches
 * with two source rows fails the statement with Spark's
 * DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE, whichever clauses fire (not when the
 * MERGE only inserts or its only MATCHED clause is an unconditional DELETE, which Spark
 * allows); pass 1 then touches the file of every matched row, so pass 2 sees each match. A
 * MERGE with NOT MATCHED clauses only skips pass 1: it reads the candidates, writes the
 * inserted rows and removes no file. Reads are recorded as in sql_dml_files.c: the
 * candidates and the partitions the ON condition allows. Not yet: keeping a file touched
 * only because a MERGE that inserts matched one of its rows without changing it (read in pass
 * 2, it need not be rewritten; Spark rewrites it too).
 *
 * Names (as Spark resolves them): MATCHED clauses see both sides, NOT MATCHED clauses the
 * source only, NOT MATCHED BY SOURCE clauses the target only. Struct values are written field
 * by field by name. Schema evolution (WITH SCHEMA EVOLUTION or
 * spark.databricks.delta.schema.autoMerge.enabled; see evolve()) adds the source's new
 * columns and struct fields to the table in the same commit; without it `*` writes the
 * target's columns only.
 *
 * commitInfo: MERGE with operationParameters predicate (a JSON array holding the ON
 * condition, as Delta's OperationWithPredicates), matchedPredicates, notMatchedPredicates,
 * notMatchedBySourcePredicates (JSON arrays of {predicate?, actionType}) and operationMetrics
 * numSourceRows, numTargetRowsInserted / Updated / Deleted / Copied, numTargetRowsMatchedUpdated /
 * MatchedDeleted, numTargetRowsNotMatchedBySource Updated / Deleted, numOutputRows,
 * numTargetFilesAdded / Removed, numTargetBytesAdded / Removed, numTargetChangeFilesAdded,
 * executionTimeMs, scanTimeMs, rewriteTimeMs, numTargetDeletionVectorsAdded / Removed /
 * Updated.
 *
 * Deletion vectors (delta.enableDeletionVectors, sql_dml_dv.c), as Spark's MERGE with them:
 * in pass 2 each target row also carries its file and file row number (the scan's hidden
 * columns); rows on which an UPDATE or DELETE clause fires are marked in their files'
 * deletion vectors, only updated and inserted rows are written, unchanged rows are not copied
 * (numTargetRowsCopied 0), and the touched files are replaced by themselves with larger DVs
 * (or removed when every row goes: delta/delta_dv_dml.h).
 */
#include <string.h>

#include "json/json.h"
#include "sql/commands/sql_dml.h"

#define CODE_DROP   15
#define MAX_CLAUSES 14

typedef struct merge {
    const dl_sql_stmt *stmt;
    dl_sql_dml_target t;
    dl_sql_dml_files files;  /* candidates and touched files */
    int32_t n;               /* the target's columns (as scanned) */
    const dl_type *out;      /* the row type written: the target's, evolved (schema evolution) */
    int32_t n_out;           /* its columns: the target's, then the new ones */
    bool is_evolving;        /* WITH SCHEMA EVOLUTION or autoMerge */
    dl_delta_schema evolved; /* the evolved schema (type NULL: the schema stays) */
    const char *qual;        /* the target's qualifier (alias or name) */
    int32_t m;               /* source columns */
    int32_t t_mark;          /* join column: target marker */
    int32_t t_id;            /* join column: the target row's file (finding) or uuid (rewriting) */
    int32_t t_pos;           /* deletion vectors, rewriting: join column of the row's file, then
                                its file row number (-1 otherwise) */
    bool is_dv;              /* rows are marked in deletion vectors, not files rewritten */
    int32_t s_mark;          /* join column: source marker (a BIGINT id per source row) */
    const dl_type *s_type;   /* its type */
    int32_t width;           /* join columns */
    dl_sql_plan *tscan;      /* the target's scan */
    dl_sql_plan *plan;       /* the join, then the projections */
    dl_sql_scope scope;      /* names over the join */
    dl_sql_scope source;     /* the source's names (indexes in the join) */
    dl_sql_scope target;     /* the target's names (indexes in the join) */
    int64_t start_ms;
    int64_t scan_ms;     /* finding the touched files */
    bool is_cdc;         /* writes change data (sql_dml_cdf.c): the table has the feed and the
                            MERGE does more than insert */
    int32_t old_col;     /* is_cdc: the first of the target row's old values (n_out of them) */
    dl_sql_dml_cdf *cdf; /* is_cdc: the change data written */
} merge;

/* What follows a row's marker column: nothing, a uuid() or its file (sql_plan.h); or the
 * marker is itself a row id, monotonically_increasing_id() (the source's: numSourceRows counts
 * source rows, not matches). */
typedef enum row_id {
    ROW_ID_NONE,
    ROW_ID_UUID,
    ROW_ID_FILE,
    ROW_ID_MARKER_SEQ,
} row_id;

/* Sets exprs[at], names[at] and the next to the row's file and file row number: columns n and
 * n + 1 (the scan's hidden columns, or where a join put them). */
static dl_status
position_columns(dl_sql_binder *b, int32_t n, dl_sql_bexpr **exprs, const char **names, int32_t at,
                 dl_error *err) {
    exprs[at] = dl_sql_bexpr_column(b->arena, n, dl_vec_type_prim(DL_VEC_TYPE_INT));
    exprs[at + 1] = dl_sql_bexpr_column(b->arena, n + 1, dl_vec_type_prim(DL_VEC_TYPE_LONG));
    names[at] = "__dl_file";
    names[at + 1] = "__dl_row";
    DL_CHECK(exprs[at] != NULL && exprs[at + 1] != NULL, err, DL_ERR_NOMEM, "out of memory");
    return DL_OK;
}

/* plan's first n columns plus a non-NULL BIGINT marker and the row's id: a random uuid() per
 * row (the target row's identity, for the multiple-match check) or its file (plan column n,
 * a scan's file index); with_position (a uuid id) then the row's file and file row number. */
static dl_status
with_marker(dl_sql_binder *b, dl_sql_plan *plan, int32_t n, row_id id, bool with_position,
            dl_sql_plan **out, dl_error *err) {
    dl_sql_bexpr **exprs = dl_arena_alloc_zero(b->arena, (size_t)(n + 5) * sizeof(dl_sql_bexpr *));
    const char **names = dl_arena_alloc_zero(b->arena, (size_t)(n + 5) * sizeof(const char *));
    DL_CHECK(exprs != NULL && names != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < n; i++) {
        exprs[i] = dl_sql_bexpr_column(b->arena, i, plan->schema->fields[i].type);
        names[i] = plan->schema->fields[i].name;
        DL_CHECK(exprs[i] != NULL, err, DL_ERR_NOMEM, "out of memory");
    }
    if (id == ROW_ID_MARKER_SEQ) {
        const dl_sql_fn_def *seq = dl_sql_binder_lookup(b, DL_STR("monotonically_increasing_id"));
        DL_CHECK(seq != NULL, err, DL_ERR_INTERNAL,
                 "monotonically_increasing_id is not registered");
        DL_TRY(dl_sql_binder_call(b, seq, "monotonically_increasing_id", NULL, 0, plan->loc,
                                  &exprs[n], err));
    } else {
        exprs[n] = dl_sql_dml_int(b, 1);
    }
    names[n] = "__dl_marker";
    DL_CHECK(exprs[n] != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (id == ROW_ID_NONE || id == ROW_ID_MARKER_SEQ) {
        return dl_sql_plan_project(b, plan, exprs, names, n + 1, out, err);
    }
    if (id == ROW_ID_FILE) {
        exprs[n + 1] = dl_sql_bexpr_column(b->arena, n, dl_vec_type_prim(DL_VEC_TYPE_INT));
        names[n + 1] = "__dl_file";
        DL_CHECK(exprs[n + 1] != NULL, err, DL_ERR_NOMEM, "out of memory");
        return dl_sql_plan_project(b, plan, exprs, names, n + 2, out, err);
    }
    const dl_sql_fn_def *uuid = dl_sql_binder_lookup(b, DL_STR("uuid"));
    DL_CHECK(uuid != NULL, err, DL_ERR_INTERNAL, "the uuid function is not registered");
    DL_TRY(dl_sql_binder_call(b, uuid, "uuid", NULL, 0, plan->loc, &exprs[n + 1], err));
    names[n + 1] = "__dl_row_id";
    if (with_position) {
        DL_TRY(position_columns(b, n, exprs, names, n + 2, err));
    }
    return dl_sql_plan_project(b, plan, exprs, names, n + (with_position ? 4 : 2), out, err);
}

static bool
has_clause(const merge *mg, dl_sql_merge_match match) {
    for (uint32_t i = 0; i < mg->stmt->u.merge.n_clauses; i++) {
        if (mg->stmt->u.merge.clauses[i].match == match) {
            return true;
        }
    }
    return false;
}

/* The candidates: the files the ON condition's target-only conjuncts keep (every file when
 * NOT MATCHED BY SOURCE clauses may change an unmatched row anywhere). */
static dl_status
plan_candidates(dl_sql_binder *b, merge *mg, dl_sql_bexpr *on, dl_error *err) {
    dl_sql_bexpr **conjs = NULL;
    int32_t n_conjs = 0;
    if (!has_clause(mg, DL_SQL_MERGE_NOT_MATCHED_BY_SOURCE)) {
        DL_TRY(dl_sql_dml_target_conjuncts(b, &mg->t, on, &conjs, &n_conjs, err));
    }
    return dl_sql_dml_files_plan(b, &mg->t, conjs, n_conjs, false, &mg->files, err);
}

/* target JOIN source ON cond, of type (FULL: rewriting; INNER or LEFT: finding the files). */
static dl_status
plan_join(dl_sql_binder *b, merge *mg, dl_sql_join_type type, dl_error *err) {
    const dl_sql_stmt *stmt = mg->stmt;
    const dl_sql_name *name = &stmt->u.merge.target;
    dl_sql_rel trel = {0};
    bool with_position = mg->is_dv && type == DL_SQL_JOIN_T_FULL;
    dl_delta_snapshot *snap = dl_delta_snapshot_ref(mg->t.snap);
    DL_TRY(with_position
               ? dl_sql_plan_delta_scan_rows(b, snap, mg->t.display, stmt->loc, &mg->tscan, err)
               : dl_sql_plan_delta_scan_files(b, snap, mg->t.display, stmt->loc, &mg->tscan, err));
    trel.plan = mg->tscan;
    const char *qual =
        stmt->u.merge.has_alias
            ? dl_arena_strndup(b->arena, stmt->u.merge.alias.name.ptr, stmt->u.merge.alias.name.len)
            : name->parts[name->n_parts - 1].name.ptr;
    DL_CHECK(qual != NULL, err, DL_ERR_NOMEM, "out of memory");
    mg->qual = qual;
    DL_TRY(dl_sql_scope_of(b, trel.plan, qual, &trel.scope, err));
    trel.scope.n = mg->n; /* the file index has no name */
    row_id id = type == DL_SQL_JOIN_T_FULL ? ROW_ID_UUID : ROW_ID_FILE;
    DL_TRY(with_marker(b, trel.plan, mg->n, id, with_position, &trel.plan, err));
    dl_sql_rel srel = {0};
    DL_TRY(dl_sql_binder_tref(b, stmt->u.merge.source, NULL, &srel, err));
    mg->m = srel.plan->n_cols;
    DL_TRY(with_marker(b, srel.plan, mg->m, ROW_ID_MARKER_SEQ, false, &srel.plan, err));
    DL_TRY(dl_sql_concat_scopes(b, &trel, &srel, &mg->scope, err));
    mg->source = (dl_sql_scope){.cols = mg->scope.cols + trel.scope.n, .n = srel.scope.n};
    mg->target = (dl_sql_scope){.cols = mg->scope.cols, .n = trel.scope.n};
    mg->t_mark = mg->n;
    mg->t_id = mg->n + 1;
    mg->t_pos = with_position ? mg->n + 2 : -1;
    mg->s_mark = mg->n + (with_position ? 4 : 2) + mg->m;
    mg->width = mg->s_mark + 1;
    DL_TRY(dl_sql_join_plan(b, trel.plan, srel.plan, type, stmt->loc, &mg->plan, err));
    mg->s_type = mg->plan->schema->fields[mg->s_mark].type;
    dl_sql_bctx cx = {.b = b, .scope = &mg->scope, .clause = "ON"};
    dl_sql_bexpr *on = NULL;
    DL_TRY(dl_sql_binder_cond(&cx, stmt->u.merge.on, &on, err));
    if (dl_sql_bexpr_has_subquery(on)) {
        DL_SQL_BIND_FAIL(b, stmt->u.merge.on->loc, DL_ERR_UNSUPPORTED, err,
                         "subqueries in a MERGE condition are not supported");
    }
    if (mg->files.candidates == NULL) {
        DL_TRY(plan_candidates(b, mg, on, err));
    }
    return dl_sql_join_split(b, mg->plan, on, err);
}

/* ---- the action code --------------------------------------------------------------------------
 */

static dl_sql_bexpr *
is_null(dl_sql_binder *b, int32_t col, const dl_type *type, bool is_not) {
    dl_sql_bexpr *e =
        dl_sql_bexpr_new(b, DL_SQL_BEXPR_IS, dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN), 0, 1);
    dl_sql_bexpr *c = dl_sql_bexpr_column(b->arena, col, type);
    if (e == NULL || c == NULL) {
        return NULL;
    }
    e->is_kind = DL_SQL_BIS_NULL;
    e->is_not = is_not;
    e->args[0] = c;
    return e;
}

/* The names a clause's condition and values see, as Spark resolves them: both sides in
 * MATCHED clauses, the source's alone in NOT MATCHED ones (there is no target row), the
 * target's alone in NOT MATCHED BY SOURCE ones. */
static dl_sql_scope *
clause_scope(merge *mg, const dl_sql_merge_clause *cl) {
    switch (cl->match) {
    case DL_SQL_MERGE_NOT_MATCHED:
        return &mg->source;
    case DL_SQL_MERGE_NOT_MATCHED_BY_SOURCE:
        return &mg->target;
    default:
        return &mg->scope;
    }
}

/* The condition under which clause cl fires (before earlier clauses are considered). */
static dl_status
clause_when(dl_sql_binder *b, merge *mg, const dl_sql_merge_clause *cl, dl_sql_bexpr **out,
            dl_error *err) {
    dl_sql_bexpr *parts[3] = {NULL, NULL, NULL};
    int32_t n = 0;
    if (cl->match == DL_SQL_MERGE_MATCHED) {
        parts[n++] = is_null(b, mg->t_mark, dl_vec_type_prim(DL_VEC_TYPE_LONG), true);
        parts[n++] = is_null(b, mg->s_mark, mg->s_type, true);
    } else if (cl->match == DL_SQL_MERGE_NOT_MATCHED) {
        parts[n++] = is_null(b, mg->t_mark, dl_vec_type_prim(DL_VEC_TYPE_LONG), false);
    } else {
        parts[n++] = is_null(b, mg->s_mark, mg->s_type, false);
    }
    DL_CHECK(parts[0] != NULL && (n < 2 || parts[1] != NULL), err, DL_ERR_NOMEM, "out of memory");
    if (cl->cond != NULL) {
        dl_sql_bctx cx = {.b = b, .scope = clause_scope(mg, cl), .clause = "WHEN"};
        DL_TRY(dl_sql_binder_cond(&cx, cl->cond, &parts[n], err));
        if (dl_sql_bexpr_has_subquery(parts[n])) {
            DL_SQL_BIND_FAIL(b, cl->cond->loc, DL_ERR_UNSUPPORTED, err,
                             "subqueries in a MERGE clause condition are not supported");
        }
        n++;
    }
    if (n == 1) {
        *out = parts[0];
        return DL_OK;
    }
    dl_sql_bexpr *e =
        dl_sql_bexpr_new(b, DL_SQL_BEXPR_AND, dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN), cl->loc, n);
    DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < n; i++) {
        e->args[i] = parts[i];
    }
    *out = e;
    return DL_OK;
}

/* CASE WHEN fires(0) THEN 1 ... WHEN target row THEN 0 ELSE DROP END. */
static dl_status
code_expr(dl_sql_binder *b, merge *mg, dl_sql_bexpr **out, dl_error *err) {
    uint32_t n_cl = mg->stmt->u.merge.n_clauses;
    dl_sql_bexpr **conds = dl_arena_alloc_zero(b->arena, (n_cl + 2) * sizeof(dl_sql_bexpr *));
    dl_sql_bexpr **codes = dl_arena_alloc_zero(b->arena, (n_cl + 2) * sizeof(dl_sql_bexpr *));
    DL_CHECK(conds != NULL && codes != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < n_cl; i++) {
        DL_TRY(clause_when(b, mg, &mg->stmt->u.merge.clauses[i], &conds[i], err));
        codes[i] = dl_sql_dml_int(b, (int64_t)i + 1);
        DL_CHECK(codes[i] != NULL, err, DL_ERR_NOMEM, "out of memory");
    }
    conds[n_cl] = is_null(b, mg->t_mark, dl_vec_type_prim(DL_VEC_TYPE_LONG), true);
    codes[n_cl] = dl_sql_dml_int(b, 0);
    dl_sql_bexpr *drop = dl_sql_dml_int(b, CODE_DROP);
    DL_CHECK(conds[n_cl] != NULL && codes[n_cl] != NULL && drop != NULL, err, DL_ERR_NOMEM,
             "out of memory");
    return dl_sql_binder_make_case(b, conds, codes, (int32_t)n_cl + 1, drop, mg->stmt->loc, out,
                                   err);
}

/* ---- the new values ------------------------------------------------------------------------- */

/* The join column of the source column named like table column c, or -1. */
static int32_t
source_column(const merge *mg, const char *name) {
    for (int32_t i = 0; i < mg->source.n; i++) {
        const dl_sql_bcol *col = &mg->source.cols[i];
        if (!col->is_hidden &&
            dl_str_eq_nocase(dl_str_from_cstr(col->name), dl_str_from_cstr(name))) {
            return col->index;
        }
    }
    return -1;
}

static int32_t
table_column(const merge *mg, dl_str name) {
    for (int32_t i = 0; i < mg->n_out; i++) {
        if (dl_str_eq_nocase(dl_str_from_cstr(mg->out->fields[i].name), name)) {
            return i;
        }
    }
    return -1;
}

/* vals[c] (per written column) for a `*` action: the source column of the same name. Without
 * schema evolution every target column needs one (source-only columns are not written); with
 * it, a column the source lacks keeps its value (UPDATE) or is NULL (INSERT), and a struct
 * field the source lacks likewise (Delta's resolveStar). */
static dl_status
star_value(dl_sql_binder *b, merge *mg, const dl_sql_merge_clause *cl, int32_t c,
           dl_sql_bexpr **out, dl_error *err) {
    bool is_update = cl->action == DL_SQL_MERGE_UPDATE_STAR;
    const dl_type_field *f = &mg->out->fields[c];
    int32_t j = source_column(mg, f->name);
    if (j < 0 && mg->is_evolving) {
        return DL_OK;
    }
    if (j < 0) {
        DL_SQL_BIND_FAIL(b, cl->loc, DL_ERR_SQL_BIND, err,
                         "[UNRESOLVED_COLUMN] %s * needs a source column named '%s' (the "
                         "target's column)",
                         is_update ? "UPDATE SET" : "INSERT", f->name);
    }
    *out = dl_sql_bexpr_column(b->arena, j, mg->plan->schema->fields[j].type);
    DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (!is_update || !mg->is_evolving || c >= mg->n) {
        return DL_OK;
    }
    dl_sql_bexpr *old = dl_sql_bexpr_column(b->arena, c, mg->t.schema->fields[c].type);
    DL_CHECK(old != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_sql_dml_dest dest = {.column = f->name, .table = mg->t.display};
    return dl_sql_dml_assign_value(b, *out, f->type, old, DL_SQL_DML_ASSIGN_PRESERVE, dest, cl->loc,
                                   out, err);
}

static dl_status
star_values(dl_sql_binder *b, merge *mg, const dl_sql_merge_clause *cl, dl_sql_bexpr **vals,
            dl_error *err) {
    for (int32_t c = 0; c < mg->n_out; c++) {
        DL_TRY(star_value(b, mg, cl, c, &vals[c], err));
    }
    return DL_OK;
}

static dl_status
bind_value(dl_sql_binder *b, merge *mg, const dl_sql_merge_clause *cl, int32_t c,
           const dl_sql_expr *ast, dl_sql_bexpr **vals, dl_error *err) {
    if (vals[c] != NULL) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err, "column '%s' is set twice",
                         mg->out->fields[c].name);
    }
    dl_sql_bctx cx = {.b = b, .scope = clause_scope(mg, cl), .clause = "MERGE"};
    return dl_sql_binder_expr(&cx, ast, &vals[c], err);
}

/* vals[c] for the clause's listed assignments or insert values (NULL: not set). */
static dl_status
listed_values(dl_sql_binder *b, merge *mg, const dl_sql_merge_clause *cl, dl_sql_bexpr **vals,
              dl_error *err) {
    if (cl->action == DL_SQL_MERGE_UPDATE) {
        for (uint32_t i = 0; i < cl->assigns.n; i++) {
            const dl_sql_assign *a = &cl->assigns.items[i];
            const dl_sql_ident *last = &a->column.parts[a->column.n_parts - 1];
            bool is_qualified =
                a->column.n_parts == 2 &&
                dl_str_eq_nocase(a->column.parts[0].name, dl_str_from_cstr(mg->qual));
            if (a->column.n_parts > 1 && !is_qualified) {
                DL_SQL_BIND_FAIL(b, a->column.parts[0].loc, DL_ERR_UNSUPPORTED, err,
                                 "MERGE cannot assign to a struct's field yet (assign the whole "
                                 "column, e.g. SET s = named_struct(...))");
            }
            int32_t c = table_column(mg, last->name);
            if (c < 0) {
                DL_SQL_BIND_FAIL(
                    b, last->loc, DL_ERR_SQL_BIND, err,
                    "[UNRESOLVED_COLUMN.WITH_SUGGESTION] the target has no column '%.*s'",
                    DL_STR_FMT(last->name));
            }
            DL_TRY(bind_value(b, mg, cl, c, a->value, vals, err));
        }
        return DL_OK;
    }
    if (cl->columns.n != cl->values.n && cl->columns.n > 0) {
        DL_SQL_BIND_FAIL(b, cl->loc, DL_ERR_SQL_BIND, err, "INSERT lists %u columns but %u values",
                         cl->columns.n, cl->values.n);
    }
    if (cl->columns.n == 0 && (int32_t)cl->values.n != mg->n) {
        DL_SQL_BIND_FAIL(b, cl->loc, DL_ERR_SQL_BIND, err,
                         "INSERT VALUES gives %u values for the target's %d columns", cl->values.n,
                         mg->n);
    }
    for (uint32_t i = 0; i < cl->values.n; i++) {
        int32_t c = (int32_t)i;
        if (cl->columns.n > 0) {
            c = table_column(mg, cl->columns.items[i].name);
            if (c < 0) {
                DL_SQL_BIND_FAIL(
                    b, cl->columns.items[i].loc, DL_ERR_SQL_BIND, err,
                    "[UNRESOLVED_COLUMN.WITH_SUGGESTION] the target has no column '%.*s'",
                    DL_STR_FMT(cl->columns.items[i].name));
            }
        }
        DL_TRY(bind_value(b, mg, cl, c, cl->values.items[i], vals, err));
    }
    return DL_OK;
}

/* A value as its column's type (structs by field name, dl_sql_dml_assign_value); an insert's
 * missing value is NULL. */
static dl_status
finish_value(dl_sql_binder *b, const merge *mg, const dl_type_field *f, bool is_insert,
             dl_sql_bexpr **v, dl_error *err) {
    if (*v == NULL && is_insert) {
        *v = dl_sql_dml_null(b, f->type);
        DL_CHECK(*v != NULL, err, DL_ERR_NOMEM, "out of memory");
    }
    if (*v == NULL) {
        return DL_OK;
    }
    dl_sql_dml_assign_mode mode =
        mg->is_evolving ? DL_SQL_DML_ASSIGN_NULLIFY : DL_SQL_DML_ASSIGN_EXACT;
    dl_sql_dml_dest dest = {.column = f->name, .table = mg->t.display};
    dl_status s = dl_sql_dml_assign_value(b, *v, f->type, NULL, mode, dest, mg->stmt->loc, v, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "MERGE: cannot write column '%s'", f->name);
    }
    return s;
}

/* vals[clause * n + c]: the clause's value for column c, cast to its type, or NULL. */
static dl_status
clause_values(dl_sql_binder *b, merge *mg, dl_sql_bexpr **vals, dl_error *err) {
    for (uint32_t i = 0; i < mg->stmt->u.merge.n_clauses; i++) {
        const dl_sql_merge_clause *cl = &mg->stmt->u.merge.clauses[i];
        dl_sql_bexpr **v = vals + (size_t)i * (size_t)mg->n_out;
        if (cl->action == DL_SQL_MERGE_DELETE) {
            continue;
        }
        if (cl->action == DL_SQL_MERGE_UPDATE_STAR || cl->action == DL_SQL_MERGE_INSERT_STAR) {
            DL_TRY(star_values(b, mg, cl, v, err));
        } else {
            DL_TRY(listed_values(b, mg, cl, v, err));
        }
        bool is_insert =
            cl->action == DL_SQL_MERGE_INSERT || cl->action == DL_SQL_MERGE_INSERT_STAR;
        for (int32_t c = 0; c < mg->n_out; c++) {
            DL_TRY(finish_value(b, mg, &mg->out->fields[c], is_insert, &v[c], err));
        }
    }
    return DL_OK;
}

/* code = k, over the first projection's output. */
static dl_status
code_is(dl_sql_binder *b, merge *mg, int64_t k, dl_sql_bexpr **out, dl_error *err) {
    const dl_sql_fn_def *eq = dl_sql_binder_lookup(b, DL_STR("="));
    DL_CHECK(eq != NULL, err, DL_ERR_INTERNAL, "the = operator is not registered");
    dl_sql_bexpr *args[2] = {
        dl_sql_bexpr_column(b->arena, mg->width, dl_vec_type_prim(DL_VEC_TYPE_LONG)),
        dl_sql_dml_int(b, k)};
    DL_CHECK(args[0] != NULL && args[1] != NULL, err, DL_ERR_NOMEM, "out of memory");
    return dl_sql_binder_call(b, eq, "=", args, 2, mg->stmt->loc, out, err);
}

/* The target row's value of written column c: its column (a struct grown by schema evolution
 * gets NULL new fields), NULL for a new column. */
static dl_status
old_value(dl_sql_binder *b, const merge *mg, int32_t c, dl_sql_bexpr **out, dl_error *err) {
    const dl_type *type = mg->out->fields[c].type;
    *out = c < mg->n ? dl_sql_bexpr_column(b->arena, c, mg->t.schema->fields[c].type)
                     : dl_sql_dml_null(b, type);
    DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (c < mg->n && !dl_vec_type_equal((*out)->type, type)) {
        dl_sql_dml_dest own = {0};
        return dl_sql_dml_assign_value(b, *out, type, NULL, DL_SQL_DML_ASSIGN_NULLIFY, own,
                                       mg->stmt->loc, out, err);
    }
    return DL_OK;
}

/* Written column c: CASE WHEN code = k THEN value ... ELSE the target's value END. */
static dl_status
column_expr(dl_sql_binder *b, merge *mg, dl_sql_bexpr **vals, int32_t c, dl_sql_bexpr **out,
            dl_error *err) {
    uint32_t n_cl = mg->stmt->u.merge.n_clauses;
    dl_sql_bexpr **conds = dl_arena_alloc_zero(b->arena, (n_cl + 1) * sizeof(dl_sql_bexpr *));
    dl_sql_bexpr **results = dl_arena_alloc_zero(b->arena, (n_cl + 1) * sizeof(dl_sql_bexpr *));
    DL_CHECK(conds != NULL && results != NULL, err, DL_ERR_NOMEM, "out of memory");
    int32_t n = 0;
    for (uint32_t i = 0; i < n_cl; i++) {
        dl_sql_bexpr *v = vals[(size_t)i * (size_t)mg->n_out + (size_t)c];
        if (v == NULL) {
            continue;
        }
        DL_TRY(code_is(b, mg, (int64_t)i + 1, &conds[n], err));
        results[n++] = v;
    }
    dl_sql_bexpr *old = NULL;
    DL_TRY(old_value(b, mg, c, &old, err));
    if (n == 0) {
        *out = old;
        return DL_OK;
    }
    return dl_sql_binder_make_case(b, conds, results, n, old, mg->stmt->loc, out, err);
}

static dl_status
plan_projections(dl_sql_binder *b, merge *mg, dl_error *err) {
    uint32_t n_cl = mg->stmt->u.merge.n_clauses;
    /* First: the join's columns and the code. */
    dl_sql_bexpr **first =
        dl_arena_alloc_zero(b->arena, (size_t)(mg->width + 2) * sizeof(dl_sql_bexpr *));
    const char **names1 = dl_arena_alloc_zero(b->arena, (size_t)(mg->width + 2) * sizeof(char *));
    dl_sql_bexpr **vals =
        dl_arena_alloc_zero(b->arena, (n_cl + 1) * (size_t)mg->n_out * sizeof(dl_sql_bexpr *));
    DL_CHECK(first != NULL && names1 != NULL && vals != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < mg->width; i++) {
        first[i] = dl_sql_bexpr_column(b->arena, i, mg->plan->schema->fields[i].type);
        names1[i] = mg->plan->schema->fields[i].name;
        DL_CHECK(first[i] != NULL, err, DL_ERR_NOMEM, "out of memory");
    }
    DL_TRY(code_expr(b, mg, &first[mg->width], err));
    names1[mg->width] = "__dl_action";
    DL_TRY(clause_values(b, mg, vals, err));
    DL_TRY(dl_sql_plan_project(b, mg->plan, first, names1, mg->width + 1, &mg->plan, err));
    /* Second: the written columns, the code, the source marker and the target row's id. */
    int32_t n = mg->n_out;
    size_t cap = (size_t)n * 2 + 6;
    dl_sql_bexpr **second = dl_arena_alloc_zero(b->arena, cap * sizeof(dl_sql_bexpr *));
    const char **names2 = dl_arena_alloc_zero(b->arena, cap * sizeof(char *));
    DL_CHECK(second != NULL && names2 != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t c = 0; c < n; c++) {
        DL_TRY(column_expr(b, mg, vals, c, &second[c], err));
        names2[c] = mg->out->fields[c].name;
    }
    second[n] = dl_sql_bexpr_column(b->arena, mg->width, dl_vec_type_prim(DL_VEC_TYPE_LONG));
    second[n + 1] = dl_sql_bexpr_column(b->arena, mg->s_mark, mg->s_type);
    second[n + 2] =
        dl_sql_bexpr_column(b->arena, mg->t_id, mg->plan->schema->fields[mg->t_id].type);
    DL_CHECK(second[n] != NULL && second[n + 1] != NULL && second[n + 2] != NULL, err, DL_ERR_NOMEM,
             "out of memory");
    names2[n] = "__dl_action";
    names2[n + 1] = "__dl_source";
    names2[n + 2] = "__dl_row_id";
    int32_t width = n + 3;
    if (mg->t_pos >= 0) {
        DL_TRY(position_columns(b, mg->t_pos, second, names2, n + 3, err));
        width = n + 5;
    }
    mg->old_col = width;
    for (int32_t c = 0; mg->is_cdc && c < n; c++) {
        DL_TRY(old_value(b, mg, c, &second[width], err));
        names2[width++] = mg->out->fields[c].name;
    }
    return dl_sql_plan_project(b, mg->plan, second, names2, width, &mg->plan, err);
}

/* Change data: each clause's rows routed by its action (sql_dml_cdf.c). */
static void
route_changes(merge *mg, dl_sql_dml_sink *sink) {
    for (uint32_t i = 0; mg->cdf != NULL && i < mg->stmt->u.merge.n_clauses; i++) {
        const dl_sql_merge_clause *cl = &mg->stmt->u.merge.clauses[i];
        int64_t code = (int64_t)i + 1;
        if (cl->action == DL_SQL_MERGE_DELETE) {
            dl_sql_dml_cdf_route(sink, mg->cdf, mg->old_col, code, DL_SQL_CDF_NONE,
                                 DL_SQL_CDF_DELETE);
        } else if (cl->match == DL_SQL_MERGE_NOT_MATCHED) {
            dl_sql_dml_cdf_route(sink, mg->cdf, mg->old_col, code, DL_SQL_CDF_INSERT,
                                 DL_SQL_CDF_NONE);
        } else {
            dl_sql_dml_cdf_route(sink, mg->cdf, mg->old_col, code, DL_SQL_CDF_POSTIMAGE,
                                 DL_SQL_CDF_PREIMAGE);
        }
    }
}

/* ---- schema evolution -------------------------------------------------------------------- */

/* Whether a MATCHED or NOT MATCHED clause writes a column of this name (UPDATE SET name = ..,
 * INSERT (.., name, ..)), or any column by name (a `*` action) when name is NULL. */
static bool
is_written(const merge *mg, const char *name) {
    for (uint32_t i = 0; i < mg->stmt->u.merge.n_clauses; i++) {
        const dl_sql_merge_clause *cl = &mg->stmt->u.merge.clauses[i];
        if (cl->match == DL_SQL_MERGE_NOT_MATCHED_BY_SOURCE) {
            continue; /* these cannot name the source's columns */
        }
        if (cl->action == DL_SQL_MERGE_UPDATE_STAR || cl->action == DL_SQL_MERGE_INSERT_STAR) {
            return true;
        }
        for (uint32_t k = 0; name != NULL && k < cl->assigns.n; k++) {
            const dl_sql_name *col = &cl->assigns.items[k].column;
            if (dl_str_eq_nocase(col->parts[col->n_parts - 1].name, dl_str_from_cstr(name))) {
                return true;
            }
        }
        for (uint32_t k = 0; name != NULL && k < cl->columns.n; k++) {
            if (dl_str_eq_nocase(cl->columns.items[k].name, dl_str_from_cstr(name))) {
                return true;
            }
        }
    }
    return false;
}

/*
 * The schema written. Without schema evolution the target's. With it (MERGE WITH SCHEMA
 * EVOLUTION, or spark.databricks.delta.schema.autoMerge.enabled) the target's with the source
 * columns the clauses write merged in by name, as Delta's computePostEvolutionTargetSchema:
 * every source column when a clause is UPDATE SET * or INSERT *, else those named as a
 * column to write; new columns and struct fields are appended, nullable, and the target's
 * types are kept (no type widening: values are cast). The new schema is committed with the
 * rows.
 */
static dl_status
evolve(dl_sql_binder *b, merge *mg, dl_error *err) {
    const char *v =
        dl_sql_session_get(b->session, "spark.databricks.delta.schema.autoMerge.enabled");
    mg->is_evolving = mg->stmt->u.merge.with_schema_evolution || strcmp(v, "true") == 0;
    if (!mg->is_evolving) {
        return DL_OK;
    }
    dl_type_field *src = dl_arena_alloc_zero(b->arena, (size_t)(mg->source.n + 1) * sizeof(*src));
    DL_CHECK(src != NULL, err, DL_ERR_NOMEM, "out of memory evolving a schema");
    int32_t n = 0;
    for (int32_t i = 0; i < mg->source.n; i++) {
        const dl_sql_bcol *col = &mg->source.cols[i];
        if (!col->is_hidden && is_written(mg, col->name)) {
            src[n++] = (dl_type_field){.name = col->name, .type = col->type, .is_nullable = true};
        }
    }
    const dl_type *row = NULL;
    bool is_changed = false;
    DL_TRY(dl_vec_type_struct(b->arena, src, n, &row, err));
    DL_TRY(dl_sql_dml_schema_merge(b, dl_delta_snapshot_schema(mg->t.snap), row, &mg->evolved,
                                   &is_changed, err));
    if (!is_changed) {
        mg->evolved.type = NULL;
        return DL_OK;
    }
    mg->out = mg->evolved.type;
    mg->n_out = mg->out->n_fields;
    return DL_OK;
}

/* ---- the touched files ------------------------------------------------------------------- */

/* Only NOT MATCHED clauses: target rows are never rewritten. */
static bool
is_insert_only(const merge *mg) {
    for (uint32_t i = 0; i < mg->stmt->u.merge.n_clauses; i++) {
        if (mg->stmt->u.merge.clauses[i].match != DL_SQL_MERGE_NOT_MATCHED) {
            return false;
        }
    }
    return true;
}

/*
 * Whether a target row may meet one source row only (by the ON condition, whichever clauses
 * fire), as Spark's MergeIntoCommand checks: always, except in a MERGE that only inserts or
 * whose one MATCHED clause is an unconditional DELETE (every pair of such a row is deleted).
 */
static bool
is_match_unique(const merge *mg) {
    int32_t n_matched = 0;
    bool is_plain_delete = false;
    for (uint32_t i = 0; i < mg->stmt->u.merge.n_clauses; i++) {
        const dl_sql_merge_clause *cl = &mg->stmt->u.merge.clauses[i];
        if (cl->match == DL_SQL_MERGE_MATCHED) {
            n_matched++;
            is_plain_delete = cl->action == DL_SQL_MERGE_DELETE && cl->cond == NULL;
        }
    }
    return !is_insert_only(mg) && !(n_matched == 1 && is_plain_delete);
}

/* When a target row may meet several source rows because the one MATCHED clause is an
 * unconditional DELETE: that clause's code (the row is deleted and counted once, as Spark). */
static uint32_t
once_mask(const merge *mg) {
    if (is_match_unique(mg) || is_insert_only(mg)) {
        return 0;
    }
    for (uint32_t i = 0; i < mg->stmt->u.merge.n_clauses; i++) {
        if (mg->stmt->u.merge.clauses[i].match == DL_SQL_MERGE_MATCHED) {
            return 1u << (i + 1);
        }
    }
    return 0;
}

/* The codes of the clauses that change or delete a target row (all but NOT MATCHED ones). */
static uint32_t
target_clause_mask(const merge *mg) {
    uint32_t mask = 0;
    for (uint32_t i = 0; i < mg->stmt->u.merge.n_clauses; i++) {
        if (mg->stmt->u.merge.clauses[i].match != DL_SQL_MERGE_NOT_MATCHED) {
            mask |= 1u << (i + 1);
        }
    }
    return mask;
}

/*
 * Pass 1: the candidates joined with the source (INNER; LEFT when NOT MATCHED BY SOURCE
 * clauses may fire on unmatched rows), and the file of every row on which a MATCHED or NOT
 * MATCHED BY SOURCE clause fires marked touched -- of every matched row when the MERGE also
 * inserts, as Spark: pass 2 reads only the touched files, and a source row whose target row
 * were left out would be taken for unmatched and inserted.
 */
static dl_status
find_touched(dl_sql_binder *b, merge *mg, dl_error *err) {
    int64_t start = dl_sql_dml_clock_ms();
    bool has_nmbs = has_clause(mg, DL_SQL_MERGE_NOT_MATCHED_BY_SOURCE);
    DL_TRY(plan_join(b, mg, has_nmbs ? DL_SQL_JOIN_T_LEFT : DL_SQL_JOIN_T_INNER, err));
    dl_sql_plan_scan_restrict(mg->tscan, mg->files.candidates);
    dl_sql_bexpr *exprs[3] = {
        dl_sql_bexpr_column(b->arena, mg->t_id, dl_vec_type_prim(DL_VEC_TYPE_INT)),
        dl_sql_bexpr_column(b->arena, mg->s_mark, mg->s_type), NULL};
    DL_CHECK(exprs[0] != NULL && exprs[1] != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(code_expr(b, mg, &exprs[2], err));
    const char *names[3] = {"__dl_file", "__dl_source", "__dl_action"};
    dl_sql_plan *plan = NULL;
    DL_TRY(dl_sql_plan_project(b, mg->plan, exprs, names, 3, &plan, err));
    uint32_t mask = target_clause_mask(mg);
    /* Every matched row's file too when the MERGE inserts (pass 2 must see the match) or when
     * a target row may meet one source row only (pass 2 checks every match). */
    int32_t present = has_clause(mg, DL_SQL_MERGE_NOT_MATCHED) || is_match_unique(mg) ? 1 : -1;
    DL_TRY(dl_sql_dml_files_find(b, plan, 0, 2, mask, present, &mg->files, err));
    mg->scan_ms = dl_sql_dml_clock_ms() - start;
    return DL_OK;
}

/* ---- commit -----------------------------------------------------------------------------------
 */

static const char *
action_name(dl_sql_merge_action a) {
    switch (a) {
    case DL_SQL_MERGE_DELETE:
        return "delete";
    case DL_SQL_MERGE_INSERT:
    case DL_SQL_MERGE_INSERT_STAR:
        return "insert";
    default:
        return "update";
    }
}

/* A JSON array of {"predicate":..,"actionType":..} for the clauses of one kind. */
static dl_status
param_clauses(dl_sql_binder *b, merge *mg, dl_delta_tx *tx, const char *key,
              dl_sql_merge_match match, dl_error *err) {
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    dl_json_writer jw;
    dl_json_writer_init(&jw, &text, 0);
    dl_status s = dl_json_writer_begin_array(&jw, err);
    for (uint32_t i = 0; i < mg->stmt->u.merge.n_clauses && s == DL_OK; i++) {
        const dl_sql_merge_clause *cl = &mg->stmt->u.merge.clauses[i];
        if (cl->match != match) {
            continue;
        }
        s = dl_json_writer_begin_object(&jw, err);
        if (s == DL_OK && cl->cond != NULL) {
            s = dl_json_writer_key_cstr(&jw, "predicate", err);
            s = s == DL_OK ? dl_json_writer_string_cstr(&jw, dl_sql_dml_expr_text(b, cl->cond), err)
                           : s;
        }
        s = s == DL_OK ? dl_json_writer_key_cstr(&jw, "actionType", err) : s;
        s = s == DL_OK ? dl_json_writer_string_cstr(&jw, action_name(cl->action), err) : s;
        s = s == DL_OK ? dl_json_writer_end_object(&jw, err) : s;
    }
    s = s == DL_OK ? dl_json_writer_end_array(&jw, err) : s;
    s = s == DL_OK ? dl_delta_tx_param_string(tx, key, dl_buf_cstr(&text), err) : s;
    dl_json_writer_destroy(&jw);
    dl_buf_destroy(&text);
    return s;
}

typedef struct tally {
    int64_t updated, deleted, inserted, matched_updated, matched_deleted, nmbs_updated,
        nmbs_deleted;
} tally;

static tally
count_actions(const merge *mg, const dl_sql_dml_sink *sink) {
    tally t = {0};
    for (uint32_t i = 0; i < mg->stmt->u.merge.n_clauses; i++) {
        const dl_sql_merge_clause *cl = &mg->stmt->u.merge.clauses[i];
        int64_t k = sink->counts[i + 1];
        if (cl->action == DL_SQL_MERGE_DELETE) {
            t.deleted += k;
            t.matched_deleted += cl->match == DL_SQL_MERGE_MATCHED ? k : 0;
            t.nmbs_deleted += cl->match == DL_SQL_MERGE_NOT_MATCHED_BY_SOURCE ? k : 0;
        } else if (cl->match == DL_SQL_MERGE_NOT_MATCHED) {
            t.inserted += k;
        } else {
            t.updated += k;
            t.matched_updated += cl->match == DL_SQL_MERGE_MATCHED ? k : 0;
            t.nmbs_updated += cl->match == DL_SQL_MERGE_NOT_MATCHED_BY_SOURCE ? k : 0;
        }
    }
    return t;
}

static dl_status
stage_merge(dl_sql_binder *b, merge *mg, dl_delta_tx *tx, dl_ops_writer *w,
            const dl_sql_dml_sink *sink, dl_error *err) {
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_MERGE);
    const char *on = dl_sql_dml_expr_text(b, mg->stmt->u.merge.on);
    DL_TRY(dl_sql_dml_param_array(b, tx, "predicate", &on, 1, err));
    DL_TRY(param_clauses(b, mg, tx, "matchedPredicates", DL_SQL_MERGE_MATCHED, err));
    DL_TRY(param_clauses(b, mg, tx, "notMatchedPredicates", DL_SQL_MERGE_NOT_MATCHED, err));
    DL_TRY(param_clauses(b, mg, tx, "notMatchedBySourcePredicates",
                         DL_SQL_MERGE_NOT_MATCHED_BY_SOURCE, err));
    DL_TRY(dl_sql_dml_files_record_reads(tx, &mg->files, err));
    tally t = count_actions(mg, sink);
    bool is_changed = t.updated + t.deleted + t.inserted > 0;
    bool is_rewrite = is_changed && mg->files.n_touched > 0;
    dl_sql_dml_removed rm = {0};
    dl_delta_dv_marks_result dv = {0};
    if (is_rewrite && sink->marks != NULL) {
        DL_TRY(dl_sql_dml_marks_stage(&mg->t, tx, sink->marks, &dv, err));
        rm = (dl_sql_dml_removed){
            .n_files = dv.n_files_removed, .n_bytes = dv.removed_bytes, .n_dvs = dv.n_dvs_removed};
    } else if (is_rewrite) {
        DL_TRY(dl_sql_dml_files_remove(&mg->t, tx, &mg->files, &rm, err));
    }
    if (is_changed) {
        DL_TRY(dl_ops_writer_stage(w, tx, false, err));
    }
    int64_t n_cdc_files = 0;
    DL_TRY(dl_sql_dml_cdf_stage(mg->cdf, tx, &n_cdc_files, err));
    int64_t elapsed = dl_sql_dml_clock_ms() - mg->start_ms;
    bool is_copying = is_rewrite && sink->marks == NULL;
    dl_sql_dml_metric metrics[] = {
        {"numTargetRowsCopied", is_copying ? sink->counts[0] : 0},
        {"numTargetRowsDeleted", t.deleted},
        {"numTargetFilesAdded", is_changed ? (int64_t)dl_ops_writer_file_count(w) : 0},
        {"numTargetBytesAdded", is_changed ? dl_ops_writer_bytes(w) : 0},
        {"numTargetBytesRemoved", rm.n_bytes},
        {"numTargetDeletionVectorsAdded", dv.n_dvs_added},
        {"numTargetRowsMatchedUpdated", t.matched_updated},
        {"executionTimeMs", elapsed},
        {"numTargetRowsInserted", t.inserted},
        {"numTargetRowsMatchedDeleted", t.matched_deleted},
        {"numTargetDeletionVectorsUpdated", dv.n_dvs_updated},
        {"scanTimeMs", mg->scan_ms},
        {"numTargetRowsUpdated", t.updated},
        {"numOutputRows", is_changed ? dl_ops_writer_rows(w) : 0},
        {"numTargetDeletionVectorsRemoved", rm.n_dvs},
        {"numTargetRowsNotMatchedBySourceUpdated", t.nmbs_updated},
        {"numTargetChangeFilesAdded", n_cdc_files},
        {"numSourceRows", sink->n_source},
        {"numTargetFilesRemoved", rm.n_files},
        {"numTargetRowsNotMatchedBySourceDeleted", t.nmbs_deleted},
        {"rewriteTimeMs", elapsed - mg->scan_ms},
        {"materializeSourceTimeMs", 0}, /* the source is read once, not materialized */
    };
    return dl_sql_dml_set_metrics(tx, metrics, DL_ARRAY_LEN(metrics), err);
}

/* A sink's deletion vector fields: the target rows of the clauses that change them marked. */
static dl_status
sink_marks(dl_sql_binder *b, merge *mg, dl_sql_dml_sink *sink, dl_error *err) {
    if (mg->t_pos < 0) {
        return DL_OK;
    }
    DL_TRY(dl_sql_dml_marks_new(b, &mg->t, &sink->marks, err));
    sink->file_col = mg->n_out + 3;
    sink->row_col = mg->n_out + 4;
    sink->mark_mask = target_clause_mask(mg);
    return DL_OK;
}

static dl_status
run_merge(dl_sql_binder *b, merge *mg, dl_error *err) {
    /* Unchanged target rows (code 0) are copied back, except with deletion vectors. */
    uint32_t keep = is_insert_only(mg) || mg->t_pos >= 0 ? 0u : 1u;
    for (uint32_t i = 0; i < mg->stmt->u.merge.n_clauses; i++) {
        if (mg->stmt->u.merge.clauses[i].action != DL_SQL_MERGE_DELETE) {
            keep |= 1u << (i + 1);
        }
    }
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(mg->t.table, mg->t.snap, NULL, &tx, err));
    mg->t.schema = mg->out; /* the rows are written with the evolved schema */
    dl_ops_writer *w = NULL;
    dl_status s = DL_OK;
    if (mg->evolved.type != NULL) {
        /* staged first: under column mapping the new columns' ids name them in the files */
        dl_delta_metadata md = *dl_delta_snapshot_metadata(mg->t.snap);
        s = dl_sql_dml_schema_string(b, &mg->evolved, &md.schema_string, err);
        s = s == DL_OK ? dl_delta_tx_set_metadata(tx, &md, err) : s;
    }
    s = s == DL_OK ? dl_sql_dml_writer(b, &mg->t, tx, &w, err) : s;
    dl_sql_dml_sink sink = {.writer = w,
                            .schema = mg->out,
                            .code_col = mg->n_out,
                            .keep_mask = keep,
                            .source_col = mg->n_out + 1,
                            .id_col = mg->n_out + 2,
                            .is_match_unique = is_match_unique(mg),
                            .once_mask = once_mask(mg),
                            .arena = b->arena,
                            .target = mg->t.display};
    dl_hmap_init(&sink.seen, b->exec->alloc);
    dl_buf_init(&sink.sources, b->exec->alloc);
    if (s == DL_OK) {
        s = sink_marks(b, mg, &sink, err);
    }
    if (s == DL_OK && mg->is_cdc) {
        s = dl_sql_dml_cdf_new(b, &mg->t, tx, &mg->cdf, err);
        route_changes(mg, &sink);
    }
    if (s == DL_OK) {
        s = dl_sql_dml_run(b, mg->plan, &sink, err);
    }
    dl_hmap_destroy(&sink.seen);
    dl_buf_destroy(&sink.sources);
    if (s == DL_OK) {
        s = stage_merge(b, mg, tx, w, &sink, err);
    }
    if (s != DL_OK) {
        dl_sql_dml_discard(tx, w);
        return s;
    }
    tally t = count_actions(mg, &sink);
    if (t.updated + t.deleted + t.inserted == 0) {
        bool is_untouched =
            mg->files.n_touched == 0 && (!has_clause(mg, DL_SQL_MERGE_NOT_MATCHED_BY_SOURCE) ||
                                         dl_delta_snapshot_file_count(mg->t.snap) == 0);
        if (is_untouched && mg->evolved.type == NULL) {
            /* No row matched and none was inserted: Delta has no action to commit and commits
             * nothing (commitIfNeeded). With NOT MATCHED BY SOURCE clauses Delta rewrites
             * every file, and commits. */
            dl_sql_dml_discard(tx, w);
            return DL_OK;
        }
        dl_ops_writer_abort(w);
    }
    DL_TRY(dl_sql_dml_commit_counted(b, tx, w, err));
    dl_sql_dml_cdf_kept(mg->cdf);
    return DL_OK;
}

dl_status
dl_sql_dml_merge(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    if (stmt->u.merge.n_clauses > MAX_CLAUSES) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err,
                         "MERGE with more than %d WHEN clauses is not supported", MAX_CLAUSES);
    }
    merge *mg = dl_arena_alloc_zero(b->arena, sizeof(*mg));
    DL_CHECK(mg != NULL, err, DL_ERR_NOMEM, "out of memory");
    mg->stmt = stmt;
    mg->start_ms = dl_sql_dml_clock_ms();
    DL_TRY(dl_sql_dml_open(b, &stmt->u.merge.target, stmt->loc, &mg->t, err));
    mg->n = mg->t.schema->n_fields;
    mg->is_dv = dl_sql_dml_uses_dvs(&mg->t);
    mg->out = mg->t.schema;
    mg->n_out = mg->n;
    mg->is_cdc = dl_sql_dml_is_cdf(&mg->t) && !is_insert_only(mg);
    if (!is_insert_only(mg)) {
        DL_TRY(find_touched(b, mg, err));
    }
    DL_TRY(plan_join(b, mg, DL_SQL_JOIN_T_FULL, err));
    DL_TRY(evolve(b, mg, err));
    dl_sql_plan_scan_restrict(mg->tscan,
                              is_insert_only(mg) ? mg->files.candidates : mg->files.touched);
    DL_TRY(plan_projections(b, mg, err));
    return run_merge(b, mg, err);
}
