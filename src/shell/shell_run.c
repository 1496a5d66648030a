/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Running statements from the shell: split the text into statements, run each through the
 * public API, print its rows in the current mode, or its error with the caret and the hint.
 *
 * Errors go to stderr as
 *
 *     script.sql:14: Error: syntax error at line 2, column 8: expected an expression, found 'FROM'
 *     SELECT a,
 *            ^
 *     Hint: ...
 *
 * where "script.sql:14: " (the file and the line of the error in it) appears only for scripts;
 * the message's own line and column count from the start of the statement.
 *
 * Ctrl-C while a statement runs cancels it (deltalite_interrupt from a SIGINT handler, which
 * only stores a flag); the statement fails with "interrupted" and changes nothing. At an
 * interactive prompt the shell then reads the next statement; running a script or a pipe it
 * stops there (exit status 1). A Ctrl-C that arrives after the statement's commit landed does
 * not undo it: the statement is reported as it completed, and the statements after it are not
 * run (a script then stops, with exit status 1 when some were left). Outside statements SIGINT
 * keeps its usual effect.
 */
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "shell/shell_int.h"
#include "sql/parse/sql_parse.h"

int32_t
dl_shell_terminal_width(void) {
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
        return (int32_t)ws.ws_col;
    }
    return 0;
}

static bool
is_numeric_type(deltalite_type t) {
    return t >= DELTALITE_TYPE_BYTE && t <= DELTALITE_TYPE_DECIMAL;
}

static int64_t
count_lines(const char *s, size_t len) {
    int64_t n = 0;
    for (size_t i = 0; i < len; i++) {
        n += s[i] == '\n' ? 1 : 0;
    }
    return n;
}

void
dl_shell_print_error(dl_shell *sh, const char *source, int64_t first_line) {
    deltalite_db *db = sh->db;
    if (source != NULL) {
        int64_t line =
            first_line + (deltalite_error_line(db) > 0 ? deltalite_error_line(db) - 1 : 0);
        (void)fprintf(sh->err, "%s:%lld: ", source, (long long)line);
    }
    (void)fprintf(sh->err, "Error: %s\n", deltalite_error_message(db));
    const char *caret = deltalite_error_caret(db);
    if (caret[0] != '\0') {
        (void)fprintf(sh->err, "%s\n", caret);
    }
    const char *hint = deltalite_error_hint(db);
    if (hint[0] != '\0') {
        (void)fprintf(sh->err, "Hint: %s\n", hint);
    }
    (void)fflush(sh->err);
}

/* One result's columns and the current row's cells as the renderers take them. */
typedef struct result_view {
    int32_t n_cols;
    dl_shell_mode mode;
    dl_shell_col *cols;
    const char **cells;
    size_t *lens;    /* each cell's bytes (a string may hold NUL bytes) */
    bool *is_binary; /* per column: shown escaped (box, CSV, Markdown) */
    dl_buf *shown;   /* per column: the cell rewritten for display, when it needs that */
} result_view;

static bool
is_nested_type(deltalite_type t) {
    return t == DELTALITE_TYPE_STRUCT || t == DELTALITE_TYPE_ARRAY || t == DELTALITE_TYPE_MAP;
}

static bool
is_json_mode(dl_shell_mode mode) {
    return mode == DL_SHELL_MODE_JSON || mode == DL_SHELL_MODE_JSONLINES;
}

static bool
view_init(result_view *v, deltalite_result *r, dl_shell_mode mode) {
    v->n_cols = deltalite_result_column_count(r);
    v->mode = mode;
    size_t n = (size_t)v->n_cols + 1;
    v->cols = dl_mem_alloc_zero(NULL, n * sizeof(dl_shell_col));
    v->cells = dl_mem_alloc_zero(NULL, n * sizeof(char *));
    v->lens = dl_mem_alloc_zero(NULL, n * sizeof(size_t));
    v->is_binary = dl_mem_alloc_zero(NULL, n * sizeof(bool));
    v->shown = dl_mem_alloc_zero(NULL, n * sizeof(dl_buf));
    if (v->cols == NULL || v->cells == NULL || v->lens == NULL || v->is_binary == NULL ||
        v->shown == NULL) {
        return false;
    }
    for (int32_t i = 0; i < v->n_cols; i++) {
        deltalite_type t = deltalite_result_column_type(r, i);
        bool is_json_text = is_nested_type(t) || t == DELTALITE_TYPE_BINARY; /* binary: base64 */
        v->cols[i] = (dl_shell_col){.name = deltalite_result_column_name(r, i),
                                    .type = deltalite_result_column_type_name(r, i),
                                    .is_numeric = is_numeric_type(t),
                                    .is_boolean = t == DELTALITE_TYPE_BOOLEAN,
                                    .is_json = is_json_mode(mode) && is_json_text,
                                    .kind = t};
        v->is_binary[i] =
            t == DELTALITE_TYPE_BINARY && !is_json_mode(mode) && mode != DL_SHELL_MODE_INSERT;
        dl_buf_init(&v->shown[i], NULL);
    }
    return true;
}

static void
view_destroy(result_view *v) {
    size_t n = (size_t)v->n_cols + 1;
    for (int32_t i = 0; v->shown != NULL && i < v->n_cols; i++) {
        dl_buf_destroy(&v->shown[i]);
    }
    dl_mem_free(NULL, v->cols, n * sizeof(dl_shell_col));
    dl_mem_free(NULL, v->cells, n * sizeof(char *));
    dl_mem_free(NULL, v->lens, n * sizeof(size_t));
    dl_mem_free(NULL, v->is_binary, n * sizeof(bool));
    dl_mem_free(NULL, v->shown, n * sizeof(dl_buf));
}

/*
 * Rewrites cell i for display into v->shown[i] when it needs it:
 *   binary   as DuckDB shows blobs: printable ASCII as it is, every other byte (and '\', '"',
 *            '\'') as \xNN (JSON mode has it in base64 instead, as to_json);
 *   strings  holding NUL bytes, in the modes that show text (all but CSV, JSON and insert):
 *            each NUL as \x00, as box mode shows every control character (CSV writes the
 *            bytes, JSON \u0000, insert \0).
 */
static dl_status
display_cell(result_view *v, int32_t i) {
    const uint8_t *p = (const uint8_t *)v->cells[i];
    size_t len = v->lens[i];
    bool is_text_mode =
        v->mode != DL_SHELL_MODE_CSV && !is_json_mode(v->mode) && v->mode != DL_SHELL_MODE_INSERT;
    if (p == NULL || (!v->is_binary[i] && !(is_text_mode && memchr(p, '\0', len) != NULL))) {
        return DL_OK;
    }
    dl_buf *out = &v->shown[i];
    dl_buf_reset(out);
    for (size_t k = 0; k < len; k++) {
        bool is_plain = v->is_binary[i] ? p[k] >= 0x20 && p[k] < 0x7f && p[k] != '\\' &&
                                              p[k] != '"' && p[k] != '\''
                                        : p[k] != '\0';
        DL_TRY(is_plain ? dl_buf_append_byte(out, p[k], NULL)
                        : dl_buf_appendf(out, NULL, "\\x%02X", (unsigned)p[k]));
    }
    v->cells[i] = dl_buf_cstr(out);
    v->lens[i] = out->len;
    return DL_OK;
}

/* Moves to the next row and fetches its cells as text. */
static deltalite_status
next_cells(deltalite_result *r, result_view *v, bool *out_has_row) {
    deltalite_status ds = deltalite_result_next_row(r, out_has_row);
    for (int32_t i = 0; ds == DELTALITE_OK && *out_has_row && i < v->n_cols; i++) {
        ds = v->cols[i].is_json && !deltalite_result_is_null(r, i)
                 ? deltalite_result_get_json(r, i, &v->cells[i], &v->lens[i])
                 : deltalite_result_get_text(r, i, &v->cells[i], &v->lens[i]);
        if (ds == DELTALITE_OK && display_cell(v, i) != DL_OK) {
            (void)fprintf(stderr, "Error: out of memory showing a value\n");
            ds = DELTALITE_ERROR_NOMEM;
        }
    }
    return ds;
}

/* Box mode shows every row (.maxrows -1, and output that is not a terminal) in boxes of this
 * many rows, each drawn as soon as its rows arrived: memory stays bounded and the first rows
 * appear while the query runs. */
#define BOX_SECTION_ROWS 1000

static dl_shell_box_opts
box_opts(const dl_shell *sh) {
    return (dl_shell_box_opts){.max_width = sh->max_width,
                               .is_ascii = sh->mode == DL_SHELL_MODE_TABLE,
                               .no_header = !sh->headers,
                               .null_text = sh->has_null_text ? sh->null_text : NULL,
                               .widths = sh->widths,
                               .n_widths = sh->n_widths};
}

/* After the first rows of a box were drawn: every other row drawn as it comes (.maxrows -1),
 * or kept in the grid's tail ring and counted. */
static deltalite_status
stream_rest(dl_shell *sh, deltalite_result *r, result_view *v, dl_shell_grid *g,
            dl_shell_box_stream *bs, dl_status *st, dl_error *err) {
    bool has_row = true;
    deltalite_status ds = DELTALITE_OK;
    while (*st == DL_OK && (ds = next_cells(r, v, &has_row)) == DELTALITE_OK && has_row) {
        *st = sh->max_rows < 0 ? dl_shell_box_stream_row(bs, v->cells, err)
                               : dl_shell_grid_add(g, v->cells, err);
    }
    return ds;
}

/*
 * A box on a terminal: the first rows (the head .maxrows keeps, or a section of
 * BOX_SECTION_ROWS with .maxrows -1) size the columns and are drawn as soon as they arrived;
 * the others follow as they come (.maxrows -1) or, as the last rows, when the result ends. A
 * result that ends within its first rows is drawn as print_box draws it.
 */
static deltalite_status
print_box_live(dl_shell *sh, deltalite_result *r, result_view *v) {
    dl_shell_box_opts opts = box_opts(sh);
    dl_shell_grid g;
    dl_shell_grid_init(&g, NULL, v->cols, v->n_cols, sh->max_rows);
    int64_t first = sh->max_rows < 0 ? BOX_SECTION_ROWS : DL_MAX(g.head_cap, 1);
    bool has_row = true;
    deltalite_status ds = DELTALITE_OK;
    dl_error err;
    dl_error_clear(&err);
    dl_status st = DL_OK;
    while (st == DL_OK && g.n_rows < first && (ds = next_cells(r, v, &has_row)) == DELTALITE_OK &&
           has_row) {
        st = dl_shell_grid_add(&g, v->cells, &err);
    }
    dl_shell_progress_stop(sh);
    if (st == DL_OK && ds == DELTALITE_OK && !has_row) {
        st = dl_shell_render_box(sh->out, &g, &opts, &err);
    } else if (st == DL_OK && ds == DELTALITE_OK) {
        dl_shell_box_stream *bs = NULL;
        st = dl_shell_box_stream_begin(sh->out, &g, &opts, &bs, &err);
        (void)fflush(sh->out);
        if (st == DL_OK) {
            ds = stream_rest(sh, r, v, &g, bs, &st, &err);
        }
        dl_status end = dl_shell_box_stream_end(bs, &err); /* closes the box, also after errors */
        st = st == DL_OK ? end : st;
    }
    (void)fflush(sh->out);
    dl_shell_grid_destroy(&g);
    if (st != DL_OK) {
        (void)fprintf(sh->err, "Error: %s\n", err.msg);
        return DELTALITE_ERROR_NOMEM;
    }
    return ds;
}

/*
 * Collects rows into a grid and draws it; with every row asked for, one box per section of
 * BOX_SECTION_ROWS rows (a result that fits one section looks as it always did). On a terminal
 * the box is drawn while the rows arrive (print_box_live).
 */
static deltalite_status
print_box(dl_shell *sh, deltalite_result *r, result_view *v) {
    if (isatty(fileno(sh->out))) {
        return print_box_live(sh, r, v);
    }
    bool is_sectioned = sh->max_rows < 0;
    dl_shell_box_opts opts = box_opts(sh);
    bool has_row = true;
    deltalite_status ds = DELTALITE_OK;
    dl_error err;
    dl_error_clear(&err);
    dl_status st = DL_OK;
    int64_t n_sections = 0;
    while (st == DL_OK && ds == DELTALITE_OK && (has_row || n_sections == 0)) {
        dl_shell_grid g;
        dl_shell_grid_init(&g, NULL, v->cols, v->n_cols, sh->max_rows);
        while (st == DL_OK && (!is_sectioned || g.n_rows < BOX_SECTION_ROWS) &&
               (ds = next_cells(r, v, &has_row)) == DELTALITE_OK && has_row) {
            st = dl_shell_grid_add(&g, v->cells, &err);
        }
        dl_shell_progress_stop(sh);
        if (st == DL_OK && ds == DELTALITE_OK && (g.n_rows > 0 || n_sections == 0)) {
            st = dl_shell_render_box(sh->out, &g, &opts, &err);
            (void)fflush(sh->out);
        }
        n_sections++;
        has_row = has_row && g.n_rows == BOX_SECTION_ROWS;
        dl_shell_grid_destroy(&g);
    }
    if (st != DL_OK) {
        (void)fprintf(sh->err, "Error: %s\n", err.msg);
        return DELTALITE_ERROR_NOMEM;
    }
    return ds;
}

static deltalite_status
print_stream(dl_shell *sh, deltalite_result *r, result_view *v) {
    dl_shell_stream s;
    dl_shell_stream_opts opts = {.no_header = !sh->headers,
                                 .null_text = sh->has_null_text ? sh->null_text : NULL,
                                 .table_name = sh->insert_table[0] ? sh->insert_table : NULL};
    bool has_row = false;
    deltalite_status ds = next_cells(r, v, &has_row); /* the work before the first row */
    dl_shell_progress_stop(sh);
    dl_shell_stream_begin(&s, sh->out, sh->mode, v->cols, v->n_cols, &opts);
    while (ds == DELTALITE_OK && has_row) {
        dl_shell_stream_row(&s, v->cells, v->lens);
        ds = next_cells(r, v, &has_row);
    }
    dl_shell_stream_end(&s);
    return ds;
}

/* Insert mode has no literal for nested values: says which column, before any row is read. */
static bool
can_show(dl_shell *sh, deltalite_result *r) {
    int32_t n = deltalite_result_column_count(r);
    for (int32_t i = 0; sh->mode == DL_SHELL_MODE_INSERT && i < n; i++) {
        if (!dl_shell_insert_can_write(deltalite_result_column_type(r, i))) {
            dl_shell_progress_stop(sh);
            (void)fprintf(sh->err,
                          "Error: insert mode cannot write column '%s' of type %s: the shell "
                          "has no SQL literal for nested values\n"
                          "Hint: .mode json writes them; or select the fields you need\n",
                          deltalite_result_column_name(r, i),
                          deltalite_result_column_type_name(r, i));
            return false;
        }
    }
    return true;
}

/* Whether the result is the row counts of a DML statement (which .changes off hides). */
static bool
is_counts(const deltalite_result *r) {
    static const char *const dml[] = {"INSERT", "UPDATE", "DELETE", "MERGE"};
    const char *kind = deltalite_result_statement(r);
    for (size_t i = 0; i < DL_ARRAY_LEN(dml); i++) {
        if (strcmp(kind, dml[i]) == 0) {
            return true;
        }
    }
    return false;
}

/* Prints a result in the current mode; statements without columns print nothing, and with
 * .changes off neither do the counts of DML. */
static deltalite_status
print_result(dl_shell *sh, deltalite_result *r) {
    result_view v;
    if (!view_init(&v, r, sh->mode)) {
        view_destroy(&v);
        (void)fprintf(sh->err, "Error: out of memory\n");
        return DELTALITE_ERROR_NOMEM;
    }
    deltalite_status ds = DELTALITE_OK;
    if (v.n_cols == 0 || (!sh->changes && is_counts(r))) {
        bool has_row = true;
        while (ds == DELTALITE_OK && has_row) {
            ds = deltalite_result_next_row(r, &has_row);
        }
    } else if (dl_shell_mode_is_grid(sh->mode)) {
        ds = print_box(sh, r, &v);
    } else {
        ds = print_stream(sh, r, &v);
    }
    view_destroy(&v);
    (void)fflush(sh->out);
    return ds;
}

/* Real, user and system seconds so far (user and system of this process, all its threads). */
typedef struct run_clock {
    double real, user, sys;
} run_clock;

static double
timeval_seconds(struct timeval tv) {
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static run_clock
clock_now(void) {
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    run_clock c = {.real = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9};
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        c.user = timeval_seconds(ru.ru_utime);
        c.sys = timeval_seconds(ru.ru_stime);
    }
    return c;
}

/* The handle a SIGINT cancels while a statement runs (one shell per process). */
static deltalite_db *volatile interrupt_db;

/* Set by a SIGINT during a statement, which may still complete (its commit had landed). */
static volatile sig_atomic_t got_sigint;

static void
on_sigint(int sig) {
    (void)sig;
    got_sigint = 1;
    deltalite_interrupt(interrupt_db);
}

/* Runs one statement; prints its result or its error. */
static bool
run_statement(dl_shell *sh, const char *sql, size_t len, const char *source, int64_t line) {
    if (sh->echo) {
        (void)fprintf(sh->out, "%.*s\n", (int)len, sql);
    }
    run_clock start = clock_now();
    if (sh->is_width_auto) {
        sh->max_width = dl_shell_terminal_width(); /* the terminal may have been resized */
    }
    /* SA_RESTART: a write blocked on a full pipe resumes rather than losing output. */
    struct sigaction on = {.sa_handler = on_sigint, .sa_flags = SA_RESTART};
    struct sigaction before;
    (void)sigemptyset(&on.sa_mask);
    interrupt_db = sh->db;
    got_sigint = 0;
    bool is_caught = sigaction(SIGINT, &on, &before) == 0;
    deltalite_result *r = NULL;
    dl_shell_progress_start(sh);
    deltalite_status ds = deltalite_query_len(sh->db, sql, len, &r);
    bool is_shown = ds != DELTALITE_OK || can_show(sh, r);
    if (ds == DELTALITE_OK && is_shown) {
        ds = print_result(sh, r);
    }
    deltalite_result_free(r);
    dl_shell_progress_stop(sh); /* statements without rows, and failures */
    if (is_caught) {
        (void)sigaction(SIGINT, &before, NULL);
    }
    interrupt_db = NULL;
    if (!is_shown) {
        sh->n_failed++; /* can_show said why */
        return false;
    }
    if (ds != DELTALITE_OK) {
        dl_shell_print_error(sh, source, line);
        sh->n_failed++;
        if (ds == DELTALITE_ERROR_INTERRUPTED) {
            sh->is_interrupted = true;
            sh->should_quit = !sh->is_interactive; /* Ctrl-C stops a script, not one statement */
        }
        return false;
    }
    if (sh->timer) {
        run_clock end = clock_now();
        (void)fprintf(sh->out, "Run Time (s): real %.3f user %.6f sys %.6f\n",
                      end.real - start.real, end.user - start.user, end.sys - start.sys);
    }
    if (got_sigint) {
        /* Ctrl-C came too late to cancel the statement (its commit had landed): it is reported
         * as done, and nothing after it runs. */
        sh->is_interrupted = true;
        sh->is_late_interrupt = true;
        sh->should_quit = !sh->is_interactive;
    }
    return true;
}

void
dl_shell_note_skipped(dl_shell *sh) {
    (void)fprintf(sh->err, "Interrupted: the statement before had completed (Ctrl-C came too late "
                           "to cancel it); the statements after it were not run\n");
    sh->n_failed++;
    sh->is_late_interrupt = false;
}

bool
dl_shell_run_sql(dl_shell *sh, const char *sql, size_t len, const char *source,
                 int64_t first_line) {
    dl_sql_splitter sp;
    dl_sql_splitter_init(&sp, sql, len);
    dl_sql_piece piece;
    bool ok = true;
    sh->is_interrupted = false;
    sh->is_late_interrupt = false;
    while (dl_sql_splitter_next(&sp, &piece)) {
        if (sh->is_late_interrupt) {
            dl_shell_note_skipped(sh);
            return false;
        }
        int64_t line = first_line + count_lines(sql, piece.offset);
        bool is_run = run_statement(sh, sql + piece.offset, piece.len, source, line);
        dl_shell_output_after_statement(sh);
        if (!is_run) {
            ok = false;
            if (sh->bail || sh->should_quit || sh->is_interrupted) {
                break; /* after Ctrl-C, not the rest of the line either */
            }
        }
    }
    return ok;
}
