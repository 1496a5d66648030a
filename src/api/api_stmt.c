/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Prepared statements: one statement parsed once, its markers (? or :name, never both)
 * numbered as sqlite numbers them, values bound by index, and each execution run by the engine
 * with the values as the markers' constants (dl_sql_exec_params). Every execution binds and
 * plans the statement again: a marker takes the type of the value bound to it, which may change
 * between executions, and each execution reads the tables' latest versions.
 *
 * Values are one-row vectors owned by the statement; binding again replaces (unrefs) the old
 * one, so a result that already copied a value into its plan keeps its own.
 */
#include <string.h>

#include "api/api_int.h"
#include "base/str.h"
#include "delta/delta.h"

/* ---- markers ------------------------------------------------------------------------------ */

static dl_status
mixed_markers(const dl_sql_expr *marker, dl_error *err) {
    (void)dl_error_set(err, DL_ERR_SQL_BIND,
                       "[INVALID_QUERY_MIXED_QUERY_PARAMETERS] a parameterized statement uses "
                       "either positional (?) or named (:name) markers, not both");
    err->offset = marker->loc;
    return DL_ERR_SQL_BIND;
}

/* The index of name among the first n names, or -1. */
static int32_t
find_name(const deltalite_stmt *st, int32_t n, dl_str name) {
    for (int32_t i = 0; i < n; i++) {
        if (dl_str_eq(st->names[i], name)) {
            return i;
        }
    }
    return -1;
}

/* Numbers the markers of stmt: ? by position, :name by first appearance. */
static dl_status
collect_params(deltalite_stmt *st, const dl_sql_stmt *stmt, dl_error *err) {
    uint32_t n = stmt->n_params;
    st->is_named = n > 0 && stmt->params[0]->u.param.index == 0;
    st->names = dl_arena_alloc_zero(&st->arena, (n + 1) * sizeof(dl_str));
    st->labels = dl_arena_alloc_zero(&st->arena, (n + 1) * sizeof(char *));
    st->locs = dl_arena_alloc_zero(&st->arena, (n + 1) * sizeof(uint32_t));
    st->values = dl_arena_alloc_zero(&st->arena, (n + 1) * sizeof(dl_vector *));
    st->decimals = dl_arena_alloc_zero(&st->arena, (n + 1) * sizeof(dl_type *));
    DL_CHECK(st->names && st->labels && st->locs && st->values && st->decimals, err, DL_ERR_NOMEM,
             "out of memory preparing a statement");
    for (uint32_t i = 0; i < n; i++) {
        const dl_sql_expr *m = stmt->params[i];
        if ((m->u.param.index == 0) != st->is_named) {
            return mixed_markers(m, err);
        }
        if (!st->is_named) {
            st->locs[st->n_params++] = m->loc;
            continue;
        }
        if (find_name(st, st->n_params, m->u.param.name) >= 0) {
            continue;
        }
        char *label = dl_arena_alloc(&st->arena, m->u.param.name.len + 2);
        DL_CHECK(label != NULL, err, DL_ERR_NOMEM, "out of memory preparing a statement");
        label[0] = ':';
        memcpy(label + 1, m->u.param.name.ptr, m->u.param.name.len);
        label[m->u.param.name.len + 1] = '\0';
        st->names[st->n_params] = dl_str_make(label + 1, m->u.param.name.len);
        st->labels[st->n_params] = label;
        st->locs[st->n_params++] = m->loc;
    }
    return DL_OK;
}

static void
stmt_free(deltalite_stmt *st) {
    for (int32_t i = 0; st->values != NULL && i < st->n_params; i++) {
        dl_vec_unref(st->values[i]);
    }
    const dl_allocator *alloc = st->db->alloc;
    dl_arena_destroy(&st->arena);
    dl_mem_free(alloc, st, sizeof(*st));
}

static dl_status
prepare(deltalite_stmt *st, const char *sql, size_t len, dl_error *err) {
    char *copy = dl_arena_strndup(&st->arena, sql, len);
    DL_CHECK(copy != NULL, err, DL_ERR_NOMEM, "out of memory preparing a statement");
    st->sql = copy;
    st->sql_len = len;
    /* the tree lives only for the numbering: each execution parses the text again */
    dl_arena tree;
    dl_arena_init(&tree, st->db->alloc, 0);
    dl_sql_stmt *stmt = NULL;
    dl_status s = dl_sql_parse_stmt(&tree, st->sql, len, &stmt, err);
    if (s == DL_OK) {
        s = collect_params(st, stmt, err);
    }
    dl_arena_destroy(&tree);
    return s;
}

deltalite_status
deltalite_prepare_len(deltalite_db *db, const char *sql, size_t len, deltalite_stmt **out) {
    if (out != NULL) {
        *out = NULL;
    }
    if (db == NULL) {
        return DELTALITE_ERROR_INVALID_ARG;
    }
    if (!db->is_open || sql == NULL || out == NULL) {
        return dl_api_failf(db, DL_ERR_INVALID_ARG, "deltalite_prepare: %s",
                            db->is_open ? "sql or out is NULL" : "the warehouse failed to open");
    }
    dl_error err;
    dl_error_clear(&err);
    deltalite_stmt *st = dl_mem_alloc_zero(db->alloc, sizeof(*st));
    if (st == NULL) {
        return dl_api_failf(db, DL_ERR_NOMEM, "out of memory preparing a statement");
    }
    st->db = db;
    dl_arena_init(&st->arena, db->alloc, 0);
    dl_status s = prepare(st, sql, len, &err);
    if (s != DL_OK) {
        stmt_free(st);
        return dl_api_fail(db, &err, sql, len);
    }
    db->n_open++;
    *out = st;
    dl_api_ok(db);
    return DELTALITE_OK;
}

deltalite_status
deltalite_prepare(deltalite_db *db, const char *sql, deltalite_stmt **out) {
    return deltalite_prepare_len(db, sql, sql ? strlen(sql) : 0, out);
}

void
deltalite_finalize(deltalite_stmt *stmt) {
    if (stmt != NULL) {
        stmt->db->n_open--;
        stmt_free(stmt);
    }
}

int32_t
deltalite_bind_parameter_count(const deltalite_stmt *stmt) {
    return stmt ? stmt->n_params : 0;
}

int32_t
deltalite_bind_parameter_index(const deltalite_stmt *stmt, const char *name) {
    if (stmt == NULL || name == NULL || !stmt->is_named) {
        return 0;
    }
    dl_str n = dl_str_from_cstr(name[0] == ':' ? name + 1 : name);
    return find_name(stmt, stmt->n_params, n) + 1;
}

const char *
deltalite_bind_parameter_name(const deltalite_stmt *stmt, int32_t index) {
    if (stmt == NULL || index < 1 || index > stmt->n_params) {
        return NULL;
    }
    return stmt->labels[index - 1];
}

/* ---- binding ------------------------------------------------------------------------------ */

static deltalite_status
check_index(deltalite_stmt *st, int32_t index, const char *what) {
    if (st == NULL) {
        return DELTALITE_ERROR_INVALID_ARG;
    }
    if (index < 1 || index > st->n_params) {
        return dl_api_failf(st->db, DL_ERR_INVALID_ARG,
                            "%s: parameter index %d is out of range (the statement has %d "
                            "parameter%s, numbered from 1)",
                            what, (int)index, (int)st->n_params, st->n_params == 1 ? "" : "s");
    }
    return DELTALITE_OK;
}

/* Makes a new one-row vector of type for parameter index; the caller appends its value. */
static dl_status
new_value(deltalite_stmt *st, const dl_type *type, dl_vector **out, dl_error *err) {
    return dl_vec_new(st->db->alloc, type, 1, out, err);
}

/* Installs vec (status s of building it) as parameter index's value. */
static deltalite_status
install(deltalite_stmt *st, int32_t index, dl_vector *vec, dl_status s, dl_error *err) {
    if (s != DL_OK) {
        dl_vec_unref(vec);
        return dl_api_fail(st->db, err, NULL, 0);
    }
    dl_vec_unref(st->values[index - 1]);
    st->values[index - 1] = vec;
    dl_api_ok(st->db);
    return DELTALITE_OK;
}

typedef struct bind_value {
    dl_type_id id;
    int64_t i;
    double f;
    const void *bytes;
    size_t len;
    dl_i128 dec;
    bool is_null;
} bind_value;

static dl_status
append(dl_vector *vec, const bind_value *v, dl_error *err) {
    if (v->is_null) {
        return dl_vec_append_null(vec, err);
    }
    switch (v->id) {
    case DL_VEC_TYPE_BOOLEAN:
        return dl_vec_append_bool(vec, v->i != 0, err);
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_DATE:
        return dl_vec_append_i32(vec, (int32_t)v->i, err);
    case DL_VEC_TYPE_DOUBLE:
        return dl_vec_append_f64(vec, v->f, err);
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY:
        return dl_vec_append_str(vec, v->bytes, v->len, err);
    case DL_VEC_TYPE_DECIMAL:
        return dl_vec_append_i128(vec, v->dec, err);
    default:
        return dl_vec_append_i64(vec, v->i, err);
    }
}

static deltalite_status
bind(deltalite_stmt *st, int32_t index, const dl_type *type, const bind_value *v,
     const char *what) {
    deltalite_status ds = check_index(st, index, what);
    if (ds != DELTALITE_OK) {
        return ds;
    }
    dl_error err;
    dl_error_clear(&err);
    dl_vector *vec = NULL;
    dl_status s = new_value(st, type, &vec, &err);
    if (s == DL_OK) {
        s = append(vec, v, &err);
    }
    return install(st, index, vec, s, &err);
}

deltalite_status
deltalite_bind_null(deltalite_stmt *stmt, int32_t index) {
    bind_value v = {.id = DL_VEC_TYPE_NULL, .is_null = true};
    return bind(stmt, index, dl_vec_type_prim(DL_VEC_TYPE_NULL), &v, "deltalite_bind_null");
}

/* Binds an integer-like value (boolean, integers, date, timestamps) of type id. */
static deltalite_status
bind_int(deltalite_stmt *st, int32_t index, dl_type_id id, int64_t value, const char *what) {
    bind_value v = {.id = id, .i = value};
    return bind(st, index, dl_vec_type_prim(id), &v, what);
}

deltalite_status
deltalite_bind_bool(deltalite_stmt *stmt, int32_t index, bool value) {
    return bind_int(stmt, index, DL_VEC_TYPE_BOOLEAN, value, "deltalite_bind_bool");
}

deltalite_status
deltalite_bind_int32(deltalite_stmt *stmt, int32_t index, int32_t value) {
    return bind_int(stmt, index, DL_VEC_TYPE_INT, value, "deltalite_bind_int32");
}

deltalite_status
deltalite_bind_int64(deltalite_stmt *stmt, int32_t index, int64_t value) {
    return bind_int(stmt, index, DL_VEC_TYPE_LONG, value, "deltalite_bind_int64");
}

deltalite_status
deltalite_bind_date(deltalite_stmt *stmt, int32_t index, int32_t days) {
    return bind_int(stmt, index, DL_VEC_TYPE_DATE, days, "deltalite_bind_date");
}

deltalite_status
deltalite_bind_timestamp(deltalite_stmt *stmt, int32_t index, int64_t micros) {
    return bind_int(stmt, index, DL_VEC_TYPE_TIMESTAMP, micros, "deltalite_bind_timestamp");
}

deltalite_status
deltalite_bind_timestamp_ntz(deltalite_stmt *stmt, int32_t index, int64_t micros) {
    return bind_int(stmt, index, DL_VEC_TYPE_TIMESTAMP_NTZ, micros, "deltalite_bind_timestamp_ntz");
}

deltalite_status
deltalite_bind_double(deltalite_stmt *stmt, int32_t index, double value) {
    bind_value v = {.id = DL_VEC_TYPE_DOUBLE, .f = value};
    return bind(stmt, index, dl_vec_type_prim(DL_VEC_TYPE_DOUBLE), &v, "deltalite_bind_double");
}

deltalite_status
deltalite_bind_text(deltalite_stmt *stmt, int32_t index, const char *text, size_t len) {
    if (stmt != NULL && text != NULL && len == DELTALITE_NTS) {
        len = strlen(text);
    }
    if (stmt != NULL && (text == NULL || !dl_utf8_valid(text, len))) {
        return dl_api_failf(stmt->db, DL_ERR_INVALID_ARG, "deltalite_bind_text: %s",
                            text == NULL
                                ? "text is NULL (bind NULL with deltalite_bind_null)"
                                : "the text is not UTF-8 (bind bytes with deltalite_bind_blob)");
    }
    bind_value v = {.id = DL_VEC_TYPE_STRING, .bytes = text, .len = len};
    return bind(stmt, index, dl_vec_type_prim(DL_VEC_TYPE_STRING), &v, "deltalite_bind_text");
}

deltalite_status
deltalite_bind_blob(deltalite_stmt *stmt, int32_t index, const void *data, size_t len) {
    if (stmt != NULL && data == NULL && len > 0) {
        return dl_api_failf(stmt->db, DL_ERR_INVALID_ARG, "deltalite_bind_blob: data is NULL");
    }
    bind_value v = {.id = DL_VEC_TYPE_BINARY, .bytes = data ? data : "", .len = len};
    return bind(stmt, index, dl_vec_type_prim(DL_VEC_TYPE_BINARY), &v, "deltalite_bind_blob");
}

/* The precision and scale of decimal text [+-]digits[.digits], as Spark types the literal
 * 12.50BD: scale = the digits after the point, precision = the digits without leading zeros
 * (at least the scale, at least 1). False when the text has another shape. */
static bool
decimal_shape(const char *text, int *out_p, int *out_s) {
    const char *c = text + (text[0] == '-' || text[0] == '+');
    int n_int = 0;
    int n_frac = 0;
    bool is_leading = true;
    for (; *c >= '0' && *c <= '9'; c++) {
        is_leading = is_leading && *c == '0';
        n_int += !is_leading;
    }
    bool has_int = c > text + (text[0] == '-' || text[0] == '+');
    if (*c == '.') {
        for (c++; c[n_frac] >= '0' && c[n_frac] <= '9'; n_frac++) {
        }
        c += n_frac;
    }
    if (*c != '\0' || (!has_int && n_frac == 0)) {
        return false;
    }
    *out_s = n_frac;
    *out_p = DL_MAX(n_int + n_frac, 1);
    return true;
}

deltalite_status
deltalite_bind_decimal(deltalite_stmt *stmt, int32_t index, const char *text) {
    deltalite_status ds = check_index(stmt, index, "deltalite_bind_decimal");
    if (ds != DELTALITE_OK) {
        return ds;
    }
    int p = 0;
    int s = 0;
    if (text == NULL || !decimal_shape(text, &p, &s) || p > 38) {
        return dl_api_failf(stmt->db, DL_ERR_INVALID_ARG,
                            "deltalite_bind_decimal: '%.64s' is not a decimal of at most 38 "
                            "digits ([+-]digits[.digits])",
                            text ? text : "(null)");
    }
    dl_error err;
    dl_error_clear(&err);
    bind_value v = {.id = DL_VEC_TYPE_DECIMAL};
    dl_status st = dl_vec_type_decimal(&stmt->arena, p, s, &stmt->decimals[index - 1], &err);
    if (st == DL_OK) {
        st = dl_delta_decimal_parse(dl_str_from_cstr(text), p, s, &v.dec, &err);
    }
    if (st != DL_OK) {
        return dl_api_fail(stmt->db, &err, NULL, 0);
    }
    return bind(stmt, index, stmt->decimals[index - 1], &v, "deltalite_bind_decimal");
}

deltalite_status
deltalite_clear_bindings(deltalite_stmt *stmt) {
    if (stmt == NULL) {
        return DELTALITE_ERROR_INVALID_ARG;
    }
    for (int32_t i = 0; i < stmt->n_params; i++) {
        dl_vec_unref(stmt->values[i]);
        stmt->values[i] = NULL;
    }
    dl_api_ok(stmt->db);
    return DELTALITE_OK;
}

/* ---- executing ---------------------------------------------------------------------------- */

static dl_status
check_bound(const deltalite_stmt *st, dl_error *err) {
    for (int32_t i = 0; i < st->n_params; i++) {
        if (st->values[i] != NULL) {
            continue;
        }
        if (st->is_named) {
            (void)dl_error_set(err, DL_ERR_SQL_BIND,
                               "[UNBOUND_SQL_PARAMETER] Found the unbound parameter: %s",
                               st->labels[i]);
        } else {
            (void)dl_error_set(err, DL_ERR_SQL_BIND,
                               "[UNBOUND_SQL_PARAMETER] Found the unbound parameter: ? (parameter "
                               "%d)",
                               (int)i + 1);
        }
        dl_error_hint(err, "bind a value to parameter %d with deltalite_bind_* before executing",
                      (int)i + 1);
        err->offset = st->locs[i];
        return DL_ERR_SQL_BIND;
    }
    return DL_OK;
}

deltalite_status
deltalite_stmt_execute(deltalite_stmt *stmt, deltalite_result **out) {
    if (out != NULL) {
        *out = NULL;
    }
    if (stmt == NULL) {
        return DELTALITE_ERROR_INVALID_ARG;
    }
    deltalite_db *db = stmt->db;
    if (out == NULL) {
        return dl_api_failf(db, DL_ERR_INVALID_ARG, "deltalite_stmt_execute: out is NULL");
    }
    dl_error err;
    dl_error_clear(&err);
    dl_sql_piece piece = {.offset = 0, .len = stmt->sql_len};
    dl_sql_params params = {
        .values = stmt->values, .names = stmt->is_named ? stmt->names : NULL, .n = stmt->n_params};
    dl_sql_result *res = NULL;
    dl_status s = check_bound(stmt, &err);
    if (s == DL_OK) {
        s = dl_sql_exec_params(db->session, stmt->sql, stmt->sql_len, &params, &res, &err);
        if (s != DL_OK) {
            dl_api_engine_error(stmt->sql, stmt->sql_len, &piece, &err);
        }
    }
    if (s == DL_OK) {
        s = dl_api_result_new(db, res, stmt->sql, stmt->sql_len, &piece, out, &err);
    }
    if (s != DL_OK) {
        return dl_api_fail(db, &err, stmt->sql, stmt->sql_len);
    }
    dl_api_ok(db);
    return DELTALITE_OK;
}
