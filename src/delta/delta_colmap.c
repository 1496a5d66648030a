/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Column mapping on the write side (delta_colmap.h): ids and physical names for the fields of a
 * staged metaData, the mode changes Delta allows, and the physical form of a data file's
 * columns.
 */
#include "delta/delta_colmap.h"

#include <stdio.h>
#include <string.h>

#include "delta/delta_txn_int.h"
#include "json/json.h"

#define MAX_ID_KEY "delta.columnMapping.maxColumnId"

static const char *
mode_text(dl_delta_cm_mode mode) {
    return mode == DL_DELTA_CM_NAME ? "name" : mode == DL_DELTA_CM_ID ? "id" : "none";
}

/* ---- assigning ids and physical names --------------------------------------------------- */

typedef struct assigner {
    dl_arena *arena;
    int64_t max_id;
    bool is_upgrade; /* an existing table turned to 'name': physical name = current name */
    bool is_changed;
    dl_buf text; /* scratch: one field's metadata */
} assigner;

static void
max_id_of(const dl_delta_field *fields, int32_t n, int64_t *max_id) {
    for (int32_t i = 0; i < n; i++) {
        if (fields[i].has_column_id && fields[i].column_id > *max_id) {
            *max_id = fields[i].column_id;
        }
        max_id_of(fields[i].children, fields[i].n_children, max_id);
    }
}

/* The field's metadata JSON with id and physicalName added, in a->arena. */
static dl_status
with_mapping(assigner *a, dl_delta_field *f, dl_error *err) {
    char uuid[37];
    const char *phys = f->name;
    if (!a->is_upgrade) {
        DL_TRY(dl_delta_uuid_string(uuid, err));
        phys = dl_arena_printf(a->arena, "col-%s", uuid);
        DL_CHECK(phys != NULL, err, DL_ERR_NOMEM, "out of memory assigning column ids");
    }
    dl_str md = f->metadata.len > 0 ? f->metadata : DL_STR("{}");
    size_t end = md.len;
    while (end > 0 && md.ptr[end - 1] != '}') {
        end--;
    }
    DL_CHECK(end > 0, err, DL_ERR_CORRUPT, "column '%s': its metadata is not a JSON object",
             f->name);
    bool is_empty = true;
    for (size_t i = 1; i + 1 < end && is_empty; i++) {
        is_empty = md.ptr[i] == ' ' || md.ptr[i] == '\n' || md.ptr[i] == '\t' || md.ptr[i] == '\r';
    }
    f->column_id = ++a->max_id;
    f->has_column_id = true;
    f->physical_name = phys;
    dl_buf_reset(&a->text);
    DL_TRY(dl_buf_append(&a->text, md.ptr, end - 1, err));
    DL_TRY(dl_buf_appendf(&a->text, err, "%s\"delta.columnMapping.id\":%lld,", is_empty ? "" : ",",
                          (long long)f->column_id));
    DL_TRY(dl_buf_append_cstr(&a->text, "\"delta.columnMapping.physicalName\":", err));
    dl_json_writer jw;
    dl_json_writer_init(&jw, &a->text, 0);
    dl_status s = dl_json_writer_string_cstr(&jw, phys, err);
    dl_json_writer_destroy(&jw);
    DL_TRY(s);
    DL_TRY(dl_buf_append_byte(&a->text, '}', err));
    char *copy = dl_arena_strndup(a->arena, (const char *)a->text.data, a->text.len);
    DL_CHECK(copy != NULL, err, DL_ERR_NOMEM, "out of memory assigning column ids");
    f->metadata = dl_str_make(copy, a->text.len);
    a->is_changed = true;
    return DL_OK;
}

static dl_status assign_fields(assigner *a, const dl_delta_field *in, int32_t n,
                               const dl_delta_field **out, dl_error *err);

/* Copies what is inside node: struct fields get ids; an array's element and a map's key and
 * value do not (they are not fields), what is inside them does. */
static dl_status
assign_inside(assigner *a, dl_delta_field *node, dl_error *err) {
    if (node->n_children == 0) {
        return DL_OK;
    }
    if (node->type->id == DL_VEC_TYPE_STRUCT) {
        return assign_fields(a, node->children, node->n_children, &node->children, err);
    }
    dl_delta_field *kids =
        dl_arena_alloc_array(a->arena, (size_t)node->n_children, sizeof(dl_delta_field));
    DL_CHECK(kids != NULL, err, DL_ERR_NOMEM, "out of memory assigning column ids");
    for (int32_t i = 0; i < node->n_children; i++) {
        kids[i] = node->children[i];
        DL_TRY(assign_inside(a, &kids[i], err));
    }
    node->children = kids;
    return DL_OK;
}

static dl_status
assign_fields(assigner *a, const dl_delta_field *in, int32_t n, const dl_delta_field **out,
              dl_error *err) {
    dl_delta_field *fields =
        dl_arena_alloc_array(a->arena, (size_t)(n > 0 ? n : 1), sizeof(*fields));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory assigning column ids");
    for (int32_t i = 0; i < n; i++) {
        fields[i] = in[i];
        if (!fields[i].has_column_id && fields[i].physical_name == NULL) {
            DL_TRY(with_mapping(a, &fields[i], err));
        }
        DL_TRY(assign_inside(a, &fields[i], err));
    }
    *out = fields;
    return DL_OK;
}

/* tx->metadata with schemaString s and maxColumnId max_id (in tx->arena). */
static dl_status
restage(dl_delta_tx *tx, const dl_delta_schema *schema, int64_t max_id, dl_error *err) {
    dl_buf json;
    dl_buf_init(&json, tx->alloc);
    dl_status s = dl_delta_schema_to_json(schema, &json, err);
    const char *text =
        s == DL_OK ? dl_arena_strndup(&tx->arena, (const char *)json.data, json.len) : NULL;
    dl_buf_destroy(&json);
    DL_TRY(s);
    DL_CHECK(text != NULL, err, DL_ERR_NOMEM, "out of memory assigning column ids");
    tx->metadata.schema_string = text;
    dl_delta_metadata *md = &tx->metadata;
    dl_delta_kv *conf =
        dl_arena_alloc_array(&tx->arena, (size_t)md->n_configuration + 1, sizeof(*conf));
    const char *value = dl_arena_printf(&tx->arena, "%lld", (long long)max_id);
    DL_CHECK(conf != NULL && value != NULL, err, DL_ERR_NOMEM,
             "out of memory assigning column ids");
    int32_t n = 0;
    bool is_set = false;
    for (int32_t i = 0; i < md->n_configuration; i++) {
        conf[n] = md->configuration[i];
        if (strcmp(conf[n].key, MAX_ID_KEY) == 0) {
            conf[n].value = value;
            is_set = true;
        }
        n++;
    }
    if (!is_set) {
        conf[n++] = (dl_delta_kv){.key = MAX_ID_KEY, .value = value};
    }
    md->configuration = conf;
    md->n_configuration = n;
    return DL_OK;
}

static dl_status
check_mode_change(const dl_delta_tx *tx, dl_delta_cm_mode from, dl_delta_cm_mode to,
                  dl_error *err) {
    if (from == to || (from == DL_DELTA_CM_NONE && to == DL_DELTA_CM_NAME)) {
        return DL_OK;
    }
    if (to == DL_DELTA_CM_NONE) {
        dl_status s = dl_error_set(err, DL_ERR_UNSUPPORTED,
                                   "%s: removing column mapping (mode '%s' to 'none') is not "
                                   "supported by deltalite: Delta does it by rewriting every data "
                                   "file under the display names (REMOVE COLUMN MAPPING)",
                                   tx->table->display, mode_text(from));
        dl_error_hint(err, "run the ALTER TABLE in Spark, or recreate the table with CREATE TABLE "
                           "... AS SELECT");
        return s;
    }
    dl_status s = dl_error_set(err, DL_ERR_SCHEMA,
                               "[DELTA_UNSUPPORTED_COLUMN_MAPPING_MODE_CHANGE] Changing column "
                               "mapping mode from '%s' to '%s' is not supported (%s).",
                               mode_text(from), mode_text(to), tx->table->display);
    dl_error_hint(err, "an existing table can go from 'none' to 'name' only; recreate the table "
                       "(CREATE TABLE ... AS SELECT) for another mode");
    return s;
}

dl_status
dl_delta_colmap_stage(dl_delta_tx *tx, dl_error *err) {
    const dl_delta_metadata *old = tx->snap != NULL ? dl_delta_snapshot_metadata(tx->snap) : NULL;
    bool is_new = old == NULL || old->id == NULL || strcmp(old->id, tx->metadata.id) != 0;
    dl_delta_cm_mode from = is_new ? DL_DELTA_CM_NONE : dl_delta_snapshot_cm_mode(tx->snap);
    dl_delta_cm_mode to = dl_delta_md_cm_mode(&tx->metadata);
    if (!is_new) {
        DL_TRY(check_mode_change(tx, from, to, err));
    }
    if (to == DL_DELTA_CM_NONE) {
        return DL_OK;
    }
    dl_delta_schema schema;
    DL_TRY(dl_delta_schema_parse(dl_str_from_cstr(tx->metadata.schema_string), &tx->arena, &schema,
                                 err));
    assigner a = {.arena = &tx->arena, .is_upgrade = !is_new && from == DL_DELTA_CM_NONE};
    const char *conf_max = dl_delta_metadata_config(&tx->metadata, MAX_ID_KEY);
    int64_t declared = 0;
    if (conf_max != NULL && !dl_delta_parse_version(dl_str_from_cstr(conf_max), &declared)) {
        DL_FAIL(err, DL_ERR_CORRUPT, "%s: %s is '%s', not a number", tx->table->display, MAX_ID_KEY,
                conf_max);
    }
    if (!is_new && old != NULL) {
        const char *old_max = dl_delta_metadata_config(old, MAX_ID_KEY);
        int64_t v = 0;
        if (old_max != NULL && dl_delta_parse_version(dl_str_from_cstr(old_max), &v)) {
            declared = DL_MAX(declared, v);
        }
    }
    a.max_id = declared;
    max_id_of(schema.fields, schema.n_fields, &a.max_id);
    dl_buf_init(&a.text, tx->alloc);
    dl_delta_schema out = schema;
    dl_status s = assign_fields(&a, schema.fields, schema.n_fields, &out.fields, err);
    dl_buf_destroy(&a.text);
    DL_TRY(s);
    if (!a.is_changed && conf_max != NULL && declared == a.max_id) {
        return DL_OK;
    }
    return restage(tx, &out, a.max_id, err);
}

dl_status
dl_delta_colmap_tx_schema(dl_delta_tx *tx, const dl_delta_schema **out, dl_delta_cm_mode *out_mode,
                          dl_error *err) {
    *out = NULL;
    *out_mode = DL_DELTA_CM_NONE;
    if (tx->has_metadata) {
        dl_delta_schema *schema = dl_arena_alloc(&tx->arena, sizeof(*schema));
        DL_CHECK(schema != NULL, err, DL_ERR_NOMEM, "out of memory");
        DL_TRY(dl_delta_schema_parse(dl_str_from_cstr(tx->metadata.schema_string), &tx->arena,
                                     schema, err));
        *out = schema;
        *out_mode = dl_delta_md_cm_mode(&tx->metadata);
    } else if (tx->snap != NULL) {
        *out = dl_delta_snapshot_schema(tx->snap);
        *out_mode = dl_delta_snapshot_cm_mode(tx->snap);
    }
    return DL_OK;
}

/* ---- the physical form of a file's columns ---------------------------------------------- */

typedef struct phys_build {
    dl_arena *arena;
    dl_delta_cm_mode mode;
    int32_t *ids;
    size_t n_ids;
    size_t cap_ids;
} phys_build;

static dl_status
push_id(phys_build *pb, int64_t id, dl_error *err) {
    if (pb->n_ids == pb->cap_ids) {
        size_t cap = pb->cap_ids == 0 ? 16 : pb->cap_ids * 2;
        int32_t *grown = dl_arena_alloc_array(pb->arena, cap, sizeof(*grown));
        DL_CHECK(grown != NULL, err, DL_ERR_NOMEM, "out of memory naming physical columns");
        if (pb->n_ids > 0) {
            memcpy(grown, pb->ids, pb->n_ids * sizeof(*grown));
        }
        pb->ids = grown;
        pb->cap_ids = cap;
    }
    pb->ids[pb->n_ids++] = id >= 0 && id <= INT32_MAX ? (int32_t)id : -1;
    return DL_OK;
}

/* The child of node (a struct node, or NULL) named name. */
static const dl_delta_field *
child_named(const dl_delta_field *node, const char *name) {
    const dl_delta_field *found = NULL;
    for (int32_t i = 0; node != NULL && i < node->n_children; i++) {
        if (strcmp(node->children[i].name, name) == 0) {
            return &node->children[i];
        }
        if (found == NULL &&
            dl_str_eq_nocase(dl_str_from_cstr(node->children[i].name), dl_str_from_cstr(name))) {
            found = &node->children[i];
        }
    }
    return found;
}

static dl_status phys_type(phys_build *pb, const dl_type *t, const dl_delta_field *node,
                           const dl_type **out, dl_error *err);

static dl_status
phys_struct(phys_build *pb, const dl_type *t, const dl_delta_field *node, const dl_type **out,
            dl_error *err) {
    dl_type_field *fields = dl_arena_alloc_array(
        pb->arena, (size_t)(t->n_fields > 0 ? t->n_fields : 1), sizeof(*fields));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory naming physical columns");
    for (int32_t i = 0; i < t->n_fields; i++) {
        const dl_delta_field *df = child_named(node, t->fields[i].name);
        fields[i] = t->fields[i];
        if (df != NULL) {
            fields[i].name = dl_delta_field_physical_name(df, pb->mode);
        }
        DL_TRY(push_id(pb, df != NULL && df->has_column_id ? df->column_id : -1, err));
        DL_TRY(phys_type(pb, t->fields[i].type, df, &fields[i].type, err));
    }
    return dl_vec_type_struct(pb->arena, fields, t->n_fields, out, err);
}

static dl_status
phys_type(phys_build *pb, const dl_type *t, const dl_delta_field *node, const dl_type **out,
          dl_error *err) {
    const dl_delta_field *kids = node != NULL ? node->children : NULL;
    switch (t->id) {
    case DL_VEC_TYPE_STRUCT:
        return phys_struct(pb, t, node, out, err);
    case DL_VEC_TYPE_ARRAY: {
        const dl_type *element = NULL;
        DL_TRY(push_id(pb, -1, err));
        DL_TRY(phys_type(pb, t->element, node != NULL && node->n_children == 1 ? kids : NULL,
                         &element, err));
        return dl_vec_type_array(pb->arena, element, t->contains_null, out, err);
    }
    case DL_VEC_TYPE_MAP: {
        bool has_kids = node != NULL && node->n_children == 2;
        const dl_type *key = NULL;
        const dl_type *value = NULL;
        DL_TRY(push_id(pb, -1, err));
        DL_TRY(phys_type(pb, t->key, has_kids ? &kids[0] : NULL, &key, err));
        DL_TRY(push_id(pb, -1, err));
        DL_TRY(phys_type(pb, t->value, has_kids ? &kids[1] : NULL, &value, err));
        return dl_vec_type_map(pb->arena, key, value, t->contains_null, out, err);
    }
    default:
        *out = t;
        return DL_OK;
    }
}

dl_status
dl_delta_colmap_physical_of(const dl_delta_schema *schema, dl_delta_cm_mode mode,
                            const dl_type *logical, dl_arena *arena, dl_delta_colmap_physical *out,
                            dl_error *err) {
    memset(out, 0, sizeof(*out));
    if (mode == DL_DELTA_CM_NONE || schema == NULL) {
        out->type = logical;
        return DL_OK;
    }
    dl_delta_field root = {
        .type = schema->type, .children = schema->fields, .n_children = schema->n_fields};
    phys_build pb = {.arena = arena, .mode = mode};
    DL_TRY(phys_struct(&pb, logical, &root, &out->type, err));
    out->field_ids = pb.ids;
    out->n_field_ids = pb.n_ids;
    return DL_OK;
}

dl_status
dl_delta_colmap_file_prefix(char out[3], dl_error *err) {
    static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    uint8_t r[2];
    DL_TRY(dl_delta_random_bytes(r, sizeof(r), err));
    out[0] = alnum[r[0] % (sizeof(alnum) - 1)];
    out[1] = alnum[r[1] % (sizeof(alnum) - 1)];
    out[2] = '\0';
    return DL_OK;
}
