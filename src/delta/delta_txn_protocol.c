/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The writer's side of the protocol ("Protocol Evolution", "Table Features", and each feature's
 * writer requirements): which protocol a table needs for the features its metadata uses, and
 * whether deltalite may write a table with a given protocol.
 *
 * Choosing a protocol. A feature is needed when the table's properties or schema use it:
 *
 *   delta.appendOnly=true                appendOnly         legacy writer 2
 *   column metadata delta.invariants     invariants         legacy writer 2
 *   delta.constraints.<name>             checkConstraints   legacy writer 3
 *   delta.enableChangeDataFeed=true      changeDataFeed     legacy writer 4
 *   column metadata generation expr.     generatedColumns   legacy writer 4
 *   delta.columnMapping.mode name|id     columnMapping      reader 2, writer 7 (as Delta 4)
 *   column metadata delta.identity.*     identityColumns    legacy writer 6
 *   column metadata CURRENT_DEFAULT      allowColumnDefaults       table feature (writer)
 *   timestamp_ntz anywhere in the schema timestampNtz              table feature (reader+writer)
 *   delta.enableDeletionVectors=true     deletionVectors           table feature (reader+writer)
 *   delta.enableInCommitTimestamps=true  inCommitTimestamp         table feature (writer)
 *   delta.enableRowTracking=true         rowTracking + domainMetadata  table features (writer)
 *   delta.checkpointPolicy=v2            v2Checkpoint              table feature (reader+writer)
 *   delta.enableTypeWidening=true        typeWidening              table feature (reader+writer)
 *   delta.feature.<name>=supported       <name>
 *
 * The protocol is the lowest that expresses them all: legacy versions (the maximum of the
 * features' legacy versions, at least (1, 2), Spark's default for new tables) when every needed
 * feature has a legacy version; otherwise writer version 7 with writerFeatures listing every
 * needed feature — those the old versions implied included, as the protocol requires when a
 * table moves to table features — and reader version 3 with readerFeatures listing the
 * reader+writer features when one of them exists only as a table feature (else the legacy
 * reader version, 1 or 2). delta.minReaderVersion / delta.minWriterVersion raise the versions.
 *
 * Checking a writer. With writer version 7 every listed writer feature must be one deltalite
 * honours (or the caller declares handled); with a legacy version, every implied feature that
 * is active (its property or column metadata present) must be.
 */
#include <string.h>

#include "delta/delta_txn_int.h"

_Static_assert(DL_DELTA_FEATURE_COUNT <= 64, "feature sets are 64-bit masks");

#define FBIT(f) ((uint64_t)1 << (unsigned)(f))

typedef struct legacy_versions {
    int reader;
    int writer;
} legacy_versions;

static const legacy_versions legacy[DL_DELTA_FEATURE_COUNT] = {
#define DL_DELTA_FEATURE_X(id, name, kind, legacy_reader, legacy_writer, is_read_supported, words) \
    {legacy_reader, legacy_writer},
#include "delta/delta_features.def"
#undef DL_DELTA_FEATURE_X
};

/* Writer features the transaction layer honours by itself (see delta_txn.h). The change data
 * feed: every writer here either writes no change data where Delta writes none (appends,
 * overwrites, whole-file deletes, RESTORE, OPTIMIZE) or writes it (DELETE, UPDATE, MERGE in
 * src/sql/commands/sql_dml_cdf.c). Row tracking: the commit assigns row ids and versions and
 * refuses what would need the materialized columns (delta_rowtrack.c). Type widening: files
 * are written in the schema's (wide) types and ALTER COLUMN records delta.typeChanges
 * (src/sql/commands/sql_dml_widen.c); the preview feature stays unsupported. Column mapping:
 * ids and physical names are assigned when a metaData is staged and every data file is written
 * under physical names (delta_colmap.h). CHECK constraints: every writer of new rows
 * checks them in the data-file writer (dl_ops_write_spec.check_rows, sql_dml_check.c). Clustering:
 * files any writer adds are simply not clustered yet (no clusteringProvider); OPTIMIZE clusters
 * them (src/sql/commands/sql_dml_zorder.c). */
#define SELF_HANDLED                                                                          \
    (FBIT(DL_DELTA_FEATURE_APPEND_ONLY) | FBIT(DL_DELTA_FEATURE_TIMESTAMP_NTZ) |              \
     FBIT(DL_DELTA_FEATURE_DELETION_VECTORS) | FBIT(DL_DELTA_FEATURE_DOMAIN_METADATA) |       \
     FBIT(DL_DELTA_FEATURE_IN_COMMIT_TIMESTAMP) | FBIT(DL_DELTA_FEATURE_V2_CHECKPOINT) |      \
     FBIT(DL_DELTA_FEATURE_VACUUM_PROTOCOL_CHECK) | FBIT(DL_DELTA_FEATURE_CHANGE_DATA_FEED) | \
     FBIT(DL_DELTA_FEATURE_ROW_TRACKING) | FBIT(DL_DELTA_FEATURE_TYPE_WIDENING) |             \
     FBIT(DL_DELTA_FEATURE_COLUMN_MAPPING) | FBIT(DL_DELTA_FEATURE_CHECK_CONSTRAINTS) |       \
     FBIT(DL_DELTA_FEATURE_CLUSTERING))

/* ---- metadata and schema -------------------------------------------------------------- */

bool
dl_delta_md_is_ict(const dl_delta_metadata *md) {
    return md != NULL && dl_delta_metadata_config_bool(md, "delta.enableInCommitTimestamps", false);
}

dl_delta_cm_mode
dl_delta_md_cm_mode(const dl_delta_metadata *md) {
    const char *mode = md != NULL ? dl_delta_metadata_config(md, "delta.columnMapping.mode") : NULL;
    if (mode != NULL && dl_delta_str_eq_nocase_cstr(dl_str_from_cstr(mode), "name")) {
        return DL_DELTA_CM_NAME;
    }
    if (mode != NULL && dl_delta_str_eq_nocase_cstr(dl_str_from_cstr(mode), "id")) {
        return DL_DELTA_CM_ID;
    }
    return DL_DELTA_CM_NONE;
}

static bool
conf_has_prefix(const dl_delta_metadata *md, const char *prefix) {
    size_t n = strlen(prefix);
    for (int32_t i = 0; md != NULL && i < md->n_configuration; i++) {
        if (strncmp(md->configuration[i].key, prefix, n) == 0) {
            return true;
        }
    }
    return false;
}

static uint64_t
fields_features(const dl_delta_field *fields, int32_t n) {
    uint64_t set = 0;
    for (int32_t i = 0; i < n; i++) {
        const dl_delta_field *f = &fields[i];
        if (f->type != NULL && f->type->id == DL_VEC_TYPE_TIMESTAMP_NTZ) {
            set |= FBIT(DL_DELTA_FEATURE_TIMESTAMP_NTZ);
        }
        if (f->invariant != NULL) {
            set |= FBIT(DL_DELTA_FEATURE_INVARIANTS);
        }
        if (f->generation_expr != NULL) {
            set |= FBIT(DL_DELTA_FEATURE_GENERATED_COLUMNS);
        }
        if (f->is_identity) {
            set |= FBIT(DL_DELTA_FEATURE_IDENTITY_COLUMNS);
        }
        if (f->default_expr != NULL) {
            set |= FBIT(DL_DELTA_FEATURE_ALLOW_COLUMN_DEFAULTS);
        }
        set |= fields_features(f->children, f->n_children);
    }
    return set;
}

static uint64_t
schema_features(const dl_delta_schema *schema) {
    return schema != NULL ? fields_features(schema->fields, schema->n_fields) : 0;
}

static bool
conf_true(const dl_delta_metadata *md, const char *key) {
    return md != NULL && dl_delta_metadata_config_bool(md, key, false);
}

static uint64_t
metadata_features(const dl_delta_metadata *md) {
    uint64_t set = 0;
    if (conf_true(md, "delta.appendOnly")) {
        set |= FBIT(DL_DELTA_FEATURE_APPEND_ONLY);
    }
    if (conf_has_prefix(md, "delta.constraints.")) {
        set |= FBIT(DL_DELTA_FEATURE_CHECK_CONSTRAINTS);
    }
    if (conf_true(md, "delta.enableChangeDataFeed") ||
        conf_true(md, "delta.enableChangeDataCapture")) {
        set |= FBIT(DL_DELTA_FEATURE_CHANGE_DATA_FEED);
    }
    if (dl_delta_md_cm_mode(md) != DL_DELTA_CM_NONE) {
        set |= FBIT(DL_DELTA_FEATURE_COLUMN_MAPPING);
    }
    if (conf_true(md, "delta.enableDeletionVectors")) {
        set |= FBIT(DL_DELTA_FEATURE_DELETION_VECTORS);
    }
    if (dl_delta_md_is_ict(md)) {
        set |= FBIT(DL_DELTA_FEATURE_IN_COMMIT_TIMESTAMP);
    }
    if (conf_true(md, "delta.enableRowTracking")) {
        set |= FBIT(DL_DELTA_FEATURE_ROW_TRACKING) | FBIT(DL_DELTA_FEATURE_DOMAIN_METADATA);
    }
    const char *policy = md != NULL ? dl_delta_metadata_config(md, "delta.checkpointPolicy") : NULL;
    if (policy != NULL && dl_delta_str_eq_nocase_cstr(dl_str_from_cstr(policy), "v2")) {
        set |= FBIT(DL_DELTA_FEATURE_V2_CHECKPOINT);
    }
    if (conf_true(md, "delta.enableTypeWidening")) {
        set |= FBIT(DL_DELTA_FEATURE_TYPE_WIDENING);
    }
    return set;
}

/* One pseudo-property: delta.feature.<name> or delta.min{Reader,Writer}Version. */
static dl_status
pseudo_feature(const dl_delta_kv *kv, uint64_t *set, int *rv, int *wv, dl_error *err) {
    const char *key = kv->key;
    const char *val = kv->value != NULL ? kv->value : "";
    dl_str v = dl_str_from_cstr(val);
    if (strncmp(key, "delta.feature.", 14) == 0) {
        dl_delta_feature f;
        DL_CHECK(dl_delta_feature_lookup(dl_str_from_cstr(key + 14), &f), err, DL_ERR_UNSUPPORTED,
                 "table property '%s': deltalite does not know the table feature '%s'", key,
                 key + 14);
        DL_CHECK(dl_delta_str_eq_nocase_cstr(v, "supported") ||
                     dl_delta_str_eq_nocase_cstr(v, "enabled"),
                 err, DL_ERR_INVALID_ARG,
                 "table property '%s': expected 'supported' or 'enabled', found '%s'", key, val);
        *set |= FBIT(f);
        return DL_OK;
    }
    bool is_reader = strcmp(key, "delta.minReaderVersion") == 0;
    if (!is_reader && strcmp(key, "delta.minWriterVersion") != 0) {
        return DL_OK;
    }
    int64_t n = 0;
    DL_CHECK(dl_delta_parse_version(v, &n) && n >= 1 && n <= (is_reader ? 3 : 7), err,
             DL_ERR_INVALID_ARG,
             "table property '%s': expected a protocol version from 1 to %d, found '%s'", key,
             is_reader ? 3 : 7, val);
    int *slot = is_reader ? rv : wv;
    *slot = DL_MAX(*slot, (int)n);
    return DL_OK;
}

static dl_status
pseudo_features(const dl_delta_metadata *md, uint64_t *set, int *rv, int *wv, dl_error *err) {
    for (int32_t i = 0; md != NULL && i < md->n_configuration; i++) {
        DL_TRY(pseudo_feature(&md->configuration[i], set, rv, wv, err));
    }
    return DL_OK;
}

/* True for Spark's pseudo-properties, which ask for a protocol and are not stored. */
static bool
is_pseudo_property(const char *key) {
    return strncmp(key, "delta.feature.", 14) == 0 || strcmp(key, "delta.minReaderVersion") == 0 ||
           strcmp(key, "delta.minWriterVersion") == 0;
}

/* ---- copies and comparisons ----------------------------------------------------------- */

static const char *
dup_str(dl_arena *arena, const char *s, bool *is_failed) {
    if (s == NULL) {
        return NULL;
    }
    char *copy = dl_arena_strndup(arena, s, strlen(s));
    if (copy == NULL) {
        *is_failed = true;
    }
    return copy;
}

static const char *const *
dup_names(dl_arena *arena, const char *const *names, int32_t n, bool *is_failed) {
    if (names == NULL) {
        return NULL;
    }
    const char **copy = dl_arena_alloc_array(arena, (size_t)(n > 0 ? n : 1), sizeof(*copy));
    if (copy == NULL) {
        *is_failed = true;
        return NULL;
    }
    for (int32_t i = 0; i < n; i++) {
        copy[i] = dup_str(arena, names[i], is_failed);
    }
    return copy;
}

static dl_delta_kv *
dup_kv(dl_arena *arena, const dl_delta_kv *kv, int32_t n, bool *is_failed) {
    dl_delta_kv *copy = dl_arena_alloc_array(arena, (size_t)(n > 0 ? n : 1), sizeof(*copy));
    if (copy == NULL) {
        *is_failed = true;
        return NULL;
    }
    for (int32_t i = 0; i < n; i++) {
        copy[i].key = dup_str(arena, kv[i].key, is_failed);
        copy[i].value = dup_str(arena, kv[i].value, is_failed);
    }
    return copy;
}

dl_status
dl_delta_protocol_copy(const dl_delta_protocol *src, dl_arena *arena, dl_delta_protocol *out,
                       dl_error *err) {
    bool is_failed = false;
    *out = *src;
    out->reader_features =
        dup_names(arena, src->reader_features, src->n_reader_features, &is_failed);
    out->writer_features =
        dup_names(arena, src->writer_features, src->n_writer_features, &is_failed);
    DL_CHECK(!is_failed, err, DL_ERR_NOMEM, "out of memory copying a protocol");
    return DL_OK;
}

dl_status
dl_delta_metadata_copy(const dl_delta_metadata *src, const dl_delta_kv *conf, int32_t n_conf,
                       dl_arena *arena, dl_delta_metadata *out, dl_error *err) {
    bool is_failed = false;
    if (conf == NULL) {
        conf = src->configuration;
        n_conf = src->n_configuration;
    }
    *out = *src;
    out->id = dup_str(arena, src->id, &is_failed);
    out->name = dup_str(arena, src->name, &is_failed);
    out->description = dup_str(arena, src->description, &is_failed);
    out->format_provider = dup_str(arena, src->format_provider, &is_failed);
    out->format_options = dup_kv(arena, src->format_options, src->n_format_options, &is_failed);
    out->schema_string = dup_str(arena, src->schema_string, &is_failed);
    out->partition_columns =
        dup_names(arena, src->partition_columns, src->n_partition_columns, &is_failed);
    if (out->partition_columns == NULL && !is_failed) {
        out->partition_columns = dup_names(arena, (const char *const[]){""}, 0, &is_failed);
    }
    out->configuration = dup_kv(arena, conf, n_conf, &is_failed);
    out->n_configuration = n_conf;
    DL_CHECK(!is_failed, err, DL_ERR_NOMEM, "out of memory copying a metaData action");
    return DL_OK;
}

dl_status
dl_delta_conf_strip_pseudo(const dl_delta_kv *conf, int32_t n, dl_arena *arena,
                           const dl_delta_kv **out, int32_t *out_n, dl_error *err) {
    dl_delta_kv *kept = dl_arena_alloc_array(arena, (size_t)(n > 0 ? n : 1), sizeof(*kept));
    DL_CHECK(kept != NULL, err, DL_ERR_NOMEM, "out of memory copying a configuration");
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++) {
        if (!is_pseudo_property(conf[i].key)) {
            kept[k++] = conf[i];
        }
    }
    *out = kept;
    *out_n = k;
    return DL_OK;
}

static bool
names_subset(const char *const *a, int32_t na, const char *const *b, int32_t nb) {
    for (int32_t i = 0; i < na; i++) {
        bool found = false;
        for (int32_t j = 0; j < nb && !found; j++) {
            found = strcmp(a[i], b[j]) == 0;
        }
        if (!found) {
            return false;
        }
    }
    return true;
}

bool
dl_delta_protocol_equal(const dl_delta_protocol *a, const dl_delta_protocol *b) {
    return a->min_reader_version == b->min_reader_version &&
           a->min_writer_version == b->min_writer_version &&
           a->has_reader_features == b->has_reader_features &&
           a->has_writer_features == b->has_writer_features &&
           a->n_reader_features == b->n_reader_features &&
           a->n_writer_features == b->n_writer_features &&
           names_subset(a->reader_features, a->n_reader_features, b->reader_features,
                        b->n_reader_features) &&
           names_subset(a->writer_features, a->n_writer_features, b->writer_features,
                        b->n_writer_features);
}

/* ---- choosing a protocol -------------------------------------------------------------- */

static uint64_t
protocol_features(const dl_delta_protocol *p) {
    uint64_t set = 0;
    for (int f = 0; p != NULL && f < DL_DELTA_FEATURE_COUNT; f++) {
        if (dl_delta_protocol_has_feature(p, (dl_delta_feature)f)) {
            set |= FBIT(f);
        }
    }
    return set;
}

/* Names of p's lists that deltalite does not know: kept as they are when p is extended. */
static int32_t
count_unknown(const char *const *names, int32_t n) {
    int32_t count = 0;
    for (int32_t i = 0; i < n; i++) {
        dl_delta_feature f;
        count += dl_delta_feature_lookup(dl_str_from_cstr(names[i]), &f) ? 0 : 1;
    }
    return count;
}

static const char *const *
build_list(uint64_t set, bool is_reader_list, const char *const *base, int32_t n_base,
           dl_arena *arena, int32_t *out_n) {
    int32_t cap = count_unknown(base, n_base) + DL_DELTA_FEATURE_COUNT;
    const char **names = dl_arena_alloc_array(arena, (size_t)cap, sizeof(*names));
    if (names == NULL) {
        return NULL;
    }
    int32_t n = 0;
    for (int f = 0; f < DL_DELTA_FEATURE_COUNT; f++) {
        bool is_rw =
            dl_delta_feature_kind_of((dl_delta_feature)f) == DL_DELTA_FEATURE_READER_WRITER;
        if ((set & FBIT(f)) != 0 && (!is_reader_list || is_rw)) {
            names[n++] = dl_delta_feature_name((dl_delta_feature)f);
        }
    }
    for (int32_t i = 0; i < n_base; i++) {
        dl_delta_feature f;
        if (!dl_delta_feature_lookup(dl_str_from_cstr(base[i]), &f)) {
            names[n++] = base[i];
        }
    }
    *out_n = n;
    return names;
}

dl_status
dl_delta_protocol_for_metadata(const dl_delta_metadata *md, const dl_delta_schema *schema,
                               const dl_delta_protocol *base, dl_arena *arena,
                               dl_delta_protocol *out, dl_error *err) {
    int rv = 1;
    int wv = 2;
    uint64_t need = protocol_features(base) | metadata_features(md) | schema_features(schema);
    if (base == NULL) {
        /* A new table starts from Spark's default (1, 2), whose implied features are listed
         * when it needs table features (as Spark 3.x+ writes them). */
        need |= FBIT(DL_DELTA_FEATURE_APPEND_ONLY) | FBIT(DL_DELTA_FEATURE_INVARIANTS);
    } else {
        rv = DL_MAX(rv, (int)base->min_reader_version);
        wv = DL_MAX(wv, (int)base->min_writer_version);
    }
    DL_TRY(pseudo_features(md, &need, &rv, &wv, err));
    bool is_tf_reader = rv >= 3;
    bool is_tf_writer = wv >= 7;
    /* Delta 4 turns column mapping on with table features for the writer (2, 7 with
     * writerFeatures columnMapping, invariants, appendOnly), not legacy (2, 5). */
    if ((metadata_features(md) & FBIT(DL_DELTA_FEATURE_COLUMN_MAPPING)) != 0 &&
        (base == NULL || !dl_delta_protocol_has_feature(base, DL_DELTA_FEATURE_COLUMN_MAPPING))) {
        is_tf_writer = true;
        need |= FBIT(DL_DELTA_FEATURE_APPEND_ONLY) | FBIT(DL_DELTA_FEATURE_INVARIANTS);
    }
    for (int f = 0; f < DL_DELTA_FEATURE_COUNT; f++) {
        if ((need & FBIT(f)) == 0) {
            continue;
        }
        if (legacy[f].writer == 0) {
            is_tf_writer = true;
        } else {
            wv = DL_MAX(wv, legacy[f].writer);
        }
        if (dl_delta_feature_kind_of((dl_delta_feature)f) == DL_DELTA_FEATURE_READER_WRITER) {
            if (legacy[f].reader == 0) {
                is_tf_reader = true;
            } else {
                rv = DL_MAX(rv, legacy[f].reader);
            }
        }
    }
    memset(out, 0, sizeof(*out));
    out->min_reader_version = is_tf_reader ? 3 : rv;
    out->min_writer_version = (is_tf_writer || is_tf_reader) ? 7 : wv;
    if (out->min_writer_version == 7) {
        out->writer_features =
            build_list(need, false, base ? base->writer_features : NULL,
                       base ? base->n_writer_features : 0, arena, &out->n_writer_features);
        DL_CHECK(out->writer_features != NULL, err, DL_ERR_NOMEM,
                 "out of memory building a protocol");
        out->has_writer_features = true;
    }
    if (out->min_reader_version == 3) {
        out->reader_features =
            build_list(need, true, base ? base->reader_features : NULL,
                       base ? base->n_reader_features : 0, arena, &out->n_reader_features);
        DL_CHECK(out->reader_features != NULL, err, DL_ERR_NOMEM,
                 "out of memory building a protocol");
        out->has_reader_features = true;
    }
    return DL_OK;
}

/* ---- checking a writer ---------------------------------------------------------------- */

static bool
is_active(dl_delta_feature f, const dl_delta_metadata *md, uint64_t used) {
    switch (f) {
    case DL_DELTA_FEATURE_CHECK_CONSTRAINTS:
    case DL_DELTA_FEATURE_CHANGE_DATA_FEED:
    case DL_DELTA_FEATURE_COLUMN_MAPPING:
    case DL_DELTA_FEATURE_APPEND_ONLY:
        return (metadata_features(md) & FBIT(f)) != 0;
    case DL_DELTA_FEATURE_INVARIANTS:
    case DL_DELTA_FEATURE_GENERATED_COLUMNS:
    case DL_DELTA_FEATURE_IDENTITY_COLUMNS:
        return (used & FBIT(f)) != 0;
    default:
        return true;
    }
}

/* Appends "words (name)" for a known feature, the protocol name alone for an unknown one. */
static dl_status
append_name(dl_buf *names, const char *name, dl_error *err) {
    if (names->len > 0) {
        DL_TRY(dl_buf_append_cstr(names, ", ", err));
    }
    dl_delta_feature f;
    if (!dl_delta_feature_lookup(dl_str_from_cstr(name), &f)) {
        return dl_buf_append_cstr(names, name, err);
    }
    DL_TRY(dl_buf_append_cstr(names, dl_delta_feature_words(f), err));
    DL_TRY(dl_buf_append_cstr(names, " (", err));
    DL_TRY(dl_buf_append_cstr(names, name, err));
    return dl_buf_append_cstr(names, ")", err);
}

static dl_status
missing_listed(const dl_delta_protocol *p, uint64_t handled, dl_buf *names, dl_error *err) {
    for (int32_t i = 0; i < p->n_writer_features; i++) {
        dl_delta_feature f;
        bool is_known = dl_delta_feature_lookup(dl_str_from_cstr(p->writer_features[i]), &f);
        if (!is_known || (handled & FBIT(f)) == 0) {
            DL_TRY(append_name(names, p->writer_features[i], err));
        }
    }
    return DL_OK;
}

static dl_status
missing_features(const dl_delta_protocol *p, const dl_delta_metadata *md, uint64_t used,
                 uint64_t handled, dl_buf *names, dl_error *err) {
    if (p->min_writer_version >= 7) {
        return missing_listed(p, handled, names, err);
    }
    for (int f = 0; f < DL_DELTA_FEATURE_COUNT; f++) {
        bool is_implied = legacy[f].writer > 0 && p->min_writer_version >= legacy[f].writer;
        if (is_implied && (handled & FBIT(f)) == 0 && is_active((dl_delta_feature)f, md, used)) {
            DL_TRY(append_name(names, dl_delta_feature_name((dl_delta_feature)f), err));
        }
    }
    return DL_OK;
}

dl_status
dl_delta_protocol_check_write(const dl_delta_protocol *protocol, const dl_delta_metadata *md,
                              const dl_delta_schema *schema, uint64_t handled_features,
                              dl_error *err) {
    DL_TRY(dl_delta_protocol_check_read(protocol, err));
    int32_t wv = protocol->min_writer_version;
    if (wv > 7) {
        DL_FAIL(err, DL_ERR_UNSUPPORTED,
                "Unsupported Delta protocol writer version %d: deltalite writes versions 1 to 7",
                (int)wv);
    }
    uint64_t used = schema_features(schema);
    uint64_t handled = handled_features | SELF_HANDLED;
    if ((used & FBIT(DL_DELTA_FEATURE_INVARIANTS)) == 0) {
        handled |= FBIT(DL_DELTA_FEATURE_INVARIANTS); /* nothing to enforce */
    }
    dl_buf names;
    dl_buf_init(&names, NULL);
    dl_status s = missing_features(protocol, md, used, handled, &names, err);
    if (s == DL_OK && names.len > 0) {
        s = dl_error_set(err, DL_ERR_UNSUPPORTED,
                         "Unsupported Delta write feature: deltalite cannot write this table "
                         "yet, it uses %s",
                         dl_buf_cstr(&names));
        dl_error_hint(err, "deltalite reads the table; write it with Spark, or remove the "
                           "features there (ALTER TABLE ... DROP FEATURE)");
    }
    dl_buf_destroy(&names);
    return s;
}
