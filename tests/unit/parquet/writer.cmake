# SPDX-License-Identifier: Apache-2.0
# Parquet writer tests. Each links the file checker in test_pq_write_util.c, which decodes what
# the writer wrote with the committed metadata and encoding layers.
foreach(t test_pq_write test_pq_write_nested test_pq_write_enc test_pq_write_fault
          test_pq_write_read)
  dl_add_unit_test(${t} SOURCES ${CMAKE_CURRENT_LIST_DIR}/${t}.c
                   ${CMAKE_CURRENT_LIST_DIR}/test_pq_write_util.c DEPS dl_parquet)
endforeach()

# The DuckDB cross-check (tests/parquet_duckdb/README.md): pq_write_alltypes writes a file of
# every type with known values; check.mjs has DuckDB read it back and compares values and
# statistics. Skipped (77) where node or the npm package is missing.
add_executable(pq_write_alltypes ${CMAKE_SOURCE_DIR}/tests/parquet_duckdb/pq_write_alltypes.c)
target_link_libraries(pq_write_alltypes PRIVATE dl_parquet)
find_program(DL_NODE node)
add_test(NAME test_pq_write_duckdb
         COMMAND ${CMAKE_COMMAND} -E env DL_NODE=${DL_NODE}
                 sh ${CMAKE_SOURCE_DIR}/tests/parquet_duckdb/run.sh
                 $<TARGET_FILE:pq_write_alltypes> ${CMAKE_CURRENT_BINARY_DIR}/pq_write_duckdb)
set_tests_properties(test_pq_write_duckdb PROPERTIES LABELS unit TIMEOUT 300 SKIP_RETURN_CODE 77
                     RESOURCE_LOCK dl_duckdb_npm)
