/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Joins in FROM (sql_bind_int.h): ON conditions split into equi-join keys and a residual,
 * USING and NATURAL (the USING columns first, once, then the other columns of each side, as
 * Spark shows them; each side's own copy stays reachable qualified), and the FROM-item
 * dispatch.
 */
#include <string.h>

#include "sql/bind/sql_bind_int.h"

dl_status
dl_sql_plan_filter(dl_sql_binder *b, dl_sql_plan **plan, dl_sql_bexpr *cond, uint32_t loc,
                   dl_error *err) {
    DL_TRY(dl_sql_plan_subqueries(b, plan, &cond, true, err));
    if (cond == NULL) {
        return DL_OK;
    }
    dl_sql_plan *child = *plan;
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(b->arena, DL_SQL_PLAN_FILTER, child->schema->fields, child->n_cols, &p,
                           err));
    p->left = child;
    p->loc = loc;
    p->u.cond = cond;
    p->est_rows = child->est_rows < 0 ? -1.0 : child->est_rows * 0.5;
    *plan = p;
    return DL_OK;
}

static dl_sql_join_type
join_type(dl_sql_join_kind kind) {
    switch (kind) {
    case DL_SQL_JOIN_LEFT:
        return DL_SQL_JOIN_T_LEFT;
    case DL_SQL_JOIN_RIGHT:
        return DL_SQL_JOIN_T_RIGHT;
    case DL_SQL_JOIN_FULL:
        return DL_SQL_JOIN_T_FULL;
    case DL_SQL_JOIN_CROSS:
        return DL_SQL_JOIN_T_CROSS;
    case DL_SQL_JOIN_SEMI:
        return DL_SQL_JOIN_T_SEMI;
    case DL_SQL_JOIN_ANTI:
        return DL_SQL_JOIN_T_ANTI;
    default:
        return DL_SQL_JOIN_T_INNER;
    }
}

/* The one visible column of scope named name, or -1 (-2 when ambiguous). */
static int32_t
find_visible(const dl_sql_scope *scope, dl_str name) {
    int32_t found = -1;
    for (int32_t i = 0; i < scope->n; i++) {
        const dl_sql_bcol *c = &scope->cols[i];
        if (!c->is_hidden && dl_str_eq_nocase(dl_str_from_cstr(c->name), name)) {
            if (found >= 0) {
                return -2;
            }
            found = i;
        }
    }
    return found;
}

/* NATURAL JOIN: the visible names both sides have, in the left side's order. */
static dl_status
natural_names(dl_sql_binder *b, const dl_sql_rel *l, const dl_sql_rel *r, dl_sql_ident_list *out,
              dl_error *err) {
    out->items = dl_arena_alloc_zero(b->arena, (size_t)(l->scope.n + 1) * sizeof(dl_sql_ident));
    out->n = 0;
    DL_CHECK(out->items != NULL, err, DL_ERR_NOMEM, "out of memory binding NATURAL JOIN");
    for (int32_t i = 0; i < l->scope.n; i++) {
        const dl_sql_bcol *c = &l->scope.cols[i];
        if (!c->is_hidden && find_visible(&r->scope, dl_str_from_cstr(c->name)) >= 0) {
            out->items[out->n++] =
                (dl_sql_ident){.name = dl_str_from_cstr(c->name), .loc = UINT32_MAX};
        }
    }
    return DL_OK;
}

typedef struct using_col {
    int32_t l; /* scope entry in the left scope */
    int32_t r; /* in the right scope */
} using_col;

/* The equality conjuncts of USING, and where each column is. */
static dl_status
using_cond(dl_sql_binder *b, const dl_sql_rel *l, const dl_sql_rel *r,
           const dl_sql_ident_list *names, using_col *cols, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_bexpr *and_e = dl_sql_bexpr_new(
        b, DL_SQL_BEXPR_AND, dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN), UINT32_MAX, (int32_t)names->n);
    DL_CHECK(and_e != NULL, err, DL_ERR_NOMEM, "out of memory binding USING");
    const dl_sql_fn_def *eq = dl_sql_binder_lookup(b, DL_STR("="));
    DL_CHECK(eq != NULL, err, DL_ERR_UNSUPPORTED, "operator '=' is not available");
    for (uint32_t i = 0; i < names->n; i++) {
        const dl_sql_ident *id = &names->items[i];
        cols[i].l = find_visible(&l->scope, id->name);
        cols[i].r = find_visible(&r->scope, id->name);
        if (cols[i].l < 0 || cols[i].r < 0) {
            DL_SQL_BIND_FAIL(b, id->loc, DL_ERR_SQL_BIND, err,
                             "[UNRESOLVED_USING_COLUMN_FOR_JOIN] USING column '%s' %s on "
                             "the %s side of the join",
                             id->name.ptr,
                             (cols[i].l == -2 || cols[i].r == -2) ? "is ambiguous"
                                                                  : "cannot be resolved",
                             cols[i].l < 0 ? "left" : "right");
        }
        const dl_sql_bcol *lc = &l->scope.cols[cols[i].l];
        const dl_sql_bcol *rc = &r->scope.cols[cols[i].r];
        dl_sql_bexpr *args[2] = {
            dl_sql_bexpr_column(b->arena, lc->index, lc->type),
            dl_sql_bexpr_column(b->arena, l->plan->n_cols + rc->index, rc->type)};
        DL_CHECK(args[0] != NULL && args[1] != NULL, err, DL_ERR_NOMEM,
                 "out of memory binding USING");
        DL_TRY(dl_sql_binder_call(b, eq, "=", args, 2, id->loc, &and_e->args[i], err));
    }
    *out = names->n == 1 ? and_e->args[0] : and_e;
    return DL_OK;
}

/* The value of one USING column: the left side's (INNER, LEFT), the right side's (RIGHT) or
 * coalesce of both (FULL). */
static dl_status
using_value(dl_sql_binder *b, dl_sql_join_type type, const dl_sql_bcol *lc, const dl_sql_bcol *rc,
            int32_t nl, dl_sql_bexpr **out, dl_error *err) {
    dl_sql_bexpr *le = dl_sql_bexpr_column(b->arena, lc->index, lc->type);
    dl_sql_bexpr *re = dl_sql_bexpr_column(b->arena, nl + rc->index, rc->type);
    DL_CHECK(le != NULL && re != NULL, err, DL_ERR_NOMEM, "out of memory binding USING");
    if (type != DL_SQL_JOIN_T_FULL) {
        *out = type == DL_SQL_JOIN_T_RIGHT ? re : le;
        return DL_OK;
    }
    dl_sql_bexpr *co = dl_sql_bexpr_new(b, DL_SQL_BEXPR_COALESCE, NULL, UINT32_MAX, 2);
    DL_CHECK(co != NULL, err, DL_ERR_NOMEM, "out of memory binding USING");
    DL_TRY(dl_sql_binder_common_type(b, le->type, re->type, UINT32_MAX, "USING", &co->type, err));
    DL_TRY(dl_sql_binder_cast(b, le, co->type, &co->args[0], err));
    DL_TRY(dl_sql_binder_cast(b, re, co->type, &co->args[1], err));
    *out = co;
    return DL_OK;
}

/* The scope after the USING projection: the USING columns (cols[0..n_using), filled by the
 * caller), then both sides' columns, each side's own copy of a USING column hidden. */
static void
using_scope(const dl_sql_rel *l, const using_col *uc, uint32_t n_using, const dl_sql_scope *both,
            dl_sql_bcol *cols) {
    for (int32_t i = 0; i < both->n; i++) {
        dl_sql_bcol c = both->cols[i];
        c.index += (int32_t)n_using;
        for (uint32_t k = 0; k < n_using; k++) {
            bool is_using =
                (i < l->scope.n && i == uc[k].l) || (i >= l->scope.n && i - l->scope.n == uc[k].r);
            c.is_hidden = c.is_hidden || is_using;
        }
        cols[n_using + i] = c;
    }
}

/* The USING projection: each USING column once, then both sides' columns; scope to match. */
static dl_status
using_project(dl_sql_binder *b, dl_sql_join_type type, const dl_sql_rel *l, const dl_sql_rel *r,
              const using_col *uc, uint32_t n_using, dl_sql_rel *out, dl_error *err) {
    int32_t nj = out->plan->n_cols;
    int32_t n = (int32_t)n_using + nj;
    dl_sql_bexpr **exprs = dl_arena_alloc_zero(b->arena, (size_t)n * sizeof(void *));
    const char **names = dl_arena_alloc_zero(b->arena, (size_t)n * sizeof(char *));
    dl_sql_bcol *cols =
        dl_arena_alloc_zero(b->arena, ((size_t)n_using + (size_t)out->scope.n) * sizeof(*cols));
    DL_CHECK(exprs != NULL && names != NULL && cols != NULL, err, DL_ERR_NOMEM,
             "out of memory binding USING");
    for (uint32_t i = 0; i < n_using; i++) {
        const dl_sql_bcol *lc = &l->scope.cols[uc[i].l];
        DL_TRY(using_value(b, type, lc, &r->scope.cols[uc[i].r], l->plan->n_cols, &exprs[i], err));
        names[i] = lc->name;
        cols[i] = (dl_sql_bcol){.name = lc->name, .type = exprs[i]->type, .index = (int32_t)i};
    }
    for (int32_t i = 0; i < nj; i++) {
        exprs[n_using + i] = dl_sql_bexpr_column(b->arena, i, out->plan->schema->fields[i].type);
        DL_CHECK(exprs[n_using + i] != NULL, err, DL_ERR_NOMEM, "out of memory binding USING");
        names[n_using + i] = out->plan->schema->fields[i].name;
    }
    using_scope(l, uc, n_using, &out->scope, cols);
    DL_TRY(dl_sql_plan_project(b, out->plan, exprs, names, n, &out->plan, err));
    out->scope.cols = cols;
    out->scope.n += (int32_t)n_using;
    return DL_OK;
}

static dl_status
bind_join(dl_sql_binder *b, const dl_sql_tref *tref, const dl_sql_scope *outer, dl_sql_rel *out,
          dl_error *err) {
    dl_sql_rel l = {0};
    dl_sql_rel r = {0};
    DL_TRY(dl_sql_binder_tref(b, tref->u.join.left, outer, &l, err));
    DL_TRY(dl_sql_binder_tref(b, tref->u.join.right, outer, &r, err));
    dl_sql_join_type type = join_type(tref->u.join.kind);
    dl_sql_scope both = {0};
    DL_TRY(dl_sql_concat_scopes(b, &l, &r, &both, err));
    both.outer = outer;
    dl_sql_plan *j = NULL;
    DL_TRY(dl_sql_join_plan(b, l.plan, r.plan, type, tref->loc, &j, err));
    dl_sql_ident_list names = tref->u.join.using;
    if (tref->u.join.is_natural) {
        DL_TRY(natural_names(b, &l, &r, &names, err));
    }
    using_col *uc = dl_arena_alloc_zero(b->arena, (names.n + 1) * sizeof(*uc));
    DL_CHECK(uc != NULL, err, DL_ERR_NOMEM, "out of memory binding a join");
    dl_sql_bexpr *cond = NULL;
    if (names.n > 0) {
        DL_TRY(using_cond(b, &l, &r, &names, uc, &cond, err));
    } else if (tref->u.join.on != NULL) {
        dl_sql_bctx cx = {.b = b, .scope = &both, .clause = "the join condition"};
        DL_TRY(dl_sql_binder_cond(&cx, tref->u.join.on, &cond, err));
        if (dl_sql_bexpr_has_subquery(cond)) {
            DL_SQL_BIND_FAIL(b, tref->u.join.on->loc, DL_ERR_UNSUPPORTED, err,
                             "subqueries in a join condition are not supported");
        }
    }
    if (cond != NULL) {
        DL_TRY(dl_sql_join_split(b, j, cond, err));
    }
    if (j->u.join.type == DL_SQL_JOIN_T_INNER && j->u.join.n_keys == 0) {
        j->u.join.type = DL_SQL_JOIN_T_CROSS;
    }
    out->plan = j;
    bool left_only = type == DL_SQL_JOIN_T_SEMI || type == DL_SQL_JOIN_T_ANTI;
    out->scope = left_only ? l.scope : both;
    if (names.n > 0 && !left_only) {
        DL_TRY(using_project(b, type, &l, &r, uc, names.n, out, err));
    }
    return DL_OK;
}

/* ---- FROM items ------------------------------------------------------------------------------ */

static dl_status
bind_derived(dl_sql_binder *b, const dl_sql_tref *tref, dl_sql_rel *out, dl_error *err) {
    DL_TRY(dl_sql_binder_query(b, tref->u.query, NULL, &out->plan, err));
    DL_TRY(dl_sql_plan_rename(b, out->plan, &tref->column_aliases, tref->loc, &out->plan, err));
    return dl_sql_scope_of(b, out->plan, tref->has_alias ? tref->alias.name.ptr : NULL, &out->scope,
                           err);
}

dl_status
dl_sql_binder_tref(dl_sql_binder *b, const dl_sql_tref *tref, const dl_sql_scope *outer,
                   dl_sql_rel *out, dl_error *err) {
    switch (tref->kind) {
    case DL_SQL_TREF_TABLE:
        return dl_sql_binder_table(b, tref, out, err);
    case DL_SQL_TREF_FUNC:
        return dl_sql_binder_table_fn(b, tref, out, err);
    case DL_SQL_TREF_SUBQUERY:
    case DL_SQL_TREF_VALUES:
        return bind_derived(b, tref, out, err);
    case DL_SQL_TREF_DESCRIBE:
        return dl_sql_binder_describe_rel(b, tref, out, err);
    case DL_SQL_TREF_JOIN:
        return bind_join(b, tref, outer, out, err);
    }
    DL_SQL_BIND_FAIL(b, tref->loc, DL_ERR_INTERNAL, err, "unknown FROM item kind %d",
                     (int)tref->kind);
}
