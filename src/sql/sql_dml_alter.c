/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ALTER TABLE t SET TBLPROPERTIES ('k' = 'v', ...) and ALTER TABLE t UNSET TBLPROPERTIES [IF
 * EXISTS] ('k', ...) (sql_dml.h): one commit with a new metaData whose configuration is the
 * old one with the keys set or removed (a property that enables a table feature upgrades the
 * protocol through delta_txn). commitInfo as Spark: SET TBLPROPERTIES with
 * operationParameters properties (a JSON object of the keys set), UNSET TBLPROPERTIES with
 * propKeys (a JSON array) and ifExists. The other ALTER TABLE forms are not supported yet.
 */
#include <string.h>

#include "json/json.h"
#include "sql/sql_dml.h"

/* True when props names key. */
static bool
props_have(const dl_sql_prop_list *props, const char *key) {
    for (uint32_t i = 0; i < props->n; i++) {
        if (dl_str_eq(props->items[i].key, dl_str_from_cstr(key))) {
            return true;
        }
    }
    return false;
}

/* The new configuration: the old keys not in props, then props' keys (when is_set). */
static dl_status
new_config(dl_sql_binder *b, const dl_delta_metadata *md, const dl_sql_prop_list *props,
           bool is_set, dl_delta_metadata *out, dl_error *err) {
    size_t cap = (size_t)md->n_configuration + props->n + 1;
    dl_delta_kv *kv = dl_arena_alloc_zero(b->arena, cap * sizeof(dl_delta_kv));
    DL_CHECK(kv != NULL, err, DL_ERR_NOMEM, "out of memory");
    int32_t n = 0;
    for (int32_t i = 0; i < md->n_configuration; i++) {
        if (!props_have(props, md->configuration[i].key)) {
            kv[n++] = md->configuration[i];
        }
    }
    for (uint32_t i = 0; is_set && i < props->n; i++) {
        const dl_sql_prop *p = &props->items[i];
        kv[n].key = dl_arena_strndup(b->arena, p->key.ptr, p->key.len);
        kv[n].value = dl_arena_strndup(b->arena, p->value.ptr, p->value.len);
        DL_CHECK(kv[n].key != NULL && kv[n].value != NULL, err, DL_ERR_NOMEM, "out of memory");
        n++;
    }
    out->configuration = kv;
    out->n_configuration = n;
    return DL_OK;
}

/* operationParameters: properties {"k":"v"} or propKeys ["k"] and ifExists. */
static dl_status
stage_params(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_delta_tx *tx, dl_error *err) {
    const dl_sql_prop_list *props = &stmt->u.alter.props;
    bool is_set = stmt->u.alter.kind == DL_SQL_ALTER_SET_PROPS;
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    dl_json_writer jw;
    dl_json_writer_init(&jw, &text, 0);
    dl_status s =
        is_set ? dl_json_writer_begin_object(&jw, err) : dl_json_writer_begin_array(&jw, err);
    for (uint32_t i = 0; s == DL_OK && i < props->n; i++) {
        const dl_sql_prop *p = &props->items[i];
        if (is_set) {
            s = dl_json_writer_key(&jw, p->key, err);
            s = s == DL_OK ? dl_json_writer_string(&jw, p->value, err) : s;
        } else {
            s = dl_json_writer_string(&jw, p->key, err);
        }
    }
    if (s == DL_OK) {
        s = is_set ? dl_json_writer_end_object(&jw, err) : dl_json_writer_end_array(&jw, err);
    }
    if (s == DL_OK) {
        s = dl_delta_tx_param_string(tx, is_set ? "properties" : "propKeys", dl_buf_cstr(&text),
                                     err);
    }
    if (s == DL_OK && !is_set) {
        s = dl_delta_tx_param_json(tx, "ifExists", stmt->u.alter.if_exists ? "true" : "false", err);
    }
    dl_json_writer_destroy(&jw);
    dl_buf_destroy(&text);
    return s;
}

static dl_status
check_unset(dl_sql_binder *b, const dl_sql_stmt *stmt, const dl_delta_metadata *md,
            const char *display, dl_error *err) {
    const dl_sql_prop_list *props = &stmt->u.alter.props;
    for (uint32_t i = 0; !stmt->u.alter.if_exists && i < props->n; i++) {
        bool found = false;
        for (int32_t j = 0; j < md->n_configuration && !found; j++) {
            found = dl_str_eq(props->items[i].key, dl_str_from_cstr(md->configuration[j].key));
        }
        if (!found) {
            DL_SQL_BIND_FAIL(b, props->items[i].loc, DL_ERR_NOT_FOUND, err,
                             "[UNSET_NONEXISTENT_PROPERTIES] table %s has no property '%.*s' "
                             "(UNSET TBLPROPERTIES IF EXISTS ignores it)",
                             display, DL_STR_FMT(props->items[i].key));
        }
    }
    return DL_OK;
}

dl_status
dl_sql_dml_alter(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    dl_sql_alter_kind kind = stmt->u.alter.kind;
    if (kind != DL_SQL_ALTER_SET_PROPS && kind != DL_SQL_ALTER_UNSET_PROPS) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err,
                         "this ALTER TABLE is not supported yet (only SET / UNSET TBLPROPERTIES)");
    }
    dl_sql_dml_target t;
    DL_TRY(dl_sql_dml_open(b, &stmt->u.alter.table, stmt->loc, &t, err));
    const dl_delta_metadata *md = dl_delta_snapshot_metadata(t.snap);
    bool is_set = kind == DL_SQL_ALTER_SET_PROPS;
    if (!is_set) {
        DL_TRY(check_unset(b, stmt, md, t.display, err));
    }
    dl_delta_metadata next = *md;
    DL_TRY(new_config(b, md, &stmt->u.alter.props, is_set, &next, err));
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(t.table, t.snap, NULL, &tx, err));
    dl_delta_tx_set_operation(tx, is_set ? DL_DELTA_OP_SET_TBLPROPERTIES
                                         : DL_DELTA_OP_UNSET_TBLPROPERTIES);
    dl_status s = stage_params(b, stmt, tx, err);
    if (s == DL_OK) {
        s = dl_delta_tx_set_metadata(tx, &next, err);
    }
    if (s != DL_OK) {
        dl_delta_tx_free(tx);
        return s;
    }
    return dl_sql_dml_commit(tx, NULL, err);
}
