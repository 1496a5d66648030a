/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the CSV reader (src/formats/fmt_csv.c).
 *
 * Input: one byte of options (bit 0 header, 1 multiLine, 2 quote off, 3 escape '"',
 * 4 sep ';', 5 comment '#', 6-7 ignore leading / trailing white space), then the file.
 *
 * Property checked, on any input bytes:
 *   1. Inferring the columns and reading the file (with the inferred types, and with a fixed
 *      schema of every kind of column plus a corrupt-record column) never crashes, reads out
 *      of bounds, triggers undefined behaviour or leaks (ASan + UBSan + LSan); every batch is
 *      valid (dl_vec_batch_check) and has at most DL_BATCH_CAPACITY rows.
 *   2. The modes agree: PERMISSIVE keeps every record, DROPMALFORMED keeps exactly the ones
 *      whose corrupt-record cell is NULL, and FAILFAST succeeds exactly when no record is
 *      malformed (and then keeps them all); a FAILFAST refusal is INVALID_ARG naming a line.
 *   3. Split into chunks of a few lines (min_chunk 8), the file gives the same rows and
 *      malformed rows (counted) as read whole (unless multiLine, which never splits).
 * A violation aborts, so libFuzzer records the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/timefmt.h"
#include "formats/formats.h"

#define FUZZ_ASSERT(cond)                                                                   \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            (void)fprintf(stderr, "fuzz_fmt_csv: property violated: %s (line %d)\n", #cond, \
                          __LINE__);                                                        \
            abort();                                                                        \
        }                                                                                   \
    } while (0)

// NOLINTNEXTLINE(readability-identifier-naming)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
    int64_t corrupt; /* non-NULL cells of the last column, when it is the corrupt one */
    bool has_corrupt;
} counts;

static dl_status
count_batch(void *ctx, dl_batch *batch, dl_error *err) {
    counts *c = ctx;
    dl_error check;
    FUZZ_ASSERT(dl_vec_batch_check(batch, &check) == DL_OK);
    FUZZ_ASSERT(batch->count > 0 && batch->count <= DL_BATCH_CAPACITY && batch->sel == NULL);
    c->rows += batch->count;
    if (c->has_corrupt) {
        const dl_vector *v = batch->cols[batch->n_cols - 1];
        c->corrupt += batch->count - dl_vec_null_count(v);
    }
    dl_vec_batch_free(batch);
    (void)err;
    return DL_OK;
}

static dl_status
read_with(const dl_fmt_csv_options *o, dl_vec_buffer *buf, const dl_type *schema, counts *c,
          dl_error *err) {
    const char *name = "fuzz.csv";
    dl_fmt_csv *r = NULL;
    DL_TRY(dl_fmt_csv_new(NULL, o, &name, &buf, 1, &r, err));
    dl_status s = dl_fmt_csv_read(r, schema, count_batch, c, err);
    dl_fmt_csv_free(r);
    return s;
}

/* A fixed schema with one column of every kind CSV reads, then _corrupt_record. */
static const dl_type *
fixed_schema(dl_arena *arena) {
    static const dl_type_id ids[] = {DL_VEC_TYPE_INT,      DL_VEC_TYPE_STRING,  DL_VEC_TYPE_DOUBLE,
                                     DL_VEC_TYPE_DATE,     DL_VEC_TYPE_BOOLEAN, DL_VEC_TYPE_LONG,
                                     DL_VEC_TYPE_TIMESTAMP};
    static const char *const names[] = {"a", "b", "c", "d", "e", "f", "g", "h", "_corrupt_record"};
    dl_type_field fields[9];
    dl_error err;
    for (int i = 0; i < 7; i++) {
        fields[i] = (dl_type_field){.name = names[i], .type = dl_vec_type_prim(ids[i])};
    }
    const dl_type *dec = NULL;
    FUZZ_ASSERT(dl_vec_type_decimal(arena, 10, 2, &dec, &err) == DL_OK);
    fields[7] = (dl_type_field){.name = names[7], .type = dec};
    fields[8] = (dl_type_field){.name = names[8], .type = dl_vec_type_prim(DL_VEC_TYPE_STRING)};
    const dl_type *t = NULL;
    FUZZ_ASSERT(dl_vec_type_struct(arena, fields, 9, &t, &err) == DL_OK);
    return t;
}

static void
check_modes(dl_fmt_csv_options *o, dl_vec_buffer *buf, const dl_type *schema) {
    dl_error err;
    counts perm = {.has_corrupt = true};
    o->mode = DL_FMT_PERMISSIVE;
    FUZZ_ASSERT(read_with(o, buf, schema, &perm, &err) == DL_OK);
    counts drop = {.has_corrupt = true};
    o->mode = DL_FMT_DROPMALFORMED;
    FUZZ_ASSERT(read_with(o, buf, schema, &drop, &err) == DL_OK);
    FUZZ_ASSERT(drop.rows == perm.rows - perm.corrupt && drop.corrupt == 0);
    counts fail = {.has_corrupt = true};
    o->mode = DL_FMT_FAILFAST;
    dl_status s = read_with(o, buf, schema, &fail, &err);
    FUZZ_ASSERT((s == DL_OK) == (perm.corrupt == 0));
    FUZZ_ASSERT(s == DL_OK || (s == DL_ERR_INVALID_ARG && strstr(err.msg, ": line ") != NULL));
    FUZZ_ASSERT(s != DL_OK || fail.rows == perm.rows);
    o->mode = DL_FMT_PERMISSIVE;
    o->n_threads = 3;
    o->min_chunk = 8; /* chunks of a few lines: every line break a chunk boundary */
    counts threads = {.has_corrupt = true};
    FUZZ_ASSERT(read_with(o, buf, schema, &threads, &err) == DL_OK);
    FUZZ_ASSERT(threads.rows == perm.rows && threads.corrupt == perm.corrupt);
    o->n_threads = 1;
    o->min_chunk = 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) {
        return 0;
    }
    uint8_t flags = data[0];
    dl_fmt_csv_options o;
    dl_fmt_csv_options_init(&o);
    o.has_header = flags & 1;
    o.is_multi_line = flags & 2;
    o.quote = (flags & 4) ? 0 : '"';
    o.escape = (flags & 8) ? '"' : '\\';
    o.sep = (flags & 16) ? ';' : ',';
    o.comment = (flags & 32) ? '#' : 0;
    o.ignore_leading_ws = flags & 64;
    o.ignore_trailing_ws = flags & 128;
    o.parse_date = parse_date;
    o.parse_ts = parse_ts;
    o.parse_ts_ntz = parse_ntz;
    dl_vec_buffer *buf = NULL;
    dl_error err;
    FUZZ_ASSERT(dl_vec_buffer_new(NULL, size, &buf, &err) == DL_OK);
    memcpy(buf->data, data + 1, size - 1);
    buf->size = size - 1;
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    const char *name = "fuzz.csv";
    dl_fmt_csv *r = NULL;
    FUZZ_ASSERT(dl_fmt_csv_new(NULL, &o, &name, &buf, 1, &r, &err) == DL_OK);
    const dl_type *inferred = NULL;
    dl_status s = dl_fmt_csv_infer(r, true, &arena, &inferred, &err);
    dl_fmt_csv_free(r);
    FUZZ_ASSERT(s == DL_OK || s == DL_ERR_INVALID_ARG);
    if (s == DL_OK) {
        counts c = {0};
        FUZZ_ASSERT(read_with(&o, buf, inferred, &c, &err) == DL_OK);
    }
    check_modes(&o, buf, fixed_schema(&arena));
    dl_arena_destroy(&arena);
    dl_vec_buffer_unref(buf);
    return 0;
}
