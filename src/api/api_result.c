/* SPDX-License-Identifier: Apache-2.0 */
/*
 * deltalite_result: an engine result read one row at a time. The engine hands out batches
 * (any layout, perhaps with a selection); the result keeps the current batch and the index of
 * the current live row, and the getters read the value in place. Text is formatted on demand
 * into one buffer per column, kept until the row changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_int.h"
#include "base/base.h"
#include "sql/func/sql_func.h"
#include "sql/parse/sql_parse.h"

/* The public type codes are the vector type ids. */
_Static_assert((int)DELTALITE_TYPE_NULL == (int)DL_VEC_TYPE_NULL, "type codes mirror dl_type_id");
_Static_assert((int)DELTALITE_TYPE_DECIMAL == (int)DL_VEC_TYPE_DECIMAL,
               "type codes mirror dl_type_id");
_Static_assert((int)DELTALITE_TYPE_TIMESTAMP_NTZ == (int)DL_VEC_TYPE_TIMESTAMP_NTZ,
               "type codes mirror dl_type_id");
_Static_assert((int)DELTALITE_TYPE_MAP == (int)DL_VEC_TYPE_MAP, "type codes mirror dl_type_id");
_Static_assert((int)DELTALITE_TYPE_INTERVAL_DT == (int)DL_VEC_TYPE_INTERVAL_DT,
               "type codes mirror dl_type_id");
_Static_assert((int)DL_VEC_TYPE_COUNT == (int)DELTALITE_TYPE_INTERVAL_DT + 1,
               "every vector type has a public code");

/* Frees what the result holds. Assumes: cells[0, n_cols) are initialised (or cells NULL). */
static void
drop_texts(deltalite_result *r) {
    for (int32_t i = 0; r->texts != NULL && i < r->n_cols; i++) {
        dl_vec_unref(r->texts[i]);
        r->texts[i] = NULL;
    }
}

static void
release(deltalite_result *r) {
    const dl_allocator *alloc = r->db->alloc;
    drop_texts(r);
    dl_sql_result_free(r->res);
    for (int32_t i = 0; r->cells != NULL && i < r->n_cols; i++) {
        dl_buf_destroy(&r->cells[i]);
    }
    for (int32_t i = 0; r->json_cells != NULL && i < r->n_cols; i++) {
        dl_buf_destroy(&r->json_cells[i]);
    }
    dl_arena_destroy(&r->arena);
    dl_mem_free(alloc, r, sizeof(*r));
}

dl_status
dl_api_result_new(deltalite_db *db, dl_sql_result *res, const char *sql, size_t len,
                  const dl_sql_piece *piece, deltalite_result **out, dl_error *err) {
    deltalite_result *r = dl_mem_alloc_zero(db->alloc, sizeof(*r));
    if (r == NULL) {
        dl_sql_result_free(res);
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory reading a result");
    }
    r->db = db;
    r->res = res;
    r->row = -1;
    dl_arena_init(&r->arena, db->alloc, 0);
    r->schema = dl_sql_result_schema(res);
    r->n_cols = r->schema ? r->schema->n_fields : 0;
    size_t n = (size_t)r->n_cols;
    r->cells = dl_arena_alloc_array(&r->arena, n + 1, sizeof(dl_buf));
    r->cell_ready = dl_arena_alloc_zero(&r->arena, n + 1);
    r->texts = dl_arena_alloc_zero(&r->arena, (n + 1) * sizeof(dl_vector *));
    r->type_names = dl_arena_alloc_array(&r->arena, n + 1, sizeof(char *));
    r->json_cells = dl_arena_alloc_array(&r->arena, n + 1, sizeof(dl_buf));
    for (size_t i = 0; r->cells != NULL && i < n; i++) {
        dl_buf_init(&r->cells[i], db->alloc);
    }
    for (size_t i = 0; r->json_cells != NULL && i < n; i++) {
        dl_buf_init(&r->json_cells[i], db->alloc);
    }
    dl_status st = (r->cells && r->json_cells && r->cell_ready && r->type_names && r->texts)
                       ? DL_OK
                       : DL_ERR_NOMEM;
    dl_buf name;
    dl_buf_init(&name, db->alloc);
    for (size_t i = 0; st == DL_OK && i < n; i++) {
        dl_buf_reset(&name);
        st = dl_vec_type_to_string(r->schema->fields[i].type, &name, err);
        if (st == DL_OK) {
            r->type_names[i] = dl_arena_strndup(&r->arena, (const char *)name.data, name.len);
            st = r->type_names[i] ? DL_OK : DL_ERR_NOMEM;
        }
    }
    dl_buf_destroy(&name);
    if (st == DL_OK && sql != NULL) {
        r->sql = dl_arena_strndup(&r->arena, sql, len);
        r->sql_len = len;
        r->piece = *piece;
        st = r->sql ? DL_OK : DL_ERR_NOMEM;
    }
    if (st != DL_OK) {
        if (r->cells == NULL) {
            r->n_cols = 0;
        }
        release(r);
        if (st == DL_ERR_NOMEM) {
            DL_FAIL(err, DL_ERR_NOMEM, "out of memory reading a result");
        }
        return st;
    }
    db->n_open++;
    *out = r;
    return DL_OK;
}

void
deltalite_result_free(deltalite_result *result) {
    if (result == NULL) {
        return;
    }
    result->db->n_open--;
    release(result);
}

/* ---- columns ------------------------------------------------------------------------------ */

int32_t
deltalite_result_column_count(const deltalite_result *result) {
    return result ? result->n_cols : 0;
}

static bool
col_ok(const deltalite_result *r, int32_t col) {
    return r != NULL && col >= 0 && col < r->n_cols;
}

const char *
deltalite_result_column_name(const deltalite_result *result, int32_t col) {
    return col_ok(result, col) ? result->schema->fields[col].name : NULL;
}

deltalite_type
deltalite_result_column_type(const deltalite_result *result, int32_t col) {
    return col_ok(result, col) ? (deltalite_type)result->schema->fields[col].type->id
                               : DELTALITE_TYPE_NULL;
}

const char *
deltalite_result_column_type_name(const deltalite_result *result, int32_t col) {
    return col_ok(result, col) ? result->type_names[col] : NULL;
}

deltalite_status
deltalite_result_column_decimal(deltalite_result *result, int32_t col, int32_t *out_precision,
                                int32_t *out_scale) {
    if (out_precision != NULL) {
        *out_precision = 0;
    }
    if (out_scale != NULL) {
        *out_scale = 0;
    }
    if (!col_ok(result, col)) {
        (void)dl_api_failf(result ? result->db : NULL, DL_ERR_INVALID_ARG,
                           "column %d is out of range", (int)col);
        return DELTALITE_ERROR_INVALID_ARG;
    }
    const dl_type *t = result->schema->fields[col].type;
    if (t->id != DL_VEC_TYPE_DECIMAL) {
        (void)dl_api_failf(result->db, DL_ERR_SCHEMA, "column %d '%s' is %s, not a decimal",
                           (int)col, result->schema->fields[col].name, result->type_names[col]);
        return DELTALITE_ERROR_SCHEMA;
    }
    if (out_precision != NULL) {
        *out_precision = t->precision;
    }
    if (out_scale != NULL) {
        *out_scale = t->scale;
    }
    dl_api_ok(result->db);
    return DELTALITE_OK;
}

const char *
deltalite_result_statement(const deltalite_result *result) {
    return result ? dl_sql_stmt_kind_name(dl_sql_result_stmt_kind(result->res)) : "";
}

/* ---- rows --------------------------------------------------------------------------------- */

static void
clear_cells(deltalite_result *r) {
    for (int32_t i = 0; i < r->n_cols; i++) {
        r->cell_ready[i] = false;
    }
}

deltalite_status
deltalite_result_next_row(deltalite_result *result, bool *out_has_row) {
    if (out_has_row != NULL) {
        *out_has_row = false;
    }
    if (result == NULL || out_has_row == NULL) {
        (void)dl_api_failf(result ? result->db : NULL, DL_ERR_INVALID_ARG,
                           "deltalite_result_next_row: NULL argument");
        return DELTALITE_ERROR_INVALID_ARG;
    }
    clear_cells(result);
    if (result->is_done) {
        dl_api_ok(result->db);
        return DELTALITE_OK;
    }
    result->row++;
    while (result->batch == NULL || result->row >= result->batch->count) {
        dl_error err;
        dl_error_clear(&err);
        const dl_batch *batch = NULL;
        drop_texts(result);
        dl_status st = dl_sql_result_next(result->res, &batch, &err);
        if (st != DL_OK) {
            result->is_done = true;
            result->is_failed = true;
            result->batch = NULL;
            dl_api_engine_error(result->sql, result->sql_len, &result->piece, &err);
            return dl_api_fail(result->db, &err, result->sql, result->sql_len);
        }
        result->batch = batch;
        result->row = 0;
        if (batch == NULL) {
            result->is_done = true;
            dl_api_ok(result->db);
            return DELTALITE_OK;
        }
    }
    *out_has_row = true;
    dl_api_ok(result->db);
    return DELTALITE_OK;
}

/* The vector and physical row of column col in the current row, or an error. */
static deltalite_status
current_cell(deltalite_result *r, int32_t col, const dl_vector **out_vec, int64_t *out_row) {
    if (r == NULL) {
        return DELTALITE_ERROR_INVALID_ARG;
    }
    if (!col_ok(r, col)) {
        (void)dl_api_failf(r->db, DL_ERR_INVALID_ARG,
                           "column %d is out of range (the result has %d)", (int)col,
                           (int)r->n_cols);
        return DELTALITE_ERROR_INVALID_ARG;
    }
    if (r->batch == NULL || r->row < 0 || r->row >= r->batch->count) {
        (void)dl_api_failf(r->db, DL_ERR_INVALID_ARG,
                           "there is no current row: call deltalite_result_next_row first");
        return DELTALITE_ERROR_INVALID_ARG;
    }
    *out_vec = r->batch->cols[col];
    *out_row = dl_vec_batch_row(r->batch, r->row);
    return DELTALITE_OK;
}

bool
deltalite_result_is_null(deltalite_result *result, int32_t col) {
    const dl_vector *vec = NULL;
    int64_t row = 0;
    if (current_cell(result, col, &vec, &row) != DELTALITE_OK) {
        return true;
    }
    return dl_vec_is_null(vec, row);
}

/* Finds the non-NULL value of column col: its flat vector and element index. */
static deltalite_status
value_at(deltalite_result *r, int32_t col, const char *want, const dl_vector **out_flat,
         int64_t *out_idx) {
    const dl_vector *vec = NULL;
    int64_t row = 0;
    deltalite_status ds = current_cell(r, col, &vec, &row);
    if (ds != DELTALITE_OK) {
        return ds;
    }
    if (dl_vec_is_null(vec, row)) {
        (void)dl_api_failf(r->db, DL_ERR_INVALID_ARG,
                           "column %d '%s' is NULL in this row (want %s; check "
                           "deltalite_result_is_null first)",
                           (int)col, r->schema->fields[col].name, want);
        return DELTALITE_ERROR_INVALID_ARG;
    }
    *out_idx = dl_vec_resolve(vec, row, out_flat);
    if (*out_flat == NULL) {
        (void)dl_api_failf(r->db, DL_ERR_INTERNAL, "column %d has no values", (int)col);
        return DELTALITE_ERROR_INTERNAL;
    }
    return DELTALITE_OK;
}

static deltalite_status
null_out(deltalite_result *r) {
    (void)dl_api_failf(r ? r->db : NULL, DL_ERR_INVALID_ARG, "a getter's out argument is NULL");
    return DELTALITE_ERROR_INVALID_ARG;
}

static deltalite_status
wrong_type(deltalite_result *r, int32_t col, const char *want) {
    (void)dl_api_failf(r->db, DL_ERR_SCHEMA, "column %d '%s' is %s, not %s", (int)col,
                       r->schema->fields[col].name, r->type_names[col], want);
    return DELTALITE_ERROR_SCHEMA;
}

/* value_at for a getter that takes one or two exact types (id2 < 0: only id1). */
static deltalite_status
typed_value_at(deltalite_result *r, int32_t col, int id1, int id2, const char *want,
               const dl_vector **out_flat, int64_t *out_idx) {
    deltalite_status ds = value_at(r, col, want, out_flat, out_idx);
    if (ds != DELTALITE_OK) {
        return ds;
    }
    int id = (int)(*out_flat)->type->id;
    if (id != id1 && id != id2) {
        return wrong_type(r, col, want);
    }
    return DELTALITE_OK;
}

deltalite_status
deltalite_result_get_bool(deltalite_result *result, int32_t col, bool *out) {
    const dl_vector *flat = NULL;
    int64_t idx = 0;
    if (out == NULL) {
        return null_out(result);
    }
    *out = false;
    deltalite_status ds =
        typed_value_at(result, col, DL_VEC_TYPE_BOOLEAN, -1, "a boolean", &flat, &idx);
    if (ds != DELTALITE_OK) {
        return ds;
    }
    *out = dl_vec_get_bool(flat, idx);
    dl_api_ok(result->db);
    return DELTALITE_OK;
}

/* The integer at idx of a BYTE/SHORT/INT/LONG vector; false for other types. */
static bool
read_integer(const dl_vector *flat, int64_t idx, int64_t *out) {
    switch (flat->type->id) {
    case DL_VEC_TYPE_BYTE: {
        int8_t v = ((const int8_t *)flat->data)[idx];
        *out = (int64_t)v;
        return true;
    }
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

deltalite_status
deltalite_result_get_int64(deltalite_result *result, int32_t col, int64_t *out) {
    const dl_vector *flat = NULL;
    int64_t idx = 0;
    if (out == NULL) {
        return null_out(result);
    }
    *out = 0;
    deltalite_status ds = value_at(result, col, "an integer", &flat, &idx);
    if (ds != DELTALITE_OK) {
        return ds;
    }
    if (!read_integer(flat, idx, out)) {
        return wrong_type(result, col, "an integer");
    }
    dl_api_ok(result->db);
    return DELTALITE_OK;
}

/* The nearest double to unscaled * 10^-scale, correctly rounded by strtod (dividing by a
 * power of ten would round twice). */
static double
decimal_to_double(dl_i128 unscaled, int scale) {
    char text[64];
    char *p = text + sizeof(text) - 1;
    *p = '\0';
    bool is_negative = unscaled < 0;
    dl_u128 mag = is_negative ? (dl_u128)0 - (dl_u128)unscaled : (dl_u128)unscaled;
    do {
        *--p = (char)('0' + (int)(mag % 10));
        mag /= 10;
    } while (mag > 0);
    if (is_negative) {
        *--p = '-';
    }
    char full[80];
    (void)snprintf(full, sizeof(full), "%se-%d", p, scale);
    return strtod(full, NULL);
}

deltalite_status
deltalite_result_get_double(deltalite_result *result, int32_t col, double *out) {
    const dl_vector *flat = NULL;
    int64_t idx = 0;
    if (out == NULL) {
        return null_out(result);
    }
    *out = 0;
    deltalite_status ds = value_at(result, col, "a number", &flat, &idx);
    if (ds != DELTALITE_OK) {
        return ds;
    }
    int64_t i = 0;
    if (flat->type->id == DL_VEC_TYPE_DOUBLE) {
        *out = ((const double *)flat->data)[idx];
    } else if (flat->type->id == DL_VEC_TYPE_FLOAT) {
        *out = (double)((const float *)flat->data)[idx];
    } else if (flat->type->id == DL_VEC_TYPE_DECIMAL) {
        dl_i128 v;
        memcpy(&v, (const uint8_t *)flat->data + idx * 16, sizeof(v));
        *out = decimal_to_double(v, flat->type->scale);
    } else if (read_integer(flat, idx, &i)) {
        *out = (double)i;
    } else {
        return wrong_type(result, col, "a number");
    }
    dl_api_ok(result->db);
    return DELTALITE_OK;
}

deltalite_status
deltalite_result_get_date(deltalite_result *result, int32_t col, int32_t *out_days) {
    const dl_vector *flat = NULL;
    int64_t idx = 0;
    if (out_days == NULL) {
        return null_out(result);
    }
    *out_days = 0;
    deltalite_status ds = typed_value_at(result, col, DL_VEC_TYPE_DATE, -1, "a date", &flat, &idx);
    if (ds != DELTALITE_OK) {
        return ds;
    }
    *out_days = ((const int32_t *)flat->data)[idx];
    dl_api_ok(result->db);
    return DELTALITE_OK;
}

deltalite_status
deltalite_result_get_timestamp(deltalite_result *result, int32_t col, int64_t *out_micros) {
    const dl_vector *flat = NULL;
    int64_t idx = 0;
    if (out_micros == NULL) {
        return null_out(result);
    }
    *out_micros = 0;
    deltalite_status ds = typed_value_at(result, col, DL_VEC_TYPE_TIMESTAMP,
                                         DL_VEC_TYPE_TIMESTAMP_NTZ, "a timestamp", &flat, &idx);
    if (ds != DELTALITE_OK) {
        return ds;
    }
    *out_micros = ((const int64_t *)flat->data)[idx];
    dl_api_ok(result->db);
    return DELTALITE_OK;
}

deltalite_status
deltalite_result_get_blob(deltalite_result *result, int32_t col, const void **out,
                          size_t *out_len) {
    const dl_vector *flat = NULL;
    int64_t idx = 0;
    if (out == NULL) {
        return null_out(result);
    }
    *out = NULL;
    if (out_len != NULL) {
        *out_len = 0;
    }
    deltalite_status ds = value_at(result, col, "bytes", &flat, &idx);
    if (ds != DELTALITE_OK) {
        return ds;
    }
    dl_type_id id = flat->type->id;
    if (id != DL_VEC_TYPE_STRING && id != DL_VEC_TYPE_BINARY) {
        return wrong_type(result, col, "a string or binary");
    }
    dl_str s = dl_vec_get_str(flat, idx);
    *out = s.len > 0 ? s.ptr : "";
    if (out_len != NULL) {
        *out_len = s.len;
    }
    dl_api_ok(result->db);
    return DELTALITE_OK;
}

deltalite_status
deltalite_result_get_json(deltalite_result *result, int32_t col, const char **out,
                          size_t *out_len) {
    if (out == NULL) {
        return null_out(result);
    }
    *out = NULL;
    const dl_vector *vec = NULL;
    int64_t row = 0;
    deltalite_status ds = current_cell(result, col, &vec, &row);
    if (ds != DELTALITE_OK) {
        return ds;
    }
    dl_buf *cell = &result->json_cells[col];
    dl_buf_reset(cell);
    dl_error err;
    dl_error_clear(&err);
    dl_status st = DL_OK;
    if (dl_vec_is_null(vec, row)) {
        st = dl_buf_append_cstr(cell, "null", &err);
    } else {
        const dl_vector *flat = NULL;
        int64_t idx = dl_vec_resolve(vec, row, &flat);
        dl_sql_fn_env env = {
            .ansi = true,
            .time_zone = dl_sql_session_get(result->db->session, "spark.sql.session.timeZone"),
            .alloc = result->db->alloc};
        st = dl_sql_value_to_json(&env, flat->type, flat, idx, true, cell, &err);
    }
    if (st != DL_OK) {
        return dl_api_fail(result->db, &err, NULL, 0);
    }
    *out = dl_buf_cstr(cell);
    if (out_len != NULL) {
        *out_len = cell->len;
    }
    dl_api_ok(result->db);
    return DELTALITE_OK;
}

deltalite_status
deltalite_result_get_text(deltalite_result *result, int32_t col, const char **out,
                          size_t *out_len) {
    if (out == NULL) {
        return null_out(result);
    }
    *out = NULL;
    if (out_len != NULL) {
        *out_len = 0;
    }
    const dl_vector *vec = NULL;
    int64_t row = 0;
    deltalite_status ds = current_cell(result, col, &vec, &row);
    if (ds != DELTALITE_OK) {
        return ds;
    }
    if (dl_vec_is_null(vec, row)) {
        dl_api_ok(result->db);
        return DELTALITE_OK;
    }
    dl_buf *cell = &result->cells[col];
    if (!result->cell_ready[col]) {
        dl_error err;
        dl_error_clear(&err);
        if (result->texts[col] == NULL) {
            const char *zone =
                dl_sql_session_get(result->db->session, "spark.sql.session.timeZone");
            dl_status st = dl_api_text_column(zone, result->batch, col, result->db->alloc,
                                              &result->texts[col], &err);
            if (st != DL_OK) {
                return dl_api_fail(result->db, &err, NULL, 0);
            }
        }
        dl_str s = dl_vec_get_str(result->texts[col], result->row);
        dl_buf_reset(cell);
        if (dl_buf_append(cell, s.ptr, s.len, &err) != DL_OK) {
            return dl_api_fail(result->db, &err, NULL, 0);
        }
        result->cell_ready[col] = true;
    }
    *out = dl_buf_cstr(cell);
    if (out_len != NULL) {
        *out_len = cell->len;
    }
    dl_api_ok(result->db);
    return DELTALITE_OK;
}
