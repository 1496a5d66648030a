# SPDX-License-Identifier: Apache-2.0
# Page encoding unit tests.
foreach(t test_enc_bitpack test_enc_plain test_enc_rle_bp test_enc_delta_bp test_enc_delta_ba
          test_enc_bss)
  dl_add_unit_test(${t} SOURCES ${CMAKE_CURRENT_LIST_DIR}/${t}.c DEPS dl_parquet)
endforeach()
