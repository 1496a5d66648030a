/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for to_number / try_to_number (src/sql/func/sql_fn_tonumber.c): the number
 * format and the text are both user input.
 *
 * Input: the format, a newline, the text (no newline: the whole input is the format and the
 * text is "1"). Properties, on any bytes:
 *   1. Binding and running never crash, read out of bounds, leak or trigger undefined
 *      behaviour; a format either binds for both functions, to the same DECIMAL(p, s), or is
 *      refused by both.
 *   2. to_number succeeds exactly when try_to_number gives a value, and then both give the
 *      same value, with at most p digits.
 * A violation aborts, so libFuzzer records the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/func/sql_func.h"

#define FUZZ_ASSERT(cond)                                                                      \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            (void)fprintf(stderr, "fuzz_sql_number: property violated: %s (line %d)\n", #cond, \
                          __LINE__);                                                           \
            abort();                                                                           \
        }                                                                                      \
    } while (0)

/* libFuzzer's fixed entry point name. */
// NOLINTNEXTLINE(readability-identifier-naming)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static dl_vector *
string_const(const char *s, size_t len) {
    dl_vector *v = NULL;
    FUZZ_ASSERT(dl_vec_new(NULL, dl_vec_type_prim(DL_VEC_TYPE_STRING), 1, &v, NULL) == DL_OK);
    FUZZ_ASSERT(dl_vec_append_str(v, s, len, NULL) == DL_OK);
    return v;
}

typedef struct run {
    dl_status bind_status;
    dl_status run_status;
    const dl_type *type;
    bool is_null;
    dl_i128 value;
} run;

/* Binds name(text, format) with a constant format and runs it over one row. */
static run
run_fn(const char *name, dl_vector *const *args, dl_arena *arena) {
    run r = {0};
    const dl_sql_fn_def *def = dl_sql_fn_lookup(dl_str_from_cstr(name));
    FUZZ_ASSERT(def != NULL && def->kind == DL_SQL_FN_SCALAR);
    const dl_type *types[2] = {args[0]->type, args[1]->type};
    dl_sql_fn_const consts[2] = {{0}, {.is_const = true, .vec = args[1]}};
    const dl_type *casts[2] = {NULL, NULL};
    dl_sql_fn_env env = {.ansi = true, .time_zone = "UTC"};
    dl_sql_fn_bind b = {.name = def->name,
                        .n_args = 2,
                        .arg_types = types,
                        .consts = consts,
                        .cast_to = casts,
                        .arena = arena,
                        .env = &env};
    dl_error err;
    r.bind_status = def->bind(&b, &err);
    if (r.bind_status != DL_OK) {
        return r;
    }
    r.type = b.ret_type;
    FUZZ_ASSERT(r.type != NULL && r.type->id == DL_VEC_TYPE_DECIMAL);
    dl_sql_fn_call call = {.def = def,
                           .arg_types = types,
                           .n_args = 2,
                           .ret_type = b.ret_type,
                           .bind_data = b.bind_data,
                           .env = &env};
    dl_vector *out = NULL;
    FUZZ_ASSERT(dl_vec_new(NULL, b.ret_type, 1, &out, NULL) == DL_OK);
    r.run_status = def->scalar(&call, args, 1, out, &err);
    if (r.run_status == DL_OK) {
        FUZZ_ASSERT(out->length == 1);
        r.is_null = dl_vec_is_null(out, 0);
        r.value = ((const dl_i128 *)out->data)[0];
    }
    dl_vec_unref(out);
    return r;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    const char *nl = memchr(text, '\n', size);
    size_t fmt_len = nl != NULL ? (size_t)(nl - text) : size;
    const char *input = nl != NULL ? nl + 1 : "1";
    size_t input_len = nl != NULL ? size - fmt_len - 1 : 1;
    dl_vector *args[2] = {string_const(input, input_len), string_const(text, fmt_len)};
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    run strict = run_fn("to_number", args, &arena);
    run lenient = run_fn("try_to_number", args, &arena);
    FUZZ_ASSERT((strict.bind_status == DL_OK) == (lenient.bind_status == DL_OK));
    if (strict.bind_status == DL_OK) {
        FUZZ_ASSERT(dl_vec_type_equal(strict.type, lenient.type));
        FUZZ_ASSERT(lenient.run_status == DL_OK);
        FUZZ_ASSERT((strict.run_status == DL_OK) == !lenient.is_null);
        if (strict.run_status == DL_OK) {
            FUZZ_ASSERT(!strict.is_null && strict.value == lenient.value);
            dl_i128 limit = 1;
            for (int i = 0; i < strict.type->precision; i++) {
                limit *= 10;
            }
            FUZZ_ASSERT(strict.value < limit && strict.value > -limit);
        }
    }
    dl_arena_destroy(&arena);
    dl_vec_unref(args[0]);
    dl_vec_unref(args[1]);
    return 0;
}
