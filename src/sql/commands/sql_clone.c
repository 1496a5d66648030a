/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CREATE [OR REPLACE] TABLE [IF NOT EXISTS] t SHALLOW | DEEP CLONE src [VERSION AS OF n |
 * TIMESTAMP AS OF ts] [TBLPROPERTIES (...)] (sql_dml.h), as Delta's CloneTableCommand:
 *
 *   - one commit on the target (version 0, or the next version when OR REPLACE meets an
 *     existing table, whose live files are then removed): the source's protocol, its
 *     metaData (schema, partition columns, description, configuration with TBLPROPERTIES laid
 *     over it) under a new table id, and an add per live file of the source version;
 *   - SHALLOW: the adds name the source's files by absolute path (file:/...), so nothing is
 *     copied. The clone reads them where they are: a VACUUM of the source that deletes one
 *     (after the source removed it and the retention passed) breaks the clone, as Delta
 *     documents; reading it then fails naming the missing file;
 *   - DEEP (Databricks' clone; open-source Delta refuses it): the files (and their deletion
 *     vector files) are copied under the target with their relative paths, so the clone is
 *     independent of the source;
 *   - commitInfo: operation CLONE, operationParameters source (the source's name) and
 *     sourceVersion (what Delta's Clone operation records); operationMetrics sourceTableSize,
 * sourceNumOfFiles, numRemovedFiles, numCopiedFiles, removedFilesSize, copiedFilesSize; the
 * statement's result row is those six numbers, named as Spark names them.
 *
 * Refused: a source that is not a Delta table, cloning a table onto itself, a shallow clone
 * of files with on-disk deletion vectors (their relative DV paths would point into the
 * clone), column lists, PARTITIONED BY, AS SELECT and LOCATION (not clauses of CLONE).
 */
#include <stdio.h>
#include <string.h>

#include "delta/delta_dv.h"
#include "sql/bind/sql_describe_int.h"
#include "sql/commands/sql_dml.h"

typedef struct clone_ctx {
    dl_sql_dml_new_table target;
    dl_delta_snapshot *src;   /* the source version */
    const char *src_name;     /* the source's name for messages and operationParameters */
    const char *src_location; /* its folder (absolute) */
    bool is_deep;
    /* the metrics, in Spark's order */
    int64_t source_size, source_files, removed_files, copied_files, removed_size, copied_size;
} clone_ctx;

static dl_status
check_clauses(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    const char *bad = stmt->u.create_table.columns.n > 0          ? "a column list"
                      : stmt->u.create_table.partitioned_by.n > 0 ? "PARTITIONED BY"
                      : stmt->u.create_table.cluster_by.n > 0     ? "CLUSTER BY"
                      : stmt->u.create_table.options.n > 0        ? "OPTIONS"
                      : stmt->u.create_table.has_comment          ? "COMMENT"
                      : stmt->u.create_table.as_query != NULL     ? "AS SELECT"
                                                                  : NULL;
    if (bad != NULL) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_SQL_SYNTAX, err,
                         "CREATE TABLE ... CLONE takes no %s: the clone has the source's columns, "
                         "partitioning and description (set properties with TBLPROPERTIES)",
                         bad);
    }
    return DL_OK;
}

/* A table's folder as an absolute path: its store's location joined with its root. */
static const char *
folder_of(dl_sql_binder *b, const dl_store *store, const char *root) {
    const char *loc = store->location;
    size_t n = strlen(loc);
    if (root[0] == '\0') {
        return loc;
    }
    return dl_arena_printf(b->arena, "%s%s%s", loc, n > 0 && loc[n - 1] == '/' ? "" : "/", root);
}

/* The source version the statement names (its latest without a time-travel clause). */
static dl_status
open_source(dl_sql_binder *b, const dl_sql_stmt *stmt, clone_ctx *c, dl_error *err) {
    const dl_sql_name *name = &stmt->u.create_table.clone_source;
    dl_delta_table *table = NULL;
    DL_TRY(dl_sql_open_table(b, name, false, DL_STR(""), name->parts[0].loc, &table, &c->src_name,
                             err));
    DL_TRY(dl_sql_dml_hold_table(b, table, err));
    dl_status s = dl_sql_travel(b, table, &stmt->u.create_table.clone_tt, &c->src, err);
    if (s != DL_OK) {
        dl_sql_binder_locate(b, name->parts[0].loc, err);
        return s;
    }
    DL_TRY(dl_sql_hold_snapshot(b, c->src, err));
    c->src_location = folder_of(b, dl_delta_snapshot_store(c->src), dl_delta_snapshot_root(c->src));
    DL_CHECK(c->src_location != NULL, err, DL_ERR_NOMEM, "out of memory");
    return DL_OK;
}

/* The source's configuration with the statement's TBLPROPERTIES laid over it. */
static dl_status
clone_configuration(dl_sql_binder *b, const dl_sql_stmt *stmt, const dl_delta_metadata *src,
                    dl_delta_metadata *md, dl_error *err) {
    const dl_sql_prop_list *props = &stmt->u.create_table.props;
    int32_t cap = src->n_configuration + (int32_t)props->n;
    dl_delta_kv *kv = dl_arena_alloc_zero(b->arena, (size_t)(cap + 1) * sizeof(*kv));
    DL_CHECK(kv != NULL, err, DL_ERR_NOMEM, "out of memory");
    int32_t n = src->n_configuration;
    if (n > 0) {
        memcpy(kv, src->configuration, (size_t)n * sizeof(*kv));
    }
    for (uint32_t i = 0; i < props->n; i++) {
        dl_delta_kv p = {
            .key = dl_arena_strndup(b->arena, props->items[i].key.ptr, props->items[i].key.len),
            .value =
                dl_arena_strndup(b->arena, props->items[i].value.ptr, props->items[i].value.len)};
        DL_CHECK(p.key != NULL && p.value != NULL, err, DL_ERR_NOMEM, "out of memory");
        DL_TRY(dl_sql_dml_check_property(b, &props->items[i], &p, err));
        int32_t at = n;
        for (int32_t k = 0; k < n; k++) {
            if (strcmp(kv[k].key, p.key) == 0) {
                at = k;
            }
        }
        kv[at] = p;
        n += at == n ? 1 : 0;
    }
    md->configuration = kv;
    md->n_configuration = n;
    return DL_OK;
}

/* The target's protocol and metaData: the source's, under a new id (the table's own when it
 * is replaced), created now. */
static dl_status
stage_metadata(dl_sql_binder *b, const dl_sql_stmt *stmt, clone_ctx *c, dl_delta_tx *tx,
               dl_error *err) {
    const dl_delta_metadata *src = dl_delta_snapshot_metadata(c->src);
    dl_delta_metadata md = *src;
    char *id = dl_arena_alloc_zero(b->arena, 37);
    DL_CHECK(id != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (c->target.t.snap != NULL) {
        md.id = dl_delta_snapshot_metadata(c->target.t.snap)->id;
    } else {
        uint8_t uuid[16];
        DL_TRY(dl_delta_uuid_random(uuid, err));
        dl_delta_uuid_format(uuid, id);
        md.id = id;
    }
    md.name = NULL;
    md.has_created_time = true;
    md.created_time = dl_sql_dml_now_ms();
    DL_TRY(clone_configuration(b, stmt, src, &md, err));
    DL_TRY(dl_delta_tx_set_protocol(tx, dl_delta_snapshot_protocol(c->src), err));
    return dl_delta_tx_set_metadata(tx, &md, err);
}

/* Copies the file at from (in src_store) to path to under the target. */
static dl_status
copy_file(dl_sql_binder *b, clone_ctx *c, dl_store *src_store, const char *from, const char *to,
          dl_error *err) {
    const char *root = c->target.t.root;
    const char *dest = root[0] != '\0' ? dl_arena_printf(b->arena, "%s/%s", root, to) : to;
    DL_CHECK(dest != NULL, err, DL_ERR_NOMEM, "out of memory");
    const char *slash = strrchr(dest, '/');
    if (slash != NULL) {
        const char *dir = dl_arena_strndup(b->arena, dest, (size_t)(slash - dest));
        DL_CHECK(dir != NULL, err, DL_ERR_NOMEM, "out of memory");
        DL_TRY(dl_store_mkdirs(c->target.t.store, dir, err));
    }
    dl_store_file *in = NULL;
    DL_TRY(dl_store_file_open(src_store, from, &in, err));
    dl_store_writer *out = NULL;
    dl_status s = dl_store_writer_open(c->target.t.store, dest, DL_STORE_PUT_OVERWRITE, &out, err);
    dl_buf chunk;
    dl_buf_init(&chunk, b->exec->alloc);
    int64_t size = s == DL_OK ? in->size : 0;
    for (int64_t at = 0; s == DL_OK && at < size;) {
        size_t n = size - at > ((int64_t)1 << 22) ? (size_t)1 << 22 : (size_t)(size - at);
        dl_buf_reset(&chunk);
        s = dl_store_file_read_at_buf(in, at, n, &chunk, err);
        if (s == DL_OK) {
            s = dl_store_writer_append(out, chunk.data, chunk.len, err);
        }
        at += (int64_t)n;
    }
    if (s == DL_OK) {
        s = dl_store_writer_commit(out, err);
        out = NULL;
    }
    dl_store_writer_abort(out);
    dl_buf_destroy(&chunk);
    dl_store_file_close(in);
    if (s != DL_OK) {
        dl_error_prefix(err, "DEEP CLONE of %s: copying '%s'", c->src_name, from);
    }
    return s;
}

/* The source file's path in its store. */
static const char *
source_path(dl_sql_binder *b, const clone_ctx *c, const char *rel) {
    const char *root = dl_delta_snapshot_root(c->src);
    return root[0] != '\0' ? dl_arena_printf(b->arena, "%s/%s", root, rel) : rel;
}

/* DEEP: the deletion vector file of f copied too ('u' and relative 'p' paths are relative to
 * the table, so the descriptor stays as it is). */
static dl_status
copy_dv_file(dl_sql_binder *b, clone_ctx *c, const dl_delta_file *f, dl_error *err) {
    if (f->dv == NULL || f->dv->storage_type == DL_DELTA_DV_STORAGE_INLINE) {
        return DL_OK;
    }
    dl_buf path;
    dl_buf_init(&path, b->exec->alloc);
    bool is_absolute = false;
    dl_status s = dl_delta_dv_desc_locate(f->dv, dl_delta_snapshot_store(c->src), NULL, &path,
                                          &is_absolute, err);
    const char *rel =
        s == DL_OK ? dl_arena_strndup(b->arena, (const char *)path.data, path.len) : NULL;
    dl_buf_destroy(&path);
    DL_TRY(s);
    DL_CHECK(rel != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (is_absolute) {
        return DL_OK; /* outside the source: the clone reads it where it is */
    }
    return copy_file(b, c, dl_delta_snapshot_store(c->src), source_path(b, c, rel), rel, err);
}

/* The add of one source file: its absolute URI (SHALLOW) or a copy (DEEP). */
static dl_status
clone_file(dl_sql_binder *b, clone_ctx *c, const dl_delta_file *f, dl_delta_stats_reader *rd,
           dl_delta_tx *tx, dl_error *err) {
    bool is_abs = (f->flags & DL_DELTA_FILE_ABSOLUTE) != 0;
    const char *path = f->path.ptr;
    bool has_dv_file = f->dv != NULL && f->dv->storage_type == DL_DELTA_DV_STORAGE_UUID;
    if (!c->is_deep && has_dv_file) {
        DL_SQL_BIND_FAIL(b, b->stmt->loc, DL_ERR_UNSUPPORTED, err,
                         "SHALLOW CLONE of %s: its file '%s' has a deletion vector in a file of "
                         "the source, which deltalite cannot point a clone at yet (use DEEP "
                         "CLONE, or REORG TABLE %s APPLY (PURGE) first)",
                         c->src_name, path, c->src_name);
    }
    if (is_abs && path[0] != '/') {
        DL_SQL_BIND_FAIL(b, b->stmt->loc, DL_ERR_UNSUPPORTED, err,
                         "CLONE of %s: its file '%s' is not on the local file system", c->src_name,
                         path);
    }
    if (!c->is_deep && !is_abs) {
        path = dl_arena_printf(b->arena, "file:%s/%s", c->src_location, f->path.ptr);
        DL_CHECK(path != NULL, err, DL_ERR_NOMEM, "out of memory");
    }
    if (c->is_deep && is_abs) {
        /* a file outside the source (the source is a shallow clone): copied to the target's
         * root under its own name, so that the deep clone depends on nothing */
        dl_store *root = NULL;
        DL_TRY(dl_sql_root_store(b, &root, err));
        const char *name = strrchr(f->path.ptr, '/');
        path = name != NULL ? name + 1 : f->path.ptr;
        DL_TRY(copy_file(b, c, root, f->path.ptr + 1, path, err));
    } else if (c->is_deep) {
        DL_TRY(copy_file(b, c, dl_delta_snapshot_store(c->src), source_path(b, c, f->path.ptr),
                         f->path.ptr, err));
        DL_TRY(copy_dv_file(b, c, f, err));
    } else if (is_abs) {
        path = dl_arena_printf(b->arena, "file:%s", f->path.ptr);
        DL_CHECK(path != NULL, err, DL_ERR_NOMEM, "out of memory");
    }
    if (c->is_deep) {
        c->copied_files++;
        c->copied_size += f->size > 0 ? f->size : 0;
    }
    dl_str stats = {0};
    bool has_stats = false;
    DL_TRY(dl_delta_file_stats_json(c->src, f, rd, &stats, &has_stats, err));
    const char *text = has_stats ? dl_arena_strndup(b->arena, stats.ptr, stats.len) : NULL;
    DL_CHECK(!has_stats || text != NULL, err, DL_ERR_NOMEM, "out of memory");
    return dl_delta_tx_add_file_as(tx, f, path, f->dv, text, err);
}

static dl_status
stage_files(dl_sql_binder *b, clone_ctx *c, dl_delta_tx *tx, dl_error *err) {
    if (c->target.t.snap != NULL) {
        dl_delta_tx_read_whole_table(tx);
        DL_TRY(dl_sql_dml_remove_all(&c->target.t, tx, &c->removed_files, &c->removed_size, err));
    }
    dl_delta_stats_reader rd;
    dl_delta_stats_reader_init(&rd, b->exec->alloc);
    dl_status s = DL_OK;
    size_t n = dl_delta_snapshot_file_count(c->src);
    for (size_t i = 0; i < n && s == DL_OK; i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(c->src, i);
        c->source_files++;
        c->source_size += f->size > 0 ? f->size : 0;
        s = clone_file(b, c, f, &rd, tx, err);
    }
    dl_delta_stats_reader_destroy(&rd);
    return s;
}

static dl_status
stage_commit_info(dl_sql_binder *b, clone_ctx *c, dl_delta_tx *tx, dl_error *err) {
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_CLONE);
    DL_TRY(dl_delta_tx_param_string(tx, "source", c->src_name, err));
    char version[24];
    (void)snprintf(version, sizeof(version), "%lld", (long long)dl_delta_snapshot_version(c->src));
    DL_TRY(dl_delta_tx_param_json(tx, "sourceVersion", version, err));
    dl_sql_dml_metric metrics[] = {
        {"sourceTableSize", c->source_size},   {"sourceNumOfFiles", c->source_files},
        {"numRemovedFiles", c->removed_files}, {"numCopiedFiles", c->copied_files},
        {"removedFilesSize", c->removed_size}, {"copiedFilesSize", c->copied_size},
    };
    (void)b;
    return dl_sql_dml_set_metrics(tx, metrics, DL_ARRAY_LEN(metrics), err);
}

static dl_status
fill_row(void *ctx, dl_batch *tail, dl_error *err) {
    const clone_ctx *c = ctx;
    const int64_t v[6] = {c->source_size,  c->source_files, c->removed_files,
                          c->copied_files, c->removed_size, c->copied_size};
    for (int i = 0; i < 6; i++) {
        DL_TRY(dl_vec_append_i64(tail->cols[i], v[i], err));
    }
    return DL_OK;
}

/* Spark's result row: the six metrics (zeros when IF NOT EXISTS found the table). */
static dl_status
result_row(dl_sql_binder *b, clone_ctx *c, dl_sql_plan **out, dl_error *err) {
    const dl_type *big = dl_vec_type_prim(DL_VEC_TYPE_LONG);
    dl_sql_col_spec specs[] = {
        {"source_table_size", big}, {"source_num_of_files", big}, {"num_removed_files", big},
        {"num_copied_files", big},  {"removed_files_size", big},  {"copied_files_size", big},
    };
    const dl_type *schema = NULL;
    DL_TRY(dl_sql_make_schema(b, specs, DL_ARRAY_LEN(specs), &schema, err));
    return dl_sql_plan_one_row(b, schema, fill_row, c, out, err);
}

dl_status
dl_sql_dml_clone(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    DL_TRY(check_clauses(b, stmt, err));
    clone_ctx *c = dl_arena_alloc_zero(b->arena, sizeof(*c));
    DL_CHECK(c != NULL, err, DL_ERR_NOMEM, "out of memory");
    c->is_deep = stmt->u.create_table.is_deep_clone;
    DL_TRY(open_source(b, stmt, c, err));
    DL_TRY(dl_sql_dml_create_target(b, stmt, &c->target, err));
    if (c->target.is_skipped) {
        return result_row(b, c, out, err);
    }
    const char *target_location = folder_of(b, c->target.t.store, c->target.t.root);
    DL_CHECK(target_location != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (strcmp(target_location, c->src_location) == 0) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_INVALID_ARG, err,
                         "[DELTA_UNSUPPORTED_CLONE_REPLACE_SAME_TABLE] cannot clone %s onto "
                         "itself",
                         c->src_name);
    }
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(c->target.t.table, c->target.t.snap, NULL, &tx, err));
    dl_status s = stage_metadata(b, stmt, c, tx, err);
    if (s == DL_OK) {
        s = stage_files(b, c, tx, err);
    }
    if (s == DL_OK) {
        s = stage_commit_info(b, c, tx, err);
    }
    if (s != DL_OK) {
        dl_sql_dml_discard(tx, NULL);
        return s;
    }
    DL_TRY(dl_sql_dml_commit(tx, NULL, err));
    return result_row(b, c, out, err);
}
