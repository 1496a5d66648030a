/* SPDX-License-Identifier: Apache-2.0 */
/* Plan and bound-expression helpers (sql_plan.h): constructors, values as text. */
#include "sql/plan/sql_plan.h"

#include <inttypes.h>
#include <string.h>

dl_status
dl_sql_plan_new(dl_arena *arena, dl_sql_plan_kind kind, const dl_type_field *cols, int32_t n_cols,
                dl_sql_plan **out, dl_error *err) {
    dl_sql_plan *plan = dl_arena_alloc_zero(arena, sizeof(*plan));
    DL_CHECK(plan != NULL, err, DL_ERR_NOMEM, "out of memory planning the query");
    DL_TRY(dl_vec_type_struct(arena, cols, n_cols, &plan->schema, err));
    plan->kind = kind;
    plan->n_cols = n_cols;
    plan->est_rows = -1.0;
    *out = plan;
    return DL_OK;
}

dl_sql_bexpr *
dl_sql_bexpr_column(dl_arena *arena, int32_t index, const dl_type *type) {
    dl_sql_bexpr *e = dl_arena_alloc_zero(arena, sizeof(*e));
    if (e == NULL) {
        return NULL;
    }
    e->kind = DL_SQL_BEXPR_COLUMN;
    e->index = index;
    e->type = type;
    e->loc = UINT32_MAX;
    return e;
}

static void
release_vector(void *ctx) {
    dl_vec_unref(ctx);
}

dl_sql_bexpr *
dl_sql_bexpr_const(dl_arena *arena, const dl_vector *vec, int64_t row) {
    dl_sql_bexpr *e = dl_arena_alloc_zero(arena, sizeof(*e));
    if (e == NULL) {
        return NULL;
    }
    dl_vector *value = NULL;
    if (dl_sql_vec_const_of(vec, row, DL_BATCH_CAPACITY, &value, NULL) != DL_OK) {
        return NULL;
    }
    if (dl_arena_on_reset(arena, release_vector, value, NULL) != DL_OK) {
        dl_vec_unref(value);
        return NULL;
    }
    e->kind = DL_SQL_BEXPR_CONST;
    e->type = vec->type;
    e->value = value;
    e->loc = UINT32_MAX;
    return e;
}

dl_sql_bexpr *
dl_sql_bexpr_remap(dl_arena *arena, const dl_sql_bexpr *e, const int32_t *map, int32_t n) {
    dl_sql_bexpr *c = dl_arena_memdup(arena, e, sizeof(*e));
    if (c == NULL) {
        return NULL;
    }
    if (e->n_args > 0) {
        c->args = dl_arena_alloc_zero(arena, (size_t)e->n_args * sizeof(void *));
        if (c->args == NULL) {
            return NULL;
        }
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        c->args[i] = dl_sql_bexpr_remap(arena, e->args[i], map, n);
        if (c->args[i] == NULL) {
            return NULL;
        }
    }
    if (c->kind == DL_SQL_BEXPR_COLUMN && c->index >= 0 && c->index < n) {
        c->index = map[c->index];
    }
    return c;
}

static dl_status
copy_struct(dl_arena *arena, const dl_type *type, const dl_type **out, dl_error *err) {
    dl_type_field *fields =
        dl_arena_alloc_zero(arena, (size_t)(type->n_fields + 1) * sizeof(*fields));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory copying a type");
    for (int32_t i = 0; i < type->n_fields; i++) {
        fields[i] = type->fields[i];
        DL_TRY(dl_sql_type_copy(arena, type->fields[i].type, &fields[i].type, err));
    }
    return dl_vec_type_struct(arena, fields, type->n_fields, out, err);
}

dl_status
dl_sql_type_copy(dl_arena *arena, const dl_type *type, const dl_type **out, dl_error *err) {
    switch (type->id) {
    case DL_VEC_TYPE_DECIMAL:
        return dl_vec_type_decimal(arena, type->precision, type->scale, out, err);
    case DL_VEC_TYPE_ARRAY: {
        const dl_type *elem = NULL;
        DL_TRY(dl_sql_type_copy(arena, type->element, &elem, err));
        return dl_vec_type_array(arena, elem, type->contains_null, out, err);
    }
    case DL_VEC_TYPE_MAP: {
        const dl_type *key = NULL;
        const dl_type *value = NULL;
        DL_TRY(dl_sql_type_copy(arena, type->key, &key, err));
        DL_TRY(dl_sql_type_copy(arena, type->value, &value, err));
        return dl_vec_type_map(arena, key, value, type->contains_null, out, err);
    }
    case DL_VEC_TYPE_STRUCT:
        return copy_struct(arena, type, out, err);
    default:
        *out = dl_vec_type_prim(type->id);
        return DL_OK;
    }
}

bool
dl_sql_bexpr_is_null_const(const dl_sql_bexpr *expr) {
    return expr->kind == DL_SQL_BEXPR_CONST && dl_vec_is_null(expr->value, 0);
}

/* ---- values as text ------------------------------------------------------------------------ */

/* Appends a short rendering of row `row` of vec (for EXPLAIN and messages). */
dl_status
dl_sql_value_print(const dl_vector *vec, int64_t row, dl_buf *out, dl_error *err) {
    if (dl_vec_is_null(vec, row)) {
        return dl_buf_append_cstr(out, "NULL", err);
    }
    const dl_vector *flat = NULL;
    int64_t i = dl_vec_resolve(vec, row, &flat);
    const void *d = flat->data;
    switch (vec->type->id) {
    case DL_VEC_TYPE_BOOLEAN:
        return dl_buf_append_cstr(out, dl_vec_get_bool(flat, i) ? "true" : "false", err);
    case DL_VEC_TYPE_BYTE:
        return dl_buf_appendf(out, err, "%d", (int)((const int8_t *)d)[i]);
    case DL_VEC_TYPE_SHORT:
        return dl_buf_appendf(out, err, "%d", (int)((const int16_t *)d)[i]);
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_DATE:
        return dl_buf_appendf(out, err, "%" PRId32, ((const int32_t *)d)[i]);
    case DL_VEC_TYPE_LONG:
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        return dl_buf_appendf(out, err, "%" PRId64, ((const int64_t *)d)[i]);
    case DL_VEC_TYPE_DOUBLE:
        return dl_buf_appendf(out, err, "%.17g", ((const double *)d)[i]);
    case DL_VEC_TYPE_FLOAT:
        return dl_buf_appendf(out, err, "%.9g", (double)((const float *)d)[i]);
    case DL_VEC_TYPE_STRING: {
        dl_str s = dl_vec_get_str(flat, i);
        return dl_buf_appendf(out, err, "'%.*s'", DL_STR_FMT(s));
    }
    default:
        return dl_buf_appendf(out, err, "<%s>", dl_vec_type_name(vec->type->id));
    }
}

/* True when every column e references is in [lo, hi). */
static bool
refs_within(const dl_sql_bexpr *e, int32_t lo, int32_t hi) {
    if (e->kind == DL_SQL_BEXPR_COLUMN) {
        return e->index >= lo && e->index < hi;
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        if (!refs_within(e->args[i], lo, hi)) {
            return false;
        }
    }
    return true;
}

dl_sql_bexpr *
dl_sql_bexpr_shift(dl_arena *arena, const dl_sql_bexpr *e, int32_t delta) {
    dl_sql_bexpr *c = dl_arena_memdup(arena, e, sizeof(*e));
    if (c == NULL) {
        return NULL;
    }
    if (e->n_args > 0) {
        c->args = dl_arena_alloc_zero(arena, (size_t)e->n_args * sizeof(void *));
        if (c->args == NULL) {
            return NULL;
        }
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        c->args[i] = dl_sql_bexpr_shift(arena, e->args[i], delta);
        if (c->args[i] == NULL) {
            return NULL;
        }
    }
    if (c->kind == DL_SQL_BEXPR_COLUMN) {
        c->index += delta;
    }
    return c;
}

dl_status
dl_sql_join_try_key(dl_arena *arena, dl_sql_join *jn, dl_sql_bexpr *c, int32_t nl, int32_t nt,
                    bool *out_is_key, dl_error *err) {
    *out_is_key = false;
    bool is_eq = c->kind == DL_SQL_BEXPR_CALL && c->n_args == 2 &&
                 (strcmp(c->fn->name, "=") == 0 || strcmp(c->fn->name, "==") == 0 ||
                  strcmp(c->fn->name, "<=>") == 0);
    if (!is_eq) {
        return DL_OK;
    }
    dl_sql_bexpr *a = c->args[0];
    dl_sql_bexpr *d = c->args[1];
    if (refs_within(d, 0, nl) && refs_within(a, nl, nt)) {
        dl_sql_bexpr *t = a;
        a = d;
        d = t;
    }
    if (!refs_within(a, 0, nl) || !refs_within(d, nl, nt) || dl_sql_bexpr_is_constant(a) ||
        dl_sql_bexpr_is_constant(d)) {
        return DL_OK;
    }
    jn->left_keys[jn->n_keys] = a;
    jn->right_keys[jn->n_keys] = dl_sql_bexpr_shift(arena, d, -nl);
    DL_CHECK(jn->right_keys[jn->n_keys] != NULL, err, DL_ERR_NOMEM,
             "out of memory planning a join");
    jn->is_null_equal[jn->n_keys] = strcmp(c->fn->name, "<=>") == 0;
    jn->n_keys++;
    *out_is_key = true;
    return DL_OK;
}

bool
dl_sql_bexpr_equal(const dl_sql_bexpr *a, const dl_sql_bexpr *c) {
    if (a->kind != c->kind || a->n_args != c->n_args || !dl_vec_type_equal(a->type, c->type) ||
        a->is_not != c->is_not || a->has_else != c->has_else) {
        return false;
    }
    switch (a->kind) {
    case DL_SQL_BEXPR_CONST:
        return dl_sql_value_equal(a->value, 0, c->value, 0);
    case DL_SQL_BEXPR_COLUMN:
        return a->index == c->index;
    case DL_SQL_BEXPR_OUTER:
        return a->index == c->index && a->depth == c->depth;
    case DL_SQL_BEXPR_CALL:
        if (a->fn != c->fn || a->fn->is_volatile) {
            return false;
        }
        break;
    case DL_SQL_BEXPR_CAST:
        if (a->cast_mode != c->cast_mode || a->bind_data != c->bind_data) {
            return false;
        }
        break;
    case DL_SQL_BEXPR_IS:
        if (a->is_kind != c->is_kind) {
            return false;
        }
        break;
    case DL_SQL_BEXPR_FIELD:
        if (a->field_index != c->field_index) {
            return false;
        }
        break;
    case DL_SQL_BEXPR_SUBQUERY:
        return false;
    default:
        break;
    }
    for (int32_t i = 0; i < a->n_args; i++) {
        if (!dl_sql_bexpr_equal(a->args[i], c->args[i])) {
            return false;
        }
    }
    return true;
}

dl_status
dl_sql_vec_const_of(const dl_vector *src, int64_t row, int64_t count, dl_vector **out,
                    dl_error *err) {
    if (src->layout == DL_VEC_CONST && src->length >= count) {
        return dl_vec_slice(src, 0, count, out, err);
    }
    dl_vector *vec = NULL;
    DL_TRY(dl_vec_new(src->alloc, src->type, 1, &vec, err));
    uint32_t r = (uint32_t)row;
    dl_status s = dl_vec_copy_sel(vec, src, &r, 1, err);
    if (s != DL_OK) {
        dl_vec_unref(vec);
        return s;
    }
    dl_vec_make_const(vec, count);
    *out = vec;
    return DL_OK;
}

bool
dl_sql_bexpr_is_constant(const dl_sql_bexpr *expr) {
    switch (expr->kind) {
    case DL_SQL_BEXPR_COLUMN:
    case DL_SQL_BEXPR_OUTER:
    case DL_SQL_BEXPR_SUBQUERY:
        return false;
    case DL_SQL_BEXPR_CALL:
        if (expr->fn->is_volatile) {
            return false;
        }
        break;
    default:
        break;
    }
    for (int32_t i = 0; i < expr->n_args; i++) {
        if (!dl_sql_bexpr_is_constant(expr->args[i])) {
            return false;
        }
    }
    return true;
}
