/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Parquet checkpoints and sidecars (PROTOCOL.md, "Checkpoints", "V2 Spec", "V1 Spec",
 * "Sidecar Files", "Checkpoint Schema").
 *
 * A Parquet checkpoint holds one action per row: each action kind is a top-level nullable
 * struct column, and a row has exactly one of them non-null:
 *
 *   add       struct<path, partitionValues map<string,string>, size, modificationTime,
 *                    dataChange, tags map, deletionVector struct<storageType, pathOrInlineDv,
 *                    offset, sizeInBytes, cardinality, maxRowIndex>, baseRowId,
 *                    defaultRowCommitVersion, clusteringProvider, stats string,
 *                    stats_parsed struct (optional), partitionValues_parsed struct (optional)>
 *   remove    struct<path, deletionTimestamp, dataChange, extendedFileMetadata,
 *                    partitionValues, size, tags, deletionVector, baseRowId, ...>
 *   metaData  struct<id, name, description, format struct<provider, options map>,
 *                    schemaString, partitionColumns array<string>, configuration map,
 *                    createdTime>
 *   protocol  struct<minReaderVersion, minWriterVersion, readerFeatures array<string>,
 *                    writerFeatures array<string>>
 *   txn       struct<appId, version, lastUpdated>
 *   domainMetadata      struct<domain, configuration, removed>
 *   checkpointMetadata  struct<version, tags map>              (V2 spec only)
 *   sidecar             struct<path, sizeInBytes, modificationTime, tags>  (V2 spec only)
 *
 * Writers differ in which optional fields they write (older Spark versions lack
 * deletionVector and the row-tracking fields; delta-rs writes its own subset), in integer
 * widths (protocol versions are int32) and in strings written as plain binary; whatever a
 * checkpoint lacks reads as absent, and the required fields are checked row by row as the
 * JSON parser checks them (delta_action.c), with the same wording, naming the row.
 *
 * What is read: only the leaves a snapshot needs (the reader prunes the structs to them), so
 * add.stats — most of a checkpoint's bytes — is not decoded while loading. A file's stats are
 * read back on demand (dl_delta_checkpoint_stats) by row number through a cursor that keeps
 * one row group's reader positioned, so a scan over the files in snapshot order reads the
 * stats column once. stats_parsed is preferred to the stats string when the file has it and
 * the row's value is not null; it is rendered as the JSON the string would hold (numbers,
 * dates "yyyy-MM-dd", timestamps ISO-8601 in UTC with microseconds), so every consumer sees
 * one form. partitionValues_parsed, when the file has it and the row's value is not null, is
 * used instead of the string map and rendered as that map would be.
 *
 * V2 checkpoints may keep their add and remove rows in sidecar files (_delta_log/_sidecars/,
 * Parquet, the same add/remove columns); the top-level file's sidecar rows name them and the
 * replay reads them after it (delta_replay.c).
 */
#include <pthread.h>
#include <string.h>

#include "delta/delta_int.h"

/* ---- column access ------------------------------------------------------------------- */

/* A checkpoint column: what kind of vector it must be. */
typedef enum col_kind {
    COL_STR,     /* STRING or BINARY */
    COL_INT,     /* any integer */
    COL_BOOL,    /* BOOLEAN */
    COL_MAP,     /* map<string, string> */
    COL_STRLIST, /* array<string> */
    COL_STRUCT,  /* a struct */
} col_kind;

static bool
is_bytes_type(const dl_type *t) {
    return t && (t->id == DL_VEC_TYPE_STRING || t->id == DL_VEC_TYPE_BINARY);
}

static bool
kind_matches(const dl_type *t, col_kind kind) {
    switch (kind) {
    case COL_STR:
        return is_bytes_type(t);
    case COL_INT:
        return t->id == DL_VEC_TYPE_BYTE || t->id == DL_VEC_TYPE_SHORT ||
               t->id == DL_VEC_TYPE_INT || t->id == DL_VEC_TYPE_LONG;
    case COL_BOOL:
        return t->id == DL_VEC_TYPE_BOOLEAN;
    case COL_MAP:
        return t->id == DL_VEC_TYPE_MAP && is_bytes_type(t->key) && is_bytes_type(t->value);
    case COL_STRLIST:
        return t->id == DL_VEC_TYPE_ARRAY && is_bytes_type(t->element);
    case COL_STRUCT:
        return t->id == DL_VEC_TYPE_STRUCT;
    }
    return false;
}

static const char *const kind_names[] = {
    "a string", "an integer", "a boolean", "a map<string,string>", "array<string>", "a struct"};

/* The child name of struct vector v (NULL when v is NULL or has no such field), checked to
 * be of kind. */
static dl_status
child(const dl_vector *v, const char *parent, const char *name, col_kind kind,
      const dl_vector **out, dl_error *err) {
    *out = NULL;
    if (!v) {
        return DL_OK;
    }
    int32_t i = dl_vec_type_field_index(v->type, dl_str_from_cstr(name));
    if (i < 0) {
        return DL_OK;
    }
    const dl_vector *c = v->children[i];
    if (!kind_matches(c->type, kind)) {
        DL_FAIL(err, DL_ERR_CORRUPT, "checkpoint column '%s.%s' is a %s, not %s", parent, name,
                dl_vec_type_name(c->type->id), kind_names[kind]);
    }
    DL_CHECK(c->layout == DL_VEC_FLAT, err, DL_ERR_INTERNAL,
             "checkpoint column '%s.%s' is not a flat vector", parent, name);
    *out = c;
    return DL_OK;
}

static bool
present(const dl_vector *v, int64_t i) {
    return v && (!v->validity || dl_vec_bit_get(v->validity, i));
}

static int64_t
get_int(const dl_vector *v, int64_t i) {
    switch (dl_vec_type_phys(v->type)) {
    case DL_VEC_PHYS_I8:
        return ((const int8_t *)v->data)[i];
    case DL_VEC_PHYS_I16:
        return ((const int16_t *)v->data)[i];
    case DL_VEC_PHYS_I32:
        return ((const int32_t *)v->data)[i];
    default:
        return ((const int64_t *)v->data)[i];
    }
}

/* ---- the columns of one batch -------------------------------------------------------- */

/* The fields of an add or remove column (NULL: absent from the file or not read). */
typedef struct file_cols {
    const dl_vector *self;
    const dl_vector *path;
    const dl_vector *pv;  /* partitionValues */
    const dl_vector *pvp; /* partitionValues_parsed */
    const dl_vector *size;
    const dl_vector *mtime; /* add: modificationTime */
    const dl_vector *del_ts;
    const dl_vector *data_change;
    const dl_vector *extended;
    const dl_vector *tags;
    const dl_vector *dv;
    const dl_vector *base_row_id;
    const dl_vector *drcv;
    const dl_vector *clustering;
    const dl_vector *stats;
} file_cols;

typedef struct batch_cols {
    file_cols add;
    file_cols rm;
    const dl_vector *md;
    const dl_vector *proto;
    const dl_vector *txn;
    const dl_vector *dom;
    const dl_vector *cpm;
    const dl_vector *sc;
} batch_cols;

/* The top-level column name of the batch, checked to be a struct. */
static dl_status
top(const dl_batch *b, const char *name, const dl_vector **out, dl_error *err) {
    *out = NULL;
    int32_t i = dl_vec_type_field_index(b->schema, dl_str_from_cstr(name));
    if (i < 0) {
        return DL_OK;
    }
    const dl_vector *v = b->cols[i];
    DL_CHECK(v->type->id == DL_VEC_TYPE_STRUCT, err, DL_ERR_CORRUPT,
             "checkpoint column '%s' is a %s, not a struct", name, dl_vec_type_name(v->type->id));
    DL_CHECK(v->layout == DL_VEC_FLAT, err, DL_ERR_INTERNAL,
             "checkpoint column '%s' is not a flat vector", name);
    *out = v;
    return DL_OK;
}

static dl_status
bind_file_cols(const dl_batch *b, const char *name, file_cols *fc, dl_error *err) {
    memset(fc, 0, sizeof(*fc));
    DL_TRY(top(b, name, &fc->self, err));
    const dl_vector *s = fc->self;
    DL_TRY(child(s, name, "path", COL_STR, &fc->path, err));
    DL_TRY(child(s, name, "partitionValues", COL_MAP, &fc->pv, err));
    DL_TRY(child(s, name, "partitionValues_parsed", COL_STRUCT, &fc->pvp, err));
    DL_TRY(child(s, name, "size", COL_INT, &fc->size, err));
    DL_TRY(child(s, name, "modificationTime", COL_INT, &fc->mtime, err));
    DL_TRY(child(s, name, "deletionTimestamp", COL_INT, &fc->del_ts, err));
    DL_TRY(child(s, name, "dataChange", COL_BOOL, &fc->data_change, err));
    DL_TRY(child(s, name, "extendedFileMetadata", COL_BOOL, &fc->extended, err));
    DL_TRY(child(s, name, "tags", COL_MAP, &fc->tags, err));
    DL_TRY(child(s, name, "deletionVector", COL_STRUCT, &fc->dv, err));
    DL_TRY(child(s, name, "baseRowId", COL_INT, &fc->base_row_id, err));
    DL_TRY(child(s, name, "defaultRowCommitVersion", COL_INT, &fc->drcv, err));
    DL_TRY(child(s, name, "clusteringProvider", COL_STR, &fc->clustering, err));
    return child(s, name, "stats", COL_STR, &fc->stats, err);
}

static dl_status
bind_batch(const dl_batch *b, batch_cols *bc, dl_error *err) {
    DL_TRY(bind_file_cols(b, "add", &bc->add, err));
    DL_TRY(bind_file_cols(b, "remove", &bc->rm, err));
    DL_TRY(top(b, "metaData", &bc->md, err));
    DL_TRY(top(b, "protocol", &bc->proto, err));
    DL_TRY(top(b, "txn", &bc->txn, err));
    DL_TRY(top(b, "domainMetadata", &bc->dom, err));
    DL_TRY(top(b, "checkpointMetadata", &bc->cpm, err));
    return top(b, "sidecar", &bc->sc, err);
}

/* ---- the reading context ------------------------------------------------------------- */

typedef struct cp_ctx {
    const dl_delta_cp_read_options *opts;
    dl_delta_action_visit_fn visit;
    void *ctx;
    dl_arena scratch; /* metaData/protocol strings and arrays, per batch */
    dl_buf text;      /* partitionValues JSON of the current row */
    dl_buf tags;      /* tags JSON of the current row */
    dl_buf scratch_buf;
    dl_json_writer w;
    dl_delta_action action;
} cp_ctx;

static dl_status
missing(const char *action, const char *field, dl_error *err) {
    DL_FAIL(err, DL_ERR_CORRUPT, "%s action: missing required field '%s'", action, field);
}

/* A required string field. */
static dl_status
req_str(const dl_vector *v, int64_t i, const char *action, const char *field, dl_str *out,
        dl_error *err) {
    if (!present(v, i)) {
        return missing(action, field, err);
    }
    *out = dl_vec_get_str(v, i);
    return DL_OK;
}

static dl_str
opt_str(const dl_vector *v, int64_t i) {
    return present(v, i) ? dl_vec_get_str(v, i) : dl_str_make(NULL, 0);
}

static dl_status
req_int(const dl_vector *v, int64_t i, const char *action, const char *field, int64_t *out,
        dl_error *err) {
    if (!present(v, i)) {
        return missing(action, field, err);
    }
    *out = get_int(v, i);
    return DL_OK;
}

static bool
opt_int(const dl_vector *v, int64_t i, int64_t *out) {
    if (!present(v, i)) {
        return false;
    }
    *out = get_int(v, i);
    return true;
}

/* Writes map row i of v as a JSON object into out (reset first); empty when null. */
static dl_status
map_json(cp_ctx *c, const dl_vector *v, int64_t i, dl_buf *out, dl_error *err) {
    dl_buf_reset(out);
    if (!present(v, i)) {
        return DL_OK;
    }
    int64_t start;
    int64_t end;
    dl_vec_list_bounds(v, i, &start, &end);
    const dl_vector *entries = v->children[0];
    const dl_vector *keys = entries->children[0];
    const dl_vector *values = entries->children[1];
    dl_json_writer_init(&c->w, out, 0);
    dl_status st = dl_json_writer_begin_object(&c->w, err);
    for (int64_t k = start; k < end && st == DL_OK; k++) {
        st = dl_json_writer_key(&c->w, dl_vec_get_str(keys, k), err);
        if (st == DL_OK) {
            st = present(values, k) ? dl_json_writer_string(&c->w, dl_vec_get_str(values, k), err)
                                    : dl_json_writer_null(&c->w, err);
        }
    }
    if (st == DL_OK) {
        st = dl_json_writer_end_object(&c->w, err);
    }
    dl_json_writer_destroy(&c->w);
    return st;
}

/* ---- typed values as text ------------------------------------------------------------ */

/* Appends the unscaled decimal v at scale as text ("-12.50"). */
static dl_status
append_decimal(dl_buf *out, dl_i128 v, int scale, dl_error *err) {
    char digits[48];
    size_t n = 0;
    bool is_neg = v < 0;
    dl_u128 u = is_neg ? (dl_u128)0 - (dl_u128)v : (dl_u128)v;
    do {
        digits[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u != 0 || n <= (size_t)scale);
    if (is_neg) {
        DL_TRY(dl_buf_append_byte(out, '-', err));
    }
    for (size_t i = n; i > 0; i--) {
        if (scale > 0 && i == (size_t)scale) {
            DL_TRY(dl_buf_append_byte(out, '.', err));
        }
        DL_TRY(dl_buf_append_byte(out, (uint8_t)digits[i - 1], err));
    }
    return DL_OK;
}

dl_status
dl_delta_value_append_text(const dl_vector *v, int64_t i, dl_delta_text_style style, dl_buf *out,
                           bool *out_ok, dl_error *err) {
    *out_ok = true;
    char tmp[DL_TS_STR_CAP];
    switch (v->type->id) {
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY: {
        dl_str s = dl_vec_get_str(v, i);
        return dl_buf_append(out, s.ptr, s.len, err);
    }
    case DL_VEC_TYPE_BOOLEAN:
        return dl_buf_append_cstr(out, dl_vec_get_bool(v, i) ? "true" : "false", err);
    case DL_VEC_TYPE_BYTE:
    case DL_VEC_TYPE_SHORT:
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_LONG:
        return dl_buf_appendf(out, err, "%lld", (long long)get_int(v, i));
    case DL_VEC_TYPE_FLOAT:
    case DL_VEC_TYPE_DOUBLE: {
        double d = v->type->id == DL_VEC_TYPE_FLOAT ? (double)((const float *)v->data)[i]
                                                    : ((const double *)v->data)[i];
        if (d != d || d - d != 0) {
            *out_ok = false; /* NaN and infinities have no JSON number */
            return DL_OK;
        }
        char num[32];
        size_t n = dl_json_format_double(d, num);
        return dl_buf_append(out, num, n, err);
    }
    case DL_VEC_TYPE_DECIMAL:
        return append_decimal(out, ((const dl_i128 *)v->data)[i], v->type->scale, err);
    case DL_VEC_TYPE_DATE: {
        size_t n = dl_date_format(((const int32_t *)v->data)[i], tmp);
        return dl_buf_append(out, tmp, n, err);
    }
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ: {
        int64_t us = ((const int64_t *)v->data)[i];
        bool is_ntz = v->type->id == DL_VEC_TYPE_TIMESTAMP_NTZ;
        size_t n = dl_ts_format(us,
                                style == DL_DELTA_TEXT_PARTITION && is_ntz ? DL_TS_STYLE_SPARK
                                                                           : DL_TS_STYLE_ISO_MICROS,
                                tmp);
        if (is_ntz && style != DL_DELTA_TEXT_PARTITION && n > 0 && tmp[n - 1] == 'Z') {
            n--; /* a wall-clock time has no zone */
        }
        return dl_buf_append(out, tmp, n, err);
    }
    default:
        *out_ok = false;
        return DL_OK;
    }
}

/* Writes struct row i of v as a JSON object of strings (partitionValues_parsed rendered as
 * partitionValues). */
static dl_status
parsed_partition_json(cp_ctx *c, const dl_vector *v, int64_t i, dl_buf *out, dl_error *err) {
    dl_buf_reset(out);
    dl_json_writer_init(&c->w, out, 0);
    dl_status st = dl_json_writer_begin_object(&c->w, err);
    for (int32_t f = 0; f < v->n_children && st == DL_OK; f++) {
        const dl_vector *col = v->children[f];
        st = dl_json_writer_key_cstr(&c->w, v->type->fields[f].name, err);
        bool ok = false;
        if (st == DL_OK && present(col, i) && !dl_vec_type_is_nested(col->type)) {
            dl_buf_reset(&c->scratch_buf);
            st = dl_delta_value_append_text(col, i, DL_DELTA_TEXT_PARTITION, &c->scratch_buf, &ok,
                                            err);
        }
        if (st == DL_OK) {
            st = ok ? dl_json_writer_string(&c->w, dl_buf_view(&c->scratch_buf), err)
                    : dl_json_writer_null(&c->w, err);
        }
    }
    if (st == DL_OK) {
        st = dl_json_writer_end_object(&c->w, err);
    }
    dl_json_writer_destroy(&c->w);
    return st;
}

/* ---- add and remove ------------------------------------------------------------------ */

static dl_status
read_dv(const dl_vector *dv, int64_t i, const char *action, dl_delta_dv_desc *out, dl_error *err) {
    memset(out, 0, sizeof(*out));
    const dl_vector *storage;
    const dl_vector *path;
    const dl_vector *offset;
    const dl_vector *size;
    const dl_vector *card;
    const dl_vector *max_row;
    DL_TRY(child(dv, "deletionVector", "storageType", COL_STR, &storage, err));
    DL_TRY(child(dv, "deletionVector", "pathOrInlineDv", COL_STR, &path, err));
    DL_TRY(child(dv, "deletionVector", "offset", COL_INT, &offset, err));
    DL_TRY(child(dv, "deletionVector", "sizeInBytes", COL_INT, &size, err));
    DL_TRY(child(dv, "deletionVector", "cardinality", COL_INT, &card, err));
    DL_TRY(child(dv, "deletionVector", "maxRowIndex", COL_INT, &max_row, err));
    dl_str st;
    int64_t n_bytes;
    int64_t off = 0;
    DL_TRY_CTX(req_str(storage, i, "deletionVector", "storageType", &st, err), err, "%s action",
               action);
    DL_TRY_CTX(req_str(path, i, "deletionVector", "pathOrInlineDv", &out->path_or_inline_dv, err),
               err, "%s action", action);
    DL_TRY_CTX(req_int(size, i, "deletionVector", "sizeInBytes", &n_bytes, err), err, "%s action",
               action);
    DL_TRY_CTX(req_int(card, i, "deletionVector", "cardinality", &out->cardinality, err), err,
               "%s action", action);
    out->has_offset = opt_int(offset, i, &off);
    out->has_max_row_index = opt_int(max_row, i, &out->max_row_index);
    DL_CHECK(st.len == 1, err, DL_ERR_CORRUPT,
             "%s action: deletionVector: storageType \"%.*s\" is not one character", action,
             DL_STR_FMT(st));
    DL_CHECK(n_bytes >= 0 && n_bytes <= INT32_MAX && off >= 0 && off <= INT32_MAX, err,
             DL_ERR_CORRUPT,
             "%s action: deletionVector: sizeInBytes %lld or offset %lld out of range", action,
             (long long)n_bytes, (long long)off);
    out->storage_type = st.ptr[0];
    out->size_in_bytes = (int32_t)n_bytes;
    out->offset = (int32_t)off;
    DL_TRY_CTX(dl_delta_dv_desc_check(out, err), err, "%s action: deletionVector", action);
    return DL_OK;
}

static dl_status
file_partition(cp_ctx *c, const file_cols *fc, int64_t i, bool is_add, dl_str *out, dl_error *err) {
    const char *action = is_add ? "add" : "remove";
    *out = dl_str_make(NULL, 0);
    if (present(fc->pvp, i)) {
        DL_TRY(parsed_partition_json(c, fc->pvp, i, &c->text, err));
    } else if (present(fc->pv, i)) {
        DL_TRY(map_json(c, fc->pv, i, &c->text, err));
    } else if (is_add) {
        return missing(action, "partitionValues", err);
    } else {
        return DL_OK;
    }
    *out = dl_buf_view(&c->text);
    return DL_OK;
}

static dl_status
read_file_action(cp_ctx *c, const file_cols *fc, int64_t i, bool is_add, dl_error *err) {
    const char *action = is_add ? "add" : "remove";
    dl_delta_action *a = &c->action;
    a->kind = is_add ? DL_DELTA_ACTION_ADD : DL_DELTA_ACTION_REMOVE;
    a->name = dl_str_from_cstr(action);
    dl_delta_file_action *f = &a->file;
    memset(f, 0, sizeof(*f));
    DL_TRY(req_str(fc->path, i, action, "path", &f->path, err));
    DL_TRY(file_partition(c, fc, i, is_add, &f->partition_values, err));
    if (is_add) {
        DL_TRY(req_int(fc->size, i, action, "size", &f->size, err));
        DL_CHECK(f->size >= 0, err, DL_ERR_CORRUPT, "add action: negative size %lld",
                 (long long)f->size);
        DL_TRY(req_int(fc->mtime, i, action, "modificationTime", &f->modification_time, err));
        f->clustering_provider = opt_str(fc->clustering, i);
        f->stats_text = opt_str(fc->stats, i);
    } else {
        if (!opt_int(fc->size, i, &f->size)) {
            f->size = -1;
        }
        f->has_deletion_timestamp = opt_int(fc->del_ts, i, &f->deletion_timestamp);
        f->extended_file_metadata = present(fc->extended, i) && dl_vec_get_bool(fc->extended, i);
    }
    if (!present(fc->data_change, i)) {
        return missing(action, "dataChange", err);
    }
    f->data_change = dl_vec_get_bool(fc->data_change, i);
    if (present(fc->tags, i)) {
        DL_TRY(map_json(c, fc->tags, i, &c->tags, err));
        f->tags = dl_buf_view(&c->tags);
    }
    f->has_dv = present(fc->dv, i);
    if (f->has_dv) {
        DL_TRY(read_dv(fc->dv, i, action, &f->dv, err));
    }
    f->has_base_row_id = opt_int(fc->base_row_id, i, &f->base_row_id);
    f->has_default_row_commit_version = opt_int(fc->drcv, i, &f->default_row_commit_version);
    return DL_OK;
}

/* ---- metaData and protocol ----------------------------------------------------------- */

static dl_status
arena_cstr(cp_ctx *c, dl_str s, const char **out, dl_error *err) {
    char *p = dl_arena_strndup(&c->scratch, s.ptr ? s.ptr : "", s.len);
    DL_CHECK(p, err, DL_ERR_NOMEM, "out of memory copying a checkpoint action");
    *out = p;
    return DL_OK;
}

static dl_status
opt_cstr(cp_ctx *c, const dl_vector *v, int64_t i, const char **out, dl_error *err) {
    *out = NULL;
    if (!present(v, i)) {
        return DL_OK;
    }
    return arena_cstr(c, dl_vec_get_str(v, i), out, err);
}

/* An array<string> row as a list in the scratch arena; *out_has false when null. */
static dl_status
str_list(cp_ctx *c, const dl_vector *v, int64_t i, const char *const **out, int32_t *out_n,
         bool *out_has, dl_error *err) {
    *out = NULL;
    *out_n = 0;
    *out_has = present(v, i);
    if (!*out_has) {
        return DL_OK;
    }
    int64_t start;
    int64_t end;
    dl_vec_list_bounds(v, i, &start, &end);
    DL_CHECK(end - start <= INT32_MAX, err, DL_ERR_LIMIT, "a checkpoint list is too long");
    size_t n = (size_t)(end - start);
    const char **list = dl_arena_alloc_array(&c->scratch, n ? n : 1, sizeof(char *));
    DL_CHECK(list, err, DL_ERR_NOMEM, "out of memory copying a checkpoint action");
    const dl_vector *el = v->children[0];
    for (int64_t k = start; k < end; k++) {
        DL_CHECK(present(el, k), err, DL_ERR_CORRUPT, "a list of names holds a null");
        DL_TRY(arena_cstr(c, dl_vec_get_str(el, k), &list[k - start], err));
    }
    *out = list;
    *out_n = (int32_t)n;
    return DL_OK;
}

/* A map<string,string> row as key-value pairs in the scratch arena (empty when null). */
static dl_status
kv_list(cp_ctx *c, const dl_vector *v, int64_t i, const dl_delta_kv **out, int32_t *out_n,
        dl_error *err) {
    *out = NULL;
    *out_n = 0;
    if (!present(v, i)) {
        return DL_OK;
    }
    int64_t start;
    int64_t end;
    dl_vec_list_bounds(v, i, &start, &end);
    DL_CHECK(end - start <= INT32_MAX, err, DL_ERR_LIMIT, "a checkpoint map is too long");
    size_t n = (size_t)(end - start);
    dl_delta_kv *kv = dl_arena_alloc_array(&c->scratch, n ? n : 1, sizeof(dl_delta_kv));
    DL_CHECK(kv, err, DL_ERR_NOMEM, "out of memory copying a checkpoint action");
    const dl_vector *entries = v->children[0];
    for (int64_t k = start; k < end; k++) {
        DL_TRY(arena_cstr(c, dl_vec_get_str(entries->children[0], k), &kv[k - start].key, err));
        DL_TRY(opt_cstr(c, entries->children[1], k, &kv[k - start].value, err));
    }
    *out = kv;
    *out_n = (int32_t)n;
    return DL_OK;
}

static dl_status
read_metadata(cp_ctx *c, const dl_vector *md, int64_t i, dl_error *err) {
    dl_delta_action *a = &c->action;
    a->kind = DL_DELTA_ACTION_METADATA;
    a->name = DL_STR("metaData");
    dl_delta_metadata *m = &a->metadata;
    memset(m, 0, sizeof(*m));
    const dl_vector *id;
    const dl_vector *name;
    const dl_vector *desc;
    const dl_vector *format;
    const dl_vector *provider;
    const dl_vector *options;
    const dl_vector *schema;
    const dl_vector *parts;
    const dl_vector *conf;
    const dl_vector *created;
    DL_TRY(child(md, "metaData", "id", COL_STR, &id, err));
    DL_TRY(child(md, "metaData", "name", COL_STR, &name, err));
    DL_TRY(child(md, "metaData", "description", COL_STR, &desc, err));
    DL_TRY(child(md, "metaData", "format", COL_STRUCT, &format, err));
    DL_TRY(child(format, "metaData.format", "provider", COL_STR, &provider, err));
    DL_TRY(child(format, "metaData.format", "options", COL_MAP, &options, err));
    DL_TRY(child(md, "metaData", "schemaString", COL_STR, &schema, err));
    DL_TRY(child(md, "metaData", "partitionColumns", COL_STRLIST, &parts, err));
    DL_TRY(child(md, "metaData", "configuration", COL_MAP, &conf, err));
    DL_TRY(child(md, "metaData", "createdTime", COL_INT, &created, err));
    dl_str s;
    DL_TRY(req_str(id, i, "metaData", "id", &s, err));
    DL_TRY(arena_cstr(c, s, &m->id, err));
    DL_TRY(opt_cstr(c, name, i, &m->name, err));
    DL_TRY(opt_cstr(c, desc, i, &m->description, err));
    DL_TRY(opt_cstr(c, schema, i, &m->schema_string, err));
    if (!present(format, i)) {
        return missing("metaData", "format", err);
    }
    DL_TRY(opt_cstr(c, provider, i, &m->format_provider, err));
    if (!m->format_provider) {
        DL_TRY(arena_cstr(c, DL_STR("parquet"), &m->format_provider, err));
    }
    DL_TRY(kv_list(c, options, i, &m->format_options, &m->n_format_options, err));
    bool has_parts;
    DL_TRY(str_list(c, parts, i, &m->partition_columns, &m->n_partition_columns, &has_parts, err));
    if (!has_parts) {
        return missing("metaData", "partitionColumns", err);
    }
    m->has_created_time = opt_int(created, i, &m->created_time);
    /* Some writers leave an empty configuration out of checkpoints; it means {}. */
    return kv_list(c, conf, i, &m->configuration, &m->n_configuration, err);
}

static dl_status
read_protocol(cp_ctx *c, const dl_vector *pv, int64_t i, dl_error *err) {
    dl_delta_action *a = &c->action;
    a->kind = DL_DELTA_ACTION_PROTOCOL;
    a->name = DL_STR("protocol");
    dl_delta_protocol *p = &a->protocol;
    memset(p, 0, sizeof(*p));
    const dl_vector *rv;
    const dl_vector *wv;
    const dl_vector *rf;
    const dl_vector *wf;
    DL_TRY(child(pv, "protocol", "minReaderVersion", COL_INT, &rv, err));
    DL_TRY(child(pv, "protocol", "minWriterVersion", COL_INT, &wv, err));
    DL_TRY(child(pv, "protocol", "readerFeatures", COL_STRLIST, &rf, err));
    DL_TRY(child(pv, "protocol", "writerFeatures", COL_STRLIST, &wf, err));
    int64_t r;
    int64_t w;
    DL_TRY(req_int(rv, i, "protocol", "minReaderVersion", &r, err));
    DL_TRY(req_int(wv, i, "protocol", "minWriterVersion", &w, err));
    DL_CHECK(r >= INT32_MIN && r <= INT32_MAX && w >= INT32_MIN && w <= INT32_MAX, err,
             DL_ERR_CORRUPT, "protocol action: versions %lld/%lld out of range", (long long)r,
             (long long)w);
    p->min_reader_version = (int32_t)r;
    p->min_writer_version = (int32_t)w;
    DL_TRY(str_list(c, rf, i, &p->reader_features, &p->n_reader_features, &p->has_reader_features,
                    err));
    return str_list(c, wf, i, &p->writer_features, &p->n_writer_features, &p->has_writer_features,
                    err);
}

/* ---- the other actions --------------------------------------------------------------- */

static dl_status
read_txn(cp_ctx *c, const dl_vector *v, int64_t i, dl_error *err) {
    dl_delta_action *a = &c->action;
    a->kind = DL_DELTA_ACTION_TXN;
    a->name = DL_STR("txn");
    const dl_vector *app;
    const dl_vector *ver;
    const dl_vector *upd;
    DL_TRY(child(v, "txn", "appId", COL_STR, &app, err));
    DL_TRY(child(v, "txn", "version", COL_INT, &ver, err));
    DL_TRY(child(v, "txn", "lastUpdated", COL_INT, &upd, err));
    DL_TRY(req_str(app, i, "txn", "appId", &a->txn.app_id, err));
    DL_TRY(req_int(ver, i, "txn", "version", &a->txn.version, err));
    a->txn.has_last_updated = opt_int(upd, i, &a->txn.last_updated);
    return DL_OK;
}

static dl_status
read_domain(cp_ctx *c, const dl_vector *v, int64_t i, dl_error *err) {
    dl_delta_action *a = &c->action;
    a->kind = DL_DELTA_ACTION_DOMAIN_METADATA;
    a->name = DL_STR("domainMetadata");
    const dl_vector *dom;
    const dl_vector *conf;
    const dl_vector *rem;
    DL_TRY(child(v, "domainMetadata", "domain", COL_STR, &dom, err));
    DL_TRY(child(v, "domainMetadata", "configuration", COL_STR, &conf, err));
    DL_TRY(child(v, "domainMetadata", "removed", COL_BOOL, &rem, err));
    DL_TRY(req_str(dom, i, "domainMetadata", "domain", &a->domain.domain, err));
    DL_TRY(req_str(conf, i, "domainMetadata", "configuration", &a->domain.configuration, err));
    if (!present(rem, i)) {
        return missing("domainMetadata", "removed", err);
    }
    a->domain.is_removed = dl_vec_get_bool(rem, i);
    return DL_OK;
}

static dl_status
read_checkpoint_metadata(cp_ctx *c, const dl_vector *v, int64_t i, dl_error *err) {
    dl_delta_action *a = &c->action;
    a->kind = DL_DELTA_ACTION_CHECKPOINT_METADATA;
    a->name = DL_STR("checkpointMetadata");
    const dl_vector *ver;
    const dl_vector *tags;
    DL_TRY(child(v, "checkpointMetadata", "version", COL_INT, &ver, err));
    DL_TRY(child(v, "checkpointMetadata", "tags", COL_MAP, &tags, err));
    DL_TRY(req_int(ver, i, "checkpointMetadata", "version", &a->checkpoint.version, err));
    DL_TRY(map_json(c, tags, i, &c->tags, err));
    a->checkpoint.tags = dl_buf_view(&c->tags);
    return DL_OK;
}

static dl_status
read_sidecar(cp_ctx *c, const dl_vector *v, int64_t i, dl_error *err) {
    dl_delta_action *a = &c->action;
    a->kind = DL_DELTA_ACTION_SIDECAR;
    a->name = DL_STR("sidecar");
    const dl_vector *path;
    const dl_vector *size;
    const dl_vector *mtime;
    DL_TRY(child(v, "sidecar", "path", COL_STR, &path, err));
    DL_TRY(child(v, "sidecar", "sizeInBytes", COL_INT, &size, err));
    DL_TRY(child(v, "sidecar", "modificationTime", COL_INT, &mtime, err));
    DL_TRY(req_str(path, i, "sidecar", "path", &a->sidecar.path, err));
    DL_TRY(req_int(size, i, "sidecar", "sizeInBytes", &a->sidecar.size_in_bytes, err));
    return req_int(mtime, i, "sidecar", "modificationTime", &a->sidecar.modification_time, err);
}

/* ---- rows ---------------------------------------------------------------------------- */

static dl_status
emit(cp_ctx *c, int64_t row, dl_error *err) {
    return c->visit(c->ctx, &c->action, row, err);
}

/* Visits the actions of batch row i (file row `row`). */
static dl_status
read_row(cp_ctx *c, const batch_cols *bc, int64_t i, int64_t row, dl_error *err) {
    if (present(bc->add.self, i)) {
        DL_TRY(read_file_action(c, &bc->add, i, true, err));
        DL_TRY(emit(c, row, err));
    }
    if (present(bc->rm.self, i)) {
        DL_TRY(read_file_action(c, &bc->rm, i, false, err));
        DL_TRY(emit(c, row, err));
    }
    if (present(bc->proto, i)) {
        DL_TRY(read_protocol(c, bc->proto, i, err));
        DL_TRY(emit(c, row, err));
    }
    if (present(bc->md, i)) {
        DL_TRY(read_metadata(c, bc->md, i, err));
        DL_TRY(emit(c, row, err));
    }
    if (present(bc->txn, i)) {
        DL_TRY(read_txn(c, bc->txn, i, err));
        DL_TRY(emit(c, row, err));
    }
    if (present(bc->dom, i)) {
        DL_TRY(read_domain(c, bc->dom, i, err));
        DL_TRY(emit(c, row, err));
    }
    if (present(bc->cpm, i)) {
        DL_TRY(read_checkpoint_metadata(c, bc->cpm, i, err));
        DL_TRY(emit(c, row, err));
    }
    if (present(bc->sc, i)) {
        DL_TRY(read_sidecar(c, bc->sc, i, err));
        DL_TRY(emit(c, row, err));
    }
    return DL_OK;
}

/* ---- choosing the columns ------------------------------------------------------------ */

#define MAX_CP_COLUMNS 40

typedef struct col_list {
    const dl_pq_field *fields[MAX_CP_COLUMNS];
    size_t n;
    bool has_action; /* the file has at least one action column */
} col_list;

static const char *const add_fields[] = {
    "path", "partitionValues", "size",      "modificationTime",        "dataChange",
    "tags", "deletionVector",  "baseRowId", "defaultRowCommitVersion", "clusteringProvider"};
static const char *const remove_fields[] = {
    "path", "deletionTimestamp", "dataChange", "extendedFileMetadata",   "partitionValues", "size",
    "tags", "deletionVector",    "baseRowId",  "defaultRowCommitVersion"};

static void
add_col(col_list *cl, const dl_pq_field *f) {
    if (f && cl->n < MAX_CP_COLUMNS) {
        cl->fields[cl->n++] = f;
    }
}

static const dl_pq_field *
find2(const dl_pq_field *root, const char *a, const char *b) {
    const char *names[2] = {a, b};
    return dl_pq_field_find(root, names, b ? 2 : 1, false);
}

/* The sub-fields of the add or remove column that are read: partitionValues_parsed too when
 * the file has it (preferred; the string map stays the fallback for rows where it is null). */
static void
choose_file_cols(const dl_pq_field *root, const char *action, const char *const *names, size_t n,
                 const dl_delta_cp_read_options *opts, col_list *cl) {
    const dl_pq_field *pvp = find2(root, action, "partitionValues_parsed");
    if (pvp && pvp->type && pvp->kind == DL_PQ_FIELD_STRUCT && pvp->n_children > 0) {
        add_col(cl, pvp);
    }
    for (size_t i = 0; i < n; i++) {
        add_col(cl, find2(root, action, names[i]));
    }
    if (opts->with_stats && strcmp(action, "add") == 0) {
        add_col(cl, find2(root, action, "stats"));
    }
}

static void
choose_columns(const dl_pq_field *root, const dl_delta_cp_read_options *opts, col_list *cl) {
    memset(cl, 0, sizeof(*cl));
    static const char *const whole[] = {"protocol",       "metaData",           "txn",
                                        "domainMetadata", "checkpointMetadata", "sidecar"};
    for (size_t i = 0; i < DL_ARRAY_LEN(whole); i++) {
        const dl_pq_field *f = find2(root, whole[i], NULL);
        cl->has_action = cl->has_action || f != NULL;
        if (f && !opts->is_files_only && (!opts->is_metadata_only || i < 2)) {
            add_col(cl, f);
        }
    }
    const dl_pq_field *add = find2(root, "add", NULL);
    const dl_pq_field *rm = find2(root, "remove", NULL);
    cl->has_action = cl->has_action || add || rm;
    if (opts->is_metadata_only || opts->is_without_files) {
        return;
    }
    if (add) {
        choose_file_cols(root, "add", add_fields, DL_ARRAY_LEN(add_fields), opts, cl);
    }
    if (rm && !opts->is_without_removes) {
        choose_file_cols(root, "remove", remove_fields, DL_ARRAY_LEN(remove_fields), opts, cl);
    }
}

/* ---- skipping the add/remove row groups --------------------------------------------- */

/*
 * Without the add and remove columns (metadata-only loads, and the first pass of a parallel
 * replay), only rows of the rarer actions matter, which writers put together (Spark puts
 * protocol and metaData first): row groups and pages whose statistics say that every one of
 * them is null are skipped, through a filter "<a required leaf of each action read> IS NOT
 * NULL" OR'ed together. An action column without such a leaf disables the filter.
 */
typedef struct presence {
    dl_pq_filter leaves[8];
    dl_pq_filter any;
} presence;

static const dl_pq_filter *
presence_filter(const dl_pq_field *root, const col_list *cl, presence *p) {
    static const char *const required[][2] = {{"protocol", "minReaderVersion"},
                                              {"metaData", "id"},
                                              {"txn", "appId"},
                                              {"domainMetadata", "domain"},
                                              {"checkpointMetadata", "version"},
                                              {"sidecar", "path"}};
    size_t n = 0;
    for (size_t i = 0; i < cl->n; i++) {
        const dl_pq_field *f = cl->fields[i];
        const dl_pq_field *leaf = NULL;
        for (size_t k = 0; k < DL_ARRAY_LEN(required) && !leaf; k++) {
            if (f->parent == root && strcmp(f->name, required[k][0]) == 0) {
                leaf = find2(root, required[k][0], required[k][1]);
            }
        }
        if (!leaf || leaf->kind != DL_PQ_FIELD_LEAF || n == DL_ARRAY_LEN(p->leaves)) {
            return NULL;
        }
        p->leaves[n++] = (dl_pq_filter){.op = DL_PQ_FILTER_IS_NOT_NULL, .column = leaf};
    }
    if (n == 0) {
        return NULL;
    }
    p->any = (dl_pq_filter){.op = DL_PQ_FILTER_OR, .children = p->leaves, .n_children = n};
    return &p->any;
}

/* ---- recycling the reader's large buffers ------------------------------------------- */

/*
 * The Parquet reader takes a fresh buffer for every page it decompresses and every column
 * chunk it fetches, and lets it go once the batches that point into it are reset. Over a
 * checkpoint of a million rows that is thousands of megabyte-sized buffers, each of them
 * fresh memory the kernel must fault in page by page. The reader of a checkpoint therefore
 * allocates through a recycler: blocks of 64 KiB and more are rounded up to a power of two
 * and, when freed, kept (up to RECYCLE_SLOTS of them) for the next request of the same size.
 * Smaller requests go straight to the parent allocator. Blocks may be freed on either thread
 * of a pipelined read, hence the lock.
 */
#define RECYCLE_MIN   ((size_t)64 << 10)
#define RECYCLE_SLOTS 32

typedef struct recycler {
    dl_allocator base;          /* what the reader is given */
    dl_huge_allocator bulk;     /* over the caller's allocator: huge pages for large blocks */
    const dl_allocator *parent; /* &bulk.base */
    pthread_mutex_t mu;
    void *blocks[RECYCLE_SLOTS];
    size_t sizes[RECYCLE_SLOTS];
    size_t n;
} recycler;

static size_t
size_class(size_t n) {
    if (n < RECYCLE_MIN) {
        return n;
    }
    size_t c = RECYCLE_MIN;
    while (c < n && c <= SIZE_MAX / 2) {
        c <<= 1;
    }
    return c < n ? n : c;
}

/* A kept block of exactly size bytes, or NULL. */
static void *
take_block(recycler *r, size_t size) {
    void *out = NULL;
    (void)pthread_mutex_lock(&r->mu);
    for (size_t i = 0; i < r->n && !out; i++) {
        if (r->sizes[i] == size) {
            out = r->blocks[i];
            r->blocks[i] = r->blocks[r->n - 1];
            r->sizes[i] = r->sizes[r->n - 1];
            r->n--;
        }
    }
    (void)pthread_mutex_unlock(&r->mu);
    return out;
}

static void
give_block(recycler *r, void *p, size_t size) {
    bool is_kept = false;
    if (size >= RECYCLE_MIN) {
        (void)pthread_mutex_lock(&r->mu);
        is_kept = r->n < RECYCLE_SLOTS;
        if (is_kept) {
            r->blocks[r->n] = p;
            r->sizes[r->n++] = size;
        }
        (void)pthread_mutex_unlock(&r->mu);
    }
    if (!is_kept) {
        dl_mem_free(r->parent, p, size);
    }
}

static void *
recycle_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    recycler *r = ctx;
    size_t oc = ptr ? size_class(old_size) : 0;
    size_t nc = new_size ? size_class(new_size) : 0;
    if (ptr && new_size && oc == nc) {
        return ptr;
    }
    if (ptr && new_size && oc < RECYCLE_MIN && nc < RECYCLE_MIN) {
        return dl_mem_realloc(r->parent, ptr, oc, nc);
    }
    void *out = NULL;
    if (new_size) {
        out = nc >= RECYCLE_MIN ? take_block(r, nc) : NULL;
        out = out ? out : dl_mem_alloc(r->parent, nc);
        if (!out) {
            return NULL; /* ptr stays valid */
        }
        if (ptr) {
            memcpy(out, ptr, old_size < new_size ? old_size : new_size);
        }
    }
    if (ptr) {
        give_block(r, ptr, oc);
    }
    return out;
}

static void
recycler_init(recycler *r, const dl_allocator *parent) {
    memset(r, 0, sizeof(*r));
    dl_huge_allocator_init(&r->bulk, parent);
    r->parent = &r->bulk.base;
    r->base = (dl_allocator){.realloc = recycle_realloc, .ctx = r};
    (void)pthread_mutex_init(&r->mu, NULL);
}

static void
recycler_destroy(recycler *r) {
    for (size_t i = 0; i < r->n; i++) {
        dl_mem_free(r->parent, r->blocks[i], r->sizes[i]);
    }
    r->n = 0;
    (void)pthread_mutex_destroy(&r->mu);
}

/* ---- the whole file ------------------------------------------------------------------ */

/* One batch of the pipeline: filled by the decoder, consumed on the caller's thread. */
typedef struct slot {
    dl_batch *batch;
    int64_t first; /* file row of the batch's first row */
} slot;

#define N_SLOTS 16

/*
 * The decoder runs ahead of the visitor by up to N_SLOTS batches: slots [head, tail) (mod
 * N_SLOTS) are filled and wait to be visited. Coarse hand-offs matter on a busy machine,
 * where waking the other thread for every batch would cost a scheduling quantum each time.
 */
typedef struct cp_pipe {
    dl_pq_reader *reader;
    slot slots[N_SLOTS];
    int n_batches; /* slots in use: 1 without a pool, N_SLOTS with one */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int64_t head;    /* next slot to visit */
    int64_t tail;    /* next slot to fill */
    bool is_ended;   /* the decoder read the last batch (or failed) */
    bool is_stopped; /* the visitor gave up: the decoder must stop */
    dl_status status;
    dl_error err;
} cp_pipe;

static dl_status
fill_slot(cp_pipe *p, slot *s, dl_error *err) {
    DL_TRY(dl_pq_reader_next(p->reader, s->batch, err));
    s->first = dl_pq_reader_batch_first_row(p->reader);
    return DL_OK;
}

/* The decoder task: fills slots until the file ends, an error, or the visitor stops. */
static dl_status
decode_task(void *arg, dl_error *err) {
    cp_pipe *p = arg;
    (void)err;
    for (;;) {
        (void)pthread_mutex_lock(&p->mu);
        while (p->tail - p->head == N_SLOTS && !p->is_stopped) {
            (void)pthread_cond_wait(&p->cv, &p->mu);
        }
        bool is_stopped = p->is_stopped;
        slot *s = &p->slots[p->tail % N_SLOTS];
        (void)pthread_mutex_unlock(&p->mu);
        if (is_stopped) {
            return DL_OK;
        }
        dl_error e;
        dl_error_clear(&e);
        dl_status st = fill_slot(p, s, &e);
        (void)pthread_mutex_lock(&p->mu);
        if (st != DL_OK || s->batch->count == 0) {
            p->status = st;
            p->err = e;
            p->is_ended = true;
        } else {
            p->tail++;
        }
        (void)pthread_cond_broadcast(&p->cv);
        bool is_done = p->is_ended;
        (void)pthread_mutex_unlock(&p->mu);
        if (is_done) {
            return DL_OK;
        }
    }
}

static dl_status
visit_batch(cp_ctx *c, const slot *s, dl_error *err) {
    batch_cols bc;
    DL_TRY(bind_batch(s->batch, &bc, err));
    for (int64_t i = 0; i < s->batch->count; i++) {
        DL_TRY_CTX(read_row(c, &bc, i, s->first + i, err), err, "row %lld",
                   (long long)(s->first + i));
    }
    dl_arena_reset(&c->scratch);
    return DL_OK;
}

/* Visits the batches the decoder task fills. */
static dl_status
visit_piped(cp_ctx *c, cp_pipe *p, dl_error *err) {
    dl_status st = DL_OK;
    for (;;) {
        (void)pthread_mutex_lock(&p->mu);
        while (p->head == p->tail && !p->is_ended) {
            (void)pthread_cond_wait(&p->cv, &p->mu);
        }
        bool has_batch = p->head < p->tail;
        slot *s = &p->slots[p->head % N_SLOTS];
        (void)pthread_mutex_unlock(&p->mu);
        if (!has_batch) {
            break;
        }
        st = visit_batch(c, s, err);
        (void)pthread_mutex_lock(&p->mu);
        p->head++;
        p->is_stopped = st != DL_OK;
        (void)pthread_cond_broadcast(&p->cv);
        (void)pthread_mutex_unlock(&p->mu);
        if (st != DL_OK) {
            return st;
        }
    }
    if (p->status != DL_OK && err) {
        *err = p->err;
    }
    return p->status;
}

/* Reads and visits every batch, decoding on pool's thread when there is one. */
static dl_status
read_batches(cp_ctx *c, cp_pipe *p, dl_pool *pool, dl_error *err) {
    if (!pool) {
        for (;;) {
            DL_TRY(fill_slot(p, &p->slots[0], err));
            if (p->slots[0].batch->count == 0) {
                return DL_OK;
            }
            DL_TRY(visit_batch(c, &p->slots[0], err));
        }
    }
    dl_pool_group g;
    dl_pool_group_init(&g, pool);
    dl_status st = dl_pool_submit(&g, decode_task, p, err);
    if (st == DL_OK) {
        st = visit_piped(c, p, err);
    }
    dl_error werr;
    dl_error_clear(&werr);
    if (dl_pool_group_wait(&g, &werr) != DL_OK && st == DL_OK) {
        if (err) {
            *err = werr;
        }
        st = werr.code;
    }
    return st;
}

/* Files of at least this many rows are decoded on a helper thread while their rows are
 * visited (when the machine has a second processor). */
#define PIPELINE_MIN_ROWS 65536

static void
pipe_destroy(cp_pipe *p) {
    for (int i = 0; i < N_SLOTS; i++) {
        dl_vec_batch_free(p->slots[i].batch);
    }
    dl_pq_reader_free(p->reader);
    (void)pthread_cond_destroy(&p->cv);
    (void)pthread_mutex_destroy(&p->mu);
}

static dl_status
pipe_init(cp_pipe *p, dl_pq_file *file, const dl_pq_read_options *ro, bool is_piped,
          dl_error *err) {
    memset(p, 0, sizeof(*p));
    (void)pthread_mutex_init(&p->mu, NULL);
    (void)pthread_cond_init(&p->cv, NULL);
    p->n_batches = is_piped ? N_SLOTS : 1;
    DL_TRY(dl_pq_reader_new(file, ro, &p->reader, err));
    for (int i = 0; i < p->n_batches; i++) {
        DL_TRY(dl_vec_batch_new(ro->alloc, dl_pq_reader_schema(p->reader), 0, &p->slots[i].batch,
                                err));
    }
    return DL_OK;
}

dl_status
dl_delta_checkpoint_read(dl_pq_file *file, const dl_delta_cp_read_options *opts,
                         dl_delta_action_visit_fn visit, void *ctx, dl_error *err) {
    static const dl_delta_cp_read_options defaults;
    opts = opts ? opts : &defaults;
    col_list cl;
    choose_columns(dl_pq_file_root(file), opts, &cl);
    DL_CHECK(cl.has_action, err, DL_ERR_CORRUPT,
             "not a checkpoint: the Parquet file has none of the action columns (add, remove, "
             "metaData, protocol, ...)");
    if (cl.n == 0) {
        return DL_OK;
    }
    recycler rec;
    recycler_init(&rec, opts->alloc);
    const dl_allocator *alloc = &rec.base;
    presence pf;
    bool is_rare_only = opts->is_metadata_only || opts->is_without_files;
    dl_pq_read_options ro = {
        .alloc = alloc,
        .columns = cl.fields,
        .n_columns = cl.n,
        .row_groups = opts->row_groups,
        .n_row_groups = opts->n_row_groups,
        .filter = is_rare_only ? presence_filter(dl_pq_file_root(file), &cl, &pf) : NULL};
    bool is_piped = opts->is_always_piped ||
                    (!opts->is_single_threaded && dl_pq_file_num_rows(file) >= PIPELINE_MIN_ROWS &&
                     dl_pool_default_n_workers() > 1);
    dl_pool *pool = NULL;
    cp_pipe p;
    cp_ctx c;
    memset(&c, 0, sizeof(c));
    c.opts = opts;
    c.visit = visit;
    c.ctx = ctx;
    dl_arena_init(&c.scratch, alloc, 0);
    dl_buf_init(&c.text, alloc);
    dl_buf_init(&c.tags, alloc);
    dl_buf_init(&c.scratch_buf, alloc);
    dl_status st = pipe_init(&p, file, &ro, is_piped, err);
    if (st == DL_OK && is_piped) {
        st = dl_pool_new(1, alloc, &pool, err);
    }
    if (st == DL_OK) {
        st = read_batches(&c, &p, pool, err);
    }
    dl_pool_free(pool);
    pipe_destroy(&p);
    dl_buf_destroy(&c.scratch_buf);
    dl_buf_destroy(&c.tags);
    dl_buf_destroy(&c.text);
    dl_arena_destroy(&c.scratch);
    recycler_destroy(&rec);
    return st;
}

/* ---- stats read back ----------------------------------------------------------------- */

/* Writes struct row i of v as JSON (stats_parsed): numbers as numbers, dates and timestamps as
 * strings; null and unrepresentable fields (NaN, binary) are left out. */
static dl_status
render_struct(dl_json_writer *w, const dl_vector *v, int64_t i, dl_buf *tmp, dl_error *err) {
    DL_TRY(dl_json_writer_begin_object(w, err));
    for (int32_t f = 0; f < v->n_children; f++) {
        const dl_vector *col = v->children[f];
        if (!present(col, i) || col->layout != DL_VEC_FLAT) {
            continue;
        }
        const char *name = v->type->fields[f].name;
        dl_type_id id = col->type->id;
        if (id == DL_VEC_TYPE_STRUCT) {
            DL_TRY(dl_json_writer_key_cstr(w, name, err));
            DL_TRY(render_struct(w, col, i, tmp, err));
            continue;
        }
        if (dl_vec_type_is_nested(col->type) || id == DL_VEC_TYPE_BINARY) {
            continue;
        }
        bool ok;
        dl_buf_reset(tmp);
        DL_TRY(dl_delta_value_append_text(col, i, DL_DELTA_TEXT_STATS, tmp, &ok, err));
        if (!ok) {
            continue;
        }
        DL_TRY(dl_json_writer_key_cstr(w, name, err));
        if (id == DL_VEC_TYPE_BOOLEAN) {
            DL_TRY(dl_json_writer_bool(w, dl_vec_get_bool(col, i), err));
        } else if (id == DL_VEC_TYPE_STRING || id == DL_VEC_TYPE_DATE ||
                   id == DL_VEC_TYPE_TIMESTAMP || id == DL_VEC_TYPE_TIMESTAMP_NTZ) {
            DL_TRY(dl_json_writer_string(w, dl_buf_view(tmp), err));
        } else {
            DL_TRY(dl_json_writer_raw(w, dl_buf_view(tmp), err));
        }
    }
    return dl_json_writer_end_object(w, err);
}

struct dl_delta_cp_cursor {
    const dl_allocator *alloc;
    const dl_store *store;
    dl_buf path; /* the checkpoint or sidecar open, "" when none */
    dl_pq_file *file;
    const dl_pq_field *stats;  /* add.stats, or NULL */
    const dl_pq_field *parsed; /* add.stats_parsed, or NULL */
    int64_t *rg_first;         /* file row of each row group's first row, n_rg + 1 entries */
    size_t n_rg;
    dl_pq_reader *reader; /* over row group rg */
    dl_batch *batch;      /* its last batch */
    int32_t rg;
    int64_t batch_first; /* file row of batch's first row */
    dl_buf json;         /* the rendered stats_parsed of the last row asked for */
    dl_buf tmp;
};

static void
cursor_close(dl_delta_cp_cursor *c) {
    dl_vec_batch_free(c->batch);
    dl_pq_reader_free(c->reader);
    dl_pq_file_free(c->file);
    if (c->rg_first) {
        dl_mem_free(c->alloc, c->rg_first, (c->n_rg + 1) * sizeof(int64_t));
    }
    c->batch = NULL;
    c->reader = NULL;
    c->file = NULL;
    c->rg_first = NULL;
    c->n_rg = 0;
    c->stats = c->parsed = NULL;
    c->store = NULL;
    dl_buf_reset(&c->path);
}

void
dl_delta_cp_cursor_free(dl_delta_cp_cursor *c) {
    if (!c) {
        return;
    }
    cursor_close(c);
    dl_buf_destroy(&c->path);
    dl_buf_destroy(&c->json);
    dl_buf_destroy(&c->tmp);
    dl_mem_free(c->alloc, c, sizeof(*c));
}

static dl_status
cursor_open(dl_delta_cp_cursor *c, dl_store *store, const char *path, dl_error *err) {
    cursor_close(c);
    DL_TRY(dl_pq_file_open(store, path, c->alloc, &c->file, err));
    const dl_pq_field *root = dl_pq_file_root(c->file);
    c->stats = find2(root, "add", "stats");
    c->parsed = find2(root, "add", "stats_parsed");
    if (c->stats && (!c->stats->type || !is_bytes_type(c->stats->type))) {
        c->stats = NULL;
    }
    if (c->parsed && (!c->parsed->type || c->parsed->type->id != DL_VEC_TYPE_STRUCT)) {
        c->parsed = NULL;
    }
    const dl_pq_footer *ft = dl_pq_file_footer(c->file);
    c->n_rg = ft->meta.n_row_groups;
    c->rg_first = dl_mem_alloc(c->alloc, (c->n_rg + 1) * sizeof(int64_t));
    DL_CHECK(c->rg_first, err, DL_ERR_NOMEM, "out of memory reading stats back");
    c->rg_first[0] = 0;
    for (size_t g = 0; g < c->n_rg; g++) {
        c->rg_first[g + 1] = c->rg_first[g] + ft->meta.row_groups[g].num_rows;
    }
    c->rg = -1;
    c->store = store;
    return dl_buf_append_cstr(&c->path, path, err);
}

/* Positions the cursor's batch on file row `row`. */
static dl_status
cursor_seek(dl_delta_cp_cursor *c, int64_t row, dl_error *err) {
    size_t lo = 0;
    size_t hi = c->n_rg;
    while (lo < hi) { /* the row group g with rg_first[g] <= row < rg_first[g + 1] */
        size_t mid = lo + (hi - lo) / 2;
        if (c->rg_first[mid + 1] <= row) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    DL_CHECK(row >= 0 && lo < c->n_rg, err, DL_ERR_CORRUPT,
             "row %lld is beyond the end of the file (%lld rows)", (long long)row,
             (long long)c->rg_first[c->n_rg]);
    bool is_behind = c->reader && c->batch->count > 0 && row < c->batch_first;
    if (!c->reader || (int32_t)lo != c->rg || is_behind) {
        dl_vec_batch_free(c->batch);
        dl_pq_reader_free(c->reader);
        c->batch = NULL;
        c->reader = NULL;
        const dl_pq_field *cols[2];
        size_t n = 0;
        if (c->parsed) {
            cols[n++] = c->parsed;
        }
        if (c->stats) {
            cols[n++] = c->stats;
        }
        int32_t g = (int32_t)lo;
        dl_pq_read_options ro = {.alloc = c->alloc,
                                 .columns = cols,
                                 .n_columns = n,
                                 .row_groups = &g,
                                 .n_row_groups = 1};
        DL_TRY(dl_pq_reader_new(c->file, &ro, &c->reader, err));
        DL_TRY(dl_vec_batch_new(c->alloc, dl_pq_reader_schema(c->reader), 0, &c->batch, err));
        c->rg = g;
        c->batch_first = c->rg_first[g];
        c->batch->count = 0;
    }
    while (row >= c->batch_first + c->batch->count) {
        DL_TRY(dl_pq_reader_next(c->reader, c->batch, err));
        DL_CHECK(c->batch->count > 0, err, DL_ERR_CORRUPT, "row group %d ended before row %lld",
                 (int)c->rg, (long long)row);
        c->batch_first = dl_pq_reader_batch_first_row(c->reader);
    }
    return DL_OK;
}

/* The stats of batch row i: rendered stats_parsed, else the stats string. */
static dl_status
cursor_stats(dl_delta_cp_cursor *c, int64_t i, dl_str *out, bool *out_found, dl_error *err) {
    const dl_vector *add;
    const dl_vector *parsed = NULL;
    const dl_vector *stats = NULL;
    DL_TRY(top(c->batch, "add", &add, err));
    DL_TRY(child(add, "add", "stats_parsed", COL_STRUCT, &parsed, err));
    DL_TRY(child(add, "add", "stats", COL_STR, &stats, err));
    if (present(add, i) && present(parsed, i)) {
        dl_buf_reset(&c->json);
        dl_json_writer w;
        dl_json_writer_init(&w, &c->json, 0);
        dl_status st = render_struct(&w, parsed, i, &c->tmp, err);
        dl_json_writer_destroy(&w);
        DL_TRY(st);
        *out = dl_buf_view(&c->json);
        *out_found = true;
        return DL_OK;
    }
    if (present(add, i) && present(stats, i)) {
        *out = dl_vec_get_str(stats, i);
        *out_found = out->len > 0;
    }
    return DL_OK;
}

dl_status
dl_delta_checkpoint_stats(dl_delta_stats_reader *rd, dl_store *store, const char *path, int64_t row,
                          dl_str *out, bool *out_found, dl_error *err) {
    *out = dl_str_make(NULL, 0);
    *out_found = false;
    if (!rd->cp) {
        const dl_allocator *alloc = rd->bytes.alloc;
        rd->cp = dl_mem_alloc_zero(alloc, sizeof(*rd->cp));
        DL_CHECK(rd->cp, err, DL_ERR_NOMEM, "out of memory reading stats back");
        rd->cp->alloc = alloc;
        dl_buf_init(&rd->cp->path, alloc);
        dl_buf_init(&rd->cp->json, alloc);
        dl_buf_init(&rd->cp->tmp, alloc);
    }
    dl_delta_cp_cursor *c = rd->cp;
    if (c->store != store || c->path.len == 0 || strcmp(dl_buf_cstr(&c->path), path) != 0) {
        dl_status st = cursor_open(c, store, path, err);
        if (st != DL_OK) {
            cursor_close(c);
            return st;
        }
    }
    if (!c->stats && !c->parsed) {
        return DL_OK;
    }
    dl_status st = cursor_seek(c, row, err);
    if (st == DL_OK) {
        st = cursor_stats(c, row - c->batch_first, out, out_found, err);
    }
    if (st != DL_OK) {
        cursor_close(c);
    }
    return st;
}
