/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The change data feed, write side (sql_dml.h; PROTOCOL.md "Change Data Files", as Spark's
 * DELETE, UPDATE and MERGE write it with delta.enableChangeDataFeed): the rows a statement
 * changes go to change data files under _change_data/ (partitioned as the table, named
 * cdc-NNNNN-<uuid>.c000.snappy.parquet) with a `_change_type` column -- delete for deleted
 * rows, update_preimage and update_postimage for the old and new values of updated rows,
 * insert for the rows a MERGE inserts -- and each file is a cdc action of the commit.
 *
 * Where Delta writes none, neither do we: appends and overwrites (their add and remove
 * actions are the change), a DELETE of whole files by partition values, a DELETE with deletion
 * vectors (the change is the vectors' difference) and a MERGE that only inserts. A reader
 * takes a commit with cdc actions from those files alone, so a statement that writes one
 * writes every row it changes to them.
 *
 * The files are removed when the statement does not commit (the change is dropped with an
 * arena callback unless dl_sql_dml_cdf_kept was called).
 */
#include <string.h>

#include "delta/delta_changes.h"
#include "sql/commands/sql_dml.h"

static const char *const kind_names[DL_SQL_CDF_KINDS] = {"insert", "delete", "update_preimage",
                                                         "update_postimage"};

bool
dl_sql_dml_is_cdf(const dl_sql_dml_target *t) {
    return t->snap != NULL && dl_delta_md_is_cdf(dl_delta_snapshot_metadata(t->snap));
}

static void
release_cdf(void *ctx) {
    dl_sql_dml_cdf *c = ctx;
    if (!c->is_kept) {
        dl_ops_writer_abort(c->writer);
    }
    dl_ops_writer_free(c->writer);
}

/* A CONST change type column of length rows. */
static dl_status
kind_column(dl_sql_cdf_kind kind, int64_t length, const dl_allocator *alloc, dl_vector **out,
            dl_error *err) {
    DL_TRY(dl_vec_new(alloc, dl_vec_type_prim(DL_VEC_TYPE_STRING), 1, out, err));
    dl_status s = dl_vec_append_str(*out, kind_names[kind], strlen(kind_names[kind]), err);
    if (s != DL_OK) {
        dl_vec_unref(*out);
        return s;
    }
    dl_vec_make_const(*out, length);
    return DL_OK;
}

/* The change files' columns: the table's, then _change_type. */
static dl_status
cdf_schema(dl_sql_binder *b, const dl_type *table, const dl_type **out, dl_error *err) {
    int32_t n = table->n_fields;
    dl_type_field *fields = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(*fields));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < n; i++) {
        fields[i] = table->fields[i];
    }
    fields[n] = (dl_type_field){
        .name = "_change_type", .type = dl_vec_type_prim(DL_VEC_TYPE_STRING), .is_nullable = true};
    return dl_vec_type_struct(b->arena, fields, n + 1, out, err);
}

dl_status
dl_sql_dml_cdf_new(dl_sql_binder *b, const dl_sql_dml_target *t, dl_delta_tx *tx,
                   dl_sql_dml_cdf **out, dl_error *err) {
    *out = NULL;
    if (!dl_sql_dml_is_cdf(t)) {
        return DL_OK;
    }
    static const char *const reserved[] = {"_change_type", "_commit_version", "_commit_timestamp"};
    for (int32_t i = 0; i < t->schema->n_fields; i++) {
        for (size_t k = 0; k < DL_ARRAY_LEN(reserved); k++) {
            if (dl_str_eq_nocase(dl_str_from_cstr(t->schema->fields[i].name),
                                 dl_str_from_cstr(reserved[k]))) {
                DL_FAIL(err, DL_ERR_SCHEMA,
                        "[RESERVED_CDC_COLUMNS_ON_WRITE] table %s: column '%s' is reserved for "
                        "the change data feed, which the table has on; rename the column or set "
                        "delta.enableChangeDataFeed = false",
                        t->display, t->schema->fields[i].name);
            }
        }
    }
    dl_sql_dml_cdf *c = dl_arena_alloc_zero(b->arena, sizeof(*c));
    DL_CHECK(c != NULL, err, DL_ERR_NOMEM, "out of memory");
    c->n = t->schema->n_fields;
    c->cols = dl_arena_alloc_zero(b->arena, (size_t)(c->n + 1) * sizeof(dl_vector *));
    DL_CHECK(c->cols != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(cdf_schema(b, t->schema, &c->schema, err));
    dl_ops_write_spec spec;
    dl_sql_dml_write_spec(b, t, dl_delta_tx_id(tx), &spec);
    spec.schema = c->schema;
    spec.is_change_data = true;
    spec.data_change = false;
    dl_status s = dl_ops_writer_new(&spec, &c->writer, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "table %s: change data", t->display);
        return s;
    }
    s = dl_arena_on_reset(b->arena, release_cdf, c, err);
    if (s != DL_OK) {
        dl_ops_writer_free(c->writer);
        return s;
    }
    *out = c;
    return DL_OK;
}

dl_status
dl_sql_dml_cdf_write(dl_sql_dml_cdf *c, dl_vector *const *cols, int64_t count, const uint32_t *sel,
                     dl_sql_cdf_kind kind, const dl_allocator *alloc, dl_error *err) {
    if (c == NULL || count == 0) {
        return DL_OK;
    }
    memcpy(c->cols, cols, (size_t)c->n * sizeof(dl_vector *));
    DL_TRY(kind_column(kind, cols[0]->length, alloc, &c->cols[c->n], err));
    dl_batch view = {.schema = c->schema,
                     .n_cols = c->n + 1,
                     .cols = c->cols,
                     .count = count,
                     .sel = sel,
                     .alloc = alloc};
    c->rows[kind] += count;
    dl_status s = dl_ops_writer_write(c->writer, &view, err);
    dl_vec_unref(c->cols[c->n]);
    return s;
}

dl_status
dl_sql_dml_cdf_stage(dl_sql_dml_cdf *c, dl_delta_tx *tx, int64_t *out_files, dl_error *err) {
    *out_files = 0;
    if (c == NULL) {
        return DL_OK;
    }
    DL_TRY(dl_ops_writer_finish(c->writer, err));
    DL_TRY(dl_ops_writer_stage_cdc(c->writer, tx, err));
    *out_files = (int64_t)dl_ops_writer_file_count(c->writer);
    return DL_OK;
}

void
dl_sql_dml_cdf_kept(dl_sql_dml_cdf *c) {
    if (c != NULL) {
        c->is_kept = true;
    }
}

/* ---- through a sink (rows with action codes) ---------------------------------------------- */

void
dl_sql_dml_cdf_route(dl_sql_dml_sink *sink, dl_sql_dml_cdf *c, int32_t old_col, int64_t code,
                     int new_kind, int old_kind) {
    sink->cdf = c;
    sink->cdf_old_col = old_col;
    sink->cdf_new[code] = (uint8_t)(new_kind + 1);
    sink->cdf_old[code] = (uint8_t)(old_kind + 1);
}

/* Rows of one kind taken from the batch's new (is_old false) or old values. */
static dl_status
write_kind(dl_sql_dml_sink *sink, const dl_batch *batch, int kind, bool is_old, dl_error *err) {
    uint32_t *sel = sink->cdf_sel;
    int64_t m = 0;
    for (int64_t k = 0; k < batch->count; k++) {
        int64_t row = dl_vec_batch_row(batch, k);
        const dl_vector *code = batch->cols[sink->code_col];
        int64_t c = dl_vec_is_null(code, row) ? 0 : dl_sql_vec_i64(code, row);
        c = c < 0 || c > 15 ? 0 : c;
        int want = is_old ? sink->cdf_old[c] : sink->cdf_new[c];
        if (want == kind + 1) {
            sel[m++] = (uint32_t)row;
        }
    }
    dl_vector *const *cols = batch->cols + (is_old ? sink->cdf_old_col : 0);
    return dl_sql_dml_cdf_write(sink->cdf, cols, m, sel, (dl_sql_cdf_kind)kind, batch->alloc, err);
}

dl_status
dl_sql_dml_cdf_take(dl_sql_dml_sink *sink, const dl_batch *batch, dl_error *err) {
    for (int kind = 0; kind < DL_SQL_CDF_KINDS; kind++) {
        bool is_new = false, is_old = false;
        for (int c = 0; c < 16; c++) {
            is_new = is_new || sink->cdf_new[c] == kind + 1;
            is_old = is_old || sink->cdf_old[c] == kind + 1;
        }
        if (is_new) {
            DL_TRY(write_kind(sink, batch, kind, false, err));
        }
        if (is_old) {
            DL_TRY(write_kind(sink, batch, kind, true, err));
        }
    }
    return DL_OK;
}
