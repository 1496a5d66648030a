/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The formats part: text files that are not Parquet, read into vectors (CSV and JSON).
 * It sits between vector and parquet in the link order and knows nothing of SQL: the binder
 * (sql/bind/sql_bind_load.c) turns SQL options into dl_fmt_csv_options and gives the date and
 * timestamp parsers of the session (its zone, its datetime patterns) as callbacks.
 *
 * Input: whole files, loaded with dl_fmt_load, which decompresses by extension (.gz, .gzip:
 * gzip, every member; .zst, .zstd: zstd, every frame). The bytes stay in one buffer that the
 * string vectors of the result point into (no copy for a field without escapes).
 *
 * CSV as Spark's reader (univocity under DataFrameReader.csv) reads it:
 *   - a record is a line (\n or \r\n); without multi_line a line is a record even when a quote
 *     is open (an unclosed quote is then a malformed record); with multi_line, quoted fields
 *     may hold line breaks and a file is read by one thread; without it, files are split at
 *     line breaks into chunks read in parallel;
 *   - empty lines are skipped; with comment set, lines starting with it are skipped;
 *   - a field is unquoted (bytes up to sep or the line end, quotes inside kept as they are) or
 *     quoted (quote ... quote; inside, escape+quote is a quote, escape+escape an escape, a
 *     doubled quote a quote);
 *   - its value: an unquoted empty field is null_value, a quoted empty one empty_value; a value
 *     equal to null_value is NULL (so by default both are NULL, as Spark);
 *   - a record with fewer or more fields than the schema, or a field that does not convert to
 *     its column's type, is malformed: PERMISSIVE keeps it (bad fields and missing ones NULL,
 *     extra fields dropped, the whole line in the corrupt-record column when the schema has
 *     one), DROPMALFORMED drops it, FAILFAST fails naming file, line, column and value.
 */
#ifndef DL_FORMATS_FORMATS_H
#define DL_FORMATS_FORMATS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/compiler.h"
#include "base/error.h"
#include "base/pool.h"
#include "base/str.h"
#include "store/store.h"
#include "vector/vector.h"

/* Reads path (store-relative) whole into a new buffer (one reference), decompressed when the
 * name ends in .gz, .gzip, .zst or .zstd. Errors name the file. */
DL_NODISCARD dl_status dl_fmt_load(dl_store *store, const char *path, const dl_allocator *alloc,
                                   dl_vec_buffer **out, dl_error *err);

typedef enum dl_fmt_mode {
    DL_FMT_PERMISSIVE = 0,
    DL_FMT_DROPMALFORMED,
    DL_FMT_FAILFAST,
} dl_fmt_mode;

/* Parses text into a DATE (days) or TIMESTAMP / TIMESTAMP_NTZ (micros); fails (any status)
 * when it does not parse. Called from reader threads at once: must be thread-safe. */
typedef dl_status (*dl_fmt_time_fn)(void *ctx, dl_str text, int64_t *out, dl_error *err);

typedef struct dl_fmt_csv_options {
    char sep;     /* ',' */
    char quote;   /* '"'; 0 = no quoting */
    char escape;  /* '\\' (Spark's default) */
    char comment; /* 0 = none */
    bool has_header;
    bool is_multi_line;
    bool ignore_leading_ws; /* around unquoted fields */
    bool ignore_trailing_ws;
    dl_fmt_mode mode;
    dl_str null_value;           /* "" */
    dl_str empty_value;          /* "" */
    dl_str nan_value;            /* "NaN" */
    dl_str pos_inf;              /* "Inf" */
    dl_str neg_inf;              /* "-Inf" */
    dl_fmt_time_fn parse_date;   /* DATE columns and inference */
    dl_fmt_time_fn parse_ts;     /* TIMESTAMP */
    dl_fmt_time_fn parse_ts_ntz; /* TIMESTAMP_NTZ */
    void *time_ctx;
    bool is_date_pattern;       /* dateFormat given: inference takes what parse_date takes; else
                                   only a date alone (no time part) infers DATE */
    const char *corrupt_column; /* the corrupt-record column's name ("_corrupt_record") */
    dl_pool *pool;              /* NULL: one thread */
    int n_threads;              /* tasks to split a file into, >= 1 */
    size_t min_chunk;           /* bytes a task reads at least; 0 = 1 MiB (tests make it small) */
} dl_fmt_csv_options;

/* Fills opts with Spark's defaults. */
void dl_fmt_csv_options_init(dl_fmt_csv_options *opts);

typedef struct dl_fmt_csv dl_fmt_csv;

/* A reader over files (display names for messages, and their loaded bytes: the reader takes
 * one reference to each buffer). opts is copied; its strings and callbacks must outlive the
 * reader. */
DL_NODISCARD dl_status dl_fmt_csv_new(const dl_allocator *alloc, const dl_fmt_csv_options *opts,
                                      const char *const *names, dl_vec_buffer *const *data,
                                      int32_t n_files, dl_fmt_csv **out, dl_error *err);
void dl_fmt_csv_free(dl_fmt_csv *r);

/* The files' columns as Spark's inferSchema gives them (infer_types) or all STRING: names
 * from the first file's header (or _c0, _c1, ...), types from every value of every file.
 * The STRUCT type lives in arena. */
DL_NODISCARD dl_status dl_fmt_csv_infer(dl_fmt_csv *r, bool infer_types, dl_arena *arena,
                                        const dl_type **out, dl_error *err);

/* Called with each batch in file order (FLAT columns of schema, no selection); takes over the
 * batch. */
typedef dl_status (*dl_fmt_push_fn)(void *ctx, dl_batch *batch, dl_error *err);

/* INVALID_ARG when schema has a type CSV cannot hold, or a corrupt-record column that is not
 * STRING (the check dl_fmt_csv_read makes first; binders call it to fail early). */
DL_NODISCARD dl_status dl_fmt_csv_check_schema(const dl_fmt_csv_options *opts,
                                               const dl_type *schema, dl_error *err);

/* Reads every record into batches of schema (a STRUCT of BOOLEAN, BYTE, SHORT, INT, LONG,
 * FLOAT, DOUBLE, DECIMAL, STRING, BINARY, DATE, TIMESTAMP, TIMESTAMP_NTZ fields; a STRING
 * field named opts->corrupt_column takes malformed lines). The fields other than that one are
 * the file's columns in order. INVALID_ARG for another type. */
DL_NODISCARD dl_status dl_fmt_csv_read(dl_fmt_csv *r, const dl_type *schema, dl_fmt_push_fn push,
                                       void *push_ctx, dl_error *err);

/* ---- JSON ---------------------------------------------------------------------------------- */

/*
 * JSON as Spark's JSON data source (DataFrameReader.json over Jackson) reads it:
 *   - JSON Lines by default: every line is a record (blank lines skipped); with multi_line a
 *     whole file is one record. A record that is an object is one row; an array of objects is
 *     one row per object; anything else (a number, a string, null, a syntax error) is malformed.
 *   - The syntax is RFC 8259 plus what the allow_* options admit, as Jackson's features do.
 *   - Inference (JsonInferSchema) reads every record: integers are LONG (DECIMAL(n,0) beyond
 *     64 bits), other numbers DOUBLE (DECIMAL with prefers_decimal), objects STRUCTs whose
 *     fields are sorted by name, arrays ARRAYs of their elements' common type; conflicting
 *     types widen as Spark does (LONG and DOUBLE to DOUBLE, decimals to the wider decimal,
 *     anything else to STRING); a field that is always null is STRING. A malformed record in
 *     PERMISSIVE mode adds the corrupt-record column.
 *   - Converting (JacksonParser): a field converts when its token fits the column's type (a
 *     number for numbers, a string for dates and timestamps, an integer for a TIMESTAMP as
 *     seconds, NaN/Infinity strings for floating columns); a STRING column takes any token (a
 *     non-string as its JSON text). A field that does not convert is NULL and makes its record
 *     malformed; the other fields keep their values (Spark's partial results).
 */

/* Formats d as Java's Double.toString ("1.0E10"); out has 32 bytes; returns the length. */
typedef size_t (*dl_fmt_double_text_fn)(double d, char *out);

typedef struct dl_fmt_json_options {
    bool is_multi_line;
    bool is_primitives_as_string; /* inference: numbers and booleans as STRING */
    bool is_prefers_decimal;      /* inference: non-integers (and numeric strings) as DECIMAL */
    bool is_drop_all_null;        /* inference: drop fields that are always null */
    bool allow_comments;          /* Java and C++ comments; false */
    bool allow_single_quotes;     /* 'strings'; true */
    bool allow_unquoted_names;    /* {a: 1}; false */
    bool allow_non_numeric;       /* NaN, Infinity, -Infinity, +INF, -INF; true */
    bool allow_leading_zeros;     /* 007; false */
    bool allow_backslash_any;     /* \q as q; false */
    bool allow_control_chars;     /* raw control characters inside strings; false */
    dl_fmt_mode mode;
    dl_fmt_time_fn parse_date;
    dl_fmt_time_fn parse_ts;
    dl_fmt_time_fn parse_ts_ntz;
    void *time_ctx;
    dl_fmt_double_text_fn double_text; /* NULL: the shortest round-trip digits */
    const char *corrupt_column;        /* "_corrupt_record" */
    dl_pool *pool;
    int n_threads;
    size_t min_chunk;
} dl_fmt_json_options;

/* Fills opts with Spark's defaults. */
void dl_fmt_json_options_init(dl_fmt_json_options *opts);

typedef struct dl_fmt_json dl_fmt_json;

/* A reader over files, as dl_fmt_csv_new. */
DL_NODISCARD dl_status dl_fmt_json_new(const dl_allocator *alloc, const dl_fmt_json_options *opts,
                                       const char *const *names, dl_vec_buffer *const *data,
                                       int32_t n_files, dl_fmt_json **out, dl_error *err);
void dl_fmt_json_free(dl_fmt_json *r);

/* The records' schema as Spark infers it (a STRUCT in arena; no fields when there are no
 * records). FAILFAST: a malformed record is an error naming file and line. */
DL_NODISCARD dl_status dl_fmt_json_infer(dl_fmt_json *r, dl_arena *arena, const dl_type **out,
                                         dl_error *err);

/* INVALID_ARG when schema has a type the reader cannot fill (BINARY, MAP, ...) or a
 * corrupt-record column that is not STRING. */
DL_NODISCARD dl_status dl_fmt_json_check_schema(const dl_fmt_json_options *opts,
                                                const dl_type *schema, dl_error *err);

/* Reads every record into batches of schema (fields matched by name, case-sensitively; the
 * corrupt-record column takes malformed records' text). */
DL_NODISCARD dl_status dl_fmt_json_read(dl_fmt_json *r, const dl_type *schema, dl_fmt_push_fn push,
                                        void *push_ctx, dl_error *err);

#endif /* DL_FORMATS_FORMATS_H */
