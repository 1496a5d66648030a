/* SPDX-License-Identifier: Apache-2.0 */
/* Table features and the reader's protocol check (delta_features.c). */
#include "harness.h"
#include "test_delta_log_util.h"

static dl_delta_protocol
proto(int32_t rv, int32_t wv, const char *const *rf, int32_t n_rf, const char *const *wf,
      int32_t n_wf) {
    dl_delta_protocol p = {.min_reader_version = rv,
                           .min_writer_version = wv,
                           .reader_features = rf,
                           .writer_features = wf,
                           .n_reader_features = n_rf,
                           .n_writer_features = n_wf,
                           .has_reader_features = rf != NULL,
                           .has_writer_features = wf != NULL};
    return p;
}

TEST(test_feature_names_round_trip) {
    for (int i = 0; i < DL_DELTA_FEATURE_COUNT; i++) {
        dl_delta_feature f;
        const char *name = dl_delta_feature_name((dl_delta_feature)i);
        CHECK(dl_delta_feature_lookup(dl_str_from_cstr(name), &f));
        CHECK_INT_EQ(f, i);
    }
    dl_delta_feature f;
    CHECK(!dl_delta_feature_lookup(DL_STR("noSuchFeature"), &f));
    CHECK(!dl_delta_feature_lookup(DL_STR("deletionvectors"), &f)); /* names are exact */
    CHECK_INT_EQ(dl_delta_feature_kind_of(DL_DELTA_FEATURE_DELETION_VECTORS),
                 DL_DELTA_FEATURE_READER_WRITER);
    CHECK_INT_EQ(dl_delta_feature_kind_of(DL_DELTA_FEATURE_APPEND_ONLY), DL_DELTA_FEATURE_WRITER);
}

TEST(test_legacy_versions_imply_features) {
    dl_delta_protocol p = proto(1, 2, NULL, 0, NULL, 0);
    CHECK(dl_delta_protocol_has_feature(&p, DL_DELTA_FEATURE_APPEND_ONLY));
    CHECK(dl_delta_protocol_has_feature(&p, DL_DELTA_FEATURE_INVARIANTS));
    CHECK(!dl_delta_protocol_has_feature(&p, DL_DELTA_FEATURE_CHECK_CONSTRAINTS));
    CHECK(!dl_delta_protocol_has_feature(&p, DL_DELTA_FEATURE_COLUMN_MAPPING));
    p = proto(1, 4, NULL, 0, NULL, 0);
    CHECK(dl_delta_protocol_has_feature(&p, DL_DELTA_FEATURE_CHANGE_DATA_FEED));
    CHECK(dl_delta_protocol_has_feature(&p, DL_DELTA_FEATURE_GENERATED_COLUMNS));
    CHECK(!dl_delta_protocol_has_feature(&p, DL_DELTA_FEATURE_IDENTITY_COLUMNS));
    p = proto(2, 5, NULL, 0, NULL, 0);
    CHECK(dl_delta_protocol_has_feature(&p, DL_DELTA_FEATURE_COLUMN_MAPPING));
    CHECK(!dl_delta_protocol_has_feature(&p, DL_DELTA_FEATURE_DELETION_VECTORS));
    /* Reader 2 with writer 7 still implies column mapping for readers. */
    static const char *const wf[] = {"columnMapping", "identityColumns"};
    p = proto(2, 7, NULL, 0, wf, 2);
    CHECK(dl_delta_protocol_has_feature(&p, DL_DELTA_FEATURE_COLUMN_MAPPING));
    CHECK(dl_delta_protocol_has_feature(&p, DL_DELTA_FEATURE_IDENTITY_COLUMNS));
    CHECK(!dl_delta_protocol_has_feature(&p, DL_DELTA_FEATURE_APPEND_ONLY)); /* only listed */
}

TEST(test_table_features_are_explicit) {
    static const char *const rf[] = {"deletionVectors"};
    static const char *const wf[] = {"deletionVectors", "inCommitTimestamp"};
    dl_delta_protocol p = proto(3, 7, rf, 1, wf, 2);
    CHECK(dl_delta_protocol_has_feature(&p, DL_DELTA_FEATURE_DELETION_VECTORS));
    CHECK(dl_delta_protocol_has_feature(&p, DL_DELTA_FEATURE_IN_COMMIT_TIMESTAMP));
    CHECK(!dl_delta_protocol_has_feature(&p, DL_DELTA_FEATURE_INVARIANTS));
    dl_error err;
    CHECK_OK(dl_delta_protocol_check_read(&p, &err), &err);
}

/* Checks every legacy (reader, writer) pair; returns the first refused one's status. */
static dl_status
check_legacy_pairs(dl_error *err) {
    for (int32_t rv = 1; rv <= 2; rv++) {
        for (int32_t wv = 1; wv <= 7; wv++) {
            dl_delta_protocol p = proto(rv, wv, NULL, 0, NULL, 0);
            DL_TRY(dl_delta_protocol_check_read(&p, err));
        }
    }
    return DL_OK;
}

TEST(test_legacy_protocols_are_readable) {
    dl_error err;
    CHECK_OK(check_legacy_pairs(&err), &err);
}

TEST(test_reader_version_above_three_is_unsupported) {
    dl_delta_protocol p = proto(99, 7, NULL, 0, NULL, 0);
    dl_error err;
    CHECK_STATUS(dl_delta_protocol_check_read(&p, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "Unsupported Delta protocol reader version 99");
    CHECK_ERR_CONTAINS(&err, "reader versions 1 to 3");
}

TEST(test_unknown_reader_feature_is_unsupported_naming_it) {
    static const char *const rf[] = {"deletionVectors", "variantType", "fancyNewThing"};
    dl_delta_protocol p = proto(3, 7, rf, 3, rf, 3);
    dl_error err;
    CHECK_STATUS(dl_delta_protocol_check_read(&p, &err), DL_ERR_UNSUPPORTED, &err);
    CHECK_ERR_CONTAINS(&err, "variantType, fancyNewThing");
    CHECK(strstr(err.msg, "deletionVectors") == NULL);
}

TEST(test_unknown_writer_feature_does_not_stop_a_reader) {
    static const char *const wf[] = {"someWriterOnlyThing"};
    dl_delta_protocol p = proto(1, 7, NULL, 0, wf, 1);
    dl_error err;
    CHECK_OK(dl_delta_protocol_check_read(&p, &err), &err);
}

TEST(test_malformed_protocols_are_corrupt) {
    dl_error err;
    dl_delta_protocol p = proto(3, 5, NULL, 0, NULL, 0);
    CHECK_STATUS(dl_delta_protocol_check_read(&p, &err), DL_ERR_CORRUPT, &err);
    CHECK_ERR_CONTAINS(&err, "reader version 3 requires writer version 7");
    p = proto(0, 2, NULL, 0, NULL, 0);
    CHECK_STATUS(dl_delta_protocol_check_read(&p, &err), DL_ERR_CORRUPT, &err);
}

int
main(void) {
    RUN(test_feature_names_round_trip);
    RUN(test_legacy_versions_imply_features);
    RUN(test_table_features_are_explicit);
    RUN(test_legacy_protocols_are_readable);
    RUN(test_reader_version_above_three_is_unsupported);
    RUN(test_unknown_reader_feature_is_unsupported_naming_it);
    RUN(test_unknown_writer_feature_does_not_stop_a_reader);
    RUN(test_malformed_protocols_are_corrupt);
    return harness_finish();
}
