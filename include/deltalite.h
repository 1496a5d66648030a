/* SPDX-License-Identifier: Apache-2.0 */
/*
 * deltalite: Delta Lake in C. This is the one public header.
 *
 * Caveats (read first):
 * - This is an early version: only the version functions exist yet. Opening a warehouse,
 *   running SQL and reading results come with the SQL engine.
 * - Every symbol is prefixed deltalite_ / DELTALITE_; nothing else is exported.
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
    DELTALITE_ERROR_INVALID_ARG = 1,  /* the caller misused the API */
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
    DELTALITE_ERROR_LIMIT = 15        /* input exceeds a size or depth limit */
} deltalite_status;

/* The library version as "MAJOR.MINOR.PATCH". Static storage; thread-safe. */
DELTALITE_API const char *deltalite_version(void);

/* The stable name of a status code ("OK", "CORRUPT", ...). Static storage; thread-safe. */
DELTALITE_API const char *deltalite_status_name(deltalite_status status);

#ifdef __cplusplus
}
#endif

#endif /* DELTALITE_H */
