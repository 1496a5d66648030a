/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ALTER TABLE t RENAME COLUMN a TO b and ALTER TABLE t DROP COLUMN[S] [IF EXISTS] (a, s.x, ...)
 * (sql_dml.h), for tables with column mapping (delta_colmap.h): one metaData-only commit. A
 * renamed field keeps its id and physical name, so its data is found under the new name; a
 * dropped field leaves the schema and its data stays in the files, unread (versions before the
 * commit still read it: each version has its own schema). Nested fields are named by their
 * dotted path. commitInfo as Spark writes it: RENAME COLUMN with oldColumnPath and
 * newColumnPath, DROP COLUMNS with columns (a JSON array of the paths, as text).
 *
 * Refused as Delta refuses: both without column mapping (DELTA_UNSUPPORTED_RENAME_COLUMN,
 * DELTA_UNSUPPORTED_DROP_COLUMN), dropping a partition column
 * (DELTA_UNSUPPORTED_DROP_PARTITION_COLUMN), dropping every column
 * (DELTA_DROP_COLUMN_ON_SINGLE_FIELD_SCHEMA), a column a CHECK constraint or a generated
 * column uses (DELTA_CONSTRAINT_DEPENDENT_COLUMN_CHANGE,
 * DELTA_GENERATED_COLUMNS_DEPENDENT_COLUMN_CHANGE; the expressions are searched for the name
 * as a word, which may refuse a change Delta allows but never lets a dependent break).
 */
#include <string.h>

#include "json/json.h"
#include "sql/commands/sql_dml.h"

/* What one path edit does: drop the field, or rename it to new_name. */
typedef struct path_edit {
    const dl_sql_name *path;
    const char *new_name; /* NULL: drop */
    bool is_found;
} path_edit;

/* fields[0..n) with the edit applied at path part depth, into *out / *out_n. */
static dl_status
edit_fields(dl_sql_binder *b, const dl_delta_field *in, int32_t n, path_edit *e, uint32_t depth,
            dl_delta_field **out, int32_t *out_n, dl_error *err) {
    dl_delta_field *fields = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(*fields));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory");
    memcpy(fields, in, (size_t)n * sizeof(*fields));
    *out = fields;
    *out_n = n;
    int32_t k = dl_sql_dml_field_index(in, n, e->path->parts[depth].name);
    if (k < 0) {
        return DL_OK;
    }
    if (depth + 1 == e->path->n_parts) {
        e->is_found = true;
        if (e->new_name == NULL) {
            memmove(&fields[k], &fields[k + 1], (size_t)(n - k - 1) * sizeof(*fields));
            *out_n = n - 1;
        } else {
            fields[k].name = e->new_name;
        }
        return DL_OK;
    }
    if (in[k].type->id != DL_VEC_TYPE_STRUCT) {
        return DL_OK;
    }
    dl_delta_field *kids = NULL;
    int32_t n_kids = 0;
    DL_TRY(edit_fields(b, in[k].children, in[k].n_children, e, depth + 1, &kids, &n_kids, err));
    if (e->is_found && n_kids == 0) {
        DL_SQL_BIND_FAIL(b, e->path->parts[0].loc, DL_ERR_SCHEMA, err,
                         "[DELTA_DROP_COLUMN_ON_SINGLE_FIELD_SCHEMA] Cannot drop column from a "
                         "struct type with a single field: `%s`; drop the struct column instead",
                         in[k].name);
    }
    dl_delta_schema inside;
    DL_TRY(dl_sql_dml_schema_of(b, kids, n_kids, &inside, err));
    fields[k].children = kids;
    fields[k].n_children = n_kids;
    fields[k].type = inside.type;
    return DL_OK;
}

/* The dotted text of a name ("s.x"), in the statement's arena. */
static const char *
path_text(dl_sql_binder *b, const dl_sql_name *path) {
    dl_buf buf;
    dl_buf_init(&buf, b->exec->alloc);
    dl_error ignored;
    dl_status s = DL_OK;
    for (uint32_t i = 0; i < path->n_parts && s == DL_OK; i++) {
        if (i > 0) {
            s = dl_buf_append_byte(&buf, '.', &ignored);
        }
        if (s == DL_OK) {
            s = dl_buf_append(&buf, path->parts[i].name.ptr, path->parts[i].name.len, &ignored);
        }
    }
    char *text = s == DL_OK ? dl_arena_strndup(b->arena, (const char *)buf.data, buf.len) : NULL;
    dl_buf_destroy(&buf);
    return text;
}

/* Whether text holds name as a word (not inside a longer identifier), in any case. */
static bool
mentions(const char *text, dl_str name) {
    size_t n = strlen(text);
    for (size_t i = 0; name.len > 0 && i + name.len <= n; i++) {
        bool is_start =
            i == 0 || !(text[i - 1] == '_' || (text[i - 1] >= '0' && text[i - 1] <= '9') ||
                        ((text[i - 1] | 0x20) >= 'a' && (text[i - 1] | 0x20) <= 'z'));
        char after = text[i + name.len];
        bool is_end = !(after == '_' || (after >= '0' && after <= '9') ||
                        ((after | 0x20) >= 'a' && (after | 0x20) <= 'z'));
        if (is_start && is_end && dl_str_eq_nocase(dl_str_make(text + i, name.len), name)) {
            return true;
        }
    }
    return false;
}

/* A CHECK constraint or generated column that uses path's first part refuses the change. */
static dl_status
check_dependents(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_sql_name *path,
                 const char *what, dl_error *err) {
    const dl_delta_metadata *md = dl_delta_snapshot_metadata(t->snap);
    dl_str name = path->parts[path->n_parts - 1].name;
    for (int32_t i = 0; i < md->n_configuration; i++) {
        const dl_delta_kv *kv = &md->configuration[i];
        if (strncmp(kv->key, "delta.constraints.", 18) == 0 && kv->value != NULL &&
            mentions(kv->value, name)) {
            DL_SQL_BIND_FAIL(b, path->parts[0].loc, DL_ERR_SCHEMA, err,
                             "[DELTA_CONSTRAINT_DEPENDENT_COLUMN_CHANGE] Cannot %s column %s "
                             "because this column is referenced by the following check "
                             "constraint(s): %s -> %s",
                             what, path_text(b, path), kv->key + 18, kv->value);
        }
    }
    const dl_delta_schema *schema = dl_delta_snapshot_schema(t->snap);
    for (int32_t i = 0; i < schema->n_fields; i++) {
        const dl_delta_field *f = &schema->fields[i];
        if (f->generation_expr != NULL && mentions(f->generation_expr, name)) {
            DL_SQL_BIND_FAIL(b, path->parts[0].loc, DL_ERR_SCHEMA, err,
                             "[DELTA_GENERATED_COLUMNS_DEPENDENT_COLUMN_CHANGE] Cannot %s column "
                             "%s because this column is referenced by the following generated "
                             "column(s): %s -> %s",
                             what, path_text(b, path), f->name, f->generation_expr);
        }
    }
    return DL_OK;
}

/* Column mapping is required (name or id mode). */
static dl_status
require_mapping(dl_sql_binder *b, const dl_sql_stmt *stmt, const dl_sql_dml_target *t,
                bool is_rename, dl_error *err) {
    if (dl_delta_snapshot_cm_mode(t->snap) != DL_DELTA_CM_NONE) {
        return DL_OK;
    }
    DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err,
                     "[%s] %s is not supported for your Delta table %s. Please enable Column "
                     "Mapping on your Delta table with mapping mode 'name': ALTER TABLE %s SET "
                     "TBLPROPERTIES ('delta.columnMapping.mode' = 'name')",
                     is_rename ? "DELTA_UNSUPPORTED_RENAME_COLUMN"
                               : "DELTA_UNSUPPORTED_DROP_COLUMN",
                     is_rename ? "Column rename" : "DROP COLUMN", t->display, t->display);
}

/* Spark's analyzer error for a column the table lacks, with the top-level columns offered. */
static dl_status
not_found(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_sql_name *path, dl_error *err) {
    const dl_delta_schema *schema = dl_delta_snapshot_schema(t->snap);
    dl_buf names;
    dl_buf_init(&names, b->exec->alloc);
    dl_status s = DL_OK;
    for (int32_t i = 0; i < schema->n_fields && s == DL_OK; i++) {
        s = dl_buf_appendf(&names, err, "%s`%s`", i > 0 ? ", " : "", schema->fields[i].name);
    }
    if (s == DL_OK) {
        s = dl_sql_binder_fail(b, path->parts[0].loc, DL_ERR_SQL_BIND, err,
                               "[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or "
                               "function parameter with name `%s` cannot be resolved. Did you "
                               "mean one of the following? [%s] (table %s)",
                               path_text(b, path), dl_buf_cstr(&names), t->display);
    }
    dl_buf_destroy(&names);
    return s;
}

static dl_status
commit_schema(dl_sql_binder *b, const dl_sql_dml_target *t, dl_delta_tx *tx,
              const dl_delta_field *fields, int32_t n, const char *const *parts, dl_error *err) {
    dl_delta_schema changed;
    dl_delta_metadata next = *dl_delta_snapshot_metadata(t->snap);
    dl_status s = dl_sql_dml_schema_of(b, fields, n, &changed, err);
    if (s == DL_OK) {
        s = dl_sql_dml_schema_string(b, &changed, &next.schema_string, err);
    }
    if (s == DL_OK && parts != NULL) {
        next.partition_columns = parts;
    }
    if (s == DL_OK) {
        s = dl_delta_tx_set_metadata(tx, &next, err);
    }
    if (s != DL_OK) {
        dl_delta_tx_free(tx);
        return s;
    }
    return dl_sql_dml_commit(tx, NULL, err);
}

/* The partition columns with column `from` renamed to `to` (NULL when none is `from`). */
static const char *const *
renamed_parts(dl_sql_binder *b, const dl_delta_metadata *md, dl_str from, const char *to) {
    const char **parts =
        dl_arena_alloc_zero(b->arena, (size_t)(md->n_partition_columns + 1) * sizeof(char *));
    bool is_changed = false;
    for (int32_t i = 0; parts != NULL && i < md->n_partition_columns; i++) {
        parts[i] = md->partition_columns[i];
        if (dl_str_eq_nocase(dl_str_from_cstr(parts[i]), from)) {
            parts[i] = to;
            is_changed = true;
        }
    }
    return is_changed ? parts : NULL;
}

static dl_status
rename_column(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    dl_sql_dml_target t;
    DL_TRY(dl_sql_dml_open(b, &stmt->u.alter.table, stmt->loc, &t, err));
    DL_TRY(require_mapping(b, stmt, &t, true, err));
    const dl_sql_name *path = &stmt->u.alter.column;
    const dl_sql_ident *to = &stmt->u.alter.new_name;
    const char *new_name = dl_arena_strndup(b->arena, to->name.ptr, to->name.len);
    DL_CHECK(new_name != NULL, err, DL_ERR_NOMEM, "out of memory");
    const dl_delta_schema *old = dl_delta_snapshot_schema(t.snap);
    path_edit e = {.path = path, .new_name = new_name};
    dl_delta_field *fields = NULL;
    int32_t n = 0;
    DL_TRY(edit_fields(b, old->fields, old->n_fields, &e, 0, &fields, &n, err));
    if (!e.is_found) {
        return not_found(b, &t, path, err);
    }
    int32_t twins = 0;
    const dl_delta_field *level = fields;
    int32_t n_level = n;
    for (uint32_t d = 0; d + 1 < path->n_parts; d++) {
        int32_t k = dl_sql_dml_field_index(level, n_level, path->parts[d].name);
        n_level = level[k].n_children;
        level = level[k].children;
    }
    for (int32_t i = 0; i < n_level; i++) {
        twins += dl_str_eq_nocase(dl_str_from_cstr(level[i].name), to->name) ? 1 : 0;
    }
    if (twins > 1) {
        DL_SQL_BIND_FAIL(b, to->loc, DL_ERR_SQL_BIND, err,
                         "[FIELD_ALREADY_EXISTS] Cannot rename column, because `%s` already "
                         "exists in %s (renaming %s)",
                         new_name, t.display, path_text(b, path));
    }
    DL_TRY(check_dependents(b, &t, path, "rename", err));
    const char *const *parts =
        path->n_parts == 1
            ? renamed_parts(b, dl_delta_snapshot_metadata(t.snap), path->parts[0].name, new_name)
            : NULL;
    dl_sql_name new_path = *path;
    dl_sql_ident *np = dl_arena_alloc_zero(b->arena, path->n_parts * sizeof(*np));
    DL_CHECK(np != NULL, err, DL_ERR_NOMEM, "out of memory");
    memcpy(np, path->parts, path->n_parts * sizeof(*np));
    np[path->n_parts - 1].name = to->name;
    new_path.parts = np;
    const char *old_text = path_text(b, path);
    const char *new_text = path_text(b, &new_path);
    DL_CHECK(old_text != NULL && new_text != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(t.table, t.snap, NULL, &tx, err));
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_RENAME_COLUMN);
    dl_status s = dl_delta_tx_param_string(tx, "oldColumnPath", old_text, err);
    if (s == DL_OK) {
        s = dl_delta_tx_param_string(tx, "newColumnPath", new_text, err);
    }
    if (s != DL_OK) {
        dl_delta_tx_free(tx);
        return s;
    }
    return commit_schema(b, &t, tx, fields, n, parts, err);
}

/* The columns parameter: a JSON array of the dropped paths, as text. */
static dl_status
drop_param(dl_sql_binder *b, const char *const *paths, int32_t n, dl_delta_tx *tx, dl_error *err) {
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    dl_json_writer jw;
    dl_json_writer_init(&jw, &text, 0);
    dl_status s = dl_json_writer_begin_array(&jw, err);
    for (int32_t i = 0; s == DL_OK && i < n; i++) {
        s = dl_json_writer_string_cstr(&jw, paths[i], err);
    }
    s = s == DL_OK ? dl_json_writer_end_array(&jw, err) : s;
    s = s == DL_OK ? dl_buf_append_byte(&text, '\0', err) : s;
    s = s == DL_OK ? dl_delta_tx_param_string(tx, "columns", (const char *)text.data, err) : s;
    dl_json_writer_destroy(&jw);
    dl_buf_destroy(&text);
    return s;
}

static dl_status
check_droppable(dl_sql_binder *b, const dl_sql_dml_target *t, const dl_sql_name *path,
                dl_error *err) {
    const dl_delta_metadata *md = dl_delta_snapshot_metadata(t->snap);
    for (int32_t i = 0; path->n_parts == 1 && i < md->n_partition_columns; i++) {
        if (dl_str_eq_nocase(dl_str_from_cstr(md->partition_columns[i]), path->parts[0].name)) {
            DL_SQL_BIND_FAIL(b, path->parts[0].loc, DL_ERR_SCHEMA, err,
                             "[DELTA_UNSUPPORTED_DROP_PARTITION_COLUMN] Dropping partition "
                             "columns (%s) is not allowed (table %s).",
                             md->partition_columns[i], t->display);
        }
    }
    return check_dependents(b, t, path, "drop", err);
}

static dl_status
drop_columns(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    dl_sql_dml_target t;
    DL_TRY(dl_sql_dml_open(b, &stmt->u.alter.table, stmt->loc, &t, err));
    DL_TRY(require_mapping(b, stmt, &t, false, err));
    const dl_delta_schema *old = dl_delta_snapshot_schema(t.snap);
    const dl_sql_name_list *names = &stmt->u.alter.names;
    const dl_delta_field *fields = old->fields;
    int32_t n = old->n_fields;
    const char **paths = dl_arena_alloc_zero(b->arena, (size_t)(names->n + 1) * sizeof(char *));
    DL_CHECK(paths != NULL, err, DL_ERR_NOMEM, "out of memory");
    int32_t n_paths = 0;
    for (uint32_t i = 0; i < names->n; i++) {
        path_edit e = {.path = &names->items[i]};
        dl_delta_field *next = NULL;
        int32_t n_next = 0;
        DL_TRY(edit_fields(b, fields, n, &e, 0, &next, &n_next, err));
        if (!e.is_found && stmt->u.alter.if_exists) {
            continue;
        }
        if (!e.is_found) {
            return not_found(b, &t, &names->items[i], err);
        }
        DL_TRY(check_droppable(b, &t, &names->items[i], err));
        paths[n_paths] = path_text(b, &names->items[i]);
        DL_CHECK(paths[n_paths] != NULL, err, DL_ERR_NOMEM, "out of memory");
        n_paths++;
        fields = next;
        n = n_next;
    }
    if (n_paths == 0) {
        return DL_OK; /* IF EXISTS and none exists: no commit, as Spark */
    }
    if (n - dl_delta_snapshot_metadata(t.snap)->n_partition_columns <= 0) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_SCHEMA, err,
                         "[DELTA_DROP_COLUMN_ON_SINGLE_FIELD_SCHEMA] Cannot drop column from a "
                         "schema with a single data column (table %s)",
                         t.display);
    }
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(t.table, t.snap, NULL, &tx, err));
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_DROP_COLUMNS);
    dl_status s = drop_param(b, paths, n_paths, tx, err);
    if (s != DL_OK) {
        dl_delta_tx_free(tx);
        return s;
    }
    return commit_schema(b, &t, tx, fields, n, NULL, err);
}

dl_status
dl_sql_dml_alter_colmap(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    if (stmt->u.alter.kind == DL_SQL_ALTER_RENAME_COLUMN) {
        return rename_column(b, stmt, err);
    }
    return drop_columns(b, stmt, err);
}
