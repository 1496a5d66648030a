/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for get_json_object (src/sql/func/sql_fn_json.c): JSON text from a table (a
 * Delta log's stats, a column of documents) and a path from SQL, both outside input.
 *
 * Input: the JSON text, a newline, the path (no newline: the whole input is the JSON and the
 * path is "$"). Properties, on any bytes:
 *   1. The kernel never crashes, reads out of bounds, leaks or triggers undefined behaviour,
 *      and returns one row, NULL or a string.
 *   2. With the path "$" over an object or an array, the result is JSON equal to the input
 *      (the value re-serialised compactly).
 * A violation aborts, so libFuzzer records the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "sql/func/sql_func.h"

#define FUZZ_ASSERT(cond)                                                                    \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            (void)fprintf(stderr, "fuzz_sql_json: property violated: %s (line %d)\n", #cond, \
                          __LINE__);                                                         \
            abort();                                                                         \
        }                                                                                    \
    } while (0)

/* libFuzzer's fixed entry point name. */
// NOLINTNEXTLINE(readability-identifier-naming)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static dl_vector *
string_col(const char *s, size_t len) {
    dl_vector *v = NULL;
    FUZZ_ASSERT(dl_vec_new(NULL, dl_vec_type_prim(DL_VEC_TYPE_STRING), 1, &v, NULL) == DL_OK);
    FUZZ_ASSERT(dl_vec_append_str(v, s, len, NULL) == DL_OK);
    return v;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    const char *nl = memchr(text, '\n', size);
    size_t json_len = nl != NULL ? (size_t)(nl - text) : size;
    const char *path = nl != NULL ? nl + 1 : "$";
    size_t path_len = nl != NULL ? size - json_len - 1 : 1;
    const dl_sql_fn_def *def = dl_sql_fn_lookup(DL_STR("get_json_object"));
    FUZZ_ASSERT(def != NULL && def->kind == DL_SQL_FN_SCALAR);
    dl_vector *args[2] = {string_col(text, json_len), string_col(path, path_len)};
    const dl_type *types[2] = {args[0]->type, args[1]->type};
    dl_sql_fn_const consts[2] = {{0}, {0}};
    const dl_type *casts[2] = {NULL, NULL};
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_sql_fn_env env = {.time_zone = "UTC"};
    dl_sql_fn_bind b = {.name = def->name,
                        .n_args = 2,
                        .arg_types = types,
                        .consts = consts,
                        .cast_to = casts,
                        .arena = &arena,
                        .env = &env};
    dl_error err;
    FUZZ_ASSERT(def->bind(&b, &err) == DL_OK);
    dl_sql_fn_call call = {.def = def,
                           .arg_types = types,
                           .n_args = 2,
                           .ret_type = b.ret_type,
                           .bind_data = b.bind_data,
                           .env = &env};
    dl_vector *out = NULL;
    FUZZ_ASSERT(dl_vec_new(NULL, b.ret_type, 1, &out, NULL) == DL_OK);
    FUZZ_ASSERT(def->scalar(&call, args, 1, out, &err) == DL_OK);
    FUZZ_ASSERT(out->length == 1);
    dl_json_doc in;
    dl_json_doc_init(&in, NULL);
    bool is_whole = path_len == 1 && path[0] == '$';
    if (is_whole && dl_json_doc_parse(&in, text, json_len, NULL) == DL_OK) {
        dl_json_type t = dl_json_val_type(dl_json_doc_root(&in));
        if (t == DL_JSON_OBJECT || t == DL_JSON_ARRAY) {
            FUZZ_ASSERT(!dl_vec_is_null(out, 0));
            dl_str got = dl_vec_get_str(out, 0);
            dl_json_doc doc;
            dl_json_doc_init(&doc, NULL);
            FUZZ_ASSERT(dl_json_doc_parse(&doc, got.ptr, got.len, NULL) == DL_OK);
            FUZZ_ASSERT(dl_json_val_equal(dl_json_doc_root(&doc), dl_json_doc_root(&in)));
            dl_json_doc_destroy(&doc);
        }
    }
    dl_json_doc_destroy(&in);
    if (def->free_state != NULL) {
        def->free_state(&call);
    }
    dl_vec_unref(out);
    dl_vec_unref(args[0]);
    dl_vec_unref(args[1]);
    dl_arena_destroy(&arena);
    return 0;
}
