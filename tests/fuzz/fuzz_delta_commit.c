/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for a Delta commit file (src/delta/delta_action.c and what a snapshot does
 * with each action: delta_schema.c, delta_value.c, delta_features.c).
 *
 * Property checked, on any input bytes taken as a commit file:
 *   1. Walking its lines into actions never crashes, reads out of bounds, triggers undefined
 *      behaviour or leaks (ASan + UBSan + LSan). A refusal is CORRUPT, UNSUPPORTED or LIMIT
 *      (never INTERNAL or INVALID_ARG), names the line ("line N, byte B: ...") and has
 *      0 <= B <= size in dl_error.offset; a file without any action (empty, or blank lines)
 *      is CORRUPT saying so, at offset 0.
 *   2. For every action accepted, what replay would do next also holds up: a file path
 *      decodes or is refused as CORRUPT, stats parse (and their numRecords/min/max read) or are
 *      refused cleanly, a metaData's schemaString parses or is refused cleanly (and a parsed
 *      schema writes back and re-parses to the same number of fields), partition values of
 *      the add parse against every primitive type, a protocol passes or fails the read check
 *      with UNSUPPORTED or CORRUPT.
 * A violation aborts, so libFuzzer records the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "delta/delta.h"

#define FUZZ_ASSERT(cond)                                                                        \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            (void)fprintf(stderr, "fuzz_delta_commit: property violated: %s (line %d)\n", #cond, \
                          __LINE__);                                                             \
            abort();                                                                             \
        }                                                                                        \
    } while (0)

/* libFuzzer's fixed entry point name. */
// NOLINTNEXTLINE(readability-identifier-naming)
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool
is_clean_refusal(dl_status s) {
    return s == DL_ERR_CORRUPT || s == DL_ERR_UNSUPPORTED || s == DL_ERR_LIMIT;
}

typedef struct fuzz_ctx {
    dl_arena arena;
    dl_json_doc doc; /* for stats, schemas and partition values: not the line's doc */
    dl_buf buf;
} fuzz_ctx;

static void
check_stats(fuzz_ctx *c, dl_json_val stats) {
    dl_delta_stats st;
    dl_error err;
    dl_status s = dl_delta_stats_parse(dl_json_val_str(stats), &c->doc, &st, &err);
    if (s != DL_OK) {
        FUZZ_ASSERT(is_clean_refusal(s));
        return;
    }
    static const dl_type_id ids[] = {DL_VEC_TYPE_LONG, DL_VEC_TYPE_DOUBLE, DL_VEC_TYPE_STRING,
                                     DL_VEC_TYPE_DATE, DL_VEC_TYPE_TIMESTAMP};
    const char *path[] = {"a"};
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        for (int kind = 0; kind < 3; kind++) {
            dl_delta_value v;
            bool found;
            s = dl_delta_stats_get(&st, (dl_delta_stat_kind)kind, path, 1, dl_vec_type_prim(ids[i]),
                                   &v, &found, &err);
            FUZZ_ASSERT(s == DL_OK || is_clean_refusal(s));
        }
    }
}

/* Parses each member of the raw partitionValues object against every primitive type. */
static void
check_partition_values(fuzz_ctx *c, dl_str raw) {
    if (raw.len == 0 || dl_json_doc_parse(&c->doc, raw.ptr, raw.len, NULL) != DL_OK) {
        return;
    }
    dl_json_iter it = dl_json_val_iter(dl_json_doc_root(&c->doc));
    dl_json_val v;
    while (dl_json_iter_next(&it, NULL, &v)) {
        for (int id = DL_VEC_TYPE_NULL; id <= DL_VEC_TYPE_TIMESTAMP_NTZ; id++) {
            const dl_type *type = dl_vec_type_prim((dl_type_id)id);
            dl_delta_value out;
            dl_error err;
            if (!type) {
                continue;
            }
            dl_status s = dl_delta_partition_value_parse(dl_json_val_str(v), dl_json_val_is_null(v),
                                                         type, &out, &err);
            FUZZ_ASSERT(s == DL_OK || is_clean_refusal(s));
        }
    }
}

static void
check_schema(fuzz_ctx *c, const char *schema_string) {
    dl_delta_schema schema;
    dl_error err;
    dl_status s = dl_delta_schema_parse(dl_str_from_cstr(schema_string), &c->arena, &schema, &err);
    if (s != DL_OK) {
        FUZZ_ASSERT(is_clean_refusal(s));
        return;
    }
    dl_buf_reset(&c->buf);
    FUZZ_ASSERT(dl_delta_schema_to_json(&schema, &c->buf, &err) == DL_OK);
    dl_delta_schema again;
    FUZZ_ASSERT(dl_delta_schema_parse(dl_buf_view(&c->buf), &c->arena, &again, &err) == DL_OK);
    FUZZ_ASSERT(again.n_fields == schema.n_fields);
}

static dl_status
visit(void *ctx, const dl_delta_action *a, int64_t line_no, dl_error *err) {
    fuzz_ctx *c = ctx;
    (void)line_no;
    (void)err;
    dl_error e;
    switch (a->kind) {
    case DL_DELTA_ACTION_ADD:
    case DL_DELTA_ACTION_REMOVE:
    case DL_DELTA_ACTION_CDC: {
        bool is_abs;
        dl_status s = dl_delta_path_decode(a->file.path, &c->buf, &is_abs, &e);
        FUZZ_ASSERT(s == DL_OK || s == DL_ERR_CORRUPT);
        if (!dl_json_val_is_missing(a->file.stats)) {
            check_stats(c, a->file.stats);
        }
        check_partition_values(c, a->file.partition_values);
        break;
    }
    case DL_DELTA_ACTION_METADATA:
        if (a->metadata.schema_string) {
            check_schema(c, a->metadata.schema_string);
        }
        break;
    case DL_DELTA_ACTION_PROTOCOL: {
        dl_status s = dl_delta_protocol_check_read(&a->protocol, &e);
        FUZZ_ASSERT(s == DL_OK || s == DL_ERR_UNSUPPORTED || s == DL_ERR_CORRUPT);
        break;
    }
    default:
        break;
    }
    return DL_OK;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_ctx c;
    dl_arena_init(&c.arena, NULL, 0);
    dl_json_doc_init(&c.doc, NULL);
    dl_buf_init(&c.buf, NULL);
    dl_json_doc line_doc;
    dl_json_doc_init(&line_doc, NULL);
    dl_error err;
    dl_status s =
        dl_delta_actions_parse_text((const char *)data, size, &line_doc, &c.arena, visit, &c, &err);
    if (s != DL_OK) {
        FUZZ_ASSERT(is_clean_refusal(s));
        FUZZ_ASSERT(err.code == s);
        FUZZ_ASSERT(strncmp(err.msg, "line ", 5) == 0 ||
                    strstr(err.msg, "holds no actions") != NULL);
        FUZZ_ASSERT(err.offset >= 0 && (size_t)err.offset <= size);
    }
    dl_json_doc_destroy(&line_doc);
    dl_buf_destroy(&c.buf);
    dl_json_doc_destroy(&c.doc);
    dl_arena_destroy(&c.arena);
    return 0;
}
