/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Set operations (DL_SQL_PLAN_SETOP, sql_plan.h): UNION ALL, and UNION, INTERSECT [ALL] and
 * EXCEPT [ALL] with bag semantics.
 *
 * UNION ALL streams: each thread pulls the left child to its end, then the right child,
 * handing their batches on (the columns are shared, not copied); it is parallel when both
 * children are.
 *
 * The others count. A hash table holds the distinct rows (NULL equals NULL, NaN equals NaN,
 * -0.0 equals 0.0: dl_sql_value_equal) with two multiplicities per row, m from the left input
 * and n from the right. Each thread of the left drain fills its own table; the tables are
 * merged into one. The right input then either inserts too (UNION) or only looks its rows up
 * in the merged table (INTERSECT, EXCEPT: a row the left side lacks cannot appear), counting
 * per thread, and the counts are added. The output is, for each distinct row,
 *
 *   UNION 1   INTERSECT min(1, m, n)   INTERSECT ALL min(m, n)
 *   EXCEPT (m > 0 and n = 0 ? 1 : 0)   EXCEPT ALL max(m - n, 0)
 *
 * copies, as DICT vectors over the table's rows (copies repeat an index). The output order is
 * unspecified.
 *
 * The table: open addressing over 64-bit slots (31 bits of hash as a salt above the row
 * index + 1), rows in a colbuf of long FLAT vectors, each distinct row appended when first
 * seen.
 */
#include <string.h>

#include "sql/exec/sql_op_sort_int.h"

/* ---- the counting table -------------------------------------------------------------------- */

#define SALT_SHIFT 33
#define ROW_MASK   UINT64_C(0xFFFFFFFF)

typedef struct setop_table {
    dl_sql_colbuf rows; /* the distinct rows */
    uint64_t *hashes;   /* per row */
    int64_t *counts[2]; /* per row: m (left), n (right) */
    int64_t cap_rows;
    uint64_t *slots;
    uint64_t mask;
    const dl_allocator *alloc;
} setop_table;

static dl_status
table_init(setop_table *t, const dl_allocator *alloc, const dl_type *schema, dl_error *err) {
    memset(t, 0, sizeof(*t));
    t->alloc = alloc;
    int32_t n = schema->n_fields;
    const dl_type **types = dl_mem_alloc_zero(alloc, (size_t)DL_MAX(n, 1) * sizeof(dl_type *));
    DL_CHECK(types != NULL, err, DL_ERR_NOMEM, "out of memory in a set operation");
    for (int32_t c = 0; c < n; c++) {
        types[c] = schema->fields[c].type;
    }
    dl_status s = dl_sql_colbuf_init(&t->rows, alloc, types, n, err);
    dl_mem_free(alloc, types, (size_t)DL_MAX(n, 1) * sizeof(dl_type *));
    return s;
}

static void
table_destroy(setop_table *t) {
    dl_sql_colbuf_destroy(&t->rows);
    dl_mem_free(t->alloc, t->hashes, (size_t)t->cap_rows * sizeof(uint64_t));
    dl_mem_free(t->alloc, t->counts[0], (size_t)t->cap_rows * sizeof(int64_t));
    dl_mem_free(t->alloc, t->counts[1], (size_t)t->cap_rows * sizeof(int64_t));
    if (t->slots != NULL) {
        dl_mem_free(t->alloc, t->slots, (size_t)(t->mask + 1) * sizeof(uint64_t));
    }
    memset(t, 0, sizeof(*t));
}

/* Grows the per-row arrays to cap rows, all or none. */
static dl_status
grow_rows(setop_table *t, int64_t cap, dl_error *err) {
    int64_t old = t->cap_rows;
    uint64_t *hashes = dl_mem_alloc_zero(t->alloc, (size_t)cap * sizeof(uint64_t));
    int64_t *m = dl_mem_alloc_zero(t->alloc, (size_t)cap * sizeof(int64_t));
    int64_t *n = dl_mem_alloc_zero(t->alloc, (size_t)cap * sizeof(int64_t));
    if (hashes == NULL || m == NULL || n == NULL) {
        dl_mem_free(t->alloc, hashes, (size_t)cap * sizeof(uint64_t));
        dl_mem_free(t->alloc, m, (size_t)cap * sizeof(int64_t));
        dl_mem_free(t->alloc, n, (size_t)cap * sizeof(int64_t));
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory in a set operation");
    }
    if (old > 0) {
        memcpy(hashes, t->hashes, (size_t)old * sizeof(uint64_t));
        memcpy(m, t->counts[0], (size_t)old * sizeof(int64_t));
        memcpy(n, t->counts[1], (size_t)old * sizeof(int64_t));
    }
    dl_mem_free(t->alloc, t->hashes, (size_t)old * sizeof(uint64_t));
    dl_mem_free(t->alloc, t->counts[0], (size_t)old * sizeof(int64_t));
    dl_mem_free(t->alloc, t->counts[1], (size_t)old * sizeof(int64_t));
    t->hashes = hashes;
    t->counts[0] = m;
    t->counts[1] = n;
    t->cap_rows = cap;
    return DL_OK;
}

static void
slot_put(setop_table *t, uint64_t h, int64_t row) {
    uint64_t pos = h & t->mask;
    while (t->slots[pos] != 0) {
        pos = (pos + 1) & t->mask;
    }
    t->slots[pos] = ((h >> SALT_SHIFT) << SALT_SHIFT) | (uint64_t)(row + 1);
}

/* Room for one more distinct row: row arrays and a table at most half full. */
static dl_status
table_reserve(setop_table *t, int64_t more, dl_error *err) {
    int64_t n = t->rows.count + more;
    if (n > t->cap_rows) {
        DL_CHECK(n < (int64_t)ROW_MASK - 1, err, DL_ERR_LIMIT,
                 "a set operation with more than %lld distinct rows", (long long)n);
        DL_TRY(grow_rows(t, DL_MAX(n, t->cap_rows == 0 ? 1024 : t->cap_rows * 2), err));
    }
    uint64_t slots = t->slots != NULL ? t->mask + 1 : 0;
    if ((uint64_t)n * 2 <= slots) {
        return DL_OK;
    }
    uint64_t cap = slots == 0 ? 2048 : slots;
    while (cap < (uint64_t)n * 2) {
        cap *= 2;
    }
    uint64_t *fresh = dl_mem_alloc_zero(t->alloc, (size_t)cap * sizeof(uint64_t));
    DL_CHECK(fresh != NULL, err, DL_ERR_NOMEM, "out of memory in a set operation");
    if (t->slots != NULL) {
        dl_mem_free(t->alloc, t->slots, (size_t)slots * sizeof(uint64_t));
    }
    t->slots = fresh;
    t->mask = cap - 1;
    for (int64_t r = 0; r < t->rows.count; r++) {
        slot_put(t, t->hashes[r], r);
    }
    return DL_OK;
}

static bool
rows_equal(const setop_table *t, int64_t g, dl_vector *const *cols, int64_t row) {
    for (int32_t c = 0; c < t->rows.n_cols; c++) {
        if (!dl_sql_value_equal(t->rows.cols[c], g, cols[c], row)) {
            return false;
        }
    }
    return true;
}

/* The distinct row equal to row `row` of cols, or -1. */
static int64_t
table_find(const setop_table *t, uint64_t h, dl_vector *const *cols, int64_t row) {
    if (t->slots == NULL) {
        return -1;
    }
    uint64_t salt = h >> SALT_SHIFT;
    uint64_t pos = h & t->mask;
    for (;;) {
        uint64_t slot = t->slots[pos];
        if (slot == 0) {
            return -1;
        }
        int64_t g = (int64_t)(slot & ROW_MASK) - 1;
        if ((slot >> SALT_SHIFT) == salt && rows_equal(t, g, cols, row)) {
            return g;
        }
        pos = (pos + 1) & t->mask;
    }
}

/* Rows of one step that were not in the table yet, deduplicated among themselves. */
#define PENDING_SLOTS (2 * DL_BATCH_CAPACITY)

typedef struct pending {
    uint16_t slots[PENDING_SLOTS]; /* index + 1 into the arrays below, 0 = empty */
    uint32_t row[DL_BATCH_CAPACITY];
    uint64_t hash[DL_BATCH_CAPACITY];
    int64_t count[2][DL_BATCH_CAPACITY];
    int32_t n;
} pending;

static bool
cols_rows_equal(dl_vector *const *cols, int32_t n_cols, int64_t a, int64_t b) {
    for (int32_t c = 0; c < n_cols; c++) {
        if (!dl_sql_value_equal(cols[c], a, cols[c], b)) {
            return false;
        }
    }
    return true;
}

/* Counts a row that is not in the table into the pending rows. */
static void
pending_add(pending *pd, dl_vector *const *cols, int32_t n_cols, uint32_t row, uint64_t h,
            const int64_t *add) {
    size_t pos = (size_t)h & (PENDING_SLOTS - 1);
    while (pd->slots[pos] != 0) {
        int32_t i = pd->slots[pos] - 1;
        if (pd->hash[i] == h && cols_rows_equal(cols, n_cols, pd->row[i], row)) {
            pd->count[0][i] += add[0];
            pd->count[1][i] += add[1];
            return;
        }
        pos = (pos + 1) & (PENDING_SLOTS - 1);
    }
    int32_t i = pd->n++;
    pd->slots[pos] = (uint16_t)(i + 1);
    pd->row[i] = row;
    pd->hash[i] = h;
    pd->count[0][i] = add[0];
    pd->count[1][i] = add[1];
}

/* Appends the pending rows to the table as new distinct rows (one copy per column). */
static dl_status
pending_flush(setop_table *t, pending *pd, dl_vector *const *cols, dl_error *err) {
    if (pd->n == 0) {
        return DL_OK;
    }
    DL_TRY(table_reserve(t, pd->n, err));
    for (int32_t c = 0; c < t->rows.n_cols; c++) {
        DL_TRY(dl_vec_copy_sel(t->rows.cols[c], cols[c], pd->row, pd->n, err));
    }
    for (int32_t i = 0; i < pd->n; i++) {
        int64_t g = t->rows.count++;
        t->hashes[g] = pd->hash[i];
        t->counts[0][g] = pd->count[0][i];
        t->counts[1][g] = pd->count[1][i];
        slot_put(t, pd->hash[i], g);
    }
    memset(pd->slots, 0, sizeof(pd->slots));
    pd->n = 0;
    return DL_OK;
}

/*
 * Adds rows rows[0..n) of cols (n <= a batch) with hashes[i] to the table, counting adds[s][i]
 * for side s (adds[s] NULL: unit[s] for every row): existing rows get the counts, new ones are
 * appended together.
 */
static dl_status
table_add_rows(setop_table *t, pending *pd, dl_vector *const *cols, const uint32_t *rows,
               const uint64_t *hashes, const int64_t *const adds[2], const int64_t unit[2],
               int64_t n, dl_error *err) {
    for (int64_t i = 0; i < n; i++) {
        int64_t add[2] = {adds[0] != NULL ? adds[0][i] : unit[0],
                          adds[1] != NULL ? adds[1][i] : unit[1]};
        int64_t g = table_find(t, hashes[i], cols, rows[i]);
        if (g >= 0) {
            t->counts[0][g] += add[0];
            t->counts[1][g] += add[1];
        } else {
            pending_add(pd, cols, t->rows.n_cols, rows[i], hashes[i], add);
        }
    }
    return pending_flush(t, pd, cols, err);
}

/* ---- the counting operator ----------------------------------------------------------------- */

typedef struct setop_state {
    dl_sql_exec_ctx *exec;
    const dl_sql_setop_node *node;
    setop_table table;
    int side;         /* being drained: 0 left, 1 right */
    int64_t pos;      /* output: next distinct row */
    int64_t left_dup; /* output: copies of row pos - 1 still to emit */
    uint32_t idx[DL_BATCH_CAPACITY];
} setop_state;

typedef struct setop_local {
    setop_table table; /* UNION and the left side: this thread's rows */
    int64_t *counts;   /* INTERSECT / EXCEPT right side: per row of the merged table */
    dl_vector **cols;  /* the batch's live rows, as vectors */
    uint64_t hashes[DL_BATCH_CAPACITY];
    pending pd;
} setop_local;

static bool
inserts(const setop_state *st) {
    return st->side == 0 || st->node->type == DL_SQL_SETOP_T_UNION;
}

static void
setop_local_free(void *ctx, void *local) {
    setop_state *st = ctx;
    setop_local *l = local;
    table_destroy(&l->table);
    dl_mem_free(st->exec->alloc, l->counts,
                (size_t)DL_MAX(st->table.rows.count, 1) * sizeof(int64_t));
    dl_mem_free(st->exec->alloc, l->cols,
                (size_t)DL_MAX(st->table.rows.n_cols, 1) * sizeof(dl_vector *));
    dl_mem_free(st->exec->alloc, l, sizeof(*l));
}

static dl_status
setop_local_new(void *ctx, void **out, dl_error *err) {
    setop_state *st = ctx;
    setop_local *l = dl_mem_alloc_zero(st->exec->alloc, sizeof(*l));
    DL_CHECK(l != NULL, err, DL_ERR_NOMEM, "out of memory in a set operation");
    *out = l;
    int32_t n_cols = st->table.rows.n_cols;
    l->cols = dl_mem_alloc_zero(st->exec->alloc, (size_t)DL_MAX(n_cols, 1) * sizeof(dl_vector *));
    DL_CHECK(l->cols != NULL, err, DL_ERR_NOMEM, "out of memory in a set operation");
    if (inserts(st)) {
        l->table.alloc = st->exec->alloc;
        return dl_sql_colbuf_init_like(&l->table.rows, st->exec->alloc, &st->table.rows, err);
    }
    l->counts = dl_mem_alloc_zero(st->exec->alloc,
                                  (size_t)DL_MAX(st->table.rows.count, 1) * sizeof(int64_t));
    DL_CHECK(l->counts != NULL, err, DL_ERR_NOMEM, "out of memory in a set operation");
    return DL_OK;
}

static dl_status
setop_sink_cols(setop_state *st, setop_local *l, int64_t count, dl_error *err) {
    int32_t n_cols = st->table.rows.n_cols;
    for (int64_t k = 0; k < count; k++) {
        l->hashes[k] = 0;
    }
    for (int32_t c = 0; c < n_cols; c++) {
        dl_sql_hash_vec(l->cols[c], count, l->hashes, c == 0);
    }
    if (inserts(st)) {
        const int64_t *adds[2] = {NULL, NULL};
        int64_t unit[2] = {st->side == 0 ? 1 : 0, st->side == 1 ? 1 : 0};
        return table_add_rows(&l->table, &l->pd, l->cols, dl_sql_identity_sel(0), l->hashes, adds,
                              unit, count, err);
    }
    for (int64_t k = 0; k < count; k++) {
        int64_t g = table_find(&st->table, l->hashes[k], l->cols, k);
        if (g >= 0) {
            l->counts[g]++;
        }
    }
    return DL_OK;
}

static dl_status
setop_sink(void *ctx, void *local, dl_batch *batch, dl_error *err) {
    setop_state *st = ctx;
    setop_local *l = local;
    int32_t n_cols = st->table.rows.n_cols;
    int32_t done = 0;
    dl_status s = DL_OK;
    for (; done < n_cols && s == DL_OK; done++) {
        s = dl_sql_batch_column(batch, done, &l->cols[done], err);
    }
    if (s == DL_OK) {
        s = setop_sink_cols(st, l, batch->count, err);
    }
    for (int32_t c = 0; c < done; c++) {
        dl_vec_unref(l->cols[c]);
        l->cols[c] = NULL;
    }
    return s;
}

static dl_status
setop_combine(void *ctx, void *local, dl_error *err) {
    setop_state *st = ctx;
    setop_local *l = local;
    if (!inserts(st)) {
        for (int64_t g = 0; g < st->table.rows.count; g++) {
            st->table.counts[1][g] += l->counts[g];
        }
        return DL_OK;
    }
    const setop_table *src = &l->table;
    uint32_t rows[DL_BATCH_CAPACITY];
    for (int64_t g = 0; g < src->rows.count; g += DL_BATCH_CAPACITY) {
        int64_t n = DL_MIN(DL_BATCH_CAPACITY, src->rows.count - g);
        for (int64_t i = 0; i < n; i++) {
            rows[i] = (uint32_t)(g + i);
        }
        const int64_t *adds[2] = {src->counts[0] + g, src->counts[1] + g};
        const int64_t unit[2] = {0, 0};
        DL_TRY(table_add_rows(&st->table, &l->pd, src->rows.cols, rows, src->hashes + g, adds, unit,
                              n, err));
    }
    return DL_OK;
}

/* Copies of distinct row g to output. */
static int64_t
copies(const setop_state *st, int64_t g) {
    int64_t m = st->table.counts[0][g];
    int64_t n = st->table.counts[1][g];
    bool is_all = st->node->is_all;
    switch (st->node->type) {
    case DL_SQL_SETOP_T_UNION:
        return 1;
    case DL_SQL_SETOP_T_INTERSECT:
        return is_all ? DL_MIN(m, n) : (m > 0 && n > 0 ? 1 : 0);
    case DL_SQL_SETOP_T_EXCEPT:
        return is_all ? DL_MAX(m - n, 0) : (m > 0 && n == 0 ? 1 : 0);
    }
    return 0;
}

static dl_status
counting_open(dl_sql_operator *op, dl_error *err) {
    static const dl_sql_sink sink = {
        .local_new = setop_local_new,
        .sink = setop_sink,
        .combine = setop_combine,
        .local_free = setop_local_free,
    };
    setop_state *st = dl_mem_alloc_zero(op->exec->alloc, sizeof(*st));
    DL_CHECK(st != NULL, err, DL_ERR_NOMEM, "out of memory starting a set operation");
    op->state = st;
    st->exec = op->exec;
    st->node = &op->plan->u.setop;
    DL_TRY(table_init(&st->table, op->exec->alloc, op->schema, err));
    st->side = 0;
    DL_TRY(dl_sql_op_drain(op->children[0], &sink, st, err));
    bool needs_right = st->node->type == DL_SQL_SETOP_T_UNION || st->table.rows.count > 0;
    st->side = 1;
    if (needs_right) {
        DL_TRY(dl_sql_op_drain(op->children[1], &sink, st, err));
    }
    return DL_OK;
}

static dl_status
counting_next(dl_sql_operator *op, void *local, dl_batch *out, dl_error *err) {
    (void)local;
    setop_state *st = op->state;
    int64_t n = 0;
    while (n < DL_BATCH_CAPACITY) {
        if (st->left_dup == 0) {
            if (st->pos == st->table.rows.count) {
                break;
            }
            st->left_dup = copies(st, st->pos++);
            continue;
        }
        st->idx[n++] = (uint32_t)(st->pos - 1);
        st->left_dup--;
    }
    for (int32_t c = 0; c < out->n_cols && n > 0; c++) {
        dl_vector *v;
        DL_TRY(dl_sql_dict_new(st->table.rows.cols[c], st->idx, NULL, n, &v, err));
        dl_vec_batch_set_col(out, c, v);
    }
    dl_vec_batch_set_count(out, n);
    return DL_OK;
}

static void
counting_free(dl_sql_operator *op) {
    setop_state *st = op->state;
    if (st == NULL) {
        return;
    }
    table_destroy(&st->table);
    dl_mem_free(op->exec->alloc, st, sizeof(*st));
    op->state = NULL;
}

static const dl_sql_op_vtable counting_vt = {
    .name = "set_operation",
    .open = counting_open,
    .next = counting_next,
    .free = counting_free,
};

/* ---- UNION ALL ----------------------------------------------------------------------------- */

typedef struct union_local {
    void *child[2];
    dl_batch *in[2];
    int side;
} union_local;

static void
union_local_free(dl_sql_operator *op, void *local) {
    union_local *l = local;
    if (l == NULL) {
        return;
    }
    for (int s = 0; s < 2; s++) {
        dl_sql_op_local_free(op->children[s], l->child[s]);
        dl_vec_batch_free(l->in[s]);
    }
    dl_mem_free(op->exec->alloc, l, sizeof(*l));
}

static dl_status
union_local_new(dl_sql_operator *op, void **out, dl_error *err) {
    union_local *l = dl_mem_alloc_zero(op->exec->alloc, sizeof(*l));
    DL_CHECK(l != NULL, err, DL_ERR_NOMEM, "out of memory starting a union");
    *out = l;
    for (int s = 0; s < 2; s++) {
        DL_TRY(dl_sql_op_local_new(op->children[s], &l->child[s], err));
        DL_TRY(dl_sql_batch_new(op->exec, op->children[s]->schema, &l->in[s], err));
    }
    return DL_OK;
}

static dl_status
union_next(dl_sql_operator *op, void *local, dl_batch *out, dl_error *err) {
    union_local *l = local;
    while (l->side < 2) {
        dl_batch *in = l->in[l->side];
        DL_TRY(dl_sql_op_next(op->children[l->side], l->child[l->side], in, err));
        if (in->count == 0) {
            l->side++;
            continue;
        }
        for (int32_t c = 0; c < out->n_cols; c++) {
            dl_vec_batch_set_col(out, c, dl_vec_ref(in->cols[c]));
        }
        if (in->sel != NULL) {
            return dl_vec_batch_set_sel(out, in->sel, in->count, err);
        }
        dl_vec_batch_set_count(out, in->count);
        return DL_OK;
    }
    dl_vec_batch_set_count(out, 0);
    return DL_OK;
}

static const dl_sql_op_vtable union_all_vt = {
    .name = "union_all",
    .local_new = union_local_new,
    .next = union_next,
    .local_free = union_local_free,
};

dl_status
dl_sql_op_setop_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan, dl_sql_operator *left,
                    dl_sql_operator *right, dl_sql_operator **out, dl_error *err) {
    DL_CHECK(left != NULL && right != NULL, err, DL_ERR_INTERNAL,
             "a set operation needs two inputs");
    DL_CHECK(left->schema->n_fields == plan->n_cols && right->schema->n_fields == plan->n_cols, err,
             DL_ERR_INTERNAL, "set operation inputs of %d and %d columns for %d",
             (int)left->schema->n_fields, (int)right->schema->n_fields, (int)plan->n_cols);
    const dl_sql_setop_node *node = &plan->u.setop;
    bool is_union_all = node->type == DL_SQL_SETOP_T_UNION && node->is_all;
    dl_sql_operator *op =
        dl_sql_op_alloc(exec, is_union_all ? &union_all_vt : &counting_vt, plan, left, right);
    DL_CHECK(op != NULL, err, DL_ERR_NOMEM, "out of memory building a set operation");
    op->is_parallel = is_union_all && left->is_parallel && right->is_parallel;
    *out = op;
    return DL_OK;
}
