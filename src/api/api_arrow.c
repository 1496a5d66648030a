/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A result as an Arrow C stream (Arrow's CStreamInterface.rst). The stream owns the result;
 * each get_next pulls one engine batch and exports it with dl_vec_arrow_export_batch, which
 * shares the vectors' buffers (no copy for flat columns) and decodes dictionary columns so
 * that every array matches the one schema get_schema gives. Rows the caller already read
 * with deltalite_result_next_row are skipped: the rest of the current batch goes first.
 */
#include <errno.h>
#include <string.h>

#include "api/api_int.h"
#include "vector/vec_arrow.h"

typedef struct api_stream {
    deltalite_result *result;
    unsigned flags; /* DL_VEC_ARROW_*: dictionaries flattened, strings as asked */
    dl_error err;   /* the last failure, for get_last_error */
} api_stream;

static int
errno_of(dl_status st) {
    switch (st) {
    case DL_OK:
        return 0;
    case DL_ERR_NOMEM:
        return ENOMEM;
    case DL_ERR_INVALID_ARG:
        return EINVAL;
    default:
        return EIO;
    }
}

/* The errno of st; a failure also becomes the handle's last error, so that callers learn its
 * status class and hint (deltalite_error_status), not only get_last_error's message. */
static int
stream_failed(api_stream *s, dl_status st) {
    if (st != DL_OK) {
        deltalite_result *r = s->result;
        dl_api_engine_error(r->sql, r->sql_len, &r->piece, &s->err);
        (void)dl_api_fail(r->db, &s->err, r->sql, r->sql_len);
    }
    return errno_of(st);
}

static int
stream_get_schema(struct ArrowArrayStream *stream, struct ArrowSchema *out) {
    api_stream *s = stream->private_data;
    dl_error_clear(&s->err);
    deltalite_result *r = s->result;
    dl_status st =
        dl_vec_arrow_export_type(r->schema, "", false, s->flags, r->db->alloc, out, &s->err);
    return stream_failed(s, st);
}

/* Exports the live rows after the current one of the current batch. */
static dl_status
export_rest(api_stream *s, struct ArrowArray *out) {
    deltalite_result *r = s->result;
    const dl_batch *b = r->batch;
    int64_t first = r->row + 1;
    int64_t n = b->count - first;
    dl_batch rest = *b;
    uint32_t *rows = NULL;
    if (b->sel != NULL) {
        rest.sel = b->sel + first;
    } else {
        rows = dl_mem_alloc_array(r->db->alloc, (size_t)n, sizeof(uint32_t));
        DL_CHECK(rows != NULL || n == 0, &s->err, DL_ERR_NOMEM, "out of memory exporting rows");
        for (int64_t i = 0; i < n; i++) {
            rows[i] = (uint32_t)(first + i);
        }
        rest.sel = rows;
    }
    rest.count = n;
    dl_status st = dl_vec_arrow_export_batch(&rest, s->flags, NULL, out, &s->err);
    dl_mem_free(r->db->alloc, rows, (size_t)n * sizeof(uint32_t));
    return st;
}

static int
stream_get_next(struct ArrowArrayStream *stream, struct ArrowArray *out) {
    api_stream *s = stream->private_data;
    dl_error_clear(&s->err);
    deltalite_result *r = s->result;
    memset(out, 0, sizeof(*out));
    dl_status st = DL_OK;
    if (r->batch != NULL && r->row >= 0 && r->row + 1 < r->batch->count) {
        st = export_rest(s, out);
        r->row = r->batch->count; /* consumed */
        return stream_failed(s, st);
    }
    if (r->is_done) {
        return 0; /* out->release is NULL: the end */
    }
    const dl_batch *batch = NULL;
    st = dl_sql_result_next(r->res, &batch, &s->err);
    r->batch = NULL;
    r->row = -1;
    if (st != DL_OK || batch == NULL) {
        r->is_done = true;
        r->is_failed = st != DL_OK;
        return stream_failed(s, st);
    }
    st = dl_vec_arrow_export_batch(batch, s->flags, NULL, out, &s->err);
    return stream_failed(s, st);
}

static const char *
stream_get_last_error(struct ArrowArrayStream *stream) {
    api_stream *s = stream->private_data;
    return s->err.code == DL_OK ? NULL : s->err.msg;
}

static void
stream_release(struct ArrowArrayStream *stream) {
    api_stream *s = stream->private_data;
    const dl_allocator *alloc = s->result->db->alloc;
    deltalite_result_free(s->result);
    dl_mem_free(alloc, s, sizeof(*s));
    stream->release = NULL;
    stream->private_data = NULL;
}

deltalite_status
deltalite_result_to_arrow_flags(deltalite_result *result, uint32_t flags,
                                struct ArrowArrayStream *out) {
    if (result == NULL) {
        return DELTALITE_ERROR_INVALID_ARG;
    }
    deltalite_db *db = result->db;
    uint32_t both = DELTALITE_ARROW_PLAIN_STRINGS | DELTALITE_ARROW_LARGE_STRINGS;
    if (out == NULL || (flags & ~both) != 0 || flags == both) {
        deltalite_result_free(result);
        (void)dl_api_failf(db, DL_ERR_INVALID_ARG,
                           out == NULL ? "deltalite_result_to_arrow: out is NULL"
                                       : "deltalite_result_to_arrow_flags: flags 0x%x: give at "
                                         "most one of DELTALITE_ARROW_PLAIN_STRINGS and "
                                         "DELTALITE_ARROW_LARGE_STRINGS",
                           (unsigned)flags);
        return DELTALITE_ERROR_INVALID_ARG;
    }
    memset(out, 0, sizeof(*out));
    api_stream *s = dl_mem_alloc_zero(db->alloc, sizeof(*s));
    if (s == NULL) {
        deltalite_result_free(result);
        (void)dl_api_failf(db, DL_ERR_NOMEM, "out of memory making an Arrow stream");
        return DELTALITE_ERROR_NOMEM;
    }
    s->result = result;
    s->flags = DL_VEC_ARROW_FLATTEN_DICT |
               ((flags & DELTALITE_ARROW_PLAIN_STRINGS) ? DL_VEC_ARROW_PLAIN_STRINGS : 0) |
               ((flags & DELTALITE_ARROW_LARGE_STRINGS) ? DL_VEC_ARROW_LARGE_STRINGS : 0);
    dl_error_clear(&s->err);
    out->get_schema = stream_get_schema;
    out->get_next = stream_get_next;
    out->get_last_error = stream_get_last_error;
    out->release = stream_release;
    out->private_data = s;
    dl_api_ok(db);
    return DELTALITE_OK;
}

deltalite_status
deltalite_result_to_arrow(deltalite_result *result, struct ArrowArrayStream *out) {
    return deltalite_result_to_arrow_flags(result, 0, out);
}

deltalite_status
deltalite_query_arrow(deltalite_db *db, const char *sql, struct ArrowArrayStream *out) {
    if (out != NULL) {
        memset(out, 0, sizeof(*out));
    }
    deltalite_result *r = NULL;
    deltalite_status ds = deltalite_query(db, sql, &r);
    if (ds != DELTALITE_OK) {
        return ds;
    }
    return deltalite_result_to_arrow(r, out);
}
