/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Regular expressions: rlike / regexp / regexp_like, regexp_replace, regexp_extract,
 * regexp_extract_all, regexp_count and split, with Java's pattern syntax translated to POSIX
 * extended regular expressions (<regex.h>, glibc's implementation).
 *
 * Translation: \d \D become [0-9] [^0-9] (and 0-9 inside brackets); glibc understands \w \W
 * \s \S \b \B itself; \t \n \r \f and \Q...\E quoting become literal characters; (?:...) becomes
 * a plain group (the group numbers the functions see are mapped back to Java's); a leading
 * (?i) makes the match case-insensitive. Refused with an error naming the feature: lazy and
 * possessive quantifiers (*? +? ?? *+ ...), lookaround ((?= (?! (?<= (?<!), named groups,
 * inline flags other than a leading (?i), \p{...} classes, back-references inside the pattern.
 *
 * Semantics that differ from Java's: POSIX picks the leftmost-longest match, Java the first
 * alternative that matches (regexp_extract('abc', '(a|ab)', 1) is 'ab' here, 'a' in Spark);
 * '.' also matches a newline; character classes are byte-oriented in the C locale (a
 * multi-byte UTF-8 character counts as several characters for '.' and brackets).
 *
 * A constant pattern compiles once at bind (freed with the statement arena); a pattern that
 * varies per row is compiled when it changes.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "sql/func/sql_fn_int.h"

#define MAX_GROUPS 32

typedef struct jregex {
    regex_t re;
    bool is_compiled;
    int n_groups;              /* Java's capturing groups */
    int group_map[MAX_GROUPS]; /* Java group k -> POSIX group */
} jregex;

/* ---- translation ----------------------------------------------------------------------------- */

static dl_status
unsupported(dl_str pattern, const char *what, dl_error *err) {
    return dl_sql_fail_run(err, "rewrite the pattern without it",
                           "[INVALID_PARAMETER_VALUE.PATTERN] the regular expression '%.*s' uses "
                           "%s, which is not supported",
                           DL_STR_FMT(pattern), what);
}

/* Appends c escaped so that ERE reads it literally. */
static dl_status
put_literal(dl_buf *out, char c, bool in_bracket, dl_error *err) {
    if (!in_bracket && strchr(".[]()*+?{}|^$\\", c) != NULL) {
        DL_TRY(dl_buf_append_byte(out, '\\', err));
    }
    return dl_buf_append_byte(out, (uint8_t)c, err);
}

/* One escape sequence at p[i] == '\\'; advances *i past it. */
static dl_status
translate_escape(dl_str p, size_t *i, bool in_bracket, dl_buf *out, dl_error *err) {
    if (*i + 1 >= p.len) {
        return unsupported(p, "a trailing backslash", err);
    }
    char c = p.ptr[++*i];
    (*i)++;
    switch (c) {
    case 'd':
        return dl_buf_append_cstr(out, in_bracket ? "0-9" : "[0-9]", err);
    case 'D':
        if (in_bracket) {
            return unsupported(p, "\\D inside brackets", err);
        }
        return dl_buf_append_cstr(out, "[^0-9]", err);
    case 'w':
    case 's':
        if (in_bracket) {
            return dl_buf_append_cstr(out, c == 'w' ? "A-Za-z0-9_" : " \t\n\r\f\v", err);
        }
        return dl_buf_append_cstr(out, c == 'w' ? "\\w" : "\\s", err);
    case 'W':
    case 'S':
    case 'b':
    case 'B':
        if (in_bracket) {
            return unsupported(p, "a class escape inside brackets", err);
        }
        DL_TRY(dl_buf_append_byte(out, '\\', err));
        return dl_buf_append_byte(out, (uint8_t)c, err);
    case 't':
        return dl_buf_append_byte(out, '\t', err);
    case 'n':
        return dl_buf_append_byte(out, '\n', err);
    case 'r':
        return dl_buf_append_byte(out, '\r', err);
    case 'f':
        return dl_buf_append_byte(out, '\f', err);
    case 'p':
    case 'P':
        return unsupported(p, "a \\p{...} character class", err);
    default:
        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
            return unsupported(p, "this escape sequence", err);
        }
        return put_literal(out, c, in_bracket, err);
    }
}

/* \Q...\E: everything literal up to \E. */
static dl_status
translate_quote(dl_str p, size_t *i, bool in_bracket, dl_buf *out, dl_error *err) {
    *i += 2;
    while (*i < p.len) {
        if (p.ptr[*i] == '\\' && *i + 1 < p.len && p.ptr[*i + 1] == 'E') {
            *i += 2;
            return DL_OK;
        }
        DL_TRY(put_literal(out, p.ptr[(*i)++], in_bracket, err));
    }
    return DL_OK;
}

typedef struct tr_state {
    bool in_bracket;
    int posix_groups;
    jregex *jr;
} tr_state;

static dl_status
translate_group(dl_str p, size_t *i, tr_state *st, dl_buf *out, dl_error *err) {
    st->posix_groups++;
    if (*i + 1 < p.len && p.ptr[*i + 1] == '?') {
        if (*i + 2 < p.len && p.ptr[*i + 2] == ':') {
            *i += 3;
            return dl_buf_append_byte(out, '(', err);
        }
        return unsupported(p, "a lookaround, named group or inline flag", err);
    }
    DL_CHECK(st->jr->n_groups + 1 < MAX_GROUPS, err, DL_ERR_LIMIT,
             "the regular expression has more than %d groups", MAX_GROUPS - 1);
    st->jr->group_map[++st->jr->n_groups] = st->posix_groups;
    (*i)++;
    return dl_buf_append_byte(out, '(', err);
}

static bool
is_quantifier_end(char c) {
    return c == '*' || c == '+' || c == '?' || c == '}';
}

static dl_status
translate(dl_str p, jregex *jr, bool *out_icase, dl_buf *out, dl_error *err) {
    tr_state st = {.in_bracket = false, .posix_groups = 0, .jr = jr};
    jr->n_groups = 0;
    jr->group_map[0] = 0;
    size_t i = 0;
    *out_icase = false;
    if (p.len >= 4 && memcmp(p.ptr, "(?i)", 4) == 0) {
        *out_icase = true;
        i = 4;
    }
    while (i < p.len) {
        char c = p.ptr[i];
        if (c == '\\' && i + 1 < p.len && p.ptr[i + 1] == 'Q') {
            DL_TRY(translate_quote(p, &i, st.in_bracket, out, err));
        } else if (c == '\\') {
            DL_TRY(translate_escape(p, &i, st.in_bracket, out, err));
        } else if (st.in_bracket) {
            st.in_bracket = c != ']' || (i > 0 && (p.ptr[i - 1] == '[' || p.ptr[i - 1] == '^'));
            DL_TRY(dl_buf_append_byte(out, (uint8_t)c, err));
            i++;
        } else if (c == '[') {
            st.in_bracket = true;
            DL_TRY(dl_buf_append_byte(out, '[', err));
            i++;
        } else if (c == '(') {
            DL_TRY(translate_group(p, &i, &st, out, err));
        } else if (is_quantifier_end(c) && i + 1 < p.len &&
                   (p.ptr[i + 1] == '?' || p.ptr[i + 1] == '+')) {
            return unsupported(p, "a lazy or possessive quantifier", err);
        } else {
            DL_TRY(dl_buf_append_byte(out, (uint8_t)c, err));
            i++;
        }
    }
    return DL_OK;
}

static void
regex_release(void *ctx) {
    jregex *jr = ctx;
    if (jr->is_compiled) {
        regfree(&jr->re);
        jr->is_compiled = false;
    }
}

static dl_status
regex_compile(dl_str pattern, const dl_allocator *alloc, jregex *jr, dl_error *err) {
    dl_buf text;
    dl_buf_init(&text, alloc);
    bool icase;
    dl_status s = translate(pattern, jr, &icase, &text, err);
    if (s == DL_OK) {
        int rc = regcomp(&jr->re, dl_buf_cstr(&text), REG_EXTENDED | (icase ? REG_ICASE : 0));
        if (rc != 0) {
            char why[128];
            (void)regerror(rc, &jr->re, why, sizeof(why));
            s = dl_sql_fail_run(err, "check the regular expression's syntax",
                                "[INVALID_PARAMETER_VALUE.PATTERN] the regular expression "
                                "'%.*s' is invalid: %s",
                                DL_STR_FMT(pattern), why);
        } else {
            jr->is_compiled = true;
        }
    }
    dl_buf_destroy(&text);
    return s;
}

/* The first match in s at or after byte from; false when none. m[0] is the whole match, m[k]
 * POSIX group k (rm_so -1 when it did not take part). */
static bool
regex_find(const jregex *jr, dl_str s, size_t from, regmatch_t *m, int not_bol) {
    m[0].rm_so = (regoff_t)from;
    m[0].rm_eo = (regoff_t)s.len;
    static const char empty[1] = "";
    const char *base = s.ptr != NULL ? s.ptr : empty;
    return regexec(&jr->re, base, MAX_GROUPS, m, REG_STARTEND | not_bol) == 0;
}

/* ---- binding --------------------------------------------------------------------------------- */

typedef enum rx_op {
    RX_LIKE,
    RX_REPLACE,
    RX_EXTRACT,
    RX_EXTRACT_ALL,
    RX_COUNT,
    RX_SPLIT,
} rx_op;

typedef struct rx_bind {
    dl_sql_scalar_fn fn;
    rx_op op;
    jregex *pattern; /* a constant pattern, or NULL */
} rx_bind;

static dl_status k_regex(dl_sql_fn_call *call, dl_vector *const *args, int64_t count,
                         dl_vector *out, dl_error *err);

static dl_status
bind_const_pattern(dl_sql_fn_bind *b, rx_bind *bd, dl_error *err) {
    dl_str p;
    if (!dl_sql_bind_const_str(b, 1, &p)) {
        return DL_OK;
    }
    jregex *jr = dl_arena_alloc_zero(b->arena, sizeof(*jr));
    DL_CHECK(jr != NULL, err, DL_ERR_NOMEM, "%s: out of memory", b->name);
    dl_status s = regex_compile(p, NULL, jr, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "%s", b->name);
        err->code = DL_ERR_SQL_BIND;
        return DL_ERR_SQL_BIND;
    }
    s = dl_arena_on_reset(b->arena, regex_release, jr, err);
    if (s != DL_OK) {
        regex_release(jr);
        return s;
    }
    bd->pattern = jr;
    return DL_OK;
}

dl_status
dl_sql_bind_regex(dl_sql_fn_bind *b, dl_error *err) {
    static const char *const names[] = {"rlike",          "regexp",         "regexp_like",
                                        "regexp_replace", "regexp_extract", "regexp_extract_all",
                                        "regexp_count",   "split"};
    static const rx_op ops[] = {RX_LIKE,    RX_LIKE,        RX_LIKE,  RX_REPLACE,
                                RX_EXTRACT, RX_EXTRACT_ALL, RX_COUNT, RX_SPLIT};
    int k = dl_sql_name_index(b->name, names, (int)DL_ARRAY_LEN(names));
    rx_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL || k < 0) {
        return bd == NULL ? DL_ERR_NOMEM : dl_sql_bind_fail(b, err, "not a regex function");
    }
    bd->op = ops[k];
    bd->fn = k_regex;
    b->bind_data = bd;
    const dl_type *string = dl_sql_t(DL_VEC_TYPE_STRING);
    int32_t n_str = bd->op == RX_REPLACE ? 3 : 2;
    DL_TRY(dl_sql_bind_expect_range(b, 0, n_str, string, "a string", err));
    DL_TRY(dl_sql_bind_expect_range(b, n_str, b->n_args, dl_sql_t(DL_VEC_TYPE_INT), "an integer",
                                    err));
    DL_TRY(bind_const_pattern(b, bd, err));
    switch (bd->op) {
    case RX_LIKE:
        b->ret_type = dl_sql_t(DL_VEC_TYPE_BOOLEAN);
        return DL_OK;
    case RX_COUNT:
        b->ret_type = dl_sql_t(DL_VEC_TYPE_INT);
        return DL_OK;
    case RX_EXTRACT_ALL:
    case RX_SPLIT:
        return dl_vec_type_array(b->arena, string, true, &b->ret_type, err);
    default:
        b->ret_type = string;
        return DL_OK;
    }
}

/* ---- per row --------------------------------------------------------------------------------- */

typedef struct rx_row {
    const rx_bind *bd;
    const jregex *jr;
    dl_str s;
    const dl_vec_unified *u;
    int64_t i;
    int32_t n_args;
} rx_row;

/* Java's replacement syntax: $n is group n, \x is x. */
static dl_status
append_replacement(const rx_row *r, dl_str rep, const regmatch_t *m, dl_buf *out, dl_error *err) {
    for (size_t k = 0; k < rep.len; k++) {
        char c = rep.ptr[k];
        if (c == '\\' && k + 1 < rep.len) {
            DL_TRY(dl_buf_append_byte(out, (uint8_t)rep.ptr[++k], err));
            continue;
        }
        if (c != '$' || k + 1 >= rep.len || rep.ptr[k + 1] < '0' || rep.ptr[k + 1] > '9') {
            DL_TRY(dl_buf_append_byte(out, (uint8_t)c, err));
            continue;
        }
        int g = rep.ptr[++k] - '0';
        DL_CHECK(g <= r->jr->n_groups, err, DL_ERR_DATA,
                 "[INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX] regexp_replace: the replacement "
                 "refers to group %d, but the pattern has %d groups",
                 g, r->jr->n_groups);
        const regmatch_t *gm = &m[r->jr->group_map[g]];
        if (gm->rm_so >= 0) {
            DL_TRY(dl_buf_append(out, r->s.ptr + gm->rm_so, (size_t)(gm->rm_eo - gm->rm_so), err));
        }
    }
    return DL_OK;
}

static dl_status
row_replace(const rx_row *r, dl_buf *out, dl_error *err) {
    dl_str rep = dl_sql_u_str(&r->u[2], r->i);
    int64_t pos = r->n_args > 3 ? DL_SQL_U(&r->u[3], int32_t, r->i) : 1;
    DL_CHECK(pos >= 1, err, DL_ERR_DATA,
             "[INVALID_PARAMETER_VALUE.POSITION] regexp_replace: the position must be >= 1, "
             "got %lld",
             (long long)pos);
    size_t from = dl_sql_utf8_offset(r->s, pos - 1);
    DL_TRY(dl_buf_append(out, r->s.ptr, from, err));
    regmatch_t m[MAX_GROUPS];
    while (from <= r->s.len && regex_find(r->jr, r->s, from, m, from > 0 ? REG_NOTBOL : 0)) {
        DL_TRY(dl_buf_append(out, r->s.ptr + from, (size_t)m[0].rm_so - from, err));
        DL_TRY(append_replacement(r, rep, m, out, err));
        from = (size_t)m[0].rm_eo;
        if (m[0].rm_eo == m[0].rm_so) {
            if (from >= r->s.len) {
                return DL_OK;
            }
            size_t next = from;
            (void)dl_sql_utf8_next(r->s, &next);
            DL_TRY(dl_buf_append(out, r->s.ptr + from, next - from, err));
            from = next;
        }
    }
    return from < r->s.len ? dl_buf_append(out, r->s.ptr + from, r->s.len - from, err) : DL_OK;
}

static dl_status
group_index(const rx_row *r, int default_idx, int *out, dl_error *err) {
    int idx = r->n_args > 2 ? DL_SQL_U(&r->u[2], int32_t, r->i) : default_idx;
    DL_CHECK(idx >= 0 && idx <= r->jr->n_groups, err, DL_ERR_DATA,
             "[INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX] the pattern has %d groups, so the "
             "group index must be between 0 and %d, got %d",
             r->jr->n_groups, r->jr->n_groups, idx);
    *out = r->jr->group_map[idx];
    return DL_OK;
}

static dl_status
append_group(const rx_row *r, const regmatch_t *g, dl_buf *buf, dl_error *err) {
    if (g->rm_so < 0) {
        return DL_OK;
    }
    return dl_buf_append(buf, r->s.ptr + g->rm_so, (size_t)(g->rm_eo - g->rm_so), err);
}

/* Every match (extract_all, count, split): calls back with each match; empty matches move on
 * by one character. */
static dl_status
each_match(const rx_row *r, dl_status (*fn)(void *ctx, const regmatch_t *m, dl_error *err),
           void *ctx, dl_error *err) {
    regmatch_t m[MAX_GROUPS];
    size_t from = 0;
    while (from <= r->s.len && regex_find(r->jr, r->s, from, m, from > 0 ? REG_NOTBOL : 0)) {
        DL_TRY(fn(ctx, m, err));
        from = (size_t)m[0].rm_eo;
        if (m[0].rm_eo == m[0].rm_so) {
            if (from >= r->s.len) {
                break;
            }
            (void)dl_sql_utf8_next(r->s, &from);
        }
    }
    return DL_OK;
}

typedef struct list_ctx {
    const rx_row *r;
    dl_vector *child;
    int group;
    int64_t n;
    size_t last_end; /* split: end of the previous match */
    int64_t limit;   /* split: most parts, <= 0 for all */
} list_ctx;

static dl_status
on_extract(void *ctx, const regmatch_t *m, dl_error *err) {
    list_ctx *c = ctx;
    const regmatch_t *g = &m[c->group];
    c->n++;
    if (c->child == NULL) {
        return DL_OK;
    }
    dl_str v = g->rm_so < 0 ? DL_STR("")
                            : dl_str_make(c->r->s.ptr + g->rm_so, (size_t)(g->rm_eo - g->rm_so));
    return dl_vec_append_str(c->child, v.ptr, v.len, err);
}

static dl_status
on_split(void *ctx, const regmatch_t *m, dl_error *err) {
    list_ctx *c = ctx;
    size_t so = (size_t)m[0].rm_so;
    size_t eo = (size_t)m[0].rm_eo;
    /* Java: a zero-width match at the start never yields a leading empty part. */
    if ((so == 0 && eo == 0) || (c->limit > 0 && c->n + 1 >= c->limit)) {
        return DL_OK;
    }
    if (so == eo && so >= c->r->s.len) {
        return DL_OK;
    }
    DL_TRY(dl_vec_append_str(c->child, c->r->s.ptr + c->last_end, so - c->last_end, err));
    c->n++;
    c->last_end = eo;
    return DL_OK;
}

static dl_status
row_list(const rx_row *r, dl_vector *out, dl_error *err) {
    list_ctx c = {.r = r, .child = out->children[0], .limit = -1};
    if (r->bd->op == RX_SPLIT) {
        c.limit = r->n_args > 2 ? DL_SQL_U(&r->u[2], int32_t, r->i) : -1;
        DL_TRY(each_match(r, on_split, &c, err));
        DL_TRY(dl_vec_append_str(c.child, r->s.ptr + c.last_end, r->s.len - c.last_end, err));
    } else {
        DL_TRY(group_index(r, 1, &c.group, err));
        DL_TRY(each_match(r, on_extract, &c, err));
    }
    return dl_vec_append_list(out, err);
}

static dl_status
regex_row(const rx_row *r, dl_vector *out, int64_t i, dl_buf *buf, dl_error *err) {
    regmatch_t m[MAX_GROUPS];
    switch (r->bd->op) {
    case RX_LIKE:
        dl_vec_bit_put(out->data, i, regex_find(r->jr, r->s, 0, m, 0));
        return DL_OK;
    case RX_COUNT: {
        list_ctx c = {.r = r, .child = NULL};
        DL_TRY(each_match(r, on_extract, &c, err));
        ((int32_t *)out->data)[i] = (int32_t)c.n;
        return DL_OK;
    }
    case RX_REPLACE:
        dl_buf_reset(buf);
        DL_TRY(row_replace(r, buf, err));
        return dl_vec_append_str(out, buf->data, buf->len, err);
    case RX_EXTRACT: {
        int g;
        DL_TRY(group_index(r, 1, &g, err));
        dl_buf_reset(buf);
        bool found = regex_find(r->jr, r->s, 0, m, 0);
        DL_TRY(found ? append_group(r, &m[g], buf, err) : DL_OK);
        return dl_vec_append_str(out, buf->data, buf->len, err);
    }
    default:
        return row_list(r, out, err);
    }
}

/* ---- the kernel ------------------------------------------------------------------------------ */

static bool
writes_fixed(rx_op op) {
    return op == RX_LIKE || op == RX_COUNT;
}

/* The compiled pattern of row i: the constant one, or scratch recompiled when the row's
 * pattern differs from the last (*last). */
static dl_status
row_pattern(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, jregex *scratch,
            dl_str *last, const jregex **out, dl_error *err) {
    const rx_bind *bd = call->bind_data;
    if (bd->pattern != NULL) {
        *out = bd->pattern;
        return DL_OK;
    }
    dl_str p = dl_sql_u_str(&u[1], i);
    if (!scratch->is_compiled || !dl_str_eq(p, *last)) {
        regex_release(scratch);
        DL_TRY(regex_compile(p, call->env != NULL ? call->env->alloc : NULL, scratch, err));
        *last = p;
    }
    *out = scratch;
    return DL_OK;
}

static dl_status
regex_rows(dl_sql_fn_call *call, const dl_vec_unified *u, int64_t count, dl_vector *out,
           jregex *scratch, dl_buf *buf, dl_error *err) {
    const rx_bind *bd = call->bind_data;
    bool fixed = writes_fixed(bd->op);
    dl_str last = {NULL, 0};
    for (int64_t i = 0; i < count; i++) {
        bool is_null = false;
        for (int32_t k = 0; k < call->n_args; k++) {
            is_null = is_null || dl_sql_u_null(&u[k], i);
        }
        if (is_null) {
            DL_TRY(fixed ? DL_OK : dl_vec_append_null(out, err));
            continue;
        }
        rx_row r = {.bd = bd, .s = dl_sql_u_str(&u[0], i), .u = u, .i = i, .n_args = call->n_args};
        DL_TRY(row_pattern(call, u, i, scratch, &last, &r.jr, err));
        DL_TRY(regex_row(&r, out, i, buf, err));
    }
    return DL_OK;
}

static dl_status
k_regex(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
        dl_error *err) {
    const rx_bind *bd = call->bind_data;
    dl_vec_unified u[4];
    dl_sql_unify_args(args, call->n_args, count, u);
    if (writes_fixed(bd->op)) {
        DL_TRY(dl_sql_out_reserve(out, count, err));
        DL_TRY(dl_sql_out_nulls(out, 0, u, call->n_args, count, err));
    }
    jregex scratch = {.is_compiled = false};
    dl_buf buf;
    dl_buf_init(&buf, call->env != NULL ? call->env->alloc : NULL);
    dl_status s = regex_rows(call, u, count, out, &scratch, &buf, err);
    regex_release(&scratch);
    dl_buf_destroy(&buf);
    if (s == DL_OK && writes_fixed(bd->op)) {
        dl_vec_set_length(out, count);
    }
    return s;
}
