# SPDX-License-Identifier: Apache-2.0
# The Parquet writer (pq_writer.h): schema, shredding, dictionaries, statistics, pages and the
# file. A build hash for created_by can be given with -DDL_BUILD_HASH=<hash> (default "none").
list(APPEND DL_PQ_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/pq_write.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_write_bloom.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_write_dict.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_write_page.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_write_schema.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_write_shred.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_write_stats.c)
if(DL_BUILD_HASH)
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/pq_write.c PROPERTIES
    COMPILE_DEFINITIONS DL_BUILD_HASH="${DL_BUILD_HASH}")
endif()
