/* SPDX-License-Identifier: Apache-2.0 */
/*
 * deltalite: Delta Lake in C. This is the one public header.
 *
 * A program opens a warehouse (a folder of Delta tables laid out as Spark's spark-warehouse),
 * runs Spark SQL against it, and reads results row by row with typed getters or as an Arrow
 * C stream. docs/api.md has a walk-through; this header is the contract.
 *
 *     deltalite_db *db = NULL;
 *     if (deltalite_open("spark-warehouse", NULL, &db) != DELTALITE_OK) {
 *         fprintf(stderr, "%s\n", db ? deltalite_error_message(db) : "out of memory");
 *         deltalite_close(db);
 *         return 1;
 *     }
 *     deltalite_result *r = NULL;
 *     if (deltalite_query(db, "SELECT id, name FROM people ORDER BY id", &r) == DELTALITE_OK) {
 *         bool has_row = false;
 *         while (deltalite_result_next_row(r, &has_row) == DELTALITE_OK && has_row) {
 *             int64_t id = 0;
 *             const char *name = NULL;
 *             (void)deltalite_result_get_int64(r, 0, &id);
 *             (void)deltalite_result_get_text(r, 1, &name, NULL);
 *             printf("%lld %s\n", (long long)id, name ? name : "NULL");
 *         }
 *         deltalite_result_free(r);
 *     }
 *     deltalite_close(db);
 *
 * Conventions (every function follows them unless its comment says otherwise):
 * - Fallible functions return a deltalite_status. On failure the handle's last error holds
 *   the details (deltalite_error_message, _hint, _offset, _caret); a successful call clears it.
 * - Strings returned are NUL-terminated UTF-8, owned by the library, and stay valid for the
 *   lifetime stated at the function (never longer than the handle they came from).
 * - Out-parameters are written on success; on failure they are zeroed/NULL.
 * - Threads: a deltalite_db and everything obtained from it (results, streams) are used by one
 *   thread at a time; different handles may be used on different threads at once, also on the
 *   same warehouse (Delta's log keeps concurrent writers consistent). The library may run
 *   work on its own worker threads inside a call.
 * - Every symbol is prefixed deltalite_ / DELTALITE_ / Arrow's own names; nothing else is
 *   exported.
 */
#ifndef DELTALITE_H
#define DELTALITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#    define DELTALITE_API __attribute__((visibility("default")))
#else
#    define DELTALITE_API
#endif

#define DELTALITE_VERSION_MAJOR 0
#define DELTALITE_VERSION_MINOR 1
#define DELTALITE_VERSION_PATCH 0

/* Status codes returned by every fallible function. Values are stable. */
typedef enum deltalite_status {
    DELTALITE_OK = 0,                 /* success */
    DELTALITE_ERROR_INVALID_ARG = 1,  /* the caller misused the API (never a statement's failure) */
    DELTALITE_ERROR_NOMEM = 2,        /* out of memory */
    DELTALITE_ERROR_IO = 3,           /* the operating system refused a read or write */
    DELTALITE_ERROR_NOT_FOUND = 4,    /* a table, file, column or version does not exist */
    DELTALITE_ERROR_CORRUPT = 5,      /* a file violates its format */
    DELTALITE_ERROR_UNSUPPORTED = 6,  /* valid input using a feature deltalite lacks */
    DELTALITE_ERROR_SCHEMA = 7,       /* types or schemas do not match */
    DELTALITE_ERROR_CONFLICT = 8,     /* a concurrent writer won */
    DELTALITE_ERROR_SQL_SYNTAX = 9,   /* SQL does not parse */
    DELTALITE_ERROR_SQL_BIND = 10,    /* SQL names or types do not resolve */
    DELTALITE_ERROR_CONSTRAINT = 11,  /* a table constraint was violated */
    DELTALITE_ERROR_INTERRUPTED = 12, /* cancelled */
    DELTALITE_ERROR_INTERNAL = 13,    /* a bug in deltalite */
    DELTALITE_ERROR_EXISTS = 14,      /* the object to create already exists */
    DELTALITE_ERROR_LIMIT = 15,       /* input exceeds a size or depth limit */
    DELTALITE_ERROR_READONLY = 16,    /* a write on a warehouse opened DELTALITE_OPEN_READONLY */
    DELTALITE_ERROR_DATA = 17         /* a value is invalid for the operation: division by zero,
                                         a cast that fails, an overflow, an argument value a
                                         function refuses while the statement runs */
} deltalite_status;

/* Column types: Spark's (and Delta's) types. Values are stable. */
typedef enum deltalite_type {
    DELTALITE_TYPE_NULL = 0,           /* Spark's void: every value is NULL */
    DELTALITE_TYPE_BOOLEAN = 1,        /* read with deltalite_result_get_bool */
    DELTALITE_TYPE_BYTE = 2,           /* tinyint: get_int64 */
    DELTALITE_TYPE_SHORT = 3,          /* smallint: get_int64 */
    DELTALITE_TYPE_INT = 4,            /* int: get_int64 */
    DELTALITE_TYPE_LONG = 5,           /* bigint: get_int64 */
    DELTALITE_TYPE_FLOAT = 6,          /* float: get_double */
    DELTALITE_TYPE_DOUBLE = 7,         /* double: get_double */
    DELTALITE_TYPE_DECIMAL = 8,        /* decimal(p,s): get_text (exact) or get_double */
    DELTALITE_TYPE_STRING = 9,         /* string: get_text or get_blob */
    DELTALITE_TYPE_BINARY = 10,        /* binary: get_blob */
    DELTALITE_TYPE_DATE = 11,          /* date: get_date */
    DELTALITE_TYPE_TIMESTAMP = 12,     /* timestamp (an instant): get_timestamp */
    DELTALITE_TYPE_TIMESTAMP_NTZ = 13, /* timestamp_ntz (a wall-clock time): get_timestamp */
    DELTALITE_TYPE_STRUCT = 14,        /* struct<...>: get_text, or the Arrow stream */
    DELTALITE_TYPE_ARRAY = 15,         /* array<...>: get_text, or the Arrow stream */
    DELTALITE_TYPE_MAP = 16,           /* map<...>: get_text, or the Arrow stream */
    DELTALITE_TYPE_INTERVAL_YM = 17,   /* interval year to month (query results only): get_text */
    DELTALITE_TYPE_INTERVAL_DT = 18    /* interval day to second (query results only): get_text */
} deltalite_type;

/* A warehouse opened for SQL: a session with its settings and current schema. */
typedef struct deltalite_db deltalite_db;

/* The rows of one statement, read one at a time. */
typedef struct deltalite_result deltalite_result;

/* A prepared statement: one statement with parameter markers, executed many times. */
typedef struct deltalite_stmt deltalite_stmt;

/* ---- version ------------------------------------------------------------------------------ */

/* The library version as "MAJOR.MINOR.PATCH". Static storage; thread-safe. */
DELTALITE_API const char *deltalite_version(void);

/* The stable name of a status code ("OK", "CORRUPT", ...). Static storage; thread-safe. */
DELTALITE_API const char *deltalite_status_name(deltalite_status status);

/* ---- opening a warehouse ------------------------------------------------------------------- */

/* deltalite_options.flags */
#define DELTALITE_OPEN_CREATE 1u /* create the warehouse folder (and parents) if missing */
#define DELTALITE_OPEN_NO_FSYNC                                     \
    2u /* never fsync: for tests and scratch data, never for tables \
          someone keeps (a crash may lose committed writes) */
/* Read-only: every statement that would write a file (DDL, DML, OPTIMIZE, VACUUM, RESTORE,
 * COPY, CREATE SCHEMA, ...) fails with DELTALITE_ERROR_READONLY before it changes anything,
 * for tables of the warehouse and tables read by path alike; queries, DESCRIBE, SHOW and SET
 * work. Not with DELTALITE_OPEN_CREATE (INVALID_ARG). */
#define DELTALITE_OPEN_READONLY 4u

/* Options for deltalite_open. Zero-initialise, then set what you need; NULL = all defaults. */
typedef struct deltalite_options {
    /* Worker threads for scans and operators: 0 = one per CPU core, -1 = none (all work on
     * the calling thread), n > 0 = n workers (at most 1024). */
    int32_t threads;
    /* The session time zone (spark.sql.session.timeZone), e.g. "UTC" or "+02:00"; NULL = UTC.
     * Copied. */
    const char *time_zone;
    uint32_t flags;    /* DELTALITE_OPEN_* */
    void *reserved[4]; /* must be NULL: room for future options */
} deltalite_options;

/*
 * Opens the warehouse folder `warehouse` (relative paths are resolved against the working
 * directory now): the schema `default` is the folder itself, schema s is `<warehouse>/s.db`,
 * and every sub-folder holding a `_delta_log` is a table. Paths outside it are read with
 * delta.`/path/to/table`.
 *
 * Returns DELTALITE_OK, or NOT_FOUND when the folder does not exist (and DELTALITE_OPEN_CREATE
 * is not set), IO when it is not a folder, INVALID_ARG for bad options, NOMEM.
 * Ownership: on success and on most failures *out is a handle to close with deltalite_close;
 * after a failure it only answers the deltalite_error_* functions. *out is NULL only when
 * out is NULL or memory ran out before the handle existed.
 */
DELTALITE_API deltalite_status deltalite_open(const char *warehouse,
                                              const deltalite_options *options, deltalite_db **out);

/*
 * Closes the warehouse and frees the handle. NULL is a no-op (returns OK). Fails with
 * INVALID_ARG, leaving everything open, while results, Arrow streams or prepared statements
 * of this handle are still alive: free them first (as sqlite3_close refuses with SQLITE_BUSY).
 */
DELTALITE_API deltalite_status deltalite_close(deltalite_db *db);

/* The warehouse folder as an absolute path. Valid until deltalite_close; "" after a failed
 * open. */
DELTALITE_API const char *deltalite_warehouse(const deltalite_db *db);

/* ---- running SQL --------------------------------------------------------------------------- */

/*
 * Runs every statement of sql (separated by ';'), in order, discarding any rows (queries run
 * to the end, so errors in their execution are reported). Stops at the first failing
 * statement; the statements before it stay done. Error offsets count from the start of sql,
 * also for errors while a statement runs (a division by zero in the third statement).
 * An empty script (only blanks and comments) is OK.
 */
DELTALITE_API deltalite_status deltalite_exec(deltalite_db *db, const char *sql);

/*
 * Runs the statements of sql as deltalite_exec does, except the last, whose result is
 * returned in *out for reading (statements that return nothing give zero columns and no
 * rows; INSERT, UPDATE, DELETE, MERGE and RESTORE give one row of counts named as Spark names
 * them, docs/sql.md). Queries are lazy: most of the work happens in deltalite_result_next_row.
 * INVALID_ARG when sql holds no statement.
 * Ownership: free *out with deltalite_result_free before closing db. Several results of one
 * handle may be open at once and read interleaved.
 */
DELTALITE_API deltalite_status deltalite_query(deltalite_db *db, const char *sql,
                                               deltalite_result **out);

/* As deltalite_query for the len bytes at sql (no NUL needed). */
DELTALITE_API deltalite_status deltalite_query_len(deltalite_db *db, const char *sql, size_t len,
                                                   deltalite_result **out);

/*
 * Cancels the statements running on db (from another thread, or a SIGINT handler: it is one
 * atomic store): each fails with DELTALITE_ERROR_INTERRUPTED at its next batch, and a
 * statement that changes a table commits nothing. A statement whose commit already landed is
 * not undone or reported as failed: its result reads as usual (a caller retrying on the error
 * would do the work twice); when the SQL text holds more statements, the ones after it are not
 * run and the call fails with DELTALITE_ERROR_INTERRUPTED saying how many ran. Statements
 * started afterwards run normally.
 * db NULL is a no-op. The one function that may be called while another thread uses db.
 */
DELTALITE_API void deltalite_interrupt(deltalite_db *db);

/*
 * How far the statement running on db has come: *out_done of *out_total parts (the files and
 * row groups its scans read; the total grows as scans start), both 0 when nothing measurable
 * runs. A progress bar shows done / total. Like deltalite_interrupt, it may be called from
 * another thread while db runs a statement (it reads two counters); out pointers may be NULL.
 */
DELTALITE_API void deltalite_progress(const deltalite_db *db, int64_t *out_done,
                                      int64_t *out_total);

/*
 * True when sql ends with a complete statement: its last ';' lies outside strings, quoted
 * names and comments, and only blanks or comments follow it (sqlite3_complete). A shell uses
 * it to know when to stop reading lines. Thread-safe; sql NULL gives false.
 */
DELTALITE_API bool deltalite_is_complete(const char *sql);

/* ---- prepared statements ------------------------------------------------------------------- */

/*
 * Prepares one statement (a trailing ';' is allowed; a second statement is SQL_SYNTAX) whose
 * values may be left as parameter markers, to bind and execute many times (sqlite3_prepare):
 *
 *     deltalite_stmt *st = NULL;
 *     if (deltalite_prepare(db, "INSERT INTO people VALUES (?, ?)", &st) == DELTALITE_OK) {
 *         for (int64_t id = 1; id <= 3; id++) {
 *             deltalite_result *r = NULL;
 *             (void)deltalite_bind_int64(st, 1, id);
 *             (void)deltalite_bind_text(st, 2, "someone", DELTALITE_NTS);
 *             if (deltalite_stmt_execute(st, &r) == DELTALITE_OK) {
 *                 deltalite_result_free(r);
 *             }
 *         }
 *         deltalite_finalize(st);
 *     }
 *
 * Markers are Spark's: positional `?` (numbered 1, 2, ... from the left) or named `:name`
 * (each distinct name one parameter, numbered by its first appearance; the same name may
 * appear several times), not both in one statement (SQL_BIND,
 * INVALID_QUERY_MIXED_QUERY_PARAMETERS). A marker stands for a value wherever a literal may
 * stand in a query, INSERT, UPDATE, DELETE or MERGE (the SELECT list, WHERE, VALUES, SET,
 * ON, LIMIT, ...), and takes the type of the value bound to it, as a literal of that type
 * would (Spark's parameterized queries); other statements refuse markers (UNSUPPORTED,
 * PARAMETER_MARKER_IN_UNEXPECTED_STATEMENT), since they would keep them as text (a view's
 * query, a constraint). The statement is checked for syntax and markers here; names and types
 * resolve at each execution, which binds and plans it again with the values of the moment (so
 * a value's type may differ between executions, and each execution reads the tables' latest
 * versions). A marker in a plain deltalite_exec / deltalite_query fails as unbound.
 * Returns OK, SQL_SYNTAX, SQL_BIND, INVALID_ARG (NULL arguments), NOMEM.
 * Ownership: free *out with deltalite_finalize before closing db (deltalite_close refuses
 * while statements are alive, as for results).
 */
DELTALITE_API deltalite_status deltalite_prepare(deltalite_db *db, const char *sql,
                                                 deltalite_stmt **out);

/* As deltalite_prepare for the len bytes at sql (no NUL needed). */
DELTALITE_API deltalite_status deltalite_prepare_len(deltalite_db *db, const char *sql, size_t len,
                                                     deltalite_stmt **out);

/* The number of parameters (the highest index); 0 for NULL. */
DELTALITE_API int32_t deltalite_bind_parameter_count(const deltalite_stmt *stmt);

/* The index of the named parameter (":name" or "name", matched exactly), or 0 when the
 * statement has none of that name (or uses ? markers). */
DELTALITE_API int32_t deltalite_bind_parameter_index(const deltalite_stmt *stmt, const char *name);

/* The name of parameter index (":name"), or NULL for a ? parameter or an index out of range.
 * Valid until deltalite_finalize. */
DELTALITE_API const char *deltalite_bind_parameter_name(const deltalite_stmt *stmt, int32_t index);

/*
 * Binds a value to parameter index (1-based), replacing the value bound before; the value is
 * copied. The marker takes the value's type:
 *
 *   bind_null           void (NULL; it adopts the type its place needs, as Spark's NULL literal)
 *   bind_bool           boolean
 *   bind_int32          int          bind_int64      bigint
 *   bind_double         double
 *   bind_decimal        decimal(p,s) from text "[+-]digits[.digits]": s the digits after the
 *                       point, p the digits (at most 38), as Spark types the literal 12.50BD
 *   bind_text           string: len bytes of UTF-8 (DELTALITE_NTS: text is NUL-terminated)
 *   bind_blob           binary: len bytes
 *   bind_date           date: days since 1970-01-01
 *   bind_timestamp      timestamp: microseconds since 1970-01-01 UTC
 *   bind_timestamp_ntz  timestamp_ntz: the wall-clock time's microseconds since 1970-01-01
 *
 * Returns OK, INVALID_ARG (stmt NULL, index out of range, text not UTF-8, decimal text of
 * another shape or over 38 digits), NOMEM. Results already executed keep the values they ran
 * with.
 */
#define DELTALITE_NTS SIZE_MAX
DELTALITE_API deltalite_status deltalite_bind_null(deltalite_stmt *stmt, int32_t index);
DELTALITE_API deltalite_status deltalite_bind_bool(deltalite_stmt *stmt, int32_t index, bool value);
DELTALITE_API deltalite_status deltalite_bind_int32(deltalite_stmt *stmt, int32_t index,
                                                    int32_t value);
DELTALITE_API deltalite_status deltalite_bind_int64(deltalite_stmt *stmt, int32_t index,
                                                    int64_t value);
DELTALITE_API deltalite_status deltalite_bind_double(deltalite_stmt *stmt, int32_t index,
                                                     double value);
DELTALITE_API deltalite_status deltalite_bind_decimal(deltalite_stmt *stmt, int32_t index,
                                                      const char *text);
DELTALITE_API deltalite_status deltalite_bind_text(deltalite_stmt *stmt, int32_t index,
                                                   const char *text, size_t len);
DELTALITE_API deltalite_status deltalite_bind_blob(deltalite_stmt *stmt, int32_t index,
                                                   const void *data, size_t len);
DELTALITE_API deltalite_status deltalite_bind_date(deltalite_stmt *stmt, int32_t index,
                                                   int32_t days);
DELTALITE_API deltalite_status deltalite_bind_timestamp(deltalite_stmt *stmt, int32_t index,
                                                        int64_t micros);
DELTALITE_API deltalite_status deltalite_bind_timestamp_ntz(deltalite_stmt *stmt, int32_t index,
                                                            int64_t micros);

/* Unbinds every parameter (a later execution fails until they are bound again). */
DELTALITE_API deltalite_status deltalite_clear_bindings(deltalite_stmt *stmt);

/*
 * Executes the statement with the values bound now and returns its result as deltalite_query
 * does (queries are lazy; INSERT, UPDATE, DELETE and MERGE give their row of counts). Every
 * parameter must be bound: SQL_BIND (UNBOUND_SQL_PARAMETER, naming the marker, with its
 * offset and caret) otherwise. Errors are those of deltalite_query, with offsets into the
 * prepared text. May be called again and again, also while results of earlier executions
 * are open; each result stays valid after deltalite_finalize (free it before closing db).
 */
DELTALITE_API deltalite_status deltalite_stmt_execute(deltalite_stmt *stmt, deltalite_result **out);

/* Frees the statement and its bindings. NULL is a no-op. */
DELTALITE_API void deltalite_finalize(deltalite_stmt *stmt);

/* ---- the last error ------------------------------------------------------------------------ */

/*
 * The last error of db: its status (OK when the last call succeeded), message ("" when none),
 * hint (what to do, "" when none), byte offset in the SQL text of the failing call (-1 when
 * the error is not about a position), 1-based line and column of that offset (0 when none),
 * and the caret rendering: the line of SQL holding the offset and a '^' under it,
 *
 *     SELECT a FROM t WHERE (b
 *                             ^
 *
 * ("" when there is no offset). Strings stay valid until the next call on db (or on a result
 * or stream of db). db NULL gives NOMEM / "out of memory" (deltalite_open's failure).
 */
DELTALITE_API deltalite_status deltalite_error_status(const deltalite_db *db);
DELTALITE_API const char *deltalite_error_message(const deltalite_db *db);
DELTALITE_API const char *deltalite_error_hint(const deltalite_db *db);
DELTALITE_API int64_t deltalite_error_offset(const deltalite_db *db);
DELTALITE_API int64_t deltalite_error_line(const deltalite_db *db);
DELTALITE_API int64_t deltalite_error_column(const deltalite_db *db);
DELTALITE_API const char *deltalite_error_caret(const deltalite_db *db);

/* ---- results: columns ---------------------------------------------------------------------- */

/* The number of columns (0 for statements that return nothing). */
DELTALITE_API int32_t deltalite_result_column_count(const deltalite_result *result);

/* Column col's name as Spark names it ("count(1)", "amount"), or NULL when col is out of
 * range. Valid until deltalite_result_free. */
DELTALITE_API const char *deltalite_result_column_name(const deltalite_result *result, int32_t col);

/* Column col's type, or DELTALITE_TYPE_NULL when col is out of range. */
DELTALITE_API deltalite_type deltalite_result_column_type(const deltalite_result *result,
                                                          int32_t col);

/* Column col's type in Spark's spelling ("int", "decimal(10,2)", "array<string>",
 * "struct<a:int,b:string>"), or NULL when col is out of range. Valid until
 * deltalite_result_free. */
DELTALITE_API const char *deltalite_result_column_type_name(const deltalite_result *result,
                                                            int32_t col);

/* The precision and scale of a DECIMAL column (SCHEMA for other types, INVALID_ARG for col
 * out of range). */
DELTALITE_API deltalite_status deltalite_result_column_decimal(deltalite_result *result,
                                                               int32_t col, int32_t *out_precision,
                                                               int32_t *out_scale);

/* The kind of statement that produced the result, upper case: "SELECT", "CREATE TABLE",
 * "DESCRIBE HISTORY", ... Static storage. */
DELTALITE_API const char *deltalite_result_statement(const deltalite_result *result);

/* ---- results: rows ------------------------------------------------------------------------- */

/*
 * Moves to the next row: *out_has_row is true when there is one, false at the end (and every
 * later call). Errors while the query runs (a corrupt file, DATA for an overflow in ANSI mode
 * or raise_error) come back here, with db's last error set (its offset and caret in the SQL
 * text the result came from); the result then stays at its end.
 * Values of the previous row become invalid.
 */
DELTALITE_API deltalite_status deltalite_result_next_row(deltalite_result *result,
                                                         bool *out_has_row);

/* True when column col of the current row is NULL (also when there is no current row or col
 * is out of range). */
DELTALITE_API bool deltalite_result_is_null(deltalite_result *result, int32_t col);

/*
 * Typed getters for column col of the current row. Each returns OK, INVALID_ARG when there is
 * no current row, col is out of range or the value is NULL (check deltalite_result_is_null
 * first), or SCHEMA when the column's type does not convert:
 *
 *   get_bool       BOOLEAN
 *   get_int64      BYTE, SHORT, INT, LONG
 *   get_double     FLOAT, DOUBLE, any integer, DECIMAL (rounded to the nearest double)
 *   get_date       DATE: days since 1970-01-01
 *   get_timestamp  TIMESTAMP (microseconds since 1970-01-01 UTC), TIMESTAMP_NTZ (the
 *                  wall-clock time's microseconds since 1970-01-01 00:00, no zone)
 *   get_blob       STRING, BINARY: the raw bytes (*out_len bytes, no NUL added), valid until
 *                  the next row
 */
DELTALITE_API deltalite_status deltalite_result_get_bool(deltalite_result *result, int32_t col,
                                                         bool *out);
DELTALITE_API deltalite_status deltalite_result_get_int64(deltalite_result *result, int32_t col,
                                                          int64_t *out);
DELTALITE_API deltalite_status deltalite_result_get_double(deltalite_result *result, int32_t col,
                                                           double *out);
DELTALITE_API deltalite_status deltalite_result_get_date(deltalite_result *result, int32_t col,
                                                         int32_t *out_days);
DELTALITE_API deltalite_status deltalite_result_get_timestamp(deltalite_result *result, int32_t col,
                                                              int64_t *out_micros);
DELTALITE_API deltalite_status deltalite_result_get_blob(deltalite_result *result, int32_t col,
                                                         const void **out, size_t *out_len);

/*
 * Any value as text, the way Spark's CAST(x AS STRING) writes it: booleans true/false,
 * decimals with their scale (25.50), doubles as Java prints them (1.0, 1.0E10, NaN),
 * dates 2026-10-02, timestamps 2026-10-02 08:00:00[.ffffff] in the session time zone,
 * binary as its bytes, arrays [1, 2, null], maps {a -> 1}, structs {1, x},
 * intervals INTERVAL '1-2' YEAR TO MONTH and INTERVAL '3 04:05:06.5' DAY TO SECOND.
 * A NULL value gives OK with *out NULL (and *out_len 0). out_len may be NULL. The text is
 * NUL-terminated and valid until the next row or deltalite_result_free.
 */
DELTALITE_API deltalite_status deltalite_result_get_text(deltalite_result *result, int32_t col,
                                                         const char **out, size_t *out_len);

/*
 * Any value as JSON text: numbers and booleans bare (NaN and Infinity as strings), strings
 * quoted, structs and maps as objects (every field; NULL as null), arrays as arrays, dates and
 * timestamps as strings (timestamps ISO 8601 with the session zone's offset, as Spark's
 * to_json), binary in base64. A NULL value gives "null". The text is NUL-terminated and valid
 * until the next row, the next deltalite_result_get_json of the same column, or
 * deltalite_result_free. out_len may be NULL.
 */
DELTALITE_API deltalite_status deltalite_result_get_json(deltalite_result *result, int32_t col,
                                                         const char **out, size_t *out_len);

/* Frees the result (a query not read to its end stops). NULL is a no-op. */
DELTALITE_API void deltalite_result_free(deltalite_result *result);

/* ---- Arrow C stream export ----------------------------------------------------------------- */

/* The Arrow C Data Interface and C Stream Interface structures, exactly as the Arrow
 * specification defines them (CDataInterface.rst, CStreamInterface.rst), with its guards. */
#ifndef ARROW_C_DATA_INTERFACE
#    define ARROW_C_DATA_INTERFACE

#    define ARROW_FLAG_DICTIONARY_ORDERED 1
#    define ARROW_FLAG_NULLABLE           2
#    define ARROW_FLAG_MAP_KEYS_SORTED    4

struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};

struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};

#endif /* ARROW_C_DATA_INTERFACE */

#ifndef ARROW_C_STREAM_INTERFACE
#    define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    const char *(*get_last_error)(struct ArrowArrayStream *);
    void (*release)(struct ArrowArrayStream *);
    void *private_data;
};

#endif /* ARROW_C_STREAM_INTERFACE */

/*
 * Turns the rest of result into an Arrow C stream: the schema is a struct ("+s") with one
 * field per column (names and types as the columns', nullable), and each get_next yields one
 * record batch as a struct array (up to 2048 rows; zero-copy where the engine's vectors allow,
 * dictionary columns decoded). Formats: boolean "b", tinyint "c", smallint "s", int "i",
 * bigint "l", float "f", double "g", decimal "d:p,s" (decimal128), date "tdD", timestamp
 * "tsu:UTC", timestamp_ntz "tsu:", struct "+s", array "+l", map "+m", void "n"; string and
 * binary are Arrow's string and binary views, "vu" and "vz" (Arrow 15 and later; the buffers
 * are validity, the 16-byte views, the data buffers, then their int64 sizes), or plain "u" /
 * "z" and large "U" / "Z" with deltalite_result_to_arrow_flags. The end of the stream is an
 * array whose release is NULL. The callbacks return 0 or an errno value (EIO for engine
 * errors, ENOMEM, EINVAL) with the message in get_last_error; a failure is also db's last
 * error (deltalite_error_status gives its status class, deltalite_error_hint what to do).
 * Ownership: result moves into the stream, which frees it when released; do not use or free
 * result afterwards, whatever the status. Rows already read with next_row are not repeated.
 * Lifetime: release the stream before closing db; arrays it produced stay valid after the
 * stream and db are gone. Threads: the stream is used by one thread at a time; arrays may be
 * released on any thread.
 */
DELTALITE_API deltalite_status deltalite_result_to_arrow(deltalite_result *result,
                                                         struct ArrowArrayStream *out);

/* deltalite_result_to_arrow_flags: strings and binary in the formats consumers that predate
 * views read (the bytes are copied): */
#define DELTALITE_ARROW_PLAIN_STRINGS                                                       \
    1u                                   /* "u" / "z", int32 offsets (a batch over 2 GiB of \
                                            them fails with LIMIT) */
#define DELTALITE_ARROW_LARGE_STRINGS 2u /* "U" / "Z", int64 offsets */

/* As deltalite_result_to_arrow, with flags (0 or one DELTALITE_ARROW_*; else INVALID_ARG, and
 * result is freed as always). Also inside structs, arrays and maps. */
DELTALITE_API deltalite_status deltalite_result_to_arrow_flags(deltalite_result *result,
                                                               uint32_t flags,
                                                               struct ArrowArrayStream *out);

/* deltalite_query then deltalite_result_to_arrow: the last statement's rows as a stream. */
DELTALITE_API deltalite_status deltalite_query_arrow(deltalite_db *db, const char *sql,
                                                     struct ArrowArrayStream *out);

/* ---- Arrow data as a relation -------------------------------------------------------------- */

/*
 * Makes the rows of an Arrow C stream readable by db's SQL as the temporary relation name:
 * SELECT ... FROM name, a join, MERGE INTO t USING name, INSERT INTO t SELECT * FROM name.
 * The stream is read to its end now and released before the call returns; its arrays are
 * kept for the session (until deltalite_unregister, a new registration of the name, or
 * deltalite_close), sharing the buffers whose layout is the engine's (integers, floats,
 * decimal128, date32, timestamp[us], string/binary views and the bytes of utf8/binary);
 * validity bitmaps and booleans are copied, utf8/binary offsets become views, unsigned
 * integers widen (uint64 past bigint is refused), timestamps in s/ms/ns become microseconds
 * (a value with sub-microsecond digits is refused), dictionaries stay dictionaries.
 * Columns take the Spark type of their Arrow type: a timestamp with a time zone is TIMESTAMP,
 * one without is TIMESTAMP_NTZ; types without a Spark type (half floats, unions, ...) are
 * refused naming the column.
 * Names: a plain identifier (no '.' or '`'), matched without case as Spark's. As Spark's
 * temporary views, an unqualified name finds the relation before any table (a table of the
 * same name stays reachable as schema.name), registering a name again replaces the relation,
 * and statements that change, describe or vacuum a table refuse the name. A result already
 * reading a relation keeps its rows when the relation is replaced or removed.
 * Returns OK, INVALID_ARG (a bad name, a released stream, a record batch with null rows),
 * UNSUPPORTED (an Arrow type without a Spark type), SCHEMA (a value the engine cannot hold),
 * IO (the stream's callbacks failed: their message is in the error), NOMEM.
 * Ownership: stream moves into the call, whatever the status (its release has run when the
 * call returns). The arrays' producer may be in another library; their release callbacks run
 * when the relation and every result reading it are gone, on whichever thread frees them.
 */
DELTALITE_API deltalite_status deltalite_register_arrow_stream(deltalite_db *db, const char *name,
                                                               struct ArrowArrayStream *stream);

/* Removes the temporary relation name; *out_found (out_found may be NULL) says whether there
 * was one. Results already reading it keep its rows. */
DELTALITE_API deltalite_status deltalite_unregister(deltalite_db *db, const char *name,
                                                    bool *out_found);

#ifdef __cplusplus
}
#endif

#endif /* DELTALITE_H */
