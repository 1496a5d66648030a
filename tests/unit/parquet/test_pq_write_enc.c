/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Parquet writer's choices: dictionary vs PLAIN (and the fallback rules), delta encodings,
 * booleans, page and row group sizes, empty files and row groups, and statistics at their edges
 * (NaN, signed zeros, cut strings with incremented upper bounds, signed decimals, boundary
 * order). tw_file_read checks every file's statistics and page indexes against its values.
 */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "parquet/pq_writer.h"
#include "test_pq_write_util.h"

/* A one-column file of n rows; fill appends row r to the column. */
typedef dl_status (*fill_fn)(dl_vector *v, int64_t r, dl_error *err);

static bool
write_one(tw_store *st, const dl_type *type, bool is_nullable, int64_t n, fill_fn fill,
          const dl_pq_write_options *o, tw_file *f) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    dl_type_field fld = {"c", type, is_nullable};
    const dl_type *schema = NULL;
    dl_batch *b = NULL;
    bool is_ok = dl_vec_type_struct(&arena, &fld, 1, &schema, &err) == DL_OK &&
                 dl_vec_batch_new(NULL, schema, n > 0 ? n : 1, &b, &err) == DL_OK;
    for (int64_t r = 0; is_ok && r < n; r++) {
        is_ok = fill(b->cols[0], r, &err) == DL_OK;
    }
    if (is_ok) {
        dl_vec_batch_set_count(b, n);
    }
    is_ok = is_ok &&
            tw_write(st->store, "e.parquet", schema, &b, 1, o, NULL, NULL, &err) == DL_OK &&
            tw_file_read(st->store, "e.parquet", f, &err) == DL_OK;
    if (!is_ok) {
        printf("  %s\n", err.msg);
    }
    dl_vec_batch_free(b);
    dl_arena_destroy(&arena);
    return is_ok;
}

static const dl_pq_column_metadata *
chunk_md(const tw_file *f, size_t rg) {
    return &f->footer->meta.row_groups[rg].columns[0].meta_data;
}

static bool
has_encoding(const tw_col *c, dl_pq_encoding e) {
    return (c->encodings & (1u << e)) != 0;
}

/* ---- Dictionary and PLAIN ------------------------------------------------------------------ */

static dl_status
fill_category(dl_vector *v, int64_t r, dl_error *err) {
    static const char *const cats[] = {"books", "toys", "garden", "music", "tools"};
    const char *s = cats[(r * 7) % 5];
    return dl_vec_append_str(v, s, strlen(s), err);
}

static int64_t
unique_long(int64_t r) {
    return (int64_t)dl_hash_u64((uint64_t)r);
}

static dl_status
fill_unique_long(dl_vector *v, int64_t r, dl_error *err) {
    return dl_vec_append_i64(v, unique_long(r), err);
}

static dl_status
fill_sorted_long(dl_vector *v, int64_t r, dl_error *err) {
    return dl_vec_append_i64(v, 1000000 + r * 3, err);
}

/* 20 distinct values for the first 5,000 rows, then all distinct. */
static dl_status
fill_growing(dl_vector *v, int64_t r, dl_error *err) {
    char s[32];
    int n = snprintf(s, sizeof(s), "value-%06lld", (long long)(r < 5000 ? r % 20 : r));
    return dl_vec_append_str(v, s, (size_t)n, err);
}

TEST(test_low_cardinality_strings_are_dictionary_encoded) {
    tw_store st;
    CHECK(tw_store_new(&st));
    tw_file f;
    CHECK(
        write_one(&st, dl_vec_type_prim(DL_VEC_TYPE_STRING), true, 50000, fill_category, NULL, &f));
    const tw_col *c = &f.cols[0];
    CHECK(c->n_dict_pages == 1 && c->encodings == (1u << DL_PQ_ENCODING_RLE_DICTIONARY));
    CHECK(c->n_data_pages == 3); /* 20,000 rows a page */
    const dl_pq_column_metadata *md = chunk_md(&f, 0);
    CHECK(md->has_dictionary_page_offset && md->dictionary_page_offset == 4);
    CHECK(md->has_encoding_stats && md->n_encoding_stats == 2);
    CHECK(md->encoding_stats[0].page_type == DL_PQ_PAGE_DICTIONARY);
    CHECK(md->encoding_stats[1].encoding == DL_PQ_ENCODING_RLE_DICTIONARY);
    CHECK(md->encoding_stats[1].count == 3);
    CHECK(dl_str_eq_cstr(md->statistics.min_value, "books"));
    CHECK(dl_str_eq_cstr(md->statistics.max_value, "toys"));
    tw_file_free(&f);
    tw_store_free(&st);
}

TEST(test_unique_values_are_written_plain) {
    tw_store st;
    CHECK(tw_store_new(&st));
    tw_file f;
    CHECK(write_one(&st, dl_vec_type_prim(DL_VEC_TYPE_LONG), false, 30000, fill_unique_long, NULL,
                    &f));
    const tw_col *c = &f.cols[0];
    CHECK(c->n_dict_pages == 0 && c->encodings == (1u << DL_PQ_ENCODING_PLAIN));
    CHECK(!chunk_md(&f, 0)->has_dictionary_page_offset);
    CHECK(c->n_values == 30000 && tw_i64(c, 29999) == unique_long(29999));
    tw_file_free(&f);
    tw_store_free(&st);
}

/* Uniform over 20,000 values: the first page of 20,000 rows is mostly distinct, so a
 * first-page rule would drop the dictionary; over the chunk it pays several times over. */
static dl_status
fill_customer(dl_vector *v, int64_t r, dl_error *err) {
    return dl_vec_append_i64(v, 1 + (int64_t)(dl_hash_u64((uint64_t)r) % 20000), err);
}

TEST(test_dictionary_is_judged_over_several_pages) {
    tw_store st;
    CHECK(tw_store_new(&st));
    tw_file f;
    CHECK(
        write_one(&st, dl_vec_type_prim(DL_VEC_TYPE_LONG), true, 200000, fill_customer, NULL, &f));
    const tw_col *c = &f.cols[0];
    CHECK(c->n_dict_pages == 1 && c->encodings == (1u << DL_PQ_ENCODING_RLE_DICTIONARY));
    CHECK(c->n_data_pages == 10);
    CHECK(tw_i64(c, 123456) == 1 + (int64_t)(dl_hash_u64(123456) % 20000));
    /* 200,000 x 15-bit indices + 160,000 bytes of dictionary, far below 1.6 MB PLAIN. */
    CHECK(chunk_md(&f, 0)->total_uncompressed_size < 600000);
    tw_file_free(&f);
    tw_store_free(&st);
}

TEST(test_dictionary_falls_back_to_plain_when_it_outgrows_its_limit) {
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.dict_page_bytes = 4096;
    o.page_rows = 1000;
    tw_file f;
    CHECK(write_one(&st, dl_vec_type_prim(DL_VEC_TYPE_STRING), false, 20000, fill_growing, &o, &f));
    const tw_col *c = &f.cols[0];
    CHECK(c->n_dict_pages == 1);
    CHECK(has_encoding(c, DL_PQ_ENCODING_RLE_DICTIONARY) && has_encoding(c, DL_PQ_ENCODING_PLAIN));
    for (size_t i = 0; i < 20000; i += 997) {
        char s[32];
        (void)snprintf(s, sizeof(s), "value-%06lld", (long long)(i < 5000 ? i % 20 : i));
        CHECK(dl_str_eq_cstr(c->strs[i], s));
    }
    const dl_pq_column_metadata *md = chunk_md(&f, 0);
    CHECK(md->n_encoding_stats == 3 && md->encoding_stats[2].encoding == DL_PQ_ENCODING_PLAIN);
    tw_file_free(&f);
    tw_store_free(&st);
}

TEST(test_dictionary_can_be_disabled) {
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.is_dictionary_enabled = false;
    tw_file f;
    CHECK(write_one(&st, dl_vec_type_prim(DL_VEC_TYPE_STRING), true, 1000, fill_category, &o, &f));
    CHECK(f.cols[0].n_dict_pages == 0 && f.cols[0].encodings == (1u << DL_PQ_ENCODING_PLAIN));
    tw_file_free(&f);
    tw_store_free(&st);
}

TEST(test_delta_binary_packed_is_chosen_where_it_is_smaller) {
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.is_delta_enabled = true;
    tw_file f;
    CHECK(
        write_one(&st, dl_vec_type_prim(DL_VEC_TYPE_LONG), true, 50000, fill_sorted_long, &o, &f));
    const tw_col *c = &f.cols[0];
    CHECK(c->encodings == (1u << DL_PQ_ENCODING_DELTA_BINARY_PACKED) && c->n_dict_pages == 0);
    CHECK(tw_i64(c, 49999) == 1000000 + 49999 * 3);
    CHECK(chunk_md(&f, 0)->total_compressed_size < 50000);
    tw_file_free(&f);
    CHECK(write_one(&st, dl_vec_type_prim(DL_VEC_TYPE_LONG), true, 5000, fill_unique_long, &o, &f));
    CHECK(f.cols[0].encodings == (1u << DL_PQ_ENCODING_PLAIN)); /* random: delta is larger */
    tw_file_free(&f);
    o.is_dictionary_enabled = false;
    CHECK(write_one(&st, dl_vec_type_prim(DL_VEC_TYPE_STRING), true, 3000, fill_growing, &o, &f));
    CHECK(f.cols[0].encodings == (1u << DL_PQ_ENCODING_DELTA_BYTE_ARRAY));
    CHECK(dl_str_eq_cstr(f.cols[0].strs[2999], "value-000019"));
    tw_file_free(&f);
    tw_store_free(&st);
}

static dl_status
fill_bool(dl_vector *v, int64_t r, dl_error *err) {
    if (r % 11 == 0) {
        return dl_vec_append_null(v, err);
    }
    return dl_vec_append_bool(v, r % 3 != 0, err);
}

TEST(test_booleans_are_plain_in_v1_and_rle_in_v2) {
    tw_store st;
    CHECK(tw_store_new(&st));
    tw_file f;
    const dl_type *t = dl_vec_type_prim(DL_VEC_TYPE_BOOLEAN);
    CHECK(write_one(&st, t, true, 1000, fill_bool, NULL, &f));
    CHECK(f.cols[0].encodings == (1u << DL_PQ_ENCODING_PLAIN) && f.cols[0].n_dict_pages == 0);
    tw_file_free(&f);
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.page_version = 2;
    CHECK(write_one(&st, t, true, 1000, fill_bool, &o, &f));
    const tw_col *c = &f.cols[0];
    CHECK(c->encodings == (1u << DL_PQ_ENCODING_RLE) && c->n_v2_pages == 1);
    size_t v = 0;
    for (int64_t r = 0; r < 1000; r++) {
        if (r % 11 != 0) {
            CHECK(c->fixed[v++] == (r % 3 != 0));
        }
    }
    CHECK(f.footer->meta.version == 2);
    tw_file_free(&f);
    tw_store_free(&st);
}

/* ---- Layout -------------------------------------------------------------------------------- */

TEST(test_pages_end_at_page_bytes_and_row_groups_at_row_group_bytes) {
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.page_bytes = 8192;
    o.row_group_bytes = 100000;
    o.is_dictionary_enabled = false;
    tw_file f;
    CHECK(
        write_one(&st, dl_vec_type_prim(DL_VEC_TYPE_LONG), false, 50000, fill_unique_long, &o, &f));
    /* 400,000 bytes of values: about 4 row groups of about 12 pages of 1,024 values. */
    size_t n_rgs = f.footer->meta.n_row_groups;
    CHECK(n_rgs >= 4 && n_rgs <= 5);
    CHECK(f.cols[0].n_data_pages >= 45 && f.cols[0].n_data_pages <= 52);
    CHECK(chunk_md(&f, 0)->total_uncompressed_size >= 100000);
    tw_file_free(&f);
    tw_store_free(&st);
}

static dl_status
fill_nothing(dl_vector *v, int64_t r, dl_error *err) {
    DL_UNUSED(v);
    DL_UNUSED(r);
    DL_UNUSED(err);
    return DL_OK;
}

TEST(test_empty_file_has_schema_and_no_row_groups) {
    tw_store st;
    CHECK(tw_store_new(&st));
    tw_file f;
    CHECK(write_one(&st, dl_vec_type_prim(DL_VEC_TYPE_STRING), true, 0, fill_nothing, NULL, &f));
    CHECK(f.footer->meta.n_row_groups == 0 && f.footer->meta.num_rows == 0);
    CHECK(f.footer->schema.n_leaves == 1 && f.cols[0].n_levels == 0);
    tw_file_free(&f);
    tw_store_free(&st);
}

TEST(test_flush_writes_empty_row_groups_that_read_back) {
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    dl_type_field fl[2] = {{"a", dl_vec_type_prim(DL_VEC_TYPE_INT), true},
                           {"b", dl_vec_type_prim(DL_VEC_TYPE_STRING), false}};
    const dl_type *schema = NULL;
    CHECK_OK(dl_vec_type_struct(&arena, fl, 2, &schema, &err), &err);
    dl_batch *b;
    CHECK_OK(dl_vec_batch_new(NULL, schema, 3, &b, &err), &err);
    for (int i = 0; i < 3; i++) {
        CHECK_OK(dl_vec_append_i32(b->cols[0], i, &err), &err);
        CHECK_OK(dl_vec_append_str(b->cols[1], "xy", 2, &err), &err);
    }
    dl_vec_batch_set_count(b, 3);
    dl_pq_writer *w;
    CHECK_OK(dl_pq_writer_open(st.store, "g.parquet", DL_STORE_PUT_OVERWRITE, schema, NULL, NULL,
                               &w, &err),
             &err);
    CHECK_OK(dl_pq_writer_flush(w, &err), &err); /* empty row group 0 */
    CHECK_OK(dl_pq_writer_write(w, b, &err), &err);
    CHECK(dl_pq_writer_num_rows(w) == 3 && dl_pq_writer_size(w) > 4);
    CHECK_OK(dl_pq_writer_flush(w, &err), &err);
    CHECK_OK(dl_pq_writer_flush(w, &err), &err); /* empty row group 2 */
    CHECK_OK(dl_pq_writer_write(w, b, &err), &err);
    CHECK_OK(dl_pq_writer_close(w, NULL, NULL, &err), &err);
    tw_file f;
    CHECK_OK(tw_file_read(st.store, "g.parquet", &f, &err), &err);
    const dl_pq_file_metadata *md = &f.footer->meta;
    CHECK(md->n_row_groups == 4 && md->num_rows == 6);
    CHECK(md->row_groups[0].num_rows == 0 && md->row_groups[2].num_rows == 0);
    CHECK(md->row_groups[3].ordinal == 3);
    CHECK(f.cols[0].n_values == 6 && tw_i32(&f.cols[0], 5) == 2);
    CHECK(f.cols[1].n_levels == 6 && f.cols[1].n_data_pages == 4);
    tw_file_free(&f);
    dl_vec_batch_free(b);
    tw_store_free(&st);
    dl_arena_destroy(&arena);
}

/* ---- Statistics ---------------------------------------------------------------------------- */

static dl_status
fill_all_nan(dl_vector *v, int64_t r, dl_error *err) {
    return r % 4 == 0 ? dl_vec_append_null(v, err) : dl_vec_append_f64(v, (double)NAN, err);
}

static int g_zero_case;

static dl_status
fill_zeros(dl_vector *v, int64_t r, dl_error *err) {
    static const float cases[4][3] = {
        {0.0f, 0.0f, 0.0f}, {-0.0f, 1.0f, 2.0f}, {-1.0f, 0.0f, -0.0f}, {-1.0f, 3.0f, NAN}};
    return dl_vec_append_f32(v, cases[g_zero_case][r % 3], err);
}

/* A chunk holding NaN gets no bounds (and no ColumnIndex): readers that predate nan_count,
 * Spark's parquet-mr among them, would prune NaN rows away with bounds that leave NaN out. */
TEST(test_float_statistics_drop_bounds_with_nan_and_widen_zeros) {
    tw_store st;
    CHECK(tw_store_new(&st));
    tw_file f;
    CHECK(write_one(&st, dl_vec_type_prim(DL_VEC_TYPE_DOUBLE), true, 100, fill_all_nan, NULL, &f));
    const dl_pq_statistics *s = &chunk_md(&f, 0)->statistics;
    CHECK(!s->has_min_value && !s->has_max_value && s->null_count == 25 && !s->has_min);
    CHECK(!f.footer->meta.row_groups[0].columns[0].has_column_index_offset);
    CHECK(f.footer->meta.row_groups[0].columns[0].has_offset_index_offset);
    tw_file_free(&f);
    static const float want_min[3] = {-0.0f, -0.0f, -1.0f};
    static const float want_max[3] = {0.0f, 2.0f, 0.0f};
    for (g_zero_case = 0; g_zero_case < 3; g_zero_case++) {
        CHECK(write_one(&st, dl_vec_type_prim(DL_VEC_TYPE_FLOAT), false, 9, fill_zeros, NULL, &f));
        s = &chunk_md(&f, 0)->statistics;
        float lo, hi;
        CHECK(s->min_value.len == 4 && s->max_value.len == 4);
        memcpy(&lo, s->min_value.ptr, 4);
        memcpy(&hi, s->max_value.ptr, 4);
        CHECK(memcmp(&lo, &want_min[g_zero_case], 4) == 0);
        CHECK(memcmp(&hi, &want_max[g_zero_case], 4) == 0);
        CHECK(s->has_min && dl_str_eq(s->min, s->min_value)); /* the deprecated pair too */
        tw_file_free(&f);
    }
    g_zero_case = 3; /* -1, 3 and NaN: no bounds at all, nulls still counted */
    CHECK(write_one(&st, dl_vec_type_prim(DL_VEC_TYPE_FLOAT), true, 12, fill_zeros, NULL, &f));
    s = &chunk_md(&f, 0)->statistics;
    CHECK(!s->has_min_value && !s->has_max_value && !s->has_min && !s->has_max);
    CHECK(s->has_null_count);
    CHECK(!f.footer->meta.row_groups[0].columns[0].has_column_index_offset);
    tw_file_free(&f);
    tw_store_free(&st);
}

static const char *g_strs[4];

static dl_status
fill_strs(dl_vector *v, int64_t r, dl_error *err) {
    const char *s = g_strs[r % 4];
    return s == NULL ? dl_vec_append_null(v, err) : dl_vec_append_str(v, s, strlen(s), err);
}

/* Writes g_strs with 8-byte statistics and checks the chunk's bounds. */
static bool
check_cut(const dl_type *t, const char *want_min, bool is_min_exact, const char *want_max,
          bool is_max_exact) {
    tw_store st;
    tw_file f;
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.stats_max_bytes = 8;
    if (!tw_store_new(&st) || !write_one(&st, t, true, 8, fill_strs, &o, &f)) {
        return false;
    }
    const dl_pq_statistics *s = &chunk_md(&f, 0)->statistics;
    bool is_ok = dl_str_eq_cstr(s->min_value, want_min) && s->is_min_value_exact == is_min_exact;
    if (want_max == NULL) {
        is_ok = is_ok && !s->has_max_value;
    } else {
        is_ok = is_ok && dl_str_eq_cstr(s->max_value, want_max) &&
                s->is_max_value_exact == is_max_exact;
    }
    is_ok = is_ok && !s->has_min; /* no deprecated min/max for byte arrays */
    if (!is_ok) {
        printf("  min '%.*s' max '%.*s'\n", DL_STR_FMT(s->min_value), DL_STR_FMT(s->max_value));
    }
    tw_file_free(&f);
    tw_store_free(&st);
    return is_ok;
}

TEST(test_long_strings_are_cut_with_a_correct_upper_bound) {
    const dl_type *str = dl_vec_type_prim(DL_VEC_TYPE_STRING);
    const dl_type *bin = dl_vec_type_prim(DL_VEC_TYPE_BINARY);
    g_strs[0] = "short";
    g_strs[1] = NULL;
    g_strs[2] = "exactly8";
    g_strs[3] = "abc";
    CHECK(check_cut(str, "abc", true, "short", true));
    g_strs[2] = NULL;
    g_strs[0] = "zzzzzzzzzzzz";
    g_strs[3] = "aaaaaaaaaaaaa";
    CHECK(check_cut(str, "aaaaaaaa", false, "zzzzzzz{", false));
    /* é is C3 A9: the cut falls inside the fifth é, so 4 é remain; the last becomes ê. */
    g_strs[0] = "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9";
    CHECK(check_cut(str, "aaaaaaaa", false, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xaa", false));
    /* U+FFFF has no 3-byte successor: it is dropped and 'a' incremented. */
    g_strs[0] = "ab\xef\xbf\xbf\xef\xbf\xbfx";
    CHECK(check_cut(str, "aaaaaaaa", false, "ac", false));
    /* U+D7FF's successor skips the surrogates to U+E000. */
    g_strs[0] = "bbbbb\xed\x9f\xbfzz";
    CHECK(check_cut(str, "aaaaaaaa", false, "bbbbb\xee\x80\x80", false));
    /* Binary: trailing 0xFF bytes roll over; all 0xFF has no upper bound. */
    g_strs[0] = "ab\xff\xff\xff\xff\xff\xff\xff";
    CHECK(check_cut(bin, "aaaaaaaa", false, "ac", false));
    g_strs[0] = "\xff\xff\xff\xff\xff\xff\xff\xff\xff";
    CHECK(check_cut(bin, "aaaaaaaa", false, NULL, false));
}

static dl_status
fill_signed_dec(dl_vector *v, int64_t r, dl_error *err) {
    static const int64_t vals[] = {5, -1, 1, -300, 299};
    return dl_vec_append_i128(v, (dl_i128)vals[r % 5] * 1000000000000LL, err);
}

TEST(test_decimal_statistics_compare_signed_values) {
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_error err;
    const dl_type *t = NULL;
    CHECK_OK(dl_vec_type_decimal(&arena, 30, 4, &t, &err), &err);
    tw_file f;
    CHECK(write_one(&st, t, false, 10, fill_signed_dec, NULL, &f));
    const dl_pq_statistics *s = &chunk_md(&f, 0)->statistics;
    CHECK(s->min_value.len == 13 && (uint8_t)s->min_value.ptr[0] == 0xFF); /* -300e12 */
    CHECK(s->max_value.len == 13 && s->max_value.ptr[0] == 0);
    CHECK(tw_dec(&f.cols[0], 3) == (dl_i128)-300 * 1000000000000LL);
    CHECK(!s->has_min); /* FIXED_LEN_BYTE_ARRAY: no deprecated pair */
    tw_file_free(&f);
    tw_store_free(&st);
    dl_arena_destroy(&arena);
}

static int g_order;

static dl_status
fill_ordered(dl_vector *v, int64_t r, dl_error *err) {
    int32_t x = g_order == 0   ? (int32_t)r
                : g_order == 1 ? (int32_t)(100000 - r)
                               : (int32_t)((r * 7919) % 1000);
    return dl_vec_append_i32(v, x, err);
}

static bool
boundary_order_is(int order, dl_pq_boundary_order want) {
    g_order = order;
    tw_store st;
    tw_file f;
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.page_rows = 100;
    o.is_dictionary_enabled = false;
    if (!tw_store_new(&st) ||
        !write_one(&st, dl_vec_type_prim(DL_VEC_TYPE_INT), false, 1000, fill_ordered, &o, &f)) {
        return false;
    }
    const dl_pq_column_chunk *cc = &f.footer->meta.row_groups[0].columns[0];
    dl_pq_column_index ci;
    dl_error err;
    bool is_ok = dl_pq_column_index_decode(f.bytes.data + cc->column_index_offset,
                                           (size_t)cc->column_index_length, 0, &f.arena, &ci,
                                           &err) == DL_OK &&
                 ci.boundary_order == want && ci.n_null_pages == 10;
    tw_file_free(&f);
    tw_store_free(&st);
    return is_ok;
}

TEST(test_column_index_boundary_order) {
    CHECK(boundary_order_is(0, DL_PQ_BOUNDARY_ASCENDING));
    CHECK(boundary_order_is(1, DL_PQ_BOUNDARY_DESCENDING));
    CHECK(boundary_order_is(2, DL_PQ_BOUNDARY_UNORDERED));
}

/* ---- ColumnIndex page bounds --------------------------------------------------------------- */

static const dl_pq_column_index *
column_index(tw_file *f, dl_pq_column_index *ci) {
    const dl_pq_column_chunk *cc = &f->footer->meta.row_groups[0].columns[0];
    dl_error err;
    if (!cc->has_column_index_offset ||
        dl_pq_column_index_decode(f->bytes.data + cc->column_index_offset,
                                  (size_t)cc->column_index_length, 0, &f->arena, ci,
                                  &err) != DL_OK) {
        return NULL;
    }
    return ci;
}

static dl_status
fill_page_floats(dl_vector *v, int64_t r, dl_error *err) {
    /* Pages of 3: zeros; -0.0 and numbers; numbers; nulls; -3, 0, -0.0. (A page with NaN
     * drops the chunk's ColumnIndex: test_float_statistics_drop_bounds_with_nan...) */
    static const float vals[15] = {0.0f,  0.0f, 0.0f, -0.0f, 1.0f,  2.0f, 3.0f, 5.0f,
                                   -1.0f, 0.0f, 0.0f, 0.0f,  -3.0f, 0.0f, -0.0f};
    if (r >= 9 && r < 12) {
        return dl_vec_append_null(v, err);
    }
    return dl_vec_append_f32(v, vals[r], err);
}

static bool
float_bound_is(dl_str b, float want) {
    float got;
    return b.len == 4 && (memcpy(&got, b.ptr, 4), memcmp(&got, &want, 4) == 0);
}

/* Page bounds follow the chunk's rules: a zero min is -0.0 and a zero max +0.0,
 * a page of nulls is a null page with its null count. */
TEST(test_column_index_page_bounds_follow_the_float_rules) {
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.page_rows = 3;
    o.is_dictionary_enabled = false;
    tw_file f;
    CHECK(write_one(&st, dl_vec_type_prim(DL_VEC_TYPE_FLOAT), true, 15, fill_page_floats, &o, &f));
    dl_pq_column_index ci;
    CHECK(column_index(&f, &ci) != NULL);
    CHECK_INT_EQ(ci.n_null_pages, 5);
    static const float want_min[5] = {-0.0f, -0.0f, -1.0f, 0.0f, -3.0f};
    static const float want_max[5] = {0.0f, 2.0f, 5.0f, 0.0f, 0.0f};
    for (size_t p = 0; p < 5; p++) {
        CHECK_INT_EQ(ci.null_pages[p], p == 3);
        CHECK_INT_EQ(ci.null_counts[p], p == 3 ? 3 : 0);
        if (p != 3) {
            CHECK(float_bound_is(ci.min_values[p], want_min[p]));
            CHECK(float_bound_is(ci.max_values[p], want_max[p]));
        }
    }
    tw_file_free(&f);
    tw_store_free(&st);
}

static dl_status
fill_page_strings(dl_vector *v, int64_t r, dl_error *err) {
    static const char *const vals[6] = {"abcdefgh", "abc", "zz", "b\xff\xff\xff\xff\xff", "a", "b"};
    return dl_vec_append_str(v, vals[r], strlen(vals[r]), err);
}

/* Byte-array page bounds are cut like the chunk's: the min to a prefix, the max to a prefix
 * with its last incrementable byte incremented. */
TEST(test_column_index_page_bounds_cut_long_values) {
    tw_store st;
    CHECK(tw_store_new(&st));
    dl_pq_write_options o;
    dl_pq_write_options_init(&o);
    o.page_rows = 3;
    o.is_dictionary_enabled = false;
    o.stats_max_bytes = 4;
    tw_file f;
    CHECK(
        write_one(&st, dl_vec_type_prim(DL_VEC_TYPE_BINARY), false, 6, fill_page_strings, &o, &f));
    dl_pq_column_index ci;
    CHECK(column_index(&f, &ci) != NULL);
    CHECK_INT_EQ(ci.n_null_pages, 2);
    CHECK(dl_str_eq_cstr(ci.min_values[0], "abc"));
    CHECK(dl_str_eq_cstr(ci.max_values[0], "zz"));
    CHECK(dl_str_eq_cstr(ci.min_values[1], "a"));
    CHECK(dl_str_eq_cstr(ci.max_values[1], "c")); /* "b\xff..." cut to "b\xff\xff\xff" */
    tw_file_free(&f);
    tw_store_free(&st);
}

int
main(void) {
    RUN(test_low_cardinality_strings_are_dictionary_encoded);
    RUN(test_unique_values_are_written_plain);
    RUN(test_dictionary_is_judged_over_several_pages);
    RUN(test_dictionary_falls_back_to_plain_when_it_outgrows_its_limit);
    RUN(test_dictionary_can_be_disabled);
    RUN(test_delta_binary_packed_is_chosen_where_it_is_smaller);
    RUN(test_booleans_are_plain_in_v1_and_rle_in_v2);
    RUN(test_pages_end_at_page_bytes_and_row_groups_at_row_group_bytes);
    RUN(test_empty_file_has_schema_and_no_row_groups);
    RUN(test_flush_writes_empty_row_groups_that_read_back);
    RUN(test_float_statistics_drop_bounds_with_nan_and_widen_zeros);
    RUN(test_long_strings_are_cut_with_a_correct_upper_bound);
    RUN(test_decimal_statistics_compare_signed_values);
    RUN(test_column_index_boundary_order);
    RUN(test_column_index_page_bounds_follow_the_float_rules);
    RUN(test_column_index_page_bounds_cut_long_values);
    return harness_finish();
}
