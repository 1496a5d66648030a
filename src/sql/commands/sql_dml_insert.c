/* SPDX-License-Identifier: Apache-2.0 */
/*
 * INSERT INTO / INSERT OVERWRITE [TABLE] t [(columns) | BY NAME] query (sql_dml.h).
 *
 * Columns are matched as Spark's INSERT matches them: by position without a column list;
 * by name with one (columns left out are NULL) or with BY NAME. Values are cast to the
 * table's types with the session's store-assignment rules; a column the table lacks fails
 * naming it, unless spark.databricks.delta.schema.autoMerge.enabled is true, when it is added
 * to the table's schema (nullable, at the end) in the same commit.
 *
 * INSERT OVERWRITE replaces the whole table (static mode, the default), or, in dynamic
 * partition overwrite mode -- the statement's option WITH ('partitionOverwriteMode' =
 * 'dynamic'), else the session's spark.sql.sources.partitionOverwriteMode -- only the
 * partitions the inserted rows fall in, as Delta's WriteIntoDelta: the live files whose
 * partition values (compared as typed values, NULL equal to NULL) are those of a written file
 * are removed, and the transaction reads those partitions (files added to them concurrently
 * conflict); static mode reads the whole table. A table without partition columns is replaced
 * whole in either mode, as in Delta; an empty insert in dynamic mode removes nothing.
 *
 * commitInfo: WRITE with mode Append / Overwrite, partitionBy, isDynamicPartitionOverwrite
 * (true when dynamic mode is in force, as Delta records it) and canMergeSchema (true under
 * autoMerge); metrics numFiles, numOutputRows, numOutputBytes, and for an overwrite
 * numRemovedFiles and numRemovedBytes.
 */
#include <string.h>

#include "sql/commands/sql_dml.h"

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
map_columns(dl_sql_binder *b, const dl_sql_stmt *stmt, bool is_merge_schema, dl_sql_dml_target *t,
            const dl_sql_plan *q, int32_t **out_map, dl_delta_schema *evolved, dl_error *err) {
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
        if (is_merge_schema) {
            DL_TRY(evolve_schema(b, t, q, names, n_names, evolved, &is_evolved, err));
        }
    }
    int32_t n = t->schema->n_fields;
    int32_t *map = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(int32_t));
    DL_CHECK(map != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (names == NULL) {
        if (n_q != n) {
            DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_SCHEMA, err,
                             n_q < n ? "[DELTA_INSERT_COLUMN_ARITY_MISMATCH] Cannot write to %s, "
                                       "not enough data columns: the table has %d columns but the "
                                       "query gives %d"
                                     : "[DELTA_METADATA_MISMATCH] A schema mismatch detected when "
                                       "writing to %s: the table has %d columns but the query "
                                       "gives %d (to add the new columns: SET "
                                       "spark.databricks.delta.schema.autoMerge.enabled = true)",
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
            DL_SQL_BIND_FAIL(
                b, names[i].loc, DL_ERR_SCHEMA, err,
                "cannot write to %s: it has no column '%.*s' (columns: schema "
                "evolution needs spark.databricks.delta.schema.autoMerge.enabled or the "
                "mergeSchema option)",
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

/* The statement's write options (Delta's DeltaOptions, keys in any case) over the session's
 * settings: partitionOverwriteMode (spark.sql.sources.partitionOverwriteMode) and mergeSchema
 * (spark.databricks.delta.schema.autoMerge.enabled). Other options are refused, not ignored. */
typedef struct write_opts {
    bool is_dynamic;      /* dynamic partition overwrite mode */
    bool is_merge_schema; /* new columns are added to the table */
} write_opts;

static dl_status
read_options(dl_sql_binder *b, const dl_sql_stmt *stmt, write_opts *out, dl_error *err) {
    const dl_sql_prop_list *opts = &stmt->u.insert.options;
    dl_str mode = dl_str_from_cstr(
        dl_sql_session_get(b->session, "spark.sql.sources.partitionOverwriteMode"));
    out->is_merge_schema = is_auto_merge(b);
    for (uint32_t i = 0; i < opts->n; i++) {
        const dl_sql_prop *o = &opts->items[i];
        bool is_mode = dl_str_eq_nocase(o->key, DL_STR("partitionOverwriteMode"));
        if (!is_mode && !dl_str_eq_nocase(o->key, DL_STR("mergeSchema"))) {
            DL_SQL_BIND_FAIL(b, o->loc, DL_ERR_UNSUPPORTED, err,
                             "INSERT write option '%.*s' is not supported (INSERT takes "
                             "'partitionOverwriteMode' and 'mergeSchema')",
                             DL_STR_FMT(o->key));
        }
        dl_str v = dl_str_trim(o->value);
        bool is_valid =
            is_mode
                ? dl_str_eq_nocase(v, DL_STR("static")) || dl_str_eq_nocase(v, DL_STR("dynamic"))
                : dl_str_eq_nocase(v, DL_STR("true")) || dl_str_eq_nocase(v, DL_STR("false"));
        if (!is_valid) {
            DL_SQL_BIND_FAIL(b, o->loc, DL_ERR_DATA, err,
                             "[DELTA_ILLEGAL_OPTION] Invalid value '%.*s' for option '%.*s', "
                             "must be %s",
                             DL_STR_FMT(o->value), DL_STR_FMT(o->key),
                             is_mode ? "'STATIC' or 'DYNAMIC'" : "'true' or 'false'");
        }
        if (is_mode) {
            mode = v;
        } else {
            out->is_merge_schema = dl_str_eq_nocase(v, DL_STR("true"));
        }
    }
    out->is_dynamic = dl_str_eq_nocase(mode, DL_STR("dynamic"));
    return DL_OK;
}

static dl_status
stage_write_info(dl_delta_tx *tx, bool is_overwrite, const write_opts *opts, dl_error *err) {
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_WRITE);
    DL_TRY(dl_delta_tx_param_string(tx, "mode", is_overwrite ? "Overwrite" : "Append", err));
    DL_TRY(dl_delta_tx_param_string(tx, "partitionBy", "[]", err));
    if (opts->is_dynamic) {
        DL_TRY(dl_delta_tx_param_json(tx, "isDynamicPartitionOverwrite", "true", err));
    }
    if (opts->is_merge_schema) {
        DL_TRY(dl_delta_tx_param_json(tx, "canMergeSchema", "true", err));
    }
    return DL_OK;
}

/* The written files' partitions (keys as dl_sql_dml_partition_key makes them) in parts, each
 * read by the transaction. */
static dl_status
written_partitions(dl_sql_binder *b, const dl_ops_writer *w, dl_delta_tx *tx, dl_hmap *parts,
                   dl_buf *scratch, dl_error *err) {
    for (size_t i = 0; i < dl_ops_writer_file_count(w); i++) {
        const dl_ops_file *f = dl_ops_writer_file(w, i);
        dl_buf_reset(scratch);
        for (int32_t p = 0; p < f->n_partition_values; p++) {
            const char *v = f->partition_values[p].value;
            DL_TRY(v == NULL ? dl_buf_append_byte(scratch, 'N', err)
                             : dl_buf_appendf(scratch, err, "V%zu:%s", strlen(v), v));
        }
        if (dl_hmap_get(parts, dl_str_make((const char *)scratch->data, scratch->len), NULL)) {
            continue;
        }
        char *key = dl_arena_strndup(b->arena, (const char *)scratch->data, scratch->len);
        DL_CHECK(key != NULL, err, DL_ERR_NOMEM, "out of memory");
        DL_TRY(dl_hmap_put(parts, dl_str_make(key, scratch->len), 1, err));
        DL_TRY(dl_delta_tx_read_partition(tx, f->partition_values, f->n_partition_values, err));
    }
    return DL_OK;
}

/* Dynamic partition overwrite: removes the live files in the partitions w wrote. */
static dl_status
remove_written_partitions(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_ops_writer *w,
                          dl_delta_tx *tx, int64_t *out_files, int64_t *out_bytes, dl_error *err) {
    dl_hmap parts;
    dl_hmap_init(&parts, b->exec->alloc);
    dl_buf scratch;
    dl_buf_init(&scratch, b->exec->alloc);
    dl_buf val;
    dl_buf_init(&val, b->exec->alloc);
    dl_status s = written_partitions(b, w, tx, &parts, &scratch, err);
    size_t n = dl_delta_snapshot_file_count(t->snap);
    for (size_t i = 0; i < n && s == DL_OK && parts.count > 0; i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(t->snap, i);
        s = dl_sql_dml_partition_key(t->snap, f, &scratch, &val, err);
        if (s == DL_OK &&
            dl_hmap_get(&parts, dl_str_make((const char *)scratch.data, scratch.len), NULL)) {
            s = dl_delta_tx_remove_snapshot_file(tx, f, true, err);
            *out_files += 1;
            *out_bytes += f->size > 0 ? f->size : 0;
        }
    }
    dl_buf_destroy(&val);
    dl_buf_destroy(&scratch);
    dl_hmap_destroy(&parts);
    return s;
}

/* The rows written; an overwrite's removes (the whole table, or in dynamic mode of a
 * partitioned table the partitions written) with its metrics. */
static dl_status
write_rows(dl_sql_binder *b, dl_sql_dml_target *t, dl_sql_plan *plan, bool is_overwrite,
           bool is_dynamic, dl_delta_tx *tx, dl_ops_writer *w, dl_error *err) {
    int64_t n_files = 0;
    int64_t n_bytes = 0;
    bool is_by_partition = is_dynamic && dl_delta_snapshot_partition_count(t->snap) > 0;
    if (is_overwrite && !is_by_partition) {
        dl_delta_tx_read_whole_table(tx);
        DL_TRY(dl_sql_dml_remove_all(t, tx, &n_files, &n_bytes, err));
    }
    dl_sql_dml_sink sink = {.writer = w, .schema = t->schema, .code_col = -1, .source_col = -1};
    DL_TRY(dl_sql_dml_run(b, plan, &sink, err));
    DL_TRY(dl_ops_writer_stage(w, tx, true, err));
    if (is_overwrite && is_by_partition) {
        DL_TRY(remove_written_partitions(b, t, w, tx, &n_files, &n_bytes, err));
    }
    if (is_overwrite) {
        DL_TRY(dl_delta_tx_metric(tx, "numRemovedFiles", n_files, err));
        DL_TRY(dl_delta_tx_metric(tx, "numRemovedBytes", n_bytes, err));
    }
    return DL_OK;
}

static dl_status
run_insert(dl_sql_binder *b, const dl_sql_stmt *stmt, const write_opts *opts, dl_sql_dml_target *t,
           dl_sql_plan *plan, const dl_delta_schema *evolved, dl_delta_tx *tx,
           dl_ops_writer **out_w, dl_error *err) {
    bool is_overwrite = stmt->u.insert.is_overwrite;
    DL_TRY(stage_write_info(tx, is_overwrite, opts, err));
    if (evolved->type != NULL) {
        DL_TRY(stage_schema(b, t, evolved, tx, err));
    }
    dl_ops_writer *w = NULL;
    DL_TRY(dl_sql_dml_writer(b, t, tx, &w, err));
    dl_status s = write_rows(b, t, plan, is_overwrite, opts->is_dynamic, tx, w, err);
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
    write_opts opts = {0};
    DL_TRY(read_options(b, stmt, &opts, err));
    dl_sql_dml_target t;
    DL_TRY(dl_sql_dml_open(b, &stmt->u.insert.table, stmt->loc, &t, err));
    dl_sql_plan *q = NULL;
    DL_TRY(dl_sql_binder_query(b, stmt->u.insert.query, NULL, &q, err));
    int32_t *map = NULL;
    dl_delta_schema evolved = {0}; /* type NULL: the schema stays */
    DL_TRY(map_columns(b, stmt, opts.is_merge_schema, &t, q, &map, &evolved, err));
    dl_sql_plan *plan = NULL;
    DL_TRY(dl_sql_dml_conform(b, &t, q, map, stmt->loc, &plan, err));
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(t.table, t.snap, NULL, &tx, err));
    dl_ops_writer *w = NULL;
    dl_status s = run_insert(b, stmt, &opts, &t, plan, &evolved, tx, &w, err);
    if (s != DL_OK) {
        dl_delta_tx_free(tx);
        return s;
    }
    /* No rows written and no file removed (an append, a dynamic overwrite that wrote no
     * partition, an overwrite of an empty table): Delta has no action and commits nothing
     * (commitIfNeeded). */
    bool is_by_partition = opts.is_dynamic && dl_delta_snapshot_partition_count(t.snap) > 0;
    bool removes_none = !stmt->u.insert.is_overwrite || is_by_partition ||
                        dl_delta_snapshot_file_count(t.snap) == 0;
    if (removes_none && evolved.type == NULL && dl_ops_writer_file_count(w) == 0) {
        dl_sql_dml_discard(tx, w);
        return DL_OK;
    }
    return dl_sql_dml_commit_counted(b, tx, w, err);
}
