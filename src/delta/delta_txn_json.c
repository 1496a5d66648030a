/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The JSON lines of a commit file ("Actions"), written as Spark writes them: one compact
 * object per line keyed by the action name, fields in the order of Spark's case classes
 * (actions.scala), absent optional fields omitted rather than written as null:
 *
 *   commitInfo   inCommitTimestamp?, timestamp, userName?, operation, operationParameters,
 *                readVersion?, isolationLevel, isBlindAppend, operationMetrics, userMetadata?,
 *                engineInfo, txnId
 *   protocol     minReaderVersion, minWriterVersion, readerFeatures?, writerFeatures?
 *   metaData     id, name?, description?, format{provider, options}, schemaString,
 *                partitionColumns, configuration, createdTime?
 *   txn          appId, version, lastUpdated?
 *   domainMetadata  domain, configuration, removed
 *   add          path, partitionValues, size, modificationTime, dataChange, stats?, tags?,
 *                deletionVector?, baseRowId?, defaultRowCommitVersion?, clusteringProvider?
 *   remove       path, deletionTimestamp, dataChange, extendedFileMetadata?, partitionValues?,
 *                size?, tags?, deletionVector?, baseRowId?, defaultRowCommitVersion?, stats?
 *   cdc          path, partitionValues, size, tags?, dataChange (false)
 *   deletionVector  storageType, pathOrInlineDv, offset?, sizeInBytes, cardinality
 *
 * operationParameters values are raw JSON (Spark's JsonMapSerializer), operationMetrics values
 * strings. Paths are URI-encoded (RFC 2396) as Spark's Path.toUri encodes them; stats is a JSON
 * string holding the stats object's text.
 */
#include <stdlib.h>
#include <string.h>

#include "delta/delta_txn_int.h"
#include "json/json.h"

#ifndef DL_VERSION_STRING
#    define DL_VERSION_STRING "0.0.0"
#endif

#define ENGINE_INFO "deltalite/" DL_VERSION_STRING

/* ---- paths ------------------------------------------------------------------------------ */

static bool
needs_escape(unsigned char c, bool is_absolute) {
    if (c < 0x20 || c == 0x7F) {
        return true;
    }
    if (c == ':') {
        return !is_absolute; /* a relative path must not look like "scheme:" */
    }
    return c != '\0' && strchr(" %\"#<>?[\\]^`{|}", (int)c) != NULL;
}

/* A URI scheme ("s3:", "file:") or an absolute path. */
static bool
is_absolute_uri(const char *path) {
    if (path[0] == '/') {
        return true;
    }
    size_t i = 0;
    if (!((path[0] >= 'a' && path[0] <= 'z') || (path[0] >= 'A' && path[0] <= 'Z'))) {
        return false;
    }
    while (path[i] != '\0' && path[i] != '/' && path[i] != ':') {
        char c = path[i];
        bool is_scheme_char = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                              (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
        if (!is_scheme_char) {
            return false;
        }
        i++;
    }
    return path[i] == ':' && i > 1; /* "c:" would be a drive letter, not a scheme */
}

dl_status
dl_delta_path_encode(const char *path, dl_buf *out, dl_error *err) {
    bool is_absolute = is_absolute_uri(path);
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (needs_escape(*p, is_absolute)) {
            char esc[3] = {'%', hex[*p >> 4], hex[*p & 15]};
            DL_TRY(dl_buf_append(out, esc, 3, err));
        } else {
            DL_TRY(dl_buf_append_byte(out, *p, err));
        }
    }
    return DL_OK;
}

/* ---- small writer helpers --------------------------------------------------------------- */

static dl_status
kstr(dl_json_writer *w, const char *key, const char *v, dl_error *err) {
    DL_TRY(dl_json_writer_key_cstr(w, key, err));
    return v != NULL ? dl_json_writer_string_cstr(w, v, err) : dl_json_writer_null(w, err);
}

static dl_status
kint(dl_json_writer *w, const char *key, int64_t v, dl_error *err) {
    DL_TRY(dl_json_writer_key_cstr(w, key, err));
    return dl_json_writer_int64(w, v, err);
}

static dl_status
kbool(dl_json_writer *w, const char *key, bool v, dl_error *err) {
    DL_TRY(dl_json_writer_key_cstr(w, key, err));
    return dl_json_writer_bool(w, v, err);
}

static dl_status
kraw(dl_json_writer *w, const char *key, const char *json, dl_error *err) {
    DL_TRY(dl_json_writer_key_cstr(w, key, err));
    return dl_json_writer_raw(w, dl_str_from_cstr(json), err);
}

static dl_status
kpath(dl_json_writer *w, const char *path, dl_buf *scratch, dl_error *err) {
    dl_buf_reset(scratch);
    DL_TRY(dl_delta_path_encode(path, scratch, err));
    DL_TRY(dl_json_writer_key_cstr(w, "path", err));
    return dl_json_writer_string(w, dl_buf_view(scratch), err);
}

static dl_status
write_kv_object(dl_json_writer *w, const dl_delta_kv *kv, int32_t n, dl_error *err) {
    DL_TRY(dl_json_writer_begin_object(w, err));
    for (int32_t i = 0; i < n; i++) {
        DL_TRY(kstr(w, kv[i].key, kv[i].value, err));
    }
    return dl_json_writer_end_object(w, err);
}

static dl_status
write_str_array(dl_json_writer *w, const char *const *items, int32_t n, dl_error *err) {
    DL_TRY(dl_json_writer_begin_array(w, err));
    for (int32_t i = 0; i < n; i++) {
        DL_TRY(dl_json_writer_string_cstr(w, items[i], err));
    }
    return dl_json_writer_end_array(w, err);
}

static dl_status
write_dv(dl_json_writer *w, const dl_delta_dv_desc *dv, dl_error *err) {
    char type[2] = {dv->storage_type, '\0'};
    DL_TRY(dl_json_writer_key_cstr(w, "deletionVector", err));
    DL_TRY(dl_json_writer_begin_object(w, err));
    DL_TRY(kstr(w, "storageType", type, err));
    DL_TRY(dl_json_writer_key_cstr(w, "pathOrInlineDv", err));
    DL_TRY(dl_json_writer_string(w, dv->path_or_inline_dv, err));
    if (dv->has_offset) {
        DL_TRY(kint(w, "offset", dv->offset, err));
    }
    DL_TRY(kint(w, "sizeInBytes", dv->size_in_bytes, err));
    DL_TRY(kint(w, "cardinality", dv->cardinality, err));
    return dl_json_writer_end_object(w, err);
}

/* A line is {"<name>":{...}}\n: begin writes up to the inner '{', end closes both. */
static dl_status
begin_line(dl_json_writer *w, dl_buf *out, const char *name, dl_error *err) {
    dl_json_writer_init(w, out, 0);
    DL_TRY(dl_json_writer_begin_object(w, err));
    DL_TRY(dl_json_writer_key_cstr(w, name, err));
    return dl_json_writer_begin_object(w, err);
}

static dl_status
end_line(dl_json_writer *w, dl_buf *out, dl_error *err) {
    DL_TRY(dl_json_writer_end_object(w, err));
    DL_TRY(dl_json_writer_end_object(w, err));
    DL_TRY(dl_json_writer_finish(w, err));
    return dl_buf_append_byte(out, '\n', err);
}

/* Runs one line builder and releases the writer whatever happens. */
#define LINE(out, name, body)                               \
    do {                                                    \
        dl_json_writer w_;                                  \
        dl_status s_ = begin_line(&w_, (out), (name), err); \
        if (s_ == DL_OK) {                                  \
            s_ = (body);                                    \
        }                                                   \
        if (s_ == DL_OK) {                                  \
            s_ = end_line(&w_, (out), err);                 \
        }                                                   \
        dl_json_writer_destroy(&w_);                        \
        return s_;                                          \
    } while (0)

/* ---- file actions ---------------------------------------------------------------------- */

static dl_status
row_tracking(dl_json_writer *w, const dl_delta_tx_file *f, dl_error *err) {
    if (f->has_base_row_id) {
        DL_TRY(kint(w, "baseRowId", f->base_row_id, err));
    }
    if (f->has_drcv) {
        DL_TRY(kint(w, "defaultRowCommitVersion", f->drcv, err));
    }
    return DL_OK;
}

static dl_status
add_body(dl_json_writer *w, const dl_delta_tx_file *f, dl_error *err) {
    dl_buf scratch;
    dl_buf_init(&scratch, w->out->alloc);
    dl_status s = kpath(w, f->path, &scratch, err);
    dl_buf_destroy(&scratch);
    DL_TRY(s);
    DL_TRY(kraw(w, "partitionValues", f->pv_json != NULL ? f->pv_json : "{}", err));
    DL_TRY(kint(w, "size", f->size, err));
    DL_TRY(kint(w, "modificationTime", f->time, err));
    DL_TRY(kbool(w, "dataChange", f->data_change, err));
    if (f->stats != NULL) {
        DL_TRY(kstr(w, "stats", f->stats, err));
    }
    if (f->tags_json != NULL) {
        DL_TRY(kraw(w, "tags", f->tags_json, err));
    }
    if (f->has_dv) {
        DL_TRY(write_dv(w, &f->dv, err));
    }
    DL_TRY(row_tracking(w, f, err));
    if (f->clustering_provider != NULL) {
        DL_TRY(kstr(w, "clusteringProvider", f->clustering_provider, err));
    }
    return DL_OK;
}

dl_status
dl_delta_json_add_line(dl_buf *out, const dl_delta_tx_file *f, dl_error *err) {
    LINE(out, "add", add_body(&w_, f, err));
}

static dl_status
remove_body(dl_json_writer *w, const dl_delta_tx_file *f, int64_t default_ts, dl_error *err) {
    dl_buf scratch;
    dl_buf_init(&scratch, w->out->alloc);
    dl_status s = kpath(w, f->path, &scratch, err);
    dl_buf_destroy(&scratch);
    DL_TRY(s);
    DL_TRY(kint(w, "deletionTimestamp", f->has_time ? f->time : default_ts, err));
    DL_TRY(kbool(w, "dataChange", f->data_change, err));
    if (f->is_extended) {
        DL_TRY(kbool(w, "extendedFileMetadata", true, err));
    }
    if (f->pv_json != NULL) {
        DL_TRY(kraw(w, "partitionValues", f->pv_json, err));
    }
    if (f->size >= 0) {
        DL_TRY(kint(w, "size", f->size, err));
    }
    if (f->tags_json != NULL) {
        DL_TRY(kraw(w, "tags", f->tags_json, err));
    }
    if (f->has_dv) {
        DL_TRY(write_dv(w, &f->dv, err));
    }
    DL_TRY(row_tracking(w, f, err));
    if (f->stats != NULL) {
        DL_TRY(kstr(w, "stats", f->stats, err));
    }
    return DL_OK;
}

dl_status
dl_delta_json_remove_line(dl_buf *out, const dl_delta_tx_file *f, int64_t default_deletion_ts,
                          dl_error *err) {
    LINE(out, "remove", remove_body(&w_, f, default_deletion_ts, err));
}

static dl_status
cdc_body(dl_json_writer *w, const dl_delta_tx_file *f, dl_error *err) {
    dl_buf scratch;
    dl_buf_init(&scratch, w->out->alloc);
    dl_status s = kpath(w, f->path, &scratch, err);
    dl_buf_destroy(&scratch);
    DL_TRY(s);
    DL_TRY(kraw(w, "partitionValues", f->pv_json != NULL ? f->pv_json : "{}", err));
    DL_TRY(kint(w, "size", f->size, err));
    if (f->tags_json != NULL) {
        DL_TRY(kraw(w, "tags", f->tags_json, err));
    }
    return kbool(w, "dataChange", false, err);
}

dl_status
dl_delta_json_cdc_line(dl_buf *out, const dl_delta_tx_file *f, dl_error *err) {
    LINE(out, "cdc", cdc_body(&w_, f, err));
}

/* ---- table-level actions ---------------------------------------------------------------- */

static dl_status
metadata_body(dl_json_writer *w, const dl_delta_metadata *md, dl_error *err) {
    DL_TRY(kstr(w, "id", md->id, err));
    if (md->name != NULL) {
        DL_TRY(kstr(w, "name", md->name, err));
    }
    if (md->description != NULL) {
        DL_TRY(kstr(w, "description", md->description, err));
    }
    DL_TRY(dl_json_writer_key_cstr(w, "format", err));
    DL_TRY(dl_json_writer_begin_object(w, err));
    DL_TRY(kstr(w, "provider", md->format_provider, err));
    DL_TRY(dl_json_writer_key_cstr(w, "options", err));
    DL_TRY(write_kv_object(w, md->format_options, md->n_format_options, err));
    DL_TRY(dl_json_writer_end_object(w, err));
    DL_TRY(kstr(w, "schemaString", md->schema_string, err));
    DL_TRY(dl_json_writer_key_cstr(w, "partitionColumns", err));
    DL_TRY(write_str_array(w, md->partition_columns, md->n_partition_columns, err));
    DL_TRY(dl_json_writer_key_cstr(w, "configuration", err));
    DL_TRY(write_kv_object(w, md->configuration, md->n_configuration, err));
    if (md->has_created_time) {
        DL_TRY(kint(w, "createdTime", md->created_time, err));
    }
    return DL_OK;
}

dl_status
dl_delta_json_metadata_line(dl_buf *out, const dl_delta_metadata *md, dl_error *err) {
    LINE(out, "metaData", metadata_body(&w_, md, err));
}

static dl_status
protocol_body(dl_json_writer *w, const dl_delta_protocol *p, dl_error *err) {
    DL_TRY(kint(w, "minReaderVersion", p->min_reader_version, err));
    DL_TRY(kint(w, "minWriterVersion", p->min_writer_version, err));
    if (p->has_reader_features) {
        DL_TRY(dl_json_writer_key_cstr(w, "readerFeatures", err));
        DL_TRY(write_str_array(w, p->reader_features, p->n_reader_features, err));
    }
    if (p->has_writer_features) {
        DL_TRY(dl_json_writer_key_cstr(w, "writerFeatures", err));
        DL_TRY(write_str_array(w, p->writer_features, p->n_writer_features, err));
    }
    return DL_OK;
}

dl_status
dl_delta_json_protocol_line(dl_buf *out, const dl_delta_protocol *p, dl_error *err) {
    LINE(out, "protocol", protocol_body(&w_, p, err));
}

static dl_status
txn_body(dl_json_writer *w, const dl_delta_tx_app *app, int64_t last_updated, dl_error *err) {
    DL_TRY(kstr(w, "appId", app->app_id, err));
    DL_TRY(kint(w, "version", app->version, err));
    return kint(w, "lastUpdated", last_updated, err);
}

dl_status
dl_delta_json_txn_line(dl_buf *out, const dl_delta_tx_app *app, int64_t last_updated,
                       dl_error *err) {
    LINE(out, "txn", txn_body(&w_, app, last_updated, err));
}

static dl_status
domain_body(dl_json_writer *w, const dl_delta_tx_domain *d, dl_error *err) {
    DL_TRY(kstr(w, "domain", d->domain, err));
    DL_TRY(kstr(w, "configuration", d->configuration, err));
    return kbool(w, "removed", d->is_removed, err);
}

dl_status
dl_delta_json_domain_line(dl_buf *out, const dl_delta_tx_domain *d, dl_error *err) {
    LINE(out, "domainMetadata", domain_body(&w_, d, err));
}

/* ---- commitInfo ------------------------------------------------------------------------- */

static const char *
user_name(const dl_delta_tx *tx) {
    const char *name = tx->opts.user_name;
    if (name == NULL) {
        name = getenv("USER"); /* NOLINT(concurrency-mt-unsafe): read-only use */
    }
    if (name == NULL) {
        name = getenv("LOGNAME"); /* NOLINT(concurrency-mt-unsafe) */
    }
    if (name == NULL || name[0] == '\0' || !dl_utf8_valid(name, strlen(name))) {
        return NULL;
    }
    return name;
}

static dl_status
commit_info_maps(dl_json_writer *w, const dl_delta_tx *tx, dl_error *err) {
    DL_TRY(dl_json_writer_key_cstr(w, "operationParameters", err));
    DL_TRY(dl_json_writer_begin_object(w, err));
    const dl_delta_kv *params = tx->params.items;
    for (size_t i = 0; i < tx->params.n; i++) {
        DL_TRY(kraw(w, params[i].key, params[i].value, err));
    }
    return dl_json_writer_end_object(w, err);
}

static dl_status
commit_info_body(dl_json_writer *w, const dl_delta_tx *tx, const dl_delta_tx_plan *plan,
                 int64_t ict, dl_error *err) {
    if (ict >= 0) {
        DL_TRY(kint(w, "inCommitTimestamp", ict, err));
    }
    DL_TRY(kint(w, "timestamp", plan->first_attempt_ms, err));
    const char *user = user_name(tx);
    if (user != NULL) {
        DL_TRY(kstr(w, "userName", user, err));
    }
    DL_TRY(kstr(w, "operation", tx->op_name, err));
    DL_TRY(commit_info_maps(w, tx, err));
    if (tx->read_version >= 0) {
        DL_TRY(kint(w, "readVersion", tx->read_version, err));
    }
    DL_TRY(kstr(w, "isolationLevel", dl_delta_isolation_name(plan->isolation), err));
    DL_TRY(kbool(w, "isBlindAppend", plan->is_blind_append, err));
    DL_TRY(dl_json_writer_key_cstr(w, "operationMetrics", err));
    DL_TRY(write_kv_object(w, tx->metrics.items, (int32_t)tx->metrics.n, err));
    if (tx->user_metadata != NULL) {
        DL_TRY(kstr(w, "userMetadata", tx->user_metadata, err));
    }
    DL_TRY(kstr(w, "engineInfo", ENGINE_INFO, err));
    return kstr(w, "txnId", tx->txn_id, err);
}

dl_status
dl_delta_json_commit_info_line(dl_buf *out, const dl_delta_tx *tx, const dl_delta_tx_plan *plan,
                               int64_t ict, dl_error *err) {
    LINE(out, "commitInfo", commit_info_body(&w_, tx, plan, ict, err));
}

/* ---- maps ------------------------------------------------------------------------------- */

dl_status
dl_delta_kv_to_json(const dl_delta_kv *kv, int32_t n, dl_arena *arena, const char **out,
                    dl_error *err) {
    dl_buf buf;
    dl_buf_init(&buf, arena->alloc);
    dl_json_writer w;
    dl_json_writer_init(&w, &buf, 0);
    dl_status s = write_kv_object(&w, kv, n, err);
    dl_json_writer_destroy(&w);
    if (s == DL_OK) {
        *out = dl_arena_strndup(arena, (const char *)buf.data, buf.len);
        if (*out == NULL) {
            s = dl_error_set(err, DL_ERR_NOMEM, "out of memory staging a transaction");
        }
    }
    dl_buf_destroy(&buf);
    return s;
}
