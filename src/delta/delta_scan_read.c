/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading one unit of a scan (delta_scan.h): a data file's batches in the table's terms
 * (PROTOCOL.md, "Column Mapping", "Deletion Vectors", "Type Widening").
 *
 * Per file, each requested data column gets a conversion plan from the file's field to the
 * table's field, mirroring the table type:
 *
 *   RELABEL  same values, the table's type: the file's vector shared (no copy) under the
 *            table's type (decimal precision, timestamp vs timestamp_ntz, string vs binary)
 *   WIDEN    values converted element by element into a new vector (type widening)
 *   NULL     the file lacks the column or field: all null
 *   STRUCT   fields matched by field id, physical name or name; when the file's fields line
 *            up one to one with the table's, the vector is shared and only its children and
 *            type replaced; otherwise a new struct vector takes the converted children
 *   LIST     arrays and maps: offsets and validity shared, the element (or the map's
 *            key/value entries) converted
 *
 * so batches always carry the table's logical names and types, and vectors never point at
 * types of the Parquet reader (which die with it). Partition columns are CONST vectors of
 * the file's typed partition values. The deletion vector is loaded once per file and turned
 * into each batch's selection by file row number (the Parquet reader reports the first row of
 * every batch, also when it skips row groups or pages).
 */
#include <string.h>

#include "delta/delta_scan_int.h"
#include "vector/vec_buffer.h"

typedef enum conv_kind {
    CONV_RELABEL = 0,
    CONV_WIDEN = 1,
    CONV_NULL = 2,
    CONV_STRUCT = 3,
    CONV_LIST = 4,
} conv_kind;

typedef struct conv conv;

struct conv {
    conv_kind kind;
    const dl_type *dst;
    int32_t n_children;
    conv **children;    /* STRUCT: one per table field; LIST: the element / entries */
    int32_t *src_index; /* STRUCT: the file's child for each table field, -1 when absent */
    bool is_aligned;    /* STRUCT: src_index[i] == i for all i, and as many children */
};

struct dl_delta_scan_reader {
    dl_delta_scan *scan;
    const dl_delta_file *file;
    const dl_allocator *alloc;
    dl_arena arena; /* plans and the row-group filter */
    dl_buf path;    /* the data file, relative to the store it is read from */
    dl_store *fs_root;
    dl_pq_file *pq;
    bool is_pq_borrowed; /* pq is the scan's (a row-group unit) */
    int32_t row_group;   /* the unit's row group, -1 for the whole file */
    dl_pq_scratch *scratch;
    dl_pq_reader *rd;
    dl_batch *pq_batch;
    const dl_pq_field **top; /* per output column: the file's top-level field, or NULL */
    conv **convs;            /* per output column (NULL for partition columns) */
    int32_t *pq_index;       /* per output column: its column in pq_batch, -1 */
    const dl_delta_dv *dv;   /* the file's deletion vector: dv_owned, or the unit's */
    dl_delta_dv *dv_owned;
    int64_t rows_deleted;
    bool is_done;
    uint32_t sel[DL_BATCH_CAPACITY];
};

/* ---- matching the file's fields ------------------------------------------------------ */

/* The child of src (a struct field, or the root) that holds table field f. */
static const dl_pq_field *
match_child(const dl_pq_field *src, const dl_delta_field *f, dl_delta_cm_mode mode) {
    if (mode == DL_DELTA_CM_ID && f->has_column_id && f->column_id >= INT32_MIN &&
        f->column_id <= INT32_MAX) {
        const dl_pq_field *c = dl_pq_field_find_id(src, (int32_t)f->column_id);
        if (c) {
            return c;
        }
    }
    const char *name = dl_delta_field_physical_name(f, mode);
    const dl_pq_field *c = dl_pq_field_find(src, &name, 1, false);
    return c ? c : dl_pq_field_find(src, &name, 1, true);
}

static int32_t
child_index(const dl_pq_field *parent, const dl_pq_field *c) {
    for (size_t i = 0; i < parent->n_children; i++) {
        if (parent->children[i] == c) {
            return (int32_t)i;
        }
    }
    return -1;
}

/* ---- conversion plans ---------------------------------------------------------------- */

static bool
is_int_id(dl_type_id id) {
    return id == DL_VEC_TYPE_BYTE || id == DL_VEC_TYPE_SHORT || id == DL_VEC_TYPE_INT ||
           id == DL_VEC_TYPE_LONG;
}

static int
int_rank(dl_type_id id) {
    return id == DL_VEC_TYPE_BYTE ? 1 : id == DL_VEC_TYPE_SHORT ? 2 : id == DL_VEC_TYPE_INT ? 3 : 4;
}

/* How a primitive of type s reads as type d; false when it cannot. */
static bool
primitive_kind(const dl_type *s, const dl_type *d, conv_kind *out) {
    *out = CONV_RELABEL;
    if (s->id == DL_VEC_TYPE_NULL || d->id == DL_VEC_TYPE_NULL) {
        *out = CONV_NULL;
        return true;
    }
    if (s->id == d->id) {
        if (s->id == DL_VEC_TYPE_DECIMAL && s->scale != d->scale) {
            *out = CONV_WIDEN;
            return d->scale > s->scale && d->precision - d->scale >= s->precision - s->scale;
        }
        return true;
    }
    bool is_ts = (s->id == DL_VEC_TYPE_TIMESTAMP || s->id == DL_VEC_TYPE_TIMESTAMP_NTZ) &&
                 (d->id == DL_VEC_TYPE_TIMESTAMP || d->id == DL_VEC_TYPE_TIMESTAMP_NTZ);
    bool is_bytes = (s->id == DL_VEC_TYPE_STRING || s->id == DL_VEC_TYPE_BINARY) &&
                    (d->id == DL_VEC_TYPE_STRING || d->id == DL_VEC_TYPE_BINARY);
    if (is_ts || is_bytes) {
        return true;
    }
    *out = CONV_WIDEN;
    if (is_int_id(s->id)) {
        return (is_int_id(d->id) && int_rank(d->id) > int_rank(s->id)) ||
               d->id == DL_VEC_TYPE_DOUBLE || d->id == DL_VEC_TYPE_DECIMAL;
    }
    return (s->id == DL_VEC_TYPE_FLOAT && d->id == DL_VEC_TYPE_DOUBLE) ||
           (s->id == DL_VEC_TYPE_DATE && d->id == DL_VEC_TYPE_TIMESTAMP_NTZ);
}

typedef struct plan_ctx {
    dl_arena *arena;
    dl_delta_cm_mode mode;
    const char *column; /* the top-level column, for messages */
} plan_ctx;

static dl_status plan_field(plan_ctx *x, const dl_delta_field *f, const dl_type *dst,
                            const dl_pq_field *src, conv **out, dl_error *err);

static dl_status
new_conv(plan_ctx *x, conv_kind kind, const dl_type *dst, int32_t n_children, conv **out,
         dl_error *err) {
    conv *c = dl_arena_alloc_zero(x->arena, sizeof(*c));
    DL_CHECK(c, err, DL_ERR_NOMEM, "out of memory planning a read");
    c->kind = kind;
    c->dst = dst;
    c->n_children = n_children;
    if (n_children > 0) {
        c->children = dl_arena_alloc_array(x->arena, (size_t)n_children, sizeof(conv *));
        c->src_index = dl_arena_alloc_array(x->arena, (size_t)n_children, sizeof(int32_t));
        DL_CHECK(c->children && c->src_index, err, DL_ERR_NOMEM, "out of memory planning a read");
    }
    *out = c;
    return DL_OK;
}

static dl_status
type_mismatch(plan_ctx *x, const dl_pq_field *src, const dl_type *dst, dl_error *err) {
    dl_buf a;
    dl_buf b;
    dl_buf_init(&a, NULL);
    dl_buf_init(&b, NULL);
    bool ok = dl_vec_type_to_string(src->type, &a, NULL) == DL_OK &&
              dl_vec_type_to_string(dst, &b, NULL) == DL_OK;
    (void)dl_error_set(err, DL_ERR_SCHEMA,
                       "column '%s': field '%s' of file type %s cannot be read as %s", x->column,
                       src->name ? src->name : "", ok ? dl_buf_cstr(&a) : "?",
                       ok ? dl_buf_cstr(&b) : "?");
    dl_buf_destroy(&a);
    dl_buf_destroy(&b);
    return DL_ERR_SCHEMA;
}

static dl_status
plan_struct(plan_ctx *x, const dl_delta_field *f, const dl_type *dst, const dl_pq_field *src,
            conv **out, dl_error *err) {
    DL_TRY(new_conv(x, CONV_STRUCT, dst, dst->n_fields, out, err));
    conv *c = *out;
    c->is_aligned = (size_t)dst->n_fields == src->n_children;
    for (int32_t i = 0; i < dst->n_fields; i++) {
        const dl_delta_field *cf = &f->children[i];
        const dl_pq_field *sc = match_child(src, cf, x->mode);
        c->src_index[i] = sc ? child_index(src, sc) : -1;
        c->is_aligned = c->is_aligned && c->src_index[i] == i;
        if (!sc) {
            DL_TRY(new_conv(x, CONV_NULL, dst->fields[i].type, 0, &c->children[i], err));
        } else {
            DL_TRY(plan_field(x, cf, dst->fields[i].type, sc, &c->children[i], err));
        }
    }
    return DL_OK;
}

static dl_status
plan_list(plan_ctx *x, const dl_delta_field *f, const dl_type *dst, const dl_pq_field *src,
          conv **out, dl_error *err) {
    DL_TRY(new_conv(x, CONV_LIST, dst, 1, out, err));
    conv *c = *out;
    c->src_index[0] = 0;
    if (dst->id == DL_VEC_TYPE_ARRAY) {
        return plan_field(x, &f->children[0], dst->element, src->children[0], &c->children[0], err);
    }
    /* A map's child is its entries struct<key, value>. */
    conv *e;
    DL_TRY(new_conv(x, CONV_STRUCT, dst->element, 2, &e, err));
    e->is_aligned = true;
    for (int32_t i = 0; i < 2; i++) {
        e->src_index[i] = i;
        DL_TRY(plan_field(x, &f->children[i], dst->element->fields[i].type, src->children[i],
                          &e->children[i], err));
    }
    c->children[0] = e;
    return DL_OK;
}

static dl_status
plan_field(plan_ctx *x, const dl_delta_field *f, const dl_type *dst, const dl_pq_field *src,
           conv **out, dl_error *err) {
    if (!src->type) {
        DL_FAIL(err, DL_ERR_UNSUPPORTED, "column '%s': %s", x->column,
                src->unsupported ? src->unsupported : "the file's type is not supported");
    }
    bool is_src_nested = src->kind != DL_PQ_FIELD_LEAF;
    if (dst->id == DL_VEC_TYPE_STRUCT && src->kind == DL_PQ_FIELD_STRUCT) {
        return plan_struct(x, f, dst, src, out, err);
    }
    if ((dst->id == DL_VEC_TYPE_ARRAY && src->kind == DL_PQ_FIELD_LIST) ||
        (dst->id == DL_VEC_TYPE_MAP && src->kind == DL_PQ_FIELD_MAP)) {
        return plan_list(x, f, dst, src, out, err);
    }
    conv_kind kind;
    if (is_src_nested || dl_vec_type_is_nested(dst) || !primitive_kind(src->type, dst, &kind)) {
        if (src->type->id == DL_VEC_TYPE_NULL) {
            return new_conv(x, CONV_NULL, dst, 0, out, err);
        }
        return type_mismatch(x, src, dst, err);
    }
    return new_conv(x, kind, dst, 0, out, err);
}

/* ---- applying plans ------------------------------------------------------------------ */

static dl_status convert(const dl_delta_scan_reader *r, const conv *c, dl_vector *src,
                         bool is_child, dl_vector **out, dl_error *err);

/* A FLAT vector of n null rows of type (struct children must be flat). */
static dl_status
flat_nulls(const dl_allocator *alloc, const dl_type *type, int64_t n, dl_vector **out,
           dl_error *err) {
    DL_TRY(dl_vec_new(alloc, type, n, out, err));
    for (int64_t i = 0; i < n; i++) {
        dl_status st = dl_vec_append_null(*out, err);
        if (st != DL_OK) {
            dl_vec_unref(*out);
            *out = NULL;
            return st;
        }
    }
    return DL_OK;
}

static int64_t
src_int(const dl_vector *v, int64_t i) {
    switch (dl_vec_type_phys(v->type)) {
    case DL_VEC_PHYS_I8:
        return ((const int8_t *)v->data)[i];
    case DL_VEC_PHYS_I16:
        return ((const int16_t *)v->data)[i];
    case DL_VEC_PHYS_I32:
        return ((const int32_t *)v->data)[i];
    default:
        return ((const int64_t *)v->data)[i];
    }
}

static dl_i128
pow10_i128(int n) {
    dl_i128 p = 1;
    for (int i = 0; i < n; i++) {
        p *= 10;
    }
    return p;
}

/* Appends element i of src (non-null) converted to dst's type. */
static dl_status
append_widened(dl_vector *dst, const dl_vector *src, int64_t i, dl_error *err) {
    const dl_type *d = dst->type;
    const dl_type *s = src->type;
    if (s->id == DL_VEC_TYPE_DECIMAL) {
        dl_i128 v = ((const dl_i128 *)src->data)[i];
        return dl_vec_append_i128(dst, v * pow10_i128(d->scale - s->scale), err);
    }
    if (s->id == DL_VEC_TYPE_FLOAT) {
        return dl_vec_append_f64(dst, (double)((const float *)src->data)[i], err);
    }
    if (s->id == DL_VEC_TYPE_DATE) {
        return dl_vec_append_i64(dst, (int64_t)((const int32_t *)src->data)[i] * DL_MICROS_PER_DAY,
                                 err);
    }
    int64_t v = src_int(src, i);
    switch (d->id) {
    case DL_VEC_TYPE_SHORT:
        return dl_vec_append_i16(dst, (int16_t)v, err);
    case DL_VEC_TYPE_INT:
        return dl_vec_append_i32(dst, (int32_t)v, err);
    case DL_VEC_TYPE_LONG:
        return dl_vec_append_i64(dst, v, err);
    case DL_VEC_TYPE_DOUBLE:
        return dl_vec_append_f64(dst, (double)v, err);
    default: /* DECIMAL */
        return dl_vec_append_i128(dst, (dl_i128)v * pow10_i128(d->scale), err);
    }
}

static dl_status
widen(const dl_delta_scan_reader *r, const conv *c, const dl_vector *src, dl_vector **out,
      dl_error *err) {
    DL_CHECK(src->layout == DL_VEC_FLAT, err, DL_ERR_INTERNAL,
             "a %s column to widen is not a flat vector", dl_vec_type_name(src->type->id));
    dl_vector *v;
    DL_TRY(dl_vec_new(r->alloc, c->dst, src->length, &v, err));
    dl_status st = DL_OK;
    for (int64_t i = 0; i < src->length && st == DL_OK; i++) {
        bool is_null = src->validity && !dl_vec_bit_get(src->validity, i);
        st = is_null ? dl_vec_append_null(v, err) : append_widened(v, src, i, err);
    }
    if (st != DL_OK) {
        dl_vec_unref(v);
        return st;
    }
    *out = v;
    return DL_OK;
}

/* The file's vector shared under the table's type. */
static dl_status
relabel(const conv *c, const dl_vector *src, dl_vector **out, dl_error *err) {
    dl_vector *v;
    DL_TRY(dl_vec_slice(src, 0, src->length, &v, err));
    if (v->layout == DL_VEC_DICT && v->dict->type->id != c->dst->id) {
        dl_status st = dl_vec_flatten(v, err);
        if (st != DL_OK) {
            dl_vec_unref(v);
            return st;
        }
    }
    v->type = c->dst;
    *out = v;
    return DL_OK;
}

/* Replaces child i of v (which v owns alone) with child, taking the reference. */
static void
set_child(dl_vector *v, int32_t i, dl_vector *child) {
    dl_vec_unref(v->children[i]);
    v->children[i] = child;
}

/* A struct whose fields do not line up with the file's: a new vector, validity copied. */
static dl_status
struct_rebuilt(const dl_delta_scan_reader *r, const conv *c, dl_vector *src, dl_vector **out,
               dl_error *err) {
    DL_CHECK(src->layout == DL_VEC_FLAT, err, DL_ERR_INTERNAL, "a struct vector is not flat");
    int64_t n = src->length;
    dl_vector *v;
    DL_TRY(dl_vec_new(r->alloc, c->dst, 0, &v, err));
    dl_status st = dl_vec_reserve(v, n, err);
    if (st == DL_OK && src->validity) {
        st = dl_vec_make_validity(v, err);
        if (st == DL_OK) {
            dl_vec_bits_copy(v->validity, 0, src->validity, 0, n);
        }
    }
    for (int32_t i = 0; i < c->n_children && st == DL_OK; i++) {
        dl_vector *child = NULL;
        int32_t k = c->src_index[i];
        st = k < 0 ? flat_nulls(r->alloc, c->dst->fields[i].type, n, &child, err)
                   : convert(r, c->children[i], src->children[k], true, &child, err);
        if (st == DL_OK) {
            set_child(v, i, child);
        }
    }
    if (st != DL_OK) {
        dl_vec_unref(v);
        return st;
    }
    dl_vec_set_length(v, n);
    *out = v;
    return DL_OK;
}

/* A struct or list sharing the file's buffers, with its children converted. */
static dl_status
nested_shared(const dl_delta_scan_reader *r, const conv *c, dl_vector *src, dl_vector **out,
              dl_error *err) {
    dl_vector *v;
    DL_TRY(dl_vec_slice(src, 0, src->length, &v, err));
    dl_status st = DL_OK;
    for (int32_t i = 0; i < c->n_children && st == DL_OK; i++) {
        dl_vector *child = NULL;
        st = convert(r, c->children[i], v->children[c->src_index[i]], true, &child, err);
        if (st == DL_OK) {
            set_child(v, i, child);
        }
    }
    if (st != DL_OK) {
        dl_vec_unref(v);
        return st;
    }
    v->type = c->dst;
    *out = v;
    return DL_OK;
}

static dl_status
convert(const dl_delta_scan_reader *r, const conv *c, dl_vector *src, bool is_child,
        dl_vector **out, dl_error *err) {
    switch (c->kind) {
    case CONV_RELABEL:
        return relabel(c, src, out, err);
    case CONV_WIDEN:
        return widen(r, c, src, out, err);
    case CONV_NULL:
        return is_child ? flat_nulls(r->alloc, c->dst, src->length, out, err)
                        : dl_vec_new_const_null(r->alloc, c->dst, src->length, out, err);
    case CONV_STRUCT:
        return c->is_aligned ? nested_shared(r, c, src, out, err)
                             : struct_rebuilt(r, c, src, out, err);
    default:
        return nested_shared(r, c, src, out, err);
    }
}

/* ---- partition columns --------------------------------------------------------------- */

dl_status
dl_delta_value_append(dl_vector *v, const dl_delta_value *x, dl_error *err) {
    if (x->is_null) {
        return dl_vec_append_null(v, err);
    }
    switch (v->type->id) {
    case DL_VEC_TYPE_BOOLEAN:
        return dl_vec_append_bool(v, x->u.b, err);
    case DL_VEC_TYPE_BYTE:
        return dl_vec_append_i8(v, (int8_t)x->u.i64, err);
    case DL_VEC_TYPE_SHORT:
        return dl_vec_append_i16(v, (int16_t)x->u.i64, err);
    case DL_VEC_TYPE_INT:
    case DL_VEC_TYPE_DATE:
        return dl_vec_append_i32(v, (int32_t)x->u.i64, err);
    case DL_VEC_TYPE_LONG:
    case DL_VEC_TYPE_TIMESTAMP:
    case DL_VEC_TYPE_TIMESTAMP_NTZ:
        return dl_vec_append_i64(v, x->u.i64, err);
    case DL_VEC_TYPE_FLOAT:
        return dl_vec_append_f32(v, (float)x->u.f64, err);
    case DL_VEC_TYPE_DOUBLE:
        return dl_vec_append_f64(v, x->u.f64, err);
    case DL_VEC_TYPE_DECIMAL:
        return dl_vec_append_i128(v, x->u.dec, err);
    case DL_VEC_TYPE_STRING:
    case DL_VEC_TYPE_BINARY:
        return dl_vec_append_str(v, x->u.str.ptr, x->u.str.len, err);
    default:
        return dl_vec_append_null(v, err);
    }
}

static dl_status
partition_vector(const dl_delta_scan_reader *r, const dl_delta_scan_col *col, int64_t n,
                 dl_vector **out, dl_error *err) {
    const dl_delta_file *f = r->file;
    const dl_type *type = col->field->type;
    if (!f->partition || !f->partition->values ||
        f->partition->values[col->partition_index].is_null) {
        return dl_vec_new_const_null(r->alloc, type, n, out, err);
    }
    dl_vector *v;
    DL_TRY(dl_vec_new(r->alloc, type, 1, &v, err));
    dl_status st = dl_delta_value_append(v, &f->partition->values[col->partition_index], err);
    if (st != DL_OK) {
        dl_vec_unref(v);
        return st;
    }
    dl_vec_make_const(v, n);
    *out = v;
    return DL_OK;
}

/* ---- opening a unit ------------------------------------------------------------------ */

/* The path of a data file given relative to the table, relative to the table's store. */
static dl_status
relative_path(const dl_delta_snapshot *snap, const dl_delta_file *file, dl_buf *path,
              dl_error *err) {
    const char *root = dl_delta_snapshot_root(snap);
    if (root[0]) {
        DL_TRY(dl_buf_append_cstr(path, root, err));
        DL_TRY(dl_buf_append_byte(path, '/', err));
    }
    return dl_buf_append(path, file->path.ptr, file->path.len, err);
}

/* Where the data file is: r->path relative to the store it is read from (r->fs_root when the
 * path is absolute). */
static dl_status
locate(dl_delta_scan_reader *r, dl_store **out_store, dl_error *err) {
    const dl_delta_snapshot *snap = r->scan->snap;
    dl_store *store = dl_delta_snapshot_store(snap);
    *out_store = store;
    dl_str p = r->file->path;
    if (!(r->file->flags & DL_DELTA_FILE_ABSOLUTE)) {
        return relative_path(snap, r->file, &r->path, err);
    }
    DL_CHECK(p.len > 1 && p.ptr[0] == '/', err, DL_ERR_UNSUPPORTED,
             "data file '%.*s' is a URI this build cannot read (only local paths)", DL_STR_FMT(p));
    DL_CHECK(strcmp(store->vt->kind, "local") == 0, err, DL_ERR_UNSUPPORTED,
             "data file '%.*s' is outside the table's store '%s', which is not on the local "
             "file system",
             DL_STR_FMT(p), store->location);
    dl_store_local_options o = {.alloc = r->alloc};
    DL_TRY(dl_store_local_new("/", &o, &r->fs_root, err));
    *out_store = r->fs_root;
    return dl_buf_append(&r->path, p.ptr + 1, p.len - 1, err);
}

static const dl_pq_field *
find_leaf(void *ctx, const dl_delta_bpred *leaf) {
    const dl_delta_scan_reader *r = ctx;
    dl_delta_cm_mode mode = dl_delta_snapshot_cm_mode(r->scan->snap);
    const dl_pq_field *f = dl_pq_file_root(r->pq);
    for (size_t i = 0; i < leaf->n_path && f; i++) {
        if (i > 0 && f->kind != DL_PQ_FIELD_STRUCT) {
            return NULL;
        }
        f = match_child(f, leaf->fields[i], mode);
    }
    return f;
}

/* Plans output column i: its field in the file (or none) and its conversion; adds the field to
 * cols[0, *n_cols) unless it is there already. */
static dl_status
plan_column(dl_delta_scan_reader *r, size_t i, const dl_pq_field **cols, size_t *n_cols,
            dl_error *err) {
    const dl_delta_scan_col *col = &r->scan->cols[i];
    r->pq_index[i] = -1;
    if (col->partition_index >= 0) {
        return DL_OK;
    }
    dl_delta_cm_mode mode = dl_delta_snapshot_cm_mode(r->scan->snap);
    plan_ctx x = {.arena = &r->arena, .mode = mode, .column = col->field->name};
    const dl_pq_field *f = match_child(dl_pq_file_root(r->pq), col->field, mode);
    r->top[i] = f;
    if (!f) {
        return new_conv(&x, CONV_NULL, col->field->type, 0, &r->convs[i], err);
    }
    DL_TRY(plan_field(&x, col->field, col->field->type, f, &r->convs[i], err));
    for (size_t k = 0; k < *n_cols; k++) {
        if (cols[k] == f) {
            return DL_OK;
        }
    }
    cols[(*n_cols)++] = f;
    return DL_OK;
}

/* Plans the data columns and the Parquet reader. */
static dl_status
plan_reader(dl_delta_scan_reader *r, dl_error *err) {
    const dl_delta_scan *scan = r->scan;
    size_t n = scan->n_cols;
    r->top = dl_arena_alloc_zero(&r->arena, (n ? n : 1) * sizeof(void *));
    r->convs = dl_arena_alloc_zero(&r->arena, (n ? n : 1) * sizeof(conv *));
    r->pq_index = dl_arena_alloc_array(&r->arena, n ? n : 1, sizeof(int32_t));
    const dl_pq_field **cols = dl_arena_alloc_zero(&r->arena, (n ? n : 1) * sizeof(void *));
    DL_CHECK(r->top && r->convs && r->pq_index && cols, err, DL_ERR_NOMEM,
             "out of memory planning a read");
    size_t n_cols = 0;
    for (size_t i = 0; i < n; i++) {
        DL_TRY(plan_column(r, i, cols, &n_cols, err));
    }
    const dl_pq_filter *filter = NULL;
    if (scan->pred != NULL && !scan->opts.is_files_only) {
        DL_TRY(dl_delta_bpred_to_pq(scan->pred, find_leaf, r, &r->arena, &filter, err));
    }
    dl_pq_read_options ro = {.alloc = r->alloc,
                             .columns = cols,
                             .n_columns = n_cols,
                             .row_groups = r->row_group >= 0 ? &r->row_group : NULL,
                             .n_row_groups = r->row_group >= 0 ? 1 : 0,
                             .filter = filter,
                             .batch_rows = scan->opts.batch_rows,
                             .scratch = r->scratch};
    DL_TRY(dl_pq_reader_new(r->pq, &ro, &r->rd, err));
    const dl_type *schema = dl_pq_reader_schema(r->rd);
    for (size_t i = 0; i < n; i++) {
        if (!r->top[i]) {
            continue;
        }
        r->pq_index[i] = dl_vec_type_field_index(schema, dl_str_from_cstr(r->top[i]->name));
        DL_CHECK(r->pq_index[i] >= 0, err, DL_ERR_INTERNAL,
                 "column '%s' is missing from the Parquet reader's batch", r->top[i]->name);
    }
    return dl_vec_batch_new(r->alloc, schema, 0, &r->pq_batch, err);
}

static dl_status
open_unit(dl_delta_scan_reader *r, const dl_delta_scan_unit *unit, dl_error *err) {
    if (unit->pq != NULL) {
        r->pq = unit->pq;
        r->is_pq_borrowed = true;
    } else {
        dl_store *store;
        DL_TRY(locate(r, &store, err));
        dl_status st = dl_pq_file_open(store, dl_buf_cstr(&r->path), r->alloc, &r->pq, err);
        if (st == DL_ERR_NOT_FOUND) {
            dl_error_prefix(err, "data file is missing");
        }
        DL_TRY(st);
    }
    DL_TRY(plan_reader(r, err));
    if (unit->dv != NULL) {
        r->dv = unit->dv;
    } else if (r->file->dv) {
        const dl_delta_snapshot *snap = r->scan->snap;
        DL_TRY(dl_delta_dv_load(dl_delta_snapshot_store(snap), dl_delta_snapshot_root(snap),
                                r->file->dv, r->alloc, &r->dv_owned, err));
        r->dv = r->dv_owned;
        __atomic_add_fetch(&r->scan->dvs_loaded, 1, __ATOMIC_RELAXED);
    }
    return DL_OK;
}

void
dl_delta_scan_free_planned(dl_delta_scan *scan) {
    for (size_t i = 0; i < scan->n_pq_files; i++) {
        if (scan->pq_files != NULL) { /* either array may be missing after a failed alloc */
            dl_pq_file_free(scan->pq_files[i]);
        }
        if (scan->dvs != NULL) {
            dl_delta_dv_free(scan->dvs[i]);
        }
    }
    dl_mem_free(scan->alloc, scan->pq_files, scan->n_pq_files * sizeof(dl_pq_file *));
    dl_mem_free(scan->alloc, scan->dvs, scan->n_pq_files * sizeof(dl_delta_dv *));
    scan->pq_files = NULL;
    scan->dvs = NULL;
    scan->n_pq_files = 0;
}

/* Opens surviving file i (footer only) and loads its deletion vector. */
static dl_status
plan_file(dl_delta_scan *scan, size_t i, dl_buf *path, dl_error *err) {
    const dl_delta_file *f = dl_delta_snapshot_file(scan->snap, scan->units[i].file);
    dl_buf_reset(path);
    DL_TRY(relative_path(scan->snap, f, path, err));
    dl_store *store = dl_delta_snapshot_store(scan->snap);
    DL_TRY(dl_pq_file_open(store, dl_buf_cstr(path), scan->alloc, &scan->pq_files[i], err));
    if (f->dv) {
        DL_TRY(dl_delta_dv_load(store, dl_delta_snapshot_root(scan->snap), f->dv, scan->alloc,
                                &scan->dvs[i], err));
        scan->dvs_loaded++; /* planning: no reader runs yet */
    }
    return DL_OK;
}

/* Opens each surviving file (footer only), loads its deletion vector once, and gives it one
 * unit per row group. */
dl_status
dl_delta_scan_split_units(dl_delta_scan *scan, dl_error *err) {
    size_t n_files = scan->n_units;
    size_t n_rgs = 0;
    for (size_t i = 0; i < n_files; i++) {
        const dl_delta_file *f = dl_delta_snapshot_file(scan->snap, scan->units[i].file);
        if (f->flags & DL_DELTA_FILE_ABSOLUTE) {
            return DL_OK; /* another store may be needed: files stay the units */
        }
    }
    scan->pq_files = dl_mem_alloc_zero(scan->alloc, n_files * sizeof(dl_pq_file *));
    scan->dvs = dl_mem_alloc_zero(scan->alloc, n_files * sizeof(dl_delta_dv *));
    scan->n_pq_files = n_files;
    if (scan->pq_files == NULL || scan->dvs == NULL) {
        dl_delta_scan_free_planned(scan);
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory planning a scan");
    }
    dl_buf path;
    dl_buf_init(&path, scan->alloc);
    dl_status st = DL_OK;
    dl_error ignored;
    for (size_t i = 0; i < n_files && st == DL_OK; i++) {
        st = plan_file(scan, i, &path, &ignored);
        if (st == DL_OK) {
            n_rgs += dl_pq_file_footer(scan->pq_files[i])->meta.n_row_groups;
        }
    }
    dl_buf_destroy(&path);
    if (st != DL_OK) {
        /* A file or deletion vector that cannot be read now (missing, damaged) keeps files as
         * the units: its reader reports the error, in the table's terms, when the scan
         * reaches it. */
        dl_delta_scan_free_planned(scan);
        return DL_OK;
    }
    dl_delta_scan_unit *units = dl_mem_alloc_zero(scan->alloc, DL_MAX(n_rgs, 1) * sizeof(*units));
    DL_CHECK(units, err, DL_ERR_NOMEM, "out of memory planning a scan");
    size_t k = 0;
    for (size_t i = 0; i < n_files; i++) {
        size_t n = dl_pq_file_footer(scan->pq_files[i])->meta.n_row_groups;
        for (size_t g = 0; g < n; g++) {
            units[k++] = (dl_delta_scan_unit){.file = scan->units[i].file,
                                              .row_group = (int32_t)g,
                                              .pq = scan->pq_files[i],
                                              .dv = scan->dvs[i]};
        }
    }
    dl_mem_free(scan->alloc, scan->units, scan->cap_units * sizeof(dl_delta_scan_unit));
    scan->units = units;
    scan->n_units = n_rgs;
    scan->cap_units = DL_MAX(n_rgs, 1);
    return DL_OK;
}

dl_status
dl_delta_scan_reader_new(dl_delta_scan *scan, size_t unit, dl_delta_scan_reader **out,
                         dl_error *err) {
    return dl_delta_scan_reader_open(scan, unit, NULL, out, err);
}

dl_status
dl_delta_scan_reader_open(dl_delta_scan *scan, size_t unit, dl_pq_scratch *scratch,
                          dl_delta_scan_reader **out, dl_error *err) {
    DL_CHECK(scan && out && unit < scan->n_units, err, DL_ERR_INVALID_ARG,
             "dl_delta_scan_reader_new: no unit %zu (the scan has %zu)", unit,
             scan ? scan->n_units : 0);
    *out = NULL;
    dl_delta_scan_reader *r = dl_mem_alloc_zero(scan->alloc, sizeof(*r));
    DL_CHECK(r, err, DL_ERR_NOMEM, "out of memory opening a scan unit");
    const dl_delta_scan_unit *u = &scan->units[unit];
    r->scan = scan;
    r->alloc = scan->alloc;
    r->file = dl_delta_scan_unit_file(scan, unit);
    r->row_group = u->row_group;
    r->scratch = scratch;
    dl_arena_init(&r->arena, r->alloc, 0);
    dl_buf_init(&r->path, r->alloc);
    if (u->row_group <= 0) {
        __atomic_add_fetch(&scan->files_read, 1, __ATOMIC_RELAXED);
    }
    dl_status st = open_unit(r, u, err);
    if (st != DL_OK) {
        dl_error_prefix(err, "%s v%lld: %.*s", scan->snap->display, (long long)scan->snap->version,
                        DL_STR_FMT(r->file->path));
        dl_delta_scan_reader_free(r);
        return st;
    }
    *out = r;
    return DL_OK;
}

/* ---- reading ------------------------------------------------------------------------- */

/* Fills batch's columns from the Parquet batch (n physical rows). */
static dl_status
fill_columns(dl_delta_scan_reader *r, dl_batch *batch, int64_t n, dl_error *err) {
    const dl_delta_scan *scan = r->scan;
    for (size_t i = 0; i < scan->n_cols; i++) {
        const dl_delta_scan_col *col = &scan->cols[i];
        dl_vector *v = NULL;
        if (col->partition_index >= 0) {
            DL_TRY(partition_vector(r, col, n, &v, err));
        } else if (r->pq_index[i] < 0) {
            DL_TRY(dl_vec_new_const_null(r->alloc, col->field->type, n, &v, err));
        } else {
            DL_TRY_CTX(convert(r, r->convs[i], r->pq_batch->cols[r->pq_index[i]], false, &v, err),
                       err, "column '%s'", col->field->name);
        }
        dl_vec_batch_set_col(batch, (int32_t)i, v);
    }
    return DL_OK;
}

/* The next Parquet batch with rows its deletion vector keeps (r->sel[0, *out_kept) when some
 * are deleted); *out_n is 0 at the end. */
static dl_status
next_kept(dl_delta_scan_reader *r, int64_t *out_n, int64_t *out_kept, dl_error *err) {
    *out_n = 0;
    while (!r->is_done) {
        DL_TRY(dl_pq_reader_next(r->rd, r->pq_batch, err));
        int64_t n = r->pq_batch->count;
        r->is_done = n == 0;
        int64_t kept = n;
        if (r->dv && n > 0) {
            int64_t first = dl_pq_reader_batch_first_row(r->rd);
            kept = (r->file->flags & DL_DELTA_FILE_DV_KEEP)
                       ? dl_delta_dv_deleted_in_range(r->dv, first, (uint32_t)n, r->sel)
                       : dl_delta_dv_kept_in_range(r->dv, first, (uint32_t)n, r->sel);
            r->rows_deleted += n - kept;
        }
        if (kept > 0) {
            *out_n = n;
            *out_kept = kept;
            return DL_OK;
        }
    }
    return DL_OK;
}

static dl_status
next_batch(dl_delta_scan_reader *r, dl_batch *batch, dl_error *err) {
    int64_t n;
    int64_t kept = 0;
    DL_TRY(next_kept(r, &n, &kept, err));
    DL_TRY(dl_vec_batch_reset(batch, err));
    if (n == 0) {
        return DL_OK;
    }
    DL_TRY(fill_columns(r, batch, n, err));
    dl_vec_batch_set_count(batch, n);
    if (kept < n) {
        DL_TRY(dl_vec_batch_set_sel(batch, r->sel, kept, err));
        if (r->scan->opts.is_compacted) {
            DL_TRY(dl_vec_batch_apply_sel(batch, err));
        }
    }
    return DL_OK;
}

dl_status
dl_delta_scan_reader_next(dl_delta_scan_reader *reader, dl_batch *batch, dl_error *err) {
    DL_CHECK(batch->schema == reader->scan->schema ||
                 dl_vec_type_equal(batch->schema, reader->scan->schema),
             err, DL_ERR_INVALID_ARG, "the batch was not made for this scan's schema");
    dl_status st = next_batch(reader, batch, err);
    if (st != DL_OK) {
        const dl_delta_snapshot *snap = reader->scan->snap;
        dl_error_prefix(err, "%s v%lld: %.*s", snap->display, (long long)snap->version,
                        DL_STR_FMT(reader->file->path));
    }
    return st;
}

int64_t
dl_delta_scan_reader_batch_first_row(const dl_delta_scan_reader *reader) {
    if (reader->scan->opts.is_compacted || reader->rd == NULL) {
        return -1;
    }
    return dl_pq_reader_batch_first_row(reader->rd);
}

void
dl_delta_scan_reader_free(dl_delta_scan_reader *reader) {
    if (!reader) {
        return;
    }
    dl_delta_scan *scan = reader->scan;
    if (reader->rd) {
        dl_pq_reader_stats s;
        dl_pq_reader_get_stats(reader->rd, &s);
        __atomic_add_fetch(&scan->row_groups_read, s.row_groups_read, __ATOMIC_RELAXED);
        __atomic_add_fetch(&scan->row_groups_skipped, s.row_groups_skipped, __ATOMIC_RELAXED);
        __atomic_add_fetch(&scan->rows_read, s.rows, __ATOMIC_RELAXED);
        __atomic_add_fetch(&scan->bytes_read, s.bytes_read, __ATOMIC_RELAXED);
        __atomic_add_fetch(&scan->pages_read, s.pages, __ATOMIC_RELAXED);
        __atomic_add_fetch(&scan->pages_skipped, s.pages_skipped, __ATOMIC_RELAXED);
    }
    __atomic_add_fetch(&scan->rows_deleted, reader->rows_deleted, __ATOMIC_RELAXED);
    dl_delta_dv_free(reader->dv_owned);
    dl_vec_batch_free(reader->pq_batch);
    dl_pq_reader_free(reader->rd);
    if (!reader->is_pq_borrowed) {
        dl_pq_file_free(reader->pq);
    }
    dl_store_free(reader->fs_root);
    dl_buf_destroy(&reader->path);
    dl_arena_destroy(&reader->arena);
    dl_mem_free(scan->alloc, reader, sizeof(*reader));
}
