/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writing classic checkpoints (PROTOCOL.md "Checkpoints", "V1 Spec", "V2 Spec", "Classic
 * checkpoint", "Checkpoint Schema", "Last Checkpoint File Schema"; Spark's Checkpoints.scala).
 * A table with the v2Checkpoint feature gets a classic-named V2 checkpoint: the same file with
 * a checkpointMetadata column struct<version long, tags map<string,string>> and one row
 * {version} (file actions inline, no sidecars), which the V2 spec allows under the classic name.
 *
 * A checkpoint of version v is `_delta_log/<v>.checkpoint.parquet`: one row per action of the
 * reconciled state at v, each row with exactly one non-null top-level column. The columns, in
 * the order Spark writes them (SingleAction without commitInfo, cdc, checkpointMetadata and
 * sidecar), all nullable:
 *
 *   txn             struct<appId string, version long, lastUpdated long>
 *   add             struct<path string, partitionValues map<string,string>, size long,
 *                          modificationTime long, dataChange boolean,
 *                          tags map<string,string>, deletionVector DV, baseRowId long,
 *                          defaultRowCommitVersion long, clusteringProvider string,
 *                          [stats string]                 when writeStatsAsJson (default true)
 *                          [partitionValues_parsed struct]  when writeStatsAsStruct and the
 *                                                           table is partitioned
 *                          [stats_parsed struct]>           when writeStatsAsStruct
 *   remove          struct<path string, deletionTimestamp long, dataChange boolean,
 *                          extendedFileMetadata boolean, partitionValues map<string,string>,
 *                          size long, deletionVector DV, baseRowId long,
 *                          defaultRowCommitVersion long>      (no stats, no tags)
 *   metaData        struct<id string, name string, description string,
 *                          format struct<provider string, options map<string,string>>,
 *                          schemaString string, partitionColumns array<string>,
 *                          configuration map<string,string>, createdTime long>
 *   protocol        struct<minReaderVersion int, minWriterVersion int,
 *                          readerFeatures array<string>, writerFeatures array<string>>
 *   domainMetadata  struct<domain string, configuration string, removed boolean>
 *
 * with DV = struct<storageType string, pathOrInlineDv string, offset int, sizeInBytes int,
 * cardinality long>. partitionValues_parsed has one field per partition column (physical
 * name, the column's type); stats_parsed is struct<numRecords long, minValues, maxValues,
 * nullCount, [tightBounds boolean when the table supports deletion vectors]> where minValues
 * and maxValues mirror the indexed data columns whose types have min/max statistics
 * (numbers, dates, timestamps, strings) and nullCount every indexed data column (LONG, or a
 * struct for a struct column); the indexed columns are the first
 * delta.dataSkippingNumIndexedCols (default 32, -1 = all) leaf columns or those of
 * delta.dataSkippingStatsColumns. Structs that would be empty are left out (Parquet has no
 * empty groups).
 *
 * Rows: protocol, metaData, the txns (those older than delta.setTransactionRetentionDuration
 * dropped), the live domains (removed = false), the live adds, and the tombstones whose
 * deletionTimestamp is within delta.deletedFileRetentionDuration (default 1 week) of now
 * (expired ones dropped, as Spark's minFileRetentionTimestamp does). Paths are written
 * URI-encoded as in commits.
 *
 * The file is written through the Parquet writer in batches of DL_BATCH_CAPACITY rows and
 * appears atomically (a store write: temporary file, then rename; a classic checkpoint may be
 * replaced by another writer's identical one). _last_checkpoint follows:
 * {"version", "size", "sizeInBytes", "numOfAddFiles", "checkpointSchema", "checksum"} (the
 * checksum of delta_last_checkpoint.c), unless it already points at a newer checkpoint.
 */
#include <string.h>

#include "delta/delta_txn_int.h"
#include "parquet/pq_writer.h"

#define WEEK_MS         ((int64_t)7 * DL_DELTA_DAY_MS)
#define MAX_STATS_DEPTH 32
#define DEFAULT_INDEXED 32

enum {
    COL_TXN,
    COL_ADD,
    COL_REMOVE,
    COL_METADATA,
    COL_PROTOCOL,
    COL_DOMAIN,
    COL_CHECKPOINT_METADATA, /* V2 checkpoints only */
    N_COLS
};

/* A column of the stats struct: a leaf or a struct of them (physical names). */
typedef struct stat_col stat_col;

struct stat_col {
    const char *name;
    const dl_type *type;
    stat_col *children;
    int32_t n_children;
    bool has_minmax; /* a leaf with min/max statistics, or a struct holding one */
};

typedef struct ckpt {
    dl_delta_table *table;
    const dl_delta_snapshot *snap;
    dl_delta_stats_reader stats_rd; /* reads back stats not kept in memory */
    const dl_delta_metadata *md;
    bool is_v2;     /* the table has v2Checkpoint: a classic-named V2 checkpoint */
    int32_t n_cols; /* top-level columns: N_COLS, or one fewer for a V1 checkpoint */
    dl_arena arena;
    const dl_allocator *alloc;
    int64_t now_ms;
    /* types */
    const dl_type *root;
    const dl_type *add_type;
    int32_t add_stats_idx;        /* index of add.stats, or -1 */
    int32_t add_pv_parsed_idx;    /* index of add.partitionValues_parsed, or -1 */
    int32_t add_stats_parsed_idx; /* index of add.stats_parsed, or -1 */
    stat_col *stat_cols;
    int32_t n_stat_cols;
    bool has_tight_bounds;
    bool has_minmax;
    bool has_null_count;
    /* state */
    dl_json_doc doc;
    dl_buf scratch;
    int64_t min_tombstone_ts;
    int64_t min_txn_ts; /* INT64_MIN: none expire */
    dl_delta_checkpoint_info info;
} ckpt;

/* ---- types ----------------------------------------------------------------------------- */

static const dl_type *
prim(dl_type_id id) {
    return dl_vec_type_prim(id);
}

static dl_status
make_struct(ckpt *c, const dl_type_field *fields, int32_t n, const dl_type **out, dl_error *err) {
    return dl_vec_type_struct(&c->arena, fields, n, out, err);
}

#define F(n, t) ((dl_type_field){.name = (n), .type = (t), .is_nullable = true})

static dl_status
dv_type(ckpt *c, const dl_type **out, dl_error *err) {
    dl_type_field f[] = {
        F("storageType", prim(DL_VEC_TYPE_STRING)), F("pathOrInlineDv", prim(DL_VEC_TYPE_STRING)),
        F("offset", prim(DL_VEC_TYPE_INT)), F("sizeInBytes", prim(DL_VEC_TYPE_INT)),
        F("cardinality", prim(DL_VEC_TYPE_LONG))};
    return make_struct(c, f, (int32_t)DL_ARRAY_LEN(f), out, err);
}

/* Whether the stats columns are limited to a list (delta.dataSkippingStatsColumns). */
static bool
in_stats_list(const char *list, const char *path) {
    size_t n = strlen(path);
    for (const char *p = list; *p;) {
        while (*p == ' ' || *p == ',') {
            p++;
        }
        const char *end = p;
        while (*end && *end != ',') {
            end++;
        }
        const char *e = end;
        while (e > p && e[-1] == ' ') {
            e--;
        }
        if ((size_t)(e - p) == n && dl_str_eq_nocase(dl_str_make(p, n), dl_str_make(path, n))) {
            return true;
        }
        p = end;
    }
    return false;
}

typedef struct stat_budget {
    int64_t left;     /* leaves still indexed (numIndexedCols); < 0 = all */
    const char *list; /* dataSkippingStatsColumns, or NULL */
    dl_delta_cm_mode mode;
} stat_budget;

static dl_status build_stat_cols(ckpt *c, const dl_delta_field *fields, int32_t n,
                                 const char *prefix, stat_budget *b, stat_col **out, int32_t *out_n,
                                 int depth, dl_error *err);

static dl_status
build_stat_col(ckpt *c, const dl_delta_field *f, const char *path, stat_budget *b, stat_col *out,
               bool *out_keep, int depth, dl_error *err) {
    out->name = dl_delta_field_physical_name(f, b->mode);
    out->type = f->type;
    *out_keep = false;
    if (f->type->id == DL_VEC_TYPE_STRUCT) {
        DL_CHECK(depth < MAX_STATS_DEPTH, err, DL_ERR_LIMIT, "checkpoint: schema nested too deep");
        bool is_listed = b->list != NULL && in_stats_list(b->list, path);
        const char *saved = b->list;
        if (is_listed) {
            b->list = NULL; /* a listed struct indexes all of its leaves */
        }
        dl_status s = build_stat_cols(c, f->children, f->n_children, path, b, &out->children,
                                      &out->n_children, depth + 1, err);
        b->list = saved;
        DL_TRY(s);
        for (int32_t i = 0; i < out->n_children; i++) {
            out->has_minmax = out->has_minmax || out->children[i].has_minmax;
        }
        *out_keep = out->n_children > 0;
        return DL_OK;
    }
    bool is_indexed = b->list != NULL ? in_stats_list(b->list, path) : b->left != 0;
    if (b->list == NULL && b->left > 0) {
        b->left--;
    }
    out->has_minmax = dl_delta_stats_type_has_bounds(f->type);
    *out_keep = is_indexed;
    return DL_OK;
}

static dl_status
build_stat_cols(ckpt *c, const dl_delta_field *fields, int32_t n, const char *prefix,
                stat_budget *b, stat_col **out, int32_t *out_n, int depth, dl_error *err) {
    stat_col *cols = dl_arena_alloc_array(&c->arena, (size_t)(n > 0 ? n : 1), sizeof(*cols));
    DL_CHECK(cols != NULL, err, DL_ERR_NOMEM, "out of memory building a checkpoint schema");
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++) {
        const dl_delta_field *f = &fields[i];
        if (depth == 0 && dl_delta_snapshot_partition_count(c->snap) > 0) {
            bool is_partition = false;
            for (int32_t p = 0; p < dl_delta_snapshot_partition_count(c->snap); p++) {
                is_partition = is_partition || dl_delta_snapshot_partition_field(c->snap, p) == f;
            }
            if (is_partition) {
                continue; /* partition columns have no stats */
            }
        }
        const char *path =
            prefix != NULL ? dl_arena_printf(&c->arena, "%s.%s", prefix, f->name) : f->name;
        DL_CHECK(path != NULL, err, DL_ERR_NOMEM, "out of memory building a checkpoint schema");
        bool is_kept = false;
        memset(&cols[k], 0, sizeof(cols[k]));
        DL_TRY(build_stat_col(c, f, path, b, &cols[k], &is_kept, depth, err));
        k += is_kept ? 1 : 0;
    }
    *out = cols;
    *out_n = k;
    return DL_OK;
}

/* The type of minValues/maxValues (is_minmax) or nullCount over cols; NULL when empty. */
static dl_status
stats_struct_type(ckpt *c, const stat_col *cols, int32_t n, bool is_minmax, const dl_type **out,
                  dl_error *err) {
    *out = NULL;
    dl_type_field *fields =
        dl_arena_alloc_array(&c->arena, (size_t)(n > 0 ? n : 1), sizeof(*fields));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory building a checkpoint schema");
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++) {
        const stat_col *col = &cols[i];
        if (is_minmax && !col->has_minmax) {
            continue;
        }
        const dl_type *t = NULL;
        if (col->type->id == DL_VEC_TYPE_STRUCT) {
            DL_TRY(stats_struct_type(c, col->children, col->n_children, is_minmax, &t, err));
        } else {
            t = is_minmax ? col->type : prim(DL_VEC_TYPE_LONG);
        }
        if (t != NULL) {
            fields[k++] = F(col->name, t);
        }
    }
    return k > 0 ? make_struct(c, fields, k, out, err) : DL_OK;
}

static dl_status
stats_parsed_type(ckpt *c, const dl_type **out, dl_error *err) {
    const dl_delta_schema *schema = dl_delta_snapshot_schema(c->snap);
    stat_budget b = {
        .left = dl_delta_md_int(c->md, "delta.dataSkippingNumIndexedCols", DEFAULT_INDEXED),
        .list = dl_delta_metadata_config(c->md, "delta.dataSkippingStatsColumns"),
        .mode = dl_delta_snapshot_cm_mode(c->snap)};
    if (b.left < 0) {
        b.left = -1;
    }
    DL_TRY(build_stat_cols(c, schema->fields, schema->n_fields, NULL, &b, &c->stat_cols,
                           &c->n_stat_cols, 0, err));
    const dl_type *minmax = NULL;
    const dl_type *nulls = NULL;
    DL_TRY(stats_struct_type(c, c->stat_cols, c->n_stat_cols, true, &minmax, err));
    DL_TRY(stats_struct_type(c, c->stat_cols, c->n_stat_cols, false, &nulls, err));
    c->has_minmax = minmax != NULL;
    c->has_null_count = nulls != NULL;
    c->has_tight_bounds = dl_delta_protocol_has_feature(dl_delta_snapshot_protocol(c->snap),
                                                        DL_DELTA_FEATURE_DELETION_VECTORS);
    dl_type_field f[5];
    int32_t n = 0;
    f[n++] = F("numRecords", prim(DL_VEC_TYPE_LONG));
    if (minmax != NULL) {
        f[n++] = F("minValues", minmax);
        f[n++] = F("maxValues", minmax);
    }
    if (nulls != NULL) {
        f[n++] = F("nullCount", nulls);
    }
    if (c->has_tight_bounds) {
        f[n++] = F("tightBounds", prim(DL_VEC_TYPE_BOOLEAN));
    }
    return make_struct(c, f, n, out, err);
}

static dl_status
pv_parsed_type(ckpt *c, const dl_type **out, dl_error *err) {
    int32_t n = dl_delta_snapshot_partition_count(c->snap);
    dl_type_field *f = dl_arena_alloc_array(&c->arena, (size_t)(n > 0 ? n : 1), sizeof(*f));
    DL_CHECK(f != NULL, err, DL_ERR_NOMEM, "out of memory building a checkpoint schema");
    for (int32_t i = 0; i < n; i++) {
        const dl_delta_field *pf = dl_delta_snapshot_partition_field(c->snap, i);
        f[i] = F(dl_delta_field_physical_name(pf, dl_delta_snapshot_cm_mode(c->snap)), pf->type);
    }
    return make_struct(c, f, n, out, err);
}

static dl_status
add_type(ckpt *c, const dl_type *map_ss, const dl_type *dv, dl_error *err) {
    dl_type_field f[13] = {F("path", prim(DL_VEC_TYPE_STRING)),
                           F("partitionValues", map_ss),
                           F("size", prim(DL_VEC_TYPE_LONG)),
                           F("modificationTime", prim(DL_VEC_TYPE_LONG)),
                           F("dataChange", prim(DL_VEC_TYPE_BOOLEAN)),
                           F("tags", map_ss),
                           F("deletionVector", dv),
                           F("baseRowId", prim(DL_VEC_TYPE_LONG)),
                           F("defaultRowCommitVersion", prim(DL_VEC_TYPE_LONG)),
                           F("clusteringProvider", prim(DL_VEC_TYPE_STRING))};
    int32_t n = 10;
    c->add_stats_idx = c->add_pv_parsed_idx = c->add_stats_parsed_idx = -1;
    if (dl_delta_metadata_config_bool(c->md, "delta.checkpoint.writeStatsAsJson", true)) {
        c->add_stats_idx = n;
        f[n++] = F("stats", prim(DL_VEC_TYPE_STRING));
    }
    if (dl_delta_metadata_config_bool(c->md, "delta.checkpoint.writeStatsAsStruct", false)) {
        if (dl_delta_snapshot_partition_count(c->snap) > 0) {
            const dl_type *pv = NULL;
            DL_TRY(pv_parsed_type(c, &pv, err));
            c->add_pv_parsed_idx = n;
            f[n++] = F("partitionValues_parsed", pv);
        }
        const dl_type *sp = NULL;
        DL_TRY(stats_parsed_type(c, &sp, err));
        c->add_stats_parsed_idx = n;
        f[n++] = F("stats_parsed", sp);
    }
    return make_struct(c, f, n, &c->add_type, err);
}

static dl_status
build_types(ckpt *c, dl_error *err) {
    const dl_type *str = prim(DL_VEC_TYPE_STRING);
    const dl_type *i64 = prim(DL_VEC_TYPE_LONG);
    const dl_type *i32 = prim(DL_VEC_TYPE_INT);
    const dl_type *b = prim(DL_VEC_TYPE_BOOLEAN);
    const dl_type *map_ss = NULL;
    const dl_type *arr_s = NULL;
    const dl_type *dv = NULL;
    DL_TRY(dl_vec_type_map(&c->arena, str, str, true, &map_ss, err));
    DL_TRY(dl_vec_type_array(&c->arena, str, true, &arr_s, err));
    DL_TRY(dv_type(c, &dv, err));
    DL_TRY(add_type(c, map_ss, dv, err));
    const dl_type *txn = NULL;
    const dl_type *rm = NULL;
    const dl_type *format = NULL;
    const dl_type *md = NULL;
    const dl_type *proto = NULL;
    const dl_type *dm = NULL;
    dl_type_field ft[] = {F("appId", str), F("version", i64), F("lastUpdated", i64)};
    DL_TRY(make_struct(c, ft, 3, &txn, err));
    dl_type_field fr[] = {F("path", str),
                          F("deletionTimestamp", i64),
                          F("dataChange", b),
                          F("extendedFileMetadata", b),
                          F("partitionValues", map_ss),
                          F("size", i64),
                          F("deletionVector", dv),
                          F("baseRowId", i64),
                          F("defaultRowCommitVersion", i64)};
    DL_TRY(make_struct(c, fr, 9, &rm, err));
    dl_type_field ff[] = {F("provider", str), F("options", map_ss)};
    DL_TRY(make_struct(c, ff, 2, &format, err));
    dl_type_field fm[] = {F("id", str),
                          F("name", str),
                          F("description", str),
                          F("format", format),
                          F("schemaString", str),
                          F("partitionColumns", arr_s),
                          F("configuration", map_ss),
                          F("createdTime", i64)};
    DL_TRY(make_struct(c, fm, 8, &md, err));
    dl_type_field fp[] = {F("minReaderVersion", i32), F("minWriterVersion", i32),
                          F("readerFeatures", arr_s), F("writerFeatures", arr_s)};
    DL_TRY(make_struct(c, fp, 4, &proto, err));
    dl_type_field fd[] = {F("domain", str), F("configuration", str), F("removed", b)};
    DL_TRY(make_struct(c, fd, 3, &dm, err));
    const dl_type *cm = NULL;
    dl_type_field fc[] = {F("version", i64), F("tags", map_ss)};
    DL_TRY(make_struct(c, fc, 2, &cm, err));
    dl_type_field root[N_COLS] = {F("txn", txn),
                                  F("add", c->add_type),
                                  F("remove", rm),
                                  F("metaData", md),
                                  F("protocol", proto),
                                  F("domainMetadata", dm),
                                  F("checkpointMetadata", cm)};
    return make_struct(c, root, c->n_cols, &c->root, err);
}

/* ---- appending values ------------------------------------------------------------------ */

static dl_status
put_str(dl_vector *v, const char *s, dl_error *err) {
    return s != NULL ? dl_vec_append_str(v, s, strlen(s), err) : dl_vec_append_null(v, err);
}

static dl_status
put_view(dl_vector *v, dl_str s, dl_error *err) {
    return dl_vec_append_str(v, s.ptr != NULL ? s.ptr : "", s.len, err);
}

static dl_status
put_i64(dl_vector *v, bool is_present, int64_t x, dl_error *err) {
    return is_present ? dl_vec_append_i64(v, x, err) : dl_vec_append_null(v, err);
}

static dl_status
put_path(ckpt *c, dl_vector *v, dl_str decoded, dl_error *err) {
    dl_buf_reset(&c->scratch);
    DL_TRY(dl_delta_path_encode(decoded.ptr, &c->scratch, err));
    return dl_vec_append_str(v, c->scratch.data, c->scratch.len, err);
}

static dl_status
put_str_array(dl_vector *v, const char *const *items, int32_t n, bool is_present, dl_error *err) {
    if (!is_present) {
        return dl_vec_append_null(v, err);
    }
    for (int32_t i = 0; i < n; i++) {
        DL_TRY(put_str(v->children[0], items[i], err));
    }
    return dl_vec_append_list(v, err);
}

static dl_status
map_entry(dl_vector *map, dl_str key, const char *value, size_t value_len, dl_error *err) {
    dl_vector *entries = map->children[0];
    DL_TRY(put_view(entries->children[0], key, err));
    if (value != NULL) {
        DL_TRY(dl_vec_append_str(entries->children[1], value, value_len, err));
    } else {
        DL_TRY(dl_vec_append_null(entries->children[1], err));
    }
    return dl_vec_append_struct(entries, err);
}

static dl_status
put_kv_map(dl_vector *v, const dl_delta_kv *kv, int32_t n, dl_error *err) {
    for (int32_t i = 0; i < n; i++) {
        const char *val = kv[i].value;
        DL_TRY(map_entry(v, dl_str_from_cstr(kv[i].key), val, val != NULL ? strlen(val) : 0, err));
    }
    return dl_vec_append_list(v, err);
}

/* A JSON object of strings (partitionValues, tags) as a map; empty text gives null. */
static dl_status
put_json_map(ckpt *c, dl_vector *v, dl_str json, dl_error *err) {
    if (json.len == 0) {
        return dl_vec_append_null(v, err);
    }
    DL_TRY(dl_json_doc_parse(&c->doc, json.ptr, json.len, err));
    dl_json_iter it = dl_json_val_iter(dl_json_doc_root(&c->doc));
    dl_str key;
    dl_json_val val;
    while (dl_json_iter_next(&it, &key, &val)) {
        dl_str s = dl_json_val_str(val);
        bool is_null = dl_json_val_type(val) != DL_JSON_STRING;
        DL_TRY(map_entry(v, key, is_null ? NULL : (s.ptr != NULL ? s.ptr : ""), s.len, err));
    }
    return dl_vec_append_list(v, err);
}

static dl_status
put_dv(dl_vector *v, const dl_delta_dv_desc *dv, dl_error *err) {
    if (dv == NULL) {
        return dl_vec_append_null(v, err);
    }
    char type[1] = {dv->storage_type};
    DL_TRY(dl_vec_append_str(v->children[0], type, 1, err));
    DL_TRY(put_view(v->children[1], dv->path_or_inline_dv, err));
    DL_TRY(dv->has_offset ? dl_vec_append_i32(v->children[2], dv->offset, err)
                          : dl_vec_append_null(v->children[2], err));
    DL_TRY(dl_vec_append_i32(v->children[3], dv->size_in_bytes, err));
    DL_TRY(dl_vec_append_i64(v->children[4], dv->cardinality, err));
    return dl_vec_append_struct(v, err);
}

/* A typed value into a vector of type t; MAX timestamps lose the 999 µs the reader adds. */
static dl_status
put_value(dl_vector *v, const dl_type *t, const dl_delta_value *val, bool is_max, dl_error *err) {
    if (val->is_null) {
        return dl_vec_append_null(v, err);
    }
    int64_t i = val->u.i64;
    switch (t->id) {
    case DL_VEC_TYPE_BOOLEAN:
        return dl_vec_append_bool(v, val->u.b, err);
    case DL_VEC_TYPE_BYTE:
        return i >= INT8_MIN && i <= INT8_MAX ? dl_vec_append_i8(v, (int8_t)i, err)
                                              : dl_vec_append_null(v, err);
    case DL_VEC_TYPE_SHORT:
        return i >= INT16_MIN && i <= INT16_MAX ? dl_vec_append_i16(v, (int16_t)i, err)
                                                : dl_vec_append_null(v, err);
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_DATE:
        return i >= INT32_MIN && i <= INT32_MAX ? dl_vec_append_i32(v, (int32_t)i, err)
                                                : dl_vec_append_null(v, err);
    case DL_VEC_TYPE_LONG:
        return dl_vec_append_i64(v, i, err);
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        return dl_vec_append_i64(v, is_max && i < INT64_MAX ? i - 999 : i, err);
    case DL_VEC_TYPE_FLOAT:
        return dl_vec_append_f32(v, (float)val->u.f64, err);
    case DL_VEC_TYPE_DOUBLE:
        return dl_vec_append_f64(v, val->u.f64, err);
    case DL_VEC_TYPE_DECIMAL:
        return dl_vec_append_i128(v, val->u.dec, err);
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY:
        return put_view(v, val->u.str, err);
    default:
        return dl_vec_append_null(v, err);
    }
}

/* ---- stats_parsed ---------------------------------------------------------------------- */

typedef struct stats_walk {
    const dl_delta_stats *st;
    dl_delta_stat_kind kind;
    const char *path[MAX_STATS_DEPTH + 1];
} stats_walk;

static dl_status
put_stats_struct(stats_walk *sw, dl_vector *v, const stat_col *cols, int32_t n, int depth,
                 dl_error *err) {
    bool is_minmax = sw->kind != DL_DELTA_STAT_NULL_COUNT;
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++) {
        const stat_col *col = &cols[i];
        if (is_minmax && !col->has_minmax) {
            continue;
        }
        dl_vector *child = v->children[k++];
        sw->path[depth] = col->name;
        if (col->type->id == DL_VEC_TYPE_STRUCT) {
            DL_TRY(put_stats_struct(sw, child, col->children, col->n_children, depth + 1, err));
            continue;
        }
        dl_delta_value val;
        bool is_found = false;
        dl_status s = dl_delta_stats_get(sw->st, sw->kind, sw->path, (size_t)depth + 1, col->type,
                                         &val, &is_found, err);
        if (s == DL_ERR_NOMEM) {
            return s;
        }
        if (s != DL_OK || !is_found) {
            dl_error_clear(err); /* a statistic that does not convert is null (from_json) */
            DL_TRY(dl_vec_append_null(child, err));
        } else if (is_minmax) {
            DL_TRY(put_value(child, col->type, &val, sw->kind == DL_DELTA_STAT_MAX, err));
        } else {
            DL_TRY(put_i64(child, !val.is_null, val.u.i64, err));
        }
    }
    return dl_vec_append_struct(v, err);
}

static dl_status
put_stats_parsed(ckpt *c, dl_vector *v, const char *stats, dl_error *err) {
    dl_delta_stats st;
    if (stats == NULL ||
        dl_delta_stats_parse(dl_str_from_cstr(stats), &c->doc, &st, NULL) != DL_OK) {
        return dl_vec_append_null(v, err);
    }
    int32_t k = 0;
    DL_TRY(put_i64(v->children[k++], st.has_num_records, st.num_records, err));
    stats_walk sw = {.st = &st};
    if (c->has_minmax) {
        sw.kind = DL_DELTA_STAT_MIN;
        DL_TRY(put_stats_struct(&sw, v->children[k++], c->stat_cols, c->n_stat_cols, 0, err));
        sw.kind = DL_DELTA_STAT_MAX;
        DL_TRY(put_stats_struct(&sw, v->children[k++], c->stat_cols, c->n_stat_cols, 0, err));
    }
    if (c->has_null_count) {
        sw.kind = DL_DELTA_STAT_NULL_COUNT;
        DL_TRY(put_stats_struct(&sw, v->children[k++], c->stat_cols, c->n_stat_cols, 0, err));
    }
    if (c->has_tight_bounds) {
        dl_json_val tb = dl_json_obj_get(dl_json_doc_root(&c->doc), "tightBounds");
        DL_TRY(dl_json_val_type(tb) == DL_JSON_BOOL
                   ? dl_vec_append_bool(v->children[k], st.tight_bounds, err)
                   : dl_vec_append_null(v->children[k], err));
    }
    return dl_vec_append_struct(v, err);
}

static dl_status
put_pv_parsed(ckpt *c, dl_vector *v, const dl_delta_file *f, dl_error *err) {
    if (f->partition == NULL || f->partition->values == NULL) {
        return dl_vec_append_null(v, err);
    }
    int32_t n = dl_delta_snapshot_partition_count(c->snap);
    for (int32_t i = 0; i < n; i++) {
        const dl_delta_field *pf = dl_delta_snapshot_partition_field(c->snap, i);
        DL_TRY(put_value(v->children[i], pf->type, &f->partition->values[i], false, err));
    }
    return dl_vec_append_struct(v, err);
}

/* ---- rows ------------------------------------------------------------------------------ */

static dl_status
put_add(ckpt *c, dl_vector *v, const dl_delta_file *f, dl_error *err) {
    dl_vector **ch = v->children;
    DL_TRY(put_path(c, ch[0], f->path, err));
    DL_TRY(put_json_map(c, ch[1], f->partition != NULL ? f->partition->raw : DL_STR("{}"), err));
    DL_TRY(dl_vec_append_i64(ch[2], f->size, err));
    DL_TRY(dl_vec_append_i64(ch[3], f->modification_time, err));
    DL_TRY(dl_vec_append_bool(ch[4], (f->flags & DL_DELTA_FILE_DATA_CHANGE) != 0, err));
    DL_TRY(put_json_map(c, ch[5], f->tags, err));
    DL_TRY(put_dv(ch[6], f->dv, err));
    DL_TRY(put_i64(ch[7], f->base_row_id >= 0, f->base_row_id, err));
    DL_TRY(put_i64(ch[8], f->default_row_commit_version >= 0, f->default_row_commit_version, err));
    DL_TRY(dl_vec_append_null(ch[9], err)); /* clusteringProvider: not kept by snapshots */
    const char *stats = NULL;
    if (c->add_stats_idx >= 0 || c->add_stats_parsed_idx >= 0) {
        dl_arena_mark mark = dl_arena_get_mark(&c->arena);
        dl_status s = dl_delta_file_stats_text(c->snap, f, &c->stats_rd, &c->arena, &stats, err);
        if (s == DL_OK && c->add_stats_idx >= 0) {
            s = put_str(ch[c->add_stats_idx], stats, err);
        }
        if (s == DL_OK && c->add_pv_parsed_idx >= 0) {
            s = put_pv_parsed(c, ch[c->add_pv_parsed_idx], f, err);
        }
        if (s == DL_OK && c->add_stats_parsed_idx >= 0) {
            s = put_stats_parsed(c, ch[c->add_stats_parsed_idx], stats, err);
        }
        dl_arena_rewind(&c->arena, mark);
        DL_TRY(s);
    }
    return dl_vec_append_struct(v, err);
}

static dl_status
put_remove(ckpt *c, dl_vector *v, const dl_delta_file *f, dl_error *err) {
    dl_vector **ch = v->children;
    DL_TRY(put_path(c, ch[0], f->path, err));
    DL_TRY(
        put_i64(ch[1], (f->flags & DL_DELTA_FILE_HAS_DELETION_TS) != 0, f->modification_time, err));
    DL_TRY(dl_vec_append_bool(ch[2], (f->flags & DL_DELTA_FILE_DATA_CHANGE) != 0, err));
    DL_TRY((f->flags & DL_DELTA_FILE_EXTENDED) != 0 ? dl_vec_append_bool(ch[3], true, err)
                                                    : dl_vec_append_null(ch[3], err));
    DL_TRY(put_json_map(c, ch[4], f->partition != NULL ? f->partition->raw : DL_STR(""), err));
    DL_TRY(put_i64(ch[5], f->size >= 0, f->size, err));
    DL_TRY(put_dv(ch[6], f->dv, err));
    DL_TRY(put_i64(ch[7], f->base_row_id >= 0, f->base_row_id, err));
    DL_TRY(put_i64(ch[8], f->default_row_commit_version >= 0, f->default_row_commit_version, err));
    return dl_vec_append_struct(v, err);
}

static dl_status
put_metadata(dl_vector *v, const dl_delta_metadata *md, dl_error *err) {
    dl_vector **ch = v->children;
    DL_TRY(put_str(ch[0], md->id, err));
    DL_TRY(put_str(ch[1], md->name, err));
    DL_TRY(put_str(ch[2], md->description, err));
    DL_TRY(put_str(ch[3]->children[0], md->format_provider, err));
    DL_TRY(put_kv_map(ch[3]->children[1], md->format_options, md->n_format_options, err));
    DL_TRY(dl_vec_append_struct(ch[3], err));
    DL_TRY(put_str(ch[4], md->schema_string, err));
    DL_TRY(put_str_array(ch[5], md->partition_columns, md->n_partition_columns, true, err));
    DL_TRY(put_kv_map(ch[6], md->configuration, md->n_configuration, err));
    DL_TRY(put_i64(ch[7], md->has_created_time, md->created_time, err));
    return dl_vec_append_struct(v, err);
}

static dl_status
put_protocol(dl_vector *v, const dl_delta_protocol *p, dl_error *err) {
    dl_vector **ch = v->children;
    DL_TRY(dl_vec_append_i32(ch[0], p->min_reader_version, err));
    DL_TRY(dl_vec_append_i32(ch[1], p->min_writer_version, err));
    DL_TRY(put_str_array(ch[2], p->reader_features, p->n_reader_features, p->has_reader_features,
                         err));
    DL_TRY(put_str_array(ch[3], p->writer_features, p->n_writer_features, p->has_writer_features,
                         err));
    return dl_vec_append_struct(v, err);
}

static dl_status
put_txn(dl_vector *v, const dl_delta_snapshot_txn *t, dl_error *err) {
    DL_TRY(put_str(v->children[0], t->app_id, err));
    DL_TRY(dl_vec_append_i64(v->children[1], t->version, err));
    DL_TRY(put_i64(v->children[2], t->last_updated >= 0, t->last_updated, err));
    return dl_vec_append_struct(v, err);
}

static dl_status
put_domain(dl_vector *v, const dl_delta_snapshot_domain *d, dl_error *err) {
    DL_TRY(put_str(v->children[0], d->domain, err));
    DL_TRY(put_str(v->children[1], d->configuration, err));
    DL_TRY(dl_vec_append_bool(v->children[2], false, err));
    return dl_vec_append_struct(v, err);
}

/* The one checkpointMetadata action of a V2 checkpoint: its version, no tags. */
static dl_status
put_checkpoint_metadata(dl_vector *v, int64_t version, dl_error *err) {
    DL_TRY(dl_vec_append_i64(v->children[0], version, err));
    DL_TRY(dl_vec_append_null(v->children[1], err));
    return dl_vec_append_struct(v, err);
}

/* ---- the row cursor -------------------------------------------------------------------- */

typedef struct row_cursor {
    int stage; /* 0 protocol, 1 metaData, 2 checkpointMetadata (V2), 3 txns, 4 domains, 5 adds,
                  6 tombstones, 7 done */
    size_t i;
} row_cursor;

static bool
tombstone_kept(const ckpt *c, const dl_delta_file *f) {
    int64_t ts = (f->flags & DL_DELTA_FILE_HAS_DELETION_TS) != 0 ? f->modification_time : 0;
    return ts > c->min_tombstone_ts;
}

static bool
txn_kept(const ckpt *c, const dl_delta_snapshot_txn *t) {
    return t->last_updated < 0 || t->last_updated >= c->min_txn_ts;
}

/* Puts the next row's action into its column (nulls elsewhere); false when there is none. */
static dl_status
next_row(ckpt *c, row_cursor *rc, dl_batch *b, bool *out_has_row, dl_error *err) {
    const dl_delta_snapshot *s = c->snap;
    int col = -1;
    dl_status st = DL_OK;
    while (col < 0 && rc->stage < 7) {
        size_t i = rc->i++;
        if (rc->stage == 0 || rc->stage == 1) {
            col = rc->stage == 0 ? COL_PROTOCOL : COL_METADATA;
            st = rc->stage == 0 ? put_protocol(b->cols[col], dl_delta_snapshot_protocol(s), err)
                                : put_metadata(b->cols[col], c->md, err);
            rc->stage++;
            rc->i = 0;
        } else if (rc->stage == 2 && i == 0 && c->is_v2) {
            col = COL_CHECKPOINT_METADATA;
            st = put_checkpoint_metadata(b->cols[col], c->info.version, err);
        } else if (rc->stage == 3 && i < dl_delta_snapshot_txn_count(s)) {
            const dl_delta_snapshot_txn *t = dl_delta_snapshot_txn_at(s, i);
            col = txn_kept(c, t) ? COL_TXN : -1;
            st = col >= 0 ? put_txn(b->cols[col], t, err) : DL_OK;
        } else if (rc->stage == 4 && i < dl_delta_snapshot_domain_count(s)) {
            col = COL_DOMAIN;
            st = put_domain(b->cols[col], dl_delta_snapshot_domain_at(s, i), err);
        } else if (rc->stage == 5 && i < dl_delta_snapshot_file_count(s)) {
            col = COL_ADD;
            st = put_add(c, b->cols[col], dl_delta_snapshot_file(s, i), err);
            c->info.num_of_add_files++;
        } else if (rc->stage == 6 && i < dl_delta_snapshot_tombstone_count(s)) {
            const dl_delta_file *f = dl_delta_snapshot_tombstone(s, i);
            col = tombstone_kept(c, f) ? COL_REMOVE : -1;
            st = col >= 0 ? put_remove(c, b->cols[col], f, err) : DL_OK;
            c->info.n_tombstones += col >= 0 ? 1 : 0;
            c->info.n_expired += col >= 0 ? 0 : 1;
        } else if (rc->stage >= 2) {
            rc->stage++;
            rc->i = 0;
        }
        DL_TRY(st);
    }
    for (int k = 0; col >= 0 && k < c->n_cols; k++) {
        if (k != col) {
            DL_TRY(dl_vec_append_null(b->cols[k], err));
        }
    }
    *out_has_row = col >= 0;
    return DL_OK;
}

static dl_status
write_rows(ckpt *c, dl_pq_writer *w, dl_error *err) {
    dl_batch *b = NULL;
    DL_TRY(dl_vec_batch_new(c->alloc, c->root, DL_BATCH_CAPACITY, &b, err));
    row_cursor rc = {0};
    dl_status s = DL_OK;
    bool has_more = true;
    while (s == DL_OK && has_more) {
        int64_t n = 0;
        while (s == DL_OK && n < DL_BATCH_CAPACITY) {
            bool has_row = false;
            s = next_row(c, &rc, b, &has_row, err);
            if (!has_row) {
                has_more = false;
                break;
            }
            n++;
        }
        if (s == DL_OK && n > 0) {
            dl_vec_batch_set_count(b, n);
            s = dl_pq_writer_write(w, b, err);
            c->info.size += n;
        }
        if (s == DL_OK) {
            s = dl_vec_batch_reset(b, err);
        }
    }
    dl_vec_batch_free(b);
    return s;
}

/* ---- files ----------------------------------------------------------------------------- */

static dl_status
write_parquet(ckpt *c, const char *path, dl_error *err) {
    dl_pq_write_options opts;
    dl_pq_write_options_init(&opts);
    dl_pq_writer *w = NULL;
    DL_TRY(dl_pq_writer_open(c->table->store, path, DL_STORE_PUT_OVERWRITE, c->root, &opts,
                             c->alloc, &w, err));
    dl_status s = write_rows(c, w, err);
    if (s != DL_OK) {
        dl_pq_writer_abort(w);
        return s;
    }
    dl_pq_write_result res;
    DL_TRY(dl_pq_writer_close(w, &c->arena, &res, err));
    c->info.size_in_bytes = res.file_size;
    return DL_OK;
}

static dl_status
last_checkpoint_json(ckpt *c, dl_buf *out, dl_error *err) {
    dl_delta_schema schema;
    dl_buf schema_json;
    dl_buf_init(&schema_json, c->alloc);
    dl_status s = dl_delta_schema_from_type(c->root, &c->arena, &schema, err);
    if (s == DL_OK) {
        s = dl_delta_schema_to_json(&schema, &schema_json, err);
    }
    if (s == DL_OK) {
        s = dl_buf_appendf(out, err,
                           "{\"version\":%lld,\"size\":%lld,\"sizeInBytes\":%lld,"
                           "\"numOfAddFiles\":%lld,\"checkpointSchema\":%s}",
                           (long long)c->info.version, (long long)c->info.size,
                           (long long)c->info.size_in_bytes, (long long)c->info.num_of_add_files,
                           dl_buf_cstr(&schema_json));
    }
    dl_buf_destroy(&schema_json);
    return s;
}

static dl_status
write_last_checkpoint(ckpt *c, dl_error *err) {
    int64_t current = -1;
    DL_TRY(dl_delta_last_checkpoint_version(c->table, &current, err));
    if (current > c->info.version) {
        return DL_OK; /* a newer checkpoint is already the hint */
    }
    dl_buf json;
    dl_buf_init(&json, c->alloc);
    char *path = dl_arena_printf(&c->arena, "%s_last_checkpoint", c->table->log_dir);
    dl_status s = path != NULL ? last_checkpoint_json(c, &json, err)
                               : dl_error_set(err, DL_ERR_NOMEM, "out of memory");
    if (s == DL_OK) {
        s = dl_delta_last_checkpoint_add_checksum(&json, err);
    }
    if (s == DL_OK) {
        s = dl_store_write(c->table->store, path, json.data, json.len, err);
    }
    dl_buf_destroy(&json);
    return s;
}

static dl_status
checkpoint_run(ckpt *c, dl_error *err) {
    DL_TRY(build_types(c, err));
    int64_t retention =
        dl_delta_md_duration_ms(c->md, "delta.deletedFileRetentionDuration", WEEK_MS);
    c->min_tombstone_ts = c->now_ms - retention;
    c->min_txn_ts = INT64_MIN;
    if (dl_delta_metadata_config(c->md, "delta.setTransactionRetentionDuration") != NULL) {
        c->min_txn_ts =
            c->now_ms - dl_delta_md_duration_ms(c->md, "delta.setTransactionRetentionDuration", 0);
    }
    char name[32];
    dl_delta_commit_name(c->info.version, name);
    name[DL_DELTA_VERSION_DIGITS] = '\0'; /* drop ".json" */
    char *path = dl_arena_printf(&c->arena, "%s%s.checkpoint.parquet", c->table->log_dir, name);
    DL_CHECK(path != NULL, err, DL_ERR_NOMEM, "out of memory writing a checkpoint");
    DL_TRY_CTX(write_parquet(c, path, err), err, "%s", path);
    DL_TRY_CTX(write_last_checkpoint(c, err), err, "%s_last_checkpoint", c->table->log_dir);
    return DL_OK;
}

dl_status
dl_delta_checkpoint_write(dl_delta_table *table, const dl_delta_snapshot *snap, int64_t now_ms,
                          dl_delta_checkpoint_info *out, dl_error *err) {
    DL_CHECK(table != NULL && snap != NULL, err, DL_ERR_INVALID_ARG,
             "checkpoint: a table and a snapshot are required");
    ckpt c;
    memset(&c, 0, sizeof(c));
    c.table = table;
    c.snap = snap;
    c.md = dl_delta_snapshot_metadata(snap);
    c.is_v2 = dl_delta_protocol_has_feature(dl_delta_snapshot_protocol(snap),
                                            DL_DELTA_FEATURE_V2_CHECKPOINT);
    c.n_cols = c.is_v2 ? N_COLS : N_COLS - 1;
    c.alloc = table->alloc;
    c.now_ms = now_ms > 0 ? now_ms : dl_delta_now_ms();
    c.info.version = dl_delta_snapshot_version(snap);
    dl_arena_init(&c.arena, c.alloc, 0);
    dl_json_doc_init(&c.doc, c.alloc);
    dl_buf_init(&c.scratch, c.alloc);
    dl_delta_stats_reader_init(&c.stats_rd, c.alloc);
    dl_status s = checkpoint_run(&c, err);
    dl_delta_stats_reader_destroy(&c.stats_rd);
    dl_buf_destroy(&c.scratch);
    dl_json_doc_destroy(&c.doc);
    dl_arena_destroy(&c.arena);
    if (s != DL_OK) {
        dl_error_prefix(err, "%s: checkpoint of version %lld", table->display,
                        (long long)c.info.version);
        return s;
    }
    if (out != NULL) {
        *out = c.info;
    }
    return DL_OK;
}

dl_status
dl_delta_checkpoint_version(dl_delta_table *table, int64_t version, int64_t now_ms,
                            dl_delta_checkpoint_info *out, dl_error *err) {
    dl_delta_snapshot_options opts = {.is_stats_in_memory = true};
    dl_delta_snapshot *snap = NULL;
    DL_TRY(version < 0 ? dl_delta_snapshot_latest(table, &opts, &snap, err)
                       : dl_delta_snapshot_at_version(table, version, &opts, &snap, err));
    dl_status s = dl_delta_checkpoint_write(table, snap, now_ms, out, err);
    dl_delta_snapshot_unref(snap);
    return s;
}
