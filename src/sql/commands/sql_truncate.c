/* SPDX-License-Identifier: Apache-2.0 */
/*
 * TRUNCATE TABLE t (sql_dml.h), as Delta runs it: one commit that removes every live file,
 * operation TRUNCATE with no operationParameters and the metrics numRemovedFiles and
 * executionTimeMs (what Delta 4.4 writes). The table's schema, properties and history stay;
 * the files stay on disk for time travel until VACUUM. A PARTITION clause is refused as Delta
 * refuses it (DELTA_TRUNCATE_TABLE_PARTITION_NOT_SUPPORTED); a view or a temporary relation
 * is refused by opening the target (EXPECT_TABLE_NOT_VIEW).
 */
#include "sql/commands/sql_dml.h"

dl_status
dl_sql_dml_truncate(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    int64_t start_ms = dl_sql_dml_clock_ms();
    const dl_sql_name *name = &stmt->u.truncate.table;
    if (stmt->u.truncate.partition.n > 0) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err,
                         "[DELTA_TRUNCATE_TABLE_PARTITION_NOT_SUPPORTED] Operation not allowed: "
                         "TRUNCATE TABLE on Delta tables does not support partition predicates; "
                         "use DELETE to delete specific partitions or rows");
    }
    dl_sql_dml_target t;
    DL_TRY(dl_sql_dml_open(b, name, name->parts[0].loc, &t, err));
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(t.table, t.snap, NULL, &tx, err));
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_TRUNCATE);
    dl_delta_tx_read_whole_table(tx);
    int64_t n_files = 0;
    int64_t n_bytes = 0;
    dl_status s = dl_sql_dml_remove_all(&t, tx, &n_files, &n_bytes, err);
    if (s == DL_OK) {
        dl_sql_dml_metric metrics[] = {
            {"numRemovedFiles", n_files},
            {"executionTimeMs", dl_sql_dml_clock_ms() - start_ms},
        };
        s = dl_sql_dml_set_metrics(tx, metrics, DL_ARRAY_LEN(metrics), err);
    }
    if (s != DL_OK) {
        dl_sql_dml_discard(tx, NULL);
        return s;
    }
    s = dl_sql_dml_commit(tx, NULL, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "TRUNCATE TABLE %s", t.display);
    }
    return s;
}
