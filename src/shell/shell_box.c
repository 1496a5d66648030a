/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Box mode: a result as a table drawn with box characters, the layout DuckDB's shell made
 * familiar.
 *
 *     ┌───────┬─────────┬───────────────┐
 *     │  id   │  name   │    amount     │
 *     │  int  │ string  │ decimal(10,2) │
 *     ├───────┼─────────┼───────────────┤
 *     │     1 │ alice   │         25.50 │
 *     │     2 │ NULL    │          NULL │
 *     └───────┴─────────┴───────────────┘
 *
 * Names and types are centred; numbers are right-aligned, everything else left-aligned;
 * NULL is shown as NULL. Control characters in values are escaped (\n, \t, \r, \xNN) so that a
 * value never breaks the box. When the grid kept only the first and last rows, three rows of
 * dots mark the gap. With a width limit (the terminal's), columns wider than 16 are narrowed
 * first (their values cut with …), then columns from the middle are left out and a … column
 * stands for them. A footer row says what is not shown ("1000 rows (40 shown)  12 columns
 * (5 shown)") and appears too when there are no rows ("0 rows").
 *
 * Table mode is the same layout in ASCII (+, -, |) with the names only, as sqlite3's and
 * DuckDB's `.mode table`. Widths given with .width fix a column's width (its values cut with
 * … when longer); .headers off leaves out the names and types.
 *
 * On a terminal the box is drawn while the rows arrive (dl_shell_box_stream_*): the columns are
 * sized from the first rows (the head the grid keeps, or the first section with .maxrows -1),
 * the header and those rows are drawn at once, and later rows are cut with … where they are
 * wider than their column. A footer that no longer fits the box is written under it.
 */
#include <string.h>

#include "shell/shell_int.h"

#define MIN_NARROWED 16 /* narrowing stops at this width */
#define GAP_ROWS     3  /* rows of dots for elided rows */

/* The characters a table is drawn with: lines, then corners and joints by row (top, middle,
 * bottom) and column (left, middle, right). */
typedef struct box_style {
    const char *h, *v;
    const char *tl, *tm, *tr, *ml, *mm, *mr, *bl, *bm, *br;
} box_style;

static const box_style unicode_style = {"─", "│", "┌", "┬", "┐", "├", "┼", "┤", "└", "┴", "┘"};
static const box_style ascii_style = {"-", "|", "+", "+", "+", "+", "+", "+", "+", "+", "+"};

typedef struct box_col {
    int32_t src;  /* source column, or -1 for the elision column */
    size_t width; /* text width inside the padding */
    bool is_right;
} box_col;

typedef struct box {
    FILE *out;
    const dl_shell_grid *g;
    const box_style *style;
    const char *null_text;
    bool has_header;
    bool has_types;
    box_col *cols;
    int32_t n_cols;
    dl_buf scratch;
    char footer[160];
} box;

size_t
dl_shell_text_width(const char *s, size_t len) {
    size_t w = 0;
    for (size_t i = 0; i < len; i++) {
        w += ((uint8_t)s[i] & 0xC0) != 0x80 ? 1 : 0;
    }
    return w;
}

/* Escapes control characters of s into out (reset first). */
static dl_status
escape_text(const char *s, dl_buf *out, dl_error *err) {
    dl_buf_reset(out);
    for (const char *p = s; *p != '\0'; p++) {
        uint8_t c = (uint8_t)*p;
        if (c >= 0x20 && c != 0x7f) {
            DL_TRY(dl_buf_append_byte(out, c, err));
        } else if (c == '\n') {
            DL_TRY(dl_buf_append(out, "\\n", 2, err));
        } else if (c == '\t') {
            DL_TRY(dl_buf_append(out, "\\t", 2, err));
        } else if (c == '\r') {
            DL_TRY(dl_buf_append(out, "\\r", 2, err));
        } else {
            DL_TRY(dl_buf_appendf(out, err, "\\x%02X", (unsigned)c));
        }
    }
    (void)dl_buf_cstr(out);
    return DL_OK;
}

static size_t
cell_width(box *b, const char *cell, dl_error *err, dl_status *st) {
    if (cell == NULL) {
        return dl_shell_text_width(b->null_text, strlen(b->null_text));
    }
    *st = escape_text(cell, &b->scratch, err);
    return dl_shell_text_width((const char *)b->scratch.data, b->scratch.len);
}

static size_t
total_width(const box_col *cols, int32_t n) {
    size_t w = 1;
    for (int32_t i = 0; i < n; i++) {
        w += cols[i].width + 3;
    }
    return w;
}

/* Natural widths of every source column (or the widths .width gave). */
static dl_status
measure(box *b, const dl_shell_box_opts *opts, size_t *widths, dl_error *err) {
    const dl_shell_grid *g = b->g;
    dl_status st = DL_OK;
    for (int32_t c = 0; c < g->n_cols; c++) {
        size_t name = strlen(g->cols[c].name);
        size_t type = strlen(g->cols[c].type);
        widths[c] = 1;
        if (b->has_header) {
            widths[c] = DL_MAX(widths[c], dl_shell_text_width(g->cols[c].name, name));
        }
        if (b->has_types) {
            widths[c] = DL_MAX(widths[c], dl_shell_text_width(g->cols[c].type, type));
        }
    }
    int64_t shown = dl_shell_grid_shown(g);
    for (int64_t r = 0; r < shown && st == DL_OK; r++) {
        dl_shell_row row = dl_shell_grid_row(g, r);
        for (int32_t c = 0; c < g->n_cols && st == DL_OK; c++) {
            widths[c] = DL_MAX(widths[c], cell_width(b, row[c], err, &st));
        }
    }
    for (int32_t c = 0; opts != NULL && c < g->n_cols && c < opts->n_widths; c++) {
        if (opts->widths[c] > 0) {
            widths[c] = (size_t)opts->widths[c];
        }
    }
    return st;
}

/* Narrows the widest columns until the table fits max_width or none is wider than 16. */
static void
narrow(size_t *widths, int32_t n, size_t max_width) {
    for (;;) {
        size_t total = 1;
        int32_t widest = 0;
        for (int32_t i = 0; i < n; i++) {
            total += widths[i] + 3;
            widest = widths[i] > widths[widest] ? i : widest;
        }
        if (total <= max_width || n == 0 || widths[widest] <= MIN_NARROWED) {
            return;
        }
        widths[widest]--;
    }
}

/* Chooses the columns shown: all, or some from each end around a … column. */
static void
choose_columns(box *b, const size_t *widths, size_t max_width) {
    const dl_shell_grid *g = b->g;
    int32_t n = g->n_cols;
    size_t all = 1;
    for (int32_t i = 0; i < n; i++) {
        all += widths[i] + 3;
    }
    int32_t n_left = n;
    int32_t n_right = 0;
    if (max_width > 0 && all > max_width && n > 1) {
        size_t used = 1 + 4; /* the left border and the elision column */
        n_left = 0;
        for (int32_t k = 0; k < n; k++) {
            int32_t c = (k % 2 == 0) ? n_left : n - 1 - n_right;
            if (k > 0 && used + widths[c] + 3 > max_width) {
                break;
            }
            used += widths[c] + 3;
            n_left += (k % 2 == 0) ? 1 : 0;
            n_right += (k % 2 == 0) ? 0 : 1;
        }
    }
    int32_t k = 0;
    for (int32_t i = 0; i < n_left; i++) {
        b->cols[k++] = (box_col){.src = i, .width = widths[i], .is_right = g->cols[i].is_numeric};
    }
    if (n_left + n_right < n) {
        b->cols[k++] = (box_col){.src = -1, .width = 1, .is_right = false};
    }
    for (int32_t i = n - n_right; i < n; i++) {
        b->cols[k++] = (box_col){.src = i, .width = widths[i], .is_right = g->cols[i].is_numeric};
    }
    b->n_cols = k;
}

static void
put(box *b, const char *s) {
    (void)fputs(s, b->out);
}

static void
put_repeat(box *b, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        (void)fputs(s, b->out);
    }
}

static void
rule(box *b, const char *left, const char *mid, const char *right) {
    put(b, left);
    for (int32_t i = 0; i < b->n_cols; i++) {
        put_repeat(b, b->style->h, b->cols[i].width + 2);
        put(b, i + 1 < b->n_cols ? mid : right);
    }
    put(b, "\n");
}

/* Writes text (already escaped) in a cell of width w: cut with … when too wide. */
static void
cell(box *b, const char *text, size_t w, int align) {
    size_t len = strlen(text);
    size_t tw = dl_shell_text_width(text, len);
    put(b, " ");
    if (tw > w) {
        size_t keep = 0;
        size_t cps = 0;
        while (keep < len && cps < w - 1) {
            keep++;
            while (keep < len && ((uint8_t)text[keep] & 0xC0) == 0x80) {
                keep++;
            }
            cps++;
        }
        (void)fwrite(text, 1, keep, b->out);
        put(b, "…");
        put(b, " ");
        put(b, b->style->v);
        return;
    }
    size_t pad = w - tw;
    size_t left = align > 0 ? pad : (align == 0 ? pad / 2 : 0);
    put_repeat(b, " ", left);
    put(b, text);
    put_repeat(b, " ", pad - left);
    put(b, " ");
    put(b, b->style->v);
}

static void
header(box *b) {
    put(b, b->style->v);
    for (int32_t i = 0; i < b->n_cols; i++) {
        int32_t c = b->cols[i].src;
        cell(b, c < 0 ? "…" : b->g->cols[c].name, b->cols[i].width, 0);
    }
    put(b, "\n");
    if (!b->has_types) {
        return;
    }
    put(b, b->style->v);
    for (int32_t i = 0; i < b->n_cols; i++) {
        int32_t c = b->cols[i].src;
        cell(b, c < 0 ? "" : b->g->cols[c].type, b->cols[i].width, 0);
    }
    put(b, "\n");
}

static dl_status
data_row(box *b, dl_shell_row row, dl_error *err) {
    put(b, b->style->v);
    for (int32_t i = 0; i < b->n_cols; i++) {
        int32_t c = b->cols[i].src;
        int align = b->cols[i].is_right ? 1 : -1;
        if (c < 0) {
            cell(b, "…", 1, -1);
        } else if (row[c] == NULL) {
            cell(b, b->null_text, b->cols[i].width, align);
        } else {
            DL_TRY(escape_text(row[c], &b->scratch, err));
            cell(b, (const char *)b->scratch.data, b->cols[i].width, align);
        }
    }
    put(b, "\n");
    return DL_OK;
}

static void
gap_rows(box *b) {
    for (int r = 0; r < GAP_ROWS; r++) {
        put(b, b->style->v);
        for (int32_t i = 0; i < b->n_cols; i++) {
            cell(b, "·", b->cols[i].width, b->cols[i].is_right ? 1 : -1);
        }
        put(b, "\n");
    }
}

/* Builds the footer text for n_rows rows of which shown are drawn; "" when all are. */
static void
make_footer(box *b, int64_t n_rows, int64_t shown) {
    const dl_shell_grid *g = b->g;
    int32_t shown_cols = 0;
    for (int32_t i = 0; i < b->n_cols; i++) {
        shown_cols += b->cols[i].src >= 0 ? 1 : 0;
    }
    bool cut_rows = shown < n_rows;
    bool cut_cols = shown_cols < g->n_cols;
    b->footer[0] = '\0';
    if (!cut_rows && !cut_cols && n_rows > 0) {
        return;
    }
    int n = snprintf(b->footer, sizeof(b->footer), "%lld row%s", (long long)n_rows,
                     n_rows == 1 ? "" : "s");
    if (cut_rows && n > 0 && (size_t)n < sizeof(b->footer)) {
        n += snprintf(b->footer + n, sizeof(b->footer) - (size_t)n, " (%lld shown)",
                      (long long)shown);
    }
    if (cut_cols && n > 0 && (size_t)n < sizeof(b->footer)) {
        (void)snprintf(b->footer + n, sizeof(b->footer) - (size_t)n, "  %d columns (%d shown)",
                       (int)g->n_cols, (int)shown_cols);
    }
}

static void
footer(box *b, bool has_rows) {
    const box_style *st = b->style;
    if (has_rows) {
        rule(b, st->ml, st->bm, st->mr);
    }
    size_t inner = total_width(b->cols, b->n_cols) - 4;
    size_t len = strlen(b->footer);
    put(b, st->v);
    put(b, " ");
    put(b, b->footer);
    put_repeat(b, " ", inner > len ? inner - len : 0);
    put(b, " ");
    put(b, st->v);
    put(b, "\n");
    put(b, st->bl);
    put_repeat(b, st->h, inner + 2);
    put(b, st->br);
    put(b, "\n");
}

static dl_status
render(box *b, const dl_shell_box_opts *opts, size_t *widths, dl_error *err) {
    const dl_shell_grid *g = b->g;
    DL_TRY(measure(b, opts, widths, err));
    size_t max_width = opts && opts->max_width > 0 ? (size_t)opts->max_width : 0;
    if (max_width > 0) {
        narrow(widths, g->n_cols, max_width);
    }
    choose_columns(b, widths, max_width);
    make_footer(b, g->n_rows, dl_shell_grid_shown(g));
    size_t flen = strlen(b->footer);
    size_t inner = total_width(b->cols, b->n_cols) - 4;
    if (flen > inner && b->n_cols > 0) {
        b->cols[b->n_cols - 1].width += flen - inner; /* the footer must fit in the box */
    }
    const box_style *style = b->style;
    rule(b, style->tl, style->tm, style->tr);
    if (b->has_header) {
        header(b);
        rule(b, style->ml, style->mm, style->mr);
    }
    int64_t shown = dl_shell_grid_shown(g);
    for (int64_t r = 0; r < shown; r++) {
        if (r == g->n_head && g->n_rows > shown) {
            gap_rows(b);
        }
        DL_TRY(data_row(b, dl_shell_grid_row(g, r), err));
    }
    if (g->n_rows > shown && g->n_tail == 0) {
        gap_rows(b);
    }
    if (flen > 0) {
        footer(b, shown > 0);
    } else {
        rule(b, style->bl, style->bm, style->br);
    }
    return DL_OK;
}

static void
box_init(box *b, FILE *out, const dl_shell_grid *g, const dl_shell_box_opts *opts) {
    bool is_ascii = opts != NULL && opts->is_ascii;
    *b = (box){.out = out,
               .g = g,
               .style = is_ascii ? &ascii_style : &unicode_style,
               .null_text = opts != NULL && opts->null_text != NULL ? opts->null_text : "NULL",
               .has_header = opts == NULL || !opts->no_header};
    b->has_types = b->has_header && !is_ascii;
    dl_buf_init(&b->scratch, g->alloc);
}

dl_status
dl_shell_render_box(FILE *out, const dl_shell_grid *g, const dl_shell_box_opts *opts,
                    dl_error *err) {
    if (g->n_cols == 0) {
        return DL_OK;
    }
    box b;
    box_init(&b, out, g, opts);
    size_t *widths = dl_mem_alloc_array(g->alloc, (size_t)g->n_cols, sizeof(size_t));
    b.cols = dl_mem_alloc_array(g->alloc, (size_t)g->n_cols + 1, sizeof(box_col));
    dl_status st = DL_OK;
    if (widths == NULL || b.cols == NULL) {
        st = dl_error_set(err, DL_ERR_NOMEM, "out of memory drawing a table");
    } else {
        st = render(&b, opts, widths, err);
    }
    dl_mem_free(g->alloc, b.cols, ((size_t)g->n_cols + 1) * sizeof(box_col));
    dl_mem_free(g->alloc, widths, (size_t)g->n_cols * sizeof(size_t));
    dl_buf_destroy(&b.scratch);
    return st;
}

/* ---- a box drawn while its rows arrive ------------------------------------------------------ */

struct dl_shell_box_stream {
    box b;
    size_t *widths;
    int64_t n_drawn;    /* rows of the grid drawn by begin (its head) */
    int64_t n_streamed; /* rows drawn by dl_shell_box_stream_row (not in the grid) */
};

static void
box_stream_free(dl_shell_box_stream *s) {
    const dl_allocator *alloc = s->b.g->alloc;
    int32_t n = s->b.g->n_cols;
    dl_mem_free(alloc, s->b.cols, ((size_t)n + 1) * sizeof(box_col));
    dl_mem_free(alloc, s->widths, (size_t)n * sizeof(size_t));
    dl_buf_destroy(&s->b.scratch);
    dl_mem_free(alloc, s, sizeof(*s));
}

dl_status
dl_shell_box_stream_begin(FILE *out, const dl_shell_grid *g, const dl_shell_box_opts *opts,
                          dl_shell_box_stream **out_stream, dl_error *err) {
    *out_stream = NULL;
    dl_shell_box_stream *s = dl_mem_alloc_zero(g->alloc, sizeof(*s));
    DL_CHECK(s != NULL, err, DL_ERR_NOMEM, "out of memory drawing a table");
    box_init(&s->b, out, g, opts);
    s->widths = dl_mem_alloc_array(g->alloc, (size_t)g->n_cols, sizeof(size_t));
    s->b.cols = dl_mem_alloc_array(g->alloc, (size_t)g->n_cols + 1, sizeof(box_col));
    if (s->widths == NULL || s->b.cols == NULL) {
        box_stream_free(s);
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory drawing a table");
    }
    dl_status st = measure(&s->b, opts, s->widths, err);
    if (st != DL_OK) {
        box_stream_free(s);
        return st;
    }
    size_t max_width = opts && opts->max_width > 0 ? (size_t)opts->max_width : 0;
    if (max_width > 0) {
        narrow(s->widths, g->n_cols, max_width);
    }
    choose_columns(&s->b, s->widths, max_width);
    const box_style *style = s->b.style;
    rule(&s->b, style->tl, style->tm, style->tr);
    if (s->b.has_header) {
        header(&s->b);
        rule(&s->b, style->ml, style->mm, style->mr);
    }
    s->n_drawn = dl_shell_grid_shown(g);
    for (int64_t r = 0; r < s->n_drawn && st == DL_OK; r++) {
        st = data_row(&s->b, dl_shell_grid_row(g, r), err);
    }
    *out_stream = s;
    return st;
}

dl_status
dl_shell_box_stream_row(dl_shell_box_stream *s, dl_shell_row row, dl_error *err) {
    s->n_streamed++;
    return data_row(&s->b, row, err);
}

dl_status
dl_shell_box_stream_end(dl_shell_box_stream *s, dl_error *err) {
    if (s == NULL) {
        return DL_OK;
    }
    box *b = &s->b;
    const dl_shell_grid *g = b->g;
    int64_t kept = dl_shell_grid_shown(g);
    int64_t n_rows = g->n_rows + s->n_streamed;
    int64_t shown = kept + s->n_streamed;
    if (n_rows > shown) {
        gap_rows(b);
    }
    dl_status st = DL_OK;
    for (int64_t r = s->n_drawn; r < kept && st == DL_OK; r++) {
        st = data_row(b, dl_shell_grid_row(g, r), err);
    }
    make_footer(b, n_rows, shown);
    size_t flen = strlen(b->footer);
    size_t inner = total_width(b->cols, b->n_cols) - 4;
    if (flen == 0) {
        rule(b, b->style->bl, b->style->bm, b->style->br);
    } else if (flen <= inner) {
        footer(b, shown > 0);
    } else { /* the columns were drawn before the count was known: the footer goes under */
        rule(b, b->style->bl, b->style->bm, b->style->br);
        put(b, b->footer);
        put(b, "\n");
    }
    box_stream_free(s);
    return st;
}
