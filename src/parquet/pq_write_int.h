/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private interface of the Parquet writer (pq_writer.h): the leaf column state shared by the
 * writer's files.
 *
 *   pq_write_schema.c   dl_type -> schema elements and leaves, with the path of steps the
 *                       shredder follows from a top-level vector to each leaf
 *   pq_write_shred.c    rows of a top-level vector -> definition/repetition levels and the
 *                       leaf values, converted to their physical type
 *   pq_write_dict.c     the dictionary of a column chunk (a hash table over PLAIN bytes)
 *   pq_write_stats.c    min/max/null counts, their encoding and truncation
 *   pq_write_page.c     values -> pages (encoding choice, levels, compression, page index)
 *   pq_write.c          the writer: windows of input, row groups, page indexes, footer
 *
 * Ownership: everything reachable from a dl_pq_writer belongs to it; the schema part (steps,
 * paths, elements) lives in the writer's arena, the buffers are dl_bufs on its allocator.
 */
#ifndef DL_PQ_PQ_WRITE_INT_H
#define DL_PQ_PQ_WRITE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/error.h"
#include "parquet/codec/pq_codec.h"
#include "parquet/parquet.h"
#include "parquet/pq_writer.h"
#include "vector/vector.h"

/* ---- Schema ---------------------------------------------------------------------------- */

/* How a leaf's vector elements become Parquet values. */
typedef enum dl_pq_wconv {
    DL_PQ_WCONV_NONE = 0, /* void: never a value */
    DL_PQ_WCONV_BOOL,     /* bits -> BOOLEAN */
    DL_PQ_WCONV_I8,       /* int8 -> INT32 */
    DL_PQ_WCONV_I16,      /* int16 -> INT32 */
    DL_PQ_WCONV_I32,      /* int32 -> INT32 */
    DL_PQ_WCONV_I64,      /* int64 -> INT64 */
    DL_PQ_WCONV_F32,      /* float -> FLOAT */
    DL_PQ_WCONV_F64,      /* double -> DOUBLE */
    DL_PQ_WCONV_DEC32,    /* decimal128 -> INT32 */
    DL_PQ_WCONV_DEC64,    /* decimal128 -> INT64 */
    DL_PQ_WCONV_DECFLBA,  /* decimal128 -> big-endian FIXED_LEN_BYTE_ARRAY */
    DL_PQ_WCONV_VIEW,     /* binary views -> BYTE_ARRAY */
} dl_pq_wconv;

/* The value kinds statistics and dictionaries work on (the converted physical values). */
typedef enum dl_pq_vkind {
    DL_PQ_VK_NONE = 0,
    DL_PQ_VK_BOOL,  /* uint8_t 0/1 */
    DL_PQ_VK_I32,   /* int32_t, signed order */
    DL_PQ_VK_I64,   /* int64_t, signed order */
    DL_PQ_VK_F32,   /* float, NaN excluded */
    DL_PQ_VK_F64,   /* double, NaN excluded */
    DL_PQ_VK_DEC,   /* FLBA bytes, ordered by a dl_i128 beside them */
    DL_PQ_VK_BYTES, /* dl_str, unsigned byte-wise order */
} dl_pq_vkind;

typedef enum dl_pq_wstep_kind {
    DL_PQ_STEP_LEAF = 0, /* the leaf's values */
    DL_PQ_STEP_STRUCT,   /* descend into child `child` (same element) */
    DL_PQ_STEP_LIST,     /* ARRAY or MAP: each element of child 0 is one repetition */
} dl_pq_wstep_kind;

/* One step of the path from a top-level vector to a leaf's values. */
typedef struct dl_pq_wstep {
    dl_pq_wstep_kind kind;
    bool is_nullable; /* a null here is allowed (OPTIONAL) and written at level def - 1 */
    int32_t child;    /* STRUCT: which child vector */
    uint16_t def;     /* definition level of a present (non-null) value at this step */
    uint16_t rep;     /* LIST: repetition level of its second and later elements */
    const char *name; /* the field path at this step, for messages */
} dl_pq_wstep;

/* ---- Statistics ------------------------------------------------------------------------ */

typedef union dl_pq_wnum {
    int32_t i32; /* BOOL (0/1) and I32 */
    int64_t i64;
    float f32;
    double f64;
    dl_i128 i128;
} dl_pq_wnum;

/* Running statistics of a page, a column chunk or the file. */
typedef struct dl_pq_wstats {
    bool has_value;     /* min/max hold a non-null, non-NaN value */
    int64_t null_count; /* level entries without a value */
    int64_t nan_count;  /* NaN values (FLOAT/DOUBLE) */
    dl_pq_wnum min, max;
    dl_buf min_bytes, max_bytes; /* BYTES: the full min and max values */
} dl_pq_wstats;

void dl_pq_wstats_init(dl_pq_wstats *st, const dl_allocator *alloc);
void dl_pq_wstats_destroy(dl_pq_wstats *st);
void dl_pq_wstats_reset(dl_pq_wstats *st);

/* Adds n values of kind vk: vals is uint8_t 0/1 (BOOL), int32_t, int64_t, float, double,
 * dl_i128 (DEC: the unscaled values, given in dec) or dl_str (BYTES). */
DL_NODISCARD dl_status dl_pq_wstats_update(dl_pq_wstats *st, dl_pq_vkind vk, const void *vals,
                                           const dl_i128 *dec, size_t n, dl_error *err);

/* Merges src into dst (same kind). */
DL_NODISCARD dl_status dl_pq_wstats_merge(dl_pq_wstats *dst, const dl_pq_wstats *src,
                                          dl_pq_vkind vk, dl_error *err);

/* How a leaf's statistics are written. */
typedef struct dl_pq_wstats_form {
    dl_pq_vkind vk;
    dl_pq_type phys;
    int32_t type_length; /* FLBA */
    bool is_utf8;        /* STRING: cut at code point boundaries */
    size_t max_bytes;    /* byte arrays longer than this are cut */
} dl_pq_wstats_form;

/* The encoded bounds of st: min and max appended to out, their places in *min_at / *max_at
 * (offset, length) and whether each is exact. has_min / has_max are false when st has no
 * value, and has_max when no upper bound exists after cutting (every byte 0xFF). */
typedef struct dl_pq_wbounds {
    size_t min_off, min_len, max_off, max_len;
    bool has_min, has_max;
    bool is_min_exact, is_max_exact;
} dl_pq_wbounds;

DL_NODISCARD dl_status dl_pq_wstats_encode(const dl_pq_wstats *st, const dl_pq_wstats_form *form,
                                           dl_buf *out, dl_pq_wbounds *bounds, dl_error *err);

/* Compares two encoded bounds in the form's order (<0, 0, >0). */
int dl_pq_wstats_compare(const dl_pq_wstats_form *form, dl_str a, dl_str b);

/* ---- Dictionary ------------------------------------------------------------------------ */

/* The distinct values of a column chunk: values holds them PLAIN-encoded (the dictionary
 * page's body), an open-addressing table maps value -> index. */
typedef struct dl_pq_wdict {
    const dl_allocator *alloc;
    size_t width;    /* bytes per value, or 0 for BYTE_ARRAY */
    dl_buf values;   /* the entries, PLAIN */
    dl_buf offsets;  /* BYTE_ARRAY: size_t offset of each entry in values */
    uint64_t *slots; /* hash32 << 32 | (index + 1); 0 = empty */
    size_t cap;      /* slots; a power of two, or 0 */
    uint32_t n_entries;
} dl_pq_wdict;

void dl_pq_wdict_init(dl_pq_wdict *dict, const dl_allocator *alloc, size_t width);
void dl_pq_wdict_destroy(dl_pq_wdict *dict);
void dl_pq_wdict_reset(dl_pq_wdict *dict);

/* Looks up or inserts n values, writing their indices to out. put_u32 takes 4-byte values,
 * put_u64 8-byte ones, put_fixed width-byte ones (dict->width), put_bytes dl_str values. */
DL_NODISCARD dl_status dl_pq_wdict_put_u32(dl_pq_wdict *dict, const uint32_t *vals, size_t n,
                                           uint32_t *out, dl_error *err);
DL_NODISCARD dl_status dl_pq_wdict_put_u64(dl_pq_wdict *dict, const uint64_t *vals, size_t n,
                                           uint32_t *out, dl_error *err);
DL_NODISCARD dl_status dl_pq_wdict_put_fixed(dl_pq_wdict *dict, const uint8_t *vals, size_t n,
                                             uint32_t *out, dl_error *err);
DL_NODISCARD dl_status dl_pq_wdict_put_bytes(dl_pq_wdict *dict, const dl_str *vals, size_t n,
                                             uint32_t *out, dl_error *err);

/* Appends the PLAIN form of the entries indices[0, n) to out. */
DL_NODISCARD dl_status dl_pq_wdict_gather(const dl_pq_wdict *dict, const uint32_t *indices,
                                          size_t n, dl_buf *out, dl_error *err);

/* ---- Leaves ---------------------------------------------------------------------------- */

/* The encoding of a column chunk's next data pages. */
typedef enum dl_pq_wmode {
    DL_PQ_WMODE_TRIAL = 0, /* dictionary on trial: pages are kept both ways until it is decided */
    DL_PQ_WMODE_DICT,      /* indices into the chunk's dictionary */
    DL_PQ_WMODE_PLAIN,     /* PLAIN (or RLE booleans in v2), delta not (yet) chosen */
    DL_PQ_WMODE_DELTA,     /* DELTA_BINARY_PACKED / DELTA_BYTE_ARRAY */
} dl_pq_wmode;

/* A finished page waiting for the dictionary's verdict: offsets into the leaf's pend_*
 * buffers and what its header needs. */
typedef struct dl_pq_wpend {
    size_t defs_at;    /* first level in pend_defs / pend_reps (uint16_t units) */
    size_t values_at;  /* first byte in pend_values */
    size_t values_len; /* its PLAIN values' bytes */
    size_t indices_at; /* first index in pend_indices (uint32_t units) */
    int64_t levels, n_values, rows, nulls, first_row;
} dl_pq_wpend;

typedef struct dl_pq_wleaf {
    /* ---- schema (arena) ---- */
    int32_t index;      /* column index */
    int32_t top;        /* the top-level column (batch column) it belongs to */
    const char *path;   /* dotted path_in_schema */
    dl_str *path_parts; /* path_in_schema */
    size_t n_path_parts;
    const char **field_path; /* dl_type field names from the root */
    size_t n_field_path;
    const dl_type *type; /* the leaf's logical type */
    dl_pq_type phys;
    int32_t type_length; /* FLBA bytes */
    dl_pq_wconv conv;
    dl_pq_vkind vk;
    size_t width;      /* PLAIN bytes per value (0: BOOLEAN bits or BYTE_ARRAY) */
    dl_i128 dec_limit; /* DECIMAL: 10^precision; |unscaled| must be below it */
    uint16_t max_def, max_rep;
    dl_pq_wstep *steps;
    size_t n_steps;
    bool is_repeated;
    dl_pq_wstats_form form;

    /* ---- the open page ---- */
    dl_buf defs, reps;       /* uint16_t levels (only when max_def / max_rep > 0) */
    dl_buf values;           /* PLAIN-form values (BOOLEAN: one byte each) */
    dl_buf indices;          /* DICT mode: uint32_t indices */
    int64_t page_levels;     /* level entries (values and nulls) */
    int64_t page_values;     /* non-null values */
    int64_t page_rows;       /* rows started in the page */
    size_t page_plain_bytes; /* what PLAIN would take for the page's values */
    dl_pq_wstats page_stats;

    /* ---- pages waiting for the dictionary's verdict (TRIAL) ---- */
    dl_buf pend_defs, pend_reps, pend_values, pend_indices;
    dl_buf pend_pages; /* dl_pq_wpend */

    /* ---- the open column chunk ---- */
    dl_pq_wmode mode;
    bool is_mode_final; /* PLAIN vs DELTA has been decided for the chunk */
    dl_pq_wdict dict;
    dl_buf chunk;               /* data pages, headers and bodies, as they go in the file */
    dl_buf dict_page;           /* the dictionary page, made when the chunk closes */
    int64_t chunk_uncompressed; /* page headers + uncompressed bodies */
    int64_t chunk_levels;       /* num_values */
    int64_t chunk_rows;
    int32_t n_pages_dict; /* data pages per encoding (encoding_stats) */
    int32_t n_pages_plain;
    int32_t n_pages_delta;
    int32_t n_pages_rle; /* v2 RLE booleans */
    dl_pq_wstats chunk_stats;
    /* page index of the chunk */
    dl_buf ci_null_pages;  /* uint8_t per page */
    dl_buf ci_bounds;      /* encoded mins and maxes */
    dl_buf ci_bound_at;    /* size_t min_off, min_len, max_off, max_len per page */
    dl_buf ci_null_counts; /* int64_t per page */
    dl_buf oi_locs;        /* dl_pq_page_location per page, offset relative to chunk */
    bool is_ci_valid;      /* false once a page had values but no bounds (only NaN) */
    bool is_asc, is_desc;  /* boundary order so far */
    size_t ci_last;        /* index of the last page with bounds, + 1 (0: none) */

    /* ---- the chunk's Bloom filter (pq_write_bloom.c) ---- */
    uint8_t *bloom;   /* bitset of bloom_cap bytes, or NULL when the column has none */
    size_t bloom_cap; /* a power of two, at least DL_PQ_BLOOM_BLOCK_BYTES */

    /* ---- the file ---- */
    dl_pq_wstats file_stats;
} dl_pq_wleaf;

/* Settings every task reads (never written while tasks run). */
typedef struct dl_pq_writer_ctx {
    const dl_allocator *alloc;
    dl_pq_write_options opts;
} dl_pq_writer_ctx;

/* Per top-level column: the leaves below it and the scratch its encoding task uses. */
typedef struct dl_pq_wcol {
    const dl_pq_writer_ctx *ctx; /* the writer's shared, read-only settings */
    int32_t index;               /* batch column */
    dl_pq_wleaf *leaves;         /* n_leaves consecutive leaves */
    size_t n_leaves;
    dl_pq_codec_ctx codec; /* compression state for this column's pages */
    dl_buf body;           /* a page body before compression */
    dl_buf packed;         /* a compressed page body */
    dl_buf header;         /* a page header */
    dl_buf idx;            /* shredding: uint32_t element indices */
    dl_buf conv;           /* converted values */
    dl_buf dec;            /* dl_i128 unscaled decimals (FLBA statistics) */
    dl_buf scratch;        /* encodings' scratch */
} dl_pq_wcol;

/* ---- Schema (pq_write_schema.c) ------------------------------------------------------- */

typedef struct dl_pq_wschema {
    dl_pq_schema_element *elements; /* depth-first, root first */
    size_t n_elements;
    dl_pq_wleaf *leaves; /* the leaves' schema parts filled, the rest zero */
    size_t n_leaves;
} dl_pq_wschema;

/* Builds the Parquet schema of root (a STRUCT) in arena. field_ids: NULL or
 * dl_pq_write_field_count(root) ids. UNSUPPORTED for an empty struct, a schema without leaves
 * or nesting deeper than DL_PQ_MAX_SCHEMA_DEPTH; INVALID_ARG for a root that is not a struct. */
DL_NODISCARD dl_status dl_pq_wschema_build(const dl_type *root, const int32_t *field_ids,
                                           size_t stats_max_bytes, dl_arena *arena,
                                           dl_pq_wschema *out, dl_error *err);

/* ---- Shredding (pq_write_shred.c) ------------------------------------------------------ */

/* Writes rows of the top-level vector vec into leaf's open page: row k is physical row
 * rows[k] (rows non-NULL) or start + k, for k < n (n <= DL_BATCH_CAPACITY). Adds levels,
 * values, statistics and counts; does not end pages. */
DL_NODISCARD dl_status dl_pq_shred(dl_pq_wcol *col, dl_pq_wleaf *leaf, const dl_vector *vec,
                                   const uint32_t *rows, int64_t start, int64_t n, dl_error *err);

/* ---- Pages (pq_write_page.c) ----------------------------------------------------------- */

/* Prepares the buffers of a leaf (after the schema part is filled). */
void dl_pq_wleaf_init(dl_pq_wleaf *leaf, const dl_pq_writer_ctx *ctx);
void dl_pq_wleaf_destroy(dl_pq_wleaf *leaf);

/* Adds n converted values (see dl_pq_wstats_update for vals and dec) to the open page. */
DL_NODISCARD dl_status dl_pq_wleaf_put(dl_pq_wcol *col, dl_pq_wleaf *leaf, const void *vals,
                                       const dl_i128 *dec, size_t n, dl_error *err);

/* Ends the open page when it is full or the dictionary has outgrown its limit. Call at row
 * boundaries only. */
DL_NODISCARD dl_status dl_pq_wleaf_maybe_end_page(dl_pq_wcol *col, dl_pq_wleaf *leaf,
                                                  dl_error *err);

/* Ends the column chunk: the open page (or an empty page when the chunk has none), then the
 * dictionary page. Afterwards leaf->dict_page and leaf->chunk hold the chunk's bytes. */
DL_NODISCARD dl_status dl_pq_wleaf_end_chunk(dl_pq_wcol *col, dl_pq_wleaf *leaf, dl_error *err);

/* Fills the chunk's ColumnMetaData (offsets from dict_offset / data_offset, the file offsets
 * of dict_page and chunk) and encodes its page indexes: the ColumnIndex to ci (unless the
 * chunk has none: *out_has_ci false), the OffsetIndex to oi. Strings live in arena. Merges the
 * chunk statistics into the file's and resets the chunk for the next row group. */
DL_NODISCARD dl_status dl_pq_wleaf_close_chunk(const dl_pq_writer_ctx *ctx, dl_pq_wleaf *leaf,
                                               int64_t dict_offset, int64_t data_offset,
                                               dl_arena *arena, dl_pq_column_metadata *md,
                                               dl_buf *ci, bool *out_has_ci, dl_buf *oi,
                                               dl_error *err);

/* ---- Bloom filters (pq_write_bloom.c) --------------------------------------------------- */

/* Gives leaf a Bloom filter of the largest power of two up to max_bytes (at least one
 * block). INVALID_ARG for BOOLEAN and void leaves, NOMEM. Freed by dl_pq_wleaf_destroy. */
DL_NODISCARD dl_status dl_pq_wleaf_bloom_enable(dl_pq_wleaf *leaf, const dl_allocator *alloc,
                                                size_t max_bytes, dl_error *err);

/* Adds the hashes of n values (as dl_pq_wleaf_put takes them) to the leaf's filter. */
void dl_pq_wleaf_bloom_add(dl_pq_wleaf *leaf, const void *vals, size_t n);

/* Appends the chunk's filter, folded to the size its distinct values need at fpp, as a
 * BloomFilterHeader and bitset to out, and empties it for the next chunk. Nothing is
 * appended for a leaf without a filter. NOMEM. */
DL_NODISCARD dl_status dl_pq_wleaf_bloom_take(dl_pq_wleaf *leaf, double fpp, dl_buf *out,
                                              dl_error *err);

/* Uncompressed bytes of the open chunk so far (pages, open page, dictionary). */
int64_t dl_pq_wleaf_buffered_bytes(const dl_pq_wleaf *leaf);

/* Bytes of the chunk's finished pages as they will be written (compressed). */
int64_t dl_pq_wleaf_written_bytes(const dl_pq_wleaf *leaf);

#endif /* DL_PQ_PQ_WRITE_INT_H */
