/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers of the Parquet reader tests: see test_pq_read_util.h. */
#include "test_pq_read_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/timefmt.h"
#include "parquet/codec/pq_codec.h"
#include "parquet/encoding/pq_encoding.h"

/* ---- Rendering ------------------------------------------------------------------------------ */

static dl_status
render_blob(dl_str s, dl_json_writer *w, dl_error *err) {
    dl_buf text;
    dl_buf_init(&text, NULL);
    dl_status st = DL_OK;
    for (size_t i = 0; i < s.len && st == DL_OK; i++) {
        uint8_t c = (uint8_t)s.ptr[i];
        if (c >= 32 && c <= 126 && c != '\'' && c != '"') {
            st = dl_buf_append_byte(&text, c, err);
        } else {
            st = dl_buf_appendf(&text, err, "\\x%02X", (unsigned)c);
        }
    }
    if (st == DL_OK) {
        st = dl_json_writer_string(w, dl_buf_view(&text), err);
    }
    dl_buf_destroy(&text);
    return st;
}

static dl_status
render_decimal(dl_i128 v, int scale, dl_json_writer *w, dl_error *err) {
    char digits[64];
    size_t n = 0;
    bool neg = v < 0;
    dl_u128 u = neg ? (dl_u128)0 - (dl_u128)v : (dl_u128)v;
    do {
        digits[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u != 0);
    while ((int)n <= scale) {
        digits[n++] = '0';
    }
    char text[80];
    size_t k = 0;
    if (neg) {
        text[k++] = '-';
    }
    for (size_t i = n; i > 0; i--) {
        text[k++] = digits[i - 1];
        if (scale > 0 && i - 1 == (size_t)scale) {
            text[k++] = '.';
        }
    }
    return dl_json_writer_string(w, dl_str_make(text, k), err);
}

static dl_status
render_double(double d, dl_json_writer *w, dl_error *err) {
    if (isnan(d)) {
        return dl_json_writer_string_cstr(w, "NaN", err);
    }
    if (isinf(d)) {
        return dl_json_writer_string_cstr(w, d > 0 ? "Infinity" : "-Infinity", err);
    }
    return dl_json_writer_double(w, d, err);
}

static dl_status render_flat(const dl_vector *flat, int64_t idx, dl_json_writer *w, dl_error *err);

static dl_status
render_list(const dl_vector *flat, int64_t idx, dl_json_writer *w, dl_error *err) {
    int64_t start;
    int64_t end;
    dl_vec_list_bounds(flat, idx, &start, &end);
    const dl_vector *child = flat->children[0];
    bool is_map = flat->type->id == DL_VEC_TYPE_MAP;
    DL_TRY(dl_json_writer_begin_array(w, err));
    for (int64_t i = start; i < end; i++) {
        if (!is_map) {
            DL_TRY(pqt_render_value(child, i, w, err));
            continue;
        }
        DL_TRY(dl_json_writer_begin_object(w, err));
        DL_TRY(dl_json_writer_key_cstr(w, "key", err));
        DL_TRY(pqt_render_value(child->children[0], i, w, err));
        DL_TRY(dl_json_writer_key_cstr(w, "value", err));
        DL_TRY(pqt_render_value(child->children[1], i, w, err));
        DL_TRY(dl_json_writer_end_object(w, err));
    }
    return dl_json_writer_end_array(w, err);
}

static dl_status
render_struct(const dl_vector *flat, int64_t idx, dl_json_writer *w, dl_error *err) {
    DL_TRY(dl_json_writer_begin_object(w, err));
    for (int32_t i = 0; i < flat->n_children; i++) {
        DL_TRY(dl_json_writer_key_cstr(w, flat->type->fields[i].name, err));
        DL_TRY(pqt_render_value(flat->children[i], idx, w, err));
    }
    return dl_json_writer_end_object(w, err);
}

static dl_status
render_flat(const dl_vector *flat, int64_t idx, dl_json_writer *w, dl_error *err) {
    const void *d = flat->data;
    char text[64];
    switch (flat->type->id) {
    case DL_VEC_TYPE_BOOLEAN:
        return dl_json_writer_bool(w, dl_vec_get_bool(flat, idx), err);
    case DL_VEC_TYPE_BYTE:
        return dl_json_writer_int64(w, ((const int8_t *)d)[idx], err);
    case DL_VEC_TYPE_SHORT:
        return dl_json_writer_int64(w, ((const int16_t *)d)[idx], err);
    case DL_VEC_TYPE_INT:
        return dl_json_writer_int64(w, ((const int32_t *)d)[idx], err);
    case DL_VEC_TYPE_LONG:
        (void)snprintf(text, sizeof(text), "%lld", (long long)((const int64_t *)d)[idx]);
        return dl_json_writer_string_cstr(w, text, err);
    case DL_VEC_TYPE_FLOAT:
        return render_double((double)((const float *)d)[idx], w, err);
    case DL_VEC_TYPE_DOUBLE:
        return render_double(((const double *)d)[idx], w, err);
    case DL_VEC_TYPE_DECIMAL: {
        dl_i128 v;
        memcpy(&v, (const uint8_t *)d + idx * 16, 16);
        return render_decimal(v, flat->type->scale, w, err);
    }
    case DL_VEC_TYPE_STRING:
        return dl_json_writer_string(w, dl_vec_get_str(flat, idx), err);
    case DL_VEC_TYPE_BINARY:
        return render_blob(dl_vec_get_str(flat, idx), w, err);
    case DL_VEC_TYPE_DATE:
        (void)dl_date_format(((const int32_t *)d)[idx], text);
        return dl_json_writer_string_cstr(w, text, err);
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        (void)dl_ts_format(((const int64_t *)d)[idx], DL_TS_STYLE_SPARK, text);
        return dl_json_writer_string_cstr(w, text[0] == '+' ? text + 1 : text, err);
    case DL_VEC_TYPE_STRUCT:
        return render_struct(flat, idx, w, err);
    case DL_VEC_TYPE_ARRAY:
    case DL_VEC_TYPE_MAP:
        return render_list(flat, idx, w, err);
    default:
        return dl_json_writer_null(w, err);
    }
}

dl_status
pqt_render_value(const dl_vector *vec, int64_t row, dl_json_writer *w, dl_error *err) {
    if (dl_vec_is_null(vec, row)) {
        return dl_json_writer_null(w, err);
    }
    const dl_vector *flat;
    int64_t idx = dl_vec_resolve(vec, row, &flat);
    return render_flat(flat, idx, w, err);
}

dl_status
pqt_render_row(const dl_batch *batch, int64_t k, dl_buf *out, dl_error *err) {
    dl_json_writer w;
    dl_json_writer_init(&w, out, 0);
    int64_t row = dl_vec_batch_row(batch, k);
    dl_status s = dl_json_writer_begin_object(&w, err);
    for (int32_t i = 0; i < batch->n_cols && s == DL_OK; i++) {
        s = dl_json_writer_key_cstr(&w, batch->schema->fields[i].name, err);
        if (s == DL_OK) {
            s = pqt_render_value(batch->cols[i], row, &w, err);
        }
    }
    if (s == DL_OK) {
        s = dl_json_writer_end_object(&w, err);
    }
    dl_json_writer_destroy(&w);
    return s;
}

static bool
numbers_same(dl_json_val a, dl_json_val b) {
    double x = 0;
    double y = 0;
    if (dl_json_val_get_double(a, &x, NULL) != DL_OK ||
        dl_json_val_get_double(b, &y, NULL) != DL_OK) {
        return false;
    }
    return x == y || (float)x == (float)y;
}

bool
pqt_json_same(dl_json_val a, dl_json_val b, char *why, size_t why_cap) {
    dl_json_type ta = dl_json_val_type(a);
    dl_json_type tb = dl_json_val_type(b);
    dl_str ra = dl_json_val_raw(a);
    dl_str rb = dl_json_val_raw(b);
    bool same = ta == tb;
    if (same && ta == DL_JSON_NUMBER) {
        same = numbers_same(a, b);
    } else if (same && (ta == DL_JSON_ARRAY || ta == DL_JSON_OBJECT)) {
        same = dl_json_val_count(a) == dl_json_val_count(b);
        dl_json_iter ia = dl_json_val_iter(a);
        dl_json_iter ib = dl_json_val_iter(b);
        dl_str ka;
        dl_str kb;
        dl_json_val va;
        dl_json_val vb;
        while (same && dl_json_iter_next(&ia, &ka, &va) && dl_json_iter_next(&ib, &kb, &vb)) {
            if (!dl_str_eq(ka, kb)) {
                (void)snprintf(why, why_cap, "key \"%.*s\" vs \"%.*s\"", DL_STR_FMT(ka),
                               DL_STR_FMT(kb));
                return false;
            }
            if (!pqt_json_same(va, vb, why, why_cap)) {
                return false;
            }
        }
    } else if (same) {
        same = dl_json_val_equal(a, b);
    }
    if (!same) {
        (void)snprintf(why, why_cap, "%.*s vs %.*s", (int)DL_MIN(ra.len, 300), ra.ptr,
                       (int)DL_MIN(rb.len, 300), rb.ptr);
    }
    return same;
}

/* Resolves a dotted path against the file's fields. */
static const dl_pq_field *
find_path(const dl_pq_file *file, const char *path, size_t len) {
    const char *names[16];
    char buf[256];
    size_t n = 0;
    (void)snprintf(buf, sizeof(buf), "%.*s", (int)len, path);
    char *save = NULL;
    for (char *t = strtok_r(buf, ".", &save); t != NULL && n < 16; t = strtok_r(NULL, ".", &save)) {
        names[n++] = t;
    }
    return dl_pq_field_find(dl_pq_file_root(file), names, n, false);
}

static dl_status
read_rows(dl_pq_file *file, const dl_pq_read_options *o, dl_buf *out, dl_error *err) {
    dl_pq_reader *r = NULL;
    dl_batch *b = NULL;
    dl_status s = dl_pq_reader_new(file, o, &r, err);
    if (s == DL_OK) {
        s = dl_vec_batch_new(NULL, dl_pq_reader_schema(r), 0, &b, err);
    }
    while (s == DL_OK) {
        s = dl_pq_reader_next(r, b, err);
        if (s != DL_OK || b->count == 0) {
            break;
        }
        s = dl_vec_batch_check(b, err);
        for (int64_t k = 0; k < b->count && s == DL_OK; k++) {
            s = pqt_render_row(b, k, out, err);
            if (s == DL_OK) {
                s = dl_buf_append_byte(out, '\n', err);
            }
        }
    }
    dl_vec_batch_free(b);
    dl_pq_reader_free(r);
    return s;
}

dl_status
pqt_read_json(const uint8_t *data, size_t len, const char *columns, const dl_pq_read_options *opts,
              dl_buf *out, dl_error *err) {
    dl_pq_file *file = NULL;
    DL_TRY(dl_pq_file_open_memory(data, len, "test.parquet", NULL, &file, err));
    dl_pq_read_options o;
    memset(&o, 0, sizeof(o));
    if (opts != NULL) {
        o = *opts;
    }
    const dl_pq_field *cols[16];
    size_t n = 0;
    dl_status s = DL_OK;
    if (columns != NULL) {
        const char *p = columns;
        while (s == DL_OK && n < 16) {
            const char *comma = strchr(p, ',');
            size_t l = comma != NULL ? (size_t)(comma - p) : strlen(p);
            cols[n] = find_path(file, p, l);
            if (cols[n] == NULL) {
                s = dl_error_set(err, DL_ERR_NOT_FOUND, "no field '%.*s'", (int)l, p);
            }
            n++;
            if (comma == NULL) {
                break;
            }
            p = comma + 1;
        }
        o.columns = cols;
        o.n_columns = n;
    }
    if (s == DL_OK) {
        s = read_rows(file, &o, out, err);
    }
    dl_pq_file_free(file);
    return s;
}

int
pqt_read_file(const char *path, dl_buf *buf) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return -1;
    }
    uint8_t chunk[65536];
    size_t n;
    int rc = 0;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
        if (dl_buf_append(buf, chunk, n, NULL) != DL_OK) {
            rc = -1;
            break;
        }
    }
    (void)fclose(f);
    return rc;
}

/* ---- Filtered reads ---------------------------------------------------------------------------
 */

void
pqt_rows_free(pqt_rows *rows) {
    dl_buf_destroy(&rows->text);
    dl_mem_free(NULL, rows->at, rows->at != NULL ? (size_t)(rows->n + 1) * sizeof(size_t) : 0);
    memset(rows, 0, sizeof(*rows));
}

dl_status
pqt_rows_read(dl_pq_file *file, const dl_pq_read_options *opts, pqt_rows *out, dl_error *err) {
    memset(out, 0, sizeof(*out));
    dl_buf_init(&out->text, NULL);
    dl_pq_read_options o = *opts;
    o.filter = NULL;
    int64_t n = dl_pq_file_num_rows(file);
    out->at = dl_mem_alloc_array(NULL, (size_t)n + 1, sizeof(size_t));
    DL_CHECK(out->at != NULL, err, DL_ERR_NOMEM, "out of memory");
    out->n = n;
    dl_pq_reader *r = NULL;
    dl_batch *b = NULL;
    dl_status s = dl_pq_reader_new(file, &o, &r, err);
    if (s == DL_OK) {
        s = dl_vec_batch_new(NULL, dl_pq_reader_schema(r), 0, &b, err);
    }
    int64_t row = 0;
    while (s == DL_OK) {
        s = dl_pq_reader_next(r, b, err);
        if (s != DL_OK || b->count == 0) {
            break;
        }
        for (int64_t i = 0; i < b->count && s == DL_OK && row < n; i++) {
            out->at[row++] = out->text.len;
            s = pqt_render_row(b, i, &out->text, err);
        }
    }
    if (s == DL_OK && row != n) {
        s = dl_error_set(err, DL_ERR_INTERNAL, "read %lld of %lld rows", (long long)row,
                         (long long)n);
    }
    out->at[n] = out->text.len;
    dl_vec_batch_free(b);
    dl_pq_reader_free(r);
    return s;
}

/* Checks batch row i against file row `at` of all. */
static bool
same_row(const pqt_rows *all, const dl_batch *b, int64_t i, int64_t at, int64_t last, dl_buf *row) {
    dl_error err;
    dl_buf_reset(row);
    if (at <= last || at >= all->n) {
        printf("  batch row at file row %lld after %lld (of %lld)\n", (long long)at,
               (long long)last, (long long)all->n);
        return false;
    }
    if (pqt_render_row(b, i, row, &err) != DL_OK) {
        printf("  %s\n", err.msg);
        return false;
    }
    size_t len = all->at[at + 1] - all->at[at];
    if (row->len != len || memcmp(row->data, all->text.data + all->at[at], len) != 0) {
        printf("  file row %lld: %.*s\n  read instead: %.*s\n", (long long)at, (int)len,
               (const char *)all->text.data + all->at[at], (int)row->len, (const char *)row->data);
        return false;
    }
    return true;
}

bool
pqt_check_filtered(dl_pq_file *file, const pqt_rows *all, const dl_pq_read_options *opts,
                   pqt_row_pred pred, void *ctx, dl_pq_reader_stats *stats) {
    dl_error err;
    memset(&err, 0, sizeof(err));
    dl_pq_reader *r = NULL;
    dl_batch *b = NULL;
    uint8_t *seen = dl_mem_alloc_zero(NULL, (size_t)all->n + 1);
    dl_buf row;
    dl_buf_init(&row, NULL);
    bool is_ok = seen != NULL && dl_pq_reader_new(file, opts, &r, &err) == DL_OK &&
                 dl_vec_batch_new(NULL, dl_pq_reader_schema(r), 0, &b, &err) == DL_OK;
    int64_t last = -1;
    while (is_ok) {
        is_ok = dl_pq_reader_next(r, b, &err) == DL_OK;
        if (!is_ok || b->count == 0) {
            break;
        }
        int64_t first = dl_pq_reader_batch_first_row(r);
        for (int64_t i = 0; i < b->count && is_ok; i++) {
            is_ok = same_row(all, b, i, first + i, last, &row);
            seen[first + i] = 1;
            last = first + i;
        }
    }
    if (!is_ok && err.msg[0] != '\0') {
        printf("  %s\n", err.msg);
    }
    for (int64_t at = 0; is_ok && at < all->n; at++) {
        if (!seen[at] && pred(ctx, at)) {
            printf("  file row %lld matches the filter but was skipped\n", (long long)at);
            is_ok = false;
        }
    }
    if (r != NULL && stats != NULL) {
        dl_pq_reader_get_stats(r, stats);
    }
    dl_buf_destroy(&row);
    dl_mem_free(NULL, seen, (size_t)all->n + 1);
    dl_vec_batch_free(b);
    dl_pq_reader_free(r);
    return is_ok;
}

/* ---- Building files ------------------------------------------------------------------------ */

static void
must(dl_status s, const dl_error *err) {
    if (s != DL_OK) {
        (void)fprintf(stderr, "pqt builder: %s\n", err->msg);
        abort();
    }
}

void
pqt_file_init(pqt_file *f, int32_t n_top_level) {
    memset(f, 0, sizeof(*f));
    dl_arena_init(&f->arena, NULL, 0);
    dl_buf_init(&f->body, NULL);
    dl_error err;
    must(dl_buf_append(&f->body, "PAR1", 4, &err), &err);
    dl_pq_schema_element *root = &f->schema[f->n_schema++];
    root->name = DL_STR("schema");
    root->num_children = n_top_level;
    root->has_num_children = true;
    f->stack[0] = 0;
    f->stack_left[0] = n_top_level;
    f->depth = 1;
}

void
pqt_file_destroy(pqt_file *f) {
    for (size_t i = 0; i < f->n_cols; i++) {
        dl_buf_destroy(&f->cols[i].chunk);
    }
    dl_buf_destroy(&f->body);
    dl_arena_destroy(&f->arena);
}

static dl_pq_schema_element *
add_element(pqt_file *f, const char *name, dl_pq_repetition rep, int32_t converted_type) {
    while (f->depth > 0 && f->stack_left[f->depth - 1] == 0) {
        f->depth--;
    }
    f->stack_left[f->depth - 1]--;
    dl_pq_schema_element *e = &f->schema[f->n_schema++];
    memset(e, 0, sizeof(*e));
    e->name = dl_str_from_cstr(dl_arena_strndup(&f->arena, name, strlen(name)));
    e->repetition_type = rep;
    e->has_repetition_type = true;
    if (converted_type >= 0) {
        e->converted_type = (dl_pq_converted_type)converted_type;
        e->has_converted_type = true;
    }
    return e;
}

void
pqt_add_group(pqt_file *f, const char *name, dl_pq_repetition rep, int32_t n_children,
              int32_t converted_type) {
    dl_pq_schema_element *e = add_element(f, name, rep, converted_type);
    e->num_children = n_children;
    e->has_num_children = true;
    f->stack[f->depth] = f->n_schema - 1;
    f->stack_left[f->depth] = n_children;
    f->depth++;
}

size_t
pqt_add_leaf(pqt_file *f, const char *name, dl_pq_repetition rep, dl_pq_type type,
             int32_t converted_type, int32_t codec) {
    dl_pq_schema_element *e = add_element(f, name, rep, converted_type);
    e->type = type;
    e->has_type = true;
    pqt_column *c = &f->cols[f->n_cols];
    memset(c, 0, sizeof(*c));
    c->type = type;
    c->codec = codec;
    c->dict_offset = -1;
    c->data_offset = -1;
    dl_buf_init(&c->chunk, NULL);
    for (size_t d = 1; d < f->depth; d++) {
        dl_str n = f->schema[f->stack[d]].name;
        c->path[c->n_path++] = dl_arena_strndup(&f->arena, n.ptr, n.len);
    }
    c->path[c->n_path++] = dl_arena_strndup(&f->arena, name, strlen(name));
    return f->n_cols++;
}

dl_pq_schema_element *
pqt_last(pqt_file *f) {
    return &f->schema[f->n_schema - 1];
}

/* The deprecated BIT_PACKED levels: MSB first, no header. */
static void
bit_pack_msb(const uint16_t *v, size_t n, unsigned bw, dl_buf *out) {
    size_t bytes = (n * bw + 7) / 8;
    dl_error err;
    uint8_t *p = dl_buf_extend(out, bytes, &err);
    must(p != NULL ? DL_OK : DL_ERR_NOMEM, &err);
    memset(p, 0, bytes);
    size_t bit = 0;
    for (size_t i = 0; i < n; i++) {
        for (unsigned b = bw; b > 0; b--, bit++) {
            if ((v[i] >> (b - 1)) & 1u) {
                p[bit / 8] = (uint8_t)(p[bit / 8] | (0x80u >> (bit % 8)));
            }
        }
    }
}

static void
encode_levels(const pqt_page *p, const uint16_t *levels, int16_t max, bool v2, dl_buf *out) {
    dl_error err;
    unsigned bw = dl_pq_bit_width((uint64_t)max);
    if (!v2 && p->levels_bit_packed) {
        bit_pack_msb(levels, (size_t)p->num_values, bw, out);
        return;
    }
    must(dl_pq_rle_encode_u16(levels, (size_t)p->num_values, bw,
                              v2 ? DL_PQ_RLE_BARE : DL_PQ_RLE_LENGTH_PREFIX, out, &err),
         &err);
}

static void
compress_body(int32_t codec, const uint8_t *src, size_t len, dl_buf *out) {
    dl_error err;
    dl_pq_codec_ctx ctx;
    dl_pq_codec_ctx_init(&ctx, NULL);
    must(dl_pq_codec_compress(&ctx, codec, DL_PQ_CODEC_LEVEL_DEFAULT, src, len, out, &err), &err);
    dl_pq_codec_ctx_destroy(&ctx);
}

void
pqt_add_page(pqt_file *f, size_t ci, const pqt_page *p) {
    pqt_column *c = &f->cols[ci];
    dl_error err;
    dl_buf levels;
    dl_buf body;
    dl_buf comp;
    dl_buf_init(&levels, NULL);
    dl_buf_init(&body, NULL);
    dl_buf_init(&comp, NULL);
    bool v2 = p->type == DL_PQ_PAGE_DATA_V2;
    size_t rep_len = 0;
    if (p->rep != NULL) {
        encode_levels(p, p->rep, p->max_rep, v2, &levels);
        rep_len = levels.len;
    }
    if (p->def != NULL) {
        encode_levels(p, p->def, p->max_def, v2, &levels);
    }
    size_t def_len = levels.len - rep_len;
    if (!v2) {
        must(dl_buf_append(&body, levels.data, levels.len, &err), &err);
    }
    must(dl_buf_append(&body, p->values, p->values_len, &err), &err);
    bool raw = v2 && p->v2_uncompressed;
    if (raw) {
        must(dl_buf_append(&comp, body.data, body.len, &err), &err);
    } else {
        compress_body(c->codec, body.data, body.len, &comp);
    }
    dl_buf page;
    dl_buf_init(&page, NULL);
    if (v2) {
        must(dl_buf_append(&page, levels.data, levels.len, &err), &err);
    }
    must(dl_buf_append(&page, comp.data, comp.len, &err), &err);

    dl_pq_page_header ph;
    memset(&ph, 0, sizeof(ph));
    ph.type = p->type;
    ph.uncompressed_page_size = (int32_t)((v2 ? levels.len : 0) + body.len);
    ph.compressed_page_size = (int32_t)page.len;
    if (p->with_crc) {
        ph.has_crc = true;
        ph.crc = (int32_t)crc32(crc32(0L, Z_NULL, 0), page.data, (uInt)page.len);
        if (p->corrupt_crc) {
            ph.crc ^= 0x10;
        }
    }
    if (p->type == DL_PQ_PAGE_DICTIONARY) {
        ph.has_dictionary_page_header = true;
        ph.dictionary_page_header.num_values = p->num_values;
        ph.dictionary_page_header.encoding = DL_PQ_ENCODING_PLAIN;
        c->dict_offset = (int64_t)c->chunk.len;
    } else if (v2) {
        ph.has_data_page_header_v2 = true;
        dl_pq_data_page_header_v2 *h = &ph.data_page_header_v2;
        h->num_values = p->num_values;
        h->num_nulls = p->num_nulls;
        h->num_rows = p->num_rows;
        h->encoding = p->encoding;
        h->definition_levels_byte_length = (int32_t)def_len;
        h->repetition_levels_byte_length = (int32_t)rep_len;
        h->is_compressed = !raw;
        h->has_is_compressed = raw;
    } else {
        ph.has_data_page_header = true;
        dl_pq_data_page_header *h = &ph.data_page_header;
        h->num_values = p->num_values;
        h->encoding = p->encoding;
        h->definition_level_encoding =
            p->levels_bit_packed ? DL_PQ_ENCODING_BIT_PACKED : DL_PQ_ENCODING_RLE;
        h->repetition_level_encoding = h->definition_level_encoding;
    }
    if (p->type != DL_PQ_PAGE_DICTIONARY) {
        if (c->data_offset < 0) {
            c->data_offset = (int64_t)c->chunk.len;
        }
        c->num_values += p->num_values;
    }
    must(dl_pq_page_header_encode(&ph, &c->chunk, &err), &err);
    must(dl_buf_append(&c->chunk, page.data, page.len, &err), &err);
    dl_buf_destroy(&page);
    dl_buf_destroy(&levels);
    dl_buf_destroy(&body);
    dl_buf_destroy(&comp);
}

void
pqt_end_row_group(pqt_file *f, int64_t num_rows) {
    dl_error err;
    size_t g = f->n_rgs++;
    dl_pq_row_group *rg = &f->rgs[g];
    memset(rg, 0, sizeof(*rg));
    rg->num_rows = num_rows;
    rg->columns = f->chunks[g];
    rg->n_columns = f->n_cols;
    static dl_pq_encoding encodings[] = {DL_PQ_ENCODING_PLAIN, DL_PQ_ENCODING_RLE};
    for (size_t i = 0; i < f->n_cols; i++) {
        pqt_column *c = &f->cols[i];
        dl_pq_column_chunk *cc = &f->chunks[g][i];
        memset(cc, 0, sizeof(*cc));
        int64_t at = (int64_t)f->body.len;
        must(dl_buf_append(&f->body, c->chunk.data, c->chunk.len, &err), &err);
        cc->file_offset = at;
        cc->has_meta_data = true;
        dl_pq_column_metadata *m = &cc->meta_data;
        m->type = c->type;
        m->encodings = encodings;
        m->n_encodings = 2;
        m->path_in_schema = dl_arena_alloc_array(&f->arena, c->n_path, sizeof(dl_str));
        for (size_t k = 0; k < c->n_path; k++) {
            m->path_in_schema[k] = dl_str_from_cstr(c->path[k]);
        }
        m->n_path_in_schema = c->n_path;
        m->codec = c->codec;
        m->num_values = c->num_values;
        m->total_uncompressed_size = (int64_t)c->chunk.len;
        m->total_compressed_size = (int64_t)c->chunk.len;
        m->data_page_offset = c->data_offset >= 0 ? at + c->data_offset : at;
        if (c->dict_offset >= 0) {
            m->dictionary_page_offset = at + c->dict_offset;
            m->has_dictionary_page_offset = true;
        }
        if (c->has_stats) {
            m->statistics = c->stats;
            m->has_statistics = true;
        }
        rg->total_byte_size += (int64_t)c->chunk.len;
        dl_buf_reset(&c->chunk);
        c->num_values = 0;
        c->dict_offset = -1;
        c->data_offset = -1;
        c->has_stats = false;
    }
}

void
pqt_finish(pqt_file *f, dl_buf *out) {
    dl_error err;
    dl_pq_file_metadata md;
    memset(&md, 0, sizeof(md));
    md.version = 1;
    md.schema = f->schema;
    md.n_schema = f->n_schema;
    md.row_groups = f->rgs;
    md.n_row_groups = f->n_rgs;
    for (size_t g = 0; g < f->n_rgs; g++) {
        md.num_rows += f->rgs[g].num_rows;
    }
    must(dl_buf_append(out, f->body.data, f->body.len, &err), &err);
    size_t before = out->len;
    must(dl_pq_file_metadata_encode(&md, out, &err), &err);
    uint32_t len = (uint32_t)(out->len - before);
    uint8_t trailer[8] = {(uint8_t)len,
                          (uint8_t)(len >> 8),
                          (uint8_t)(len >> 16),
                          (uint8_t)(len >> 24),
                          'P',
                          'A',
                          'R',
                          '1'};
    must(dl_buf_append(out, trailer, sizeof(trailer), &err), &err);
}
