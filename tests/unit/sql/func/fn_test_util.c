/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers for the function library's unit tests (see fn_test_util.h). */
#include "fn_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "sql/func/sql_fn_int.h"

void
tf_init(tf *t, bool ansi, const char *time_zone) {
    memset(t, 0, sizeof(*t));
    dl_arena_init(&t->arena, NULL, 0);
    t->env.ansi = ansi;
    t->env.time_zone = time_zone;
    t->env.now_us = INT64_C(1767225600) * 1000000 + 123456; /* 2026-01-01 00:00:00.123456 UTC */
    t->env.alloc = NULL;
}

void
tf_destroy(tf *t) {
    for (int i = 0; i < t->n_owned; i++) {
        dl_vec_unref(t->owned[i]);
    }
    dl_arena_destroy(&t->arena);
}

static dl_vector *
own(tf *t, dl_vector *v) {
    if (v != NULL && t->n_owned < (int)(sizeof(t->owned) / sizeof(t->owned[0]))) {
        t->owned[t->n_owned++] = v;
    }
    return v;
}

/* ---- types ------------------------------------------------------------------------------------
 */

static const dl_type *parse_type(tf *t, const char **p);

static void
skip_spaces(const char **p) {
    while (**p == ' ') {
        (*p)++;
    }
}

static const dl_type *
parse_struct(tf *t, const char **p) {
    dl_type_field fields[16];
    int32_t n = 0;
    skip_spaces(p);
    while (**p != '>' && n < 16) {
        char name[64];
        size_t k = 0;
        while (**p != ':' && **p != '\0' && k + 1 < sizeof(name)) {
            name[k++] = *(*p)++;
        }
        name[k] = '\0';
        if (**p != ':') {
            return NULL;
        }
        (*p)++;
        fields[n].name = dl_arena_strndup(&t->arena, name, k);
        fields[n].type = parse_type(t, p);
        fields[n].is_nullable = true;
        if (fields[n].type == NULL) {
            return NULL;
        }
        n++;
        if (**p == ',') {
            (*p)++;
        }
    }
    (*p)++;
    const dl_type *out = NULL;
    return dl_vec_type_struct(&t->arena, fields, n, &out, NULL) == DL_OK ? out : NULL;
}

static const dl_type *
parse_type(tf *t, const char **p) {
    static const struct {
        const char *name;
        dl_type_id id;
    } prims[] = {
        {"interval year to month", DL_VEC_TYPE_INTERVAL_YM},
        {"interval day to second", DL_VEC_TYPE_INTERVAL_DT},
        {"timestamp_ntz", DL_VEC_TYPE_TIMESTAMP_NTZ},
        {"timestamp", DL_VEC_TYPE_TIMESTAMP},
        {"boolean", DL_VEC_TYPE_BOOLEAN},
        {"tinyint", DL_VEC_TYPE_BYTE},
        {"smallint", DL_VEC_TYPE_SHORT},
        {"bigint", DL_VEC_TYPE_LONG},
        {"int", DL_VEC_TYPE_INT},
        {"float", DL_VEC_TYPE_FLOAT},
        {"double", DL_VEC_TYPE_DOUBLE},
        {"string", DL_VEC_TYPE_STRING},
        {"binary", DL_VEC_TYPE_BINARY},
        {"date", DL_VEC_TYPE_DATE},
        {"void", DL_VEC_TYPE_NULL},
    };

    skip_spaces(p);
    const dl_type *out = NULL;
    if (strncmp(*p, "decimal(", 8) == 0) {
        char *end;
        long prec = strtol(*p + 8, &end, 10);
        long scale = strtol(end + 1, &end, 10);
        *p = end + 1;
        return dl_vec_type_decimal(&t->arena, (int)prec, (int)scale, &out, NULL) == DL_OK ? out
                                                                                          : NULL;
    }
    if (strncmp(*p, "array<", 6) == 0) {
        *p += 6;
        const dl_type *e = parse_type(t, p);
        (*p)++;
        return e != NULL && dl_vec_type_array(&t->arena, e, true, &out, NULL) == DL_OK ? out : NULL;
    }
    if (strncmp(*p, "map<", 4) == 0) {
        *p += 4;
        const dl_type *k = parse_type(t, p);
        (*p)++;
        const dl_type *v = parse_type(t, p);
        (*p)++;
        return k != NULL && v != NULL && dl_vec_type_map(&t->arena, k, v, true, &out, NULL) == DL_OK
                   ? out
                   : NULL;
    }
    if (strncmp(*p, "struct<", 7) == 0) {
        *p += 7;
        return parse_struct(t, p);
    }
    for (size_t i = 0; i < sizeof(prims) / sizeof(prims[0]); i++) {
        size_t n = strlen(prims[i].name);
        if (strncmp(*p, prims[i].name, n) == 0) {
            *p += n;
            return dl_vec_type_prim(prims[i].id);
        }
    }
    return NULL;
}

const dl_type *
tf_type(tf *t, const char *name) {
    const char *p = name;
    return parse_type(t, &p);
}

/* ---- columns ----------------------------------------------------------------------------------
 */

static dl_vector *
strings(tf *t, int n, const char *const *texts) {
    dl_vector *v = NULL;
    if (dl_vec_new(NULL, dl_vec_type_prim(DL_VEC_TYPE_STRING), n, &v, &t->err) != DL_OK) {
        return NULL;
    }
    own(t, v);
    for (int i = 0; i < n; i++) {
        dl_status s = strcmp(texts[i], "NULL") == 0
                          ? dl_vec_append_null(v, &t->err)
                          : dl_vec_append_str(v, texts[i], strlen(texts[i]), &t->err);
        if (s != DL_OK) {
            return NULL;
        }
    }
    return v;
}

dl_vector *
tf_col(tf *t, const char *type, int n, const char *const *texts) {
    const dl_type *ty = tf_type(t, type);
    dl_vector *s = strings(t, n, texts);
    if (ty == NULL || s == NULL) {
        return NULL;
    }
    if (ty->id == DL_VEC_TYPE_STRING) {
        return s;
    }
    dl_vector *out = NULL;
    if (dl_vec_new(NULL, ty, n, &out, &t->err) != DL_OK) {
        return NULL;
    }
    own(t, out);
    dl_sql_fn_env env = t->env;
    if (dl_sql_cast(&env, DL_SQL_CAST_LEGACY, s, n, out, &t->err) != DL_OK) {
        return NULL;
    }
    return out;
}

dl_vector *
tf_const(tf *t, const char *type, int n, const char *text) {
    const dl_type *ty = tf_type(t, type);
    dl_vector *one = tf_col(t, type, 1, &text);
    if (one == NULL) {
        return NULL;
    }
    dl_vector *out = NULL;
    if (dl_vec_new(NULL, ty, 1, &out, &t->err) != DL_OK) {
        return NULL;
    }
    own(t, out);
    if (dl_vec_copy_sel(out, one, NULL, 1, &t->err) != DL_OK) {
        return NULL;
    }
    dl_vec_make_const(out, n);
    return out;
}

dl_vector *
tf_dict(tf *t, const char *type, int n, const char *const *texts) {
    const char *rev[64];
    if (n > 64) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        rev[i] = texts[n - 1 - i];
    }
    dl_vector *dict = tf_col(t, type, n, rev);
    if (dict == NULL) {
        return NULL;
    }
    dl_vector *out = NULL;
    if (dl_vec_new(NULL, dict->type, 0, &out, &t->err) != DL_OK) {
        return NULL;
    }
    own(t, out);
    if (dl_vec_set_dict(out, dict, &t->err) != DL_OK) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (dl_vec_append_index(out, (int32_t)(n - 1 - i), &t->err) != DL_OK) {
            return NULL;
        }
    }
    return out;
}

/* ---- results ----------------------------------------------------------------------------------
 */

const char *
tf_text(tf *t, const dl_vector *v, int64_t row) {
    if (dl_vec_is_null(v, row)) {
        return "NULL";
    }
    dl_vector *one = NULL;
    dl_vector *str = NULL;
    const char *res = "?";
    uint32_t r = (uint32_t)row;
    if (dl_vec_new(NULL, v->type, 1, &one, &t->err) == DL_OK &&
        dl_vec_copy_sel(one, v, &r, 1, &t->err) == DL_OK &&
        dl_vec_new(NULL, dl_vec_type_prim(DL_VEC_TYPE_STRING), 1, &str, &t->err) == DL_OK &&
        dl_sql_cast(&t->env, DL_SQL_CAST_LEGACY, one, 1, str, &t->err) == DL_OK) {
        dl_str s = dl_vec_get_str(str, 0);
        res = dl_arena_strndup(&t->arena, s.ptr, s.len);
    } else {
        res = dl_arena_printf(&t->arena, "ERROR: %s", t->err.msg);
    }
    dl_vec_unref(one);
    dl_vec_unref(str);
    return res;
}

const char *
tf_texts(tf *t, const dl_vector *v) {
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    for (int64_t i = 0; i < v->length; i++) {
        if ((i > 0 && dl_buf_append_byte(&buf, '|', NULL) != DL_OK) ||
            dl_buf_append_cstr(&buf, tf_text(t, v, i), NULL) != DL_OK) {
            break;
        }
    }
    const char *res = dl_arena_strndup(&t->arena, (const char *)buf.data, buf.len);
    dl_buf_destroy(&buf);
    return res != NULL ? res : "";
}

/* ---- calls ------------------------------------------------------------------------------------
 */

typedef struct bound {
    const dl_sql_fn_def *def;
    dl_sql_fn_call call;
    dl_vector *args[16];
    const dl_type *types[16];
} bound;

static dl_status
bind_call(tf *t, const char *name, int n_args, dl_vector **args, int64_t count, bound *b) {
    memset(b, 0, sizeof(*b));
    b->def = dl_sql_fn_lookup(dl_str_from_cstr(name));
    if (b->def == NULL) {
        return dl_error_set(&t->err, DL_ERR_SQL_BIND, "no function %s", name);
    }
    if (n_args < b->def->min_args || (b->def->max_args >= 0 && n_args > b->def->max_args)) {
        return dl_error_set(&t->err, DL_ERR_SQL_BIND, "%s: wrong number of arguments", name);
    }
    dl_sql_fn_const consts[16];
    const dl_type *cast_to[16] = {0};
    for (int i = 0; i < n_args; i++) {
        b->types[i] = args[i]->type;
        consts[i].is_const = args[i]->layout == DL_VEC_CONST;
        consts[i].is_null = consts[i].is_const && dl_vec_is_null(args[i], 0);
        consts[i].vec = args[i];
        consts[i].is_literal = consts[i].is_const; /* the tests' constants are literals */
    }
    dl_sql_fn_bind bind = {.name = name,
                           .n_args = n_args,
                           .arg_types = b->types,
                           .consts = consts,
                           .cast_to = cast_to,
                           .arena = &t->arena,
                           .env = &t->env};
    dl_error_clear(&t->err);
    dl_status s = b->def->bind(&bind, &t->err);
    if (s != DL_OK) {
        return s;
    }
    for (int i = 0; i < n_args; i++) {
        b->args[i] = args[i];
        if (cast_to[i] == NULL) {
            continue;
        }
        dl_vector *c = NULL;
        DL_TRY(dl_vec_new(NULL, cast_to[i], count, &c, &t->err));
        own(t, c);
        DL_TRY(dl_sql_cast(&t->env, t->env.ansi ? DL_SQL_CAST_ANSI : DL_SQL_CAST_LEGACY, args[i],
                           count, c, &t->err));
        b->args[i] = c;
        b->types[i] = cast_to[i];
    }
    b->call.def = b->def;
    b->call.arg_types = b->types;
    b->call.n_args = n_args;
    b->call.ret_type = bind.ret_type;
    b->call.bind_data = bind.bind_data;
    b->call.env = &t->env;
    return DL_OK;
}

dl_status
tf_call(tf *t, const char *name, int n_args, dl_vector **args, int64_t count, dl_vector **out) {
    bound b;
    DL_TRY(bind_call(t, name, n_args, args, count, &b));
    if (b.def->kind != DL_SQL_FN_SCALAR) {
        return dl_error_set(&t->err, DL_ERR_SQL_BIND, "%s is not a scalar function", name);
    }
    DL_TRY(dl_vec_new(NULL, b.call.ret_type, count, out, &t->err));
    own(t, *out);
    dl_status s = b.def->scalar(&b.call, b.args, count, *out, &t->err);
    if (b.def->free_state != NULL) {
        b.def->free_state(&b.call);
    }
    return s;
}

const char *
tf_eval(tf *t, const char *name, int n_args, dl_vector **args, int64_t count) {
    dl_vector *out = NULL;
    if (tf_call(t, name, n_args, args, count, &out) != DL_OK) {
        return dl_arena_printf(&t->arena, "ERROR: %s", t->err.msg);
    }
    if (out->length != count) {
        return dl_arena_printf(&t->arena, "ERROR: %lld rows for %lld", (long long)out->length,
                               (long long)count);
    }
    return tf_texts(t, out);
}

const char *
tf_ret_type(tf *t, const char *name, int n_args, dl_vector **args) {
    bound b;
    if (bind_call(t, name, n_args, args, 1, &b) != DL_OK) {
        return dl_arena_printf(&t->arena, "ERROR: %s", t->err.msg);
    }
    char *buf = dl_arena_alloc(&t->arena, 128);
    return dl_sql_type_name(b.call.ret_type, buf, 128);
}

static const char *
agg_fail(tf *t, void **states, int n, const bound *b) {
    for (int g = 0; g < n; g++) {
        if (states[g] != NULL && b->def->destroy != NULL) {
            b->def->destroy(&b->call, states[g]);
        }
    }
    return dl_arena_printf(&t->arena, "ERROR: %s", t->err.msg);
}

const char *
tf_agg(tf *t, const char *name, int n_args, dl_vector **args, int64_t count, const int *groups,
       int n_groups) {
    bound b;
    if (bind_call(t, name, n_args, args, count, &b) != DL_OK) {
        return dl_arena_printf(&t->arena, "ERROR: %s", t->err.msg);
    }
    if (b.def->kind != DL_SQL_FN_AGGREGATE || n_groups > 16) {
        return "ERROR: not an aggregate";
    }
    /* Two partial states per group: rows of the first half go to A, the rest to B. */
    void *a[16] = {0};
    void *bst[16] = {0};
    void *all[32];
    for (int g = 0; g < n_groups; g++) {
        a[g] = dl_arena_alloc_zero(&t->arena, b.def->state_size);
        bst[g] = dl_arena_alloc_zero(&t->arena, b.def->state_size);
        b.def->init(&b.call, a[g]);
        b.def->init(&b.call, bst[g]);
        all[2 * g] = a[g];
        all[2 * g + 1] = bst[g];
    }
    void **rows = dl_arena_alloc_array(&t->arena, (size_t)DL_MAX(count, 1), sizeof(void *));
    for (int64_t i = 0; i < count; i++) {
        int g = groups != NULL ? groups[i] : 0;
        rows[i] = i < count / 2 ? a[g] : bst[g];
    }
    if (b.def->update(&b.call, b.args, count, rows, &t->err) != DL_OK) {
        return agg_fail(t, all, 2 * n_groups, &b);
    }
    for (int g = 0; g < n_groups; g++) {
        if (b.def->combine(&b.call, bst[g], a[g], &t->err) != DL_OK) {
            return agg_fail(t, all, 2 * n_groups, &b);
        }
    }
    dl_vector *out = NULL;
    if (dl_vec_new(NULL, b.call.ret_type, n_groups, &out, &t->err) != DL_OK) {
        return agg_fail(t, all, 2 * n_groups, &b);
    }
    own(t, out);
    if (b.def->finalize(&b.call, a, n_groups, out, &t->err) != DL_OK) {
        return agg_fail(t, all, 2 * n_groups, &b);
    }
    for (int g = 0; g < 2 * n_groups && b.def->destroy != NULL; g++) {
        b.def->destroy(&b.call, all[g]);
    }
    return tf_texts(t, out);
}
