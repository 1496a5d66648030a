# SPDX-License-Identifier: Apache-2.0
# The transaction log, read side: actions, schemas, features, log segments, Parquet checkpoints,
# replay, snapshots, typed values, time travel and history (src/delta/delta.h), and table scans
# (src/delta/delta_scan.h).
list(APPEND DL_DELTA_SOURCES
  delta_action.c
  delta_changes.c
  delta_checkpoint.c
  delta_features.c
  delta_props.c
  delta_history.c
  delta_last_checkpoint.c
  delta_replay.c
  delta_scan.c
  delta_scan_pred.c
  delta_scan_read.c
  delta_schema.c
  delta_segment.c
  delta_snapshot.c
  delta_timetravel.c
  delta_value.c)
