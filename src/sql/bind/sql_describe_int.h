/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the DESCRIBE / SHOW / delta_log files share (sql_describe.c, sql_describe_detail.c):
 * opening a table named by a statement, building typed result rows.
 */
#ifndef DL_SQL_SQL_DESCRIBE_INT_H
#define DL_SQL_SQL_DESCRIBE_INT_H

#include "json/json.h"
#include "sql/bind/sql_bind_int.h"

/* A result column: name and type. */
typedef struct dl_sql_col_spec {
    const char *name;
    const dl_type *type;
} dl_sql_col_spec;

/* True for delta.`path`. */
bool dl_sql_name_is_path(const dl_sql_name *name);

/* Opens the table a statement names (schema.table, delta.`path`, or a path string).
 * *out_display is its name for messages. */
DL_NODISCARD dl_status dl_sql_open_table(dl_sql_binder *b, const dl_sql_name *name, bool is_path,
                                         dl_str path, uint32_t loc, dl_delta_table **out,
                                         const char **out_display, dl_error *err);

/* A table function's table argument, a string: a name ('t', 'db.t', delta.`/p`) or a path
 * (any text with a '/'); fn names the function in errors. */
DL_NODISCARD dl_status dl_sql_open_table_arg(dl_sql_binder *b, const dl_sql_expr *arg,
                                             const char *fn, dl_delta_table **out,
                                             const char **out_display, dl_error *err);

/* Row building: a string (or NULL), a map<string,string> from a JSON object's text (NULL when
 * empty), an array<string>. */
DL_NODISCARD dl_status dl_sql_put_str(dl_vector *v, dl_str s, bool is_null, dl_error *err);
DL_NODISCARD dl_status dl_sql_put_json_map(dl_vector *v, dl_json_doc *doc, dl_str json,
                                           dl_error *err);
DL_NODISCARD dl_status dl_sql_put_str_array(dl_vector *v, const char *const *items, int32_t n,
                                            dl_error *err);

/* Fills the one row of a result: a value appended to each column of tail. */
typedef dl_status (*dl_sql_row_fill_fn)(void *ctx, dl_batch *tail, dl_error *err);

/* A ROWS plan of one row of schema, made by fill. */
DL_NODISCARD dl_status dl_sql_plan_one_row(dl_sql_binder *b, const dl_type *schema,
                                           dl_sql_row_fill_fn fill, void *ctx, dl_sql_plan **out,
                                           dl_error *err);

/* Where snap's table lives, as Spark shows it (the store's location and the table's folder),
 * in the statement arena; NULL when out of memory. */
const char *dl_sql_snapshot_location(dl_sql_binder *b, const dl_delta_snapshot *snap);

/* Types: a struct of the columns, map<string,string>, struct of string fields (n <= 8). */
DL_NODISCARD dl_status dl_sql_make_schema(dl_sql_binder *b, const dl_sql_col_spec *specs, int32_t n,
                                          const dl_type **out, dl_error *err);
DL_NODISCARD dl_status dl_sql_string_map_type(dl_sql_binder *b, const dl_type **out, dl_error *err);
DL_NODISCARD dl_status dl_sql_string_struct_type(dl_sql_binder *b, const char *const *names,
                                                 int32_t n, const dl_type **out, dl_error *err);

/* DESCRIBE DETAIL, SHOW TBLPROPERTIES / COLUMNS (sql_describe_detail.c); DESCRIBE TABLE
 * (sql_describe_table.c). */
DL_NODISCARD dl_status dl_sql_binder_detail(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                            dl_sql_plan **out, dl_error *err);
DL_NODISCARD dl_status dl_sql_binder_describe_table(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                                    dl_sql_plan **out, dl_error *err);

/* Appends name, in backticks when it is not a plain identifier; text as a SQL string literal
 * ('...' with \' and \\ escaped). */
DL_NODISCARD dl_status dl_sql_put_ident(dl_buf *out, const char *name, dl_error *err);
DL_NODISCARD dl_status dl_sql_put_literal(dl_buf *out, const char *text, dl_error *err);

/* DESCRIBE [EXTENDED] of a view (the DESCRIBE statement stmt): its columns as captured, or one
 * of them (sql_describe_view.c). */
DL_NODISCARD dl_status dl_sql_describe_view(dl_sql_binder *b, const dl_sql_view *v,
                                            const dl_sql_stmt *stmt, dl_sql_plan **out,
                                            dl_error *err);

/* The snapshot a DESCRIBE names (time travel tt, or the latest; held by the statement). */
DL_NODISCARD dl_status dl_sql_open_snapshot(dl_sql_binder *b, const dl_sql_name *name, uint32_t loc,
                                            const dl_sql_time_travel *tt, dl_delta_snapshot **out,
                                            const char **display, dl_error *err);

/* The name Spark gives a table in DESCRIBE DETAIL / EXTENDED: spark_catalog.schema.table, or
 * delta.`path` (statement arena; NULL when out of memory). */
const char *dl_sql_table_display_name(dl_sql_binder *b, const dl_sql_name *n, const char *display);

/* The properties SHOW TBLPROPERTIES lists: the configuration, delta.minReaderVersion,
 * delta.minWriterVersion, delta.feature.<name> = supported (arrays in the statement arena). */
DL_NODISCARD dl_status dl_sql_table_properties(dl_sql_binder *b, const dl_delta_snapshot *snap,
                                               const char ***out_keys, const char ***out_values,
                                               int64_t *out_n, dl_error *err);

/* "[k=v<sep>k=v...]" of n properties sorted by key (statement arena; NULL when out of memory). */
const char *dl_sql_props_text(dl_sql_binder *b, const char *const *keys, const char *const *values,
                              int64_t n, const char *sep);

/* qsort's comparison of two const char * (strcmp). */
int dl_sql_cmp_cstr(const void *a, const void *c);

/* Rows of three strings (col_name, data_type, comment) being collected, in the statement arena. */
typedef struct dl_sql_desc_rows {
    dl_sql_binder *b;
    const char **v; /* 3 per row */
    int64_t n;
    int64_t cap;
} dl_sql_desc_rows;

DL_NODISCARD dl_status dl_sql_desc_add_row(dl_sql_desc_rows *r, const char *a, const char *b,
                                           const char *c, dl_error *err);

/* A row for column f: its name, its type as Spark prints it, comment. */
DL_NODISCARD dl_status dl_sql_desc_add_column(dl_sql_desc_rows *r, const dl_delta_field *f,
                                              const char *comment, dl_error *err);

/* DESCRIBE [EXTENDED] t col's rows for field f of schema: NULL is UNRESOLVED_COLUMN naming
 * display and schema's columns; a nested name (s.x) is refused as Spark refuses it. */
DL_NODISCARD dl_status dl_sql_describe_field(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                             const dl_delta_schema *schema, const dl_delta_field *f,
                                             const char *comment, const char *display,
                                             dl_sql_plan **out, dl_error *err);

/* The schema a name is in: its qualifier, else the current schema (statement arena). */
const char *dl_sql_name_schema(dl_sql_binder *b, const dl_sql_name *n);

/* The name's parts joined by '.' (statement arena; "" when out of memory). */
const char *dl_sql_name_text(dl_sql_binder *b, const dl_sql_name *n);

/* SHOW PARTITIONS of table n (stmt; sql_describe_table.c). */
DL_NODISCARD dl_status dl_sql_show_partitions(dl_sql_binder *b, const dl_sql_stmt *stmt,
                                              const dl_sql_name *n, const dl_delta_snapshot *snap,
                                              const char *display, dl_sql_plan **out,
                                              dl_error *err);

/* SHOW CREATE TABLE of a persistent view (a temporary one is EXPECT_PERMANENT_VIEW_NOT_TEMP). */
DL_NODISCARD dl_status dl_sql_show_create_view(dl_sql_binder *b, const dl_sql_view *v, uint32_t loc,
                                               dl_sql_plan **out, dl_error *err);

#endif /* DL_SQL_SQL_DESCRIBE_INT_H */
