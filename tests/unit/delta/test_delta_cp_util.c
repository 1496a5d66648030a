/* SPDX-License-Identifier: Apache-2.0 */
#include "test_delta_cp_util.h"

#include <string.h>

#include "base/timefmt.h"
#include "json/json.h"
#include "parquet/pq_writer.h"

/* ---- the checkpoint schema ----------------------------------------------------------- */

typedef struct schema_ctx {
    dl_arena *arena;
    const dl_type *str;
    const dl_type *i32;
    const dl_type *i64;
    const dl_type *boolean;
    const dl_type *map;
    const dl_type *strs;
    dl_error *err;
    bool ok;
} schema_ctx;

static const dl_type *
mk_struct(schema_ctx *s, const dl_type_field *fields, int32_t n) {
    const dl_type *t = NULL;
    if (s->ok && dl_vec_type_struct(s->arena, fields, n, &t, s->err) != DL_OK) {
        s->ok = false;
    }
    return t;
}

#define F(n, t) \
    { .name = (n), .type = (t), .is_nullable = true }

static const dl_type *
parsed_type(schema_ctx *s, const char *json) {
    dl_delta_schema schema;
    if (!s->ok || dl_delta_schema_parse(dl_str_from_cstr(json), s->arena, &schema, s->err)) {
        s->ok = false;
        return NULL;
    }
    return schema.type;
}

static const dl_type *
dv_type(schema_ctx *s) {
    dl_type_field f[] = {F("storageType", s->str), F("pathOrInlineDv", s->str),
                         F("offset", s->i32),      F("sizeInBytes", s->i32),
                         F("cardinality", s->i64), F("maxRowIndex", s->i64)};
    return mk_struct(s, f, (int32_t)DL_ARRAY_LEN(f));
}

static const dl_type *
add_type(schema_ctx *s, const cp_shape *shape) {
    dl_type_field f[16];
    int32_t n = 0;
    f[n++] = (dl_type_field)F("path", s->str);
    f[n++] = (dl_type_field)F("partitionValues", s->map);
    f[n++] = (dl_type_field)F("size", s->i64);
    f[n++] = (dl_type_field)F("modificationTime", s->i64);
    f[n++] = (dl_type_field)F("dataChange", s->boolean);
    f[n++] = (dl_type_field)F("tags", s->map);
    if (shape->has_dv) {
        f[n++] = (dl_type_field)F("deletionVector", dv_type(s));
        f[n++] = (dl_type_field)F("baseRowId", s->i64);
        f[n++] = (dl_type_field)F("defaultRowCommitVersion", s->i64);
    }
    if (!shape->no_stats) {
        f[n++] = (dl_type_field)F("stats", s->str);
    }
    if (shape->stats_parsed) {
        f[n++] = (dl_type_field)F("stats_parsed", parsed_type(s, shape->stats_parsed));
    }
    if (shape->partition_parsed) {
        f[n++] =
            (dl_type_field)F("partitionValues_parsed", parsed_type(s, shape->partition_parsed));
    }
    return mk_struct(s, f, n);
}

static const dl_type *
remove_type(schema_ctx *s, const cp_shape *shape) {
    dl_type_field f[10];
    int32_t n = 0;
    f[n++] = (dl_type_field)F("path", s->str);
    f[n++] = (dl_type_field)F("deletionTimestamp", s->i64);
    f[n++] = (dl_type_field)F("dataChange", s->boolean);
    f[n++] = (dl_type_field)F("extendedFileMetadata", s->boolean);
    f[n++] = (dl_type_field)F("partitionValues", s->map);
    f[n++] = (dl_type_field)F("size", s->i64);
    if (shape->has_dv) {
        f[n++] = (dl_type_field)F("deletionVector", dv_type(s));
    }
    return mk_struct(s, f, n);
}

static const dl_type *
metadata_type(schema_ctx *s) {
    dl_type_field fmt[] = {F("provider", s->str), F("options", s->map)};
    dl_type_field f[] = {F("id", s->str),
                         F("name", s->str),
                         F("description", s->str),
                         F("format", mk_struct(s, fmt, 2)),
                         F("schemaString", s->str),
                         F("partitionColumns", s->strs),
                         F("configuration", s->map),
                         F("createdTime", s->i64)};
    return mk_struct(s, f, (int32_t)DL_ARRAY_LEN(f));
}

static const dl_type *
checkpoint_type(schema_ctx *s, const cp_shape *shape) {
    if (s->ok && (dl_vec_type_map(s->arena, s->str, s->str, true, &s->map, s->err) != DL_OK ||
                  dl_vec_type_array(s->arena, s->str, true, &s->strs, s->err) != DL_OK)) {
        s->ok = false;
    }
    dl_type_field f[12];
    int32_t n = 0;
    if (!shape->is_sidecar) {
        dl_type_field txn[] = {F("appId", s->str), F("version", s->i64), F("lastUpdated", s->i64)};
        f[n++] = (dl_type_field)F("txn", mk_struct(s, txn, 3));
    }
    f[n++] = (dl_type_field)F("add", add_type(s, shape));
    f[n++] = (dl_type_field)F("remove", remove_type(s, shape));
    if (!shape->is_sidecar) {
        f[n++] = (dl_type_field)F("metaData", metadata_type(s));
        dl_type_field proto[] = {F("minReaderVersion", s->i32), F("minWriterVersion", s->i32),
                                 F("readerFeatures", s->strs), F("writerFeatures", s->strs)};
        f[n++] = (dl_type_field)F("protocol", mk_struct(s, proto, 4));
    }
    if (shape->has_domain && !shape->is_sidecar) {
        dl_type_field dom[] = {F("domain", s->str), F("configuration", s->str),
                               F("removed", s->boolean)};
        f[n++] = (dl_type_field)F("domainMetadata", mk_struct(s, dom, 3));
    }
    if (shape->is_v2 && !shape->is_sidecar) {
        dl_type_field cpm[] = {F("version", s->i64), F("tags", s->map)};
        f[n++] = (dl_type_field)F("checkpointMetadata", mk_struct(s, cpm, 2));
        dl_type_field sc[] = {F("path", s->str), F("sizeInBytes", s->i64),
                              F("modificationTime", s->i64), F("tags", s->map)};
        f[n++] = (dl_type_field)F("sidecar", mk_struct(s, sc, 4));
    }
    return mk_struct(s, f, n);
}

/* ---- JSON values into vectors -------------------------------------------------------- */

static dl_status fill(dl_vector *v, dl_json_val j, dl_error *err);

static dl_status
fill_struct(dl_vector *v, dl_json_val j, dl_error *err) {
    for (int32_t i = 0; i < v->n_children; i++) {
        DL_TRY(fill(v->children[i], dl_json_obj_get(j, v->type->fields[i].name), err));
    }
    return dl_vec_append_struct(v, err);
}

static dl_status
fill_list(dl_vector *v, dl_json_val j, dl_error *err) {
    dl_json_iter it = dl_json_val_iter(j);
    dl_str key;
    dl_json_val item;
    dl_vector *c = v->children[0];
    while (dl_json_iter_next(&it, &key, &item)) {
        if (v->type->id == DL_VEC_TYPE_MAP) {
            DL_TRY(dl_vec_append_str(c->children[0], key.ptr, key.len, err));
            DL_TRY(fill(c->children[1], item, err));
            DL_TRY(dl_vec_append_struct(c, err));
        } else {
            DL_TRY(fill(c, item, err));
        }
    }
    return dl_vec_append_list(v, err);
}

static dl_status
fill_scalar(dl_vector *v, dl_json_val j, dl_error *err) {
    int64_t i = 0;
    double d = 0;
    bool b = false;
    dl_str s;
    switch (v->type->id) {
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY:
        s = dl_json_val_type(j) == DL_JSON_STRING ? dl_json_val_str(j) : dl_json_val_raw(j);
        return dl_vec_append_str(v, s.ptr, s.len, err);
    case DL_VEC_TYPE_BOOLEAN:
        DL_TRY(dl_json_val_get_bool(j, &b, err));
        return dl_vec_append_bool(v, b, err);
    case DL_VEC_TYPE_BYTE:
    case DL_VEC_TYPE_SHORT:
    case DL_VEC_TYPE_INT:
        DL_TRY(dl_json_val_get_int64(j, &i, err));
        return v->type->id == DL_VEC_TYPE_INT     ? dl_vec_append_i32(v, (int32_t)i, err)
               : v->type->id == DL_VEC_TYPE_SHORT ? dl_vec_append_i16(v, (int16_t)i, err)
                                                  : dl_vec_append_i8(v, (int8_t)i, err);
    case DL_VEC_TYPE_LONG:
        DL_TRY(dl_json_val_get_int64(j, &i, err));
        return dl_vec_append_i64(v, i, err);
    case DL_VEC_TYPE_FLOAT:
    case DL_VEC_TYPE_DOUBLE:
        DL_TRY(dl_json_val_get_double(j, &d, err));
        return v->type->id == DL_VEC_TYPE_FLOAT ? dl_vec_append_f32(v, (float)d, err)
                                                : dl_vec_append_f64(v, d, err);
    case DL_VEC_TYPE_DECIMAL: {
        dl_i128 x;
        DL_TRY(dl_delta_decimal_parse(dl_json_val_raw(j), v->type->precision, v->type->scale, &x,
                                      err));
        return dl_vec_append_i128(v, x, err);
    }
    case DL_VEC_TYPE_DATE: {
        int32_t days;
        DL_TRY(dl_date_parse(dl_json_val_str(j), &days, err));
        return dl_vec_append_i32(v, days, err);
    }
    case DL_VEC_TYPE_TIMESTAMP:
        DL_TRY(dl_ts_parse(dl_json_val_str(j), 0, &i, err));
        return dl_vec_append_i64(v, i, err);
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        DL_TRY(dl_ts_ntz_parse(dl_json_val_str(j), true, &i, err));
        return dl_vec_append_i64(v, i, err);
    default:
        return dl_vec_append_null(v, err);
    }
}

static dl_status
fill(dl_vector *v, dl_json_val j, dl_error *err) {
    if (dl_json_val_is_missing(j) || dl_json_val_is_null(j)) {
        return dl_vec_append_null(v, err);
    }
    switch (v->type->id) {
    case DL_VEC_TYPE_STRUCT:
        return fill_struct(v, j, err);
    case DL_VEC_TYPE_MAP:
    case DL_VEC_TYPE_ARRAY:
        return fill_list(v, j, err);
    default:
        return fill_scalar(v, j, err);
    }
}

/* ---- the file ------------------------------------------------------------------------ */

struct cp_writer {
    dl_arena arena;
    const dl_type *type;
    dl_pq_writer *w;
    dl_batch *batch;
    dl_json_doc doc;
};

static dl_status
flush_rows(cp_writer *cw, dl_error *err) {
    if (cw->batch->cols[0]->length == 0) {
        return DL_OK;
    }
    dl_vec_batch_set_count(cw->batch, cw->batch->cols[0]->length);
    DL_TRY(dl_pq_writer_write(cw->w, cw->batch, err));
    return dl_vec_batch_reset(cw->batch, err);
}

cp_writer *
cp_writer_open(dl_store *store, const char *path, const cp_shape *shape, dl_error *err) {
    cp_writer *cw = dl_mem_alloc_zero(NULL, sizeof(*cw));
    if (!cw) {
        return NULL;
    }
    dl_arena_init(&cw->arena, NULL, 0);
    dl_json_doc_init(&cw->doc, NULL);
    schema_ctx s = {.arena = &cw->arena,
                    .str = dl_vec_type_prim(DL_VEC_TYPE_STRING),
                    .i32 = dl_vec_type_prim(DL_VEC_TYPE_INT),
                    .i64 = dl_vec_type_prim(DL_VEC_TYPE_LONG),
                    .boolean = dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN),
                    .err = err,
                    .ok = true};
    cw->type = checkpoint_type(&s, shape);
    bool ok = s.ok;
    if (ok) {
        dl_pq_write_options o;
        dl_pq_write_options_init(&o);
        o.row_group_rows = shape->row_group_rows;
        ok = dl_pq_writer_open(store, path, DL_STORE_PUT_OVERWRITE, cw->type, &o, NULL, &cw->w,
                               err) == DL_OK;
    }
    ok = ok && dl_vec_batch_new(NULL, cw->type, 64, &cw->batch, err) == DL_OK;
    if (!ok) {
        cp_writer_abort(cw);
        return NULL;
    }
    return cw;
}

bool
cp_writer_add(cp_writer *cw, dl_str line, dl_error *err) {
    if (line.len == 0) {
        return true;
    }
    if (dl_json_doc_parse(&cw->doc, line.ptr, line.len, err) != DL_OK) {
        return false;
    }
    dl_json_val root = dl_json_doc_root(&cw->doc);
    for (int32_t c = 0; c < cw->batch->n_cols; c++) {
        if (fill(cw->batch->cols[c], dl_json_obj_get(root, cw->type->fields[c].name), err) !=
            DL_OK) {
            return false;
        }
    }
    return cw->batch->cols[0]->length < 1024 || flush_rows(cw, err) == DL_OK;
}

void
cp_writer_abort(cp_writer *cw) {
    if (!cw) {
        return;
    }
    dl_pq_writer_abort(cw->w);
    dl_vec_batch_free(cw->batch);
    dl_json_doc_destroy(&cw->doc);
    dl_arena_destroy(&cw->arena);
    dl_mem_free(NULL, cw, sizeof(*cw));
}

bool
cp_writer_close(cp_writer *cw, dl_error *err) {
    bool ok = flush_rows(cw, err) == DL_OK;
    if (ok) {
        ok = dl_pq_writer_close(cw->w, NULL, NULL, err) == DL_OK;
        cw->w = NULL;
    }
    cp_writer_abort(cw);
    return ok;
}

bool
cp_write(dl_store *store, const char *path, const cp_shape *shape, const char *lines,
         dl_error *err) {
    cp_writer *cw = cp_writer_open(store, path, shape, err);
    if (!cw) {
        return false;
    }
    dl_json_lines it;
    dl_json_lines_init(&it, lines, strlen(lines));
    dl_str line;
    while (dl_json_lines_next(&it, &line)) {
        if (!cp_writer_add(cw, line, err)) {
            cp_writer_abort(cw);
            return false;
        }
    }
    return cp_writer_close(cw, err);
}

bool
tp_write(dl_store *store, const char *path, const char *schema_json, const char *lines,
         const tp_options *opts, dl_error *err) {
    static const tp_options defaults;
    opts = opts ? opts : &defaults;
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_delta_schema schema;
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_batch *batch = NULL;
    dl_pq_writer *w = NULL;
    bool ok = dl_delta_schema_parse(dl_str_from_cstr(schema_json), &arena, &schema, err) == DL_OK;
    if (ok) {
        dl_pq_write_options o;
        dl_pq_write_options_init(&o);
        o.row_group_rows = opts->row_group_rows;
        o.field_ids = opts->field_ids;
        o.n_field_ids = opts->n_field_ids;
        ok = dl_pq_writer_open(store, path, DL_STORE_PUT_OVERWRITE, schema.type, &o, NULL, &w,
                               err) == DL_OK;
    }
    ok = ok && dl_vec_batch_new(NULL, schema.type, 16, &batch, err) == DL_OK;
    dl_json_lines it;
    dl_json_lines_init(&it, lines, strlen(lines));
    dl_str line;
    while (ok && dl_json_lines_next(&it, &line)) {
        if (line.len == 0) {
            continue;
        }
        ok = dl_json_doc_parse(&doc, line.ptr, line.len, err) == DL_OK;
        dl_json_val root = dl_json_doc_root(&doc);
        for (int32_t c = 0; ok && c < batch->n_cols; c++) {
            ok = fill(batch->cols[c], dl_json_obj_get(root, schema.type->fields[c].name), err) ==
                 DL_OK;
        }
    }
    if (ok && batch->cols[0]->length > 0) {
        dl_vec_batch_set_count(batch, batch->cols[0]->length);
        ok = dl_pq_writer_write(w, batch, err) == DL_OK;
    }
    if (ok) {
        ok = dl_pq_writer_close(w, NULL, NULL, err) == DL_OK;
    } else {
        dl_pq_writer_abort(w);
    }
    dl_vec_batch_free(batch);
    dl_json_doc_destroy(&doc);
    dl_arena_destroy(&arena);
    return ok;
}
