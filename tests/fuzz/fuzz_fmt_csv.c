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
#define FUZZ_FMT_NAME "fuzz_fmt_csv"
#include "fuzz_fmt_common.h"

// NOLINTNEXTLINE(readability-identifier-naming)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static dl_status
read_with(const void *opts, dl_vec_buffer *buf, const dl_type *schema, counts *c, dl_error *err) {
    const dl_fmt_csv_options *o = opts;
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
    dl_vec_buffer *buf = input_buffer(data, size);
    dl_error err;
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
