/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The error value. Every fallible internal function returns a dl_status and takes a
 * caller-owned dl_error as its last parameter. Reporting never allocates, so out-of-memory
 * and disk-full paths can still explain themselves. A NULL dl_error is accepted everywhere:
 * the status still comes back, only the message is lost.
 *
 * Messages read outer-to-inner: the part that detects a fault writes what it knows (a byte
 * offset, a field), and each caller on the way up prepends its own context (the file, then
 * the table and version) with DL_TRY_CTX or dl_error_prefix.
 */
#ifndef DL_BASE_ERROR_H
#define DL_BASE_ERROR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/compiler.h"

/* Status classes. The numeric values are stable: they become the public API's codes. */
typedef enum dl_status {
    DL_OK = 0,               /* success */
    DL_ERR_INVALID_ARG = 1,  /* the caller misused an API (a bug in the caller) */
    DL_ERR_NOMEM = 2,        /* an allocation failed */
    DL_ERR_IO = 3,           /* the operating system refused a read, write or sync */
    DL_ERR_NOT_FOUND = 4,    /* a file, table, column or version does not exist */
    DL_ERR_CORRUPT = 5,      /* bytes from outside violate their format's specification */
    DL_ERR_UNSUPPORTED = 6,  /* valid input that uses a feature deltalite does not have */
    DL_ERR_SCHEMA = 7,       /* types or schemas do not match */
    DL_ERR_CONFLICT = 8,     /* another writer won and our work is no longer valid */
    DL_ERR_SQL_SYNTAX = 9,   /* SQL text does not parse */
    DL_ERR_SQL_BIND = 10,    /* SQL names or types do not resolve */
    DL_ERR_CONSTRAINT = 11,  /* a table constraint or invariant was violated */
    DL_ERR_INTERRUPTED = 12, /* the operation was cancelled */
    DL_ERR_INTERNAL = 13,    /* a bug in deltalite */
    DL_ERR_EXISTS = 14,      /* the object to create already exists (put-if-absent lost) */
    DL_ERR_LIMIT = 15,       /* input exceeds a configured size or depth limit */
    DL_ERR_READONLY = 16,    /* a write to a store opened read-only */
    DL_ERR_DATA = 17,        /* a value is invalid for the operation: division by zero, a cast
                                that fails, an overflow, a bad argument value at run time */
} dl_status;

#define DL_STATUS_COUNT 18

#define DL_ERROR_MSG_CAP   1024
#define DL_ERROR_HINT_CAP  256
#define DL_ERROR_WHERE_CAP 64

/* Caller-owned, fixed-size error record. Fields other than code and msg are optional. */
typedef struct dl_error {
    dl_status code;                 /* the status class of the failure */
    int sys_errno;                  /* errno of the failed system call, or 0 */
    int64_t version;                /* table version the failure concerns, or -1 */
    int64_t offset;                 /* byte offset in the input (file, JSON text, SQL), or -1 */
    char msg[DL_ERROR_MSG_CAP];     /* what failed and why, with context, NUL-terminated */
    char hint[DL_ERROR_HINT_CAP];   /* what the user can do about it, or empty */
    char where[DL_ERROR_WHERE_CAP]; /* source file:line that raised it (debug builds) */
} dl_error;

/* Resets err to "no error". NULL-tolerant. */
void dl_error_clear(dl_error *err);

/* Sets code and a formatted message (replacing any previous one) and returns code, so that
 * `return dl_error_set(err, DL_ERR_CORRUPT, "...")` reads naturally. NULL-tolerant. */
dl_status dl_error_set(dl_error *err, dl_status code, const char *fmt, ...) DL_PRINTF(3, 4);
dl_status dl_error_setv(dl_error *err, dl_status code, const char *fmt, va_list ap) DL_PRINTF(3, 0);

/* As dl_error_set, and also records errnum and appends ": <strerror(errnum)>". */
dl_status dl_error_set_errno(dl_error *err, dl_status code, int errnum, const char *fmt, ...)
    DL_PRINTF(4, 5);

/* Prepends "<context>: " to the message, keeping the code. Truncates at the end, never the
 * front, so the outermost context survives. NULL-tolerant. */
void dl_error_prefix(dl_error *err, const char *fmt, ...) DL_PRINTF(2, 3);

/* Sets the hint: what the user should do. NULL-tolerant. */
void dl_error_hint(dl_error *err, const char *fmt, ...) DL_PRINTF(2, 3);

/* Records the raising source location (used by the macros in debug builds). */
void dl_error_where(dl_error *err, const char *file, int line);

/* The stable name of a status class: "OK", "CORRUPT", ... Never NULL. */
const char *dl_status_name(dl_status code);

#ifdef NDEBUG
#    define DL_ERROR_WHERE(err) ((void)0)
#else
#    define DL_ERROR_WHERE(err) dl_error_where((err), __FILE__, __LINE__)
#endif

/* Forwards a non-OK status unchanged. */
#define DL_TRY(expr)                                \
    do {                                            \
        dl_status dl_try_status_ = (expr);          \
        if (DL_UNLIKELY(dl_try_status_ != DL_OK)) { \
            return dl_try_status_;                  \
        }                                           \
    } while (0)

/* Forwards a non-OK status after prepending context to err's message. */
#define DL_TRY_CTX(expr, err, ...)                  \
    do {                                            \
        dl_status dl_try_status_ = (expr);          \
        if (DL_UNLIKELY(dl_try_status_ != DL_OK)) { \
            dl_error_prefix((err), __VA_ARGS__);    \
            return dl_try_status_;                  \
        }                                           \
    } while (0)

/* Sets err and returns code. */
#define DL_FAIL(err, code, ...)                         \
    do {                                                \
        DL_ERROR_WHERE(err);                            \
        (void)dl_error_set((err), (code), __VA_ARGS__); \
        return (code);                                  \
    } while (0)

/* Sets err and returns code when cond is false. */
#define DL_CHECK(cond, err, code, ...)           \
    do {                                         \
        if (DL_UNLIKELY(!(cond))) {              \
            DL_FAIL((err), (code), __VA_ARGS__); \
        }                                        \
    } while (0)

#endif /* DL_BASE_ERROR_H */
