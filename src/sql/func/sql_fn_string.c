/* SPDX-License-Identifier: Apache-2.0 */
/*
 * String functions, part one: length and its byte/bit variants, upper, lower, initcap,
 * reverse, trim/ltrim/rtrim/btrim, substring/substr/left/right, concat and ||, concat_ws,
 * replace, translate; and the UTF-8 helpers and the row loop the string families share.
 *
 * Spark counts and indexes strings in code points (UTF8String.numChars), so positions and
 * lengths here are code points; binary values count bytes. Case mapping is Unicode's simple
 * mapping (towupper_l in the C.UTF-8 locale, ASCII when that locale is missing); Java's
 * special cases that change the length (German sharp s to "SS") are not made. trim and its
 * relatives remove spaces (U+0020) only, or the characters given as the second argument:
 * trim(str [, chars]) with the string first (TRIM(BOTH c FROM s) is trim(s, c),
 * TRIM(LEADING ...) ltrim, TRIM(TRAILING ...) rtrim).
 */
#include <locale.h>
#include <pthread.h>
#include <string.h>
#include <strings.h>
#include <wctype.h>

#include "sql/func/sql_fn_int.h"

/* ---- UTF-8 ----------------------------------------------------------------------------------- */

int64_t
dl_sql_utf8_len(dl_str s) {
    int64_t n = 0;
    for (size_t i = 0; i < s.len; i++) {
        n += ((unsigned char)s.ptr[i] & 0xC0) != 0x80;
    }
    return n;
}

size_t
dl_sql_utf8_offset(dl_str s, int64_t k) {
    size_t i = 0;
    for (; i < s.len; i++) {
        if (((unsigned char)s.ptr[i] & 0xC0) != 0x80) {
            if (k == 0) {
                return i;
            }
            k--;
        }
    }
    return s.len;
}

uint32_t
dl_sql_utf8_next(dl_str s, size_t *pos) {
    const unsigned char *p = (const unsigned char *)s.ptr + *pos;
    size_t left = s.len - *pos;
    unsigned c = p[0];
    int n = c < 0x80             ? 1
            : (c & 0xE0) == 0xC0 ? 2
            : (c & 0xF0) == 0xE0 ? 3
            : (c & 0xF8) == 0xF0 ? 4
                                 : 0;
    if (n <= 1 || (size_t)n > left) {
        (*pos)++;
        return c;
    }
    uint32_t cp = c & (0x7Fu >> n);
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            (*pos)++;
            return c;
        }
        cp = (cp << 6) | (p[i] & 0x3Fu);
    }
    *pos += (size_t)n;
    return cp;
}

dl_status
dl_sql_utf8_put(dl_buf *buf, uint32_t cp, dl_error *err) {
    char b[4];
    size_t n = dl_utf8_encode(cp, b);
    return dl_buf_append(buf, b, n, err);
}

/* ---- the row loop ---------------------------------------------------------------------------- */

dl_status
dl_sql_str_rows(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                dl_sql_str_row_fn fn, dl_error *err) {
    int32_t n = call->n_args;
    const dl_allocator *alloc = call->env != NULL ? call->env->alloc : NULL;
    dl_vec_unified local[4];
    dl_vec_unified *u = n <= 4 ? local : dl_mem_alloc_array(alloc, (size_t)n, sizeof(*u));
    DL_CHECK(u != NULL, err, DL_ERR_NOMEM, "%s: out of memory", call->def->name);
    dl_sql_unify_args(args, n, count, u);
    bool any_null = call->def->is_null_propagating && dl_sql_any_null(u, n);
    dl_buf buf;
    dl_buf_init(&buf, alloc);
    dl_status s = DL_OK;
    for (int64_t i = 0; i < count && s == DL_OK; i++) {
        bool is_null = false;
        for (int32_t k = 0; any_null && k < n && !is_null; k++) {
            is_null = dl_sql_u_null(&u[k], i);
        }
        if (!is_null) {
            dl_buf_reset(&buf);
            s = fn(call, u, i, &buf, &is_null, err);
        }
        if (s == DL_OK) {
            s = is_null ? dl_vec_append_null(out, err)
                        : dl_vec_append_str(out, buf.data, buf.len, err);
        }
    }
    dl_buf_destroy(&buf);
    if (u != local) {
        dl_mem_free(alloc, u, (size_t)n * sizeof(*u));
    }
    return s;
}

typedef struct str_bind {
    dl_sql_scalar_fn fn;
    dl_sql_str_row_fn row;
    int op;
} str_bind;

static dl_status
k_str_rows(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
           dl_error *err) {
    const str_bind *bd = call->bind_data;
    return dl_sql_str_rows(call, args, count, out, bd->row, err);
}

static str_bind *
str_bind_new(dl_sql_fn_bind *b, dl_sql_str_row_fn row, int op, dl_error *err) {
    str_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd != NULL) {
        bd->fn = k_str_rows;
        bd->row = row;
        bd->op = op;
        b->bind_data = bd;
    }
    return bd;
}

static int
str_op(const dl_sql_fn_call *call) {
    return ((const str_bind *)call->bind_data)->op;
}

/* ---- length ---------------------------------------------------------------------------------- */

typedef struct len_bind {
    dl_sql_scalar_fn fn;
    int op; /* 0 chars, 1 bytes, 2 bits */
} len_bind;

static dl_status
k_length(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
         dl_error *err) {
    const len_bind *bd = call->bind_data;
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(dl_sql_out_nulls(out, 0, &u, 1, count, err));
    int32_t *r = out->data;
    const dl_vec_view *views = u.data;
    bool count_chars = bd->op == 0 && args[0]->type->id == DL_VEC_TYPE_STRING;
    for (int64_t i = 0; i < count; i++) {
        const dl_vec_view *v = &views[u.sel[i]];
        int64_t n = count_chars ? dl_sql_utf8_len(dl_vec_view_str(u.flat, v)) : v->inlined.length;
        r[i] = (int32_t)(bd->op == 2 ? n * 8 : n);
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

dl_status
dl_sql_bind_str_len(dl_sql_fn_bind *b, dl_error *err) {
    static const char *const names[] = {"length",           "len",          "char_length",
                                        "character_length", "octet_length", "bit_length"};
    static const int ops[] = {0, 0, 0, 0, 1, 2};
    int k = dl_sql_name_index(b->name, names, (int)DL_ARRAY_LEN(names));
    len_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    bd->fn = k_length;
    bd->op = ops[k < 0 ? 0 : k];
    b->bind_data = bd;
    if (b->arg_types[0]->id != DL_VEC_TYPE_BINARY) {
        DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_STRING), "a string", err));
    }
    b->ret_type = dl_sql_t(DL_VEC_TYPE_INT);
    return DL_OK;
}

/* ---- upper, lower, initcap ------------------------------------------------------------------- */

static locale_t utf8_locale;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void
make_utf8_locale(void) {
    utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

enum {
    MAP_UPPER,
    MAP_LOWER,
    MAP_INITCAP
};

static uint32_t
map_case(uint32_t cp, bool upper) {
    if (cp < 0x80) {
        if (upper && cp >= 'a' && cp <= 'z') {
            return cp - 32;
        }
        if (!upper && cp >= 'A' && cp <= 'Z') {
            return cp + 32;
        }
        return cp;
    }
    if (utf8_locale == (locale_t)0) {
        return cp;
    }
    return (uint32_t)(upper ? towupper_l((wint_t)cp, utf8_locale)
                            : towlower_l((wint_t)cp, utf8_locale));
}

uint32_t
dl_sql_lower_cp(uint32_t cp) {
    (void)pthread_once(&utf8_once, make_utf8_locale);
    return map_case(cp, false);
}

static dl_status
row_case(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
         bool *out_null, dl_error *err) {
    *out_null = false;
    int op = str_op(call);
    dl_str s = dl_sql_u_str(&u[0], i);
    DL_TRY(dl_buf_reserve(buf, s.len, err));
    bool word_start = true;
    for (size_t pos = 0; pos < s.len;) {
        size_t at = pos;
        uint32_t cp = dl_sql_utf8_next(s, &pos);
        bool upper = op == MAP_UPPER || (op == MAP_INITCAP && word_start);
        uint32_t m = map_case(cp, upper);
        word_start = cp == ' ';
        if (m == cp) {
            DL_TRY(dl_buf_append(buf, s.ptr + at, pos - at, err));
        } else {
            DL_TRY(dl_sql_utf8_put(buf, m, err));
        }
    }
    return DL_OK;
}

dl_status
dl_sql_bind_str_map(dl_sql_fn_bind *b, dl_error *err) {
    static const char *const names[] = {"upper", "ucase", "lower", "lcase", "initcap"};
    static const int ops[] = {MAP_UPPER, MAP_UPPER, MAP_LOWER, MAP_LOWER, MAP_INITCAP};
    int k = dl_sql_name_index(b->name, names, (int)DL_ARRAY_LEN(names));
    (void)pthread_once(&utf8_once, make_utf8_locale);
    if (str_bind_new(b, row_case, ops[k < 0 ? 0 : k], err) == NULL) {
        return DL_ERR_NOMEM;
    }
    DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_STRING), "a string", err));
    b->ret_type = dl_sql_t(DL_VEC_TYPE_STRING);
    return DL_OK;
}

/* ---- reverse (strings here; arrays in sql_fn_nested.c) --------------------------------------- */

static dl_status
row_reverse(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
            bool *out_null, dl_error *err) {
    *out_null = false;
    DL_UNUSED(call);
    dl_str s = dl_sql_u_str(&u[0], i);
    uint8_t *dst = dl_buf_extend(buf, s.len, err);
    if (dst == NULL && s.len > 0) {
        return DL_ERR_NOMEM;
    }
    size_t end = s.len;
    for (size_t pos = 0; pos < s.len;) {
        size_t at = pos;
        (void)dl_sql_utf8_next(s, &pos);
        memcpy(dst + end - (pos - at), s.ptr + at, pos - at);
        end -= pos - at;
    }
    return DL_OK;
}

dl_status
dl_sql_bind_reverse(dl_sql_fn_bind *b, dl_error *err) {
    if (b->arg_types[0]->id == DL_VEC_TYPE_ARRAY) {
        return dl_sql_bind_reverse_array(b, err);
    }
    if (str_bind_new(b, row_reverse, 0, err) == NULL) {
        return DL_ERR_NOMEM;
    }
    DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_STRING), "a string or an array", err));
    b->ret_type = dl_sql_t(DL_VEC_TYPE_STRING);
    return DL_OK;
}

/* ---- trim ------------------------------------------------------------------------------------ */

enum {
    TRIM_BOTH,
    TRIM_LEFT,
    TRIM_RIGHT
};

static bool
in_set(dl_str set, uint32_t cp) {
    for (size_t pos = 0; pos < set.len;) {
        if (dl_sql_utf8_next(set, &pos) == cp) {
            return true;
        }
    }
    return false;
}

static dl_status
row_trim(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
         bool *out_null, dl_error *err) {
    *out_null = false;
    int op = str_op(call);
    dl_str s = dl_sql_u_str(&u[0], i);
    dl_str set = call->n_args > 1 ? dl_sql_u_str(&u[1], i) : DL_STR(" ");
    size_t start = 0;
    size_t end = s.len;
    if (op != TRIM_RIGHT) {
        while (start < end) {
            size_t pos = start;
            if (!in_set(set, dl_sql_utf8_next(s, &pos))) {
                break;
            }
            start = pos;
        }
    }
    if (op != TRIM_LEFT) {
        while (end > start) {
            size_t at = end - 1;
            while (at > start && ((unsigned char)s.ptr[at] & 0xC0) == 0x80) {
                at--;
            }
            size_t pos = at;
            if (!in_set(set, dl_sql_utf8_next(s, &pos))) {
                break;
            }
            end = at;
        }
    }
    return dl_buf_append(buf, s.ptr + start, end - start, err);
}

dl_status
dl_sql_bind_trim(dl_sql_fn_bind *b, dl_error *err) {
    static const char *const names[] = {"trim", "btrim", "ltrim", "rtrim"};
    static const int ops[] = {TRIM_BOTH, TRIM_BOTH, TRIM_LEFT, TRIM_RIGHT};
    int k = dl_sql_name_index(b->name, names, (int)DL_ARRAY_LEN(names));
    DL_CHECK(b->n_args <= 2, err, DL_ERR_SQL_BIND, "%s: takes a string and optional characters",
             b->name);
    if (str_bind_new(b, row_trim, ops[k < 0 ? 0 : k], err) == NULL) {
        return DL_ERR_NOMEM;
    }
    DL_TRY(
        dl_sql_bind_expect_range(b, 0, b->n_args, dl_sql_t(DL_VEC_TYPE_STRING), "a string", err));
    b->ret_type = dl_sql_t(DL_VEC_TYPE_STRING);
    return DL_OK;
}

/* ---- substring, left, right ------------------------------------------------------------------ */

enum {
    SUB_SUBSTR,
    SUB_LEFT,
    SUB_RIGHT
};

/* UTF8String.substringSQL: 1-based pos (0 is 1, negative from the end), len code points. */
static void
substring_range(int64_t n_chars, int64_t pos, int64_t len, int64_t *out_start, int64_t *out_end) {
    int64_t start = pos > 0 ? pos - 1 : pos < 0 ? n_chars + pos : 0;
    int64_t end;
    if (len == INT64_MAX || DL_ADD_OVERFLOW(start, len, &end)) {
        end = INT64_MAX;
    }
    start = DL_MAX(start, 0);
    end = DL_MIN(end, n_chars);
    *out_start = start;
    *out_end = DL_MAX(end, start);
}

static int64_t
arg_i64(const dl_vec_unified *u, int64_t i) {
    return DL_SQL_U(u, int32_t, i);
}

static dl_status
row_substr(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
           bool *out_null, dl_error *err) {
    *out_null = false;
    int op = str_op(call);
    dl_str s = dl_sql_u_str(&u[0], i);
    bool is_binary = call->arg_types[0]->id == DL_VEC_TYPE_BINARY;
    int64_t n = is_binary ? (int64_t)s.len : dl_sql_utf8_len(s);
    int64_t pos;
    int64_t len;
    if (op == SUB_SUBSTR) {
        pos = arg_i64(&u[1], i);
        len = call->n_args > 2 ? arg_i64(&u[2], i) : INT64_MAX;
    } else {
        len = arg_i64(&u[1], i);
        pos = op == SUB_LEFT ? 1 : -len;
        if (len <= 0) {
            return DL_OK;
        }
        if (op == SUB_RIGHT) {
            len = INT64_MAX;
        }
    }
    int64_t start;
    int64_t end;
    substring_range(n, pos, len, &start, &end);
    size_t a = is_binary ? (size_t)start : dl_sql_utf8_offset(s, start);
    size_t b = is_binary ? (size_t)end
                         : a + dl_sql_utf8_offset(dl_str_slice(s, a, s.len - a), end - start);
    return dl_buf_append(buf, s.ptr + a, b - a, err);
}

dl_status
dl_sql_bind_substr(dl_sql_fn_bind *b, dl_error *err) {
    static const char *const names[] = {"substring", "substr", "left", "right"};
    static const int ops[] = {SUB_SUBSTR, SUB_SUBSTR, SUB_LEFT, SUB_RIGHT};
    int k = dl_sql_name_index(b->name, names, (int)DL_ARRAY_LEN(names));
    if (str_bind_new(b, row_substr, ops[k < 0 ? 0 : k], err) == NULL) {
        return DL_ERR_NOMEM;
    }
    const dl_type *st = b->arg_types[0]->id == DL_VEC_TYPE_BINARY ? dl_sql_t(DL_VEC_TYPE_BINARY)
                                                                  : dl_sql_t(DL_VEC_TYPE_STRING);
    DL_TRY(dl_sql_bind_expect(b, 0, st, "a string", err));
    DL_TRY(dl_sql_bind_expect_range(b, 1, b->n_args, dl_sql_t(DL_VEC_TYPE_INT), "an integer", err));
    b->ret_type = st;
    return DL_OK;
}

/* ---- concat, || ------------------------------------------------------------------------------ */

static dl_status
row_concat(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
           bool *out_null, dl_error *err) {
    *out_null = false;
    for (int32_t k = 0; k < call->n_args; k++) {
        dl_str s = dl_sql_u_str(&u[k], i);
        DL_TRY(dl_buf_append(buf, s.ptr, s.len, err));
    }
    return DL_OK;
}

dl_status
dl_sql_bind_concat(dl_sql_fn_bind *b, dl_error *err) {
    bool all_binary = b->n_args > 0;
    bool any_array = false;
    for (int32_t k = 0; k < b->n_args; k++) {
        all_binary = all_binary && b->arg_types[k]->id == DL_VEC_TYPE_BINARY;
        any_array = any_array || b->arg_types[k]->id == DL_VEC_TYPE_ARRAY;
    }
    if (any_array) {
        return dl_sql_bind_concat_arrays(b, err);
    }
    if (str_bind_new(b, row_concat, 0, err) == NULL) {
        return DL_ERR_NOMEM;
    }
    const dl_type *t = dl_sql_t(all_binary ? DL_VEC_TYPE_BINARY : DL_VEC_TYPE_STRING);
    DL_TRY(dl_sql_bind_expect_range(b, 0, b->n_args, t, "a string", err));
    b->ret_type = t;
    return DL_OK;
}

/* ---- concat_ws ------------------------------------------------------------------------------- */

/* Appends the string values of argument k at row i (a string, or each element of an array of
 * strings), separated by sep; *first tracks whether anything was written. */
static dl_status
append_ws_part(const dl_vec_unified *u, const dl_type *t, int64_t i, dl_str sep, bool *first,
               dl_buf *buf, dl_error *err) {
    if (dl_sql_u_null(u, i)) {
        return DL_OK;
    }
    if (t->id != DL_VEC_TYPE_ARRAY) {
        dl_str s = dl_sql_u_str(u, i);
        if (!*first) {
            DL_TRY(dl_buf_append(buf, sep.ptr, sep.len, err));
        }
        *first = false;
        return dl_buf_append(buf, s.ptr, s.len, err);
    }
    int64_t start;
    int64_t end;
    dl_vec_list_bounds(u->flat, u->sel[i], &start, &end);
    const dl_vector *child = u->flat->children[0];
    for (int64_t e = start; e < end; e++) {
        if (child->validity != NULL && !dl_vec_bit_get(child->validity, e)) {
            continue;
        }
        dl_str s = dl_vec_get_str(child, e);
        if (!*first) {
            DL_TRY(dl_buf_append(buf, sep.ptr, sep.len, err));
        }
        *first = false;
        DL_TRY(dl_buf_append(buf, s.ptr, s.len, err));
    }
    return DL_OK;
}

static dl_status
row_concat_ws(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
              bool *out_null, dl_error *err) {
    if (dl_sql_u_null(&u[0], i)) {
        *out_null = true;
        return DL_OK;
    }
    dl_str sep = dl_sql_u_str(&u[0], i);
    bool first = true;
    for (int32_t k = 1; k < call->n_args; k++) {
        DL_TRY(append_ws_part(&u[k], call->arg_types[k], i, sep, &first, buf, err));
    }
    return DL_OK;
}

dl_status
dl_sql_bind_concat_ws(dl_sql_fn_bind *b, dl_error *err) {
    const dl_type *string = dl_sql_t(DL_VEC_TYPE_STRING);
    const dl_type *strings;
    DL_TRY(dl_vec_type_array(b->arena, string, true, &strings, err));
    for (int32_t k = 0; k < b->n_args; k++) {
        const dl_type *t = b->arg_types[k];
        bool is_array = k > 0 && t->id == DL_VEC_TYPE_ARRAY;
        if (is_array && t->element->id == DL_VEC_TYPE_STRING) {
            continue;
        }
        DL_TRY(dl_sql_bind_expect(b, k, is_array ? strings : string,
                                  is_array ? "a string or an array of strings" : "a string", err));
    }
    b->ret_type = string;
    return DL_OK;
}

dl_status
dl_sql_fn_concat_ws(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                    dl_error *err) {
    return dl_sql_str_rows(call, args, count, out, row_concat_ws, err);
}

/* ---- replace, translate ---------------------------------------------------------------------- */

static dl_status
row_replace(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
            bool *out_null, dl_error *err) {
    *out_null = false;
    dl_str s = dl_sql_u_str(&u[0], i);
    dl_str search = dl_sql_u_str(&u[1], i);
    dl_str with = call->n_args > 2 ? dl_sql_u_str(&u[2], i) : DL_STR("");
    if (search.len == 0) {
        return dl_buf_append(buf, s.ptr, s.len, err);
    }
    size_t pos = 0;
    while (pos < s.len) {
        const char *hit = NULL;
        if (s.len - pos >= search.len) {
            for (size_t k = pos; k + search.len <= s.len; k++) {
                if (s.ptr[k] == search.ptr[0] && memcmp(s.ptr + k, search.ptr, search.len) == 0) {
                    hit = s.ptr + k;
                    break;
                }
            }
        }
        if (hit == NULL) {
            break;
        }
        DL_TRY(dl_buf_append(buf, s.ptr + pos, (size_t)(hit - (s.ptr + pos)), err));
        DL_TRY(dl_buf_append(buf, with.ptr, with.len, err));
        pos = (size_t)(hit - s.ptr) + search.len;
    }
    return dl_buf_append(buf, s.ptr + pos, s.len - pos, err);
}

dl_status
dl_sql_bind_replace(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(
        dl_sql_bind_expect_range(b, 0, b->n_args, dl_sql_t(DL_VEC_TYPE_STRING), "a string", err));
    b->ret_type = dl_sql_t(DL_VEC_TYPE_STRING);
    return DL_OK;
}

dl_status
dl_sql_fn_replace(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                  dl_error *err) {
    return dl_sql_str_rows(call, args, count, out, row_replace, err);
}

/* translate: the first occurrence of a character in `from` maps to the character at the same
 * place in `to`; characters of `from` beyond the end of `to` are deleted. */
static dl_status
row_translate(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
              bool *out_null, dl_error *err) {
    *out_null = false;
    DL_UNUSED(call);
    dl_str s = dl_sql_u_str(&u[0], i);
    dl_str from = dl_sql_u_str(&u[1], i);
    dl_str to = dl_sql_u_str(&u[2], i);
    for (size_t pos = 0; pos < s.len;) {
        size_t at = pos;
        uint32_t cp = dl_sql_utf8_next(s, &pos);
        int64_t idx = -1;
        int64_t k = 0;
        for (size_t fp = 0; fp < from.len; k++) {
            if (dl_sql_utf8_next(from, &fp) == cp) {
                idx = k;
                break;
            }
        }
        if (idx < 0) {
            DL_TRY(dl_buf_append(buf, s.ptr + at, pos - at, err));
            continue;
        }
        size_t tp = dl_sql_utf8_offset(to, idx);
        if (tp < to.len) {
            size_t te = tp;
            (void)dl_sql_utf8_next(to, &te);
            DL_TRY(dl_buf_append(buf, to.ptr + tp, te - tp, err));
        }
    }
    return DL_OK;
}

dl_status
dl_sql_bind_translate(dl_sql_fn_bind *b, dl_error *err) {
    return dl_sql_bind_replace(b, err);
}

dl_status
dl_sql_fn_translate(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                    dl_error *err) {
    return dl_sql_str_rows(call, args, count, out, row_translate, err);
}
