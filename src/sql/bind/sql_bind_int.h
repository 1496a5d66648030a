/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The binder's private header (sql_bind*.c): parsed statements (sql_ast.h) to bound plans
 * (sql_plan.h).
 *
 * Names. A scope lists the columns a clause can see: each with its name, the qualifiers it can
 * be reached by (the relation's alias or table name, and the table's schema) and its position
 * in the input of the node the clause belongs to. Matching is ASCII case-insensitive (Spark's
 * default). `a.b.c` tries, in order, schema.table.column, table.column.field and
 * column.field.field. A name the scope lacks is looked up in the enclosing queries' scopes
 * (correlation) before failing with a suggestion of the closest names.
 *
 * Aggregation. When a SELECT aggregates, its SELECT list, HAVING and ORDER BY are bound in
 * aggregate mode: a subtree equal to a GROUP BY key becomes a reference to that key's output
 * column, an aggregate call is bound over the FROM scope and collected (equal calls once), and
 * any other column reference is an error (Spark's MISSING_AGGREGATION). Window functions are
 * collected the same way from the SELECT list and ORDER BY, each becoming a column appended by
 * a WINDOW node above the aggregate (or the FROM clause).
 *
 * Subqueries. An uncorrelated scalar subquery or EXISTS is run while binding and becomes a
 * constant (as Spark evaluates time-travel arguments). IN subqueries and correlated subqueries
 * stay DL_SQL_BEXPR_SUBQUERY nodes (depth 1 when correlated) until the clause is complete; then
 * sql_bind_subq.c plans them as joins (SEMI/ANTI for WHERE conjuncts, MARK or SINGLE elsewhere).
 *
 * Errors are DL_ERR_SQL_BIND with err->offset at the offending token and a message "line L,
 * column C: ...".
 */
#ifndef DL_SQL_SQL_BIND_INT_H
#define DL_SQL_SQL_BIND_INT_H

#include "sql/bind/sql_session_int.h"
#include "sql/exec/sql_exec_int.h"

typedef struct dl_sql_binder dl_sql_binder;
typedef struct dl_sql_scope dl_sql_scope;

/* A column a clause can name. */
typedef struct dl_sql_bcol {
    const char *name;
    const char *qual;   /* relation alias or table name, or NULL */
    const char *schema; /* the table's schema (s.t.c), or NULL */
    const dl_type *type;
    int32_t index;  /* position in the input */
    bool is_hidden; /* not expanded by *, and only reachable qualified (USING duplicates) */
} dl_sql_bcol;

struct dl_sql_scope {
    dl_sql_bcol *cols;
    int32_t n;
    const dl_sql_scope *outer; /* the enclosing query's scope (correlation), or NULL */
    /* Set when a name resolved in an enclosing scope (the subquery is correlated). */
    bool *is_correlated;
};

/* A CTE visible to table references. A CTE referenced twice whose result is small (an
 * aggregate's) is computed once (sql_bind_cte.c): first is the plan the first reference bound,
 * rows a ROWS node over the result once a second reference computed it (every reference then
 * reads those rows). */
typedef struct dl_sql_cte_ref {
    const dl_sql_cte *cte;
    struct dl_sql_cte_ref *next;
    dl_sql_plan *first;
    dl_sql_plan *rows;
} dl_sql_cte_ref;

/* What a data-changing statement counted for its result row (commands/sql_dml.c); opaque here. */
typedef struct dl_sql_dml_outcome dl_sql_dml_outcome;

/* Views being expanded (sql_view.c). */
typedef struct dl_sql_view_frame dl_sql_view_frame;

/* How unqualified names meet temporary views and relations. */
typedef enum dl_sql_temp_mode {
    DL_SQL_TEMP_VISIBLE = 0, /* they hide tables (a statement's own text) */
    DL_SQL_TEMP_HIDDEN,      /* passed over (the query of a persistent view) */
    DL_SQL_TEMP_REFUSED,     /* INVALID_TEMP_OBJ_REFERENCE (creating a persistent view) */
} dl_sql_temp_mode;

struct dl_sql_binder {
    dl_sql_session *session;
    dl_arena *arena;
    dl_sql_exec_ctx *exec;
    const char *text; /* the statement's SQL, for line/column in messages */
    size_t text_len;
    dl_sql_cte_ref *ctes;
    int32_t depth;                   /* nesting of queries, bounded */
    dl_sql_dml_outcome *dml_outcome; /* set while a data-changing statement runs, else NULL */
    const dl_sql_stmt *stmt;         /* the statement being run (its name in messages), or NULL */
    const dl_sql_view_frame *views;  /* views being expanded, innermost first */
    const char *view_schema;         /* unqualified names' schema inside a view (NULL: current) */
    dl_sql_temp_mode temp_mode;
    const dl_sql_params *params; /* values of the statement's markers, or NULL (none bound) */
};

/* ---- errors --------------------------------------------------------------------------------- */

/* Fails with code and "line L, column C: <message>", err->offset = loc. Returns code. */
dl_status dl_sql_binder_fail(dl_sql_binder *b, uint32_t loc, dl_status code, dl_error *err,
                             const char *fmt, ...) DL_PRINTF(5, 6);

/* dl_sql_binder_fail and return its code (a constant, so static analysis follows the failure). */
#define DL_SQL_BIND_FAIL(b, loc, code, err, ...)                          \
    do {                                                                  \
        (void)dl_sql_binder_fail((b), (loc), (code), (err), __VA_ARGS__); \
        return (code);                                                    \
    } while (0)

/* Prefixes "line L, column C: " to err's message and sets err->offset, when not set yet. */
void dl_sql_binder_locate(dl_sql_binder *b, uint32_t loc, dl_error *err);

/* ---- expressions (sql_bind_expr*.c) -------------------------------------------------------- */

typedef struct dl_sql_aggctx dl_sql_aggctx;
typedef struct dl_sql_winctx dl_sql_winctx;

typedef struct dl_sql_bctx {
    dl_sql_binder *b;
    const dl_sql_scope *scope; /* the columns names resolve to */
    const char *clause;        /* "WHERE", "SELECT", ... for messages */
    dl_sql_aggctx *agg;        /* aggregate mode (see above), or NULL */
    dl_sql_winctx *win;        /* window functions allowed and collected here, or NULL */
    dl_sql_winctx *win_named;  /* where named windows are looked up (inside a window call) */
    bool is_agg_arg;           /* inside an aggregate's arguments */
} dl_sql_bctx;

DL_NODISCARD dl_status dl_sql_binder_expr(dl_sql_bctx *cx, const dl_sql_expr *ast,
                                          dl_sql_bexpr **out, dl_error *err);

/* Resolves a column name (sql_bind_name.c). */
DL_NODISCARD dl_status dl_sql_binder_column(dl_sql_bctx *cx, const dl_sql_name *name,
                                            dl_sql_bexpr **out, dl_error *err);

/* The visible column name of scope closest to want, or NULL. */
const char *dl_sql_scope_suggest(const dl_sql_scope *scope, const char *want);

/* FIELD accesses for the parts of rest on base (sql_bind_name.c). */
DL_NODISCARD dl_status dl_sql_binder_field_path(dl_sql_binder *b, dl_sql_bexpr *base,
                                                const dl_sql_name *rest, dl_sql_bexpr **out,
                                                dl_error *err);

/* NOT arg (folded when constant); NULL when out of memory. */
dl_sql_bexpr *dl_sql_binder_not(dl_sql_binder *b, dl_sql_bexpr *arg, uint32_t loc);

/* A CASE of n WHEN pairs and an optional ELSE, result types coerced to their common type. */
DL_NODISCARD dl_status dl_sql_binder_make_case(dl_sql_binder *b, dl_sql_bexpr **conds,
                                               dl_sql_bexpr **results, int32_t n,
                                               dl_sql_bexpr *else_e, uint32_t loc,
                                               dl_sql_bexpr **out, dl_error *err);

/* ---- aggregates and windows (sql_bind_agg.c) ------------------------------------------------- */

/* One window function with its PARTITION BY / ORDER BY, bound over the window's input. */
typedef struct dl_sql_wdef {
    dl_sql_wfn fn;
    dl_sql_bexpr **partition;
    int32_t n_partition;
    dl_sql_sort_key *order;
    int32_t n_order;
} dl_sql_wdef;

struct dl_sql_aggctx {
    const dl_sql_scope *from; /* the scope before aggregation */
    dl_sql_bexpr **keys;      /* GROUP BY keys over from */
    int32_t n_keys;
    dl_sql_agg *aggs; /* collected aggregates */
    int32_t n_aggs;
    int32_t cap_aggs;
    bool has_sets;  /* grouping sets: a grouping id column follows the aggregates */
    uint64_t *sets; /* the sets as key masks (has_sets) */
    int32_t n_sets;
    dl_sql_bexpr **gid_refs; /* references to that column, patched once n_aggs is final */
    int32_t n_gid_refs;
    int32_t cap_gid_refs;
};

struct dl_sql_winctx {
    dl_sql_bexpr **refs; /* references to window columns: index i until the WINDOW nodes are
                            built, when the windows' input width is added */
    int32_t n_refs;
    int32_t cap_refs;
    dl_sql_wdef *defs;
    int32_t n_defs;
    int32_t cap_defs;
    const dl_sql_named_window *named; /* the SELECT's WINDOW clause */
    uint32_t n_named;
};

/* In aggregate mode: a subtree equal to a GROUP BY key (or constant) binds to it. */
DL_NODISCARD dl_status dl_sql_binder_match_key(dl_sql_bctx *cx, const dl_sql_expr *ast,
                                               dl_sql_bexpr **out, bool *out_matched,
                                               dl_error *err);

/* A column reference, refused in aggregate mode outside aggregate arguments. */
DL_NODISCARD dl_status dl_sql_binder_agg_column(dl_sql_bctx *cx, const dl_sql_expr *ast,
                                                dl_sql_bexpr **out, dl_error *err);

/* An aggregate call: collected into cx->agg, bound to its output column. */
DL_NODISCARD dl_status dl_sql_binder_agg_call(dl_sql_bctx *cx, const dl_sql_expr *ast,
                                              const dl_sql_fn_def *def, const char *name,
                                              dl_sql_bexpr **out, dl_error *err);

/* A call with OVER: collected into cx->win, bound to its output column. */
DL_NODISCARD dl_status dl_sql_binder_window_call(dl_sql_bctx *cx, const dl_sql_expr *ast,
                                                 const dl_sql_fn_def *def, const char *name,
                                                 dl_sql_bexpr **out, dl_error *err);

/* grouping(col) / grouping_id(cols...). */
DL_NODISCARD dl_status dl_sql_binder_grouping(dl_sql_bctx *cx, const dl_sql_expr *ast,
                                              const char *name, dl_sql_bexpr **out, dl_error *err);

/* True when ast contains an aggregate call outside OVER (subqueries not entered). */
bool dl_sql_ast_has_agg(dl_sql_binder *b, const dl_sql_expr *ast);

/* True when ast contains a call with OVER (subqueries not entered). */
bool dl_sql_ast_has_window(const dl_sql_expr *ast);

/* ---- subqueries (sql_bind_subq.c) --------------------------------------------------------------
 */

/* A scalar, EXISTS or IN subquery expression. */
DL_NODISCARD dl_status dl_sql_binder_subquery(dl_sql_bctx *cx, const dl_sql_expr *ast,
                                              dl_sql_bexpr **out, dl_error *err);

/* Binds ast and coerces it to BOOLEAN (clause conditions). */
DL_NODISCARD dl_status dl_sql_binder_cond(dl_sql_bctx *cx, const dl_sql_expr *ast,
                                          dl_sql_bexpr **out, dl_error *err);

/* A new bexpr of kind in the binder's arena (zeroed, loc set, args allocated). */
dl_sql_bexpr *dl_sql_bexpr_new(dl_sql_binder *b, dl_sql_bexpr_kind kind, const dl_type *type,
                               uint32_t loc, int32_t n_args);

/* expr cast to type (implicit cast: ANSI or legacy by the session), folded when constant.
 * Returns expr itself when the types are equal. */
DL_NODISCARD dl_status dl_sql_binder_cast(dl_sql_binder *b, dl_sql_bexpr *expr, const dl_type *type,
                                          dl_sql_bexpr **out, dl_error *err);

/* expr cast to the type of column col of table (a write: INSERT, UPDATE SET, MERGE), as Spark's
 * store assignment does under spark.sql.storeAssignmentPolicy -- whatever
 * spark.sql.ansi.enabled says: ANSI (the default) allows the casts ANSI CAST allows and fails on
 * a bad value, naming the column; LEGACY casts as the non-ANSI CAST (a bad value is stored as
 * NULL); STRICT allows only up-casts (CANNOT_UP_CAST_DATATYPE). */
DL_NODISCARD dl_status dl_sql_binder_store_cast(dl_sql_binder *b, dl_sql_bexpr *expr,
                                                const dl_type_field *col, const char *table,
                                                dl_sql_bexpr **out, dl_error *err);

/* The common type of a and b (Spark's coercion), or a bind error at loc naming what. */
DL_NODISCARD dl_status dl_sql_binder_common_type(dl_sql_binder *b, const dl_type *a,
                                                 const dl_type *c, uint32_t loc, const char *what,
                                                 const dl_type **out, dl_error *err);

/* Binds a call of def on bound args (running its bind, inserting casts, folding constants). */
DL_NODISCARD dl_status dl_sql_binder_call(dl_sql_binder *b, const dl_sql_fn_def *def,
                                          const char *name, dl_sql_bexpr **args, int32_t n_args,
                                          uint32_t loc, dl_sql_bexpr **out, dl_error *err);

/* Runs def's bind for bound args (arity already checked): fb receives the result type, the
 * casts it asks for (fb->cast_to) and its bind data. */
DL_NODISCARD dl_status dl_sql_binder_run_fn(dl_sql_binder *b, const dl_sql_fn_def *def,
                                            const char *name, dl_sql_bexpr **args, int32_t n,
                                            dl_sql_fn_bind *fb, dl_error *err);

/* Looks up a function by name (the session's lookup). */
const dl_sql_fn_def *dl_sql_binder_lookup(dl_sql_binder *b, dl_str name);

/* Replaces expr by a CONST when it has no column references and nothing volatile. Errors
 * while folding leave expr as it is (they surface at run time, if the row is reached). */
void dl_sql_binder_fold(dl_sql_binder *b, dl_sql_bexpr **expr);

/* A parsed type as a vector type. */
DL_NODISCARD dl_status dl_sql_binder_type(dl_sql_binder *b, const dl_sql_type *ast,
                                          const dl_type **out, dl_error *err);

/* -N for an integer literal N, typed by its negative value as Spark's grammar reads a sign before
 * a number (MINUS? INTEGER_VALUE): -2147483648 is an INT, -128Y a TINYINT,
 * -9223372036854775808L a BIGINT. *out stays NULL when lit is no integer literal or out of its
 * range (the caller negates it as an expression). */
DL_NODISCARD dl_status dl_sql_binder_negative_literal(dl_sql_binder *b, const dl_sql_expr *lit,
                                                      uint32_t loc, dl_sql_bexpr **out,
                                                      dl_error *err);

/* A literal or INTERVAL as a constant. */
DL_NODISCARD dl_status dl_sql_binder_literal(dl_sql_binder *b, const dl_sql_expr *ast,
                                             dl_sql_bexpr **out, dl_error *err);

/* A parameter marker (? or :name) as the constant bound to it: UNBOUND_SQL_PARAMETER
 * (SQL_BIND) naming the marker when b->params has no value for it (sql_bind_lit.c). */
DL_NODISCARD dl_status dl_sql_binder_param(dl_sql_binder *b, const dl_sql_expr *ast,
                                           dl_sql_bexpr **out, dl_error *err);

/* An INTERVAL literal as a constant (sql_bind_lit.c). */
DL_NODISCARD dl_status dl_sql_binder_interval(dl_sql_binder *b, const dl_sql_expr *ast,
                                              dl_sql_bexpr **out, dl_error *err);

/* Spark's name for a SELECT item without alias: the column name for a column, else the SQL. */
const char *dl_sql_binder_auto_name(dl_sql_binder *b, const dl_sql_expr *ast);

/* Appends Spark's pretty SQL for ast: `(a + 1)`, `upper(x)`, `count(1)` (sql_bind_autoname.c). */
DL_NODISCARD dl_status dl_sql_binder_spark_name(const dl_sql_expr *ast, dl_buf *out, dl_error *err);

/* Evaluates a constant bexpr (errors surface). *out a new reference to a one-row vector. */
DL_NODISCARD dl_status dl_sql_binder_eval(dl_sql_binder *b, const dl_sql_bexpr *expr,
                                          dl_vector **out, dl_error *err);

/* ---- queries (sql_bind_query.c, sql_bind_select.c, sql_bind_from.c) -------------------------- */

/* A bound relation: its plan and the scope naming its output columns. */
typedef struct dl_sql_rel {
    dl_sql_plan *plan;
    dl_sql_scope scope;
} dl_sql_rel;

/* A SCAN of every column of snap (its reference taken over, released with the statement). */
DL_NODISCARD dl_status dl_sql_plan_delta_scan(dl_sql_binder *b, dl_delta_snapshot *snap,
                                              const char *name, uint32_t loc, dl_sql_plan **out,
                                              dl_error *err);

/* As dl_sql_plan_delta_scan, plus a last INT column "__dl_file": each row's file as an index
 * among snap's live files (DL_SQL_SCAN_FILE_INDEX, sql_plan.h). */
DL_NODISCARD dl_status dl_sql_plan_delta_scan_files(dl_sql_binder *b, dl_delta_snapshot *snap,
                                                    const char *name, uint32_t loc,
                                                    dl_sql_plan **out, dl_error *err);

/* As dl_sql_plan_delta_scan_files, with the row's file row number after the file index
 * (DL_SQL_SCAN_ROW_INDEX, a BIGINT): where a DML statement on a table with deletion vectors
 * marks the rows it changes. */
DL_NODISCARD dl_status dl_sql_plan_delta_scan_rows(dl_sql_binder *b, dl_delta_snapshot *snap,
                                                   const char *name, uint32_t loc,
                                                   dl_sql_plan **out, dl_error *err);

/* Makes a Delta SCAN read only the live files whose byte in file_set is nonzero (one byte per
 * live file of its snapshot; the set must live as long as the statement) and scales its row
 * estimate to them (so call it once the set is filled). */
void dl_sql_plan_scan_restrict(dl_sql_plan *scan, const uint8_t *file_set);

/* Releases snap with the statement (takes over the caller's reference; on failure it is
 * released at once). */
DL_NODISCARD dl_status dl_sql_hold_snapshot(dl_sql_binder *b, dl_delta_snapshot *snap,
                                            dl_error *err);

/* The snapshot of table that a time-travel clause names (NONE: the latest). */
DL_NODISCARD dl_status dl_sql_travel(dl_sql_binder *b, dl_delta_table *table,
                                     const dl_sql_time_travel *tt, dl_delta_snapshot **out,
                                     dl_error *err);

/* Estimated live rows of a snapshot (numRecords of the files when known, else by bytes). */
double dl_sql_snapshot_rows_estimate(const dl_delta_snapshot *snap);

/* A FROM reference to the temporary relation rel (sql_temp_rel.c): a ROWS plan sharing its
 * batches; the statement holds a reference to rel. */
DL_NODISCARD dl_status dl_sql_binder_temp_rel(dl_sql_binder *b, dl_sql_temp_rel *rel,
                                              const dl_sql_tref *tref, dl_sql_rel *out,
                                              dl_error *err);

/* FROM items of each kind (sql_bind_from.c, sql_bind_tfn.c, sql_describe.c). */
DL_NODISCARD dl_status dl_sql_binder_table(dl_sql_binder *b, const dl_sql_tref *tref,
                                           dl_sql_rel *out, dl_error *err);
DL_NODISCARD dl_status dl_sql_binder_cte(dl_sql_binder *b, dl_sql_cte_ref *ref,
                                         const dl_sql_tref *tref, dl_sql_rel *out, dl_error *err);
/* The plan of a reference to a CTE (before its column names are applied): bound from its
 * query, or a read of its rows once computed (sql_bind_cte.c). */
DL_NODISCARD dl_status dl_sql_binder_cte_plan(dl_sql_binder *b, dl_sql_cte_ref *ref,
                                              dl_sql_plan **out, dl_error *err);
DL_NODISCARD dl_status dl_sql_binder_table_fn(dl_sql_binder *b, const dl_sql_tref *tref,
                                              dl_sql_rel *out, dl_error *err);
DL_NODISCARD dl_status dl_sql_binder_describe_rel(dl_sql_binder *b, const dl_sql_tref *tref,
                                                  dl_sql_rel *out, dl_error *err);

/* Joins: the scope of left ++ right, a JOIN node (output left ++ right, or left for
 * SEMI/ANTI), and the split of a condition into keys and residual. */
DL_NODISCARD dl_status dl_sql_concat_scopes(dl_sql_binder *b, const dl_sql_rel *left,
                                            const dl_sql_rel *right, dl_sql_scope *out,
                                            dl_error *err);
DL_NODISCARD dl_status dl_sql_join_plan(dl_sql_binder *b, dl_sql_plan *left, dl_sql_plan *right,
                                        dl_sql_join_type type, uint32_t loc, dl_sql_plan **out,
                                        dl_error *err);
DL_NODISCARD dl_status dl_sql_join_split(dl_sql_binder *b, dl_sql_plan *j, dl_sql_bexpr *cond,
                                         dl_error *err);

/* A local store rooted at "/" (freed with the statement), and a path (absolute, or relative
 * to the working directory) as a path in it. */
DL_NODISCARD dl_status dl_sql_root_store(dl_sql_binder *b, dl_store **out, dl_error *err);
DL_NODISCARD dl_status dl_sql_store_path(dl_sql_binder *b, dl_str path, const char **out,
                                         dl_error *err);

/* Files named by a table function's path argument: a string or array('a', 'b'), each a file,
 * a folder (its files but _ and . ones) or a pattern in its last component. fn names the
 * function in messages. Paths are store-relative (dl_sql_root_store). */
typedef struct dl_sql_path_list {
    const char **items;
    int32_t n;
    int32_t cap;
} dl_sql_path_list;

DL_NODISCARD dl_status dl_sql_bind_paths(dl_sql_binder *b, dl_store *store, const dl_sql_expr *arg,
                                         const char *fn, dl_sql_path_list *l, dl_error *err);

/* read_csv(path [, option => value ...]) (sql_bind_load.c). */
DL_NODISCARD dl_status dl_sql_binder_read_csv(dl_sql_binder *b, const dl_sql_tref *tref,
                                              dl_sql_plan **out, dl_error *err);

/* read_json(path [, option => value ...]) (sql_bind_load.c). */
DL_NODISCARD dl_status dl_sql_binder_read_json(dl_sql_binder *b, const dl_sql_tref *tref,
                                               dl_sql_plan **out, dl_error *err);

/* left becomes left CROSS JOIN right (comma-separated FROM items). */
DL_NODISCARD dl_status dl_sql_rel_cross(dl_sql_binder *b, dl_sql_rel *left, const dl_sql_rel *right,
                                        uint32_t loc, dl_error *err);

/* Adds a FILTER of cond over *plan, planning its subqueries first (cond may vanish into
 * SEMI/ANTI joins). */
DL_NODISCARD dl_status dl_sql_plan_filter(dl_sql_binder *b, dl_sql_plan **plan, dl_sql_bexpr *cond,
                                          uint32_t loc, dl_error *err);

/* Binds a query (with its CTEs, ORDER BY and LIMIT) whose correlated names resolve in outer. */
DL_NODISCARD dl_status dl_sql_binder_query(dl_sql_binder *b, const dl_sql_query *q,
                                           const dl_sql_scope *outer, dl_sql_plan **out,
                                           dl_error *err);

/* Binds one SELECT block with the query's ORDER BY / LIMIT / OFFSET. */
DL_NODISCARD dl_status dl_sql_binder_select(dl_sql_binder *b, const dl_sql_query *q,
                                            const dl_sql_scope *outer, dl_sql_plan **out,
                                            dl_error *err);

/* Binds a FROM item. */
DL_NODISCARD dl_status dl_sql_binder_tref(dl_sql_binder *b, const dl_sql_tref *tref,
                                          const dl_sql_scope *outer, dl_sql_rel *out,
                                          dl_error *err);

/* A scope of plan's output columns, all qualified by qual (may be NULL). */
DL_NODISCARD dl_status dl_sql_scope_of(dl_sql_binder *b, const dl_sql_plan *plan, const char *qual,
                                       dl_sql_scope *out, dl_error *err);

/* A PROJECT over child with exprs named names. */
DL_NODISCARD dl_status dl_sql_plan_project(dl_sql_binder *b, dl_sql_plan *child,
                                           dl_sql_bexpr **exprs, const char *const *names,
                                           int32_t n, dl_sql_plan **out, dl_error *err);

/* Renames plan's output columns (a PROJECT of column references when names differ). */
DL_NODISCARD dl_status dl_sql_plan_rename(dl_sql_binder *b, dl_sql_plan *plan,
                                          const dl_sql_ident_list *names, uint32_t loc,
                                          dl_sql_plan **out, dl_error *err);

/* A constant non-negative integer clause (LIMIT, OFFSET) evaluated now. */
DL_NODISCARD dl_status dl_sql_binder_count_clause(dl_sql_binder *b, const dl_sql_expr *ast,
                                                  const char *what, int64_t *out, dl_error *err);

/* LIMIT / OFFSET of q on top of *plan. */
DL_NODISCARD dl_status dl_sql_binder_limit(dl_sql_binder *b, const dl_sql_query *q,
                                           dl_sql_plan **plan, dl_error *err);

/* A SORT node over plan. */
DL_NODISCARD dl_status dl_sql_plan_sort(dl_sql_binder *b, dl_sql_plan *plan, dl_sql_sort_key *keys,
                                        int32_t n, uint32_t loc, dl_sql_plan **out, dl_error *err);

/* Runs plan to completion and returns its first row's first column (NULL when no rows); more
 * than one row is an error. For scalar subqueries and constant arguments. */
DL_NODISCARD dl_status dl_sql_run_scalar(dl_sql_binder *b, dl_sql_plan *plan, uint32_t loc,
                                         dl_sql_bexpr **out, dl_error *err);

/* Plans the SUBQUERY nodes left in *expr (over *plan's output) as joins: *plan grows joins and
 * *expr references their result columns. is_filter: *expr is a WHERE/HAVING condition, so
 * top-level IN/EXISTS conjuncts may become SEMI/ANTI joins; *expr becomes NULL when every
 * conjunct did. */
DL_NODISCARD dl_status dl_sql_plan_subqueries(dl_sql_binder *b, dl_sql_plan **plan,
                                              dl_sql_bexpr **expr, bool is_filter, dl_error *err);

/* Decorrelates the right child of j (a correlated subquery's plan, sq its expression): the
 * outer references leave it and become j's keys and residual (sql_bind_decor.c). */
DL_NODISCARD dl_status dl_sql_decorrelate(dl_sql_binder *b, dl_sql_plan *j, const dl_sql_bexpr *sq,
                                          dl_error *err);

/* True when expr contains a SUBQUERY node. */
bool dl_sql_bexpr_has_subquery(const dl_sql_bexpr *expr);

/* ---- views (sql_view.c) ------------------------------------------------------------------ */

/* Whether name is global_temp.x. */
bool dl_sql_name_is_global_temp(const dl_sql_name *name);

/* The view name refers to, or *out NULL when it names none: unqualified a temporary view
 * (when with_temp), global_temp.x a global one, else a persistent view of the catalog (in the
 * binder's view_schema when unqualified). A damaged definition is an error. */
DL_NODISCARD dl_status dl_sql_binder_find_view(dl_sql_binder *b, const dl_sql_name *name,
                                               bool with_temp, const dl_sql_view **out,
                                               dl_error *err);

/* A reference to view v in FROM: its query bound (again) and conformed to its columns. */
DL_NODISCARD dl_status dl_sql_binder_view(dl_sql_binder *b, const dl_sql_view *v,
                                          const dl_sql_tref *tref, dl_sql_rel *out, dl_error *err);

/* CREATE VIEW's query, bound as v's: a reference to v itself is RECURSIVE_VIEW, and when v is
 * persistent one to a temporary view or relation is INVALID_TEMP_OBJ_REFERENCE. */
DL_NODISCARD dl_status dl_sql_binder_view_query(dl_sql_binder *b, const dl_sql_view *v,
                                                const dl_sql_query *q, dl_sql_plan **out,
                                                dl_error *err);

/* The error for a view named as the target of a statement that needs a table (the binder's
 * statement: Spark's and Delta's error class for it); display names the view. */
DL_NODISCARD dl_status dl_sql_view_target_error(dl_sql_binder *b, const char *display,
                                                dl_error *err);

/* `schema`.`name` (or `name` for a temporary view), in the binder's arena. */
const char *dl_sql_view_display(dl_sql_binder *b, const dl_sql_view *v);

/* ---- statements (sql_admin.c, sql_describe.c, sql_copy.c, sql_optimize.c) ----------------------
 */

/* A ROWS plan of STRING columns names[0..n_cols) holding values (n_rows rows, row-major;
 * NULL entries are NULL). The strings are copied. */
DL_NODISCARD dl_status dl_sql_plan_strings(dl_sql_binder *b, const char *const *names,
                                           int32_t n_cols, const char *const *values,
                                           int64_t n_rows, dl_sql_plan **out, dl_error *err);

/* A ROWS plan over rows already collected (taken over: freed with the statement). */
DL_NODISCARD dl_status dl_sql_plan_rows(dl_sql_binder *b, dl_sql_rows *rows, dl_sql_plan **out,
                                        dl_error *err);

/* DESCRIBE HISTORY / DETAIL / TABLE as a statement: *out the plan of its rows. */
DL_NODISCARD dl_status dl_sql_binder_describe(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                              dl_sql_plan **out, dl_error *err);

/* SHOW TBLPROPERTIES t / SHOW COLUMNS IN t (sql_describe_detail.c). */
DL_NODISCARD dl_status dl_sql_binder_show_table(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                                dl_sql_plan **out, dl_error *err);

/* delta_log('t'): the raw log as rows. */
/* delta_files('t' [, version | timestamp]): a snapshot's data files (sql_delta_files.c). */
DL_NODISCARD dl_status dl_sql_binder_delta_files(dl_sql_binder *b, const dl_sql_tref *tref,
                                                 dl_sql_plan **out, dl_error *err);
DL_NODISCARD dl_status dl_sql_binder_delta_log(dl_sql_binder *b, const dl_sql_tref *tref,
                                               dl_sql_plan **out, dl_error *err);

/* The constant e cast to want (an integer, date or timestamp type) as its int64 value;
 * *out_is_null for NULL (sql_bind_util.c). */
DL_NODISCARD dl_status dl_sql_binder_const_i64(dl_sql_binder *b, dl_sql_bexpr *e,
                                               const dl_type *want, int64_t *out, bool *out_is_null,
                                               dl_error *err);

/* table_changes('table', start [, end]): the change data feed (sql_table_changes.c). */
DL_NODISCARD dl_status dl_sql_binder_table_changes(dl_sql_binder *b, const dl_sql_tref *tref,
                                                   dl_sql_plan **out, dl_error *err);

#endif /* DL_SQL_SQL_BIND_INT_H */
