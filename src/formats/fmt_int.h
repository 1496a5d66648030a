/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private to the formats part: parsing one text value into a typed value, as Spark's CSV
 * reader converts a token (Java's parsers: Integer.parseInt, Double.parseDouble,
 * java.math.BigDecimal, Scala's toBoolean).
 */
#ifndef DL_FORMATS_FMT_INT_H
#define DL_FORMATS_FMT_INT_H

#include "formats/formats.h"

/* "true" / "false", any case. */
bool dl_fmt_parse_bool(const char *s, size_t n, bool *out);

/* [+-]digits within [min, max] (Integer.parseInt: no spaces, no decimal point). */
bool dl_fmt_parse_int(const char *s, size_t n, int64_t min, int64_t max, int64_t *out);

/* Java's Double.parseDouble: optional surrounding white space, [+-], digits with '.', an
 * exponent, an optional d/D/f/F suffix, NaN, Infinity. */
bool dl_fmt_parse_double(const char *s, size_t n, double *out);

/* java.math.BigDecimal (digits, '.', an exponent) rounded half-up to scale; false when the
 * value needs more than precision digits. */
bool dl_fmt_parse_decimal(const char *s, size_t n, int precision, int scale, dl_i128 *out);

/* Digits of an integer in BigDecimal form ([+-]digits, no point, no exponent), or 0. */
int dl_fmt_integer_digits(const char *s, size_t n);

/* ---- shared by the readers (fmt_task.c) ------------------------------------------------------ */

/* A reader's files (each buffer one reference) and the chunks its tasks read. */
typedef struct dl_fmt_file {
    const char *name;
    dl_vec_buffer *buf;
} dl_fmt_file;

typedef struct dl_fmt_chunk {
    int32_t file;
    size_t start, end; /* bytes of the file's buffer */
} dl_fmt_chunk;

typedef struct dl_fmt_input {
    dl_arena arena;
    dl_fmt_file *files;
    int32_t n_files;
    dl_fmt_chunk *chunks;
    int32_t n_chunks;
    int32_t cap_chunks;
} dl_fmt_input;

/* Takes a reference to each of data[0..n) (named by names). */
DL_NODISCARD dl_status dl_fmt_input_init(dl_fmt_input *in, const dl_allocator *alloc,
                                         const char *const *names, dl_vec_buffer *const *data,
                                         int32_t n, dl_error *err);
void dl_fmt_input_destroy(dl_fmt_input *in);

/* Splits the files into chunks: whole files when is_whole, else pieces of about a quarter of
 * a thread's share (at least min_chunk bytes; 0 = 1 MiB) that end at line breaks, and never
 * before min_end(ctx, file) (NULL: anywhere). */
DL_NODISCARD dl_status dl_fmt_input_split(dl_fmt_input *in, int n_threads, size_t min_chunk,
                                          bool is_whole,
                                          size_t (*min_end)(const void *ctx, int32_t file),
                                          const void *ctx, dl_error *err);

/* The chunk's bytes as a string heap (a reference to its file), or NULL when it is empty or
 * too large for 32-bit view offsets (strings are then copied). */
DL_NODISCARD dl_status dl_fmt_chunk_heap(const dl_allocator *alloc, const dl_fmt_input *in,
                                         const dl_fmt_chunk *c, dl_vec_buffer **out, dl_error *err);

/* Drops the batch's rows k (of n) with bad[k] set (DROPMALFORMED). */
DL_NODISCARD dl_status dl_fmt_drop_rows(dl_batch *batch, const uint8_t *bad, int64_t n,
                                        dl_error *err);

/* Runs fn over args[0..n) (each arg_size bytes) on pool, or here when pool is NULL. */
DL_NODISCARD dl_status dl_fmt_run_tasks(dl_pool *pool, dl_pool_fn fn, void *args, size_t arg_size,
                                        int32_t n, dl_error *err);

/* Line (1-based) of byte off of text. */
int64_t dl_fmt_line_of(const char *text, size_t off);

/* Batches a task read, kept until they are pushed in file order. */
typedef struct dl_fmt_batches {
    dl_batch **items;
    int64_t n, cap;
} dl_fmt_batches;

/* Appends batch (taken over; freed on failure). */
DL_NODISCARD dl_status dl_fmt_batches_keep(dl_fmt_batches *l, const dl_allocator *alloc,
                                           dl_batch *batch, dl_error *err);

/* Pushes every batch while s (the status so far) is DL_OK, frees the rest and the list;
 * returns the status. */
DL_NODISCARD dl_status dl_fmt_batches_push(dl_fmt_batches *l, const dl_allocator *alloc,
                                           dl_status s, dl_fmt_push_fn push, void *push_ctx,
                                           dl_error *err);

/* ---- JSON beyond RFC 8259 (fmt_json_lenient.c) ---------------------------------------------- */

/* A NaN or infinity written as a bare word: its placeholder "0.0" is at offset off of the
 * rewritten text. */
typedef struct dl_fmt_json_special {
    uint32_t off;
    double value;
} dl_fmt_json_special;

/* Rewrites text[0, n) into strict JSON in out (reset first) as the allow_* options of o admit:
 * comments become spaces, single-quoted strings and unquoted names double-quoted, leading zeros
 * dropped, \q unescaped, control characters escaped, NaN and infinities "0.0" placeholders
 * listed in specials (reset first; dl_fmt_json_special entries, in offset order). Whatever the
 * options do not admit is copied as it is, for the strict parser to refuse. */
DL_NODISCARD dl_status dl_fmt_json_rewrite(const dl_fmt_json_options *o, const char *text, size_t n,
                                           dl_buf *out, dl_buf *specials, dl_error *err);

/* True when some allow_* option of o is set beyond strict JSON. */
bool dl_fmt_json_is_lenient(const dl_fmt_json_options *o);

#endif /* DL_FORMATS_FMT_INT_H */
