/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for a Parquet checkpoint or sidecar file (src/delta/delta_checkpoint.c over
 * the Parquet reader, and what replay does with each action it yields).
 *
 * Property checked, on any input bytes taken as a checkpoint file:
 *   1. Opening it and visiting its actions (stats read too; on this thread, or for inputs of
 *      odd size decoded on the helper thread) never crashes, reads out of bounds, triggers
 *      undefined behaviour or leaks (ASan + UBSan + LSan). A refusal is CORRUPT, UNSUPPORTED,
 *      LIMIT or NOMEM: never INTERNAL, INVALID_ARG or NOT_FOUND.
 *   2. Every action yielded is well formed: rows are numbered in ascending order within the
 *      file's row count; the partitionValues and tags texts the reader builds are JSON objects
 *      (they are deltalite's own output: a parse failure is a bug); add paths decode or are
 *      refused as CORRUPT; stats texts parse or are refused cleanly; a metaData's schema parses
 *      or is refused cleanly; a protocol passes or fails the read check cleanly; a DV
 *      descriptor passed dl_delta_dv_desc_check.
 * A violation aborts, so libFuzzer records the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "delta/delta_int.h"

#define FUZZ_ASSERT(cond)                                                                     \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            (void)fprintf(stderr, "fuzz_delta_checkpoint: property violated: %s (line %d)\n", \
                          #cond, __LINE__);                                                   \
            abort();                                                                          \
        }                                                                                     \
    } while (0)

/* libFuzzer's fixed entry point name. */
// NOLINTNEXTLINE(readability-identifier-naming)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool
is_clean_refusal(dl_status s) {
    return s == DL_ERR_CORRUPT || s == DL_ERR_UNSUPPORTED || s == DL_ERR_LIMIT || s == DL_ERR_NOMEM;
}

typedef struct fuzz_ctx {
    dl_arena arena;
    dl_json_doc doc;
    dl_buf buf;
    int64_t last_row;
    int64_t n_rows;
} fuzz_ctx;

static void
check_object_text(fuzz_ctx *c, dl_str text) {
    if (text.len == 0) {
        return;
    }
    dl_error err;
    FUZZ_ASSERT(dl_json_doc_parse(&c->doc, text.ptr, text.len, &err) == DL_OK);
    FUZZ_ASSERT(dl_json_val_type(dl_json_doc_root(&c->doc)) == DL_JSON_OBJECT);
}

static void
check_file(fuzz_ctx *c, const dl_delta_file_action *f) {
    check_object_text(c, f->partition_values);
    check_object_text(c, f->tags);
    bool is_abs;
    dl_error err;
    dl_status s = dl_delta_path_decode(f->path, &c->buf, &is_abs, &err);
    FUZZ_ASSERT(s == DL_OK || is_clean_refusal(s));
    if (f->has_dv) {
        FUZZ_ASSERT(dl_delta_dv_desc_check(&f->dv, NULL) == DL_OK);
    }
    if (f->stats_text.len > 0) {
        dl_delta_stats st;
        s = dl_delta_stats_parse(f->stats_text, &c->doc, &st, &err);
        FUZZ_ASSERT(s == DL_OK || is_clean_refusal(s));
    }
}

static dl_status
visit(void *ctx, const dl_delta_action *a, int64_t row, dl_error *err) {
    (void)err;
    fuzz_ctx *c = ctx;
    FUZZ_ASSERT(row >= c->last_row && row < c->n_rows);
    c->last_row = row;
    dl_error e;
    switch (a->kind) {
    case DL_DELTA_ACTION_ADD:
    case DL_DELTA_ACTION_REMOVE:
        check_file(c, &a->file);
        break;
    case DL_DELTA_ACTION_METADATA:
        if (a->metadata.schema_string) {
            dl_delta_schema schema;
            dl_status s = dl_delta_schema_parse(dl_str_from_cstr(a->metadata.schema_string),
                                                &c->arena, &schema, &e);
            FUZZ_ASSERT(s == DL_OK || is_clean_refusal(s));
        }
        break;
    case DL_DELTA_ACTION_PROTOCOL: {
        dl_status s = dl_delta_protocol_check_read(&a->protocol, &e);
        FUZZ_ASSERT(s == DL_OK || s == DL_ERR_UNSUPPORTED || s == DL_ERR_CORRUPT);
        break;
    }
    case DL_DELTA_ACTION_CHECKPOINT_METADATA:
        check_object_text(c, a->checkpoint.tags);
        break;
    default:
        break;
    }
    return DL_OK;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    dl_pq_file *file = NULL;
    dl_error err;
    dl_status s = dl_pq_file_open_memory(data, size, "fuzz.checkpoint.parquet", NULL, &file, &err);
    if (s != DL_OK) {
        FUZZ_ASSERT(is_clean_refusal(s));
        return 0;
    }
    fuzz_ctx c = {.last_row = 0, .n_rows = dl_pq_file_num_rows(file)};
    dl_arena_init(&c.arena, NULL, 0);
    dl_json_doc_init(&c.doc, NULL);
    dl_buf_init(&c.buf, NULL);
    dl_delta_cp_read_options o = {.with_stats = true,
                                  .is_single_threaded = (size & 1) == 0,
                                  .is_always_piped = (size & 1) == 1};
    s = dl_delta_checkpoint_read(file, &o, visit, &c, &err);
    FUZZ_ASSERT(s == DL_OK || is_clean_refusal(s));
    o = (dl_delta_cp_read_options){.is_metadata_only = true, .is_single_threaded = true};
    c.last_row = 0;
    s = dl_delta_checkpoint_read(file, &o, visit, &c, &err);
    FUZZ_ASSERT(s == DL_OK || is_clean_refusal(s));
    dl_buf_destroy(&c.buf);
    dl_json_doc_destroy(&c.doc);
    dl_arena_destroy(&c.arena);
    dl_pq_file_free(file);
    return 0;
}
