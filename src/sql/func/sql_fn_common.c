/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers every function family uses (declared in sql_fn_int.h): type predicates and names,
 * bind-time argument checks and implicit casts, reading arguments, writing results and nulls,
 * and the runtime error messages in Spark's words.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sql/func/sql_fn_int.h"

/* ---- types ---------------------------------------------------------------------------------- */

bool
dl_sql_decimal_for(const dl_type *t, int *out_precision, int *out_scale) {
    static const struct {
        dl_type_id id;
        int precision;
        int scale;
    } table[] = {
        {DL_VEC_TYPE_BYTE, 3, 0},    {DL_VEC_TYPE_SHORT, 5, 0},  {DL_VEC_TYPE_INT, 10, 0},
        {DL_VEC_TYPE_LONG, 20, 0},   {DL_VEC_TYPE_FLOAT, 14, 7}, {DL_VEC_TYPE_DOUBLE, 30, 15},
        {DL_VEC_TYPE_BOOLEAN, 1, 0},
    };

    if (t->id == DL_VEC_TYPE_DECIMAL) {
        *out_precision = t->precision;
        *out_scale = t->scale;
        return true;
    }
    for (size_t i = 0; i < DL_ARRAY_LEN(table); i++) {
        if (table[i].id == t->id) {
            *out_precision = table[i].precision;
            *out_scale = table[i].scale;
            return true;
        }
    }
    return false;
}

typedef struct name_buf {
    char *buf;
    size_t cap;
    size_t len;
} name_buf;

static void
name_put(name_buf *nb, const char *s) {
    while (*s != '\0' && nb->len + 1 < nb->cap) {
        nb->buf[nb->len++] = *s++;
    }
    nb->buf[nb->len] = '\0';
}

static void
type_name_into(const dl_type *t, name_buf *nb) {
    char tmp[32];
    switch (t->id) {
    case DL_VEC_TYPE_DECIMAL:
        (void)snprintf(tmp, sizeof(tmp), "decimal(%d,%d)", t->precision, t->scale);
        name_put(nb, tmp);
        return;
    case DL_VEC_TYPE_ARRAY:
        name_put(nb, "array<");
        type_name_into(t->element, nb);
        name_put(nb, ">");
        return;
    case DL_VEC_TYPE_MAP:
        name_put(nb, "map<");
        type_name_into(t->key, nb);
        name_put(nb, ",");
        type_name_into(t->value, nb);
        name_put(nb, ">");
        return;
    case DL_VEC_TYPE_STRUCT:
        name_put(nb, "struct<");
        for (int32_t i = 0; i < t->n_fields; i++) {
            name_put(nb, i > 0 ? "," : "");
            name_put(nb, t->fields[i].name);
            name_put(nb, ":");
            type_name_into(t->fields[i].type, nb);
        }
        name_put(nb, ">");
        return;
    default:
        name_put(nb, dl_vec_type_name(t->id));
        return;
    }
}

const char *
dl_sql_type_name(const dl_type *t, char *buf, size_t cap) {
    if (cap == 0) {
        return buf;
    }
    name_buf nb = {.buf = buf, .cap = cap, .len = 0};
    buf[0] = '\0';
    type_name_into(t, &nb);
    return buf;
}

dl_status
dl_sql_decimal_type(dl_arena *arena, int precision, int scale, const dl_type **out, dl_error *err) {
    precision = DL_MAX(DL_MIN(precision, DL_SQL_DEC_MAX), 1);
    scale = DL_MAX(DL_MIN(scale, precision), 0);
    return dl_vec_type_decimal(arena, precision, scale, out, err);
}

dl_status
dl_sql_decimal_adjusted(dl_arena *arena, int precision, int scale, const dl_type **out,
                        dl_error *err) {
    if (precision <= DL_SQL_DEC_MAX) {
        return dl_sql_decimal_type(arena, precision, scale, out, err);
    }
    int int_digits = precision - scale;
    int min_scale = DL_MIN(scale, 6);
    int adjusted = DL_MAX(DL_SQL_DEC_MAX - int_digits, min_scale);
    return dl_sql_decimal_type(arena, DL_SQL_DEC_MAX, adjusted, out, err);
}

/* ---- bind helpers --------------------------------------------------------------------------- */

dl_status
dl_sql_bind_fail(const dl_sql_fn_bind *b, dl_error *err, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return dl_error_set(err, DL_ERR_SQL_BIND, "%s: %s", b->name, msg);
}

dl_status
dl_sql_bind_arg_fail(const dl_sql_fn_bind *b, int32_t i, const char *what, dl_error *err) {
    char type[128];
    return dl_sql_bind_fail(b, err, "argument %d must be %s, got %s", (int)i + 1, what,
                            dl_sql_type_name(b->arg_types[i], type, sizeof(type)));
}

void
dl_sql_bind_cast(dl_sql_fn_bind *b, int32_t i, const dl_type *t) {
    b->cast_to[i] = dl_vec_type_equal(b->arg_types[i], t) ? NULL : t;
}

dl_status
dl_sql_bind_expect(dl_sql_fn_bind *b, int32_t i, const dl_type *target, const char *what,
                   dl_error *err) {
    const dl_type *t = dl_sql_bind_arg(b, i);
    if (dl_vec_type_equal(t, target)) {
        return DL_OK;
    }
    if (t->id == DL_VEC_TYPE_NULL || dl_sql_cast_is_implicit(t, target)) {
        b->cast_to[i] = target;
        return DL_OK;
    }
    return dl_sql_bind_arg_fail(b, i, what, err);
}

dl_status
dl_sql_bind_expect_range(dl_sql_fn_bind *b, int32_t from, int32_t to, const dl_type *target,
                         const char *what, dl_error *err) {
    for (int32_t i = from; i < to; i++) {
        DL_TRY(dl_sql_bind_expect(b, i, target, what, err));
    }
    return DL_OK;
}

bool
dl_sql_bind_const_i64(const dl_sql_fn_bind *b, int32_t i, int64_t *out) {
    const dl_sql_fn_const *c = &b->consts[i];
    if (!c->is_const || c->is_null || c->vec == NULL) {
        return false;
    }
    const dl_vector *flat;
    int64_t idx = dl_vec_resolve(c->vec, 0, &flat);
    switch (flat->type->id) {
    case DL_VEC_TYPE_BYTE:
        *out = dl_sql_i8(((const int8_t *)flat->data)[idx]);
        return true;
    case DL_VEC_TYPE_SHORT:
        *out = ((const int16_t *)flat->data)[idx];
        return true;
    case DL_VEC_TYPE_INT:
        *out = ((const int32_t *)flat->data)[idx];
        return true;
    case DL_VEC_TYPE_LONG:
        *out = ((const int64_t *)flat->data)[idx];
        return true;
    default:
        return false;
    }
}

bool
dl_sql_bind_const_str(const dl_sql_fn_bind *b, int32_t i, dl_str *out) {
    const dl_sql_fn_const *c = &b->consts[i];
    if (!c->is_const || c->is_null || c->vec == NULL ||
        dl_vec_type_phys(c->vec->type) != DL_VEC_PHYS_VIEW) {
        return false;
    }
    const dl_vector *flat;
    int64_t idx = dl_vec_resolve(c->vec, 0, &flat);
    *out = dl_vec_get_str(flat, idx);
    return true;
}

void *
dl_sql_bind_alloc(dl_sql_fn_bind *b, size_t size, dl_error *err) {
    void *p = dl_arena_alloc_zero(b->arena, size);
    if (p == NULL) {
        (void)dl_error_set(err, DL_ERR_NOMEM, "%s: out of memory binding the call", b->name);
    }
    return p;
}

int
dl_sql_name_index(const char *name, const char *const *names, int n) {
    for (int i = 0; i < n; i++) {
        if (strcasecmp(name, names[i]) == 0) {
            return i;
        }
    }
    return -1;
}

/* ---- reading arguments ---------------------------------------------------------------------- */

bool
dl_sql_all_const(dl_vector *const *args, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        if (args[i]->layout != DL_VEC_CONST) {
            return false;
        }
    }
    return true;
}

void
dl_sql_unify_args(dl_vector *const *args, int32_t n, int64_t count, dl_vec_unified *u) {
    for (int32_t i = 0; i < n; i++) {
        dl_vec_unify(args[i], count, &u[i]);
    }
}

dl_status
dl_sql_fold_const(dl_sql_scalar_fn kernel, dl_sql_fn_call *call, dl_vector *const *args,
                  int64_t count, dl_vector *out, bool *done, dl_error *err) {
    *done = false;
    if (count <= 1 || out->length != 0 || !dl_sql_all_const(args, call->n_args)) {
        return DL_OK;
    }
    DL_TRY(kernel(call, args, 1, out, err));
    if (out->layout == DL_VEC_FLAT && out->length == 1) {
        dl_vec_make_const(out, count);
    }
    *done = true;
    return DL_OK;
}

/* ---- writing results ------------------------------------------------------------------------ */

dl_status
dl_sql_out_reserve(dl_vector *out, int64_t n, dl_error *err) {
    return dl_vec_reserve(out, out->length + n, err);
}

dl_status
dl_sql_out_set_null(dl_vector *out, int64_t row, dl_error *err) {
    DL_TRY(dl_vec_make_validity(out, err));
    dl_vec_bit_clear(out->validity, row);
    return DL_OK;
}

bool
dl_sql_any_null(const dl_vec_unified *u, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        if (u[i].validity != NULL && dl_vec_bits_count(u[i].validity, u[i].count) != u[i].count) {
            return true;
        }
    }
    return false;
}

dl_status
dl_sql_out_nulls(dl_vector *out, int64_t base, const dl_vec_unified *u, int32_t n, int64_t count,
                 dl_error *err) {
    for (int32_t a = 0; a < n; a++) {
        const uint8_t *v = u[a].validity;
        if (v == NULL) {
            continue;
        }
        DL_TRY(dl_vec_make_validity(out, err));
        int64_t i = 0;
        if ((base & 7) == 0) {
            uint8_t *dst = out->validity + base / 8;
            for (; i + 8 <= count; i += 8) {
                dst[i / 8] &= v[i / 8];
            }
        }
        for (; i < count; i++) {
            if (!dl_vec_bit_get(v, i)) {
                dl_vec_bit_clear(out->validity, base + i);
            }
        }
    }
    return DL_OK;
}

dl_status
dl_sql_append_null(dl_vector *out, dl_error *err) {
    return dl_vec_append_null(out, err);
}

dl_status
dl_sql_append_elem(dl_vector *dst, const dl_vector *src, int64_t idx, dl_error *err) {
    uint32_t row = (uint32_t)idx;
    return dl_vec_copy_sel(dst, src, &row, 1, err);
}

/* ---- runtime errors ------------------------------------------------------------------------- */

dl_status
dl_sql_fail_run(dl_error *err, const char *hint, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    (void)dl_error_setv(err, DL_ERR_DATA, fmt, ap);
    va_end(ap);
    if (hint != NULL) {
        dl_error_hint(err, "%s", hint);
    }
    return DL_ERR_DATA;
}

dl_status
dl_sql_fail_overflow(dl_error *err, const char *what, const char *try_fn) {
    char hint[160];
    if (try_fn != NULL) {
        (void)snprintf(hint, sizeof(hint),
                       "use '%s' to tolerate overflow and return NULL instead, or set "
                       "spark.sql.ansi.enabled to false",
                       try_fn);
    } else {
        (void)snprintf(hint, sizeof(hint), "set spark.sql.ansi.enabled to false to bypass");
    }
    return dl_sql_fail_run(err, hint, "[ARITHMETIC_OVERFLOW] %s overflow", what);
}

dl_status
dl_sql_fail_div_zero(dl_error *err) {
    return dl_sql_fail_run(err,
                           "use 'try_divide' to tolerate a divisor of 0 and return NULL instead, "
                           "or set spark.sql.ansi.enabled to false",
                           "[DIVIDE_BY_ZERO] Division by zero");
}
