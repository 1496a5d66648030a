/* SPDX-License-Identifier: Apache-2.0 */
/* Schema JSON <-> dl_type with column metadata (delta_schema.c). */
#include "harness.h"
#include "test_delta_log_util.h"

static dl_arena arena;

static dl_status
parse(const char *json, dl_delta_schema *out, dl_error *err) {
    return dl_delta_schema_parse(dl_str_from_cstr(json), &arena, out, err);
}

/* "name: type" of field i. */
static const char *
render(const dl_delta_schema *s, int32_t i) {
    static char buf[512];
    dl_buf b;
    dl_buf_init(&b, NULL);
    if (dl_buf_appendf(&b, NULL, "%s: ", s->fields[i].name) != DL_OK ||
        dl_delta_type_to_string(s->fields[i].type, &b, NULL) != DL_OK) {
        dl_buf_destroy(&b);
        return "?";
    }
    dl_str_copy_to(dl_buf_view(&b), buf, sizeof(buf));
    dl_buf_destroy(&b);
    return buf;
}

#define FIELD(name, type) \
    "{\"name\":\"" name "\",\"type\":" type ",\"nullable\":true,\"metadata\":{}}"

TEST(test_every_primitive_type_parses) {
    static const char *const types[] = {
        "string",  "long",   "integer", "short",     "byte",          "float", "double",
        "boolean", "binary", "date",    "timestamp", "timestamp_ntz", "void",  "decimal(10,2)"};
    static const dl_type_id ids[] = {
        DL_VEC_TYPE_STRING, DL_VEC_TYPE_LONG,   DL_VEC_TYPE_INT,       DL_VEC_TYPE_SHORT,
        DL_VEC_TYPE_BYTE,   DL_VEC_TYPE_FLOAT,  DL_VEC_TYPE_DOUBLE,    DL_VEC_TYPE_BOOLEAN,
        DL_VEC_TYPE_BINARY, DL_VEC_TYPE_DATE,   DL_VEC_TYPE_TIMESTAMP, DL_VEC_TYPE_TIMESTAMP_NTZ,
        DL_VEC_TYPE_NULL,   DL_VEC_TYPE_DECIMAL};
    for (size_t i = 0; i < DL_ARRAY_LEN(types); i++) {
        char json[256];
        (void)snprintf(json, sizeof(json),
                       "{\"type\":\"struct\",\"fields\":[" FIELD("c", "\"%s\"") "]}", types[i]);
        dl_delta_schema s;
        dl_error err;
        CHECK_OK(parse(json, &s, &err), &err);
        CHECK_INT_EQ(s.n_fields, 1);
        CHECK_INT_EQ(s.fields[0].type->id, ids[i]);
        char want[64];
        (void)snprintf(want, sizeof(want), "c: %s", types[i]);
        CHECK_STR_EQ(render(&s, 0), want);
    }
}

TEST(test_decimals_keep_precision_and_scale) {
    dl_delta_schema s;
    dl_error err;
    CHECK_OK(parse("{\"type\":\"struct\",\"fields\":[" FIELD("a", "\"decimal(38, 18)\"") "," FIELD(
                       "b", "\"decimal\"") "]}",
                   &s, &err),
             &err);
    CHECK_INT_EQ(s.fields[0].type->precision, 38);
    CHECK_INT_EQ(s.fields[0].type->scale, 18);
    CHECK_INT_EQ(s.fields[1].type->precision, 10);
    CHECK_INT_EQ(s.fields[1].type->scale, 0);
    CHECK_STATUS(
        parse("{\"type\":\"struct\",\"fields\":[" FIELD("a", "\"decimal(5,6)\"") "]}", &s, &err),
        DL_ERR_CORRUPT, &err);
    CHECK_STATUS(
        parse("{\"type\":\"struct\",\"fields\":[" FIELD("a", "\"decimal(39,2)\"") "]}", &s, &err),
        DL_ERR_UNSUPPORTED, &err);
    CHECK_STATUS(
        parse("{\"type\":\"struct\",\"fields\":[" FIELD("a", "\"decimal(5,2\"") "]}", &s, &err),
        DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "malformed decimal type");
}

static const char *const nested_json =
    "{\"type\":\"struct\",\"fields\":["
    "{\"name\":\"s\",\"type\":{\"type\":\"struct\",\"fields\":["
    "{\"name\":\"x\",\"type\":\"integer\",\"nullable\":false,\"metadata\":{}}]},"
    "\"nullable\":true,\"metadata\":{}},"
    "{\"name\":\"a\",\"type\":{\"type\":\"array\",\"elementType\":{\"type\":\"map\","
    "\"keyType\":\"string\",\"valueType\":\"long\",\"valueContainsNull\":false},"
    "\"containsNull\":true},\"nullable\":true,\"metadata\":{}},"
    "{\"name\":\"t\",\"type\":\"timestamp_ntz\",\"nullable\":false,\"metadata\":{}}]}";

TEST(test_nested_types_parse_and_render) {
    dl_delta_schema s;
    dl_error err;
    CHECK_OK(parse(nested_json, &s, &err), &err);
    CHECK_INT_EQ(s.n_fields, 3);
    CHECK_STR_EQ(render(&s, 0), "s: struct<x:integer>");
    CHECK_STR_EQ(render(&s, 1), "a: array<map<string,long>>");
    CHECK_STR_EQ(render(&s, 2), "t: timestamp_ntz");
    CHECK(!s.fields[2].is_nullable);
    CHECK(!s.fields[0].children[0].is_nullable);
    const dl_delta_field *arr = &s.fields[1];
    CHECK_INT_EQ(arr->n_children, 1);
    CHECK_STR_EQ(arr->children[0].name, "element");
    CHECK(arr->type->contains_null);
    const dl_delta_field *map = &arr->children[0];
    CHECK_INT_EQ(map->n_children, 2);
    CHECK_STR_EQ(map->children[1].name, "value");
    CHECK(!map->type->contains_null);
    CHECK_INT_EQ(s.type->id, DL_VEC_TYPE_STRUCT);
    CHECK_INT_EQ(s.type->n_fields, 3);
}

TEST(test_schema_round_trips_through_json) {
    static const char *const json =
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,"
        "\"metadata\":{\"delta.columnMapping.id\":1,\"delta.columnMapping.physicalName\":"
        "\"col-5f422f40\",\"comment\":\"key\",\"custom\":[1,2]}},"
        "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"keyType\":\"integer\",\"valueType\":"
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"d\",\"type\":\"decimal(20,5)\","
        "\"nullable\":true,\"metadata\":{}}]},\"valueContainsNull\":true},\"nullable\":false,"
        "\"metadata\":{}}]}";
    dl_delta_schema s;
    dl_error err;
    CHECK_OK(parse(json, &s, &err), &err);
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_delta_schema_to_json(&s, &out, &err), &err);
    dl_json_doc a;
    dl_json_doc b;
    dl_json_doc_init(&a, NULL);
    dl_json_doc_init(&b, NULL);
    CHECK_OK(dl_json_doc_parse(&a, json, strlen(json), &err), &err);
    CHECK_OK(dl_json_doc_parse(&b, (const char *)out.data, out.len, &err), &err);
    bool equal = dl_json_val_equal(dl_json_doc_root(&a), dl_json_doc_root(&b));
    dl_json_doc_destroy(&a);
    dl_json_doc_destroy(&b);
    dl_buf_destroy(&out);
    CHECK(equal);
}

TEST(test_column_metadata_is_extracted) {
    static const char *const json =
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,"
        "\"metadata\":{\"delta.columnMapping.id\":7,\"delta.columnMapping.physicalName\":\"col-a\","
        "\"delta.identity.start\":1,\"delta.identity.step\":2,\"delta.identity.highWaterMark\":9,"
        "\"delta.identity.allowExplicitInsert\":true}},"
        "{\"name\":\"g\",\"type\":\"integer\",\"nullable\":true,\"metadata\":{"
        "\"delta.generationExpression\":\"id * 2\",\"delta.invariants\":"
        "\"{\\\"expression\\\":{\\\"expression\\\":\\\"g > 3\\\"}}\",\"CURRENT_DEFAULT\":\"5\"}}]}";
    dl_delta_schema s;
    dl_error err;
    CHECK_OK(parse(json, &s, &err), &err);
    const dl_delta_field *id = &s.fields[0];
    CHECK(id->has_column_id);
    CHECK_INT_EQ(id->column_id, 7);
    CHECK_STR_EQ(id->physical_name, "col-a");
    CHECK(id->is_identity);
    CHECK_INT_EQ(id->identity_start, 1);
    CHECK_INT_EQ(id->identity_step, 2);
    CHECK(id->has_identity_high_water);
    CHECK_INT_EQ(id->identity_high_water, 9);
    CHECK(id->identity_allow_explicit);
    const dl_delta_field *g = &s.fields[1];
    CHECK_STR_EQ(g->generation_expr, "id * 2");
    CHECK(strstr(g->invariant, "g > 3") != NULL);
    CHECK_STR_EQ(g->default_expr, "5");
    CHECK(!g->has_column_id);
    CHECK_STR_EQ(dl_delta_field_physical_name(id, DL_DELTA_CM_NAME), "col-a");
    CHECK_STR_EQ(dl_delta_field_physical_name(id, DL_DELTA_CM_NONE), "id");
    CHECK_STR_EQ(dl_delta_field_physical_name(g, DL_DELTA_CM_ID), "g");
}

TEST(test_unsupported_types_name_the_field) {
    dl_delta_schema s;
    dl_error err;
    CHECK_STATUS(parse("{\"type\":\"struct\",\"fields\":[{\"name\":\"o\",\"type\":{\"type\":"
                       "\"struct\",\"fields\":[" FIELD("v", "\"variant\"") "]},\"nullable\":true,"
                                                                           "\"metadata\":{}}]}",
                       &s, &err),
                 DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "field 'o.v' has type \"variant\"");
    CHECK_STATUS(
        parse("{\"type\":\"struct\",\"fields\":[" FIELD("g", "\"geometry(OGC:CRS84)\"") "]}", &s,
              &err),
        DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "geometry(OGC:CRS84)");
    CHECK_STATUS(
        parse("{\"type\":\"struct\",\"fields\":[" FIELD("u", "{\"type\":\"udt\"}") "]}", &s, &err),
        DL_ERR_UNSUPPORTED, &err);
}

TEST(test_a_nul_in_a_column_name_is_refused_not_cut) {
    dl_delta_schema s;
    dl_error err;
    CHECK_STATUS(
        parse("{\"type\":\"struct\",\"fields\":[" FIELD("a\\u0000b", "\"long\"") "]}", &s, &err),
        DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "holds a NUL character");
}

TEST(test_malformed_schemas_are_corrupt) {
    dl_delta_schema s;
    dl_error err;
    CHECK_STATUS(parse("{\"type\":\"array\"}", &s, &err), DL_ERR_CORRUPT, &err);
    CHECK_STATUS(parse("[1]", &s, &err), DL_ERR_CORRUPT, &err);
    CHECK_STATUS(parse("{\"type\":\"struct\"", &s, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "schemaString");
    CHECK_STATUS(parse("{\"type\":\"struct\",\"fields\":[{\"type\":\"long\"}]}", &s, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "missing 'name'");
    CHECK_STATUS(parse("{\"type\":\"struct\",\"fields\":[{\"name\":\"a\"}]}", &s, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "missing 'type'");
    CHECK_STATUS(parse("{\"type\":\"struct\",\"fields\":[" FIELD("Ab", "\"long\"") "," FIELD(
                           "aB", "\"long\"") "]}",
                       &s, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "two fields named 'Ab' and 'aB'");
    CHECK_STATUS(parse("{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"long\","
                       "\"metadata\":{\"delta.columnMapping.id\":\"x\"}}]}",
                       &s, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "delta.columnMapping.id");
}

TEST(test_find_resolves_case_insensitively_when_unambiguous) {
    dl_delta_schema s;
    dl_error err;
    CHECK_OK(parse("{\"type\":\"struct\",\"fields\":[" FIELD("Name", "\"string\"") "," FIELD(
                       "x", "\"long\"") "," FIELD("X1", "\"long\"") "]}",
                   &s, &err),
             &err);
    CHECK(dl_delta_schema_find(&s, DL_STR("Name")) == &s.fields[0]);
    CHECK(dl_delta_schema_find(&s, DL_STR("name")) == &s.fields[0]);
    CHECK(dl_delta_schema_find(&s, DL_STR("x1")) == &s.fields[2]);
    CHECK(dl_delta_schema_find(&s, DL_STR("nope")) == NULL);
}

TEST(test_schema_from_type_builds_fields) {
    dl_error err;
    const dl_type *arr;
    CHECK_OK(dl_vec_type_array(&arena, dl_vec_type_prim(DL_VEC_TYPE_INT), true, &arr, &err), &err);
    dl_type_field fields[] = {{"a", dl_vec_type_prim(DL_VEC_TYPE_STRING), true}, {"b", arr, false}};
    const dl_type *st;
    CHECK_OK(dl_vec_type_struct(&arena, fields, 2, &st, &err), &err);
    dl_delta_schema s;
    CHECK_OK(dl_delta_schema_from_type(st, &arena, &s, &err), &err);
    CHECK_INT_EQ(s.n_fields, 2);
    CHECK_STR_EQ(render(&s, 1), "b: array<integer>");
    dl_buf out;
    dl_buf_init(&out, NULL);
    CHECK_OK(dl_delta_schema_to_json(&s, &out, &err), &err);
    CHECK_STR_EQ(dl_buf_cstr(&out),
                 "{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"string\","
                 "\"nullable\":true,\"metadata\":{}},{\"name\":\"b\",\"type\":{\"type\":\"array\","
                 "\"elementType\":\"integer\",\"containsNull\":true},\"nullable\":false,"
                 "\"metadata\":{}}]}");
    dl_buf_destroy(&out);
    CHECK_STATUS(dl_delta_schema_from_type(arr, &arena, &s, &err), DL_ERR_INVALID_ARG, &err);
}

int
main(void) {
    dl_arena_init(&arena, NULL, 0);
    RUN(test_every_primitive_type_parses);
    RUN(test_decimals_keep_precision_and_scale);
    RUN(test_nested_types_parse_and_render);
    RUN(test_schema_round_trips_through_json);
    RUN(test_column_metadata_is_extracted);
    RUN(test_unsupported_types_name_the_field);
    RUN(test_a_nul_in_a_column_name_is_refused_not_cut);
    RUN(test_malformed_schemas_are_corrupt);
    RUN(test_find_resolves_case_insensitively_when_unambiguous);
    RUN(test_schema_from_type_builds_fields);
    dl_arena_destroy(&arena);
    return harness_finish();
}
