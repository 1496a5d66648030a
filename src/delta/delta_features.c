/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Table features and the reader's protocol check (PROTOCOL.md, "Protocol Evolution" and
 * "Table Features").
 *
 * A protocol is (minReaderVersion, minWriterVersion) plus, from reader version 3 and writer
 * version 7 on, explicit lists of feature names. Before lists existed, each version implied a
 * fixed set of features (writer 2: appendOnly, invariants; 3: checkConstraints; 4:
 * changeDataFeed, generatedColumns; 5: columnMapping; 6: identityColumns; reader 2:
 * columnMapping); delta_features.def records that ladder. Invariants of a valid protocol:
 * reader version 3 requires writer version 7, readerFeatures is present exactly when the
 * reader version is 3, every reader feature is also a writer feature. A reader must refuse a
 * table whose reader version it does not implement or whose readerFeatures name a feature it
 * does not implement: misreading is worse than refusing.
 */
#include <string.h>

#include "delta/delta_int.h"

typedef struct feature_info {
    const char *name;
    dl_delta_feature_kind kind;
    int legacy_reader;
    int legacy_writer;
    bool is_read_supported;
    const char *words;
} feature_info;

static const feature_info features[DL_DELTA_FEATURE_COUNT] = {
#define DL_DELTA_FEATURE_X(id, name, kind, legacy_reader, legacy_writer, is_read_supported, words) \
    {name, DL_DELTA_FEATURE_##kind, legacy_reader, legacy_writer, is_read_supported, words},
#include "delta/delta_features.def"
#undef DL_DELTA_FEATURE_X
};

/* The reader versions deltalite implements. */
#define MAX_READER_VERSION 3

const char *
dl_delta_feature_name(dl_delta_feature feature) {
    if ((unsigned)feature >= DL_DELTA_FEATURE_COUNT) {
        return "?";
    }
    return features[feature].name;
}

const char *
dl_delta_feature_words(dl_delta_feature feature) {
    if ((unsigned)feature >= DL_DELTA_FEATURE_COUNT) {
        return "?";
    }
    return features[feature].words;
}

bool
dl_delta_feature_lookup(dl_str name, dl_delta_feature *out) {
    for (int i = 0; i < DL_DELTA_FEATURE_COUNT; i++) {
        if (dl_str_eq_cstr(name, features[i].name)) {
            *out = (dl_delta_feature)i;
            return true;
        }
    }
    return false;
}

dl_delta_feature_kind
dl_delta_feature_kind_of(dl_delta_feature feature) {
    return features[feature].kind;
}

bool
dl_delta_feature_is_read_supported(dl_delta_feature feature) {
    return features[feature].is_read_supported;
}

static bool
list_has(const char *const *names, int32_t n, const char *name) {
    for (int32_t i = 0; i < n; i++) {
        if (strcmp(names[i], name) == 0) {
            return true;
        }
    }
    return false;
}

bool
dl_delta_protocol_has_feature(const dl_delta_protocol *protocol, dl_delta_feature feature) {
    const feature_info *f = &features[feature];
    if (protocol->min_writer_version >= 7 || protocol->min_reader_version >= 3) {
        /* Table features: the lists say it all (a legacy reader version 2 with writer 7 still
         * implies column mapping for readers). */
        if (list_has(protocol->writer_features, protocol->n_writer_features, f->name) ||
            list_has(protocol->reader_features, protocol->n_reader_features, f->name)) {
            return true;
        }
        return protocol->min_reader_version == 2 && f->legacy_reader == 2;
    }
    if (f->legacy_writer > 0 && protocol->min_writer_version >= f->legacy_writer) {
        return true;
    }
    return f->legacy_reader > 0 && protocol->min_reader_version >= f->legacy_reader;
}

/* Appends the names of the reader features deltalite cannot read to out, comma-separated. */
static dl_status
unsupported_reader_features(const dl_delta_protocol *protocol, dl_buf *out, dl_error *err) {
    for (int32_t i = 0; i < protocol->n_reader_features; i++) {
        const char *name = protocol->reader_features[i];
        dl_delta_feature f;
        if (dl_delta_feature_lookup(dl_str_from_cstr(name), &f) &&
            dl_delta_feature_is_read_supported(f)) {
            continue;
        }
        if (out->len > 0) {
            DL_TRY(dl_buf_append_cstr(out, ", ", err));
        }
        DL_TRY(dl_buf_append_cstr(out, name, err));
    }
    return DL_OK;
}

dl_status
dl_delta_protocol_check_read(const dl_delta_protocol *protocol, dl_error *err) {
    int32_t rv = protocol->min_reader_version;
    int32_t wv = protocol->min_writer_version;
    DL_CHECK(rv >= 1 && wv >= 1, err, DL_ERR_CORRUPT,
             "invalid Delta protocol: reader version %d and writer version %d (both must be at "
             "least 1)",
             (int)rv, (int)wv);
    if (rv > MAX_READER_VERSION) {
        dl_error_set(err, DL_ERR_UNSUPPORTED,
                     "Unsupported Delta protocol reader version %d: the table requires reader "
                     "version %d and writer version %d, but deltalite supports reader versions 1 "
                     "to %d",
                     (int)rv, (int)rv, (int)wv, MAX_READER_VERSION);
        dl_error_hint(err, "read the table with an engine that supports its protocol");
        return DL_ERR_UNSUPPORTED;
    }
    if (rv < 3) {
        return DL_OK;
    }
    DL_CHECK(wv >= 7, err, DL_ERR_CORRUPT,
             "invalid Delta protocol: reader version 3 requires writer version 7, found %d",
             (int)wv);
    dl_buf names;
    dl_buf_init(&names, NULL);
    dl_status st = unsupported_reader_features(protocol, &names, err);
    if (st == DL_OK && names.len > 0) {
        st = dl_error_set(err, DL_ERR_UNSUPPORTED,
                          "Unsupported Delta read feature: the table requires reader table "
                          "feature(s) that deltalite does not support: %s",
                          dl_buf_cstr(&names));
        dl_error_hint(err, "read the table with an engine that supports these features");
    }
    dl_buf_destroy(&names);
    return st;
}
