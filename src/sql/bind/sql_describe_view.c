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
#include "sql/bind/sql_describe_int.h"

dl_status
dl_sql_describe_view(dl_sql_binder *b, const dl_sql_view *v, dl_sql_plan **out, dl_error *err) {
    static const char *const names[] = {"col_name", "data_type", "comment"};
    int32_t n = v->columns.n_fields;
    const char **rows = dl_arena_alloc_zero(b->arena, (size_t)(3 * n + 3) * sizeof(char *));
    DL_CHECK(rows != NULL, err, DL_ERR_NOMEM, "out of memory describing a view");
    dl_buf type;
    dl_buf_init(&type, b->exec->alloc);
    dl_status s = DL_OK;
    for (int32_t i = 0; i < n && s == DL_OK; i++) {
        dl_buf_reset(&type);
        s = dl_vec_type_to_string(v->columns.fields[i].type, &type, err);
        const char **row = rows + 3 * (size_t)i;
        row[0] = v->columns.fields[i].name;
        row[1] = s == DL_OK ? dl_arena_strndup(b->arena, (const char *)type.data, type.len) : NULL;
        row[2] = v->comments[i];
        if (s == DL_OK && row[1] == NULL) {
            s = dl_error_set(err, DL_ERR_NOMEM, "out of memory describing a view");
        }
    }
    dl_buf_destroy(&type);
    DL_TRY(s);
    return dl_sql_plan_strings(b, names, 3, rows, n, out, err);
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
