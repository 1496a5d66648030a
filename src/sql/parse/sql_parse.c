/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The parser's core: the statement reader, token access, error reporting, arena lists,
 * identifiers, names, string literals and properties, and the statement dispatch. The
 * grammar itself lives in sql_parse_expr.c (expressions), sql_parse_type.c (types and
 * intervals), sql_parse_query.c (queries and relations), sql_parse_ddl.c (CREATE, DROP,
 * ALTER, USE), sql_parse_dml.c (INSERT, UPDATE, DELETE, MERGE, TRUNCATE) and
 * sql_parse_delta.c (RESTORE, VACUUM, OPTIMIZE, DESCRIBE, SHOW, SET, RESET, COPY, ...).
 *
 * String literals follow Spark's unescapeSQLString: \0 \b \n \r \t \Z \' \" \\ and \uXXXX
 * (a surrogate pair as two escapes), octal \ooo (first digit 0-3), \% and \_ kept with their
 * backslash for LIKE, any other escaped character standing for itself, a doubled quote for
 * one quote. An escape that would make invalid UTF-8 (an unpaired surrogate) is an error.
 */
#include <stdio.h>
#include <string.h>

#include "sql/parse/sql_parse_int.h"

#define DESC_CAP 80

/* ---- tokens -------------------------------------------------------------------------------- */

const dl_sql_token *
dl_sql_tok(const dl_sql_parser *p) {
    return &p->toks[p->pos];
}

const dl_sql_token *
dl_sql_peek(const dl_sql_parser *p, uint32_t k) {
    uint32_t i = p->pos + k;
    if (i >= p->n_toks || i < p->pos) {
        i = p->n_toks - 1;
    }
    return &p->toks[i];
}

bool
dl_sql_is(const dl_sql_parser *p, dl_sql_tok_kind kind) {
    return dl_sql_tok(p)->kind == kind;
}

bool
dl_sql_peek_is(const dl_sql_parser *p, uint32_t k, dl_sql_tok_kind kind) {
    return dl_sql_peek(p, k)->kind == kind;
}

bool
dl_sql_is_kw(const dl_sql_parser *p, dl_sql_kw kw) {
    const dl_sql_token *t = dl_sql_tok(p);
    return t->kind == DL_SQL_TOK_WORD && t->kw == kw;
}

bool
dl_sql_peek_is_kw(const dl_sql_parser *p, uint32_t k, dl_sql_kw kw) {
    const dl_sql_token *t = dl_sql_peek(p, k);
    return t->kind == DL_SQL_TOK_WORD && t->kw == kw;
}

bool
dl_sql_at_end(const dl_sql_parser *p) {
    return p->pos + 1 >= p->n_toks;
}

void
dl_sql_advance(dl_sql_parser *p) {
    if (p->pos + 1 < p->n_toks) {
        p->pos++;
    }
}

bool
dl_sql_accept_kw(dl_sql_parser *p, dl_sql_kw kw) {
    if (dl_sql_is_kw(p, kw)) {
        dl_sql_advance(p);
        return true;
    }
    return false;
}

bool
dl_sql_accept(dl_sql_parser *p, dl_sql_tok_kind kind) {
    if (dl_sql_is(p, kind) && !dl_sql_at_end(p)) {
        dl_sql_advance(p);
        return true;
    }
    return false;
}

dl_status
dl_sql_expect_kw(dl_sql_parser *p, dl_sql_kw kw) {
    if (dl_sql_accept_kw(p, kw)) {
        return DL_OK;
    }
    char what[40];
    (void)snprintf(what, sizeof(what), "%s", dl_sql_keyword_name(kw));
    return dl_sql_fail_expected(p, what);
}

dl_status
dl_sql_expect(dl_sql_parser *p, dl_sql_tok_kind kind) {
    if (dl_sql_accept(p, kind)) {
        return DL_OK;
    }
    return dl_sql_fail_expected(p, dl_sql_tok_kind_text(kind));
}

dl_status
dl_sql_expect_close(dl_sql_parser *p, dl_sql_tok_kind kind, const dl_sql_token *open_tok,
                    const char *what) {
    if (dl_sql_accept(p, kind)) {
        return DL_OK;
    }
    char found[DESC_CAP];
    dl_sql_describe_tok(p, dl_sql_tok(p), found, sizeof(found));
    return dl_sql_fail_tok(p, dl_sql_tok(p), DL_ERR_SQL_SYNTAX,
                           "expected %s to close the %s opened at line %u, column %u, found %s",
                           dl_sql_tok_kind_text(kind), what, open_tok->line, open_tok->col, found);
}

bool
dl_sql_tok_is_word(const dl_sql_parser *p, const dl_sql_token *tok, const char *w) {
    if (tok->kind != DL_SQL_TOK_WORD) {
        return false;
    }
    return dl_str_eq_nocase(dl_str_make(p->text + tok->off, tok->len), dl_str_from_cstr(w));
}

const char *
dl_sql_tok_kind_text(dl_sql_tok_kind kind) {
    static const char *const names[] = {
        [DL_SQL_TOK_EOF] = "end of input",
        [DL_SQL_TOK_SEMI] = "';'",
        [DL_SQL_TOK_ERROR] = "a valid token",
        [DL_SQL_TOK_WORD] = "a word",
        [DL_SQL_TOK_QIDENT] = "a name",
        [DL_SQL_TOK_STRING] = "a string literal",
        [DL_SQL_TOK_RSTRING] = "a string",
        [DL_SQL_TOK_NUMBER] = "a number",
        [DL_SQL_TOK_LPAREN] = "'('",
        [DL_SQL_TOK_RPAREN] = "')'",
        [DL_SQL_TOK_LBRACKET] = "'['",
        [DL_SQL_TOK_RBRACKET] = "']'",
        [DL_SQL_TOK_COMMA] = "','",
        [DL_SQL_TOK_DOT] = "'.'",
        [DL_SQL_TOK_EQ] = "'='",
        [DL_SQL_TOK_EQEQ] = "'=='",
        [DL_SQL_TOK_NE] = "'<>'",
        [DL_SQL_TOK_BANGEQ] = "'!='",
        [DL_SQL_TOK_NSEQ] = "'<=>'",
        [DL_SQL_TOK_LT] = "'<'",
        [DL_SQL_TOK_LE] = "'<='",
        [DL_SQL_TOK_GT] = "'>'",
        [DL_SQL_TOK_GE] = "'>='",
        [DL_SQL_TOK_PLUS] = "'+'",
        [DL_SQL_TOK_MINUS] = "'-'",
        [DL_SQL_TOK_STAR] = "'*'",
        [DL_SQL_TOK_SLASH] = "'/'",
        [DL_SQL_TOK_PERCENT] = "'%'",
        [DL_SQL_TOK_CONCAT] = "'||'",
        [DL_SQL_TOK_AMP] = "'&'",
        [DL_SQL_TOK_PIPE] = "'|'",
        [DL_SQL_TOK_CARET] = "'^'",
        [DL_SQL_TOK_TILDE] = "'~'",
        [DL_SQL_TOK_BANG] = "'!'",
        [DL_SQL_TOK_SHL] = "'<<'",
        [DL_SQL_TOK_SHR] = "'>>'",
        [DL_SQL_TOK_SHRU] = "'>>>'",
        [DL_SQL_TOK_DCOLON] = "'::'",
        [DL_SQL_TOK_COLON] = "':'",
        [DL_SQL_TOK_ARROW] = "'->'",
        [DL_SQL_TOK_FATARROW] = "'=>'",
        [DL_SQL_TOK_QUESTION] = "'?'",
        [DL_SQL_TOK_AT] = "'@'",
    };
    if ((size_t)kind >= DL_ARRAY_LEN(names) || names[kind] == NULL) {
        return "a token";
    }
    return names[kind];
}

/* ---- errors -------------------------------------------------------------------------------- */

/* At most max bytes of s, cut at a UTF-8 character boundary; *out_cut says whether it cut. */
static int
utf8_prefix(const char *s, size_t len, size_t max, bool *out_cut) {
    *out_cut = len > max;
    if (len <= max) {
        return (int)len;
    }
    size_t n = max;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) {
        n--;
    }
    return (int)n;
}

void
dl_sql_describe_tok(const dl_sql_parser *p, const dl_sql_token *tok, char *buf, size_t cap) {
    const char *s = p->text + tok->off;
    bool cut;
    int n;
    switch ((dl_sql_tok_kind)tok->kind) {
    case DL_SQL_TOK_EOF:
        (void)snprintf(buf, cap, "end of input");
        return;
    case DL_SQL_TOK_STRING:
    case DL_SQL_TOK_RSTRING:
        n = utf8_prefix(s, tok->len, 32, &cut);
        (void)snprintf(buf, cap, "string %.*s%s", n, s, cut ? "...'" : "");
        return;
    default:
        n = utf8_prefix(s, tok->len, 40, &cut);
        (void)snprintf(buf, cap, "'%.*s%s'", n, s, cut ? "..." : "");
        return;
    }
}

static const char *
class_text(dl_status code) {
    switch (code) {
    case DL_ERR_LIMIT:
        return "SQL too complex";
    case DL_ERR_UNSUPPORTED:
        return "unsupported SQL";
    case DL_ERR_NOMEM:
        return "out of memory";
    default:
        return "syntax error";
    }
}

/* The message of a lexer error token. */
static void
lex_error_message(const dl_sql_parser *p, const dl_sql_token *tok, char *buf, size_t cap) {
    unsigned char c = (unsigned char)p->text[tok->off];
    dl_sql_lex_error e = (dl_sql_lex_error)tok->kw;
    if (e == DL_SQL_LEX_BAD_CHAR && (c >= 0x80 || (c > 0x20 && c < 0x7F))) {
        (void)snprintf(buf, cap, "unexpected character '%.*s'", (int)tok->len, p->text + tok->off);
    } else if (e == DL_SQL_LEX_BAD_CHAR || e == DL_SQL_LEX_BAD_UTF8) {
        (void)snprintf(buf, cap, "%s: byte 0x%02X", dl_sql_lex_error_text(e), c);
    } else {
        (void)snprintf(buf, cap, "%s", dl_sql_lex_error_text(e));
    }
}

static dl_status
fail_at_pos(dl_sql_parser *p, uint32_t off, uint32_t line, uint32_t col, dl_status code,
            const char *msg) {
    if (p->err != NULL) {
        DL_ERROR_WHERE(p->err);
    }
    (void)dl_error_set(p->err, code, "%s at line %u, column %u: %s", class_text(code), line, col,
                       msg);
    if (p->err != NULL) {
        p->err->offset = off;
    }
    return code;
}

DL_PRINTF(5, 0)

static dl_status
fail_tokv(dl_sql_parser *p, const dl_sql_token *tok, uint32_t off, dl_status code, const char *fmt,
          va_list ap) {
    char msg[768];
    if (tok->kind == DL_SQL_TOK_ERROR) {
        lex_error_message(p, tok, msg, sizeof(msg));
        return fail_at_pos(p, tok->off, tok->line, tok->col, DL_ERR_SQL_SYNTAX, msg);
    }
    (void)vsnprintf(msg, sizeof(msg), fmt, ap);
    uint32_t line = tok->line;
    uint32_t col = tok->col;
    for (uint32_t i = tok->off; i < off && i < p->text_len; i++) {
        unsigned char c = (unsigned char)p->text[i];
        if (c == '\n') {
            line++;
            col = 1;
        } else if ((c & 0xC0) != 0x80) {
            col++;
        }
    }
    return fail_at_pos(p, off, line, col, code, msg);
}

dl_status
dl_sql_fail_tok(dl_sql_parser *p, const dl_sql_token *tok, dl_status code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    dl_status s = fail_tokv(p, tok, tok->off, code, fmt, ap);
    va_end(ap);
    return s;
}

dl_status
dl_sql_fail(dl_sql_parser *p, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    const dl_sql_token *tok = dl_sql_tok(p);
    dl_status s = fail_tokv(p, tok, tok->off, DL_ERR_SQL_SYNTAX, fmt, ap);
    va_end(ap);
    return s;
}

dl_status
dl_sql_fail_off(dl_sql_parser *p, uint32_t off, dl_status code, const char *fmt, ...) {
    /* The last token starting at or before off. */
    uint32_t lo = 0;
    uint32_t hi = p->n_toks;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p->toks[mid].off <= off) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    dl_sql_token tok = p->toks[lo];
    if (tok.kind == DL_SQL_TOK_ERROR) {
        tok.kind = DL_SQL_TOK_WORD; /* report the caller's message, not the lexer's */
    }
    va_list ap;
    va_start(ap, fmt);
    dl_status s = fail_tokv(p, &tok, DL_MAX(off, tok.off), code, fmt, ap);
    va_end(ap);
    return s;
}

dl_status
dl_sql_fail_internal(dl_sql_parser *p) {
    return dl_sql_fail_tok(p, dl_sql_tok(p), DL_ERR_INTERNAL,
                           "internal parser error: a parse step succeeded without a result");
}

dl_status
dl_sql_fail_expected(dl_sql_parser *p, const char *what) {
    char found[DESC_CAP];
    dl_sql_describe_tok(p, dl_sql_tok(p), found, sizeof(found));
    return dl_sql_fail(p, "expected %s, found %s", what, found);
}

dl_status
dl_sql_enter(dl_sql_parser *p) {
    if (++p->depth > DL_SQL_MAX_RECURSION) {
        return dl_sql_fail_tok(p, dl_sql_tok(p), DL_ERR_LIMIT,
                               "the statement nests too deeply (parentheses, subqueries, "
                               "expressions and joins nest at most %u levels)",
                               DL_SQL_MAX_RECURSION);
    }
    return DL_OK;
}

void
dl_sql_leave(dl_sql_parser *p) {
    p->depth--;
}

/* ---- memory -------------------------------------------------------------------------------- */

void *
dl_sql_alloc(dl_sql_parser *p, size_t size) {
    void *ptr = dl_arena_alloc_zero(p->arena, size);
    if (ptr == NULL) {
        (void)dl_error_set(p->err, DL_ERR_NOMEM, "out of memory while parsing SQL");
    }
    return ptr;
}

void *
dl_sql_vec_push(dl_sql_parser *p, dl_sql_vec *v, size_t elem_size) {
    if (v->n == v->cap) {
        if (v->cap > UINT32_MAX / 2) {
            (void)dl_error_set(p->err, DL_ERR_NOMEM, "out of memory while parsing SQL");
            return NULL;
        }
        uint32_t cap = v->cap == 0 ? 4 : v->cap * 2;
        void *data = dl_arena_alloc_array(p->arena, cap, elem_size);
        if (data == NULL) {
            (void)dl_error_set(p->err, DL_ERR_NOMEM, "out of memory while parsing SQL");
            return NULL;
        }
        if (v->n > 0) {
            memcpy(data, v->data, (size_t)v->n * elem_size);
        }
        v->data = data;
        v->cap = cap;
    }
    char *slot = (char *)v->data + (size_t)v->n * elem_size;
    memset(slot, 0, elem_size);
    v->n++;
    return slot;
}

void *
dl_sql_vec_push_ptr(dl_sql_parser *p, dl_sql_vec *v) {
    // NOLINTNEXTLINE(bugprone-sizeof-expression): the elements are node pointers by design
    return dl_sql_vec_push(p, v, sizeof(dl_sql_expr *));
}

dl_status
dl_sql_strdup(dl_sql_parser *p, const char *s, size_t len, dl_str *out) {
    char *copy = dl_arena_strndup(p->arena, s, len);
    if (copy == NULL) {
        return dl_error_set(p->err, DL_ERR_NOMEM, "out of memory while parsing SQL");
    }
    *out = dl_str_make(copy, len);
    return DL_OK;
}

/* ---- identifiers and names ----------------------------------------------------------------- */

bool
dl_sql_is_ident(const dl_sql_parser *p, const dl_sql_token *tok, bool allow_reserved,
                bool no_alias) {
    (void)p;
    if (tok->kind == DL_SQL_TOK_QIDENT) {
        return true;
    }
    if (tok->kind != DL_SQL_TOK_WORD) {
        return false;
    }
    if (tok->kw == DL_SQL_NO_KW || allow_reserved) {
        return true;
    }
    dl_sql_kw_class cls = dl_sql_keyword_class((dl_sql_kw)tok->kw);
    return cls == DL_SQL_KWC_N || (cls == DL_SQL_KWC_A && !no_alias);
}

/* Takes the current token (a word or a quoted name) as an identifier. */
static dl_status
take_ident(dl_sql_parser *p, dl_sql_ident *out) {
    const dl_sql_token *t = dl_sql_tok(p);
    out->loc = t->off;
    if (t->kind == DL_SQL_TOK_WORD) {
        out->is_quoted = false;
        DL_TRY(dl_sql_strdup(p, p->text + t->off, t->len, &out->name));
        dl_sql_advance(p);
        return DL_OK;
    }
    /* `a``b`: drop the backticks around it and undouble the ones inside. */
    char *buf = dl_sql_alloc(p, t->len);
    if (buf == NULL) {
        return DL_ERR_NOMEM;
    }
    size_t n = 0;
    for (uint32_t i = t->off + 1; i + 1 < t->off + t->len; i++) {
        buf[n++] = p->text[i];
        if (p->text[i] == '`') {
            i++;
        }
    }
    buf[n] = '\0';
    out->name = dl_str_make(buf, n);
    out->is_quoted = true;
    dl_sql_advance(p);
    return DL_OK;
}

dl_status
dl_sql_parse_ident(dl_sql_parser *p, const char *what, dl_sql_ident *out) {
    if (!dl_sql_is_ident(p, dl_sql_tok(p), false, false)) {
        return dl_sql_fail_expected(p, what);
    }
    return take_ident(p, out);
}

dl_status
dl_sql_parse_ident_any(dl_sql_parser *p, const char *what, dl_sql_ident *out) {
    if (!dl_sql_is_ident(p, dl_sql_tok(p), true, false)) {
        return dl_sql_fail_expected(p, what);
    }
    return take_ident(p, out);
}

dl_status
dl_sql_parse_name(dl_sql_parser *p, const char *what, dl_sql_name *out) {
    dl_sql_vec parts = {0};
    dl_sql_ident *part;
    DL_SQL_PUSH(p, parts, part);
    DL_TRY(dl_sql_parse_ident(p, what, part));
    while (dl_sql_is(p, DL_SQL_TOK_DOT) && dl_sql_is_ident(p, dl_sql_peek(p, 1), true, false)) {
        dl_sql_advance(p);
        DL_SQL_PUSH(p, parts, part);
        DL_TRY(dl_sql_parse_ident_any(p, what, part));
    }
    out->parts = parts.data;
    out->n_parts = parts.n;
    return DL_OK;
}

dl_status
dl_sql_parse_ident_list(dl_sql_parser *p, const char *what, dl_sql_ident_list *out) {
    const dl_sql_token *open = dl_sql_tok(p);
    DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LPAREN));
    dl_sql_vec items = {0};
    do {
        dl_sql_ident *id;
        DL_SQL_PUSH(p, items, id);
        DL_TRY(dl_sql_parse_ident(p, what, id));
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    DL_TRY(dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "list"));
    out->items = items.data;
    out->n = items.n;
    return DL_OK;
}

dl_status
dl_sql_parse_name_list(dl_sql_parser *p, const char *what, bool parenthesised,
                       dl_sql_name_list *out) {
    const dl_sql_token *open = dl_sql_tok(p);
    if (parenthesised) {
        DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LPAREN));
    }
    dl_sql_vec items = {0};
    do {
        dl_sql_name *name;
        DL_SQL_PUSH(p, items, name);
        DL_TRY(dl_sql_parse_name(p, what, name));
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    if (parenthesised) {
        DL_TRY(dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "list"));
    }
    out->items = items.data;
    out->n = items.n;
    return DL_OK;
}

/* ---- string literals ----------------------------------------------------------------------- */

static int
hex_value(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/* The code unit of \uXXXX at s (the 'u'), or -1 when 4 hex digits do not follow. */
static int32_t
read_u4(const char *s, const char *end) {
    if (end - s < 5) {
        return -1;
    }
    int32_t v = 0;
    for (int i = 1; i <= 4; i++) {
        int h = hex_value(s[i]);
        if (h < 0) {
            return -1;
        }
        v = v * 16 + h;
    }
    return v;
}

/* Decodes the \u escape at s ('u'); *out_used is the bytes consumed after the backslash. */
static dl_status
decode_unicode(dl_sql_parser *p, const char *s, const char *end, char *out, size_t *out_len,
               size_t *out_used) {
    int32_t hi = read_u4(s, end);
    uint32_t off = (uint32_t)(s - 1 - p->text);
    if (hi < 0) {
        return dl_sql_fail_off(p, off, DL_ERR_SQL_SYNTAX,
                               "\\u must be followed by 4 hexadecimal digits");
    }
    *out_used = 5;
    uint32_t cp = (uint32_t)hi;
    if (hi >= 0xD800 && hi <= 0xDBFF) {
        int32_t lo = (end - s >= 7 && s[5] == '\\' && s[6] == 'u') ? read_u4(s + 6, end) : -1;
        if (lo < 0xDC00 || lo > 0xDFFF) {
            return dl_sql_fail_off(p, off, DL_ERR_SQL_SYNTAX,
                                   "\\u%04X is an unpaired surrogate (not a character)",
                                   (unsigned)hi);
        }
        cp = 0x10000 + (((uint32_t)hi - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
        *out_used = 11;
    } else if (hi >= 0xDC00 && hi <= 0xDFFF) {
        return dl_sql_fail_off(p, off, DL_ERR_SQL_SYNTAX,
                               "\\u%04X is an unpaired surrogate (not a character)", (unsigned)hi);
    }
    *out_len = dl_utf8_encode(cp, out);
    return DL_OK;
}

/* Decodes the escape after a backslash at s (the character after it). */
static dl_status
decode_escape(dl_sql_parser *p, const char *s, const char *end, char *out, size_t *out_len,
              size_t *out_used) {
    char c = *s;
    *out_used = 1;
    *out_len = 1;
    if (c >= '0' && c <= '3' && end - s >= 3 && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' &&
        s[2] <= '7') {
        uint32_t v = (uint32_t)((c - '0') * 64 + (s[1] - '0') * 8 + (s[2] - '0'));
        *out_used = 3;
        *out_len = dl_utf8_encode(v, out);
        return DL_OK;
    }
    switch (c) {
    case '0':
        out[0] = '\0';
        return DL_OK;
    case 'b':
        out[0] = '\b';
        return DL_OK;
    case 'n':
        out[0] = '\n';
        return DL_OK;
    case 'r':
        out[0] = '\r';
        return DL_OK;
    case 't':
        out[0] = '\t';
        return DL_OK;
    case 'Z':
        out[0] = '\x1A';
        return DL_OK;
    case '%':
    case '_':
        out[0] = '\\';
        out[1] = c;
        *out_len = 2;
        return DL_OK;
    case 'u':
        return decode_unicode(p, s, end, out, out_len, out_used);
    default:
        break;
    }
    /* Any other character stands for itself (all of its UTF-8 bytes). */
    size_t n = 1;
    while (s + n < end && ((unsigned char)s[n] & 0xC0) == 0x80) {
        n++;
    }
    memcpy(out, s, n);
    *out_used = n;
    *out_len = n;
    return DL_OK;
}

dl_status
dl_sql_string_decode(dl_sql_parser *p, const dl_sql_token *tok, char *buf, size_t *out_len) {
    const char *s = p->text + tok->off;
    const char *end = s + tok->len - 1; /* the closing quote */
    if (tok->kind == DL_SQL_TOK_RSTRING) {
        size_t n = tok->len - 3;
        memcpy(buf, s + 2, n);
        *out_len = n;
        return DL_OK;
    }
    char quote = *s++;
    size_t n = 0;
    while (s < end) {
        if (*s == quote) { /* a doubled quote */
            buf[n++] = quote;
            s += 2;
        } else if (*s == '\\' && s + 1 < end) {
            size_t len;
            size_t used;
            DL_TRY(decode_escape(p, s + 1, end, buf + n, &len, &used));
            n += len;
            s += 1 + used;
        } else {
            buf[n++] = *s++;
        }
    }
    *out_len = n;
    return DL_OK;
}

dl_status
dl_sql_parse_string(dl_sql_parser *p, const char *what, dl_str *out) {
    uint32_t total = 0;
    uint32_t n_toks = 0;
    /* The statement's last token is its end, never a string, so this stops. */
    while (dl_sql_peek_is(p, n_toks, DL_SQL_TOK_STRING) ||
           dl_sql_peek_is(p, n_toks, DL_SQL_TOK_RSTRING)) {
        total += dl_sql_peek(p, n_toks)->len;
        n_toks++;
    }
    if (n_toks == 0) {
        return dl_sql_fail_expected(p, what);
    }
    char *buf = dl_sql_alloc(p, (size_t)total + 1);
    if (buf == NULL) {
        return DL_ERR_NOMEM;
    }
    size_t n = 0;
    for (uint32_t i = 0; i < n_toks; i++) {
        size_t len;
        DL_TRY(dl_sql_string_decode(p, dl_sql_tok(p), buf + n, &len));
        n += len;
        dl_sql_advance(p);
    }
    buf[n] = '\0';
    *out = dl_str_make(buf, n);
    return DL_OK;
}

dl_status
dl_sql_parse_int(dl_sql_parser *p, const char *what, int64_t *out) {
    const dl_sql_token *t = dl_sql_tok(p);
    if (t->kind != DL_SQL_TOK_NUMBER || t->flags != 0) {
        return dl_sql_fail_expected(p, what);
    }
    int64_t v = 0;
    for (uint32_t i = 0; i < t->len; i++) {
        int d = p->text[t->off + i] - '0';
        if (DL_MUL_OVERFLOW(v, (int64_t)10, &v) || DL_ADD_OVERFLOW(v, (int64_t)d, &v)) {
            return dl_sql_fail(p, "%s %.*s is too large", what, (int)t->len, p->text + t->off);
        }
    }
    *out = v;
    dl_sql_advance(p);
    return DL_OK;
}

/* ---- properties ---------------------------------------------------------------------------- */

dl_status
dl_sql_parse_prop_key(dl_sql_parser *p, dl_str *out) {
    if (dl_sql_is(p, DL_SQL_TOK_STRING) || dl_sql_is(p, DL_SQL_TOK_RSTRING)) {
        return dl_sql_parse_string(p, "a property key", out);
    }
    dl_sql_name name;
    DL_TRY(dl_sql_parse_name(p, "a property key", &name));
    size_t len = 0;
    for (uint32_t i = 0; i < name.n_parts; i++) {
        len += name.parts[i].name.len + 1;
    }
    char *buf = dl_sql_alloc(p, len);
    if (buf == NULL) {
        return DL_ERR_NOMEM;
    }
    size_t n = 0;
    for (uint32_t i = 0; i < name.n_parts; i++) {
        if (i > 0) {
            buf[n++] = '.';
        }
        memcpy(buf + n, name.parts[i].name.ptr, name.parts[i].name.len);
        n += name.parts[i].name.len;
    }
    buf[n] = '\0';
    *out = dl_str_make(buf, n);
    return DL_OK;
}

/* A property value: a string, a number, TRUE or FALSE. */
static dl_status
parse_prop_value(dl_sql_parser *p, dl_str *out) {
    const dl_sql_token *t = dl_sql_tok(p);
    if (t->kind == DL_SQL_TOK_STRING || t->kind == DL_SQL_TOK_RSTRING) {
        return dl_sql_parse_string(p, "a property value", out);
    }
    if (t->kind == DL_SQL_TOK_NUMBER) {
        DL_TRY(dl_sql_strdup(p, p->text + t->off, t->len, out));
        dl_sql_advance(p);
        return DL_OK;
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_TRUE) || dl_sql_is_kw(p, DL_SQL_KW_FALSE)) {
        *out = dl_sql_is_kw(p, DL_SQL_KW_TRUE) ? DL_STR("true") : DL_STR("false");
        dl_sql_advance(p);
        return DL_OK;
    }
    return dl_sql_fail_expected(p, "a property value (a string, number, TRUE or FALSE)");
}

dl_status
dl_sql_parse_props(dl_sql_parser *p, bool with_values, dl_sql_prop_list *out) {
    const dl_sql_token *open = dl_sql_tok(p);
    DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LPAREN));
    dl_sql_vec items = {0};
    do {
        dl_sql_prop *prop;
        DL_SQL_PUSH(p, items, prop);
        prop->loc = dl_sql_tok(p)->off;
        DL_TRY(dl_sql_parse_prop_key(p, &prop->key));
        if (with_values) {
            (void)dl_sql_accept(p, DL_SQL_TOK_EQ);
            DL_TRY(parse_prop_value(p, &prop->value));
            prop->has_value = true;
        }
    } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    DL_TRY(dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "property list"));
    out->items = items.data;
    out->n = items.n;
    return DL_OK;
}

/* ---- statements ---------------------------------------------------------------------------- */

static const char unknown_statement_list[] =
    "SELECT, WITH, VALUES, INSERT, UPDATE, DELETE, MERGE, CREATE, REPLACE, DROP, ALTER, "
    "DESCRIBE, SHOW, USE, SET, RESET, RESTORE, VACUUM, OPTIMIZE, REORG, COPY, EXPLAIN, CONVERT, "
    "TRUNCATE or GENERATE";

/* Statements Spark has and deltalite refuses on purpose. */
static dl_status
refuse_statement(dl_sql_parser *p) {
    const dl_sql_token *t = dl_sql_tok(p);
    const dl_sql_token *t2 = dl_sql_peek(p, 1);
    bool two = t2->kind == DL_SQL_TOK_WORD;
    return dl_sql_fail_tok(p, t, DL_ERR_UNSUPPORTED, "%.*s%s%.*s is not supported by deltalite",
                           (int)t->len, p->text + t->off, two ? " " : "", two ? (int)t2->len : 0,
                           p->text + t2->off);
}

static dl_status
parse_query_stmt(dl_sql_parser *p, dl_sql_stmt *s) {
    s->kind = DL_SQL_STMT_QUERY;
    return dl_sql_parse_query(p, &s->u.query);
}

static dl_status
parse_explain(dl_sql_parser *p, dl_sql_stmt *s) {
    static const struct {
        dl_sql_kw kw;
        dl_sql_explain_mode mode;
    } modes[] = {{DL_SQL_KW_EXTENDED, DL_SQL_EXPLAIN_EXTENDED},
                 {DL_SQL_KW_FORMATTED, DL_SQL_EXPLAIN_FORMATTED},
                 {DL_SQL_KW_CODEGEN, DL_SQL_EXPLAIN_CODEGEN},
                 {DL_SQL_KW_COST, DL_SQL_EXPLAIN_COST},
                 {DL_SQL_KW_ANALYZE, DL_SQL_EXPLAIN_ANALYZE}};

    s->kind = DL_SQL_STMT_EXPLAIN;
    dl_sql_advance(p);
    for (size_t i = 0; i < DL_ARRAY_LEN(modes); i++) {
        if (dl_sql_accept_kw(p, modes[i].kw)) {
            s->u.explain.mode = modes[i].mode;
            break;
        }
    }
    if (dl_sql_is_kw(p, DL_SQL_KW_EXPLAIN)) {
        return dl_sql_fail(p, "EXPLAIN cannot explain an EXPLAIN");
    }
    DL_TRY(dl_sql_enter(p));
    DL_TRY(dl_sql_parse_statement(p, &s->u.explain.stmt));
    dl_sql_leave(p);
    return DL_OK;
}

typedef dl_status (*stmt_parser)(dl_sql_parser *p, dl_sql_stmt *s);

static stmt_parser
statement_parser(dl_sql_kw kw) {
    switch (kw) {
    case DL_SQL_KW_SELECT:
    case DL_SQL_KW_WITH:
    case DL_SQL_KW_VALUES:
        return parse_query_stmt;
    case DL_SQL_KW_CREATE:
        return dl_sql_parse_create;
    case DL_SQL_KW_REPLACE:
        return dl_sql_parse_replace;
    case DL_SQL_KW_DROP:
        return dl_sql_parse_drop;
    case DL_SQL_KW_USE:
        return dl_sql_parse_use;
    case DL_SQL_KW_ALTER:
        return dl_sql_parse_alter;
    case DL_SQL_KW_INSERT:
        return dl_sql_parse_insert;
    case DL_SQL_KW_UPDATE:
        return dl_sql_parse_update;
    case DL_SQL_KW_DELETE:
        return dl_sql_parse_delete;
    case DL_SQL_KW_MERGE:
        return dl_sql_parse_merge;
    case DL_SQL_KW_TRUNCATE:
        return dl_sql_parse_truncate;
    case DL_SQL_KW_RESTORE:
        return dl_sql_parse_restore;
    case DL_SQL_KW_VACUUM:
        return dl_sql_parse_vacuum;
    case DL_SQL_KW_OPTIMIZE:
        return dl_sql_parse_optimize;
    case DL_SQL_KW_REORG:
        return dl_sql_parse_reorg;
    case DL_SQL_KW_DESCRIBE:
    case DL_SQL_KW_DESC:
        return dl_sql_parse_describe;
    case DL_SQL_KW_SHOW:
        return dl_sql_parse_show;
    case DL_SQL_KW_SET:
        return dl_sql_parse_set;
    case DL_SQL_KW_RESET:
        return dl_sql_parse_reset;
    case DL_SQL_KW_COPY:
        return dl_sql_parse_copy;
    case DL_SQL_KW_EXPLAIN:
        return parse_explain;
    case DL_SQL_KW_CONVERT:
        return dl_sql_parse_convert;
    case DL_SQL_KW_GENERATE:
        return dl_sql_parse_generate;
    case DL_SQL_KW_CACHE:
    case DL_SQL_KW_UNCACHE:
    case DL_SQL_KW_REFRESH:
    case DL_SQL_KW_ANALYZE:
        return dl_sql_parse_cache;
    default:
        return NULL;
    }
}

static bool
is_refused_statement(dl_sql_kw kw) {
    return kw == DL_SQL_KW_MSCK || kw == DL_SQL_KW_GRANT || kw == DL_SQL_KW_REVOKE ||
           kw == DL_SQL_KW_LOAD;
}

dl_status
dl_sql_parse_statement(dl_sql_parser *p, dl_sql_stmt **out) {
    const dl_sql_token *first = dl_sql_tok(p);
    dl_sql_stmt *s;
    DL_SQL_NEW(p, s);
    s->loc = first->off;
    stmt_parser fn = NULL;
    if (first->kind == DL_SQL_TOK_LPAREN) {
        fn = parse_query_stmt;
    } else if (first->kind == DL_SQL_TOK_WORD) {
        fn = statement_parser((dl_sql_kw)first->kw);
        if (fn == NULL && dl_sql_tok_is_word(p, first, "CLEAR")) {
            fn = dl_sql_parse_cache;
        }
        if (fn == NULL && is_refused_statement((dl_sql_kw)first->kw)) {
            return refuse_statement(p);
        }
    }
    if (fn == NULL) {
        char found[DESC_CAP];
        dl_sql_describe_tok(p, first, found, sizeof(found));
        if (first->kind == DL_SQL_TOK_WORD || first->kind == DL_SQL_TOK_QIDENT) {
            return dl_sql_fail(p, "unknown statement %s; expected %s", found,
                               unknown_statement_list);
        }
        return dl_sql_fail(p, "expected a statement (%s), found %s", unknown_statement_list, found);
    }
    DL_TRY(fn(p, s));
    const dl_sql_token *last = &p->toks[p->pos > 0 ? p->pos - 1 : 0];
    s->end = last->off + last->len;
    s->params = (const dl_sql_expr *const *)p->params.data;
    s->n_params = p->params.n;
    *out = s;
    return DL_OK;
}

/* ---- the reader ---------------------------------------------------------------------------- */

void
dl_sql_reader_init(dl_sql_reader *r, const char *text, size_t len) {
    r->text = text;
    r->is_too_long = len > DL_SQL_MAX_TEXT;
    r->len = r->is_too_long ? 0 : (uint32_t)len;
    r->pos = 0;
    r->line = 1;
    r->col = 1;
}

/* Lexes one statement's tokens (through its ';' or the end) into scratch. */
static dl_status
lex_statement(dl_sql_reader *r, dl_arena *scratch, dl_sql_lexer *lx, dl_sql_vec *toks,
              dl_error *err) {
    dl_sql_parser tmp = {.arena = scratch, .err = err};
    dl_sql_lexer_init(lx, r->text, r->len, r->pos, r->line, r->col);
    for (;;) {
        dl_sql_token *t;
        DL_SQL_PUSH(&tmp, *toks, t);
        dl_sql_lexer_next(lx, t);
        if (t->kind == DL_SQL_TOK_EOF || t->kind == DL_SQL_TOK_SEMI) {
            return DL_OK;
        }
    }
}

/* Parses the next statement with its tokens in scratch. */
static dl_status
read_statement(dl_sql_reader *r, dl_arena *arena, dl_arena *scratch, dl_sql_stmt **out,
               dl_error *err) {
    for (;;) {
        dl_sql_lexer lx;
        dl_sql_vec toks = {0};
        dl_arena_mark mark = dl_arena_get_mark(scratch);
        DL_TRY(lex_statement(r, scratch, &lx, &toks, err));
        dl_sql_token *all = toks.data;
        dl_sql_token *end = &all[toks.n - 1];
        if (toks.n == 1 && end->kind == DL_SQL_TOK_EOF) {
            r->pos = r->len;
            return DL_OK;
        }
        if (toks.n > 1) {
            dl_sql_parser p = {.text = r->text,
                               .text_len = r->len,
                               .arena = arena,
                               .toks = all,
                               .n_toks = toks.n,
                               .err = err};
            DL_TRY(dl_sql_parse_statement(&p, out));
            if (!dl_sql_at_end(&p)) {
                return dl_sql_fail_expected(&p, "the end of the statement");
            }
        }
        uint32_t next = end->kind == DL_SQL_TOK_SEMI ? end->off + 1 : r->len;
        dl_sql_lexer_locate(&lx, next, &r->line, &r->col);
        r->pos = next;
        if (*out != NULL) {
            return DL_OK;
        }
        dl_arena_rewind(scratch, mark);
    }
}

dl_status
dl_sql_reader_next(dl_sql_reader *r, dl_arena *arena, dl_sql_stmt **out, dl_error *err) {
    *out = NULL;
    if (r->is_too_long) {
        DL_FAIL(err, DL_ERR_LIMIT, "SQL text exceeds the limit of %zu bytes", DL_SQL_MAX_TEXT);
    }
    dl_arena scratch;
    dl_arena_init(&scratch, arena->alloc, 0);
    dl_status s = read_statement(r, arena, &scratch, out, err);
    dl_arena_destroy(&scratch);
    if (s != DL_OK) {
        *out = NULL;
    }
    return s;
}

dl_status
dl_sql_parse(dl_arena *arena, const char *text, size_t len, dl_sql_script *out, dl_error *err) {
    out->stmts = NULL;
    out->n_stmts = 0;
    dl_sql_reader r;
    dl_sql_reader_init(&r, text, len);
    dl_sql_parser p = {.arena = arena, .err = err};
    dl_sql_vec stmts = {0};
    for (;;) {
        dl_sql_stmt *s = NULL;
        DL_TRY(dl_sql_reader_next(&r, arena, &s, err));
        if (s == NULL) {
            break;
        }
        dl_sql_stmt **slot;
        DL_SQL_PUSH_PTR(&p, stmts, slot);
        *slot = s;
    }
    out->stmts = stmts.data;
    out->n_stmts = stmts.n;
    return DL_OK;
}

dl_status
dl_sql_parse_stmt(dl_arena *arena, const char *text, size_t len, dl_sql_stmt **out, dl_error *err) {
    *out = NULL;
    dl_sql_reader r;
    dl_sql_reader_init(&r, text, len);
    dl_sql_stmt *s = NULL;
    DL_TRY(dl_sql_reader_next(&r, arena, &s, err));
    if (s == NULL) {
        DL_FAIL(err, DL_ERR_SQL_SYNTAX, "syntax error at line %u, column %u: empty statement",
                r.line, r.col);
    }
    dl_sql_stmt *extra = NULL;
    DL_TRY(dl_sql_reader_next(&r, arena, &extra, err));
    if (extra != NULL) {
        uint32_t line;
        uint32_t col;
        dl_sql_offset_to_line_col(text, len, extra->loc, &line, &col);
        (void)dl_error_set(err, DL_ERR_SQL_SYNTAX,
                           "syntax error at line %u, column %u: expected one statement, found "
                           "a second one after ';'",
                           line, col);
        if (err != NULL) {
            err->offset = extra->loc;
        }
        return DL_ERR_SQL_SYNTAX;
    }
    *out = s;
    return DL_OK;
}

/* ---- fragments: one expression or one type ------------------------------------------------ */

typedef dl_status (*fragment_parser)(dl_sql_parser *p, void **out);

static dl_status
parse_expr_fragment(dl_sql_parser *p, void **out) {
    dl_sql_expr *e = NULL;
    DL_TRY(dl_sql_parse_expr(p, &e));
    *out = e;
    return DL_OK;
}

static dl_status
parse_type_fragment(dl_sql_parser *p, void **out) {
    dl_sql_type *t = NULL;
    DL_TRY(dl_sql_parse_type(p, &t));
    *out = t;
    return DL_OK;
}

/* Lexes all of text (a ';' is an ordinary token here) and runs fn over it. */
static dl_status
parse_fragment(dl_arena *arena, dl_arena *scratch, const char *text, size_t len, fragment_parser fn,
               void **out, dl_error *err) {
    if (len > DL_SQL_MAX_TEXT) {
        DL_FAIL(err, DL_ERR_LIMIT, "SQL text exceeds the limit of %zu bytes", DL_SQL_MAX_TEXT);
    }
    dl_sql_parser tmp = {.arena = scratch, .err = err};
    dl_sql_lexer lx;
    dl_sql_vec toks = {0};
    dl_sql_lexer_init(&lx, text, (uint32_t)len, 0, 1, 1);
    dl_sql_token *t;
    do {
        DL_SQL_PUSH(&tmp, toks, t);
        dl_sql_lexer_next(&lx, t);
    } while (t->kind != DL_SQL_TOK_EOF);
    dl_sql_parser p = {.text = text,
                       .text_len = (uint32_t)len,
                       .arena = arena,
                       .toks = toks.data,
                       .n_toks = toks.n,
                       .err = err};
    DL_TRY(fn(&p, out));
    if (!dl_sql_at_end(&p)) {
        return dl_sql_fail_expected(&p, "the end of the text");
    }
    return DL_OK;
}

static dl_status
run_fragment(dl_arena *arena, const char *text, size_t len, fragment_parser fn, void **out,
             dl_error *err) {
    dl_arena scratch;
    dl_arena_init(&scratch, arena->alloc, 0);
    dl_status s = parse_fragment(arena, &scratch, text, len, fn, out, err);
    dl_arena_destroy(&scratch);
    return s;
}

dl_status
dl_sql_parse_expr_text(dl_arena *arena, const char *text, size_t len, dl_sql_expr **out,
                       dl_error *err) {
    void *result = NULL;
    dl_status s = run_fragment(arena, text, len, parse_expr_fragment, &result, err);
    *out = s == DL_OK ? result : NULL;
    return s;
}

dl_status
dl_sql_parse_type_text(dl_arena *arena, const char *text, size_t len, dl_sql_type **out,
                       dl_error *err) {
    void *result = NULL;
    dl_status s = run_fragment(arena, text, len, parse_type_fragment, &result, err);
    *out = s == DL_OK ? result : NULL;
    return s;
}
