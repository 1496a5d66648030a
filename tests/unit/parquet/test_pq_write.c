/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Parquet writer, flat columns: every Delta type round-trips (levels and values decoded by
 * the committed decoders, statistics and page indexes checked by tw_file_read), the schema
 * carries Spark's annotations, field ids, key-value metadata and created_by, vectors of every
 * layout and batches with selections are written right, the result reports what a Delta `add`
 * needs, and a pool gives the same bytes as the calling thread.
 */
#include <math.h>
#include <string.h>

#include "base/pool.h"
#include "harness.h"
#include "parquet/pq_writer.h"
#include "test_pq_write_util.h"

static const dl_i128 P9 = 999999999;
static const dl_i128 P18 = 999999999999999999LL;

static dl_i128
p38(void) {
    dl_i128 v = 1;
    for (int i = 0; i < 38; i++) {
        v *= 10;
    }
    return v - 1;
}

/* ---- The all-types table ------------------------------------------------------------------- */

enum {
    C_B,
    C_I8,
    C_I16,
    C_I32,
    C_I64,
    C_F32,
    C_F64,
    C_D9,
    C_D18,
    C_D38,
    C_S,
    C_BIN,
    C_DT,
    C_TS,
    C_TSN,
    C_V,
    N_COLS
};

static const char *const names[N_COLS] = {"b",   "i8",  "i16", "i32", "i64", "f32", "f64", "d9",
                                          "d18", "d38", "s",   "bin", "dt",  "ts",  "tsn", "v"};

static dl_status
all_types_schema(dl_arena *arena, const dl_type **out, dl_error *err) {
    static const dl_type_id ids[N_COLS] = {
        DL_VEC_TYPE_BOOLEAN, DL_VEC_TYPE_BYTE,      DL_VEC_TYPE_SHORT,         DL_VEC_TYPE_INT,
        DL_VEC_TYPE_LONG,    DL_VEC_TYPE_FLOAT,     DL_VEC_TYPE_DOUBLE,        DL_VEC_TYPE_DECIMAL,
        DL_VEC_TYPE_DECIMAL, DL_VEC_TYPE_DECIMAL,   DL_VEC_TYPE_STRING,        DL_VEC_TYPE_BINARY,
        DL_VEC_TYPE_DATE,    DL_VEC_TYPE_TIMESTAMP, DL_VEC_TYPE_TIMESTAMP_NTZ, DL_VEC_TYPE_NULL};
    dl_type_field f[N_COLS];
    for (int c = 0; c < N_COLS; c++) {
        f[c] = (dl_type_field){
            .name = names[c], .type = dl_vec_type_prim(ids[c]), .is_nullable = true};
    }
    DL_TRY(dl_vec_type_decimal(arena, 9, 2, &f[C_D9].type, err));
    DL_TRY(dl_vec_type_decimal(arena, 18, 3, &f[C_D18].type, err));
    DL_TRY(dl_vec_type_decimal(arena, 38, 10, &f[C_D38].type, err));
    return dl_vec_type_struct(arena, f, N_COLS, out, err);
}

static bool
is_null_row(int c, int64_t r) {
    return c == C_V || r % 7 == 3;
}

static void
string_of(int64_t r, char *buf, size_t cap) {
    if (r == 8) {
        buf[0] = '\0';
    } else if (r % 5 == 0) {
        int n = snprintf(buf, cap, "%080lld-long-string-", (long long)r);
        (void)n;
    } else {
        (void)snprintf(buf, cap, "s%lld", (long long)(r * 7919 % 1000));
    }
}

static int64_t
i64_of(int64_t r) {
    return r == 0 ? INT64_MIN : r == 1 ? INT64_MAX : r * 0x123456789LL - 5;
}

static double
f64_of(int64_t r) {
    switch (r) {
    case 2:
        return (double)NAN;
    case 4:
        return -0.0;
    case 5:
        return 0.0;
    case 6:
        return (double)INFINITY;
    default:
        return (double)r * 0.25 - 100.0;
    }
}

static dl_i128
dec_of(int c, int64_t r) {
    dl_i128 lim = c == C_D9 ? P9 : c == C_D18 ? P18 : p38();
    return r == 0 ? -lim : r == 1 ? lim : (dl_i128)(r * 12345 - 999);
}

static dl_status
append_value(dl_vector *v, int c, int64_t r, dl_error *err) {
    if (is_null_row(c, r)) {
        return dl_vec_append_null(v, err);
    }
    char s[128];
    switch (c) {
    case C_B:
        return dl_vec_append_bool(v, r % 3 == 0, err);
    case C_I8:
        return dl_vec_append_i8(v, r == 0 ? INT8_MIN : r == 1 ? INT8_MAX : (int8_t)(r * 37), err);
    case C_I16:
        return dl_vec_append_i16(v, r == 0 ? INT16_MIN : (int16_t)(r * 333), err);
    case C_I32:
        return dl_vec_append_i32(v,
                                 r == 0   ? INT32_MIN
                                 : r == 1 ? INT32_MAX
                                          : (int32_t)r * 1001,
                                 err);
    case C_I64:
        return dl_vec_append_i64(v, i64_of(r), err);
    case C_F32:
        return dl_vec_append_f32(v, (float)f64_of(r), err);
    case C_F64:
        return dl_vec_append_f64(v, f64_of(r), err);
    case C_D9:
    case C_D18:
    case C_D38:
        return dl_vec_append_i128(v, dec_of(c, r), err);
    case C_S:
        string_of(r, s, sizeof(s));
        return dl_vec_append_str(v, s, strlen(s), err);
    case C_BIN: {
        uint8_t b[3] = {(uint8_t)r, 0xFF, 0x00};
        return dl_vec_append_str(v, b, (size_t)(r % 4), err);
    }
    case C_DT:
        return dl_vec_append_i32(v, (int32_t)(r - 1000), err);
    default: /* C_TS, C_TSN */
        return dl_vec_append_i64(v, r == 0 ? INT64_MIN : r * 1000000 + 17, err);
    }
}

/* Batches of `per` rows covering rows [0, n). */
static dl_status
all_types_batches(const dl_type *schema, int64_t n, int64_t per, dl_batch **out, size_t *n_out,
                  dl_error *err) {
    size_t k = 0;
    for (int64_t start = 0; start < n; start += per) {
        int64_t count = DL_MIN(per, n - start);
        DL_TRY(dl_vec_batch_new(NULL, schema, count, &out[k], err));
        for (int c = 0; c < N_COLS; c++) {
            for (int64_t r = start; r < start + count; r++) {
                DL_TRY(append_value(out[k]->cols[c], c, r, err));
            }
        }
        dl_vec_batch_set_count(out[k], count);
        k++;
    }
    *n_out = k;
    return DL_OK;
}

static void
free_batches(dl_batch **b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        dl_vec_batch_free(b[i]);
    }
}

/* Compares one decoded column with the generator. */
static bool
column_matches(const tw_col *col, int c, int64_t n) {
    if (col == NULL || col->n_levels != (size_t)n) {
        return false;
    }
    size_t v = 0;
    for (int64_t r = 0; r < n; r++) {
        bool is_null = is_null_row(c, r);
        if (col->defs[r] != (is_null ? 0 : 1)) {
            return false;
        }
        if (is_null) {
            continue;
        }
        bool is_ok = true;
        char s[128];
        switch (c) {
        case C_B:
            is_ok = col->fixed[v] == (r % 3 == 0);
            break;
        case C_I8:
            is_ok = tw_i32(col, v) == (r == 0 ? INT8_MIN : r == 1 ? INT8_MAX : (int8_t)(r * 37));
            break;
        case C_I16:
            is_ok = tw_i32(col, v) == (r == 0 ? INT16_MIN : (int16_t)(r * 333));
            break;
        case C_I32:
            is_ok = tw_i32(col, v) == (r == 0 ? INT32_MIN : r == 1 ? INT32_MAX : (int32_t)r * 1001);
            break;
        case C_I64:
            is_ok = tw_i64(col, v) == i64_of(r);
            break;
        case C_F32:
        case C_F64: {
            double want = c == C_F32 ? (double)(float)f64_of(r) : f64_of(r);
            double got = tw_f64(col, v);
            is_ok = isnan(want) ? isnan(got) : (got == want && signbit(got) == signbit(want));
            break;
        }
        case C_D9:
        case C_D18:
        case C_D38:
            is_ok = tw_dec(col, v) == dec_of(c, r);
            break;
        case C_S:
            string_of(r, s, sizeof(s));
            is_ok = dl_str_eq(col->strs[v], dl_str_from_cstr(s));
            break;
        case C_BIN: {
            uint8_t b[3] = {(uint8_t)r, 0xFF, 0x00};
            is_ok = dl_str_eq(col->strs[v], dl_str_make((const char *)b, (size_t)(r % 4)));
            break;
        }
        case C_DT:
            is_ok = tw_i32(col, v) == (int32_t)(r - 1000);
            break;
        default:
            is_ok = tw_i64(col, v) == (r == 0 ? INT64_MIN : r * 1000000 + 17);
            break;
        }
        if (!is_ok) {
            printf("  column %s row %lld differs\n", names[c], (long long)r);
            return false;
        }
        v++;
    }
    return v == col->n_values;
}

static bool
write_and_check_all_types(const dl_pq_write_options *o, int64_t n, int64_t per) {
    tw_store st;
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    dl_batch *batches[64];
    size_t n_batches = 0;
    const dl_type *schema = NULL;
    tw_file f = {0};
    bool is_ok = tw_store_new(&st) && all_types_schema(&arena, &schema, &err) == DL_OK &&
                 all_types_batches(schema, n, per, batches, &n_batches, &err) == DL_OK;
    dl_pq_write_result res;
    is_ok = is_ok && tw_write(st.store, "t.parquet", schema, batches, n_batches, o, &arena, &res,
                              &err) == DL_OK;
    is_ok = is_ok && tw_file_read(st.store, "t.parquet", &f, &err) == DL_OK;
    for (int c = 0; is_ok && c < N_COLS; c++) {
        is_ok = column_matches(tw_file_col(&f, names[c]), c, n);
        if (!is_ok) {
            printf("  column %s does not match\n", names[c]);
        }
    }
    is_ok = is_ok && res.num_rows == n && res.file_size == (int64_t)f.bytes.len;
    if (!is_ok) {
        printf("  %s\n", err.msg);
    }
    tw_file_free(&f);
    free_batches(batches, n_batches);
    tw_store_free(&st);
    dl_arena_destroy(&arena);
    return is_ok;
}

TEST(test_every_flat_type_round_trips_with_nulls_and_extremes) {
    CHECK(write_and_check_all_types(NULL, 300, 128));
}

TEST(test_many_pages_and_row_groups_round_trip) {
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.page_rows = 100;
    o.row_group_rows = 700;
    CHECK(write_and_check_all_types(&o, 2000, 333));
}

TEST(test_v2_pages_without_dictionary_round_trip) {
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.page_version = 2;
    o.is_dictionary_enabled = false;
    o.page_rows = 64;
    CHECK(write_and_check_all_types(&o, 1000, 1000));
}

TEST(test_every_codec_round_trips) {
    static const int32_t codecs[] = {
        DL_PQ_CODEC_UNCOMPRESSED, DL_PQ_CODEC_SNAPPY, DL_PQ_CODEC_GZIP,  DL_PQ_CODEC_ZSTD,
        DL_PQ_CODEC_LZ4_RAW,      DL_PQ_CODEC_LZ4,    DL_PQ_CODEC_BROTLI};
    for (size_t i = 0; i < DL_ARRAY_LEN(codecs); i++) {
        dl_pq_write_options o;
        dl_pq_write_options_init(&o);
        o.codec = codecs[i];
        o.page_rows = 200;
        o.is_crc_enabled = i % 2 == 0;
        if (codecs[i] == DL_PQ_CODEC_ZSTD) {
            o.codec_level = 9;
        }
        CHECK(write_and_check_all_types(&o, 600, 256));
    }
}

TEST(test_delta_encodings_round_trip) {
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.is_delta_enabled = true;
    o.is_dictionary_enabled = false;
    CHECK(write_and_check_all_types(&o, 1500, 500));
    o.page_version = 2;
    o.is_dictionary_enabled = true;
    o.dict_page_bytes = 64;
    CHECK(write_and_check_all_types(&o, 1500, 500));
}

/* ---- Schema -------------------------------------------------------------------------------- */

static const dl_pq_schema_element *
element(const tw_file *f, const char *name) {
    for (size_t i = 0; i < f->footer->meta.n_schema; i++) {
        if (dl_str_eq_cstr(f->footer->meta.schema[i].name, name)) {
            return &f->footer->meta.schema[i];
        }
    }
    return NULL;
}

TEST(test_schema_has_sparks_physical_and_logical_types) {
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    const dl_type *schema = NULL;
    dl_batch *b[4];
    size_t nb = 0;
    CHECK_OK(all_types_schema(&arena, &schema, &err), &err);
    CHECK_OK(all_types_batches(schema, 10, 10, b, &nb, &err), &err);
    int32_t ids[N_COLS];
    for (int i = 0; i < N_COLS; i++) {
        ids[i] = i == 3 ? -1 : 100 + i;
    }
    dl_pq_key_value kv[2] = {{DL_STR("k1"), DL_STR("v1"), true}, {DL_STR("k2"), {0}, false}};
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.field_ids = ids;
    o.n_field_ids = N_COLS;
    o.key_value = kv;
    o.n_key_value = 2;
    CHECK_INT_EQ(dl_pq_write_field_count(schema), N_COLS);
    CHECK_OK(tw_write(st.store, "s.parquet", schema, b, nb, &o, NULL, NULL, &err), &err);
    tw_file f;
    CHECK_OK(tw_file_read(st.store, "s.parquet", &f, &err), &err);
    const dl_pq_file_metadata *md = &f.footer->meta;
    CHECK(dl_str_eq_cstr(md->created_by, "deltalite version 0.1.0 (build none)"));
    CHECK(f.footer->writer.has_version && dl_str_eq_cstr(f.footer->writer.app, "deltalite"));
    CHECK(md->n_key_value_metadata == 2 && dl_str_eq_cstr(md->key_value_metadata[0].value, "v1"));
    CHECK(!md->key_value_metadata[1].has_value);
    CHECK(md->has_column_orders && md->n_column_orders == N_COLS);
    CHECK(md->column_orders[0].kind == DL_PQ_ORDER_TYPE_DEFINED);
    const dl_pq_schema_element *e = element(&f, "i8");
    CHECK(e->type == DL_PQ_TYPE_INT32 && e->logical_type.kind == DL_PQ_LT_INTEGER);
    CHECK(e->logical_type.integer.bit_width == 8 && e->logical_type.integer.is_signed);
    CHECK(e->converted_type == DL_PQ_CT_INT_8 && e->field_id == 101);
    CHECK(!element(&f, "i32")->has_field_id);
    CHECK(element(&f, "i64")->type == DL_PQ_TYPE_INT64 && !element(&f, "i64")->has_logical_type);
    e = element(&f, "d9");
    CHECK(e->type == DL_PQ_TYPE_INT32 && e->precision == 9 && e->scale == 2);
    CHECK(e->logical_type.kind == DL_PQ_LT_DECIMAL && e->converted_type == DL_PQ_CT_DECIMAL);
    CHECK(element(&f, "d18")->type == DL_PQ_TYPE_INT64);
    e = element(&f, "d38");
    CHECK(e->type == DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY && e->type_length == 16);
    e = element(&f, "s");
    CHECK(e->type == DL_PQ_TYPE_BYTE_ARRAY && e->logical_type.kind == DL_PQ_LT_STRING);
    CHECK(e->converted_type == DL_PQ_CT_UTF8 && e->repetition_type == DL_PQ_OPTIONAL);
    CHECK(!element(&f, "bin")->has_logical_type && !element(&f, "bin")->has_converted_type);
    CHECK(element(&f, "dt")->logical_type.kind == DL_PQ_LT_DATE);
    e = element(&f, "ts");
    CHECK(e->logical_type.kind == DL_PQ_LT_TIMESTAMP &&
          e->logical_type.timestamp.is_adjusted_to_utc);
    CHECK(e->logical_type.timestamp.unit == DL_PQ_UNIT_MICROS);
    CHECK(e->converted_type == DL_PQ_CT_TIMESTAMP_MICROS);
    e = element(&f, "tsn");
    CHECK(!e->logical_type.timestamp.is_adjusted_to_utc && !e->has_converted_type);
    CHECK(element(&f, "v")->logical_type.kind == DL_PQ_LT_UNKNOWN);
    CHECK(md->version == 1);
    tw_file_free(&f);
    free_batches(b, nb);
    tw_store_free(&st);
    dl_arena_destroy(&arena);
}

TEST(test_decimal_fixed_sizes_are_the_fewest_bytes) {
    static const int precisions[] = {19, 20, 27, 28, 38};
    static const int32_t bytes[] = {9, 9, 12, 12, 16};
    for (size_t i = 0; i < DL_ARRAY_LEN(precisions); i++) {
        tw_store st;
        CHECK(tw_store_new(&st));
        dl_arena arena;
        dl_arena_init(&arena, NULL, 0);
        dl_error err;
        dl_type_field fld = {.name = "d", .is_nullable = false};
        const dl_type *schema = NULL;
        CHECK_OK(dl_vec_type_decimal(&arena, precisions[i], 0, &fld.type, &err), &err);
        CHECK_OK(dl_vec_type_struct(&arena, &fld, 1, &schema, &err), &err);
        dl_batch *b;
        CHECK_OK(dl_vec_batch_new(NULL, schema, 2, &b, &err), &err);
        dl_i128 lim = 1;
        for (int k = 0; k < precisions[i]; k++) {
            lim *= 10;
        }
        CHECK_OK(dl_vec_append_i128(b->cols[0], lim - 1, &err), &err);
        CHECK_OK(dl_vec_append_i128(b->cols[0], -(lim - 1), &err), &err);
        dl_vec_batch_set_count(b, 2);
        CHECK_OK(tw_write(st.store, "d.parquet", schema, &b, 1, NULL, NULL, NULL, &err), &err);
        tw_file f;
        CHECK_OK(tw_file_read(st.store, "d.parquet", &f, &err), &err);
        const dl_pq_schema_element *d_elem = element(&f, "d");
        CHECK(d_elem != NULL);
        CHECK_INT_EQ(d_elem->type_length, bytes[i]);
        CHECK(tw_dec(&f.cols[0], 0) == lim - 1 && tw_dec(&f.cols[0], 1) == -(lim - 1));
        CHECK(f.cols[0].n_levels == 2 && d_elem->repetition_type == DL_PQ_REQUIRED);
        tw_file_free(&f);
        dl_vec_batch_free(b);
        tw_store_free(&st);
        dl_arena_destroy(&arena);
    }
}

/* ---- Layouts and selections ------------------------------------------------------------------ */

TEST(test_const_dict_and_selected_rows_are_written_as_their_values) {
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    dl_type_field fl[3] = {{"c", dl_vec_type_prim(DL_VEC_TYPE_LONG), true},
                           {"d", dl_vec_type_prim(DL_VEC_TYPE_STRING), true},
                           {"f", dl_vec_type_prim(DL_VEC_TYPE_INT), true}};
    const dl_type *schema = NULL;
    CHECK_OK(dl_vec_type_struct(&arena, fl, 3, &schema, &err), &err);
    dl_batch *b;
    CHECK_OK(dl_vec_batch_new(NULL, schema, 10, &b, &err), &err);
    /* c: CONST 42; d: DICT over {"x", null, "a much longer string value"}; f: FLAT 0..9. */
    dl_vector *c = b->cols[0];
    CHECK_OK(dl_vec_append_i64(c, 42, &err), &err);
    dl_vec_make_const(c, 10);
    dl_vector *dict;
    CHECK_OK(dl_vec_new(NULL, fl[1].type, 3, &dict, &err), &err);
    CHECK_OK(dl_vec_append_str(dict, "x", 1, &err), &err);
    CHECK_OK(dl_vec_append_null(dict, &err), &err);
    CHECK_OK(dl_vec_append_str(dict, "a much longer string value", 26, &err), &err);
    dl_vector *d = b->cols[1];
    CHECK_OK(dl_vec_set_dict(d, dict, &err), &err);
    dl_vec_unref(dict);
    for (int i = 0; i < 10; i++) {
        if (i == 7) {
            CHECK_OK(dl_vec_append_null(d, &err), &err);
        } else {
            CHECK_OK(dl_vec_append_index(d, i % 3, &err), &err);
        }
        CHECK_OK(dl_vec_append_i32(b->cols[2], i, &err), &err);
    }
    dl_vec_batch_set_count(b, 10);
    const uint32_t rows[] = {1, 2, 5, 7, 9};
    CHECK_OK(dl_vec_batch_set_sel(b, rows, 5, &err), &err);
    dl_pool *pool = NULL;
    CHECK_OK(dl_pool_new(2, NULL, &pool, &err), &err);
    for (int with_pool = 0; with_pool < 2; with_pool++) {
        dl_pq_write_options o;
        dl_pq_write_options_init(&o);
        o.pool = with_pool ? pool : NULL;
        CHECK_OK(tw_write(st.store, "l.parquet", schema, &b, 1, &o, NULL, NULL, &err), &err);
        tw_file f;
        CHECK_OK(tw_file_read(st.store, "l.parquet", &f, &err), &err);
        const tw_col *cc = tw_file_col(&f, "c");
        const tw_col *dc = tw_file_col(&f, "d");
        const tw_col *fc = tw_file_col(&f, "f");
        CHECK(cc->n_values == 5 && tw_i64(cc, 0) == 42 && tw_i64(cc, 4) == 42);
        /* d at rows 1, 2, 5, 7, 9: null (dict), long, long, null (row), x */
        CHECK(dc->n_levels == 5 && dc->n_values == 3);
        CHECK(dc->defs[0] == 0 && dc->defs[3] == 0 && dc->defs[1] == 1);
        CHECK(dl_str_eq_cstr(dc->strs[0], "a much longer string value"));
        CHECK(dl_str_eq_cstr(dc->strs[2], "x"));
        CHECK(fc->n_values == 5 && tw_i32(fc, 0) == 1 && tw_i32(fc, 3) == 7 && tw_i32(fc, 4) == 9);
        tw_file_free(&f);
    }
    dl_pool_free(pool);
    dl_vec_batch_free(b);
    tw_store_free(&st);
    dl_arena_destroy(&arena);
}

static bool
read_bytes(tw_store *st, const char *path, dl_buf *out) {
    dl_error err;
    return dl_store_read_all(st->store, path, out, &err) == DL_OK;
}

TEST(test_pool_writes_the_same_bytes_as_one_thread) {
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    const dl_type *schema = NULL;
    dl_batch *b[64];
    size_t nb = 0;
    CHECK_OK(all_types_schema(&arena, &schema, &err), &err);
    CHECK_OK(all_types_batches(schema, 5000, 100, b, &nb, &err), &err);
    dl_pool *pool = NULL;
    CHECK_OK(dl_pool_new(3, NULL, &pool, &err), &err);
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.row_group_rows = 1700;
    o.page_rows = 300;
    CHECK_OK(tw_write(st.store, "a.parquet", schema, b, nb, &o, NULL, NULL, &err), &err);
    o.pool = pool;
    CHECK_OK(tw_write(st.store, "b.parquet", schema, b, nb, &o, NULL, NULL, &err), &err);
    dl_buf x;
    dl_buf y;
    dl_buf_init(&x, NULL);
    dl_buf_init(&y, NULL);
    CHECK(read_bytes(&st, "a.parquet", &x) && read_bytes(&st, "b.parquet", &y));
    CHECK(x.len == y.len && memcmp(x.data, y.data, x.len) == 0);
    dl_buf_destroy(&x);
    dl_buf_destroy(&y);
    dl_pool_free(pool);
    free_batches(b, nb);
    tw_store_free(&st);
    dl_arena_destroy(&arena);
}

/* ---- The result ------------------------------------------------------------------------------ */

TEST(test_result_reports_rows_size_and_typed_statistics) {
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    const dl_type *schema = NULL;
    dl_batch *b[8];
    size_t nb = 0;
    CHECK_OK(all_types_schema(&arena, &schema, &err), &err);
    CHECK_OK(all_types_batches(schema, 50, 20, b, &nb, &err), &err);
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.row_group_rows = 20;
    dl_pq_write_result res;
    CHECK_OK(tw_write(st.store, "r.parquet", schema, b, nb, &o, &arena, &res, &err), &err);
    CHECK(res.num_rows == 50 && res.n_row_groups == 3 && res.n_leaves == N_COLS);
    dl_store_info info;
    CHECK_OK(dl_store_stat(st.store, "r.parquet", &info, &err), &err);
    CHECK(res.file_size == info.size);
    const dl_pq_leaf_stats *l = res.leaves;
    CHECK(strcmp(l[C_I64].path, "i64") == 0 && l[C_I64].n_field_path == 1);
    CHECK(l[C_I64].has_min && l[C_I64].min.i64 == INT64_MIN && l[C_I64].max.i64 == INT64_MAX);
    CHECK(l[C_I64].null_count == 7); /* rows 3, 10, 17, 24, 31, 38, 45 */
    CHECK(l[C_I8].min.i64 == INT8_MIN && l[C_I8].max.i64 == INT8_MAX);
    CHECK(l[C_F64].nan_count == 1 && l[C_F64].max.f64 == (double)INFINITY);
    CHECK(l[C_F64].min.f64 == -100.0);
    CHECK(l[C_D38].min.i128 == -p38() && l[C_D38].max.i128 == p38());
    CHECK(l[C_B].min.b == false && l[C_B].max.b == true);
    CHECK(l[C_S].has_min && l[C_S].min.bytes.len == 0 && l[C_S].is_min_exact);
    CHECK(l[C_S].max.bytes.len == 4 && memcmp(l[C_S].max.bytes.ptr, "s947", 4) == 0);
    CHECK(l[C_V].null_count == 50 && !l[C_V].has_min && !l[C_V].has_max);
    CHECK(l[C_DT].min.i64 == -1000 && l[C_DT].max.i64 == 49 - 1000);
    free_batches(b, nb);
    tw_store_free(&st);
    dl_arena_destroy(&arena);
}

int
main(void) {
    RUN(test_every_flat_type_round_trips_with_nulls_and_extremes);
    RUN(test_many_pages_and_row_groups_round_trip);
    RUN(test_v2_pages_without_dictionary_round_trip);
    RUN(test_every_codec_round_trips);
    RUN(test_delta_encodings_round_trip);
    RUN(test_schema_has_sparks_physical_and_logical_types);
    RUN(test_decimal_fixed_sizes_are_the_fewest_bytes);
    RUN(test_const_dict_and_selected_rows_are_written_as_their_values);
    RUN(test_pool_writes_the_same_bytes_as_one_thread);
    RUN(test_result_reports_rows_size_and_typed_statistics);
    return harness_finish();
}
