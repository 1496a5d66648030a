/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers for the join, sort, window and set-operation operator tests (test_sql_op_*.c):
 * an execution context with an optional thread pool, rows written as text, a test source
 * operator that hands out prepared batches (optionally with a selection over junk rows, and
 * optionally to several threads at once), and a runner that pulls an operator tree and
 * renders its output as text lines.
 *
 * Text rows: one row per line, values separated by '|', the literal NULL for a null. Values
 * are parsed by column type: integers (also DATE days, TIMESTAMP micros, DECIMAL unscaled),
 * doubles (strtod: nan, inf), booleans (true/false), strings as written.
 */
#ifndef DL_TESTS_SQL_TEST_SQL_OP_UTIL_H
#define DL_TESTS_SQL_TEST_SQL_OP_UTIL_H

#include <inttypes.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/pool.h"
#include "sql/exec/sql_exec.h"
#include "sql/plan/sql_plan.h"

typedef struct tx {
    dl_sql_exec_ctx exec;
    dl_arena arena;
    dl_pool *pool;
    dl_error err;
} tx;

/* A context with n_workers pool threads (0: no pool). */
static inline void
tx_init(tx *t, int n_workers) {
    memset(t, 0, sizeof(*t));
    dl_arena_init(&t->arena, NULL, 0);
    t->exec.alloc = dl_allocator_default();
    t->exec.arena = &t->arena;
    t->exec.n_threads = 1;
    t->exec.env.alloc = t->exec.alloc;
    t->exec.env.time_zone = "UTC";
    atomic_init(&t->exec.is_interrupted, false);
    if (n_workers > 0) {
        if (dl_pool_new(n_workers, NULL, &t->pool, &t->err) == DL_OK) {
            t->exec.pool = t->pool;
            t->exec.n_threads = n_workers + 1;
        }
    }
}

static inline void
tx_destroy(tx *t) {
    dl_pool_free(t->pool);
    dl_arena_destroy(&t->arena);
}

static inline const dl_type *
tx_prim(dl_type_id id) {
    return dl_vec_type_prim(id);
}

/* A STRUCT schema of n columns named c0, c1, ... of the given types. */
static inline const dl_type *
tx_schema(tx *t, int n, const dl_type *const *types) {
    dl_type_field fields[16];
    char names[16][16];
    for (int i = 0; i < n; i++) {
        (void)snprintf(names[i], sizeof(names[i]), "c%d", i);
        fields[i] = (dl_type_field){.name = names[i], .type = types[i], .is_nullable = true};
    }
    const dl_type *out = NULL;
    if (dl_vec_type_struct(&t->arena, fields, n, &out, &t->err) != DL_OK) {
        abort(); /* test setup cannot fail */
    }
    return out;
}

/* Concatenation of two schemas' fields. */
static inline const dl_type *
tx_concat(tx *t, const dl_type *a, const dl_type *b) {
    const dl_type *types[16];
    int n = 0;
    for (int i = 0; i < a->n_fields; i++) {
        types[n++] = a->fields[i].type;
    }
    for (int i = 0; i < b->n_fields; i++) {
        types[n++] = b->fields[i].type;
    }
    return tx_schema(t, n, types);
}

static inline dl_sql_plan *
tx_plan(tx *t, dl_sql_plan_kind kind, const dl_type *schema) {
    dl_sql_plan *plan = NULL;
    if (dl_sql_plan_new(&t->arena, kind, schema->fields, schema->n_fields, &plan, &t->err) !=
        DL_OK) {
        abort(); /* test setup cannot fail */
    }
    return plan;
}

static inline dl_sql_bexpr *
tx_col(tx *t, int32_t index, const dl_type *type) {
    dl_sql_bexpr *e = dl_sql_bexpr_column(&t->arena, index, type);
    if (e == NULL) {
        abort(); /* test setup cannot fail */
    }
    return e;
}

/* ---- values ---------------------------------------------------------------------------- */

static inline dl_status
tx_append_text(dl_vector *vec, const char *s, size_t len, dl_error *err) {
    char tmp[256];
    if (len >= sizeof(tmp)) {
        len = sizeof(tmp) - 1;
    }
    memcpy(tmp, s, len);
    tmp[len] = 0;
    if (strcmp(tmp, "NULL") == 0) {
        return dl_vec_append_null(vec, err);
    }
    switch (vec->type->id) {
    case DL_VEC_TYPE_BOOLEAN:
        return dl_vec_append_bool(vec, strcmp(tmp, "true") == 0, err);
    case DL_VEC_TYPE_BYTE:
        return dl_vec_append_i8(vec, (int8_t)strtoll(tmp, NULL, 10), err);
    case DL_VEC_TYPE_SHORT:
        return dl_vec_append_i16(vec, (int16_t)strtoll(tmp, NULL, 10), err);
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_DATE:
        return dl_vec_append_i32(vec, (int32_t)strtoll(tmp, NULL, 10), err);
    case DL_VEC_TYPE_LONG:
    case DL_VEC_TYPE_TIMESTAMP:
        return dl_vec_append_i64(vec, strtoll(tmp, NULL, 10), err);
    case DL_VEC_TYPE_FLOAT:
        return dl_vec_append_f32(vec, strtof(tmp, NULL), err);
    case DL_VEC_TYPE_DOUBLE:
        return dl_vec_append_f64(vec, strtod(tmp, NULL), err);
    case DL_VEC_TYPE_DECIMAL:
        return dl_vec_append_i128(vec, (dl_i128)strtoll(tmp, NULL, 10), err);
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY:
        return dl_vec_append_str(vec, tmp, len, err);
    default:
        return dl_error_set(err, DL_ERR_UNSUPPORTED, "test values of this type");
    }
}

/* Appends one text row ("a|b|c") to the flat columns of batch (count grows by one). */
static inline dl_status
tx_append_row(dl_batch *b, const char *line, size_t len, dl_error *err) {
    size_t pos = 0;
    for (int32_t c = 0; c < b->n_cols; c++) {
        size_t end = pos;
        while (end < len && line[end] != '|') {
            end++;
        }
        DL_TRY(tx_append_text(b->cols[c], line + pos, end - pos, err));
        pos = end + 1;
    }
    b->count++;
    return DL_OK;
}

/* ---- the test source ---------------------------------------------------------------------- */

typedef struct tx_src {
    dl_batch **batches;
    int64_t n_batches;
    int64_t cap_batches;
    atomic_llong cursor;
} tx_src;

static dl_status
tx_src_next(dl_sql_operator *op, void *local, dl_batch *out, dl_error *err) {
    (void)local;
    tx_src *s = op->state;
    long long i = atomic_fetch_add(&s->cursor, 1);
    if (i >= s->n_batches) {
        dl_vec_batch_set_count(out, 0);
        return DL_OK;
    }
    const dl_batch *b = s->batches[i];
    for (int32_t c = 0; c < out->n_cols; c++) {
        dl_vec_batch_set_col(out, c, dl_vec_ref(b->cols[c]));
    }
    if (b->sel != NULL) {
        return dl_vec_batch_set_sel(out, b->sel, b->count, err);
    }
    dl_vec_batch_set_count(out, b->count);
    return DL_OK;
}

static void
tx_src_free(dl_sql_operator *op) {
    tx_src *s = op->state;
    for (int64_t i = 0; i < s->n_batches; i++) {
        dl_vec_batch_free(s->batches[i]);
    }
    dl_mem_free(NULL, s->batches, (size_t)s->cap_batches * sizeof(void *));
    dl_mem_free(NULL, s, sizeof(*s));
}

static const dl_sql_op_vtable tx_src_vt = {
    .name = "test_source",
    .next = tx_src_next,
    .free = tx_src_free,
};

static inline dl_sql_operator *
tx_source(tx *t, const dl_type *schema, bool is_parallel) {
    dl_sql_plan *plan = tx_plan(t, DL_SQL_PLAN_VALUES, schema);
    dl_sql_operator *op = dl_sql_op_alloc(&t->exec, &tx_src_vt, plan, NULL, NULL);
    tx_src *s = dl_mem_alloc_zero(NULL, sizeof(*s));
    if (op == NULL || s == NULL) {
        abort(); /* test setup cannot fail */
    }
    atomic_init(&s->cursor, 0);
    op->state = s;
    op->is_parallel = is_parallel;
    return op;
}

static inline dl_batch *
tx_src_add_batch(tx *t, dl_sql_operator *src) {
    tx_src *s = src->state;
    if (s->n_batches == s->cap_batches) {
        int64_t cap = s->cap_batches == 0 ? 8 : s->cap_batches * 2;
        dl_batch **grown = dl_mem_realloc(NULL, s->batches, (size_t)s->cap_batches * sizeof(void *),
                                          (size_t)cap * sizeof(void *));
        if (grown == NULL) {
            return NULL;
        }
        s->batches = grown;
        s->cap_batches = cap;
    }
    dl_batch *b = NULL;
    if (dl_vec_batch_new(NULL, src->schema, 0, &b, &t->err) != DL_OK) {
        return NULL;
    }
    s->batches[s->n_batches++] = b;
    return b;
}

/*
 * Adds text rows (lines) to the source, batch_rows rows per batch. With junk, every row is
 * followed by a junk row (junk_line) that the batch's selection leaves out.
 */
static inline dl_status
tx_src_rows(tx *t, dl_sql_operator *src, const char *text, int batch_rows, const char *junk_line) {
    dl_batch *b = NULL;
    uint32_t sel[DL_BATCH_CAPACITY];
    int n_sel = 0;
    const char *p = text;
    while (*p != 0) {
        const char *eol = strchr(p, '\n');
        size_t len = eol != NULL ? (size_t)(eol - p) : strlen(p);
        if (b == NULL) {
            b = tx_src_add_batch(t, src);
            DL_CHECK(b != NULL, &t->err, DL_ERR_NOMEM, "test source");
            n_sel = 0;
        }
        if (junk_line != NULL) {
            sel[n_sel++] = (uint32_t)b->count;
        }
        DL_TRY(tx_append_row(b, p, len, &t->err));
        if (junk_line != NULL) {
            DL_TRY(tx_append_row(b, junk_line, strlen(junk_line), &t->err));
        }
        if ((junk_line != NULL ? n_sel : b->count) == batch_rows) {
            if (junk_line != NULL) {
                DL_TRY(dl_vec_batch_set_sel(b, sel, n_sel, &t->err));
            }
            b = NULL;
        }
        p = eol != NULL ? eol + 1 : p + len;
    }
    if (b != NULL && junk_line != NULL) {
        DL_TRY(dl_vec_batch_set_sel(b, sel, n_sel, &t->err));
    }
    return DL_OK;
}

/* ---- running and rendering --------------------------------------------------------------- */

static inline dl_status
tx_render_value(dl_buf *out, const dl_vector *vec, int64_t row, dl_error *err) {
    if (dl_vec_is_null(vec, row)) {
        return dl_buf_append_cstr(out, "NULL", err);
    }
    const dl_vector *flat;
    int64_t i = dl_vec_resolve(vec, row, &flat);
    const void *d = flat->data;
    switch (flat->type->id) {
    case DL_VEC_TYPE_BOOLEAN:
        return dl_buf_append_cstr(out, dl_vec_get_bool(flat, i) ? "true" : "false", err);
    case DL_VEC_TYPE_BYTE:
        return dl_buf_appendf(out, err, "%d", (int)((const int8_t *)d)[i]);
    case DL_VEC_TYPE_SHORT:
        return dl_buf_appendf(out, err, "%d", (int)((const int16_t *)d)[i]);
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_DATE:
        return dl_buf_appendf(out, err, "%d", (int)((const int32_t *)d)[i]);
    case DL_VEC_TYPE_LONG:
    case DL_VEC_TYPE_TIMESTAMP:
        return dl_buf_appendf(out, err, "%" PRId64, ((const int64_t *)d)[i]);
    case DL_VEC_TYPE_FLOAT:
        return dl_buf_appendf(out, err, "%g", (double)((const float *)d)[i]);
    case DL_VEC_TYPE_DOUBLE:
        return dl_buf_appendf(out, err, "%g", ((const double *)d)[i]);
    case DL_VEC_TYPE_DECIMAL:
        return dl_buf_appendf(out, err, "%lld", (long long)((const dl_i128 *)d)[i]);
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY: {
        dl_str s = dl_vec_get_str(flat, i);
        return dl_buf_append(out, s.ptr, s.len, err);
    }
    default:
        return dl_buf_append_cstr(out, "?", err);
    }
}

/* Appends the live rows of batch as text lines. */
static inline dl_status
tx_render_batch(dl_buf *out, const dl_batch *b, dl_error *err) {
    DL_TRY(dl_vec_batch_check(b, err));
    for (int64_t k = 0; k < b->count; k++) {
        int64_t row = dl_vec_batch_row(b, k);
        for (int32_t c = 0; c < b->n_cols; c++) {
            if (c > 0) {
                DL_TRY(dl_buf_append_byte(out, '|', err));
            }
            DL_TRY(tx_render_value(out, b->cols[c], row, err));
        }
        DL_TRY(dl_buf_append_byte(out, '\n', err));
    }
    return DL_OK;
}

/* Opens op, pulls it on this thread to the end and renders every row; frees op. */
static inline dl_status
tx_run(tx *t, dl_sql_operator *op, dl_buf *out) {
    dl_status s = dl_sql_op_open(op, &t->err);
    void *local = NULL;
    dl_batch *b = NULL;
    if (s == DL_OK) {
        s = dl_sql_op_local_new(op, &local, &t->err);
    }
    if (s == DL_OK) {
        s = dl_sql_batch_new(&t->exec, op->schema, &b, &t->err);
    }
    while (s == DL_OK) {
        s = dl_sql_op_next(op, local, b, &t->err);
        if (s != DL_OK || b->count == 0) {
            break;
        }
        s = tx_render_batch(out, b, &t->err);
    }
    dl_vec_batch_free(b);
    dl_sql_op_local_free(op, local);
    dl_sql_op_free(op);
    return s;
}

static int
tx_cmp_lines(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts the lines of buf in place (for outputs whose order is unspecified). */
static inline void
tx_sort_lines(dl_buf *buf) {
    size_t n = 0;
    for (size_t i = 0; i < buf->len; i++) {
        n += buf->data[i] == '\n';
    }
    if (n < 2) {
        return;
    }
    char *copy = dl_mem_alloc(NULL, buf->len + 1);
    char **lines = dl_mem_alloc(NULL, n * sizeof(char *));
    memcpy(copy, buf->data, buf->len);
    copy[buf->len] = 0;
    size_t k = 0;
    char *p = copy;
    while (k < n) {
        lines[k++] = p;
        p = strchr(p, '\n');
        *p++ = 0;
    }
    qsort(lines, n, sizeof(char *), tx_cmp_lines);
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(lines[i]);
        memcpy(buf->data + pos, lines[i], len);
        buf->data[pos + len] = '\n';
        pos += len + 1;
    }
    dl_mem_free(NULL, lines, n * sizeof(char *));
    dl_mem_free(NULL, copy, buf->len + 1);
}

/* ---- allocation failures ------------------------------------------------------------------ */

/* Builds and runs a plan in t, rendering into out. */
typedef dl_status (*tx_run_fn)(tx *t, dl_buf *out);

/*
 * Runs fn with the operators' allocator failing at its k-th request, for k = 1, 2, ... until a
 * run succeeds: every failed run must fail with NOMEM and free every byte it took; the
 * successful run must render want (sorted lines). Returns the failures seen, or -1 on a
 * violation (printed).
 */
static inline int64_t
tx_fault_loop(tx_run_fn fn, const char *want) {
    for (int64_t k = 1; k < 100000; k++) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, k, false);
        tx t;
        tx_init(&t, 0);
        t.exec.alloc = &fa.base;
        t.exec.env.alloc = &fa.base;
        dl_buf out;
        dl_buf_init(&out, NULL);
        dl_status s = fn(&t, &out);
        tx_sort_lines(&out);
        bool is_done = s == DL_OK;
        bool is_bad =
            (s != DL_OK && s != DL_ERR_NOMEM) || (is_done && strcmp(dl_buf_cstr(&out), want) != 0);
        if (is_bad) {
            printf("  failing at request %lld: %s %s\n", (long long)k, dl_status_name(s),
                   t.err.msg);
        }
        dl_buf_destroy(&out);
        tx_destroy(&t);
        if (fa.live_blocks != 0 || fa.live_bytes != 0) {
            printf("  failing at request %lld leaked %lld blocks, %lld bytes\n", (long long)k,
                   (long long)fa.live_blocks, (long long)fa.live_bytes);
            is_bad = true;
        }
        if (is_bad) {
            return -1;
        }
        if (is_done) {
            return k - 1;
        }
    }
    return -1;
}

#endif /* DL_TESTS_SQL_TEST_SQL_OP_UTIL_H */
