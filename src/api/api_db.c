/* SPDX-License-Identifier: Apache-2.0 */
/*
 * deltalite_db: a warehouse catalog, a worker pool and a SQL session behind one handle, and
 * the handle's last error.
 *
 * A failed deltalite_open still returns a handle (unless memory ran out first) so that the
 * caller can read why it failed with the same deltalite_error_* functions as for every other
 * call; such a handle answers nothing else and only needs closing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "api/api_int.h"
#include "base/base.h"
#include "sql/parse/sql_parse.h"

/* ---- the last error ------------------------------------------------------------------------ */

void
dl_api_ok(deltalite_db *db) {
    if (db == NULL) {
        return;
    }
    dl_error_clear(&db->err);
    dl_buf_reset(&db->caret);
    db->err_line = 0;
    db->err_col = 0;
}

deltalite_status
dl_api_fail(deltalite_db *db, const dl_error *err, const char *sql, size_t len) {
    if (db == NULL) {
        return (deltalite_status)err->code;
    }
    if (&db->err != err) {
        db->err = *err;
    }
    dl_buf_reset(&db->caret);
    db->err_line = 0;
    db->err_col = 0;
    if (sql != NULL && db->err.offset >= 0) {
        if ((size_t)db->err.offset > len) {
            db->err.offset = (int64_t)len;
        }
        uint32_t line = 0;
        uint32_t col = 0;
        dl_sql_offset_to_line_col(sql, len, (size_t)db->err.offset, &line, &col);
        db->err_line = line;
        db->err_col = col;
        if (dl_sql_render_caret(sql, len, db->err.offset, &db->caret, NULL) != DL_OK) {
            dl_buf_reset(&db->caret);
        }
        /* the rendering ends with a newline; the accessor returns the two lines without it */
        while (db->caret.len > 0 && db->caret.data[db->caret.len - 1] == '\n') {
            db->caret.len--;
        }
    }
    (void)dl_buf_cstr(&db->caret);
    return (deltalite_status)db->err.code;
}

deltalite_status
dl_api_failf(deltalite_db *db, dl_status code, const char *fmt, ...) {
    dl_error err;
    dl_error_clear(&err);
    va_list ap;
    va_start(ap, fmt);
    (void)dl_error_setv(&err, code, fmt, ap);
    va_end(ap);
    return dl_api_fail(db, &err, NULL, 0);
}

deltalite_status
deltalite_error_status(const deltalite_db *db) {
    return db ? (deltalite_status)db->err.code : DELTALITE_ERROR_NOMEM;
}

const char *
deltalite_error_message(const deltalite_db *db) {
    return db ? db->err.msg : "out of memory";
}

const char *
deltalite_error_hint(const deltalite_db *db) {
    return db ? db->err.hint : "";
}

int64_t
deltalite_error_offset(const deltalite_db *db) {
    return db && db->err.code != DL_OK ? db->err.offset : -1;
}

int64_t
deltalite_error_line(const deltalite_db *db) {
    return db ? db->err_line : 0;
}

int64_t
deltalite_error_column(const deltalite_db *db) {
    return db ? db->err_col : 0;
}

const char *
deltalite_error_caret(const deltalite_db *db) {
    if (db == NULL || db->caret.len == 0) {
        return "";
    }
    return (const char *)db->caret.data;
}

/* ---- open and close ----------------------------------------------------------------------- */

static int
default_workers(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) {
        return 1;
    }
    return n > DL_POOL_MAX_WORKERS ? DL_POOL_MAX_WORKERS : (int)n;
}

static dl_status
check_options(const deltalite_options *o, dl_error *err) {
    if (o == NULL) {
        return DL_OK;
    }
    DL_CHECK(o->threads >= -1 && o->threads <= DL_POOL_MAX_WORKERS, err, DL_ERR_INVALID_ARG,
             "deltalite_open: threads must be -1, 0 or 1..%d, got %d", DL_POOL_MAX_WORKERS,
             (int)o->threads);
    uint32_t known = DELTALITE_OPEN_CREATE | DELTALITE_OPEN_NO_FSYNC | DELTALITE_OPEN_READONLY;
    DL_CHECK((o->flags & ~known) == 0, err, DL_ERR_INVALID_ARG,
             "deltalite_open: unknown flags 0x%x", (unsigned)(o->flags & ~known));
    DL_CHECK((o->flags & DELTALITE_OPEN_CREATE) == 0 || (o->flags & DELTALITE_OPEN_READONLY) == 0,
             err, DL_ERR_INVALID_ARG,
             "deltalite_open: DELTALITE_OPEN_CREATE and DELTALITE_OPEN_READONLY together: a "
             "read-only warehouse cannot be created");
    for (size_t i = 0; i < DL_ARRAY_LEN(o->reserved); i++) {
        DL_CHECK(o->reserved[i] == NULL, err, DL_ERR_INVALID_ARG,
                 "deltalite_open: options.reserved must be NULL (zero-initialise the options)");
    }
    return DL_OK;
}

static dl_status
open_parts(deltalite_db *db, const char *warehouse, const deltalite_options *o, dl_error *err) {
    DL_CHECK(warehouse != NULL, err, DL_ERR_INVALID_ARG, "deltalite_open: warehouse is NULL");
    DL_TRY(check_options(o, err));
    dl_cat_options cat_opts = {.alloc = db->alloc,
                               .create_if_missing = o && (o->flags & DELTALITE_OPEN_CREATE),
                               .is_volatile = o && (o->flags & DELTALITE_OPEN_NO_FSYNC),
                               .is_readonly = o && (o->flags & DELTALITE_OPEN_READONLY)};
    DL_TRY(dl_cat_new(warehouse, &cat_opts, &db->cat, err));
    int32_t threads = o ? o->threads : 0;
    if (threads >= 0) {
        DL_TRY(dl_pool_new(threads == 0 ? default_workers() : threads, db->alloc, &db->pool, err));
    }
    dl_sql_session_config config = {.store = dl_cat_store(db->cat),
                                    .alloc = db->alloc,
                                    .pool = db->pool,
                                    .time_zone = o ? o->time_zone : NULL};
    dl_cat_sql_catalog(db->cat, &config.catalog);
    dl_status st = dl_sql_session_new(&config, &db->session, err);
    if (st == DL_ERR_DATA) {
        /* the engine's INVALID_CONF_VALUE for options.time_zone: a bad option */
        err->code = DL_ERR_INVALID_ARG;
        return DL_ERR_INVALID_ARG;
    }
    return st;
}

deltalite_status
deltalite_open(const char *warehouse, const deltalite_options *options, deltalite_db **out) {
    if (out == NULL) {
        return DELTALITE_ERROR_INVALID_ARG;
    }
    const dl_allocator *alloc = dl_allocator_default();
    deltalite_db *db = dl_mem_alloc_zero(alloc, sizeof(*db));
    *out = db;
    if (db == NULL) {
        return DELTALITE_ERROR_NOMEM;
    }
    db->alloc = alloc;
    dl_buf_init(&db->caret, alloc);
    dl_error_clear(&db->err);
    dl_error err;
    dl_error_clear(&err);
    dl_status st = open_parts(db, warehouse, options, &err);
    if (st != DL_OK) {
        dl_sql_session_free(db->session);
        db->session = NULL;
        dl_pool_free(db->pool);
        db->pool = NULL;
        dl_cat_free(db->cat);
        db->cat = NULL;
        return dl_api_fail(db, &err, NULL, 0);
    }
    db->is_open = true;
    return DELTALITE_OK;
}

void
deltalite_interrupt(deltalite_db *db) {
    if (db != NULL) {
        dl_sql_session_interrupt(db->session);
    }
}

void
deltalite_progress(const deltalite_db *db, int64_t *out_done, int64_t *out_total) {
    int64_t done = 0;
    int64_t total = 0;
    if (db != NULL && db->session != NULL) {
        dl_sql_session_progress(db->session, &done, &total);
    }
    if (out_done != NULL) {
        *out_done = done;
    }
    if (out_total != NULL) {
        *out_total = total;
    }
}

deltalite_status
deltalite_close(deltalite_db *db) {
    if (db == NULL) {
        return DELTALITE_OK;
    }
    if (db->n_open > 0) {
        (void)dl_api_failf(db, DL_ERR_INVALID_ARG,
                           "deltalite_close: %lld results, Arrow streams or prepared statements "
                           "are still open; free them first",
                           (long long)db->n_open);
        return DELTALITE_ERROR_INVALID_ARG;
    }
    dl_sql_session_free(db->session);
    dl_pool_free(db->pool);
    dl_cat_free(db->cat);
    dl_buf_destroy(&db->caret);
    dl_mem_free(db->alloc, db, sizeof(*db));
    return DELTALITE_OK;
}

const char *
deltalite_warehouse(const deltalite_db *db) {
    return db && db->cat ? dl_cat_root(db->cat) : "";
}
