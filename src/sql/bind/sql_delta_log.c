/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The delta_log('table' | 'path') table function: the raw transaction log, one row per action
 * (columns in sql_describe_detail.c's header comment).
 */
#include <string.h>

#include "sql/bind/sql_describe_int.h"

enum {
    L_VERSION,
    L_TIMESTAMP,
    L_ACTION,
    L_PATH,
    L_SIZE,
    L_DATA_CHANGE,
    L_PARTITIONS,
    L_STATS,
    L_DV,
    L_MTIME,
    L_JSON,
    L_COUNT
};

static dl_status
log_schema(dl_sql_binder *b, const dl_type **out, dl_error *err) {
    const dl_type *str = dl_vec_type_prim(DL_VEC_TYPE_STRING);
    const dl_type *i64 = dl_vec_type_prim(DL_VEC_TYPE_LONG);
    const dl_type *map = NULL;
    DL_TRY(dl_sql_string_map_type(b, &map, err));
    dl_sql_col_spec specs[L_COUNT] = {
        {"version", i64},
        {"timestamp", dl_vec_type_prim(DL_VEC_TYPE_TIMESTAMP)},
        {"action", str},
        {"path", str},
        {"size", i64},
        {"dataChange", dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN)},
        {"partitionValues", map},
        {"stats", str},
        {"deletionVector", str},
        {"modificationTime", i64},
        {"json", str},
    };
    return dl_sql_make_schema(b, specs, L_COUNT, out, err);
}

static bool
is_file_action(dl_delta_action_kind k) {
    return k == DL_DELTA_ACTION_ADD || k == DL_DELTA_ACTION_REMOVE || k == DL_DELTA_ACTION_CDC;
}

static dl_status
file_columns(dl_vector **v, const dl_delta_action *a, dl_json_doc *doc, dl_error *err) {
    const dl_delta_file_action *f = &a->file;
    DL_TRY(dl_vec_append_str(v[L_PATH], f->path.ptr, f->path.len, err));
    DL_TRY(f->size >= 0 ? dl_vec_append_i64(v[L_SIZE], f->size, err)
                        : dl_vec_append_null(v[L_SIZE], err));
    DL_TRY(dl_vec_append_bool(v[L_DATA_CHANGE], f->data_change, err));
    DL_TRY(dl_sql_put_json_map(v[L_PARTITIONS], doc, f->partition_values, err));
    dl_json_type st = dl_json_val_type(f->stats);
    DL_TRY(dl_sql_put_str(v[L_STATS], dl_json_val_str(f->stats), st != DL_JSON_STRING, err));
    dl_json_val dv = dl_json_obj_get(a->body, "deletionVector");
    dl_json_type dt = dl_json_val_type(dv);
    DL_TRY(dl_sql_put_str(v[L_DV], dl_json_val_raw(dv), dt == DL_JSON_NULL || dt == DL_JSON_MISSING,
                          err));
    if (a->kind == DL_DELTA_ACTION_ADD) {
        return dl_vec_append_i64(v[L_MTIME], f->modification_time, err);
    }
    if (a->kind == DL_DELTA_ACTION_REMOVE && f->has_deletion_timestamp) {
        return dl_vec_append_i64(v[L_MTIME], f->deletion_timestamp, err);
    }
    return dl_vec_append_null(v[L_MTIME], err);
}

static dl_status
log_row(dl_batch *t, const dl_delta_log_entry *e, dl_json_doc *doc, dl_error *err) {
    dl_vector **v = t->cols;
    const dl_delta_action *a = e->action;
    DL_TRY(dl_vec_append_i64(v[L_VERSION], e->version, err));
    DL_TRY(dl_vec_append_i64(v[L_TIMESTAMP], e->file_mtime_ms * 1000, err));
    DL_TRY(dl_vec_append_str(v[L_ACTION], a->name.ptr, a->name.len, err));
    if (is_file_action(a->kind)) {
        DL_TRY(file_columns(v, a, doc, err));
    } else {
        for (int c = L_PATH; c <= L_MTIME; c++) {
            DL_TRY(dl_vec_append_null(v[c], err));
        }
    }
    dl_str json = dl_json_val_raw(a->body);
    return dl_vec_append_str(v[L_JSON], json.ptr, json.len, err);
}

typedef struct log_walk {
    dl_sql_rows *rows;
    dl_json_doc doc;
} log_walk;

static dl_status
log_visit(void *ctx, const dl_delta_log_entry *e, dl_error *err) {
    log_walk *w = ctx;
    dl_batch *tail = NULL;
    DL_TRY(dl_sql_rows_tail(w->rows, &tail, err));
    DL_TRY(log_row(tail, e, &w->doc, err));
    dl_sql_rows_commit_row(w->rows);
    return DL_OK;
}

static dl_status
log_rows(dl_sql_binder *b, dl_delta_table *table, dl_sql_rows *rows, dl_error *err) {
    log_walk w = {.rows = rows};
    dl_json_doc_init(&w.doc, b->exec->alloc);
    dl_status s = dl_delta_log_each(table, 0, -1, log_visit, &w, err);
    dl_json_doc_destroy(&w.doc);
    return s;
}

dl_status
dl_sql_open_table_arg(dl_sql_binder *b, const dl_sql_expr *arg, const char *fn,
                      dl_delta_table **out, const char **out_display, dl_error *err) {
    if (arg->kind != DL_SQL_EXPR_LITERAL || arg->u.lit.kind != DL_SQL_LIT_STRING) {
        DL_SQL_BIND_FAIL(b, arg->loc, DL_ERR_SQL_BIND, err,
                         "%s: the table argument must be a string naming the table ('t', "
                         "'db.t', 'delta.`/path`' or '/path')",
                         fn);
    }
    dl_str text = arg->u.lit.text;
    dl_sql_expr *e = NULL;
    dl_error perr;
    dl_error_clear(&perr);
    bool is_name = dl_sql_parse_expr_text(b->arena, text.ptr, text.len, &e, &perr) == DL_OK &&
                   e->kind == DL_SQL_EXPR_COLUMN;
    if (is_name) {
        return dl_sql_open_table(b, &e->u.column, false, text, arg->loc, out, out_display, err);
    }
    if (memchr(text.ptr, '/', text.len) != NULL) {
        return dl_sql_open_table(b, NULL, true, text, arg->loc, out, out_display, err);
    }
    DL_SQL_BIND_FAIL(b, arg->loc, DL_ERR_SQL_BIND, err,
                     "%s: '%.*s' is not a table name (t, db.t or delta.`/path`)", fn,
                     DL_STR_FMT(text));
}

dl_status
dl_sql_binder_delta_log(dl_sql_binder *b, const dl_sql_tref *tref, dl_sql_plan **out,
                        dl_error *err) {
    const dl_sql_expr_list *args = &tref->u.func.args;
    if (args->n != 1 || args->items[0]->kind != DL_SQL_EXPR_LITERAL ||
        args->items[0]->u.lit.kind != DL_SQL_LIT_STRING) {
        DL_SQL_BIND_FAIL(b, tref->loc, DL_ERR_SQL_BIND, err,
                         "delta_log takes one string: a table name or a path");
    }
    dl_delta_table *table = NULL;
    const char *display = NULL;
    DL_TRY(dl_sql_open_table_arg(b, args->items[0], "delta_log", &table, &display, err));
    const dl_type *schema = NULL;
    dl_status s = log_schema(b, &schema, err);
    dl_sql_rows rows;
    dl_sql_rows_init(&rows, b->exec->alloc, schema);
    if (s == DL_OK) {
        s = log_rows(b, table, &rows, err);
    }
    dl_delta_table_free(table);
    if (s != DL_OK) {
        dl_sql_rows_destroy(&rows);
        dl_error_prefix(err, "delta_log(%s)", display);
        return s;
    }
    return dl_sql_plan_rows(b, &rows, out, err);
}
