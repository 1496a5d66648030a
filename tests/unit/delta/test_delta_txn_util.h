/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers for the write-side tests: tables made through transactions, and a checker that
 * validates a whole _delta_log against the protocol (PROTOCOL.md):
 *
 *   - no temporary files left; commits contiguous from the first to the last;
 *   - every line one object with one action; commitInfo first, with Spark's fields (timestamp,
 *     operation, operationParameters object, operationMetrics of integer strings,
 *     isolationLevel, isBlindAppend, engineInfo "deltalite/...", txnId, readVersion below the
 *     version); inCommitTimestamp present and increasing while the table has it enabled;
 *   - every action's required fields with their types ("Actions"); metaData schemaString
 *     parses and holds the partition columns; protocol lists match the versions;
 *   - per commit at most one metaData, one protocol, one add and one remove per path, one
 *     txn per appId, one domain per name; the first commit has protocol and metaData;
 *   - replay by (path, deletion vector id): adds of a path live with another DV are legal
 *     only with a remove of it; the live files at the end equal the read side's snapshot;
 *   - checkpoints: Spark's column layout (txn, add, remove, metaData, protocol,
 *     domainMetadata with their fields in order, no stats/tags in remove), one non-null
 *     action per row, one protocol and one metaData row, add rows equal to the live files
 *     of that version when the commits are there to replay;
 *   - _last_checkpoint: version, size, sizeInBytes and numOfAddFiles match its checkpoint.
 */
#ifndef DL_TESTS_DELTA_TXN_UTIL_H
#define DL_TESTS_DELTA_TXN_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "delta/delta_txn.h"
#include "test_delta_log_util.h"

/* Reopens t's store without fsync (dl_store_local_options.is_volatile) for fast tests. */
bool tw_volatile(tl_table *t);

/* Validates the table's log; on failure false and why[] says what (printed by the caller). */
bool tw_check_log(tl_table *t, char *why, size_t cap);

/* CHECK that the log passes the checker, printing why otherwise. */
#define CHECK_LOG(t)                                          \
    do {                                                      \
        char tw_why_[1024];                                   \
        if (!tw_check_log((t), tw_why_, sizeof(tw_why_))) {   \
            HARNESS_FAIL_AT("log check failed: %s", tw_why_); \
            return;                                           \
        }                                                     \
    } while (0)

/* A schema from its JSON, in arena (aborts the test process on a bad literal). */
dl_delta_schema tw_schema(dl_arena *arena, const char *json);

/* Creates a table: schema JSON, partition columns (n), configuration pairs (n). Returns the
 * status; *out_res (may be NULL) receives the commit result. */
dl_status tw_create(tl_table *t, const char *schema_json, const char *const *parts, int32_t n_parts,
                    const dl_delta_kv *conf, int32_t n_conf, dl_delta_commit_result *out_res,
                    dl_error *err);

/* Appends one file (stats numRecords=rows) to the latest snapshot as a blind append.
 * pv/n_pv: partition values. opts may be NULL. */
dl_status tw_append(tl_table *t, const char *path, const dl_delta_kv *pv, int32_t n_pv,
                    int64_t rows, const dl_delta_tx_options *opts, dl_delta_commit_result *out_res,
                    dl_error *err);

/* The latest snapshot (NULL on failure, err set). */
dl_delta_snapshot *tw_latest(tl_table *t, dl_error *err);

/* The live file of snap at path, or NULL. */
const dl_delta_file *tw_file_named(const dl_delta_snapshot *snap, const char *path);

/* The text of _delta_log/<name> into buf (NUL-terminated); false when unreadable. */
bool tw_read_log_file(tl_table *t, const char *name, char *buf, size_t cap);

/* The number of lines of commit `version` whose action key is `action`. */
int tw_count_actions(tl_table *t, int64_t version, const char *action);

/* A simple schema: id long, p string (for a table partitioned by p). */
#define TW_SCHEMA_ID_P                                                                       \
    "{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true," \
    "\"metadata\":{}},{\"name\":\"p\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}}]}"

#endif /* DL_TESTS_DELTA_TXN_UTIL_H */
