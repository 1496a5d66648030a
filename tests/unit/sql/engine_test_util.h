/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers for the engine's tests: a session over a catalog (or none), running a statement and
 * rendering its rows as text in sqllogictest's style (values tab-separated, rows newline
 * terminated, NULL as "NULL", decimals with their scale, dates yyyy-MM-dd).
 */
#ifndef DL_TESTS_ENGINE_TEST_UTIL_H
#define DL_TESTS_ENGINE_TEST_UTIL_H

#include "base/buf.h"
#include "sql/sql_engine.h"

/* A session without tables (no catalog callbacks), on a pool of n_workers (0 = no pool). */
dl_sql_session *et_session(int n_workers);
void et_session_free(dl_sql_session *s);

/* Runs sql and appends every row to out as text. Returns the status; err filled on failure. */
dl_status et_query(dl_sql_session *s, const char *sql, dl_buf *out, dl_error *err);

/* Renders one value of a batch (live row k of column c) into out. */
dl_status et_value(const dl_batch *batch, int32_t c, int64_t k, dl_buf *out, dl_error *err);

/* Runs sql and compares its text with want; prints both on mismatch. Returns 1 when equal. */
int et_check(dl_sql_session *s, const char *sql, const char *want);

/* Runs sql, which must fail with code and a message containing needle. Returns 1 when so. */
int et_check_error(dl_sql_session *s, const char *sql, dl_status code, const char *needle);

#endif /* DL_TESTS_ENGINE_TEST_UTIL_H */
