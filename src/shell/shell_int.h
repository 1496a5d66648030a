/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The shell's private interface: output formats over rows of text, the grid that box mode
 * collects, and the shell's state. The program (shell_main.c) is a client of the public API
 * (include/deltalite.h) like any other: rows arrive as text from deltalite_result_get_text, so
 * the shell prints every value exactly as the API and the sqllogictest runner show it.
 */
#ifndef DL_SHELL_SHELL_INT_H
#define DL_SHELL_SHELL_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "deltalite.h"

#include "base/alloc.h"
#include "base/buf.h"

typedef enum dl_shell_mode {
    DL_SHELL_MODE_BOX = 0,   /* box-drawn table with names and types (the default) */
    DL_SHELL_MODE_CSV,       /* RFC 4180, a header line of names */
    DL_SHELL_MODE_JSON,      /* an array of objects, one per line */
    DL_SHELL_MODE_MARKDOWN,  /* a GitHub-flavoured Markdown table */
    DL_SHELL_MODE_TABLE,     /* an ASCII table (+---+), names only */
    DL_SHELL_MODE_LINE,      /* one "name = value" line per column, a blank line between rows */
    DL_SHELL_MODE_LIST,      /* values separated by '|' */
    DL_SHELL_MODE_TABS,      /* values separated by tabs */
    DL_SHELL_MODE_JSONLINES, /* one JSON object per line (NDJSON) */
    DL_SHELL_MODE_HTML,      /* an HTML <table> */
    DL_SHELL_MODE_INSERT,    /* INSERT INTO statements deltalite and Spark read back */
} dl_shell_mode;

/* The mode named name, in any case ("box", "CSV", ...); false when there is none. */
bool dl_shell_mode_parse(const char *name, dl_shell_mode *out);
const char *dl_shell_mode_name(dl_shell_mode mode);

/* Every mode's name, separated by ", " (for messages and .help). */
const char *dl_shell_mode_list(void);

/* Whether the mode collects the rows into a grid before drawing (box, table). */
bool dl_shell_mode_is_grid(dl_shell_mode mode);

/* One column of a result as the renderers see it. */
typedef struct dl_shell_col {
    const char *name;    /* the column name */
    const char *type;    /* Spark's spelling: "int", "decimal(10,2)" */
    bool is_numeric;     /* right-aligned in box and markdown, unquoted in JSON */
    bool is_boolean;     /* unquoted in JSON */
    bool is_json;        /* JSON mode, nested type: the cell holds JSON text (written as it is) */
    deltalite_type kind; /* the column's type (insert mode writes a literal of it) */
} dl_shell_col;

/* A row: n_cols cells, NULL for SQL NULL. */
typedef const char *const *dl_shell_row;

/*
 * The rows box mode shows: all of them, or the first head_cap and the last tail_cap when there
 * are more (the middle is elided with a row of dots). Rows are copied in.
 */
typedef struct dl_shell_grid {
    const dl_allocator *alloc;
    int32_t n_cols;
    const dl_shell_col *cols;
    int64_t n_rows;   /* rows added in total */
    int64_t head_cap; /* rows kept from the start (-1: keep every row) */
    int64_t tail_cap; /* rows kept from the end */
    char **head;      /* head rows (each one block: cell pointers then bytes) */
    int64_t n_head;
    int64_t cap_head;   /* slots in head */
    char **tail;        /* ring of tail_cap rows */
    int64_t n_tail;     /* rows in the ring */
    int64_t tail_start; /* index of the oldest ring row */
} dl_shell_grid;

/* max_rows < 0: keep every row; else keep max_rows rows (half from each end). */
void dl_shell_grid_init(dl_shell_grid *g, const dl_allocator *alloc, const dl_shell_col *cols,
                        int32_t n_cols, int64_t max_rows);
void dl_shell_grid_destroy(dl_shell_grid *g);
DL_NODISCARD dl_status dl_shell_grid_add(dl_shell_grid *g, dl_shell_row cells, dl_error *err);

/* The rows kept: n_head + n_tail of them, in order; i indexes them (0 = the first). */
int64_t dl_shell_grid_shown(const dl_shell_grid *g);
dl_shell_row dl_shell_grid_row(const dl_shell_grid *g, int64_t i);

/* Box rendering limits. */
typedef struct dl_shell_box_opts {
    int32_t max_width;     /* total width in columns (terminal width); 0 = unlimited */
    bool is_ascii;         /* table mode: + - | and no row of types */
    bool no_header;        /* leave out the names (and types) */
    const char *null_text; /* NULL shown as this; NULL = "NULL" */
    const int32_t *widths; /* n_widths column widths from .width (0 = natural) */
    int32_t n_widths;
} dl_shell_box_opts;

/* Writes the grid as a box-drawn table (shell_box.c describes the layout). */
DL_NODISCARD dl_status dl_shell_render_box(FILE *out, const dl_shell_grid *g,
                                           const dl_shell_box_opts *opts, dl_error *err);

/* A box drawn while its rows arrive: begin sizes the columns from the rows g holds, draws the
 * header and them; row draws one row not kept in g; end draws the rows g kept after begin (its
 * tail), with a gap when rows were left out, the footer, and frees the stream (NULL allowed).
 * g must outlive the stream. */
typedef struct dl_shell_box_stream dl_shell_box_stream;
DL_NODISCARD dl_status dl_shell_box_stream_begin(FILE *out, const dl_shell_grid *g,
                                                 const dl_shell_box_opts *opts,
                                                 dl_shell_box_stream **out_stream, dl_error *err);
DL_NODISCARD dl_status dl_shell_box_stream_row(dl_shell_box_stream *s, dl_shell_row row,
                                               dl_error *err);
DL_NODISCARD dl_status dl_shell_box_stream_end(dl_shell_box_stream *s, dl_error *err);

/* Streaming formats: a header, then one call per row, then the end. */
typedef struct dl_shell_stream {
    FILE *out;
    dl_shell_mode mode; /* any mode but box and table */
    int32_t n_cols;
    const dl_shell_col *cols;
    int64_t n_rows;         /* rows written */
    bool no_header;         /* leave out the header (CSV, list, tabs, Markdown, HTML) */
    const char *null_text;  /* NULL shown as this (NULL: the mode's own: nothing in CSV, else
                               "NULL") */
    const char *table_name; /* insert mode: INSERT INTO this (NULL: "tbl") */
} dl_shell_stream;

/* What a stream is asked to do besides its mode; NULL options = the defaults. */
typedef struct dl_shell_stream_opts {
    bool no_header;
    const char *null_text;
    const char *table_name;
} dl_shell_stream_opts;

void dl_shell_stream_begin(dl_shell_stream *s, FILE *out, dl_shell_mode mode,
                           const dl_shell_col *cols, int32_t n_cols,
                           const dl_shell_stream_opts *opts);
/* lens[i] is cell i's length (its bytes may include NUL); lens NULL: every cell's strlen. */
void dl_shell_stream_row(dl_shell_stream *s, dl_shell_row cells, const size_t *lens);
void dl_shell_stream_end(dl_shell_stream *s);

/* Whether insert mode has a literal for values of type t (nested types have none). */
bool dl_shell_insert_can_write(deltalite_type t);

/* Display width of UTF-8 text: one column per code point (East Asian wide characters count
 * one; combining marks count one). */
size_t dl_shell_text_width(const char *s, size_t len);

/* ---- the program's state ---------------------------------------------------------------- */

#define DL_SHELL_MAX_WIDTHS 64 /* .width: columns given a width */
#define DL_SHELL_PROMPT_CAP 128

typedef struct dl_shell {
    deltalite_db *db;
    const char *warehouse; /* as given (or the default) */
    dl_shell_mode mode;
    int64_t max_rows;       /* box mode: rows shown (-1 = all) */
    int32_t max_width;      /* box mode: width (0 = unlimited) */
    bool is_width_auto;     /* max_width follows the terminal's width (until .maxwidth) */
    bool is_interactive;    /* reading a terminal with a prompt */
    bool bail;              /* stop at the first failing statement */
    bool timer;             /* print each statement's run time */
    bool echo;              /* print each statement and dot-command before running it */
    bool changes;           /* show the row counts INSERT, UPDATE, DELETE and MERGE answer */
    bool progress;          /* draw a progress bar on long statements (stderr a terminal) */
    int64_t progress_ms;    /* after how long a statement gets the bar */
    bool headers;           /* column names in the output (every mode that has a header) */
    bool is_readonly;       /* the warehouse is open read-only (-readonly) */
    uint32_t open_flags;    /* DELTALITE_OPEN_* for .open */
    bool has_null_text;     /* .nullvalue was given (else each mode shows NULL its way) */
    char null_text[64];     /* how NULL is shown (not in JSON and insert, which have null) */
    char insert_table[128]; /* insert mode: the table named in INSERT INTO */
    int32_t widths[DL_SHELL_MAX_WIDTHS]; /* .width: box/table column widths (0 = natural) */
    int32_t n_widths;
    char prompt[DL_SHELL_PROMPT_CAP];      /* the prompt for a new statement */
    char prompt_cont[DL_SHELL_PROMPT_CAP]; /* the prompt while a statement continues */
    FILE *stdout_file;                     /* the program's standard output */
    bool is_once;                          /* .once: sh->out goes back after one statement */
    char out_path[1024];                   /* .output/.once file ("" = standard output) */
    bool should_quit;                      /* .quit was read, or Ctrl-C stopped a script */
    bool is_interrupted;    /* Ctrl-C cancelled the last statement, or came as it completed */
    bool is_late_interrupt; /* Ctrl-C came after the last statement's commit: it completed */
    int64_t n_failed;       /* statements that failed */
    FILE *out;              /* results */
    FILE *err;              /* errors and notes */
} dl_shell;

/*
 * Runs the SQL text (one or more statements; the text need not end with ';'), printing each
 * result in the shell's mode and each error with its caret and hint. source and first_line
 * place errors in scripts ("script.sql:14: Error: ..."); source NULL prints no place.
 * Returns false when a statement failed.
 */
bool dl_shell_run_sql(dl_shell *sh, const char *sql, size_t len, const char *source,
                      int64_t first_line);

/* The progress bar (shell_progress.c): started as a statement starts, stopped (and erased)
 * before anything is written about it. No-ops when it is off or stderr is no terminal. */
void dl_shell_progress_start(dl_shell *sh);
void dl_shell_progress_stop(dl_shell *sh);

/* The width of the terminal standard output is, or 0 when it is not a terminal. */
int32_t dl_shell_terminal_width(void);

/* Prints the last error of sh->db for a statement whose text starts at line first_line of
 * source (NULL: no place). */
void dl_shell_print_error(dl_shell *sh, const char *source, int64_t first_line);

/* After a Ctrl-C that came as a statement completed: says that the input after it is not run
 * (and counts that as a failure). */
void dl_shell_note_skipped(dl_shell *sh);

/* Runs a dot-command line (".mode csv"). Returns false when it failed. */
bool dl_shell_dot_command(dl_shell *sh, const char *line);

/* Whether line starts with the name of a dot-command (".mode", not ".5"). */
bool dl_shell_is_dot_command(const char *line);

/* The i-th name of the dot-commands ("" for a command without a second name; NULL past the
 * end): for completion. */
const char *dl_shell_dot_name(size_t i);

/* Prints "Error: <message>" to sh->err, counts a failure and returns false. */
bool dl_shell_fail(dl_shell *sh, const char *fmt, ...) DL_PRINTF(2, 3);

/* .output [FILE] and .once FILE (shell_output.c). */
bool dl_shell_cmd_output(dl_shell *sh, char **w, int n, const char *rest);

/* After a statement: ends a .once (results go back to where they went before). */
void dl_shell_output_after_statement(dl_shell *sh);

/* At exit: closes an output file. */
void dl_shell_output_close(dl_shell *sh);

/* Reads and runs SQL from f (a script, or the terminal when sh->is_interactive and f is
 * stdin). Returns false when a statement failed (with bail, it stops there). */
bool dl_shell_run_file(dl_shell *sh, FILE *f, const char *source);

/* The interactive loop with libedit, history in ~/.deltalite_history. */
void dl_shell_interactive(dl_shell *sh);

/* Tab completion (shell_complete.c): set up for sh's warehouse; the statement lines typed
 * before the current one (for the tables it names; valid until the next call); released. */
void dl_shell_complete_init(dl_shell *sh);
void dl_shell_complete_pending(const char *text, size_t len);
void dl_shell_complete_destroy(void);

#endif /* DL_SHELL_SHELL_INT_H */
