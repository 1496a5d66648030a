/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: bytes -> FileMetaData (Thrift compact protocol), then the schema tree, the
 * statistics rules and footer validation of a file built around the same bytes.
 *
 * Properties checked (a violation traps):
 *   - no crash, undefined behaviour, leak, or allocation beyond the decoder's budget (the
 *     sanitizers and libFuzzer's malloc limit watch for these);
 *   - a refused input has a status of CORRUPT or LIMIT (UNSUPPORTED for encryption in the
 *     footer check) and a message;
 *   - an accepted input re-encodes, the encoding decodes to an equal model, and encoding
 *     that model again gives the same bytes (the writer's output is canonical).
 */
#include "base/base.h"
#include "parquet/parquet.h"

static void
require(bool cond) {
    if (!cond) {
        __builtin_trap();
    }
}

static void
check_refusal(dl_status s, const dl_error *err) {
    require(s == DL_ERR_CORRUPT || s == DL_ERR_LIMIT || s == DL_ERR_UNSUPPORTED);
    require(err->msg[0] != '\0');
}

static void
check_round_trip(const dl_pq_file_metadata *md, dl_arena *arena) {
    dl_buf first;
    dl_buf second;
    dl_error err;
    dl_buf_init(&first, NULL);
    dl_buf_init(&second, NULL);
    require(dl_pq_file_metadata_encode(md, &first, &err) == DL_OK);
    dl_pq_file_metadata again;
    require(dl_pq_file_metadata_decode(first.data, first.len, 0, arena, &again, NULL, &err) ==
            DL_OK);
    require(dl_pq_file_metadata_equal(md, &again));
    require(dl_pq_file_metadata_encode(&again, &second, &err) == DL_OK);
    require(first.len == second.len && memcmp(first.data, second.data, first.len) == 0);
    dl_buf_destroy(&first);
    dl_buf_destroy(&second);
}

static void
check_schema_and_stats(const dl_pq_file_metadata *md, dl_arena *arena) {
    dl_pq_schema schema;
    dl_error err;
    dl_status s = dl_pq_schema_build(md, arena, &schema, &err);
    if (s != DL_OK) {
        check_refusal(s, &err);
        return;
    }
    dl_pq_writer_version w = dl_pq_writer_version_parse(md->created_by);
    for (size_t g = 0; g < md->n_row_groups; g++) {
        const dl_pq_row_group *rg = &md->row_groups[g];
        for (size_t c = 0; c < rg->n_columns && c < schema.n_leaves; c++) {
            const dl_pq_column_metadata *m = &rg->columns[c].meta_data;
            dl_pq_stats_bounds b;
            bool ok = dl_pq_stats_usable(schema.leaves[c], &w,
                                         m->has_statistics ? &m->statistics : NULL, &b);
            require(ok == (b.has_min || b.has_max));
            require(ok || b.why_not != NULL);
        }
    }
}

/* "PAR1" + data + length + "PAR1", parsed as a whole file. */
static void
check_as_file(const uint8_t *data, size_t size) {
    if (size > 1u << 20) {
        return;
    }
    dl_buf file;
    dl_buf_init(&file, NULL);
    uint8_t le[4] = {(uint8_t)size, (uint8_t)(size >> 8), (uint8_t)(size >> 16),
                     (uint8_t)(size >> 24)};
    bool ok = dl_buf_append(&file, "PAR1", 4, NULL) == DL_OK &&
              dl_buf_append(&file, data, size, NULL) == DL_OK &&
              dl_buf_append(&file, le, 4, NULL) == DL_OK &&
              dl_buf_append(&file, "PAR1", 4, NULL) == DL_OK;
    if (ok) {
        dl_arena arena;
        dl_arena_init(&arena, NULL, 0);
        dl_pq_footer *f = NULL;
        dl_error err;
        dl_status s = dl_pq_footer_parse(file.data, file.len, (int64_t)file.len, &arena, &f, &err);
        if (s != DL_OK) {
            check_refusal(s, &err);
        } else {
            require(f->schema.n_leaves == 0 || f->meta.n_row_groups == 0 ||
                    f->meta.row_groups[0].n_columns == f->schema.n_leaves);
        }
        dl_arena_destroy(&arena);
    }
    dl_buf_destroy(&file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    dl_pq_file_metadata md;
    dl_error err;
    size_t used = 0;
    dl_status s = dl_pq_file_metadata_decode(data, size, 0, &arena, &md, &used, &err);
    if (s == DL_OK) {
        require(used <= size);
        check_round_trip(&md, &arena);
        check_schema_and_stats(&md, &arena);
    } else {
        check_refusal(s, &err);
    }
    dl_arena_destroy(&arena);
    check_as_file(data, size);
    return 0;
}
