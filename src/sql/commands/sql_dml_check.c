/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CHECK constraints (PROTOCOL.md "Check Constraints"; Delta's Constraints.scala and
 * DeltaInvariantCheckerExec) (sql_dml.h).
 *
 * A constraint is the table property delta.constraints.<name> (the name lower-cased) whose
 * value is the SQL expression as its author wrote it. Every row a writer adds must make every
 * constraint TRUE: FALSE and NULL both violate it (Delta's CheckDeltaInvariant), and the
 * statement fails with DELTA_VIOLATE_CONSTRAINT_WITH_VALUES naming the constraint, its
 * expression and the values of the columns it reads, before anything commits.
 *
 * Enforcement sits in the data-file writer: dl_sql_dml_writer installs dl_sql_dml_checks_run
 * as the writer's row check, so INSERT, CTAS, overwrite, UPDATE, MERGE and COPY INTO (all of
 * them write through it) check the rows they produce; OPTIMIZE and the change data files do
 * not (they write rows the table already holds).
 *
 * ALTER TABLE t ADD CONSTRAINT c CHECK (expr) counts the existing rows that violate expr first
 * (DELTA_NEW_CHECK_CONSTRAINT_VIOLATION) and commits a metaData with the property (and the
 * checkConstraints feature: writer version 3, through delta_txn's protocol choice), operation
 * ADD CONSTRAINT with parameters name and expr. DROP CONSTRAINT [IF EXISTS] c removes it
 * (DELTA_CONSTRAINT_DOES_NOT_EXIST without IF EXISTS), operation DROP CONSTRAINT with name,
 * expr and existed.
 */
#include <string.h>

#include "sql/commands/sql_dml.h"
#include "sql/parse/sql_parse.h"

#define CHECK_PREFIX "delta.constraints."

/* One constraint bound over the table's columns. */
typedef struct check_rule {
    const char *name;  /* as the property names it (lower case) */
    const char *text;  /* the expression as stored */
    const char *sql;   /* ... as Spark prints it in a violation: "(a > -100)" */
    dl_sql_eval *eval; /* the BOOLEAN expression */
    int32_t *cols;     /* the columns it reads, first mention first */
    int32_t n_cols;
} check_rule;

struct dl_sql_dml_checks {
    check_rule *rules;
    int32_t n;
    const dl_type *schema; /* the table's columns */
    dl_sql_exec_ctx *exec;
};

static void
free_eval(void *ctx) {
    dl_sql_eval_free(ctx);
}

/* The table's columns as a scope (unqualified names). */
static dl_status
table_scope(dl_sql_binder *b, const dl_type *schema, dl_sql_scope *out, dl_error *err) {
    *out = (dl_sql_scope){0};
    out->cols = dl_arena_alloc_zero(b->arena, (size_t)(schema->n_fields + 1) * sizeof(dl_sql_bcol));
    DL_CHECK(out->cols != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < schema->n_fields; i++) {
        out->cols[i] = (dl_sql_bcol){
            .name = schema->fields[i].name, .type = schema->fields[i].type, .index = i};
    }
    out->n = schema->n_fields;
    return DL_OK;
}

/* Appends the columns e reads to r->cols (each once); refuses subqueries (Delta allows
 * non-deterministic calls such as rand() and so does deltalite). */
static dl_status
collect_columns(dl_sql_binder *b, const dl_sql_bexpr *e, check_rule *r, int32_t cap,
                dl_error *err) {
    if (e->kind == DL_SQL_BEXPR_SUBQUERY || e->kind == DL_SQL_BEXPR_OUTER) {
        DL_SQL_BIND_FAIL(b, e->loc, DL_ERR_SQL_BIND, err,
                         "[DELTA_UNSUPPORTED_SUBQUERY_IN_CHECK_CONSTRAINT] CHECK constraint %s "
                         "(%s) cannot hold a subquery",
                         r->name, r->text);
    }
    if (e->kind == DL_SQL_BEXPR_COLUMN) {
        for (int32_t i = 0; i < r->n_cols; i++) {
            if (r->cols[i] == e->index) {
                return DL_OK;
            }
        }
        if (r->n_cols < cap) {
            r->cols[r->n_cols++] = e->index;
        }
        return DL_OK;
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        if (e->args[i] != NULL) {
            DL_TRY(collect_columns(b, e->args[i], r, cap, err));
        }
    }
    return DL_OK;
}

dl_status
dl_sql_dml_check_bind(dl_sql_binder *b, const dl_type *schema, const char *name, const char *text,
                      const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_scope scope;
    DL_TRY(table_scope(b, schema, &scope, err));
    dl_sql_bctx cx = {.b = b, .scope = &scope, .clause = "CHECK constraint"};
    dl_status s = dl_sql_binder_expr(&cx, ast, out, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "CHECK constraint %s", name);
        return s;
    }
    if ((*out)->type->id != DL_VEC_TYPE_BOOLEAN) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[DELTA_NON_BOOLEAN_CHECK_CONSTRAINT] CHECK constraint '%s' (%s) should "
                         "be a boolean expression.",
                         name, text);
    }
    return DL_OK;
}

/* The expression as Spark's Expression.sql prints it: the canonical form, in parentheses. */
static const char *
expr_sql(dl_sql_binder *b, const dl_sql_expr *ast) {
    const char *text = dl_sql_dml_expr_text(b, ast);
    int depth = 0;
    bool is_wrapped = text[0] == '(';
    for (size_t i = 0; text[i] != '\0' && is_wrapped; i++) {
        depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
        is_wrapped = depth > 0 || text[i + 1] == '\0';
    }
    if (is_wrapped) {
        return text;
    }
    const char *wrapped = dl_arena_printf(b->arena, "(%s)", text);
    return wrapped != NULL ? wrapped : text;
}

/* Binds the stored constraint text of r over schema. Locations in messages are those of the
 * text, so the binder reads the text while it binds. */
static dl_status
bind_stored(dl_sql_binder *b, const dl_type *schema, check_rule *r, dl_sql_bexpr **out,
            dl_error *err) {
    dl_sql_expr *ast = NULL;
    dl_status s = dl_sql_parse_expr_text(b->arena, r->text, strlen(r->text), &ast, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "CHECK constraint %s of the table cannot be read", r->name);
        return s;
    }
    const char *text = b->text;
    size_t text_len = b->text_len;
    b->text = r->text;
    b->text_len = strlen(r->text);
    r->sql = expr_sql(b, ast);
    s = dl_sql_dml_check_bind(b, schema, r->name, r->text, ast, out, err);
    b->text = text;
    b->text_len = text_len;
    return s;
}

static dl_status
rule_init(dl_sql_binder *b, const dl_type *schema, const dl_delta_kv *kv, check_rule *r,
          dl_error *err) {
    r->name = kv->key + strlen(CHECK_PREFIX);
    r->text = kv->value != NULL ? kv->value : "";
    dl_sql_bexpr *e = NULL;
    DL_TRY(bind_stored(b, schema, r, &e, err));
    r->cols = dl_arena_alloc_zero(b->arena, (size_t)(schema->n_fields + 1) * sizeof(int32_t));
    DL_CHECK(r->cols != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(collect_columns(b, e, r, schema->n_fields, err));
    DL_TRY(dl_sql_eval_new(b->exec, e, &r->eval, err));
    dl_status s = dl_arena_on_reset(b->arena, free_eval, r->eval, err);
    if (s != DL_OK) {
        dl_sql_eval_free(r->eval);
    }
    return s;
}

bool
dl_sql_dml_is_check_key(const char *key) {
    return key != NULL && strncmp(key, CHECK_PREFIX, strlen(CHECK_PREFIX)) == 0;
}

dl_status
dl_sql_dml_checks_new(dl_sql_binder *b, const dl_type *schema, const dl_delta_kv *conf,
                      int32_t n_conf, dl_sql_dml_checks **out, dl_error *err) {
    *out = NULL;
    int32_t n = 0;
    for (int32_t i = 0; i < n_conf; i++) {
        n += dl_sql_dml_is_check_key(conf[i].key) ? 1 : 0;
    }
    if (n == 0) {
        return DL_OK;
    }
    dl_sql_dml_checks *c = dl_arena_alloc_zero(b->arena, sizeof(*c));
    DL_CHECK(c != NULL, err, DL_ERR_NOMEM, "out of memory");
    c->rules = dl_arena_alloc_zero(b->arena, (size_t)n * sizeof(check_rule));
    DL_CHECK(c->rules != NULL, err, DL_ERR_NOMEM, "out of memory");
    c->schema = schema;
    c->exec = b->exec;
    for (int32_t i = 0; i < n_conf; i++) {
        if (dl_sql_dml_is_check_key(conf[i].key)) {
            DL_TRY(rule_init(b, schema, &conf[i], &c->rules[c->n], err));
            c->n++;
        }
    }
    *out = c;
    return DL_OK;
}

/* Appends " - col : value" lines for the columns r reads, row `row` of batch. */
static dl_status
value_lines(const dl_sql_dml_checks *c, const check_rule *r, const dl_batch *batch, int64_t row,
            dl_buf *out, dl_error *err) {
    const dl_type *str = dl_vec_type_prim(DL_VEC_TYPE_STRING);
    for (int32_t i = 0; i < r->n_cols; i++) {
        const dl_vector *col = batch->cols[r->cols[i]];
        DL_TRY(dl_buf_appendf(out, err, "\n - %s : ", c->schema->fields[r->cols[i]].name));
        if (dl_vec_is_null(col, row)) {
            DL_TRY(dl_buf_append_cstr(out, "null", err));
            continue;
        }
        const dl_vector *flat = NULL;
        int64_t idx = dl_vec_resolve(col, row, &flat);
        dl_vector *one = NULL;
        DL_TRY(dl_vec_slice(flat, idx, 1, &one, err));
        dl_vector *text = NULL;
        dl_status s = dl_vec_new(c->exec->alloc, str, 1, &text, err);
        s = s == DL_OK ? dl_sql_cast(&c->exec->env, DL_SQL_CAST_LEGACY, one, 1, text, err) : s;
        if (s == DL_OK) {
            dl_str v = dl_vec_get_str(text, 0);
            s = dl_buf_append(out, v.ptr, v.len, err);
        }
        dl_vec_unref(text);
        dl_vec_unref(one);
        DL_TRY(s);
    }
    return DL_OK;
}

/* DELTA_VIOLATE_CONSTRAINT_WITH_VALUES for live row `row` of batch. */
static dl_status
violated(const dl_sql_dml_checks *c, const check_rule *r, const dl_batch *batch, int64_t row,
         dl_error *err) {
    dl_buf msg;
    dl_buf_init(&msg, c->exec->alloc);
    dl_status s = dl_buf_appendf(&msg, err,
                                 "[DELTA_VIOLATE_CONSTRAINT_WITH_VALUES] CHECK constraint %s %s "
                                 "violated by row with values:",
                                 r->name, r->sql);
    s = s == DL_OK ? value_lines(c, r, batch, row, &msg, err) : s;
    if (s == DL_OK) {
        s = dl_error_set(err, DL_ERR_CONSTRAINT, "%s", dl_buf_cstr(&msg));
    }
    dl_buf_destroy(&msg);
    return s;
}

dl_status
dl_sql_dml_checks_run(void *ctx, const dl_batch *batch, dl_error *err) {
    const dl_sql_dml_checks *c = ctx;
    for (int32_t i = 0; i < c->n; i++) {
        const check_rule *r = &c->rules[i];
        dl_vector *res = NULL;
        DL_TRY(dl_sql_eval_run(r->eval, batch, &res, err));
        int64_t bad = -1;
        for (int64_t k = 0; k < batch->count && bad < 0; k++) {
            const dl_vector *flat = NULL;
            int64_t idx = dl_vec_resolve(res, k, &flat);
            if (dl_vec_is_null(res, k) || !dl_vec_get_bool(flat, idx)) {
                bad = k;
            }
        }
        dl_vec_unref(res);
        if (bad >= 0) {
            return violated(c, r, batch, dl_vec_batch_row(batch, bad), err);
        }
    }
    return DL_OK;
}

/* ---- ALTER TABLE ADD / DROP CONSTRAINT ----------------------------------------------------- */

/* The property key of constraint name (Delta lower-cases it). */
static const char *
check_key(dl_sql_binder *b, dl_str name) {
    size_t n = strlen(CHECK_PREFIX);
    char *key = dl_arena_alloc(b->arena, n + name.len + 1);
    if (key != NULL) {
        memcpy(key, CHECK_PREFIX, n);
        for (size_t i = 0; i < name.len; i++) {
            char ch = name.ptr[i];
            key[n + i] = (char)(ch >= 'A' && ch <= 'Z' ? ch + ('a' - 'A') : ch);
        }
        key[n + name.len] = '\0';
    }
    return key;
}

static int32_t
conf_index(const dl_delta_metadata *md, const char *key) {
    for (int32_t i = 0; i < md->n_configuration; i++) {
        if (strcmp(md->configuration[i].key, key) == 0) {
            return i;
        }
    }
    return -1;
}

static dl_status
count_rows(void *ctx, const dl_batch *batch, dl_error *err) {
    (void)err;
    *(int64_t *)ctx += batch->count;
    return DL_OK;
}

/* How many rows of t make cond (bound over its columns) FALSE or NULL. */
static dl_status
count_violations(dl_sql_binder *b, const dl_sql_dml_target *t, dl_sql_bexpr *cond, uint32_t loc,
                 int64_t *out, dl_error *err) {
    *out = 0;
    dl_sql_plan *scan = NULL;
    DL_TRY(dl_sql_plan_delta_scan(b, dl_delta_snapshot_ref(t->snap), t->display, loc, &scan, err));
    dl_sql_bexpr *not_true =
        dl_sql_bexpr_new(b, DL_SQL_BEXPR_IS, dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN), loc, 1);
    DL_CHECK(not_true != NULL, err, DL_ERR_NOMEM, "out of memory");
    not_true->args[0] = cond;
    not_true->is_kind = DL_SQL_BIS_TRUE;
    not_true->is_not = true;
    dl_sql_plan *plan = NULL;
    DL_TRY(dl_sql_filter_over(b->arena, scan, &not_true, 1, &plan, err));
    return dl_sql_plan_run(b->exec, plan, -1, count_rows, out, err);
}

/* The metaData with conf[at] removed (at < 0: nothing removed) and kv added (NULL: none). */
static dl_status
next_metadata(dl_sql_binder *b, const dl_delta_metadata *md, int32_t at, const dl_delta_kv *kv,
              dl_delta_metadata *out, dl_error *err) {
    *out = *md;
    dl_delta_kv *conf =
        dl_arena_alloc_zero(b->arena, (size_t)(md->n_configuration + 1) * sizeof(dl_delta_kv));
    DL_CHECK(conf != NULL, err, DL_ERR_NOMEM, "out of memory");
    int32_t n = 0;
    for (int32_t i = 0; i < md->n_configuration; i++) {
        if (i != at) {
            conf[n++] = md->configuration[i];
        }
    }
    if (kv != NULL) {
        conf[n++] = *kv;
    }
    out->configuration = conf;
    out->n_configuration = n;
    return DL_OK;
}

static dl_status
commit_change(dl_sql_dml_target *t, dl_delta_op op, const dl_delta_metadata *next, const char *name,
              const char *expr, const char *existed, dl_error *err) {
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(t->table, t->snap, NULL, &tx, err));
    dl_delta_tx_set_operation(tx, op);
    dl_status s = dl_delta_tx_param_string(tx, "name", name, err);
    if (s == DL_OK && expr != NULL) {
        s = dl_delta_tx_param_string(tx, "expr", expr, err);
    }
    if (s == DL_OK && existed != NULL) {
        s = dl_delta_tx_param_string(tx, "existed", existed, err);
    }
    s = s == DL_OK ? dl_delta_tx_set_metadata(tx, next, err) : s;
    if (s != DL_OK) {
        dl_delta_tx_free(tx);
        return s;
    }
    return dl_sql_dml_commit(tx, NULL, err);
}

static dl_status
add_constraint(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_dml_target *t, dl_error *err) {
    const dl_sql_check *c = &stmt->u.alter.constraint;
    const dl_delta_metadata *md = dl_delta_snapshot_metadata(t->snap);
    dl_delta_kv kv = {.key = check_key(b, c->name.name),
                      .value = dl_arena_strndup(b->arena, c->text.ptr, c->text.len)};
    DL_CHECK(kv.key != NULL && kv.value != NULL, err, DL_ERR_NOMEM, "out of memory");
    const char *name = kv.key + strlen(CHECK_PREFIX);
    int32_t at = conf_index(md, kv.key);
    if (at >= 0) {
        DL_SQL_BIND_FAIL(b, c->name.loc, DL_ERR_CONSTRAINT, err,
                         "[DELTA_CONSTRAINT_ALREADY_EXISTS] Constraint '%s' already exists. "
                         "Please delete the old constraint first.\nOld constraint:\n%s",
                         name, md->configuration[at].value);
    }
    dl_sql_bexpr *cond = NULL;
    DL_TRY(dl_sql_dml_check_bind(b, t->schema, name, kv.value, c->check, &cond, err));
    check_rule probe = {.name = name, .text = kv.value};
    probe.cols = dl_arena_alloc_zero(b->arena, (size_t)(t->schema->n_fields + 1) * sizeof(int32_t));
    DL_CHECK(probe.cols != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(collect_columns(b, cond, &probe, t->schema->n_fields, err));
    int64_t bad = 0;
    DL_TRY(count_violations(b, t, cond, stmt->loc, &bad, err));
    if (bad > 0) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_CONSTRAINT, err,
                         "[DELTA_NEW_CHECK_CONSTRAINT_VIOLATION] %lld rows in %s violate the new "
                         "CHECK constraint (%s)",
                         (long long)bad, t->display, kv.value);
    }
    dl_delta_metadata next;
    DL_TRY(next_metadata(b, md, -1, &kv, &next, err));
    return commit_change(t, DL_DELTA_OP_ADD_CONSTRAINT, &next, name, kv.value, NULL, err);
}

static dl_status
drop_constraint(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_dml_target *t, dl_error *err) {
    const dl_sql_check *c = &stmt->u.alter.constraint;
    const dl_delta_metadata *md = dl_delta_snapshot_metadata(t->snap);
    const char *key = check_key(b, c->name.name);
    DL_CHECK(key != NULL, err, DL_ERR_NOMEM, "out of memory");
    const char *name = key + strlen(CHECK_PREFIX);
    int32_t at = conf_index(md, key);
    if (at < 0 && !stmt->u.alter.if_exists) {
        DL_SQL_BIND_FAIL(b, c->name.loc, DL_ERR_NOT_FOUND, err,
                         "[DELTA_CONSTRAINT_DOES_NOT_EXIST] Cannot drop nonexistent constraint "
                         "%s from table %s. To avoid throwing an error, provide the parameter IF "
                         "EXISTS or set the SQL session configuration "
                         "spark.databricks.delta.constraints.assumesDropIfExists.enabled to true.",
                         name, t->display);
    }
    dl_delta_metadata next;
    DL_TRY(next_metadata(b, md, at, NULL, &next, err));
    const char *expr = at >= 0 ? md->configuration[at].value : NULL;
    const char *as_written = dl_arena_strndup(b->arena, c->name.name.ptr, c->name.name.len);
    DL_CHECK(as_written != NULL, err, DL_ERR_NOMEM, "out of memory");
    return commit_change(t, DL_DELTA_OP_DROP_CONSTRAINT, &next, as_written, expr,
                         at >= 0 ? "true" : "false", err);
}

dl_status
dl_sql_dml_alter_constraint(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    dl_sql_dml_target t;
    DL_TRY(dl_sql_dml_open(b, &stmt->u.alter.table, stmt->loc, &t, err));
    if (stmt->u.alter.kind == DL_SQL_ALTER_ADD_CONSTRAINT) {
        return add_constraint(b, stmt, &t, err);
    }
    return drop_constraint(b, stmt, &t, err);
}
