/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The strict JSON reader (RFC 8259).
 *
 * Grammar (RFC 8259 §2-§7), in full:
 *   JSON-text = ws value ws
 *   value     = false / null / true / object / array / number / string
 *   object    = '{' ws [ member *( ws ',' ws member ) ] ws '}'      member = string ws ':' ws value
 *   array     = '[' ws [ value *( ws ',' ws value ) ] ws ']'
 *   number    = [ '-' ] ( '0' / %x31-39 *DIGIT ) [ '.' 1*DIGIT ] [ ( 'e' / 'E' ) [ '-' / '+' ]
 * 1*DIGIT ] string    = '"' *char '"'   char = any code point but '"', '\' and U+0000-U+001F, or an
 *               escape: \" \\ \/ \b \f \n \r \t \uXXXX
 *   ws        = *( %x20 / %x09 / %x0A / %x0D )
 * Text is UTF-8 (§8.1); we reject invalid UTF-8 inside strings and any non-ASCII byte outside
 * them (the grammar allows none there), and a \u escape of a surrogate that is not a high-low
 * pair (§7 allows it syntactically but it encodes no character and cannot become UTF-8).
 *
 * The parser is iterative: an explicit stack of the open containers' tape indices (bounded by
 * the depth limit) replaces recursion, so no input can exhaust the C stack. It alternates two
 * states: "a value is expected" and "a value just ended" (then the innermost open container
 * decides whether ',' or its closing bracket may follow). See json_int.h for the tape.
 *
 * Hot-path choices: white space is skipped with one comparison when absent (compact log
 * lines have none); strings are scanned 8 bytes at a time for '"', '\\', control and non-ASCII
 * bytes (dl_json_scan_plain), and a string without escapes is recorded as a view of the input
 * with no copy; integers are accumulated while their digits are checked.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "json/json_int.h"

#define INITIAL_NODES   64u
#define INITIAL_STACK   16u
#define INITIAL_SCRATCH 256u

typedef struct parser {
    dl_json_doc *doc;
    const char *text; /* first byte of the input */
    const char *end;  /* one past its last byte */
    uint32_t depth;   /* containers open */
    dl_status status; /* the failure, once one happened */
    dl_error *err;
    char found[32]; /* describe()'s output */
} parser;

/* ---- errors ------------------------------------------------------------------------------- */

/* What stands at `at`, for "found ..." in messages. */
static const char *
describe(parser *ps, const char *at) {
    int n;
    if (at >= ps->end) {
        return "end of input";
    }
    unsigned char c = (unsigned char)*at;
    if (c >= 0x20 && c < 0x7F) {
        n = snprintf(ps->found, sizeof(ps->found), "'%c'", (char)c);
    } else {
        n = snprintf(ps->found, sizeof(ps->found), "byte 0x%02X", (unsigned)c);
    }
    DL_UNUSED(n);
    return ps->found;
}

/* Records a failure at byte `at` and returns NULL, so `return fail(...)` ends a step. */
static const char *fail(parser *ps, const char *at, dl_status code, const char *fmt, ...)
    DL_PRINTF(4, 5);

static const char *
fail(parser *ps, const char *at, dl_status code, const char *fmt, ...) {
    char what[DL_ERROR_MSG_CAP];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    if (n < 0) {
        what[0] = '\0';
    }
    size_t off = (size_t)(at - ps->text);
    ps->status = code;
    DL_ERROR_WHERE(ps->err);
    (void)dl_error_set(ps->err, code, "JSON at byte %zu: %s", off, what);
    if (ps->err != NULL) {
        ps->err->offset = (int64_t)off;
    }
    return NULL;
}

/* ---- growth of the doc's arrays ----------------------------------------------------------- */

static bool
grow_nodes(parser *ps, const char *at) {
    dl_json_doc *doc = ps->doc;
    size_t cap = doc->cap_nodes == 0 ? INITIAL_NODES : (size_t)doc->cap_nodes * 2;
    cap = DL_MIN(cap, (size_t)UINT32_MAX);
    void *p = dl_mem_realloc(doc->alloc, doc->nodes, (size_t)doc->cap_nodes * sizeof(dl_json_node),
                             cap * sizeof(dl_json_node));
    if (p == NULL) {
        fail(ps, at, DL_ERR_NOMEM, "out of memory growing the JSON tape to %zu values", cap);
        return false;
    }
    doc->nodes = p;
    doc->cap_nodes = (uint32_t)cap;
    return true;
}

static bool
grow_scratch(parser *ps, const char *at, size_t extra) {
    dl_json_doc *doc = ps->doc;
    size_t need = doc->scratch_len + extra;
    size_t cap = doc->scratch_cap == 0 ? INITIAL_SCRATCH : doc->scratch_cap;
    while (cap < need) {
        cap *= 2;
    }
    void *p = dl_mem_realloc(doc->alloc, doc->scratch, doc->scratch_cap, cap);
    if (p == NULL) {
        fail(ps, at, DL_ERR_NOMEM, "out of memory growing the JSON string area to %zu bytes", cap);
        return false;
    }
    doc->scratch = p;
    doc->scratch_cap = cap;
    return true;
}

/* Appends a node of the given type starting at `at`; its index, or UINT32_MAX on NOMEM. */
static inline uint32_t
new_node(parser *ps, const char *at, dl_json_type type) {
    dl_json_doc *doc = ps->doc;
    if (DL_UNLIKELY(doc->n_nodes == doc->cap_nodes) && !grow_nodes(ps, at)) {
        return UINT32_MAX;
    }
    uint32_t idx = doc->n_nodes++;
    doc->nodes[idx] = (dl_json_node){.type = (uint8_t)type, .off = (uint32_t)(at - ps->text)};
    return idx;
}

/* ---- white space and literals ------------------------------------------------------------- */

static inline const char *
skip_ws(const char *p, const char *end) {
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (c > ' ' || (c != ' ' && c != '\n' && c != '\r' && c != '\t')) {
            break;
        }
        p++;
    }
    return p;
}

static const char *
parse_literal(parser *ps, const char *p, uint32_t idx) {
    const char *word = *p == 't' ? "true" : *p == 'f' ? "false" : "null";
    size_t n = strlen(word);
    for (size_t i = 0; i < n; i++) {
        if (p + i == ps->end || p[i] != word[i]) {
            return fail(ps, p + i, DL_ERR_CORRUPT, "invalid literal: expected '%s', found %s", word,
                        describe(ps, p + i));
        }
    }
    dl_json_node *node = &ps->doc->nodes[idx];
    node->type = (uint8_t)(*p == 'n' ? DL_JSON_NULL : DL_JSON_BOOL);
    node->is_true = *p == 't';
    node->raw_len = (uint32_t)n;
    return p + n;
}

/* ---- strings ------------------------------------------------------------------------------ */

static int
hex_value(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/* The code unit of the 4 hex digits at p; on failure, -1 and *out_bad at the bad byte. */
static int32_t
hex4(const char *p, const char *end, const char **out_bad) {
    int32_t v = 0;
    for (int i = 0; i < 4; i++) {
        int h = p + i < end ? hex_value(p[i]) : -1;
        if (h < 0) {
            *out_bad = p + i;
            return -1;
        }
        v = (v << 4) | h;
    }
    return v;
}

/* Decodes the \uXXXX escape at q (and its low-surrogate partner) to *dst, advancing it. */
static const char *
decode_unicode(parser *ps, const char *q, char **dst) {
    const char *bad = NULL;
    int32_t unit = hex4(q + 2, ps->end, &bad);
    if (unit < 0) {
        return fail(ps, bad, DL_ERR_CORRUPT, "expected 4 hex digits after '\\u', found %s",
                    describe(ps, bad));
    }
    const char *next = q + 6;
    uint32_t cp = (uint32_t)unit;
    if (unit >= 0xDC00 && unit <= 0xDFFF) {
        return fail(ps, q, DL_ERR_CORRUPT,
                    "unpaired low surrogate \\u%04X in string: it must follow a high surrogate "
                    "escape \\uD800-\\uDBFF",
                    (unsigned)unit);
    }
    if (unit >= 0xD800 && unit <= 0xDBFF) {
        int32_t low = -1;
        if (ps->end - next >= 2 && next[0] == '\\' && next[1] == 'u') {
            low = hex4(next + 2, ps->end, &bad);
            if (low < 0) {
                return fail(ps, bad, DL_ERR_CORRUPT, "expected 4 hex digits after '\\u', found %s",
                            describe(ps, bad));
            }
        }
        if (low < 0xDC00 || low > 0xDFFF) {
            return fail(ps, q, DL_ERR_CORRUPT,
                        "unpaired high surrogate \\u%04X in string: expected a low surrogate "
                        "escape \\uDC00-\\uDFFF after it",
                        (unsigned)unit);
        }
        cp = 0x10000u + (((uint32_t)unit - 0xD800u) << 10) + ((uint32_t)low - 0xDC00u);
        next += 6;
    }
    *dst += dl_utf8_encode(cp, *dst);
    return next;
}

/* Decodes the escape sequence starting with the backslash at q to *dst, advancing it. An
 * escape never decodes to more bytes than it occupies. */
static inline const char *
decode_escape(parser *ps, const char *q, char **dst) {
    char c;
    switch (q + 1 < ps->end ? q[1] : '\0') {
    case '"':
        c = '"';
        break;
    case '\\':
        c = '\\';
        break;
    case '/':
        c = '/';
        break;
    case 'b':
        c = '\b';
        break;
    case 'f':
        c = '\f';
        break;
    case 'n':
        c = '\n';
        break;
    case 'r':
        c = '\r';
        break;
    case 't':
        c = '\t';
        break;
    case 'u':
        return decode_unicode(ps, q, dst);
    default:
        return fail(ps, q + 1, DL_ERR_CORRUPT,
                    "invalid escape in string: expected one of \" \\ / b f n r t u after '\\', "
                    "found %s",
                    describe(ps, q + 1));
    }
    *(*dst)++ = c;
    return q + 2;
}

/* Fails for the byte at q that ended a string scan and is neither '"' nor '\\'. */
static const char *
fail_in_string(parser *ps, const char *open, const char *q) {
    if (q == ps->end) {
        return fail(ps, q, DL_ERR_CORRUPT,
                    "unterminated string starting at byte %zu, found end of input",
                    (size_t)(open - ps->text));
    }
    unsigned char c = (unsigned char)*q;
    if (c < 0x20) {
        return fail(ps, q, DL_ERR_CORRUPT,
                    "control character 0x%02X in string must be escaped (RFC 8259 §7)",
                    (unsigned)c);
    }
    return fail(ps, q, DL_ERR_CORRUPT, "invalid UTF-8 in string at byte 0x%02X", (unsigned)c);
}

/* Copies plain string bytes from *q to *dst until a byte needing attention (or the end),
 * eight at a time: each block is stored before it is checked, so the copy costs nothing
 * extra. Assumes: dst has room for the rest of the input plus 8 bytes. */
static inline void
copy_plain(const char **q, char **dst, const char *end) {
    const char *s = *q;
    char *d = *dst;
    for (;;) {
        if (end - s >= 8) {
            uint64_t v;
            memcpy(&v, s, sizeof(v));
            memcpy(d, &v, sizeof(v));
            uint64_t m = dl_json_special_mask(dl_json_load64(s));
            if (m != 0) {
                size_t k = (size_t)__builtin_ctzll(m) >> 3;
                s += k;
                d += k;
                break;
            }
            s += 8;
            d += 8;
        } else {
            while (s < end && !dl_json_is_special((unsigned char)*s)) {
                *d++ = *s++;
            }
            break;
        }
    }
    *q = s;
    *dst = d;
}

/*
 * The string at `open` (its quote), whose first byte needing attention is q. When that is an
 * escape, the unescaped bytes are assembled in scratch. Room for the whole rest of the input
 * is reserved first (an escape never grows, so the string cannot need more), which lets the
 * copy loop write without checks. The scratch area thus grows to at most the input's size.
 */
static const char *
parse_string_slow(parser *ps, const char *open, const char *q, uint32_t idx) {
    if (q == ps->end || *q != '\\') {
        return fail_in_string(ps, open, q);
    }
    dl_json_doc *doc = ps->doc;
    size_t need = (size_t)(ps->end - open) + 8;
    if (need > doc->scratch_cap - doc->scratch_len && !grow_scratch(ps, open, need)) {
        return NULL;
    }
    char *start = doc->scratch + doc->scratch_len;
    size_t n_plain = (size_t)(q - open - 1);
    memcpy(start, open + 1, n_plain);
    char *dst = start + n_plain;
    for (;;) {
        unsigned char c = (unsigned char)*q;
        if (c == '\\') {
            q = decode_escape(ps, q, &dst);
            if (q == NULL) {
                return NULL;
            }
        } else if (c == '"') {
            break;
        } else {
            uint32_t cp;
            size_t n = c >= 0x80 ? dl_json_utf8_seq(q, ps->end, &cp) : 0;
            if (n == 0) {
                return fail_in_string(ps, open, q);
            }
            memcpy(dst, q, n);
            dst += n;
            q += n;
        }
        copy_plain(&q, &dst, ps->end);
        if (q == ps->end) {
            return fail_in_string(ps, open, q);
        }
    }
    dl_json_node *node = &doc->nodes[idx];
    node->kind = DL_JSON_STR_ESCAPED;
    node->v.str_off = (uint32_t)doc->scratch_len;
    node->len = (uint32_t)(dst - start);
    node->raw_len = (uint32_t)(q + 1 - open);
    doc->scratch_len += node->len;
    return q + 1;
}

/* The string whose opening quote is at p, into node idx (already typed STRING). */
static inline const char *
parse_string(parser *ps, const char *p, uint32_t idx) {
    const char *q = dl_json_scan_plain(p + 1, ps->end, true);
    if (DL_LIKELY(q < ps->end && *q == '"')) {
        dl_json_node *node = &ps->doc->nodes[idx];
        node->len = (uint32_t)(q - p - 1);
        node->raw_len = (uint32_t)(q + 1 - p);
        return q + 1;
    }
    return parse_string_slow(ps, p, q, idx);
}

/* ---- numbers ------------------------------------------------------------------------------ */

static inline bool
is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* Stores a number's double value, refusing one beyond the double range. */
static const char *
finish_double(parser *ps, const char *start, const char *p, uint32_t idx, uint8_t kind) {
    size_t len = (size_t)(p - start);
    char small[64];
    char *tmp = small;
    if (len + 8 > sizeof(small)) {
        /* A long number: borrow the scratch area's free tail (not kept). */
        if (len + 8 > ps->doc->scratch_cap - ps->doc->scratch_len &&
            !grow_scratch(ps, start, len + 8)) {
            return NULL;
        }
        tmp = ps->doc->scratch + ps->doc->scratch_len;
    }
    double d = dl_json_num_to_double(start, len, tmp);
    if (!isfinite(d)) {
        return fail(ps, start, DL_ERR_LIMIT, "number %.*s%s is beyond the range of a double",
                    (int)DL_MIN(len, 40u), start, len > 40 ? "..." : "");
    }
    dl_json_node *node = &ps->doc->nodes[idx];
    node->kind = kind;
    node->v.d = d;
    node->raw_len = (uint32_t)len;
    return p;
}

/* The fraction and exponent of a number whose integer part ends at p. */
static const char *
parse_number_tail(parser *ps, const char *start, const char *p, uint32_t idx) {
    const char *end = ps->end;
    if (*p == '.') {
        p++;
        if (p == end || !is_digit(*p)) {
            return fail(ps, p, DL_ERR_CORRUPT, "expected a digit after the decimal point, found %s",
                        describe(ps, p));
        }
        while (p < end && is_digit(*p)) {
            p++;
        }
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-')) {
            p++;
        }
        if (p == end || !is_digit(*p)) {
            return fail(ps, p, DL_ERR_CORRUPT, "expected a digit in the exponent, found %s",
                        describe(ps, p));
        }
        while (p < end && is_digit(*p)) {
            p++;
        }
    }
    return finish_double(ps, start, p, idx, DL_JSON_NUM_DOUBLE);
}

/* The exact value of n_int (>= 20) digits, when it fits 64 bits. */
static bool
exact_u64(const char *digits, size_t n_int, uint64_t *out) {
    uint64_t u = 0;
    if (n_int > 20) {
        return false;
    }
    for (size_t i = 0; i < n_int; i++) {
        if (DL_MUL_OVERFLOW(u, 10u, &u) || DL_ADD_OVERFLOW(u, (uint64_t)(digits[i] - '0'), &u)) {
            return false;
        }
    }
    *out = u;
    return true;
}

static const char *
parse_number(parser *ps, const char *p, uint32_t idx) {
    const char *start = p;
    const char *end = ps->end;
    bool is_negative = *p == '-';
    p += is_negative ? 1 : 0;
    if (p == end || !is_digit(*p)) {
        return fail(ps, p, DL_ERR_CORRUPT, "expected a digit after '-', found %s", describe(ps, p));
    }
    const char *int_start = p;
    uint64_t u = 0;
    if (*p == '0') {
        p++;
        if (p < end && is_digit(*p)) {
            return fail(ps, int_start, DL_ERR_CORRUPT,
                        "leading zeros are not allowed in numbers (RFC 8259 §6)");
        }
    } else {
        do {
            u = u * 10 + (uint64_t)(*p - '0'); /* wraps beyond 19 digits; redone below */
            p++;
        } while (p < end && is_digit(*p));
    }
    if (p < end && (*p == '.' || *p == 'e' || *p == 'E')) {
        return parse_number_tail(ps, start, p, idx);
    }
    size_t n_int = (size_t)(p - int_start);
    if (n_int > 19 && !exact_u64(int_start, n_int, &u)) {
        return finish_double(ps, start, p, idx, DL_JSON_NUM_BIGINT);
    }
    const uint64_t min_magnitude = (uint64_t)INT64_MAX + 1;
    if (is_negative && u > min_magnitude) {
        return finish_double(ps, start, p, idx, DL_JSON_NUM_BIGINT);
    }
    dl_json_node *node = &ps->doc->nodes[idx];
    node->raw_len = (uint32_t)(p - start);
    if (is_negative) {
        node->kind = DL_JSON_NUM_INT64;
        node->v.i = u == min_magnitude ? INT64_MIN : -(int64_t)u;
    } else if (u <= (uint64_t)INT64_MAX) {
        node->kind = DL_JSON_NUM_INT64;
        node->v.i = (int64_t)u;
    } else {
        node->kind = DL_JSON_NUM_UINT64;
        node->v.u = u;
    }
    return p;
}

/* ---- containers --------------------------------------------------------------------------- */

static const char *
open_container(parser *ps, const char *p, dl_json_type type) {
    dl_json_doc *doc = ps->doc;
    if (ps->depth >= doc->max_depth) {
        return fail(ps, p, DL_ERR_LIMIT, "nesting deeper than the limit of %u arrays and objects",
                    (unsigned)doc->max_depth);
    }
    if (ps->depth == doc->stack_cap) {
        size_t cap = doc->stack_cap == 0 ? INITIAL_STACK : (size_t)doc->stack_cap * 2;
        cap = DL_MIN(cap, (size_t)doc->max_depth);
        void *s = dl_mem_realloc(doc->alloc, doc->stack, doc->stack_cap * sizeof(uint32_t),
                                 cap * sizeof(uint32_t));
        if (s == NULL) {
            return fail(ps, p, DL_ERR_NOMEM, "out of memory growing the JSON nesting stack");
        }
        doc->stack = s;
        doc->stack_cap = (uint32_t)cap;
    }
    uint32_t idx = new_node(ps, p, type);
    if (idx == UINT32_MAX) {
        return NULL;
    }
    doc->stack[ps->depth++] = idx;
    return p + 1;
}

/* Closes the innermost container, whose closing bracket is at p. */
static inline const char *
close_container(parser *ps, const char *p) {
    dl_json_doc *doc = ps->doc;
    dl_json_node *node = &doc->nodes[doc->stack[--ps->depth]];
    node->v.next = doc->n_nodes;
    node->raw_len = (uint32_t)(p + 1 - ps->text) - node->off;
    return p + 1;
}

/* A member key at p (after white space) and the ':' after it; `after` names what preceded. */
static const char *
parse_key(parser *ps, const char *p, const char *after) {
    if (p == ps->end || *p != '"') {
        return fail(ps, p, DL_ERR_CORRUPT, "expected '\"' to start a member key after %s, found %s",
                    after, describe(ps, p));
    }
    uint32_t idx = new_node(ps, p, DL_JSON_STRING);
    if (idx == UINT32_MAX) {
        return NULL;
    }
    p = parse_string(ps, p, idx);
    if (p == NULL) {
        return NULL;
    }
    p = skip_ws(p, ps->end);
    if (p == ps->end || *p != ':') {
        return fail(ps, p, DL_ERR_CORRUPT, "expected ':' after object member key, found %s",
                    describe(ps, p));
    }
    return skip_ws(p + 1, ps->end);
}

/* ---- the two states ----------------------------------------------------------------------- */

/* A value is expected at p. Sets *out_want_value when the next step expects another value
 * (p is then inside a container just opened, or after a member key). */
static const char *
step_value(parser *ps, const char *p, bool *out_want_value) {
    dl_json_doc *doc = ps->doc;
    p = skip_ws(p, ps->end);
    if (p == ps->end) {
        return fail(ps, p, DL_ERR_CORRUPT, "expected a value, found end of input");
    }
    if (ps->depth > 0) {
        doc->nodes[doc->stack[ps->depth - 1]].len++;
    }
    *out_want_value = false;
    char c = *p;
    switch (c) {
    case '{':
    case '[': {
        bool is_object = c == '{';
        p = open_container(ps, p, is_object ? DL_JSON_OBJECT : DL_JSON_ARRAY);
        p = p != NULL ? skip_ws(p, ps->end) : NULL;
        if (p != NULL && p < ps->end && *p == (is_object ? '}' : ']')) {
            return close_container(ps, p);
        }
        *out_want_value = true;
        return p != NULL && is_object ? parse_key(ps, p, "'{'") : p;
    }
    default:
        break;
    }
    dl_json_type type = c == '"'                               ? DL_JSON_STRING
                        : (c == 't' || c == 'f' || c == 'n')   ? DL_JSON_BOOL
                        : (c == '-' || (c >= '0' && c <= '9')) ? DL_JSON_NUMBER
                                                               : DL_JSON_MISSING;
    if (type == DL_JSON_MISSING) {
        return fail(ps, p, DL_ERR_CORRUPT, "expected a value, found %s", describe(ps, p));
    }
    uint32_t idx = new_node(ps, p, type);
    if (idx == UINT32_MAX) {
        return NULL;
    }
    if (type == DL_JSON_STRING) {
        return parse_string(ps, p, idx);
    }
    return type == DL_JSON_NUMBER ? parse_number(ps, p, idx) : parse_literal(ps, p, idx);
}

/* A value just ended at p inside an open container: ',' or the closing bracket follows. */
static const char *
step_after(parser *ps, const char *p, bool *out_want_value) {
    dl_json_doc *doc = ps->doc;
    p = skip_ws(p, ps->end);
    bool is_object = doc->nodes[doc->stack[ps->depth - 1]].type == DL_JSON_OBJECT;
    char c = '\0';
    if (p < ps->end) {
        c = *p;
    }
    if (c == ',') {
        *out_want_value = true;
        return is_object ? parse_key(ps, skip_ws(p + 1, ps->end), "','") : p + 1;
    }
    if (c == (is_object ? '}' : ']') && p < ps->end) {
        *out_want_value = false;
        return close_container(ps, p);
    }
    if (is_object) {
        return fail(ps, p, DL_ERR_CORRUPT, "expected ',' or '}' after object member, found %s",
                    describe(ps, p));
    }
    return fail(ps, p, DL_ERR_CORRUPT, "expected ',' or ']' after array element, found %s",
                describe(ps, p));
}

static dl_status
parse_text(parser *ps, bool is_first_only) {
    const char *p = ps->text;
    bool want_value = true;
    for (;;) {
        if (want_value) {
            p = step_value(ps, p, &want_value);
        } else if (ps->depth > 0) {
            p = step_after(ps, p, &want_value);
        } else {
            break;
        }
        if (DL_UNLIKELY(p == NULL)) {
            return ps->status;
        }
    }
    p = skip_ws(p, ps->end);
    if (p != ps->end && !is_first_only) {
        fail(ps, p, DL_ERR_CORRUPT,
             "unexpected %s after the top-level value (only white space "
             "may follow it)",
             describe(ps, p));
        return ps->status;
    }
    return DL_OK;
}

/* ---- the doc ------------------------------------------------------------------------------ */

void
dl_json_doc_init(dl_json_doc *doc, const dl_allocator *alloc) {
    memset(doc, 0, sizeof(*doc));
    doc->max_size = DL_JSON_DEFAULT_MAX_SIZE;
    doc->max_depth = DL_JSON_DEFAULT_MAX_DEPTH;
    doc->alloc = alloc;
}

void
dl_json_doc_destroy(dl_json_doc *doc) {
    if (doc == NULL) {
        return;
    }
    dl_mem_free(doc->alloc, doc->nodes, (size_t)doc->cap_nodes * sizeof(dl_json_node));
    dl_mem_free(doc->alloc, doc->scratch, doc->scratch_cap);
    dl_mem_free(doc->alloc, doc->stack, (size_t)doc->stack_cap * sizeof(uint32_t));
    size_t max_size = doc->max_size;
    uint32_t max_depth = doc->max_depth;
    dl_json_doc_init(doc, doc->alloc);
    doc->max_size = max_size;
    doc->max_depth = max_depth;
}

static dl_status
parse_doc(dl_json_doc *doc, const char *text, size_t len, bool is_first_only, dl_error *err) {
    doc->is_parsed = false;
    doc->text = NULL;
    doc->text_len = 0;
    doc->n_nodes = 0;
    doc->scratch_len = 0;
    DL_CHECK(doc->max_depth >= 1, err, DL_ERR_INVALID_ARG, "JSON depth limit must be at least 1");
    DL_CHECK(doc->max_size <= DL_JSON_MAX_SIZE_CAP, err, DL_ERR_INVALID_ARG,
             "JSON size limit %zu exceeds the largest supported, %zu bytes", doc->max_size,
             DL_JSON_MAX_SIZE_CAP);
    DL_CHECK(text != NULL || len == 0, err, DL_ERR_INVALID_ARG, "JSON text is NULL");
    if (len > doc->max_size) {
        DL_ERROR_WHERE(err);
        (void)dl_error_set(err, DL_ERR_LIMIT,
                           "JSON text of %zu bytes exceeds the size limit of %zu bytes", len,
                           doc->max_size);
        if (err != NULL) {
            err->offset = (int64_t)doc->max_size;
        }
        return DL_ERR_LIMIT;
    }
    parser ps = {
        .doc = doc,
        .text = text != NULL ? text : "",
        .end = (text != NULL ? text : "") + len,
        .err = err,
    };
    dl_status s = parse_text(&ps, is_first_only);
    if (s != DL_OK) {
        doc->n_nodes = 0;
        doc->scratch_len = 0;
        return s;
    }
    doc->text = ps.text;
    doc->text_len = len;
    doc->is_parsed = true;
    return DL_OK;
}

dl_status
dl_json_doc_parse(dl_json_doc *doc, const char *text, size_t len, dl_error *err) {
    return parse_doc(doc, text, len, false, err);
}

dl_status
dl_json_doc_parse_first(dl_json_doc *doc, const char *text, size_t len, dl_error *err) {
    return parse_doc(doc, text, len, true, err);
}

dl_json_val
dl_json_doc_root(const dl_json_doc *doc) {
    dl_json_val v = {.doc = NULL, .idx = 0};
    if (doc != NULL && doc->is_parsed && doc->n_nodes > 0) {
        v.doc = doc;
    }
    return v;
}
