/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Comma joins without a cross product (part of sql_optimize_push.c's pass). The binder makes
 * `FROM a, b, c WHERE ...` the left-deep tree (a CROSS b) CROSS c under the WHERE filter. When a
 * and b share no equality but c has one with a (TPC-H q9: part, supplier, lineitem, ...), the
 * inner CROSS would build every pair of a and b. The filter over such a join is rotated:
 *
 *   FILTER cond                                PROJECT (a ++ b ++ c, as before)
 *     JOIN (a CROSS b) x c            ->         FILTER cond (remapped)
 *                                                  JOIN (a CROSS c) CROSS b
 *
 * (with a and b swapped when the equality is between c and b), and the pushdown then turns the
 * equality of a and c into the inner join's keys and those of b into the outer's. Rotated only
 * when the outer join has no keys or residual yet, the inner CROSS none either, no conjunct of
 * the filter equates a with b (it would become the inner join's key in place) and one equates c
 * with a or b; the result's inner join then has such an equality, so it is not rotated again.
 */
#include <string.h>

#include "sql/plan/sql_plan.h"

/* Lowest and highest COLUMN index of e, and whether it has a subquery or a volatile call. */
static void
scan_expr(const dl_sql_bexpr *e, int32_t *lo, int32_t *hi, bool *is_opaque) {
    if (e->kind == DL_SQL_BEXPR_COLUMN) {
        *lo = DL_MIN(*lo, e->index);
        *hi = DL_MAX(*hi, e->index);
    }
    *is_opaque = *is_opaque || e->kind == DL_SQL_BEXPR_SUBQUERY || e->kind == DL_SQL_BEXPR_OUTER ||
                 (e->kind == DL_SQL_BEXPR_CALL && e->fn->is_volatile);
    for (int32_t i = 0; i < e->n_args; i++) {
        scan_expr(e->args[i], lo, hi, is_opaque);
    }
}

/* Whether e reads columns, only those in [lo, hi), and is deterministic. */
static bool
reads_within(const dl_sql_bexpr *e, int32_t lo, int32_t hi) {
    int32_t a = INT32_MAX;
    int32_t z = -1;
    bool is_opaque = false;
    scan_expr(e, &a, &z, &is_opaque);
    return z >= 0 && a >= lo && z < hi && !is_opaque;
}

/* A column range [lo, hi) of the filter's input. */
typedef struct range {
    int32_t lo, hi;
} range;

/* Whether e is `x = y` (or <=>) with x over one range and y over the other. */
static bool
is_equality_between(const dl_sql_bexpr *e, range p, range q) {
    if (e->kind != DL_SQL_BEXPR_CALL || e->n_args != 2 || e->fn == NULL ||
        (strcmp(e->fn->name, "=") != 0 && strcmp(e->fn->name, "==") != 0 &&
         strcmp(e->fn->name, "<=>") != 0)) {
        return false;
    }
    const dl_sql_bexpr *x = e->args[0];
    const dl_sql_bexpr *y = e->args[1];
    return (reads_within(x, p.lo, p.hi) && reads_within(y, q.lo, q.hi)) ||
           (reads_within(x, q.lo, q.hi) && reads_within(y, p.lo, p.hi));
}

static bool
any_equality(dl_sql_bexpr *const *conj, int32_t n, range p, range q) {
    for (int32_t i = 0; i < n; i++) {
        if (is_equality_between(conj[i], p, q)) {
            return true;
        }
    }
    return false;
}

static bool
is_bare_join(const dl_sql_plan *j) {
    const dl_sql_join *jn = &j->u.join;
    return j->kind == DL_SQL_PLAN_JOIN && j->left != NULL && j->right != NULL &&
           (jn->type == DL_SQL_JOIN_T_CROSS || jn->type == DL_SQL_JOIN_T_INNER) &&
           jn->n_keys == 0 && jn->residual == NULL && !jn->is_null_aware;
}

/* CROSS JOIN of l and r (output l ++ r, every column nullable as the binder's joins). */
static dl_status
cross_of(dl_arena *arena, dl_sql_plan *l, dl_sql_plan *r, uint32_t loc, dl_sql_plan **out,
         dl_error *err) {
    int32_t n = l->n_cols + r->n_cols;
    dl_type_field *f = dl_arena_alloc_zero(arena, (size_t)(n + 1) * sizeof(*f));
    DL_CHECK(f != NULL, err, DL_ERR_NOMEM, "out of memory optimizing a join");
    dl_sql_copy(f, l->schema->fields, (size_t)l->n_cols * sizeof(*f));
    dl_sql_copy(f + l->n_cols, r->schema->fields, (size_t)r->n_cols * sizeof(*f));
    for (int32_t i = 0; i < n; i++) {
        f[i].is_nullable = true;
    }
    DL_TRY(dl_sql_plan_new(arena, DL_SQL_PLAN_JOIN, f, n, out, err));
    (*out)->left = l;
    (*out)->right = r;
    (*out)->loc = loc;
    (*out)->u.join.type = DL_SQL_JOIN_T_CROSS;
    (*out)->est_rows = l->est_rows < 0 || r->est_rows < 0 ? -1.0 : DL_MAX(l->est_rows, r->est_rows);
    return DL_OK;
}

/* The rotated tree (the file comment) for x, kept with c, and y, the other input. map: old
 * column -> new column. */
static dl_status
rotate(dl_arena *arena, dl_sql_plan **node, dl_sql_plan *x, dl_sql_plan *y, dl_sql_plan *c,
       const int32_t *map, dl_error *err) {
    dl_sql_plan *f = *node;
    dl_sql_plan *j = f->left;
    dl_sql_plan *inner = NULL;
    dl_sql_plan *outer = NULL;
    DL_TRY(cross_of(arena, x, c, j->loc, &inner, err));
    DL_TRY(cross_of(arena, inner, y, j->loc, &outer, err));
    dl_sql_bexpr *cond = dl_sql_bexpr_remap(arena, f->u.cond, map, j->n_cols);
    int32_t n = j->n_cols;
    dl_sql_bexpr **exprs = dl_arena_alloc_zero(arena, (size_t)(n + 1) * sizeof(void *));
    DL_CHECK(cond != NULL && exprs != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    for (int32_t i = 0; i < n; i++) {
        exprs[i] = dl_sql_bexpr_column(arena, map[i], outer->schema->fields[map[i]].type);
        DL_CHECK(exprs[i] != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    }
    f->u.cond = cond;
    f->left = outer;
    f->schema = outer->schema;
    f->n_cols = outer->n_cols;
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(arena, DL_SQL_PLAN_PROJECT, j->schema->fields, n, &p, err));
    p->left = f;
    p->u.project.exprs = exprs;
    p->u.project.n_exprs = n;
    p->est_rows = f->est_rows;
    *node = p;
    return DL_OK;
}

dl_status
dl_sql_rotate_cross(dl_arena *arena, dl_sql_plan **node, bool *out_rotated, dl_error *err) {
    *out_rotated = false;
    dl_sql_plan *f = *node;
    dl_sql_plan *j = f->left;
    if (!is_bare_join(j) || !is_bare_join(j->left) || j->left->u.join.type != DL_SQL_JOIN_T_CROSS) {
        return DL_OK;
    }
    dl_sql_plan *a = j->left->left;
    dl_sql_plan *b = j->left->right;
    dl_sql_plan *c = j->right;
    int32_t wa = a->n_cols;
    int32_t wb = b->n_cols;
    int32_t wc = c->n_cols;
    range ra = {0, wa};
    range rb = {wa, wa + wb};
    range rc = {wa + wb, wa + wb + wc};
    dl_sql_bexpr *cond = f->u.cond;
    dl_sql_bexpr **conj = cond->kind == DL_SQL_BEXPR_AND ? cond->args : &f->u.cond;
    int32_t n = cond->kind == DL_SQL_BEXPR_AND ? cond->n_args : 1;
    bool with_a = any_equality(conj, n, ra, rc);
    if (any_equality(conj, n, ra, rb) || (!with_a && !any_equality(conj, n, rb, rc))) {
        return DL_OK;
    }
    int32_t *map = dl_arena_alloc_zero(arena, (size_t)(wa + wb + wc + 1) * sizeof(int32_t));
    DL_CHECK(map != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    for (int32_t i = 0; i < wa + wb + wc; i++) {
        bool in_a = i < wa;
        bool in_b = i >= wa && i < wa + wb;
        if (with_a) { /* (a CROSS c) CROSS b: a ++ c ++ b */
            map[i] = in_a ? i : in_b ? wa + wc + (i - wa) : wa + (i - wa - wb);
        } else { /* (b CROSS c) CROSS a: b ++ c ++ a */
            map[i] = in_a ? wb + wc + i : in_b ? i - wa : wb + (i - wa - wb);
        }
    }
    DL_TRY(with_a ? rotate(arena, node, a, b, c, map, err)
                  : rotate(arena, node, b, a, c, map, err));
    *out_rotated = true;
    return DL_OK;
}
