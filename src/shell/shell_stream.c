/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The streaming output formats: each row is written as it arrives, so any number of rows
 * costs constant memory.
 *
 * CSV (RFC 4180): a header of column names, then one line per row, fields separated by ','
 * and lines ended by "\n". A field is quoted ("...", with '"' doubled) when it holds ',', '"',
 * CR or LF, and when it is the empty string, so that an empty string ("") and NULL (nothing)
 * stay apart. Values are written byte for byte, NUL bytes included.
 *
 * JSON: an array with one object per row, one object per line; keys are the column names.
 * Numbers and booleans are bare (NaN and infinities, which JSON lacks, are strings), NULL is
 * null, everything else a string (dates, timestamps, decimals' scale kept only in the text of
 * numbers, nested values as their Spark text); a NUL byte is \u0000, binary is base64.
 *
 * JSON lines (NDJSON): the same objects, one per line, without the array around them.
 *
 * Markdown (GitHub's tables): a header row, a delimiter row (`---:` for numbers), then the
 * rows; '|' in a value is written `\|` and a line break `<br>`; NULL is NULL. (The caller
 * shows NUL bytes and binary values escaped, as \xNN.)
 *
 * List and tabs: a header line of names, then one line per row, values separated by '|' or a
 * tab, written as they are (sqlite3's list and tabs modes). Line: each value on its own line as
 * "name = value", names right-aligned, a blank line between rows. HTML: a <table> with a <th>
 * row of names, one <tr> per row, & < > " ' written as entities. NULL is shown as NULL (or the
 * .nullvalue text) in these, as in box mode; CSV writes nothing for it unless .nullvalue says.
 *
 * Insert: one `INSERT INTO t VALUES (...);` per row, each value a Spark SQL literal of its
 * column's type that reads back as the same value: numbers and booleans bare, strings quoted
 * with \' and \\ escaped, binary X'hex', DATE '...', TIMESTAMP '...' (in the session time zone,
 * which reads it back), TIMESTAMP_NTZ '...', NaN and infinities as CAST('NaN' AS DOUBLE),
 * intervals as their literal. Nested types have no literal here: the shell refuses them.
 */
#include <string.h>
#include <strings.h>

#include "shell/shell_int.h"

static const char *const mode_names[] = {"box",  "csv",  "json",      "markdown", "table", "line",
                                         "list", "tabs", "jsonlines", "html",     "insert"};

bool
dl_shell_mode_parse(const char *name, dl_shell_mode *out) {
    for (size_t i = 0; i < DL_ARRAY_LEN(mode_names); i++) {
        if (strcasecmp(name, mode_names[i]) == 0) {
            *out = (dl_shell_mode)i;
            return true;
        }
    }
    return false;
}

const char *
dl_shell_mode_list(void) {
    return "box, csv, json, markdown, table, line, list, tabs, jsonlines, html, insert";
}

bool
dl_shell_mode_is_grid(dl_shell_mode mode) {
    return mode == DL_SHELL_MODE_BOX || mode == DL_SHELL_MODE_TABLE;
}

const char *
dl_shell_mode_name(dl_shell_mode mode) {
    return (size_t)mode < DL_ARRAY_LEN(mode_names) ? mode_names[mode] : "?";
}

/* ---- CSV --------------------------------------------------------------------------------- */

static void
csv_field(FILE *out, const char *s, size_t len) {
    if (s == NULL) {
        return;
    }
    bool is_quoted = len == 0;
    for (size_t i = 0; i < len && !is_quoted; i++) {
        is_quoted = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
    }
    if (!is_quoted) {
        (void)fwrite(s, 1, len, out);
        return;
    }
    (void)fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '"') {
            (void)fputc('"', out);
        }
        (void)fputc(s[i], out);
    }
    (void)fputc('"', out);
}

/* Cell i's length: lens[i], or its strlen without lens. */
static size_t
cell_len(const char *const *cells, const size_t *lens, int32_t i) {
    if (cells[i] == NULL) {
        return 0;
    }
    return lens != NULL ? lens[i] : strlen(cells[i]);
}

static void
csv_row(const dl_shell_stream *s, const char *const *cells, const size_t *lens) {
    for (int32_t i = 0; i < s->n_cols; i++) {
        if (i > 0) {
            (void)fputc(',', s->out);
        }
        if (cells[i] == NULL && s->null_text != NULL) {
            csv_field(s->out, s->null_text, strlen(s->null_text));
        } else {
            csv_field(s->out, cells[i], cell_len(cells, lens, i));
        }
    }
    (void)fputc('\n', s->out);
}

/* ---- JSON -------------------------------------------------------------------------------- */

static void
json_string(FILE *out, const char *s, size_t len) {
    (void)fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        uint8_t c = (uint8_t)s[i];
        switch (c) {
        case '"':
            (void)fputs("\\\"", out);
            break;
        case '\\':
            (void)fputs("\\\\", out);
            break;
        case '\n':
            (void)fputs("\\n", out);
            break;
        case '\r':
            (void)fputs("\\r", out);
            break;
        case '\t':
            (void)fputs("\\t", out);
            break;
        default:
            if (c < 0x20) {
                (void)fprintf(out, "\\u%04x", (unsigned)c);
            } else {
                (void)fputc(c, out);
            }
        }
    }
    (void)fputc('"', out);
}

static bool
is_json_number(const char *s) {
    return strcmp(s, "NaN") != 0 && strcmp(s, "Infinity") != 0 && strcmp(s, "-Infinity") != 0;
}

static void
json_row(const dl_shell_stream *s, dl_shell_row cells, const size_t *lens) {
    (void)fputc('{', s->out);
    for (int32_t i = 0; i < s->n_cols; i++) {
        if (i > 0) {
            (void)fputc(',', s->out);
        }
        json_string(s->out, s->cols[i].name, strlen(s->cols[i].name));
        (void)fputc(':', s->out);
        const char *v = cells[i];
        bool is_bare = s->cols[i].is_json || s->cols[i].is_boolean ||
                       (s->cols[i].is_numeric && is_json_number(v ? v : ""));
        if (v == NULL) {
            (void)fputs("null", s->out);
        } else if (is_bare) {
            (void)fwrite(v, 1, cell_len(cells, lens, i), s->out);
        } else {
            json_string(s->out, v, cell_len(cells, lens, i));
        }
    }
    (void)fputc('}', s->out);
}

/* ---- Markdown ---------------------------------------------------------------------------- */

static void
md_cell(FILE *out, const char *s) {
    (void)fputc(' ', out);
    for (const char *p = s; *p != '\0'; p++) {
        if (*p == '|') {
            (void)fputs("\\|", out);
        } else if (*p == '\n') {
            (void)fputs("<br>", out);
        } else if (*p != '\r') {
            (void)fputc(*p, out);
        }
    }
    (void)fputs(" |", out);
}

static void
md_header(const dl_shell_stream *s) {
    (void)fputc('|', s->out);
    for (int32_t i = 0; i < s->n_cols; i++) {
        md_cell(s->out, s->cols[i].name);
    }
    (void)fputs("\n|", s->out);
    for (int32_t i = 0; i < s->n_cols; i++) {
        (void)fputs(s->cols[i].is_numeric ? "---:|" : "---|", s->out);
    }
    (void)fputc('\n', s->out);
}

/* ---- list, tabs, line, HTML -------------------------------------------------------------- */

static const char *
shown_null(const dl_shell_stream *s) {
    return s->null_text != NULL ? s->null_text : "NULL";
}

static void
separated_line(const dl_shell_stream *s, const char *const *cells, char sep) {
    for (int32_t i = 0; i < s->n_cols; i++) {
        if (i > 0) {
            (void)fputc(sep, s->out);
        }
        (void)fputs(cells[i] != NULL ? cells[i] : shown_null(s), s->out);
    }
    (void)fputc('\n', s->out);
}

static void
line_row(const dl_shell_stream *s, dl_shell_row cells) {
    size_t width = 0;
    for (int32_t i = 0; i < s->n_cols; i++) {
        size_t len = strlen(s->cols[i].name);
        width = DL_MAX(width, dl_shell_text_width(s->cols[i].name, len));
    }
    if (s->n_rows > 0) {
        (void)fputc('\n', s->out);
    }
    for (int32_t i = 0; i < s->n_cols; i++) {
        const char *name = s->cols[i].name;
        size_t w = dl_shell_text_width(name, strlen(name));
        (void)fprintf(s->out, "%*s%s = %s\n", (int)(width - w), "", name,
                      cells[i] != NULL ? cells[i] : shown_null(s));
    }
}

static void
html_text(FILE *out, const char *text) {
    for (const char *p = text; *p != '\0'; p++) {
        switch (*p) {
        case '&':
            (void)fputs("&amp;", out);
            break;
        case '<':
            (void)fputs("&lt;", out);
            break;
        case '>':
            (void)fputs("&gt;", out);
            break;
        case '"':
            (void)fputs("&quot;", out);
            break;
        case '\'':
            (void)fputs("&#39;", out);
            break;
        default:
            (void)fputc(*p, out);
        }
    }
}

static void
html_line(const dl_shell_stream *s, const char *const *cells, const char *tag) {
    (void)fputs("<tr>", s->out);
    for (int32_t i = 0; i < s->n_cols; i++) {
        (void)fprintf(s->out, "<%s>", tag);
        html_text(s->out, cells[i] != NULL ? cells[i] : shown_null(s));
        (void)fprintf(s->out, "</%s>", tag);
    }
    (void)fputs("</tr>\n", s->out);
}

/* ---- insert ------------------------------------------------------------------------------ */

static void
sql_string(FILE *out, const char *v, size_t len) {
    (void)fputc('\'', out);
    for (size_t i = 0; i < len; i++) {
        if (v[i] == '\'' || v[i] == '\\') {
            (void)fputc('\\', out);
            (void)fputc(v[i], out);
        } else if (v[i] == '\0') {
            (void)fputs("\\0", out);
        } else {
            (void)fputc(v[i], out);
        }
    }
    (void)fputc('\'', out);
}

static void
sql_literal(FILE *out, const dl_shell_col *col, const char *v, size_t len) {
    if (v == NULL) {
        (void)fputs("NULL", out);
        return;
    }
    switch (col->kind) {
    case DELTALITE_TYPE_FLOAT:
    case DELTALITE_TYPE_DOUBLE:
        if (!is_json_number(v)) {
            (void)fprintf(out, "CAST('%s' AS %s)", v, col->type);
            return;
        }
        (void)fwrite(v, 1, len, out);
        return;
    case DELTALITE_TYPE_BINARY:
        (void)fputs("X'", out);
        for (size_t i = 0; i < len; i++) {
            (void)fprintf(out, "%02X", (unsigned)(uint8_t)v[i]);
        }
        (void)fputc('\'', out);
        return;
    case DELTALITE_TYPE_STRING:
        sql_string(out, v, len);
        return;
    case DELTALITE_TYPE_DATE:
    case DELTALITE_TYPE_TIMESTAMP:
    case DELTALITE_TYPE_TIMESTAMP_NTZ:
        (void)fputs(col->kind == DELTALITE_TYPE_DATE        ? "DATE "
                    : col->kind == DELTALITE_TYPE_TIMESTAMP ? "TIMESTAMP "
                                                            : "TIMESTAMP_NTZ ",
                    out);
        sql_string(out, v, len);
        return;
    default: /* numbers, booleans, intervals: their text is their literal */
        (void)fwrite(v, 1, len, out);
    }
}

static void
insert_row(const dl_shell_stream *s, dl_shell_row cells, const size_t *lens) {
    (void)fprintf(s->out, "INSERT INTO %s VALUES (", s->table_name ? s->table_name : "tbl");
    for (int32_t i = 0; i < s->n_cols; i++) {
        if (i > 0) {
            (void)fputs(", ", s->out);
        }
        sql_literal(s->out, &s->cols[i], cells[i], cell_len(cells, lens, i));
    }
    (void)fputs(");\n", s->out);
}

bool
dl_shell_insert_can_write(deltalite_type t) {
    return t != DELTALITE_TYPE_STRUCT && t != DELTALITE_TYPE_ARRAY && t != DELTALITE_TYPE_MAP;
}

/* ---- the stream -------------------------------------------------------------------------- */

static void
header_names(const dl_shell_stream *s, char sep) {
    for (int32_t i = 0; i < s->n_cols; i++) {
        if (i > 0) {
            (void)fputc(sep, s->out);
        }
        if (sep == ',') {
            csv_field(s->out, s->cols[i].name, strlen(s->cols[i].name));
        } else {
            (void)fputs(s->cols[i].name, s->out);
        }
    }
    (void)fputc('\n', s->out);
}

static void
html_header(const dl_shell_stream *s) {
    (void)fputs("<table>\n", s->out);
    if (s->no_header) {
        return;
    }
    (void)fputs("<tr>", s->out);
    for (int32_t i = 0; i < s->n_cols; i++) {
        (void)fputs("<th>", s->out);
        html_text(s->out, s->cols[i].name);
        (void)fputs("</th>", s->out);
    }
    (void)fputs("</tr>\n", s->out);
}

void
dl_shell_stream_begin(dl_shell_stream *s, FILE *out, dl_shell_mode mode, const dl_shell_col *cols,
                      int32_t n_cols, const dl_shell_stream_opts *opts) {
    *s = (dl_shell_stream){.out = out, .mode = mode, .cols = cols, .n_cols = n_cols};
    if (opts != NULL) {
        s->no_header = opts->no_header;
        s->null_text = opts->null_text;
        s->table_name = opts->table_name;
    }
    if (n_cols == 0) {
        return;
    }
    switch (mode) {
    case DL_SHELL_MODE_CSV:
    case DL_SHELL_MODE_LIST:
    case DL_SHELL_MODE_TABS:
        if (!s->no_header) {
            char sep = '\t';
            if (mode == DL_SHELL_MODE_CSV) {
                sep = ',';
            } else if (mode == DL_SHELL_MODE_LIST) {
                sep = '|';
            }
            header_names(s, sep);
        }
        break;
    case DL_SHELL_MODE_MARKDOWN:
        if (!s->no_header) {
            md_header(s);
        }
        break;
    case DL_SHELL_MODE_JSON:
        (void)fputc('[', out);
        break;
    case DL_SHELL_MODE_HTML:
        html_header(s);
        break;
    default:
        break;
    }
}

void
dl_shell_stream_row(dl_shell_stream *s, dl_shell_row cells, const size_t *lens) {
    if (s->n_cols == 0) {
        return;
    }
    switch (s->mode) {
    case DL_SHELL_MODE_CSV:
        csv_row(s, cells, lens);
        break;
    case DL_SHELL_MODE_MARKDOWN:
        (void)fputc('|', s->out);
        for (int32_t i = 0; i < s->n_cols; i++) {
            md_cell(s->out, cells[i] ? cells[i] : shown_null(s));
        }
        (void)fputc('\n', s->out);
        break;
    case DL_SHELL_MODE_JSON:
        (void)fputs(s->n_rows == 0 ? "\n" : ",\n", s->out);
        json_row(s, cells, lens);
        break;
    case DL_SHELL_MODE_JSONLINES:
        json_row(s, cells, lens);
        (void)fputc('\n', s->out);
        break;
    case DL_SHELL_MODE_LIST:
        separated_line(s, cells, '|');
        break;
    case DL_SHELL_MODE_TABS:
        separated_line(s, cells, '\t');
        break;
    case DL_SHELL_MODE_LINE:
        line_row(s, cells);
        break;
    case DL_SHELL_MODE_HTML:
        html_line(s, cells, "td");
        break;
    case DL_SHELL_MODE_INSERT:
        insert_row(s, cells, lens);
        break;
    default: /* box and table are drawn from a grid */
        break;
    }
    s->n_rows++;
}

void
dl_shell_stream_end(dl_shell_stream *s) {
    if (s->n_cols == 0) {
        return;
    }
    if (s->mode == DL_SHELL_MODE_JSON) {
        (void)fputs(s->n_rows == 0 ? "]\n" : "\n]\n", s->out);
    } else if (s->mode == DL_SHELL_MODE_HTML) {
        (void)fputs("</table>\n", s->out);
    }
    (void)fflush(s->out);
}
