/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The field tree: a file's Parquet schema as deltalite types (pq_reader.h has the table), and
 * the Dremel levels the reader assembles vectors from.
 *
 * Lists and maps (parquet-format LogicalTypes.md, "Nested Types"):
 *
 *   <list-repetition> group <name> (LIST) {        a LIST group has exactly one child, which is
 *     repeated group list {                        repeated. It is the element itself (2-level
 *       <element-repetition> <type> element;       legacy layout) when it is a primitive, a
 *     }                                            group of several fields, or a group named
 *   }                                              "array" or "<name>_tuple"; otherwise its one
 *                                                  child is the element (3-level layout).
 *   <map-repetition> group <name> (MAP) {          MAP (or legacy MAP_KEY_VALUE) groups hold one
 *     repeated group key_value {                   repeated group of a key and an optional
 *       required <key-type> key;                   value. Without the value (parquet-rs can
 *       <value-repetition> <value-type> value;     write that) the map reads as array<key>.
 *     }
 *   }
 *
 * A repeated field outside these is a list of non-null elements: `repeated int32 x` is
 * array<int> x, never null (an absent field is an empty list).
 *
 * Levels (see pq_assemble.c for their use): a vector slot of a field exists at the level
 * entries where def >= def_ctx and rep <= rep_ctx, the levels of its nearest enclosing repeated
 * node (0, 0 at the top); the slot is non-null when def >= def_valid, the field's own
 * definition level.
 */
#include <stdio.h>
#include <string.h>

#include "parquet/pq_reader_int.h"

typedef struct build_ctx {
    dl_pq_file *file;
    dl_arena *arena;
    int64_t n_built; /* fields built, bounded by the schema size times a small factor */
} build_ctx;

/* ---- Leaf types ---------------------------------------------------------------------------- */

typedef struct leaf_type {
    dl_type_id id;
    dl_pq_conv conv;
    int precision; /* DECIMAL */
    int scale;
    const char *unsupported; /* set: why the leaf cannot be read */
} leaf_type;

static leaf_type
lt_make(dl_type_id id, dl_pq_conv conv) {
    leaf_type t;
    memset(&t, 0, sizeof(t));
    t.id = id;
    t.conv = conv;
    return t;
}

static leaf_type
lt_unsupported(const char *why) {
    leaf_type t = lt_make(DL_VEC_TYPE_NULL, DL_PQ_CONV_VOID);
    t.unsupported = why;
    return t;
}

static leaf_type
lt_decimal(const dl_pq_schema_node *n, dl_pq_conv conv) {
    int p = n->logical.decimal.precision;
    if (p > DL_VEC_DECIMAL_MAX_PRECISION) {
        return lt_unsupported("DECIMAL with a precision above 38");
    }
    leaf_type t = lt_make(DL_VEC_TYPE_DECIMAL, conv);
    t.precision = p;
    t.scale = n->logical.decimal.scale;
    return t;
}

static leaf_type
map_int32(const dl_pq_schema_node *n) {
    const dl_pq_logical_type *lt = &n->logical;
    switch (lt->kind) {
    case DL_PQ_LT_DATE:
        return lt_make(DL_VEC_TYPE_DATE, DL_PQ_CONV_I32);
    case DL_PQ_LT_DECIMAL:
        return lt_decimal(n, DL_PQ_CONV_I32_DEC);
    case DL_PQ_LT_TIME:
        if (lt->time.unit == DL_PQ_UNIT_MILLIS) {
            return lt_make(DL_VEC_TYPE_LONG, DL_PQ_CONV_I32_MS_US);
        }
        return lt_unsupported("TIME on INT32 needs the MILLIS unit");
    case DL_PQ_LT_INTEGER:
        if (lt->integer.is_signed) {
            return lt->integer.bit_width == 8    ? lt_make(DL_VEC_TYPE_BYTE, DL_PQ_CONV_I32_I8)
                   : lt->integer.bit_width == 16 ? lt_make(DL_VEC_TYPE_SHORT, DL_PQ_CONV_I32_I16)
                                                 : lt_make(DL_VEC_TYPE_INT, DL_PQ_CONV_I32);
        }
        return lt->integer.bit_width == 8    ? lt_make(DL_VEC_TYPE_SHORT, DL_PQ_CONV_I32_I16)
               : lt->integer.bit_width == 16 ? lt_make(DL_VEC_TYPE_INT, DL_PQ_CONV_U16_I32)
                                             : lt_make(DL_VEC_TYPE_LONG, DL_PQ_CONV_U32_I64);
    case DL_PQ_LT_NONE:
        return lt_make(DL_VEC_TYPE_INT, DL_PQ_CONV_I32);
    default:
        return lt_unsupported("this annotation on INT32");
    }
}

static leaf_type
map_timestamp(const dl_pq_time_type *ts) {
    dl_type_id id = ts->is_adjusted_to_utc ? DL_VEC_TYPE_TIMESTAMP : DL_VEC_TYPE_TIMESTAMP_NTZ;
    switch (ts->unit) {
    case DL_PQ_UNIT_MILLIS:
        return lt_make(id, DL_PQ_CONV_I64_MS_US);
    case DL_PQ_UNIT_MICROS:
        return lt_make(id, DL_PQ_CONV_I64);
    case DL_PQ_UNIT_NANOS:
        return lt_make(id, DL_PQ_CONV_I64_NS_US);
    default:
        return lt_unsupported("TIMESTAMP of an unknown unit");
    }
}

static leaf_type
map_int64(const dl_pq_schema_node *n) {
    const dl_pq_logical_type *lt = &n->logical;
    switch (lt->kind) {
    case DL_PQ_LT_TIMESTAMP:
        return map_timestamp(&lt->timestamp);
    case DL_PQ_LT_DECIMAL:
        return lt_decimal(n, DL_PQ_CONV_I64_DEC);
    case DL_PQ_LT_TIME:
        if (lt->time.unit == DL_PQ_UNIT_MICROS) {
            return lt_make(DL_VEC_TYPE_LONG, DL_PQ_CONV_I64);
        }
        if (lt->time.unit == DL_PQ_UNIT_NANOS) {
            return lt_make(DL_VEC_TYPE_LONG, DL_PQ_CONV_I64_NS_US);
        }
        return lt_unsupported("TIME on INT64 needs the MICROS or NANOS unit");
    case DL_PQ_LT_INTEGER:
        if (!lt->integer.is_signed) {
            leaf_type t = lt_make(DL_VEC_TYPE_DECIMAL, DL_PQ_CONV_U64_DEC);
            t.precision = 20;
            return t;
        }
        return lt_make(DL_VEC_TYPE_LONG, DL_PQ_CONV_I64);
    case DL_PQ_LT_NONE:
        return lt_make(DL_VEC_TYPE_LONG, DL_PQ_CONV_I64);
    default:
        return lt_unsupported("this annotation on INT64");
    }
}

static leaf_type
map_byte_array(const dl_pq_schema_node *n) {
    switch (n->logical.kind) {
    case DL_PQ_LT_STRING:
    case DL_PQ_LT_ENUM:
    case DL_PQ_LT_JSON:
        return lt_make(DL_VEC_TYPE_STRING, DL_PQ_CONV_BA_STR);
    case DL_PQ_LT_DECIMAL:
        return lt_decimal(n, DL_PQ_CONV_BA_DEC);
    case DL_PQ_LT_NONE:
    case DL_PQ_LT_BSON:
    case DL_PQ_LT_GEOMETRY:
    case DL_PQ_LT_GEOGRAPHY:
        return lt_make(DL_VEC_TYPE_BINARY, DL_PQ_CONV_BA_BIN);
    default:
        return lt_unsupported("this annotation on BYTE_ARRAY");
    }
}

static leaf_type
map_flba(const dl_pq_schema_node *n) {
    switch (n->logical.kind) {
    case DL_PQ_LT_DECIMAL:
        return lt_decimal(n, DL_PQ_CONV_FLBA_DEC);
    case DL_PQ_LT_FLOAT16:
        if (n->type_length != 2) {
            return lt_unsupported("FLOAT16 on a FIXED_LEN_BYTE_ARRAY whose length is not 2");
        }
        return lt_make(DL_VEC_TYPE_FLOAT, DL_PQ_CONV_FLBA_F16);
    case DL_PQ_LT_UUID:
        if (n->type_length != 16) {
            return lt_unsupported("UUID on a FIXED_LEN_BYTE_ARRAY whose length is not 16");
        }
        return lt_make(DL_VEC_TYPE_STRING, DL_PQ_CONV_FLBA_UUID);
    case DL_PQ_LT_NONE:
    case DL_PQ_LT_GEOMETRY:
    case DL_PQ_LT_GEOGRAPHY:
        return lt_make(DL_VEC_TYPE_BINARY, DL_PQ_CONV_FLBA_BIN);
    default:
        return lt_unsupported("this annotation on FIXED_LEN_BYTE_ARRAY");
    }
}

/* The vector type of a leaf node (its repetition aside). */
static leaf_type
map_leaf(const dl_pq_schema_node *n) {
    const dl_pq_schema_element *e = n->element;
    if (e->has_converted_type && e->converted_type == DL_PQ_CT_INTERVAL) {
        return lt_unsupported("the INTERVAL type");
    }
    if (n->logical.kind == DL_PQ_LT_UNKNOWN) {
        return lt_make(DL_VEC_TYPE_NULL, DL_PQ_CONV_VOID);
    }
    switch (n->type) {
    case DL_PQ_TYPE_BOOLEAN:
        return n->logical.kind == DL_PQ_LT_NONE ? lt_make(DL_VEC_TYPE_BOOLEAN, DL_PQ_CONV_BOOL)
                                                : lt_unsupported("this annotation on BOOLEAN");
    case DL_PQ_TYPE_INT32:
        return map_int32(n);
    case DL_PQ_TYPE_INT64:
        return map_int64(n);
    case DL_PQ_TYPE_INT96:
        return lt_make(DL_VEC_TYPE_TIMESTAMP, DL_PQ_CONV_INT96);
    case DL_PQ_TYPE_FLOAT:
        return lt_make(DL_VEC_TYPE_FLOAT, DL_PQ_CONV_F32);
    case DL_PQ_TYPE_DOUBLE:
        return lt_make(DL_VEC_TYPE_DOUBLE, DL_PQ_CONV_F64);
    case DL_PQ_TYPE_BYTE_ARRAY:
        return map_byte_array(n);
    case DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY:
        return map_flba(n);
    default:
        return lt_unsupported("an unknown physical type");
    }
}

/* ---- The tree ---------------------------------------------------------------------------------
 */

static dl_pq_field *
new_field(build_ctx *b, const dl_pq_schema_node *node, const char *name, dl_pq_field_kind kind,
          const dl_pq_field *parent) {
    dl_pq_field *f = dl_arena_alloc_zero(b->arena, sizeof(*f));
    if (f == NULL) {
        return NULL;
    }
    f->name = name;
    f->kind = kind;
    f->node = node;
    f->parent = parent;
    f->field_id = node->element->field_id;
    f->has_field_id = node->element->has_field_id;
    f->is_nullable = node->repetition == DL_PQ_OPTIONAL;
    b->n_built++;
    return f;
}

static dl_status
oom(dl_error *err) {
    DL_FAIL(err, DL_ERR_NOMEM, "out of memory building the field tree");
}

/* Records that f cannot be read, with the reason (copied into the arena). */
static void
set_unsupported(build_ctx *b, dl_pq_field *f, const char *why) {
    const char *copy = dl_arena_strndup(b->arena, why, strlen(why));
    f->unsupported = copy != NULL ? copy : "unsupported";
    f->type = NULL;
}

static dl_status
make_leaf(build_ctx *b, dl_pq_field *f, dl_error *err) {
    const dl_pq_schema_node *n = f->node;
    leaf_type t = map_leaf(n);
    f->conv = (int32_t)t.conv;
    if (t.unsupported != NULL) {
        char what[256];
        int k = snprintf(what, sizeof(what), "%s (%s%s%s)", t.unsupported, dl_pq_type_name(n->type),
                         n->logical.kind != DL_PQ_LT_NONE ? " " : "",
                         n->logical.kind != DL_PQ_LT_NONE ? dl_pq_logical_kind_name(n->logical.kind)
                                                          : "");
        if (k < 0) {
            what[0] = '\0';
        }
        (void)snprintf(what + strlen(what), sizeof(what) - strlen(what), " is not supported");
        set_unsupported(b, f, what);
        return DL_OK;
    }
    if (t.id == DL_VEC_TYPE_DECIMAL) {
        return dl_vec_type_decimal(b->arena, t.precision, t.scale, &f->type, err);
    }
    f->type = dl_vec_type_prim(t.id);
    return DL_OK;
}

static dl_status build_node(build_ctx *b, const dl_pq_schema_node *node, const char *name,
                            const dl_pq_field *parent, int16_t def_ctx, int16_t rep_ctx,
                            dl_pq_field **out, dl_error *err);

/* A struct field over the children of group node (all of them). */
static dl_status
make_struct(build_ctx *b, dl_pq_field *f, const dl_pq_schema_node *group, dl_error *err) {
    f->children = dl_arena_alloc_array(b->arena, group->n_children, sizeof(dl_pq_field *));
    if (f->children == NULL && group->n_children > 0) {
        return oom(err);
    }
    f->n_children = group->n_children;
    dl_type_field *tf = dl_arena_alloc_array(b->arena, DL_MAX(group->n_children, 1), sizeof(*tf));
    if (tf == NULL) {
        return oom(err);
    }
    const char *bad = NULL;
    for (size_t i = 0; i < group->n_children; i++) {
        const dl_pq_schema_node *c = group->children[i];
        DL_TRY(build_node(b, c, c->name, f, f->def_ctx, f->rep_ctx, &f->children[i], err));
        tf[i].name = c->name;
        tf[i].type = f->children[i]->type;
        tf[i].is_nullable = f->children[i]->is_nullable;
        if (tf[i].type == NULL && bad == NULL) {
            bad = f->children[i]->unsupported;
        }
    }
    if (bad != NULL) {
        set_unsupported(b, f, bad);
        return DL_OK;
    }
    return dl_vec_type_struct(b->arena, tf, (int32_t)group->n_children, &f->type, err);
}

static bool is_map_group(const dl_pq_schema_node *n);
static dl_status make_annotated_list(build_ctx *b, dl_pq_field *f, const dl_pq_schema_node *g,
                                     dl_error *err);
static dl_status make_map(build_ctx *b, dl_pq_field *f, const dl_pq_schema_node *g, dl_error *err);

/*
 * A list field f whose elements are the entries of the repeated node rep: element_node is the
 * node the element is built from (rep itself for the 2-level and unannotated layouts).
 */
static dl_status
make_list(build_ctx *b, dl_pq_field *f, const dl_pq_schema_node *rep,
          const dl_pq_schema_node *element_node, dl_error *err) {
    f->kind = DL_PQ_FIELD_LIST;
    f->children = dl_arena_alloc_array(b->arena, 1, sizeof(dl_pq_field *));
    if (f->children == NULL) {
        return oom(err);
    }
    f->n_children = 1;
    int16_t def = rep->max_def_level;
    int16_t r = rep->max_rep_level;
    dl_pq_field *e = NULL;
    if (element_node == rep) {
        /* The repeated node is the element: never null once its slot exists. */
        e = new_field(b, rep, "element", DL_PQ_FIELD_LEAF, f);
        if (e == NULL) {
            return oom(err);
        }
        e->def_ctx = def;
        e->rep_ctx = r;
        e->def_valid = def;
        e->is_nullable = false;
        if (rep->is_leaf) {
            DL_TRY(make_leaf(b, e, err));
        } else if (rep->logical.kind == DL_PQ_LT_LIST) {
            /* A 2-level list of lists: the repeated group is itself an annotated list. */
            DL_TRY(make_annotated_list(b, e, rep, err));
        } else if (is_map_group(rep)) {
            DL_TRY(make_map(b, e, rep, err));
        } else {
            e->kind = DL_PQ_FIELD_STRUCT;
            DL_TRY(make_struct(b, e, rep, err));
        }
    } else {
        DL_TRY(build_node(b, element_node, "element", f, def, r, &e, err));
    }
    f->children[0] = e;
    if (e->type == NULL) {
        set_unsupported(b, f, e->unsupported);
        return DL_OK;
    }
    return dl_vec_type_array(b->arena, e->type, e->is_nullable, &f->type, err);
}

static bool
name_is(const dl_pq_schema_node *n, const char *name) {
    return strcmp(n->name, name) == 0;
}

/* The element node of a LIST group g (its one child rep is repeated). */
static const dl_pq_schema_node *
list_element(const dl_pq_schema_node *g, const dl_pq_schema_node *rep) {
    if (rep->is_leaf || rep->n_children != 1 || name_is(rep, "array") ||
        rep->logical.kind == DL_PQ_LT_LIST || is_map_group(rep)) {
        return rep;
    }
    size_t len = strlen(g->name);
    if (strncmp(rep->name, g->name, len) == 0 && strcmp(rep->name + len, "_tuple") == 0) {
        return rep;
    }
    return rep->children[0];
}

static dl_status
make_annotated_list(build_ctx *b, dl_pq_field *f, const dl_pq_schema_node *g, dl_error *err) {
    if (g->n_children != 1 || g->children[0]->repetition != DL_PQ_REPEATED) {
        set_unsupported(b, f, "a LIST group must have exactly one repeated child (malformed list)");
        return DL_OK;
    }
    const dl_pq_schema_node *rep = g->children[0];
    return make_list(b, f, rep, list_element(g, rep), err);
}

static dl_status
make_map(build_ctx *b, dl_pq_field *f, const dl_pq_schema_node *g, dl_error *err) {
    const dl_pq_schema_node *kv = g->n_children == 1 ? g->children[0] : NULL;
    if (kv == NULL || kv->repetition != DL_PQ_REPEATED || kv->is_leaf || kv->n_children > 2) {
        set_unsupported(b, f,
                        "a MAP group must hold one repeated group of a key and a value "
                        "(malformed map)");
        return DL_OK;
    }
    if (kv->n_children == 1) {
        /* No value column: the keys as a list (as parquet-rs and Arrow read it). */
        return make_list(b, f, kv, kv->children[0], err);
    }
    f->kind = DL_PQ_FIELD_MAP;
    f->children = dl_arena_alloc_array(b->arena, 2, sizeof(dl_pq_field *));
    if (f->children == NULL) {
        return oom(err);
    }
    f->n_children = 2;
    static const char *const names[2] = {"key", "value"};
    for (size_t i = 0; i < 2; i++) {
        DL_TRY(build_node(b, kv->children[i], names[i], f, kv->max_def_level, kv->max_rep_level,
                          &f->children[i], err));
    }
    for (size_t i = 0; i < 2; i++) {
        if (f->children[i]->type == NULL) {
            set_unsupported(b, f, f->children[i]->unsupported);
            return DL_OK;
        }
    }
    if (f->children[0]->kind == DL_PQ_FIELD_MAP) {
        set_unsupported(b, f, "maps whose keys are maps");
        return DL_OK;
    }
    return dl_vec_type_map(b->arena, f->children[0]->type, f->children[1]->type,
                           f->children[1]->is_nullable, &f->type, err);
}

static bool
is_map_group(const dl_pq_schema_node *n) {
    const dl_pq_schema_element *e = n->element;
    return n->logical.kind == DL_PQ_LT_MAP ||
           (e->has_converted_type && e->converted_type == DL_PQ_CT_MAP_KEY_VALUE);
}

static dl_status
build_node(build_ctx *b, const dl_pq_schema_node *node, const char *name, const dl_pq_field *parent,
           int16_t def_ctx, int16_t rep_ctx, dl_pq_field **out, dl_error *err) {
    dl_pq_field *f = new_field(b, node, name, DL_PQ_FIELD_LEAF, parent);
    if (f == NULL) {
        return oom(err);
    }
    *out = f;
    f->def_ctx = def_ctx;
    f->rep_ctx = rep_ctx;
    f->def_valid = node->max_def_level;
    if (node->repetition == DL_PQ_REPEATED) {
        /* An unannotated repeated field: a list that is empty, never null, when absent. */
        f->def_valid = (int16_t)(node->max_def_level - 1);
        f->is_nullable = false;
        return make_list(b, f, node, node, err);
    }
    if (node->is_leaf) {
        return make_leaf(b, f, err);
    }
    if (node->logical.kind == DL_PQ_LT_LIST) {
        return make_annotated_list(b, f, node, err);
    }
    if (is_map_group(node)) {
        return make_map(b, f, node, err);
    }
    f->kind = DL_PQ_FIELD_STRUCT;
    return make_struct(b, f, node, err);
}

/* Records the LEAF field of every leaf column, for filters. */
static void
index_leaves(dl_pq_file *file, dl_pq_field *f) {
    if (f->kind == DL_PQ_FIELD_LEAF) {
        if (f->node->is_leaf && f->node->leaf_index >= 0) {
            file->leaf_field[f->node->leaf_index] = f;
        }
        return;
    }
    for (size_t i = 0; i < f->n_children; i++) {
        if (f->children[i] != NULL) {
            index_leaves(file, f->children[i]);
        }
    }
}

dl_status
dl_pq_fields_build(dl_pq_file *file, dl_error *err) {
    build_ctx b = {.file = file, .arena = &file->arena};
    const dl_pq_schema *s = &file->footer->schema;
    dl_pq_field *root = new_field(&b, s->root, "", DL_PQ_FIELD_STRUCT, NULL);
    file->leaf_field = dl_arena_alloc_zero(&file->arena, DL_MAX(s->n_leaves, 1) * sizeof(void *));
    if (root == NULL || file->leaf_field == NULL) {
        return oom(err);
    }
    root->is_nullable = false;
    DL_TRY(make_struct(&b, root, s->root, err));
    index_leaves(file, root);
    file->root = root;
    return DL_OK;
}

/* ---- Lookups ----------------------------------------------------------------------------------
 */

static bool
names_equal(const char *a, const char *b, bool case_insensitive) {
    if (!case_insensitive) {
        return strcmp(a, b) == 0;
    }
    return dl_str_eq_nocase(dl_str_from_cstr(a), dl_str_from_cstr(b));
}

const dl_pq_field *
dl_pq_field_find(const dl_pq_field *root, const char *const *names, size_t n_names,
                 bool case_insensitive) {
    const dl_pq_field *f = root;
    for (size_t k = 0; k < n_names && f != NULL; k++) {
        const dl_pq_field *next = NULL;
        for (size_t i = 0; i < f->n_children && next == NULL; i++) {
            if (names_equal(f->children[i]->name, names[k], case_insensitive)) {
                next = f->children[i];
            }
        }
        f = next;
    }
    return f;
}

const dl_pq_field *
dl_pq_field_find_id(const dl_pq_field *parent, int32_t field_id) {
    for (size_t i = 0; i < parent->n_children; i++) {
        if (parent->children[i]->has_field_id && parent->children[i]->field_id == field_id) {
            return parent->children[i];
        }
    }
    return NULL;
}
