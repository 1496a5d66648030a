/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Running SQL text: the script is split at its ';' (dl_sql_splitter knows strings, quoted
 * names and comments), each statement goes to the engine on its own, and an error's offset,
 * which the engine gives relative to its statement (while it binds, and while it runs: an
 * expression that divides by zero), is moved to count from the start of the caller's text so
 * the caret lands in the right place.
 */
#include <stdio.h>
#include <string.h>

#include "api/api_int.h"
#include "sql/parse/sql_parse.h"

static deltalite_status
check_db(deltalite_db *db, const char *what) {
    if (db == NULL) {
        return DELTALITE_ERROR_INVALID_ARG;
    }
    if (!db->is_open) {
        (void)dl_api_failf(db, DL_ERR_INVALID_ARG, "%s: the warehouse failed to open", what);
        return DELTALITE_ERROR_INVALID_ARG;
    }
    return DELTALITE_OK;
}

/* Reads a result to its end, so that execution errors surface. */
static dl_status
drain(dl_sql_result *res, dl_error *err) {
    const dl_batch *batch = NULL;
    do {
        DL_TRY(dl_sql_result_next(res, &batch, err));
    } while (batch != NULL);
    return DL_OK;
}

/*
 * The engine counts lines and columns from the start of its statement; the caller's text may
 * hold statements before it. Moves err->offset to count from the start of sql, and rewrites the
 * message's "line L, column C" (when it names that same place) to the position in sql.
 */
void
dl_api_engine_error(const char *sql, size_t len, const dl_sql_piece *piece, dl_error *err) {
    if (err->code == DL_ERR_INVALID_ARG) {
        err->code = DL_ERR_DATA;
    }
    if (sql == NULL || err->offset < 0 || piece->offset == 0) {
        return;
    }
    uint32_t rel_line = 0;
    uint32_t rel_col = 0;
    dl_sql_offset_to_line_col(sql + piece->offset, piece->len, (size_t)err->offset, &rel_line,
                              &rel_col);
    err->offset += (int64_t)piece->offset;
    uint32_t line = 0;
    uint32_t col = 0;
    dl_sql_offset_to_line_col(sql, len, (size_t)err->offset, &line, &col);
    char from[48];
    char to[48];
    (void)snprintf(from, sizeof(from), "line %u, column %u", rel_line, rel_col);
    (void)snprintf(to, sizeof(to), "line %u, column %u", line, col);
    char *at = strstr(err->msg, from);
    size_t n_from = strlen(from);
    size_t n_to = strlen(to);
    size_t msg_len = strlen(err->msg);
    if (at == NULL || msg_len - n_from + n_to >= sizeof(err->msg)) {
        return;
    }
    memmove(at + n_to, at + n_from, msg_len - (size_t)(at - err->msg) - n_from + 1);
    memcpy(at, to, n_to);
}

/* Runs one piece; *out receives its result when out is not NULL, else it is drained. */
static dl_status
run_piece(deltalite_db *db, const char *sql, size_t len, const dl_sql_piece *piece,
          dl_sql_result **out, dl_error *err) {
    dl_sql_result *res = NULL;
    dl_status st = dl_sql_exec(db->session, sql + piece->offset, piece->len, &res, err);
    if (st == DL_OK && out != NULL) {
        *out = res;
        return DL_OK;
    }
    if (st == DL_OK) {
        st = drain(res, err); /* a runtime error's offset counts in its statement too */
    }
    dl_sql_result_free(res);
    if (st != DL_OK) {
        dl_api_engine_error(sql, len, piece, err);
        return (dl_status)err->code;
    }
    return DL_OK;
}

/*
 * Runs the statements of sql[0, len); with out, the last one's result is kept in *out (NULL
 * when there is no statement) and its place in *out_piece.
 */
static dl_status
run_script(deltalite_db *db, const char *sql, size_t len, dl_sql_result **out,
           dl_sql_piece *out_piece, dl_error *err) {
    dl_sql_splitter sp;
    dl_sql_splitter_init(&sp, sql, len);
    dl_sql_piece piece;
    bool has_piece = dl_sql_splitter_next(&sp, &piece);
    int64_t n_done = 0;
    while (has_piece) {
        dl_sql_piece next;
        bool has_next = dl_sql_splitter_next(&sp, &next);
        bool is_last = !has_next;
        DL_TRY(run_piece(db, sql, len, &piece, is_last ? out : NULL, err));
        if (is_last && out_piece != NULL) {
            *out_piece = piece;
        }
        n_done++;
        /* An interrupt that came after a statement finished (its commit landed) stops the
         * statements after it; the error says what ran. */
        DL_CHECK(is_last || !dl_sql_session_is_interrupted(db->session), err, DL_ERR_INTERRUPTED,
                 "interrupted after %lld statement%s ran to completion (what they changed is "
                 "committed); the statements after them were not run",
                 (long long)n_done, n_done == 1 ? "" : "s");
        piece = next;
        has_piece = has_next;
    }
    return DL_OK;
}

deltalite_status
deltalite_exec(deltalite_db *db, const char *sql) {
    deltalite_status ds = check_db(db, "deltalite_exec");
    if (ds != DELTALITE_OK) {
        return ds;
    }
    if (sql == NULL) {
        (void)dl_api_failf(db, DL_ERR_INVALID_ARG, "deltalite_exec: sql is NULL");
        return DELTALITE_ERROR_INVALID_ARG;
    }
    dl_error err;
    dl_error_clear(&err);
    size_t len = strlen(sql);
    dl_status st = run_script(db, sql, len, NULL, NULL, &err);
    if (st != DL_OK) {
        return dl_api_fail(db, &err, sql, len);
    }
    dl_api_ok(db);
    return DELTALITE_OK;
}

deltalite_status
deltalite_query_len(deltalite_db *db, const char *sql, size_t len, deltalite_result **out) {
    if (out != NULL) {
        *out = NULL;
    }
    deltalite_status ds = check_db(db, "deltalite_query");
    if (ds != DELTALITE_OK) {
        return ds;
    }
    if (sql == NULL || out == NULL) {
        (void)dl_api_failf(db, DL_ERR_INVALID_ARG, "deltalite_query: sql or out is NULL");
        return DELTALITE_ERROR_INVALID_ARG;
    }
    dl_error err;
    dl_error_clear(&err);
    dl_sql_result *res = NULL;
    dl_sql_piece piece = {0};
    dl_status st = run_script(db, sql, len, &res, &piece, &err);
    if (st == DL_OK && res == NULL) {
        (void)dl_api_failf(db, DL_ERR_INVALID_ARG,
                           "deltalite_query: the SQL text holds no statement");
        return DELTALITE_ERROR_INVALID_ARG;
    }
    if (st == DL_OK) {
        st = dl_api_result_new(db, res, sql, len, &piece, out, &err);
    }
    if (st != DL_OK) {
        return dl_api_fail(db, &err, sql, len);
    }
    dl_api_ok(db);
    return DELTALITE_OK;
}

deltalite_status
deltalite_query(deltalite_db *db, const char *sql, deltalite_result **out) {
    return deltalite_query_len(db, sql, sql ? strlen(sql) : 0, out);
}

bool
deltalite_is_complete(const char *sql) {
    return sql != NULL && dl_sql_text_is_complete(sql, strlen(sql));
}
