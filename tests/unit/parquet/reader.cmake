# SPDX-License-Identifier: Apache-2.0
# Parquet reader tests. test_pq_read_util.c (rendering rows as DuckDB's JSON, building small
# Parquet files page by page) is shared by them.
add_library(dl_pq_read_testutil STATIC ${CMAKE_CURRENT_LIST_DIR}/test_pq_read_util.c)
target_include_directories(dl_pq_read_testutil PUBLIC ${CMAKE_SOURCE_DIR}/tests/unit)
target_link_libraries(dl_pq_read_testutil PUBLIC dl_parquet dl_json PkgConfig::DL_ZLIB)

# Every file of ../shared/corpus: parquet-testing against expected-duckdb, the Delta tables'
# Parquet files read whole.
dl_add_unit_test(test_pq_read_corpus SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_pq_read_corpus.c
                 DEPS dl_pq_read_testutil)
target_compile_definitions(test_pq_read_corpus PRIVATE
  DL_CORPUS_DIR="${CMAKE_SOURCE_DIR}/../shared/corpus")
set_tests_properties(test_pq_read_corpus PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)

foreach(t test_pq_read test_pq_read_nested test_pq_read_filter)
  if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/${t}.c)
    dl_add_unit_test(${t} SOURCES ${CMAKE_CURRENT_LIST_DIR}/${t}.c DEPS dl_pq_read_testutil)
  endif()
endforeach()

# Page skipping over files our writer produces (so it links the writer tests' helpers too).
dl_add_unit_test(test_pq_read_pages SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_pq_read_pages.c
                 ${CMAKE_CURRENT_LIST_DIR}/test_pq_write_util.c DEPS dl_pq_read_testutil)
dl_add_unit_test(test_pq_read_pages_corpus
                 SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_pq_read_pages_corpus.c
                 DEPS dl_pq_read_testutil)
target_compile_definitions(test_pq_read_pages_corpus PRIVATE
  DL_CORPUS_DIR="${CMAKE_SOURCE_DIR}/../shared/corpus")
set_tests_properties(test_pq_read_pages_corpus PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)

# Unsigned integers: row-group and page filters in unsigned order, and re-written statistics.
dl_add_unit_test(test_pq_unsigned SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_pq_unsigned.c
                 ${CMAKE_CURRENT_LIST_DIR}/test_pq_write_util.c DEPS dl_pq_read_testutil)

# Bloom filters: xxHash64, the split block filter, parquet-mr's filters, and ours read back.
dl_add_unit_test(test_pq_bloom SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_pq_bloom.c
                 ${CMAKE_CURRENT_LIST_DIR}/test_pq_write_util.c DEPS dl_pq_read_testutil)
target_compile_definitions(test_pq_bloom PRIVATE
  DL_CORPUS_DIR="${CMAKE_SOURCE_DIR}/../shared/corpus")
