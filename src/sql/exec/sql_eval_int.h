/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The expression evaluator's private structures (sql_eval.c, sql_eval_logic.c).
 *
 * A dl_sql_eval mirrors its bound expression as a tree of nodes, each with its runtime state:
 * the function call record and kernel state, scratch selections, and the last result vector
 * (reused for the next batch when nobody else holds it).
 *
 * Evaluation works on an input view: a batch and a list of its physical rows. The top level
 * sees the batch's live rows; CASE, COALESCE, AND and OR evaluate their later arguments only on
 * the rows that still need them (a sub-view), so `CASE WHEN b <> 0 THEN a / b END` never
 * divides by zero and raise_error() fires only on the rows that reach it. A result vector has
 * one row per row of the view it was evaluated on.
 */
#ifndef DL_SQL_SQL_EVAL_INT_H
#define DL_SQL_SQL_EVAL_INT_H

#include "sql/exec/sql_exec_int.h"

/* The most WHEN branches of a CASE / arguments of a COALESCE (the binder refuses more). */
#define DL_SQL_MAX_BRANCHES 512

typedef struct dl_sql_enode dl_sql_enode;

struct dl_sql_enode {
    const dl_sql_bexpr *expr;
    dl_sql_enode **kids;
    int32_t n_kids;
    dl_sql_fn_call call;          /* CALL and IN_LIST ("=") */
    const dl_type **arg_types;    /* call.arg_types storage */
    dl_vector **argv;             /* scratch: evaluated arguments */
    uint32_t *scratch[5];         /* DL_BATCH_CAPACITY entries each, allocated on first use; 4 is
                                   * dl_sql_enode_call's (IN lists call "=" while holding 0 and 1) */
    dl_vector *cache;             /* the last result (one reference) */
    struct dl_sql_agg_ht *in_set; /* IN with many constants: the set, built on first use */
    bool in_set_has_null;         /* ... and whether the list holds a NULL */
};

struct dl_sql_eval {
    dl_sql_exec_ctx *exec;
    dl_arena arena; /* nodes and scratch */
    dl_sql_enode *root;
    uint32_t *top_sel; /* dl_sql_eval_select's result, DL_BATCH_CAPACITY entries */
};

/* The rows an expression is evaluated on: physical rows rows[0..count) of batch (rows NULL:
 * 0..count-1). batch may be NULL for constant expressions. */
typedef struct dl_sql_einput {
    const dl_batch *batch;
    const uint32_t *rows;
    int64_t count;
} dl_sql_einput;

/* Evaluates node over in: *out a new reference to a vector of in->count rows. */
DL_NODISCARD dl_status dl_sql_enode_run(dl_sql_eval *ev, dl_sql_enode *node,
                                        const dl_sql_einput *in, dl_vector **out, dl_error *err);

/* Writes to out_k the indexes k (into in's rows, increasing) where the BOOLEAN node is TRUE. */
DL_NODISCARD dl_status dl_sql_enode_select(dl_sql_eval *ev, dl_sql_enode *node,
                                           const dl_sql_einput *in, uint32_t *out_k, int64_t *out_n,
                                           dl_error *err);

/* Scratch selection i (0..3; 4 is dl_sql_enode_call's) of node, DL_BATCH_CAPACITY entries; NULL
 * when out of memory. */
uint32_t *dl_sql_enode_scratch(dl_sql_eval *ev, dl_sql_enode *node, int i);

/* The sub-view of in made of its rows K[0..n): phys receives the physical rows. */
void dl_sql_einput_sub(const dl_sql_einput *in, const uint32_t *k, int64_t n, uint32_t *phys,
                       dl_sql_einput *out);

/* A fresh FLAT vector of type with room for count rows, reusing node's cached result when
 * nobody else references it. New reference (node keeps one too). */
DL_NODISCARD dl_status dl_sql_enode_out(dl_sql_eval *ev, dl_sql_enode *node, const dl_type *type,
                                        int64_t count, dl_vector **out, dl_error *err);

/* Runs node's function (node->call) on argv[0..n) of count rows into *out, doing NULL
 * propagation for is_null_propagating functions (the kernel then sees only rows where every
 * argument is non-NULL). */
DL_NODISCARD dl_status dl_sql_enode_call(dl_sql_eval *ev, dl_sql_enode *node, dl_vector **argv,
                                         int32_t n, int64_t count, dl_vector **out, dl_error *err);

/* Logic and conditionals (sql_eval_logic.c). */
DL_NODISCARD dl_status dl_sql_eval_logic(dl_sql_eval *ev, dl_sql_enode *node,
                                         const dl_sql_einput *in, dl_vector **out, dl_error *err);
DL_NODISCARD dl_status dl_sql_eval_case(dl_sql_eval *ev, dl_sql_enode *node,
                                        const dl_sql_einput *in, dl_vector **out, dl_error *err);

/* Frees an IN node's constant set (sql_eval_logic.c). */
void dl_sql_eval_in_set_free(dl_sql_enode *node);

/* A BOOLEAN row k of vector v of unified view u: 1 true, 0 false, -1 NULL. */
static inline int
dl_sql_bool_at(const dl_vec_unified *u, int64_t k) {
    if (u->validity != NULL && !dl_vec_bit_get(u->validity, k)) {
        return -1;
    }
    if (u->flat->type->id == DL_VEC_TYPE_NULL) {
        return -1;
    }
    return dl_vec_bit_get((const uint8_t *)u->data, u->sel[k]) ? 1 : 0;
}

#endif /* DL_SQL_SQL_EVAL_INT_H */
