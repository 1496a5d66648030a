/* SPDX-License-Identifier: Apache-2.0 */
/* The hardened Thrift compact-protocol reader: primitives, bounds, skipping, table-driven
 * structs and the path in error messages. */
#include <math.h>
#include <stddef.h>

#include "base/base.h"
#include "harness.h"
#include "parquet/tc_proto.h"

/* ---- A test struct covering every field kind --------------------------------------------- */

typedef struct inner {
    int32_t a;
    dl_str s;
    bool has_s;
} inner;

typedef struct outer {
    bool flag;
    int8_t b;
    int16_t h;
    int32_t i;
    int64_t l;
    double d;
    dl_str bin;
    inner in;
    int32_t *ints;
    size_t n_ints;
    inner *items;
    size_t n_items;
    bool *bools;
    size_t n_bools;
    bool has_flag, has_b, has_h, has_l, has_d, has_bin, has_in, has_items, has_bools;
} outer;

#define NO DL_TC_NO_OFFSET

static const dl_tc_field inner_fields[] = {
    {.id = 1,
     .kind = DL_TC_K_I32,
     .is_required = true,
     .name = "a",
     .offset = offsetof(inner, a),
     .count_offset = NO,
     .has_offset = NO},
    {.id = 2,
     .kind = DL_TC_K_BINARY,
     .name = "s",
     .offset = offsetof(inner, s),
     .count_offset = NO,
     .has_offset = offsetof(inner, has_s)},
};
static const dl_tc_struct inner_desc = {.name = "Inner",
                                        .size = sizeof(inner),
                                        .fields = inner_fields,
                                        .n_fields = 2,
                                        .union_offset = NO};

#define OPT_FIELD(fid, k, m)                                                                    \
    {                                                                                           \
        .id = (fid), .kind = (k), .name = #m, .offset = offsetof(outer, m), .count_offset = NO, \
        .has_offset = offsetof(outer, has_##m)                                                  \
    }

static const dl_tc_field outer_fields[] = {
    OPT_FIELD(1, DL_TC_K_BOOL, flag),
    OPT_FIELD(2, DL_TC_K_I8, b),
    OPT_FIELD(3, DL_TC_K_I16, h),
    {.id = 4,
     .kind = DL_TC_K_I32,
     .is_required = true,
     .name = "i",
     .offset = offsetof(outer, i),
     .count_offset = NO,
     .has_offset = NO},
    OPT_FIELD(5, DL_TC_K_I64, l),
    OPT_FIELD(6, DL_TC_K_DOUBLE, d),
    OPT_FIELD(7, DL_TC_K_BINARY, bin),
    {.id = 8,
     .kind = DL_TC_K_STRUCT,
     .name = "in",
     .offset = offsetof(outer, in),
     .count_offset = NO,
     .has_offset = offsetof(outer, has_in),
     .sub = &inner_desc},
    {.id = 9,
     .kind = DL_TC_K_LIST,
     .elem_kind = DL_TC_K_I32,
     .is_required = true,
     .name = "ints",
     .offset = offsetof(outer, ints),
     .count_offset = offsetof(outer, n_ints),
     .has_offset = NO},
    {.id = 10,
     .kind = DL_TC_K_LIST,
     .elem_kind = DL_TC_K_STRUCT,
     .name = "items",
     .offset = offsetof(outer, items),
     .count_offset = offsetof(outer, n_items),
     .has_offset = offsetof(outer, has_items),
     .sub = &inner_desc},
    {.id = 40,
     .kind = DL_TC_K_LIST,
     .elem_kind = DL_TC_K_BOOL,
     .name = "bools",
     .offset = offsetof(outer, bools),
     .count_offset = offsetof(outer, n_bools),
     .has_offset = offsetof(outer, has_bools)},
};
static const dl_tc_struct outer_desc = {.name = "Outer",
                                        .size = sizeof(outer),
                                        .fields = outer_fields,
                                        .n_fields = 11,
                                        .union_offset = NO};

/* A union: tag is the id of the member set. */
typedef struct choice {
    int32_t tag;
    inner x;
} choice;

static const dl_tc_field choice_fields[] = {
    {.id = 1,
     .kind = DL_TC_K_PRESENCE,
     .name = "EMPTY",
     .offset = NO,
     .count_offset = NO,
     .has_offset = NO},
    {.id = 2,
     .kind = DL_TC_K_STRUCT,
     .name = "X",
     .offset = offsetof(choice, x),
     .count_offset = NO,
     .has_offset = NO,
     .sub = &inner_desc},
};
static const dl_tc_struct choice_desc = {.name = "Choice",
                                         .size = sizeof(choice),
                                         .fields = choice_fields,
                                         .n_fields = 2,
                                         .union_offset = offsetof(choice, tag)};

/* ---- Helpers ---------------------------------------------------------------------------- */

static dl_arena arena;

static void
reader(dl_tc_reader *r, const uint8_t *data, size_t len) {
    dl_tc_reader_init(r, data, len, 0, &arena, "T");
}

static dl_status
decode(const dl_tc_struct *desc, const uint8_t *data, size_t len, void *out, dl_error *err) {
    return dl_tc_decode(desc, data, len, 0, &arena, out, NULL, NULL, err);
}

/* ---- Primitives ------------------------------------------------------------------------- */

TEST(test_varint_decodes_one_to_ten_bytes) {
    static const struct {
        uint8_t bytes[10];
        size_t len;
        uint64_t value;
    } cases[] = {
        {{0x00}, 1, 0},
        {{0x7f}, 1, 127},
        {{0x80, 0x01}, 2, 128},
        {{0xac, 0x02}, 2, 300},
        {{0xff, 0xff, 0xff, 0xff, 0x0f}, 5, 0xffffffffu},
        {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 10, UINT64_MAX},
        {{0x80, 0x80, 0x00}, 3, 0}, /* overlong but valid */
    };

    dl_error err;
    for (size_t i = 0; i < DL_ARRAY_LEN(cases); i++) {
        dl_tc_reader r;
        reader(&r, cases[i].bytes, cases[i].len);
        uint64_t v = 1;
        CHECK_OK(dl_tc_read_varint(&r, &v, &err), &err);
        CHECK(v == cases[i].value);
        CHECK_INT_EQ(r.pos, cases[i].len);
    }
}

TEST(test_varint_longer_than_ten_bytes_is_corrupt) {
    uint8_t bytes[12];
    memset(bytes, 0x80, sizeof(bytes));
    dl_tc_reader r;
    dl_error err;
    reader(&r, bytes, sizeof(bytes));
    uint64_t v = 0;
    CHECK_STATUS(dl_tc_read_varint(&r, &v, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "T at byte 0: varint longer than 10 bytes");
    CHECK_INT_EQ(err.offset, 0);
    CHECK(!r.is_truncated);
}

TEST(test_varint_overflowing_64_bits_is_corrupt) {
    uint8_t bytes[10] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
    dl_tc_reader r;
    dl_error err;
    reader(&r, bytes, sizeof(bytes));
    uint64_t v = 0;
    CHECK_STATUS(dl_tc_read_varint(&r, &v, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "varint overflows 64 bits");
}

TEST(test_varint_cut_short_is_truncated) {
    uint8_t bytes[] = {0x80, 0x80};
    dl_tc_reader r;
    dl_error err;
    reader(&r, bytes, sizeof(bytes));
    uint64_t v = 0;
    CHECK_STATUS(dl_tc_read_varint(&r, &v, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "input ends inside a varint");
    CHECK(r.is_truncated);
    CHECK_INT_EQ(r.pos, 0);
}

TEST(test_zigzag_integers_decode) {
    /* zigzag: 0 -> 0, -1 -> 1, 1 -> 2, -2 -> 3; INT32_MIN -> 0xffffffff */
    uint8_t bytes[] = {0x00, 0x01, 0x02, 0x03, 0xff, 0xff, 0xff, 0xff,
                       0x0f, 0xfe, 0xff, 0x03, 0xff, 0xff, 0x03};
    dl_tc_reader r;
    dl_error err;
    reader(&r, bytes, sizeof(bytes));
    int32_t v = 9;
    int64_t l = 9;
    int16_t h = 9;
    CHECK_OK(dl_tc_read_i32(&r, &v, &err), &err);
    CHECK_INT_EQ(v, 0);
    CHECK_OK(dl_tc_read_i32(&r, &v, &err), &err);
    CHECK_INT_EQ(v, -1);
    CHECK_OK(dl_tc_read_i64(&r, &l, &err), &err);
    CHECK_INT_EQ(l, 1);
    CHECK_OK(dl_tc_read_i64(&r, &l, &err), &err);
    CHECK_INT_EQ(l, -2);
    CHECK_OK(dl_tc_read_i32(&r, &v, &err), &err);
    CHECK_INT_EQ(v, INT32_MIN);
    CHECK_OK(dl_tc_read_i16(&r, &h, &err), &err);
    CHECK_INT_EQ(h, INT16_MAX);
    CHECK_OK(dl_tc_read_i16(&r, &h, &err), &err);
    CHECK_INT_EQ(h, INT16_MIN);
}

TEST(test_i32_and_i16_out_of_range_are_corrupt) {
    uint8_t big[] = {0x80, 0x80, 0x80, 0x80, 0x20}; /* 2^33 */
    dl_tc_reader r;
    dl_error err;
    reader(&r, big, sizeof(big));
    int32_t v = 0;
    CHECK_STATUS(dl_tc_read_i32(&r, &v, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "i32 value out of range");
    CHECK_INT_EQ(r.pos, 0);
    uint8_t mid[] = {0x80, 0x80, 0x04}; /* 65536 */
    reader(&r, mid, sizeof(mid));
    int16_t h = 0;
    CHECK_STATUS(dl_tc_read_i16(&r, &h, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "i16 value out of range");
}

TEST(test_double_is_little_endian) {
    uint8_t bytes[] = {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x3f}; /* 1.5 */
    dl_tc_reader r;
    dl_error err;
    reader(&r, bytes, sizeof(bytes));
    double d = 0;
    CHECK_OK(dl_tc_read_double(&r, &d, &err), &err);
    CHECK(d == 1.5);
    reader(&r, bytes, 7);
    CHECK_STATUS(dl_tc_read_double(&r, &d, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "a double needs 8 bytes but only 7 are left");
}

TEST(test_binary_longer_than_the_input_is_corrupt) {
    uint8_t ok[] = {0x03, 'a', 'b', 'c'};
    uint8_t bad[] = {0x05, 'a', 'b'};
    dl_tc_reader r;
    dl_error err;
    dl_str s;
    reader(&r, ok, sizeof(ok));
    CHECK_OK(dl_tc_read_binary(&r, &s, &err), &err);
    CHECK(dl_str_eq_cstr(s, "abc"));
    reader(&r, bad, sizeof(bad));
    CHECK_STATUS(dl_tc_read_binary(&r, &s, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "binary length 5 exceeds the 2 bytes left");
    CHECK(r.is_truncated);
}

TEST(test_field_headers_short_and_long_form) {
    /* delta 1 i32; long form (type i64, id zigzag(300)); delta 2 bool true; stop */
    uint8_t bytes[] = {0x15, 0x06, 0xd8, 0x04, 0x21, 0x00};
    dl_tc_reader r;
    dl_error err;
    reader(&r, bytes, sizeof(bytes));
    int16_t last = 0;
    uint8_t type = 0;
    int16_t id = 0;
    CHECK_OK(dl_tc_read_field_header(&r, &last, &type, &id, &err), &err);
    CHECK(type == DL_TC_I32 && id == 1);
    CHECK_OK(dl_tc_read_field_header(&r, &last, &type, &id, &err), &err);
    CHECK(type == DL_TC_I64 && id == 300);
    CHECK_OK(dl_tc_read_field_header(&r, &last, &type, &id, &err), &err);
    CHECK(type == DL_TC_TRUE && id == 302);
    CHECK_OK(dl_tc_read_field_header(&r, &last, &type, &id, &err), &err);
    CHECK(type == DL_TC_STOP);
}

TEST(test_invalid_field_headers_are_corrupt) {
    uint8_t bad_type[] = {0x1e};
    uint8_t stop_with_delta[] = {0x10};
    dl_tc_reader r;
    dl_error err;
    int16_t last = 0;
    uint8_t type = 0;
    int16_t id = 0;
    reader(&r, bad_type, 1);
    CHECK_STATUS(dl_tc_read_field_header(&r, &last, &type, &id, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "invalid field type 14");
    reader(&r, stop_with_delta, 1);
    CHECK_STATUS(dl_tc_read_field_header(&r, &last, &type, &id, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "invalid field header 0x10");
    uint8_t overflow[] = {0xf5};
    last = INT16_MAX - 3;
    reader(&r, overflow, 1);
    CHECK_STATUS(dl_tc_read_field_header(&r, &last, &type, &id, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "out of range");
}

TEST(test_list_headers_short_and_long_form) {
    uint8_t shortl[] = {0x35, 0, 0, 0};
    uint8_t longl[20] = {0xf8, 0x0f};
    dl_tc_reader r;
    dl_error err;
    uint8_t et = 0;
    uint32_t n = 0;
    reader(&r, shortl, sizeof(shortl));
    CHECK_OK(dl_tc_read_list_header(&r, &et, &n, &err), &err);
    CHECK(et == DL_TC_I32 && n == 3);
    reader(&r, longl, sizeof(longl));
    CHECK_OK(dl_tc_read_list_header(&r, &et, &n, &err), &err);
    CHECK(et == DL_TC_BINARY && n == 15);
}

TEST(test_list_claiming_2_31_elements_in_10_bytes_is_corrupt) {
    uint8_t huge[10] = {0xf5, 0x80, 0x80, 0x80, 0x80, 0x08}; /* 2^31 */
    uint8_t big[10] = {0xf5, 0xff, 0xff, 0xff, 0xff, 0x07};  /* 2^31 - 1 */
    dl_tc_reader r;
    dl_error err;
    uint8_t et = 0;
    uint32_t n = 0;
    size_t before = arena.bytes_allocated;
    reader(&r, huge, sizeof(huge));
    CHECK_STATUS(dl_tc_read_list_header(&r, &et, &n, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "list size 2147483648 exceeds the Thrift limit");
    reader(&r, big, sizeof(big));
    CHECK_STATUS(dl_tc_read_list_header(&r, &et, &n, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "list of 2147483647 elements cannot fit in the 4 bytes left");
    /* Through the struct decoder too: nothing is allocated for the claim. */
    uint8_t in_struct[] = {0x45, 0x02, 0x59, 0xf5, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00};
    outer o;
    CHECK_STATUS(decode(&outer_desc, in_struct, sizeof(in_struct), &o, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "Outer.ints at byte 3: list of 2147483647 elements cannot fit");
    CHECK(arena.bytes_allocated == before);
}

TEST(test_map_headers) {
    uint8_t empty[] = {0x00};
    uint8_t two[] = {0x02, 0x85, 0, 0, 0, 0};
    uint8_t too_many[] = {0x10, 0x85, 0, 0, 0, 0};
    uint8_t bad_types[] = {0x01, 0xe5, 0, 0};
    dl_tc_reader r;
    dl_error err;
    uint8_t kt = 9;
    uint8_t vt = 9;
    uint32_t n = 9;
    reader(&r, empty, 1);
    CHECK_OK(dl_tc_read_map_header(&r, &kt, &vt, &n, &err), &err);
    CHECK(n == 0 && kt == 0 && vt == 0);
    reader(&r, two, sizeof(two));
    CHECK_OK(dl_tc_read_map_header(&r, &kt, &vt, &n, &err), &err);
    CHECK(n == 2 && kt == DL_TC_BINARY && vt == DL_TC_I32);
    reader(&r, too_many, sizeof(too_many));
    CHECK_STATUS(dl_tc_read_map_header(&r, &kt, &vt, &n, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "map of 16 elements cannot fit");
    reader(&r, bad_types, sizeof(bad_types));
    CHECK_STATUS(dl_tc_read_map_header(&r, &kt, &vt, &n, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "invalid map types 0xe5");
}

/* ---- Skipping and structs --------------------------------------------------------------- */

/* Writes a struct with unknown fields of every type, then i = 7 and ints = [5]. */
static dl_status
write_unknowns(dl_buf *out, dl_error *err) {
    dl_tc_writer w;
    dl_tc_writer_init(&w, out);
    DL_TRY(dl_tc_write_struct_begin(&w, err));
    DL_TRY(dl_tc_write_bool_field(&w, 100, true, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_I8, 101, err));
    DL_TRY(dl_tc_write_byte(&w, 0x7f, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_I16, 102, err));
    DL_TRY(dl_tc_write_i16(&w, -300, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_I32, 103, err));
    DL_TRY(dl_tc_write_i32(&w, 1 << 30, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_I64, 104, err));
    DL_TRY(dl_tc_write_i64(&w, INT64_MIN, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_DOUBLE, 105, err));
    DL_TRY(dl_tc_write_double(&w, 2.5, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_BINARY, 106, err));
    DL_TRY(dl_tc_write_binary(&w, DL_STR("skip me"), err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_LIST, 107, err)); /* list<list<i32>> */
    DL_TRY(dl_tc_write_list_header(&w, DL_TC_LIST, 2, err));
    for (int k = 0; k < 2; k++) {
        DL_TRY(dl_tc_write_list_header(&w, DL_TC_I32, 20, err));
        for (int j = 0; j < 20; j++) {
            DL_TRY(dl_tc_write_i32(&w, j, err));
        }
    }
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_SET, 108, err)); /* set<bool> */
    DL_TRY(dl_tc_write_list_header(&w, DL_TC_TRUE, 3, err));
    DL_TRY(dl_tc_write_bool_elem(&w, true, err));
    DL_TRY(dl_tc_write_bool_elem(&w, false, err));
    DL_TRY(dl_tc_write_byte(&w, 0, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_MAP, 109, err)); /* map<binary, struct> */
    DL_TRY(dl_tc_write_map_header(&w, DL_TC_BINARY, DL_TC_STRUCT, 1, err));
    DL_TRY(dl_tc_write_binary(&w, DL_STR("k"), err));
    DL_TRY(dl_tc_write_struct_begin(&w, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_DOUBLE, 1, err));
    DL_TRY(dl_tc_write_double(&w, 1.0, err));
    DL_TRY(dl_tc_write_struct_end(&w, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_MAP, 110, err)); /* empty map */
    DL_TRY(dl_tc_write_map_header(&w, 0, 0, 0, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_UUID, 111, err));
    DL_TRY(dl_buf_append(out, "0123456789abcdef", 16, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_STRUCT, 112, err)); /* nested structs */
    DL_TRY(dl_tc_write_struct_begin(&w, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_STRUCT, 1, err));
    DL_TRY(dl_tc_write_struct_begin(&w, err));
    DL_TRY(dl_tc_write_bool_field(&w, 3, false, err));
    DL_TRY(dl_tc_write_struct_end(&w, err));
    DL_TRY(dl_tc_write_struct_end(&w, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_I32, 4, err)); /* a known field, long form */
    DL_TRY(dl_tc_write_i32(&w, 7, err));
    DL_TRY(dl_tc_write_field_header(&w, DL_TC_LIST, 9, err));
    DL_TRY(dl_tc_write_list_header(&w, DL_TC_I32, 1, err));
    DL_TRY(dl_tc_write_i32(&w, 5, err));
    return dl_tc_write_struct_end(&w, err);
}

TEST(test_unknown_fields_of_every_type_are_skipped) {
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    CHECK_OK(write_unknowns(&out, &err), &err);
    outer o;
    size_t used = 0;
    dl_status s = dl_tc_decode(&outer_desc, out.data, out.len, 0, &arena, &o, &used, NULL, &err);
    size_t len = out.len;
    dl_buf_destroy(&out);
    CHECK_OK(s, &err);
    CHECK_INT_EQ(used, len);
    CHECK_INT_EQ(o.i, 7);
    CHECK(o.n_ints == 1 && o.ints[0] == 5);
    CHECK(!o.has_flag && !o.has_items);
}

TEST(test_nesting_deeper_than_the_limit_is_refused) {
    /* An unknown field holding structs nested 100 deep. */
    uint8_t bytes[256];
    size_t n = 0;
    bytes[n++] = 0x1c; /* field 1, struct */
    for (int i = 0; i < 100; i++) {
        bytes[n++] = 0x1c;
    }
    for (int i = 0; i < 102; i++) {
        bytes[n++] = 0x00;
    }
    outer o;
    dl_error err;
    CHECK_STATUS(decode(&outer_desc, bytes, n, &o, &err), DL_ERR_LIMIT, &err);
    CHECK_ERR_CONTAINS(&err, "nesting deeper than 64 levels");
    /* Lists of lists too. */
    n = 0;
    bytes[n++] = 0x09; /* field 100 (long form: zigzag 200), list */
    bytes[n++] = 0xc8;
    bytes[n++] = 0x01;
    for (int i = 0; i < 100; i++) {
        bytes[n++] = 0x19; /* list of one list */
    }
    bytes[n++] = 0x00;
    CHECK_STATUS(decode(&outer_desc, bytes, n, &o, &err), DL_ERR_LIMIT, &err);
    CHECK_ERR_CONTAINS(&err, "Outer.<field 100> at byte");
}

TEST(test_error_names_the_struct_list_index_and_field) {
    /* i = 1, ints = [], items = [{a=1}, {a=2}, {a= <11-byte varint>}] */
    uint8_t bytes[64] = {0x45, 0x02, 0x59, 0x05, 0x19, 0x3c, 0x15,
                         0x02, 0x00, 0x15, 0x04, 0x00, 0x15};
    size_t n = 13;
    for (int i = 0; i < 11; i++) {
        bytes[n++] = 0x80;
    }
    outer o;
    dl_error err;
    CHECK_STATUS(decode(&outer_desc, bytes, n, &o, &err), DL_ERR_CORRUPT, &err);
    CHECK_STR_EQ(err.msg, "Outer.items[2].a at byte 13: varint longer than 10 bytes");
    CHECK_INT_EQ(err.offset, 13);
    /* With a base offset, bytes are file offsets. */
    CHECK_STATUS(dl_tc_decode(&outer_desc, bytes, n, 1000, &arena, &o, NULL, NULL, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "at byte 1013:");
}

TEST(test_missing_required_field_is_corrupt) {
    uint8_t bytes[] = {0x45, 0x02, 0x00}; /* i only; ints missing */
    outer o;
    dl_error err;
    CHECK_STATUS(decode(&outer_desc, bytes, sizeof(bytes), &o, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "Outer at byte 3: required field 'ints' (id 9) is missing");
}

TEST(test_repeated_field_is_corrupt) {
    uint8_t bytes[] = {0x45, 0x02, 0x05, 0x08, 0x04, 0x00};
    outer o;
    dl_error err;
    CHECK_STATUS(decode(&outer_desc, bytes, sizeof(bytes), &o, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "Outer.i at byte 4: field appears twice");
}

TEST(test_wrong_wire_type_fails_for_required_and_is_skipped_for_optional) {
    uint8_t req[] = {0x46, 0x02, 0x00};                         /* i as i64 */
    uint8_t opt[] = {0x45, 0x02, 0x19, 0x00, 0x49, 0x00, 0x00}; /* l (5) as a list, ints */
    outer o;
    dl_error err;
    CHECK_STATUS(decode(&outer_desc, req, sizeof(req), &o, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "Outer.i at byte 1: field has wire type i64, expected i32");
    CHECK_OK(decode(&outer_desc, opt, sizeof(opt), &o, &err), &err);
    CHECK(!o.has_l);
    CHECK_INT_EQ(o.n_ints, 0);
}

TEST(test_list_elements_of_the_wrong_type_are_corrupt) {
    uint8_t bytes[] = {0x45, 0x02, 0x59, 0x16, 0x02, 0x00};
    outer o;
    dl_error err;
    CHECK_STATUS(decode(&outer_desc, bytes, sizeof(bytes), &o, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "Outer.ints at byte 4: list elements are i64, expected i32");
}

TEST(test_bool_elements_accept_one_zero_and_two) {
    uint8_t bytes[] = {0x45, 0x02, 0x59, 0x00, 0x09, 0x50, 0x31, 0x01, 0x00, 0x02, 0x00};
    outer o;
    dl_error err;
    CHECK_OK(decode(&outer_desc, bytes, sizeof(bytes), &o, &err), &err);
    CHECK(o.has_bools && o.n_bools == 3);
    CHECK(o.bools[0] && !o.bools[1] && !o.bools[2]);
    bytes[9] = 0x03;
    CHECK_STATUS(decode(&outer_desc, bytes, sizeof(bytes), &o, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "Outer.bools[2] at byte 9: invalid bool element 3");
}

TEST(test_scalars_and_nested_struct_decode) {
    uint8_t bytes[] = {0x11,                                                /* flag = true */
                       0x13, 0xfe,                                          /* b = -2 */
                       0x14, 0x03,                                          /* h = -2 */
                       0x15, 0x54,                                          /* i = 42 */
                       0x16, 0x81, 0x01,                                    /* l = -65 */
                       0x17, 0,    0,    0,    0,    0,   0,    0xf0, 0x3f, /* d = 1.0 */
                       0x18, 0x02, 'h',  'i',                               /* bin */
                       0x1c, 0x15, 0x06, 0x18, 0x01, 'x', 0x00,             /* in = {3, "x"} */
                       0x19, 0x25, 0x02, 0x04,                              /* ints = [1, 2] */
                       0x00};
    outer o;
    dl_error err;
    CHECK_OK(decode(&outer_desc, bytes, sizeof(bytes), &o, &err), &err);
    CHECK(o.has_flag && o.flag);
    CHECK(o.has_b && o.b == -2);
    CHECK(o.has_h && o.h == -2);
    CHECK_INT_EQ(o.i, 42);
    CHECK(o.has_l && o.l == -65);
    CHECK(o.has_d && o.d == 1.0);
    CHECK(o.has_bin && dl_str_eq_cstr(o.bin, "hi"));
    CHECK(o.has_in && o.in.a == 3 && o.in.has_s && dl_str_eq_cstr(o.in.s, "x"));
    CHECK(o.n_ints == 2 && o.ints[0] == 1 && o.ints[1] == 2);
}

TEST(test_union_takes_one_member) {
    uint8_t empty_member[] = {0x1c, 0x00, 0x00};
    uint8_t unknown_member[] = {0x3c, 0x00, 0x00};
    uint8_t two_members[] = {0x1c, 0x00, 0x1c, 0x15, 0x02, 0x00, 0x00};
    choice c;
    dl_error err;
    CHECK_OK(decode(&choice_desc, empty_member, sizeof(empty_member), &c, &err), &err);
    CHECK_INT_EQ(c.tag, 1);
    CHECK_OK(decode(&choice_desc, unknown_member, sizeof(unknown_member), &c, &err), &err);
    CHECK_INT_EQ(c.tag, 0);
    CHECK_STATUS(decode(&choice_desc, two_members, sizeof(two_members), &c, &err), DL_ERR_CORRUPT,
                 &err);
    CHECK_ERR_CONTAINS(&err, "union Choice has more than one member set (1 and 2)");
}

TEST(test_allocations_beyond_the_budget_are_refused) {
    /* items: 200000 empty Inner structs would be fine in bytes but Inner.a is required, so
     * use a descriptor whose elements are large instead. */
    typedef struct big {
        char pad[4096];
    } big;

    static const dl_tc_struct big_desc = {
        .name = "Big", .size = sizeof(big), .fields = NULL, .n_fields = 0, .union_offset = NO};

    typedef struct holder {
        big *items;
        size_t n_items;
    } holder;

    static const dl_tc_field holder_fields[] = {
        {.id = 1,
         .kind = DL_TC_K_LIST,
         .elem_kind = DL_TC_K_STRUCT,
         .name = "items",
         .offset = offsetof(holder, items),
         .count_offset = offsetof(holder, n_items),
         .has_offset = NO,
         .sub = &big_desc},
    };
    static const dl_tc_struct holder_desc = {.name = "Holder",
                                             .size = sizeof(holder),
                                             .fields = holder_fields,
                                             .n_fields = 1,
                                             .union_offset = NO};
    size_t n_items = 2000;
    static uint8_t bytes[4096];
    size_t n = 0;
    bytes[n++] = 0x19;
    bytes[n++] = 0xfc;
    bytes[n++] = (uint8_t)(0x80 | (n_items & 0x7f));
    bytes[n++] = (uint8_t)(n_items >> 7);
    for (size_t i = 0; i < n_items; i++) {
        bytes[n++] = 0x00;
    }
    bytes[n++] = 0x00;
    holder h;
    dl_error err;
    size_t before = arena.bytes_allocated;
    CHECK_STATUS(decode(&holder_desc, bytes, n, &h, &err), DL_ERR_LIMIT, &err);
    CHECK_ERR_CONTAINS(&err, "Holder.items at byte 4: decoding needs more memory than allowed");
    CHECK(arena.bytes_allocated == before);
}

TEST(test_truncated_input_is_reported_and_out_len_counts_bytes) {
    uint8_t bytes[] = {0x45, 0x02, 0x59, 0x05, 0x00, 0xff, 0xff};
    outer o;
    dl_error err;
    size_t used = 0;
    bool is_truncated = true;
    CHECK_OK(
        dl_tc_decode(&outer_desc, bytes, sizeof(bytes), 0, &arena, &o, &used, &is_truncated, &err),
        &err);
    CHECK_INT_EQ(used, 5);
    CHECK(!is_truncated);
    CHECK_STATUS(dl_tc_decode(&outer_desc, bytes, 4, 0, &arena, &o, &used, &is_truncated, &err),
                 DL_ERR_CORRUPT, &err);
    CHECK(is_truncated);
    CHECK_ERR_CONTAINS(&err, "a field header needs 1 bytes but only 0 are left");
}

TEST(test_every_prefix_of_a_valid_struct_fails_cleanly) {
    dl_buf out;
    dl_error err;
    dl_buf_init(&out, NULL);
    CHECK_OK(write_unknowns(&out, &err), &err);
    for (size_t len = 0; len < out.len; len++) {
        outer o;
        bool is_truncated = false;
        dl_status s =
            dl_tc_decode(&outer_desc, out.data, len, 0, &arena, &o, NULL, &is_truncated, &err);
        if (s != DL_ERR_CORRUPT || !is_truncated) {
            dl_buf_destroy(&out);
            CHECK(s == DL_ERR_CORRUPT && is_truncated);
        }
    }
    dl_buf_destroy(&out);
}

int
main(void) {
    dl_arena_init(&arena, NULL, 0);
    RUN(test_varint_decodes_one_to_ten_bytes);
    RUN(test_varint_longer_than_ten_bytes_is_corrupt);
    RUN(test_varint_overflowing_64_bits_is_corrupt);
    RUN(test_varint_cut_short_is_truncated);
    RUN(test_zigzag_integers_decode);
    RUN(test_i32_and_i16_out_of_range_are_corrupt);
    RUN(test_double_is_little_endian);
    RUN(test_binary_longer_than_the_input_is_corrupt);
    RUN(test_field_headers_short_and_long_form);
    RUN(test_invalid_field_headers_are_corrupt);
    RUN(test_list_headers_short_and_long_form);
    RUN(test_list_claiming_2_31_elements_in_10_bytes_is_corrupt);
    RUN(test_map_headers);
    RUN(test_unknown_fields_of_every_type_are_skipped);
    RUN(test_nesting_deeper_than_the_limit_is_refused);
    RUN(test_error_names_the_struct_list_index_and_field);
    RUN(test_missing_required_field_is_corrupt);
    RUN(test_repeated_field_is_corrupt);
    RUN(test_wrong_wire_type_fails_for_required_and_is_skipped_for_optional);
    RUN(test_list_elements_of_the_wrong_type_are_corrupt);
    RUN(test_bool_elements_accept_one_zero_and_two);
    RUN(test_scalars_and_nested_struct_decode);
    RUN(test_union_takes_one_member);
    RUN(test_allocations_beyond_the_budget_are_refused);
    RUN(test_truncated_input_is_reported_and_out_len_counts_bytes);
    RUN(test_every_prefix_of_a_valid_struct_fails_cleanly);
    dl_arena_destroy(&arena);
    return harness_finish();
}
