/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Table schemas: metaData.schemaString <-> dl_type plus column metadata (PROTOCOL.md, "Schema
 * Serialization Format", "Column Mapping", "Identity Columns", "Generated Columns").
 *
 * The format is Spark's StructType JSON:
 *
 *   struct := {"type":"struct","fields":[field, ...]}
 *   field  := {"name":s,"type":type,"nullable":bool,"metadata":{...}}
 *   array  := {"type":"array","elementType":type,"containsNull":bool}
 *   map    := {"type":"map","keyType":type,"valueType":type,"valueContainsNull":bool}
 *   type   := "string" | "long" | "integer" | "short" | "byte" | "float" | "double"
 *           | "boolean" | "binary" | "date" | "timestamp" | "timestamp_ntz"
 *           | "decimal(p,s)" | "void" | struct | array | map
 *
 * Column metadata the protocol defines (delta.columnMapping.id/physicalName,
 * delta.generationExpression, delta.invariants, delta.identity.*, CURRENT_DEFAULT, comment)
 * is extracted into the field; the whole metadata object is also kept as JSON text, so that a
 * schema read and written back loses nothing (delta.typeChanges, nested ids, user keys).
 * Unknown keys of a field or type object are ignored, as for actions.
 */
#include <string.h>

#include "delta/delta_int.h"

/* Parsing state: the arena and the dotted path of the field being parsed, for messages. */
typedef struct schema_ctx {
    dl_arena *arena;
    char path[256];
    size_t path_len;
} schema_ctx;

static const char *
ctx_path(const schema_ctx *ctx) {
    return ctx->path_len ? ctx->path : "<root>";
}

/* Appends ".name" (or "name" at the top) to the path; returns the old length to restore. */
static size_t
path_push(schema_ctx *ctx, const char *name) {
    size_t old = ctx->path_len;
    size_t room = sizeof(ctx->path) - old - 1;
    size_t n = strlen(name) + (old ? 1 : 0);
    if (n > room) {
        n = room;
    }
    if (n > 0) {
        if (old) {
            ctx->path[old] = '.';
            memcpy(ctx->path + old + 1, name, n - 1);
        } else {
            memcpy(ctx->path, name, n);
        }
    }
    ctx->path_len = old + n;
    ctx->path[ctx->path_len] = '\0';
    return old;
}

static void
path_pop(schema_ctx *ctx, size_t old) {
    ctx->path_len = old;
    ctx->path[old] = '\0';
}

static dl_status parse_type(schema_ctx *ctx, dl_json_val v, dl_delta_field *node, dl_error *err);

static char *
copy_str(schema_ctx *ctx, dl_str s, dl_error *err) {
    char *p = dl_arena_strndup(ctx->arena, s.ptr ? s.ptr : "", s.len);
    if (!p) {
        (void)dl_error_set(err, DL_ERR_NOMEM, "out of memory copying a schema string");
    }
    return p;
}

/* Reads 1..3 decimal digits at s[*pos] (spaces around them skipped); -1 when there are none. */
static int
read_small_int(dl_str s, size_t *pos) {
    size_t i = *pos;
    while (i < s.len && s.ptr[i] == ' ') {
        i++;
    }
    int v = 0;
    size_t start = i;
    while (i < s.len && s.ptr[i] >= '0' && s.ptr[i] <= '9' && i - start < 3) {
        v = v * 10 + (s.ptr[i] - '0');
        i++;
    }
    if (i == start) {
        return -1;
    }
    while (i < s.len && s.ptr[i] == ' ') {
        i++;
    }
    *pos = i;
    return v;
}

/* decimal(p,s) or decimal(p, s); bare "decimal" is decimal(10,0) as in Spark. */
static dl_status
parse_decimal(schema_ctx *ctx, dl_str name, const dl_type **out, dl_error *err) {
    int precision = 10;
    int scale = 0;
    if (name.len > 7) {
        size_t pos = 8;
        bool ok = name.ptr[7] == '(';
        precision = ok ? read_small_int(name, &pos) : -1;
        ok = ok && precision >= 0 && pos < name.len && name.ptr[pos] == ',';
        pos++;
        scale = ok ? read_small_int(name, &pos) : -1;
        ok = ok && scale >= 0 && pos + 1 == name.len && name.ptr[pos] == ')';
        DL_CHECK(ok, err, DL_ERR_CORRUPT, "schema: field '%s': malformed decimal type \"%.*s\"",
                 ctx_path(ctx), DL_STR_FMT(name));
    }
    DL_CHECK(precision >= 1 && scale <= precision, err, DL_ERR_CORRUPT,
             "schema: field '%s': invalid decimal type \"%.*s\"", ctx_path(ctx), DL_STR_FMT(name));
    DL_TRY_CTX(dl_vec_type_decimal(ctx->arena, precision, scale, out, err), err,
               "schema: field '%s'", ctx_path(ctx));
    return DL_OK;
}

typedef struct prim_name {
    const char *name;
    dl_type_id id;
} prim_name;

static const prim_name prim_names[] = {
    {"string", DL_VEC_TYPE_STRING},       {"long", DL_VEC_TYPE_LONG},
    {"integer", DL_VEC_TYPE_INT},         {"short", DL_VEC_TYPE_SHORT},
    {"byte", DL_VEC_TYPE_BYTE},           {"float", DL_VEC_TYPE_FLOAT},
    {"double", DL_VEC_TYPE_DOUBLE},       {"boolean", DL_VEC_TYPE_BOOLEAN},
    {"binary", DL_VEC_TYPE_BINARY},       {"date", DL_VEC_TYPE_DATE},
    {"timestamp", DL_VEC_TYPE_TIMESTAMP}, {"timestamp_ntz", DL_VEC_TYPE_TIMESTAMP_NTZ},
    {"void", DL_VEC_TYPE_NULL},           {"null", DL_VEC_TYPE_NULL},
};

static dl_status
parse_prim(schema_ctx *ctx, dl_str name, const dl_type **out, dl_error *err) {
    for (size_t i = 0; i < DL_ARRAY_LEN(prim_names); i++) {
        if (dl_str_eq_cstr(name, prim_names[i].name)) {
            *out = dl_vec_type_prim(prim_names[i].id);
            return DL_OK;
        }
    }
    if (dl_str_starts_with(name, DL_STR("decimal"))) {
        return parse_decimal(ctx, name, out, err);
    }
    dl_error_set(err, DL_ERR_UNSUPPORTED,
                 "schema: field '%s' has type \"%.*s\", which deltalite does not support",
                 ctx_path(ctx), DL_STR_FMT(name));
    return DL_ERR_UNSUPPORTED;
}

static dl_status
get_bool_member(schema_ctx *ctx, dl_json_val obj, const char *key, bool def, bool *out,
                dl_error *err) {
    dl_json_val v = dl_json_obj_get(obj, key);
    if (dl_json_val_is_missing(v) || dl_json_val_is_null(v)) {
        *out = def;
        return DL_OK;
    }
    DL_TRY_CTX(dl_json_val_get_bool(v, out, err), err, "schema: field '%s': '%s'", ctx_path(ctx),
               key);
    return DL_OK;
}

/* A child node (array element, map key or value) named name of type value v. */
static dl_status
parse_child(schema_ctx *ctx, dl_json_val v, const char *name, bool is_nullable,
            dl_delta_field *child, dl_error *err) {
    size_t old = path_push(ctx, name);
    DL_CHECK(!dl_json_val_is_missing(v), err, DL_ERR_CORRUPT, "schema: field '%s': missing type",
             ctx_path(ctx));
    child->name = name;
    child->is_nullable = is_nullable;
    child->metadata = DL_STR("{}");
    DL_TRY(parse_type(ctx, v, child, err));
    path_pop(ctx, old);
    return DL_OK;
}

static dl_status
parse_array(schema_ctx *ctx, dl_json_val v, dl_delta_field *node, dl_error *err) {
    bool contains_null;
    DL_TRY(get_bool_member(ctx, v, "containsNull", true, &contains_null, err));
    dl_delta_field *kids = dl_arena_alloc_zero(ctx->arena, sizeof(dl_delta_field));
    DL_CHECK(kids, err, DL_ERR_NOMEM, "out of memory parsing a schema");
    DL_TRY(
        parse_child(ctx, dl_json_obj_get(v, "elementType"), "element", contains_null, kids, err));
    node->children = kids;
    node->n_children = 1;
    return dl_vec_type_array(ctx->arena, kids->type, contains_null, &node->type, err);
}

static dl_status
parse_map(schema_ctx *ctx, dl_json_val v, dl_delta_field *node, dl_error *err) {
    bool value_null;
    DL_TRY(get_bool_member(ctx, v, "valueContainsNull", true, &value_null, err));
    dl_delta_field *kids = dl_arena_alloc_zero(ctx->arena, 2 * sizeof(dl_delta_field));
    DL_CHECK(kids, err, DL_ERR_NOMEM, "out of memory parsing a schema");
    DL_TRY(parse_child(ctx, dl_json_obj_get(v, "keyType"), "key", false, &kids[0], err));
    DL_TRY(parse_child(ctx, dl_json_obj_get(v, "valueType"), "value", value_null, &kids[1], err));
    node->children = kids;
    node->n_children = 2;
    return dl_vec_type_map(ctx->arena, kids[0].type, kids[1].type, value_null, &node->type, err);
}

/* The string member key of metadata into *out (NULL when absent). */
static dl_status
meta_str(schema_ctx *ctx, dl_json_val md, const char *key, const char **out, dl_error *err) {
    dl_json_val v = dl_json_obj_get(md, key);
    *out = NULL;
    if (dl_json_val_is_missing(v) || dl_json_val_is_null(v)) {
        return DL_OK;
    }
    dl_str s;
    DL_TRY_CTX(dl_json_val_get_str(v, &s, err), err, "schema: field '%s': metadata '%s'",
               ctx_path(ctx), key);
    *out = copy_str(ctx, s, err);
    return *out ? DL_OK : DL_ERR_NOMEM;
}

/* The integer member key of metadata; *out_has false when absent. */
static dl_status
meta_int(schema_ctx *ctx, dl_json_val md, const char *key, int64_t *out, bool *out_has,
         dl_error *err) {
    dl_json_val v = dl_json_obj_get(md, key);
    *out_has = false;
    if (dl_json_val_is_missing(v) || dl_json_val_is_null(v)) {
        return DL_OK;
    }
    DL_TRY_CTX(dl_json_val_get_int64(v, out, err), err, "schema: field '%s': metadata '%s'",
               ctx_path(ctx), key);
    *out_has = true;
    return DL_OK;
}

static dl_status
parse_identity(schema_ctx *ctx, dl_json_val md, dl_delta_field *f, dl_error *err) {
    bool has_start;
    bool has_step;
    DL_TRY(meta_int(ctx, md, "delta.identity.start", &f->identity_start, &has_start, err));
    DL_TRY(meta_int(ctx, md, "delta.identity.step", &f->identity_step, &has_step, err));
    DL_TRY(meta_int(ctx, md, "delta.identity.highWaterMark", &f->identity_high_water,
                    &f->has_identity_high_water, err));
    f->is_identity = has_start || has_step;
    if (f->is_identity) {
        DL_CHECK(has_start && has_step && f->identity_step != 0, err, DL_ERR_CORRUPT,
                 "schema: field '%s': identity column needs delta.identity.start and a non-zero "
                 "delta.identity.step",
                 ctx_path(ctx));
    }
    dl_json_val v = dl_json_obj_get(md, "delta.identity.allowExplicitInsert");
    if (!dl_json_val_is_missing(v) && !dl_json_val_is_null(v)) {
        DL_TRY_CTX(dl_json_val_get_bool(v, &f->identity_allow_explicit, err), err,
                   "schema: field '%s': metadata 'delta.identity.allowExplicitInsert'",
                   ctx_path(ctx));
    }
    return DL_OK;
}

static dl_status
parse_metadata(schema_ctx *ctx, dl_json_val md, dl_delta_field *f, dl_error *err) {
    if (dl_json_val_is_missing(md) || dl_json_val_is_null(md)) {
        f->metadata = DL_STR("{}");
        return DL_OK;
    }
    DL_CHECK(dl_json_val_type(md) == DL_JSON_OBJECT, err, DL_ERR_CORRUPT,
             "schema: field '%s': metadata is a %s, not an object", ctx_path(ctx),
             dl_json_type_name(dl_json_val_type(md)));
    dl_str raw = dl_json_val_raw(md);
    char *copy = copy_str(ctx, raw, err);
    if (!copy) {
        return DL_ERR_NOMEM;
    }
    f->metadata = dl_str_make(copy, raw.len);
    DL_TRY(meta_int(ctx, md, "delta.columnMapping.id", &f->column_id, &f->has_column_id, err));
    DL_TRY(meta_str(ctx, md, "delta.columnMapping.physicalName", &f->physical_name, err));
    DL_TRY(meta_str(ctx, md, "delta.generationExpression", &f->generation_expr, err));
    DL_TRY(meta_str(ctx, md, "delta.invariants", &f->invariant, err));
    DL_TRY(meta_str(ctx, md, "comment", &f->comment, err));
    DL_TRY(meta_str(ctx, md, "CURRENT_DEFAULT", &f->default_expr, err));
    return parse_identity(ctx, md, f, err);
}

static dl_status
parse_field(schema_ctx *ctx, dl_json_val v, int32_t index, dl_delta_field *f, dl_error *err) {
    DL_CHECK(dl_json_val_type(v) == DL_JSON_OBJECT, err, DL_ERR_CORRUPT,
             "schema: field %d of '%s' is a %s, not an object", (int)index, ctx_path(ctx),
             dl_json_type_name(dl_json_val_type(v)));
    dl_str name;
    dl_json_val name_val = dl_json_obj_get(v, "name");
    DL_CHECK(!dl_json_val_is_missing(name_val), err, DL_ERR_CORRUPT,
             "schema: field %d of '%s': missing 'name'", (int)index, ctx_path(ctx));
    DL_TRY_CTX(dl_json_val_get_str(name_val, &name, err), err, "schema: field %d of '%s': 'name'",
               (int)index, ctx_path(ctx));
    /* Names are C strings in the engine: a NUL would cut the name silently, so it is refused. */
    if (memchr(name.ptr, 0, name.len) != NULL) {
        dl_status st = dl_error_set(err, DL_ERR_UNSUPPORTED,
                                    "schema: field %d of '%s': the column name holds a NUL "
                                    "character (\\u0000), which deltalite does not support",
                                    (int)index, ctx_path(ctx));
        dl_error_hint(err, "rename the column in an engine that supports it (Spark: ALTER TABLE "
                           "... RENAME COLUMN, with column mapping)");
        return st;
    }
    f->name = copy_str(ctx, name, err);
    if (!f->name) {
        return DL_ERR_NOMEM;
    }
    size_t old = path_push(ctx, f->name);
    DL_TRY(get_bool_member(ctx, v, "nullable", true, &f->is_nullable, err));
    DL_TRY(parse_metadata(ctx, dl_json_obj_get(v, "metadata"), f, err));
    dl_json_val type = dl_json_obj_get(v, "type");
    DL_CHECK(!dl_json_val_is_missing(type), err, DL_ERR_CORRUPT,
             "schema: field '%s': missing 'type'", ctx_path(ctx));
    DL_TRY(parse_type(ctx, type, f, err));
    path_pop(ctx, old);
    return DL_OK;
}

/* The index of a field before i whose name equals field i's ignoring ASCII case, or -1. */
static int32_t
find_duplicate(const dl_delta_field *fields, int32_t i) {
    dl_str a = dl_str_from_cstr(fields[i].name);
    for (int32_t j = 0; j < i; j++) {
        if (dl_str_eq_nocase(a, dl_str_from_cstr(fields[j].name))) {
            return j;
        }
    }
    return -1;
}

/* Refuses two fields whose names are equal ignoring ASCII case (Spark's rule). */
static dl_status
check_unique(schema_ctx *ctx, const dl_delta_field *fields, int32_t n, dl_error *err) {
    for (int32_t i = 1; i < n; i++) {
        int32_t j = find_duplicate(fields, i);
        DL_CHECK(j < 0, err, DL_ERR_CORRUPT,
                 "schema: struct '%s' has two fields named '%s' and '%s' (names must be unique, "
                 "ignoring case)",
                 ctx_path(ctx), fields[j < 0 ? 0 : j].name, fields[i].name);
    }
    return DL_OK;
}

static dl_status
parse_struct(schema_ctx *ctx, dl_json_val v, dl_delta_field *node, dl_error *err) {
    dl_json_val list = dl_json_obj_get(v, "fields");
    DL_CHECK(dl_json_val_type(list) == DL_JSON_ARRAY, err, DL_ERR_CORRUPT,
             "schema: struct '%s': 'fields' is a %s, not an array", ctx_path(ctx),
             dl_json_type_name(dl_json_val_type(list)));
    uint32_t n = dl_json_val_count(list);
    DL_CHECK(n <= INT32_MAX, err, DL_ERR_LIMIT, "schema: struct '%s' has too many fields",
             ctx_path(ctx));
    dl_delta_field *fields = dl_arena_alloc_array(ctx->arena, n ? n : 1, sizeof(dl_delta_field));
    DL_CHECK(fields, err, DL_ERR_NOMEM, "out of memory parsing a schema");
    memset(fields, 0, (n ? n : 1) * sizeof(dl_delta_field));
    dl_type_field *tfields = dl_arena_alloc_array(ctx->arena, n ? n : 1, sizeof(dl_type_field));
    DL_CHECK(tfields, err, DL_ERR_NOMEM, "out of memory parsing a schema");
    dl_json_iter it = dl_json_val_iter(list);
    dl_json_val item;
    int32_t i = 0;
    while (dl_json_iter_next(&it, NULL, &item)) {
        DL_TRY(parse_field(ctx, item, i, &fields[i], err));
        tfields[i].name = fields[i].name;
        tfields[i].type = fields[i].type;
        tfields[i].is_nullable = fields[i].is_nullable;
        i++;
    }
    DL_TRY(check_unique(ctx, fields, i, err));
    node->children = fields;
    node->n_children = i;
    return dl_vec_type_struct(ctx->arena, tfields, i, &node->type, err);
}

static dl_status
parse_type(schema_ctx *ctx, dl_json_val v, dl_delta_field *node, dl_error *err) {
    dl_json_type jt = dl_json_val_type(v);
    if (jt == DL_JSON_STRING) {
        return parse_prim(ctx, dl_json_val_str(v), &node->type, err);
    }
    DL_CHECK(jt == DL_JSON_OBJECT, err, DL_ERR_CORRUPT,
             "schema: field '%s': type is a %s, not a string or an object", ctx_path(ctx),
             dl_json_type_name(jt));
    dl_str kind;
    dl_json_val kind_val = dl_json_obj_get(v, "type");
    DL_CHECK(!dl_json_val_is_missing(kind_val), err, DL_ERR_CORRUPT,
             "schema: field '%s': type object without 'type'", ctx_path(ctx));
    DL_TRY_CTX(dl_json_val_get_str(kind_val, &kind, err), err, "schema: field '%s': 'type'",
               ctx_path(ctx));
    if (dl_str_eq_cstr(kind, "struct")) {
        return parse_struct(ctx, v, node, err);
    }
    if (dl_str_eq_cstr(kind, "array")) {
        return parse_array(ctx, v, node, err);
    }
    if (dl_str_eq_cstr(kind, "map")) {
        return parse_map(ctx, v, node, err);
    }
    dl_error_set(err, DL_ERR_UNSUPPORTED,
                 "schema: field '%s' has type \"%.*s\", which deltalite does not support",
                 ctx_path(ctx), DL_STR_FMT(kind));
    return DL_ERR_UNSUPPORTED;
}

dl_status
dl_delta_schema_parse(dl_str json, dl_arena *arena, dl_delta_schema *out, dl_error *err) {
    dl_json_doc doc;
    dl_json_doc_init(&doc, arena->alloc);
    schema_ctx ctx = {.arena = arena};
    dl_delta_field root;
    memset(&root, 0, sizeof(root));
    dl_status st = dl_json_doc_parse(&doc, json.ptr, json.len, err);
    if (st != DL_OK) {
        dl_error_prefix(err, "schemaString");
    } else if (dl_json_val_type(dl_json_doc_root(&doc)) != DL_JSON_OBJECT ||
               !dl_str_eq_cstr(dl_json_val_str(dl_json_obj_get(dl_json_doc_root(&doc), "type")),
                               "struct")) {
        st = dl_error_set(err, DL_ERR_CORRUPT, "schemaString is not a JSON struct type");
    } else {
        st = parse_struct(&ctx, dl_json_doc_root(&doc), &root, err);
    }
    dl_json_doc_destroy(&doc);
    if (st == DL_OK) {
        out->type = root.type;
        out->fields = root.children;
        out->n_fields = root.n_children;
    }
    return st;
}

/* ---- writing ------------------------------------------------------------------------ */

static dl_status
append_prim_name(const dl_type *type, dl_buf *out, dl_error *err) {
    if (type->id == DL_VEC_TYPE_DECIMAL) {
        return dl_buf_appendf(out, err, "decimal(%d,%d)", (int)type->precision, (int)type->scale);
    }
    for (size_t i = 0; i < DL_ARRAY_LEN(prim_names); i++) {
        if (prim_names[i].id == type->id) {
            return dl_buf_append_cstr(out, prim_names[i].name, err);
        }
    }
    DL_FAIL(err, DL_ERR_INVALID_ARG, "type id %d has no Delta name", (int)type->id);
}

dl_status
dl_delta_type_to_string(const dl_type *type, dl_buf *out, dl_error *err) {
    switch (type->id) {
    case DL_VEC_TYPE_STRUCT:
        DL_TRY(dl_buf_append_cstr(out, "struct<", err));
        for (int32_t i = 0; i < type->n_fields; i++) {
            DL_TRY(dl_buf_appendf(out, err, "%s%s:", i ? "," : "", type->fields[i].name));
            DL_TRY(dl_delta_type_to_string(type->fields[i].type, out, err));
        }
        return dl_buf_append_byte(out, '>', err);
    case DL_VEC_TYPE_ARRAY:
        DL_TRY(dl_buf_append_cstr(out, "array<", err));
        DL_TRY(dl_delta_type_to_string(type->element, out, err));
        return dl_buf_append_byte(out, '>', err);
    case DL_VEC_TYPE_MAP:
        DL_TRY(dl_buf_append_cstr(out, "map<", err));
        DL_TRY(dl_delta_type_to_string(type->key, out, err));
        DL_TRY(dl_buf_append_byte(out, ',', err));
        DL_TRY(dl_delta_type_to_string(type->value, out, err));
        return dl_buf_append_byte(out, '>', err);
    default:
        return append_prim_name(type, out, err);
    }
}

static dl_status write_type(dl_json_writer *w, const dl_delta_field *node, dl_buf *scratch,
                            dl_error *err);

static dl_status
write_field(dl_json_writer *w, const dl_delta_field *f, dl_buf *scratch, dl_error *err) {
    DL_TRY(dl_json_writer_begin_object(w, err));
    DL_TRY(dl_json_writer_key_cstr(w, "name", err));
    DL_TRY(dl_json_writer_string_cstr(w, f->name, err));
    DL_TRY(dl_json_writer_key_cstr(w, "type", err));
    DL_TRY(write_type(w, f, scratch, err));
    DL_TRY(dl_json_writer_key_cstr(w, "nullable", err));
    DL_TRY(dl_json_writer_bool(w, f->is_nullable, err));
    DL_TRY(dl_json_writer_key_cstr(w, "metadata", err));
    DL_TRY(dl_json_writer_raw(w, f->metadata.len ? f->metadata : DL_STR("{}"), err));
    return dl_json_writer_end_object(w, err);
}

static dl_status
write_nested(dl_json_writer *w, const dl_delta_field *node, dl_buf *scratch, dl_error *err) {
    DL_TRY(dl_json_writer_begin_object(w, err));
    DL_TRY(dl_json_writer_key_cstr(w, "type", err));
    if (node->type->id == DL_VEC_TYPE_STRUCT) {
        DL_TRY(dl_json_writer_string_cstr(w, "struct", err));
        DL_TRY(dl_json_writer_key_cstr(w, "fields", err));
        DL_TRY(dl_json_writer_begin_array(w, err));
        for (int32_t i = 0; i < node->n_children; i++) {
            DL_TRY(write_field(w, &node->children[i], scratch, err));
        }
        DL_TRY(dl_json_writer_end_array(w, err));
    } else if (node->type->id == DL_VEC_TYPE_ARRAY) {
        DL_TRY(dl_json_writer_string_cstr(w, "array", err));
        DL_TRY(dl_json_writer_key_cstr(w, "elementType", err));
        DL_TRY(write_type(w, &node->children[0], scratch, err));
        DL_TRY(dl_json_writer_key_cstr(w, "containsNull", err));
        DL_TRY(dl_json_writer_bool(w, node->type->contains_null, err));
    } else {
        DL_TRY(dl_json_writer_string_cstr(w, "map", err));
        DL_TRY(dl_json_writer_key_cstr(w, "keyType", err));
        DL_TRY(write_type(w, &node->children[0], scratch, err));
        DL_TRY(dl_json_writer_key_cstr(w, "valueType", err));
        DL_TRY(write_type(w, &node->children[1], scratch, err));
        DL_TRY(dl_json_writer_key_cstr(w, "valueContainsNull", err));
        DL_TRY(dl_json_writer_bool(w, node->type->contains_null, err));
    }
    return dl_json_writer_end_object(w, err);
}

static dl_status
write_type(dl_json_writer *w, const dl_delta_field *node, dl_buf *scratch, dl_error *err) {
    if (dl_vec_type_is_nested(node->type)) {
        return write_nested(w, node, scratch, err);
    }
    dl_buf_reset(scratch);
    DL_TRY(append_prim_name(node->type, scratch, err));
    return dl_json_writer_string(w, dl_buf_view(scratch), err);
}

dl_status
dl_delta_schema_to_json(const dl_delta_schema *schema, dl_buf *out, dl_error *err) {
    dl_json_writer w;
    dl_json_writer_init(&w, out, 0);
    dl_buf scratch;
    dl_buf_init(&scratch, out->alloc);
    dl_delta_field root = {
        .type = schema->type, .children = schema->fields, .n_children = schema->n_fields};
    dl_status st = write_nested(&w, &root, &scratch, err);
    if (st == DL_OK) {
        st = dl_json_writer_finish(&w, err);
    }
    dl_buf_destroy(&scratch);
    dl_json_writer_destroy(&w);
    return st;
}

/* ---- building from a type ----------------------------------------------------------- */

static dl_status
node_from_type(dl_arena *arena, const dl_type *type, dl_delta_field *node, dl_error *err) {
    node->type = type;
    node->metadata = DL_STR("{}");
    int32_t n = 0;
    if (type->id == DL_VEC_TYPE_STRUCT) {
        n = type->n_fields;
    } else if (type->id == DL_VEC_TYPE_ARRAY) {
        n = 1;
    } else if (type->id == DL_VEC_TYPE_MAP) {
        n = 2;
    }
    if (n == 0) {
        return DL_OK;
    }
    dl_delta_field *kids = dl_arena_alloc_array(arena, (size_t)n, sizeof(dl_delta_field));
    DL_CHECK(kids, err, DL_ERR_NOMEM, "out of memory building a schema");
    memset(kids, 0, (size_t)n * sizeof(dl_delta_field));
    if (type->id == DL_VEC_TYPE_STRUCT) {
        for (int32_t i = 0; i < n; i++) {
            kids[i].name = type->fields[i].name;
            kids[i].is_nullable = type->fields[i].is_nullable;
            DL_TRY(node_from_type(arena, type->fields[i].type, &kids[i], err));
        }
    } else if (type->id == DL_VEC_TYPE_ARRAY) {
        kids[0].name = "element";
        kids[0].is_nullable = type->contains_null;
        DL_TRY(node_from_type(arena, type->element, &kids[0], err));
    } else {
        kids[0].name = "key";
        DL_TRY(node_from_type(arena, type->key, &kids[0], err));
        kids[1].name = "value";
        kids[1].is_nullable = type->contains_null;
        DL_TRY(node_from_type(arena, type->value, &kids[1], err));
    }
    node->children = kids;
    node->n_children = n;
    return DL_OK;
}

dl_status
dl_delta_schema_from_type(const dl_type *type, dl_arena *arena, dl_delta_schema *out,
                          dl_error *err) {
    DL_CHECK(type && type->id == DL_VEC_TYPE_STRUCT, err, DL_ERR_INVALID_ARG,
             "a table schema must be a struct type");
    dl_delta_field root;
    memset(&root, 0, sizeof(root));
    DL_TRY(node_from_type(arena, type, &root, err));
    out->type = type;
    out->fields = root.children;
    out->n_fields = root.n_children;
    return DL_OK;
}

const dl_delta_field *
dl_delta_schema_find(const dl_delta_schema *schema, dl_str name) {
    const dl_delta_field *found = NULL;
    int n_found = 0;
    for (int32_t i = 0; i < schema->n_fields; i++) {
        dl_str fname = dl_str_from_cstr(schema->fields[i].name);
        if (dl_str_eq(fname, name)) {
            return &schema->fields[i];
        }
        if (dl_str_eq_nocase(fname, name)) {
            found = &schema->fields[i];
            n_found++;
        }
    }
    return n_found == 1 ? found : NULL;
}

const char *
dl_delta_field_physical_name(const dl_delta_field *field, dl_delta_cm_mode mode) {
    if (mode != DL_DELTA_CM_NONE && field->physical_name) {
        return field->physical_name;
    }
    return field->name;
}
