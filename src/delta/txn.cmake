# SPDX-License-Identifier: Apache-2.0
# The transaction log, write side: transactions and commits, conflict detection, table
# creation, checkpoint writing and expired log cleanup (src/delta/delta_txn.h).
list(APPEND DL_DELTA_SOURCES
  delta_txn.c
  delta_colmap.c
  delta_txn_commit.c
  delta_txn_conflict.c
  delta_txn_create.c
  delta_txn_json.c
  delta_txn_protocol.c
  delta_txn_util.c
  delta_rowtrack.c
  delta_dv_dml.c
  delta_checkpoint_write.c
  delta_cleanup.c
  delta_clustering.c)
