# SPDX-License-Identifier: Apache-2.0
# Thrift compact protocol and Parquet metadata tests.
foreach(t test_tc_read test_tc_write test_pq_meta test_pq_meta_schema test_pq_meta_stats
          test_pq_meta_footer)
  dl_add_unit_test(${t} SOURCES ${CMAKE_CURRENT_LIST_DIR}/${t}.c DEPS dl_parquet)
endforeach()

# Every footer of ../shared/corpus: parquet-testing's facts (pq_meta_expected.tsv, extracted
# from its EXPECTED.json by pq_meta_expected.py) and the Delta tables' Parquet files.
dl_add_unit_test(test_pq_meta_corpus SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_pq_meta_corpus.c
                 DEPS dl_parquet)
target_compile_definitions(test_pq_meta_corpus PRIVATE
  DL_CORPUS_DIR="${CMAKE_SOURCE_DIR}/../shared/corpus"
  DL_PQ_META_EXPECTED="${CMAKE_CURRENT_LIST_DIR}/pq_meta_expected.tsv")
set_tests_properties(test_pq_meta_corpus PROPERTIES SKIP_RETURN_CODE 77)
