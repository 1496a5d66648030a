/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Other scalar functions: nvl2, raise_error, assert_true, uuid, monotonically_increasing_id,
 * typeof, version, current_user
 * (user, session_user), current_database, current_catalog.
 *
 *   nvl2(a, b, c)          b when a is not NULL, else c (at the common type of b and c)
 *   raise_error(msg)       fails the statement with "[USER_RAISED_EXCEPTION] msg" for any row
 *                          it is evaluated on; its type is void
 *   assert_true(c [, msg]) NULL when c is true, else fails ("'c' is not true!" or msg)
 *   uuid()                 a random version 4 UUID per row (a generator per call instance)
 *   monotonically_increasing_id()
 *                          a BIGINT unique in the statement per row and increasing within a
 *                          batch (each batch takes the next range from one counter; Spark puts
 *                          the partition in the upper bits, the values are not consecutive
 *                          there either)
 *   typeof(x)              Spark's name of x's type ("int", "decimal(10,2)", "array<string>")
 *   version()              "<deltalite version> deltalite" (Spark prints its version and git
 *                          revision)
 *   current_user()         $USER, or "deltalite"
 *   current_database()     "default" and current_catalog() "spark_catalog": the binder knows
 *                          the session's schema and should answer current_database itself
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sql/func/sql_fn_int.h"

#ifndef DL_VERSION_STRING
#    define DL_VERSION_STRING "0"
#endif

/* ---- nvl2 ------------------------------------------------------------------------------------ */

dl_status
dl_sql_bind_nvl2(dl_sql_fn_bind *b, dl_error *err) {
    const dl_type *t;
    DL_TRY(dl_sql_type_common_ex(b->arg_types[1], b->arg_types[2], DL_SQL_COERCE_WIDER,
                                 b->env != NULL && b->env->ansi, b->arena, &t, err));
    if (t == NULL) {
        return dl_sql_bind_fail(b, err, "arguments 2 and 3 have no common type");
    }
    dl_sql_bind_cast(b, 1, t);
    dl_sql_bind_cast(b, 2, t);
    b->ret_type = t;
    return DL_OK;
}

dl_status
dl_sql_fn_nvl2(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
               dl_error *err) {
    DL_UNUSED(call);
    for (int64_t i = 0; i < count; i++) {
        const dl_vector *src = dl_vec_is_null(args[0], i) ? args[2] : args[1];
        uint32_t row = (uint32_t)i;
        DL_TRY(dl_vec_copy_sel(out, src, &row, 1, err));
    }
    return DL_OK;
}

/* ---- raise_error, assert_true ---------------------------------------------------------------- */

dl_status
dl_sql_bind_raise_error(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_STRING), "a message string", err));
    b->ret_type = dl_sql_t(DL_VEC_TYPE_NULL);
    return DL_OK;
}

dl_status
dl_sql_fn_raise_error(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                      dl_error *err) {
    DL_UNUSED(call);
    if (count > 0) {
        dl_str msg = dl_vec_is_null(args[0], 0) ? DL_STR("null") : DL_STR("");
        if (!dl_vec_is_null(args[0], 0)) {
            const dl_vector *flat;
            int64_t idx = dl_vec_resolve(args[0], 0, &flat);
            msg = dl_vec_get_str(flat, idx);
        }
        return dl_sql_fail_run(err, NULL, "[USER_RAISED_EXCEPTION] %.*s", DL_STR_FMT(msg));
    }
    DL_UNUSED(out);
    return DL_OK;
}

dl_status
dl_sql_bind_assert_true(dl_sql_fn_bind *b, dl_error *err) {
    DL_TRY(dl_sql_bind_expect(b, 0, dl_sql_t(DL_VEC_TYPE_BOOLEAN), "a boolean", err));
    if (b->n_args > 1) {
        DL_TRY(dl_sql_bind_expect(b, 1, dl_sql_t(DL_VEC_TYPE_STRING), "a message string", err));
    }
    b->ret_type = dl_sql_t(DL_VEC_TYPE_NULL);
    return DL_OK;
}

dl_status
dl_sql_fn_assert_true(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                      dl_error *err) {
    for (int64_t i = 0; i < count; i++) {
        const dl_vector *flat;
        int64_t idx = dl_vec_resolve(args[0], i, &flat);
        if (!dl_vec_is_null(args[0], i) && dl_vec_get_bool(flat, idx)) {
            DL_TRY(dl_vec_append_null(out, err));
            continue;
        }
        if (call->n_args > 1 && !dl_vec_is_null(args[1], i)) {
            const dl_vector *mflat;
            int64_t midx = dl_vec_resolve(args[1], i, &mflat);
            dl_str msg = dl_vec_get_str(mflat, midx);
            return dl_sql_fail_run(err, NULL, "[USER_RAISED_EXCEPTION] %.*s", DL_STR_FMT(msg));
        }
        return dl_sql_fail_run(err, NULL, "[USER_RAISED_EXCEPTION] the assertion is not true");
    }
    return DL_OK;
}

/* ---- monotonically_increasing_id ------------------------------------------------------------ */

typedef struct row_id_bind {
    _Atomic(int64_t) next; /* the first id of the next batch, shared by the threads */
} row_id_bind;

dl_status
dl_sql_bind_row_id(dl_sql_fn_bind *b, dl_error *err) {
    row_id_bind *bd = dl_arena_alloc(b->arena, sizeof(*bd));
    DL_CHECK(bd != NULL, err, DL_ERR_NOMEM, "monotonically_increasing_id: out of memory");
    atomic_init(&bd->next, 0);
    b->bind_data = bd;
    b->ret_type = dl_sql_t(DL_VEC_TYPE_LONG);
    return DL_OK;
}

dl_status
dl_sql_fn_row_id(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                 dl_error *err) {
    DL_UNUSED(args);
    DL_UNUSED(err);
    row_id_bind *bd = call->bind_data;
    int64_t first = atomic_fetch_add(&bd->next, count);
    int64_t *v = out->data;
    for (int64_t i = 0; i < count; i++) {
        v[i] = first + i;
    }
    dl_vec_set_length(out, count);
    return DL_OK;
}

/* ---- uuid ------------------------------------------------------------------------------------ */

typedef struct uuid_state {
    uint64_t s;
} uuid_state;

static _Atomic(uint64_t) uuid_instances;

static uint64_t
uuid_next(uuid_state *st) {
    st->s ^= st->s >> 12;
    st->s ^= st->s << 25;
    st->s ^= st->s >> 27;
    return st->s * 0x2545F4914F6CDD1DULL;
}

dl_status
dl_sql_bind_uuid(dl_sql_fn_bind *b, dl_error *err) {
    DL_UNUSED(err);
    b->ret_type = dl_sql_t(DL_VEC_TYPE_STRING);
    return DL_OK;
}

dl_status
dl_sql_fn_uuid(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
               dl_error *err) {
    DL_UNUSED(args);
    uuid_state *st = call->state;
    if (st == NULL) {
        st = dl_mem_alloc(call->env != NULL ? call->env->alloc : NULL, sizeof(*st));
        DL_CHECK(st != NULL, err, DL_ERR_NOMEM, "uuid: out of memory");
        struct timespec ts;
        (void)clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
                        dl_hash_u64(atomic_fetch_add(&uuid_instances, 1) + 0x1234567);
        st->s = dl_hash_u64(seed) | 1;
        call->state = st;
    }
    static const char hex[] = "0123456789abcdef";
    for (int64_t i = 0; i < count; i++) {
        uint8_t b[16];
        uint64_t hi = uuid_next(st);
        uint64_t lo = uuid_next(st);
        for (int k = 0; k < 8; k++) {
            b[k] = (uint8_t)(hi >> (8 * k));
            b[8 + k] = (uint8_t)(lo >> (8 * k));
        }
        b[6] = (uint8_t)((b[6] & 0x0F) | 0x40);
        b[8] = (uint8_t)((b[8] & 0x3F) | 0x80);
        char text[36];
        int n = 0;
        for (int k = 0; k < 16; k++) {
            if (k == 4 || k == 6 || k == 8 || k == 10) {
                text[n++] = '-';
            }
            text[n++] = hex[b[k] >> 4];
            text[n++] = hex[b[k] & 15];
        }
        DL_TRY(dl_vec_append_str(out, text, 36, err));
    }
    return DL_OK;
}

void
dl_sql_free_uuid(dl_sql_fn_call *call) {
    dl_mem_free(call->env != NULL ? call->env->alloc : NULL, call->state, sizeof(uuid_state));
    call->state = NULL;
}

/* ---- typeof, version and friends ------------------------------------------------------------- */

dl_status
dl_sql_bind_typeof(dl_sql_fn_bind *b, dl_error *err) {
    char name[512];
    (void)dl_sql_type_name(b->arg_types[0], name, sizeof(name));
    b->bind_data = dl_arena_strndup(b->arena, name, strlen(name));
    DL_CHECK(b->bind_data != NULL, err, DL_ERR_NOMEM, "typeof: out of memory");
    b->ret_type = dl_sql_t(DL_VEC_TYPE_STRING);
    return DL_OK;
}

static dl_status
append_const_text(const char *text, int64_t count, dl_vector *out, dl_error *err) {
    DL_TRY(dl_vec_append_str(out, text, strlen(text), err));
    if (count != 1) {
        dl_vec_make_const(out, count);
    }
    return DL_OK;
}

dl_status
dl_sql_fn_typeof(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                 dl_error *err) {
    DL_UNUSED(args);
    return append_const_text(call->bind_data, count, out, err);
}

dl_status
dl_sql_bind_version(dl_sql_fn_bind *b, dl_error *err) {
    DL_UNUSED(err);
    b->ret_type = dl_sql_t(DL_VEC_TYPE_STRING);
    return DL_OK;
}

dl_status
dl_sql_fn_version(dl_sql_fn_call *call, dl_vector *const *args, int64_t count, dl_vector *out,
                  dl_error *err) {
    DL_UNUSED(args);
    const char *name = call->def->name;
    if (strcmp(name, "version") == 0) {
        return append_const_text(DL_VERSION_STRING " deltalite", count, out, err);
    }
    if (strcmp(name, "current_database") == 0) {
        return append_const_text("default", count, out, err);
    }
    if (strcmp(name, "current_catalog") == 0) {
        return append_const_text("spark_catalog", count, out, err);
    }
    const char *user = getenv("USER");
    return append_const_text(user != NULL && user[0] != '\0' ? user : "deltalite", count, out, err);
}
