/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Row-group skipping for read_parquet scans: the scan's predicate (the pushed-down filters as
 * a Delta scan predicate, sql_op_scan.c) translated into a Parquet row-group filter for one
 * file (parquet/pq_reader.h, dl_pq_filter), so that row groups whose statistics rule every row
 * out are never read. Parts that do not translate (<>, NOT, NULL constants) are dropped from an
 * AND and make an OR keep everything, so the filter never rules out a row the predicate keeps.
 */
#include <string.h>

#include "sql/exec/sql_exec_int.h"

static bool
to_pq_scalar(const dl_delta_scalar *in, dl_pq_scalar *out) {
    memset(out, 0, sizeof(*out));
    switch (in->kind) {
    case DL_DELTA_SCALAR_BOOL:
        out->kind = DL_PQ_SCALAR_BOOL;
        out->b = in->b;
        return true;
    case DL_DELTA_SCALAR_INT:
    case DL_DELTA_SCALAR_DATE:
    case DL_DELTA_SCALAR_TIMESTAMP:
        out->kind = DL_PQ_SCALAR_INT;
        out->i = in->i;
        return true;
    case DL_DELTA_SCALAR_DOUBLE:
        out->kind = DL_PQ_SCALAR_DOUBLE;
        out->f = in->f;
        return true;
    case DL_DELTA_SCALAR_DECIMAL:
        out->kind = DL_PQ_SCALAR_DECIMAL;
        out->d = in->d;
        out->scale = in->scale;
        return true;
    case DL_DELTA_SCALAR_STRING:
        out->kind = DL_PQ_SCALAR_BYTES;
        out->s = in->s;
        return true;
    default:
        return false;
    }
}

typedef struct pq_builder {
    dl_arena *arena;
    const dl_sql_scan *s;
    const dl_pq_field *const *cols; /* the file's fields of the scan's columns */
} pq_builder;

static const dl_pq_field *
field_of(const pq_builder *pb, const dl_delta_pred *p) {
    if (p->n_column != 1) {
        return NULL;
    }
    for (int32_t i = 0; i < pb->s->n_columns; i++) {
        const char *name = pb->s->table_schema->fields[pb->s->columns[i]].name;
        if (strcmp(name, p->column[0]) == 0) {
            const dl_pq_field *f = pb->cols[i];
            return f != NULL && f->kind == DL_PQ_FIELD_LEAF ? f : NULL;
        }
    }
    return NULL;
}

static bool to_filter(const pq_builder *pb, const dl_delta_pred *p, dl_pq_filter *out);

static bool
leaf_filter(const pq_builder *pb, const dl_delta_pred *p, dl_pq_filter_op op, dl_pq_filter *out) {
    const dl_pq_field *f = field_of(pb, p);
    size_t n = op == DL_PQ_FILTER_IS_NULL || op == DL_PQ_FILTER_IS_NOT_NULL ? 0 : p->n_values;
    dl_pq_scalar *v = dl_arena_alloc_zero(pb->arena, (n + 1) * sizeof(*v));
    if (f == NULL || v == NULL) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (!to_pq_scalar(&p->values[i], &v[i])) {
            return false;
        }
    }
    *out = (dl_pq_filter){.op = op, .column = f, .values = v, .n_values = n};
    return true;
}

static bool
children_filter(const pq_builder *pb, const dl_delta_pred *p, bool is_and, dl_pq_filter *out) {
    dl_pq_filter *kids = dl_arena_alloc_zero(pb->arena, (p->n_children + 1) * sizeof(*kids));
    if (kids == NULL) {
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < p->n_children; i++) {
        if (to_filter(pb, &p->children[i], &kids[n])) {
            n++;
        } else if (!is_and) {
            return false;
        }
    }
    if (n == 0) {
        return false;
    }
    *out = (dl_pq_filter){
        .op = is_and ? DL_PQ_FILTER_AND : DL_PQ_FILTER_OR, .children = kids, .n_children = n};
    return true;
}

static bool
to_filter(const pq_builder *pb, const dl_delta_pred *p, dl_pq_filter *out) {
    switch (p->op) {
    case DL_DELTA_PRED_EQ:
        return leaf_filter(pb, p, DL_PQ_FILTER_EQ, out);
    case DL_DELTA_PRED_LT:
        return leaf_filter(pb, p, DL_PQ_FILTER_LT, out);
    case DL_DELTA_PRED_LE:
        return leaf_filter(pb, p, DL_PQ_FILTER_LE, out);
    case DL_DELTA_PRED_GT:
        return leaf_filter(pb, p, DL_PQ_FILTER_GT, out);
    case DL_DELTA_PRED_GE:
        return leaf_filter(pb, p, DL_PQ_FILTER_GE, out);
    case DL_DELTA_PRED_IN:
        return leaf_filter(pb, p, DL_PQ_FILTER_IN, out);
    case DL_DELTA_PRED_IS_NULL:
        return leaf_filter(pb, p, DL_PQ_FILTER_IS_NULL, out);
    case DL_DELTA_PRED_IS_NOT_NULL:
        return leaf_filter(pb, p, DL_PQ_FILTER_IS_NOT_NULL, out);
    case DL_DELTA_PRED_AND:
    case DL_DELTA_PRED_OR:
        return children_filter(pb, p, p->op == DL_DELTA_PRED_AND, out);
    default:
        return false;
    }
}

const dl_pq_filter *
dl_sql_scan_pq_filter(dl_arena *arena, const dl_sql_scan *s, const dl_delta_pred *pred,
                      const dl_pq_field *const *cols) {
    if (pred == NULL) {
        return NULL;
    }
    pq_builder pb = {.arena = arena, .s = s, .cols = cols};
    dl_pq_filter *f = dl_arena_alloc_zero(arena, sizeof(*f));
    return f != NULL && to_filter(&pb, pred, f) ? f : NULL;
}

dl_status
dl_sql_pq_open(dl_store *store, const char *path, const dl_allocator *alloc, dl_pq_file **out,
               dl_error *err) {
    dl_status s = dl_pq_file_open(store, path, alloc, out, err);
    if (s == DL_OK) {
        return DL_OK;
    }
    if (s == DL_ERR_NOT_FOUND) {
        (void)dl_error_set(err, s, "no Parquet file '/%s'", path);
        return s;
    }
    size_t n = strlen(path);
    size_t len = strlen(err->msg);
    if (err->msg[0] == '\'' && strncmp(err->msg + 1, path, n) == 0 && err->msg[n + 1] == '\'' &&
        len + 1 < sizeof(err->msg)) {
        memmove(err->msg + 2, err->msg + 1, len); /* "'tmp/x': ..." becomes "'/tmp/x': ..." */
        err->msg[1] = '/';
    }
    return s;
}
