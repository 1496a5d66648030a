/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ops part's private header: what its files share and nobody outside src/ops uses.
 */
#ifndef DL_OPS_OPS_INT_H
#define DL_OPS_OPS_INT_H

#include "ops/ops.h"
#include "parquet/pq_writer.h"

/* Appends Spark's stats JSON for a closed Parquet file to out (ops_stats.c). */
DL_NODISCARD dl_status dl_ops_stats_json(const dl_pq_write_result *res, dl_buf *out, dl_error *err);

#endif /* DL_OPS_OPS_INT_H */
