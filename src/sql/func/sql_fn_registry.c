/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The function registry: sql_functions.def expanded into one constant table of
 * dl_sql_fn_def, searched by name (case-insensitive), plus the shared dispatch kernel and the
 * result types of the window-only functions whose kernels the executor owns.
 *
 * Lookup is a binary search over a sorted index built once (pthread_once) from the table; the
 * table itself stays in .def order so SHOW FUNCTIONS can list it as written.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sql/func/sql_fn_int.h"

#define DL_SQL_SCALAR_STATE(fname, lo, hi, flags, bind_fn, kernel_fn, free_fn) \
    {.name = (fname),                                                          \
     .kind = DL_SQL_FN_SCALAR,                                                 \
     .min_args = (lo),                                                         \
     .max_args = (hi),                                                         \
     .is_null_propagating = ((flags)&DL_SQL_FN_NULLPROP) != 0,                 \
     .is_volatile = ((flags)&DL_SQL_FN_VOLATILE) != 0,                         \
     .is_divisor_first = ((flags)&DL_SQL_FN_DIVISOR_FIRST) != 0,               \
     .is_try = ((flags)&DL_SQL_FN_TRY) != 0,                                   \
     .bind = (bind_fn),                                                        \
     .scalar = (kernel_fn),                                                    \
     .free_state = (free_fn)},
#define DL_SQL_SCALAR(fname, lo, hi, flags, bind_fn, kernel_fn) \
    DL_SQL_SCALAR_STATE(fname, lo, hi, flags, bind_fn, kernel_fn, NULL)
#define DL_SQL_AGG(fname, lo, hi, bind_fn, size, prefix) \
    {.name = (fname),                                    \
     .kind = DL_SQL_FN_AGGREGATE,                        \
     .min_args = (lo),                                   \
     .max_args = (hi),                                   \
     .bind = (bind_fn),                                  \
     .state_size = (size),                               \
     .init = prefix##_init,                              \
     .update = prefix##_update,                          \
     .combine = prefix##_combine,                        \
     .finalize = prefix##_finalize},
#define DL_SQL_AGG_OWNING(fname, lo, hi, bind_fn, size, prefix) \
    {.name = (fname),                                           \
     .kind = DL_SQL_FN_AGGREGATE,                               \
     .min_args = (lo),                                          \
     .max_args = (hi),                                          \
     .bind = (bind_fn),                                         \
     .state_size = (size),                                      \
     .init = prefix##_init,                                     \
     .update = prefix##_update,                                 \
     .combine = prefix##_combine,                               \
     .finalize = prefix##_finalize,                             \
     .destroy = prefix##_destroy},
#define DL_SQL_WINDOW(fname, lo, hi, bind_fn) \
    {.name = (fname),                         \
     .kind = DL_SQL_FN_WINDOW,                \
     .min_args = (lo),                        \
     .max_args = (hi),                        \
     .bind = (bind_fn)},

static const dl_sql_fn_def fn_table[] = {
#include "sql/func/sql_functions.def"
};

#undef DL_SQL_SCALAR
#undef DL_SQL_SCALAR_STATE
#undef DL_SQL_AGG
#undef DL_SQL_AGG_OWNING
#undef DL_SQL_WINDOW

#define N_FUNCTIONS DL_ARRAY_LEN(fn_table)

/* Indices into fn_table, sorted by name. */
static uint16_t sorted[N_FUNCTIONS];
static pthread_once_t sorted_once = PTHREAD_ONCE_INIT;

_Static_assert(N_FUNCTIONS < UINT16_MAX, "the index holds 16-bit positions");

static int
compare_defs(const void *a, const void *b) {
    return strcmp(fn_table[*(const uint16_t *)a].name, fn_table[*(const uint16_t *)b].name);
}

static void
build_index(void) {
    for (size_t i = 0; i < N_FUNCTIONS; i++) {
        sorted[i] = (uint16_t)i;
    }
    qsort(sorted, N_FUNCTIONS, sizeof(uint16_t), compare_defs);
}

/* Compares a lower-case table name with a name of any case: <0, 0, >0 as strcmp would if
 * the name were lower case. */
static int
compare_name(const char *table_name, dl_str name) {
    size_t i = 0;
    for (; i < name.len && table_name[i] != '\0'; i++) {
        int c = (unsigned char)name.ptr[i];
        if (c >= 'A' && c <= 'Z') {
            c += 'a' - 'A';
        }
        int t = (unsigned char)table_name[i];
        if (t != c) {
            return t - c;
        }
    }
    if (i == name.len) {
        return table_name[i] == '\0' ? 0 : 1;
    }
    return -1;
}

const dl_sql_fn_def *
dl_sql_fn_lookup(dl_str name) {
    (void)pthread_once(&sorted_once, build_index);
    size_t lo = 0;
    size_t hi = N_FUNCTIONS;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const dl_sql_fn_def *def = &fn_table[sorted[mid]];
        int c = compare_name(def->name, name);
        if (c == 0) {
            return def;
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return NULL;
}

void
dl_sql_fn_foreach(void (*visit)(void *ctx, const dl_sql_fn_def *def), void *ctx) {
    for (size_t i = 0; i < N_FUNCTIONS; i++) {
        visit(ctx, &fn_table[i]);
    }
}

/* The kernel of every function whose bind stores its typed kernel first in the bind data.
 * Constant arguments give a constant result computed once (none of these is volatile). */
dl_status
dl_sql_fn_dispatch(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                   dl_error *err) {
    dl_sql_scalar_fn fn = *(const dl_sql_scalar_fn *)call->bind_data;
    bool done;
    DL_TRY(dl_sql_fold_const(fn, call, args, count, out, &done, err));
    if (done) {
        return DL_OK;
    }
    return fn(call, args, count, out, err);
}

/* Window-only functions: the executor computes them; this gives their result types. */
dl_status
dl_sql_bind_window(dl_sql_fn_bind *b, dl_error *err) {
    static const char *const ints[] = {"row_number", "rank", "dense_rank", "ntile"};
    static const char *const doubles[] = {"percent_rank", "cume_dist"};
    if (dl_sql_name_index(b->name, ints, (int)DL_ARRAY_LEN(ints)) >= 0) {
        if (b->n_args == 1) {
            DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_INT), "an integer", err));
        }
        b->ret_type = dl_sql_t(DL_VEC_TYPE_INT);
        return DL_OK;
    }
    if (dl_sql_name_index(b->name, doubles, (int)DL_ARRAY_LEN(doubles)) >= 0) {
        b->ret_type = dl_sql_t(DL_VEC_TYPE_DOUBLE);
        return DL_OK;
    }
    /* lag, lead, nth_value: the value's type; the offset is an int; lag/lead's default is
     * cast to the value's type. */
    if (b->n_args >= 2) {
        DL_TRY(dl_sql_bind_expect(b, 1, dl_sql_t(DL_VEC_TYPE_INT), "an integer offset", err));
    }
    if (b->n_args >= 3 && strcasecmp(b->name, "nth_value") != 0) {
        const dl_type *common = NULL;
        DL_TRY(dl_sql_type_common(b->arg_types[0], b->arg_types[2], b->arena, &common, err));
        if (common == NULL) {
            return dl_sql_bind_arg_fail(b, 2, "of the value's type", err);
        }
        dl_sql_bind_cast(b, 0, common);
        dl_sql_bind_cast(b, 2, common);
    }
    b->ret_type = dl_sql_bind_arg(b, 0);
    return DL_OK;
}
