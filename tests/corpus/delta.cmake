# SPDX-License-Identifier: Apache-2.0
# The Delta corpus runner (tests/corpus/delta_corpus.c, rows compared through delta_rows.c):
# one ctest test per table of ../shared/corpus (named delta_corpus/<folder>/<table>, skipped
# with code 77 when the table is absent) and one that runs them all and prints the summary
# lines. Included from tests/unit/delta/log.cmake.
set(DL_DELTA_CORPUS_DIR ${CMAKE_SOURCE_DIR}/../shared/corpus)
add_executable(delta_corpus_run ${CMAKE_SOURCE_DIR}/tests/corpus/delta_corpus.c
               ${CMAKE_SOURCE_DIR}/tests/corpus/delta_corpus_skip.c
               ${CMAKE_SOURCE_DIR}/tests/corpus/delta_rows.c)
target_link_libraries(delta_corpus_run PRIVATE dl_delta dl_json dl_parquet dl_store)
target_compile_definitions(delta_corpus_run PRIVATE DL_CORPUS_DIR="${DL_DELTA_CORPUS_DIR}")
add_test(NAME delta_corpus_summary COMMAND delta_corpus_run WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
set_tests_properties(delta_corpus_summary PROPERTIES LABELS corpus TIMEOUT 900 SKIP_RETURN_CODE 77)

set(dl_corpus_tables "")
foreach(folder spark-golden delta-rs kernel-rs kernel-defaults spark-delta)
  set(expected ${DL_DELTA_CORPUS_DIR}/${folder}/EXPECTED.json)
  if(EXISTS ${expected})
    file(READ ${expected} dl_json)
    string(JSON n LENGTH "${dl_json}" tables)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON name MEMBER "${dl_json}" tables ${i})
      list(APPEND dl_corpus_tables "${folder}/${name}")
    endforeach()
  endif()
endforeach()
file(GLOB dl_dat_cases LIST_DIRECTORIES true ${DL_DELTA_CORPUS_DIR}/dat/reader_tests/generated/*)
foreach(c ${dl_dat_cases})
  if(IS_DIRECTORY ${c})
    get_filename_component(name ${c} NAME)
    list(APPEND dl_corpus_tables "dat/${name}")
  endif()
endforeach()
foreach(t table_a table_b table_c table_d table_e table_f table_h table_i)
  if(EXISTS ${DL_DELTA_CORPUS_DIR}/delta-rs-error-logs/${t})
    list(APPEND dl_corpus_tables "delta-rs-error-logs/${t}")
  endif()
endforeach()
foreach(t ${dl_corpus_tables})
  add_test(NAME delta_corpus/${t} COMMAND delta_corpus_run ${t}
           WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
  set_tests_properties(delta_corpus/${t} PROPERTIES LABELS corpus TIMEOUT 300
                       SKIP_RETURN_CODE 77)
endforeach()
