# SPDX-License-Identifier: Apache-2.0
# The transaction log, read side: actions, schemas, features, log segments, replay, snapshots,
# typed values and time travel (src/delta/delta.h).
list(APPEND DL_DELTA_SOURCES
  delta_action.c
  delta_features.c
  delta_replay.c
  delta_schema.c
  delta_segment.c
  delta_snapshot.c
  delta_timetravel.c
  delta_value.c)
