# SPDX-License-Identifier: Apache-2.0
# Unit tests of the transaction log's read side, and the Delta corpus runner.
foreach(t features schema action segment snapshot value timetravel)
  dl_add_unit_test(test_delta_${t} SOURCES test_delta_${t}.c test_delta_log_util.c
                   DEPS dl_delta)
endforeach()
include(${CMAKE_SOURCE_DIR}/tests/corpus/delta.cmake)
