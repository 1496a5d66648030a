/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DESCRIBE [TABLE] [EXTENDED | FORMATTED] t [col] and SHOW PARTITIONS (sql_describe_int.h), in
 * the layout Spark 4.2 with Delta 4.4 gives them (its DescribeTableExec / DescribeColumnExec
 * for a Delta table, checked against Spark: docs/sql.md, "Describing tables").
 *
 *   DESCRIBE t            (col_name, data_type, comment): a row per column (comment NULL when
 *                         none), then for a partitioned table "# Partition Information",
 *                         "# col_name | data_type | comment" and a row per partition column.
 *   ... EXTENDED          (or FORMATTED) then an empty row, "# Detailed Table Information"
 *                         and the rows Catalog (spark_catalog), Namespace and Database (the
 *                         schema; delta for delta.`path`), Table (its name, or the path),
 *                         Type (MANAGED: the warehouse's tables are managed), Comment (the
 *                         table's description, when it has one), Location (as DESCRIBE
 *                         DETAIL shows it: the folder's path, where Spark writes a file: URI),
 *                         Provider (delta), Is_managed_location (true; not for a path) and
 *                         Table Properties ([k=v,...] sorted: what SHOW TBLPROPERTIES lists).
 *   DESCRIBE t col        (info_name, info_value): col_name, data_type, comment (the text
 *                         NULL when none). EXTENDED adds nothing: Spark 4.2 shows no
 *                         statistics for a Delta table's column (Delta reports none to it, and
 *                         ANALYZE is refused on Delta tables). A nested field (s.x) is refused
 *                         with Spark's message.
 *   SHOW PARTITIONS t [PARTITION (k = v, ...)]
 *                         a column per partition column, of its type, and a row per distinct
 *                         partition of the live files (those matching the clause), sorted, as
 *                         Delta 4.4; a table without partitions is
 *                         DELTA_SHOW_PARTITION_IN_NON_PARTITIONED_TABLE.
 */
#include <stdlib.h>
#include <string.h>

#include "sql/bind/sql_describe_int.h"

/* ---- rows of three strings ------------------------------------------------------------------ */

dl_status
dl_sql_desc_add_row(dl_sql_desc_rows *r, const char *a, const char *b, const char *c,
                    dl_error *err) {
    if (r->n == r->cap) {
        int64_t cap = r->cap == 0 ? 32 : 2 * r->cap;
        const char **grown = dl_arena_alloc_zero(r->b->arena, (size_t)(3 * cap) * sizeof(char *));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory describing a table");
        if (r->n > 0) {
            memcpy(grown, r->v, (size_t)(3 * r->n) * sizeof(char *));
        }
        r->v = grown;
        r->cap = cap;
    }
    r->v[3 * r->n] = a;
    r->v[3 * r->n + 1] = b;
    r->v[3 * r->n + 2] = c;
    r->n++;
    return DL_OK;
}

static dl_status
type_text(dl_sql_binder *b, const dl_type *type, const char **out, dl_error *err) {
    dl_buf buf;
    dl_buf_init(&buf, b->exec->alloc);
    dl_status s = dl_vec_type_to_string(type, &buf, err);
    *out = s == DL_OK ? dl_arena_strndup(b->arena, (const char *)buf.data, buf.len) : NULL;
    dl_buf_destroy(&buf);
    DL_TRY(s);
    DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory describing a table");
    return DL_OK;
}

dl_status
dl_sql_desc_add_column(dl_sql_desc_rows *r, const dl_delta_field *f, const char *comment,
                       dl_error *err) {
    const char *type = NULL;
    DL_TRY(type_text(r->b, f->type, &type, err));
    return dl_sql_desc_add_row(r, f->name, type, comment, err);
}

/* ---- DESCRIBE t [EXTENDED] --------------------------------------------------------------------
 */

const char *
dl_sql_props_text(dl_sql_binder *b, const char *const *keys, const char *const *values, int64_t n,
                  const char *sep) {
    const char **entries = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(char *));
    for (int64_t i = 0; entries != NULL && i < n; i++) {
        entries[i] = dl_arena_printf(b->arena, "%s=%s", keys[i], values[i] ? values[i] : "");
        if (entries[i] == NULL) {
            return NULL;
        }
    }
    if (entries == NULL) {
        return NULL;
    }
    qsort((void *)entries, (size_t)n, sizeof(char *), dl_sql_cmp_cstr);
    const char *text = "[";
    for (int64_t i = 0; i < n && text != NULL; i++) {
        text = dl_arena_printf(b->arena, "%s%s%s", text, i > 0 ? sep : "", entries[i]);
    }
    return text != NULL ? dl_arena_printf(b->arena, "%s]", text) : NULL;
}

/* "[k=v,...]": the properties SHOW TBLPROPERTIES lists, as Spark's DescribeTableExec joins them. */
static dl_status
properties_text(dl_sql_binder *b, const dl_delta_snapshot *snap, const char **out, dl_error *err) {
    const char **keys = NULL;
    const char **values = NULL;
    int64_t n = 0;
    DL_TRY(dl_sql_table_properties(b, snap, &keys, &values, &n, err));
    *out = dl_sql_props_text(b, keys, values, n, ",");
    DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory describing a table");
    return DL_OK;
}

/* The detail rows Spark 4.2 gives a Delta table (its DescribeTableExec over DeltaTableV2). */
static dl_status
add_details(dl_sql_desc_rows *r, const dl_delta_snapshot *snap, const dl_sql_name *n,
            const char *display, dl_error *err) {
    const dl_delta_metadata *md = dl_delta_snapshot_metadata(snap);
    const char *location = dl_sql_snapshot_location(r->b, snap);
    const char *props = NULL;
    DL_CHECK(location != NULL, err, DL_ERR_NOMEM, "out of memory describing a table");
    DL_TRY(properties_text(r->b, snap, &props, err));
    bool is_path = dl_sql_name_is_path(n);
    const char *schema = is_path ? "delta" : dl_sql_name_schema(r->b, n);
    DL_TRY(dl_sql_desc_add_row(r, "", "", "", err));
    DL_TRY(dl_sql_desc_add_row(r, "# Detailed Table Information", "", "", err));
    DL_TRY(dl_sql_desc_add_row(r, "Catalog", "spark_catalog", "", err));
    DL_TRY(dl_sql_desc_add_row(r, "Namespace", schema, "", err));
    DL_TRY(dl_sql_desc_add_row(r, "Database", schema, "", err));
    DL_TRY(dl_sql_desc_add_row(r, "Table", is_path ? n->parts[1].name.ptr : display, "", err));
    DL_TRY(dl_sql_desc_add_row(r, "Type", "MANAGED", "", err));
    if (md->description != NULL) {
        DL_TRY(dl_sql_desc_add_row(r, "Comment", md->description, "", err));
    }
    DL_TRY(dl_sql_desc_add_row(r, "Location", location, "", err));
    DL_TRY(dl_sql_desc_add_row(r, "Provider", "delta", "", err));
    if (!is_path) {
        DL_TRY(dl_sql_desc_add_row(r, "Is_managed_location", "true", "", err));
    }
    return dl_sql_desc_add_row(r, "Table Properties", props, "", err);
}

static dl_status
describe_columns(dl_sql_desc_rows *r, const dl_delta_snapshot *snap, dl_error *err) {
    const dl_delta_schema *schema = dl_delta_snapshot_schema(snap);
    for (int32_t i = 0; i < schema->n_fields; i++) {
        DL_TRY(dl_sql_desc_add_column(r, &schema->fields[i], schema->fields[i].comment, err));
    }
    int32_t n_part = dl_delta_snapshot_partition_count(snap);
    if (n_part == 0) {
        return DL_OK;
    }
    DL_TRY(dl_sql_desc_add_row(r, "# Partition Information", "", "", err));
    DL_TRY(dl_sql_desc_add_row(r, "# col_name", "data_type", "comment", err));
    for (int32_t i = 0; i < n_part; i++) {
        const dl_delta_field *f = dl_delta_snapshot_partition_field(snap, i);
        DL_TRY(dl_sql_desc_add_column(r, f, f->comment, err));
    }
    return DL_OK;
}

/* ---- DESCRIBE t col ------------------------------------------------------------------------- */

/* "`a`, `b`, ..." : the columns of schema, for the message of a column not found. */
static const char *
column_list(dl_sql_binder *b, const dl_delta_schema *schema) {
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    dl_error ignored;
    for (int32_t i = 0; i < schema->n_fields; i++) {
        if (dl_buf_appendf(&text, &ignored, "%s`%s`", i > 0 ? ", " : "", schema->fields[i].name) !=
            DL_OK) {
            break;
        }
    }
    const char *out = dl_arena_strndup(b->arena, (const char *)text.data, text.len);
    dl_buf_destroy(&text);
    return out != NULL ? out : "";
}

dl_status
dl_sql_describe_field(dl_sql_binder *b, const dl_sql_stmt *stmt, const dl_delta_schema *schema,
                      const dl_delta_field *f, const char *comment, const char *display,
                      dl_sql_plan **out, dl_error *err) {
    static const char *const names[] = {"info_name", "info_value"};
    const dl_sql_name *col = &stmt->u.describe_table.column;
    if (col->n_parts > 1) {
        DL_SQL_BIND_FAIL(b, col->parts[0].loc, DL_ERR_UNSUPPORTED, err,
                         "DESC TABLE COLUMN does not support nested column: %s.",
                         dl_sql_name_text(b, col));
    }
    if (f == NULL) {
        DL_SQL_BIND_FAIL(b, col->parts[0].loc, DL_ERR_SQL_BIND, err,
                         "[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function "
                         "parameter with name `%.*s` cannot be resolved in %s, whose columns "
                         "are %s",
                         DL_STR_FMT(col->parts[0].name), display, column_list(b, schema));
    }
    const char *type = NULL;
    DL_TRY(type_text(b, f->type, &type, err));
    /* Spark 4.2 shows no statistics rows for a Delta table's column, EXTENDED or not. */
    const char *v[6] = {"col_name", f->name,   "data_type",
                        type,       "comment", comment != NULL ? comment : "NULL"};
    return dl_sql_plan_strings(b, names, 2, v, 3, out, err);
}

/* ---- the statement ---------------------------------------------------------------------------
 */

dl_status
dl_sql_binder_describe_table(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out,
                             dl_error *err) {
    static const char *const names[] = {"col_name", "data_type", "comment"};
    const dl_sql_name *n = &stmt->u.describe_table.table;
    const dl_sql_view *view = NULL;
    DL_TRY(dl_sql_binder_find_view(b, n, true, &view, err));
    if (view != NULL) {
        return dl_sql_describe_view(b, view, stmt, out, err);
    }
    dl_delta_snapshot *snap = NULL;
    const char *display = NULL;
    DL_TRY(dl_sql_open_snapshot(b, n, n->parts[0].loc, &stmt->u.describe_table.tt, &snap, &display,
                                err));
    if (stmt->u.describe_table.has_column) {
        const dl_delta_schema *schema = dl_delta_snapshot_schema(snap);
        const dl_delta_field *f =
            dl_delta_schema_find(schema, stmt->u.describe_table.column.parts[0].name);
        return dl_sql_describe_field(b, stmt, schema, f, f != NULL ? f->comment : NULL, display,
                                     out, err);
    }
    dl_sql_desc_rows r = {.b = b};
    DL_TRY(describe_columns(&r, snap, err));
    if (stmt->u.describe_table.is_extended) {
        DL_TRY(add_details(&r, snap, n, display, err));
    }
    return dl_sql_plan_strings(b, names, 3, r.v, r.n, out, err);
}

/* ---- SHOW PARTITIONS ------------------------------------------------------------------------ */

/* `p` = (value) for each column of the PARTITION clause, which must name partition columns
 * with a value (Delta's DELTA_NON_PARTITION_COLUMN_SPECIFIED otherwise). */
static dl_status
put_spec(dl_sql_binder *b, const dl_sql_partition_spec *spec, const dl_delta_snapshot *snap,
         const char *name, dl_buf *q, dl_error *err) {
    for (uint32_t i = 0; i < spec->n; i++) {
        const dl_sql_partition_value *pv = &spec->items[i];
        bool is_part = false;
        for (int32_t k = 0; k < dl_delta_snapshot_partition_count(snap) && !is_part; k++) {
            is_part =
                dl_str_eq_nocase(dl_str_from_cstr(dl_delta_snapshot_partition_field(snap, k)->name),
                                 pv->column.name);
        }
        if (!is_part) {
            DL_SQL_BIND_FAIL(b, pv->column.loc, DL_ERR_SQL_BIND, err,
                             "[DELTA_NON_PARTITION_COLUMN_SPECIFIED] Non-partitioning column(s) "
                             "`%.*s` are specified where only partitioning columns are expected: "
                             "SHOW PARTITIONS %s",
                             DL_STR_FMT(pv->column.name), name);
        }
        if (pv->value == NULL) {
            DL_SQL_BIND_FAIL(b, pv->column.loc, DL_ERR_SQL_SYNTAX, err,
                             "SHOW PARTITIONS %s: partition column `%.*s` needs a value", name,
                             DL_STR_FMT(pv->column.name));
        }
        DL_TRY(dl_buf_append_cstr(q, i == 0 ? " WHERE " : " AND ", err));
        DL_TRY(dl_sql_put_ident(q, pv->column.name.ptr, err));
        DL_TRY(dl_buf_append_cstr(q, " = (", err));
        DL_TRY(dl_sql_expr_print(pv->value, q, err));
        DL_TRY(dl_buf_append_byte(q, ')', err));
    }
    return DL_OK;
}

/* The query SHOW PARTITIONS runs: the distinct partition values of the live files, sorted. */
static dl_status
partitions_query(dl_sql_binder *b, const dl_sql_stmt *stmt, const dl_sql_name *n,
                 const dl_delta_snapshot *snap, const char *name, dl_buf *q, dl_error *err) {
    int32_t n_part = dl_delta_snapshot_partition_count(snap);
    DL_TRY(dl_buf_append_cstr(q, "SELECT DISTINCT ", err));
    for (int32_t i = 0; i < n_part; i++) {
        DL_TRY(dl_buf_append_cstr(q, i > 0 ? ", " : "", err));
        DL_TRY(dl_sql_put_ident(q, dl_delta_snapshot_partition_field(snap, i)->name, err));
    }
    DL_TRY(dl_buf_append_cstr(q, " FROM ", err));
    if (dl_sql_name_is_path(n)) {
        DL_TRY(dl_buf_append_cstr(q, "delta.", err));
        DL_TRY(dl_sql_put_ident(q, n->parts[1].name.ptr, err));
    } else {
        DL_TRY(dl_sql_put_ident(q, dl_sql_name_schema(b, n), err));
        DL_TRY(dl_buf_append_byte(q, '.', err));
        DL_TRY(dl_sql_put_ident(q, n->parts[n->n_parts - 1].name.ptr, err));
    }
    DL_TRY(put_spec(b, &stmt->u.show.partition, snap, name, q, err));
    for (int32_t i = 0; i < n_part; i++) {
        DL_TRY(dl_buf_append_cstr(q, i > 0 ? ", " : " ORDER BY ", err));
        DL_TRY(dl_sql_put_ident(q, dl_delta_snapshot_partition_field(snap, i)->name, err));
    }
    return DL_OK;
}

dl_status
dl_sql_show_partitions(dl_sql_binder *b, const dl_sql_stmt *stmt, const dl_sql_name *n,
                       const dl_delta_snapshot *snap, const char *display, dl_sql_plan **out,
                       dl_error *err) {
    const char *name = dl_sql_table_display_name(b, n, display);
    DL_CHECK(name != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (dl_delta_snapshot_partition_count(snap) == 0) {
        DL_SQL_BIND_FAIL(b, n->parts[0].loc, DL_ERR_SQL_BIND, err,
                         "[DELTA_SHOW_PARTITION_IN_NON_PARTITIONED_TABLE] SHOW PARTITIONS is not "
                         "allowed on a table that is not partitioned: %s",
                         name);
    }
    dl_buf q;
    dl_buf_init(&q, b->exec->alloc);
    dl_status s = partitions_query(b, stmt, n, snap, name, &q, err);
    const char *text = s == DL_OK ? dl_arena_strndup(b->arena, (const char *)q.data, q.len) : NULL;
    dl_buf_destroy(&q);
    DL_TRY(s);
    DL_CHECK(text != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_sql_stmt *query = NULL;
    DL_TRY(dl_sql_parse_stmt(b->arena, text, strlen(text), &query, err));
    const char *saved = b->text;
    size_t saved_len = b->text_len;
    b->text = text;
    b->text_len = strlen(text);
    s = dl_sql_binder_query(b, query->u.query, NULL, out, err);
    b->text = saved;
    b->text_len = saved_len;
    if (s != DL_OK) {
        dl_error_prefix(err, "SHOW PARTITIONS %s: ", name);
    }
    return s;
}
