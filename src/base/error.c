/* SPDX-License-Identifier: Apache-2.0 */
/* The error value: formatting, context prefixes and status names. */
#include "base/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const status_names[DL_STATUS_COUNT] = {
    [DL_OK] = "OK",
    [DL_ERR_INVALID_ARG] = "INVALID_ARG",
    [DL_ERR_NOMEM] = "NOMEM",
    [DL_ERR_IO] = "IO",
    [DL_ERR_NOT_FOUND] = "NOT_FOUND",
    [DL_ERR_CORRUPT] = "CORRUPT",
    [DL_ERR_UNSUPPORTED] = "UNSUPPORTED",
    [DL_ERR_SCHEMA] = "SCHEMA",
    [DL_ERR_CONFLICT] = "CONFLICT",
    [DL_ERR_SQL_SYNTAX] = "SQL_SYNTAX",
    [DL_ERR_SQL_BIND] = "SQL_BIND",
    [DL_ERR_CONSTRAINT] = "CONSTRAINT",
    [DL_ERR_INTERRUPTED] = "INTERRUPTED",
    [DL_ERR_INTERNAL] = "INTERNAL",
    [DL_ERR_EXISTS] = "EXISTS",
    [DL_ERR_LIMIT] = "LIMIT",
    [DL_ERR_READONLY] = "READONLY",
    [DL_ERR_DATA] = "DATA",
};

const char *
dl_status_name(dl_status code) {
    if ((unsigned)code >= DL_STATUS_COUNT || status_names[code] == NULL) {
        return "UNKNOWN";
    }
    return status_names[code];
}

void
dl_error_clear(dl_error *err) {
    if (err == NULL) {
        return;
    }
    err->code = DL_OK;
    err->sys_errno = 0;
    err->version = -1;
    err->offset = -1;
    err->msg[0] = '\0';
    err->hint[0] = '\0';
    err->where[0] = '\0';
}

dl_status
dl_error_setv(dl_error *err, dl_status code, const char *fmt, va_list ap) {
    if (err == NULL) {
        return code;
    }
    char where[DL_ERROR_WHERE_CAP];
    memcpy(where, err->where, sizeof(where));
    dl_error_clear(err);
    memcpy(err->where, where, sizeof(where));
    err->code = code;
    int n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
    if (n < 0) {
        err->msg[0] = '\0';
    }
    return code;
}

dl_status
dl_error_set(dl_error *err, dl_status code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    dl_status s = dl_error_setv(err, code, fmt, ap);
    va_end(ap);
    return s;
}

dl_status
dl_error_set_errno(dl_error *err, dl_status code, int errnum, const char *fmt, ...) {
    if (err == NULL) {
        return code;
    }
    va_list ap;
    va_start(ap, fmt);
    dl_error_setv(err, code, fmt, ap);
    va_end(ap);
    err->sys_errno = errnum;
    size_t len = strlen(err->msg);
    if (len < sizeof(err->msg)) {
        int n = snprintf(err->msg + len, sizeof(err->msg) - len, ": %s", strerror(errnum));
        DL_UNUSED(n);
    }
    return code;
}

void
dl_error_prefix(dl_error *err, const char *fmt, ...) {
    if (err == NULL) {
        return;
    }
    char prefix[DL_ERROR_MSG_CAP];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(prefix, sizeof(prefix), fmt, ap);
    va_end(ap);
    if (n <= 0) {
        return;
    }
    /* prefix + ": " + old message, cut at the end so the outermost context survives. */
    char joined[DL_ERROR_MSG_CAP];
    size_t cap = sizeof(joined) - 1;
    size_t len = strlen(prefix);
    len = len < cap ? len : cap;
    memcpy(joined, prefix, len);
    const char *sep = ": ";
    for (size_t i = 0; sep[i] != '\0' && len < cap; i++) {
        joined[len++] = sep[i];
    }
    size_t old_len = strlen(err->msg);
    size_t take = old_len < cap - len ? old_len : cap - len;
    memcpy(joined + len, err->msg, take);
    len += take;
    joined[len] = '\0';
    memcpy(err->msg, joined, len + 1);
}

void
dl_error_hint(dl_error *err, const char *fmt, ...) {
    if (err == NULL) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(err->hint, sizeof(err->hint), fmt, ap);
    va_end(ap);
    if (n < 0) {
        err->hint[0] = '\0';
    }
}

void
dl_error_where(dl_error *err, const char *file, int line) {
    if (err == NULL) {
        return;
    }
    const char *slash = strrchr(file, '/');
    int n = snprintf(err->where, sizeof(err->where), "%s:%d", slash ? slash + 1 : file, line);
    DL_UNUSED(n);
}

#ifndef NDEBUG
void
dl_assert_fail(const char *cond, const char *file, int line) {
    /* An internal invariant is broken: this is a bug in deltalite, not bad input. */
    int n =
        fprintf(stderr, "deltalite: internal assertion failed: %s at %s:%d\n", cond, file, line);
    DL_UNUSED(n);
    abort();
}
#endif
