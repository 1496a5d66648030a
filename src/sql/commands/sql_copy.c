/* SPDX-License-Identifier: Apache-2.0 */
/*
 * COPY (query) TO 'file' [(options)] and COPY table TO 'file' (sql_bind_int.h): runs the
 * query and writes its rows to a local file, which appears only when complete (the store's
 * atomic write). The format comes from FORMAT or the file's extension:
 *
 *   parquet  through our Parquet writer; options CODEC (or COMPRESSION): uncompressed,
 *            snappy (default), gzip, zstd, lz4, lz4_raw, brotli; ROW_GROUP_SIZE (rows);
 *            ROW_GROUP_SIZE_BYTES
 *   csv      RFC 4180: a header line (HEADER false to omit), DELIMITER (default ','), values as
 *            CAST(value AS STRING) gives them, quoted when they hold the delimiter, a quote or
 *            a line break; NULL as an empty field
 *   json     one object per line (JSON Lines); NULL values are left out, as Spark writes them;
 *            numbers and booleans as JSON values, everything else as strings
 *
 * Paths are absolute or relative to the working directory. The statement returns no rows.
 */
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "json/json.h"
#include "parquet/pq_writer.h"
#include "sql/commands/sql_dml.h"

typedef enum copy_format {
    COPY_PARQUET = 1,
    COPY_CSV,
    COPY_JSON,
} copy_format;

typedef struct copy_ctx {
    dl_sql_exec_ctx *exec;
    copy_format format;
    dl_pq_writer *pq;
    dl_store_writer *w;
    dl_buf line;
    bool header;
    char delim;
    const dl_type *schema;
    bool wrote_header;
} copy_ctx;

/* ---- options -------------------------------------------------------------------------------- */

/* The text of an option's value (a string, number or word), or NULL. */
static const char *
option_text(dl_sql_binder *b, const dl_sql_copy_option *o) {
    if (o->value == NULL) {
        return "true";
    }
    const dl_sql_expr *e = o->value;
    if (e->kind == DL_SQL_EXPR_LITERAL) {
        if (e->u.lit.kind == DL_SQL_LIT_BOOL) {
            return e->u.lit.b ? "true" : "false";
        }
        return dl_arena_strndup(b->arena, e->u.lit.text.ptr, e->u.lit.text.len);
    }
    if (e->kind == DL_SQL_EXPR_COLUMN && e->u.column.n_parts == 1) {
        return e->u.column.parts[0].name.ptr;
    }
    return NULL;
}

static bool
parse_codec(const char *name, int32_t *out) {
    static const struct {
        const char *name;
        int32_t codec;
    } codecs[] = {
        {"uncompressed", DL_PQ_CODEC_UNCOMPRESSED},
        {"none", DL_PQ_CODEC_UNCOMPRESSED},
        {"snappy", DL_PQ_CODEC_SNAPPY},
        {"gzip", DL_PQ_CODEC_GZIP},
        {"zstd", DL_PQ_CODEC_ZSTD},
        {"lz4", DL_PQ_CODEC_LZ4_RAW},
        {"lz4_raw", DL_PQ_CODEC_LZ4_RAW},
        {"lz4_hadoop", DL_PQ_CODEC_LZ4},
        {"brotli", DL_PQ_CODEC_BROTLI},
    };

    for (size_t i = 0; i < DL_ARRAY_LEN(codecs); i++) {
        if (dl_str_eq_nocase(dl_str_from_cstr(name), dl_str_from_cstr(codecs[i].name))) {
            *out = codecs[i].codec;
            return true;
        }
    }
    return false;
}

static bool
parse_count(const char *text, int64_t *out) {
    int64_t v = 0;
    if (text == NULL || *text == '\0') {
        return false;
    }
    for (const char *p = text; *p != '\0'; p++) {
        if (*p < '0' || *p > '9' || v > INT64_MAX / 10) {
            return false;
        }
        v = v * 10 + (*p - '0');
    }
    *out = v;
    return v > 0;
}

static dl_status
apply_option(dl_sql_binder *b, copy_ctx *c, dl_pq_write_options *pq, const dl_sql_copy_option *o,
             dl_error *err) {
    dl_str name = o->name.name;
    const char *v = option_text(b, o);
    if (v == NULL) {
        DL_SQL_BIND_FAIL(b, o->name.loc, DL_ERR_SQL_BIND, err,
                         "COPY option %s needs a constant value", name.ptr);
    }
    int64_t n = 0;
    if (dl_str_eq_nocase(name, DL_STR("format"))) {
        bool ok = true;
        c->format = dl_str_eq_nocase(dl_str_from_cstr(v), DL_STR("parquet")) ? COPY_PARQUET
                    : dl_str_eq_nocase(dl_str_from_cstr(v), DL_STR("csv"))   ? COPY_CSV
                    : dl_str_eq_nocase(dl_str_from_cstr(v), DL_STR("json"))  ? COPY_JSON
                                                                             : (ok = false, 0);
        if (ok) {
            return DL_OK;
        }
    } else if (dl_str_eq_nocase(name, DL_STR("codec")) ||
               dl_str_eq_nocase(name, DL_STR("compression"))) {
        if (parse_codec(v, &pq->codec)) {
            return DL_OK;
        }
    } else if (dl_str_eq_nocase(name, DL_STR("row_group_size")) && parse_count(v, &n)) {
        pq->row_group_rows = n;
        return DL_OK;
    } else if (dl_str_eq_nocase(name, DL_STR("row_group_size_bytes")) && parse_count(v, &n)) {
        pq->row_group_bytes = n;
        return DL_OK;
    } else if (dl_str_eq_nocase(name, DL_STR("header"))) {
        c->header = !dl_str_eq_nocase(dl_str_from_cstr(v), DL_STR("false"));
        return DL_OK;
    } else if ((dl_str_eq_nocase(name, DL_STR("delimiter")) ||
                dl_str_eq_nocase(name, DL_STR("sep"))) &&
               strlen(v) == 1) {
        c->delim = v[0];
        return DL_OK;
    }
    DL_SQL_BIND_FAIL(b, o->name.loc, DL_ERR_SQL_BIND, err,
                     "COPY option %s = '%s' is not understood (options: FORMAT, CODEC, "
                     "ROW_GROUP_SIZE, ROW_GROUP_SIZE_BYTES, HEADER, DELIMITER)",
                     name.ptr, v);
}

static copy_format
format_of(dl_str path) {
    if (dl_str_ends_with(path, DL_STR(".csv"))) {
        return COPY_CSV;
    }
    if (dl_str_ends_with(path, DL_STR(".json")) || dl_str_ends_with(path, DL_STR(".jsonl")) ||
        dl_str_ends_with(path, DL_STR(".ndjson"))) {
        return COPY_JSON;
    }
    return COPY_PARQUET;
}

/* ---- writing rows --------------------------------------------------------------------------- */

static dl_status
csv_field(dl_buf *line, dl_str s, char delim, dl_error *err) {
    bool quote = false;
    for (size_t i = 0; i < s.len && !quote; i++) {
        quote = s.ptr[i] == delim || s.ptr[i] == '"' || s.ptr[i] == '\n' || s.ptr[i] == '\r';
    }
    if (!quote) {
        return dl_buf_append(line, s.ptr, s.len, err);
    }
    DL_TRY(dl_buf_append_byte(line, '"', err));
    for (size_t i = 0; i < s.len; i++) {
        if (s.ptr[i] == '"') {
            DL_TRY(dl_buf_append_byte(line, '"', err));
        }
        DL_TRY(dl_buf_append_byte(line, (uint8_t)s.ptr[i], err));
    }
    return dl_buf_append_byte(line, '"', err);
}

static dl_status
json_string(dl_buf *line, dl_str s, dl_error *err) {
    DL_TRY(dl_buf_append_byte(line, '"', err));
    for (size_t i = 0; i < s.len; i++) {
        unsigned char ch = (unsigned char)s.ptr[i];
        if (ch == '"' || ch == '\\') {
            DL_TRY(dl_buf_append_byte(line, '\\', err));
            DL_TRY(dl_buf_append_byte(line, ch, err));
        } else if (ch < 0x20) {
            DL_TRY(dl_buf_appendf(line, err, "\\u%04x", (unsigned)ch));
        } else {
            DL_TRY(dl_buf_append_byte(line, ch, err));
        }
    }
    return dl_buf_append_byte(line, '"', err);
}

static bool
is_json_number(dl_type_id id) {
    return id == DL_VEC_TYPE_BOOLEAN || id == DL_VEC_TYPE_BYTE || id == DL_VEC_TYPE_SHORT ||
           id == DL_VEC_TYPE_INT || id == DL_VEC_TYPE_LONG || id == DL_VEC_TYPE_DECIMAL;
}

/* The batch's columns as STRING vectors (CAST semantics); text[c] new references. */
static dl_status
columns_as_text(copy_ctx *c, const dl_batch *batch, dl_vector **text, dl_error *err) {
    for (int32_t col = 0; col < batch->n_cols; col++) {
        dl_vector *v = NULL;
        DL_TRY(dl_sql_batch_column(batch, col, &v, err));
        if (v->type->id == DL_VEC_TYPE_STRING) {
            text[col] = v;
            continue;
        }
        dl_status s = dl_vec_new(c->exec->alloc, dl_vec_type_prim(DL_VEC_TYPE_STRING), batch->count,
                                 &text[col], err);
        if (s == DL_OK) {
            s = dl_sql_cast(&c->exec->env, DL_SQL_CAST_LEGACY, v, batch->count, text[col], err);
        }
        dl_vec_unref(v);
        DL_TRY(s);
    }
    return DL_OK;
}

/* The text of row k of a STRING vector; *is_null says whether it is NULL. */
static dl_str
text_at(const dl_vector *v, int64_t k, bool *is_null) {
    *is_null = dl_vec_is_null(v, k);
    if (*is_null) {
        return DL_STR("");
    }
    const dl_vector *flat = NULL;
    int64_t i = dl_vec_resolve(v, k, &flat);
    return dl_vec_get_str(flat, i);
}

static dl_status
csv_row(copy_ctx *c, dl_vector **text, int64_t k, dl_error *err) {
    for (int32_t col = 0; col < c->schema->n_fields; col++) {
        bool is_null = false;
        dl_str s = text_at(text[col], k, &is_null);
        if (col > 0) {
            DL_TRY(dl_buf_append_byte(&c->line, (uint8_t)c->delim, err));
        }
        DL_TRY(csv_field(&c->line, s, c->delim, err));
    }
    return dl_buf_append_byte(&c->line, '\n', err);
}

static dl_status
json_row(copy_ctx *c, dl_vector **text, int64_t k, dl_error *err) {
    dl_buf *line = &c->line;
    bool first = true;
    DL_TRY(dl_buf_append_byte(line, '{', err));
    for (int32_t col = 0; col < c->schema->n_fields; col++) {
        bool is_null = false;
        dl_str s = text_at(text[col], k, &is_null);
        if (is_null) {
            continue;
        }
        DL_TRY(dl_buf_append_cstr(line, first ? "" : ",", err));
        first = false;
        DL_TRY(json_string(line, dl_str_from_cstr(c->schema->fields[col].name), err));
        DL_TRY(dl_buf_append_byte(line, ':', err));
        bool is_number = is_json_number(c->schema->fields[col].type->id);
        DL_TRY(is_number ? dl_buf_append(line, s.ptr, s.len, err) : json_string(line, s, err));
    }
    return dl_buf_append_cstr(line, "}\n", err);
}

static dl_status
text_row(copy_ctx *c, dl_vector **text, int64_t k, dl_error *err) {
    return c->format == COPY_CSV ? csv_row(c, text, k, err) : json_row(c, text, k, err);
}

static dl_status
write_header(copy_ctx *c, dl_error *err) {
    c->wrote_header = true;
    if (c->format != COPY_CSV || !c->header) {
        return DL_OK;
    }
    for (int32_t col = 0; col < c->schema->n_fields; col++) {
        if (col > 0) {
            DL_TRY(dl_buf_append_byte(&c->line, (uint8_t)c->delim, err));
        }
        DL_TRY(csv_field(&c->line, dl_str_from_cstr(c->schema->fields[col].name), c->delim, err));
    }
    return dl_buf_append_byte(&c->line, '\n', err);
}

static dl_status
write_text(copy_ctx *c, const dl_batch *batch, dl_error *err) {
    dl_vector *text[1024] = {0};
    DL_CHECK(batch->n_cols <= 1024, err, DL_ERR_LIMIT, "COPY of more than 1024 columns");
    dl_buf_reset(&c->line);
    dl_status s = c->wrote_header ? DL_OK : write_header(c, err);
    if (s == DL_OK) {
        s = columns_as_text(c, batch, text, err);
    }
    for (int64_t k = 0; k < batch->count && s == DL_OK; k++) {
        s = text_row(c, text, k, err);
    }
    for (int32_t col = 0; col < batch->n_cols; col++) {
        dl_vec_unref(text[col]);
    }
    if (s == DL_OK) {
        s = dl_store_writer_append(c->w, c->line.data, c->line.len, err);
    }
    return s;
}

static dl_status
copy_take(void *ctx, const dl_batch *batch, dl_error *err) {
    copy_ctx *c = ctx;
    if (c->format == COPY_PARQUET) {
        return dl_pq_writer_write(c->pq, batch, err);
    }
    return write_text(c, batch, err);
}

/* ---- the statement ----------------------------------------------------------------------------
 */

static dl_status
copy_source(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    if (stmt->u.copy.query != NULL) {
        return dl_sql_binder_query(b, stmt->u.copy.query, NULL, out, err);
    }
    dl_sql_tref tref = {.kind = DL_SQL_TREF_TABLE, .loc = stmt->loc, .height = 1};
    tref.u.table.name = stmt->u.copy.table;
    dl_sql_rel rel = {0};
    DL_TRY(dl_sql_binder_tref(b, &tref, NULL, &rel, err));
    *out = rel.plan;
    return DL_OK;
}

static dl_status
copy_run(dl_sql_binder *b, copy_ctx *c, dl_sql_plan *plan, const char *path,
         const dl_pq_write_options *pq, dl_store *store, dl_error *err) {
    dl_status s = DL_OK;
    if (c->format == COPY_PARQUET) {
        s = dl_pq_writer_open(store, path, DL_STORE_PUT_OVERWRITE, plan->schema, pq, b->exec->alloc,
                              &c->pq, err);
    } else {
        s = dl_store_writer_open(store, path, DL_STORE_PUT_OVERWRITE, &c->w, err);
    }
    if (s == DL_OK) {
        s = dl_sql_plan_run(b->exec, plan, -1, copy_take, c, err);
    }
    if (s == DL_OK && c->format != COPY_PARQUET && !c->wrote_header) {
        dl_buf_reset(&c->line);
        s = write_header(c, err);
        if (s == DL_OK) {
            s = dl_store_writer_append(c->w, c->line.data, c->line.len, err);
        }
    }
    if (c->pq != NULL) {
        dl_status cs = s == DL_OK ? dl_pq_writer_close(c->pq, b->arena, NULL, err) : DL_OK;
        if (s != DL_OK) {
            dl_pq_writer_abort(c->pq);
        }
        s = s == DL_OK ? cs : s;
    }
    if (c->w != NULL) {
        if (s == DL_OK) {
            s = dl_store_writer_commit(c->w, err);
        } else {
            dl_store_writer_abort(c->w);
        }
    }
    return s;
}

dl_status
dl_sql_exec_copy(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_sql_plan **out, dl_error *err) {
    *out = NULL;
    copy_ctx c = {.exec = b->exec, .header = true, .delim = ','};
    c.format = format_of(stmt->u.copy.path);
    dl_pq_write_options pq;
    dl_pq_write_options_init(&pq);
    pq.pool = b->exec->pool;
    for (uint32_t i = 0; i < stmt->u.copy.n_options; i++) {
        DL_TRY(apply_option(b, &c, &pq, &stmt->u.copy.options[i], err));
    }
    dl_sql_plan *plan = NULL;
    DL_TRY(copy_source(b, stmt, &plan, err));
    c.schema = plan->schema;
    dl_store *store = NULL;
    const char *path = NULL;
    DL_TRY(dl_sql_root_store(b, &store, err));
    DL_TRY(dl_sql_store_path(b, stmt->u.copy.path, &path, err));
    dl_buf_init(&c.line, b->exec->alloc);
    dl_status s = copy_run(b, &c, plan, path, &pq, store, err);
    dl_buf_destroy(&c.line);
    if (s != DL_OK) {
        dl_error_prefix(err, "COPY TO '%s'", stmt->u.copy.path.ptr);
    }
    return s;
}
