/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private interface of the Parquet reader (pq_reader.h): the file object, the conversion of
 * physical values to vector values, the leaf column reader (pq_column.c over the pages of
 * pq_page.c), the plan tree a reader builds from the chosen fields, and the assembly of
 * nested vectors from levels (pq_assemble.c).
 */
#ifndef DL_PQ_PQ_READER_INT_H
#define DL_PQ_PQ_READER_INT_H

#include "base/arena.h"
#include "parquet/codec/pq_codec.h"
#include "parquet/encoding/pq_encoding.h"
#include "parquet/pq_reader.h"

/* ---- Files ------------------------------------------------------------------------------- */

struct dl_pq_file {
    const dl_allocator *alloc;
    dl_arena arena;           /* footer, fields, name */
    const char *name;         /* for messages */
    dl_store_file *source;    /* store file, or NULL for memory */
    dl_vec_buffer *mem;       /* memory file: the borrowed bytes, wrapped (no release) */
    dl_pq_footer *footer;     /* validated */
    dl_pq_field *root;        /* the field tree */
    dl_pq_field **leaf_field; /* per leaf column: its LEAF field */
    int64_t num_rows;
};

/*
 * Bytes [offset, offset + len) of the file as a buffer reference: *out_buf (one reference,
 * the caller's) holds them at (*out_buf)->data + *out_pos. A memory file hands out its own
 * buffer (no copy); a store file reads into *reuse when it is unique and large enough (taking
 * it: *reuse becomes NULL), else into a new buffer. Assumes: the range is in the file.
 */
DL_NODISCARD dl_status dl_pq_file_fetch(dl_pq_file *file, const dl_allocator *alloc, int64_t offset,
                                        size_t len, dl_vec_buffer **reuse, dl_vec_buffer **out_buf,
                                        size_t *out_pos, dl_error *err);

/* Builds file->root from the footer's schema (pq_reader_types.c). */
DL_NODISCARD dl_status dl_pq_fields_build(dl_pq_file *file, dl_error *err);

/* ---- Value conversions ---------------------------------------------------------------------- */

/* How one leaf's physical values become vector values (dl_pq_field.conv). */
typedef enum dl_pq_conv {
    DL_PQ_CONV_VOID = 0,  /* UNKNOWN logical type: every value null, values ignored */
    DL_PQ_CONV_BOOL,      /* BOOLEAN -> boolean bits */
    DL_PQ_CONV_I32,       /* INT32 -> int, date */
    DL_PQ_CONV_I32_I8,    /* INT32 -> tinyint */
    DL_PQ_CONV_I32_I16,   /* INT32 -> smallint (INT_16, and UINT_8 widened) */
    DL_PQ_CONV_U16_I32,   /* INT32 (UINT_16) -> int */
    DL_PQ_CONV_U32_I64,   /* INT32 (UINT_32) -> bigint */
    DL_PQ_CONV_I32_MS_US, /* INT32 TIME(MILLIS) -> bigint micros */
    DL_PQ_CONV_I32_DEC,   /* INT32 DECIMAL -> decimal128 */
    DL_PQ_CONV_I64,       /* INT64 -> bigint, timestamp micros */
    DL_PQ_CONV_I64_MS_US, /* INT64 millis -> micros */
    DL_PQ_CONV_I64_NS_US, /* INT64 nanos -> micros, floored */
    DL_PQ_CONV_I64_DEC,   /* INT64 DECIMAL -> decimal128 */
    DL_PQ_CONV_U64_DEC,   /* INT64 (UINT_64) -> decimal(20,0) */
    DL_PQ_CONV_INT96,     /* INT96 -> timestamp micros */
    DL_PQ_CONV_F32,       /* FLOAT -> float */
    DL_PQ_CONV_F64,       /* DOUBLE -> double */
    DL_PQ_CONV_BA_STR,    /* BYTE_ARRAY -> string (UTF-8 checked) */
    DL_PQ_CONV_BA_BIN,    /* BYTE_ARRAY -> binary */
    DL_PQ_CONV_BA_DEC,    /* BYTE_ARRAY DECIMAL -> decimal128 */
    DL_PQ_CONV_FLBA_BIN,  /* FIXED_LEN_BYTE_ARRAY -> binary */
    DL_PQ_CONV_FLBA_DEC,  /* FIXED_LEN_BYTE_ARRAY DECIMAL -> decimal128 */
    DL_PQ_CONV_FLBA_F16,  /* FIXED_LEN_BYTE_ARRAY(2) FLOAT16 -> float */
    DL_PQ_CONV_FLBA_UUID, /* FIXED_LEN_BYTE_ARRAY(16) UUID -> string */
} dl_pq_conv;

/* Physical values of one chunk of a page, before conversion. */
typedef struct dl_pq_phys {
    dl_pq_type type;     /* the leaf's physical type */
    const void *fixed;   /* BOOLEAN (bytes 0/1), INT32, INT64, INT96, FLOAT, DOUBLE */
    const dl_str *strs;  /* BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY */
    size_t n;            /* values */
    dl_vec_buffer *heap; /* the buffer strs point into when they are in a page (else NULL:
                            values outside it are copied) */
} dl_pq_phys;

/*
 * Appends phys's n values, converted by conv, to the FLAT vector out (room for n more must
 * have been reserved). Strings that lie inside phys->heap are referenced, others copied.
 * CORRUPT for invalid UTF-8 in a string column (unless utf8_unchecked), a decimal that does
 * not fit its precision, a FIXED_LEN_BYTE_ARRAY value of the wrong length; NOMEM.
 */
DL_NODISCARD dl_status dl_pq_conv_append(dl_pq_conv conv, const dl_type *type,
                                         const dl_pq_phys *phys, bool utf8_unchecked,
                                         dl_vector *out, dl_error *err);

/* Grows a FLAT or DICT vector so that n more elements fit (geometrically). */
DL_NODISCARD dl_status dl_pq_vec_room(dl_vector *vec, int64_t n, dl_error *err);

/* The index of heap among vec's heaps (STRING/BINARY), adding a reference when absent. */
DL_NODISCARD dl_status dl_pq_vec_heap(dl_vector *vec, dl_vec_buffer *heap, int32_t *out_index,
                                      dl_error *err);

/* The decimal128 value of a big-endian two's complement integer of len bytes. CORRUPT when
 * it does not fit 128 bits. */
DL_NODISCARD dl_status dl_pq_decimal_from_be(const uint8_t *bytes, size_t len, dl_i128 *out,
                                             dl_error *err);

/* ---- Pages ------------------------------------------------------------------------------- */

/* One page of a column chunk, read and decompressed. */
typedef struct dl_pq_page {
    dl_pq_page_header hdr;
    int64_t offset;        /* file offset of the page header */
    int32_t index;         /* 0-based position in the chunk (all page types) */
    const uint8_t *levels; /* v2: the uncompressed level bytes (rep then def); v1: NULL */
    size_t levels_len;
    const uint8_t *body; /* v1 and dictionary pages: the whole decompressed body; v2: the
                            (decompressed) values section */
    size_t body_len;
    dl_vec_buffer *heap; /* holds body (the chunk buffer or a decompression buffer) */
} dl_pq_page;

/* The pages of one column chunk: its bytes and where the next page starts. */
typedef struct dl_pq_chunk_pages {
    dl_pq_file *file;
    const dl_allocator *alloc;
    dl_pq_codec_ctx *codec;
    int32_t codec_id;
    dl_vec_buffer *chunk; /* the chunk's bytes (one reference) */
    const uint8_t *base;  /* chunk->data + the chunk's position in it */
    size_t len;           /* bytes of the chunk, padding included */
    size_t nominal_len;   /* total_compressed_size */
    size_t pos;           /* next page header */
    int64_t offset;       /* file offset of base[0] */
    int32_t next_index;   /* index of the next page */
    bool check_crc;
    size_t max_page_size;
    dl_vec_buffer *spare;       /* a decompression buffer no vector references, for reuse */
    dl_vec_buffer *chunk_spare; /* a chunk buffer no vector references, for the next chunk */
    dl_pq_scratch *scratch;     /* where buffers come from and go back to; NULL = none */
    int64_t bytes_read;
} dl_pq_chunk_pages;

/* dl_vec_buffer_new for page and chunk buffers: large ones are hinted to be backed by huge
 * pages (pq_page.c says why). */
DL_NODISCARD dl_status dl_pq_buffer_new(const dl_allocator *alloc, size_t n, dl_vec_buffer **out,
                                        dl_error *err);

/* A buffer of at least n bytes that nobody else holds, taken out of scratch (the smallest that
 * fits), or NULL when it has none. The caller owns the reference. */
dl_vec_buffer *dl_pq_scratch_take(dl_pq_scratch *scratch, size_t n);

/* Gives buf (one reference, the caller's) to scratch for reuse, or drops it when scratch is
 * NULL, the buffer is foreign memory, or the scratch is full of buffers nobody can take. */
void dl_pq_scratch_give(dl_pq_scratch *scratch, dl_vec_buffer *buf);

/* Fetches the bytes of chunk and prepares to iterate its pages. Spare buffers left by an
 * earlier chunk (pages must be zeroed before the first use) are reused. is_deferred fetches
 * nothing: the caller picks the bytes to read with dl_pq_pages_window (page skipping). */
DL_NODISCARD dl_status dl_pq_pages_open(dl_pq_chunk_pages *pages, dl_pq_file *file,
                                        const dl_allocator *alloc, dl_pq_codec_ctx *codec,
                                        const dl_pq_column_chunk *chunk, bool check_crc,
                                        size_t max_page_size, bool is_deferred, dl_error *err);

/* Makes [offset, offset + len) of the file (a run of whole pages of the chunk, found through
 * the OffsetIndex) the bytes pages are read from, the next header at offset. Pages already
 * handed out keep their own references. Assumes: the range lies in the file. */
DL_NODISCARD dl_status dl_pq_pages_window(dl_pq_chunk_pages *pages, int64_t offset, size_t len,
                                          dl_error *err);

/* Moves to the page header at file offset `offset` when it lies in the current window;
 * false (nothing moved) otherwise. */
bool dl_pq_pages_seek(dl_pq_chunk_pages *pages, int64_t offset);

/* Releases the chunk, keeping buffers nobody else holds as spares for the next chunk. */
void dl_pq_pages_close(dl_pq_chunk_pages *pages);

/* Frees the spare buffers. */
void dl_pq_pages_free_spares(dl_pq_chunk_pages *pages);

/* True when another page header follows. */
bool dl_pq_pages_has_next(const dl_pq_chunk_pages *pages);

/*
 * Reads the next page: header, CRC check, decompression. page->heap is a reference the caller
 * releases with dl_pq_page_release (or keeps). INDEX pages and pages of unknown types come
 * back too (with body NULL), for the caller to skip.
 */
DL_NODISCARD dl_status dl_pq_pages_next(dl_pq_chunk_pages *pages, dl_pq_page *page, dl_error *err);

/* Drops the page's buffer reference, keeping the buffer for reuse when no one else holds it. */
void dl_pq_page_release(dl_pq_chunk_pages *pages, dl_pq_page *page);

/* ---- Page skipping (pq_reader_index.c) -------------------------------------------------- */

/* Rows [start, end) of a row group. */
typedef struct dl_pq_row_range {
    int64_t start;
    int64_t end;
} dl_pq_row_range;

/*
 * Which data pages of a column chunk a reader reads, from the chunk's OffsetIndex (validated:
 * pages in file order inside the chunk, the first at the chunk's data_page_offset, first rows
 * rising from 0 below the row group's row count): a page is needed when its rows
 * [locs[i].first_row_index, next page's first row or num_rows) meet the rows to read.
 */
typedef struct dl_pq_page_plan {
    const dl_pq_page_location *locs;
    const uint8_t *needed; /* per page, 1 = read it */
    size_t n_pages;
    size_t n_needed;
    int64_t num_rows; /* of the row group */
} dl_pq_page_plan;

/* The rows of page i of plan: [locs[i].first_row_index, return value). */
int64_t dl_pq_page_plan_end(const dl_pq_page_plan *plan, size_t i);

/* The page indexes (ColumnIndex, OffsetIndex) of one row group's column chunks, loaded on
 * first use into arena (which the caller resets between row groups). */
typedef struct dl_pq_rg_index {
    dl_pq_file *file;
    const dl_allocator *alloc;
    dl_arena *arena;
    int32_t rg;
    int64_t num_rows;
    struct dl_pq_leaf_index *leaves; /* per leaf column, NULL until the first use */
    int64_t bytes_read;
} dl_pq_rg_index;

/* Prepares idx for row group rg; nothing is read yet. NOMEM. */
DL_NODISCARD dl_status dl_pq_rg_index_init(dl_pq_rg_index *idx, dl_pq_file *file,
                                           const dl_allocator *alloc, dl_arena *arena, int32_t rg,
                                           dl_error *err);

/*
 * The rows of the row group whose pages may satisfy filter, judged on the ColumnIndex and
 * OffsetIndex of the filter's leaves with the semantics of dl_pq_filter_may_match: sorted,
 * disjoint, non-empty ranges in idx->arena; *out_n 0 means no row can match. Leaves without
 * a usable page index (absent, undecodable, inconsistent: the index is an optimisation and is
 * then ignored) count as matching every row. Errors: IO reading the indexes, NOMEM.
 */
DL_NODISCARD dl_status dl_pq_rg_index_ranges(dl_pq_rg_index *idx, const dl_pq_filter *filter,
                                             dl_pq_row_range **out, size_t *out_n, dl_error *err);

/* The page plan of leaf column leaf_index for ranges[0, n), or *out NULL when its OffsetIndex
 * is absent or unusable (the column is then read page after page). IO, NOMEM. */
DL_NODISCARD dl_status dl_pq_rg_index_plan(dl_pq_rg_index *idx, int32_t leaf_index,
                                           const dl_pq_row_range *ranges, size_t n,
                                           const dl_pq_page_plan **out, dl_error *err);

/* The leaf index of leaf in file, or -1 when leaf is not one of its leaf columns. */
int32_t dl_pq_filter_leaf_index(const dl_pq_file *file, const dl_pq_field *leaf);

/* May page `page` of a ColumnIndex (one entry per page, checked) hold a value of leaf
 * predicate f (a comparison, IN or IS [NOT] NULL on a leaf of file)? */
bool dl_pq_filter_page_may_match(const dl_pq_file *file, const dl_pq_filter *f,
                                 const dl_pq_column_index *ci, size_t page);

/* The PLAIN encodings (what Bloom filters hash) a value of a leaf equal to a constant may
 * have: one, or two for a floating-point zero (+0.0 and -0.0). */
typedef struct dl_pq_plain_key {
    dl_str bytes[2]; /* into buf, or the constant's own bytes (BYTES) */
    size_t n;
    uint8_t buf[2][16];
} dl_pq_plain_key;

/* Fills out for constant c and leaf; false when c cannot be put in the leaf's physical form
 * exactly (another kind, a conversion that loses information, out of range): the caller must
 * then assume the value may be present. */
bool dl_pq_filter_plain_key(const dl_pq_field *leaf, const dl_pq_scalar *c, dl_pq_plain_key *out);

/* False when the Bloom filters of the row group's column chunks prove that no row satisfies
 * filter: `=` and IN on leaves with a filter, through AND and OR (anything else may match).
 * Filters that are missing, of an algorithm, hash or compression other than split block,
 * xxHash and none, or not inside the file, are ignored. Errors: IO, NOMEM. */
DL_NODISCARD dl_status dl_pq_rg_index_bloom_may_match(dl_pq_rg_index *idx,
                                                      const dl_pq_filter *filter, bool *out,
                                                      dl_error *err);

/* ---- Leaf column readers ----------------------------------------------------------------------
 */

/* Level decoder of one page section: RLE hybrid, deprecated BIT_PACKED, or absent. */
typedef struct dl_pq_level_dec {
    int kind; /* 0: all levels are `constant`, 1: RLE, 2: BIT_PACKED */
    uint16_t constant;
    dl_pq_rle_decoder rle;
    const uint8_t *bp_data;
    size_t bp_len;
    uint64_t bp_pos;
    unsigned bit_width;
    size_t page_offset;
} dl_pq_level_dec;

/* Value decoder of one data page. */
typedef struct dl_pq_value_dec {
    dl_pq_encoding encoding;
    bool is_dict;  /* dictionary indices */
    bool is_empty; /* an RLE section of no bytes: no value may be taken */
    dl_pq_plain_decoder plain;
    dl_pq_rle_decoder rle; /* RLE booleans, dictionary indices */
    dl_pq_delta_decoder delta;
    dl_pq_dlba_decoder dlba;
    dl_pq_dba_decoder dba;
    dl_pq_bss_decoder bss;
} dl_pq_value_dec;

/* Levels and values decoded for one batch by a leaf column reader. */
typedef struct dl_pq_col {
    const dl_pq_field *leaf;
    const dl_pq_schema_node *node;
    const dl_allocator *alloc;
    dl_pq_conv conv;
    const dl_type *type;
    dl_pq_codec_ctx codec; /* this column's decompression state (columns may run in parallel) */
    int16_t max_def;
    int16_t max_rep;
    bool may_dict; /* may produce DICT vectors (a flat STRING/BINARY column) */
    bool may_view; /* a top-level flat column whose vectors may point into pages */
    bool utf8_unchecked;
    int64_t max_values; /* per batch */

    /* The chunk. */
    int32_t rg;
    const dl_pq_column_chunk *chunk;
    dl_pq_chunk_pages pages;
    bool is_open;
    bool has_data_page;  /* a data page of the chunk was read */
    int64_t values_left; /* level entries of the chunk not yet decoded from pages */
    dl_vector *dict;     /* the chunk's dictionary, converted; NULL when none */

    /* The current data page. */
    dl_pq_page page;
    bool has_page;
    int64_t page_left; /* entries of the page not yet decoded */
    dl_pq_level_dec def_dec;
    dl_pq_level_dec rep_dec;
    dl_pq_value_dec val;
    uint64_t page_values_left; /* value decoder budget (entries with def == max_def) */
    dl_arena page_arena;       /* decoder tables of the page */
    dl_arena scratch_arena;    /* DELTA_BYTE_ARRAY values built for one call */

    /* Repeated columns: levels decoded ahead, not yet consumed. */
    uint16_t *la_def;
    uint16_t *la_rep;
    size_t la_pos;
    size_t la_len;

    /* The batch: entries' levels (def NULL when max_def == 0, rep NULL when max_rep == 0). */
    uint16_t *def;
    uint16_t *rep;
    int64_t n_levels;
    int64_t cap_levels;
    int64_t n_records;
    dl_vector *out; /* the leaf's vector: present values, densely */

    /* Scratch for one chunk of values. */
    void *scratch;
    size_t scratch_bytes;

    int64_t pages_read;
    int64_t dict_pages_read;

    /* Position and page skipping. */
    int64_t row;                 /* records of the chunk consumed (read or skipped) */
    const dl_pq_page_plan *plan; /* NULL: every page is read in turn */
    int32_t plan_page;           /* plan: OffsetIndex entry of the current data page, -1 */
    int32_t plan_next;           /* plan: the entry the next data page read must be */
    int64_t page_recs;           /* plan, repeated columns: records started in the page */
    bool is_discarding;          /* skipping records: levels and values are dropped */
} dl_pq_col;

/* Prepares an idle column reader for leaf. */
DL_NODISCARD dl_status dl_pq_col_init(dl_pq_col *col, const dl_pq_field *leaf,
                                      const dl_allocator *alloc, bool may_dict, bool utf8_unchecked,
                                      int64_t max_values, dl_error *err);

/* Releases everything the reader holds. */
void dl_pq_col_destroy(dl_pq_col *col);

/*
 * Starts reading the column chunk of row group rg: fetches its bytes and, when prefetch, loads
 * its first data page (and dictionary) too, so that a row group's chunks can be opened in
 * parallel. With a plan (which must outlive the chunk), only the dictionary region and the
 * runs of needed pages are fetched, when they are first needed; prefetch then moves to
 * first_row (dl_pq_col_seek).
 */
DL_NODISCARD dl_status dl_pq_col_open_chunk(dl_pq_col *col, dl_pq_file *file, int32_t rg,
                                            bool check_crc, size_t max_page_size, bool prefetch,
                                            const dl_pq_page_plan *plan, int64_t first_row,
                                            dl_error *err);

/*
 * Moves the reader to record `row` of the chunk (row >= col->row): with a plan, straight to
 * the page that holds it (which must be a needed page), then past the records before it in
 * that page, decoded and dropped; without one, past every record before it. CORRUPT when the
 * pages disagree with the OffsetIndex (a page not where it says, or with another row count).
 */
DL_NODISCARD dl_status dl_pq_col_seek(dl_pq_col *col, int64_t row, dl_error *err);

/* Ends the chunk; CORRUPT when it has level entries or pages left that no row used. */
DL_NODISCARD dl_status dl_pq_col_close_chunk(dl_pq_col *col, bool check_end, dl_error *err);

/*
 * Decodes the next n_records records: col->def/rep/n_levels receive their level entries and
 * out (an empty FLAT vector of col->type, which may become DICT) their present values in
 * order. CORRUPT when the chunk ends early or its levels or values are bad.
 */
DL_NODISCARD dl_status dl_pq_col_read(dl_pq_col *col, int64_t n_records, dl_vector *out,
                                      dl_error *err);

/* ---- The plan and assembly ---------------------------------------------------------------- */

/* One node of a reader's pruned field tree. */
typedef struct dl_pq_plan dl_pq_plan;

struct dl_pq_plan {
    const dl_pq_field *field;
    const dl_type *type; /* pruned */
    dl_pq_plan **children;
    size_t n_children;
    int32_t col;       /* LEAF: index of its dl_pq_col */
    int32_t level_col; /* a leaf below whose levels describe this node */
};

/*
 * Builds vec (an empty FLAT vector of plan->type, a batch column or a child) for a batch
 * whose leaves have been read into cols: slots, validity, list offsets, and the leaves'
 * present values spread to their slots. n_slots is the slot count the parent expects.
 * CORRUPT when leaves disagree about the structure.
 */
DL_NODISCARD dl_status dl_pq_assemble(const dl_pq_plan *plan, dl_pq_col *cols, dl_vector *vec,
                                      int64_t n_slots, dl_error *err);

/* Records in targets[col] the vector each leaf of plan reads into, inside vec (the vector
 * built for plan): struct children, list elements, map keys and values. */
void dl_pq_plan_bind(const dl_pq_plan *plan, dl_vector *vec, dl_vector **targets);

#endif /* DL_PQ_PQ_READER_INT_H */
