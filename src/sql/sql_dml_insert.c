/* SPDX-License-Identifier: Apache-2.0 */
/*
 * INSERT INTO / INSERT OVERWRITE [TABLE] t [(columns) | BY NAME] query (sql_dml.h).
 *
 * Columns are matched as Spark's INSERT matches them: by position without a column list;
 * by name with one (columns left out are NULL) or with BY NAME. Values are cast to the
 * table's types with the session's store-assignment rules; a column the table lacks fails
 * naming it, unless spark.databricks.delta.schema.autoMerge.enabled is true, when it is added
 * to the table's schema (nullable, at the end) in the same commit. INSERT OVERWRITE removes
 * every live file in the same commit. commitInfo: WRITE with mode Append / Overwrite.
 */
#include <string.h>

#include "sql/sql_dml.h"

/* A column of the table matching name (ASCII case-blind), or -1. */
static int32_t
table_column(const dl_type *schema, dl_str name) {
    for (int32_t i = 0; i < schema->n_fields; i++) {
        if (dl_str_eq_nocase(dl_str_from_cstr(schema->fields[i].name), name)) {
            return i;
        }
    }
    return -1;
}

static bool
is_auto_merge(const dl_sql_binder *b) {
    const char *v =
        dl_sql_session_get(b->session, "spark.databricks.delta.schema.autoMerge.enabled");
    return v != NULL && dl_str_eq_nocase(dl_str_from_cstr(v), DL_STR("true"));
}

/* The table's schema grown by the query's columns named in names that it lacks (every
 * existing column's metadata kept). */
static dl_status
evolve_schema(dl_sql_binder *b, dl_sql_dml_target *t, const dl_sql_plan *q,
              const dl_sql_ident *names, int32_t n, dl_delta_schema *out, bool *out_changed,
              dl_error *err) {
    dl_type_field *fields = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(*fields));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory evolving a schema");
    int32_t n_new = 0;
    for (int32_t i = 0; i < n; i++) {
        if (table_column(t->schema, names[i].name) >= 0) {
            continue;
        }
        fields[n_new++] = (dl_type_field){
            .name = dl_arena_strndup(b->arena, names[i].name.ptr, names[i].name.len),
            .type = q->schema->fields[i].type,
            .is_nullable = true};
        DL_CHECK(fields[n_new - 1].name != NULL, err, DL_ERR_NOMEM, "out of memory");
    }
    *out_changed = n_new > 0;
    if (!*out_changed) {
        return DL_OK;
    }
    const dl_type *added = NULL;
    dl_delta_schema added_ds;
    DL_TRY(dl_vec_type_struct(b->arena, fields, n_new, &added, err));
    DL_TRY(dl_delta_schema_from_type(added, b->arena, &added_ds, err));
    dl_sql_dml_new_col *cols = dl_arena_alloc_zero(b->arena, (size_t)n_new * sizeof(*cols));
    DL_CHECK(cols != NULL, err, DL_ERR_NOMEM, "out of memory evolving a schema");
    for (int32_t i = 0; i < n_new; i++) {
        cols[i].field = added_ds.fields[i];
    }
    DL_TRY(dl_sql_dml_schema_grow(b, dl_delta_snapshot_schema(t->snap), cols, n_new, out, err));
    t->schema = out->type;
    return DL_OK;
}

/* The new metaData for an evolved schema (everything else as it was). */
static dl_status
stage_schema(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_delta_schema *ds,
             dl_delta_tx *tx, dl_error *err) {
    dl_delta_metadata md = *dl_delta_snapshot_metadata(t->snap);
    DL_TRY(dl_sql_dml_schema_string(b, ds, &md.schema_string, err));
    return dl_delta_tx_set_metadata(tx, &md, err);
}

/* map[i]: the query column for table column i. */
static dl_status
map_columns(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_dml_target *t, const dl_sql_plan *q,
            int32_t **out_map, dl_delta_schema *evolved, dl_error *err) {
    const dl_sql_ident_list *cols = &stmt->u.insert.columns;
    bool by_name = stmt->u.insert.by_name;
    int32_t n_q = q->n_cols;
    dl_sql_ident *names = NULL;
    int32_t n_names = 0;
    bool is_evolved = false;
    if (stmt->u.insert.has_columns || by_name) {
        n_names = by_name ? n_q : (int32_t)cols->n;
        names = dl_arena_alloc_zero(b->arena, (size_t)(n_names + 1) * sizeof(dl_sql_ident));
        DL_CHECK(names != NULL, err, DL_ERR_NOMEM, "out of memory");
        for (int32_t i = 0; i < n_names; i++) {
            names[i] = by_name ? (dl_sql_ident){.name = dl_str_from_cstr(q->schema->fields[i].name),
                                                .loc = stmt->loc}
                               : cols->items[i];
        }
        if (n_names != n_q) {
            DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_SCHEMA, err,
                             "cannot write to %s: %d columns are listed but the query gives %d",
                             t->display, n_names, n_q);
        }
        if (is_auto_merge(b)) {
            DL_TRY(evolve_schema(b, t, q, names, n_names, evolved, &is_evolved, err));
        }
    }
    int32_t n = t->schema->n_fields;
    int32_t *map = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(int32_t));
    DL_CHECK(map != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (names == NULL) {
        if (n_q != n) {
            DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_SCHEMA, err,
                             "cannot write to %s: the table has %d columns but the query gives "
                             "%d",
                             t->display, n, n_q);
        }
        for (int32_t i = 0; i < n; i++) {
            map[i] = i;
        }
        *out_map = map;
        return DL_OK;
    }
    for (int32_t i = 0; i < n; i++) {
        map[i] = -1;
    }
    for (int32_t i = 0; i < n_names; i++) {
        int32_t c = table_column(t->schema, names[i].name);
        if (c < 0) {
            DL_SQL_BIND_FAIL(b, names[i].loc, DL_ERR_SCHEMA, err,
                             "cannot write to %s: it has no column '%.*s' (columns: schema "
                             "evolution needs spark.databricks.delta.schema.autoMerge.enabled)",
                             t->display, DL_STR_FMT(names[i].name));
        }
        if (map[c] >= 0) {
            DL_SQL_BIND_FAIL(b, names[i].loc, DL_ERR_SCHEMA, err, "column '%.*s' is listed twice",
                             DL_STR_FMT(names[i].name));
        }
        map[c] = i;
    }
    *out_map = map;
    return DL_OK;
}

static dl_status
stage_write_info(dl_delta_tx *tx, bool is_overwrite, dl_error *err) {
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_WRITE);
    DL_TRY(dl_delta_tx_param_string(tx, "mode", is_overwrite ? "Overwrite" : "Append", err));
    DL_TRY(dl_delta_tx_param_json(tx, "statsOnLoad", "false", err));
    return dl_delta_tx_param_string(tx, "partitionBy", "[]", err);
}

static dl_status
run_insert(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_dml_target *t, dl_sql_plan *plan,
           const dl_delta_schema *evolved, dl_delta_tx *tx, dl_ops_writer **out_w, dl_error *err) {
    bool is_overwrite = stmt->u.insert.is_overwrite;
    DL_TRY(stage_write_info(tx, is_overwrite, err));
    if (evolved->type != NULL) {
        DL_TRY(stage_schema(b, t, evolved, tx, err));
    }
    if (is_overwrite) {
        int64_t n_files = 0;
        int64_t n_bytes = 0;
        dl_delta_tx_read_whole_table(tx);
        DL_TRY(dl_sql_dml_remove_all(t, tx, &n_files, &n_bytes, err));
    }
    dl_ops_writer *w = NULL;
    DL_TRY(dl_sql_dml_writer(b, t, tx, &w, err));
    dl_sql_dml_sink sink = {.writer = w, .schema = t->schema, .code_col = -1, .source_col = -1};
    dl_status s = dl_sql_dml_run(b, plan, &sink, err);
    if (s == DL_OK) {
        s = dl_ops_writer_stage(w, tx, true, err);
    }
    if (s != DL_OK) {
        dl_ops_writer_abort(w);
        dl_ops_writer_free(w);
        return s;
    }
    *out_w = w;
    return DL_OK;
}

dl_status
dl_sql_dml_insert(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    if (stmt->u.insert.partition.n > 0 || stmt->u.insert.replace_where != NULL) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err,
                         "INSERT with a PARTITION clause or REPLACE WHERE is not supported yet");
    }
    dl_sql_dml_target t;
    DL_TRY(dl_sql_dml_open(b, &stmt->u.insert.table, stmt->loc, &t, err));
    dl_sql_plan *q = NULL;
    DL_TRY(dl_sql_binder_query(b, stmt->u.insert.query, NULL, &q, err));
    int32_t *map = NULL;
    dl_delta_schema evolved = {0}; /* type NULL: the schema stays */
    DL_TRY(map_columns(b, stmt, &t, q, &map, &evolved, err));
    dl_sql_plan *plan = NULL;
    DL_TRY(dl_sql_dml_conform(b, &t, q, map, stmt->loc, &plan, err));
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(t.table, t.snap, NULL, &tx, err));
    dl_ops_writer *w = NULL;
    dl_status s = run_insert(b, stmt, &t, plan, &evolved, tx, &w, err);
    if (s != DL_OK) {
        dl_delta_tx_free(tx);
        return s;
    }
    return dl_sql_dml_commit(tx, w, err);
}
