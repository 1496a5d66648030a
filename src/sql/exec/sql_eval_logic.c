/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Logic and conditionals of the evaluator (sql_eval_int.h): AND, OR and NOT with SQL's
 * three-valued logic, IS [NOT] NULL/TRUE/FALSE, IN lists, CASE and COALESCE, and the select
 * path that filters use.
 *
 * Truth values are kept per row as 1 (TRUE), 0 (FALSE) and -1 (NULL). AND evaluates each
 * argument only on rows not yet FALSE, OR only on rows not yet TRUE; CASE evaluates a branch
 * only on the rows that reach it and COALESCE an argument only on rows still NULL, so errors
 * (division by zero in ANSI mode, raise_error) come only from rows that Spark evaluates too.
 */
#include <string.h>

#include "sql/exec/sql_agg_ht.h"
#include "sql/exec/sql_eval_int.h"

#define TV_TRUE  1
#define TV_FALSE 0
#define TV_NULL  (-1)

/* A BOOLEAN vector of count rows from truth values. */
static dl_status
bool_from_state(dl_sql_eval *ev, dl_sql_enode *node, const int8_t *state, int64_t count,
                dl_vector **out, dl_error *err) {
    dl_vector *vec = NULL;
    DL_TRY(dl_sql_enode_out(ev, node, dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN), count, &vec, err));
    uint8_t *bits = vec->data;
    bool has_null = false;
    for (int64_t k = 0; k < count; k++) {
        dl_vec_bit_put(bits, k, state[k] == TV_TRUE);
        has_null = has_null || state[k] == TV_NULL;
    }
    dl_vec_set_length(vec, count);
    if (has_null) {
        dl_status s = dl_vec_make_validity(vec, err);
        if (s != DL_OK) {
            dl_vec_unref(vec);
            return s;
        }
        for (int64_t k = 0; k < count; k++) {
            dl_vec_bit_put(vec->validity, k, state[k] != TV_NULL);
        }
    }
    *out = vec;
    return DL_OK;
}

/* Runs kid on the rows k[0..n) of in. */
static dl_status
run_on(dl_sql_eval *ev, dl_sql_enode *kid, const dl_sql_einput *in, const uint32_t *k, int64_t n,
       uint32_t *phys, dl_vector **out, dl_error *err) {
    if (n == in->count) {
        return dl_sql_enode_run(ev, kid, in, out, err);
    }
    dl_sql_einput sub = {0};
    dl_sql_einput_sub(in, k, n, phys, &sub);
    return dl_sql_enode_run(ev, kid, &sub, out, err);
}

static dl_status
eval_andor(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, dl_vector **out,
           dl_error *err) {
    bool is_and = node->expr->kind == DL_SQL_BEXPR_AND;
    int8_t dominant = is_and ? TV_FALSE : TV_TRUE;
    int8_t state[DL_BATCH_CAPACITY];
    memset(state, is_and ? TV_TRUE : TV_FALSE, (size_t)in->count);
    uint32_t *k = dl_sql_enode_scratch(ev, node, 0);
    uint32_t *phys = dl_sql_enode_scratch(ev, node, 1);
    DL_CHECK(k != NULL && phys != NULL, err, DL_ERR_NOMEM, "out of memory evaluating AND/OR");
    for (int32_t i = 0; i < node->n_kids; i++) {
        int64_t n = 0;
        for (int64_t r = 0; r < in->count; r++) {
            if (state[r] != dominant) {
                k[n++] = (uint32_t)r;
            }
        }
        if (n == 0) {
            break;
        }
        dl_vector *v = NULL;
        DL_TRY(run_on(ev, node->kids[i], in, k, n, phys, &v, err));
        dl_vec_unified u;
        dl_vec_unify(v, n, &u);
        for (int64_t j = 0; j < n; j++) {
            int b = dl_sql_bool_at(&u, j);
            if (b == dominant) {
                state[k[j]] = dominant;
            } else if (b == TV_NULL) {
                state[k[j]] = TV_NULL;
            }
        }
        dl_vec_unref(v);
    }
    return bool_from_state(ev, node, state, in->count, out, err);
}

static dl_status
eval_not_is(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, dl_vector **out,
            dl_error *err) {
    const dl_sql_bexpr *expr = node->expr;
    dl_vector *v = NULL;
    DL_TRY(dl_sql_enode_run(ev, node->kids[0], in, &v, err));
    int8_t state[DL_BATCH_CAPACITY];
    dl_vec_unified u;
    dl_vec_unify(v, in->count, &u);
    for (int64_t k = 0; k < in->count; k++) {
        bool is_null = u.validity != NULL && !dl_vec_bit_get(u.validity, k);
        if (expr->kind == DL_SQL_BEXPR_NOT) {
            int b = dl_sql_bool_at(&u, k);
            state[k] = (int8_t)(b == TV_NULL ? TV_NULL : !b);
            continue;
        }
        bool r = false;
        if (expr->is_kind == DL_SQL_BIS_NULL) {
            r = is_null;
        } else {
            int b = dl_sql_bool_at(&u, k);
            r = expr->is_kind == DL_SQL_BIS_TRUE ? b == TV_TRUE : b == TV_FALSE;
        }
        state[k] = (int8_t)(r != expr->is_not);
    }
    dl_vec_unref(v);
    return bool_from_state(ev, node, state, in->count, out, err);
}

/* One IN-list item compared with the argument on the rows still undecided. */
static dl_status
in_list_item(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, int32_t item,
             dl_vector *arg, int8_t *state, const uint8_t *arg_null, dl_error *err) {
    uint32_t *k = dl_sql_enode_scratch(ev, node, 0);
    uint32_t *phys = dl_sql_enode_scratch(ev, node, 1);
    DL_CHECK(k != NULL && phys != NULL, err, DL_ERR_NOMEM, "out of memory evaluating IN");
    int64_t n = 0;
    for (int64_t r = 0; r < in->count; r++) {
        if (state[r] != TV_TRUE && !arg_null[r]) {
            k[n++] = (uint32_t)r;
        }
    }
    if (n == 0) {
        return DL_OK;
    }
    dl_vector *argv[2] = {NULL, NULL};
    DL_TRY(dl_sql_vec_select(arg, k, n, &argv[0], err));
    dl_status s = run_on(ev, node->kids[item], in, k, n, phys, &argv[1], err);
    dl_vector *eq = NULL;
    if (s == DL_OK) {
        s = dl_sql_enode_call(ev, node, argv, 2, n, &eq, err);
    }
    dl_vec_unref(argv[0]);
    dl_vec_unref(argv[1]);
    DL_TRY(s);
    dl_vec_unified u;
    dl_vec_unify(eq, n, &u);
    for (int64_t j = 0; j < n; j++) {
        int b = dl_sql_bool_at(&u, j);
        if (b == TV_TRUE || b == TV_NULL) {
            state[k[j]] = (int8_t)b;
        }
    }
    dl_vec_unref(eq);
    return DL_OK;
}

/* Lists of at least this many constants are looked up in a hash set (Spark's InSet). */
#define IN_SET_MIN 8

void
dl_sql_eval_in_set_free(dl_sql_enode *node) {
    if (node->in_set != NULL) {
        const dl_allocator *alloc = node->in_set->alloc;
        dl_sql_agg_ht_destroy(node->in_set);
        dl_mem_free(alloc, node->in_set, sizeof(dl_sql_agg_ht));
        node->in_set = NULL;
    }
}

/* True when every item of the IN list is a constant of a type the set can hold. */
static bool
in_set_applies(const dl_sql_enode *node) {
    const dl_sql_bexpr *e = node->expr;
    if (e->n_args - 1 < IN_SET_MIN || dl_vec_type_is_nested(e->args[0]->type)) {
        return false;
    }
    for (int32_t i = 1; i < e->n_args; i++) {
        if (e->args[i]->kind != DL_SQL_BEXPR_CONST) {
            return false;
        }
    }
    return true;
}

/* Builds the set of the list's non-NULL constants. */
static dl_status
in_set_build(dl_sql_eval *ev, dl_sql_enode *node, dl_error *err) {
    const dl_sql_bexpr *e = node->expr;
    const dl_type *t = e->args[0]->type;
    dl_type_field f = {.name = "v", .type = t, .is_nullable = true};
    const dl_type *schema = NULL;
    DL_TRY(dl_vec_type_struct(&ev->arena, &f, 1, &schema, err));
    dl_vector *values = NULL;
    DL_TRY(dl_vec_new(ev->exec->alloc, t, e->n_args, &values, err));
    dl_status s = DL_OK;
    for (int32_t i = 1; i < e->n_args && s == DL_OK; i++) {
        if (dl_vec_is_null(e->args[i]->value, 0)) {
            node->in_set_has_null = true;
        } else {
            s = dl_vec_copy_sel(values, e->args[i]->value, dl_sql_identity_sel(0), 1, err);
        }
    }
    node->in_set = s == DL_OK ? dl_mem_alloc_zero(ev->exec->alloc, sizeof(dl_sql_agg_ht)) : NULL;
    if (s == DL_OK && node->in_set == NULL) {
        (void)dl_error_set(err, DL_ERR_NOMEM, "out of memory building an IN set");
        s = DL_ERR_NOMEM;
    }
    if (s == DL_OK) {
        dl_sql_agg_ht_init(node->in_set, ev->exec->alloc, schema, 0, NULL, NULL);
    }
    for (int64_t done = 0; s == DL_OK && done < values->length; done += DL_BATCH_CAPACITY) {
        int64_t n = DL_MIN(values->length - done, (int64_t)DL_BATCH_CAPACITY);
        dl_vector *part = NULL;
        uint32_t gids[DL_BATCH_CAPACITY];
        s = dl_vec_slice(values, done, n, &part, err);
        if (s == DL_OK) {
            s = dl_sql_agg_ht_find(node->in_set, &part, n, gids, err);
        }
        dl_vec_unref(part);
    }
    dl_vec_unref(values);
    return s;
}

/* x IN (constants) through the set: TRUE when found, else NULL when x or an item is NULL. */
static dl_status
eval_in_set(dl_sql_eval *ev, dl_sql_enode *node, dl_vector *arg, int64_t count, int8_t *state,
            dl_error *err) {
    if (node->in_set == NULL) {
        DL_TRY(in_set_build(ev, node, err));
    }
    uint32_t gids[DL_BATCH_CAPACITY];
    DL_TRY(dl_sql_agg_ht_probe(node->in_set, &arg, count, gids, err));
    for (int64_t k = 0; k < count; k++) {
        if (state[k] == TV_NULL) {
            continue;
        }
        if (gids[k] != UINT32_MAX) {
            state[k] = TV_TRUE;
        } else if (node->in_set_has_null) {
            state[k] = TV_NULL;
        } else {
            state[k] = TV_FALSE;
        }
    }
    return DL_OK;
}

static dl_status
eval_in_list(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, dl_vector **out,
             dl_error *err) {
    dl_vector *arg = NULL;
    DL_TRY(dl_sql_enode_run(ev, node->kids[0], in, &arg, err));
    int8_t state[DL_BATCH_CAPACITY];
    uint8_t arg_null[DL_BATCH_CAPACITY];
    dl_vec_unified u;
    dl_vec_unify(arg, in->count, &u);
    for (int64_t k = 0; k < in->count; k++) {
        arg_null[k] = (uint8_t)(u.validity != NULL && !dl_vec_bit_get(u.validity, k));
        state[k] = arg_null[k] ? TV_NULL : TV_FALSE;
    }
    dl_status s = DL_OK;
    if (in_set_applies(node)) {
        s = eval_in_set(ev, node, arg, in->count, state, err);
    }
    for (int32_t i = 1; i < node->n_kids && s == DL_OK && !in_set_applies(node); i++) {
        s = in_list_item(ev, node, in, i, arg, state, arg_null, err);
    }
    dl_vec_unref(arg);
    DL_TRY(s);
    if (node->expr->is_not) {
        for (int64_t k = 0; k < in->count; k++) {
            state[k] = (int8_t)(state[k] == TV_NULL ? TV_NULL : !state[k]);
        }
    }
    return bool_from_state(ev, node, state, in->count, out, err);
}

dl_status
dl_sql_eval_logic(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, dl_vector **out,
                  dl_error *err) {
    switch (node->expr->kind) {
    case DL_SQL_BEXPR_AND:
    case DL_SQL_BEXPR_OR:
        return eval_andor(ev, node, in, out, err);
    case DL_SQL_BEXPR_IN_LIST:
        return eval_in_list(ev, node, in, out, err);
    default:
        return eval_not_is(ev, node, in, out, err);
    }
}

/* ---- CASE and COALESCE --------------------------------------------------------------------- */

typedef struct branches {
    dl_vector *vecs[DL_SQL_MAX_BRANCHES];
    int32_t n;
    int32_t which[DL_BATCH_CAPACITY]; /* branch of row k, -1 for NULL */
    uint32_t pos[DL_BATCH_CAPACITY];  /* row of that branch's vector */
} branches;

/* The result: each row k from vecs[which[k]] at pos[k]. */
static dl_status
gather(dl_sql_eval *ev, dl_sql_enode *node, branches *br, int64_t count, dl_vector **out,
       dl_error *err) {
    const dl_type *type = node->expr->type;
    bool is_single = count > 0 && br->which[0] >= 0;
    for (int64_t k = 0; k < count && is_single; k++) {
        is_single = br->which[k] == br->which[0] && br->pos[k] == (uint32_t)k;
    }
    if (is_single) {
        *out = dl_vec_ref(br->vecs[br->which[0]]);
        return DL_OK;
    }
    dl_vector *res = NULL;
    DL_TRY(dl_sql_enode_out(ev, node, type, count, &res, err));
    dl_status s = DL_OK;
    for (int64_t k = 0; k < count && s == DL_OK;) {
        int32_t w = br->which[k];
        int64_t e = k + 1;
        while (e < count && br->which[e] == w) {
            e++;
        }
        if (w < 0) {
            for (int64_t r = k; r < e && s == DL_OK; r++) {
                s = dl_vec_append_null(res, err);
            }
        } else {
            s = dl_vec_copy_sel(res, br->vecs[w], &br->pos[k], e - k, err);
        }
        k = e;
    }
    if (s != DL_OK) {
        dl_vec_unref(res);
        return s;
    }
    *out = res;
    return DL_OK;
}

/* Removes the sorted rows t[0..nt) from the sorted rows r[0..*nr). */
static void
remove_rows(uint32_t *r, int64_t *nr, const uint32_t *t, int64_t nt) {
    int64_t w = 0;
    int64_t j = 0;
    for (int64_t i = 0; i < *nr; i++) {
        while (j < nt && t[j] < r[i]) {
            j++;
        }
        if (j < nt && t[j] == r[i]) {
            continue;
        }
        r[w++] = r[i];
    }
    *nr = w;
}

/* One WHEN: selects the rows of rem where cond holds, evaluates the result on them. */
static dl_status
case_when(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, int32_t i, branches *br,
          uint32_t *rem, int64_t *n_rem, dl_error *err) {
    uint32_t *tsel = dl_sql_enode_scratch(ev, node, 1);
    uint32_t *t = dl_sql_enode_scratch(ev, node, 2);
    uint32_t *phys = dl_sql_enode_scratch(ev, node, 3);
    DL_CHECK(tsel != NULL && t != NULL && phys != NULL, err, DL_ERR_NOMEM,
             "out of memory evaluating CASE");
    dl_sql_einput sub = {0};
    dl_sql_einput_sub(in, rem, *n_rem, phys, &sub);
    int64_t n_t = 0;
    DL_TRY(dl_sql_enode_select(ev, node->kids[2 * (int64_t)i], &sub, tsel, &n_t, err));
    if (n_t == 0) {
        return DL_OK;
    }
    for (int64_t j = 0; j < n_t; j++) {
        t[j] = rem[tsel[j]];
    }
    remove_rows(rem, n_rem, t, n_t);
    DL_TRY(run_on(ev, node->kids[2 * (int64_t)i + 1], in, t, n_t, phys, &br->vecs[i], err));
    for (int64_t j = 0; j < n_t; j++) {
        br->which[t[j]] = i;
        br->pos[t[j]] = (uint32_t)j;
    }
    return DL_OK;
}

static dl_status
case_branches(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, branches *br,
              dl_error *err) {
    uint32_t *rem = dl_sql_enode_scratch(ev, node, 0);
    uint32_t *phys = dl_sql_enode_scratch(ev, node, 3);
    DL_CHECK(rem != NULL && phys != NULL, err, DL_ERR_NOMEM, "out of memory evaluating CASE");
    int64_t n_rem = in->count;
    memcpy(rem, dl_sql_identity_sel(0), (size_t)n_rem * sizeof(uint32_t));
    int32_t n_when = (node->n_kids - (node->expr->has_else ? 1 : 0)) / 2;
    for (int32_t i = 0; i < n_when && n_rem > 0; i++) {
        DL_TRY(case_when(ev, node, in, i, br, rem, &n_rem, err));
    }
    if (n_rem > 0 && node->expr->has_else) {
        DL_TRY(
            run_on(ev, node->kids[node->n_kids - 1], in, rem, n_rem, phys, &br->vecs[n_when], err));
        for (int64_t j = 0; j < n_rem; j++) {
            br->which[rem[j]] = n_when;
            br->pos[rem[j]] = (uint32_t)j;
        }
    }
    return DL_OK;
}

static dl_status
coalesce_branches(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, branches *br,
                  dl_error *err) {
    uint32_t *rem = dl_sql_enode_scratch(ev, node, 0);
    uint32_t *phys = dl_sql_enode_scratch(ev, node, 3);
    DL_CHECK(rem != NULL && phys != NULL, err, DL_ERR_NOMEM, "out of memory evaluating coalesce");
    int64_t n_rem = in->count;
    memcpy(rem, dl_sql_identity_sel(0), (size_t)n_rem * sizeof(uint32_t));
    for (int32_t i = 0; i < node->n_kids && n_rem > 0; i++) {
        DL_TRY(run_on(ev, node->kids[i], in, rem, n_rem, phys, &br->vecs[i], err));
        dl_vec_unified u;
        dl_vec_unify(br->vecs[i], n_rem, &u);
        int64_t w = 0;
        for (int64_t j = 0; j < n_rem; j++) {
            if (u.validity != NULL && !dl_vec_bit_get(u.validity, j)) {
                rem[w++] = rem[j];
                continue;
            }
            br->which[rem[j]] = i;
            br->pos[rem[j]] = (uint32_t)j;
        }
        n_rem = w;
    }
    return DL_OK;
}

dl_status
dl_sql_eval_case(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, dl_vector **out,
                 dl_error *err) {
    DL_CHECK(node->n_kids <= DL_SQL_MAX_BRANCHES, err, DL_ERR_UNSUPPORTED,
             "CASE or COALESCE with more than %d branches", DL_SQL_MAX_BRANCHES);
    branches *br = dl_mem_alloc(ev->exec->alloc, sizeof(*br));
    DL_CHECK(br != NULL, err, DL_ERR_NOMEM, "out of memory evaluating CASE");
    memset(br->vecs, 0, sizeof(br->vecs));
    for (int64_t k = 0; k < in->count; k++) {
        br->which[k] = -1;
    }
    dl_status s = node->expr->kind == DL_SQL_BEXPR_CASE ? case_branches(ev, node, in, br, err)
                                                        : coalesce_branches(ev, node, in, br, err);
    if (s == DL_OK) {
        s = gather(ev, node, br, in->count, out, err);
    }
    for (int32_t i = 0; i < DL_SQL_MAX_BRANCHES; i++) {
        dl_vec_unref(br->vecs[i]);
    }
    dl_mem_free(ev->exec->alloc, br, sizeof(*br));
    return s;
}

/* ---- the select path ----------------------------------------------------------------------- */

static dl_status
select_and(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, uint32_t *out_k,
           int64_t *out_n, dl_error *err) {
    uint32_t *tmp = dl_sql_enode_scratch(ev, node, 0);
    uint32_t *phys = dl_sql_enode_scratch(ev, node, 1);
    DL_CHECK(tmp != NULL && phys != NULL, err, DL_ERR_NOMEM, "out of memory filtering rows");
    int64_t n = in->count;
    memcpy(out_k, dl_sql_identity_sel(0), (size_t)n * sizeof(uint32_t));
    for (int32_t i = 0; i < node->n_kids && n > 0; i++) {
        dl_sql_einput sub = {0};
        dl_sql_einput_sub(in, out_k, n, phys, &sub);
        int64_t m = 0;
        DL_TRY(dl_sql_enode_select(ev, node->kids[i], n == in->count ? in : &sub, tmp, &m, err));
        for (int64_t j = 0; j < m; j++) {
            out_k[j] = out_k[tmp[j]];
        }
        n = m;
    }
    *out_n = n;
    return DL_OK;
}

static dl_status
select_or(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, uint32_t *out_k,
          int64_t *out_n, dl_error *err) {
    uint32_t *rem = dl_sql_enode_scratch(ev, node, 0);
    uint32_t *tmp = dl_sql_enode_scratch(ev, node, 1);
    uint32_t *phys = dl_sql_enode_scratch(ev, node, 2);
    uint32_t *merged = dl_sql_enode_scratch(ev, node, 3);
    DL_CHECK(rem != NULL && tmp != NULL && phys != NULL && merged != NULL, err, DL_ERR_NOMEM,
             "out of memory filtering rows");
    int64_t n_rem = in->count;
    memcpy(rem, dl_sql_identity_sel(0), (size_t)n_rem * sizeof(uint32_t));
    int64_t n = 0;
    for (int32_t i = 0; i < node->n_kids && n_rem > 0; i++) {
        dl_sql_einput sub = {0};
        dl_sql_einput_sub(in, rem, n_rem, phys, &sub);
        int64_t m = 0;
        DL_TRY(dl_sql_enode_select(ev, node->kids[i], &sub, tmp, &m, err));
        for (int64_t j = 0; j < m; j++) {
            tmp[j] = rem[tmp[j]];
        }
        int64_t a = 0, b = 0, w = 0;
        while (a < n || b < m) {
            merged[w++] = (b >= m || (a < n && out_k[a] < tmp[b])) ? out_k[a++] : tmp[b++];
        }
        memcpy(out_k, merged, (size_t)w * sizeof(uint32_t));
        n = w;
        remove_rows(rem, &n_rem, tmp, m);
    }
    *out_n = n;
    return DL_OK;
}

dl_status
dl_sql_enode_select(dl_sql_eval *ev, dl_sql_enode *node, const dl_sql_einput *in, uint32_t *out_k,
                    int64_t *out_n, dl_error *err) {
    if (node->expr->kind == DL_SQL_BEXPR_AND) {
        return select_and(ev, node, in, out_k, out_n, err);
    }
    if (node->expr->kind == DL_SQL_BEXPR_OR) {
        return select_or(ev, node, in, out_k, out_n, err);
    }
    dl_vector *v = NULL;
    DL_TRY(dl_sql_enode_run(ev, node, in, &v, err));
    dl_vec_unified u;
    dl_vec_unify(v, in->count, &u);
    int64_t n = 0;
    if (u.validity == NULL && v->layout == DL_VEC_FLAT) {
        const uint8_t *bits = u.data;
        for (int64_t k = 0; k < in->count; k++) {
            out_k[n] = (uint32_t)k;
            n += dl_vec_bit_get(bits, k);
        }
    } else {
        for (int64_t k = 0; k < in->count; k++) {
            if (dl_sql_bool_at(&u, k) == TV_TRUE) {
                out_k[n++] = (uint32_t)k;
            }
        }
    }
    dl_vec_unref(v);
    *out_n = n;
    return DL_OK;
}
