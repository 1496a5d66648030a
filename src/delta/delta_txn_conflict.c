/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Conflict detection (Spark's ConflictChecker.scala, as PROTOCOL.md leaves it to writers):
 * when the version a transaction wanted was taken, each winning commit is read and checked in
 * Spark's order; the first failing check names Spark's exception:
 *
 *   1. the winner changed the protocol                      ProtocolChangedException
 *      (also: the table was created concurrently)
 *   2. the winner changed the metadata                      MetadataChangedException
 *   3. both touched one metadata domain                     ConcurrentTransactionException
 *   4. the winner set a txn for an appId this one depends on  ConcurrentTransactionException
 *   5. the winner added files this one should have read:    ConcurrentAppendException
 *        Serializable: every added file;
 *        WriteSerializable: those of commits that are not blind appends, unless this
 *          transaction changes the metadata;
 *        SnapshotIsolation: none;
 *      "should have read": the whole table was read, or the file's partition values match a
 *      partition read or a read predicate
 *   6. the winner removed a file this one read, or any file  ConcurrentDeleteReadException
 *      when this one read the whole table
 *   7. the winner removed a file this one removes          ConcurrentDeleteDeleteException
 *
 * Paths are compared URL-decoded. A winning commit whose commitInfo.txnId is this
 * transaction's is this transaction's own earlier attempt whose acknowledgement was lost.
 */
#include <stdio.h>
#include <string.h>

#include "delta/delta_txn_int.h"
#include "json/json.h"

typedef struct winner_ctx {
    dl_delta_tx *tx;
    dl_arena *arena;
    dl_delta_tx_winner *w;
    dl_buf path;        /* scratch for decoding paths */
    dl_json_doc pv_doc; /* partition values objects */
    bool is_pv_needed;  /* partition values are compared with reads */
} winner_ctx;

static const char *
arena_copy(dl_arena *arena, dl_str s, dl_error *err) {
    char *copy = dl_arena_strndup(arena, s.ptr != NULL ? s.ptr : "", s.len);
    if (copy == NULL) {
        (void)dl_error_set(err, DL_ERR_NOMEM, "out of memory reading a winning commit");
    }
    return copy;
}

static dl_status
push_str(winner_ctx *c, dl_delta_tx_vec *vec, dl_str s, dl_error *err) {
    const char **slot = dl_delta_tx_vec_push(c->arena, vec, sizeof(*slot), err);
    DL_CHECK(slot != NULL, err, DL_ERR_NOMEM, "out of memory reading a winning commit");
    *slot = arena_copy(c->arena, s, err);
    return *slot != NULL ? DL_OK : DL_ERR_NOMEM;
}

static dl_status
parse_pv(winner_ctx *c, dl_str raw, dl_delta_tx_file *f, dl_error *err) {
    if (!c->is_pv_needed || raw.len == 0) {
        return DL_OK;
    }
    DL_TRY(dl_json_doc_parse(&c->pv_doc, raw.ptr, raw.len, err));
    dl_json_val root = dl_json_doc_root(&c->pv_doc);
    uint32_t n = dl_json_val_count(root);
    f->pv = dl_arena_alloc_array(c->arena, n > 0 ? n : 1, sizeof(*f->pv));
    DL_CHECK(f->pv != NULL, err, DL_ERR_NOMEM, "out of memory reading a winning commit");
    dl_json_iter it = dl_json_val_iter(root);
    dl_str key;
    dl_json_val v;
    while (dl_json_iter_next(&it, &key, &v)) {
        dl_delta_kv *kv = &f->pv[f->n_pv++];
        kv->key = arena_copy(c->arena, key, err);
        kv->value = dl_json_val_is_null(v) ? NULL : arena_copy(c->arena, dl_json_val_str(v), err);
        DL_CHECK(kv->key != NULL && (kv->value != NULL || dl_json_val_is_null(v)), err,
                 DL_ERR_NOMEM, "out of memory reading a winning commit");
    }
    return DL_OK;
}

static dl_status
push_file(winner_ctx *c, dl_delta_tx_vec *vec, const dl_delta_file_action *fa, dl_error *err) {
    dl_delta_tx_file *f = dl_delta_tx_vec_push(c->arena, vec, sizeof(*f), err);
    DL_CHECK(f != NULL, err, DL_ERR_NOMEM, "out of memory reading a winning commit");
    bool is_absolute = false;
    DL_TRY(dl_delta_path_decode(fa->path, &c->path, &is_absolute, err));
    f->path = arena_copy(c->arena, dl_buf_view(&c->path), err);
    DL_CHECK(f->path != NULL, err, DL_ERR_NOMEM, "out of memory reading a winning commit");
    f->data_change = fa->data_change;
    return parse_pv(c, fa->partition_values, f, err);
}

static void
read_commit_info(winner_ctx *c, const dl_delta_commit_info *ci, dl_error *err) {
    dl_delta_tx_winner *w = c->w;
    w->has_commit_info = true;
    w->operation = arena_copy(c->arena, ci->operation, err);
    w->txn_id = arena_copy(c->arena, dl_json_val_str(dl_json_obj_get(ci->body, "txnId")), err);
    bool is_blind = false;
    if (dl_json_val_get_bool(dl_json_obj_get(ci->body, "isBlindAppend"), &is_blind, NULL) ==
        DL_OK) {
        w->is_blind_append = is_blind;
    }
    w->has_ict = ci->has_in_commit_timestamp;
    w->ict = ci->in_commit_timestamp;
}

static dl_status
visit_action(void *ctx, const dl_delta_action *a, int64_t line_no, dl_error *err) {
    (void)line_no;
    winner_ctx *c = ctx;
    dl_delta_tx_winner *w = c->w;
    switch (a->kind) {
    case DL_DELTA_ACTION_PROTOCOL:
        w->has_protocol = true;
        return DL_OK;
    case DL_DELTA_ACTION_METADATA:
        w->has_metadata = true;
        return DL_OK;
    case DL_DELTA_ACTION_TXN:
        return push_str(c, &w->app_ids, a->txn.app_id, err);
    case DL_DELTA_ACTION_DOMAIN_METADATA:
        if (dl_str_eq_cstr(a->domain.domain, DL_DELTA_RT_DOMAIN) && !a->domain.is_removed) {
            DL_TRY(dl_delta_rt_hwm_parse(a->domain.configuration, &w->row_id_hwm, err));
        }
        return push_str(c, &w->domains, a->domain.domain, err);
    case DL_DELTA_ACTION_COMMIT_INFO:
        read_commit_info(c, &a->commit_info, err);
        return w->operation != NULL && w->txn_id != NULL ? DL_OK : DL_ERR_NOMEM;
    case DL_DELTA_ACTION_ADD:
        return push_file(c, &w->adds, &a->file, err);
    case DL_DELTA_ACTION_REMOVE:
        return push_file(c, &w->removes, &a->file, err);
    default:
        return DL_OK;
    }
}

dl_status
dl_delta_tx_winner_read(dl_delta_tx *tx, int64_t version, dl_arena *arena, dl_delta_tx_winner *out,
                        dl_error *err) {
    char name[32];
    dl_delta_commit_name(version, name);
    char *path = dl_arena_printf(arena, "%s%s", tx->table->log_dir, name);
    DL_CHECK(path != NULL, err, DL_ERR_NOMEM, "out of memory reading a winning commit");
    memset(out, 0, sizeof(*out));
    out->version = version;
    out->row_id_hwm = -1;
    out->operation = "";
    out->txn_id = "";
    dl_buf bytes;
    dl_buf_init(&bytes, tx->alloc);
    winner_ctx c = {.tx = tx, .arena = arena, .w = out};
    c.is_pv_needed = true; /* for reads by partition, predicates and messages */
    dl_buf_init(&c.path, tx->alloc);
    dl_json_doc_init(&c.pv_doc, tx->alloc);
    dl_json_doc doc;
    dl_json_doc_init(&doc, tx->alloc);
    dl_status s = dl_store_read_all(tx->table->store, path, &bytes, err);
    dl_store_info info;
    if (s == DL_OK && dl_store_stat(tx->table->store, path, &info, NULL) == DL_OK) {
        out->mtime_ms = info.mtime_ms;
    }
    if (s == DL_OK) {
        s = dl_delta_actions_parse_text((const char *)bytes.data, bytes.len, &doc, arena,
                                        visit_action, &c, err);
        if (s != DL_OK) {
            dl_error_prefix(err, "winning commit %s", path);
        }
    }
    dl_json_doc_destroy(&doc);
    dl_json_doc_destroy(&c.pv_doc);
    dl_buf_destroy(&c.path);
    dl_buf_destroy(&bytes);
    return s;
}

/* ---- the checks ------------------------------------------------------------------------ */

static bool
str_vec_has(const dl_delta_tx_vec *vec, const char *s) {
    const char *const *items = vec->items;
    for (size_t i = 0; i < vec->n; i++) {
        if (strcmp(items[i], s) == 0) {
            return true;
        }
    }
    return false;
}

static bool
partition_matches(const dl_delta_tx_partition_read *r, const dl_delta_tx_file *f) {
    for (int32_t i = 0; i < r->n_values; i++) {
        const dl_delta_kv *want = &r->values[i];
        bool is_found = false;
        for (int32_t j = 0; j < f->n_pv && !is_found; j++) {
            if (strcmp(f->pv[j].key, want->key) != 0) {
                continue;
            }
            const char *have = f->pv[j].value;
            /* "" and null are both the null partition value ("Partition Value Serialization") */
            bool is_have_null = have == NULL || have[0] == '\0';
            bool is_want_null = want->value == NULL || want->value[0] == '\0';
            is_found =
                is_have_null ? is_want_null : (!is_want_null && strcmp(have, want->value) == 0);
        }
        if (!is_found) {
            return false;
        }
    }
    return true;
}

/* Whether this transaction should have read the added file f. */
static bool
should_have_read(const dl_delta_tx *tx, const dl_delta_tx_file *f) {
    if (tx->is_whole_table_read) {
        return true;
    }
    const dl_delta_tx_partition_read *parts = tx->read_parts.items;
    for (size_t i = 0; i < tx->read_parts.n; i++) {
        if (partition_matches(&parts[i], f)) {
            return true;
        }
    }
    const dl_delta_tx_predicate *preds = tx->read_preds.items;
    for (size_t i = 0; i < tx->read_preds.n; i++) {
        if (preds[i].fn(preds[i].ctx, f->pv, f->n_pv)) {
            return true;
        }
    }
    return false;
}

/* "partition [a=1, b=null]" or "the root of the table", as Spark's messages say. */
static void
partition_text(const dl_delta_tx_file *f, char *out, size_t cap) {
    if (f == NULL || f->n_pv == 0) {
        (void)snprintf(out, cap, "the root of the table");
        return;
    }
    size_t n = (size_t)snprintf(out, cap, "partition [");
    for (int32_t i = 0; i < f->n_pv && n < cap; i++) {
        n += (size_t)snprintf(out + n, cap - n, "%s%s=%s", i > 0 ? ", " : "", f->pv[i].key,
                              f->pv[i].value != NULL ? f->pv[i].value : "null");
    }
    if (n < cap) {
        (void)snprintf(out + n, cap - n, "]");
    }
}

static dl_status
conflict(dl_delta_tx *tx, const dl_delta_tx_winner *w, dl_delta_conflict kind, const char *detail,
         dl_error *err) {
    tx->conflict = kind;
    (void)dl_error_set(err, DL_ERR_CONFLICT,
                       "%s: %s: %s (conflicting commit: version %lld, operation %s, read "
                       "version %lld)",
                       tx->table->display, dl_delta_conflict_name(kind), detail,
                       (long long)w->version, w->operation[0] ? w->operation : "unknown",
                       (long long)tx->read_version);
    dl_error_hint(err, "Please try the operation again.");
    if (err != NULL) {
        err->version = w->version;
    }
    return DL_ERR_CONFLICT;
}

static dl_status
check_table_level(dl_delta_tx *tx, const dl_delta_tx_winner *w, dl_error *err) {
    if (w->has_protocol) {
        return conflict(tx, w, DL_DELTA_CONFLICT_PROTOCOL_CHANGED,
                        tx->read_version < 0
                            ? "The table was created by a concurrent update"
                            : "The protocol version of the Delta table has been changed by a "
                              "concurrent update",
                        err);
    }
    if (w->has_metadata) {
        return conflict(tx, w, DL_DELTA_CONFLICT_METADATA_CHANGED,
                        "The metadata of the Delta table has been changed by a concurrent update",
                        err);
    }
    const dl_delta_tx_domain *mine = tx->domains.items;
    for (size_t i = 0; i < tx->domains.n; i++) {
        if (str_vec_has(&w->domains, mine[i].domain)) {
            char detail[256];
            (void)snprintf(detail, sizeof(detail), "A conflicting metadata domain %s is added",
                           mine[i].domain);
            return conflict(tx, w, DL_DELTA_CONFLICT_CONCURRENT_TRANSACTION, detail, err);
        }
    }
    const char *const *apps = w->app_ids.items;
    for (size_t i = 0; i < w->app_ids.n; i++) {
        if (str_vec_has(&tx->read_apps, apps[i])) {
            char detail[256];
            (void)snprintf(detail, sizeof(detail),
                           "A concurrent transaction set the version of application '%s' that "
                           "this transaction depends on",
                           apps[i]);
            return conflict(tx, w, DL_DELTA_CONFLICT_CONCURRENT_TRANSACTION, detail, err);
        }
    }
    return DL_OK;
}

static dl_status
check_appends(dl_delta_tx *tx, const dl_delta_tx_plan *plan, const dl_delta_tx_winner *w,
              dl_error *err) {
    if (plan->isolation == DL_DELTA_ISOLATION_SNAPSHOT) {
        return DL_OK;
    }
    if (plan->isolation == DL_DELTA_ISOLATION_WRITE_SERIALIZABLE && !tx->has_metadata &&
        w->is_blind_append) {
        return DL_OK;
    }
    const dl_delta_tx_file *adds = w->adds.items;
    for (size_t i = 0; i < w->adds.n; i++) {
        if (should_have_read(tx, &adds[i])) {
            char where[256];
            char detail[384];
            partition_text(&adds[i], where, sizeof(where));
            (void)snprintf(detail, sizeof(detail), "Files were added to %s by a concurrent update",
                           where);
            return conflict(tx, w, DL_DELTA_CONFLICT_CONCURRENT_APPEND, detail, err);
        }
    }
    return DL_OK;
}

static dl_status
check_deletes(dl_delta_tx *tx, const dl_delta_tx_winner *w, dl_error *err) {
    const dl_delta_tx_file *removes = w->removes.items;
    char detail[512];
    for (size_t i = 0; i < w->removes.n; i++) {
        if (dl_hmap_get(&tx->read_files, dl_str_from_cstr(removes[i].path), NULL)) {
            (void)snprintf(detail, sizeof(detail),
                           "This transaction attempted to read one or more files that were "
                           "deleted (for example %s) by a concurrent update",
                           removes[i].path);
            return conflict(tx, w, DL_DELTA_CONFLICT_DELETE_READ, detail, err);
        }
    }
    if (w->removes.n > 0 && tx->is_whole_table_read) {
        (void)snprintf(detail, sizeof(detail),
                       "This transaction read the whole table and files were deleted (for "
                       "example %s) by a concurrent update",
                       removes[0].path);
        return conflict(tx, w, DL_DELTA_CONFLICT_DELETE_READ, detail, err);
    }
    for (size_t i = 0; i < w->removes.n; i++) {
        if (dl_hmap_get(&tx->remove_paths, dl_str_from_cstr(removes[i].path), NULL)) {
            (void)snprintf(detail, sizeof(detail),
                           "This transaction attempted to delete one or more files that were "
                           "deleted (for example %s) by a concurrent update",
                           removes[i].path);
            return conflict(tx, w, DL_DELTA_CONFLICT_DELETE_DELETE, detail, err);
        }
    }
    return DL_OK;
}

dl_status
dl_delta_tx_winner_check(dl_delta_tx *tx, const dl_delta_tx_plan *plan, const dl_delta_tx_winner *w,
                         dl_error *err) {
    DL_TRY(check_table_level(tx, w, err));
    DL_TRY(check_appends(tx, plan, w, err));
    return check_deletes(tx, w, err);
}
