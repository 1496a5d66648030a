/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DESCRIBE and SHOW CREATE TABLE of a view (sql_describe_int.h), in Spark's layout: DESCRIBE
 * gives (col_name, data_type, comment) per captured column; SHOW CREATE TABLE gives the
 * statement that makes the view again --
 *
 *   CREATE VIEW default.v (
 *     a COMMENT 'x',
 *     b)
 *   COMMENT 'c'
 *   TBLPROPERTIES (
 *     'k' = 'v')
 *   WITH SCHEMA COMPENSATION
 *   AS <the query as written>
 *
 * which deltalite's CREATE VIEW runs as it is (Spark writes the same, with a trailing newline).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sql/bind/sql_describe_int.h"

/* "[`a`, `b`]": the query's output columns Spark records with the view. */
static const char *
query_columns(dl_sql_binder *b, const dl_sql_view *v) {
    const char *text = "[";
    for (int32_t i = 0; i < v->columns.n_fields && text != NULL; i++) {
        text = dl_arena_printf(b->arena, "%s%s`%s`", text, i > 0 ? ", " : "", v->query_names[i]);
    }
    return text != NULL ? dl_arena_printf(b->arena, "%s]", text) : NULL;
}

/* The detail rows Spark's catalog gives a persistent view (DESCRIBE EXTENDED v). Created By
 * names the engine that made it; Owner, which only a metastore records, is left out (Spark
 * shows none for a view of a local session either). */
static dl_status
view_details(dl_sql_desc_rows *r, const dl_sql_view *v, dl_error *err) {
    dl_sql_binder *b = r->b;
    char created[64];
    time_t secs = (time_t)(v->created_ms / 1000);
    struct tm tm;
    if (gmtime_r(&secs, &tm) == NULL ||
        strftime(created, sizeof(created), "%a %b %d %H:%M:%S UTC %Y", &tm) == 0) {
        (void)snprintf(created, sizeof(created), "UNKNOWN");
    }
    const char *created_at = dl_arena_strndup(b->arena, created, strlen(created));
    const char *ns = dl_arena_printf(b->arena, "spark_catalog.%s",
                                     v->current_schema != NULL ? v->current_schema : v->schema);
    const char *cols = query_columns(b, v);
    /* Spark's catalog joins a view's properties with ", " */
    const char *props =
        v->n_props > 0 ? dl_sql_props_text(b, v->prop_keys, v->prop_values, v->n_props, ", ") : "";
    DL_CHECK(created_at != NULL && ns != NULL && cols != NULL && props != NULL, err, DL_ERR_NOMEM,
             "out of memory describing a view");
    DL_TRY(dl_sql_desc_add_row(r, "", "", "", err));
    DL_TRY(dl_sql_desc_add_row(r, "# Detailed Table Information", "", "", err));
    DL_TRY(dl_sql_desc_add_row(r, "Catalog", "spark_catalog", "", err));
    DL_TRY(dl_sql_desc_add_row(r, "Database", v->schema, "", err));
    DL_TRY(dl_sql_desc_add_row(r, "Table", v->name, "", err));
    DL_TRY(dl_sql_desc_add_row(r, "Created Time", created_at, "", err));
    DL_TRY(dl_sql_desc_add_row(r, "Last Access", "UNKNOWN", "", err));
    DL_TRY(dl_sql_desc_add_row(r, "Created By", "deltalite " DL_VERSION_STRING, "", err));
    DL_TRY(dl_sql_desc_add_row(r, "Type", "VIEW", "", err));
    if (v->comment != NULL) {
        DL_TRY(dl_sql_desc_add_row(r, "Comment", v->comment, "", err));
    }
    DL_TRY(dl_sql_desc_add_row(r, "View Text", v->text, "", err));
    DL_TRY(dl_sql_desc_add_row(r, "View Original Text", v->text, "", err));
    DL_TRY(dl_sql_desc_add_row(r, "View Schema Mode", "COMPENSATION", "", err));
    DL_TRY(dl_sql_desc_add_row(r, "View Catalog and Namespace", ns, "", err));
    DL_TRY(dl_sql_desc_add_row(r, "View Query Output Columns", cols, "", err));
    if (v->n_props > 0) {
        DL_TRY(dl_sql_desc_add_row(r, "Table Properties", props, "", err));
    }
    return DL_OK;
}

dl_status
dl_sql_describe_view(dl_sql_binder *b, const dl_sql_view *v, const dl_sql_stmt *stmt,
                     dl_sql_plan **out, dl_error *err) {
    static const char *const names[] = {"col_name", "data_type", "comment"};
    if (stmt->u.describe_table.has_column) {
        const dl_delta_field *f =
            dl_delta_schema_find(&v->columns, stmt->u.describe_table.column.parts[0].name);
        const char *comment = NULL;
        for (int32_t i = 0; f != NULL && i < v->columns.n_fields; i++) {
            comment = &v->columns.fields[i] == f ? v->comments[i] : comment;
        }
        return dl_sql_describe_field(b, stmt, &v->columns, f, comment, dl_sql_view_display(b, v),
                                     out, err);
    }
    dl_sql_desc_rows r = {.b = b};
    for (int32_t i = 0; i < v->columns.n_fields; i++) {
        DL_TRY(dl_sql_desc_add_column(&r, &v->columns.fields[i], v->comments[i], err));
    }
    if (stmt->u.describe_table.is_extended && !v->is_temp) {
        DL_TRY(view_details(&r, v, err));
    }
    return dl_sql_plan_strings(b, names, 3, r.v, r.n, out, err);
}

static dl_status
put_columns(const dl_sql_view *v, dl_buf *out, dl_error *err) {
    DL_TRY(dl_buf_append_cstr(out, " (\n", err));
    for (int32_t i = 0; i < v->columns.n_fields; i++) {
        DL_TRY(dl_buf_append_cstr(out, "  ", err));
        DL_TRY(dl_sql_put_ident(out, v->columns.fields[i].name, err));
        if (v->comments[i] != NULL) {
            DL_TRY(dl_buf_append_cstr(out, " COMMENT ", err));
            DL_TRY(dl_sql_put_literal(out, v->comments[i], err));
        }
        DL_TRY(dl_buf_append_cstr(out, i + 1 < v->columns.n_fields ? ",\n" : ")\n", err));
    }
    return DL_OK;
}

static dl_status
create_view_text(const dl_sql_view *v, dl_buf *out, dl_error *err) {
    DL_TRY(dl_buf_append_cstr(out, "CREATE VIEW ", err));
    DL_TRY(dl_sql_put_ident(out, v->schema, err));
    DL_TRY(dl_buf_append_byte(out, '.', err));
    DL_TRY(dl_sql_put_ident(out, v->name, err));
    DL_TRY(put_columns(v, out, err));
    if (v->comment != NULL) {
        DL_TRY(dl_buf_append_cstr(out, "COMMENT ", err));
        DL_TRY(dl_sql_put_literal(out, v->comment, err));
        DL_TRY(dl_buf_append_byte(out, '\n', err));
    }
    for (int32_t i = 0; i < v->n_props; i++) {
        DL_TRY(dl_buf_append_cstr(out, i == 0 ? "TBLPROPERTIES (\n  " : ",\n  ", err));
        DL_TRY(dl_sql_put_literal(out, v->prop_keys[i], err));
        DL_TRY(dl_buf_append_cstr(out, " = ", err));
        DL_TRY(dl_sql_put_literal(out, v->prop_values[i], err));
        DL_TRY(dl_buf_append_cstr(out, i + 1 == v->n_props ? ")\n" : "", err));
    }
    return dl_buf_appendf(out, err, "WITH SCHEMA COMPENSATION\nAS %s\n", v->text);
}

dl_status
dl_sql_show_create_view(dl_sql_binder *b, const dl_sql_view *v, uint32_t loc, dl_sql_plan **out,
                        dl_error *err) {
    static const char *const names[] = {"createtab_stmt"};
    if (v->is_temp) {
        DL_SQL_BIND_FAIL(b, loc, DL_ERR_SQL_BIND, err,
                         "[EXPECT_PERMANENT_VIEW_NOT_TEMP] 'SHOW CREATE TABLE' expects a "
                         "permanent view, but `%s` is a temporary view",
                         v->name);
    }
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    dl_status s = create_view_text(v, &text, err);
    const char *row =
        s == DL_OK ? dl_arena_strndup(b->arena, (const char *)text.data, text.len) : NULL;
    dl_buf_destroy(&text);
    DL_TRY(s);
    DL_CHECK(row != NULL, err, DL_ERR_NOMEM, "out of memory showing a view");
    return dl_sql_plan_strings(b, names, 1, &row, 1, out, err);
}
