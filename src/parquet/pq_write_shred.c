/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shredding (Dremel; parquet-format README "Nested Encoding"): rows of a top-level vector
 * become, for one leaf column, a sequence of (repetition level, definition level) entries and
 * the leaf values of the entries whose definition level is the maximum.
 *
 * The walk follows the leaf's steps (pq_write_schema.c). At each step the vector's validity
 * says whether the value is present; a null at an OPTIONAL step writes one entry at that step's
 * definition level - 1 and stops; a null at a REQUIRED step is the caller's error (CONSTRAINT).
 * A list writes one entry per element, the first at the repetition level it was reached with,
 * the others at the list's own level; an empty list writes one entry at the list's definition
 * level. Struct and list children are FLAT vectors, so below the top only element indices move;
 * the top-level vector may have any layout and is resolved row by row.
 *
 * Leaves directly below the root (one step) take a fast path: no recursion, contiguous values
 * passed through without a copy when the vector is FLAT, without nulls and unselected.
 */
#include <string.h>

#include "parquet/pq_write_int.h"

typedef struct shred {
    dl_pq_wcol *col;
    dl_pq_wleaf *leaf;
    const dl_vector *flat; /* the FLAT vector holding the leaf values */
    int64_t row;           /* the physical row being shredded, for messages */
    int64_t n_nulls;       /* entries without a value */
} shred;

static inline dl_status
push_u16(dl_buf *buf, uint16_t v, dl_error *err) {
    if (DL_UNLIKELY(buf->len + 2 > buf->cap)) {
        DL_TRY(dl_buf_reserve(buf, 2 + buf->cap / 2, err));
    }
    memcpy(buf->data + buf->len, &v, 2);
    buf->len += 2;
    return DL_OK;
}

static inline dl_status
emit(shred *s, uint16_t def, uint16_t rep, dl_error *err) {
    dl_pq_wleaf *leaf = s->leaf;
    if (leaf->max_def > 0) {
        DL_TRY(push_u16(&leaf->defs, def, err));
    }
    if (leaf->max_rep > 0) {
        DL_TRY(push_u16(&leaf->reps, rep, err));
    }
    leaf->page_levels++;
    if (def < leaf->max_def) {
        s->n_nulls++;
    }
    return DL_OK;
}

static dl_status
not_nullable(const shred *s, const dl_pq_wstep *step, dl_error *err) {
    DL_FAIL(err, DL_ERR_CONSTRAINT,
            "Parquet writer: column '%s', row %lld: '%s' is null but is declared without nulls",
            s->leaf->path, (long long)s->row, step->name);
}

static dl_status
null_at(shred *s, size_t i, uint16_t rep, dl_error *err) {
    const dl_pq_wstep *step = &s->leaf->steps[i];
    if (!step->is_nullable) {
        return not_nullable(s, step, err);
    }
    return emit(s, (uint16_t)(step->def - 1), rep, err);
}

static dl_status present(shred *s, size_t i, const dl_vector *v, int64_t e, uint16_t rep,
                         dl_error *err);

static dl_status
visit(shred *s, size_t i, const dl_vector *v, int64_t e, uint16_t rep, dl_error *err) {
    if (v->validity != NULL && !dl_vec_bit_get(v->validity, e)) {
        return null_at(s, i, rep, err);
    }
    return present(s, i, v, e, rep, err);
}

/* A present ARRAY or MAP: one entry per element, or one for an empty list. */
static dl_status
present_list(shred *s, size_t i, const dl_vector *v, int64_t e, uint16_t rep, dl_error *err) {
    const dl_pq_wstep *step = &s->leaf->steps[i];
    int64_t start = 0;
    int64_t end = 0;
    dl_vec_list_bounds(v, e, &start, &end);
    if (start == end) {
        return emit(s, step->def, rep, err);
    }
    const dl_vector *child = v->children[0];
    for (int64_t j = start; j < end; j++) {
        DL_TRY(visit(s, i + 1, child, j, j == start ? rep : step->rep, err));
    }
    return DL_OK;
}

static dl_status
present(shred *s, size_t i, const dl_vector *v, int64_t e, uint16_t rep, dl_error *err) {
    const dl_pq_wstep *step = &s->leaf->steps[i];
    if (step->kind == DL_PQ_STEP_STRUCT) {
        return visit(s, i + 1, v->children[step->child], e, rep, err);
    }
    if (step->kind == DL_PQ_STEP_LIST) {
        return present_list(s, i, v, e, rep, err);
    }
    if (s->leaf->conv == DL_PQ_WCONV_NONE) {
        return null_at(s, i, rep, err);
    }
    DL_ASSERT(s->flat == NULL || s->flat == v);
    s->flat = v;
    DL_TRY(emit(s, step->def, rep, err));
    uint32_t idx = (uint32_t)e;
    return dl_buf_append(&s->col->idx, &idx, sizeof(idx), err);
}

/* ---- Values ------------------------------------------------------------------------------ */

/* Element k of a slice: idx[k], or base + k. */
static inline int64_t
elem(const uint32_t *idx, int64_t base, size_t k) {
    return idx != NULL ? (int64_t)idx[k] : base + (int64_t)k;
}

static dl_status
decimal_too_wide(const dl_pq_wleaf *leaf, dl_error *err) {
    DL_FAIL(err, DL_ERR_INVALID_ARG,
            "Parquet writer: column '%s': a value does not fit decimal(%d,%d)", leaf->path,
            (int)leaf->type->precision, (int)leaf->type->scale);
}

/* Writes the decimals at elements idx (or base + k) as INT32, INT64 or big-endian bytes. */
static dl_status
convert_decimal(dl_pq_wcol *col, dl_pq_wleaf *leaf, const dl_i128 *src, const uint32_t *idx,
                int64_t base, size_t n, const void **out_vals, const dl_i128 **out_dec,
                dl_error *err) {
    size_t w = leaf->width;
    dl_buf_reset(&col->conv);
    dl_buf_reset(&col->dec);
    uint8_t *p = dl_buf_extend(&col->conv, n * w, err);
    dl_i128 *d = (dl_i128 *)(void *)dl_buf_extend(&col->dec, n * sizeof(dl_i128), err);
    if ((p == NULL || d == NULL) && n > 0) {
        return DL_ERR_NOMEM;
    }
    dl_i128 lim = leaf->dec_limit;
    for (size_t k = 0; k < n; k++) {
        dl_i128 v = src[elem(idx, base, k)];
        if (v >= lim || v <= -lim) {
            return decimal_too_wide(leaf, err);
        }
        d[k] = v;
        if (leaf->conv == DL_PQ_WCONV_DEC32) {
            int32_t x = (int32_t)v;
            memcpy(p + k * 4, &x, 4);
        } else if (leaf->conv == DL_PQ_WCONV_DEC64) {
            int64_t x = (int64_t)v;
            memcpy(p + k * 8, &x, 8);
        } else {
            dl_u128 u = (dl_u128)v;
            for (size_t b = w; b > 0; b--) {
                p[k * w + b - 1] = (uint8_t)u;
                u >>= 8;
            }
        }
    }
    *out_vals = p;
    *out_dec = leaf->conv == DL_PQ_WCONV_DECFLBA ? d : NULL;
    return DL_OK;
}

/* Widens int8/int16 elements to int32. */
static dl_status
gather_widen(dl_pq_wcol *col, const dl_vector *flat, size_t in_width, const uint32_t *idx,
             int64_t base, size_t n, const void **out, dl_error *err) {
    int32_t *o = (int32_t *)(void *)dl_buf_extend(&col->conv, n * sizeof(int32_t), err);
    if (o == NULL) {
        return DL_ERR_NOMEM;
    }
    const int8_t *i8 = (const int8_t *)flat->data;
    const int16_t *i16 = (const int16_t *)flat->data;
    for (size_t k = 0; k < n; k++) {
        o[k] = in_width == 1 ? i8[elem(idx, base, k)] : i16[elem(idx, base, k)];
    }
    *out = o;
    return DL_OK;
}

/* Copies 4- or 8-byte elements; contiguous ones are passed through without a copy. */
static dl_status
gather_fixed(dl_pq_wcol *col, const dl_vector *flat, size_t width, const uint32_t *idx,
             int64_t base, size_t n, const void **out, dl_error *err) {
    const uint8_t *data = (const uint8_t *)flat->data;
    if (idx == NULL) {
        *out = data + (size_t)base * width;
        return DL_OK;
    }
    uint8_t *o = dl_buf_extend(&col->conv, n * width, err);
    if (o == NULL) {
        return DL_ERR_NOMEM;
    }
    if (width == 4) {
        const uint32_t *in = (const uint32_t *)(const void *)data;
        uint32_t *o4 = (uint32_t *)(void *)o;
        for (size_t k = 0; k < n; k++) {
            o4[k] = in[idx[k]];
        }
    } else {
        const uint64_t *in = (const uint64_t *)(const void *)data;
        uint64_t *o8 = (uint64_t *)(void *)o;
        for (size_t k = 0; k < n; k++) {
            o8[k] = in[idx[k]];
        }
    }
    *out = o;
    return DL_OK;
}

static dl_status
gather_views(dl_pq_wcol *col, const dl_vector *flat, const uint32_t *idx, int64_t base, size_t n,
             const void **out, dl_error *err) {
    dl_str *o = (dl_str *)(void *)dl_buf_extend(&col->conv, n * sizeof(dl_str), err);
    if (o == NULL && n > 0) {
        return DL_ERR_NOMEM;
    }
    const dl_vec_view *views = (const dl_vec_view *)flat->data;
    for (size_t k = 0; k < n; k++) {
        o[k] = dl_vec_view_str(flat, &views[elem(idx, base, k)]);
    }
    *out = o;
    return DL_OK;
}

static dl_status
gather_bools(dl_pq_wcol *col, const dl_vector *flat, const uint32_t *idx, int64_t base, size_t n,
             const void **out, dl_error *err) {
    uint8_t *o = dl_buf_extend(&col->conv, n, err);
    if (o == NULL && n > 0) {
        return DL_ERR_NOMEM;
    }
    const uint8_t *bits = (const uint8_t *)flat->data;
    for (size_t k = 0; k < n; k++) {
        o[k] = (uint8_t)dl_vec_bit_get(bits, elem(idx, base, k));
    }
    *out = o;
    return DL_OK;
}

/* Converts the values at elements idx[0, n) (or base .. base + n) of flat and puts them in the
 * leaf's page. */
static dl_status
put_values(dl_pq_wcol *col, dl_pq_wleaf *leaf, const dl_vector *flat, const uint32_t *idx,
           int64_t base, size_t n, dl_error *err) {
    if (n == 0 || flat == NULL) {
        return DL_OK;
    }
    const void *vals = NULL;
    const dl_i128 *dec = NULL;
    dl_buf_reset(&col->conv);
    switch (leaf->conv) {
    case DL_PQ_WCONV_BOOL:
        DL_TRY(gather_bools(col, flat, idx, base, n, &vals, err));
        break;
    case DL_PQ_WCONV_I8:
    case DL_PQ_WCONV_I16:
        DL_TRY(gather_widen(col, flat, leaf->conv == DL_PQ_WCONV_I8 ? 1 : 2, idx, base, n, &vals,
                            err));
        break;
    case DL_PQ_WCONV_I32:
    case DL_PQ_WCONV_F32:
        DL_TRY(gather_fixed(col, flat, 4, idx, base, n, &vals, err));
        break;
    case DL_PQ_WCONV_I64:
    case DL_PQ_WCONV_F64:
        DL_TRY(gather_fixed(col, flat, 8, idx, base, n, &vals, err));
        break;
    case DL_PQ_WCONV_DEC32:
    case DL_PQ_WCONV_DEC64:
    case DL_PQ_WCONV_DECFLBA:
        DL_TRY(convert_decimal(col, leaf, (const dl_i128 *)flat->data, idx, base, n, &vals, &dec,
                               err));
        break;
    case DL_PQ_WCONV_VIEW:
        DL_TRY(gather_views(col, flat, idx, base, n, &vals, err));
        break;
    default:
        return DL_OK;
    }
    return dl_pq_wleaf_put(col, leaf, vals, dec, n, err);
}

/* ---- Leaves directly below the root ------------------------------------------------------- */

static dl_status
shred_flat(dl_pq_wcol *col, dl_pq_wleaf *leaf, const dl_vector *vec, const uint32_t *rows,
           int64_t start, int64_t n, dl_error *err) {
    const dl_pq_wstep *step = &leaf->steps[0];
    const dl_vector *flat = vec->layout == DL_VEC_DICT ? vec->dict : vec;
    const uint8_t *row_valid = vec->layout == DL_VEC_CONST ? NULL : vec->validity;
    const uint8_t *elem_valid = vec->layout == DL_VEC_FLAT ? NULL : flat->validity;
    bool is_void = leaf->conv == DL_PQ_WCONV_NONE;
    leaf->page_rows += n;
    leaf->page_levels += n;
    if (row_valid == NULL && elem_valid == NULL && !is_void && vec->layout == DL_VEC_FLAT &&
        rows == NULL) {
        /* Every row present, values contiguous. */
        if (leaf->max_def > 0) {
            uint16_t *d = (uint16_t *)(void *)dl_buf_extend(&leaf->defs, (size_t)n * 2, err);
            if (d == NULL) {
                return DL_ERR_NOMEM;
            }
            for (int64_t k = 0; k < n; k++) {
                d[k] = 1;
            }
        }
        return put_values(col, leaf, flat, NULL, start, (size_t)n, err);
    }
    dl_buf_reset(&col->idx);
    uint32_t *idx = (uint32_t *)(void *)dl_buf_extend(&col->idx, (size_t)n * 4, err);
    uint16_t *d = NULL;
    if (leaf->max_def > 0) {
        d = (uint16_t *)(void *)dl_buf_extend(&leaf->defs, (size_t)n * 2, err);
    }
    if (idx == NULL || (leaf->max_def > 0 && d == NULL)) {
        return DL_ERR_NOMEM;
    }
    const uint32_t *dict_idx = vec->layout == DL_VEC_DICT ? (const uint32_t *)vec->data : NULL;
    bool is_const = vec->layout == DL_VEC_CONST;
    bool is_const_null = is_const && vec->validity != NULL && !dl_vec_bit_get(vec->validity, 0);
    size_t n_vals = 0;
    for (int64_t k = 0; k < n; k++) {
        int64_t row = rows != NULL ? (int64_t)rows[k] : start + k;
        int64_t e = is_const ? 0 : dict_idx != NULL ? (int64_t)dict_idx[row] : row;
        bool is_null = is_void || is_const_null ||
                       (row_valid != NULL && !dl_vec_bit_get(row_valid, row)) ||
                       (elem_valid != NULL && !dl_vec_bit_get(elem_valid, e));
        if (is_null) {
            if (!step->is_nullable) {
                shred s = {.col = col, .leaf = leaf, .row = row};
                return not_nullable(&s, step, err);
            }
            if (d != NULL) {
                d[k] = 0;
            }
            continue;
        }
        if (d != NULL) {
            d[k] = 1;
        }
        idx[n_vals++] = (uint32_t)e;
    }
    leaf->page_stats.null_count += n - (int64_t)n_vals;
    return put_values(col, leaf, flat, idx, 0, n_vals, err);
}

dl_status
dl_pq_shred(dl_pq_wcol *col, dl_pq_wleaf *leaf, const dl_vector *vec, const uint32_t *rows,
            int64_t start, int64_t n, dl_error *err) {
    if (leaf->n_steps == 1) {
        return shred_flat(col, leaf, vec, rows, start, n, err);
    }
    shred s = {.col = col, .leaf = leaf};
    dl_buf_reset(&col->idx);
    for (int64_t k = 0; k < n; k++) {
        int64_t row = rows != NULL ? (int64_t)rows[k] : start + k;
        s.row = row;
        if (dl_vec_is_null(vec, row)) {
            DL_TRY(null_at(&s, 0, 0, err));
            continue;
        }
        const dl_vector *flat = NULL;
        int64_t e = dl_vec_resolve(vec, row, &flat);
        DL_TRY(present(&s, 0, flat, e, 0, err));
    }
    leaf->page_rows += n;
    leaf->page_stats.null_count += s.n_nulls;
    size_t n_vals = col->idx.len / sizeof(uint32_t);
    if (n_vals == 0) {
        return DL_OK;
    }
    /* put_values reuses col->conv; the indices stay in col->idx. */
    return put_values(col, leaf, s.flat, (const uint32_t *)(void *)col->idx.data, 0, n_vals, err);
}
