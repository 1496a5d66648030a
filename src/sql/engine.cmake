# SPDX-License-Identifier: Apache-2.0
# The SQL engine: binder, planner/optimizer, executor and sessions (sql_engine.h, sql_plan.h,
# sql_exec.h). Appends to DL_SQL_SOURCES (see CMakeLists.txt). Owned by the engine (sql-core):
# please do not edit it for a private build.
list(APPEND DL_SQL_SOURCES
     sql_hash.c sql_rows.c sql_exec.c sql_plan.c sql_eval.c sql_eval_logic.c
     sql_op_basic.c sql_op_source.c sql_op_scan.c sql_op_scan_pq.c sql_op_agg.c sql_agg_ht.c
     sql_session.c sql_result.c sql_admin.c sql_optimize.c sql_optimize_push.c
     sql_optimize_prune.c sql_copy.c
     sql_describe.c sql_describe_detail.c sql_delta_log.c
     sql_bind_util.c sql_bind_lit.c sql_bind_name.c sql_bind_expr.c sql_bind_agg.c
     sql_bind_subq.c sql_bind_query.c sql_bind_select.c sql_bind_from.c sql_bind_join.c
     sql_bind_tfn.c sql_bind_decor.c sql_bind_autoname.c)

# Operator families with their own files: joins, set operations, sort and window.
file(GLOB _dl_sql_fam CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/sql_op_join*.c
     ${CMAKE_CURRENT_SOURCE_DIR}/sql_op_setop*.c ${CMAKE_CURRENT_SOURCE_DIR}/sql_op_sort*.c
     ${CMAKE_CURRENT_SOURCE_DIR}/sql_op_window*.c)
list(APPEND DL_SQL_SOURCES ${_dl_sql_fam})
