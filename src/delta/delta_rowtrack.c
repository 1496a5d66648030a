/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Row tracking on the write side (PROTOCOL.md "Row Tracking", "Writer Requirements for Row
 * Tracking"; Spark's RowId.scala and DefaultRowCommitVersion.scala).
 *
 * When the table's protocol (after the commit) lists the rowTracking writer feature and
 * delta.rowTrackingSuspended is not true, every add that does not carry a baseRowId gets one
 * and every add without defaultRowCommitVersion gets the commit's version:
 *
 *   baseRowId = high water mark + 1;  high water mark += numRecords of the file
 *
 * in staging order, starting from the rowIdHighWaterMark of the `delta.rowTracking` domain
 * (-1 when the table has none). An add that keeps its baseRowId (a file re-added with a new
 * deletion vector, RESTORE, the backfill) keeps its ids, and the mark is raised past them if
 * needed so that no later file reuses one. When the mark moved, the commit carries, after its
 * file actions as Spark writes it, domainMetadata {"domain":"delta.rowTracking",
 * "configuration":"{\"rowIdHighWaterMark\":N,\"domainName\":\"delta.rowTracking\"}"}.
 *
 * Ids and versions depend on the attempt: when another writer won the version, its mark (the
 * winner's own delta.rowTracking domain) is taken and the fresh adds are numbered again from
 * it at the next version, as Spark's conflict checker reassigns them. The domain is therefore
 * never a conflict between two writers that both assign row ids.
 */
#include <stdio.h>
#include <string.h>

#include "delta/delta_txn_int.h"
#include "json/json.h"

bool
dl_delta_rt_is_assigning(const dl_delta_protocol *p, const dl_delta_metadata *md) {
    return p != NULL && dl_delta_protocol_has_feature(p, DL_DELTA_FEATURE_ROW_TRACKING) &&
           !dl_delta_metadata_config_bool(md, DL_DELTA_RT_SUSPENDED_KEY, false);
}

dl_status
dl_delta_rt_hwm_parse(dl_str config, int64_t *out, dl_error *err) {
    *out = -1;
    if (config.len == 0) {
        return DL_OK;
    }
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_status s = dl_json_doc_parse(&doc, config.ptr, config.len, err);
    if (s == DL_OK) {
        dl_json_val v = dl_json_obj_get(dl_json_doc_root(&doc), "rowIdHighWaterMark");
        s = dl_json_val_get_int64(v, out, err);
    }
    dl_json_doc_destroy(&doc);
    if (s != DL_OK) {
        dl_error_prefix(err,
                        "domainMetadata %s: configuration '%.*s' has no integer "
                        "rowIdHighWaterMark",
                        DL_DELTA_RT_DOMAIN, (int)DL_MIN(config.len, 200), config.ptr);
        return DL_ERR_CORRUPT;
    }
    return DL_OK;
}

/* numRecords of a staged add's stats. */
static dl_status
add_rows(const dl_delta_tx_file *f, dl_json_doc *doc, int64_t *out, dl_error *err) {
    dl_delta_stats st;
    bool is_ok = f->stats != NULL &&
                 dl_delta_stats_parse(dl_str_from_cstr(f->stats), doc, &st, NULL) == DL_OK &&
                 st.has_num_records && st.num_records >= 0;
    DL_CHECK(is_ok, err, DL_ERR_INVALID_ARG,
             "add '%s': the table tracks row ids (rowTracking), which needs numRecords in the "
             "file's stats",
             f->path);
    *out = st.num_records;
    return DL_OK;
}

dl_status
dl_delta_rt_plan(dl_delta_tx *tx, int64_t *out_hwm, int64_t *out_floor, dl_error *err) {
    *out_hwm = -1;
    *out_floor = -1;
    if (tx->snap != NULL) {
        const char *conf = dl_delta_snapshot_domain_config(tx->snap, DL_DELTA_RT_DOMAIN);
        DL_TRY(dl_delta_rt_hwm_parse(dl_str_from_cstr(conf != NULL ? conf : ""), out_hwm, err));
    }
    const dl_delta_tx_domain *domains = tx->domains.items;
    for (size_t i = 0; i < tx->domains.n; i++) {
        DL_CHECK(strcmp(domains[i].domain, DL_DELTA_RT_DOMAIN) != 0, err, DL_ERR_INVALID_ARG,
                 "%s: the %s domain is written by the commit itself when it assigns row ids",
                 tx->table->display, DL_DELTA_RT_DOMAIN);
    }
    dl_json_doc doc;
    dl_json_doc_init(&doc, tx->alloc);
    dl_status s = DL_OK;
    dl_delta_tx_file *adds = tx->adds.items;
    for (size_t i = 0; i < tx->adds.n && s == DL_OK; i++) {
        dl_delta_tx_file *f = &adds[i];
        f->is_rt_fresh_id = !f->has_base_row_id;
        f->is_rt_fresh_version = !f->has_drcv;
        s = add_rows(f, &doc, &f->rt_rows, err);
        if (s == DL_OK && f->has_base_row_id) {
            *out_floor = DL_MAX(*out_floor, f->base_row_id + f->rt_rows - 1);
        }
    }
    dl_json_doc_destroy(&doc);
    return s;
}

dl_status
dl_delta_rt_assign(dl_delta_tx *tx, int64_t version, int64_t hwm, int64_t floor, dl_buf *out,
                   dl_error *err) {
    int64_t next = DL_MAX(hwm, floor);
    dl_delta_tx_file *adds = tx->adds.items;
    for (size_t i = 0; i < tx->adds.n; i++) {
        dl_delta_tx_file *f = &adds[i];
        if (f->is_rt_fresh_id) {
            f->has_base_row_id = true;
            f->base_row_id = next + 1;
            next += f->rt_rows;
        }
        if (f->is_rt_fresh_version) {
            f->has_drcv = true;
            f->drcv = version;
        }
    }
    if (next <= hwm) {
        return DL_OK;
    }
    char conf[96];
    (void)snprintf(conf, sizeof(conf), "{\"rowIdHighWaterMark\":%lld,\"domainName\":\"%s\"}",
                   (long long)next, DL_DELTA_RT_DOMAIN);
    dl_delta_tx_domain d = {.domain = DL_DELTA_RT_DOMAIN, .configuration = conf};
    return dl_delta_json_domain_line(out, &d, err);
}

static bool
has_conf(const dl_delta_metadata *md, const char *key) {
    return dl_delta_metadata_config(md, key) != NULL;
}

dl_status
dl_delta_rt_metadata(const dl_delta_metadata *md, dl_arena *arena, const dl_delta_metadata **out,
                     dl_error *err) {
    *out = md;
    bool is_enabled = dl_delta_metadata_config_bool(md, DL_DELTA_RT_ENABLE_KEY, false);
    if (!is_enabled ||
        (has_conf(md, DL_DELTA_RT_ID_COLUMN_KEY) && has_conf(md, DL_DELTA_RT_VERSION_COLUMN_KEY))) {
        return DL_OK;
    }
    DL_CHECK(!dl_delta_metadata_config_bool(md, DL_DELTA_RT_SUSPENDED_KEY, false), err,
             DL_ERR_INVALID_ARG,
             "[DELTA_ROW_TRACKING_ILLEGAL_PROPERTY_COMBINATION] delta.enableRowTracking and "
             "delta.rowTrackingSuspended cannot both be true");
    dl_delta_kv *conf = dl_arena_alloc_array(arena, (size_t)md->n_configuration + 2, sizeof(*conf));
    DL_CHECK(conf != NULL, err, DL_ERR_NOMEM, "out of memory planning a commit");
    int32_t n = 0;
    for (int32_t i = 0; i < md->n_configuration; i++) {
        conf[n++] = md->configuration[i];
    }
    static const char *const keys[2] = {DL_DELTA_RT_ID_COLUMN_KEY, DL_DELTA_RT_VERSION_COLUMN_KEY};
    static const char *const prefixes[2] = {"_row-id-col-", "_row-commit-version-col-"};
    for (int k = 0; k < 2; k++) {
        if (has_conf(md, keys[k])) {
            continue;
        }
        char uuid[37];
        DL_TRY(dl_delta_uuid_string(uuid, err));
        char *name = dl_arena_printf(arena, "%s%s", prefixes[k], uuid);
        DL_CHECK(name != NULL, err, DL_ERR_NOMEM, "out of memory planning a commit");
        conf[n++] = (dl_delta_kv){.key = keys[k], .value = name};
    }
    dl_delta_metadata *copy = dl_arena_alloc(arena, sizeof(*copy));
    DL_CHECK(copy != NULL, err, DL_ERR_NOMEM, "out of memory planning a commit");
    DL_TRY(dl_delta_metadata_copy(md, conf, n, arena, copy, err));
    *out = copy;
    return DL_OK;
}

/* Whether the commit removes or re-adds the snapshot's file f (a re-added file gets ids from
 * the commit when it has none). */
static bool
is_replaced(const dl_delta_tx *tx, const dl_delta_file *f) {
    uint64_t i = 0;
    return dl_hmap_get(&tx->add_paths, f->path, &i) || dl_hmap_get(&tx->remove_paths, f->path, &i);
}

dl_status
dl_delta_rt_check_enabling(const dl_delta_tx *tx, const dl_delta_metadata *md, dl_error *err) {
    if (tx->snap == NULL || !dl_delta_metadata_config_bool(md, DL_DELTA_RT_ENABLE_KEY, false) ||
        dl_delta_metadata_config_bool(dl_delta_snapshot_metadata(tx->snap), DL_DELTA_RT_ENABLE_KEY,
                                      false)) {
        return DL_OK;
    }
    size_t n = dl_delta_snapshot_file_count(tx->snap);
    for (size_t i = 0; i < n; i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(tx->snap, i);
        bool is_ok =
            (f->base_row_id >= 0 && f->default_row_commit_version >= 0) || is_replaced(tx, f);
        DL_CHECK(is_ok, err, DL_ERR_INVALID_ARG,
                 "%s: delta.enableRowTracking cannot be set while the live file '%s' has no "
                 "baseRowId (PROTOCOL.md \"Writer Requirements for Row Tracking\": backfill "
                 "the ids first)",
                 tx->table->display, f->path.ptr);
    }
    return DL_OK;
}

/* True when the commit's operation may carry rows of the files it removes into new files
 * (copied unchanged or updated), whose stable ids and commit versions the protocol asks to
 * preserve through the materialized columns. An insert-only MERGE removes nothing; an
 * overwrite replaces rows (they get new ids) unless it replaces by a predicate. */
static bool
is_copying_op(const dl_delta_tx *tx) {
    if (tx->removes.n == 0) {
        return false;
    }
    static const char *const ops[] = {"UPDATE", "MERGE", "DELETE", "OPTIMIZE", "REORG"};
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
        if (strcmp(tx->op_name, ops[i]) == 0) {
            return true;
        }
    }
    if (strcmp(tx->op_name, "WRITE") != 0) {
        return false;
    }
    const dl_delta_kv *params = tx->params.items;
    for (size_t i = 0; i < tx->params.n; i++) {
        if (strcmp(params[i].key, "predicate") == 0) {
            return true;
        }
    }
    return false;
}

dl_status
dl_delta_rt_check_copies(const dl_delta_tx *tx, const dl_delta_metadata *md, dl_error *err) {
    if (!dl_delta_metadata_config_bool(md, DL_DELTA_RT_ENABLE_KEY, false) || !is_copying_op(tx)) {
        return DL_OK;
    }
    const dl_delta_tx_file *adds = tx->adds.items;
    for (size_t i = 0; i < tx->adds.n; i++) {
        if (adds[i].is_rt_fresh_id && adds[i].rt_rows > 0) {
            dl_error_set(err, DL_ERR_UNSUPPORTED,
                         "%s: %s would write rows of existing files into new files, and the "
                         "table tracks row ids (delta.enableRowTracking = true): deltalite "
                         "cannot yet keep their row ids and row commit versions (the "
                         "materialized row tracking columns), so it refuses rather than give "
                         "them new ones",
                         tx->table->display, tx->op_name);
            dl_error_hint(err, "with delta.enableDeletionVectors = true a DELETE keeps every "
                               "row id; run UPDATE, MERGE and OPTIMIZE on this table with Spark, "
                               "or set delta.enableRowTracking = false first");
            return DL_ERR_UNSUPPORTED;
        }
    }
    return DL_OK;
}

/* Re-adds (dataChange false) each live file of the transaction's snapshot that has no
 * baseRowId and that the commit does not touch, so the commit assigns its ids and version. */
static dl_status
stage_backfill(dl_delta_tx *tx, int64_t *out_n, dl_error *err) {
    *out_n = 0;
    size_t n = dl_delta_snapshot_file_count(tx->snap);
    for (size_t i = 0; i < n; i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(tx->snap, i);
        if ((f->base_row_id >= 0 && f->default_row_commit_version >= 0) || is_replaced(tx, f)) {
            continue;
        }
        const char *stats = NULL;
        DL_TRY(dl_delta_file_stats_text(tx->snap, f, &tx->stats_rd, &tx->arena, &stats, err));
        DL_TRY(dl_delta_tx_add_snapshot_file(tx, f, f->dv, stats, err));
        dl_delta_tx_file *added = &((dl_delta_tx_file *)tx->adds.items)[tx->adds.n - 1];
        added->data_change = false;
        *out_n += 1;
    }
    return DL_OK;
}

dl_status
dl_delta_rt_backfill(dl_delta_tx *tx, const dl_delta_metadata *md, dl_error *err) {
    if (tx->snap == NULL || !tx->has_metadata ||
        !dl_delta_metadata_config_bool(md, DL_DELTA_RT_ENABLE_KEY, false)) {
        return DL_OK;
    }
    int64_t n = 0;
    return stage_backfill(tx, &n, err);
}

/* ---- enabling on an existing table, as Spark does ----------------------------------------- */

/* Commits tx (freed here whatever happens). */
static dl_status
commit_and_free(dl_delta_tx *tx, dl_status s, dl_error *err) {
    if (s == DL_OK) {
        s = dl_delta_tx_commit(tx, NULL, err);
    }
    dl_delta_tx_free(tx);
    return s;
}

/* operationParameters.newProtocol: the protocol action's object as JSON text, in arena. */
static dl_status
protocol_text(const dl_delta_protocol *p, dl_arena *arena, const char **out, dl_error *err) {
    dl_buf line;
    dl_buf_init(&line, NULL);
    dl_status s = dl_delta_json_protocol_line(&line, p, err);
    const char *prefix = "{\"protocol\":";
    size_t skip = strlen(prefix);
    if (s == DL_OK) {
        /* the line is {"protocol":{...}}\n: the inner object */
        bool is_ok = line.len > skip + 2 && memcmp(line.data, prefix, skip) == 0;
        *out = is_ok ? dl_arena_strndup(arena, (const char *)line.data + skip, line.len - skip - 2)
                     : NULL;
        s = *out != NULL ? DL_OK : dl_error_set(err, DL_ERR_NOMEM, "out of memory");
    }
    dl_buf_destroy(&line);
    return s;
}

/* snap's protocol with the rowTracking and domainMetadata writer features, in tx's arena. */
static dl_status
wanted_protocol(dl_delta_tx *tx, dl_delta_snapshot *snap, dl_delta_protocol *out, dl_error *err) {
    const dl_delta_metadata *md = dl_delta_snapshot_metadata(snap);
    dl_delta_kv *conf =
        dl_arena_alloc_array(&tx->arena, (size_t)md->n_configuration + 2, sizeof(*conf));
    DL_CHECK(conf != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < md->n_configuration; i++) {
        conf[i] = md->configuration[i];
    }
    conf[md->n_configuration] =
        (dl_delta_kv){.key = "delta.feature.rowTracking", .value = "supported"};
    conf[md->n_configuration + 1] =
        (dl_delta_kv){.key = "delta.feature.domainMetadata", .value = "supported"};
    dl_delta_metadata wanted = *md;
    wanted.configuration = conf;
    wanted.n_configuration = md->n_configuration + 2;
    return dl_delta_protocol_for_metadata(&wanted, dl_delta_snapshot_schema(snap),
                                          dl_delta_snapshot_protocol(snap), &tx->arena, out, err);
}

/* The UPGRADE PROTOCOL commit that adds rowTracking (and domainMetadata) to snap's protocol. */
static dl_status
upgrade_protocol(dl_delta_table *table, dl_delta_snapshot *snap, dl_error *err) {
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(table, snap, NULL, &tx, err));
    dl_delta_protocol p;
    const char *text = NULL;
    dl_status s = wanted_protocol(tx, snap, &p, err);
    if (s == DL_OK) {
        s = protocol_text(&p, &tx->arena, &text, err);
    }
    if (s == DL_OK) {
        dl_delta_tx_set_operation(tx, DL_DELTA_OP_UPGRADE_PROTOCOL);
        s = dl_delta_tx_param_string(tx, "newProtocol", text, err);
    }
    if (s == DL_OK) {
        s = dl_delta_tx_set_protocol(tx, &p, err);
    }
    return commit_and_free(tx, s, err);
}

/* The ROW TRACKING BACKFILL commit (batchId 0): every live file without ids re-added. */
static dl_status
backfill_commit(dl_delta_table *table, dl_delta_snapshot *snap, dl_error *err) {
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(table, snap, NULL, &tx, err));
    int64_t n = 0;
    dl_status s = dl_delta_tx_set_operation_name(tx, "ROW TRACKING BACKFILL", false, err);
    if (s == DL_OK) {
        s = dl_delta_tx_param_string(tx, "batchId", "0", err);
    }
    if (s == DL_OK) {
        s = stage_backfill(tx, &n, err);
    }
    if (s == DL_OK && n == 0) {
        dl_delta_tx_free(tx);
        return DL_OK;
    }
    return commit_and_free(tx, s, err);
}

static bool
needs_backfill(const dl_delta_snapshot *snap) {
    size_t n = dl_delta_snapshot_file_count(snap);
    for (size_t i = 0; i < n; i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(snap, i);
        if (f->base_row_id < 0 || f->default_row_commit_version < 0) {
            return true;
        }
    }
    return false;
}

dl_status
dl_delta_rt_prepare_enable(dl_delta_table *table, dl_delta_snapshot *snap,
                           dl_delta_snapshot **out_snap, dl_error *err) {
    *out_snap = NULL;
    const dl_delta_protocol *p = dl_delta_snapshot_protocol(snap);
    bool is_supported = dl_delta_protocol_has_feature(p, DL_DELTA_FEATURE_ROW_TRACKING);
    if (is_supported && !needs_backfill(snap)) {
        return DL_OK;
    }
    DL_CHECK(!dl_delta_metadata_config_bool(dl_delta_snapshot_metadata(snap),
                                            DL_DELTA_RT_SUSPENDED_KEY, false),
             err, DL_ERR_INVALID_ARG,
             "[DELTA_ROW_TRACKING_ILLEGAL_PROPERTY_COMBINATION] delta.enableRowTracking and "
             "delta.rowTrackingSuspended cannot both be true");
    if (!is_supported) {
        DL_TRY(upgrade_protocol(table, snap, err));
    }
    dl_delta_snapshot *latest = NULL;
    DL_TRY(dl_delta_snapshot_latest(table, NULL, &latest, err));
    dl_status s = backfill_commit(table, latest, err);
    dl_delta_snapshot_unref(latest);
    latest = NULL;
    if (s == DL_OK) {
        s = dl_delta_snapshot_latest(table, NULL, &latest, err);
    }
    *out_snap = latest;
    return s;
}
