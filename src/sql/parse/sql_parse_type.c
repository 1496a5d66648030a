/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Data types and interval literals.
 *
 *   type   := BOOLEAN | TINYINT | BYTE | SMALLINT | SHORT | INT | INTEGER | BIGINT | LONG
 *           | FLOAT | REAL | DOUBLE | DECIMAL|DEC|NUMERIC [ '(' p [',' s] ')' ] | STRING
 *           | VARCHAR '(' n ')' | CHAR|CHARACTER '(' n ')' | BINARY | DATE | TIMESTAMP
 *           | TIMESTAMP_NTZ | TIMESTAMP_LTZ | VOID | INTERVAL unit [TO unit]
 *           | ARRAY '<' type '>' | MAP '<' type ',' type '>'
 *           | STRUCT '<' [ name [':'] type [NOT NULL] [COMMENT 'c'] {, ...} ] '>'
 *
 * Type names are words, not keywords, matched in any case. A nested type's closing '>>' or
 * '>>>' reaches the parser as one shift token; closing one level splits it in place.
 *
 *   interval := INTERVAL 'text'                                   -- all in the string
 *             | INTERVAL [+|-] value unit TO unit                 -- '1-2' YEAR TO MONTH
 *             | INTERVAL [+|-] value unit { [+|-] value unit }    -- 1 DAY 2 HOURS
 * where value is a number or a string and unit one of YEAR MONTH WEEK DAY HOUR MINUTE SECOND
 * MILLISECOND MICROSECOND, singular or plural (Spark's multiUnitsInterval and
 * unitToUnitInterval). The binder turns the parts into a value (base/timefmt.h).
 */
#include "sql/parse/sql_parse_int.h"

static const struct {
    const char *name;
    dl_sql_type_kind kind;
} type_names[] = {
    {"BOOLEAN", DL_SQL_TYPE_BOOLEAN},
    {"TINYINT", DL_SQL_TYPE_TINYINT},
    {"BYTE", DL_SQL_TYPE_TINYINT},
    {"SMALLINT", DL_SQL_TYPE_SMALLINT},
    {"SHORT", DL_SQL_TYPE_SMALLINT},
    {"INT", DL_SQL_TYPE_INT},
    {"INTEGER", DL_SQL_TYPE_INT},
    {"BIGINT", DL_SQL_TYPE_BIGINT},
    {"LONG", DL_SQL_TYPE_BIGINT},
    {"FLOAT", DL_SQL_TYPE_FLOAT},
    {"REAL", DL_SQL_TYPE_FLOAT},
    {"DOUBLE", DL_SQL_TYPE_DOUBLE},
    {"DECIMAL", DL_SQL_TYPE_DECIMAL},
    {"DEC", DL_SQL_TYPE_DECIMAL},
    {"NUMERIC", DL_SQL_TYPE_DECIMAL},
    {"STRING", DL_SQL_TYPE_STRING},
    {"VARCHAR", DL_SQL_TYPE_VARCHAR},
    {"CHAR", DL_SQL_TYPE_CHAR},
    {"CHARACTER", DL_SQL_TYPE_CHAR},
    {"BINARY", DL_SQL_TYPE_BINARY},
    {"DATE", DL_SQL_TYPE_DATE},
    {"TIMESTAMP", DL_SQL_TYPE_TIMESTAMP},
    {"TIMESTAMP_NTZ", DL_SQL_TYPE_TIMESTAMP_NTZ},
    {"TIMESTAMP_LTZ", DL_SQL_TYPE_TIMESTAMP_LTZ},
    {"INTERVAL", DL_SQL_TYPE_INTERVAL},
    {"VOID", DL_SQL_TYPE_VOID},
    {"ARRAY", DL_SQL_TYPE_ARRAY},
    {"MAP", DL_SQL_TYPE_MAP},
    {"STRUCT", DL_SQL_TYPE_STRUCT},
};

dl_sql_unit
dl_sql_unit_at(const dl_sql_parser *p) {
    static const struct {
        dl_sql_kw one;
        dl_sql_kw many;
        dl_sql_unit unit;
    } units[] = {
        {DL_SQL_KW_YEAR, DL_SQL_KW_YEARS, DL_SQL_UNIT_YEAR},
        {DL_SQL_KW_MONTH, DL_SQL_KW_MONTHS, DL_SQL_UNIT_MONTH},
        {DL_SQL_KW_WEEK, DL_SQL_KW_WEEKS, DL_SQL_UNIT_WEEK},
        {DL_SQL_KW_DAY, DL_SQL_KW_DAYS, DL_SQL_UNIT_DAY},
        {DL_SQL_KW_HOUR, DL_SQL_KW_HOURS, DL_SQL_UNIT_HOUR},
        {DL_SQL_KW_MINUTE, DL_SQL_KW_MINUTES, DL_SQL_UNIT_MINUTE},
        {DL_SQL_KW_SECOND, DL_SQL_KW_SECONDS, DL_SQL_UNIT_SECOND},
        {DL_SQL_KW_MILLISECOND, DL_SQL_KW_MILLISECONDS, DL_SQL_UNIT_MILLISECOND},
        {DL_SQL_KW_MICROSECOND, DL_SQL_KW_MICROSECONDS, DL_SQL_UNIT_MICROSECOND},
    };

    for (size_t i = 0; i < DL_ARRAY_LEN(units); i++) {
        if (dl_sql_is_kw(p, units[i].one) || dl_sql_is_kw(p, units[i].many)) {
            return units[i].unit;
        }
    }
    return DL_SQL_UNIT_NONE;
}

/* Consumes one '>' closing a type, splitting a '>>' or '>>>' token in place. */
static dl_status
expect_type_close(dl_sql_parser *p, const dl_sql_token *open, const char *what) {
    dl_sql_token *t = &p->toks[p->pos];
    if (t->kind == DL_SQL_TOK_SHR || t->kind == DL_SQL_TOK_SHRU) {
        t->kind = t->kind == DL_SQL_TOK_SHR ? DL_SQL_TOK_GT : DL_SQL_TOK_SHR;
        t->off++;
        t->len--;
        t->col++;
        return DL_OK;
    }
    return dl_sql_expect_close(p, DL_SQL_TOK_GT, open, what);
}

static dl_status
parse_length(dl_sql_parser *p, const char *type_name, int32_t *out) {
    const dl_sql_token *open = dl_sql_tok(p);
    DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LPAREN));
    const dl_sql_token *num = dl_sql_tok(p);
    int64_t n;
    DL_TRY(dl_sql_parse_int(p, "a length", &n));
    if (n < 1 || n > INT32_MAX) {
        return dl_sql_fail_tok(p, num, DL_ERR_SQL_SYNTAX, "%s length must be at least 1",
                               type_name);
    }
    *out = (int32_t)n;
    return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "type parameters");
}

static dl_status
parse_decimal_params(dl_sql_parser *p, dl_sql_type *t) {
    t->precision = -1;
    t->scale = -1;
    if (!dl_sql_is(p, DL_SQL_TOK_LPAREN)) {
        return DL_OK;
    }
    const dl_sql_token *open = dl_sql_tok(p);
    dl_sql_advance(p);
    const dl_sql_token *ptok = dl_sql_tok(p);
    int64_t precision;
    DL_TRY(dl_sql_parse_int(p, "a precision", &precision));
    if (precision < 1 || precision > 38) {
        return dl_sql_fail_tok(p, ptok, DL_ERR_SQL_SYNTAX,
                               "DECIMAL precision %lld is out of range: it must be 1 to 38",
                               (long long)precision);
    }
    t->precision = (int32_t)precision;
    if (dl_sql_accept(p, DL_SQL_TOK_COMMA)) {
        const dl_sql_token *stok = dl_sql_tok(p);
        int64_t scale;
        DL_TRY(dl_sql_parse_int(p, "a scale", &scale));
        if (scale > precision) {
            return dl_sql_fail_tok(p, stok, DL_ERR_SQL_SYNTAX,
                                   "DECIMAL scale %lld exceeds its precision %lld",
                                   (long long)scale, (long long)precision);
        }
        t->scale = (int32_t)scale;
    }
    return dl_sql_expect_close(p, DL_SQL_TOK_RPAREN, open, "type parameters");
}

/* name [:] type [NOT NULL] [COMMENT 'c'] */
static dl_status
parse_struct_field(dl_sql_parser *p, dl_sql_type_field *f) {
    DL_TRY(dl_sql_parse_ident_any(p, "a field name", &f->name));
    (void)dl_sql_accept(p, DL_SQL_TOK_COLON);
    DL_TRY(dl_sql_parse_type(p, &f->type));
    if (dl_sql_accept_kw(p, DL_SQL_KW_NOT)) {
        DL_TRY(dl_sql_expect_kw(p, DL_SQL_KW_NULL));
        f->is_not_null = true;
    }
    if (dl_sql_accept_kw(p, DL_SQL_KW_COMMENT)) {
        f->has_comment = true;
        DL_TRY(dl_sql_parse_string(p, "a comment", &f->comment));
    }
    return DL_OK;
}

static dl_status
parse_struct_fields(dl_sql_parser *p, dl_sql_type *t) {
    const dl_sql_token *open = dl_sql_tok(p);
    if (dl_sql_accept(p, DL_SQL_TOK_NE)) { /* STRUCT<> */
        return DL_OK;
    }
    DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LT));
    dl_sql_vec fields = {0};
    if (!dl_sql_is(p, DL_SQL_TOK_GT)) {
        do {
            dl_sql_type_field *f;
            DL_SQL_PUSH(p, fields, f);
            DL_TRY(parse_struct_field(p, f));
        } while (dl_sql_accept(p, DL_SQL_TOK_COMMA));
    }
    t->fields = fields.data;
    t->n_fields = fields.n;
    return expect_type_close(p, open, "STRUCT<");
}

static dl_status
parse_type_args(dl_sql_parser *p, dl_sql_type *t) {
    const dl_sql_token *open = dl_sql_tok(p);
    switch (t->kind) {
    case DL_SQL_TYPE_DECIMAL:
        return parse_decimal_params(p, t);
    case DL_SQL_TYPE_VARCHAR:
        return parse_length(p, "VARCHAR", &t->length);
    case DL_SQL_TYPE_CHAR:
        return parse_length(p, "CHAR", &t->length);
    case DL_SQL_TYPE_ARRAY:
        DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LT));
        DL_TRY(dl_sql_parse_type(p, &t->elem));
        return expect_type_close(p, open, "ARRAY<");
    case DL_SQL_TYPE_MAP:
        DL_TRY(dl_sql_expect(p, DL_SQL_TOK_LT));
        DL_TRY(dl_sql_parse_type(p, &t->key));
        DL_TRY(dl_sql_expect(p, DL_SQL_TOK_COMMA));
        DL_TRY(dl_sql_parse_type(p, &t->value));
        return expect_type_close(p, open, "MAP<");
    case DL_SQL_TYPE_STRUCT:
        return parse_struct_fields(p, t);
    case DL_SQL_TYPE_INTERVAL:
        t->start_unit = dl_sql_unit_at(p);
        if (t->start_unit == DL_SQL_UNIT_NONE) {
            return dl_sql_fail_expected(p, "an interval unit (YEAR, MONTH, DAY, HOUR, ...)");
        }
        dl_sql_advance(p);
        if (dl_sql_accept_kw(p, DL_SQL_KW_TO)) {
            t->end_unit = dl_sql_unit_at(p);
            if (t->end_unit == DL_SQL_UNIT_NONE) {
                return dl_sql_fail_expected(p, "an interval unit after TO");
            }
            dl_sql_advance(p);
        }
        return DL_OK;
    default:
        return DL_OK;
    }
}

dl_status
dl_sql_parse_type(dl_sql_parser *p, dl_sql_type **out) {
    DL_TRY(dl_sql_enter(p));
    if (++p->type_depth > DL_SQL_MAX_TYPE_DEPTH) {
        return dl_sql_fail_tok(p, dl_sql_tok(p), DL_ERR_LIMIT,
                               "types nest more than %u levels deep", DL_SQL_MAX_TYPE_DEPTH);
    }
    const dl_sql_token *tok = dl_sql_tok(p);
    dl_sql_type_kind kind = (dl_sql_type_kind)0;
    for (size_t i = 0; i < DL_ARRAY_LEN(type_names) && kind == 0; i++) {
        if (dl_sql_tok_is_word(p, tok, type_names[i].name)) {
            kind = type_names[i].kind;
        }
    }
    if (kind == 0) {
        return dl_sql_fail_expected(
            p, "a type (BOOLEAN, INT, BIGINT, DOUBLE, DECIMAL, STRING, DATE, TIMESTAMP, ...)");
    }
    dl_sql_type *t;
    DL_SQL_NEW(p, t);
    t->kind = kind;
    t->loc = tok->off;
    t->precision = -1;
    t->scale = -1;
    dl_sql_advance(p);
    DL_TRY(parse_type_args(p, t));
    *out = t;
    p->type_depth--;
    dl_sql_leave(p);
    return DL_OK;
}

/* ---- interval literals -------------------------------------------------------------------- */

/* True when the tokens at k are [+|-] value unit (one more term of a multi-unit interval). */
static bool
is_interval_term(const dl_sql_parser *p, uint32_t k) {
    if (dl_sql_peek_is(p, k, DL_SQL_TOK_MINUS) || dl_sql_peek_is(p, k, DL_SQL_TOK_PLUS)) {
        k++;
    }
    if (!dl_sql_peek_is(p, k, DL_SQL_TOK_NUMBER) && !dl_sql_peek_is(p, k, DL_SQL_TOK_STRING)) {
        return false;
    }
    dl_sql_parser q = *p;
    q.pos = (uint32_t)(dl_sql_peek(p, k + 1) - p->toks);
    return dl_sql_unit_at(&q) != DL_SQL_UNIT_NONE;
}

static dl_status
parse_interval_value(dl_sql_parser *p, dl_sql_interval_part *part) {
    if (dl_sql_accept(p, DL_SQL_TOK_MINUS)) {
        part->is_negative = true;
    } else {
        (void)dl_sql_accept(p, DL_SQL_TOK_PLUS);
    }
    const dl_sql_token *t = dl_sql_tok(p);
    if (t->kind == DL_SQL_TOK_STRING || t->kind == DL_SQL_TOK_RSTRING) {
        part->is_string = true;
        return dl_sql_parse_string(p, "an interval value", &part->value);
    }
    if (t->kind != DL_SQL_TOK_NUMBER || (t->flags & (DL_SQL_NUMF_SUFFIX | DL_SQL_NUMF_EXP))) {
        return dl_sql_fail_expected(p, "an interval value (a number or a string)");
    }
    DL_TRY(dl_sql_strdup(p, p->text + t->off, t->len, &part->value));
    dl_sql_advance(p);
    return DL_OK;
}

dl_status
dl_sql_parse_interval(dl_sql_parser *p, uint32_t loc, dl_sql_expr **out) {
    dl_sql_vec parts = {0};
    do {
        dl_sql_interval_part *part;
        DL_SQL_PUSH(p, parts, part);
        DL_TRY(parse_interval_value(p, part));
        part->unit = dl_sql_unit_at(p);
        if (part->unit == DL_SQL_UNIT_NONE) {
            if (parts.n == 1 && part->is_string && !part->is_negative) {
                break; /* INTERVAL '1 day 2 hours' */
            }
            return dl_sql_fail_expected(p, "an interval unit (YEAR, MONTH, DAY, HOUR, ...)");
        }
        dl_sql_advance(p);
        if (parts.n == 1 && dl_sql_accept_kw(p, DL_SQL_KW_TO)) {
            part->to_unit = dl_sql_unit_at(p);
            if (part->to_unit == DL_SQL_UNIT_NONE) {
                return dl_sql_fail_expected(p, "an interval unit after TO");
            }
            dl_sql_advance(p);
            break;
        }
    } while (is_interval_term(p, 0));
    DL_TRY(dl_sql_new_expr(p, DL_SQL_EXPR_INTERVAL, loc, out));
    (*out)->u.interval.parts = parts.data;
    (*out)->u.interval.n_parts = parts.n;
    return DL_OK;
}
