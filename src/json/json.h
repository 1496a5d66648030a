/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The json part's interface: a strict RFC 8259 reader and a streaming writer.
 *
 * Reading. A dl_json_doc is a reusable parser and document in one: dl_json_doc_parse fills a
 * flat tape of nodes (one per value, in document order) that lives in growable arrays owned by
 * the doc and reused by the next parse, so parsing line after line of a Delta commit file
 * allocates nothing once the arrays have grown to the largest line. Strings without escapes
 * are views into the input; strings with escapes are unescaped into a scratch area of the doc.
 * Numbers are converted while parsing (integers exactly, doubles correctly rounded).
 *
 * Values are handled through dl_json_val, a {doc, index} pair passed by value. Lookups that
 * find nothing return a "missing" value (type DL_JSON_MISSING) instead of failing, so chains
 * such as dl_json_obj_get(dl_json_obj_get(root, "add"), "path") are safe; the typed getters
 * then report what is missing or mistyped as a dl_error.
 *
 * Lifetime: every dl_json_val, dl_json_iter and dl_str obtained from a doc is valid until the
 * doc's next parse or its destroy, and only while the input text passed to the parse stays
 * valid and unchanged (the doc keeps pointers into it, never a copy).
 *
 * Decisions the caller should know:
 * - Strict: no comments, no trailing commas, no single quotes, no NaN/Infinity, no leading
 *   zeros, no leading '+', nothing but white space after the value, only valid UTF-8 inside
 *   strings (checked byte by byte, no overlongs, no encoded surrogates), \u escapes of
 *   surrogates only as a high-low pair. Bytes outside strings must be JSON's own ASCII.
 * - Integers (no fraction, no exponent) are exact: int64 when they fit, else uint64 when they
 *   fit. An integer outside both ranges is accepted (RFC 8259 allows it) with the kind
 *   DL_JSON_NUM_BIGINT: its exact text stays available through dl_json_val_raw, get_double
 *   gives it correctly rounded, and get_int64/get_uint64 refuse it with a clear error. "-0"
 *   is the integer 0; "-0.0" is the double -0.0.
 * - A number whose magnitude exceeds the double range (e.g. 1e400) is refused (DL_ERR_LIMIT);
 *   tiny numbers round correctly to subnormals or zero.
 * - Duplicate object keys are all kept: iteration sees every member in input order, and
 *   dl_json_obj_get returns the LAST member with the key (as JavaScript's JSON.parse does).
 * - Limits: input size (default 2 GiB, at most 4 GiB - 1 as offsets are 32-bit) and nesting
 *   depth (default 512 nested arrays/objects) are fields of the doc, set before parsing.
 * - A UTF-8 byte order mark is refused like any other byte outside the grammar (RFC 8259 §8.1
 *   forbids generating one; Delta logs have none).
 *
 * Threads: a doc or a writer is used by one thread at a time; distinct ones are independent.
 * Number conversion reads the C locale's decimal point (localeconv), so a program must not
 * call setlocale while another thread parses or writes.
 *
 * Errors from malformed input are DL_ERR_CORRUPT (limits: DL_ERR_LIMIT) with a message of the
 * form "JSON at byte 1234: expected ',' or '}' after object member, found 'x'" and the offset
 * also in dl_error.offset. The offset is relative to the text passed to the parse; a caller
 * parsing lines of a file adds the line's offset and number as context.
 *
 * Writing. A dl_json_writer appends compact JSON (no spaces, like Spark's log lines) to a
 * dl_buf, checking that calls form one well-nested value (misuse is DL_ERR_INVALID_ARG).
 */
#ifndef DL_JSON_JSON_H
#define DL_JSON_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/buf.h"
#include "base/compiler.h"
#include "base/error.h"
#include "base/str.h"

/* ------------------------------------------------------------------------------------------ */
/* Reading                                                                                     */

#define DL_JSON_DEFAULT_MAX_SIZE  ((size_t)2 << 30) /* 2 GiB */
#define DL_JSON_DEFAULT_MAX_DEPTH 512u
#define DL_JSON_MAX_SIZE_CAP      ((size_t)UINT32_MAX - 1) /* largest allowed max_size */

typedef enum dl_json_type {
    DL_JSON_MISSING = 0, /* not a value: a failed lookup, or a default-initialised dl_json_val */
    DL_JSON_NULL = 1,
    DL_JSON_BOOL = 2,
    DL_JSON_NUMBER = 3,
    DL_JSON_STRING = 4,
    DL_JSON_ARRAY = 5,
    DL_JSON_OBJECT = 6,
} dl_json_type;

/* How a number was written and is stored. */
typedef enum dl_json_num_kind {
    DL_JSON_NUM_NONE = 0,   /* not a number */
    DL_JSON_NUM_INT64 = 1,  /* an integer in [INT64_MIN, INT64_MAX] */
    DL_JSON_NUM_UINT64 = 2, /* an integer in (INT64_MAX, UINT64_MAX] */
    DL_JSON_NUM_DOUBLE = 3, /* written with a fraction or an exponent */
    DL_JSON_NUM_BIGINT = 4, /* an integer outside both 64-bit ranges (kept as raw text) */
} dl_json_num_kind;

struct dl_json_node; /* one tape entry; see json_int.h */

/*
 * A reusable parser and the document of its last parse (caller storage: init/destroy).
 * Only max_size and max_depth are for the caller to set; the other fields are private.
 */
typedef struct dl_json_doc {
    size_t max_size;    /* inputs longer than this are refused; <= DL_JSON_MAX_SIZE_CAP */
    uint32_t max_depth; /* deepest allowed nesting of arrays and objects (>= 1) */

    const dl_allocator *alloc;  /* where the arrays below come from */
    const char *text;           /* the input of the last successful parse (borrowed) */
    size_t text_len;            /* its length */
    struct dl_json_node *nodes; /* the tape: nodes[0] is the root */
    uint32_t n_nodes;           /* nodes in use */
    uint32_t cap_nodes;         /* nodes allocated */
    char *scratch;              /* unescaped strings, addressed by offset */
    size_t scratch_len;         /* bytes in use */
    size_t scratch_cap;         /* bytes allocated */
    uint32_t *stack;            /* tape indices of the containers open while parsing */
    uint32_t stack_cap;         /* entries allocated */
    bool is_parsed;             /* the last parse succeeded */
} dl_json_doc;

/* A value of a doc: a {doc, tape index} pair. doc == NULL means missing. */
typedef struct dl_json_val {
    const dl_json_doc *doc;
    uint32_t idx;
} dl_json_val;

/* An iterator over the elements of an array or the members of an object. */
typedef struct dl_json_iter {
    const dl_json_doc *doc;
    uint32_t idx;       /* tape index of the next member's key (object) or element (array) */
    uint32_t remaining; /* members or elements left */
    bool is_object;
} dl_json_iter;

/* Initialises an empty doc with the default limits. No allocation. alloc NULL = libc. */
void dl_json_doc_init(dl_json_doc *doc, const dl_allocator *alloc);

/* Frees the doc's arrays; every value obtained from it becomes invalid. NULL-tolerant. */
void dl_json_doc_destroy(dl_json_doc *doc);

/*
 * Parses text[0, len) as exactly one JSON value (surrounding white space allowed), replacing
 * the doc's previous content. text need not be NUL-terminated; the doc borrows it (see the
 * lifetime rule above). On failure the doc is empty (its root is missing) and err says where
 * and why: DL_ERR_CORRUPT for malformed input, DL_ERR_LIMIT for size/depth/range limits,
 * DL_ERR_NOMEM when the tape or scratch area cannot grow, DL_ERR_INVALID_ARG for bad limits.
 * The doc's arrays are reused and only grow, so repeated parses of similar inputs allocate
 * nothing after the first ones.
 */
DL_NODISCARD dl_status dl_json_doc_parse(dl_json_doc *doc, const char *text, size_t len,
                                         dl_error *err);

/* As dl_json_doc_parse, but only the first value is read: whatever follows it is ignored
 * (Jackson's reading of one value from a stream, which Spark's JSON data source does). */
DL_NODISCARD dl_status dl_json_doc_parse_first(dl_json_doc *doc, const char *text, size_t len,
                                               dl_error *err);

/* The root value of the last successful parse; missing if there is none. */
dl_json_val dl_json_doc_root(const dl_json_doc *doc);

/* The value's type; DL_JSON_MISSING for a missing value. */
dl_json_type dl_json_val_type(dl_json_val v);

/* The JSON name of a type ("null", "boolean", "number", "string", "array", "object",
 * "missing value"), for messages. Never NULL. */
const char *dl_json_type_name(dl_json_type type);

static inline bool
dl_json_val_is_missing(dl_json_val v) {
    return v.doc == NULL;
}

/* True for a JSON null (false for a missing value). */
bool dl_json_val_is_null(dl_json_val v);

/* The number's kind; DL_JSON_NUM_NONE when v is not a number. */
dl_json_num_kind dl_json_val_num_kind(dl_json_val v);

/* Number of elements of an array or members of an object; 0 for anything else. */
uint32_t dl_json_val_count(dl_json_val v);

/* Byte offset of the value's first byte in the parsed text; -1 for a missing value. */
int64_t dl_json_val_offset(dl_json_val v);

/*
 * The exact input text of the value (for a string, including its quotes and escapes; for a
 * container, from its bracket to the matching one). Empty view for a missing value.
 */
dl_str dl_json_val_raw(dl_json_val v);

/* The member of object obj with the given key (the last one if the key is repeated); missing
 * when obj is not an object or has no such member. Keys compare byte for byte after
 * unescaping. */
dl_json_val dl_json_obj_get(dl_json_val obj, const char *key);
dl_json_val dl_json_obj_get_str(dl_json_val obj, dl_str key);

/* Element i of an array (O(i): the tape is walked); missing when out of range. */
dl_json_val dl_json_arr_at(dl_json_val arr, uint32_t i);

/* An iterator over v's elements or members; it yields nothing when v is not a container. */
dl_json_iter dl_json_val_iter(dl_json_val v);

/*
 * Advances it. Returns false when done. For an object, *out_key (when out_key is not NULL)
 * receives the member's unescaped key; for an array it receives an empty view. *out_val
 * receives the element or member value.
 */
bool dl_json_iter_next(dl_json_iter *it, dl_str *out_key, dl_json_val *out_val);

/*
 * Typed getters. On a type mismatch they return DL_ERR_CORRUPT ("JSON at byte 17: expected
 * a string, found a number"), on a missing value DL_ERR_NOT_FOUND, and *out is left
 * unchanged; the caller prefixes the field name with DL_TRY_CTX.
 *
 * get_str: the unescaped bytes (valid UTF-8; may contain NUL from \u0000).
 * get_int64: integers in int64 range. get_uint64: non-negative integers in uint64 range.
 * Out-of-range integers and numbers written with a fraction or exponent are DL_ERR_CORRUPT
 * naming the value.
 * get_double: any number; integers beyond 2^53 are rounded to the nearest double.
 */
DL_NODISCARD dl_status dl_json_val_get_str(dl_json_val v, dl_str *out, dl_error *err);
DL_NODISCARD dl_status dl_json_val_get_int64(dl_json_val v, int64_t *out, dl_error *err);
DL_NODISCARD dl_status dl_json_val_get_uint64(dl_json_val v, uint64_t *out, dl_error *err);
DL_NODISCARD dl_status dl_json_val_get_double(dl_json_val v, double *out, dl_error *err);
DL_NODISCARD dl_status dl_json_val_get_bool(dl_json_val v, bool *out, dl_error *err);

/* The unescaped string, or an empty view when v is not a string (no error). */
dl_str dl_json_val_str(dl_json_val v);

/*
 * Structural equality of two values (of the same or different docs): same types, same
 * number kinds and values (doubles bit for bit, so -0.0 != 0.0 and 1 != 1.0), same strings,
 * same members in the same order. Two missing values are equal.
 */
bool dl_json_val_equal(dl_json_val a, dl_json_val b);

/* ------------------------------------------------------------------------------------------ */
/* Newline-delimited JSON                                                                      */

/* Splits a buffer into lines (memchr for '\n'); a '\r' before the '\n' is dropped. */
typedef struct dl_json_lines {
    const char *base; /* start of the buffer */
    const char *pos;  /* start of the next line */
    const char *end;  /* end of the buffer */
    int64_t line_no;  /* 1-based number of the line last returned, 0 before the first */
    size_t offset;    /* byte offset of the line last returned */
} dl_json_lines;

void dl_json_lines_init(dl_json_lines *it, const char *data, size_t len);

/*
 * The next line (without its terminator) into *out_line; false at the end. Every line is
 * returned, empty ones included, except that a final '\n' does not start an extra empty line.
 * The view points into the buffer. it->line_no and it->offset describe the returned line.
 */
bool dl_json_lines_next(dl_json_lines *it, dl_str *out_line);

/* ------------------------------------------------------------------------------------------ */
/* Writing                                                                                     */

/* Writer flags. */
#define DL_JSON_WRITE_ESCAPE_NON_ASCII 1u /* write every non-ASCII character as \uXXXX */

#define DL_JSON_WRITER_INLINE_DEPTH 32

/*
 * A streaming writer that appends one compact JSON value to a dl_buf (caller storage:
 * init/destroy). Fields are private.
 *
 * Every call checks that it fits: a value inside an object needs a key first, a key only goes
 * inside an object, ends match begins, and the document has one top-level value. Misuse
 * returns DL_ERR_INVALID_ARG and appends nothing. Strings must be valid UTF-8 (else
 * DL_ERR_INVALID_ARG); they are written with '"', '\\' and control characters escaped, and
 * the rest kept as is unless DL_JSON_WRITE_ESCAPE_NON_ASCII. On DL_ERR_NOMEM the output may
 * hold a partial value; reset the writer before reusing it.
 */
typedef struct dl_json_writer {
    dl_buf *out;         /* where output is appended (borrowed) */
    unsigned flags;      /* DL_JSON_WRITE_* */
    uint32_t depth;      /* containers open */
    uint32_t levels_cap; /* entries of heap_levels, 0 while the inline array suffices */
    uint8_t *heap_levels;
    bool is_after_key; /* a key was written and its value has not been */
    bool is_done;      /* the top-level value is complete */
    uint8_t inline_levels[DL_JSON_WRITER_INLINE_DEPTH]; /* per open container: kind, has items */
} dl_json_writer;

/* Initialises a writer appending to out (which it borrows; it must outlive the writer). */
void dl_json_writer_init(dl_json_writer *w, dl_buf *out, unsigned flags);

/* Frees the writer's own memory (not out). NULL-tolerant. */
void dl_json_writer_destroy(dl_json_writer *w);

/* Forgets the open containers so another top-level value can be written; out is kept. */
void dl_json_writer_reset(dl_json_writer *w);

/* DL_OK when exactly one complete top-level value has been written, else INVALID_ARG. */
DL_NODISCARD dl_status dl_json_writer_finish(const dl_json_writer *w, dl_error *err);

DL_NODISCARD dl_status dl_json_writer_begin_object(dl_json_writer *w, dl_error *err);
DL_NODISCARD dl_status dl_json_writer_end_object(dl_json_writer *w, dl_error *err);
DL_NODISCARD dl_status dl_json_writer_begin_array(dl_json_writer *w, dl_error *err);
DL_NODISCARD dl_status dl_json_writer_end_array(dl_json_writer *w, dl_error *err);

/* A member key; the next call must write its value. */
DL_NODISCARD dl_status dl_json_writer_key(dl_json_writer *w, dl_str key, dl_error *err);
DL_NODISCARD dl_status dl_json_writer_key_cstr(dl_json_writer *w, const char *key, dl_error *err);

DL_NODISCARD dl_status dl_json_writer_string(dl_json_writer *w, dl_str s, dl_error *err);
DL_NODISCARD dl_status dl_json_writer_string_cstr(dl_json_writer *w, const char *s, dl_error *err);
DL_NODISCARD dl_status dl_json_writer_int64(dl_json_writer *w, int64_t v, dl_error *err);
DL_NODISCARD dl_status dl_json_writer_uint64(dl_json_writer *w, uint64_t v, dl_error *err);

/* The shortest decimal text that reads back as the same double (with ".0" added to integral
 * values so they read back as doubles). NaN and infinities are DL_ERR_INVALID_ARG. */
DL_NODISCARD dl_status dl_json_writer_double(dl_json_writer *w, double v, dl_error *err);
DL_NODISCARD dl_status dl_json_writer_bool(dl_json_writer *w, bool v, dl_error *err);
DL_NODISCARD dl_status dl_json_writer_null(dl_json_writer *w, dl_error *err);

/* Pre-serialised JSON, copied verbatim. Assumes: json is exactly one valid JSON value (it is
 * not checked); an empty view is DL_ERR_INVALID_ARG. */
DL_NODISCARD dl_status dl_json_writer_raw(dl_json_writer *w, dl_str json, dl_error *err);

/* A parsed value, re-serialised (numbers of kind BIGINT are copied as their raw text). */
DL_NODISCARD dl_status dl_json_writer_value(dl_json_writer *w, dl_json_val v, dl_error *err);

/*
 * Formats d as the shortest decimal text that strtod reads back bit for bit, into out
 * (NUL-terminated, at most 31 characters). Integral values get ".0". Returns the length,
 * or 0 when d is NaN or infinite (nothing is written but the NUL).
 */
size_t dl_json_format_double(double d, char out[32]);

#endif /* DL_JSON_JSON_H */
