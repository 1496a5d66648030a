/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OPTIMIZE's clustering (sql_cluster.h): OPTIMIZE t [WHERE partition_condition] ZORDER BY
 * (cols), and OPTIMIZE [FULL] of a table with liquid clustering, as Delta's OptimizeExecutor
 * with a multi-dimensional clustering strategy.
 *
 *   ZORDER BY   every file in scope is rewritten; each partition's files are one bin whose
 *               rows are ordered along the Z-order curve of the columns' range ids and
 *               written to files rolled at spark.databricks.delta.optimize.maxFileSize.
 *               The columns must be data columns with statistics (the first
 *               delta.dataSkippingNumIndexedCols columns, or those delta.dataSkippingStatsColumns
 *               lists; not BOOLEAN, BINARY or nested: min/max are what skipping reads)
 *               unless spark.databricks.delta.optimize.zorder.checkStatsCollection.enabled
 *               is false. zOrderBy is the list of columns, clusterBy "[]".
 *   liquid      a clustered table's OPTIMIZE rewrites the files that are not clustered yet
 *               (no ZCUBE_ID tag, or ZCUBE_ZORDER_BY naming other columns), FULL every file;
 *               the curve is Hilbert's (Z-order for one column, a line). The new files' adds
 *               carry the tags ZCUBE_ID (one uuid per OPTIMIZE) and ZCUBE_ZORDER_BY (the
 *               columns as a JSON list) and clusteringProvider "liquid", as Delta 4.4 writes
 *               them. clusterBy is the list of columns, zOrderBy "[]", isFull FULL.
 *
 * zOrderStats of the result row (ZORDER BY only) is Delta's ZOrderStats: strategyName "all"
 * (every file is rewritten; Delta's cube merging is Databricks-only), inputCubeFiles empty,
 * inputOtherFiles and mergedFiles the files removed, inputNumCubes 0, numOutputCubes the
 * bins (one per partition), mergedNumCubes null, as Delta 4 returns them.
 */
#include <stdlib.h>
#include <string.h>

#include "delta/delta_dv.h"
#include "json/json.h"
#include "sql/commands/sql_cluster.h"

/* ---- the columns -------------------------------------------------------------------------- */

static int32_t
find_column(const dl_type *schema, dl_str name) {
    for (int32_t c = 0; c < schema->n_fields; c++) {
        if (dl_str_eq_nocase(dl_str_from_cstr(schema->fields[c].name), name)) {
            return c;
        }
    }
    return -1;
}

/* Whether the writes' statistics have min/max for column col of t (ops_stats.c's rule). */
static bool
has_stats(const dl_sql_dml_target *t, int32_t col) {
    const dl_delta_metadata *md = dl_delta_snapshot_metadata(t->snap);
    const char *list = dl_delta_metadata_config(md, "delta.dataSkippingStatsColumns");
    const char *num = dl_delta_metadata_config(md, "delta.dataSkippingNumIndexedCols");
    const char *name = t->schema->fields[col].name;
    dl_type_id id = t->schema->fields[col].type->id;
    if (id == DL_VEC_TYPE_BOOLEAN || id == DL_VEC_TYPE_BINARY || id == DL_VEC_TYPE_STRUCT ||
        id == DL_VEC_TYPE_ARRAY || id == DL_VEC_TYPE_MAP) {
        return false;
    }
    if (list != NULL) {
        dl_str rest = dl_str_from_cstr(list);
        while (rest.len > 0) {
            int64_t comma = dl_str_find_byte(rest, ',');
            size_t len = comma < 0 ? rest.len : (size_t)comma;
            if (dl_str_eq_nocase(dl_str_trim(dl_str_slice(rest, 0, len)), dl_str_from_cstr(name))) {
                return true;
            }
            rest = dl_str_slice(rest, len + (comma < 0 ? 0 : 1), rest.len);
        }
        return false;
    }
    int64_t limit = num != NULL ? strtoll(num, NULL, 10) : DL_OPS_STATS_COLUMNS;
    limit = limit > DL_OPS_STATS_COLUMNS ? DL_OPS_STATS_COLUMNS : limit;
    int64_t pos = 0;
    for (int32_t c = 0; c < col; c++) {
        pos += dl_sql_dml_is_partition_column(t, c, NULL) ? 0 : 1;
    }
    return limit < 0 || pos < limit;
}

static dl_status
fail_partition(dl_sql_binder *b, const dl_sql_name *n, const char *name, dl_error *err) {
    DL_SQL_BIND_FAIL(b, n->parts[0].loc, DL_ERR_SQL_BIND, err,
                     "[DELTA_ZORDERING_ON_PARTITION_COLUMN] %s is a partition column. Z-Ordering "
                     "can only be performed on data columns",
                     name);
}

static dl_status
fail_no_stats(dl_sql_binder *b, const dl_sql_name *n, const char *name, dl_error *err) {
    DL_SQL_BIND_FAIL(b, n->parts[0].loc, DL_ERR_SQL_BIND, err,
                     "[DELTA_ZORDERING_ON_COLUMN_WITHOUT_STATS] Z-Ordering on [%s] will be "
                     "ineffective, because we currently do not collect stats for these columns. "
                     "You can disable this check by setting 'SET "
                     "spark.databricks.delta.optimize.zorder.checkStatsCollection.enabled = "
                     "false'",
                     name);
}

/* ZORDER BY's columns, checked, into cl. */
static dl_status
zorder_columns(dl_sql_binder *b, const dl_sql_name_list *list, const dl_sql_dml_target *t,
               dl_sql_optimize_cluster *cl, int32_t *cols, dl_error *err) {
    const char *check = dl_sql_session_get(
        b->session, "spark.databricks.delta.optimize.zorder.checkStatsCollection.enabled");
    bool is_checked = check == NULL || strcmp(check, "false") != 0;
    for (int32_t i = 0; i < (int32_t)list->n; i++) {
        const dl_sql_name *n = &list->items[i];
        int32_t c = n->n_parts == 1 ? find_column(t->schema, n->parts[0].name) : -1;
        if (c < 0) {
            DL_SQL_BIND_FAIL(b, n->parts[0].loc, DL_ERR_SQL_BIND, err,
                             "[DELTA_ZORDERING_COLUMN_DOES_NOT_EXIST] Z-Ordering column %.*s does "
                             "not exist in data schema (of table %s; deltalite z-orders by "
                             "top-level columns)",
                             DL_STR_FMT(n->parts[n->n_parts - 1].name), t->display);
        }
        const char *name = t->schema->fields[c].name;
        if (dl_sql_dml_is_partition_column(t, c, NULL)) {
            return fail_partition(b, n, name, err);
        }
        if (is_checked && !has_stats(t, c)) {
            return fail_no_stats(b, n, name, err);
        }
        for (int32_t k = 0; k < i; k++) {
            if (cols[k] == c) {
                DL_SQL_BIND_FAIL(b, n->parts[0].loc, DL_ERR_SQL_BIND, err,
                                 "ZORDER BY names column %s twice", name);
            }
        }
        cols[i] = c;
        cl->names[i] = name;
    }
    cl->n_cols = (int32_t)list->n;
    return DL_OK;
}

/* The clustered table's columns into cl. */
static dl_status
liquid_columns(dl_sql_binder *b, const dl_sql_dml_target *t, const char *const *names, int32_t n,
               dl_sql_optimize_cluster *cl, int32_t *cols, dl_error *err) {
    for (int32_t i = 0; i < n; i++) {
        int32_t c = find_column(t->schema, dl_str_from_cstr(names[i]));
        DL_CHECK(c >= 0, err, DL_ERR_CORRUPT,
                 "table %s: the clustering column %s (delta.clustering domain) is not in the "
                 "schema",
                 t->display, names[i]);
        cols[i] = c;
        cl->names[i] = t->schema->fields[c].name;
    }
    cl->n_cols = n;
    cl->is_liquid = true;
    (void)b;
    return DL_OK;
}

/* A clustered table (even after CLUSTER BY NONE) takes no ZORDER BY, as in Delta. */
static dl_status
check_modes(dl_sql_binder *b, const dl_sql_stmt *stmt, const dl_sql_dml_target *t, int32_t n_liquid,
            dl_error *err) {
    const dl_sql_name_list *z = &stmt->u.optimize.zorder_by;
    if (z->n > 0 && (n_liquid > 0 || dl_sql_cluster_is_clustered(t->snap))) {
        DL_SQL_BIND_FAIL(b, z->items[0].parts[0].loc, DL_ERR_SQL_BIND, err,
                         "[DELTA_CLUSTERING_WITH_ZORDER_BY] OPTIMIZE command for Delta table %s "
                         "with clustering cannot specify ZORDER BY. Please remove ZORDER BY "
                         "(%.*s)",
                         t->display, DL_STR_FMT(z->items[0].parts[0].name));
    }
    if (stmt->u.optimize.is_full && n_liquid == 0) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_UNSUPPORTED, err,
                         "[DELTA_OPTIMIZE_FULL_NOT_SUPPORTED] OPTIMIZE FULL is only supported for "
                         "clustered tables with non-empty clustering columns");
    }
    return DL_OK;
}

dl_status
dl_sql_optimize_cluster_init(dl_sql_binder *b, const dl_sql_stmt *stmt, const dl_sql_dml_target *t,
                             dl_sql_optimize_cluster *cl, dl_error *err) {
    memset(cl, 0, sizeof(*cl));
    const char **liquid = NULL;
    int32_t n_liquid = 0;
    DL_TRY(dl_sql_cluster_columns(b->arena, t->snap, &liquid, &n_liquid, err));
    DL_TRY(check_modes(b, stmt, t, n_liquid, err));
    const dl_sql_name_list *z = &stmt->u.optimize.zorder_by;
    int32_t n = z->n > 0 ? (int32_t)z->n : n_liquid;
    if (stmt->u.optimize.is_purge || n == 0) {
        return DL_OK;
    }
    DL_CHECK(n <= 64, err, DL_ERR_UNSUPPORTED, "OPTIMIZE %s: at most 64 clustering columns",
             t->display);
    int32_t *cols = dl_arena_alloc_zero(b->arena, (size_t)n * sizeof(int32_t));
    cl->names = dl_arena_alloc_zero(b->arena, (size_t)n * sizeof(char *));
    DL_CHECK(cols != NULL && cl->names != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (z->n > 0) {
        DL_TRY(zorder_columns(b, z, t, cl, cols, err));
    } else {
        DL_TRY(liquid_columns(b, t, liquid, n_liquid, cl, cols, err));
    }
    cl->is_full = stmt->u.optimize.is_full;
    cl->spec.cols = cols;
    cl->spec.n_cols = n;
    cl->spec.curve = cl->is_liquid && n > 1 ? DL_SQL_CURVE_HILBERT : DL_SQL_CURVE_ZORDER;
    int64_t ranges =
        dl_sql_session_get_i64(b->session, "spark.databricks.io.skipping.mdc.rangeId.max");
    cl->spec.num_ranges = ranges > 0 && ranges < INT32_MAX / 32 ? (int32_t)ranges : 1000;
    DL_TRY(dl_sql_dml_json_list(b, cl->names, n, &cl->names_json, err));
    uint8_t uuid[16];
    DL_TRY(dl_delta_uuid_random(uuid, err));
    dl_delta_uuid_format(uuid, cl->cube_id);
    return DL_OK;
}

/* ---- candidates, commit ------------------------------------------------------------------- */

/* The string value of tags[key] (a JSON object's text), or an empty view. */
static dl_str
tag_value(dl_str tags, const char *key, dl_json_doc *doc, dl_error *err) {
    if (tags.len == 0 || dl_json_doc_parse(doc, tags.ptr, tags.len, err) != DL_OK) {
        return (dl_str){0};
    }
    dl_json_val v = dl_json_obj_get(dl_json_doc_root(doc), key);
    return dl_json_val_type(v) == DL_JSON_STRING ? dl_json_val_str(v) : (dl_str){0};
}

bool
dl_sql_optimize_cluster_candidate(const dl_sql_optimize_cluster *cl, const dl_delta_file *f) {
    if (!cl->is_liquid || cl->is_full) {
        return true;
    }
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_error ignored;
    dl_str by = tag_value(f->tags, "ZCUBE_ZORDER_BY", &doc, &ignored);
    bool is_clustered = by.len > 0 && dl_str_eq(by, dl_str_from_cstr(cl->names_json));
    dl_json_doc_destroy(&doc);
    return !is_clustered;
}

dl_status
dl_sql_optimize_cluster_params(dl_sql_binder *b, const dl_sql_optimize_cluster *cl, dl_delta_tx *tx,
                               dl_error *err) {
    bool is_z = cl->n_cols > 0 && !cl->is_liquid;
    DL_TRY(dl_sql_dml_param_array(b, tx, "zOrderBy", is_z ? cl->names : NULL, is_z ? cl->n_cols : 0,
                                  err));
    DL_TRY(dl_sql_dml_param_array(b, tx, "clusterBy", cl->is_liquid ? cl->names : NULL,
                                  cl->is_liquid ? cl->n_cols : 0, err));
    return cl->is_liquid ? dl_delta_tx_param_json(tx, "isFull", cl->is_full ? "true" : "false", err)
                         : DL_OK;
}

dl_status
dl_sql_optimize_cluster_stage(const dl_sql_optimize_cluster *cl, const dl_ops_writer *w,
                              dl_delta_tx *tx, dl_error *err) {
    if (!cl->is_liquid) {
        return dl_ops_writer_stage(w, tx, false, err);
    }
    dl_delta_kv tags[] = {{"ZCUBE_ID", cl->cube_id}, {"ZCUBE_ZORDER_BY", cl->names_json}};
    for (size_t i = 0; i < dl_ops_writer_file_count(w); i++) {
        const dl_ops_file *f = dl_ops_writer_file(w, i);
        dl_delta_add_file add = {.path = f->path,
                                 .partition_values = f->partition_values,
                                 .n_partition_values = f->n_partition_values,
                                 .size = f->size,
                                 .modification_time = dl_sql_dml_now_ms(),
                                 .data_change = false,
                                 .stats = f->stats,
                                 .tags = tags,
                                 .n_tags = (int32_t)DL_ARRAY_LEN(tags),
                                 .clustering_provider = "liquid"};
        DL_TRY(dl_delta_tx_add(tx, &add, err));
    }
    return DL_OK;
}

/* ---- the result row ----------------------------------------------------------------------- */

static dl_status
put_files(dl_vector *v, int64_t num, int64_t size, dl_error *err) {
    DL_TRY(dl_vec_append_i64(v->children[0], num, err));
    DL_TRY(dl_vec_append_i64(v->children[1], size, err));
    return dl_vec_append_struct(v, err);
}

dl_status
dl_sql_optimize_zorder_stats(const dl_sql_optimize_cluster *cl, dl_vector *v, int64_t n_removed,
                             int64_t removed_bytes, int64_t n_bins, dl_error *err) {
    if (cl->n_cols == 0 || cl->is_liquid) {
        return dl_vec_append_null(v, err);
    }
    dl_vector **c = v->children;
    DL_TRY(dl_vec_append_str(c[0], "all", 3, err));
    DL_TRY(put_files(c[1], 0, 0, err));
    DL_TRY(put_files(c[2], n_removed, removed_bytes, err));
    DL_TRY(dl_vec_append_i64(c[3], 0, err));
    DL_TRY(put_files(c[4], n_removed, removed_bytes, err));
    DL_TRY(dl_vec_append_i64(c[5], n_bins, err));
    DL_TRY(dl_vec_append_null(c[6], err));
    return dl_vec_append_struct(v, err);
}
