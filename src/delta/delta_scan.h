/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Table scans below SQL: a snapshot's rows as batches (DESIGN.md, "How data flows").
 *
 * A scan is planned once and read as work units. Planning resolves the requested columns
 * (top-level logical names, partition columns allowed), binds the predicate, and drops live
 * files that cannot hold a matching row: by their partition values (exactly) and by the
 * min/max/nullCount statistics in the log (as bounds). Each surviving file is a unit; units
 * may be read on several threads at once, each through its own dl_delta_scan_reader, which
 * opens the file, prunes its row groups with the same predicate (Parquet statistics), reads
 * only the columns asked for, and returns batches whose columns are
 *
 *   - the requested columns in the order asked, under their logical names, typed as the
 *     table's schema says (timestamp vs timestamp_ntz, decimal(p,s), nested types with logical
 *     field names);
 *   - data columns found by physical name (column mapping 'name'), Parquet field id ('id'),
 *     or name (none; exact, else ASCII case-insensitive as Spark);
 *   - a column or nested field that a file lacks (added later: schema evolution) all null;
 *   - narrower physical types widened (type widening: byte/short/int to a wider integer,
 *     double or decimal; float to double; decimal to a wider precision and scale; date to
 *     timestamp_ntz) and timestamp/timestamp_ntz or string/binary relabelled;
 *   - partition columns as CONST vectors of the file's typed partition value;
 *
 * with the rows its deletion vector marks deleted taken out: as the batch's selection by
 * default, or compacted (flat copies of the live rows) when asked.
 *
 * The predicate is for skipping only: a scan may return rows that do not satisfy it (the
 * caller filters again), and never drops a row that may. Statistics are used only where they
 * are bounds: missing statistics, unparseable ones, nulls, string maxima that may be
 * truncated, float upper bounds (NaN sorts above every number in Spark) and nullCount of
 * files whose bounds are not tight (tightBounds false, deletion vectors) all keep the file.
 *
 * Row-group units. A scan of few files cannot keep many threads busy with one unit per file.
 * With row_group_units_max_files set, when at most that many files survive planning (and
 * none is given by an absolute path), planning opens each of them (its Parquet footer) and
 * makes one unit per row group: a file of 10 row groups gives 10 units that threads read in
 * parallel. Such units share the file opened at planning; each applies the file's deletion
 * vector by file row number and its partition values as a whole-file unit would, so the units
 * of a file together return exactly the rows of the whole file. Statistics count each file
 * once in files_read.
 *
 * Lifetimes and threads. A scan holds a reference to its snapshot. The scan, once planned, is
 * read-only: readers of different units may run on different threads; one reader is used by
 * one thread at a time. Batches are the caller's (made for dl_delta_scan_schema); their
 * vectors may reference the file's decoded pages and outlive the reader.
 *
 * Errors name the table, the file and the column: "table 't': part-0001.parquet: column
 * 'amount': file type string cannot be read as decimal(10,2)".
 */
#ifndef DL_DELTA_DELTA_SCAN_H
#define DL_DELTA_DELTA_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compiler.h"
#include "base/error.h"
#include "base/str.h"
#include "delta/delta.h"
#include "parquet/pq_reader.h"
#include "vector/vector.h"

/* ---- Predicates ------------------------------------------------------------------------ */

/* A typed constant. TIMESTAMP compares with timestamp and timestamp_ntz columns
 * (microseconds since the epoch, in the column's own terms); DATE is days since the epoch. */
typedef enum dl_delta_scalar_kind {
    DL_DELTA_SCALAR_BOOL = 0,
    DL_DELTA_SCALAR_INT = 1,       /* i: any integer column */
    DL_DELTA_SCALAR_DOUBLE = 2,    /* f */
    DL_DELTA_SCALAR_DECIMAL = 3,   /* d unscaled, at scale */
    DL_DELTA_SCALAR_STRING = 4,    /* s (borrowed; string and binary columns, byte-wise) */
    DL_DELTA_SCALAR_DATE = 5,      /* i: days */
    DL_DELTA_SCALAR_TIMESTAMP = 6, /* i: microseconds */
    DL_DELTA_SCALAR_NULL = 7,      /* SQL NULL: a comparison with it is never true */
} dl_delta_scalar_kind;

typedef struct dl_delta_scalar {
    dl_delta_scalar_kind kind;
    bool b;
    int64_t i;
    double f;
    dl_i128 d;
    int32_t scale;
    dl_str s;
} dl_delta_scalar;

typedef enum dl_delta_pred_op {
    DL_DELTA_PRED_EQ = 0, /* column = value */
    DL_DELTA_PRED_NE = 1, /* column <> value */
    DL_DELTA_PRED_LT = 2,
    DL_DELTA_PRED_LE = 3,
    DL_DELTA_PRED_GT = 4,
    DL_DELTA_PRED_GE = 5,
    DL_DELTA_PRED_IS_NULL = 6,
    DL_DELTA_PRED_IS_NOT_NULL = 7,
    DL_DELTA_PRED_IN = 8, /* column equal to one of values (n_values may be 0) */
    DL_DELTA_PRED_AND = 9,
    DL_DELTA_PRED_OR = 10,
    DL_DELTA_PRED_NOT = 11, /* one child */
} dl_delta_pred_op;

/*
 * A predicate tree, in the caller's memory for the duration of dl_delta_scan_new (it is
 * copied). A leaf names a column by its logical path: column[0] a top-level column, then
 * struct field names (n_column >= 1; matched as Spark does: exactly, else without case).
 * SQL semantics: a comparison with a null value (or NULL constant) is not true.
 */
typedef struct dl_delta_pred dl_delta_pred;

struct dl_delta_pred {
    dl_delta_pred_op op;
    const char *const *column; /* comparisons, IN, IS [NOT] NULL */
    size_t n_column;
    const dl_delta_scalar *values; /* 1 for comparisons; n_values for IN */
    size_t n_values;
    const dl_delta_pred *children; /* AND, OR (n_children >= 0), NOT (1) */
    size_t n_children;
};

/* Appends x (a partition value, typed as v's type; is_null appends a null) to the FLAT
 * vector v, as a scan fills a partition column. */
DL_NODISCARD dl_status dl_delta_value_append(dl_vector *v, const dl_delta_value *x, dl_error *err);

/* ---- Scans ----------------------------------------------------------------------------- */

typedef struct dl_delta_scan dl_delta_scan;
typedef struct dl_delta_scan_reader dl_delta_scan_reader;

typedef struct dl_delta_scan_options {
    /* The columns, by top-level logical name. NULL = every column of the schema in order;
     * non-NULL with n_columns 0 = no columns (batches carry only row counts). */
    const char *const *columns;
    size_t n_columns;
    const dl_delta_pred *predicate; /* NULL = every file */
    bool is_compacted;              /* drop deleted rows by copying, not by a selection */
    /* The predicate rules out whole files only: readers skip no row group or page, so every
     * live row of a planned file is returned (what a rewrite that copies files needs). */
    bool is_files_only;
    int32_t batch_rows;        /* 1..DL_BATCH_CAPACITY; 0 = the capacity */
    const dl_allocator *alloc; /* NULL = the snapshot's */
    /* Row-group units (above) when at most this many files survive planning; 0 = never. */
    size_t row_group_units_max_files;
    /* NULL = every live file; else one byte per live file of the snapshot (in
     * dl_delta_snapshot_file order): files whose byte is 0 are not read (DML statements read
     * only the files they found to touch). Only read during dl_delta_scan_new. */
    const uint8_t *file_set;
} dl_delta_scan_options;

/*
 * Plans a scan of snap (opts NULL: every column, no predicate). Errors: NOT_FOUND naming a
 * column (or nested field) that is not in the schema ("column 'x' does not exist; the
 * columns are: a, b, c"); INVALID_ARG for a malformed predicate (an operator without its
 * column or values, NOT without one child); UNSUPPORTED for a snapshot whose metaData has
 * no schema; errors reading statistics other than unparseable ones (those keep the file).
 */
DL_NODISCARD dl_status dl_delta_scan_new(dl_delta_snapshot *snap, const dl_delta_scan_options *opts,
                                         dl_delta_scan **out, dl_error *err);

void dl_delta_scan_free(dl_delta_scan *scan);

/* The STRUCT type of the batches (the requested columns). Lives as long as the scan. */
const dl_type *dl_delta_scan_schema(const dl_delta_scan *scan);

/* The work units: the live files that survived planning, in snapshot order, or with
 * row-group units, their row groups in file order. */
size_t dl_delta_scan_unit_count(const dl_delta_scan *scan);
const dl_delta_file *dl_delta_scan_unit_file(const dl_delta_scan *scan, size_t unit);

/* The unit's file as an index among the snapshot's live files (dl_delta_snapshot_file). */
size_t dl_delta_scan_unit_file_index(const dl_delta_scan *scan, size_t unit);

/* The row group a unit reads, or -1 when it reads its whole file. */
int32_t dl_delta_scan_unit_row_group(const dl_delta_scan *scan, size_t unit);

/* A reader of one unit. It may run on any thread; the scan must outlive it. */
DL_NODISCARD dl_status dl_delta_scan_reader_new(dl_delta_scan *scan, size_t unit,
                                                dl_delta_scan_reader **out, dl_error *err);

/* As dl_delta_scan_reader_new, with the Parquet reader's page and chunk buffers taken from and
 * given back to scratch (parquet/pq_reader.h; NULL = the reader's own), so that a thread reading
 * unit after unit reuses its memory. scratch must outlive the reader. */
DL_NODISCARD dl_status dl_delta_scan_reader_open(dl_delta_scan *scan, size_t unit,
                                                 dl_pq_scratch *scratch, dl_delta_scan_reader **out,
                                                 dl_error *err);

/*
 * The next batch of the unit into batch (made with dl_vec_batch_new for dl_delta_scan_schema;
 * its columns are replaced and its selection set): batch->count live rows, 0 at the end.
 * Rows deleted by the file's deletion vector are outside the batch's selection (or gone,
 * when compacted); batches whose rows are all deleted are passed over. Errors: those of the
 * Parquet reader and the deletion vector, NOT_FOUND for a data file that is not there,
 * SCHEMA for a column whose file type cannot be read as the table's type; each names the file.
 */
DL_NODISCARD dl_status dl_delta_scan_reader_next(dl_delta_scan_reader *reader, dl_batch *batch,
                                                 dl_error *err);

/*
 * The file row number (0-based physical position in the data file, as deletion vectors count
 * rows) of the last batch's row 0: row k of that batch (before its selection) is file row
 * first + k. DML statements with deletion vectors learn the positions of the rows they change
 * from it. -1 before the first batch and for a compacted scan (whose rows are no longer
 * consecutive).
 */
int64_t dl_delta_scan_reader_batch_first_row(const dl_delta_scan_reader *reader);

void dl_delta_scan_reader_free(dl_delta_scan_reader *reader);

/* Every unit in order on this thread: the next batch with at least one live row; false in
 * *out_has at the end. */
DL_NODISCARD dl_status dl_delta_scan_next(dl_delta_scan *scan, dl_batch *batch, bool *out_has,
                                          dl_error *err);

/* What the scan did so far (planning, and every reader: counters are atomic). */
typedef struct dl_delta_scan_stats {
    int64_t files_total;             /* live files of the snapshot */
    int64_t files_skipped_partition; /* ruled out by partition values */
    int64_t files_skipped_stats;     /* ruled out by statistics */
    int64_t files_read;              /* units opened */
    int64_t row_groups_read;         /* Parquet row groups decoded */
    int64_t row_groups_skipped;      /* Parquet row groups ruled out by their statistics */
    int64_t rows_read;               /* physical rows decoded */
    int64_t rows_deleted;            /* of those, dropped by deletion vectors */
    int64_t dvs_loaded;              /* deletion vectors read (once per file, not per unit) */
    int64_t bytes_read;              /* bytes read from data files */
    int64_t pages_read;              /* Parquet data pages decoded */
    int64_t pages_skipped;           /* data pages the page index ruled out in row groups read */
} dl_delta_scan_stats;

void dl_delta_scan_get_stats(const dl_delta_scan *scan, dl_delta_scan_stats *out);

#endif /* DL_DELTA_DELTA_SCAN_H */
