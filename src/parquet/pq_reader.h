/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Parquet reader: column data of a Parquet file decoded into deltalite's vectors.
 *
 * Three objects, from the file to the rows:
 *
 *   dl_pq_file     an open file (through a dl_store, or a memory buffer): its validated footer
 *                  (parquet.h) and the tree of its fields as deltalite types (dl_pq_field).
 *                  Immutable once open, so several readers on several threads may share it.
 *   dl_pq_field    one node of that tree: a top-level column, a struct field, a list element,
 *                  a map key or value, with its dl_type, nullability and Parquet field_id.
 *   dl_pq_reader   a cursor over chosen fields and row groups that fills batches of up to
 *                  DL_BATCH_CAPACITY rows. One thread at a time.
 *
 * Type mapping (physical + logical/converted type -> dl_type), as Spark and DuckDB read them:
 *
 *   BOOLEAN                          boolean
 *   INT32                            int; INTEGER(8, signed) tinyint, (16, signed) smallint,
 *                                    (8, unsigned) smallint, (16, unsigned) int,
 *                                    (32, unsigned) bigint (unsigned values widen losslessly)
 *   INT32 DATE                       date
 *   INT32 TIME(MILLIS)               bigint: microseconds since midnight (Delta has no TIME)
 *   INT64                            bigint; INTEGER(64, unsigned) decimal(20,0), lossless
 *   INT64 TIMESTAMP(unit, utc)       timestamp when adjusted to UTC, else timestamp_ntz;
 *                                    millis and nanos are converted to micros (nanos floored)
 *   INT64 TIME(MICROS|NANOS)         bigint: microseconds since midnight
 *   INT96                            timestamp (Spark's and Impala's legacy nanosecond form)
 *   FLOAT / DOUBLE                   float / double
 *   BYTE_ARRAY                       binary; STRING, ENUM, JSON: string; BSON: binary
 *   FIXED_LEN_BYTE_ARRAY             binary; FLOAT16: float; UUID: string in the canonical
 *                                    8-4-4-4-12 form (as DuckDB reads it)
 *   DECIMAL(p, s) on INT32, INT64,   decimal(p, s), always 128-bit in vectors; p > 38 is
 *   BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY UNSUPPORTED
 *   GEOMETRY, GEOGRAPHY              binary (the WKB bytes)
 *   UNKNOWN (always null)            void
 *   VARIANT groups                   struct<metadata binary, value binary, ...>: the raw
 *                                    encoding (VariantEncoding.md), decoded by the caller
 *   groups                           struct; LIST (3-level, legacy 2-level) array; MAP and
 *                                    MAP_KEY_VALUE map (a map without a value column reads
 *                                    as array<key>); an unannotated repeated field is an
 *                                    array of non-null elements
 *
 * Anything else (INTERVAL, TIME on the wrong physical type, ...) gives a field whose
 * type is NULL and whose `unsupported` says why; reading it is DL_ERR_UNSUPPORTED naming the
 * column and the type. A file can still be opened and its other columns read.
 *
 * What a batch holds: one column per chosen top-level field (the schema is a STRUCT built from
 * them, with nested types pruned to the chosen sub-fields). Flat columns are FLAT vectors,
 * except that flat STRING/BINARY columns whose pages are dictionary-encoded come out as DICT
 * vectors over the chunk's dictionary (decoded once per column chunk) unless
 * dl_pq_read_options.is_dict_flattened. Strings point into the decompressed pages (or the
 * file buffer when a page is stored uncompressed) rather than being copied: the vectors hold
 * references to those buffers, so batches outlive the reader, and with a memory file, the
 * memory must outlive every batch read from it.
 *
 * Batches never span row groups; within a row group they may span any number of pages.
 *
 * Errors name the file, row group, column and page: "'part-0.parquet': row group 2, column
 * 'a.list.element', page 3 at offset 51234: RLE run of 4096 exceeds the 200 values left".
 */
#ifndef DL_PQ_PQ_READER_H
#define DL_PQ_PQ_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/error.h"
#include "base/pool.h"
#include "parquet/parquet.h"
#include "store/store.h"
#include "vector/vector.h"

/* ---- Files ------------------------------------------------------------------------------- */

typedef struct dl_pq_file dl_pq_file;
typedef struct dl_pq_field dl_pq_field;

/* What kind of vector a field becomes. */
typedef enum dl_pq_field_kind {
    DL_PQ_FIELD_LEAF = 0,   /* a primitive column */
    DL_PQ_FIELD_STRUCT = 1, /* a group */
    DL_PQ_FIELD_LIST = 2,   /* an array: one child, the element */
    DL_PQ_FIELD_MAP = 3,    /* a map: two children, key and value */
} dl_pq_field_kind;

/*
 * One field of a file, as deltalite reads it. The tree mirrors the Parquet schema with the
 * list and map wrapper levels folded away: a list field's child is its element (named
 * "element"), a map field's children its key and value ("key", "value").
 */
struct dl_pq_field {
    const char *name;              /* the Parquet name (top level and struct fields) */
    dl_pq_field_kind kind;         /* what vector it becomes */
    const dl_type *type;           /* the vector type; NULL when unsupported */
    const char *unsupported;       /* why the type is NULL (a sentence), else NULL */
    const dl_pq_schema_node *node; /* the Parquet node: the leaf, group, LIST or MAP group */
    const dl_pq_field *parent;     /* NULL for the root */
    dl_pq_field **children;        /* struct fields in file order; [element]; [key, value] */
    size_t n_children;
    int32_t field_id;  /* Parquet field_id of node (Delta column mapping 'id' mode) */
    bool has_field_id; /* node has a field_id */
    bool is_nullable;  /* the field may be null */

    /* The reader's plan, computed once (Dremel levels; see pq_assemble.c). */
    int16_t def_ctx;   /* a slot of this field exists at entries with def >= def_ctx ... */
    int16_t rep_ctx;   /* ... and rep <= rep_ctx */
    int16_t def_valid; /* the slot is non-null when def >= def_valid */
    int32_t conv;      /* leaves: how physical values convert (pq_reader_int.h) */
};

/*
 * Opens path in store: reads the tail (64 KiB, more when the footer is larger), parses and
 * validates the footer (dl_pq_footer_parse) and builds the field tree. The file stays open
 * for ranged reads until dl_pq_file_free. Errors: those of the store (NOT_FOUND, IO), CORRUPT
 * (not Parquet, a bad footer), UNSUPPORTED (modular encryption), NOMEM; each message starts
 * with the path.
 */
DL_NODISCARD dl_status dl_pq_file_open(dl_store *store, const char *path, const dl_allocator *alloc,
                                       dl_pq_file **out, dl_error *err);

/*
 * As dl_pq_file_open for a file already in memory: data[0, len) is borrowed, not copied, and
 * must stay valid and unchanged until the file and every vector read from it are released
 * (uncompressed pages are referenced in place). name is used in messages (copied).
 */
DL_NODISCARD dl_status dl_pq_file_open_memory(const void *data, size_t len, const char *name,
                                              const dl_allocator *alloc, dl_pq_file **out,
                                              dl_error *err);

/* Closes the file and frees its footer and fields. Readers must be freed first; batches
 * may live on. NULL-tolerant. */
void dl_pq_file_free(dl_pq_file *file);

/* The validated footer: metadata, schema tree, writer. Valid while the file is open. */
const dl_pq_footer *dl_pq_file_footer(const dl_pq_file *file);

/* The name given at open (the store path, or the memory file's name). */
const char *dl_pq_file_name(const dl_pq_file *file);

/* The root of the field tree (a STRUCT field named "" whose children are the top-level
 * columns). Its type is NULL when any column is unsupported. Valid while the file is open. */
const dl_pq_field *dl_pq_file_root(const dl_pq_file *file);

/* Number of rows in the file (sum over row groups). */
int64_t dl_pq_file_num_rows(const dl_pq_file *file);

/*
 * The field at names[0..n_names) from the root (e.g. {"a", "element", "b"}), or NULL.
 * Names compare exactly, except that case_insensitive compares ASCII letters without case
 * (Spark's default resolution).
 */
const dl_pq_field *dl_pq_field_find(const dl_pq_field *root, const char *const *names,
                                    size_t n_names, bool case_insensitive);

/* The child of parent whose Parquet field_id is field_id, or NULL. */
const dl_pq_field *dl_pq_field_find_id(const dl_pq_field *parent, int32_t field_id);

/* ---- Filters (row groups and pages) ------------------------------------------------------- */

/* A constant compared with a column's values, in the column's vector domain (TIMESTAMP in
 * micros, DATE in days, DECIMAL as the unscaled value at `scale`). */
typedef enum dl_pq_scalar_kind {
    DL_PQ_SCALAR_BOOL = 0,
    DL_PQ_SCALAR_INT = 1,     /* any integer type, date, timestamp */
    DL_PQ_SCALAR_DOUBLE = 2,  /* float, double */
    DL_PQ_SCALAR_DECIMAL = 3, /* unscaled value and scale */
    DL_PQ_SCALAR_BYTES = 4,   /* string, binary: compared byte-wise, unsigned */
} dl_pq_scalar_kind;

typedef struct dl_pq_scalar {
    dl_pq_scalar_kind kind;
    bool b;
    int64_t i;
    double f;
    dl_i128 d;
    int32_t scale; /* DECIMAL */
    dl_str s;      /* BYTES (borrowed) */
} dl_pq_scalar;

typedef enum dl_pq_filter_op {
    DL_PQ_FILTER_EQ = 0,
    DL_PQ_FILTER_LT = 1,
    DL_PQ_FILTER_LE = 2,
    DL_PQ_FILTER_GT = 3,
    DL_PQ_FILTER_GE = 4,
    DL_PQ_FILTER_IN = 5, /* equal to one of values */
    DL_PQ_FILTER_IS_NULL = 6,
    DL_PQ_FILTER_IS_NOT_NULL = 7,
    DL_PQ_FILTER_AND = 8,
    DL_PQ_FILTER_OR = 9,
} dl_pq_filter_op;

/*
 * A predicate over leaf columns, for skipping row groups and pages: `column op value`,
 * `column IN (values)`, `column IS [NOT] NULL`, and AND/OR of those (children). Comparisons
 * follow SQL: a null never matches them. Floating-point comparisons are IEEE 754's: NaN matches
 * none, since statistics leave NaN out of their bounds (a caller that orders NaN above every
 * number, as Spark does, must not push `>`/`>=` on a FLOAT/DOUBLE column that may hold NaN).
 * Integers annotated unsigned are compared by their unsigned value, as the statistics order
 * them. column is a LEAF field of the file; nested leaves (inside lists) are accepted and
 * judged on the whole column chunk (or page): a row may match when any of its values may.
 */
typedef struct dl_pq_filter dl_pq_filter;

struct dl_pq_filter {
    dl_pq_filter_op op;
    const dl_pq_field *column;    /* comparisons, IN, IS [NOT] NULL */
    const dl_pq_scalar *values;   /* 1 for comparisons, n_values for IN */
    size_t n_values;              /* IN: may be 0 (matches nothing) */
    const dl_pq_filter *children; /* AND, OR */
    size_t n_children;
};

/*
 * False when the statistics of row group rg prove that no row can satisfy filter (the row
 * group can be skipped); true when some row may. Statistics that dl_pq_stats_usable refuses,
 * constants of a kind the column cannot be compared with, and unsupported columns give true.
 */
bool dl_pq_filter_may_match(const dl_pq_file *file, const dl_pq_filter *filter, size_t rg);

/* ---- Readers ----------------------------------------------------------------------------- */

typedef struct dl_pq_reader dl_pq_reader;

/*
 * Buffer reuse. Decompressed pages and fetched column chunks live in buffers of megabytes; a
 * fresh one for every page or chunk costs a page fault per 4 KiB on first touch, which is most
 * of a scan's time. A scratch keeps buffers that readers are done with (up to 32 of them and
 * DL_PQ_SCRATCH_MAX_BYTES in all) and hands them to the next page, chunk or reader. A buffer a
 * batch still references (zero-copy views, strings) is kept too and reused once the batch lets
 * it go. Each reader has a private scratch unless dl_pq_read_options.scratch names a shared
 * one: give one per thread to readers that run one after another on it (a scan's work units),
 * so that memory carries over from reader to reader. A scratch is safe to use from several
 * threads (a mutex), but is meant for one. It must outlive the readers that use it; batches
 * may outlive it (they hold their own references).
 */
typedef struct dl_pq_scratch dl_pq_scratch;

#define DL_PQ_SCRATCH_MAX_BYTES ((size_t)256 << 20)

/* A new, empty scratch. NOMEM. */
DL_NODISCARD dl_status dl_pq_scratch_new(const dl_allocator *alloc, dl_pq_scratch **out,
                                         dl_error *err);

/* Drops the scratch's references to its buffers and frees it. NULL-tolerant. */
void dl_pq_scratch_free(dl_pq_scratch *scratch);

/* Bytes of the buffers the scratch holds now (for tests and statistics). */
size_t dl_pq_scratch_bytes(const dl_pq_scratch *scratch);

/* Defaults of the limits below. */
#define DL_PQ_DEFAULT_MAX_PAGE_SIZE    ((size_t)INT32_MAX) /* what Parquet allows (2 GiB - 1) */
#define DL_PQ_DEFAULT_MAX_BATCH_VALUES ((int64_t)1 << 26)  /* 64 Mi leaf values per batch */

typedef struct dl_pq_read_options {
    const dl_allocator *alloc; /* vectors and reader state; NULL = the file's */
    /* The fields to read, any node of the file's tree (a field reads its whole subtree; several
     * fields under one top-level column read it pruned to them). NULL = every top-level
     * column; non-NULL with n_columns 0 = no columns (batches carry only a row count). */
    const dl_pq_field *const *columns;
    size_t n_columns;
    const int32_t *row_groups; /* the row groups to read, in this order; NULL = all */
    size_t n_row_groups;
    /* Row groups the filter rules out are skipped, and in the rest, pages (and their rows)
     * that the page index rules out: see "Page skipping" below. NULL = none. */
    const dl_pq_filter *filter;
    int32_t batch_rows;       /* rows per batch, 1..DL_BATCH_CAPACITY; 0 = the capacity */
    bool is_dict_flattened;   /* dictionary-encoded strings as FLAT vectors too */
    bool is_crc_skipped;      /* do not verify page CRCs */
    bool is_utf8_unchecked;   /* do not check that STRING values are valid UTF-8 */
    size_t max_page_size;     /* LIMIT beyond this many decompressed bytes per page; 0 = default */
    int64_t max_batch_values; /* LIMIT beyond this many leaf values in a batch; 0 = default */
    /* When set, the column chunks of each row group are fetched and their first pages
     * decompressed in parallel on this pool (one task per column) as the row group starts. */
    dl_pool *pool;
    bool is_page_index_ignored;   /* do not skip pages through the page index */
    bool is_bloom_filter_ignored; /* do not skip row groups through Bloom filters */
    dl_pq_scratch *scratch;       /* buffers to reuse (see above); NULL = the reader's own */
} dl_pq_read_options;

/*
 * Page skipping. With a filter, a row group that its statistics do not rule out is judged page
 * by page on the page index (ColumnIndex and OffsetIndex) of the filter's leaves, where the
 * file has one: the reader then reads only the rows of the pages that may match (a superset
 * of the matching rows: the caller still applies the filter), and of each chosen column only
 * the pages that hold those rows (the dictionary page is always read). Such a row group's rows
 * come in batches of consecutive rows that never span a gap, so dl_pq_reader_batch_first_row
 * + i is the file row of batch row i (what deletion vectors need); the rows skipped are
 * counted in dl_pq_reader_stats. A page index that is missing, undecodable or inconsistent
 * with its column chunk is ignored (the column is read in full); pages that turn out not to
 * be where the index says, or to hold other row counts, are CORRUPT.
 *
 * Bloom filters. Before the page index, `=` and IN leaves of the filter are checked against
 * the column chunks' Bloom filters where the file has them (split block, xxHash): a row group
 * whose filters hold none of the constants is skipped. Constants are hashed in the column's
 * physical form, so only those that convert exactly are checked (integers, dates, timestamps
 * in micros or millis, floats, decimals on INT32/INT64/FIXED_LEN_BYTE_ARRAY, strings and
 * binaries).
 */

/*
 * A reader of opts->columns (or every column) over the chosen row groups of file. opts may be
 * NULL for the defaults. Errors: UNSUPPORTED when a chosen field has no type (naming it and
 * the Parquet type), INVALID_ARG for a field of another file, a row group out of range or a
 * bad batch size, NOMEM. The file must outlive the reader.
 */
DL_NODISCARD dl_status dl_pq_reader_new(dl_pq_file *file, const dl_pq_read_options *opts,
                                        dl_pq_reader **out, dl_error *err);

/* Frees the reader. Batches already read stay valid. NULL-tolerant. */
void dl_pq_reader_free(dl_pq_reader *reader);

/* The STRUCT type of the batches: one field per chosen top-level column. Lives as long as
 * the reader; make the batch with dl_vec_batch_new(alloc, schema, 0, ...). */
const dl_type *dl_pq_reader_schema(const dl_pq_reader *reader);

/*
 * Reads the next batch into batch (made for dl_pq_reader_schema): its columns are reset and
 * filled, and batch->count set; 0 rows means the end. Row groups that the filter rules out,
 * and empty ones, are passed over. After an error the reader is finished (further calls
 * fail with the same status). Errors: CORRUPT (bad pages, levels or values), UNSUPPORTED
 * (an encoding or codec we lack), LIMIT (a page or a batch beyond the limits), IO, NOMEM.
 */
DL_NODISCARD dl_status dl_pq_reader_next(dl_pq_reader *reader, dl_batch *batch, dl_error *err);

/* What the reader has done so far. */
typedef struct dl_pq_reader_stats {
    int64_t rows;               /* rows returned */
    int64_t row_groups_read;    /* row groups decoded (at least in part) */
    int64_t row_groups_skipped; /* row groups the filter ruled out (statistics, Bloom filters or
                                   the page index) */
    int64_t row_groups_bloom_skipped; /* of those, ruled out by Bloom filters */
    int64_t pages;                    /* data pages decoded */
    int64_t dict_pages;               /* dictionary pages decoded */
    int64_t bytes_read;               /* bytes read from the file */
    int64_t pages_skipped;            /* data pages of row groups read in part that were not read */
    int64_t rows_skipped;             /* rows of row groups read in part that were not returned */
} dl_pq_reader_stats;

void dl_pq_reader_get_stats(const dl_pq_reader *reader, dl_pq_reader_stats *out);

/* The row group the last batch came from, and the file row of its first row (its rows are
 * consecutive file rows, also when pages are skipped); -1 before the first batch. */
int32_t dl_pq_reader_row_group(const dl_pq_reader *reader);
int64_t dl_pq_reader_batch_first_row(const dl_pq_reader *reader);

/* ---- Parallel scans ------------------------------------------------------------------------ */

/* Receives one batch of a parallel scan on a pool thread. slot (0..n_slots-1) is private to
 * the calling task while it runs, for per-thread state. The batch is reused after return. */
typedef dl_status (*dl_pq_scan_fn)(void *ctx, int slot, const dl_batch *batch, dl_error *err);

/*
 * Reads the chosen row groups in parallel on pool: one task per row group, each with its own
 * reader (opts->row_groups selects them as for a reader, filter included), calling fn for each
 * batch. At most n_slots tasks run at once (n_slots >= 1; 0 = pool workers + 1). Returns the
 * first error of any task. pool may be NULL: the row groups are read in order on this thread.
 */
DL_NODISCARD dl_status dl_pq_file_scan(dl_pq_file *file, const dl_pq_read_options *opts,
                                       dl_pool *pool, int n_slots, dl_pq_scan_fn fn, void *ctx,
                                       dl_error *err);

#endif /* DL_PQ_PQ_READER_H */
