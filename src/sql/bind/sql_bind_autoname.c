/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The names Spark gives unaliased SELECT items (sql_bind_int.h): `SELECT a + 1, upper('x')`
 * has the columns `(a + 1)` and `upper(x)`. Spark prints the analysed expression through
 * toPrettySQL: attributes by their name, string literals without quotes, numbers as their
 * value, every binary operator and predicate in parentheses, CASE x WHEN v as x = v, window
 * specifications with the frame the analyser filled in. Tables written with unnamed columns
 * (CREATE TABLE AS SELECT) get these names, so they follow Spark 3.5.
 *
 * This works on the syntax tree, so two things are approximations: a dotted column prints
 * its last part (Spark prints `s.x` for a struct field inside a larger expression), and
 * functions print the arguments as written (Spark adds defaulted ones: round(x, 0)). Kinds
 * with no Spark rule here (intervals, lambdas, rows) use the canonical printer.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/bind/sql_bind_int.h"

typedef struct namer {
    dl_buf *out;
    dl_error *err;
    dl_status status;
} namer;

static void
put_mem(namer *n, const char *s, size_t len) {
    if (n->status == DL_OK && len > 0) {
        n->status = dl_buf_append(n->out, s, len, n->err);
    }
}

static void
put(namer *n, const char *s) {
    put_mem(n, s, strlen(s));
}

static void
put_lower(namer *n, dl_str s) {
    for (size_t i = 0; i < s.len && n->status == DL_OK; i++) {
        unsigned char c = (unsigned char)s.ptr[i];
        unsigned char lower = c >= 'A' && c <= 'Z' ? (unsigned char)(c + ('a' - 'A')) : c;
        put_mem(n, (const char *)&lower, 1);
    }
}

static void name_expr(namer *n, const dl_sql_expr *e);

/* ---- numbers as Java prints them --------------------------------------------------------- */

/* Double.toString / Float.toString: the shortest digits that read back, plain between 1e-3
 * and 1e7, otherwise d.dddE<exp>; always at least one fractional digit. */
static void
put_java_float(namer *n, double v, bool is_float) {
    if (isnan(v)) {
        put(n, "NaN");
        return;
    }
    if (isinf(v)) {
        put(n, v < 0 ? "-Infinity" : "Infinity");
        return;
    }
    char sci[40];
    for (int p = 1; p <= 17; p++) {
        (void)snprintf(sci, sizeof(sci), "%.*e", p - 1, v);
        double back = strtod(sci, NULL);
        if (is_float ? (float)back == (float)v : back == v) {
            break;
        }
    }
    bool neg = sci[0] == '-';
    char digits[24] = "0";
    size_t nd = 0;
    const char *c = sci + (neg ? 1 : 0);
    for (; *c != 'e' && *c != '\0'; c++) {
        if (*c != '.' && nd < sizeof(digits) - 1) {
            digits[nd++] = *c;
        }
    }
    while (nd > 1 && digits[nd - 1] == '0') {
        nd--;
    }
    nd = nd == 0 ? 1 : nd;
    int exp = *c == 'e' ? (int)strtol(c + 1, NULL, 10) : 0;
    char text[64];
    size_t t = 0;
    if (neg) {
        text[t++] = '-';
    }
    double mag = fabs(v);
    if (mag == 0 || (mag >= 1e-3 && mag < 1e7)) {
        if (exp < 0) {
            text[t++] = '0';
            text[t++] = '.';
            for (int z = -1; z > exp; z--) {
                text[t++] = '0';
            }
            memcpy(text + t, digits, nd);
            t += nd;
        } else {
            for (int i = 0; i <= exp; i++) {
                char digit = '0';
                if ((size_t)i < nd) {
                    digit = digits[i];
                }
                text[t++] = digit;
            }
            text[t++] = '.';
            size_t frac = (size_t)exp + 1;
            if (frac < nd) {
                memcpy(text + t, digits + frac, nd - frac);
                t += nd - frac;
            } else {
                text[t++] = '0';
            }
        }
        text[t] = '\0';
    } else {
        text[t++] = digits[0];
        text[t++] = '.';
        if (nd > 1) {
            memcpy(text + t, digits + 1, nd - 1);
            t += nd - 1;
        } else {
            text[t++] = '0';
        }
        (void)snprintf(text + t, sizeof(text) - t, "E%d", exp);
    }
    put(n, text);
}

static void
name_literal(namer *n, const dl_sql_expr *e) {
    dl_str text = e->u.lit.text;
    switch (e->u.lit.kind) {
    case DL_SQL_LIT_NULL:
        put(n, "NULL");
        return;
    case DL_SQL_LIT_BOOL:
        put(n, e->u.lit.b ? "true" : "false");
        return;
    case DL_SQL_LIT_DOUBLE:
    case DL_SQL_LIT_FLOAT: {
        char buf[64];
        size_t len = DL_MIN(text.len, sizeof(buf) - 1);
        memcpy(buf, text.ptr, len);
        buf[len] = '\0';
        put_java_float(n, strtod(buf, NULL), e->u.lit.kind == DL_SQL_LIT_FLOAT);
        return;
    }
    case DL_SQL_LIT_DATE:
    case DL_SQL_LIT_TIMESTAMP:
    case DL_SQL_LIT_TIMESTAMP_NTZ:
    case DL_SQL_LIT_TIMESTAMP_LTZ: {
        static const char *const kw[] = {"DATE '", "TIMESTAMP '", "TIMESTAMP_NTZ '", "TIMESTAMP '"};
        put(n, kw[e->u.lit.kind - DL_SQL_LIT_DATE]);
        put_mem(n, text.ptr, text.len);
        put(n, "'");
        return;
    }
    case DL_SQL_LIT_BINARY: {
        put(n, "X'");
        for (size_t i = 0; i < text.len; i++) {
            char hex[3];
            (void)snprintf(hex, sizeof(hex), "%02X", (unsigned)(uint8_t)text.ptr[i]);
            put(n, hex);
        }
        put(n, "'");
        return;
    }
    default: /* strings raw, whole numbers and decimals as their digits */
        /* Names are C strings: a NUL byte would cut the name there, so it is named "\0", the
         * way the literal spells it. */
        for (const char *p = text.ptr, *end = text.ptr + text.len; p < end;) {
            const char *nul = memchr(p, '\0', (size_t)(end - p));
            put_mem(n, p, (size_t)((nul != NULL ? nul : end) - p));
            if (nul != NULL) {
                put(n, "\\0");
            }
            p = nul != NULL ? nul + 1 : end;
        }
        return;
    }
}

/* ---- types ------------------------------------------------------------------------------- */

static void
name_type(namer *n, const dl_sql_type *t) {
    switch (t->kind) {
    case DL_SQL_TYPE_DECIMAL: {
        char buf[32];
        (void)snprintf(buf, sizeof(buf), "DECIMAL(%d,%d)", t->precision < 0 ? 10 : t->precision,
                       t->scale < 0 ? 0 : t->scale);
        put(n, buf);
        return;
    }
    case DL_SQL_TYPE_TIMESTAMP_LTZ:
        put(n, "TIMESTAMP");
        return;
    case DL_SQL_TYPE_ARRAY:
        put(n, "ARRAY<");
        name_type(n, t->elem);
        put(n, ">");
        return;
    case DL_SQL_TYPE_MAP:
        put(n, "MAP<");
        name_type(n, t->key);
        put(n, ", ");
        name_type(n, t->value);
        put(n, ">");
        return;
    case DL_SQL_TYPE_STRUCT:
        put(n, "STRUCT<");
        for (uint32_t i = 0; i < t->n_fields; i++) {
            put(n, i > 0 ? ", " : "");
            put_mem(n, t->fields[i].name.name.ptr, t->fields[i].name.name.len);
            put(n, ": ");
            name_type(n, t->fields[i].type);
        }
        put(n, ">");
        return;
    default:
        if (n->status == DL_OK) {
            n->status = dl_sql_type_print(t, n->out, n->err);
        }
        return;
    }
}

/* ---- operators and predicates ------------------------------------------------------------ */

static void
name_infix(namer *n, const dl_sql_expr *l, const char *op, const dl_sql_expr *r) {
    put(n, "(");
    name_expr(n, l);
    put(n, " ");
    put(n, op);
    put(n, " ");
    name_expr(n, r);
    put(n, ")");
}

static void
name_call2(namer *n, const char *fn, const dl_sql_expr *l, const dl_sql_expr *r) {
    put(n, fn);
    put(n, "(");
    name_expr(n, l);
    put(n, ", ");
    name_expr(n, r);
    put(n, ")");
}

static const char *
op_symbol(dl_sql_op op) {
    switch (op) {
    case DL_SQL_OP_OR:
        return "OR";
    case DL_SQL_OP_AND:
        return "AND";
    case DL_SQL_OP_EQ:
    case DL_SQL_OP_NE:
        return "=";
    case DL_SQL_OP_NSEQ:
    case DL_SQL_OP_IS_DISTINCT:
    case DL_SQL_OP_IS_NOT_DISTINCT:
        return "<=>";
    case DL_SQL_OP_LT:
        return "<";
    case DL_SQL_OP_LE:
        return "<=";
    case DL_SQL_OP_GT:
        return ">";
    case DL_SQL_OP_GE:
        return ">=";
    case DL_SQL_OP_ADD:
        return "+";
    case DL_SQL_OP_SUB:
        return "-";
    case DL_SQL_OP_MUL:
        return "*";
    case DL_SQL_OP_DIV:
        return "/";
    case DL_SQL_OP_MOD:
        return "%";
    case DL_SQL_OP_INTDIV:
        return "div";
    case DL_SQL_OP_BITAND:
        return "&";
    case DL_SQL_OP_BITOR:
        return "|";
    case DL_SQL_OP_BITXOR:
        return "^";
    default:
        return NULL;
    }
}

/* a <> b and a IS DISTINCT FROM b are NOT (a = b) and NOT (a <=> b) in Spark's tree. */
static void
name_binary(namer *n, const dl_sql_expr *e) {
    dl_sql_op op = e->u.binary.op;
    const dl_sql_expr *l = e->u.binary.left;
    const dl_sql_expr *r = e->u.binary.right;
    switch (op) {
    case DL_SQL_OP_CONCAT:
        name_call2(n, "concat", l, r);
        return;
    case DL_SQL_OP_SHL:
        name_call2(n, "shiftleft", l, r);
        return;
    case DL_SQL_OP_SHR:
        name_call2(n, "shiftright", l, r);
        return;
    case DL_SQL_OP_SHRU:
        name_call2(n, "shiftrightunsigned", l, r);
        return;
    default:
        break;
    }
    bool negated = op == DL_SQL_OP_NE || op == DL_SQL_OP_IS_DISTINCT;
    put(n, negated ? "(NOT " : "");
    name_infix(n, l, op_symbol(op), r);
    put(n, negated ? ")" : "");
}

static void
name_unary(namer *n, const dl_sql_expr *e) {
    const dl_sql_expr *arg = e->u.unary.arg;
    bool is_number = arg->kind == DL_SQL_EXPR_LITERAL && arg->u.lit.kind >= DL_SQL_LIT_INT &&
                     arg->u.lit.kind <= DL_SQL_LIT_FLOAT;
    switch (e->u.unary.op) {
    case DL_SQL_OP_NEG:
        if (is_number) { /* a signed number is one literal in Spark's grammar: -1.5 */
            put(n, "-");
            name_expr(n, arg);
            return;
        }
        put(n, "(- ");
        break;
    case DL_SQL_OP_PLUS:
        put(n, "(+ ");
        break;
    case DL_SQL_OP_NOT:
        put(n, "(NOT ");
        break;
    default: /* ~x */
        put(n, "~");
        name_expr(n, e->u.unary.arg);
        return;
    }
    name_expr(n, e->u.unary.arg);
    put(n, ")");
}

/* IS [NOT] NULL / UNKNOWN test for NULL; IS [NOT] TRUE / FALSE are [NOT] (x <=> true). */
static void
name_is(namer *n, const dl_sql_expr *e) {
    bool is_not = e->u.is.is_not;
    put(n, "(");
    if (e->u.is.test == DL_SQL_IS_NULL || e->u.is.test == DL_SQL_IS_UNKNOWN) {
        name_expr(n, e->u.is.arg);
        put(n, is_not ? " IS NOT NULL)" : " IS NULL)");
        return;
    }
    put(n, is_not ? "NOT (" : "");
    name_expr(n, e->u.is.arg);
    put(n, e->u.is.test == DL_SQL_IS_TRUE ? " <=> true)" : " <=> false)");
    put(n, is_not ? ")" : "");
}

/* Spark 3.5 reads x BETWEEN a AND b as (x >= a) AND (x <= b). */
static void
name_between(namer *n, const dl_sql_expr *e) {
    put(n, e->u.between.is_not ? "(NOT (" : "(");
    name_infix(n, e->u.between.arg, ">=", e->u.between.low);
    put(n, " AND ");
    name_infix(n, e->u.between.arg, "<=", e->u.between.high);
    put(n, e->u.between.is_not ? "))" : ")");
}

static void
name_list(namer *n, const dl_sql_expr_list *list) {
    for (uint32_t i = 0; i < list->n; i++) {
        put(n, i > 0 ? ", " : "");
        name_expr(n, list->items[i]);
    }
}

static void
name_in(namer *n, const dl_sql_expr *e, bool is_query) {
    bool is_not = is_query ? e->u.in_query.is_not : e->u.in_list.is_not;
    put(n, is_not ? "(NOT (" : "(");
    name_expr(n, is_query ? e->u.in_query.arg : e->u.in_list.arg);
    put(n, " IN (");
    if (is_query) {
        put(n, "listquery()");
    } else {
        name_list(n, &e->u.in_list.list);
    }
    put(n, is_not ? ")))" : "))");
}

static void
name_like(namer *n, const dl_sql_expr *e) {
    if (e->u.like.quant != DL_SQL_QUANT_NONE || e->u.like.op == DL_SQL_LIKE_ILIKE) {
        if (n->status == DL_OK) {
            n->status = dl_sql_expr_print(e, n->out, n->err);
        }
        return;
    }
    put(n, e->u.like.is_not ? "(NOT " : "");
    name_expr(n, e->u.like.arg);
    put(n, e->u.like.op == DL_SQL_LIKE_RLIKE ? " RLIKE " : " LIKE ");
    name_expr(n, e->u.like.pattern);
    put(n, e->u.like.is_not ? ")" : "");
}

/* CASE x WHEN v THEN r is CASE WHEN (x = v) THEN r in Spark's tree. */
static void
name_case(namer *n, const dl_sql_expr *e) {
    put(n, "CASE");
    for (uint32_t i = 0; i < e->u.case_.n_whens; i++) {
        put(n, " WHEN ");
        if (e->u.case_.operand != NULL) {
            name_infix(n, e->u.case_.operand, "=", e->u.case_.whens[i].cond);
        } else {
            name_expr(n, e->u.case_.whens[i].cond);
        }
        put(n, " THEN ");
        name_expr(n, e->u.case_.whens[i].result);
    }
    if (e->u.case_.else_result != NULL) {
        put(n, " ELSE ");
        name_expr(n, e->u.case_.else_result);
    }
    put(n, " END");
}

static void
name_cast(namer *n, const dl_sql_expr *e) {
    put(n, e->u.cast.is_try ? "TRY_CAST(" : "CAST(");
    name_expr(n, e->u.cast.arg);
    put(n, " AS ");
    name_type(n, e->u.cast.type);
    put(n, ")");
}

/* ---- functions and windows --------------------------------------------------------------- */

static bool
fn_is(const dl_sql_expr *e, const char *name) {
    return e->u.func.name.n_parts == 1 &&
           dl_str_eq_nocase(e->u.func.name.parts[0].name, dl_str_from_cstr(name));
}

static bool
is_ranking(const dl_sql_expr *e) {
    static const char *const names[] = {"row_number",   "rank",      "dense_rank",
                                        "percent_rank", "cume_dist", "ntile"};
    for (size_t i = 0; i < DL_ARRAY_LEN(names); i++) {
        if (fn_is(e, names[i])) {
            return true;
        }
    }
    return false;
}

static void
name_bound(namer *n, const dl_sql_frame_bound *bound) {
    switch (bound->kind) {
    case DL_SQL_BOUND_UNBOUNDED_PRECEDING:
        put(n, "UNBOUNDED PRECEDING");
        return;
    case DL_SQL_BOUND_UNBOUNDED_FOLLOWING:
        put(n, "UNBOUNDED FOLLOWING");
        return;
    case DL_SQL_BOUND_CURRENT_ROW:
        put(n, "CURRENT ROW");
        return;
    default:
        name_expr(n, bound->offset);
        put(n, bound->kind == DL_SQL_BOUND_PRECEDING ? " PRECEDING" : " FOLLOWING");
        return;
    }
}

/* The frame the analyser gives a window without one: ranking and offset functions a row
 * frame, aggregates RANGE up to the current row when ordered, else the whole partition. */
static void
name_frame(namer *n, const dl_sql_expr *e, const dl_sql_window *w) {
    if (w->frame != DL_SQL_FRAME_NONE) {
        put(n, w->frame == DL_SQL_FRAME_ROWS ? "ROWS BETWEEN " : "RANGE BETWEEN ");
        name_bound(n, &w->start);
        put(n, " AND ");
        if (w->has_between) {
            name_bound(n, &w->end);
        } else {
            put(n, "CURRENT ROW");
        }
    } else if (fn_is(e, "lag") || fn_is(e, "lead")) {
        const char *offset = e->u.func.args.n > 1 ? NULL : "1";
        put(n, "ROWS BETWEEN ");
        for (int side = 0; side < 2; side++) {
            put(n, side > 0 ? " AND " : "");
            put(n, fn_is(e, "lag") ? "-" : "");
            if (offset != NULL) {
                put(n, offset);
            } else {
                name_expr(n, e->u.func.args.items[1]);
            }
            put(n, " FOLLOWING");
        }
    } else if (is_ranking(e)) {
        put(n, "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW");
    } else if (w->order_by.n > 0) {
        put(n, "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW");
    } else {
        put(n, "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING");
    }
}

static void
name_window(namer *n, const dl_sql_expr *e, const dl_sql_window *w) {
    if (w->is_ref || w->has_base) { /* named windows: the name as written */
        put(n, " OVER ");
        put_mem(n, w->base_name.name.ptr, w->base_name.name.len);
        return;
    }
    put(n, " OVER (");
    if (w->partition_by.n > 0) {
        put(n, "PARTITION BY ");
        name_list(n, &w->partition_by);
        put(n, " ");
    }
    if (w->order_by.n > 0) {
        put(n, "ORDER BY ");
        for (uint32_t i = 0; i < w->order_by.n; i++) {
            const dl_sql_sort_item *it = &w->order_by.items[i];
            bool desc = it->dir == DL_SQL_SORT_DESC;
            bool first =
                it->nulls == DL_SQL_NULLS_ORDER_DEFAULT ? !desc : it->nulls == DL_SQL_NULLS_FIRST;
            put(n, i > 0 ? ", " : "");
            name_expr(n, it->expr);
            put(n, desc ? " DESC" : " ASC");
            put(n, first ? " NULLS FIRST" : " NULLS LAST");
        }
        put(n, " ");
    }
    name_frame(n, e, w);
    put(n, ")");
}

static void
name_func(namer *n, const dl_sql_expr *e) {
    const dl_sql_name *fn = &e->u.func.name;
    if (e->u.func.syntax == DL_SQL_FUNC_TRIM && e->u.func.args.n > 1) {
        static const char *const specs[] = {"BOTH", "BOTH", "LEADING", "TRAILING"};
        put(n, "TRIM(");
        put(n, specs[e->u.func.trim_spec]);
        put(n, " ");
        name_expr(n, e->u.func.args.items[1]);
        put(n, " FROM ");
        name_expr(n, e->u.func.args.items[0]);
        put(n, ")");
        return;
    }
    put_lower(n, fn->parts[fn->n_parts - 1].name);
    put(n, "(");
    if (e->u.func.quant == DL_SQL_QUANT_DISTINCT) {
        put(n, "DISTINCT ");
    }
    if (e->u.func.is_star) {
        put(n, "1");
    } else if (e->u.func.syntax != DL_SQL_FUNC_TRIM) {
        name_list(n, &e->u.func.args);
    } else if (e->u.func.args.n > 0) {
        name_expr(n, e->u.func.args.items[0]);
    }
    if ((fn_is(e, "lag") || fn_is(e, "lead")) && e->u.func.args.n < 3) {
        put(n, e->u.func.args.n < 2 ? ", 1, NULL" : ", NULL");
    }
    put(n, ")");
    if (e->u.func.filter != NULL) {
        put(n, " FILTER (WHERE ");
        name_expr(n, e->u.func.filter);
        put(n, ")");
    }
    if (e->u.func.over != NULL) {
        name_window(n, e, e->u.func.over);
    }
}

/* ---- the walk ---------------------------------------------------------------------------- */

static void
name_expr(namer *n, const dl_sql_expr *e) {
    if (n->status != DL_OK) {
        return;
    }
    switch (e->kind) {
    case DL_SQL_EXPR_LITERAL:
        name_literal(n, e);
        return;
    case DL_SQL_EXPR_COLUMN: {
        const dl_sql_ident *last = &e->u.column.parts[e->u.column.n_parts - 1];
        put_mem(n, last->name.ptr, last->name.len);
        return;
    }
    case DL_SQL_EXPR_UNARY:
        name_unary(n, e);
        return;
    case DL_SQL_EXPR_BINARY:
        name_binary(n, e);
        return;
    case DL_SQL_EXPR_IS:
        name_is(n, e);
        return;
    case DL_SQL_EXPR_BETWEEN:
        name_between(n, e);
        return;
    case DL_SQL_EXPR_IN_LIST:
    case DL_SQL_EXPR_IN_QUERY:
        name_in(n, e, e->kind == DL_SQL_EXPR_IN_QUERY);
        return;
    case DL_SQL_EXPR_LIKE:
        name_like(n, e);
        return;
    case DL_SQL_EXPR_EXISTS:
        put(n, "exists()");
        return;
    case DL_SQL_EXPR_SUBQUERY:
        put(n, "scalarsubquery()");
        return;
    case DL_SQL_EXPR_CASE:
        name_case(n, e);
        return;
    case DL_SQL_EXPR_CAST:
        name_cast(n, e);
        return;
    case DL_SQL_EXPR_FUNC:
        name_func(n, e);
        return;
    case DL_SQL_EXPR_SUBSCRIPT:
        name_expr(n, e->u.subscript.base);
        put(n, "[");
        name_expr(n, e->u.subscript.index);
        put(n, "]");
        return;
    case DL_SQL_EXPR_FIELD:
        name_expr(n, e->u.field.base);
        put(n, ".");
        put_mem(n, e->u.field.name.name.ptr, e->u.field.name.name.len);
        return;
    default:
        n->status = dl_sql_expr_print(e, n->out, n->err);
        return;
    }
}

dl_status
dl_sql_binder_spark_name(const dl_sql_expr *expr, dl_buf *out, dl_error *err) {
    namer n = {.out = out, .err = err, .status = DL_OK};
    name_expr(&n, expr);
    return n.status;
}
