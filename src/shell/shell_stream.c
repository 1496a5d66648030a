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
 * Markdown (GitHub's tables): a header row, a delimiter row (`---:` for numbers), then the
 * rows; '|' in a value is written `\|` and a line break `<br>`; NULL is NULL. (The caller
 * shows NUL bytes and binary values escaped, as \xNN.)
 */
#include <string.h>

#include "shell/shell_int.h"

static const char *const mode_names[] = {"box", "csv", "json", "markdown"};

bool
dl_shell_mode_parse(const char *name, dl_shell_mode *out) {
    for (size_t i = 0; i < DL_ARRAY_LEN(mode_names); i++) {
        if (strcmp(name, mode_names[i]) == 0) {
            *out = (dl_shell_mode)i;
            return true;
        }
    }
    return false;
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
csv_row(FILE *out, const char *const *cells, const size_t *lens, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        if (i > 0) {
            (void)fputc(',', out);
        }
        csv_field(out, cells[i], cell_len(cells, lens, i));
    }
    (void)fputc('\n', out);
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

/* ---- the stream -------------------------------------------------------------------------- */

void
dl_shell_stream_begin(dl_shell_stream *s, FILE *out, dl_shell_mode mode, const dl_shell_col *cols,
                      int32_t n_cols) {
    s->out = out;
    s->mode = mode;
    s->cols = cols;
    s->n_cols = n_cols;
    s->n_rows = 0;
    if (n_cols == 0) {
        return;
    }
    if (mode == DL_SHELL_MODE_CSV) {
        for (int32_t i = 0; i < n_cols; i++) {
            if (i > 0) {
                (void)fputc(',', out);
            }
            csv_field(out, cols[i].name, strlen(cols[i].name));
        }
        (void)fputc('\n', out);
    } else if (mode == DL_SHELL_MODE_MARKDOWN) {
        md_header(s);
    } else if (mode == DL_SHELL_MODE_JSON) {
        (void)fputc('[', out);
    }
}

void
dl_shell_stream_row(dl_shell_stream *s, dl_shell_row cells, const size_t *lens) {
    if (s->n_cols == 0) {
        return;
    }
    if (s->mode == DL_SHELL_MODE_CSV) {
        csv_row(s->out, cells, lens, s->n_cols);
    } else if (s->mode == DL_SHELL_MODE_MARKDOWN) {
        (void)fputc('|', s->out);
        for (int32_t i = 0; i < s->n_cols; i++) {
            md_cell(s->out, cells[i] ? cells[i] : "NULL");
        }
        (void)fputc('\n', s->out);
    } else if (s->mode == DL_SHELL_MODE_JSON) {
        (void)fputs(s->n_rows == 0 ? "\n" : ",\n", s->out);
        json_row(s, cells, lens);
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
    }
    (void)fflush(s->out);
}
