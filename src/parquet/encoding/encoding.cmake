# SPDX-License-Identifier: Apache-2.0
# Page encodings (see pq_encoding.h): one file per encoding plus the bit-packing kernels.
list(APPEND DL_PQ_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/enc_bitpack.c
  ${CMAKE_CURRENT_LIST_DIR}/enc_bss.c
  ${CMAKE_CURRENT_LIST_DIR}/enc_delta_ba.c
  ${CMAKE_CURRENT_LIST_DIR}/enc_delta_bp.c
  ${CMAKE_CURRENT_LIST_DIR}/enc_delta_lba.c
  ${CMAKE_CURRENT_LIST_DIR}/enc_dict.c
  ${CMAKE_CURRENT_LIST_DIR}/enc_int96.c
  ${CMAKE_CURRENT_LIST_DIR}/enc_plain.c
  ${CMAKE_CURRENT_LIST_DIR}/enc_rle_bp.c)
