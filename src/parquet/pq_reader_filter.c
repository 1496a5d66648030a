/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Row-group skipping: can any row of a row group satisfy a filter, judging by the column
 * chunks' statistics? (parquet.thrift Statistics; which bounds may be trusted is decided by
 * dl_pq_stats_usable in pq_meta_stats.c.)
 *
 * The answer is three-valued at heart (no / maybe), and every doubt is "maybe": statistics
 * that are missing or untrustworthy, constants of a kind the column cannot be compared with
 * exactly, NaNs, arithmetic that would overflow. Bounds are decoded into the column's vector
 * domain (timestamps in microseconds, unsigned integers widened, decimals as 128-bit unscaled
 * values) so that constants are given the way the rest of deltalite holds values.
 *
 * Null semantics are SQL's: a comparison never matches a null, so a chunk whose values are all
 * null matches no comparison; IS NULL needs a null, IS NOT NULL a non-null.
 */
#include <math.h>
#include <string.h>

#include "parquet/pq_reader_int.h"

/* A decoded bound, or `is_known` false. */
typedef struct bound {
    bool is_known;
    dl_pq_scalar v;
} bound;

static bound
unknown(void) {
    bound b;
    memset(&b, 0, sizeof(b));
    return b;
}

static bound
int_bound(int64_t i) {
    bound b = unknown();
    b.is_known = true;
    b.v.kind = DL_PQ_SCALAR_INT;
    b.v.i = i;
    return b;
}

static int32_t
le_i32(const char *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return (int32_t)v;
}

static int64_t
le_i64(const char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return (int64_t)v;
}

static bound
int32_bound(dl_pq_conv conv, dl_str s) {
    if (s.len != 4) {
        return unknown();
    }
    int32_t v = le_i32(s.ptr);
    switch (conv) {
    case DL_PQ_CONV_U16_I32:
    case DL_PQ_CONV_U32_I64:
        return int_bound((int64_t)(uint32_t)v);
    case DL_PQ_CONV_I32_MS_US:
        return int_bound((int64_t)v * 1000);
    default:
        return int_bound(v);
    }
}

static bound
int64_bound(dl_pq_conv conv, dl_str s) {
    if (s.len != 8) {
        return unknown();
    }
    int64_t v = le_i64(s.ptr);
    int64_t out = v;
    if (conv == DL_PQ_CONV_I64_MS_US && DL_MUL_OVERFLOW(v, (int64_t)1000, &out)) {
        return unknown();
    }
    if (conv == DL_PQ_CONV_I64_NS_US) {
        out = v / 1000 - (v % 1000 < 0);
    }
    return int_bound(out);
}

static bound
decimal_bound(dl_pq_conv conv, const dl_type *type, dl_str s) {
    bound b = unknown();
    dl_i128 v = 0;
    if (conv == DL_PQ_CONV_I32_DEC && s.len == 4) {
        v = le_i32(s.ptr);
    } else if (conv == DL_PQ_CONV_I64_DEC && s.len == 8) {
        v = le_i64(s.ptr);
    } else if (conv == DL_PQ_CONV_U64_DEC && s.len == 8) {
        v = (dl_i128)(uint64_t)le_i64(s.ptr);
    } else if ((conv == DL_PQ_CONV_BA_DEC || conv == DL_PQ_CONV_FLBA_DEC) &&
               dl_pq_decimal_from_be((const uint8_t *)s.ptr, s.len, &v, NULL) == DL_OK) {
        /* v set */
    } else {
        return b;
    }
    b.is_known = true;
    b.v.kind = DL_PQ_SCALAR_DECIMAL;
    b.v.d = v;
    b.v.scale = type->scale;
    return b;
}

/* The statistics bound s of a leaf, in the leaf's vector domain. */
static bound
decode_bound(const dl_pq_field *leaf, dl_str s) {
    dl_pq_conv conv = (dl_pq_conv)leaf->conv;
    bound b = unknown();
    switch (conv) {
    case DL_PQ_CONV_BOOL:
        if (s.len == 1) {
            b.is_known = true;
            b.v.kind = DL_PQ_SCALAR_BOOL;
            b.v.b = s.ptr[0] != 0;
        }
        return b;
    case DL_PQ_CONV_I32:
    case DL_PQ_CONV_I32_I8:
    case DL_PQ_CONV_I32_I16:
    case DL_PQ_CONV_U16_I32:
    case DL_PQ_CONV_U32_I64:
    case DL_PQ_CONV_I32_MS_US:
        return int32_bound(conv, s);
    case DL_PQ_CONV_I64:
    case DL_PQ_CONV_I64_MS_US:
    case DL_PQ_CONV_I64_NS_US:
        return int64_bound(conv, s);
    case DL_PQ_CONV_I32_DEC:
    case DL_PQ_CONV_I64_DEC:
    case DL_PQ_CONV_U64_DEC:
    case DL_PQ_CONV_BA_DEC:
    case DL_PQ_CONV_FLBA_DEC:
        return decimal_bound(conv, leaf->type, s);
    case DL_PQ_CONV_F32:
    case DL_PQ_CONV_F64:
        if (s.len == (conv == DL_PQ_CONV_F32 ? 4u : 8u)) {
            b.is_known = true;
            b.v.kind = DL_PQ_SCALAR_DOUBLE;
            if (conv == DL_PQ_CONV_F32) {
                float f;
                memcpy(&f, s.ptr, 4);
                b.v.f = (double)f;
            } else {
                memcpy(&b.v.f, s.ptr, 8);
            }
            b.is_known = !isnan(b.v.f);
        }
        return b;
    case DL_PQ_CONV_BA_STR:
    case DL_PQ_CONV_BA_BIN:
    case DL_PQ_CONV_FLBA_BIN:
        b.is_known = true;
        b.v.kind = DL_PQ_SCALAR_BYTES;
        b.v.s = s;
        return b;
    default: /* INT96, FLOAT16, UUID, void: not compared */
        return b;
    }
}

/* ---- Comparisons ------------------------------------------------------------------------------
 */

static const dl_i128 pow10_table[] = {
    1,
    10,
    100,
    1000,
    10000,
    100000,
    1000000,
    10000000,
    100000000,
    1000000000,
    10000000000LL,
    100000000000LL,
    1000000000000LL,
    10000000000000LL,
    100000000000000LL,
    1000000000000000LL,
    10000000000000000LL,
    100000000000000000LL,
    1000000000000000000LL,
};

/* v * 10^k, false on overflow (or k beyond 38). */
static bool
scale_up(dl_i128 v, int32_t k, dl_i128 *out) {
    while (k > 0) {
        int32_t step = DL_MIN(k, 18);
        if (DL_MUL_OVERFLOW(v, pow10_table[step], &v)) {
            return false;
        }
        k -= step;
    }
    *out = v;
    return true;
}

static int
sign_of(dl_i128 a, dl_i128 b) {
    return a < b ? -1 : a > b ? 1 : 0;
}

/* Decimal comparison at a common scale; false when it cannot be made exactly. */
static bool
cmp_decimal(dl_i128 a, int32_t sa, dl_i128 b, int32_t sb, int *out) {
    if (sa < sb) {
        if (!scale_up(a, sb - sa, &a)) {
            return false;
        }
    } else if (!scale_up(b, sa - sb, &b)) {
        return false;
    }
    *out = sign_of(a, b);
    return true;
}

static bool
cmp_double(double a, double b, int *out) {
    if (isnan(a) || isnan(b)) {
        return false;
    }
    *out = a < b ? -1 : a > b ? 1 : 0;
    return true;
}

static int
cmp_bytes(dl_str a, dl_str b) {
    size_t n = DL_MIN(a.len, b.len);
    int c = n > 0 ? memcmp(a.ptr, b.ptr, n) : 0;
    if (c != 0) {
        return c < 0 ? -1 : 1;
    }
    return a.len < b.len ? -1 : a.len > b.len ? 1 : 0;
}

/* Compares constant c with bound b (c - b's sign); false when they cannot be compared. */
static bool
compare(const dl_pq_scalar *c, const dl_pq_scalar *b, int *out) {
    switch (b->kind) {
    case DL_PQ_SCALAR_INT:
        if (c->kind == DL_PQ_SCALAR_INT) {
            *out = c->i < b->i ? -1 : c->i > b->i ? 1 : 0;
            return true;
        }
        if (c->kind == DL_PQ_SCALAR_DOUBLE) {
            return cmp_double(c->f, (double)b->i, out) && fabs(c->f) < 9e15;
        }
        return c->kind == DL_PQ_SCALAR_DECIMAL && cmp_decimal(c->d, c->scale, b->i, 0, out);
    case DL_PQ_SCALAR_DOUBLE:
        if (c->kind == DL_PQ_SCALAR_DOUBLE) {
            return cmp_double(c->f, b->f, out);
        }
        return c->kind == DL_PQ_SCALAR_INT && c->i > -9000000000000000LL &&
               c->i < 9000000000000000LL && cmp_double((double)c->i, b->f, out);
    case DL_PQ_SCALAR_DECIMAL:
        if (c->kind == DL_PQ_SCALAR_DECIMAL) {
            return cmp_decimal(c->d, c->scale, b->d, b->scale, out);
        }
        return c->kind == DL_PQ_SCALAR_INT && cmp_decimal(c->i, 0, b->d, b->scale, out);
    case DL_PQ_SCALAR_BYTES:
        if (c->kind != DL_PQ_SCALAR_BYTES) {
            return false;
        }
        *out = cmp_bytes(c->s, b->s);
        return true;
    default:
        if (c->kind != DL_PQ_SCALAR_BOOL) {
            return false;
        }
        *out = (int)c->b - (int)b->b;
        return true;
    }
}

/* May a value v with min <= v <= max satisfy `v op c`? Unknown bounds are infinite. */
static bool
may_compare(dl_pq_filter_op op, const dl_pq_scalar *c, const bound *min, const bound *max) {
    int vs_min = 1; /* c compared with min; 1 (c above) when unknown */
    int vs_max = -1;
    if (min->is_known && !compare(c, &min->v, &vs_min)) {
        return true;
    }
    if (max->is_known && !compare(c, &max->v, &vs_max)) {
        return true;
    }
    switch (op) {
    case DL_PQ_FILTER_EQ:
        return (!min->is_known || vs_min >= 0) && (!max->is_known || vs_max <= 0);
    case DL_PQ_FILTER_LT: /* some v < c: min < c */
        return !min->is_known || vs_min > 0;
    case DL_PQ_FILTER_LE:
        return !min->is_known || vs_min >= 0;
    case DL_PQ_FILTER_GT: /* some v > c: max > c */
        return !max->is_known || vs_max < 0;
    default: /* GE */
        return !max->is_known || vs_max <= 0;
    }
}

/* ---- The filter tree ------------------------------------------------------------------------- */

static const dl_pq_column_chunk *
chunk_of(const dl_pq_file *file, const dl_pq_field *leaf, size_t rg) {
    if (leaf == NULL || leaf->kind != DL_PQ_FIELD_LEAF || !leaf->node->is_leaf) {
        return NULL;
    }
    int32_t idx = leaf->node->leaf_index;
    const dl_pq_file_metadata *md = &file->footer->meta;
    if (idx < 0 || (size_t)idx >= file->footer->schema.n_leaves || file->leaf_field[idx] != leaf ||
        rg >= md->n_row_groups) {
        return NULL;
    }
    return &md->row_groups[rg].columns[idx];
}

static bool
leaf_may_match(const dl_pq_file *file, const dl_pq_filter *f, size_t rg) {
    const dl_pq_column_chunk *cc = chunk_of(file, f->column, rg);
    if (cc == NULL || !cc->meta_data.has_statistics) {
        return true;
    }
    const dl_pq_statistics *st = &cc->meta_data.statistics;
    bool is_flat = f->column->node->max_rep_level == 0;
    bool all_null = is_flat && st->has_null_count && st->null_count == cc->meta_data.num_values;
    bool no_null = st->has_null_count && st->null_count == 0;
    if (f->op == DL_PQ_FILTER_IS_NULL) {
        return !(is_flat && no_null);
    }
    if (f->op == DL_PQ_FILTER_IS_NOT_NULL) {
        return !all_null;
    }
    if (all_null) {
        return false;
    }
    dl_pq_stats_bounds sb;
    if (!dl_pq_stats_usable(f->column->node, &file->footer->writer, st, &sb)) {
        return true;
    }
    bound min = sb.has_min ? decode_bound(f->column, sb.min) : unknown();
    bound max = sb.has_max ? decode_bound(f->column, sb.max) : unknown();
    if (f->op == DL_PQ_FILTER_IN) {
        for (size_t i = 0; i < f->n_values; i++) {
            if (may_compare(DL_PQ_FILTER_EQ, &f->values[i], &min, &max)) {
                return true;
            }
        }
        return false;
    }
    if (f->n_values < 1 || f->values == NULL) {
        return true;
    }
    return may_compare(f->op, &f->values[0], &min, &max);
}

bool
dl_pq_filter_may_match(const dl_pq_file *file, const dl_pq_filter *filter, size_t rg) {
    switch (filter->op) {
    case DL_PQ_FILTER_AND:
        for (size_t i = 0; i < filter->n_children; i++) {
            if (!dl_pq_filter_may_match(file, &filter->children[i], rg)) {
                return false;
            }
        }
        return true;
    case DL_PQ_FILTER_OR:
        for (size_t i = 0; i < filter->n_children; i++) {
            if (dl_pq_filter_may_match(file, &filter->children[i], rg)) {
                return true;
            }
        }
        return false;
    default:
        return leaf_may_match(file, filter, rg);
    }
}
