# SPDX-License-Identifier: Apache-2.0
# Unit tests of the transaction log's write side; every one checks the logs it writes with the
# protocol checker in test_delta_txn_check.c.
foreach(t txn txn_conflict txn_checkpoint txn_concurrency txn_fault rowtrack)
  dl_add_unit_test(test_delta_${t} SOURCES test_delta_${t}.c test_delta_txn_util.c
                   test_delta_txn_check.c test_delta_log_util.c DEPS dl_delta)
endforeach()
# Rows deleted through deletion vectors (delta_dv_dml.h); writes a Parquet file without stats.
dl_add_unit_test(test_delta_dv_dml SOURCES test_delta_dv_dml.c test_delta_txn_util.c
                 test_delta_txn_check.c test_delta_log_util.c test_delta_cp_util.c DEPS dl_delta)
