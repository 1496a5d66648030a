/* SPDX-License-Identifier: Apache-2.0 */
/*
 * deltalite_register_arrow_stream / deltalite_unregister: a caller's Arrow C stream becomes a
 * temporary relation of the session (sql_engine.h, "temporary relations"). The stream is read
 * to its end here, each record batch imported without copying what the engine can share
 * (vec_arrow_import.c) and cut into batches of the engine's size, so that every statement may
 * read the relation again (MERGE reads its source twice).
 */
#include <string.h>

#include "api/api_int.h"
#include "vector/vec_arrow.h"

/* A name the binder can match as one unqualified identifier. */
static bool
is_plain_name(const char *name) {
    if (name == NULL || name[0] == '\0' || strlen(name) > 255) {
        return false;
    }
    return strchr(name, '.') == NULL && strchr(name, '`') == NULL;
}

static dl_status
stream_error(struct ArrowArrayStream *stream, int rc, const char *what, dl_error *err) {
    const char *msg = stream->get_last_error != NULL ? stream->get_last_error(stream) : NULL;
    return dl_error_set(err, DL_ERR_IO, "the Arrow stream failed %s (error %d): %s", what, rc,
                        msg != NULL ? msg : "no message");
}

/* Reads every batch of stream into rel. */
static dl_status
read_stream(deltalite_db *db, struct ArrowArrayStream *stream, dl_sql_temp_rel *rel,
            dl_error *err) {
    struct ArrowSchema schema;
    memset(&schema, 0, sizeof(schema));
    int rc = stream->get_schema(stream, &schema);
    if (rc != 0) {
        return stream_error(stream, rc, "giving its schema", err);
    }
    const dl_type *type = NULL;
    dl_status st = dl_vec_arrow_import_type(&schema, dl_sql_temp_rel_arena(rel), &type, err);
    size_t n_cols = st == DL_OK ? (size_t)type->n_fields : 0;
    dl_vector **cols =
        st == DL_OK ? dl_mem_alloc_zero(db->alloc, (n_cols + 1) * sizeof(dl_vector *)) : NULL;
    if (cols == NULL) {
        schema.release(&schema);
        return st != DL_OK ? st : dl_error_set(err, DL_ERR_NOMEM, "out of memory");
    }
    dl_sql_temp_rel_set_schema(rel, type);
    for (int64_t batch = 0; st == DL_OK; batch++) {
        struct ArrowArray array;
        memset(&array, 0, sizeof(array));
        rc = stream->get_next(stream, &array);
        if (rc != 0) {
            st = stream_error(stream, rc, "giving a batch", err);
            break;
        }
        if (array.release == NULL) {
            break; /* the end */
        }
        int64_t n = array.length;
        st = dl_vec_arrow_import_batch(&schema, &array, type, db->alloc, cols, err);
        if (st == DL_OK) {
            st = dl_sql_temp_rel_append(rel, cols, n, err);
            for (size_t c = 0; c < n_cols; c++) {
                dl_vec_unref(cols[c]);
            }
        }
        if (st != DL_OK) {
            dl_error_prefix(err, "record batch %lld", (long long)batch);
        }
    }
    dl_mem_free(db->alloc, cols, (n_cols + 1) * sizeof(dl_vector *));
    schema.release(&schema);
    return st;
}

deltalite_status
deltalite_register_arrow_stream(deltalite_db *db, const char *name,
                                struct ArrowArrayStream *stream) {
    if (db == NULL || stream == NULL || stream->release == NULL) {
        return db ? dl_api_failf(db, DL_ERR_INVALID_ARG,
                                 "deltalite_register_arrow_stream: no stream (NULL or released)")
                  : DELTALITE_ERROR_INVALID_ARG;
    }
    dl_error err;
    dl_error_clear(&err);
    dl_status st = DL_OK;
    dl_sql_temp_rel *rel = NULL;
    if (!db->is_open) {
        st = dl_error_set(&err, DL_ERR_INVALID_ARG,
                          "deltalite_register_arrow_stream: the warehouse failed to open");
    } else if (!is_plain_name(name)) {
        st = dl_error_set(&err, DL_ERR_INVALID_ARG,
                          "'%s' cannot name a temporary relation: use a plain name without "
                          "dots or backquotes (at most 255 bytes)",
                          name != NULL ? name : "(null)");
    } else {
        st = dl_sql_temp_rel_new(db->alloc, name, &rel, &err);
    }
    if (st == DL_OK) {
        st = read_stream(db, stream, rel, &err);
        if (st != DL_OK) {
            dl_error_prefix(&err, "registering '%s'", name);
        }
    }
    stream->release(stream);
    if (st == DL_OK) {
        st = dl_sql_session_register(db->session, rel, &err); /* takes rel, also on failure */
        rel = NULL;
    }
    dl_sql_temp_rel_free(rel);
    if (st != DL_OK) {
        return dl_api_fail(db, &err, NULL, 0);
    }
    dl_api_ok(db);
    return DELTALITE_OK;
}

deltalite_status
deltalite_unregister(deltalite_db *db, const char *name, bool *out_found) {
    if (out_found != NULL) {
        *out_found = false;
    }
    if (db == NULL || name == NULL) {
        return db ? dl_api_failf(db, DL_ERR_INVALID_ARG, "deltalite_unregister: name is NULL")
                  : DELTALITE_ERROR_INVALID_ARG;
    }
    if (!db->is_open) {
        return dl_api_failf(db, DL_ERR_INVALID_ARG,
                            "deltalite_unregister: the warehouse failed to open");
    }
    bool found = dl_sql_session_unregister(db->session, name);
    if (out_found != NULL) {
        *out_found = found;
    }
    dl_api_ok(db);
    return DELTALITE_OK;
}
