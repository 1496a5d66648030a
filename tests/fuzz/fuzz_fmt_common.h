/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the CSV and JSON readers' fuzz targets share (fuzz_fmt_csv.c, fuzz_fmt_json.c): the
 * property check that aborts, the date/timestamp parsers the readers are handed, counting the
 * rows and corrupt-record cells of a read, and the check that the three modes and a split read
 * agree. Each target defines FUZZ_FMT_NAME (its name, for the abort message) before including
 * this header, and describes its reader in a fuzz_fmt_reader.
 */
#ifndef DL_FUZZ_FMT_COMMON_H
#define DL_FUZZ_FMT_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/timefmt.h"
#include "formats/formats.h"

#define FUZZ_ASSERT(cond)                                                                        \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            (void)fprintf(stderr, "%s: property violated: %s (line %d)\n", FUZZ_FMT_NAME, #cond, \
                          __LINE__);                                                             \
            abort();                                                                             \
        }                                                                                        \
    } while (0)

static dl_status
parse_date(void *ctx, dl_str text, int64_t *out, dl_error *err) {
    (void)ctx;
    int32_t days = 0;
    DL_TRY(dl_date_parse(text, &days, err));
    *out = days;
    return DL_OK;
}

static dl_status
parse_ts(void *ctx, dl_str text, int64_t *out, dl_error *err) {
    (void)ctx;
    return dl_ts_parse(text, 0, out, err);
}

static dl_status
parse_ntz(void *ctx, dl_str text, int64_t *out, dl_error *err) {
    (void)ctx;
    return dl_ts_ntz_parse(text, false, out, err);
}

typedef struct counts {
    int64_t rows;
    int64_t corrupt;     /* non-NULL cells of the corrupt column */
    int32_t corrupt_col; /* -1: none */
} counts;

static dl_status
count_batch(void *ctx, dl_batch *batch, dl_error *err) {
    counts *c = ctx;
    dl_error check;
    FUZZ_ASSERT(dl_vec_batch_check(batch, &check) == DL_OK);
    FUZZ_ASSERT(batch->count > 0 && batch->count <= DL_BATCH_CAPACITY && batch->sel == NULL);
    c->rows += batch->count;
    if (c->corrupt_col >= 0) {
        c->corrupt += batch->count - dl_vec_null_count(batch->cols[c->corrupt_col]);
    }
    dl_vec_batch_free(batch);
    (void)err;
    return DL_OK;
}

/* A reader under test: its options (one of formats.h's option structs), pointers to the fields
 * both kinds have, and a function that reads the whole buffer with them into counts. */
typedef struct fuzz_fmt_reader {
    const void *opts;
    dl_fmt_mode *mode;
    int *n_threads;
    size_t *min_chunk;
    dl_status (*read)(const void *opts, dl_vec_buffer *buf, const dl_type *schema, counts *c,
                      dl_error *err);
} fuzz_fmt_reader;

/* The modes agree (DROPMALFORMED keeps exactly PERMISSIVE's rows without a corrupt cell,
 * FAILFAST succeeds exactly when there is none, naming a line when it refuses), and a read
 * split into chunks of a few lines (every line break a chunk boundary) gives the same rows. */
static void
check_modes(const fuzz_fmt_reader *r, dl_vec_buffer *buf, const dl_type *schema) {
    dl_error err;
    int32_t corrupt_col = (int32_t)schema->n_fields - 1;
    counts perm = {.corrupt_col = corrupt_col};
    *r->mode = DL_FMT_PERMISSIVE;
    FUZZ_ASSERT(r->read(r->opts, buf, schema, &perm, &err) == DL_OK);
    counts drop = {.corrupt_col = corrupt_col};
    *r->mode = DL_FMT_DROPMALFORMED;
    FUZZ_ASSERT(r->read(r->opts, buf, schema, &drop, &err) == DL_OK);
    FUZZ_ASSERT(drop.rows == perm.rows - perm.corrupt && drop.corrupt == 0);
    counts fail = {.corrupt_col = corrupt_col};
    *r->mode = DL_FMT_FAILFAST;
    dl_status s = r->read(r->opts, buf, schema, &fail, &err);
    FUZZ_ASSERT((s == DL_OK) == (perm.corrupt == 0));
    FUZZ_ASSERT(s == DL_OK || (s == DL_ERR_INVALID_ARG && strstr(err.msg, ": line ") != NULL));
    FUZZ_ASSERT(s != DL_OK || fail.rows == perm.rows);
    *r->mode = DL_FMT_PERMISSIVE;
    *r->n_threads = 3;
    *r->min_chunk = 8;
    counts split = {.corrupt_col = corrupt_col};
    FUZZ_ASSERT(r->read(r->opts, buf, schema, &split, &err) == DL_OK);
    FUZZ_ASSERT(split.rows == perm.rows && split.corrupt == perm.corrupt);
    *r->n_threads = 1;
    *r->min_chunk = 0;
}

/* The fuzz input after its options byte, as the readers' buffer. */
static dl_vec_buffer *
input_buffer(const uint8_t *data, size_t size) {
    dl_vec_buffer *buf = NULL;
    dl_error err;
    FUZZ_ASSERT(dl_vec_buffer_new(NULL, size, &buf, &err) == DL_OK);
    memcpy(buf->data, data + 1, size - 1);
    buf->size = size - 1;
    return buf;
}

#endif
