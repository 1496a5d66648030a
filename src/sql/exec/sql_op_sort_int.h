/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private to the sort, top-N, window, join and set-operation operators (sql_op_sort*.c,
 * sql_op_window*.c, sql_op_join*.c, sql_op_setop*.c): column buffers that collect rows into
 * long FLAT vectors, row stores, gathers out of both, normalized sort keys, and the sorter
 * that sort and window share.
 *
 * ---- Column buffers ----
 *
 * A dl_sql_colbuf holds rows as one FLAT vector per column, each as long as the buffer (up to
 * DL_VEC_MAX_LENGTH rows). Unlike dl_sql_rows' 2048-row chunks, a long vector can be the
 * dictionary of a DICT output vector (join and set-operation outputs reference rows by index)
 * and be cut into zero-copy slices (a window's materialized rows). Strings are not copied:
 * the vectors reference the heaps of the batches appended.
 *
 * ---- Normalized sort keys ----
 *
 * Rows are sorted as fixed-width entries of 64-bit words: the keys of a row encoded so that
 * comparing the words as unsigned integers, word by word, orders the rows (DuckDB's
 * normalized keys), the last word ending with a 6-byte reference to the row (see
 * dl_sql_sort_layout). Each key column takes, at a byte offset of the key:
 *
 *   1 byte   NULL marker: NULLS FIRST -> NULL 0, value 1; NULLS LAST -> value 0, NULL 1
 *   n bytes  the value, big endian, with the sign bit flipped (integers, decimals), IEEE bits
 *            transformed so that -inf < ... < -0.0 = 0.0 < ... < +inf < NaN (every NaN alike,
 *            Spark's order), booleans as 0/1; DESC inverts these bytes (not the marker).
 *            A NULL's value bytes are zero.
 *   strings  P prefix bytes (zero padded) and one length byte min(len, P + 1). Two strings
 *            of at most P bytes compare exactly; two longer ones tie on the encoding and are
 *            compared in full (the key is then inexact).
 *   nested   only the marker (inexact: values compare with dl_sql_value_compare); so are
 *            keys past DL_SQL_SORT_KEY_MAX bytes of encoding.
 *
 * The bytes are laid out as a big-endian string and each word is then byte-swapped to host
 * order, so word compares equal memcmp of the string. A comparison finds the first differing
 * byte; every inexact key entirely before it whose encodings tie and may differ (both strings
 * longer than P, or both nested values non-NULL) is compared in full first, in key order.
 *
 * ---- The sorter ----
 *
 * dl_sql_sorter drains a child in parallel: each task appends its rows to its own run, a row
 * store (the child's columns, then the values of key expressions that are not plain column
 * references) plus the rows' entries. Runs are then sorted on the pool, one task per run
 * (in-place MSD radix sort on the key bytes that vary, insertion sort for small groups, a
 * comparison sort for groups whose inexact keys need full compares). The output is a k-way
 * merge of the runs, produced batch by batch as (run, row) pairs that the consumer gathers
 * from the row stores, prefetching rows ahead so their cache misses overlap. Rows
 * are written once and never move, which matters on machines where touching new memory is
 * dear (a permutation of the rows into sorted order, in place, was slower: each move waits
 * for the previous one's miss).
 */
#ifndef DL_SQL_SQL_OP_SORT_INT_H
#define DL_SQL_SQL_OP_SORT_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "sql/exec/sql_exec_int.h"

/* ---- column buffers ------------------------------------------------------------------------ */

typedef struct dl_sql_colbuf {
    const dl_allocator *alloc;
    int32_t n_cols;
    dl_vector **cols; /* FLAT, count rows each */
    int64_t count;
} dl_sql_colbuf;

/* An empty buffer of n_cols columns of types[0..n_cols). */
DL_NODISCARD dl_status dl_sql_colbuf_init(dl_sql_colbuf *cb, const dl_allocator *alloc,
                                          const dl_type *const *types, int32_t n_cols,
                                          dl_error *err);
/* An empty buffer with the column types of proto. */
DL_NODISCARD dl_status dl_sql_colbuf_init_like(dl_sql_colbuf *cb, const dl_allocator *alloc,
                                               const dl_sql_colbuf *proto, dl_error *err);

/* Releases the vectors. A zeroed buffer is fine. */
void dl_sql_colbuf_destroy(dl_sql_colbuf *cb);

/*
 * Appends count rows: the first batch->n_cols columns get the physical rows rows[0..count) of
 * batch's columns (rows NULL: the batch's live rows, count = batch->count); the next n_extra
 * columns get rows extra_rows[0..count) of extra[0..n_extra) (extra_rows NULL: 0..count-1).
 * batch may be NULL when the buffer has only extra columns.
 */
DL_NODISCARD dl_status dl_sql_colbuf_append(dl_sql_colbuf *cb, const dl_batch *batch,
                                            const uint32_t *rows, int64_t count,
                                            dl_vector *const *extra, const uint32_t *extra_rows,
                                            int32_t n_extra, dl_error *err);

/* Replaces every column by its rows rows[0..n) (a permutation or any selection). */
DL_NODISCARD dl_status dl_sql_colbuf_permute(dl_sql_colbuf *cb, const uint32_t *rows, int64_t n,
                                             dl_error *err);

/* ---- gathers ------------------------------------------------------------------------------- */

/*
 * Fills dst, an empty, unshared FLAT vector (a column of a batch after dl_vec_batch_reset),
 * with n rows: row i is row rows[i] of srcs[runs[i]] (runs NULL: of srcs[0]). srcs are FLAT
 * vectors of dst's type. Strings are not copied: dst references the heaps.
 */
DL_NODISCARD dl_status dl_sql_gather(dl_vector *dst, dl_vector *const *srcs, const uint32_t *runs,
                                     const uint32_t *rows, int64_t n, dl_error *err);

/* A direct-mapped cache from heaps of source vectors to heap indexes of a destination vector
 * being filled (memset key to zero first). */
#define DL_SQL_HEAP_CACHE 256

typedef struct dl_sql_heap_cache {
    const dl_vec_buffer *key[DL_SQL_HEAP_CACHE];
    int32_t idx[DL_SQL_HEAP_CACHE];
} dl_sql_heap_cache;

/* The index in dst's heaps of heap, adding it to dst when the cache does not know it. */
DL_NODISCARD dl_status dl_sql_heap_cache_map(dl_vector *dst, dl_sql_heap_cache *hc,
                                             dl_vec_buffer *heap, int32_t *out, dl_error *err);

/* A new DICT vector of n rows over the FLAT vector dict: row i is element idx[i], or NULL
 * when is_null is non-NULL and is_null[i] (its index is then 0). Assumes: dict has at least
 * one element when n > 0. */
DL_NODISCARD dl_status dl_sql_dict_new(dl_vector *dict, const uint32_t *idx, const uint8_t *is_null,
                                       int64_t n, dl_vector **out, dl_error *err);

/* ---- row stores ---------------------------------------------------------------------------- */

/*
 * A row store keeps rows in a row format: each row is `width` bytes, a NULL bitmap (bit c set
 * = column c is NULL) followed by one fixed slot per column: 1, 2, 4, 8 or 16 bytes for
 * booleans, integers, floats, dates, timestamps and decimals, 16 bytes for a string view
 * whose buffer index names one of the store's heaps. Nested columns live beside the rows in
 * a colbuf (`side`), one row per row. The rows are one array grown with realloc, so growing
 * touches only new memory (glibc remaps large blocks), and reading a row's columns costs one
 * or two cache lines instead of one per column: sort output reads rows in random order.
 */
typedef struct dl_sql_rowlayout {
    int32_t n_cols;
    const dl_type **types;
    int32_t *offsets; /* slot of each column, or -1 for a nested column */
    int32_t *side_of; /* nested column -> its column in the side colbuf, else -1 */
    int32_t n_side;
    const dl_type **side_types;
    int32_t width; /* bytes per row, a multiple of 8 */
} dl_sql_rowlayout;

/* The layout of rows of types[0..n_cols), in arena. */
DL_NODISCARD dl_status dl_sql_rowlayout_init(dl_sql_rowlayout *lay, dl_arena *arena,
                                             const dl_type *const *types, int32_t n_cols,
                                             dl_error *err);

typedef struct dl_sql_rowstore {
    const dl_sql_rowlayout *lay;
    const dl_allocator *alloc;
    uint8_t *data; /* count rows of lay->width bytes */
    int64_t count;
    int64_t cap;
    dl_vec_buffer **heaps; /* the string heaps views point into (one reference each) */
    int32_t n_heaps;
    int32_t cap_heaps;
    const dl_vec_buffer **hkeys; /* open addressing: heap -> index in heaps */
    int32_t *hvals;
    int32_t cap_hash;
    dl_sql_colbuf side; /* nested columns */
} dl_sql_rowstore;

DL_NODISCARD dl_status dl_sql_rowstore_init(dl_sql_rowstore *rs, const dl_sql_rowlayout *lay,
                                            const dl_allocator *alloc, dl_error *err);
void dl_sql_rowstore_destroy(dl_sql_rowstore *rs);

/* Appends rows as dl_sql_colbuf_append does (batch columns by rows, then extra vectors). */
DL_NODISCARD dl_status dl_sql_rowstore_append(dl_sql_rowstore *rs, const dl_batch *batch,
                                              const uint32_t *rows, int64_t count,
                                              dl_vector *const *extra, const uint32_t *extra_rows,
                                              int32_t n_extra, dl_error *err);

/* Fills dst (empty, unshared, FLAT) with column col of n rows: row i is row rows[i] of
 * stores[runs[i]] (runs NULL: stores[0]). */
DL_NODISCARD dl_status dl_sql_rowstore_gather(dl_vector *dst, const dl_sql_rowstore *const *stores,
                                              int32_t col, const uint32_t *runs,
                                              const uint32_t *rows, int64_t n, dl_error *err);

/* dl_sql_rowstore_gather for columns 0..n_cols-1 into dsts[0..n_cols) at once, n <= a batch:
 * the rows are located and prefetched once for all columns. */
DL_NODISCARD dl_status dl_sql_rowstore_gather_batch(dl_vector *const *dsts, int32_t n_cols,
                                                    const dl_sql_rowstore *const *stores,
                                                    const uint32_t *runs, const uint32_t *rows,
                                                    int64_t n, dl_error *err);

/* Spark's order of column col of row ra of a and row rb of b; *out_nulls gets bit 0 when a's
 * value is NULL and bit 1 when b's is (the order is then 0). */
int dl_sql_rowstore_compare(const dl_sql_rowstore *a, int64_t ra, const dl_sql_rowstore *b,
                            int64_t rb, int32_t col, int *out_nulls);

/* ---- normalized keys ----------------------------------------------------------------------- */

/* How one key column is encoded. */
typedef enum dl_sql_skey_kind {
    DL_SQL_SKEY_FIXED = 1, /* exact: integers, floats, decimals, booleans, NULL type */
    DL_SQL_SKEY_STRING,    /* prefix and length byte; inexact beyond the prefix */
    DL_SQL_SKEY_FULL,      /* marker only; values compared in full (nested, or past the budget) */
} dl_sql_skey_kind;

/* Most key bytes encoded; keys beyond are compared in full. */
#define DL_SQL_SORT_KEY_MAX 248

typedef struct dl_sql_skey {
    dl_sql_skey_kind kind;
    dl_vec_phys phys;
    int32_t offset; /* byte of the NULL marker */
    int32_t width;  /* bytes including the marker; 0 past the budget (nothing encoded) */
    int32_t prefix; /* STRING: prefix bytes (the length byte follows) */
    bool is_desc;
    bool is_nulls_first;
} dl_sql_skey;

/*
 * Entries are nw 64-bit words: the key bytes from the start, and in the low 6 bytes of the
 * last word the row reference (run << 32) | row. Comparing whole words therefore breaks ties
 * between equal keys by reference, which no caller relies on.
 */
typedef struct dl_sql_sort_layout {
    int32_t n_keys;
    dl_sql_skey *keys;
    int32_t key_bytes; /* encoded bytes */
    int32_t nw;        /* words per entry: ceil((key_bytes + 6) / 8) */
    bool is_exact;     /* no inexact key: the words alone decide */
    int32_t *inexact;  /* the inexact keys, in key order */
    int32_t n_inexact;
} dl_sql_sort_layout;

#define DL_SQL_REF_MASK          ((UINT64_C(1) << 48) - 1)
#define DL_SQL_ROW_REF(run, row) (((uint64_t)(run) << 32) | (uint64_t)(uint32_t)(row))
#define DL_SQL_REF_RUN(ref)      ((uint32_t)((ref) >> 32))
#define DL_SQL_REF_ROW(ref)      ((uint32_t)(ref))

static inline uint64_t
dl_sql_entry_ref(const dl_sql_sort_layout *lay, const uint64_t *e) {
    return e[lay->nw - 1] & DL_SQL_REF_MASK;
}

static inline void
dl_sql_entry_set_ref(const dl_sql_sort_layout *lay, uint64_t *e, uint64_t ref) {
    e[lay->nw - 1] = (e[lay->nw - 1] & ~DL_SQL_REF_MASK) | ref;
}

/* Lays out keys (types[i] the type of key i) in arena. */
DL_NODISCARD dl_status dl_sql_sort_layout_init(dl_sql_sort_layout *lay, dl_arena *arena,
                                               const dl_sql_sort_key *keys,
                                               const dl_type *const *types, int32_t n_keys,
                                               dl_error *err);

/* Encodes count rows of the key vectors (count rows each, any layout, count <= 2048) into
 * entries[0 .. count * nw), the reference of entry i being ref_base + i. */
void dl_sql_sort_encode(const dl_sql_sort_layout *lay, dl_vector *const *key_vecs, int64_t count,
                        uint64_t *entries, uint64_t ref_base);

/*
 * Full comparison of key `key` of the rows two references name, for inexact keys: Spark's
 * order of the values (not inverted for DESC); *out_nulls gets bit 0 when a's value is NULL
 * and bit 1 when b's is (the result is then ignored).
 */
typedef int (*dl_sql_sort_full_fn)(const void *ctx, int32_t key, uint64_t a, uint64_t b,
                                   int *out_nulls);

typedef struct dl_sql_sort_cmp {
    const dl_sql_sort_layout *lay;
    dl_sql_sort_full_fn full;
    const void *ctx;
} dl_sql_sort_cmp;

/* A dl_sql_sort_full_fn over key vectors: ctx is a `dl_vector *const *const *` run_keys with
 * run_keys[run][key] a vector indexed by row. */
int dl_sql_sort_full_vectors(const void *ctx, int32_t key, uint64_t a, uint64_t b, int *out_nulls);

/* Order of entries a and b: <0, 0, >0. */
int dl_sql_sort_compare(const dl_sql_sort_cmp *cmp, const uint64_t *a, const uint64_t *b);

/* True when some of the n entries at e needs a full comparison of inexact key j (its
 * encoding does not settle ties). */
bool dl_sql_sort_group_needs_full(const dl_sql_sort_layout *lay, int32_t j, const uint64_t *e,
                                  int64_t n);

/* Sorts n entries in place, without scratch memory. */
void dl_sql_sort_entries(const dl_sql_sort_cmp *cmp, uint64_t *entries, int64_t n);

/* A comparison sort of n entries (small inputs, tie groups). */
void dl_sql_sort_entries_cmp(const dl_sql_sort_cmp *cmp, uint64_t *entries, int64_t n);

/* ---- the sorter ---------------------------------------------------------------------------- */

/* One run: rows collected by one task, then sorted. */
typedef struct dl_sql_sort_run {
    dl_sql_rowstore rows; /* child columns, then extra key columns */
    uint64_t *entries;    /* rows.count entries */
    int64_t cap_entries;  /* entries allocated */
    int64_t pos;          /* merge: next entry to output */
} dl_sql_sort_run;

typedef struct dl_sql_sorter {
    dl_sql_exec_ctx *exec;
    const dl_sql_sort_key *keys;
    int32_t n_keys;
    int32_t n_cols;   /* child columns */
    int32_t *key_col; /* key -> column of a run's rows */
    int32_t n_extra;  /* extra key columns */
    dl_sql_rowlayout rowlay;
    dl_sql_sort_layout lay;
    dl_sql_sort_cmp cmp;
    void *cmp_ctx; /* cmp.ctx, writable */
    dl_sql_sort_run *runs;
    int32_t n_runs;
    int32_t cap_runs;
    const dl_sql_rowstore **stores; /* stores[run] = &runs[run].rows */
    int32_t *heap;                  /* merge: runs ordered by their next entry */
    int32_t n_heap;
    int64_t total; /* rows in all runs */
} dl_sql_sorter;

/* Prepares a sorter for rows of child_schema ordered by keys (expressions over its columns). */
DL_NODISCARD dl_status dl_sql_sorter_init(dl_sql_sorter *s, dl_sql_exec_ctx *exec,
                                          const dl_type *child_schema, const dl_sql_sort_key *keys,
                                          int32_t n_keys, dl_error *err);
void dl_sql_sorter_destroy(dl_sql_sorter *s);

/* Evaluates the keys over batch's live rows into key_vecs (new references, n_keys) and lists
 * those that are extra columns in extra; release_keys drops the references. */
DL_NODISCARD dl_status dl_sql_sorter_eval_keys(dl_sql_sorter *s, dl_sql_eval **evals,
                                               const dl_batch *batch, dl_vector **key_vecs,
                                               dl_vector **extra, dl_error *err);
void dl_sql_sorter_release_keys(dl_sql_sorter *s, dl_vector **key_vecs);

/* Grows an entry array of *cap entries of nw words to hold n. */
DL_NODISCARD dl_status dl_sql_entries_reserve(const dl_allocator *alloc, int32_t nw,
                                              uint64_t **entries, int64_t *cap, int64_t n,
                                              dl_error *err);

/* Drains child (open) into runs. */
DL_NODISCARD dl_status dl_sql_sorter_drain(dl_sql_sorter *s, dl_sql_operator *child, dl_error *err);

/* Sorts every run (in parallel on the pool) and prepares the merge. */
DL_NODISCARD dl_status dl_sql_sorter_sort(dl_sql_sorter *s, dl_error *err);

/* The next up to max rows of the merged order: run and row of each; *out_n 0 at the end. */
void dl_sql_sorter_merge(dl_sql_sorter *s, uint32_t *runs, uint32_t *rows, int64_t max,
                         int64_t *out_n);

/* Skips n rows of the merged order. */
void dl_sql_sorter_skip(dl_sql_sorter *s, int64_t n);

#endif /* DL_SQL_SQL_OP_SORT_INT_H */
