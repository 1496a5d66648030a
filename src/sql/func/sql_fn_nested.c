/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Arrays, maps and structs: size, cardinality, array_size, array_contains, array_position,
 * element_at, try_element_at, get, subscript, map_keys, map_values, map_contains_key, array,
 * map, struct, named_struct, array_join, sort_array, array_distinct, array_min, array_max,
 * and reverse / concat over arrays.
 *
 *   size(x)                  elements of an array or entries of a map; NULL gives -1 in legacy
 *                            mode (spark.sql.legacy.sizeOfNull) and NULL in ANSI mode
 *   array_contains(a, v)     true when found; NULL when not found and a has NULL elements
 *   element_at(a, i)         1-based, negative from the end, 0 an error; out of range NULL in
 *                            legacy mode and an error in ANSI mode (NULL for try_element_at)
 *   get(a, i)                0-based, NULL out of range
 *   subscript(a, i)          a[i]: 0-based; out of range NULL, or an error in ANSI mode;
 *                            subscript(m, k) is m[k], NULL when k is absent
 *   element_at(m, k)         the value of key k, NULL when absent
 *   map(k1, v1, ...)         a NULL key or a repeated key is an error (Spark's
 *                            mapKeyDedupPolicy EXCEPTION)
 *   struct(a, b)             fields col1, col2, ...; named_struct('x', a, ...) names them
 *   sort_array(a [, asc])    NULLs first ascending, last descending
 *
 * Results are built with the vector builders, element by element (children are flat).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/func/sql_fn_int.h"

static bool
elem_null(const dl_vector *v, int64_t i) {
    return v->validity != NULL && !dl_vec_bit_get(v->validity, i);
}

static const dl_allocator *
alloc_of(const dl_sql_fn_call *call) {
    return call->env != NULL ? call->env->alloc : NULL;
}

/* ---- size ------------------------------------------------------------------------------------ */

dl_status
dl_sql_bind_size(dl_sql_fn_bind *b, dl_error *err) {
    const dl_type *t = b->arg_types[0];
    bool is_array_size = strcmp(b->name, "array_size") == 0;
    if (t->id != DL_VEC_TYPE_ARRAY && (is_array_size || t->id != DL_VEC_TYPE_MAP) &&
        t->id != DL_VEC_TYPE_NULL) {
        return dl_sql_bind_arg_fail(b, 0, is_array_size ? "an array" : "an array or a map", err);
    }
    b->ret_type = dl_sql_t(DL_VEC_TYPE_INT);
    return DL_OK;
}

dl_status
dl_sql_fn_size(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
               dl_error *err) {
    bool null_is_null =
        strcmp(call->def->name, "array_size") == 0 || (call->env != NULL && call->env->ansi);
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    if (null_is_null) {
        DL_TRY(dl_sql_out_nulls(out, 0, &u, 1, count, err));
    }
    int32_t *r = out->data;
    for (int64_t i = 0; i < count; i++) {
        if (dl_sql_u_null(&u, i)) {
            r[i] = -1;
            continue;
        }
        int64_t s;
        int64_t e;
        dl_vec_list_bounds(u.flat, u.sel[i], &s, &e);
        r[i] = (int32_t)(e - s);
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

/* ---- array_contains, array_position ---------------------------------------------------------- */

/* The common type of an array's elements and a value; casts the array and the value. */
static dl_status
bind_element_and_value(dl_sql_fn_bind *b, int32_t ai, int32_t vi, dl_error *err) {
    const dl_type *a = b->arg_types[ai];
    if (a->id == DL_VEC_TYPE_NULL) {
        return dl_sql_bind_fail(b, err, "argument %d must be an array, got void", (int)ai + 1);
    }
    if (a->id != DL_VEC_TYPE_ARRAY) {
        return dl_sql_bind_arg_fail(b, ai, "an array", err);
    }
    const dl_type *t;
    DL_TRY(dl_sql_type_common_ex(a->element, b->arg_types[vi], DL_SQL_COERCE_WIDER,
                                 b->env != NULL && b->env->ansi, b->arena, &t, err));
    if (t == NULL) {
        char an[96];
        char vn[96];
        return dl_sql_bind_fail(b, err, "cannot look for a %s in an %s",
                                dl_sql_type_name(b->arg_types[vi], vn, sizeof(vn)),
                                dl_sql_type_name(a, an, sizeof(an)));
    }
    if (!dl_vec_type_equal(t, a->element)) {
        const dl_type *at;
        DL_TRY(dl_vec_type_array(b->arena, t, a->contains_null, &at, err));
        dl_sql_bind_cast(b, ai, at);
    }
    dl_sql_bind_cast(b, vi, t);
    return DL_OK;
}

dl_status
dl_sql_bind_array_contains(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(bind_element_and_value(b, 0, 1, err));
    bool is_position = strcmp(b->name, "array_position") == 0;
    b->ret_type = dl_sql_t(is_position ? DL_VEC_TYPE_LONG : DL_VEC_TYPE_BOOLEAN);
    return DL_OK;
}

dl_status
dl_sql_fn_array_contains(dl_sql_fn_call *call, dl_vector *const *args, int64_t count,
                         dl_vector *out, dl_error *err) {
    bool is_position = strcmp(call->def->name, "array_position") == 0;
    const dl_type *et = call->arg_types[0]->element;
    dl_vec_unified u[2];
    dl_sql_unify_args(args, 2, count, u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(dl_sql_out_nulls(out, 0, u, 2, count, err));
    for (int64_t i = 0; i < count; i++) {
        if (dl_sql_u_null(&u[0], i) || dl_sql_u_null(&u[1], i)) {
            continue;
        }
        int64_t s;
        int64_t e;
        dl_vec_list_bounds(u[0].flat, u[0].sel[i], &s, &e);
        const dl_vector *child = u[0].flat->children[0];
        int64_t found = -1;
        bool saw_null = false;
        for (int64_t k = s; k < e && found < 0; k++) {
            if (elem_null(child, k)) {
                saw_null = true;
            } else if (dl_sql_value_cmp(et, child, k, u[1].flat, u[1].sel[i]) == 0) {
                found = k - s;
            }
        }
        if (is_position) {
            ((int64_t *)out->data)[i] = found + 1;
        } else if (found < 0 && saw_null) {
            DL_TRY(dl_sql_out_set_null(out, i, err));
        } else {
            dl_vec_bit_put(out->data, i, found >= 0);
        }
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

/* ---- element_at, try_element_at, get, subscript ---------------------------------------------- */

enum {
    AT_ELEMENT_AT,
    AT_TRY,
    AT_GET,
    AT_SUBSCRIPT
};

typedef struct at_bind {
    int op;
    bool is_map;
} at_bind;

dl_status
dl_sql_bind_element_at(dl_sql_fn_bind *b, dl_error *err) {
    static const char *const names[] = {"element_at", "try_element_at", "get", "subscript"};
    at_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    bd->op = dl_sql_name_index(b->name, names, 4);
    b->bind_data = bd;
    const dl_type *t = b->arg_types[0];
    if (t->id == DL_VEC_TYPE_MAP && bd->op != AT_GET) {
        bd->is_map = true;
        DL_TRY(dl_sql_bind_expect(b, 1, t->key, "of the map's key type", err));
        b->ret_type = t->value;
        return DL_OK;
    }
    if (t->id != DL_VEC_TYPE_ARRAY) {
        return dl_sql_bind_arg_fail(b, 0, bd->op == AT_GET ? "an array" : "an array or a map", err);
    }
    DL_TRY(dl_sql_bind_expect(b, 1, dl_sql_t(DL_VEC_TYPE_INT), "an integer index", err));
    b->ret_type = t->element;
    return DL_OK;
}

/* The element index (into the child) of array row i for idx, or -1; *out_bad when the index
 * is out of range in a way that is an error in ANSI mode. */
static int64_t
array_slot(const at_bind *bd, int64_t s, int64_t e, int64_t idx, bool *out_bad) {
    int64_t n = e - s;
    *out_bad = false;
    int64_t k;
    if (bd->op == AT_GET || bd->op == AT_SUBSCRIPT) {
        k = idx;
    } else {
        k = idx > 0 ? idx - 1 : n + idx;
    }
    if (k < 0 || k >= n) {
        *out_bad = bd->op != AT_GET && bd->op != AT_TRY;
        return -1;
    }
    return s + k;
}

static int64_t
map_slot(const dl_type *mt, const dl_vector *map, int64_t row, const dl_vec_unified *key,
         int64_t i) {
    int64_t s;
    int64_t e;
    dl_vec_list_bounds(map, row, &s, &e);
    const dl_vector *keys = map->children[0]->children[0];
    for (int64_t k = s; k < e; k++) {
        if (dl_sql_value_cmp(mt->key, keys, k, key->flat, key->sel[i]) == 0) {
            return k;
        }
    }
    return -1;
}

dl_status
dl_sql_fn_element_at(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                     dl_error *err) {
    const at_bind *bd = call->bind_data;
    bool ansi = call->env != NULL && call->env->ansi;
    dl_vec_unified u[2];
    dl_sql_unify_args(args, 2, count, u);
    for (int64_t i = 0; i < count; i++) {
        if (dl_sql_u_null(&u[0], i) || dl_sql_u_null(&u[1], i)) {
            DL_TRY(dl_vec_append_null(out, err));
            continue;
        }
        const dl_vector *holder = u[0].flat;
        int64_t slot;
        if (bd->is_map) {
            slot = map_slot(call->arg_types[0], holder, u[0].sel[i], &u[1], i);
            holder = holder->children[0];
        } else {
            int64_t s;
            int64_t e;
            bool is_bad;
            dl_vec_list_bounds(holder, u[0].sel[i], &s, &e);
            int64_t idx = DL_SQL_U(&u[1], int32_t, i);
            if (idx == 0 && (bd->op == AT_ELEMENT_AT || bd->op == AT_TRY)) {
                return dl_sql_fail_run(err,
                                       "an index shall be either < 0 or > 0 (the first element "
                                       "has index 1)",
                                       "[INVALID_INDEX_OF_ZERO] %s: the index 0 is invalid",
                                       call->def->name);
            }
            slot = array_slot(bd, s, e, idx, &is_bad);
            if (slot < 0 && is_bad && ansi) {
                return dl_sql_fail_run(err,
                                       "use try_element_at to tolerate accessing an element at "
                                       "an invalid index and return NULL instead, or set "
                                       "spark.sql.ansi.enabled to false",
                                       "[INVALID_ARRAY_INDEX_IN_ELEMENT_AT] The index %lld is out "
                                       "of bounds. The array has %lld elements.",
                                       (long long)idx, (long long)(e - s));
            }
        }
        const dl_vector *values = holder->children[bd->is_map ? 1 : 0];
        if (slot < 0 || elem_null(values, slot)) {
            DL_TRY(dl_vec_append_null(out, err));
        } else {
            DL_TRY(dl_sql_append_elem(out, values, slot, err));
        }
    }
    return DL_OK;
}

/* ---- map_keys, map_values, map_contains_key -------------------------------------------------- */

dl_status
dl_sql_bind_map_parts(dl_sql_fn_bind *b, dl_error *err) {
    const dl_type *t = b->arg_types[0];
    if (t->id != DL_VEC_TYPE_MAP) {
        return dl_sql_bind_arg_fail(b, 0, "a map", err);
    }
    if (strcmp(b->name, "map_contains_key") == 0) {
        DL_TRY(dl_sql_bind_expect(b, 1, t->key, "of the map's key type", err));
        b->ret_type = dl_sql_t(DL_VEC_TYPE_BOOLEAN);
        return DL_OK;
    }
    bool keys = strcmp(b->name, "map_keys") == 0;
    return dl_vec_type_array(b->arena, keys ? t->key : t->value, !keys || t->contains_null,
                             &b->ret_type, err);
}

dl_status
dl_sql_fn_map_parts(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                    dl_error *err) {
    dl_vec_unified u[2];
    dl_sql_unify_args(args, call->n_args, count, u);
    bool is_contains = call->n_args == 2;
    int part = strcmp(call->def->name, "map_keys") == 0 ? 0 : 1;
    for (int64_t i = 0; i < count; i++) {
        if (dl_sql_u_null(&u[0], i) || (is_contains && dl_sql_u_null(&u[1], i))) {
            DL_TRY(dl_vec_append_null(out, err));
            continue;
        }
        if (is_contains) {
            bool found = map_slot(call->arg_types[0], u[0].flat, u[0].sel[i], &u[1], i) >= 0;
            DL_TRY(dl_vec_append_bool(out, found, err));
            continue;
        }
        int64_t s;
        int64_t e;
        dl_vec_list_bounds(u[0].flat, u[0].sel[i], &s, &e);
        const dl_vector *src = u[0].flat->children[0]->children[part];
        for (int64_t k = s; k < e; k++) {
            DL_TRY(dl_sql_append_elem(out->children[0], src, k, err));
        }
        DL_TRY(dl_vec_append_list(out, err));
    }
    return DL_OK;
}

/* ---- array, map, struct, named_struct -------------------------------------------------------- */

/* The wider type of arguments [from, n) stepping by step; NULL type when there are none. */
static dl_status
common_of_args(dl_sql_fn_bind *b, int32_t from, int32_t step, const dl_type **out, dl_error *err) {
    const dl_type *t = dl_sql_t(DL_VEC_TYPE_NULL);
    for (int32_t i = from; i < b->n_args && t != NULL; i += step) {
        DL_TRY(dl_sql_type_common_ex(t, b->arg_types[i], DL_SQL_COERCE_WIDER,
                                     b->env != NULL && b->env->ansi, b->arena, &t, err));
    }
    DL_CHECK(t != NULL, err, DL_ERR_SQL_BIND, "%s: the arguments have no common type", b->name);
    for (int32_t i = from; i < b->n_args; i += step) {
        dl_sql_bind_cast(b, i, t);
    }
    *out = t;
    return DL_OK;
}

dl_status
dl_sql_bind_make_array(dl_sql_fn_bind *b, dl_error *err) {
    const dl_type *t;
    DL_TRY(common_of_args(b, 0, 1, &t, err));
    if (t->id == DL_VEC_TYPE_NULL && b->n_args == 0) {
        t = dl_sql_t(DL_VEC_TYPE_NULL);
    }
    return dl_vec_type_array(b->arena, t, true, &b->ret_type, err);
}

dl_status
dl_sql_fn_make_array(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                     dl_error *err) {
    int32_t n = call->n_args;
    for (int64_t i = 0; i < count; i++) {
        for (int32_t k = 0; k < n; k++) {
            uint32_t row = (uint32_t)i;
            DL_TRY(dl_vec_copy_sel(out->children[0], args[k], &row, 1, err));
        }
        DL_TRY(dl_vec_append_list(out, err));
    }
    return DL_OK;
}

dl_status
dl_sql_bind_make_map(dl_sql_fn_bind *b, dl_error *err) {
    DL_CHECK(b->n_args % 2 == 0, err, DL_ERR_SQL_BIND,
             "map: needs an even number of arguments (keys and values), got %d", (int)b->n_args);
    const dl_type *k;
    const dl_type *v;
    DL_TRY(common_of_args(b, 0, 2, &k, err));
    DL_TRY(common_of_args(b, 1, 2, &v, err));
    DL_CHECK(dl_sql_type_orderable(k), err, DL_ERR_SQL_BIND, "map: a map cannot be a map key");
    return dl_vec_type_map(b->arena, k, v, true, &b->ret_type, err);
}

/* Appends key k and value k + 1 of row i to the entries, refusing NULL and repeated keys
 * (entries from first on belong to this row). */
static dl_status
map_put(const dl_type *kt, dl_vector *entries, dl_vector *const *args, int32_t k, int64_t i,
        int64_t first, dl_error *err) {
    uint32_t row = (uint32_t)i;
    DL_CHECK(!dl_vec_is_null(args[k], i), err, DL_ERR_DATA,
             "[NULL_MAP_KEY] map: a map key cannot be NULL");
    DL_TRY(dl_vec_copy_sel(entries->children[0], args[k], &row, 1, err));
    DL_TRY(dl_vec_copy_sel(entries->children[1], args[k + 1], &row, 1, err));
    DL_TRY(dl_vec_append_struct(entries, err));
    const dl_vector *keys = entries->children[0];
    int64_t last = entries->length - 1;
    for (int64_t j = first; j < last; j++) {
        DL_CHECK(dl_sql_value_cmp(kt, keys, j, keys, last) != 0, err, DL_ERR_DATA,
                 "[DUPLICATED_MAP_KEY] map: the key at argument %d repeats an earlier key",
                 (int)k + 1);
    }
    return DL_OK;
}

dl_status
dl_sql_fn_make_map(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                   dl_error *err) {
    dl_vector *entries = out->children[0];
    for (int64_t i = 0; i < count; i++) {
        int64_t first = entries->length;
        for (int32_t k = 0; k < call->n_args; k += 2) {
            DL_TRY(map_put(call->ret_type->key, entries, args, k, i, first, err));
        }
        DL_TRY(dl_vec_append_list(out, err));
    }
    return DL_OK;
}

/* The name of field f: named_struct's constant string, or col<f+1>. */
static const char *
field_name(dl_sql_fn_bind *b, bool named, int32_t f, dl_error *err) {
    char name[32];
    dl_str s;
    if (!named) {
        int w = snprintf(name, sizeof(name), "col%d", (int)f + 1);
        s = dl_str_make(name, (size_t)DL_MAX(w, 0));
    } else if (!dl_sql_bind_const_str(b, 2 * f, &s)) {
        (void)dl_error_set(err, DL_ERR_SQL_BIND,
                           "named_struct: argument %d must be a constant string (a field name)",
                           (int)(2 * f + 1));
        return NULL;
    }
    const char *copy = dl_arena_strndup(b->arena, s.ptr, s.len);
    if (copy == NULL) {
        (void)dl_error_set(err, DL_ERR_NOMEM, "%s: out of memory", b->name);
    }
    return copy;
}

dl_status
dl_sql_bind_make_struct(dl_sql_fn_bind *b, dl_error *err) {
    bool named = strcmp(b->name, "named_struct") == 0;
    DL_CHECK(!named || b->n_args % 2 == 0, err, DL_ERR_SQL_BIND,
             "named_struct: needs name and value pairs, got %d arguments", (int)b->n_args);
    int32_t n = named ? b->n_args / 2 : b->n_args;
    dl_type_field *fields =
        n > 0 ? dl_arena_alloc_array(b->arena, (size_t)n, sizeof(*fields)) : NULL;
    DL_CHECK(n == 0 || fields != NULL, err, DL_ERR_NOMEM, "%s: out of memory", b->name);
    for (int32_t f = 0; f < n; f++) {
        fields[f].name = field_name(b, named, f, err);
        if (fields[f].name == NULL) {
            return err != NULL ? err->code : DL_ERR_SQL_BIND;
        }
        fields[f].type = b->arg_types[named ? 2 * f + 1 : f];
        fields[f].is_nullable = true;
    }
    return dl_vec_type_struct(b->arena, fields, n, &b->ret_type, err);
}

dl_status
dl_sql_fn_make_struct(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                      dl_error *err) {
    bool named = strcmp(call->def->name, "named_struct") == 0;
    int32_t n = out->n_children;
    for (int64_t i = 0; i < count; i++) {
        uint32_t row = (uint32_t)i;
        for (int32_t f = 0; f < n; f++) {
            DL_TRY(dl_vec_copy_sel(out->children[f], args[named ? 2 * f + 1 : f], &row, 1, err));
        }
        DL_TRY(dl_vec_append_struct(out, err));
    }
    return DL_OK;
}

/* ---- array_join ------------------------------------------------------------------------------ */

dl_status
dl_sql_bind_array_join(dl_sql_fn_bind *b, dl_error *err) {
    const dl_type *t = b->arg_types[0];
    if (t->id != DL_VEC_TYPE_ARRAY) {
        return dl_sql_bind_arg_fail(b, 0, "an array", err);
    }
    if (t->element->id != DL_VEC_TYPE_STRING) {
        const dl_type *at;
        DL_TRY(dl_vec_type_array(b->arena, dl_sql_t(DL_VEC_TYPE_STRING), true, &at, err));
        DL_TRY(dl_sql_bind_expect(b, 0, at, "an array", err));
    }
    DL_TRY(
        dl_sql_bind_expect_range(b, 1, b->n_args, dl_sql_t(DL_VEC_TYPE_STRING), "a string", err));
    b->ret_type = dl_sql_t(DL_VEC_TYPE_STRING);
    return DL_OK;
}

static dl_status
row_array_join(const dl_sql_fn_call *call, const dl_vec_unified *u, int64_t i, dl_buf *buf,
               bool *out_null, dl_error *err) {
    *out_null = false;
    dl_str sep = dl_sql_u_str(&u[1], i);
    bool has_repl = call->n_args > 2;
    dl_str repl = has_repl ? dl_sql_u_str(&u[2], i) : DL_STR("");
    int64_t s;
    int64_t e;
    dl_vec_list_bounds(u[0].flat, u[0].sel[i], &s, &e);
    const dl_vector *child = u[0].flat->children[0];
    bool first = true;
    for (int64_t k = s; k < e; k++) {
        bool is_null = elem_null(child, k);
        if (is_null && !has_repl) {
            continue;
        }
        if (!first) {
            DL_TRY(dl_buf_append(buf, sep.ptr, sep.len, err));
        }
        first = false;
        dl_str v = is_null ? repl : dl_vec_get_str(child, k);
        DL_TRY(dl_buf_append(buf, v.ptr, v.len, err));
    }
    return DL_OK;
}

dl_status
dl_sql_fn_array_join(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                     dl_error *err) {
    return dl_sql_str_rows(call, args, count, out, row_array_join, err);
}

/* ---- sort_array, array_distinct, array_min, array_max, reverse ------------------------------- */

typedef struct sort_ctx {
    const dl_type *t;
    const dl_vector *child;
    bool desc;
} sort_ctx;

static _Thread_local const sort_ctx *sort_current;

static int
compare_slots(const void *pa, const void *pb) {
    int64_t a = *(const int64_t *)pa;
    int64_t b = *(const int64_t *)pb;
    const sort_ctx *c = sort_current;
    bool na = elem_null(c->child, a);
    bool nb = elem_null(c->child, b);
    int r;
    if (na || nb) {
        r = na == nb ? 0 : na ? -1 : 1;
    } else {
        r = dl_sql_value_cmp(c->t, c->child, a, c->child, b);
    }
    if (c->desc) {
        r = -r;
    }
    return r != 0 ? r : (a < b ? -1 : a > b);
}

dl_status
dl_sql_bind_sort_array(dl_sql_fn_bind *b, dl_error *err) {
    const dl_type *t = b->arg_types[0];
    if (t->id != DL_VEC_TYPE_ARRAY || !dl_sql_type_orderable(t->element)) {
        return dl_sql_bind_arg_fail(b, 0, "an array of orderable values", err);
    }
    if (b->n_args > 1) {
        DL_TRY(dl_sql_bind_expect(b, 1, dl_sql_t(DL_VEC_TYPE_BOOLEAN), "a boolean", err));
    }
    b->ret_type = t;
    return DL_OK;
}

/* Sorted (and for array_distinct, de-duplicated in first-seen order) element slots of one
 * array. */
static dl_status
emit_sorted(const dl_sql_fn_call *call, const dl_vector *arr, int64_t row, bool desc,
            int64_t *slots, dl_vector *out, dl_error *err) {
    bool distinct = strcmp(call->def->name, "array_distinct") == 0;
    int64_t s;
    int64_t e;
    dl_vec_list_bounds(arr, row, &s, &e);
    const dl_vector *child = arr->children[0];
    int64_t n = 0;
    for (int64_t k = s; k < e; k++) {
        bool dup = false;
        for (int64_t j = 0; distinct && j < n && !dup; j++) {
            bool a_null = elem_null(child, slots[j]);
            bool b_null = elem_null(child, k);
            dup = a_null || b_null
                      ? a_null && b_null
                      : dl_sql_value_cmp(call->ret_type->element, child, slots[j], child, k) == 0;
        }
        if (!dup) {
            slots[n++] = k;
        }
    }
    if (!distinct) {
        sort_ctx c = {.t = call->ret_type->element, .child = child, .desc = desc};
        sort_current = &c;
        qsort(slots, (size_t)n, sizeof(*slots), compare_slots);
        sort_current = NULL;
    }
    for (int64_t k = 0; k < n; k++) {
        DL_TRY(dl_sql_append_elem(out->children[0], child, slots[k], err));
    }
    return dl_vec_append_list(out, err);
}

dl_status
dl_sql_fn_sort_array(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                     dl_error *err) {
    dl_vec_unified u[2];
    dl_sql_unify_args(args, call->n_args, count, u);
    const dl_vector *child = u[0].flat->children[0];
    size_t cap = (size_t)DL_MAX(child->length, 1);
    int64_t *slots = dl_mem_alloc_array(alloc_of(call), cap, sizeof(*slots));
    DL_CHECK(slots != NULL, err, DL_ERR_NOMEM, "%s: out of memory", call->def->name);
    dl_status s = DL_OK;
    for (int64_t i = 0; i < count && s == DL_OK; i++) {
        if (dl_sql_u_null(&u[0], i) || (call->n_args > 1 && dl_sql_u_null(&u[1], i))) {
            s = dl_vec_append_null(out, err);
            continue;
        }
        bool desc = call->n_args > 1 && !dl_vec_get_bool(u[1].flat, u[1].sel[i]);
        s = emit_sorted(call, u[0].flat, u[0].sel[i], desc, slots, out, err);
    }
    dl_mem_free(alloc_of(call), slots, cap * sizeof(*slots));
    return s;
}

dl_status
dl_sql_bind_array_minmax(dl_sql_fn_bind *b, dl_error *err) {
    const dl_type *t = b->arg_types[0];
    if (t->id != DL_VEC_TYPE_ARRAY || !dl_sql_type_orderable(t->element)) {
        return dl_sql_bind_arg_fail(b, 0, "an array of orderable values", err);
    }
    b->ret_type = t->element;
    return DL_OK;
}

dl_status
dl_sql_fn_array_minmax(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                       dl_error *err) {
    bool is_max = strcmp(call->def->name, "array_max") == 0;
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    for (int64_t i = 0; i < count; i++) {
        int64_t best = -1;
        const dl_vector *child = u.flat->children[0];
        if (!dl_sql_u_null(&u, i)) {
            int64_t s;
            int64_t e;
            dl_vec_list_bounds(u.flat, u.sel[i], &s, &e);
            for (int64_t k = s; k < e; k++) {
                if (elem_null(child, k)) {
                    continue;
                }
                int c = best < 0 ? 0 : dl_sql_value_cmp(call->ret_type, child, k, child, best);
                if (best < 0 || (is_max ? c > 0 : c < 0)) {
                    best = k;
                }
            }
        }
        DL_TRY(best < 0 ? dl_vec_append_null(out, err) : dl_sql_append_elem(out, child, best, err));
    }
    return DL_OK;
}

static dl_status
k_reverse_array(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                dl_error *err) {
    DL_UNUSED(call);
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    for (int64_t i = 0; i < count; i++) {
        if (dl_sql_u_null(&u, i)) {
            DL_TRY(dl_vec_append_null(out, err));
            continue;
        }
        int64_t s;
        int64_t e;
        dl_vec_list_bounds(u.flat, u.sel[i], &s, &e);
        for (int64_t k = e - 1; k >= s; k--) {
            DL_TRY(dl_sql_append_elem(out->children[0], u.flat->children[0], k, err));
        }
        DL_TRY(dl_vec_append_list(out, err));
    }
    return DL_OK;
}

typedef struct fn_only_bind {
    dl_sql_scalar_fn fn;
} fn_only_bind;

dl_status
dl_sql_bind_reverse_array(dl_sql_fn_bind *b, dl_error *err) {
    fn_only_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    bd->fn = k_reverse_array;
    b->bind_data = bd;
    b->ret_type = b->arg_types[0];
    return DL_OK;
}

/* concat over arrays: the elements of every argument in order; NULL if any is NULL. */
static dl_status
k_concat_arrays(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                dl_error *err) {
    int32_t n = call->n_args;
    dl_vec_unified *u = dl_mem_alloc_array(alloc_of(call), (size_t)n, sizeof(*u));
    DL_CHECK(u != NULL, err, DL_ERR_NOMEM, "concat: out of memory");
    dl_sql_unify_args(args, n, count, u);
    dl_status s = DL_OK;
    for (int64_t i = 0; i < count && s == DL_OK; i++) {
        bool any_null = false;
        for (int32_t k = 0; k < n; k++) {
            any_null = any_null || dl_sql_u_null(&u[k], i);
        }
        if (any_null) {
            s = dl_vec_append_null(out, err);
            continue;
        }
        for (int32_t k = 0; k < n && s == DL_OK; k++) {
            int64_t b;
            int64_t e;
            dl_vec_list_bounds(u[k].flat, u[k].sel[i], &b, &e);
            for (int64_t j = b; j < e && s == DL_OK; j++) {
                s = dl_sql_append_elem(out->children[0], u[k].flat->children[0], j, err);
            }
        }
        if (s == DL_OK) {
            s = dl_vec_append_list(out, err);
        }
    }
    dl_mem_free(alloc_of(call), u, (size_t)n * sizeof(*u));
    return s;
}

dl_status
dl_sql_bind_concat_arrays(dl_sql_fn_bind *b, dl_error *err) {
    const dl_type *t;
    DL_TRY(common_of_args(b, 0, 1, &t, err));
    if (t->id != DL_VEC_TYPE_ARRAY) {
        return dl_sql_bind_fail(b, err, "cannot concatenate arrays with other values");
    }
    fn_only_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL) {
        return DL_ERR_NOMEM;
    }
    bd->fn = k_concat_arrays;
    b->bind_data = bd;
    b->ret_type = t;
    return DL_OK;
}
