/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Aggregates and window functions in the binder (sql_bind_int.h, "Aggregation"): matching
 * GROUP BY keys, collecting aggregate calls, grouping()/grouping_id(), and collecting window
 * calls with their PARTITION BY, ORDER BY and frame.
 */
#include <string.h>

#include "sql/bind/sql_bind_int.h"

/* ---- syntactic checks ------------------------------------------------------------------------ */

static bool ast_list_has_agg(dl_sql_binder *b, const dl_sql_expr_list *l);

bool
dl_sql_ast_has_agg(dl_sql_binder *b, const dl_sql_expr *ast) {
    if (ast == NULL) {
        return false;
    }
    switch (ast->kind) {
    case DL_SQL_EXPR_FUNC: {
        if (ast->u.func.over != NULL) {
            return ast_list_has_agg(b, &ast->u.func.args);
        }
        const dl_sql_name *n = &ast->u.func.name;
        const dl_sql_fn_def *def = dl_sql_binder_lookup(b, n->parts[n->n_parts - 1].name);
        if (def == NULL) {
            char lower[64];
            dl_str_copy_to(n->parts[n->n_parts - 1].name, lower, sizeof(lower));
            for (char *p = lower; *p != '\0'; p++) {
                *p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
            }
            def = dl_sql_binder_lookup(b, dl_str_from_cstr(lower));
        }
        if (def != NULL && def->kind == DL_SQL_FN_AGGREGATE) {
            return true;
        }
        return ast_list_has_agg(b, &ast->u.func.args);
    }
    case DL_SQL_EXPR_UNARY:
        return dl_sql_ast_has_agg(b, ast->u.unary.arg);
    case DL_SQL_EXPR_BINARY:
        return dl_sql_ast_has_agg(b, ast->u.binary.left) ||
               dl_sql_ast_has_agg(b, ast->u.binary.right);
    case DL_SQL_EXPR_IS:
        return dl_sql_ast_has_agg(b, ast->u.is.arg);
    case DL_SQL_EXPR_BETWEEN:
        return dl_sql_ast_has_agg(b, ast->u.between.arg) ||
               dl_sql_ast_has_agg(b, ast->u.between.low) ||
               dl_sql_ast_has_agg(b, ast->u.between.high);
    case DL_SQL_EXPR_IN_LIST:
        return dl_sql_ast_has_agg(b, ast->u.in_list.arg) ||
               ast_list_has_agg(b, &ast->u.in_list.list);
    case DL_SQL_EXPR_IN_QUERY:
        return dl_sql_ast_has_agg(b, ast->u.in_query.arg);
    case DL_SQL_EXPR_LIKE:
        return dl_sql_ast_has_agg(b, ast->u.like.arg) ||
               dl_sql_ast_has_agg(b, ast->u.like.pattern) ||
               ast_list_has_agg(b, &ast->u.like.patterns);
    case DL_SQL_EXPR_CASE:
        if (dl_sql_ast_has_agg(b, ast->u.case_.operand) ||
            dl_sql_ast_has_agg(b, ast->u.case_.else_result)) {
            return true;
        }
        for (uint32_t i = 0; i < ast->u.case_.n_whens; i++) {
            if (dl_sql_ast_has_agg(b, ast->u.case_.whens[i].cond) ||
                dl_sql_ast_has_agg(b, ast->u.case_.whens[i].result)) {
                return true;
            }
        }
        return false;
    case DL_SQL_EXPR_CAST:
        return dl_sql_ast_has_agg(b, ast->u.cast.arg);
    case DL_SQL_EXPR_SUBSCRIPT:
        return dl_sql_ast_has_agg(b, ast->u.subscript.base) ||
               dl_sql_ast_has_agg(b, ast->u.subscript.index);
    case DL_SQL_EXPR_FIELD:
        return dl_sql_ast_has_agg(b, ast->u.field.base);
    default:
        return false;
    }
}

static bool
ast_list_has_agg(dl_sql_binder *b, const dl_sql_expr_list *l) {
    for (uint32_t i = 0; i < l->n; i++) {
        if (dl_sql_ast_has_agg(b, l->items[i])) {
            return true;
        }
    }
    return false;
}

/* True when ast holds anything key matching must not re-bind: aggregates, windows,
 * subqueries. */
static bool
ast_is_opaque(dl_sql_binder *b, const dl_sql_expr *ast) {
    if (ast->kind == DL_SQL_EXPR_SUBQUERY || ast->kind == DL_SQL_EXPR_EXISTS ||
        ast->kind == DL_SQL_EXPR_IN_QUERY || ast->kind == DL_SQL_EXPR_LITERAL ||
        ast->kind == DL_SQL_EXPR_INTERVAL || ast->kind == DL_SQL_EXPR_STAR) {
        return true;
    }
    return dl_sql_ast_has_agg(b, ast) || dl_sql_ast_has_window(ast);
}

bool
dl_sql_ast_has_window(const dl_sql_expr *ast) {
    if (ast == NULL) {
        return false;
    }
    switch (ast->kind) {
    case DL_SQL_EXPR_FUNC:
        if (ast->u.func.over != NULL) {
            return true;
        }
        for (uint32_t i = 0; i < ast->u.func.args.n; i++) {
            if (dl_sql_ast_has_window(ast->u.func.args.items[i])) {
                return true;
            }
        }
        return false;
    case DL_SQL_EXPR_UNARY:
        return dl_sql_ast_has_window(ast->u.unary.arg);
    case DL_SQL_EXPR_BINARY:
        return dl_sql_ast_has_window(ast->u.binary.left) ||
               dl_sql_ast_has_window(ast->u.binary.right);
    case DL_SQL_EXPR_CAST:
        return dl_sql_ast_has_window(ast->u.cast.arg);
    case DL_SQL_EXPR_IS:
        return dl_sql_ast_has_window(ast->u.is.arg);
    case DL_SQL_EXPR_CASE:
        for (uint32_t i = 0; i < ast->u.case_.n_whens; i++) {
            if (dl_sql_ast_has_window(ast->u.case_.whens[i].cond) ||
                dl_sql_ast_has_window(ast->u.case_.whens[i].result)) {
                return true;
            }
        }
        return dl_sql_ast_has_window(ast->u.case_.else_result);
    default:
        return false;
    }
}

/* ---- group keys ---------------------------------------------------------------------------- */

/* The GROUP BY key equal to e, or -1. */
static int32_t
find_key(const dl_sql_aggctx *agg, const dl_sql_bexpr *e) {
    for (int32_t k = 0; k < agg->n_keys; k++) {
        if (dl_sql_bexpr_equal(e, agg->keys[k])) {
            return k;
        }
    }
    return -1;
}

dl_status
dl_sql_binder_match_key(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out,
                        bool *out_matched, dl_error *err) {
    *out_matched = false;
    if (ast_is_opaque(cx->b, ast)) {
        return DL_OK;
    }
    dl_sql_aggctx *agg = cx->agg;
    dl_sql_bctx pre = {.b = cx->b, .scope = agg->from, .clause = cx->clause, .is_agg_arg = true};
    dl_sql_bexpr *e = NULL;
    dl_error scratch;
    dl_error_clear(&scratch);
    dl_status s = dl_sql_binder_expr(&pre, ast, &e, &scratch);
    if (s == DL_ERR_NOMEM && err != NULL) {
        *err = scratch;
    }
    if (s != DL_OK) {
        return s == DL_ERR_NOMEM ? DL_ERR_NOMEM : DL_OK; /* not a key: bound the usual way */
    }
    int32_t k = find_key(agg, e);
    if (k >= 0) {
        e = dl_sql_bexpr_column(cx->b->arena, k, agg->keys[k]->type);
        DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory binding a group key");
        e->loc = ast->loc;
    }
    if (k >= 0 || dl_sql_bexpr_is_constant(e)) {
        *out = e;
        *out_matched = true;
    }
    return DL_OK;
}

dl_status
dl_sql_binder_agg_column(dl_sql_bctx *cx, const dl_sql_expr *ast, dl_sql_bexpr **out,
                         dl_error *err) {
    if (cx->agg == NULL || cx->is_agg_arg) {
        return dl_sql_binder_column(cx, &ast->u.column, out, err);
    }
    const dl_sql_name *n = &ast->u.column;
    dl_sql_bctx pre = {.b = cx->b, .scope = cx->agg->from, .clause = cx->clause};
    DL_TRY(dl_sql_binder_column(&pre, n, out, err)); /* unknown names fail as unknown */
    if ((*out)->kind == DL_SQL_BEXPR_OUTER) {
        return DL_OK;
    }
    DL_SQL_BIND_FAIL(cx->b, ast->loc, DL_ERR_SQL_BIND, err,
                     "[MISSING_AGGREGATION] column '%s' must appear in GROUP BY or be "
                     "used in an aggregate function",
                     n->parts[n->n_parts - 1].name.ptr);
}

/* ---- aggregate calls ------------------------------------------------------------------------- */

static bool
agg_equal(const dl_sql_agg *a, const dl_sql_agg *c) {
    if (a->fn != c->fn || a->is_distinct != c->is_distinct || a->n_args != c->n_args) {
        return false;
    }
    for (int32_t i = 0; i < a->n_args; i++) {
        if (!dl_sql_bexpr_equal(a->args[i], c->args[i])) {
            return false;
        }
    }
    if ((a->filter == NULL) != (c->filter == NULL)) {
        return false;
    }
    return a->filter == NULL || dl_sql_bexpr_equal(a->filter, c->filter);
}

/* Binds the arguments and runs the aggregate's bind: fills agg (not collected). */
static dl_status
bind_agg(dl_sql_bctx *acx, const dl_sql_expr *ast, const dl_sql_fn_def *def, const char *name,
         dl_sql_agg *agg, dl_error *err) {
    dl_sql_binder *b = acx->b;
    int32_t n = (int32_t)ast->u.func.args.n;
    dl_sql_bexpr **args = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(void *));
    DL_CHECK(args != NULL, err, DL_ERR_NOMEM, "out of memory binding %s", name);
    for (int32_t i = 0; i < n; i++) {
        DL_TRY(dl_sql_binder_expr(acx, ast->u.func.args.items[i], &args[i], err));
    }
    if (ast->u.func.is_star && def->min_args > 0) {
        dl_sql_expr one = {.kind = DL_SQL_EXPR_LITERAL, .loc = ast->loc, .height = 1};
        one.u.lit.kind = DL_SQL_LIT_INT;
        one.u.lit.text = DL_STR("1");
        DL_TRY(dl_sql_binder_literal(b, &one, &args[0], err));
        n = 1;
    }
    if (n < def->min_args || (def->max_args >= 0 && n > def->max_args)) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[WRONG_NUM_ARGS] %s does not take %d arguments", name, (int)n);
    }
    dl_sql_fn_bind fb = {0};
    DL_TRY(dl_sql_binder_run_fn(b, def, name, args, n, &fb, err));
    const dl_type **types = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(void *));
    DL_CHECK(types != NULL, err, DL_ERR_NOMEM, "out of memory binding %s", name);
    for (int32_t i = 0; i < n; i++) {
        if (fb.cast_to[i] != NULL) {
            DL_TRY(dl_sql_binder_cast(b, args[i], fb.cast_to[i], &args[i], err));
        }
        types[i] = args[i]->type;
    }
    *agg = (dl_sql_agg){.fn = def,
                        .args = args,
                        .n_args = n,
                        .arg_types = types,
                        .type = fb.ret_type,
                        .bind_data = fb.bind_data,
                        .is_distinct = ast->u.func.quant == DL_SQL_QUANT_DISTINCT};
    if (ast->u.func.filter != NULL) {
        DL_TRY(dl_sql_binder_cond(acx, ast->u.func.filter, &agg->filter, err));
    }
    return DL_OK;
}

/* The index of a (in agg's list, added when new). */
static dl_status
collect_agg(dl_sql_binder *b, dl_sql_aggctx *agg, const dl_sql_agg *a, int32_t *out,
            dl_error *err) {
    for (int32_t i = 0; i < agg->n_aggs; i++) {
        if (agg_equal(&agg->aggs[i], a)) {
            *out = i;
            return DL_OK;
        }
    }
    if (agg->n_aggs == agg->cap_aggs) {
        int32_t cap = agg->cap_aggs == 0 ? 8 : 2 * agg->cap_aggs;
        dl_sql_agg *grown = dl_arena_alloc_array(b->arena, (size_t)cap, sizeof(*grown));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory binding aggregates");
        if (agg->n_aggs > 0) {
            memcpy(grown, agg->aggs, (size_t)agg->n_aggs * sizeof(*grown));
        }
        agg->aggs = grown;
        agg->cap_aggs = cap;
    }
    *out = agg->n_aggs++;
    agg->aggs[*out] = *a;
    return DL_OK;
}

dl_status
dl_sql_binder_agg_call(dl_sql_bctx *cx, const dl_sql_expr *ast, const dl_sql_fn_def *def,
                       const char *name, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_binder *b = cx->b;
    if (cx->is_agg_arg) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[NESTED_AGGREGATE_FUNCTION] aggregate function %s is not allowed "
                         "inside the argument of another aggregate function",
                         name);
    }
    if (cx->agg == NULL) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err,
                         "aggregate function %s is not allowed in %s", name, cx->clause);
    }
    dl_sql_aggctx *agg = cx->agg;
    dl_sql_bctx acx = {.b = b, .scope = agg->from, .clause = name, .is_agg_arg = true};
    dl_sql_agg a = {0};
    DL_TRY(bind_agg(&acx, ast, def, name, &a, err));
    int32_t idx = 0;
    DL_TRY(collect_agg(b, agg, &a, &idx, err));
    *out = dl_sql_bexpr_column(b->arena, agg->n_keys + idx, agg->aggs[idx].type);
    DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory binding %s", name);
    (*out)->loc = ast->loc;
    return DL_OK;
}

/* ---- grouping() and grouping_id() ----------------------------------------------------------- */

static dl_status
gid_ref(dl_sql_binder *b, dl_sql_aggctx *agg, uint32_t loc, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_bexpr *ref = dl_sql_bexpr_column(b->arena, -1, dl_vec_type_prim(DL_VEC_TYPE_LONG));
    DL_CHECK(ref != NULL, err, DL_ERR_NOMEM, "out of memory binding grouping()");
    ref->loc = loc;
    if (agg->n_gid_refs == agg->cap_gid_refs) {
        int32_t cap = agg->cap_gid_refs == 0 ? 4 : 2 * agg->cap_gid_refs;
        dl_sql_bexpr **grown = dl_arena_alloc_array(b->arena, (size_t)cap, sizeof(void *));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory binding grouping()");
        if (agg->n_gid_refs > 0) {
            memcpy(grown, agg->gid_refs, (size_t)agg->n_gid_refs * sizeof(void *));
        }
        agg->gid_refs = grown;
        agg->cap_gid_refs = cap;
    }
    agg->gid_refs[agg->n_gid_refs++] = ref;
    *out = ref;
    return DL_OK;
}

static dl_status grouping_expr(dl_sql_bctx *cx, uint32_t loc, bool is_id, const int64_t *bits,
                               uint32_t n, dl_sql_bexpr **out, dl_error *err);

/* The index of the GROUP BY key ast is, or a bind error. */
static dl_status
key_index(dl_sql_bctx *cx, const dl_sql_expr *ast, int32_t *out, dl_error *err) {
    dl_sql_bctx pre = {
        .b = cx->b, .scope = cx->agg->from, .clause = cx->clause, .is_agg_arg = true};
    dl_sql_bexpr *e = NULL;
    DL_TRY(dl_sql_binder_expr(&pre, ast, &e, err));
    for (int32_t k = 0; k < cx->agg->n_keys; k++) {
        if (dl_sql_bexpr_equal(e, cx->agg->keys[k])) {
            *out = k;
            return DL_OK;
        }
    }
    DL_SQL_BIND_FAIL(cx->b, ast->loc, DL_ERR_SQL_BIND, err,
                     "[GROUPING_COLUMN_MISMATCH] the argument of grouping() must be a "
                     "GROUP BY expression");
}

dl_status
dl_sql_binder_grouping(dl_sql_bctx *cx, const dl_sql_expr *ast, const char *name,
                       dl_sql_bexpr **out, dl_error *err) {
    dl_sql_binder *b = cx->b;
    if (cx->agg == NULL || cx->is_agg_arg) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err, "%s() is only allowed with GROUP BY",
                         name);
    }
    bool is_id = strcmp(name, "grouping_id") == 0;
    uint32_t n = ast->u.func.args.n;
    if (!is_id && n != 1) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[WRONG_NUM_ARGS] grouping takes 1 argument, %u given", (unsigned)n);
    }
    /* grouping_id(c1..cn) = sum of grouping(ci) << (n-1-i); grouping(c) = (gid >> (k'-1-k)) & 1. */
    int64_t mask_bits[64];
    uint32_t n_cols = (is_id && n == 0) ? (uint32_t)cx->agg->n_keys : n;
    DL_CHECK(n_cols <= 64, err, DL_ERR_LIMIT, "%s of more than 64 columns", name);
    for (uint32_t i = 0; i < n_cols; i++) {
        int32_t k = (int32_t)i;
        if (n > 0) {
            DL_TRY(key_index(cx, ast->u.func.args.items[i], &k, err));
        }
        mask_bits[i] = cx->agg->n_keys - 1 - k;
    }
    return grouping_expr(cx, ast->loc, is_id, mask_bits, n_cols, out, err);
}

/* grouping()/grouping_id() over the grouping id column: an engine-internal kernel. */
typedef struct grouping_data {
    bool is_id;
    uint32_t n;
    int64_t bits[64];
} grouping_data;

static dl_status
grouping_bind(dl_sql_fn_bind *fb, dl_error *err) {
    (void)fb;
    DL_FAIL(err, DL_ERR_INTERNAL, "grouping() is bound by the engine");
}

static dl_status
grouping_kernel(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                dl_error *err) {
    const grouping_data *gd = call->bind_data;
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    DL_TRY(dl_vec_reserve(out, count, err));
    for (int64_t i = 0; i < count; i++) {
        int64_t gid = ((const int64_t *)u.data)[u.sel[i]];
        int64_t v = 0;
        for (uint32_t k = 0; k < gd->n; k++) {
            v = (v << 1) | ((gid >> gd->bits[k]) & 1);
        }
        if (gd->is_id) {
            ((int64_t *)out->data)[i] = v;
        } else {
            ((int8_t *)out->data)[i] = (int8_t)v;
        }
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

static const dl_sql_fn_def grouping_def = {
    .name = "grouping",
    .kind = DL_SQL_FN_SCALAR,
    .min_args = 1,
    .max_args = 1,
    .bind = grouping_bind,
    .scalar = grouping_kernel,
};

static dl_status
grouping_bits(dl_sql_bctx *cx, uint32_t loc, bool is_id, const int64_t *bits, uint32_t n,
              dl_sql_bexpr **out, dl_error *err) {
    dl_sql_binder *b = cx->b;
    grouping_data *gd = dl_arena_alloc_zero(b->arena, sizeof(*gd));
    dl_sql_bexpr *e =
        dl_sql_bexpr_new(b, DL_SQL_BEXPR_CALL,
                         dl_vec_type_prim(is_id ? DL_VEC_TYPE_LONG : DL_VEC_TYPE_BYTE), loc, 1);
    DL_CHECK(gd != NULL && e != NULL, err, DL_ERR_NOMEM, "out of memory binding grouping()");
    gd->is_id = is_id;
    gd->n = n;
    memcpy(gd->bits, bits, n * sizeof(int64_t));
    DL_TRY(gid_ref(b, cx->agg, loc, &e->args[0], err));
    e->fn = &grouping_def;
    e->bind_data = gd;
    *out = e;
    return DL_OK;
}

/* Builds the expression over the grouping id for grouping()/grouping_id(). */
static dl_status
grouping_expr(dl_sql_bctx *cx, uint32_t loc, bool is_id, const int64_t *bits, uint32_t n,
              dl_sql_bexpr **out, dl_error *err) {
    dl_sql_binder *b = cx->b;
    dl_vector *v = NULL;
    if (!cx->agg->has_sets) {
        DL_TRY(dl_vec_new(b->exec->alloc,
                          dl_vec_type_prim(is_id ? DL_VEC_TYPE_LONG : DL_VEC_TYPE_BYTE), 1, &v,
                          err));
        dl_status s = is_id ? dl_vec_append_i64(v, 0, err) : dl_vec_append_i8(v, 0, err);
        *out = s == DL_OK ? dl_sql_bexpr_const(b->arena, v, 0) : NULL;
        dl_vec_unref(v);
        DL_TRY(s);
        DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory binding grouping()");
        return DL_OK;
    }
    return grouping_bits(cx, loc, is_id, bits, n, out, err);
}

/* ---- window calls -------------------------------------------------------------------------- */

static dl_sql_wfn_kind
window_kind(const char *name) {
    static const struct {
        const char *name;
        dl_sql_wfn_kind kind;
    } kinds[] = {
        {"row_number", DL_SQL_WFN_ROW_NUMBER},
        {"rank", DL_SQL_WFN_RANK},
        {"dense_rank", DL_SQL_WFN_DENSE_RANK},
        {"percent_rank", DL_SQL_WFN_PERCENT_RANK},
        {"cume_dist", DL_SQL_WFN_CUME_DIST},
        {"ntile", DL_SQL_WFN_NTILE},
        {"lag", DL_SQL_WFN_LAG},
        {"lead", DL_SQL_WFN_LEAD},
        {"first_value", DL_SQL_WFN_FIRST_VALUE},
        {"last_value", DL_SQL_WFN_LAST_VALUE},
        {"nth_value", DL_SQL_WFN_NTH_VALUE},
    };

    for (size_t i = 0; i < DL_ARRAY_LEN(kinds); i++) {
        if (strcmp(kinds[i].name, name) == 0) {
            return kinds[i].kind;
        }
    }
    return 0;
}

static const dl_sql_window *
find_named(const dl_sql_winctx *win, const dl_sql_ident *name) {
    for (uint32_t i = 0; i < win->n_named; i++) {
        if (dl_str_eq_nocase(win->named[i].name.name, name->name)) {
            return win->named[i].spec;
        }
    }
    return NULL;
}

static dl_status
bind_bound(dl_sql_bctx *wcx, const dl_sql_frame_bound *fb, bool is_range,
           dl_sql_frame_bound_kind *kind, int64_t *rows, dl_sql_bexpr **value, dl_error *err) {
    static const dl_sql_frame_bound_kind map[] = {
        [DL_SQL_BOUND_UNBOUNDED_PRECEDING] = DL_SQL_FB_UNBOUNDED_PRECEDING,
        [DL_SQL_BOUND_PRECEDING] = DL_SQL_FB_PRECEDING,
        [DL_SQL_BOUND_CURRENT_ROW] = DL_SQL_FB_CURRENT_ROW,
        [DL_SQL_BOUND_FOLLOWING] = DL_SQL_FB_FOLLOWING,
        [DL_SQL_BOUND_UNBOUNDED_FOLLOWING] = DL_SQL_FB_UNBOUNDED_FOLLOWING,
    };
    *kind = map[fb->kind];
    if (fb->offset == NULL) {
        return DL_OK;
    }
    dl_sql_bctx ccx = {.b = wcx->b, .scope = wcx->scope, .clause = "a window frame"};
    dl_sql_bexpr *e = NULL;
    DL_TRY(dl_sql_binder_expr(&ccx, fb->offset, &e, err));
    if (!dl_sql_bexpr_is_constant(e)) {
        DL_SQL_BIND_FAIL(wcx->b, fb->offset->loc, DL_ERR_SQL_BIND, err,
                         "a window frame offset must be a constant");
    }
    if (is_range) {
        *value = e;
        return DL_OK;
    }
    DL_TRY(dl_sql_binder_cast(wcx->b, e, dl_vec_type_prim(DL_VEC_TYPE_LONG), &e, err));
    dl_vector *v = NULL;
    DL_TRY(dl_sql_binder_eval(wcx->b, e, &v, err));
    *rows = dl_vec_is_null(v, 0) ? -1 : dl_sql_vec_i64(v, 0);
    dl_vec_unref(v);
    if (*rows < 0) {
        DL_SQL_BIND_FAIL(wcx->b, fb->offset->loc, DL_ERR_SQL_BIND, err,
                         "a ROWS frame offset must be a non-negative integer");
    }
    return DL_OK;
}

static dl_status
bind_frame(dl_sql_bctx *wcx, const dl_sql_window *spec, dl_sql_wdef *d, dl_error *err) {
    dl_sql_frame *f = &d->fn.frame;
    if (spec->frame == DL_SQL_FRAME_NONE) {
        f->is_range = d->n_order > 0;
        f->start = DL_SQL_FB_UNBOUNDED_PRECEDING;
        f->end = d->n_order > 0 ? DL_SQL_FB_CURRENT_ROW : DL_SQL_FB_UNBOUNDED_FOLLOWING;
        return DL_OK;
    }
    f->is_range = spec->frame == DL_SQL_FRAME_RANGE;
    DL_TRY(bind_bound(wcx, &spec->start, f->is_range, &f->start, &f->start_rows, &f->start_value,
                      err));
    if (!spec->has_between) {
        f->end = DL_SQL_FB_CURRENT_ROW;
        return DL_OK;
    }
    return bind_bound(wcx, &spec->end, f->is_range, &f->end, &f->end_rows, &f->end_value, err);
}

/* PARTITION BY and ORDER BY of spec (after following its base window). */
static dl_status
bind_spec(dl_sql_bctx *wcx, const dl_sql_window *spec, dl_sql_wdef *d, dl_error *err) {
    dl_sql_binder *b = wcx->b;
    const dl_sql_window *src = spec;
    if (spec->is_ref || spec->has_base) {
        const dl_sql_window *base = find_named(wcx->win_named, &spec->base_name);
        if (base == NULL) {
            DL_SQL_BIND_FAIL(b, spec->loc, DL_ERR_SQL_BIND, err,
                             "window '%s' is not defined in the WINDOW clause",
                             spec->base_name.name.ptr);
        }
        src = spec->is_ref ? base : spec;
        if (spec->has_base && spec->partition_by.n == 0) {
            src = base;
        }
    }
    d->n_partition = (int32_t)src->partition_by.n;
    d->partition = dl_arena_alloc_zero(b->arena, (size_t)(d->n_partition + 1) * sizeof(void *));
    const dl_sql_sort_list *order = src->order_by.n > 0 ? &src->order_by : &spec->order_by;
    d->n_order = (int32_t)order->n;
    d->order = dl_arena_alloc_zero(b->arena, (size_t)(d->n_order + 1) * sizeof(dl_sql_sort_key));
    DL_CHECK(d->partition != NULL && d->order != NULL, err, DL_ERR_NOMEM,
             "out of memory binding a window");
    for (int32_t i = 0; i < d->n_partition; i++) {
        DL_TRY(dl_sql_binder_expr(wcx, src->partition_by.items[i], &d->partition[i], err));
    }
    for (int32_t i = 0; i < d->n_order; i++) {
        const dl_sql_sort_item *it = &order->items[i];
        DL_TRY(dl_sql_binder_expr(wcx, it->expr, &d->order[i].expr, err));
        d->order[i].is_desc = it->dir == DL_SQL_SORT_DESC;
        d->order[i].is_nulls_first = it->nulls == DL_SQL_NULLS_ORDER_DEFAULT
                                         ? !d->order[i].is_desc
                                         : it->nulls == DL_SQL_NULLS_FIRST;
    }
    return bind_frame(wcx, spec->is_ref ? src : spec, d, err);
}

static dl_status
bind_window_fn(dl_sql_bctx *wcx, const dl_sql_expr *ast, const dl_sql_fn_def *def, const char *name,
               dl_sql_wdef *d, dl_error *err) {
    dl_sql_binder *b = wcx->b;
    if (def->kind == DL_SQL_FN_AGGREGATE) {
        d->fn.kind = DL_SQL_WFN_AGGREGATE;
        return bind_agg(wcx, ast, def, name, &d->fn.agg, err);
    }
    d->fn.kind = window_kind(name);
    if (d->fn.kind == 0) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_UNSUPPORTED, err,
                         "window function %s is not supported", name);
    }
    int32_t n = (int32_t)ast->u.func.args.n;
    dl_sql_bexpr **args = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(void *));
    DL_CHECK(args != NULL, err, DL_ERR_NOMEM, "out of memory binding %s", name);
    for (int32_t i = 0; i < n; i++) {
        DL_TRY(dl_sql_binder_expr(wcx, ast->u.func.args.items[i], &args[i], err));
    }
    if (n < def->min_args || (def->max_args >= 0 && n > def->max_args)) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err,
                         "[WRONG_NUM_ARGS] %s does not take %d arguments", name, (int)n);
    }
    dl_sql_fn_bind fb = {0};
    DL_TRY(dl_sql_binder_run_fn(b, def, name, args, n, &fb, err));
    for (int32_t i = 0; i < n; i++) {
        if (fb.cast_to[i] != NULL) {
            DL_TRY(dl_sql_binder_cast(b, args[i], fb.cast_to[i], &args[i], err));
        }
    }
    d->fn.agg =
        (dl_sql_agg){.args = args, .n_args = n, .type = fb.ret_type, .bind_data = fb.bind_data};
    return DL_OK;
}

dl_status
dl_sql_binder_window_call(dl_sql_bctx *cx, const dl_sql_expr *ast, const dl_sql_fn_def *def,
                          const char *name, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_binder *b = cx->b;
    dl_sql_winctx *win = cx->win;
    if (win == NULL || cx->is_agg_arg) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err,
                         "window function %s is not allowed in %s", name, cx->clause);
    }
    dl_sql_bctx wcx = *cx;
    wcx.win = NULL;
    wcx.win_named = win;
    dl_sql_wdef d = {0};
    d.fn.ignore_nulls = ast->u.func.nulls == DL_SQL_NULLS_IGNORE;
    DL_TRY(bind_window_fn(&wcx, ast, def, name, &d, err));
    DL_TRY(bind_spec(&wcx, ast->u.func.over, &d, err));
    if (win->n_defs == win->cap_defs) {
        int32_t cap = win->cap_defs == 0 ? 4 : 2 * win->cap_defs;
        dl_sql_wdef *grown = dl_arena_alloc_array(b->arena, (size_t)cap, sizeof(*grown));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory binding windows");
        if (win->n_defs > 0) {
            memcpy(grown, win->defs, (size_t)win->n_defs * sizeof(*grown));
        }
        win->defs = grown;
        win->cap_defs = cap;
    }
    win->defs[win->n_defs] = d;
    *out = dl_sql_bexpr_column(b->arena, win->n_defs, d.fn.agg.type);
    DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory binding %s", name);
    win->n_defs++;
    (*out)->loc = ast->loc;
    if (win->n_refs == win->cap_refs) {
        int32_t cap = win->cap_refs == 0 ? 8 : 2 * win->cap_refs;
        dl_sql_bexpr **grown = dl_arena_alloc_array(b->arena, (size_t)cap, sizeof(void *));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory binding windows");
        if (win->n_refs > 0) {
            memcpy(grown, win->refs, (size_t)win->n_refs * sizeof(void *));
        }
        win->refs = grown;
        win->cap_refs = cap;
    }
    win->refs[win->n_refs++] = *out;
    return DL_OK;
}
