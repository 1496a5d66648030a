/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The change data feed, read side (PROTOCOL.md "Change Data Files" and "Deletion Vectors";
 * what Delta's CDCReader returns): the row-level changes of a range of commits as a snapshot
 * that the ordinary scan (delta_scan.h) reads.
 *
 * Per commit of the range:
 *   - with cdc actions: the change data files alone, whose rows carry their `_change_type`
 *     (insert, delete, update_preimage, update_postimage); the add and remove actions of such
 *     a commit are not changes of their own;
 *   - without: every add with dataChange is an insert of its live rows, every remove with
 *     dataChange a delete of the rows that file had live; an add and a remove of the same file
 *     (a deletion vector replaced) are the rows the new vector deletes and the old did not
 *     (deletes), and the other way round (inserts); dataChange false (OPTIMIZE, REORG) is no
 *     change.
 *
 * The snapshot's schema is the table's (at the end version) plus `_change_type` (STRING, from
 * a change data file; NULL for the others) and three partition columns of every file:
 * DL_DELTA_CHANGES_KIND (STRING: "insert" or "delete" for add and remove files, NULL for change
 * data files), DL_DELTA_CHANGES_VERSION (BIGINT) and DL_DELTA_CHANGES_TIMESTAMP (TIMESTAMP:
 * the commit's timestamp as DESCRIBE HISTORY gives it: in-commit timestamps where enabled, else
 * the commit files' modification times made monotonic). A file whose deletion vector must
 * keep rather than drop rows carries DL_DELTA_FILE_DV_KEEP (delta.h).
 *
 * Errors (Delta's): start after the latest version (DELTA_CDC_START_VERSION_AFTER_LATEST),
 * end before start (DELTA_INVALID_CDC_RANGE), a version in range where the feed was off
 * (DELTA_MISSING_CHANGE_DATA), a commit file of the range gone (log cleanup), a remove without
 * the partition values a partitioned table needs (DELTA_REMOVE_FILE_CDC_MISSING_EXTENDED_METADATA).
 * An end after the latest version is the latest, as in Delta.
 */
#ifndef DL_DELTA_DELTA_CHANGES_H
#define DL_DELTA_DELTA_CHANGES_H

#include "delta/delta.h"

#define DL_DELTA_CHANGES_TYPE      "_change_type"
#define DL_DELTA_CHANGES_KIND      "__dl_change_kind"
#define DL_DELTA_CHANGES_VERSION   "__dl_commit_version"
#define DL_DELTA_CHANGES_TIMESTAMP "__dl_commit_timestamp"

/* The changes of versions [start, end] of table (end -1: the latest) as a snapshot (refcount
 * 1; see above). *out_end is the last version read. */
DL_NODISCARD dl_status dl_delta_changes_snapshot(dl_delta_table *table, int64_t start, int64_t end,
                                                 dl_delta_snapshot **out, int64_t *out_end,
                                                 dl_error *err);

/* The version a change feed's timestamp bound names (Delta's CDC rules, commit timestamps as
 * above): as the start, the first commit at or after ts_ms; as the end, the last commit at or
 * before it. Errors: a start after the latest commit (DELTA_TIMESTAMP_GREATER_THAN_COMMIT), an
 * end before the first (DELTA_TIMESTAMP_EARLIER_THAN_COMMIT_RETENTION). */
DL_NODISCARD dl_status dl_delta_changes_version_at(dl_delta_table *table, int64_t ts_ms,
                                                   bool is_start, int64_t *out, dl_error *err);

/* Whether the change data feed is on in md (delta.enableChangeDataFeed). */
bool dl_delta_md_is_cdf(const dl_delta_metadata *md);

#endif /* DL_DELTA_DELTA_CHANGES_H */
