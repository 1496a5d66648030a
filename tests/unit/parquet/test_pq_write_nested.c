/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Parquet writer, nested columns: the schema elements of structs, three-level lists and
 * maps, and the definition/repetition levels of rows with nulls and empty collections at
 * every level, against levels worked out by hand from the Dremel rules.
 */
#include <string.h>

#include "harness.h"
#include "parquet/pq_writer.h"
#include "test_pq_write_util.h"

/*
 * Schema:  s struct<a int, b array<string>>,  l array<array<int>>,  m map<string, struct<x long>>
 * Rows:
 *   0  s={a=1, b=["x", null]}   l=[[1, 2], [], null]   m={"k1": {x=5}, "k2": null}
 *   1  s=null                   l=null                 m=null
 *   2  s={a=null, b=null}       l=[]                   m={}
 *   3  s={a=4, b=[]}            l=[null, [3]]          m={"k3": {x=null}}
 */
typedef struct fixture {
    dl_arena arena;
    const dl_type *schema;
    const dl_type *t_b, *t_s, *t_inner, *t_l, *t_x, *t_m;
    dl_batch *batch;
} fixture;

static dl_status
make_types(fixture *fx, dl_error *err) {
    dl_arena *a = &fx->arena;
    const dl_type *str = dl_vec_type_prim(DL_VEC_TYPE_STRING);
    const dl_type *i32 = dl_vec_type_prim(DL_VEC_TYPE_INT);
    DL_TRY(dl_vec_type_array(a, str, true, &fx->t_b, err));
    dl_type_field sf[2] = {{"a", i32, true}, {"b", fx->t_b, true}};
    DL_TRY(dl_vec_type_struct(a, sf, 2, &fx->t_s, err));
    DL_TRY(dl_vec_type_array(a, i32, true, &fx->t_inner, err));
    DL_TRY(dl_vec_type_array(a, fx->t_inner, true, &fx->t_l, err));
    dl_type_field xf[1] = {{"x", dl_vec_type_prim(DL_VEC_TYPE_LONG), true}};
    DL_TRY(dl_vec_type_struct(a, xf, 1, &fx->t_x, err));
    DL_TRY(dl_vec_type_map(a, str, fx->t_x, true, &fx->t_m, err));
    dl_type_field top[3] = {{"s", fx->t_s, true}, {"l", fx->t_l, true}, {"m", fx->t_m, true}};
    return dl_vec_type_struct(a, top, 3, &fx->schema, err);
}

static dl_status
fill_s(dl_vector *s, dl_error *err) {
    dl_vector *a = s->children[0];
    dl_vector *b = s->children[1];
    dl_vector *e = b->children[0];
    /* row 0 */
    DL_TRY(dl_vec_append_i32(a, 1, err));
    DL_TRY(dl_vec_append_str(e, "x", 1, err));
    DL_TRY(dl_vec_append_null(e, err));
    DL_TRY(dl_vec_append_list(b, err));
    DL_TRY(dl_vec_append_struct(s, err));
    /* row 1 */
    DL_TRY(dl_vec_append_null(s, err));
    /* row 2 */
    DL_TRY(dl_vec_append_null(a, err));
    DL_TRY(dl_vec_append_null(b, err));
    DL_TRY(dl_vec_append_struct(s, err));
    /* row 3 */
    DL_TRY(dl_vec_append_i32(a, 4, err));
    DL_TRY(dl_vec_append_list(b, err));
    return dl_vec_append_struct(s, err);
}

static dl_status
fill_l(dl_vector *l, dl_error *err) {
    dl_vector *inner = l->children[0];
    dl_vector *e = inner->children[0];
    /* row 0: [[1, 2], [], null] */
    DL_TRY(dl_vec_append_i32(e, 1, err));
    DL_TRY(dl_vec_append_i32(e, 2, err));
    DL_TRY(dl_vec_append_list(inner, err));
    DL_TRY(dl_vec_append_list(inner, err));
    DL_TRY(dl_vec_append_null(inner, err));
    DL_TRY(dl_vec_append_list(l, err));
    /* row 1: null; row 2: [] */
    DL_TRY(dl_vec_append_null(l, err));
    DL_TRY(dl_vec_append_list(l, err));
    /* row 3: [null, [3]] */
    DL_TRY(dl_vec_append_null(inner, err));
    DL_TRY(dl_vec_append_i32(e, 3, err));
    DL_TRY(dl_vec_append_list(inner, err));
    return dl_vec_append_list(l, err);
}

static dl_status
map_entry(dl_vector *m, const char *key, int64_t x, bool is_x_null, bool is_value_null,
          dl_error *err) {
    dl_vector *entries = m->children[0];
    dl_vector *k = entries->children[0];
    dl_vector *v = entries->children[1];
    DL_TRY(dl_vec_append_str(k, key, strlen(key), err));
    if (is_value_null) {
        DL_TRY(dl_vec_append_null(v, err));
    } else {
        DL_TRY(is_x_null ? dl_vec_append_null(v->children[0], err)
                         : dl_vec_append_i64(v->children[0], x, err));
        DL_TRY(dl_vec_append_struct(v, err));
    }
    return dl_vec_append_struct(entries, err);
}

static dl_status
fill_m(dl_vector *m, dl_error *err) {
    DL_TRY(map_entry(m, "k1", 5, false, false, err));
    DL_TRY(map_entry(m, "k2", 0, false, true, err));
    DL_TRY(dl_vec_append_list(m, err));
    DL_TRY(dl_vec_append_null(m, err));
    DL_TRY(dl_vec_append_list(m, err));
    DL_TRY(map_entry(m, "k3", 0, true, false, err));
    return dl_vec_append_list(m, err);
}

static bool
fixture_init(fixture *fx) {
    memset(fx, 0, sizeof(*fx));
    dl_arena_init(&fx->arena, NULL, 0);
    dl_error err;
    bool is_ok = make_types(fx, &err) == DL_OK &&
                 dl_vec_batch_new(NULL, fx->schema, 4, &fx->batch, &err) == DL_OK &&
                 fill_s(fx->batch->cols[0], &err) == DL_OK &&
                 fill_l(fx->batch->cols[1], &err) == DL_OK &&
                 fill_m(fx->batch->cols[2], &err) == DL_OK;
    if (!is_ok) {
        printf("  fixture: %s\n", err.msg);
        return false;
    }
    dl_vec_batch_set_count(fx->batch, 4);
    return true;
}

static void
fixture_destroy(fixture *fx) {
    dl_vec_batch_free(fx->batch);
    dl_arena_destroy(&fx->arena);
}

/* Checks a column's levels; reps may be NULL for a column without repetition. */
static bool
levels_are(const tw_col *c, const uint16_t *defs, const uint16_t *reps, size_t n) {
    if (c == NULL || c->n_levels != n) {
        printf("  %s: %zu levels, want %zu\n", c ? c->leaf->path : "?", c ? c->n_levels : 0, n);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (c->defs[i] != defs[i] || (reps != NULL && c->reps[i] != reps[i])) {
            printf("  %s: entry %zu is (r%u, d%u), want (r%u, d%u)\n", c->leaf->path, i,
                   reps ? c->reps[i] : 0, c->defs[i], reps ? reps[i] : 0, defs[i]);
            return false;
        }
    }
    return true;
}

static bool
write_fixture(fixture *fx, tw_store *st, const dl_pq_write_options *o, tw_file *f) {
    dl_error err;
    if (tw_write(st->store, "n.parquet", fx->schema, &fx->batch, 1, o, NULL, NULL, &err) != DL_OK ||
        tw_file_read(st->store, "n.parquet", f, &err) != DL_OK) {
        printf("  %s\n", err.msg);
        return false;
    }
    return true;
}

static bool
check_levels(const tw_file *f) {
    static const uint16_t sa_d[] = {2, 0, 1, 2};
    static const uint16_t sb_d[] = {4, 3, 0, 1, 2};
    static const uint16_t sb_r[] = {0, 1, 0, 0, 0};
    static const uint16_t l_d[] = {5, 5, 3, 2, 0, 1, 2, 5};
    static const uint16_t l_r[] = {0, 2, 1, 1, 0, 0, 0, 1};
    static const uint16_t k_d[] = {2, 2, 0, 1, 2};
    static const uint16_t k_r[] = {0, 1, 0, 0, 0};
    static const uint16_t x_d[] = {4, 2, 0, 1, 3};
    static const uint16_t x_r[] = {0, 1, 0, 0, 0};
    const tw_col *sa = tw_file_col(f, "s.a");
    const tw_col *sb = tw_file_col(f, "s.b.list.element");
    const tw_col *l = tw_file_col(f, "l.list.element.list.element");
    const tw_col *k = tw_file_col(f, "m.key_value.key");
    const tw_col *x = tw_file_col(f, "m.key_value.value.x");
    return levels_are(sa, sa_d, NULL, 4) && levels_are(sb, sb_d, sb_r, 5) &&
           levels_are(l, l_d, l_r, 8) && levels_are(k, k_d, k_r, 5) && levels_are(x, x_d, x_r, 5) &&
           sa->n_values == 2 && tw_i32(sa, 0) == 1 && tw_i32(sa, 1) == 4 && sb->n_values == 1 &&
           dl_str_eq_cstr(sb->strs[0], "x") && l->n_values == 3 && tw_i32(l, 2) == 3 &&
           k->n_values == 3 && dl_str_eq_cstr(k->strs[1], "k2") && x->n_values == 1 &&
           tw_i64(x, 0) == 5;
}

TEST(test_nested_levels_follow_the_dremel_rules) {
    fixture fx;
    CHECK(fixture_init(&fx));
    tw_store st;
    CHECK(tw_store_new(&st));
    tw_file f;
    CHECK(write_fixture(&fx, &st, NULL, &f));
    CHECK(check_levels(&f));
    tw_file_free(&f);
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.page_version = 2;
    o.is_dictionary_enabled = false;
    o.page_rows = 1;
    CHECK(write_fixture(&fx, &st, &o, &f));
    CHECK(check_levels(&f));
    CHECK(tw_file_col(&f, "l.list.element.list.element")->n_data_pages == 4);
    tw_file_free(&f);
    tw_store_free(&st);
    fixture_destroy(&fx);
}

TEST(test_nested_schema_uses_three_level_lists_and_key_value_maps) {
    fixture fx;
    CHECK(fixture_init(&fx));
    tw_store st;
    CHECK(tw_store_new(&st));
    tw_file f;
    CHECK(write_fixture(&fx, &st, NULL, &f));
    const dl_pq_schema *s = &f.footer->schema;
    CHECK_INT_EQ(s->n_leaves, 5);
    const dl_pq_schema_node *l = s->leaves[2];
    CHECK(l->max_def_level == 5 && l->max_rep_level == 2);
    const dl_pq_schema_node *lg = l->parent->parent->parent->parent; /* l */
    CHECK(strcmp(lg->name, "l") == 0 && lg->logical.kind == DL_PQ_LT_LIST);
    CHECK(lg->element->converted_type == DL_PQ_CT_LIST);
    CHECK(strcmp(l->parent->name, "list") == 0 && l->parent->repetition == DL_PQ_REPEATED);
    const dl_pq_schema_node *k = s->leaves[3];
    CHECK(strcmp(k->parent->name, "key_value") == 0 && k->repetition == DL_PQ_REQUIRED);
    CHECK(k->parent->parent->logical.kind == DL_PQ_LT_MAP);
    CHECK(k->parent->repetition == DL_PQ_REPEATED && k->max_def_level == 2);
    const dl_pq_schema_node *x = s->leaves[4];
    CHECK(x->max_def_level == 4 && x->parent->repetition == DL_PQ_OPTIONAL);
    tw_file_free(&f);
    tw_store_free(&st);
    fixture_destroy(&fx);
}

TEST(test_field_ids_follow_the_depth_first_field_order) {
    fixture fx;
    CHECK(fixture_init(&fx));
    /* s, s.a, s.b, s.b.element, l, l.element, l.element.element, m, m.key, m.value,
     * m.value.x */
    CHECK_INT_EQ(dl_pq_write_field_count(fx.schema), 11);
    int32_t ids[11];
    for (int i = 0; i < 11; i++) {
        ids[i] = 1000 + i;
    }
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.field_ids = ids;
    o.n_field_ids = 11;
    tw_store st;
    CHECK(tw_store_new(&st));
    tw_file f;
    CHECK(write_fixture(&fx, &st, &o, &f));
    const dl_pq_schema *s = &f.footer->schema;
    CHECK(s->leaves[0]->element->field_id == 1001);                 /* s.a */
    CHECK(s->leaves[1]->element->field_id == 1003);                 /* s.b.element */
    CHECK(s->leaves[1]->parent->element->has_field_id == false);    /* list */
    CHECK(s->leaves[1]->parent->parent->element->field_id == 1002); /* b */
    CHECK(s->leaves[3]->element->field_id == 1008);                 /* m.key */
    CHECK(s->leaves[4]->element->field_id == 1010);                 /* m.value.x */
    CHECK(s->leaves[4]->parent->element->field_id == 1009);         /* m.value */
    tw_file_free(&f);
    tw_store_free(&st);
    fixture_destroy(&fx);
}

TEST(test_nested_result_marks_repeated_leaves) {
    fixture fx;
    CHECK(fixture_init(&fx));
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    dl_pq_write_result res;
    CHECK_OK(tw_write(st.store, "n.parquet", fx.schema, &fx.batch, 1, NULL, &arena, &res, &err),
             &err);
    CHECK(res.n_leaves == 5 && !res.leaves[0].is_repeated && res.leaves[1].is_repeated);
    CHECK(res.leaves[0].null_count == 2 && res.leaves[0].min.i64 == 1 &&
          res.leaves[0].max.i64 == 4);
    CHECK(res.leaves[1].n_field_path == 3 && strcmp(res.leaves[1].field_path[2], "element") == 0);
    CHECK(strcmp(res.leaves[4].path, "m.key_value.value.x") == 0);
    CHECK(strcmp(res.leaves[4].field_path[1], "value") == 0);
    CHECK(res.leaves[2].null_count == 5); /* 8 entries, 3 values */
    dl_arena_destroy(&arena);
    tw_store_free(&st);
    fixture_destroy(&fx);
}

/* A struct whose children are longer than one batch, sliced by selection across batches. */
TEST(test_nested_column_with_selection_and_many_rows) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    const dl_type *arr = NULL;
    const dl_type *schema = NULL;
    CHECK_OK(dl_vec_type_array(&arena, dl_vec_type_prim(DL_VEC_TYPE_LONG), false, &arr, &err),
             &err);
    dl_type_field fld = {"a", arr, false};
    CHECK_OK(dl_vec_type_struct(&arena, &fld, 1, &schema, &err), &err);
    dl_batch *b;
    CHECK_OK(dl_vec_batch_new(NULL, schema, 2048, &b, &err), &err);
    int64_t total = 0;
    for (int r = 0; r < 2000; r++) {
        for (int k = 0; k < r % 5; k++) {
            CHECK_OK(dl_vec_append_i64(b->cols[0]->children[0], r * 10 + k, &err), &err);
        }
        CHECK_OK(dl_vec_append_list(b->cols[0], &err), &err);
    }
    dl_vec_batch_set_count(b, 2000);
    uint32_t rows[1000];
    for (uint32_t i = 0; i < 1000; i++) {
        rows[i] = 2 * i + 1;
        total += (2 * i + 1) % 5;
    }
    CHECK_OK(dl_vec_batch_set_sel(b, rows, 1000, &err), &err);
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.page_rows = 128;
    o.row_group_rows = 300;
    CHECK_OK(tw_write(st.store, "a.parquet", schema, &b, 1, &o, NULL, NULL, &err), &err);
    tw_file f;
    CHECK_OK(tw_file_read(st.store, "a.parquet", &f, &err), &err);
    CHECK(f.footer->meta.n_row_groups == 4 && f.footer->meta.num_rows == 1000);
    const tw_col *c = &f.cols[0];
    CHECK(c->n_values == (size_t)total);
    size_t v = 0;
    size_t lvl = 0;
    for (uint32_t i = 0; i < 1000; i++) {
        uint32_t r = rows[i];
        if (r % 5 == 0) {
            CHECK(c->defs[lvl] == 0 && c->reps[lvl] == 0); /* empty list */
            lvl++;
            continue;
        }
        for (uint32_t k = 0; k < r % 5; k++) {
            CHECK(c->defs[lvl] == 1 && c->reps[lvl] == (k == 0 ? 0 : 1));
            CHECK(tw_i64(c, v) == (int64_t)(r * 10 + k));
            lvl++;
            v++;
        }
    }
    CHECK(lvl == c->n_levels);
    tw_file_free(&f);
    tw_store_free(&st);
    dl_vec_batch_free(b);
    dl_arena_destroy(&arena);
}

int
main(void) {
    RUN(test_nested_levels_follow_the_dremel_rules);
    RUN(test_nested_schema_uses_three_level_lists_and_key_value_maps);
    RUN(test_field_ids_follow_the_depth_first_field_order);
    RUN(test_nested_result_marks_repeated_leaves);
    RUN(test_nested_column_with_selection_and_many_rows);
    return harness_finish();
}
