/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Multi-dimensional clustering (sql_cluster_curve.c) and liquid clustering's table metadata
 * (sql_cluster.c), shared by OPTIMIZE ... ZORDER BY, OPTIMIZE of a clustered table, CREATE
 * TABLE ... CLUSTER BY and ALTER TABLE ... CLUSTER BY.
 *
 * Clustering orders rows as Delta's MultiDimClustering does: each clustering column's values
 * get a range id in [0, numRanges) (Delta's range_partition_id: bounds taken from a sample
 * of the values in Spark's ordering, nulls first, so a null has id 0 and equal values share
 * an id), and the ids of a row map to one point on a space-filling curve: the Z-order curve
 * (Delta's interleave_bits, most significant bit first, columns in the order given) or the
 * Hilbert curve (liquid clustering with two or more columns). Rows are sorted by their curve
 * value and written in that order, so the writer's files (rolled at the target size) each
 * hold a compact region of the curve and their min/max statistics are tight.
 */
#ifndef DL_SQL_SQL_CLUSTER_H
#define DL_SQL_SQL_CLUSTER_H

#include "delta/delta_clustering.h"
#include "sql/commands/sql_dml.h"

/* Delta's clustering curves. */
typedef enum dl_sql_curve {
    DL_SQL_CURVE_ZORDER,
    DL_SQL_CURVE_HILBERT,
} dl_sql_curve;

/* Delta's limit on the number of clustering columns (DELTA_CLUSTER_BY_INVALID_NUM_COLUMNS). */
#define DL_SQL_CLUSTER_MAX_COLUMNS 4

/* What one clustering rewrite orders by. */
typedef struct dl_sql_cluster_spec {
    const int32_t *cols; /* column indexes in the scan's schema */
    int32_t n_cols;
    dl_sql_curve curve;
    int32_t num_ranges; /* spark.databricks.io.skipping.mdc.rangeId.max */
} dl_sql_cluster_spec;

/*
 * Reads the live rows of scan units units[0..n_units), orders them along spec's curve and
 * writes them to w in that order. Holds the rows of all the units in memory at once (they are
 * one partition's files): LIMIT past DL_VEC_MAX_LENGTH rows.
 */
DL_NODISCARD dl_status dl_sql_cluster_write(dl_delta_scan *scan, const size_t *units,
                                            int32_t n_units, const dl_sql_cluster_spec *spec,
                                            dl_ops_writer *w, const dl_allocator *alloc,
                                            dl_error *err);

/* ---- OPTIMIZE's clustering (sql_dml_zorder.c) --------------------------------------------- */

/* What OPTIMIZE clusters by: ZORDER BY's columns, or a clustered table's. */
typedef struct dl_sql_optimize_cluster {
    int32_t n_cols;     /* 0: plain compaction */
    const char **names; /* the columns as the schema spells them */
    bool is_liquid;     /* the table's clustering columns (ZORDER BY otherwise) */
    bool is_full;       /* OPTIMIZE FULL: every file in scope, clustered or not */
    dl_sql_cluster_spec spec;
    const char *names_json; /* names as a JSON list: ZCUBE_ZORDER_BY, zOrderBy, clusterBy */
    char cube_id[40];       /* ZCUBE_ID of this OPTIMIZE's files */
} dl_sql_optimize_cluster;

/*
 * Reads what OPTIMIZE stmt on t clusters by into cl (zeroed: plain compaction, REORG too), with
 * Delta's errors: ZORDER BY on a clustered table (DELTA_CLUSTERING_WITH_ZORDER_BY), an unknown
 * column, a partition column (DELTA_ZORDERING_ON_PARTITION_COLUMN), a column without
 * statistics (DELTA_ZORDERING_ON_COLUMN_WITHOUT_STATS), FULL on a table that is not clustered
 * (DELTA_OPTIMIZE_FULL_NOT_SUPPORTED).
 */
DL_NODISCARD dl_status dl_sql_optimize_cluster_init(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                                    const dl_sql_dml_target *t,
                                                    dl_sql_optimize_cluster *cl, dl_error *err);

/* Whether OPTIMIZE rewrites f: every file for ZORDER BY and FULL; for liquid clustering the
 * files its ZCUBE tags do not say are clustered by the table's columns. */
bool dl_sql_optimize_cluster_candidate(const dl_sql_optimize_cluster *cl, const dl_delta_file *f);

/* operationParameters zOrderBy and clusterBy (JSON lists of column names), and isFull for a
 * clustered table. */
DL_NODISCARD dl_status dl_sql_optimize_cluster_params(dl_sql_binder *b,
                                                      const dl_sql_optimize_cluster *cl,
                                                      dl_delta_tx *tx, dl_error *err);

/* Stages the adds of w: liquid clustering's with the ZCUBE tags and clusteringProvider. */
DL_NODISCARD dl_status dl_sql_optimize_cluster_stage(const dl_sql_optimize_cluster *cl,
                                                     const dl_ops_writer *w, dl_delta_tx *tx,
                                                     dl_error *err);

/* Appends the result row's zOrderStats to v (a struct; NULL unless ZORDER BY). */
DL_NODISCARD dl_status dl_sql_optimize_zorder_stats(const dl_sql_optimize_cluster *cl, dl_vector *v,
                                                    int64_t n_removed, int64_t removed_bytes,
                                                    int64_t n_bins, dl_error *err);

/* ---- liquid clustering's metadata (sql_cluster.c) ------------------------------------------ */

/* The domain liquid clustering keeps its columns in. */
#define DL_SQL_CLUSTER_DOMAIN DL_DELTA_CLUSTERING_DOMAIN

/*
 * The clustering columns of snap (the delta.clustering domain's clusteringColumns, physical
 * names, top-level columns only), in the arena: *out_n 0 when the table is not clustered.
 * CORRUPT for a domain that is not JSON of that shape.
 */
DL_NODISCARD dl_status dl_sql_cluster_columns(dl_arena *arena, const dl_delta_snapshot *snap,
                                              const char ***out_names, int32_t *out_n,
                                              dl_error *err);

/* Whether snap's protocol lists the clustering writer feature. */
bool dl_sql_cluster_is_clustered(const dl_delta_snapshot *snap);

/*
 * Checks names[0..n) as clustering columns of a table with schema and partition columns
 * (Delta's errors: unknown column, more than 4, duplicates, PARTITIONED BY together, a type
 * without statistics, a column beyond delta.dataSkippingNumIndexedCols) and returns them as
 * the schema spells them, in the arena. what names the statement for messages.
 */
DL_NODISCARD dl_status dl_sql_cluster_check(dl_sql_binder *b, const dl_sql_name_list *names,
                                            const dl_type *schema, int32_t n_parts,
                                            const char *indexed_cols, const char *display,
                                            const char ***out, dl_error *err);

/*
 * CREATE TABLE ... CLUSTER BY names: checks the columns (dl_sql_cluster_check) and adds to
 * spec what a clustered table needs: the clustering and domainMetadata features (Spark's
 * delta.feature.* pseudo-properties) and operationParameters.clusterBy. *out the columns.
 */
DL_NODISCARD dl_status dl_sql_cluster_create(dl_sql_binder *b, const dl_sql_name_list *names,
                                             const dl_type *schema, const char *display,
                                             dl_delta_create_spec *spec, const char ***out,
                                             dl_error *err);

/* Stages the delta.clustering domain with names[0..n) (n may be 0: CLUSTER BY NONE). */
DL_NODISCARD dl_status dl_sql_cluster_stage_domain(dl_sql_binder *b, dl_delta_tx *tx,
                                                   const char *const *names, int32_t n,
                                                   dl_error *err);

/* ALTER TABLE t CLUSTER BY (cols) | CLUSTER BY NONE: commit CLUSTER BY with the new
 * delta.clustering domain (and the clustering feature when the table lacks it). */
DL_NODISCARD dl_status dl_sql_cluster_alter(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                            dl_error *err);

#endif /* DL_SQL_SQL_CLUSTER_H */
