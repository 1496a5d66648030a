/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Parquet checkpoints for tests, written from JSON action lines with deltalite's Parquet
 * writer: each line ({"add":{...}}, {"metaData":{...}}, ...) becomes one row whose column of
 * that action holds the action's fields and whose other columns are null, in Spark's
 * checkpoint schema (PROTOCOL.md, "Checkpoint Schema"). Fields the schema does not have are
 * dropped; fields the line lacks are null.
 */
#ifndef DL_TESTS_DELTA_CP_UTIL_H
#define DL_TESTS_DELTA_CP_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "delta/delta.h"

/* Which columns the checkpoint has (beyond txn, add, remove, metaData, protocol). */
typedef struct cp_shape {
    bool has_domain; /* domainMetadata */
    bool is_v2;      /* checkpointMetadata and sidecar */
    bool is_sidecar; /* only add and remove (a sidecar file) */
    bool has_stats;  /* add.stats (default true unless no_stats) */
    bool no_stats;   /* leave add.stats out */
    bool has_dv;     /* add.deletionVector, remove.deletionVector */
    /* add.stats_parsed / add.partitionValues_parsed as Delta schema JSON of a struct, or NULL:
     * {"type":"struct","fields":[{"name":"numRecords","type":"long",...},...]} */
    const char *stats_parsed;
    const char *partition_parsed;
    int64_t row_group_rows; /* rows per row group; 0 = one row group */
} cp_shape;

/* Writes path (relative to the store's root) with the actions of lines ('\n'-separated).
 * False on any failure, with the reason in err when given. */
bool cp_write(dl_store *store, const char *path, const cp_shape *shape, const char *lines,
              dl_error *err);

/* The same one line at a time, for large checkpoints: open, add each line, close (which
 * commits the file; false on failure) or abort (nothing written; NULL-tolerant). */
typedef struct cp_writer cp_writer;
cp_writer *cp_writer_open(dl_store *store, const char *path, const cp_shape *shape, dl_error *err);
bool cp_writer_add(cp_writer *cw, dl_str line, dl_error *err);
bool cp_writer_close(cp_writer *cw, dl_error *err);
void cp_writer_abort(cp_writer *cw);

/* Data files for tests: a Parquet file of the columns of a Delta schema (JSON, as in
 * schemaString), one row per JSON object line keyed by column name (missing keys are null;
 * dates and timestamps as strings, decimals as numbers). */
typedef struct tp_options {
    int64_t row_group_rows;   /* 0 = one row group */
    const int32_t *field_ids; /* Parquet field ids (dl_pq_write_options.field_ids), or NULL */
    size_t n_field_ids;
} tp_options;

bool tp_write(dl_store *store, const char *path, const char *schema_json, const char *lines,
              const tp_options *opts, dl_error *err);

#endif /* DL_TESTS_DELTA_CP_UTIL_H */
