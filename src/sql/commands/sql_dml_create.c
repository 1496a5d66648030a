/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CREATE [OR REPLACE] TABLE [IF NOT EXISTS] t [(columns)] [USING delta] [PARTITIONED BY (..)]
 * [COMMENT '..'] [TBLPROPERTIES (..)] [AS query], and REPLACE TABLE (sql_dml.h).
 *
 * The table is the warehouse folder the catalog names (dl_sql_catalog.table_location), or the
 * folder of a path name (delta.`/path`, dl_sql_catalog.path_store; isManaged false); it
 * exists when its log has a version. Columns come from the column list (NOT NULL kept) or
 * from the query (every column nullable, as Spark's CTAS makes them). The commit is version
 * 0 (or the next version for a replace) with protocol, metaData and, for AS SELECT, the adds
 * of the query's rows; operations "CREATE TABLE", "CREATE TABLE AS SELECT", "CREATE OR
 * REPLACE TABLE [AS SELECT]", "REPLACE TABLE [AS SELECT]" as delta_txn chooses them.
 */
#include <string.h>

#include "sql/bind/sql_describe_int.h"
#include "sql/commands/sql_cluster.h"
#include "sql/commands/sql_dml.h"

typedef struct create_ctx {
    dl_sql_dml_target t;
    dl_delta_schema ds; /* the table's schema (t.schema is its type) */
    bool is_path;       /* named delta.`/path`: not in the warehouse (isManaged false) */
    dl_delta_create_spec spec;
    dl_sql_plan *query;        /* conformed rows for AS SELECT, or NULL */
    const char **cluster_cols; /* CLUSTER BY (sql_cluster.c), or NULL */
    const char *schema_name;
    const char *table_name;
} create_ctx;

static const char *
ident_text(dl_sql_binder *b, dl_str s) {
    return dl_arena_strndup(b->arena, s.ptr, s.len);
}

/* The store and folder of a table named by path (delta.`/path`). */
static dl_status
path_location(dl_sql_binder *b, const dl_sql_stmt *stmt, create_ctx *c, dl_error *err) {
    const dl_sql_name *name = &stmt->u.create_table.name;
    dl_sql_catalog *cat = &b->session->catalog;
    const char *path = ident_text(b, name->parts[1].name);
    DL_CHECK(path != NULL, err, DL_ERR_NOMEM, "out of memory");
    c->table_name = dl_arena_printf(b->arena, "delta.`%s`", path);
    DL_CHECK(c->table_name != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_status s = cat->path_store != NULL ? cat->path_store(cat->ctx, path, &c->t.store, err)
                                          : dl_error_set(err, DL_ERR_UNSUPPORTED, "no catalog");
    if (s != DL_OK) {
        dl_sql_binder_locate(b, name->parts[1].loc, err);
        return s;
    }
    c->t.root = "";
    return DL_OK;
}

/* The warehouse folder of a table named schema.name. */
static dl_status
named_location(dl_sql_binder *b, const dl_sql_stmt *stmt, create_ctx *c, dl_error *err) {
    const dl_sql_name *name = &stmt->u.create_table.name;
    dl_sql_catalog *cat = &b->session->catalog;
    c->schema_name = name->n_parts == 2 ? ident_text(b, name->parts[0].name) : NULL;
    c->table_name = ident_text(b, name->parts[name->n_parts - 1].name);
    DL_CHECK(c->table_name != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_buf path;
    dl_buf_init(&path, b->exec->alloc);
    dl_status s = cat->table_location(cat->ctx, c->schema_name, c->table_name, &path, err);
    const char *root = s == DL_OK ? ident_text(b, dl_buf_view(&path)) : NULL;
    dl_buf_destroy(&path);
    if (s != DL_OK) {
        dl_sql_binder_locate(b, stmt->loc, err);
        return s;
    }
    DL_CHECK(root != NULL, err, DL_ERR_NOMEM, "out of memory");
    c->t.store = b->session->store;
    c->t.root = root;
    return DL_OK;
}

/* Opens the folder (by name in the warehouse, or by path) and loads its latest snapshot when
 * the table exists. */
static dl_status
open_location(dl_sql_binder *b, const dl_sql_stmt *stmt, create_ctx *c, dl_error *err) {
    const dl_sql_name *name = &stmt->u.create_table.name;
    c->is_path = name->n_parts == 2 && name->parts[1].is_quoted &&
                 dl_str_eq_nocase(name->parts[0].name, DL_STR("delta"));
    if (stmt->u.create_table.has_location) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err,
                         "CREATE TABLE ... LOCATION is not supported: deltalite has no metastore "
                         "to remember where a named table lives; create it by its path instead, "
                         "CREATE TABLE delta.`/the/location` (...), and read it as "
                         "delta.`/the/location`");
    }
    if (name->n_parts > 2 || b->session->catalog.table_location == NULL) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err,
                         "CREATE TABLE takes a name (table or schema.table) or a path "
                         "(delta.`/path`)");
    }
    DL_TRY(c->is_path ? path_location(b, stmt, c, err) : named_location(b, stmt, c, err));
    c->t.display = c->table_name;
    DL_TRY(dl_delta_table_open(c->t.store, c->t.root, b->exec->alloc, &c->t.table, err));
    DL_TRY(dl_sql_dml_hold_table(b, c->t.table, err));
    dl_status s = dl_delta_snapshot_latest(c->t.table, NULL, &c->t.snap, err);
    if (s == DL_ERR_NOT_FOUND) {
        c->t.snap = NULL;
        dl_error_clear(err);
        return DL_OK;
    }
    DL_TRY(s);
    return dl_sql_hold_snapshot(b, c->t.snap, err);
}

/* The schema of the column list (comments kept). */
static dl_status
columns_from_defs(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_delta_schema *out, dl_error *err) {
    const dl_sql_column_list *cols = &stmt->u.create_table.columns;
    dl_delta_field *fields = dl_arena_alloc_zero(b->arena, (size_t)(cols->n + 1) * sizeof(*fields));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < cols->n; i++) {
        const dl_sql_column_def *d = &cols->items[i];
        DL_TRY(dl_sql_dml_column_field(b, d, &fields[i], err));
        for (uint32_t j = 0; j < i; j++) {
            if (dl_str_eq_nocase(dl_str_from_cstr(fields[j].name),
                                 dl_str_from_cstr(fields[i].name))) {
                DL_SQL_BIND_FAIL(b, d->loc, DL_ERR_SQL_BIND, err,
                                 "[COLUMN_ALREADY_EXISTS] the column `%s` already exists",
                                 fields[i].name);
            }
        }
    }
    return dl_sql_dml_schema_of(b, fields, (int32_t)cols->n, out, err);
}

static dl_status
columns_from_query(dl_sql_binder *b, const dl_sql_plan *q, uint32_t loc, const dl_type **out,
                   dl_error *err) {
    dl_type_field *fields =
        dl_arena_alloc_zero(b->arena, (size_t)(q->n_cols + 1) * sizeof(*fields));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < q->n_cols; i++) {
        fields[i] = q->schema->fields[i];
        fields[i].is_nullable = true;
        dl_type_id id = fields[i].type->id;
        if (id == DL_VEC_TYPE_NULL || id == DL_VEC_TYPE_INTERVAL_DT ||
            id == DL_VEC_TYPE_INTERVAL_YM) {
            DL_SQL_BIND_FAIL(b, loc, DL_ERR_SCHEMA, err,
                             "column '%s' of the query is of type %s, which a Delta table cannot "
                             "store: cast it",
                             fields[i].name, dl_vec_type_name(id));
        }
        for (int32_t j = 0; j < i; j++) {
            if (dl_str_eq_nocase(dl_str_from_cstr(fields[j].name),
                                 dl_str_from_cstr(fields[i].name))) {
                DL_SQL_BIND_FAIL(b, loc, DL_ERR_SCHEMA, err,
                                 "[COLUMN_ALREADY_EXISTS] the query gives the column `%s` twice: "
                                 "name the columns with AS",
                                 fields[i].name);
            }
        }
    }
    return dl_vec_type_struct(b->arena, fields, q->n_cols, out, err);
}

static dl_status
partition_columns(dl_sql_binder *b, const dl_sql_stmt *stmt, create_ctx *c, dl_error *err) {
    const dl_sql_ident_list *parts = &stmt->u.create_table.partitioned_by;
    const char **names = dl_arena_alloc_zero(b->arena, (size_t)(parts->n + 1) * sizeof(char *));
    DL_CHECK(names != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < parts->n; i++) {
        int32_t col = -1;
        for (int32_t f = 0; f < c->t.schema->n_fields && col < 0; f++) {
            if (dl_str_eq_nocase(dl_str_from_cstr(c->t.schema->fields[f].name),
                                 parts->items[i].name)) {
                col = f;
            }
        }
        if (col < 0) {
            DL_SQL_BIND_FAIL(b, parts->items[i].loc, DL_ERR_SQL_BIND, err,
                             "partition column '%.*s' is not a column of the table",
                             DL_STR_FMT(parts->items[i].name));
        }
        names[i] = c->t.schema->fields[col].name;
    }
    c->t.parts = names;
    c->t.n_parts = (int32_t)parts->n;
    return DL_OK;
}

static dl_status
properties(dl_sql_binder *b, const dl_sql_stmt *stmt, create_ctx *c, dl_error *err) {
    const dl_sql_prop_list *props = &stmt->u.create_table.props;
    dl_delta_kv *kv = dl_arena_alloc_zero(b->arena, (size_t)(props->n + 1) * sizeof(*kv));
    DL_CHECK(kv != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < props->n; i++) {
        kv[i].key = ident_text(b, props->items[i].key);
        kv[i].value = ident_text(b, props->items[i].value);
        DL_CHECK(kv[i].key != NULL && kv[i].value != NULL, err, DL_ERR_NOMEM, "out of memory");
        DL_TRY(dl_sql_dml_check_property(b, &props->items[i], &kv[i], err));
    }
    c->spec.configuration = kv;
    c->spec.n_configuration = (int32_t)props->n;
    return DL_OK;
}

/* The spec, the schema and (AS SELECT) the rows. */
static dl_status
plan_create(dl_sql_binder *b, const dl_sql_stmt *stmt, create_ctx *c, dl_error *err) {
    dl_sql_plan *q = NULL;
    if (stmt->u.create_table.as_query != NULL) {
        DL_TRY(dl_sql_binder_query(b, stmt->u.create_table.as_query, NULL, &q, err));
    }
    if (stmt->u.create_table.columns.n > 0) {
        DL_TRY(columns_from_defs(b, stmt, &c->ds, err));
        c->t.schema = c->ds.type;
    } else if (q != NULL) {
        DL_TRY(columns_from_query(b, q, stmt->loc, &c->t.schema, err));
        DL_TRY(dl_delta_schema_from_type(c->t.schema, b->arena, &c->ds, err));
    } else {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_SQL_BIND, err,
                         "CREATE TABLE %s needs columns or AS SELECT", c->table_name);
    }
    DL_TRY(partition_columns(b, stmt, c, err));
    DL_TRY(properties(b, stmt, c, err));
    if (stmt->u.create_table.cluster_by.n > 0) {
        c->spec.n_partition_columns = c->t.n_parts;
        DL_TRY(dl_sql_cluster_create(b, &stmt->u.create_table.cluster_by, c->t.schema,
                                     c->table_name, &c->spec, &c->cluster_cols, err));
    }
    if (q != NULL) {
        int32_t n = c->t.schema->n_fields;
        if (q->n_cols != n) {
            DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_SCHEMA, err,
                             "the table has %d columns but the query gives %d", n, q->n_cols);
        }
        int32_t *map = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(int32_t));
        DL_CHECK(map != NULL, err, DL_ERR_NOMEM, "out of memory");
        for (int32_t i = 0; i < n; i++) {
            map[i] = i;
        }
        DL_TRY(dl_sql_dml_conform(b, &c->t, q, map, stmt->loc, &c->query, err));
    }
    return DL_OK;
}

static dl_status
check_existence(dl_sql_binder *b, const dl_sql_stmt *stmt, create_ctx *c, bool *out_skip,
                dl_error *err) {
    bool exists = c->t.snap != NULL;
    *out_skip = false;
    const dl_sql_name *n = &stmt->u.create_table.name;
    const dl_sql_view *view = NULL;
    if (!exists && !dl_sql_name_is_path(n)) {
        DL_TRY(dl_sql_binder_find_view(b, n, false, &view, err));
    }
    if (view != NULL && stmt->u.create_table.if_not_exists) {
        *out_skip = true;
        return DL_OK;
    }
    if (view != NULL) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_EXISTS, err,
                         "[TABLE_OR_VIEW_ALREADY_EXISTS] cannot create table %s: a view of that "
                         "name exists (DROP VIEW it first)",
                         c->table_name);
    }
    if (stmt->u.create_table.is_replace && !exists) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_NOT_FOUND, err,
                         "[TABLE_OR_VIEW_NOT_FOUND] cannot replace table %s: it does not exist",
                         c->table_name);
    }
    if (!exists || stmt->u.create_table.or_replace || stmt->u.create_table.is_replace) {
        c->spec.mode = !exists                           ? DL_DELTA_CREATE
                       : stmt->u.create_table.is_replace ? DL_DELTA_REPLACE
                                                         : DL_DELTA_CREATE_OR_REPLACE;
        return DL_OK;
    }
    if (stmt->u.create_table.if_not_exists) {
        *out_skip = true;
        return DL_OK;
    }
    DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_EXISTS, err,
                     "[TABLE_OR_VIEW_ALREADY_EXISTS] cannot create table %s: it already exists",
                     c->table_name);
}

dl_status
dl_sql_dml_create_target(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_dml_new_table *out,
                         dl_error *err) {
    create_ctx *c = dl_arena_alloc_zero(b->arena, sizeof(*c));
    DL_CHECK(c != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(open_location(b, stmt, c, err));
    DL_TRY(check_existence(b, stmt, c, &out->is_skipped, err));
    out->t = c->t;
    out->is_path = c->is_path;
    out->mode = c->spec.mode;
    return DL_OK;
}

/* A replace AS SELECT removes every live file; Delta records numRemovedFiles and
 * numRemovedBytes with the write's metrics, as for INSERT OVERWRITE. */
static dl_status
replace_metrics(const create_ctx *c, dl_delta_tx *tx, dl_error *err) {
    if (c->spec.mode == DL_DELTA_CREATE || c->t.snap == NULL) {
        return DL_OK;
    }
    int64_t n_bytes = 0;
    size_t n = dl_delta_snapshot_file_count(c->t.snap);
    for (size_t i = 0; i < n; i++) {
        int64_t size = dl_delta_snapshot_file(c->t.snap, i)->size;
        n_bytes += size > 0 ? size : 0;
    }
    DL_TRY(dl_delta_tx_metric(tx, "numRemovedFiles", (int64_t)n, err));
    return dl_delta_tx_metric(tx, "numRemovedBytes", n_bytes, err);
}

static dl_status
stage_create(dl_sql_binder *b, const dl_sql_stmt *stmt, create_ctx *c, dl_delta_tx *tx,
             dl_ops_writer **out_w, dl_error *err) {
    c->spec.schema = &c->ds;
    c->spec.partition_columns = c->t.parts;
    c->spec.n_partition_columns = c->t.n_parts;
    c->spec.is_as_select = c->query != NULL;
    c->spec.is_managed = !c->is_path;
    if (stmt->u.create_table.has_comment) {
        c->spec.description = ident_text(b, stmt->u.create_table.comment);
    }
    DL_TRY(dl_delta_tx_create_table(tx, &c->spec, err));
    if (c->cluster_cols != NULL) {
        DL_TRY(dl_sql_cluster_stage_domain(b, tx, c->cluster_cols,
                                           (int32_t)stmt->u.create_table.cluster_by.n, err));
    }
    if (c->query == NULL) {
        return DL_OK;
    }
    c->t.write_conf = c->spec.configuration; /* its CHECK constraints rule the rows */
    c->t.n_write_conf = c->spec.n_configuration;
    c->t.has_write_conf = true;
    DL_TRY(dl_sql_dml_writer(b, &c->t, tx, out_w, err));
    dl_sql_dml_sink sink = {
        .writer = *out_w, .schema = c->t.schema, .code_col = -1, .source_col = -1};
    DL_TRY(dl_sql_dml_run(b, c->query, &sink, err));
    DL_TRY(dl_ops_writer_stage(*out_w, tx, true, err));
    return replace_metrics(c, tx, err);
}

dl_status
dl_sql_dml_create(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    if (stmt->u.create_table.has_using &&
        !dl_str_eq_nocase(stmt->u.create_table.using.name, DL_STR("delta"))) {
        DL_SQL_BIND_FAIL(b, stmt->u.create_table.using.loc, DL_ERR_UNSUPPORTED, err,
                         "USING %.*s: deltalite creates Delta tables only (USING DELTA)",
                         DL_STR_FMT(stmt->u.create_table.using.name));
    }
    if (stmt->u.create_table.has_like || stmt->u.create_table.n_checks > 0) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err,
                         "CREATE TABLE with LIKE or CHECK is not supported yet");
    }
    if (stmt->u.create_table.options.n > 0) {
        DL_SQL_BIND_FAIL(b, stmt->u.create_table.options.items[0].loc, DL_ERR_UNSUPPORTED, err,
                         "CREATE TABLE ... OPTIONS is not supported (set table properties with "
                         "TBLPROPERTIES)");
    }
    create_ctx *c = dl_arena_alloc_zero(b->arena, sizeof(*c));
    DL_CHECK(c != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(open_location(b, stmt, c, err));
    bool skip = false;
    DL_TRY(check_existence(b, stmt, c, &skip, err));
    if (skip) {
        return DL_OK;
    }
    DL_TRY(plan_create(b, stmt, c, err));
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(c->t.table, c->t.snap, NULL, &tx, err));
    dl_ops_writer *w = NULL;
    dl_status s = stage_create(b, stmt, c, tx, &w, err);
    if (s != DL_OK) {
        dl_sql_dml_discard(tx, w);
        return s;
    }
    return dl_sql_dml_commit(tx, w, err);
}
