/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Cardinality estimates (the join order's inputs, sql_optimize_order.c; EXPLAIN's est_rows).
 *
 * A Delta scan's rows are the sum of its live files' numRecords (less their deletion vectors'
 * rows); per table column, the log's minValues / maxValues / nullCount over those files and,
 * for partition columns, the range of the partition values. At most MAX_FILES files' stats are
 * read, evenly spaced, and the sums scaled to all files. Distinct counts: for integers, dates
 * and timestamps at most max - min + 1 (and at most the rows); otherwise unknown, and then a
 * join key is taken for a key (as many values as rows).
 *
 * Selectivity of a condition over an input: conjuncts multiply, except that range conjuncts of
 * one column (`x >= a AND x < b`) give the fraction of the column's [min, max] they keep;
 * `x = c` keeps 1/ndv (DEFAULT_EQ when unknown), IN lists n times that, IS NULL the null
 * fraction, OR and NOT by probability rules, LIKE and anything else a default. A join keeps
 * |L| * |R| / max(d_L, d_R) per key, d the key's distinct values capped by its side's rows and
 * by the other side's distinct values (a foreign key's values lie among its primary key's).
 *
 * Estimates never fail a query: stats that do not read are skipped.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sql/plan/sql_plan.h"

#define MAX_FILES     512
#define DEFAULT_EQ    0.1
#define DEFAULT_RANGE (1.0 / 3.0)
#define DEFAULT_OTHER 0.5
#define DEFAULT_LIKE  0.25

/* What the log says of one table column. */
typedef struct col_stats {
    bool has_range;
    bool is_integral; /* integers, dates, timestamps: ndv <= hi - lo + 1 */
    double lo, hi;
    double nulls; /* null count, scaled to all files; < 0 unknown */
} col_stats;

struct dl_sql_table_stats {
    double rows;
    int32_t n_cols;
    col_stats *cols; /* per table_schema field */
};

/* ---- values as numbers ---------------------------------------------------------------------- */

static bool
is_integral_type(dl_type_id id) {
    return id == DL_VEC_TYPE_BYTE || id == DL_VEC_TYPE_SHORT || id == DL_VEC_TYPE_INT ||
           id == DL_VEC_TYPE_LONG || id == DL_VEC_TYPE_DATE || id == DL_VEC_TYPE_TIMESTAMP ||
           id == DL_VEC_TYPE_TIMESTAMP_NTZ;
}

static double
pow10_of(int scale) {
    double p = 1.0;
    for (int i = 0; i < scale; i++) {
        p *= 10.0;
    }
    return p;
}

/* A Delta value (stats, partition values) as a number on the scale of the column's values. */
static bool
delta_value_number(const dl_delta_value *v, const dl_type *t, double *out) {
    if (v->is_null) {
        return false;
    }
    if (is_integral_type(t->id)) {
        *out = (double)v->u.i64;
        return true;
    }
    if (t->id == DL_VEC_TYPE_FLOAT || t->id == DL_VEC_TYPE_DOUBLE) {
        *out = v->u.f64;
        return !isnan(*out);
    }
    if (t->id == DL_VEC_TYPE_DECIMAL) {
        *out = (double)v->u.dec / pow10_of(t->scale);
        return true;
    }
    return false;
}

/* A CONST's value as a number (false for NULL and non-numbers). */
static bool
const_number(const dl_sql_bexpr *e, double *out) {
    if (e->kind != DL_SQL_BEXPR_CONST || e->value == NULL || dl_sql_bexpr_is_null_const(e)) {
        return false;
    }
    const dl_vector *flat;
    int64_t i = dl_vec_resolve(e->value, 0, &flat);
    const void *d = flat->data;
    switch (e->type->id) {
    case DL_VEC_TYPE_BYTE:
        *out = (double)((const int8_t *)d)[i];
        return true;
    case DL_VEC_TYPE_SHORT:
        *out = (double)((const int16_t *)d)[i];
        return true;
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_DATE:
        *out = (double)((const int32_t *)d)[i];
        return true;
    case DL_VEC_TYPE_LONG:
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        *out = (double)((const int64_t *)d)[i];
        return true;
    case DL_VEC_TYPE_FLOAT:
        *out = (double)((const float *)d)[i];
        return true;
    case DL_VEC_TYPE_DOUBLE:
        *out = ((const double *)d)[i];
        return !isnan(*out);
    case DL_VEC_TYPE_DECIMAL:
        *out = (double)((const dl_i128 *)d)[i] / pow10_of(e->type->scale);
        return true;
    default:
        return false;
    }
}

/* ---- table statistics ----------------------------------------------------------------------- */

static void
widen(col_stats *c, double v) {
    if (!c->has_range) {
        c->lo = v;
        c->hi = v;
        c->has_range = true;
        return;
    }
    c->lo = DL_MIN(c->lo, v);
    c->hi = DL_MAX(c->hi, v);
}

/* What one file's stats say of table column f (physical name phys). */
static void
file_column(const dl_delta_stats *st, const char *phys, const dl_type *t, col_stats *c,
            bool *has_bounds) {
    const char *path[1] = {phys};
    dl_delta_value v;
    bool found = false;
    dl_error ignored;
    double x = 0;
    for (int k = DL_DELTA_STAT_MIN; k <= DL_DELTA_STAT_MAX; k++) {
        found = false;
        if (dl_delta_stats_get(st, (dl_delta_stat_kind)k, path, 1, t, &v, &found, &ignored) ==
                DL_OK &&
            found && delta_value_number(&v, t, &x)) {
            widen(c, x);
        } else if (!found) {
            *has_bounds = false;
        }
    }
    found = false;
    if (c->nulls >= 0 &&
        dl_delta_stats_get(st, DL_DELTA_STAT_NULL_COUNT, path, 1, t, &v, &found, &ignored) ==
            DL_OK &&
        found) {
        c->nulls += (double)v.u.i64;
    } else {
        c->nulls = -1;
    }
}

/* The partition column index of table field f, or -1. */
static int32_t
partition_index(const dl_delta_snapshot *snap, const dl_delta_field *f) {
    int32_t n = dl_delta_snapshot_partition_count(snap);
    for (int32_t k = 0; k < n; k++) {
        if (strcmp(dl_delta_snapshot_partition_field(snap, k)->name, f->name) == 0) {
            return k;
        }
    }
    return -1;
}

typedef struct stats_walk {
    const dl_delta_snapshot *snap;
    const dl_delta_schema *schema;
    dl_delta_cm_mode mode;
    int32_t *part; /* per field: partition column index or -1 */
    bool *has_bounds;
    struct dl_sql_table_stats *ts;
} stats_walk;

static void
add_file(stats_walk *w, const dl_delta_file *file, dl_delta_stats_reader *rd) {
    dl_delta_stats st;
    bool has = false;
    dl_error ignored;
    bool ok = dl_delta_file_stats(w->snap, file, rd, &st, &has, &ignored) == DL_OK && has;
    double rows = ok && st.has_num_records ? (double)st.num_records : (double)file->size / 16.0;
    if (file->dv != NULL) {
        rows = DL_MAX(0.0, rows - (double)file->dv->cardinality);
    }
    w->ts->rows += rows;
    for (int32_t i = 0; i < w->ts->n_cols; i++) {
        const dl_delta_field *f = &w->schema->fields[i];
        col_stats *c = &w->ts->cols[i];
        double x = 0;
        if (w->part[i] >= 0 && file->partition != NULL) {
            const dl_delta_value *v = &file->partition->values[w->part[i]];
            if (delta_value_number(v, f->type, &x)) {
                widen(c, x);
            }
            c->nulls = c->nulls < 0 ? -1 : c->nulls + (v->is_null ? rows : 0);
        } else if (ok && w->part[i] < 0 && dl_delta_stats_type_has_bounds(f->type)) {
            file_column(&st, dl_delta_field_physical_name(f, w->mode), f->type, c,
                        &w->has_bounds[i]);
        } else {
            w->has_bounds[i] = false;
            c->nulls = -1;
        }
    }
}

/* Reads the stats of scan s's snapshot (at most MAX_FILES files); NULL when it has none. */
static struct dl_sql_table_stats *
table_stats(dl_arena *arena, dl_sql_scan *s) {
    if (s->source != DL_SQL_SCAN_DELTA || s->snapshot == NULL) {
        return NULL;
    }
    const dl_delta_schema *schema = dl_delta_snapshot_schema(s->snapshot);
    if (schema->type != s->table_schema || schema->n_fields != s->table_schema->n_fields) {
        return NULL;
    }
    size_t n_files = dl_delta_snapshot_file_count(s->snapshot);
    size_t n_live = 0;
    for (size_t i = 0; i < n_files; i++) {
        n_live += s->file_set == NULL || s->file_set[i] != 0 ? 1 : 0;
    }
    int32_t n = schema->n_fields;
    struct dl_sql_table_stats *ts = dl_arena_alloc_zero(arena, sizeof(*ts));
    stats_walk w = {.snap = s->snapshot, .schema = schema, .ts = ts};
    w.mode = dl_delta_snapshot_cm_mode(s->snapshot);
    w.part = dl_arena_alloc_zero(arena, (size_t)(n + 1) * sizeof(int32_t));
    w.has_bounds = dl_arena_alloc_zero(arena, (size_t)n + 1);
    if (ts == NULL || w.part == NULL || w.has_bounds == NULL) {
        return NULL;
    }
    ts->n_cols = n;
    ts->cols = dl_arena_alloc_zero(arena, (size_t)(n + 1) * sizeof(col_stats));
    if (ts->cols == NULL) {
        return NULL;
    }
    for (int32_t i = 0; i < n; i++) {
        w.part[i] = partition_index(s->snapshot, &schema->fields[i]);
        w.has_bounds[i] = true;
        ts->cols[i].is_integral = is_integral_type(schema->fields[i].type->id);
    }
    size_t stride = n_live > MAX_FILES ? (n_live + MAX_FILES - 1) / MAX_FILES : 1;
    size_t seen = 0;
    size_t n_read = 0;
    dl_delta_stats_reader rd;
    dl_delta_stats_reader_init(&rd, arena->alloc);
    for (size_t i = 0; i < n_files; i++) {
        if (s->file_set != NULL && s->file_set[i] == 0) {
            continue;
        }
        if (seen++ % stride == 0) {
            add_file(&w, dl_delta_snapshot_file(s->snapshot, i), &rd);
            n_read++;
        }
    }
    dl_delta_stats_reader_destroy(&rd);
    double scale = n_read > 0 ? (double)n_live / (double)n_read : 1.0;
    ts->rows *= scale;
    for (int32_t i = 0; i < n; i++) {
        ts->cols[i].has_range = ts->cols[i].has_range && w.has_bounds[i];
        ts->cols[i].nulls = ts->cols[i].nulls < 0 ? -1 : ts->cols[i].nulls * scale;
    }
    return ts;
}

/* ---- columns of any plan -------------------------------------------------------------------- */

/* What is known of one column of a plan's output: distinct values (< 0 unknown), its range, the
 * fraction of NULLs (< 0 unknown). */
typedef struct col_est {
    double ndv;
    bool has_range;
    bool is_integral;
    double lo, hi;
    double null_frac;
} col_est;

static void
scan_column(dl_arena *arena, dl_sql_plan *p, int32_t col, col_est *out) {
    dl_sql_scan *s = &p->u.scan;
    int32_t c = s->columns[col];
    if (DL_SQL_SCAN_IS_HIDDEN(c)) {
        return;
    }
    if (s->stats == NULL) {
        s->stats = table_stats(arena, s);
    }
    if (s->stats == NULL) {
        return;
    }
    const col_stats *cs = &s->stats->cols[c];
    double rows = DL_MAX(1.0, s->stats->rows);
    out->has_range = cs->has_range;
    out->is_integral = cs->is_integral;
    out->lo = cs->lo;
    out->hi = cs->hi;
    out->null_frac = cs->nulls < 0 ? -1 : DL_MIN(1.0, cs->nulls / rows);
    if (cs->has_range && cs->is_integral) {
        out->ndv = DL_MIN(rows, cs->hi - cs->lo + 1.0);
    }
}

/* Fills *out for column col of p's output, following it down to a scan where it can. The
 * distinct count is the base table's (filters above the scan do not lower it): a join's
 * estimate caps it by its sides' rows. */
static void
column_est(dl_arena *arena, dl_sql_plan *p, int32_t col, col_est *out, int depth) {
    if (depth > 64 || col < 0) {
        return;
    }
    switch (p->kind) {
    case DL_SQL_PLAN_SCAN:
        scan_column(arena, p, col, out);
        break;
    case DL_SQL_PLAN_FILTER:
    case DL_SQL_PLAN_SORT:
    case DL_SQL_PLAN_LIMIT:
    case DL_SQL_PLAN_WINDOW:
        if (p->left != NULL && col < p->left->n_cols) {
            column_est(arena, p->left, col, out, depth + 1);
        }
        break;
    case DL_SQL_PLAN_PROJECT: {
        const dl_sql_bexpr *e = p->u.project.exprs[col];
        e = e->kind == DL_SQL_BEXPR_CAST ? e->args[0] : e;
        if (e->kind == DL_SQL_BEXPR_COLUMN) {
            column_est(arena, p->left, e->index, out, depth + 1);
        }
        break;
    }
    case DL_SQL_PLAN_AGGREGATE:
        if (col < p->u.agg.n_keys && p->u.agg.keys[col]->kind == DL_SQL_BEXPR_COLUMN) {
            column_est(arena, p->left, p->u.agg.keys[col]->index, out, depth + 1);
        }
        break;
    case DL_SQL_PLAN_JOIN:
        if (col < p->left->n_cols) {
            column_est(arena, p->left, col, out, depth + 1);
        } else if (p->u.join.type != DL_SQL_JOIN_T_SEMI && p->u.join.type != DL_SQL_JOIN_T_ANTI &&
                   p->u.join.type != DL_SQL_JOIN_T_MARK) {
            column_est(arena, p->right, col - p->left->n_cols, out, depth + 1);
        }
        break;
    default:
        break;
    }
}

static col_est
column_of(dl_arena *arena, dl_sql_plan *p, int32_t col) {
    col_est c = {.ndv = -1, .null_frac = -1};
    column_est(arena, p, col, &c, 0);
    return c;
}

double
dl_sql_column_ndv(dl_arena *arena, dl_sql_plan *p, int32_t col) {
    return column_of(arena, p, col).ndv;
}

/* ---- selectivity ---------------------------------------------------------------------------- */

/* The input column an expression reads directly (through casts), or -1. */
static int32_t
direct_column(const dl_sql_bexpr *e) {
    while (e->kind == DL_SQL_BEXPR_CAST) {
        e = e->args[0];
    }
    return e->kind == DL_SQL_BEXPR_COLUMN ? e->index : -1;
}

static bool
is_fn(const dl_sql_bexpr *e, const char *name) {
    return e->kind == DL_SQL_BEXPR_CALL && e->fn != NULL && strcmp(e->fn->name, name) == 0;
}

/* `col op const` (or `const op col`, flipped): the column, the constant and the operator as
 * one of "=", "<", "<=", ">", ">=" (or "<>"). */
typedef struct cmp_form {
    int32_t col;
    double value;
    bool has_value;
    char op[3];
} cmp_form;

static bool
compare_form(const dl_sql_bexpr *e, cmp_form *out) {
    static const char *const ops[][2] = {{"=", "="},   {"==", "="},  {"<=>", "="},
                                         {"<", ">"},   {"<=", ">="}, {">", "<"},
                                         {">=", "<="}, {"<>", "<>"}, {"!=", "<>"}};
    if (e->kind != DL_SQL_BEXPR_CALL || e->fn == NULL || e->n_args != 2) {
        return false;
    }
    for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
        if (strcmp(e->fn->name, ops[k][0]) != 0) {
            continue;
        }
        int32_t c0 = direct_column(e->args[0]);
        int32_t c1 = direct_column(e->args[1]);
        bool is_flipped = c0 < 0;
        const dl_sql_bexpr *other = is_flipped ? e->args[0] : e->args[1];
        out->col = is_flipped ? c1 : c0;
        if (out->col < 0 || !dl_sql_bexpr_is_constant(other)) {
            return false;
        }
        out->has_value = const_number(other, &out->value);
        const char *op = is_flipped ? ops[k][1] : (k < 3 ? "=" : ops[k][0]);
        op = strcmp(op, "!=") == 0 ? "<>" : op;
        (void)snprintf(out->op, sizeof(out->op), "%s", op);
        return true;
    }
    return false;
}

static double
eq_selectivity(const col_est *c) {
    return c->ndv > 0 ? 1.0 / c->ndv : DEFAULT_EQ;
}

/* One column's bounds gathered from range conjuncts. */
typedef struct bounds {
    int32_t col;
    double lo, hi;
} bounds;

static double clamp01(double s);

static double selectivity_of(dl_arena *arena, dl_sql_plan *in, const dl_sql_bexpr *e, int depth);

/* A comparison with a constant, or -1 when e is none. */
static double
compare_selectivity(dl_arena *arena, dl_sql_plan *in, const dl_sql_bexpr *e) {
    cmp_form f;
    if (!compare_form(e, &f)) {
        return -1;
    }
    col_est c = column_of(arena, in, f.col);
    if (strcmp(f.op, "=") == 0) {
        return eq_selectivity(&c);
    }
    if (strcmp(f.op, "<>") == 0) {
        return 1.0 - eq_selectivity(&c);
    }
    if (!f.has_value || !c.has_range || c.hi <= c.lo) {
        return DEFAULT_RANGE;
    }
    double span = c.hi - c.lo;
    double below = (f.value - c.lo) / span;
    return f.op[0] == '<' ? clamp01(below) : clamp01(1.0 - below);
}

static double
clamp01(double s) {
    return s < 0 ? 0.0 : s > 1 ? 1.0 : s;
}

/* Folds a range conjunct into bs (n of them), returning false when e is not one. */
static bool
add_bound(dl_arena *arena, dl_sql_plan *in, const dl_sql_bexpr *e, bounds *bs, int32_t *n,
          int32_t cap) {
    cmp_form f;
    if (!compare_form(e, &f) || !f.has_value || f.op[0] == '=' || strcmp(f.op, "<>") == 0) {
        return false;
    }
    col_est c = column_of(arena, in, f.col);
    if (!c.has_range || c.hi <= c.lo) {
        return false;
    }
    int32_t k = 0;
    while (k < *n && bs[k].col != f.col) {
        k++;
    }
    if (k == *n) {
        if (*n == cap) {
            return false;
        }
        bs[k] = (bounds){.col = f.col, .lo = c.lo, .hi = c.hi};
        (*n)++;
    }
    if (f.op[0] == '<') {
        bs[k].hi = DL_MIN(bs[k].hi, f.value);
    } else {
        bs[k].lo = DL_MAX(bs[k].lo, f.value);
    }
    return true;
}

static double
and_selectivity(dl_arena *arena, dl_sql_plan *in, dl_sql_bexpr *const *conj, int32_t n, int depth) {
    bounds bs[16];
    int32_t nb = 0;
    double s = 1.0;
    for (int32_t i = 0; i < n; i++) {
        if (!add_bound(arena, in, conj[i], bs, &nb, 16)) {
            s *= selectivity_of(arena, in, conj[i], depth + 1);
        }
    }
    for (int32_t k = 0; k < nb; k++) {
        col_est c = column_of(arena, in, bs[k].col);
        double width = bs[k].hi - bs[k].lo + (c.is_integral ? 1.0 : 0.0);
        double span = c.hi - c.lo + (c.is_integral ? 1.0 : 0.0);
        double floor = c.ndv > 0 ? 1.0 / c.ndv : 1e-4;
        s *= width <= 0 ? floor : DL_MAX(floor, clamp01(width / span));
    }
    return s;
}

static double
selectivity_of(dl_arena *arena, dl_sql_plan *in, const dl_sql_bexpr *e, int depth) {
    if (depth > 32) {
        return DEFAULT_OTHER;
    }
    switch (e->kind) {
    case DL_SQL_BEXPR_AND:
        return and_selectivity(arena, in, e->args, e->n_args, depth);
    case DL_SQL_BEXPR_OR: {
        double keep = 1.0;
        for (int32_t i = 0; i < e->n_args; i++) {
            keep *= 1.0 - selectivity_of(arena, in, e->args[i], depth + 1);
        }
        return 1.0 - keep;
    }
    case DL_SQL_BEXPR_NOT:
        return 1.0 - selectivity_of(arena, in, e->args[0], depth + 1);
    case DL_SQL_BEXPR_CONST:
        return dl_sql_bexpr_is_null_const(e) ? 0.0 : DEFAULT_OTHER;
    case DL_SQL_BEXPR_IS: {
        int32_t c = direct_column(e->args[0]);
        col_est ce = c >= 0 ? column_of(arena, in, c) : (col_est){.null_frac = -1};
        double s = e->is_kind != DL_SQL_BIS_NULL ? DEFAULT_OTHER
                   : ce.null_frac >= 0           ? ce.null_frac
                                                 : DEFAULT_EQ;
        return e->is_not ? 1.0 - s : s;
    }
    case DL_SQL_BEXPR_IN_LIST: {
        int32_t c = direct_column(e->args[0]);
        col_est ce = c >= 0 ? column_of(arena, in, c) : (col_est){.ndv = -1};
        double s = DL_MIN(1.0, (double)(e->n_args - 1) * eq_selectivity(&ce));
        return e->is_not ? 1.0 - s : s;
    }
    case DL_SQL_BEXPR_CALL: {
        double s = compare_selectivity(arena, in, e);
        if (s >= 0) {
            return s;
        }
        return is_fn(e, "like") ? DEFAULT_LIKE : DEFAULT_OTHER;
    }
    default:
        return DEFAULT_OTHER;
    }
}

double
dl_sql_selectivity(dl_arena *arena, dl_sql_plan *input, const dl_sql_bexpr *cond) {
    return clamp01(selectivity_of(arena, input, cond, 0));
}

/* ---- joins ---------------------------------------------------------------------------------- */

double
dl_sql_join_card(double l, double r, const double *ndv_l, const double *ndv_r, int32_t n_keys) {
    double out = l * r;
    for (int32_t k = 0; k < n_keys; k++) {
        double dl = ndv_l[k] > 0 ? ndv_l[k] : l;
        double dr = ndv_r[k] > 0 ? ndv_r[k] : r;
        double domain = DL_MIN(dl, dr);
        double m = DL_MAX(DL_MIN(domain, l), DL_MIN(domain, r));
        m = DL_MAX(1.0, m);
        /* Further keys of a composite key are correlated with the first: damped. */
        out /= k == 0 ? m : sqrt(m);
    }
    return DL_MAX(n_keys > 0 ? DL_MIN(1.0, l * r) : 0.0, out);
}

/* The estimate of an inner join from its keys' distinct values. */
static double
inner_join_rows(dl_arena *arena, dl_sql_plan *p) {
    const dl_sql_join *jn = &p->u.join;
    double l = p->left->est_rows;
    double r = p->right->est_rows;
    int32_t n = DL_MIN(jn->n_keys, 8);
    double nl[8], nr[8];
    for (int32_t k = 0; k < n; k++) {
        int32_t cl = direct_column(jn->left_keys[k]);
        int32_t cr = direct_column(jn->right_keys[k]);
        nl[k] = cl >= 0 ? dl_sql_column_ndv(arena, p->left, cl) : -1;
        nr[k] = cr >= 0 ? dl_sql_column_ndv(arena, p->right, cr) : -1;
    }
    double out = dl_sql_join_card(l, r, nl, nr, n);
    return jn->residual != NULL ? out * DEFAULT_OTHER : out;
}

static double
join_rows(dl_arena *arena, dl_sql_plan *p) {
    double l = p->left->est_rows;
    double r = p->right->est_rows;
    if (l < 0 || r < 0) {
        return -1;
    }
    switch (p->u.join.type) {
    case DL_SQL_JOIN_T_INNER:
    case DL_SQL_JOIN_T_CROSS:
        return inner_join_rows(arena, p);
    case DL_SQL_JOIN_T_LEFT:
        return DL_MAX(l, inner_join_rows(arena, p));
    case DL_SQL_JOIN_T_RIGHT:
        return DL_MAX(r, inner_join_rows(arena, p));
    case DL_SQL_JOIN_T_FULL:
        return DL_MAX(l + r, inner_join_rows(arena, p));
    case DL_SQL_JOIN_T_SEMI:
        return DL_MIN(l, inner_join_rows(arena, p));
    case DL_SQL_JOIN_T_ANTI:
        return l * DEFAULT_OTHER;
    default:
        return l;
    }
}

/* ---- the pass ------------------------------------------------------------------------------- */

static double
aggregate_rows(dl_arena *arena, dl_sql_plan *p) {
    double in = p->left->est_rows;
    const dl_sql_aggregate *a = &p->u.agg;
    if (a->n_keys == 0 || in < 0) {
        return a->n_keys == 0 ? 1.0 : -1.0;
    }
    double groups = 1.0;
    for (int32_t k = 0; k < a->n_keys; k++) {
        int32_t c = direct_column(a->keys[k]);
        double ndv = c >= 0 ? dl_sql_column_ndv(arena, p->left, c) : -1;
        groups *= ndv > 0 ? ndv : DL_MAX(1.0, in * DEFAULT_EQ);
    }
    return DL_MIN(in, groups) * (double)DL_MAX(1, a->n_sets);
}

static double
node_rows(dl_arena *arena, dl_sql_plan *p) {
    double in = p->left != NULL ? p->left->est_rows : -1;
    switch (p->kind) {
    case DL_SQL_PLAN_SCAN: {
        dl_sql_scan *s = &p->u.scan;
        if (s->stats == NULL) {
            s->stats = table_stats(arena, s);
        }
        double rows = s->stats != NULL ? s->stats->rows : p->est_rows;
        p->est_rows = rows;
        for (int32_t f = 0; f < s->n_filters && rows >= 0; f++) {
            rows *= dl_sql_selectivity(arena, p, s->filters[f]);
        }
        return rows < 0 ? -1 : s->limit >= 0 ? DL_MIN(rows, (double)s->limit) : rows;
    }
    case DL_SQL_PLAN_FILTER:
        return in < 0 ? -1 : in * dl_sql_selectivity(arena, p->left, p->u.cond);
    case DL_SQL_PLAN_PROJECT:
    case DL_SQL_PLAN_WINDOW:
        return in;
    case DL_SQL_PLAN_SORT:
        return in < 0 || p->u.sort.limit < 0 ? in : DL_MIN(in, (double)p->u.sort.limit);
    case DL_SQL_PLAN_LIMIT:
        return in < 0 || p->u.limit.limit < 0 ? in : DL_MIN(in, (double)p->u.limit.limit);
    case DL_SQL_PLAN_AGGREGATE:
        return aggregate_rows(arena, p);
    case DL_SQL_PLAN_JOIN:
        return join_rows(arena, p);
    case DL_SQL_PLAN_SETOP: {
        double r = p->right->est_rows;
        if (in < 0 || r < 0) {
            return -1;
        }
        return p->u.setop.type == DL_SQL_SETOP_T_UNION       ? in + r
               : p->u.setop.type == DL_SQL_SETOP_T_INTERSECT ? DL_MIN(in, r)
                                                             : in;
    }
    default:
        return p->est_rows;
    }
}

void
dl_sql_estimate(dl_arena *arena, dl_sql_plan *root) {
    dl_sql_plan *p = root;
    if (p->left != NULL) {
        dl_sql_estimate(arena, p->left);
    }
    if (p->right != NULL) {
        dl_sql_estimate(arena, p->right);
    }
    double rows = node_rows(arena, p);
    p->est_rows = rows < 0 ? -1.0 : DL_MAX(rows, p->kind == DL_SQL_PLAN_SCAN ? 0.0 : 1.0);
}
