/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SQL lexer (grammar in sql_lex.h).
 *
 * Numbers and words share a rule, as in Spark's ANTLR lexer, which takes the longest match:
 * a run of letters, digits and '_' that starts with a digit is a number when the number rule
 * covers all of it (`10`, `10L`, `1e10`, `1e10D`) and an identifier otherwise (`2024_sales`,
 * `1a`). A number with a decimal point ends where the number rule ends (`1.5x` is 1.5 and x).
 *
 * Keywords are found by binary search over sql_keywords.def, which is kept in ASCII order;
 * the search compares upper-cased bytes, and no keyword is longer than KW_MAX_LEN.
 */
#include "sql/parse/sql_lex.h"

#include <string.h>

#define KW_MAX_LEN 24

typedef struct kw_entry {
    const char *name;
    uint8_t len;
    uint8_t cls;
} kw_entry;

#define N DL_SQL_KWC_N
#define A DL_SQL_KWC_A
#define R DL_SQL_KWC_R
static const kw_entry keywords[] = {
    {"", 0, N},
#define DL_SQL_KW(name, cls) {#name, (uint8_t)(sizeof(#name) - 1), cls},
#include "sql/parse/sql_keywords.def"
#undef DL_SQL_KW
};
#undef N
#undef A
#undef R

static bool
is_alpha(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool
is_digit(unsigned char c) {
    return c >= '0' && c <= '9';
}

static bool
is_word_char(unsigned char c) {
    return is_alpha(c) || is_digit(c) || c == '_';
}

static unsigned char
upper(unsigned char c) {
    return (c >= 'a' && c <= 'z') ? (unsigned char)(c - 32) : c;
}

dl_sql_kw
dl_sql_keyword_lookup(dl_str s) {
    if (s.len == 0 || s.len > KW_MAX_LEN) {
        return DL_SQL_NO_KW;
    }
    char up[KW_MAX_LEN];
    for (size_t i = 0; i < s.len; i++) {
        up[i] = (char)upper((unsigned char)s.ptr[i]);
    }
    size_t lo = 1;
    size_t hi = DL_ARRAY_LEN(keywords);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const kw_entry *k = &keywords[mid];
        size_t n = DL_MIN(s.len, (size_t)k->len);
        int c = memcmp(up, k->name, n);
        if (c == 0) {
            c = (s.len > k->len) - (s.len < k->len);
        }
        if (c == 0) {
            return (dl_sql_kw)mid;
        }
        if (c < 0) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return DL_SQL_NO_KW;
}

const char *
dl_sql_keyword_name(dl_sql_kw kw) {
    if ((size_t)kw >= DL_ARRAY_LEN(keywords)) {
        return "";
    }
    return keywords[kw].name;
}

dl_sql_kw_class
dl_sql_keyword_class(dl_sql_kw kw) {
    if ((size_t)kw >= DL_ARRAY_LEN(keywords)) {
        return DL_SQL_KWC_N;
    }
    return (dl_sql_kw_class)keywords[kw].cls;
}

const char *
dl_sql_lex_error_text(dl_sql_lex_error e) {
    switch (e) {
    case DL_SQL_LEX_BAD_CHAR:
        return "unexpected character";
    case DL_SQL_LEX_BAD_UTF8:
        return "invalid UTF-8";
    case DL_SQL_LEX_UNTERMINATED_STRING:
        return "unterminated string literal";
    case DL_SQL_LEX_UNTERMINATED_QIDENT:
        return "unterminated quoted identifier";
    case DL_SQL_LEX_UNTERMINATED_COMMENT:
        return "unterminated comment";
    }
    return "malformed token";
}

void
dl_sql_lexer_init(dl_sql_lexer *lx, const char *text, uint32_t len, uint32_t pos, uint32_t line,
                  uint32_t col) {
    lx->text = text;
    lx->len = len;
    lx->pos = pos;
    lx->mark = pos;
    lx->line = line;
    lx->col = col;
    lx->is_lenient = false;
}

void
dl_sql_lexer_locate(dl_sql_lexer *lx, uint32_t off, uint32_t *out_line, uint32_t *out_col) {
    const unsigned char *t = (const unsigned char *)lx->text;
    for (uint32_t i = lx->mark; i < off; i++) {
        if (t[i] == '\n') {
            lx->line++;
            lx->col = 1;
        } else if ((t[i] & 0xC0) != 0x80) {
            lx->col++;
        }
    }
    if (off > lx->mark) {
        lx->mark = off;
    }
    *out_line = lx->line;
    *out_col = lx->col;
}

/* Length of the valid UTF-8 character at pos, or 0 when the bytes there are not UTF-8. */
static uint32_t
utf8_len_at(const dl_sql_lexer *lx, uint32_t pos) {
    unsigned char c = (unsigned char)lx->text[pos];
    uint32_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || n > lx->len - pos) {
        return 0;
    }
    return dl_utf8_valid(lx->text + pos, n) ? n : 0;
}

static void
set_error(dl_sql_lexer *lx, dl_sql_token *tok, dl_sql_lex_error e, uint32_t off, uint32_t len) {
    tok->kind = DL_SQL_TOK_ERROR;
    tok->kw = (uint16_t)e;
    tok->off = off;
    tok->len = len;
    dl_sql_lexer_locate(lx, off, &tok->line, &tok->col);
}

/*
 * Steps over a byte >= 0x80 inside a string, quoted name or comment. Returns false (and makes
 * tok an error) when strict and the bytes are not UTF-8.
 */
static bool
skip_non_ascii(dl_sql_lexer *lx, dl_sql_token *tok) {
    uint32_t n = utf8_len_at(lx, lx->pos);
    if (n == 0) {
        if (!lx->is_lenient) {
            set_error(lx, tok, DL_SQL_LEX_BAD_UTF8, lx->pos, 1);
            lx->pos++;
            return false;
        }
        n = 1;
    }
    lx->pos += n;
    return true;
}

/* Skips a nested block comment starting at pos ("/" "*"). False when tok became an error. */
static bool
skip_block_comment(dl_sql_lexer *lx, dl_sql_token *tok) {
    uint32_t start = lx->pos;
    uint32_t depth = 0;
    const char *t = lx->text;
    while (lx->pos < lx->len) {
        if (t[lx->pos] == '/' && lx->pos + 1 < lx->len && t[lx->pos + 1] == '*') {
            depth++;
            lx->pos += 2;
        } else if (t[lx->pos] == '*' && lx->pos + 1 < lx->len && t[lx->pos + 1] == '/') {
            lx->pos += 2;
            if (--depth == 0) {
                return true;
            }
        } else if ((unsigned char)t[lx->pos] >= 0x80) {
            if (!skip_non_ascii(lx, tok)) {
                return false;
            }
        } else {
            lx->pos++;
        }
    }
    set_error(lx, tok, DL_SQL_LEX_UNTERMINATED_COMMENT, start, lx->len - start);
    return false;
}

/* Skips a line comment starting at pos ("--"). False when tok became an error. */
static bool
skip_line_comment(dl_sql_lexer *lx, dl_sql_token *tok) {
    const char *t = lx->text;
    while (lx->pos < lx->len && t[lx->pos] != '\n') {
        if ((unsigned char)t[lx->pos] < 0x80) {
            lx->pos++;
        } else if (!skip_non_ascii(lx, tok)) {
            return false;
        }
    }
    return true;
}

/* Skips white space and comments. False when tok became an error. */
static bool
skip_space(dl_sql_lexer *lx, dl_sql_token *tok) {
    const char *t = lx->text;
    while (lx->pos < lx->len) {
        char c = t[lx->pos];
        char next = '\0';
        if (lx->pos + 1 < lx->len) {
            next = t[lx->pos + 1];
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            lx->pos++;
        } else if (c == '-' && next == '-') {
            if (!skip_line_comment(lx, tok)) {
                return false;
            }
        } else if (c == '/' && next == '*') {
            if (!skip_block_comment(lx, tok)) {
                return false;
            }
        } else {
            return true;
        }
    }
    return true;
}

/* A quoted run: '...' or "..." (escapes when has_escapes) or `...`. pos is at the quote. */
static void
lex_quoted(dl_sql_lexer *lx, dl_sql_token *tok, char quote, bool has_escapes,
           dl_sql_lex_error unterminated) {
    const char *t = lx->text;
    uint32_t start = tok->off;
    lx->pos++;
    while (lx->pos < lx->len) {
        char c = t[lx->pos];
        if (c == quote) {
            if (quote != '`' && !has_escapes) {
                lx->pos++;
                tok->len = lx->pos - start;
                return;
            }
            if (lx->pos + 1 < lx->len && t[lx->pos + 1] == quote) {
                lx->pos += 2;
                continue;
            }
            lx->pos++;
            tok->len = lx->pos - start;
            return;
        }
        if (c == '\\' && has_escapes && lx->pos + 1 < lx->len) {
            lx->pos++;
            c = t[lx->pos];
        }
        if ((unsigned char)c >= 0x80) {
            if (!skip_non_ascii(lx, tok)) {
                return;
            }
        } else {
            lx->pos++;
        }
    }
    /* The error covers the rest of the text, which the open quote swallowed. */
    set_error(lx, tok, unterminated, start, lx->len - start);
}

/* Suffix flag for the letters at p (n bytes available), and its length in *out_len. */
static uint8_t
number_suffix(const char *p, uint32_t n, bool is_integer, uint32_t *out_len) {
    *out_len = 0;
    if (n == 0) {
        return 0;
    }
    unsigned char c = upper((unsigned char)p[0]);
    if (c == 'B' && n >= 2 && upper((unsigned char)p[1]) == 'D') {
        *out_len = 2;
        return DL_SQL_NUMF_BD;
    }
    uint8_t f = c == 'D' ? DL_SQL_NUMF_D : c == 'F' ? DL_SQL_NUMF_F : 0;
    if (f == 0 && is_integer) {
        f = c == 'L' ? DL_SQL_NUMF_L : c == 'S' ? DL_SQL_NUMF_S : c == 'Y' ? DL_SQL_NUMF_Y : 0;
    }
    *out_len = f != 0 ? 1 : 0;
    return f;
}

/* A number, or a word that starts with a digit. pos is at a digit or at '.' before a digit. */
static void
lex_number(dl_sql_lexer *lx, dl_sql_token *tok) {
    const char *t = lx->text;
    uint32_t start = lx->pos;
    uint32_t i = start;
    uint8_t flags = 0;
    while (i < lx->len && is_digit((unsigned char)t[i])) {
        i++;
    }
    if (i < lx->len && t[i] == '.') {
        flags |= DL_SQL_NUMF_DOT;
        i++;
        while (i < lx->len && is_digit((unsigned char)t[i])) {
            i++;
        }
    }
    if (i < lx->len && (t[i] == 'e' || t[i] == 'E')) {
        uint32_t j = i + 1;
        if (j < lx->len && (t[j] == '+' || t[j] == '-')) {
            j++;
        }
        if (j < lx->len && is_digit((unsigned char)t[j])) {
            flags |= DL_SQL_NUMF_EXP;
            i = j;
            while (i < lx->len && is_digit((unsigned char)t[i])) {
                i++;
            }
        }
    }
    uint32_t suffix_len;
    flags |= number_suffix(t + i, lx->len - i, (flags & (DL_SQL_NUMF_DOT | DL_SQL_NUMF_EXP)) == 0,
                           &suffix_len);
    i += suffix_len;
    if ((flags & DL_SQL_NUMF_DOT) == 0) {
        /* Longest match against the word rule: `1a`, `2024_sales`, `1e` are words. */
        uint32_t w = start;
        while (w < lx->len && is_word_char((unsigned char)t[w])) {
            w++;
        }
        if (w > i) {
            tok->kind = DL_SQL_TOK_WORD;
            tok->len = w - start;
            lx->pos = w;
            return;
        }
    }
    tok->kind = DL_SQL_TOK_NUMBER;
    tok->flags = flags;
    tok->len = i - start;
    lx->pos = i;
}

static void
lex_word(dl_sql_lexer *lx, dl_sql_token *tok) {
    const char *t = lx->text;
    uint32_t start = lx->pos;
    while (lx->pos < lx->len && is_word_char((unsigned char)t[lx->pos])) {
        lx->pos++;
    }
    tok->kind = DL_SQL_TOK_WORD;
    tok->len = lx->pos - start;
    tok->kw = (uint16_t)dl_sql_keyword_lookup(dl_str_make(t + start, tok->len));
}

/* The operator at pos: its kind and length, or 0 length when no operator starts there. */
static uint32_t
match_operator(const char *t, uint32_t n, dl_sql_tok_kind *out) {
    static const struct {
        const char *text;
        uint8_t len;
        uint8_t kind;
    } ops[] = {
        {"<=>", 3, DL_SQL_TOK_NSEQ},    {">>>", 3, DL_SQL_TOK_SHRU},   {"==", 2, DL_SQL_TOK_EQEQ},
        {"<>", 2, DL_SQL_TOK_NE},       {"!=", 2, DL_SQL_TOK_BANGEQ},  {"<=", 2, DL_SQL_TOK_LE},
        {">=", 2, DL_SQL_TOK_GE},       {"||", 2, DL_SQL_TOK_CONCAT},  {"<<", 2, DL_SQL_TOK_SHL},
        {">>", 2, DL_SQL_TOK_SHR},      {"::", 2, DL_SQL_TOK_DCOLON},  {"->", 2, DL_SQL_TOK_ARROW},
        {"=>", 2, DL_SQL_TOK_FATARROW}, {"(", 1, DL_SQL_TOK_LPAREN},   {")", 1, DL_SQL_TOK_RPAREN},
        {"[", 1, DL_SQL_TOK_LBRACKET},  {"]", 1, DL_SQL_TOK_RBRACKET}, {",", 1, DL_SQL_TOK_COMMA},
        {".", 1, DL_SQL_TOK_DOT},       {"=", 1, DL_SQL_TOK_EQ},       {"<", 1, DL_SQL_TOK_LT},
        {">", 1, DL_SQL_TOK_GT},        {"+", 1, DL_SQL_TOK_PLUS},     {"-", 1, DL_SQL_TOK_MINUS},
        {"*", 1, DL_SQL_TOK_STAR},      {"/", 1, DL_SQL_TOK_SLASH},    {"%", 1, DL_SQL_TOK_PERCENT},
        {"&", 1, DL_SQL_TOK_AMP},       {"|", 1, DL_SQL_TOK_PIPE},     {"^", 1, DL_SQL_TOK_CARET},
        {"~", 1, DL_SQL_TOK_TILDE},     {"!", 1, DL_SQL_TOK_BANG},     {":", 1, DL_SQL_TOK_COLON},
        {"?", 1, DL_SQL_TOK_QUESTION},  {"@", 1, DL_SQL_TOK_AT},       {";", 1, DL_SQL_TOK_SEMI},
    };

    for (size_t i = 0; i < DL_ARRAY_LEN(ops); i++) {
        if (ops[i].len <= n && memcmp(t, ops[i].text, ops[i].len) == 0) {
            *out = (dl_sql_tok_kind)ops[i].kind;
            return ops[i].len;
        }
    }
    return 0;
}

void
dl_sql_lexer_next(dl_sql_lexer *lx, dl_sql_token *tok) {
    memset(tok, 0, sizeof(*tok));
    if (!skip_space(lx, tok)) {
        return;
    }
    tok->off = lx->pos;
    dl_sql_lexer_locate(lx, lx->pos, &tok->line, &tok->col);
    if (lx->pos >= lx->len) {
        tok->kind = DL_SQL_TOK_EOF;
        return;
    }
    const char *t = lx->text;
    unsigned char c = (unsigned char)t[lx->pos];
    unsigned char next = lx->pos + 1 < lx->len ? (unsigned char)t[lx->pos + 1] : 0;
    if ((c == 'r' || c == 'R') && (next == '\'' || next == '"')) {
        tok->kind = DL_SQL_TOK_RSTRING;
        lx->pos++;
        lex_quoted(lx, tok, (char)next, false, DL_SQL_LEX_UNTERMINATED_STRING);
    } else if (is_alpha(c) || c == '_') {
        lex_word(lx, tok);
    } else if (is_digit(c) || (c == '.' && is_digit(next))) {
        lex_number(lx, tok);
    } else if (c == '\'' || c == '"') {
        tok->kind = DL_SQL_TOK_STRING;
        lex_quoted(lx, tok, (char)c, true, DL_SQL_LEX_UNTERMINATED_STRING);
    } else if (c == '`') {
        tok->kind = DL_SQL_TOK_QIDENT;
        lex_quoted(lx, tok, '`', false, DL_SQL_LEX_UNTERMINATED_QIDENT);
    } else {
        dl_sql_tok_kind kind;
        uint32_t n = match_operator(t + lx->pos, lx->len - lx->pos, &kind);
        if (n > 0) {
            tok->kind = (uint8_t)kind;
            tok->len = n;
            lx->pos += n;
        } else if (c >= 0x80 && utf8_len_at(lx, lx->pos) == 0 && !lx->is_lenient) {
            set_error(lx, tok, DL_SQL_LEX_BAD_UTF8, lx->pos, 1);
            lx->pos++;
        } else {
            uint32_t len = c >= 0x80 ? DL_MAX(utf8_len_at(lx, lx->pos), 1u) : 1u;
            set_error(lx, tok, DL_SQL_LEX_BAD_CHAR, lx->pos, len);
            lx->pos += len;
        }
    }
}
