/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ops part's interface: the table commands built on the protocol. This round holds the
 * write path every data-changing statement shares: rows in, Parquet data files and `add`
 * actions out (PROTOCOL.md of delta-io/delta, "Add File and Remove File", "Partition Value
 * Serialization", "Per-file Statistics").
 *
 * Data files. A writer takes batches whose columns are the table's logical columns in schema
 * order (partition columns included) and routes every row to the open file of its partition.
 * A partition is the tuple of the row's partition values, serialised as the protocol says
 * (numbers in decimal, dates `yyyy-MM-dd`, timestamps `yyyy-MM-dd HH:mm:ss[.ffffff]` in UTC,
 * booleans `true`/`false`, strings as they are; NULL and the empty string are null). Files
 * live in Hive-style folders, one `<column>=<escaped value>/` level per partition column in
 * metaData order, with Spark's escaping (ExternalCatalogUtils.escapePathName: control
 * characters and the characters of `"#%'*:=?\{[]^` and the slash become `%XX`) and
 * `__HIVE_DEFAULT_PARTITION__` for null. The Parquet file holds the non-partition columns only.
 * File names are Spark's: `part-<5-digit file number>-<job uuid>.c000.snappy.parquet`. A file is
 * closed and another started once the writer's size estimate passes target_file_bytes.
 *
 * Statistics. Each file's add carries Spark's stats JSON: numRecords, then minValues,
 * maxValues and nullCount for the first DL_OPS_STATS_COLUMNS top-level non-partition columns
 * that are not nested: min/max for numbers, decimals, dates, timestamps (`...T..:..:..SSSZ`,
 * millisecond precision, the max rounded up) and strings (cut to DL_OPS_STATS_PREFIX code
 * points; a cut max gets U+FFFF appended so that it stays an upper bound), nullCount for all.
 * Columns without a non-null value have no min/max.
 *
 * Failure and atomicity. Files appear in the store only when closed. A writer that fails, or
 * that is aborted, removes every file it closed (best effort: a file it cannot remove is an
 * orphan that VACUUM collects), so a statement that fails before its commit leaves no trace.
 *
 * Lifetimes and threads: a writer borrows its store, schema and strings, which must outlive
 * it; one thread at a time.
 */
#ifndef DL_OPS_OPS_H
#define DL_OPS_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/buf.h"
#include "base/compiler.h"
#include "base/error.h"
#include "delta/delta_txn.h"
#include "store/store.h"
#include "vector/vector.h"

/* Columns with statistics (Spark's delta.dataSkippingNumIndexedCols default). */
#define DL_OPS_STATS_COLUMNS 32
/* String bounds are cut to this many code points (Spark's stats prefix length). */
#define DL_OPS_STATS_PREFIX 32
/* Default target size of a data file. */
#define DL_OPS_TARGET_FILE_BYTES ((int64_t)128 * 1024 * 1024)
/* The partition folder name of a null partition value. */
#define DL_OPS_NULL_PARTITION "__HIVE_DEFAULT_PARTITION__"

typedef struct dl_ops_writer dl_ops_writer;

typedef struct dl_ops_write_spec {
    dl_store *store;        /* where the table lives */
    const char *table_root; /* the table's folder in store (no trailing '/'; "" = the root) */
    const dl_type *schema;  /* STRUCT: the table's logical columns, partition columns too */
    const char *const *partition_columns; /* metaData.partitionColumns (names in schema) */
    int32_t n_partition_columns;
    const char *job_id;        /* the uuid in file names (a transaction's id will do) */
    int64_t target_file_bytes; /* roll files at this size; 0 = DL_OPS_TARGET_FILE_BYTES */
    int64_t max_file_rows;     /* ... or at this many rows (Spark's maxRecordsPerFile); 0 = none */
    /* Parquet layout (parquet-mr's parquet.block.size, parquet.page.size and
     * parquet.page.row.count.limit); 0 = the Parquet writer's defaults. */
    int64_t row_group_bytes;
    int64_t page_bytes;
    int64_t page_rows;
    int64_t modification_time; /* add.modificationTime (ms); 0 = now */
    bool data_change;          /* add.dataChange */
    /* Change data files (the change data feed): files go under <root>/_change_data/ (then the
     * partition folders) and are named cdc-<5-digit file number>-<job uuid>.c000.snappy.parquet,
     * as Spark names them. */
    bool is_change_data;
    /* Column mapping (delta_colmap.h): the table's schema and mode; NULL / DL_DELTA_CM_NONE for
     * none. Under 'name' and 'id' files name their columns (nested fields too) by physical
     * name and carry the columns' ids as Parquet field ids, and partition folders, partition
     * values and statistics are keyed by physical names. Columns of schema that the mapping
     * schema lacks keep their names. */
    const dl_delta_schema *mapping_schema;
    dl_delta_cm_mode mapping_mode;
    /* Rules on the rows beyond their types and NOT NULL (the SQL part's CHECK constraints):
     * called with every batch after its columns are checked and before any of its rows is
     * written; an error fails the write. NULL: none. */
    dl_status (*check_rows)(void *ctx, const dl_batch *batch, dl_error *err);
    void *check_ctx;
    const dl_allocator *alloc; /* NULL = libc */
} dl_ops_write_spec;

/* One data file written: what its `add` action says. Strings live in the writer. */
typedef struct dl_ops_file {
    const char *path;              /* relative to the table root, not URL-encoded */
    dl_delta_kv *partition_values; /* one per partition column; value NULL = null */
    int32_t n_partition_values;
    int64_t size;        /* bytes */
    int64_t num_records; /* rows */
    const char *stats;   /* Spark's stats JSON */
} dl_ops_file;

/*
 * A writer for spec (copied; the strings and types it points to are borrowed). Errors:
 * INVALID_ARG for a partition column that is not a top-level column of schema, SCHEMA when
 * every column is a partition column (Delta needs a data column), NOMEM.
 */
DL_NODISCARD dl_status dl_ops_writer_new(const dl_ops_write_spec *spec, dl_ops_writer **out,
                                         dl_error *err);

/*
 * Writes the batch's live rows. Its schema must have the table's columns in order with equal
 * types (names are not compared; nullability is checked per value: a NULL in a non-nullable
 * column is CONSTRAINT naming the column). Errors: SCHEMA, CONSTRAINT, UNSUPPORTED (a
 * partition column of a type Delta cannot partition by), what the Parquet writer and the
 * store report. After an error only dl_ops_writer_abort and dl_ops_writer_free are useful.
 */
DL_NODISCARD dl_status dl_ops_writer_write(dl_ops_writer *w, const dl_batch *batch, dl_error *err);

/* Closes every open file. After it, the files are listed by dl_ops_writer_file. */
DL_NODISCARD dl_status dl_ops_writer_finish(dl_ops_writer *w, dl_error *err);

/* Files closed so far, rows and bytes written (closed files only). */
size_t dl_ops_writer_file_count(const dl_ops_writer *w);
const dl_ops_file *dl_ops_writer_file(const dl_ops_writer *w, size_t i);
int64_t dl_ops_writer_rows(const dl_ops_writer *w);
int64_t dl_ops_writer_bytes(const dl_ops_writer *w);

/* Stages a cdc action for every closed file in tx (a writer of change data files). */
DL_NODISCARD dl_status dl_ops_writer_stage_cdc(const dl_ops_writer *w, dl_delta_tx *tx,
                                               dl_error *err);

/* Stages an add for every closed file in tx, and sets operationMetrics numFiles,
 * numOutputRows and numOutputBytes when with_metrics. */
DL_NODISCARD dl_status dl_ops_writer_stage(const dl_ops_writer *w, dl_delta_tx *tx,
                                           bool with_metrics, dl_error *err);

/* Discards open files and removes the closed ones (best effort). The writer stays valid
 * (empty). */
void dl_ops_writer_abort(dl_ops_writer *w);

/* Frees the writer; open files are discarded, closed files are kept. NULL-tolerant. */
void dl_ops_writer_free(dl_ops_writer *w);

/* ---- helpers (ops_partition.c) ------------------------------------------------------------ */

/*
 * Appends the protocol's serialisation of row `row` of vec (any layout) to out; *out_is_null
 * true (nothing appended) for NULL and for an empty string. UNSUPPORTED for types that cannot
 * be partition values (binary, nested, intervals).
 */
DL_NODISCARD dl_status dl_ops_partition_value(const dl_vector *vec, int64_t row, dl_buf *out,
                                              bool *out_is_null, dl_error *err);

/* Appends the protocol's serialisation of a typed partition value (not NULL) of type, as
 * dl_ops_partition_value does for a vector's row. UNSUPPORTED as there. */
DL_NODISCARD dl_status dl_ops_value_text(const dl_delta_value *v, const dl_type *type, dl_buf *out,
                                         dl_error *err);

/* Appends value escaped as Spark escapes path names (see the file comment). */
DL_NODISCARD dl_status dl_ops_path_escape(dl_str value, dl_buf *out, dl_error *err);

/* Appends the text of an unscaled decimal with scale digits after the point ("-1.50"). */
DL_NODISCARD dl_status dl_ops_decimal_text(dl_i128 unscaled, int scale, dl_buf *out, dl_error *err);

#endif /* DL_OPS_OPS_H */
