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
#define FUZZ_FMT_NAME "fuzz_fmt_json"
#include "fuzz_fmt_common.h"

// NOLINTNEXTLINE(readability-identifier-naming)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static dl_status
read_with(const void *opts, dl_vec_buffer *buf, const dl_type *schema, counts *c, dl_error *err) {
    const dl_fmt_json_options *o = opts;
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
    dl_vec_buffer *buf = input_buffer(data, size);
    dl_error err;
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
    fuzz_fmt_reader reader = {.opts = &o,
                              .mode = &o.mode,
                              .n_threads = &o.n_threads,
                              .min_chunk = &o.min_chunk,
                              .read = read_with};
    check_modes(&reader, buf, fixed_schema(&arena));
    dl_arena_destroy(&arena);
    dl_vec_buffer_unref(buf);
    return 0;
}
