/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The delta.clustering domain of a clustered table (delta_clustering.h).
 */
#include "delta/delta_clustering.h"

#include <string.h>

#include "json/json.h"

/* The logical name of the top-level column whose physical (or logical) name is phys. */
static const char *
logical_name(const dl_delta_snapshot *snap, dl_str phys) {
    const dl_delta_schema *schema = dl_delta_snapshot_schema(snap);
    for (int32_t i = 0; i < schema->n_fields; i++) {
        const dl_delta_field *f = &schema->fields[i];
        if (f->physical_name != NULL && dl_str_eq(dl_str_from_cstr(f->physical_name), phys)) {
            return f->name;
        }
    }
    for (int32_t i = 0; i < schema->n_fields; i++) {
        if (dl_str_eq_nocase(dl_str_from_cstr(schema->fields[i].name), phys)) {
            return schema->fields[i].name;
        }
    }
    return NULL;
}

/* One clusteringColumns entry (a path) to a top-level column's logical name. */
static dl_status
entry_name(const dl_delta_snapshot *snap, dl_json_val path, const char **out, dl_error *err) {
    DL_CHECK(dl_json_val_type(path) == DL_JSON_ARRAY && dl_json_val_count(path) >= 1, err,
             DL_ERR_CORRUPT,
             "domain delta.clustering: a clusteringColumns entry is not a list of names");
    DL_CHECK(dl_json_val_count(path) == 1, err, DL_ERR_UNSUPPORTED,
             "the table is clustered by a nested field (domain delta.clustering): deltalite "
             "clusters by top-level columns only; run ALTER TABLE ... CLUSTER BY with top-level "
             "columns");
    dl_str phys;
    DL_TRY(dl_json_val_get_str(dl_json_arr_at(path, 0), &phys, err));
    *out = logical_name(snap, phys);
    DL_CHECK(*out != NULL, err, DL_ERR_CORRUPT,
             "domain delta.clustering: the clustering column %.*s is not in the schema",
             DL_STR_FMT(phys));
    return DL_OK;
}

static dl_status
parse_columns(dl_arena *arena, const dl_delta_snapshot *snap, dl_json_val cols,
              const char ***out_names, int32_t *out_n, dl_error *err) {
    DL_CHECK(dl_json_val_type(cols) == DL_JSON_ARRAY, err, DL_ERR_CORRUPT,
             "domain delta.clustering: clusteringColumns is not a list");
    uint32_t n = dl_json_val_count(cols);
    const char **names = dl_arena_alloc_zero(arena, (size_t)(n + 1) * sizeof(char *));
    DL_CHECK(names != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < n; i++) {
        DL_TRY(entry_name(snap, dl_json_arr_at(cols, i), &names[i], err));
    }
    *out_names = names;
    *out_n = (int32_t)n;
    return DL_OK;
}

dl_status
dl_delta_clustering_columns(const dl_delta_snapshot *snap, dl_arena *arena, const char ***out_names,
                            int32_t *out_n, dl_error *err) {
    *out_names = NULL;
    *out_n = 0;
    const char *conf = dl_delta_snapshot_domain_config(snap, DL_DELTA_CLUSTERING_DOMAIN);
    if (conf == NULL) {
        return DL_OK;
    }
    dl_json_doc doc;
    dl_json_doc_init(&doc, NULL);
    dl_status s = dl_json_doc_parse(&doc, conf, strlen(conf), err);
    if (s == DL_OK) {
        dl_json_val cols = dl_json_obj_get(dl_json_doc_root(&doc), "clusteringColumns");
        s = parse_columns(arena, snap, cols, out_names, out_n, err);
    }
    dl_json_doc_destroy(&doc);
    if (s != DL_OK) {
        dl_error_prefix(err, "table version %lld: ", (long long)dl_delta_snapshot_version(snap));
    }
    return s;
}
