/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The engine's private header: what the binder, optimizer, operators and session share and
 * nobody outside src/sql uses. The public contracts are sql_engine.h (sessions and results),
 * sql_plan.h (bound expressions and plans) and sql_exec.h (operators).
 */
#ifndef DL_SQL_SQL_ENGINE_INT_H
#define DL_SQL_SQL_ENGINE_INT_H

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
#include "sql/sql.h"
#include "sql/sql_engine.h"
#include "sql/sql_exec.h"
#include "sql/sql_func.h"
#include "sql/sql_plan.h"

/* ---- small helpers ------------------------------------------------------------------------- */

/* memcpy that accepts a NULL source when n is 0 (a struct type with no fields has none). */
static inline void
dl_sql_copy(void *dst, const void *src, size_t n) {
    if (n > 0) {
        memcpy(dst, src, n);
    }
}

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

/* The BIGINT (or other int64-stored) value of row `row` of vec, any layout; the row must not
 * be NULL. */
static inline int64_t
dl_sql_vec_i64(const dl_vector *vec, int64_t row) {
    const dl_vector *flat;
    int64_t i = dl_vec_resolve(vec, row, &flat);
    return ((const int64_t *)flat->data)[i];
}

/* A new one-row FLAT vector (then made CONST of count rows) holding row `row` of src. */
DL_NODISCARD dl_status dl_sql_vec_const_of(const dl_vector *src, int64_t row, int64_t count,
                                           dl_vector **out, dl_error *err);

/* A deep copy of type in arena. */
DL_NODISCARD dl_status dl_sql_type_copy(dl_arena *arena, const dl_type *type, const dl_type **out,
                                        dl_error *err);

/* Appends a short rendering of row `row` of vec (EXPLAIN, messages): numbers, 'strings',
 * true/false, NULL, <type> for the rest. */
DL_NODISCARD dl_status dl_sql_value_print(const dl_vector *vec, int64_t row, dl_buf *out,
                                          dl_error *err);

/* Keeps live rows [from, from + n) of batch (by live-row position). */
DL_NODISCARD dl_status dl_sql_batch_trim(dl_batch *batch, int64_t from, int64_t n, dl_error *err);

/* ---- sessions (sql_session.c) ------------------------------------------------------------- */

typedef const dl_sql_fn_def *(*dl_sql_fn_lookup_fn)(dl_str name);

typedef struct dl_sql_setting {
    char *key;
    char *value;
} dl_sql_setting;

struct dl_sql_session {
    dl_sql_catalog catalog;
    dl_store *store;
    const dl_allocator *alloc;
    const dl_allocator *exec_alloc; /* statements' vectors and tables (see sql_session.c) */
    dl_pool *pool;
    dl_sql_setting *settings; /* SET keys (owned strings), in the order first set */
    int32_t n_settings;
    int32_t cap_settings;
    dl_sql_fn_lookup_fn fn_lookup; /* dl_sql_fn_lookup unless a test replaced it */
    atomic_bool interrupt;         /* dl_sql_session_interrupt; cleared as a statement starts */
};

/* Replaces the function registry the binder uses (tests with private kernels). NULL restores
 * dl_sql_fn_lookup. */
void dl_sql_session_set_fn_lookup(dl_sql_session *session, dl_sql_fn_lookup_fn lookup);

/* The function named name through the session's registry. */
const dl_sql_fn_def *dl_sql_session_lookup(const dl_sql_session *session, dl_str name);

/* SET key = value (checked for the keys deltalite knows) and RESET [key] (key NULL: all). */
DL_NODISCARD dl_status dl_sql_session_set(dl_sql_session *session, const char *key,
                                          const char *value, dl_error *err);
void dl_sql_session_reset(dl_sql_session *session, const char *key);

/* The settings for SET without a key: the known keys with their values, then the others set. */
/* spark.sql.ansi.enabled is true. */
bool dl_sql_session_is_ansi(const dl_sql_session *session);

/* spark.sql.storeAssignmentPolicy (ANSI when session is NULL or the key is not set). */
dl_sql_store_policy dl_sql_session_store_policy(const dl_sql_session *session);

/* ---- scans (sql_op_scan.c, sql_op_scan_pq.c) --------------------------------------------- */

/* The scan's filters translated into a Delta scan predicate (parts that do not translate are
 * left out of ANDs; NULL when nothing does). Lives in arena. */
const dl_delta_pred *dl_sql_scan_predicate(dl_arena *arena, const dl_sql_scan *s);

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

#endif /* DL_SQL_SQL_ENGINE_INT_H */
