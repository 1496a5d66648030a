/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The hash join's probe side and output (sql_op_join_int.h): the per-thread state machine
 * that pulls probe batches, enumerates candidate pairs, applies the residual, and emits
 * matched pairs, unmatched probe rows, SEMI/ANTI selections, MARK columns and, once at the
 * end, unmatched build rows.
 *
 *   NEED_PROBE   pull a probe batch, find its groups; direct output when possible
 *   PAIRS        pairs from the cursor, a batch at a time
 *   TAIL         per probe row results: LEFT/FULL/SINGLE rows without a match, SEMI, ANTI,
 *                MARK
 *   FINISH       the probe input ended: RIGHT/FULL joins elect the last thread to emit the
 *                unmatched build rows (EMIT_BUILD), then DONE
 */
#include <string.h>

#include "sql/exec/sql_op_join_int.h"

static inline int64_t
phys_row(const dl_sql_join_local *l, int64_t k) {
    return dl_vec_batch_row(l->in, k);
}

static bool
emits_pairs(dl_sql_join_type t) {
    return t == DL_SQL_JOIN_T_INNER || t == DL_SQL_JOIN_T_CROSS || t == DL_SQL_JOIN_T_LEFT ||
           t == DL_SQL_JOIN_T_RIGHT || t == DL_SQL_JOIN_T_FULL || t == DL_SQL_JOIN_T_SINGLE;
}

static bool
keeps_unmatched_left(dl_sql_join_type t) {
    return t == DL_SQL_JOIN_T_LEFT || t == DL_SQL_JOIN_T_FULL || t == DL_SQL_JOIN_T_SINGLE;
}

static bool
marks_build(dl_sql_join_type t) {
    return t == DL_SQL_JOIN_T_RIGHT || t == DL_SQL_JOIN_T_FULL;
}

static dl_status
single_error(dl_error *err) {
    DL_FAIL(err, DL_ERR_DATA,
            "[SCALAR_SUBQUERY_TOO_MANY_ROWS] more than one row returned by a subquery used as an "
            "expression");
}

static inline void
mark_build_row(const dl_sql_join_state *st, int64_t b) {
    _Atomic(unsigned char) *m = &st->build.matched[b];
    if (atomic_load_explicit(m, memory_order_relaxed) == 0) {
        atomic_store_explicit(m, 1, memory_order_relaxed);
    }
}

/* Physical length of the probe batch's columns. */
static int64_t
probe_length(const dl_sql_join_local *l) {
    const dl_batch *in = l->in;
    if (in->n_cols > 0) {
        return in->cols[0]->length;
    }
    return in->sel != NULL && in->count > 0 ? (int64_t)in->sel[in->count - 1] + 1 : in->count;
}

/* ---- right columns ------------------------------------------------------------------------- */

dl_status
dl_sql_join_right_col(const dl_sql_join_state *st, dl_sql_join_local *l, int32_t c,
                      const uint32_t *idx, const uint8_t *is_null, int64_t n, dl_vector **out,
                      dl_error *err) {
    const dl_sql_join_build *b = &st->build;
    const uint16_t *codes = b->codes != NULL ? b->codes[c] : NULL;
    if (codes == NULL) {
        return dl_sql_dict_new(b->rows.cols[c], idx, is_null, n, out, err);
    }
    for (int64_t i = 0; i < n; i++) {
        l->code_idx[i] = codes[idx[i]];
    }
    return dl_sql_dict_new(b->small_dict[c], l->code_idx, is_null, n, out, err);
}

/* ---- loading a probe batch ----------------------------------------------------------------- */

static void
release_keys(const dl_sql_join_state *st, dl_sql_join_local *l) {
    for (int32_t k = 0; k < st->join->n_keys; k++) {
        dl_vec_unref(l->keys[k]);
        l->keys[k] = NULL;
    }
}

/* Pulls the next probe batch and finds its groups; false at the end of the input. */
static dl_status
load_probe(dl_sql_operator *op, dl_sql_join_local *l, bool *out_has_rows, dl_error *err) {
    dl_sql_join_state *st = op->state;
    release_keys(st, l);
    DL_TRY(dl_sql_op_next(op->children[0], l->child, l->in, err));
    int64_t count = l->in->count;
    *out_has_rows = count > 0;
    if (count == 0) {
        return DL_OK;
    }
    for (int32_t k = 0; k < st->join->n_keys; k++) {
        DL_TRY(dl_sql_eval_run(l->key_evals[k], l->in, &l->keys[k], err));
        dl_vec_unify(l->keys[k], count, &l->ukeys[k]);
        if (st->build.direct == NULL) {
            dl_sql_hash_vec(l->keys[k], count, l->hashes, k == 0);
        }
    }
    dl_sql_join_probe(st, l, count);
    memset(l->matched, 0, (size_t)count);
    memset(l->maybe, 0, (size_t)count);
    l->k = 0;
    l->pos = 0;
    l->is_in_chain = false;
    return DL_OK;
}

/* ---- direct output: every probe row has at most one candidate, no residual ---------------- */

static bool
can_emit_direct(const dl_sql_join_state *st, const dl_sql_join_local *l) {
    const dl_sql_join *j = st->join;
    return j->residual == NULL && j->n_keys > 0 && !l->has_dups && emits_pairs(j->type) &&
           probe_length(l) <= DL_BATCH_CAPACITY;
}

static dl_status
direct_right_cols(dl_sql_join_state *st, dl_sql_join_local *l, dl_batch *out, int64_t length,
                  dl_error *err) {
    const dl_sql_join_build *b = &st->build;
    if (b->rows.count == 0) {
        for (int32_t c = 0; c < st->n_right; c++) {
            dl_vector *v;
            DL_TRY(dl_vec_new_const_null(st->exec->alloc, b->rows.cols[c]->type, length, &v, err));
            dl_vec_batch_set_col(out, st->n_left + c, v);
        }
        return DL_OK;
    }
    memset(l->is_null, 1, (size_t)length);
    memset(l->rows, 0, (size_t)length * sizeof(uint32_t));
    for (int64_t k = 0; k < l->in->count; k++) {
        if (l->head[k] != 0) {
            int64_t p = phys_row(l, k);
            l->rows[p] = l->head[k] - 1;
            l->is_null[p] = 0;
        }
    }
    for (int32_t c = 0; c < st->n_right; c++) {
        dl_vector *v;
        DL_TRY(dl_sql_join_right_col(st, l, c, l->rows, l->is_null, length, &v, err));
        dl_vec_batch_set_col(out, st->n_left + c, v);
    }
    return DL_OK;
}

static dl_status
emit_direct(dl_sql_join_state *st, dl_sql_join_local *l, dl_batch *out, dl_error *err) {
    dl_sql_join_type t = st->join->type;
    int64_t length = probe_length(l);
    for (int32_t c = 0; c < st->n_left; c++) {
        dl_vec_batch_set_col(out, c, dl_vec_ref(l->in->cols[c]));
    }
    DL_TRY(direct_right_cols(st, l, out, length, err));
    int64_t n = 0;
    uint32_t *sel = l->pb; /* scratch */
    for (int64_t k = 0; k < l->in->count; k++) {
        if (l->head[k] != 0) {
            if (marks_build(t)) {
                mark_build_row(st, l->head[k] - 1);
            }
            sel[n++] = (uint32_t)phys_row(l, k);
        }
    }
    if (keeps_unmatched_left(t)) {
        if (l->in->sel != NULL) {
            return dl_vec_batch_set_sel(out, l->in->sel, l->in->count, err);
        }
        dl_vec_batch_set_count(out, l->in->count);
        return DL_OK;
    }
    return dl_vec_batch_set_sel(out, sel, n, err);
}

/* ---- pairs --------------------------------------------------------------------------------- */

static inline uint32_t
chain_next(const dl_sql_join_state *st, uint32_t b) {
    if (st->join->n_keys > 0) {
        return st->build.next[b];
    }
    return (int64_t)b + 1 < st->build.rows.count ? b + 2 : 0;
}

/* Fills l->pk/pb with up to a batch of candidate pairs from the cursor. */
static int64_t
next_pairs(const dl_sql_join_state *st, dl_sql_join_local *l) {
    int64_t n = 0;
    int64_t count = l->in->count;
    while (n < DL_BATCH_CAPACITY && l->k < count) {
        if (!l->is_in_chain) {
            l->pos = l->head[l->k];
            l->is_in_chain = true;
        }
        if (l->pos == 0) {
            l->k++;
            l->is_in_chain = false;
            continue;
        }
        l->pk[n] = (uint32_t)l->k;
        l->pb[n++] = l->pos - 1;
        l->pos = chain_next(st, l->pos - 1);
    }
    return n;
}

/* Fills target (left ++ right columns) with the n pairs. */
static dl_status
pairs_batch(dl_sql_join_state *st, dl_sql_join_local *l, int64_t n, dl_batch *target,
            dl_error *err) {
    for (int64_t i = 0; i < n; i++) {
        l->rows[i] = (uint32_t)phys_row(l, l->pk[i]);
    }
    for (int32_t c = 0; c < st->n_left; c++) {
        dl_vector *v;
        DL_TRY(dl_sql_vec_select(l->in->cols[c], l->rows, n, &v, err));
        dl_vec_batch_set_col(target, c, v);
    }
    for (int32_t c = 0; c < st->n_right; c++) {
        dl_vector *v;
        DL_TRY(dl_sql_join_right_col(st, l, c, l->pb, NULL, n, &v, err));
        dl_vec_batch_set_col(target, st->n_left + c, v);
    }
    dl_vec_batch_set_count(target, n);
    return DL_OK;
}

/* Counts the pairs of target that passed (its live rows) against their probe rows. */
static dl_status
record_pairs(dl_sql_join_state *st, dl_sql_join_local *l, const dl_batch *target, dl_error *err) {
    dl_sql_join_type t = st->join->type;
    for (int64_t i = 0; i < target->count; i++) {
        int64_t p = dl_vec_batch_row(target, i);
        uint32_t k = l->pk[p];
        if (l->matched[k] != 0 && t == DL_SQL_JOIN_T_SINGLE) {
            return single_error(err);
        }
        l->matched[k] = 1;
        if (marks_build(t)) {
            mark_build_row(st, l->pb[p]);
        }
    }
    return DL_OK;
}

/* The null-aware residual form: keeps the pairs of target whose residual is TRUE and notes
 * the probe rows of those where it is NULL (l->maybe). Assumes: target has no selection. */
static dl_status
select_three_valued(dl_sql_join_local *l, dl_batch *target, dl_error *err) {
    dl_vector *v = NULL;
    DL_TRY(dl_sql_eval_run(l->residual, target, &v, err));
    dl_vec_unified u;
    dl_vec_unify(v, target->count, &u);
    uint32_t *sel = l->rows; /* scratch: pairs_batch is done with it */
    int64_t n = 0;
    for (int64_t i = 0; i < target->count; i++) {
        if (u.validity != NULL && !dl_vec_bit_get(u.validity, i)) {
            l->maybe[l->pk[i]] = 1;
        } else if (dl_vec_bit_get(u.data, u.sel[i])) {
            sel[n++] = (uint32_t)i;
        }
    }
    dl_vec_unref(v);
    return dl_vec_batch_set_sel(target, sel, n, err);
}

/* One batch of pairs: into out for joins that emit pairs, else into l->pairs to learn which
 * probe rows match. *out_n is the number of pairs (0: the cursor is done). */
static dl_status
step_pairs(dl_sql_join_state *st, dl_sql_join_local *l, dl_batch *out, int64_t *out_n,
           dl_error *err) {
    int64_t n = next_pairs(st, l);
    *out_n = n;
    if (n == 0) {
        return DL_OK;
    }
    dl_batch *target = emits_pairs(st->join->type) ? out : l->pairs;
    DL_TRY(pairs_batch(st, l, n, target, err));
    if (l->residual != NULL && st->join->is_null_aware) {
        DL_TRY(select_three_valued(l, target, err));
    } else if (l->residual != NULL) {
        DL_TRY(dl_sql_eval_select(l->residual, target, err));
    }
    return record_pairs(st, l, target, err);
}

/* ---- per probe row results ----------------------------------------------------------------- */

/* True when probe row k and build row b are equal on keys 1.. (the correlation keys of an IN
 * subquery), NULL never equal to NULL unless the key is null-safe. */
static bool
rest_equal(const dl_sql_join_state *st, const dl_sql_join_local *l, int64_t k, int64_t b) {
    for (int32_t kk = 1; kk < st->join->n_keys; kk++) {
        const dl_vec_unified *u = &l->ukeys[kk];
        const dl_vector *bv = st->build.key_vecs[kk];
        bool pn = u->validity != NULL && !dl_vec_bit_get(u->validity, k);
        bool bn = dl_vec_is_null(bv, b);
        if (pn || bn) {
            if (!(pn && bn && st->join->is_null_equal[kk])) {
                return false;
            }
            continue;
        }
        if (!dl_sql_value_equal(l->keys[kk], k, bv, b)) {
            return false;
        }
    }
    return true;
}

/* True when some build row with a NULL first key, or (probe_null) any build row, matches probe
 * row k on the other keys. */
static bool
has_null_candidate(const dl_sql_join_state *st, const dl_sql_join_local *l, int64_t k,
                   bool is_probe_null) {
    const dl_sql_join_build *b = &st->build;
    if (st->join->n_keys == 1) {
        return is_probe_null ? b->rows.count > 0 : b->n_null_rows > 0;
    }
    if (is_probe_null) {
        for (int64_t r = 0; r < b->rows.count; r++) {
            if (rest_equal(st, l, k, r)) {
                return true;
            }
        }
        return false;
    }
    for (int64_t i = 0; i < b->n_null_rows; i++) {
        uint32_t r = b->null_rows[i];
        if (dl_vec_is_null(b->key_vecs[0], r) && rest_equal(st, l, k, r)) {
            return true;
        }
    }
    return false;
}

/*
 * MARK value of live row k: 1 TRUE, 0 FALSE, -1 NULL. A null-aware join (an IN subquery: key 0
 * is `x IN (SELECT y ...)`, the other keys its correlation) is NULL when no row matches but
 * one could have: x is NULL and some row matches the correlation, or some row with a NULL y
 * matches it. Otherwise a row without a match is FALSE (EXISTS).
 */
static int
mark_value(const dl_sql_join_state *st, const dl_sql_join_local *l, int64_t k) {
    const dl_sql_join *j = st->join;
    if (l->matched[k]) {
        return 1;
    }
    if (!j->is_null_aware || st->build.rows.count == 0) {
        return 0;
    }
    if (j->residual != NULL) {
        return l->maybe[k] != 0 ? -1 : 0;
    }
    if (j->n_keys == 0) {
        return 0;
    }
    const dl_vec_unified *u = &l->ukeys[0];
    bool is_probe_null = u->validity != NULL && !dl_vec_bit_get(u->validity, k);
    if (is_probe_null && j->is_null_equal[0]) {
        return 0; /* <=> compares NULL exactly: no match means none */
    }
    return has_null_candidate(st, l, k, is_probe_null) ? -1 : 0;
}

static dl_status
emit_mark(dl_sql_join_state *st, dl_sql_join_local *l, dl_batch *out, dl_error *err) {
    int64_t length = probe_length(l);
    for (int32_t c = 0; c < st->n_left; c++) {
        dl_vec_batch_set_col(out, c, dl_vec_ref(l->in->cols[c]));
    }
    dl_vector *mark;
    DL_TRY(dl_vec_new(st->exec->alloc, dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN), length, &mark, err));
    dl_vec_batch_set_col(out, st->n_left, mark);
    memset(mark->data, 0, dl_vec_bitmap_bytes(length));
    for (int64_t k = 0; k < l->in->count; k++) {
        int v = mark_value(st, l, k);
        int64_t p = phys_row(l, k);
        if (v < 0) {
            DL_TRY(dl_vec_make_validity(mark, err));
            dl_vec_bit_clear(mark->validity, p);
        } else if (v > 0) {
            dl_vec_bit_set(mark->data, p);
        }
    }
    dl_vec_set_length(mark, length);
    if (l->in->sel != NULL) {
        return dl_vec_batch_set_sel(out, l->in->sel, l->in->count, err);
    }
    dl_vec_batch_set_count(out, l->in->count);
    return DL_OK;
}

/* SEMI, ANTI: the probe batch narrowed to the chosen rows. */
static dl_status
emit_filtered(dl_sql_join_state *st, dl_sql_join_local *l, dl_batch *out, dl_error *err) {
    const dl_sql_join *j = st->join;
    int64_t n = 0;
    for (int64_t k = 0; k < l->in->count; k++) {
        bool keep;
        if (j->type == DL_SQL_JOIN_T_SEMI) {
            keep = l->matched[k] != 0;
        } else if (j->is_null_aware) {
            keep = mark_value(st, l, k) == 0;
        } else {
            keep = l->matched[k] == 0;
        }
        if (keep) {
            l->rows[n++] = (uint32_t)phys_row(l, k);
        }
    }
    for (int32_t c = 0; c < st->n_left; c++) {
        dl_vec_batch_set_col(out, c, dl_vec_ref(l->in->cols[c]));
    }
    return dl_vec_batch_set_sel(out, l->rows, n, err);
}

/* LEFT, FULL, SINGLE: probe rows without a match, with NULL right columns. */
static dl_status
emit_unmatched_left(dl_sql_join_state *st, dl_sql_join_local *l, dl_batch *out, dl_error *err) {
    int64_t n = 0;
    for (int64_t k = 0; k < l->in->count; k++) {
        if (l->matched[k] == 0) {
            l->rows[n++] = (uint32_t)phys_row(l, k);
        }
    }
    if (n == 0) {
        dl_vec_batch_set_count(out, 0);
        return DL_OK;
    }
    for (int32_t c = 0; c < st->n_left; c++) {
        dl_vector *v;
        DL_TRY(dl_sql_vec_select(l->in->cols[c], l->rows, n, &v, err));
        dl_vec_batch_set_col(out, c, v);
    }
    for (int32_t c = 0; c < st->n_right; c++) {
        dl_vector *v;
        DL_TRY(dl_vec_new_const_null(st->exec->alloc, st->build.rows.cols[c]->type, n, &v, err));
        dl_vec_batch_set_col(out, st->n_left + c, v);
    }
    dl_vec_batch_set_count(out, n);
    return DL_OK;
}

static dl_status
emit_tail(dl_sql_join_state *st, dl_sql_join_local *l, dl_batch *out, dl_error *err) {
    switch (st->join->type) {
    case DL_SQL_JOIN_T_SEMI:
    case DL_SQL_JOIN_T_ANTI:
        return emit_filtered(st, l, out, err);
    case DL_SQL_JOIN_T_MARK:
        return emit_mark(st, l, out, err);
    case DL_SQL_JOIN_T_LEFT:
    case DL_SQL_JOIN_T_FULL:
    case DL_SQL_JOIN_T_SINGLE:
        return emit_unmatched_left(st, l, out, err);
    default:
        dl_vec_batch_set_count(out, 0);
        return DL_OK;
    }
}

/* ---- unmatched build rows ------------------------------------------------------------------ */

static dl_status
emit_build(dl_sql_join_state *st, dl_sql_join_local *l, dl_batch *out, dl_error *err) {
    const dl_sql_join_build *b = &st->build;
    int64_t n = 0;
    while (l->build_pos < b->rows.count && n < DL_BATCH_CAPACITY) {
        int64_t r = l->build_pos++;
        if (atomic_load_explicit(&b->matched[r], memory_order_relaxed) == 0) {
            l->pb[n++] = (uint32_t)r;
        }
    }
    if (n == 0) {
        dl_vec_batch_set_count(out, 0);
        return DL_OK;
    }
    for (int32_t c = 0; c < st->n_left; c++) {
        dl_vector *v;
        DL_TRY(dl_vec_new_const_null(st->exec->alloc, out->cols[c]->type, n, &v, err));
        dl_vec_batch_set_col(out, c, v);
    }
    for (int32_t c = 0; c < st->n_right; c++) {
        dl_vector *v;
        DL_TRY(dl_sql_join_right_col(st, l, c, l->pb, NULL, n, &v, err));
        dl_vec_batch_set_col(out, st->n_left + c, v);
    }
    dl_vec_batch_set_count(out, n);
    return DL_OK;
}

/* The probe input of this thread ended: elect the emitter of unmatched build rows. */
static void
finish_probe(dl_sql_join_state *st, dl_sql_join_local *l) {
    l->phase = DL_SQL_JP_DONE;
    if (l->is_finished_counted) {
        return;
    }
    l->is_finished_counted = true;
    int done = atomic_fetch_add(&st->n_finished, 1) + 1;
    if (!marks_build(st->join->type) || done != atomic_load(&st->n_locals)) {
        return;
    }
    if (!atomic_exchange(&st->is_emit_claimed, true)) {
        l->phase = DL_SQL_JP_EMIT_BUILD;
        l->build_pos = 0;
    }
}

/* ---- the state machine --------------------------------------------------------------------- */

/* A new probe batch was loaded: direct output, or start the pairs (or go straight to the
 * per-row results when only key matches matter). */
static dl_status
start_batch(dl_sql_join_state *st, dl_sql_join_local *l, dl_batch *out, dl_error *err) {
    const dl_sql_join *j = st->join;
    if (can_emit_direct(st, l)) {
        l->phase = DL_SQL_JP_NEED_PROBE;
        return emit_direct(st, l, out, err);
    }
    dl_vec_batch_set_count(out, 0);
    if (!emits_pairs(j->type) && j->residual == NULL) {
        for (int64_t k = 0; k < l->in->count; k++) {
            l->matched[k] = l->head[k] != 0;
        }
        l->phase = DL_SQL_JP_TAIL;
        return DL_OK;
    }
    l->phase = DL_SQL_JP_PAIRS;
    return DL_OK;
}

static dl_status
phase_need_probe(dl_sql_operator *op, dl_sql_join_local *l, dl_batch *out, dl_error *err) {
    bool has_rows;
    DL_TRY(load_probe(op, l, &has_rows, err));
    if (!has_rows) {
        l->phase = DL_SQL_JP_FINISH;
        return DL_OK;
    }
    return start_batch(op->state, l, out, err);
}

static dl_status
phase_pairs(dl_sql_join_state *st, dl_sql_join_local *l, dl_batch *out, dl_error *err) {
    int64_t n;
    DL_TRY(step_pairs(st, l, out, &n, err));
    if (n == 0) {
        l->phase = DL_SQL_JP_TAIL;
        dl_vec_batch_set_count(out, 0);
    } else if (!emits_pairs(st->join->type)) {
        dl_vec_batch_set_count(out, 0);
    }
    return DL_OK;
}

static dl_status
phase_emit_build(dl_sql_join_state *st, dl_sql_join_local *l, dl_batch *out, dl_error *err) {
    DL_TRY(emit_build(st, l, out, err));
    if (out->count == 0) {
        l->phase = DL_SQL_JP_DONE;
    }
    return DL_OK;
}

dl_status
dl_sql_join_next(dl_sql_operator *op, dl_sql_join_local *l, dl_batch *out, dl_error *err) {
    dl_sql_join_state *st = op->state;
    dl_vec_batch_set_count(out, 0);
    for (;;) {
        dl_status s = DL_OK;
        switch (l->phase) {
        case DL_SQL_JP_NEED_PROBE:
            s = phase_need_probe(op, l, out, err);
            break;
        case DL_SQL_JP_PAIRS:
            s = phase_pairs(st, l, out, err);
            break;
        case DL_SQL_JP_TAIL:
            l->phase = DL_SQL_JP_NEED_PROBE;
            s = emit_tail(st, l, out, err);
            break;
        case DL_SQL_JP_FINISH:
            finish_probe(st, l);
            dl_vec_batch_set_count(out, 0);
            break;
        case DL_SQL_JP_EMIT_BUILD:
            s = phase_emit_build(st, l, out, err);
            break;
        case DL_SQL_JP_DONE:
            dl_vec_batch_set_count(out, 0);
            return DL_OK;
        }
        if (s != DL_OK || out->count > 0) {
            return s;
        }
    }
}
