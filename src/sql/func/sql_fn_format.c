/* SPDX-License-Identifier: Apache-2.0 */
/*
 * format_string / printf: java.util.Formatter's syntax as Spark applies it (Locale.US):
 *
 *   %[index$][flags][width][.precision]conversion
 *   flags        - (left-justify) 0 (zero-pad) + (sign) ' ' (space for positives)
 *                , (group thousands) ( (negatives in parentheses) # (alternate form)
 *   conversions  s S (any value as CAST(... AS STRING); null is "null"), d (integers),
 *                x X o (integers; negatives in two's complement of their width), f e E g G
 *                (numbers), c (a code point), b B (null is false, a boolean itself, anything
 *                else true), %%, %n
 *
 * Java rounds %f, %e and %g HALF_UP on the decimal digits Double.toString would print (so
 * %.2f of 1.005 is 1.01, where C's printf says 1.00); decimals use their exact digits. %g
 * uses fixed notation when 1e-4 <= |x| < 10^precision after rounding, else scientific, and
 * keeps trailing zeros. Date/time conversions (%t) and %h are not supported (an error).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sql/func/sql_fn_int.h"

/* ---- decimal digits -------------------------------------------------------------------------- */

typedef struct dnum {
    bool is_negative;
    char d[48]; /* significant digits */
    int n;      /* 0 for zero */
    int exp;    /* value = d[0].d[1..] * 10^exp */
} dnum;

static void
dnum_from_double(double v, dnum *x) {
    x->is_negative = signbit(v) != 0;
    x->n = dl_sql_double_digits(fabs(v), false, x->d, &x->exp);
    if (x->n == 1 && x->d[0] == '0') {
        x->n = 0;
        x->exp = 0;
    }
}

static void
dnum_from_decimal(dl_i128 v, int scale, dnum *x) {
    char text[64];
    size_t len = dl_sql_dec_format(v < 0 ? -v : v, 0, false, text);
    x->is_negative = v < 0;
    int n = (int)len;
    while (n > 1 && text[n - 1] == '0') {
        n--;
    }
    memcpy(x->d, text, (size_t)n);
    x->n = v == 0 ? 0 : n;
    x->exp = (int)len - 1 - scale;
}

/* Keeps keep significant digits, rounding HALF_UP. */
static void
dnum_round(dnum *x, int keep) {
    if (keep >= x->n) {
        return;
    }
    if (keep < 0) {
        x->n = 0;
        return;
    }
    bool up = x->d[keep] >= '5';
    x->n = keep;
    if (!up) {
        return;
    }
    int k = keep - 1;
    while (k >= 0 && x->d[k] == '9') {
        x->d[k--] = '0';
    }
    if (k >= 0) {
        x->d[k]++;
        return;
    }
    memmove(x->d + 1, x->d, (size_t)DL_MIN(keep, 46));
    x->d[0] = '1';
    x->n = keep + 1;
    x->exp++;
}

static char
dnum_digit(const dnum *x, int idx) {
    return (char)(idx >= 0 && idx < x->n ? x->d[idx] : '0');
}

/* Integer and fraction digits of x rounded to prec decimals, into out. */
static void
dnum_fixed(dnum x, int prec, bool group, dl_buf *out, dl_error *err, dl_status *s) {
    if (x.n > 0) {
        dnum_round(&x, x.exp + 1 + prec);
    }
    int int_digits = x.n == 0 || x.exp < 0 ? 1 : x.exp + 1;
    for (int k = 0; k < int_digits && *s == DL_OK; k++) {
        if (group && k > 0 && (int_digits - k) % 3 == 0) {
            *s = dl_buf_append_byte(out, ',', err);
        }
        char c = (char)(x.n == 0 || x.exp < 0 ? '0' : dnum_digit(&x, k));
        if (*s == DL_OK) {
            *s = dl_buf_append_byte(out, (uint8_t)c, err);
        }
    }
    if (prec > 0 && *s == DL_OK) {
        *s = dl_buf_append_byte(out, '.', err);
    }
    for (int k = 1; k <= prec && *s == DL_OK; k++) {
        *s = dl_buf_append_byte(out, (uint8_t)(x.n == 0 ? '0' : dnum_digit(&x, x.exp + k)), err);
    }
}

static void
dnum_sci(dnum x, int prec, bool upper, dl_buf *out, dl_error *err, dl_status *s) {
    if (x.n > 0) {
        dnum_round(&x, prec + 1);
    }
    char text[80];
    size_t len = 0;
    text[len++] = (char)(x.n == 0 ? '0' : x.d[0]);
    if (prec > 0) {
        text[len++] = '.';
    }
    for (int k = 1; k <= prec && len < 60; k++) {
        text[len++] = dnum_digit(&x, k);
    }
    int e = x.n == 0 ? 0 : x.exp;
    int w = snprintf(text + len, sizeof(text) - len, "%c%c%02d", upper ? 'E' : 'e',
                     e < 0 ? '-' : '+', e < 0 ? -e : e);
    *s = dl_buf_append(out, text, len + (size_t)DL_MAX(w, 0), err);
}

/* ---- one conversion -------------------------------------------------------------------------- */

typedef struct spec {
    bool left;
    bool zero;
    bool plus;
    bool space;
    bool group;
    bool paren;
    bool alt;
    int width;
    int prec; /* -1 when absent */
    char conv;
} spec;

/* Pads body (already formatted, sign included) to the width. Zero padding goes after the
 * sign. */
static dl_status
emit(const spec *sp, dl_str body, bool is_number, dl_buf *out, dl_error *err) {
    int64_t chars = dl_sql_utf8_len(body);
    int64_t pad = sp->width > chars ? sp->width - chars : 0;
    if (pad > 0 && sp->zero && is_number && !sp->left) {
        size_t sign = body.len > 0 && (body.ptr[0] == '-' || body.ptr[0] == '+' ||
                                       body.ptr[0] == ' ' || body.ptr[0] == '(')
                          ? 1
                          : 0;
        DL_TRY(dl_buf_append(out, body.ptr, sign, err));
        for (int64_t k = 0; k < pad; k++) {
            DL_TRY(dl_buf_append_byte(out, '0', err));
        }
        return dl_buf_append(out, body.ptr + sign, body.len - sign, err);
    }
    for (int64_t k = 0; k < pad && !sp->left; k++) {
        DL_TRY(dl_buf_append_byte(out, ' ', err));
    }
    DL_TRY(dl_buf_append(out, body.ptr, body.len, err));
    for (int64_t k = 0; k < pad && sp->left; k++) {
        DL_TRY(dl_buf_append_byte(out, ' ', err));
    }
    return DL_OK;
}

/* Sign and parentheses around a magnitude formatted into mag. */
static dl_status
signed_body(const spec *sp, bool is_negative, dl_str mag, dl_buf *body, dl_error *err) {
    if (is_negative) {
        DL_TRY(dl_buf_append_byte(body, sp->paren ? '(' : '-', err));
    } else if (sp->plus || sp->space) {
        DL_TRY(dl_buf_append_byte(body, sp->plus ? '+' : ' ', err));
    }
    DL_TRY(dl_buf_append(body, mag.ptr, mag.len, err));
    return is_negative && sp->paren ? dl_buf_append_byte(body, ')', err) : DL_OK;
}

typedef struct fmt_arg {
    const dl_type *type;
    const dl_vector *flat;
    int64_t idx;
    bool is_null;
} fmt_arg;

static int64_t
arg_int(const fmt_arg *a) {
    switch (a->type->id) {
    case DL_VEC_TYPE_BYTE:
        return dl_sql_i8(((const int8_t *)a->flat->data)[a->idx]);
    case DL_VEC_TYPE_SHORT:
        return ((const int16_t *)a->flat->data)[a->idx];
    case DL_VEC_TYPE_INT:
        return ((const int32_t *)a->flat->data)[a->idx];
    default:
        return ((const int64_t *)a->flat->data)[a->idx];
    }
}

static dl_status
conv_mismatch(char conv, const fmt_arg *a, dl_error *err) {
    char name[64];
    return dl_sql_fail_run(err, "use a conversion that matches the argument's type",
                           "[FORMAT_STRING] %%%c cannot format a %s argument", conv,
                           dl_sql_type_name(a->type, name, sizeof(name)));
}

/* The n digits of text into tmp (reset), with ',' between thousands when group. */
static dl_status
grouped_digits(const char *text, int n, bool group, dl_buf *tmp, dl_error *err) {
    dl_buf_reset(tmp);
    for (int k = 0; k < n; k++) {
        bool comma = group && k > 0 && (n - k) % 3 == 0;
        DL_TRY(comma ? dl_buf_append_byte(tmp, ',', err) : DL_OK);
        DL_TRY(dl_buf_append_byte(tmp, (uint8_t)text[k], err));
    }
    return DL_OK;
}

static dl_status
format_integer(const spec *sp, const fmt_arg *a, dl_buf *body, dl_buf *tmp, dl_error *err) {
    if (!dl_sql_is_integral(a->type)) {
        return conv_mismatch(sp->conv, a, err);
    }
    int64_t v = arg_int(a);
    char text[80];
    int n;
    if (sp->conv == 'd') {
        uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
        n = snprintf(text, sizeof(text), "%llu", (unsigned long long)m);
        DL_TRY(grouped_digits(text, n, sp->group, tmp, err));
        return signed_body(sp, v < 0, dl_buf_view(tmp), body, err);
    }
    int bits = (int)dl_vec_type_width(a->type) * 8;
    uint64_t u = bits == 64 ? (uint64_t)v : (uint64_t)v & ((UINT64_C(1) << bits) - 1);
    const char *prefix = !sp->alt ? "" : sp->conv == 'o' ? "0" : sp->conv == 'x' ? "0x" : "0X";
    if (sp->conv == 'o') {
        n = snprintf(text, sizeof(text), "%s%llo", prefix, (unsigned long long)u);
    } else if (sp->conv == 'x') {
        n = snprintf(text, sizeof(text), "%s%llx", prefix, (unsigned long long)u);
    } else {
        n = snprintf(text, sizeof(text), "%s%llX", prefix, (unsigned long long)u);
    }
    return dl_buf_append(body, text, (size_t)DL_MAX(n, 0), err);
}

static dl_status
format_float(const spec *sp, const fmt_arg *a, dl_buf *body, dl_buf *tmp, dl_error *err) {
    dnum x;
    if (a->type->id == DL_VEC_TYPE_DECIMAL) {
        dnum_from_decimal(((const dl_i128 *)a->flat->data)[a->idx], a->type->scale, &x);
    } else if (dl_sql_is_floating(a->type)) {
        double v = a->type->id == DL_VEC_TYPE_FLOAT ? (double)((const float *)a->flat->data)[a->idx]
                                                    : ((const double *)a->flat->data)[a->idx];
        if (!isfinite(v)) {
            const char *t = isnan(v) ? "NaN" : v < 0 ? "-Infinity" : "Infinity";
            return dl_buf_append_cstr(body, t, err);
        }
        dnum_from_double(v, &x);
    } else {
        return conv_mismatch(sp->conv, a, err);
    }
    int prec = sp->prec < 0 ? 6 : sp->prec;
    dl_status s = DL_OK;
    dl_buf_reset(tmp);
    char c = sp->conv;
    if (c == 'g' || c == 'G') {
        prec = prec == 0 ? 1 : prec;
        dnum r = x;
        if (r.n > 0) {
            dnum_round(&r, prec);
        }
        bool fixed = r.n == 0 || (r.exp >= -4 && r.exp < prec);
        if (fixed) {
            dnum_fixed(x, prec - 1 - (r.n == 0 ? 0 : r.exp), sp->group, tmp, err, &s);
        } else {
            dnum_sci(x, prec - 1, c == 'G', tmp, err, &s);
        }
    } else if (c == 'f') {
        dnum_fixed(x, prec, sp->group, tmp, err, &s);
    } else {
        dnum_sci(x, prec, c == 'E', tmp, err, &s);
    }
    DL_TRY(s);
    return signed_body(sp, x.is_negative, dl_buf_view(tmp), body, err);
}

static dl_status
format_one(const dl_sql_fn_env *env, const dl_sql_tz *tz, const spec *sp, const fmt_arg *a,
           dl_buf *body, dl_buf *tmp, dl_error *err) {
    char c = sp->conv;
    if (c == 'b' || c == 'B') {
        bool v =
            !a->is_null && (a->type->id != DL_VEC_TYPE_BOOLEAN || dl_vec_get_bool(a->flat, a->idx));
        return dl_buf_append_cstr(
            body, v ? (c == 'b' ? "true" : "TRUE") : (c == 'b' ? "false" : "FALSE"), err);
    }
    if (a->is_null) {
        return dl_buf_append_cstr(body, c == 'S' ? "NULL" : "null", err);
    }
    switch (c) {
    case 's':
    case 'S': {
        DL_TRY(dl_sql_value_to_text(env, tz, a->type, a->flat, a->idx, body, err));
        if (sp->prec >= 0) {
            body->len = dl_sql_utf8_offset(dl_buf_view(body), sp->prec);
        }
        for (size_t k = 0; c == 'S' && k < body->len; k++) {
            if (body->data[k] >= 'a' && body->data[k] <= 'z') {
                body->data[k] = (uint8_t)(body->data[k] - 32);
            }
        }
        return DL_OK;
    }
    case 'c':
        if (!dl_sql_is_integral(a->type)) {
            return conv_mismatch(c, a, err);
        }
        return dl_sql_utf8_put(body, (uint32_t)arg_int(a), err);
    case 'd':
    case 'o':
    case 'x':
    case 'X':
        return format_integer(sp, a, body, tmp, err);
    default:
        return format_float(sp, a, body, tmp, err);
    }
}

/* ---- the format string ----------------------------------------------------------------------- */

static int
read_number(dl_str f, size_t *pos) {
    int v = 0;
    while (*pos < f.len && f.ptr[*pos] >= '0' && f.ptr[*pos] <= '9' && v < 100000) {
        v = v * 10 + (f.ptr[(*pos)++] - '0');
    }
    return v;
}

/* Parses a specification after '%' at *pos; *index is the explicit 1-based argument or 0. */
static bool
parse_spec(dl_str f, size_t *pos, spec *sp, int *index) {
    memset(sp, 0, sizeof(*sp));
    sp->prec = -1;
    *index = 0;
    size_t start = *pos;
    int n = read_number(f, pos);
    if (*pos < f.len && f.ptr[*pos] == '$' && *pos > start) {
        *index = n;
        (*pos)++;
    } else {
        *pos = start;
    }
    for (; *pos < f.len; (*pos)++) {
        char c = f.ptr[*pos];
        bool *flag = c == '-'   ? &sp->left
                     : c == '0' ? &sp->zero
                     : c == '+' ? &sp->plus
                     : c == ' ' ? &sp->space
                     : c == ',' ? &sp->group
                     : c == '(' ? &sp->paren
                     : c == '#' ? &sp->alt
                                : NULL;
        if (flag == NULL) {
            break;
        }
        *flag = true;
    }
    sp->width = read_number(f, pos);
    if (*pos < f.len && f.ptr[*pos] == '.') {
        (*pos)++;
        sp->prec = read_number(f, pos);
    }
    if (*pos >= f.len) {
        return false;
    }
    sp->conv = f.ptr[(*pos)++];
    return strchr("bBsScdoxXeEfgG%n", sp->conv) != NULL;
}

typedef struct fmt_row {
    const dl_sql_fn_env *env;
    const dl_sql_tz *tz;
    const dl_vec_unified *u;
    const dl_type *const *types;
    int32_t n_args;
    int64_t row;
} fmt_row;

static dl_status
format_row(const fmt_row *r, dl_str f, dl_buf *out, dl_buf *body, dl_buf *tmp, dl_error *err) {
    int next = 1;
    for (size_t pos = 0; pos < f.len;) {
        if (f.ptr[pos] != '%') {
            DL_TRY(dl_buf_append_byte(out, (uint8_t)f.ptr[pos++], err));
            continue;
        }
        pos++;
        spec sp;
        int index;
        if (!parse_spec(f, &pos, &sp, &index)) {
            return dl_sql_fail_run(err, "see java.util.Formatter for the syntax",
                                   "[FORMAT_STRING] bad or unsupported conversion at offset %zu of "
                                   "'%.*s'",
                                   pos, DL_STR_FMT(f));
        }
        if (sp.conv == '%' || sp.conv == 'n') {
            DL_TRY(dl_buf_append_byte(out, sp.conv == '%' ? '%' : '\n', err));
            continue;
        }
        int k = index > 0 ? index : next++;
        DL_CHECK(k < r->n_args, err, DL_ERR_DATA,
                 "[FORMAT_STRING] format '%.*s' needs argument %d, but %d were given",
                 DL_STR_FMT(f), k, (int)r->n_args - 1);
        const dl_vec_unified *u = &r->u[k];
        fmt_arg a = {.type = r->types[k],
                     .flat = u->flat,
                     .idx = u->sel[r->row],
                     .is_null = dl_sql_u_null(u, r->row)};
        dl_buf_reset(body);
        DL_TRY(format_one(r->env, r->tz, &sp, &a, body, tmp, err));
        bool is_number = strchr("doxXeEfgG", sp.conv) != NULL;
        DL_TRY(emit(&sp, dl_buf_view(body), is_number, out, err));
    }
    return DL_OK;
}

dl_status
dl_sql_bind_format_string(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_STRING), "a format string", err));
    b->ret_type = dl_sql_t(DL_VEC_TYPE_STRING);
    return DL_OK;
}

dl_status
dl_sql_fn_format_string(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                        dl_error *err) {
    int32_t n = call->n_args;
    const dl_allocator *alloc = call->env != NULL ? call->env->alloc : NULL;
    dl_vec_unified *u = dl_mem_alloc_array(alloc, (size_t)n, sizeof(*u));
    DL_CHECK(u != NULL, err, DL_ERR_NOMEM, "format_string: out of memory");
    dl_sql_unify_args(args, n, count, u);
    fmt_row r = {.env = call->env, .u = u, .types = call->arg_types, .n_args = n};
    dl_buf text;
    dl_buf body;
    dl_buf tmp;
    dl_buf_init(&text, alloc);
    dl_buf_init(&body, alloc);
    dl_buf_init(&tmp, alloc);
    dl_status s = dl_sql_tz_env(call->env, &r.tz, err);
    for (int64_t i = 0; i < count && s == DL_OK; i++) {
        if (dl_sql_u_null(&u[0], i)) {
            s = dl_vec_append_null(out, err);
            continue;
        }
        r.row = i;
        dl_buf_reset(&text);
        s = format_row(&r, dl_sql_u_str(&u[0], i), &text, &body, &tmp, err);
        if (s == DL_OK) {
            s = dl_vec_append_str(out, text.data, text.len, err);
        }
    }
    dl_buf_destroy(&text);
    dl_buf_destroy(&body);
    dl_buf_destroy(&tmp);
    dl_mem_free(alloc, u, (size_t)n * sizeof(*u));
    return s;
}
