/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Full round trips through the writer and the reader (pq_reader.h): random rows of every Delta
 * type, flat and nested, with nulls at every level, empty and long strings, extreme numbers and
 * empty collections, written under every page version, encoding policy and codec, with tiny
 * pages and row groups, selections and a pool; read back, the schema must be the one written
 * and every value the same (floats bit for bit).
 */
#include <string.h>

#include "base/pool.h"
#include "harness.h"
#include "parquet/pq_reader.h"
#include "parquet/pq_writer.h"
#include "test_pq_write_util.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t
rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* ---- The schema and random rows ------------------------------------------------------------ */

static dl_status
make_schema(dl_arena *a, const dl_type **out, dl_error *err) {
    const dl_type *t[32];
    DL_TRY(dl_vec_type_decimal(a, 5, 2, &t[0], err));
    DL_TRY(dl_vec_type_decimal(a, 15, 4, &t[1], err));
    DL_TRY(dl_vec_type_decimal(a, 30, 6, &t[2], err));
    DL_TRY(dl_vec_type_decimal(a, 20, 3, &t[3], err));
    const dl_type *str = dl_vec_type_prim(DL_VEC_TYPE_STRING);
    const dl_type *i64 = dl_vec_type_prim(DL_VEC_TYPE_LONG);
    dl_type_field zf[1] = {{"q", dl_vec_type_prim(DL_VEC_TYPE_DOUBLE), true}};
    DL_TRY(dl_vec_type_struct(a, zf, 1, &t[4], err));
    dl_type_field sf[3] = {
        {"x", dl_vec_type_prim(DL_VEC_TYPE_INT), false}, {"y", str, true}, {"z", t[4], true}};
    DL_TRY(dl_vec_type_struct(a, sf, 3, &t[5], err));    /* st */
    DL_TRY(dl_vec_type_array(a, i64, true, &t[6], err)); /* a1 */
    DL_TRY(dl_vec_type_array(a, str, false, &t[7], err));
    DL_TRY(dl_vec_type_array(a, t[7], true, &t[8], err)); /* a2 */
    DL_TRY(dl_vec_type_array(a, dl_vec_type_prim(DL_VEC_TYPE_INT), true, &t[9], err));
    DL_TRY(dl_vec_type_map(a, str, t[9], true, &t[10], err)); /* mp */
    dl_type_field uf[2] = {{"u", dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN), true}, {"w", t[3], true}};
    DL_TRY(dl_vec_type_struct(a, uf, 2, &t[11], err));
    DL_TRY(dl_vec_type_map(a, i64, t[11], false, &t[12], err)); /* mp2 */
    dl_type_field f[] = {
        {"b", dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN), true},
        {"i8", dl_vec_type_prim(DL_VEC_TYPE_BYTE), true},
        {"i16", dl_vec_type_prim(DL_VEC_TYPE_SHORT), true},
        {"i32", dl_vec_type_prim(DL_VEC_TYPE_INT), true},
        {"i64", i64, true},
        {"f32", dl_vec_type_prim(DL_VEC_TYPE_FLOAT), true},
        {"f64", dl_vec_type_prim(DL_VEC_TYPE_DOUBLE), true},
        {"d5", t[0], true},
        {"d15", t[1], true},
        {"d30", t[2], true},
        {"s", str, true},
        {"bin", dl_vec_type_prim(DL_VEC_TYPE_BINARY), true},
        {"dt", dl_vec_type_prim(DL_VEC_TYPE_DATE), true},
        {"ts", dl_vec_type_prim(DL_VEC_TYPE_TIMESTAMP), true},
        {"tsn", dl_vec_type_prim(DL_VEC_TYPE_TIMESTAMP_NTZ), true},
        {"v", dl_vec_type_prim(DL_VEC_TYPE_NULL), true},
        {"st", t[5], true},
        {"a1", t[6], true},
        {"a2", t[8], true},
        {"mp", t[10], true},
        {"mp2", t[12], true},
        {"req", i64, false},
    };
    return dl_vec_type_struct(a, f, (int32_t)DL_ARRAY_LEN(f), out, err);
}

static dl_i128
rnd_decimal(int precision) {
    dl_i128 lim = 1;
    for (int i = 0; i < precision; i++) {
        lim *= 10;
    }
    switch (rnd() % 8) {
    case 0:
        return lim - 1;
    case 1:
        return -(lim - 1);
    case 2:
        return 0;
    default: {
        dl_i128 v = ((dl_i128)(rnd() >> 1) << 62 | (dl_i128)(rnd() >> 2)) % lim;
        return rnd() % 2 ? v : -v;
    }
    }
}

static int64_t
rnd_i64(void) {
    switch (rnd() % 10) {
    case 0:
        return INT64_MIN;
    case 1:
        return INT64_MAX;
    case 2:
        return (int64_t)(rnd() % 20); /* repeats, for dictionaries */
    default:
        return (int64_t)rnd();
    }
}

static double
rnd_f64(void) {
    static const double special[] = {0.0, -0.0, 1e308, -1e-308, 5e-324};
    uint64_t r = rnd() % 20;
    if (r < DL_ARRAY_LEN(special)) {
        return special[r];
    }
    if (r == 6) {
        uint64_t nan = 0x7FF8000000000000ULL | (rnd() & 0xFFFF); /* a NaN with a payload */
        double d;
        memcpy(&d, &nan, 8);
        return d;
    }
    return (double)(int64_t)rnd() / 1e9;
}

static dl_status
append_str(dl_vector *v, bool is_binary, dl_error *err) {
    char s[160];
    size_t len = rnd() % 5 == 0 ? 100 + rnd() % 50 : rnd() % 14;
    for (size_t i = 0; i < len; i++) {
        s[i] = is_binary ? (char)(rnd() & 0xFF) : (char)('a' + rnd() % 3);
    }
    if (!is_binary && rnd() % 4 == 0) {
        len = (size_t)snprintf(s, sizeof(s), "word%d", (int)(rnd() % 7)); /* repeats */
    }
    return dl_vec_append_str(v, s, len, err);
}

static dl_status append_value(dl_vector *v, bool is_nullable, dl_error *err);

static dl_status
append_primitive(dl_vector *v, dl_error *err) {
    switch (v->type->id) {
    case DL_VEC_TYPE_BOOLEAN:
        return dl_vec_append_bool(v, rnd() % 2, err);
    case DL_VEC_TYPE_BYTE:
        return dl_vec_append_i8(v, (int8_t)rnd(), err);
    case DL_VEC_TYPE_SHORT:
        return dl_vec_append_i16(v, (int16_t)rnd(), err);
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_DATE:
        return dl_vec_append_i32(v, (int32_t)rnd_i64(), err);
    case DL_VEC_TYPE_LONG:
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        return dl_vec_append_i64(v, rnd_i64(), err);
    case DL_VEC_TYPE_FLOAT:
        return dl_vec_append_f32(v, (float)rnd_f64(), err);
    case DL_VEC_TYPE_DOUBLE:
        return dl_vec_append_f64(v, rnd_f64(), err);
    case DL_VEC_TYPE_DECIMAL:
        return dl_vec_append_i128(v, rnd_decimal(v->type->precision), err);
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY:
        return append_str(v, v->type->id == DL_VEC_TYPE_BINARY, err);
    default:
        return dl_vec_append_null(v, err);
    }
}

static dl_status
append_map(dl_vector *v, dl_error *err) {
    dl_vector *entries = v->children[0];
    dl_vector *k = entries->children[0];
    uint64_t n = rnd() % 4;
    for (uint64_t j = 0; j < n; j++) {
        if (k->type->id == DL_VEC_TYPE_STRING) {
            char key[16];
            int len = snprintf(key, sizeof(key), "k%d", (int)j);
            DL_TRY(dl_vec_append_str(k, key, (size_t)len, err));
        } else {
            DL_TRY(dl_vec_append_i64(k, (int64_t)j * 7 - 3, err));
        }
        DL_TRY(append_value(entries->children[1], v->type->contains_null, err));
        DL_TRY(dl_vec_append_struct(entries, err));
    }
    return dl_vec_append_list(v, err);
}

static dl_status
append_value(dl_vector *v, bool is_nullable, dl_error *err) {
    if ((is_nullable && rnd() % 8 == 0) || v->type->id == DL_VEC_TYPE_NULL) {
        return dl_vec_append_null(v, err);
    }
    const dl_type *t = v->type;
    switch (t->id) {
    case DL_VEC_TYPE_STRUCT:
        for (int32_t i = 0; i < t->n_fields; i++) {
            DL_TRY(append_value(v->children[i], t->fields[i].is_nullable, err));
        }
        return dl_vec_append_struct(v, err);
    case DL_VEC_TYPE_ARRAY: {
        uint64_t n = rnd() % 5;
        for (uint64_t j = 0; j < n; j++) {
            DL_TRY(append_value(v->children[0], t->contains_null, err));
        }
        return dl_vec_append_list(v, err);
    }
    case DL_VEC_TYPE_MAP:
        return append_map(v, err);
    default:
        return append_primitive(v, err);
    }
}

static dl_status
make_batches(const dl_type *schema, int n_batches, int64_t per, dl_batch **out, dl_error *err) {
    for (int i = 0; i < n_batches; i++) {
        DL_TRY(dl_vec_batch_new(NULL, schema, per, &out[i], err));
        for (int32_t c = 0; c < schema->n_fields; c++) {
            for (int64_t r = 0; r < per; r++) {
                DL_TRY(append_value(out[i]->cols[c], schema->fields[c].is_nullable, err));
            }
        }
        dl_vec_batch_set_count(out[i], per);
    }
    return DL_OK;
}

/* ---- Comparing rows -------------------------------------------------------------------------- */

static bool
same(const dl_vector *a, int64_t ra, const dl_vector *b, int64_t rb) {
    bool na = dl_vec_is_null(a, ra);
    bool nb = dl_vec_is_null(b, rb);
    if (na || nb) {
        return na == nb;
    }
    const dl_vector *fa = NULL;
    const dl_vector *fb = NULL;
    int64_t ea = dl_vec_resolve(a, ra, &fa);
    int64_t eb = dl_vec_resolve(b, rb, &fb);
    const dl_type *t = fa->type;
    switch (t->id) {
    case DL_VEC_TYPE_BOOLEAN:
        return dl_vec_get_bool(fa, ea) == dl_vec_get_bool(fb, eb);
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY:
        return dl_str_eq(dl_vec_get_str(fa, ea), dl_vec_get_str(fb, eb));
    case DL_VEC_TYPE_STRUCT:
        for (int32_t i = 0; i < t->n_fields; i++) {
            if (!same(fa->children[i], ea, fb->children[i], eb)) {
                return false;
            }
        }
        return true;
    case DL_VEC_TYPE_ARRAY:
    case DL_VEC_TYPE_MAP: {
        int64_t sa, enda, sb, endb;
        dl_vec_list_bounds(fa, ea, &sa, &enda);
        dl_vec_list_bounds(fb, eb, &sb, &endb);
        if (enda - sa != endb - sb) {
            return false;
        }
        for (int64_t i = 0; i < enda - sa; i++) {
            if (!same(fa->children[0], sa + i, fb->children[0], sb + i)) {
                return false;
            }
        }
        return true;
    }
    case DL_VEC_TYPE_NULL:
        return true;
    default: {
        size_t w = dl_vec_type_width(t);
        return memcmp((const uint8_t *)fa->data + (size_t)ea * w,
                      (const uint8_t *)fb->data + (size_t)eb * w, w) == 0;
    }
    }
}

/* Reads path back and compares it, row by row, with the live rows of batches. */
static bool
read_back(tw_store *st, const char *path, const dl_type *schema, dl_batch *const *batches,
          int n_batches) {
    dl_error err;
    dl_pq_file *file = NULL;
    dl_pq_reader *reader = NULL;
    dl_batch *got = NULL;
    bool is_ok = dl_pq_file_open(st->store, path, NULL, &file, &err) == DL_OK &&
                 dl_pq_reader_new(file, NULL, &reader, &err) == DL_OK &&
                 dl_vec_batch_new(NULL, dl_pq_reader_schema(reader), 0, &got, &err) == DL_OK;
    if (is_ok && !dl_vec_type_equal(dl_pq_reader_schema(reader), schema)) {
        printf("  the schema read back differs\n");
        is_ok = false;
    }
    int bi = 0;
    int64_t k = 0;
    int64_t total = 0;
    while (is_ok) {
        is_ok = dl_pq_reader_next(reader, got, &err) == DL_OK;
        if (!is_ok || got->count == 0) {
            break;
        }
        for (int64_t g = 0; is_ok && g < got->count; g++, total++) {
            while (bi < n_batches && k >= batches[bi]->count) {
                bi++;
                k = 0;
            }
            is_ok = bi < n_batches;
            for (int32_t c = 0; is_ok && c < schema->n_fields; c++) {
                int64_t want_row = dl_vec_batch_row(batches[bi], k);
                is_ok =
                    same(batches[bi]->cols[c], want_row, got->cols[c], dl_vec_batch_row(got, g));
                if (!is_ok) {
                    printf("  row %lld, column %s differs\n", (long long)total,
                           schema->fields[c].name);
                }
            }
            k++;
        }
    }
    int64_t want_total = 0;
    for (int i = 0; i < n_batches; i++) {
        want_total += batches[i]->count;
    }
    if (is_ok && total != want_total) {
        printf("  read %lld rows, wrote %lld\n", (long long)total, (long long)want_total);
        is_ok = false;
    }
    if (!is_ok && err.msg[0] != '\0') {
        printf("  %s\n", err.msg);
    }
    dl_vec_batch_free(got);
    dl_pq_reader_free(reader);
    dl_pq_file_free(file);
    return is_ok;
}

#define N_BATCHES 6
#define PER_BATCH 700

static bool
round_trip(const dl_pq_write_options *o, bool is_selected) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    const dl_type *schema = NULL;
    dl_batch *b[N_BATCHES] = {0};
    tw_store st;
    bool is_ok = tw_store_new(&st) && make_schema(&arena, &schema, &err) == DL_OK &&
                 make_batches(schema, N_BATCHES, PER_BATCH, b, &err) == DL_OK;
    if (is_ok && is_selected) {
        static uint32_t rows[PER_BATCH];
        uint32_t n = 0;
        for (uint32_t r = 0; r < PER_BATCH; r++) {
            if (rnd() % 3 != 0) {
                rows[n++] = r;
            }
        }
        for (int i = 0; is_ok && i < N_BATCHES; i++) {
            is_ok = dl_vec_batch_set_sel(b[i], rows, n, &err) == DL_OK;
        }
    }
    is_ok = is_ok &&
            tw_write(st.store, "rt.parquet", schema, b, N_BATCHES, o, NULL, NULL, &err) == DL_OK;
    if (!is_ok) {
        printf("  %s\n", err.msg);
    }
    tw_file f;
    if (is_ok && tw_file_read(st.store, "rt.parquet", &f, &err) != DL_OK) {
        printf("  checker: %s\n", err.msg);
        is_ok = false;
    }
    if (is_ok) {
        tw_file_free(&f);
    }
    is_ok = is_ok && read_back(&st, "rt.parquet", schema, b, N_BATCHES);
    for (int i = 0; i < N_BATCHES; i++) {
        dl_vec_batch_free(b[i]);
    }
    tw_store_free(&st);
    dl_arena_destroy(&arena);
    return is_ok;
}

TEST(test_round_trip_defaults) {
    CHECK(round_trip(NULL, false));
}

TEST(test_round_trip_v2_pages_without_dictionary) {
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.page_version = 2;
    o.is_dictionary_enabled = false;
    CHECK(round_trip(&o, false));
}

TEST(test_round_trip_delta_encodings_and_zstd) {
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.is_delta_enabled = true;
    o.codec = DL_PQ_CODEC_ZSTD;
    CHECK(round_trip(&o, false));
    o.page_version = 2;
    o.is_dictionary_enabled = false;
    o.codec = DL_PQ_CODEC_LZ4_RAW;
    CHECK(round_trip(&o, false));
}

TEST(test_round_trip_tiny_pages_and_row_groups) {
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.page_rows = 7;
    o.page_bytes = 300;
    o.row_group_rows = 333;
    o.dict_page_bytes = 100;
    o.codec = DL_PQ_CODEC_GZIP;
    o.is_crc_enabled = true;
    o.stats_max_bytes = 5;
    CHECK(round_trip(&o, false));
}

TEST(test_round_trip_selected_rows_with_a_pool) {
    dl_pool *pool = NULL;
    dl_error err;
    CHECK_OK(dl_pool_new(2, NULL, &pool, &err), &err);
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.pool = pool;
    o.row_group_rows = 1000;
    o.codec = DL_PQ_CODEC_UNCOMPRESSED;
    CHECK(round_trip(&o, true));
    dl_pool_free(pool);
}

TEST(test_round_trip_keeps_field_ids) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    const dl_type *schema = NULL;
    CHECK_OK(make_schema(&arena, &schema, &err), &err);
    size_t n = dl_pq_write_field_count(schema);
    int32_t ids[64];
    CHECK(n <= 64);
    for (size_t i = 0; i < n; i++) {
        ids[i] = (int32_t)(i * 10 + 1);
    }
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.field_ids = ids;
    o.n_field_ids = n;
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_batch *b = NULL;
    CHECK_OK(make_batches(schema, 1, 10, &b, &err), &err);
    CHECK_OK(tw_write(st.store, "id.parquet", schema, &b, 1, &o, NULL, NULL, &err), &err);
    dl_pq_file *file = NULL;
    CHECK_OK(dl_pq_file_open(st.store, "id.parquet", NULL, &file, &err), &err);
    const dl_pq_field *root = dl_pq_file_root(file);
    CHECK(root->n_children == (size_t)schema->n_fields);
    CHECK(root->children[0]->has_field_id && root->children[0]->field_id == 1);
    /* Depth first: the 16 flat fields are 0-15, then st 16, st.x 17, st.y 18, st.z 19,
     * st.z.q 20. */
    const char *st_path[] = {"st", "z", "q"};
    const dl_pq_field *q = dl_pq_field_find(root, st_path, 3, false);
    CHECK(q != NULL && q->has_field_id && q->field_id == 201);
    const char *mp_path[] = {"mp", "value", "element"};
    const dl_pq_field *e = dl_pq_field_find(root, mp_path, 3, false);
    CHECK(e != NULL && e->has_field_id);
    dl_pq_file_free(file);
    dl_vec_batch_free(b);
    tw_store_free(&st);
    dl_arena_destroy(&arena);
}

int
main(void) {
    RUN(test_round_trip_defaults);
    RUN(test_round_trip_v2_pages_without_dictionary);
    RUN(test_round_trip_delta_encodings_and_zstd);
    RUN(test_round_trip_tiny_pages_and_row_groups);
    RUN(test_round_trip_selected_rows_with_a_pool);
    RUN(test_round_trip_keeps_field_ids);
    return harness_finish();
}
