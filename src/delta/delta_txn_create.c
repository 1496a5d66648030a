/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Creating and replacing tables (Spark's CreateDeltaTableCommand as DeltaOperations records
 * it): a protocol chosen from the features the table uses (delta_txn_protocol.c), a metaData
 * with a fresh random id, and commitInfo
 *
 *   operation            "CREATE TABLE", "CREATE TABLE AS SELECT", "REPLACE TABLE",
 *                        "REPLACE TABLE AS SELECT", "CREATE OR REPLACE TABLE",
 *                        "CREATE OR REPLACE TABLE AS SELECT"
 *   operationParameters  isManaged ("true"/"false"), description (string or null),
 *                        partitionBy (a JSON array as a string), clusterBy ("[]"),
 *                        properties (a JSON object as a string)
 *
 * Replacing a table is dropping and recreating it in one commit: every live file is removed,
 * the metaData (with a new id) replaces the old one, and the protocol never goes down (the
 * new one is chosen on top of the old). A replace reads the whole table, so a concurrent
 * append fails it rather than surviving under the new schema.
 */
#include <string.h>

#include "delta/delta_txn_int.h"
#include "json/json.h"

static dl_status
check_mode(const dl_delta_tx *tx, const dl_delta_create_spec *spec, dl_error *err) {
    if (spec->mode == DL_DELTA_CREATE && tx->snap != NULL) {
        dl_error_set(err, DL_ERR_EXISTS, "CREATE TABLE: %s already exists (version %lld)",
                     tx->table->display, (long long)tx->read_version);
        dl_error_hint(err, "use CREATE OR REPLACE TABLE, or CREATE TABLE IF NOT EXISTS");
        return DL_ERR_EXISTS;
    }
    if (spec->mode == DL_DELTA_REPLACE && tx->snap == NULL) {
        DL_FAIL(err, DL_ERR_NOT_FOUND, "REPLACE TABLE: %s does not exist", tx->table->display);
    }
    DL_CHECK(spec->mode >= DL_DELTA_CREATE && spec->mode <= DL_DELTA_REPLACE, err,
             DL_ERR_INVALID_ARG, "create table: unknown mode %d", (int)spec->mode);
    return DL_OK;
}

static dl_status
check_partition(const dl_delta_create_spec *spec, int32_t i, dl_error *err) {
    const char *col = spec->partition_columns[i];
    DL_CHECK(col != NULL, err, DL_ERR_INVALID_ARG, "create table: partition column %d is NULL",
             (int)i);
    const dl_delta_field *f = dl_delta_schema_find(spec->schema, dl_str_from_cstr(col));
    DL_CHECK(f != NULL, err, DL_ERR_INVALID_ARG,
             "create table: partition column '%s' is not in the schema", col);
    DL_CHECK(!dl_vec_type_is_nested(f->type), err, DL_ERR_INVALID_ARG,
             "create table: partition column '%s' has a nested type; partition columns must be "
             "of a primitive type",
             col);
    for (int32_t j = 0; j < i; j++) {
        DL_CHECK(
            !dl_str_eq_nocase(dl_str_from_cstr(spec->partition_columns[j]), dl_str_from_cstr(col)),
            err, DL_ERR_INVALID_ARG, "create table: partition column '%s' is repeated", col);
    }
    return DL_OK;
}

static dl_status
check_partitions(const dl_delta_create_spec *spec, dl_error *err) {
    DL_CHECK(spec->n_partition_columns >= 0 &&
                 (spec->n_partition_columns == 0 || spec->partition_columns != NULL),
             err, DL_ERR_INVALID_ARG, "create table: bad partition column count");
    for (int32_t i = 0; i < spec->n_partition_columns; i++) {
        DL_TRY(check_partition(spec, i, err));
    }
    DL_CHECK(spec->n_partition_columns < spec->schema->n_fields || spec->schema->n_fields == 0, err,
             DL_ERR_INVALID_ARG,
             "create table: every column is a partition column; a table needs a data column");
    return DL_OK;
}

static dl_delta_op
create_op(const dl_delta_create_spec *spec) {
    switch (spec->mode) {
    case DL_DELTA_REPLACE:
        return spec->is_as_select ? DL_DELTA_OP_REPLACE_TABLE_AS_SELECT : DL_DELTA_OP_REPLACE_TABLE;
    case DL_DELTA_CREATE_OR_REPLACE:
        return spec->is_as_select ? DL_DELTA_OP_CREATE_OR_REPLACE_TABLE_AS_SELECT
                                  : DL_DELTA_OP_CREATE_OR_REPLACE_TABLE;
    default:
        return spec->is_as_select ? DL_DELTA_OP_CREATE_TABLE_AS_SELECT : DL_DELTA_OP_CREATE_TABLE;
    }
}

/* The names as a JSON array text, in arena. */
static dl_status
names_json(const char *const *names, int32_t n, dl_arena *arena, const char **out, dl_error *err) {
    dl_buf buf;
    dl_buf_init(&buf, arena->alloc);
    dl_json_writer w;
    dl_json_writer_init(&w, &buf, 0);
    dl_status s = dl_json_writer_begin_array(&w, err);
    for (int32_t i = 0; s == DL_OK && i < n; i++) {
        s = dl_json_writer_string_cstr(&w, names[i], err);
    }
    if (s == DL_OK) {
        s = dl_json_writer_end_array(&w, err);
    }
    dl_json_writer_destroy(&w);
    if (s == DL_OK) {
        *out = dl_arena_strndup(arena, (const char *)buf.data, buf.len);
        s = *out != NULL ? DL_OK : dl_error_set(err, DL_ERR_NOMEM, "out of memory");
    }
    dl_buf_destroy(&buf);
    return s;
}

static dl_status
stage_params(dl_delta_tx *tx, const dl_delta_create_spec *spec, const dl_delta_metadata *md,
             dl_error *err) {
    const char *partition_by = NULL;
    const char *properties = NULL;
    DL_TRY(
        names_json(md->partition_columns, md->n_partition_columns, &tx->arena, &partition_by, err));
    DL_TRY(
        dl_delta_kv_to_json(md->configuration, md->n_configuration, &tx->arena, &properties, err));
    DL_TRY(dl_delta_tx_param_string(tx, "isManaged", spec->is_managed ? "true" : "false", err));
    DL_TRY(dl_delta_tx_param_string(tx, "description", spec->description, err));
    DL_TRY(dl_delta_tx_param_string(tx, "partitionBy", partition_by, err));
    DL_TRY(dl_delta_tx_param_string(tx, "clusterBy",
                                    spec->cluster_by != NULL ? spec->cluster_by : "[]", err));
    return dl_delta_tx_param_string(tx, "properties", properties, err);
}

/* metaData of the new table: everything but the configuration, which the caller sets. */
static dl_status
build_metadata(dl_delta_tx *tx, const dl_delta_create_spec *spec, dl_delta_metadata *md,
               dl_error *err) {
    char id[37];
    DL_TRY(dl_delta_uuid_string(id, err));
    dl_buf schema_json;
    dl_buf_init(&schema_json, tx->alloc);
    dl_status s = dl_delta_schema_to_json(spec->schema, &schema_json, err);
    memset(md, 0, sizeof(*md));
    if (s == DL_OK) {
        md->schema_string =
            dl_arena_strndup(&tx->arena, (const char *)schema_json.data, schema_json.len);
        md->id = dl_arena_strndup(&tx->arena, id, strlen(id));
        s = md->schema_string != NULL && md->id != NULL
                ? DL_OK
                : dl_error_set(err, DL_ERR_NOMEM, "out of memory creating a table");
    }
    dl_buf_destroy(&schema_json);
    DL_TRY(s);
    md->name = spec->name;
    md->description = spec->description;
    md->format_provider = "parquet";
    md->format_options = NULL;
    md->n_format_options = 0;
    md->partition_columns = spec->partition_columns;
    md->n_partition_columns = spec->n_partition_columns;
    md->has_created_time = true;
    md->created_time = tx->opts.now_ms > 0 ? tx->opts.now_ms : dl_delta_now_ms();
    md->configuration = spec->configuration;
    md->n_configuration = spec->n_configuration;
    return DL_OK;
}

static dl_status
remove_all_files(dl_delta_tx *tx, dl_error *err) {
    size_t n = dl_delta_snapshot_file_count(tx->snap);
    for (size_t i = 0; i < n; i++) {
        DL_TRY(
            dl_delta_tx_remove_snapshot_file(tx, dl_delta_snapshot_file(tx->snap, i), true, err));
    }
    dl_delta_tx_read_whole_table(tx);
    return DL_OK;
}

dl_status
dl_delta_tx_create_table(dl_delta_tx *tx, const dl_delta_create_spec *spec, dl_error *err) {
    DL_CHECK(spec != NULL && spec->schema != NULL, err, DL_ERR_INVALID_ARG,
             "create table: a schema is required");
    DL_CHECK(!tx->has_metadata && !tx->has_protocol, err, DL_ERR_INVALID_ARG,
             "create table: the transaction already has a metaData or protocol");
    DL_CHECK(spec->n_configuration >= 0 &&
                 (spec->n_configuration == 0 || spec->configuration != NULL),
             err, DL_ERR_INVALID_ARG, "create table: bad configuration count");
    DL_TRY(check_mode(tx, spec, err));
    DL_TRY(check_partitions(spec, err));
    dl_delta_metadata md;
    DL_TRY(build_metadata(tx, spec, &md, err));
    /* The protocol is chosen with the pseudo-properties visible; set_metadata drops them. */
    dl_delta_protocol protocol;
    const dl_delta_protocol *base = tx->snap != NULL ? dl_delta_snapshot_protocol(tx->snap) : NULL;
    DL_TRY(dl_delta_protocol_for_metadata(&md, spec->schema, base, &tx->arena, &protocol, err));
    DL_TRY(dl_delta_tx_set_metadata(tx, &md, err));
    if (base == NULL || !dl_delta_protocol_equal(base, &protocol)) {
        DL_TRY(dl_delta_tx_set_protocol(tx, &protocol, err));
    }
    if (tx->snap != NULL) {
        DL_TRY(remove_all_files(tx, err));
    }
    dl_delta_tx_set_operation(tx, create_op(spec));
    return stage_params(tx, spec, &tx->metadata, err);
}
