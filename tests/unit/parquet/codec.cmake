# SPDX-License-Identifier: Apache-2.0
# Codec unit tests.
dl_add_unit_test(test_codec SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_codec.c DEPS dl_parquet)
