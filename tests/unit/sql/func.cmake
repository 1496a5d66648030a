# SPDX-License-Identifier: Apache-2.0
# Unit tests of the function library (sql_func.h): kernels called directly on vectors. The
# tests link the library's own sources (listed in src/sql/sql_func.cmake) with json, vector and base
# only, so they do not depend on the rest of the engine.
set(DL_SQL_SOURCES)
include(${CMAKE_SOURCE_DIR}/src/sql/sql_func.cmake)
list(TRANSFORM DL_SQL_SOURCES PREPEND ${CMAKE_SOURCE_DIR}/src/sql/)
add_library(dl_sql_fn_only STATIC ${DL_SQL_SOURCES})
target_include_directories(dl_sql_fn_only PUBLIC ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(dl_sql_fn_only PUBLIC dl_json dl_vector dl_base m)
foreach(t cast arith string math match datetime agg nested)
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_sql_fn_${t}.c)
    dl_add_unit_test(test_sql_fn_${t} SOURCES test_sql_fn_${t}.c fn_test_util.c
                     DEPS dl_sql_fn_only)
  endif()
endforeach()
