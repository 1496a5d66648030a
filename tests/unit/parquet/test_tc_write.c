/* SPDX-License-Identifier: Apache-2.0 */
/* The Thrift compact-protocol writer: canonical encodings, table-driven structs, round trips
 * through the reader, deep equality, and failures. */
#include <math.h>
#include <stddef.h>

#include "base/base.h"
#include "harness.h"
#include "parquet/tc_proto.h"

typedef struct item {
    int64_t v;
    dl_str name;
    bool has_name;
} item;

typedef struct rec {
    bool flag;
    int8_t b;
    int16_t h;
    int32_t i;
    int64_t l;
    double d;
    dl_str bin;
    item one;
    item *items;
    size_t n_items;
    bool *bools;
    size_t n_bools;
    dl_str *strs;
    size_t n_strs;
    int64_t *longs;
    size_t n_longs;
    bool has_flag, has_b, has_h, has_l, has_d, has_bin, has_one, has_items, has_bools, has_strs;
} rec;

#define NO DL_TC_NO_OFFSET

static const dl_tc_field item_fields[] = {
    {.id = 1,
     .kind = DL_TC_K_I64,
     .is_required = true,
     .name = "v",
     .offset = offsetof(item, v),
     .count_offset = NO,
     .has_offset = NO},
    {.id = 2,
     .kind = DL_TC_K_BINARY,
     .name = "name",
     .offset = offsetof(item, name),
     .count_offset = NO,
     .has_offset = offsetof(item, has_name)},
};
static const dl_tc_struct item_desc = {
    .name = "Item", .size = sizeof(item), .fields = item_fields, .n_fields = 2, .union_offset = NO};

#define OPT_FIELD(fid, k, m)                                                                  \
    {                                                                                         \
        .id = (fid), .kind = (k), .name = #m, .offset = offsetof(rec, m), .count_offset = NO, \
        .has_offset = offsetof(rec, has_##m)                                                  \
    }
#define LIST_FIELD(fid, ek, m, has, sb)                                                        \
    {                                                                                          \
        .id = (fid), .kind = DL_TC_K_LIST, .elem_kind = (ek), .name = #m,                      \
        .offset = offsetof(rec, m), .count_offset = offsetof(rec, n_##m), .has_offset = (has), \
        .sub = (sb)                                                                            \
    }

static const dl_tc_field rec_fields[] = {
    OPT_FIELD(1, DL_TC_K_BOOL, flag),
    OPT_FIELD(2, DL_TC_K_I8, b),
    OPT_FIELD(3, DL_TC_K_I16, h),
    {.id = 4,
     .kind = DL_TC_K_I32,
     .is_required = true,
     .name = "i",
     .offset = offsetof(rec, i),
     .count_offset = NO,
     .has_offset = NO},
    OPT_FIELD(5, DL_TC_K_I64, l),
    OPT_FIELD(6, DL_TC_K_DOUBLE, d),
    OPT_FIELD(7, DL_TC_K_BINARY, bin),
    {.id = 8,
     .kind = DL_TC_K_STRUCT,
     .name = "one",
     .offset = offsetof(rec, one),
     .count_offset = NO,
     .has_offset = offsetof(rec, has_one),
     .sub = &item_desc},
    LIST_FIELD(9, DL_TC_K_STRUCT, items, offsetof(rec, has_items), &item_desc),
    LIST_FIELD(30, DL_TC_K_BOOL, bools, offsetof(rec, has_bools), NULL),
    LIST_FIELD(31, DL_TC_K_BINARY, strs, offsetof(rec, has_strs), NULL),
    LIST_FIELD(32, DL_TC_K_I64, longs, NO, NULL),
};
static const dl_tc_struct rec_desc = {
    .name = "Rec", .size = sizeof(rec), .fields = rec_fields, .n_fields = 12, .union_offset = NO};

static dl_arena arena;

static bool
bytes_are(const dl_buf *b, const uint8_t *want, size_t n) {
    return b->len == n && memcmp(b->data, want, n) == 0;
}

TEST(test_varints_are_shortest_form) {
    static const struct {
        uint64_t v;
        uint8_t bytes[10];
        size_t len;
    } cases[] = {
        {0, {0x00}, 1},
        {127, {0x7f}, 1},
        {128, {0x80, 0x01}, 2},
        {300, {0xac, 0x02}, 2},
        {UINT64_MAX, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 10},
    };

    dl_error err;
    for (size_t i = 0; i < DL_ARRAY_LEN(cases); i++) {
        dl_buf out;
        dl_buf_init(&out, NULL);
        dl_tc_writer w;
        dl_tc_writer_init(&w, &out);
        CHECK_OK(dl_tc_write_varint(&w, cases[i].v, &err), &err);
        bool ok = bytes_are(&out, cases[i].bytes, cases[i].len);
        dl_buf_destroy(&out);
        CHECK(ok);
    }
}

TEST(test_zigzag_integers_round_trip) {
    static const int64_t values[] = {0,  -1,        1,         -2,        63,       -64,
                                     64, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN};
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    dl_tc_writer w;
    dl_tc_writer_init(&w, &out);
    for (size_t i = 0; i < DL_ARRAY_LEN(values); i++) {
        CHECK_OK(dl_tc_write_i64(&w, values[i], &err), &err);
        if (values[i] >= INT32_MIN && values[i] <= INT32_MAX) {
            CHECK_OK(dl_tc_write_i32(&w, (int32_t)values[i], &err), &err);
        }
    }
    CHECK_OK(dl_tc_write_i16(&w, INT16_MIN, &err), &err);
    CHECK(out.data[0] == 0x00 && out.data[2] == 0x01 && out.data[4] == 0x02);
    dl_tc_reader r;
    dl_tc_reader_init(&r, out.data, out.len, 0, &arena, "T");
    for (size_t i = 0; i < DL_ARRAY_LEN(values); i++) {
        int64_t l = 0;
        CHECK_OK(dl_tc_read_i64(&r, &l, &err), &err);
        CHECK(l == values[i]);
        bool is_i32 = values[i] >= INT32_MIN && values[i] <= INT32_MAX;
        int32_t v = 0;
        CHECK(!is_i32 || (dl_tc_read_i32(&r, &v, &err) == DL_OK && v == values[i]));
    }
    int16_t h = 0;
    CHECK_OK(dl_tc_read_i16(&r, &h, &err), &err);
    CHECK_INT_EQ(h, INT16_MIN);
    CHECK_INT_EQ(r.pos, out.len);
    dl_buf_destroy(&out);
}

TEST(test_field_headers_use_short_form_for_small_forward_deltas) {
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    dl_tc_writer w;
    dl_tc_writer_init(&w, &out);
    CHECK_OK(dl_tc_write_struct_begin(&w, &err), &err);
    CHECK_OK(dl_tc_write_field_header(&w, DL_TC_I32, 1, &err), &err);  /* 0x15 */
    CHECK_OK(dl_tc_write_field_header(&w, DL_TC_I32, 16, &err), &err); /* 0xf5 */
    CHECK_OK(dl_tc_write_field_header(&w, DL_TC_I32, 32, &err), &err); /* 0x05 0x40 */
    CHECK_OK(dl_tc_write_field_header(&w, DL_TC_I32, 2, &err), &err);  /* 0x05 0x04 */
    CHECK_OK(dl_tc_write_bool_field(&w, 3, false, &err), &err);        /* 0x12 */
    CHECK_OK(dl_tc_write_field_header(&w, DL_TC_I64, -1, &err), &err); /* 0x06 0x01 */
    CHECK_OK(dl_tc_write_struct_end(&w, &err), &err);
    static const uint8_t want[] = {0x15, 0xf5, 0x05, 0x40, 0x05, 0x04, 0x12, 0x06, 0x01, 0x00};
    bool ok = bytes_are(&out, want, sizeof(want));
    dl_buf_destroy(&out);
    CHECK(ok);
}

TEST(test_list_and_map_headers) {
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    dl_tc_writer w;
    dl_tc_writer_init(&w, &out);
    CHECK_OK(dl_tc_write_list_header(&w, DL_TC_I32, 14, &err), &err);
    CHECK_OK(dl_tc_write_list_header(&w, DL_TC_STRUCT, 15, &err), &err);
    CHECK_OK(dl_tc_write_list_header(&w, DL_TC_BINARY, 300, &err), &err);
    CHECK_OK(dl_tc_write_map_header(&w, DL_TC_BINARY, DL_TC_I32, 0, &err), &err);
    CHECK_OK(dl_tc_write_map_header(&w, DL_TC_BINARY, DL_TC_I32, 2, &err), &err);
    CHECK_OK(dl_tc_write_bool_elem(&w, true, &err), &err);
    CHECK_OK(dl_tc_write_bool_elem(&w, false, &err), &err);
    static const uint8_t want[] = {0xe5, 0xfc, 0x0f, 0xf8, 0xac, 0x02,
                                   0x00, 0x02, 0x85, 0x01, 0x02};
    bool ok = bytes_are(&out, want, sizeof(want));
    dl_buf_destroy(&out);
    CHECK(ok);
}

static void
fill_rec(rec *r, item *items, bool *bools, dl_str *strs, int64_t *longs) {
    memset(r, 0, sizeof(*r));
    r->flag = true;
    r->b = -128;
    r->h = -12345;
    r->i = INT32_MIN;
    r->l = INT64_MAX;
    r->d = -0.0;
    r->bin = dl_str_make("\0\xff\x01", 3);
    r->one.v = 5;
    for (int k = 0; k < 20; k++) {
        items[k].v = k * 1000003LL;
        items[k].has_name = k % 2 == 0;
        items[k].name = DL_STR("item");
        bools[k] = k % 3 == 0;
        longs[k] = -k;
    }
    strs[0] = DL_STR("");
    strs[1] = DL_STR("two");
    r->items = items;
    r->n_items = 20;
    r->bools = bools;
    r->n_bools = 20;
    r->strs = strs;
    r->n_strs = 2;
    r->longs = longs;
    r->n_longs = 20;
    r->has_flag = r->has_b = r->has_h = r->has_l = r->has_d = r->has_bin = r->has_one = true;
    r->has_items = r->has_bools = r->has_strs = true;
}

TEST(test_structs_round_trip_and_encode_canonically) {
    item items[20];
    bool bools[20];
    dl_str strs[2];
    int64_t longs[20];
    rec a;
    fill_rec(&a, items, bools, strs, longs);
    dl_buf first;
    dl_buf second;
    dl_error err;
    dl_buf_init(&first, NULL);
    dl_buf_init(&second, NULL);
    dl_tc_writer w;
    dl_tc_writer_init(&w, &first);
    CHECK_OK(dl_tc_write_struct(&w, &rec_desc, &a, &err), &err);
    rec b;
    CHECK_OK(dl_tc_decode(&rec_desc, first.data, first.len, 0, &arena, &b, NULL, NULL, &err), &err);
    CHECK(dl_tc_struct_equal(&rec_desc, &a, &b));
    CHECK(b.d == 0.0 && signbit(b.d));
    dl_tc_writer_init(&w, &second);
    CHECK_OK(dl_tc_write_struct(&w, &rec_desc, &b, &err), &err);
    bool same = first.len == second.len && memcmp(first.data, second.data, first.len) == 0;
    dl_buf_destroy(&first);
    dl_buf_destroy(&second);
    CHECK(same);
}

TEST(test_absent_optional_fields_are_not_written) {
    rec a;
    memset(&a, 0, sizeof(a));
    a.i = 1;
    a.l = 99; /* has_l is false: not written */
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    dl_tc_writer w;
    dl_tc_writer_init(&w, &out);
    CHECK_OK(dl_tc_write_struct(&w, &rec_desc, &a, &err), &err);
    /* i = 1, then longs (always written, empty: long form id 32), stop */
    static const uint8_t want[] = {0x45, 0x02, 0x09, 0x40, 0x06, 0x00};
    bool ok = bytes_are(&out, want, sizeof(want));
    dl_buf_destroy(&out);
    CHECK(ok);
}

TEST(test_equality_sees_every_difference) {
    item items[20];
    bool bools[20];
    dl_str strs[2];
    int64_t longs[20];
    item items2[20];
    bool bools2[20];
    dl_str strs2[2];
    int64_t longs2[20];
    rec a;
    rec b;
    fill_rec(&a, items, bools, strs, longs);
    fill_rec(&b, items2, bools2, strs2, longs2);
    CHECK(dl_tc_struct_equal(&rec_desc, &a, &b));
    b.d = 0.0; /* -0.0 vs +0.0: compared bit for bit */
    CHECK(!dl_tc_struct_equal(&rec_desc, &a, &b));
    b.d = a.d;
    b.has_l = false;
    CHECK(!dl_tc_struct_equal(&rec_desc, &a, &b));
    a.has_l = false;
    a.l = 1; /* absent fields' values are not compared */
    CHECK(dl_tc_struct_equal(&rec_desc, &a, &b));
    items2[7].v++;
    CHECK(!dl_tc_struct_equal(&rec_desc, &a, &b));
    items2[7].v--;
    strs2[1] = DL_STR("tw0");
    CHECK(!dl_tc_struct_equal(&rec_desc, &a, &b));
    strs2[1] = DL_STR("two");
    b.n_bools--;
    CHECK(!dl_tc_struct_equal(&rec_desc, &a, &b));
    b.n_bools++;
    bools2[3] = !bools2[3];
    CHECK(!dl_tc_struct_equal(&rec_desc, &a, &b));
}

TEST(test_oversized_values_are_invalid_arguments) {
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    dl_tc_writer w;
    dl_tc_writer_init(&w, &out);
    dl_str huge = {.ptr = NULL, .len = (size_t)INT32_MAX + 1};
    CHECK_STATUS(dl_tc_write_binary(&w, huge, &err), DL_ERR_INVALID_ARG, &err);
    CHECK_ERR_CONTAINS(&err, "exceeds the int32 length limit");
    CHECK_STATUS(dl_tc_write_list_header(&w, DL_TC_I32, (size_t)INT32_MAX + 1, &err),
                 DL_ERR_INVALID_ARG, &err);
    CHECK_STATUS(dl_tc_write_struct_end(&w, &err), DL_ERR_INTERNAL, &err);
    CHECK_INT_EQ(out.len, 0);
    dl_buf_destroy(&out);
}

TEST(test_out_of_memory_while_writing_is_nomem_without_leaks) {
    item items[20];
    bool bools[20];
    dl_str strs[2];
    int64_t longs[20];
    rec a;
    fill_rec(&a, items, bools, strs, longs);
    for (int64_t fail_at = 1; fail_at < 20; fail_at++) {
        dl_fault_allocator fa;
        dl_fault_allocator_init(&fa, fail_at, true);
        dl_buf out;
        dl_error err;
        dl_buf_init(&out, &fa.base);
        dl_tc_writer w;
        dl_tc_writer_init(&w, &out);
        dl_status s = dl_tc_write_struct(&w, &rec_desc, &a, &err);
        dl_buf_destroy(&out);
        CHECK(s == DL_OK || s == DL_ERR_NOMEM);
        CHECK_INT_EQ(fa.live_blocks, 0);
        if (s == DL_OK) {
            break;
        }
    }
}

int
main(void) {
    dl_arena_init(&arena, NULL, 0);
    RUN(test_varints_are_shortest_form);
    RUN(test_zigzag_integers_round_trip);
    RUN(test_field_headers_use_short_form_for_small_forward_deltas);
    RUN(test_list_and_map_headers);
    RUN(test_structs_round_trip_and_encode_canonically);
    RUN(test_absent_optional_fields_are_not_written);
    RUN(test_equality_sees_every_difference);
    RUN(test_oversized_values_are_invalid_arguments);
    RUN(test_out_of_memory_while_writing_is_nomem_without_leaks);
    dl_arena_destroy(&arena);
    return harness_finish();
}
