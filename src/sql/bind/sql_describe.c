/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DESCRIBE HISTORY, DESCRIBE DETAIL and DESCRIBE TABLE, as statements and as relations in
 * FROM, and SHOW TBLPROPERTIES / SHOW COLUMNS (sql_bind_int.h). Columns and types are Spark's
 * (DeltaHistory, DeltaTableDetail; ../shared/reference/delta-protocol-and-peers.md §2.3-2.4):
 *
 *   DESCRIBE HISTORY  version bigint, timestamp timestamp, userId string, userName string,
 *                     operation string, operationParameters map<string,string>,
 *                     job struct<jobId,jobName,jobRunId,runId,jobOwnerId,triggerType: string>,
 *                     notebook struct<notebookId: string>, clusterId string,
 *                     readVersion bigint, isolationLevel string, isBlindAppend boolean,
 *                     operationMetrics map<string,string>, userMetadata string,
 *                     engineInfo string                       (newest first; LIMIT n)
 *   DESCRIBE DETAIL   format, id, name, description, location string, createdAt timestamp,
 *                     lastModified timestamp, partitionColumns array<string>,
 *                     clusteringColumns array<string>, numFiles bigint, sizeInBytes bigint,
 *                     properties map<string,string>, minReaderVersion int,
 *                     minWriterVersion int, tableFeatures array<string>
 *   DESCRIBE TABLE    col_name, data_type, comment string (then Spark's "# Partition
 *                     Information" section for partitioned tables)
 *
 * Map values are the JSON values re-stringified: strings as their text, null as NULL, other
 * values as their JSON text (RESTORE's "version":1 becomes "1").
 */
#include <string.h>

#include "sql/bind/sql_describe_int.h"

/* ---- opening the table ---------------------------------------------------------------------- */

bool
dl_sql_name_is_path(const dl_sql_name *name) {
    return name->n_parts == 2 && name->parts[1].is_quoted &&
           dl_str_eq_nocase(name->parts[0].name, DL_STR("delta"));
}

static const dl_sql_view *
temp_view(dl_sql_binder *b, const dl_sql_name *name) {
    dl_sql_temp_rel *rel = dl_sql_session_temp_rel(b->session, name->parts[0].name);
    return rel != NULL ? dl_sql_temp_rel_view(rel) : NULL;
}

dl_status
dl_sql_view_target_error(dl_sql_binder *b, const char *display, dl_error *err) {
    dl_sql_stmt_kind kind = b->stmt != NULL ? b->stmt->kind : DL_SQL_STMT_QUERY;
    const char *what = dl_sql_stmt_kind_name(kind);
    dl_status s;
    if (kind == DL_SQL_STMT_DELETE || kind == DL_SQL_STMT_UPDATE || kind == DL_SQL_STMT_MERGE) {
        s = dl_error_set(err, DL_ERR_SQL_BIND,
                         "[DELTA_UNSUPPORTED_SOURCE] %s destination only supports Delta sources: "
                         "%s is a view",
                         what, display);
    } else if (kind == DL_SQL_STMT_RESTORE) {
        s = dl_error_set(err, DL_ERR_SQL_BIND,
                         "[DELTA_ONLY_OPERATION] RESTORE is only supported for Delta tables: %s is "
                         "a view",
                         display);
    } else {
        s = dl_error_set(err, DL_ERR_SQL_BIND,
                         "[EXPECT_TABLE_NOT_VIEW.NO_ALTERNATIVE] '%s' expects a table, but %s is a "
                         "view",
                         kind == DL_SQL_STMT_TRUNCATE ? "TRUNCATE TABLE" : what, display);
    }
    dl_error_hint(err, "a view has no files of its own: name the table it reads instead");
    return s;
}

/* After a table was not found (err holds why): a persistent view of the name is refused as a
 * view; else the table's NOT_FOUND stands. */
static dl_status
refuse_stored_view(dl_sql_binder *b, const dl_sql_name *name, dl_error *err) {
    dl_error table_err;
    if (err != NULL) {
        table_err = *err;
    }
    const dl_sql_view *view = NULL;
    DL_TRY(dl_sql_binder_find_view(b, name, false, &view, err));
    if (view != NULL) {
        return dl_sql_view_target_error(b, dl_sql_view_display(b, view), err);
    }
    if (err != NULL) {
        *err = table_err;
    }
    return DL_ERR_NOT_FOUND;
}

dl_status
dl_sql_open_table(dl_sql_binder *b, const dl_sql_name *name, bool is_path, dl_str path,
                  uint32_t loc, dl_delta_table **out, const char **out_display, dl_error *err) {
    dl_sql_catalog *cat = &b->session->catalog;
    dl_status s = DL_OK;
    if (!is_path && dl_sql_name_is_path(name)) {
        is_path = true;
        path = name->parts[1].name;
    }
    if (is_path) {
        *out_display = dl_arena_printf(b->arena, "delta.`%.*s`", DL_STR_FMT(path));
        const char *p = dl_arena_strndup(b->arena, path.ptr, path.len);
        DL_CHECK(p != NULL && *out_display != NULL, err, DL_ERR_NOMEM, "out of memory");
        s = cat->open_path != NULL ? cat->open_path(cat->ctx, p, out, err)
                                   : dl_error_set(err, DL_ERR_UNSUPPORTED, "no catalog");
    } else if (name->n_parts == 1 && temp_view(b, name) != NULL) {
        *out_display = name->parts[0].name.ptr;
        s = dl_sql_view_target_error(b, dl_sql_view_display(b, temp_view(b, name)), err);
    } else if (dl_sql_name_is_global_temp(name)) {
        *out_display = name->parts[1].name.ptr;
        dl_sql_temp_rel *g = dl_sql_session_global_temp(b->session, name->parts[1].name);
        s = g != NULL
                ? dl_sql_view_target_error(b, dl_sql_view_display(b, dl_sql_temp_rel_view(g)), err)
                : dl_error_set(err, DL_ERR_NOT_FOUND,
                               "[TABLE_OR_VIEW_NOT_FOUND] the global temporary view "
                               "`global_temp`.`%s` cannot be found",
                               *out_display);
    } else if (name->n_parts == 1 && dl_sql_session_temp_rel(b->session, name->parts[0].name)) {
        *out_display = name->parts[0].name.ptr;
        s = dl_error_set(err, DL_ERR_SQL_BIND,
                         "[EXPECT_TABLE_NOT_VIEW] '%s' is a temporary relation (registered Arrow "
                         "data), not a Delta table: it cannot be changed, described or vacuumed; "
                         "qualify the name (default.%s) to reach a table of that name",
                         name->parts[0].name.ptr, name->parts[0].name.ptr);
    } else {
        const char *schema = name->n_parts >= 2 ? name->parts[name->n_parts - 2].name.ptr : NULL;
        *out_display = name->parts[name->n_parts - 1].name.ptr;
        s = cat->open_table != NULL ? cat->open_table(cat->ctx, schema, *out_display, out, err)
                                    : dl_error_set(err, DL_ERR_NOT_FOUND, "no catalog");
        if (s == DL_ERR_NOT_FOUND) {
            s = refuse_stored_view(b, name, err);
        }
    }
    if (s != DL_OK) {
        dl_sql_binder_locate(b, loc, err);
    }
    return s;
}

/* ---- row building helpers -------------------------------------------------------------------- */

dl_status
dl_sql_plan_one_row(dl_sql_binder *b, const dl_type *schema, dl_sql_row_fill_fn fill, void *ctx,
                    dl_sql_plan **out, dl_error *err) {
    dl_sql_rows rows;
    dl_sql_rows_init(&rows, b->exec->alloc, schema);
    dl_batch *tail = NULL;
    dl_status s = dl_sql_rows_tail(&rows, &tail, err);
    if (s == DL_OK) {
        s = fill(ctx, tail, err);
    }
    if (s != DL_OK) {
        dl_sql_rows_destroy(&rows);
        return s;
    }
    dl_sql_rows_commit_row(&rows);
    return dl_sql_plan_rows(b, &rows, out, err);
}

const char *
dl_sql_snapshot_location(dl_sql_binder *b, const dl_delta_snapshot *snap) {
    const dl_store *store = dl_delta_snapshot_store(snap);
    const char *root = dl_delta_snapshot_root(snap);
    return root[0] != '\0' ? dl_arena_printf(b->arena, "%s/%s", store->location, root)
                           : store->location;
}

dl_status
dl_sql_put_str(dl_vector *v, dl_str s, bool is_null, dl_error *err) {
    if (is_null) {
        return dl_vec_append_null(v, err);
    }
    return dl_vec_append_str(v, s.ptr, s.len, err);
}

/* Appends the JSON object text as a map<string,string> row (NULL when empty). */
dl_status
dl_sql_put_json_map(dl_vector *v, dl_json_doc *doc, dl_str json, dl_error *err) {
    if (json.len == 0) {
        return dl_vec_append_null(v, err);
    }
    DL_TRY(dl_json_doc_parse(doc, json.ptr, json.len, err));
    dl_vector *entries = v->children[0];
    dl_json_iter it = dl_json_val_iter(dl_json_doc_root(doc));
    dl_str key;
    dl_json_val val;
    while (dl_json_iter_next(&it, &key, &val)) {
        DL_TRY(dl_vec_append_str(entries->children[0], key.ptr, key.len, err));
        dl_json_type t = dl_json_val_type(val);
        dl_str text = t == DL_JSON_STRING ? dl_json_val_str(val) : dl_json_val_raw(val);
        DL_TRY(dl_sql_put_str(entries->children[1], text, t == DL_JSON_NULL, err));
        DL_TRY(dl_vec_append_struct(entries, err));
    }
    return dl_vec_append_list(v, err);
}

/* A struct of string fields from a JSON object text (NULL when empty). */
static dl_status
put_json_struct(dl_vector *v, dl_json_doc *doc, dl_str json, dl_error *err) {
    if (json.len == 0) {
        return dl_vec_append_null(v, err);
    }
    DL_TRY(dl_json_doc_parse(doc, json.ptr, json.len, err));
    dl_json_val root = dl_json_doc_root(doc);
    for (int32_t f = 0; f < v->n_children; f++) {
        dl_json_val fv = dl_json_obj_get(root, v->type->fields[f].name);
        dl_json_type t = dl_json_val_type(fv);
        dl_str text = t == DL_JSON_STRING ? dl_json_val_str(fv) : dl_json_val_raw(fv);
        DL_TRY(
            dl_sql_put_str(v->children[f], text, t == DL_JSON_NULL || t == DL_JSON_MISSING, err));
    }
    return dl_vec_append_struct(v, err);
}

dl_status
dl_sql_put_str_array(dl_vector *v, const char *const *items, int32_t n, dl_error *err) {
    for (int32_t i = 0; i < n; i++) {
        DL_TRY(dl_vec_append_str(v->children[0], items[i], strlen(items[i]), err));
    }
    return dl_vec_append_list(v, err);
}

/* The schema of n columns (name, type) in the statement arena. */
dl_status
dl_sql_make_schema(dl_sql_binder *b, const dl_sql_col_spec *specs, int32_t n, const dl_type **out,
                   dl_error *err) {
    dl_type_field *cols = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(*cols));
    DL_CHECK(cols != NULL, err, DL_ERR_NOMEM, "out of memory describing a table");
    for (int32_t i = 0; i < n; i++) {
        cols[i] =
            (dl_type_field){.name = specs[i].name, .type = specs[i].type, .is_nullable = true};
    }
    return dl_vec_type_struct(b->arena, cols, n, out, err);
}

dl_status
dl_sql_string_map_type(dl_sql_binder *b, const dl_type **out, dl_error *err) {
    const dl_type *s = dl_vec_type_prim(DL_VEC_TYPE_STRING);
    return dl_vec_type_map(b->arena, s, s, true, out, err);
}

dl_status
dl_sql_string_struct_type(dl_sql_binder *b, const char *const *names, int32_t n,
                          const dl_type **out, dl_error *err) {
    dl_type_field f[8];
    for (int32_t i = 0; i < n; i++) {
        f[i] = (dl_type_field){
            .name = names[i], .type = dl_vec_type_prim(DL_VEC_TYPE_STRING), .is_nullable = true};
    }
    return dl_vec_type_struct(b->arena, f, n, out, err);
}

/* ---- DESCRIBE HISTORY ------------------------------------------------------------------------ */

enum {
    H_VERSION,
    H_TIMESTAMP,
    H_USER_ID,
    H_USER_NAME,
    H_OPERATION,
    H_PARAMS,
    H_JOB,
    H_NOTEBOOK,
    H_CLUSTER,
    H_READ_VERSION,
    H_ISOLATION,
    H_BLIND,
    H_METRICS,
    H_USER_META,
    H_ENGINE,
    H_COUNT
};

static dl_status
history_schema(dl_sql_binder *b, const dl_type **out, dl_error *err) {
    static const char *const job[] = {"jobId", "jobName",    "jobRunId",
                                      "runId", "jobOwnerId", "triggerType"};
    static const char *const notebook[] = {"notebookId"};
    const dl_type *map = NULL;
    const dl_type *job_t = NULL;
    const dl_type *nb_t = NULL;
    DL_TRY(dl_sql_string_map_type(b, &map, err));
    DL_TRY(dl_sql_string_struct_type(b, job, 6, &job_t, err));
    DL_TRY(dl_sql_string_struct_type(b, notebook, 1, &nb_t, err));
    const dl_type *str = dl_vec_type_prim(DL_VEC_TYPE_STRING);
    const dl_type *i64 = dl_vec_type_prim(DL_VEC_TYPE_LONG);
    dl_sql_col_spec specs[H_COUNT] = {
        {"version", i64},
        {"timestamp", dl_vec_type_prim(DL_VEC_TYPE_TIMESTAMP)},
        {"userId", str},
        {"userName", str},
        {"operation", str},
        {"operationParameters", map},
        {"job", job_t},
        {"notebook", nb_t},
        {"clusterId", str},
        {"readVersion", i64},
        {"isolationLevel", str},
        {"isBlindAppend", dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN)},
        {"operationMetrics", map},
        {"userMetadata", str},
        {"engineInfo", str},
    };
    return dl_sql_make_schema(b, specs, H_COUNT, out, err);
}

static dl_status
history_row(dl_batch *t, const dl_delta_commit *c, dl_json_doc *doc, dl_error *err) {
    dl_vector **v = t->cols;
    DL_TRY(dl_vec_append_i64(v[H_VERSION], c->version, err));
    DL_TRY(dl_vec_append_i64(v[H_TIMESTAMP], c->timestamp_ms * 1000, err));
    DL_TRY(dl_sql_put_str(v[H_USER_ID], c->user_id, c->user_id.len == 0, err));
    DL_TRY(dl_sql_put_str(v[H_USER_NAME], c->user_name, c->user_name.len == 0, err));
    DL_TRY(dl_sql_put_str(v[H_OPERATION], c->operation, c->operation.len == 0, err));
    DL_TRY(dl_sql_put_json_map(v[H_PARAMS], doc, c->operation_parameters, err));
    DL_TRY(put_json_struct(v[H_JOB], doc, c->job, err));
    DL_TRY(put_json_struct(v[H_NOTEBOOK], doc, c->notebook, err));
    DL_TRY(dl_sql_put_str(v[H_CLUSTER], c->cluster_id, c->cluster_id.len == 0, err));
    DL_TRY(c->has_read_version ? dl_vec_append_i64(v[H_READ_VERSION], c->read_version, err)
                               : dl_vec_append_null(v[H_READ_VERSION], err));
    DL_TRY(dl_sql_put_str(v[H_ISOLATION], c->isolation_level, c->isolation_level.len == 0, err));
    DL_TRY(c->has_is_blind_append ? dl_vec_append_bool(v[H_BLIND], c->is_blind_append, err)
                                  : dl_vec_append_null(v[H_BLIND], err));
    DL_TRY(dl_sql_put_json_map(v[H_METRICS], doc, c->operation_metrics, err));
    DL_TRY(dl_sql_put_str(v[H_USER_META], c->user_metadata, c->user_metadata.len == 0, err));
    return dl_sql_put_str(v[H_ENGINE], c->engine_info, c->engine_info.len == 0, err);
}

static dl_status
history_rows(dl_sql_binder *b, dl_delta_table *table, int64_t limit, dl_sql_rows *rows,
             dl_error *err) {
    dl_delta_history *h = NULL;
    DL_TRY(dl_delta_history_read(table, limit, &h, err));
    dl_json_doc doc;
    dl_json_doc_init(&doc, b->exec->alloc);
    dl_status s = DL_OK;
    for (size_t i = 0; i < dl_delta_history_count(h) && s == DL_OK; i++) {
        dl_batch *tail = NULL;
        s = dl_sql_rows_tail(rows, &tail, err);
        if (s == DL_OK) {
            s = history_row(tail, dl_delta_history_at(h, i), &doc, err);
        }
        if (s == DL_OK) {
            dl_sql_rows_commit_row(rows);
        }
    }
    dl_json_doc_destroy(&doc);
    dl_delta_history_free(h);
    return s;
}

static dl_status
bind_history(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    const dl_sql_target *t = &stmt->u.describe_history.target;
    int64_t limit = 0;
    if (stmt->u.describe_history.limit != NULL) {
        DL_TRY(dl_sql_binder_count_clause(b, stmt->u.describe_history.limit, "LIMIT", &limit, err));
        if (limit == 0) {
            limit = -1; /* LIMIT 0: no rows */
        }
    }
    dl_delta_table *table = NULL;
    const char *display = NULL;
    DL_TRY(dl_sql_open_table(b, &t->name, t->is_path, t->path, t->loc, &table, &display, err));
    const dl_type *schema = NULL;
    dl_status s = history_schema(b, &schema, err);
    dl_sql_rows rows;
    dl_sql_rows_init(&rows, b->exec->alloc, schema);
    if (s == DL_OK && limit >= 0) {
        s = history_rows(b, table, limit, &rows, err);
    }
    dl_delta_table_free(table);
    if (s != DL_OK) {
        dl_sql_rows_destroy(&rows);
        dl_error_prefix(err, "DESCRIBE HISTORY %s", display);
        return s;
    }
    return dl_sql_plan_rows(b, &rows, out, err);
}

/* ---- dispatch ---------------------------------------------------------------------------------
 */

dl_status
dl_sql_binder_describe(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out,
                       dl_error *err) {
    switch (stmt->kind) {
    case DL_SQL_STMT_DESCRIBE_HISTORY:
        return bind_history(b, stmt, out, err);
    case DL_SQL_STMT_DESCRIBE_DETAIL:
        return dl_sql_binder_detail(b, stmt, out, err);
    default:
        return dl_sql_binder_describe_table(b, stmt, out, err);
    }
}

dl_status
dl_sql_binder_describe_rel(dl_sql_binder *b, const dl_sql_tref *tref, dl_sql_rel *out,
                           dl_error *err) {
    DL_TRY(dl_sql_binder_describe(b, tref->u.describe, &out->plan, err));
    DL_TRY(dl_sql_plan_rename(b, out->plan, &tref->column_aliases, tref->loc, &out->plan, err));
    return dl_sql_scope_of(b, out->plan, tref->has_alias ? tref->alias.name.ptr : NULL, &out->scope,
                           err);
}
