/* SPDX-License-Identifier: Apache-2.0 */
/* The schema tree: levels, leaf numbering, paths, annotations and the checks on the flattened
 * schema list. */
#include "base/base.h"
#include "harness.h"
#include "parquet/parquet.h"
#include "parquet/parquet_int.h"

static dl_arena arena;

#define MAX_ELEMS 300

static dl_pq_schema_element elems[MAX_ELEMS];
static size_t n_elems;

static void
reset(void) {
    memset(elems, 0, sizeof(elems));
    n_elems = 0;
}

static dl_pq_schema_element *
group(const char *name, int rep, int32_t n_children) {
    dl_pq_schema_element *e = &elems[n_elems++];
    e->name = dl_str_from_cstr(name);
    if (rep >= 0) {
        e->repetition_type = (dl_pq_repetition)rep;
        e->has_repetition_type = true;
    }
    e->num_children = n_children;
    e->has_num_children = true;
    return e;
}

static dl_pq_schema_element *
leaf(const char *name, dl_pq_repetition rep, dl_pq_type type) {
    dl_pq_schema_element *e = &elems[n_elems++];
    e->name = dl_str_from_cstr(name);
    e->repetition_type = rep;
    e->has_repetition_type = true;
    e->type = type;
    e->has_type = true;
    return e;
}

static dl_status
build(dl_pq_schema *s, dl_error *err) {
    static dl_pq_file_metadata md;
    memset(&md, 0, sizeof(md));
    md.schema = elems;
    md.n_schema = n_elems;
    return dl_pq_schema_build(&md, &arena, s, err);
}

/* root { optional int32 id; optional group tags (LIST) { repeated group list {
 *   optional binary element (UTF8) } }; required group m (MAP) { repeated group key_value {
 *   required binary key; optional group value { repeated int64 xs } } } } */
static void
nested_schema(void) {
    reset();
    group("root", -1, 3);
    leaf("id", DL_PQ_OPTIONAL, DL_PQ_TYPE_INT32);
    dl_pq_schema_element *tags = group("tags", DL_PQ_OPTIONAL, 1);
    tags->converted_type = DL_PQ_CT_LIST;
    tags->has_converted_type = true;
    group("list", DL_PQ_REPEATED, 1);
    dl_pq_schema_element *el = leaf("element", DL_PQ_OPTIONAL, DL_PQ_TYPE_BYTE_ARRAY);
    el->converted_type = DL_PQ_CT_UTF8;
    el->has_converted_type = true;
    dl_pq_schema_element *m = group("m", DL_PQ_REQUIRED, 1);
    m->logical_type.kind = DL_PQ_LT_MAP;
    m->has_logical_type = true;
    group("key_value", DL_PQ_REPEATED, 2);
    leaf("key", DL_PQ_REQUIRED, DL_PQ_TYPE_BYTE_ARRAY);
    group("value", DL_PQ_OPTIONAL, 1);
    leaf("xs", DL_PQ_REPEATED, DL_PQ_TYPE_INT64);
}

TEST(test_levels_leaves_and_paths_of_a_nested_schema) {
    nested_schema();
    dl_pq_schema s;
    dl_error err;
    CHECK_OK(build(&s, &err), &err);
    CHECK_INT_EQ(s.n_nodes, 10);
    CHECK_INT_EQ(s.n_leaves, 4);
    CHECK_INT_EQ(s.max_depth, 4);
    CHECK(s.root == &s.nodes[0] && s.root->parent == NULL && s.root->n_children == 3);
    const dl_pq_schema_node *id = s.leaves[0];
    CHECK_STR_EQ(id->path, "id");
    CHECK(id->max_def_level == 1 && id->max_rep_level == 0 && id->leaf_index == 0);
    const dl_pq_schema_node *el = s.leaves[1];
    CHECK_STR_EQ(el->path, "tags.list.element");
    CHECK(el->max_def_level == 3 && el->max_rep_level == 1);
    CHECK(el->logical.kind == DL_PQ_LT_STRING);
    CHECK_INT_EQ(el->n_path_parts, 3);
    CHECK_STR_EQ(el->path_parts[1], "list");
    const dl_pq_schema_node *key = s.leaves[2];
    CHECK_STR_EQ(key->path, "m.key_value.key");
    CHECK(key->max_def_level == 1 && key->max_rep_level == 1);
    const dl_pq_schema_node *xs = s.leaves[3];
    CHECK_STR_EQ(xs->path, "m.key_value.value.xs");
    CHECK(xs->max_def_level == 3 && xs->max_rep_level == 2);
    CHECK(xs->element_index == 9 && xs->leaf_index == 3 && xs->type == DL_PQ_TYPE_INT64);
    const dl_pq_schema_node *m = &s.nodes[5];
    CHECK_STR_EQ(m->name, "m");
    CHECK(!m->is_leaf && m->leaf_index == -1);
    CHECK(m->first_leaf == 2 && m->n_leaves == 2);
    CHECK(m->logical.kind == DL_PQ_LT_MAP);
    CHECK(m->children[0] == &s.nodes[6] && s.nodes[6].children[1] == &s.nodes[8]);
    CHECK(s.nodes[2].logical.kind == DL_PQ_LT_LIST);
    CHECK(s.root->first_leaf == 0 && s.root->n_leaves == 4);
}

TEST(test_find_leaf_by_path) {
    nested_schema();
    dl_pq_schema s;
    dl_error err;
    CHECK_OK(build(&s, &err), &err);
    dl_str path[4] = {DL_STR("m"), DL_STR("key_value"), DL_STR("value"), DL_STR("xs")};
    CHECK(dl_pq_schema_find_leaf(&s, path, 4) == s.leaves[3]);
    CHECK(dl_pq_schema_find_leaf(&s, path, 3) == NULL);
    path[3] = DL_STR("ys");
    CHECK(dl_pq_schema_find_leaf(&s, path, 4) == NULL);
}

TEST(test_children_counts_must_cover_the_list) {
    dl_pq_schema s;
    dl_error err;
    reset();
    group("root", -1, 1);
    group("g", DL_PQ_OPTIONAL, 3);
    leaf("a", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32);
    CHECK_STATUS(build(&s, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "FileMetaData.schema[1] 'g': declares 3 children but the schema list "
                          "ends after 3 elements");
    reset();
    group("root", -1, 1);
    leaf("a", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32);
    leaf("b", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32);
    CHECK_STATUS(build(&s, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "FileMetaData.schema has 3 elements but the tree below the root "
                             "'root' covers 2");
    reset();
    CHECK_STATUS(build(&s, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "FileMetaData.schema is empty");
}

TEST(test_element_rules) {
    dl_pq_schema s;
    dl_error err;
    reset();
    group("root", -1, 1);
    group("g", DL_PQ_OPTIONAL, 0);
    CHECK_STATUS(build(&s, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "FileMetaData.schema[1] 'g': element has neither a physical type "
                             "nor children");
    reset();
    group("root", -1, 1);
    leaf("f", DL_PQ_REQUIRED, DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY);
    CHECK_STATUS(build(&s, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "'f': FIXED_LEN_BYTE_ARRAY without a positive type_length");
    reset();
    group("root", -1, 1);
    leaf("a", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32)->has_repetition_type = false;
    CHECK_STATUS(build(&s, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "'a': repetition_type is missing");
    reset();
    group("root", -1, 1);
    dl_pq_schema_element *both = leaf("a", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32);
    both->num_children = 1;
    both->has_num_children = true;
    leaf("b", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32);
    CHECK_STATUS(build(&s, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "'a': element has both a physical type and children");
}

TEST(test_root_rules) {
    dl_pq_schema s;
    dl_error err;
    reset();
    group("root", DL_PQ_REPEATED, 1);
    leaf("a", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32);
    CHECK_STATUS(build(&s, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "FileMetaData.schema[0] 'root': the schema root is REPEATED");
    reset();
    leaf("root", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32);
    CHECK_STATUS(build(&s, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "the schema root has a physical type");
    reset();
    group("root", DL_PQ_REQUIRED, 0); /* a file without columns */
    CHECK_OK(build(&s, &err), &err);
    CHECK_INT_EQ(s.n_leaves, 0);
}

TEST(test_nesting_beyond_the_limit_is_refused) {
    dl_pq_schema s;
    dl_error err;
    reset();
    group("root", -1, 1);
    for (int i = 0; i < 260; i++) {
        group("g", DL_PQ_OPTIONAL, 1);
    }
    leaf("a", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32);
    CHECK_STATUS(build(&s, &err), DL_ERR_LIMIT, &err);
    CHECK_ERR_CONTAINS(&err, "FileMetaData.schema[256] 'g': schema nested deeper than 255 levels");
    reset();
    group("root", -1, 1);
    for (int i = 0; i < 254; i++) {
        group("g", DL_PQ_OPTIONAL, 1);
    }
    leaf("a", DL_PQ_OPTIONAL, DL_PQ_TYPE_INT32);
    CHECK_OK(build(&s, &err), &err);
    CHECK_INT_EQ(s.leaves[0]->max_def_level, 255);
    CHECK_INT_EQ(s.max_depth, 255);
}

TEST(test_converted_types_imply_logical_types) {
    static const struct {
        dl_pq_converted_type ct;
        dl_pq_type type;
        dl_pq_logical_kind kind;
        int bits;
        bool is_signed;
        dl_pq_time_unit unit;
    } cases[] = {
        {DL_PQ_CT_UTF8, DL_PQ_TYPE_BYTE_ARRAY, DL_PQ_LT_STRING, 0, false, 0},
        {DL_PQ_CT_ENUM, DL_PQ_TYPE_BYTE_ARRAY, DL_PQ_LT_ENUM, 0, false, 0},
        {DL_PQ_CT_JSON, DL_PQ_TYPE_BYTE_ARRAY, DL_PQ_LT_JSON, 0, false, 0},
        {DL_PQ_CT_BSON, DL_PQ_TYPE_BYTE_ARRAY, DL_PQ_LT_BSON, 0, false, 0},
        {DL_PQ_CT_DATE, DL_PQ_TYPE_INT32, DL_PQ_LT_DATE, 0, false, 0},
        {DL_PQ_CT_TIME_MILLIS, DL_PQ_TYPE_INT32, DL_PQ_LT_TIME, 0, false, DL_PQ_UNIT_MILLIS},
        {DL_PQ_CT_TIME_MICROS, DL_PQ_TYPE_INT64, DL_PQ_LT_TIME, 0, false, DL_PQ_UNIT_MICROS},
        {DL_PQ_CT_TIMESTAMP_MILLIS, DL_PQ_TYPE_INT64, DL_PQ_LT_TIMESTAMP, 0, false,
         DL_PQ_UNIT_MILLIS},
        {DL_PQ_CT_TIMESTAMP_MICROS, DL_PQ_TYPE_INT64, DL_PQ_LT_TIMESTAMP, 0, false,
         DL_PQ_UNIT_MICROS},
        {DL_PQ_CT_UINT_8, DL_PQ_TYPE_INT32, DL_PQ_LT_INTEGER, 8, false, 0},
        {DL_PQ_CT_UINT_64, DL_PQ_TYPE_INT64, DL_PQ_LT_INTEGER, 64, false, 0},
        {DL_PQ_CT_INT_16, DL_PQ_TYPE_INT32, DL_PQ_LT_INTEGER, 16, true, 0},
        {DL_PQ_CT_INT_64, DL_PQ_TYPE_INT64, DL_PQ_LT_INTEGER, 64, true, 0},
        {DL_PQ_CT_INTERVAL, DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY, DL_PQ_LT_NONE, 0, false, 0},
    };

    for (size_t i = 0; i < DL_ARRAY_LEN(cases); i++) {
        reset();
        group("root", -1, 1);
        dl_pq_schema_element *e = leaf("v", DL_PQ_OPTIONAL, cases[i].type);
        e->converted_type = cases[i].ct;
        e->has_converted_type = true;
        e->type_length = 12;
        e->has_type_length = true;
        dl_pq_schema s;
        dl_error err;
        CHECK_OK(build(&s, &err), &err);
        const dl_pq_logical_type *lt = &s.leaves[0]->logical;
        CHECK_INT_EQ(lt->kind, cases[i].kind);
        if (lt->kind == DL_PQ_LT_INTEGER) {
            CHECK(lt->integer.bit_width == cases[i].bits &&
                  lt->integer.is_signed == cases[i].is_signed);
        }
        if (lt->kind == DL_PQ_LT_TIME) {
            CHECK(lt->time.unit == cases[i].unit && lt->time.is_adjusted_to_utc);
        }
        if (lt->kind == DL_PQ_LT_TIMESTAMP) {
            CHECK(lt->timestamp.unit == cases[i].unit && lt->timestamp.is_adjusted_to_utc);
        }
    }
}

TEST(test_decimal_from_converted_type_uses_scale_and_precision) {
    reset();
    group("root", -1, 1);
    dl_pq_schema_element *e = leaf("d", DL_PQ_REQUIRED, DL_PQ_TYPE_INT64);
    e->converted_type = DL_PQ_CT_DECIMAL;
    e->has_converted_type = true;
    e->scale = 2;
    e->precision = 18;
    e->has_scale = e->has_precision = true;
    dl_pq_schema s;
    dl_error err;
    CHECK_OK(build(&s, &err), &err);
    CHECK(s.leaves[0]->logical.kind == DL_PQ_LT_DECIMAL);
    CHECK(s.leaves[0]->logical.decimal.scale == 2 && s.leaves[0]->logical.decimal.precision == 18);
    e->scale = 19;
    CHECK_STATUS(build(&s, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "'d': invalid DECIMAL(18, 19)");
    e->has_precision = false;
    e->scale = 0;
    CHECK_STATUS(build(&s, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "invalid DECIMAL(0, 0)");
    e->has_precision = true;
    e->type = DL_PQ_TYPE_DOUBLE;
    CHECK_STATUS(build(&s, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "'d': DECIMAL annotation on a DOUBLE column");
}

TEST(test_logical_type_wins_and_unknown_logical_types_fall_back) {
    reset();
    group("root", -1, 2);
    dl_pq_schema_element *a = leaf("a", DL_PQ_OPTIONAL, DL_PQ_TYPE_INT64);
    a->converted_type = DL_PQ_CT_TIMESTAMP_MICROS;
    a->has_converted_type = true;
    a->logical_type.kind = DL_PQ_LT_TIMESTAMP;
    a->logical_type.timestamp.unit = DL_PQ_UNIT_MICROS;
    a->logical_type.timestamp.is_adjusted_to_utc = false;
    a->has_logical_type = true;
    dl_pq_schema_element *b = leaf("b", DL_PQ_OPTIONAL, DL_PQ_TYPE_BYTE_ARRAY);
    b->has_logical_type = true; /* kind 0: a member this version does not know */
    dl_pq_schema s;
    dl_error err;
    CHECK_OK(build(&s, &err), &err);
    CHECK(s.leaves[0]->logical.kind == DL_PQ_LT_TIMESTAMP);
    CHECK(!s.leaves[0]->logical.timestamp.is_adjusted_to_utc);
    CHECK(s.leaves[1]->logical.kind == DL_PQ_LT_NONE && s.leaves[1]->has_unknown_logical);
}

TEST(test_integer_annotation_must_fit_the_physical_type) {
    reset();
    group("root", -1, 1);
    dl_pq_schema_element *e = leaf("i", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32);
    e->logical_type.kind = DL_PQ_LT_INTEGER;
    e->logical_type.integer.bit_width = 64;
    e->has_logical_type = true;
    dl_pq_schema s;
    dl_error err;
    CHECK_STATUS(build(&s, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "'i': INTEGER(64) annotation on a INT32 column");
    e->logical_type.integer.bit_width = 12;
    CHECK_STATUS(build(&s, &err), DL_ERR_CORRUPT, &err);
    e->logical_type.integer.bit_width = 16;
    CHECK_OK(build(&s, &err), &err);
}

TEST(test_column_orders_apply_to_leaves_in_order) {
    nested_schema();
    static dl_pq_column_order orders[4] = {{DL_PQ_ORDER_TYPE_DEFINED},
                                           {DL_PQ_ORDER_UNDEFINED},
                                           {DL_PQ_ORDER_TYPE_DEFINED},
                                           {DL_PQ_ORDER_IEEE_754_TOTAL}};
    static dl_pq_file_metadata md;
    memset(&md, 0, sizeof(md));
    md.schema = elems;
    md.n_schema = n_elems;
    md.column_orders = orders;
    md.n_column_orders = 4;
    md.has_column_orders = true;
    dl_pq_schema s;
    dl_error err;
    CHECK_OK(dl_pq_schema_build(&md, &arena, &s, &err), &err);
    CHECK(s.leaves[3]->column_order == DL_PQ_ORDER_IEEE_754_TOTAL);
    CHECK(s.leaves[1]->column_order == DL_PQ_ORDER_UNDEFINED);
    md.n_column_orders = 3;
    CHECK_STATUS(dl_pq_schema_build(&md, &arena, &s, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "FileMetaData.column_orders has 3 entries but the schema has 4 leaf "
                             "columns");
}

TEST(test_decimal_max_precision_per_byte_width) {
    static const int32_t want[][2] = {{0, 0},  {1, 2},   {2, 4},   {3, 6},   {4, 9},
                                      {8, 18}, {12, 28}, {16, 38}, {32, 76}, {40, 76}};
    for (size_t i = 0; i < DL_ARRAY_LEN(want); i++) {
        CHECK_INT_EQ(dl_pq_decimal_max_precision(want[i][0]), want[i][1]);
    }
}

int
main(void) {
    dl_arena_init(&arena, NULL, 0);
    RUN(test_levels_leaves_and_paths_of_a_nested_schema);
    RUN(test_find_leaf_by_path);
    RUN(test_children_counts_must_cover_the_list);
    RUN(test_element_rules);
    RUN(test_root_rules);
    RUN(test_nesting_beyond_the_limit_is_refused);
    RUN(test_converted_types_imply_logical_types);
    RUN(test_decimal_from_converted_type_uses_scale_and_precision);
    RUN(test_logical_type_wins_and_unknown_logical_types_fall_back);
    RUN(test_integer_annotation_must_fit_the_physical_type);
    RUN(test_column_orders_apply_to_leaves_in_order);
    RUN(test_decimal_max_precision_per_byte_width);
    dl_arena_destroy(&arena);
    return harness_finish();
}
