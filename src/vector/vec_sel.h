/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Selection vectors: which rows of a batch are live, as uint32 row indexes in increasing order
 * (DuckDB's SelectionVector). A filter refines a selection and never copies rows; a deletion
 * vector arrives as one. Indexes are uint32 so that one selection can address a flat vector
 * longer than a batch (a whole Parquet page); vectors never exceed INT32_MAX rows.
 *
 * The raw form (const uint32_t *rows, int64_t count) is what kernels take, with NULL meaning
 * "every row [0, count)". dl_sel owns storage for one.
 */
#ifndef DL_VECTOR_VEC_SEL_H
#define DL_VECTOR_VEC_SEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/error.h"

typedef struct dl_sel {
    uint32_t *rows;            /* count row indexes, or NULL while capacity is 0 */
    int64_t count;             /* rows selected */
    int64_t capacity;          /* rows that fit in rows */
    const dl_allocator *alloc; /* where rows comes from */
} dl_sel;

/* Initialises an empty selection. No allocation. */
void dl_vec_sel_init(dl_sel *sel, const dl_allocator *alloc);

/* Frees the storage; the selection is empty and may be reused. */
void dl_vec_sel_destroy(dl_sel *sel);

/* Ensures room for capacity rows, keeping the current ones. */
DL_NODISCARD dl_status dl_vec_sel_reserve(dl_sel *sel, int64_t capacity, dl_error *err);

/* Selects rows [start, start + count). */
DL_NODISCARD dl_status dl_vec_sel_set_range(dl_sel *sel, int64_t start, int64_t count,
                                            dl_error *err);

/* Selects a copy of rows[0, count). */
DL_NODISCARD dl_status dl_vec_sel_set_rows(dl_sel *sel, const uint32_t *rows, int64_t count,
                                           dl_error *err);

/* Selects the rows i in [0, n) whose bit i equals want. NULL bits counts as all set. */
DL_NODISCARD dl_status dl_vec_sel_from_bits(dl_sel *sel, const uint8_t *bits, int64_t n, bool want,
                                            dl_error *err);

/*
 * The kernel form of refinement: writes to out the rows r of rows_in (NULL = 0..n-1) whose
 * bit r equals want, and returns how many. out may be rows_in (refined in place).
 * Assumes: out has room for n rows.
 */
int64_t dl_vec_sel_filter_bits(const uint32_t *rows_in, int64_t n, const uint8_t *bits, bool want,
                               uint32_t *out);

/* Keeps only the selected rows r whose bit r equals want. In place; never fails. */
void dl_vec_sel_refine_bits(dl_sel *sel, const uint8_t *bits, bool want);

/* out = rows in both a and b. Both sorted ascending. a may be out->rows; b must not be. */
DL_NODISCARD dl_status dl_vec_sel_intersect(dl_sel *out, const uint32_t *a, int64_t n_a,
                                            const uint32_t *b, int64_t n_b, dl_error *err);

/* out = rows in a and not in b. Both sorted ascending. a may be out->rows; b must not be. */
DL_NODISCARD dl_status dl_vec_sel_difference(dl_sel *out, const uint32_t *a, int64_t n_a,
                                             const uint32_t *b, int64_t n_b, dl_error *err);

/* out[k] = inner[outer[k]] for k < n: a selection over a selection (inner NULL = identity).
 * Neither input may be out->rows. */
DL_NODISCARD dl_status dl_vec_sel_compose(dl_sel *out, const uint32_t *outer, int64_t n,
                                          const uint32_t *inner, dl_error *err);

/* True when rows[0, n) is strictly increasing. */
bool dl_vec_sel_is_sorted(const uint32_t *rows, int64_t n);

#endif /* DL_VECTOR_VEC_SEL_H */
