/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Import of Arrow C Data Interface arrays (arrow_abi.h) as vectors: the way data made by
 * another library (pyarrow, polars, pandas through pyarrow, DuckDB) enters the engine.
 *
 * Ownership: the imported ArrowArray is moved into a refcounted owner; every buffer the
 * vectors share with it is a foreign dl_vec_buffer holding one reference, and the array is
 * released when the last of them goes (on any thread, as Arrow allows).
 *
 * What is shared and what is copied (CDataInterface.rst, Columnar.rst):
 *   values of fixed width whose layout is the engine's (int8..int64, float, double,
 *     decimal128, date32, timestamp[us], the views of utf8_view/binary_view and their data
 *     buffers, the bytes of utf8/binary)                                         shared
 *   validity bitmaps and booleans (the engine reads bitmaps by words past their end, which
 *     a foreign buffer need not allow; n/8 bytes)                                 copied
 *   utf8/binary with offsets: the engine stores 16-byte views, built here over the shared
 *     bytes; list offsets that do not start at 0, or are 64-bit                   built
 *   unsigned integers (widened), timestamps in s/ms/ns, date64, dictionary indices  converted
 * Strings are checked to be UTF-8, nanoseconds must be whole microseconds and date64 whole
 * days: a value the engine cannot hold is refused, never cut. Arrow types without a Spark type
 * (half floats, durations other than microseconds, unions, fixed-size lists, 256-bit decimals,
 * run-end encoding) are refused naming the column.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "vector/vec_arrow.h"
#include "vector/vector_int.h"

typedef struct import_owner {
    struct ArrowArray array; /* moved in; released with the last reference */
    const dl_allocator *alloc;
    _Atomic(int64_t) refs;
} import_owner;

typedef struct import_ctx {
    import_owner *owner;
    const dl_allocator *alloc;
    const char *column; /* the top-level column, for messages */
} import_ctx;

/* The Arrow array's buffers are const; foreign dl_vec_buffers are never written (capacity 0),
 * so the qualifier is dropped here, once. */
static void *
unconst(const void *p) {
    union {
        const void *c;
        void *m;
    } u = {.c = p};

    return u.m;
}

static void
owner_unref(import_owner *o) {
    if (atomic_fetch_sub_explicit(&o->refs, 1, memory_order_acq_rel) != 1) {
        return;
    }
    if (o->array.release != NULL) {
        o->array.release(&o->array);
    }
    dl_mem_free(o->alloc, o, sizeof(*o));
}

static void
release_wrapped(void *ctx, void *data) {
    (void)data;
    owner_unref(ctx);
}

/* A foreign buffer over size bytes at data, holding a reference to the owner. */
static dl_status
wrap(import_ctx *cx, const void *data, size_t size, dl_vec_buffer **out, dl_error *err) {
    atomic_fetch_add_explicit(&cx->owner->refs, 1, memory_order_relaxed);
    dl_status s =
        dl_vec_buffer_wrap(cx->alloc, unconst(data), size, release_wrapped, cx->owner, out, err);
    if (s != DL_OK) {
        owner_unref(cx->owner);
    }
    return s;
}

static dl_status
owned(import_ctx *cx, size_t size, dl_vec_buffer **out, dl_error *err) {
    DL_TRY(dl_vec_buffer_new(cx->alloc, dl_vec_round_up(size > 0 ? size : 1), out, err));
    memset((*out)->data, 0, dl_vec_round_up(size > 0 ? size : 1));
    (*out)->size = size;
    return DL_OK;
}

/* ---- types ----------------------------------------------------------------------------------- */

static dl_status
unsupported(const char *column, const char *format, const char *what, dl_error *err) {
    return dl_error_set(err, DL_ERR_UNSUPPORTED,
                        "column '%s': the Arrow type '%s' (%s) has no Spark type; cast it first "
                        "(to int, bigint, double, decimal, string, timestamp ...)",
                        column, format, what);
}

static dl_status import_type_node(const struct ArrowSchema *s, const char *column, dl_arena *arena,
                                  const dl_type **out, dl_error *err);

static dl_status
nested_type(const struct ArrowSchema *s, const char *column, dl_arena *arena, const dl_type **out,
            dl_error *err) {
    const char *f = s->format;
    if (f[1] == 's') {
        dl_type_field *fields =
            dl_arena_alloc_array(arena, (size_t)DL_MAX(s->n_children, 1), sizeof(dl_type_field));
        DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory importing an Arrow schema");
        for (int64_t i = 0; i < s->n_children; i++) {
            const struct ArrowSchema *c = s->children[i];
            fields[i].name = c->name != NULL ? c->name : "";
            fields[i].is_nullable = (c->flags & ARROW_FLAG_NULLABLE) != 0;
            DL_TRY(import_type_node(c, column, arena, &fields[i].type, err));
        }
        return dl_vec_type_struct(arena, fields, (int32_t)s->n_children, out, err);
    }
    DL_CHECK(s->n_children == 1, err, DL_ERR_INVALID_ARG,
             "column '%s': an Arrow list or map has one child, this one has %lld", column,
             (long long)s->n_children);
    const struct ArrowSchema *c = s->children[0];
    if (f[1] == 'l' || f[1] == 'L') {
        const dl_type *element = NULL;
        DL_TRY(import_type_node(c, column, arena, &element, err));
        return dl_vec_type_array(arena, element, (c->flags & ARROW_FLAG_NULLABLE) != 0, out, err);
    }
    if (f[1] == 'm') {
        DL_CHECK(c->n_children == 2, err, DL_ERR_INVALID_ARG,
                 "column '%s': an Arrow map's entries need a key and a value", column);
        const dl_type *key = NULL;
        const dl_type *value = NULL;
        DL_TRY(import_type_node(c->children[0], column, arena, &key, err));
        DL_TRY(import_type_node(c->children[1], column, arena, &value, err));
        bool value_null = (c->children[1]->flags & ARROW_FLAG_NULLABLE) != 0;
        return dl_vec_type_map(arena, key, value, value_null, out, err);
    }
    return unsupported(column, f, "a union, fixed-size list or run-end encoded array", err);
}

static dl_status
decimal_type(const char *f, const char *column, dl_arena *arena, const dl_type **out,
             dl_error *err) {
    /* "d:precision,scale[,bitwidth]" */
    char *end = NULL;
    long precision = strtol(f + 2, &end, 10);
    long scale = *end == ',' ? strtol(end + 1, &end, 10) : -1;
    long bits = *end == ',' ? strtol(end + 1, &end, 10) : 128;
    DL_CHECK(*end == '\0' && scale >= 0, err, DL_ERR_INVALID_ARG,
             "column '%s': bad Arrow decimal format '%s'", column, f);
    if (bits != 128) {
        return unsupported(column, f, "a decimal that is not 128 bits", err);
    }
    DL_CHECK(scale >= 0 && precision <= DL_VEC_DECIMAL_MAX_PRECISION, err, DL_ERR_UNSUPPORTED,
             "column '%s': decimal(%ld,%ld) is outside Spark's decimals (precision <= 38, scale >= "
             "0)",
             column, precision, scale);
    return dl_vec_type_decimal(arena, (int)precision, (int)scale, out, err);
}

/* The Spark type of Arrow's fixed formats without parameters, or -1. */
static int
prim_id(const char *f) {
    static const struct {
        const char *format;
        dl_type_id id;
    } map[] = {
        {"n", DL_VEC_TYPE_NULL},          {"b", DL_VEC_TYPE_BOOLEAN},
        {"c", DL_VEC_TYPE_BYTE},          {"C", DL_VEC_TYPE_SHORT},
        {"s", DL_VEC_TYPE_SHORT},         {"S", DL_VEC_TYPE_INT},
        {"i", DL_VEC_TYPE_INT},           {"I", DL_VEC_TYPE_LONG},
        {"l", DL_VEC_TYPE_LONG},          {"L", DL_VEC_TYPE_LONG},
        {"f", DL_VEC_TYPE_FLOAT},         {"g", DL_VEC_TYPE_DOUBLE},
        {"u", DL_VEC_TYPE_STRING},        {"U", DL_VEC_TYPE_STRING},
        {"vu", DL_VEC_TYPE_STRING},       {"z", DL_VEC_TYPE_BINARY},
        {"Z", DL_VEC_TYPE_BINARY},        {"vz", DL_VEC_TYPE_BINARY},
        {"tdD", DL_VEC_TYPE_DATE},        {"tdm", DL_VEC_TYPE_DATE},
        {"tiM", DL_VEC_TYPE_INTERVAL_YM}, {"tDu", DL_VEC_TYPE_INTERVAL_DT},
    };

    for (size_t i = 0; i < DL_ARRAY_LEN(map); i++) {
        if (strcmp(f, map[i].format) == 0) {
            return (int)map[i].id;
        }
    }
    return -1;
}

static dl_status
import_type_node(const struct ArrowSchema *s, const char *column, dl_arena *arena,
                 const dl_type **out, dl_error *err) {
    if (s->dictionary != NULL) {
        return import_type_node(s->dictionary, column, arena, out, err);
    }
    const char *f = s->format;
    DL_CHECK(f != NULL, err, DL_ERR_INVALID_ARG, "column '%s': an Arrow schema without a format",
             column);
    int id = prim_id(f);
    if (id >= 0) {
        *out = dl_vec_type_prim((dl_type_id)id);
        return DL_OK;
    }
    if (f[0] == '+') {
        return nested_type(s, column, arena, out, err);
    }
    if (f[0] == 'd' && f[1] == ':') {
        return decimal_type(f, column, arena, out, err);
    }
    if (f[0] == 't' && f[1] == 's' && strchr("smun", f[2]) != NULL && f[2] != 0 && f[3] == ':') {
        bool has_zone = f[4] != 0;
        *out = dl_vec_type_prim(has_zone ? DL_VEC_TYPE_TIMESTAMP : DL_VEC_TYPE_TIMESTAMP_NTZ);
        return DL_OK;
    }
    return unsupported(column, f, f[0] == 'e' ? "half float" : "no Spark equivalent", err);
}

dl_status
dl_vec_arrow_import_type(const struct ArrowSchema *schema, dl_arena *arena, const dl_type **out,
                         dl_error *err) {
    DL_CHECK(schema != NULL && schema->release != NULL, err, DL_ERR_INVALID_ARG,
             "an Arrow schema that was released");
    DL_CHECK(schema->format != NULL && strcmp(schema->format, "+s") == 0, err, DL_ERR_INVALID_ARG,
             "an Arrow stream of record batches has a struct schema ('+s'), not '%s'",
             schema->format != NULL ? schema->format : "(none)");
    dl_type_field *fields =
        dl_arena_alloc_array(arena, (size_t)DL_MAX(schema->n_children, 1), sizeof(dl_type_field));
    DL_CHECK(fields != NULL, err, DL_ERR_NOMEM, "out of memory importing an Arrow schema");
    for (int64_t i = 0; i < schema->n_children; i++) {
        const struct ArrowSchema *c = schema->children[i];
        const char *name = c->name != NULL ? c->name : "";
        fields[i].name = name;
        fields[i].is_nullable = true;
        DL_TRY(import_type_node(c, name, arena, &fields[i].type, err));
    }
    return dl_vec_type_struct(arena, fields, (int32_t)schema->n_children, out, err);
}

/* ---- arrays ---------------------------------------------------------------------------------- */

static dl_status import_node(import_ctx *cx, const struct ArrowSchema *s,
                             const struct ArrowArray *a, const dl_type *type, int64_t start,
                             int64_t len, bool is_child, dl_vector **out, dl_error *err);

static const void *
buffer_at(const struct ArrowArray *a, int64_t i) {
    return i < a->n_buffers ? a->buffers[i] : NULL;
}

/* Copies the validity of elements [start, start + len), or leaves it absent. */
static dl_status
import_validity(import_ctx *cx, const struct ArrowArray *a, int64_t start, int64_t len,
                dl_vector *vec, dl_error *err) {
    const uint8_t *bits = buffer_at(a, 0);
    if (a->null_count == 0 || bits == NULL || len == 0) {
        return DL_OK;
    }
    dl_vec_buffer *buf = NULL;
    DL_TRY(owned(cx, dl_vec_bitmap_bytes(len), &buf, err));
    dl_vec_bits_copy(buf->data, 0, bits, start, len);
    vec->validity_buf = buf;
    vec->validity = buf->data;
    return DL_OK;
}

static void
set_data(dl_vector *vec, dl_vec_buffer *buf, const void *data) {
    dl_vec_buffer_unref(vec->data_buf);
    vec->data_buf = buf;
    vec->data = unconst(data);
    vec->capacity = 0;
}

/* uint64 to int64: values past INT64_MAX are refused. */
static dl_status
narrow_u64(import_ctx *cx, const uint64_t *src, int64_t n, const uint8_t *valid, int64_t *out,
           dl_error *err) {
    for (int64_t i = 0; i < n; i++) {
        uint64_t v = valid == NULL || dl_vec_bit_get(valid, i) ? src[i] : 0;
        DL_CHECK(v <= (uint64_t)INT64_MAX, err, DL_ERR_SCHEMA,
                 "column '%s': the unsigned value %llu at row %lld does not fit a bigint",
                 cx->column, (unsigned long long)v, (long long)i);
        out[i] = (int64_t)v;
    }
    return DL_OK;
}

/* Widens n unsigned values of Arrow format f ('C', 'S', 'I', 'L') at src into out. */
static dl_status
widen_unsigned(import_ctx *cx, char f, const void *src, int64_t n, const uint8_t *valid, void *out,
               dl_error *err) {
    if (f == 'L') {
        return narrow_u64(cx, src, n, valid, out, err);
    }
    for (int64_t i = 0; i < n; i++) {
        if (f == 'C') {
            ((int16_t *)out)[i] = ((const uint8_t *)src)[i];
        } else if (f == 'S') {
            ((int32_t *)out)[i] = ((const uint16_t *)src)[i];
        } else {
            ((int64_t *)out)[i] = ((const uint32_t *)src)[i];
        }
    }
    return DL_OK;
}

/* Seconds or milliseconds (scale 1000000 or 1000) to microseconds. */
static dl_status
scale_up(import_ctx *cx, const int64_t *src, int64_t n, int64_t scale, const uint8_t *valid,
         int64_t *out, dl_error *err) {
    for (int64_t i = 0; i < n; i++) {
        bool is_valid = valid == NULL || dl_vec_bit_get(valid, i);
        int64_t v = is_valid ? src[i] : 0;
        DL_CHECK(v <= INT64_MAX / scale && v >= INT64_MIN / scale, err, DL_ERR_SCHEMA,
                 "column '%s': the timestamp at row %lld is out of range", cx->column,
                 (long long)i);
        out[i] = v * scale;
    }
    return DL_OK;
}

/* Nanoseconds to microseconds, or date64's milliseconds to days (divisor 86400000): only
 * exact quotients, so no value is cut. */
static dl_status
scale_down(import_ctx *cx, const int64_t *src, int64_t n, int64_t divisor, const uint8_t *valid,
           void *out, dl_error *err) {
    for (int64_t i = 0; i < n; i++) {
        bool is_valid = valid == NULL || dl_vec_bit_get(valid, i);
        int64_t v = is_valid ? src[i] : 0;
        DL_CHECK(v % divisor == 0, err, DL_ERR_SCHEMA,
                 divisor == 1000 ? "column '%s': the timestamp at row %lld has nanoseconds "
                                   "(%lld), which Spark's microsecond timestamps cannot hold; "
                                   "round it to microseconds"
                                 : "column '%s': the date64 value at row %lld (%lld ms) is not a "
                                   "whole day",
                 cx->column, (long long)i, (long long)v);
        if (divisor == 1000) {
            ((int64_t *)out)[i] = v / divisor;
        } else {
            ((int32_t *)out)[i] = (int32_t)(v / divisor);
        }
    }
    return DL_OK;
}

/* Widens or rescales n values of Arrow format f at src into vec's own buffer. */
static dl_status
convert_values(import_ctx *cx, const char *f, const void *src, int64_t n, const uint8_t *valid,
               dl_vector *vec, dl_error *err) {
    size_t width = dl_vec_type_width(vec->type);
    dl_vec_buffer *buf = NULL;
    DL_TRY(owned(cx, (size_t)n * width, &buf, err));
    set_data(vec, buf, buf->data);
    if (strchr("CSIL", f[0]) != NULL) {
        return widen_unsigned(cx, f[0], src, n, valid, buf->data, err);
    }
    if (f[0] == 't' && f[1] == 's' && f[2] != 'n') {
        return scale_up(cx, src, n, f[2] == 's' ? 1000000 : 1000, valid, (int64_t *)buf->data, err);
    }
    return scale_down(cx, src, n, f[1] == 's' ? 1000 : 86400000, valid, buf->data, err);
}

static dl_status
import_fixed(import_ctx *cx, const struct ArrowSchema *s, const struct ArrowArray *a, int64_t start,
             int64_t len, dl_vector *vec, dl_error *err) {
    const char *f = s->format;
    const uint8_t *values = buffer_at(a, 1);
    size_t width = dl_vec_type_width(vec->type);
    bool is_same = strchr("CSIL", f[0]) == NULL && strcmp(f, "tdm") != 0 &&
                   !(f[0] == 't' && f[1] == 's' && f[2] != 'u');
    if (len == 0) {
        return DL_OK;
    }
    DL_CHECK(values != NULL, err, DL_ERR_INVALID_ARG,
             "column '%s': an Arrow array of %lld values without a values buffer", cx->column,
             (long long)len);
    if (vec->type->id == DL_VEC_TYPE_BOOLEAN) {
        dl_vec_buffer *buf = NULL;
        DL_TRY(owned(cx, dl_vec_bitmap_bytes(len), &buf, err));
        dl_vec_bits_copy(buf->data, 0, values, start, len);
        set_data(vec, buf, buf->data);
        return DL_OK;
    }
    if (is_same) {
        dl_vec_buffer *buf = NULL;
        DL_TRY(wrap(cx, values + (size_t)start * width, (size_t)len * width, &buf, err));
        set_data(vec, buf, buf->data);
        return DL_OK;
    }
    size_t src_width = f[0] == 'C' ? 1 : f[0] == 'S' ? 2 : f[0] == 'I' ? 4 : 8;
    return convert_values(cx, f, values + (size_t)start * src_width, len, vec->validity, vec, err);
}

static dl_status
check_utf8(import_ctx *cx, const dl_vector *vec, int64_t len, dl_error *err) {
    if (vec->type->id != DL_VEC_TYPE_STRING) {
        return DL_OK;
    }
    for (int64_t i = 0; i < len; i++) {
        if (vec->validity != NULL && !dl_vec_bit_get(vec->validity, i)) {
            continue;
        }
        dl_str v = dl_vec_get_str(vec, i);
        DL_CHECK(dl_utf8_valid(v.ptr, v.len), err, DL_ERR_SCHEMA,
                 "column '%s': the string at row %lld is not valid UTF-8; import it as binary",
                 cx->column, (long long)i);
    }
    return DL_OK;
}

/* utf8/binary with 32- or 64-bit offsets: views over the shared bytes. */
static dl_status
import_offsets_str(import_ctx *cx, const struct ArrowArray *a, bool is_large, int64_t start,
                   int64_t len, dl_vector *vec, dl_error *err) {
    const uint8_t *bytes = buffer_at(a, 2);
    const void *offs = buffer_at(a, 1);
    DL_CHECK(offs != NULL || len == 0, err, DL_ERR_INVALID_ARG,
             "column '%s': an Arrow string array without offsets", cx->column);
    dl_vec_buffer *views = NULL;
    DL_TRY(owned(cx, (size_t)len * sizeof(dl_vec_view), &views, err));
    set_data(vec, views, views->data);
    int64_t end = len == 0   ? 0
                  : is_large ? ((const int64_t *)offs)[start + len]
                             : ((const int32_t *)offs)[start + len];
    DL_CHECK(end <= INT32_MAX, err, DL_ERR_LIMIT,
             "column '%s': %lld bytes of strings in one Arrow array exceed the engine's 2 GiB per "
             "array; send smaller batches",
             cx->column, (long long)end);
    int32_t heap = 0;
    if (end > 12) {
        dl_vec_buffer *hb = NULL;
        DL_TRY(wrap(cx, bytes, (size_t)end, &hb, err));
        dl_status s = dl_vec_add_heap(vec, hb, &heap, err);
        dl_vec_buffer_unref(hb);
        DL_TRY(s);
    }
    dl_vec_view *v = (dl_vec_view *)(void *)views->data;
    for (int64_t i = 0; i < len; i++) {
        int64_t o =
            is_large ? ((const int64_t *)offs)[start + i] : ((const int32_t *)offs)[start + i];
        int64_t e = is_large ? ((const int64_t *)offs)[start + i + 1]
                             : ((const int32_t *)offs)[start + i + 1];
        DL_CHECK(o >= 0 && e >= o && e <= end, err, DL_ERR_INVALID_ARG,
                 "column '%s': Arrow string offsets out of order at row %lld", cx->column,
                 (long long)i);
        v[i].inlined.length = (int32_t)(e - o);
        if (e - o <= DL_VEC_VIEW_INLINE) {
            if (e > o) {
                memcpy(v[i].inlined.data, bytes + o, (size_t)(e - o));
            }
        } else {
            memcpy(v[i].ref.prefix, bytes + o, 4);
            v[i].ref.buffer_index = heap;
            v[i].ref.offset = (int32_t)o;
        }
    }
    return DL_OK;
}

/* utf8_view/binary_view: the views and their data buffers, shared. */
static dl_status
import_views(import_ctx *cx, const struct ArrowArray *a, int64_t start, int64_t len, dl_vector *vec,
             dl_error *err) {
    DL_CHECK(a->n_buffers >= 3, err, DL_ERR_INVALID_ARG,
             "column '%s': an Arrow view array needs its variadic sizes buffer", cx->column);
    const int64_t *sizes = a->buffers[a->n_buffers - 1];
    if (len > 0) {
        dl_vec_buffer *vb = NULL;
        DL_TRY(wrap(cx, (const uint8_t *)a->buffers[1] + (size_t)start * 16, (size_t)len * 16, &vb,
                    err));
        set_data(vec, vb, vb->data);
    }
    for (int64_t i = 0; i + 3 < a->n_buffers; i++) {
        dl_vec_buffer *hb = NULL;
        DL_TRY(wrap(cx, a->buffers[2 + i], (size_t)sizes[i], &hb, err));
        int32_t index = 0;
        dl_status s = dl_vec_add_heap(vec, hb, &index, err);
        dl_vec_buffer_unref(hb);
        DL_TRY(s);
        DL_CHECK(index == (int32_t)i, err, DL_ERR_INTERNAL, "heap %d imported as %d", (int)i,
                 (int)index);
    }
    const dl_vec_view *v = vec->data;
    for (int64_t i = 0; i < len; i++) {
        bool is_null = vec->validity != NULL && !dl_vec_bit_get(vec->validity, i);
        if (is_null || v[i].inlined.length <= DL_VEC_VIEW_INLINE) {
            continue;
        }
        const dl_vec_view *r = &v[i];
        DL_CHECK(r->ref.buffer_index >= 0 && r->ref.buffer_index < vec->n_heaps &&
                     r->ref.offset >= 0 &&
                     (int64_t)r->ref.offset + r->ref.length <=
                         (int64_t)vec->heaps[r->ref.buffer_index]->size,
                 err, DL_ERR_INVALID_ARG,
                 "column '%s': an Arrow view at row %lld points outside "
                 "its buffers",
                 cx->column, (long long)i);
    }
    return DL_OK;
}

static int64_t
offset_at(const void *offs, bool is_large, int64_t i) {
    return is_large ? ((const int64_t *)offs)[i] : ((const int32_t *)offs)[i];
}

/* Checks that offsets [start, start + len] never decrease; into out (when not NULL) rebased
 * to start at 0. */
static dl_status
check_offsets(import_ctx *cx, const void *offs, bool is_large, int64_t start, int64_t len,
              int32_t *out, dl_error *err) {
    int64_t first = offset_at(offs, is_large, start);
    int64_t prev = first;
    for (int64_t i = 0; i <= len; i++) {
        int64_t v = offset_at(offs, is_large, start + i);
        DL_CHECK(v >= prev, err, DL_ERR_INVALID_ARG,
                 "column '%s': Arrow list offsets decrease at row %lld", cx->column, (long long)i);
        prev = v;
        if (out != NULL) {
            out[i] = (int32_t)(v - first);
        }
    }
    return DL_OK;
}

/* List offsets of elements [start, start + len) rebased to 0; the child's range in out. */
static dl_status
import_list_offsets(import_ctx *cx, const struct ArrowArray *a, bool is_large, int64_t start,
                    int64_t len, dl_vector *vec, int64_t *out_first, int64_t *out_n,
                    dl_error *err) {
    const void *offs = buffer_at(a, 1);
    *out_first = 0;
    *out_n = 0;
    if (len == 0) {
        dl_vec_buffer *zero = NULL;
        DL_TRY(owned(cx, sizeof(int32_t), &zero, err));
        set_data(vec, zero, zero->data);
        return DL_OK;
    }
    DL_CHECK(offs != NULL, err, DL_ERR_INVALID_ARG, "column '%s': an Arrow list without offsets",
             cx->column);
    int64_t first = offset_at(offs, is_large, start);
    int64_t last = offset_at(offs, is_large, start + len);
    DL_CHECK(last - first <= INT32_MAX && first >= 0 && last >= first, err, DL_ERR_LIMIT,
             "column '%s': an Arrow list of %lld elements exceeds the engine's 2^31 per array",
             cx->column, (long long)(last - first));
    dl_vec_buffer *buf = NULL;
    bool is_shared = !is_large && first == 0;
    if (is_shared) {
        DL_TRY(wrap(cx, (const int32_t *)offs + start, (size_t)(len + 1) * 4, &buf, err));
    } else {
        DL_TRY(owned(cx, (size_t)(len + 1) * 4, &buf, err));
    }
    set_data(vec, buf, buf->data); /* owned by vec from here, also on failure */
    DL_TRY(check_offsets(cx, offs, is_large, start, len,
                         is_shared ? NULL : (int32_t *)(void *)buf->data, err));
    *out_first = first;
    *out_n = last - first;
    return DL_OK;
}

static void
replace_child(dl_vector *vec, int32_t i, dl_vector *child) {
    dl_vec_unref(vec->children[i]);
    vec->children[i] = child;
}

static dl_status
import_struct_children(import_ctx *cx, const struct ArrowSchema *s, const struct ArrowArray *a,
                       int64_t start, int64_t len, dl_vector *vec, dl_error *err) {
    for (int32_t i = 0; i < vec->n_children; i++) {
        const struct ArrowArray *c = a->children[i];
        DL_CHECK(c->length >= start - a->offset + len, err, DL_ERR_INVALID_ARG,
                 "column '%s': a struct child shorter than its parent", cx->column);
        dl_vector *child = NULL;
        DL_TRY(import_node(cx, s->children[i], c, vec->type->fields[i].type,
                           c->offset + (start - a->offset), len, true, &child, err));
        replace_child(vec, i, child);
    }
    return DL_OK;
}

static dl_status
import_nested(import_ctx *cx, const struct ArrowSchema *s, const struct ArrowArray *a,
              int64_t start, int64_t len, dl_vector *vec, dl_error *err) {
    DL_CHECK(a->n_children == s->n_children && a->n_children == vec->n_children, err,
             DL_ERR_INVALID_ARG, "column '%s': the Arrow array has %lld children, its schema %lld",
             cx->column, (long long)a->n_children, (long long)s->n_children);
    if (s->format[1] == 's') {
        return import_struct_children(cx, s, a, start, len, vec, err);
    }
    int64_t first = 0;
    int64_t n = 0;
    DL_TRY(import_list_offsets(cx, a, s->format[1] == 'L', start, len, vec, &first, &n, err));
    const struct ArrowArray *c = a->children[0];
    DL_CHECK(c->length >= first + n, err, DL_ERR_INVALID_ARG,
             "column '%s': a list's offsets point past its values", cx->column);
    dl_vector *child = NULL;
    DL_TRY(import_node(cx, s->children[0], c, vec->children[0]->type, c->offset + first, n, true,
                       &child, err));
    replace_child(vec, 0, child);
    return DL_OK;
}

/* Dictionary-encoded: int32 indices over the imported dictionary (nulls point at 0). */
static dl_status
import_dict(import_ctx *cx, const struct ArrowSchema *s, const struct ArrowArray *a,
            const dl_type *type, int64_t start, int64_t len, dl_vector *vec, dl_error *err) {
    const struct ArrowArray *d = a->dictionary;
    DL_CHECK(d != NULL, err, DL_ERR_INVALID_ARG,
             "column '%s': a dictionary-encoded Arrow array without its dictionary", cx->column);
    dl_vector *dict = NULL;
    DL_TRY(import_node(cx, s->dictionary, d, type, d->offset, d->length, true, &dict, err));
    dl_status st = dl_vec_set_dict(vec, dict, err);
    dl_vec_unref(dict);
    DL_TRY(st);
    DL_TRY(import_validity(cx, a, start, len, vec, err));
    dl_vec_buffer *buf = NULL;
    DL_TRY(owned(cx, (size_t)len * 4, &buf, err));
    set_data(vec, buf, buf->data);
    const char *f = s->format;
    const void *src = buffer_at(a, 1);
    int32_t *idx = (int32_t *)(void *)buf->data;
    for (int64_t i = 0; i < len; i++) {
        if (vec->validity != NULL && !dl_vec_bit_get(vec->validity, i)) {
            continue; /* stays 0 */
        }
        int64_t k = start + i;
        int64_t v = f[0] == 'c'   ? ((const int8_t *)src)[k]
                    : f[0] == 'C' ? ((const uint8_t *)src)[k]
                    : f[0] == 's' ? ((const int16_t *)src)[k]
                    : f[0] == 'S' ? ((const uint16_t *)src)[k]
                    : f[0] == 'i' ? ((const int32_t *)src)[k]
                    : f[0] == 'I' ? ((const uint32_t *)src)[k]
                                  : ((const int64_t *)src)[k];
        DL_CHECK(v >= 0 && v < d->length, err, DL_ERR_INVALID_ARG,
                 "column '%s': dictionary index %lld at row %lld is outside the dictionary of %lld",
                 cx->column, (long long)v, (long long)i, (long long)d->length);
        idx[i] = (int32_t)v;
    }
    vec->length = len;
    return DL_OK;
}

static dl_status
import_node(import_ctx *cx, const struct ArrowSchema *s, const struct ArrowArray *a,
            const dl_type *type, int64_t start, int64_t len, bool is_child, dl_vector **out,
            dl_error *err) {
    DL_CHECK(len <= DL_VEC_MAX_LENGTH, err, DL_ERR_LIMIT,
             "column '%s': an Arrow array of %lld rows exceeds the engine's 2^31 per array",
             cx->column, (long long)len);
    dl_vector *vec = NULL;
    DL_TRY(dl_vec_new(cx->alloc, type, 0, &vec, err));
    dl_status st = DL_OK;
    const char *f = s->format;
    if (s->dictionary != NULL) {
        st = import_dict(cx, s, a, type, start, len, vec, err);
        if (st == DL_OK && is_child) {
            st = dl_vec_flatten(vec, err);
        }
    } else {
        st = import_validity(cx, a, start, len, vec, err);
        if (st == DL_OK && type->id == DL_VEC_TYPE_NULL) {
            dl_vec_buffer *buf = NULL;
            st = owned(cx, dl_vec_bitmap_bytes(len), &buf, err);
            if (st == DL_OK) {
                dl_vec_buffer_unref(vec->validity_buf);
                vec->validity_buf = buf;
                vec->validity = buf->data;
            }
        } else if (st == DL_OK && f[0] == '+') {
            st = import_nested(cx, s, a, start, len, vec, err);
        } else if (st == DL_OK && (strcmp(f, "vu") == 0 || strcmp(f, "vz") == 0)) {
            st = import_views(cx, a, start, len, vec, err);
        } else if (st == DL_OK && strchr("uUzZ", f[0]) != NULL && f[1] == 0) {
            st = import_offsets_str(cx, a, f[0] == 'U' || f[0] == 'Z', start, len, vec, err);
        } else if (st == DL_OK) {
            st = import_fixed(cx, s, a, start, len, vec, err);
        }
        vec->length = len;
        if (st == DL_OK && len > 0 && vec->data == NULL && dl_vec_type_width(type) > 0) {
            st = dl_error_set(err, DL_ERR_INTERNAL, "column '%s': nothing imported", cx->column);
        }
        if (st == DL_OK && (type->id == DL_VEC_TYPE_STRING)) {
            st = check_utf8(cx, vec, len, err);
        }
    }
    if (st != DL_OK) {
        dl_vec_unref(vec);
        return st;
    }
    *out = vec;
    return DL_OK;
}

/* Moves array into a new owner holding one reference (the caller's), or releases it. */
static dl_status
take_array(struct ArrowArray *array, const dl_allocator *alloc, import_owner **out, dl_error *err) {
    DL_CHECK(array != NULL && array->release != NULL, err, DL_ERR_INVALID_ARG,
             "an Arrow array that was released");
    import_owner *o = dl_mem_alloc_zero(alloc, sizeof(*o));
    if (o == NULL) {
        array->release(array);
        return dl_error_set(err, DL_ERR_NOMEM, "out of memory importing an Arrow array");
    }
    o->array = *array;
    array->release = NULL; /* moved */
    o->alloc = alloc;
    atomic_init(&o->refs, 1);
    *out = o;
    return DL_OK;
}

dl_status
dl_vec_arrow_import_field_type(const struct ArrowSchema *schema, dl_arena *arena,
                               const dl_type **out, dl_error *err) {
    DL_CHECK(schema != NULL && schema->release != NULL, err, DL_ERR_INVALID_ARG,
             "an Arrow schema that was released");
    return import_type_node(schema, schema->name != NULL ? schema->name : "", arena, out, err);
}

dl_status
dl_vec_arrow_import(const struct ArrowSchema *schema, struct ArrowArray *array, const dl_type *type,
                    const dl_allocator *alloc, dl_vector **out, dl_error *err) {
    *out = NULL;
    import_owner *o = NULL;
    DL_TRY(take_array(array, alloc, &o, err));
    import_ctx cx = {.owner = o, .alloc = alloc, .column = schema->name ? schema->name : ""};
    dl_status st = import_node(&cx, schema, &o->array, type, o->array.offset, o->array.length,
                               false, out, err);
    owner_unref(o);
    return st;
}

dl_status
dl_vec_arrow_import_batch(const struct ArrowSchema *schema, struct ArrowArray *array,
                          const dl_type *type, const dl_allocator *alloc, dl_vector **out_cols,
                          dl_error *err) {
    for (int32_t i = 0; i < type->n_fields; i++) {
        out_cols[i] = NULL;
    }
    import_owner *o = NULL;
    DL_TRY(take_array(array, alloc, &o, err));
    const struct ArrowArray *a = &o->array;
    dl_status st = DL_OK;
    if (a->n_children != type->n_fields || a->n_children != schema->n_children) {
        st = dl_error_set(err, DL_ERR_SCHEMA,
                          "an Arrow record batch of %lld columns in a stream of %d columns",
                          (long long)a->n_children, (int)type->n_fields);
    } else if (a->null_count != 0 && buffer_at(a, 0) != NULL) {
        st = dl_error_set(err, DL_ERR_INVALID_ARG,
                          "an Arrow record batch with null rows (its struct has a validity bitmap "
                          "with %lld nulls)",
                          (long long)a->null_count);
    }
    for (int32_t i = 0; st == DL_OK && i < type->n_fields; i++) {
        import_ctx cx = {.owner = o, .alloc = alloc, .column = type->fields[i].name};
        const struct ArrowArray *c = a->children[i];
        if (c->length < a->offset + a->length) {
            st = dl_error_set(err, DL_ERR_INVALID_ARG, "column '%s': shorter than its record batch",
                              cx.column);
            break;
        }
        st = import_node(&cx, schema->children[i], c, type->fields[i].type, c->offset + a->offset,
                         a->length, false, &out_cols[i], err);
    }
    if (st != DL_OK) {
        for (int32_t i = 0; i < type->n_fields; i++) {
            dl_vec_unref(out_cols[i]);
            out_cols[i] = NULL;
        }
    }
    owner_unref(o);
    return st;
}
