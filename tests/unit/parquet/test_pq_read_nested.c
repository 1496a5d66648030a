/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Parquet reader on nested data: definition and repetition levels assembled into struct,
 * array and map vectors (3-level lists, the legacy 2-level layout, unannotated repeated
 * fields, maps with null values, nulls at every level, lists of lists), records split across
 * pages, pruned projections, and levels that disagree or start wrong.
 */
#include <string.h>

#include "harness.h"
#include "parquet/encoding/pq_encoding.h"
#include "test_pq_read_util.h"

static dl_error err;

#define CHECK_JSON(json, want) CHECK_STR_EQ(dl_buf_cstr(json), want)

/* Adds a v1 (or v2) page of int32 values with the given levels to column c. */
static void
page_i32(pqt_file *f, size_t c, int32_t n, const uint16_t *def, const uint16_t *rep,
         int16_t max_def, int16_t max_rep, const int32_t *vals, size_t n_vals, bool v2) {
    dl_buf v;
    dl_buf_init(&v, NULL);
    if (dl_pq_plain_encode_fixed(vals, n_vals, 4, &v, &err) != DL_OK) {
        printf("%s\n", err.msg);
    }
    int32_t rows = 0;
    for (int32_t i = 0; i < n; i++) {
        rows += rep == NULL || rep[i] == 0;
    }
    pqt_add_page(f, c,
                 &(pqt_page){.type = v2 ? DL_PQ_PAGE_DATA_V2 : DL_PQ_PAGE_DATA,
                             .num_values = n,
                             .num_nulls = n - (int32_t)n_vals,
                             .num_rows = rows,
                             .def = def,
                             .rep = rep,
                             .max_def = max_def,
                             .max_rep = max_rep,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_PLAIN});
    dl_buf_destroy(&v);
}

static void
page_str(pqt_file *f, size_t c, int32_t n, const uint16_t *def, const uint16_t *rep,
         int16_t max_def, int16_t max_rep, const char *const *vals, size_t n_vals) {
    dl_buf v;
    dl_buf_init(&v, NULL);
    dl_str s[16];
    for (size_t i = 0; i < n_vals; i++) {
        s[i] = dl_str_from_cstr(vals[i]);
    }
    if (dl_pq_plain_encode_byte_array(s, n_vals, &v, &err) != DL_OK) {
        printf("%s\n", err.msg);
    }
    pqt_add_page(f, c,
                 &(pqt_page){.type = DL_PQ_PAGE_DATA,
                             .num_values = n,
                             .def = def,
                             .rep = rep,
                             .max_def = max_def,
                             .max_rep = max_rep,
                             .values = v.data,
                             .values_len = v.len,
                             .encoding = DL_PQ_ENCODING_PLAIN});
    dl_buf_destroy(&v);
}

static dl_status
finish_and_read(pqt_file *f, const char *columns, const dl_pq_read_options *opts, dl_buf *json) {
    dl_buf file;
    dl_buf_init(&file, NULL);
    pqt_finish(f, &file);
    dl_buf_reset(json);
    dl_status s = pqt_read_json(file.data, file.len, columns, opts, json, &err);
    dl_buf_destroy(&file);
    return s;
}

/* optional group l (LIST) { repeated group list { optional int32 element } } */
static size_t
list_of_int(pqt_file *f, const char *name) {
    pqt_add_group(f, name, DL_PQ_OPTIONAL, 1, DL_PQ_CT_LIST);
    pqt_add_group(f, "list", DL_PQ_REPEATED, 1, -1);
    return pqt_add_leaf(f, "element", DL_PQ_OPTIONAL, DL_PQ_TYPE_INT32, -1, 0);
}

/* [1, null, 2], null, [], [3] in every batch size and page version. */
TEST(test_three_level_list_with_nulls) {
    for (int v2 = 0; v2 < 2; v2++) {
        for (int32_t batch = 1; batch <= 3; batch++) {
            pqt_file f;
            dl_buf json;
            dl_buf_init(&json, NULL);
            pqt_file_init(&f, 1);
            size_t c = list_of_int(&f, "l");
            uint16_t def[] = {3, 2, 3, 0, 1, 3};
            uint16_t rep[] = {0, 1, 1, 0, 0, 0};
            int32_t vals[] = {1, 2, 3};
            page_i32(&f, c, 6, def, rep, 3, 1, vals, 3, v2 == 1);
            pqt_end_row_group(&f, 4);
            dl_pq_read_options o = {.batch_rows = batch};
            CHECK_OK(finish_and_read(&f, NULL, &o, &json), &err);
            CHECK_JSON(&json, "{\"l\":[1,null,2]}\n{\"l\":null}\n{\"l\":[]}\n{\"l\":[3]}\n");
            pqt_file_destroy(&f);
            dl_buf_destroy(&json);
        }
    }
}

/* The legacy 2-level list: required group a (LIST) { repeated int32 array }. */
TEST(test_two_level_legacy_list) {
    pqt_file f;
    dl_buf json;
    dl_buf_init(&json, NULL);
    pqt_file_init(&f, 1);
    pqt_add_group(&f, "a", DL_PQ_REQUIRED, 1, DL_PQ_CT_LIST);
    size_t c = pqt_add_leaf(&f, "array", DL_PQ_REPEATED, DL_PQ_TYPE_INT32, -1, 0);
    uint16_t def[] = {1, 1, 0, 1};
    uint16_t rep[] = {0, 1, 0, 0};
    int32_t vals[] = {1, 2, 3};
    page_i32(&f, c, 4, def, rep, 1, 1, vals, 3, false);
    pqt_end_row_group(&f, 3);
    CHECK_OK(finish_and_read(&f, NULL, NULL, &json), &err);
    CHECK_JSON(&json, "{\"a\":[1,2]}\n{\"a\":[]}\n{\"a\":[3]}\n");
    pqt_file_destroy(&f);
    dl_buf_destroy(&json);
}

/* A repeated field without LIST annotation: a list of non-null elements, never null. */
TEST(test_repeated_primitive_without_annotation) {
    pqt_file f;
    dl_buf json;
    dl_buf_init(&json, NULL);
    pqt_file_init(&f, 1);
    pqt_add_group(&f, "s", DL_PQ_OPTIONAL, 1, -1);
    size_t c = pqt_add_leaf(&f, "x", DL_PQ_REPEATED, DL_PQ_TYPE_INT32, -1, 0);
    uint16_t def[] = {2, 2, 1, 0, 2};
    uint16_t rep[] = {0, 1, 0, 0, 0};
    int32_t vals[] = {5, 6, 7};
    page_i32(&f, c, 5, def, rep, 2, 1, vals, 3, false);
    pqt_end_row_group(&f, 4);
    CHECK_OK(finish_and_read(&f, NULL, NULL, &json), &err);
    CHECK_JSON(&json, "{\"s\":{\"x\":[5,6]}}\n{\"s\":{\"x\":[]}}\n{\"s\":null}\n"
                      "{\"s\":{\"x\":[7]}}\n");
    pqt_file_destroy(&f);
    dl_buf_destroy(&json);
}

/* optional group m (MAP) { repeated group key_value { required binary key (UTF8);
 * optional int32 value } }: {a:1, b:null}, null, {}, {c:3}. */
static void
map_file(pqt_file *f, bool null_key) {
    pqt_file_init(f, 1);
    pqt_add_group(f, "m", DL_PQ_OPTIONAL, 1, DL_PQ_CT_MAP);
    pqt_add_group(f, "key_value", DL_PQ_REPEATED, 2, -1);
    size_t k = pqt_add_leaf(f, "key", null_key ? DL_PQ_OPTIONAL : DL_PQ_REQUIRED,
                            DL_PQ_TYPE_BYTE_ARRAY, DL_PQ_CT_UTF8, 0);
    size_t v = pqt_add_leaf(f, "value", DL_PQ_OPTIONAL, DL_PQ_TYPE_INT32, -1, 0);
    uint16_t rep[] = {0, 1, 0, 0, 0};
    uint16_t kdef[] = {2, 2, 0, 1, 2};
    uint16_t kdef_null[] = {3, 2, 0, 1, 3}; /* key "b" null */
    const char *keys[] = {"a", "b", "c"};
    const char *keys_null[] = {"a", "c"};
    if (null_key) {
        page_str(f, k, 5, kdef_null, rep, 3, 1, keys_null, 2);
    } else {
        page_str(f, k, 5, kdef, rep, 2, 1, keys, 3);
    }
    uint16_t vdef[] = {3, 2, 0, 1, 3};
    int32_t vals[] = {1, 3};
    page_i32(f, v, 5, vdef, rep, 3, 1, vals, 2, false);
    pqt_end_row_group(f, 4);
}

TEST(test_map_with_null_values) {
    pqt_file f;
    dl_buf json;
    dl_buf_init(&json, NULL);
    map_file(&f, false);
    CHECK_OK(finish_and_read(&f, NULL, NULL, &json), &err);
    CHECK_JSON(&json, "{\"m\":[{\"key\":\"a\",\"value\":1},{\"key\":\"b\",\"value\":null}]}\n"
                      "{\"m\":null}\n{\"m\":[]}\n{\"m\":[{\"key\":\"c\",\"value\":3}]}\n");
    pqt_file_destroy(&f);
    dl_buf_destroy(&json);
}

TEST(test_map_null_key_is_corrupt) {
    pqt_file f;
    dl_buf json;
    dl_buf_init(&json, NULL);
    map_file(&f, true);
    CHECK_STATUS(finish_and_read(&f, NULL, NULL, &json), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "a map key is null");
    pqt_file_destroy(&f);
    dl_buf_destroy(&json);
}

/* optional group s { optional group t { optional int32 x; required int32 y } } */
TEST(test_struct_nulls_at_every_level) {
    pqt_file f;
    dl_buf json;
    dl_buf_init(&json, NULL);
    pqt_file_init(&f, 1);
    pqt_add_group(&f, "s", DL_PQ_OPTIONAL, 1, -1);
    pqt_add_group(&f, "t", DL_PQ_OPTIONAL, 2, -1);
    size_t x = pqt_add_leaf(&f, "x", DL_PQ_OPTIONAL, DL_PQ_TYPE_INT32, -1, 0);
    size_t y = pqt_add_leaf(&f, "y", DL_PQ_REQUIRED, DL_PQ_TYPE_INT32, -1, 0);
    uint16_t xdef[] = {3, 2, 1, 0};
    uint16_t ydef[] = {2, 2, 1, 0};
    int32_t xv[] = {1};
    int32_t yv[] = {2, 3};
    page_i32(&f, x, 4, xdef, NULL, 3, 0, xv, 1, false);
    page_i32(&f, y, 4, ydef, NULL, 2, 0, yv, 2, true);
    pqt_end_row_group(&f, 4);
    const char *want = "{\"s\":{\"t\":{\"x\":1,\"y\":2}}}\n{\"s\":{\"t\":{\"x\":null,\"y\":3}}}\n"
                       "{\"s\":{\"t\":null}}\n{\"s\":null}\n";
    CHECK_OK(finish_and_read(&f, NULL, NULL, &json), &err);
    CHECK_JSON(&json, want);
    /* Projection of one leaf prunes the struct to it. */
    CHECK_OK(finish_and_read(&f, "s.t.y", NULL, &json), &err);
    CHECK_JSON(&json, "{\"s\":{\"t\":{\"y\":2}}}\n{\"s\":{\"t\":{\"y\":3}}}\n{\"s\":{\"t\":null}}\n"
                      "{\"s\":null}\n");
    pqt_file_destroy(&f);
    dl_buf_destroy(&json);
}

/* A v1 page break inside a record: [1, 2, 3] split over two pages, then [4]. */
TEST(test_record_split_across_pages) {
    for (int32_t batch = 1; batch <= 2; batch++) {
        pqt_file f;
        dl_buf json;
        dl_buf_init(&json, NULL);
        pqt_file_init(&f, 1);
        size_t c = list_of_int(&f, "l");
        uint16_t def1[] = {3, 3};
        uint16_t rep1[] = {0, 1};
        uint16_t def2[] = {3, 3};
        uint16_t rep2[] = {1, 0};
        int32_t v1[] = {1, 2};
        int32_t v2[] = {3, 4};
        page_i32(&f, c, 2, def1, rep1, 3, 1, v1, 2, false);
        page_i32(&f, c, 2, def2, rep2, 3, 1, v2, 2, false);
        pqt_end_row_group(&f, 2);
        dl_pq_read_options o = {.batch_rows = batch};
        CHECK_OK(finish_and_read(&f, NULL, &o, &json), &err);
        CHECK_JSON(&json, "{\"l\":[1,2,3]}\n{\"l\":[4]}\n");
        pqt_file_destroy(&f);
        dl_buf_destroy(&json);
    }
}

/* optional group o (LIST) { repeated group list { optional group element (LIST) {
 * repeated group list { optional int32 element } } } }: [[1,2],[],null,[3]], [], null. */
TEST(test_list_of_lists) {
    pqt_file f;
    dl_buf json;
    dl_buf_init(&json, NULL);
    pqt_file_init(&f, 1);
    pqt_add_group(&f, "o", DL_PQ_OPTIONAL, 1, DL_PQ_CT_LIST);
    pqt_add_group(&f, "list", DL_PQ_REPEATED, 1, -1);
    size_t c = list_of_int(&f, "element");
    uint16_t def[] = {5, 5, 3, 2, 5, 1, 0};
    uint16_t rep[] = {0, 2, 1, 1, 1, 0, 0};
    int32_t vals[] = {1, 2, 3};
    page_i32(&f, c, 7, def, rep, 5, 2, vals, 3, false);
    pqt_end_row_group(&f, 3);
    CHECK_OK(finish_and_read(&f, NULL, NULL, &json), &err);
    CHECK_JSON(&json, "{\"o\":[[1,2],[],null,[3]]}\n{\"o\":[]}\n{\"o\":null}\n");
    pqt_file_destroy(&f);
    dl_buf_destroy(&json);
}

/* A list of structs {a int, b string}: whole, pruned to b, and with b's levels disagreeing. */
static void
list_of_struct(pqt_file *f, bool disagree) {
    pqt_file_init(f, 1);
    pqt_add_group(f, "l", DL_PQ_OPTIONAL, 1, DL_PQ_CT_LIST);
    pqt_add_group(f, "list", DL_PQ_REPEATED, 1, -1);
    pqt_add_group(f, "element", DL_PQ_OPTIONAL, 2, -1);
    size_t a = pqt_add_leaf(f, "a", DL_PQ_OPTIONAL, DL_PQ_TYPE_INT32, -1, 0);
    size_t b = pqt_add_leaf(f, "b", DL_PQ_OPTIONAL, DL_PQ_TYPE_BYTE_ARRAY, DL_PQ_CT_UTF8, 0);
    uint16_t adef[] = {4, 2, 3, 0};
    uint16_t rep[] = {0, 1, 1, 0};
    int32_t av[] = {7};
    page_i32(f, a, 4, adef, rep, 4, 1, av, 1, false);
    uint16_t bdef[] = {4, 2, 4, 0};
    uint16_t bdef_bad[] = {4, 2, 4, 4, 0};
    uint16_t rep_bad[] = {0, 1, 1, 1, 0};
    const char *bv[] = {"x", "y"};
    const char *bv_bad[] = {"x", "y", "z"};
    if (disagree) {
        page_str(f, b, 5, bdef_bad, rep_bad, 4, 1, bv_bad, 3);
    } else {
        page_str(f, b, 4, bdef, rep, 4, 1, bv, 2);
    }
    pqt_end_row_group(f, 2);
}

TEST(test_list_of_structs_and_pruning) {
    pqt_file f;
    dl_buf json;
    dl_buf_init(&json, NULL);
    list_of_struct(&f, false);
    CHECK_OK(finish_and_read(&f, NULL, NULL, &json), &err);
    CHECK_JSON(&json,
               "{\"l\":[{\"a\":7,\"b\":\"x\"},null,{\"a\":null,\"b\":\"y\"}]}\n{\"l\":null}\n");
    CHECK_OK(finish_and_read(&f, "l.element.b", NULL, &json), &err);
    CHECK_JSON(&json, "{\"l\":[{\"b\":\"x\"},null,{\"b\":\"y\"}]}\n{\"l\":null}\n");
    pqt_file_destroy(&f);
    list_of_struct(&f, true);
    CHECK_STATUS(finish_and_read(&f, NULL, NULL, &json), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "column 'l.list.element.b' has 4 values where its parent has 3");
    pqt_file_destroy(&f);
    dl_buf_destroy(&json);
}

/* Repetition levels must start records at 0; a repeat needs the repeated field defined. */
TEST(test_bad_repetition_levels) {
    pqt_file f;
    dl_buf json;
    dl_buf_init(&json, NULL);
    pqt_file_init(&f, 1);
    size_t c = list_of_int(&f, "l");
    uint16_t def[] = {3, 3};
    uint16_t rep[] = {1, 0};
    int32_t vals[] = {1, 2};
    page_i32(&f, c, 2, def, rep, 3, 1, vals, 2, false);
    pqt_end_row_group(&f, 1);
    CHECK_STATUS(finish_and_read(&f, NULL, NULL, &json), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "a record starts at repetition level 1");
    pqt_file_destroy(&f);

    pqt_file_init(&f, 1);
    c = list_of_int(&f, "l");
    uint16_t def2[] = {3, 1};
    uint16_t rep2[] = {0, 1};
    page_i32(&f, c, 2, def2, rep2, 3, 1, vals, 1, false);
    pqt_end_row_group(&f, 1);
    CHECK_STATUS(finish_and_read(&f, NULL, NULL, &json), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "repeats at level 1 but its definition level 1 is below");
    pqt_file_destroy(&f);
    dl_buf_destroy(&json);
}

/* A batch with more leaf values than max_batch_values is LIMIT, not an allocation. */
TEST(test_batch_value_limit) {
    pqt_file f;
    dl_buf json;
    dl_buf_init(&json, NULL);
    pqt_file_init(&f, 1);
    size_t c = list_of_int(&f, "l");
    uint16_t def[3000];
    uint16_t rep[3000];
    int32_t vals[3000];
    for (int i = 0; i < 3000; i++) {
        def[i] = 3;
        rep[i] = i == 0 ? 0 : 1;
        vals[i] = i;
    }
    page_i32(&f, c, 3000, def, rep, 3, 1, vals, 3000, false);
    pqt_end_row_group(&f, 1);
    dl_pq_read_options o = {.max_batch_values = 2500};
    CHECK_STATUS(finish_and_read(&f, NULL, &o, &json), DL_ERR_LIMIT, &err);
    CHECK_ERR_CONTAINS(&err, "more than 2500 values");
    pqt_file_destroy(&f);
    dl_buf_destroy(&json);
}

/* Field ids are exposed and found. */
TEST(test_field_ids) {
    pqt_file f;
    dl_buf file;
    dl_buf_init(&file, NULL);
    pqt_file_init(&f, 2);
    size_t a = pqt_add_leaf(&f, "a", DL_PQ_OPTIONAL, DL_PQ_TYPE_INT32, -1, 0);
    pqt_last(&f)->field_id = 7;
    pqt_last(&f)->has_field_id = true;
    pqt_add_group(&f, "Nested", DL_PQ_OPTIONAL, 1, -1);
    pqt_last(&f)->field_id = 8;
    pqt_last(&f)->has_field_id = true;
    size_t b = pqt_add_leaf(&f, "b", DL_PQ_OPTIONAL, DL_PQ_TYPE_INT32, -1, 0);
    pqt_last(&f)->field_id = 9;
    pqt_last(&f)->has_field_id = true;
    uint16_t def[] = {1};
    uint16_t def2[] = {2};
    int32_t one[] = {1};
    page_i32(&f, a, 1, def, NULL, 1, 0, one, 1, false);
    page_i32(&f, b, 1, def2, NULL, 2, 0, one, 1, false);
    pqt_end_row_group(&f, 1);
    pqt_finish(&f, &file);
    dl_pq_file *pf;
    CHECK_OK(dl_pq_file_open_memory(file.data, file.len, "ids.parquet", NULL, &pf, &err), &err);
    const dl_pq_field *root = dl_pq_file_root(pf);
    const dl_pq_field *n = dl_pq_field_find_id(root, 8);
    CHECK(n != NULL && strcmp(n->name, "Nested") == 0);
    const dl_pq_field *leaf = dl_pq_field_find_id(n, 9);
    CHECK(leaf != NULL && leaf->has_field_id && leaf->field_id == 9);
    CHECK(dl_pq_field_find_id(root, 9) == NULL);
    const char *path[] = {"nested", "B"};
    CHECK(dl_pq_field_find(root, path, 2, true) == leaf);
    CHECK(dl_pq_field_find(root, path, 2, false) == NULL);
    dl_pq_file_free(pf);
    pqt_file_destroy(&f);
    dl_buf_destroy(&file);
}

int
main(void) {
    RUN(test_three_level_list_with_nulls);
    RUN(test_two_level_legacy_list);
    RUN(test_repeated_primitive_without_annotation);
    RUN(test_map_with_null_values);
    RUN(test_map_null_key_is_corrupt);
    RUN(test_struct_nulls_at_every_level);
    RUN(test_record_split_across_pages);
    RUN(test_list_of_lists);
    RUN(test_list_of_structs_and_pruning);
    RUN(test_bad_repetition_levels);
    RUN(test_batch_value_limit);
    RUN(test_field_ids);
    return harness_finish();
}
