/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Thrift layout of the Parquet metadata model: one descriptor per parquet.thrift struct
 * (parquet-format src/main/thrift/parquet.thrift), listing each field's id, Thrift name,
 * requiredness and place in the C struct of parquet.h. The reader, writer and comparison in
 * tc_read.c / tc_write.c walk these tables, so adding a field is one line here and one member
 * in parquet.h. Fields not listed (GeospatialStatistics, the encryption structs' content, ...)
 * are skipped when read and not written.
 *
 * Each struct's finish hook checks what the Thrift types cannot say: structural enums in
 * range, counts and sizes non-negative, defaults (DataPageHeaderV2.is_compressed), and for
 * page headers that the sub-header matching the page type is there.
 */
#include <stddef.h>

#include "parquet/parquet_int.h"

/* Enums are stored as Thrift i32 values. */
_Static_assert(sizeof(dl_pq_type) == 4, "enum size");
_Static_assert(sizeof(dl_pq_converted_type) == 4, "enum size");
_Static_assert(sizeof(dl_pq_repetition) == 4, "enum size");
_Static_assert(sizeof(dl_pq_encoding) == 4, "enum size");
_Static_assert(sizeof(dl_pq_page_type) == 4, "enum size");
_Static_assert(sizeof(dl_pq_boundary_order) == 4, "enum size");
_Static_assert(sizeof(dl_pq_logical_kind) == 4, "enum size");
_Static_assert(sizeof(dl_pq_time_unit) == 4, "enum size");
_Static_assert(sizeof(dl_pq_column_order_kind) == 4, "enum size");

#define NO DL_TC_NO_OFFSET

/* 0, or a compile error when member m of T is not sz bytes. */
#define SIZE_IS(T, m, sz) (0 * sizeof(char[sizeof(((T *)0)->m) == (sz) ? 1 : -1]))
#define ELEM_IS(T, m, sz) (0 * sizeof(char[sizeof(*((T *)0)->m) == (sz) ? 1 : -1]))

#define FIELD(fid, nm, k, ek, req, off, cnt, has, sb)                                              \
    {                                                                                              \
        .id = (fid), .kind = (k), .elem_kind = (ek), .is_required = (req), .name = (nm),           \
        .offset = (uint32_t)(off), .count_offset = (uint32_t)(cnt), .has_offset = (uint32_t)(has), \
        .sub = (sb)                                                                                \
    }

#define SZ_BOOL   sizeof(bool)
#define SZ_I8     1
#define SZ_I16    2
#define SZ_I32    4
#define SZ_I64    8
#define SZ_DOUBLE 8
#define SZ_BINARY sizeof(dl_str)

/* Required scalar, optional scalar (with has_<m>), and "defaulted" scalar (read when present,
 * always written). K is BOOL, I8, I16, I32, I64, DOUBLE or BINARY. */
#define REQ(T, fid, nm, K, m) \
    FIELD(fid, nm, DL_TC_K_##K, 0, true, offsetof(T, m) + SIZE_IS(T, m, SZ_##K), NO, NO, NULL)
#define OPT(T, fid, nm, K, m)                                                         \
    FIELD(fid, nm, DL_TC_K_##K, 0, false, offsetof(T, m) + SIZE_IS(T, m, SZ_##K), NO, \
          offsetof(T, has_##m), NULL)
#define DEF(T, fid, nm, K, m) \
    FIELD(fid, nm, DL_TC_K_##K, 0, false, offsetof(T, m) + SIZE_IS(T, m, SZ_##K), NO, NO, NULL)

/* Structs stored inline: required, optional (has_<m>), union member (the tag says). */
#define REQ_STRUCT(T, fid, nm, m, ST, desc)                                                     \
    FIELD(fid, nm, DL_TC_K_STRUCT, 0, true, offsetof(T, m) + SIZE_IS(T, m, sizeof(ST)), NO, NO, \
          &(desc))
#define OPT_STRUCT(T, fid, nm, m, ST, desc)                                                  \
    FIELD(fid, nm, DL_TC_K_STRUCT, 0, false, offsetof(T, m) + SIZE_IS(T, m, sizeof(ST)), NO, \
          offsetof(T, has_##m), &(desc))
#define MEMBER(T, fid, nm, m, ST, desc)                                                          \
    FIELD(fid, nm, DL_TC_K_STRUCT, 0, false, offsetof(T, m) + SIZE_IS(T, m, sizeof(ST)), NO, NO, \
          &(desc))
/* A union member that is an empty struct: only the tag records it. */
#define EMPTY_MEMBER(fid, nm) FIELD(fid, nm, DL_TC_K_PRESENCE, 0, false, NO, NO, NO, NULL)
/* A struct whose content is not kept; has_<m> records its presence. */
#define PRESENCE(T, fid, nm, m) \
    FIELD(fid, nm, DL_TC_K_PRESENCE, 0, false, NO, NO, offsetof(T, has_##m), NULL)

/* Lists of scalars (EK = BOOL, I32, I64, BINARY) and of structs. */
#define REQ_LIST(T, fid, nm, EK, m)                                                           \
    FIELD(fid, nm, DL_TC_K_LIST, DL_TC_K_##EK, true, offsetof(T, m) + ELEM_IS(T, m, SZ_##EK), \
          offsetof(T, n_##m), NO, NULL)
#define OPT_LIST(T, fid, nm, EK, m)                                                            \
    FIELD(fid, nm, DL_TC_K_LIST, DL_TC_K_##EK, false, offsetof(T, m) + ELEM_IS(T, m, SZ_##EK), \
          offsetof(T, n_##m), offsetof(T, has_##m), NULL)
#define REQ_STRUCT_LIST(T, fid, nm, m, ST, desc)                                                   \
    FIELD(fid, nm, DL_TC_K_LIST, DL_TC_K_STRUCT, true, offsetof(T, m) + ELEM_IS(T, m, sizeof(ST)), \
          offsetof(T, n_##m), NO, &(desc))
#define OPT_STRUCT_LIST(T, fid, nm, m, ST, desc)                                                \
    FIELD(fid, nm, DL_TC_K_LIST, DL_TC_K_STRUCT, false,                                         \
          offsetof(T, m) + ELEM_IS(T, m, sizeof(ST)), offsetof(T, n_##m), offsetof(T, has_##m), \
          &(desc))

#define STRUCT_DESC(var, nm, T, flds, fin)                    \
    const dl_tc_struct var = {.name = (nm),                   \
                              .size = sizeof(T),              \
                              .fields = (flds),               \
                              .n_fields = DL_ARRAY_LEN(flds), \
                              .union_offset = NO,             \
                              .finish = (fin)}
#define UNION_DESC(var, nm, T, tag_off, flds)                 \
    const dl_tc_struct var = {.name = (nm),                   \
                              .size = sizeof(T),              \
                              .fields = (flds),               \
                              .n_fields = DL_ARRAY_LEN(flds), \
                              .union_offset = (tag_off),      \
                              .finish = NULL}

/* ---- Checks ----------------------------------------------------------------------------- */

static dl_status
check_nonneg(dl_tc_reader *r, int64_t v, const char *what, dl_error *err) {
    if (v < 0) {
        return dl_tc_fail(r, err, DL_ERR_CORRUPT, "%s is negative (%lld)", what, (long long)v);
    }
    return DL_OK;
}

static dl_status
check_enum(dl_tc_reader *r, bool is_set, uint32_t v, uint32_t max, const char *what,
           dl_error *err) {
    if (is_set && v > max) {
        return dl_tc_fail(r, err, DL_ERR_CORRUPT, "invalid %s %d", what, (int32_t)v);
    }
    return DL_OK;
}

static dl_status
finish_schema_element(void *obj, dl_tc_reader *r, dl_error *err) {
    const dl_pq_schema_element *e = obj;
    DL_TRY(
        check_enum(r, e->has_type, e->type, DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY, "physical type", err));
    DL_TRY(check_enum(r, e->has_repetition_type, e->repetition_type, DL_PQ_REPEATED,
                      "repetition type", err));
    DL_TRY(check_enum(r, e->has_converted_type, e->converted_type, DL_PQ_CT_INTERVAL,
                      "converted type", err));
    if (e->has_num_children) {
        DL_TRY(check_nonneg(r, e->num_children, "num_children", err));
    }
    if (e->has_type_length) {
        DL_TRY(check_nonneg(r, e->type_length, "type_length", err));
    }
    return DL_OK;
}

static dl_status
finish_column_metadata(void *obj, dl_tc_reader *r, dl_error *err) {
    const dl_pq_column_metadata *m = obj;
    DL_TRY(check_enum(r, true, m->type, DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY, "physical type", err));
    DL_TRY(check_nonneg(r, m->num_values, "num_values", err));
    DL_TRY(check_nonneg(r, m->total_uncompressed_size, "total_uncompressed_size", err));
    DL_TRY(check_nonneg(r, m->total_compressed_size, "total_compressed_size", err));
    DL_TRY(check_nonneg(r, m->data_page_offset, "data_page_offset", err));
    DL_TRY(check_nonneg(r, m->dictionary_page_offset, "dictionary_page_offset", err));
    DL_TRY(check_nonneg(r, m->bloom_filter_offset, "bloom_filter_offset", err));
    return check_nonneg(r, m->bloom_filter_length, "bloom_filter_length", err);
}

static dl_status
finish_column_chunk(void *obj, dl_tc_reader *r, dl_error *err) {
    const dl_pq_column_chunk *c = obj;
    DL_TRY(check_nonneg(r, c->offset_index_offset, "offset_index_offset", err));
    DL_TRY(check_nonneg(r, c->offset_index_length, "offset_index_length", err));
    DL_TRY(check_nonneg(r, c->column_index_offset, "column_index_offset", err));
    return check_nonneg(r, c->column_index_length, "column_index_length", err);
}

static dl_status
finish_row_group(void *obj, dl_tc_reader *r, dl_error *err) {
    const dl_pq_row_group *g = obj;
    return check_nonneg(r, g->num_rows, "num_rows", err);
}

static dl_status
finish_file_metadata(void *obj, dl_tc_reader *r, dl_error *err) {
    const dl_pq_file_metadata *m = obj;
    return check_nonneg(r, m->num_rows, "num_rows", err);
}

static dl_status
finish_data_page_header(void *obj, dl_tc_reader *r, dl_error *err) {
    const dl_pq_data_page_header *h = obj;
    return check_nonneg(r, h->num_values, "num_values", err);
}

static dl_status
finish_dictionary_page_header(void *obj, dl_tc_reader *r, dl_error *err) {
    const dl_pq_dictionary_page_header *h = obj;
    return check_nonneg(r, h->num_values, "num_values", err);
}

static dl_status
finish_data_page_header_v2(void *obj, dl_tc_reader *r, dl_error *err) {
    dl_pq_data_page_header_v2 *h = obj;
    DL_TRY(check_nonneg(r, h->num_values, "num_values", err));
    DL_TRY(check_nonneg(r, h->num_nulls, "num_nulls", err));
    DL_TRY(check_nonneg(r, h->num_rows, "num_rows", err));
    DL_TRY(check_nonneg(r, h->definition_levels_byte_length, "definition_levels_byte_length", err));
    DL_TRY(check_nonneg(r, h->repetition_levels_byte_length, "repetition_levels_byte_length", err));
    if (h->num_nulls > h->num_values) {
        return dl_tc_fail(r, err, DL_ERR_CORRUPT, "num_nulls %d exceeds num_values %d",
                          (int)h->num_nulls, (int)h->num_values);
    }
    if (!h->has_is_compressed) {
        h->is_compressed = true;
    }
    return DL_OK;
}

static dl_status
finish_page_header(void *obj, dl_tc_reader *r, dl_error *err) {
    const dl_pq_page_header *h = obj;
    DL_TRY(check_nonneg(r, h->uncompressed_page_size, "uncompressed_page_size", err));
    DL_TRY(check_nonneg(r, h->compressed_page_size, "compressed_page_size", err));
    bool ok = true;
    const char *sub = "";
    switch (h->type) {
    case DL_PQ_PAGE_DATA:
        ok = h->has_data_page_header;
        sub = "data_page_header";
        break;
    case DL_PQ_PAGE_DICTIONARY:
        ok = h->has_dictionary_page_header;
        sub = "dictionary_page_header";
        break;
    case DL_PQ_PAGE_DATA_V2:
        ok = h->has_data_page_header_v2;
        sub = "data_page_header_v2";
        break;
    default:
        break;
    }
    if (!ok) {
        return dl_tc_fail(r, err, DL_ERR_CORRUPT, "%s page without %s",
                          dl_pq_page_type_name(h->type), sub);
    }
    return DL_OK;
}

static dl_status
finish_column_index(void *obj, dl_tc_reader *r, dl_error *err) {
    const dl_pq_column_index *ci = obj;
    size_t n = ci->n_null_pages;
    DL_TRY(
        check_enum(r, true, ci->boundary_order, DL_PQ_BOUNDARY_DESCENDING, "boundary_order", err));
    if (ci->n_min_values != n || ci->n_max_values != n ||
        (ci->has_null_counts && ci->n_null_counts != n) ||
        (ci->has_nan_counts && ci->n_nan_counts != n)) {
        return dl_tc_fail(r, err, DL_ERR_CORRUPT,
                          "per-page lists differ in length (null_pages %zu, min_values %zu, "
                          "max_values %zu, null_counts %zu, nan_counts %zu)",
                          n, ci->n_min_values, ci->n_max_values, ci->n_null_counts,
                          ci->n_nan_counts);
    }
    return DL_OK;
}

static dl_status
finish_offset_index(void *obj, dl_tc_reader *r, dl_error *err) {
    const dl_pq_offset_index *oi = obj;
    int64_t prev_row = 0;
    for (size_t i = 0; i < oi->n_page_locations; i++) {
        const dl_pq_page_location *p = &oi->page_locations[i];
        if (p->offset < 0 || p->compressed_page_size < 0 || p->first_row_index < prev_row ||
            (i == 0 && p->first_row_index != 0)) {
            return dl_tc_fail(r, err, DL_ERR_CORRUPT,
                              "page_locations[%zu] is invalid (offset %lld, size %d, "
                              "first_row_index %lld after %lld)",
                              i, (long long)p->offset, (int)p->compressed_page_size,
                              (long long)p->first_row_index, (long long)prev_row);
        }
        prev_row = p->first_row_index;
    }
    return DL_OK;
}

/* ---- Tables ----------------------------------------------------------------------------- */

#define T dl_pq_key_value
static const dl_tc_field key_value_fields[] = {
    REQ(T, 1, "key", BINARY, key),
    OPT(T, 2, "value", BINARY, value),
};
static STRUCT_DESC(desc_key_value, "KeyValue", T, key_value_fields, NULL);
#undef T

#define T dl_pq_sorting_column
static const dl_tc_field sorting_column_fields[] = {
    REQ(T, 1, "column_idx", I32, column_idx),
    REQ(T, 2, "descending", BOOL, descending),
    REQ(T, 3, "nulls_first", BOOL, nulls_first),
};
static STRUCT_DESC(desc_sorting_column, "SortingColumn", T, sorting_column_fields, NULL);
#undef T

#define T dl_pq_page_encoding_stats
static const dl_tc_field page_encoding_stats_fields[] = {
    REQ(T, 1, "page_type", I32, page_type),
    REQ(T, 2, "encoding", I32, encoding),
    REQ(T, 3, "count", I32, count),
};
static STRUCT_DESC(desc_page_encoding_stats, "PageEncodingStats", T, page_encoding_stats_fields,
                   NULL);
#undef T

#define T dl_pq_statistics
static const dl_tc_field statistics_fields[] = {
    OPT(T, 1, "max", BINARY, max),
    OPT(T, 2, "min", BINARY, min),
    OPT(T, 3, "null_count", I64, null_count),
    OPT(T, 4, "distinct_count", I64, distinct_count),
    OPT(T, 5, "max_value", BINARY, max_value),
    OPT(T, 6, "min_value", BINARY, min_value),
    OPT(T, 7, "is_max_value_exact", BOOL, is_max_value_exact),
    OPT(T, 8, "is_min_value_exact", BOOL, is_min_value_exact),
    OPT(T, 9, "nan_count", I64, nan_count),
};
static STRUCT_DESC(desc_statistics, "Statistics", T, statistics_fields, NULL);
#undef T

#define T dl_pq_size_statistics
static const dl_tc_field size_statistics_fields[] = {
    OPT(T, 1, "unencoded_byte_array_data_bytes", I64, unencoded_byte_array_data_bytes),
    OPT_LIST(T, 2, "repetition_level_histogram", I64, repetition_level_histogram),
    OPT_LIST(T, 3, "definition_level_histogram", I64, definition_level_histogram),
};
static STRUCT_DESC(desc_size_statistics, "SizeStatistics", T, size_statistics_fields, NULL);
#undef T

#define T dl_pq_decimal_type
static const dl_tc_field decimal_type_fields[] = {
    REQ(T, 1, "scale", I32, scale),
    REQ(T, 2, "precision", I32, precision),
};
static STRUCT_DESC(desc_decimal_type, "DecimalType", T, decimal_type_fields, NULL);
#undef T

static const dl_tc_field time_unit_fields[] = {
    EMPTY_MEMBER(1, "MILLIS"),
    EMPTY_MEMBER(2, "MICROS"),
    EMPTY_MEMBER(3, "NANOS"),
};
static UNION_DESC(desc_time_unit, "TimeUnit", dl_pq_time_unit, 0, time_unit_fields);

#define T dl_pq_time_type
static const dl_tc_field time_type_fields[] = {
    REQ(T, 1, "isAdjustedToUTC", BOOL, is_adjusted_to_utc),
    REQ_STRUCT(T, 2, "unit", unit, dl_pq_time_unit, desc_time_unit),
};
static STRUCT_DESC(desc_time_type, "TimeType", T, time_type_fields, NULL);
#undef T

#define T dl_pq_int_type
static const dl_tc_field int_type_fields[] = {
    REQ(T, 1, "bitWidth", I8, bit_width),
    REQ(T, 2, "isSigned", BOOL, is_signed),
};
static STRUCT_DESC(desc_int_type, "IntType", T, int_type_fields, NULL);
#undef T

#define T dl_pq_variant_type
static const dl_tc_field variant_type_fields[] = {
    OPT(T, 1, "specification_version", I8, specification_version),
};
static STRUCT_DESC(desc_variant_type, "VariantType", T, variant_type_fields, NULL);
#undef T

#define T dl_pq_geo_type
static const dl_tc_field geometry_type_fields[] = {
    OPT(T, 1, "crs", BINARY, crs),
};
static STRUCT_DESC(desc_geometry_type, "GeometryType", T, geometry_type_fields, NULL);
static const dl_tc_field geography_type_fields[] = {
    OPT(T, 1, "crs", BINARY, crs),
    OPT(T, 2, "algorithm", I32, algorithm),
};
static STRUCT_DESC(desc_geography_type, "GeographyType", T, geography_type_fields, NULL);
#undef T

#define T dl_pq_logical_type
static const dl_tc_field logical_type_fields[] = {
    EMPTY_MEMBER(1, "STRING"),
    EMPTY_MEMBER(2, "MAP"),
    EMPTY_MEMBER(3, "LIST"),
    EMPTY_MEMBER(4, "ENUM"),
    MEMBER(T, 5, "DECIMAL", decimal, dl_pq_decimal_type, desc_decimal_type),
    EMPTY_MEMBER(6, "DATE"),
    MEMBER(T, 7, "TIME", time, dl_pq_time_type, desc_time_type),
    MEMBER(T, 8, "TIMESTAMP", timestamp, dl_pq_time_type, desc_time_type),
    MEMBER(T, 10, "INTEGER", integer, dl_pq_int_type, desc_int_type),
    EMPTY_MEMBER(11, "UNKNOWN"),
    EMPTY_MEMBER(12, "JSON"),
    EMPTY_MEMBER(13, "BSON"),
    EMPTY_MEMBER(14, "UUID"),
    EMPTY_MEMBER(15, "FLOAT16"),
    MEMBER(T, 16, "VARIANT", variant, dl_pq_variant_type, desc_variant_type),
    MEMBER(T, 17, "GEOMETRY", geometry, dl_pq_geo_type, desc_geometry_type),
    MEMBER(T, 18, "GEOGRAPHY", geography, dl_pq_geo_type, desc_geography_type),
};
static UNION_DESC(desc_logical_type, "LogicalType", T, offsetof(T, kind), logical_type_fields);
#undef T

#define T dl_pq_schema_element
static const dl_tc_field schema_element_fields[] = {
    OPT(T, 1, "type", I32, type),
    OPT(T, 2, "type_length", I32, type_length),
    OPT(T, 3, "repetition_type", I32, repetition_type),
    REQ(T, 4, "name", BINARY, name),
    OPT(T, 5, "num_children", I32, num_children),
    OPT(T, 6, "converted_type", I32, converted_type),
    OPT(T, 7, "scale", I32, scale),
    OPT(T, 8, "precision", I32, precision),
    OPT(T, 9, "field_id", I32, field_id),
    OPT_STRUCT(T, 10, "logicalType", logical_type, dl_pq_logical_type, desc_logical_type),
};
static STRUCT_DESC(desc_schema_element, "SchemaElement", T, schema_element_fields,
                   finish_schema_element);
#undef T

#define T dl_pq_column_metadata
static const dl_tc_field column_metadata_fields[] = {
    REQ(T, 1, "type", I32, type),
    REQ_LIST(T, 2, "encodings", I32, encodings),
    REQ_LIST(T, 3, "path_in_schema", BINARY, path_in_schema),
    REQ(T, 4, "codec", I32, codec),
    REQ(T, 5, "num_values", I64, num_values),
    REQ(T, 6, "total_uncompressed_size", I64, total_uncompressed_size),
    REQ(T, 7, "total_compressed_size", I64, total_compressed_size),
    OPT_STRUCT_LIST(T, 8, "key_value_metadata", key_value_metadata, dl_pq_key_value,
                    desc_key_value),
    REQ(T, 9, "data_page_offset", I64, data_page_offset),
    OPT(T, 10, "index_page_offset", I64, index_page_offset),
    OPT(T, 11, "dictionary_page_offset", I64, dictionary_page_offset),
    OPT_STRUCT(T, 12, "statistics", statistics, dl_pq_statistics, desc_statistics),
    OPT_STRUCT_LIST(T, 13, "encoding_stats", encoding_stats, dl_pq_page_encoding_stats,
                    desc_page_encoding_stats),
    OPT(T, 14, "bloom_filter_offset", I64, bloom_filter_offset),
    OPT(T, 15, "bloom_filter_length", I32, bloom_filter_length),
    OPT_STRUCT(T, 16, "size_statistics", size_statistics, dl_pq_size_statistics,
               desc_size_statistics),
};
static STRUCT_DESC(desc_column_metadata, "ColumnMetaData", T, column_metadata_fields,
                   finish_column_metadata);
#undef T

#define T dl_pq_column_chunk
static const dl_tc_field column_chunk_fields[] = {
    OPT(T, 1, "file_path", BINARY, file_path),
    DEF(T, 2, "file_offset", I64, file_offset),
    OPT_STRUCT(T, 3, "meta_data", meta_data, dl_pq_column_metadata, desc_column_metadata),
    OPT(T, 4, "offset_index_offset", I64, offset_index_offset),
    OPT(T, 5, "offset_index_length", I32, offset_index_length),
    OPT(T, 6, "column_index_offset", I64, column_index_offset),
    OPT(T, 7, "column_index_length", I32, column_index_length),
    PRESENCE(T, 8, "crypto_metadata", crypto_metadata),
    OPT(T, 9, "encrypted_column_metadata", BINARY, encrypted_column_metadata),
};
static STRUCT_DESC(desc_column_chunk, "ColumnChunk", T, column_chunk_fields, finish_column_chunk);
#undef T

#define T dl_pq_row_group
static const dl_tc_field row_group_fields[] = {
    REQ_STRUCT_LIST(T, 1, "columns", columns, dl_pq_column_chunk, desc_column_chunk),
    REQ(T, 2, "total_byte_size", I64, total_byte_size),
    REQ(T, 3, "num_rows", I64, num_rows),
    OPT_STRUCT_LIST(T, 4, "sorting_columns", sorting_columns, dl_pq_sorting_column,
                    desc_sorting_column),
    OPT(T, 5, "file_offset", I64, file_offset),
    OPT(T, 6, "total_compressed_size", I64, total_compressed_size),
    OPT(T, 7, "ordinal", I16, ordinal),
};
static STRUCT_DESC(desc_row_group, "RowGroup", T, row_group_fields, finish_row_group);
#undef T

static const dl_tc_field column_order_fields[] = {
    EMPTY_MEMBER(1, "TYPE_ORDER"),
    EMPTY_MEMBER(2, "IEEE_754_TOTAL_ORDER"),
    EMPTY_MEMBER(3, "INT96_TIMESTAMP_ORDER"),
};
static UNION_DESC(desc_column_order, "ColumnOrder", dl_pq_column_order,
                  offsetof(dl_pq_column_order, kind), column_order_fields);

#define T dl_pq_file_metadata
static const dl_tc_field file_metadata_fields[] = {
    REQ(T, 1, "version", I32, version),
    REQ_STRUCT_LIST(T, 2, "schema", schema, dl_pq_schema_element, desc_schema_element),
    REQ(T, 3, "num_rows", I64, num_rows),
    REQ_STRUCT_LIST(T, 4, "row_groups", row_groups, dl_pq_row_group, desc_row_group),
    OPT_STRUCT_LIST(T, 5, "key_value_metadata", key_value_metadata, dl_pq_key_value,
                    desc_key_value),
    OPT(T, 6, "created_by", BINARY, created_by),
    OPT_STRUCT_LIST(T, 7, "column_orders", column_orders, dl_pq_column_order, desc_column_order),
    PRESENCE(T, 8, "encryption_algorithm", encryption_algorithm),
    OPT(T, 9, "footer_signing_key_metadata", BINARY, footer_signing_key_metadata),
};
STRUCT_DESC(dl_pq_desc_file_metadata, "FileMetaData", T, file_metadata_fields,
            finish_file_metadata);
#undef T

#define T dl_pq_data_page_header
static const dl_tc_field data_page_header_fields[] = {
    REQ(T, 1, "num_values", I32, num_values),
    REQ(T, 2, "encoding", I32, encoding),
    REQ(T, 3, "definition_level_encoding", I32, definition_level_encoding),
    REQ(T, 4, "repetition_level_encoding", I32, repetition_level_encoding),
    OPT_STRUCT(T, 5, "statistics", statistics, dl_pq_statistics, desc_statistics),
};
static STRUCT_DESC(desc_data_page_header, "DataPageHeader", T, data_page_header_fields,
                   finish_data_page_header);
#undef T

#define T dl_pq_dictionary_page_header
static const dl_tc_field dictionary_page_header_fields[] = {
    REQ(T, 1, "num_values", I32, num_values),
    REQ(T, 2, "encoding", I32, encoding),
    OPT(T, 3, "is_sorted", BOOL, is_sorted),
};
static STRUCT_DESC(desc_dictionary_page_header, "DictionaryPageHeader", T,
                   dictionary_page_header_fields, finish_dictionary_page_header);
#undef T

#define T dl_pq_data_page_header_v2
static const dl_tc_field data_page_header_v2_fields[] = {
    REQ(T, 1, "num_values", I32, num_values),
    REQ(T, 2, "num_nulls", I32, num_nulls),
    REQ(T, 3, "num_rows", I32, num_rows),
    REQ(T, 4, "encoding", I32, encoding),
    REQ(T, 5, "definition_levels_byte_length", I32, definition_levels_byte_length),
    REQ(T, 6, "repetition_levels_byte_length", I32, repetition_levels_byte_length),
    OPT(T, 7, "is_compressed", BOOL, is_compressed),
    OPT_STRUCT(T, 8, "statistics", statistics, dl_pq_statistics, desc_statistics),
};
static STRUCT_DESC(desc_data_page_header_v2, "DataPageHeaderV2", T, data_page_header_v2_fields,
                   finish_data_page_header_v2);
#undef T

#define T dl_pq_page_header
static const dl_tc_field page_header_fields[] = {
    REQ(T, 1, "type", I32, type),
    REQ(T, 2, "uncompressed_page_size", I32, uncompressed_page_size),
    REQ(T, 3, "compressed_page_size", I32, compressed_page_size),
    OPT(T, 4, "crc", I32, crc),
    OPT_STRUCT(T, 5, "data_page_header", data_page_header, dl_pq_data_page_header,
               desc_data_page_header),
    PRESENCE(T, 6, "index_page_header", index_page_header),
    OPT_STRUCT(T, 7, "dictionary_page_header", dictionary_page_header, dl_pq_dictionary_page_header,
               desc_dictionary_page_header),
    OPT_STRUCT(T, 8, "data_page_header_v2", data_page_header_v2, dl_pq_data_page_header_v2,
               desc_data_page_header_v2),
};
STRUCT_DESC(dl_pq_desc_page_header, "PageHeader", T, page_header_fields, finish_page_header);
#undef T

#define T dl_pq_page_location
static const dl_tc_field page_location_fields[] = {
    REQ(T, 1, "offset", I64, offset),
    REQ(T, 2, "compressed_page_size", I32, compressed_page_size),
    REQ(T, 3, "first_row_index", I64, first_row_index),
};
static STRUCT_DESC(desc_page_location, "PageLocation", T, page_location_fields, NULL);
#undef T

#define T dl_pq_offset_index
static const dl_tc_field offset_index_fields[] = {
    REQ_STRUCT_LIST(T, 1, "page_locations", page_locations, dl_pq_page_location,
                    desc_page_location),
    OPT_LIST(T, 2, "unencoded_byte_array_data_bytes", I64, unencoded_byte_array_data_bytes),
};
STRUCT_DESC(dl_pq_desc_offset_index, "OffsetIndex", T, offset_index_fields, finish_offset_index);
#undef T

#define T dl_pq_column_index
static const dl_tc_field column_index_fields[] = {
    REQ_LIST(T, 1, "null_pages", BOOL, null_pages),
    REQ_LIST(T, 2, "min_values", BINARY, min_values),
    REQ_LIST(T, 3, "max_values", BINARY, max_values),
    REQ(T, 4, "boundary_order", I32, boundary_order),
    OPT_LIST(T, 5, "null_counts", I64, null_counts),
    OPT_LIST(T, 6, "repetition_level_histograms", I64, repetition_level_histograms),
    OPT_LIST(T, 7, "definition_level_histograms", I64, definition_level_histograms),
    OPT_LIST(T, 8, "nan_counts", I64, nan_counts),
};
STRUCT_DESC(dl_pq_desc_column_index, "ColumnIndex", T, column_index_fields, finish_column_index);
#undef T

static const dl_tc_field bloom_algorithm_fields[] = {EMPTY_MEMBER(1, "BLOCK")};
static UNION_DESC(desc_bloom_algorithm, "BloomFilterAlgorithm", int32_t, 0, bloom_algorithm_fields);
static const dl_tc_field bloom_hash_fields[] = {EMPTY_MEMBER(1, "XXHASH")};
static UNION_DESC(desc_bloom_hash, "BloomFilterHash", int32_t, 0, bloom_hash_fields);
static const dl_tc_field bloom_compression_fields[] = {EMPTY_MEMBER(1, "UNCOMPRESSED")};
static UNION_DESC(desc_bloom_compression, "BloomFilterCompression", int32_t, 0,
                  bloom_compression_fields);

#define T dl_pq_bloom_filter_header
static const dl_tc_field bloom_filter_header_fields[] = {
    REQ(T, 1, "numBytes", I32, num_bytes),
    REQ_STRUCT(T, 2, "algorithm", algorithm, int32_t, desc_bloom_algorithm),
    REQ_STRUCT(T, 3, "hash", hash, int32_t, desc_bloom_hash),
    REQ_STRUCT(T, 4, "compression", compression, int32_t, desc_bloom_compression),
};
STRUCT_DESC(dl_pq_desc_bloom_filter_header, "BloomFilterHeader", T, bloom_filter_header_fields,
            NULL);
#undef T
