/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The schema tree (parquet-format README "Metadata" and LogicalTypes.md).
 *
 * FileMetaData.schema is the tree flattened depth first: element 0 is the root group, and
 * each group element is followed by its num_children children, each of them followed by its
 * own subtree. An element with a physical type is a leaf (a column); one without is a group.
 * Every element but the root has a repetition type; the root has none (some writers write
 * REQUIRED), and a REPEATED root is invalid. Groups other than the root have children (only
 * the root may be empty: a file with no columns).
 *
 * Levels (Dremel): a value's definition level counts the OPTIONAL and REPEATED nodes on its
 * path that are present; its repetition level the REPEATED ones. So a node's maximum
 * definition level is its parent's plus one when it is not REQUIRED, and its maximum
 * repetition level its parent's plus one when it is REPEATED.
 *
 * Leaves are numbered in list order: the i-th leaf is column i of every row group and has
 * entry i of column_orders. A group's leaves are contiguous in that order.
 *
 * The tree is built in two passes so that nothing is allocated from a claimed count before the
 * claim is checked: pass 1 walks the list with an explicit stack, links parents and checks
 * that the num_children counts cover the list exactly; pass 2 hands out children arrays from
 * one array of n - 1 slots, numbers the leaves and builds the paths.
 */
#include <string.h>

#include "parquet/parquet_int.h"

/* Paths repeat ancestors' names; bound their total size against the schema's own size so a
 * deep chain with many leaves cannot make a small footer expand quadratically. */
#define PATH_BUDGET_FACTOR 64
#define PATH_BUDGET_FLOOR  ((size_t)1 << 20)

typedef struct build_state {
    const dl_pq_file_metadata *md;
    dl_arena *arena;
    dl_pq_schema *out;
    size_t path_parts_total; /* sum of n_path_parts over nodes */
    size_t path_bytes_total; /* sum of dotted path lengths */
} build_state;

static dl_status
element_fail(const dl_pq_file_metadata *md, size_t i, dl_error *err, const char *what) {
    const dl_pq_schema_element *e = &md->schema[i];
    DL_ERROR_WHERE(err);
    return dl_error_set(err, DL_ERR_CORRUPT, "FileMetaData.schema[%zu] '%.*s': %s", i,
                        DL_STR_FMT(e->name), what);
}

static dl_status
check_root(const dl_pq_file_metadata *md, dl_error *err) {
    const dl_pq_schema_element *root = &md->schema[0];
    if (root->has_type) {
        return element_fail(md, 0, err, "the schema root has a physical type (it must be a group)");
    }
    if (root->has_repetition_type && root->repetition_type == DL_PQ_REPEATED) {
        return element_fail(md, 0, err, "the schema root is REPEATED");
    }
    return DL_OK;
}

static dl_status
check_element(const dl_pq_file_metadata *md, size_t i, dl_error *err) {
    const dl_pq_schema_element *e = &md->schema[i];
    if (!e->has_repetition_type) {
        return element_fail(md, i, err, "repetition_type is missing");
    }
    bool has_children = e->has_num_children && e->num_children > 0;
    if (e->has_type && has_children) {
        return element_fail(md, i, err, "element has both a physical type and children");
    }
    if (!e->has_type && !has_children) {
        return element_fail(md, i, err,
                            "element has neither a physical type nor children (a leaf needs a "
                            "type; Parquet has no empty groups)");
    }
    if (e->has_type && e->type == DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY &&
        (!e->has_type_length || e->type_length <= 0)) {
        return element_fail(md, i, err, "FIXED_LEN_BYTE_ARRAY without a positive type_length");
    }
    return DL_OK;
}

/* Pass 1: parents, levels, depth; the counts must cover the list exactly. */
static dl_status
link_nodes(build_state *st, dl_error *err) {
    const dl_pq_file_metadata *md = st->md;
    dl_pq_schema_node *nodes = st->out->nodes;
    size_t n = md->n_schema;
    size_t stack_node[DL_PQ_MAX_SCHEMA_DEPTH + 1];
    int64_t stack_left[DL_PQ_MAX_SCHEMA_DEPTH + 1];
    size_t sp = 0;
    stack_node[sp] = 0;
    stack_left[sp++] = md->schema[0].has_num_children ? md->schema[0].num_children : 0;
    size_t i = 1;
    while (sp > 0) {
        if (stack_left[sp - 1] == 0) {
            sp--;
            continue;
        }
        if (i >= n) {
            size_t g = stack_node[sp - 1];
            DL_ERROR_WHERE(err);
            return dl_error_set(err, DL_ERR_CORRUPT,
                                "FileMetaData.schema[%zu] '%.*s': declares %d children but the "
                                "schema list ends after %zu elements",
                                g, DL_STR_FMT(md->schema[g].name), (int)md->schema[g].num_children,
                                n);
        }
        stack_left[sp - 1]--;
        DL_TRY(check_element(md, i, err));
        dl_pq_schema_node *parent = &nodes[stack_node[sp - 1]];
        dl_pq_schema_node *node = &nodes[i];
        const dl_pq_schema_element *e = &md->schema[i];
        node->parent = parent;
        node->repetition = e->repetition_type;
        node->max_def_level =
            (int16_t)(parent->max_def_level + (e->repetition_type != DL_PQ_REQUIRED));
        node->max_rep_level =
            (int16_t)(parent->max_rep_level + (e->repetition_type == DL_PQ_REPEATED));
        node->n_path_parts = parent->n_path_parts + 1;
        node->is_leaf = e->has_type;
        parent->n_children++;
        if (node->n_path_parts > DL_PQ_MAX_SCHEMA_DEPTH) {
            DL_ERROR_WHERE(err);
            return dl_error_set(err, DL_ERR_LIMIT,
                                "FileMetaData.schema[%zu] '%.*s': schema nested deeper than %d "
                                "levels",
                                i, DL_STR_FMT(e->name), DL_PQ_MAX_SCHEMA_DEPTH);
        }
        st->path_parts_total += node->n_path_parts;
        if (!node->is_leaf && e->has_num_children && e->num_children > 0) {
            stack_node[sp] = i;
            stack_left[sp++] = e->num_children;
        }
        i++;
    }
    if (i != n) {
        DL_ERROR_WHERE(err);
        return dl_error_set(err, DL_ERR_CORRUPT,
                            "FileMetaData.schema has %zu elements but the tree below the root "
                            "'%.*s' covers %zu (num_children counts are inconsistent)",
                            n, DL_STR_FMT(md->schema[0].name), i);
    }
    return DL_OK;
}

/* The annotation a converted type implies (LogicalTypes.md, "Backward compatibility"). */
static dl_pq_logical_type
logical_from_converted(const dl_pq_schema_element *e) {
    dl_pq_logical_type lt;
    memset(&lt, 0, sizeof(lt));

    static const struct {
        uint8_t bits;
        bool is_signed;
    } ints[] = {{8, false}, {16, false}, {32, false}, {64, false},
                {8, true},  {16, true},  {32, true},  {64, true}};

    switch (e->converted_type) {
    case DL_PQ_CT_UTF8:
        lt.kind = DL_PQ_LT_STRING;
        break;
    case DL_PQ_CT_MAP:
        lt.kind = DL_PQ_LT_MAP;
        break;
    case DL_PQ_CT_LIST:
        lt.kind = DL_PQ_LT_LIST;
        break;
    case DL_PQ_CT_ENUM:
        lt.kind = DL_PQ_LT_ENUM;
        break;
    case DL_PQ_CT_DECIMAL:
        lt.kind = DL_PQ_LT_DECIMAL;
        lt.decimal.scale = e->has_scale ? e->scale : 0;
        lt.decimal.precision = e->has_precision ? e->precision : 0;
        break;
    case DL_PQ_CT_DATE:
        lt.kind = DL_PQ_LT_DATE;
        break;
    case DL_PQ_CT_TIME_MILLIS:
    case DL_PQ_CT_TIME_MICROS:
        lt.kind = DL_PQ_LT_TIME;
        lt.time.is_adjusted_to_utc = true;
        lt.time.unit =
            e->converted_type == DL_PQ_CT_TIME_MILLIS ? DL_PQ_UNIT_MILLIS : DL_PQ_UNIT_MICROS;
        break;
    case DL_PQ_CT_TIMESTAMP_MILLIS:
    case DL_PQ_CT_TIMESTAMP_MICROS:
        lt.kind = DL_PQ_LT_TIMESTAMP;
        lt.timestamp.is_adjusted_to_utc = true;
        lt.timestamp.unit =
            e->converted_type == DL_PQ_CT_TIMESTAMP_MILLIS ? DL_PQ_UNIT_MILLIS : DL_PQ_UNIT_MICROS;
        break;
    case DL_PQ_CT_UINT_8:
    case DL_PQ_CT_UINT_16:
    case DL_PQ_CT_UINT_32:
    case DL_PQ_CT_UINT_64:
    case DL_PQ_CT_INT_8:
    case DL_PQ_CT_INT_16:
    case DL_PQ_CT_INT_32:
    case DL_PQ_CT_INT_64:
        lt.kind = DL_PQ_LT_INTEGER;
        lt.integer.bit_width = (int8_t)ints[e->converted_type - DL_PQ_CT_UINT_8].bits;
        lt.integer.is_signed = ints[e->converted_type - DL_PQ_CT_UINT_8].is_signed;
        break;
    case DL_PQ_CT_JSON:
        lt.kind = DL_PQ_LT_JSON;
        break;
    case DL_PQ_CT_BSON:
        lt.kind = DL_PQ_LT_BSON;
        break;
    default: /* MAP_KEY_VALUE, INTERVAL: no logical type */
        break;
    }
    return lt;
}

int32_t
dl_pq_decimal_max_precision(int32_t n_bytes) {
    if (n_bytes <= 0) {
        return 0;
    }
    if (n_bytes > 32) {
        n_bytes = 32;
    }
    /* floor(log10(2^(8n-1) - 1)) = floor((8n - 1) * log10(2)), exact for n <= 32 since no
     * power of two is a power of ten. log10(2) ~ 0.30102999566. */
    return (int32_t)(((int64_t)(8 * n_bytes - 1) * 30102999566LL) / 100000000000LL);
}

static dl_status
check_decimal(const dl_pq_file_metadata *md, size_t i, const dl_pq_schema_node *node,
              dl_error *err) {
    int32_t p = node->logical.decimal.precision;
    int32_t s = node->logical.decimal.scale;
    if (p < 1 || s < 0 || s > p) {
        DL_ERROR_WHERE(err);
        return dl_error_set(err, DL_ERR_CORRUPT,
                            "FileMetaData.schema[%zu] '%.*s': invalid DECIMAL(%d, %d) (needs "
                            "precision >= 1 and 0 <= scale <= precision)",
                            i, DL_STR_FMT(md->schema[i].name), (int)p, (int)s);
    }
    if (node->type != DL_PQ_TYPE_INT32 && node->type != DL_PQ_TYPE_INT64 &&
        node->type != DL_PQ_TYPE_BYTE_ARRAY && node->type != DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY) {
        DL_ERROR_WHERE(err);
        return dl_error_set(err, DL_ERR_CORRUPT,
                            "FileMetaData.schema[%zu] '%.*s': DECIMAL annotation on a %s column", i,
                            DL_STR_FMT(md->schema[i].name), dl_pq_type_name((int32_t)node->type));
    }
    return DL_OK;
}

static dl_status
check_integer(const dl_pq_file_metadata *md, size_t i, const dl_pq_schema_node *node,
              dl_error *err) {
    int bits = (uint8_t)node->logical.integer.bit_width;
    bool ok = (bits == 8 || bits == 16 || bits == 32) ? node->type == DL_PQ_TYPE_INT32
              : bits == 64                            ? node->type == DL_PQ_TYPE_INT64
                                                      : false;
    if (!ok) {
        DL_ERROR_WHERE(err);
        return dl_error_set(err, DL_ERR_CORRUPT,
                            "FileMetaData.schema[%zu] '%.*s': INTEGER(%d) annotation on a %s "
                            "column",
                            i, DL_STR_FMT(md->schema[i].name), bits,
                            dl_pq_type_name((int32_t)node->type));
    }
    return DL_OK;
}

/* Sets the node's type fields and annotation from its element. */
static dl_status
resolve_annotation(const dl_pq_file_metadata *md, size_t i, dl_pq_schema_node *node,
                   dl_error *err) {
    const dl_pq_schema_element *e = &md->schema[i];
    if (node->is_leaf) {
        node->type = e->type;
        node->type_length = e->type == DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY ? e->type_length : 0;
    }
    if (e->has_logical_type && e->logical_type.kind != DL_PQ_LT_NONE) {
        node->logical = e->logical_type;
    } else {
        node->has_unknown_logical = e->has_logical_type;
        if (e->has_converted_type) {
            node->logical = logical_from_converted(e);
        }
    }
    if (!node->is_leaf) {
        return DL_OK;
    }
    if (node->logical.kind == DL_PQ_LT_DECIMAL) {
        return check_decimal(md, i, node, err);
    }
    if (node->logical.kind == DL_PQ_LT_INTEGER) {
        return check_integer(md, i, node, err);
    }
    return DL_OK;
}

static dl_status
build_path(build_state *st, dl_pq_schema_node *node, dl_error *err) {
    dl_pq_schema_node *parent = node->parent;
    size_t n = node->n_path_parts;
    node->path_parts = dl_arena_alloc_array(st->arena, n, sizeof(char *));
    if (node->path_parts == NULL) {
        return dl_error_set(err, DL_ERR_NOMEM, "out of memory building the schema tree");
    }
    if (n > 1) {
        memcpy((void *)node->path_parts, parent->path_parts, (n - 1) * sizeof(char *));
    }
    node->path_parts[n - 1] = node->name;
    size_t parent_len = strlen(parent->path);
    size_t name_len = strlen(node->name);
    size_t len = parent_len + (n > 1 ? 1 : 0) + name_len;
    st->path_bytes_total += len;
    size_t budget = PATH_BUDGET_FLOOR + PATH_BUDGET_FACTOR * st->md->n_schema;
    if (st->path_bytes_total > budget || st->path_parts_total > budget) {
        DL_ERROR_WHERE(err);
        return dl_error_set(err, DL_ERR_LIMIT,
                            "FileMetaData.schema: column paths exceed %zu bytes (names too long "
                            "or nesting too deep for the number of columns)",
                            budget);
    }
    char *path = dl_arena_alloc(st->arena, len + 1);
    if (path == NULL) {
        return dl_error_set(err, DL_ERR_NOMEM, "out of memory building the schema tree");
    }
    memcpy(path, parent->path, parent_len);
    size_t at = parent_len;
    if (n > 1) {
        path[at++] = '.';
    }
    memcpy(path + at, node->name, name_len + 1);
    node->path = path;
    return DL_OK;
}

/* Pass 2: children arrays, leaf numbering, names, paths and annotations. */
static dl_status
fill_nodes(build_state *st, dl_error *err) {
    const dl_pq_file_metadata *md = st->md;
    dl_pq_schema *out = st->out;
    size_t n = md->n_schema;
    dl_pq_schema_node **slots = dl_arena_alloc_array(st->arena, n, sizeof(void *));
    if (slots == NULL) {
        return dl_error_set(err, DL_ERR_NOMEM, "out of memory building the schema tree");
    }
    size_t next_slot = 0;
    size_t n_leaves = 0;
    for (size_t i = 0; i < n; i++) {
        dl_pq_schema_node *node = &out->nodes[i];
        node->children = slots + next_slot;
        next_slot += node->n_children;
        node->n_children = 0; /* refilled as children are linked below */
        node->first_leaf = (int32_t)n_leaves;
        node->leaf_index = node->is_leaf ? (int32_t)n_leaves++ : -1;
    }
    out->leaves = dl_arena_alloc_array(st->arena, n_leaves > 0 ? n_leaves : 1, sizeof(void *));
    if (out->leaves == NULL) {
        return dl_error_set(err, DL_ERR_NOMEM, "out of memory building the schema tree");
    }
    out->n_leaves = n_leaves;
    for (size_t i = 0; i < n; i++) {
        dl_pq_schema_node *node = &out->nodes[i];
        node->element = &md->schema[i];
        node->element_index = (int32_t)i;
        node->name =
            dl_arena_strndup(st->arena, md->schema[i].name.ptr ? md->schema[i].name.ptr : "",
                             md->schema[i].name.len);
        if (node->name == NULL) {
            return dl_error_set(err, DL_ERR_NOMEM, "out of memory building the schema tree");
        }
        if (i == 0) {
            node->path = "";
        } else {
            node->parent->children[node->parent->n_children++] = node;
            DL_TRY(build_path(st, node, err));
        }
        DL_TRY(resolve_annotation(md, i, node, err));
        if (node->is_leaf) {
            out->leaves[node->leaf_index] = node;
            for (dl_pq_schema_node *a = node; a != NULL; a = a->parent) {
                a->n_leaves++;
            }
        }
        if ((int16_t)node->n_path_parts > out->max_depth) {
            out->max_depth = (int16_t)node->n_path_parts;
        }
    }
    return DL_OK;
}

static dl_status
apply_column_orders(const dl_pq_file_metadata *md, dl_pq_schema *out, dl_error *err) {
    if (!md->has_column_orders) {
        return DL_OK;
    }
    if (md->n_column_orders != out->n_leaves) {
        DL_ERROR_WHERE(err);
        return dl_error_set(err, DL_ERR_CORRUPT,
                            "FileMetaData.column_orders has %zu entries but the schema has %zu "
                            "leaf columns",
                            md->n_column_orders, out->n_leaves);
    }
    for (size_t i = 0; i < out->n_leaves; i++) {
        out->leaves[i]->column_order = md->column_orders[i].kind;
    }
    return DL_OK;
}

dl_status
dl_pq_schema_build(const dl_pq_file_metadata *md, dl_arena *arena, dl_pq_schema *out,
                   dl_error *err) {
    memset(out, 0, sizeof(*out));
    if (md->n_schema == 0) {
        DL_FAIL(err, DL_ERR_CORRUPT, "FileMetaData.schema is empty (it needs at least the root)");
    }
    DL_TRY(check_root(md, err));
    out->nodes = dl_arena_alloc_array(arena, md->n_schema, sizeof(*out->nodes));
    if (out->nodes == NULL) {
        return dl_error_set(err, DL_ERR_NOMEM, "out of memory building the schema tree");
    }
    memset(out->nodes, 0, md->n_schema * sizeof(*out->nodes));
    out->n_nodes = md->n_schema;
    out->root = &out->nodes[0];
    out->root->repetition = DL_PQ_REQUIRED;
    build_state st = {.md = md, .arena = arena, .out = out};
    DL_TRY(link_nodes(&st, err));
    DL_TRY(fill_nodes(&st, err));
    return apply_column_orders(md, out, err);
}

const dl_pq_schema_node *
dl_pq_schema_find_leaf(const dl_pq_schema *schema, const dl_str *parts, size_t n_parts) {
    for (size_t i = 0; i < schema->n_leaves; i++) {
        const dl_pq_schema_node *leaf = schema->leaves[i];
        if (leaf->n_path_parts != n_parts) {
            continue;
        }
        size_t k = 0;
        while (k < n_parts && dl_str_eq_cstr(parts[k], leaf->path_parts[k])) {
            k++;
        }
        if (k == n_parts) {
            return leaf;
        }
    }
    return NULL;
}
