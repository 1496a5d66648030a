/* SPDX-License-Identifier: Apache-2.0 */
/*
 * to_number(expr, fmt) and try_to_number(expr, fmt): a string parsed by a number format into a
 * decimal, as Spark's ToNumberParser does. The format must be a constant:
 *
 *   0 9      a digit; a run starting with 0 before the decimal point needs exactly as many
 *            digits, any other run (starting with 9, or after the point) at most as many
 *   . D      the decimal point (optional in the input)
 *   , G      a thousands separator, with a digit on both sides, before the point only
 *   $        a dollar sign the input must have
 *   S  MI    an optional sign (S: + or -; MI: -), at the start or the end
 *   PR       at the end: a negative number is written <123>
 *
 * in the order [MI|S] [$] [0|9|G|,]* [.|D] [0|9]* [$] [PR|MI|S]. The result is DECIMAL(p, s),
 * p the number of digits in the format and s those after the point. Whitespace inside a run of
 * digits is ignored; in the input, the digits between separators are matched with the format's
 * groups from the right, so leading optional groups may be left out.
 *
 * A format that breaks these rules is a bind error (INVALID_FORMAT.*). An input that does not
 * match is INVALID_FORMAT.MISMATCH_INPUT for to_number in either ANSI mode, NULL for
 * try_to_number.
 */
#include <stdio.h>
#include <string.h>

#include "sql/func/sql_fn_int.h"

#define NF_MAX_TOKENS 64

typedef enum nf_kind {
    NF_EXACT = 1, /* exactly num digits */
    NF_AT_MOST,   /* at most num digits */
    NF_SEP,       /* , or G */
    NF_POINT,     /* . or D */
    NF_DOLLAR,
    NF_SIGN,  /* S */
    NF_MINUS, /* MI */
    NF_OPEN,  /* < (from PR, at the start) */
    NF_CLOSE, /* > (from PR, at the end) */
    NF_BAD,   /* any other character */
    NF_GROUP, /* a run of digits and separators: raw tokens [first, first + n) */
} nf_kind;

typedef struct nf_token {
    nf_kind kind;
    int num;   /* EXACT, AT_MOST: digits; GROUP: raw tokens */
    int first; /* GROUP: index of its first raw token */
    char ch;   /* BAD: the character */
} nf_token;

typedef struct nf_format {
    nf_token raw[NF_MAX_TOKENS]; /* digits and separators of the groups, in format order */
    int n_raw;
    nf_token tok[NF_MAX_TOKENS];
    int n_tok;
    int precision;
    int scale;
} nf_format;

typedef struct nf_bind {
    dl_sql_scalar_fn fn;
    bool is_try;
    const nf_format *format; /* NULL when the format is NULL (every result is NULL) */
    const char *text;        /* the format as written, for messages */
} nf_bind;

/* ---- the format ------------------------------------------------------------------------------ */

static bool
is_digit_kind(nf_kind k) {
    return k == NF_EXACT || k == NF_AT_MOST;
}

/* The next token of the format at *i (advanced past it). */
static nf_token
next_token(dl_str f, size_t *i, bool after_point) {
    char c = f.ptr[*i];
    bool has_next = *i + 1 < f.len;
    if (c == '0' || c == '9') {
        size_t start = *i;
        while (*i < f.len && (f.ptr[*i] == '0' || f.ptr[*i] == '9')) {
            (*i)++;
        }
        nf_kind k = c == '0' && !after_point ? NF_EXACT : NF_AT_MOST;
        return (nf_token){.kind = k, .num = (int)(*i - start)};
    }
    (*i)++;
    switch (c) {
    case '.':
    case 'D':
        return (nf_token){.kind = NF_POINT};
    case ',':
    case 'G':
        return (nf_token){.kind = NF_SEP};
    case '$':
        return (nf_token){.kind = NF_DOLLAR};
    case 'S':
        return (nf_token){.kind = NF_SIGN};
    case 'M':
    case 'P':
        if (has_next && f.ptr[*i] == (c == 'M' ? 'I' : 'R')) {
            (*i)++;
            return (nf_token){.kind = c == 'M' ? NF_MINUS : NF_CLOSE};
        }
        break;
    default:
        break;
    }
    return (nf_token){.kind = NF_BAD, .ch = c};
}

static dl_status
push(nf_token *arr, int *n, nf_token t, dl_error *err) {
    DL_CHECK(*n < NF_MAX_TOKENS, err, DL_ERR_SQL_BIND,
             "[INVALID_FORMAT] the number format has more than %d parts", NF_MAX_TOKENS);
    arr[(*n)++] = t;
    return DL_OK;
}

/* Splits the format into tokens, runs of digits and separators becoming one GROUP each. */
static dl_status
tokenize(dl_str f, nf_format *nf, dl_error *err) {
    bool after_point = false;
    bool has_pr = false;
    size_t i = 0;
    while (i < f.len) {
        nf_token t = next_token(f, &i, after_point);
        after_point = after_point || t.kind == NF_POINT;
        if (t.kind == NF_CLOSE) {
            has_pr = true; /* PR: '<' before everything, '>' here */
        }
        if (is_digit_kind(t.kind) || t.kind == NF_SEP) {
            DL_TRY(push(nf->raw, &nf->n_raw, t, err));
            nf_token *last = nf->n_tok > 0 ? &nf->tok[nf->n_tok - 1] : NULL;
            if (last != NULL && last->kind == NF_GROUP &&
                last->first + last->num == nf->n_raw - 1) {
                last->num++;
                continue;
            }
            t = (nf_token){.kind = NF_GROUP, .num = 1, .first = nf->n_raw - 1};
        }
        DL_TRY(push(nf->tok, &nf->n_tok, t, err));
    }
    if (has_pr) {
        DL_TRY(push(nf->tok, &nf->n_tok, (nf_token){0}, err));
        memmove(&nf->tok[1], &nf->tok[0], (size_t)(nf->n_tok - 1) * sizeof(nf_token));
        nf->tok[0] = (nf_token){.kind = NF_OPEN};
    }
    return DL_OK;
}

static int
find_kind(const nf_format *nf, nf_kind k) {
    for (int i = 0; i < nf->n_tok; i++) {
        if (nf->tok[i].kind == k) {
            return i;
        }
    }
    return -1;
}

/* A group before the point with a separator at an end or two in a row; one after the point with
 * any separator. */
static const char *
group_problem(const nf_format *nf, const nf_token *g, bool after_point) {
    for (int j = 0; j < g->num; j++) {
        if (nf->raw[g->first + j].kind != NF_SEP) {
            continue;
        }
        if (after_point) {
            return "THOUSANDS_SEPS_MUST_BEFORE_DEC] thousands separators (,) may not appear after "
                   "the decimal point";
        }
        if (j == 0 || j == g->num - 1 || nf->raw[g->first + j - 1].kind == NF_SEP ||
            nf->raw[g->first + j + 1].kind == NF_SEP) {
            return "CONT_THOUSANDS_SEPS] thousands separators (,) must have digits in between them";
        }
    }
    return NULL;
}

/* The order [OPEN] [MI|S] [$] [group] [.] [group] [$] [MI|S|CLOSE]: the first token out of it. */
static int
first_out_of_order(const nf_format *nf) {
    static const unsigned allowed[] = {
        1u << NF_OPEN,   (1u << NF_MINUS) | (1u << NF_SIGN),
        1u << NF_DOLLAR, 1u << NF_GROUP,
        1u << NF_POINT,  1u << NF_GROUP,
        1u << NF_DOLLAR, (1u << NF_MINUS) | (1u << NF_SIGN) | (1u << NF_CLOSE)};
    int at = 0;
    for (size_t k = 0; k < DL_ARRAY_LEN(allowed); k++) {
        if (at < nf->n_tok && (allowed[k] & (1u << nf->tok[at].kind)) != 0) {
            at++;
        }
    }
    return at < nf->n_tok ? at : -1;
}

static const char *
token_text(const nf_token *t) {
    switch (t->kind) {
    case NF_POINT:
        return "'.' or 'D'";
    case NF_DOLLAR:
        return "'$'";
    case NF_SIGN:
        return "'S'";
    case NF_MINUS:
        return "'MI'";
    case NF_OPEN:
    case NF_CLOSE:
        return "'PR'";
    case NF_GROUP:
        return "digit sequence";
    default:
        return "character";
    }
}

/* ToNumberParser.validateFormatString: the first rule the format breaks, as Spark checks them. */
static dl_status
validate(const nf_format *nf, const char *text, dl_error *err) {
    int first_digit = find_kind(nf, NF_GROUP);
    int dollar = find_kind(nf, NF_DOLLAR);
    int point = find_kind(nf, NF_POINT);
    DL_CHECK(first_digit >= 0, err, DL_ERR_SQL_BIND,
             "[INVALID_FORMAT.WRONG_NUM_DIGIT] the number format '%s' requires at least one "
             "digit (0 or 9)",
             text);
    DL_CHECK(first_digit >= dollar && (point < 0 || point >= dollar), err, DL_ERR_SQL_BIND,
             "[INVALID_FORMAT.CUR_MUST_BEFORE_%s] currency characters must appear before any %s "
             "in the number format '%s'",
             first_digit < dollar ? "DIGIT" : "DEC",
             first_digit < dollar ? "digits" : "decimal point", text);
    for (int i = 0; i < nf->n_tok; i++) {
        const char *problem = nf->tok[i].kind == NF_GROUP
                                  ? group_problem(nf, &nf->tok[i], point >= 0 && i > point)
                                  : NULL;
        DL_CHECK(problem == NULL, err, DL_ERR_SQL_BIND,
                 "[INVALID_FORMAT.%s in the number format '%s'", problem, text);
    }
    static const nf_kind once[] = {NF_POINT, NF_SIGN, NF_MINUS, NF_DOLLAR, NF_CLOSE};
    for (size_t k = 0; k < DL_ARRAY_LEN(once); k++) {
        int n = 0;
        const nf_token *t = NULL;
        for (int i = 0; i < nf->n_tok; i++) {
            if (nf->tok[i].kind == once[k]) {
                n++;
                t = &nf->tok[i];
            }
        }
        DL_CHECK(n <= 1, err, DL_ERR_SQL_BIND,
                 "[INVALID_FORMAT.WRONG_NUM_TOKEN] at most one %s is allowed in the number "
                 "format '%s'",
                 token_text(t), text);
    }
    int bad = first_out_of_order(nf);
    if (bad >= 0) {
        const nf_token *t = &nf->tok[bad];
        char what[32];
        (void)snprintf(what, sizeof(what), "character '%c'", t->ch);
        DL_FAIL(err, DL_ERR_SQL_BIND,
                "[INVALID_FORMAT.UNEXPECTED_TOKEN] unexpected %s in the number format '%s'; the "
                "structure of the format must match: [MI|S] [$] [0|9|G|,]* [.|D] [0|9]* [$] "
                "[PR|MI|S]",
                t->kind == NF_BAD ? what : token_text(t), text);
    }
    return DL_OK;
}

/* Precision and scale: the digits of the format, and those after its decimal point. */
static void
measure(nf_format *nf) {
    bool after_point = false;
    for (int i = 0; i < nf->n_tok; i++) {
        const nf_token *t = &nf->tok[i];
        after_point = after_point || t->kind == NF_POINT;
        for (int j = 0; t->kind == NF_GROUP && j < t->num; j++) {
            const nf_token *r = &nf->raw[t->first + j];
            int digits = is_digit_kind(r->kind) ? r->num : 0;
            nf->precision += digits;
            nf->scale += after_point ? digits : 0;
        }
    }
}

static dl_status
compile_format(dl_str f, const char *text, nf_format *nf, dl_error *err) {
    DL_CHECK(f.len > 0, err, DL_ERR_SQL_BIND,
             "[INVALID_FORMAT.EMPTY] the number format cannot be empty");
    DL_TRY(tokenize(f, nf, err));
    DL_TRY(validate(nf, text, err));
    measure(nf);
    DL_CHECK(nf->precision <= 38, err, DL_ERR_SQL_BIND,
             "[DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION] the number format '%s' has %d digits; "
             "a decimal holds at most 38",
             text, nf->precision);
    return DL_OK;
}

/* ---- parsing one input ----------------------------------------------------------------------- */

typedef struct nf_parse {
    char before[40]; /* digits before the decimal point */
    int n_before;
    char after[40];
    int n_after;
    bool is_negative;
    bool after_point;
} nf_parse;

/* Digits, separators and whitespace from s[*i]: their groups (right to left) must fit the
 * format group's digit runs (right to left). False when they do not. */
static bool
parse_group(const nf_format *nf, const nf_token *g, dl_str s, size_t *i, nf_parse *p) {
    int sizes[NF_MAX_TOKENS];
    int n_sizes = 0;
    int current = 0;
    for (; *i < s.len; (*i)++) {
        char c = s.ptr[*i];
        if (c >= '0' && c <= '9') {
            char *buf = p->after_point ? p->after : p->before;
            int *n = p->after_point ? &p->n_after : &p->n_before;
            if (*n >= 39) {
                return false;
            }
            buf[(*n)++] = c;
            current++;
        } else if (c == ',') {
            if (n_sizes == NF_MAX_TOKENS) {
                return false;
            }
            sizes[n_sizes++] = current;
            current = 0;
        } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') {
            break;
        }
    }
    if (n_sizes == NF_MAX_TOKENS) {
        return false;
    }
    sizes[n_sizes++] = current;
    int k = 0; /* groups from the right: sizes[n_sizes - 1 - k] against digit runs from the right */
    for (int j = g->num - 1; j >= 0; j--) {
        const nf_token *r = &nf->raw[g->first + j];
        if (!is_digit_kind(r->kind)) {
            continue;
        }
        int actual = k < n_sizes ? sizes[n_sizes - 1 - k] : 0;
        if ((r->kind == NF_EXACT && actual != r->num) || actual > r->num) {
            return false;
        }
        k++;
    }
    return n_sizes <= k;
}

/* Consumes ch at s[*i] when it is there; *found says whether it was. */
static void
take(dl_str s, size_t *i, char ch, bool *found) {
    *found = *i < s.len && s.ptr[*i] == ch;
    if (*found) {
        (*i)++;
    }
}

/* One format token against the input at *i; false when the input does not match. */
static bool
parse_token(const nf_format *nf, const nf_token *t, dl_str s, size_t *i, nf_parse *p) {
    bool found = false;
    switch (t->kind) {
    case NF_GROUP:
        return parse_group(nf, t, s, i, p);
    case NF_POINT:
        take(s, i, '.', &found);
        p->after_point = p->after_point || found;
        return true;
    case NF_DOLLAR:
        take(s, i, '$', &found);
        return found;
    case NF_SIGN:
        take(s, i, '+', &found);
        if (!found) {
            take(s, i, '-', &found);
            p->is_negative = p->is_negative != found;
        }
        return true;
    case NF_MINUS:
        take(s, i, '-', &found);
        p->is_negative = p->is_negative != found;
        return true;
    case NF_OPEN:
        take(s, i, '<', &found);
        return found;
    case NF_CLOSE:
        take(s, i, '>', &found);
        p->is_negative = p->is_negative != found;
        return found;
    default:
        return false;
    }
}

/* The unscaled value of s in the format, or false when s does not match it. */
static bool
parse_number(const nf_format *nf, dl_str s, dl_i128 *out) {
    nf_parse p = {0};
    size_t i = 0;
    for (int k = 0; k < nf->n_tok; k++) {
        if (!parse_token(nf, &nf->tok[k], s, &i, &p)) {
            return false;
        }
    }
    if (i < s.len || (p.n_before + p.n_after == 0 && nf->scale == 0)) {
        return false; /* Spark's BigDecimal("") fails too; with a scale, no digits is 0 */
    }
    if (p.n_before > nf->precision - nf->scale) {
        return false; /* digits of a group after the point, in an input without the point:
                         Spark's Decimal(..., p, s) refuses the value as too large */
    }
    dl_i128 v = 0;
    for (int k = 0; k < p.n_before; k++) {
        v = v * 10 + (p.before[k] - '0');
    }
    for (int k = 0; k < nf->scale; k++) {
        v = v * 10 + (k < p.n_after ? p.after[k] - '0' : 0);
    }
    *out = p.is_negative ? -v : v;
    return true;
}

/* ---- the function ---------------------------------------------------------------------------- */

static dl_status
k_to_number(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
            dl_error *err) {
    const nf_bind *bd = call->bind_data;
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(dl_sql_out_nulls(out, 0, &u, 1, count, err));
    dl_i128 *data = out->data;
    for (int64_t i = 0; i < count; i++) {
        data[i] = 0;
        if (dl_sql_u_null(&u, i)) {
            continue;
        }
        dl_str s = dl_sql_u_str(&u, i);
        if (bd->format != NULL && parse_number(bd->format, s, &data[i])) {
            continue;
        }
        if (bd->format == NULL || bd->is_try) {
            DL_TRY(dl_sql_out_set_null(out, i, err));
            continue;
        }
        return dl_sql_fail_run(err,
                               "correct the value or the format, or use try_to_number to "
                               "tolerate input that does not match and return NULL instead",
                               "[INVALID_FORMAT.MISMATCH_INPUT] the input '%.*s' does not match "
                               "the number format '%s'",
                               (int)DL_MIN(s.len, 200), s.ptr, bd->text);
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

dl_status
dl_sql_bind_to_number(dl_sql_fn_bind *b, dl_error *err) {
    nf_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    bd->fn = k_to_number;
    bd->is_try = strcmp(b->name, "try_to_number") == 0;
    b->bind_data = bd;
    const dl_type *string = dl_sql_t(DL_VEC_TYPE_STRING);
    DL_TRY(dl_sql_bind_expect_range(b, 0, 2, string, "a string", err));
    dl_str f;
    if (!dl_sql_bind_const_str(b, 1, &f)) {
        DL_CHECK(b->consts[1].is_const, err, DL_ERR_SQL_BIND,
                 "[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] %s: the format must be a constant "
                 "string",
                 b->name);
        return dl_sql_decimal_type(b->arena, 10, 0, &b->ret_type, err); /* NULL format */
    }
    nf_format *nf = dl_arena_alloc_zero(b->arena, sizeof(*nf));
    bd->text = dl_arena_strndup(b->arena, f.ptr, f.len);
    DL_CHECK(nf != NULL && bd->text != NULL, err, DL_ERR_NOMEM, "%s: out of memory", b->name);
    dl_status s = compile_format(f, bd->text, nf, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "%s", b->name);
        return s;
    }
    bd->format = nf;
    return dl_sql_decimal_type(b->arena, nf->precision, nf->scale, &b->ret_type, err);
}
