/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The change data feed as a snapshot of change files (delta_changes.h): the commits of the
 * range are walked once (dl_delta_log_iter), each commit's file actions collected, and at its
 * end turned into the snapshot's files, each with the commit's partition columns.
 */
#include "delta/delta_changes.h"

#include <string.h>

#include "base/timefmt.h"
#include "delta/delta_dv.h"
#include "delta/delta_int.h"

/* One file action of the commit being walked, copied out of the log iterator's views. */
typedef struct change_action {
    dl_delta_action_kind kind;
    const char *path; /* decoded */
    bool is_abs;
    dl_str partition_values; /* raw JSON object text, or empty */
    const dl_delta_dv_desc *dv;
    int64_t size;
    int64_t mtime;
    bool is_paired; /* an add or remove of the same path in the same commit */
} change_action;

typedef struct changes {
    dl_delta_table *table;
    dl_delta_snapshot *snap; /* being built */
    int64_t start, end;
    int64_t n_parts; /* partition columns of the table */
    dl_delta_history *history;
    change_action *acts;
    size_t n_acts, cap_acts;
    bool has_cdc;
    int64_t version; /* of the collected actions; -1 before the first */
    dl_buf path, raw;
    dl_hmap removes; /* path -> index in acts, per commit */
} changes;

bool
dl_delta_md_is_cdf(const dl_delta_metadata *md) {
    return md != NULL && dl_delta_metadata_config_bool(md, "delta.enableChangeDataFeed", false);
}

/* ---- the snapshot's schema and partitions ---------------------------------------------- */

/* The table's schemaString with `_change_type` and the three commit columns appended. */
static dl_status
change_schema(changes *c, const char *schema, const char **out, dl_error *err) {
    const char *close = strrchr(schema, ']');
    DL_CHECK(close != NULL, err, DL_ERR_CORRUPT, "%s: the schemaString has no fields array",
             c->table->display);
    const char *p = close;
    while (p > schema && (p[-1] == ' ' || p[-1] == '\n')) {
        p--;
    }
    bool is_empty = p > schema && p[-1] == '[';
    *out = dl_arena_printf(
        &c->snap->arena,
        "%.*s%s{\"name\":\"" DL_DELTA_CHANGES_TYPE "\",\"type\":\"string\",\"nullable\":true,"
        "\"metadata\":{}},{\"name\":\"" DL_DELTA_CHANGES_KIND "\",\"type\":\"string\","
        "\"nullable\":true,\"metadata\":{}},{\"name\":\"" DL_DELTA_CHANGES_VERSION "\","
        "\"type\":\"long\",\"nullable\":false,\"metadata\":{}},{\"name\":\"" DL_DELTA_CHANGES_TIMESTAMP
        "\",\"type\":\"timestamp\",\"nullable\":false,\"metadata\":{}}%s",
        (int)(close - schema), schema, is_empty ? "" : ",", close);
    DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory");
    return DL_OK;
}

/* The snapshot's protocol and metadata: end's, with the change columns. */
static dl_status
take_end(changes *c, dl_delta_snapshot *end, dl_error *err) {
    dl_delta_snapshot *s = c->snap;
    s->protocol = end->protocol;
    s->has_protocol = true;
    s->metadata = end->metadata;
    s->has_metadata = true;
    s->version = end->version;
    s->timestamp_ms = end->timestamp_ms;
    DL_CHECK(end->metadata.schema_string != NULL, err, DL_ERR_UNSUPPORTED,
             "%s: the table has no schema", c->table->display);
    if (dl_delta_schema_find(&end->schema, DL_STR(DL_DELTA_CHANGES_TYPE)) != NULL) {
        DL_FAIL(err, DL_ERR_SCHEMA,
                "[DELTA_TABLE_ALREADY_CONTAINS_CDC_COLUMNS] %s has a column named "
                "_change_type, which the change data feed reserves",
                c->table->display);
    }
    DL_TRY(change_schema(c, end->metadata.schema_string, &s->metadata.schema_string, err));
    int32_t n = end->metadata.n_partition_columns;
    const char **cols = dl_arena_alloc_zero(&s->arena, (size_t)(n + 3) * sizeof(char *));
    DL_CHECK(cols != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < n; i++) {
        cols[i] = end->metadata.partition_columns[i];
    }
    cols[n] = DL_DELTA_CHANGES_KIND;
    cols[n + 1] = DL_DELTA_CHANGES_VERSION;
    cols[n + 2] = DL_DELTA_CHANGES_TIMESTAMP;
    s->metadata.partition_columns = cols;
    s->metadata.n_partition_columns = n + 3;
    c->n_parts = n;
    /* The protocol's and metadata's arrays live in end: keep it as long as the snapshot. */
    void *p = dl_mem_realloc(s->alloc, s->parts, s->n_parts * sizeof(void *),
                             (s->n_parts + 1) * sizeof(void *));
    DL_CHECK(p != NULL, err, DL_ERR_NOMEM, "out of memory");
    s->parts = p;
    s->parts[s->n_parts++] = dl_delta_snapshot_ref(end);
    return DL_OK;
}

/* The commit timestamp of version v (DESCRIBE HISTORY's). */
static int64_t
commit_timestamp(const changes *c, int64_t v) {
    size_t n = dl_delta_history_count(c->history);
    for (size_t i = 0; i < n; i++) {
        const dl_delta_commit *cm = dl_delta_history_at(c->history, i);
        if (cm->version == v) {
            return cm->timestamp_ms;
        }
    }
    return 0;
}

/* A partition tuple: the action's partitionValues with the commit's columns (kind NULL for a
 * change data file). */
static dl_status
change_partition(changes *c, dl_str values, const char *kind, const dl_delta_partition **out,
                 dl_error *err) {
    dl_delta_snapshot *s = c->snap;
    char ts[DL_TS_STR_CAP];
    dl_ts_format(commit_timestamp(c, c->version) * 1000, DL_TS_STYLE_ISO_MICROS, ts);
    dl_str rest = DL_STR("}");
    if (values.len >= 2 && values.ptr[0] == '{') {
        rest = dl_str_make(values.ptr + 1, values.len - 1);
    }
    bool is_empty = dl_str_trim(dl_str_make(rest.ptr, rest.len - 1)).len == 0;
    char *text = dl_arena_printf(&s->arena,
                                 "{\"" DL_DELTA_CHANGES_KIND "\":%s%s%s,\"" DL_DELTA_CHANGES_VERSION
                                 "\":\"%lld\",\"" DL_DELTA_CHANGES_TIMESTAMP "\":\"%s\"%s%.*s",
                                 kind ? "\"" : "", kind ? kind : "null", kind ? "\"" : "",
                                 (long long)c->version, ts, is_empty ? "" : ",", DL_STR_FMT(rest));
    dl_delta_partition *part = dl_arena_alloc_zero(&s->arena, sizeof(*part));
    DL_CHECK(text != NULL && part != NULL, err, DL_ERR_NOMEM, "out of memory");
    part->raw = dl_str_from_cstr(text);
    if (s->n_partitions == s->cap_partitions) {
        size_t cap = s->cap_partitions ? s->cap_partitions * 2 : 16;
        void *p = dl_mem_realloc(s->alloc, s->partitions, s->cap_partitions * sizeof(void *),
                                 cap * sizeof(void *));
        DL_CHECK(p != NULL, err, DL_ERR_NOMEM, "out of memory");
        s->partitions = p;
        s->cap_partitions = cap;
    }
    s->partitions[s->n_partitions++] = part;
    *out = part;
    return DL_OK;
}

/* ---- a commit's changes ---------------------------------------------------------------- */

/* Adds a file of the snapshot: a's file read as a change of kind (NULL: its own _change_type
 * column), through dv (NULL: every row; keep: dv lists the rows to read). */
static dl_status
emit(changes *c, const change_action *a, const char *kind, const dl_delta_dv_desc *dv, bool keep,
     dl_error *err) {
    dl_delta_snapshot *s = c->snap;
    if (a->partition_values.len == 0 && c->n_parts > 0) {
        DL_FAIL(err, DL_ERR_CORRUPT,
                "[DELTA_REMOVE_FILE_CDC_MISSING_EXTENDED_METADATA] %s v%lld: the remove of '%s' "
                "has no partitionValues, which its change rows need",
                c->table->display, (long long)c->version, a->path);
    }
    dl_delta_file *f = dl_delta_file_vec_push(&s->files, &s->arena, s->alloc);
    DL_CHECK(f != NULL, err, DL_ERR_NOMEM, "out of memory");
    f->path = dl_str_from_cstr(a->path);
    f->stats_source = -1;
    f->flags = DL_DELTA_FILE_DATA_CHANGE | (a->is_abs ? DL_DELTA_FILE_ABSOLUTE : 0u) |
               (keep ? DL_DELTA_FILE_DV_KEEP : 0u);
    f->dv = dv;
    f->size = a->size;
    f->modification_time = a->mtime;
    f->base_row_id = -1;
    f->default_row_commit_version = -1;
    f->version = c->version;
    if (f->size > 0) {
        s->total_bytes += f->size;
    }
    return change_partition(c, a->partition_values, kind, &f->partition, err);
}

/* d = the rows of a that b does not hold. */
static dl_status
subtract(const dl_delta_dv *a, const dl_delta_dv *b, dl_delta_dv *d, const dl_allocator *alloc,
         dl_error *err) {
    size_t n = (size_t)dl_delta_dv_cardinality(a);
    int64_t *rows = dl_mem_alloc(alloc, (n + 1) * sizeof(int64_t));
    DL_CHECK(rows != NULL, err, DL_ERR_NOMEM, "out of memory comparing deletion vectors");
    dl_delta_dv_to_array(a, rows);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (!dl_delta_dv_contains(b, rows[i])) {
            rows[kept++] = rows[i];
        }
    }
    dl_status s = dl_delta_dv_add_rows(d, rows, kept, err);
    dl_mem_free(alloc, rows, (n + 1) * sizeof(int64_t));
    return s;
}

/* The rows of `from` (NULL: none) that `minus` (NULL: none) does not hold, as an inline
 * deletion vector in the snapshot's arena; *out NULL when there are none. */
static dl_status
dv_difference(changes *c, const dl_delta_dv_desc *from, const dl_delta_dv_desc *minus,
              const dl_delta_dv_desc **out, dl_error *err) {
    *out = NULL;
    if (from == NULL) {
        return DL_OK;
    }
    if (minus == NULL) {
        *out = from;
        return DL_OK;
    }
    dl_store *store = c->table->store;
    const char *root = c->table->root;
    const dl_allocator *alloc = c->snap->alloc;
    dl_delta_dv *a = NULL, *b = NULL, *d = NULL;
    dl_status s = dl_delta_dv_load(store, root, from, alloc, &a, err);
    if (s == DL_OK) {
        s = dl_delta_dv_load(store, root, minus, alloc, &b, err);
    }
    if (s == DL_OK) {
        s = dl_delta_dv_new(alloc, &d, err);
    }
    if (s == DL_OK) {
        s = subtract(a, b, d, alloc, err);
    }
    if (s == DL_OK && dl_delta_dv_cardinality(d) > 0) {
        dl_delta_dv_desc *desc = dl_arena_alloc_zero(&c->snap->arena, sizeof(*desc));
        s = desc != NULL ? dl_delta_dv_to_inline(d, &c->snap->arena, desc, err)
                         : dl_error_set(err, DL_ERR_NOMEM, "out of memory");
        *out = desc;
    }
    dl_delta_dv_free(a);
    dl_delta_dv_free(b);
    dl_delta_dv_free(d);
    return s;
}

/* An add and a remove of the same file: the rows the new deletion vector drops and the old
 * did not are deleted; those the old dropped and the new does not are inserted again. */
static dl_status
emit_pair(changes *c, const change_action *add, const change_action *rm, dl_error *err) {
    const dl_delta_dv_desc *deleted = NULL;
    const dl_delta_dv_desc *restored = NULL;
    DL_TRY(dv_difference(c, add->dv, rm->dv, &deleted, err));
    DL_TRY(dv_difference(c, rm->dv, add->dv, &restored, err));
    if (deleted != NULL) {
        DL_TRY(emit(c, rm, "delete", deleted, true, err));
    }
    if (restored != NULL) {
        DL_TRY(emit(c, add, "insert", restored, true, err));
    }
    return DL_OK;
}

/* A commit with change data files: those files alone. */
static dl_status
flush_cdc(changes *c, dl_error *err) {
    for (size_t i = 0; i < c->n_acts; i++) {
        if (c->acts[i].kind == DL_DELTA_ACTION_CDC) {
            DL_TRY(emit(c, &c->acts[i], NULL, NULL, false, err));
        }
    }
    return DL_OK;
}

/* A commit without: adds are inserts, removes deletes, an add and a remove of one file the
 * difference of their deletion vectors. */
static dl_status
flush_files(changes *c, dl_error *err) {
    dl_hmap_reset(&c->removes);
    for (size_t i = 0; i < c->n_acts; i++) {
        if (c->acts[i].kind == DL_DELTA_ACTION_REMOVE) {
            DL_TRY(dl_hmap_put(&c->removes, dl_str_from_cstr(c->acts[i].path), i, err));
        }
    }
    for (size_t i = 0; i < c->n_acts; i++) {
        change_action *a = &c->acts[i];
        uint64_t j;
        if (a->kind != DL_DELTA_ACTION_ADD) {
            continue;
        }
        if (dl_hmap_get(&c->removes, dl_str_from_cstr(a->path), &j)) {
            c->acts[j].is_paired = true;
            DL_TRY(emit_pair(c, a, &c->acts[j], err));
        } else {
            DL_TRY(emit(c, a, "insert", a->dv, false, err));
        }
    }
    for (size_t i = 0; i < c->n_acts; i++) {
        change_action *a = &c->acts[i];
        if (a->kind == DL_DELTA_ACTION_REMOVE && !a->is_paired) {
            DL_TRY(emit(c, a, "delete", a->dv, false, err));
        }
    }
    return DL_OK;
}

/* The changes of the collected commit. */
static dl_status
flush_commit(changes *c, dl_error *err) {
    DL_TRY(c->has_cdc ? flush_cdc(c, err) : flush_files(c, err));
    c->n_acts = 0;
    c->has_cdc = false;
    return DL_OK;
}

static dl_status
keep_dv(changes *c, const dl_delta_dv_desc *dv, const dl_delta_dv_desc **out, dl_error *err) {
    dl_arena *arena = &c->snap->arena;
    dl_delta_dv_desc *copy = dl_arena_alloc(arena, sizeof(*copy));
    char *p = dl_arena_strndup(arena, dv->path_or_inline_dv.ptr, dv->path_or_inline_dv.len);
    DL_CHECK(copy != NULL && p != NULL, err, DL_ERR_NOMEM, "out of memory");
    *copy = *dv;
    copy->path_or_inline_dv = dl_str_make(p, dv->path_or_inline_dv.len);
    *out = copy;
    return DL_OK;
}

/* Collects one file action of the current commit (dataChange false ones are no change). */
static dl_status
collect(changes *c, const dl_delta_action *a, dl_error *err) {
    const dl_delta_file_action *fa = &a->file;
    bool is_cdc = a->kind == DL_DELTA_ACTION_CDC;
    if (!is_cdc && !fa->data_change) {
        return DL_OK;
    }
    if (c->n_acts == c->cap_acts) {
        size_t cap = c->cap_acts ? 2 * c->cap_acts : 16;
        change_action *grown = dl_arena_alloc_zero(&c->snap->arena, cap * sizeof(*grown));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory");
        if (c->n_acts > 0) {
            memcpy(grown, c->acts, c->n_acts * sizeof(*grown));
        }
        c->acts = grown;
        c->cap_acts = cap;
    }
    change_action *ca = &c->acts[c->n_acts];
    memset(ca, 0, sizeof(*ca));
    ca->kind = a->kind;
    DL_TRY(dl_delta_path_decode(fa->path, &c->path, &ca->is_abs, err));
    ca->path = dl_arena_strndup(&c->snap->arena, dl_buf_cstr(&c->path), c->path.len);
    char *pv =
        fa->partition_values.len > 0
            ? dl_arena_strndup(&c->snap->arena, fa->partition_values.ptr, fa->partition_values.len)
            : NULL;
    DL_CHECK(ca->path != NULL && (pv != NULL || fa->partition_values.len == 0), err, DL_ERR_NOMEM,
             "out of memory");
    ca->partition_values = dl_str_make(pv, fa->partition_values.len);
    if (fa->has_dv) {
        DL_TRY(keep_dv(c, &fa->dv, &ca->dv, err));
    }
    ca->size = fa->size;
    ca->mtime = a->kind == DL_DELTA_ACTION_ADD ? fa->modification_time : -1;
    c->has_cdc = c->has_cdc || is_cdc;
    c->n_acts++;
    return DL_OK;
}

static dl_status
missing_change_data(const changes *c, int64_t v, dl_error *err) {
    return dl_error_set(err, DL_ERR_INVALID_ARG,
                        "[DELTA_MISSING_CHANGE_DATA] Error getting change data for range "
                        "[%lld , %lld] as change data was not recorded for version [%lld]. If "
                        "you've enabled change data feed on this table, use `DESCRIBE HISTORY` "
                        "to see when it was first enabled. Otherwise, to start recording change "
                        "data, use `ALTER TABLE table_name SET TBLPROPERTIES "
                        "(delta.enableChangeDataFeed=true)`.",
                        (long long)c->start, (long long)c->end, (long long)v);
}

/* One action of the walk: a new version flushes the previous one's changes. */
static dl_status
walk_action(void *ctx, const dl_delta_log_entry *e, dl_error *err) {
    changes *c = ctx;
    if (e->version != c->version) {
        int64_t expected = c->version < 0 ? c->start : c->version + 1;
        if (e->version != expected) {
            DL_FAIL(err, DL_ERR_NOT_FOUND,
                    "%s: the commit file of version %lld is gone (log cleanup), so its changes "
                    "cannot be read; read the changes from version %lld on",
                    c->table->display, (long long)expected, (long long)e->version);
        }
        if (c->version >= 0) {
            DL_TRY(flush_commit(c, err));
        }
        c->version = e->version;
    }
    const dl_delta_action *a = e->action;
    if (a->kind == DL_DELTA_ACTION_METADATA && !dl_delta_md_is_cdf(&a->metadata)) {
        return missing_change_data(c, e->version, err);
    }
    bool is_file = a->kind == DL_DELTA_ACTION_ADD || a->kind == DL_DELTA_ACTION_REMOVE ||
                   a->kind == DL_DELTA_ACTION_CDC;
    return is_file ? collect(c, a, err) : DL_OK;
}

static dl_status
walk(changes *c, dl_error *err) {
    DL_TRY(dl_delta_log_each(c->table, c->start, c->end, walk_action, c, err));
    if (c->version != c->end) {
        DL_FAIL(err, DL_ERR_NOT_FOUND,
                "%s: the commit file of version %lld is gone (log cleanup), so its changes "
                "cannot be read",
                c->table->display, (long long)(c->version < 0 ? c->start : c->version + 1));
    }
    return flush_commit(c, err);
}

/* The range checked against the latest version and the feed enabled at start. */
static dl_status
check_range(changes *c, dl_delta_snapshot *latest, dl_error *err) {
    int64_t last = dl_delta_snapshot_version(latest);
    if (c->start > last) {
        DL_FAIL(err, DL_ERR_INVALID_ARG,
                "[DELTA_CDC_START_VERSION_AFTER_LATEST] Start version %lld for change data "
                "feed exceeds the latest table version %lld.",
                (long long)c->start, (long long)last);
    }
    if (c->end < 0 || c->end > last) {
        c->end = last;
    }
    if (c->end < c->start) {
        DL_FAIL(err, DL_ERR_INVALID_ARG,
                "[DELTA_INVALID_CDC_RANGE] CDC range from start %lld to end %lld was invalid. "
                "End cannot be before start.",
                (long long)c->start, (long long)c->end);
    }
    dl_delta_snapshot_options opts = {.is_metadata_only = true};
    dl_delta_snapshot *first = NULL;
    DL_TRY(dl_delta_snapshot_at_version(c->table, c->start, &opts, &first, err));
    bool is_on = dl_delta_md_is_cdf(dl_delta_snapshot_metadata(first));
    dl_delta_snapshot_unref(first);
    return is_on ? DL_OK : missing_change_data(c, c->start, err);
}

static dl_status
build(changes *c, dl_error *err) {
    dl_delta_snapshot *latest = NULL;
    DL_TRY(dl_delta_snapshot_latest(
        c->table, &(dl_delta_snapshot_options){.is_metadata_only = true}, &latest, err));
    dl_status s = check_range(c, latest, err);
    dl_delta_snapshot *end = NULL;
    if (s == DL_OK) {
        s = c->end == dl_delta_snapshot_version(latest)
                ? (end = dl_delta_snapshot_ref(latest), DL_OK)
                : dl_delta_snapshot_at_version(
                      c->table, c->end, &(dl_delta_snapshot_options){.is_metadata_only = true},
                      &end, err);
    }
    dl_delta_snapshot_unref(latest);
    if (s == DL_OK) {
        s = take_end(c, end, err);
    }
    dl_delta_snapshot_unref(end);
    if (s == DL_OK) {
        s = dl_delta_history_read(c->table, 0, &c->history, err);
    }
    if (s == DL_OK) {
        s = walk(c, err);
    }
    return s == DL_OK ? dl_delta_snapshot_finish(c->snap, err) : s;
}

dl_status
dl_delta_changes_snapshot(dl_delta_table *table, int64_t start, int64_t end,
                          dl_delta_snapshot **out, int64_t *out_end, dl_error *err) {
    DL_CHECK(start >= 0, err, DL_ERR_INVALID_ARG,
             "the start version of the change data feed must not be negative (%lld)",
             (long long)start);
    changes c = {.table = table, .start = start, .end = end, .version = -1};
    DL_TRY(dl_delta_snapshot_new(table, &c.snap, err));
    dl_buf_init(&c.path, table->alloc);
    dl_buf_init(&c.raw, table->alloc);
    dl_hmap_init(&c.removes, table->alloc);
    dl_status s = build(&c, err);
    dl_hmap_destroy(&c.removes);
    dl_buf_destroy(&c.path);
    dl_buf_destroy(&c.raw);
    dl_delta_history_free(c.history);
    if (s != DL_OK) {
        dl_delta_snapshot_unref(c.snap);
        return s;
    }
    *out = c.snap;
    *out_end = c.end;
    return DL_OK;
}

static dl_status
version_in(const dl_delta_history *h, int64_t ts_ms, bool is_start, int64_t *out, dl_error *err) {
    size_t n = dl_delta_history_count(h);
    DL_CHECK(n > 0, err, DL_ERR_NOT_FOUND, "the table has no commits");
    const dl_delta_commit *latest = dl_delta_history_at(h, 0);
    const dl_delta_commit *earliest = dl_delta_history_at(h, n - 1);
    char want[DL_TS_STR_CAP], have[DL_TS_STR_CAP];
    dl_ts_format(ts_ms * 1000, DL_TS_STYLE_SPARK, want);
    for (size_t i = 0; i < n; i++) { /* newest first */
        const dl_delta_commit *c = dl_delta_history_at(h, is_start ? n - 1 - i : i);
        if (is_start ? c->timestamp_ms >= ts_ms : c->timestamp_ms <= ts_ms) {
            *out = c->version;
            return DL_OK;
        }
    }
    if (is_start) {
        dl_ts_format(latest->timestamp_ms * 1000, DL_TS_STYLE_SPARK, have);
        DL_FAIL(err, DL_ERR_INVALID_ARG,
                "[DELTA_TIMESTAMP_GREATER_THAN_COMMIT] Timestamp %s is after the table's latest "
                "version (%s). Use a timestamp at or before %s.",
                want, have, have);
    }
    dl_ts_format(earliest->timestamp_ms * 1000, DL_TS_STYLE_SPARK, have);
    DL_FAIL(err, DL_ERR_INVALID_ARG,
            "[DELTA_TIMESTAMP_EARLIER_THAN_COMMIT_RETENTION] The provided timestamp (%s) is "
            "before the earliest version available to this table (%s). Please use a timestamp "
            "after %s.",
            want, have, have);
}

dl_status
dl_delta_changes_version_at(dl_delta_table *table, int64_t ts_ms, bool is_start, int64_t *out,
                            dl_error *err) {
    dl_delta_history *h = NULL;
    DL_TRY(dl_delta_history_read(table, 0, &h, err));
    dl_status s = version_in(h, ts_ms, is_start, out, err);
    dl_delta_history_free(h);
    return s;
}
