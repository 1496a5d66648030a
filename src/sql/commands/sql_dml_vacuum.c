/* SPDX-License-Identifier: Apache-2.0 */
/*
 * VACUUM t [RETAIN n HOURS] [DRY RUN] (sql_dml.h), as Spark's VacuumCommand: deletes the files
 * in the table's folder that the latest version does not need and that are older than the
 * retention period.
 *
 *   retention   RETAIN n HOURS, else the table's delta.deletedFileRetentionDuration (default
 *               7 days). Below the table's own retention it is refused while
 *               spark.databricks.delta.retentionDurationCheck.enabled is true (Spark's check).
 *   needed      the live files of the latest snapshot and the tombstones removed after the
 *               cutoff (now - retention), which time travel inside the retention still reads,
 *               and the deletion-vector files their descriptors name (as Spark's
 *               VacuumCommand: a DV file no needed file refers to goes like a data file).
 *   candidates  every file under the table folder except hidden ones (a path component
 *               starting with '_' or '.', so _delta_log is never touched), needed files
 *               (deletion-vector files included), and files modified after the
 *               cutoff (a writer may be about to commit them). Temporary files a killed
 *               writer left (".<name>.<16 hex>.tmp", beside data files and in _delta_log) are
 *               candidates too once older than the cutoff: no table version refers to them.
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
    *out = (int64_t)(hours * 3600.0 * 1000.0);
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
    DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_DATA, err,
                     "VACUUM %s: a retention period of %lld hours is below the table's "
                     "retention of %lld hours, which could delete files that running writers "
                     "and readers still need; set spark.databricks.delta.retentionDurationCheck"
                     ".enabled = false to allow it",
                     v->display, (long long)(v->retention_ms / 3600000),
                     (long long)(v->table_retention_ms / 3600000));
}

/* Adds f and the deletion-vector file it names (a 'u' or 'p' descriptor inside the table's
 * folder; keys in arena) to out, by path relative to the table's root. */
static dl_status
need_file(dl_sql_binder *b, const vacuum *v, const dl_delta_file *f, dl_buf *dv_path, dl_hmap *out,
          dl_error *err) {
    DL_TRY(dl_hmap_put(out, f->path, 1, err));
    if (f->dv == NULL || f->dv->storage_type == DL_DELTA_DV_STORAGE_INLINE) {
        return DL_OK;
    }
    bool is_absolute = false;
    DL_TRY_CTX(dl_delta_dv_desc_locate(f->dv, v->store, v->root, dv_path, &is_absolute, err), err,
               "VACUUM %s: the deletion vector of %s", v->display, f->path.ptr);
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
    return dl_hmap_put(out, dl_str_make(key, rel.len - skip), 1, err);
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
    int64_t cutoff = dl_sql_dml_now_ms() - v->retention_ms;
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

dl_status
dl_sql_dml_vacuum(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    if (stmt->u.vacuum.mode != DL_SQL_VACUUM_DEFAULT) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err,
                         "VACUUM LITE / FULL is not supported yet");
    }
    vacuum v = {0};
    DL_TRY(open_vacuum(b, stmt, &v, err));
    DL_TRY(check_retention(b, stmt, &v, err));
    DL_TRY(find_candidates(b, &v, err));
    static const char *const col = "path";
    if (stmt->u.vacuum.is_dry_run) {
        return dl_sql_plan_strings(b, &col, 1, v.paths, v.n_paths, out, err);
    }
    DL_TRY(delete_candidates(b, &v, err));
    /* Spark returns the table's location, as DESCRIBE DETAIL shows it. */
    const char *location = dl_sql_snapshot_location(b, v.snap);
    DL_CHECK(location != NULL, err, DL_ERR_NOMEM, "out of memory");
    return dl_sql_plan_strings(b, &col, 1, &location, 1, out, err);
}
