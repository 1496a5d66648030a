/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the data-changing statements share (sql_dml.h): opening the target, conforming rows to
 * its schema, running a plan into the ops writer with per-row action codes, removing the live
 * files, committing or discarding.
 */
#include "sql/commands/sql_dml.h"

#include <string.h>
#include <time.h>

#include "delta/delta_colmap.h"
#include "json/json.h"
#include "sql/bind/sql_describe_int.h"

/* ---- result rows ------------------------------------------------------------------------------
 */

/* The result columns of the statements that return counts, as Spark's commands name them
 * (DeleteCommand, UpdateCommand, MergeIntoCommand, RestoreTableCommand; INSERT as Databricks
 * returns it): each the sum of up to three operationMetrics of the statement's commit. */
typedef struct result_col {
    dl_sql_stmt_kind kind;
    const char *name;
    const char *metrics[3];
} result_col;

static const result_col result_cols[] = {
    {DL_SQL_STMT_INSERT, "num_affected_rows", {"numOutputRows"}},
    {DL_SQL_STMT_INSERT, "num_inserted_rows", {"numOutputRows"}},
    {DL_SQL_STMT_COPY_INTO, "num_affected_rows", {"numOutputRows"}},
    {DL_SQL_STMT_COPY_INTO, "num_inserted_rows", {"numOutputRows"}},
    {DL_SQL_STMT_COPY_INTO, "num_skipped_corrupt_files", {"numSkippedCorruptFiles"}},
    {DL_SQL_STMT_DELETE, "num_affected_rows", {"numDeletedRows"}},
    {DL_SQL_STMT_UPDATE, "num_affected_rows", {"numUpdatedRows"}},
    {DL_SQL_STMT_MERGE,
     "num_affected_rows",
     {"numTargetRowsUpdated", "numTargetRowsDeleted", "numTargetRowsInserted"}},
    {DL_SQL_STMT_MERGE, "num_updated_rows", {"numTargetRowsUpdated"}},
    {DL_SQL_STMT_MERGE, "num_deleted_rows", {"numTargetRowsDeleted"}},
    {DL_SQL_STMT_MERGE, "num_inserted_rows", {"numTargetRowsInserted"}},
    {DL_SQL_STMT_RESTORE, "table_size_after_restore", {"tableSizeAfterRestore"}},
    {DL_SQL_STMT_RESTORE, "num_of_files_after_restore", {"numOfFilesAfterRestore"}},
    {DL_SQL_STMT_RESTORE, "num_removed_files", {"numRemovedFiles"}},
    {DL_SQL_STMT_RESTORE, "num_restored_files", {"numRestoredFiles"}},
    {DL_SQL_STMT_RESTORE, "removed_files_size", {"removedFilesSize"}},
    {DL_SQL_STMT_RESTORE, "restored_files_size", {"restoredFilesSize"}},
};

enum {
    N_RESULT_COLS = (int)(sizeof(result_cols) / sizeof(result_cols[0]))
};

/* The counts of one statement, by result_cols index (0 when it committed nothing). */
struct dl_sql_dml_outcome {
    dl_sql_stmt_kind kind;
    int64_t values[N_RESULT_COLS];
};

static bool
returns_counts(dl_sql_stmt_kind kind) {
    for (int i = 0; i < N_RESULT_COLS; i++) {
        if (result_cols[i].kind == kind) {
            return true;
        }
    }
    return false;
}

dl_status
dl_sql_dml_commit_counted(dl_sql_binder *b, dl_delta_tx *tx, dl_ops_writer *writer, dl_error *err) {
    dl_sql_dml_outcome *o = b->dml_outcome;
    for (int i = 0; o != NULL && i < N_RESULT_COLS; i++) {
        if (result_cols[i].kind != o->kind) {
            continue;
        }
        int64_t v = 0;
        for (int m = 0; m < 3 && result_cols[i].metrics[m] != NULL; m++) {
            v += dl_delta_tx_metric_value(tx, result_cols[i].metrics[m]);
        }
        o->values[i] = v;
    }
    return dl_sql_dml_commit(tx, writer, err);
}

static dl_status
fill_counts(void *ctx, dl_batch *tail, dl_error *err) {
    const dl_sql_dml_outcome *o = ctx;
    int32_t c = 0;
    for (int i = 0; i < N_RESULT_COLS; i++) {
        if (result_cols[i].kind == o->kind) {
            DL_TRY(dl_vec_append_i64(tail->cols[c++], o->values[i], err));
        }
    }
    return DL_OK;
}

/* The statement's one result row: BIGINT columns named as Spark names them. */
static dl_status
counts_row(dl_sql_binder *b, dl_sql_dml_outcome *o, dl_sql_plan **out, dl_error *err) {
    dl_sql_col_spec specs[N_RESULT_COLS];
    int32_t n = 0;
    for (int i = 0; i < N_RESULT_COLS; i++) {
        if (result_cols[i].kind == o->kind) {
            specs[n++] = (dl_sql_col_spec){result_cols[i].name, dl_vec_type_prim(DL_VEC_TYPE_LONG)};
        }
    }
    const dl_type *schema = NULL;
    DL_TRY(dl_sql_make_schema(b, specs, n, &schema, err));
    return dl_sql_plan_one_row(b, schema, fill_counts, o, out, err);
}

static dl_status
run_statement(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    switch (stmt->kind) {
    case DL_SQL_STMT_CREATE_TABLE:
        return stmt->u.create_table.is_clone ? dl_sql_dml_clone(b, stmt, out, err)
                                             : dl_sql_dml_create(b, stmt, err);
    case DL_SQL_STMT_INSERT:
        return dl_sql_dml_insert(b, stmt, err);
    case DL_SQL_STMT_COPY_INTO:
        return dl_sql_dml_copy_into(b, stmt, err);
    case DL_SQL_STMT_DELETE:
        return dl_sql_dml_delete(b, stmt, err);
    case DL_SQL_STMT_UPDATE:
        return dl_sql_dml_update(b, stmt, err);
    case DL_SQL_STMT_MERGE:
        return dl_sql_dml_merge(b, stmt, err);
    case DL_SQL_STMT_RESTORE:
        return dl_sql_dml_restore(b, stmt, err);
    case DL_SQL_STMT_CONVERT:
        return dl_sql_dml_convert(b, stmt, err);
    case DL_SQL_STMT_ALTER_TABLE:
        return dl_sql_dml_alter(b, stmt, err);
    case DL_SQL_STMT_VACUUM:
        return dl_sql_dml_vacuum(b, stmt, out, err);
    case DL_SQL_STMT_OPTIMIZE:
        return dl_sql_dml_optimize(b, stmt, out, err);
    default:
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err, "%s is not supported yet",
                         dl_sql_stmt_kind_name(stmt->kind));
    }
}

dl_status
dl_sql_exec_dml(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    *out = NULL;
    if (!returns_counts(stmt->kind)) {
        return run_statement(b, stmt, out, err);
    }
    dl_sql_dml_outcome outcome = {.kind = stmt->kind};
    b->dml_outcome = &outcome;
    dl_status s = run_statement(b, stmt, out, err);
    b->dml_outcome = NULL;
    DL_TRY(s);
    return counts_row(b, &outcome, out, err);
}

/* ---- the target ------------------------------------------------------------------------------ */

static void
release_table(void *ctx) {
    dl_delta_table_free(ctx);
}

dl_status
dl_sql_dml_hold_table(dl_sql_binder *b, dl_delta_table *table, dl_error *err) {
    dl_status s = dl_arena_on_reset(b->arena, release_table, table, err);
    if (s != DL_OK) {
        dl_delta_table_free(table);
    }
    return s;
}

static dl_status
target_from_snapshot(dl_sql_binder *b, dl_sql_dml_target *t, uint32_t loc, dl_error *err) {
    dl_delta_snapshot *snap = t->snap;
    const dl_delta_metadata *md = dl_delta_snapshot_metadata(snap);
    t->schema = dl_delta_snapshot_schema(snap)->type;
    if (t->schema == NULL) {
        DL_SQL_BIND_FAIL(b, loc, DL_ERR_CORRUPT, err, "table %s has no schema", t->display);
    }
    t->parts = md->partition_columns;
    t->n_parts = md->n_partition_columns;
    t->store = dl_delta_snapshot_store(snap);
    t->root = dl_delta_snapshot_root(snap);
    return DL_OK;
}

static dl_status
open_target(dl_sql_binder *b, const dl_sql_name *name, bool is_path, dl_str path, uint32_t loc,
            dl_sql_dml_target *out, dl_error *err) {
    memset(out, 0, sizeof(*out));
    DL_TRY(dl_sql_open_table(b, name, is_path, path, loc, &out->table, &out->display, err));
    DL_TRY(dl_sql_dml_hold_table(b, out->table, err));
    /* Stats stay in the log (a remove reads them back from a commit or checkpoint row). */
    dl_status s = dl_delta_snapshot_latest(out->table, NULL, &out->snap, err);
    if (s != DL_OK) {
        dl_sql_binder_locate(b, loc, err);
        return s;
    }
    DL_TRY(dl_sql_hold_snapshot(b, out->snap, err));
    return target_from_snapshot(b, out, loc, err);
}

dl_status
dl_sql_dml_open(dl_sql_binder *b, const dl_sql_name *name, uint32_t loc, dl_sql_dml_target *out,
                dl_error *err) {
    return open_target(b, name, false, DL_STR(""), loc, out, err);
}

dl_status
dl_sql_dml_open_target(dl_sql_binder *b, const dl_sql_target *target, uint32_t loc,
                       dl_sql_dml_target *out, dl_error *err) {
    return open_target(b, &target->name, target->is_path, target->path, loc, out, err);
}

bool
dl_sql_dml_is_partition_column(const dl_sql_dml_target *t, int32_t col, const char **out_name) {
    if (col < 0 || col >= t->schema->n_fields) {
        return false;
    }
    const char *name = t->schema->fields[col].name;
    for (int32_t i = 0; i < t->n_parts; i++) {
        if (dl_str_eq_nocase(dl_str_from_cstr(t->parts[i]), dl_str_from_cstr(name))) {
            if (out_name != NULL) {
                *out_name = t->parts[i];
            }
            return true;
        }
    }
    return false;
}

/* ---- constants and conforming ------------------------------------------------------------- */

dl_sql_bexpr *
dl_sql_dml_int(dl_sql_binder *b, int64_t v) {
    dl_vector *vec = NULL;
    dl_error ignored;
    if (dl_vec_new(b->exec->alloc, dl_vec_type_prim(DL_VEC_TYPE_LONG), 1, &vec, &ignored) !=
        DL_OK) {
        return NULL;
    }
    dl_sql_bexpr *e = NULL;
    if (dl_vec_append_i64(vec, v, &ignored) == DL_OK) {
        e = dl_sql_bexpr_const(b->arena, vec, 0);
    }
    dl_vec_unref(vec);
    return e;
}

dl_sql_bexpr *
dl_sql_dml_null(dl_sql_binder *b, const dl_type *type) {
    dl_vector *vec = NULL;
    dl_error ignored;
    if (dl_vec_new_const_null(b->exec->alloc, type, 1, &vec, &ignored) != DL_OK) {
        return NULL;
    }
    dl_sql_bexpr *e = dl_sql_bexpr_const(b->arena, vec, 0);
    dl_vec_unref(vec);
    return e;
}

/* Table column i from plan column from (< 0: NULL), cast to its type. */
static dl_status
conform_column(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_sql_plan *plan, int32_t from,
               int32_t i, uint32_t loc, dl_sql_bexpr **out, dl_error *err) {
    const dl_type_field *f = &t->schema->fields[i];
    if (from < 0) {
        *out = dl_sql_dml_null(b, f->type);
        DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory planning a write");
        return DL_OK;
    }
    dl_sql_bexpr *col = dl_sql_bexpr_column(b->arena, from, plan->schema->fields[from].type);
    DL_CHECK(col != NULL, err, DL_ERR_NOMEM, "out of memory planning a write");
    col->loc = loc;
    dl_status s = dl_sql_binder_store_cast(b, col, f, t->display, out, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "cannot write column '%s' of %s", f->name, t->display);
    }
    return s;
}

dl_status
dl_sql_dml_conform(dl_sql_binder *b, const dl_sql_dml_target *t, dl_sql_plan *plan,
                   const int32_t *map, uint32_t loc, dl_sql_plan **out, dl_error *err) {
    int32_t n = t->schema->n_fields;
    dl_sql_bexpr **exprs = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(dl_sql_bexpr *));
    const char **names = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(const char *));
    DL_CHECK(exprs != NULL && names != NULL, err, DL_ERR_NOMEM, "out of memory planning a write");
    for (int32_t i = 0; i < n; i++) {
        names[i] = t->schema->fields[i].name;
        DL_TRY(conform_column(b, t, plan, map[i], i, loc, &exprs[i], err));
    }
    return dl_sql_plan_project(b, plan, exprs, names, n, out, err);
}

dl_status
dl_sql_dml_skip_predicate(dl_sql_binder *b, const dl_sql_dml_target *t, dl_sql_bexpr **conds,
                          int32_t n_conds, const dl_delta_pred **out, dl_error *err) {
    *out = NULL;
    if (n_conds == 0) {
        return DL_OK;
    }
    int32_t n = t->schema->n_fields;
    int32_t *cols = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(int32_t));
    DL_CHECK(cols != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < n; i++) {
        cols[i] = i;
    }
    dl_sql_scan scan = {.source = DL_SQL_SCAN_DELTA,
                        .table_name = t->display,
                        .snapshot = t->snap,
                        .table_schema = t->schema,
                        .columns = cols,
                        .n_columns = n,
                        .filters = conds,
                        .n_filters = n_conds,
                        .limit = -1};
    *out = dl_sql_scan_predicate(b->arena, &scan);
    return DL_OK;
}

/* ---- running and committing -------------------------------------------------------------- */

void
dl_sql_dml_write_spec(dl_sql_binder *b, const dl_sql_dml_target *t, const char *job_id,
                      dl_ops_write_spec *out) {
    *out = (dl_ops_write_spec){.store = t->store,
                               .table_root = t->root,
                               .schema = t->schema,
                               .partition_columns = t->parts,
                               .n_partition_columns = t->n_parts,
                               .job_id = job_id,
                               .data_change = true,
                               .alloc = b->exec->alloc};
    if (t->snap != NULL) {
        out->mapping_schema = dl_delta_snapshot_schema(t->snap);
        out->mapping_mode = dl_delta_snapshot_cm_mode(t->snap);
    }
    const dl_sql_session *ss = b->session;
    out->max_file_rows = dl_sql_session_get_i64(ss, "spark.sql.files.maxRecordsPerFile");
    out->row_group_bytes = dl_sql_session_get_i64(ss, "parquet.block.size");
    out->page_bytes = dl_sql_session_get_i64(ss, "parquet.page.size");
    out->page_rows = dl_sql_session_get_i64(ss, "parquet.page.row.count.limit");
}

dl_status
dl_sql_dml_writer(dl_sql_binder *b, const dl_sql_dml_target *t, dl_delta_tx *tx,
                  dl_ops_writer **out, dl_error *err) {
    dl_ops_write_spec spec;
    dl_sql_dml_write_spec(b, t, dl_delta_tx_id(tx), &spec);
    const dl_delta_metadata *md = t->snap != NULL ? dl_delta_snapshot_metadata(t->snap) : NULL;
    const dl_delta_kv *conf = t->has_write_conf ? t->write_conf : NULL;
    int32_t n_conf = t->has_write_conf ? t->n_write_conf : 0;
    if (!t->has_write_conf && md != NULL) {
        conf = md->configuration;
        n_conf = md->n_configuration;
    }
    dl_sql_dml_checks *checks = NULL;
    dl_status s = dl_sql_dml_checks_new(b, t->schema, conf, n_conf, &checks, err);
    if (s == DL_OK && checks != NULL) {
        spec.check_rows = dl_sql_dml_checks_run;
        spec.check_ctx = checks;
    }
    /* a staged metaData (CREATE, schema evolution) decides the files' physical names */
    if (s == DL_OK) {
        s = dl_delta_colmap_tx_schema(tx, &spec.mapping_schema, &spec.mapping_mode, err);
    }
    s = s == DL_OK ? dl_ops_writer_new(&spec, out, err) : s;
    if (s != DL_OK) {
        dl_error_prefix(err, "table %s", t->display);
    }
    return s;
}

/* Whether the target row (id) of row `row` was met before; remembers it. A row without a
 * target row was not. */
static dl_status
seen_before(dl_sql_dml_sink *sink, int64_t row, const dl_batch *batch, bool *out, dl_error *err) {
    *out = false;
    const dl_vector *ids = batch->cols[sink->id_col];
    if (dl_vec_is_null(ids, row)) {
        return DL_OK;
    }
    const dl_vector *flat = NULL;
    int64_t i = dl_vec_resolve(ids, row, &flat);
    dl_str id = dl_vec_get_str(flat, i);
    if (dl_hmap_get(&sink->seen, id, NULL)) {
        *out = true;
        return DL_OK;
    }
    char *key = dl_arena_strndup(sink->arena, id.ptr, id.len);
    DL_CHECK(key != NULL, err, DL_ERR_NOMEM, "out of memory checking MERGE matches");
    return dl_hmap_put(&sink->seen, dl_str_make(key, id.len), 1, err);
}

/* A target row (id) reaching a MATCHED clause a second time: Spark's error. */
static dl_status
check_unique(dl_sql_dml_sink *sink, int64_t row, const dl_batch *batch, dl_error *err) {
    bool is_seen = false;
    DL_TRY(seen_before(sink, row, batch, &is_seen, err));
    if (is_seen) {
        return dl_error_set(
            err, DL_ERR_CONSTRAINT,
            "[DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE] Cannot perform Merge as "
            "multiple source rows matched and attempted to modify the same target row in the "
            "Delta table %s in possibly conflicting ways. By SQL semantics of Merge, when "
            "multiple source rows match on the same target row, the result may be ambiguous as "
            "it is unclear which source row should be used to update or delete the matching "
            "target row",
            sink->target != NULL ? sink->target : "");
    }
    return DL_OK;
}

/* numSourceRows: a source row met by no target row comes once; one that met several target
 * rows comes once per match, so those are counted by their marker (a BIGINT id per source row,
 * 0, 1, 2, ...: a bitmap of the ids seen). */
static dl_status
count_source(dl_sql_dml_sink *sink, const dl_batch *batch, int64_t row, dl_error *err) {
    if (sink->id_col < 0 || dl_vec_is_null(batch->cols[sink->id_col], row)) {
        sink->n_source++;
        return DL_OK;
    }
    int64_t id = dl_sql_vec_i64(batch->cols[sink->source_col], row);
    DL_CHECK(id >= 0, err, DL_ERR_INTERNAL, "a MERGE source row id is negative");
    size_t byte = (size_t)id / 8;
    dl_buf *bits = &sink->sources;
    if (byte >= bits->len) {
        size_t grow = DL_MAX(byte + 1 - bits->len, bits->len);
        uint8_t *fresh = dl_buf_extend(bits, grow, err);
        DL_CHECK(fresh != NULL, err, DL_ERR_NOMEM, "out of memory counting MERGE source rows");
        memset(fresh, 0, grow);
    }
    uint8_t mask = (uint8_t)(1u << (id % 8));
    if ((bits->data[byte] & mask) == 0) {
        bits->data[byte] |= mask;
        sink->n_source++;
    }
    return DL_OK;
}

/* Counts row `row` of batch by its action code; keeps it in sink->sel when written. */
static dl_status
take_row(dl_sql_dml_sink *sink, const dl_batch *batch, int64_t row, int64_t *kept, dl_error *err) {
    const dl_vector *code = batch->cols[sink->code_col];
    int64_t c = dl_vec_is_null(code, row) ? 0 : dl_sql_vec_i64(code, row);
    c = c < 0 || c > 15 ? 0 : c;
    bool has_source = sink->source_col >= 0 && !dl_vec_is_null(batch->cols[sink->source_col], row);
    if (has_source) {
        DL_TRY(count_source(sink, batch, row, err));
    }
    if ((sink->once_mask >> c) & 1u) {
        /* the one unconditional MATCHED DELETE: a target row met by several source rows is
         * deleted, counted and written as a change once */
        bool is_seen = false;
        DL_TRY(seen_before(sink, row, batch, &is_seen, err));
        if (is_seen) {
            return DL_OK;
        }
    }
    sink->counts[c]++;
    if (sink->is_match_unique && has_source) {
        DL_TRY(check_unique(sink, row, batch, err)); /* source-only rows have a NULL id */
    }
    if (sink->marks != NULL && ((sink->mark_mask >> c) & 1u)) {
        DL_TRY(dl_sql_dml_mark_row(sink->marks, batch, sink->file_col, sink->row_col, row, err));
    }
    if ((sink->keep_mask >> c) & 1u) {
        sink->sel[(*kept)++] = (uint32_t)row;
    }
    return DL_OK;
}

static dl_status
sink_take(void *ctx, const dl_batch *batch, dl_error *err) {
    dl_sql_dml_sink *sink = ctx;
    dl_batch view = {.schema = sink->schema,
                     .n_cols = sink->schema->n_fields,
                     .cols = batch->cols,
                     .count = batch->count,
                     .sel = batch->sel,
                     .alloc = batch->alloc};
    if (sink->code_col >= 0) {
        int64_t kept = 0;
        for (int64_t k = 0; k < batch->count; k++) {
            DL_TRY(take_row(sink, batch, dl_vec_batch_row(batch, k), &kept, err));
        }
        view.count = kept;
        view.sel = sink->sel;
    }
    if (sink->cdf != NULL) {
        DL_TRY(dl_sql_dml_cdf_take(sink, batch, err));
    }
    return dl_ops_writer_write(sink->writer, &view, err);
}

dl_status
dl_sql_dml_run(dl_sql_binder *b, dl_sql_plan *plan, dl_sql_dml_sink *sink, dl_error *err) {
    dl_status s = dl_sql_plan_run(b->exec, plan, -1, sink_take, sink, err);
    if (s == DL_OK) {
        s = dl_ops_writer_finish(sink->writer, err);
    }
    if (s != DL_OK) {
        dl_ops_writer_abort(sink->writer);
    }
    return s;
}

dl_status
dl_sql_dml_remove_all(const dl_sql_dml_target *t, dl_delta_tx *tx, int64_t *out_files,
                      int64_t *out_bytes, dl_error *err) {
    *out_files = 0;
    *out_bytes = 0;
    if (t->snap == NULL) {
        return DL_OK;
    }
    size_t n = dl_delta_snapshot_file_count(t->snap);
    for (size_t i = 0; i < n; i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(t->snap, i);
        DL_TRY(dl_delta_tx_remove_snapshot_file(tx, f, true, err));
        *out_files += 1;
        *out_bytes += f->size > 0 ? f->size : 0;
    }
    return DL_OK;
}

dl_status
dl_sql_dml_commit(dl_delta_tx *tx, dl_ops_writer *writer, dl_error *err) {
    dl_status s = dl_delta_tx_commit(tx, NULL, err);
    if (s != DL_OK) {
        dl_ops_writer_abort(writer);
    }
    dl_ops_writer_free(writer);
    dl_delta_tx_free(tx);
    return s;
}

void
dl_sql_dml_discard(dl_delta_tx *tx, dl_ops_writer *writer) {
    dl_ops_writer_abort(writer);
    dl_ops_writer_free(writer);
    dl_delta_tx_free(tx);
}

const char *
dl_sql_dml_expr_text(dl_sql_binder *b, const dl_sql_expr *e) {
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    dl_error ignored;
    const char *out = NULL;
    if (dl_sql_expr_print(e, &text, &ignored) == DL_OK) {
        out = dl_arena_strndup(b->arena, (const char *)text.data, text.len);
    }
    dl_buf_destroy(&text);
    return out != NULL ? out : "";
}

dl_status
dl_sql_dml_json_list(dl_sql_binder *b, const char *const *items, int32_t n, const char **out,
                     dl_error *err) {
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    dl_json_writer jw;
    dl_json_writer_init(&jw, &text, 0);
    dl_status s = dl_json_writer_begin_array(&jw, err);
    for (int32_t i = 0; i < n && s == DL_OK; i++) {
        s = dl_json_writer_string_cstr(&jw, items[i], err);
    }
    if (s == DL_OK) {
        s = dl_json_writer_end_array(&jw, err);
    }
    if (s == DL_OK) {
        *out = dl_arena_strndup(b->arena, (const char *)text.data, text.len);
        s = *out != NULL ? DL_OK : dl_error_set(err, DL_ERR_NOMEM, "out of memory");
    }
    dl_json_writer_destroy(&jw);
    dl_buf_destroy(&text);
    return s;
}

dl_status
dl_sql_dml_param_array(dl_sql_binder *b, dl_delta_tx *tx, const char *key, const char *const *items,
                       int32_t n, dl_error *err) {
    const char *text = NULL;
    DL_TRY(dl_sql_dml_json_list(b, items, n, &text, err));
    return dl_delta_tx_param_string(tx, key, text, err);
}

dl_status
dl_sql_dml_set_metrics(dl_delta_tx *tx, const dl_sql_dml_metric *metrics, size_t n, dl_error *err) {
    for (size_t i = 0; i < n; i++) {
        DL_TRY(dl_delta_tx_metric(tx, metrics[i].key, metrics[i].value, err));
    }
    return DL_OK;
}

static int64_t
clock_read_ms(clockid_t clock) {
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0) {
        return 0;
    }
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t
dl_sql_dml_clock_ms(void) {
    return clock_read_ms(CLOCK_MONOTONIC);
}

int64_t
dl_sql_dml_now_ms(void) {
    return clock_read_ms(CLOCK_REALTIME);
}
