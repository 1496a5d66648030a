/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private to the window operator (sql_op_window*.c).
 *
 * The operator sorts its input by (partition keys ASC NULLS FIRST, order keys) with the
 * sorter (sql_op_sort_int.h), materializes the sorted rows as long FLAT vectors, finds the
 * partitions and, inside each, the peer groups (rows equal on the order keys), and computes
 * one result vector per function over the whole input, partition by partition. The output is
 * zero-copy slices of the materialized columns and the results. Everything is held in
 * memory (no spilling).
 *
 * Frames are half-open row ranges [fs, fe) inside the partition [ps, pe), computed per row
 * from the function's dl_sql_frame: ROWS offsets count rows; RANGE CURRENT ROW means the peer
 * group; RANGE offsets search the single order key's values (numbers, dates with day
 * offsets, timestamps with day-time intervals), a row with a NULL key having its NULL peers
 * as frame.
 */
#ifndef DL_SQL_SQL_OP_WINDOW_INT_H
#define DL_SQL_SQL_OP_WINDOW_INT_H

#include "sql/exec/sql_op_sort_int.h"

typedef struct dl_sql_window_state {
    dl_sql_exec_ctx *exec;
    const dl_sql_window_node *node;
    dl_sql_wfn *fns; /* node->fns, with FIRST/LAST aggregates under IGNORE NULLS as values */
    const dl_type *child_schema;
    dl_sql_sorter sorter;
    int32_t n_cols;      /* child columns */
    int64_t n;           /* rows */
    dl_vector **cols;    /* sorted rows: child columns, then extra key columns */
    dl_vector ***args;   /* per function: its argument vectors (n rows each) */
    dl_vector **results; /* per function: n rows */
    uint32_t *part;      /* partition starts, n_parts + 1 entries (the last is n) */
    int64_t n_parts;
    uint32_t *peer_start; /* per row: first row of its peer group */
    uint32_t *peer_end;   /* per row: one past the last row of its peer group */
    int64_t pos;          /* output cursor */
} dl_sql_window_state;

/* The frame [*fs, *fe) of row i of partition [ps, pe) for fn (empty when *fs >= *fe). */
DL_NODISCARD dl_status dl_sql_window_frame(const dl_sql_window_state *st, const dl_sql_wfn *fn,
                                           int64_t ps, int64_t pe, int64_t i, int64_t *fs,
                                           int64_t *fe, dl_error *err);

/* Computes st->results[f] for a ranking, navigation or value function (sql_op_window_fn.c). */
DL_NODISCARD dl_status dl_sql_window_fn_run(dl_sql_window_state *st, int32_t f, dl_error *err);

/* Computes st->results[f] for an aggregate over frames (sql_op_window_agg.c). */
DL_NODISCARD dl_status dl_sql_window_agg_run(dl_sql_window_state *st, int32_t f, dl_error *err);

/* An integer constant argument (NTILE buckets, LAG offset, NTH_VALUE n). */
DL_NODISCARD dl_status dl_sql_window_const_int(dl_sql_window_state *st, const dl_sql_bexpr *expr,
                                               const char *what, int64_t *out, dl_error *err);

#endif /* DL_SQL_SQL_OP_WINDOW_INT_H */
