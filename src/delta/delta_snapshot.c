/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tables and snapshots: listing the log, choosing the segment, replaying it and checking the
 * result (PROTOCOL.md, "Action Reconciliation", "Table Features", "Column Mapping").
 *
 * Loading version v (or the latest): read _last_checkpoint and list the log from the version
 * it names; if that partial listing does not give a segment starting at a checkpoint (the hint
 * is stale, or the checkpoint cannot be read by this build), list the whole log instead.
 * Replay the segment. A checkpoint that turns out to be unreadable (a V2 checkpoint with
 * Parquet sidecars) makes the load retry from commit 0 when the commits are all there.
 * Then: a protocol and a metaData must have been found ("No protocol found", "No metadata
 * found"), the protocol must be readable (refused with the missing features named), the
 * schema must parse, the partition columns must be in it, and every distinct partitionValues
 * tuple is parsed by the partition columns' types. When replay fails on something else but
 * the protocol already found is unreadable, the protocol's error is the one reported: a
 * table we cannot read must say so rather than trip over what it does not understand.
 */
#include <stdio.h>
#include <string.h>

#include "delta/delta_int.h"

/* ---- tables -------------------------------------------------------------------------- */

/* Copies root without leading/trailing '/' into a new string. */
static char *
norm_root(const dl_allocator *alloc, const char *root, size_t *out_len) {
    dl_str r = dl_str_from_cstr(root);
    while (r.len > 0 && r.ptr[0] == '/') {
        r = dl_str_slice(r, 1, r.len - 1);
    }
    while (r.len > 0 && r.ptr[r.len - 1] == '/') {
        r.len--;
    }
    char *p = dl_mem_alloc(alloc, r.len + 1);
    if (p) {
        memcpy(p, r.ptr ? r.ptr : "", r.len);
        p[r.len] = '\0';
        *out_len = r.len;
    }
    return p;
}

static char *
format_alloc(const dl_allocator *alloc, const char *a, const char *sep, const char *b) {
    size_t n = strlen(a) + strlen(sep) + strlen(b) + 1;
    char *p = dl_mem_alloc(alloc, n);
    if (p) {
        (void)snprintf(p, n, "%s%s%s", a, sep, b);
    }
    return p;
}

static void
free_cstr(const dl_allocator *alloc, char *s) {
    if (s) {
        dl_mem_free(alloc, s, strlen(s) + 1);
    }
}

dl_status
dl_delta_table_open(dl_store *store, const char *table_root, const dl_allocator *alloc,
                    dl_delta_table **out, dl_error *err) {
    DL_CHECK(store && out, err, DL_ERR_INVALID_ARG, "dl_delta_table_open: NULL argument");
    alloc = alloc ? alloc : dl_allocator_default();
    dl_delta_table *t = dl_mem_alloc_zero(alloc, sizeof(*t));
    DL_CHECK(t, err, DL_ERR_NOMEM, "out of memory opening a table");
    t->store = store;
    t->alloc = alloc;
    size_t len = 0;
    t->root = norm_root(alloc, table_root ? table_root : "", &len);
    if (t->root) {
        t->log_dir = format_alloc(alloc, t->root, len ? "/" : "", "_delta_log/");
        char *where =
            format_alloc(alloc, store->location ? store->location : "", len ? "/" : "", t->root);
        if (where) {
            t->display = format_alloc(alloc, "table '", where, "'");
            free_cstr(alloc, where);
        }
    }
    if (!t->root || !t->log_dir || !t->display) {
        dl_delta_table_free(t);
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory opening a table");
    }
    dl_status st = len ? dl_store_path_check(t->root, false, "table root", err) : DL_OK;
    if (st != DL_OK) {
        dl_delta_table_free(t);
        return st;
    }
    *out = t;
    return DL_OK;
}

void
dl_delta_table_free(dl_delta_table *table) {
    if (!table) {
        return;
    }
    const dl_allocator *alloc = table->alloc;
    free_cstr(alloc, table->root);
    free_cstr(alloc, table->log_dir);
    free_cstr(alloc, table->display);
    dl_mem_free(alloc, table, sizeof(*table));
}

const char *
dl_delta_table_root(const dl_delta_table *table) {
    return table->root;
}

const char *
dl_delta_table_log_dir(const dl_delta_table *table) {
    return table->log_dir;
}

/* ---- snapshot objects ---------------------------------------------------------------- */

dl_delta_file *
dl_delta_file_vec_push(dl_delta_file_vec *vec, dl_arena *arena, const dl_allocator *alloc) {
    size_t slot = vec->count & (DL_DELTA_FILE_BLOCK - 1);
    if (slot == 0) {
        if (vec->n_blocks == vec->cap_blocks) {
            size_t cap = vec->cap_blocks ? vec->cap_blocks * 2 : 8;
            void *p = dl_mem_realloc(alloc, vec->blocks, vec->cap_blocks * sizeof(void *),
                                     cap * sizeof(void *));
            if (!p) {
                return NULL;
            }
            vec->blocks = p;
            vec->cap_blocks = cap;
        }
        dl_delta_file *block =
            dl_arena_alloc_array(arena, DL_DELTA_FILE_BLOCK, sizeof(dl_delta_file));
        if (!block) {
            return NULL;
        }
        vec->blocks[vec->n_blocks++] = block;
    }
    dl_delta_file *f = &vec->blocks[vec->n_blocks - 1][slot];
    memset(f, 0, sizeof(*f));
    vec->count++;
    return f;
}

static void
file_vec_destroy(dl_delta_file_vec *vec, const dl_allocator *alloc) {
    dl_mem_free(alloc, vec->blocks, vec->cap_blocks * sizeof(void *));
    memset(vec, 0, sizeof(*vec));
}

/*
 * Moves the entries of src into dst without copying them: src's full blocks join dst's block
 * list before dst's last (partial) block, and the entries of src's partial block move into
 * dst's partial one (spilling into a new block in arena when it fills). Order is not kept.
 */
static dl_status
file_vec_absorb(dl_delta_file_vec *dst, dl_delta_file_vec *src, dl_arena *arena,
                const dl_allocator *alloc, dl_error *err) {
    size_t src_full = src->count / DL_DELTA_FILE_BLOCK;
    size_t src_rest = src->count % DL_DELTA_FILE_BLOCK;
    size_t need = dst->n_blocks + src_full + 1;
    if (need > dst->cap_blocks) {
        void *p = dl_mem_realloc(alloc, dst->blocks, dst->cap_blocks * sizeof(void *),
                                 need * sizeof(void *));
        DL_CHECK(p, err, DL_ERR_NOMEM, "out of memory merging a checkpoint's files");
        dst->blocks = p;
        dst->cap_blocks = need;
    }
    size_t dst_rest = dst->count % DL_DELTA_FILE_BLOCK;
    dl_delta_file *partial = dst_rest > 0 ? dst->blocks[dst->n_blocks - 1] : NULL;
    size_t at = dst->n_blocks - (partial ? 1 : 0);
    for (size_t i = 0; i < src_full; i++) {
        dst->blocks[at + i] = src->blocks[i];
    }
    at += src_full;
    dst->count = at * DL_DELTA_FILE_BLOCK;
    dst->n_blocks = at;
    if (partial) {
        dst->blocks[dst->n_blocks++] = partial;
        dst->count += dst_rest;
    }
    for (size_t i = 0; i < src_rest; i++) {
        dl_delta_file *f = dl_delta_file_vec_push(dst, arena, alloc);
        DL_CHECK(f, err, DL_ERR_NOMEM, "out of memory merging a checkpoint's files");
        *f = src->blocks[src_full][i];
    }
    return DL_OK;
}

/* Appends part's interned partition tuples to snap's list (to be parsed with it). */
static dl_status
absorb_partitions(dl_delta_snapshot *snap, const dl_delta_snapshot *part, dl_error *err) {
    size_t n = snap->n_partitions + part->n_partitions;
    if (n > snap->cap_partitions) {
        void *p = dl_mem_realloc(snap->alloc, snap->partitions,
                                 snap->cap_partitions * sizeof(void *), n * sizeof(void *));
        DL_CHECK(p, err, DL_ERR_NOMEM, "out of memory merging a checkpoint's files");
        snap->partitions = p;
        snap->cap_partitions = n;
    }
    if (part->n_partitions > 0) {
        memcpy(snap->partitions + snap->n_partitions, part->partitions,
               part->n_partitions * sizeof(void *));
    }
    snap->n_partitions = n;
    return DL_OK;
}

dl_status
dl_delta_snapshot_absorb(dl_delta_snapshot *snap, dl_delta_snapshot *part, dl_error *err) {
    void *p = dl_mem_realloc(snap->alloc, snap->parts, snap->n_parts * sizeof(void *),
                             (snap->n_parts + 1) * sizeof(void *));
    DL_CHECK(p, err, DL_ERR_NOMEM, "out of memory merging a checkpoint's files");
    snap->parts = p;
    snap->parts[snap->n_parts++] = dl_delta_snapshot_ref(part);
    DL_TRY(file_vec_absorb(&snap->files, &part->files, &snap->arena, snap->alloc, err));
    DL_TRY(file_vec_absorb(&snap->tombstones, &part->tombstones, &snap->arena, snap->alloc, err));
    file_vec_destroy(&part->files, part->alloc);
    file_vec_destroy(&part->tombstones, part->alloc);
    DL_TRY(absorb_partitions(snap, part, err));
    snap->total_bytes += part->total_bytes;
    snap->n_actions_read += part->n_actions_read;
    return DL_OK;
}

dl_status
dl_delta_snapshot_new(dl_delta_table *table, dl_delta_snapshot **out, dl_error *err) {
    dl_delta_snapshot *s = dl_mem_alloc_zero(table->alloc, sizeof(*s));
    DL_CHECK(s, err, DL_ERR_NOMEM, "out of memory creating a snapshot");
    s->alloc = table->alloc;
    s->refcount = 1;
    s->store = table->store;
    s->checkpoint_version = -1;
    s->timestamp_ms = -1;
    dl_arena_init(&s->arena, table->alloc, (size_t)64 * 1024);
    dl_huge_allocator_init(&s->bulk_alloc, table->alloc);
    dl_arena_init(&s->bulk, &s->bulk_alloc.base, DL_DELTA_BULK_BLOCK);
    s->root = dl_arena_strndup(&s->arena, table->root, strlen(table->root));
    s->display = dl_arena_strndup(&s->arena, table->display, strlen(table->display));
    if (!s->root || !s->display) {
        dl_delta_snapshot_unref(s);
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory creating a snapshot");
    }
    *out = s;
    return DL_OK;
}

dl_delta_snapshot *
dl_delta_snapshot_ref(dl_delta_snapshot *snap) {
    __atomic_fetch_add(&snap->refcount, 1, __ATOMIC_RELAXED);
    return snap;
}

void
dl_delta_snapshot_unref(dl_delta_snapshot *snap) {
    if (!snap || __atomic_sub_fetch(&snap->refcount, 1, __ATOMIC_ACQ_REL) != 0) {
        return;
    }
    const dl_allocator *alloc = snap->alloc;
    for (size_t i = 0; i < snap->n_parts; i++) {
        dl_delta_snapshot_unref(snap->parts[i]);
    }
    dl_mem_free(alloc, snap->parts, snap->n_parts * sizeof(void *));
    file_vec_destroy(&snap->files, alloc);
    file_vec_destroy(&snap->tombstones, alloc);
    dl_mem_free(alloc, snap->partitions, snap->cap_partitions * sizeof(void *));
    dl_mem_free(alloc, snap->sources, snap->cap_sources * sizeof(char *));
    dl_arena_destroy(&snap->bulk);
    dl_arena_destroy(&snap->arena);
    dl_mem_free(alloc, snap, sizeof(*snap));
}

/* ---- metadata helpers ---------------------------------------------------------------- */

const char *
dl_delta_metadata_config(const dl_delta_metadata *md, const char *key) {
    for (int32_t i = 0; i < md->n_configuration; i++) {
        if (strcmp(md->configuration[i].key, key) == 0) {
            return md->configuration[i].value;
        }
    }
    return NULL;
}

bool
dl_delta_metadata_config_bool(const dl_delta_metadata *md, const char *key, bool def) {
    const char *v = dl_delta_metadata_config(md, key);
    dl_str s = dl_str_trim(dl_str_from_cstr(v));
    if (v && dl_delta_str_eq_nocase_cstr(s, "true")) {
        return true;
    }
    if (v && dl_delta_str_eq_nocase_cstr(s, "false")) {
        return false;
    }
    return def;
}

/* ---- finishing a replayed snapshot --------------------------------------------------- */

static dl_status
resolve_cm_mode(dl_delta_snapshot *s, dl_error *err) {
    s->cm_mode = DL_DELTA_CM_NONE;
    const char *mode = dl_delta_metadata_config(&s->metadata, "delta.columnMapping.mode");
    if (!mode || !dl_delta_protocol_has_feature(&s->protocol, DL_DELTA_FEATURE_COLUMN_MAPPING)) {
        return DL_OK;
    }
    dl_str m = dl_str_from_cstr(mode);
    if (dl_delta_str_eq_nocase_cstr(m, "name")) {
        s->cm_mode = DL_DELTA_CM_NAME;
    } else if (dl_delta_str_eq_nocase_cstr(m, "id")) {
        s->cm_mode = DL_DELTA_CM_ID;
    } else {
        DL_CHECK(dl_delta_str_eq_nocase_cstr(m, "none"), err, DL_ERR_UNSUPPORTED,
                 "unknown column mapping mode delta.columnMapping.mode=\"%s\"", mode);
    }
    return DL_OK;
}

static dl_status
resolve_partition_columns(dl_delta_snapshot *s, dl_error *err) {
    int32_t n = s->metadata.n_partition_columns;
    s->n_partition = n;
    if (n == 0) {
        return DL_OK;
    }
    s->partition_fields = dl_arena_alloc_array(&s->arena, (size_t)n, sizeof(void *));
    DL_CHECK(s->partition_fields, err, DL_ERR_NOMEM, "out of memory resolving partitions");
    for (int32_t i = 0; i < n; i++) {
        const char *name = s->metadata.partition_columns[i];
        const dl_delta_field *f = dl_delta_schema_find(&s->schema, dl_str_from_cstr(name));
        DL_CHECK(f, err, DL_ERR_CORRUPT, "partition column '%s' is not a column of the schema",
                 name);
        DL_CHECK(!dl_vec_type_is_nested(f->type), err, DL_ERR_CORRUPT,
                 "partition column '%s' has a nested type", name);
        s->partition_fields[i] = f;
    }
    return DL_OK;
}

/* Parses the value of partition column f from the tuple object obj into *out (strings copied
 * to the arena). */
static dl_status
parse_partition_column(dl_delta_snapshot *s, const dl_delta_field *f, dl_json_val obj,
                       dl_delta_value *out, dl_error *err) {
    dl_json_val v = dl_json_obj_get(obj, dl_delta_field_physical_name(f, s->cm_mode));
    if (dl_json_val_is_missing(v)) {
        v = dl_json_obj_get(obj, f->name);
    }
    bool is_null = dl_json_val_is_missing(v) || dl_json_val_is_null(v);
    dl_str text = dl_str_make(NULL, 0);
    if (!is_null) {
        DL_TRY(dl_json_val_get_str(v, &text, err));
    }
    DL_TRY(dl_delta_partition_value_parse(text, is_null, f->type, out, err));
    bool is_bytes = f->type->id == DL_VEC_TYPE_STRING || f->type->id == DL_VEC_TYPE_BINARY;
    if (is_bytes && !out->is_null) {
        char *copy = dl_arena_memdup(&s->arena, text.ptr, text.len ? text.len : 1);
        DL_CHECK(copy, err, DL_ERR_NOMEM, "out of memory parsing partition values");
        out->u.str = dl_str_make(copy, text.len);
    }
    return DL_OK;
}

/* Parses one interned partitionValues tuple into typed values. */
static dl_status
parse_partition(dl_delta_snapshot *s, dl_delta_partition *part, dl_json_doc *doc, dl_error *err) {
    DL_TRY_CTX(dl_json_doc_parse(doc, part->raw.ptr, part->raw.len, err), err,
               "partitionValues %.*s", DL_STR_FMT(part->raw));
    dl_json_val obj = dl_json_doc_root(doc);
    dl_delta_value *values =
        dl_arena_alloc_array(&s->arena, (size_t)s->n_partition, sizeof(dl_delta_value));
    DL_CHECK(values, err, DL_ERR_NOMEM, "out of memory parsing partition values");
    for (int32_t i = 0; i < s->n_partition; i++) {
        const dl_delta_field *f = s->partition_fields[i];
        DL_TRY_CTX(parse_partition_column(s, f, obj, &values[i], err), err,
                   "partitionValues %.*s: column '%s'", DL_STR_FMT(part->raw), f->name);
    }
    part->values = values;
    return DL_OK;
}

static dl_status
parse_partitions(dl_delta_snapshot *s, dl_error *err) {
    dl_json_doc doc;
    dl_json_doc_init(&doc, s->alloc);
    dl_status st = DL_OK;
    for (size_t i = 0; i < s->n_partitions && st == DL_OK; i++) {
        st = parse_partition(s, s->partitions[i], &doc, err);
    }
    dl_json_doc_destroy(&doc);
    return st;
}

/* In-commit timestamps: when enabled at the snapshot's version, they are its timestamp. */
static void
resolve_timestamp(dl_delta_snapshot *s) {
    if (!s->has_ict ||
        !dl_delta_protocol_has_feature(&s->protocol, DL_DELTA_FEATURE_IN_COMMIT_TIMESTAMP) ||
        !dl_delta_metadata_config_bool(&s->metadata, "delta.enableInCommitTimestamps", false)) {
        return;
    }
    const char *ev =
        dl_delta_metadata_config(&s->metadata, "delta.inCommitTimestampEnablementVersion");
    int64_t enabled_at = 0;
    if (ev && !dl_delta_parse_version(dl_str_trim(dl_str_from_cstr(ev)), &enabled_at)) {
        enabled_at = 0;
    }
    if (s->version >= enabled_at) {
        s->timestamp_ms = s->ict;
    }
}

dl_status
dl_delta_snapshot_finish(dl_delta_snapshot *s, dl_error *err) {
    DL_CHECK(s->has_protocol, err, DL_ERR_CORRUPT,
             "No protocol found: no commit or checkpoint up to version %lld has a protocol "
             "action",
             (long long)s->version);
    DL_CHECK(s->has_metadata, err, DL_ERR_CORRUPT,
             "No metadata found: no commit or checkpoint up to version %lld has a metaData "
             "action",
             (long long)s->version);
    DL_TRY(dl_delta_protocol_check_read(&s->protocol, err));
    if (s->metadata.schema_string) {
        DL_TRY(dl_delta_schema_parse(dl_str_from_cstr(s->metadata.schema_string), &s->arena,
                                     &s->schema, err));
    } else {
        /* Very old writers left schemaString out: the files can still be listed, but there are
         * no columns to read (a scan must refuse such a snapshot). */
        DL_CHECK(s->metadata.n_partition_columns == 0, err, DL_ERR_CORRUPT,
                 "the metaData action in force at version %lld has partition columns but no "
                 "schemaString",
                 (long long)s->version);
        DL_TRY(dl_vec_type_struct(&s->arena, NULL, 0, &s->schema.type, err));
    }
    DL_TRY(resolve_cm_mode(s, err));
    DL_TRY(resolve_partition_columns(s, err));
    DL_TRY(parse_partitions(s, err));
    resolve_timestamp(s);
    return DL_OK;
}

/* ---- loading ------------------------------------------------------------------------- */

/* Replays seg into a new snapshot and finishes it; on failure nothing is returned. */
static dl_status
build(dl_delta_table *table, const dl_delta_segment *seg, const dl_delta_snapshot_options *opts,
      dl_delta_snapshot **out, dl_error *err) {
    dl_delta_snapshot *s;
    DL_TRY(dl_delta_snapshot_new(table, &s, err));
    s->timestamp_ms = seg->version_file ? seg->version_file->mtime_ms : -1;
    dl_status st = dl_delta_replay(table, seg, opts, s, err);
    if (st != DL_OK && st != DL_ERR_NOMEM && st != DL_ERR_IO && s->has_protocol) {
        dl_error perr;
        dl_error_clear(&perr);
        if (dl_delta_protocol_check_read(&s->protocol, &perr) != DL_OK) {
            if (err) {
                *err = perr;
            }
            st = perr.code;
        }
    }
    if (st == DL_OK) {
        st = dl_delta_snapshot_finish(s, err);
    }
    if (st != DL_OK) {
        dl_delta_snapshot_unref(s);
        return st;
    }
    *out = s;
    return DL_OK;
}

dl_status
dl_delta_snapshot_load(dl_delta_table *table, const dl_delta_log_list *list, int64_t version,
                       const dl_delta_snapshot_options *opts, dl_delta_snapshot **out,
                       dl_error *err) {
    static const dl_delta_snapshot_options defaults;
    opts = opts ? opts : &defaults;
    bool can_parquet = dl_delta_can_read_parquet_checkpoints();
    dl_delta_segment seg;
    DL_TRY(dl_delta_segment_build(list, version, can_parquet, true, &seg, err));
    dl_status st = build(table, &seg, opts, out, err);
    if (st == DL_ERR_UNSUPPORTED && seg.checkpoint && list->is_from_start) {
        /* The checkpoint could not be read (sidecars): commits from 0 may still do. */
        dl_delta_segment all;
        dl_error retry;
        dl_error_clear(&retry);
        if (dl_delta_segment_build(list, seg.version, can_parquet, false, &all, &retry) == DL_OK) {
            st = build(table, &all, opts, out, err);
        }
    }
    return st;
}

/* Spark's message (and error class) for a version outside the available range. */
static dl_status
version_not_found(dl_delta_table *table, int64_t version, dl_arena *arena, dl_error *err) {
    dl_delta_log_list full;
    DL_TRY(dl_delta_log_list_read(table, -1, arena, &full, err));
    int64_t latest = dl_delta_log_latest_version(&full);
    int64_t earliest =
        dl_delta_log_earliest_version(&full, dl_delta_can_read_parquet_checkpoints());
    dl_error_set(
        err, DL_ERR_NOT_FOUND,
        "[DELTA_VERSION_NOT_FOUND] Cannot time travel Delta table to version %lld. Available "
        "versions: [%lld, %lld].",
        (long long)version, (long long)earliest, (long long)latest);
    if (err) {
        err->version = version;
    }
    return DL_ERR_NOT_FOUND;
}

/* Lists (from the _last_checkpoint hint when it helps) and loads version (-1: latest). */
static dl_status
load(dl_delta_table *table, int64_t version, const dl_delta_snapshot_options *opts,
     dl_delta_snapshot **out, dl_error *err) {
    dl_arena arena;
    dl_arena_init(&arena, table->alloc, 0);
    dl_delta_log_list list;
    int64_t hint = -1;
    dl_status st = dl_delta_last_checkpoint_version(table, &hint, err);
    bool is_done = false;
    if (st == DL_OK && hint >= 0 && (version < 0 || hint <= version)) {
        dl_delta_segment seg;
        dl_error ignored;
        dl_error_clear(&ignored);
        st = dl_delta_log_list_read(table, hint, &arena, &list, err);
        if (st == DL_OK &&
            dl_delta_segment_build(&list, version, dl_delta_can_read_parquet_checkpoints(), true,
                                   &seg, &ignored) == DL_OK &&
            seg.checkpoint) {
            st = dl_delta_snapshot_load(table, &list, version, opts, out, err);
            is_done = st != DL_ERR_UNSUPPORTED;
        }
        dl_arena_reset(&arena);
    }
    if (!is_done && (st == DL_OK || st == DL_ERR_UNSUPPORTED)) {
        st = dl_delta_log_list_read(table, -1, &arena, &list, err);
        if (st == DL_OK && list.n_commits == 0 && list.n_checkpoints == 0) {
            st = dl_error_set(err, DL_ERR_NOT_FOUND,
                              "%s is not a Delta table: its _delta_log holds no commit",
                              table->display);
        } else if (st == DL_OK) {
            st = dl_delta_snapshot_load(table, &list, version, opts, out, err);
            if (st == DL_ERR_NOT_FOUND && version >= 0) {
                st = version_not_found(table, version, &arena, err);
            }
        }
    }
    dl_arena_destroy(&arena);
    if (st != DL_OK && st != DL_ERR_NOT_FOUND) {
        dl_error_prefix(err, "%s", table->display);
    }
    return st;
}

dl_status
dl_delta_snapshot_latest(dl_delta_table *table, const dl_delta_snapshot_options *opts,
                         dl_delta_snapshot **out, dl_error *err) {
    DL_CHECK(table && out, err, DL_ERR_INVALID_ARG, "dl_delta_snapshot_latest: NULL argument");
    return load(table, -1, opts, out, err);
}

dl_status
dl_delta_snapshot_at_version(dl_delta_table *table, int64_t version,
                             const dl_delta_snapshot_options *opts, dl_delta_snapshot **out,
                             dl_error *err) {
    DL_CHECK(table && out, err, DL_ERR_INVALID_ARG, "dl_delta_snapshot_at_version: NULL argument");
    if (version < 0) {
        dl_arena arena;
        dl_arena_init(&arena, table->alloc, 0);
        dl_status st = version_not_found(table, version, &arena, err);
        dl_arena_destroy(&arena);
        return st;
    }
    return load(table, version, opts, out, err);
}

/* ---- accessors ----------------------------------------------------------------------- */

int64_t
dl_delta_snapshot_version(const dl_delta_snapshot *snap) {
    return snap->version;
}

const dl_delta_protocol *
dl_delta_snapshot_protocol(const dl_delta_snapshot *snap) {
    return &snap->protocol;
}

const dl_delta_metadata *
dl_delta_snapshot_metadata(const dl_delta_snapshot *snap) {
    return &snap->metadata;
}

const dl_delta_schema *
dl_delta_snapshot_schema(const dl_delta_snapshot *snap) {
    return &snap->schema;
}

dl_delta_cm_mode
dl_delta_snapshot_cm_mode(const dl_delta_snapshot *snap) {
    return snap->cm_mode;
}

int32_t
dl_delta_snapshot_partition_count(const dl_delta_snapshot *snap) {
    return snap->n_partition;
}

const dl_delta_field *
dl_delta_snapshot_partition_field(const dl_delta_snapshot *snap, int32_t i) {
    return snap->partition_fields[i];
}

size_t
dl_delta_snapshot_file_count(const dl_delta_snapshot *snap) {
    return snap->files.count;
}

const dl_delta_file *
dl_delta_snapshot_file(const dl_delta_snapshot *snap, size_t i) {
    return dl_delta_file_vec_at(&snap->files, i);
}

size_t
dl_delta_snapshot_tombstone_count(const dl_delta_snapshot *snap) {
    return snap->tombstones.count;
}

const dl_delta_file *
dl_delta_snapshot_tombstone(const dl_delta_snapshot *snap, size_t i) {
    return dl_delta_file_vec_at(&snap->tombstones, i);
}

int64_t
dl_delta_snapshot_total_bytes(const dl_delta_snapshot *snap) {
    return snap->total_bytes;
}

size_t
dl_delta_snapshot_txn_count(const dl_delta_snapshot *snap) {
    return snap->n_txns;
}

const dl_delta_snapshot_txn *
dl_delta_snapshot_txn_at(const dl_delta_snapshot *snap, size_t i) {
    return &snap->txns[i];
}

bool
dl_delta_snapshot_txn_version(const dl_delta_snapshot *snap, const char *app_id,
                              int64_t *out_version) {
    for (size_t i = 0; i < snap->n_txns; i++) {
        if (strcmp(snap->txns[i].app_id, app_id) == 0) {
            *out_version = snap->txns[i].version;
            return true;
        }
    }
    return false;
}

size_t
dl_delta_snapshot_domain_count(const dl_delta_snapshot *snap) {
    return snap->n_domains;
}

const dl_delta_snapshot_domain *
dl_delta_snapshot_domain_at(const dl_delta_snapshot *snap, size_t i) {
    return &snap->domains[i];
}

const char *
dl_delta_snapshot_domain_config(const dl_delta_snapshot *snap, const char *domain) {
    for (size_t i = 0; i < snap->n_domains; i++) {
        if (strcmp(snap->domains[i].domain, domain) == 0) {
            return snap->domains[i].configuration;
        }
    }
    return NULL;
}

dl_str
dl_delta_snapshot_commit_info(const dl_delta_snapshot *snap) {
    return snap->commit_info;
}

int64_t
dl_delta_snapshot_timestamp(const dl_delta_snapshot *snap) {
    return snap->timestamp_ms;
}

dl_store *
dl_delta_snapshot_store(const dl_delta_snapshot *snap) {
    return snap->store;
}

const char *
dl_delta_snapshot_root(const dl_delta_snapshot *snap) {
    return snap->root;
}

int64_t
dl_delta_snapshot_checkpoint_version(const dl_delta_snapshot *snap) {
    return snap->checkpoint_version;
}

size_t
dl_delta_snapshot_commits_read(const dl_delta_snapshot *snap) {
    return snap->n_commits_read;
}

int64_t
dl_delta_snapshot_actions_read(const dl_delta_snapshot *snap) {
    return snap->n_actions_read;
}

size_t
dl_delta_snapshot_source_count(const dl_delta_snapshot *snap) {
    return snap->n_sources;
}

const char *
dl_delta_snapshot_source(const dl_delta_snapshot *snap, size_t i) {
    return snap->sources[i];
}

void
dl_delta_stats_reader_init(dl_delta_stats_reader *rd, const dl_allocator *alloc) {
    memset(rd, 0, sizeof(*rd));
    dl_buf_init(&rd->bytes, alloc);
    dl_buf_init(&rd->path, alloc);
    dl_json_doc_init(&rd->token_doc, alloc);
    dl_json_doc_init(&rd->stats_doc, alloc);
}

void
dl_delta_stats_reader_destroy(dl_delta_stats_reader *rd) {
    dl_buf_destroy(&rd->bytes);
    dl_buf_destroy(&rd->path);
    dl_json_doc_destroy(&rd->token_doc);
    dl_json_doc_destroy(&rd->stats_doc);
    dl_delta_cp_cursor_free(rd->cp);
    rd->cp = NULL;
    rd->store = NULL;
}

/* Makes rd hold the log file path of store. */
static dl_status
cache_source(dl_delta_stats_reader *rd, dl_store *store, const char *path, dl_error *err) {
    if (rd->store == store && rd->path.len > 0 && strcmp(dl_buf_cstr(&rd->path), path) == 0) {
        return DL_OK;
    }
    dl_buf_reset(&rd->path);
    dl_buf_reset(&rd->bytes);
    rd->store = NULL;
    DL_TRY(dl_store_read_all(store, path, &rd->bytes, err));
    DL_TRY(dl_buf_append_cstr(&rd->path, path, err));
    rd->store = store;
    return DL_OK;
}

/* The stats text of file, read back from its log file through rd's cache; *out_found is false
 * when a Parquet checkpoint row turns out to have none. */
static dl_status
stats_text(const dl_delta_snapshot *snap, const dl_delta_file *file, dl_delta_stats_reader *rd,
           dl_str *out, bool *out_found, dl_error *err) {
    int32_t src = file->stats_source;
    DL_CHECK(src >= 0 && (size_t)src < snap->n_sources, err, DL_ERR_INVALID_ARG,
             "file '%.*s' does not belong to this snapshot", DL_STR_FMT(file->path));
    const char *path = snap->sources[src];
    *out_found = true;
    if (dl_str_ends_with(dl_str_from_cstr(path), DL_STR(".parquet"))) {
        DL_TRY_CTX(dl_delta_checkpoint_stats(rd, snap->store, path, file->stats_offset, out,
                                             out_found, err),
                   err, "%s", path);
        return DL_OK;
    }
    DL_TRY(cache_source(rd, snap->store, path, err));
    DL_CHECK((size_t)file->stats_offset + file->stats_len <= rd->bytes.len, err, DL_ERR_CORRUPT,
             "%s changed since the snapshot was read (it is shorter)", path);
    const char *token = (const char *)rd->bytes.data + file->stats_offset;
    DL_TRY(dl_json_doc_parse(&rd->token_doc, token, file->stats_len, err));
    dl_json_val v = dl_json_doc_root(&rd->token_doc);
    DL_CHECK(dl_json_val_type(v) == DL_JSON_STRING, err, DL_ERR_CORRUPT,
             "%s changed since the snapshot was read (no stats string at byte %u)", path,
             (unsigned)file->stats_offset);
    *out = dl_json_val_str(v);
    return DL_OK;
}

dl_status
dl_delta_file_stats_json(const dl_delta_snapshot *snap, const dl_delta_file *file,
                         dl_delta_stats_reader *rd, dl_str *out, bool *out_found, dl_error *err) {
    *out = file->stats;
    *out_found = file->stats.len > 0 || file->stats_source >= 0;
    if (*out_found && file->stats.len == 0) {
        DL_TRY_CTX(stats_text(snap, file, rd, out, out_found, err), err, "file '%.*s': stats",
                   DL_STR_FMT(file->path));
    }
    return DL_OK;
}

dl_status
dl_delta_file_stats(const dl_delta_snapshot *snap, const dl_delta_file *file,
                    dl_delta_stats_reader *rd, dl_delta_stats *out, bool *out_has_stats,
                    dl_error *err) {
    memset(out, 0, sizeof(*out));
    out->tight_bounds = true;
    dl_str text;
    DL_TRY(dl_delta_file_stats_json(snap, file, rd, &text, out_has_stats, err));
    if (!*out_has_stats) {
        return DL_OK;
    }
    DL_TRY_CTX(dl_delta_stats_parse(text, &rd->stats_doc, out, err), err, "file '%.*s'",
               DL_STR_FMT(file->path));
    return DL_OK;
}
