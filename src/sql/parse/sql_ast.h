/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The parsed form of deltalite's SQL (Spark SQL with Delta's statements and Fabric's T-SQL
 * time travel): statements, queries, table references, expressions and types.
 *
 * Ownership and lifetime: every node, list and string lives in the dl_arena passed to the
 * parser, and nothing points into the SQL text, so the text may be freed after parsing; the
 * tree is valid until that arena is reset or destroyed. Strings (dl_str) are NUL-terminated
 * copies, so `%s` works on .ptr.
 *
 * Positions: `loc` fields are byte offsets into the parsed text of the construct's first
 * token, for the binder's error messages (dl_sql_offset_to_line_col turns one into a line and
 * column).
 *
 * Depth: every expression, query and table reference records its height (a leaf is 1), and
 * the parser refuses a tree taller than DL_SQL_MAX_DEPTH, so code that walks a tree
 * recursively needs at most that many levels of recursion.
 *
 * What the parser decides and what it leaves to the binder:
 *   - Names are kept as written, in parts (`s.t.c`, `delta`.`/path`); whether `a.b.c` is a
 *     table column or a struct field, and whether `delta.`/p`` is a path, is the binder's call.
 *   - Literals keep their text: the binder chooses INT, BIGINT or DECIMAL for `123` by its
 *     size, and parses dates, timestamps and intervals (base/timefmt.h).
 *   - Spellings that mean the same are merged: `==` is `=`, `!=` is `<>`, MINUS is EXCEPT,
 *     SOME is ANY, DESC is DESCRIBE, TEMPORARY is TEMP, SCHEMA is DATABASE, and the special
 *     call syntaxes become plain calls: EXTRACT(f FROM x) is date_part('f', x),
 *     POSITION(a IN b) is position(a, b), SUBSTRING(s FROM i FOR n) is substring(s, i, n),
 *     OVERLAY(a PLACING b FROM i FOR n) is overlay(a, b, i, n). TRIM(BOTH x FROM s) keeps
 *     its form (DL_SQL_FUNC_TRIM).
 */
#ifndef DL_SQL_SQL_AST_H
#define DL_SQL_SQL_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "base/str.h"

/* The tallest tree the parser accepts (see "Depth" above). */
#define DL_SQL_MAX_DEPTH 1000u

/* The parser's recursion budget: nested parentheses, subqueries, expressions and relations
 * each take a level. It is three times DL_SQL_MAX_DEPTH so that the canonical text of any
 * accepted tree, which parenthesises every nested operator, parses again. */
#define DL_SQL_MAX_RECURSION (3u * DL_SQL_MAX_DEPTH)

/* The deepest nesting of types (ARRAY<MAP<STRING, STRUCT<...>>>). */
#define DL_SQL_MAX_TYPE_DEPTH 100u

typedef struct dl_sql_expr dl_sql_expr;
typedef struct dl_sql_query dl_sql_query;
typedef struct dl_sql_select dl_sql_select;
typedef struct dl_sql_tref dl_sql_tref;
typedef struct dl_sql_type dl_sql_type;
typedef struct dl_sql_window dl_sql_window;
typedef struct dl_sql_stmt dl_sql_stmt;

/* ---- names -------------------------------------------------------------------------------- */

typedef struct dl_sql_ident {
    dl_str name;    /* as written (unquoted names keep their case; matching is case-blind) */
    uint32_t loc;   /* offset of the name's token */
    bool is_quoted; /* written in backticks */
} dl_sql_ident;

/* A dotted name: `t`, `s.t`, `c.s.t`, `t.col.field`, `delta.`/path``. */
typedef struct dl_sql_name {
    dl_sql_ident *parts;
    uint32_t n_parts; /* >= 1, except where a field says it may be empty */
} dl_sql_name;

typedef struct dl_sql_ident_list {
    dl_sql_ident *items;
    uint32_t n;
} dl_sql_ident_list;

typedef struct dl_sql_name_list {
    dl_sql_name *items;
    uint32_t n;
} dl_sql_name_list;

typedef struct dl_sql_expr_list {
    dl_sql_expr **items;
    uint32_t n;
} dl_sql_expr_list;

/* ---- types -------------------------------------------------------------------------------- */

typedef enum dl_sql_type_kind {
    DL_SQL_TYPE_BOOLEAN = 1,
    DL_SQL_TYPE_TINYINT,  /* also BYTE */
    DL_SQL_TYPE_SMALLINT, /* also SHORT */
    DL_SQL_TYPE_INT,      /* also INTEGER */
    DL_SQL_TYPE_BIGINT,   /* also LONG */
    DL_SQL_TYPE_FLOAT,    /* also REAL */
    DL_SQL_TYPE_DOUBLE,
    DL_SQL_TYPE_DECIMAL, /* also DEC, NUMERIC; precision and scale -1 when not written */
    DL_SQL_TYPE_STRING,
    DL_SQL_TYPE_VARCHAR, /* length */
    DL_SQL_TYPE_CHAR,    /* length (also CHARACTER) */
    DL_SQL_TYPE_BINARY,
    DL_SQL_TYPE_DATE,
    DL_SQL_TYPE_TIMESTAMP, /* the session's default timestamp type */
    DL_SQL_TYPE_TIMESTAMP_NTZ,
    DL_SQL_TYPE_TIMESTAMP_LTZ,
    DL_SQL_TYPE_INTERVAL, /* start_unit [TO end_unit] */
    DL_SQL_TYPE_VOID,
    DL_SQL_TYPE_ARRAY,  /* elem */
    DL_SQL_TYPE_MAP,    /* key, value */
    DL_SQL_TYPE_STRUCT, /* fields */
} dl_sql_type_kind;

/* Interval units, in interval literals and types. */
typedef enum dl_sql_unit {
    DL_SQL_UNIT_NONE = 0,
    DL_SQL_UNIT_YEAR,
    DL_SQL_UNIT_MONTH,
    DL_SQL_UNIT_WEEK,
    DL_SQL_UNIT_DAY,
    DL_SQL_UNIT_HOUR,
    DL_SQL_UNIT_MINUTE,
    DL_SQL_UNIT_SECOND,
    DL_SQL_UNIT_MILLISECOND,
    DL_SQL_UNIT_MICROSECOND,
} dl_sql_unit;

typedef struct dl_sql_type_field {
    dl_sql_ident name;
    dl_sql_type *type;
    bool is_not_null;
    bool has_comment;
    dl_str comment;
} dl_sql_type_field;

struct dl_sql_type {
    dl_sql_type_kind kind;
    uint32_t loc;
    int32_t precision; /* DECIMAL: 1..38, or -1 */
    int32_t scale;     /* DECIMAL: 0..precision, or -1 */
    int32_t length;    /* VARCHAR, CHAR: >= 1 */
    dl_sql_unit start_unit;
    dl_sql_unit end_unit; /* DL_SQL_UNIT_NONE when there is no TO */
    dl_sql_type *elem;    /* ARRAY */
    dl_sql_type *key;     /* MAP */
    dl_sql_type *value;   /* MAP */
    dl_sql_type_field *fields;
    uint32_t n_fields; /* STRUCT (may be 0) */
};

/* ---- expressions -------------------------------------------------------------------------- */

typedef enum dl_sql_expr_kind {
    DL_SQL_EXPR_LITERAL = 1,
    DL_SQL_EXPR_INTERVAL,  /* INTERVAL '1' DAY, INTERVAL 1 DAY 2 HOURS, INTERVAL '1-2' YEAR TO MONTH
                            */
    DL_SQL_EXPR_COLUMN,    /* a, t.a, s.t.a, a.field */
    DL_SQL_EXPR_STAR,      /* *, t.*, with an optional EXCEPT list */
    DL_SQL_EXPR_PARAM,     /* ? or :name */
    DL_SQL_EXPR_UNARY,     /* - + ~ NOT */
    DL_SQL_EXPR_BINARY,    /* arithmetic, comparison, AND, OR, IS [NOT] DISTINCT FROM */
    DL_SQL_EXPR_IS,        /* IS [NOT] NULL | TRUE | FALSE | UNKNOWN */
    DL_SQL_EXPR_BETWEEN,   /* [NOT] BETWEEN */
    DL_SQL_EXPR_IN_LIST,   /* [NOT] IN (a, b) */
    DL_SQL_EXPR_IN_QUERY,  /* [NOT] IN (SELECT ...) */
    DL_SQL_EXPR_LIKE,      /* [NOT] LIKE | ILIKE | RLIKE, with ESCAPE or ANY/ALL */
    DL_SQL_EXPR_EXISTS,    /* EXISTS (query) */
    DL_SQL_EXPR_SUBQUERY,  /* (query) as a value */
    DL_SQL_EXPR_CASE,      /* CASE [operand] WHEN ... */
    DL_SQL_EXPR_CAST,      /* CAST, TRY_CAST, x::type */
    DL_SQL_EXPR_FUNC,      /* f(args) with DISTINCT, FILTER, WITHIN GROUP, OVER ... */
    DL_SQL_EXPR_SUBSCRIPT, /* base[index] */
    DL_SQL_EXPR_FIELD,     /* base.name where base is not a plain name: f(x).a, m['k'].b */
    DL_SQL_EXPR_LAMBDA,    /* x -> body, (x, y) -> body */
    DL_SQL_EXPR_ROW,       /* (a, b): a struct value; also the rows of IN lists */
    DL_SQL_EXPR_NAMED_ARG, /* name => value, in function arguments */
} dl_sql_expr_kind;

typedef enum dl_sql_lit_kind {
    DL_SQL_LIT_NULL = 1,
    DL_SQL_LIT_BOOL,          /* b */
    DL_SQL_LIT_INT,           /* digits with no suffix: INT, BIGINT or DECIMAL by size */
    DL_SQL_LIT_BIGINT,        /* 10L */
    DL_SQL_LIT_SMALLINT,      /* 10S */
    DL_SQL_LIT_TINYINT,       /* 10Y */
    DL_SQL_LIT_DECIMAL,       /* 1.5, 1BD, 1.5e3BD */
    DL_SQL_LIT_DOUBLE,        /* 1e10, 1.5D */
    DL_SQL_LIT_FLOAT,         /* 1.5F */
    DL_SQL_LIT_STRING,        /* 'text' (adjacent literals are concatenated) */
    DL_SQL_LIT_BINARY,        /* X'1F2E': text holds the bytes */
    DL_SQL_LIT_DATE,          /* DATE '2026-01-01': text holds the string */
    DL_SQL_LIT_TIMESTAMP,     /* TIMESTAMP '...' */
    DL_SQL_LIT_TIMESTAMP_NTZ, /* TIMESTAMP_NTZ '...' */
    DL_SQL_LIT_TIMESTAMP_LTZ, /* TIMESTAMP_LTZ '...' */
} dl_sql_lit_kind;

typedef enum dl_sql_op {
    DL_SQL_OP_NEG = 1, /* unary - */
    DL_SQL_OP_PLUS,    /* unary + */
    DL_SQL_OP_BITNOT,  /* ~ */
    DL_SQL_OP_NOT,     /* NOT, ! */
    DL_SQL_OP_OR,
    DL_SQL_OP_AND,
    DL_SQL_OP_EQ,   /* = and == */
    DL_SQL_OP_NSEQ, /* <=> */
    DL_SQL_OP_NE,   /* <> and != */
    DL_SQL_OP_LT,
    DL_SQL_OP_LE,
    DL_SQL_OP_GT,
    DL_SQL_OP_GE,
    DL_SQL_OP_ADD,
    DL_SQL_OP_SUB,
    DL_SQL_OP_MUL,
    DL_SQL_OP_DIV,    /* / */
    DL_SQL_OP_MOD,    /* % */
    DL_SQL_OP_INTDIV, /* DIV */
    DL_SQL_OP_CONCAT, /* || */
    DL_SQL_OP_BITAND,
    DL_SQL_OP_BITOR,
    DL_SQL_OP_BITXOR,
    DL_SQL_OP_SHL,             /* << */
    DL_SQL_OP_SHR,             /* >> */
    DL_SQL_OP_SHRU,            /* >>> */
    DL_SQL_OP_IS_DISTINCT,     /* IS DISTINCT FROM */
    DL_SQL_OP_IS_NOT_DISTINCT, /* IS NOT DISTINCT FROM */
} dl_sql_op;

typedef enum dl_sql_is_test {
    DL_SQL_IS_NULL = 1,
    DL_SQL_IS_TRUE,
    DL_SQL_IS_FALSE,
    DL_SQL_IS_UNKNOWN,
} dl_sql_is_test;

typedef enum dl_sql_like_op {
    DL_SQL_LIKE_LIKE = 1,
    DL_SQL_LIKE_ILIKE,
    DL_SQL_LIKE_RLIKE, /* also REGEXP */
} dl_sql_like_op;

/* DISTINCT / ALL in SELECT, aggregates, set operations; ANY / ALL in LIKE ANY (...). */
typedef enum dl_sql_quant {
    DL_SQL_QUANT_NONE = 0,
    DL_SQL_QUANT_DISTINCT,
    DL_SQL_QUANT_ALL,
    DL_SQL_QUANT_ANY, /* also SOME */
} dl_sql_quant;

typedef enum dl_sql_func_syntax {
    DL_SQL_FUNC_PLAIN = 0,
    DL_SQL_FUNC_NO_PARENS, /* CURRENT_DATE, CURRENT_TIMESTAMP, CURRENT_USER */
    DL_SQL_FUNC_TRIM,      /* TRIM([BOTH|LEADING|TRAILING] [chars] FROM s): args = s [, chars] */
} dl_sql_func_syntax;

typedef enum dl_sql_trim_spec {
    DL_SQL_TRIM_DEFAULT = 0, /* not written (both ends) */
    DL_SQL_TRIM_BOTH,
    DL_SQL_TRIM_LEADING,
    DL_SQL_TRIM_TRAILING,
} dl_sql_trim_spec;

typedef enum dl_sql_nulls_option {
    DL_SQL_NULLS_DEFAULT = 0,
    DL_SQL_NULLS_IGNORE, /* IGNORE NULLS */
    DL_SQL_NULLS_RESPECT,
} dl_sql_nulls_option;

typedef enum dl_sql_sort_dir {
    DL_SQL_SORT_DEFAULT = 0, /* ascending, not written */
    DL_SQL_SORT_ASC,
    DL_SQL_SORT_DESC,
} dl_sql_sort_dir;

typedef enum dl_sql_nulls_order {
    DL_SQL_NULLS_ORDER_DEFAULT = 0, /* Spark: first for ASC, last for DESC */
    DL_SQL_NULLS_FIRST,
    DL_SQL_NULLS_LAST,
} dl_sql_nulls_order;

typedef struct dl_sql_sort_item {
    dl_sql_expr *expr;
    dl_sql_sort_dir dir;
    dl_sql_nulls_order nulls;
} dl_sql_sort_item;

typedef struct dl_sql_sort_list {
    dl_sql_sort_item *items;
    uint32_t n;
} dl_sql_sort_list;

typedef enum dl_sql_frame_kind {
    DL_SQL_FRAME_NONE = 0,
    DL_SQL_FRAME_ROWS,
    DL_SQL_FRAME_RANGE,
} dl_sql_frame_kind;

typedef enum dl_sql_bound_kind {
    DL_SQL_BOUND_UNBOUNDED_PRECEDING = 1,
    DL_SQL_BOUND_PRECEDING, /* offset PRECEDING */
    DL_SQL_BOUND_CURRENT_ROW,
    DL_SQL_BOUND_FOLLOWING, /* offset FOLLOWING */
    DL_SQL_BOUND_UNBOUNDED_FOLLOWING,
} dl_sql_bound_kind;

typedef struct dl_sql_frame_bound {
    dl_sql_bound_kind kind;
    dl_sql_expr *offset; /* PRECEDING, FOLLOWING */
} dl_sql_frame_bound;

/* A window: OVER w (is_ref), or OVER ([w] PARTITION BY ... ORDER BY ... frame). */
struct dl_sql_window {
    uint32_t loc;
    bool is_ref;            /* OVER w, without parentheses: only base_name is set */
    bool has_base;          /* the specification names a window it refines */
    dl_sql_ident base_name; /* has_base or is_ref */
    dl_sql_expr_list partition_by;
    dl_sql_sort_list order_by;
    dl_sql_frame_kind frame;
    bool has_between;         /* BETWEEN start AND end; otherwise only start is written */
    dl_sql_frame_bound start; /* frame != NONE */
    dl_sql_frame_bound end;   /* has_between */
};

typedef struct dl_sql_case_when {
    dl_sql_expr *cond; /* or the value compared with the operand */
    dl_sql_expr *result;
} dl_sql_case_when;

/* One term of an interval literal: [-] value unit [TO unit]. */
typedef struct dl_sql_interval_part {
    dl_str value;        /* a number's text or a string's content, without the sign */
    bool is_string;      /* value was a string literal */
    bool is_negative;    /* a '-' sign was written before the value */
    dl_sql_unit unit;    /* NONE only for INTERVAL 'text' alone */
    dl_sql_unit to_unit; /* NONE unless unit TO to_unit */
} dl_sql_interval_part;

struct dl_sql_expr {
    dl_sql_expr_kind kind;
    uint32_t loc;
    uint32_t height; /* 1 for a leaf */

    union {
        struct {
            dl_sql_lit_kind kind;
            bool b;      /* BOOL */
            dl_str text; /* numbers: digits, '.', exponent, no suffix; strings: the bytes */
        } lit;

        struct {
            dl_sql_interval_part *parts;
            uint32_t n_parts; /* >= 1 */
        } interval;

        dl_sql_name column;

        struct {
            dl_sql_name qualifier; /* n_parts 0 for a bare * */
            dl_sql_name_list except;
        } star;

        struct {
            uint32_t index; /* 1-based position among the statement's ? markers, or 0 */
            dl_str name;    /* :name, or empty */
        } param;

        struct {
            dl_sql_op op;
            dl_sql_expr *arg;
        } unary;

        struct {
            dl_sql_op op;
            dl_sql_expr *left;
            dl_sql_expr *right;
        } binary;

        struct {
            dl_sql_expr *arg;
            dl_sql_is_test test;
            bool is_not;
        } is;

        struct {
            dl_sql_expr *arg;
            dl_sql_expr *low;
            dl_sql_expr *high;
            bool is_not;
        } between;

        struct {
            dl_sql_expr *arg;
            dl_sql_expr_list list;
            bool is_not;
        } in_list;

        struct {
            dl_sql_expr *arg;
            dl_sql_query *query;
            bool is_not;
        } in_query;

        struct {
            dl_sql_like_op op;
            bool is_not;
            dl_sql_quant quant; /* NONE, or ANY / ALL with patterns */
            dl_sql_expr *arg;
            dl_sql_expr *pattern;      /* quant NONE */
            dl_sql_expr_list patterns; /* quant ANY / ALL (may be empty) */
            bool has_escape;
            dl_str escape; /* ESCAPE 'c' */
        } like;

        dl_sql_query *subquery; /* EXISTS, SUBQUERY */

        struct {
            dl_sql_expr *operand; /* CASE operand WHEN value ..., or NULL */
            dl_sql_case_when *whens;
            uint32_t n_whens;         /* >= 1 */
            dl_sql_expr *else_result; /* or NULL */
        } case_;

        struct {
            dl_sql_expr *arg;
            dl_sql_type *type;
            bool is_try;        /* TRY_CAST */
            bool is_colon_form; /* x::type */
        } cast;

        struct {
            dl_sql_name name;
            dl_sql_func_syntax syntax;
            dl_sql_trim_spec trim_spec; /* syntax TRIM */
            dl_sql_quant quant;         /* f(DISTINCT x), f(ALL x) */
            bool is_star;               /* f(*) */
            dl_sql_expr_list args;
            dl_sql_sort_list within_group; /* WITHIN GROUP (ORDER BY ...) */
            dl_sql_expr *filter;           /* FILTER (WHERE ...) or NULL */
            dl_sql_nulls_option nulls;     /* IGNORE / RESPECT NULLS */
            dl_sql_window *over;           /* OVER ... or NULL */
        } func;

        struct {
            dl_sql_expr *base;
            dl_sql_expr *index;
        } subscript;

        struct {
            dl_sql_expr *base;
            dl_sql_ident name;
        } field;

        struct {
            dl_sql_ident_list params; /* >= 1 */
            dl_sql_expr *body;
        } lambda;

        dl_sql_expr_list row; /* >= 2 items */

        struct {
            dl_sql_ident name;
            dl_sql_expr *value;
        } named_arg;
    } u;
};

/* ---- queries ------------------------------------------------------------------------------ */

typedef enum dl_sql_time_travel_kind {
    DL_SQL_TT_NONE = 0,
    DL_SQL_TT_VERSION,   /* expr: the version */
    DL_SQL_TT_TIMESTAMP, /* expr: the timestamp (any constant expression) */
} dl_sql_time_travel_kind;

/* How a time-travel clause was spelled (the printer writes it back the same way). */
typedef enum dl_sql_tt_syntax {
    DL_SQL_TT_AS_OF = 0,  /* VERSION AS OF n, TIMESTAMP AS OF x */
    DL_SQL_TT_FOR_SYSTEM, /* FOR SYSTEM_VERSION AS OF n, FOR SYSTEM_TIME AS OF x */
    DL_SQL_TT_AT,         /* t@v3 (VERSION, expr an INT literal), t@20261002080000123
                           * (TIMESTAMP, expr an INT literal of 17 digits yyyyMMddHHmmssSSS) */
} dl_sql_tt_syntax;

typedef struct dl_sql_time_travel {
    dl_sql_time_travel_kind kind;
    dl_sql_tt_syntax syntax;
    uint32_t loc;
    dl_sql_expr *expr;
} dl_sql_time_travel;

typedef enum dl_sql_tref_kind {
    DL_SQL_TREF_TABLE = 1, /* name [time travel] */
    DL_SQL_TREF_FUNC,      /* read_parquet('...'), range(10), ... */
    DL_SQL_TREF_SUBQUERY,  /* (query) */
    DL_SQL_TREF_VALUES,    /* VALUES (...), (...) written directly in FROM */
    DL_SQL_TREF_DESCRIBE,  /* (DESCRIBE HISTORY t), (DESCRIBE DETAIL t), (DESCRIBE t) */
    DL_SQL_TREF_JOIN,
} dl_sql_tref_kind;

typedef enum dl_sql_join_kind {
    DL_SQL_JOIN_INNER = 1, /* [INNER] JOIN */
    DL_SQL_JOIN_LEFT,      /* LEFT [OUTER] JOIN */
    DL_SQL_JOIN_RIGHT,
    DL_SQL_JOIN_FULL,
    DL_SQL_JOIN_CROSS,
    DL_SQL_JOIN_SEMI, /* [LEFT] SEMI JOIN */
    DL_SQL_JOIN_ANTI, /* [LEFT] ANTI JOIN */
} dl_sql_join_kind;

struct dl_sql_tref {
    dl_sql_tref_kind kind;
    uint32_t loc;
    uint32_t height;
    bool has_alias;
    dl_sql_ident alias;
    dl_sql_ident_list column_aliases; /* t(a, b) */

    union {
        struct {
            dl_sql_name name;
            dl_sql_time_travel tt;
        } table;

        struct {
            dl_sql_name name;
            dl_sql_expr_list args; /* may hold NAMED_ARG */
        } func;

        dl_sql_query *query;   /* SUBQUERY, VALUES (a DL_SQL_QUERY_VALUES) */
        dl_sql_stmt *describe; /* a DESCRIBE_HISTORY, DESCRIBE_DETAIL or DESCRIBE_TABLE */

        struct {
            dl_sql_join_kind kind;
            bool is_natural;
            dl_sql_tref *left;
            dl_sql_tref *right;
            dl_sql_expr *on;         /* or NULL */
            dl_sql_ident_list using; /* USING (a, b); n 0 when absent */
        } join;
    } u;
};

typedef enum dl_sql_group_kind {
    DL_SQL_GROUP_EXPR = 1,
    DL_SQL_GROUP_ROLLUP,
    DL_SQL_GROUP_CUBE,
    DL_SQL_GROUP_SETS, /* GROUPING SETS ((a, b), (a), ()) */
} dl_sql_group_kind;

typedef struct dl_sql_group_item {
    dl_sql_group_kind kind;
    dl_sql_expr *expr;      /* EXPR */
    dl_sql_expr_list list;  /* ROLLUP, CUBE */
    dl_sql_expr_list *sets; /* GROUPING SETS: each set a list (possibly empty) */
    uint32_t n_sets;
} dl_sql_group_item;

typedef struct dl_sql_select_item {
    dl_sql_expr *expr;
    bool has_alias;
    dl_sql_ident alias;
} dl_sql_select_item;

typedef struct dl_sql_named_window {
    dl_sql_ident name;
    dl_sql_window *spec;
} dl_sql_named_window;

struct dl_sql_select {
    dl_sql_quant quant; /* NONE, DISTINCT or ALL */
    dl_sql_select_item *items;
    uint32_t n_items;
    dl_sql_tref **from; /* the comma-separated relations (each may be a join tree) */
    uint32_t n_from;
    dl_sql_expr *where;
    bool group_by_all;            /* GROUP BY ALL */
    dl_sql_group_kind group_with; /* GROUP BY ... WITH ROLLUP | CUBE, or 0 */
    dl_sql_group_item *group_by;
    uint32_t n_group_by;
    dl_sql_expr *having;
    dl_sql_expr *qualify;
    dl_sql_named_window *windows;
    uint32_t n_windows;
};

typedef enum dl_sql_query_kind {
    DL_SQL_QUERY_SELECT = 1,
    DL_SQL_QUERY_SETOP,
    DL_SQL_QUERY_VALUES,
    DL_SQL_QUERY_NESTED, /* a parenthesised query that already had its own clauses */
} dl_sql_query_kind;

typedef enum dl_sql_setop {
    DL_SQL_SETOP_UNION = 1,
    DL_SQL_SETOP_INTERSECT,
    DL_SQL_SETOP_EXCEPT, /* also MINUS */
} dl_sql_setop;

typedef struct dl_sql_cte {
    dl_sql_ident name;
    dl_sql_ident_list columns;
    dl_sql_query *query;
} dl_sql_cte;

struct dl_sql_query {
    dl_sql_query_kind kind;
    uint32_t loc;
    uint32_t height;
    dl_sql_cte *ctes; /* WITH ... */
    uint32_t n_ctes;

    union {
        dl_sql_select *select;

        struct {
            dl_sql_setop op;
            dl_sql_quant quant; /* NONE (distinct), DISTINCT or ALL */
            dl_sql_query *left;
            dl_sql_query *right;
        } setop;

        struct {
            dl_sql_expr_list *rows; /* every row a list of >= 1 values */
            uint32_t n_rows;
        } values;

        dl_sql_query *nested;
    } u;

    /* Clauses that apply to the whole query (after set operations). */
    dl_sql_sort_list order_by;
    dl_sql_expr *limit;  /* or NULL */
    bool is_limit_all;   /* LIMIT ALL */
    dl_sql_expr *offset; /* or NULL */
};

/* ---- statements ------------------------------------------------------------------------- */

typedef enum dl_sql_stmt_kind {
    DL_SQL_STMT_QUERY = 1,
    DL_SQL_STMT_CREATE_TABLE, /* also REPLACE TABLE, CREATE TABLE ... LIKE / CLONE / AS */
    DL_SQL_STMT_CREATE_VIEW,
    DL_SQL_STMT_CREATE_SCHEMA,
    DL_SQL_STMT_DROP,
    DL_SQL_STMT_USE,
    DL_SQL_STMT_INSERT,
    DL_SQL_STMT_UPDATE,
    DL_SQL_STMT_DELETE,
    DL_SQL_STMT_MERGE,
    DL_SQL_STMT_RESTORE,
    DL_SQL_STMT_VACUUM,
    DL_SQL_STMT_OPTIMIZE,
    DL_SQL_STMT_DESCRIBE_HISTORY,
    DL_SQL_STMT_DESCRIBE_DETAIL,
    DL_SQL_STMT_DESCRIBE_TABLE,
    DL_SQL_STMT_SHOW,
    DL_SQL_STMT_ALTER_TABLE,
    DL_SQL_STMT_SET,
    DL_SQL_STMT_RESET,
    DL_SQL_STMT_COPY,
    DL_SQL_STMT_COPY_INTO, /* Databricks' COPY INTO t FROM 'path' FILEFORMAT = ... */
    DL_SQL_STMT_EXPLAIN,
    DL_SQL_STMT_CONVERT,
    DL_SQL_STMT_TRUNCATE,
    DL_SQL_STMT_GENERATE,
    DL_SQL_STMT_CACHE, /* CACHE, UNCACHE, REFRESH, CLEAR CACHE, ANALYZE: accepted, nothing done */
} dl_sql_stmt_kind;

typedef enum dl_sql_cache_kind {
    DL_SQL_CACHE_TABLE = 1, /* CACHE [LAZY] TABLE t [OPTIONS (...)] */
    DL_SQL_CACHE_UNCACHE,   /* UNCACHE TABLE [IF EXISTS] t */
    DL_SQL_CACHE_REFRESH,   /* REFRESH [TABLE] t */
    DL_SQL_CACHE_CLEAR,     /* CLEAR CACHE */
    DL_SQL_CACHE_ANALYZE,   /* ANALYZE TABLE t [PARTITION (...)] COMPUTE STATISTICS [...] */
} dl_sql_cache_kind;

/* A table named or given by path: VACUUM 'path', OPTIMIZE delta.`path`, DESCRIBE HISTORY t. */
typedef struct dl_sql_target {
    uint32_t loc;
    bool is_path;     /* a string literal path; else name */
    dl_str path;      /* is_path */
    dl_sql_name name; /* !is_path */
} dl_sql_target;

/* A property: TBLPROPERTIES ('k' = 'v'), OPTIONS (k v). Values keep their text: strings
 * decoded, numbers as written, booleans as true / false. */
typedef struct dl_sql_prop {
    uint32_t loc;
    dl_str key;
    bool has_value; /* UNSET TBLPROPERTIES and SHOW TBLPROPERTIES keys have none */
    dl_str value;
} dl_sql_prop;

typedef struct dl_sql_prop_list {
    dl_sql_prop *items;
    uint32_t n;
} dl_sql_prop_list;

typedef enum dl_sql_col_position {
    DL_SQL_COLPOS_DEFAULT = 0,
    DL_SQL_COLPOS_FIRST,
    DL_SQL_COLPOS_AFTER, /* after */
} dl_sql_col_position;

typedef struct dl_sql_column_def {
    uint32_t loc;
    dl_sql_name name; /* one part, or a struct field path in ALTER TABLE ... ADD COLUMN */
    dl_sql_type *type;
    bool is_not_null;
    dl_sql_expr *generated; /* GENERATED ALWAYS AS (expr), or NULL */
    bool is_identity;       /* GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY */
    bool is_identity_always;
    dl_sql_expr *identity_start; /* START WITH n, or NULL */
    dl_sql_expr *identity_step;  /* INCREMENT BY n, or NULL */
    dl_sql_expr *default_value;  /* DEFAULT expr, or NULL */
    bool has_comment;
    dl_str comment;
    dl_sql_col_position position; /* ALTER TABLE ... ADD COLUMN only */
    dl_sql_name after;
} dl_sql_column_def;

typedef struct dl_sql_column_list {
    dl_sql_column_def *items;
    uint32_t n;
} dl_sql_column_list;

/* CONSTRAINT name CHECK (expr). */
typedef struct dl_sql_check {
    dl_sql_ident name;
    dl_sql_expr *check;
    dl_str text; /* the expression's tokens as written, joined by one space (as Delta stores it) */
} dl_sql_check;

/* PARTITION (k = v, k2): value NULL for a dynamic partition column. */
typedef struct dl_sql_partition_value {
    dl_sql_ident column;
    dl_sql_expr *value;
} dl_sql_partition_value;

typedef struct dl_sql_partition_spec {
    dl_sql_partition_value *items;
    uint32_t n; /* 0 when there is no PARTITION clause */
} dl_sql_partition_spec;

typedef struct dl_sql_assign {
    dl_sql_name column; /* the target column, possibly qualified (tgt.c) or a field path */
    dl_sql_expr *value;
} dl_sql_assign;

typedef struct dl_sql_assign_list {
    dl_sql_assign *items;
    uint32_t n;
} dl_sql_assign_list;

typedef enum dl_sql_merge_match {
    DL_SQL_MERGE_MATCHED = 1,
    DL_SQL_MERGE_NOT_MATCHED,           /* [BY TARGET] */
    DL_SQL_MERGE_NOT_MATCHED_BY_SOURCE, /* BY SOURCE */
} dl_sql_merge_match;

typedef enum dl_sql_merge_action {
    DL_SQL_MERGE_UPDATE = 1, /* UPDATE SET assigns */
    DL_SQL_MERGE_UPDATE_STAR,
    DL_SQL_MERGE_DELETE,
    DL_SQL_MERGE_INSERT, /* INSERT [(columns)] VALUES (values) */
    DL_SQL_MERGE_INSERT_STAR,
} dl_sql_merge_action;

typedef struct dl_sql_merge_clause {
    uint32_t loc;
    dl_sql_merge_match match;
    dl_sql_expr *cond; /* AND cond, or NULL */
    dl_sql_merge_action action;
    dl_sql_assign_list assigns;
    dl_sql_ident_list columns; /* INSERT: n 0 when no column list */
    dl_sql_expr_list values;
} dl_sql_merge_clause;

typedef enum dl_sql_object {
    DL_SQL_OBJ_TABLE = 1,
    DL_SQL_OBJ_VIEW,
    DL_SQL_OBJ_SCHEMA, /* also DATABASE, NAMESPACE */
    DL_SQL_OBJ_CATALOG,
} dl_sql_object;

typedef enum dl_sql_show_kind {
    DL_SQL_SHOW_TABLES = 1,
    DL_SQL_SHOW_VIEWS,
    DL_SQL_SHOW_SCHEMAS,
    DL_SQL_SHOW_COLUMNS,
    DL_SQL_SHOW_TBLPROPERTIES,
    DL_SQL_SHOW_CREATE_TABLE,
    DL_SQL_SHOW_PARTITIONS,
    DL_SQL_SHOW_FUNCTIONS,
} dl_sql_show_kind;

typedef enum dl_sql_alter_kind {
    DL_SQL_ALTER_ADD_COLUMNS = 1,
    DL_SQL_ALTER_DROP_COLUMNS,
    DL_SQL_ALTER_RENAME_COLUMN,
    DL_SQL_ALTER_COLUMN, /* ALTER | CHANGE COLUMN c <change> */
    DL_SQL_ALTER_SET_PROPS,
    DL_SQL_ALTER_UNSET_PROPS,
    DL_SQL_ALTER_ADD_CONSTRAINT,
    DL_SQL_ALTER_DROP_CONSTRAINT,
    DL_SQL_ALTER_RENAME_TO,
    DL_SQL_ALTER_CLUSTER_BY, /* names, or none */
} dl_sql_alter_kind;

typedef enum dl_sql_column_change {
    DL_SQL_CHANGE_TYPE = 1,     /* TYPE t */
    DL_SQL_CHANGE_SET_NOT_NULL, /* SET NOT NULL */
    DL_SQL_CHANGE_DROP_NOT_NULL,
    DL_SQL_CHANGE_COMMENT,     /* COMMENT 'c' */
    DL_SQL_CHANGE_SET_DEFAULT, /* SET DEFAULT expr */
    DL_SQL_CHANGE_DROP_DEFAULT,
    DL_SQL_CHANGE_POSITION, /* FIRST | AFTER c */
} dl_sql_column_change;

typedef enum dl_sql_vacuum_mode {
    DL_SQL_VACUUM_DEFAULT = 0,
    DL_SQL_VACUUM_LITE,
    DL_SQL_VACUUM_FULL,
} dl_sql_vacuum_mode;

typedef enum dl_sql_explain_mode {
    DL_SQL_EXPLAIN_DEFAULT = 0,
    DL_SQL_EXPLAIN_EXTENDED,
    DL_SQL_EXPLAIN_FORMATTED,
    DL_SQL_EXPLAIN_CODEGEN,
    DL_SQL_EXPLAIN_COST,
    DL_SQL_EXPLAIN_ANALYZE, /* DuckDB's spelling: run the query, show each operator's counters */
} dl_sql_explain_mode;

typedef struct dl_sql_copy_option {
    dl_sql_ident name;
    dl_sql_expr *value; /* NULL when only the name is written (HEADER) */
} dl_sql_copy_option;

struct dl_sql_stmt {
    dl_sql_stmt_kind kind;
    uint32_t loc; /* offset of the statement's first token */
    uint32_t end; /* offset just past its last token */
    /* The parameter markers (? and :name, DL_SQL_EXPR_PARAM) in the order of the text; a ?'s
     * u.param.index is its 1-based place among the ? markers. */
    const dl_sql_expr *const *params;
    uint32_t n_params;

    union {
        dl_sql_query *query;

        struct {
            bool or_replace; /* CREATE OR REPLACE */
            bool is_replace; /* REPLACE TABLE (the table must exist) */
            bool if_not_exists;
            bool is_external;
            dl_sql_name name;
            dl_sql_column_list columns;
            dl_sql_check *checks;
            uint32_t n_checks;
            bool has_using;
            dl_sql_ident using; /* USING DELTA */
            dl_sql_ident_list partitioned_by;
            dl_sql_name_list cluster_by;
            bool has_location;
            dl_str location;
            bool has_comment;
            dl_str comment;
            dl_sql_prop_list props;   /* TBLPROPERTIES */
            dl_sql_prop_list options; /* OPTIONS */
            dl_sql_query *as_query;   /* AS query, or NULL */
            bool has_like;
            dl_sql_name like; /* CREATE TABLE t LIKE like */
            bool is_clone;
            bool is_deep_clone; /* DEEP CLONE; else SHALLOW */
            dl_sql_name clone_source;
            dl_sql_time_travel clone_tt;
        } create_table;

        struct {
            bool or_replace;
            bool is_temp;   /* TEMP / TEMPORARY */
            bool is_global; /* GLOBAL TEMP */
            bool if_not_exists;
            dl_sql_name name;
            dl_sql_ident_list columns;
            dl_str *column_comments; /* per column, empty when none; NULL when no columns */
            bool has_comment;
            dl_str comment;
            dl_sql_prop_list props;
            dl_sql_query *query;
        } create_view;

        struct {
            bool if_not_exists;
            dl_sql_name name;
            bool has_location;
            dl_str location;
            bool has_comment;
            dl_str comment;
            dl_sql_prop_list props; /* WITH DBPROPERTIES */
        } create_schema;

        struct {
            dl_sql_object object;
            bool if_exists;
            dl_sql_name name;
            bool is_cascade;
            bool is_restrict;
            bool is_purge;
        } drop;

        struct {
            dl_sql_object object; /* 0 when only USE name */
            dl_sql_name name;
        } use;

        struct {
            bool is_overwrite;
            dl_sql_name table;
            dl_sql_prop_list options; /* WITH ('k' = 'v', ...): write options */
            dl_sql_partition_spec partition;
            bool has_columns;
            dl_sql_ident_list columns;
            bool by_name;               /* BY NAME */
            dl_sql_expr *replace_where; /* REPLACE WHERE cond, or NULL */
            dl_sql_query *query;        /* SELECT ..., VALUES ..., ... */
        } insert;

        struct {
            dl_sql_name table;
            bool has_alias;
            dl_sql_ident alias;
            dl_sql_assign_list assigns;
            dl_sql_expr *where;
        } update;

        struct {
            dl_sql_name table;
            bool has_alias;
            dl_sql_ident alias;
            dl_sql_expr *where;
        } delete_;

        struct {
            bool with_schema_evolution;
            dl_sql_name target;
            bool has_alias;
            dl_sql_ident alias;
            dl_sql_tref *source;
            dl_sql_expr *on;
            dl_sql_merge_clause *clauses;
            uint32_t n_clauses; /* >= 1, in the order written */
        } merge;

        struct {
            dl_sql_name table;
            dl_sql_time_travel tt; /* VERSION or TIMESTAMP */
        } restore;

        struct {
            dl_sql_target target;
            dl_sql_expr *retain_hours; /* RETAIN n HOURS, or NULL */
            bool is_dry_run;
            dl_sql_vacuum_mode mode;
        } vacuum;

        struct {
            dl_sql_target target;
            bool is_full;
            bool is_purge; /* REORG TABLE ... APPLY (PURGE) */
            dl_sql_expr *where;
            dl_sql_name_list zorder_by;
        } optimize;

        struct {
            dl_sql_target target;
            dl_sql_expr *limit; /* or NULL */
        } describe_history;

        struct {
            dl_sql_target target;
        } describe_detail;

        struct {
            bool is_extended; /* EXTENDED or FORMATTED */
            dl_sql_name table;
            dl_sql_time_travel tt;
            bool has_column;
            dl_sql_name column;
        } describe_table;

        struct {
            dl_sql_show_kind kind;
            bool has_name;
            dl_sql_name name; /* the table (COLUMNS, TBLPROPERTIES, CREATE TABLE, PARTITIONS)
                               * or the schema (TABLES, VIEWS IN s) */
            bool has_schema;
            dl_sql_name schema; /* SHOW COLUMNS IN t IN schema */
            bool has_pattern;
            dl_str pattern; /* LIKE 'pattern' */
            bool has_key;
            dl_str key;                      /* SHOW TBLPROPERTIES t (key) */
            dl_sql_partition_spec partition; /* SHOW PARTITIONS t PARTITION (k = v, ...) */
        } show;

        struct {
            dl_sql_name table;
            dl_sql_alter_kind kind;
            dl_sql_column_list columns; /* ADD COLUMNS */
            bool if_exists;             /* DROP COLUMNS, UNSET, DROP CONSTRAINT */
            dl_sql_name_list names;     /* DROP COLUMNS, CLUSTER BY */
            dl_sql_name column;         /* RENAME COLUMN, ALTER COLUMN */
            dl_sql_ident new_name;      /* RENAME COLUMN ... TO */
            dl_sql_column_change change;
            dl_sql_type *type;            /* CHANGE_TYPE */
            dl_str comment;               /* CHANGE_COMMENT */
            dl_sql_expr *default_value;   /* CHANGE_SET_DEFAULT */
            dl_sql_col_position position; /* CHANGE_POSITION */
            dl_sql_name after;
            dl_sql_prop_list props;  /* SET / UNSET TBLPROPERTIES */
            dl_sql_check constraint; /* ADD CONSTRAINT; DROP CONSTRAINT uses its name */
            dl_sql_name new_table;   /* RENAME TO */
        } alter;

        struct {
            bool has_key; /* SET alone lists the settings */
            dl_str key;   /* the words before '=', joined as written (comments become ' ') */
            bool has_value;
            dl_str value; /* after '=': a lone string literal decoded, else the raw words */
        } set;

        struct {
            bool has_key;
            dl_str key;
        } reset;

        struct {
            dl_sql_query *query; /* COPY (query) TO ..., or NULL with table */
            dl_sql_name table;   /* COPY t TO ... */
            dl_str path;
            dl_sql_copy_option *options;
            uint32_t n_options;
        } copy;

        struct {
            dl_sql_name table;
            dl_str path;         /* the source folder, file or glob */
            dl_sql_ident format; /* FILEFORMAT = CSV | JSON | PARQUET | ... */
            dl_str *files;       /* FILES = ('a', ...): names inside path */
            uint32_t n_files;
            bool has_files;
            bool has_pattern;
            dl_str pattern;                  /* PATTERN = 'glob' inside path */
            dl_sql_prop_list format_options; /* FORMAT_OPTIONS ('k' = 'v', ...) */
            dl_sql_prop_list copy_options;   /* COPY_OPTIONS ('force' = 'true', ...) */
        } copy_into;

        struct {
            dl_sql_explain_mode mode;
            dl_sql_stmt *stmt;
        } explain;

        struct {
            dl_sql_name table; /* parquet.`path` */
            bool no_statistics;
            dl_sql_column_list partition_columns; /* PARTITIONED BY (c type, ...) */
        } convert;

        struct {
            dl_sql_name table;
            dl_sql_partition_spec partition;
        } truncate;

        struct {
            dl_sql_ident mode; /* symlink_format_manifest */
            dl_sql_name table;
        } generate;

        struct {
            dl_sql_cache_kind kind;
            bool has_name; /* CLEAR CACHE has none */
            dl_sql_name name;
            bool is_lazy;
            bool if_exists;
        } cache;
    } u;
};

#endif /* DL_SQL_SQL_AST_H */
