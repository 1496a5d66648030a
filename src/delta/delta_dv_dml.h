/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Deleting rows of live files with deletion vectors (merge-on-read), as Spark's DELETE, UPDATE
 * and MERGE do on a table with delta.enableDeletionVectors (DMLWithDeletionVectorsHelper):
 * instead of rewriting a file without the rows, the commit replaces its logical file by the
 * same data file with a larger deletion vector.
 *
 * A statement collects, per live file of its snapshot, the file row numbers (0-based physical
 * positions, dl_delta_scan_reader_batch_first_row) of the rows it deletes or replaces, then
 * stages them in its transaction. For each marked file:
 *
 *   - the file's own deletion vector (if any) is loaded and united with the new rows;
 *   - when that covers every row of the file (numRecords from its stats, else its Parquet
 *     footer), the file is removed (Spark's "fully replaced" file), with its old DV;
 *   - otherwise the united set goes into the commit's one DV file
 *     (<table>/deletion_vector_<uuid>.bin, several DVs at their offsets, as Spark writes them),
 *     and the commit removes the old logical file (with its old DV) and adds the same data file
 *     with the new DV, its stats marked "tightBounds":false (numRecords stays the physical
 *     count, as the protocol requires of a file with a DV).
 *
 * The DV file is written when staging: it must exist before a commit names it. A commit that
 * then fails leaves it behind unreferenced, for VACUUM, as Spark does.
 *
 * Threads: one thread at a time per dl_delta_dv_marks.
 */
#ifndef DL_DELTA_DELTA_DV_DML_H
#define DL_DELTA_DELTA_DV_DML_H

#include "delta/delta.h"
#include "delta/delta_txn.h"

typedef struct dl_delta_dv_marks dl_delta_dv_marks;

/* Starts collecting rows to delete from snap's live files (referenced until freed). alloc
 * NULL = libc. */
DL_NODISCARD dl_status dl_delta_dv_marks_new(dl_delta_snapshot *snap, const dl_allocator *alloc,
                                             dl_delta_dv_marks **out, dl_error *err);

/* NULL-tolerant. */
void dl_delta_dv_marks_free(dl_delta_dv_marks *marks);

/*
 * Marks rows[0, n) (file row numbers, any order, repeats allowed) of the snapshot's live file
 * number file (dl_delta_snapshot_file) deleted. DL_ERR_INVALID_ARG for a file number out of
 * range or a row a deletion vector cannot hold.
 */
DL_NODISCARD dl_status dl_delta_dv_marks_add(dl_delta_dv_marks *marks, size_t file,
                                             const int64_t *rows, size_t n, dl_error *err);

/* Rows marked so far (each counted once) and files holding one. */
int64_t dl_delta_dv_marks_rows(const dl_delta_dv_marks *marks);
size_t dl_delta_dv_marks_files(const dl_delta_dv_marks *marks);

/* What staging did, in the terms of Spark's operation metrics. */
typedef struct dl_delta_dv_marks_result {
    int64_t n_files_removed; /* files all of whose rows are now deleted: removed */
    int64_t removed_bytes;   /* their size */
    int64_t n_dvs_added;     /* files without a DV that got one (numDeletionVectorsAdded) */
    int64_t n_dvs_removed;   /* DVs of files removed (numDeletionVectorsRemoved) */
    int64_t n_dvs_updated;   /* files whose DV was replaced (numDeletionVectorsUpdated) */
    int64_t dv_file_bytes;   /* bytes of the DV file written (0: none was needed) */
} dl_delta_dv_marks_result;

/*
 * Stages the marks in tx, which must have been begun on the same snapshot (see the file
 * comment), and writes the commit's DV file. Errors: those of loading a file's deletion
 * vector or reading its footer, writing the DV file (DL_ERR_IO), and staging (each naming the
 * data file).
 */
DL_NODISCARD dl_status dl_delta_dv_marks_stage(dl_delta_dv_marks *marks, dl_delta_tx *tx,
                                               dl_delta_dv_marks_result *out, dl_error *err);

#endif /* DL_DELTA_DELTA_DV_DML_H */
