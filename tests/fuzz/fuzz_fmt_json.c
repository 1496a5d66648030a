/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the JSON reader (src/formats/fmt_json.c, fmt_json_lenient.c).
 *
 * Input: one byte of options (bit 0 multiLine, 1 allowComments, 2 allowUnquotedFieldNames,
 * 3 allowNumericLeadingZeros, 4 allowBackslashEscapingAnyCharacter, 5
 * allowUnquotedControlChars, 6 primitivesAsString, 7 prefersDecimal), then the file.
 *
 * Property checked, on any input bytes:
 *   1. Inferring the schema and reading the file (with the inferred schema, and with a fixed
 *      schema of every kind of column, a struct and an array, plus a corrupt-record column)
 *      never crashes, reads out of bounds, triggers undefined behaviour or leaks (ASan + UBSan
 *      + LSan); every batch is valid (dl_vec_batch_check) with at most DL_BATCH_CAPACITY rows.
 *      Inference fails only with INVALID_ARG (duplicate columns, a negative decimal scale).
 *   2. The modes agree: DROPMALFORMED keeps exactly the PERMISSIVE rows whose corrupt-record
 *      cell is NULL, and FAILFAST succeeds exactly when there is none (and keeps every row); a
 *      FAILFAST refusal is INVALID_ARG naming a line.
 *   3. Split into chunks of a few lines (min_chunk 8, 3 tasks), the file gives the same rows
 *      and malformed rows as read whole (unless multiLine, which never splits).
 * A violation aborts, so libFuzzer records the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/timefmt.h"
#include "formats/formats.h"

#define FUZZ_ASSERT(cond)                                                                    \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            (void)fprintf(stderr, "fuzz_fmt_json: property violated: %s (line %d)\n", #cond, \
                          __LINE__);                                                         \
            abort();                                                                         \
        }                                                                                    \
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
    int64_t corrupt; /* non-NULL cells of the corrupt column */
    int32_t corrupt_col;
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

static dl_status
read_with(const dl_fmt_json_options *o, dl_vec_buffer *buf, const dl_type *schema, counts *c,
          dl_error *err) {
    const char *name = "fuzz.json";
    dl_fmt_json *r = NULL;
    DL_TRY(dl_fmt_json_new(NULL, o, &name, &buf, 1, &r, err));
    dl_status s = dl_fmt_json_read(r, schema, count_batch, c, err);
    dl_fmt_json_free(r);
    return s;
}

/* One column of every kind the reader fills, a struct and an array, then _corrupt_record. */
static const dl_type *
fixed_schema(dl_arena *arena) {
    static const dl_type_id ids[] = {DL_VEC_TYPE_INT,       DL_VEC_TYPE_STRING,  DL_VEC_TYPE_DOUBLE,
                                     DL_VEC_TYPE_DATE,      DL_VEC_TYPE_BOOLEAN, DL_VEC_TYPE_LONG,
                                     DL_VEC_TYPE_TIMESTAMP, DL_VEC_TYPE_BYTE,    DL_VEC_TYPE_FLOAT};
    static const char *const names[] = {
        "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "_corrupt_record"};
    dl_type_field fields[13];
    dl_error err;
    for (int i = 0; i < 9; i++) {
        fields[i] = (dl_type_field){.name = names[i], .type = dl_vec_type_prim(ids[i])};
    }
    const dl_type *dec = NULL;
    const dl_type *arr = NULL;
    const dl_type *st = NULL;
    FUZZ_ASSERT(dl_vec_type_decimal(arena, 10, 2, &dec, &err) == DL_OK);
    FUZZ_ASSERT(dl_vec_type_array(arena, dl_vec_type_prim(DL_VEC_TYPE_LONG), true, &arr, &err) ==
                DL_OK);
    dl_type_field inner[2] = {{.name = "x", .type = dl_vec_type_prim(DL_VEC_TYPE_INT)},
                              {.name = "y", .type = arr}};
    FUZZ_ASSERT(dl_vec_type_struct(arena, inner, 2, &st, &err) == DL_OK);
    fields[9] = (dl_type_field){.name = names[9], .type = dec};
    fields[10] = (dl_type_field){.name = names[10], .type = arr};
    fields[11] = (dl_type_field){.name = names[11], .type = st};
    fields[12] = (dl_type_field){.name = names[12], .type = dl_vec_type_prim(DL_VEC_TYPE_STRING)};
    const dl_type *t = NULL;
    FUZZ_ASSERT(dl_vec_type_struct(arena, fields, 13, &t, &err) == DL_OK);
    return t;
}

static void
check_modes(dl_fmt_json_options *o, dl_vec_buffer *buf, const dl_type *schema) {
    dl_error err;
    counts perm = {.corrupt_col = schema->n_fields - 1};
    o->mode = DL_FMT_PERMISSIVE;
    FUZZ_ASSERT(read_with(o, buf, schema, &perm, &err) == DL_OK);
    counts drop = {.corrupt_col = schema->n_fields - 1};
    o->mode = DL_FMT_DROPMALFORMED;
    FUZZ_ASSERT(read_with(o, buf, schema, &drop, &err) == DL_OK);
    FUZZ_ASSERT(drop.rows == perm.rows - perm.corrupt && drop.corrupt == 0);
    counts fail = {.corrupt_col = schema->n_fields - 1};
    o->mode = DL_FMT_FAILFAST;
    dl_status s = read_with(o, buf, schema, &fail, &err);
    FUZZ_ASSERT((s == DL_OK) == (perm.corrupt == 0));
    FUZZ_ASSERT(s == DL_OK || (s == DL_ERR_INVALID_ARG && strstr(err.msg, ": line ") != NULL));
    FUZZ_ASSERT(s != DL_OK || fail.rows == perm.rows);
    o->mode = DL_FMT_PERMISSIVE;
    o->n_threads = 3;
    o->min_chunk = 8;
    counts split = {.corrupt_col = schema->n_fields - 1};
    FUZZ_ASSERT(read_with(o, buf, schema, &split, &err) == DL_OK);
    FUZZ_ASSERT(split.rows == perm.rows && split.corrupt == perm.corrupt);
    o->n_threads = 1;
    o->min_chunk = 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) {
        return 0;
    }
    uint8_t flags = data[0];
    dl_fmt_json_options o;
    dl_fmt_json_options_init(&o);
    o.is_multi_line = flags & 1;
    o.allow_comments = flags & 2;
    o.allow_unquoted_names = flags & 4;
    o.allow_leading_zeros = flags & 8;
    o.allow_backslash_any = flags & 16;
    o.allow_control_chars = flags & 32;
    o.is_primitives_as_string = flags & 64;
    o.is_prefers_decimal = flags & 128;
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
    const char *name = "fuzz.json";
    dl_fmt_json *r = NULL;
    FUZZ_ASSERT(dl_fmt_json_new(NULL, &o, &name, &buf, 1, &r, &err) == DL_OK);
    const dl_type *inferred = NULL;
    dl_status s = dl_fmt_json_infer(r, &arena, &inferred, &err);
    dl_fmt_json_free(r);
    FUZZ_ASSERT(s == DL_OK || s == DL_ERR_INVALID_ARG);
    if (s == DL_OK) {
        counts c = {.corrupt_col = -1};
        FUZZ_ASSERT(read_with(&o, buf, inferred, &c, &err) == DL_OK);
    }
    check_modes(&o, buf, fixed_schema(&arena));
    dl_arena_destroy(&arena);
    dl_vec_buffer_unref(buf);
    return 0;
}
