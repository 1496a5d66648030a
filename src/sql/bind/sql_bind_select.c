/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One SELECT block (sql_bind_int.h): FROM, WHERE, GROUP BY (with ROLLUP, CUBE and GROUPING
 * SETS), HAVING, window functions, QUALIFY, the SELECT list (with *, t.* and * EXCEPT),
 * DISTINCT, ORDER BY (select aliases, ordinals, or any expression, carried as hidden columns)
 * and LIMIT/OFFSET. The plan it builds, bottom up:
 *
 *   FROM -> FILTER(WHERE) -> AGGREGATE -> FILTER(HAVING) -> WINDOW... -> FILTER(QUALIFY)
 *        -> PROJECT(select ++ hidden ORDER BY columns) -> AGGREGATE(DISTINCT) -> SORT
 *        -> LIMIT -> PROJECT(without the hidden columns)
 */
#include <string.h>

#include "sql/bind/sql_bind_int.h"

typedef struct selctx {
    dl_sql_binder *b;
    const dl_sql_query *q;
    const dl_sql_select *sel;
    const dl_sql_scope *outer;
    dl_sql_rel from;
    dl_sql_plan *plan;
    bool has_agg;
    dl_sql_aggctx agg;
    dl_sql_winctx win;
    /* the SELECT list after * expansion, then hidden ORDER BY columns */
    dl_sql_bexpr **exprs;
    const char **names;
    const dl_sql_expr **asts; /* the item's expression, NULL for expanded * columns */
    const char **aliases;     /* explicit aliases, or NULL */
    int32_t n;
    int32_t n_visible;
    int32_t cap;
} selctx;

static dl_status
add_item(selctx *sc, dl_sql_bexpr *e, const char *name, const dl_sql_expr *ast, const char *alias,
         dl_error *err) {
    if (sc->n == sc->cap) {
        int32_t cap = sc->cap == 0 ? 16 : 2 * sc->cap;
        dl_arena *a = sc->b->arena;
        dl_sql_bexpr **exprs = dl_arena_alloc_zero(a, (size_t)cap * sizeof(void *));
        const char **names = dl_arena_alloc_zero(a, (size_t)cap * sizeof(void *));
        const dl_sql_expr **asts = dl_arena_alloc_zero(a, (size_t)cap * sizeof(void *));
        const char **aliases = dl_arena_alloc_zero(a, (size_t)cap * sizeof(void *));
        DL_CHECK(exprs != NULL && names != NULL && asts != NULL && aliases != NULL, err,
                 DL_ERR_NOMEM, "out of memory binding the SELECT list");
        if (sc->n > 0) {
            memcpy(exprs, sc->exprs, (size_t)sc->n * sizeof(void *));
            memcpy(names, sc->names, (size_t)sc->n * sizeof(void *));
            memcpy(asts, sc->asts, (size_t)sc->n * sizeof(void *));
            memcpy(aliases, sc->aliases, (size_t)sc->n * sizeof(void *));
        }
        sc->exprs = exprs;
        sc->names = names;
        sc->asts = asts;
        sc->aliases = aliases;
        sc->cap = cap;
    }
    sc->exprs[sc->n] = e;
    sc->names[sc->n] = name;
    sc->asts[sc->n] = ast;
    sc->aliases[sc->n] = alias;
    sc->n++;
    return DL_OK;
}

/* The binding context of the SELECT list, HAVING, QUALIFY and ORDER BY. */
static dl_sql_bctx
post_ctx(selctx *sc, const char *clause, bool allow_window) {
    dl_sql_bctx cx = {.b = sc->b,
                      .scope = &sc->from.scope,
                      .clause = clause,
                      .agg = sc->has_agg ? &sc->agg : NULL,
                      .win = allow_window ? &sc->win : NULL};
    return cx;
}

/* ---- FROM and WHERE ------------------------------------------------------------------------ */

static dl_status
bind_from(selctx *sc, dl_error *err) {
    dl_sql_binder *b = sc->b;
    const dl_sql_select *sel = sc->sel;
    if (sel->n_from == 0) {
        dl_sql_plan *p = NULL;
        DL_TRY(dl_sql_plan_new(b->arena, DL_SQL_PLAN_VALUES, NULL, 0, &p, err));
        p->u.values.n_rows = 1;
        p->u.values.rows = dl_arena_alloc_zero(b->arena, sizeof(void *));
        DL_CHECK(p->u.values.rows != NULL, err, DL_ERR_NOMEM, "out of memory binding SELECT");
        p->est_rows = 1;
        sc->from.plan = p;
        memset(&sc->from.scope, 0, sizeof(sc->from.scope));
    } else {
        DL_TRY(dl_sql_binder_tref(b, sel->from[0], sc->outer, &sc->from, err));
        for (uint32_t i = 1; i < sel->n_from; i++) {
            dl_sql_rel right = {0};
            DL_TRY(dl_sql_binder_tref(b, sel->from[i], sc->outer, &right, err));
            DL_TRY(dl_sql_rel_cross(b, &sc->from, &right, sel->from[i]->loc, err));
        }
    }
    sc->from.scope.outer = sc->outer;
    sc->plan = sc->from.plan;
    return DL_OK;
}

static dl_status
bind_where(selctx *sc, dl_error *err) {
    if (sc->sel->where == NULL) {
        return DL_OK;
    }
    dl_sql_bctx cx = {.b = sc->b, .scope = &sc->from.scope, .clause = "WHERE"};
    dl_sql_bexpr *cond = NULL;
    DL_TRY(dl_sql_binder_cond(&cx, sc->sel->where, &cond, err));
    return dl_sql_plan_filter(sc->b, &sc->plan, cond, sc->sel->where->loc, err);
}

/* ---- GROUP BY -------------------------------------------------------------------------------- */

/* A GROUP BY item's expression: ordinals and select aliases refer to SELECT items. */
static dl_status
group_item_ast(selctx *sc, const dl_sql_expr *e, const dl_sql_expr **out, dl_error *err) {
    const dl_sql_select *sel = sc->sel;
    *out = e;
    if (e->kind == DL_SQL_EXPR_LITERAL && e->u.lit.kind == DL_SQL_LIT_INT) {
        int64_t pos = 0;
        for (size_t k = 0; k < e->u.lit.text.len && pos < 100000; k++) {
            pos = pos * 10 + (e->u.lit.text.ptr[k] - '0');
        }
        if (pos < 1 || pos > sel->n_items || sel->items[pos - 1].expr->kind == DL_SQL_EXPR_STAR) {
            DL_SQL_BIND_FAIL(sc->b, e->loc, DL_ERR_SQL_BIND, err,
                             "[GROUP_BY_POS_OUT_OF_RANGE] GROUP BY position %lld is not in the "
                             "select list (valid range is [1, %u])",
                             (long long)pos, (unsigned)sel->n_items);
        }
        *out = sel->items[pos - 1].expr;
        return DL_OK;
    }
    if (e->kind != DL_SQL_EXPR_COLUMN || e->u.column.n_parts != 1) {
        return DL_OK;
    }
    for (int32_t i = 0; i < sc->from.scope.n; i++) {
        if (dl_str_eq_nocase(dl_str_from_cstr(sc->from.scope.cols[i].name),
                             e->u.column.parts[0].name)) {
            return DL_OK; /* a column of FROM wins over a SELECT alias */
        }
    }
    for (uint32_t i = 0; i < sel->n_items; i++) {
        if (sel->items[i].has_alias &&
            dl_str_eq_nocase(sel->items[i].alias.name, e->u.column.parts[0].name)) {
            *out = sel->items[i].expr;
        }
    }
    return DL_OK;
}

/* Adds key e (deduplicated); *out_k receives its index. */
static dl_status
add_key(selctx *sc, dl_sql_bexpr *e, int32_t *out_k, dl_error *err) {
    dl_sql_aggctx *agg = &sc->agg;
    for (int32_t k = 0; k < agg->n_keys; k++) {
        if (dl_sql_bexpr_equal(agg->keys[k], e)) {
            *out_k = k;
            return DL_OK;
        }
    }
    DL_CHECK(agg->n_keys < 64, err, DL_ERR_LIMIT, "GROUP BY with more than 64 keys");
    if (agg->keys == NULL) {
        agg->keys = dl_arena_alloc_zero(sc->b->arena, 64 * sizeof(void *));
        DL_CHECK(agg->keys != NULL, err, DL_ERR_NOMEM, "out of memory binding GROUP BY");
    }
    *out_k = agg->n_keys;
    agg->keys[agg->n_keys++] = e;
    return DL_OK;
}

static dl_status
bind_key_list(selctx *sc, const dl_sql_expr_list *l, uint64_t *out_mask, dl_error *err) {
    dl_sql_bctx cx = {.b = sc->b, .scope = &sc->from.scope, .clause = "GROUP BY"};
    *out_mask = 0;
    for (uint32_t i = 0; i < l->n; i++) {
        const dl_sql_expr *ast = NULL;
        DL_TRY(group_item_ast(sc, l->items[i], &ast, err));
        if (dl_sql_ast_has_agg(sc->b, ast)) {
            DL_SQL_BIND_FAIL(sc->b, ast->loc, DL_ERR_SQL_BIND, err,
                             "[GROUP_BY_AGGREGATE] aggregate functions are not allowed in "
                             "GROUP BY");
        }
        dl_sql_bexpr *e = NULL;
        DL_TRY(dl_sql_binder_expr(&cx, ast, &e, err));
        int32_t k = 0;
        DL_TRY(add_key(sc, e, &k, err));
        *out_mask |= UINT64_C(1) << k;
    }
    return DL_OK;
}

/* The grouping sets of one GROUP BY item, each a mask, appended to sets. */
static dl_status
item_sets(selctx *sc, const dl_sql_group_item *it, uint64_t *sets, int32_t *n, int32_t cap,
          dl_error *err) {
    uint64_t mask = 0;
    if (it->kind == DL_SQL_GROUP_EXPR) {
        dl_sql_expr *item = it->expr;
        dl_sql_expr_list one = {.items = &item, .n = 1};
        DL_TRY(bind_key_list(sc, &one, &mask, err));
        sets[(*n)++] = mask;
        return DL_OK;
    }
    if (it->kind == DL_SQL_GROUP_SETS) {
        for (uint32_t s = 0; s < it->n_sets && *n < cap; s++) {
            DL_TRY(bind_key_list(sc, &it->sets[s], &mask, err));
            sets[(*n)++] = mask;
        }
        return DL_OK;
    }
    uint64_t cols[64];
    uint32_t nc = it->list.n;
    DL_CHECK(nc <= 12, err, DL_ERR_LIMIT, "ROLLUP/CUBE of more than 12 expressions");
    for (uint32_t i = 0; i < nc; i++) {
        dl_sql_expr_list one = {.items = &it->list.items[i], .n = 1};
        DL_TRY(bind_key_list(sc, &one, &cols[i], err));
    }
    if (it->kind == DL_SQL_GROUP_ROLLUP) {
        for (uint32_t len = nc + 1; len-- > 0 && *n < cap;) {
            uint64_t m = 0;
            for (uint32_t i = 0; i < len; i++) {
                m |= cols[i];
            }
            sets[(*n)++] = m;
        }
        return DL_OK;
    }
    for (uint32_t bits = (1u << nc); bits-- > 0 && *n < cap;) {
        uint64_t m = 0;
        for (uint32_t i = 0; i < nc; i++) {
            m |= (bits >> (nc - 1 - i)) & 1u ? cols[i] : 0;
        }
        sets[(*n)++] = m;
    }
    return DL_OK;
}

/* The cross product of the items' sets (GROUP BY a, ROLLUP(b, c) = {a} x {bc, b, ()}). */
static dl_status
bind_group_by(selctx *sc, dl_error *err) {
    const dl_sql_select *sel = sc->sel;

    enum {
        CAP = 4096
    };

    uint64_t *acc = dl_arena_alloc_zero(sc->b->arena, CAP * sizeof(uint64_t));
    uint64_t *item = dl_arena_alloc_zero(sc->b->arena, CAP * sizeof(uint64_t));
    DL_CHECK(acc != NULL && item != NULL, err, DL_ERR_NOMEM, "out of memory binding GROUP BY");
    int32_t n_acc = 1;
    acc[0] = 0;
    bool has_sets = false;
    for (uint32_t i = 0; i < sel->n_group_by; i++) {
        int32_t n_item = 0;
        DL_TRY(item_sets(sc, &sel->group_by[i], item, &n_item, CAP, err));
        has_sets = has_sets || sel->group_by[i].kind != DL_SQL_GROUP_EXPR;
        DL_CHECK((int64_t)n_acc * n_item <= CAP, err, DL_ERR_LIMIT,
                 "GROUP BY expands to more than %d grouping sets", CAP);
        uint64_t *next = dl_arena_alloc_zero(sc->b->arena, CAP * sizeof(uint64_t));
        DL_CHECK(next != NULL, err, DL_ERR_NOMEM, "out of memory binding GROUP BY");
        int32_t n_next = 0;
        for (int32_t a = 0; a < n_acc; a++) {
            for (int32_t k = 0; k < n_item; k++) {
                next[n_next++] = acc[a] | item[k];
            }
        }
        acc = next;
        n_acc = n_next;
    }
    if (sel->group_with != 0 && sc->agg.n_keys > 0) {
        uint32_t nk = (uint32_t)sc->agg.n_keys;
        DL_CHECK(nk <= 12, err, DL_ERR_LIMIT, "WITH ROLLUP/CUBE of more than 12 keys");
        n_acc = 0;
        if (sel->group_with == DL_SQL_GROUP_ROLLUP) {
            for (uint32_t len = nk + 1; len-- > 0;) {
                acc[n_acc++] = len == 0 ? 0 : (UINT64_C(1) << len) - 1;
            }
        } else {
            for (uint32_t bits = (1u << nk); bits-- > 0;) {
                uint64_t m = 0;
                for (uint32_t k = 0; k < nk; k++) {
                    m |= ((bits >> (nk - 1 - k)) & 1u) ? (UINT64_C(1) << k) : 0;
                }
                acc[n_acc++] = m;
            }
        }
        has_sets = true;
    }
    if (has_sets) {
        sc->agg.has_sets = true;
        sc->agg.sets = acc;
        sc->agg.n_sets = n_acc;
    }
    return DL_OK;
}

/* GROUP BY ALL: every SELECT item without an aggregate. */
static dl_status
bind_group_by_all(selctx *sc, dl_error *err) {
    dl_sql_bctx cx = {.b = sc->b, .scope = &sc->from.scope, .clause = "GROUP BY"};
    for (uint32_t i = 0; i < sc->sel->n_items; i++) {
        const dl_sql_expr *e = sc->sel->items[i].expr;
        if (e->kind == DL_SQL_EXPR_STAR || dl_sql_ast_has_agg(sc->b, e)) {
            continue;
        }
        dl_sql_bexpr *k = NULL;
        DL_TRY(dl_sql_binder_expr(&cx, e, &k, err));
        if (!dl_sql_bexpr_is_constant(k)) {
            int32_t idx = 0;
            DL_TRY(add_key(sc, k, &idx, err));
        }
    }
    return DL_OK;
}

/* ---- the SELECT list ---------------------------------------------------------------------------
 */

static bool
is_excepted(const dl_sql_expr *star, const dl_sql_bcol *c) {
    const dl_sql_name_list *ex = &star->u.star.except;
    for (uint32_t i = 0; i < ex->n; i++) {
        const dl_sql_name *n = &ex->items[i];
        dl_str last = n->parts[n->n_parts - 1].name;
        if (!dl_str_eq_nocase(last, dl_str_from_cstr(c->name))) {
            continue;
        }
        if (n->n_parts == 1 || (c->qual != NULL && dl_str_eq_nocase(n->parts[n->n_parts - 2].name,
                                                                    dl_str_from_cstr(c->qual)))) {
            return true;
        }
    }
    return false;
}

/* A column of the FROM scope as a SELECT item (in aggregate mode it must be a key). */
static dl_status
star_column(selctx *sc, const dl_sql_bcol *c, uint32_t loc, dl_error *err) {
    dl_sql_bexpr *e = dl_sql_bexpr_column(sc->b->arena, c->index, c->type);
    DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory expanding *");
    e->loc = loc;
    if (sc->has_agg) {
        int32_t k = 0;
        while (k < sc->agg.n_keys && !dl_sql_bexpr_equal(sc->agg.keys[k], e)) {
            k++;
        }
        if (k == sc->agg.n_keys) {
            DL_SQL_BIND_FAIL(sc->b, loc, DL_ERR_SQL_BIND, err,
                             "[MISSING_AGGREGATION] column '%s' (from *) must appear in "
                             "GROUP BY or be used in an aggregate function",
                             c->name);
        }
        e = dl_sql_bexpr_column(sc->b->arena, k, c->type);
        DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory expanding *");
    }
    return add_item(sc, e, c->name, NULL, NULL, err);
}

static dl_status
expand_star(selctx *sc, const dl_sql_expr *star, dl_error *err) {
    const dl_sql_name *q = &star->u.star.qualifier;
    const dl_sql_scope *scope = &sc->from.scope;
    bool any = false;
    for (int32_t i = 0; i < scope->n; i++) {
        const dl_sql_bcol *c = &scope->cols[i];
        bool ok = false;
        if (q->n_parts == 0) {
            ok = !c->is_hidden;
        } else {
            dl_str qn = q->parts[q->n_parts - 1].name;
            ok = c->qual != NULL && dl_str_eq_nocase(qn, dl_str_from_cstr(c->qual));
        }
        if (ok && !is_excepted(star, c)) {
            DL_TRY(star_column(sc, c, star->loc, err));
            any = true;
        }
    }
    if (!any && q->n_parts > 0) {
        DL_SQL_BIND_FAIL(sc->b, star->loc, DL_ERR_SQL_BIND, err,
                         "[CANNOT_RESOLVE_STAR_EXPAND] no relation named '%s' for '%s.*'",
                         q->parts[q->n_parts - 1].name.ptr, q->parts[q->n_parts - 1].name.ptr);
    }
    return DL_OK;
}

static dl_status
bind_items(selctx *sc, dl_error *err) {
    dl_sql_bctx cx = post_ctx(sc, "SELECT", true);
    for (uint32_t i = 0; i < sc->sel->n_items; i++) {
        const dl_sql_select_item *it = &sc->sel->items[i];
        if (it->expr->kind == DL_SQL_EXPR_STAR) {
            DL_TRY(expand_star(sc, it->expr, err));
            continue;
        }
        dl_sql_bexpr *e = NULL;
        DL_TRY(dl_sql_binder_expr(&cx, it->expr, &e, err));
        const char *name =
            it->has_alias ? it->alias.name.ptr : dl_sql_binder_auto_name(sc->b, it->expr);
        DL_TRY(add_item(sc, e, name, it->expr, it->has_alias ? it->alias.name.ptr : NULL, err));
    }
    sc->n_visible = sc->n;
    return DL_OK;
}

/* ---- ORDER BY ----------------------------------------------------------------------------------
 */

/* The SELECT item an ORDER BY expression names (ordinal or alias), or -1. */
static dl_status
order_item_ref(selctx *sc, const dl_sql_expr *e, int32_t *out, dl_error *err) {
    *out = -1;
    if (e->kind == DL_SQL_EXPR_LITERAL && e->u.lit.kind == DL_SQL_LIT_INT) {
        int64_t pos = 0;
        for (size_t k = 0; k < e->u.lit.text.len && pos < 100000; k++) {
            pos = pos * 10 + (e->u.lit.text.ptr[k] - '0');
        }
        if (pos < 1 || pos > sc->n_visible) {
            DL_SQL_BIND_FAIL(sc->b, e->loc, DL_ERR_SQL_BIND, err,
                             "[ORDER_BY_POS_OUT_OF_RANGE] ORDER BY position %lld is not in "
                             "the select list (1 to %d)",
                             (long long)pos, (int)sc->n_visible);
        }
        *out = (int32_t)pos - 1;
        return DL_OK;
    }
    if (e->kind != DL_SQL_EXPR_COLUMN || e->u.column.n_parts != 1) {
        return DL_OK;
    }
    for (int32_t i = 0; i < sc->n_visible; i++) {
        if (sc->aliases[i] != NULL &&
            dl_str_eq_nocase(dl_str_from_cstr(sc->aliases[i]), e->u.column.parts[0].name)) {
            *out = i;
            return DL_OK;
        }
    }
    return DL_OK;
}

/* The SELECT item ORDER BY item i sorts by: named, equal to one, or added as hidden. */
static dl_status
order_item(selctx *sc, dl_sql_bctx *cx, const dl_sql_sort_item *it, uint32_t i, int32_t *out,
           dl_error *err) {
    DL_TRY(order_item_ref(sc, it->expr, out, err));
    if (*out >= 0) {
        return DL_OK;
    }
    dl_sql_bexpr *e = NULL;
    DL_TRY(dl_sql_binder_expr(cx, it->expr, &e, err));
    for (int32_t k = 0; k < sc->n; k++) {
        if (dl_sql_bexpr_equal(sc->exprs[k], e)) {
            *out = k;
            return DL_OK;
        }
    }
    if (sc->sel->quant == DL_SQL_QUANT_DISTINCT) {
        DL_SQL_BIND_FAIL(sc->b, it->expr->loc, DL_ERR_SQL_BIND, err,
                         "with SELECT DISTINCT, ORDER BY expressions must appear in the select "
                         "list");
    }
    *out = sc->n;
    return add_item(sc, e, dl_arena_printf(sc->b->arena, "__order%u", (unsigned)i), it->expr, NULL,
                    err);
}

static dl_status
bind_order(selctx *sc, dl_sql_sort_key **out_keys, dl_error *err) {
    uint32_t n = sc->q->order_by.n;
    *out_keys = NULL;
    if (n == 0) {
        return DL_OK;
    }
    dl_sql_sort_key *keys = dl_arena_alloc_zero(sc->b->arena, n * sizeof(*keys));
    DL_CHECK(keys != NULL, err, DL_ERR_NOMEM, "out of memory binding ORDER BY");
    dl_sql_bctx cx = post_ctx(sc, "ORDER BY", true);
    for (uint32_t i = 0; i < n; i++) {
        const dl_sql_sort_item *it = &sc->q->order_by.items[i];
        int32_t idx = 0;
        DL_TRY(order_item(sc, &cx, it, i, &idx, err));
        keys[i].expr = dl_sql_bexpr_column(sc->b->arena, idx, sc->exprs[idx]->type);
        DL_CHECK(keys[i].expr != NULL, err, DL_ERR_NOMEM, "out of memory binding ORDER BY");
        keys[i].is_desc = it->dir == DL_SQL_SORT_DESC;
        keys[i].is_nulls_first = it->nulls == DL_SQL_NULLS_ORDER_DEFAULT
                                     ? !keys[i].is_desc
                                     : it->nulls == DL_SQL_NULLS_FIRST;
    }
    *out_keys = keys;
    return DL_OK;
}

/* ---- building the plan ------------------------------------------------------------------------
 */

static dl_status
build_aggregate(selctx *sc, dl_error *err) {
    dl_sql_aggctx *agg = &sc->agg;
    int32_t n = agg->n_keys + agg->n_aggs + (agg->has_sets ? 1 : 0);
    dl_type_field *cols = dl_arena_alloc_zero(sc->b->arena, (size_t)(n + 1) * sizeof(*cols));
    DL_CHECK(cols != NULL, err, DL_ERR_NOMEM, "out of memory planning GROUP BY");
    for (int32_t k = 0; k < agg->n_keys; k++) {
        cols[k] = (dl_type_field){.name = dl_arena_printf(sc->b->arena, "__key%d", (int)k),
                                  .type = agg->keys[k]->type,
                                  .is_nullable = true};
    }
    for (int32_t a = 0; a < agg->n_aggs; a++) {
        cols[agg->n_keys + a] =
            (dl_type_field){.name = dl_arena_printf(sc->b->arena, "__agg%d", (int)a),
                            .type = agg->aggs[a].type,
                            .is_nullable = true};
    }
    if (agg->has_sets) {
        cols[n - 1] = (dl_type_field){.name = "spark_grouping_id",
                                      .type = dl_vec_type_prim(DL_VEC_TYPE_LONG)};
        for (int32_t i = 0; i < agg->n_gid_refs; i++) {
            agg->gid_refs[i]->index = n - 1;
        }
    }
    for (int32_t i = 0; i < n; i++) {
        DL_CHECK(cols[i].name != NULL, err, DL_ERR_NOMEM, "out of memory planning GROUP BY");
    }
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(sc->b->arena, DL_SQL_PLAN_AGGREGATE, cols, n, &p, err));
    p->left = sc->plan;
    p->loc = sc->q->loc;
    p->u.agg.keys = agg->keys;
    p->u.agg.n_keys = agg->n_keys;
    p->u.agg.aggs = agg->aggs;
    p->u.agg.n_aggs = agg->n_aggs;
    p->u.agg.sets = agg->has_sets ? agg->sets : NULL;
    p->u.agg.n_sets = agg->has_sets ? agg->n_sets : 0;
    p->est_rows = agg->n_keys == 0 ? 1 : sc->plan->est_rows;
    sc->plan = p;
    return DL_OK;
}

static bool
same_spec(const dl_sql_wdef *a, const dl_sql_wdef *c) {
    if (a->n_partition != c->n_partition || a->n_order != c->n_order) {
        return false;
    }
    for (int32_t i = 0; i < a->n_partition; i++) {
        if (!dl_sql_bexpr_equal(a->partition[i], c->partition[i])) {
            return false;
        }
    }
    for (int32_t i = 0; i < a->n_order; i++) {
        if (!dl_sql_bexpr_equal(a->order[i].expr, c->order[i].expr) ||
            a->order[i].is_desc != c->order[i].is_desc ||
            a->order[i].is_nulls_first != c->order[i].is_nulls_first) {
            return false;
        }
    }
    return true;
}

/* One WINDOW node for defs[first, last). */
static dl_status
window_node(selctx *sc, int32_t first, int32_t last, dl_error *err) {
    dl_sql_plan *child = sc->plan;
    int32_t n = child->n_cols + (last - first);
    dl_type_field *cols = dl_arena_alloc_zero(sc->b->arena, (size_t)(n + 1) * sizeof(*cols));
    dl_sql_wfn *fns = dl_arena_alloc_zero(sc->b->arena, (size_t)(last - first) * sizeof(*fns));
    DL_CHECK(cols != NULL && fns != NULL, err, DL_ERR_NOMEM, "out of memory planning windows");
    dl_sql_copy(cols, child->schema->fields, (size_t)child->n_cols * sizeof(*cols));
    for (int32_t i = first; i < last; i++) {
        fns[i - first] = sc->win.defs[i].fn;
        cols[child->n_cols + i - first] =
            (dl_type_field){.name = dl_arena_printf(sc->b->arena, "__win%d", (int)i),
                            .type = sc->win.defs[i].fn.agg.type,
                            .is_nullable = true};
        DL_CHECK(cols[child->n_cols + i - first].name != NULL, err, DL_ERR_NOMEM,
                 "out of memory planning windows");
    }
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(sc->b->arena, DL_SQL_PLAN_WINDOW, cols, n, &p, err));
    const dl_sql_wdef *d = &sc->win.defs[first];
    p->left = child;
    p->loc = sc->q->loc;
    p->u.window.partition = d->partition;
    p->u.window.n_partition = d->n_partition;
    p->u.window.order = d->order;
    p->u.window.n_order = d->n_order;
    p->u.window.fns = fns;
    p->u.window.n_fns = last - first;
    p->est_rows = child->est_rows;
    sc->plan = p;
    return DL_OK;
}

static dl_status
build_windows(selctx *sc, dl_error *err) {
    int32_t base = sc->plan->n_cols;
    for (int32_t i = 0; i < sc->win.n_refs; i++) {
        sc->win.refs[i]->index += base;
    }
    for (int32_t first = 0; first < sc->win.n_defs;) {
        int32_t last = first + 1;
        while (last < sc->win.n_defs && same_spec(&sc->win.defs[first], &sc->win.defs[last])) {
            last++;
        }
        DL_TRY(window_node(sc, first, last, err));
        first = last;
    }
    return DL_OK;
}

/* DISTINCT: an AGGREGATE whose keys are every column. */
static dl_status
build_distinct(selctx *sc, dl_error *err) {
    dl_sql_plan *child = sc->plan;
    dl_sql_bexpr **keys =
        dl_arena_alloc_zero(sc->b->arena, (size_t)(child->n_cols + 1) * sizeof(void *));
    DL_CHECK(keys != NULL, err, DL_ERR_NOMEM, "out of memory planning DISTINCT");
    for (int32_t i = 0; i < child->n_cols; i++) {
        keys[i] = dl_sql_bexpr_column(sc->b->arena, i, child->schema->fields[i].type);
        DL_CHECK(keys[i] != NULL, err, DL_ERR_NOMEM, "out of memory planning DISTINCT");
    }
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(sc->b->arena, DL_SQL_PLAN_AGGREGATE, child->schema->fields,
                           child->n_cols, &p, err));
    p->left = child;
    p->u.agg.keys = keys;
    p->u.agg.n_keys = child->n_cols;
    p->est_rows = child->est_rows;
    sc->plan = p;
    return DL_OK;
}

static dl_status
build_tail(selctx *sc, dl_sql_sort_key *order, dl_error *err) {
    for (int32_t i = 0; i < sc->n; i++) {
        DL_TRY(dl_sql_plan_subqueries(sc->b, &sc->plan, &sc->exprs[i], false, err));
    }
    DL_TRY(dl_sql_plan_project(sc->b, sc->plan, sc->exprs, sc->names, sc->n, &sc->plan, err));
    if (sc->sel->quant == DL_SQL_QUANT_DISTINCT) {
        DL_TRY(build_distinct(sc, err));
    }
    if (order != NULL) {
        DL_TRY(dl_sql_plan_sort(sc->b, sc->plan, order, (int32_t)sc->q->order_by.n,
                                sc->q->order_by.items[0].expr->loc, &sc->plan, err));
    }
    DL_TRY(dl_sql_binder_limit(sc->b, sc->q, &sc->plan, err));
    if (sc->n == sc->n_visible) {
        return DL_OK;
    }
    dl_sql_bexpr **cols =
        dl_arena_alloc_zero(sc->b->arena, (size_t)(sc->n_visible + 1) * sizeof(void *));
    DL_CHECK(cols != NULL, err, DL_ERR_NOMEM, "out of memory planning ORDER BY");
    for (int32_t i = 0; i < sc->n_visible; i++) {
        cols[i] = dl_sql_bexpr_column(sc->b->arena, i, sc->exprs[i]->type);
        DL_CHECK(cols[i] != NULL, err, DL_ERR_NOMEM, "out of memory planning ORDER BY");
    }
    return dl_sql_plan_project(sc->b, sc->plan, cols, sc->names, sc->n_visible, &sc->plan, err);
}

static bool
select_has_agg(selctx *sc) {
    const dl_sql_select *sel = sc->sel;
    if (sel->n_group_by > 0 || sel->group_by_all || sel->having != NULL) {
        return true;
    }
    for (uint32_t i = 0; i < sel->n_items; i++) {
        if (dl_sql_ast_has_agg(sc->b, sel->items[i].expr)) {
            return true;
        }
    }
    for (uint32_t i = 0; i < sc->q->order_by.n; i++) {
        if (dl_sql_ast_has_agg(sc->b, sc->q->order_by.items[i].expr)) {
            return true;
        }
    }
    return false;
}

dl_status
dl_sql_binder_select(dl_sql_binder *b, const dl_sql_query *q, const dl_sql_scope *outer,
                     dl_sql_plan **out, dl_error *err) {
    selctx sc = {.b = b, .q = q, .sel = q->u.select, .outer = outer};
    sc.win.named = sc.sel->windows;
    sc.win.n_named = sc.sel->n_windows;
    DL_TRY(bind_from(&sc, err));
    DL_TRY(bind_where(&sc, err));
    sc.has_agg = select_has_agg(&sc);
    if (sc.has_agg) {
        sc.agg.from = &sc.from.scope;
        DL_TRY(sc.sel->group_by_all ? bind_group_by_all(&sc, err) : bind_group_by(&sc, err));
    }
    DL_TRY(bind_items(&sc, err));
    dl_sql_bexpr *having = NULL;
    dl_sql_bexpr *qualify = NULL;
    if (sc.sel->having != NULL) {
        dl_sql_bctx cx = post_ctx(&sc, "HAVING", false);
        DL_TRY(dl_sql_binder_cond(&cx, sc.sel->having, &having, err));
    }
    if (sc.sel->qualify != NULL) {
        dl_sql_bctx cx = post_ctx(&sc, "QUALIFY", true);
        DL_TRY(dl_sql_binder_cond(&cx, sc.sel->qualify, &qualify, err));
    }
    dl_sql_sort_key *order = NULL;
    DL_TRY(bind_order(&sc, &order, err));
    if (sc.has_agg) {
        DL_TRY(build_aggregate(&sc, err));
    }
    if (having != NULL) {
        DL_TRY(dl_sql_plan_filter(b, &sc.plan, having, sc.sel->having->loc, err));
    }
    DL_TRY(build_windows(&sc, err));
    if (qualify != NULL) {
        DL_TRY(dl_sql_plan_filter(b, &sc.plan, qualify, sc.sel->qualify->loc, err));
    }
    DL_TRY(build_tail(&sc, order, err));
    *out = sc.plan;
    return DL_OK;
}
