/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The executor's interface: physical operators, how batches flow between them, how pipeline
 * breakers consume their input in parallel, and the helpers operators share (expression
 * evaluation, row collections, hashing and comparison of values).
 *
 * ---- The model: pull batches, parallel below breakers ----
 *
 * The executor builds one operator (dl_sql_operator) per plan node (sql_plan.h), children first. An
 * operator produces batches when pulled: its parent calls dl_sql_op_next(op, local, out) and
 * gets the next batch of its output in `out`. Streaming operators (filter, project, limit, the
 * probe side of a join) pull their child inside next; pipeline breakers (aggregate, sort,
 * window, the build side of a join, INTERSECT/EXCEPT) consume a whole child when they open.
 *
 * Parallelism is morsel-driven and lives below breakers. An operator whose next may run on
 * several threads at once, each thread with its own local state, says so with is_parallel: a
 * scan hands out files and row groups (morsels) from a shared cursor; a filter or project over
 * a parallel child is parallel too. A breaker drains its child with dl_sql_op_drain, which
 * starts one task per thread of the statement's pool, each with its own child local state and
 * its own sink local state (a thread-local hash table, a thread-local sorted run), then
 * combines the sink locals one by one on the calling thread, and the breaker finalizes. So a
 * pipeline (a parallel source, streaming operators, a breaker's sink) runs on every thread
 * without locks except the morsel cursor. The final streaming part of a plan (above the last
 * breaker) runs on the thread that pulls the result, one batch at a time, so memory stays
 * bounded by a few batches per operator for plans without breakers.
 *
 * ---- The result protocol ----
 *
 *   open     once per operator, on one thread, before anything else; children are opened
 *            first by dl_sql_op_open. Breakers consume their input here. Uncorrelated
 *            subqueries were already evaluated.
 *   local    one local state per thread that will call next (local_new / local_free); an
 *            operator creates its children's locals inside its own local_new. When local_new
 *            fails, *out may hold a partly built local: the caller still releases it with
 *            local_free, so local_free must cope with any partial state (NULL members).
 *   next     fills `out` (a batch made for op->schema by the caller, dl_sql_batch_new) with
 *            the next rows: it sets every column (dl_vec_batch_set_col, or fills the existing
 *            vectors after dl_vec_batch_reset), the count and the selection. count 0 means
 *            finished: after that, next keeps returning count 0. A batch that is not the last
 *            has count >= 1. out may carry a selection (dl_batch.sel) and columns in any
 *            layout. The batch's vectors stay valid until the next call with the same out;
 *            a consumer that keeps a vector longer takes a reference (dl_vec_ref), and the
 *            producer never writes into a vector someone else references (dl_vec_batch_reset
 *            replaces shared columns).
 *   free     after every local was freed; releases the global state. Children are freed by
 *            the framework after their parent.
 *
 * A streaming operator with the same schema as its child (filter, limit) may pass `out` down
 * to its child and refine the selection in place: no copy. Operators never copy rows they can
 * reference: projections of column references share the input vectors, filters only set
 * selections, join outputs may be DICT vectors over collected build rows.
 *
 * ---- Errors ----
 *
 * Every function returns a dl_status and fills err: what failed and where (the table and file
 * for scans, the function and SQL offset for expression errors: err->offset is the byte
 * offset of the expression in the SQL text when it is known). After an error the operator
 * tree is only freed. Cancellation: operators poll dl_sql_exec_is_interrupted between batches
 * and fail with DL_ERR_INTERRUPTED.
 *
 * ---- Memory ----
 *
 * Operator structs, plans and types live in the statement arena (exec->arena); batches,
 * vectors and hash tables come from exec->alloc and are released by free / local_free.
 *
 * What does not spill (nothing does yet; each is bounded only by memory, and fails with
 * DL_ERR_NOMEM when an allocation fails):
 *   - AGGREGATE: every thread's hash table (keys and state blocks of all its groups, plus the
 *     seen-sets of DISTINCT aggregates), then the merged table, all live at once at the end of
 *     the drain: peak about (threads + 1) x the result's groups.
 *   - JOIN: the whole build (right) side, as long vectors, plus the slot array (2 to 4 slots of
 *     8 or 16 bytes per row) and the chains; per-thread parts while draining, so the build
 *     side is briefly held twice while the parts are appended.
 *   - SORT: every input row in row stores plus 8-byte-word key entries per row, until the
 *     last row is out; top-N keeps only about 2N + 4096 candidate rows per thread.
 *   - WINDOW: every input row, sorted (the sorter's runs) then materialized, before the
 *     first output.
 *   - UNION, INTERSECT, EXCEPT (not UNION ALL): every distinct row of both inputs in hash
 *     tables, one per thread then merged.
 *   - strings are never copied: every structure above keeps the decoded pages (their heaps)
 *     of the rows it holds alive.
 * Streaming plans (scan, filter, project, limit, the probe side of a join) hold a few batches
 * per operator and thread.
 *
 * ---- Ownership of families ----
 *
 * Scans, VALUES/RANGE/ROWS sources, filter, project, aggregate, limit and the expression
 * evaluator: sql_op_*.c and sql_eval*.c of the engine. Hash joins (all dl_sql_join_type),
 * window functions, set operations and sort/top-N: sql_op_join*.c, sql_op_window*.c,
 * sql_op_setop*.c, sql_op_sort*.c, which implement the constructors declared at the end.
 * engine.cmake globs those file names.
 */
#ifndef DL_SQL_SQL_EXEC_H
#define DL_SQL_SQL_EXEC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/compiler.h"
#include "base/error.h"
#include "base/pool.h"
#include "delta/delta_scan.h"
#include "sql/func/sql_func.h"
#include "sql/plan/sql_plan.h"
#include "store/store.h"
#include "vector/vector.h"

/* ---- the statement's execution context ------------------------------------------------------ */

typedef struct dl_sql_exec_ctx {
    const dl_allocator *alloc; /* batches, vectors, hash tables */
    dl_arena *arena;           /* statement lifetime: operators, plans, types */
    dl_pool *pool;             /* NULL = everything on the calling thread */
    int n_threads;             /* tasks a drain starts: pool workers + 1, or 1 without a pool */
    dl_sql_fn_env env;         /* settings every kernel sees */
    dl_store *store;           /* the session's store */
    atomic_bool is_interrupted;
    const atomic_bool *session_interrupt; /* the session's flag (dl_sql_session_interrupt), or
                                             NULL */
    bool is_work_done; /* a statement that changes tables finished (its commit landed, or it had
                          nothing to commit): only its result rows are left to read */
    _Atomic(int64_t) *progress_done;  /* the session's progress counters (parts of scans done */
    _Atomic(int64_t) *progress_total; /* and to do), or NULL */
    bool is_profiling;                /* EXPLAIN ANALYZE: operators built now count rows and time */
} dl_sql_exec_ctx;

/* Counts parts of the statement's work for its progress (dl_sql_session_progress): a scan
 * adds its files or row groups to the total as it opens and one done as each is read. */
static inline void
dl_sql_exec_progress(dl_sql_exec_ctx *exec, int64_t done, int64_t total) {
    if (exec->progress_done != NULL) {
        (void)atomic_fetch_add_explicit(exec->progress_done, done, memory_order_relaxed);
        (void)atomic_fetch_add_explicit(exec->progress_total, total, memory_order_relaxed);
    }
}

/* True once the statement (or its session) was cancelled; operators then fail with
 * DL_ERR_INTERRUPTED. Never once the work is done: a change that committed is reported,
 * not turned into an error a caller would retry (doing the work twice). */
static inline bool
dl_sql_exec_is_interrupted(dl_sql_exec_ctx *exec) {
    if (exec->is_work_done) {
        return false;
    }
    return atomic_load_explicit(&exec->is_interrupted, memory_order_relaxed) ||
           (exec->session_interrupt != NULL &&
            atomic_load_explicit(exec->session_interrupt, memory_order_relaxed));
}

/* ---- operators ------------------------------------------------------------------------------ */

typedef struct dl_sql_operator dl_sql_operator;

typedef struct dl_sql_op_vtable {
    const char *name; /* "scan", "hash_join", ... for messages and EXPLAIN ANALYZE */
    /* Prepares the global state (op->state); breakers consume their input here. May be NULL. */
    DL_NODISCARD dl_status (*open)(dl_sql_operator *op, dl_error *err);
    /* Creates one thread's local state (may set *out NULL when there is none). May be NULL. */
    DL_NODISCARD dl_status (*local_new)(dl_sql_operator *op, void **out, dl_error *err);
    /* The next batch into out (see the protocol above). */
    DL_NODISCARD dl_status (*next)(dl_sql_operator *op, void *local, dl_batch *out, dl_error *err);
    void (*local_free)(dl_sql_operator *op, void *local); /* may be NULL */
    void (*free)(dl_sql_operator *op);                    /* releases op->state; may be NULL */
} dl_sql_op_vtable;

/*
 * What an operator did, counted when the statement profiles (EXPLAIN ANALYZE): rows and
 * batches it returned, and its own time: nanoseconds in its open, next and (for breakers) its
 * sink, less the time of the children's calls made inside them, summed over the threads that
 * ran it (so a parallel pipeline's operators can add up to more than the wall time). Without
 * profiling no clock is read.
 */
typedef struct dl_sql_op_profile {
    _Atomic(int64_t) rows;
    _Atomic(int64_t) batches;
    _Atomic(int64_t) self_ns;
} dl_sql_op_profile;

struct dl_sql_operator {
    const dl_sql_op_vtable *vt;
    const dl_sql_plan *plan; /* the node this operator runs */
    const dl_type *schema;   /* output STRUCT (plan->schema) */
    dl_sql_exec_ctx *exec;
    dl_sql_operator *children[2]; /* [0] the child / left, [1] right; NULL when absent */
    int32_t n_children;
    bool is_parallel;        /* next may run on several threads at once, each with its own local */
    bool is_open;            /* set by dl_sql_op_open */
    void *state;             /* the operator's global state */
    dl_sql_operator *parent; /* NULL at the root */
    dl_sql_op_profile *profile; /* NULL unless exec->is_profiling */
};

/* A new operator struct in the statement arena for plan with vt and children (taken over:
 * freed with the operator). NULL when out of memory. */
dl_sql_operator *dl_sql_op_alloc(dl_sql_exec_ctx *exec, const dl_sql_op_vtable *vt,
                                 const dl_sql_plan *plan, dl_sql_operator *left,
                                 dl_sql_operator *right);

/* Builds the operator tree for plan (children first, dispatching on plan->kind). */
DL_NODISCARD dl_status dl_sql_op_build(dl_sql_exec_ctx *exec, const dl_sql_plan *plan,
                                       dl_sql_operator **out, dl_error *err);

/* Opens op's children, then op (idempotent). */
DL_NODISCARD dl_status dl_sql_op_open(dl_sql_operator *op, dl_error *err);

/* Creates / frees one thread's local state of op. */
DL_NODISCARD dl_status dl_sql_op_local_new(dl_sql_operator *op, void **out, dl_error *err);
void dl_sql_op_local_free(dl_sql_operator *op, void *local);

/* Pulls the next batch (op->vt->next, with interruption checked). */
DL_NODISCARD dl_status dl_sql_op_next(dl_sql_operator *op, void *local, dl_batch *out,
                                      dl_error *err);

/* Frees op and its subtree (locals must be freed already). NULL-tolerant. */
void dl_sql_op_free(dl_sql_operator *op);

/* A batch for schema with no rows: columns are empty FLAT vectors. */
DL_NODISCARD dl_status dl_sql_batch_new(dl_sql_exec_ctx *exec, const dl_type *schema,
                                        dl_batch **out, dl_error *err);

/* ---- draining a child into a sink (pipeline breakers) -----------------------------------------
 */

/*
 * A breaker's consumer side. local_new runs once per task (on that task's thread), sink for
 * every batch the task pulls (the batch may carry a selection; only its live rows count), and
 * after all tasks finished, combine once per local on the calling thread, in task order, then
 * local_free. combine may be NULL (the sink merged as it went, under its own lock).
 */
typedef struct dl_sql_sink {
    DL_NODISCARD dl_status (*local_new)(void *ctx, void **out, dl_error *err);
    DL_NODISCARD dl_status (*sink)(void *ctx, void *local, dl_batch *batch, dl_error *err);
    DL_NODISCARD dl_status (*combine)(void *ctx, void *local, dl_error *err);
    void (*local_free)(void *ctx, void *local);
} dl_sql_sink;

/*
 * Pulls every batch of child (already open) into sink: on exec->n_threads tasks of the pool
 * when child->is_parallel, else on this thread. Returns the first error of any task.
 */
DL_NODISCARD dl_status dl_sql_op_drain(dl_sql_operator *child, const dl_sql_sink *sink, void *ctx,
                                       dl_error *err);

/*
 * Runs n tasks fn(args + i * arg_size) for i in 0..n: on the statement's pool when it has one
 * and n > 1 (the calling thread helps while it waits), else one after the other on this
 * thread. Returns the first error of any task (the others still run to the end). args must
 * stay valid until the call returns; tasks must not touch each other's argument.
 */
DL_NODISCARD dl_status dl_sql_exec_parallel(dl_sql_exec_ctx *exec, dl_pool_fn fn, void *args,
                                            size_t arg_size, int n, dl_error *err);

/* ---- expression evaluation ------------------------------------------------------------------ */

/*
 * The runtime state of one bound expression for one thread: scratch vectors, kernel states
 * (dl_sql_fn_call), sliced inputs. Create one per expression per local state.
 */
typedef struct dl_sql_eval dl_sql_eval;

DL_NODISCARD dl_status dl_sql_eval_new(dl_sql_exec_ctx *exec, const dl_sql_bexpr *expr,
                                       dl_sql_eval **out, dl_error *err);
void dl_sql_eval_free(dl_sql_eval *eval);

/*
 * Evaluates the expression over the live rows of batch (its columns are the expression's
 * input): *out is a NEW reference to a vector of batch->count rows (any layout; row k is live
 * row k of the batch), which the caller unrefs. Column references come back as the input
 * vector itself (no selection) or a DICT slice of it (with one): no copy.
 */
DL_NODISCARD dl_status dl_sql_eval_run(dl_sql_eval *eval, const dl_batch *batch, dl_vector **out,
                                       dl_error *err);

/*
 * Evaluates a BOOLEAN expression and keeps in batch's selection only the live rows where it
 * is TRUE (NULL and FALSE drop the row). Cheaper than run + refine for AND chains and
 * comparisons, which select directly.
 */
DL_NODISCARD dl_status dl_sql_eval_select(dl_sql_eval *eval, dl_batch *batch, dl_error *err);

/* Evaluates an expression with no column references (a constant expression) to one value:
 * *out a new reference to a one-row vector. Used for LIMIT, time travel, frame offsets. */
DL_NODISCARD dl_status dl_sql_eval_const(dl_sql_exec_ctx *exec, const dl_sql_bexpr *expr,
                                         dl_vector **out, dl_error *err);

/* A vector of batch->count rows holding the live rows of column col of batch: the column
 * itself with a new reference (no selection), or a DICT slice (no copy of values). */
DL_NODISCARD dl_status dl_sql_batch_column(const dl_batch *batch, int32_t col, dl_vector **out,
                                           dl_error *err);

/* ---- row collections ------------------------------------------------------------------------ */

/*
 * An append-only collection of rows of one schema, stored as chunks of FLAT vectors of
 * DL_BATCH_CAPACITY rows each, so row r lives in chunk r / DL_BATCH_CAPACITY at index
 * r % DL_BATCH_CAPACITY. Strings are not copied: the chunks reference the heaps of the
 * appended vectors. Build sides, sort inputs, DESCRIBE results and materialized CTEs use it.
 * One thread at a time.
 */
typedef struct dl_sql_rows {
    const dl_type *schema;
    const dl_allocator *alloc;
    dl_batch **chunks; /* every chunk FLAT, no selection, full except the last */
    int64_t n_chunks;
    int64_t cap_chunks;
    int64_t count; /* rows */
} dl_sql_rows;

void dl_sql_rows_init(dl_sql_rows *rows, const dl_allocator *alloc, const dl_type *schema);
void dl_sql_rows_destroy(dl_sql_rows *rows);

/* Appends the live rows of batch (same column types as rows->schema). */
DL_NODISCARD dl_status dl_sql_rows_append(dl_sql_rows *rows, const dl_batch *batch, dl_error *err);

/* The chunk to append one row to by hand (dl_vec_append_* on each column, then
 * dl_sql_rows_commit_row). */
DL_NODISCARD dl_status dl_sql_rows_tail(dl_sql_rows *rows, dl_batch **out, dl_error *err);
void dl_sql_rows_commit_row(dl_sql_rows *rows);

/* Appends batch (FLAT columns of rows->schema, no selection, at most DL_BATCH_CAPACITY rows)
 * as one chunk sharing its vectors: nothing is copied. A chunk that is not full breaks the
 * "full except the last" rule, so a collection filled this way is read only chunk by chunk
 * (the ROWS source of a temporary relation), never by row number (dl_sql_rows_col). */
DL_NODISCARD dl_status dl_sql_rows_push_shared(dl_sql_rows *rows, const dl_batch *batch,
                                               dl_error *err);

/* Moves src's chunks to the end of dst (same schema); src is left empty. */
DL_NODISCARD dl_status dl_sql_rows_move_append(dl_sql_rows *dst, dl_sql_rows *src, dl_error *err);

static inline const dl_vector *
dl_sql_rows_col(const dl_sql_rows *rows, int64_t row, int32_t col, int64_t *out_idx) {
    *out_idx = row & (DL_BATCH_CAPACITY - 1);
    return rows->chunks[row / DL_BATCH_CAPACITY]->cols[col];
}

/* ---- operators implemented in sql_op_join*.c, sql_op_setop*.c, sql_op_sort*.c,
 *      sql_op_window*.c (each builds its operator for a plan node of its kind) ---------------- */

DL_NODISCARD dl_status dl_sql_op_join_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan,
                                          dl_sql_operator *left, dl_sql_operator *right,
                                          dl_sql_operator **out, dl_error *err);
DL_NODISCARD dl_status dl_sql_op_setop_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan,
                                           dl_sql_operator *left, dl_sql_operator *right,
                                           dl_sql_operator **out, dl_error *err);
DL_NODISCARD dl_status dl_sql_op_sort_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan,
                                          dl_sql_operator *child, dl_sql_operator **out,
                                          dl_error *err);
DL_NODISCARD dl_status dl_sql_op_window_new(dl_sql_exec_ctx *exec, const dl_sql_plan *plan,
                                            dl_sql_operator *child, dl_sql_operator **out,
                                            dl_error *err);

/* ---- EXPLAIN (sql_explain.c) ---- */

/* Appends plan's tree (dl_sql_plan_explain_tree with opts) with what planning a scan tells: for
 * a Delta scan, the files it keeps of the snapshot's and why the others are skipped (partition
 * values, the log's statistics), found by planning the scan as the executor will. */
DL_NODISCARD dl_status dl_sql_explain_plan(dl_sql_exec_ctx *exec, const dl_sql_plan *plan,
                                           const dl_sql_explain_opts *opts, dl_buf *out,
                                           dl_error *err);

/* EXPLAIN ANALYZE: runs plan to its end on exec (profiling), discarding its rows, then appends
 * the tree with each operator's rows and own time, and for scans the files, row groups, pages
 * and bytes read and skipped. */
DL_NODISCARD dl_status dl_sql_explain_analyze(dl_sql_exec_ctx *exec, const dl_sql_plan *plan,
                                              dl_buf *out, dl_error *err);

/* What a scan operator read so far (valid until it is freed; its readers must be freed for
 * their counters to be in). */
typedef struct dl_sql_scan_report {
    dl_delta_scan_stats delta; /* read_parquet: files_total and the row group and byte counts */
    int64_t pages_read;
    int64_t pages_skipped;
} dl_sql_scan_report;

void dl_sql_op_scan_report(const dl_sql_operator *op, dl_sql_scan_report *out);

/* Runs plan on the statement's executor, calling take for every batch; stops early when a
 * plan with more than max_rows rows is seen (max_rows < 0: no limit). */
DL_NODISCARD dl_status dl_sql_plan_run(dl_sql_exec_ctx *exec, dl_sql_plan *plan, int64_t max_rows,
                                       dl_status (*take)(void *ctx, const dl_batch *batch,
                                                         dl_error *err),
                                       void *ctx, dl_error *err);

#endif /* DL_SQL_SQL_EXEC_H */
