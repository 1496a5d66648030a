# SPDX-License-Identifier: Apache-2.0
# The SQL engine's tests (binder, planner, executor, sessions).
add_library(dl_sql_engine_test_util STATIC engine_test_util.c)
target_include_directories(dl_sql_engine_test_util PRIVATE ${CMAKE_SOURCE_DIR}/tests/unit)
target_link_libraries(dl_sql_engine_test_util PUBLIC dl_sql)

foreach(t engine engine_fault)
  dl_add_unit_test(test_sql_${t} SOURCES test_sql_${t}.c DEPS dl_sql_engine_test_util dl_sql)
endforeach()
