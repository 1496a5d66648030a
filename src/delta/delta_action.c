/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Actions (PROTOCOL.md, "Actions"): one JSON object per line of a commit file, whose member
 * key names the action and whose value holds its fields:
 *
 *   {"add":{"path":"a%20b.parquet","partitionValues":{},"size":5,"modificationTime":1,
 *           "dataChange":true,"stats":"{\"numRecords\":3}"}}
 *
 * Readers must ignore actions and fields they do not know (forward compatibility), so a line
 * may also carry several members (an unknown one beside an add) and every member is an action
 * of its own. A member whose value is null is no action. Fields the protocol calls required
 * must be present with the right JSON type; optional ones may be absent or null.
 *
 * The parse allocates nothing for file actions, the hot path of log replay: strings are views
 * into the JSON doc, partitionValues and tags stay raw JSON text to be interned and parsed
 * once per distinct value by the snapshot, and stats stays a JSON value whose unescaped bytes
 * are copied only for files that survive reconciliation. protocol and metaData, rare and kept
 * by the snapshot, are copied into the caller's arena.
 */
#include <string.h>

#include "delta/delta_int.h"

/* ---- field getters: what is missing or mistyped, with the action and field named ----- */

static bool
is_absent(dl_json_val v) {
    return dl_json_val_is_missing(v) || dl_json_val_is_null(v);
}

static dl_status
missing(const char *action, const char *key, dl_error *err) {
    DL_FAIL(err, DL_ERR_CORRUPT, "%s action: missing required field '%s'", action, key);
}

static dl_status
req_str(dl_json_val obj, const char *action, const char *key, dl_str *out, dl_error *err) {
    dl_json_val v = dl_json_obj_get(obj, key);
    if (is_absent(v)) {
        return missing(action, key, err);
    }
    DL_TRY_CTX(dl_json_val_get_str(v, out, err), err, "%s action: field '%s'", action, key);
    return DL_OK;
}

static dl_status
opt_str(dl_json_val obj, const char *action, const char *key, dl_str *out, dl_error *err) {
    dl_json_val v = dl_json_obj_get(obj, key);
    *out = dl_str_make(NULL, 0);
    if (is_absent(v)) {
        return DL_OK;
    }
    DL_TRY_CTX(dl_json_val_get_str(v, out, err), err, "%s action: field '%s'", action, key);
    return DL_OK;
}

static dl_status
req_i64(dl_json_val obj, const char *action, const char *key, int64_t *out, dl_error *err) {
    dl_json_val v = dl_json_obj_get(obj, key);
    if (is_absent(v)) {
        return missing(action, key, err);
    }
    DL_TRY_CTX(dl_json_val_get_int64(v, out, err), err, "%s action: field '%s'", action, key);
    return DL_OK;
}

static dl_status
opt_i64(dl_json_val obj, const char *action, const char *key, int64_t *out, bool *out_has,
        dl_error *err) {
    dl_json_val v = dl_json_obj_get(obj, key);
    *out_has = false;
    if (is_absent(v)) {
        return DL_OK;
    }
    DL_TRY_CTX(dl_json_val_get_int64(v, out, err), err, "%s action: field '%s'", action, key);
    *out_has = true;
    return DL_OK;
}

static dl_status
req_bool(dl_json_val obj, const char *action, const char *key, bool *out, dl_error *err) {
    dl_json_val v = dl_json_obj_get(obj, key);
    if (is_absent(v)) {
        return missing(action, key, err);
    }
    DL_TRY_CTX(dl_json_val_get_bool(v, out, err), err, "%s action: field '%s'", action, key);
    return DL_OK;
}

static dl_status
opt_bool(dl_json_val obj, const char *action, const char *key, bool *out, dl_error *err) {
    dl_json_val v = dl_json_obj_get(obj, key);
    if (is_absent(v)) {
        return DL_OK;
    }
    DL_TRY_CTX(dl_json_val_get_bool(v, out, err), err, "%s action: field '%s'", action, key);
    return DL_OK;
}

/* An object-valued field as raw JSON text (empty view when absent or null). */
static dl_status
opt_object_raw(dl_json_val obj, const char *action, const char *key, dl_str *out, dl_error *err) {
    dl_json_val v = dl_json_obj_get(obj, key);
    *out = dl_str_make(NULL, 0);
    if (is_absent(v)) {
        return DL_OK;
    }
    DL_CHECK(dl_json_val_type(v) == DL_JSON_OBJECT, err, DL_ERR_CORRUPT,
             "%s action: field '%s' is a %s, not an object", action, key,
             dl_json_type_name(dl_json_val_type(v)));
    *out = dl_json_val_raw(v);
    return DL_OK;
}

/* ---- deletion vector descriptors ----------------------------------------------------- */

static dl_status
parse_dv(dl_json_val v, const char *action, dl_delta_dv_desc *out, dl_error *err) {
    DL_CHECK(dl_json_val_type(v) == DL_JSON_OBJECT, err, DL_ERR_CORRUPT,
             "%s action: field 'deletionVector' is a %s, not an object", action,
             dl_json_type_name(dl_json_val_type(v)));
    memset(out, 0, sizeof(*out));
    dl_str storage;
    int64_t size;
    int64_t offset = 0;
    DL_TRY_CTX(req_str(v, "deletionVector", "storageType", &storage, err), err, "%s action",
               action);
    DL_TRY_CTX(req_str(v, "deletionVector", "pathOrInlineDv", &out->path_or_inline_dv, err), err,
               "%s action", action);
    DL_TRY_CTX(req_i64(v, "deletionVector", "sizeInBytes", &size, err), err, "%s action", action);
    DL_TRY_CTX(req_i64(v, "deletionVector", "cardinality", &out->cardinality, err), err,
               "%s action", action);
    DL_TRY_CTX(opt_i64(v, "deletionVector", "offset", &offset, &out->has_offset, err), err,
               "%s action", action);
    DL_TRY_CTX(opt_i64(v, "deletionVector", "maxRowIndex", &out->max_row_index,
                       &out->has_max_row_index, err),
               err, "%s action", action);
    DL_CHECK(storage.len == 1, err, DL_ERR_CORRUPT,
             "%s action: deletionVector: storageType \"%.*s\" is not one character", action,
             DL_STR_FMT(storage));
    DL_CHECK(size >= 0 && size <= INT32_MAX && offset >= 0 && offset <= INT32_MAX, err,
             DL_ERR_CORRUPT,
             "%s action: deletionVector: sizeInBytes %lld or offset %lld out of range", action,
             (long long)size, (long long)offset);
    out->storage_type = storage.ptr[0];
    out->size_in_bytes = (int32_t)size;
    out->offset = (int32_t)offset;
    DL_TRY_CTX(dl_delta_dv_desc_check(out, err), err, "%s action: deletionVector", action);
    return DL_OK;
}

/* ---- file actions -------------------------------------------------------------------- */

/* Fields add, remove and cdc share. */
static dl_status
parse_file_common(dl_json_val v, const char *action, dl_delta_file_action *f, dl_error *err) {
    DL_TRY(req_str(v, action, "path", &f->path, err));
    DL_TRY(opt_object_raw(v, action, "tags", &f->tags, err));
    dl_json_val dv = dl_json_obj_get(v, "deletionVector");
    f->has_dv = !is_absent(dv);
    if (f->has_dv) {
        DL_TRY(parse_dv(dv, action, &f->dv, err));
    }
    DL_TRY(opt_i64(v, action, "baseRowId", &f->base_row_id, &f->has_base_row_id, err));
    DL_TRY(opt_i64(v, action, "defaultRowCommitVersion", &f->default_row_commit_version,
                   &f->has_default_row_commit_version, err));
    dl_json_val stats = dl_json_obj_get(v, "stats");
    if (!is_absent(stats)) {
        DL_CHECK(dl_json_val_type(stats) == DL_JSON_STRING, err, DL_ERR_CORRUPT,
                 "%s action: field 'stats' is a %s, not a string", action,
                 dl_json_type_name(dl_json_val_type(stats)));
        f->stats = stats;
    }
    return DL_OK;
}

static dl_status
parse_add(dl_json_val v, dl_delta_file_action *f, dl_error *err) {
    DL_TRY(parse_file_common(v, "add", f, err));
    DL_TRY(req_i64(v, "add", "size", &f->size, err));
    DL_CHECK(f->size >= 0, err, DL_ERR_CORRUPT, "add action: negative size %lld",
             (long long)f->size);
    DL_TRY(req_i64(v, "add", "modificationTime", &f->modification_time, err));
    DL_TRY(req_bool(v, "add", "dataChange", &f->data_change, err));
    DL_TRY(opt_object_raw(v, "add", "partitionValues", &f->partition_values, err));
    if (f->partition_values.len == 0) {
        return missing("add", "partitionValues", err);
    }
    return opt_str(v, "add", "clusteringProvider", &f->clustering_provider, err);
}

static dl_status
parse_remove(dl_json_val v, dl_delta_file_action *f, dl_error *err) {
    DL_TRY(parse_file_common(v, "remove", f, err));
    DL_TRY(req_bool(v, "remove", "dataChange", &f->data_change, err));
    DL_TRY(opt_i64(v, "remove", "deletionTimestamp", &f->deletion_timestamp,
                   &f->has_deletion_timestamp, err));
    DL_TRY(opt_bool(v, "remove", "extendedFileMetadata", &f->extended_file_metadata, err));
    bool has_size;
    DL_TRY(opt_i64(v, "remove", "size", &f->size, &has_size, err));
    if (!has_size) {
        f->size = -1;
    }
    return opt_object_raw(v, "remove", "partitionValues", &f->partition_values, err);
}

static dl_status
parse_cdc(dl_json_val v, dl_delta_file_action *f, dl_error *err) {
    DL_TRY(parse_file_common(v, "cdc", f, err));
    DL_TRY(req_i64(v, "cdc", "size", &f->size, err));
    DL_TRY(req_bool(v, "cdc", "dataChange", &f->data_change, err));
    DL_TRY(opt_object_raw(v, "cdc", "partitionValues", &f->partition_values, err));
    if (f->partition_values.len == 0) {
        return missing("cdc", "partitionValues", err);
    }
    return DL_OK;
}

/* ---- protocol and metaData (copied into the arena) ----------------------------------- */

static char *
arena_str(dl_arena *arena, dl_str s, dl_error *err) {
    char *p = dl_arena_strndup(arena, s.ptr ? s.ptr : "", s.len);
    if (!p) {
        (void)dl_error_set(err, DL_ERR_NOMEM, "out of memory copying an action");
    }
    return p;
}

/* An array of strings (absent or null: *out_has false) copied into arena. */
static dl_status
str_array(dl_json_val obj, const char *action, const char *key, dl_arena *arena,
          const char *const **out, int32_t *out_n, bool *out_has, dl_error *err) {
    dl_json_val v = dl_json_obj_get(obj, key);
    *out = NULL;
    *out_n = 0;
    *out_has = !is_absent(v);
    if (!*out_has) {
        return DL_OK;
    }
    DL_CHECK(dl_json_val_type(v) == DL_JSON_ARRAY, err, DL_ERR_CORRUPT,
             "%s action: field '%s' is a %s, not an array", action, key,
             dl_json_type_name(dl_json_val_type(v)));
    uint32_t n = dl_json_val_count(v);
    DL_CHECK(n <= INT32_MAX, err, DL_ERR_LIMIT, "%s action: field '%s' is too long", action, key);
    const char **list = dl_arena_alloc_array(arena, n ? n : 1, sizeof(char *));
    DL_CHECK(list, err, DL_ERR_NOMEM, "out of memory copying an action");
    dl_json_iter it = dl_json_val_iter(v);
    dl_json_val item;
    uint32_t i = 0;
    while (dl_json_iter_next(&it, NULL, &item)) {
        dl_str s;
        DL_TRY_CTX(dl_json_val_get_str(item, &s, err), err, "%s action: field '%s' item %u", action,
                   key, (unsigned)i);
        list[i] = arena_str(arena, s, err);
        if (!list[i]) {
            return DL_ERR_NOMEM;
        }
        i++;
    }
    *out = list;
    *out_n = (int32_t)i;
    return DL_OK;
}

/* A map<string,string> (values may be null) copied into arena. */
static dl_status
str_map(dl_json_val v, const char *action, const char *key, dl_arena *arena,
        const dl_delta_kv **out, int32_t *out_n, dl_error *err) {
    DL_CHECK(dl_json_val_type(v) == DL_JSON_OBJECT, err, DL_ERR_CORRUPT,
             "%s action: field '%s' is a %s, not an object", action, key,
             dl_json_type_name(dl_json_val_type(v)));
    uint32_t n = dl_json_val_count(v);
    dl_delta_kv *kv = dl_arena_alloc_array(arena, n ? n : 1, sizeof(dl_delta_kv));
    DL_CHECK(kv, err, DL_ERR_NOMEM, "out of memory copying an action");
    dl_json_iter it = dl_json_val_iter(v);
    dl_json_val item;
    dl_str k;
    uint32_t i = 0;
    while (dl_json_iter_next(&it, &k, &item)) {
        kv[i].key = arena_str(arena, k, err);
        if (!kv[i].key) {
            return DL_ERR_NOMEM;
        }
        kv[i].value = NULL;
        if (!dl_json_val_is_null(item)) {
            dl_str s;
            DL_TRY_CTX(dl_json_val_get_str(item, &s, err), err, "%s action: field '%s' key '%s'",
                       action, key, kv[i].key);
            kv[i].value = arena_str(arena, s, err);
            if (!kv[i].value) {
                return DL_ERR_NOMEM;
            }
        }
        i++;
    }
    *out = kv;
    *out_n = (int32_t)i;
    return DL_OK;
}

static dl_status
parse_protocol(dl_json_val v, dl_arena *arena, dl_delta_protocol *p, dl_error *err) {
    int64_t rv;
    int64_t wv;
    DL_TRY(req_i64(v, "protocol", "minReaderVersion", &rv, err));
    DL_TRY(req_i64(v, "protocol", "minWriterVersion", &wv, err));
    DL_CHECK(rv >= INT32_MIN && rv <= INT32_MAX && wv >= INT32_MIN && wv <= INT32_MAX, err,
             DL_ERR_CORRUPT, "protocol action: versions %lld/%lld out of range", (long long)rv,
             (long long)wv);
    p->min_reader_version = (int32_t)rv;
    p->min_writer_version = (int32_t)wv;
    DL_TRY(str_array(v, "protocol", "readerFeatures", arena, &p->reader_features,
                     &p->n_reader_features, &p->has_reader_features, err));
    return str_array(v, "protocol", "writerFeatures", arena, &p->writer_features,
                     &p->n_writer_features, &p->has_writer_features, err);
}

static dl_status
opt_arena_str(dl_json_val v, const char *key, dl_arena *arena, const char **out, dl_error *err) {
    dl_str s;
    *out = NULL;
    DL_TRY(opt_str(v, "metaData", key, &s, err));
    if (s.ptr) {
        *out = arena_str(arena, s, err);
        DL_CHECK(*out, err, DL_ERR_NOMEM, "out of memory copying an action");
    }
    return DL_OK;
}

static dl_status
parse_metadata(dl_json_val v, dl_arena *arena, dl_delta_metadata *md, dl_error *err) {
    dl_str id;
    DL_TRY(req_str(v, "metaData", "id", &id, err));
    md->id = arena_str(arena, id, err);
    DL_CHECK(md->id, err, DL_ERR_NOMEM, "out of memory copying an action");
    DL_TRY(opt_arena_str(v, "name", arena, &md->name, err));
    DL_TRY(opt_arena_str(v, "description", arena, &md->description, err));
    DL_TRY(opt_arena_str(v, "schemaString", arena, &md->schema_string, err));
    dl_json_val format = dl_json_obj_get(v, "format");
    if (is_absent(format)) {
        return missing("metaData", "format", err);
    }
    DL_CHECK(dl_json_val_type(format) == DL_JSON_OBJECT, err, DL_ERR_CORRUPT,
             "metaData action: field 'format' is a %s, not an object",
             dl_json_type_name(dl_json_val_type(format)));
    dl_str provider;
    DL_TRY(opt_str(format, "metaData", "format.provider", &provider, err));
    md->format_provider = arena_str(arena, provider.ptr ? provider : DL_STR("parquet"), err);
    DL_CHECK(md->format_provider, err, DL_ERR_NOMEM, "out of memory copying an action");
    dl_json_val options = dl_json_obj_get(format, "options");
    if (!is_absent(options)) {
        DL_TRY(str_map(options, "metaData", "format.options", arena, &md->format_options,
                       &md->n_format_options, err));
    }
    bool has_cols;
    DL_TRY(str_array(v, "metaData", "partitionColumns", arena, &md->partition_columns,
                     &md->n_partition_columns, &has_cols, err));
    if (!has_cols) {
        return missing("metaData", "partitionColumns", err);
    }
    DL_TRY(opt_i64(v, "metaData", "createdTime", &md->created_time, &md->has_created_time, err));
    dl_json_val conf = dl_json_obj_get(v, "configuration");
    if (is_absent(conf)) {
        return missing("metaData", "configuration", err);
    }
    return str_map(conf, "metaData", "configuration", arena, &md->configuration,
                   &md->n_configuration, err);
}

/* ---- the other actions --------------------------------------------------------------- */

static dl_status
parse_txn(dl_json_val v, dl_delta_txn *t, dl_error *err) {
    DL_TRY(req_str(v, "txn", "appId", &t->app_id, err));
    DL_TRY(req_i64(v, "txn", "version", &t->version, err));
    return opt_i64(v, "txn", "lastUpdated", &t->last_updated, &t->has_last_updated, err);
}

static dl_status
parse_domain(dl_json_val v, dl_delta_domain *d, dl_error *err) {
    DL_TRY(req_str(v, "domainMetadata", "domain", &d->domain, err));
    DL_TRY(req_str(v, "domainMetadata", "configuration", &d->configuration, err));
    return req_bool(v, "domainMetadata", "removed", &d->is_removed, err);
}

static dl_status
parse_commit_info(dl_json_val v, dl_delta_commit_info *ci, dl_error *err) {
    ci->body = v;
    DL_TRY(opt_i64(v, "commitInfo", "timestamp", &ci->timestamp, &ci->has_timestamp, err));
    DL_TRY(opt_i64(v, "commitInfo", "inCommitTimestamp", &ci->in_commit_timestamp,
                   &ci->has_in_commit_timestamp, err));
    dl_json_val op = dl_json_obj_get(v, "operation");
    if (dl_json_val_type(op) == DL_JSON_STRING) {
        ci->operation = dl_json_val_str(op);
    }
    return DL_OK;
}

static dl_status
parse_checkpoint_metadata(dl_json_val v, dl_delta_checkpoint_metadata *cm, dl_error *err) {
    DL_TRY(req_i64(v, "checkpointMetadata", "version", &cm->version, err));
    return opt_object_raw(v, "checkpointMetadata", "tags", &cm->tags, err);
}

static dl_status
parse_sidecar(dl_json_val v, dl_delta_sidecar *sc, dl_error *err) {
    DL_TRY(req_str(v, "sidecar", "path", &sc->path, err));
    DL_TRY(req_i64(v, "sidecar", "sizeInBytes", &sc->size_in_bytes, err));
    return req_i64(v, "sidecar", "modificationTime", &sc->modification_time, err);
}

typedef struct action_name {
    const char *name;
    dl_delta_action_kind kind;
} action_name;

static const action_name action_names[] = {
    {"add", DL_DELTA_ACTION_ADD},
    {"remove", DL_DELTA_ACTION_REMOVE},
    {"commitInfo", DL_DELTA_ACTION_COMMIT_INFO},
    {"metaData", DL_DELTA_ACTION_METADATA},
    {"protocol", DL_DELTA_ACTION_PROTOCOL},
    {"txn", DL_DELTA_ACTION_TXN},
    {"domainMetadata", DL_DELTA_ACTION_DOMAIN_METADATA},
    {"cdc", DL_DELTA_ACTION_CDC},
    {"checkpointMetadata", DL_DELTA_ACTION_CHECKPOINT_METADATA},
    {"sidecar", DL_DELTA_ACTION_SIDECAR},
};

static dl_delta_action_kind
kind_of(dl_str name) {
    for (size_t i = 0; i < DL_ARRAY_LEN(action_names); i++) {
        if (dl_str_eq_cstr(name, action_names[i].name)) {
            return action_names[i].kind;
        }
    }
    return DL_DELTA_ACTION_UNKNOWN;
}

static dl_status
parse_body(dl_delta_action *out, dl_json_val body, dl_arena *arena, dl_error *err) {
    switch (out->kind) {
    case DL_DELTA_ACTION_ADD:
        return parse_add(body, &out->file, err);
    case DL_DELTA_ACTION_REMOVE:
        return parse_remove(body, &out->file, err);
    case DL_DELTA_ACTION_CDC:
        return parse_cdc(body, &out->file, err);
    case DL_DELTA_ACTION_METADATA:
        return parse_metadata(body, arena, &out->metadata, err);
    case DL_DELTA_ACTION_PROTOCOL:
        return parse_protocol(body, arena, &out->protocol, err);
    case DL_DELTA_ACTION_TXN:
        return parse_txn(body, &out->txn, err);
    case DL_DELTA_ACTION_DOMAIN_METADATA:
        return parse_domain(body, &out->domain, err);
    case DL_DELTA_ACTION_COMMIT_INFO:
        return parse_commit_info(body, &out->commit_info, err);
    case DL_DELTA_ACTION_CHECKPOINT_METADATA:
        return parse_checkpoint_metadata(body, &out->checkpoint, err);
    case DL_DELTA_ACTION_SIDECAR:
        return parse_sidecar(body, &out->sidecar, err);
    default:
        return DL_OK;
    }
}

dl_status
dl_delta_action_parse(dl_str name, dl_json_val body, dl_arena *arena, dl_delta_action *out,
                      dl_error *err) {
    memset(out, 0, sizeof(*out));
    out->name = name;
    out->body = body;
    out->kind = kind_of(name);
    if (out->kind == DL_DELTA_ACTION_UNKNOWN || is_absent(body)) {
        out->kind = DL_DELTA_ACTION_UNKNOWN;
        return DL_OK;
    }
    DL_CHECK(dl_json_val_type(body) == DL_JSON_OBJECT, err, DL_ERR_CORRUPT,
             "%.*s action is a %s, not an object", DL_STR_FMT(name),
             dl_json_type_name(dl_json_val_type(body)));
    return parse_body(out, body, arena, err);
}

/* ---- lines --------------------------------------------------------------------------- */

static bool
is_blank(dl_str line) {
    for (size_t i = 0; i < line.len; i++) {
        char c = line.ptr[i];
        if (c != ' ' && c != '\t' && c != '\r') {
            return false;
        }
    }
    return true;
}

/* Parses one line and visits its actions. */
static dl_status
visit_line(dl_str line, dl_json_doc *doc, dl_arena *arena, dl_delta_action_visit_fn visit,
           void *ctx, int64_t line_no, dl_error *err) {
    DL_TRY(dl_json_doc_parse(doc, line.ptr, line.len, err));
    dl_json_val root = dl_json_doc_root(doc);
    DL_CHECK(dl_json_val_type(root) == DL_JSON_OBJECT, err, DL_ERR_CORRUPT,
             "an action line must be a JSON object, found a %s",
             dl_json_type_name(dl_json_val_type(root)));
    dl_json_iter it = dl_json_val_iter(root);
    dl_str key;
    dl_json_val body;
    while (dl_json_iter_next(&it, &key, &body)) {
        dl_delta_action action;
        DL_TRY(dl_delta_action_parse(key, body, arena, &action, err));
        if (action.kind != DL_DELTA_ACTION_UNKNOWN) {
            DL_TRY(visit(ctx, &action, line_no, err));
        }
    }
    return DL_OK;
}

dl_status
dl_delta_actions_parse_text(const char *text, size_t len, dl_json_doc *doc, dl_arena *arena,
                            dl_delta_action_visit_fn visit, void *ctx, dl_error *err) {
    dl_json_lines lines;
    dl_json_lines_init(&lines, text, len);
    dl_str line;
    bool has_action = false;
    while (dl_json_lines_next(&lines, &line)) {
        if (is_blank(line)) {
            continue;
        }
        has_action = true;
        dl_status st = visit_line(line, doc, arena, visit, ctx, lines.line_no, err);
        if (st != DL_OK) {
            int64_t at = (int64_t)lines.offset;
            if (err && err->offset >= 0 && err->code != DL_ERR_NOMEM) {
                at += err->offset;
            }
            if (err) {
                err->offset = at;
            }
            dl_error_prefix(err, "line %lld, byte %lld", (long long)lines.line_no, (long long)at);
            return st;
        }
    }
    if (!has_action) {
        dl_status st = dl_error_set(
            err, DL_ERR_CORRUPT,
            "the file holds no actions (%zu bytes, all blank): a commit holds at least one", len);
        if (err) {
            err->offset = 0;
        }
        return st;
    }
    return DL_OK;
}

/* ---- paths --------------------------------------------------------------------------- */

static int
hex_digit(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/* Strips a local file-system scheme: file:/a, file:///a, file://localhost/a -> /a. */
static dl_str
strip_file_scheme(dl_str p) {
    if (!dl_str_starts_with(p, DL_STR("file:"))) {
        return p;
    }
    dl_str rest = dl_str_slice(p, 5, p.len - 5);
    if (dl_str_starts_with(rest, DL_STR("///"))) {
        return dl_str_slice(rest, 2, rest.len - 2);
    }
    if (dl_str_starts_with(rest, DL_STR("//localhost/"))) {
        return dl_str_slice(rest, 11, rest.len - 11);
    }
    if (dl_str_starts_with(rest, DL_STR("/")) && !dl_str_starts_with(rest, DL_STR("//"))) {
        return rest;
    }
    return p;
}

/* True when p starts with a URI scheme ("s3:", "abfss:"): letters, digits, + - . then ':'. */
static bool
has_scheme(dl_str p) {
    for (size_t i = 0; i < p.len; i++) {
        char c = p.ptr[i];
        bool is_alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (c == ':') {
            return i > 0;
        }
        if (!is_alpha &&
            (i == 0 || !((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'))) {
            return false;
        }
    }
    return false;
}

/* Decodes the %XX escape at p[i] into *out; false when it is not one. */
static bool
decode_escape(dl_str p, size_t i, char *out) {
    int hi = i + 2 < p.len ? hex_digit(p.ptr[i + 1]) : -1;
    int lo = hi >= 0 ? hex_digit(p.ptr[i + 2]) : -1;
    if (hi < 0 || lo < 0) {
        return false;
    }
    *out = (char)(hi * 16 + lo);
    return true;
}

dl_status
dl_delta_path_decode(dl_str path, dl_buf *out, bool *out_is_absolute, dl_error *err) {
    dl_buf_reset(out);
    dl_str p = strip_file_scheme(path);
    DL_CHECK(p.len > 0, err, DL_ERR_CORRUPT, "file path is empty");
    DL_TRY(dl_buf_reserve(out, p.len, err));
    *out_is_absolute = p.ptr[0] == '/' || has_scheme(p);
    if (!memchr(p.ptr, '%', p.len)) {
        /* Most paths have nothing to decode: one copy, one check for NUL. */
        DL_CHECK(!memchr(p.ptr, '\0', p.len), err, DL_ERR_CORRUPT,
                 "file path \"%.*s\" contains a NUL byte", DL_STR_FMT(path));
        dl_buf_append_unchecked(out, p.ptr, p.len);
        return DL_OK;
    }
    for (size_t i = 0; i < p.len; i++) {
        char c = p.ptr[i];
        bool is_escape = c == '%';
        if (is_escape && !decode_escape(p, i, &c)) {
            DL_FAIL(err, DL_ERR_CORRUPT,
                    "file path \"%.*s\": malformed escape at byte %zu (expected %%XX)",
                    DL_STR_FMT(path), i);
        }
        i += is_escape ? 2 : 0;
        DL_CHECK(c != '\0', err, DL_ERR_CORRUPT, "file path \"%.*s\" contains a NUL byte",
                 DL_STR_FMT(path));
        dl_buf_append_unchecked(out, &c, 1);
    }
    return DL_OK;
}
