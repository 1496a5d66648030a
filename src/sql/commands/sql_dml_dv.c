/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DELETE, UPDATE and MERGE with deletion vectors (sql_dml.h): whether a statement marks rows
 * instead of rewriting files, and the marks a statement collects (delta/delta_dv_dml.h).
 *
 * A table gets deletion vectors written when delta.enableDeletionVectors is true and its
 * protocol has the deletionVectors feature (Spark's DeletionVectorUtils.deletionVectorsWritable;
 * setting the property upgrades the protocol). The rows a statement deletes or replaces are
 * located by the scan's hidden file and row index columns (sql_plan.h) or, in the plain
 * DELETE/UPDATE path, by the Delta reader's first row of each batch; the commit then replaces
 * each marked file's logical file (dl_delta_dv_marks_stage).
 */
#include <string.h>

#include "sql/commands/sql_dml.h"

bool
dl_sql_dml_uses_dvs(const dl_sql_dml_target *t) {
    if (t->snap == NULL) {
        return false;
    }
    const char *v = dl_delta_metadata_config(dl_delta_snapshot_metadata(t->snap),
                                             "delta.enableDeletionVectors");
    return v != NULL && dl_str_eq_nocase(dl_str_from_cstr(v), DL_STR("true")) &&
           dl_delta_protocol_has_feature(dl_delta_snapshot_protocol(t->snap),
                                         DL_DELTA_FEATURE_DELETION_VECTORS);
}

static void
free_marks(void *marks) {
    dl_delta_dv_marks_free(marks);
}

dl_status
dl_sql_dml_marks_new(dl_sql_binder *b, const dl_sql_dml_target *t, dl_delta_dv_marks **out,
                     dl_error *err) {
    DL_TRY(dl_delta_dv_marks_new(t->snap, b->exec->alloc, out, err));
    dl_status s = dl_arena_on_reset(b->arena, free_marks, *out, err);
    if (s != DL_OK) {
        dl_delta_dv_marks_free(*out);
        *out = NULL;
    }
    return s;
}

dl_status
dl_sql_dml_mark_row(dl_delta_dv_marks *marks, const dl_batch *batch, int32_t file_col,
                    int32_t row_col, int64_t row, dl_error *err) {
    const dl_vector *files = batch->cols[file_col];
    const dl_vector *rows = batch->cols[row_col];
    if (dl_vec_is_null(files, row)) {
        return DL_OK; /* no target row (a MERGE's inserted row) */
    }
    DL_CHECK(!dl_vec_is_null(rows, row), err, DL_ERR_INTERNAL, "a target row without its position");
    const dl_vector *flat = NULL;
    int64_t i = dl_vec_resolve(files, row, &flat);
    int32_t file = ((const int32_t *)flat->data)[i];
    int64_t pos = dl_sql_vec_i64(rows, row);
    DL_CHECK(file >= 0, err, DL_ERR_INTERNAL, "a row of file %d", (int)file);
    return dl_delta_dv_marks_add(marks, (size_t)file, &pos, 1, err);
}

dl_status
dl_sql_dml_marks_stage(const dl_sql_dml_target *t, dl_delta_tx *tx, dl_delta_dv_marks *marks,
                       dl_delta_dv_marks_result *out, dl_error *err) {
    dl_status s = dl_delta_dv_marks_stage(marks, tx, out, err);
    if (s != DL_OK) {
        dl_error_prefix(err, "table %s: deletion vectors", t->display);
    }
    return s;
}
