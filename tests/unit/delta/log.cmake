# SPDX-License-Identifier: Apache-2.0
# Unit tests of the transaction log's read side, and the Delta corpus runner.
foreach(t features schema action segment snapshot value timetravel history)
  dl_add_unit_test(test_delta_${t} SOURCES test_delta_${t}.c test_delta_log_util.c
                   DEPS dl_delta)
endforeach()
# Tests that write Parquet checkpoints (test_delta_cp_util.c: JSON action lines to a checkpoint).
foreach(t checkpoint scan)
  dl_add_unit_test(test_delta_${t} SOURCES test_delta_${t}.c test_delta_log_util.c
                   test_delta_cp_util.c ${CMAKE_SOURCE_DIR}/tests/corpus/delta_rows.c
                   DEPS dl_delta)
  target_include_directories(test_delta_${t} PRIVATE ${CMAKE_SOURCE_DIR}/tests/corpus)
endforeach()
include(${CMAKE_SOURCE_DIR}/tests/corpus/delta.cmake)
# _last_checkpoint's checksum, and the files a load reads (a counting store wrapper).
dl_add_unit_test(test_delta_last_checkpoint SOURCES test_delta_last_checkpoint.c
                 test_delta_log_util.c DEPS dl_delta)
