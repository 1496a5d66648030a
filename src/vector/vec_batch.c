/* SPDX-License-Identifier: Apache-2.0 */
/* Batches: columns plus a selection of live rows (see dl_batch in vector.h). */
#include <string.h>

#include "vector/vector_int.h"

dl_status
dl_vec_batch_new(const dl_allocator *alloc, const dl_type *schema, int64_t capacity, dl_batch **out,
                 dl_error *err) {
    DL_CHECK(schema->id == DL_VEC_TYPE_STRUCT, err, DL_ERR_INVALID_ARG,
             "a batch schema must be a struct type, not %s", dl_vec_type_name(schema->id));
    dl_batch *batch = dl_mem_alloc_zero(alloc, sizeof(*batch));
    DL_CHECK(batch != NULL, err, DL_ERR_NOMEM, "out of memory allocating a batch");
    batch->schema = schema;
    batch->alloc = alloc;
    dl_vec_sel_init(&batch->sel_storage, alloc);
    if (schema->n_fields > 0) {
        batch->cols = dl_mem_alloc_zero(alloc, (size_t)schema->n_fields * sizeof(void *));
        if (batch->cols == NULL) {
            dl_mem_free(alloc, batch, sizeof(*batch));
            DL_FAIL(err, DL_ERR_NOMEM, "out of memory allocating a batch of %d columns",
                    (int)schema->n_fields);
        }
    }
    batch->n_cols = schema->n_fields;
    for (int32_t i = 0; i < batch->n_cols; i++) {
        dl_status s = dl_vec_new(alloc, schema->fields[i].type, capacity, &batch->cols[i], err);
        if (s != DL_OK) {
            dl_vec_batch_free(batch);
            return s;
        }
    }
    *out = batch;
    return DL_OK;
}

void
dl_vec_batch_free(dl_batch *batch) {
    if (batch == NULL) {
        return;
    }
    for (int32_t i = 0; i < batch->n_cols; i++) {
        dl_vec_unref(batch->cols[i]);
    }
    dl_mem_free(batch->alloc, batch->cols, (size_t)batch->n_cols * sizeof(void *));
    dl_vec_sel_destroy(&batch->sel_storage);
    dl_mem_free(batch->alloc, batch, sizeof(*batch));
}

dl_status
dl_vec_batch_reset(dl_batch *batch, dl_error *err) {
    batch->count = 0;
    batch->sel = NULL;
    batch->sel_storage.count = 0;
    for (int32_t i = 0; i < batch->n_cols; i++) {
        dl_vector *col = batch->cols[i];
        if (dl_vec_is_unique(col)) {
            DL_TRY(dl_vec_reset(col, err));
            continue;
        }
        dl_vector *fresh;
        DL_TRY(dl_vec_new(batch->alloc, col->type, col->capacity, &fresh, err));
        dl_vec_unref(col);
        batch->cols[i] = fresh;
    }
    return DL_OK;
}

void
dl_vec_batch_set_col(dl_batch *batch, int32_t i, dl_vector *vec) {
    DL_ASSERT(i >= 0 && i < batch->n_cols);
    dl_vec_unref(batch->cols[i]);
    batch->cols[i] = vec;
}

void
dl_vec_batch_set_count(dl_batch *batch, int64_t count) {
    batch->count = count;
    batch->sel = NULL;
}

dl_status
dl_vec_batch_set_sel(dl_batch *batch, const uint32_t *rows, int64_t count, dl_error *err) {
    DL_TRY(dl_vec_sel_set_rows(&batch->sel_storage, rows, count, err));
    batch->sel = batch->sel_storage.rows;
    batch->count = count;
    return DL_OK;
}

dl_status
dl_vec_batch_refine(dl_batch *batch, const uint8_t *bits, dl_error *err) {
    if (batch->sel == NULL) {
        DL_TRY(dl_vec_sel_from_bits(&batch->sel_storage, bits, batch->count, true, err));
    } else {
        dl_vec_sel_refine_bits(&batch->sel_storage, bits, true);
    }
    batch->sel = batch->sel_storage.rows;
    batch->count = batch->sel_storage.count;
    return DL_OK;
}

static void
unref_all(dl_vector **cols, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        dl_vec_unref(cols[i]);
    }
}

dl_status
dl_vec_batch_apply_sel(dl_batch *batch, dl_error *err) {
    if (batch->sel == NULL || batch->n_cols == 0) {
        batch->sel = NULL;
        return DL_OK;
    }
    /* Build every new column before replacing any, so a failure leaves the batch as it was. */
    size_t bytes = (size_t)batch->n_cols * sizeof(dl_vector *);
    dl_vector **fresh = dl_mem_alloc_zero(batch->alloc, bytes);
    DL_CHECK(fresh != NULL, err, DL_ERR_NOMEM, "out of memory compacting a batch");
    for (int32_t i = 0; i < batch->n_cols; i++) {
        const dl_vector *col = batch->cols[i];
        dl_status s = dl_vec_new(batch->alloc, col->type, batch->count, &fresh[i], err);
        if (s == DL_OK) {
            s = dl_vec_copy_sel(fresh[i], col, batch->sel, batch->count, err);
        }
        if (s != DL_OK) {
            unref_all(fresh, i + 1);
            dl_mem_free(batch->alloc, fresh, bytes);
            dl_error_prefix(err, "column '%s'", batch->schema->fields[i].name);
            return s;
        }
    }
    unref_all(batch->cols, batch->n_cols);
    memcpy(batch->cols, fresh, bytes);
    dl_mem_free(batch->alloc, fresh, bytes);
    batch->sel = NULL;
    batch->sel_storage.count = 0;
    return DL_OK;
}

dl_status
dl_vec_batch_check(const dl_batch *batch, dl_error *err) {
    const dl_type *schema = batch->schema;
    DL_CHECK(schema->id == DL_VEC_TYPE_STRUCT && batch->n_cols == schema->n_fields, err,
             DL_ERR_INTERNAL, "batch has %d columns for a schema of %d fields", (int)batch->n_cols,
             (int)schema->n_fields);
    int64_t length = batch->n_cols > 0 ? batch->cols[0]->length : batch->count;
    for (int32_t i = 0; i < batch->n_cols; i++) {
        const dl_vector *col = batch->cols[i];
        DL_CHECK(dl_vec_type_equal(col->type, schema->fields[i].type), err, DL_ERR_INTERNAL,
                 "batch column '%s' is %s, the schema says %s", schema->fields[i].name,
                 dl_vec_type_name(col->type->id), dl_vec_type_name(schema->fields[i].type->id));
        DL_CHECK(col->length == length, err, DL_ERR_INTERNAL,
                 "batch column '%s' has %lld rows, column 0 has %lld", schema->fields[i].name,
                 (long long)col->length, (long long)length);
    }
    if (batch->sel == NULL) {
        DL_CHECK(batch->n_cols == 0 || batch->count == length, err, DL_ERR_INTERNAL,
                 "batch count %lld differs from its columns' %lld rows", (long long)batch->count,
                 (long long)length);
        return DL_OK;
    }
    DL_CHECK(dl_vec_sel_is_sorted(batch->sel, batch->count), err, DL_ERR_INTERNAL,
             "batch selection is not strictly increasing");
    DL_CHECK(batch->count == 0 || batch->n_cols == 0 ||
                     batch->sel[batch->count -
                                1]<length, err, DL_ERR_INTERNAL,
                                   "batch selection row %u is beyond the %lld rows", batch->count> 0
                 ? batch->sel[batch->count - 1]
                 : 0u,
             (long long)length);
    return DL_OK;
}
