/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dl_bench_sql WAREHOUSE QUERY.sql [--threads N] [--print] [--out FILE]
 *
 * deltalite's side of the SQL benchmarks (bench/README.md, q1..q6): opens WAREHOUSE (a folder
 * of Delta tables, here `sales` and `customers` written by dl_bench_load_delta) through the
 * public C API (include/deltalite.h), runs every statement of QUERY.sql once, and streams the
 * last one's result to its end as an Arrow C stream (deltalite_result_to_arrow: the engine's
 * own batches, zero-copy where they allow), reading every value of every row: fixed-width
 * values, string views and string bytes are folded into a checksum, so no value goes unread.
 * This mirrors the peer (bench/peer/duckdb_query.mjs), which streams DuckDB's chunks to the
 * end without converting them to JS values.
 *
 * Timed: from the query call (parse, bind, snapshot load, plan) to the end of the stream. Not
 * timed: opening the warehouse and reading the file, as the peer's instance and view creation
 * are not. Prints, as its last line,
 *
 *   RESULT seconds=<s> rows=<result rows> digest=<checksum of the values, hex>
 *
 * rows is the answer the runner compares with the peer's; the digest only compares deltalite
 * runs with each other. --print runs the query a second time, untimed, and writes up to 20 rows
 * to stderr as text (Spark's CAST AS STRING), to compare answers with the peer's --print.
 * --out FILE reads the result row by row instead (deltalite_query, every value as text by
 * deltalite_result_get_text, timed the same way) and writes every row to FILE, one line a row,
 * values separated by tabs, NULL as \N, tab, newline and backslash escaped as \t, \n, \\:
 * the answer the TPC-H bench (bench/tpch/) compares with DuckDB's.
 * --threads N: worker threads (deltalite_options.threads; default 0 = one per core, as
 * DuckDB's default).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "deltalite.h"

#define MAX_QUERY_BYTES (1 << 20)
#define PRINT_ROWS      20

static double
now_s(void) {
    struct timespec t;
    (void)clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Reads the whole query file, NUL-terminated, into buf (MAX_QUERY_BYTES + 1 bytes). */
static bool
read_query(const char *path, char *buf) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        (void)fprintf(stderr, "dl_bench_sql: cannot open %s\n", path);
        return false;
    }
    size_t n = fread(buf, 1, MAX_QUERY_BYTES, f);
    bool ok = ferror(f) == 0 && feof(f) != 0;
    (void)fclose(f);
    if (!ok) {
        (void)fprintf(stderr, "dl_bench_sql: %s: read error or larger than %d bytes\n", path,
                      MAX_QUERY_BYTES);
        return false;
    }
    buf[n] = '\0';
    return true;
}

/* ---- touching every value ------------------------------------------------------------------ */

/* Folds len bytes into h, 8 at a time (a multiply-xor mix; order-sensitive). */
static uint64_t
fold_bytes(uint64_t h, const void *data, size_t len) {
    const unsigned char *p = data;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
    }
    for (; i < len; i++) {
        h = (h ^ p[i]) * 0x100000001b3ULL;
    }
    return h;
}

/* Bytes per value of a fixed-width Arrow format (CDataInterface.rst), 0 for others. */
static size_t
fixed_width(const char *format) {
    static const char *const w1[] = {"c", "C"};
    static const char *const w2[] = {"s", "S"};
    static const char *const w4[] = {"i", "I", "f", "tdD", "tiM"};
    static const char *const w8[] = {"l", "L", "g", "tdm"};
    for (size_t i = 0; i < 2; i++) {
        if (strcmp(format, w1[i]) == 0) {
            return 1;
        }
        if (strcmp(format, w2[i]) == 0) {
            return 2;
        }
    }
    for (size_t i = 0; i < 5; i++) {
        if (strcmp(format, w4[i]) == 0) {
            return 4;
        }
    }
    for (size_t i = 0; i < 4; i++) {
        if (strcmp(format, w8[i]) == 0) {
            return 8;
        }
    }
    if (strncmp(format, "ts", 2) == 0 || strncmp(format, "tD", 2) == 0) {
        return 8; /* timestamps "tsu:<zone>", durations "tDu" */
    }
    return strncmp(format, "d:", 2) == 0 ? 16 : 0; /* decimal128 "d:p,s" */
}

/* Folds the values of one column array (schema s) into h. */
static uint64_t
fold_array(uint64_t h, const struct ArrowSchema *s, const struct ArrowArray *a) {
    const char *fmt = s->format;
    size_t first = (size_t)a->offset;
    size_t n = (size_t)a->length;
    size_t width = fixed_width(fmt);
    h = fold_bytes(h, &a->null_count, sizeof(a->null_count));
    if (width > 0 && a->n_buffers >= 2 && a->buffers[1] != NULL) {
        return fold_bytes(h, (const char *)a->buffers[1] + first * width, n * width);
    }
    if ((strcmp(fmt, "vu") == 0 || strcmp(fmt, "vz") == 0) && a->n_buffers >= 2 &&
        a->buffers[1] != NULL) {
        /* string views: 16 bytes each, the length and a prefix inline; longer strings point
         * into the data buffers, whose bytes are folded by the views' references below */
        const char *views = (const char *)a->buffers[1] + first * 16;
        for (size_t i = 0; i < n; i++) {
            int32_t len;
            memcpy(&len, views + i * 16, 4);
            if (len > 12 && a->n_buffers > 3) {
                int32_t buf_index;
                int32_t buf_offset;
                memcpy(&buf_index, views + i * 16 + 8, 4);
                memcpy(&buf_offset, views + i * 16 + 12, 4);
                const char *data = (const char *)a->buffers[2 + buf_index] + buf_offset;
                h = fold_bytes(h, data, (size_t)len);
            } else {
                h = fold_bytes(h, views + i * 16, 16);
            }
        }
        return h;
    }
    if ((strcmp(fmt, "u") == 0 || strcmp(fmt, "z") == 0) && a->n_buffers >= 3 &&
        a->buffers[1] != NULL && a->buffers[2] != NULL) {
        const int32_t *offsets = (const int32_t *)a->buffers[1] + first;
        const char *data = a->buffers[2];
        return fold_bytes(h, data + offsets[0], (size_t)(offsets[n] - offsets[0]));
    }
    if (strcmp(fmt, "b") == 0 && a->n_buffers >= 2 && a->buffers[1] != NULL) {
        return fold_bytes(h, a->buffers[1], (first + n + 7) / 8);
    }
    for (int64_t c = 0; c < a->n_children && c < s->n_children; c++) {
        h = fold_array(h, s->children[c], a->children[c]);
    }
    return fold_bytes(h, &a->length, sizeof(a->length));
}

/* Streams the result to its end; returns false (with the message printed) on an error. */
static bool
drain(struct ArrowArrayStream *stream, int64_t *out_rows, uint64_t *out_digest) {
    struct ArrowSchema schema;
    if (stream->get_schema(stream, &schema) != 0) {
        (void)fprintf(stderr, "dl_bench_sql: %s\n", stream->get_last_error(stream));
        return false;
    }
    uint64_t h = 0xcbf29ce484222325ULL;
    int64_t rows = 0;
    bool ok = true;
    for (;;) {
        struct ArrowArray batch;
        if (stream->get_next(stream, &batch) != 0) {
            (void)fprintf(stderr, "dl_bench_sql: %s\n", stream->get_last_error(stream));
            ok = false;
            break;
        }
        if (batch.release == NULL) {
            break;
        }
        rows += batch.length;
        for (int64_t c = 0; c < batch.n_children && c < schema.n_children; c++) {
            h = fold_array(h, schema.children[c], batch.children[c]);
        }
        batch.release(&batch);
    }
    schema.release(&schema);
    *out_rows = rows;
    *out_digest = h;
    return ok;
}

/* ---- the program ---------------------------------------------------------------------------- */

static void
print_error(deltalite_db *db) {
    const char *caret = deltalite_error_caret(db);
    (void)fprintf(stderr, "dl_bench_sql: %s: %s\n%s%s",
                  deltalite_status_name(deltalite_error_status(db)), deltalite_error_message(db),
                  caret, caret[0] != '\0' ? "\n" : "");
}

/* Runs sql again (untimed) and writes up to PRINT_ROWS rows to stderr. */
static bool
print_rows(deltalite_db *db, const char *sql) {
    deltalite_result *r = NULL;
    if (deltalite_query(db, sql, &r) != DELTALITE_OK) {
        print_error(db);
        return false;
    }
    int32_t n_cols = deltalite_result_column_count(r);
    bool has_row = false;
    for (int row = 0; row < PRINT_ROWS; row++) {
        if (deltalite_result_next_row(r, &has_row) != DELTALITE_OK) {
            print_error(db);
            deltalite_result_free(r);
            return false;
        }
        if (!has_row) {
            break;
        }
        for (int32_t c = 0; c < n_cols; c++) {
            const char *text = NULL;
            (void)deltalite_result_get_text(r, c, &text, NULL);
            (void)fprintf(stderr, "%s%s", c > 0 ? " | " : "", text != NULL ? text : "NULL");
        }
        (void)fputc('\n', stderr);
    }
    deltalite_result_free(r);
    return true;
}

/* Writes one value to f with the --out escapes. */
static void
write_escaped(FILE *f, const char *text, size_t len) {
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == '\t' || c == '\n' || c == '\\') {
            (void)fputc('\\', f);
            c = c == '\t' ? 't' : c == '\n' ? 'n' : '\\';
        }
        (void)fputc(c, f);
    }
}

/* Reads the result row by row, every value as text, into f; returns false on an error. */
static bool
drain_text(deltalite_db *db, const char *sql, FILE *f, int64_t *out_rows) {
    deltalite_result *r = NULL;
    if (deltalite_query(db, sql, &r) != DELTALITE_OK) {
        print_error(db);
        return false;
    }
    int32_t n_cols = deltalite_result_column_count(r);
    int64_t rows = 0;
    for (;;) {
        bool has_row = false;
        if (deltalite_result_next_row(r, &has_row) != DELTALITE_OK) {
            print_error(db);
            deltalite_result_free(r);
            return false;
        }
        if (!has_row) {
            break;
        }
        for (int32_t c = 0; c < n_cols; c++) {
            const char *text = NULL;
            size_t len = 0;
            if (c > 0) {
                (void)fputc('\t', f);
            }
            if (deltalite_result_is_null(r, c)) {
                (void)fputs("\\N", f);
            } else if (deltalite_result_get_text(r, c, &text, &len) == DELTALITE_OK) {
                write_escaped(f, text, len);
            } else {
                print_error(db);
                deltalite_result_free(r);
                return false;
            }
        }
        (void)fputc('\n', f);
        rows++;
    }
    deltalite_result_free(r);
    *out_rows = rows;
    return true;
}

/* The --out mode: the result as text into out_path, timed. */
static bool
run_text(deltalite_db *db, const char *sql, const char *out_path) {
    FILE *f = fopen(out_path, "wb");
    if (f == NULL) {
        (void)fprintf(stderr, "dl_bench_sql: cannot write %s\n", out_path);
        return false;
    }
    double t0 = now_s();
    int64_t rows = 0;
    bool ok = drain_text(db, sql, f, &rows);
    double seconds = now_s() - t0;
    if (fclose(f) != 0) {
        (void)fprintf(stderr, "dl_bench_sql: write error on %s\n", out_path);
        ok = false;
    }
    if (ok) {
        (void)printf("RESULT seconds=%.6f rows=%" PRId64 "\n", seconds, rows);
    }
    return ok;
}

static bool
run(deltalite_db *db, const char *sql, bool is_print) {
    double t0 = now_s();
    struct ArrowArrayStream stream;
    if (deltalite_query_arrow(db, sql, &stream) != DELTALITE_OK) {
        print_error(db);
        return false;
    }
    int64_t rows = 0;
    uint64_t digest = 0;
    bool ok = drain(&stream, &rows, &digest);
    stream.release(&stream);
    double seconds = now_s() - t0;
    if (!ok) {
        return false;
    }
    if (is_print && !print_rows(db, sql)) {
        return false;
    }
    (void)printf("RESULT seconds=%.6f rows=%" PRId64 " digest=%016" PRIx64 "\n", seconds, rows,
                 digest);
    return true;
}

int
main(int argc, char **argv) {
    if (argc < 3) {
        (void)fprintf(stderr, "usage: dl_bench_sql WAREHOUSE QUERY.sql [--threads N] [--print] "
                              "[--out FILE]\n");
        return 2;
    }
    deltalite_options opts;
    memset(&opts, 0, sizeof(opts));
    bool is_print = false;
    const char *out_path = NULL;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--print") == 0) {
            is_print = true;
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            opts.threads = (int32_t)strtol(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out_path = argv[++i];
        } else {
            (void)fprintf(stderr, "dl_bench_sql: unknown option '%s'\n", argv[i]);
            return 2;
        }
    }
    static char sql[MAX_QUERY_BYTES + 1];
    if (!read_query(argv[2], sql)) {
        return 1;
    }
    deltalite_db *db = NULL;
    if (deltalite_open(argv[1], &opts, &db) != DELTALITE_OK) {
        if (db != NULL) {
            print_error(db);
        } else {
            (void)fprintf(stderr, "dl_bench_sql: out of memory opening %s\n", argv[1]);
        }
        (void)deltalite_close(db);
        return 1;
    }
    bool ok = out_path != NULL ? run_text(db, sql, out_path) : run(db, sql, is_print);
    (void)deltalite_close(db);
    return ok ? 0 : 1;
}
