/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Liquid clustering's columns (PROTOCOL.md "Clustered Table"): a clustered table's protocol
 * lists the writer feature clustering (with domainMetadata), and the domain delta.clustering
 * holds
 *
 *   {"clusteringColumns":[["a"],["b"]],"domainName":"delta.clustering"}
 *
 * one list of physical names (the path of a column, outermost first) per clustering column,
 * as Delta writes it; an empty list after CLUSTER BY NONE.
 */
#ifndef DL_DELTA_DELTA_CLUSTERING_H
#define DL_DELTA_DELTA_CLUSTERING_H

#include "delta/delta.h"

#define DL_DELTA_CLUSTERING_DOMAIN "delta.clustering"

/*
 * The clustering columns of snap as the logical names of top-level columns, in arena;
 * *out_n 0 when the table has no delta.clustering domain. CORRUPT for a domain that is not
 * JSON of that shape or names a column the schema lacks; UNSUPPORTED for a nested field
 * (deltalite clusters by top-level columns only).
 */
DL_NODISCARD dl_status dl_delta_clustering_columns(const dl_delta_snapshot *snap, dl_arena *arena,
                                                   const char ***out_names, int32_t *out_n,
                                                   dl_error *err);

#endif /* DL_DELTA_DELTA_CLUSTERING_H */
