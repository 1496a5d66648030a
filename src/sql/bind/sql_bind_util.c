/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Binder utilities (sql_bind_int.h): errors with line and column, bound-expression
 * construction, casts and common types, function calls through the library's bind callbacks,
 * constant folding and structural equality.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sql/bind/sql_bind_int.h"

/* ---- errors -------------------------------------------------------------------------------- */

dl_status
dl_sql_binder_fail(dl_sql_binder *b, uint32_t loc, dl_status code, dl_error *err, const char *fmt,
                   ...) {
    if (err == NULL) {
        return code;
    }
    char msg[DL_ERROR_MSG_CAP];
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    uint32_t line = 0;
    uint32_t col = 0;
    if (b->text != NULL && loc != UINT32_MAX) {
        dl_sql_offset_to_line_col(b->text, b->text_len, loc, &line, &col);
        (void)dl_error_set(err, code, "line %u, column %u: %s", (unsigned)line, (unsigned)col, msg);
        err->offset = (int64_t)loc;
    } else {
        (void)dl_error_set(err, code, "%s", msg);
    }
    DL_ERROR_WHERE(err);
    return code;
}

void
dl_sql_binder_locate(dl_sql_binder *b, uint32_t loc, dl_error *err) {
    if (err == NULL || err->offset >= 0 || b->text == NULL || loc == UINT32_MAX) {
        return;
    }
    uint32_t line = 0;
    uint32_t col = 0;
    dl_sql_offset_to_line_col(b->text, b->text_len, loc, &line, &col);
    dl_error_prefix(err, "line %u, column %u", (unsigned)line, (unsigned)col);
    err->offset = (int64_t)loc;
}

/* ---- construction -------------------------------------------------------------------------- */

dl_sql_bexpr *
dl_sql_bexpr_new(dl_sql_binder *b, dl_sql_bexpr_kind kind, const dl_type *type, uint32_t loc,
                 int32_t n_args) {
    dl_sql_bexpr *e = dl_arena_alloc_zero(b->arena, sizeof(*e));
    if (e == NULL) {
        return NULL;
    }
    e->kind = kind;
    e->type = type;
    e->loc = loc;
    e->n_args = n_args;
    if (n_args > 0) {
        e->args = dl_arena_alloc_zero(b->arena, (size_t)n_args * sizeof(void *));
        if (e->args == NULL) {
            return NULL;
        }
    }
    return e;
}

const dl_sql_fn_def *
dl_sql_binder_lookup(dl_sql_binder *b, dl_str name) {
    return dl_sql_session_lookup(b->session, name);
}

/* ---- constants ------------------------------------------------------------------------------ */

dl_status
dl_sql_binder_eval(dl_sql_binder *b, const dl_sql_bexpr *expr, dl_vector **out, dl_error *err) {
    return dl_sql_eval_const(b->exec, expr, out, err);
}

void
dl_sql_binder_fold(dl_sql_binder *b, dl_sql_bexpr **expr) {
    dl_sql_bexpr *e = *expr;
    if (e->kind == DL_SQL_BEXPR_CONST || !dl_sql_bexpr_is_constant(e)) {
        return;
    }
    dl_vector *v = NULL;
    if (dl_sql_eval_const(b->exec, e, &v, NULL) != DL_OK) {
        return;
    }
    dl_sql_bexpr *c = dl_sql_bexpr_const(b->arena, v, 0);
    dl_vec_unref(v);
    if (c == NULL) {
        return;
    }
    c->type = e->type;
    c->loc = e->loc;
    c->name = e->name;
    c->is_folded = true;
    *expr = c;
}

/* ---- equality ------------------------------------------------------------------------------- */

bool
dl_sql_bexpr_has_subquery(const dl_sql_bexpr *expr) {
    if (expr->kind == DL_SQL_BEXPR_SUBQUERY) {
        return true;
    }
    for (int32_t i = 0; i < expr->n_args; i++) {
        if (dl_sql_bexpr_has_subquery(expr->args[i])) {
            return true;
        }
    }
    return false;
}

/* ---- casts and coercion --------------------------------------------------------------------- */

static dl_status
type_text(const dl_type *t, char *buf, size_t cap) {
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_status s = dl_vec_type_to_string(t, &out, NULL);
    dl_str_copy_to(s == DL_OK ? dl_buf_view(&out) : DL_STR("?"), buf, cap);
    dl_buf_destroy(&out);
    return DL_OK;
}

/* A CAST node of expr to type (the cast is known to be allowed), folded when constant. */
static dl_status
new_cast(dl_sql_binder *b, dl_sql_bexpr *expr, const dl_type *type, dl_sql_cast_mode mode,
         void *bind_data, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_bexpr *c = dl_sql_bexpr_new(b, DL_SQL_BEXPR_CAST, type, expr->loc, 1);
    DL_CHECK(c != NULL, err, DL_ERR_NOMEM, "out of memory binding a cast");
    c->args[0] = expr;
    c->cast_mode = mode;
    c->bind_data = bind_data;
    c->name = expr->name;
    *out = c;
    dl_sql_binder_fold(b, out);
    return DL_OK;
}

/* expr cast to type in mode, when the session's CAST rules (ANSI or legacy) allow it. */
static dl_status
cast_with_mode(dl_sql_binder *b, dl_sql_bexpr *expr, const dl_type *type, dl_sql_cast_mode mode,
               dl_sql_bexpr **out, dl_error *err) {
    if (dl_vec_type_equal(expr->type, type)) {
        *out = expr;
        return DL_OK;
    }
    bool allowed = b->exec->env.ansi ? dl_sql_cast_is_allowed_ansi(expr->type, type)
                                     : dl_sql_cast_is_allowed(expr->type, type);
    if (!allowed) {
        char from[128];
        char to[128];
        (void)type_text(expr->type, from, sizeof(from));
        (void)type_text(type, to, sizeof(to));
        DL_SQL_BIND_FAIL(b, expr->loc, DL_ERR_SQL_BIND, err,
                         "[DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION] cannot cast %s to %s", from,
                         to);
    }
    return new_cast(b, expr, type, mode, NULL, out, err);
}

dl_status
dl_sql_binder_cast(dl_sql_binder *b, dl_sql_bexpr *expr, const dl_type *type, dl_sql_bexpr **out,
                   dl_error *err) {
    dl_sql_cast_mode mode = b->exec->env.ansi ? DL_SQL_CAST_ANSI : DL_SQL_CAST_LEGACY;
    return cast_with_mode(b, expr, type, mode, out, err);
}

static void
upper(char *s) {
    for (; *s != '\0'; s++) {
        if (*s >= 'a' && *s <= 'z') {
            *s = (char)(*s - 'a' + 'A');
        }
    }
}

static dl_status
store_refused(dl_sql_binder *b, const dl_sql_bexpr *expr, const dl_type *type,
              dl_sql_store_policy policy, dl_error *err) {
    char from[128];
    char to[128];
    (void)type_text(expr->type, from, sizeof(from));
    (void)type_text(type, to, sizeof(to));
    upper(from);
    upper(to);
    const char *what = expr->name != NULL ? expr->name : "the value";
    if (policy == DL_SQL_STORE_STRICT) {
        (void)dl_sql_binder_fail(b, expr->loc, DL_ERR_SQL_BIND, err,
                                 "[CANNOT_UP_CAST_DATATYPE] Cannot up cast %s from \"%s\" to "
                                 "\"%s\"",
                                 what, from, to);
        dl_error_hint(err, "add an explicit cast to the input data, or set "
                           "spark.sql.storeAssignmentPolicy to ANSI");
        return DL_ERR_SQL_BIND;
    }
    (void)dl_sql_binder_fail(b, expr->loc, DL_ERR_SQL_BIND, err,
                             "[DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION] cannot cast \"%s\" "
                             "to \"%s\" with ANSI mode on",
                             from, to);
    dl_error_hint(err, "cast the value explicitly, or set spark.sql.storeAssignmentPolicy to "
                       "LEGACY to store it as the non-ANSI CAST does");
    return DL_ERR_SQL_BIND;
}

dl_status
dl_sql_binder_store_cast(dl_sql_binder *b, dl_sql_bexpr *expr, const dl_type_field *col,
                         const char *table, dl_sql_bexpr **out, dl_error *err) {
    const dl_type *type = col->type;
    if (dl_vec_type_equal(expr->type, type)) {
        *out = expr;
        return DL_OK;
    }
    dl_sql_store_policy policy = dl_sql_session_store_policy(b->session);
    bool allowed = policy == DL_SQL_STORE_LEGACY   ? dl_sql_cast_is_allowed(expr->type, type)
                   : policy == DL_SQL_STORE_STRICT ? dl_sql_cast_is_upcast(expr->type, type)
                                                   : dl_sql_cast_is_allowed_ansi(expr->type, type);
    if (!allowed) {
        return store_refused(b, expr, type, policy, err);
    }
    dl_sql_store_target *target = dl_arena_alloc_zero(b->arena, sizeof(*target));
    DL_CHECK(target != NULL, err, DL_ERR_NOMEM, "out of memory binding a cast");
    target->column = col->name;
    target->table = table;
    dl_sql_cast_mode mode = policy == DL_SQL_STORE_LEGACY ? DL_SQL_CAST_LEGACY : DL_SQL_CAST_STORE;
    return new_cast(b, expr, type, mode, target, out, err);
}

dl_status
dl_sql_binder_common_type(dl_sql_binder *b, const dl_type *a, const dl_type *c, uint32_t loc,
                          const char *what, const dl_type **out, dl_error *err) {
    if (dl_vec_type_equal(a, c)) {
        *out = a;
        return DL_OK;
    }
    const dl_type *t = NULL;
    DL_TRY(dl_sql_type_common_ex(a, c, DL_SQL_COERCE_WIDER, b->exec->env.ansi, b->arena, &t, err));
    if (t == NULL) {
        char ta[128];
        char tc[128];
        (void)type_text(a, ta, sizeof(ta));
        (void)type_text(c, tc, sizeof(tc));
        DL_SQL_BIND_FAIL(b, loc, DL_ERR_SQL_BIND, err,
                         "[DATATYPE_MISMATCH.DATA_DIFF_TYPES] %s: %s and %s have no common "
                         "type",
                         what, ta, tc);
    }
    *out = t;
    return DL_OK;
}

/* ---- calls ---------------------------------------------------------------------------------- */

dl_status
dl_sql_binder_run_fn(dl_sql_binder *b, const dl_sql_fn_def *def, const char *name,
                     dl_sql_bexpr **args, int32_t n, dl_sql_fn_bind *fb, dl_error *err) {
    const dl_type **types = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(void *));
    const dl_type **cast_to = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(void *));
    dl_sql_fn_const *consts = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(*consts));
    DL_CHECK(types != NULL && cast_to != NULL && consts != NULL, err, DL_ERR_NOMEM,
             "out of memory binding %s", name);
    for (int32_t i = 0; i < n; i++) {
        types[i] = args[i]->type;
        if (args[i]->kind == DL_SQL_BEXPR_CONST) {
            consts[i].is_const = true;
            consts[i].is_null = dl_vec_is_null(args[i]->value, 0);
            consts[i].vec = args[i]->value;
            consts[i].is_literal = !args[i]->is_folded;
        }
    }
    *fb = (dl_sql_fn_bind){.name = name,
                           .n_args = n,
                           .arg_types = types,
                           .consts = consts,
                           .cast_to = cast_to,
                           .arena = b->arena,
                           .env = &b->exec->env};
    return def->bind(fb, err);
}

dl_status
dl_sql_binder_call(dl_sql_binder *b, const dl_sql_fn_def *def, const char *name,
                   dl_sql_bexpr **args, int32_t n_args, uint32_t loc, dl_sql_bexpr **out,
                   dl_error *err) {
    if (n_args < def->min_args || (def->max_args >= 0 && n_args > def->max_args)) {
        DL_SQL_BIND_FAIL(b, loc, DL_ERR_SQL_BIND, err,
                         "[WRONG_NUM_ARGS] function %s takes %d%s%s arguments, %d given", name,
                         (int)def->min_args,
                         def->max_args == def->min_args ? ""
                                                        : (def->max_args < 0 ? " or more" : " to "),
                         def->max_args == def->min_args || def->max_args < 0
                             ? ""
                             : dl_arena_printf(b->arena, "%d", (int)def->max_args),
                         (int)n_args);
    }
    dl_sql_fn_bind fb = {0};
    dl_status s = dl_sql_binder_run_fn(b, def, name, args, n_args, &fb, err);
    if (s != DL_OK) {
        if (err != NULL && err->offset < 0) {
            dl_sql_binder_locate(b, loc, err);
        }
        return s;
    }
    dl_sql_bexpr *e = dl_sql_bexpr_new(b, DL_SQL_BEXPR_CALL, fb.ret_type, loc, n_args);
    DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding %s", name);
    for (int32_t i = 0; i < n_args; i++) {
        e->args[i] = args[i];
        if (fb.cast_to[i] != NULL) {
            dl_sql_cast_mode mode = fb.is_try_cast      ? DL_SQL_CAST_TRY
                                    : b->exec->env.ansi ? DL_SQL_CAST_ANSI
                                                        : DL_SQL_CAST_LEGACY;
            DL_TRY(cast_with_mode(b, args[i], fb.cast_to[i], mode, &e->args[i], err));
        }
    }
    e->fn = def;
    e->bind_data = fb.bind_data;
    e->is_volatile = def->is_volatile;
    *out = e;
    if (def->kind == DL_SQL_FN_SCALAR) {
        dl_sql_binder_fold(b, out);
    }
    return DL_OK;
}

static void
release_rows(void *ctx) {
    dl_sql_rows_destroy(ctx);
}

static dl_status
produce_rows(void *ctx, dl_sql_rows *out, dl_error *err) {
    return dl_sql_rows_move_append(out, ctx, err);
}

dl_status
dl_sql_plan_rows(dl_sql_binder *b, dl_sql_rows *rows, dl_sql_plan **out, dl_error *err) {
    dl_sql_rows *kept = dl_arena_memdup(b->arena, rows, sizeof(*rows));
    if (kept == NULL) {
        dl_sql_rows_destroy(rows);
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory keeping rows");
    }
    dl_status s = dl_arena_on_reset(b->arena, release_rows, kept, err);
    if (s != DL_OK) {
        dl_sql_rows_destroy(kept);
        return s;
    }
    const dl_type *t = kept->schema;
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(b->arena, DL_SQL_PLAN_ROWS, t->fields, t->n_fields, &p, err));
    p->u.rows.produce = produce_rows;
    p->u.rows.ctx = kept;
    p->est_rows = (double)kept->count;
    *out = p;
    return DL_OK;
}

dl_status
dl_sql_plan_strings(dl_sql_binder *b, const char *const *names, int32_t n_cols,
                    const char *const *values, int64_t n_rows, dl_sql_plan **out, dl_error *err) {
    dl_type_field *cols = dl_arena_alloc_zero(b->arena, (size_t)(n_cols + 1) * sizeof(*cols));
    DL_CHECK(cols != NULL, err, DL_ERR_NOMEM, "out of memory building rows");
    for (int32_t c = 0; c < n_cols; c++) {
        cols[c] = (dl_type_field){
            .name = names[c], .type = dl_vec_type_prim(DL_VEC_TYPE_STRING), .is_nullable = true};
    }
    const dl_type *schema = NULL;
    DL_TRY(dl_vec_type_struct(b->arena, cols, n_cols, &schema, err));
    dl_sql_rows rows;
    dl_sql_rows_init(&rows, b->exec->alloc, schema);
    dl_status s = DL_OK;
    for (int64_t r = 0; r < n_rows && s == DL_OK; r++) {
        dl_batch *tail = NULL;
        s = dl_sql_rows_tail(&rows, &tail, err);
        for (int32_t c = 0; c < n_cols && s == DL_OK; c++) {
            const char *v = values[r * n_cols + (int64_t)c];
            s = v == NULL ? dl_vec_append_null(tail->cols[c], err)
                          : dl_vec_append_str(tail->cols[c], v, strlen(v), err);
        }
        if (s == DL_OK) {
            dl_sql_rows_commit_row(&rows);
        }
    }
    if (s != DL_OK) {
        dl_sql_rows_destroy(&rows);
        return s;
    }
    return dl_sql_plan_rows(b, &rows, out, err);
}

dl_status
dl_sql_binder_const_i64(dl_sql_binder *b, dl_sql_bexpr *e, const dl_type *want, int64_t *out,
                        bool *out_is_null, dl_error *err) {
    DL_TRY(dl_sql_binder_cast(b, e, want, &e, err));
    dl_vector *v = NULL;
    DL_TRY(dl_sql_binder_eval(b, e, &v, err));
    *out_is_null = dl_vec_is_null(v, 0);
    *out = *out_is_null ? 0 : dl_sql_vec_i64(v, 0);
    dl_vec_unref(v);
    return DL_OK;
}
