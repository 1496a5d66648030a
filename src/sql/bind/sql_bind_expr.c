/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Expression binding (sql_bind_int.h): parsed expressions to bound ones. Operators become calls
 * of the library's functions named by their symbol; AND/OR/NOT, IS, IN lists, BETWEEN, CASE,
 * COALESCE-like functions, casts, struct fields and subscripts are the engine's own nodes.
 */
#include <string.h>

#include "sql/bind/sql_bind_int.h"

static const dl_type *
boolean_type(void) {
    return dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN);
}

/* Binds every argument. */
static dl_status
bind_list(dl_sql_bctx *cx, const dl_sql_expr_list *list, dl_sql_bexpr ***out, dl_error *err) {
    dl_sql_bexpr **args = dl_arena_alloc_zero(cx->b->arena, (list->n + 1) * sizeof(void *));
    DL_CHECK(args != NULL, err, DL_ERR_NOMEM, "out of memory binding arguments");
    for (uint32_t i = 0; i < list->n; i++) {
        DL_TRY(dl_sql_binder_expr(cx, list->items[i], &args[i], err));
    }
    *out = args;
    return DL_OK;
}

/* Calls the library function `name` on bound args. */
static dl_status
call_named(dl_sql_binder *b, const char *name, dl_sql_bexpr **args, int32_t n, uint32_t loc,
           dl_sql_bexpr **out, dl_error *err) {
    const dl_sql_fn_def *def = dl_sql_binder_lookup(b, dl_str_from_cstr(name));
    if (def == NULL) {
        DL_SQL_BIND_FAIL(b, loc, DL_ERR_UNSUPPORTED, err,
                         "operator or function '%s' is not available", name);
    }
    return dl_sql_binder_call(b, def, name, args, n, loc, out, err);
}

dl_status
dl_sql_binder_cond(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_bexpr *e = NULL;
    DL_TRY(dl_sql_binder_expr(cx, ast, &e, err));
    if (e->type->id == DL_VEC_TYPE_BOOLEAN) {
        *out = e;
        return DL_OK;
    }
    if (e->type->id != DL_VEC_TYPE_NULL && e->type->id != DL_VEC_TYPE_STRING) {
        DL_SQL_BIND_FAIL(cx->b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[DATATYPE_MISMATCH] %s expects a boolean, got %s", cx->clause,
                         dl_vec_type_name(e->type->id));
    }
    return dl_sql_binder_cast(cx->b, e, boolean_type(), out, err);
}

/* ---- logic ------------------------------------------------------------------------------- */

/* Appends the operands of nested ANDs (or ORs) of ast to args. */
static dl_status
flatten_logic(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_op op, dl_sql_bexpr **args,
              int32_t *n, int32_t cap, dl_error *err) {
    if (ast->kind == DL_SQL_EXPR_BINARY && ast->u.binary.op == op && *n < cap - 1) {
        DL_TRY(flatten_logic(cx, ast->u.binary.left, op, args, n, cap, err));
        return flatten_logic(cx, ast->u.binary.right, op, args, n, cap, err);
    }
    return dl_sql_binder_cond(cx, ast, &args[(*n)++], err);
}

static dl_status
bind_logic(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    enum {
        CAP = 256
    };

    dl_sql_bexpr *args[CAP] = {0};
    int32_t n = 0;
    DL_TRY(flatten_logic(cx, ast, ast->u.binary.op, args, &n, CAP, err));
    bool is_and = ast->u.binary.op == DL_SQL_OP_AND;
    dl_sql_bexpr *e = dl_sql_bexpr_new(cx->b, is_and ? DL_SQL_BEXPR_AND : DL_SQL_BEXPR_OR,
                                       boolean_type(), ast->loc, n);
    DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding AND/OR");
    memcpy(e->args, args, (size_t)n * sizeof(void *));
    *out = e;
    dl_sql_binder_fold(cx->b, out);
    return DL_OK;
}

dl_sql_bexpr *
dl_sql_binder_not(dl_sql_binder *b, dl_sql_bexpr *arg, uint32_t loc) {
    dl_sql_bexpr *e = dl_sql_bexpr_new(b, DL_SQL_BEXPR_NOT, boolean_type(), loc, 1);
    if (e != NULL) {
        e->args[0] = arg;
        dl_sql_binder_fold(b, &e);
    }
    return e;
}

/* ---- operators ------------------------------------------------------------------------------ */

static const char *
op_symbol(dl_sql_op op) {
    static const char *const symbols[] = {
        [DL_SQL_OP_NEG] = "negate",
        [DL_SQL_OP_BITNOT] = "~",
        [DL_SQL_OP_EQ] = "=",
        [DL_SQL_OP_NSEQ] = "<=>",
        [DL_SQL_OP_NE] = "<>",
        [DL_SQL_OP_LT] = "<",
        [DL_SQL_OP_LE] = "<=",
        [DL_SQL_OP_GT] = ">",
        [DL_SQL_OP_GE] = ">=",
        [DL_SQL_OP_ADD] = "+",
        [DL_SQL_OP_SUB] = "-",
        [DL_SQL_OP_MUL] = "*",
        [DL_SQL_OP_DIV] = "/",
        [DL_SQL_OP_MOD] = "%",
        [DL_SQL_OP_INTDIV] = "div",
        [DL_SQL_OP_CONCAT] = "||",
        [DL_SQL_OP_BITAND] = "&",
        [DL_SQL_OP_BITOR] = "|",
        [DL_SQL_OP_BITXOR] = "^",
        [DL_SQL_OP_SHL] = "<<",
        [DL_SQL_OP_SHR] = ">>",
        [DL_SQL_OP_SHRU] = ">>>",
        [DL_SQL_OP_IS_DISTINCT] = "<=>",
        [DL_SQL_OP_IS_NOT_DISTINCT] = "<=>",
    };
    return symbols[op];
}

static dl_status
bind_binary(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_op op = ast->u.binary.op;
    if (op == DL_SQL_OP_AND || op == DL_SQL_OP_OR) {
        return bind_logic(cx, ast, out, err);
    }
    dl_sql_bexpr *args[2] = {0};
    DL_TRY(dl_sql_binder_expr(cx, ast->u.binary.left, &args[0], err));
    DL_TRY(dl_sql_binder_expr(cx, ast->u.binary.right, &args[1], err));
    DL_TRY(call_named(cx->b, op_symbol(op), args, 2, ast->loc, out, err));
    if (op == DL_SQL_OP_IS_DISTINCT) {
        *out = dl_sql_binder_not(cx->b, *out, ast->loc);
        DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory binding IS DISTINCT FROM");
    }
    return DL_OK;
}

static dl_status
bind_unary(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_op op = ast->u.unary.op;
    if (op == DL_SQL_OP_NOT) {
        dl_sql_bexpr *arg = NULL;
        DL_TRY(dl_sql_binder_cond(cx, ast->u.unary.arg, &arg, err));
        *out = dl_sql_binder_not(cx->b, arg, ast->loc);
        DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory binding NOT");
        return DL_OK;
    }
    if (op == DL_SQL_OP_NEG && ast->u.unary.arg->kind == DL_SQL_EXPR_LITERAL) {
        DL_TRY(dl_sql_binder_negative_literal(cx->b, ast->u.unary.arg, ast->loc, out, err));
        if (*out != NULL) {
            return DL_OK;
        }
    }
    dl_sql_bexpr *arg = NULL;
    DL_TRY(dl_sql_binder_expr(cx, ast->u.unary.arg, &arg, err));
    if (op == DL_SQL_OP_PLUS) {
        return call_named(cx->b, "positive", &arg, 1, ast->loc, out, err);
    }
    return call_named(cx->b, op_symbol(op), &arg, 1, ast->loc, out, err);
}

static dl_status
bind_is(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_bexpr *arg = NULL;
    dl_sql_is_test test = ast->u.is.test;
    if (test == DL_SQL_IS_NULL) {
        DL_TRY(dl_sql_binder_expr(cx, ast->u.is.arg, &arg, err));
    } else {
        DL_TRY(dl_sql_binder_cond(cx, ast->u.is.arg, &arg, err));
    }
    dl_sql_bexpr *e = dl_sql_bexpr_new(cx->b, DL_SQL_BEXPR_IS, boolean_type(), ast->loc, 1);
    DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding IS");
    e->args[0] = arg;
    e->is_not = ast->u.is.is_not;
    e->is_kind = test == DL_SQL_IS_TRUE    ? DL_SQL_BIS_TRUE
                 : test == DL_SQL_IS_FALSE ? DL_SQL_BIS_FALSE
                                           : DL_SQL_BIS_NULL;
    *out = e;
    dl_sql_binder_fold(cx->b, out);
    return DL_OK;
}

static dl_status
bind_between(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_bexpr *a[2] = {0};
    dl_sql_bexpr *lo[2] = {0};
    DL_TRY(dl_sql_binder_expr(cx, ast->u.between.arg, &a[0], err));
    DL_TRY(dl_sql_binder_expr(cx, ast->u.between.low, &a[1], err));
    DL_TRY(call_named(cx->b, ">=", a, 2, ast->loc, &lo[0], err));
    DL_TRY(dl_sql_binder_expr(cx, ast->u.between.arg, &a[0], err));
    DL_TRY(dl_sql_binder_expr(cx, ast->u.between.high, &a[1], err));
    DL_TRY(call_named(cx->b, "<=", a, 2, ast->loc, &lo[1], err));
    dl_sql_bexpr *e = dl_sql_bexpr_new(cx->b, DL_SQL_BEXPR_AND, boolean_type(), ast->loc, 2);
    DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding BETWEEN");
    e->args[0] = lo[0];
    e->args[1] = lo[1];
    *out = e;
    if (ast->u.between.is_not) {
        *out = dl_sql_binder_not(cx->b, e, ast->loc);
        DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory binding BETWEEN");
    }
    dl_sql_binder_fold(cx->b, out);
    return DL_OK;
}

/* Casts args[0..n) to their common type; *out_type receives it. */
static dl_status
coerce_all(dl_sql_binder *b, dl_sql_bexpr **args, int32_t n, uint32_t loc, const char *what,
           const dl_type **out_type, dl_error *err) {
    (void)loc;
    const dl_type *t = args[0]->type;
    for (int32_t i = 1; i < n; i++) {
        DL_TRY(dl_sql_binder_common_type(b, t, args[i]->type, args[i]->loc, what, &t, err));
    }
    for (int32_t i = 0; i < n; i++) {
        DL_TRY(dl_sql_binder_cast(b, args[i], t, &args[i], err));
    }
    *out_type = t;
    return DL_OK;
}

static dl_status
bind_in_list(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    int32_t n = (int32_t)ast->u.in_list.list.n + 1;
    dl_sql_bexpr *e = dl_sql_bexpr_new(cx->b, DL_SQL_BEXPR_IN_LIST, boolean_type(), ast->loc, n);
    DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding IN");
    DL_TRY(dl_sql_binder_expr(cx, ast->u.in_list.arg, &e->args[0], err));
    for (int32_t i = 1; i < n; i++) {
        DL_TRY(dl_sql_binder_expr(cx, ast->u.in_list.list.items[i - 1], &e->args[i], err));
    }
    const dl_type *t = NULL;
    DL_TRY(coerce_all(cx->b, e->args, n, ast->loc, "IN", &t, err));
    const dl_sql_fn_def *eq = dl_sql_binder_lookup(cx->b, DL_STR("="));
    DL_CHECK(eq != NULL, err, DL_ERR_UNSUPPORTED, "operator '=' is not available");
    dl_sql_bexpr *pair[2] = {e->args[0], e->args[0]};
    dl_sql_fn_bind fb = {0};
    DL_TRY(dl_sql_binder_run_fn(cx->b, eq, "=", pair, 2, &fb, err));
    e->fn = eq;
    e->bind_data = fb.bind_data;
    e->is_not = ast->u.in_list.is_not;
    *out = e;
    dl_sql_binder_fold(cx->b, out);
    return DL_OK;
}

static dl_status
bind_like(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    static const char *const names[] = {
        [DL_SQL_LIKE_LIKE] = "like", [DL_SQL_LIKE_ILIKE] = "ilike", [DL_SQL_LIKE_RLIKE] = "rlike"};
    const char *name = names[ast->u.like.op];
    dl_sql_bexpr *args[3] = {0};
    int32_t n = 2;
    bool is_quant = ast->u.like.quant != DL_SQL_QUANT_NONE;
    uint32_t n_pat = is_quant ? ast->u.like.patterns.n : 1;
    dl_sql_bexpr *e = dl_sql_bexpr_new(
        cx->b, ast->u.like.quant == DL_SQL_QUANT_ALL ? DL_SQL_BEXPR_AND : DL_SQL_BEXPR_OR,
        boolean_type(), ast->loc, (int32_t)n_pat);
    DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding LIKE");
    for (uint32_t i = 0; i < n_pat; i++) {
        DL_TRY(dl_sql_binder_expr(cx, ast->u.like.arg, &args[0], err));
        const dl_sql_expr *pat = is_quant ? ast->u.like.patterns.items[i] : ast->u.like.pattern;
        DL_TRY(dl_sql_binder_expr(cx, pat, &args[1], err));
        if (ast->u.like.has_escape) {
            dl_sql_expr lit = {.kind = DL_SQL_EXPR_LITERAL, .loc = ast->loc, .height = 1};
            lit.u.lit.kind = DL_SQL_LIT_STRING;
            lit.u.lit.text = ast->u.like.escape;
            DL_TRY(dl_sql_binder_literal(cx->b, &lit, &args[2], err));
            n = 3;
        }
        DL_TRY(call_named(cx->b, name, args, n, ast->loc, &e->args[i], err));
    }
    *out = n_pat == 1 ? e->args[0] : e;
    if (n_pat == 0) {
        /* LIKE ANY () is false, LIKE ALL () true. */
        DL_SQL_BIND_FAIL(cx->b, ast->loc, DL_ERR_SQL_BIND, err,
                         "LIKE %s needs at least one pattern",
                         ast->u.like.quant == DL_SQL_QUANT_ALL ? "ALL" : "ANY");
    }
    if (ast->u.like.is_not) {
        *out = dl_sql_binder_not(cx->b, *out, ast->loc);
        DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory binding LIKE");
    }
    return DL_OK;
}

/* ---- CASE and conditional functions -----------------------------------------------------------
 */

/* A CASE over conds/results (n pairs) and else_e (may be NULL), result types coerced. */
dl_status
dl_sql_binder_make_case(dl_sql_binder *b, dl_sql_bexpr **conds, dl_sql_bexpr **results, int32_t n,
                        dl_sql_bexpr *else_e, uint32_t loc, dl_sql_bexpr **out, dl_error *err) {
    int32_t n_args = 2 * n + (else_e != NULL ? 1 : 0);
    dl_sql_bexpr *e = dl_sql_bexpr_new(b, DL_SQL_BEXPR_CASE, NULL, loc, n_args);
    DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding CASE");
    DL_CHECK(n_args <= 512, err, DL_ERR_LIMIT, "CASE with more than 256 branches");
    dl_sql_bexpr *vals[257] = {0};
    int32_t n_vals = 0;
    for (int32_t i = 0; i < n; i++) {
        vals[n_vals++] = results[i];
    }
    if (else_e != NULL) {
        vals[n_vals++] = else_e;
    }
    const dl_type *t = NULL;
    DL_TRY(coerce_all(b, vals, n_vals, loc, "CASE", &t, err));
    for (int32_t i = 0; i < n; i++) {
        e->args[2 * (int64_t)i] = conds[i];
        e->args[2 * (int64_t)i + 1] = vals[i];
    }
    if (else_e != NULL) {
        e->args[n_args - 1] = vals[n];
        e->has_else = true;
    }
    e->type = t;
    *out = e;
    dl_sql_binder_fold(b, out);
    return DL_OK;
}

static dl_status
bind_case(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    int32_t n = (int32_t)ast->u.case_.n_whens;
    DL_CHECK(n <= 256, err, DL_ERR_LIMIT, "CASE with more than 256 branches");
    dl_sql_bexpr *conds[256] = {0};
    dl_sql_bexpr *results[256] = {0};
    for (int32_t i = 0; i < n; i++) {
        const dl_sql_case_when *w = &ast->u.case_.whens[i];
        if (ast->u.case_.operand != NULL) {
            dl_sql_bexpr *pair[2] = {0};
            DL_TRY(dl_sql_binder_expr(cx, ast->u.case_.operand, &pair[0], err));
            DL_TRY(dl_sql_binder_expr(cx, w->cond, &pair[1], err));
            DL_TRY(call_named(cx->b, "=", pair, 2, w->cond->loc, &conds[i], err));
        } else {
            DL_TRY(dl_sql_binder_cond(cx, w->cond, &conds[i], err));
        }
        DL_TRY(dl_sql_binder_expr(cx, w->result, &results[i], err));
    }
    dl_sql_bexpr *else_e = NULL;
    if (ast->u.case_.else_result != NULL) {
        DL_TRY(dl_sql_binder_expr(cx, ast->u.case_.else_result, &else_e, err));
    }
    return dl_sql_binder_make_case(cx->b, conds, results, n, else_e, ast->loc, out, err);
}

static dl_status
bind_coalesce(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    int32_t n = (int32_t)ast->u.func.args.n;
    if (n == 0 || n > 512) {
        DL_SQL_BIND_FAIL(cx->b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[WRONG_NUM_ARGS] coalesce takes 1 to 512 arguments, %d given", (int)n);
    }
    dl_sql_bexpr *e = dl_sql_bexpr_new(cx->b, DL_SQL_BEXPR_COALESCE, NULL, ast->loc, n);
    DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding coalesce");
    for (int32_t i = 0; i < n; i++) {
        DL_TRY(dl_sql_binder_expr(cx, ast->u.func.args.items[i], &e->args[i], err));
    }
    DL_TRY(coerce_all(cx->b, e->args, n, ast->loc, "coalesce", &e->type, err));
    *out = n == 1 ? e->args[0] : e;
    dl_sql_binder_fold(cx->b, out);
    return DL_OK;
}

static dl_status
need_args(dl_sql_bctx *cx, const dl_sql_expr *ast, const char *name, uint32_t n, dl_error *err) {
    if (ast->u.func.args.n == n) {
        return DL_OK;
    }
    DL_SQL_BIND_FAIL(cx->b, ast->loc, DL_ERR_SQL_BIND, err,
                     "[WRONG_NUM_ARGS] %s takes %u arguments, %u given", name, (unsigned)n,
                     (unsigned)ast->u.func.args.n);
}

/* if(c, a, b), nullif(a, b), nvl2(a, b, c) as CASE. */
static dl_status
bind_conditional(dl_sql_bctx *cx, const dl_sql_expr *ast, const char *name, dl_sql_bexpr **out,
                 dl_error *err) {
    dl_sql_bexpr **a = NULL;
    dl_sql_bexpr *cond = NULL;
    const dl_sql_expr_list *args = &ast->u.func.args;
    if (strcmp(name, "nullif") == 0) {
        DL_TRY(need_args(cx, ast, name, 2, err));
        DL_TRY(bind_list(cx, args, &a, err));
        dl_sql_bexpr *pair[2] = {a[0], a[1]};
        DL_TRY(call_named(cx->b, "=", pair, 2, ast->loc, &cond, err));
        dl_sql_bexpr *null_e = NULL;
        dl_sql_expr lit = {.kind = DL_SQL_EXPR_LITERAL, .loc = ast->loc, .height = 1};
        lit.u.lit.kind = DL_SQL_LIT_NULL;
        DL_TRY(dl_sql_binder_literal(cx->b, &lit, &null_e, err));
        DL_TRY(dl_sql_binder_cast(cx->b, null_e, a[0]->type, &null_e, err));
        dl_sql_bexpr *first = NULL;
        DL_TRY(dl_sql_binder_expr(cx, args->items[0], &first, err));
        return dl_sql_binder_make_case(cx->b, &cond, &null_e, 1, first, ast->loc, out, err);
    }
    if (strcmp(name, "nvl2") == 0) {
        DL_TRY(need_args(cx, ast, name, 3, err));
        DL_TRY(bind_list(cx, args, &a, err));
        cond = dl_sql_bexpr_new(cx->b, DL_SQL_BEXPR_IS, boolean_type(), ast->loc, 1);
        DL_CHECK(cond != NULL, err, DL_ERR_NOMEM, "out of memory binding nvl2");
        cond->args[0] = a[0];
        cond->is_kind = DL_SQL_BIS_NULL;
        cond->is_not = true;
        return dl_sql_binder_make_case(cx->b, &cond, &a[1], 1, a[2], ast->loc, out, err);
    }
    DL_TRY(need_args(cx, ast, name, 3, err));
    DL_TRY(dl_sql_binder_cond(cx, args->items[0], &cond, err));
    dl_sql_bexpr *then_e = NULL;
    dl_sql_bexpr *else_e = NULL;
    DL_TRY(dl_sql_binder_expr(cx, args->items[1], &then_e, err));
    DL_TRY(dl_sql_binder_expr(cx, args->items[2], &else_e, err));
    return dl_sql_binder_make_case(cx->b, &cond, &then_e, 1, else_e, ast->loc, out, err);
}

/* typeof(x): Spark's name of x's type, a constant. */
static dl_status
bind_typeof(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    DL_TRY(need_args(cx, ast, "typeof", 1, err));
    dl_sql_bexpr *arg = NULL;
    DL_TRY(dl_sql_binder_expr(cx, ast->u.func.args.items[0], &arg, err));
    dl_buf text;
    dl_buf_init(&text, cx->b->exec->alloc);
    dl_status s = dl_vec_type_to_string(arg->type, &text, err);
    dl_sql_expr lit = {.kind = DL_SQL_EXPR_LITERAL, .loc = ast->loc, .height = 1};
    lit.u.lit.kind = DL_SQL_LIT_STRING;
    lit.u.lit.text = dl_buf_view(&text);
    if (s == DL_OK) {
        s = dl_sql_binder_literal(cx->b, &lit, out, err);
    }
    dl_buf_destroy(&text);
    return s;
}

/* ---- functions ----------------------------------------------------------------------------- */

static dl_status
bind_trim(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    const char *name = ast->u.func.trim_spec == DL_SQL_TRIM_LEADING    ? "ltrim"
                       : ast->u.func.trim_spec == DL_SQL_TRIM_TRAILING ? "rtrim"
                                                                       : "trim";
    dl_sql_bexpr **a = NULL;
    DL_TRY(bind_list(cx, &ast->u.func.args, &a, err));
    return call_named(cx->b, name, a, (int32_t)ast->u.func.args.n, ast->loc, out, err);
}

static dl_status
bind_func(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    const dl_sql_name *fname = &ast->u.func.name;
    const char *name = fname->parts[fname->n_parts - 1].name.ptr;
    char lower[64];
    dl_str_copy_to(dl_str_from_cstr(name), lower, sizeof(lower));
    for (char *p = lower; *p != '\0'; p++) {
        *p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
    }
    if (ast->u.func.syntax == DL_SQL_FUNC_TRIM) {
        return bind_trim(cx, ast, out, err);
    }
    if (ast->u.func.over == NULL) {
        if (strcmp(lower, "coalesce") == 0 || strcmp(lower, "nvl") == 0 ||
            strcmp(lower, "ifnull") == 0) {
            return bind_coalesce(cx, ast, out, err);
        }
        if (strcmp(lower, "if") == 0 || strcmp(lower, "iff") == 0 || strcmp(lower, "nullif") == 0 ||
            strcmp(lower, "nvl2") == 0) {
            return bind_conditional(cx, ast, lower, out, err);
        }
        if (strcmp(lower, "typeof") == 0) {
            return bind_typeof(cx, ast, out, err);
        }
        if (strcmp(lower, "grouping") == 0 || strcmp(lower, "grouping_id") == 0) {
            return dl_sql_binder_grouping(cx, ast, lower, out, err);
        }
    }
    const dl_sql_fn_def *def = dl_sql_binder_lookup(cx->b, dl_str_from_cstr(lower));
    if (def == NULL) {
        DL_SQL_BIND_FAIL(cx->b, fname->parts[0].loc, DL_ERR_SQL_BIND, err,
                         "[UNRESOLVED_ROUTINE] function '%s' not found", name);
    }
    if (ast->u.func.over != NULL) {
        return dl_sql_binder_window_call(cx, ast, def, lower, out, err);
    }
    if (def->kind == DL_SQL_FN_AGGREGATE) {
        return dl_sql_binder_agg_call(cx, ast, def, lower, out, err);
    }
    if (def->kind == DL_SQL_FN_WINDOW) {
        DL_SQL_BIND_FAIL(cx->b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE] %s needs an OVER clause", lower);
    }
    if (ast->u.func.is_star || ast->u.func.quant == DL_SQL_QUANT_DISTINCT ||
        ast->u.func.filter != NULL) {
        DL_SQL_BIND_FAIL(cx->b, ast->loc, DL_ERR_SQL_BIND, err,
                         "%s is not an aggregate function: * , DISTINCT and FILTER apply "
                         "to aggregates only",
                         lower);
    }
    dl_sql_bexpr **a = NULL;
    DL_TRY(bind_list(cx, &ast->u.func.args, &a, err));
    return dl_sql_binder_call(cx->b, def, lower, a, (int32_t)ast->u.func.args.n, ast->loc, out,
                              err);
}

/* ---- casts, fields, subscripts ----------------------------------------------------------------
 */

static dl_status
bind_cast_expr(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_bexpr *arg = NULL;
    DL_TRY(dl_sql_binder_expr(cx, ast->u.cast.arg, &arg, err));
    const dl_type *t = NULL;
    DL_TRY(dl_sql_binder_type(cx->b, ast->u.cast.type, &t, err));
    bool allowed = cx->b->exec->env.ansi ? dl_sql_cast_is_allowed_ansi(arg->type, t)
                                         : dl_sql_cast_is_allowed(arg->type, t);
    if (!allowed) {
        DL_SQL_BIND_FAIL(cx->b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION] cannot cast %s to %s",
                         dl_vec_type_name(arg->type->id), dl_vec_type_name(t->id));
    }
    dl_sql_bexpr *e = dl_sql_bexpr_new(cx->b, DL_SQL_BEXPR_CAST, t, ast->loc, 1);
    DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding a cast");
    e->args[0] = arg;
    e->cast_mode = ast->u.cast.is_try      ? DL_SQL_CAST_TRY
                   : cx->b->exec->env.ansi ? DL_SQL_CAST_ANSI
                                           : DL_SQL_CAST_LEGACY;
    *out = e;
    dl_sql_binder_fold(cx->b, out);
    return DL_OK;
}

static dl_status
bind_field(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_bexpr *base = NULL;
    DL_TRY(dl_sql_binder_expr(cx, ast->u.field.base, &base, err));
    dl_sql_ident field = ast->u.field.name;
    dl_sql_name rest = {.parts = &field, .n_parts = 1};
    return dl_sql_binder_field_path(cx->b, base, &rest, out, err);
}

static dl_status
bind_subscript(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_bexpr *base = NULL;
    dl_sql_bexpr *index = NULL;
    DL_TRY(dl_sql_binder_expr(cx, ast->u.subscript.base, &base, err));
    DL_TRY(dl_sql_binder_expr(cx, ast->u.subscript.index, &index, err));
    const dl_type *bt = base->type;
    const dl_type *result = NULL;
    if (bt->id == DL_VEC_TYPE_ARRAY) {
        DL_TRY(dl_sql_binder_cast(cx->b, index, dl_vec_type_prim(DL_VEC_TYPE_INT), &index, err));
        result = bt->element;
    } else if (bt->id == DL_VEC_TYPE_MAP) {
        DL_TRY(dl_sql_binder_cast(cx->b, index, bt->key, &index, err));
        result = bt->value;
    } else {
        DL_SQL_BIND_FAIL(cx->b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[DATATYPE_MISMATCH] cannot subscript a value of type %s (an "
                         "array or a map is needed)",
                         dl_vec_type_name(bt->id));
    }
    dl_sql_bexpr *e = dl_sql_bexpr_new(cx->b, DL_SQL_BEXPR_SUBSCRIPT, result, ast->loc, 2);
    DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding a subscript");
    e->args[0] = base;
    e->args[1] = index;
    *out = e;
    dl_sql_binder_fold(cx->b, out);
    return DL_OK;
}

/* ---- dispatch ----------------------------------------------------------------------------- */

static dl_status
bind_kind(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    switch (ast->kind) {
    case DL_SQL_EXPR_LITERAL:
    case DL_SQL_EXPR_INTERVAL:
        return dl_sql_binder_literal(cx->b, ast, out, err);
    case DL_SQL_EXPR_COLUMN:
        return dl_sql_binder_agg_column(cx, ast, out, err);
    case DL_SQL_EXPR_UNARY:
        return bind_unary(cx, ast, out, err);
    case DL_SQL_EXPR_BINARY:
        return bind_binary(cx, ast, out, err);
    case DL_SQL_EXPR_IS:
        return bind_is(cx, ast, out, err);
    case DL_SQL_EXPR_BETWEEN:
        return bind_between(cx, ast, out, err);
    case DL_SQL_EXPR_IN_LIST:
        return bind_in_list(cx, ast, out, err);
    case DL_SQL_EXPR_LIKE:
        return bind_like(cx, ast, out, err);
    case DL_SQL_EXPR_CASE:
        return bind_case(cx, ast, out, err);
    case DL_SQL_EXPR_CAST:
        return bind_cast_expr(cx, ast, out, err);
    case DL_SQL_EXPR_FUNC:
        return bind_func(cx, ast, out, err);
    case DL_SQL_EXPR_FIELD:
        return bind_field(cx, ast, out, err);
    case DL_SQL_EXPR_SUBSCRIPT:
        return bind_subscript(cx, ast, out, err);
    case DL_SQL_EXPR_SUBQUERY:
    case DL_SQL_EXPR_EXISTS:
    case DL_SQL_EXPR_IN_QUERY:
        return dl_sql_binder_subquery(cx, ast, out, err);
    case DL_SQL_EXPR_STAR:
        DL_SQL_BIND_FAIL(cx->b, ast->loc, DL_ERR_SQL_BIND, err,
                         "'*' is only allowed in a SELECT list or in count(*)");
    case DL_SQL_EXPR_PARAM:
        return dl_sql_binder_param(cx->b, ast, out, err);
    case DL_SQL_EXPR_LAMBDA:
        DL_SQL_BIND_FAIL(cx->b, ast->loc, DL_ERR_UNSUPPORTED, err,
                         "lambda functions are not supported yet");
    case DL_SQL_EXPR_ROW:
        DL_SQL_BIND_FAIL(cx->b, ast->loc, DL_ERR_UNSUPPORTED, err,
                         "row values (a, b) are not supported here");
    case DL_SQL_EXPR_NAMED_ARG:
        DL_SQL_BIND_FAIL(cx->b, ast->loc, DL_ERR_UNSUPPORTED, err,
                         "named arguments are not supported");
    }
    DL_SQL_BIND_FAIL(cx->b, ast->loc, DL_ERR_INTERNAL, err, "unknown expression kind %d",
                     (int)ast->kind);
}

dl_status
dl_sql_binder_expr(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out, dl_error *err) {
    if (cx->agg != NULL && !cx->is_agg_arg) {
        bool matched = false;
        DL_TRY(dl_sql_binder_match_key(cx, ast, out, &matched, err));
        if (matched) {
            return DL_OK;
        }
    }
    return bind_kind(cx, ast, out, err);
}
