# SPDX-License-Identifier: Apache-2.0
# The data-changing statements (CREATE TABLE [AS SELECT], INSERT, DELETE, UPDATE, MERGE,
# RESTORE, ALTER TABLE ... TBLPROPERTIES / ADD COLUMNS / ALTER COLUMN, VACUUM, OPTIMIZE):
# bound and planned here, written through the ops part (src/ops). Appends to DL_SQL_SOURCES
# (see CMakeLists.txt).
list(APPEND DL_SQL_SOURCES
    sql_dml.c
    sql_dml_alter.c
    sql_dml_create.c
    sql_dml_files.c
    sql_dml_insert.c
    sql_dml_merge.c
    sql_dml_optimize.c
    sql_dml_restore.c
    sql_dml_rewrite.c
    sql_dml_schema.c
    sql_dml_vacuum.c)
