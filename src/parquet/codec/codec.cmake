# SPDX-License-Identifier: Apache-2.0
# Page compression codecs (see pq_codec.h). Linked against zlib, zstd, lz4, snappy and
# brotli by src/parquet/CMakeLists.txt.
list(APPEND DL_PQ_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/codec.c
  ${CMAKE_CURRENT_LIST_DIR}/codec_brotli.c
  ${CMAKE_CURRENT_LIST_DIR}/codec_gzip.c
  ${CMAKE_CURRENT_LIST_DIR}/codec_lz4.c
  ${CMAKE_CURRENT_LIST_DIR}/codec_snappy.c
  ${CMAKE_CURRENT_LIST_DIR}/codec_zstd.c)
