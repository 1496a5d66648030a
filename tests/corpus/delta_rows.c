/* SPDX-License-Identifier: Apache-2.0 */
#include "delta_rows.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/timefmt.h"
#include "delta/delta_scan.h"
#include "parquet/pq_reader.h"
#include "store/store.h"

/* ---- rendering ----------------------------------------------------------------------- */

static dl_status render(dl_json_writer *w, const dl_vector *v, int64_t row, int depth, dl_buf *tmp,
                        dl_error *err);

static int64_t
int_at(const dl_vector *flat, int64_t i) {
    switch (dl_vec_type_phys(flat->type)) {
    case DL_VEC_PHYS_I8:
        return ((const int8_t *)flat->data)[i];
    case DL_VEC_PHYS_I16:
        return ((const int16_t *)flat->data)[i];
    case DL_VEC_PHYS_I32:
        return ((const int32_t *)flat->data)[i];
    default:
        return ((const int64_t *)flat->data)[i];
    }
}

static dl_status
write_decimal(dl_json_writer *w, dl_i128 v, int scale, dl_buf *tmp, dl_error *err) {
    char digits[48];
    size_t n = 0;
    bool is_neg = v < 0;
    dl_u128 u = is_neg ? (dl_u128)0 - (dl_u128)v : (dl_u128)v;
    do {
        digits[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u != 0 || n <= (size_t)scale);
    dl_buf_reset(tmp);
    if (is_neg) {
        DL_TRY(dl_buf_append_byte(tmp, '-', err));
    }
    for (size_t i = n; i > 0; i--) {
        if (scale > 0 && i == (size_t)scale) {
            DL_TRY(dl_buf_append_byte(tmp, '.', err));
        }
        DL_TRY(dl_buf_append_byte(tmp, (uint8_t)digits[i - 1], err));
    }
    return dl_json_writer_string(w, dl_buf_view(tmp), err);
}

static dl_status
write_double(dl_json_writer *w, double d, dl_error *err) {
    if (isnan(d)) {
        return dl_json_writer_string_cstr(w, "NaN", err);
    }
    if (isinf(d)) {
        return dl_json_writer_string_cstr(w, d > 0 ? "Infinity" : "-Infinity", err);
    }
    return dl_json_writer_double(w, d, err);
}

static dl_status
write_binary(dl_json_writer *w, dl_str b, int depth, dl_buf *tmp, dl_error *err) {
    static const char hex[] = "0123456789ABCDEF";
    dl_buf_reset(tmp);
    for (size_t i = 0; i < b.len; i++) {
        uint8_t c = (uint8_t)b.ptr[i];
        if (depth > 0 && c >= 0x20 && c < 0x7f && c != '\\') {
            DL_TRY(dl_buf_append_byte(tmp, c, err));
            continue;
        }
        if (depth > 0) {
            DL_TRY(dl_buf_append(tmp, "\\x", 2, err));
        }
        DL_TRY(dl_buf_append_byte(tmp, (uint8_t)hex[c >> 4], err));
        DL_TRY(dl_buf_append_byte(tmp, (uint8_t)hex[c & 15], err));
    }
    return dl_json_writer_string(w, dl_buf_view(tmp), err);
}

static dl_status
write_timestamp(dl_json_writer *w, int64_t us, int depth, dl_error *err) {
    char text[DL_TS_STR_CAP];
    if (depth == 0) {
        (void)snprintf(text, sizeof(text), "%lld", (long long)us);
    } else {
        (void)dl_ts_format(us, DL_TS_STYLE_SPARK, text);
    }
    return dl_json_writer_string_cstr(w, text, err);
}

static dl_status
render_struct(dl_json_writer *w, const dl_vector *flat, int64_t i, int depth, dl_buf *tmp,
              dl_error *err) {
    DL_TRY(dl_json_writer_begin_object(w, err));
    for (int32_t f = 0; f < flat->n_children; f++) {
        DL_TRY(dl_json_writer_key_cstr(w, flat->type->fields[f].name, err));
        DL_TRY(render(w, flat->children[f], i, depth + 1, tmp, err));
    }
    return dl_json_writer_end_object(w, err);
}

static dl_status
render_list(dl_json_writer *w, const dl_vector *flat, int64_t i, int depth, dl_buf *tmp,
            dl_error *err) {
    int64_t start;
    int64_t end;
    dl_vec_list_bounds(flat, i, &start, &end);
    const dl_vector *child = flat->children[0];
    DL_TRY(dl_json_writer_begin_array(w, err));
    for (int64_t k = start; k < end; k++) {
        if (flat->type->id == DL_VEC_TYPE_MAP) {
            DL_TRY(dl_json_writer_begin_object(w, err));
            DL_TRY(dl_json_writer_key_cstr(w, "key", err));
            DL_TRY(render(w, child->children[0], k, depth + 1, tmp, err));
            DL_TRY(dl_json_writer_key_cstr(w, "value", err));
            DL_TRY(render(w, child->children[1], k, depth + 1, tmp, err));
            DL_TRY(dl_json_writer_end_object(w, err));
        } else {
            DL_TRY(render(w, child, k, depth + 1, tmp, err));
        }
    }
    return dl_json_writer_end_array(w, err);
}

static dl_status
render(dl_json_writer *w, const dl_vector *v, int64_t row, int depth, dl_buf *tmp, dl_error *err) {
    if (dl_vec_is_null(v, row)) {
        return dl_json_writer_null(w, err);
    }
    const dl_vector *flat;
    int64_t i = dl_vec_resolve(v, row, &flat);
    switch (flat->type->id) {
    case DL_VEC_TYPE_BOOLEAN:
        return dl_json_writer_bool(w, dl_vec_get_bool(flat, i), err);
    case DL_VEC_TYPE_BYTE:
    case DL_VEC_TYPE_SHORT:
    case DL_VEC_TYPE_INT:
        return dl_json_writer_int64(w, int_at(flat, i), err);
    case DL_VEC_TYPE_LONG: {
        char text[32];
        (void)snprintf(text, sizeof(text), "%lld", (long long)int_at(flat, i));
        return dl_json_writer_string_cstr(w, text, err);
    }
    case DL_VEC_TYPE_FLOAT:
        return write_double(w, (double)((const float *)flat->data)[i], err);
    case DL_VEC_TYPE_DOUBLE:
        return write_double(w, ((const double *)flat->data)[i], err);
    case DL_VEC_TYPE_DECIMAL:
        return write_decimal(w, ((const dl_i128 *)flat->data)[i], flat->type->scale, tmp, err);
    case DL_VEC_TYPE_STRING:
        return dl_json_writer_string(w, dl_vec_get_str(flat, i), err);
    case DL_VEC_TYPE_BINARY:
        return write_binary(w, dl_vec_get_str(flat, i), depth, tmp, err);
    case DL_VEC_TYPE_DATE: {
        char text[DL_DATE_STR_CAP];
        (void)dl_date_format(((const int32_t *)flat->data)[i], text);
        return dl_json_writer_string_cstr(w, text, err);
    }
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        return write_timestamp(w, ((const int64_t *)flat->data)[i], depth, err);
    case DL_VEC_TYPE_STRUCT:
        return render_struct(w, flat, i, depth, tmp, err);
    case DL_VEC_TYPE_ARRAY:
    case DL_VEC_TYPE_MAP:
        return render_list(w, flat, i, depth, tmp, err);
    default:
        return dl_json_writer_null(w, err);
    }
}

dl_status
dr_render_row(const dl_batch *batch, int64_t k, dl_buf *out, dl_error *err) {
    int64_t row = dl_vec_batch_row(batch, k);
    dl_buf tmp;
    dl_buf_init(&tmp, NULL);
    dl_json_writer w;
    dl_json_writer_init(&w, out, 0);
    dl_status st = dl_json_writer_begin_object(&w, err);
    for (int32_t c = 0; c < batch->n_cols && st == DL_OK; c++) {
        st = dl_json_writer_key_cstr(&w, batch->schema->fields[c].name, err);
        if (st == DL_OK) {
            st = render(&w, batch->cols[c], row, 0, &tmp, err);
        }
    }
    if (st == DL_OK) {
        st = dl_json_writer_end_object(&w, err);
    }
    dl_json_writer_destroy(&w);
    dl_buf_destroy(&tmp);
    return st;
}

/* ---- canonical form ------------------------------------------------------------------ */

static dl_status canon_val(dl_json_writer *w, dl_json_val v, bool is_top, const char *skip,
                           dl_error *err);

typedef struct member {
    dl_str key;
    dl_json_val val;
} member;

static int
cmp_member(const void *a, const void *b) {
    const member *x = a;
    const member *y = b;
    size_t n = x->key.len < y->key.len ? x->key.len : y->key.len;
    int c = n ? memcmp(x->key.ptr, y->key.ptr, n) : 0;
    return c != 0 ? c : (x->key.len > y->key.len) - (x->key.len < y->key.len);
}

static dl_status
canon_object(dl_json_writer *w, dl_json_val v, bool is_top, const char *skip, dl_error *err) {
    uint32_t n = dl_json_val_count(v);
    member *m = dl_mem_alloc_array(NULL, n ? n : 1, sizeof(member));
    DL_CHECK(m, err, DL_ERR_NOMEM, "out of memory");
    dl_json_iter it = dl_json_val_iter(v);
    uint32_t k = 0;
    while (k < n && dl_json_iter_next(&it, &m[k].key, &m[k].val)) {
        k += !(is_top && skip && dl_str_eq_cstr(m[k].key, skip));
    }
    if (is_top && k > 1) {
        qsort(m, k, sizeof(member), cmp_member);
    }
    dl_status st = dl_json_writer_begin_object(w, err);
    for (uint32_t i = 0; i < k && st == DL_OK; i++) {
        st = dl_json_writer_key(w, m[i].key, err);
        if (st == DL_OK) {
            st = canon_val(w, m[i].val, false, NULL, err);
        }
    }
    if (st == DL_OK) {
        st = dl_json_writer_end_object(w, err);
    }
    dl_mem_free(NULL, m, (n ? n : 1) * sizeof(member));
    return st;
}

static dl_status
canon_number(dl_json_writer *w, dl_json_val v, dl_error *err) {
    int64_t i;
    if (dl_json_val_num_kind(v) == DL_JSON_NUM_INT64 &&
        dl_json_val_get_int64(v, &i, NULL) == DL_OK) {
        return dl_json_writer_int64(w, i, err);
    }
    double d;
    DL_TRY(dl_json_val_get_double(v, &d, err));
    if (d == floor(d) && fabs(d) < 9e15) {
        return dl_json_writer_int64(w, (int64_t)d, err);
    }
    return dl_json_writer_double(w, d, err);
}

static dl_status
canon_array(dl_json_writer *w, dl_json_val v, dl_error *err) {
    DL_TRY(dl_json_writer_begin_array(w, err));
    dl_json_iter it = dl_json_val_iter(v);
    dl_json_val item;
    while (dl_json_iter_next(&it, NULL, &item)) {
        DL_TRY(canon_val(w, item, false, NULL, err));
    }
    return dl_json_writer_end_array(w, err);
}

static dl_status
canon_val(dl_json_writer *w, dl_json_val v, bool is_top, const char *skip, dl_error *err) {
    switch (dl_json_val_type(v)) {
    case DL_JSON_OBJECT:
        return canon_object(w, v, is_top, skip, err);
    case DL_JSON_ARRAY:
        return canon_array(w, v, err);
    case DL_JSON_NUMBER:
        return canon_number(w, v, err);
    default:
        return dl_json_writer_value(w, v, err);
    }
}

dl_status
dr_canon(dl_str json, const char *skip_key, dl_json_doc *doc, dl_buf *out, dl_error *err) {
    DL_TRY(dl_json_doc_parse(doc, json.ptr, json.len, err));
    dl_json_writer w;
    dl_json_writer_init(&w, out, 0);
    dl_status st = canon_val(&w, dl_json_doc_root(doc), true, skip_key, err);
    dl_json_writer_destroy(&w);
    return st;
}

/* ---- multisets ----------------------------------------------------------------------- */

void
dr_rows_init(dr_rows *r) {
    memset(r, 0, sizeof(*r));
    dl_arena_init(&r->arena, NULL, 0);
}

void
dr_rows_destroy(dr_rows *r) {
    dl_mem_free(NULL, r->rows, r->cap * sizeof(dl_str));
    dl_arena_destroy(&r->arena);
    memset(r, 0, sizeof(*r));
}

static dl_status
add_text(dr_rows *r, dl_str text, dl_error *err) {
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        void *p = dl_mem_realloc(NULL, r->rows, r->cap * sizeof(dl_str), cap * sizeof(dl_str));
        DL_CHECK(p, err, DL_ERR_NOMEM, "out of memory");
        r->rows = p;
        r->cap = cap;
    }
    char *copy = dl_arena_strndup(&r->arena, text.ptr ? text.ptr : "", text.len);
    DL_CHECK(copy, err, DL_ERR_NOMEM, "out of memory");
    r->rows[r->n++] = dl_str_make(copy, text.len);
    return DL_OK;
}

dl_status
dr_rows_add_json(dr_rows *r, dl_str json, dl_json_doc *doc, dl_buf *tmp, dl_error *err) {
    dl_buf_reset(tmp);
    DL_TRY(dr_canon(json, r->skip_key, doc, tmp, err));
    return add_text(r, dl_buf_view(tmp), err);
}

dl_status
dr_rows_add_batch(dr_rows *r, const dl_batch *batch, dl_json_doc *doc, dl_error *err) {
    dl_buf raw;
    dl_buf tmp;
    dl_buf_init(&raw, NULL);
    dl_buf_init(&tmp, NULL);
    dl_status st = DL_OK;
    for (int64_t k = 0; k < batch->count && st == DL_OK; k++) {
        dl_buf_reset(&raw);
        st = dr_render_row(batch, k, &raw, err);
        if (st == DL_OK) {
            st = dr_rows_add_json(r, dl_buf_view(&raw), doc, &tmp, err);
        }
    }
    dl_buf_destroy(&tmp);
    dl_buf_destroy(&raw);
    return st;
}

static int
cmp_str(const void *a, const void *b) {
    const dl_str *x = a;
    const dl_str *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = n ? memcmp(x->ptr, y->ptr, n) : 0;
    return c != 0 ? c : (x->len > y->len) - (x->len < y->len);
}

bool
dr_rows_equal(dr_rows *a, dr_rows *b, char *why, size_t cap) {
    if (a->n > 1) {
        qsort(a->rows, a->n, sizeof(dl_str), cmp_str);
    }
    if (b->n > 1) {
        qsort(b->rows, b->n, sizeof(dl_str), cmp_str);
    }
    size_t i = 0;
    size_t j = 0;
    while (i < a->n && j < b->n) {
        int c = cmp_str(&a->rows[i], &b->rows[j]);
        if (c != 0) {
            const dl_str *s = c < 0 ? &a->rows[i] : &b->rows[j];
            (void)snprintf(why, cap, "%zu rows vs %zu; the first difference: %s has %.*s", a->n,
                           b->n, c < 0 ? "the first" : "the second",
                           (int)(s->len > 600 ? 600 : s->len), s->ptr);
            return false;
        }
        i++;
        j++;
    }
    if (i < a->n || j < b->n) {
        const dl_str *s = i < a->n ? &a->rows[i] : &b->rows[j];
        (void)snprintf(why, cap, "%zu rows vs %zu; the first difference: %s has %.*s", a->n, b->n,
                       i < a->n ? "the first" : "the second", (int)(s->len > 600 ? 600 : s->len),
                       s->ptr);
        return false;
    }
    return true;
}

/* ---- sources of rows ----------------------------------------------------------------- */

dl_status
dr_rows_add_scan(dr_rows *r, dl_delta_snapshot *snap, int64_t *out_deleted, dl_error *err) {
    dl_delta_scan *scan = NULL;
    DL_TRY(dl_delta_scan_new(snap, NULL, &scan, err));
    dl_batch *batch = NULL;
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_status st = dl_vec_batch_new(NULL, dl_delta_scan_schema(scan), 0, &batch, err);
    bool has = st == DL_OK;
    while (st == DL_OK && has) {
        st = dl_delta_scan_next(scan, batch, &has, err);
        if (st == DL_OK && has) {
            st = dl_vec_batch_check(batch, err);
        }
        if (st == DL_OK && has) {
            st = dr_rows_add_batch(r, batch, &doc, err);
        }
    }
    if (out_deleted) {
        dl_delta_scan_stats stats;
        dl_delta_scan_get_stats(scan, &stats);
        *out_deleted = stats.rows_deleted;
    }
    dl_json_doc_destroy(&doc);
    dl_vec_batch_free(batch);
    dl_delta_scan_free(scan);
    return st;
}

/* Appends a path component to out[0, *n): "." does nothing, ".." drops the last one. */
static dl_status
add_component(char out[PATH_MAX], size_t *n, dl_str c, dl_error *err) {
    if (c.len == 2 && c.ptr[0] == '.' && c.ptr[1] == '.') {
        while (*n > 0 && out[*n - 1] != '/') {
            (*n)--;
        }
        *n = *n > 0 ? *n - 1 : 0;
        return DL_OK;
    }
    if (c.len == 0 || (c.len == 1 && c.ptr[0] == '.')) {
        return DL_OK;
    }
    DL_CHECK(*n + c.len + 2 < PATH_MAX, err, DL_ERR_LIMIT, "path too long");
    if (*n > 0) {
        out[(*n)++] = '/';
    }
    memcpy(out + *n, c.ptr, c.len);
    *n += c.len;
    return DL_OK;
}

/* The absolute form of path with "." and ".." resolved (lexically), without the leading '/',
 * into out: what a store rooted at "/" accepts. */
static dl_status
real_path(const char *path, char out[PATH_MAX], dl_error *err) {
    char abs[PATH_MAX * 2];
    char cwd[PATH_MAX];
    if (path[0] == '/') {
        (void)snprintf(abs, sizeof(abs), "%s", path);
    } else {
        DL_CHECK(getcwd(cwd, sizeof(cwd)), err, DL_ERR_IO, "getcwd failed");
        (void)snprintf(abs, sizeof(abs), "%s/%s", cwd, path);
    }
    size_t n = 0;
    const char *p = abs;
    while (*p) {
        while (*p == '/') {
            p++;
        }
        const char *end = strchr(p, '/');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        DL_TRY(add_component(out, &n, dl_str_make(p, len), err));
        p += len;
    }
    out[n] = '\0';
    return DL_OK;
}

dl_status
dr_rows_add_parquet(dr_rows *r, const char *path, dl_error *err) {
    char real[PATH_MAX];
    DL_TRY(real_path(path, real, err));
    path = real;
    dl_store *store = NULL;
    DL_TRY(dl_store_local_new("/", NULL, &store, err));
    dl_pq_file *file = NULL;
    dl_pq_reader *rd = NULL;
    dl_batch *batch = NULL;
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_status st = dl_pq_file_open(store, path, NULL, &file, err);
    if (st == DL_OK) {
        st = dl_pq_reader_new(file, NULL, &rd, err);
    }
    if (st == DL_OK) {
        st = dl_vec_batch_new(NULL, dl_pq_reader_schema(rd), 0, &batch, err);
    }
    while (st == DL_OK) {
        st = dl_pq_reader_next(rd, batch, err);
        if (st != DL_OK || batch->count == 0) {
            break;
        }
        st = dr_rows_add_batch(r, batch, &doc, err);
    }
    dl_json_doc_destroy(&doc);
    dl_vec_batch_free(batch);
    dl_pq_reader_free(rd);
    dl_pq_file_free(file);
    dl_store_free(store);
    return st;
}

dl_status
dr_rows_add_jsonl(dr_rows *r, const char *path, dl_error *err) {
    char real[PATH_MAX];
    DL_TRY(real_path(path, real, err));
    path = real;
    dl_store *store = NULL;
    DL_TRY(dl_store_local_new("/", NULL, &store, err));
    dl_buf text;
    dl_buf tmp;
    dl_buf_init(&text, NULL);
    dl_buf_init(&tmp, NULL);
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_status st = dl_store_read_all(store, path, &text, err);
    dl_json_lines it;
    dl_json_lines_init(&it, (const char *)text.data, text.len);
    dl_str line;
    while (st == DL_OK && dl_json_lines_next(&it, &line)) {
        if (line.len > 0) {
            st = dr_rows_add_json(r, line, &doc, &tmp, err);
        }
    }
    dl_json_doc_destroy(&doc);
    dl_buf_destroy(&tmp);
    dl_buf_destroy(&text);
    dl_store_free(store);
    return st;
}
