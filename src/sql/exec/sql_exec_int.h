/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The executor's private header: what the operators share (batch and selection helpers, the
 * scans' predicates, the operator constructors). The executor's contract for the stages above
 * is sql_exec.h; bound expressions and plans are sql_plan.h's.
 */
#ifndef DL_SQL_EXEC_SQL_EXEC_INT_H
#define DL_SQL_EXEC_SQL_EXEC_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/error.h"
#include "base/hmap.h"
#include "delta/delta_scan.h"
#include "parquet/pq_reader.h"
#include "sql/exec/sql_exec.h"
#include "sql/func/sql_func.h"
#include "sql/parse/sql_parse.h"
#include "sql/plan/sql_plan.h"

/* ---- small helpers ------------------------------------------------------------------------- */

/* A vector read through a const pointer, for taking a reference (dl_vec_ref) or using it as a
 * dictionary: neither writes its contents. */
static inline dl_vector *
dl_sql_vec_shared(const dl_vector *vec) {
    return (dl_vector *)(uintptr_t)vec;
}

/* identity[offset .. offset + DL_BATCH_CAPACITY): a selection of consecutive rows.
 * Assumes: 0 <= offset <= DL_BATCH_CAPACITY. */
const uint32_t *dl_sql_identity_sel(int64_t offset);

/* A vector of count rows holding rows sel[0..count) of col (sel NULL: rows 0..count-1): the
 * column itself, a CONST slice or a DICT over it. New reference. */
DL_NODISCARD dl_status dl_sql_vec_select(const dl_vector *col, const uint32_t *sel, int64_t count,
                                         dl_vector **out, dl_error *err);

/* Keeps live rows [from, from + n) of batch (by live-row position). */
DL_NODISCARD dl_status dl_sql_batch_trim(dl_batch *batch, int64_t from, int64_t n, dl_error *err);

/* ---- scans (sql_op_scan.c, sql_op_scan_pq.c) --------------------------------------------- */

/* The scan's filters translated into a Delta scan predicate (parts that do not translate are
 * left out of ANDs; NULL when nothing does). Lives in arena. */
const dl_delta_pred *dl_sql_scan_predicate(dl_arena *arena, const dl_sql_scan *s);

/* A monotonic clock in nanoseconds (EXPLAIN ANALYZE's times). */
int64_t dl_sql_exec_now_ns(void);

/* Opens a Parquet file of the root store (path without its leading '/', as
 * dl_sql_store_path makes it); errors name the file by its absolute path. */
DL_NODISCARD dl_status dl_sql_pq_open(dl_store *store, const char *path, const dl_allocator *alloc,
                                      dl_pq_file **out, dl_error *err);

/* That predicate as a row-group filter of one Parquet file whose fields for the scan's
 * columns are cols; NULL when nothing translates. Lives in arena. */
const dl_pq_filter *dl_sql_scan_pq_filter(dl_arena *arena, const dl_sql_scan *s,
                                          const dl_delta_pred *pred,
                                          const dl_pq_field *const *cols);

/* ---- operators of the engine (sql_op_*.c) ------------------------------------------------- */

DL_NODISCARD dl_status dl_sql_op_scan_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan,
                                          dl_sql_operator **out, dl_error *err);
/* VALUES, RANGE and ROWS. */
DL_NODISCARD dl_status dl_sql_op_source_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan,
                                            dl_sql_operator **out, dl_error *err);
DL_NODISCARD dl_status dl_sql_op_filter_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan,
                                            dl_sql_operator *child, dl_sql_operator **out,
                                            dl_error *err);
DL_NODISCARD dl_status dl_sql_op_project_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan,
                                             dl_sql_operator *child, dl_sql_operator **out,
                                             dl_error *err);
DL_NODISCARD dl_status dl_sql_op_agg_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan,
                                         dl_sql_operator *child, dl_sql_operator **out,
                                         dl_error *err);
DL_NODISCARD dl_status dl_sql_op_limit_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan,
                                           dl_sql_operator *child, dl_sql_operator **out,
                                           dl_error *err);

#endif /* DL_SQL_EXEC_SQL_EXEC_INT_H */
