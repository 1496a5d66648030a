/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The parquet part's interface: the file metadata model, footer parsing, page headers, the
 * page index, the schema tree and the statistics rules.
 *
 * A Parquet file (parquet-format README, "File Format") is
 *
 *     "PAR1" <column chunks: pages> <page indexes, bloom filters> <FileMetaData> <u32 LE len>
 * "PAR1"
 *
 * where FileMetaData and every page header are Thrift compact-protocol structs
 * (parquet-format src/main/thrift/parquet.thrift). The structs below mirror parquet.thrift
 * field for field (snake_case names); the Thrift field ids live in the descriptor tables of
 * pq_meta_desc.c. Conventions of the model:
 *
 *   - an optional scalar or struct field `x` has a `bool has_x`; when it is false, `x` is zero
 *     (or the Thrift default, e.g. DataPageHeaderV2.is_compressed = true);
 *   - a list field `x` is `T *x` plus `size_t n_x` (and `has_x` when the list is optional);
 *   - binary and string fields are dl_str views into the decoded bytes (see each decoder for
 *     how long they stay valid); strings are not NUL-terminated and not checked for UTF-8;
 *   - enum fields keep whatever value the file holds: enums that matter for the structure
 *     (physical type, repetition, converted type, boundary order) are range-checked while
 *     decoding, while encodings, codecs and page types a newer writer may add are kept as
 *     they are and refused by whoever has to use them;
 *   - Thrift unions (LogicalType, TimeUnit, ColumnOrder) are a `kind` tag equal to the Thrift
 *     field id of the member that was set, 0 when none was or when the member is one this
 *     version does not know (new members must be ignored, not refused).
 *
 * Everything a decoder returns lives in the arena it was given.
 */
#ifndef DL_PQ_PARQUET_H
#define DL_PQ_PARQUET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/error.h"
#include "base/str.h"

/* ---- Thrift enums ---------------------------------------------------------------------- */

/* Type: the physical type of a leaf column. */
typedef enum dl_pq_type {
    DL_PQ_TYPE_BOOLEAN = 0,
    DL_PQ_TYPE_INT32 = 1,
    DL_PQ_TYPE_INT64 = 2,
    DL_PQ_TYPE_INT96 = 3,
    DL_PQ_TYPE_FLOAT = 4,
    DL_PQ_TYPE_DOUBLE = 5,
    DL_PQ_TYPE_BYTE_ARRAY = 6,
    DL_PQ_TYPE_FIXED_LEN_BYTE_ARRAY = 7,
} dl_pq_type;

/* ConvertedType: the legacy annotation, still written beside the logical type. */
typedef enum dl_pq_converted_type {
    DL_PQ_CT_UTF8 = 0,
    DL_PQ_CT_MAP = 1,
    DL_PQ_CT_MAP_KEY_VALUE = 2,
    DL_PQ_CT_LIST = 3,
    DL_PQ_CT_ENUM = 4,
    DL_PQ_CT_DECIMAL = 5,
    DL_PQ_CT_DATE = 6,
    DL_PQ_CT_TIME_MILLIS = 7,
    DL_PQ_CT_TIME_MICROS = 8,
    DL_PQ_CT_TIMESTAMP_MILLIS = 9,
    DL_PQ_CT_TIMESTAMP_MICROS = 10,
    DL_PQ_CT_UINT_8 = 11,
    DL_PQ_CT_UINT_16 = 12,
    DL_PQ_CT_UINT_32 = 13,
    DL_PQ_CT_UINT_64 = 14,
    DL_PQ_CT_INT_8 = 15,
    DL_PQ_CT_INT_16 = 16,
    DL_PQ_CT_INT_32 = 17,
    DL_PQ_CT_INT_64 = 18,
    DL_PQ_CT_JSON = 19,
    DL_PQ_CT_BSON = 20,
    DL_PQ_CT_INTERVAL = 21,
} dl_pq_converted_type;

/* FieldRepetitionType. */
typedef enum dl_pq_repetition {
    DL_PQ_REQUIRED = 0,
    DL_PQ_OPTIONAL = 1,
    DL_PQ_REPEATED = 2,
} dl_pq_repetition;

/* Encoding. Values a newer writer may add (ALP = 10, ...) are kept as they are. */
typedef enum dl_pq_encoding {
    DL_PQ_ENCODING_PLAIN = 0,
    DL_PQ_ENCODING_PLAIN_DICTIONARY = 2,
    DL_PQ_ENCODING_RLE = 3,
    DL_PQ_ENCODING_BIT_PACKED = 4,
    DL_PQ_ENCODING_DELTA_BINARY_PACKED = 5,
    DL_PQ_ENCODING_DELTA_LENGTH_BYTE_ARRAY = 6,
    DL_PQ_ENCODING_DELTA_BYTE_ARRAY = 7,
    DL_PQ_ENCODING_RLE_DICTIONARY = 8,
    DL_PQ_ENCODING_BYTE_STREAM_SPLIT = 9,
    DL_PQ_ENCODING_ALP = 10,
} dl_pq_encoding;

/* PageType. */
typedef enum dl_pq_page_type {
    DL_PQ_PAGE_DATA = 0,
    DL_PQ_PAGE_INDEX = 1,
    DL_PQ_PAGE_DICTIONARY = 2,
    DL_PQ_PAGE_DATA_V2 = 3,
} dl_pq_page_type;

/* BoundaryOrder of a ColumnIndex. */
typedef enum dl_pq_boundary_order {
    DL_PQ_BOUNDARY_UNORDERED = 0,
    DL_PQ_BOUNDARY_ASCENDING = 1,
    DL_PQ_BOUNDARY_DESCENDING = 2,
} dl_pq_boundary_order;

/* The member set in a LogicalType union (its Thrift field id); 0 = absent or unknown. */
typedef enum dl_pq_logical_kind {
    DL_PQ_LT_NONE = 0,
    DL_PQ_LT_STRING = 1,
    DL_PQ_LT_MAP = 2,
    DL_PQ_LT_LIST = 3,
    DL_PQ_LT_ENUM = 4,
    DL_PQ_LT_DECIMAL = 5,
    DL_PQ_LT_DATE = 6,
    DL_PQ_LT_TIME = 7,
    DL_PQ_LT_TIMESTAMP = 8,
    DL_PQ_LT_INTEGER = 10,
    DL_PQ_LT_UNKNOWN = 11, /* Parquet's name for the always-null type */
    DL_PQ_LT_JSON = 12,
    DL_PQ_LT_BSON = 13,
    DL_PQ_LT_UUID = 14,
    DL_PQ_LT_FLOAT16 = 15,
    DL_PQ_LT_VARIANT = 16,
    DL_PQ_LT_GEOMETRY = 17,
    DL_PQ_LT_GEOGRAPHY = 18,
} dl_pq_logical_kind;

/* The member set in a TimeUnit union; 0 = absent or unknown. */
typedef enum dl_pq_time_unit {
    DL_PQ_UNIT_NONE = 0,
    DL_PQ_UNIT_MILLIS = 1,
    DL_PQ_UNIT_MICROS = 2,
    DL_PQ_UNIT_NANOS = 3,
} dl_pq_time_unit;

/* The member set in a ColumnOrder union; 0 = unknown (a newer order: treat as undefined). */
typedef enum dl_pq_column_order_kind {
    DL_PQ_ORDER_UNDEFINED = 0,
    DL_PQ_ORDER_TYPE_DEFINED = 1,
    DL_PQ_ORDER_IEEE_754_TOTAL = 2,
    DL_PQ_ORDER_INT96_TIMESTAMP = 3,
} dl_pq_column_order_kind;

/* ---- Metadata structs (parquet.thrift) ------------------------------------------------ */

typedef struct dl_pq_key_value {
    dl_str key;
    dl_str value;
    bool has_value;
} dl_pq_key_value;

typedef struct dl_pq_statistics {
    dl_str max; /* deprecated: signed-comparison max, see dl_pq_stats_usable */
    dl_str min; /* deprecated: signed-comparison min */
    int64_t null_count;
    int64_t distinct_count;
    dl_str max_value; /* upper bound in the column's ColumnOrder */
    dl_str min_value; /* lower bound in the column's ColumnOrder */
    bool is_max_value_exact;
    bool is_min_value_exact;
    int64_t nan_count;
    bool has_max, has_min, has_null_count, has_distinct_count, has_max_value, has_min_value;
    bool has_is_max_value_exact, has_is_min_value_exact, has_nan_count;
} dl_pq_statistics;

typedef struct dl_pq_size_statistics {
    int64_t unencoded_byte_array_data_bytes;
    int64_t *repetition_level_histogram;
    size_t n_repetition_level_histogram;
    int64_t *definition_level_histogram;
    size_t n_definition_level_histogram;
    bool has_unencoded_byte_array_data_bytes, has_repetition_level_histogram;
    bool has_definition_level_histogram;
} dl_pq_size_statistics;

typedef struct dl_pq_decimal_type {
    int32_t scale;
    int32_t precision;
} dl_pq_decimal_type;

/* TimeType and TimestampType share one shape. */
typedef struct dl_pq_time_type {
    bool is_adjusted_to_utc;
    dl_pq_time_unit unit;
} dl_pq_time_type;

typedef struct dl_pq_int_type {
    int8_t bit_width;
    bool is_signed;
} dl_pq_int_type;

typedef struct dl_pq_variant_type {
    int8_t specification_version;
    bool has_specification_version;
} dl_pq_variant_type;

/* GeometryType and GeographyType (algorithm is GEOGRAPHY's EdgeInterpolationAlgorithm). */
typedef struct dl_pq_geo_type {
    dl_str crs;
    int32_t algorithm;
    bool has_crs, has_algorithm;
} dl_pq_geo_type;

/* LogicalType union: `kind` says which payload, if any, is meaningful. */
typedef struct dl_pq_logical_type {
    dl_pq_logical_kind kind;
    dl_pq_decimal_type decimal; /* DECIMAL */
    dl_pq_time_type time;       /* TIME */
    dl_pq_time_type timestamp;  /* TIMESTAMP */
    dl_pq_int_type integer;     /* INTEGER */
    dl_pq_variant_type variant; /* VARIANT */
    dl_pq_geo_type geometry;    /* GEOMETRY */
    dl_pq_geo_type geography;   /* GEOGRAPHY */
} dl_pq_logical_type;

typedef struct dl_pq_schema_element {
    dl_pq_type type;
    int32_t type_length;
    dl_pq_repetition repetition_type;
    dl_str name;
    int32_t num_children;
    dl_pq_converted_type converted_type;
    int32_t scale;
    int32_t precision;
    int32_t field_id;
    dl_pq_logical_type logical_type; /* kind 0 with has_logical_type: a type we do not know */
    bool has_type, has_type_length, has_repetition_type, has_num_children, has_converted_type;
    bool has_scale, has_precision, has_field_id, has_logical_type;
} dl_pq_schema_element;

typedef struct dl_pq_sorting_column {
    int32_t column_idx;
    bool descending;
    bool nulls_first;
} dl_pq_sorting_column;

typedef struct dl_pq_page_encoding_stats {
    dl_pq_page_type page_type;
    dl_pq_encoding encoding;
    int32_t count;
} dl_pq_page_encoding_stats;

typedef struct dl_pq_column_metadata {
    dl_pq_type type;
    dl_pq_encoding *encodings;
    size_t n_encodings;
    dl_str *path_in_schema;
    size_t n_path_in_schema;
    int32_t codec; /* CompressionCodec: dl_pq_codec in parquet/codec/pq_codec.h */
    int64_t num_values;
    int64_t total_uncompressed_size;
    int64_t total_compressed_size;
    dl_pq_key_value *key_value_metadata;
    size_t n_key_value_metadata;
    int64_t data_page_offset;
    int64_t index_page_offset;
    int64_t dictionary_page_offset;
    dl_pq_statistics statistics;
    dl_pq_page_encoding_stats *encoding_stats;
    size_t n_encoding_stats;
    int64_t bloom_filter_offset;
    int32_t bloom_filter_length;
    dl_pq_size_statistics size_statistics;
    bool has_key_value_metadata, has_index_page_offset, has_dictionary_page_offset;
    bool has_statistics, has_encoding_stats, has_bloom_filter_offset, has_bloom_filter_length;
    bool has_size_statistics;
} dl_pq_column_metadata;

typedef struct dl_pq_column_chunk {
    dl_str file_path;    /* set: the chunk lives in another file (unsupported) */
    int64_t file_offset; /* deprecated; 0 when absent */
    dl_pq_column_metadata meta_data;
    int64_t offset_index_offset;
    int32_t offset_index_length;
    int64_t column_index_offset;
    int32_t column_index_length;
    dl_str encrypted_column_metadata;
    bool has_file_path, has_meta_data, has_offset_index_offset, has_offset_index_length;
    bool has_column_index_offset, has_column_index_length;
    bool has_crypto_metadata; /* ColumnCryptoMetaData present (content not kept) */
    bool has_encrypted_column_metadata;
} dl_pq_column_chunk;

typedef struct dl_pq_row_group {
    dl_pq_column_chunk *columns;
    size_t n_columns;
    int64_t total_byte_size;
    int64_t num_rows;
    dl_pq_sorting_column *sorting_columns;
    size_t n_sorting_columns;
    int64_t file_offset;
    int64_t total_compressed_size;
    int16_t ordinal;
    bool has_sorting_columns, has_file_offset, has_total_compressed_size, has_ordinal;
} dl_pq_row_group;

typedef struct dl_pq_column_order {
    dl_pq_column_order_kind kind;
} dl_pq_column_order;

typedef struct dl_pq_file_metadata {
    int32_t version;
    dl_pq_schema_element *schema;
    size_t n_schema;
    int64_t num_rows;
    dl_pq_row_group *row_groups;
    size_t n_row_groups;
    dl_pq_key_value *key_value_metadata;
    size_t n_key_value_metadata;
    dl_str created_by;
    dl_pq_column_order *column_orders;
    size_t n_column_orders;
    dl_str footer_signing_key_metadata;
    bool has_key_value_metadata, has_created_by, has_column_orders;
    bool has_encryption_algorithm; /* EncryptionAlgorithm present (content not kept) */
    bool has_footer_signing_key_metadata;
} dl_pq_file_metadata;

typedef struct dl_pq_data_page_header {
    int32_t num_values;
    dl_pq_encoding encoding;
    dl_pq_encoding definition_level_encoding;
    dl_pq_encoding repetition_level_encoding;
    dl_pq_statistics statistics;
    bool has_statistics;
} dl_pq_data_page_header;

typedef struct dl_pq_dictionary_page_header {
    int32_t num_values;
    dl_pq_encoding encoding;
    bool is_sorted;
    bool has_is_sorted;
} dl_pq_dictionary_page_header;

typedef struct dl_pq_data_page_header_v2 {
    int32_t num_values;
    int32_t num_nulls;
    int32_t num_rows;
    dl_pq_encoding encoding;
    int32_t definition_levels_byte_length;
    int32_t repetition_levels_byte_length;
    bool is_compressed; /* true when absent (the Thrift default) */
    dl_pq_statistics statistics;
    bool has_is_compressed, has_statistics;
} dl_pq_data_page_header_v2;

typedef struct dl_pq_page_header {
    dl_pq_page_type type;
    int32_t uncompressed_page_size;
    int32_t compressed_page_size;
    int32_t crc; /* CRC-32 (the gzip polynomial) of the page bytes after the header */
    dl_pq_data_page_header data_page_header;
    dl_pq_dictionary_page_header dictionary_page_header;
    dl_pq_data_page_header_v2 data_page_header_v2;
    bool has_crc, has_data_page_header, has_index_page_header, has_dictionary_page_header;
    bool has_data_page_header_v2;
} dl_pq_page_header;

typedef struct dl_pq_page_location {
    int64_t offset;
    int32_t compressed_page_size; /* including the page header */
    int64_t first_row_index;
} dl_pq_page_location;

typedef struct dl_pq_offset_index {
    dl_pq_page_location *page_locations;
    size_t n_page_locations;
    int64_t *unencoded_byte_array_data_bytes;
    size_t n_unencoded_byte_array_data_bytes;
    bool has_unencoded_byte_array_data_bytes;
} dl_pq_offset_index;

typedef struct dl_pq_column_index {
    bool *null_pages;
    size_t n_null_pages;
    dl_str *min_values;
    size_t n_min_values;
    dl_str *max_values;
    size_t n_max_values;
    dl_pq_boundary_order boundary_order;
    int64_t *null_counts;
    size_t n_null_counts;
    int64_t *repetition_level_histograms;
    size_t n_repetition_level_histograms;
    int64_t *definition_level_histograms;
    size_t n_definition_level_histograms;
    int64_t *nan_counts;
    size_t n_nan_counts;
    bool has_null_counts, has_repetition_level_histograms, has_definition_level_histograms;
    bool has_nan_counts;
} dl_pq_column_index;

/* BloomFilterHeader; the three unions each have one known member (1), 0 = unknown. */
typedef struct dl_pq_bloom_filter_header {
    int32_t num_bytes;
    int32_t algorithm;   /* 1 = BLOCK (split block) */
    int32_t hash;        /* 1 = XXHASH */
    int32_t compression; /* 1 = UNCOMPRESSED */
} dl_pq_bloom_filter_header;

/* ---- Decoding and encoding ------------------------------------------------------------- */

/*
 * Each decoder reads one Thrift struct from data[0, len) with a hardened compact-protocol
 * decoder: every length and count is checked against the bytes left, nesting is bounded,
 * unknown fields of any type are skipped, a known field with the wrong wire type, a repeated
 * field, a missing required field or an out-of-range structural enum is DL_ERR_CORRUPT, and
 * the decoder allocates at most a fixed multiple of len (else DL_ERR_LIMIT). Messages name
 * the field and the byte, e.g.
 *   "FileMetaData.row_groups[3].columns[1].meta_data.total_compressed_size at byte 512:
 *    varint longer than 10 bytes"
 * where the byte is file_offset + the position in data (pass the file offset of data[0], or
 * 0 when data is not from a file). err->offset receives the same byte.
 *
 * out is overwritten (zeroed first). Lists live in arena; dl_str fields are views into data,
 * so data must outlive them (dl_pq_footer_parse copies the footer into the arena for this
 * reason). Trailing bytes after the struct are not an error: *out_len (when not NULL)
 * receives the bytes the struct used.
 */
DL_NODISCARD dl_status dl_pq_file_metadata_decode(const uint8_t *data, size_t len,
                                                  int64_t file_offset, dl_arena *arena,
                                                  dl_pq_file_metadata *out, size_t *out_len,
                                                  dl_error *err);

/*
 * As above for a page header at the start of data; avail is how many bytes are known to
 * follow (up to the end of the column chunk, or a read-ahead window). The header's length is
 * not known in advance: when the header runs past avail, *out_truncated (optional) is set and
 * DL_ERR_CORRUPT returned, so a caller with a short window can retry with a larger one.
 * Beyond the Thrift rules it checks that sizes and counts are non-negative and that the page
 * type has its matching sub-header.
 */
DL_NODISCARD dl_status dl_pq_page_header_decode(const uint8_t *data, size_t avail,
                                                int64_t file_offset, dl_arena *arena,
                                                dl_pq_page_header *out, size_t *out_len,
                                                bool *out_truncated, dl_error *err);

/* ColumnIndex at data[0, len) (ColumnChunk.column_index_offset/length). Checks that the
 * per-page lists have one entry per page. */
DL_NODISCARD dl_status dl_pq_column_index_decode(const uint8_t *data, size_t len,
                                                 int64_t file_offset, dl_arena *arena,
                                                 dl_pq_column_index *out, dl_error *err);

/* OffsetIndex at data[0, len). Checks offsets, sizes and row indexes are non-negative and
 * first_row_index ascends from 0. */
DL_NODISCARD dl_status dl_pq_offset_index_decode(const uint8_t *data, size_t len,
                                                 int64_t file_offset, dl_arena *arena,
                                                 dl_pq_offset_index *out, dl_error *err);

/* BloomFilterHeader at the start of data[0, avail); *out_len receives its length. */
DL_NODISCARD dl_status dl_pq_bloom_filter_header_decode(const uint8_t *data, size_t avail,
                                                        int64_t file_offset, dl_arena *arena,
                                                        dl_pq_bloom_filter_header *out,
                                                        size_t *out_len, dl_error *err);

/*
 * Encoders append the compact-protocol form to out. Fields are written in id order; an
 * optional field is written when its has_ flag is set, a list with its n_ count. Fails with
 * DL_ERR_INVALID_ARG when a count exceeds Thrift's int32 limit, DL_ERR_NOMEM when out cannot
 * grow. Unknown fields seen while decoding are not kept, so decode(encode(x)) == x for every
 * decoded x, not encode(decode(bytes)) == bytes.
 */
DL_NODISCARD dl_status dl_pq_file_metadata_encode(const dl_pq_file_metadata *md, dl_buf *out,
                                                  dl_error *err);
DL_NODISCARD dl_status dl_pq_page_header_encode(const dl_pq_page_header *ph, dl_buf *out,
                                                dl_error *err);
DL_NODISCARD dl_status dl_pq_column_index_encode(const dl_pq_column_index *ci, dl_buf *out,
                                                 dl_error *err);
DL_NODISCARD dl_status dl_pq_offset_index_encode(const dl_pq_offset_index *oi, dl_buf *out,
                                                 dl_error *err);
DL_NODISCARD dl_status dl_pq_bloom_filter_header_encode(const dl_pq_bloom_filter_header *bf,
                                                        dl_buf *out, dl_error *err);

/* Deep equality of two models: the same fields present with the same values (doubles and
 * binaries compared bit for bit; fields whose has_ flag is false are not compared). */
bool dl_pq_file_metadata_equal(const dl_pq_file_metadata *a, const dl_pq_file_metadata *b);
bool dl_pq_page_header_equal(const dl_pq_page_header *a, const dl_pq_page_header *b);
bool dl_pq_column_index_equal(const dl_pq_column_index *a, const dl_pq_column_index *b);
bool dl_pq_offset_index_equal(const dl_pq_offset_index *a, const dl_pq_offset_index *b);

/* ---- Schema tree ----------------------------------------------------------------------- */

/*
 * FileMetaData.schema is the schema tree flattened depth first; each group says how many
 * children follow it. dl_pq_schema_build turns it back into a tree and computes, per node,
 * the maximum definition and repetition levels (Dremel: an OPTIONAL or REPEATED node adds one
 * definition level, a REPEATED node one repetition level) and, per leaf, its column index.
 */
typedef struct dl_pq_schema_node dl_pq_schema_node;

struct dl_pq_schema_node {
    const dl_pq_schema_element *element; /* the flat schema entry */
    const char *name;                    /* NUL-terminated copy of element->name */
    const char *path;          /* dotted path below the root ("a.list.element"); "" for the root */
    const char **path_parts;   /* the names on the path, as in path_in_schema */
    size_t n_path_parts;       /* depth below the root (0 for the root) */
    dl_pq_schema_node *parent; /* NULL for the root */
    dl_pq_schema_node **children; /* in file order */
    size_t n_children;
    int32_t element_index;       /* position in FileMetaData.schema */
    int32_t leaf_index;          /* column index (position among leaves); -1 for groups */
    int32_t first_leaf;          /* leaves below this node are [first_leaf, first_leaf+n_leaves) */
    int32_t n_leaves;            /* leaf columns at or below this node */
    int16_t max_def_level;       /* at this node, counting this node */
    int16_t max_rep_level;       /* at this node, counting this node */
    dl_pq_repetition repetition; /* REQUIRED for the root */
    bool is_leaf;
    dl_pq_type type;            /* leaves only */
    int32_t type_length;        /* FIXED_LEN_BYTE_ARRAY leaves: bytes per value; else 0 */
    dl_pq_logical_type logical; /* from logicalType, else derived from converted_type */
    bool has_unknown_logical;   /* logicalType of a kind we do not know: use the physical type */
    dl_pq_column_order_kind column_order; /* leaves: from column_orders; UNDEFINED if absent */
};

typedef struct dl_pq_schema {
    dl_pq_schema_node *root;  /* == &nodes[0] */
    dl_pq_schema_node *nodes; /* one per schema element, in file order */
    size_t n_nodes;
    dl_pq_schema_node **leaves; /* leaf columns, in column order */
    size_t n_leaves;
    int16_t max_depth; /* deepest n_path_parts */
} dl_pq_schema;

/* Schema nesting deeper than this is DL_ERR_LIMIT (levels are 16-bit in the readers). */
#define DL_PQ_MAX_SCHEMA_DEPTH 255

/*
 * Builds the tree of md->schema in arena. Checks: the list is non-empty and its num_children
 * counts cover it exactly; the root is not REPEATED and has no physical type; every other
 * element has a repetition type and either children or a physical type (only the root may be
 * an empty group); FIXED_LEN_BYTE_ARRAY leaves have a positive type_length; DECIMAL
 * annotations have 0 <= scale <= precision on INT32, INT64, BYTE_ARRAY or
 * FIXED_LEN_BYTE_ARRAY; INTEGER annotations are 8, 16 or 32 bits on INT32 or 64 on INT64;
 * column_orders, when present, has one entry per leaf. Violations are DL_ERR_CORRUPT naming
 * the element ("FileMetaData.schema[4] 'price': ..."); nesting deeper than
 * DL_PQ_MAX_SCHEMA_DEPTH, or paths far larger than the schema itself, are DL_ERR_LIMIT.
 * The tree points into md, which must outlive it.
 */
DL_NODISCARD dl_status dl_pq_schema_build(const dl_pq_file_metadata *md, dl_arena *arena,
                                          dl_pq_schema *out, dl_error *err);

/* The leaf whose path equals parts[0..n_parts), or NULL. */
const dl_pq_schema_node *dl_pq_schema_find_leaf(const dl_pq_schema *schema, const dl_str *parts,
                                                size_t n_parts);

/* ---- The writer of a file (FileMetaData.created_by) ------------------------------------ */

/* created_by parsed the way readers use it to work around writer bugs:
 * "<app> version <major>.<minor>.<patch>[-suffix] (build <hash>)". */
typedef struct dl_pq_writer_version {
    dl_str app; /* "parquet-mr", "parquet-cpp-arrow", "parquet-rs", ...; empty if unknown */
    int32_t major;
    int32_t minor;
    int32_t patch;
    bool has_version; /* a numeric version was found */
} dl_pq_writer_version;

/* Parses created_by (a view; the result points into it). Never fails: what does not parse
 * gives an empty app or has_version false. */
dl_pq_writer_version dl_pq_writer_version_parse(dl_str created_by);

/* True when the writer is app and its version is known and lower than major.minor.patch. */
bool dl_pq_writer_version_lt(const dl_pq_writer_version *w, const char *app, int32_t major,
                             int32_t minor, int32_t patch);

/* ---- Footer ---------------------------------------------------------------------------- */

#define DL_PQ_MAGIC_LEN   4 /* "PAR1" at both ends of a file */
#define DL_PQ_TRAILER_LEN 8 /* u32 LE FileMetaData length + "PAR1" */

/* A parsed, validated footer. Everything lives in the arena given to dl_pq_footer_parse. */
typedef struct dl_pq_footer {
    dl_pq_file_metadata meta;    /* the decoded FileMetaData */
    dl_pq_schema schema;         /* its schema tree */
    dl_pq_writer_version writer; /* parsed meta.created_by */
    int64_t file_size;
    int64_t metadata_offset; /* file offset of the FileMetaData */
    uint32_t metadata_len;   /* its length in bytes */
} dl_pq_footer;

/*
 * Reads the trailer at the end of tail (the last tail_len >= 8 bytes of a file of file_size
 * bytes) and says how many bytes from the end of the file dl_pq_footer_parse needs:
 * metadata length + 8. Fails with DL_ERR_CORRUPT when the file is too small to be Parquet,
 * the magic is not "PAR1" or the length does not fit the file, and DL_ERR_UNSUPPORTED when
 * the magic is "PARE" (modular encryption with an encrypted footer).
 *
 * A reader reads a guess of the tail (64 KiB, or the whole file when smaller), calls this,
 * and reads more when the answer exceeds what it has.
 */
DL_NODISCARD dl_status dl_pq_footer_size(const uint8_t *tail, size_t tail_len, int64_t file_size,
                                         size_t *out_needed, dl_error *err);

/*
 * Parses and validates the footer from the last tail_len bytes of a file of file_size bytes
 * (tail_len >= dl_pq_footer_size's answer). When tail_len == file_size the leading "PAR1" is
 * checked too; otherwise call dl_pq_file_check_head on the first 4 bytes.
 *
 * Beyond decoding it checks: the schema (dl_pq_schema_build); each row group has one column
 * chunk per leaf, in schema order (path_in_schema and physical type agree), with non-negative
 * counts and sizes, a chunk range [dictionary or data page offset, + total_compressed_size)
 * inside the data region [4, metadata_offset), and page index and bloom filter ranges inside
 * the file; a non-repeated column has one value per row. Files that use modular encryption
 * (encryption_algorithm in the footer, encrypted column metadata) fail with
 * DL_ERR_UNSUPPORTED naming it, and column chunks stored in other files (file_path) with
 * DL_ERR_UNSUPPORTED. The footer bytes are copied into arena, so tail may be released after.
 */
DL_NODISCARD dl_status dl_pq_footer_parse(const uint8_t *tail, size_t tail_len, int64_t file_size,
                                          dl_arena *arena, dl_pq_footer **out, dl_error *err);

/* Checks the 4-byte leading magic of a file ("PAR1"; "PARE" is DL_ERR_UNSUPPORTED). */
DL_NODISCARD dl_status dl_pq_file_check_head(const uint8_t *head, size_t head_len, dl_error *err);

/*
 * The byte range [*out_offset, *out_offset + *out_len) of a column chunk's pages: from the
 * dictionary page when there is one, else the first data page, for total_compressed_size
 * bytes. Offsets below 4 mean "none": some writers put dictionary_page_offset 0 in chunks
 * without a dictionary, and data_page_offset 0 in chunks with only a dictionary page (no
 * rows; parquet-cpp 17).
 * Assumes: the footer was validated by dl_pq_footer_parse (the range is inside the file).
 */
void dl_pq_column_chunk_range(const dl_pq_column_chunk *chunk, int64_t *out_offset,
                              int64_t *out_len);

/* ---- Statistics ------------------------------------------------------------------------ */

/* How values of a column compare (parquet.thrift, ColumnOrder). */
typedef enum dl_pq_sort_order {
    DL_PQ_SORT_UNKNOWN = 0, /* no usable order: statistics must not be used for pruning */
    DL_PQ_SORT_SIGNED = 1,  /* two's complement integers, floats, decimals by value, dates, times */
    DL_PQ_SORT_UNSIGNED = 2, /* unsigned integers, booleans, byte-wise strings and binaries */
} dl_pq_sort_order;

/* The sort order of a leaf's values from its logical type, else converted type, else
 * physical type. INT96 and INTERVAL have none. */
dl_pq_sort_order dl_pq_leaf_sort_order(const dl_pq_schema_node *leaf);

/* The bounds statistics give for pruning, when dl_pq_stats_usable says they are usable. */
typedef struct dl_pq_stats_bounds {
    dl_str min; /* PLAIN-encoded, byte arrays without length prefix */
    dl_str max;
    bool has_min, has_max;
    bool is_min_exact, is_max_exact; /* the bound is a value of the column, not just a bound */
    bool is_from_deprecated;         /* taken from the deprecated min/max fields */
    dl_pq_sort_order order;          /* how to compare values against them */
    const char *why_not;             /* when unusable: a short reason, for EXPLAIN and tests */
} dl_pq_stats_bounds;

/*
 * Decides whether min/max statistics of a leaf column (from its column chunk, a data page
 * header or similar) can be trusted for pruning, and which fields to take them from:
 *   - min_value/max_value follow the column's ColumnOrder: usable when the leaf's sort order
 *     is known and its column order is TYPE_DEFINED, undefined (files without column_orders;
 *     Arrow, DuckDB and parquet-rs read them the same way) or the order the type allows
 *     (IEEE_754_TOTAL for FLOAT/DOUBLE/FLOAT16, INT96_TIMESTAMP for INT96); an unknown
 *     (newer) column order is not usable;
 *   - the deprecated min/max were computed by signed comparison (PARQUET-686: for byte arrays,
 *     of signed bytes), so they are usable only for the SIGNED sort order on non-byte-array
 *     physical types, or when min == max (then the order does not matter), never for byte
 *     arrays from parquet-mr before 1.8.0 (PARQUET-251 corrupted them);
 *   - a NaN bound of a FLOAT/DOUBLE column is not usable (the other bound still is).
 * Returns true when at least one bound is usable; fills out either way (why_not on false).
 * writer may be NULL (unknown writer).
 */
bool dl_pq_stats_usable(const dl_pq_schema_node *leaf, const dl_pq_writer_version *writer,
                        const dl_pq_statistics *stats, dl_pq_stats_bounds *out);

/* ---- Bloom filters (BloomFilter.md; pq_bloom.c) ---------------------------------------- */

#define DL_PQ_BLOOM_BLOCK_BYTES ((size_t)32)        /* 256 bits: eight 32-bit words */
#define DL_PQ_BLOOM_MAX_BYTES   ((size_t)128 << 20) /* larger filters are not read */

/* xxHash64 (XXH64) of data[0, len) with seed; Parquet hashes with seed 0. */
uint64_t dl_pq_xxhash64(const void *data, size_t len, uint64_t seed);

/* Sets, or tests, the bits of hash in a split block Bloom filter of len bytes (a positive
 * multiple of DL_PQ_BLOOM_BLOCK_BYTES). check is false only when hash was never inserted. */
void dl_pq_bloom_insert(uint8_t *bitset, size_t len, uint64_t hash);
bool dl_pq_bloom_check(const uint8_t *bitset, size_t len, uint64_t hash);

/* The bytes a filter needs for ndv distinct values at false-positive probability fpp: a
 * power of two from DL_PQ_BLOOM_BLOCK_BYTES up to max_bytes (max_bytes itself when fpp is
 * not in (0, 1)). */
size_t dl_pq_bloom_bytes_for(uint64_t ndv, double fpp, size_t max_bytes);

/* Halves a filter of len bytes (a power of two times DL_PQ_BLOOM_BLOCK_BYTES) in place until
 * it is no larger than target, keeping exactly the values inserted; returns the new length. */
size_t dl_pq_bloom_fold(uint8_t *bitset, size_t len, size_t target);

/* Estimates how many distinct values a filter holds from its share of set bits
 * (UINT64_MAX when every bit is set). */
uint64_t dl_pq_bloom_estimate_ndv(const uint8_t *bitset, size_t len);

/* ---- Names ----------------------------------------------------------------------------- */

/* Parquet's spelling of enum values ("INT32", "RLE_DICTIONARY", ...), or "UNKNOWN" for values
 * this version does not know (print the number beside it). Never NULL. */
const char *dl_pq_type_name(int32_t type);
const char *dl_pq_encoding_name(int32_t encoding);
const char *dl_pq_page_type_name(int32_t page_type);
const char *dl_pq_converted_type_name(int32_t converted_type);
const char *dl_pq_repetition_name(int32_t repetition);
const char *dl_pq_logical_kind_name(int32_t kind);

#endif /* DL_PQ_PARQUET_H */
