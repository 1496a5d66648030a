/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Arrow C Data Interface export (see vec_arrow.h for the mapping and arrow_abi.h for the
 * release protocol).
 *
 * Each exported ArrowSchema or ArrowArray node owns one block from the vector's allocator:
 * a private header, then the arrays the structure points at (buffer pointers, child
 * pointers, the child and dictionary structures themselves, buffer references, the int64
 * sizes of string heaps, the format and name strings). The release callback releases the
 * children and dictionary that were not moved away, drops the buffer references and frees
 * the block. Child structures live in their parent's block, so a child moved out by a
 * consumer keeps only its own block, as the specification's "Moving child arrays" requires.
 */
#include "vector/vec_arrow.h"

#include <stdio.h>
#include <string.h>

#include "vector/vector_int.h"

static const char *const arrow_formats[DL_VEC_TYPE_COUNT] = {
#define DL_VEC_TYPE_X(tid, spark, phys, width, arrow) [DL_VEC_TYPE_##tid] = (arrow),
#include "vector/vec_types.def"
#undef DL_VEC_TYPE_X
};

/* Stands in for an absent buffer of a zero-length array (a list's single offset 0). */
static const int64_t zero_block[8];

/* ---- Schemas ----------------------------------------------------------------------------- */

typedef struct schema_private {
    const dl_allocator *alloc; /* frees this block */
    size_t size;               /* bytes of this block */
} schema_private;

static void
release_schema(struct ArrowSchema *schema) {
    for (int64_t i = 0; i < schema->n_children; i++) {
        struct ArrowSchema *child = schema->children[i];
        if (child->release != NULL) {
            child->release(child);
        }
    }
    if (schema->dictionary != NULL && schema->dictionary->release != NULL) {
        schema->dictionary->release(schema->dictionary);
    }
    schema_private *p = schema->private_data;
    dl_mem_free(p->alloc, p, p->size);
    schema->release = NULL;
}

static int32_t
child_count(const dl_type *type) {
    if (type->id == DL_VEC_TYPE_STRUCT) {
        return type->n_fields;
    }
    return type->id == DL_VEC_TYPE_ARRAY || type->id == DL_VEC_TYPE_MAP ? 1 : 0;
}

/* The name, type and nullability of child i of a nested type, as Arrow spells them. */
static dl_type_field
child_field(const dl_type *type, int32_t i) {
    if (type->id == DL_VEC_TYPE_STRUCT) {
        return type->fields[i];
    }
    if (type->id == DL_VEC_TYPE_ARRAY) {
        return (dl_type_field){
            .name = "element", .type = type->element, .is_nullable = type->contains_null};
    }
    return (dl_type_field){.name = "entries", .type = type->element, .is_nullable = false};
}

/* The plain (non-view) string format flags ask for, or NULL for views. */
static const char *
plain_format(dl_type_id id, unsigned flags) {
    bool is_large = (flags & DL_VEC_ARROW_LARGE_STRINGS) != 0;
    if ((flags & (DL_VEC_ARROW_PLAIN_STRINGS | DL_VEC_ARROW_LARGE_STRINGS)) == 0 ||
        (id != DL_VEC_TYPE_STRING && id != DL_VEC_TYPE_BINARY)) {
        return NULL;
    }
    if (id == DL_VEC_TYPE_STRING) {
        return is_large ? "U" : "u";
    }
    return is_large ? "Z" : "z";
}

static void
format_of(const dl_type *type, bool is_dict, unsigned flags, char *out, size_t cap) {
    const char *plain = plain_format(type->id, flags);
    if (is_dict) {
        (void)snprintf(out, cap, "i");
    } else if (plain != NULL) {
        (void)snprintf(out, cap, "%s", plain);
    } else if (type->id == DL_VEC_TYPE_DECIMAL) {
        (void)snprintf(out, cap, "d:%d,%d", type->precision, type->scale);
    } else {
        (void)snprintf(out, cap, "%s", arrow_formats[type->id]);
    }
}

/*
 * Exports the schema of a node of type named name. is_dict makes it dictionary-encoded
 * (int32 indices over values of type); child_is_dict (NULL = none) does so for children.
 */
static dl_status
export_schema_node(const dl_type *type, const char *name, bool is_nullable, bool is_dict,
                   const bool *child_is_dict, unsigned flags, const dl_allocator *alloc,
                   struct ArrowSchema *out, dl_error *err) {
    char format[32];
    format_of(type, is_dict, flags, format, sizeof(format));
    name = name != NULL ? name : "";
    int64_t n = is_dict ? 0 : child_count(type);
    size_t n_dict = is_dict ? 1 : 0;
    size_t format_len = strlen(format) + 1;
    size_t name_len = strlen(name) + 1;
    size_t size = sizeof(schema_private) + (size_t)n * sizeof(struct ArrowSchema *) +
                  ((size_t)n + n_dict) * sizeof(struct ArrowSchema) + format_len + name_len;
    uint8_t *block = dl_mem_alloc_zero(alloc, size);
    DL_CHECK(block != NULL, err, DL_ERR_NOMEM, "out of memory exporting an Arrow schema");
    schema_private *p = (schema_private *)(void *)block;
    p->alloc = alloc;
    p->size = size;
    struct ArrowSchema **ptrs = (struct ArrowSchema **)(void *)(block + sizeof(*p));
    struct ArrowSchema *children = (struct ArrowSchema *)(void *)(ptrs + n);
    char *strings = (char *)(children + n + (int64_t)n_dict);
    memcpy(strings, format, format_len);
    memcpy(strings + format_len, name, name_len);
    for (int64_t i = 0; i < n; i++) {
        ptrs[i] = &children[i];
    }
    *out = (struct ArrowSchema){
        .format = strings,
        .name = strings + format_len,
        .metadata = NULL,
        .flags = is_nullable ? ARROW_FLAG_NULLABLE : 0,
        .n_children = n,
        .children = n > 0 ? ptrs : NULL,
        .dictionary = is_dict ? &children[n] : NULL,
        .release = release_schema,
        .private_data = p,
    };
    for (int32_t i = 0; i < (int32_t)n; i++) {
        dl_type_field f = child_field(type, i);
        bool is_child_dict = child_is_dict != NULL && child_is_dict[i];
        dl_status s = export_schema_node(f.type, f.name, f.is_nullable, is_child_dict, NULL, flags,
                                         alloc, &children[i], err);
        if (s != DL_OK) {
            release_schema(out);
            return s;
        }
    }
    if (is_dict) {
        dl_status s =
            export_schema_node(type, "", true, false, NULL, flags, alloc, out->dictionary, err);
        if (s != DL_OK) {
            release_schema(out);
            return s;
        }
    }
    return DL_OK;
}

dl_status
dl_vec_arrow_export_type(const dl_type *type, const char *name, bool is_nullable, unsigned flags,
                         const dl_allocator *alloc, struct ArrowSchema *out, dl_error *err) {
    return export_schema_node(type, name, is_nullable, false, NULL, flags, alloc, out, err);
}

/* ---- Arrays ------------------------------------------------------------------------------ */

typedef struct array_private {
    const dl_allocator *alloc; /* frees this block */
    size_t size;               /* bytes of this block */
    int64_t n_refs;            /* references taken so far */
    dl_vec_buffer **refs;      /* buffers this array keeps alive */
    int64_t *heap_sizes;       /* STRING/BINARY: the variadic buffer sizes */
    uint8_t *copy;             /* plain strings: the offsets, then the bytes */
} array_private;

/* What one array node needs. */
typedef struct array_plan {
    int64_t n_buffers;
    int64_t n_children;
    int64_t n_refs;
    int64_t n_heaps;
    size_t n_copy; /* plain strings: bytes of offsets and data copied into the export */
    bool has_dict;
} array_plan;

static void
release_array(struct ArrowArray *array) {
    for (int64_t i = 0; i < array->n_children; i++) {
        struct ArrowArray *child = array->children[i];
        if (child->release != NULL) {
            child->release(child);
        }
    }
    if (array->dictionary != NULL && array->dictionary->release != NULL) {
        array->dictionary->release(array->dictionary);
    }
    array_private *p = array->private_data;
    for (int64_t i = 0; i < p->n_refs; i++) {
        dl_vec_buffer_unref(p->refs[i]);
    }
    dl_mem_free(p->alloc, p, p->size);
    array->release = NULL;
}

/* Allocates the block for plan and points out's arrays into it; release works from here on. */
static dl_status
new_array(const dl_allocator *alloc, const array_plan *plan, int64_t length, int64_t null_count,
          struct ArrowArray *out, dl_error *err) {
    size_t n_dict = plan->has_dict ? 1 : 0;
    size_t size = sizeof(array_private) + (size_t)plan->n_refs * sizeof(dl_vec_buffer *) +
                  (size_t)plan->n_buffers * sizeof(void *) +
                  (size_t)plan->n_children * sizeof(struct ArrowArray *) +
                  ((size_t)plan->n_children + n_dict) * sizeof(struct ArrowArray) +
                  (size_t)plan->n_heaps * sizeof(int64_t) + plan->n_copy;
    uint8_t *block = dl_mem_alloc_zero(alloc, size);
    DL_CHECK(block != NULL, err, DL_ERR_NOMEM, "out of memory exporting an Arrow array");
    array_private *p = (array_private *)(void *)block;
    p->alloc = alloc;
    p->size = size;
    p->refs = (dl_vec_buffer **)(void *)(block + sizeof(*p));
    const void **buffers = (const void **)(void *)(p->refs + plan->n_refs);
    struct ArrowArray **ptrs = (struct ArrowArray **)(void *)(buffers + plan->n_buffers);
    struct ArrowArray *children = (struct ArrowArray *)(void *)(ptrs + plan->n_children);
    p->heap_sizes = (int64_t *)(void *)(children + plan->n_children + (int64_t)n_dict);
    p->copy = (uint8_t *)(p->heap_sizes + plan->n_heaps); /* 8-byte aligned */
    for (int64_t i = 0; i < plan->n_children; i++) {
        ptrs[i] = &children[i];
    }
    *out = (struct ArrowArray){
        .length = length,
        .null_count = null_count,
        .offset = 0,
        .n_buffers = plan->n_buffers,
        .n_children = plan->n_children,
        .buffers = plan->n_buffers > 0 ? buffers : NULL,
        .children = plan->n_children > 0 ? ptrs : NULL,
        .dictionary = plan->has_dict ? &children[plan->n_children] : NULL,
        .release = release_array,
        .private_data = p,
    };
    return DL_OK;
}

/* Sets buffer i to ptr, holding a reference to its owner. */
static void
put_buffer(struct ArrowArray *out, int64_t i, const void *ptr, dl_vec_buffer *owner) {
    array_private *p = out->private_data;
    out->buffers[i] = ptr;
    if (ptr != NULL && owner != NULL) {
        p->refs[p->n_refs++] = dl_vec_buffer_ref(owner);
    }
}

/* Bytes of a plain string export of a flat view vector: offsets, then every value's bytes. */
static size_t
plain_size(const dl_vector *vec, bool is_large) {
    size_t bytes = (size_t)(vec->length + 1) * (is_large ? sizeof(int64_t) : sizeof(int32_t));
    for (int64_t i = 0; i < vec->length; i++) {
        bytes += dl_vec_is_null(vec, i) ? 0 : dl_vec_get_str(vec, i).len;
    }
    return bytes;
}

static array_plan
plan_of(const dl_vector *vec, unsigned flags) {
    array_plan plan = {.n_buffers = 2, .n_children = 0, .n_refs = 2, .n_heaps = 0};
    if (vec->layout == DL_VEC_DICT) {
        plan.has_dict = true;
        return plan;
    }
    switch (dl_vec_type_phys(vec->type)) {
    case DL_VEC_PHYS_NONE:
        plan.n_buffers = 0;
        plan.n_refs = 0;
        break;
    case DL_VEC_PHYS_STRUCT:
        plan.n_buffers = 1;
        plan.n_refs = 1;
        plan.n_children = vec->n_children;
        break;
    case DL_VEC_PHYS_LIST:
        plan.n_children = 1;
        break;
    case DL_VEC_PHYS_VIEW:
        if (plain_format(vec->type->id, flags) != NULL) {
            plan.n_buffers = 3;
            plan.n_refs = 1;
            plan.n_copy = plain_size(vec, (flags & DL_VEC_ARROW_LARGE_STRINGS) != 0);
            break;
        }
        plan.n_heaps = vec->n_heaps;
        plan.n_buffers = 3 + vec->n_heaps;
        plan.n_refs = 2 + vec->n_heaps;
        break;
    default:
        break;
    }
    return plan;
}

static int64_t
null_count_of(const dl_vector *vec) {
    if (vec->validity == NULL) {
        return 0;
    }
    return vec->length - dl_vec_bits_count(vec->validity, vec->length);
}

static dl_status export_array(const dl_vector *vec, unsigned flags, struct ArrowArray *out,
                              dl_error *err);

/* Copies a flat view vector's values into out's copy area as offsets and bytes. */
static dl_status
copy_plain(const dl_vector *vec, unsigned flags, struct ArrowArray *out, dl_error *err) {
    array_private *p = out->private_data;
    bool is_large = (flags & DL_VEC_ARROW_LARGE_STRINGS) != 0;
    size_t offsets_size = (size_t)(vec->length + 1) * (is_large ? 8 : 4);
    uint8_t *data = p->copy + offsets_size;
    int64_t at = 0;
    for (int64_t i = 0; i <= vec->length; i++) {
        if (is_large) {
            ((int64_t *)(void *)p->copy)[i] = at;
        } else {
            ((int32_t *)(void *)p->copy)[i] = (int32_t)at;
        }
        if (i < vec->length && !dl_vec_is_null(vec, i)) {
            dl_str s = dl_vec_get_str(vec, i);
            memcpy(data + at, s.ptr, s.len);
            at += (int64_t)s.len;
            if (!is_large && at > INT32_MAX) {
                release_array(out);
                DL_FAIL(err, DL_ERR_LIMIT,
                        "%lld bytes of strings in one batch exceed the 2 GiB of Arrow's \"%s\" "
                        "format; ask for large strings (\"%s\")",
                        (long long)at, plain_format(vec->type->id, flags),
                        vec->type->id == DL_VEC_TYPE_STRING ? "U" : "Z");
            }
        }
    }
    out->buffers[1] = p->copy;
    out->buffers[2] = data;
    return DL_OK;
}

/* Exports a FLAT vector, or a DICT one as a dictionary-encoded array. */
static dl_status
export_array_node(const dl_vector *vec, unsigned flags, struct ArrowArray *out, dl_error *err) {
    array_plan plan = plan_of(vec, flags);
    bool is_null_type = vec->layout == DL_VEC_FLAT && vec->type->id == DL_VEC_TYPE_NULL;
    int64_t null_count = is_null_type ? vec->length : null_count_of(vec);
    DL_TRY(new_array(vec->alloc, &plan, vec->length, null_count, out, err));
    if (plan.n_buffers > 0) {
        put_buffer(out, 0, null_count > 0 ? vec->validity : NULL, vec->validity_buf);
    }
    if (plan.n_copy > 0) {
        DL_TRY(copy_plain(vec, flags, out, err));
    } else if (plan.n_buffers > 1) {
        put_buffer(out, 1, vec->data != NULL ? vec->data : (const void *)zero_block, vec->data_buf);
    }
    array_private *p = out->private_data;
    for (int64_t i = 0; i < plan.n_heaps; i++) {
        put_buffer(out, 2 + i, vec->heaps[i]->data, vec->heaps[i]);
        p->heap_sizes[i] = (int64_t)vec->heaps[i]->size;
    }
    if (vec->layout == DL_VEC_FLAT && dl_vec_type_phys(vec->type) == DL_VEC_PHYS_VIEW &&
        plan.n_copy == 0) {
        out->buffers[2 + plan.n_heaps] = p->heap_sizes;
    }
    for (int64_t i = 0; i < plan.n_children; i++) {
        dl_status s = export_array(vec->children[i], flags, out->children[i], err);
        if (s != DL_OK) {
            release_array(out);
            return s;
        }
    }
    if (plan.has_dict) {
        dl_status s = export_array(vec->dict, flags, out->dictionary, err);
        if (s != DL_OK) {
            release_array(out);
            return s;
        }
    }
    return DL_OK;
}

static bool
exports_as_dict(const dl_vector *vec, unsigned flags) {
    return vec->layout == DL_VEC_DICT && (flags & DL_VEC_ARROW_FLATTEN_DICT) == 0;
}

static dl_status
export_array(const dl_vector *vec, unsigned flags, struct ArrowArray *out, dl_error *err) {
    if (vec->layout == DL_VEC_FLAT || exports_as_dict(vec, flags)) {
        return export_array_node(vec, flags, out, err);
    }
    /* CONST, or DICT asked to be flat: export a flat copy, which the export then owns. */
    dl_vector *tmp;
    DL_TRY(dl_vec_new(vec->alloc, vec->type, vec->length, &tmp, err));
    dl_status s = dl_vec_copy_sel(tmp, vec, NULL, vec->length, err);
    if (s == DL_OK) {
        s = export_array_node(tmp, flags, out, err);
    }
    dl_vec_unref(tmp);
    return s;
}

dl_status
dl_vec_arrow_export(const dl_vector *vec, const char *name, unsigned flags,
                    struct ArrowSchema *out_schema, struct ArrowArray *out_array, dl_error *err) {
    DL_TRY(export_array(vec, flags, out_array, err));
    if (out_schema == NULL) {
        return DL_OK;
    }
    dl_status s = export_schema_node(vec->type, name, true, exports_as_dict(vec, flags), NULL,
                                     flags, vec->alloc, out_schema, err);
    if (s != DL_OK) {
        out_array->release(out_array);
    }
    return s;
}

/* ---- Batches ----------------------------------------------------------------------------- */

/* The struct array of cols (FLAT, CONST or DICT), each count rows long. */
static dl_status
export_struct(dl_vector *const *cols, int32_t n_cols, int64_t count, unsigned flags,
              const dl_allocator *alloc, struct ArrowArray *out, dl_error *err) {
    array_plan plan = {.n_buffers = 1, .n_children = n_cols, .n_refs = 0};
    DL_TRY(new_array(alloc, &plan, count, 0, out, err));
    out->buffers[0] = NULL;
    for (int32_t i = 0; i < n_cols; i++) {
        dl_status s = export_array(cols[i], flags, out->children[i], err);
        if (s != DL_OK) {
            release_array(out);
            return s;
        }
    }
    return DL_OK;
}

static void
free_cols(const dl_allocator *alloc, dl_vector **cols, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        dl_vec_unref(cols[i]);
    }
    dl_mem_free(alloc, cols, (size_t)n * (sizeof(void *) + sizeof(bool)));
}

/* The columns to export: the batch's own, or copies of the live rows under a selection. */
static dl_status
live_columns(const dl_batch *batch, unsigned flags, dl_vector ***out_cols, bool **out_is_dict,
             dl_error *err) {
    int32_t n = batch->n_cols;
    size_t bytes = (size_t)n * (sizeof(dl_vector *) + sizeof(bool));
    dl_vector **cols = dl_mem_alloc_zero(batch->alloc, bytes);
    DL_CHECK(cols != NULL, err, DL_ERR_NOMEM, "out of memory exporting a batch");
    bool *is_dict = (bool *)(cols + n);
    for (int32_t i = 0; i < n; i++) {
        dl_vector *col = batch->cols[i];
        if (batch->sel == NULL) {
            cols[i] = dl_vec_ref(col);
        } else {
            dl_status s = dl_vec_new(batch->alloc, col->type, batch->count, &cols[i], err);
            if (s == DL_OK) {
                s = dl_vec_copy_sel(cols[i], col, batch->sel, batch->count, err);
            }
            if (s != DL_OK) {
                free_cols(batch->alloc, cols, n);
                return s;
            }
        }
        is_dict[i] = exports_as_dict(cols[i], flags);
    }
    *out_cols = cols;
    *out_is_dict = is_dict;
    return DL_OK;
}

dl_status
dl_vec_arrow_export_batch(const dl_batch *batch, unsigned flags, struct ArrowSchema *out_schema,
                          struct ArrowArray *out_array, dl_error *err) {
    DL_TRY(dl_vec_batch_check(batch, err));
    dl_vector **cols;
    bool *is_dict;
    DL_TRY(live_columns(batch, flags, &cols, &is_dict, err));
    dl_status s =
        export_struct(cols, batch->n_cols, batch->count, flags, batch->alloc, out_array, err);
    if (s == DL_OK && out_schema != NULL) {
        s = export_schema_node(batch->schema, "", false, false, is_dict, flags, batch->alloc,
                               out_schema, err);
        if (s != DL_OK) {
            out_array->release(out_array);
        }
    }
    free_cols(batch->alloc, cols, batch->n_cols);
    return s;
}
