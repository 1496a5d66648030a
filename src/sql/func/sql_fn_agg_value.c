/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Aggregates that keep one value: min, max, any_value, first/first_value, last/last_value,
 * max_by, min_by.
 *
 *   min, max             any orderable type (numbers, strings, binary, dates, timestamps,
 *                        booleans, arrays and structs of those), NULLs skipped
 *   first, last          the first / last row's value, NULL included unless the second
 *   any_value            argument (a constant boolean, ignoreNulls) is true
 *   max_by(x, o)         x of the row with the largest (smallest) o; rows where o is NULL are
 *   min_by(x, o)         skipped, x may be NULL
 *
 * State: one slot per kept value (two for max_by/min_by). Fixed-width values live in the slot
 * (integers widened to 64 bits, floats to double, decimals in 128 bits); strings, binary and
 * nested values live in a one-row vector the state owns (strings copied, so a group's minimum
 * does not pin the page it came from), released by destroy.
 *
 * "First" and "last" follow the order rows reach the state; across partial states combine
 * takes the destination's first and the source's last, as Spark's (nondeterministic) first/last.
 */
#include <math.h>
#include <string.h>

#include "sql/func/sql_fn_int.h"

typedef enum slot_status {
    SLOT_EMPTY = 0,
    SLOT_VALUE = 1,
    SLOT_NULL = 2,
} slot_status;

typedef struct slot {
    dl_i128 bits;      /* inline value */
    dl_vector *holder; /* out-of-line value, one row */
    uint8_t status;
} slot;

typedef struct mm_state {
    slot value;
    slot ord;
} mm_state;

_Static_assert(sizeof(mm_state) <= 64, "min/max states are 64 bytes in sql_functions.def");

typedef enum mm_op {
    MM_MIN,
    MM_MAX,
    MM_FIRST,
    MM_LAST,
    MM_MAX_BY,
    MM_MIN_BY,
} mm_op;

typedef struct mm_bind {
    mm_op op;
    bool ignore_nulls;
    const dl_type *vt; /* the kept value's type */
    const dl_type *ot; /* max_by/min_by: the ordering's type */
} mm_bind;

/* ---- slots ----------------------------------------------------------------------------------- */

static bool
is_inline(const dl_type *t) {
    switch (dl_vec_type_phys(t)) {
    case DL_VEC_PHYS_BIT:
    case DL_VEC_PHYS_I8:
    case DL_VEC_PHYS_I16:
    case DL_VEC_PHYS_I32:
    case DL_VEC_PHYS_I64:
    case DL_VEC_PHYS_F32:
    case DL_VEC_PHYS_F64:
    case DL_VEC_PHYS_I128:
        return true;
    default:
        return false;
    }
}

/* The canonical inline form of element idx of flat. */
static dl_i128
load_bits(const dl_type *t, const dl_vector *flat, int64_t idx) {
    double d;
    dl_i128 bits = 0;
    switch (dl_vec_type_phys(t)) {
    case DL_VEC_PHYS_BIT:
        return dl_vec_get_bool(flat, idx);
    case DL_VEC_PHYS_I8:
        return dl_sql_i8(((const int8_t *)flat->data)[idx]);
    case DL_VEC_PHYS_I16:
        return ((const int16_t *)flat->data)[idx];
    case DL_VEC_PHYS_I32:
        return ((const int32_t *)flat->data)[idx];
    case DL_VEC_PHYS_I64:
        return ((const int64_t *)flat->data)[idx];
    case DL_VEC_PHYS_F32:
        d = (double)((const float *)flat->data)[idx];
        memcpy(&bits, &d, sizeof(d));
        return bits;
    case DL_VEC_PHYS_F64:
        d = ((const double *)flat->data)[idx];
        memcpy(&bits, &d, sizeof(d));
        return bits;
    default:
        return ((const dl_i128 *)flat->data)[idx];
    }
}

static double
bits_double(dl_i128 bits) {
    double d;
    memcpy(&d, &bits, sizeof(d));
    return d;
}

static int
cmp_bits(const dl_type *t, dl_i128 a, dl_i128 b) {
    dl_vec_phys p = dl_vec_type_phys(t);
    if (p == DL_VEC_PHYS_F32 || p == DL_VEC_PHYS_F64) {
        double x = bits_double(a);
        double y = bits_double(b);
        if (x < y) {
            return -1;
        }
        if (x > y) {
            return 1;
        }
        return isnan(x) == isnan(y) ? 0 : isnan(x) ? 1 : -1;
    }
    return a < b ? -1 : a > b;
}

/* Order of the slot's value against element idx of flat: <0 when the slot is smaller. */
static int
slot_cmp(const dl_type *t, const slot *s, const dl_vector *flat, int64_t idx) {
    if (is_inline(t)) {
        return cmp_bits(t, s->bits, load_bits(t, flat, idx));
    }
    return dl_sql_value_cmp(t, s->holder, 0, flat, idx);
}

static dl_status
slot_set(const dl_sql_fn_call *call, const dl_type *t, slot *s, const dl_vector *flat, int64_t idx,
         dl_error *err) {
    s->status = SLOT_VALUE;
    if (is_inline(t)) {
        s->bits = load_bits(t, flat, idx);
        return DL_OK;
    }
    if (s->holder == NULL) {
        DL_TRY(dl_vec_new(call->env != NULL ? call->env->alloc : NULL, t, 1, &s->holder, err));
    } else {
        DL_TRY(dl_vec_reset(s->holder, err));
    }
    if (dl_vec_type_phys(t) == DL_VEC_PHYS_VIEW) {
        dl_str v = dl_vec_get_str(flat, idx);
        return dl_vec_append_str(s->holder, v.ptr, v.len, err);
    }
    return dl_sql_append_elem(s->holder, flat, idx, err);
}

static dl_status
slot_copy(const dl_sql_fn_call *call, const dl_type *t, slot *dst, const slot *src, dl_error *err) {
    if (src->status != SLOT_VALUE) {
        dst->status = src->status;
        return DL_OK;
    }
    if (is_inline(t)) {
        *dst = (slot){.bits = src->bits, .holder = dst->holder, .status = SLOT_VALUE};
        return DL_OK;
    }
    return slot_set(call, t, dst, src->holder, 0, err);
}

static dl_status
slot_emit(const dl_type *t, const slot *s, dl_vector *out, dl_error *err) {
    if (s->status != SLOT_VALUE) {
        return dl_vec_append_null(out, err);
    }
    if (!is_inline(t)) {
        return dl_sql_append_elem(out, s->holder, 0, err);
    }
    switch (dl_vec_type_phys(t)) {
    case DL_VEC_PHYS_BIT:
        return dl_vec_append_bool(out, s->bits != 0, err);
    case DL_VEC_PHYS_I8:
        return dl_vec_append_i8(out, (int8_t)s->bits, err);
    case DL_VEC_PHYS_I16:
        return dl_vec_append_i16(out, (int16_t)s->bits, err);
    case DL_VEC_PHYS_I32:
        return dl_vec_append_i32(out, (int32_t)s->bits, err);
    case DL_VEC_PHYS_I64:
        return dl_vec_append_i64(out, (int64_t)s->bits, err);
    case DL_VEC_PHYS_F32:
        return dl_vec_append_f32(out, (float)bits_double(s->bits), err);
    case DL_VEC_PHYS_F64:
        return dl_vec_append_f64(out, bits_double(s->bits), err);
    default:
        return dl_vec_append_i128(out, s->bits, err);
    }
}

/* ---- binding --------------------------------------------------------------------------------- */

dl_status
dl_sql_bind_minmax(dl_sql_fn_bind *b, dl_error *err) {
    static const char *const names[] = {"min",  "max",        "any_value", "first", "first_value",
                                        "last", "last_value", "max_by",    "min_by"};
    static const mm_op ops[] = {MM_MIN,  MM_MAX,  MM_FIRST,  MM_FIRST, MM_FIRST,
                                MM_LAST, MM_LAST, MM_MAX_BY, MM_MIN_BY};
    int k = dl_sql_name_index(b->name, names, (int)DL_ARRAY_LEN(names));
    mm_bind *bd = dl_sql_bind_alloc(b, sizeof(*bd), err);
    if (bd == NULL || k < 0) {
        return bd == NULL ? DL_ERR_NOMEM : dl_sql_bind_fail(b, err, "not a value aggregate");
    }
    bd->op = ops[k];
    bd->vt = b->arg_types[0];
    b->bind_data = bd;
    if (bd->op == MM_MAX_BY || bd->op == MM_MIN_BY) {
        bd->ot = b->arg_types[1];
        if (!dl_sql_type_orderable(bd->ot)) {
            return dl_sql_bind_arg_fail(b, 1, "of an orderable type", err);
        }
    } else if (b->n_args > 1) {
        const dl_sql_fn_const *c = &b->consts[1];
        DL_CHECK(c->is_const && !c->is_null && c->vec->type->id == DL_VEC_TYPE_BOOLEAN, err,
                 DL_ERR_SQL_BIND, "%s: argument 2 (ignoreNulls) must be a constant boolean",
                 b->name);
        const dl_vector *flat;
        int64_t idx = dl_vec_resolve(c->vec, 0, &flat);
        bd->ignore_nulls = dl_vec_get_bool(flat, idx);
    }
    if ((bd->op == MM_MIN || bd->op == MM_MAX) && !dl_sql_type_orderable(bd->vt)) {
        return dl_sql_bind_arg_fail(b, 0, "of an orderable type", err);
    }
    b->ret_type = bd->vt;
    return DL_OK;
}

void
dl_sql_agg_minmax_init(const dl_sql_fn_call *call, void *state) {
    DL_UNUSED(call);
    memset(state, 0, sizeof(mm_state));
}

void
dl_sql_agg_minmax_destroy(const dl_sql_fn_call *call, void *state) {
    DL_UNUSED(call);
    mm_state *s = state;
    dl_vec_unref(s->value.holder);
    dl_vec_unref(s->ord.holder);
    s->value.holder = NULL;
    s->ord.holder = NULL;
}

/* ---- update ---------------------------------------------------------------------------------- */

/* min/max of a flat, null-free int64 or double column into one state. */
static bool
minmax_fast(const mm_bind *bd, const dl_vector *v, int64_t count, slot *s) {
    if (v->layout != DL_VEC_FLAT || v->validity != NULL || count == 0) {
        return false;
    }
    bool is_max = bd->op == MM_MAX;
    if (v->type->id == DL_VEC_TYPE_LONG || v->type->id == DL_VEC_TYPE_INT) {
        int64_t best = v->type->id == DL_VEC_TYPE_LONG ? ((const int64_t *)v->data)[0]
                                                       : ((const int32_t *)v->data)[0];
        for (int64_t i = 1; i < count; i++) {
            int64_t x = v->type->id == DL_VEC_TYPE_LONG ? ((const int64_t *)v->data)[i]
                                                        : ((const int32_t *)v->data)[i];
            best = is_max ? (x > best ? x : best) : (x < best ? x : best);
        }
        if (s->status != SLOT_VALUE || (is_max ? best > s->bits : best < s->bits)) {
            s->bits = best;
            s->status = SLOT_VALUE;
        }
        return true;
    }
    return false;
}

static dl_status
update_row(const dl_sql_fn_call *call, const mm_bind *bd, const dl_vec_unified *u, int64_t i,
           mm_state *s, dl_error *err) {
    bool x_null = dl_sql_u_null(&u[0], i);
    switch (bd->op) {
    case MM_MIN:
    case MM_MAX: {
        if (x_null) {
            return DL_OK;
        }
        int c =
            s->value.status == SLOT_VALUE ? slot_cmp(bd->vt, &s->value, u[0].flat, u[0].sel[i]) : 0;
        bool better = s->value.status != SLOT_VALUE || (bd->op == MM_MIN ? c > 0 : c < 0);
        return better ? slot_set(call, bd->vt, &s->value, u[0].flat, u[0].sel[i], err) : DL_OK;
    }
    case MM_FIRST:
    case MM_LAST:
        if ((bd->op == MM_FIRST && s->value.status != SLOT_EMPTY) || (x_null && bd->ignore_nulls)) {
            return DL_OK;
        }
        if (x_null) {
            s->value.status = SLOT_NULL;
            return DL_OK;
        }
        return slot_set(call, bd->vt, &s->value, u[0].flat, u[0].sel[i], err);
    default: {
        if (dl_sql_u_null(&u[1], i)) {
            return DL_OK;
        }
        int c = s->ord.status == SLOT_VALUE ? slot_cmp(bd->ot, &s->ord, u[1].flat, u[1].sel[i]) : 0;
        bool better = s->ord.status != SLOT_VALUE || (bd->op == MM_MIN_BY ? c > 0 : c < 0);
        if (!better) {
            return DL_OK;
        }
        DL_TRY(slot_set(call, bd->ot, &s->ord, u[1].flat, u[1].sel[i], err));
        if (x_null) {
            s->value.status = SLOT_NULL;
            return DL_OK;
        }
        return slot_set(call, bd->vt, &s->value, u[0].flat, u[0].sel[i], err);
    }
    }
}

dl_status
dl_sql_agg_minmax_update(dl_sql_fn_call *call, dl_vector *const *args, int64_t count,
                         void *const *states, dl_error *err) {
    const mm_bind *bd = call->bind_data;
    bool single = count > 0;
    for (int64_t i = 1; i < count && single; i++) {
        single = states[i] == states[0];
    }
    if (single && (bd->op == MM_MIN || bd->op == MM_MAX) &&
        minmax_fast(bd, args[0], count, &((mm_state *)states[0])->value)) {
        return DL_OK;
    }
    dl_vec_unified u[2];
    int32_t n = bd->op == MM_MAX_BY || bd->op == MM_MIN_BY ? 2 : 1;
    dl_sql_unify_args(args, n, count, u);
    for (int64_t i = 0; i < count; i++) {
        DL_TRY(update_row(call, bd, u, i, states[i], err));
    }
    return DL_OK;
}

/* ---- combine, finalize ----------------------------------------------------------------------- */

dl_status
dl_sql_agg_minmax_combine(dl_sql_fn_call *call, const void *src, void *dst, dl_error *err) {
    const mm_bind *bd = call->bind_data;
    const mm_state *a = src;
    mm_state *b = dst;
    switch (bd->op) {
    case MM_FIRST:
        return b->value.status == SLOT_EMPTY ? slot_copy(call, bd->vt, &b->value, &a->value, err)
                                             : DL_OK;
    case MM_LAST:
        return a->value.status != SLOT_EMPTY ? slot_copy(call, bd->vt, &b->value, &a->value, err)
                                             : DL_OK;
    case MM_MIN:
    case MM_MAX: {
        if (a->value.status != SLOT_VALUE) {
            return DL_OK;
        }
        const dl_vector *holder = a->value.holder;
        int c = b->value.status != SLOT_VALUE ? 0
                : is_inline(bd->vt)           ? cmp_bits(bd->vt, b->value.bits, a->value.bits)
                                    : dl_sql_value_cmp(bd->vt, b->value.holder, 0, holder, 0);
        bool better = b->value.status != SLOT_VALUE || (bd->op == MM_MIN ? c > 0 : c < 0);
        return better ? slot_copy(call, bd->vt, &b->value, &a->value, err) : DL_OK;
    }
    default: {
        if (a->ord.status != SLOT_VALUE) {
            return DL_OK;
        }
        int c = b->ord.status != SLOT_VALUE ? 0
                : is_inline(bd->ot)         ? cmp_bits(bd->ot, b->ord.bits, a->ord.bits)
                                    : dl_sql_value_cmp(bd->ot, b->ord.holder, 0, a->ord.holder, 0);
        bool better = b->ord.status != SLOT_VALUE || (bd->op == MM_MIN_BY ? c > 0 : c < 0);
        if (!better) {
            return DL_OK;
        }
        DL_TRY(slot_copy(call, bd->ot, &b->ord, &a->ord, err));
        return slot_copy(call, bd->vt, &b->value, &a->value, err);
    }
    }
}

dl_status
dl_sql_agg_minmax_finalize(dl_sql_fn_call *call, void *const *states, int64_t count, dl_vector *out,
                           dl_error *err) {
    const mm_bind *bd = call->bind_data;
    for (int64_t i = 0; i < count; i++) {
        DL_TRY(slot_emit(bd->vt, &((const mm_state *)states[i])->value, out, err));
    }
    return DL_OK;
}
