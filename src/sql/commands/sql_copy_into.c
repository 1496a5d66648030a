/* SPDX-License-Identifier: Apache-2.0 */
/*
 * COPY INTO t FROM 'path' FILEFORMAT = CSV | JSON | PARQUET [FILES = (...) | PATTERN = '...']
 * [FORMAT_OPTIONS (...)] [COPY_OPTIONS (...)], as Databricks defines it (sql_dml.h):
 *
 *   - The source is a folder (its files, not those starting with '_' or '.'), a file or a
 *     glob; FILES names files inside the folder, PATTERN a glob inside it.
 *   - Idempotent: a file loaded once is skipped by later COPY INTOs of the table unless
 *     COPY_OPTIONS ('force' = 'true'). deltalite remembers a loaded file as a `txn` action of
 *     the commit that loaded it, appId "deltalite.copyInto:<absolute path>" and version the
 *     commit's: the snapshot keeps every appId (through checkpoints), so checking a file is a
 *     lookup, and Spark and delta-rs read the table as they read any txn. Files are known by
 *     path: a file rewritten in place is not loaded again (Databricks does the same).
 *   - The rows go in as INSERT ... BY NAME: the files' columns are matched to the table's by
 *     name (columns the files lack are NULL), cast with the store-assignment rules. CSV and
 *     JSON are read with the table's schema unless FORMAT_OPTIONS gives 'schema' or
 *     'inferSchema', or COPY_OPTIONS 'mergeSchema' = 'true' (then the files' schema is
 *     inferred, and new columns are added to the table as INSERT's mergeSchema adds them).
 *     FORMAT_OPTIONS are read_csv's / read_json's options ('mergeSchema' there is accepted:
 *     inference already reads every file; 'inferSchema' = 'true' for JSON infers the files'
 *     schema); PARQUET takes none.
 *   - One commit (operation COPY INTO, WRITE's metrics) with the new files' txn actions; none
 *     when there is no new file. The result row: num_affected_rows, num_inserted_rows,
 *     num_skipped_corrupt_files (always 0: corrupt files are not skipped, they fail).
 */
#include <string.h>
#include <strings.h>

#include "sql/commands/sql_dml.h"

#define APP_PREFIX "deltalite.copyInto:"

typedef struct copy_into {
    dl_sql_binder *b;
    const dl_sql_stmt *stmt;
    const char *reader; /* read_csv, read_json, read_parquet */
    const char *format; /* CSV, JSON, PARQUET */
    bool is_force;
    bool is_merge_schema;
    bool has_schema; /* FORMAT_OPTIONS gives schema or inferSchema */
    dl_sql_path_list files;
    const char **new_files; /* not loaded before (or force) */
    int32_t n_new;
    int64_t version; /* the commit's version (the txn actions') */
} copy_into;

static dl_status
option_bool(copy_into *c, const dl_sql_prop *o, bool *out, dl_error *err) {
    dl_str v = dl_str_trim(o->value);
    if (dl_str_eq_nocase(v, DL_STR("true")) || dl_str_eq_nocase(v, DL_STR("false"))) {
        *out = dl_str_eq_nocase(v, DL_STR("true"));
        return DL_OK;
    }
    DL_SQL_BIND_FAIL(c->b, o->loc, DL_ERR_INVALID_ARG, err,
                     "COPY INTO: option '%.*s' must be 'true' or 'false', not '%.*s'",
                     DL_STR_FMT(o->key), DL_STR_FMT(o->value));
}

static dl_status
read_options(copy_into *c, dl_error *err) {
    const dl_sql_prop_list *co = &c->stmt->u.copy_into.copy_options;
    for (uint32_t i = 0; i < co->n; i++) {
        const dl_sql_prop *o = &co->items[i];
        if (dl_str_eq_nocase(o->key, DL_STR("force"))) {
            DL_TRY(option_bool(c, o, &c->is_force, err));
        } else if (dl_str_eq_nocase(o->key, DL_STR("mergeSchema"))) {
            DL_TRY(option_bool(c, o, &c->is_merge_schema, err));
        } else {
            DL_SQL_BIND_FAIL(c->b, o->loc, DL_ERR_UNSUPPORTED, err,
                             "COPY INTO: COPY_OPTIONS '%.*s' is not supported (there are "
                             "'force' and 'mergeSchema')",
                             DL_STR_FMT(o->key));
        }
    }
    const dl_sql_prop_list *fo = &c->stmt->u.copy_into.format_options;
    bool is_parquet = strcmp(c->format, "PARQUET") == 0;
    for (uint32_t i = 0; i < fo->n; i++) {
        const dl_sql_prop *o = &fo->items[i];
        bool is_merge = dl_str_eq_nocase(o->key, DL_STR("mergeSchema"));
        bool merge = false;
        if (is_merge) {
            DL_TRY(option_bool(c, o, &merge, err));
        }
        if (is_parquet && !(is_merge && !merge)) {
            DL_SQL_BIND_FAIL(c->b, o->loc, DL_ERR_UNSUPPORTED, err,
                             "COPY INTO: FORMAT_OPTIONS '%.*s' is not supported for PARQUET "
                             "(the files are read with the first file's columns)",
                             DL_STR_FMT(o->key));
        }
        bool is_infer = false;
        if (dl_str_eq_nocase(o->key, DL_STR("inferSchema"))) {
            DL_TRY(option_bool(c, o, &is_infer, err));
        }
        c->has_schema |= dl_str_eq_nocase(o->key, DL_STR("schema")) || is_infer;
    }
    return DL_OK;
}

static dl_status
read_format(copy_into *c, dl_error *err) {
    const dl_sql_ident *f = &c->stmt->u.copy_into.format;
    static const char *const formats[][2] = {
        {"CSV", "read_csv"}, {"JSON", "read_json"}, {"PARQUET", "read_parquet"}};
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
        if (dl_str_eq_nocase(f->name, dl_str_from_cstr(formats[i][0]))) {
            c->format = formats[i][0];
            c->reader = formats[i][1];
            return DL_OK;
        }
    }
    DL_SQL_BIND_FAIL(c->b, f->loc, DL_ERR_UNSUPPORTED, err,
                     "COPY INTO: FILEFORMAT = %.*s is not supported (there are CSV, JSON and "
                     "PARQUET)",
                     DL_STR_FMT(f->name));
}

/* ---- the source files ----------------------------------------------------------------------- */

static dl_status
string_lit(dl_sql_binder *b, dl_str text, uint32_t loc, dl_sql_expr **out, dl_error *err) {
    dl_sql_expr *e = dl_arena_alloc_zero(b->arena, sizeof(*e));
    DL_CHECK(e != NULL, err, DL_ERR_NOMEM, "out of memory");
    *e = (dl_sql_expr){.kind = DL_SQL_EXPR_LITERAL, .loc = loc, .height = 1};
    e->u.lit.kind = DL_SQL_LIT_STRING;
    e->u.lit.text = text;
    *out = e;
    return DL_OK;
}

/* path/name (one slash between them), in the statement arena. */
static dl_status
join_path(dl_sql_binder *b, dl_str path, dl_str name, dl_str *out, dl_error *err) {
    bool has_slash = path.len > 0 && path.ptr[path.len - 1] == '/';
    const char *joined = dl_arena_printf(b->arena, "%.*s%s%.*s", DL_STR_FMT(path),
                                         has_slash ? "" : "/", DL_STR_FMT(name));
    DL_CHECK(joined != NULL, err, DL_ERR_NOMEM, "out of memory");
    *out = dl_str_from_cstr(joined);
    return DL_OK;
}

/* The source's paths: the path itself, or FILES / PATTERN inside it. */
static dl_status
source_paths(copy_into *c, dl_sql_expr **out, dl_error *err) {
    dl_sql_binder *b = c->b;
    const dl_sql_stmt *s = c->stmt;
    dl_str path = s->u.copy_into.path;
    uint32_t n = s->u.copy_into.has_files ? s->u.copy_into.n_files : 1;
    dl_sql_expr **items = dl_arena_alloc_zero(b->arena, (size_t)n * sizeof(void *));
    DL_CHECK(items != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < n; i++) {
        dl_str text = path;
        if (s->u.copy_into.has_files || s->u.copy_into.has_pattern) {
            DL_TRY(join_path(b, path,
                             s->u.copy_into.has_files ? s->u.copy_into.files[i]
                                                      : s->u.copy_into.pattern,
                             &text, err));
        }
        DL_TRY(string_lit(b, text, s->loc, &items[i], err));
    }
    if (n == 1) {
        *out = items[0];
        return DL_OK;
    }
    dl_sql_expr *arr = dl_arena_alloc_zero(b->arena, sizeof(*arr));
    dl_sql_ident *fname = dl_arena_alloc_zero(b->arena, sizeof(*fname));
    DL_CHECK(arr != NULL && fname != NULL, err, DL_ERR_NOMEM, "out of memory");
    *fname = (dl_sql_ident){.name = DL_STR("array"), .loc = s->loc};
    *arr = (dl_sql_expr){.kind = DL_SQL_EXPR_FUNC, .loc = s->loc, .height = 2};
    arr->u.func.name = (dl_sql_name){.parts = fname, .n_parts = 1};
    arr->u.func.args = (dl_sql_expr_list){.items = items, .n = n};
    *out = arr;
    return DL_OK;
}

/* The appId that records path as loaded. */
static const char *
app_id(dl_sql_binder *b, const char *path) {
    return dl_arena_printf(b->arena, APP_PREFIX "/%s", path);
}

/* The appIds of the files COPY INTO loaded into the snapshot's table, in loaded. */
static dl_status
loaded_files(const dl_delta_snapshot *snap, dl_hmap *loaded, dl_error *err) {
    size_t n = dl_delta_snapshot_txn_count(snap);
    size_t prefix = strlen(APP_PREFIX);
    for (size_t i = 0; i < n; i++) {
        const char *id = dl_delta_snapshot_txn_at(snap, i)->app_id;
        if (strncmp(id, APP_PREFIX, prefix) == 0) {
            DL_TRY(dl_hmap_put(loaded, dl_str_from_cstr(id), 1, err));
        }
    }
    return DL_OK;
}

static dl_status
list_new_files(copy_into *c, const dl_sql_dml_target *t, dl_error *err) {
    dl_sql_binder *b = c->b;
    dl_store *store = NULL;
    DL_TRY(dl_sql_root_store(b, &store, err));
    dl_sql_expr *arg = NULL;
    DL_TRY(source_paths(c, &arg, err));
    DL_TRY(dl_sql_bind_paths(b, store, arg, "COPY INTO", &c->files, err));
    c->new_files = dl_arena_alloc_zero(b->arena, (size_t)(c->files.n + 1) * sizeof(char *));
    DL_CHECK(c->new_files != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_hmap loaded;
    dl_hmap_init(&loaded, b->exec->alloc);
    dl_status s = c->is_force ? DL_OK : loaded_files(t->snap, &loaded, err);
    for (int32_t i = 0; i < c->files.n && s == DL_OK; i++) {
        const char *id = app_id(b, c->files.items[i]);
        if (id == NULL) {
            s = dl_error_set(err, DL_ERR_NOMEM, "out of memory");
        } else if (!dl_hmap_get(&loaded, dl_str_from_cstr(id), NULL)) {
            c->new_files[c->n_new++] = c->files.items[i];
            s = dl_hmap_put(&loaded, dl_str_from_cstr(id), 1, err); /* a file named twice */
        }
    }
    dl_hmap_destroy(&loaded);
    return s;
}

/* ---- the query ------------------------------------------------------------------------------ */

static dl_status
append_quoted(dl_buf *q, char quote, const char *s, size_t n, dl_error *err) {
    DL_TRY(dl_buf_append_byte(q, quote, err));
    for (size_t i = 0; i < n; i++) {
        if (s[i] == quote) {
            DL_TRY(dl_buf_append_byte(q, quote, err));
        }
        DL_TRY(dl_buf_append_byte(q, s[i], err));
    }
    return dl_buf_append_byte(q, quote, err);
}

/* The DDL of a type (names quoted), for the reader's schema option. */
static dl_status
type_ddl(const dl_type *t, dl_buf *out, dl_error *err) {
    switch (t->id) {
    case DL_VEC_TYPE_STRUCT:
        DL_TRY(dl_buf_append_cstr(out, "STRUCT<", err));
        for (int32_t i = 0; i < t->n_fields; i++) {
            DL_TRY(dl_buf_append_cstr(out, i > 0 ? ", " : "", err));
            DL_TRY(append_quoted(out, '`', t->fields[i].name, strlen(t->fields[i].name), err));
            DL_TRY(dl_buf_append_cstr(out, ": ", err));
            DL_TRY(type_ddl(t->fields[i].type, out, err));
        }
        return dl_buf_append_cstr(out, ">", err);
    case DL_VEC_TYPE_ARRAY:
        DL_TRY(dl_buf_append_cstr(out, "ARRAY<", err));
        DL_TRY(type_ddl(t->element, out, err));
        return dl_buf_append_cstr(out, ">", err);
    case DL_VEC_TYPE_MAP:
        DL_TRY(dl_buf_append_cstr(out, "MAP<", err));
        DL_TRY(type_ddl(t->key, out, err));
        DL_TRY(dl_buf_append_cstr(out, ", ", err));
        DL_TRY(type_ddl(t->value, out, err));
        return dl_buf_append_cstr(out, ">", err);
    default:
        return dl_vec_type_to_string(t, out, err);
    }
}

/* schema => '<the table's columns>' */
static dl_status
append_table_schema(const dl_sql_dml_target *t, dl_buf *q, dl_buf *ddl, dl_error *err) {
    dl_buf_reset(ddl);
    DL_TRY(type_ddl(t->schema, ddl, err));
    /* the reader wraps the option in STRUCT<...>: give it the fields */
    size_t n = ddl->len >= 8 ? ddl->len - 8 : 0;
    DL_TRY(dl_buf_append_cstr(q, ", schema => ", err));
    return append_quoted(q, '\'', (const char *)ddl->data + 7, n, err);
}

/* SELECT * FROM read_xxx(array('/f', ...), option => 'v', ...) */
static dl_status
query_text(copy_into *c, const dl_sql_dml_target *t, dl_buf *q, dl_buf *scratch, dl_error *err) {
    DL_TRY(dl_buf_appendf(q, err, "SELECT * FROM %s(array(", c->reader));
    for (int32_t i = 0; i < c->n_new; i++) {
        DL_TRY(dl_buf_append_cstr(q, i > 0 ? ", " : "", err));
        const char *abs = dl_arena_printf(c->b->arena, "/%s", c->new_files[i]);
        DL_CHECK(abs != NULL, err, DL_ERR_NOMEM, "out of memory");
        DL_TRY(append_quoted(q, '\'', abs, strlen(abs), err));
    }
    DL_TRY(dl_buf_append_cstr(q, ")", err));
    const dl_sql_prop_list *fo = &c->stmt->u.copy_into.format_options;
    for (uint32_t i = 0; i < fo->n; i++) {
        const dl_sql_prop *o = &fo->items[i];
        bool is_json_infer =
            strcmp(c->format, "JSON") == 0 && dl_str_eq_nocase(o->key, DL_STR("inferSchema"));
        if (dl_str_eq_nocase(o->key, DL_STR("mergeSchema")) || is_json_infer) {
            continue; /* COPY INTO's own: whether the table's schema reads the files */
        }
        DL_TRY(dl_buf_append_cstr(q, ", ", err));
        DL_TRY(append_quoted(q, '`', o->key.ptr, o->key.len, err));
        DL_TRY(dl_buf_append_cstr(q, " => ", err));
        DL_TRY(append_quoted(q, '\'', o->value.ptr, o->value.len, err));
    }
    if (strcmp(c->format, "PARQUET") != 0 && !c->has_schema && !c->is_merge_schema) {
        DL_TRY(append_table_schema(t, q, scratch, err));
    }
    return dl_buf_append_cstr(q, ")", err);
}

/* The INSERT INTO t BY NAME <query> that loads the new files. */
static dl_status
insert_stmt(copy_into *c, const dl_sql_dml_target *t, dl_sql_stmt *out, dl_error *err) {
    dl_sql_binder *b = c->b;
    dl_buf q;
    dl_buf_init(&q, b->exec->alloc);
    dl_buf scratch;
    dl_buf_init(&scratch, b->exec->alloc);
    dl_status s = query_text(c, t, &q, &scratch, err);
    dl_sql_stmt *sel = NULL;
    if (s == DL_OK) {
        s = dl_sql_parse_stmt(b->arena, (const char *)q.data, q.len, &sel, err);
    }
    dl_buf_destroy(&scratch);
    dl_buf_destroy(&q);
    if (s != DL_OK) {
        dl_error_prefix(err, "COPY INTO %s", t->display);
        dl_sql_binder_locate(b, c->stmt->loc, err);
        return s;
    }
    DL_CHECK(sel->kind == DL_SQL_STMT_QUERY, err, DL_ERR_INTERNAL, "COPY INTO: no query");
    *out = (dl_sql_stmt){.kind = DL_SQL_STMT_INSERT, .loc = c->stmt->loc, .end = c->stmt->end};
    out->u.insert.table = c->stmt->u.copy_into.table;
    out->u.insert.by_name = true;
    out->u.insert.query = sel->u.query;
    if (c->is_merge_schema) {
        dl_sql_prop *p = dl_arena_alloc_zero(b->arena, sizeof(*p));
        DL_CHECK(p != NULL, err, DL_ERR_NOMEM, "out of memory");
        *p = (dl_sql_prop){.loc = c->stmt->loc,
                           .key = DL_STR("mergeSchema"),
                           .has_value = true,
                           .value = DL_STR("true")};
        out->u.insert.options = (dl_sql_prop_list){.items = p, .n = 1};
    }
    return DL_OK;
}

/* ---- the commit ----------------------------------------------------------------------------- */

static dl_status
stage_copy(void *ctx, dl_delta_tx *tx, dl_error *err) {
    copy_into *c = ctx;
    DL_TRY(dl_delta_tx_set_operation_name(tx, "COPY INTO", true, err));
    DL_TRY(dl_delta_tx_param_string(tx, "fileFormat", c->format, err));
    DL_TRY(dl_delta_tx_param_json(tx, "force", c->is_force ? "true" : "false", err));
    DL_TRY(dl_delta_tx_param_json(tx, "mergeSchema", c->is_merge_schema ? "true" : "false", err));
    DL_TRY(dl_delta_tx_metric(tx, "numCopiedFiles", c->n_new, err));
    for (int32_t i = 0; i < c->n_new; i++) {
        const char *id = app_id(c->b, c->new_files[i]);
        DL_CHECK(id != NULL, err, DL_ERR_NOMEM, "out of memory");
        DL_TRY(dl_delta_tx_set_app_version(tx, id, c->version, err));
    }
    return DL_OK;
}

dl_status
dl_sql_dml_copy_into(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    copy_into c = {.b = b, .stmt = stmt};
    DL_TRY(read_format(&c, err));
    DL_TRY(read_options(&c, err));
    dl_sql_dml_target t;
    DL_TRY(dl_sql_dml_open(b, &stmt->u.copy_into.table, stmt->loc, &t, err));
    DL_TRY(list_new_files(&c, &t, err));
    if (c.n_new == 0) {
        return DL_OK; /* every file loaded before: no commit, zero rows */
    }
    c.version = dl_delta_snapshot_version(t.snap) + 1;
    dl_sql_stmt ins;
    DL_TRY(insert_stmt(&c, &t, &ins, err));
    dl_sql_insert_hook hook = {.stage = stage_copy, .ctx = &c};
    return dl_sql_dml_insert_with(b, &ins, &hook, err);
}
