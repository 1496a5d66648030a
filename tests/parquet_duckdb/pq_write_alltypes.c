/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pq_write_alltypes OUT.parquet [v1|v2] [CODEC] [delta]
 *
 * Writes N_ROWS rows of every Delta type, flat and nested, with known values (the formulas
 * below; check.mjs computes the same values independently and has DuckDB read the file back),
 * row groups of 1,000 rows and pages of 300. Prints the writer's result (file size, rows and
 * each leaf's statistics) as one JSON object on stdout. CODEC is one of UNCOMPRESSED, SNAPPY
 * (default), GZIP, ZSTD, LZ4_RAW; "delta" enables the DELTA encodings.
 *
 * Nulls: flat column k is null in rows r >= 4 with r % 7 == k % 7; rows 0-3 hold the extremes.
 */
#include <inttypes.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "parquet/pq_writer.h"
#include "store/store.h"
#include "vector/vector.h"

#define N_ROWS 3000

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
    C_NUL,
    C_ST,
    C_ARR,
    C_ARRS,
    C_M,
    C_M2,
    N_COLS
};

static const char *const names[N_COLS] = {"b",   "i8",  "i16", "i32", "i64",  "f32", "f64",
                                          "d9",  "d18", "d38", "s",   "bin",  "dt",  "ts",
                                          "tsn", "nul", "st",  "arr", "arrs", "m",   "m2"};

static dl_i128
pow10_128(int n) {
    dl_i128 v = 1;
    for (int i = 0; i < n; i++) {
        v *= 10;
    }
    return v;
}

static bool
is_null(int c, int64_t r) {
    return c == C_NUL || (r >= 4 && r % 7 == c % 7);
}

static dl_status
append_flat(dl_vector *v, int c, int64_t r, dl_error *err) {
    if (is_null(c, r)) {
        return dl_vec_append_null(v, err);
    }
    switch (c) {
    case C_B:
        return dl_vec_append_bool(v, r % 3 == 0, err);
    case C_I8:
        return dl_vec_append_i8(v,
                                (int8_t)(r == 0   ? -128
                                         : r == 1 ? 127
                                                  : (r * 37) % 256 - 128),
                                err);
    case C_I16:
        return dl_vec_append_i16(v,
                                 (int16_t)(r == 0   ? -32768
                                           : r == 1 ? 32767
                                                    : (r * 333) % 65536 - 32768),
                                 err);
    case C_I32:
        return dl_vec_append_i32(v,
                                 r == 0   ? INT32_MIN
                                 : r == 1 ? INT32_MAX
                                          : (int32_t)(r * 1001 - 1500000),
                                 err);
    case C_I64:
        return dl_vec_append_i64(v,
                                 r == 0   ? INT64_MIN
                                 : r == 1 ? INT64_MAX
                                          : r * 1234567891011LL - 1000000000000000LL,
                                 err);
    case C_F32: {
        static const float special[4] = {NAN, -0.0f, INFINITY, -INFINITY};
        return dl_vec_append_f32(v, r < 4 ? special[r] : (float)(r % 100) * 0.5f - 20.0f, err);
    }
    case C_F64: {
        static const double special[4] = {-0.0, (double)NAN, 1e308, -5e-324};
        return dl_vec_append_f64(v, r < 4 ? special[r] : (double)r * 0.125 - 100.0, err);
    }
    case C_D9:
        return dl_vec_append_i128(v,
                                  r == 0   ? -999999999
                                  : r == 1 ? 999999999
                                           : r * 12345 - 10000000,
                                  err);
    case C_D18: {
        dl_i128 lim = pow10_128(18) - 1;
        return dl_vec_append_i128(v,
                                  r == 0   ? -lim
                                  : r == 1 ? lim
                                           : r * 123456789 - 50000000000LL,
                                  err);
    }
    case C_D38: {
        dl_i128 lim = pow10_128(38) - 1;
        return dl_vec_append_i128(v, r == 0 ? -lim : r == 1 ? lim : r * pow10_128(20) + r, err);
    }
    case C_S: {
        char s[128];
        if (r == 1) {
            memset(s, 'z', 100);
            s[100] = '\0';
        } else if (r == 2) {
            (void)snprintf(s, sizeof(s), "h\xc3\xa9llo w\xc3\xb6rld \xe2\x9c\x93");
        } else if (r == 0) {
            s[0] = '\0';
        } else {
            (void)snprintf(s, sizeof(s), "cat%d", (int)(r % 13));
        }
        return dl_vec_append_str(v, s, strlen(s), err);
    }
    case C_BIN: {
        uint8_t b[3] = {0x00, 0xFF, 0x80};
        if (r >= 2) {
            b[0] = (uint8_t)(r & 255);
            b[1] = (uint8_t)((r >> 8) & 255);
        }
        return dl_vec_append_str(v, b, r == 0 ? 0 : r == 1 ? 3 : 2, err);
    }
    case C_DT:
        return dl_vec_append_i32(v, r == 0 ? -719162 : r == 1 ? 2932896 : (int32_t)(r - 1000), err);
    case C_TS:
    case C_TSN: {
        int64_t x = r == 0   ? -62135596800000000LL
                    : r == 1 ? 253402300799999999LL
                             : 1700000000000000LL + r * 1000003;
        return dl_vec_append_i64(v, x + (c == C_TSN ? 7 : 0), err);
    }
    default:
        return dl_vec_append_null(v, err);
    }
}

static dl_status
append_st(dl_vector *v, int64_t r, dl_error *err) {
    if (r % 11 == 5) {
        return dl_vec_append_null(v, err);
    }
    char s[32];
    int n = snprintf(s, sizeof(s), "b%d", (int)r);
    DL_TRY(r % 4 == 1 ? dl_vec_append_null(v->children[0], err)
                      : dl_vec_append_i32(v->children[0], (int32_t)r, err));
    DL_TRY(dl_vec_append_str(v->children[1], s, (size_t)n, err));
    return dl_vec_append_struct(v, err);
}

static dl_status
append_arr(dl_vector *v, int64_t r, dl_error *err) {
    if (r % 9 == 4) {
        return dl_vec_append_null(v, err);
    }
    for (int64_t j = 0; j < r % 4; j++) {
        DL_TRY(j == 1 && r % 2 == 0
                   ? dl_vec_append_null(v->children[0], err)
                   : dl_vec_append_i32(v->children[0], (int32_t)(r * 10 + j), err));
    }
    return dl_vec_append_list(v, err);
}

static dl_status
append_arrs_elem(dl_vector *e, int64_t r, int64_t j, dl_error *err) {
    if ((r + j) % 5 == 0) {
        return dl_vec_append_null(e, err);
    }
    dl_vector *x = e->children[0];
    dl_vector *y = e->children[1];
    DL_TRY(j == 1 && r % 4 == 0 ? dl_vec_append_null(x, err)
                                : dl_vec_append_i64(x, r * 100 + j, err));
    if ((r + j) % 7 == 3) {
        DL_TRY(dl_vec_append_null(y, err));
    } else {
        for (int64_t k = 0; k < (r + j) % 3; k++) {
            char s[32];
            int n = snprintf(s, sizeof(s), "y%d_%d", (int)r, (int)k);
            DL_TRY(dl_vec_append_str(y->children[0], s, (size_t)n, err));
        }
        DL_TRY(dl_vec_append_list(y, err));
    }
    return dl_vec_append_struct(e, err);
}

static dl_status
append_arrs(dl_vector *v, int64_t r, dl_error *err) {
    if (r % 10 == 7) {
        return dl_vec_append_null(v, err);
    }
    for (int64_t j = 0; j < r % 3; j++) {
        DL_TRY(append_arrs_elem(v->children[0], r, j, err));
    }
    return dl_vec_append_list(v, err);
}

static dl_status
append_m(dl_vector *v, int64_t r, dl_error *err) {
    if (r % 8 == 6) {
        return dl_vec_append_null(v, err);
    }
    dl_vector *kv = v->children[0];
    for (int64_t j = 0; j < r % 3; j++) {
        char k[16];
        int n = snprintf(k, sizeof(k), "k%d", (int)j);
        DL_TRY(dl_vec_append_str(kv->children[0], k, (size_t)n, err));
        DL_TRY((r + j) % 4 == 3 ? dl_vec_append_null(kv->children[1], err)
                                : dl_vec_append_f64(kv->children[1], (double)(r + j) * 0.5, err));
        DL_TRY(dl_vec_append_struct(kv, err));
    }
    return dl_vec_append_list(v, err);
}

static dl_status
append_m2(dl_vector *v, int64_t r, dl_error *err) {
    if (r % 6 == 2) {
        return dl_vec_append_null(v, err);
    }
    dl_vector *kv = v->children[0];
    for (int64_t j = 0; j < r % 2; j++) {
        DL_TRY(dl_vec_append_i32(kv->children[0], (int32_t)(j + r), err));
        dl_vector *val = kv->children[1];
        if (r % 5 == 0) {
            DL_TRY(dl_vec_append_null(val, err));
        } else {
            char s[16];
            int n = snprintf(s, sizeof(s), "v%d", (int)r);
            DL_TRY(dl_vec_append_str(val->children[0], s, (size_t)n, err));
            DL_TRY(dl_vec_append_null(val->children[0], err));
            DL_TRY(dl_vec_append_list(val, err));
        }
        DL_TRY(dl_vec_append_struct(kv, err));
    }
    return dl_vec_append_list(v, err);
}

static dl_status
make_schema(dl_arena *a, const dl_type **out, dl_error *err) {
    static const dl_type_id ids[C_NUL + 1] = {
        DL_VEC_TYPE_BOOLEAN, DL_VEC_TYPE_BYTE,      DL_VEC_TYPE_SHORT,         DL_VEC_TYPE_INT,
        DL_VEC_TYPE_LONG,    DL_VEC_TYPE_FLOAT,     DL_VEC_TYPE_DOUBLE,        DL_VEC_TYPE_DECIMAL,
        DL_VEC_TYPE_DECIMAL, DL_VEC_TYPE_DECIMAL,   DL_VEC_TYPE_STRING,        DL_VEC_TYPE_BINARY,
        DL_VEC_TYPE_DATE,    DL_VEC_TYPE_TIMESTAMP, DL_VEC_TYPE_TIMESTAMP_NTZ, DL_VEC_TYPE_NULL};
    dl_type_field f[N_COLS];
    for (int c = 0; c <= C_NUL; c++) {
        f[c] = (dl_type_field){names[c], dl_vec_type_prim(ids[c]), true};
    }
    DL_TRY(dl_vec_type_decimal(a, 9, 2, &f[C_D9].type, err));
    DL_TRY(dl_vec_type_decimal(a, 18, 6, &f[C_D18].type, err));
    DL_TRY(dl_vec_type_decimal(a, 38, 10, &f[C_D38].type, err));
    const dl_type *str = dl_vec_type_prim(DL_VEC_TYPE_STRING);
    const dl_type *i32 = dl_vec_type_prim(DL_VEC_TYPE_INT);
    dl_type_field stf[2] = {{"a", i32, true}, {"b", str, true}};
    DL_TRY(dl_vec_type_struct(a, stf, 2, &f[C_ST].type, err));
    DL_TRY(dl_vec_type_array(a, i32, true, &f[C_ARR].type, err));
    const dl_type *y = NULL;
    const dl_type *xy = NULL;
    DL_TRY(dl_vec_type_array(a, str, false, &y, err));
    dl_type_field xyf[2] = {{"x", dl_vec_type_prim(DL_VEC_TYPE_LONG), true}, {"y", y, true}};
    DL_TRY(dl_vec_type_struct(a, xyf, 2, &xy, err));
    DL_TRY(dl_vec_type_array(a, xy, true, &f[C_ARRS].type, err));
    DL_TRY(dl_vec_type_map(a, str, dl_vec_type_prim(DL_VEC_TYPE_DOUBLE), true, &f[C_M].type, err));
    const dl_type *strs = NULL;
    DL_TRY(dl_vec_type_array(a, str, true, &strs, err));
    DL_TRY(dl_vec_type_map(a, i32, strs, true, &f[C_M2].type, err));
    for (int c = C_ST; c < N_COLS; c++) {
        f[c].name = names[c];
        f[c].is_nullable = true;
    }
    return dl_vec_type_struct(a, f, N_COLS, out, err);
}

static dl_status
append_row(dl_batch *b, int64_t r, dl_error *err) {
    for (int c = 0; c <= C_NUL; c++) {
        DL_TRY(append_flat(b->cols[c], c, r, err));
    }
    DL_TRY(append_st(b->cols[C_ST], r, err));
    DL_TRY(append_arr(b->cols[C_ARR], r, err));
    DL_TRY(append_arrs(b->cols[C_ARRS], r, err));
    DL_TRY(append_m(b->cols[C_M], r, err));
    return append_m2(b->cols[C_M2], r, err);
}

/* ---- The result as JSON --------------------------------------------------------------------- */

static void
print_i128(dl_i128 v) {
    char buf[48];
    size_t n = 0;
    bool is_neg = v < 0;
    dl_u128 u = is_neg ? (dl_u128)0 - (dl_u128)v : (dl_u128)v;
    do {
        buf[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u > 0);
    if (is_neg) {
        buf[n++] = '-';
    }
    while (n > 0) {
        (void)putchar(buf[--n]);
    }
}

static void
print_value(const dl_pq_leaf_stats *l, const dl_pq_stat_value *v) {
    switch (l->type->id) {
    case DL_VEC_TYPE_BOOLEAN:
        (void)printf("\"%s\"", v->b ? "true" : "false");
        break;
    case DL_VEC_TYPE_FLOAT:
    case DL_VEC_TYPE_DOUBLE:
        (void)printf("\"%.17g\"", v->f64);
        break;
    case DL_VEC_TYPE_DECIMAL:
        (void)putchar('"');
        print_i128(v->i128);
        (void)putchar('"');
        break;
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY:
        (void)putchar('"');
        for (size_t i = 0; i < v->bytes.len; i++) {
            (void)printf("%02x", (unsigned)(uint8_t)v->bytes.ptr[i]);
        }
        (void)putchar('"');
        break;
    default:
        (void)printf("\"%" PRId64 "\"", v->i64);
        break;
    }
}

static void
print_result(const dl_pq_write_result *res) {
    (void)printf("{\"file_size\": %" PRId64 ", \"num_rows\": %" PRId64
                 ", \"n_row_groups\": %" PRId64 ", \"leaves\": [",
                 res->file_size, res->num_rows, res->n_row_groups);
    for (size_t i = 0; i < res->n_leaves; i++) {
        const dl_pq_leaf_stats *l = &res->leaves[i];
        (void)printf("%s\n {\"path\": \"%s\", \"is_repeated\": %s, \"null_count\": %" PRId64
                     ", \"nan_count\": %" PRId64,
                     i ? "," : "", l->path, l->is_repeated ? "true" : "false", l->null_count,
                     l->nan_count);
        if (l->has_min) {
            (void)printf(", \"min\": ");
            print_value(l, &l->min);
            (void)printf(", \"min_exact\": %s", l->is_min_exact ? "true" : "false");
        }
        if (l->has_max) {
            (void)printf(", \"max\": ");
            print_value(l, &l->max);
            (void)printf(", \"max_exact\": %s", l->is_max_exact ? "true" : "false");
        }
        (void)printf("}");
    }
    (void)printf("]}\n");
}

static int32_t
codec_of(const char *name) {
    static const struct {
        const char *name;
        int32_t codec;
    } codecs[] = {{"UNCOMPRESSED", DL_PQ_CODEC_UNCOMPRESSED},
                  {"SNAPPY", DL_PQ_CODEC_SNAPPY},
                  {"GZIP", DL_PQ_CODEC_GZIP},
                  {"ZSTD", DL_PQ_CODEC_ZSTD},
                  {"LZ4_RAW", DL_PQ_CODEC_LZ4_RAW}};

    for (size_t i = 0; i < DL_ARRAY_LEN(codecs); i++) {
        if (strcmp(name, codecs[i].name) == 0) {
            return codecs[i].codec;
        }
    }
    return -1;
}

static dl_status
write_file(const char *out_path, const dl_pq_write_options *o, dl_arena *a, dl_error *err) {
    char dir_buf[4096];
    char base_buf[4096];
    (void)snprintf(dir_buf, sizeof(dir_buf), "%s", out_path);
    (void)snprintf(base_buf, sizeof(base_buf), "%s", out_path);
    const dl_type *schema = NULL;
    DL_TRY(make_schema(a, &schema, err));
    dl_store *store = NULL;
    DL_TRY(dl_store_local_new(dirname(dir_buf), NULL, &store, err));
    dl_pq_writer *w = NULL;
    dl_batch *b = NULL;
    dl_status s = dl_pq_writer_open(store, basename(base_buf), DL_STORE_PUT_OVERWRITE, schema, o,
                                    NULL, &w, err);
    for (int64_t start = 0; s == DL_OK && start < N_ROWS; start += 700) {
        int64_t n = DL_MIN((int64_t)700, N_ROWS - start);
        s = dl_vec_batch_new(NULL, schema, n, &b, err);
        for (int64_t r = start; s == DL_OK && r < start + n; r++) {
            s = append_row(b, r, err);
        }
        if (s == DL_OK) {
            dl_vec_batch_set_count(b, n);
            s = dl_pq_writer_write(w, b, err);
        }
        dl_vec_batch_free(b);
        b = NULL;
    }
    dl_pq_write_result res;
    if (s == DL_OK) {
        s = dl_pq_writer_close(w, a, &res, err);
        w = NULL;
    }
    dl_pq_writer_abort(w);
    if (s == DL_OK) {
        print_result(&res);
    }
    dl_store_free(store);
    return s;
}

int
main(int argc, char **argv) {
    if (argc < 2) {
        (void)fprintf(stderr, "usage: pq_write_alltypes OUT.parquet [v1|v2] [CODEC] [delta]\n");
        return 2;
    }
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.row_group_rows = 1000;
    o.page_rows = 300;
    if (argc > 2 && strcmp(argv[2], "v2") == 0) {
        o.page_version = 2;
    }
    if (argc > 3) {
        o.codec = codec_of(argv[3]);
        if (o.codec < 0) {
            (void)fprintf(stderr, "pq_write_alltypes: unknown codec %s\n", argv[3]);
            return 2;
        }
    }
    o.is_delta_enabled = argc > 4 && strcmp(argv[4], "delta") == 0;
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    dl_status s = write_file(argv[1], &o, &arena, &err);
    dl_arena_destroy(&arena);
    if (s != DL_OK) {
        (void)fprintf(stderr, "pq_write_alltypes: %s\n", err.msg);
        return 1;
    }
    return 0;
}
