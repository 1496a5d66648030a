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
#include "sql/commands/sql_dml.h"

/* The JSON text written to jw's buffer, copied into the arena. */
static dl_status
arena_text(dl_sql_binder *b, const dl_buf *text, dl_str *out, dl_error *err) {
    char *copy = dl_arena_strndup(b->arena, (const char *)text->data, text->len);
    DL_CHECK(copy != NULL, err, DL_ERR_NOMEM, "out of memory");
    *out = (dl_str){.ptr = copy, .len = text->len};
    return DL_OK;
}

dl_status
dl_sql_dml_field_metadata_put(dl_sql_binder *b, const dl_delta_field *f, const char *key,
                              dl_sql_dml_meta_put_fn put, void *ctx, dl_delta_field *out,
                              dl_error *err) {
    dl_json_doc doc;
    dl_json_doc_init(&doc, b->exec->alloc);
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    dl_json_writer jw;
    dl_json_writer_init(&jw, &text, 0);
    dl_str old = f->metadata.len > 0 ? f->metadata : DL_STR("{}");
    dl_status s = dl_json_doc_parse(&doc, old.ptr, old.len, err);
    s = s == DL_OK ? dl_json_writer_begin_object(&jw, err) : s;
    dl_json_val root = dl_json_doc_root(&doc);
    dl_json_iter it = dl_json_val_iter(root);
    dl_str name;
    dl_json_val v;
    while (s == DL_OK && dl_json_iter_next(&it, &name, &v)) {
        if (!dl_str_eq_cstr(name, key)) {
            s = dl_json_writer_key(&jw, name, err);
            s = s == DL_OK ? dl_json_writer_value(&jw, v, err) : s;
        }
    }
    s = s == DL_OK ? dl_json_writer_key_cstr(&jw, key, err) : s;
    s = s == DL_OK ? put(ctx, &jw, dl_json_obj_get(root, key), err) : s;
    s = s == DL_OK ? dl_json_writer_end_object(&jw, err) : s;
    s = s == DL_OK ? arena_text(b, &text, &out->metadata, err) : s;
    dl_json_writer_destroy(&jw);
    dl_buf_destroy(&text);
    dl_json_doc_destroy(&doc);
    return s;
}

static dl_status
put_comment(void *ctx, dl_json_writer *jw, dl_json_val old, dl_error *err) {
    (void)old;
    return dl_json_writer_string(jw, *(const dl_str *)ctx, err);
}

dl_status
dl_sql_dml_field_comment(dl_sql_binder *b, const dl_delta_field *f, dl_str comment,
                         dl_delta_field *out, dl_error *err) {
    *out = *f;
    out->comment = dl_arena_strndup(b->arena, comment.ptr, comment.len);
    DL_CHECK(out->comment != NULL, err, DL_ERR_NOMEM, "out of memory");
    return dl_sql_dml_field_metadata_put(b, f, "comment", put_comment, &comment, out, err);
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
    dl_status s =
        dl_delta_property_check(kv->key, kv->value, strcmp(allow, "true") == 0, &key, err);
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

/* ---- schema evolution (MERGE) ------------------------------------------------------------- */

/* A new nullable field name of type, its children (nested types) as Delta makes them. */
static dl_status
new_field(dl_sql_binder *b, const char *name, const dl_type *type, dl_delta_field *out,
          dl_error *err) {
    dl_type_field one = {.name = name, .type = type, .is_nullable = true};
    const dl_type *row = NULL;
    DL_TRY(dl_vec_type_struct(b->arena, &one, 1, &row, err));
    dl_delta_schema ds;
    DL_TRY(dl_delta_schema_from_type(row, b->arena, &ds, err));
    *out = ds.fields[0];
    return DL_OK;
}

static int32_t
type_field_index(const dl_type *t, const char *name) {
    for (int32_t i = 0; i < t->n_fields; i++) {
        if (dl_str_eq_nocase(dl_str_from_cstr(t->fields[i].name), dl_str_from_cstr(name))) {
            return i;
        }
    }
    return -1;
}

/* The type of a struct field list (names, types, nullability of fields[0..n)). */
static dl_status
struct_of(dl_sql_binder *b, const dl_delta_field *fields, int32_t n, const dl_type **out,
          dl_error *err) {
    dl_delta_schema ds;
    DL_TRY(dl_sql_dml_schema_of(b, fields, n, &ds, err));
    *out = ds.type;
    return DL_OK;
}

dl_status
dl_sql_dml_field_merge(dl_sql_binder *b, const dl_delta_field *old, const dl_type *src,
                       dl_delta_field *out, bool *out_changed, dl_error *err) {
    *out = *old;
    if (old->type->id != DL_VEC_TYPE_STRUCT || src->id != DL_VEC_TYPE_STRUCT) {
        return DL_OK; /* the target's type is kept; values are cast to it */
    }
    int32_t n = old->n_children;
    dl_delta_field *kids =
        dl_arena_alloc_zero(b->arena, (size_t)(n + src->n_fields + 1) * sizeof(*kids));
    DL_CHECK(kids != NULL, err, DL_ERR_NOMEM, "out of memory evolving a schema");
    bool is_changed = false;
    for (int32_t k = 0; k < old->n_children; k++) {
        int32_t j = type_field_index(src, old->children[k].name);
        kids[k] = old->children[k];
        if (j >= 0) {
            DL_TRY(dl_sql_dml_field_merge(b, &old->children[k], src->fields[j].type, &kids[k],
                                          &is_changed, err));
        }
    }
    for (int32_t j = 0; j < src->n_fields; j++) {
        if (dl_sql_dml_field_index(old->children, old->n_children,
                                   dl_str_from_cstr(src->fields[j].name)) < 0) {
            DL_TRY(new_field(b, src->fields[j].name, src->fields[j].type, &kids[n++], err));
            is_changed = true;
        }
    }
    if (is_changed) {
        out->children = kids;
        out->n_children = n;
        DL_TRY(struct_of(b, kids, n, &out->type, err));
        *out_changed = true;
    }
    return DL_OK;
}

dl_status
dl_sql_dml_schema_merge(dl_sql_binder *b, const dl_delta_schema *old, const dl_type *src,
                        dl_delta_schema *out, bool *out_changed, dl_error *err) {
    *out_changed = false;
    int32_t n = old->n_fields;
    dl_delta_field *fields =
        dl_arena_alloc_zero(b->arena, (size_t)(n + src->n_fields + 1) * sizeof(*fields));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory evolving a schema");
    for (int32_t i = 0; i < old->n_fields; i++) {
        int32_t j = type_field_index(src, old->fields[i].name);
        fields[i] = old->fields[i];
        if (j >= 0) {
            DL_TRY(dl_sql_dml_field_merge(b, &old->fields[i], src->fields[j].type, &fields[i],
                                          out_changed, err));
        }
    }
    for (int32_t j = 0; j < src->n_fields; j++) {
        if (dl_sql_dml_field_index(old->fields, old->n_fields,
                                   dl_str_from_cstr(src->fields[j].name)) < 0) {
            DL_TRY(new_field(b, src->fields[j].name, src->fields[j].type, &fields[n++], err));
            *out_changed = true;
        }
    }
    return dl_sql_dml_schema_of(b, fields, n, out, err);
}

/* ---- values assigned to a (possibly evolved) column ------------------------------------- */

static dl_sql_bexpr *
field_of(dl_sql_binder *b, dl_sql_bexpr *base, int32_t index, uint32_t loc) {
    dl_sql_bexpr *e =
        dl_sql_bexpr_new(b, DL_SQL_BEXPR_FIELD, base->type->fields[index].type, loc, 1);
    if (e != NULL) {
        e->args[0] = base;
        e->field_index = index;
    }
    return e;
}

/* CASE WHEN v IS NULL THEN NULL ELSE e END (of e's type). */
static dl_status
null_if_null(dl_sql_binder *b, dl_sql_bexpr *v, dl_sql_bexpr *e, uint32_t loc, dl_sql_bexpr **out,
             dl_error *err) {
    dl_sql_bexpr *is =
        dl_sql_bexpr_new(b, DL_SQL_BEXPR_IS, dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN), loc, 1);
    dl_sql_bexpr *null = dl_sql_dml_null(b, e->type);
    DL_CHECK(is != NULL && null != NULL, err, DL_ERR_NOMEM, "out of memory");
    is->is_kind = DL_SQL_BIS_NULL;
    is->args[0] = v;
    return dl_sql_binder_make_case(b, &is, &null, 1, e, loc, out, err);
}

/* Field f of struct type t from v's struct (old: the target's value, for PRESERVE). */
static dl_status
assign_field(dl_sql_binder *b, dl_sql_bexpr *v, const dl_type *t, int32_t f, dl_sql_bexpr *old,
             dl_sql_dml_assign_mode mode, dl_sql_dml_dest dest, uint32_t loc, dl_sql_bexpr **out,
             dl_error *err) {
    const char *name = t->fields[f].name;
    int32_t j = type_field_index(v->type, name);
    int32_t k = old != NULL ? type_field_index(old->type, name) : -1;
    dl_sql_bexpr *old_f = k >= 0 ? field_of(b, old, k, loc) : NULL;
    DL_CHECK(k < 0 || old_f != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (j >= 0) {
        dl_sql_bexpr *src_f = field_of(b, v, j, loc);
        DL_CHECK(src_f != NULL, err, DL_ERR_NOMEM, "out of memory");
        return dl_sql_dml_assign_value(b, src_f, t->fields[f].type, old_f, mode, dest, loc, out,
                                       err);
    }
    if (mode == DL_SQL_DML_ASSIGN_EXACT) {
        DL_SQL_BIND_FAIL(b, loc, DL_ERR_SCHEMA, err,
                         "[DELTA_MERGE_UNRESOLVED_EXPRESSION] the source struct has no field "
                         "'%s' for the target's field (schema evolution, with "
                         "spark.databricks.delta.schema.autoMerge.enabled, keeps the target's "
                         "value in UPDATE SET * and writes NULL in INSERT *)",
                         name);
    }
    if (mode == DL_SQL_DML_ASSIGN_PRESERVE && old_f != NULL) {
        dl_sql_dml_dest own = {0};
        return dl_sql_dml_assign_value(b, old_f, t->fields[f].type, NULL, DL_SQL_DML_ASSIGN_NULLIFY,
                                       own, loc, out, err);
    }
    *out = dl_sql_dml_null(b, t->fields[f].type);
    DL_CHECK(*out != NULL, err, DL_ERR_NOMEM, "out of memory");
    return DL_OK;
}

dl_status
dl_sql_dml_assign_value(dl_sql_binder *b, dl_sql_bexpr *v, const dl_type *t, dl_sql_bexpr *old,
                        dl_sql_dml_assign_mode mode, dl_sql_dml_dest dest, uint32_t loc,
                        dl_sql_bexpr **out, dl_error *err) {
    if (t->id != DL_VEC_TYPE_STRUCT || v->type->id != DL_VEC_TYPE_STRUCT ||
        dl_vec_type_equal(v->type, t)) {
        if (dest.column == NULL) {
            return dl_sql_binder_cast(b, v, t, out, err);
        }
        dl_type_field col = {.name = dest.column, .type = t, .is_nullable = true};
        return dl_sql_binder_store_cast(b, v, &col, dest.table, out, err);
    }
    for (int32_t j = 0; j < v->type->n_fields; j++) {
        if (type_field_index(t, v->type->fields[j].name) < 0) {
            DL_SQL_BIND_FAIL(b, loc, DL_ERR_SCHEMA, err,
                             "[DELTA_MERGE_UNRESOLVED_EXPRESSION] the target struct has no field "
                             "'%s' of the source's (schema evolution, with "
                             "spark.databricks.delta.schema.autoMerge.enabled, adds it)",
                             v->type->fields[j].name);
        }
    }
    dl_sql_bexpr **args =
        dl_arena_alloc_zero(b->arena, (size_t)(t->n_fields + 1) * sizeof(dl_sql_bexpr *));
    DL_CHECK(args != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (int32_t f = 0; f < t->n_fields; f++) {
        DL_TRY(assign_field(b, v, t, f, old, mode, dest, loc, &args[f], err));
    }
    const dl_sql_fn_def *mk = dl_sql_binder_lookup(b, DL_STR("struct"));
    DL_CHECK(mk != NULL, err, DL_ERR_INTERNAL, "the struct function is not registered");
    dl_sql_bexpr *st = NULL;
    DL_TRY(dl_sql_binder_call(b, mk, "struct", args, t->n_fields, loc, &st, err));
    DL_TRY(dl_sql_binder_cast(b, st, t, &st, err));
    return null_if_null(b, v, st, loc, out, err);
}
