/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The streaming JSON writer: compact RFC 8259 text (no white space), as Spark writes Delta
 * log lines.
 *
 * State. Each open container has one level byte (LEVEL_OBJECT when it is an object,
 * LEVEL_HAS_ITEMS once something was written in it, so the next item needs a ','). The
 * levels live in a small inline array and move to the heap only for deep nesting. Besides
 * them the writer remembers whether a key is waiting for its value and whether the top-level
 * value is complete. Every call checks the state before it appends anything, so misuse
 * leaves the output unchanged.
 *
 * Strings (RFC 8259 §7): '"' and '\\' are escaped, control characters get their short escape
 * (\b \f \n \r \t) or \u00XX, '/' and DEL are left alone. Other bytes are copied unless the
 * writer escapes non-ASCII, which writes \uXXXX (a surrogate pair above U+FFFF). Input must be
 * valid UTF-8 so that the output is valid JSON: the scan that finds bytes to escape checks
 * every non-ASCII sequence on the way.
 */
#include "json/json_int.h"

#define LEVEL_OBJECT    1u
#define LEVEL_HAS_ITEMS 2u

static inline uint8_t *
levels(dl_json_writer *w) {
    return w->heap_levels != NULL ? w->heap_levels : w->inline_levels;
}

void
dl_json_writer_init(dl_json_writer *w, dl_buf *out, unsigned flags) {
    memset(w, 0, sizeof(*w));
    w->out = out;
    w->flags = flags;
}

void
dl_json_writer_destroy(dl_json_writer *w) {
    if (w == NULL) {
        return;
    }
    dl_mem_free(w->out->alloc, w->heap_levels, w->levels_cap);
    w->heap_levels = NULL;
    w->levels_cap = 0;
    dl_json_writer_reset(w);
}

void
dl_json_writer_reset(dl_json_writer *w) {
    w->depth = 0;
    w->is_after_key = false;
    w->is_done = false;
}

dl_status
dl_json_writer_finish(const dl_json_writer *w, dl_error *err) {
    DL_CHECK(w->depth == 0, err, DL_ERR_INVALID_ARG,
             "JSON writer: %u array(s) or object(s) are still open", (unsigned)w->depth);
    DL_CHECK(w->is_done, err, DL_ERR_INVALID_ARG, "JSON writer: no value was written");
    return DL_OK;
}

/* Checks that a value may come now and writes the ',' it needs. */
static dl_status
before_value(dl_json_writer *w, dl_error *err) {
    if (w->depth == 0) {
        DL_CHECK(!w->is_done, err, DL_ERR_INVALID_ARG,
                 "JSON writer: the document already has its top-level value (reset the writer "
                 "to start another)");
        return DL_OK;
    }
    uint8_t *level = &levels(w)[w->depth - 1];
    if (*level & LEVEL_OBJECT) {
        DL_CHECK(w->is_after_key, err, DL_ERR_INVALID_ARG,
                 "JSON writer: a value inside an object needs a key first");
        w->is_after_key = false;
        return DL_OK;
    }
    if (*level & LEVEL_HAS_ITEMS) {
        DL_TRY(dl_buf_append_byte(w->out, ',', err));
    }
    *level |= LEVEL_HAS_ITEMS;
    return DL_OK;
}

static inline void
after_value(dl_json_writer *w) {
    if (w->depth == 0) {
        w->is_done = true;
    }
}

/* ---- strings ------------------------------------------------------------------------------ */

static const char hex_digits[] = "0123456789abcdef";

static void
put_u_escape(char *out, uint32_t unit) {
    out[0] = '\\';
    out[1] = 'u';
    out[2] = hex_digits[(unit >> 12) & 0xF];
    out[3] = hex_digits[(unit >> 8) & 0xF];
    out[4] = hex_digits[(unit >> 4) & 0xF];
    out[5] = hex_digits[unit & 0xF];
}

/* The escape for the byte or sequence at p (which needs one), into esc; its length. 0 and
 * *out_n == 0 when p starts invalid UTF-8. *out_n receives the input bytes consumed. */
static size_t
escape_at(const char *p, const char *end, char esc[12], size_t *out_n) {
    unsigned char c = (unsigned char)*p;
    *out_n = 1;
    esc[0] = '\\';
    switch (c) {
    case '"':
    case '\\':
        esc[1] = (char)c;
        return 2;
    case '\b':
        esc[1] = 'b';
        return 2;
    case '\f':
        esc[1] = 'f';
        return 2;
    case '\n':
        esc[1] = 'n';
        return 2;
    case '\r':
        esc[1] = 'r';
        return 2;
    case '\t':
        esc[1] = 't';
        return 2;
    default:
        break;
    }
    if (c < 0x20) {
        put_u_escape(esc, c);
        return 6;
    }
    uint32_t cp;
    size_t n = dl_json_utf8_seq(p, end, &cp);
    *out_n = n;
    if (n == 0) {
        return 0;
    }
    if (cp < 0x10000) {
        put_u_escape(esc, cp);
        return 6;
    }
    cp -= 0x10000;
    put_u_escape(esc, 0xD800 + (cp >> 10));
    put_u_escape(esc + 6, 0xDC00 + (cp & 0x3FF));
    return 12;
}

/* Appends s quoted and escaped. On an error nothing is appended. */
static dl_status
append_string(dl_json_writer *w, dl_str s, dl_error *err) {
    dl_buf *out = w->out;
    size_t saved_len = out->len;
    bool is_utf8_plain = (w->flags & DL_JSON_WRITE_ESCAPE_NON_ASCII) == 0;
    const char *p = s.len > 0 ? s.ptr : "";
    const char *end = p + s.len;
    DL_TRY(dl_buf_reserve(out, s.len + 2, err));
    dl_buf_append_unchecked(out, "\"", 1);
    for (;;) {
        const char *run = p;
        p = dl_json_scan_plain(p, end, is_utf8_plain);
        dl_status st = dl_buf_append(out, run, (size_t)(p - run), err);
        if (st != DL_OK) {
            out->len = saved_len;
            return st;
        }
        if (p == end) {
            break;
        }
        char esc[12];
        size_t consumed;
        size_t n = escape_at(p, end, esc, &consumed);
        if (n == 0) {
            out->len = saved_len;
            DL_FAIL(err, DL_ERR_INVALID_ARG,
                    "JSON writer: string is not valid UTF-8 (byte 0x%02X at offset %zu)",
                    (unsigned)(unsigned char)*p, (size_t)(p - s.ptr));
        }
        st = dl_buf_append(out, esc, n, err);
        if (st != DL_OK) {
            out->len = saved_len;
            return st;
        }
        p += consumed;
    }
    dl_status st = dl_buf_append_byte(out, '"', err);
    if (st != DL_OK) {
        out->len = saved_len;
    }
    return st;
}

/* ---- containers --------------------------------------------------------------------------- */

static dl_status
push_level(dl_json_writer *w, uint8_t level, dl_error *err) {
    if (w->depth < DL_JSON_WRITER_INLINE_DEPTH && w->heap_levels == NULL) {
        w->inline_levels[w->depth++] = level;
        return DL_OK;
    }
    if (w->depth >= w->levels_cap) {
        DL_CHECK(w->depth < UINT32_MAX / 2, err, DL_ERR_INVALID_ARG,
                 "JSON writer: nesting too deep");
        uint32_t cap = w->levels_cap == 0 ? 2 * DL_JSON_WRITER_INLINE_DEPTH : 2 * w->levels_cap;
        uint8_t *p = dl_mem_realloc(w->out->alloc, w->heap_levels, w->levels_cap, cap);
        DL_CHECK(p != NULL, err, DL_ERR_NOMEM, "out of memory nesting JSON %u levels deep",
                 (unsigned)cap);
        if (w->heap_levels == NULL) {
            memcpy(p, w->inline_levels, w->depth);
        }
        w->heap_levels = p;
        w->levels_cap = cap;
    }
    w->heap_levels[w->depth++] = level;
    return DL_OK;
}

static dl_status
begin(dl_json_writer *w, bool is_object, dl_error *err) {
    DL_TRY(before_value(w, err));
    DL_TRY(push_level(w, is_object ? LEVEL_OBJECT : 0, err));
    dl_status st = dl_buf_append_byte(w->out, is_object ? '{' : '[', err);
    if (st != DL_OK) {
        w->depth--;
    }
    return st;
}

static dl_status
end(dl_json_writer *w, bool is_object, dl_error *err) {
    const char *name = is_object ? "object" : "array";
    DL_CHECK(w->depth > 0, err, DL_ERR_INVALID_ARG, "JSON writer: end of %s without a begin", name);
    uint8_t level = levels(w)[w->depth - 1];
    DL_CHECK(((level & LEVEL_OBJECT) != 0) == is_object, err, DL_ERR_INVALID_ARG,
             "JSON writer: end of %s while an %s is open", name, is_object ? "array" : "object");
    DL_CHECK(!w->is_after_key, err, DL_ERR_INVALID_ARG,
             "JSON writer: end of object right after a key (the key needs a value)");
    DL_TRY(dl_buf_append_byte(w->out, is_object ? '}' : ']', err));
    w->depth--;
    after_value(w);
    return DL_OK;
}

dl_status
dl_json_writer_begin_object(dl_json_writer *w, dl_error *err) {
    return begin(w, true, err);
}

dl_status
dl_json_writer_end_object(dl_json_writer *w, dl_error *err) {
    return end(w, true, err);
}

dl_status
dl_json_writer_begin_array(dl_json_writer *w, dl_error *err) {
    return begin(w, false, err);
}

dl_status
dl_json_writer_end_array(dl_json_writer *w, dl_error *err) {
    return end(w, false, err);
}

dl_status
dl_json_writer_key(dl_json_writer *w, dl_str key, dl_error *err) {
    DL_CHECK(w->depth > 0 && (levels(w)[w->depth - 1] & LEVEL_OBJECT) != 0, err, DL_ERR_INVALID_ARG,
             "JSON writer: a key outside an object");
    DL_CHECK(!w->is_after_key, err, DL_ERR_INVALID_ARG,
             "JSON writer: two keys in a row (the first needs a value)");
    uint8_t *level = &levels(w)[w->depth - 1];
    size_t saved_len = w->out->len;
    if (*level & LEVEL_HAS_ITEMS) {
        DL_TRY(dl_buf_append_byte(w->out, ',', err));
    }
    dl_status st = append_string(w, key, err);
    if (st == DL_OK) {
        st = dl_buf_append_byte(w->out, ':', err);
    }
    if (st != DL_OK) {
        w->out->len = saved_len;
        return st;
    }
    *level |= LEVEL_HAS_ITEMS;
    w->is_after_key = true;
    return DL_OK;
}

dl_status
dl_json_writer_key_cstr(dl_json_writer *w, const char *key, dl_error *err) {
    return dl_json_writer_key(w, dl_str_from_cstr(key), err);
}

/* ---- scalars ------------------------------------------------------------------------------ */

/* Writes a value whose text is already known, after the state checks. */
static dl_status
scalar(dl_json_writer *w, const char *text, size_t len, dl_error *err) {
    size_t saved_len = w->out->len;
    bool was_after_key = w->is_after_key;
    uint8_t saved_level = w->depth > 0 ? levels(w)[w->depth - 1] : 0;
    DL_TRY(before_value(w, err));
    dl_status st = dl_buf_append(w->out, text, len, err);
    if (st != DL_OK) {
        w->out->len = saved_len;
        w->is_after_key = was_after_key;
        if (w->depth > 0) {
            levels(w)[w->depth - 1] = saved_level;
        }
        return st;
    }
    after_value(w);
    return DL_OK;
}

dl_status
dl_json_writer_string(dl_json_writer *w, dl_str s, dl_error *err) {
    size_t saved_len = w->out->len;
    bool was_after_key = w->is_after_key;
    uint8_t saved_level = w->depth > 0 ? levels(w)[w->depth - 1] : 0;
    DL_TRY(before_value(w, err));
    dl_status st = append_string(w, s, err);
    if (st != DL_OK) {
        w->out->len = saved_len;
        w->is_after_key = was_after_key;
        if (w->depth > 0) {
            levels(w)[w->depth - 1] = saved_level;
        }
        return st;
    }
    after_value(w);
    return DL_OK;
}

dl_status
dl_json_writer_string_cstr(dl_json_writer *w, const char *s, dl_error *err) {
    return dl_json_writer_string(w, dl_str_from_cstr(s), err);
}

dl_status
dl_json_writer_int64(dl_json_writer *w, int64_t v, dl_error *err) {
    char text[24];
    size_t n = dl_json_num_format_i64(v, text);
    return scalar(w, text, n, err);
}

dl_status
dl_json_writer_uint64(dl_json_writer *w, uint64_t v, dl_error *err) {
    char text[24];
    size_t n = dl_json_num_format_u64(v, text);
    return scalar(w, text, n, err);
}

dl_status
dl_json_writer_double(dl_json_writer *w, double v, dl_error *err) {
    char text[32];
    size_t n = dl_json_format_double(v, text);
    DL_CHECK(n > 0, err, DL_ERR_INVALID_ARG,
             "JSON writer: %s cannot be written (JSON has no NaN or infinity)",
             v != v ? "NaN" : "an infinity");
    return scalar(w, text, n, err);
}

dl_status
dl_json_writer_bool(dl_json_writer *w, bool v, dl_error *err) {
    return v ? scalar(w, "true", 4, err) : scalar(w, "false", 5, err);
}

dl_status
dl_json_writer_null(dl_json_writer *w, dl_error *err) {
    return scalar(w, "null", 4, err);
}

dl_status
dl_json_writer_raw(dl_json_writer *w, dl_str json, dl_error *err) {
    DL_CHECK(json.len > 0, err, DL_ERR_INVALID_ARG, "JSON writer: raw JSON text is empty");
    return scalar(w, json.ptr, json.len, err);
}

/* ---- parsed values ------------------------------------------------------------------------ */

static dl_status
write_scalar_node(dl_json_writer *w, const dl_json_doc *doc, const dl_json_node *n, dl_error *err) {
    switch ((dl_json_type)n->type) {
    case DL_JSON_NULL:
        return dl_json_writer_null(w, err);
    case DL_JSON_BOOL:
        return dl_json_writer_bool(w, n->is_true != 0, err);
    case DL_JSON_STRING:
        return dl_json_writer_string(w, dl_json_node_str(doc, n), err);
    case DL_JSON_NUMBER:
        switch ((dl_json_num_kind)n->kind) {
        case DL_JSON_NUM_INT64:
            return dl_json_writer_int64(w, n->v.i, err);
        case DL_JSON_NUM_UINT64:
            return dl_json_writer_uint64(w, n->v.u, err);
        case DL_JSON_NUM_DOUBLE:
            return dl_json_writer_double(w, n->v.d, err);
        case DL_JSON_NUM_BIGINT:
        case DL_JSON_NUM_NONE:
        default:
            return dl_json_writer_raw(w, dl_str_make(doc->text + n->off, n->raw_len), err);
        }
    case DL_JSON_ARRAY:
    case DL_JSON_OBJECT:
    case DL_JSON_MISSING:
    default:
        DL_FAIL(err, DL_ERR_INTERNAL, "JSON writer: node type %u is not a scalar",
                (unsigned)n->type);
    }
}

typedef struct end_stack {
    uint32_t *ends; /* tape index where each open container's subtree ends */
    uint32_t n;
    uint32_t cap;
    uint32_t inline_ends[64];
} end_stack;

static dl_status
end_stack_push(end_stack *st, const dl_allocator *alloc, uint32_t end_idx, dl_error *err) {
    if (st->n == st->cap) {
        uint32_t cap = st->cap * 2;
        bool is_inline = st->ends == st->inline_ends;
        uint32_t *p = dl_mem_realloc(alloc, is_inline ? NULL : st->ends,
                                     is_inline ? 0 : st->cap * sizeof(uint32_t),
                                     (size_t)cap * sizeof(uint32_t));
        DL_CHECK(p != NULL, err, DL_ERR_NOMEM, "out of memory writing deeply nested JSON");
        if (is_inline) {
            memcpy(p, st->inline_ends, sizeof(st->inline_ends));
        }
        st->ends = p;
        st->cap = cap;
    }
    st->ends[st->n++] = end_idx;
    return DL_OK;
}

/* Writes the subtree at nodes[idx, stop) in tape order, closing containers as their subtree
 * ends; inside an object the writer's own state tells keys from values. */
static dl_status
write_tape(dl_json_writer *w, const dl_json_doc *doc, uint32_t idx, end_stack *st, dl_error *err) {
    const dl_json_node *nodes = doc->nodes;
    uint32_t stop = dl_json_node_skip(nodes, idx);
    const dl_allocator *alloc = w->out->alloc;
    while (idx < stop) {
        const dl_json_node *n = &nodes[idx];
        bool is_key = st->n > 0 && (levels(w)[w->depth - 1] & LEVEL_OBJECT) && !w->is_after_key;
        if (is_key) {
            DL_TRY(dl_json_writer_key(w, dl_json_node_str(doc, n), err));
        } else if (n->type == DL_JSON_ARRAY || n->type == DL_JSON_OBJECT) {
            DL_TRY(begin(w, n->type == DL_JSON_OBJECT, err));
            DL_TRY(end_stack_push(st, alloc, n->v.next, err));
        } else {
            DL_TRY(write_scalar_node(w, doc, n, err));
        }
        idx++;
        while (st->n > 0 && st->ends[st->n - 1] == idx) {
            DL_TRY(end(w, (levels(w)[w->depth - 1] & LEVEL_OBJECT) != 0, err));
            st->n--;
        }
    }
    return DL_OK;
}

dl_status
dl_json_writer_value(dl_json_writer *w, dl_json_val v, dl_error *err) {
    DL_CHECK(v.doc != NULL, err, DL_ERR_INVALID_ARG,
             "JSON writer: cannot write a missing JSON value");
    end_stack st;
    st.ends = st.inline_ends;
    st.n = 0;
    st.cap = (uint32_t)DL_ARRAY_LEN(st.inline_ends);
    dl_status s = write_tape(w, v.doc, v.idx, &st, err);
    if (st.ends != st.inline_ends) {
        dl_mem_free(w->out->alloc, st.ends, st.cap * sizeof(uint32_t));
    }
    return s;
}
