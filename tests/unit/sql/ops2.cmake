# SPDX-License-Identifier: Apache-2.0
# Join, set-operation, sort/top-N and window operator tests (sql_op_join*.c, sql_op_setop*.c,
# sql_op_sort*.c, sql_op_window*.c). Each builds plans by hand over a test source operator.
foreach(t sort join setop window)
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/test_sql_op_${t}.c)
    dl_add_unit_test(test_sql_op_${t} SOURCES test_sql_op_${t}.c DEPS dl_sql)
  endif()
endforeach()
