# SPDX-License-Identifier: Apache-2.0
# The reader: column chunks decoded into vectors (pq_reader.h).
list(APPEND DL_PQ_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/pq_reader_file.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_reader_types.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_reader.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_reader_filter.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_reader_index.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_page.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_column.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_column_conv.c
  ${CMAKE_CURRENT_LIST_DIR}/pq_assemble.c)
