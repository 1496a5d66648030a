/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The json part's private header: the tape node, and the byte-scanning helpers that the
 * reader and the writer share.
 *
 * The tape. A parsed document is an array of dl_json_node in document order (pre-order): a
 * container's node is followed by its children's subtrees, and an object's children alternate
 * key (a string node) and value. A container node records its number of children and the index
 * just past its subtree, so a value is skipped in O(1) and a lookup walks only the members of
 * one object. Pre-order with child counts determines the tree, so two subtrees are equal iff
 * their node sequences are equal node by node (dl_json_val_equal relies on this).
 *
 * Every node also records where its text lies in the input (offset and length, 32-bit: the
 * size limit keeps inputs under 4 GiB), for error messages and dl_json_val_raw.
 */
#ifndef DL_JSON_JSON_INT_H
#define DL_JSON_JSON_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "json/json.h"

/* Node flag in dl_json_node.kind for strings: the unescaped bytes live in the scratch area. */
#define DL_JSON_STR_ESCAPED 1u

typedef struct dl_json_node {
    uint8_t type;     /* dl_json_type */
    uint8_t kind;     /* numbers: dl_json_num_kind; strings: DL_JSON_STR_ESCAPED or 0 */
    uint8_t is_true;  /* booleans: the value */
    uint8_t reserved; /* zero */
    uint32_t len;     /* strings: unescaped bytes; arrays, objects: elements or members */
    uint32_t off;     /* offset of the value's first byte in the text */
    uint32_t raw_len; /* bytes of the value's text */

    union {
        int64_t i;        /* DL_JSON_NUM_INT64 */
        uint64_t u;       /* DL_JSON_NUM_UINT64 */
        double d;         /* DL_JSON_NUM_DOUBLE and DL_JSON_NUM_BIGINT (rounded) */
        uint32_t next;    /* arrays, objects: tape index just past the subtree */
        uint32_t str_off; /* escaped strings: offset of the unescaped bytes in scratch */
    } v;
} dl_json_node;

/* Tape index just past the subtree rooted at idx. */
static inline uint32_t
dl_json_node_skip(const dl_json_node *nodes, uint32_t idx) {
    return nodes[idx].type >= DL_JSON_ARRAY ? nodes[idx].v.next : idx + 1;
}

/* The unescaped bytes of a string node. */
static inline dl_str
dl_json_node_str(const dl_json_doc *doc, const dl_json_node *n) {
    const char *p =
        (n->kind & DL_JSON_STR_ESCAPED) ? doc->scratch + n->v.str_off : doc->text + n->off + 1;
    return dl_str_make(p, n->len);
}

/* ---- byte scanning ------------------------------------------------------------------------ */

#define DL_JSON_ONES  0x0101010101010101ULL
#define DL_JSON_HIGHS 0x8080808080808080ULL

/* Eight bytes as a little-endian word, so that byte 0 in memory is the least significant. */
static inline uint64_t
dl_json_load64(const char *p) {
    uint64_t v;
    memcpy(&v, p, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

/*
 * High bit set in each byte of v that is '"', '\\', a control character (< 0x20) or not ASCII
 * (>= 0x80). The subtractions borrow only out of bytes that are themselves flagged, so the
 * lowest flagged byte is always a true hit (higher ones may be spurious: only the first is
 * used).
 */
static inline uint64_t
dl_json_special_mask(uint64_t v) {
    uint64_t q = v ^ (DL_JSON_ONES * (uint64_t)'"');
    uint64_t b = v ^ (DL_JSON_ONES * (uint64_t)'\\');
    return ((q - DL_JSON_ONES) | (b - DL_JSON_ONES) | (v - DL_JSON_ONES * 0x20u) | v) &
           DL_JSON_HIGHS;
}

static inline bool
dl_json_is_special(unsigned char c) {
    return c == '"' || c == '\\' || c < 0x20 || c >= 0x80;
}

/*
 * Length (2-4) of the valid UTF-8 sequence at p (whose first byte is >= 0x80), with its code
 * point in *out_cp; 0 when the bytes are not a valid sequence (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF, no truncation at end).
 */
static inline size_t
dl_json_utf8_seq(const char *p, const char *end, uint32_t *out_cp) {
    const unsigned char *s = (const unsigned char *)p;
    size_t avail = (size_t)(end - p);
    unsigned char c = s[0];
    size_t n;
    uint32_t cp;
    uint32_t min;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        cp = c & 0x1Fu;
        min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3;
        cp = c & 0x0Fu;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        cp = c & 0x07u;
        min = 0x10000;
    } else {
        return 0;
    }
    if (avail < n) {
        return 0;
    }
    for (size_t k = 1; k < n; k++) {
        if ((s[k] & 0xC0) != 0x80) {
            return 0;
        }
        cp = (cp << 6) | (s[k] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return 0;
    }
    *out_cp = cp;
    return n;
}

/*
 * Skips string content that needs no attention: ASCII other than '"', '\\' and control
 * characters, and (when is_utf8_plain) valid UTF-8 sequences. Returns the first byte that
 * needs attention ('"', '\\', a control character, a non-ASCII byte that starts an invalid
 * sequence, or any non-ASCII byte when !is_utf8_plain), or end. Eight bytes per step.
 */
static inline const char *
dl_json_scan_plain(const char *p, const char *end, bool is_utf8_plain) {
    for (;;) {
        while (end - p >= 8) {
            uint64_t m = dl_json_special_mask(dl_json_load64(p));
            if (m != 0) {
                p += __builtin_ctzll(m) >> 3;
                break;
            }
            p += 8;
        }
        while (p < end && !dl_json_is_special((unsigned char)*p)) {
            p++;
        }
        if (p == end || (unsigned char)*p < 0x80 || !is_utf8_plain) {
            return p;
        }
        uint32_t cp;
        size_t n = dl_json_utf8_seq(p, end, &cp);
        if (n == 0) {
            return p;
        }
        p += n;
    }
}

/* ---- numbers (json_num.c) ----------------------------------------------------------------- */

/*
 * Converts the text of a JSON number that has a fraction or an exponent (already validated
 * against the grammar) to the correctly rounded double. Uses exact double arithmetic when the
 * digits and exponent allow it (Clinger's fast path), else the C library's strtod on a
 * NUL-terminated copy made in tmp, which must hold len + 8 bytes. An overflow gives an
 * infinity (the caller refuses it).
 */
double dl_json_num_to_double(const char *s, size_t len, char *tmp);

/* Writes the decimal digits of v (with '-' when negative) to out; returns the length. */
size_t dl_json_num_format_i64(int64_t v, char out[24]);
size_t dl_json_num_format_u64(uint64_t v, char out[24]);

#endif /* DL_JSON_JSON_INT_H */
