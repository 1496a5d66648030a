/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Parquet file writer: batches of vectors in, one Parquet file out through a store writer,
 * with the statistics a Delta `add` action needs out.
 *
 * What it writes (parquet-format README "File Format", LogicalTypes.md, PageIndex.md):
 *
 *     "PAR1"
 *     row group 0: column chunk 0: [dictionary page] data page ... ; column chunk 1 ...
 *     row group 1 ...
 *     Bloom filters of the chunks that have one (row group by row group, column by column)
 *     ColumnIndex of every chunk (row group by row group, column by column)
 *     OffsetIndex of every chunk (same order)
 *     FileMetaData (Thrift compact), u32 LE length, "PAR1"
 *
 * Types, as Spark writes them (each leaf's schema element):
 *
 *   boolean             BOOLEAN
 *   byte, short, int    INT32  INTEGER(8|16|32, signed)  (converted INT_8, INT_16, INT_32)
 *   long                INT64
 *   float, double       FLOAT, DOUBLE
 *   decimal(p, s)       INT32 when p <= 9, INT64 when p <= 18, else FIXED_LEN_BYTE_ARRAY of the
 *                       fewest bytes that hold p digits (big-endian two's complement);
 *                       DECIMAL(p, s) and converted DECIMAL
 *   string              BYTE_ARRAY  STRING (converted UTF8)
 *   binary              BYTE_ARRAY
 *   date                INT32  DATE
 *   timestamp           INT64  TIMESTAMP(MICROS, isAdjustedToUTC = true) (TIMESTAMP_MICROS)
 *   timestamp_ntz       INT64  TIMESTAMP(MICROS, isAdjustedToUTC = false)
 *   void (null type)    INT32  UNKNOWN, every value null (Arrow's choice; Spark refuses it)
 *   struct              a group of its fields
 *   array<e>            <name> (LIST) { repeated group list { <element> } }   (three levels)
 *   map<k, v>           <name> (MAP) { repeated group key_value { required <key>; <value> } }
 *
 * A nullable field is OPTIONAL, a non-nullable one REQUIRED; array elements follow
 * contains_null, map values value_contains_null, map keys are always REQUIRED. The root is
 * named "schema". Every leaf gets ColumnOrder TYPE_ORDER.
 *
 * Definition and repetition levels (Dremel, as parquet-format's README describes them) come
 * from the vectors: a null at any OPTIONAL level ends the path there, an empty array or map
 * writes the level of its (present) list group, and each element after the first of a list
 * repeats at that list's repetition level.
 *
 * Pages. Each column chunk starts with its dictionary on trial: values go into a dictionary and
 * into PLAIN form, and finished pages wait until, over all the pages so far, dictionary + indices
 * come out smaller than PLAIN (then RLE_DICTIONARY data pages with a PLAIN dictionary page,
 * written first in the chunk) or the dictionary grows past dict_page_bytes (then PLAIN and no
 * dictionary); a chunk that ends undecided takes whichever is smaller. A dictionary kept that
 * later passes dict_page_bytes falls back to PLAIN for the rest of the chunk (parquet-mr's
 * rule). This judges a dictionary on more than parquet-mr's first page, so a column with, say,
 * 100,000 distinct values in a million rows keeps its dictionary, as DuckDB's writer (which
 * judges whole row groups) does. Booleans are never dictionary-encoded: PLAIN in v1 pages, RLE
 * in v2 pages. With is_delta_enabled, chunks without a dictionary use DELTA_BINARY_PACKED
 * (INT32, INT64) or DELTA_BYTE_ARRAY (BYTE_ARRAY) when that is smaller than PLAIN on their first
 * page. Levels are RLE/bit-packed (v1: with the u32 length prefix). Data pages are v1 by default
 * (what Spark writes) or v2; a page ends at a row boundary once it holds about page_bytes of
 * values or exactly page_rows rows.
 *
 * Statistics. Each column chunk records null_count and, when it holds a value that is not NaN,
 * min_value/max_value in the leaf's TYPE_ORDER: signed for every integer and decimal (decimals
 * compare by unscaled value and are stored in the physical type's bytes), byte-wise unsigned
 * for strings and binary. Byte arrays longer than stats_max_bytes are cut: the min to a prefix,
 * the max to a prefix whose last byte (strings: code point) that can be incremented is
 * incremented; is_min/max_value_exact say whether the bound is a value of the column. NaN is
 * never a bound (a chunk of only NaN has none); a zero min is written as -0.0 and a zero max
 * as +0.0 (parquet.thrift, ColumnOrder). Signed physical types also get the deprecated min/max.
 * ColumnIndex and OffsetIndex are written for every chunk (a chunk with a page of only NaN, or
 * a page whose cut max has no upper bound, gets no ColumnIndex, as in parquet-mr).
 *
 * Bloom filters. For the columns named in bloom_filter_columns, every column chunk gets a
 * split block Bloom filter of its values' xxHash64 (BloomFilter.md), written after the row
 * groups and before the page indexes, at the chunk's bloom_filter_offset/length. Each chunk's
 * filter is filled at bloom_filter_max_bytes, then folded to the smallest power of two that
 * holds the distinct values it counts (estimated from the bits set) at bloom_filter_fpp.
 *
 * Memory and layout. Rows are encoded as they arrive into the current row group's column
 * chunks, which are held in memory (compressed pages) and written to the store column by column
 * when the row group closes: at row_group_bytes of uncompressed data (estimated while
 * encoding), at row_group_rows rows, or on dl_pq_writer_flush. So the writer holds one row
 * group's compressed pages, the open pages, the dictionaries and the pages waiting for their
 * dictionary's verdict (at most a few times dict_page_bytes per column), never the file. With a
 * pool, up to DL_PQ_WRITE_WINDOW_ROWS rows of input are kept by reference (see
 * dl_pq_writer_write) and encoded column by column in parallel.
 *
 * Failure. The file is written through dl_store_writer_open: it becomes visible only when
 * dl_pq_writer_close succeeds. Any failure (out of memory, a store error, a value that cannot
 * be written) aborts the store writer at once, so no file and no temporary file is left, and
 * puts the writer in a failed state where only dl_pq_writer_abort is allowed (close refuses).
 *
 * Threads: a writer is used by one thread at a time; with a pool, its work runs on the pool's
 * threads while that thread waits.
 */
#ifndef DL_PQ_PQ_WRITER_H
#define DL_PQ_PQ_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/compiler.h"
#include "base/error.h"
#include "base/pool.h"
#include "base/str.h"
#include "parquet/codec/pq_codec.h"
#include "parquet/parquet.h"
#include "store/store.h"
#include "vector/vector.h"

/* Input rows buffered by reference before encoding when a pool is given. */
#define DL_PQ_WRITE_WINDOW_ROWS 65536

typedef struct dl_pq_writer dl_pq_writer;

typedef struct dl_pq_write_options {
    int32_t codec;              /* dl_pq_codec: UNCOMPRESSED, SNAPPY (default), GZIP, ZSTD, LZ4_RAW,
                                   LZ4 (Hadoop framing) or BROTLI */
    int codec_level;            /* DL_PQ_CODEC_LEVEL_DEFAULT or the codec's own scale */
    int64_t row_group_bytes;    /* close a row group at this much uncompressed data; 128 MiB */
    int64_t row_group_rows;     /* ... or at this many rows; 0 = no row limit (default) */
    size_t page_bytes;          /* end a data page at about this much encoded data; 1 MiB */
    int64_t page_rows;          /* ... or once it holds this many rows; 20,000 (parquet-mr) */
    size_t dict_page_bytes;     /* fall back to PLAIN when the dictionary exceeds this; 1 MiB */
    bool is_dictionary_enabled; /* dictionary-encode columns (default true) */
    bool is_delta_enabled;      /* DELTA_* encodings for non-dictionary pages where smaller */
    int page_version;           /* 1 (default) or 2: DataPage or DataPageV2 */
    bool is_page_index_enabled; /* write ColumnIndex and OffsetIndex (default true) */
    bool is_crc_enabled;        /* write each page's CRC-32 (default false) */
    size_t stats_max_bytes;     /* byte-array statistics longer than this are cut; 64 */
    /* Key-value metadata for the footer (copied at open). */
    const dl_pq_key_value *key_value;
    size_t n_key_value;
    /* Field ids (Delta column mapping), or NULL: one per schema field, in the order of
     * dl_pq_write_field_count (a negative id writes none). Copied at open. */
    const int32_t *field_ids;
    size_t n_field_ids;
    /* Threads to encode columns in parallel, or NULL to encode on the calling thread. Must
     * outlive the writer. */
    dl_pool *pool;
    /* Bloom filters (split block, xxHash; see "Bloom filters" above) for these leaf columns,
     * named by their dotted Parquet path as dl_pq_leaf_stats.path gives it ("id",
     * "tags.list.element"); not for BOOLEAN or void columns. Copied at open. */
    const char *const *bloom_filter_columns;
    size_t n_bloom_filter_columns;
    double bloom_filter_fpp;       /* false-positive probability wanted; 0 = 0.01 */
    size_t bloom_filter_max_bytes; /* largest filter per column chunk; 0 = 1 MiB */
} dl_pq_write_options;

/* Fills opts with the defaults above. */
void dl_pq_write_options_init(dl_pq_write_options *opts);

/*
 * The number of schema fields that take a field id, in the order field_ids lists them: a
 * depth-first walk of schema where every struct field counts, then what is inside it; an
 * array's element and a map's key and value count as fields too (the `element`, `key` and
 * `value` schema elements). The root struct itself does not count.
 */
size_t dl_pq_write_field_count(const dl_type *schema);

/* A typed statistics value; the member used depends on the leaf's logical type. */
typedef struct dl_pq_stat_value {
    bool b;       /* BOOLEAN */
    int64_t i64;  /* BYTE, SHORT, INT, LONG, DATE (days), TIMESTAMP, TIMESTAMP_NTZ (micros) */
    double f64;   /* FLOAT, DOUBLE */
    dl_i128 i128; /* DECIMAL: the unscaled value */
    dl_str bytes; /* STRING, BINARY: possibly cut (see is_min_exact / is_max_exact) */
} dl_pq_stat_value;

/* What the file holds for one leaf column, over all row groups. */
typedef struct dl_pq_leaf_stats {
    const char *path;        /* the Parquet dotted path: "a.b", "tags.list.element" */
    const char **field_path; /* the field names from the root: {"a", "b"}; an array element,
                                map key or value adds "element", "key" or "value" */
    size_t n_field_path;
    const dl_type *type;   /* the leaf's logical type (from the writer's schema) */
    bool is_repeated;      /* inside an array or map (Delta keeps no stats for these) */
    int64_t null_count;    /* entries without a value: nulls at any level, empty lists */
    int64_t nan_count;     /* FLOAT/DOUBLE: NaN values */
    bool has_min, has_max; /* false when the column has no non-null, non-NaN value */
    bool is_min_exact, is_max_exact;
    dl_pq_stat_value min, max;
} dl_pq_leaf_stats;

/* What dl_pq_writer_close reports: everything a Delta `add` action needs. */
typedef struct dl_pq_write_result {
    int64_t file_size;        /* bytes of the file */
    int64_t num_rows;         /* rows written */
    int64_t n_row_groups;     /* row groups written */
    dl_pq_leaf_stats *leaves; /* one per leaf column, in column order */
    size_t n_leaves;
} dl_pq_write_result;

/*
 * Starts writing path in store (mode as for dl_store_writer_open) with the columns of schema,
 * a STRUCT type that must outlive the writer. opts may be NULL for the defaults; alloc may be
 * NULL (libc). Fails with INVALID_ARG for bad options (unknown codec, level out of range,
 * field_ids of the wrong count, a zero-size limit, a Bloom filter column that is not a leaf
 * path of the schema or is BOOLEAN or void, an fpp outside (0, 1)), UNSUPPORTED for a schema
 * Parquet cannot hold (a schema without leaves, deeper than DL_PQ_MAX_SCHEMA_DEPTH), and what the
 * store reports. On failure nothing is left in the store.
 */
DL_NODISCARD dl_status dl_pq_writer_open(dl_store *store, const char *path, dl_store_put_mode mode,
                                         const dl_type *schema, const dl_pq_write_options *opts,
                                         const dl_allocator *alloc, dl_pq_writer **out,
                                         dl_error *err);

/*
 * Appends the batch's live rows (its selection, if any). The batch's schema must equal the
 * writer's (dl_vec_type_equal; SCHEMA otherwise); columns may have any layout. Rows are
 * encoded before the call returns unless the writer has a pool, in which case it may keep
 * references to the batch's column vectors (and a copy of its selection) until
 * DL_PQ_WRITE_WINDOW_ROWS rows are pending or the next flush or close: the caller must not
 * change those vectors in place meanwhile (dl_vec_batch_reset and building new vectors are
 * fine: they replace shared vectors).
 * Errors: SCHEMA; CONSTRAINT when a non-nullable field (or array element, map key or value
 * declared without nulls) holds a null; INVALID_ARG when a decimal does not fit its precision
 * or a string is longer than 2 GiB; NOMEM; store errors. Any error aborts the file.
 */
DL_NODISCARD dl_status dl_pq_writer_write(dl_pq_writer *writer, const dl_batch *batch,
                                          dl_error *err);

/* Ends the current row group (written even when it has no rows: an empty row group). */
DL_NODISCARD dl_status dl_pq_writer_flush(dl_pq_writer *writer, dl_error *err);

/* Bytes written to the store so far plus an estimate of the buffered row group after
 * compression: what the file would be if closed now, give or take the footer (for rolling
 * files at a target size). */
int64_t dl_pq_writer_size(const dl_pq_writer *writer);

/* Rows written so far (buffered ones included). */
int64_t dl_pq_writer_num_rows(const dl_pq_writer *writer);

/*
 * Writes the last row group (when it has rows), the page indexes and the footer, commits the
 * file and frees the writer, on success and failure alike. out (may be NULL) receives the
 * result, allocated in arena (required when out is given). Fails on a writer that failed
 * before (INVALID_ARG; the file was already aborted), and with what finishing the file or
 * the store's commit reports (EXISTS for DL_STORE_PUT_IF_ABSENT when the path exists).
 */
DL_NODISCARD dl_status dl_pq_writer_close(dl_pq_writer *writer, dl_arena *arena,
                                          dl_pq_write_result *out, dl_error *err);

/* Discards the file (nothing is left in the store) and frees the writer. NULL-tolerant. */
void dl_pq_writer_abort(dl_pq_writer *writer);

/* The created_by string the writer puts in the footer:
 * "deltalite version <x.y.z> (build <hash or none>)". */
const char *dl_pq_writer_created_by(void);

#endif /* DL_PQ_PQ_WRITER_H */
