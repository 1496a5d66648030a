/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Script splitting, positions and the caret display, for the shell.
 *
 * The splitter runs the real lexer (sql_lex.c) in lenient mode, so it agrees with the parser
 * on where strings, quoted names and comments are, and so on which ';' end statements: a
 * statement is the tokens up to a ';' token. Lenient mode never stops: a stray byte is an
 * error token that stays inside its piece for the parser to report, and an unterminated
 * string or comment ends the text with the piece marked open (the shell waits for more).
 */
#include <string.h>

#include "sql/parse/sql_parse_int.h"

#define CARET_WINDOW 60 /* bytes shown on each side of the caret in a long line */

void
dl_sql_splitter_init(dl_sql_splitter *s, const char *text, size_t len) {
    s->text = text;
    s->len = len;
    s->pos = 0;
}

static bool
is_open_error(const dl_sql_token *t) {
    return t->kind == DL_SQL_TOK_ERROR &&
           (t->kw == DL_SQL_LEX_UNTERMINATED_STRING || t->kw == DL_SQL_LEX_UNTERMINATED_QIDENT ||
            t->kw == DL_SQL_LEX_UNTERMINATED_COMMENT);
}

bool
dl_sql_splitter_next(dl_sql_splitter *s, dl_sql_piece *out) {
    memset(out, 0, sizeof(*out));
    if (s->len > DL_SQL_MAX_TEXT) { /* too long to lex with 32-bit offsets: one piece */
        if (s->pos >= s->len) {
            return false;
        }
        out->offset = s->pos;
        out->len = s->len - s->pos;
        s->pos = s->len;
        return true;
    }
    for (;;) {
        if (s->pos >= s->len) {
            return false;
        }
        dl_sql_lexer lx;
        dl_sql_lexer_init(&lx, s->text, (uint32_t)s->len, (uint32_t)s->pos, 1, 1);
        lx.is_lenient = true;
        dl_sql_token t;
        dl_sql_lexer_next(&lx, &t);
        if (t.kind == DL_SQL_TOK_EOF) {
            s->pos = s->len;
            return false;
        }
        if (t.kind == DL_SQL_TOK_SEMI) {
            s->pos = t.off + 1;
            continue;
        }
        out->offset = t.off;
        size_t end = (size_t)t.off + t.len;
        out->is_open = is_open_error(&t);
        for (;;) {
            dl_sql_lexer_next(&lx, &t);
            if (t.kind == DL_SQL_TOK_EOF || t.kind == DL_SQL_TOK_SEMI) {
                break;
            }
            end = (size_t)t.off + t.len;
            out->is_open = out->is_open || is_open_error(&t);
        }
        out->len = end - out->offset;
        out->is_terminated = t.kind == DL_SQL_TOK_SEMI;
        s->pos = t.kind == DL_SQL_TOK_SEMI ? (size_t)t.off + 1 : s->len;
        return true;
    }
}

bool
dl_sql_text_is_complete(const char *text, size_t len) {
    dl_sql_splitter s;
    dl_sql_piece piece;
    bool any = false;
    bool complete = false;
    dl_sql_splitter_init(&s, text, len);
    while (dl_sql_splitter_next(&s, &piece)) {
        any = true;
        complete = piece.is_terminated && !piece.is_open;
    }
    return any && complete;
}

void
dl_sql_offset_to_line_col(const char *text, size_t len, size_t off, uint32_t *out_line,
                          uint32_t *out_col) {
    uint32_t line = 1;
    uint32_t col = 1;
    off = DL_MIN(off, len);
    for (size_t i = 0; i < off; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\n') {
            line++;
            col = 1;
        } else if ((c & 0xC0) != 0x80) {
            col++;
        }
    }
    *out_line = line;
    *out_col = col;
}

/* Moves a byte position back to the start of its UTF-8 character. */
static size_t
char_start(const char *text, size_t start, size_t pos) {
    while (pos > start && ((unsigned char)text[pos] & 0xC0) == 0x80) {
        pos--;
    }
    return pos;
}

/* Appends text[from, to) with control characters other than tab shown as '?'. */
static dl_status
append_visible(dl_buf *out, const char *text, size_t from, size_t to, dl_error *err) {
    for (size_t i = from; i < to; i++) {
        unsigned char c = (unsigned char)text[i];
        uint8_t shown = (c < 0x20 && c != '\t') || c == 0x7F ? (uint8_t)'?' : c;
        DL_TRY(dl_buf_append_byte(out, shown, err));
    }
    return DL_OK;
}

dl_status
dl_sql_render_caret(const char *text, size_t len, int64_t off, dl_buf *out, dl_error *err) {
    if (off < 0) {
        return DL_OK;
    }
    size_t at = DL_MIN((size_t)off, len);
    size_t line_start = at;
    while (line_start > 0 && text[line_start - 1] != '\n') {
        line_start--;
    }
    size_t line_end = at;
    while (line_end < len && text[line_end] != '\n') {
        line_end++;
    }
    if (line_end > line_start && line_end > at && text[line_end - 1] == '\r') {
        line_end--;
    }
    size_t from = at - line_start > CARET_WINDOW ? char_start(text, line_start, at - CARET_WINDOW)
                                                 : line_start;
    size_t to = line_end - at > CARET_WINDOW ? char_start(text, at, at + CARET_WINDOW) : line_end;
    bool cut_left = from > line_start;
    if (cut_left) {
        DL_TRY(dl_buf_append_cstr(out, "...", err));
    }
    DL_TRY(append_visible(out, text, from, to, err));
    if (to < line_end) {
        DL_TRY(dl_buf_append_cstr(out, "...", err));
    }
    DL_TRY(dl_buf_append_byte(out, '\n', err));
    if (cut_left) {
        DL_TRY(dl_buf_append_cstr(out, "   ", err));
    }
    for (size_t i = from; i < at; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\t') {
            DL_TRY(dl_buf_append_byte(out, '\t', err));
        } else if ((c & 0xC0) != 0x80) {
            DL_TRY(dl_buf_append_byte(out, ' ', err));
        }
    }
    return dl_buf_append_cstr(out, "^\n", err);
}
