/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Filter pushdown (sql_optimize.c's first pass, top down): a FILTER moves below the nodes that
 * do not change which rows it keeps, so it can reach a scan (and skip files and row groups) or
 * shrink a join's input:
 *
 *   - through a PROJECT, with the projection's expressions substituted for its columns (when
 *     they are deterministic and hold no subquery);
 *   - into a join's inputs: conjuncts reading only the left side go left for INNER, CROSS,
 *     LEFT, SEMI, ANTI, MARK and SINGLE joins; only the right side, right for INNER, CROSS and
 *     RIGHT joins (pushing into the NULL-extended side of an outer join would change it);
 *   - into an INNER or CROSS join's keys: a conjunct `l = r` (or `<=>`) with l over the left
 *     side and r over the right becomes an equi-join key, so that `FROM a, b WHERE a.x = b.x`
 *     is a hash join and not a cross product (a CROSS join with keys becomes INNER). A
 *     disjunction whose every branch holds the same such equality (TPC-H q19's shape) gives
 *     that equality as a key as well, the disjunction staying above;
 *   - a disjunction over both sides of a join implies, for each side, the OR of its branches'
 *     conjuncts on that side alone (when every branch has one): that goes down the side as
 *     well, the disjunction staying above (TPC-H q7's nation pairs, q19's part and lineitem);
 *   - two FILTERs in a row become one, the lower one's conjuncts first (Spark's CombineFilters):
 *     rows run through them in order, so a condition below that guards one above (x <> 0
 *     under 10 / x > 1) still keeps ANSI mode's errors away from the rows it removes.
 */
#include <string.h>

#include "sql/plan/sql_plan.h"

static bool
is_opaque(const dl_sql_bexpr *e) {
    if (e->kind == DL_SQL_BEXPR_SUBQUERY || e->kind == DL_SQL_BEXPR_OUTER ||
        (e->kind == DL_SQL_BEXPR_CALL && e->fn->is_volatile)) {
        return true;
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        if (is_opaque(e->args[i])) {
            return true;
        }
    }
    return false;
}

/* A copy of e with COLUMN i replaced by a copy of exprs[i] (exprs NULL: by COLUMN i + shift). */
static dl_sql_bexpr *
rewrite(dl_arena *arena, const dl_sql_bexpr *e, dl_sql_bexpr *const *exprs, int32_t shift) {
    if (e->kind == DL_SQL_BEXPR_COLUMN && exprs != NULL) {
        return rewrite(arena, exprs[e->index], NULL, 0);
    }
    dl_sql_bexpr *c = dl_arena_memdup(arena, e, sizeof(*e));
    if (c == NULL) {
        return NULL;
    }
    if (e->n_args > 0) {
        c->args = dl_arena_alloc_zero(arena, (size_t)e->n_args * sizeof(void *));
        if (c->args == NULL) {
            return NULL;
        }
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        c->args[i] = rewrite(arena, e->args[i], exprs, shift);
        if (c->args[i] == NULL) {
            return NULL;
        }
    }
    if (c->kind == DL_SQL_BEXPR_COLUMN) {
        c->index += shift;
    }
    return c;
}

/* Lowest and highest COLUMN index of e (*lo > *hi when there is none). */
static void
column_range(const dl_sql_bexpr *e, int32_t *lo, int32_t *hi) {
    if (e->kind == DL_SQL_BEXPR_COLUMN) {
        *lo = DL_MIN(*lo, e->index);
        *hi = DL_MAX(*hi, e->index);
    }
    for (int32_t i = 0; i < e->n_args; i++) {
        column_range(e->args[i], lo, hi);
    }
}

dl_status
dl_sql_bexpr_and(dl_arena *arena, dl_sql_bexpr **conj, int32_t n, dl_sql_bexpr **out,
                 dl_error *err) {
    if (n == 1) {
        *out = conj[0];
        return DL_OK;
    }
    dl_sql_bexpr *e = dl_arena_alloc_zero(arena, sizeof(*e));
    dl_sql_bexpr **args = dl_arena_alloc_zero(arena, (size_t)n * sizeof(void *));
    DL_CHECK(e != NULL && args != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    memcpy(args, conj, (size_t)n * sizeof(void *));
    e->kind = DL_SQL_BEXPR_AND;
    e->type = dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN);
    e->loc = UINT32_MAX;
    e->n_args = n;
    e->args = args;
    *out = e;
    return DL_OK;
}

dl_status
dl_sql_filter_over(dl_arena *arena, dl_sql_plan *child, dl_sql_bexpr **conj, int32_t n,
                   dl_sql_plan **out, dl_error *err) {
    if (n == 0) {
        *out = child;
        return DL_OK;
    }
    dl_sql_plan *f = dl_arena_alloc_zero(arena, sizeof(*f));
    DL_CHECK(f != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    f->kind = DL_SQL_PLAN_FILTER;
    f->schema = child->schema;
    f->n_cols = child->n_cols;
    f->left = child;
    f->loc = child->loc;
    f->est_rows = child->est_rows < 0 ? -1.0 : child->est_rows * 0.5;
    DL_TRY(dl_sql_bexpr_and(arena, conj, n, &f->u.cond, err));
    *out = f;
    return DL_OK;
}

/* FILTER over PROJECT: PROJECT over FILTER with the expressions substituted. */
static dl_status
through_project(dl_arena *arena, dl_sql_plan **node, dl_error *err) {
    dl_sql_plan *f = *node;
    dl_sql_plan *p = f->left;
    for (int32_t i = 0; i < p->u.project.n_exprs; i++) {
        if (is_opaque(p->u.project.exprs[i])) {
            return DL_OK;
        }
    }
    dl_sql_bexpr *cond = rewrite(arena, f->u.cond, p->u.project.exprs, 0);
    DL_CHECK(cond != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    DL_TRY(dl_sql_filter_over(arena, p->left, &cond, 1, &p->left, err));
    *node = p;
    return DL_OK;
}

/* A filter's conjuncts sorted by where they can go below a join. */
typedef struct join_split {
    dl_sql_bexpr **left;  /* over the left columns */
    dl_sql_bexpr **right; /* over the right columns, rebased to them */
    dl_sql_bexpr **rest;  /* stay above the join */
    int32_t nl, nr, nk;
} join_split;

static dl_status
split_for_join(dl_arena *arena, const dl_sql_plan *j, dl_sql_bexpr **conj, int32_t n,
               join_split *sp, dl_error *err) {
    dl_sql_join_type t = j->u.join.type;
    bool to_left = t != DL_SQL_JOIN_T_RIGHT && t != DL_SQL_JOIN_T_FULL;
    bool to_right =
        t == DL_SQL_JOIN_T_INNER || t == DL_SQL_JOIN_T_CROSS || t == DL_SQL_JOIN_T_RIGHT;
    size_t un = (size_t)n;
    dl_sql_bexpr **parts = dl_arena_alloc_zero(arena, 3 * un * sizeof(void *));
    DL_CHECK(parts != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    dl_sql_bexpr **left = parts;
    dl_sql_bexpr **right = parts + un;
    dl_sql_bexpr **rest = parts + 2 * un;
    int32_t nl = 0, nr = 0, nk = 0;
    int32_t wl = j->left->n_cols;
    bool is_oom = false;
    for (int32_t i = 0; i < n; i++) {
        int32_t lo = INT32_MAX;
        int32_t hi = -1;
        column_range(conj[i], &lo, &hi);
        bool opaque = is_opaque(conj[i]) || hi < 0;
        bool is_right = !opaque && to_right && lo >= wl && hi < wl + j->right->n_cols;
        if (is_right) {
            right[nr] = rewrite(arena, conj[i], NULL, -wl);
            is_oom = is_oom || right[nr] == NULL;
            nr++;
        } else if (!opaque && to_left && hi < wl) {
            left[nl++] = conj[i];
        } else {
            rest[nk++] = conj[i];
        }
    }
    DL_CHECK(!is_oom, err, DL_ERR_NOMEM, "out of memory optimizing");
    *sp = (join_split){.left = left, .right = right, .rest = rest, .nl = nl, .nr = nr, .nk = nk};
    return DL_OK;
}

/* Whether a and c are the same condition: equal, or the same equality written the other way
 * round (`x = y` and `y = x`). */
static bool
is_same_condition(const dl_sql_bexpr *a, const dl_sql_bexpr *c) {
    if (dl_sql_bexpr_equal(a, c)) {
        return true;
    }
    bool is_eq = a->kind == DL_SQL_BEXPR_CALL && c->kind == DL_SQL_BEXPR_CALL && a->n_args == 2 &&
                 c->n_args == 2 && a->fn == c->fn &&
                 (strcmp(a->fn->name, "=") == 0 || strcmp(a->fn->name, "<=>") == 0);
    return is_eq && dl_sql_bexpr_equal(a->args[0], c->args[1]) &&
           dl_sql_bexpr_equal(a->args[1], c->args[0]);
}

/* Whether e is among the conjuncts of d. */
static bool
has_conjunct(const dl_sql_bexpr *d, const dl_sql_bexpr *e) {
    if (d->kind != DL_SQL_BEXPR_AND) {
        return is_same_condition(d, e);
    }
    for (int32_t i = 0; i < d->n_args; i++) {
        if (is_same_condition(d->args[i], e)) {
            return true;
        }
    }
    return false;
}

/* Whether every branch of the disjunction c after the first holds e. */
static bool
is_in_every_branch(const dl_sql_bexpr *c, const dl_sql_bexpr *e) {
    for (int32_t d = 1; d < c->n_args; d++) {
        if (!has_conjunct(c->args[d], e)) {
            return false;
        }
    }
    return true;
}

/* Adds to jn's keys the equalities that every branch of the disjunction c holds. */
static dl_status
keys_of_disjunction(dl_arena *arena, dl_sql_join *jn, const dl_sql_bexpr *c, int32_t nl, int32_t nt,
                    int32_t room, dl_error *err) {
    const dl_sql_bexpr *first = c->args[0];
    int32_t n_first = first->kind == DL_SQL_BEXPR_AND ? first->n_args : 1;
    for (int32_t i = 0; i < n_first && room > 0; i++) {
        const dl_sql_bexpr *e = first->kind == DL_SQL_BEXPR_AND ? first->args[i] : first;
        if (is_opaque(e) || !is_in_every_branch(c, e)) {
            continue;
        }
        /* A copy: the disjunction stays above the join, and plans are trees. */
        dl_sql_bexpr *k = rewrite(arena, e, NULL, 0);
        DL_CHECK(k != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
        bool is_key = false;
        DL_TRY(dl_sql_join_try_key(arena, jn, k, nl, nt, &is_key, err));
        room -= is_key ? 1 : 0;
    }
    return DL_OK;
}

/* Room in jn's key arrays for n more keys. */
static dl_status
grow_keys(dl_arena *arena, dl_sql_join *jn, int32_t n, dl_error *err) {
    size_t cap = (size_t)(jn->n_keys + n) + 1;
    dl_sql_bexpr **lk = dl_arena_alloc_zero(arena, cap * sizeof(void *));
    dl_sql_bexpr **rk = dl_arena_alloc_zero(arena, cap * sizeof(void *));
    bool *ne = dl_arena_alloc_zero(arena, cap * sizeof(bool));
    DL_CHECK(lk != NULL && rk != NULL && ne != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    for (int32_t k = 0; k < jn->n_keys; k++) {
        lk[k] = jn->left_keys[k];
        rk[k] = jn->right_keys[k];
        ne[k] = jn->is_null_equal[k];
    }
    jn->left_keys = lk;
    jn->right_keys = rk;
    jn->is_null_equal = ne;
    return DL_OK;
}

/* The two-sided conjuncts left above an INNER or CROSS join that are equalities become its
 * keys (the file comment); the others stay in sp->rest. */
static dl_status
rest_into_keys(dl_arena *arena, dl_sql_plan *j, join_split *sp, dl_error *err) {
    dl_sql_join *jn = &j->u.join;
    bool is_inner = jn->type == DL_SQL_JOIN_T_INNER || jn->type == DL_SQL_JOIN_T_CROSS;
    if (!is_inner || jn->is_null_aware || sp->nk == 0) {
        return DL_OK;
    }
    int32_t room = 2 * sp->nk + 8;
    DL_TRY(grow_keys(arena, jn, room, err));
    int32_t nl = j->left->n_cols;
    int32_t nt = nl + j->right->n_cols;
    int32_t kept = 0;
    for (int32_t i = 0; i < sp->nk; i++) {
        dl_sql_bexpr *c = sp->rest[i];
        bool is_key = false;
        if (!is_opaque(c) && c->kind == DL_SQL_BEXPR_OR && c->n_args > 1) {
            DL_TRY(keys_of_disjunction(arena, jn, c, nl, nt, room - sp->nk, err));
        } else if (!is_opaque(c)) {
            DL_TRY(dl_sql_join_try_key(arena, jn, c, nl, nt, &is_key, err));
        }
        if (!is_key) {
            sp->rest[kept++] = c;
        }
    }
    sp->nk = kept;
    if (jn->n_keys > 0 && jn->type == DL_SQL_JOIN_T_CROSS) {
        jn->type = DL_SQL_JOIN_T_INNER;
    }
    return DL_OK;
}

/* Whether e reads columns and only those in [lo, hi). */
static bool
reads_only(const dl_sql_bexpr *e, int32_t lo, int32_t hi) {
    int32_t a = INT32_MAX;
    int32_t z = -1;
    column_range(e, &a, &z);
    return z >= 0 && a >= lo && z < hi && !is_opaque(e);
}

/*
 * What the disjunction c implies about the columns [lo, hi) alone: the OR over its branches of
 * the AND of each branch's conjuncts that read only them ((a1 AND b1) OR (a2 AND b2) implies
 * a1 OR a2), as copies; NULL when some branch has no such conjunct.
 */
/* The AND of copies of the conjuncts of branch br that read only [lo, hi); NULL for none. */
static dl_status
branch_on(dl_arena *arena, const dl_sql_bexpr *br, int32_t lo, int32_t hi, dl_sql_bexpr **out,
          dl_error *err) {
    *out = NULL;
    int32_t n = br->kind == DL_SQL_BEXPR_AND ? br->n_args : 1;
    dl_sql_bexpr **parts = dl_arena_alloc_zero(arena, (size_t)n * sizeof(void *));
    DL_CHECK(parts != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++) {
        const dl_sql_bexpr *e = br->kind == DL_SQL_BEXPR_AND ? br->args[i] : br;
        if (!reads_only(e, lo, hi)) {
            continue;
        }
        parts[k] = rewrite(arena, e, NULL, 0);
        DL_CHECK(parts[k] != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
        k++;
    }
    return k > 0 ? dl_sql_bexpr_and(arena, parts, k, out, err) : DL_OK;
}

static dl_status
implied_on(dl_arena *arena, const dl_sql_bexpr *c, int32_t lo, int32_t hi, dl_sql_bexpr **out,
           dl_error *err) {
    *out = NULL;
    dl_sql_bexpr **branches = dl_arena_alloc_zero(arena, (size_t)c->n_args * sizeof(void *));
    DL_CHECK(branches != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    for (int32_t d = 0; d < c->n_args; d++) {
        DL_TRY(branch_on(arena, c->args[d], lo, hi, &branches[d], err));
        if (branches[d] == NULL) {
            return DL_OK;
        }
    }
    dl_sql_bexpr *disj = dl_arena_memdup(arena, c, sizeof(*c));
    DL_CHECK(disj != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    disj->args = branches;
    *out = disj;
    return DL_OK;
}

/* conj[0..n) and, for each disjunction over both sides of j, what it implies about each side
 * alone (TPC-H q7's nation pairs, q19's part and lineitem conditions), into *out. */
static dl_status
with_implied(dl_arena *arena, const dl_sql_plan *j, dl_sql_bexpr **conj, int32_t n,
             dl_sql_bexpr ***out, int32_t *out_n, dl_error *err) {
    dl_sql_bexpr **all = dl_arena_alloc_zero(arena, (size_t)(3 * n) * sizeof(void *));
    DL_CHECK(all != NULL, err, DL_ERR_NOMEM, "out of memory optimizing");
    int32_t wl = j->left->n_cols;
    int32_t wt = wl + (j->right != NULL ? j->right->n_cols : 0);
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++) {
        all[k++] = conj[i];
        int32_t lo = INT32_MAX;
        int32_t hi = -1;
        column_range(conj[i], &lo, &hi);
        if (conj[i]->kind != DL_SQL_BEXPR_OR || is_opaque(conj[i]) || lo >= wl || hi < wl) {
            continue;
        }
        dl_sql_bexpr *side = NULL;
        DL_TRY(implied_on(arena, conj[i], 0, wl, &side, err));
        all[k] = side;
        k += side != NULL ? 1 : 0;
        DL_TRY(implied_on(arena, conj[i], wl, wt, &side, err));
        all[k] = side;
        k += side != NULL ? 1 : 0;
    }
    *out = all;
    *out_n = k;
    return DL_OK;
}

/* FILTER over JOIN: the one-sided conjuncts into the sides that allow them (with what the
 * two-sided disjunctions imply about each side), equalities of the two sides into an inner
 * join's keys. */
static dl_status
into_join(dl_arena *arena, dl_sql_plan **node, dl_error *err) {
    dl_sql_plan *f = *node;
    dl_sql_plan *j = f->left;
    dl_sql_bexpr *c = f->u.cond;
    dl_sql_bexpr **conj = c->kind == DL_SQL_BEXPR_AND ? c->args : &f->u.cond;
    int32_t n = c->kind == DL_SQL_BEXPR_AND ? c->n_args : 1;
    DL_TRY(with_implied(arena, j, conj, n, &conj, &n, err));
    join_split sp;
    DL_TRY(split_for_join(arena, j, conj, n, &sp, err));
    DL_TRY(rest_into_keys(arena, j, &sp, err));
    DL_TRY(dl_sql_filter_over(arena, j->left, sp.left, sp.nl, &j->left, err));
    DL_TRY(dl_sql_filter_over(arena, j->right, sp.right, sp.nr, &j->right, err));
    if (sp.nk == 0) {
        *node = j;
        return DL_OK;
    }
    return dl_sql_bexpr_and(arena, sp.rest, sp.nk, &f->u.cond, err);
}

dl_status
dl_sql_push_filters(dl_arena *arena, dl_sql_plan **node, dl_error *err) {
    dl_sql_plan *p = *node;
    if (p == NULL) {
        return DL_OK;
    }
    for (int guard = 0; p->kind == DL_SQL_PLAN_FILTER && p->left != NULL && guard < 64; guard++) {
        dl_sql_plan *child = p->left;
        if (child->kind == DL_SQL_PLAN_FILTER) {
            dl_sql_bexpr *both[2] = {child->u.cond, p->u.cond};
            DL_TRY(dl_sql_bexpr_and(arena, both, 2, &child->u.cond, err));
            *node = child;
        } else if (child->kind == DL_SQL_PLAN_PROJECT) {
            DL_TRY(through_project(arena, node, err));
        } else if (child->kind == DL_SQL_PLAN_JOIN) {
            DL_TRY(into_join(arena, node, err));
        }
        if (*node == p) {
            break; /* nothing moved */
        }
        p = *node;
    }
    DL_TRY(dl_sql_push_filters(arena, &p->left, err));
    return dl_sql_push_filters(arena, &p->right, err);
}
