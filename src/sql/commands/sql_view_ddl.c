/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CREATE VIEW, DROP VIEW / TABLE / SCHEMA and SHOW VIEWS (sql_dml.h), as Spark 4 runs them.
 *
 * Where a view lives: TEMP views in the session (they hide tables of the same name, as a
 * registered Arrow relation does: one namespace), GLOBAL TEMP views in the session under the
 * schema global_temp (reached only as global_temp.v), persistent views in the warehouse
 * through the catalog (cat_view.c: one file per view, written whole or not at all). Tables and
 * persistent views share a namespace: a view may not take a table's name, nor the reverse.
 *
 * DROP TABLE also drops a view of the name (Spark does), temporary first; a table addressed by
 * path (delta.`/p`) is only forgotten, its files kept, as Spark does -- the statement says so
 * in a one-row result. A table of the warehouse is managed: its folder goes (cat_drop.c).
 */
#include <string.h>

#include "sql/bind/sql_describe_int.h"
#include "sql/commands/sql_dml.h"
#include "sql/func/sql_func.h"

/* The last part of a name, and the schema part (NULL when unqualified). */
static const char *
last_part(const dl_sql_name *n) {
    return n->parts[n->n_parts - 1].name.ptr;
}

static const char *
schema_part(const dl_sql_name *n) {
    return n->n_parts >= 2 ? n->parts[n->n_parts - 2].name.ptr : NULL;
}

static const char *
current_schema(dl_sql_binder *b) {
    dl_sql_catalog *cat = &b->session->catalog;
    const char *cur = cat->current_schema != NULL ? cat->current_schema(cat->ctx) : NULL;
    return cur != NULL ? cur : "default";
}

/* s with ASCII letters lowercased, in the statement arena (NULL stays NULL). */
static const char *
fold(dl_sql_binder *b, const char *s) {
    if (s == NULL) {
        return NULL;
    }
    char *out = dl_arena_strndup(b->arena, s, strlen(s));
    for (char *p = out; p != NULL && *p != '\0'; p++) {
        if (*p >= 'A' && *p <= 'Z') {
            *p = (char)(*p + ('a' - 'A'));
        }
    }
    return out;
}

/* A one-row result (column `result`) saying what a statement did or did not do. */
dl_status
dl_sql_notice(dl_sql_binder *b, const char *text, dl_sql_plan **out, dl_error *err) {
    static const char *const names[] = {"result"};
    return dl_sql_plan_strings(b, names, 1, &text, 1, out, err);
}

/* ---- CREATE VIEW ---------------------------------------------------------------------------- */

typedef struct view_spec {
    const dl_sql_stmt *stmt;
    dl_sql_view view;
    bool is_global;
    bool is_persistent;
} view_spec;

static dl_status
check_view_name(dl_sql_binder *b, view_spec *vs, dl_error *err) {
    const dl_sql_stmt *stmt = vs->stmt;
    const dl_sql_name *n = &stmt->u.create_view.name;
    uint32_t loc = n->parts[0].loc;
    if (stmt->u.create_view.if_not_exists && stmt->u.create_view.or_replace) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_SQL_BIND, err,
                         "[INVALID_SQL_SYNTAX.CREATE_ROUTINE_WITH_IF_NOT_EXISTS_AND_REPLACE] "
                         "CREATE VIEW cannot have both OR REPLACE and IF NOT EXISTS");
    }
    if (!vs->is_persistent && stmt->u.create_view.if_not_exists) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_SQL_BIND, err,
                         "[INVALID_SQL_SYNTAX.CREATE_TEMP_VIEW_WITH_IF_NOT_EXISTS] a temporary "
                         "view cannot be created IF NOT EXISTS; write CREATE OR REPLACE TEMP VIEW");
    }
    bool is_global_name = dl_sql_name_is_global_temp(n);
    if (n->n_parts > 2 || (!vs->is_persistent && n->n_parts == 2 && !is_global_name) ||
        (vs->is_persistent && is_global_name) || dl_sql_name_is_path(n)) {
        DL_SQL_BIND_FAIL(b, loc, DL_ERR_SQL_BIND, err, "%s",
                         vs->is_persistent
                             ? "[SCHEMA_NOT_FOUND] a persistent view cannot be made there: "
                               "global_temp holds GLOBAL TEMP views only, and a view's name is "
                               "view or schema.view"
                             : "[TEMP_VIEW_NAME_TOO_MANY_NAME_PARTS] a temporary view's name has "
                               "no schema: write the name alone (GLOBAL TEMP views may be "
                               "written global_temp.v)");
    }
    vs->view.name = vs->is_persistent ? fold(b, last_part(n)) : last_part(n);
    vs->view.schema = vs->is_persistent
                          ? fold(b, schema_part(n) != NULL ? schema_part(n) : current_schema(b))
                      : vs->is_global ? "global_temp"
                                      : NULL;
    DL_CHECK(vs->view.name != NULL && (vs->view.schema != NULL || !vs->is_persistent), err,
             DL_ERR_NOMEM, "out of memory creating a view");
    vs->view.current_schema = current_schema(b);
    return DL_OK;
}

/* The view's column names: the column list's, else the query's; checked for arity and
 * duplicates as Spark checks them. */
static dl_status
view_columns(dl_sql_binder *b, view_spec *vs, const dl_sql_plan *plan, dl_error *err) {
    const dl_sql_stmt *stmt = vs->stmt;
    const dl_sql_ident_list *cols = &stmt->u.create_view.columns;
    int32_t n = plan->n_cols;
    if (cols->n > 0 && (int32_t)cols->n != n) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_SQL_BIND, err,
                         "[CREATE_VIEW_COLUMN_ARITY_MISMATCH.%s] cannot create view `%s`: the "
                         "view names %u column(s), its query gives %d",
                         (int32_t)cols->n < n ? "TOO_MANY_DATA_COLUMNS" : "NOT_ENOUGH_DATA_COLUMNS",
                         vs->view.name, (unsigned)cols->n, (int)n);
    }
    dl_type_field *fields = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(*fields));
    vs->view.query_names = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(char *));
    vs->view.comments = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(char *));
    DL_CHECK(fields != NULL && vs->view.query_names != NULL && vs->view.comments != NULL, err,
             DL_ERR_NOMEM, "out of memory creating a view");
    for (int32_t i = 0; i < n; i++) {
        fields[i] = plan->schema->fields[i];
        fields[i].is_nullable = true;
        vs->view.query_names[i] = plan->schema->fields[i].name;
        if (cols->n > 0) {
            fields[i].name = cols->items[i].name.ptr;
            dl_str c = stmt->u.create_view.column_comments[i];
            vs->view.comments[i] = c.ptr != NULL ? c.ptr : NULL;
        }
        for (int32_t j = 0; j < i; j++) {
            if (dl_str_eq_nocase(dl_str_from_cstr(fields[j].name),
                                 dl_str_from_cstr(fields[i].name))) {
                DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_SQL_BIND, err,
                                 "[COLUMN_ALREADY_EXISTS] the view `%s` would have the column "
                                 "`%s` twice; name the columns (CREATE VIEW %s (a, b, ...) AS ...) "
                                 "or alias them in the query",
                                 vs->view.name, fields[i].name, vs->view.name);
            }
        }
    }
    const dl_type *row = NULL;
    DL_TRY(dl_vec_type_struct(b->arena, fields, n, &row, err));
    dl_status s = dl_delta_schema_from_type(row, b->arena, &vs->view.columns, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "cannot create view `%s`", vs->view.name);
        dl_sql_binder_locate(b, stmt->loc, err);
    }
    return s;
}

static dl_status
view_props(dl_sql_binder *b, view_spec *vs, dl_error *err) {
    const dl_sql_prop_list *props = &vs->stmt->u.create_view.props;
    int32_t n = (int32_t)props->n;
    vs->view.prop_keys = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(char *));
    vs->view.prop_values = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(char *));
    DL_CHECK(vs->view.prop_keys != NULL && vs->view.prop_values != NULL, err, DL_ERR_NOMEM,
             "out of memory creating a view");
    for (int32_t i = 0; i < n; i++) {
        vs->view.prop_keys[i] = props->items[i].key.ptr;
        vs->view.prop_values[i] = props->items[i].has_value ? props->items[i].value.ptr : "";
    }
    vs->view.n_props = n;
    if (vs->stmt->u.create_view.has_comment) {
        vs->view.comment = vs->stmt->u.create_view.comment.ptr;
    }
    return DL_OK;
}

/* The query's SQL as written: from its first token to the statement's end. */
static dl_status
view_text(dl_sql_binder *b, view_spec *vs, dl_error *err) {
    uint32_t from = vs->stmt->u.create_view.query->loc;
    uint32_t to = vs->stmt->end;
    DL_CHECK(b->text != NULL && from < to && to <= b->text_len, err, DL_ERR_INTERNAL,
             "CREATE VIEW: the query's text is out of reach");
    vs->view.text = dl_arena_strndup(b->arena, b->text + from, to - from);
    DL_CHECK(vs->view.text != NULL, err, DL_ERR_NOMEM, "out of memory creating a view");
    return DL_OK;
}

static dl_status
already_exists(dl_sql_binder *b, const view_spec *vs, const char *what, dl_error *err) {
    DL_SQL_BIND_FAIL(b, vs->stmt->u.create_view.name.parts[0].loc, DL_ERR_EXISTS, err,
                     "[%s] cannot create view %s: %s of that name already exists",
                     vs->is_persistent ? "TABLE_OR_VIEW_ALREADY_EXISTS"
                                       : "TEMP_TABLE_OR_VIEW_ALREADY_EXISTS",
                     dl_sql_view_display(b, &vs->view), what);
}

/* A persistent view: refused over a table, then written (replaced, or created if absent). */
static dl_status
store_view(dl_sql_binder *b, view_spec *vs, dl_error *err) {
    dl_sql_catalog *cat = &b->session->catalog;
    DL_CHECK(cat->write_view != NULL && cat->open_table != NULL, err, DL_ERR_UNSUPPORTED,
             "no catalog for CREATE VIEW");
    dl_delta_table *table = NULL;
    dl_status s = cat->open_table(cat->ctx, vs->view.schema, vs->view.name, &table, err);
    dl_delta_table_free(table);
    if (s == DL_OK) {
        return already_exists(b, vs, "a table", err);
    }
    if (s != DL_ERR_NOT_FOUND) {
        dl_sql_binder_locate(b, vs->stmt->loc, err);
        return s;
    }
    dl_buf text;
    dl_buf_init(&text, b->session->alloc);
    s = dl_sql_view_encode(&vs->view, &text, err);
    if (s == DL_OK) {
        s = cat->write_view(cat->ctx, vs->view.schema, vs->view.name, (const char *)text.data,
                            text.len, vs->stmt->u.create_view.or_replace, err);
    }
    dl_buf_destroy(&text);
    if (s == DL_ERR_EXISTS && vs->stmt->u.create_view.if_not_exists) {
        dl_error_clear(err);
        return DL_OK;
    }
    if (s == DL_ERR_EXISTS) {
        return already_exists(b, vs, "a view", err);
    }
    if (s != DL_OK) {
        dl_sql_binder_locate(b, vs->stmt->loc, err);
    }
    return s;
}

static dl_status
register_temp(dl_sql_binder *b, view_spec *vs, dl_error *err) {
    dl_sql_session *session = b->session;
    dl_str name = dl_str_from_cstr(vs->view.name);
    bool exists = vs->is_global ? dl_sql_session_global_temp(session, name) != NULL
                                : dl_sql_session_temp_rel(session, name) != NULL;
    if (exists && !vs->stmt->u.create_view.or_replace) {
        return already_exists(b, vs, "a temporary view", err);
    }
    vs->view.is_temp = true;
    dl_sql_temp_rel *rel = NULL;
    DL_TRY(dl_sql_temp_rel_new_view(session->alloc, &vs->view, &rel, err));
    return vs->is_global ? dl_sql_session_register_global(session, rel, err)
                         : dl_sql_session_register(session, rel, err);
}

dl_status
dl_sql_exec_create_view(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    view_spec vs = {.stmt = stmt,
                    .is_global = stmt->u.create_view.is_global,
                    .is_persistent = !stmt->u.create_view.is_temp};
    DL_TRY(check_view_name(b, &vs, err));
    vs.view.is_temp = !vs.is_persistent;
    dl_sql_plan *plan = NULL;
    DL_TRY(dl_sql_binder_view_query(b, &vs.view, stmt->u.create_view.query, &plan, err));
    DL_TRY(view_columns(b, &vs, plan, err));
    DL_TRY(view_props(b, &vs, err));
    DL_TRY(view_text(b, &vs, err));
    vs.view.created_ms = dl_sql_dml_now_ms();
    return vs.is_persistent ? store_view(b, &vs, err) : register_temp(b, &vs, err);
}

/* ---- DROP ------------------------------------------------------------------------------------ */

static dl_status
not_found(dl_sql_binder *b, const dl_sql_stmt *stmt, const char *what, dl_error *err) {
    const dl_sql_name *n = &stmt->u.drop.name;
    DL_SQL_BIND_FAIL(b, n->parts[0].loc, DL_ERR_NOT_FOUND, err,
                     "[%s] the %s `%s` cannot be found in schema `%s`", "TABLE_OR_VIEW_NOT_FOUND",
                     what, last_part(n),
                     schema_part(n) != NULL ? schema_part(n) : current_schema(b));
}

/* Drops a temporary or global temporary view named n; *out_done whether there was one. */
static void
drop_temp(dl_sql_binder *b, const dl_sql_name *n, bool *out_done) {
    *out_done = false;
    if (n->n_parts == 1) {
        *out_done = dl_sql_session_unregister(b->session, last_part(n));
    } else if (dl_sql_name_is_global_temp(n)) {
        *out_done = dl_sql_session_unregister_global(b->session, last_part(n));
    }
}

/* Drops the persistent view n: DL_OK, NOT_FOUND (err clear), or an error. */
static dl_status
drop_stored_view(dl_sql_binder *b, const dl_sql_name *n, dl_error *err) {
    dl_sql_catalog *cat = &b->session->catalog;
    if (cat->drop_view == NULL || n->n_parts > 2 || dl_sql_name_is_path(n) ||
        dl_sql_name_is_global_temp(n)) {
        return DL_ERR_NOT_FOUND;
    }
    dl_status s = cat->drop_view(cat->ctx, schema_part(n), last_part(n), err);
    if (s == DL_ERR_NOT_FOUND || s == DL_ERR_SQL_BIND) {
        dl_error_clear(err);
        return DL_ERR_NOT_FOUND;
    }
    return s;
}

static bool
table_exists(dl_sql_binder *b, const dl_sql_name *n) {
    dl_sql_catalog *cat = &b->session->catalog;
    dl_delta_table *table = NULL;
    bool exists = cat->open_table != NULL && n->n_parts <= 2 &&
                  cat->open_table(cat->ctx, schema_part(n), last_part(n), &table, NULL) == DL_OK;
    dl_delta_table_free(table);
    return exists;
}

static dl_status
drop_view(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    const dl_sql_name *n = &stmt->u.drop.name;
    bool done = false;
    drop_temp(b, n, &done);
    if (done) {
        return DL_OK;
    }
    dl_status s = drop_stored_view(b, n, err);
    if (s != DL_ERR_NOT_FOUND) {
        if (s != DL_OK) {
            dl_sql_binder_locate(b, n->parts[0].loc, err);
        }
        return s;
    }
    if (table_exists(b, n)) {
        DL_SQL_BIND_FAIL(b, n->parts[0].loc, DL_ERR_SQL_BIND, err,
                         "[WRONG_COMMAND_FOR_OBJECT_TYPE] DROP VIEW needs a view, and `%s` is a "
                         "table: use DROP TABLE instead",
                         last_part(n));
    }
    return stmt->u.drop.if_exists ? DL_OK : not_found(b, stmt, "view", err);
}

static dl_status
drop_table(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    const dl_sql_name *n = &stmt->u.drop.name;
    dl_sql_catalog *cat = &b->session->catalog;
    bool done = false;
    drop_temp(b, n, &done);
    if (done) {
        return DL_OK;
    }
    if (dl_sql_name_is_path(n)) {
        dl_sql_dml_target t;
        DL_TRY(dl_sql_dml_open(b, n, n->parts[0].loc, &t, err));
        return dl_sql_notice(b,
                             "DROP TABLE of a table given by its path deletes nothing (as in "
                             "Spark): the table is not in the warehouse; delete its folder "
                             "yourself to remove it",
                             out, err);
    }
    DL_CHECK(cat->drop_table != NULL, err, DL_ERR_UNSUPPORTED, "no catalog for DROP TABLE");
    dl_status s = n->n_parts <= 2 ? cat->drop_table(cat->ctx, schema_part(n), last_part(n), err)
                                  : DL_ERR_NOT_FOUND;
    if (s == DL_ERR_NOT_FOUND) {
        dl_error_clear(err);
        s = drop_stored_view(b, n, err); /* Spark's DROP TABLE drops a view too */
    }
    if (s == DL_ERR_NOT_FOUND) {
        return stmt->u.drop.if_exists ? DL_OK : not_found(b, stmt, "table or view", err);
    }
    if (s != DL_OK) {
        dl_sql_binder_locate(b, n->parts[0].loc, err);
    }
    return s;
}

static dl_status
drop_schema(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    const dl_sql_name *n = &stmt->u.drop.name;
    dl_sql_catalog *cat = &b->session->catalog;
    DL_CHECK(cat->drop_schema != NULL, err, DL_ERR_UNSUPPORTED, "no catalog for DROP SCHEMA");
    if (dl_str_eq_nocase(dl_str_from_cstr(last_part(n)), DL_STR("global_temp"))) {
        DL_SQL_BIND_FAIL(b, n->parts[0].loc, DL_ERR_SQL_BIND, err,
                         "[UNSUPPORTED_FEATURE.DROP_DATABASE] global_temp holds the session's "
                         "GLOBAL TEMP views and cannot be dropped; DROP VIEW global_temp.v drops "
                         "one");
    }
    dl_status s = cat->drop_schema(cat->ctx, last_part(n), stmt->u.drop.is_cascade, err);
    if (s == DL_ERR_NOT_FOUND && stmt->u.drop.if_exists) {
        dl_error_clear(err);
        return DL_OK;
    }
    if (s != DL_OK) {
        dl_sql_binder_locate(b, n->parts[0].loc, err);
    }
    return s;
}

dl_status
dl_sql_exec_drop(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    *out = NULL;
    switch (stmt->u.drop.object) {
    case DL_SQL_OBJ_VIEW:
        return drop_view(b, stmt, err);
    case DL_SQL_OBJ_TABLE:
        return drop_table(b, stmt, out, err);
    case DL_SQL_OBJ_SCHEMA:
        return drop_schema(b, stmt, err);
    default:
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err, "this DROP is not supported");
    }
}

/* ---- SHOW VIEWS ----------------------------------------------------------------------------- */

typedef struct view_rows {
    dl_sql_binder *b;
    const char **items;
    int64_t n;
    int64_t cap;
    const char *ns;
    const char *is_temp;
    const char *pattern;
} view_rows;

static dl_status
add_view_row(void *vctx, const char *name, dl_error *err) {
    view_rows *r = vctx;
    if (r->pattern != NULL && !dl_sql_show_pattern_match(r->pattern, name)) {
        return DL_OK;
    }
    if (r->n + 3 > r->cap) {
        int64_t cap = r->cap == 0 ? 48 : 2 * r->cap;
        const char **grown = dl_arena_alloc_zero(r->b->arena, (size_t)cap * sizeof(char *));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory listing views");
        if (r->n > 0) {
            memcpy(grown, r->items, (size_t)r->n * sizeof(char *));
        }
        r->items = grown;
        r->cap = cap;
    }
    r->items[r->n++] = r->ns;
    r->items[r->n++] = dl_arena_strndup(r->b->arena, name, strlen(name));
    r->items[r->n++] = r->is_temp;
    DL_CHECK(r->items[r->n - 2] != NULL, err, DL_ERR_NOMEM, "out of memory listing views");
    return DL_OK;
}

/* SHOW VIEWS [IN schema] [LIKE pattern]: the schema's views (IN global_temp: the global
 * temporary ones), then the session's temporary views, as Spark lists them. */
dl_status
dl_sql_show_views(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    static const char *const names[] = {"namespace", "viewName", "isTemporary"};
    const char *schema = stmt->u.show.has_name ? last_part(&stmt->u.show.name) : NULL;
    view_rows r = {.b = b, .pattern = stmt->u.show.has_pattern ? stmt->u.show.pattern.ptr : NULL};
    if (schema != NULL && dl_str_eq_nocase(dl_str_from_cstr(schema), DL_STR("global_temp"))) {
        r.ns = "global_temp";
        r.is_temp = "true";
        DL_TRY(dl_sql_temp_list(b->session->global_temps, true, add_view_row, &r, err));
    } else {
        dl_sql_catalog *cat = &b->session->catalog;
        r.ns = fold(b, schema != NULL ? schema : current_schema(b));
        r.is_temp = "false";
        if (cat->list_views != NULL) {
            dl_status s = cat->list_views(cat->ctx, schema, add_view_row, &r, err);
            if (s != DL_OK) {
                dl_sql_binder_locate(b, stmt->loc, err);
                return s;
            }
        }
    }
    r.ns = "";
    r.is_temp = "true";
    DL_TRY(dl_sql_temp_list(b->session->temp_rels, false, add_view_row, &r, err));
    return dl_sql_plan_strings(b, names, 3, r.items, r.n / 3, out, err);
}
