/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Liquid clustering's table metadata (sql_cluster.h), as Delta writes it
 * (PROTOCOL.md "Clustered Table"; the domain's format is in delta/delta_clustering.h): the
 * table's protocol lists the writer features clustering and domainMetadata, and the
 * delta.clustering domain lists the columns. CLUSTER BY NONE keeps the domain with an empty
 * list.
 */
#include "sql/commands/sql_cluster.h"

#include <stdlib.h>
#include <string.h>

#include "delta/delta_clustering.h"
#include "delta/delta_colmap.h"
#include "json/json.h"

dl_status
dl_sql_cluster_columns(dl_arena *arena, const dl_delta_snapshot *snap, const char ***out_names,
                       int32_t *out_n, dl_error *err) {
    *out_names = NULL;
    *out_n = 0;
    return snap != NULL ? dl_delta_clustering_columns(snap, arena, out_names, out_n, err) : DL_OK;
}

bool
dl_sql_cluster_is_clustered(const dl_delta_snapshot *snap) {
    const dl_delta_protocol *p = dl_delta_snapshot_protocol(snap);
    for (int32_t i = 0; p != NULL && i < p->n_writer_features; i++) {
        if (strcmp(p->writer_features[i], "clustering") == 0) {
            return true;
        }
    }
    return false;
}

/* ---- CLUSTER BY's columns ----------------------------------------------------------------- */

static dl_status
check_type(dl_sql_binder *b, const dl_sql_ident *id, const dl_type *type, const char *name,
           dl_error *err) {
    dl_type_id t = type->id;
    if (t == DL_VEC_TYPE_BOOLEAN || t == DL_VEC_TYPE_BINARY || t == DL_VEC_TYPE_STRUCT ||
        t == DL_VEC_TYPE_ARRAY || t == DL_VEC_TYPE_MAP) {
        DL_SQL_BIND_FAIL(b, id->loc, DL_ERR_SQL_BIND, err,
                         "[DELTA_CLUSTERING_COLUMNS_DATATYPE_NOT_SUPPORTED] CLUSTER BY is not "
                         "supported because the following column(s): %s : %s don't support data "
                         "skipping",
                         name, dl_vec_type_name(t));
    }
    return DL_OK;
}

/* Whether column c (of a table without partition columns) gets statistics. */
static bool
is_indexed(int32_t c, const char *indexed_cols) {
    int64_t limit = indexed_cols != NULL ? strtoll(indexed_cols, NULL, 10) : DL_OPS_STATS_COLUMNS;
    limit = limit > DL_OPS_STATS_COLUMNS ? DL_OPS_STATS_COLUMNS : limit;
    return limit < 0 || c < limit;
}

dl_status
dl_sql_cluster_check(dl_sql_binder *b, const dl_sql_name_list *names, const dl_type *schema,
                     int32_t n_parts, const char *indexed_cols, const char *display,
                     const char ***out, dl_error *err) {
    if (n_parts > 0) {
        DL_SQL_BIND_FAIL(b, names->items[0].parts[0].loc, DL_ERR_SQL_BIND, err,
                         "[DELTA_CLUSTER_BY_WITH_PARTITIONED_BY] Clustering and partitioning "
                         "cannot both be specified. Please remove PARTITIONED BY if you want to "
                         "create a Delta table with clustering");
    }
    if (names->n > DL_SQL_CLUSTER_MAX_COLUMNS) {
        DL_SQL_BIND_FAIL(b, names->items[0].parts[0].loc, DL_ERR_SQL_BIND, err,
                         "[DELTA_CLUSTER_BY_INVALID_NUM_COLUMNS] CLUSTER BY supports up to %d "
                         "clustering columns, but the table %s has %u clustering columns. Please "
                         "remove the extra clustering columns",
                         DL_SQL_CLUSTER_MAX_COLUMNS, display, names->n);
    }
    const char **list = dl_arena_alloc_zero(b->arena, (size_t)(names->n + 1) * sizeof(char *));
    DL_CHECK(list != NULL, err, DL_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < names->n; i++) {
        const dl_sql_ident *id = &names->items[i].parts[0];
        int32_t c = -1;
        for (int32_t k = 0; k < schema->n_fields && names->items[i].n_parts == 1; k++) {
            c = dl_str_eq_nocase(dl_str_from_cstr(schema->fields[k].name), id->name) ? k : c;
        }
        if (c < 0) {
            DL_SQL_BIND_FAIL(
                b, id->loc, DL_ERR_SQL_BIND, err,
                "[UNSUPPORTED_FEATURE.PARTITION_WITH_NESTED_COLUMN_IS_UNSUPPORTED] The "
                "feature is not supported: Invalid partitioning: `%.*s` is missing or "
                "is in a map or array (table %s; CLUSTER BY takes top-level columns)",
                DL_STR_FMT(names->items[i].parts[names->items[i].n_parts - 1].name), display);
        }
        const char *name = schema->fields[c].name;
        DL_TRY(check_type(b, id, schema->fields[c].type, name, err));
        if (!is_indexed(c, indexed_cols)) {
            DL_SQL_BIND_FAIL(b, id->loc, DL_ERR_SQL_BIND, err,
                             "[DELTA_CLUSTERING_COLUMN_MISSING_STATS] Clustering requires "
                             "clustering columns to have stats. Couldn't find clustering "
                             "column(s) '%s' in stats schema",
                             name);
        }
        for (uint32_t k = 0; k < i; k++) {
            if (strcmp(list[k], name) == 0) {
                DL_SQL_BIND_FAIL(b, id->loc, DL_ERR_SQL_BIND, err,
                                 "[DELTA_DUPLICATE_COLUMNS_FOUND] Found duplicate column(s) in "
                                 "CLUSTER BY: %s",
                                 name);
            }
        }
        list[i] = name;
    }
    *out = list;
    return DL_OK;
}

/* The name the clustering domain keys a column by: its physical name on a table with column
 * mapping (the staged metaData's, else the snapshot's), else its name. */
static const char *
domain_name(const dl_delta_schema *schema, dl_delta_cm_mode mode, const char *name) {
    if (schema == NULL || mode == DL_DELTA_CM_NONE) {
        return name;
    }
    const dl_delta_field *f = dl_delta_schema_find(schema, dl_str_from_cstr(name));
    const char *phys = f != NULL ? dl_delta_field_physical_name(f, mode) : NULL;
    return phys != NULL ? phys : name;
}

dl_status
dl_sql_cluster_stage_domain(dl_sql_binder *b, dl_delta_tx *tx, const char *const *names, int32_t n,
                            dl_error *err) {
    const dl_delta_schema *schema = NULL;
    dl_delta_cm_mode mode = DL_DELTA_CM_NONE;
    DL_TRY(dl_delta_colmap_tx_schema(tx, &schema, &mode, err));
    dl_buf text;
    dl_buf_init(&text, b->exec->alloc);
    dl_json_writer jw;
    dl_json_writer_init(&jw, &text, 0);
    dl_status s = dl_json_writer_begin_object(&jw, err);
    if (s == DL_OK) {
        s = dl_json_writer_key_cstr(&jw, "clusteringColumns", err);
    }
    if (s == DL_OK) {
        s = dl_json_writer_begin_array(&jw, err);
    }
    for (int32_t i = 0; i < n && s == DL_OK; i++) {
        s = dl_json_writer_begin_array(&jw, err);
        if (s == DL_OK) {
            s = dl_json_writer_string_cstr(&jw, domain_name(schema, mode, names[i]), err);
        }
        if (s == DL_OK) {
            s = dl_json_writer_end_array(&jw, err);
        }
    }
    if (s == DL_OK) {
        s = dl_json_writer_end_array(&jw, err);
    }
    if (s == DL_OK) {
        s = dl_json_writer_key_cstr(&jw, "domainName", err);
    }
    if (s == DL_OK) {
        s = dl_json_writer_string_cstr(&jw, DL_SQL_CLUSTER_DOMAIN, err);
    }
    if (s == DL_OK) {
        s = dl_json_writer_end_object(&jw, err);
    }
    if (s == DL_OK) {
        s = dl_delta_tx_set_domain(tx, DL_SQL_CLUSTER_DOMAIN, dl_buf_cstr(&text), false, err);
    }
    dl_json_writer_destroy(&jw);
    dl_buf_destroy(&text);
    return s;
}

/* conf[0..n) and the pseudo-properties that ask for the clustering and domainMetadata
 * features (n + 2 entries), in the arena. */
static dl_status
with_features(dl_sql_binder *b, const dl_delta_kv *conf, int32_t n, const dl_delta_kv **out,
              dl_error *err) {
    dl_delta_kv *kv = dl_arena_alloc_zero(b->arena, (size_t)(n + 2) * sizeof(dl_delta_kv));
    DL_CHECK(kv != NULL, err, DL_ERR_NOMEM, "out of memory");
    if (n > 0) {
        memcpy(kv, conf, (size_t)n * sizeof(dl_delta_kv));
    }
    kv[n] = (dl_delta_kv){"delta.feature.clustering", "supported"};
    kv[n + 1] = (dl_delta_kv){"delta.feature.domainMetadata", "supported"};
    *out = kv;
    return DL_OK;
}

dl_status
dl_sql_cluster_create(dl_sql_binder *b, const dl_sql_name_list *names, const dl_type *schema,
                      const char *display, dl_delta_create_spec *spec, const char ***out,
                      dl_error *err) {
    const char *indexed = NULL;
    for (int32_t i = 0; i < spec->n_configuration; i++) {
        if (strcmp(spec->configuration[i].key, "delta.dataSkippingNumIndexedCols") == 0) {
            indexed = spec->configuration[i].value;
        }
    }
    DL_TRY(dl_sql_cluster_check(b, names, schema, spec->n_partition_columns, indexed, display, out,
                                err));
    DL_TRY(with_features(b, spec->configuration, spec->n_configuration, &spec->configuration, err));
    spec->n_configuration += 2;
    return dl_sql_dml_json_list(b, *out, (int32_t)names->n, &spec->cluster_by, err);
}

/* ---- ALTER TABLE ... CLUSTER BY ----------------------------------------------------------- */

/* names[0..n) joined by commas, as Delta's ClusterBy operation writes its parameters. */
static const char *
joined(dl_sql_binder *b, const char *const *names, int32_t n) {
    size_t len = 1;
    for (int32_t i = 0; i < n; i++) {
        len += strlen(names[i]) + 1;
    }
    char *out = dl_arena_alloc_zero(b->arena, len);
    size_t used = 0;
    for (int32_t i = 0; out != NULL && i < n; i++) {
        size_t k = strlen(names[i]);
        if (i > 0) {
            out[used++] = ',';
        }
        memcpy(out + used, names[i], k);
        used += k;
    }
    return out;
}

/* The protocol upgrade that adds clustering and domainMetadata to t's. */
static dl_status
upgrade_protocol(dl_sql_binder *b, const dl_sql_dml_target *t, dl_delta_tx *tx, dl_error *err) {
    const dl_delta_metadata *md = dl_delta_snapshot_metadata(t->snap);
    dl_delta_metadata with = *md;
    DL_TRY(with_features(b, md->configuration, md->n_configuration, &with.configuration, err));
    with.n_configuration += 2;
    dl_delta_protocol p;
    DL_TRY(dl_delta_protocol_for_metadata(&with, dl_delta_snapshot_schema(t->snap),
                                          dl_delta_snapshot_protocol(t->snap), b->arena, &p, err));
    return dl_delta_tx_set_protocol(tx, &p, err);
}

static dl_status
stage_alter(dl_sql_binder *b, const dl_sql_dml_target *t, const char *const *old, int32_t n_old,
            const char *const *cols, int32_t n, dl_delta_tx *tx, dl_error *err) {
    dl_delta_tx_set_operation(tx, DL_DELTA_OP_CLUSTER_BY);
    const char *old_text = joined(b, old, n_old);
    const char *new_text = joined(b, cols, n);
    DL_CHECK(old_text != NULL && new_text != NULL, err, DL_ERR_NOMEM, "out of memory");
    DL_TRY(dl_delta_tx_param_string(tx, "oldClusteringColumns", old_text, err));
    DL_TRY(dl_delta_tx_param_string(tx, "newClusteringColumns", new_text, err));
    if (!dl_sql_cluster_is_clustered(t->snap)) {
        DL_TRY(upgrade_protocol(b, t, tx, err));
    }
    return dl_sql_cluster_stage_domain(b, tx, cols, n, err);
}

dl_status
dl_sql_cluster_alter(dl_sql_binder *b, const dl_sql_stmt *stmt, dl_error *err) {
    dl_sql_dml_target t;
    DL_TRY(dl_sql_dml_open(b, &stmt->u.alter.table, stmt->loc, &t, err));
    if (t.n_parts > 0) {
        DL_SQL_BIND_FAIL(b, stmt->loc, DL_ERR_SQL_BIND, err,
                         "[DELTA_ALTER_TABLE_CLUSTER_BY_ON_PARTITIONED_TABLE_NOT_ALLOWED] ALTER "
                         "TABLE CLUSTER BY cannot be applied to a partitioned table (%s)",
                         t.display);
    }
    const char **old = NULL;
    int32_t n_old = 0;
    DL_TRY(dl_sql_cluster_columns(b->arena, t.snap, &old, &n_old, err));
    const char **cols = NULL;
    const char *indexed = dl_delta_metadata_config(dl_delta_snapshot_metadata(t.snap),
                                                   "delta.dataSkippingNumIndexedCols");
    DL_TRY(
        dl_sql_cluster_check(b, &stmt->u.alter.names, t.schema, 0, indexed, t.display, &cols, err));
    dl_delta_tx *tx = NULL;
    DL_TRY(dl_delta_tx_begin(t.table, t.snap, NULL, &tx, err));
    dl_status s = stage_alter(b, &t, old, n_old, cols, (int32_t)stmt->u.alter.names.n, tx, err);
    if (s != DL_OK) {
        dl_delta_tx_free(tx);
        return s;
    }
    return dl_sql_dml_commit(tx, NULL, err);
}
