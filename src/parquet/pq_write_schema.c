/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Parquet schema of a deltalite STRUCT type, as Spark writes it (see pq_writer.h for the
 * table of types), and for each leaf the path of steps the shredder walks from a top-level
 * vector down to the leaf's values, with the definition and repetition levels of each step:
 *
 *   - a nullable field is OPTIONAL: a present value there adds one definition level;
 *   - an array is the three-level LIST: <name> (LIST, OPTIONAL when nullable) containing
 *     `repeated group list` containing `element` (OPTIONAL when contains_null); the repeated
 *     group adds one definition and one repetition level;
 *   - a map is <name> (MAP) containing `repeated group key_value` containing a REQUIRED `key`
 *     and a `value` (OPTIONAL when value_contains_null) (LogicalTypes.md "Maps").
 *
 * FileMetaData.schema lists the elements depth first, root first, each group with its number of
 * children. Field ids (Delta column mapping) go to every struct field and to `element`, `key`
 * and `value`, in the same depth-first order (dl_pq_write_field_count).
 */
#include <string.h>

#include "parquet/parquet_int.h"
#include "parquet/pq_write_int.h"

#define MAX_DEPTH DL_PQ_MAX_SCHEMA_DEPTH

typedef struct wbuild {
    dl_arena *arena;
    const int32_t *field_ids; /* NULL or one per field */
    size_t next_field;        /* fields seen so far */
    dl_pq_schema_element *el; /* the elements (counted beforehand) */
    size_t n_el;
    dl_pq_wleaf *leaves;
    size_t n_leaves;
    size_t stats_max_bytes;
    int32_t top;                      /* the current top-level column */
    bool is_repeated;                 /* below an array or map */
    const char *parts[MAX_DEPTH + 1]; /* schema names on the path */
    size_t n_parts;
    const char *fields[MAX_DEPTH + 1]; /* field names on the path */
    size_t n_fields;
    dl_pq_wstep steps[MAX_DEPTH + 1];
    size_t n_steps;
} wbuild;

static void
count_type(const dl_type *type, size_t *n_el, size_t *n_leaves, size_t *n_fields) {
    switch (type->id) {
    case DL_VEC_TYPE_STRUCT:
        for (int32_t i = 0; i < type->n_fields; i++) {
            *n_el += 1;
            *n_fields += 1;
            count_type(type->fields[i].type, n_el, n_leaves, n_fields);
        }
        return;
    case DL_VEC_TYPE_ARRAY:
        *n_el += 2; /* list, element */
        *n_fields += 1;
        count_type(type->element, n_el, n_leaves, n_fields);
        return;
    case DL_VEC_TYPE_MAP:
        *n_el += 3; /* key_value, key, value */
        *n_fields += 2;
        count_type(type->key, n_el, n_leaves, n_fields);
        count_type(type->value, n_el, n_leaves, n_fields);
        return;
    default:
        *n_leaves += 1;
        return;
    }
}

size_t
dl_pq_write_field_count(const dl_type *schema) {
    size_t n_el = 0;
    size_t n_leaves = 0;
    size_t n_fields = 0;
    if (schema != NULL && schema->id == DL_VEC_TYPE_STRUCT) {
        count_type(schema, &n_el, &n_leaves, &n_fields);
    }
    return n_fields;
}

static dl_pq_schema_element *
new_element(wbuild *b, const char *name, dl_pq_repetition repetition, bool is_field) {
    dl_pq_schema_element *e = &b->el[b->n_el++];
    memset(e, 0, sizeof(*e));
    e->name = dl_str_from_cstr(name);
    e->repetition_type = repetition;
    e->has_repetition_type = true;
    if (is_field) {
        int32_t id = b->field_ids != NULL ? b->field_ids[b->next_field] : -1;
        b->next_field++;
        if (id >= 0) {
            e->field_id = id;
            e->has_field_id = true;
        }
    }
    return e;
}

static void
set_logical(dl_pq_schema_element *e, dl_pq_logical_kind kind) {
    e->logical_type.kind = kind;
    e->has_logical_type = true;
}

static void
set_converted(dl_pq_schema_element *e, dl_pq_converted_type ct) {
    e->converted_type = ct;
    e->has_converted_type = true;
}

static void
set_int(dl_pq_schema_element *e, dl_pq_wleaf *leaf, int8_t bits, dl_pq_converted_type ct,
        dl_pq_wconv conv) {
    e->type = DL_PQ_TYPE_INT32;
    set_logical(e, DL_PQ_LT_INTEGER);
    e->logical_type.integer.bit_width = bits;
    e->logical_type.integer.is_signed = true;
    set_converted(e, ct);
    leaf->conv = conv;
}

static void
set_timestamp(dl_pq_schema_element *e, bool is_utc) {
    e->type = DL_PQ_TYPE_INT64;
    set_logical(e, DL_PQ_LT_TIMESTAMP);
    e->logical_type.timestamp.is_adjusted_to_utc = is_utc;
    e->logical_type.timestamp.unit = DL_PQ_UNIT_MICROS;
    if (is_utc) {
        set_converted(e, DL_PQ_CT_TIMESTAMP_MICROS);
    }
}

/* The fewest bytes of a FIXED_LEN_BYTE_ARRAY that hold precision digits (Spark's
 * minBytesForPrecision). */
static int32_t
decimal_bytes(int32_t precision) {
    int32_t n = 1;
    while (dl_pq_decimal_max_precision(n) < precision) {
        n++;
    }
    return n;
}

static void
set_decimal(dl_pq_schema_element *e, dl_pq_wleaf *leaf, const dl_type *type) {
    int32_t p = type->precision;
    set_logical(e, DL_PQ_LT_DECIMAL);
    e->logical_type.decimal.precision = p;
    e->logical_type.decimal.scale = type->scale;
    set_converted(e, DL_PQ_CT_DECIMAL);
    e->precision = p;
    e->scale = type->scale;
    e->has_precision = true;
    e->has_scale = true;
    leaf->dec_limit = 1;
    for (int32_t i = 0; i < p; i++) {
        leaf->dec_limit *= 10;
    }
    if (p <= 9) {
        e->type = DL_PQ_TYPE_INT32;
        leaf->conv = DL_PQ_WCONV_DEC32;
    } else if (p <= 18) {
        e->type = DL_PQ_TYPE_INT64;
        leaf->conv = DL_PQ_WCONV_DEC64;
    } else {
        e->type = DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY;
        e->type_length = decimal_bytes(p);
        e->has_type_length = true;
        leaf->conv = DL_PQ_WCONV_DECFLBA;
    }
}

/* Physical type, annotations and conversion of a primitive leaf. */
static void
set_primitive(dl_pq_schema_element *e, dl_pq_wleaf *leaf, const dl_type *type) {
    e->has_type = true;
    switch (type->id) {
    case DL_VEC_TYPE_BOOLEAN:
        e->type = DL_PQ_TYPE_BOOLEAN;
        leaf->conv = DL_PQ_WCONV_BOOL;
        break;
    case DL_VEC_TYPE_BYTE:
        set_int(e, leaf, 8, DL_PQ_CT_INT_8, DL_PQ_WCONV_I8);
        break;
    case DL_VEC_TYPE_SHORT:
        set_int(e, leaf, 16, DL_PQ_CT_INT_16, DL_PQ_WCONV_I16);
        break;
    case DL_VEC_TYPE_INT:
        set_int(e, leaf, 32, DL_PQ_CT_INT_32, DL_PQ_WCONV_I32);
        break;
    case DL_VEC_TYPE_LONG:
        e->type = DL_PQ_TYPE_INT64;
        leaf->conv = DL_PQ_WCONV_I64;
        break;
    case DL_VEC_TYPE_FLOAT:
        e->type = DL_PQ_TYPE_FLOAT;
        leaf->conv = DL_PQ_WCONV_F32;
        break;
    case DL_VEC_TYPE_DOUBLE:
        e->type = DL_PQ_TYPE_DOUBLE;
        leaf->conv = DL_PQ_WCONV_F64;
        break;
    case DL_VEC_TYPE_DECIMAL:
        set_decimal(e, leaf, type);
        break;
    case DL_VEC_TYPE_STRING:
        e->type = DL_PQ_TYPE_BYTE_ARRAY;
        set_logical(e, DL_PQ_LT_STRING);
        set_converted(e, DL_PQ_CT_UTF8);
        leaf->conv = DL_PQ_WCONV_VIEW;
        break;
    case DL_VEC_TYPE_BINARY:
        e->type = DL_PQ_TYPE_BYTE_ARRAY;
        leaf->conv = DL_PQ_WCONV_VIEW;
        break;
    case DL_VEC_TYPE_DATE:
        e->type = DL_PQ_TYPE_INT32;
        set_logical(e, DL_PQ_LT_DATE);
        set_converted(e, DL_PQ_CT_DATE);
        leaf->conv = DL_PQ_WCONV_I32;
        break;
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        set_timestamp(e, type->id == DL_VEC_TYPE_TIMESTAMP);
        leaf->conv = DL_PQ_WCONV_I64;
        break;
    default: /* NULL */
        e->type = DL_PQ_TYPE_INT32;
        set_logical(e, DL_PQ_LT_UNKNOWN);
        leaf->conv = DL_PQ_WCONV_NONE;
        break;
    }
}

/* Value kind and PLAIN width of a leaf from its conversion. */
static void
set_kind(dl_pq_wleaf *leaf) {
    static const struct {
        dl_pq_vkind vk;
        uint8_t width;
    } kinds[] = {
        [DL_PQ_WCONV_NONE] = {DL_PQ_VK_NONE, 4},   [DL_PQ_WCONV_BOOL] = {DL_PQ_VK_BOOL, 0},
        [DL_PQ_WCONV_I8] = {DL_PQ_VK_I32, 4},      [DL_PQ_WCONV_I16] = {DL_PQ_VK_I32, 4},
        [DL_PQ_WCONV_I32] = {DL_PQ_VK_I32, 4},     [DL_PQ_WCONV_I64] = {DL_PQ_VK_I64, 8},
        [DL_PQ_WCONV_F32] = {DL_PQ_VK_F32, 4},     [DL_PQ_WCONV_F64] = {DL_PQ_VK_F64, 8},
        [DL_PQ_WCONV_DEC32] = {DL_PQ_VK_I32, 4},   [DL_PQ_WCONV_DEC64] = {DL_PQ_VK_I64, 8},
        [DL_PQ_WCONV_DECFLBA] = {DL_PQ_VK_DEC, 0}, [DL_PQ_WCONV_VIEW] = {DL_PQ_VK_BYTES, 0},
    };

    leaf->vk = kinds[leaf->conv].vk;
    leaf->width =
        leaf->conv == DL_PQ_WCONV_DECFLBA ? (size_t)leaf->type_length : kinds[leaf->conv].width;
}

static const char *
join_path(dl_arena *arena, const char *const *parts, size_t n) {
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        len += strlen(parts[i]) + 1;
    }
    char *s = dl_arena_alloc(arena, len + 1);
    if (s == NULL) {
        return NULL;
    }
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(parts[i]);
        memcpy(s + at, parts[i], l);
        at += l;
        s[at++] = i + 1 < n ? '.' : '\0';
    }
    s[at] = '\0';
    return s;
}

static dl_status
add_leaf(wbuild *b, dl_pq_schema_element *e, const dl_type *type, bool is_nullable, uint16_t def,
         uint16_t rep, dl_error *err) {
    dl_pq_wleaf *leaf = &b->leaves[b->n_leaves];
    leaf->index = (int32_t)b->n_leaves;
    leaf->top = b->top;
    leaf->type = type;
    set_primitive(e, leaf, type);
    leaf->phys = e->type;
    leaf->type_length = e->type_length;
    set_kind(leaf);
    leaf->max_def = def;
    leaf->max_rep = rep;
    leaf->is_repeated = b->is_repeated;
    b->steps[b->n_steps] = (dl_pq_wstep){
        .kind = DL_PQ_STEP_LEAF, .is_nullable = is_nullable, .def = def, .name = NULL};
    size_t n_steps = b->n_steps + 1;
    dl_arena *a = b->arena;
    leaf->path = join_path(a, b->parts, b->n_parts);
    leaf->steps = dl_arena_memdup(a, b->steps, n_steps * sizeof(dl_pq_wstep));
    leaf->path_parts = dl_arena_alloc_array(a, b->n_parts, sizeof(dl_str));
    leaf->field_path = dl_arena_memdup(a, b->fields, b->n_fields * sizeof(const char *));
    DL_CHECK(leaf->path != NULL && leaf->steps != NULL && leaf->path_parts != NULL &&
                 leaf->field_path != NULL,
             err, DL_ERR_NOMEM, "Parquet writer: out of memory for the schema");
    leaf->n_steps = n_steps;
    leaf->steps[b->n_steps].name = leaf->path;
    for (size_t i = 0; i < b->n_parts; i++) {
        leaf->path_parts[i] = dl_str_from_cstr(b->parts[i]);
    }
    leaf->n_path_parts = b->n_parts;
    leaf->n_field_path = b->n_fields;
    leaf->form = (dl_pq_wstats_form){.vk = leaf->vk,
                                     .phys = leaf->phys,
                                     .type_length = leaf->type_length,
                                     .is_utf8 = type->id == DL_VEC_TYPE_STRING,
                                     .max_bytes = b->stats_max_bytes};
    b->n_leaves++;
    return DL_OK;
}

static dl_status add_field(wbuild *b, const char *name, const dl_type *type, bool is_nullable,
                           uint16_t def, uint16_t rep, dl_error *err);

static dl_status
push_step(wbuild *b, dl_pq_wstep step, dl_error *err) {
    DL_CHECK(b->n_steps < MAX_DEPTH, err, DL_ERR_UNSUPPORTED,
             "Parquet writer: the schema nests deeper than %d levels", MAX_DEPTH);
    step.name = join_path(b->arena, b->parts, b->n_parts);
    DL_CHECK(step.name != NULL, err, DL_ERR_NOMEM, "Parquet writer: out of memory for the schema");
    b->steps[b->n_steps++] = step;
    return DL_OK;
}

static dl_status
add_struct(wbuild *b, dl_pq_schema_element *e, const dl_type *type, bool is_nullable, uint16_t def,
           uint16_t rep, dl_error *err) {
    DL_CHECK(type->n_fields > 0, err, DL_ERR_UNSUPPORTED,
             "Parquet writer: struct column '%s' has no fields, which Parquet cannot hold",
             b->parts[b->n_parts - 1]);
    e->num_children = type->n_fields;
    e->has_num_children = true;
    for (int32_t i = 0; i < type->n_fields; i++) {
        const dl_type_field *f = &type->fields[i];
        dl_pq_wstep step = {
            .kind = DL_PQ_STEP_STRUCT, .is_nullable = is_nullable, .child = i, .def = def};
        DL_TRY(push_step(b, step, err));
        DL_TRY(add_field(b, f->name, f->type, f->is_nullable, def, rep, err));
        b->n_steps--;
    }
    return DL_OK;
}

static dl_status
add_list(wbuild *b, dl_pq_schema_element *e, const dl_type *type, bool is_nullable, uint16_t def,
         uint16_t rep, dl_error *err) {
    bool is_map = type->id == DL_VEC_TYPE_MAP;
    set_logical(e, is_map ? DL_PQ_LT_MAP : DL_PQ_LT_LIST);
    set_converted(e, is_map ? DL_PQ_CT_MAP : DL_PQ_CT_LIST);
    e->num_children = 1;
    e->has_num_children = true;
    dl_pq_wstep step = {.kind = DL_PQ_STEP_LIST,
                        .is_nullable = is_nullable,
                        .def = def,
                        .rep = (uint16_t)(rep + 1)};
    DL_TRY(push_step(b, step, err));
    const char *group = is_map ? "key_value" : "list";
    dl_pq_schema_element *g = new_element(b, group, DL_PQ_REPEATED, false);
    g->num_children = is_map ? 2 : 1;
    g->has_num_children = true;
    DL_CHECK(b->n_parts < MAX_DEPTH, err, DL_ERR_UNSUPPORTED,
             "Parquet writer: the schema nests deeper than %d levels", MAX_DEPTH);
    b->parts[b->n_parts++] = group;
    bool was_repeated = b->is_repeated;
    b->is_repeated = true;
    uint16_t inner_def = (uint16_t)(def + 1);
    uint16_t inner_rep = (uint16_t)(rep + 1);
    if (is_map) {
        dl_pq_wstep entries = {.kind = DL_PQ_STEP_STRUCT, .child = 0, .def = inner_def};
        DL_TRY(push_step(b, entries, err));
        DL_TRY(add_field(b, "key", type->key, false, inner_def, inner_rep, err));
        b->steps[b->n_steps - 1].child = 1;
        DL_TRY(add_field(b, "value", type->value, type->contains_null, inner_def, inner_rep, err));
        b->n_steps--;
    } else {
        DL_TRY(
            add_field(b, "element", type->element, type->contains_null, inner_def, inner_rep, err));
    }
    b->is_repeated = was_repeated;
    b->n_parts--;
    b->n_steps--;
    return DL_OK;
}

/* Adds a field: its element, what is below it, and its leaves. def and rep are the levels of
 * the parent. */
static dl_status
add_field(wbuild *b, const char *name, const dl_type *type, bool is_nullable, uint16_t def,
          uint16_t rep, dl_error *err) {
    DL_CHECK(b->n_parts < MAX_DEPTH, err, DL_ERR_UNSUPPORTED,
             "Parquet writer: the schema nests deeper than %d levels", MAX_DEPTH);
    dl_pq_schema_element *e =
        new_element(b, name, is_nullable ? DL_PQ_OPTIONAL : DL_PQ_REQUIRED, true);
    b->parts[b->n_parts++] = name;
    b->fields[b->n_fields++] = name;
    uint16_t d = (uint16_t)(def + (is_nullable ? 1 : 0));
    dl_status st;
    switch (type->id) {
    case DL_VEC_TYPE_STRUCT:
        st = add_struct(b, e, type, is_nullable, d, rep, err);
        break;
    case DL_VEC_TYPE_ARRAY:
    case DL_VEC_TYPE_MAP:
        st = add_list(b, e, type, is_nullable, d, rep, err);
        break;
    default:
        st = add_leaf(b, e, type, is_nullable, d, rep, err);
        break;
    }
    b->n_parts--;
    b->n_fields--;
    return st;
}

dl_status
dl_pq_wschema_build(const dl_type *root, const int32_t *field_ids, size_t stats_max_bytes,
                    dl_arena *arena, dl_pq_wschema *out, dl_error *err) {
    memset(out, 0, sizeof(*out));
    DL_CHECK(root != NULL && root->id == DL_VEC_TYPE_STRUCT, err, DL_ERR_INVALID_ARG,
             "Parquet writer: the schema must be a struct type");
    size_t n_el = 1;
    size_t n_leaves = 0;
    size_t n_fields = 0;
    count_type(root, &n_el, &n_leaves, &n_fields);
    wbuild *b = dl_arena_alloc_zero(arena, sizeof(wbuild));
    dl_pq_schema_element *el = dl_arena_alloc_array(arena, n_el, sizeof(*el));
    dl_pq_wleaf *leaves = dl_arena_alloc_array(arena, n_leaves + 1, sizeof(*leaves));
    DL_CHECK(b != NULL && el != NULL && leaves != NULL, err, DL_ERR_NOMEM,
             "Parquet writer: out of memory for the schema");
    memset(leaves, 0, n_leaves * sizeof(*leaves));
    b->arena = arena;
    b->field_ids = field_ids;
    b->el = el;
    b->leaves = leaves;
    b->stats_max_bytes = stats_max_bytes;
    dl_pq_schema_element *r = &el[b->n_el++];
    memset(r, 0, sizeof(*r));
    r->name = DL_STR("schema");
    r->num_children = root->n_fields;
    r->has_num_children = true;
    for (int32_t i = 0; i < root->n_fields; i++) {
        const dl_type_field *f = &root->fields[i];
        b->top = i;
        DL_TRY(add_field(b, f->name, f->type, f->is_nullable, 0, 0, err));
    }
    DL_CHECK(n_leaves > 0, err, DL_ERR_UNSUPPORTED,
             "Parquet writer: the schema has no columns, which Parquet cannot hold");
    DL_ASSERT(b->n_el == n_el && b->n_leaves == n_leaves && b->next_field == n_fields);
    out->elements = el;
    out->n_elements = n_el;
    out->leaves = leaves;
    out->n_leaves = n_leaves;
    return DL_OK;
}
