/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Table schemas as the data-changing statements build them (sql_dml.h): a column definition
 * as a Delta field (its comment kept in the field's metadata, as Spark keeps it:
 * {"comment":"..."}), a schema out of fields, a schema grown by columns (INSERT with
 * autoMerge, ALTER TABLE ... ADD COLUMNS) keeping every existing field's metadata, and the
 * schemaString of a schema.
 */
#include <string.h>

#include "json/json.h"
#include "sql/sql_dml.h"

/* The JSON text written to jw's buffer, copied into the arena. */
static dl_status
arena_text(dl_sql_binder *b, const dl_buf *text, dl_str *out, dl_error *err) {
    char *copy = dl_arena_strndup(b->arena, (const char *)text->data, text->len);
    DL_CHECK(copy != NULL, err, DL_ERR_NOMEM, "out of memory");
    *out = (dl_str){.ptr = copy, .len = text->len};
    return DL_OK;
}

dl_status
dl_sql_dml_field_comment(dl_sql_binder *b, const dl_delta_field *f, dl_str comment,
                         dl_delta_field *out, dl_error *err) {
    *out = *f;
    out->comment = dl_arena_strndup(b->arena, comment.ptr, comment.len);
    DL_CHECK(out->comment != NULL, err, DL_ERR_NOMEM, "out of memory");
    dl_json_doc doc;
    dl_json_doc_init(&doc, b->exec->alloc);
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    dl_json_writer jw;
    dl_json_writer_init(&jw, &text, 0);
    dl_str old = f->metadata.len > 0 ? f->metadata : DL_STR("{}");
    dl_status s = dl_json_doc_parse(&doc, old.ptr, old.len, err);
    s = s == DL_OK ? dl_json_writer_begin_object(&jw, err) : s;
    dl_json_iter it = dl_json_val_iter(dl_json_doc_root(&doc));
    dl_str key;
    dl_json_val v;
    while (s == DL_OK && dl_json_iter_next(&it, &key, &v)) {
        if (!dl_str_eq(key, DL_STR("comment"))) {
            s = dl_json_writer_key(&jw, key, err);
            s = s == DL_OK ? dl_json_writer_value(&jw, v, err) : s;
        }
    }
    s = s == DL_OK ? dl_json_writer_key_cstr(&jw, "comment", err) : s;
    s = s == DL_OK ? dl_json_writer_string(&jw, comment, err) : s;
    s = s == DL_OK ? dl_json_writer_end_object(&jw, err) : s;
    s = s == DL_OK ? arena_text(b, &text, &out->metadata, err) : s;
    dl_json_writer_destroy(&jw);
    dl_buf_destroy(&text);
    dl_json_doc_destroy(&doc);
    return s;
}

dl_status
dl_sql_dml_field_json(dl_sql_binder *b, const dl_delta_field *f, dl_str *out, dl_error *err) {
    /* The field's JSON is the one field of a schema holding only it. */
    dl_delta_schema one;
    const char *json = NULL;
    DL_TRY(dl_sql_dml_schema_of(b, f, 1, &one, err));
    DL_TRY(dl_sql_dml_schema_string(b, &one, &json, err));
    dl_json_doc doc;
    dl_json_doc_init(&doc, b->exec->alloc);
    dl_status s = dl_json_doc_parse(&doc, json, strlen(json), err);
    if (s == DL_OK) {
        dl_str raw =
            dl_json_val_raw(dl_json_arr_at(dl_json_obj_get(dl_json_doc_root(&doc), "fields"), 0));
        char *copy = dl_arena_strndup(b->arena, raw.ptr, raw.len);
        *out = (dl_str){.ptr = copy, .len = raw.len};
        if (copy == NULL) {
            s = dl_error_set(err, DL_ERR_NOMEM, "out of memory");
        }
    }
    dl_json_doc_destroy(&doc);
    return s;
}

dl_status
dl_sql_dml_column_field(dl_sql_binder *b, const dl_sql_column_def *d, dl_delta_field *out,
                        dl_error *err) {
    if (d->generated != NULL || d->is_identity || d->default_value != NULL) {
        DL_SQL_BIND_FAIL(b, d->loc, DL_ERR_UNSUPPORTED, err,
                         "generated, identity and default columns are not supported yet");
    }
    const dl_type *type = NULL;
    DL_TRY(dl_sql_binder_type(b, d->type, &type, err));
    const char *name = dl_arena_strndup(b->arena, d->name.parts[d->name.n_parts - 1].name.ptr,
                                        d->name.parts[d->name.n_parts - 1].name.len);
    DL_CHECK(name != NULL, err, DL_ERR_NOMEM, "out of memory");
    /* The field's children (nested types) as a schema of one column would have them. */
    dl_type_field one = {.name = name, .type = type, .is_nullable = !d->is_not_null};
    const dl_type *row = NULL;
    DL_TRY(dl_vec_type_struct(b->arena, &one, 1, &row, err));
    dl_delta_schema ds;
    DL_TRY(dl_delta_schema_from_type(row, b->arena, &ds, err));
    if (d->has_comment) {
        return dl_sql_dml_field_comment(b, &ds.fields[0], d->comment, out, err);
    }
    *out = ds.fields[0];
    return DL_OK;
}

dl_status
dl_sql_dml_schema_of(dl_sql_binder *b, const dl_delta_field *fields, int32_t n,
                     dl_delta_schema *out, dl_error *err) {
    dl_type_field *tf = dl_arena_alloc_zero(b->arena, (size_t)(n + 1) * sizeof(*tf));
    DL_CHECK(tf != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t i = 0; i < n; i++) {
        tf[i] = (dl_type_field){
            .name = fields[i].name, .type = fields[i].type, .is_nullable = fields[i].is_nullable};
    }
    DL_TRY(dl_vec_type_struct(b->arena, tf, n, &out->type, err));
    out->fields = fields;
    out->n_fields = n;
    return DL_OK;
}

int32_t
dl_sql_dml_field_index(const dl_delta_field *fields, int32_t n, dl_str name) {
    for (int32_t i = 0; i < n; i++) {
        if (dl_str_eq_nocase(dl_str_from_cstr(fields[i].name), name)) {
            return i;
        }
    }
    return -1;
}

dl_status
dl_sql_dml_schema_grow(dl_sql_binder *b, const dl_delta_schema *old, const dl_sql_dml_new_col *add,
                       int32_t n_add, dl_delta_schema *out, dl_error *err) {
    int32_t total = old->n_fields + n_add;
    dl_delta_field *fields = dl_arena_alloc_zero(b->arena, (size_t)(total + 1) * sizeof(*fields));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (old->n_fields > 0) {
        memcpy(fields, old->fields, (size_t)old->n_fields * sizeof(*fields));
    }
    int32_t n = old->n_fields;
    for (int32_t i = 0; i < n_add; i++) {
        int32_t at = add[i].is_first ? 0 : n;
        if (add[i].after != NULL) {
            at = dl_sql_dml_field_index(fields, n, dl_str_from_cstr(add[i].after)) + 1;
        }
        DL_CHECK(add[i].after == NULL || at > 0, err, DL_ERR_NOT_FOUND,
                 "no column %s to add %s after", add[i].after, add[i].field.name);
        memmove(&fields[at + 1], &fields[at], (size_t)(n - at) * sizeof(*fields));
        fields[at] = add[i].field;
        n++;
    }
    return dl_sql_dml_schema_of(b, fields, n, out, err);
}

dl_status
dl_sql_dml_schema_string(dl_sql_binder *b, const dl_delta_schema *schema, const char **out,
                         dl_error *err) {
    dl_buf json;
    dl_buf_init(&json, b->exec->alloc);
    dl_status s = dl_delta_schema_to_json(schema, &json, err);
    *out = s == DL_OK ? dl_arena_strndup(b->arena, (const char *)json.data, json.len) : NULL;
    dl_buf_destroy(&json);
    DL_TRY(s);
    DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory writing a schema");
    return DL_OK;
}

dl_status
dl_sql_dml_check_property(dl_sql_binder *b, const dl_sql_prop *prop, dl_delta_kv *kv,
                          dl_error *err) {
    const char *allow =
        dl_sql_session_get(b->session, "spark.databricks.delta.allowArbitraryProperties.enabled");
    const char *key = kv->key;
    dl_status s = dl_delta_property_check(kv->key, kv->value, strcmp(allow, "true") == 0, &key, err);
    if (s != DL_OK) {
        if (strstr(err->msg, "DELTA_UNKNOWN_CONFIGURATION") != NULL) {
            dl_error_hint(err, "To disable this check, set "
                               "spark.databricks.delta.allowArbitraryProperties.enabled=true in "
                               "the Spark session configuration.");
        }
        dl_sql_binder_locate(b, prop->loc, err);
        return s;
    }
    kv->key = key;
    return DL_OK;
}

dl_status
dl_sql_dml_partition_key(const dl_delta_snapshot *snap, const dl_delta_file *f, dl_buf *key,
                         dl_buf *val, dl_error *err) {
    dl_buf_reset(key);
    for (int32_t p = 0; p < dl_delta_snapshot_partition_count(snap); p++) {
        const dl_delta_value *v = f->partition != NULL ? &f->partition->values[p] : NULL;
        if (v == NULL || v->is_null) {
            DL_TRY(dl_buf_append_byte(key, 'N', err));
            continue;
        }
        dl_buf_reset(val);
        DL_TRY(dl_ops_value_text(v, dl_delta_snapshot_partition_field(snap, p)->type, val, err));
        DL_TRY(dl_buf_appendf(key, err, "V%zu:", val->len));
        DL_TRY(dl_buf_append(key, val->data, val->len, err));
    }
    return DL_OK;
}
