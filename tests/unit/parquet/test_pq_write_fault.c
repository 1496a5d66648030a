/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Parquet writer's failures: bad options and schemas are refused at open, values the schema
 * forbids are refused with a message naming the column and row, and every store failure and
 * every allocation failure, at every point of a write, ends in a clean error with no file and
 * no temporary file left in the store and (for allocations) no memory left behind.
 */
#include <string.h>

#include "base/alloc.h"
#include "harness.h"
#include "parquet/pq_writer.h"
#include "store/store_fault.h"
#include "test_pq_write_util.h"

typedef struct fixture {
    dl_arena arena;
    const dl_type *schema; /* id long, name string, tags array<string> not null elements,
                              price decimal(5,2) */
    dl_batch *batch;
    tw_store st;
} fixture;

static dl_status
make_batch(fixture *fx, int64_t n, dl_error *err) {
    dl_arena *a = &fx->arena;
    const dl_type *tags = NULL;
    const dl_type *price = NULL;
    DL_TRY(dl_vec_type_array(a, dl_vec_type_prim(DL_VEC_TYPE_STRING), false, &tags, err));
    DL_TRY(dl_vec_type_decimal(a, 5, 2, &price, err));
    dl_type_field f[4] = {{"id", dl_vec_type_prim(DL_VEC_TYPE_LONG), false},
                          {"name", dl_vec_type_prim(DL_VEC_TYPE_STRING), true},
                          {"tags", tags, true},
                          {"price", price, true}};
    DL_TRY(dl_vec_type_struct(a, f, 4, &fx->schema, err));
    DL_TRY(dl_vec_batch_new(NULL, fx->schema, n, &fx->batch, err));
    dl_vector **c = fx->batch->cols;
    for (int64_t r = 0; r < n; r++) {
        char s[48];
        int len = snprintf(s, sizeof(s), "name-%lld-%s", (long long)(r % 50),
                           r % 3 ? "with a longer tail" : "x");
        DL_TRY(dl_vec_append_i64(c[0], r, err));
        DL_TRY(dl_vec_append_str(c[1], s, (size_t)len, err));
        for (int64_t k = 0; k < r % 3; k++) {
            DL_TRY(dl_vec_append_str(c[2]->children[0], s, (size_t)len, err));
        }
        DL_TRY(dl_vec_append_list(c[2], err));
        DL_TRY(dl_vec_append_i128(c[3], (dl_i128)(r % 99999), err));
    }
    dl_vec_batch_set_count(fx->batch, n);
    return DL_OK;
}

static bool
fixture_init(fixture *fx, int64_t n) {
    memset(fx, 0, sizeof(*fx));
    dl_arena_init(&fx->arena, NULL, 0);
    dl_error err;
    if (!tw_store_new(&fx->st) || make_batch(fx, n, &err) != DL_OK) {
        printf("  fixture: %s\n", err.msg);
        return false;
    }
    return true;
}

static void
fixture_destroy(fixture *fx) {
    dl_vec_batch_free(fx->batch);
    tw_store_free(&fx->st);
    dl_arena_destroy(&fx->arena);
}

/* ---- Refused at open ----------------------------------------------------------------------- */

static dl_status
open_with(fixture *fx, const dl_type *schema, const dl_pq_write_options *o, dl_error *err) {
    dl_pq_writer *w = NULL;
    dl_status s = dl_pq_writer_open(fx->st.store, "x.parquet", DL_STORE_PUT_OVERWRITE, schema, o,
                                    NULL, &w, err);
    if (s == DL_OK) {
        dl_pq_writer_abort(w);
    }
    return s;
}

TEST(test_bad_options_are_refused_at_open) {
    fixture fx;
    CHECK(fixture_init(&fx, 1));
    dl_error err;
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.codec = DL_PQ_CODEC_LZO;
    CHECK_STATUS(open_with(&fx, fx.schema, &o, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "LZO");
    dl_pq_write_options_init(&o);
    o.codec = DL_PQ_CODEC_ZSTD;
    o.codec_level = 99;
    CHECK_STATUS(open_with(&fx, fx.schema, &o, &err), DL_ERR_INVALID_ARG, &err);
    dl_pq_write_options_init(&o);
    o.page_version = 3;
    CHECK_STATUS(open_with(&fx, fx.schema, &o, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "page_version");
    dl_pq_write_options_init(&o);
    o.page_rows = 0;
    CHECK_STATUS(open_with(&fx, fx.schema, &o, &err), DL_ERR_INVALID_ARG, &err);
    dl_pq_write_options_init(&o);
    int32_t ids[2] = {1, 2};
    o.field_ids = ids;
    o.n_field_ids = 2;
    CHECK_STATUS(open_with(&fx, fx.schema, &o, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "2 field ids given for a schema of 5 fields");
    CHECK(tw_store_is_empty(&fx.st));
    fixture_destroy(&fx);
}

TEST(test_schemas_parquet_cannot_hold_are_refused) {
    fixture fx;
    CHECK(fixture_init(&fx, 1));
    dl_error err;
    const dl_type *empty = NULL;
    const dl_type *holder = NULL;
    CHECK_OK(dl_vec_type_struct(&fx.arena, NULL, 0, &empty, &err), &err);
    CHECK_STATUS(open_with(&fx, empty, NULL, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "no columns");
    dl_type_field f = {"e", empty, true};
    CHECK_OK(dl_vec_type_struct(&fx.arena, &f, 1, &holder, &err), &err);
    CHECK_STATUS(open_with(&fx, holder, NULL, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "struct column 'e' has no fields");
    CHECK_STATUS(open_with(&fx, dl_vec_type_prim(DL_VEC_TYPE_INT), NULL, &err), DL_ERR_INVALID_ARG,
                 &err);
    /* 300 nested arrays exceed the schema depth. */
    const dl_type *t = dl_vec_type_prim(DL_VEC_TYPE_INT);
    for (int i = 0; i < 300; i++) {
        CHECK_OK(dl_vec_type_array(&fx.arena, t, true, &t, &err), &err);
    }
    dl_type_field deep = {"deep", t, true};
    CHECK_OK(dl_vec_type_struct(&fx.arena, &deep, 1, &holder, &err), &err);
    CHECK_STATUS(open_with(&fx, holder, NULL, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "deeper than");
    CHECK(tw_store_is_empty(&fx.st));
    fixture_destroy(&fx);
}

/* ---- Refused values ------------------------------------------------------------------------ */

/* Writes fx's batch after change, expecting code; the file must be gone afterwards and the
 * writer refuse more work. */
static bool
write_fails(fixture *fx, dl_status code, const char *needle) {
    dl_error err;
    dl_pq_writer *w = NULL;
    if (dl_pq_writer_open(fx->st.store, "v.parquet", DL_STORE_PUT_OVERWRITE, fx->schema, NULL, NULL,
                          &w, &err) != DL_OK) {
        return false;
    }
    dl_status s = dl_pq_writer_write(w, fx->batch, &err);
    bool is_ok = s == code && strstr(err.msg, needle) != NULL &&
                 strstr(err.msg, "writing Parquet file 'v.parquet'") != NULL;
    if (!is_ok) {
        printf("  got %s: %s\n", dl_status_name(s), err.msg);
    }
    is_ok = is_ok && dl_pq_writer_write(w, fx->batch, &err) == DL_ERR_INVALID_ARG &&
            dl_pq_writer_flush(w, &err) == DL_ERR_INVALID_ARG;
    is_ok = is_ok && dl_pq_writer_close(w, NULL, NULL, &err) == DL_ERR_INVALID_ARG;
    return is_ok && tw_store_is_empty(&fx->st);
}

TEST(test_null_in_a_required_column_is_a_constraint_error) {
    fixture fx;
    CHECK(fixture_init(&fx, 10));
    dl_error err;
    CHECK_OK(dl_vec_set_null(fx.batch->cols[0], 6, &err), &err);
    CHECK(write_fails(&fx, DL_ERR_CONSTRAINT, "column 'id', row 6: 'id' is null"));
    fixture_destroy(&fx);
}

TEST(test_null_element_of_an_array_without_nulls_is_refused) {
    fixture fx;
    CHECK(fixture_init(&fx, 10));
    dl_error err;
    CHECK_OK(dl_vec_set_null(fx.batch->cols[2]->children[0], 1, &err), &err);
    CHECK(write_fails(&fx, DL_ERR_CONSTRAINT, "column 'tags.list.element', row 2"));
    fixture_destroy(&fx);
}

TEST(test_decimal_beyond_its_precision_is_refused) {
    fixture fx;
    CHECK(fixture_init(&fx, 10));
    ((dl_i128 *)fx.batch->cols[3]->data)[4] = 100000; /* decimal(5,2) holds |x| < 10^5 */
    CHECK(
        write_fails(&fx, DL_ERR_INVALID_ARG, "column 'price': a value does not fit decimal(5,2)"));
    fixture_destroy(&fx);
}

TEST(test_batch_of_another_schema_is_refused) {
    fixture fx;
    CHECK(fixture_init(&fx, 3));
    dl_error err;
    dl_type_field f = {"id", dl_vec_type_prim(DL_VEC_TYPE_LONG), false};
    const dl_type *other = NULL;
    CHECK_OK(dl_vec_type_struct(&fx.arena, &f, 1, &other, &err), &err);
    dl_pq_writer *w = NULL;
    CHECK_OK(dl_pq_writer_open(fx.st.store, "v.parquet", DL_STORE_PUT_OVERWRITE, other, NULL, NULL,
                               &w, &err),
             &err);
    CHECK_STATUS(dl_pq_writer_write(w, fx.batch, &err), DL_ERR_SCHEMA, &err);
    CHECK_ERR_CONTAINS(&err, "do not match the file's schema");
    dl_pq_writer_abort(w);
    CHECK(tw_store_is_empty(&fx.st));
    fixture_destroy(&fx);
}

TEST(test_put_if_absent_keeps_an_existing_file) {
    fixture fx;
    CHECK(fixture_init(&fx, 3));
    dl_error err;
    CHECK_OK(dl_store_write(fx.st.store, "p.parquet", "old", 3, &err), &err);
    dl_pq_writer *w = NULL;
    CHECK_OK(dl_pq_writer_open(fx.st.store, "p.parquet", DL_STORE_PUT_IF_ABSENT, fx.schema, NULL,
                               NULL, &w, &err),
             &err);
    CHECK_OK(dl_pq_writer_write(w, fx.batch, &err), &err);
    CHECK_STATUS(dl_pq_writer_close(w, NULL, NULL, &err), DL_ERR_EXISTS, &err);
    dl_buf b;
    dl_buf_init(&b, NULL);
    CHECK_OK(dl_store_read_all(fx.st.store, "p.parquet", &b, &err), &err);
    CHECK(b.len == 3 && memcmp(b.data, "old", 3) == 0);
    dl_buf_destroy(&b);
    fixture_destroy(&fx);
}

/* ---- Injected faults ------------------------------------------------------------------------ */

/* One full write through store with alloc; closes or aborts. */
static dl_status
write_once(fixture *fx, dl_store *store, const dl_allocator *alloc, dl_pool *pool, dl_arena *res_a,
           dl_error *err) {
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.page_rows = 40;
    o.row_group_rows = 90;
    o.dict_page_bytes = 200;
    o.pool = pool;
    dl_pq_writer *w = NULL;
    DL_TRY(dl_pq_writer_open(store, "f.parquet", DL_STORE_PUT_IF_ABSENT, fx->schema, &o, alloc, &w,
                             err));
    dl_status s = dl_pq_writer_write(w, fx->batch, err);
    if (s == DL_OK) {
        s = dl_pq_writer_flush(w, err);
    }
    if (s == DL_OK) {
        s = dl_pq_writer_write(w, fx->batch, err);
    }
    if (s != DL_OK) {
        dl_pq_writer_abort(w);
        return s;
    }
    dl_pq_write_result res;
    return dl_pq_writer_close(w, res_a, &res, err);
}

static void
store_faults(dl_pool *pool) {
    fixture fx;
    CHECK(fixture_init(&fx, 200));
    dl_error err;
    dl_store *fault = NULL;
    CHECK_OK(dl_store_fault_new(fx.st.store, NULL, &fault, &err), &err);
    dl_arena res;
    dl_arena_init(&res, NULL, 0);
    int64_t n_failed = 0;
    for (int64_t at = 1;; at++) {
        dl_store_fault_options fo = {.fail_at = at,
                                     .kind = at % 2 ? DL_STORE_FAULT_EIO : DL_STORE_FAULT_ENOSPC};
        dl_store_fault_arm(fault, &fo);
        dl_status s = write_once(&fx, fault, NULL, pool, &res, &err);
        if (dl_store_fault_n_failures(fault) == 0) {
            CHECK_OK(s, &err);
            break;
        }
        CHECK_STATUS(s, DL_ERR_IO, &err);
        CHECK(tw_store_is_empty(&fx.st));
        n_failed++;
        CHECK(at < 10000);
    }
    CHECK(n_failed > 5); /* open, several appends, commit */
    tw_file f;
    CHECK_OK(tw_file_read(fx.st.store, "f.parquet", &f, &err), &err);
    CHECK(f.footer->meta.num_rows == 400 && f.footer->meta.n_row_groups == 6);
    tw_file_free(&f);
    dl_arena_destroy(&res);
    dl_store_free(fault);
    fixture_destroy(&fx);
}

TEST(test_every_store_failure_leaves_no_file) {
    store_faults(NULL);
}

TEST(test_every_store_failure_leaves_no_file_with_a_pool) {
    dl_pool *pool = NULL;
    dl_error err;
    CHECK_OK(dl_pool_new(2, NULL, &pool, &err), &err);
    store_faults(pool);
    dl_pool_free(pool);
}

TEST(test_every_allocation_failure_is_clean) {
    fixture fx;
    CHECK(fixture_init(&fx, 200));
    dl_error err;
    int64_t n_failed = 0;
    for (int64_t at = 1;; at++) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, at, at % 3 == 0);
        dl_arena res;
        dl_arena_init(&res, &fa.base, 0);
        dl_status s = write_once(&fx, fx.st.store, &fa.base, NULL, &res, &err);
        dl_arena_destroy(&res);
        CHECK(fa.live_blocks == 0 && fa.live_bytes == 0);
        if (fa.n_failures == 0) {
            CHECK_OK(s, &err);
            break;
        }
        if (s != DL_ERR_NOMEM) {
            printf("  at %lld: %s %s\n", (long long)at, dl_status_name(s), err.msg);
        }
        CHECK_STATUS(s, DL_ERR_NOMEM, &err);
        CHECK(tw_store_is_empty(&fx.st));
        n_failed++;
        CHECK(at < 100000);
    }
    CHECK(n_failed > 50);
    fixture_destroy(&fx);
}

int
main(void) {
    RUN(test_bad_options_are_refused_at_open);
    RUN(test_schemas_parquet_cannot_hold_are_refused);
    RUN(test_null_in_a_required_column_is_a_constraint_error);
    RUN(test_null_element_of_an_array_without_nulls_is_refused);
    RUN(test_decimal_beyond_its_precision_is_refused);
    RUN(test_batch_of_another_schema_is_refused);
    RUN(test_put_if_absent_keeps_an_existing_file);
    RUN(test_every_store_failure_leaves_no_file);
    RUN(test_every_store_failure_leaves_no_file_with_a_pool);
    RUN(test_every_allocation_failure_is_clean);
    return harness_finish();
}
