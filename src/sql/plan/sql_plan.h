/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The engine's middle forms: bound expressions and logical plans (STYLE.md, "The engine's
 * shape": parsed -> bound -> runtime state).
 *
 * The binder (sql_bind*.c) turns a parsed statement (sql_ast.h) into a tree of plan nodes whose
 * expressions are bound: every name resolved to a column position, every type known, every
 * function call tied to its dl_sql_fn_def with implicit casts inserted, constants folded. The
 * optimizer (sql_optimize*.c) rewrites the tree in place (filters pushed down into scans,
 * unused columns pruned, SORT + LIMIT fused into top-N), and the executor (sql_exec.h) builds
 * one operator per node.
 *
 * Columns are positional. A node's output is n_cols columns described by `schema`, a STRUCT
 * type whose field names are the column names as Spark shows them (duplicates allowed: SELECT
 * a, a). An expression of a node refers to the columns of the node's INPUT by index
 * (DL_SQL_BEXPR_COLUMN.index):
 *
 *   node        its expressions see                       its output
 *   FILTER      the child's columns                       the child's columns
 *   PROJECT     the child's columns                       one column per expression
 *   AGGREGATE   the child's columns (keys, arguments)     keys, then aggregates, then the
 *                                                         grouping id when there are sets
 *   JOIN        keys: their own side; residual: left      left ++ right (SEMI/ANTI: left;
 *               columns then right columns                MARK: left ++ [mark])
 *   SORT        the child's columns                       the child's columns
 *   WINDOW      the child's columns                       child ++ one per window function
 *   SETOP       -                                         the left child's names; both
 *                                                         children have equal column types
 *   LIMIT       -                                         the child's columns
 *
 * Memory: every node, expression, type and string lives in the statement arena and is valid
 * until the statement's result is freed. Plans are trees (no sharing), except that a CTE
 * referenced twice is bound twice.
 *
 * Threads: a finished plan is read-only; operators on several threads may read it at once.
 */
#ifndef DL_SQL_SQL_PLAN_H
#define DL_SQL_SQL_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/compiler.h"
#include "base/error.h"
#include "base/str.h"
#include "delta/delta.h"
#include "sql/func/sql_func.h"
#include "sql/parse/sql_ast.h"
#include "vector/vector.h"

typedef struct dl_sql_bexpr dl_sql_bexpr;
typedef struct dl_sql_plan dl_sql_plan;

/* ---- bound expressions ---------------------------------------------------------------------- */

typedef enum dl_sql_bexpr_kind {
    DL_SQL_BEXPR_CONST = 1, /* value: a one-row vector of type (NULL allowed) */
    DL_SQL_BEXPR_COLUMN,    /* index: a column of the node's input */
    DL_SQL_BEXPR_CALL,      /* fn with args: a scalar function (operators included: "+", "=") */
    DL_SQL_BEXPR_CAST,      /* args[0] cast to type with cast_mode */
    DL_SQL_BEXPR_AND,       /* n-ary, three-valued logic, n_args >= 2 */
    DL_SQL_BEXPR_OR,        /* n-ary, three-valued logic, n_args >= 2 */
    DL_SQL_BEXPR_NOT,       /* args[0]; NULL stays NULL */
    DL_SQL_BEXPR_IS,        /* args[0] IS [NOT] NULL | TRUE | FALSE: never NULL */
    DL_SQL_BEXPR_IN_LIST,   /* args[0] IN (args[1..n)): Spark's NULL rules; is_not for NOT IN */
    DL_SQL_BEXPR_CASE,      /* args: cond0, then0, cond1, then1, ..., [else]; has_else */
    DL_SQL_BEXPR_COALESCE,  /* first non-NULL of args, evaluated lazily (also NVL, IFNULL) */
    DL_SQL_BEXPR_FIELD,     /* args[0] a STRUCT; field_index selects the field */
    DL_SQL_BEXPR_SUBSCRIPT, /* args[0][args[1]]: an ARRAY with a 0-based INT index (Spark's
                               arr[i]; out of range is NULL, an error in ANSI mode) or a MAP
                               with a key of its key type (missing is NULL) */
    DL_SQL_BEXPR_SUBQUERY,  /* a scalar subquery (plan has one column), EXISTS, or IN subquery;
                               only before planning: the planner turns it into a join, or a
                               constant for an uncorrelated scalar subquery */
    DL_SQL_BEXPR_OUTER,     /* a column of an enclosing query (correlation), before planning */
} dl_sql_bexpr_kind;

typedef enum dl_sql_is_kind {
    DL_SQL_BIS_NULL = 1,
    DL_SQL_BIS_TRUE,
    DL_SQL_BIS_FALSE,
} dl_sql_is_kind;

typedef enum dl_sql_subquery_kind {
    DL_SQL_SUBQ_SCALAR = 1, /* (SELECT x ...): NULL when empty, error when > 1 row */
    DL_SQL_SUBQ_EXISTS,     /* EXISTS (SELECT ...) */
    DL_SQL_SUBQ_IN,         /* args[0] IN (SELECT x ...) */
} dl_sql_subquery_kind;

/* What a write's cast (dl_sql_binder_store_cast) stores into: its bind_data, named in runtime
 * errors. */
typedef struct dl_sql_store_target {
    const char *column;
    const char *table;
} dl_sql_store_target;

struct dl_sql_bexpr {
    dl_sql_bexpr_kind kind;
    const dl_type *type; /* the result type */
    uint32_t loc;        /* byte offset of the SQL it came from, for runtime errors */
    bool is_not;         /* IS NOT ..., NOT IN, NOT EXISTS */
    bool has_else;       /* CASE */
    bool is_volatile;    /* contains a volatile call (never folded, never duplicated) */
    int32_t n_args;
    dl_sql_bexpr **args;

    /* COLUMN: input column; OUTER: the enclosing query's column (depth levels up). */
    int32_t index;
    int32_t depth;
    /* CONST: the value, one row (CONST layout, or FLAT of length 1); is_folded when it was
     * computed from an expression (CAST(100 AS SMALLINT), 1 + 2), not written as a literal. */
    dl_vector *value;
    bool is_folded;
    /* CALL: the function and what its bind produced (arg types are the args' types). */
    const dl_sql_fn_def *fn;
    void *bind_data;
    /* CAST (bind_data: a dl_sql_store_target for a write's cast, else NULL). */
    dl_sql_cast_mode cast_mode;
    /* IS. */
    dl_sql_is_kind is_kind;
    /* FIELD. */
    int32_t field_index;
    /* SUBQUERY. */
    dl_sql_subquery_kind subq_kind;
    dl_sql_plan *subquery;
    /* A name for the column this expression becomes when it is a SELECT item (Spark's
     * auto-generated alias, e.g. "(a + 1)", "count(1)"); NULL when not computed yet. */
    const char *name;
};

/* ---- plan nodes ----------------------------------------------------------------------------- */

typedef enum dl_sql_plan_kind {
    DL_SQL_PLAN_SCAN = 1,  /* a Delta snapshot or Parquet files: scan */
    DL_SQL_PLAN_VALUES,    /* constant rows: values (also SELECT without FROM: one empty row) */
    DL_SQL_PLAN_RANGE,     /* range(start, end, step): one BIGINT column "id" */
    DL_SQL_PLAN_ROWS,      /* rows produced at open by a callback (DESCRIBE, SHOW, delta_log) */
    DL_SQL_PLAN_FILTER,    /* keep rows where cond is TRUE */
    DL_SQL_PLAN_PROJECT,   /* exprs */
    DL_SQL_PLAN_AGGREGATE, /* agg */
    DL_SQL_PLAN_JOIN,      /* join */
    DL_SQL_PLAN_SETOP,     /* setop */
    DL_SQL_PLAN_SORT,      /* sort (with limit: top-N) */
    DL_SQL_PLAN_WINDOW,    /* window */
    DL_SQL_PLAN_LIMIT,     /* limit */
} dl_sql_plan_kind;

/* One sort key: ORDER BY expr [ASC|DESC] [NULLS FIRST|LAST], with Spark's defaults resolved
 * (NULLS FIRST for ASC, NULLS LAST for DESC). */
typedef struct dl_sql_sort_key {
    dl_sql_bexpr *expr;
    bool is_desc;
    bool is_nulls_first;
} dl_sql_sort_key;

/* ---- scans ---- */

typedef enum dl_sql_scan_source {
    DL_SQL_SCAN_DELTA = 1, /* snapshot: live files, partition values, deletion vectors */
    DL_SQL_SCAN_PARQUET,   /* paths: plain Parquet files (read_parquet) */
} dl_sql_scan_source;

/*
 * A scan reads columns of a table. The table's full row type is table_schema; the scan
 * outputs the columns listed in columns (indexes into table_schema's fields), in that order.
 * filters are conjuncts over the OUTPUT columns that the optimizer pushed down: the scan must
 * apply them exactly (it may also use them to skip files by statistics and partition values
 * and row groups by Parquet statistics). limit >= 0 lets a scan stop early (no filter).
 *
 * Which file a row came from (DELTA only, for DELETE, UPDATE and MERGE, which rewrite only the
 * files holding a changed row): a column listed as DL_SQL_SCAN_FILE_INDEX is an INT, the row's
 * file as an index among the snapshot's live files (dl_delta_snapshot_file), a CONST vector per
 * batch. No binder puts it in a table's columns (dl_sql_plan_delta_scan_files adds it for DML
 * plans), so SELECT * never shows it; Spark's input_file_name() is a string per row, an index
 * costs nothing. file_set restricts the scan to some files (delta_scan.h).
 */
#define DL_SQL_SCAN_FILE_INDEX (-1)

/*
 * Where in its file a row is (DELTA only, for DELETE, UPDATE and MERGE on tables with deletion
 * vectors, which mark rows instead of rewriting files): a column listed as
 * DL_SQL_SCAN_ROW_INDEX is a BIGINT, the row's file row number (its 0-based physical position
 * in the data file, as deletion vectors count rows; Spark's _metadata.row_index), a flat
 * vector per batch. dl_sql_plan_delta_scan_rows adds it after the file index.
 */
#define DL_SQL_SCAN_ROW_INDEX (-2)

/* Whether scan column c is one of the hidden DML columns above (not a table column). */
#define DL_SQL_SCAN_IS_HIDDEN(c) ((c) == DL_SQL_SCAN_FILE_INDEX || (c) == DL_SQL_SCAN_ROW_INDEX)

/* What the optimizer read of a scan's table (rows, per column min/max/null counts from the
 * log's stats: sql_optimize_card.c). */
struct dl_sql_table_stats;

typedef struct dl_sql_scan {
    dl_sql_scan_source source;
    const char *table_name;      /* for messages: "orders", "delta.`/p`", "read_parquet" */
    dl_delta_snapshot *snapshot; /* DELTA: one reference, released with the statement */
    const char *const *paths;    /* PARQUET: files to read, store-relative or absolute */
    int32_t n_paths;
    dl_store *store;             /* PARQUET: where paths live */
    const dl_type *table_schema; /* STRUCT: every column of the table */
    int32_t *columns;            /* output column -> table_schema field, FILE_INDEX, ROW_INDEX */
    int32_t n_columns;           /* may be 0: batches then carry only a row count */
    dl_sql_bexpr **filters;      /* conjuncts over the output columns, applied exactly */
    int32_t n_filters;
    int64_t limit;                    /* rows the consumer needs at most, or -1 */
    const uint8_t *file_set;          /* DELTA: NULL, or a byte per live file (0: not read) */
    struct dl_sql_table_stats *stats; /* the optimizer's, read on first use; NULL before */
} dl_sql_scan;

/* ---- constant rows ---- */

typedef struct dl_sql_values {
    dl_sql_bexpr ***rows; /* n_rows rows of n_cols constant (or constant-foldable) exprs */
    int64_t n_rows;
} dl_sql_values;

typedef struct dl_sql_range {
    int64_t start, end, step; /* step != 0 */
} dl_sql_range;

/* Rows computed when the operator opens (DESCRIBE HISTORY, SHOW TABLES, delta_log(...)):
 * produce appends every row to out (a dl_sql_rows of the node's schema). ctx lives in the
 * statement arena. */
struct dl_sql_rows;
typedef dl_status (*dl_sql_rows_fn)(void *ctx, struct dl_sql_rows *out, dl_error *err);

typedef struct dl_sql_rows_src {
    dl_sql_rows_fn produce;
    void *ctx;
} dl_sql_rows_src;

/* ---- aggregation ---- */

/* One aggregate: fn(DISTINCT? args) FILTER (WHERE filter). count(*) is count with no args. */
typedef struct dl_sql_agg {
    const dl_sql_fn_def *fn; /* kind DL_SQL_FN_AGGREGATE */
    dl_sql_bexpr **args;     /* over the child's columns */
    int32_t n_args;
    const dl_type *const *arg_types;
    const dl_type *type; /* the result type */
    void *bind_data;
    bool is_distinct;
    dl_sql_bexpr *filter; /* BOOLEAN over the child's columns, or NULL */
} dl_sql_agg;

/*
 * GROUP BY keys and aggregates. Without grouping sets, the output is the keys then the
 * aggregates (no keys: exactly one row, even over no input). With grouping sets (ROLLUP, CUBE,
 * GROUPING SETS), each set is a bitmask over the keys (bit k set = key k grouped); a row of a
 * set has NULL for every key not in it, and a last BIGINT column holds Spark's grouping id
 * (bit (n_keys-1-k) set when key k is NOT grouped), which grouping()/grouping_id() read.
 */
typedef struct dl_sql_aggregate {
    dl_sql_bexpr **keys;
    int32_t n_keys;
    dl_sql_agg *aggs;
    int32_t n_aggs;
    uint64_t *sets; /* NULL = the single set of all keys */
    int32_t n_sets;
} dl_sql_aggregate;

/* ---- joins (operators: sql_op_join*.c) ---- */

typedef enum dl_sql_join_type {
    DL_SQL_JOIN_T_INNER = 1,
    DL_SQL_JOIN_T_LEFT,  /* unmatched left rows with NULL right columns */
    DL_SQL_JOIN_T_RIGHT, /* unmatched right rows with NULL left columns */
    DL_SQL_JOIN_T_FULL,
    DL_SQL_JOIN_T_SEMI,  /* left rows with at least one match; output: left columns */
    DL_SQL_JOIN_T_ANTI,  /* left rows with no match; output: left columns (see is_null_aware) */
    DL_SQL_JOIN_T_CROSS, /* every pair (no keys; a residual may still filter) */
    /* left ++ [BOOLEAN mark]: TRUE when some right row matches, else FALSE; when
     * is_null_aware (`x IN (subquery)` outside a WHERE conjunct; key 0 is x = y, the others
     * the correlation) NULL instead of FALSE when a row could have matched but for a NULL:
     * x is NULL and some row matches the correlation, or a row with a NULL y does. Without
     * it (EXISTS outside a WHERE conjunct) never NULL. */
    DL_SQL_JOIN_T_MARK,
    /* LEFT join for scalar subqueries: at most one match per left row, else the error "more
     * than one row returned by a subquery used as an expression". */
    DL_SQL_JOIN_T_SINGLE,
} dl_sql_join_type;

/*
 * Equi-join keys: left_keys[i] (over the left child's columns) = right_keys[i] (over the right
 * child's columns), types equal after binding. A NULL key never matches unless
 * is_null_equal[i] (<=>). residual (BOOLEAN over left ++ right columns, or NULL) must also be
 * TRUE for a pair to match. is_null_aware (ANTI; MARK see above): NOT IN semantics, i.e. when the
 * right side has any row with a NULL key, no left row is output, and a left row with a NULL key is
 * output only when the right side is empty. A null-aware join with a residual has the IN
 * comparison in it (`(correlation residual) IS TRUE AND x = y`) and only the correlation
 * equalities as keys: a pair whose residual is TRUE matches, one whose residual is NULL could
 * have (ANTI drops the row, MARK is NULL).
 *
 * The planner puts the smaller input (by estimated rows) on the build side: the right child.
 */
typedef struct dl_sql_join {
    dl_sql_join_type type;
    dl_sql_bexpr **left_keys;
    dl_sql_bexpr **right_keys;
    bool *is_null_equal;
    int32_t n_keys;
    dl_sql_bexpr *residual;
    bool is_null_aware;
} dl_sql_join;

/* ---- set operations (operators: sql_op_setop*.c) ---- */

typedef enum dl_sql_setop_type {
    DL_SQL_SETOP_T_UNION = 1,
    DL_SQL_SETOP_T_INTERSECT,
    DL_SQL_SETOP_T_EXCEPT,
} dl_sql_setop_type;

/* left OP right, is_all for the ALL forms (bag semantics: INTERSECT ALL keeps min(m, n)
 * copies, EXCEPT ALL max(m - n, 0)); the DISTINCT forms compare NULLs as equal. Output order is
 * unspecified. */
typedef struct dl_sql_setop_node {
    dl_sql_setop_type type;
    bool is_all;
} dl_sql_setop_node;

/* ---- sort and top-N (operators: sql_op_sort*.c) ---- */

/* Sorts by keys (stable is not required). limit >= 0 makes it a top-N: only rows
 * [offset, offset + limit) of the sorted order are output; offset applies with or without a
 * limit. */
typedef struct dl_sql_sort {
    dl_sql_sort_key *keys;
    int32_t n_keys;
    int64_t limit;  /* -1 = all */
    int64_t offset; /* >= 0 */
} dl_sql_sort;

/* ---- window functions (operators: sql_op_window*.c) ---- */

typedef enum dl_sql_wfn_kind {
    DL_SQL_WFN_AGGREGATE = 1, /* agg OVER (...): agg.fn is an aggregate */
    DL_SQL_WFN_ROW_NUMBER,
    DL_SQL_WFN_RANK,
    DL_SQL_WFN_DENSE_RANK,
    DL_SQL_WFN_PERCENT_RANK,
    DL_SQL_WFN_CUME_DIST,
    DL_SQL_WFN_NTILE,       /* args[0]: constant bucket count */
    DL_SQL_WFN_LAG,         /* args: value [, offset constant [, default]] */
    DL_SQL_WFN_LEAD,        /* args: value [, offset constant [, default]] */
    DL_SQL_WFN_FIRST_VALUE, /* args[0] over the frame; ignore_nulls */
    DL_SQL_WFN_LAST_VALUE,
    DL_SQL_WFN_NTH_VALUE, /* args: value, n constant */
} dl_sql_wfn_kind;

typedef enum dl_sql_frame_bound_kind {
    DL_SQL_FB_UNBOUNDED_PRECEDING = 1,
    DL_SQL_FB_PRECEDING, /* offset */
    DL_SQL_FB_CURRENT_ROW,
    DL_SQL_FB_FOLLOWING, /* offset */
    DL_SQL_FB_UNBOUNDED_FOLLOWING,
} dl_sql_frame_bound_kind;

/*
 * A frame, Spark's defaults resolved by the binder: with ORDER BY and no frame, RANGE BETWEEN
 * UNBOUNDED PRECEDING AND CURRENT ROW; without ORDER BY, the whole partition (ROWS UNBOUNDED
 * PRECEDING to UNBOUNDED FOLLOWING). ROWS offsets are row counts (start_rows/end_rows); RANGE
 * offsets are constants of the (single) order key's type or an interval (start_value /
 * end_value, bound exprs folded to CONST).
 */
typedef struct dl_sql_frame {
    bool is_range;
    dl_sql_frame_bound_kind start;
    dl_sql_frame_bound_kind end;
    int64_t start_rows, end_rows;
    dl_sql_bexpr *start_value, *end_value;
} dl_sql_frame;

typedef struct dl_sql_wfn {
    dl_sql_wfn_kind kind;
    dl_sql_agg agg; /* AGGREGATE: the aggregate; others: agg.args/n_args/type are the args
                       and the result type, agg.fn NULL */
    bool ignore_nulls;
    dl_sql_frame frame;
} dl_sql_wfn;

/* Window functions sharing one PARTITION BY / ORDER BY (the binder groups them; different
 * specifications become stacked WINDOW nodes). Output: child columns, then one per function. */
typedef struct dl_sql_window_node {
    dl_sql_bexpr **partition;
    int32_t n_partition;
    dl_sql_sort_key *order;
    int32_t n_order;
    dl_sql_wfn *fns;
    int32_t n_fns;
} dl_sql_window_node;

/* ---- limit ---- */

typedef struct dl_sql_limit {
    int64_t limit;  /* -1 = no limit */
    int64_t offset; /* >= 0 */
} dl_sql_limit;

/* ---- the node ---- */

struct dl_sql_plan {
    dl_sql_plan_kind kind;
    uint32_t loc;          /* SQL offset of the construct, for messages */
    const dl_type *schema; /* STRUCT: the output columns (names as Spark shows them) */
    int32_t n_cols;        /* schema->n_fields */
    double est_rows;       /* estimated output rows (planner; < 0 unknown) */
    dl_sql_plan *left;     /* the child; JOIN, SETOP: the left child */
    dl_sql_plan *right;    /* JOIN, SETOP: the right child */

    union {
        dl_sql_scan scan;
        dl_sql_values values;
        dl_sql_range range;
        dl_sql_rows_src rows;
        dl_sql_bexpr *cond; /* FILTER */

        struct {
            dl_sql_bexpr **exprs;
            int32_t n_exprs;
        } project;

        dl_sql_aggregate agg;
        dl_sql_join join;
        dl_sql_setop_node setop;
        dl_sql_sort sort;
        dl_sql_window_node window;
        dl_sql_limit limit;
    } u;
};

/* ---- helpers shared by the binder, the optimizer and the operators --------------------------- */

/* A node of kind with its output schema set from n_cols fields (names and types copied into
 * arena); children and payload zeroed. */
DL_NODISCARD dl_status dl_sql_plan_new(dl_arena *arena, dl_sql_plan_kind kind,
                                       const dl_type_field *cols, int32_t n_cols, dl_sql_plan **out,
                                       dl_error *err);

/* A COLUMN reference to input column index of type. NULL when out of memory. */
dl_sql_bexpr *dl_sql_bexpr_column(dl_arena *arena, int32_t index, const dl_type *type);

/* A CONST holding a copy of row `row` of vec (any layout). NULL when out of memory. */
dl_sql_bexpr *dl_sql_bexpr_const(dl_arena *arena, const dl_vector *vec, int64_t row);

/* A copy of e (every node, in arena) with each COLUMN index i below n replaced by map[i]
 * (indexes from n up kept). NULL when out of memory. */
dl_sql_bexpr *dl_sql_bexpr_remap(dl_arena *arena, const dl_sql_bexpr *e, const int32_t *map,
                                 int32_t n);

/* A copy of e (every node, in arena) with every COLUMN index shifted by delta. NULL when out of
 * memory. */
dl_sql_bexpr *dl_sql_bexpr_shift(dl_arena *arena, const dl_sql_bexpr *e, int32_t delta);

/* The AND of conj[0..n) (n >= 1; conj[0] itself when n is 1) into *out. */
DL_NODISCARD dl_status dl_sql_bexpr_and(dl_arena *arena, dl_sql_bexpr **conj, int32_t n,
                                        dl_sql_bexpr **out, dl_error *err);

/* A FILTER of the AND of conj[0..n) over child into *out (child itself when n is 0). */
DL_NODISCARD dl_status dl_sql_filter_over(dl_arena *arena, dl_sql_plan *child, dl_sql_bexpr **conj,
                                          int32_t n, dl_sql_plan **out, dl_error *err);

/* True when expr is a CONST whose value is NULL. */
bool dl_sql_bexpr_is_null_const(const dl_sql_bexpr *expr);

/* ---- EXPLAIN (sql_plan_explain.c) ---- */

/* What only the caller knows about a node (a scan's files kept at planning, EXPLAIN ANALYZE's
 * counters): suffix appends to the node's line, details appends whole lines (each ending in
 * '\n', not indented: the renderer indents them under the node). Either may be NULL. */
typedef struct dl_sql_explain_hooks {
    DL_NODISCARD dl_status (*suffix)(void *ctx, const dl_sql_plan *p, dl_buf *out, dl_error *err);
    DL_NODISCARD dl_status (*details)(void *ctx, const dl_sql_plan *p, dl_buf *lines,
                                      dl_error *err);
    void *ctx;
} dl_sql_explain_hooks;

typedef struct dl_sql_explain_opts {
    bool is_logical;  /* Spark's logical names (Aggregate, Join, Sort), no scan details */
    bool show_est;    /* "(est. N rows)" where the planner estimated */
    bool show_output; /* the output columns */
    bool show_types;  /* ... with their types */
    bool is_numbered; /* FORMATTED: "(n)" per operator, details in a numbered list after */
    const dl_sql_explain_hooks *hooks;
} dl_sql_explain_opts;

/* Appends plan as a tree (Spark's layout: "+- " before the last child, ":- " before the
 * others; one node per line, details under it, expressions as SQL with column names) to
 * out. */
DL_NODISCARD dl_status dl_sql_plan_explain_tree(const dl_sql_plan *plan,
                                                const dl_sql_explain_opts *opts, dl_buf *out,
                                                dl_error *err);

/* dl_sql_plan_explain_tree with estimates and no hooks: tests and messages. */
DL_NODISCARD dl_status dl_sql_plan_explain(const dl_sql_plan *plan, dl_buf *out, dl_error *err);

/* Appends e as SQL; its COLUMN indexes name input's fields, then input2's (NULL when the
 * expression sees one input). */
DL_NODISCARD dl_status dl_sql_bexpr_explain(const dl_sql_bexpr *e, const dl_type *input,
                                            const dl_type *input2, dl_buf *out, dl_error *err);

/* Structural equality of bound expressions. */
bool dl_sql_bexpr_equal(const dl_sql_bexpr *a, const dl_sql_bexpr *c);

/* When c (over left ++ right: left columns below nl, all below nt) is `left_expr = right_expr`
 * or `<=>` with a column of each side and no constant side, adds it to jn's keys (its right
 * expression rebased to the right side) and sets *out_is_key. Assumes: jn's key arrays have
 * room for one more key. */
DL_NODISCARD dl_status dl_sql_join_try_key(dl_arena *arena, dl_sql_join *jn, dl_sql_bexpr *c,
                                           int32_t nl, int32_t nt, bool *out_is_key, dl_error *err);

/* Rewrites a bound plan: constant folding leftovers, filters pushed into scans, columns
 * pruned, SORT + LIMIT fused into top-N, join sides ordered by size. */
DL_NODISCARD dl_status dl_sql_optimize(dl_arena *arena, dl_sql_plan **plan, dl_error *err);

/* Prunes the columns nobody reads below root, through joins, filters, sorts, projections and
 * aggregates (sql_optimize_prune.c); root's output is kept. */
DL_NODISCARD dl_status dl_sql_prune_columns(dl_arena *arena, dl_sql_plan *root, dl_error *err);

/* The optimizer's first pass: FILTERs pushed down through projections and into join inputs
 * (sql_optimize_push.c). */
DL_NODISCARD dl_status dl_sql_push_filters(dl_arena *arena, dl_sql_plan **node, dl_error *err);

/* Grouped aggregates joined on their keys get a SEMI join with a copy of the other side's
 * selective key source under them (sql_optimize_reduce.c). */
DL_NODISCARD dl_status dl_sql_reduce_aggregates(dl_arena *arena, dl_sql_plan *root, dl_error *err);

/* Cardinality estimates (sql_optimize_card.c): sets est_rows of every node below root from
 * the Delta log's stats (rows, min/max, null counts, read once per scan) and the selectivity
 * of filters and join keys. Never fails: what cannot be read is estimated by defaults. */
void dl_sql_estimate(dl_arena *arena, dl_sql_plan *root);

/* The fraction of input's rows that cond (over input's columns) keeps, in [0, 1]. */
double dl_sql_selectivity(dl_arena *arena, dl_sql_plan *input, const dl_sql_bexpr *cond);

/* The distinct values of column col of p's output as its base table has them, or < 0 when
 * unknown. */
double dl_sql_column_ndv(dl_arena *arena, dl_sql_plan *p, int32_t col);

/* Rows of an inner join of l and r rows on n_keys equalities whose sides have ndv_l[k] and
 * ndv_r[k] distinct values (< 0 unknown: as many as rows). */
double dl_sql_join_card(double l, double r, const double *ndv_l, const double *ndv_r,
                        int32_t n_keys);

/* Join ordering by cost (sql_optimize_order.c): each tree of inner and cross joins with three
 * or more inputs is rebuilt in the order of the least estimated intermediate rows, without a
 * cross product unless its join graph is disconnected. Assumes: filters pushed and estimates
 * set (dl_sql_estimate). */
DL_NODISCARD dl_status dl_sql_order_joins(dl_arena *arena, dl_sql_plan **node, dl_error *err);

/* True when expr references no column (of this query or an outer one) and no subquery. */
bool dl_sql_bexpr_is_constant(const dl_sql_bexpr *expr);

/* ---- small helpers shared by the stages above ------------------------------------------- */

/* memcpy that accepts a NULL source when n is 0 (a struct type with no fields has none). */
static inline void
dl_sql_copy(void *dst, const void *src, size_t n) {
    if (n > 0) {
        memcpy(dst, src, n);
    }
}

/* The BIGINT (or other int64-stored) value of row `row` of vec, any layout; the row must not
 * be NULL. */
static inline int64_t
dl_sql_vec_i64(const dl_vector *vec, int64_t row) {
    const dl_vector *flat;
    int64_t i = dl_vec_resolve(vec, row, &flat);
    return ((const int64_t *)flat->data)[i];
}

/* A new one-row FLAT vector (then made CONST of count rows) holding row `row` of src. */
DL_NODISCARD dl_status dl_sql_vec_const_of(const dl_vector *src, int64_t row, int64_t count,
                                           dl_vector **out, dl_error *err);

/* A deep copy of type in arena. */
DL_NODISCARD dl_status dl_sql_type_copy(dl_arena *arena, const dl_type *type, const dl_type **out,
                                        dl_error *err);

/* Appends a short rendering of row `row` of vec (EXPLAIN, messages): numbers, 'strings',
 * true/false, NULL, <type> for the rest. */
DL_NODISCARD dl_status dl_sql_value_print(const dl_vector *vec, int64_t row, dl_buf *out,
                                          dl_error *err);

#endif /* DL_SQL_SQL_PLAN_H */
