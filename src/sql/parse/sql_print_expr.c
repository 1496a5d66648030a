/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The canonical printer, part 1: identifiers, literals, types and expressions.
 *
 * Canonical form (what makes print(parse(print(parse(x)))) == print(parse(x))):
 *   - Every operator below the top of an expression is parenthesised: `(a + (b * c))`;
 *     the parser drops parentheses, so they cost nothing in the tree. Where the grammar takes
 *     only a value expression (BETWEEN bounds, LIKE patterns, time travel, frame offsets) the
 *     operand is printed as a nested one.
 *   - Keywords upper case, names as written; a name is quoted when it is not a plain word,
 *     when it is a reserved or class-A keyword, or INTERVAL (which would start a literal).
 *   - Literals keep their text; strings are re-escaped (\\ \' \n \r \t \uXXXX for other
 *     control characters), numbers get back the suffix their kind needs.
 */
#include <stdio.h>
#include <string.h>

#include "sql/parse/sql_parse_int.h"

/* ---- output ------------------------------------------------------------------------------- */

void
dl_sql_pr_mem(dl_sql_printer *pr, const char *s, size_t len) {
    if (pr->status == DL_OK && len > 0) {
        pr->status = dl_buf_append(pr->out, s, len, pr->err);
    }
}

void
dl_sql_pr_str(dl_sql_printer *pr, const char *s) {
    dl_sql_pr_mem(pr, s, strlen(s));
}

void
dl_sql_pr_fmt(dl_sql_printer *pr, const char *fmt, ...) {
    char buf[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (n > 0) {
        dl_sql_pr_mem(pr, buf, DL_MIN((size_t)n, sizeof(buf) - 1));
    }
}

/* ---- identifiers and strings -------------------------------------------------------------- */

/* A word that, written before '(' where an expression starts, the parser would read as
 * syntax instead of a call (any other keyword followed by '(' is a call: left(s, 2)). */
static bool
is_special_function_word(dl_sql_kw kw) {
    static const dl_sql_kw words[] = {
        DL_SQL_KW_SELECT,   DL_SQL_KW_WITH,      DL_SQL_KW_VALUES,  DL_SQL_KW_DISTINCT,
        DL_SQL_KW_ALL,      DL_SQL_KW_NOT,       DL_SQL_KW_NULL,    DL_SQL_KW_TRUE,
        DL_SQL_KW_FALSE,    DL_SQL_KW_CASE,      DL_SQL_KW_CAST,    DL_SQL_KW_TRY_CAST,
        DL_SQL_KW_EXISTS,   DL_SQL_KW_ROLLUP,    DL_SQL_KW_CUBE,    DL_SQL_KW_ANY,
        DL_SQL_KW_SOME,     DL_SQL_KW_BOTH,      DL_SQL_KW_LEADING, DL_SQL_KW_TRAILING,
        DL_SQL_KW_INTERVAL, DL_SQL_KW_UNBOUNDED,
    };
    for (size_t i = 0; i < DL_ARRAY_LEN(words); i++) {
        if (words[i] == kw) {
            return true;
        }
    }
    return false;
}

static bool
needs_quotes(dl_str name, bool is_function) {
    if (name.len == 0) {
        return true;
    }
    char c0 = name.ptr[0];
    if (!((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z') || c0 == '_')) {
        return true;
    }
    for (size_t i = 1; i < name.len; i++) {
        char c = name.ptr[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_')) {
            return true;
        }
    }
    dl_sql_kw kw = dl_sql_keyword_lookup(name);
    if (kw == DL_SQL_NO_KW) {
        return false;
    }
    if (is_function) {
        return is_special_function_word(kw);
    }
    return dl_sql_keyword_class(kw) != DL_SQL_KWC_N || kw == DL_SQL_KW_INTERVAL;
}

static void
pr_quoted_name(dl_sql_printer *pr, dl_str name) {
    dl_sql_pr_str(pr, "`");
    size_t start = 0;
    for (size_t i = 0; i < name.len; i++) {
        if (name.ptr[i] == '`') {
            dl_sql_pr_mem(pr, name.ptr + start, i + 1 - start);
            dl_sql_pr_str(pr, "`");
            start = i + 1;
        }
    }
    dl_sql_pr_mem(pr, name.ptr + start, name.len - start);
    dl_sql_pr_str(pr, "`");
}

static void
pr_name_str(dl_sql_printer *pr, dl_str name, bool is_function) {
    if (needs_quotes(name, is_function)) {
        pr_quoted_name(pr, name);
    } else {
        dl_sql_pr_mem(pr, name.ptr, name.len);
    }
}

void
dl_sql_pr_ident(dl_sql_printer *pr, const dl_sql_ident *id) {
    pr_name_str(pr, id->name, false);
}

void
dl_sql_pr_ident_unless(dl_sql_printer *pr, const dl_sql_ident *id, const dl_sql_kw *words,
                       size_t n_words) {
    dl_sql_kw kw = dl_sql_keyword_lookup(id->name);
    for (size_t i = 0; i < n_words; i++) {
        if (kw != DL_SQL_NO_KW && kw == words[i]) {
            pr_quoted_name(pr, id->name);
            return;
        }
    }
    dl_sql_pr_ident(pr, id);
}

void
dl_sql_pr_name(dl_sql_printer *pr, const dl_sql_name *name) {
    for (uint32_t i = 0; i < name->n_parts; i++) {
        if (i > 0) {
            dl_sql_pr_str(pr, ".");
        }
        dl_sql_pr_ident(pr, &name->parts[i]);
    }
}

void
dl_sql_pr_ident_list(dl_sql_printer *pr, dl_sql_ident_list list) {
    dl_sql_pr_str(pr, "(");
    for (uint32_t i = 0; i < list.n; i++) {
        if (i > 0) {
            dl_sql_pr_str(pr, ", ");
        }
        dl_sql_pr_ident(pr, &list.items[i]);
    }
    dl_sql_pr_str(pr, ")");
}

void
dl_sql_pr_string(dl_sql_printer *pr, dl_str s) {
    dl_sql_pr_str(pr, "'");
    size_t start = 0;
    for (size_t i = 0; i < s.len; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        const char *esc = c == '\\'   ? "\\\\"
                          : c == '\'' ? "\\'"
                          : c == '\n' ? "\\n"
                          : c == '\r' ? "\\r"
                          : c == '\t' ? "\\t"
                                      : NULL;
        if (esc == NULL && c >= 0x20 && c != 0x7F) {
            continue;
        }
        dl_sql_pr_mem(pr, s.ptr + start, i - start);
        if (esc != NULL) {
            dl_sql_pr_str(pr, esc);
        } else {
            dl_sql_pr_fmt(pr, "\\u%04X", (unsigned)c);
        }
        start = i + 1;
    }
    dl_sql_pr_mem(pr, s.ptr + start, s.len - start);
    dl_sql_pr_str(pr, "'");
}

/* ---- literals ----------------------------------------------------------------------------- */

static bool
has_byte(dl_str s, char c) {
    return s.len > 0 && memchr(s.ptr, c, s.len) != NULL;
}

static void
pr_number(dl_sql_printer *pr, const dl_sql_expr *e) {
    dl_str t = e->u.lit.text;
    bool exp = has_byte(t, 'e') || has_byte(t, 'E');
    bool dot = has_byte(t, '.');
    dl_sql_pr_mem(pr, t.ptr, t.len);
    switch (e->u.lit.kind) {
    case DL_SQL_LIT_BIGINT:
        dl_sql_pr_str(pr, "L");
        break;
    case DL_SQL_LIT_SMALLINT:
        dl_sql_pr_str(pr, "S");
        break;
    case DL_SQL_LIT_TINYINT:
        dl_sql_pr_str(pr, "Y");
        break;
    case DL_SQL_LIT_FLOAT:
        dl_sql_pr_str(pr, "F");
        break;
    case DL_SQL_LIT_DECIMAL:
        dl_sql_pr_str(pr, dot && !exp ? "" : "BD");
        break;
    case DL_SQL_LIT_DOUBLE:
        dl_sql_pr_str(pr, exp ? "" : "D");
        break;
    default:
        break;
    }
}

static void
pr_literal(dl_sql_printer *pr, const dl_sql_expr *e) {
    static const char *const typed[] = {
        [DL_SQL_LIT_DATE] = "DATE ",
        [DL_SQL_LIT_TIMESTAMP] = "TIMESTAMP ",
        [DL_SQL_LIT_TIMESTAMP_NTZ] = "TIMESTAMP_NTZ ",
        [DL_SQL_LIT_TIMESTAMP_LTZ] = "TIMESTAMP_LTZ ",
    };
    dl_sql_lit_kind kind = e->u.lit.kind;
    switch (kind) {
    case DL_SQL_LIT_NULL:
        dl_sql_pr_str(pr, "NULL");
        return;
    case DL_SQL_LIT_BOOL:
        dl_sql_pr_str(pr, e->u.lit.b ? "TRUE" : "FALSE");
        return;
    case DL_SQL_LIT_STRING:
        dl_sql_pr_string(pr, e->u.lit.text);
        return;
    case DL_SQL_LIT_BINARY:
        dl_sql_pr_str(pr, "X'");
        for (size_t i = 0; i < e->u.lit.text.len; i++) {
            dl_sql_pr_fmt(pr, "%02X", (unsigned)(unsigned char)e->u.lit.text.ptr[i]);
        }
        dl_sql_pr_str(pr, "'");
        return;
    case DL_SQL_LIT_DATE:
    case DL_SQL_LIT_TIMESTAMP:
    case DL_SQL_LIT_TIMESTAMP_NTZ:
    case DL_SQL_LIT_TIMESTAMP_LTZ:
        dl_sql_pr_str(pr, typed[kind]);
        dl_sql_pr_string(pr, e->u.lit.text);
        return;
    default:
        pr_number(pr, e);
        return;
    }
}

static const char *
unit_name(dl_sql_unit u) {
    static const char *const names[] = {
        [DL_SQL_UNIT_NONE] = "",
        [DL_SQL_UNIT_YEAR] = "YEAR",
        [DL_SQL_UNIT_MONTH] = "MONTH",
        [DL_SQL_UNIT_WEEK] = "WEEK",
        [DL_SQL_UNIT_DAY] = "DAY",
        [DL_SQL_UNIT_HOUR] = "HOUR",
        [DL_SQL_UNIT_MINUTE] = "MINUTE",
        [DL_SQL_UNIT_SECOND] = "SECOND",
        [DL_SQL_UNIT_MILLISECOND] = "MILLISECOND",
        [DL_SQL_UNIT_MICROSECOND] = "MICROSECOND",
    };
    return (size_t)u < DL_ARRAY_LEN(names) ? names[u] : "";
}

static void
pr_interval(dl_sql_printer *pr, const dl_sql_expr *e) {
    dl_sql_pr_str(pr, "INTERVAL");
    for (uint32_t i = 0; i < e->u.interval.n_parts; i++) {
        const dl_sql_interval_part *part = &e->u.interval.parts[i];
        dl_sql_pr_str(pr, part->is_negative ? " -" : " ");
        if (part->is_string) {
            dl_sql_pr_string(pr, part->value);
        } else {
            dl_sql_pr_mem(pr, part->value.ptr, part->value.len);
        }
        if (part->unit != DL_SQL_UNIT_NONE) {
            dl_sql_pr_fmt(pr, " %s", unit_name(part->unit));
        }
        if (part->to_unit != DL_SQL_UNIT_NONE) {
            dl_sql_pr_fmt(pr, " TO %s", unit_name(part->to_unit));
        }
    }
}

/* ---- types -------------------------------------------------------------------------------- */

void
dl_sql_pr_type(dl_sql_printer *pr, const dl_sql_type *t) {
    static const char *const names[] = {
        [DL_SQL_TYPE_BOOLEAN] = "BOOLEAN",
        [DL_SQL_TYPE_TINYINT] = "TINYINT",
        [DL_SQL_TYPE_SMALLINT] = "SMALLINT",
        [DL_SQL_TYPE_INT] = "INT",
        [DL_SQL_TYPE_BIGINT] = "BIGINT",
        [DL_SQL_TYPE_FLOAT] = "FLOAT",
        [DL_SQL_TYPE_DOUBLE] = "DOUBLE",
        [DL_SQL_TYPE_DECIMAL] = "DECIMAL",
        [DL_SQL_TYPE_STRING] = "STRING",
        [DL_SQL_TYPE_VARCHAR] = "VARCHAR",
        [DL_SQL_TYPE_CHAR] = "CHAR",
        [DL_SQL_TYPE_BINARY] = "BINARY",
        [DL_SQL_TYPE_DATE] = "DATE",
        [DL_SQL_TYPE_TIMESTAMP] = "TIMESTAMP",
        [DL_SQL_TYPE_TIMESTAMP_NTZ] = "TIMESTAMP_NTZ",
        [DL_SQL_TYPE_TIMESTAMP_LTZ] = "TIMESTAMP_LTZ",
        [DL_SQL_TYPE_INTERVAL] = "INTERVAL",
        [DL_SQL_TYPE_VOID] = "VOID",
        [DL_SQL_TYPE_ARRAY] = "ARRAY",
        [DL_SQL_TYPE_MAP] = "MAP",
        [DL_SQL_TYPE_STRUCT] = "STRUCT",
    };
    dl_sql_pr_str(pr, (size_t)t->kind < DL_ARRAY_LEN(names) ? names[t->kind] : "?");
    switch (t->kind) {
    case DL_SQL_TYPE_DECIMAL:
        if (t->precision >= 0) {
            dl_sql_pr_fmt(pr, "(%d", t->precision);
            if (t->scale >= 0) {
                dl_sql_pr_fmt(pr, ", %d", t->scale);
            }
            dl_sql_pr_str(pr, ")");
        }
        return;
    case DL_SQL_TYPE_VARCHAR:
    case DL_SQL_TYPE_CHAR:
        dl_sql_pr_fmt(pr, "(%d)", t->length);
        return;
    case DL_SQL_TYPE_INTERVAL:
        dl_sql_pr_fmt(pr, " %s", unit_name(t->start_unit));
        if (t->end_unit != DL_SQL_UNIT_NONE) {
            dl_sql_pr_fmt(pr, " TO %s", unit_name(t->end_unit));
        }
        return;
    case DL_SQL_TYPE_ARRAY:
        dl_sql_pr_str(pr, "<");
        dl_sql_pr_type(pr, t->elem);
        dl_sql_pr_str(pr, ">");
        return;
    case DL_SQL_TYPE_MAP:
        dl_sql_pr_str(pr, "<");
        dl_sql_pr_type(pr, t->key);
        dl_sql_pr_str(pr, ", ");
        dl_sql_pr_type(pr, t->value);
        dl_sql_pr_str(pr, ">");
        return;
    case DL_SQL_TYPE_STRUCT:
        dl_sql_pr_str(pr, "<");
        for (uint32_t i = 0; i < t->n_fields; i++) {
            const dl_sql_type_field *f = &t->fields[i];
            dl_sql_pr_str(pr, i > 0 ? ", " : "");
            dl_sql_pr_ident(pr, &f->name);
            dl_sql_pr_str(pr, ": ");
            dl_sql_pr_type(pr, f->type);
            dl_sql_pr_str(pr, f->is_not_null ? " NOT NULL" : "");
            if (f->has_comment) {
                dl_sql_pr_str(pr, " COMMENT ");
                dl_sql_pr_string(pr, f->comment);
            }
        }
        dl_sql_pr_str(pr, ">");
        return;
    default:
        return;
    }
}

/* ---- operators ---------------------------------------------------------------------------- */

static const char *
op_text(dl_sql_op op) {
    static const char *const texts[] = {
        [DL_SQL_OP_NEG] = "-",
        [DL_SQL_OP_PLUS] = "+",
        [DL_SQL_OP_BITNOT] = "~",
        [DL_SQL_OP_NOT] = "NOT ",
        [DL_SQL_OP_OR] = " OR ",
        [DL_SQL_OP_AND] = " AND ",
        [DL_SQL_OP_EQ] = " = ",
        [DL_SQL_OP_NSEQ] = " <=> ",
        [DL_SQL_OP_NE] = " <> ",
        [DL_SQL_OP_LT] = " < ",
        [DL_SQL_OP_LE] = " <= ",
        [DL_SQL_OP_GT] = " > ",
        [DL_SQL_OP_GE] = " >= ",
        [DL_SQL_OP_ADD] = " + ",
        [DL_SQL_OP_SUB] = " - ",
        [DL_SQL_OP_MUL] = " * ",
        [DL_SQL_OP_DIV] = " / ",
        [DL_SQL_OP_MOD] = " % ",
        [DL_SQL_OP_INTDIV] = " DIV ",
        [DL_SQL_OP_CONCAT] = " || ",
        [DL_SQL_OP_BITAND] = " & ",
        [DL_SQL_OP_BITOR] = " | ",
        [DL_SQL_OP_BITXOR] = " ^ ",
        [DL_SQL_OP_SHL] = " << ",
        [DL_SQL_OP_SHR] = " >> ",
        [DL_SQL_OP_SHRU] = " >>> ",
        [DL_SQL_OP_IS_DISTINCT] = " IS DISTINCT FROM ",
        [DL_SQL_OP_IS_NOT_DISTINCT] = " IS NOT DISTINCT FROM ",
    };
    return (size_t)op < DL_ARRAY_LEN(texts) && texts[op] != NULL ? texts[op] : " ? ";
}

/* True for kinds printed with operators between or around operands (parenthesised when
 * nested); the others delimit themselves. */
static bool
is_operator_kind(dl_sql_expr_kind k) {
    return k == DL_SQL_EXPR_UNARY || k == DL_SQL_EXPR_BINARY || k == DL_SQL_EXPR_IS ||
           k == DL_SQL_EXPR_BETWEEN || k == DL_SQL_EXPR_IN_LIST || k == DL_SQL_EXPR_IN_QUERY ||
           k == DL_SQL_EXPR_LIKE || k == DL_SQL_EXPR_LAMBDA || k == DL_SQL_EXPR_NAMED_ARG;
}

static void
pr_not(dl_sql_printer *pr, bool is_not) {
    dl_sql_pr_str(pr, is_not ? " NOT" : "");
}

static void
pr_like(dl_sql_printer *pr, const dl_sql_expr *e) {
    static const char *const ops[] = {
        [DL_SQL_LIKE_LIKE] = " LIKE ",
        [DL_SQL_LIKE_ILIKE] = " ILIKE ",
        [DL_SQL_LIKE_RLIKE] = " RLIKE ",
    };
    dl_sql_pr_expr(pr, e->u.like.arg, false);
    pr_not(pr, e->u.like.is_not);
    dl_sql_pr_str(pr, ops[e->u.like.op]);
    if (e->u.like.quant != DL_SQL_QUANT_NONE) {
        dl_sql_pr_str(pr, e->u.like.quant == DL_SQL_QUANT_ALL ? "ALL (" : "ANY (");
        dl_sql_pr_expr_list(pr, e->u.like.patterns);
        dl_sql_pr_str(pr, ")");
        return;
    }
    dl_sql_pr_expr(pr, e->u.like.pattern, false);
    if (e->u.like.has_escape) {
        dl_sql_pr_str(pr, " ESCAPE ");
        dl_sql_pr_string(pr, e->u.like.escape);
    }
}

static void
pr_lambda(dl_sql_printer *pr, const dl_sql_expr *e) {
    dl_sql_ident_list params = e->u.lambda.params;
    if (params.n == 1) {
        pr_name_str(pr, params.items[0].name, false);
    } else {
        dl_sql_pr_ident_list(pr, params);
    }
    dl_sql_pr_str(pr, " -> ");
    dl_sql_pr_expr(pr, e->u.lambda.body, true);
}

/* -x, NOT x. A prefix operator under one of its own family is written after a space without
 * parentheses (- -x, NOT NOT x), so chains of them nest no deeper when parsed again. */
static void
pr_unary(dl_sql_printer *pr, const dl_sql_expr *e) {
    const dl_sql_expr *arg = e->u.unary.arg;
    bool is_not = e->u.unary.op == DL_SQL_OP_NOT;
    bool chain = arg->kind == DL_SQL_EXPR_UNARY && (arg->u.unary.op == DL_SQL_OP_NOT) == is_not;
    dl_sql_pr_str(pr, op_text(e->u.unary.op));
    if (chain) {
        dl_sql_pr_str(pr, is_not ? "" : " ");
        pr_unary(pr, arg);
    } else {
        dl_sql_pr_expr(pr, arg, false);
    }
}

static void
pr_operator_expr(dl_sql_printer *pr, const dl_sql_expr *e) {
    static const char *const tests[] = {
        [DL_SQL_IS_NULL] = "NULL",
        [DL_SQL_IS_TRUE] = "TRUE",
        [DL_SQL_IS_FALSE] = "FALSE",
        [DL_SQL_IS_UNKNOWN] = "UNKNOWN",
    };
    switch (e->kind) {
    case DL_SQL_EXPR_UNARY:
        pr_unary(pr, e);
        return;
    case DL_SQL_EXPR_BINARY:
        dl_sql_pr_expr(pr, e->u.binary.left, false);
        dl_sql_pr_str(pr, op_text(e->u.binary.op));
        dl_sql_pr_expr(pr, e->u.binary.right, false);
        return;
    case DL_SQL_EXPR_IS:
        dl_sql_pr_expr(pr, e->u.is.arg, false);
        dl_sql_pr_str(pr, e->u.is.is_not ? " IS NOT " : " IS ");
        dl_sql_pr_str(pr, tests[e->u.is.test]);
        return;
    case DL_SQL_EXPR_BETWEEN:
        dl_sql_pr_expr(pr, e->u.between.arg, false);
        pr_not(pr, e->u.between.is_not);
        dl_sql_pr_str(pr, " BETWEEN ");
        dl_sql_pr_expr(pr, e->u.between.low, false);
        dl_sql_pr_str(pr, " AND ");
        dl_sql_pr_expr(pr, e->u.between.high, false);
        return;
    case DL_SQL_EXPR_IN_LIST:
        dl_sql_pr_expr(pr, e->u.in_list.arg, false);
        pr_not(pr, e->u.in_list.is_not);
        dl_sql_pr_str(pr, " IN (");
        dl_sql_pr_expr_list(pr, e->u.in_list.list);
        dl_sql_pr_str(pr, ")");
        return;
    case DL_SQL_EXPR_IN_QUERY:
        dl_sql_pr_expr(pr, e->u.in_query.arg, false);
        pr_not(pr, e->u.in_query.is_not);
        dl_sql_pr_str(pr, " IN (");
        dl_sql_pr_query(pr, e->u.in_query.query);
        dl_sql_pr_str(pr, ")");
        return;
    case DL_SQL_EXPR_LIKE:
        pr_like(pr, e);
        return;
    case DL_SQL_EXPR_LAMBDA:
        pr_lambda(pr, e);
        return;
    default: /* NAMED_ARG */
        pr_name_str(pr, e->u.named_arg.name.name, false);
        dl_sql_pr_str(pr, " => ");
        dl_sql_pr_expr(pr, e->u.named_arg.value, true);
        return;
    }
}

/* ---- calls -------------------------------------------------------------------------------- */

static void
pr_call_name(dl_sql_printer *pr, const dl_sql_name *name) {
    for (uint32_t i = 0; i < name->n_parts; i++) {
        dl_sql_pr_str(pr, i > 0 ? "." : "");
        pr_name_str(pr, name->parts[i].name, name->n_parts == 1);
    }
}

static void
pr_trim(dl_sql_printer *pr, const dl_sql_expr *e) {
    static const char *const specs[] = {
        [DL_SQL_TRIM_DEFAULT] = "",
        [DL_SQL_TRIM_BOTH] = "BOTH ",
        [DL_SQL_TRIM_LEADING] = "LEADING ",
        [DL_SQL_TRIM_TRAILING] = "TRAILING ",
    };
    pr_call_name(pr, &e->u.func.name);
    dl_sql_pr_str(pr, "(");
    dl_sql_pr_str(pr, specs[e->u.func.trim_spec]);
    if (e->u.func.args.n > 1) {
        dl_sql_pr_expr(pr, e->u.func.args.items[1], true);
        dl_sql_pr_str(pr, " ");
    }
    dl_sql_pr_str(pr, "FROM ");
    dl_sql_pr_expr(pr, e->u.func.args.items[0], true);
    dl_sql_pr_str(pr, ")");
}

static void
pr_call_clauses(dl_sql_printer *pr, const dl_sql_expr *e) {
    if (e->u.func.within_group.n > 0) {
        dl_sql_pr_str(pr, " WITHIN GROUP (ORDER BY ");
        dl_sql_pr_sort_list(pr, e->u.func.within_group);
        dl_sql_pr_str(pr, ")");
    }
    if (e->u.func.filter != NULL) {
        dl_sql_pr_str(pr, " FILTER (WHERE ");
        dl_sql_pr_expr(pr, e->u.func.filter, true);
        dl_sql_pr_str(pr, ")");
    }
    if (e->u.func.nulls != DL_SQL_NULLS_DEFAULT) {
        dl_sql_pr_str(pr,
                      e->u.func.nulls == DL_SQL_NULLS_IGNORE ? " IGNORE NULLS" : " RESPECT NULLS");
    }
    if (e->u.func.over != NULL) {
        dl_sql_pr_str(pr, " OVER ");
        dl_sql_pr_window(pr, e->u.func.over);
    }
}

static void
pr_call(dl_sql_printer *pr, const dl_sql_expr *e) {
    if (e->u.func.syntax == DL_SQL_FUNC_NO_PARENS) {
        dl_sql_pr_mem(pr, e->u.func.name.parts[0].name.ptr, e->u.func.name.parts[0].name.len);
        return;
    }
    if (e->u.func.syntax == DL_SQL_FUNC_TRIM) {
        pr_trim(pr, e);
        return;
    }
    pr_call_name(pr, &e->u.func.name);
    dl_sql_pr_str(pr, "(");
    if (e->u.func.is_star) {
        dl_sql_pr_str(pr, "*");
    } else {
        dl_sql_pr_str(pr, e->u.func.quant == DL_SQL_QUANT_DISTINCT ? "DISTINCT "
                          : e->u.func.quant == DL_SQL_QUANT_ALL    ? "ALL "
                                                                   : "");
        /* position(a IN b) reads its first argument as a value expression. */
        bool nest_first = e->u.func.name.n_parts == 1 &&
                          dl_str_eq_nocase(e->u.func.name.parts[0].name, DL_STR("position"));
        for (uint32_t i = 0; i < e->u.func.args.n; i++) {
            dl_sql_pr_str(pr, i > 0 ? ", " : "");
            const dl_sql_expr *arg = e->u.func.args.items[i];
            bool nest = i == 0 && nest_first && arg->kind != DL_SQL_EXPR_NAMED_ARG;
            dl_sql_pr_expr(pr, arg, !nest);
        }
    }
    dl_sql_pr_str(pr, ")");
    pr_call_clauses(pr, e);
}

/* ---- expressions -------------------------------------------------------------------------- */

static void
pr_case(dl_sql_printer *pr, const dl_sql_expr *e) {
    dl_sql_pr_str(pr, "CASE");
    if (e->u.case_.operand != NULL) {
        dl_sql_pr_str(pr, " ");
        dl_sql_pr_expr(pr, e->u.case_.operand, true);
    }
    for (uint32_t i = 0; i < e->u.case_.n_whens; i++) {
        dl_sql_pr_str(pr, " WHEN ");
        dl_sql_pr_expr(pr, e->u.case_.whens[i].cond, true);
        dl_sql_pr_str(pr, " THEN ");
        dl_sql_pr_expr(pr, e->u.case_.whens[i].result, true);
    }
    if (e->u.case_.else_result != NULL) {
        dl_sql_pr_str(pr, " ELSE ");
        dl_sql_pr_expr(pr, e->u.case_.else_result, true);
    }
    dl_sql_pr_str(pr, " END");
}

static void
pr_cast(dl_sql_printer *pr, const dl_sql_expr *e) {
    if (e->u.cast.is_colon_form) {
        dl_sql_pr_expr(pr, e->u.cast.arg, false);
        dl_sql_pr_str(pr, "::");
        dl_sql_pr_type(pr, e->u.cast.type);
        return;
    }
    dl_sql_pr_str(pr, e->u.cast.is_try ? "TRY_CAST(" : "CAST(");
    dl_sql_pr_expr(pr, e->u.cast.arg, true);
    dl_sql_pr_str(pr, " AS ");
    dl_sql_pr_type(pr, e->u.cast.type);
    dl_sql_pr_str(pr, ")");
}

static void
pr_star(dl_sql_printer *pr, const dl_sql_expr *e) {
    if (e->u.star.qualifier.n_parts > 0) {
        dl_sql_pr_name(pr, &e->u.star.qualifier);
        dl_sql_pr_str(pr, ".");
    }
    dl_sql_pr_str(pr, "*");
    if (e->u.star.except.n > 0) {
        dl_sql_pr_str(pr, " EXCEPT (");
        for (uint32_t i = 0; i < e->u.star.except.n; i++) {
            dl_sql_pr_str(pr, i > 0 ? ", " : "");
            dl_sql_pr_name(pr, &e->u.star.except.items[i]);
        }
        dl_sql_pr_str(pr, ")");
    }
}

/* A base before '.field': a literal or interval would merge with the dot, so it is wrapped. */
static void
pr_field_base(dl_sql_printer *pr, const dl_sql_expr *base) {
    bool wrap = base->kind == DL_SQL_EXPR_LITERAL || base->kind == DL_SQL_EXPR_INTERVAL;
    dl_sql_pr_str(pr, wrap ? "(" : "");
    dl_sql_pr_expr(pr, base, false);
    dl_sql_pr_str(pr, wrap ? ")" : "");
}

static void
pr_simple_expr(dl_sql_printer *pr, const dl_sql_expr *e) {
    switch (e->kind) {
    case DL_SQL_EXPR_LITERAL:
        pr_literal(pr, e);
        return;
    case DL_SQL_EXPR_INTERVAL:
        pr_interval(pr, e);
        return;
    case DL_SQL_EXPR_COLUMN:
        dl_sql_pr_name(pr, &e->u.column);
        return;
    case DL_SQL_EXPR_STAR:
        pr_star(pr, e);
        return;
    case DL_SQL_EXPR_PARAM:
        if (e->u.param.index > 0) {
            dl_sql_pr_str(pr, "?");
        } else {
            dl_sql_pr_str(pr, ":");
            dl_sql_pr_mem(pr, e->u.param.name.ptr, e->u.param.name.len);
        }
        return;
    case DL_SQL_EXPR_EXISTS:
        dl_sql_pr_str(pr, "EXISTS (");
        dl_sql_pr_query(pr, e->u.subquery);
        dl_sql_pr_str(pr, ")");
        return;
    case DL_SQL_EXPR_SUBQUERY:
        dl_sql_pr_str(pr, "(");
        dl_sql_pr_query(pr, e->u.subquery);
        dl_sql_pr_str(pr, ")");
        return;
    case DL_SQL_EXPR_CASE:
        pr_case(pr, e);
        return;
    case DL_SQL_EXPR_CAST:
        pr_cast(pr, e);
        return;
    case DL_SQL_EXPR_FUNC:
        pr_call(pr, e);
        return;
    case DL_SQL_EXPR_SUBSCRIPT:
        dl_sql_pr_expr(pr, e->u.subscript.base, false);
        dl_sql_pr_str(pr, "[");
        dl_sql_pr_expr(pr, e->u.subscript.index, true);
        dl_sql_pr_str(pr, "]");
        return;
    case DL_SQL_EXPR_FIELD:
        pr_field_base(pr, e->u.field.base);
        dl_sql_pr_str(pr, ".");
        dl_sql_pr_ident(pr, &e->u.field.name);
        return;
    case DL_SQL_EXPR_ROW:
        dl_sql_pr_str(pr, "(");
        dl_sql_pr_expr_list(pr, e->u.row);
        dl_sql_pr_str(pr, ")");
        return;
    default:
        return;
    }
}

void
dl_sql_pr_expr(dl_sql_printer *pr, const dl_sql_expr *e, bool top) {
    if (!is_operator_kind(e->kind)) {
        pr_simple_expr(pr, e);
        return;
    }
    dl_sql_pr_str(pr, top ? "" : "(");
    pr_operator_expr(pr, e);
    dl_sql_pr_str(pr, top ? "" : ")");
}

void
dl_sql_pr_expr_list(dl_sql_printer *pr, dl_sql_expr_list list) {
    for (uint32_t i = 0; i < list.n; i++) {
        dl_sql_pr_str(pr, i > 0 ? ", " : "");
        dl_sql_pr_expr(pr, list.items[i], true);
    }
}

void
dl_sql_pr_sort_list(dl_sql_printer *pr, dl_sql_sort_list list) {
    for (uint32_t i = 0; i < list.n; i++) {
        const dl_sql_sort_item *it = &list.items[i];
        dl_sql_pr_str(pr, i > 0 ? ", " : "");
        dl_sql_pr_expr(pr, it->expr, true);
        dl_sql_pr_str(pr, it->dir == DL_SQL_SORT_ASC    ? " ASC"
                          : it->dir == DL_SQL_SORT_DESC ? " DESC"
                                                        : "");
        dl_sql_pr_str(pr, it->nulls == DL_SQL_NULLS_FIRST  ? " NULLS FIRST"
                          : it->nulls == DL_SQL_NULLS_LAST ? " NULLS LAST"
                                                           : "");
    }
}

static void
pr_bound(dl_sql_printer *pr, const dl_sql_frame_bound *b) {
    switch (b->kind) {
    case DL_SQL_BOUND_UNBOUNDED_PRECEDING:
        dl_sql_pr_str(pr, "UNBOUNDED PRECEDING");
        return;
    case DL_SQL_BOUND_UNBOUNDED_FOLLOWING:
        dl_sql_pr_str(pr, "UNBOUNDED FOLLOWING");
        return;
    case DL_SQL_BOUND_CURRENT_ROW:
        dl_sql_pr_str(pr, "CURRENT ROW");
        return;
    default:
        dl_sql_pr_expr(pr, b->offset, false);
        dl_sql_pr_str(pr, b->kind == DL_SQL_BOUND_PRECEDING ? " PRECEDING" : " FOLLOWING");
        return;
    }
}

void
dl_sql_pr_window(dl_sql_printer *pr, const dl_sql_window *w) {
    if (w->is_ref) {
        dl_sql_pr_ident(pr, &w->base_name);
        return;
    }
    static const dl_sql_kw clause_words[] = {DL_SQL_KW_PARTITION, DL_SQL_KW_DISTRIBUTE,
                                             DL_SQL_KW_ROWS, DL_SQL_KW_RANGE};
    const char *sep = "";
    dl_sql_pr_str(pr, "(");
    if (w->has_base) {
        dl_sql_pr_ident_unless(pr, &w->base_name, clause_words, DL_ARRAY_LEN(clause_words));
        sep = " ";
    }
    if (w->partition_by.n > 0) {
        dl_sql_pr_fmt(pr, "%sPARTITION BY ", sep);
        dl_sql_pr_expr_list(pr, w->partition_by);
        sep = " ";
    }
    if (w->order_by.n > 0) {
        dl_sql_pr_fmt(pr, "%sORDER BY ", sep);
        dl_sql_pr_sort_list(pr, w->order_by);
        sep = " ";
    }
    if (w->frame != DL_SQL_FRAME_NONE) {
        dl_sql_pr_fmt(pr, "%s%s ", sep, w->frame == DL_SQL_FRAME_ROWS ? "ROWS" : "RANGE");
        if (w->has_between) {
            dl_sql_pr_str(pr, "BETWEEN ");
            pr_bound(pr, &w->start);
            dl_sql_pr_str(pr, " AND ");
            pr_bound(pr, &w->end);
        } else {
            pr_bound(pr, &w->start);
        }
    }
    dl_sql_pr_str(pr, ")");
}

/* ---- entry points ------------------------------------------------------------------------- */

dl_status
dl_sql_expr_print(const dl_sql_expr *expr, dl_buf *out, dl_error *err) {
    dl_sql_printer pr = {.out = out, .status = DL_OK, .err = err};
    dl_sql_pr_expr(&pr, expr, true);
    return pr.status;
}

dl_status
dl_sql_type_print(const dl_sql_type *type, dl_buf *out, dl_error *err) {
    dl_sql_printer pr = {.out = out, .status = DL_OK, .err = err};
    dl_sql_pr_type(&pr, type);
    return pr.status;
}
