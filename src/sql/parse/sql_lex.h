/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SQL lexer: Spark SQL's tokens, one at a time, with their byte offset, line and column.
 *
 * Tokens (Spark's SqlBaseLexer.g4, as deltalite reads it):
 *   word        [A-Za-z_][A-Za-z0-9_]*, or a run of [A-Za-z0-9_] that starts with a digit and
 *               is not a number (`2024_sales`); a keyword when it spells one, in any case.
 *   `quoted`    any bytes; `` stands for one backtick.
 *   'string'    and "string": a backslash escapes the next character, and a doubled quote
 *               stands for one; the parser decodes the escapes (dl_sql_string_decode).
 *   r'raw'      R'...' and r"...": no escapes at all. (X'1F' is the word X and a string; the
 *               parser makes it a binary literal, as Spark's typed-literal rule does.)
 *   number      digits [ '.' digits ] [ e [+-] digits ] [ suffix ], or '.' digits ...; the
 *               suffixes are L (BIGINT), S (SMALLINT), Y (TINYINT) on integers, and D (DOUBLE),
 *               F (FLOAT), BD (DECIMAL) on any number, all case-insensitive.
 *   operators   = == <> != <=> < <= > >= + - * / % || & | ^ ~ ! << >> >>> :: : -> => ? @
 *               ( ) [ ] , . ;
 *   comments    -- to the end of the line, and slash-star ... star-slash, which nest (Spark's
 *               bracketed comments; optimizer hints are such comments) — both are white space.
 *
 * Line and column are 1-based; the column counts UTF-8 code points, so a caret lines up under
 * the character on a terminal. The lexer never fails: a malformed token is a DL_SQL_TOK_ERROR
 * whose kw field holds a dl_sql_lex_error and whose offset points at the fault, and the
 * parser reports it when it reaches it. In strict mode invalid UTF-8 (anywhere: in strings,
 * quoted names and comments too) is such an error; lenient mode, used by the statement
 * splitter, treats any byte >= 0x80 inside strings and comments as opaque.
 *
 * Positions are 32-bit: the caller keeps texts under 4 GiB (dl_sql_reader refuses larger).
 */
#ifndef DL_SQL_SQL_LEX_H
#define DL_SQL_SQL_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/str.h"

/* Keyword ids: DL_SQL_NO_KW (0) for a word that is no keyword, else DL_SQL_KW_<NAME>. */
typedef enum dl_sql_kw {
    DL_SQL_NO_KW = 0,
#define DL_SQL_KW(name, cls) DL_SQL_KW_##name,
#include "sql/parse/sql_keywords.def"
#undef DL_SQL_KW
    DL_SQL_KW_COUNT
} dl_sql_kw;

/* Where a keyword may be an identifier (see sql_keywords.def). */
typedef enum dl_sql_kw_class {
    DL_SQL_KWC_N = 0, /* non-reserved */
    DL_SQL_KWC_A = 1, /* non-reserved, not an implicit alias */
    DL_SQL_KWC_R = 2, /* reserved */
} dl_sql_kw_class;

typedef enum dl_sql_tok_kind {
    DL_SQL_TOK_EOF = 0, /* end of the text */
    DL_SQL_TOK_SEMI,    /* ';' */
    DL_SQL_TOK_ERROR,   /* a malformed token; kw holds the dl_sql_lex_error */
    DL_SQL_TOK_WORD,    /* unquoted identifier or keyword; kw says which keyword */
    DL_SQL_TOK_QIDENT,  /* `quoted identifier` */
    DL_SQL_TOK_STRING,  /* 'string' or "string" */
    DL_SQL_TOK_RSTRING, /* r'raw string' */
    DL_SQL_TOK_NUMBER,  /* flags: DL_SQL_NUMF_* */
    DL_SQL_TOK_LPAREN,
    DL_SQL_TOK_RPAREN,
    DL_SQL_TOK_LBRACKET,
    DL_SQL_TOK_RBRACKET,
    DL_SQL_TOK_COMMA,
    DL_SQL_TOK_DOT,
    DL_SQL_TOK_EQ,       /* = */
    DL_SQL_TOK_EQEQ,     /* == */
    DL_SQL_TOK_NE,       /* <> */
    DL_SQL_TOK_BANGEQ,   /* != */
    DL_SQL_TOK_NSEQ,     /* <=> */
    DL_SQL_TOK_LT,       /* < */
    DL_SQL_TOK_LE,       /* <= */
    DL_SQL_TOK_GT,       /* > */
    DL_SQL_TOK_GE,       /* >= */
    DL_SQL_TOK_PLUS,     /* + */
    DL_SQL_TOK_MINUS,    /* - */
    DL_SQL_TOK_STAR,     /* * */
    DL_SQL_TOK_SLASH,    /* / */
    DL_SQL_TOK_PERCENT,  /* % */
    DL_SQL_TOK_CONCAT,   /* || */
    DL_SQL_TOK_AMP,      /* & */
    DL_SQL_TOK_PIPE,     /* | */
    DL_SQL_TOK_CARET,    /* ^ */
    DL_SQL_TOK_TILDE,    /* ~ */
    DL_SQL_TOK_BANG,     /* ! */
    DL_SQL_TOK_SHL,      /* << */
    DL_SQL_TOK_SHR,      /* >> */
    DL_SQL_TOK_SHRU,     /* >>> */
    DL_SQL_TOK_DCOLON,   /* :: */
    DL_SQL_TOK_COLON,    /* : */
    DL_SQL_TOK_ARROW,    /* -> */
    DL_SQL_TOK_FATARROW, /* => */
    DL_SQL_TOK_QUESTION, /* ? */
    DL_SQL_TOK_AT,       /* @ */
} dl_sql_tok_kind;

/* Number token flags. The suffix bits are exclusive. */
#define DL_SQL_NUMF_DOT 0x01u /* has a decimal point */
#define DL_SQL_NUMF_EXP 0x02u /* has an exponent */
#define DL_SQL_NUMF_L   0x04u /* suffix L */
#define DL_SQL_NUMF_S   0x08u /* suffix S */
#define DL_SQL_NUMF_Y   0x10u /* suffix Y */
#define DL_SQL_NUMF_D   0x20u /* suffix D */
#define DL_SQL_NUMF_F   0x40u /* suffix F */
#define DL_SQL_NUMF_BD  0x80u /* suffix BD */
#define DL_SQL_NUMF_SUFFIX \
    (DL_SQL_NUMF_L | DL_SQL_NUMF_S | DL_SQL_NUMF_Y | DL_SQL_NUMF_D | DL_SQL_NUMF_F | DL_SQL_NUMF_BD)

/* Why a token is DL_SQL_TOK_ERROR. */
typedef enum dl_sql_lex_error {
    DL_SQL_LEX_BAD_CHAR = 1,         /* a character no token starts with */
    DL_SQL_LEX_BAD_UTF8,             /* bytes that are not UTF-8 (strict mode) */
    DL_SQL_LEX_UNTERMINATED_STRING,  /* offset: the opening quote */
    DL_SQL_LEX_UNTERMINATED_QIDENT,  /* offset: the opening backtick */
    DL_SQL_LEX_UNTERMINATED_COMMENT, /* offset: the opening slash-star */
} dl_sql_lex_error;

typedef struct dl_sql_token {
    uint8_t kind;  /* dl_sql_tok_kind */
    uint8_t flags; /* numbers: DL_SQL_NUMF_* */
    uint16_t kw;   /* words: dl_sql_kw; errors: dl_sql_lex_error; else 0 */
    uint32_t off;  /* byte offset of the first byte */
    uint32_t len;  /* bytes */
    uint32_t line; /* 1-based line of the first byte */
    uint32_t col;  /* 1-based column (code points) of the first byte */
} dl_sql_token;

typedef struct dl_sql_lexer {
    const char *text; /* the whole text (offsets are relative to it) */
    uint32_t len;     /* its length */
    uint32_t pos;     /* next byte to scan */
    uint32_t mark;    /* byte offset where line/col below hold */
    uint32_t line;
    uint32_t col;
    bool is_lenient; /* splitter mode: bytes >= 0x80 are opaque inside strings and comments */
} dl_sql_lexer;

/* Starts lexing text[pos..len) where pos is at the given line and column.
 * Assumes: len < 2^32 - 1 and pos <= len. */
void dl_sql_lexer_init(dl_sql_lexer *lx, const char *text, uint32_t len, uint32_t pos,
                       uint32_t line, uint32_t col);

/* Scans the next token into tok. At the end it returns DL_SQL_TOK_EOF, again and again. */
void dl_sql_lexer_next(dl_sql_lexer *lx, dl_sql_token *tok);

/* The line and column of byte offset off, which is >= lx->mark. Moves the mark there. */
void dl_sql_lexer_locate(dl_sql_lexer *lx, uint32_t off, uint32_t *out_line, uint32_t *out_col);

/* The keyword spelled by s (any case), or DL_SQL_NO_KW. */
dl_sql_kw dl_sql_keyword_lookup(dl_str s);

/* A keyword's upper-case spelling ("SELECT"); "" for DL_SQL_NO_KW. Never NULL. */
const char *dl_sql_keyword_name(dl_sql_kw kw);

/* A keyword's class; DL_SQL_KWC_N for DL_SQL_NO_KW. */
dl_sql_kw_class dl_sql_keyword_class(dl_sql_kw kw);

/* A sentence fragment for a lexer error ("unterminated string literal"). Never NULL. */
const char *dl_sql_lex_error_text(dl_sql_lex_error e);

#endif /* DL_SQL_SQL_LEX_H */
