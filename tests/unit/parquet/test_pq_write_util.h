/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers of the Parquet writer tests: a file checker built only on the committed metadata
 * and encoding layers (not on the writer, not on the reader), and small builders of types and
 * vectors.
 *
 * tw_file_read parses a written file's footer (dl_pq_footer_parse), walks every column chunk
 * page by page (page headers, decompression, levels, values in every encoding) and returns the
 * levels and values of each leaf over all row groups. On the way it checks what a reader would
 * trust: the OffsetIndex lists exactly the data pages (offset, size with header, first row),
 * each ColumnIndex entry's null flag and null count match the page and its bounds contain the
 * page's values, v2 page headers count rows and nulls right, and each chunk's statistics match
 * its values (null_count; exact bounds equal the true min and max, inexact ones enclose them;
 * TYPE_ORDER per the leaf). Any violation is DL_ERR_INTERNAL with a message.
 */
#ifndef DL_TESTS_PQ_WRITE_UTIL_H
#define DL_TESTS_PQ_WRITE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "parquet/parquet.h"
#include "parquet/pq_writer.h"
#include "store/store.h"
#include "vector/vector.h"

/* One leaf column's entries over the whole file. */
typedef struct tw_col {
    const dl_pq_schema_node *leaf;
    uint16_t *defs; /* n_levels entries (0 when max_def is 0) */
    uint16_t *reps; /* n_levels entries (0 when max_rep is 0) */
    size_t n_levels;
    uint8_t *fixed; /* non-null values of a fixed width (BOOLEAN: one byte 0/1) */
    size_t width;   /* bytes per fixed value; 0 for BYTE_ARRAY */
    dl_str *strs;   /* BYTE_ARRAY values */
    size_t n_values;
    uint32_t encodings;  /* bit 1 << e for each data page encoding e seen */
    size_t n_data_pages; /* over all row groups */
    size_t n_dict_pages;
    size_t n_v2_pages;
} tw_col;

struct tw_acc;

typedef struct tw_file {
    struct tw_acc *acc; /* decoding buffers, one per leaf */
    dl_arena arena;     /* everything below */
    dl_buf bytes;       /* the file */
    dl_pq_footer *footer;
    tw_col *cols;
    size_t n_cols;
} tw_file;

/* Reads and checks path (see above). On failure err says why; free with tw_file_free
 * either way. */
dl_status tw_file_read(dl_store *store, const char *path, tw_file *out, dl_error *err);
void tw_file_free(tw_file *f);

/* The column whose dotted path is path, or NULL. */
const tw_col *tw_file_col(const tw_file *f, const char *path);

/* Value helpers. */
int32_t tw_i32(const tw_col *c, size_t i);
int64_t tw_i64(const tw_col *c, size_t i);
double tw_f64(const tw_col *c, size_t i);  /* FLOAT or DOUBLE */
dl_i128 tw_dec(const tw_col *c, size_t i); /* INT32, INT64 or FLBA decimal, unscaled */

/* Writes batches[0, n) as path with opts (NULL = defaults); res (may be NULL) in arena. */
dl_status tw_write(dl_store *store, const char *path, const dl_type *schema,
                   dl_batch *const *batches, size_t n, const dl_pq_write_options *opts,
                   dl_arena *arena, dl_pq_write_result *res, dl_error *err);

/* A scratch local store under /tmp (removed by tw_store_free). */
typedef struct tw_store {
    char root[64];
    dl_store *store;
} tw_store;

bool tw_store_new(tw_store *s);
void tw_store_free(tw_store *s);
/* True when the folder holds no file at all (not even a temporary one). */
bool tw_store_is_empty(const tw_store *s);

#endif /* DL_TESTS_PQ_WRITE_UTIL_H */
