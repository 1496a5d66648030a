/* SPDX-License-Identifier: Apache-2.0 */
/*
 * VACUUM t [RETAIN n HOURS] [DRY RUN] [LITE | FULL] (sql_dml.h), as Delta 4's VacuumCommand:
 * deletes the files in the table's folder that the latest version does not need and that are
 * older than the retention period.
 *
 *   retention   RETAIN n HOURS (rounded to whole hours, as Delta), else the table's
 *               delta.deletedFileRetentionDuration (default 7 days). Below the table's own
 * retention it is refused while spark.databricks.delta.retentionDurationCheck.enabled is true
 * (Spark's check). needed      the live files of the latest snapshot and the tombstones removed
 * after the cutoff (now - retention), which time travel inside the retention still reads, and the
 * deletion-vector files their descriptors name (as Spark's VacuumCommand: a DV file no needed file
 * refers to goes like a data file). candidates  every file under the table folder except hidden
 * ones (a path component starting with '_' or '.', so _delta_log is never touched), needed files
 *               (deletion-vector files included), and files modified after the
 *               cutoff (a writer may be about to commit them). Temporary files a killed
 *               writer left (".<name>.<16 hex>.tmp", beside data files and in _delta_log) are
 *               candidates too once older than the cutoff: no table version refers to them.
 *
 * LITE (or neither word with spark.databricks.delta.vacuum.lite.enabled = true) lists nothing:
 * its candidates are the files the log's remove actions (with their deletion-vector files) and
 * cdc actions name, in the commits from where the last VACUUM LITE stopped
 * (_delta_log/_last_vacuum_info, latestCommitVersionOutsideOfRetentionWindow + 1; the log's
 * first commit when there is none) to the latest commit at or before the cutoff; a remove is
 * taken when it was removed before the cutoff and no needed file is it. When the log's first
 * commit is not version 0 and the last LITE stopped before it (or there was none), commits were
 * cleaned up that LITE would need: DELTA_CANNOT_VACUUM_LITE. One difference from Delta: a
 * candidate that no longer exists (an earlier VACUUM deleted it) is not listed or counted.
 * After a VACUUM that is not a DRY RUN, _last_vacuum_info records where this one stopped
 * (FULL writes {}, as Delta does). Neither mode deletes empty folders (Delta's FULL does).
 *
 * The table's protocol is checked first, as for every write: writer features deltalite cannot
 * honour refuse VACUUM, DRY RUN too, before anything is listed or deleted.
 *
 * DRY RUN deletes nothing, commits nothing and returns the candidates (column `path`, absolute
 * paths as Spark shows them); otherwise the files are deleted and the result is the table's
 * path. Around the deletes two commits holding only commitInfo record the work, as Spark's
 * vacuum logging (on by default for local tables; spark.databricks.delta.vacuum.logging
 * .enabled = false turns it off): VACUUM START (retentionCheckEnabled,
 * defaultRetentionMillis, specifiedRetentionMillis; numFilesToDelete, sizeOfDataToDelete)
 * before the first delete, VACUUM END (status COMPLETED or FAILED; numDeletedFiles,
 * numVacuumedDirectories) after the last. A VACUUM that finds nothing to delete commits
 * nothing, where Spark still writes both (our user stories count the versions around such a
 * VACUUM). Time travel to a version whose files are gone then fails when the scan opens them.
 */
#include <stdio.h>
#include <string.h>

#include "base/hmap.h"
#include "base/timefmt.h"
#include "sql/bind/sql_describe_int.h"
#include "sql/commands/sql_dml.h"

#define DEFAULT_RETENTION_MS ((int64_t)7 * 24 * 3600 * 1000)

typedef struct vacuum {
    dl_delta_table *table;
    dl_delta_snapshot *snap;
    const char *display;
    dl_store *store;
    const char *root;
    int64_t retention_ms;
    int64_t table_retention_ms;
    bool has_retain;    /* RETAIN n HOURS given */
    bool is_check_on;   /* retentionDurationCheck.enabled */
    bool is_lite;       /* VACUUM LITE (or the lite.enabled default) */
    int64_t cutoff;     /* files removed or modified before it may go (ms) */
    bool has_outside;   /* LITE: a commit at or before the cutoff exists */
    int64_t outside;    /* LITE: the latest such commit */
    const char **paths; /* the candidates' store paths */
    int64_t n_paths;
    int64_t bytes;  /* their size */
    int64_t n_dirs; /* folders listed, the table's own included (Spark's count) */
} vacuum;

/* RETAIN n HOURS as ms (n a constant, possibly fractional). */
static dl_status
retain_ms(dl_sql_binder *b, const dl_sql_expr *ast, int64_t *out, dl_error *err) {
    dl_sql_scope empty = {0};
    dl_sql_bctx cx = {.b = b, .scope = &empty, .clause = "RETAIN"};
    dl_sql_bexpr *e = NULL;
    DL_TRY(dl_sql_binder_expr(&cx, ast, &e, err));
    DL_TRY(dl_sql_binder_cast(b, e, dl_vec_type_prim(DL_VEC_TYPE_DOUBLE), &e, err));
    dl_vector *v = NULL;
    DL_TRY(dl_sql_binder_eval(b, e, &v, err));
    bool is_null = dl_vec_is_null(v, 0);
    const dl_vector *flat = NULL;
    int64_t i = is_null ? 0 : dl_vec_resolve(v, 0, &flat);
    double hours = is_null ? -1.0 : ((const double *)flat->data)[i];
    dl_vec_unref(v);
    if (is_null || hours < 0 || hours > 1e9) {
        DL_SQL_BIND_FAIL(b, ast->loc, DL_ERR_SQL_BIND, err,
                         "RETAIN needs a number of hours between 0 and 1e9");
    }
    /* Delta rounds to whole hours (Math.round: half up) before it converts to ms. */
    *out = (int64_t)(hours + 0.5) * 3600 * 1000; /* hours >= 0: truncation is floor */
    return DL_OK;
}

static dl_status
open_vacuum(dl_sql_binder *b, const dl_sql_stmt *stmt, vacuum *v, dl_error *err) {
    const dl_sql_target *target = &stmt->u.vacuum.target;
    DL_TRY(dl_sql_open_table(b, &target->name, target->is_path, target->path, target->loc,
                             &v->table, &v->display, err));
    DL_TRY(dl_sql_dml_hold_table(b, v->table, err));
    dl_status s = dl_delta_snapshot_latest(v->table, NULL, &v->snap, err);
    if (s != DL_OK) {
        dl_sql_binder_locate(b, stmt->loc, err);
        return s;
    }
    DL_TRY(dl_sql_hold_snapshot(b, v->snap, err));
    /* Deleting files is writing: a protocol whose writer features deltalite cannot honour is
     * refused, as every other write (and as vacuumProtocolCheck requires: VACUUM checks the
     * reader and writer protocol before it deletes anything). */
    s = dl_delta_protocol_check_write(dl_delta_snapshot_protocol(v->snap),
                                      dl_delta_snapshot_metadata(v->snap),
                                      dl_delta_snapshot_schema(v->snap), 0, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "VACUUM %s v%lld", v->display,
                        (long long)dl_delta_snapshot_version(v->snap));
        dl_sql_binder_locate(b, stmt->loc, err);
        return s;
    }
    v->store = dl_delta_snapshot_store(v->snap);
    v->root = dl_delta_snapshot_root(v->snap);
    const char *conf = dl_delta_metadata_config(dl_delta_snapshot_metadata(v->snap),
                                                "delta.deletedFileRetentionDuration");
    int64_t us = 0;
    dl_error ignored;
    v->table_retention_ms =
        conf != NULL && dl_duration_parse(dl_str_from_cstr(conf), &us, &ignored) == DL_OK
            ? us / 1000
            : DEFAULT_RETENTION_MS;
    v->retention_ms = v->table_retention_ms;
    if (stmt->u.vacuum.retain_hours != NULL) {
        DL_TRY(retain_ms(b, stmt->u.vacuum.retain_hours, &v->retention_ms, err));
        v->has_retain = true;
    }
    return DL_OK;
}

static dl_status
check_retention(dl_sql_binder *b, const dl_sql_stmt *stmt, vacuum *v, dl_error *err) {
    const char *check =
        dl_sql_session_get(b->session, "spark.databricks.delta.retentionDurationCheck.enabled");
    v->is_check_on = check == NULL || !dl_str_eq_nocase(dl_str_from_cstr(check), DL_STR("false"));
    if (!v->is_check_on || v->retention_ms >= v->table_retention_ms) {
        return DL_OK;
    }
    DL_SQL_BIND_FAIL(
        b, stmt->loc, DL_ERR_DATA, err,
        "[DELTA_VACUUM_RETENTION_PERIOD_TOO_SHORT] VACUUM %s: a retention period of %lld hours is below the table's "
        "retention of %lld hours, which could delete files that running writers "
        "and readers still need; set spark.databricks.delta.retentionDurationCheck"
        ".enabled = false to allow it",
        v->display, (long long)(v->retention_ms / 3600000),
        (long long)(v->table_retention_ms / 3600000));
}

/* The path relative to the table's root of the deletion-vector file desc names (a 'u' or 'p'
 * descriptor inside the table's folder; in arena), or an empty view when it has none there. */
static dl_status
dv_key(dl_sql_binder *b, const vacuum *v, const dl_delta_dv_desc *desc, dl_str file,
       dl_buf *dv_path, dl_str *out, dl_error *err) {
    *out = dl_str_make("", 0);
    if (desc == NULL || desc->storage_type == DL_DELTA_DV_STORAGE_INLINE) {
        return DL_OK;
    }
    bool is_absolute = false;
    DL_TRY_CTX(dl_delta_dv_desc_locate(desc, v->store, v->root, dv_path, &is_absolute, err), err,
               "VACUUM %s: the deletion vector of %.*s", v->display, DL_STR_FMT(file));
    dl_str rel = dl_str_make((const char *)dv_path->data, dv_path->len);
    size_t root_len = strlen(v->root);
    if (is_absolute ||
        (root_len > 0 && (rel.len <= root_len + 1 || memcmp(rel.ptr, v->root, root_len) != 0 ||
                          rel.ptr[root_len] != '/'))) {
        return DL_OK; /* outside the table's folder: never listed */
    }
    size_t skip = root_len > 0 ? root_len + 1 : 0;
    char *key = dl_arena_strndup(b->arena, rel.ptr + skip, rel.len - skip);
    DL_CHECK(key != NULL, err, DL_ERR_NOMEM, "out of memory");
    *out = dl_str_make(key, rel.len - skip);
    return DL_OK;
}

/* Adds f and the deletion-vector file it names to out, by path relative to the table's root. */
static dl_status
need_file(dl_sql_binder *b, const vacuum *v, const dl_delta_file *f, dl_buf *dv_path, dl_hmap *out,
          dl_error *err) {
    DL_TRY(dl_hmap_put(out, f->path, 1, err));
    dl_str key;
    DL_TRY(dv_key(b, v, f->dv, f->path, dv_path, &key, err));
    return key.len > 0 ? dl_hmap_put(out, key, 1, err) : DL_OK;
}

/* The files the table still needs, by path relative to its root. */
static dl_status
needed_files(dl_sql_binder *b, const vacuum *v, int64_t cutoff, dl_hmap *out, dl_error *err) {
    dl_buf dv_path;
    dl_buf_init(&dv_path, b->exec->alloc);
    dl_status s = DL_OK;
    for (size_t i = 0; s == DL_OK && i < dl_delta_snapshot_file_count(v->snap); i++) {
        s = need_file(b, v, dl_delta_snapshot_file(v->snap, i), &dv_path, out, err);
    }
    for (size_t i = 0; s == DL_OK && i < dl_delta_snapshot_tombstone_count(v->snap); i++) {
        const dl_delta_file *f = dl_delta_snapshot_tombstone(v->snap, i);
        if (f->modification_time > cutoff) {
            s = need_file(b, v, f, &dv_path, out, err);
        }
    }
    dl_buf_destroy(&dv_path);
    return s;
}

static bool
is_hidden(dl_str rel) {
    bool at_start = true;
    for (size_t i = 0; i < rel.len; i++) {
        if (at_start && (rel.ptr[i] == '_' || rel.ptr[i] == '.')) {
            return true;
        }
        at_start = rel.ptr[i] == '/';
    }
    return false;
}

/* Whether the last component of rel is a store's temporary file, ".<name>.<16 hex>.tmp"
 * (store_local.c), which a writer killed before its commit left behind. */
static bool
is_store_temp(dl_str rel) {
    size_t start = rel.len;
    while (start > 0 && rel.ptr[start - 1] != '/') {
        start--;
    }
    dl_str name = dl_str_make(rel.ptr + start, rel.len - start);
    static const size_t tail = 1 + 16 + 4; /* ".<16 hex>.tmp" */
    if (name.len < 2 + tail || name.ptr[0] != '.' || !dl_str_ends_with(name, DL_STR(".tmp")) ||
        name.ptr[name.len - tail] != '.') {
        return false;
    }
    for (size_t i = name.len - tail + 1; i < name.len - 4; i++) {
        char c = name.ptr[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            return false;
        }
    }
    return true;
}

static bool
is_candidate(const dl_store_entry *e, size_t root_len, int64_t cutoff, const dl_hmap *needed) {
    if (e->is_dir || e->path.len <= root_len || e->mtime_ms > cutoff) {
        return false;
    }
    dl_str rel = dl_str_make(e->path.ptr + root_len, e->path.len - root_len);
    if (is_store_temp(rel)) {
        return true; /* hidden, in _delta_log too, but never part of the table */
    }
    uint64_t ignored = 0;
    return !is_hidden(rel) && !dl_hmap_get(needed, rel, &ignored);
}

/* The candidates' store paths, their size and the folders listed, into v (statement arena). */
static dl_status
find_candidates(dl_sql_binder *b, vacuum *v, dl_error *err) {
    int64_t cutoff = v->cutoff;
    const char *prefix = v->root[0] != '\0' ? dl_arena_printf(b->arena, "%s/", v->root) : "";
    DL_CHECK(prefix != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_store_listing listing;
    DL_TRY(dl_store_list(v->store, prefix, NULL, DL_STORE_LIST_RECURSIVE, b->arena, &listing, err));
    const char **paths = dl_arena_alloc_zero(b->arena, (listing.count + 1) * sizeof(const char *));
    DL_CHECK(paths != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_hmap needed;
    dl_hmap_init(&needed, b->exec->alloc);
    dl_status s = needed_files(b, v, cutoff, &needed, err);
    int64_t n = 0;
    v->n_dirs = 1;
    for (size_t i = 0; s == DL_OK && i < listing.count; i++) {
        const dl_store_entry *e = &listing.entries[i];
        if (is_candidate(e, strlen(prefix), cutoff, &needed)) {
            paths[n++] = e->path.ptr;
            v->bytes += e->size;
        }
        size_t root_len = strlen(prefix);
        bool is_listed_dir =
            e->is_dir && e->path.len > root_len &&
            !is_hidden(dl_str_make(e->path.ptr + root_len, e->path.len - root_len));
        v->n_dirs += is_listed_dir ? 1 : 0;
    }
    dl_hmap_destroy(&needed);
    v->paths = paths;
    v->n_paths = n;
    return s;
}

/* ---- VACUUM LITE --------------------------------------------------------------------------- */

/* The latest commit at or before the cutoff into v (has_outside false when every commit is
 * newer: then nothing is old enough), as Delta's getActiveCommitAtTime(canReturnLastCommit). */
static dl_status
find_outside(vacuum *v, dl_error *err) {
    if (v->cutoff >= dl_delta_snapshot_timestamp(v->snap)) {
        v->has_outside = true;
        v->outside = dl_delta_snapshot_version(v->snap);
        return DL_OK;
    }
    dl_error ignored;
    dl_status s = dl_delta_version_at_timestamp(v->table, v->cutoff, &v->outside, &ignored);
    if (s == DL_ERR_NOT_FOUND) {
        return DL_OK; /* before the earliest commit */
    }
    if (s != DL_OK) {
        *err = ignored;
        return s;
    }
    v->has_outside = true;
    return DL_OK;
}

/* The version of the earliest commit file still in the log (-1 when none). */
static dl_status
earliest_commit(vacuum *v, int64_t *out, dl_error *err) {
    dl_delta_log_iter *it = NULL;
    DL_TRY(dl_delta_log_iter_new(v->table, 0, -1, &it, err));
    dl_delta_log_entry e = {0};
    bool has = false;
    dl_status s = dl_delta_log_iter_next(it, &e, &has, err);
    *out = has ? e.version : -1;
    dl_delta_log_iter_free(it);
    return s;
}

static const char *
last_info_path(dl_sql_binder *b, const vacuum *v) {
    return v->root[0] != '\0'
               ? dl_arena_printf(b->arena, "%s/_delta_log/_last_vacuum_info", v->root)
               : "_delta_log/_last_vacuum_info";
}

/* _delta_log/_last_vacuum_info's latestCommitVersionOutsideOfRetentionWindow: where the last
 * VACUUM LITE stopped. A missing or unreadable file, or one without the field, is none (as
 * Delta reads it). */
static dl_status
read_last_info(dl_sql_binder *b, const vacuum *v, bool *out_has, int64_t *out, dl_error *err) {
    *out_has = false;
    const char *path = last_info_path(b, v);
    DL_CHECK(path != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    dl_error ignored;
    dl_status s = dl_store_read_all(v->store, path, &text, &ignored);
    if (s == DL_OK) {
        dl_json_doc doc;
        dl_json_doc_init(&doc, b->exec->alloc);
        if (dl_json_doc_parse(&doc, (const char *)text.data, text.len, &ignored) == DL_OK) {
            dl_json_val n = dl_json_obj_get(dl_json_doc_root(&doc),
                                            "latestCommitVersionOutsideOfRetentionWindow");
            *out_has = dl_json_val_get_int64(n, out, &ignored) == DL_OK;
        }
        dl_json_doc_destroy(&doc);
    }
    dl_buf_destroy(&text);
    if (s != DL_OK && s != DL_ERR_NOT_FOUND && s != DL_ERR_CORRUPT) {
        *err = ignored;
        return s;
    }
    return DL_OK;
}

/* After a VACUUM that deleted: where LITE is to start next time (FULL writes {} as Delta does,
 * so that a LITE after it reads the log from its start). */
static dl_status
write_last_info(dl_sql_binder *b, const vacuum *v, dl_error *err) {
    const char *path = last_info_path(b, v);
    const char *json =
        v->is_lite && v->has_outside
            ? dl_arena_printf(b->arena, "{\"latestCommitVersionOutsideOfRetentionWindow\":%lld}",
                              (long long)v->outside)
            : "{}";
    DL_CHECK(path != NULL && json != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY_CTX(dl_store_write(v->store, path, json, strlen(json), err), err,
               "VACUUM %s: writing _delta_log/_last_vacuum_info", v->display);
    return DL_OK;
}

/* The commits LITE reads: from where the last LITE stopped (or the log's start) to the latest
 * commit outside the retention; *out_has false when there is nothing to read. */
static dl_status
lite_range(dl_sql_binder *b, const dl_sql_stmt *stmt, vacuum *v, int64_t *from, bool *out_has,
           dl_error *err) {
    *out_has = false;
    DL_TRY(find_outside(v, err));
    if (!v->has_outside) {
        return DL_OK;
    }
    int64_t earliest = -1;
    int64_t last = 0;
    bool has_last = false;
    DL_TRY(earliest_commit(v, &earliest, err));
    DL_TRY(read_last_info(b, v, &has_last, &last, err));
    if (earliest != 0 && (!has_last || last < earliest)) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err,
                         "[DELTA_CANNOT_VACUUM_LITE] VACUUM LITE cannot delete all eligible files "
                         "of %s as some files are not referenced by the Delta log: its commits "
                         "before v%lld were cleaned up since the last VACUUM LITE. Please run "
                         "VACUUM FULL.",
                         v->display, (long long)earliest);
    }
    int64_t start = has_last ? last + 1 : earliest;
    int64_t latest = dl_delta_snapshot_version(v->snap);
    *from = start < latest ? start : latest;
    *out_has = *from <= v->outside;
    return DL_OK;
}

typedef struct lite_walk {
    dl_sql_binder *b;
    vacuum *v;
    const dl_hmap *needed;
    dl_hmap seen;
    dl_buf path;
    dl_buf dv_path;
    const char **paths;
    int64_t n;
    int64_t cap;
} lite_walk;

/* Takes the file rel (relative to the table's root) as a candidate when no needed file is it,
 * LITE has not taken it yet and it still exists (a file an earlier VACUUM deleted is not
 * listed again). */
static dl_status
lite_take(lite_walk *w, dl_str rel, dl_error *err) {
    uint64_t ignored = 0;
    if (rel.len == 0 || dl_hmap_get(w->needed, rel, &ignored) ||
        dl_hmap_get(&w->seen, rel, &ignored)) {
        return DL_OK;
    }
    char *key = dl_arena_strndup(w->b->arena, rel.ptr, rel.len);
    const char *store_path =
        w->v->root[0] != '\0' ? dl_arena_printf(w->b->arena, "%s/%s", w->v->root, key) : key;
    DL_CHECK(key != NULL && store_path != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(dl_hmap_put(&w->seen, dl_str_make(key, rel.len), 1, err));
    dl_store_info info;
    dl_error missing;
    dl_status s = dl_store_stat(w->v->store, store_path, &info, &missing);
    if (s == DL_ERR_NOT_FOUND) {
        return DL_OK;
    }
    if (s != DL_OK) {
        *err = missing;
        return s;
    }
    if (w->n == w->cap) {
        int64_t cap = w->cap == 0 ? 64 : 2 * w->cap;
        const char **grown = dl_arena_alloc_zero(w->b->arena, (size_t)(cap + 1) * sizeof(char *));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory");
        if (w->n > 0) {
            memcpy(grown, w->paths, (size_t)w->n * sizeof(char *));
        }
        w->paths = grown;
        w->cap = cap;
    }
    w->paths[w->n++] = store_path;
    w->v->bytes += info.size;
    return DL_OK;
}

/* A remove removed before the cutoff (with its deletion-vector file) or a cdc file: Delta's
 * getFilesFromDeltaLog. Absolute paths (a shallow clone's files) are outside the table. */
static dl_status
lite_visit(void *ctx, const dl_delta_log_entry *e, dl_error *err) {
    lite_walk *w = ctx;
    const dl_delta_action *a = e->action;
    bool is_remove = a->kind == DL_DELTA_ACTION_REMOVE;
    if (!is_remove && a->kind != DL_DELTA_ACTION_CDC) {
        return DL_OK;
    }
    int64_t when = is_remove && a->file.has_deletion_timestamp ? a->file.deletion_timestamp : 0;
    if (when >= w->v->cutoff) {
        return DL_OK;
    }
    bool is_absolute = false;
    DL_TRY_CTX(dl_delta_path_decode(a->file.path, &w->path, &is_absolute, err), err,
               "VACUUM %s v%lld", w->v->display, (long long)e->version);
    dl_str rel = dl_str_make((const char *)w->path.data, w->path.len);
    if (is_remove && a->file.has_dv) {
        dl_str dv = dl_str_make("", 0);
        DL_TRY(dv_key(w->b, w->v, &a->file.dv, rel, &w->dv_path, &dv, err));
        DL_TRY(lite_take(w, dv, err));
    }
    return is_absolute ? DL_OK : lite_take(w, rel, err);
}

/* LITE's candidates: the files the log removed in the commits lite_range names, without
 * listing the table's folder. */
static dl_status
find_lite_candidates(dl_sql_binder *b, const dl_sql_stmt *stmt, vacuum *v, dl_error *err) {
    int64_t from = 0;
    bool has = false;
    v->n_dirs = 1;
    DL_TRY(lite_range(b, stmt, v, &from, &has, err));
    if (!has) {
        return DL_OK;
    }
    lite_walk w = {.b = b, .v = v};
    dl_hmap needed;
    dl_hmap_init(&needed, b->exec->alloc);
    dl_hmap_init(&w.seen, b->exec->alloc);
    dl_buf_init(&w.path, b->exec->alloc);
    dl_buf_init(&w.dv_path, b->exec->alloc);
    w.needed = &needed;
    dl_status s = needed_files(b, v, v->cutoff, &needed, err);
    if (s == DL_OK) {
        s = dl_delta_log_each(v->table, from, v->outside, lite_visit, &w, err);
    }
    dl_buf_destroy(&w.dv_path);
    dl_buf_destroy(&w.path);
    dl_hmap_destroy(&w.seen);
    dl_hmap_destroy(&needed);
    v->paths = w.paths;
    v->n_paths = w.n;
    return s;
}

/* Whether VACUUM START / END are committed (Spark's default for local tables). */
static bool
is_logged(dl_sql_binder *b) {
    const char *on =
        dl_sql_session_get(b->session, "spark.databricks.delta.vacuum.logging.enabled");
    return on == NULL || strcmp(on, "false") != 0;
}

/* VACUUM START: what is about to be deleted, committed before the first delete. */
static dl_status
log_start(dl_sql_binder *b, const vacuum *v, dl_error *err) {
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(v->table, v->snap, NULL, &tx, err));
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_VACUUM_START);
    dl_status s =
        dl_delta_tx_param_json(tx, "retentionCheckEnabled", v->is_check_on ? "true" : "false", err);
    const char *def = dl_arena_printf(b->arena, "%lld", (long long)v->table_retention_ms);
    const char *spec = dl_arena_printf(b->arena, "%lld", (long long)v->retention_ms);
    s = s == DL_OK && (def == NULL || spec == NULL)
            ? dl_error_set(err, DL_ERR_NOMEM, "out of memory")
            : s;
    s = s == DL_OK ? dl_delta_tx_param_json(tx, "defaultRetentionMillis", def, err) : s;
    if (s == DL_OK && v->has_retain) {
        s = dl_delta_tx_param_json(tx, "specifiedRetentionMillis", spec, err);
    }
    dl_sql_dml_metric metrics[] = {{"numFilesToDelete", v->n_paths},
                                   {"sizeOfDataToDelete", v->bytes}};
    s = s == DL_OK ? dl_sql_dml_set_metrics(tx, metrics, DL_ARRAY_LEN(metrics), err) : s;
    if (s != DL_OK) {
        dl_sql_dml_discard(tx, NULL);
        return s;
    }
    return dl_sql_dml_commit(tx, NULL, err);
}

/* VACUUM END: COMPLETED with what was deleted, or FAILED (err keeps the delete's error). */
static dl_status
log_end(const vacuum *v, int64_t n_deleted, bool is_failed, dl_error *err) {
    dl_error own;
    dl_error *e = is_failed ? &own : err;
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(v->table, v->snap, NULL, &tx, e));
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_VACUUM_END);
    dl_status s = dl_delta_tx_param_string(tx, "status", is_failed ? "FAILED" : "COMPLETED", e);
    dl_sql_dml_metric metrics[] = {{"numDeletedFiles", n_deleted},
                                   {"numVacuumedDirectories", v->n_dirs}};
    s = s == DL_OK ? dl_sql_dml_set_metrics(tx, metrics, DL_ARRAY_LEN(metrics), e) : s;
    if (s != DL_OK) {
        dl_sql_dml_discard(tx, NULL);
        return s;
    }
    return dl_sql_dml_commit(tx, NULL, e);
}

/* Deletes the candidates between VACUUM START and VACUUM END (when logged and there are any). */
static dl_status
delete_candidates(dl_sql_binder *b, const vacuum *v, dl_error *err) {
    bool is_log = is_logged(b) && v->n_paths > 0;
    if (is_log) {
        DL_TRY(log_start(b, v, err));
    }
    for (int64_t i = 0; i < v->n_paths; i++) {
        dl_status s = dl_store_remove(v->store, v->paths[i], err);
        if (s != DL_OK && s != DL_ERR_NOT_FOUND) {
            dl_error_prefix(err, "VACUUM %s deleted %lld of %lld files, then: ", v->display,
                            (long long)i, (long long)v->n_paths);
            if (is_log) {
                (void)log_end(v, i, true, err);
            }
            return s;
        }
    }
    return is_log ? log_end(v, v->n_paths, false, err) : DL_OK;
}

/* LITE when the statement says so, or when it says neither and
 * spark.databricks.delta.vacuum.lite.enabled is true (Delta's default type). */
static bool
is_lite(dl_sql_binder *b, const dl_sql_stmt *stmt) {
    if (stmt->u.vacuum.mode != DL_SQL_VACUUM_DEFAULT) {
        return stmt->u.vacuum.mode == DL_SQL_VACUUM_LITE;
    }
    const char *on = dl_sql_session_get(b->session, "spark.databricks.delta.vacuum.lite.enabled");
    return on != NULL && dl_str_eq_nocase(dl_str_from_cstr(on), DL_STR("true"));
}

/* DRY RUN's rows: the candidates' absolute paths, under the location DESCRIBE DETAIL shows. */
static dl_status
dry_run_rows(dl_sql_binder *b, const vacuum *v, dl_sql_plan **out, dl_error *err) {
    static const char *const col = "path";
    const char **rows = dl_arena_alloc_zero(b->arena, (size_t)(v->n_paths + 1) * sizeof(char *));
    DL_CHECK(rows != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int64_t i = 0; i < v->n_paths; i++) {
        rows[i] = dl_arena_printf(b->arena, "%s/%s", v->store->location, v->paths[i]);
        DL_CHECK(rows[i] != NULL, err, DL_ERR_NOMEM, "out of memory");
    }
    return dl_sql_plan_strings(b, &col, 1, rows, v->n_paths, out, err);
}

dl_status
dl_sql_dml_vacuum(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    vacuum v = {.is_lite = is_lite(b, stmt)};
    DL_TRY(open_vacuum(b, stmt, &v, err));
    DL_TRY(check_retention(b, stmt, &v, err));
    v.cutoff = dl_sql_dml_now_ms() - v.retention_ms;
    DL_TRY(v.is_lite ? find_lite_candidates(b, stmt, &v, err) : find_candidates(b, &v, err));
    if (stmt->u.vacuum.is_dry_run) {
        return dry_run_rows(b, &v, out, err);
    }
    DL_TRY(delete_candidates(b, &v, err));
    DL_TRY(write_last_info(b, &v, err));
    /* Spark returns the table's location, as DESCRIBE DETAIL shows it. */
    static const char *const col = "path";
    const char *location = dl_sql_snapshot_location(b, v.snap);
    DL_CHECK(location != NULL, err, DL_ERR_NOMEM, "out of memory");
    return dl_sql_plan_strings(b, &col, 1, &location, 1, out, err);
}
