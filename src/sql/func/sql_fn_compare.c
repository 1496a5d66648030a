/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Comparisons: = == <> != < <= > >= <=> equal_null, not, isnull, isnotnull, greatest, least,
 * and the generic order and hash of values of any type that aggregates and nested functions
 * share (dl_sql_value_cmp, dl_sql_value_hash).
 *
 * Coercion: both sides are cast to their common type for comparisons
 * (dl_sql_type_common_ex with DL_SQL_COERCE_COMPARE: a string meets a number or a date as that
 * type in legacy mode, as bigint/double/the type in ANSI mode; decimals of different scales
 * meet at the wider decimal). Types with no common type, and maps, cannot be compared.
 *
 * Order (Spark's): numbers by value with NaN equal to itself and above every other double, and
 * -0.0 equal to 0.0; strings and binary byte-wise; false < true; arrays and structs element by
 * element, a NULL element before any value, a shorter array first.
 *
 * Kernels: one per storage class, eight rows per output byte, with the predicate selected once
 * per batch.
 */
#include <math.h>
#include <string.h>

#include "sql/func/sql_fn_int.h"

typedef enum cmp_op {
    CMP_EQ,
    CMP_NE,
    CMP_LT,
    CMP_LE,
    CMP_GT,
    CMP_GE,
    CMP_NSEQ,
} cmp_op;

typedef struct cmp_bind {
    dl_sql_scalar_fn fn;
    cmp_op op;
    const dl_type *type; /* of both sides after coercion */
} cmp_bind;

/* ---- order of values ------------------------------------------------------------------------- */

static int
cmp_double(double a, double b) {
    if (a < b) {
        return -1;
    }
    if (a > b) {
        return 1;
    }
    if (a == b) {
        return 0;
    }
    bool na = isnan(a);
    bool nb = isnan(b);
    return na == nb ? 0 : na ? 1 : -1;
}

#define CMP3(a, b) ((a) < (b) ? -1 : (a) > (b) ? 1 : 0)

static bool
elem_null(const dl_vector *v, int64_t i) {
    return v->validity != NULL && !dl_vec_bit_get(v->validity, i);
}

/* Nulls first, then values. */
static int
cmp_with_nulls(const dl_type *t, const dl_vector *a, int64_t ia, const dl_vector *b, int64_t ib) {
    bool na = elem_null(a, ia);
    bool nb = elem_null(b, ib);
    if (na || nb) {
        return na == nb ? 0 : na ? -1 : 1;
    }
    return dl_sql_value_cmp(t, a, ia, b, ib);
}

static int
cmp_lists(const dl_type *t, const dl_vector *a, int64_t ia, const dl_vector *b, int64_t ib) {
    int64_t sa;
    int64_t ea;
    int64_t sb;
    int64_t eb;
    dl_vec_list_bounds(a, ia, &sa, &ea);
    dl_vec_list_bounds(b, ib, &sb, &eb);
    const dl_type *et = t->element;
    for (int64_t k = 0; sa + k < ea && sb + k < eb; k++) {
        int c = cmp_with_nulls(et, a->children[0], sa + k, b->children[0], sb + k);
        if (c != 0) {
            return c;
        }
    }
    return CMP3(ea - sa, eb - sb);
}

int
dl_sql_value_cmp(const dl_type *t, const dl_vector *a, int64_t ia, const dl_vector *b, int64_t ib) {
    switch (t->id) {
    case DL_VEC_TYPE_BOOLEAN:
        return CMP3((int)dl_vec_get_bool(a, ia), (int)dl_vec_get_bool(b, ib));
    case DL_VEC_TYPE_BYTE:
        return CMP3(dl_sql_i8(((const int8_t *)a->data)[ia]),
                    dl_sql_i8(((const int8_t *)b->data)[ib]));
    case DL_VEC_TYPE_SHORT:
        return CMP3(((const int16_t *)a->data)[ia], ((const int16_t *)b->data)[ib]);
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_DATE:
    case DL_VEC_TYPE_INTERVAL_YM:
        return CMP3(((const int32_t *)a->data)[ia], ((const int32_t *)b->data)[ib]);
    case DL_VEC_TYPE_LONG:
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
    case DL_VEC_TYPE_INTERVAL_DT:
        return CMP3(((const int64_t *)a->data)[ia], ((const int64_t *)b->data)[ib]);
    case DL_VEC_TYPE_FLOAT:
        return cmp_double((double)((const float *)a->data)[ia],
                          (double)((const float *)b->data)[ib]);
    case DL_VEC_TYPE_DOUBLE:
        return cmp_double(((const double *)a->data)[ia], ((const double *)b->data)[ib]);
    case DL_VEC_TYPE_DECIMAL:
        return CMP3(((const dl_i128 *)a->data)[ia], ((const dl_i128 *)b->data)[ib]);
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY: {
        int c = dl_vec_view_compare(a, (const dl_vec_view *)a->data + ia, b,
                                    (const dl_vec_view *)b->data + ib);
        return CMP3(c, 0);
    }
    case DL_VEC_TYPE_STRUCT:
        for (int32_t f = 0; f < t->n_fields; f++) {
            int c = cmp_with_nulls(t->fields[f].type, a->children[f], ia, b->children[f], ib);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    case DL_VEC_TYPE_ARRAY:
    case DL_VEC_TYPE_MAP:
        return cmp_lists(t, a, ia, b, ib);
    default:
        return 0;
    }
}

bool
dl_sql_type_orderable(const dl_type *t) {
    switch (t->id) {
    case DL_VEC_TYPE_MAP:
        return false;
    case DL_VEC_TYPE_ARRAY:
        return dl_sql_type_orderable(t->element);
    case DL_VEC_TYPE_STRUCT:
        for (int32_t f = 0; f < t->n_fields; f++) {
            if (!dl_sql_type_orderable(t->fields[f].type)) {
                return false;
            }
        }
        return true;
    default:
        return true;
    }
}

static uint64_t
hash_double(double d) {
    if (d == 0) {
        d = 0; /* -0.0 hashes as 0.0 */
    }
    if (isnan(d)) {
        return 0x7ff8000000000000ull;
    }
    uint64_t bits;
    memcpy(&bits, &d, sizeof(bits));
    return dl_hash_u64(bits);
}

static uint64_t
hash_children(const dl_type *t, const dl_vector *v, int64_t start, int64_t end, uint64_t h) {
    for (int64_t k = start; k < end; k++) {
        uint64_t e = elem_null(v->children[0], k)
                         ? 0x9e3779b97f4a7c15ull
                         : dl_sql_value_hash(t->element, v->children[0], k);
        h = dl_hash_u64(h ^ e) + (uint64_t)k;
    }
    return h;
}

uint64_t
dl_sql_value_hash(const dl_type *t, const dl_vector *v, int64_t i) {
    switch (dl_vec_type_phys(t)) {
    case DL_VEC_PHYS_BIT:
        return dl_hash_u64(dl_vec_get_bool(v, i) ? 1 : 2);
    case DL_VEC_PHYS_I8:
        return dl_hash_u64((uint64_t)dl_sql_i8(((const int8_t *)v->data)[i]));
    case DL_VEC_PHYS_I16:
        return dl_hash_u64((uint64_t)((const int16_t *)v->data)[i]);
    case DL_VEC_PHYS_I32:
        return dl_hash_u64((uint64_t)((const int32_t *)v->data)[i]);
    case DL_VEC_PHYS_I64:
        return dl_hash_u64((uint64_t)((const int64_t *)v->data)[i]);
    case DL_VEC_PHYS_F32:
        return hash_double((double)((const float *)v->data)[i]);
    case DL_VEC_PHYS_F64:
        return hash_double(((const double *)v->data)[i]);
    case DL_VEC_PHYS_I128: {
        dl_i128 x = ((const dl_i128 *)v->data)[i];
        return dl_hash_u64((uint64_t)x ^ dl_hash_u64((uint64_t)((dl_u128)x >> 64)));
    }
    case DL_VEC_PHYS_VIEW: {
        dl_str s = dl_vec_get_str(v, i);
        return dl_hash_bytes(s.ptr, s.len, 0);
    }
    case DL_VEC_PHYS_STRUCT: {
        uint64_t h = 0x51ed270b27c4a3d5ull;
        for (int32_t f = 0; f < t->n_fields; f++) {
            uint64_t e = elem_null(v->children[f], i)
                             ? 0x9e3779b97f4a7c15ull
                             : dl_sql_value_hash(t->fields[f].type, v->children[f], i);
            h = dl_hash_u64(h ^ e);
        }
        return h;
    }
    case DL_VEC_PHYS_LIST: {
        int64_t s;
        int64_t e;
        dl_vec_list_bounds(v, i, &s, &e);
        return hash_children(t, v, s, e, 0x2545f4914f6cdd1dull);
    }
    default:
        return 0;
    }
}

/* ---- comparison kernels ---------------------------------------------------------------------- */

typedef struct cmp_frame {
    dl_vec_unified u[2];
    const cmp_bind *bd;
    dl_vector *out;
} cmp_frame;

static dl_status
cmp_begin(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out, cmp_frame *f,
          dl_error *err) {
    f->bd = call->bind_data;
    f->out = out;
    dl_sql_unify_args(args, 2, count, f->u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    if (f->bd->op != CMP_NSEQ) {
        DL_TRY(dl_sql_out_nulls(out, 0, f->u, 2, count, err));
    }
    return DL_OK;
}

/* <=>: rows with a NULL are true when both are NULL, else false; never NULL. */
static void
cmp_null_safe_fixup(const cmp_frame *f, int64_t count) {
    if (f->u[0].validity == NULL && f->u[1].validity == NULL) {
        return;
    }
    for (int64_t i = 0; i < count; i++) {
        bool na = dl_sql_u_null(&f->u[0], i);
        bool nb = dl_sql_u_null(&f->u[1], i);
        if (na || nb) {
            dl_vec_bit_put(f->out->data, i, na && nb);
        }
    }
}

static bool
cmp_test(cmp_op op, int c) {
    switch (op) {
    case CMP_EQ:
    case CMP_NSEQ:
        return c == 0;
    case CMP_NE:
        return c != 0;
    case CMP_LT:
        return c < 0;
    case CMP_LE:
        return c <= 0;
    case CMP_GT:
        return c > 0;
    default:
        return c >= 0;
    }
}

/* Eight rows per byte of the result bitmap; PRED uses x, y and row r. */
#define CMP_LOOP(count, bits, PRED)                        \
    for (int64_t base_ = 0; base_ < (count); base_ += 8) { \
        unsigned byte_ = 0;                                \
        int64_t end_ = DL_MIN(base_ + 8, (count));         \
        for (int64_t r = base_; r < end_; r++) {           \
            byte_ |= (unsigned)(PRED) << (r - base_);      \
        }                                                  \
        (bits)[base_ / 8] = (uint8_t)byte_;                \
    }

#define CMP_KERNEL(name, T, C3)                                                        \
    static dl_status name(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, \
                          dl_vector *out, dl_error *err) {                             \
        cmp_frame f;                                                                   \
        DL_TRY(cmp_begin(call, args, count, out, &f, err));                            \
        const T *x = f.u[0].data;                                                      \
        const T *y = f.u[1].data;                                                      \
        const uint32_t *sx = f.u[0].sel;                                               \
        const uint32_t *sy = f.u[1].sel;                                               \
        uint8_t *bits = out->data;                                                     \
        switch (f.bd->op) {                                                            \
        case CMP_EQ:                                                                   \
        case CMP_NSEQ:                                                                 \
            CMP_LOOP(count, bits, C3(x[sx[r]], y[sy[r]]) == 0);                        \
            break;                                                                     \
        case CMP_NE:                                                                   \
            CMP_LOOP(count, bits, C3(x[sx[r]], y[sy[r]]) != 0);                        \
            break;                                                                     \
        case CMP_LT:                                                                   \
            CMP_LOOP(count, bits, C3(x[sx[r]], y[sy[r]]) < 0);                         \
            break;                                                                     \
        case CMP_LE:                                                                   \
            CMP_LOOP(count, bits, C3(x[sx[r]], y[sy[r]]) <= 0);                        \
            break;                                                                     \
        case CMP_GT:                                                                   \
            CMP_LOOP(count, bits, C3(x[sx[r]], y[sy[r]]) > 0);                         \
            break;                                                                     \
        default:                                                                       \
            CMP_LOOP(count, bits, C3(x[sx[r]], y[sy[r]]) >= 0);                        \
            break;                                                                     \
        }                                                                              \
        if (f.bd->op == CMP_NSEQ) {                                                    \
            cmp_null_safe_fixup(&f, count);                                            \
        }                                                                              \
        dl_vec_set_length(out, count);                                                 \
        return DL_OK;                                                                  \
    }

#define INT_C3(a, b) CMP3(a, b)
#define F32_C3(a, b) cmp_double((double)(a), (double)(b))
#define F64_C3(a, b) cmp_double((a), (b))

CMP_KERNEL(k_cmp_i8, int8_t, INT_C3)
CMP_KERNEL(k_cmp_i16, int16_t, INT_C3)
CMP_KERNEL(k_cmp_i32, int32_t, INT_C3)
CMP_KERNEL(k_cmp_i64, int64_t, INT_C3)
CMP_KERNEL(k_cmp_f32, float, F32_C3)
CMP_KERNEL(k_cmp_f64, double, F64_C3)
CMP_KERNEL(k_cmp_i128, dl_i128, INT_C3)

/* Strings and binary: equality settles on length and prefix; order compares bytes. */
static dl_status
k_cmp_view(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
           dl_error *err) {
    cmp_frame f;
    DL_TRY(cmp_begin(call, args, count, out, &f, err));
    const dl_vec_view *x = f.u[0].data;
    const dl_vec_view *y = f.u[1].data;
    const uint32_t *sx = f.u[0].sel;
    const uint32_t *sy = f.u[1].sel;
    const dl_vector *fa = f.u[0].flat;
    const dl_vector *fb = f.u[1].flat;
    uint8_t *bits = out->data;
    cmp_op op = f.bd->op;
    if (op == CMP_EQ || op == CMP_NSEQ || op == CMP_NE) {
        bool want = op != CMP_NE;
        CMP_LOOP(count, bits, dl_vec_view_equal(fa, &x[sx[r]], fb, &y[sy[r]]) == want);
    } else {
        CMP_LOOP(count, bits, cmp_test(op, dl_vec_view_compare(fa, &x[sx[r]], fb, &y[sy[r]])));
    }
    if (op == CMP_NSEQ) {
        cmp_null_safe_fixup(&f, count);
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

/* Booleans, nested values: the generic order, row by row. */
static dl_status
k_cmp_generic(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
              dl_error *err) {
    cmp_frame f;
    DL_TRY(cmp_begin(call, args, count, out, &f, err));
    const dl_type *t = f.bd->type;
    uint8_t *bits = out->data;
    CMP_LOOP(count, bits,
             !dl_sql_u_null(&f.u[0], r) && !dl_sql_u_null(&f.u[1], r) &&
                 cmp_test(f.bd->op, dl_sql_value_cmp(t, f.u[0].flat, f.u[0].sel[r], f.u[1].flat,
                                                     f.u[1].sel[r])));
    if (f.bd->op == CMP_NSEQ) {
        cmp_null_safe_fixup(&f, count);
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

static dl_sql_scalar_fn
cmp_kernel(const dl_type *t) {
    switch (dl_vec_type_phys(t)) {
    case DL_VEC_PHYS_I8:
        return k_cmp_i8;
    case DL_VEC_PHYS_I16:
        return k_cmp_i16;
    case DL_VEC_PHYS_I32:
        return k_cmp_i32;
    case DL_VEC_PHYS_I64:
        return k_cmp_i64;
    case DL_VEC_PHYS_F32:
        return k_cmp_f32;
    case DL_VEC_PHYS_F64:
        return k_cmp_f64;
    case DL_VEC_PHYS_I128:
        return k_cmp_i128;
    case DL_VEC_PHYS_VIEW:
        return k_cmp_view;
    default:
        return k_cmp_generic;
    }
}

dl_status
dl_sql_bind_compare(dl_sql_fn_bind *b, dl_error *err) {
    static const char *const names[] = {"=",  "==", "<>", "!=",  "<",
                                        "<=", ">",  ">=", "<=>", "equal_null"};
    static const cmp_op ops[] = {CMP_EQ, CMP_EQ, CMP_NE, CMP_NE,   CMP_LT,
                                 CMP_LE, CMP_GT, CMP_GE, CMP_NSEQ, CMP_NSEQ};
    int k = dl_sql_name_index(b->name, names, (int)DL_ARRAY_LEN(names));
    cmp_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL || k < 0) {
        return bd == NULL ? DL_ERR_NOMEM : dl_sql_bind_fail(b, err, "not a comparison");
    }
    bd->op = ops[k];
    b->bind_data = bd;
    const dl_type *t;
    bool ansi = b->env != NULL && b->env->ansi;
    DL_TRY(dl_sql_type_common_ex(b->arg_types[0], b->arg_types[1], DL_SQL_COERCE_COMPARE, ansi,
                                 b->arena, &t, err));
    char an[96];
    char cn[96];
    if (t == NULL || !dl_sql_type_orderable(t)) {
        return dl_sql_bind_fail(b, err, "cannot compare %s with %s",
                                dl_sql_type_name(b->arg_types[0], an, sizeof(an)),
                                dl_sql_type_name(b->arg_types[1], cn, sizeof(cn)));
    }
    if (t->id == DL_VEC_TYPE_NULL) {
        t = dl_sql_t(DL_VEC_TYPE_BOOLEAN);
    }
    dl_sql_bind_cast(b, 0, t);
    dl_sql_bind_cast(b, 1, t);
    bd->type = t;
    bd->fn = cmp_kernel(t);
    b->ret_type = dl_sql_t(DL_VEC_TYPE_BOOLEAN);
    return DL_OK;
}

/* ---- not, isnull, isnotnull ------------------------------------------------------------------ */

dl_status
dl_sql_bind_not(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_BOOLEAN), "a boolean", err));
    b->ret_type = dl_sql_t(DL_VEC_TYPE_BOOLEAN);
    return DL_OK;
}

dl_status
dl_sql_fn_not(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
              dl_error *err) {
    DL_UNUSED(call);
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    DL_TRY(dl_sql_out_nulls(out, 0, &u, 1, count, err));
    const uint8_t *x = u.data;
    uint8_t *bits = out->data;
    CMP_LOOP(count, bits, !dl_vec_bit_get(x, u.sel[r]));
    dl_vec_set_length(out, count);
    return DL_OK;
}

dl_status
dl_sql_bind_isnull(dl_sql_fn_bind *b, dl_error *err) {
    DL_UNUSED(err);
    b->ret_type = dl_sql_t(DL_VEC_TYPE_BOOLEAN);
    return DL_OK;
}

dl_status
dl_sql_fn_isnull(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                 dl_error *err) {
    bool want_null = strcmp(call->def->name, "isnull") == 0;
    dl_vec_unified u;
    dl_vec_unify(args[0], count, &u);
    DL_TRY(dl_sql_out_reserve(out, count, err));
    uint8_t *bits = out->data;
    CMP_LOOP(count, bits, dl_sql_u_null(&u, r) == want_null);
    dl_vec_set_length(out, count);
    return DL_OK;
}

/* ---- greatest, least ------------------------------------------------------------------------- */

dl_status
dl_sql_bind_greatest(dl_sql_fn_bind *b, dl_error *err) {
    DL_CHECK(b->n_args >= 2, err, DL_ERR_SQL_BIND, "%s: needs at least two arguments", b->name);
    const dl_type *t = b->arg_types[0];
    bool ansi = b->env != NULL && b->env->ansi;
    for (int32_t i = 1; i < b->n_args && t != NULL; i++) {
        DL_TRY(dl_sql_type_common_ex(t, b->arg_types[i], DL_SQL_COERCE_WIDER, ansi, b->arena, &t,
                                     err));
    }
    if (t == NULL || !dl_sql_type_orderable(t)) {
        return dl_sql_bind_fail(b, err, "the arguments have no common orderable type");
    }
    for (int32_t i = 0; i < b->n_args; i++) {
        dl_sql_bind_cast(b, i, t);
    }
    b->ret_type = t;
    return DL_OK;
}

dl_status
dl_sql_fn_greatest(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                   dl_error *err) {
    bool is_least = strcmp(call->def->name, "least") == 0;
    int32_t n = call->n_args;
    dl_vec_unified *u =
        dl_mem_alloc_array(call->env != NULL ? call->env->alloc : NULL, (size_t)n, sizeof(*u));
    DL_CHECK(u != NULL, err, DL_ERR_NOMEM, "%s: out of memory", call->def->name);
    dl_sql_unify_args(args, n, count, u);
    dl_status s = DL_OK;
    for (int64_t i = 0; i < count && s == DL_OK; i++) {
        int32_t best = -1;
        for (int32_t k = 0; k < n; k++) {
            if (dl_sql_u_null(&u[k], i)) {
                continue;
            }
            if (best < 0) {
                best = k;
                continue;
            }
            int c = dl_sql_value_cmp(call->ret_type, u[k].flat, u[k].sel[i], u[best].flat,
                                     u[best].sel[i]);
            if (is_least ? c < 0 : c > 0) {
                best = k;
            }
        }
        s = best < 0 ? dl_vec_append_null(out, err)
                     : dl_sql_append_elem(out, u[best].flat, u[best].sel[i], err);
    }
    dl_mem_free(call->env != NULL ? call->env->alloc : NULL, u, (size_t)n * sizeof(*u));
    return s;
}
