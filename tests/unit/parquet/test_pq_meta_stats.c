/* SPDX-License-Identifier: Apache-2.0 */
/* Statistics rules: sort orders, which of min/max and min_value/max_value can be trusted
 * (PARQUET-686, PARQUET-251, ColumnOrder), NaN and size checks, and created_by parsing. */
#include "base/base.h"
#include "harness.h"
#include "parquet/parquet.h"

static dl_pq_schema_element element;

static dl_pq_schema_node
make_leaf(dl_pq_type type, dl_pq_logical_kind kind) {
    dl_pq_schema_node n;
    memset(&n, 0, sizeof(n));
    memset(&element, 0, sizeof(element));
    n.element = &element;
    n.is_leaf = true;
    n.type = type;
    n.logical.kind = kind;
    return n;
}

static dl_pq_statistics
deprecated_stats(const char *min, size_t min_len, const char *max, size_t max_len) {
    dl_pq_statistics st;
    memset(&st, 0, sizeof(st));
    st.min = dl_str_make(min, min_len);
    st.max = dl_str_make(max, max_len);
    st.has_min = st.has_max = true;
    return st;
}

static dl_pq_statistics
value_stats(const char *min, size_t min_len, const char *max, size_t max_len) {
    dl_pq_statistics st;
    memset(&st, 0, sizeof(st));
    st.min_value = dl_str_make(min, min_len);
    st.max_value = dl_str_make(max, max_len);
    st.has_min_value = st.has_max_value = true;
    return st;
}

TEST(test_writer_versions_parse) {
    dl_pq_writer_version w =
        dl_pq_writer_version_parse(DL_STR("parquet-mr version 1.8.2 (build c6522788)"));
    CHECK(dl_str_eq_cstr(w.app, "parquet-mr") && w.has_version);
    CHECK(w.major == 1 && w.minor == 8 && w.patch == 2);
    w = dl_pq_writer_version_parse(DL_STR("parquet-cpp-arrow version 14.0.2"));
    CHECK(dl_str_eq_cstr(w.app, "parquet-cpp-arrow") && w.major == 14 && w.patch == 2);
    w = dl_pq_writer_version_parse(DL_STR("DuckDB version v1.1.3 (build 19864453f7)"));
    CHECK(dl_str_eq_cstr(w.app, "DuckDB") && w.major == 1 && w.minor == 1 && w.patch == 3);
    w = dl_pq_writer_version_parse(DL_STR("impala version 1.3.0-INTERNAL (build 8a48ddb1)"));
    CHECK(dl_str_eq_cstr(w.app, "impala") && w.minor == 3 && w.has_version);
    w = dl_pq_writer_version_parse(DL_STR("parquet-mr version 1.12.0-SNAPSHOT"));
    CHECK(w.major == 1 && w.minor == 12 && w.patch == 0);
    w = dl_pq_writer_version_parse(DL_STR("parquet-mr"));
    CHECK(dl_str_eq_cstr(w.app, "parquet-mr") && !w.has_version);
    w = dl_pq_writer_version_parse(DL_STR("HVR 5.3.0/9 (linux_glibc2.5-x64-64bit)"));
    CHECK(!w.has_version);
    w = dl_pq_writer_version_parse(DL_STR("cpp version BuildInfo:GitBranch:master"));
    CHECK(dl_str_eq_cstr(w.app, "cpp") && !w.has_version);
    w = dl_pq_writer_version_parse(dl_str_make(NULL, 0));
    CHECK(w.app.len == 0 && !w.has_version);
    w = dl_pq_writer_version_parse(DL_STR("x version 99999999999.1"));
    CHECK(!w.has_version);
}

TEST(test_writer_version_comparison) {
    dl_pq_writer_version w = dl_pq_writer_version_parse(DL_STR("parquet-mr version 1.7.9"));
    CHECK(dl_pq_writer_version_lt(&w, "parquet-mr", 1, 8, 0));
    CHECK(dl_pq_writer_version_lt(&w, "PARQUET-MR", 1, 7, 10));
    CHECK(!dl_pq_writer_version_lt(&w, "parquet-mr", 1, 7, 9));
    CHECK(!dl_pq_writer_version_lt(&w, "parquet-mr", 1, 6, 0));
    CHECK(!dl_pq_writer_version_lt(&w, "parquet-cpp", 9, 0, 0));
    CHECK(!dl_pq_writer_version_lt(NULL, "parquet-mr", 9, 0, 0));
}

TEST(test_sort_orders_follow_logical_then_physical_types) {
    static const struct {
        dl_pq_type type;
        dl_pq_logical_kind kind;
        dl_pq_sort_order order;
    } cases[] = {
        {DL_PQ_TYPE_BOOLEAN, DL_PQ_LT_NONE, DL_PQ_SORT_UNSIGNED},
        {DL_PQ_TYPE_INT32, DL_PQ_LT_NONE, DL_PQ_SORT_SIGNED},
        {DL_PQ_TYPE_INT64, DL_PQ_LT_TIMESTAMP, DL_PQ_SORT_SIGNED},
        {DL_PQ_TYPE_INT96, DL_PQ_LT_NONE, DL_PQ_SORT_UNKNOWN},
        {DL_PQ_TYPE_FLOAT, DL_PQ_LT_NONE, DL_PQ_SORT_SIGNED},
        {DL_PQ_TYPE_DOUBLE, DL_PQ_LT_NONE, DL_PQ_SORT_SIGNED},
        {DL_PQ_TYPE_BYTE_ARRAY, DL_PQ_LT_NONE, DL_PQ_SORT_UNSIGNED},
        {DL_PQ_TYPE_BYTE_ARRAY, DL_PQ_LT_STRING, DL_PQ_SORT_UNSIGNED},
        {DL_PQ_TYPE_BYTE_ARRAY, DL_PQ_LT_DECIMAL, DL_PQ_SORT_SIGNED},
        {DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY, DL_PQ_LT_UUID, DL_PQ_SORT_UNSIGNED},
        {DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY, DL_PQ_LT_FLOAT16, DL_PQ_SORT_SIGNED},
        {DL_PQ_TYPE_BYTE_ARRAY, DL_PQ_LT_JSON, DL_PQ_SORT_UNSIGNED},
        {DL_PQ_TYPE_BYTE_ARRAY, DL_PQ_LT_VARIANT, DL_PQ_SORT_UNKNOWN},
        {DL_PQ_TYPE_INT32, DL_PQ_LT_DATE, DL_PQ_SORT_SIGNED},
    };

    for (size_t i = 0; i < DL_ARRAY_LEN(cases); i++) {
        dl_pq_schema_node n = make_leaf(cases[i].type, cases[i].kind);
        CHECK_INT_EQ(dl_pq_leaf_sort_order(&n), cases[i].order);
    }
    dl_pq_schema_node u = make_leaf(DL_PQ_TYPE_INT32, DL_PQ_LT_INTEGER);
    u.logical.integer.bit_width = 32;
    CHECK_INT_EQ(dl_pq_leaf_sort_order(&u), DL_PQ_SORT_UNSIGNED);
    u.logical.integer.is_signed = true;
    CHECK_INT_EQ(dl_pq_leaf_sort_order(&u), DL_PQ_SORT_SIGNED);
    dl_pq_schema_node interval = make_leaf(DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY, DL_PQ_LT_NONE);
    element.converted_type = DL_PQ_CT_INTERVAL;
    element.has_converted_type = true;
    CHECK_INT_EQ(dl_pq_leaf_sort_order(&interval), DL_PQ_SORT_UNKNOWN);
    dl_pq_schema_node unknown = make_leaf(DL_PQ_TYPE_INT32, DL_PQ_LT_NONE);
    unknown.has_unknown_logical = true;
    CHECK_INT_EQ(dl_pq_leaf_sort_order(&unknown), DL_PQ_SORT_UNKNOWN);
}

TEST(test_deprecated_min_max_are_usable_for_signed_numbers) {
    dl_pq_schema_node n = make_leaf(DL_PQ_TYPE_INT32, DL_PQ_LT_NONE);
    dl_pq_statistics st = deprecated_stats("\xff\xff\xff\xff", 4, "\x07\x00\x00\x00", 4);
    dl_pq_stats_bounds b;
    CHECK(dl_pq_stats_usable(&n, NULL, &st, &b));
    CHECK(b.has_min && b.has_max && b.is_from_deprecated && b.order == DL_PQ_SORT_SIGNED);
    CHECK(b.min.len == 4 && (uint8_t)b.min.ptr[0] == 0xff);
    CHECK(!b.is_min_exact && !b.is_max_exact);
}

TEST(test_deprecated_min_max_of_unsigned_integers_are_not_usable) {
    dl_pq_schema_node n = make_leaf(DL_PQ_TYPE_INT32, DL_PQ_LT_INTEGER);
    n.logical.integer.bit_width = 32;
    dl_pq_statistics st = deprecated_stats("\x01\x00\x00\x00", 4, "\xff\xff\xff\xff", 4);
    dl_pq_stats_bounds b;
    CHECK(!dl_pq_stats_usable(&n, NULL, &st, &b));
    CHECK(strstr(b.why_not, "compared as signed") != NULL);
    /* When min == max the comparison did not matter. */
    st = deprecated_stats("\x05\x00\x00\x00", 4, "\x05\x00\x00\x00", 4);
    CHECK(dl_pq_stats_usable(&n, NULL, &st, &b));
    CHECK(b.order == DL_PQ_SORT_UNSIGNED);
}

TEST(test_deprecated_byte_array_min_max_follow_parquet_686_and_251) {
    dl_pq_schema_node n = make_leaf(DL_PQ_TYPE_BYTE_ARRAY, DL_PQ_LT_STRING);
    dl_pq_writer_version mr110 = dl_pq_writer_version_parse(DL_STR("parquet-mr version 1.10.1"));
    dl_pq_writer_version mr17 = dl_pq_writer_version_parse(DL_STR("parquet-mr version 1.7.0"));
    dl_pq_statistics st = deprecated_stats("abc", 3, "\xc3\xa9t\xc3\xa9", 6);
    dl_pq_stats_bounds b;
    CHECK(!dl_pq_stats_usable(&n, &mr110, &st, &b));
    CHECK(strstr(b.why_not, "PARQUET-686") != NULL);
    st = deprecated_stats("same", 4, "same", 4);
    CHECK(dl_pq_stats_usable(&n, &mr110, &st, &b));
    CHECK(dl_str_eq_cstr(b.min, "same") && b.is_from_deprecated);
    CHECK(!dl_pq_stats_usable(&n, &mr17, &st, &b));
    CHECK(strstr(b.why_not, "PARQUET-251") != NULL);
    CHECK(!dl_pq_stats_usable(&n, NULL, &st, &b));
    /* Decimals in byte arrays: the deprecated pair was a signed byte-wise comparison. */
    dl_pq_schema_node d = make_leaf(DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY, DL_PQ_LT_DECIMAL);
    d.type_length = 2;
    st = deprecated_stats("\x00\x01", 2, "\xff\x00", 2);
    CHECK(!dl_pq_stats_usable(&d, &mr110, &st, &b));
}

TEST(test_min_value_max_value_follow_the_column_order) {
    dl_pq_schema_node n = make_leaf(DL_PQ_TYPE_BYTE_ARRAY, DL_PQ_LT_STRING);
    dl_pq_statistics st = value_stats("apple", 5, "zebra", 5);
    st.is_max_value_exact = true;
    st.has_is_max_value_exact = true;
    dl_pq_stats_bounds b;
    CHECK(dl_pq_stats_usable(&n, NULL, &st, &b)); /* no column_orders: type order */
    CHECK(b.order == DL_PQ_SORT_UNSIGNED && !b.is_from_deprecated);
    CHECK(dl_str_eq_cstr(b.max, "zebra") && b.is_max_exact && !b.is_min_exact);
    n.column_order = DL_PQ_ORDER_TYPE_DEFINED;
    CHECK(dl_pq_stats_usable(&n, NULL, &st, &b));
    n.column_order = (dl_pq_column_order_kind)0; /* undefined */
    CHECK(dl_pq_stats_usable(&n, NULL, &st, &b));
    n.column_order = DL_PQ_ORDER_IEEE_754_TOTAL;
    CHECK(!dl_pq_stats_usable(&n, NULL, &st, &b));
    CHECK(strstr(b.why_not, "not floating point") != NULL);
    n.column_order = DL_PQ_ORDER_INT96_TIMESTAMP;
    CHECK(!dl_pq_stats_usable(&n, NULL, &st, &b));
    CHECK(strstr(b.why_not, "not INT96") != NULL);
    n.column_order = (dl_pq_column_order_kind)7;
    CHECK(!dl_pq_stats_usable(&n, NULL, &st, &b));
    CHECK(strstr(b.why_not, "does not know") != NULL);
    /* min_value/max_value win over the deprecated pair. */
    n.column_order = DL_PQ_ORDER_TYPE_DEFINED;
    st.min = DL_STR("zzz");
    st.has_min = true;
    CHECK(dl_pq_stats_usable(&n, NULL, &st, &b));
    CHECK(dl_str_eq_cstr(b.min, "apple"));
    /* Decimals in byte arrays are compared as signed values. */
    dl_pq_schema_node d = make_leaf(DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY, DL_PQ_LT_DECIMAL);
    d.type_length = 2;
    st = value_stats("\xff\x00", 2, "\x00\x01", 2);
    CHECK(dl_pq_stats_usable(&d, NULL, &st, &b));
    CHECK(b.order == DL_PQ_SORT_SIGNED);
}

TEST(test_types_without_an_order_have_no_usable_bounds) {
    dl_pq_schema_node n = make_leaf(DL_PQ_TYPE_INT96, DL_PQ_LT_NONE);
    dl_pq_statistics st = value_stats("abcdefghijkl", 12, "abcdefghijkl", 12);
    dl_pq_stats_bounds b;
    CHECK(!dl_pq_stats_usable(&n, NULL, &st, &b));
    CHECK(strstr(b.why_not, "no defined sort order") != NULL);
    CHECK(!dl_pq_stats_usable(&n, NULL, NULL, &b));
    CHECK_STR_EQ(b.why_not, "no min/max statistics");
    dl_pq_statistics nulls_only;
    memset(&nulls_only, 0, sizeof(nulls_only));
    nulls_only.null_count = 5;
    nulls_only.has_null_count = true;
    CHECK(!dl_pq_stats_usable(&n, NULL, &nulls_only, &b));
}

TEST(test_nan_bounds_are_dropped) {
    dl_pq_schema_node n = make_leaf(DL_PQ_TYPE_DOUBLE, DL_PQ_LT_NONE);
    double lo = -1.5;
    double nan = __builtin_nan("");
    char lo_bytes[8];
    char nan_bytes[8];
    memcpy(lo_bytes, &lo, 8);
    memcpy(nan_bytes, &nan, 8);
    dl_pq_statistics st = value_stats(lo_bytes, 8, nan_bytes, 8);
    dl_pq_stats_bounds b;
    CHECK(dl_pq_stats_usable(&n, NULL, &st, &b));
    CHECK(b.has_min && !b.has_max);
    st = value_stats(nan_bytes, 8, nan_bytes, 8);
    CHECK(!dl_pq_stats_usable(&n, NULL, &st, &b));
    dl_pq_schema_node f = make_leaf(DL_PQ_TYPE_FLOAT, DL_PQ_LT_NONE);
    float fnan = __builtin_nanf("");
    char fnan_bytes[4];
    memcpy(fnan_bytes, &fnan, 4);
    st = deprecated_stats(fnan_bytes, 4, "\x00\x00\x80\x3f", 4);
    CHECK(dl_pq_stats_usable(&f, NULL, &st, &b));
    CHECK(!b.has_min && b.has_max);
    dl_pq_schema_node h = make_leaf(DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY, DL_PQ_LT_FLOAT16);
    h.type_length = 2;
    st = value_stats("\x00\x3c", 2, "\x01\x7e", 2); /* 1.0 and a NaN */
    CHECK(dl_pq_stats_usable(&h, NULL, &st, &b));
    CHECK(b.has_min && !b.has_max);
    h.column_order = DL_PQ_ORDER_IEEE_754_TOTAL;
    CHECK(dl_pq_stats_usable(&h, NULL, &st, &b));
}

TEST(test_bounds_of_the_wrong_size_are_dropped) {
    dl_pq_schema_node n = make_leaf(DL_PQ_TYPE_INT64, DL_PQ_LT_NONE);
    dl_pq_statistics st = value_stats("\x01\x00\x00", 3, "\x02\x00\x00\x00\x00\x00\x00\x00", 8);
    dl_pq_stats_bounds b;
    CHECK(dl_pq_stats_usable(&n, NULL, &st, &b));
    CHECK(!b.has_min && b.has_max);
    st = value_stats("\x01", 1, "\x02", 1);
    CHECK(!dl_pq_stats_usable(&n, NULL, &st, &b));
    CHECK_STR_EQ(b.why_not, "bounds are NaN or of the wrong size");
    dl_pq_schema_node f = make_leaf(DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY, DL_PQ_LT_NONE);
    f.type_length = 4;
    st = value_stats("abcd", 4, "abcde", 5);
    CHECK(dl_pq_stats_usable(&f, NULL, &st, &b));
    CHECK(b.has_min && !b.has_max);
    /* Byte arrays have no fixed size: truncated bounds are fine. */
    dl_pq_schema_node s = make_leaf(DL_PQ_TYPE_BYTE_ARRAY, DL_PQ_LT_STRING);
    st = value_stats("a", 1, "b", 1);
    CHECK(dl_pq_stats_usable(&s, NULL, &st, &b));
    CHECK(b.has_min && b.has_max);
}

int
main(void) {
    RUN(test_writer_versions_parse);
    RUN(test_writer_version_comparison);
    RUN(test_sort_orders_follow_logical_then_physical_types);
    RUN(test_deprecated_min_max_are_usable_for_signed_numbers);
    RUN(test_deprecated_min_max_of_unsigned_integers_are_not_usable);
    RUN(test_deprecated_byte_array_min_max_follow_parquet_686_and_251);
    RUN(test_min_value_max_value_follow_the_column_order);
    RUN(test_types_without_an_order_have_no_usable_bounds);
    RUN(test_nan_bounds_are_dropped);
    RUN(test_bounds_of_the_wrong_size_are_dropped);
    return harness_finish();
}
