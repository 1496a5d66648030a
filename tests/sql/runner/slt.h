/* SPDX-License-Identifier: Apache-2.0 */
/*
 * deltalite's sqllogictest runner: DuckDB's flavour of the format (../shared/scenarios/README.md
 * and duckdb/test/README.md), parsed into records and run against an executor.
 *
 * A file is a sequence of records separated by blank lines; lines starting with '#' are
 * comments. Records:
 *
 *   statement ok               the SQL that follows must succeed
 *   statement error            it must fail; the lines after ---- (if any) must appear in the
 *   <sql>                      error's message or hint. "<REGEX>:pattern" matches a POSIX
 *   ----                       extended regular expression instead, "<!REGEX>:pattern" must
 *   <expected error text>      not match.
 *
 *   query <types> [nosort|rowsort|valuesort] [label]
 *   <sql>
 *   ----
 *   <rows: values separated by tabs, or one value per line>
 *
 * <types> has one letter per column (I integer, T text, R real/decimal, B boolean, D date...);
 * only their number is checked. NULL is NULL; the empty string is (empty). rowsort sorts the
 * rows (as text) before comparing, valuesort sorts every value. Values are compared as text:
 * the API's text getter writes them the way Spark's CAST(x AS STRING) does. In a result of one
 * column, a value of several lines (EXPLAIN's plan) is compared line by line (an empty line is
 * written (empty)); an expected line
 * "<REGEX>:pattern" matches any line the POSIX extended pattern matches (times, sizes).
 *
 *   write <path> [gzip|zstd]   writes a file for the records after it (CSV inputs): the lines
 *   <lines>                    up to a blank line, each ended by \n, with \r \n \t \\ and
 *                              \xHH undone (so "a\r" ends a line with CRLF); gzip / zstd
 *                              compress it. \c at the end of the last line: no final \n.
 *
 * Control lines: `require <what>` skips the file unless the runner has it (`corpus`: the
 * shared corpus folder is present); `skipif <engine>` / `onlyif <engine>` skip the next record
 * unless it applies to "deltalite"; `mode skip` ... `mode unskip` skip the records between;
 * `halt` ends the file; `hash-threshold` and `load` are ignored.
 *
 * Substitutions in SQL and expected text: ${CORPUS} (the shared corpus folder), ${WAREHOUSE}
 * (the file's fresh warehouse folder), ${TEST_DIR} (the folder of the .test file).
 */
#ifndef DL_TESTS_SLT_H
#define DL_TESTS_SLT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/error.h"

typedef enum slt_kind {
    SLT_STATEMENT_OK = 1,
    SLT_STATEMENT_ERROR,
    SLT_QUERY,
    SLT_REQUIRE,
    SLT_HALT,
    SLT_WRITE, /* sql: the path; types: NULL, "gzip" or "zstd"; expected: the lines */
} slt_kind;

typedef enum slt_sort {
    SLT_NOSORT = 0,
    SLT_ROWSORT,
    SLT_VALUESORT,
} slt_sort;

typedef struct slt_record {
    slt_kind kind;
    int64_t line;          /* 1-based line of the record's first line */
    const char *sql;       /* the statement (SQL_OK/ERROR, QUERY); the requirement (REQUIRE) */
    const char *types;     /* QUERY: the type letters */
    slt_sort sort;         /* QUERY */
    const char **expected; /* QUERY: the lines after ----; ERROR: the text (lines joined) */
    int64_t n_expected;    /* lines in expected */
    bool has_expected;     /* a ---- line was present */
    bool is_skipped;       /* skipif/onlyif/mode skip apply */
} slt_record;

typedef struct slt_file {
    const char *path;
    slt_record *records;
    int64_t n_records;
} slt_file;

/* Parses the text of a .test file into records allocated in arena. Syntax errors are
 * DL_ERR_SQL_SYNTAX with "<path>:<line>: ..." messages. */
DL_NODISCARD dl_status slt_parse(const char *path, const char *text, size_t len, dl_arena *arena,
                                 slt_file *out, dl_error *err);

/* ---- running ---------------------------------------------------------------------------- */

/* What the executor returns for one statement. Cells are NULL for SQL NULL. */
typedef struct slt_result {
    bool is_ok;        /* the statement succeeded */
    const char *error; /* when it failed: message, then hint on the next line */
    int32_t n_cols;
    int64_t n_rows;
    const char **cells; /* n_rows * n_cols, row-major */
} slt_result;

/* An engine to run statements on. run fills *out with memory from arena (or the executor's
 * own, valid until the next call). */
typedef struct slt_exec {
    void *ctx;
    dl_status (*run)(void *ctx, const char *sql, dl_arena *arena, slt_result *out, dl_error *err);
} slt_exec;

typedef struct slt_vars {
    const char *corpus;    /* ${CORPUS}, or NULL when absent */
    const char *warehouse; /* ${WAREHOUSE} */
    const char *test_dir;  /* ${TEST_DIR} */
} slt_vars;

typedef struct slt_counts {
    int64_t passed;
    int64_t failed;
    int64_t skipped;
    bool is_file_skipped; /* a `require` was not met */
    const char *skip_reason;
} slt_counts;

/* Appends s with ${...} substituted to out. */
DL_NODISCARD dl_status slt_substitute(const char *s, const slt_vars *vars, dl_buf *out,
                                      dl_error *err);

/* Runs the records of file on exec, writing a report of each failure (file:line, SQL,
 * expected and actual) to report. */
DL_NODISCARD dl_status slt_run_file(const slt_file *file, const slt_exec *exec,
                                    const slt_vars *vars, FILE *report, slt_counts *counts,
                                    dl_error *err);

#endif /* DL_TESTS_SLT_H */
