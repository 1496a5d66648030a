# SPDX-License-Identifier: Apache-2.0
# Thrift compact protocol and the Parquet metadata model (footer, schema tree, page headers,
# page index, statistics rules, Bloom filters).
list(APPEND DL_PQ_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/tc_read.c
  ${CMAKE_CURRENT_LIST_DIR}/tc_write.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_meta.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_meta_desc.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_meta_schema.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_meta_stats.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_bloom.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_footer.c)
