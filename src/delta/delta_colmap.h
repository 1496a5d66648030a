/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Column mapping on the write side (PROTOCOL.md "Column Mapping", "Writer Requirements for
 * Column Mapping"). In modes 'name' and 'id' every struct field of the schema, at any depth
 * (inside array elements and map keys and values too), carries the column metadata
 * delta.columnMapping.id (unique in the table, never reused) and
 * delta.columnMapping.physicalName, and the table property delta.columnMapping.maxColumnId is
 * at least the largest id. Data files name their columns by physical name and carry the ids
 * as Parquet field ids (Spark writes them in both modes); statistics and partition values are
 * keyed by physical names.
 *
 * Writers here:
 *   - a new table (or a replaced one) gets ids 1, 2, ... in schema order (depth first, a
 *     field before what is inside it) and physical names col-<uuid>;
 *   - an existing table switched from 'none' to 'name' keeps its files: each field's physical
 *     name is its current name;
 *   - fields added later (ADD COLUMNS, schema evolution) get the next ids and col-<uuid>.
 * Mode changes Delta refuses (between name and id, none to id on an existing table) are
 * refused with DELTA_UNSUPPORTED_COLUMN_MAPPING_MODE_CHANGE; going back to 'none', which
 * Delta 4 does by rewriting every file (REMOVE COLUMN MAPPING), is refused as unsupported.
 */
#ifndef DL_DELTA_COLMAP_H
#define DL_DELTA_COLMAP_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/compiler.h"
#include "base/error.h"
#include "delta/delta.h"
#include "vector/vector.h"

typedef struct dl_delta_tx dl_delta_tx;

/*
 * Completes the metaData staged in tx (dl_delta_tx_set_metadata calls it): checks the mode
 * change against the snapshot's, assigns ids and physical names to fields that lack them and
 * raises delta.columnMapping.maxColumnId. No-op for tables without column mapping. Errors:
 * SCHEMA for a refused mode change, NOMEM.
 */
DL_NODISCARD dl_status dl_delta_colmap_stage(dl_delta_tx *tx, dl_error *err);

/* The schema and mode data files of tx are written with: the staged metaData's when tx has
 * one, else the snapshot's (*out NULL and mode NONE for neither). Valid with tx. */
DL_NODISCARD dl_status dl_delta_colmap_tx_schema(dl_delta_tx *tx, const dl_delta_schema **out,
                                                 dl_delta_cm_mode *out_mode, dl_error *err);

/* What a data file's columns are called: a STRUCT type of logical's shape with physical
 * names, and the Parquet field ids in dl_pq_write_field_count order (-1 = none). */
typedef struct dl_delta_colmap_physical {
    const dl_type *type;
    int32_t *field_ids;
    size_t n_field_ids;
} dl_delta_colmap_physical;

/*
 * The physical form of logical (a STRUCT whose top-level fields are columns of schema, matched
 * by name; columns schema lacks, like the change data feed's _change_type, keep their names
 * and get no id) under mode, in arena. NOMEM.
 */
DL_NODISCARD dl_status dl_delta_colmap_physical_of(const dl_delta_schema *schema,
                                                   dl_delta_cm_mode mode, const dl_type *logical,
                                                   dl_arena *arena, dl_delta_colmap_physical *out,
                                                   dl_error *err);

/* A data file's folder under column mapping, as Spark's DelayedCommitProtocol makes it: two
 * random alphanumeric characters (Hive partition folders are not used; partition values live
 * in the log alone). out gets "Ab" and a NUL. */
DL_NODISCARD dl_status dl_delta_colmap_file_prefix(char out[3], dl_error *err);

#endif /* DL_DELTA_COLMAP_H */
