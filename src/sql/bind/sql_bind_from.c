/* SPDX-License-Identifier: Apache-2.0 */
/*
 * FROM items (sql_bind_int.h): tables of the warehouse and paths through the catalog, at the
 * version their time-travel clause names; CTE references; subqueries and VALUES; table
 * functions (range, read_parquet, delta_log); DESCRIBE relations; joins with ON, USING and
 * NATURAL, and comma-separated items as cross joins.
 */
#include <string.h>

#include "base/timefmt.h"
#include "sql/bind/sql_bind_int.h"

/* ---- scans of Delta tables ------------------------------------------------------------------ */

static void
release_snapshot(void *ctx) {
    dl_delta_snapshot_unref(ctx);
}

dl_status
dl_sql_hold_snapshot(dl_sql_binder *b, dl_delta_snapshot *snap, dl_error *err) {
    dl_status s = dl_arena_on_reset(b->arena, release_snapshot, snap, err);
    if (s != DL_OK) {
        dl_delta_snapshot_unref(snap);
    }
    return s;
}

/* A SCAN of every column of snap, named name in messages. The snapshot's reference is taken
 * over (released with the statement). */
dl_status
dl_sql_plan_delta_scan(dl_sql_binder *b, dl_delta_snapshot *snap, const char *name, uint32_t loc,
                       dl_sql_plan **out, dl_error *err) {
    DL_TRY(dl_sql_hold_snapshot(b, snap, err));
    const dl_delta_schema *schema = dl_delta_snapshot_schema(snap);
    const dl_type *type = schema->type;
    if (type == NULL) {
        DL_TRY(dl_vec_type_struct(b->arena, NULL, 0, &type, err));
    }
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(b->arena, DL_SQL_PLAN_SCAN, type->fields, type->n_fields, &p, err));
    dl_sql_scan *scan = &p->u.scan;
    scan->source = DL_SQL_SCAN_DELTA;
    scan->table_name = name;
    scan->snapshot = snap;
    scan->table_schema = type;
    scan->n_columns = type->n_fields;
    scan->columns = dl_arena_alloc_zero(b->arena, (size_t)(type->n_fields + 1) * sizeof(int32_t));
    DL_CHECK(scan->columns != NULL, err, DL_ERR_NOMEM, "out of memory planning a scan");
    for (int32_t i = 0; i < type->n_fields; i++) {
        scan->columns[i] = i;
    }
    scan->limit = -1;
    p->loc = loc;
    p->est_rows = dl_sql_snapshot_rows_estimate(snap);
    *out = p;
    return DL_OK;
}

/* Appends the hidden columns hidden[0..n_hidden) (DL_SQL_SCAN_FILE_INDEX, ..._ROW_INDEX) to the
 * scan p. */
static dl_status
add_hidden(dl_sql_binder *b, dl_sql_plan *p, const int32_t *hidden, int32_t n_hidden,
           dl_error *err) {
    int32_t n = p->n_cols;
    dl_type_field *fields = dl_arena_alloc_zero(b->arena, (size_t)(n + n_hidden) * sizeof(*fields));
    int32_t *cols = dl_arena_alloc_zero(b->arena, (size_t)(n + n_hidden) * sizeof(int32_t));
    DL_CHECK(fields != NULL && cols != NULL, err, DL_ERR_NOMEM, "out of memory planning a scan");
    for (int32_t i = 0; i < n; i++) {
        fields[i] = p->schema->fields[i];
        cols[i] = p->u.scan.columns[i];
    }
    for (int32_t k = 0; k < n_hidden; k++) {
        bool is_file = hidden[k] == DL_SQL_SCAN_FILE_INDEX;
        fields[n + k] =
            (dl_type_field){.name = is_file ? "__dl_file" : "__dl_row",
                            .type = dl_vec_type_prim(is_file ? DL_VEC_TYPE_INT : DL_VEC_TYPE_LONG)};
        cols[n + k] = hidden[k];
    }
    DL_TRY(dl_vec_type_struct(b->arena, fields, n + n_hidden, &p->schema, err));
    p->n_cols = n + n_hidden;
    p->u.scan.columns = cols;
    p->u.scan.n_columns = n + n_hidden;
    return DL_OK;
}

dl_status
dl_sql_plan_delta_scan_files(dl_sql_binder *b, dl_delta_snapshot *snap, const char *name,
                             uint32_t loc, dl_sql_plan **out, dl_error *err) {
    DL_TRY(dl_sql_plan_delta_scan(b, snap, name, loc, out, err));
    static const int32_t hidden[] = {DL_SQL_SCAN_FILE_INDEX};
    return add_hidden(b, *out, hidden, 1, err);
}

dl_status
dl_sql_plan_delta_scan_rows(dl_sql_binder *b, dl_delta_snapshot *snap, const char *name,
                            uint32_t loc, dl_sql_plan **out, dl_error *err) {
    DL_TRY(dl_sql_plan_delta_scan(b, snap, name, loc, out, err));
    static const int32_t hidden[] = {DL_SQL_SCAN_FILE_INDEX, DL_SQL_SCAN_ROW_INDEX};
    return add_hidden(b, *out, hidden, 2, err);
}

void
dl_sql_plan_scan_restrict(dl_sql_plan *scan, const uint8_t *file_set) {
    size_t n_files = dl_delta_snapshot_file_count(scan->u.scan.snapshot);
    size_t n_set = 0;
    for (size_t i = 0; i < n_files; i++) {
        n_set += file_set[i] != 0 ? 1 : 0;
    }
    scan->u.scan.file_set = file_set;
    if (scan->est_rows > 0 && n_files > 0) {
        scan->est_rows = scan->est_rows * (double)n_set / (double)n_files;
    }
}

/* The version or timestamp a time-travel clause names, as a snapshot of table. */
dl_status
dl_sql_travel(dl_sql_binder *b, dl_delta_table *table, const dl_sql_time_travel *tt,
              dl_delta_snapshot **out, dl_error *err) {
    if (tt->kind == DL_SQL_TT_NONE) {
        return dl_delta_snapshot_latest(table, NULL, out, err);
    }
    dl_sql_scope empty = {0};
    dl_sql_bctx cx = {.b = b, .scope = &empty, .clause = "a time-travel clause"};
    if (tt->kind == DL_SQL_TT_TIMESTAMP && tt->syntax == DL_SQL_TT_AT) {
        int64_t us = 0;
        DL_TRY(dl_ts_parse_compact(tt->expr->u.lit.text, 0, &us, err));
        return dl_delta_snapshot_at_timestamp(table, dl_ts_to_millis(us), NULL, out, err);
    }
    dl_sql_bexpr *e = NULL;
    DL_TRY(dl_sql_binder_expr(&cx, tt->expr, &e, err));
    if (!dl_sql_bexpr_is_constant(e)) {
        DL_SQL_BIND_FAIL(b, tt->loc, DL_ERR_SQL_BIND, err,
                         "a time-travel clause needs a constant expression");
    }
    bool is_version = tt->kind == DL_SQL_TT_VERSION;
    const dl_type *want = dl_vec_type_prim(is_version ? DL_VEC_TYPE_LONG : DL_VEC_TYPE_TIMESTAMP);
    int64_t x = 0;
    bool is_null = false;
    DL_TRY(dl_sql_binder_const_i64(b, e, want, &x, &is_null, err));
    if (is_null) {
        DL_SQL_BIND_FAIL(b, tt->loc, DL_ERR_SQL_BIND, err, "the time-travel %s is NULL",
                         is_version ? "version" : "timestamp");
    }
    if (is_version) {
        return dl_delta_snapshot_at_version(table, x, NULL, out, err);
    }
    return dl_delta_snapshot_at_timestamp(table, dl_ts_to_millis(x), NULL, out, err);
}

/* A time-travel suffix of a path (delta.`/p@v3`, delta.`/p@20261002080000000`). */
typedef struct fixed_tt {
    bool is_set;
    bool is_version;
    int64_t value; /* version, or ms */
} fixed_tt;

/* Splits the suffix off *path into *out (is_set false when there is none). */
static dl_status
path_suffix(dl_sql_binder *b, const dl_sql_tref *tref, const char **path, fixed_tt *out,
            dl_error *err) {
    dl_str p = dl_str_from_cstr(*path);
    dl_str rest;
    dl_delta_tt tt;
    dl_status s = dl_delta_tt_parse_suffix(p, 0, &rest, &tt, err);
    if (s != DL_OK) {
        dl_sql_binder_locate(b, tref->loc, err);
        return s;
    }
    if (tt.kind == DL_DELTA_TT_NONE) {
        return DL_OK;
    }
    *path = dl_arena_strndup(b->arena, rest.ptr, rest.len);
    DL_CHECK(*path != NULL, err, DL_ERR_NOMEM, "out of memory");
    *out = (fixed_tt){.is_set = true,
                      .is_version = tt.kind == DL_DELTA_TT_VERSION,
                      .value = tt.kind == DL_DELTA_TT_VERSION ? tt.version : tt.ts_ms};
    return DL_OK;
}

static dl_status
travel_fixed(dl_delta_table *table, const fixed_tt *tt, dl_delta_snapshot **out, dl_error *err) {
    if (tt->is_version) {
        return dl_delta_snapshot_at_version(table, tt->value, NULL, out, err);
    }
    return dl_delta_snapshot_at_timestamp(table, tt->value, NULL, out, err);
}

/* parquet.`path`, csv.`path`, json.`path`: Spark's direct query of files, as
 * read_parquet('path'), read_csv('path') and read_json('path') with the default options. */
static dl_status
file_path(dl_sql_binder *b, const dl_sql_tref *tref, const char *fn_name, dl_sql_rel *out,
          dl_error *err) {
    const dl_sql_ident *last = &tref->u.table.name.parts[1];
    dl_sql_expr *arg = dl_arena_alloc_zero(b->arena, sizeof(*arg));
    dl_sql_expr **args = dl_arena_alloc_zero(b->arena, sizeof(void *));
    dl_sql_ident *fname = dl_arena_alloc_zero(b->arena, sizeof(*fname));
    DL_CHECK(arg != NULL && args != NULL && fname != NULL, err, DL_ERR_NOMEM, "out of memory");
    *arg = (dl_sql_expr){.kind = DL_SQL_EXPR_LITERAL, .loc = last->loc, .height = 1};
    arg->u.lit.kind = DL_SQL_LIT_STRING;
    arg->u.lit.text = last->name;
    args[0] = arg;
    *fname = (dl_sql_ident){.name = dl_str_from_cstr(fn_name), .loc = tref->loc};
    dl_sql_tref fn = *tref;
    fn.kind = DL_SQL_TREF_FUNC;
    fn.u.func.name = (dl_sql_name){.parts = fname, .n_parts = 1};
    fn.u.func.args = (dl_sql_expr_list){.items = args, .n = 1};
    return dl_sql_binder_table_fn(b, &fn, out, err);
}

/* global_temp.v: a GLOBAL TEMP view, or TABLE_OR_VIEW_NOT_FOUND. */
static dl_status
global_temp_view(dl_sql_binder *b, const dl_sql_tref *tref, dl_sql_rel *out, dl_error *err) {
    const dl_sql_ident *last = &tref->u.table.name.parts[1];
    dl_sql_temp_rel *rel = dl_sql_session_global_temp(b->session, last->name);
    if (rel == NULL) {
        DL_SQL_BIND_FAIL(b, tref->loc, DL_ERR_NOT_FOUND, err,
                         "[TABLE_OR_VIEW_NOT_FOUND] the global temporary view "
                         "`global_temp`.`%s` cannot be found",
                         last->name.ptr);
    }
    return dl_sql_binder_view(b, dl_sql_temp_rel_view(rel), tref, out, err);
}

/* A table reference: a CTE, a temporary view or relation, delta.`path`, parquet.`path`,
 * csv.`path`, json.`path`, schema.table, or a persistent view. */
dl_status
dl_sql_binder_table(dl_sql_binder *b, const dl_sql_tref *tref, dl_sql_rel *out, dl_error *err) {
    const dl_sql_name *n = &tref->u.table.name;
    const dl_sql_ident *last = &n->parts[n->n_parts - 1];
    if (n->n_parts == 1 && tref->u.table.tt.kind == DL_SQL_TT_NONE) {
        for (dl_sql_cte_ref *c = b->ctes; c != NULL; c = c->next) {
            if (dl_str_eq_nocase(c->cte->name.name, last->name)) {
                return dl_sql_binder_cte(b, c, tref, out, err);
            }
        }
    }
    dl_sql_temp_rel *temp = n->n_parts == 1 && b->temp_mode != DL_SQL_TEMP_HIDDEN
                                ? dl_sql_session_temp_rel(b->session, last->name)
                                : NULL;
    if (temp != NULL && b->temp_mode == DL_SQL_TEMP_REFUSED) {
        DL_SQL_BIND_FAIL(b, tref->loc, DL_ERR_SQL_BIND, err,
                         "[INVALID_TEMP_OBJ_REFERENCE] a persistent view cannot refer to the "
                         "temporary %s `%s`: make `%s` persistent, or the new view temporary",
                         dl_sql_temp_rel_view(temp) != NULL ? "view" : "relation", last->name.ptr,
                         last->name.ptr);
    }
    if (temp != NULL && dl_sql_temp_rel_view(temp) != NULL) {
        return dl_sql_binder_view(b, dl_sql_temp_rel_view(temp), tref, out, err);
    }
    if (temp != NULL) {
        return dl_sql_binder_temp_rel(b, temp, tref, out, err);
    }
    if (dl_sql_name_is_global_temp(n)) {
        return global_temp_view(b, tref, out, err);
    }
    if (n->n_parts == 2 && last->is_quoted &&
        dl_str_eq_nocase(n->parts[0].name, DL_STR("parquet"))) {
        return file_path(b, tref, "read_parquet", out, err); /* parquet.`dir` or a glob */
    }
    if (n->n_parts == 2 && last->is_quoted && dl_str_eq_nocase(n->parts[0].name, DL_STR("csv"))) {
        return file_path(b, tref, "read_csv", out, err);
    }
    if (n->n_parts == 2 && last->is_quoted && dl_str_eq_nocase(n->parts[0].name, DL_STR("json"))) {
        return file_path(b, tref, "read_json", out, err);
    }
    dl_sql_catalog *cat = &b->session->catalog;
    dl_delta_table *table = NULL;
    dl_status s = DL_OK;
    const char *schema = n->n_parts >= 2 ? n->parts[n->n_parts - 2].name.ptr : b->view_schema;
    bool is_path =
        n->n_parts == 2 && last->is_quoted && dl_str_eq_nocase(n->parts[0].name, DL_STR("delta"));
    const char *path = last->name.ptr;
    fixed_tt fixed = {0};
    if (is_path && tref->u.table.tt.kind == DL_SQL_TT_NONE) {
        DL_TRY(path_suffix(b, tref, &path, &fixed, err)); /* delta.`/p@v3` */
    }
    if (is_path) {
        s = cat->open_path != NULL ? cat->open_path(cat->ctx, path, &table, err)
                                   : dl_error_set(err, DL_ERR_UNSUPPORTED, "no catalog");
    } else {
        s = cat->open_table != NULL
                ? cat->open_table(cat->ctx, schema, last->name.ptr, &table, err)
                : dl_error_set(err, DL_ERR_NOT_FOUND, "table '%s' not found: no catalog",
                               last->name.ptr);
    }
    if (s == DL_ERR_NOT_FOUND && !is_path) {
        const dl_sql_view *view = NULL;
        dl_error table_err;
        if (err != NULL) {
            table_err = *err; /* the table's message stays when there is no view either */
        }
        DL_TRY(dl_sql_binder_find_view(b, n, false, &view, err));
        if (view != NULL) {
            return dl_sql_binder_view(b, view, tref, out, err);
        }
        if (err != NULL) {
            *err = table_err;
        }
    }
    if (s != DL_OK) {
        dl_sql_binder_locate(b, n->parts[0].loc, err);
        return s;
    }
    dl_delta_snapshot *snap = NULL;
    s = fixed.is_set ? travel_fixed(table, &fixed, &snap, err)
                     : dl_sql_travel(b, table, &tref->u.table.tt, &snap, err);
    dl_delta_table_free(table);
    const char *display = is_path ? dl_arena_printf(b->arena, "delta.`%s`", path) : last->name.ptr;
    if (s != DL_OK) {
        dl_error_prefix(err, "table %s", display == NULL ? "?" : display);
        dl_sql_binder_locate(b, tref->loc, err);
        return s;
    }
    DL_TRY(dl_sql_plan_delta_scan(b, snap, display, tref->loc, &out->plan, err));
    const char *qual = tref->has_alias ? tref->alias.name.ptr : (is_path ? NULL : last->name.ptr);
    DL_TRY(dl_sql_plan_rename(b, out->plan, &tref->column_aliases, tref->loc, &out->plan, err));
    DL_TRY(dl_sql_scope_of(b, out->plan, qual, &out->scope, err));
    for (int32_t i = 0; i < out->scope.n && !is_path && !tref->has_alias; i++) {
        out->scope.cols[i].schema = schema;
    }
    return DL_OK;
}

dl_status
dl_sql_binder_cte(dl_sql_binder *b, dl_sql_cte_ref *ref, const dl_sql_tref *tref, dl_sql_rel *out,
                  dl_error *err) {
    DL_TRY(dl_sql_binder_cte_plan(b, ref, &out->plan, err));
    DL_TRY(
        dl_sql_plan_rename(b, out->plan, &ref->cte->columns, ref->cte->name.loc, &out->plan, err));
    DL_TRY(dl_sql_plan_rename(b, out->plan, &tref->column_aliases, tref->loc, &out->plan, err));
    const char *qual = tref->has_alias ? tref->alias.name.ptr : ref->cte->name.name.ptr;
    return dl_sql_scope_of(b, out->plan, qual, &out->scope, err);
}

/* ---- joins --------------------------------------------------------------------------------- */

/* scope of left ++ right (right's indexes shifted by left's width). */
dl_status
dl_sql_concat_scopes(dl_sql_binder *b, const dl_sql_rel *left, const dl_sql_rel *right,
                     dl_sql_scope *out, dl_error *err) {
    int32_t n = left->scope.n + right->scope.n;
    dl_sql_bcol *cols = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(*cols));
    DL_CHECK(cols != NULL, err, DL_ERR_NOMEM, "out of memory binding a join");
    memcpy(cols, left->scope.cols, (size_t)left->scope.n * sizeof(*cols));
    for (int32_t i = 0; i < right->scope.n; i++) {
        cols[left->scope.n + i] = right->scope.cols[i];
        cols[left->scope.n + i].index += left->plan->n_cols;
    }
    *out = (dl_sql_scope){.cols = cols, .n = n, .outer = left->scope.outer};
    return DL_OK;
}

dl_status
dl_sql_join_plan(dl_sql_binder *b, dl_sql_plan *left, dl_sql_plan *right, dl_sql_join_type type,
                 uint32_t loc, dl_sql_plan **out, dl_error *err) {
    bool left_only = type == DL_SQL_JOIN_T_SEMI || type == DL_SQL_JOIN_T_ANTI;
    int32_t n = left->n_cols + (left_only ? 0 : right->n_cols);
    dl_type_field *cols = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(*cols));
    DL_CHECK(cols != NULL, err, DL_ERR_NOMEM, "out of memory planning a join");
    dl_sql_copy(cols, left->schema->fields, (size_t)left->n_cols * sizeof(*cols));
    if (!left_only) {
        dl_sql_copy(cols + left->n_cols, right->schema->fields,
                    (size_t)right->n_cols * sizeof(*cols));
    }
    for (int32_t i = 0; i < n; i++) {
        cols[i].is_nullable = true;
    }
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(b->arena, DL_SQL_PLAN_JOIN, cols, n, &p, err));
    p->left = left;
    p->right = right;
    p->loc = loc;
    p->u.join.type = type;
    p->est_rows = DL_MAX(left->est_rows, right->est_rows);
    *out = p;
    return DL_OK;
}

dl_status
dl_sql_rel_cross(dl_sql_binder *b, dl_sql_rel *left, const dl_sql_rel *right, uint32_t loc,
                 dl_error *err) {
    dl_sql_scope scope = {0};
    DL_TRY(dl_sql_concat_scopes(b, left, right, &scope, err));
    DL_TRY(
        dl_sql_join_plan(b, left->plan, right->plan, DL_SQL_JOIN_T_CROSS, loc, &left->plan, err));
    left->scope = scope;
    return DL_OK;
}

/* Splits cond (over left ++ right) into equi-join keys and a residual. */
dl_status
dl_sql_join_split(dl_sql_binder *b, dl_sql_plan *j, dl_sql_bexpr *cond, dl_error *err) {
    int32_t nl = j->left->n_cols;
    int32_t nt = nl + j->right->n_cols;
    dl_sql_bexpr **conj = cond->kind == DL_SQL_BEXPR_AND ? cond->args : &cond;
    int32_t n = cond->kind == DL_SQL_BEXPR_AND ? cond->n_args : 1;
    dl_sql_join *jn = &j->u.join;
    size_t cap = (size_t)n + (size_t)jn->n_keys + 1;
    jn->left_keys = dl_arena_alloc_zero(b->arena, cap * sizeof(void *));
    jn->right_keys = dl_arena_alloc_zero(b->arena, cap * sizeof(void *));
    jn->is_null_equal = dl_arena_alloc_zero(b->arena, cap);
    dl_sql_bexpr **rest = dl_arena_alloc_zero(b->arena, cap * sizeof(void *));
    DL_CHECK(jn->left_keys != NULL && jn->right_keys != NULL && jn->is_null_equal != NULL &&
                 rest != NULL,
             err, DL_ERR_NOMEM, "out of memory planning a join");
    jn->n_keys = 0;
    int32_t n_rest = 0;
    for (int32_t i = 0; i < n; i++) {
        bool is_key = false;
        DL_TRY(dl_sql_join_try_key(b->arena, jn, conj[i], nl, nt, &is_key, err));
        if (!is_key) {
            rest[n_rest++] = conj[i];
        }
    }
    if (n_rest == 1) {
        jn->residual = rest[0];
    } else if (n_rest > 1) {
        jn->residual = dl_sql_bexpr_new(b, DL_SQL_BEXPR_AND, cond->type, cond->loc, n_rest);
        DL_CHECK(jn->residual != NULL, err, DL_ERR_NOMEM, "out of memory planning a join");
        memcpy(jn->residual->args, rest, (size_t)n_rest * sizeof(void *));
    }
    return DL_OK;
}

double
dl_sql_snapshot_rows_estimate(const dl_delta_snapshot *snap) {
    /* Without reading statistics: Parquet rows of a typical table are tens of bytes. */
    return (double)dl_delta_snapshot_total_bytes(snap) / 16.0;
}
