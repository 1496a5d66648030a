/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Join ordering by cost (sql_optimize.c's pass after filter pushdown).
 *
 * A cluster is a tree of INNER and CROSS joins (not null-aware), with the FILTERs the pushdown
 * left between them; its relations are the inputs below it that are not such joins (scans,
 * aggregates, outer/semi/anti joins: those keep their place and their semantics, and their own
 * insides are ordered on their own). The cluster's output is its relations' columns side by
 * side, in the order the query wrote them; every key, residual and filter of the cluster is a
 * predicate over those columns, reading a set of relations.
 *
 * Each relation's rows are its estimate (sql_optimize_card.c) times the selectivity of its
 * own predicates; a set of relations has the product of its relations' rows times the
 * selectivity of every predicate within it (an equality of two relations: 1/max of their
 * key's distinct values, see dl_sql_join_card). The cost of a plan is the sum of its joins'
 * output rows and build sides. Up to DP_MAX relations, dynamic programming over subsets
 * (DPsub) finds the cheapest bushy tree; a connected set (by equalities) is only ever split
 * into two connected halves with an equality between them, so there is a cross product only
 * where the join graph is disconnected. Beyond DP_MAX, greedily: the pair of trees with the
 * fewest rows joined first, connected pairs before any other.
 *
 * The tree is rebuilt: the smaller side of each join on the right (the build side), the
 * equalities between its sides as its keys and the other predicates of both sides as its
 * residual, a relation's own predicates in a FILTER over it, what cannot move (volatile
 * calls, subqueries) in a FILTER on top, and a PROJECT restoring the cluster's columns in
 * their first order, so every expression above still reads the right positions.
 */
#include <math.h>
#include <string.h>

#include "sql/plan/sql_plan.h"

#define DP_MAX            10
#define MAX_RELS          64
#define OTHER_SELECTIVITY 0.5

typedef uint64_t relset;

typedef struct rel {
    dl_sql_plan **slot; /* where the relation hangs in the old tree */
    int32_t base;       /* its first column in the cluster's output */
    double rows;        /* estimate after its own predicates */
} rel;

/* A predicate over the cluster's columns: an expression, or a key pair of an existing join. */
typedef struct pred {
    dl_sql_bexpr *expr;  /* NULL for a key pair */
    dl_sql_bexpr *l, *r; /* a key pair's sides */
    bool is_null_equal;
    bool is_opaque; /* volatile or a subquery: stays on top */
    bool is_placed;
    relset mask;         /* the relations it reads */
    relset lmask, rmask; /* an equality's sides (0 when it is none) */
    double sel;          /* among the relations it reads */
} pred;

typedef struct cluster {
    dl_arena *arena;
    rel *rels;
    int32_t n_rels, cap_rels;
    pred *preds;
    int32_t n_preds, cap_preds;
    int32_t n_cols;
    bool is_unsafe; /* a key pair with a side over several relations: left as it is */
} cluster;

/* A node of the chosen tree: a relation (left < 0, right = its index) or a join. */
typedef struct tnode {
    relset mask;
    int32_t left, right;
    double rows, cost;
} tnode;

/* ---- flattening ----------------------------------------------------------------------------- */

static bool
is_cluster_join(const dl_sql_plan *p) {
    return p->kind == DL_SQL_PLAN_JOIN && p->left != NULL && p->right != NULL &&
           (p->u.join.type == DL_SQL_JOIN_T_INNER || p->u.join.type == DL_SQL_JOIN_T_CROSS) &&
           !p->u.join.is_null_aware;
}

static bool
is_cluster_node(const dl_sql_plan *p) {
    return is_cluster_join(p) ||
           (p->kind == DL_SQL_PLAN_FILTER && p->left != NULL && is_cluster_join(p->left));
}

static dl_status
grow(dl_arena *arena, void **items, int32_t n, int32_t *cap, size_t size, dl_error *err) {
    if (n < *cap) {
        return DL_OK;
    }
    int32_t want = *cap > 0 ? 2 * *cap : 8;
    void *more = dl_arena_alloc_zero(arena, (size_t)want * size);
    DL_CHECK(more != NULL, err, DL_ERR_NOMEM, "out of memory ordering joins");
    dl_sql_copy(more, *items, (size_t)n * size);
    *items = more;
    *cap = want;
    return DL_OK;
}

static dl_status
add_pred(cluster *c, pred p, dl_error *err) {
    DL_TRY(grow(c->arena, (void **)&c->preds, c->n_preds, &c->cap_preds, sizeof(pred), err));
    c->preds[c->n_preds++] = p;
    return DL_OK;
}

/* Adds the conjuncts of e (over columns starting at base) as predicates. */
static dl_status
add_conjuncts(cluster *c, const dl_sql_bexpr *e, int32_t base, dl_error *err) {
    int32_t n = e->kind == DL_SQL_BEXPR_AND ? e->n_args : 1;
    for (int32_t i = 0; i < n; i++) {
        const dl_sql_bexpr *x = e->kind == DL_SQL_BEXPR_AND ? e->args[i] : e;
        dl_sql_bexpr *g = dl_sql_bexpr_shift(c->arena, x, base);
        DL_CHECK(g != NULL, err, DL_ERR_NOMEM, "out of memory ordering joins");
        DL_TRY(add_pred(c, (pred){.expr = g}, err));
    }
    return DL_OK;
}

static dl_status
flatten(cluster *c, dl_sql_plan **slot, int32_t base, dl_error *err) {
    dl_sql_plan *p = *slot;
    if (p->kind == DL_SQL_PLAN_FILTER && is_cluster_join(p->left)) {
        DL_TRY(add_conjuncts(c, p->u.cond, base, err));
        return flatten(c, &p->left, base, err);
    }
    if (!is_cluster_join(p)) {
        DL_TRY(grow(c->arena, (void **)&c->rels, c->n_rels, &c->cap_rels, sizeof(rel), err));
        c->rels[c->n_rels++] = (rel){.slot = slot, .base = base};
        return DL_OK;
    }
    int32_t nl = p->left->n_cols;
    DL_TRY(flatten(c, &p->left, base, err));
    DL_TRY(flatten(c, &p->right, base + nl, err));
    const dl_sql_join *jn = &p->u.join;
    for (int32_t k = 0; k < jn->n_keys; k++) {
        pred kp = {.is_null_equal = jn->is_null_equal[k]};
        kp.l = dl_sql_bexpr_shift(c->arena, jn->left_keys[k], base);
        kp.r = dl_sql_bexpr_shift(c->arena, jn->right_keys[k], base + nl);
        DL_CHECK(kp.l != NULL && kp.r != NULL, err, DL_ERR_NOMEM, "out of memory ordering joins");
        DL_TRY(add_pred(c, kp, err));
    }
    if (jn->residual != NULL) {
        DL_TRY(add_conjuncts(c, jn->residual, base, err));
    }
    return DL_OK;
}

/* ---- what predicates read ------------------------------------------------------------------- */

static int32_t
rel_of(const cluster *c, int32_t col) {
    int32_t r = 0;
    while (r + 1 < c->n_rels && c->rels[r + 1].base <= col) {
        r++;
    }
    return r;
}

static void
reads(const cluster *c, const dl_sql_bexpr *e, relset *mask, bool *is_opaque) {
    if (e->kind == DL_SQL_BEXPR_COLUMN && e->index >= 0 && e->index < c->n_cols) {
        *mask |= (relset)1 << rel_of(c, e->index);
    }
    *is_opaque = *is_opaque || e->kind == DL_SQL_BEXPR_SUBQUERY || e->kind == DL_SQL_BEXPR_OUTER ||
                 (e->kind == DL_SQL_BEXPR_CALL && e->fn != NULL && e->fn->is_volatile);
    for (int32_t i = 0; i < e->n_args; i++) {
        reads(c, e->args[i], mask, is_opaque);
    }
}

static bool
is_single(relset s) {
    return s != 0 && (s & (s - 1)) == 0;
}

static int32_t
index_of(relset s) {
    int32_t i = 0;
    while (((s >> i) & 1) == 0) {
        i++;
    }
    return i;
}

/* The distinct values of side e (a column of one relation), or -1. */
static double
side_ndv(cluster *c, const dl_sql_bexpr *e, relset mask) {
    while (e->kind == DL_SQL_BEXPR_CAST) {
        e = e->args[0];
    }
    if (e->kind != DL_SQL_BEXPR_COLUMN || !is_single(mask)) {
        return -1;
    }
    const rel *r = &c->rels[index_of(mask)];
    return dl_sql_column_ndv(c->arena, *r->slot, e->index - r->base);
}

static double
rows_of_mask(const cluster *c, relset s) {
    double rows = 1.0;
    for (int32_t r = 0; r < c->n_rels; r++) {
        rows *= ((s >> r) & 1) != 0 ? DL_MAX(1.0, c->rels[r].rows) : 1.0;
    }
    return rows;
}

/* Fills mask, lmask/rmask and sel of predicate p. */
static void
classify(cluster *c, pred *p) {
    bool is_opaque = false;
    if (p->expr == NULL) {
        reads(c, p->l, &p->lmask, &is_opaque);
        reads(c, p->r, &p->rmask, &is_opaque);
        p->mask = p->lmask | p->rmask;
        c->is_unsafe = c->is_unsafe || !is_single(p->lmask) || !is_single(p->rmask);
    } else {
        reads(c, p->expr, &p->mask, &is_opaque);
        const dl_sql_bexpr *e = p->expr;
        bool is_eq = e->kind == DL_SQL_BEXPR_CALL && e->n_args == 2 && e->fn != NULL &&
                     (strcmp(e->fn->name, "=") == 0 || strcmp(e->fn->name, "==") == 0 ||
                      strcmp(e->fn->name, "<=>") == 0);
        if (is_eq && !is_opaque) {
            relset a = 0, b = 0;
            bool ignored = false;
            reads(c, e->args[0], &a, &ignored);
            reads(c, e->args[1], &b, &ignored);
            if (a != 0 && b != 0 && (a & b) == 0) {
                p->lmask = a;
                p->rmask = b;
                p->l = e->args[0];
                p->r = e->args[1];
            }
        }
    }
    p->is_opaque = is_opaque;
    p->sel = 1.0;
    if (is_opaque || p->mask == 0 || is_single(p->mask)) {
        return;
    }
    if (p->lmask == 0) {
        p->sel = OTHER_SELECTIVITY;
        return;
    }
    double nl = side_ndv(c, p->l, p->lmask);
    double nr = side_ndv(c, p->r, p->rmask);
    double rl = rows_of_mask(c, p->lmask);
    double rr = rows_of_mask(c, p->rmask);
    p->sel = dl_sql_join_card(rl, rr, &nl, &nr, 1) / (rl * rr);
}

/* Second and further equalities between the same two relation sets are damped (a composite
 * key's parts are correlated), and each relation's own predicates scale its rows. */
static void
classify_all(cluster *c) {
    for (int32_t r = 0; r < c->n_rels; r++) {
        c->rels[r].rows = (*c->rels[r].slot)->est_rows >= 0 ? (*c->rels[r].slot)->est_rows : 1000;
    }
    for (int32_t i = 0; i < c->n_preds; i++) {
        classify(c, &c->preds[i]);
    }
    for (int32_t i = 0; i < c->n_preds; i++) {
        pred *p = &c->preds[i];
        for (int32_t j = 0; j < i && p->lmask != 0; j++) {
            const pred *q = &c->preds[j];
            bool same = (q->lmask == p->lmask && q->rmask == p->rmask) ||
                        (q->lmask == p->rmask && q->rmask == p->lmask);
            if (same) {
                p->sel = sqrt(p->sel);
                break;
            }
        }
        if (is_single(p->mask) && !p->is_opaque && p->expr != NULL) {
            rel *r = &c->rels[index_of(p->mask)];
            dl_sql_bexpr *local = dl_sql_bexpr_shift(c->arena, p->expr, -r->base);
            r->rows *=
                local != NULL ? dl_sql_selectivity(c->arena, *r->slot, local) : OTHER_SELECTIVITY;
        }
    }
}

/* ---- enumeration ---------------------------------------------------------------------------- */

static double
rows_of(const cluster *c, relset s) {
    double rows = rows_of_mask(c, s);
    for (int32_t i = 0; i < c->n_preds; i++) {
        const pred *p = &c->preds[i];
        if (!is_single(p->mask) && p->mask != 0 && (p->mask & ~s) == 0) {
            rows *= p->sel;
        }
    }
    return DL_MAX(1.0, rows);
}

/* Whether an equality joins s1 and s2 (each side within one of them). */
static bool
has_edge(const cluster *c, relset s1, relset s2) {
    for (int32_t i = 0; i < c->n_preds; i++) {
        const pred *p = &c->preds[i];
        if (p->lmask == 0) {
            continue;
        }
        if (((p->lmask & ~s1) == 0 && (p->rmask & ~s2) == 0) ||
            ((p->lmask & ~s2) == 0 && (p->rmask & ~s1) == 0)) {
            return true;
        }
    }
    return false;
}

typedef struct forest {
    tnode *nodes;
    int32_t n;
} forest;

static int32_t
add_node(forest *f, relset mask, int32_t left, int32_t right, double rows, double cost) {
    f->nodes[f->n] =
        (tnode){.mask = mask, .left = left, .right = right, .rows = rows, .cost = cost};
    return f->n++;
}

static double
join_cost(const tnode *a, const tnode *b, double rows) {
    return a->cost + b->cost + rows + DL_MIN(a->rows, b->rows);
}

/* DPsub over the subsets of the n relations: *out_root is the best tree of them all. */
static dl_status
enumerate_dp(cluster *c, forest *f, int32_t *out_root, dl_error *err) {
    size_t n_sets = (size_t)1 << c->n_rels;
    int32_t *best = dl_arena_alloc_zero(c->arena, n_sets * sizeof(int32_t));
    bool *is_conn = dl_arena_alloc_zero(c->arena, n_sets);
    DL_CHECK(best != NULL && is_conn != NULL, err, DL_ERR_NOMEM, "out of memory ordering joins");
    for (relset s = 1; s < n_sets; s++) {
        if (is_single(s)) {
            int32_t r = index_of(s);
            best[s] = add_node(f, s, -1, r, DL_MAX(1.0, c->rels[r].rows), 0);
            is_conn[s] = true;
            continue;
        }
        double rows = rows_of(c, s);
        int32_t pick_l = -1, pick_r = -1;
        double pick_cost = HUGE_VAL;
        bool pick_conn = false;
        for (relset s1 = (s - 1) & s; s1 > 0; s1 = (s1 - 1) & s) {
            relset s2 = s ^ s1;
            if (s1 < s2) {
                continue; /* each split once */
            }
            bool conn = is_conn[s1] && is_conn[s2] && has_edge(c, s1, s2);
            if (pick_conn && !conn) {
                continue;
            }
            const tnode *a = &f->nodes[best[s1]];
            const tnode *b = &f->nodes[best[s2]];
            double cost = join_cost(a, b, rows);
            if ((conn && !pick_conn) || cost < pick_cost) {
                pick_l = best[s1];
                pick_r = best[s2];
                pick_cost = cost;
                pick_conn = conn;
            }
        }
        best[s] = add_node(f, s, pick_l, pick_r, rows, pick_cost);
        is_conn[s] = pick_conn;
    }
    *out_root = best[n_sets - 1];
    return DL_OK;
}

/* Greedy: the pair of trees whose join has the fewest rows (connected pairs first) joins. */
static void
enumerate_greedy(cluster *c, forest *f, int32_t *active, int32_t *out_root) {
    int32_t n = c->n_rels;
    for (int32_t r = 0; r < n; r++) {
        active[r] = add_node(f, (relset)1 << r, -1, r, DL_MAX(1.0, c->rels[r].rows), 0);
    }
    while (n > 1) {
        int32_t bi = 0, bj = 1;
        double brows = HUGE_VAL;
        bool bconn = false;
        for (int32_t i = 0; i < n; i++) {
            for (int32_t j = i + 1; j < n; j++) {
                const tnode *a = &f->nodes[active[i]];
                const tnode *b = &f->nodes[active[j]];
                bool conn = has_edge(c, a->mask, b->mask);
                if (bconn && !conn) {
                    continue;
                }
                double rows = rows_of(c, a->mask | b->mask);
                if ((conn && !bconn) || rows < brows) {
                    bi = i;
                    bj = j;
                    brows = rows;
                    bconn = conn;
                }
            }
        }
        const tnode *a = &f->nodes[active[bi]];
        const tnode *b = &f->nodes[active[bj]];
        active[bi] =
            add_node(f, a->mask | b->mask, active[bi], active[bj], brows, join_cost(a, b, brows));
        active[bj] = active[--n];
    }
    *out_root = active[0];
}

/* ---- rebuilding ----------------------------------------------------------------------------- */

/* A built subtree: its plan and, per cluster column, its position in the plan's output. */
typedef struct built {
    dl_sql_plan *plan;
    int32_t *pos;
} built;

static dl_status
new_pos(cluster *c, int32_t **out, dl_error *err) {
    *out = dl_arena_alloc_zero(c->arena, (size_t)(c->n_cols + 1) * sizeof(int32_t));
    DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory ordering joins");
    for (int32_t i = 0; i < c->n_cols; i++) {
        (*out)[i] = -1;
    }
    return DL_OK;
}

static dl_status
remap_to(cluster *c, const dl_sql_bexpr *e, const int32_t *pos, dl_sql_bexpr **out, dl_error *err) {
    *out = dl_sql_bexpr_remap(c->arena, e, pos, c->n_cols);
    DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory ordering joins");
    return DL_OK;
}

static dl_status
build_rel(cluster *c, int32_t r, built *out, dl_error *err) {
    const rel *rl = &c->rels[r];
    dl_sql_plan *p = *rl->slot;
    DL_TRY(new_pos(c, &out->pos, err));
    for (int32_t i = 0; i < p->n_cols; i++) {
        out->pos[rl->base + i] = i;
    }
    dl_sql_bexpr **own = dl_arena_alloc_zero(c->arena, (size_t)(c->n_preds + 1) * sizeof(void *));
    DL_CHECK(own != NULL, err, DL_ERR_NOMEM, "out of memory ordering joins");
    int32_t n = 0;
    for (int32_t i = 0; i < c->n_preds; i++) {
        pred *q = &c->preds[i];
        if (!q->is_placed && !q->is_opaque && q->expr != NULL && q->mask == (relset)1 << r) {
            DL_TRY(remap_to(c, q->expr, out->pos, &own[n++], err));
            q->is_placed = true;
        }
    }
    DL_TRY(dl_sql_filter_over(c->arena, p, own, n, &out->plan, err));
    out->plan->est_rows = DL_MAX(1.0, rl->rows);
    return DL_OK;
}

/* A JOIN node of l and r (output l ++ r, every column nullable as the binder's joins). */
static dl_status
join_node(cluster *c, dl_sql_plan *l, dl_sql_plan *r, dl_sql_plan **out, dl_error *err) {
    int32_t n = l->n_cols + r->n_cols;
    dl_type_field *f = dl_arena_alloc_zero(c->arena, (size_t)(n + 1) * sizeof(*f));
    size_t cap = (size_t)c->n_preds + 1;
    dl_sql_bexpr **lk = dl_arena_alloc_zero(c->arena, cap * sizeof(void *));
    dl_sql_bexpr **rk = dl_arena_alloc_zero(c->arena, cap * sizeof(void *));
    bool *ne = dl_arena_alloc_zero(c->arena, cap);
    DL_CHECK(f != NULL && lk != NULL && rk != NULL && ne != NULL, err, DL_ERR_NOMEM,
             "out of memory ordering joins");
    dl_sql_copy(f, l->schema->fields, (size_t)l->n_cols * sizeof(*f));
    dl_sql_copy(f + l->n_cols, r->schema->fields, (size_t)r->n_cols * sizeof(*f));
    for (int32_t i = 0; i < n; i++) {
        f[i].is_nullable = true;
    }
    DL_TRY(dl_sql_plan_new(c->arena, DL_SQL_PLAN_JOIN, f, n, out, err));
    (*out)->left = l;
    (*out)->right = r;
    (*out)->loc = l->loc;
    (*out)->u.join = (dl_sql_join){
        .type = DL_SQL_JOIN_T_CROSS, .left_keys = lk, .right_keys = rk, .is_null_equal = ne};
    return DL_OK;
}

/* Places on join j (sides with relations sl and sr, positions pl, pr, pj) every predicate that
 * needs both sides: equalities as keys, the rest as the residual. */
static dl_status
place_on_join(cluster *c, dl_sql_plan *j, relset sl, relset sr, const built *bl, const built *br,
              const int32_t *pj, dl_error *err) {
    dl_sql_join *jn = &j->u.join;
    dl_sql_bexpr **rest = dl_arena_alloc_zero(c->arena, (size_t)(c->n_preds + 1) * sizeof(void *));
    DL_CHECK(rest != NULL, err, DL_ERR_NOMEM, "out of memory ordering joins");
    int32_t n_rest = 0;
    int32_t nl = j->left->n_cols;
    int32_t nt = j->n_cols;
    for (int32_t i = 0; i < c->n_preds; i++) {
        pred *q = &c->preds[i];
        relset s = sl | sr;
        if (q->is_placed || q->is_opaque || (q->mask & ~s) != 0 || (q->mask & sl) == 0 ||
            (q->mask & sr) == 0) {
            continue;
        }
        q->is_placed = true;
        if (q->expr == NULL) { /* a key pair: each side within one relation (not is_unsafe) */
            bool is_lr = (q->lmask & sl) != 0;
            DL_TRY(remap_to(c, is_lr ? q->l : q->r, bl->pos, &jn->left_keys[jn->n_keys], err));
            DL_TRY(remap_to(c, is_lr ? q->r : q->l, br->pos, &jn->right_keys[jn->n_keys], err));
            jn->is_null_equal[jn->n_keys++] = q->is_null_equal;
            continue;
        }
        dl_sql_bexpr *e = NULL;
        bool is_key = false;
        DL_TRY(remap_to(c, q->expr, pj, &e, err));
        DL_TRY(dl_sql_join_try_key(c->arena, jn, e, nl, nt, &is_key, err));
        if (!is_key) {
            rest[n_rest++] = e;
        }
    }
    jn->type = jn->n_keys > 0 ? DL_SQL_JOIN_T_INNER : DL_SQL_JOIN_T_CROSS;
    if (n_rest > 0) {
        DL_TRY(dl_sql_bexpr_and(c->arena, rest, n_rest, &jn->residual, err));
    }
    return DL_OK;
}

static dl_status
build(cluster *c, const forest *f, int32_t node, built *out, dl_error *err) {
    const tnode *t = &f->nodes[node];
    if (t->left < 0) {
        return build_rel(c, t->right, out, err);
    }
    int32_t li = t->left;
    int32_t ri = t->right;
    if (f->nodes[li].rows < f->nodes[ri].rows) { /* the smaller side builds */
        li = t->right;
        ri = t->left;
    }
    built bl, br;
    DL_TRY(build(c, f, li, &bl, err));
    DL_TRY(build(c, f, ri, &br, err));
    DL_TRY(join_node(c, bl.plan, br.plan, &out->plan, err));
    DL_TRY(new_pos(c, &out->pos, err));
    int32_t nl = bl.plan->n_cols;
    for (int32_t i = 0; i < c->n_cols; i++) {
        out->pos[i] = bl.pos[i] >= 0 ? bl.pos[i] : br.pos[i] >= 0 ? nl + br.pos[i] : -1;
    }
    DL_TRY(
        place_on_join(c, out->plan, f->nodes[li].mask, f->nodes[ri].mask, &bl, &br, out->pos, err));
    out->plan->est_rows = t->rows;
    return DL_OK;
}

/* The rebuilt cluster in place of *slot (whose output it keeps). */
static dl_status
rebuild(cluster *c, dl_sql_plan **slot, int32_t root, const forest *f, dl_error *err) {
    dl_sql_plan *old = *slot;
    built top;
    DL_TRY(build(c, f, root, &top, err));
    dl_sql_bexpr **rest = dl_arena_alloc_zero(c->arena, (size_t)(c->n_preds + 1) * sizeof(void *));
    dl_sql_bexpr **exprs = dl_arena_alloc_zero(c->arena, (size_t)(c->n_cols + 1) * sizeof(void *));
    DL_CHECK(rest != NULL && exprs != NULL, err, DL_ERR_NOMEM, "out of memory ordering joins");
    int32_t n_rest = 0;
    for (int32_t i = 0; i < c->n_preds; i++) {
        pred *q = &c->preds[i];
        if (!q->is_placed) { /* opaque, or reading no column */
            DL_TRY(remap_to(c, q->expr, top.pos, &rest[n_rest++], err));
        }
    }
    double rows = top.plan->est_rows;
    DL_TRY(dl_sql_filter_over(c->arena, top.plan, rest, n_rest, &top.plan, err));
    top.plan->est_rows = n_rest > 0 ? DL_MAX(1.0, rows * OTHER_SELECTIVITY) : rows;
    for (int32_t i = 0; i < c->n_cols; i++) {
        exprs[i] = dl_sql_bexpr_column(c->arena, top.pos[i], old->schema->fields[i].type);
        DL_CHECK(exprs[i] != NULL, err, DL_ERR_NOMEM, "out of memory ordering joins");
    }
    dl_sql_plan *p = NULL;
    DL_TRY(dl_sql_plan_new(c->arena, DL_SQL_PLAN_PROJECT, old->schema->fields, c->n_cols, &p, err));
    p->left = top.plan;
    p->loc = old->loc;
    p->u.project.exprs = exprs;
    p->u.project.n_exprs = c->n_cols;
    p->est_rows = top.plan->est_rows;
    *slot = p;
    return DL_OK;
}

/* Every key pair and predicate with one place to go is fine; a key pair whose sides span
 * several relations (an ON condition like a.x + b.y = c.z) is not split: the cluster stays. */
static dl_status
order_cluster(cluster *c, dl_sql_plan **slot, dl_error *err) {
    c->n_cols = (*slot)->n_cols;
    classify_all(c);
    if (c->is_unsafe || c->n_rels < 3 || c->n_rels > MAX_RELS) {
        return DL_OK;
    }
    bool is_dp = c->n_rels <= DP_MAX;
    size_t n_nodes = is_dp ? ((size_t)1 << c->n_rels) : (size_t)(2 * c->n_rels);
    forest f = {.nodes = dl_arena_alloc_zero(c->arena, n_nodes * sizeof(tnode))};
    int32_t *active = dl_arena_alloc_zero(c->arena, (size_t)c->n_rels * sizeof(int32_t));
    DL_CHECK(f.nodes != NULL && active != NULL, err, DL_ERR_NOMEM, "out of memory ordering joins");
    int32_t root = -1;
    if (is_dp) {
        DL_TRY(enumerate_dp(c, &f, &root, err));
    } else {
        enumerate_greedy(c, &f, active, &root);
    }
    return rebuild(c, slot, root, &f, err);
}

dl_status
dl_sql_order_joins(dl_arena *arena, dl_sql_plan **node, dl_error *err) {
    dl_sql_plan *p = *node;
    if (p == NULL) {
        return DL_OK;
    }
    if (!is_cluster_node(p)) {
        DL_TRY(dl_sql_order_joins(arena, &p->left, err));
        return dl_sql_order_joins(arena, &p->right, err);
    }
    cluster c = {.arena = arena};
    DL_TRY(flatten(&c, node, 0, err));
    for (int32_t r = 0; r < c.n_rels; r++) {
        DL_TRY(dl_sql_order_joins(arena, c.rels[r].slot, err));
    }
    return order_cluster(&c, node, err);
}
