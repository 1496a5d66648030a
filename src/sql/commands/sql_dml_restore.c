/* SPDX-License-Identifier: Apache-2.0 */
/*
 * RESTORE TABLE t TO VERSION AS OF n | TIMESTAMP AS OF x (sql_dml.h), as Spark's
 * RestoreTableCommand does it: one commit that makes the live files those of the old
 * version. Files live now but not then are removed (deletionTimestamp = the commit's time);
 * files live then but not now are added back with their partition values, size, stats and
 * deletion vector as the old snapshot has them (dataChange true). The old version's metaData
 * comes back too when its schema or its properties differ. A file that VACUUM already deleted
 * cannot come back: the restore fails naming it, and nothing is committed.
 *
 * commitInfo: RESTORE with operationParameters version (or timestamp) and operationMetrics
 * numRestoredFiles, removedFilesSize, numRemovedFiles, restoredFilesSize,
 * numOfFilesAfterRestore, tableSizeAfterRestore.
 */
#include <stdio.h>
#include <string.h>

#include "base/hmap.h"
#include "sql/commands/sql_dml.h"

typedef struct restore_counts {
    int64_t n_restored, restored_bytes, n_removed, removed_bytes;
} restore_counts;

/* Every live file of snap by path. */
static dl_status
index_files(const dl_delta_snapshot *snap, dl_hmap *out, dl_error *err) {
    size_t n = dl_delta_snapshot_file_count(snap);
    DL_TRY(dl_hmap_reserve(out, n, err));
    for (size_t i = 0; i < n; i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(snap, i);
        DL_TRY(dl_hmap_put(out, f->path, (uint64_t)i, err));
    }
    return DL_OK;
}

/* The file's partition values as strings (in arena). */
static dl_status
partition_kv(dl_sql_binder *b, const dl_delta_snapshot *snap, const dl_delta_file *f,
             dl_delta_kv **out, dl_error *err) {
    int32_t n = dl_delta_snapshot_partition_count(snap);
    dl_delta_kv *kv = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(*kv));
    DL_CHECK(kv != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    dl_status s = DL_OK;
    for (int32_t p = 0; p < n && s == DL_OK; p++) {
        const dl_delta_field *field = dl_delta_snapshot_partition_field(snap, p);
        kv[p].key = dl_delta_field_physical_name(field, dl_delta_snapshot_cm_mode(snap));
        const dl_delta_value *v = f->partition != NULL ? &f->partition->values[p] : NULL;
        if (v == NULL || v->is_null) {
            continue;
        }
        dl_buf_reset(&text);
        s = dl_ops_value_text(v, field->type, &text, err);
        kv[p].value =
            s == DL_OK ? dl_arena_strndup(b->arena, (const char *)text.data, text.len) : NULL;
        if (s == DL_OK && kv[p].value == NULL) {
            s = dl_error_set(err, DL_ERR_NOMEM, "out of memory");
        }
    }
    dl_buf_destroy(&text);
    *out = kv;
    return s;
}

static dl_status
add_back(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_delta_snapshot *old,
         const dl_delta_file *f, dl_delta_tx *tx, dl_error *err) {
    if ((f->flags & DL_DELTA_FILE_ABSOLUTE) == 0) {
        const char *full =
            dl_arena_printf(b->arena, "%s%s%s", t->root, t->root[0] ? "/" : "", f->path.ptr);
        DL_CHECK(full != NULL, err, DL_ERR_NOMEM, "out of memory");
        dl_store_info info;
        dl_status s = dl_store_stat(t->store, full, &info, err);
        if (s == DL_ERR_NOT_FOUND) {
            DL_FAIL(err, DL_ERR_NOT_FOUND,
                    "cannot restore table %s to version %lld: its data file %s was deleted (by "
                    "VACUUM?)",
                    t->display, (long long)dl_delta_snapshot_version(old), f->path.ptr);
        }
        DL_TRY(s);
    }
    dl_delta_kv *kv = NULL;
    DL_TRY(partition_kv(b, old, f, &kv, err));
    const char *stats =
        f->stats.len > 0 ? dl_arena_strndup(b->arena, f->stats.ptr, f->stats.len) : NULL;
    dl_delta_add_file add = {.path = f->path.ptr,
                             .partition_values = kv,
                             .n_partition_values = dl_delta_snapshot_partition_count(old),
                             .size = f->size,
                             .modification_time = f->modification_time,
                             .data_change = true,
                             .stats = stats,
                             .dv = f->dv,
                             .has_base_row_id = f->base_row_id >= 0,
                             .base_row_id = f->base_row_id,
                             .has_default_row_commit_version = f->default_row_commit_version >= 0,
                             .default_row_commit_version = f->default_row_commit_version};
    return dl_delta_tx_add(tx, &add, err);
}

static dl_status
stage_diff(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_delta_snapshot *old,
           dl_delta_tx *tx, restore_counts *c, dl_error *err) {
    dl_hmap now;
    dl_hmap then;
    dl_hmap_init(&now, b->exec->alloc);
    dl_hmap_init(&then, b->exec->alloc);
    dl_status s = index_files(t->snap, &now, err);
    s = s == DL_OK ? index_files(old, &then, err) : s;
    for (size_t i = 0; s == DL_OK && i < dl_delta_snapshot_file_count(old); i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(old, i);
        uint64_t ignored = 0;
        if (!dl_hmap_get(&now, f->path, &ignored)) {
            s = add_back(b, t, old, f, tx, err);
            c->n_restored++;
            c->restored_bytes += f->size;
        }
    }
    for (size_t i = 0; s == DL_OK && i < dl_delta_snapshot_file_count(t->snap); i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(t->snap, i);
        uint64_t ignored = 0;
        if (!dl_hmap_get(&then, f->path, &ignored)) {
            s = dl_delta_tx_remove_snapshot_file(tx, f, true, err);
            c->n_removed++;
            c->removed_bytes += f->size;
        }
    }
    dl_hmap_destroy(&then);
    dl_hmap_destroy(&now);
    return s;
}

/* The timestamp parameter as Spark records it: a literal's value as written, without the
 * SQL quotes ('2026-01-01' and TIMESTAMP'2026-01-01' both give 2026-01-01); any other
 * expression as its SQL text. */
static const char *
timestamp_text(dl_sql_binder *b, const dl_sql_expr *e) {
    bool is_text_literal =
        e->kind == DL_SQL_EXPR_LITERAL &&
        (e->u.lit.kind == DL_SQL_LIT_STRING || e->u.lit.kind == DL_SQL_LIT_TIMESTAMP ||
         e->u.lit.kind == DL_SQL_LIT_TIMESTAMP_NTZ || e->u.lit.kind == DL_SQL_LIT_TIMESTAMP_LTZ ||
         e->u.lit.kind == DL_SQL_LIT_DATE);
    if (!is_text_literal) {
        return dl_sql_dml_expr_text(b, e);
    }
    dl_str t = e->u.lit.text;
    /* Spark prints the seconds' fraction without trailing zeros, keeping one digit
     * (java.sql.Timestamp's form: 07:41:19.670 is recorded as 07:41:19.67, .000 as .0) */
    size_t dot = t.len;
    while (dot > 0 && t.ptr[dot - 1] >= '0' && t.ptr[dot - 1] <= '9') {
        dot--;
    }
    if (dot > 3 && dot < t.len && t.ptr[dot - 1] == '.' && t.ptr[dot - 4] == ':') {
        while (t.len > dot + 1 && t.ptr[t.len - 1] == '0') {
            t.len--;
        }
    }
    char *text = dl_arena_strndup(b->arena, t.ptr, t.len);
    return text != NULL ? text : dl_sql_dml_expr_text(b, e);
}

/* Whether a and b hold the same table properties. */
static bool
is_same_configuration(const dl_delta_metadata *a, const dl_delta_metadata *b) {
    if (a->n_configuration != b->n_configuration) {
        return false;
    }
    for (int32_t i = 0; i < a->n_configuration; i++) {
        const char *v = dl_delta_metadata_config(b, a->configuration[i].key);
        const char *w = a->configuration[i].value;
        if (v == NULL || w == NULL ? v != w : strcmp(v, w) != 0) {
            return false;
        }
    }
    return true;
}

static dl_status
stage_restore(dl_sql_binder *b, const dl_sql_stmt *stmt, const dl_sql_dml_target *t,
              const dl_delta_snapshot *old, dl_delta_tx *tx, dl_error *err) {
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_RESTORE);
    dl_delta_tx_read_whole_table(tx);
    int64_t version = dl_delta_snapshot_version(old);
    if (stmt->u.restore.tt.kind == DL_SQL_TT_VERSION) {
        char text[32];
        (void)snprintf(text, sizeof(text), "%lld", (long long)version);
        DL_TRY(dl_delta_tx_param_json(tx, "version", text, err));
        DL_TRY(dl_delta_tx_param_json(tx, "timestamp", "null", err));
    } else {
        DL_TRY(dl_delta_tx_param_json(tx, "version", "null", err));
        DL_TRY(dl_delta_tx_param_string(tx, "timestamp", timestamp_text(b, stmt->u.restore.tt.expr),
                                        err));
    }
    const dl_delta_metadata *old_md = dl_delta_snapshot_metadata(old);
    const dl_delta_metadata *md = dl_delta_snapshot_metadata(t->snap);
    bool is_schema_changed = old_md->schema_string != NULL && md->schema_string != NULL &&
                             strcmp(old_md->schema_string, md->schema_string) != 0;
    if (is_schema_changed || !is_same_configuration(old_md, md)) {
        dl_delta_metadata restored = *old_md;
        restored.id = md->id;
        DL_TRY(dl_delta_tx_set_metadata(tx, &restored, err));
    }
    restore_counts c = {0};
    DL_TRY(stage_diff(b, t, old, tx, &c, err));
    DL_TRY(dl_delta_tx_metric(tx, "numRestoredFiles", c.n_restored, err));
    DL_TRY(dl_delta_tx_metric(tx, "removedFilesSize", c.removed_bytes, err));
    DL_TRY(dl_delta_tx_metric(tx, "numRemovedFiles", c.n_removed, err));
    DL_TRY(dl_delta_tx_metric(tx, "restoredFilesSize", c.restored_bytes, err));
    DL_TRY(dl_delta_tx_metric(tx, "numOfFilesAfterRestore",
                              (int64_t)dl_delta_snapshot_file_count(old), err));
    return dl_delta_tx_metric(tx, "tableSizeAfterRestore", dl_delta_snapshot_total_bytes(old), err);
}

/* RESTORE to a version past the available ones: Spark's DELTA_CANNOT_RESTORE_TABLE_VERSION
 * (time travel's own error is DELTA_VERSION_NOT_FOUND). */
static void
restore_not_found(dl_error *err) {
    const char *avail = err != NULL ? strstr(err->msg, "Available versions:") : NULL;
    if (avail == NULL || strstr(err->msg, "[DELTA_VERSION_NOT_FOUND]") == NULL) {
        return;
    }
    char tail[128];
    (void)snprintf(tail, sizeof(tail), "%s", avail);
    (void)snprintf(err->msg, sizeof(err->msg),
                   "[DELTA_CANNOT_RESTORE_TABLE_VERSION] Cannot restore table to version %lld. %s",
                   (long long)err->version, tail);
}

dl_status
dl_sql_dml_restore(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    dl_sql_dml_target t;
    DL_TRY(dl_sql_dml_open(b, &stmt->u.restore.table, stmt->loc, &t, err));
    dl_delta_snapshot *at = NULL;
    dl_status s = dl_sql_travel(b, t.table, &stmt->u.restore.tt, &at, err);
    if (s != DL_OK) {
        restore_not_found(err);
        dl_sql_binder_locate(b, stmt->u.restore.tt.loc, err);
        return s;
    }
    int64_t version = dl_delta_snapshot_version(at);
    dl_delta_snapshot_unref(at);
    /* Reloaded with the stats in memory: the adds carry them. */
    dl_delta_snapshot_options opts = {.is_stats_in_memory = true};
    dl_delta_snapshot *old = NULL;
    DL_TRY(dl_delta_snapshot_at_version(t.table, version, &opts, &old, err));
    DL_TRY(dl_sql_hold_snapshot(b, old, err));
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(t.table, t.snap, NULL, &tx, err));
    s = stage_restore(b, stmt, &t, old, tx, err);
    if (s != DL_OK) {
        dl_delta_tx_free(tx);
        return s;
    }
    return dl_sql_dml_commit_counted(b, tx, NULL, err);
}
