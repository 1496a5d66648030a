/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers for the function library's unit tests: columns from text, results as text, and a
 * miniature binder/executor that looks a function up, binds it (constant arguments decoded,
 * requested casts applied), runs the kernel and returns the result vector.
 *
 * Everything a test builds lives in one context (tf_init / tf_destroy); result text is valid
 * until tf_destroy.
 */
#ifndef DL_TESTS_FN_TEST_UTIL_H
#define DL_TESTS_FN_TEST_UTIL_H

#include "base/arena.h"
#include "sql/func/sql_func.h"

typedef struct tf {
    dl_arena arena;
    dl_sql_fn_env env;
    dl_error err;
    dl_vector *owned[256];
    int n_owned;
} tf;

void tf_init(tf *t, bool ansi, const char *time_zone);
void tf_destroy(tf *t);

/* Spark type names: "int", "decimal(10,2)", "array<int>", "map<string,int>",
 * "struct<a:int,b:string>", "interval day to second". NULL when unknown. */
const dl_type *tf_type(tf *t, const char *name);

/* A FLAT column of type from texts (the literal "NULL" is a null row), built by casting
 * strings (legacy mode, session zone). Nested columns take their cast-from text only when
 * built with tf_nested. */
dl_vector *tf_col(tf *t, const char *type, int n, const char *const *texts);

/* The same column as a CONST of n rows (one text), or as a DICT over a reversed dictionary. */
dl_vector *tf_const(tf *t, const char *type, int n, const char *text);
dl_vector *tf_dict(tf *t, const char *type, int n, const char *const *texts);

/* Row as CAST(... AS STRING) writes it (legacy mode); "NULL" for a null row. */
const char *tf_text(tf *t, const dl_vector *v, int64_t row);

/* All rows joined with '|'. */
const char *tf_texts(tf *t, const dl_vector *v);

/* Binds and runs the scalar function name over args (count rows); the result in *out.
 * Returns the status of bind or run; the message is in t->err. */
dl_status tf_call(tf *t, const char *name, int n_args, dl_vector **args, int64_t count,
                  dl_vector **out);

/* tf_call, then the result as tf_texts, or "ERROR: <message>". */
const char *tf_eval(tf *t, const char *name, int n_args, dl_vector **args, int64_t count);

/* Runs aggregate name over args (count rows) in n_groups groups, group of row i given by
 * groups[i] (NULL = one group); partial states are built in two halves and combined, to test
 * combine. The result as tf_texts, or "ERROR: <message>". */
const char *tf_agg(tf *t, const char *name, int n_args, dl_vector **args, int64_t count,
                   const int *groups, int n_groups);

/* The bound result type of name over args, as Spark spells it, or "ERROR: <message>". */
const char *tf_ret_type(tf *t, const char *name, int n_args, dl_vector **args);

#endif /* DL_TESTS_FN_TEST_UTIL_H */
