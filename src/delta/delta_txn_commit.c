/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Committing a transaction (PROTOCOL.md "Creation of New Log Entries", "Delta Log Entries",
 * "In-Commit Timestamps"; Spark's OptimisticTransaction.commit).
 *
 * Before the first attempt the commit is planned once: the metaData and protocol the table
 * will have (a metaData that needs features the protocol lacks upgrades it), the writer check,
 * the rules that need the whole commit (partition values name exactly the partition columns; a
 * path live with another deletion vector must be removed in the same commit; append-only
 * tables take no data-changing removes; domainMetadata needs its feature), the isolation level
 * (downgraded to SnapshotIsolation when no file changes data and no other action is staged,
 * as Spark's canDowngradeToSnapshotIsolation), isBlindAppend (only adds, nothing read), and the
 * lines after commitInfo/protocol/metaData, which no retry changes.
 *
 * Each attempt writes `_delta_log/<v>.json` with put-if-absent: commitInfo first (with
 * inCommitTimestamp = max(now, previous commit's timestamp + 1) when in-commit timestamps are
 * on), then protocol and metaData when written, then the planned lines. The commit's
 * timestamp field keeps the first attempt's time, as Spark's does. When v exists, the winners
 * v, v+1, ... are read and checked (delta_txn_conflict.c) until a version is free; then the
 * attempt is retried there after a short random wait that shrinks as the losses add up (see
 * back_off), so that writers that collided spread out and the ones that waited longest go
 * first. Enabling
 * in-commit timestamps on an existing table records delta.inCommitTimestampEnablementVersion
 * and ...Timestamp in the metaData of the attempt that lands.
 *
 * An I/O error from the put itself is ambiguous (the file may have been published before the
 * acknowledgement was lost), so the file is read back: holding this transaction's txnId it is
 * the commit; otherwise the error stands. A winner read during conflict checks that holds our
 * txnId is resolved the same way.
 *
 * After the commit, a checkpoint every delta.checkpointInterval versions and expired log
 * cleanup run; their failures are reported in the result and never undo the commit.
 */
#include <stdio.h>
#include <string.h>

#include "delta/delta_txn_int.h"

#define DEFAULT_CHECKPOINT_INTERVAL 10
#define ICT_VERSION_KEY             "delta.inCommitTimestampEnablementVersion"
#define ICT_TIMESTAMP_KEY           "delta.inCommitTimestampEnablementTimestamp"

static int64_t
tx_now(const dl_delta_tx *tx) {
    return tx->opts.now_ms > 0 ? tx->opts.now_ms : dl_delta_now_ms();
}

/* ---- planning -------------------------------------------------------------------------- */

/* The characters Spark refuses in column names unless the table uses column mapping
 * (DELTA_INVALID_CHARACTERS_IN_COLUMN_NAMES): Parquet and Hive cannot hold them. */
#define BAD_NAME_CHARS " ,;{}()\n\t="

static dl_status
check_field_names(const dl_delta_field *fields, int32_t n, dl_error *err) {
    for (int32_t i = 0; i < n; i++) {
        const char *name = fields[i].name != NULL ? fields[i].name : "";
        size_t at = strcspn(name, BAD_NAME_CHARS);
        if (name[at] != '\0') {
            const char *shown = name[at] == '\n' ? "\\n" : name[at] == '\t' ? "\\t" : &name[at];
            dl_status s = dl_error_set(
                err, DL_ERR_SCHEMA,
                "[DELTA_INVALID_CHARACTERS_IN_COLUMN_NAMES] column '%s': '%.*s' is not "
                "allowed in a column name of a Delta table without column mapping "
                "(none of ' ,;{}()\\n\\t=' is)",
                name, shown == &name[at] ? 1 : 2, shown);
            dl_error_hint(err, "rename the column, or create the table with column mapping "
                               "(TBLPROPERTIES ('delta.columnMapping.mode' = 'name')), which "
                               "allows any name");
            return s;
        }
        DL_TRY(check_field_names(fields[i].children, fields[i].n_children, err));
    }
    return DL_OK;
}

static dl_status
plan_metadata(dl_delta_tx *tx, dl_delta_tx_plan *plan, dl_error *err) {
    if (tx->has_metadata) {
        DL_TRY(dl_delta_rt_metadata(&tx->metadata, &tx->arena, &plan->metadata, err));
        plan->is_metadata_written = true;
        DL_TRY(dl_delta_schema_parse(dl_str_from_cstr(tx->metadata.schema_string), &tx->arena,
                                     &plan->schema, err));
        if (dl_delta_md_cm_mode(plan->metadata) == DL_DELTA_CM_NONE) {
            DL_TRY(check_field_names(plan->schema.fields, plan->schema.n_fields, err));
        }
        return DL_OK;
    }
    DL_CHECK(tx->snap != NULL, err, DL_ERR_INVALID_ARG,
             "%s: creating a table needs a metaData action (dl_delta_tx_create_table)",
             tx->table->display);
    plan->metadata = dl_delta_snapshot_metadata(tx->snap);
    plan->schema = *dl_delta_snapshot_schema(tx->snap);
    return DL_OK;
}

static dl_status
plan_protocol(dl_delta_tx *tx, dl_delta_tx_plan *plan, dl_error *err) {
    if (tx->has_protocol) {
        plan->protocol = &tx->protocol;
        plan->is_protocol_written = true;
    } else {
        DL_CHECK(tx->snap != NULL, err, DL_ERR_INVALID_ARG,
                 "%s: creating a table needs a protocol action (dl_delta_tx_create_table)",
                 tx->table->display);
        plan->protocol = dl_delta_snapshot_protocol(tx->snap);
    }
    if (tx->has_metadata) {
        /* A metaData that uses features the protocol lacks upgrades it (never downgrades). */
        dl_delta_protocol *needed = dl_arena_alloc(&tx->arena, sizeof(*needed));
        DL_CHECK(needed != NULL, err, DL_ERR_NOMEM, "out of memory planning a commit");
        DL_TRY(dl_delta_protocol_for_metadata(plan->metadata, &plan->schema, plan->protocol,
                                              &tx->arena, needed, err));
        if (!dl_delta_protocol_equal(needed, plan->protocol)) {
            plan->protocol = needed;
            plan->is_protocol_written = true;
        }
    }
    return dl_delta_protocol_check_write(plan->protocol, plan->metadata, &plan->schema,
                                         tx->opts.handled_features, err);
}

/* The partition columns' names as the log writes them (physical under column mapping). */
static dl_status
partition_keys(dl_delta_tx *tx, const dl_delta_tx_plan *plan, const char ***out, dl_error *err) {
    const dl_delta_metadata *md = plan->metadata;
    dl_delta_cm_mode mode = dl_delta_md_cm_mode(md);
    const char **keys =
        dl_arena_alloc_array(&tx->arena, (size_t)md->n_partition_columns + 1, sizeof(*keys));
    DL_CHECK(keys != NULL, err, DL_ERR_NOMEM, "out of memory planning a commit");
    for (int32_t i = 0; i < md->n_partition_columns; i++) {
        const dl_delta_field *f =
            dl_delta_schema_find(&plan->schema, dl_str_from_cstr(md->partition_columns[i]));
        keys[i] = f != NULL ? dl_delta_field_physical_name(f, mode) : md->partition_columns[i];
    }
    *out = keys;
    return DL_OK;
}

static dl_status
check_partition_values(dl_delta_tx *tx, const dl_delta_tx_plan *plan, dl_error *err) {
    const char **keys = NULL;
    DL_TRY(partition_keys(tx, plan, &keys, err));
    int32_t n_keys = plan->metadata->n_partition_columns;
    const dl_delta_tx_file *adds = tx->adds.items;
    for (size_t i = 0; i < tx->adds.n; i++) {
        const dl_delta_tx_file *f = &adds[i];
        bool is_ok = f->n_pv == n_keys;
        for (int32_t k = 0; is_ok && k < f->n_pv; k++) {
            bool is_found = false;
            for (int32_t j = 0; j < n_keys && !is_found; j++) {
                is_found = strcmp(f->pv[k].key, keys[j]) == 0;
            }
            is_ok = is_found;
        }
        DL_CHECK(is_ok, err, DL_ERR_INVALID_ARG,
                 "add '%s': partitionValues %s must name exactly the table's %d partition "
                 "column(s) (\"Consistency Between Table Metadata and Data Files\")",
                 f->path, f->pv_json, (int)n_keys);
    }
    return DL_OK;
}

static bool
same_dv(const dl_delta_dv_desc *a, const dl_delta_dv_desc *b) {
    if (a == NULL || b == NULL) {
        return a == b;
    }
    return dl_delta_dv_desc_same_id(a, b);
}

/* "illegal for a path to occur in an add action that already occurs with a different dvId in
 * the list of add actions from the snapshot ..., unless the commit also contains a remove for
 * the later combination". Checked when an add has a DV or the snapshot is small: otherwise a
 * hash of every live path on every commit would cost more than the rule protects. */
#define DV_RULE_MAX_FILES 100000

static dl_status
check_dv_rule(dl_delta_tx *tx, dl_error *err) {
    size_t n_live = tx->snap != NULL ? dl_delta_snapshot_file_count(tx->snap) : 0;
    const dl_delta_tx_file *adds = tx->adds.items;
    bool has_dv_add = false;
    for (size_t i = 0; i < tx->adds.n; i++) {
        has_dv_add = has_dv_add || adds[i].has_dv;
    }
    if (n_live == 0 || tx->adds.n == 0 || (n_live > DV_RULE_MAX_FILES && !has_dv_add)) {
        return DL_OK;
    }
    const dl_delta_tx_file *removes = tx->removes.items;
    for (size_t i = 0; i < n_live; i++) {
        const dl_delta_file *live = dl_delta_snapshot_file(tx->snap, i);
        uint64_t ai = 0;
        if (!dl_hmap_get(&tx->add_paths, live->path, &ai)) {
            continue;
        }
        const dl_delta_tx_file *add = &adds[ai];
        if (same_dv(add->has_dv ? &add->dv : NULL, live->dv)) {
            continue; /* re-adding the same logical file: a metadata update */
        }
        uint64_t ri = 0;
        bool is_removed = dl_hmap_get(&tx->remove_paths, live->path, &ri) &&
                          same_dv(removes[ri].has_dv ? &removes[ri].dv : NULL, live->dv);
        DL_CHECK(is_removed, err, DL_ERR_INVALID_ARG,
                 "add '%s': the path is live with another deletion vector; the commit must also "
                 "remove that logical file",
                 add->path);
    }
    return DL_OK;
}

static dl_status
check_rules(dl_delta_tx *tx, const dl_delta_tx_plan *plan, dl_error *err) {
    const dl_delta_protocol *p = plan->protocol;
    DL_CHECK(
        tx->domains.n == 0 || dl_delta_protocol_has_feature(p, DL_DELTA_FEATURE_DOMAIN_METADATA),
        err, DL_ERR_UNSUPPORTED,
        "%s: domainMetadata actions need the domainMetadata writer feature", tx->table->display);
    const dl_delta_tx_file *adds = tx->adds.items;
    for (size_t i = 0; i < tx->adds.n; i++) {
        DL_CHECK(!adds[i].has_dv ||
                     dl_delta_protocol_has_feature(p, DL_DELTA_FEATURE_DELETION_VECTORS),
                 err, DL_ERR_UNSUPPORTED,
                 "add '%s': deletion vectors need the deletionVectors table feature", adds[i].path);
    }
    bool is_append_only =
        dl_delta_metadata_config_bool(plan->metadata, "delta.appendOnly", false) &&
        dl_delta_protocol_has_feature(p, DL_DELTA_FEATURE_APPEND_ONLY);
    const dl_delta_tx_file *removes = tx->removes.items;
    for (size_t i = 0; is_append_only && i < tx->removes.n; i++) {
        if (removes[i].data_change) {
            dl_error_set(err, DL_ERR_CONSTRAINT,
                         "%s: This table is configured to only allow appends "
                         "(delta.appendOnly=true): cannot remove '%s'",
                         tx->table->display, removes[i].path);
            dl_error_hint(err, "set delta.appendOnly=false to update or delete rows");
            return DL_ERR_CONSTRAINT;
        }
    }
    DL_TRY(check_partition_values(tx, plan, err));
    if (tx->has_metadata) {
        DL_TRY(dl_delta_rt_check_enabling(tx, plan->metadata, err));
    }
    return check_dv_rule(tx, err);
}

static void
plan_isolation(const dl_delta_tx *tx, dl_delta_tx_plan *plan) {
    dl_delta_isolation level = tx->has_isolation ? tx->isolation : DL_DELTA_ISOLATION_SERIALIZABLE;
    bool has_other = plan->is_metadata_written || plan->is_protocol_written || tx->apps.n > 0 ||
                     tx->domains.n > 0;
    bool is_data_changed = false;
    const dl_delta_tx_file *adds = tx->adds.items;
    const dl_delta_tx_file *removes = tx->removes.items;
    for (size_t i = 0; i < tx->adds.n; i++) {
        is_data_changed = is_data_changed || adds[i].data_change;
    }
    for (size_t i = 0; i < tx->removes.n; i++) {
        is_data_changed = is_data_changed || removes[i].data_change;
    }
    if (!has_other && !is_data_changed &&
        (level == DL_DELTA_ISOLATION_SERIALIZABLE ||
         (level == DL_DELTA_ISOLATION_WRITE_SERIALIZABLE && !tx->op_changes_data))) {
        level = DL_DELTA_ISOLATION_SNAPSHOT;
    }
    plan->isolation = level;
    bool has_read = tx->is_whole_table_read || tx->read_files.count > 0 || tx->read_parts.n > 0 ||
                    tx->read_preds.n > 0;
    plan->is_blind_append = tx->removes.n == 0 && tx->cdcs.n == 0 && !has_read;
}

/* The lines after commitInfo, protocol and metaData; rt_line (or NULL) is the row tracking
 * domain of the attempt. */
static dl_status
body_lines(dl_delta_tx *tx, const dl_delta_tx_plan *plan, const dl_buf *rt_line, dl_buf *out,
           dl_error *err) {
    int64_t ts = plan->first_attempt_ms;
    const dl_delta_tx_app *apps = tx->apps.items;
    for (size_t i = 0; i < tx->apps.n; i++) {
        DL_TRY(dl_delta_json_txn_line(out, &apps[i], ts, err));
    }
    const dl_delta_tx_domain *domains = tx->domains.items;
    for (size_t i = 0; i < tx->domains.n; i++) {
        DL_TRY(dl_delta_json_domain_line(out, &domains[i], err));
    }
    const dl_delta_tx_file *removes = tx->removes.items;
    for (size_t i = 0; i < tx->removes.n; i++) {
        DL_TRY(dl_delta_json_remove_line(out, &removes[i], ts, err));
    }
    const dl_delta_tx_file *adds = tx->adds.items;
    for (size_t i = 0; i < tx->adds.n; i++) {
        DL_TRY(dl_delta_json_add_line(out, &adds[i], err));
    }
    const dl_delta_tx_file *cdcs = tx->cdcs.items;
    for (size_t i = 0; i < tx->cdcs.n; i++) {
        DL_TRY(dl_delta_json_cdc_line(out, &cdcs[i], err));
    }
    if (rt_line != NULL) {
        DL_TRY(dl_buf_append(out, rt_line->data, rt_line->len, err));
    }
    return DL_OK;
}

/* Built once, unless the commit assigns row ids, whose values depend on the attempt. */
static dl_status
plan_body(dl_delta_tx *tx, dl_delta_tx_plan *plan, dl_error *err) {
    plan->is_row_tracking = dl_delta_rt_is_assigning(plan->protocol, plan->metadata);
    if (plan->is_row_tracking) {
        DL_TRY(dl_delta_rt_plan(tx, &plan->rt_hwm, &plan->rt_floor, err));
        return dl_delta_rt_check_copies(tx, plan->metadata, err);
    }
    return body_lines(tx, plan, NULL, &plan->body, err);
}

static bool
snapshot_has_ict(const dl_delta_snapshot *snap) {
    return dl_delta_md_is_ict(dl_delta_snapshot_metadata(snap)) &&
           dl_delta_protocol_has_feature(dl_delta_snapshot_protocol(snap),
                                         DL_DELTA_FEATURE_IN_COMMIT_TIMESTAMP);
}

static dl_status
plan_build(dl_delta_tx *tx, dl_delta_tx_plan *plan, dl_error *err) {
    plan->first_attempt_ms = tx_now(tx);
    DL_TRY(plan_metadata(tx, plan, err));
    DL_TRY(plan_protocol(tx, plan, err));
    if (dl_delta_rt_is_assigning(plan->protocol, plan->metadata)) {
        DL_TRY(dl_delta_rt_backfill(tx, plan->metadata, err));
    }
    DL_TRY(check_rules(tx, plan, err));
    plan->is_ict =
        dl_delta_md_is_ict(plan->metadata) &&
        dl_delta_protocol_has_feature(plan->protocol, DL_DELTA_FEATURE_IN_COMMIT_TIMESTAMP);
    plan->is_ict_enabling = plan->is_ict && tx->snap != NULL && !snapshot_has_ict(tx->snap);
    plan_isolation(tx, plan);
    return plan_body(tx, plan, err);
}

/* ---- attempts -------------------------------------------------------------------------- */

/* The metaData of an attempt that turns in-commit timestamps on for an existing table. */
static dl_status
ict_enabling_metadata(const dl_delta_tx_plan *plan, int64_t version, int64_t ict, dl_arena *arena,
                      dl_delta_metadata *out, dl_error *err) {
    const dl_delta_metadata *md = plan->metadata;
    dl_delta_kv *conf = dl_arena_alloc_array(arena, (size_t)md->n_configuration + 2, sizeof(*conf));
    char *v = dl_arena_printf(arena, "%lld", (long long)version);
    char *t = dl_arena_printf(arena, "%lld", (long long)ict);
    DL_CHECK(conf != NULL && v != NULL && t != NULL, err, DL_ERR_NOMEM,
             "out of memory building a commit");
    int32_t n = 0;
    for (int32_t i = 0; i < md->n_configuration; i++) {
        const char *key = md->configuration[i].key;
        if (strcmp(key, ICT_VERSION_KEY) != 0 && strcmp(key, ICT_TIMESTAMP_KEY) != 0) {
            conf[n++] = md->configuration[i];
        }
    }
    conf[n++] = (dl_delta_kv){.key = ICT_VERSION_KEY, .value = v};
    conf[n++] = (dl_delta_kv){.key = ICT_TIMESTAMP_KEY, .value = t};
    return dl_delta_metadata_copy(md, conf, n, arena, out, err);
}

/* The body of an attempt that assigns row ids, the table's mark being hwm. */
static dl_status
row_tracking_body(dl_delta_tx *tx, const dl_delta_tx_plan *plan, int64_t version, int64_t hwm,
                  dl_buf *out, dl_error *err) {
    dl_buf rt_line;
    dl_buf_init(&rt_line, tx->alloc);
    dl_status s = dl_delta_rt_assign(tx, version, hwm, plan->rt_floor, &rt_line, err);
    if (s == DL_OK) {
        s = body_lines(tx, plan, &rt_line, out, err);
    }
    dl_buf_destroy(&rt_line);
    return s;
}

static dl_status
attempt_text(dl_delta_tx *tx, const dl_delta_tx_plan *plan, int64_t version, int64_t ict,
             int64_t hwm, dl_arena *scratch, dl_buf *out, dl_error *err) {
    dl_buf_reset(out);
    DL_TRY(dl_delta_json_commit_info_line(out, tx, plan, plan->is_ict ? ict : -1, err));
    if (plan->is_protocol_written) {
        DL_TRY(dl_delta_json_protocol_line(out, plan->protocol, err));
    }
    if (plan->is_ict_enabling) {
        dl_delta_metadata md;
        DL_TRY(ict_enabling_metadata(plan, version, ict, scratch, &md, err));
        DL_TRY(dl_delta_json_metadata_line(out, &md, err));
    } else if (plan->is_metadata_written) {
        DL_TRY(dl_delta_json_metadata_line(out, plan->metadata, err));
    }
    if (plan->is_row_tracking) {
        return row_tracking_body(tx, plan, version, hwm, out, err);
    }
    return dl_buf_append(out, plan->body.data, plan->body.len, err);
}

/* The commit file of version, in scratch; NULL when out of memory. */
static const char *
commit_path(const dl_delta_tx *tx, int64_t version, dl_arena *scratch) {
    char name[32];
    dl_delta_commit_name(version, name);
    return dl_arena_printf(scratch, "%s%s", tx->table->log_dir, name);
}

/* After an I/O error on the put: true when the file at version is this transaction's. */
static bool
is_own_commit(dl_delta_tx *tx, int64_t version, dl_arena *scratch) {
    dl_delta_tx_winner w;
    return dl_delta_tx_winner_read(tx, version, scratch, &w, NULL) == DL_OK &&
           strcmp(w.txn_id, tx->txn_id) == 0;
}

/* The state carried from attempt to attempt. */
typedef struct attempt_state {
    int64_t version;   /* the version to try */
    int64_t prev_ts;   /* the previous commit's timestamp (ICT, or file time) */
    int64_t rt_hwm;    /* the table's rowIdHighWaterMark, winners' included */
    bool is_committed; /* a winner turned out to be our own commit */
} attempt_state;

/* Reads and checks the winners from st->version until a free version. */
static dl_status
resolve_winners(dl_delta_tx *tx, const dl_delta_tx_plan *plan, attempt_state *st, dl_arena *scratch,
                dl_error *err) {
    for (;;) {
        dl_delta_tx_winner w;
        dl_status s = dl_delta_tx_winner_read(tx, st->version, scratch, &w, err);
        if (s == DL_ERR_NOT_FOUND) {
            dl_error_clear(err);
            return DL_OK;
        }
        DL_TRY(s);
        if (strcmp(w.txn_id, tx->txn_id) == 0) {
            st->is_committed = true;
            return DL_OK;
        }
        DL_TRY(dl_delta_tx_winner_check(tx, plan, &w, err));
        st->prev_ts = DL_MAX(st->prev_ts, w.has_ict ? w.ict : w.mtime_ms);
        st->rt_hwm = DL_MAX(st->rt_hwm, w.row_id_hwm);
        st->version++;
    }
}

/* Lost attempts after which a writer retries at once. */
#define SENIOR_LOSSES 5

/*
 * The wait after the lost-th lost attempt in a row: random in [0, backoff_ms x (5 - lost)]
 * (at most max_backoff_ms), so the longer a writer has been losing the sooner it retries, and
 * after 5 losses it retries at once. Writers that lost once wait the longest and let the ones
 * that lost more go first, which makes the order close to first come, first served without
 * any coordination; every wait is short (8 ms with the defaults). Doubling waits (50-150 % of
 * up to 200 ms) did the opposite: writers that never lost took version after version, and with
 * 8 writers appending one commit waited 6.5 s.
 */
static void
back_off(const dl_delta_tx *tx, int32_t lost) {
    if (lost >= SENIOR_LOSSES) {
        return;
    }
    int64_t cap = DL_MIN((int64_t)tx->opts.backoff_ms * (SENIOR_LOSSES - lost),
                         (int64_t)tx->opts.max_backoff_ms);
    uint16_t r = 0;
    if (dl_delta_random_bytes(&r, sizeof(r), NULL) == DL_OK) {
        dl_delta_sleep_ms((cap * (int64_t)r) / 65535);
    } else {
        dl_delta_sleep_ms(cap / 2);
    }
}

/* One put; DL_OK when the version is ours, DL_ERR_EXISTS when it was taken. */
static dl_status
attempt_put(dl_delta_tx *tx, const dl_delta_tx_plan *plan, attempt_state *st, dl_arena *scratch,
            dl_buf *text, int64_t *out_ict, dl_error *err) {
    int64_t now = tx_now(tx);
    int64_t ict = DL_MAX(now, st->prev_ts + 1);
    *out_ict = ict;
    DL_TRY(attempt_text(tx, plan, st->version, ict, st->rt_hwm, scratch, text, err));
    const char *path = commit_path(tx, st->version, scratch);
    DL_CHECK(path != NULL, err, DL_ERR_NOMEM, "out of memory committing version %lld of %s",
             (long long)st->version, tx->table->display);
    dl_status s = dl_store_put_if_absent(tx->table->store, path, text->data, text->len, err);
    if (s == DL_ERR_IO && is_own_commit(tx, st->version, scratch)) {
        dl_error_clear(err);
        return DL_OK;
    }
    return s;
}

static dl_status
run_attempts(dl_delta_tx *tx, const dl_delta_tx_plan *plan, dl_delta_commit_result *res,
             dl_error *err) {
    attempt_state st = {
        .version = tx->read_version + 1, .prev_ts = INT64_MIN + 1, .rt_hwm = plan->rt_hwm};
    if (tx->snap != NULL) {
        st.prev_ts = dl_delta_snapshot_timestamp(tx->snap);
    }
    dl_arena scratch;
    dl_arena_init(&scratch, tx->alloc, 0);
    dl_buf text;
    dl_buf_init(&text, tx->alloc);
    dl_status s = DL_OK;
    int32_t attempt = 0;
    int64_t ict = -1;
    while (attempt < tx->opts.max_attempts) {
        attempt++;
        dl_arena_reset(&scratch);
        s = attempt_put(tx, plan, &st, &scratch, &text, &ict, err);
        if (s != DL_ERR_EXISTS) {
            break;
        }
        dl_error_clear(err);
        s = resolve_winners(tx, plan, &st, &scratch, err);
        if (s != DL_OK || st.is_committed) {
            break;
        }
        s = DL_ERR_EXISTS;
        back_off(tx, attempt);
    }
    dl_buf_destroy(&text);
    dl_arena_destroy(&scratch);
    if (s == DL_ERR_EXISTS) {
        tx->conflict = DL_DELTA_CONFLICT_TOO_MANY_ATTEMPTS;
        dl_error_set(err, DL_ERR_CONFLICT,
                     "%s: ConcurrentWriteException: gave up after %d commit attempts, "
                     "each lost to a concurrent writer (last tried version %lld)",
                     tx->table->display, (int)attempt, (long long)st.version);
        dl_error_hint(err, "Please try the operation again.");
        return DL_ERR_CONFLICT;
    }
    DL_TRY(s);
    res->version = st.version;
    res->attempts = attempt;
    res->has_in_commit_timestamp = plan->is_ict && !st.is_committed;
    res->in_commit_timestamp = plan->is_ict ? ict : -1;
    return DL_OK;
}

/* ---- after the commit ------------------------------------------------------------------ */

static void
post_commit(dl_delta_tx *tx, const dl_delta_tx_plan *plan, dl_delta_commit_result *res) {
    int64_t interval =
        dl_delta_md_int(plan->metadata, "delta.checkpointInterval", DEFAULT_CHECKPOINT_INTERVAL);
    if (interval <= 0) {
        interval = DEFAULT_CHECKPOINT_INTERVAL;
    }
    if (tx->opts.is_post_commit_skipped || res->version == 0 || res->version % interval != 0) {
        return;
    }
    dl_error *e = &res->post_commit_error;
    int64_t now = tx_now(tx);
    dl_delta_checkpoint_info info;
    if (dl_delta_checkpoint_version(tx->table, res->version, now, &info, e) != DL_OK) {
        dl_error_prefix(e, "after commit %lld: checkpoint", (long long)res->version);
        return;
    }
    res->has_checkpoint = true;
    if (!dl_delta_metadata_config_bool(plan->metadata, "delta.enableExpiredLogCleanup", true)) {
        return;
    }
    dl_delta_cleanup_result cleanup;
    memset(&cleanup, 0, sizeof(cleanup));
    if (dl_delta_log_cleanup(tx->table, plan->metadata, now, &cleanup, e) != DL_OK) {
        dl_error_prefix(e, "after commit %lld: log cleanup", (long long)res->version);
    }
    res->n_log_files_deleted = cleanup.n_deleted;
}

dl_status
dl_delta_tx_commit(dl_delta_tx *tx, dl_delta_commit_result *out, dl_error *err) {
    DL_CHECK(tx != NULL, err, DL_ERR_INVALID_ARG, "commit: no transaction");
    DL_CHECK(!tx->is_commit_called, err, DL_ERR_INVALID_ARG,
             "commit: the transaction was already committed (or its commit failed)");
    tx->is_commit_called = true;
    tx->conflict = DL_DELTA_CONFLICT_NONE;
    dl_delta_commit_result local;
    dl_delta_commit_result *res = out != NULL ? out : &local;
    memset(res, 0, sizeof(*res));
    res->version = -1;
    res->in_commit_timestamp = -1;
    dl_error_clear(&res->post_commit_error);
    dl_delta_tx_plan plan;
    memset(&plan, 0, sizeof(plan));
    dl_buf_init(&plan.body, tx->alloc);
    dl_status s = plan_build(tx, &plan, err);
    if (s == DL_OK) {
        s = run_attempts(tx, &plan, res, err);
    }
    if (s == DL_OK) {
        res->timestamp = plan.first_attempt_ms;
        res->isolation = plan.isolation;
        res->is_blind_append = plan.is_blind_append;
        post_commit(tx, &plan, res);
    } else if (s != DL_ERR_CONFLICT && tx->read_version < 0) {
        dl_error_prefix(err, "%s: cannot commit the table's first version", tx->table->display);
    } else if (s != DL_ERR_CONFLICT) {
        dl_error_prefix(err, "%s: cannot commit on top of version %lld", tx->table->display,
                        (long long)tx->read_version);
    }
    dl_buf_destroy(&plan.body);
    return s;
}
