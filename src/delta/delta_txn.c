/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Transactions: starting one, staging actions and recording reads (delta_txn.h). What a commit
 * does with them is in delta_txn_commit.c; how they are written, delta_txn_json.c.
 *
 * Staging checks the rules that a single action can break ("Delta Log Entries": at most one
 * add and one remove per path, one metaData, one protocol, one txn per appId, one
 * domainMetadata per domain; required fields present; strings valid UTF-8) so that an error
 * names the action the caller just passed. Rules that need the whole commit or the table
 * (partition values against partition columns, a live path with another deletion vector,
 * the writer protocol) are checked when the commit is planned.
 */
#include <stdlib.h>
#include <string.h>

#include "delta/delta_colmap.h"
#include "delta/delta_txn_int.h"
#include "json/json.h"

static const char *const op_names[DL_DELTA_OP_COUNT] = {
#define DL_DELTA_OP_X(id, name, changes_data) name,
#include "delta/delta_txn_ops.def"
#undef DL_DELTA_OP_X
};

static const bool op_changes_data[DL_DELTA_OP_COUNT] = {
#define DL_DELTA_OP_X(id, name, changes_data) changes_data,
#include "delta/delta_txn_ops.def"
#undef DL_DELTA_OP_X
};

const char *
dl_delta_op_name(dl_delta_op op) {
    return (unsigned)op < DL_DELTA_OP_COUNT ? op_names[op] : NULL;
}

const char *
dl_delta_isolation_name(dl_delta_isolation level) {
    switch (level) {
    case DL_DELTA_ISOLATION_WRITE_SERIALIZABLE:
        return "WriteSerializable";
    case DL_DELTA_ISOLATION_SNAPSHOT:
        return "SnapshotIsolation";
    default:
        return "Serializable";
    }
}

const char *
dl_delta_conflict_name(dl_delta_conflict conflict) {
    static const char *const names[] = {
        "none",
        "ProtocolChangedException",
        "MetadataChangedException",
        "ConcurrentTransactionException",
        "ConcurrentAppendException",
        "ConcurrentDeleteReadException",
        "ConcurrentDeleteDeleteException",
        "ConcurrentWriteException",
    };
    return (unsigned)conflict < DL_ARRAY_LEN(names) ? names[conflict] : "?";
}

/* ---- lifecycle ------------------------------------------------------------------------- */

static dl_status
set_defaults(dl_delta_tx *tx, const dl_delta_tx_options *opts, dl_error *err) {
    if (opts != NULL) {
        tx->opts = *opts;
    }
    if (tx->opts.max_attempts <= 0) {
        tx->opts.max_attempts = DL_DELTA_TX_DEFAULT_MAX_ATTEMPTS;
    }
    if (tx->opts.backoff_ms <= 0) {
        tx->opts.backoff_ms = DL_DELTA_TX_DEFAULT_BACKOFF_MS;
    }
    if (tx->opts.max_backoff_ms <= 0) {
        tx->opts.max_backoff_ms = DL_DELTA_TX_DEFAULT_MAX_BACKOFF;
    }
    if (tx->opts.user_name != NULL) {
        tx->opts.user_name =
            dl_arena_strndup(&tx->arena, tx->opts.user_name, strlen(tx->opts.user_name));
        DL_CHECK(tx->opts.user_name != NULL, err, DL_ERR_NOMEM,
                 "out of memory starting a transaction");
    }
    tx->op_name = op_names[DL_DELTA_OP_WRITE];
    tx->op_changes_data = true;
    return DL_OK;
}

/* The isolation level the table asks for (delta.isolationLevel), Serializable by default. */
static void
table_isolation(dl_delta_tx *tx) {
    const char *level =
        tx->snap != NULL
            ? dl_delta_metadata_config(dl_delta_snapshot_metadata(tx->snap), "delta.isolationLevel")
            : NULL;
    if (level != NULL &&
        dl_delta_str_eq_nocase_cstr(dl_str_from_cstr(level), "WriteSerializable")) {
        tx->isolation = DL_DELTA_ISOLATION_WRITE_SERIALIZABLE;
        tx->has_isolation = true;
    }
}

dl_status
dl_delta_tx_begin(dl_delta_table *table, dl_delta_snapshot *snap, const dl_delta_tx_options *opts,
                  dl_delta_tx **out, dl_error *err) {
    DL_CHECK(table != NULL && out != NULL, err, DL_ERR_INVALID_ARG,
             "dl_delta_tx_begin: table and out are required");
    if (snap != NULL) {
        DL_TRY_CTX(dl_delta_protocol_check_write(dl_delta_snapshot_protocol(snap),
                                                 dl_delta_snapshot_metadata(snap),
                                                 dl_delta_snapshot_schema(snap),
                                                 opts != NULL ? opts->handled_features : 0, err),
                   err, "%s v%lld", table->display, (long long)dl_delta_snapshot_version(snap));
    }
    dl_delta_tx *tx = dl_mem_alloc_zero(table->alloc, sizeof(*tx));
    DL_CHECK(tx != NULL, err, DL_ERR_NOMEM, "out of memory starting a transaction");
    tx->table = table;
    tx->alloc = table->alloc;
    dl_arena_init(&tx->arena, tx->alloc, 0);
    dl_delta_stats_reader_init(&tx->stats_rd, tx->alloc);
    dl_hmap_init(&tx->add_paths, tx->alloc);
    dl_hmap_init(&tx->remove_paths, tx->alloc);
    dl_hmap_init(&tx->read_files, tx->alloc);
    tx->read_version = snap != NULL ? dl_delta_snapshot_version(snap) : -1;
    tx->snap = snap != NULL ? dl_delta_snapshot_ref(snap) : NULL;
    dl_status s = set_defaults(tx, opts, err);
    if (s == DL_OK) {
        s = dl_delta_uuid_string(tx->txn_id, err);
    }
    if (s != DL_OK) {
        dl_delta_tx_free(tx);
        return s;
    }
    table_isolation(tx);
    *out = tx;
    return DL_OK;
}

void
dl_delta_tx_free(dl_delta_tx *tx) {
    if (tx == NULL) {
        return;
    }
    dl_hmap_destroy(&tx->add_paths);
    dl_hmap_destroy(&tx->remove_paths);
    dl_hmap_destroy(&tx->read_files);
    dl_delta_stats_reader_destroy(&tx->stats_rd);
    dl_arena_destroy(&tx->arena);
    dl_delta_snapshot_unref(tx->snap);
    dl_mem_free(tx->alloc, tx, sizeof(*tx));
}

int64_t
dl_delta_tx_read_version(const dl_delta_tx *tx) {
    return tx->read_version;
}

const char *
dl_delta_tx_id(const dl_delta_tx *tx) {
    return tx->txn_id;
}

dl_delta_conflict
dl_delta_tx_conflict(const dl_delta_tx *tx) {
    return tx->conflict;
}

/* ---- small copies ---------------------------------------------------------------------- */

static dl_status
copy_cstr(dl_delta_tx *tx, const char *what, const char *s, const char **out, dl_error *err) {
    if (s == NULL) {
        *out = NULL;
        return DL_OK;
    }
    size_t len = strlen(s);
    DL_CHECK(dl_utf8_valid(s, len), err, DL_ERR_INVALID_ARG, "%s is not valid UTF-8", what);
    *out = dl_arena_strndup(&tx->arena, s, len);
    DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory staging %s", what);
    return DL_OK;
}

static dl_status
check_key_unique(const dl_delta_kv *kv, int32_t i, const char *what, dl_error *err) {
    for (int32_t j = 0; j < i; j++) {
        DL_CHECK(strcmp(kv[j].key, kv[i].key) != 0, err, DL_ERR_INVALID_ARG,
                 "%s: key '%s' appears twice", what, kv[i].key);
    }
    return DL_OK;
}

/* Copies pairs, checking keys (present, unique, UTF-8) and values (UTF-8). */
static dl_status
copy_kv(dl_delta_tx *tx, const char *what, const dl_delta_kv *kv, int32_t n, dl_delta_kv **out,
        dl_error *err) {
    DL_CHECK(n >= 0 && (n == 0 || kv != NULL), err, DL_ERR_INVALID_ARG, "%s: bad pair count %d",
             what, (int)n);
    dl_delta_kv *copy = dl_arena_alloc_array(&tx->arena, (size_t)(n > 0 ? n : 1), sizeof(*copy));
    DL_CHECK(copy != NULL, err, DL_ERR_NOMEM, "out of memory staging %s", what);
    for (int32_t i = 0; i < n; i++) {
        DL_CHECK(kv[i].key != NULL, err, DL_ERR_INVALID_ARG, "%s: entry %d has no key", what,
                 (int)i);
        DL_TRY(check_key_unique(kv, i, what, err));
        DL_TRY(copy_cstr(tx, what, kv[i].key, &copy[i].key, err));
        DL_TRY(copy_cstr(tx, what, kv[i].value, &copy[i].value, err));
    }
    *out = copy;
    return DL_OK;
}

static dl_status
copy_kv_json(dl_delta_tx *tx, const char *what, const dl_delta_kv *kv, int32_t n, bool is_needed,
             dl_delta_kv **out_kv, const char **out_json, dl_error *err) {
    *out_json = NULL;
    if (n == 0 && !is_needed) {
        return DL_OK;
    }
    dl_delta_kv *copy = NULL;
    DL_TRY(copy_kv(tx, what, kv, n, &copy, err));
    if (out_kv != NULL) {
        *out_kv = copy;
    }
    return dl_delta_kv_to_json(copy, n, &tx->arena, out_json, err);
}

static dl_status
check_path(const char *action, const char *path, dl_error *err) {
    DL_CHECK(path != NULL && path[0] != '\0', err, DL_ERR_INVALID_ARG, "%s: a path is required",
             action);
    size_t len = strlen(path);
    DL_CHECK(dl_utf8_valid(path, len), err, DL_ERR_INVALID_ARG,
             "%s '%s': the path is not valid UTF-8", action, path);
    DL_CHECK(strncmp(path, "_delta_log/", 11) != 0, err, DL_ERR_INVALID_ARG,
             "%s '%s': data files cannot live in _delta_log/", action, path);
    return DL_OK;
}

static dl_status
check_stats(const dl_delta_tx *tx, const char *path, const char *stats, dl_error *err) {
    if (stats == NULL) {
        return DL_OK;
    }
    dl_json_doc doc;
    dl_json_doc_init(&doc, tx->alloc);
    dl_status s = dl_json_doc_parse(&doc, stats, strlen(stats), err);
    if (s == DL_OK && dl_json_val_type(dl_json_doc_root(&doc)) != DL_JSON_OBJECT) {
        s = dl_error_set(err, DL_ERR_INVALID_ARG, "stats must be a JSON object");
    }
    dl_json_doc_destroy(&doc);
    if (s == DL_ERR_NOMEM) {
        return s;
    }
    if (s != DL_OK) {
        dl_error_prefix(err, "'%s': stats", path);
        if (err != NULL) {
            err->code = DL_ERR_INVALID_ARG;
        }
        return DL_ERR_INVALID_ARG;
    }
    return DL_OK;
}

static dl_status
copy_dv(dl_delta_tx *tx, const char *path, const dl_delta_dv_desc *dv, dl_delta_tx_file *f,
        dl_error *err) {
    if (dv == NULL) {
        return DL_OK;
    }
    dl_status s = dl_delta_dv_desc_check(dv, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "'%s': deletionVector", path);
        if (err != NULL) {
            err->code = DL_ERR_INVALID_ARG;
        }
        return DL_ERR_INVALID_ARG;
    }
    f->has_dv = true;
    f->dv = *dv;
    f->dv.has_max_row_index = false; /* never stored in the log */
    char *p = dl_arena_strndup(&tx->arena, dv->path_or_inline_dv.ptr, dv->path_or_inline_dv.len);
    DL_CHECK(p != NULL, err, DL_ERR_NOMEM, "out of memory staging a deletion vector");
    f->dv.path_or_inline_dv = dl_str_make(p, dv->path_or_inline_dv.len);
    return DL_OK;
}

/* Registers path in map (key copied), failing when it is there already. */
static dl_status
claim_path(dl_delta_tx *tx, dl_hmap *map, const char *action, const char *path, size_t index,
           const char **out_path, dl_error *err) {
    DL_CHECK(!dl_hmap_get(map, dl_str_from_cstr(path), NULL), err, DL_ERR_INVALID_ARG,
             "%s '%s': the path is already in this commit (at most one %s per path)", action, path,
             action);
    DL_TRY(copy_cstr(tx, action, path, out_path, err));
    return dl_hmap_put(map, dl_str_from_cstr(*out_path), index, err);
}

/* ---- staging files -------------------------------------------------------------------- */

dl_status
dl_delta_tx_add(dl_delta_tx *tx, const dl_delta_add_file *add, dl_error *err) {
    DL_CHECK(add != NULL, err, DL_ERR_INVALID_ARG, "add: no file given");
    DL_TRY(check_path("add", add->path, err));
    DL_CHECK(add->size >= 0, err, DL_ERR_INVALID_ARG, "add '%s': size %lld is negative", add->path,
             (long long)add->size);
    DL_TRY(check_stats(tx, add->path, add->stats, err));
    dl_delta_tx_file *f = dl_delta_tx_vec_push(&tx->arena, &tx->adds, sizeof(*f), err);
    DL_CHECK(f != NULL, err, DL_ERR_NOMEM, "out of memory staging add '%s'", add->path);
    dl_status s = claim_path(tx, &tx->add_paths, "add", add->path, tx->adds.n - 1, &f->path, err);
    if (s == DL_OK) {
        s = copy_kv_json(tx, "add partitionValues", add->partition_values, add->n_partition_values,
                         true, &f->pv, &f->pv_json, err);
        f->n_pv = add->n_partition_values;
    }
    if (s == DL_OK) {
        s = copy_kv_json(tx, "add tags", add->tags, add->n_tags, false, NULL, &f->tags_json, err);
    }
    if (s == DL_OK) {
        s = copy_cstr(tx, "add stats", add->stats, &f->stats, err);
    }
    if (s == DL_OK) {
        s = copy_cstr(tx, "add clusteringProvider", add->clustering_provider,
                      &f->clustering_provider, err);
    }
    if (s == DL_OK) {
        s = copy_dv(tx, add->path, add->dv, f, err);
    }
    if (s != DL_OK) {
        if (f->path != NULL) {
            (void)dl_hmap_remove(&tx->add_paths, dl_str_from_cstr(f->path), NULL);
        }
        tx->adds.n--;
        return s;
    }
    f->size = add->size;
    f->has_time = true;
    f->time = add->modification_time;
    f->data_change = add->data_change;
    f->has_base_row_id = add->has_base_row_id;
    f->base_row_id = add->base_row_id;
    f->has_drcv = add->has_default_row_commit_version;
    f->drcv = add->default_row_commit_version;
    return DL_OK;
}

static dl_status
fill_remove(dl_delta_tx *tx, const dl_delta_remove_file *rm, dl_delta_tx_file *f, dl_error *err) {
    if (rm->extended_file_metadata) {
        DL_CHECK(rm->size >= 0, err, DL_ERR_INVALID_ARG,
                 "remove '%s': extendedFileMetadata needs a size (found %lld)", rm->path,
                 (long long)rm->size);
        DL_TRY(copy_kv_json(tx, "remove partitionValues", rm->partition_values,
                            rm->n_partition_values, true, &f->pv, &f->pv_json, err));
        f->n_pv = rm->n_partition_values;
    }
    DL_TRY(copy_kv_json(tx, "remove tags", rm->tags, rm->n_tags, false, NULL, &f->tags_json, err));
    DL_TRY(copy_cstr(tx, "remove stats", rm->stats, &f->stats, err));
    DL_TRY(copy_dv(tx, rm->path, rm->dv, f, err));
    f->size = rm->extended_file_metadata ? rm->size : -1;
    f->is_extended = rm->extended_file_metadata;
    f->has_time = rm->has_deletion_timestamp;
    f->time = rm->deletion_timestamp;
    f->data_change = rm->data_change;
    f->has_base_row_id = rm->has_base_row_id;
    f->base_row_id = rm->base_row_id;
    f->has_drcv = rm->has_default_row_commit_version;
    f->drcv = rm->default_row_commit_version;
    return DL_OK;
}

dl_status
dl_delta_tx_remove(dl_delta_tx *tx, const dl_delta_remove_file *rm, dl_error *err) {
    DL_CHECK(rm != NULL, err, DL_ERR_INVALID_ARG, "remove: no file given");
    DL_TRY(check_path("remove", rm->path, err));
    DL_TRY(check_stats(tx, rm->path, rm->stats, err));
    dl_delta_tx_file *f = dl_delta_tx_vec_push(&tx->arena, &tx->removes, sizeof(*f), err);
    DL_CHECK(f != NULL, err, DL_ERR_NOMEM, "out of memory staging remove '%s'", rm->path);
    dl_status s =
        claim_path(tx, &tx->remove_paths, "remove", rm->path, tx->removes.n - 1, &f->path, err);
    if (s == DL_OK) {
        s = fill_remove(tx, rm, f, err);
    }
    if (s != DL_OK) {
        if (f->path != NULL) {
            (void)dl_hmap_remove(&tx->remove_paths, dl_str_from_cstr(f->path), NULL);
        }
        tx->removes.n--;
    }
    return s;
}

dl_status
dl_delta_file_stats_text(const dl_delta_snapshot *snap, const dl_delta_file *file,
                         dl_delta_stats_reader *rd, dl_arena *arena, const char **out,
                         dl_error *err) {
    *out = NULL;
    dl_str text = {0};
    bool found = false;
    DL_TRY(dl_delta_file_stats_json(snap, file, rd, &text, &found, err));
    if (found) {
        *out = dl_arena_strndup(arena, text.ptr, text.len);
        DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory copying stats");
    }
    return DL_OK;
}

dl_status
dl_delta_tx_remove_snapshot_file(dl_delta_tx *tx, const dl_delta_file *file, bool data_change,
                                 dl_error *err) {
    DL_CHECK(tx->snap != NULL && file != NULL, err, DL_ERR_INVALID_ARG,
             "remove: a snapshot file needs a transaction that read a snapshot");
    const char *path = file->path.ptr; /* NUL-terminated (delta.h) */
    DL_TRY(check_path("remove", path, err));
    dl_delta_tx_file *f = dl_delta_tx_vec_push(&tx->arena, &tx->removes, sizeof(*f), err);
    DL_CHECK(f != NULL, err, DL_ERR_NOMEM, "out of memory staging remove '%s'", path);
    dl_status s =
        claim_path(tx, &tx->remove_paths, "remove", path, tx->removes.n - 1, &f->path, err);
    if (s == DL_OK && file->partition != NULL) {
        f->pv_json =
            dl_arena_strndup(&tx->arena, file->partition->raw.ptr, file->partition->raw.len);
        s = f->pv_json != NULL ? DL_OK : dl_error_set(err, DL_ERR_NOMEM, "out of memory");
    }
    if (s == DL_OK && file->tags.len > 0) {
        f->tags_json = dl_arena_strndup(&tx->arena, file->tags.ptr, file->tags.len);
        s = f->tags_json != NULL ? DL_OK : dl_error_set(err, DL_ERR_NOMEM, "out of memory");
    }
    if (s == DL_OK) {
        s = dl_delta_file_stats_text(tx->snap, file, &tx->stats_rd, &tx->arena, &f->stats, err);
    }
    if (s == DL_OK) {
        s = copy_dv(tx, path, file->dv, f, err);
    }
    if (s == DL_OK) {
        s = dl_delta_tx_read_file(tx, path, err);
    }
    if (s != DL_OK) {
        if (f->path != NULL) {
            (void)dl_hmap_remove(&tx->remove_paths, dl_str_from_cstr(f->path), NULL);
        }
        tx->removes.n--;
        return s;
    }
    if (f->pv_json == NULL) {
        f->pv_json = "{}";
    }
    f->size = file->size >= 0 ? file->size : 0;
    f->is_extended = true;
    f->data_change = data_change;
    f->has_base_row_id = file->base_row_id >= 0;
    f->base_row_id = file->base_row_id;
    f->has_drcv = file->default_row_commit_version >= 0;
    f->drcv = file->default_row_commit_version;
    return DL_OK;
}

/* One partition value: key and value copied into the transaction's arena (JSON null: NULL). */
static dl_status
pv_pair(dl_delta_tx *tx, dl_str key, dl_json_val v, dl_delta_kv *out, dl_error *err) {
    out->key = dl_arena_strndup(&tx->arena, key.ptr, key.len);
    out->value = NULL;
    DL_CHECK(out->key != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (dl_json_val_is_null(v)) {
        return DL_OK;
    }
    dl_str text = dl_json_val_str(v);
    out->value = dl_arena_strndup(&tx->arena, text.ptr, text.len);
    DL_CHECK(out->value != NULL, err, DL_ERR_NOMEM, "out of memory");
    return DL_OK;
}

/* The pairs of the partitionValues object parsed into doc. */
static dl_status
pv_pairs(dl_delta_tx *tx, dl_json_doc *doc, dl_str raw, dl_delta_kv **out, int32_t *out_n,
         dl_error *err) {
    DL_TRY(dl_json_doc_parse(doc, raw.ptr, raw.len, err));
    dl_json_val root = dl_json_doc_root(doc);
    dl_delta_kv *kv =
        dl_arena_alloc_array(&tx->arena, (size_t)dl_json_val_count(root) + 1, sizeof(*kv));
    DL_CHECK(kv != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_json_iter it = dl_json_val_iter(root);
    dl_str key;
    dl_json_val v;
    int32_t n = 0;
    while (dl_json_iter_next(&it, &key, &v)) {
        DL_TRY(pv_pair(tx, key, v, &kv[n++], err));
    }
    *out = kv;
    *out_n = n;
    return DL_OK;
}

/* The partitionValues object text of a snapshot file as pairs. */
static dl_status
parse_pv(dl_delta_tx *tx, const char *path, dl_str raw, dl_delta_kv **out, int32_t *out_n,
         dl_error *err) {
    dl_json_doc doc;
    dl_json_doc_init(&doc, tx->alloc);
    dl_status s = pv_pairs(tx, &doc, raw, out, out_n, err);
    dl_json_doc_destroy(&doc);
    if (s != DL_OK && s != DL_ERR_NOMEM) {
        dl_error_prefix(err, "add '%s': partitionValues", path);
    }
    return s;
}

dl_status
dl_delta_tx_add_snapshot_file(dl_delta_tx *tx, const dl_delta_file *file,
                              const dl_delta_dv_desc *dv, const char *stats, dl_error *err) {
    DL_CHECK(tx->snap != NULL && file != NULL, err, DL_ERR_INVALID_ARG,
             "add: a snapshot file needs a transaction that read a snapshot");
    return dl_delta_tx_add_file_as(tx, file, file->path.ptr, dv, stats, err);
}

dl_status
dl_delta_tx_add_file_as(dl_delta_tx *tx, const dl_delta_file *file, const char *path,
                        const dl_delta_dv_desc *dv, const char *stats, dl_error *err) {
    DL_CHECK(file != NULL && path != NULL, err, DL_ERR_INVALID_ARG, "add: no file");
    DL_TRY(check_path("add", path, err));
    DL_TRY(check_stats(tx, path, stats, err));
    dl_delta_tx_file *f = dl_delta_tx_vec_push(&tx->arena, &tx->adds, sizeof(*f), err);
    DL_CHECK(f != NULL, err, DL_ERR_NOMEM, "out of memory staging add '%s'", path);
    dl_status s = claim_path(tx, &tx->add_paths, "add", path, tx->adds.n - 1, &f->path, err);
    dl_str raw = file->partition != NULL ? file->partition->raw : dl_str_from_cstr("{}");
    if (s == DL_OK) {
        s = parse_pv(tx, path, raw, &f->pv, &f->n_pv, err);
    }
    if (s == DL_OK) {
        f->pv_json = dl_arena_strndup(&tx->arena, raw.ptr, raw.len);
        s = f->pv_json != NULL ? DL_OK : dl_error_set(err, DL_ERR_NOMEM, "out of memory");
    }
    if (s == DL_OK && file->tags.len > 0) {
        f->tags_json = dl_arena_strndup(&tx->arena, file->tags.ptr, file->tags.len);
        s = f->tags_json != NULL ? DL_OK : dl_error_set(err, DL_ERR_NOMEM, "out of memory");
    }
    if (s == DL_OK) {
        s = copy_cstr(tx, "add stats", stats, &f->stats, err);
    }
    if (s == DL_OK) {
        s = copy_dv(tx, path, dv, f, err);
    }
    if (s != DL_OK) {
        if (f->path != NULL) {
            (void)dl_hmap_remove(&tx->add_paths, dl_str_from_cstr(f->path), NULL);
        }
        tx->adds.n--;
        return s;
    }
    f->size = file->size >= 0 ? file->size : 0;
    f->has_time = true;
    f->time = file->modification_time;
    f->data_change = true;
    f->has_base_row_id = file->base_row_id >= 0;
    f->base_row_id = file->base_row_id;
    f->has_drcv = file->default_row_commit_version >= 0;
    f->drcv = file->default_row_commit_version;
    return DL_OK;
}

dl_status
dl_delta_tx_add_cdc(dl_delta_tx *tx, const char *path, const dl_delta_kv *partition_values,
                    int32_t n_partition_values, int64_t size, const dl_delta_kv *tags,
                    int32_t n_tags, dl_error *err) {
    DL_TRY(check_path("cdc", path, err));
    DL_CHECK(size >= 0, err, DL_ERR_INVALID_ARG, "cdc '%s': size %lld is negative", path,
             (long long)size);
    dl_delta_tx_file *f = dl_delta_tx_vec_push(&tx->arena, &tx->cdcs, sizeof(*f), err);
    DL_CHECK(f != NULL, err, DL_ERR_NOMEM, "out of memory staging cdc '%s'", path);
    dl_status s = copy_cstr(tx, "cdc path", path, &f->path, err);
    if (s == DL_OK) {
        s = copy_kv_json(tx, "cdc partitionValues", partition_values, n_partition_values, true,
                         &f->pv, &f->pv_json, err);
        f->n_pv = n_partition_values;
    }
    if (s == DL_OK) {
        s = copy_kv_json(tx, "cdc tags", tags, n_tags, false, NULL, &f->tags_json, err);
    }
    if (s != DL_OK) {
        tx->cdcs.n--;
        return s;
    }
    f->size = size;
    return DL_OK;
}

/* ---- staging table-level actions ------------------------------------------------------ */

/*
 * The protocol asked for by md's pseudo-properties (delta.feature.<name> = 'supported',
 * delta.minReaderVersion, delta.minWriterVersion), which are not stored: an existing table's
 * protocol is upgraded in this commit, as Delta's ALTER TABLE SET TBLPROPERTIES does (a new
 * table's protocol comes from dl_delta_tx_create_table).
 */
static dl_status
upgrade_for_pseudo(dl_delta_tx *tx, const dl_delta_metadata *md, const dl_delta_schema *schema,
                   dl_error *err) {
    if (tx->snap == NULL || tx->has_protocol) {
        return DL_OK;
    }
    const dl_delta_protocol *base = dl_delta_snapshot_protocol(tx->snap);
    dl_delta_protocol needed;
    DL_TRY(dl_delta_protocol_for_metadata(md, schema, base, &tx->arena, &needed, err));
    return dl_delta_protocol_equal(&needed, base) ? DL_OK
                                                  : dl_delta_tx_set_protocol(tx, &needed, err);
}

dl_status
dl_delta_tx_set_metadata(dl_delta_tx *tx, const dl_delta_metadata *md, dl_error *err) {
    DL_CHECK(!tx->has_metadata, err, DL_ERR_INVALID_ARG,
             "metaData: a commit holds at most one metaData action");
    DL_CHECK(md != NULL && md->id != NULL && md->id[0] != '\0', err, DL_ERR_INVALID_ARG,
             "metaData: an id is required");
    DL_CHECK(md->schema_string != NULL, err, DL_ERR_INVALID_ARG,
             "metaData: a schemaString is required");
    DL_CHECK(md->format_provider != NULL, err, DL_ERR_INVALID_ARG,
             "metaData: a format provider is required");
    dl_delta_schema schema;
    dl_status s =
        dl_delta_schema_parse(dl_str_from_cstr(md->schema_string), &tx->arena, &schema, err);
    if (s != DL_OK && s != DL_ERR_NOMEM) {
        dl_error_prefix(err, "metaData.schemaString");
        return s;
    }
    DL_TRY(s);
    for (int32_t i = 0; i < md->n_partition_columns; i++) {
        const char *col = md->partition_columns[i];
        DL_CHECK(col != NULL && dl_delta_schema_find(&schema, dl_str_from_cstr(col)) != NULL, err,
                 DL_ERR_INVALID_ARG, "metaData: partition column '%s' is not in the schema",
                 col != NULL ? col : "(null)");
    }
    const dl_delta_kv *conf = NULL;
    int32_t n_conf = 0;
    DL_TRY(dl_delta_conf_strip_pseudo(md->configuration, md->n_configuration, &tx->arena, &conf,
                                      &n_conf, err));
    if (n_conf < md->n_configuration) {
        DL_TRY(upgrade_for_pseudo(tx, md, &schema, err));
    }
    DL_TRY(dl_delta_metadata_copy(md, conf, n_conf, &tx->arena, &tx->metadata, err));
    DL_TRY(dl_delta_colmap_stage(tx, err));
    tx->has_metadata = true;
    return DL_OK;
}

static dl_status
check_protocol_shape(const dl_delta_protocol *p, dl_error *err) {
    int32_t rv = p->min_reader_version;
    int32_t wv = p->min_writer_version;
    DL_CHECK(rv >= 1 && rv <= 3 && wv >= 1 && wv <= 7, err, DL_ERR_INVALID_ARG,
             "protocol: versions (%d, %d) out of range (reader 1-3, writer 1-7)", (int)rv, (int)wv);
    DL_CHECK(rv < 3 || wv == 7, err, DL_ERR_INVALID_ARG,
             "protocol: reader version 3 requires writer version 7");
    DL_CHECK(p->has_reader_features == (rv == 3), err, DL_ERR_INVALID_ARG,
             "protocol: readerFeatures must be present exactly when the reader version is 3");
    DL_CHECK(p->has_writer_features == (wv == 7), err, DL_ERR_INVALID_ARG,
             "protocol: writerFeatures must be present exactly when the writer version is 7");
    for (int32_t i = 0; i < p->n_reader_features; i++) {
        bool found = false;
        for (int32_t j = 0; j < p->n_writer_features && !found; j++) {
            found = strcmp(p->reader_features[i], p->writer_features[j]) == 0;
        }
        DL_CHECK(found, err, DL_ERR_INVALID_ARG,
                 "protocol: reader feature '%s' is not also a writer feature",
                 p->reader_features[i]);
    }
    return DL_OK;
}

dl_status
dl_delta_tx_set_protocol(dl_delta_tx *tx, const dl_delta_protocol *protocol, dl_error *err) {
    DL_CHECK(!tx->has_protocol, err, DL_ERR_INVALID_ARG,
             "protocol: a commit holds at most one protocol action");
    DL_CHECK(protocol != NULL, err, DL_ERR_INVALID_ARG, "protocol: none given");
    DL_TRY(check_protocol_shape(protocol, err));
    DL_TRY(dl_delta_protocol_copy(protocol, &tx->arena, &tx->protocol, err));
    tx->has_protocol = true;
    return DL_OK;
}

static bool
str_list_has(const dl_delta_tx_vec *vec, const char *s) {
    const char *const *items = vec->items;
    for (size_t i = 0; i < vec->n; i++) {
        if (strcmp(items[i], s) == 0) {
            return true;
        }
    }
    return false;
}

static dl_status
note_app_read(dl_delta_tx *tx, const char *app_id, dl_error *err) {
    if (str_list_has(&tx->read_apps, app_id)) {
        return DL_OK;
    }
    const char **slot = dl_delta_tx_vec_push(&tx->arena, &tx->read_apps, sizeof(*slot), err);
    DL_CHECK(slot != NULL, err, DL_ERR_NOMEM, "out of memory recording a read");
    return copy_cstr(tx, "appId", app_id, slot, err);
}

dl_status
dl_delta_tx_set_app_version(dl_delta_tx *tx, const char *app_id, int64_t version, dl_error *err) {
    DL_CHECK(app_id != NULL && app_id[0] != '\0', err, DL_ERR_INVALID_ARG,
             "txn: an appId is required");
    dl_delta_tx_app *apps = tx->apps.items;
    for (size_t i = 0; i < tx->apps.n; i++) {
        DL_CHECK(strcmp(apps[i].app_id, app_id) != 0, err, DL_ERR_INVALID_ARG,
                 "txn: appId '%s' appears twice in one commit", app_id);
    }
    dl_delta_tx_app *app = dl_delta_tx_vec_push(&tx->arena, &tx->apps, sizeof(*app), err);
    DL_CHECK(app != NULL, err, DL_ERR_NOMEM, "out of memory staging txn");
    dl_status s = copy_cstr(tx, "txn appId", app_id, &app->app_id, err);
    if (s != DL_OK) {
        tx->apps.n--;
        return s;
    }
    app->version = version;
    return note_app_read(tx, app_id, err);
}

dl_status
dl_delta_tx_set_domain(dl_delta_tx *tx, const char *domain, const char *configuration,
                       bool is_removed, dl_error *err) {
    DL_CHECK(domain != NULL && domain[0] != '\0' && configuration != NULL, err, DL_ERR_INVALID_ARG,
             "domainMetadata: a domain and a configuration are required");
    dl_delta_tx_domain *items = tx->domains.items;
    for (size_t i = 0; i < tx->domains.n; i++) {
        DL_CHECK(strcmp(items[i].domain, domain) != 0, err, DL_ERR_INVALID_ARG,
                 "domainMetadata: domain '%s' appears twice in one commit", domain);
    }
    dl_delta_tx_domain *d = dl_delta_tx_vec_push(&tx->arena, &tx->domains, sizeof(*d), err);
    DL_CHECK(d != NULL, err, DL_ERR_NOMEM, "out of memory staging domainMetadata");
    dl_status s = copy_cstr(tx, "domain", domain, &d->domain, err);
    if (s == DL_OK) {
        s = copy_cstr(tx, "domain configuration", configuration, &d->configuration, err);
    }
    if (s != DL_OK) {
        tx->domains.n--;
        return s;
    }
    d->is_removed = is_removed;
    return DL_OK;
}

/* ---- commitInfo content --------------------------------------------------------------- */

void
dl_delta_tx_set_operation(dl_delta_tx *tx, dl_delta_op op) {
    if ((unsigned)op < DL_DELTA_OP_COUNT) {
        tx->op_name = op_names[op];
        tx->op_changes_data = op_changes_data[op];
    }
}

dl_status
dl_delta_tx_set_operation_name(dl_delta_tx *tx, const char *name, bool changes_data,
                               dl_error *err) {
    DL_CHECK(name != NULL && name[0] != '\0', err, DL_ERR_INVALID_ARG,
             "operation: a name is required");
    DL_TRY(copy_cstr(tx, "operation", name, &tx->op_name, err));
    tx->op_changes_data = changes_data;
    return DL_OK;
}

static dl_status
add_param(dl_delta_tx *tx, const char *key, const char *json, dl_error *err) {
    DL_CHECK(key != NULL, err, DL_ERR_INVALID_ARG, "operationParameters: a key is required");
    const dl_delta_kv *items = tx->params.items;
    for (size_t i = 0; i < tx->params.n; i++) {
        DL_CHECK(strcmp(items[i].key, key) != 0, err, DL_ERR_INVALID_ARG,
                 "operationParameters: key '%s' given twice", key);
    }
    dl_delta_kv *kv = dl_delta_tx_vec_push(&tx->arena, &tx->params, sizeof(*kv), err);
    DL_CHECK(kv != NULL, err, DL_ERR_NOMEM, "out of memory staging operationParameters");
    dl_status s = copy_cstr(tx, "operationParameters key", key, &kv->key, err);
    if (s == DL_OK) {
        kv->value = json;
    } else {
        tx->params.n--;
    }
    return s;
}

dl_status
dl_delta_tx_param_string(dl_delta_tx *tx, const char *key, const char *value, dl_error *err) {
    const char *json = "null";
    if (value != NULL) {
        dl_delta_kv one = {.key = "v", .value = value};
        const char *obj = NULL;
        DL_TRY(dl_delta_kv_to_json(&one, 1, &tx->arena, &obj, err)); /* {"v":"..."} */
        size_t len = strlen(obj);
        char *str = dl_arena_strndup(&tx->arena, obj + 5, len - 6);
        DL_CHECK(str != NULL, err, DL_ERR_NOMEM, "out of memory staging operationParameters");
        json = str;
    }
    return add_param(tx, key, json, err);
}

dl_status
dl_delta_tx_param_json(dl_delta_tx *tx, const char *key, const char *json, dl_error *err) {
    DL_CHECK(json != NULL, err, DL_ERR_INVALID_ARG,
             "operationParameters '%s': a JSON value is required", key != NULL ? key : "");
    dl_json_doc doc;
    dl_json_doc_init(&doc, tx->alloc);
    dl_status s = dl_json_doc_parse(&doc, json, strlen(json), err);
    dl_json_doc_destroy(&doc);
    if (s != DL_OK && s != DL_ERR_NOMEM) {
        dl_error_prefix(err, "operationParameters '%s'", key != NULL ? key : "");
        if (err != NULL) {
            err->code = DL_ERR_INVALID_ARG;
        }
        return DL_ERR_INVALID_ARG;
    }
    DL_TRY(s);
    const char *copy = NULL;
    DL_TRY(copy_cstr(tx, "operationParameters value", json, &copy, err));
    return add_param(tx, key, copy, err);
}

dl_status
dl_delta_tx_metric(dl_delta_tx *tx, const char *key, int64_t value, dl_error *err) {
    DL_CHECK(key != NULL, err, DL_ERR_INVALID_ARG, "operationMetrics: a key is required");
    char *text = dl_arena_printf(&tx->arena, "%lld", (long long)value);
    DL_CHECK(text != NULL, err, DL_ERR_NOMEM, "out of memory staging operationMetrics");
    dl_delta_kv *items = tx->metrics.items;
    for (size_t i = 0; i < tx->metrics.n; i++) {
        if (strcmp(items[i].key, key) == 0) {
            items[i].value = text;
            return DL_OK;
        }
    }
    dl_delta_kv *kv = dl_delta_tx_vec_push(&tx->arena, &tx->metrics, sizeof(*kv), err);
    DL_CHECK(kv != NULL, err, DL_ERR_NOMEM, "out of memory staging operationMetrics");
    dl_status s = copy_cstr(tx, "operationMetrics key", key, &kv->key, err);
    if (s != DL_OK) {
        tx->metrics.n--;
        return s;
    }
    kv->value = text;
    return DL_OK;
}

int64_t
dl_delta_tx_metric_value(const dl_delta_tx *tx, const char *key) {
    const dl_delta_kv *items = tx->metrics.items;
    for (size_t i = 0; i < tx->metrics.n; i++) {
        if (strcmp(items[i].key, key) == 0) {
            return strtoll(items[i].value, NULL, 10);
        }
    }
    return 0;
}

dl_status
dl_delta_tx_set_user_metadata(dl_delta_tx *tx, const char *text, dl_error *err) {
    return copy_cstr(tx, "userMetadata", text, &tx->user_metadata, err);
}

void
dl_delta_tx_set_isolation(dl_delta_tx *tx, dl_delta_isolation level) {
    tx->isolation = level;
    tx->has_isolation = true;
}

/* ---- reads ----------------------------------------------------------------------------- */

dl_status
dl_delta_tx_app_version(dl_delta_tx *tx, const char *app_id, int64_t *out_version, bool *out_found,
                        dl_error *err) {
    DL_CHECK(app_id != NULL, err, DL_ERR_INVALID_ARG, "txn: an appId is required");
    *out_found = tx->snap != NULL && dl_delta_snapshot_txn_version(tx->snap, app_id, out_version);
    return note_app_read(tx, app_id, err);
}

dl_status
dl_delta_tx_read_file(dl_delta_tx *tx, const char *path, dl_error *err) {
    DL_CHECK(path != NULL, err, DL_ERR_INVALID_ARG, "read: a path is required");
    if (dl_hmap_get(&tx->read_files, dl_str_from_cstr(path), NULL)) {
        return DL_OK;
    }
    const char *copy = NULL;
    DL_TRY(copy_cstr(tx, "read path", path, &copy, err));
    return dl_hmap_put(&tx->read_files, dl_str_from_cstr(copy), 0, err);
}

dl_status
dl_delta_tx_read_partition(dl_delta_tx *tx, const dl_delta_kv *values, int32_t n_values,
                           dl_error *err) {
    dl_delta_tx_partition_read *r =
        dl_delta_tx_vec_push(&tx->arena, &tx->read_parts, sizeof(*r), err);
    DL_CHECK(r != NULL, err, DL_ERR_NOMEM, "out of memory recording a read");
    dl_status s = copy_kv(tx, "read partition", values, n_values, &r->values, err);
    if (s != DL_OK) {
        tx->read_parts.n--;
        return s;
    }
    r->n_values = n_values;
    return DL_OK;
}

dl_status
dl_delta_tx_read_predicate(dl_delta_tx *tx, dl_delta_read_predicate_fn fn, void *ctx,
                           dl_error *err) {
    DL_CHECK(fn != NULL, err, DL_ERR_INVALID_ARG, "read predicate: a function is required");
    dl_delta_tx_predicate *p = dl_delta_tx_vec_push(&tx->arena, &tx->read_preds, sizeof(*p), err);
    DL_CHECK(p != NULL, err, DL_ERR_NOMEM, "out of memory recording a read");
    p->fn = fn;
    p->ctx = ctx;
    return DL_OK;
}

void
dl_delta_tx_read_whole_table(dl_delta_tx *tx) {
    tx->is_whole_table_read = true;
}
