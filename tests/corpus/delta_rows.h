/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Rows as comparable text, for the Delta corpus runner and the scan tests.
 *
 * A row renders as a JSON object keyed by column name, in the convention of the corpus's
 * expected.jsonl files (DuckDB's JSON rendering of Spark's expected Parquet): byte, short and
 * int as numbers; long and decimals as strings (decimals with all their scale digits);
 * float and double as numbers (a float widened to double); dates "yyyy-MM-dd"; top-level
 * timestamps as their epoch microseconds in a string, nested ones "yyyy-MM-dd HH:mm:ss[.f]";
 * top-level binary as upper-case hex, nested binary with \xHH escapes; maps as lists of
 * {"key","value"} objects; nulls as null.
 *
 * Two rows compare after canonicalisation: the JSON re-written with numbers normalised (every
 * number as the shortest double that reads back the same, integers as integers) and the
 * top-level keys sorted, so column order does not matter.
 */
#ifndef DL_TESTS_DELTA_ROWS_H
#define DL_TESTS_DELTA_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/buf.h"
#include "delta/delta.h"
#include "json/json.h"
#include "vector/vector.h"

/* Appends live row k of batch (its k-th selected row) as a JSON object to out. */
DL_NODISCARD dl_status dr_render_row(const dl_batch *batch, int64_t k, dl_buf *out, dl_error *err);

/* Appends the canonical form of the JSON text json to out (doc is scratch), leaving out the
 * top-level key skip_key (NULL: none). */
DL_NODISCARD dl_status dr_canon(dl_str json, const char *skip_key, dl_json_doc *doc, dl_buf *out,
                                dl_error *err);

/* A multiset of canonical rows. */
typedef struct dr_rows {
    dl_arena arena;
    dl_str *rows;
    size_t n;
    size_t cap;
    const char *skip_key; /* a top-level key left out of every row (NULL: none) */
} dr_rows;

void dr_rows_init(dr_rows *r);
void dr_rows_destroy(dr_rows *r);

/* Adds the canonical form of json. */
DL_NODISCARD dl_status dr_rows_add_json(dr_rows *r, dl_str json, dl_json_doc *doc, dl_buf *tmp,
                                        dl_error *err);

/* Adds every live row of batch. */
DL_NODISCARD dl_status dr_rows_add_batch(dr_rows *r, const dl_batch *batch, dl_json_doc *doc,
                                         dl_error *err);

/* Adds every row of a full scan of snap (all columns); *out_deleted receives the rows deletion
 * vectors dropped (may be NULL). */
DL_NODISCARD dl_status dr_rows_add_scan(dr_rows *r, dl_delta_snapshot *snap, int64_t *out_deleted,
                                        dl_error *err);

/* Adds every row of the Parquet file at path (a local file), read with deltalite's reader. */
DL_NODISCARD dl_status dr_rows_add_parquet(dr_rows *r, const char *path, dl_error *err);

/* Adds every line of a JSON-lines file at path. */
DL_NODISCARD dl_status dr_rows_add_jsonl(dr_rows *r, const char *path, dl_error *err);

/* Compares two multisets (sorting both). On a difference, why (cap bytes) says which row is
 * missing or extra. */
bool dr_rows_equal(dr_rows *a, dr_rows *b, char *why, size_t cap);

#endif /* DL_TESTS_DELTA_ROWS_H */
