/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The vector part's interface: columnar vectors laid out as Arrow arrays, batches of them,
 * and the unified read view kernels loop over (DuckDB's decomposition: STYLE.md, "The
 * engine's shape"; the Arrow layouts: arrow/docs/source/format/Columnar.rst).
 *
 * A vector is one column. Its layout tag says how rows map to stored elements:
 *
 *   DL_VEC_FLAT   row i is element i. The buffers are exactly Arrow's for the type
 *                 (vec_type.h lists them), so vec_arrow.c exports them without copying.
 *   DL_VEC_CONST  every row is element 0: the buffers hold one element, length says how many
 *                 rows it stands for (a partition column, a literal).
 *   DL_VEC_DICT   row i is element indices[i] of the flat vector dict; data holds the int32
 *                 indices and validity marks null rows (a null row's index is 0, so it still
 *                 points inside dict). A Parquet dictionary page becomes the dict, shared by
 *                 reference across batches.
 *
 * Buffers (validity, data) and string heaps are dl_vec_buffer references; vectors themselves
 * are reference counted too, so a batch, a dictionary vector or a projection can share one.
 *
 * Validity: an Arrow LSB bitmap of the stored elements; NULL means "no nulls" (the common case
 * costs one branch per batch). NULL-type vectors always carry a bitmap of zeros.
 *
 * Strings and binary: 16-byte Arrow binary views ("Variable-size Binary View Layout"):
 *
 *   bytes 0-3   int32 length
 *   length <= 12:  bytes 4-15 the bytes themselves, zero padded
 *   length > 12:   bytes 4-7 the first four bytes (prefix), 8-11 int32 index of the heap
 *                  (Arrow's variadic buffer), 12-15 int32 offset of the bytes in that heap
 *
 * so a view can point into a decoded Parquet page wrapped as a heap (dl_vec_add_heap) with no
 * copy, and comparisons settle most cases on the length and prefix without touching the heap.
 *
 * Nested types: a STRUCT vector has one child per field, each as long as the parent (a null
 * struct row still has a slot in every child). ARRAY has int32 offsets (length + 1 of them,
 * non-decreasing) and one element child; MAP has offsets and one child struct<key, value>
 * (Arrow "+m"). Children are always FLAT.
 *
 * Length: a batch holds up to DL_BATCH_CAPACITY rows and dl_vec_unify serves at most that
 * many, but a flat vector may be longer (a whole Parquet page) up to DL_VEC_MAX_LENGTH, the
 * limit that int32 offsets, view offsets and dictionary indices impose; dl_vec_slice cuts it
 * into batches without copying when the offset is a multiple of 8.
 *
 * Writing: builders append to FLAT vectors (and indices to DICT vectors). Before writing, a
 * vector makes its buffers its own: a buffer that is shared (a slice, an exported Arrow array,
 * a foreign page) is copied first, so shared bytes never change. A vector itself must not be
 * written while another reference to it exists.
 *
 * Thread rules: a vector is used by one thread at a time; buffer reference counts are atomic,
 * so exported arrays and shared dictionaries may be released on any thread.
 */
#ifndef DL_VECTOR_VECTOR_H
#define DL_VECTOR_VECTOR_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/error.h"
#include "base/str.h"
#include "vector/vec_buffer.h"
#include "vector/vec_sel.h"
#include "vector/vec_type.h"

/* Rows per batch: a compile-time power of two (DuckDB's STANDARD_VECTOR_SIZE). */
#define DL_BATCH_CAPACITY 2048
_Static_assert((DL_BATCH_CAPACITY & (DL_BATCH_CAPACITY - 1)) == 0,
               "DL_BATCH_CAPACITY must be a power of two");

/* The most rows one vector may hold (int32 offsets and indices). */
#define DL_VEC_MAX_LENGTH INT32_MAX

/* Longest string stored inside its view. */
#define DL_VEC_VIEW_INLINE 12

typedef enum dl_vec_layout {
    DL_VEC_FLAT,  /* row i is element i */
    DL_VEC_CONST, /* every row is element 0 */
    DL_VEC_DICT,  /* row i is element indices[i] of dict */
} dl_vec_layout;

/* An Arrow binary view (see the file comment). */
typedef union dl_vec_view {
    struct {
        int32_t length;
        uint8_t data[DL_VEC_VIEW_INLINE];
    } inlined;

    struct {
        int32_t length;
        uint8_t prefix[4];
        int32_t buffer_index;
        int32_t offset;
    } ref;
} dl_vec_view;

_Static_assert(sizeof(dl_vec_view) == 16, "an Arrow binary view is 16 bytes");

typedef struct dl_vector dl_vector;

struct dl_vector {
    const dl_type *type;         /* logical type; must outlive the vector */
    dl_vec_layout layout;        /* how rows map to elements */
    int64_t length;              /* rows */
    int64_t capacity;            /* elements writable in place at data; 0 = copy before writing */
    uint8_t *validity;           /* LSB bitmap over elements (DICT: over rows); NULL = no nulls */
    void *data;                  /* values, bits, views, offsets (length + 1) or DICT indices */
    dl_vec_buffer *validity_buf; /* owns validity (validity may point inside it) */
    dl_vec_buffer *data_buf;     /* owns data (data may point inside it) */
    dl_vec_buffer **heaps;       /* STRING/BINARY: the buffers views point into */
    int32_t n_heaps;             /* heaps in use */
    int32_t cap_heaps;           /* slots in heaps */
    int32_t n_children;          /* STRUCT: fields; ARRAY, MAP: 1 */
    dl_vector **children;        /* child vectors (references), always FLAT */
    dl_vector *dict;             /* DICT: the dictionary (a reference), FLAT */
    const dl_allocator *alloc;   /* where everything above comes from */
    _Atomic(int64_t) refcount;   /* references to this vector */
};

/* ---- Lifecycle ------------------------------------------------------------------------- */

/* A new empty FLAT vector of type with room for capacity rows (children of a struct too);
 * one reference. */
DL_NODISCARD dl_status dl_vec_new(const dl_allocator *alloc, const dl_type *type, int64_t capacity,
                                  dl_vector **out, dl_error *err);

/* Takes one more reference; returns vec. */
dl_vector *dl_vec_ref(dl_vector *vec);

/* Drops one reference; at zero releases the buffers, children and dictionary. NULL-tolerant. */
void dl_vec_unref(dl_vector *vec);

/* True when the caller holds the only reference to vec. */
bool dl_vec_is_unique(const dl_vector *vec);

/* Empties vec for the next batch: FLAT, length 0, no nulls, dictionary dropped. Buffers it
 * owns alone are kept for reuse, shared ones are let go. Fails only when a child shared with
 * someone else must be replaced and memory runs out. Assumes: vec is unique. */
DL_NODISCARD dl_status dl_vec_reset(dl_vector *vec, dl_error *err);

/* Makes vec writable with room for capacity elements (a FLAT or DICT vector; struct children
 * too), copying shared buffers. New validity bits are set (valid); new values are not
 * initialised. LIMIT when capacity exceeds DL_VEC_MAX_LENGTH. */
DL_NODISCARD dl_status dl_vec_reserve(dl_vector *vec, int64_t capacity, dl_error *err);

/* ---- Builders (FLAT vectors; DICT accepts append_null and append_index) ----------------- */

/* Appends a null row. STRUCT: appends a null to every child too; ARRAY/MAP: an empty list. */
DL_NODISCARD dl_status dl_vec_append_null(dl_vector *vec, dl_error *err);

/* Appends one value; the type's physical class must match (DL_ASSERT). DATE uses i32,
 * TIMESTAMP and TIMESTAMP_NTZ use i64, DECIMAL uses i128 (the unscaled value). */
DL_NODISCARD dl_status dl_vec_append_bool(dl_vector *vec, bool value, dl_error *err);
DL_NODISCARD dl_status dl_vec_append_i8(dl_vector *vec, int8_t value, dl_error *err);
DL_NODISCARD dl_status dl_vec_append_i16(dl_vector *vec, int16_t value, dl_error *err);
DL_NODISCARD dl_status dl_vec_append_i32(dl_vector *vec, int32_t value, dl_error *err);
DL_NODISCARD dl_status dl_vec_append_i64(dl_vector *vec, int64_t value, dl_error *err);
DL_NODISCARD dl_status dl_vec_append_f32(dl_vector *vec, float value, dl_error *err);
DL_NODISCARD dl_status dl_vec_append_f64(dl_vector *vec, double value, dl_error *err);
DL_NODISCARD dl_status dl_vec_append_i128(dl_vector *vec, dl_i128 value, dl_error *err);

/* Appends a STRING/BINARY value, copying the bytes (into the view when <= 12 bytes, else
 * into the vector's own heap). No UTF-8 check: callers validate outside input. */
DL_NODISCARD dl_status dl_vec_append_str(dl_vector *vec, const void *bytes, size_t len,
                                         dl_error *err);

/* Appends a STRING/BINARY value that already sits at offset in heap heap_index (see
 * dl_vec_add_heap): no copy unless len <= 12, which is inlined. INVALID_ARG when the range
 * is outside the heap. */
DL_NODISCARD dl_status dl_vec_append_str_ref(dl_vector *vec, int32_t heap_index, int64_t offset,
                                             int64_t len, dl_error *err);

/* Adds a reference to buf as a heap of vec (e.g. a decoded page wrapped with
 * dl_vec_buffer_wrap) and returns its index; views may then point into buf->data[0, size). */
DL_NODISCARD dl_status dl_vec_add_heap(dl_vector *vec, dl_vec_buffer *buf, int32_t *out_index,
                                       dl_error *err);

/* Closes a valid STRUCT row whose field values were appended to each child.
 * INVALID_ARG when a child's length is not the struct's new length. */
DL_NODISCARD dl_status dl_vec_append_struct(dl_vector *vec, dl_error *err);

/* Closes a valid ARRAY or MAP row whose elements are the child elements appended since the
 * previous row. MAP entries are appended to the entries child: key to child 0, value to
 * child 1, then dl_vec_append_struct on the entries. */
DL_NODISCARD dl_status dl_vec_append_list(dl_vector *vec, dl_error *err);

/* Marks element row (< length) null, creating the bitmap on first use. */
DL_NODISCARD dl_status dl_vec_set_null(dl_vector *vec, int64_t row, dl_error *err);

/* Makes vec->validity exist and writable for capacity elements (all valid when new), for
 * readers that write the bitmap directly. */
DL_NODISCARD dl_status dl_vec_make_validity(dl_vector *vec, dl_error *err);

/* Sets the length after writing values directly into data (and validity) of a reserved
 * vector. Assumes: length <= capacity, and for ARRAY/MAP the offsets up to length are set. */
void dl_vec_set_length(dl_vector *vec, int64_t length);

/* Turns a FLAT vector holding one row into a CONST vector standing for count rows.
 * Assumes: vec->length == 1. */
void dl_vec_make_const(dl_vector *vec, int64_t count);

/* A new CONST vector of count null rows. */
DL_NODISCARD dl_status dl_vec_new_const_null(const dl_allocator *alloc, const dl_type *type,
                                             int64_t count, dl_vector **out, dl_error *err);

/* Turns the empty FLAT vector vec into a DICT vector over dict (a FLAT vector of the same
 * type, referenced, not copied). Then append indices with dl_vec_append_index and nulls with
 * dl_vec_append_null, or reserve and write int32 indices into data. */
DL_NODISCARD dl_status dl_vec_set_dict(dl_vector *vec, dl_vector *dict, dl_error *err);

/* Appends a row of a DICT vector: the dictionary element index. */
DL_NODISCARD dl_status dl_vec_append_index(dl_vector *vec, int32_t index, dl_error *err);

/* CORRUPT when a DICT vector has an index outside its dictionary (rows null or not): readers
 * call it on indices decoded from a file before anyone follows them. */
DL_NODISCARD dl_status dl_vec_check_indices(const dl_vector *vec, dl_error *err);

/* ---- Reading ----------------------------------------------------------------------------- */

/* The flat vector holding row's element, and the element's index in it. */
int64_t dl_vec_resolve(const dl_vector *vec, int64_t row, const dl_vector **out_flat);

/* True when row is null, whatever the layout. */
bool dl_vec_is_null(const dl_vector *vec, int64_t row);

/* Number of null rows. */
int64_t dl_vec_null_count(const dl_vector *vec);

/* The bytes of a view of the flat vector (STRING/BINARY) that holds it. The view stays valid
 * while vec lives; an inlined value points into the view itself. */
static inline dl_str
dl_vec_view_str(const dl_vector *flat, const dl_vec_view *view) {
    if (view->inlined.length <= DL_VEC_VIEW_INLINE) {
        return dl_str_make((const char *)view->inlined.data, (size_t)view->inlined.length);
    }
    const dl_vec_buffer *heap = flat->heaps[view->ref.buffer_index];
    return dl_str_make((const char *)heap->data + view->ref.offset, (size_t)view->ref.length);
}

/* The STRING/BINARY element idx of a flat vector. */
static inline dl_str
dl_vec_get_str(const dl_vector *flat, int64_t idx) {
    return dl_vec_view_str(flat, (const dl_vec_view *)flat->data + idx);
}

/* The BOOLEAN element idx of a flat vector. */
static inline bool
dl_vec_get_bool(const dl_vector *flat, int64_t idx) {
    return dl_vec_bit_get((const uint8_t *)flat->data, idx);
}

/* The element range [*out_start, *out_end) in the child of ARRAY/MAP element idx. */
static inline void
dl_vec_list_bounds(const dl_vector *flat, int64_t idx, int64_t *out_start, int64_t *out_end) {
    const int32_t *offsets = (const int32_t *)flat->data;
    *out_start = offsets[idx];
    *out_end = offsets[idx + 1];
}

/* Equality of two views' bytes; a and b are the flat vectors holding them. Settles unequal
 * lengths or prefixes, and inlined values, without touching a heap. */
bool dl_vec_view_equal(const dl_vector *a, const dl_vec_view *va, const dl_vector *b,
                       const dl_vec_view *vb);

/* Byte-wise order of two views' bytes (<0, 0, >0), comparing the prefixes first. */
int dl_vec_view_compare(const dl_vector *a, const dl_vec_view *va, const dl_vector *b,
                        const dl_vec_view *vb);

/* ---- Copies ------------------------------------------------------------------------------ */

/*
 * Appends rows[0..count) of src (NULL rows = rows 0..count-1), any layout, to the FLAT vector
 * dst of an equal type. Out-of-line strings are not copied: dst takes references to src's
 * heaps. INVALID_ARG when the types differ.
 */
DL_NODISCARD dl_status dl_vec_copy_sel(dl_vector *dst, const dl_vector *src, const uint32_t *rows,
                                       int64_t count, dl_error *err);

/* Turns a CONST or DICT vector into a FLAT one with the same rows (a copy). FLAT: no-op.
 * Assumes: vec is unique. */
DL_NODISCARD dl_status dl_vec_flatten(dl_vector *vec, dl_error *err);

/* A new vector of rows [offset, offset + count) of src. Zero-copy (shares buffers) for CONST,
 * and for FLAT and DICT when offset is a multiple of 8; otherwise a copy. The result is not
 * writable in place (capacity 0): builders copy before writing. */
DL_NODISCARD dl_status dl_vec_slice(const dl_vector *src, int64_t offset, int64_t count,
                                    dl_vector **out, dl_error *err);

/* ---- Unified view ------------------------------------------------------------------------ */

/*
 * One read view of any layout (DuckDB's UnifiedVectorFormat), so one loop serves all:
 *
 *     for (i = 0; i < count; i++) {
 *         if (u.validity && !dl_vec_bit_get(u.validity, i)) { null row i; continue; }
 *         value = ((const int32_t *)u.data)[u.sel[i]];
 *     }
 *
 * validity is indexed by ROW (i), data by element (sel[i]). For BOOLEAN data is a bitmap;
 * for STRING/BINARY views (read with dl_vec_view_str(u.flat, ...)); for ARRAY/MAP offsets;
 * for STRUCT NULL (read u.flat's children at element sel[i]).
 */
typedef struct dl_vec_unified {
    const dl_vector *flat;   /* the FLAT vector whose elements data holds (vec, or its dict) */
    const void *data;        /* flat->data */
    const uint32_t *sel;     /* row -> element; never NULL */
    const uint8_t *validity; /* row validity; NULL = no null rows */
    int64_t count;           /* rows described */
    uint8_t validity_scratch[DL_BATCH_CAPACITY / 8]; /* combined validity for DICT */
} dl_vec_unified;

/* Fills u for rows [0, count) of vec. u borrows from vec (and static tables): valid while vec
 * is unchanged. Assumes: count <= DL_BATCH_CAPACITY and count <= vec->length. */
void dl_vec_unify(const dl_vector *vec, int64_t count, dl_vec_unified *u);

/* ---- Batches ----------------------------------------------------------------------------- */

/*
 * A batch: columns of equal length described by a STRUCT schema, plus an optional selection
 * of live rows. A filter refines the selection and copies nothing (DuckDB's DataChunk).
 * Live row k is physical row sel[k] (sel non-NULL) or k.
 */
typedef struct dl_batch {
    const dl_type *schema;     /* STRUCT: one field per column; must outlive the batch */
    int32_t n_cols;            /* schema->n_fields */
    dl_vector **cols;          /* one reference per column */
    int64_t count;             /* live rows */
    const uint32_t *sel;       /* live rows, sorted (into sel_storage), or NULL = [0, count) */
    dl_sel sel_storage;        /* storage for sel */
    const dl_allocator *alloc; /* where the batch comes from */
} dl_batch;

/* A new batch of empty FLAT columns for schema (a STRUCT type), each with room for capacity
 * rows. */
DL_NODISCARD dl_status dl_vec_batch_new(const dl_allocator *alloc, const dl_type *schema,
                                        int64_t capacity, dl_batch **out, dl_error *err);

/* Drops the column references and frees the batch. NULL-tolerant. */
void dl_vec_batch_free(dl_batch *batch);

/* Empties the batch for the next use: columns reset (replaced when shared), no selection. */
DL_NODISCARD dl_status dl_vec_batch_reset(dl_batch *batch, dl_error *err);

/* Replaces column i with vec, taking over the caller's reference. */
void dl_vec_batch_set_col(dl_batch *batch, int32_t i, dl_vector *vec);

/* Sets count with no selection, after the columns were filled to that length. */
void dl_vec_batch_set_count(dl_batch *batch, int64_t count);

/* Selects physical rows[0..count) (sorted, within the columns); copies them. */
DL_NODISCARD dl_status dl_vec_batch_set_sel(dl_batch *batch, const uint32_t *rows, int64_t count,
                                            dl_error *err);

/* Keeps the live rows whose bit (indexed by physical row) is set. */
DL_NODISCARD dl_status dl_vec_batch_refine(dl_batch *batch, const uint8_t *bits, dl_error *err);

/* Applies the selection: every column becomes a FLAT copy of the live rows. No-op without a
 * selection (columns keep their layout). */
DL_NODISCARD dl_status dl_vec_batch_apply_sel(dl_batch *batch, dl_error *err);

/* INTERNAL when the batch breaks its invariants (column types or lengths, selection bounds). */
DL_NODISCARD dl_status dl_vec_batch_check(const dl_batch *batch, dl_error *err);

/* Physical row of live row k. */
static inline int64_t
dl_vec_batch_row(const dl_batch *batch, int64_t k) {
    return batch->sel != NULL ? (int64_t)batch->sel[k] : k;
}

#endif /* DL_VECTOR_VECTOR_H */
