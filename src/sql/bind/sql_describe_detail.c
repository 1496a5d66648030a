/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DESCRIBE DETAIL, SHOW TBLPROPERTIES, SHOW COLUMNS, SHOW CREATE TABLE and the delta_log table
 * function (columns in sql_describe.c's header comment, and below for delta_log).
 *
 * delta_log('name' | 'path') is every action of every commit file still in the log, in
 * version and line order, for file-level audits:
 *
 *   version bigint, timestamp timestamp (the commit file's modification time),
 *   action string (add, remove, metaData, protocol, commitInfo, txn, cdc, domainMetadata, ...),
 *   path string (add/remove/cdc, as written), size bigint, dataChange boolean,
 *   partitionValues map<string,string>, stats string (the stats JSON), deletionVector string
 *   (the descriptor's JSON), modificationTime bigint (add: modificationTime, remove:
 *   deletionTimestamp; ms), json string (the whole action)
 *
 * The argument is a table name ('sales', 'schema.sales') or, when it holds a '/', a path.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "delta/delta_clustering.h"
#include "sql/bind/sql_describe_int.h"

/* ---- DESCRIBE DETAIL ---------------------------------------------------------------------------
 */

int
dl_sql_cmp_cstr(const void *a, const void *c) {
    return strcmp(*(const char *const *)a, *(const char *const *)c);
}

/* Feature names the protocol supports (explicitly or by legacy versions), sorted. */
static int32_t
table_features(const dl_delta_protocol *p, const char **out) {
    int32_t n = 0;
    for (int f = 0; f < DL_DELTA_FEATURE_COUNT; f++) {
        if (dl_delta_protocol_has_feature(p, (dl_delta_feature)f)) {
            out[n++] = dl_delta_feature_name((dl_delta_feature)f);
        }
    }
    qsort(out, (size_t)n, sizeof(*out), dl_sql_cmp_cstr);
    return n;
}

static dl_status
put_config_map(dl_vector *v, const dl_delta_metadata *md, dl_error *err) {
    dl_vector *entries = v->children[0];
    for (int32_t i = 0; i < md->n_configuration; i++) {
        const dl_delta_kv *kv = &md->configuration[i];
        DL_TRY(dl_vec_append_str(entries->children[0], kv->key, strlen(kv->key), err));
        DL_TRY(dl_sql_put_str(entries->children[1], dl_str_from_cstr(kv->value), kv->value == NULL,
                              err));
        DL_TRY(dl_vec_append_struct(entries, err));
    }
    return dl_vec_append_list(v, err);
}

typedef struct detail_ctx {
    dl_sql_binder *b;
    dl_delta_snapshot *snap;
    const char *name;
} detail_ctx;

static dl_status
detail_row(void *ctx, dl_batch *t, dl_error *err) {
    const detail_ctx *cx = ctx;
    dl_delta_snapshot *snap = cx->snap;
    const char *name = cx->name;
    const dl_delta_metadata *md = dl_delta_snapshot_metadata(snap);
    const dl_delta_protocol *pr = dl_delta_snapshot_protocol(snap);
    const char *loc = dl_sql_snapshot_location(cx->b, snap);
    dl_vector **v = t->cols;
    DL_TRY(dl_vec_append_str(v[0], "delta", 5, err));
    DL_TRY(dl_sql_put_str(v[1], dl_str_from_cstr(md->id), md->id == NULL, err));
    DL_TRY(dl_sql_put_str(v[2], dl_str_from_cstr(name), name == NULL, err));
    DL_TRY(dl_sql_put_str(v[3], dl_str_from_cstr(md->description), md->description == NULL, err));
    DL_TRY(dl_sql_put_str(v[4], dl_str_from_cstr(loc), loc == NULL, err));
    DL_TRY(md->has_created_time ? dl_vec_append_i64(v[5], md->created_time * 1000, err)
                                : dl_vec_append_null(v[5], err));
    DL_TRY(dl_vec_append_i64(v[6], dl_delta_snapshot_timestamp(snap) * 1000, err));
    DL_TRY(dl_sql_put_str_array(v[7], md->partition_columns, md->n_partition_columns, err));
    const char **clustering = NULL;
    int32_t n_clustering = 0;
    DL_TRY(dl_delta_clustering_columns(snap, cx->b->arena, &clustering, &n_clustering, err));
    DL_TRY(dl_sql_put_str_array(v[8], clustering, n_clustering, err));
    DL_TRY(dl_vec_append_i64(v[9], (int64_t)dl_delta_snapshot_file_count(snap), err));
    DL_TRY(dl_vec_append_i64(v[10], dl_delta_snapshot_total_bytes(snap), err));
    DL_TRY(put_config_map(v[11], md, err));
    DL_TRY(dl_vec_append_i32(v[12], pr->min_reader_version, err));
    DL_TRY(dl_vec_append_i32(v[13], pr->min_writer_version, err));
    const char *features[DL_DELTA_FEATURE_COUNT + 1];
    int32_t nf = table_features(pr, features);
    return dl_sql_put_str_array(v[14], features, nf, err);
}

static dl_status
detail_schema(dl_sql_binder *b, const dl_type **out, dl_error *err) {
    const dl_type *str = dl_vec_type_prim(DL_VEC_TYPE_STRING);
    const dl_type *ts = dl_vec_type_prim(DL_VEC_TYPE_TIMESTAMP);
    const dl_type *arr = NULL;
    const dl_type *map = NULL;
    DL_TRY(dl_vec_type_array(b->arena, str, true, &arr, err));
    DL_TRY(dl_sql_string_map_type(b, &map, err));
    dl_sql_col_spec specs[] = {
        {"format", str},
        {"id", str},
        {"name", str},
        {"description", str},
        {"location", str},
        {"createdAt", ts},
        {"lastModified", ts},
        {"partitionColumns", arr},
        {"clusteringColumns", arr},
        {"numFiles", dl_vec_type_prim(DL_VEC_TYPE_LONG)},
        {"sizeInBytes", dl_vec_type_prim(DL_VEC_TYPE_LONG)},
        {"properties", map},
        {"minReaderVersion", dl_vec_type_prim(DL_VEC_TYPE_INT)},
        {"minWriterVersion", dl_vec_type_prim(DL_VEC_TYPE_INT)},
        {"tableFeatures", arr},
    };
    return dl_sql_make_schema(b, specs, (int32_t)DL_ARRAY_LEN(specs), out, err);
}

/* The name DESCRIBE DETAIL gives a table: spark_catalog.schema.table, or delta.`path` for a
 * table read by path. */
static const char *
qualified_name(dl_sql_binder *b, const dl_sql_name *n, bool is_path, const char *display) {
    if (is_path || dl_sql_name_is_path(n)) {
        return display; /* dl_sql_open_table's delta.`path` */
    }
    return dl_arena_printf(b->arena, "spark_catalog.%s.%s", dl_sql_name_schema(b, n), display);
}

const char *
dl_sql_name_schema(dl_sql_binder *b, const dl_sql_name *n) {
    dl_sql_catalog *cat = &b->session->catalog;
    const char *current = cat->current_schema != NULL ? cat->current_schema(cat->ctx) : NULL;
    return n->n_parts >= 2 ? n->parts[n->n_parts - 2].name.ptr
                           : (current != NULL ? current : "default");
}

const char *
dl_sql_name_text(dl_sql_binder *b, const dl_sql_name *n) {
    const char *text = "";
    for (uint32_t i = 0; i < n->n_parts && text != NULL; i++) {
        text = dl_arena_printf(b->arena, "%s%s%s", text, i > 0 ? "." : "", n->parts[i].name.ptr);
    }
    return text != NULL ? text : "";
}

/* The latest snapshot of the table a statement names. */
static dl_status
open_latest(dl_sql_binder *b, const dl_sql_name *name, bool is_path, dl_str path, uint32_t loc,
            const dl_sql_time_travel *tt, dl_delta_snapshot **out, const char **display,
            dl_error *err) {
    dl_delta_table *table = NULL;
    DL_TRY(dl_sql_open_table(b, name, is_path, path, loc, &table, display, err));
    dl_status s = DL_OK;
    if (tt == NULL || tt->kind == DL_SQL_TT_NONE) {
        s = dl_delta_snapshot_latest(table, NULL, out, err);
    } else {
        s = dl_sql_travel(b, table, tt, out, err);
    }
    dl_delta_table_free(table);
    if (s != DL_OK) {
        dl_error_prefix(err, "table %s", *display);
        return s;
    }
    return dl_sql_hold_snapshot(b, *out, err);
}

dl_status
dl_sql_open_snapshot(dl_sql_binder *b, const dl_sql_name *name, uint32_t loc,
                     const dl_sql_time_travel *tt, dl_delta_snapshot **out, const char **display,
                     dl_error *err) {
    return open_latest(b, name, false, DL_STR(""), loc, tt, out, display, err);
}

const char *
dl_sql_table_display_name(dl_sql_binder *b, const dl_sql_name *n, const char *display) {
    return qualified_name(b, n, false, display);
}

dl_status
dl_sql_binder_detail(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    const dl_sql_target *t = &stmt->u.describe_detail.target;
    dl_delta_snapshot *snap = NULL;
    const char *display = NULL;
    DL_TRY(open_latest(b, &t->name, t->is_path, t->path, t->loc, NULL, &snap, &display, err));
    const dl_type *schema = NULL;
    DL_TRY(detail_schema(b, &schema, err));
    bool is_path = t->is_path || dl_sql_name_is_path(&t->name);
    const char *name = is_path ? NULL : qualified_name(b, &t->name, false, display);
    detail_ctx cx = {.b = b, .snap = snap, .name = name};
    return dl_sql_plan_one_row(b, schema, detail_row, &cx, out, err);
}

/* ---- SHOW COLUMNS, SHOW TBLPROPERTIES ------------------------------------------------------ */

dl_status
dl_sql_table_properties(dl_sql_binder *b, const dl_delta_snapshot *snap, const char ***out_keys,
                        const char ***out_values, int64_t *out_n, dl_error *err) {
    const dl_delta_metadata *md = dl_delta_snapshot_metadata(snap);
    const dl_delta_protocol *pr = dl_delta_snapshot_protocol(snap);
    const char *features[DL_DELTA_FEATURE_COUNT + 1];
    int32_t nf = pr->min_writer_version >= 7 || pr->min_reader_version >= 3
                     ? table_features(pr, features)
                     : 0;
    int32_t n = md->n_configuration + 2 + nf;
    const char **k = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(char *));
    const char **v = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(char *));
    DL_CHECK(k != NULL && v != NULL, err, DL_ERR_NOMEM, "out of memory listing properties");
    int64_t r = 0;
    for (int32_t i = 0; i < md->n_configuration; i++, r++) {
        k[r] = md->configuration[i].key;
        v[r] = md->configuration[i].value;
    }
    k[r] = "delta.minReaderVersion";
    v[r++] = dl_arena_printf(b->arena, "%d", (int)pr->min_reader_version);
    k[r] = "delta.minWriterVersion";
    v[r++] = dl_arena_printf(b->arena, "%d", (int)pr->min_writer_version);
    for (int32_t i = 0; i < nf; i++, r++) {
        k[r] = dl_arena_printf(b->arena, "delta.feature.%s", features[i]);
        v[r] = "supported";
        DL_CHECK(k[r] != NULL, err, DL_ERR_NOMEM, "out of memory listing properties");
    }
    DL_CHECK(v[md->n_configuration] != NULL && v[md->n_configuration + 1] != NULL, err,
             DL_ERR_NOMEM, "out of memory listing properties");
    *out_keys = k;
    *out_values = v;
    *out_n = r;
    return DL_OK;
}

/* SHOW TBLPROPERTIES [(key)] over rows of (key, value), sorted by key as Spark lists them; name
 * is the table or view for the missing key's message. */
static dl_status
show_props_rows(dl_sql_binder *b, const dl_sql_stmt *stmt, const char *const *k,
                const char *const *val, int64_t n, const char *name, dl_sql_plan **out,
                dl_error *err) {
    static const char *const names[] = {"key", "value"};
    const char **v = dl_arena_alloc_zero(b->arena, (size_t)(2 * n + 2) * sizeof(char *));
    DL_CHECK(v != NULL, err, DL_ERR_NOMEM, "out of memory listing properties");
    for (int64_t i = 0; i < n; i++) {
        v[2 * i] = k[i];
        v[2 * i + 1] = val[i];
    }
    qsort((void *)v, (size_t)n, 2 * sizeof(char *), dl_sql_cmp_cstr); /* Spark sorts by key */
    if (!stmt->u.show.has_key) {
        return dl_sql_plan_strings(b, names, 2, v, n, out, err);
    }
    const char *key = stmt->u.show.key.ptr;
    for (int64_t i = 0; i < n; i++) {
        if (v[2 * i] != NULL && strcmp(v[2 * i], key) == 0) {
            return dl_sql_plan_strings(b, names, 2, v + 2 * i, 1, out, err);
        }
    }
    const char *missing[2] = {
        key, dl_arena_printf(b->arena, "Table %s does not have property: %s", name, key)};
    return dl_sql_plan_strings(b, names, 2, missing, 1, out, err);
}

/* SHOW TBLPROPERTIES: the configuration, then the protocol as Delta shows it. */
static dl_status
show_props(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_delta_snapshot *snap, const char *display,
           dl_sql_plan **out, dl_error *err) {
    const char **k = NULL;
    const char **v = NULL;
    int64_t n = 0;
    DL_TRY(dl_sql_table_properties(b, snap, &k, &v, &n, err));
    const char *name = dl_sql_table_display_name(b, &stmt->u.show.name, display);
    DL_CHECK(name != NULL, err, DL_ERR_NOMEM, "out of memory listing properties");
    return show_props_rows(b, stmt, k, v, n, name, out, err);
}

/* ---- SHOW CREATE TABLE ------------------------------------------------------------------- */

dl_status
dl_sql_put_ident(dl_buf *out, const char *name, dl_error *err) {
    bool is_plain = name[0] != '\0' && !isdigit((unsigned char)name[0]);
    for (const char *p = name; *p != '\0' && is_plain; p++) {
        is_plain = isalnum((unsigned char)*p) || *p == '_';
    }
    if (is_plain) {
        return dl_buf_append_cstr(out, name, err);
    }
    DL_TRY(dl_buf_append_byte(out, '`', err));
    for (const char *p = name; *p != '\0'; p++) {
        DL_TRY(*p == '`' ? dl_buf_append(out, "``", 2, err)
                         : dl_buf_append_byte(out, (uint8_t)*p, err));
    }
    return dl_buf_append_byte(out, '`', err);
}

dl_status
dl_sql_put_literal(dl_buf *out, const char *text, dl_error *err) {
    DL_TRY(dl_buf_append_byte(out, '\'', err));
    for (const char *p = text; *p != '\0'; p++) {
        if (*p == '\'' || *p == '\\') {
            DL_TRY(dl_buf_append_byte(out, '\\', err));
        }
        DL_TRY(dl_buf_append_byte(out, (uint8_t)*p, err));
    }
    return dl_buf_append_byte(out, '\'', err);
}

/* One column of the CREATE TABLE: name, type, then what Delta keeps about it. */
static dl_status
put_column(dl_buf *out, const dl_delta_field *f, dl_error *err) {
    DL_TRY(dl_buf_append_cstr(out, "  ", err));
    DL_TRY(dl_sql_put_ident(out, f->name, err));
    DL_TRY(dl_buf_append_byte(out, ' ', err));
    DL_TRY(dl_vec_type_to_string(f->type, out, err));
    if (!f->is_nullable) {
        DL_TRY(dl_buf_append_cstr(out, " NOT NULL", err));
    }
    if (f->generation_expr != NULL) {
        DL_TRY(dl_buf_appendf(out, err, " GENERATED ALWAYS AS (%s)", f->generation_expr));
    }
    if (f->is_identity) {
        DL_TRY(dl_buf_appendf(out, err,
                              " GENERATED %s AS IDENTITY (START WITH %lld INCREMENT BY %lld)",
                              f->identity_allow_explicit ? "BY DEFAULT" : "ALWAYS",
                              (long long)f->identity_start, (long long)f->identity_step));
    }
    if (f->default_expr != NULL) {
        DL_TRY(dl_buf_appendf(out, err, " DEFAULT %s", f->default_expr));
    }
    if (f->comment != NULL) {
        DL_TRY(dl_buf_append_cstr(out, " COMMENT ", err));
        DL_TRY(dl_sql_put_literal(out, f->comment, err));
    }
    return DL_OK;
}

/* The statement as SHOW CREATE TABLE writes it (show_create says how it differs from Spark's). */
static dl_status
create_text(dl_sql_binder *b, dl_delta_snapshot *snap, const char *name, dl_buf *out,
            dl_error *err) {
    const dl_delta_schema *schema = dl_delta_snapshot_schema(snap);
    const dl_delta_metadata *md = dl_delta_snapshot_metadata(snap);
    const dl_delta_protocol *pr = dl_delta_snapshot_protocol(snap);
    DL_TRY(dl_buf_appendf(out, err, "CREATE TABLE %s (\n", name));
    for (int32_t i = 0; i < schema->n_fields; i++) {
        DL_TRY(put_column(out, &schema->fields[i], err));
        DL_TRY(dl_buf_append_cstr(out, i + 1 < schema->n_fields ? ",\n" : ")\nUSING delta\n", err));
    }
    for (int32_t i = 0; i < md->n_partition_columns; i++) {
        DL_TRY(dl_buf_append_cstr(out, i == 0 ? "PARTITIONED BY (" : ", ", err));
        DL_TRY(dl_sql_put_ident(out, md->partition_columns[i], err));
        DL_TRY(dl_buf_append_cstr(out, i + 1 == md->n_partition_columns ? ")\n" : "", err));
    }
    const char **clustering = NULL;
    int32_t n_clustering = 0;
    DL_TRY(dl_delta_clustering_columns(snap, b->arena, &clustering, &n_clustering, err));
    for (int32_t i = 0; i < n_clustering; i++) {
        DL_TRY(dl_buf_append_cstr(out, i == 0 ? "CLUSTER BY (" : ", ", err));
        DL_TRY(dl_sql_put_ident(out, clustering[i], err));
        DL_TRY(dl_buf_append_cstr(out, i + 1 == n_clustering ? ")\n" : "", err));
    }
    if (md->description != NULL) {
        DL_TRY(dl_buf_append_cstr(out, "COMMENT ", err));
        DL_TRY(dl_sql_put_literal(out, md->description, err));
        DL_TRY(dl_buf_append_byte(out, '\n', err));
    }
    DL_TRY(dl_buf_append_cstr(out, "TBLPROPERTIES (\n", err));
    for (int32_t i = 0; i < md->n_configuration; i++) {
        DL_TRY(dl_buf_append_cstr(out, "  ", err));
        DL_TRY(dl_sql_put_literal(out, md->configuration[i].key, err));
        DL_TRY(dl_buf_append_cstr(out, " = ", err));
        DL_TRY(dl_sql_put_literal(out, md->configuration[i].value, err));
        DL_TRY(dl_buf_append_cstr(out, ",\n", err));
    }
    DL_TRY(dl_buf_appendf(out, err,
                          "  'delta.minReaderVersion' = '%d',\n  'delta.minWriterVersion' = '%d'",
                          (int)pr->min_reader_version, (int)pr->min_writer_version));
    const char *features[DL_DELTA_FEATURE_COUNT + 1];
    int32_t nf = pr->min_writer_version >= 7 || pr->min_reader_version >= 3
                     ? table_features(pr, features)
                     : 0;
    for (int32_t i = 0; i < nf; i++) {
        DL_TRY(dl_buf_appendf(out, err, ",\n  'delta.feature.%s' = 'supported'", features[i]));
    }
    return dl_buf_append_cstr(out, ")\n", err);
}

/*
 * SHOW CREATE TABLE: one row, createtab_stmt, the statement that makes the table again, in
 * Spark's layout (columns, USING delta, PARTITIONED BY, COMMENT, TBLPROPERTIES with the
 * protocol). Two differences, so that deltalite runs it: the name is schema.table (Spark
 * writes spark_catalog.schema.table, a catalog deltalite's CREATE TABLE does not take) or
 * delta.`path`, and no LOCATION (the warehouse's tables are managed, where Spark writes none
 * either; a path table's name is its location).
 */
static dl_status
show_create(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_delta_snapshot *snap, const char *display,
            dl_sql_plan **out, dl_error *err) {
    static const char *const names[] = {"createtab_stmt"};
    const dl_sql_name *n = &stmt->u.show.name;
    const char *name = dl_sql_name_is_path(n)
                           ? display
                           : dl_arena_printf(b->arena, "%s.%s", dl_sql_name_schema(b, n), display);
    DL_CHECK(name != NULL, err, DL_ERR_NOMEM, "out of memory showing a table");
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    dl_status s = create_text(b, snap, name, &text, err);
    const char *row[1] = {NULL};
    if (s == DL_OK) {
        row[0] = dl_arena_strndup(b->arena, (const char *)text.data, text.len);
        s = row[0] != NULL ? DL_OK
                           : dl_error_set(err, DL_ERR_NOMEM, "out of memory showing a table");
    }
    dl_buf_destroy(&text);
    DL_TRY(s);
    return dl_sql_plan_strings(b, names, 1, row, 1, out, err);
}

/* SHOW COLUMNS's rows: the names of n columns. */
static dl_status
column_names(dl_sql_binder *b, const dl_delta_schema *schema, dl_sql_plan **out, dl_error *err) {
    static const char *const names[] = {"col_name"};
    const char **v = dl_arena_alloc_zero(b->arena, (size_t)(schema->n_fields + 1) * sizeof(char *));
    DL_CHECK(v != NULL, err, DL_ERR_NOMEM, "out of memory listing columns");
    for (int32_t i = 0; i < schema->n_fields; i++) {
        v[i] = schema->fields[i].name;
    }
    return dl_sql_plan_strings(b, names, 1, v, schema->n_fields, out, err);
}

/* SHOW COLUMNS IN t IN schema names t in schema; a t qualified with another schema is Spark's
 * SHOW_COLUMNS_WITH_CONFLICT_NAMESPACE. Else the name as written. */
static dl_status
columns_target(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_name *out, dl_error *err) {
    *out = stmt->u.show.name;
    if (!stmt->u.show.has_schema) {
        return DL_OK;
    }
    const dl_sql_name *sch = &stmt->u.show.schema;
    dl_str want = sch->parts[sch->n_parts - 1].name;
    if (out->n_parts >= 2 && !dl_str_eq_nocase(out->parts[out->n_parts - 2].name, want)) {
        DL_SQL_BIND_FAIL(b, sch->parts[0].loc, DL_ERR_SQL_BIND, err,
                         "[SHOW_COLUMNS_WITH_CONFLICT_NAMESPACE] SHOW COLUMNS with conflicting "
                         "namespaces: `%.*s` != `%.*s`",
                         DL_STR_FMT(want), DL_STR_FMT(out->parts[out->n_parts - 2].name));
    }
    dl_sql_ident *parts = dl_arena_alloc_zero(b->arena, 2 * sizeof(*parts));
    DL_CHECK(parts != NULL, err, DL_ERR_NOMEM, "out of memory");
    parts[0] = sch->parts[sch->n_parts - 1];
    parts[1] = out->parts[out->n_parts - 1];
    *out = (dl_sql_name){.parts = parts, .n_parts = 2};
    return DL_OK;
}

/* spark_catalog.schema.v for a persistent view (the missing key's message), v for a temporary. */
static const char *
view_name(dl_sql_binder *b, const dl_sql_view *v) {
    const char *name = v->is_temp || v->schema == NULL
                           ? v->name
                           : dl_arena_printf(b->arena, "spark_catalog.%s.%s", v->schema, v->name);
    return name != NULL ? name : v->name;
}

/* SHOW TBLPROPERTIES / COLUMNS / CREATE TABLE of a view. */
static dl_status
show_view(dl_sql_binder *b, const dl_sql_stmt *stmt, const dl_sql_view *view, dl_sql_plan **out,
          dl_error *err) {
    const dl_sql_name *n = &stmt->u.show.name;
    switch (stmt->u.show.kind) {
    case DL_SQL_SHOW_CREATE_TABLE:
        return dl_sql_show_create_view(b, view, n->parts[0].loc, out, err);
    case DL_SQL_SHOW_COLUMNS:
        return column_names(b, &view->columns, out, err);
    default:
        /* Spark: a temporary view has no properties; a persistent one its TBLPROPERTIES. */
        return show_props_rows(b, stmt, view->prop_keys, view->prop_values,
                               view->is_temp ? 0 : view->n_props, view_name(b, view), out, err);
    }
}

dl_status
dl_sql_binder_show_table(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out,
                         dl_error *err) {
    dl_sql_name n = stmt->u.show.name;
    if (stmt->u.show.kind == DL_SQL_SHOW_COLUMNS) {
        DL_TRY(columns_target(b, stmt, &n, err));
    }
    const dl_sql_view *view = NULL;
    DL_TRY(dl_sql_binder_find_view(b, &n, true, &view, err));
    if (view != NULL && stmt->u.show.kind != DL_SQL_SHOW_PARTITIONS) {
        return show_view(b, stmt, view, out, err);
    }
    dl_delta_snapshot *snap = NULL;
    const char *display = NULL;
    DL_TRY(open_latest(b, &n, false, DL_STR(""), n.parts[0].loc, NULL, &snap, &display, err));
    switch (stmt->u.show.kind) {
    case DL_SQL_SHOW_TBLPROPERTIES:
        return show_props(b, stmt, snap, display, out, err);
    case DL_SQL_SHOW_CREATE_TABLE:
        return show_create(b, stmt, snap, display, out, err);
    case DL_SQL_SHOW_PARTITIONS:
        return dl_sql_show_partitions(b, stmt, &n, snap, display, out, err);
    default: {
        return column_names(b, dl_delta_snapshot_schema(snap), out, err);
    }
    }
}
