/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private to the scan's files (delta_scan.c: planning; delta_scan_pred.c: predicates;
 * delta_scan_read.c: reading units).
 *
 * A bound predicate is the caller's tree with NOT pushed down to the leaves (De Morgan, and
 * each comparison replaced by its complement: NOT(a < b) is a >= b, which under SQL's
 * three-valued logic is true on exactly the same rows) and each leaf's column resolved: a
 * partition column, or a data column with its table type and its physical path (what the
 * statistics and the Parquet files call it). Constants are copied into the scan's arena.
 */
#ifndef DL_DELTA_DELTA_SCAN_INT_H
#define DL_DELTA_DELTA_SCAN_INT_H

#include "delta/delta_int.h"
#include "delta/delta_scan.h"

/* Bound operators beyond dl_delta_pred_op (NOT is gone after binding). */
#define DL_DELTA_BPRED_NOT_IN 100 /* column is not null and equal to none of values */
#define DL_DELTA_BPRED_TRUE   101 /* may match anything (e.g. a leaf under an array) */
#define DL_DELTA_BPRED_FALSE  102 /* matches nothing (a comparison with NULL) */

typedef struct dl_delta_bpred dl_delta_bpred;

struct dl_delta_bpred {
    int op; /* dl_delta_pred_op (not NOT) or DL_DELTA_BPRED_* */
    /* Leaves. */
    int32_t partition_index;       /* >= 0: partition column; else a data column */
    const dl_delta_field **fields; /* the logical path resolved, top-level field first */
    const char **phys;             /* physical names along the path (statistics, Parquet) */
    size_t n_path;
    const dl_type *type; /* the leaf's table type */
    dl_delta_scalar *values;
    size_t n_values;
    /* AND / OR. */
    dl_delta_bpred *children;
    size_t n_children;
};

/* Binds pred against snap into arena (see above). NOT_FOUND for an unknown column. */
DL_NODISCARD dl_status dl_delta_pred_bind(const dl_delta_snapshot *snap, const dl_delta_pred *pred,
                                          dl_arena *arena, dl_delta_bpred **out, dl_error *err);

/* Whether the bound predicate has a leaf on a data column (statistics are needed). */
bool dl_delta_bpred_has_data_leaf(const dl_delta_bpred *p);

/*
 * False when no row of file can match p. With stats NULL only partition leaves decide (data
 * leaves may match); with stats, data leaves are judged on them (see delta_scan.h for what
 * counts as a bound).
 */
bool dl_delta_bpred_may_match(const dl_delta_bpred *p, const dl_delta_file *file,
                              const dl_delta_stats *stats);

/*
 * The Parquet row-group filter of p for one file, in arena: data leaves whose column the file
 * has as a leaf of a comparable type; everything else becomes "may match". *out is NULL when
 * nothing is left to filter on. find maps a leaf to the file's field (NULL when absent).
 */
typedef const dl_pq_field *(*dl_delta_leaf_find_fn)(void *ctx, const dl_delta_bpred *leaf);
DL_NODISCARD dl_status dl_delta_bpred_to_pq(const dl_delta_bpred *p, dl_delta_leaf_find_fn find,
                                            void *ctx, dl_arena *arena, const dl_pq_filter **out,
                                            dl_error *err);

/* An output column of a scan. */
typedef struct dl_delta_scan_col {
    const dl_delta_field *field; /* the table's field */
    int32_t partition_index;     /* >= 0: a partition column */
} dl_delta_scan_col;

/* A work unit: a surviving file, or one row group of it (delta_scan.h, "Row-group units"). */
typedef struct dl_delta_scan_unit {
    size_t file;           /* index of the file in the snapshot */
    int32_t row_group;     /* -1: the whole file */
    dl_pq_file *pq;        /* row-group units: the file, opened at planning (owned by the scan) */
    const dl_delta_dv *dv; /* row-group units: the file's deletion vector, loaded at planning
                              (owned by the scan), or NULL */
} dl_delta_scan_unit;

/* Splits the surviving files into row-group units: opens each file and loads its deletion
 * vector once, then replaces its unit by one per row group. NOT_FOUND for a missing file, the
 * Parquet reader's errors. */
DL_NODISCARD dl_status dl_delta_scan_split_units(dl_delta_scan *scan, dl_error *err);

/* Frees what dl_delta_scan_split_units opened (files, deletion vectors). */
void dl_delta_scan_free_planned(dl_delta_scan *scan);

struct dl_delta_scan {
    dl_delta_snapshot *snap; /* a reference */
    const dl_allocator *alloc;
    dl_arena arena;
    dl_delta_scan_options opts; /* columns, predicate and file set not kept */
    dl_delta_scan_col *cols;
    size_t n_cols;
    const dl_type *schema;
    dl_delta_bpred *pred;      /* NULL: none */
    dl_delta_scan_unit *units; /* the surviving files, or their row groups */
    size_t n_units;
    size_t cap_units;
    dl_pq_file **pq_files; /* row-group units: the files opened at planning */
    dl_delta_dv **dvs;     /* ... and their deletion vectors (NULL entries: none) */
    size_t n_pq_files;
    /* dl_delta_scan_next's position. */
    size_t next_unit;
    dl_delta_scan_reader *cur;
    /* Statistics (atomic once readers run). */
    int64_t files_total;
    int64_t files_skipped_partition;
    int64_t files_skipped_stats;
    int64_t files_read;
    int64_t row_groups_read;
    int64_t row_groups_skipped;
    int64_t rows_read;
    int64_t rows_deleted;
    int64_t dvs_loaded;
    int64_t bytes_read;
    int64_t pages_read;
    int64_t pages_skipped;
};

#endif /* DL_DELTA_DELTA_SCAN_INT_H */
