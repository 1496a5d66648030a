/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dl_bench_load_delta PARQUET TABLE_DIR [--rows-per-file N] [--row-group-rows N] [--threads N]
 *
 * Writes the rows of one Parquet file as a new Delta table in TABLE_DIR, through deltalite's
 * own Parquet writer (parquet/pq_writer.h) and transaction API (delta/delta_txn.h), laid out the
 * way Spark lays out a CREATE TABLE ... AS SELECT:
 *
 *   TABLE_DIR/part-<nnnnn>-<txnId>-c000.snappy.parquet   data files of about N rows each
 *                                                        (default 1,000,000; a file is closed
 *                                                        at the first batch boundary at or
 *                                                        past N rows), snappy, row groups of
 *                                                        at most 128 MiB of data or
 *                                                        --row-group-rows rows
 *   TABLE_DIR/_delta_log/00000000000000000000.json       one commit: commitInfo (CREATE TABLE
 *                                                        AS SELECT), protocol, metaData, and
 *                                                        one add per data file
 *
 * The table's schema is the Parquet file's, as deltalite's reader maps it (a DuckDB TIMESTAMP
 * column, isAdjustedToUTC = false, becomes timestamp_ntz, so the protocol carries that
 * feature). Every add carries `stats` as Spark writes them ("Per-file Statistics" in
 * PROTOCOL.md), so file skipping works:
 *
 *   {"numRecords":n,"minValues":{...},"maxValues":{...},"nullCount":{...}}
 *
 * with nullCount for every top-level primitive column and min/max for the integer, float and
 * double (finite bounds only), date, timestamp and timestamp_ntz columns (ISO-8601 floored to
 * milliseconds: a reader widens the max by 999 us) and for string columns whose bounds are
 * exact and at most 32 bytes (Spark's prefix length; longer ones are left out rather than
 * truncated). Booleans, decimals, binaries and nested columns get no min/max.
 *
 * TABLE_DIR must not hold a table yet (refused with EXISTS before anything is written). A
 * failure after that leaves data files without a commit (orphans): delete TABLE_DIR and run
 * again. Prints, last,
 *
 *   RESULT seconds=<s> rows=<n> files=<n> bytes=<n> version=<v>
 *
 * --threads N: N - 1 pool workers encode columns in parallel with the calling thread (default:
 * one per processor).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/pool.h"
#include "base/timefmt.h"
#include "delta/delta.h"
#include "delta/delta_txn.h"
#include "json/json.h"
#include "parquet/pq_reader.h"
#include "parquet/pq_writer.h"
#include "store/store.h"
#include "vector/vector.h"

#define DEFAULT_ROWS_PER_FILE 1000000
#define STATS_STRING_MAX      32 /* Spark's dataSkippingStringPrefixLength */

typedef struct loader {
    dl_arena arena; /* paths, stats text, write results, the add list */
    dl_store *in_store;
    dl_store *out_store;
    const char *in_name;
    dl_pq_file *file;
    dl_pq_reader *reader;
    dl_batch *batch;
    dl_pool *pool;
    const dl_type *schema;
    dl_delta_table *table;
    dl_delta_tx *tx;
    dl_pq_writer *writer; /* the open data file, or NULL */
    const char *writer_path;
    int64_t rows_per_file;
    int64_t row_group_rows;
    dl_delta_add_file *adds;
    size_t n_adds;
    size_t cap_adds;
    int64_t rows;
    int64_t bytes;
} loader;

static double
now_s(void) {
    struct timespec t;
    (void)clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int64_t
wall_ms(void) {
    struct timespec t;
    (void)clock_gettime(CLOCK_REALTIME, &t);
    return (int64_t)t.tv_sec * 1000 + (int64_t)(t.tv_nsec / 1000000);
}

/* ---- statistics JSON ------------------------------------------------------------------------ */

/* Whether Spark would keep a min/max for this leaf, and the bound is one we can write. */
static bool
has_bound(const dl_pq_leaf_stats *leaf, const dl_pq_stat_value *v, bool is_exact) {
    switch (leaf->type->id) {
    case DL_VEC_TYPE_BYTE:
    case DL_VEC_TYPE_SHORT:
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_LONG:
    case DL_VEC_TYPE_DATE:
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        return true;
    case DL_VEC_TYPE_FLOAT:
    case DL_VEC_TYPE_DOUBLE:
        return v->f64 == v->f64 && v->f64 - v->f64 == 0.0; /* finite */
    case DL_VEC_TYPE_STRING:
        return is_exact && v->bytes.len <= STATS_STRING_MAX;
    default:
        return false;
    }
}

static dl_status
write_bound(dl_json_writer *w, const dl_type *type, const dl_pq_stat_value *v, dl_error *err) {
    char text[DL_TS_STR_CAP];
    switch (type->id) {
    case DL_VEC_TYPE_FLOAT:
    case DL_VEC_TYPE_DOUBLE:
        return dl_json_writer_double(w, v->f64, err);
    case DL_VEC_TYPE_STRING:
        return dl_json_writer_string(w, v->bytes, err);
    case DL_VEC_TYPE_DATE:
        (void)dl_date_format((int32_t)v->i64, text);
        return dl_json_writer_string_cstr(w, text, err);
    case DL_VEC_TYPE_TIMESTAMP:
        (void)dl_ts_format(v->i64, DL_TS_STYLE_ISO_MILLIS, text);
        return dl_json_writer_string_cstr(w, text, err);
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        (void)dl_ts_format(v->i64, DL_TS_STYLE_ISO_MILLIS_NTZ, text);
        return dl_json_writer_string_cstr(w, text, err);
    default:
        return dl_json_writer_int64(w, v->i64, err);
    }
}

/* A leaf that Delta keeps statistics for here: a top-level primitive column. */
static bool
is_stats_leaf(const dl_pq_leaf_stats *leaf) {
    return leaf->n_field_path == 1 && !leaf->is_repeated && leaf->type != NULL;
}

/* One of minValues / maxValues. */
static dl_status
write_bounds(dl_json_writer *w, const dl_pq_write_result *res, bool is_max, dl_error *err) {
    DL_TRY(dl_json_writer_key_cstr(w, is_max ? "maxValues" : "minValues", err));
    DL_TRY(dl_json_writer_begin_object(w, err));
    for (size_t i = 0; i < res->n_leaves; i++) {
        const dl_pq_leaf_stats *leaf = &res->leaves[i];
        const dl_pq_stat_value *v = is_max ? &leaf->max : &leaf->min;
        bool present = is_max ? leaf->has_max : leaf->has_min;
        bool exact = is_max ? leaf->is_max_exact : leaf->is_min_exact;
        if (!is_stats_leaf(leaf) || !present || !has_bound(leaf, v, exact)) {
            continue;
        }
        DL_TRY(dl_json_writer_key_cstr(w, leaf->field_path[0], err));
        DL_TRY(write_bound(w, leaf->type, v, err));
    }
    return dl_json_writer_end_object(w, err);
}

/* The stats JSON of one written file, NUL-terminated in arena. */
static dl_status
stats_json(const dl_pq_write_result *res, dl_arena *arena, const char **out, dl_error *err) {
    dl_buf text;
    dl_buf_init(&text, NULL);
    dl_json_writer w;
    dl_json_writer_init(&w, &text, 0);
    dl_status s = dl_json_writer_begin_object(&w, err);
    s = s == DL_OK ? dl_json_writer_key_cstr(&w, "numRecords", err) : s;
    s = s == DL_OK ? dl_json_writer_int64(&w, res->num_rows, err) : s;
    s = s == DL_OK ? write_bounds(&w, res, false, err) : s;
    s = s == DL_OK ? write_bounds(&w, res, true, err) : s;
    s = s == DL_OK ? dl_json_writer_key_cstr(&w, "nullCount", err) : s;
    s = s == DL_OK ? dl_json_writer_begin_object(&w, err) : s;
    for (size_t i = 0; s == DL_OK && i < res->n_leaves; i++) {
        if (is_stats_leaf(&res->leaves[i])) {
            s = dl_json_writer_key_cstr(&w, res->leaves[i].field_path[0], err);
            s = s == DL_OK ? dl_json_writer_int64(&w, res->leaves[i].null_count, err) : s;
        }
    }
    s = s == DL_OK ? dl_json_writer_end_object(&w, err) : s;
    s = s == DL_OK ? dl_json_writer_end_object(&w, err) : s;
    s = s == DL_OK ? dl_json_writer_finish(&w, err) : s;
    if (s == DL_OK) {
        *out = dl_arena_strndup(arena, (const char *)text.data, text.len);
        if (*out == NULL) {
            s = dl_error_set(err, DL_ERR_NOMEM, "out of memory for the stats of a data file");
        }
    }
    dl_json_writer_destroy(&w);
    dl_buf_destroy(&text);
    return s;
}

/* ---- data files ----------------------------------------------------------------------------- */

static dl_status
open_data_file(loader *l, dl_error *err) {
    l->writer_path = dl_arena_printf(&l->arena, "part-%05zu-%s-c000.snappy.parquet", l->n_adds,
                                     dl_delta_tx_id(l->tx));
    DL_CHECK(l->writer_path != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.codec = DL_PQ_CODEC_SNAPPY;
    o.row_group_rows = l->row_group_rows;
    o.pool = l->pool;
    return dl_pq_writer_open(l->out_store, l->writer_path, DL_STORE_PUT_IF_ABSENT, l->schema, &o,
                             NULL, &l->writer, err);
}

static dl_status
push_add(loader *l, const dl_delta_add_file *add, dl_error *err) {
    if (l->n_adds == l->cap_adds) {
        size_t cap = l->cap_adds ? l->cap_adds * 2 : 64;
        dl_delta_add_file *grown = dl_arena_alloc_array(&l->arena, cap, sizeof(*grown));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory for %zu add actions", cap);
        if (l->n_adds > 0) {
            memcpy(grown, l->adds, l->n_adds * sizeof(*grown));
        }
        l->adds = grown;
        l->cap_adds = cap;
    }
    l->adds[l->n_adds++] = *add;
    return DL_OK;
}

/* Closes the open data file and records its add action. */
static dl_status
close_data_file(loader *l, dl_error *err) {
    dl_pq_writer *w = l->writer;
    l->writer = NULL;
    dl_pq_write_result res;
    DL_TRY_CTX(dl_pq_writer_close(w, &l->arena, &res, err), err, "%s", l->writer_path);
    dl_delta_add_file add;
    memset(&add, 0, sizeof(add));
    add.path = l->writer_path;
    add.size = res.file_size;
    add.modification_time = wall_ms();
    add.data_change = true;
    DL_TRY_CTX(stats_json(&res, &l->arena, &add.stats, err), err, "%s", l->writer_path);
    l->rows += res.num_rows;
    l->bytes += res.file_size;
    return push_add(l, &add, err);
}

/* Reads every row of the input and writes the data files. */
static dl_status
copy_rows(loader *l, dl_error *err) {
    for (;;) {
        DL_TRY_CTX(dl_pq_reader_next(l->reader, l->batch, err), err, "%s", l->in_name);
        if (l->batch->count == 0) {
            break;
        }
        if (l->writer == NULL) {
            DL_TRY(open_data_file(l, err));
        }
        dl_status s = dl_pq_writer_write(l->writer, l->batch, err);
        if (s != DL_OK) {
            dl_error_prefix(err, "%s", l->writer_path);
            return s;
        }
        if (dl_pq_writer_num_rows(l->writer) >= l->rows_per_file) {
            DL_TRY(close_data_file(l, err));
        }
    }
    return l->writer != NULL ? close_data_file(l, err) : DL_OK;
}

/* ---- the commit ----------------------------------------------------------------------------- */

static dl_status
commit(loader *l, int64_t *out_version, dl_error *err) {
    dl_delta_schema schema;
    DL_TRY(dl_delta_schema_from_type(l->schema, &l->arena, &schema, err));
    dl_delta_create_spec spec;
    memset(&spec, 0, sizeof(spec));
    spec.schema = &schema;
    spec.mode = DL_DELTA_CREATE;
    spec.is_as_select = true;
    DL_TRY(dl_delta_tx_create_table(l->tx, &spec, err));
    for (size_t i = 0; i < l->n_adds; i++) {
        DL_TRY(dl_delta_tx_add(l->tx, &l->adds[i], err));
    }
    DL_TRY(dl_delta_tx_metric(l->tx, "numFiles", (int64_t)l->n_adds, err));
    DL_TRY(dl_delta_tx_metric(l->tx, "numOutputRows", l->rows, err));
    DL_TRY(dl_delta_tx_metric(l->tx, "numOutputBytes", l->bytes, err));
    dl_delta_commit_result res;
    DL_TRY(dl_delta_tx_commit(l->tx, &res, err));
    *out_version = res.version;
    return DL_OK;
}

/* Splits path into its folder (a store root) and file name, in arena. */
static dl_status
split_path(dl_arena *arena, const char *path, const char **out_dir, const char **out_name,
           dl_error *err) {
    const char *slash = strrchr(path, '/');
    *out_dir = slash == NULL ? "." : dl_arena_strndup(arena, path, (size_t)(slash - path) + 1);
    *out_name = slash == NULL ? path : slash + 1;
    DL_CHECK(*out_dir != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_CHECK(**out_name != '\0', err, DL_ERR_INVALID_ARG, "'%s' names a folder, not a file", path);
    return DL_OK;
}

/* Refuses a TABLE_DIR that already holds a table, before any data file is written. */
static dl_status
check_no_table(loader *l, const char *table_dir, dl_error *err) {
    dl_delta_snapshot_options o = {.is_metadata_only = true};
    dl_delta_snapshot *snap = NULL;
    dl_status s = dl_delta_snapshot_latest(l->table, &o, &snap, err);
    if (s == DL_ERR_NOT_FOUND) {
        dl_error_clear(err);
        return DL_OK;
    }
    if (s != DL_OK) {
        return s;
    }
    int64_t version = dl_delta_snapshot_version(snap);
    dl_delta_snapshot_unref(snap);
    return dl_error_set(err, DL_ERR_EXISTS,
                        "%s already holds a Delta table (version %" PRId64
                        "): delete the folder first",
                        table_dir, version);
}

static dl_status
load(loader *l, const char *parquet, const char *table_dir, int threads, int64_t *out_version,
     dl_error *err) {
    const char *in_dir = NULL;
    DL_TRY(split_path(&l->arena, parquet, &in_dir, &l->in_name, err));
    DL_TRY(dl_store_local_new(in_dir, NULL, &l->in_store, err));
    DL_TRY(dl_store_local_new(table_dir, NULL, &l->out_store, err));
    if (threads > 1) {
        DL_TRY(dl_pool_new(threads - 1, NULL, &l->pool, err));
    }
    DL_TRY(dl_pq_file_open(l->in_store, l->in_name, NULL, &l->file, err));
    dl_pq_read_options ro;
    memset(&ro, 0, sizeof(ro));
    ro.pool = l->pool;
    DL_TRY(dl_pq_reader_new(l->file, &ro, &l->reader, err));
    l->schema = dl_pq_reader_schema(l->reader);
    DL_TRY(dl_vec_batch_new(NULL, l->schema, 0, &l->batch, err));
    DL_TRY(dl_delta_table_open(l->out_store, "", NULL, &l->table, err));
    DL_TRY(check_no_table(l, table_dir, err));
    DL_TRY(dl_delta_tx_begin(l->table, NULL, NULL, &l->tx, err));
    DL_TRY(copy_rows(l, err));
    return commit(l, out_version, err);
}

static void
loader_destroy(loader *l) {
    dl_pq_writer_abort(l->writer);
    dl_delta_tx_free(l->tx);
    dl_delta_table_free(l->table);
    dl_vec_batch_free(l->batch);
    dl_pq_reader_free(l->reader);
    dl_pq_file_free(l->file);
    dl_pool_free(l->pool);
    dl_store_free(l->out_store);
    dl_store_free(l->in_store);
    dl_arena_destroy(&l->arena);
}

static bool
parse_count(const char *text, int64_t min, int64_t *out) {
    char *end = NULL;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end != '\0' || v < min) {
        return false;
    }
    *out = (int64_t)v;
    return true;
}

static int
usage(void) {
    (void)fprintf(stderr, "usage: dl_bench_load_delta PARQUET TABLE_DIR [--rows-per-file N] "
                          "[--row-group-rows N] [--threads N]\n");
    return 2;
}

int
main(int argc, char **argv) {
    if (argc < 3) {
        return usage();
    }
    loader l;
    memset(&l, 0, sizeof(l));
    l.rows_per_file = DEFAULT_ROWS_PER_FILE;
    int64_t threads = dl_pool_default_n_workers() + 1;
    for (int i = 3; i < argc; i += 2) {
        int64_t *slot = strcmp(argv[i], "--rows-per-file") == 0    ? &l.rows_per_file
                        : strcmp(argv[i], "--row-group-rows") == 0 ? &l.row_group_rows
                        : strcmp(argv[i], "--threads") == 0        ? &threads
                                                                   : NULL;
        if (slot == NULL || i + 1 >= argc || !parse_count(argv[i + 1], 1, slot)) {
            (void)fprintf(stderr, "dl_bench_load_delta: bad option '%s'\n", argv[i]);
            return usage();
        }
    }
    dl_arena_init(&l.arena, NULL, 0);
    dl_error err;
    dl_error_clear(&err);
    int64_t version = -1;
    double t0 = now_s();
    dl_status s = load(&l, argv[1], argv[2], (int)DL_MIN(threads, 64), &version, &err);
    double seconds = now_s() - t0;
    if (s == DL_OK) {
        (void)printf("RESULT seconds=%.3f rows=%" PRId64 " files=%zu bytes=%" PRId64
                     " version=%" PRId64 "\n",
                     seconds, l.rows, l.n_adds, l.bytes, version);
    } else {
        (void)fprintf(stderr, "dl_bench_load_delta: %s -> %s: %s\n", argv[1], argv[2], err.msg);
    }
    loader_destroy(&l);
    return s == DL_OK ? 0 : 1;
}
