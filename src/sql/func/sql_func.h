/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The function library's interface: how the binder finds a function by name, checks and
 * coerces its arguments, learns its result type, and how the executor runs it over vectors.
 *
 * Three forms of a call (STYLE.md): the parsed call (dl_sql_expr FUNC), the bound call (a
 * dl_sql_fn_def plus the bind data its bind callback produced: argument types, result type,
 * constant arguments decoded once), and the runtime state (scratch the kernel keeps between
 * batches, in dl_sql_fn_call.state).
 *
 * Scalar functions take `count` rows of argument vectors (any layout: flat, constant,
 * dictionary; use dl_vec_unify) and fill `out`, an empty flat vector of the bound result type
 * with room for count rows; when every argument is CONST the kernel may produce a CONST
 * vector. NULL handling is the kernel's (most functions return NULL on any NULL argument;
 * dl_sql_fn_def.is_null_propagating lets the executor do that for it).
 *
 * Aggregates keep one state per group in memory the executor owns (state_size bytes, aligned
 * to 16). update folds `count` input rows into the states states[0..count) (one state pointer
 * per row, so grouped and ungrouped aggregation share a kernel); combine merges a partial
 * state into another (parallel aggregation); finalize writes one result row per state.
 *
 * The registry is an X-macro table (sql_functions.def): adding a function is one line plus
 * its kernels. Names are matched case-insensitively; aliases are separate lines.
 */
#ifndef DL_SQL_SQL_FUNC_H
#define DL_SQL_SQL_FUNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/buf.h"
#include "base/compiler.h"
#include "base/error.h"
#include "base/str.h"
#include "vector/vector.h"

/* ---- what every kernel may see --------------------------------------------------------------- */

/* Statement-level settings functions depend on. Filled by the engine once per statement. */
typedef struct dl_sql_fn_env {
    bool ansi;                 /* spark.sql.ansi.enabled: overflow, bad casts, division by 0 fail */
    const char *time_zone;     /* spark.sql.session.timeZone, e.g. "UTC", "America/New_York" */
    int64_t now_us;            /* current_timestamp() of the statement, micros since epoch UTC */
    const dl_allocator *alloc; /* where vectors and runtime state come from */
    const char *store_column;  /* DL_SQL_CAST_STORE: the table column written, for errors */
} dl_sql_fn_env;

/* A constant argument, decoded at bind time when the argument is a literal or folds to one. */
typedef struct dl_sql_fn_const {
    bool is_const;        /* false: the argument varies per row */
    bool is_null;         /* the constant is NULL */
    const dl_vector *vec; /* a one-row vector holding the value (when is_const) */
    bool is_literal;      /* written as a literal (Spark's Literal), not folded from an
                             expression such as CAST(100 AS SMALLINT) */
} dl_sql_fn_const;

/* ---- binding ------------------------------------------------------------------------------- */

/*
 * What the binder knows about a call. bind reads n_args, arg_types and consts; it may set
 * cast_to[i] to ask the binder to cast argument i first (implicit casts as Spark makes them),
 * must set ret_type, and may set bind_data (allocated in arena) for the kernel.
 * Errors are DL_ERR_SQL_BIND with a message naming the function and the argument
 * ("substring: argument 2 must be an integer, got string").
 */
typedef struct dl_sql_fn_bind {
    const char *name;                /* the function name as written, for messages */
    int32_t n_args;                  /* arguments */
    const dl_type *const *arg_types; /* their types after binding */
    const dl_sql_fn_const *consts;   /* n_args entries */
    const dl_type **cast_to;         /* n_args entries, NULL-initialised; set to request a cast */
    bool is_try_cast;                /* out: the requested casts are TRY_CASTs (try_ functions) */
    const dl_type *ret_type;         /* out: the result type */
    void *bind_data;                 /* out: the kernel's bound data, or NULL */
    dl_arena *arena;                 /* statement arena: types and bind data live here */
    const dl_sql_fn_env *env;        /* settings */
} dl_sql_fn_bind;

typedef dl_status (*dl_sql_fn_bind_fn)(dl_sql_fn_bind *bind, dl_error *err);

/* ---- execution ----------------------------------------------------------------------------- */

/* A bound call at run time. One per expression instance per thread. */
typedef struct dl_sql_fn_call {
    const struct dl_sql_fn_def *def;
    const dl_type *const *arg_types;
    int32_t n_args;
    const dl_type *ret_type;
    void *bind_data; /* from bind */
    void *state;     /* kernel scratch kept across batches (allocated with env->alloc,
                        released by def->free_state), or NULL */
    const dl_sql_fn_env *env;
} dl_sql_fn_call;

/* Scalar kernel: fills out (empty FLAT vector of ret_type, capacity >= count) from args. */
typedef dl_status (*dl_sql_scalar_fn)(dl_sql_fn_call *call, dl_vector *const *args, int64_t count,
                                      dl_vector *out, dl_error *err);

/* Aggregate kernels. states: one pointer per input row (rows of the same group share one). */
typedef void (*dl_sql_agg_init_fn)(const dl_sql_fn_call *call, void *state);
typedef dl_status (*dl_sql_agg_update_fn)(dl_sql_fn_call *call, dl_vector *const *args,
                                          int64_t count, void *const *states, dl_error *err);
typedef dl_status (*dl_sql_agg_combine_fn)(dl_sql_fn_call *call, const void *src, void *dst,
                                           dl_error *err);
/* Appends count result rows (one per state, in order) to out (FLAT vector of ret_type). */
typedef dl_status (*dl_sql_agg_finalize_fn)(dl_sql_fn_call *call, void *const *states,
                                            int64_t count, dl_vector *out, dl_error *err);
/* Releases what a state owns beyond its state_size bytes (collect_list buffers). May be NULL. */
typedef void (*dl_sql_agg_destroy_fn)(const dl_sql_fn_call *call, void *state);

typedef enum dl_sql_fn_kind {
    DL_SQL_FN_SCALAR = 1,
    DL_SQL_FN_AGGREGATE, /* also usable OVER a window */
    DL_SQL_FN_WINDOW,    /* only OVER a window: row_number, rank, lag, ... (executor-owned) */
} dl_sql_fn_kind;

typedef struct dl_sql_fn_def {
    const char *name; /* lower case */
    dl_sql_fn_kind kind;
    int32_t min_args; /* arity bounds checked before bind; max -1 = variadic */
    int32_t max_args;
    bool is_null_propagating; /* scalar: any NULL argument makes the row NULL (executor does it) */
    bool is_volatile;         /* rand(), uuid(): never constant-folded */
    /* scalar (two arguments): the second is evaluated first; rows where it is NULL, or zero
     * and division by zero gives NULL (is_try, or ANSI off), are NULL without evaluating the
     * first (Spark's DivModLike: `CAST('x' AS INT) / NULL` is NULL, not an error) */
    bool is_divisor_first;
    bool is_try; /* with is_divisor_first: a zero divisor gives NULL in ANSI mode too */
    dl_sql_fn_bind_fn bind;
    dl_sql_scalar_fn scalar;
    size_t state_size; /* aggregate */
    dl_sql_agg_init_fn init;
    dl_sql_agg_update_fn update;
    dl_sql_agg_combine_fn combine;
    dl_sql_agg_finalize_fn finalize;
    dl_sql_agg_destroy_fn destroy;
    void (*free_state)(dl_sql_fn_call *call); /* scalar runtime state; may be NULL */
} dl_sql_fn_def;

/* The function named name (case-insensitive), or NULL. */
const dl_sql_fn_def *dl_sql_fn_lookup(dl_str name);

/* Calls visit for every registered function (SHOW FUNCTIONS, tests). */
void dl_sql_fn_foreach(void (*visit)(void *ctx, const dl_sql_fn_def *def), void *ctx);

/* ---- casts --------------------------------------------------------------------------------- */

typedef enum dl_sql_cast_mode {
    DL_SQL_CAST_LEGACY = 1, /* Spark non-ANSI CAST: invalid input becomes NULL */
    DL_SQL_CAST_ANSI,       /* ANSI CAST: invalid input is an error naming the value */
    DL_SQL_CAST_TRY,        /* TRY_CAST: invalid input becomes NULL, even in ANSI mode */
    DL_SQL_CAST_STORE,      /* a write to a table column under the ANSI store assignment
                               policy: as ANSI, and an overflow names the column
                               (CAST_OVERFLOW_IN_TABLE_INSERT; env->store_column) */
} dl_sql_cast_mode;

/* spark.sql.storeAssignmentPolicy: how INSERT, UPDATE and MERGE cast values to column types. */
typedef enum dl_sql_store_policy {
    DL_SQL_STORE_ANSI = 0, /* ANSI casts whatever spark.sql.ansi.enabled says (the default) */
    DL_SQL_STORE_LEGACY,   /* the non-ANSI CAST: a bad value is stored as NULL */
    DL_SQL_STORE_STRICT,   /* only up-casts (int -> bigint, date -> timestamp, any -> string) */
} dl_sql_store_policy;

/* Spark's UpCastRule.canUpCast: from converts to to without loss or a runtime failure. */
bool dl_sql_cast_is_upcast(const dl_type *from, const dl_type *to);

/* True when Spark allows CAST(from AS to) at all (else a bind error). */
bool dl_sql_cast_is_allowed(const dl_type *from, const dl_type *to);

/* True when Spark casts from to to implicitly (type coercion: int -> bigint, date -> timestamp,
 * string -> numeric in comparisons as Spark's rules say). */
bool dl_sql_cast_is_implicit(const dl_type *from, const dl_type *to);

/*
 * The common type two argument types coerce to for comparisons, arithmetic, CASE/COALESCE and
 * UNION (Spark's findWiderTypeForTwo / decimal widening), or NULL when there is none. Parametric
 * results (decimal, nested) are built in arena.
 */
DL_NODISCARD dl_status dl_sql_type_common(const dl_type *a, const dl_type *b, dl_arena *arena,
                                          const dl_type **out, dl_error *err);

/* Spark's canAnsiCast: the casts ANSI mode allows (no date -> number, no boolean -> timestamp,
 * no integer -> binary). dl_sql_cast_is_allowed is the legacy (non-ANSI) canCast; bind CAST
 * with the one matching env->ansi. */
bool dl_sql_cast_is_allowed_ansi(const dl_type *from, const dl_type *to);

/* Where two types meet, for dl_sql_type_common_ex. */
typedef enum dl_sql_coerce {
    DL_SQL_COERCE_WIDER = 0, /* UNION, CASE, COALESCE, IN lists, arrays: findWiderTypeForTwo;
                                string with a number or date widens to string */
    DL_SQL_COERCE_COMPARE,   /* binary comparisons: string with a number or date becomes the
                                number or date (PromoteStrings); string with decimal, double */
} dl_sql_coerce;

/*
 * dl_sql_type_common with the context and mode spelled out. In ANSI mode (Spark 4's default)
 * a string meets an integer as bigint, a float or decimal as double, and other atomic types as
 * themselves, in both contexts; byte/short/int/long with float give double. dl_sql_type_common
 * is this with DL_SQL_COERCE_WIDER and ansi false. *out is NULL when there is no common type.
 */
DL_NODISCARD dl_status dl_sql_type_common_ex(const dl_type *a, const dl_type *b, dl_sql_coerce how,
                                             bool ansi, dl_arena *arena, const dl_type **out,
                                             dl_error *err);

/* Appends element idx of flat vector v (type t, not NULL) to out as JSON text, as to_json
 * writes values (sql_fn_json.c): numbers and booleans bare, strings quoted, structs and maps
 * as objects, arrays as arrays, dates and timestamps as strings, binary in base64; NULL struct
 * fields are written as null when keep_nulls, else left out (to_json's default). */
DL_NODISCARD dl_status dl_sql_value_to_json(const dl_sql_fn_env *env, const dl_type *t,
                                            const dl_vector *v, int64_t idx, bool keep_nulls,
                                            dl_buf *out, dl_error *err);

/* Casts count rows of src (any layout) to out, an empty FLAT vector of the target type. */
DL_NODISCARD dl_status dl_sql_cast(const dl_sql_fn_env *env, dl_sql_cast_mode mode,
                                   const dl_vector *src, int64_t count, dl_vector *out,
                                   dl_error *err);

/* ---- hashing and comparing values (sql_hash.c)
 * ------------------------------------------------------------ */

/*
 * Hashes count rows of vec (any layout) into hashes: hashes[i] = hash of row i when is_first,
 * else mixed into hashes[i] (several key columns). Values equal under dl_sql_value_equal hash
 * equal: -0.0 as 0.0, every NaN alike, decimals by value; every NULL hashes to one constant.
 */
void dl_sql_hash_vec(const dl_vector *vec, int64_t count, uint64_t *hashes, bool is_first);

/*
 * Prefetches the values of the count rows of a DICT vector whose dictionary is too large for
 * the caches (a join output over its build side): the misses then overlap instead of waiting
 * one by one in the kernel that reads the rows next. Other layouts: nothing.
 */
void dl_sql_vec_prefetch(const dl_vector *vec, int64_t count);

/*
 * Equality of row ra of a and row rb of b (same type, any layouts), for grouping and joins:
 * NULL equals NULL (callers that want SQL's NULL <> NULL test nulls first), NaN equals NaN,
 * -0.0 equals 0.0. Nested types compare field by field / element by element.
 */
bool dl_sql_value_equal(const dl_vector *a, int64_t ra, const dl_vector *b, int64_t rb);

/*
 * Spark's ordering of row ra of a and row rb of b (same type): <0, 0, >0. NULLs are not
 * handled here (test with dl_vec_is_null first). Numbers by value with NaN above everything
 * and -0.0 equal to 0.0, strings and binary by unsigned bytes (UTF-8 code point order),
 * booleans false < true, structs field by field, arrays element by element then by length.
 */
int dl_sql_value_compare(const dl_vector *a, int64_t ra, const dl_vector *b, int64_t rb);

#endif /* DL_SQL_SQL_FUNC_H */
