/* SPDX-License-Identifier: Apache-2.0 */
/*
 * delta_cpgen SRC_TABLE DST_TABLE VERSION
 *
 * Makes a checkpointed copy of a table's log for the snapshot-load benchmark: DST_TABLE gets a
 * classic Parquet checkpoint of SRC_TABLE at VERSION (written by deltalite's Parquet writer in
 * Spark's checkpoint schema, stats as JSON strings), the commits after VERSION copied as they
 * are, and _last_checkpoint. Data files are not copied. For bench/'s JSON log at scale 1
 * (10,000 commits), VERSION 9990 gives a checkpoint of about 999,000 live files plus 9 commits:
 *
 *   delta_cpgen bench/data/log_sf1_seed42 /tmp/log_cp 9990
 *   bench/dl_bench_snapshot_load /tmp/log_cp 3
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "delta/delta.h"
#include "json/json.h"
#include "test_delta_cp_util.h"

static dl_status
kv_object(dl_json_writer *w, const char *key, const dl_delta_kv *kv, int32_t n, dl_error *err) {
    DL_TRY(dl_json_writer_key_cstr(w, key, err));
    DL_TRY(dl_json_writer_begin_object(w, err));
    for (int32_t i = 0; i < n; i++) {
        DL_TRY(dl_json_writer_key_cstr(w, kv[i].key, err));
        DL_TRY(kv[i].value ? dl_json_writer_string_cstr(w, kv[i].value, err)
                           : dl_json_writer_null(w, err));
    }
    return dl_json_writer_end_object(w, err);
}

static dl_status
metadata_line(dl_json_writer *w, const dl_delta_metadata *md, dl_error *err) {
    DL_TRY(dl_json_writer_begin_object(w, err));
    DL_TRY(dl_json_writer_key_cstr(w, "metaData", err));
    DL_TRY(dl_json_writer_begin_object(w, err));
    DL_TRY(dl_json_writer_key_cstr(w, "id", err));
    DL_TRY(dl_json_writer_string_cstr(w, md->id, err));
    DL_TRY(dl_json_writer_key_cstr(w, "format", err));
    DL_TRY(dl_json_writer_begin_object(w, err));
    DL_TRY(dl_json_writer_key_cstr(w, "provider", err));
    DL_TRY(dl_json_writer_string_cstr(w, md->format_provider, err));
    DL_TRY(kv_object(w, "options", md->format_options, md->n_format_options, err));
    DL_TRY(dl_json_writer_end_object(w, err));
    DL_TRY(dl_json_writer_key_cstr(w, "schemaString", err));
    DL_TRY(dl_json_writer_string_cstr(w, md->schema_string, err));
    DL_TRY(dl_json_writer_key_cstr(w, "partitionColumns", err));
    DL_TRY(dl_json_writer_begin_array(w, err));
    for (int32_t i = 0; i < md->n_partition_columns; i++) {
        DL_TRY(dl_json_writer_string_cstr(w, md->partition_columns[i], err));
    }
    DL_TRY(dl_json_writer_end_array(w, err));
    DL_TRY(kv_object(w, "configuration", md->configuration, md->n_configuration, err));
    DL_TRY(dl_json_writer_key_cstr(w, "createdTime", err));
    DL_TRY(dl_json_writer_int64(w, md->created_time, err));
    DL_TRY(dl_json_writer_end_object(w, err));
    return dl_json_writer_end_object(w, err);
}

static dl_status
file_line(dl_json_writer *w, const dl_delta_file *f, bool is_add, dl_error *err) {
    DL_TRY(dl_json_writer_begin_object(w, err));
    DL_TRY(dl_json_writer_key_cstr(w, is_add ? "add" : "remove", err));
    DL_TRY(dl_json_writer_begin_object(w, err));
    DL_TRY(dl_json_writer_key_cstr(w, "path", err));
    DL_TRY(dl_json_writer_string(w, f->path, err));
    if (f->partition) {
        DL_TRY(dl_json_writer_key_cstr(w, "partitionValues", err));
        DL_TRY(dl_json_writer_raw(w, f->partition->raw, err));
    }
    if (f->size >= 0) {
        DL_TRY(dl_json_writer_key_cstr(w, "size", err));
        DL_TRY(dl_json_writer_int64(w, f->size, err));
    }
    DL_TRY(dl_json_writer_key_cstr(w, is_add ? "modificationTime" : "deletionTimestamp", err));
    DL_TRY(dl_json_writer_int64(w, f->modification_time, err));
    DL_TRY(dl_json_writer_key_cstr(w, "dataChange", err));
    DL_TRY(dl_json_writer_bool(w, (f->flags & DL_DELTA_FILE_DATA_CHANGE) != 0, err));
    if (f->stats.len > 0) {
        DL_TRY(dl_json_writer_key_cstr(w, "stats", err));
        DL_TRY(dl_json_writer_string(w, f->stats, err));
    }
    DL_TRY(dl_json_writer_end_object(w, err));
    return dl_json_writer_end_object(w, err);
}

/* Writes one line through the checkpoint writer. */
static bool
emit(cp_writer *cw, dl_buf *line, dl_json_writer *w, dl_error *err) {
    bool ok = cp_writer_add(cw, dl_buf_view(line), err);
    dl_buf_reset(line);
    dl_json_writer_reset(w);
    return ok;
}

static bool
write_checkpoint(dl_delta_snapshot *snap, dl_store *dst, const char *path, dl_error *err) {
    cp_shape shape = {.has_domain = true};
    cp_writer *cw = cp_writer_open(dst, path, &shape, err);
    if (!cw) {
        return false;
    }
    dl_buf line;
    dl_buf_init(&line, NULL);
    dl_json_writer w;
    dl_json_writer_init(&w, &line, 0);
    const dl_delta_protocol *p = dl_delta_snapshot_protocol(snap);
    bool ok = dl_buf_appendf(&line, err,
                             "{\"protocol\":{\"minReaderVersion\":%d,\"minWriterVersion\":%d}}",
                             (int)p->min_reader_version, (int)p->min_writer_version) == DL_OK &&
              emit(cw, &line, &w, err);
    ok = ok && metadata_line(&w, dl_delta_snapshot_metadata(snap), err) == DL_OK &&
         emit(cw, &line, &w, err);
    for (size_t i = 0; ok && i < dl_delta_snapshot_file_count(snap); i++) {
        ok = file_line(&w, dl_delta_snapshot_file(snap, i), true, err) == DL_OK &&
             emit(cw, &line, &w, err);
    }
    for (size_t i = 0; ok && i < dl_delta_snapshot_tombstone_count(snap); i++) {
        ok = file_line(&w, dl_delta_snapshot_tombstone(snap, i), false, err) == DL_OK &&
             emit(cw, &line, &w, err);
    }
    dl_json_writer_destroy(&w);
    dl_buf_destroy(&line);
    if (!ok) {
        cp_writer_abort(cw);
        return false;
    }
    return cp_writer_close(cw, err);
}

static bool
copy_commits(dl_store *src, dl_store *dst, int64_t from, dl_error *err) {
    dl_buf b;
    dl_buf_init(&b, NULL);
    bool ok = true;
    for (int64_t v = from;; v++) {
        char name[64];
        (void)snprintf(name, sizeof(name), "_delta_log/%020lld.json", (long long)v);
        dl_buf_reset(&b);
        dl_status st = dl_store_read_all(src, name, &b, err);
        if (st == DL_ERR_NOT_FOUND) {
            break;
        }
        ok = st == DL_OK && dl_store_write(dst, name, b.data, b.len, err) == DL_OK;
        if (!ok) {
            break;
        }
    }
    dl_buf_destroy(&b);
    return ok;
}

int
main(int argc, char **argv) {
    if (argc != 4) {
        (void)fprintf(stderr, "usage: %s SRC_TABLE DST_TABLE VERSION\n", argv[0]);
        return 2;
    }
    int64_t version = strtoll(argv[3], NULL, 10);
    char log[4096];
    (void)snprintf(log, sizeof(log), "%s/_delta_log", argv[2]);
    if ((mkdir(argv[2], 0755) != 0 && errno != EEXIST) ||
        (mkdir(log, 0755) != 0 && errno != EEXIST)) {
        (void)fprintf(stderr, "delta_cpgen: cannot create %s\n", log);
        return 1;
    }
    dl_error err;
    dl_error_clear(&err);
    dl_store *src = NULL;
    dl_store *dst = NULL;
    dl_delta_table *table = NULL;
    dl_delta_snapshot *snap = NULL;
    dl_delta_snapshot_options o = {.is_stats_in_memory = true};
    char cp[128];
    (void)snprintf(cp, sizeof(cp), "_delta_log/%020lld.checkpoint.parquet", (long long)version);
    char last[128];
    int n = snprintf(last, sizeof(last), "{\"version\":%lld}", (long long)version);
    bool ok = dl_store_local_new(argv[1], NULL, &src, &err) == DL_OK &&
              dl_store_local_new(argv[2], NULL, &dst, &err) == DL_OK &&
              dl_delta_table_open(src, "", NULL, &table, &err) == DL_OK &&
              dl_delta_snapshot_at_version(table, version, &o, &snap, &err) == DL_OK &&
              write_checkpoint(snap, dst, cp, &err) && copy_commits(src, dst, version + 1, &err) &&
              dl_store_write(dst, "_delta_log/_last_checkpoint", last, (size_t)n, &err) == DL_OK;
    if (ok) {
        (void)printf("%s: checkpoint of version %lld with %zu live files\n", argv[2],
                     (long long)version, dl_delta_snapshot_file_count(snap));
    } else {
        (void)fprintf(stderr, "delta_cpgen: %s\n", err.msg);
    }
    dl_delta_snapshot_unref(snap);
    dl_delta_table_free(table);
    dl_store_free(dst);
    dl_store_free(src);
    return ok ? 0 : 1;
}
