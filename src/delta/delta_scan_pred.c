/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Scan predicates: binding, judging a file by its partition values and statistics, and the
 * Parquet row-group filter (PROTOCOL.md, "Per-file Statistics", "Partition Value
 * Serialization").
 *
 * Judging is one-sided: a leaf answers "no row of this file can match" only when the facts
 * prove it, and "may match" otherwise. Partition values are exact (one value for the whole
 * file). Statistics are bounds: minValues <= every non-null value <= maxValues, nullCount
 * nulls among numRecords physical rows, with these exceptions that make a fact unusable:
 *
 *   - a statistic that is missing, null, or does not parse as the column's type;
 *   - a string maximum of 32 or more characters: writers truncate long strings, and not all
 *     of them append a character that keeps the result an upper bound;
 *   - float and double maxima: NaN sorts above every number in Spark and writers leave it out
 *     of the statistics, so "x > c" can hold on a row above maxValues;
 *   - nullCount when tightBounds is false (a file with deletion vectors whose statistics
 *     were not recomputed): only minValues and maxValues stay bounds.
 *
 * Comparisons between a column value and a constant are exact or not made: integers against
 * decimals by rescaling in 128 bits, integers against doubles only within 2^53, strings
 * byte-wise (UTF-8 byte order is code point order), dates with dates, timestamps (either
 * kind) with timestamps.
 */
#include <math.h>
#include <string.h>

#include "delta/delta_scan_int.h"

/* ---- binding ------------------------------------------------------------------------- */

static const dl_delta_field *
find_child(const dl_delta_field *parent, const char *name) {
    if (parent->type->id != DL_VEC_TYPE_STRUCT) {
        return NULL;
    }
    const dl_delta_field *hit = NULL;
    int n_hits = 0;
    for (int32_t i = 0; i < parent->n_children; i++) {
        const dl_delta_field *c = &parent->children[i];
        if (strcmp(c->name, name) == 0) {
            return c;
        }
        if (dl_str_eq_nocase(dl_str_from_cstr(c->name), dl_str_from_cstr(name))) {
            hit = c;
            n_hits++;
        }
    }
    return n_hits == 1 ? hit : NULL;
}

/* Copies a constant, its string into arena. */
static dl_status
copy_value(const dl_delta_scalar *v, dl_arena *arena, dl_delta_scalar *out, dl_error *err) {
    *out = *v;
    if (v->kind != DL_DELTA_SCALAR_STRING || v->s.len == 0) {
        return DL_OK;
    }
    char *p = dl_arena_memdup(arena, v->s.ptr, v->s.len);
    DL_CHECK(p, err, DL_ERR_NOMEM, "out of memory binding a predicate");
    out->s = dl_str_make(p, v->s.len);
    return DL_OK;
}

static dl_status
copy_values(const dl_delta_pred *pred, dl_arena *arena, dl_delta_bpred *out, dl_error *err) {
    out->n_values = pred->n_values;
    out->values =
        dl_arena_alloc_array(arena, pred->n_values ? pred->n_values : 1, sizeof(dl_delta_scalar));
    DL_CHECK(out->values, err, DL_ERR_NOMEM, "out of memory binding a predicate");
    for (size_t i = 0; i < pred->n_values; i++) {
        DL_TRY(copy_value(&pred->values[i], arena, &out->values[i], err));
    }
    return DL_OK;
}

/* Moves *f to its field pred->column[i]; *out_is_list when *f is an array or map. */
static dl_status
step_into(const dl_delta_pred *pred, size_t i, const dl_delta_field **f, bool *out_is_list,
          dl_error *err) {
    DL_CHECK(pred->column[i], err, DL_ERR_INVALID_ARG, "a predicate path has a NULL name");
    *out_is_list = (*f)->type->id == DL_VEC_TYPE_ARRAY || (*f)->type->id == DL_VEC_TYPE_MAP;
    if (*out_is_list) {
        return DL_OK;
    }
    const dl_delta_field *c = find_child(*f, pred->column[i]);
    DL_CHECK(c, err, DL_ERR_NOT_FOUND, "predicate column '%s' has no field '%s'", pred->column[0],
             pred->column[i]);
    *f = c;
    return DL_OK;
}

/* Resolves the leaf's column path. A path through an array or map gives TRUE. */
static dl_status
bind_column(const dl_delta_snapshot *snap, const dl_delta_pred *pred, dl_arena *arena,
            dl_delta_bpred *out, dl_error *err) {
    DL_CHECK(pred->column && pred->n_column > 0 && pred->column[0], err, DL_ERR_INVALID_ARG,
             "a predicate leaf has no column");
    const dl_delta_schema *schema = dl_delta_snapshot_schema(snap);
    out->n_path = pred->n_column;
    out->fields = dl_arena_alloc_array(arena, out->n_path, sizeof(void *));
    out->phys = dl_arena_alloc_array(arena, out->n_path, sizeof(char *));
    DL_CHECK(out->fields && out->phys, err, DL_ERR_NOMEM, "out of memory binding a predicate");
    const dl_delta_field *f = dl_delta_schema_find(schema, dl_str_from_cstr(pred->column[0]));
    DL_CHECK(f, err, DL_ERR_NOT_FOUND, "predicate column '%s' does not exist", pred->column[0]);
    dl_delta_cm_mode mode = dl_delta_snapshot_cm_mode(snap);
    for (size_t i = 0; i < pred->n_column; i++) {
        bool is_list = false;
        if (i > 0) {
            DL_TRY(step_into(pred, i, &f, &is_list, err));
        }
        if (is_list) {
            out->op = DL_DELTA_BPRED_TRUE; /* no statistics below an array or map */
            return DL_OK;
        }
        out->fields[i] = f;
        out->phys[i] = dl_delta_field_physical_name(f, mode);
    }
    out->type = f->type;
    out->partition_index = -1;
    for (int32_t p = 0; pred->n_column == 1 && p < dl_delta_snapshot_partition_count(snap); p++) {
        if (dl_delta_snapshot_partition_field(snap, p) == out->fields[0]) {
            out->partition_index = p;
        }
    }
    if (dl_vec_type_is_nested(f->type)) {
        out->op = DL_DELTA_BPRED_TRUE; /* no statistics for nested values */
    }
    return DL_OK;
}

static int
negate_op(int op) {
    switch (op) {
    case DL_DELTA_PRED_EQ:
        return DL_DELTA_PRED_NE;
    case DL_DELTA_PRED_NE:
        return DL_DELTA_PRED_EQ;
    case DL_DELTA_PRED_LT:
        return DL_DELTA_PRED_GE;
    case DL_DELTA_PRED_LE:
        return DL_DELTA_PRED_GT;
    case DL_DELTA_PRED_GT:
        return DL_DELTA_PRED_LE;
    case DL_DELTA_PRED_GE:
        return DL_DELTA_PRED_LT;
    case DL_DELTA_PRED_IS_NULL:
        return DL_DELTA_PRED_IS_NOT_NULL;
    case DL_DELTA_PRED_IS_NOT_NULL:
        return DL_DELTA_PRED_IS_NULL;
    case DL_DELTA_PRED_IN:
        return DL_DELTA_BPRED_NOT_IN;
    case DL_DELTA_BPRED_NOT_IN:
        return DL_DELTA_PRED_IN;
    case DL_DELTA_PRED_AND:
        return DL_DELTA_PRED_OR;
    case DL_DELTA_PRED_OR:
        return DL_DELTA_PRED_AND;
    case DL_DELTA_BPRED_TRUE:
        return DL_DELTA_BPRED_TRUE; /* "may match" either way */
    default:
        return DL_DELTA_BPRED_FALSE;
    }
}

/* A leaf comparing with a NULL constant is never true, negated or not. */
static bool
has_null_constant(const dl_delta_bpred *b) {
    bool is_cmp = b->op <= DL_DELTA_PRED_GE;
    for (size_t i = 0; i < b->n_values; i++) {
        if (b->values[i].kind == DL_DELTA_SCALAR_NULL &&
            (is_cmp || b->op == DL_DELTA_BPRED_NOT_IN)) {
            return true;
        }
    }
    return false;
}

static dl_status bind(const dl_delta_snapshot *snap, const dl_delta_pred *pred, bool negate,
                      int depth, dl_arena *arena, dl_delta_bpred *out, dl_error *err);

static dl_status
bind_children(const dl_delta_snapshot *snap, const dl_delta_pred *pred, bool negate, int depth,
              dl_arena *arena, dl_delta_bpred *out, dl_error *err) {
    out->op = negate ? negate_op(pred->op) : (int)pred->op;
    out->n_children = pred->n_children;
    out->children = dl_arena_alloc_array(arena, pred->n_children ? pred->n_children : 1,
                                         sizeof(dl_delta_bpred));
    DL_CHECK(out->children, err, DL_ERR_NOMEM, "out of memory binding a predicate");
    DL_CHECK(pred->n_children == 0 || pred->children, err, DL_ERR_INVALID_ARG,
             "an AND/OR predicate has no children array");
    for (size_t i = 0; i < pred->n_children; i++) {
        DL_TRY(bind(snap, &pred->children[i], negate, depth + 1, arena, &out->children[i], err));
    }
    return DL_OK;
}

static dl_status
bind(const dl_delta_snapshot *snap, const dl_delta_pred *pred, bool negate, int depth,
     dl_arena *arena, dl_delta_bpred *out, dl_error *err) {
    memset(out, 0, sizeof(*out));
    out->partition_index = -1;
    DL_CHECK(depth < 256, err, DL_ERR_LIMIT, "the predicate is nested more than 256 deep");
    switch (pred->op) {
    case DL_DELTA_PRED_AND:
    case DL_DELTA_PRED_OR:
        return bind_children(snap, pred, negate, depth, arena, out, err);
    case DL_DELTA_PRED_NOT:
        DL_CHECK(pred->n_children == 1 && pred->children, err, DL_ERR_INVALID_ARG,
                 "NOT takes exactly one child, not %zu", pred->n_children);
        return bind(snap, &pred->children[0], !negate, depth + 1, arena, out, err);
    case DL_DELTA_PRED_IS_NULL:
    case DL_DELTA_PRED_IS_NOT_NULL:
        break;
    case DL_DELTA_PRED_IN:
        DL_CHECK(pred->n_values == 0 || pred->values, err, DL_ERR_INVALID_ARG,
                 "IN has no values array");
        break;
    case DL_DELTA_PRED_EQ:
    case DL_DELTA_PRED_NE:
    case DL_DELTA_PRED_LT:
    case DL_DELTA_PRED_LE:
    case DL_DELTA_PRED_GT:
    case DL_DELTA_PRED_GE:
        DL_CHECK(pred->n_values == 1 && pred->values, err, DL_ERR_INVALID_ARG,
                 "a comparison takes exactly one value, not %zu", pred->n_values);
        break;
    default:
        DL_FAIL(err, DL_ERR_INVALID_ARG, "unknown predicate operator %d", (int)pred->op);
    }
    out->op = negate ? negate_op(pred->op) : (int)pred->op;
    DL_TRY(copy_values(pred, arena, out, err));
    DL_TRY(bind_column(snap, pred, arena, out, err));
    if (out->op != DL_DELTA_BPRED_TRUE && has_null_constant(out)) {
        out->op = DL_DELTA_BPRED_FALSE;
    }
    return DL_OK;
}

dl_status
dl_delta_pred_bind(const dl_delta_snapshot *snap, const dl_delta_pred *pred, dl_arena *arena,
                   dl_delta_bpred **out, dl_error *err) {
    dl_delta_bpred *b = dl_arena_alloc(arena, sizeof(*b));
    DL_CHECK(b, err, DL_ERR_NOMEM, "out of memory binding a predicate");
    DL_TRY(bind(snap, pred, false, 0, arena, b, err));
    *out = b;
    return DL_OK;
}

bool
dl_delta_bpred_has_data_leaf(const dl_delta_bpred *p) {
    if (p->op == DL_DELTA_PRED_AND || p->op == DL_DELTA_PRED_OR) {
        for (size_t i = 0; i < p->n_children; i++) {
            if (dl_delta_bpred_has_data_leaf(&p->children[i])) {
                return true;
            }
        }
        return false;
    }
    return p->op != DL_DELTA_BPRED_TRUE && p->op != DL_DELTA_BPRED_FALSE && p->partition_index < 0;
}

/* ---- comparing a value with a constant ----------------------------------------------- */

static int
cmp_i128(dl_i128 a, dl_i128 b) {
    return (a > b) - (a < b);
}

/* a at scale sa against b at scale sb, exactly; false when rescaling overflows. */
static bool
cmp_decimals(dl_i128 a, int sa, dl_i128 b, int sb, int *out) {
    while (sa < sb) {
        if (__builtin_mul_overflow(a, (dl_i128)10, &a)) {
            return false;
        }
        sa++;
    }
    while (sb < sa) {
        if (__builtin_mul_overflow(b, (dl_i128)10, &b)) {
            return false;
        }
        sb++;
    }
    *out = cmp_i128(a, b);
    return true;
}

#define EXACT_DOUBLE_INT ((int64_t)1 << 53)

static bool
cmp_doubles(double a, double b, int *out) {
    if (isnan(a) || isnan(b)) {
        return false;
    }
    *out = (a > b) - (a < b);
    return true;
}

static bool
cmp_bytes(dl_str a, dl_str b, int *out) {
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
    *out = c != 0 ? (c > 0) - (c < 0) : (a.len > b.len) - (a.len < b.len);
    return true;
}

static bool
cmp_integer(int64_t v, const dl_delta_scalar *c, int *out) {
    switch (c->kind) {
    case DL_DELTA_SCALAR_INT:
        *out = (v > c->i) - (v < c->i);
        return true;
    case DL_DELTA_SCALAR_DECIMAL:
        return c->scale >= 0 && c->scale <= 38 && cmp_decimals(v, 0, c->d, c->scale, out);
    case DL_DELTA_SCALAR_DOUBLE:
        return v > -EXACT_DOUBLE_INT && v < EXACT_DOUBLE_INT && cmp_doubles((double)v, c->f, out);
    default:
        return false;
    }
}

/* *out = sign(v - c) when v (a non-null value of type t) and c compare exactly. */
static bool
cmp_value(const dl_delta_value *v, const dl_type *t, const dl_delta_scalar *c, int *out) {
    if (v->is_null || c->kind == DL_DELTA_SCALAR_NULL) {
        return false;
    }
    switch (t->id) {
    case DL_VEC_TYPE_BOOLEAN:
        *out = (int)v->u.b - (int)c->b;
        return c->kind == DL_DELTA_SCALAR_BOOL;
    case DL_VEC_TYPE_BYTE:
    case DL_VEC_TYPE_SHORT:
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_LONG:
        return cmp_integer(v->u.i64, c, out);
    case DL_VEC_TYPE_FLOAT:
    case DL_VEC_TYPE_DOUBLE:
        if (c->kind == DL_DELTA_SCALAR_INT) {
            return c->i > -EXACT_DOUBLE_INT && c->i < EXACT_DOUBLE_INT &&
                   cmp_doubles(v->u.f64, (double)c->i, out);
        }
        return c->kind == DL_DELTA_SCALAR_DOUBLE && cmp_doubles(v->u.f64, c->f, out);
    case DL_VEC_TYPE_DECIMAL:
        if (c->kind == DL_DELTA_SCALAR_INT) {
            return cmp_decimals(v->u.dec, t->scale, c->i, 0, out);
        }
        return c->kind == DL_DELTA_SCALAR_DECIMAL && c->scale >= 0 && c->scale <= 38 &&
               cmp_decimals(v->u.dec, t->scale, c->d, c->scale, out);
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY:
        return c->kind == DL_DELTA_SCALAR_STRING && cmp_bytes(v->u.str, c->s, out);
    case DL_VEC_TYPE_DATE:
        *out = (v->u.i64 > c->i) - (v->u.i64 < c->i);
        return c->kind == DL_DELTA_SCALAR_DATE;
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        *out = (v->u.i64 > c->i) - (v->u.i64 < c->i);
        return c->kind == DL_DELTA_SCALAR_TIMESTAMP;
    default:
        return false;
    }
}

/* ---- partition leaves ---------------------------------------------------------------- */

/* The truth of a leaf on one exact value (a partition value): true when the row matches. */
static bool
leaf_on_value(const dl_delta_bpred *p, const dl_delta_value *v) {
    int c = 0;
    switch (p->op) {
    case DL_DELTA_PRED_IS_NULL:
        return v->is_null;
    case DL_DELTA_PRED_IS_NOT_NULL:
        return !v->is_null;
    case DL_DELTA_PRED_IN:
    case DL_DELTA_BPRED_NOT_IN: {
        if (v->is_null) {
            return false; /* null [NOT] IN (...) is never true */
        }
        bool is_in = false;
        bool is_all_compared = true;
        for (size_t i = 0; i < p->n_values; i++) {
            if (p->values[i].kind == DL_DELTA_SCALAR_NULL) {
                continue;
            }
            if (!cmp_value(v, p->type, &p->values[i], &c)) {
                is_all_compared = false;
            } else if (c == 0) {
                is_in = true;
            }
        }
        return p->op == DL_DELTA_PRED_IN ? is_in || !is_all_compared : !is_in;
    }
    default:
        break;
    }
    if (v->is_null) {
        return false;
    }
    if (!cmp_value(v, p->type, &p->values[0], &c)) {
        return true; /* not comparable: keep */
    }
    switch (p->op) {
    case DL_DELTA_PRED_EQ:
        return c == 0;
    case DL_DELTA_PRED_NE:
        return c != 0;
    case DL_DELTA_PRED_LT:
        return c < 0;
    case DL_DELTA_PRED_LE:
        return c <= 0;
    case DL_DELTA_PRED_GT:
        return c > 0;
    default:
        return c >= 0;
    }
}

/* ---- data leaves on statistics ------------------------------------------------------- */

typedef struct leaf_stats {
    bool has_min;
    bool has_max;
    dl_delta_value min;
    dl_delta_value max;
    int64_t rows;  /* -1 unknown */
    int64_t nulls; /* -1 unknown or unusable */
    bool is_float;
} leaf_stats;

static size_t
utf8_chars(dl_str s) {
    size_t n = 0;
    for (size_t i = 0; i < s.len; i++) {
        n += ((unsigned char)s.ptr[i] & 0xC0u) != 0x80u;
    }
    return n;
}

#define MAX_STRING_STAT_CHARS 32

static void
get_leaf_stats(const dl_delta_bpred *p, const dl_delta_stats *st, leaf_stats *ls) {
    memset(ls, 0, sizeof(*ls));
    bool found;
    dl_delta_value v;
    const char *const *path = p->phys;
    if (dl_delta_stats_get(st, DL_DELTA_STAT_MIN, path, p->n_path, p->type, &ls->min, &found,
                           NULL) == DL_OK) {
        ls->has_min = found && !ls->min.is_null;
    }
    if (dl_delta_stats_get(st, DL_DELTA_STAT_MAX, path, p->n_path, p->type, &ls->max, &found,
                           NULL) == DL_OK) {
        ls->has_max = found && !ls->max.is_null;
    }
    ls->is_float = p->type->id == DL_VEC_TYPE_FLOAT || p->type->id == DL_VEC_TYPE_DOUBLE;
    bool is_string = p->type->id == DL_VEC_TYPE_STRING || p->type->id == DL_VEC_TYPE_BINARY;
    if (ls->has_max && is_string && utf8_chars(ls->max.u.str) >= MAX_STRING_STAT_CHARS) {
        ls->has_max = false;
    }
    ls->rows = st->has_num_records ? st->num_records : -1;
    ls->nulls = -1;
    if (st->tight_bounds &&
        dl_delta_stats_get(st, DL_DELTA_STAT_NULL_COUNT, path, p->n_path, p->type, &v, &found,
                           NULL) == DL_OK &&
        found && !v.is_null && v.u.i64 >= 0) {
        ls->nulls = v.u.i64;
    }
}

/* Whether some non-null value of the file may equal c: false when c lies outside
 * [minValues, maxValues]. */
static bool
may_equal(const dl_delta_bpred *p, const leaf_stats *ls, const dl_delta_scalar *c) {
    int k;
    if (ls->has_min && cmp_value(&ls->min, p->type, c, &k) && k > 0) {
        return false; /* c < min */
    }
    if (ls->has_max && cmp_value(&ls->max, p->type, c, &k) && k < 0) {
        return false; /* c > max */
    }
    return true;
}

static bool
leaf_on_stats(const dl_delta_bpred *p, const dl_delta_stats *st) {
    leaf_stats ls;
    get_leaf_stats(p, st, &ls);
    bool is_all_null = ls.rows >= 0 && ls.nulls == ls.rows;
    int k;
    switch (p->op) {
    case DL_DELTA_PRED_IS_NULL:
        return ls.nulls != 0;
    case DL_DELTA_PRED_IS_NOT_NULL:
    case DL_DELTA_BPRED_NOT_IN:
        return !is_all_null;
    case DL_DELTA_PRED_IN:
        if (is_all_null) {
            return false;
        }
        for (size_t i = 0; i < p->n_values; i++) {
            if (p->values[i].kind != DL_DELTA_SCALAR_NULL && may_equal(p, &ls, &p->values[i])) {
                return true;
            }
        }
        return false;
    default:
        break;
    }
    if (is_all_null) {
        return false;
    }
    const dl_delta_scalar *c = &p->values[0];
    switch (p->op) {
    case DL_DELTA_PRED_EQ:
        return may_equal(p, &ls, c);
    case DL_DELTA_PRED_NE: {
        bool is_string = p->type->id == DL_VEC_TYPE_STRING || p->type->id == DL_VEC_TYPE_BINARY;
        int k2;
        return is_string || ls.is_float || !ls.has_min || !ls.has_max ||
               !cmp_value(&ls.min, p->type, c, &k) || !cmp_value(&ls.max, p->type, c, &k2) ||
               k != 0 || k2 != 0;
    }
    case DL_DELTA_PRED_LT:
        return !(ls.has_min && cmp_value(&ls.min, p->type, c, &k) && k >= 0);
    case DL_DELTA_PRED_LE:
        return !(ls.has_min && cmp_value(&ls.min, p->type, c, &k) && k > 0);
    case DL_DELTA_PRED_GT:
        return ls.is_float || !(ls.has_max && cmp_value(&ls.max, p->type, c, &k) && k <= 0);
    default: /* GE */
        return ls.is_float || !(ls.has_max && cmp_value(&ls.max, p->type, c, &k) && k < 0);
    }
}

bool
dl_delta_bpred_may_match(const dl_delta_bpred *p, const dl_delta_file *file,
                         const dl_delta_stats *stats) {
    switch (p->op) {
    case DL_DELTA_PRED_AND:
        for (size_t i = 0; i < p->n_children; i++) {
            if (!dl_delta_bpred_may_match(&p->children[i], file, stats)) {
                return false;
            }
        }
        return true;
    case DL_DELTA_PRED_OR:
        for (size_t i = 0; i < p->n_children; i++) {
            if (dl_delta_bpred_may_match(&p->children[i], file, stats)) {
                return true;
            }
        }
        return false;
    case DL_DELTA_BPRED_TRUE:
        return true;
    case DL_DELTA_BPRED_FALSE:
        return false;
    default:
        break;
    }
    if (p->partition_index >= 0) {
        if (!file->partition || !file->partition->values) {
            return true;
        }
        return leaf_on_value(p, &file->partition->values[p->partition_index]);
    }
    return stats ? leaf_on_stats(p, stats) : true;
}

/* ---- the Parquet row-group filter ---------------------------------------------------- */

static bool
is_int_type(dl_type_id id) {
    return id == DL_VEC_TYPE_BYTE || id == DL_VEC_TYPE_SHORT || id == DL_VEC_TYPE_INT ||
           id == DL_VEC_TYPE_LONG;
}

/* The Parquet constant for c against a file column of type ft, when they compare. */
static bool
pq_scalar(const dl_delta_scalar *c, const dl_type *ft, dl_pq_scalar *out) {
    memset(out, 0, sizeof(*out));
    dl_type_id id = ft->id;
    switch (c->kind) {
    case DL_DELTA_SCALAR_BOOL:
        out->kind = DL_PQ_SCALAR_BOOL;
        out->b = c->b;
        return id == DL_VEC_TYPE_BOOLEAN;
    case DL_DELTA_SCALAR_INT:
        out->kind = DL_PQ_SCALAR_INT;
        out->i = c->i;
        return is_int_type(id);
    case DL_DELTA_SCALAR_DOUBLE:
        out->kind = DL_PQ_SCALAR_DOUBLE;
        out->f = c->f;
        return (id == DL_VEC_TYPE_DOUBLE || id == DL_VEC_TYPE_FLOAT) && !isnan(c->f);
    case DL_DELTA_SCALAR_DECIMAL:
        out->kind = DL_PQ_SCALAR_DECIMAL;
        out->d = c->d;
        out->scale = c->scale;
        return id == DL_VEC_TYPE_DECIMAL;
    case DL_DELTA_SCALAR_STRING:
        out->kind = DL_PQ_SCALAR_BYTES;
        out->s = c->s;
        return id == DL_VEC_TYPE_STRING || id == DL_VEC_TYPE_BINARY;
    case DL_DELTA_SCALAR_DATE:
        out->kind = DL_PQ_SCALAR_INT;
        out->i = c->i;
        return id == DL_VEC_TYPE_DATE;
    case DL_DELTA_SCALAR_TIMESTAMP:
        out->kind = DL_PQ_SCALAR_INT;
        out->i = c->i;
        return id == DL_VEC_TYPE_TIMESTAMP || id == DL_VEC_TYPE_TIMESTAMP_NTZ;
    default:
        return false;
    }
}

typedef struct pq_map {
    dl_delta_leaf_find_fn find;
    void *ctx;
    dl_arena *arena;
} pq_map;

/* Maps a leaf; *out_keep true means "may match anything" (no filter node). */
static dl_status
map_leaf(pq_map *m, const dl_delta_bpred *p, dl_pq_filter *out, bool *out_keep, dl_error *err) {
    *out_keep = true;
    bool is_float = p->type->id == DL_VEC_TYPE_FLOAT || p->type->id == DL_VEC_TYPE_DOUBLE;
    if (p->partition_index >= 0 || p->op == DL_DELTA_PRED_NE || p->op == DL_DELTA_BPRED_NOT_IN ||
        (is_float && (p->op == DL_DELTA_PRED_GT || p->op == DL_DELTA_PRED_GE))) {
        return DL_OK;
    }
    const dl_pq_field *f = m->find(m->ctx, p);
    if (!f || f->kind != DL_PQ_FIELD_LEAF || !f->type) {
        return DL_OK;
    }
    memset(out, 0, sizeof(*out));
    out->column = f;
    static const dl_pq_filter_op ops[] = {
        DL_PQ_FILTER_EQ,      DL_PQ_FILTER_EQ,          DL_PQ_FILTER_LT,
        DL_PQ_FILTER_LE,      DL_PQ_FILTER_GT,          DL_PQ_FILTER_GE,
        DL_PQ_FILTER_IS_NULL, DL_PQ_FILTER_IS_NOT_NULL, DL_PQ_FILTER_IN};
    out->op = ops[p->op];
    if (p->op == DL_DELTA_PRED_IS_NULL || p->op == DL_DELTA_PRED_IS_NOT_NULL) {
        *out_keep = false;
        return DL_OK;
    }
    dl_pq_scalar *vals =
        dl_arena_alloc_array(m->arena, p->n_values ? p->n_values : 1, sizeof(dl_pq_scalar));
    DL_CHECK(vals, err, DL_ERR_NOMEM, "out of memory building a row-group filter");
    size_t n = 0;
    for (size_t i = 0; i < p->n_values; i++) {
        if (p->values[i].kind == DL_DELTA_SCALAR_NULL) {
            continue;
        }
        if (!pq_scalar(&p->values[i], f->type, &vals[n++])) {
            return DL_OK; /* a constant the file's column cannot be compared with */
        }
    }
    out->values = vals;
    out->n_values = n;
    *out_keep = false;
    return DL_OK;
}

static dl_status
map_node(pq_map *m, const dl_delta_bpred *p, dl_pq_filter *out, bool *out_keep, dl_error *err) {
    if (p->op == DL_DELTA_BPRED_TRUE || p->op == DL_DELTA_BPRED_FALSE) {
        *out_keep = true;
        return DL_OK;
    }
    if (p->op != DL_DELTA_PRED_AND && p->op != DL_DELTA_PRED_OR) {
        return map_leaf(m, p, out, out_keep, err);
    }
    bool is_and = p->op == DL_DELTA_PRED_AND;
    dl_pq_filter *kids =
        dl_arena_alloc_array(m->arena, p->n_children ? p->n_children : 1, sizeof(dl_pq_filter));
    DL_CHECK(kids, err, DL_ERR_NOMEM, "out of memory building a row-group filter");
    size_t n = 0;
    for (size_t i = 0; i < p->n_children; i++) {
        bool keep;
        DL_TRY(map_node(m, &p->children[i], &kids[n], &keep, err));
        if (keep && !is_and) {
            *out_keep = true; /* OR with a child that may match anything */
            return DL_OK;
        }
        n += keep ? 0 : 1;
    }
    *out_keep = n == 0;
    if (n == 1) {
        *out = kids[0];
        return DL_OK;
    }
    memset(out, 0, sizeof(*out));
    out->op = is_and ? DL_PQ_FILTER_AND : DL_PQ_FILTER_OR;
    out->children = kids;
    out->n_children = n;
    return DL_OK;
}

dl_status
dl_delta_bpred_to_pq(const dl_delta_bpred *p, dl_delta_leaf_find_fn find, void *ctx,
                     dl_arena *arena, const dl_pq_filter **out, dl_error *err) {
    *out = NULL;
    pq_map m = {.find = find, .ctx = ctx, .arena = arena};
    dl_pq_filter *f = dl_arena_alloc(arena, sizeof(*f));
    DL_CHECK(f, err, DL_ERR_NOMEM, "out of memory building a row-group filter");
    bool keep;
    DL_TRY(map_node(&m, p, f, &keep, err));
    *out = keep ? NULL : f;
    return DL_OK;
}
