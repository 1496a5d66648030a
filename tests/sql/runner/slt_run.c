/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Running sqllogictest records and comparing results as text. A failure is reported with the
 * file and line of its record, the SQL, and the expected and actual rows (or error).
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>
#include <zstd.h>

#include "slt.h"

dl_status
slt_substitute(const char *s, const slt_vars *vars, dl_buf *out, dl_error *err) {
    static const char *const names[] = {"${CORPUS}", "${WAREHOUSE}", "${TEST_DIR}"};
    const char *values[] = {vars->corpus ? vars->corpus : "",
                            vars->warehouse ? vars->warehouse : "",
                            vars->test_dir ? vars->test_dir : ""};
    const char *p = s;
    while (*p != '\0') {
        bool replaced = false;
        for (size_t i = 0; i < 3 && *p == '$'; i++) {
            size_t n = strlen(names[i]);
            if (strncmp(p, names[i], n) == 0) {
                DL_TRY(dl_buf_append_cstr(out, values[i], err));
                p += n;
                replaced = true;
                break;
            }
        }
        if (!replaced) {
            DL_TRY(dl_buf_append_byte(out, (uint8_t)*p++, err));
        }
    }
    (void)dl_buf_cstr(out);
    return DL_OK;
}

/* ---- text of results -------------------------------------------------------------------- */

static const char *
cell_text(const char *v) {
    if (v == NULL) {
        return "NULL";
    }
    return v[0] == '\0' ? "(empty)" : v;
}

static int
compare_strings(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The rows of a result as lines of tab-separated values (or one value per line). */
static const char **
actual_lines(const slt_result *res, bool one_value_per_line, dl_arena *arena, int64_t *out_n) {
    int64_t n = one_value_per_line ? res->n_rows * res->n_cols : res->n_rows;
    const char **out = dl_arena_alloc_array(arena, (size_t)n + 1, sizeof(char *));
    if (out == NULL) {
        return NULL;
    }
    dl_buf line;
    dl_buf_init(&line, arena->alloc);
    for (int64_t r = 0; r < res->n_rows; r++) {
        for (int32_t c = 0; c < res->n_cols; c++) {
            const char *v = cell_text(res->cells[r * res->n_cols + c]);
            if (one_value_per_line) {
                out[r * res->n_cols + c] = v;
                continue;
            }
            if ((c > 0 && dl_buf_append_byte(&line, '\t', NULL) != DL_OK) ||
                dl_buf_append_cstr(&line, v, NULL) != DL_OK) {
                dl_buf_destroy(&line);
                return NULL;
            }
        }
        if (!one_value_per_line) {
            out[r] = dl_arena_strndup(arena, (const char *)line.data, line.len);
            dl_buf_reset(&line);
            if (out[r] == NULL) {
                dl_buf_destroy(&line);
                return NULL;
            }
        }
    }
    dl_buf_destroy(&line);
    *out_n = n;
    return out;
}

static int64_t
count_char(const char *s, char c) {
    int64_t n = 0;
    for (; *s != '\0'; s++) {
        n += *s == c ? 1 : 0;
    }
    return n;
}

static int64_t
count_tabs(const char *s) {
    return count_char(s, '\t');
}

/* Every piece of lines split at sep; a sep that ends a line ends it (no empty piece after). */
static const char **
split_at(const char **lines, int64_t n, char sep, dl_arena *arena, int64_t *out_n) {
    int64_t total = 0;
    for (int64_t i = 0; i < n; i++) {
        total += count_char(lines[i], sep) + 1;
    }
    const char **out = dl_arena_alloc_array(arena, (size_t)total + 1, sizeof(char *));
    if (out == NULL) {
        return NULL;
    }
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        const char *p = lines[i];
        for (;;) {
            const char *end = strchr(p, sep);
            size_t len = end ? (size_t)(end - p) : strlen(p);
            /* an empty line of a value is written (empty): blank lines end records */
            out[k] = sep == '\n' && len == 0 ? "(empty)" : dl_arena_strndup(arena, p, len);
            if (out[k++] == NULL) {
                return NULL;
            }
            if (end == NULL || (sep == '\n' && end[1] == '\0')) {
                break;
            }
            p = end + 1;
        }
    }
    *out_n = k;
    return out;
}

/* Sorts every value of lines (valuesort): each line is split at tabs. */
static const char **
split_values(const char **lines, int64_t n, dl_arena *arena, int64_t *out_n) {
    return split_at(lines, n, '\t', arena, out_n);
}

/* ---- reporting -------------------------------------------------------------------------- */

static void
report_lines(FILE *report, const char *title, const char **lines, int64_t n) {
    (void)fprintf(report, "-- %s (%lld line%s):\n", title, (long long)n, n == 1 ? "" : "s");
    int64_t shown = n > 50 ? 50 : n;
    for (int64_t i = 0; i < shown; i++) {
        (void)fprintf(report, "%s\n", lines[i]);
    }
    if (shown < n) {
        (void)fprintf(report, "... %lld more\n", (long long)(n - shown));
    }
}

static void
report_head(FILE *report, const slt_file *f, const slt_record *r, const char *sql,
            const char *what) {
    (void)fprintf(report, "FAIL %s:%lld: %s\n%s\n", f->path, (long long)r->line, what, sql);
}

/* ---- checking one record ---------------------------------------------------------------- */

static bool
error_matches(const char *expected, const char *actual) {
    bool is_regex = strncmp(expected, "<REGEX>:", 8) == 0;
    bool is_not = strncmp(expected, "<!REGEX>:", 9) == 0;
    if (!is_regex && !is_not) {
        return strstr(actual, expected) != NULL;
    }
    regex_t re;
    if (regcomp(&re, expected + (is_regex ? 8 : 9), REG_EXTENDED | REG_NOSUB) != 0) {
        return false;
    }
    bool found = regexec(&re, actual, 0, NULL, 0) == 0;
    regfree(&re);
    return is_regex ? found : !found;
}

static bool
check_statement(const slt_file *f, const slt_record *r, const char *sql, const slt_result *res,
                FILE *report) {
    if (r->kind == SLT_STATEMENT_OK) {
        if (!res->is_ok) {
            report_head(report, f, r, sql, "statement failed");
            (void)fprintf(report, "-- error:\n%s\n", res->error);
        }
        return res->is_ok;
    }
    if (res->is_ok) {
        report_head(report, f, r, sql, "statement succeeded but an error was expected");
        return false;
    }
    const char *want = r->n_expected > 0 ? r->expected[0] : "";
    if (!error_matches(want, res->error)) {
        report_head(report, f, r, sql, "statement failed with another error");
        (void)fprintf(report, "-- expected an error containing:\n%s\n-- actual error:\n%s\n", want,
                      res->error);
        return false;
    }
    return true;
}

/* An expected line "<REGEX>:pattern" matches an actual line the pattern matches (DuckDB's
 * runner allows it in results too: for text that varies, as EXPLAIN ANALYZE's times). */
static bool
lines_equal(const char **actual, const char **expected, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        bool is_regex = strncmp(expected[i], "<REGEX>:", 8) == 0;
        if (is_regex ? !error_matches(expected[i], actual[i])
                     : strcmp(actual[i], expected[i]) != 0) {
            return false;
        }
    }
    return true;
}

/* Compares a query's result with the expected lines; reports a mismatch. */
static bool
check_rows(const slt_file *f, const slt_record *r, const char *sql, const slt_result *res,
           const char **expected, dl_arena *arena, FILE *report) {
    int64_t n_exp = r->n_expected;
    bool row_wise = n_exp == res->n_rows || res->n_cols == 1;
    for (int64_t i = 0; row_wise && i < n_exp; i++) {
        row_wise = count_tabs(expected[i]) == res->n_cols - 1;
    }
    bool value_wise = !row_wise && n_exp == res->n_rows * res->n_cols;
    int64_t n_act = 0;
    const char **actual = actual_lines(res, value_wise, arena, &n_act);
    if (actual == NULL) {
        report_head(report, f, r, sql, "out of memory comparing results");
        return false;
    }
    if (res->n_cols == 1 && actual != NULL) {
        /* a value of several lines (EXPLAIN's plan) is compared line by line */
        actual = split_at(actual, n_act, '\n', arena, &n_act);
    }
    if (actual == NULL) {
        report_head(report, f, r, sql, "out of memory comparing results");
        return false;
    }
    if (r->sort == SLT_VALUESORT) {
        actual = split_values(actual, n_act, arena, &n_act);
        expected = split_values(expected, n_exp, arena, &n_exp);
        if (actual == NULL || expected == NULL) {
            return false;
        }
    }
    if (r->sort != SLT_NOSORT) {
        qsort((void *)actual, (size_t)n_act, sizeof(char *), compare_strings);
        qsort((void *)expected, (size_t)n_exp, sizeof(char *), compare_strings);
    }
    if (n_act == n_exp && lines_equal(actual, expected, n_act)) {
        return true;
    }
    report_head(report, f, r, sql, "wrong result");
    report_lines(report, "expected", expected, n_exp);
    report_lines(report, "actual", actual, n_act);
    return false;
}

static bool
check_query(const slt_file *f, const slt_record *r, const char *sql, const slt_result *res,
            const slt_vars *vars, dl_arena *arena, FILE *report) {
    if (!res->is_ok) {
        report_head(report, f, r, sql, "query failed");
        (void)fprintf(report, "-- error:\n%s\n", res->error);
        return false;
    }
    int32_t n_types = (int32_t)strlen(r->types);
    if (n_types != res->n_cols) {
        report_head(report, f, r, sql, "wrong number of columns");
        (void)fprintf(report, "-- expected %d (query %s), got %d\n", (int)n_types, r->types,
                      (int)res->n_cols);
        return false;
    }
    if (!r->has_expected) {
        return true;
    }
    const char **expected = dl_arena_alloc_array(arena, (size_t)r->n_expected + 1, sizeof(char *));
    if (expected == NULL) {
        return false;
    }
    for (int64_t i = 0; i < r->n_expected; i++) {
        dl_buf b;
        dl_buf_init(&b, arena->alloc);
        bool ok = slt_substitute(r->expected[i], vars, &b, NULL) == DL_OK;
        expected[i] = ok ? dl_arena_strndup(arena, (const char *)b.data, b.len) : NULL;
        dl_buf_destroy(&b);
        if (expected[i] == NULL) {
            return false;
        }
    }
    return check_rows(f, r, sql, res, expected, arena, report);
}

/* A write record's lines, escapes undone, into out. */
static dl_status
file_text(const slt_record *r, dl_buf *out, dl_error *err) {
    for (int64_t i = 0; i < r->n_expected; i++) {
        const char *l = r->expected[i];
        bool is_last_open = false;
        for (size_t k = 0; l[k] != '\0'; k++) {
            char c = l[k];
            if (c == '\\' && l[k + 1] != '\0') {
                char e = l[++k];
                unsigned hex = 0;
                if (e == 'x' && sscanf(l + k + 1, "%2x", &hex) == 1) {
                    c = (char)hex;
                    k += 2;
                } else if (e == 'c' && l[k + 1] == '\0') {
                    is_last_open = true;
                    break;
                } else {
                    c = e == 'r' ? '\r' : e == 'n' ? '\n' : e == 't' ? '\t' : e;
                }
            }
            DL_TRY(dl_buf_append_byte(out, (uint8_t)c, err));
        }
        if (!is_last_open) {
            DL_TRY(dl_buf_append_byte(out, '\n', err));
        }
    }
    return DL_OK;
}

static dl_status
compress_text(const char *codec, const dl_buf *in, dl_buf *out, dl_error *err) {
    if (strcmp(codec, "zstd") == 0) {
        size_t cap = ZSTD_compressBound(in->len);
        uint8_t *dst = dl_buf_extend(out, cap, err);
        DL_CHECK(dst != NULL, err, DL_ERR_NOMEM, "out of memory");
        size_t n = ZSTD_compress(dst, cap, in->data, in->len, 3);
        DL_CHECK(!ZSTD_isError(n), err, DL_ERR_INTERNAL, "zstd failed");
        out->len = n;
        return DL_OK;
    }
    DL_CHECK(strcmp(codec, "gzip") == 0, err, DL_ERR_INVALID_ARG,
             "write: unknown compression '%s' (gzip or zstd)", codec);
    z_stream zs;
    memset(&zs, 0, sizeof(zs));
    DL_CHECK(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK, err,
             DL_ERR_NOMEM, "out of memory");
    size_t cap = deflateBound(&zs, (uLong)in->len) + 64;
    uint8_t *dst = dl_buf_extend(out, cap, err);
    if (dst == NULL) {
        deflateEnd(&zs);
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory");
    }
    zs.next_in = in->data;
    zs.avail_in = (uInt)in->len;
    zs.next_out = dst;
    zs.avail_out = (uInt)cap;
    int rc = deflate(&zs, Z_FINISH);
    out->len = cap - zs.avail_out;
    deflateEnd(&zs);
    DL_CHECK(rc == Z_STREAM_END, err, DL_ERR_INTERNAL, "gzip failed");
    return DL_OK;
}

/* Runs a write record: the file it names, with its lines. */
static dl_status
write_file(const slt_record *r, const slt_vars *vars, dl_arena *arena, dl_error *err) {
    dl_buf path, text, packed;
    dl_buf_init(&path, arena->alloc);
    dl_buf_init(&text, arena->alloc);
    dl_buf_init(&packed, arena->alloc);
    dl_status st = slt_substitute(r->sql, vars, &path, err);
    if (st == DL_OK) {
        st = file_text(r, &text, err);
    }
    if (st == DL_OK && r->types != NULL) {
        st = compress_text(r->types, &text, &packed, err);
    }
    const dl_buf *out = r->types != NULL ? &packed : &text;
    for (char *slash = (char *)path.data + 1; st == DL_OK && (slash = strchr(slash, '/')) != NULL;
         slash++) {
        *slash = '\0';
        (void)mkdir((char *)path.data, 0777); /* the folders on the way; fopen reports failure */
        *slash = '/';
    }
    FILE *f = st == DL_OK ? fopen(dl_buf_cstr(&path), "wb") : NULL;
    if (st == DL_OK && f == NULL) {
        st = dl_error_set(err, DL_ERR_IO, "write: cannot create '%s'", dl_buf_cstr(&path));
    }
    if (f != NULL) {
        bool ok = out->len == 0 || fwrite(out->data, 1, out->len, f) == out->len;
        ok = fclose(f) == 0 && ok;
        st = ok ? DL_OK
                : dl_error_set(err, DL_ERR_IO, "write: cannot write '%s'", dl_buf_cstr(&path));
    }
    dl_buf_destroy(&packed);
    dl_buf_destroy(&text);
    dl_buf_destroy(&path);
    return st;
}

static bool
requirement_met(const char *what, const slt_vars *vars) {
    return strcmp(what, "corpus") == 0 && vars->corpus != NULL;
}

static dl_status
run_record(const slt_file *file, const slt_record *r, const slt_exec *exec, const slt_vars *vars,
           FILE *report, slt_counts *counts, dl_arena *arena, dl_error *err) {
    dl_buf sql;
    dl_buf_init(&sql, arena->alloc);
    dl_status st = slt_substitute(r->sql, vars, &sql, err);
    slt_result res = {0};
    if (st == DL_OK) {
        st = exec->run(exec->ctx, dl_buf_cstr(&sql), arena, &res, err);
    }
    if (st == DL_OK) {
        bool ok = r->kind == SLT_QUERY
                      ? check_query(file, r, dl_buf_cstr(&sql), &res, vars, arena, report)
                      : check_statement(file, r, dl_buf_cstr(&sql), &res, report);
        counts->passed += ok ? 1 : 0;
        counts->failed += ok ? 0 : 1;
    }
    dl_buf_destroy(&sql);
    return st;
}

dl_status
slt_run_file(const slt_file *file, const slt_exec *exec, const slt_vars *vars, FILE *report,
             slt_counts *counts, dl_error *err) {
    memset(counts, 0, sizeof(*counts));
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_status st = DL_OK;
    for (int64_t i = 0; st == DL_OK && i < file->n_records; i++) {
        const slt_record *r = &file->records[i];
        if (r->is_skipped) {
            counts->skipped += r->kind == SLT_REQUIRE || r->kind == SLT_HALT ? 0 : 1;
            continue;
        }
        if (r->kind == SLT_HALT) {
            break;
        }
        if (r->kind == SLT_REQUIRE) {
            if (!requirement_met(r->sql, vars)) {
                counts->is_file_skipped = true;
                counts->skip_reason = r->sql;
                break;
            }
            continue;
        }
        st = r->kind == SLT_WRITE ? write_file(r, vars, &arena, err)
                                  : run_record(file, r, exec, vars, report, counts, &arena, err);
        dl_arena_reset(&arena);
    }
    dl_arena_destroy(&arena);
    return st;
}
