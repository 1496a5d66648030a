# SPDX-License-Identifier: Apache-2.0
dl_add_fuzz_target(sql_parse DEPS dl_sql)
dl_add_fuzz_target(sql_json DEPS dl_sql)
dl_add_fuzz_target(sql_number DEPS dl_sql)
dl_add_fuzz_target(sql_names DEPS dl_api)
dl_add_fuzz_target(sql_view DEPS dl_sql)
