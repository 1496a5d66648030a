/* SPDX-License-Identifier: Apache-2.0 */
/*
 * LIKE and ILIKE: '_' matches one character (code point), '%' any run of characters, and the
 * escape character (default '\', or the third argument, one character) makes the next '_',
 * '%' or escape literal; any other character after it, or a pattern ending in it, is an error
 * (Spark's StringUtils.escapeLikeRegex). ILIKE compares lower-cased text.
 *
 * A constant pattern is compiled once at bind into tokens, and the common shapes run without
 * the general matcher: 'abc' (equality), 'abc%' (prefix), '%abc' (suffix), '%abc%' (contains).
 * The general matcher walks the text once, backtracking only to the last '%'.
 */
#include <string.h>

#include "sql/func/sql_fn_int.h"

typedef enum tok_kind {
    TOK_LIT,  /* literal bytes */
    TOK_ONE,  /* _ */
    TOK_MANY, /* % */
} tok_kind;

typedef struct like_tok {
    tok_kind kind;
    uint32_t off; /* TOK_LIT: bytes [off, off + len) of the pattern's literal text */
    uint32_t len;
} like_tok;

typedef enum like_shape {
    SHAPE_GENERAL,
    SHAPE_EXACT,
    SHAPE_PREFIX,
    SHAPE_SUFFIX,
    SHAPE_CONTAINS,
    SHAPE_ANY, /* '%' alone */
} like_shape;

typedef struct like_pat {
    like_tok *toks;
    int32_t n_toks;
    char *lit; /* the literal bytes, unescaped (lower-cased for ILIKE) */
    like_shape shape;
    int32_t lit_tok; /* the literal token of the simple shapes, or -1 */
} like_pat;

typedef struct like_bind {
    bool is_ilike;
    bool has_const;
    like_pat pat; /* when has_const */
} like_bind;

/* ---- compiling ------------------------------------------------------------------------------- */

static dl_status
escape_error(dl_str pattern, const char *why, dl_error *err) {
    return dl_sql_fail_run(err, "escape '_', '%' or the escape character itself",
                           "[INVALID_FORMAT.ESCAPE] the pattern '%.*s' is invalid: %s",
                           DL_STR_FMT(pattern), why);
}

static dl_status lower_text(dl_str s, dl_buf *out, dl_error *err);

/* Compiles pattern into p, with token and literal storage from buf (reset by the caller). */
static dl_status
like_compile(dl_str pattern, char esc, bool lower, like_pat *p, dl_buf *store, dl_error *err) {
    dl_buf_reset(store);
    size_t max_toks = pattern.len + 1;
    DL_TRY(dl_buf_reserve(store, max_toks * sizeof(like_tok) + 2 * pattern.len + 8, err));
    like_tok *toks = (like_tok *)store->data;
    char *lit = (char *)store->data + max_toks * sizeof(like_tok);
    uint32_t n_lit = 0;
    int32_t n = 0;
    for (size_t i = 0; i < pattern.len; i++) {
        char c = pattern.ptr[i];
        if (c == esc) {
            if (i + 1 >= pattern.len) {
                return escape_error(pattern, "it ends with the escape character", err);
            }
            char next = pattern.ptr[++i];
            if (next != '_' && next != '%' && next != esc) {
                return escape_error(pattern, "the escape character precedes another character",
                                    err);
            }
            c = next;
        } else if (c == '_' || c == '%') {
            if (c == '%' && n > 0 && toks[n - 1].kind == TOK_MANY) {
                continue;
            }
            toks[n++] = (like_tok){.kind = c == '_' ? TOK_ONE : TOK_MANY};
            continue;
        }
        if (n == 0 || toks[n - 1].kind != TOK_LIT) {
            toks[n++] = (like_tok){.kind = TOK_LIT, .off = n_lit, .len = 0};
        }
        lit[n_lit++] = c;
        toks[n - 1].len++;
    }
    p->toks = toks;
    p->n_toks = n;
    p->lit = lit;
    if (lower && n_lit > 0) {
        /* Lower-case the literal bytes; code points may change length, so rebuild. */
        dl_buf tmp;
        dl_buf_init(&tmp, store->alloc);
        dl_status s = DL_OK;
        for (int32_t k = 0; k < n && s == DL_OK; k++) {
            if (toks[k].kind != TOK_LIT) {
                continue;
            }
            size_t start = tmp.len;
            s = lower_text(dl_str_make(lit + toks[k].off, toks[k].len), &tmp, err);
            toks[k].off = (uint32_t)start;
            toks[k].len = (uint32_t)(tmp.len - start);
        }
        if (s == DL_OK && tmp.len <= 2 * pattern.len + 8) {
            memcpy(lit, tmp.data, tmp.len);
        }
        dl_buf_destroy(&tmp);
        DL_TRY(s);
    }
    bool lead = n > 0 && toks[0].kind == TOK_MANY;
    bool trail = n > 0 && toks[n - 1].kind == TOK_MANY;
    int32_t lits = n - lead - trail;
    p->shape = SHAPE_GENERAL;
    p->lit_tok = lits == 1 ? (int32_t)lead : -1;
    if (n == 1 && lead) {
        p->shape = SHAPE_ANY;
    } else if (lits == 1 && toks[lead].kind == TOK_LIT) {
        p->shape = lead && trail ? SHAPE_CONTAINS
                   : lead        ? SHAPE_SUFFIX
                   : trail       ? SHAPE_PREFIX
                                 : SHAPE_EXACT;
    } else if (n == 0) {
        p->shape = SHAPE_EXACT;
    }
    return DL_OK;
}

/* ---- matching -------------------------------------------------------------------------------- */

static size_t
char_len(dl_str s, size_t pos) {
    size_t p = pos;
    (void)dl_sql_utf8_next(s, &p);
    return p - pos;
}

static bool
general_match(const like_pat *p, dl_str s) {
    size_t si = 0;
    int32_t ti = 0;
    int32_t star_ti = -1;
    size_t star_si = 0;
    while (si < s.len) {
        const like_tok *t = ti < p->n_toks ? &p->toks[ti] : NULL;
        if (t != NULL && t->kind == TOK_LIT && s.len - si >= t->len &&
            memcmp(s.ptr + si, p->lit + t->off, t->len) == 0) {
            si += t->len;
            ti++;
        } else if (t != NULL && t->kind == TOK_ONE) {
            si += char_len(s, si);
            ti++;
        } else if (t != NULL && t->kind == TOK_MANY) {
            star_ti = ti++;
            star_si = si;
        } else if (star_ti >= 0) {
            ti = star_ti + 1;
            star_si += char_len(s, star_si);
            si = star_si;
        } else {
            return false;
        }
    }
    while (ti < p->n_toks && p->toks[ti].kind == TOK_MANY) {
        ti++;
    }
    return ti == p->n_toks;
}

static bool
find_lit(dl_str s, const char *lit, size_t n) {
    if (n == 0) {
        return true;
    }
    for (size_t k = 0; k + n <= s.len; k++) {
        if (s.ptr[k] == lit[0] && memcmp(s.ptr + k, lit, n) == 0) {
            return true;
        }
    }
    return false;
}

static bool
like_match(const like_pat *p, dl_str s) {
    dl_str lit = DL_STR("");
    if (p->lit_tok >= 0 && p->toks[p->lit_tok].kind == TOK_LIT) {
        lit = dl_str_make(p->lit + p->toks[p->lit_tok].off, p->toks[p->lit_tok].len);
    }
    switch (p->shape) {
    case SHAPE_ANY:
        return true;
    case SHAPE_EXACT:
        return dl_str_eq(s, lit);
    case SHAPE_PREFIX:
        return dl_str_starts_with(s, lit);
    case SHAPE_SUFFIX:
        return dl_str_ends_with(s, lit);
    case SHAPE_CONTAINS:
        return find_lit(s, lit.ptr, lit.len);
    default:
        return general_match(p, s);
    }
}

/* ---- ILIKE's lower case ---------------------------------------------------------------------- */

static dl_status
lower_text(dl_str s, dl_buf *out, dl_error *err) {
    for (size_t pos = 0; pos < s.len;) {
        size_t at = pos;
        uint32_t cp = dl_sql_utf8_next(s, &pos);
        uint32_t m = cp < 0x80 ? (cp >= 'A' && cp <= 'Z' ? cp + 32 : cp) : dl_sql_lower_cp(cp);
        DL_TRY(m == cp ? dl_buf_append(out, s.ptr + at, pos - at, err)
                       : dl_sql_utf8_put(out, m, err));
    }
    return DL_OK;
}

/* ---- binding and the kernel ------------------------------------------------------------------ */

static char
escape_char(const dl_sql_fn_bind *b, dl_error *err, dl_status *s) {
    if (b->n_args < 3) {
        return '\\';
    }
    dl_str e;
    if (!dl_sql_bind_const_str(b, 2, &e) || e.len != 1) {
        *s =
            dl_sql_bind_fail(b, err, "the escape (argument 3) must be a constant single character");
        return '\\';
    }
    return e.ptr[0];
}

dl_status
dl_sql_bind_like(dl_sql_fn_bind *b, dl_error *err) {
    like_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    bd->is_ilike = strcmp(b->name, "ilike") == 0;
    b->bind_data = bd;
    DL_TRY(dl_sql_bind_expect_range(b, 0, 2, dl_sql_t(DL_VEC_TYPE_STRING), "a string", err));
    dl_status s = DL_OK;
    char esc = escape_char(b, err, &s);
    DL_TRY(s);
    dl_str pattern;
    if (dl_sql_bind_const_str(b, 1, &pattern)) {
        dl_buf store;
        dl_buf_init(&store, NULL);
        s = like_compile(pattern, esc, bd->is_ilike, &bd->pat, &store, err);
        if (s == DL_OK) {
            size_t size = store.cap;
            char *copy = dl_arena_memdup(b->arena, store.data, size);
            s = copy == NULL ? dl_error_set(err, DL_ERR_NOMEM, "%s: out of memory", b->name)
                             : DL_OK;
            if (copy != NULL) {
                bd->pat.lit = copy + (bd->pat.lit - (char *)store.data);
                bd->pat.toks = (like_tok *)copy;
                bd->has_const = true;
            }
        }
        dl_buf_destroy(&store);
        if (s != DL_OK) {
            dl_error_prefix(err, "%s", b->name);
            return DL_ERR_SQL_BIND;
        }
    }
    b->ret_type = dl_sql_t(DL_VEC_TYPE_BOOLEAN);
    return DL_OK;
}

dl_status
dl_sql_fn_like(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
               dl_error *err) {
    const like_bind *bd = call->bind_data;
    const dl_allocator *alloc = call->env != NULL ? call->env->alloc : NULL;
    dl_vec_unified u[3];
    dl_sql_unify_args(args, 2, count, u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(dl_sql_out_nulls(out, 0, u, 2, count, err));
    char esc = '\\';
    if (call->n_args > 2 && !dl_vec_is_null(args[2], 0)) {
        const dl_vector *flat;
        int64_t idx = dl_vec_resolve(args[2], 0, &flat);
        dl_str e = dl_vec_get_str(flat, idx);
        esc = (char)(e.len > 0 ? e.ptr[0] : '\\');
    }
    like_pat row_pat = bd->pat;
    dl_buf store;
    dl_buf lowered;
    dl_buf_init(&store, alloc);
    dl_buf_init(&lowered, alloc);
    dl_str last = {NULL, 0};
    bool has_last = false;
    dl_status s = DL_OK;
    for (int64_t i = 0; i < count && s == DL_OK; i++) {
        if (dl_sql_u_null(&u[0], i) || dl_sql_u_null(&u[1], i)) {
            continue;
        }
        if (!bd->has_const) {
            dl_str pattern = dl_sql_u_str(&u[1], i);
            if (!has_last || !dl_str_eq(pattern, last)) {
                s = like_compile(pattern, esc, bd->is_ilike, &row_pat, &store, err);
                last = pattern;
                has_last = true;
            }
        }
        dl_str text = dl_sql_u_str(&u[0], i);
        if (s == DL_OK && bd->is_ilike) {
            dl_buf_reset(&lowered);
            s = lower_text(text, &lowered, err);
            text = dl_buf_view(&lowered);
        }
        if (s == DL_OK) {
            dl_vec_bit_put(out->data, i, like_match(&row_pat, text));
        }
    }
    dl_buf_destroy(&store);
    dl_buf_destroy(&lowered);
    if (s == DL_OK) {
        dl_vec_set_length(out, count);
    }
    return s;
}
