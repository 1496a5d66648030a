/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The delta_files('table' | 'path' [, version | timestamp]) table function: the data files of
 * a snapshot (the latest, or the one the second argument names, as VERSION AS OF / TIMESTAMP
 * AS OF do), one row per live add action, from the snapshot's replay of the log. It works
 * wherever the table reads: after checkpoints and log cleanup too (delta_log() shows only the
 * commits still there). Columns:
 *
 *   path                    STRING   relative to the table folder as on disk (the log's URI
 *                                    decoded); absolute for a shallow clone's files
 *   size                    BIGINT   bytes
 *   modificationTime        TIMESTAMP
 *   partitionValues         MAP<STRING, STRING>
 *   numRecords              BIGINT   physical rows (before deletion vectors); NULL without stats
 *   numDeletedRows          BIGINT   rows its deletion vector drops (0 without one)
 *   stats                   STRING   the stats JSON text as the log carries it, or NULL
 *   tags                    STRING   the tags JSON object, or NULL
 *   baseRowId               BIGINT   row tracking (NULL when absent)
 *   defaultRowCommitVersion BIGINT
 *   version                 BIGINT   the commit that added the file (NULL: from a checkpoint)
 *
 * The rows are ordered by path.
 */
#include <stdlib.h>
#include <string.h>

#include "sql/bind/sql_describe_int.h"

enum {
    F_PATH,
    F_SIZE,
    F_MTIME,
    F_PARTITIONS,
    F_NUM_RECORDS,
    F_DELETED,
    F_STATS,
    F_TAGS,
    F_BASE_ROW_ID,
    F_ROW_COMMIT_VERSION,
    F_VERSION,
    F_COUNT
};

static dl_status
files_schema(dl_sql_binder *b, const dl_type **out, dl_error *err) {
    const dl_type *str = dl_vec_type_prim(DL_VEC_TYPE_STRING);
    const dl_type *i64 = dl_vec_type_prim(DL_VEC_TYPE_LONG);
    const dl_type *map = NULL;
    DL_TRY(dl_sql_string_map_type(b, &map, err));
    dl_sql_col_spec specs[F_COUNT] = {
        {"path", str},
        {"size", i64},
        {"modificationTime", dl_vec_type_prim(DL_VEC_TYPE_TIMESTAMP)},
        {"partitionValues", map},
        {"numRecords", i64},
        {"numDeletedRows", i64},
        {"stats", str},
        {"tags", str},
        {"baseRowId", i64},
        {"defaultRowCommitVersion", i64},
        {"version", i64},
    };
    return dl_sql_make_schema(b, specs, F_COUNT, out, err);
}

static dl_status
put_i64_or_null(dl_vector *v, int64_t x, bool is_null, dl_error *err) {
    return is_null ? dl_vec_append_null(v, err) : dl_vec_append_i64(v, x, err);
}

typedef struct files_walk {
    const dl_delta_snapshot *snap;
    dl_sql_rows *rows;
    dl_json_doc doc;
    dl_json_doc stats_doc;
    dl_delta_stats_reader rd;
} files_walk;

static dl_status
file_row(files_walk *w, const dl_delta_file *f, dl_error *err) {
    dl_batch *tail = NULL;
    DL_TRY(dl_sql_rows_tail(w->rows, &tail, err));
    dl_vector **v = tail->cols;
    DL_TRY(dl_vec_append_str(v[F_PATH], f->path.ptr, f->path.len, err));
    DL_TRY(put_i64_or_null(v[F_SIZE], f->size, f->size < 0, err));
    DL_TRY(dl_vec_append_i64(v[F_MTIME], f->modification_time * 1000, err));
    dl_str raw = f->partition != NULL ? f->partition->raw : DL_STR("");
    DL_TRY(dl_sql_put_json_map(v[F_PARTITIONS], &w->doc, raw, err));
    dl_str stats = DL_STR("");
    bool has_stats = false;
    DL_TRY(dl_delta_file_stats_json(w->snap, f, &w->rd, &stats, &has_stats, err));
    dl_delta_stats parsed;
    bool has_count = false;
    dl_error
        parse_err; /* stats that do not parse give numRecords NULL; the stats column shows them */
    if (has_stats && dl_delta_stats_parse(stats, &w->stats_doc, &parsed, &parse_err) == DL_OK) {
        has_count = parsed.has_num_records;
    }
    DL_TRY(put_i64_or_null(v[F_NUM_RECORDS], has_count ? parsed.num_records : 0, !has_count, err));
    DL_TRY(dl_vec_append_i64(v[F_DELETED], f->dv != NULL ? f->dv->cardinality : 0, err));
    DL_TRY(dl_sql_put_str(v[F_STATS], stats, !has_stats, err));
    DL_TRY(dl_sql_put_str(v[F_TAGS], f->tags, f->tags.len == 0, err));
    DL_TRY(put_i64_or_null(v[F_BASE_ROW_ID], f->base_row_id, f->base_row_id < 0, err));
    DL_TRY(put_i64_or_null(v[F_ROW_COMMIT_VERSION], f->default_row_commit_version,
                           f->default_row_commit_version < 0, err));
    DL_TRY(put_i64_or_null(v[F_VERSION], f->version, f->version < 0, err));
    dl_sql_rows_commit_row(w->rows);
    return DL_OK;
}

static int
cmp_file_path(const void *a, const void *c) {
    const dl_delta_file *x = *(const dl_delta_file *const *)a;
    const dl_delta_file *y = *(const dl_delta_file *const *)c;
    return strcmp(x->path.ptr, y->path.ptr);
}

static dl_status
files_rows(dl_sql_binder *b, const dl_delta_snapshot *snap, dl_sql_rows *rows, dl_error *err) {
    size_t n = dl_delta_snapshot_file_count(snap);
    const dl_delta_file **order = NULL;
    if (n > 0) {
        order = dl_arena_alloc(b->arena, n * sizeof(const dl_delta_file *));
        DL_CHECK(order != NULL, err, DL_ERR_NOMEM, "out of memory listing the files");
        for (size_t i = 0; i < n; i++) {
            order[i] = dl_delta_snapshot_file(snap, i);
        }
        qsort(order, n, sizeof(const dl_delta_file *), cmp_file_path);
    }
    files_walk w = {.snap = snap, .rows = rows};
    dl_json_doc_init(&w.doc, b->exec->alloc);
    dl_json_doc_init(&w.stats_doc, b->exec->alloc);
    dl_delta_stats_reader_init(&w.rd, b->exec->alloc);
    dl_status s = DL_OK;
    for (size_t i = 0; i < n && s == DL_OK; i++) {
        s = file_row(&w, order[i], err);
    }
    dl_delta_stats_reader_destroy(&w.rd);
    dl_json_doc_destroy(&w.stats_doc);
    dl_json_doc_destroy(&w.doc);
    return s;
}

/* The second argument: an integer is a version, anything else a timestamp. */
static dl_status
snapshot_arg(dl_sql_binder *b, dl_delta_table *table, dl_sql_expr *arg, dl_delta_snapshot **out,
             dl_error *err) {
    dl_sql_time_travel tt = {.kind = DL_SQL_TT_NONE};
    if (arg != NULL) {
        dl_sql_scope empty = {0};
        dl_sql_bctx cx = {.b = b, .scope = &empty, .clause = "delta_files()"};
        dl_sql_bexpr *e = NULL;
        DL_TRY(dl_sql_binder_expr(&cx, arg, &e, err));
        dl_type_id id = e->type->id;
        bool is_version = id == DL_VEC_TYPE_BYTE || id == DL_VEC_TYPE_SHORT ||
                          id == DL_VEC_TYPE_INT || id == DL_VEC_TYPE_LONG;
        tt = (dl_sql_time_travel){.kind = is_version ? DL_SQL_TT_VERSION : DL_SQL_TT_TIMESTAMP,
                                  .loc = arg->loc,
                                  .expr = arg};
    }
    if (tt.kind == DL_SQL_TT_NONE) {
        return dl_delta_snapshot_latest(table, NULL, out, err);
    }
    return dl_sql_travel(b, table, &tt, out, err);
}

dl_status
dl_sql_binder_delta_files(dl_sql_binder *b, const dl_sql_tref *tref, dl_sql_plan **out,
                          dl_error *err) {
    const dl_sql_expr_list *args = &tref->u.func.args;
    if (args->n < 1 || args->n > 2) {
        DL_SQL_BIND_FAIL(b, tref->loc, DL_ERR_SQL_BIND, err,
                         "delta_files takes a table name or path, then optionally a version or "
                         "a timestamp: delta_files('t'), delta_files('t', 3), "
                         "delta_files('t', '2026-01-01 10:00:00')");
    }
    dl_delta_table *table = NULL;
    const char *display = NULL;
    DL_TRY(dl_sql_open_table_arg(b, args->items[0], "delta_files", &table, &display, err));
    dl_delta_snapshot *snap = NULL;
    dl_status s = snapshot_arg(b, table, args->n == 2 ? args->items[1] : NULL, &snap, err);
    dl_delta_table_free(table);
    if (s != DL_OK) {
        dl_error_prefix(err, "delta_files(%s)", display);
        return s;
    }
    DL_TRY(dl_sql_hold_snapshot(b, snap, err));
    const dl_type *schema = NULL;
    DL_TRY(files_schema(b, &schema, err));
    dl_sql_rows rows;
    dl_sql_rows_init(&rows, b->exec->alloc, schema);
    s = files_rows(b, snap, &rows, err);
    if (s != DL_OK) {
        dl_sql_rows_destroy(&rows);
        dl_error_prefix(err, "delta_files(%s)", display);
        return s;
    }
    return dl_sql_plan_rows(b, &rows, out, err);
}
