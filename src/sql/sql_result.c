/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Statements and results (sql_engine.h): dl_sql_exec parses one statement into the result's
 * arena, binds and plans a query lazily executed by dl_sql_result_next, or runs a statement
 * that returns no rows (SET, USE, CREATE SCHEMA, COPY) right away. Statements that change
 * tables are refused with UNSUPPORTED naming the statement until the write side lands.
 */
#include <string.h>
#include <time.h>

#include "sql/bind/sql_bind_int.h"
#include "sql/commands/sql_dml.h"
#include "sql/sql_engine.h"

struct dl_sql_result {
    dl_sql_session *session;
    dl_sql_stmt_kind kind;
    dl_arena arena; /* statement lifetime: tree, plan, types, operators */
    dl_sql_exec_ctx exec;
    dl_sql_plan *plan; /* NULL for statements without rows */
    const dl_type *schema;
    dl_sql_operator *root;
    void *local;
    dl_batch *batch;
    bool is_started;
    bool is_done;
    dl_status failed; /* DL_OK, or the status of the error that ended the result */
};

static int64_t
now_micros(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0) {
        return 0;
    }
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static dl_status
result_new(dl_sql_session *session, dl_sql_result **out, dl_error *err) {
    dl_sql_result *r = dl_mem_alloc_zero(session->alloc, sizeof(*r));
    DL_CHECK(r != NULL, err, DL_ERR_NOMEM, "out of memory starting a statement");
    r->session = session;
    dl_arena_init(&r->arena, session->alloc, 16384);
    dl_sql_exec_ctx *x = &r->exec;
    x->alloc = session->exec_alloc;
    x->arena = &r->arena;
    x->pool = session->pool;
    x->n_threads = session->pool != NULL ? dl_pool_n_workers(session->pool) + 1 : 1;
    x->store = session->store;
    atomic_init(&x->is_interrupted, false);
    atomic_store(&session->interrupt, false); /* an interrupt stops what runs, not what follows */
    x->session_interrupt = &session->interrupt;
    atomic_store(&session->progress_done, 0);
    atomic_store(&session->progress_total, 0);
    x->progress_done = &session->progress_done;
    x->progress_total = &session->progress_total;
    x->env.ansi = dl_sql_session_is_ansi(session);
    const char *tz = dl_sql_session_get(session, "spark.sql.session.timeZone");
    x->env.time_zone = dl_arena_strndup(&r->arena, tz, strlen(tz));
    x->env.now_us = now_micros();
    x->env.alloc = session->alloc;
    *out = r;
    if (x->env.time_zone == NULL) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory starting a statement");
    }
    return DL_OK;
}

void
dl_sql_result_free(dl_sql_result *result) {
    if (result == NULL) {
        return;
    }
    if (result->root != NULL) {
        dl_sql_op_local_free(result->root, result->local);
        dl_sql_op_free(result->root);
    }
    dl_vec_batch_free(result->batch);
    dl_arena_destroy(&result->arena);
    dl_mem_free(result->session->alloc, result, sizeof(*result));
}

const dl_type *
dl_sql_result_schema(const dl_sql_result *result) {
    return result->schema;
}

void
dl_sql_session_progress(const dl_sql_session *session, int64_t *out_done, int64_t *out_total) {
    *out_done = atomic_load_explicit(&session->progress_done, memory_order_relaxed);
    *out_total = atomic_load_explicit(&session->progress_total, memory_order_relaxed);
}

bool
dl_sql_session_is_interrupted(const dl_sql_session *session) {
    return atomic_load(&session->interrupt);
}

void
dl_sql_result_interrupt(dl_sql_result *result) {
    if (result != NULL) {
        atomic_store(&result->exec.is_interrupted, true);
    }
}

dl_sql_stmt_kind
dl_sql_result_stmt_kind(const dl_sql_result *result) {
    return result->kind;
}

static dl_status
result_start(dl_sql_result *r, dl_error *err) {
    r->is_started = true;
    DL_TRY(dl_sql_op_build(&r->exec, r->plan, &r->root, err));
    DL_TRY(dl_sql_op_open(r->root, err));
    DL_TRY(dl_sql_op_local_new(r->root, &r->local, err));
    return dl_sql_batch_new(&r->exec, r->schema, &r->batch, err);
}

dl_status
dl_sql_result_next(dl_sql_result *result, const dl_batch **out, dl_error *err) {
    *out = NULL;
    if (result->failed != DL_OK) {
        DL_FAIL(err, result->failed, "the statement already failed");
    }
    if (result->is_done || result->plan == NULL) {
        return DL_OK;
    }
    dl_status s = DL_OK;
    if (!result->is_started) {
        s = result_start(result, err);
    }
    if (s == DL_OK) {
        s = dl_sql_op_next(result->root, result->local, result->batch, err);
    }
    if (s != DL_OK) {
        result->failed = s;
        return s;
    }
    if (result->batch->count == 0) {
        result->is_done = true;
        return DL_OK;
    }
    *out = result->batch;
    return DL_OK;
}

/* ---- running a plan to completion --------------------------------------------------------- */

/* ---- statements ---------------------------------------------------------------------------- */

static dl_status
bind_query_stmt(dl_sql_binder *b, dl_sql_result *r, const dl_sql_query *q, dl_error *err) {
    DL_TRY(dl_sql_binder_query(b, q, NULL, &r->plan, err));
    DL_TRY(dl_sql_optimize(r->exec.arena, &r->plan, err));
    r->schema = r->plan->schema;
    return DL_OK;
}

/* EXPLAIN's sections as Spark prints them (EXTENDED: the statement as parsed, the plan as
 * bound, as optimized, and as run; COST: the optimized plan with its estimates). The bound
 * plan is printed before the optimizer rewrites it in place. */
static dl_status
explain_text(dl_sql_binder *b, dl_sql_result *r, const dl_sql_stmt *stmt, dl_buf *text,
             dl_error *err) {
    dl_sql_explain_mode mode = stmt->u.explain.mode;
    const dl_sql_stmt *inner = stmt->u.explain.stmt;
    dl_sql_explain_opts logical = {.is_logical = true, .show_output = true};
    if (mode == DL_SQL_EXPLAIN_EXTENDED) {
        DL_TRY(dl_buf_append_cstr(text, "== Parsed Logical Plan ==\n", err));
        DL_TRY(dl_sql_stmt_print(inner, text, err));
        DL_TRY(dl_buf_append_cstr(text, "\n\n== Analyzed Logical Plan ==\n", err));
    }
    DL_TRY(dl_sql_binder_query(b, inner->u.query, NULL, &r->plan, err));
    if (mode == DL_SQL_EXPLAIN_EXTENDED) {
        logical.show_types = true;
        DL_TRY(dl_sql_plan_explain_tree(r->plan, &logical, text, err));
        logical.show_types = false;
    }
    DL_TRY(dl_sql_optimize(r->exec.arena, &r->plan, err));
    if (mode == DL_SQL_EXPLAIN_ANALYZE) {
        return dl_sql_explain_analyze(&r->exec, r->plan, text, err);
    }
    if (mode == DL_SQL_EXPLAIN_EXTENDED || mode == DL_SQL_EXPLAIN_COST) {
        logical.show_est = mode == DL_SQL_EXPLAIN_COST;
        DL_TRY(dl_buf_append_cstr(text, mode == DL_SQL_EXPLAIN_COST ? "" : "\n", err));
        DL_TRY(dl_buf_append_cstr(text, "== Optimized Logical Plan ==\n", err));
        DL_TRY(dl_sql_plan_explain_tree(r->plan, &logical, text, err));
        DL_TRY(dl_buf_append_cstr(text, "\n", err));
    }
    if (mode == DL_SQL_EXPLAIN_CODEGEN) {
        DL_TRY(dl_buf_append_cstr(text,
                                  "Found 0 WholeStageCodegen subtrees (deltalite runs "
                                  "vectorized operators, it generates no code).\n",
                                  err));
    }
    dl_sql_explain_opts physical = {.show_est = true,
                                    .is_numbered = mode == DL_SQL_EXPLAIN_FORMATTED};
    DL_TRY(dl_buf_append_cstr(text, "== Physical Plan ==\n", err));
    return dl_sql_explain_plan(&r->exec, r->plan, &physical, text, err);
}

static dl_status
exec_explain(dl_sql_binder *b, dl_sql_result *r, const dl_sql_stmt *stmt, dl_error *err) {
    const dl_sql_stmt *inner = stmt->u.explain.stmt;
    if (inner->kind != DL_SQL_STMT_QUERY) {
        DL_SQL_BIND_FAIL(b, inner->loc, DL_ERR_UNSUPPORTED, err,
                         "EXPLAIN of %s is not supported (only of queries)",
                         dl_sql_stmt_kind_name(inner->kind));
    }
    dl_buf text;
    dl_buf_init(&text, r->session->alloc);
    dl_status s = explain_text(b, r, stmt, &text, err);
    const char *plan_text =
        s == DL_OK ? dl_arena_strndup(&r->arena, (const char *)text.data, text.len) : NULL;
    dl_buf_destroy(&text);
    DL_TRY(s);
    DL_CHECK(plan_text != NULL, err, DL_ERR_NOMEM, "out of memory explaining");
    const char *col = "plan";
    return dl_sql_plan_strings(b, &col, 1, &plan_text, 1, &r->plan, err);
}

/* Whether the statement writes files (VACUUM DRY RUN only lists them). */
static bool
is_write(const dl_sql_stmt *stmt) {
    switch (stmt->kind) {
    case DL_SQL_STMT_QUERY:
    case DL_SQL_STMT_EXPLAIN:
    case DL_SQL_STMT_SET:
    case DL_SQL_STMT_RESET:
    case DL_SQL_STMT_USE:
    case DL_SQL_STMT_SHOW:
    case DL_SQL_STMT_DESCRIBE_HISTORY:
    case DL_SQL_STMT_DESCRIBE_DETAIL:
    case DL_SQL_STMT_DESCRIBE_TABLE:
    case DL_SQL_STMT_CACHE:
        return false;
    case DL_SQL_STMT_CREATE_VIEW:
        return !stmt->u.create_view.is_temp;
    case DL_SQL_STMT_DROP:
        return stmt->u.drop.object != DL_SQL_OBJ_VIEW || stmt->u.drop.name.n_parts != 1;
    case DL_SQL_STMT_VACUUM:
        return !stmt->u.vacuum.is_dry_run;
    default:
        return true;
    }
}

/* In a warehouse opened read-only, a statement that writes is refused before it starts, with
 * its name (the stores refuse every write too, under any path this check would miss). */
static dl_status
check_writable(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    if (b->session->store == NULL || !b->session->store->is_readonly || !is_write(stmt)) {
        return DL_OK;
    }
    dl_status s = dl_sql_binder_fail(b, stmt->loc, DL_ERR_READONLY, err,
                                     "%s writes files, and the warehouse is open read-only",
                                     dl_sql_stmt_kind_name(stmt->kind));
    dl_error_hint(err, "open it without -readonly (DELTALITE_OPEN_READONLY) to change it");
    return s;
}

static dl_status
exec_stmt(dl_sql_binder *b, dl_sql_result *r, const dl_sql_stmt *stmt, dl_error *err) {
    DL_TRY(check_writable(b, stmt, err));
    switch (stmt->kind) {
    case DL_SQL_STMT_QUERY:
        return bind_query_stmt(b, r, stmt->u.query, err);
    case DL_SQL_STMT_EXPLAIN:
        return exec_explain(b, r, stmt, err);
    case DL_SQL_STMT_SET:
    case DL_SQL_STMT_RESET:
    case DL_SQL_STMT_USE:
    case DL_SQL_STMT_CREATE_SCHEMA:
    case DL_SQL_STMT_SHOW:
        return dl_sql_exec_admin(b, stmt, &r->plan, err);
    case DL_SQL_STMT_DESCRIBE_HISTORY:
    case DL_SQL_STMT_DESCRIBE_DETAIL:
    case DL_SQL_STMT_DESCRIBE_TABLE:
        return dl_sql_binder_describe(b, stmt, &r->plan, err);
    case DL_SQL_STMT_COPY:
        return dl_sql_exec_copy(b, stmt, &r->plan, err);
    case DL_SQL_STMT_CREATE_VIEW:
        return dl_sql_exec_create_view(b, stmt, err);
    case DL_SQL_STMT_DROP:
        DL_TRY(dl_sql_exec_drop(b, stmt, &r->plan, err));
        r->exec.is_work_done = true;
        return DL_OK;
    case DL_SQL_STMT_TRUNCATE:
        DL_TRY(dl_sql_dml_truncate(b, stmt, err));
        r->exec.is_work_done = true;
        return DL_OK;
    case DL_SQL_STMT_CACHE:
        return dl_sql_exec_cache(b, stmt, &r->plan, err);
    case DL_SQL_STMT_CREATE_TABLE:
    case DL_SQL_STMT_INSERT:
    case DL_SQL_STMT_COPY_INTO:
    case DL_SQL_STMT_DELETE:
    case DL_SQL_STMT_UPDATE:
    case DL_SQL_STMT_MERGE:
    case DL_SQL_STMT_RESTORE:
    case DL_SQL_STMT_ALTER_TABLE:
    case DL_SQL_STMT_VACUUM:
    case DL_SQL_STMT_OPTIMIZE:
    case DL_SQL_STMT_CONVERT:
        DL_TRY(dl_sql_exec_dml(b, stmt, &r->plan, err));
        r->exec.is_work_done = true;
        return DL_OK;
    default:
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err, "%s is not supported yet",
                         dl_sql_stmt_kind_name(stmt->kind));
    }
}

/* Markers stand for values in queries and in the statements that change rows; a statement that
 * stores SQL text (a view, a constraint, a default) or names objects with them is refused, as
 * Spark's UNSUPPORTED_FEATURE.PARAMETER_MARKER_IN_UNEXPECTED_STATEMENT. */
static dl_status
check_markers(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    switch (stmt->kind) {
    case DL_SQL_STMT_QUERY:
    case DL_SQL_STMT_EXPLAIN:
    case DL_SQL_STMT_INSERT:
    case DL_SQL_STMT_UPDATE:
    case DL_SQL_STMT_DELETE:
    case DL_SQL_STMT_MERGE:
        return DL_OK;
    default:
        break;
    }
    if (stmt->n_params == 0) {
        return DL_OK;
    }
    DL_SQL_BIND_FAIL(b, stmt->params[0]->loc, DL_ERR_UNSUPPORTED, err,
                     "[UNSUPPORTED_FEATURE.PARAMETER_MARKER_IN_UNEXPECTED_STATEMENT] parameter "
                     "markers are not allowed in %s (only in queries, INSERT, UPDATE, DELETE "
                     "and MERGE)",
                     dl_sql_stmt_kind_name(stmt->kind));
}

dl_status
dl_sql_exec(dl_sql_session *session, const char *text, size_t len, dl_sql_result **out,
            dl_error *err) {
    return dl_sql_exec_params(session, text, len, NULL, out, err);
}

dl_status
dl_sql_exec_params(dl_sql_session *session, const char *text, size_t len,
                   const dl_sql_params *params, dl_sql_result **out, dl_error *err) {
    DL_CHECK(session != NULL && out != NULL && (text != NULL || len == 0), err, DL_ERR_INVALID_ARG,
             "dl_sql_exec: NULL argument");
    *out = NULL;
    if (err != NULL) {
        dl_error_clear(err);
    }
    dl_sql_result *r = NULL;
    dl_status s = result_new(session, &r, err);
    dl_sql_stmt *stmt = NULL;
    if (s == DL_OK) {
        s = dl_sql_parse_stmt(&r->arena, text, len, &stmt, err);
    }
    if (s == DL_OK) {
        r->kind = stmt->kind;
        dl_sql_binder b = {.session = session,
                           .arena = &r->arena,
                           .exec = &r->exec,
                           .text = text,
                           .text_len = len,
                           .stmt = stmt,
                           .params = params};
        s = check_markers(&b, stmt, err);
        if (s == DL_OK) {
            s = exec_stmt(&b, r, stmt, err);
        }
    }
    if (s == DL_OK && r->plan != NULL) {
        r->schema = r->plan->schema;
    } else if (s == DL_OK) {
        s = dl_vec_type_struct(&r->arena, NULL, 0, &r->schema, err);
    }
    if (s != DL_OK) {
        dl_sql_result_free(r);
        return s;
    }
    *out = r;
    return DL_OK;
}
