# SPDX-License-Identifier: Apache-2.0
# Thrift compact protocol and Parquet metadata tests. The metadata layer needs only dl_base,
# so its sources are also built into a private library, dl_pq_meta_only, that these tests and
# tests/fuzz/parquet_meta.cmake link (through the global property DL_PQ_META_LIB): they test
# this layer on its own, whatever state the rest of dl_parquet and its dependencies are in.
if(NOT TARGET dl_pq_meta_only)
  set(DL_PQ_SOURCES "")
  include(${CMAKE_SOURCE_DIR}/src/parquet/meta.cmake)
  add_library(dl_pq_meta_only STATIC ${DL_PQ_SOURCES})
  target_include_directories(dl_pq_meta_only PUBLIC ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(dl_pq_meta_only PUBLIC dl_base m)
  set_property(GLOBAL PROPERTY DL_PQ_META_LIB dl_pq_meta_only)
endif()
get_property(dl_pq_meta_lib GLOBAL PROPERTY DL_PQ_META_LIB)

foreach(t test_tc_read test_tc_write test_pq_meta test_pq_meta_schema test_pq_meta_stats
          test_pq_meta_footer)
  if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/${t}.c)
    dl_add_unit_test(${t} SOURCES ${CMAKE_CURRENT_LIST_DIR}/${t}.c DEPS ${dl_pq_meta_lib})
  endif()
endforeach()

# Every footer of ../shared/corpus: parquet-testing's facts (pq_meta_expected.tsv, extracted
# from its EXPECTED.json by pq_meta_expected.py) and the Delta tables' Parquet files.
if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/test_pq_meta_corpus.c)
  dl_add_unit_test(test_pq_meta_corpus SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_pq_meta_corpus.c
                   DEPS ${dl_pq_meta_lib})
  target_compile_definitions(test_pq_meta_corpus PRIVATE
    DL_CORPUS_DIR="${CMAKE_SOURCE_DIR}/../shared/corpus"
    DL_PQ_META_EXPECTED="${CMAKE_CURRENT_LIST_DIR}/pq_meta_expected.tsv")
  set_tests_properties(test_pq_meta_corpus PROPERTIES SKIP_RETURN_CODE 77)
endif()
