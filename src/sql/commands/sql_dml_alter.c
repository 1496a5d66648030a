/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ALTER TABLE t SET TBLPROPERTIES ('k' = 'v', ...) and ALTER TABLE t UNSET TBLPROPERTIES [IF
 * EXISTS] ('k', ...) (sql_dml.h): one commit with a new metaData whose configuration is the
 * old one with the keys set or removed (a property that enables a table feature upgrades the
 * protocol through delta_txn). commitInfo as Spark: SET TBLPROPERTIES with
 * operationParameters properties (a JSON object of the keys set), UNSET TBLPROPERTIES with
 * properties (a JSON array of the keys) and ifExists. The properties set are checked as Delta
 * checks them (dl_delta_property_check: known delta.* keys, valid values).
 *
 * ALTER TABLE t ADD COLUMN[S] (c type [COMMENT '..'] [FIRST | AFTER x], ...): one commit with
 * a new metaData whose schema has the columns added (nullable: NOT NULL is refused, as Delta
 * refuses it; every existing column's metadata kept), operation ADD COLUMNS with
 * operationParameters columns as Spark writes them. A timestamp_ntz column upgrades the
 * protocol (delta_txn). Not yet: fields added inside struct columns. RENAME COLUMN and DROP
 * COLUMN[S] are in sql_dml_colmap.c.
 */
#include <stdio.h>
#include <string.h>

#include "json/json.h"
#include "sql/commands/sql_cluster.h"
#include "sql/commands/sql_dml.h"

/* True when props names key (in any case, for a property Delta knows). */
static bool
props_have(const dl_sql_prop_list *props, const char *key) {
    for (uint32_t i = 0; i < props->n; i++) {
        char name[256];
        dl_str_copy_to(props->items[i].key, name, sizeof(name));
        if (dl_str_eq(props->items[i].key, dl_str_from_cstr(key)) ||
            (props->items[i].key.len < sizeof(name) &&
             strcmp(dl_delta_property_name(name), key) == 0)) {
            return true;
        }
    }
    return false;
}

/* A value Delta's check refuses with a plain requirement (no error class): Spark's ALTER TABLE
 * reports it as UNSUPPORTED_TABLE_CHANGE (CREATE TABLE reports the requirement alone). */
static dl_status
unsupported_change(dl_status s, dl_error *err) {
    static const char prefix[] = "[UNSUPPORTED_TABLE_CHANGE] Unsupported table change: ";
    size_t p = sizeof(prefix) - 1;
    char *at = err != NULL ? err->msg : NULL;
    if (at != NULL && strncmp(at, "line ", 5) == 0 && strstr(at, ": ") != NULL) {
        at = strstr(at, ": ") + 2; /* after the location */
    }
    if (at != NULL && *at != '[') {
        size_t room = sizeof(err->msg) - (size_t)(at - err->msg);
        size_t n = strlen(at);
        n = n + p < room ? n : room - p - 1;
        memmove(at + p, at, n);
        memcpy(at, prefix, p);
        at[p + n] = '\0';
    }
    return s;
}

/* The new configuration: the old keys not in props, then props' keys (when is_set), each
 * checked as Delta checks it. */
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
        dl_status s = dl_sql_dml_check_property(b, p, &kv[n], err);
        if (s != DL_OK) {
            return unsupported_change(s, err);
        }
        n++;
    }
    out->configuration = kv;
    out->n_configuration = n;
    return DL_OK;
}

/* operationParameters as Delta's: properties, {"k":"v"} for SET, ["k"] (with ifExists) for
 * UNSET. */
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
        s = dl_delta_tx_param_string(tx, "properties", dl_buf_cstr(&text), err);
    }
    if (s == DL_OK && !is_set) {
        /* Delta's catalog unsets with ifExists true whether IF EXISTS was written or not. */
        s = dl_delta_tx_param_json(tx, "ifExists", "true", err);
    }
    dl_json_writer_destroy(&jw);
    dl_buf_destroy(&text);
    return s;
}

/* Stages next and commits tx when staging its parameters went well (s), else frees it. */
static dl_status
commit_metadata(dl_delta_tx *tx, dl_status s, const dl_delta_metadata *next, dl_error *err) {
    if (s == DL_OK) {
        s = dl_delta_tx_set_metadata(tx, next, err);
    }
    if (s != DL_OK) {
        dl_delta_tx_free(tx);
        return s;
    }
    return dl_sql_dml_commit(tx, NULL, err);
}

/* ---- ADD COLUMNS --------------------------------------------------------------------------- */

/* Whether name is a column of old or one of the columns add[0..n) added before it. */
static bool
is_known_column(const dl_delta_schema *old, const dl_sql_dml_new_col *add, uint32_t n,
                dl_str name) {
    bool found = dl_delta_schema_find(old, name) != NULL;
    for (uint32_t j = 0; j < n && !found; j++) {
        found = dl_str_eq_nocase(dl_str_from_cstr(add[j].field.name), name);
    }
    return found;
}

/* Column i of the list as add[i], checked as Spark's AlterTableAddColumnsDeltaCommand checks
 * it: top-level, nullable, a new name, an existing AFTER column. */
static dl_status
new_column(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_sql_column_def *d,
           dl_sql_dml_new_col *add, uint32_t i, dl_error *err) {
    const dl_delta_schema *old = dl_delta_snapshot_schema(t->snap);
    if (d->name.n_parts > 1) {
        DL_SQL_BIND_FAIL(b, d->loc, DL_ERR_UNSUPPORTED, err,
                         "adding a field to a struct column is not supported yet: add "
                         "top-level columns");
    }
    if (d->is_not_null) {
        DL_SQL_BIND_FAIL(b, d->loc, DL_ERR_UNSUPPORTED, err,
                         "[DELTA_OPERATION_NOT_ALLOWED] NOT NULL in ALTER TABLE ADD COLUMNS is "
                         "not supported for Delta tables: the rows already in %s would hold NULL "
                         "(add the column as nullable)",
                         t->display);
    }
    DL_TRY(dl_sql_dml_column_field(b, d, &add[i].field, err));
    if (is_known_column(old, add, i, dl_str_from_cstr(add[i].field.name))) {
        DL_SQL_BIND_FAIL(b, d->loc, DL_ERR_SQL_BIND, err,
                         "[FIELDS_ALREADY_EXISTS] cannot add column `%s`: it already exists in %s",
                         add[i].field.name, t->display);
    }
    add[i].is_first = d->position == DL_SQL_COLPOS_FIRST;
    if (d->position != DL_SQL_COLPOS_AFTER) {
        return DL_OK;
    }
    dl_str after = d->after.parts[d->after.n_parts - 1].name;
    add[i].after = dl_arena_strndup(b->arena, after.ptr, after.len);
    DL_CHECK(add[i].after != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (d->after.n_parts > 1 || !is_known_column(old, add, i, after)) {
        DL_SQL_BIND_FAIL(b, d->loc, DL_ERR_SQL_BIND, err,
                         "cannot add column `%s` after `%.*s`: %s has no such column",
                         add[i].field.name, DL_STR_FMT(after), t->display);
    }
    return DL_OK;
}

/* The columns to add. */
static dl_status
new_columns(dl_sql_binder *b, const dl_sql_stmt *stmt, const dl_sql_dml_target *t,
            dl_sql_dml_new_col **out, dl_error *err) {
    const dl_sql_column_list *cols = &stmt->u.alter.columns;
    dl_sql_dml_new_col *add = dl_arena_alloc_zero(b->arena, (size_t)(cols->n + 1) * sizeof(*add));
    DL_CHECK(add != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < cols->n; i++) {
        DL_TRY(new_column(b, t, &cols->items[i], add, i, err));
    }
    *out = add;
    return DL_OK;
}

/* A column position as Spark logs it ("FIRST", "AFTER x"), or NULL for none. */
static const char *
position_text(dl_sql_binder *b, bool is_first, const char *after) {
    if (is_first) {
        return "FIRST";
    }
    if (after == NULL) {
        return NULL;
    }
    size_t n = strlen(after) + sizeof("AFTER ");
    char *text = dl_arena_alloc(b->arena, n);
    if (text != NULL) {
        (void)snprintf(text, n, "AFTER %s", after);
    }
    return text;
}

/* "column":{name,type,nullable,metadata}[,"position":"FIRST" | "AFTER x"] into an object of
 * jw: how Spark logs a column with its position (QualifiedColTypeWithPositionForLog). */
static dl_status
column_param(dl_sql_binder *b, dl_json_writer *jw, const dl_delta_field *f, bool is_first,
             const char *after, dl_error *err) {
    dl_str json;
    DL_TRY(dl_sql_dml_field_json(b, f, &json, err));
    DL_TRY(dl_json_writer_key_cstr(jw, "column", err));
    DL_TRY(dl_json_writer_raw(jw, json, err));
    if (!is_first && after == NULL) {
        return DL_OK;
    }
    const char *pos = position_text(b, is_first, after);
    DL_CHECK(pos != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(dl_json_writer_key_cstr(jw, "position", err));
    return dl_json_writer_string_cstr(jw, pos, err);
}

/* operationParameters.columns as Spark writes it: [{"column":{name,type,nullable,metadata}
 * [,"position":"FIRST" | "AFTER x"]}, ...]. */
static dl_status
stage_add_params(dl_sql_binder *b, const dl_sql_dml_new_col *add, int32_t n, dl_delta_tx *tx,
                 dl_error *err) {
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    dl_json_writer jw;
    dl_json_writer_init(&jw, &text, 0);
    dl_status s = dl_json_writer_begin_array(&jw, err);
    for (int32_t i = 0; s == DL_OK && i < n; i++) {
        s = s == DL_OK ? dl_json_writer_begin_object(&jw, err) : s;
        s = s == DL_OK ? column_param(b, &jw, &add[i].field, add[i].is_first, add[i].after, err)
                       : s;
        s = s == DL_OK ? dl_json_writer_end_object(&jw, err) : s;
    }
    s = s == DL_OK ? dl_json_writer_end_array(&jw, err) : s;
    s = s == DL_OK ? dl_delta_tx_param_string(tx, "columns", dl_buf_cstr(&text), err) : s;
    dl_json_writer_destroy(&jw);
    dl_buf_destroy(&text);
    return s;
}

/* ALTER TABLE t ADD COLUMN[S] (c type [COMMENT '..'] [FIRST | AFTER x], ...): a metaData-only
 * commit whose schema has the new nullable columns; files already written read NULL for them. */
static dl_status
add_columns(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    dl_sql_dml_target t;
    DL_TRY(dl_sql_dml_open(b, &stmt->u.alter.table, stmt->loc, &t, err));
    dl_sql_dml_new_col *add = NULL;
    DL_TRY(new_columns(b, stmt, &t, &add, err));
    int32_t n = (int32_t)stmt->u.alter.columns.n;
    dl_delta_schema grown;
    DL_TRY(dl_sql_dml_schema_grow(b, dl_delta_snapshot_schema(t.snap), add, n, &grown, err));
    dl_delta_metadata next = *dl_delta_snapshot_metadata(t.snap);
    DL_TRY(dl_sql_dml_schema_string(b, &grown, &next.schema_string, err));
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(t.table, t.snap, NULL, &tx, err));
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_ADD_COLUMNS);
    return commit_metadata(tx, stage_add_params(b, add, n, tx, err), &next, err);
}

/* ---- ALTER COLUMN ------------------------------------------------------------------------- */

/* The column's new field (COMMENT, DROP NOT NULL, TYPE to its own type), or an error for the
 * changes Delta or deltalite does not make. */
static dl_status
changed_field(dl_sql_binder *b, const dl_sql_stmt *stmt, const dl_sql_dml_target *t,
              const dl_delta_field *f, dl_delta_field *out, dl_error *err) {
    *out = *f;
    switch (stmt->u.alter.change) {
    case DL_SQL_CHANGE_COMMENT:
        return dl_sql_dml_field_comment(b, f, stmt->u.alter.comment, out, err);
    case DL_SQL_CHANGE_DROP_NOT_NULL:
        out->is_nullable = true;
        return DL_OK;
    case DL_SQL_CHANGE_POSITION:
        return DL_OK;
    case DL_SQL_CHANGE_TYPE: {
        const dl_type *to = NULL;
        DL_TRY(dl_sql_binder_type(b, stmt->u.alter.type, &to, err));
        if (dl_vec_type_equal(to, f->type)) {
            return DL_OK;
        }
        return dl_sql_widen_field(b, t, f, to, stmt->loc, out, err);
    }
    case DL_SQL_CHANGE_SET_NOT_NULL:
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err,
                         "[DELTA_OPERATION_NOT_ALLOWED] SET NOT NULL on an existing column of %s "
                         "is not supported: Delta cannot make a nullable column non-nullable",
                         t->display);
    default:
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err,
                         "column defaults (SET / DROP DEFAULT) are not supported yet");
    }
}

/* ALTER TABLE t ALTER | CHANGE COLUMN c (COMMENT '..' | DROP NOT NULL | FIRST | AFTER x |
 * TYPE its type): a metaData-only commit, operation CHANGE COLUMN with Spark's column and
 * position parameters. */
static dl_status
change_column(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    dl_sql_dml_target t;
    DL_TRY(dl_sql_dml_open(b, &stmt->u.alter.table, stmt->loc, &t, err));
    const dl_sql_name *col = &stmt->u.alter.column;
    if (col->n_parts > 1) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err,
                         "changing a field inside a struct column is not supported yet");
    }
    const dl_delta_schema *old = dl_delta_snapshot_schema(t.snap);
    const dl_delta_field *f = dl_delta_schema_find(old, col->parts[0].name);
    if (f == NULL) {
        DL_SQL_BIND_FAIL(b, col->parts[0].loc, DL_ERR_SQL_BIND, err,
                         "[DELTA_COLUMN_NOT_FOUND] %s has no column `%.*s`", t.display,
                         DL_STR_FMT(col->parts[0].name));
    }
    dl_sql_dml_new_col moved = {0};
    DL_TRY(changed_field(b, stmt, &t, f, &moved.field, err));
    int32_t at = (int32_t)(f - old->fields);
    /* The other columns, then the changed one put back where it was or where it goes. */
    dl_delta_field *rest = dl_arena_alloc_zero(b->arena, (size_t)old->n_fields * sizeof(*rest));
    DL_CHECK(rest != NULL, err, DL_ERR_NOMEM, "out of memory");
    memcpy(rest, old->fields, (size_t)at * sizeof(*rest));
    memcpy(rest + at, old->fields + at + 1, (size_t)(old->n_fields - at - 1) * sizeof(*rest));
    dl_delta_schema others;
    DL_TRY(dl_sql_dml_schema_of(b, rest, old->n_fields - 1, &others, err));
    if (stmt->u.alter.change == DL_SQL_CHANGE_POSITION) {
        moved.is_first = stmt->u.alter.position == DL_SQL_COLPOS_FIRST;
        if (!moved.is_first) {
            const dl_sql_name *after = &stmt->u.alter.after;
            dl_str name = after->parts[after->n_parts - 1].name;
            const dl_delta_field *a = dl_delta_schema_find(&others, name);
            if (a == NULL || after->n_parts > 1) {
                DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_SQL_BIND, err,
                                 "cannot move column `%s` after `%.*s`: %s has no other column "
                                 "of that name",
                                 f->name, DL_STR_FMT(name), t.display);
            }
            moved.after = a->name;
        }
    } else if (at > 0) {
        moved.after = old->fields[at - 1].name;
    } else {
        moved.is_first = true;
    }
    dl_delta_schema changed;
    DL_TRY(dl_sql_dml_schema_grow(b, &others, &moved, 1, &changed, err));
    dl_delta_metadata next = *dl_delta_snapshot_metadata(t.snap);
    DL_TRY(dl_sql_dml_schema_string(b, &changed, &next.schema_string, err));
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(t.table, t.snap, NULL, &tx, err));
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_CHANGE_COLUMN);
    /* Spark's parameters: the column's new field as JSON text, and the position when moved. */
    dl_str json;
    dl_delta_field shown = moved.field;
    if (stmt->u.alter.change == DL_SQL_CHANGE_TYPE) {
        shown.metadata = f->metadata; /* Delta's parameter omits the new delta.typeChanges */
    }
    dl_status s = dl_sql_dml_field_json(b, &shown, &json, err);
    s = s == DL_OK ? dl_delta_tx_param_string(tx, "column", json.ptr, err) : s;
    if (s == DL_OK && stmt->u.alter.change == DL_SQL_CHANGE_POSITION) {
        const char *pos = position_text(b, moved.is_first, moved.after);
        s = pos != NULL ? dl_delta_tx_param_string(tx, "position", pos, err)
                        : dl_error_set(err, DL_ERR_NOMEM, "out of memory");
    }
    return commit_metadata(tx, s, &next, err);
}

/* Turning delta.enableRowTracking on for a table with files: Spark's protocol upgrade and
 * backfill commits first (dl_delta_rt_prepare_enable); t then names the latest snapshot. */
static dl_status
prepare_row_tracking(dl_sql_binder *b, const dl_delta_metadata *md, const dl_delta_metadata *next,
                     dl_sql_dml_target *t, dl_error *err) {
    const char *key = "delta.enableRowTracking";
    const char *was = dl_delta_metadata_config(md, key);
    const char *now = dl_delta_metadata_config(next, key);
    if (now == NULL || !dl_str_eq_nocase(dl_str_from_cstr(now), DL_STR("true")) ||
        (was != NULL && dl_str_eq_nocase(dl_str_from_cstr(was), DL_STR("true")))) {
        return DL_OK;
    }
    dl_delta_snapshot *latest = NULL;
    DL_TRY(dl_delta_rt_prepare_enable(t->table, t->snap, &latest, err));
    if (latest == NULL) {
        return DL_OK;
    }
    DL_TRY(dl_sql_hold_snapshot(b, latest, err));
    t->snap = latest;
    return DL_OK;
}

dl_status
dl_sql_dml_alter(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    dl_sql_alter_kind kind = stmt->u.alter.kind;
    if (kind == DL_SQL_ALTER_ADD_COLUMNS) {
        return add_columns(b, stmt, err);
    }
    if (kind == DL_SQL_ALTER_COLUMN) {
        return change_column(b, stmt, err);
    }
    if (kind == DL_SQL_ALTER_RENAME_COLUMN || kind == DL_SQL_ALTER_DROP_COLUMNS) {
        return dl_sql_dml_alter_colmap(b, stmt, err);
    }
    if (kind == DL_SQL_ALTER_ADD_CONSTRAINT || kind == DL_SQL_ALTER_DROP_CONSTRAINT) {
        return dl_sql_dml_alter_constraint(b, stmt, err);
    }
    if (kind == DL_SQL_ALTER_CLUSTER_BY) {
        return dl_sql_cluster_alter(b, stmt, err);
    }
    if (kind != DL_SQL_ALTER_SET_PROPS && kind != DL_SQL_ALTER_UNSET_PROPS) {
        DL_SQL_BIND_FAIL(
            b, stmt->loc, DL_ERR_UNSUPPORTED, err,
            "this ALTER TABLE is not supported yet (SET / UNSET TBLPROPERTIES, ADD "
            "COLUMNS, ALTER COLUMN, RENAME COLUMN, DROP COLUMNS, ADD / DROP CONSTRAINT and "
            "CLUSTER BY are)");
    }
    dl_sql_dml_target t;
    DL_TRY(dl_sql_dml_open(b, &stmt->u.alter.table, stmt->loc, &t, err));
    const dl_delta_metadata *md = dl_delta_snapshot_metadata(t.snap);
    bool is_set = kind == DL_SQL_ALTER_SET_PROPS;
    dl_delta_metadata next = *md;
    DL_TRY(new_config(b, md, &stmt->u.alter.props, is_set, &next, err));
    DL_TRY(prepare_row_tracking(b, md, &next, &t, err));
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(t.table, t.snap, NULL, &tx, err));
    dl_delta_tx_set_operation(tx, is_set ? DL_DELTA_OP_SET_TBLPROPERTIES
                                         : DL_DELTA_OP_UNSET_TBLPROPERTIES);
    return commit_metadata(tx, stage_params(b, stmt, tx, err), &next, err);
}
