# SPDX-License-Identifier: Apache-2.0
# The function library (sql_func.h): casts, operators, scalar functions and aggregates,
# registered in sql_functions.def.
list(APPEND DL_SQL_SOURCES
     sql_fn_registry.c sql_fn_common.c sql_fn_tz.c
     sql_cast.c sql_cast_num.c sql_cast_str.c sql_cast_parse.c sql_cast_time.c
     sql_cast_decimal.c
     sql_fn_arith.c sql_fn_datetime.c sql_fn_compare.c sql_fn_string.c sql_fn_string2.c
     sql_fn_format.c sql_fn_tonumber.c sql_fn_json.c sql_fn_nested.c sql_fn_math.c sql_fn_hash.c sql_fn_digest.c
     sql_fn_like.c sql_fn_regex.c sql_fn_datepart.c sql_fn_datefmt.c sql_fn_misc.c
     sql_fn_agg.c sql_fn_agg_value.c sql_fn_agg_collect.c)
