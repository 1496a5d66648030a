/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CONVERT TO DELTA parquet.`/path` [NO STATISTICS] [PARTITIONED BY (col type, ...)]
 * (sql_dml.h), as Delta's ConvertToDeltaCommand: the folder of Parquet files becomes a Delta
 * table in place, in one commit (version 0) that lists the files as they are -- nothing is
 * copied or rewritten:
 *
 *   - the files: every file under the folder, at any depth, but those in or named after a
 *     component starting with '_' or '.' (_SUCCESS, _delta_log, .crc files), as Spark lists a
 *     folder;
 *   - partitions: with PARTITIONED BY, each file must sit under one `col=value` folder per
 *     partition column, in the order given (Hive's layout, %XX escapes decoded,
 *     __HIVE_DEFAULT_PARTITION__ for null); the values must be of the column's type;
 *   - the schema: the first file's columns (all nullable), then the partition columns; every
 *     other file must have the same columns (a mixed folder is refused naming both files:
 *     Delta would merge them, deltalite does not yet);
 *   - stats: numRecords from each file's footer, unless NO STATISTICS (then none). Delta also
 *     collects min/max/nullCount by reading the data; deltalite does not yet (docs/sql.md):
 *     the table reads the same, its files are only skipped less;
 *   - commitInfo: operation CONVERT with operationParameters numFiles, partitionedBy,
 *     collectStats and sourceFormat, and operationMetrics numConvertedFiles.
 *
 * A folder that is a Delta table already is left alone (Delta returns without a commit).
 */
#include <stdio.h>
#include <string.h>

#include "delta/delta_dv.h"
#include "parquet/pq_reader.h"
#include "sql/commands/sql_dml.h"

typedef struct convert_ctx {
    const dl_sql_stmt *stmt;
    const char *path; /* the folder, as written */
    dl_store *store;  /* rooted at the folder */
    dl_delta_table *table;
    dl_store_listing listing;
    const dl_type *file_type; /* the first file's columns */
    const char *first_file;
    dl_delta_field *part_fields; /* the PARTITIONED BY columns */
    int32_t n_parts;
    const char **part_names;
    int64_t n_files;
} convert_ctx;

static bool
is_hidden_path(const char *p) {
    for (const char *c = p; c != NULL; c = strchr(c, '/')) {
        c += c[0] == '/' ? 1 : 0;
        if (c[0] == '_' || c[0] == '.') {
            return true;
        }
    }
    return false;
}

static dl_status
open_folder(dl_sql_binder *b, const dl_sql_stmt *stmt, convert_ctx *c, bool *out_is_delta,
            dl_error *err) {
    const dl_sql_name *name = &stmt->u.convert.table;
    if (name->n_parts != 2 || !dl_str_eq_nocase(name->parts[0].name, DL_STR("parquet")) ||
        !name->parts[1].is_quoted) {
        DL_SQL_BIND_FAIL(b, name->parts[0].loc, DL_ERR_UNSUPPORTED, err,
                         "CONVERT TO DELTA takes a folder of Parquet files, parquet.`/path` "
                         "(deltalite has no catalog of Parquet tables)");
    }
    c->path = dl_arena_strndup(b->arena, name->parts[1].name.ptr, name->parts[1].name.len);
    DL_CHECK(c->path != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_sql_catalog *cat = &b->session->catalog;
    dl_status s = cat->path_store != NULL ? cat->path_store(cat->ctx, c->path, &c->store, err)
                                          : dl_error_set(err, DL_ERR_UNSUPPORTED, "no catalog");
    if (s != DL_OK) {
        dl_sql_binder_locate(b, name->parts[1].loc, err);
        return s;
    }
    DL_TRY(dl_delta_table_open(c->store, "", b->exec->alloc, &c->table, err));
    DL_TRY(dl_sql_dml_hold_table(b, c->table, err));
    dl_delta_snapshot *snap = NULL;
    s = dl_delta_snapshot_latest(c->table, NULL, &snap, err);
    if (s == DL_OK) {
        dl_delta_snapshot_unref(snap);
        *out_is_delta = true;
        return DL_OK;
    }
    if (s != DL_ERR_NOT_FOUND) {
        return s;
    }
    dl_error_clear(err);
    *out_is_delta = false;
    return DL_OK;
}

/* The PARTITIONED BY columns as Delta fields. */
static dl_status
partition_fields(dl_sql_binder *b, convert_ctx *c, dl_error *err) {
    const dl_sql_column_list *cols = &c->stmt->u.convert.partition_columns;
    c->n_parts = (int32_t)cols->n;
    c->part_fields = dl_arena_alloc_zero(b->arena, (size_t)(cols->n + 1) * sizeof(dl_delta_field));
    c->part_names = dl_arena_alloc_zero(b->arena, (size_t)(cols->n + 1) * sizeof(char *));
    DL_CHECK(c->part_fields != NULL && c->part_names != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < cols->n; i++) {
        DL_TRY(dl_sql_dml_column_field(b, &cols->items[i], &c->part_fields[i], err));
        c->part_fields[i].is_nullable = true;
        c->part_names[i] = c->part_fields[i].name;
        dl_type_id id = c->part_fields[i].type->id;
        bool is_ok = id == DL_VEC_TYPE_STRING || id == DL_VEC_TYPE_BYTE ||
                     id == DL_VEC_TYPE_SHORT || id == DL_VEC_TYPE_INT || id == DL_VEC_TYPE_LONG ||
                     id == DL_VEC_TYPE_DATE || id == DL_VEC_TYPE_BOOLEAN;
        if (!is_ok) {
            DL_SQL_BIND_FAIL(b, cols->items[i].loc, DL_ERR_UNSUPPORTED, err,
                             "CONVERT TO DELTA: partition column '%s' of type %s is not supported "
                             "yet (STRING, integer types, DATE and BOOLEAN are)",
                             c->part_names[i], dl_vec_type_name(id));
        }
    }
    return DL_OK;
}

static int
hex_value(char c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                  : -1;
}

/* Decodes a Hive partition folder's value (%XX escapes) into out (reset first; NUL-ended). */
static dl_status
unescape_value(dl_str v, dl_buf *out, dl_error *err) {
    dl_buf_reset(out);
    for (size_t i = 0; i < v.len; i++) {
        int hi = v.ptr[i] == '%' && i + 2 < v.len ? hex_value(v.ptr[i + 1]) : -1;
        int lo = hi >= 0 ? hex_value(v.ptr[i + 2]) : -1;
        if (lo >= 0) {
            DL_TRY(dl_buf_append_byte(out, (uint8_t)(hi * 16 + lo), err));
            i += 2;
        } else {
            DL_TRY(dl_buf_append_byte(out, (uint8_t)v.ptr[i], err));
        }
    }
    return dl_buf_append_byte(out, 0, err);
}

/* Whether text is a value of partition column type id as the protocol serialises it. */
static bool
is_valid_value(dl_type_id id, const char *text) {
    if (id == DL_VEC_TYPE_STRING) {
        return true;
    }
    if (id == DL_VEC_TYPE_BOOLEAN) {
        return strcmp(text, "true") == 0 || strcmp(text, "false") == 0;
    }
    const char *p = text + (text[0] == '-' ? 1 : 0);
    size_t n = strlen(p);
    if (id == DL_VEC_TYPE_DATE) {
        return n == 10 && p == text && p[4] == '-' && p[7] == '-' && strspn(p, "0123456789-") == n;
    }
    return n > 0 && n <= 19 && strspn(p, "0123456789") == n;
}

/* The partition values of the file at path: one `col=value/` folder per partition column. */
static dl_status
file_partitions(dl_sql_binder *b, convert_ctx *c, const char *path, dl_delta_kv **out,
                dl_error *err) {
    dl_delta_kv *kv = dl_arena_alloc_zero(b->arena, (size_t)(c->n_parts + 1) * sizeof(*kv));
    DL_CHECK(kv != NULL, err, DL_ERR_NOMEM, "out of memory");
    const char *at = path;
    dl_buf val;
    dl_buf_init(&val, b->exec->alloc);
    dl_status s = DL_OK;
    int32_t i = 0;
    for (const char *slash = strchr(at, '/'); s == DL_OK && slash != NULL;
         at = slash + 1, slash = strchr(at, '/'), i++) {
        dl_str dir = dl_str_make(at, (size_t)(slash - at));
        const char *eq = memchr(dir.ptr, '=', dir.len);
        dl_str col = eq != NULL ? dl_str_make(dir.ptr, (size_t)(eq - dir.ptr)) : dir;
        if (i >= c->n_parts) {
            i = -1; /* more folders than partition columns */
            break;
        }
        if (eq == NULL || !dl_str_eq_nocase(col, dl_str_from_cstr(c->part_names[i]))) {
            s = dl_error_set(err, DL_ERR_SCHEMA,
                             "[DELTA_UNEXPECTED_PARTITION_COLUMN_FROM_FILE_NAME] Expecting "
                             "partition column %s, but found partition folder '%.*s' in the "
                             "path of '%s'",
                             c->part_names[i], DL_STR_FMT(dir), path);
            break;
        }
        dl_str raw = dl_str_make(eq + 1, (size_t)(dir.ptr + dir.len - eq - 1));
        kv[i].key = c->part_names[i];
        if (dl_str_eq(raw, DL_STR(DL_OPS_NULL_PARTITION))) {
            continue;
        }
        s = unescape_value(raw, &val, err);
        const char *text =
            s == DL_OK ? dl_arena_strndup(b->arena, (const char *)val.data, val.len - 1) : NULL;
        if (s == DL_OK && text == NULL) {
            s = dl_error_set(err, DL_ERR_NOMEM, "out of memory");
        } else if (s == DL_OK && !is_valid_value(c->part_fields[i].type->id, text)) {
            s = dl_error_set(err, DL_ERR_SCHEMA,
                             "CONVERT TO DELTA: partition value '%s' of '%s' is not a %s", text,
                             path, dl_vec_type_name(c->part_fields[i].type->id));
        }
        kv[i].value = text;
    }
    dl_buf_destroy(&val);
    DL_TRY(s);
    if (i != c->n_parts) {
        DL_FAIL(err, DL_ERR_SCHEMA,
                "[DELTA_UNEXPECTED_NUM_PARTITION_COLUMNS_FROM_FILE_NAME] Expecting %d partition "
                "column(s) (PARTITIONED BY), but found a different number of partition folders "
                "in the path of '%s'",
                c->n_parts, path);
    }
    *out = kv;
    return DL_OK;
}

/* The file's columns (equal to the first file's) and rows. */
static dl_status
file_footer(dl_sql_binder *b, convert_ctx *c, const char *path, int64_t *out_rows, dl_error *err) {
    dl_pq_file *f = NULL;
    DL_TRY(dl_sql_pq_open(c->store, path, b->exec->alloc, &f, err));
    const dl_pq_field *root = dl_pq_file_root(f);
    dl_status s = DL_OK;
    if (root->type == NULL) {
        s = dl_error_set(err, DL_ERR_UNSUPPORTED,
                         "CONVERT TO DELTA: '%s' has a column deltalite cannot read", path);
    } else if (c->file_type == NULL) {
        c->first_file = path;
        s = dl_sql_type_copy(b->arena, root->type, &c->file_type, err);
    } else if (!dl_vec_type_equal(root->type, c->file_type)) {
        s = dl_error_set(err, DL_ERR_SCHEMA,
                         "CONVERT TO DELTA: '%s' and '%s' have different columns (deltalite "
                         "does not merge Parquet schemas yet: convert folders whose files "
                         "agree)",
                         c->first_file, path);
    }
    *out_rows = dl_pq_file_num_rows(f);
    dl_pq_file_free(f);
    return s;
}

static dl_status
stage_file(dl_sql_binder *b, convert_ctx *c, const dl_store_entry *e, dl_delta_tx *tx,
           dl_error *err) {
    const char *path = e->path.ptr;
    dl_delta_kv *kv = NULL;
    DL_TRY(file_partitions(b, c, path, &kv, err));
    int64_t rows = 0;
    DL_TRY(file_footer(b, c, path, &rows, err));
    const char *stats = NULL;
    if (!c->stmt->u.convert.no_statistics) {
        stats = dl_arena_printf(b->arena, "{\"numRecords\":%lld}", (long long)rows);
        DL_CHECK(stats != NULL, err, DL_ERR_NOMEM, "out of memory");
    }
    dl_delta_add_file add = {.path = path,
                             .partition_values = kv,
                             .n_partition_values = c->n_parts,
                             .size = e->size,
                             .modification_time = e->mtime_ms,
                             .data_change = true,
                             .stats = stats};
    c->n_files++;
    return dl_delta_tx_add(tx, &add, err);
}

/* The table's schema: the files' columns (nullable), then the partition columns. */
static dl_status
stage_metadata(dl_sql_binder *b, convert_ctx *c, dl_delta_tx *tx, dl_error *err) {
    if (c->file_type == NULL) {
        DL_FAIL(err, DL_ERR_NOT_FOUND,
                "CONVERT TO DELTA parquet.`%s`: the folder holds no Parquet file", c->path);
    }
    int32_t n = c->file_type->n_fields;
    dl_type_field *fields = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(*fields));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < n; i++) {
        fields[i] = c->file_type->fields[i];
        fields[i].is_nullable = true;
        for (int32_t p = 0; p < c->n_parts; p++) {
            if (dl_str_eq_nocase(dl_str_from_cstr(fields[i].name),
                                 dl_str_from_cstr(c->part_names[p]))) {
                DL_FAIL(err, DL_ERR_SCHEMA,
                        "CONVERT TO DELTA: partition column '%s' is also a column of the files",
                        c->part_names[p]);
            }
        }
    }
    const dl_type *type = NULL;
    DL_TRY(dl_vec_type_struct(b->arena, fields, n, &type, err));
    dl_delta_schema data;
    DL_TRY(dl_delta_schema_from_type(type, b->arena, &data, err));
    dl_sql_dml_new_col *add =
        dl_arena_alloc_zero(b->arena, (size_t)(c->n_parts + 1) * sizeof(*add));
    DL_CHECK(add != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t p = 0; p < c->n_parts; p++) {
        add[p].field = c->part_fields[p];
    }
    dl_delta_schema ds = data;
    if (c->n_parts > 0) {
        DL_TRY(dl_sql_dml_schema_grow(b, &data, add, c->n_parts, &ds, err));
    }
    char *id = dl_arena_alloc_zero(b->arena, 37);
    DL_CHECK(id != NULL, err, DL_ERR_NOMEM, "out of memory");
    uint8_t uuid[16];
    DL_TRY(dl_delta_uuid_random(uuid, err));
    dl_delta_uuid_format(uuid, id);
    dl_delta_metadata md = {.id = id,
                            .format_provider = "parquet",
                            .partition_columns = c->part_names,
                            .n_partition_columns = c->n_parts,
                            .has_created_time = true,
                            .created_time = dl_sql_dml_now_ms()};
    DL_TRY(dl_sql_dml_schema_string(b, &ds, &md.schema_string, err));
    dl_delta_protocol protocol;
    DL_TRY(dl_delta_protocol_for_metadata(&md, &ds, NULL, b->arena, &protocol, err));
    DL_TRY(dl_delta_tx_set_protocol(tx, &protocol, err));
    return dl_delta_tx_set_metadata(tx, &md, err);
}

static dl_status
stage_commit_info(dl_sql_binder *b, convert_ctx *c, dl_delta_tx *tx, dl_error *err) {
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_CONVERT);
    char n[24];
    (void)snprintf(n, sizeof(n), "%lld", (long long)c->n_files);
    DL_TRY(dl_delta_tx_param_json(tx, "numFiles", n, err));
    DL_TRY(dl_sql_dml_param_array(b, tx, "partitionedBy", c->part_names, c->n_parts, err));
    DL_TRY(dl_delta_tx_param_json(tx, "collectStats",
                                  c->stmt->u.convert.no_statistics ? "false" : "true", err));
    DL_TRY(dl_delta_tx_param_string(tx, "sourceFormat", "parquet", err));
    return dl_delta_tx_metric(tx, "numConvertedFiles", c->n_files, err);
}

static dl_status
stage_convert(dl_sql_binder *b, convert_ctx *c, dl_delta_tx *tx, dl_error *err) {
    DL_TRY(partition_fields(b, c, err));
    DL_TRY(dl_store_list(c->store, "", NULL, DL_STORE_LIST_RECURSIVE, b->arena, &c->listing, err));
    for (size_t i = 0; i < c->listing.count; i++) {
        const dl_store_entry *e = &c->listing.entries[i];
        if (e->is_dir || is_hidden_path(e->path.ptr)) {
            continue;
        }
        dl_status s = stage_file(b, c, e, tx, err);
        if (s != DL_OK) {
            dl_error_prefix(err, "CONVERT TO DELTA parquet.`%s`", c->path);
            return s;
        }
    }
    DL_TRY(stage_metadata(b, c, tx, err));
    return stage_commit_info(b, c, tx, err);
}

dl_status
dl_sql_dml_convert(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    convert_ctx *c = dl_arena_alloc_zero(b->arena, sizeof(*c));
    DL_CHECK(c != NULL, err, DL_ERR_NOMEM, "out of memory");
    c->stmt = stmt;
    bool is_delta = false;
    DL_TRY(open_folder(b, stmt, c, &is_delta, err));
    if (is_delta) {
        return DL_OK; /* already a Delta table: Delta converts nothing */
    }
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(c->table, NULL, NULL, &tx, err));
    dl_status s = stage_convert(b, c, tx, err);
    if (s != DL_OK) {
        dl_sql_dml_discard(tx, NULL);
        return s;
    }
    return dl_sql_dml_commit(tx, NULL, err);
}
