/* SPDX-License-Identifier: Apache-2.0 */
/*
 * JSON beyond RFC 8259, as Jackson's parser features admit it when Spark's JSON options turn
 * them on (fmt_int.h). The strict parser of src/json reads every record first; only a record
 * it refuses, with some allow_* option set, is rewritten here into strict JSON and parsed
 * again, so well-formed input pays nothing for the options.
 *
 *   allowComments                       /+* ... *+/ and // to the line end -> a space
 *   allowSingleQuotes                   'it''s' strings (\' inside)   -> "..." (" escaped)
 *   allowUnquotedFieldNames             a bare word before ':'       -> "word"
 *   allowNonNumericNumbers              NaN, Infinity, +Infinity, -Infinity, +INF, -INF
 *                                       -> 0.0, listed with its value
 *   allowNumericLeadingZeros            007 -> 7, 00.5 -> 0.5
 *   allowBackslashEscapingAnyCharacter  \q -> q (inside strings)
 *   allowUnquotedControlChars           a raw control character in a string -> \u00XX
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "formats/fmt_int.h"

typedef struct rewriter {
    const dl_fmt_json_options *o;
    const char *p, *end;
    dl_buf *out;
    dl_buf *specials;
    dl_error *err;
} rewriter;

bool
dl_fmt_json_is_lenient(const dl_fmt_json_options *o) {
    return o->allow_comments || o->allow_single_quotes || o->allow_unquoted_names ||
           o->allow_non_numeric || o->allow_leading_zeros || o->allow_backslash_any ||
           o->allow_control_chars;
}

static dl_status
put(rewriter *w, const char *s, size_t n) {
    return dl_buf_append(w->out, s, n, w->err);
}

static bool
is_word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$';
}

/* A comment at w->p ('/' seen): skipped, a space written. *out_done false when it is not one. */
static dl_status
comment(rewriter *w, bool *out_done) {
    *out_done = false;
    if (!w->o->allow_comments || w->end - w->p < 2 || (w->p[1] != '/' && w->p[1] != '*')) {
        return DL_OK;
    }
    const char *q = w->p + 2;
    if (w->p[1] == '/') {
        while (q < w->end && *q != '\n') {
            q++;
        }
    } else {
        while (q + 1 < w->end && !(q[0] == '*' && q[1] == '/')) {
            q++;
        }
        if (q + 1 >= w->end) {
            return DL_OK; /* not closed: left for the parser to refuse */
        }
        q += 2;
    }
    w->p = q;
    *out_done = true;
    return put(w, " ", 1);
}

/* The escape at q (a backslash and the next character) inside a string, written as JSON. */
static dl_status
string_escape(rewriter *w, const char *q) {
    char e = q[1];
    bool is_json = strchr("\"\\/bfnrtu", e) != NULL && e != 0;
    if (e == '\'' && w->o->allow_single_quotes) {
        return put(w, "'", 1);
    }
    if (is_json || !w->o->allow_backslash_any) {
        return put(w, q, 2);
    }
    if (e == '"') {
        return put(w, "\\\"", 2);
    }
    return put(w, &q[1], 1);
}

/* A string opened by quote at w->p, written double-quoted. */
static dl_status
string(rewriter *w, char quote) {
    DL_TRY(put(w, "\"", 1));
    const char *q = w->p + 1;
    while (q < w->end && *q != quote) {
        unsigned char c = (unsigned char)*q;
        if (c == '\\' && q + 1 < w->end) {
            DL_TRY(string_escape(w, q));
            q += 2;
            continue;
        }
        if (c < 0x20 && w->o->allow_control_chars) {
            char esc[8];
            (void)snprintf(esc, sizeof(esc), "\\u%04x", c);
            DL_TRY(put(w, esc, 6));
        } else if (c == '"') {
            DL_TRY(put(w, "\\\"", 2)); /* only inside a single-quoted string */
        } else {
            DL_TRY(put(w, q, 1));
        }
        q++;
    }
    if (q < w->end) {
        q++;
        DL_TRY(put(w, "\"", 1));
    }
    w->p = q;
    return DL_OK;
}

static dl_status
special(rewriter *w, double v) {
    dl_fmt_json_special sp = {.off = (uint32_t)w->out->len, .value = v};
    DL_TRY(dl_buf_append(w->specials, &sp, sizeof(sp), w->err));
    return put(w, "0.0", 3);
}

static bool
word_is(const char *s, size_t n, const char *want) {
    return n == strlen(want) && memcmp(s, want, n) == 0;
}

/* The word (letters, digits, _ and $, with a sign before it) at w->p. */
static dl_status
word(rewriter *w, bool is_key_expected) {
    const char *q = w->p;
    char sign = 0;
    if (*q == '-' || *q == '+') {
        sign = *q++;
    }
    const char *start = q;
    while (q < w->end && is_word_char(*q)) {
        q++;
    }
    size_t n = (size_t)(q - start);
    bool is_inf = word_is(start, n, "Infinity") || (sign != 0 && word_is(start, n, "INF"));
    if (w->o->allow_non_numeric && (is_inf || (sign == 0 && word_is(start, n, "NaN")))) {
        w->p = q;
        return special(w,
                       is_inf ? (sign == '-' ? -(double)INFINITY : (double)INFINITY) : (double)NAN);
    }
    if (sign == 0 && is_key_expected && w->o->allow_unquoted_names && n > 0) {
        const char *after = q;
        while (after < w->end && (*after == ' ' || *after == '\t' || *after == '\r')) {
            after++;
        }
        if (after < w->end && *after == ':') {
            w->p = q;
            DL_TRY(put(w, "\"", 1));
            DL_TRY(put(w, start, n));
            return put(w, "\"", 1);
        }
    }
    if (sign == 0 || n == 0 || (start[0] >= '0' && start[0] <= '9')) {
        return DL_OK; /* not a word: the caller copies */
    }
    DL_TRY(put(w, w->p, (size_t)(q - w->p)));
    w->p = q;
    return DL_OK;
}

/* A number at w->p (a digit or '-' before one), its leading zeros dropped when allowed. */
static dl_status
number(rewriter *w) {
    const char *q = w->p;
    if (*q == '-') {
        DL_TRY(put(w, "-", 1));
        q++;
    }
    if (w->o->allow_leading_zeros) {
        while (q + 1 < w->end && q[0] == '0' && q[1] >= '0' && q[1] <= '9') {
            q++;
        }
    }
    const char *start = q;
    while (q < w->end && (is_word_char(*q) || *q == '.' ||
                          ((*q == '+' || *q == '-') && (q[-1] == 'e' || q[-1] == 'E')))) {
        q++;
    }
    w->p = q;
    return put(w, start, (size_t)(q - start));
}

dl_status
dl_fmt_json_rewrite(const dl_fmt_json_options *o, const char *text, size_t n, dl_buf *out,
                    dl_buf *specials, dl_error *err) {
    dl_buf_reset(out);
    dl_buf_reset(specials);
    rewriter w = {.o = o, .p = text, .end = text + n, .out = out, .specials = specials, .err = err};
    bool is_key_expected = false; /* after '{' or ',' */
    while (w.p < w.end) {
        char c = *w.p;
        bool done = false;
        if (c == '/') {
            DL_TRY(comment(&w, &done));
        } else if (c == '"' || (c == '\'' && o->allow_single_quotes)) {
            DL_TRY(string(&w, c));
            done = true;
        } else if ((c == '-' && w.p + 1 < w.end && !(w.p[1] >= '0' && w.p[1] <= '9')) || c == '+' ||
                   (is_word_char(c) && !(c >= '0' && c <= '9'))) {
            const char *before = w.p;
            DL_TRY(word(&w, is_key_expected));
            done = w.p != before;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            DL_TRY(number(&w));
            done = true;
        }
        if (!done) {
            DL_TRY(put(&w, w.p, 1));
            w.p++;
        }
        if (c == '{' || c == ',') {
            is_key_expected = true;
        } else if (c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '/') {
            is_key_expected = false;
        }
    }
    return DL_OK;
}
