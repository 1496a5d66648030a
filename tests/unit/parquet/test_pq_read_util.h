/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers shared by the Parquet reader tests:
 *   - a renderer of vector rows to the JSON form DuckDB gives in the corpus's expected-duckdb
 *     files (64-bit integers and decimals as strings, timestamps as "yyyy-MM-dd HH:mm:ss[.f]",
 *     blobs with \xNN escapes, NaN and infinities as strings, maps as [{key, value}]), and a
 *     comparison of two parsed JSON values that compares numbers by value;
 *   - a builder of small Parquet files page by page, so tests control encodings, page
 *     versions, CRCs and levels exactly (the reader must not be tested with its own writer).
 */
#ifndef DL_TESTS_PQ_READ_UTIL_H
#define DL_TESTS_PQ_READ_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "json/json.h"
#include "parquet/parquet.h"
#include "parquet/pq_reader.h"
#include "vector/vector.h"

/* ---- Rendering ------------------------------------------------------------------------------ */

/* Appends row `row` of vec (any layout and type) as JSON in DuckDB's rendering. */
dl_status pqt_render_value(const dl_vector *vec, int64_t row, dl_json_writer *w, dl_error *err);

/* Appends live row k of batch as one JSON object, the column names as keys. */
dl_status pqt_render_row(const dl_batch *batch, int64_t k, dl_buf *out, dl_error *err);

/* True when a and b are the same JSON value, numbers compared by value (as doubles, or as
 * floats when the doubles differ); otherwise writes the first difference to why. */
bool pqt_json_same(dl_json_val a, dl_json_val b, char *why, size_t why_cap);

/*
 * Opens data[0, len) as a memory file, reads the columns named in `columns` (a comma-separated
 * list of dotted field paths such as "a,s.b,l.element"; NULL = all) with opts (its columns
 * are replaced), and appends each row as a JSON line to out. On failure the status and err of
 * the failing step come back (out holds the rows read before it).
 */
dl_status pqt_read_json(const uint8_t *data, size_t len, const char *columns,
                        const dl_pq_read_options *opts, dl_buf *out, dl_error *err);

/* Reads a whole file into buf; -1 when it cannot be read. */
int pqt_read_file(const char *path, dl_buf *buf);

/* ---- Filtered reads ---------------------------------------------------------------------------
 */

/* Every row of a file rendered as a JSON line (pqt_render_row), indexed by file row. */
typedef struct pqt_rows {
    dl_buf text;
    size_t *at; /* n + 1 offsets into text */
    int64_t n;
} pqt_rows;

/* Reads every row of file with opts (its filter ignored) into out (free with pqt_rows_free,
 * also after a failure). */
dl_status pqt_rows_read(dl_pq_file *file, const dl_pq_read_options *opts, pqt_rows *out,
                        dl_error *err);
void pqt_rows_free(pqt_rows *rows);

/* Whether file row `row` satisfies the filter being checked. */
typedef bool (*pqt_row_pred)(void *ctx, int64_t row);

/*
 * Reads file with opts (a filter set) and checks it against all (read with the same columns,
 * without the filter): each batch's rows are the file rows dl_pq_reader_batch_first_row gives,
 * rising, with the same values; every row for which pred holds is among them. Prints what
 * differs and returns false. stats (may be NULL) receives the reader's statistics.
 */
bool pqt_check_filtered(dl_pq_file *file, const pqt_rows *all, const dl_pq_read_options *opts,
                        pqt_row_pred pred, void *ctx, dl_pq_reader_stats *stats);

/* ---- Building files ------------------------------------------------------------------------ */

/* A column being built: its pages for the current row group. */
typedef struct pqt_column {
    dl_pq_type type;
    int32_t type_length;
    int32_t codec;
    char *path[8]; /* names from the root (arena) */
    size_t n_path;
    dl_buf chunk;        /* page headers and bodies of the current row group */
    int64_t num_values;  /* entries in the current row group */
    int64_t dict_offset; /* offset of the dictionary page in chunk, or -1 */
    int64_t data_offset; /* offset of the first data page in chunk, or -1 */
    dl_pq_statistics stats;
    bool has_stats;
} pqt_column;

/* A file being built: schema elements added depth first (groups count their children), then
 * pages per column, row group by row group. */
typedef struct pqt_file {
    dl_pq_schema_element schema[64];
    size_t n_schema;
    pqt_column cols[16];
    size_t n_cols;
    size_t stack[16]; /* open groups (schema indices) */
    int32_t stack_left[16];
    size_t depth;
    dl_buf body; /* "PAR1" and the finished row groups' chunks */
    dl_pq_row_group rgs[8];
    dl_pq_column_chunk chunks[8][16];
    size_t n_rgs;
    dl_arena arena;
} pqt_file;

void pqt_file_init(pqt_file *f, int32_t n_top_level);
void pqt_file_destroy(pqt_file *f);

/* Adds a group element with n_children children to follow. converted_type < 0 = none. */
void pqt_add_group(pqt_file *f, const char *name, dl_pq_repetition rep, int32_t n_children,
                   int32_t converted_type);

/* Adds a leaf element and its column; returns the column index. converted_type < 0 = none. */
size_t pqt_add_leaf(pqt_file *f, const char *name, dl_pq_repetition rep, dl_pq_type type,
                    int32_t converted_type, int32_t codec);

/* The element last added, to set more fields (logical type, type_length, field_id...). */
dl_pq_schema_element *pqt_last(pqt_file *f);

/* Page options. */
typedef struct pqt_page {
    dl_pq_page_type type;    /* DATA, DATA_V2 or DICTIONARY */
    int32_t num_values;      /* entries (dictionary: values) */
    int32_t num_nulls;       /* v2 */
    int32_t num_rows;        /* v2 */
    dl_pq_encoding encoding; /* values encoding */
    const uint16_t *def;     /* levels (NULL = none) */
    const uint16_t *rep;
    int16_t max_def;
    int16_t max_rep;
    bool levels_bit_packed; /* v1: deprecated BIT_PACKED levels */
    const uint8_t *values;  /* encoded values section */
    size_t values_len;
    bool with_crc;
    bool corrupt_crc;     /* store a wrong CRC */
    bool v2_uncompressed; /* v2: is_compressed = false */
} pqt_page;

/* Appends a page to column c (levels encoded here, body compressed with the column codec). */
void pqt_add_page(pqt_file *f, size_t c, const pqt_page *p);

/* Closes the current row group of num_rows rows. */
void pqt_end_row_group(pqt_file *f, int64_t num_rows);

/* Serialises the file into out (after the last pqt_end_row_group). */
void pqt_finish(pqt_file *f, dl_buf *out);

#endif /* DL_TESTS_PQ_READ_UTIL_H */
