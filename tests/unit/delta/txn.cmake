# SPDX-License-Identifier: Apache-2.0
# Unit tests of the transaction log's write side; every one checks the logs it writes with the
# protocol checker in test_delta_txn_check.c.
foreach(t txn txn_conflict txn_checkpoint txn_concurrency txn_fault dv_dml)
  dl_add_unit_test(test_delta_${t} SOURCES test_delta_${t}.c test_delta_txn_util.c
                   test_delta_txn_check.c test_delta_log_util.c DEPS dl_delta)
endforeach()
