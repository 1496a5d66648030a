/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Export of types, vectors and batches through the Arrow C Data Interface (arrow_abi.h).
 *
 * Flat vectors export without copying: every ArrowArray buffer pointer is the vector's own
 * buffer pointer, and the export holds a reference to each dl_vec_buffer behind it, dropped
 * by the release callback. The vector may be reset or freed at once; the exported data stays
 * valid and unchanged (writers copy shared buffers first). Release may run on any thread.
 *
 * Per layout:
 *   FLAT   zero-copy. Types map to formats as in vec_types.def: BOOLEAN "b", BYTE "c",
 *          SHORT "s", INT "i", LONG "l", FLOAT "f", DOUBLE "g", DECIMAL "d:p,s" (decimal128),
 *          STRING "vu" and BINARY "vz" (validity, views, the heaps, then the int64 heap sizes),
 *          DATE "tdD", TIMESTAMP "tsu:UTC", TIMESTAMP_NTZ "tsu:", STRUCT "+s",
 *          ARRAY "+l" (child "element"), MAP "+m" (child "entries": "+s" of "key", "value"),
 *          NULL "n" (no buffers).
 *   DICT   an Arrow dictionary-encoded array: int32 indices ("i") with the dictionary exported
 *          zero-copy as ArrowArray.dictionary, unless DL_VEC_ARROW_FLATTEN_DICT asks for plain
 *          values (a copy; a stream whose batches must all share one schema wants that).
 *          With DL_VEC_ARROW_PLAIN_STRINGS, STRING and BINARY (also inside nested types)
 *          are "u" / "z" instead, with int32 offsets, and with DL_VEC_ARROW_LARGE_STRINGS "U" /
 *          "Z" with int64 offsets, for consumers that predate views: the bytes are copied into
 *          the export (validity, offsets, data).
 *   CONST  expanded into a flat copy of length rows (Arrow's run-end encoding would avoid the
 *          copy, but few consumers accept it yet). Strings still share their heaps.
 * A batch exports as a struct array of its columns (Arrow's record batch convention); with a
 * selection, the live rows are copied first.
 *
 * All exported arrays have offset 0. Types and names are copied into the export, so the
 * schema does not depend on the arena that holds the dl_type.
 */
#ifndef DL_VECTOR_VEC_ARROW_H
#define DL_VECTOR_VEC_ARROW_H

#include <stdbool.h>

#include "base/arena.h"
#include "base/error.h"
#include "vector/arrow_abi.h"
#include "vector/vector.h"

/* Export dictionary vectors as plain arrays of their values (copies them). */
#define DL_VEC_ARROW_FLATTEN_DICT 1u
/* Strings and binary as "u" / "z" (int32 offsets) instead of views (copies them). */
#define DL_VEC_ARROW_PLAIN_STRINGS 2u
/* Strings and binary as "U" / "Z" (int64 offsets) instead of views (copies them). */
#define DL_VEC_ARROW_LARGE_STRINGS 4u

/* Fills out with the schema of a flat vector of type, named name (NULL = no name), as flags
 * (the string flags) export it. The caller releases out. */
DL_NODISCARD dl_status dl_vec_arrow_export_type(const dl_type *type, const char *name,
                                                bool is_nullable, unsigned flags,
                                                const dl_allocator *alloc, struct ArrowSchema *out,
                                                dl_error *err);

/* Fills out_array (and out_schema unless NULL) with vec. The caller releases both. On
 * failure neither needs releasing. */
DL_NODISCARD dl_status dl_vec_arrow_export(const dl_vector *vec, const char *name, unsigned flags,
                                           struct ArrowSchema *out_schema,
                                           struct ArrowArray *out_array, dl_error *err);

/* Fills out_array (and out_schema unless NULL) with batch as a struct array whose fields are
 * the schema's, nullability included. The caller releases both. */
DL_NODISCARD dl_status dl_vec_arrow_export_batch(const dl_batch *batch, unsigned flags,
                                                 struct ArrowSchema *out_schema,
                                                 struct ArrowArray *out_array, dl_error *err);

/* ---- Import (vec_arrow_import.c: what is shared and what is copied) ---------------------- */

/* The struct type (one field per column, all nullable) of a stream of record batches whose
 * schema ("+s") is schema, built in arena. UNSUPPORTED, naming the column, for Arrow types
 * without a Spark type. */
DL_NODISCARD dl_status dl_vec_arrow_import_type(const struct ArrowSchema *schema, dl_arena *arena,
                                                const dl_type **out, dl_error *err);

/* The Spark type of one Arrow field (a dictionary's value type for dictionary fields). */
DL_NODISCARD dl_status dl_vec_arrow_import_field_type(const struct ArrowSchema *schema,
                                                      dl_arena *arena, const dl_type **out,
                                                      dl_error *err);

/* A FLAT (or, for a dictionary-encoded array, DICT) vector of type holding array, which moves
 * into it (released when the vector and its slices are gone; on failure, released at once).
 * type comes from dl_vec_arrow_import_field_type(schema). SCHEMA for values the engine cannot
 * hold (invalid UTF-8 strings, sub-microsecond timestamps, unsigned values past bigint). */
DL_NODISCARD dl_status dl_vec_arrow_import(const struct ArrowSchema *schema,
                                           struct ArrowArray *array, const dl_type *type,
                                           const dl_allocator *alloc, dl_vector **out,
                                           dl_error *err);

/* The columns of a record batch (a struct array without null rows, schema as given to
 * dl_vec_arrow_import_type, type its result) as type->n_fields vectors in out_cols, each as
 * long as the batch. array moves in as for dl_vec_arrow_import. */
DL_NODISCARD dl_status dl_vec_arrow_import_batch(const struct ArrowSchema *schema,
                                                 struct ArrowArray *array, const dl_type *type,
                                                 const dl_allocator *alloc, dl_vector **out_cols,
                                                 dl_error *err);

#endif /* DL_VECTOR_VEC_ARROW_H */
