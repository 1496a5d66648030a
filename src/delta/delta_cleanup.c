/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Expired log cleanup (PROTOCOL.md "Metadata Cleanup"; Spark's MetadataCleanup.scala).
 *
 *   cutoff           now - delta.logRetentionDuration (default 30 days), truncated to
 *                    midnight UTC as Spark truncates it to the day
 *   cutoffCommit     the newest commit whose timestamp is not after the cutoff; timestamps
 *                    are the commit files' modification times made monotonic (a time not after
 *                    its predecessor's becomes the predecessor's + 1 ms), the same adjustment
 *                    timestamp time travel applies, so the expired commits are a prefix
 *   cutoffCheckpoint the newest complete checkpoint at or below cutoffCommit (classic,
 *                    UUID-named, or multi-part with every part present); none: stop
 *
 * Deleted: commits, checkpoints and checksums of versions below cutoffCheckpoint, and log
 * compaction files starting at or below it. Kept: cutoffCheckpoint, its own commit (the
 * checkpoint holds no commitInfo, which in-commit timestamps and history need) and everything
 * after, so every version whose timestamp is within the retention, and every version after
 * the checkpoint, stays reconstructible and time travel by timestamp within the window keeps
 * finding the same version. Files are deleted oldest first; a file already gone (another
 * cleaner) is fine. Sidecars are not touched (this writer makes no V2 checkpoints).
 */
#include <string.h>

#include "delta/delta_txn_int.h"

#define MONTH_MS ((int64_t)30 * DL_DELTA_DAY_MS)

static bool
is_complete(const dl_delta_log_list *list, size_t i) {
    const dl_delta_log_file *cp = &list->checkpoints[i];
    if (cp->kind != DL_DELTA_LOG_CHECKPOINT_PART) {
        return true;
    }
    int32_t found = 0;
    for (size_t j = 0; j < list->n_checkpoints; j++) {
        const dl_delta_log_file *o = &list->checkpoints[j];
        if (o->kind == DL_DELTA_LOG_CHECKPOINT_PART && o->version == cp->version &&
            o->n_parts == cp->n_parts) {
            found++;
        }
    }
    return found == cp->n_parts;
}

/* The newest commit version whose monotonic timestamp is <= cutoff, or -1. */
static int64_t
cutoff_commit(const dl_delta_log_list *list, int64_t cutoff) {
    int64_t found = -1;
    int64_t prev = INT64_MIN;
    for (size_t i = 0; i < list->n_commits; i++) {
        const dl_delta_log_file *f = &list->commits[i];
        int64_t ts = prev != INT64_MIN && f->mtime_ms <= prev ? prev + 1 : f->mtime_ms;
        if (ts > cutoff) {
            break;
        }
        found = f->version;
        prev = ts;
    }
    return found;
}

static int64_t
cutoff_checkpoint(const dl_delta_log_list *list, int64_t commit) {
    int64_t found = -1;
    for (size_t i = 0; i < list->n_checkpoints; i++) {
        const dl_delta_log_file *cp = &list->checkpoints[i];
        if (cp->version <= commit && cp->version > found && is_complete(list, i)) {
            found = cp->version;
        }
    }
    return found;
}

static dl_status
delete_file(dl_delta_table *table, const dl_delta_log_file *f, int64_t *n_deleted, dl_error *err) {
    dl_status s = dl_store_remove(table->store, f->path, err);
    if (s == DL_ERR_NOT_FOUND) {
        dl_error_clear(err);
        return DL_OK;
    }
    DL_TRY_CTX(s, err, "deleting expired log file %s", f->path);
    (*n_deleted)++;
    return DL_OK;
}

static dl_status
delete_below(dl_delta_table *table, const dl_delta_log_file *files, size_t n, int64_t cp,
             bool is_compaction, int64_t *n_deleted, dl_error *err) {
    for (size_t i = 0; i < n; i++) {
        bool is_expired = is_compaction ? files[i].version <= cp : files[i].version < cp;
        if (is_expired) {
            DL_TRY(delete_file(table, &files[i], n_deleted, err));
        }
    }
    return DL_OK;
}

static dl_status
cleanup_listed(dl_delta_table *table, const dl_delta_metadata *md, int64_t now_ms, dl_arena *arena,
               dl_delta_cleanup_result *res, dl_error *err) {
    int64_t retention = dl_delta_md_duration_ms(md, "delta.logRetentionDuration", MONTH_MS);
    int64_t cutoff = now_ms - retention;
    res->cutoff_ms = cutoff - ((cutoff % DL_DELTA_DAY_MS) + DL_DELTA_DAY_MS) % DL_DELTA_DAY_MS;
    dl_delta_log_list list;
    DL_TRY(dl_delta_log_list_read(table, -1, arena, &list, err));
    int64_t commit = cutoff_commit(&list, res->cutoff_ms);
    int64_t cp = commit >= 0 ? cutoff_checkpoint(&list, commit) : -1;
    res->cutoff_checkpoint = cp;
    if (cp <= 0) {
        return DL_OK; /* nothing below a checkpoint at 0 (or none) to delete */
    }
    res->earliest_version = cp;
    DL_TRY(delete_below(table, list.commits, list.n_commits, cp, false, &res->n_deleted, err));
    DL_TRY(
        delete_below(table, list.checkpoints, list.n_checkpoints, cp, false, &res->n_deleted, err));
    DL_TRY(delete_below(table, list.crcs, list.n_crcs, cp, false, &res->n_deleted, err));
    return delete_below(table, list.compactions, list.n_compactions, cp, true, &res->n_deleted,
                        err);
}

dl_status
dl_delta_log_cleanup(dl_delta_table *table, const dl_delta_metadata *md, int64_t now_ms,
                     dl_delta_cleanup_result *out, dl_error *err) {
    DL_CHECK(table != NULL, err, DL_ERR_INVALID_ARG, "log cleanup: a table is required");
    dl_delta_cleanup_result local;
    dl_delta_cleanup_result *res = out != NULL ? out : &local;
    memset(res, 0, sizeof(*res));
    res->cutoff_checkpoint = -1;
    res->earliest_version = -1;
    dl_delta_snapshot *snap = NULL;
    if (md == NULL) {
        dl_delta_snapshot_options opts = {.is_metadata_only = true};
        DL_TRY(dl_delta_snapshot_latest(table, &opts, &snap, err));
        md = dl_delta_snapshot_metadata(snap);
    }
    dl_arena arena;
    dl_arena_init(&arena, table->alloc, 0);
    dl_status s =
        cleanup_listed(table, md, now_ms > 0 ? now_ms : dl_delta_now_ms(), &arena, res, err);
    dl_arena_destroy(&arena);
    dl_delta_snapshot_unref(snap);
    if (s != DL_OK) {
        dl_error_prefix(err, "%s: log cleanup", table->display);
    }
    return s;
}
