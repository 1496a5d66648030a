/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private interface of the parquet part's metadata layer: the Thrift descriptor tables of the
 * model in parquet.h (pq_meta_desc.c) and helpers shared by the footer and schema code.
 */
#ifndef DL_PQ_PARQUET_INT_H
#define DL_PQ_PARQUET_INT_H

#include "parquet/parquet.h"
#include "parquet/tc_proto.h"

/* Descriptors of the top-level structs (parquet.thrift names in messages). */
extern const dl_tc_struct dl_pq_desc_file_metadata;
extern const dl_tc_struct dl_pq_desc_page_header;
extern const dl_tc_struct dl_pq_desc_column_index;
extern const dl_tc_struct dl_pq_desc_offset_index;
extern const dl_tc_struct dl_pq_desc_bloom_filter_header;

/* The largest decimal precision a FIXED_LEN_BYTE_ARRAY of n bytes holds:
 * floor(log10(2^(8n-1) - 1)); 0 for n <= 0. n above 32 is capped to 32's answer (76). */
int32_t dl_pq_decimal_max_precision(int32_t n_bytes);

#endif /* DL_PQ_PARQUET_INT_H */
