/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Views (sql_bind_int.h): a view's definition, its encoding in the warehouse, and binding a
 * reference to one.
 *
 * A definition is what Spark's catalog keeps (viewText, the schema, the query's output
 * column names, the namespace current at creation): the query is stored as SQL text and bound
 * again at every use, against the schema current when the view was made, so a view follows
 * its tables' new versions and a dropped table errors naming it. The columns are captured at
 * creation: each use finds the query's column of the name it had then (Spark 4's default
 * WITH SCHEMA COMPENSATION: by name, cast to the captured type), so a table that grew a
 * column does not change the view, and one that lost it is an error naming the column.
 *
 * The encoding, one JSON object per persistent view (the catalog stores it, cat_view.c):
 *
 *   {"format":1, "name":"v", "schema":"default", "viewText":"SELECT ...",
 *    "currentSchema":"default", "columns":<a Delta schemaString object: names, types>,
 *    "queryColumns":["id",...], "columnComments":[null,"c",...], "comment":null|"...",
 *    "properties":{"k":"v"}, "createdMs":1733100000000, "createdBy":"deltalite"}
 *
 * A file of a later format is refused with a message naming it, never misread.
 */
#include <string.h>

#include "json/json.h"
#include "sql/bind/sql_bind_int.h"
#include "sql/bind/sql_describe_int.h"
#include "sql/parse/sql_parse.h"

#define VIEW_FORMAT    1
#define VIEW_MAX_DEPTH 32

/* ---- encoding ------------------------------------------------------------------------------ */

static dl_status
write_opt_string(dl_json_writer *w, const char *key, const char *value, dl_error *err) {
    DL_TRY(dl_json_writer_key_cstr(w, key, err));
    return value != NULL ? dl_json_writer_string_cstr(w, value, err) : dl_json_writer_null(w, err);
}

static dl_status
write_columns(dl_json_writer *w, const dl_sql_view *v, dl_buf *scratch, dl_error *err) {
    DL_TRY(dl_delta_schema_to_json(&v->columns, scratch, err));
    DL_TRY(dl_json_writer_key_cstr(w, "columns", err));
    DL_TRY(dl_json_writer_raw(w, dl_buf_view(scratch), err));
    DL_TRY(dl_json_writer_key_cstr(w, "queryColumns", err));
    DL_TRY(dl_json_writer_begin_array(w, err));
    for (int32_t i = 0; i < v->columns.n_fields; i++) {
        DL_TRY(dl_json_writer_string_cstr(w, v->query_names[i], err));
    }
    DL_TRY(dl_json_writer_end_array(w, err));
    DL_TRY(dl_json_writer_key_cstr(w, "columnComments", err));
    DL_TRY(dl_json_writer_begin_array(w, err));
    for (int32_t i = 0; i < v->columns.n_fields; i++) {
        DL_TRY(v->comments[i] != NULL ? dl_json_writer_string_cstr(w, v->comments[i], err)
                                      : dl_json_writer_null(w, err));
    }
    return dl_json_writer_end_array(w, err);
}

static dl_status
write_view(dl_json_writer *w, const dl_sql_view *v, dl_buf *scratch, dl_error *err) {
    DL_TRY(dl_json_writer_begin_object(w, err));
    DL_TRY(dl_json_writer_key_cstr(w, "format", err));
    DL_TRY(dl_json_writer_int64(w, VIEW_FORMAT, err));
    DL_TRY(write_opt_string(w, "name", v->name, err));
    DL_TRY(write_opt_string(w, "schema", v->schema, err));
    DL_TRY(write_opt_string(w, "viewText", v->text, err));
    DL_TRY(write_opt_string(w, "currentSchema", v->current_schema, err));
    DL_TRY(write_columns(w, v, scratch, err));
    DL_TRY(write_opt_string(w, "comment", v->comment, err));
    DL_TRY(dl_json_writer_key_cstr(w, "properties", err));
    DL_TRY(dl_json_writer_begin_object(w, err));
    for (int32_t i = 0; i < v->n_props; i++) {
        DL_TRY(dl_json_writer_key_cstr(w, v->prop_keys[i], err));
        DL_TRY(dl_json_writer_string_cstr(w, v->prop_values[i], err));
    }
    DL_TRY(dl_json_writer_end_object(w, err));
    DL_TRY(dl_json_writer_key_cstr(w, "createdMs", err));
    DL_TRY(dl_json_writer_int64(w, v->created_ms, err));
    DL_TRY(write_opt_string(w, "createdBy", "deltalite", err));
    DL_TRY(dl_json_writer_end_object(w, err));
    return dl_json_writer_finish(w, err);
}

dl_status
dl_sql_view_encode(const dl_sql_view *view, dl_buf *out, dl_error *err) {
    dl_json_writer w;
    dl_json_writer_init(&w, out, 0);
    dl_buf scratch;
    dl_buf_init(&scratch, out->alloc);
    dl_status s = write_view(&w, view, &scratch, err);
    dl_buf_destroy(&scratch);
    dl_json_writer_destroy(&w);
    return s;
}

/* ---- decoding ------------------------------------------------------------------------------ */

typedef struct decoder {
    dl_arena *arena;
    const char *what; /* the view's name for messages */
    dl_error *err;
} decoder;

static dl_status
corrupt(const decoder *d, const char *member) {
    (void)dl_error_set(d->err, DL_ERR_CORRUPT,
                       "view %s: its definition has no valid \"%s\" (the view file was damaged "
                       "or written by another program)",
                       d->what, member);
    dl_error_hint(d->err, "drop the view and create it again");
    return DL_ERR_CORRUPT;
}

/* A string member (NULL when null; is_required: missing or null is corrupt). */
static dl_status
read_string(const decoder *d, dl_json_val obj, const char *key, bool is_required,
            const char **out) {
    dl_json_val v = dl_json_obj_get(obj, key);
    *out = NULL;
    if (dl_json_val_is_missing(v) || dl_json_val_is_null(v)) {
        return is_required ? corrupt(d, key) : DL_OK;
    }
    if (dl_json_val_type(v) != DL_JSON_STRING) {
        return corrupt(d, key);
    }
    dl_str s = dl_json_val_str(v);
    *out = dl_arena_strndup(d->arena, s.ptr, s.len);
    DL_CHECK(*out != NULL, d->err, DL_ERR_NOMEM, "out of memory reading a view");
    return DL_OK;
}

/* Array member key with one string (or null, when allowed) per column. */
static dl_status
read_column_strings(const decoder *d, dl_json_val obj, const char *key, int32_t n, bool may_null,
                    const char ***out) {
    dl_json_val arr = dl_json_obj_get(obj, key);
    if (dl_json_val_type(arr) != DL_JSON_ARRAY) {
        return corrupt(d, key);
    }
    const char **items = dl_arena_alloc_zero(d->arena, (size_t)(n + 1) * sizeof(char *));
    DL_CHECK(items != NULL, d->err, DL_ERR_NOMEM, "out of memory reading a view");
    for (int32_t i = 0; i < n; i++) {
        dl_json_val v = dl_json_arr_at(arr, (uint32_t)i);
        if (may_null && dl_json_val_is_null(v)) {
            continue;
        }
        if (dl_json_val_type(v) != DL_JSON_STRING) {
            return corrupt(d, key);
        }
        dl_str s = dl_json_val_str(v);
        items[i] = dl_arena_strndup(d->arena, s.ptr, s.len);
        DL_CHECK(items[i] != NULL, d->err, DL_ERR_NOMEM, "out of memory reading a view");
    }
    if (!dl_json_val_is_missing(dl_json_arr_at(arr, (uint32_t)n))) {
        return corrupt(d, key);
    }
    *out = items;
    return DL_OK;
}

static dl_status
read_props(const decoder *d, dl_json_val obj, dl_sql_view *v) {
    dl_json_val props = dl_json_obj_get(obj, "properties");
    if (dl_json_val_is_missing(props)) {
        return DL_OK;
    }
    if (dl_json_val_type(props) != DL_JSON_OBJECT) {
        return corrupt(d, "properties");
    }
    int32_t n = 0;
    dl_json_iter it = dl_json_val_iter(props);
    dl_str key;
    dl_json_val val;
    while (dl_json_iter_next(&it, &key, &val)) {
        n++;
    }
    v->prop_keys = dl_arena_alloc_zero(d->arena, (size_t)(n + 1) * sizeof(char *));
    v->prop_values = dl_arena_alloc_zero(d->arena, (size_t)(n + 1) * sizeof(char *));
    DL_CHECK(v->prop_keys != NULL && v->prop_values != NULL, d->err, DL_ERR_NOMEM,
             "out of memory reading a view");
    it = dl_json_val_iter(props);
    while (dl_json_iter_next(&it, &key, &val)) {
        if (dl_json_val_type(val) != DL_JSON_STRING) {
            return corrupt(d, "properties");
        }
        dl_str s = dl_json_val_str(val);
        v->prop_keys[v->n_props] = dl_arena_strndup(d->arena, key.ptr, key.len);
        v->prop_values[v->n_props] = dl_arena_strndup(d->arena, s.ptr, s.len);
        DL_CHECK(v->prop_keys[v->n_props] != NULL && v->prop_values[v->n_props] != NULL, d->err,
                 DL_ERR_NOMEM, "out of memory reading a view");
        v->n_props++;
    }
    return DL_OK;
}

static dl_status
read_view(const decoder *d, dl_json_val root, dl_sql_view *v) {
    int64_t format = 0;
    dl_json_val fv = dl_json_obj_get(root, "format");
    if (dl_json_val_type(fv) != DL_JSON_NUMBER ||
        dl_json_val_get_int64(fv, &format, NULL) != DL_OK) {
        return corrupt(d, "format");
    }
    if (format != VIEW_FORMAT) {
        (void)dl_error_set(d->err, DL_ERR_UNSUPPORTED,
                           "view %s: its definition has format %lld, and this deltalite reads "
                           "format %d only",
                           d->what, (long long)format, VIEW_FORMAT);
        dl_error_hint(d->err, "use the deltalite that made the view, or create it again");
        return DL_ERR_UNSUPPORTED;
    }
    DL_TRY(read_string(d, root, "name", true, &v->name));
    DL_TRY(read_string(d, root, "schema", false, &v->schema));
    DL_TRY(read_string(d, root, "viewText", true, &v->text));
    DL_TRY(read_string(d, root, "currentSchema", false, &v->current_schema));
    DL_TRY(read_string(d, root, "comment", false, &v->comment));
    dl_json_val cols = dl_json_obj_get(root, "columns");
    if (dl_json_val_type(cols) != DL_JSON_OBJECT ||
        dl_delta_schema_parse(dl_json_val_raw(cols), d->arena, &v->columns, d->err) != DL_OK) {
        return corrupt(d, "columns");
    }
    int32_t n = v->columns.n_fields;
    DL_TRY(read_column_strings(d, root, "queryColumns", n, false, &v->query_names));
    DL_TRY(read_column_strings(d, root, "columnComments", n, true, &v->comments));
    dl_json_val created = dl_json_obj_get(root, "createdMs");
    if (!dl_json_val_is_missing(created) &&
        dl_json_val_get_int64(created, &v->created_ms, NULL) != DL_OK) {
        return corrupt(d, "createdMs");
    }
    return read_props(d, root, v);
}

dl_status
dl_sql_view_decode(dl_arena *arena, const char *what, dl_str text, dl_sql_view *out,
                   dl_error *err) {
    memset(out, 0, sizeof(*out));
    dl_json_doc doc;
    dl_json_doc_init(&doc, arena->alloc);
    decoder d = {.arena = arena, .what = what, .err = err};
    dl_status s = dl_json_doc_parse(&doc, text.ptr, text.len, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "view %s: its definition is not valid JSON", what);
    } else if (dl_json_val_type(dl_json_doc_root(&doc)) != DL_JSON_OBJECT) {
        s = corrupt(&d, "format");
    } else {
        s = read_view(&d, dl_json_doc_root(&doc), out);
    }
    dl_json_doc_destroy(&doc);
    return s;
}

/* ---- finding a view ---------------------------------------------------------------------- */

bool
dl_sql_name_is_global_temp(const dl_sql_name *name) {
    return name->n_parts == 2 && dl_str_eq_nocase(name->parts[0].name, DL_STR("global_temp"));
}

dl_status
dl_sql_binder_find_view(dl_sql_binder *b, const dl_sql_name *name, bool with_temp,
                        const dl_sql_view **out, dl_error *err) {
    *out = NULL;
    const dl_sql_ident *last = &name->parts[name->n_parts - 1];
    if (name->n_parts == 1 && with_temp) {
        dl_sql_temp_rel *rel = dl_sql_session_temp_rel(b->session, last->name);
        if (rel != NULL) {
            *out = dl_sql_temp_rel_view(rel);
            return DL_OK;
        }
    }
    if (dl_sql_name_is_global_temp(name)) {
        dl_sql_temp_rel *rel = dl_sql_session_global_temp(b->session, last->name);
        *out = rel != NULL ? dl_sql_temp_rel_view(rel) : NULL;
        return DL_OK;
    }
    dl_sql_catalog *cat = &b->session->catalog;
    if (name->n_parts > 2 || cat->read_view == NULL || dl_sql_name_is_path(name)) {
        return DL_OK;
    }
    const char *schema = name->n_parts == 2 ? name->parts[0].name.ptr : b->view_schema;
    dl_buf text;
    dl_buf_init(&text, b->session->alloc);
    dl_status s = cat->read_view(cat->ctx, schema, last->name.ptr, &text, err);
    dl_sql_view *v = NULL;
    if (s == DL_OK) {
        v = dl_arena_alloc_zero(b->arena, sizeof(*v));
        s = v != NULL ? dl_sql_view_decode(b->arena, last->name.ptr, dl_buf_view(&text), v, err)
                      : dl_error_set(err, DL_ERR_NOMEM, "out of memory reading a view");
    }
    dl_buf_destroy(&text);
    if (s == DL_ERR_NOT_FOUND || (s == DL_ERR_SQL_BIND && v == NULL)) {
        if (err != NULL) {
            dl_error_clear(err);
        }
        return DL_OK; /* no view of that name (or a name no folder could have) */
    }
    DL_TRY(s);
    *out = v;
    return DL_OK;
}

/* ---- binding a reference ------------------------------------------------------------------ */

const char *
dl_sql_view_display(dl_sql_binder *b, const dl_sql_view *v) {
    if (v->schema == NULL) {
        return dl_arena_printf(b->arena, "`%s`", v->name);
    }
    return dl_arena_printf(b->arena, "`%s`.`%s`", v->schema, v->name);
}

/* A view being expanded (the binder's stack, for recursion). */
struct dl_sql_view_frame {
    const dl_sql_view *view;
    const dl_sql_view_frame *next;
};

static bool
same_view(const dl_sql_view *a, const dl_sql_view *b) {
    bool same_schema = (a->schema == NULL) == (b->schema == NULL) &&
                       (a->schema == NULL ||
                        dl_str_eq_nocase(dl_str_from_cstr(a->schema), dl_str_from_cstr(b->schema)));
    return same_schema && dl_str_eq_nocase(dl_str_from_cstr(a->name), dl_str_from_cstr(b->name));
}

static dl_status
check_recursion(dl_sql_binder *b, const dl_sql_view *v, uint32_t loc, dl_error *err) {
    int32_t depth = 0;
    for (const dl_sql_view_frame *f = b->views; f != NULL; f = f->next, depth++) {
        if (same_view(f->view, v)) {
            DL_SQL_BIND_FAIL(b, loc, DL_ERR_SQL_BIND, err,
                             "[RECURSIVE_VIEW] recursive view %s detected: its query refers to "
                             "itself",
                             dl_sql_view_display(b, v));
        }
    }
    if (depth >= VIEW_MAX_DEPTH) {
        DL_SQL_BIND_FAIL(b, loc, DL_ERR_LIMIT, err, "view %s: views nest deeper than %d levels",
                         dl_sql_view_display(b, v), VIEW_MAX_DEPTH);
    }
    return DL_OK;
}

/* Binds the view's query text with the binder set up for it: its own text for positions, no
 * outer CTEs, unqualified names in the schema current at creation, and (a persistent view)
 * temporary views out of sight. */
static dl_status
bind_text(dl_sql_binder *b, const dl_sql_view *v, dl_sql_plan **out, dl_error *err) {
    dl_sql_stmt *stmt = NULL;
    DL_TRY(dl_sql_parse_stmt(b->arena, v->text, strlen(v->text), &stmt, err));
    if (stmt->kind != DL_SQL_STMT_QUERY) {
        DL_FAIL(err, DL_ERR_CORRUPT, "view %s: its text is not a query", v->name);
    }
    dl_sql_view_frame frame = {.view = v, .next = b->views};
    dl_sql_binder saved = *b;
    b->text = v->text;
    b->text_len = strlen(v->text);
    b->ctes = NULL;
    b->params = NULL; /* a view's text has no markers of the statement that reads it */
    b->views = &frame;
    b->view_schema = v->current_schema; /* captured at creation, temporary views too */
    if (!v->is_temp) {
        b->temp_mode = DL_SQL_TEMP_HIDDEN; /* a persistent view never sees temporary ones */
    }
    dl_status s = dl_sql_binder_query(b, stmt->u.query, NULL, out, err);
    b->text = saved.text;
    b->text_len = saved.text_len;
    b->ctes = saved.ctes;
    b->params = saved.params;
    b->views = saved.views;
    b->view_schema = saved.view_schema;
    b->temp_mode = saved.temp_mode;
    return s;
}

static int32_t
find_output(const dl_sql_plan *plan, const char *name, int32_t *out_n) {
    int32_t found = -1;
    *out_n = 0;
    for (int32_t i = 0; i < plan->n_cols; i++) {
        const char *have = plan->schema->fields[i].name;
        if (have != NULL && dl_str_eq_nocase(dl_str_from_cstr(have), dl_str_from_cstr(name))) {
            found = found < 0 ? i : found;
            (*out_n)++;
        }
    }
    return found;
}

/* The view's columns over its query's plan: found by the names they had at creation, cast
 * to the captured types. */
static dl_status
conform(dl_sql_binder *b, const dl_sql_view *v, dl_sql_plan *plan, uint32_t loc, dl_sql_plan **out,
        dl_error *err) {
    int32_t n = v->columns.n_fields;
    dl_sql_bexpr **exprs = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(void *));
    const char **names = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(char *));
    DL_CHECK(exprs != NULL && names != NULL, err, DL_ERR_NOMEM, "out of memory binding a view");
    for (int32_t i = 0; i < n; i++) {
        const dl_delta_field *f = &v->columns.fields[i];
        int32_t n_found = 0;
        int32_t col = find_output(plan, v->query_names[i], &n_found);
        if (n_found != 1) {
            DL_SQL_BIND_FAIL(b, loc, DL_ERR_SQL_BIND, err,
                             "[INCOMPATIBLE_VIEW_SCHEMA_CHANGE] view %s: its query now gives %s "
                             "column `%s` (the view's column `%s`); recreate the view with CREATE "
                             "OR REPLACE VIEW",
                             dl_sql_view_display(b, v), n_found == 0 ? "no" : "more than one",
                             v->query_names[i], f->name);
        }
        dl_sql_bexpr *e = dl_sql_bexpr_column(b->arena, col, plan->schema->fields[col].type);
        DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding a view");
        dl_status s = dl_sql_binder_cast(b, e, f->type, &exprs[i], err);
        if (s != DL_OK) {
            dl_error_prefix(err, "[INCOMPATIBLE_VIEW_SCHEMA_CHANGE] view %s, column `%s`",
                            dl_sql_view_display(b, v), f->name);
            dl_sql_binder_locate(b, loc, err);
            return s;
        }
        names[i] = f->name;
    }
    return dl_sql_plan_project(b, plan, exprs, names, n, out, err);
}

dl_status
dl_sql_binder_view(dl_sql_binder *b, const dl_sql_view *v, const dl_sql_tref *tref, dl_sql_rel *out,
                   dl_error *err) {
    if (tref->u.table.tt.kind != DL_SQL_TT_NONE) {
        DL_SQL_BIND_FAIL(b, tref->loc, DL_ERR_SQL_BIND, err,
                         "%s is a view, which has no versions to travel to; put VERSION AS OF or "
                         "TIMESTAMP AS OF inside the view's query",
                         dl_sql_view_display(b, v));
    }
    DL_TRY(check_recursion(b, v, tref->loc, err));
    dl_sql_plan *plan = NULL;
    dl_status s = bind_text(b, v, &plan, err);
    if (s != DL_OK) {
        if (err != NULL) {
            err->offset = -1; /* the position was in the view's text, not the statement's */
            dl_error_prefix(err, "in view %s", dl_sql_view_display(b, v));
        }
        dl_sql_binder_locate(b, tref->loc, err);
        return s;
    }
    DL_TRY(conform(b, v, plan, tref->loc, &out->plan, err));
    DL_TRY(dl_sql_plan_rename(b, out->plan, &tref->column_aliases, tref->loc, &out->plan, err));
    const char *qual = tref->has_alias ? tref->alias.name.ptr : v->name;
    return dl_sql_scope_of(b, out->plan, qual, &out->scope, err);
}

dl_status
dl_sql_binder_view_query(dl_sql_binder *b, const dl_sql_view *v, const dl_sql_query *q,
                         dl_sql_plan **out, dl_error *err) {
    dl_sql_view_frame frame = {.view = v, .next = b->views};
    const dl_sql_view_frame *saved_views = b->views;
    dl_sql_temp_mode saved_mode = b->temp_mode;
    b->views = &frame;
    if (!v->is_temp) {
        b->temp_mode = DL_SQL_TEMP_REFUSED;
    }
    dl_status s = dl_sql_binder_query(b, q, NULL, out, err);
    b->views = saved_views;
    b->temp_mode = saved_mode;
    return s;
}
