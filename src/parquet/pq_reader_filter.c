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

/*
 * An INT32 bound in the vector domain. Narrow integers must lie in their annotation's range
 * (INTEGER(8|16, signed), INTEGER(8|16, unsigned) stored zero-extended, as the spec has it):
 * a bound outside it would not order like the values the reader converts, so it is dropped.
 * Unsigned 32-bit bounds (compared unsigned by the writer) widen to bigint like the values.
 */
static bound
int32_bound(const dl_pq_field *leaf, dl_str s) {
    if (s.len != 4) {
        return unknown();
    }
    int32_t v = le_i32(s.ptr);
    const dl_pq_logical_type *lt = &leaf->node->logical;
    bool is_unsigned = lt->kind == DL_PQ_LT_INTEGER && !lt->integer.is_signed;
    switch ((dl_pq_conv)leaf->conv) {
    case DL_PQ_CONV_I32_I8:
        return v >= INT8_MIN && v <= INT8_MAX ? int_bound(v) : unknown();
    case DL_PQ_CONV_I32_I16:
        if (is_unsigned) {
            return v >= 0 && v <= UINT8_MAX ? int_bound(v) : unknown();
        }
        return v >= INT16_MIN && v <= INT16_MAX ? int_bound(v) : unknown();
    case DL_PQ_CONV_U16_I32:
        return v >= 0 && v <= UINT16_MAX ? int_bound(v) : unknown();
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
        return int32_bound(leaf, s);
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

int32_t
dl_pq_filter_leaf_index(const dl_pq_file *file, const dl_pq_field *leaf) {
    if (leaf == NULL || leaf->kind != DL_PQ_FIELD_LEAF || !leaf->node->is_leaf) {
        return -1;
    }
    int32_t idx = leaf->node->leaf_index;
    if (idx < 0 || (size_t)idx >= file->footer->schema.n_leaves || file->leaf_field[idx] != leaf) {
        return -1;
    }
    return idx;
}

static const dl_pq_column_chunk *
chunk_of(const dl_pq_file *file, const dl_pq_field *leaf, size_t rg) {
    int32_t idx = dl_pq_filter_leaf_index(file, leaf);
    const dl_pq_file_metadata *md = &file->footer->meta;
    if (idx < 0 || rg >= md->n_row_groups) {
        return NULL;
    }
    return &md->row_groups[rg].columns[idx];
}

/*
 * May some value of a leaf, described by facts, satisfy the leaf predicate f? is_all_null says
 * that no entry has a value; has_no_null that every entry has one; bounds (may be NULL) the
 * usable min/max.
 */
static bool
facts_may_match(const dl_pq_filter *f, bool is_all_null, bool has_no_null,
                const dl_pq_stats_bounds *bounds) {
    bool is_flat = f->column->node->max_rep_level == 0;
    if (f->op == DL_PQ_FILTER_IS_NULL) {
        return !(is_flat && has_no_null);
    }
    if (f->op == DL_PQ_FILTER_IS_NOT_NULL) {
        return !(is_flat && is_all_null);
    }
    if (is_all_null) {
        return false;
    }
    if (bounds == NULL) {
        return true;
    }
    bound min = bounds->has_min ? decode_bound(f->column, bounds->min) : unknown();
    bound max = bounds->has_max ? decode_bound(f->column, bounds->max) : unknown();
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
    dl_pq_stats_bounds sb;
    bool usable = dl_pq_stats_usable(f->column->node, &file->footer->writer, st, &sb);
    return facts_may_match(f, all_null, no_null, usable ? &sb : NULL);
}

bool
dl_pq_filter_page_may_match(const dl_pq_file *file, const dl_pq_filter *f,
                            const dl_pq_column_index *ci, size_t page) {
    bool is_null_page = ci->null_pages[page];
    bool has_nulls = !ci->has_null_counts || ci->null_counts[page] != 0;
    if (is_null_page) {
        return facts_may_match(f, true, false, NULL);
    }
    dl_pq_statistics st;
    memset(&st, 0, sizeof(st));
    st.min_value = ci->min_values[page];
    st.max_value = ci->max_values[page];
    st.has_min_value = true;
    st.has_max_value = true;
    dl_pq_stats_bounds sb;
    bool usable = dl_pq_stats_usable(f->column->node, &file->footer->writer, &st, &sb);
    return facts_may_match(f, false, !has_nulls, usable ? &sb : NULL);
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

/* ---- Constants in a column's PLAIN form (Bloom filters) ----------------------------------------
 */

static void
key_le(dl_pq_plain_key *k, uint64_t v, size_t width) {
    uint8_t *b = k->buf[k->n];
    for (size_t i = 0; i < width; i++) {
        b[i] = (uint8_t)(v >> (8 * i));
    }
    k->bytes[k->n++] = dl_str_make((const char *)b, width);
}

/* c as an integer of the column's vector domain, when it is one. */
static bool
exact_int(const dl_pq_scalar *c, int64_t *out) {
    if (c->kind == DL_PQ_SCALAR_INT) {
        *out = c->i;
        return true;
    }
    if (c->kind == DL_PQ_SCALAR_DECIMAL && c->scale == 0 && c->d >= INT64_MIN &&
        c->d <= INT64_MAX) {
        *out = (int64_t)c->d;
        return true;
    }
    return false;
}

/* The INT32 bits an int column (with its conversion) stores for value v, when v is one. */
static bool
int32_key(const dl_pq_field *leaf, int64_t v, dl_pq_plain_key *k) {
    const dl_pq_logical_type *lt = &leaf->node->logical;
    bool is_unsigned = lt->kind == DL_PQ_LT_INTEGER && !lt->integer.is_signed;
    int64_t lo = INT32_MIN;
    int64_t hi = INT32_MAX;
    switch ((dl_pq_conv)leaf->conv) {
    case DL_PQ_CONV_I32_I8:
        lo = INT8_MIN;
        hi = INT8_MAX;
        break;
    case DL_PQ_CONV_I32_I16:
        lo = is_unsigned ? 0 : INT16_MIN;
        hi = is_unsigned ? UINT8_MAX : INT16_MAX;
        break;
    case DL_PQ_CONV_U16_I32:
        lo = 0;
        hi = UINT16_MAX;
        break;
    case DL_PQ_CONV_U32_I64:
        lo = 0;
        hi = UINT32_MAX;
        break;
    case DL_PQ_CONV_I32_MS_US:
        if (v % 1000 != 0) {
            return false;
        }
        v /= 1000;
        break;
    default:
        break;
    }
    if (v < lo || v > hi) {
        return false;
    }
    key_le(k, (uint64_t)(uint32_t)v, 4);
    return true;
}

static bool
float_key(const dl_pq_field *leaf, const dl_pq_scalar *c, dl_pq_plain_key *k) {
    double f = c->f;
    if (c->kind == DL_PQ_SCALAR_INT) {
        if (c->i < -(INT64_C(1) << 53) || c->i > (INT64_C(1) << 53)) {
            return false;
        }
        f = (double)c->i;
    } else if (c->kind != DL_PQ_SCALAR_DOUBLE || isnan(f)) {
        return false;
    }
    bool is_f32 = (dl_pq_conv)leaf->conv == DL_PQ_CONV_F32;
    if (is_f32 && (double)(float)f != f) {
        return false;
    }
    double both[2] = {f == 0.0 ? 0.0 : f, -0.0};
    for (size_t i = 0; i < (f == 0.0 ? 2u : 1u); i++) {
        uint64_t bits = 0;
        if (is_f32) {
            float g = (float)both[i];
            uint32_t b32 = 0;
            memcpy(&b32, &g, 4);
            bits = b32;
        } else {
            memcpy(&bits, &both[i], 8);
        }
        key_le(k, bits, is_f32 ? 4 : 8);
    }
    return true;
}

/* c as the unscaled value of a decimal of scale `scale`, when it is one exactly. */
static bool
decimal_at_scale(const dl_pq_scalar *c, int32_t scale, dl_i128 *out) {
    dl_i128 v = c->kind == DL_PQ_SCALAR_INT ? (dl_i128)c->i : c->d;
    int32_t from = c->kind == DL_PQ_SCALAR_INT ? 0 : c->scale;
    if (c->kind != DL_PQ_SCALAR_INT && c->kind != DL_PQ_SCALAR_DECIMAL) {
        return false;
    }
    if (from <= scale) {
        return scale_up(v, scale - from, out);
    }
    dl_i128 div = 1;
    if (!scale_up(div, from - scale, &div) || v % div != 0) {
        return false;
    }
    *out = v / div;
    return true;
}

static bool
decimal_key(const dl_pq_field *leaf, const dl_pq_scalar *c, dl_pq_plain_key *k) {
    dl_i128 v = 0;
    if (!decimal_at_scale(c, leaf->type->scale, &v)) {
        return false;
    }
    switch ((dl_pq_conv)leaf->conv) {
    case DL_PQ_CONV_I32_DEC:
        if (v < INT32_MIN || v > INT32_MAX) {
            return false;
        }
        key_le(k, (uint64_t)(uint32_t)(int32_t)v, 4);
        return true;
    case DL_PQ_CONV_I64_DEC:
        if (v < INT64_MIN || v > INT64_MAX) {
            return false;
        }
        key_le(k, (uint64_t)(int64_t)v, 8);
        return true;
    default: { /* FLBA_DEC: big-endian two's complement of type_length bytes */
        size_t len = (size_t)leaf->node->type_length;
        if (len == 0 || len > sizeof(k->buf[0])) {
            return false;
        }
        uint8_t *b = k->buf[k->n];
        dl_u128 u = (dl_u128)v;
        for (size_t i = 0; i < len; i++) {
            b[i] = (uint8_t)(u >> (8 * (len - 1 - i)));
        }
        dl_i128 back = 0;
        if (dl_pq_decimal_from_be(b, len, &back, NULL) != DL_OK || back != v) {
            return false; /* does not fit the width */
        }
        k->bytes[k->n++] = dl_str_make((const char *)b, len);
        return true;
    }
    }
}

bool
dl_pq_filter_plain_key(const dl_pq_field *leaf, const dl_pq_scalar *c, dl_pq_plain_key *out) {
    memset(out, 0, sizeof(*out));
    int64_t v = 0;
    switch ((dl_pq_conv)leaf->conv) {
    case DL_PQ_CONV_BA_STR:
    case DL_PQ_CONV_BA_BIN:
        if (c->kind != DL_PQ_SCALAR_BYTES) {
            return false;
        }
        out->bytes[out->n++] = c->s;
        return true;
    case DL_PQ_CONV_FLBA_BIN:
        if (c->kind != DL_PQ_SCALAR_BYTES || c->s.len != (size_t)leaf->node->type_length) {
            return false;
        }
        out->bytes[out->n++] = c->s;
        return true;
    case DL_PQ_CONV_I32:
    case DL_PQ_CONV_I32_I8:
    case DL_PQ_CONV_I32_I16:
    case DL_PQ_CONV_U16_I32:
    case DL_PQ_CONV_U32_I64:
    case DL_PQ_CONV_I32_MS_US:
        return exact_int(c, &v) && int32_key(leaf, v, out);
    case DL_PQ_CONV_I64:
    case DL_PQ_CONV_I64_MS_US:
        if (!exact_int(c, &v) ||
            ((dl_pq_conv)leaf->conv == DL_PQ_CONV_I64_MS_US && v % 1000 != 0)) {
            return false;
        }
        key_le(out, (uint64_t)((dl_pq_conv)leaf->conv == DL_PQ_CONV_I64 ? v : v / 1000), 8);
        return true;
    case DL_PQ_CONV_U64_DEC: {
        dl_i128 d = 0;
        if (!decimal_at_scale(c, 0, &d) || d < 0 || d > (dl_i128)UINT64_MAX) {
            return false;
        }
        key_le(out, (uint64_t)d, 8);
        return true;
    }
    case DL_PQ_CONV_F32:
    case DL_PQ_CONV_F64:
        return float_key(leaf, c, out);
    case DL_PQ_CONV_I32_DEC:
    case DL_PQ_CONV_I64_DEC:
    case DL_PQ_CONV_FLBA_DEC:
        return decimal_key(leaf, c, out);
    default: /* BOOLEAN, INT96, nanosecond timestamps, FLOAT16, UUID, BYTE_ARRAY decimals */
        return false;
    }
}
