/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dl_str: a borrowed view of bytes {ptr, len}. It owns nothing and need not be
 * NUL-terminated; whoever returns one says how long it stays valid.
 */
#ifndef DL_BASE_STR_H
#define DL_BASE_STR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/compiler.h"

typedef struct dl_str {
    const char *ptr; /* first byte; may be NULL when len is 0 */
    size_t len;      /* number of bytes */
} dl_str;

/* A view of a string literal. */
#define DL_STR(lit) ((dl_str){.ptr = (lit), .len = sizeof(lit) - 1})

/* printf support: printf("%.*s", DL_STR_FMT(s)). Views longer than INT_MAX are cut. */
#define DL_STR_FMT(s) ((s).len > 0x7fffffff ? 0x7fffffff : (int)(s).len), ((s).ptr ? (s).ptr : "")

static inline dl_str
dl_str_make(const char *ptr, size_t len) {
    dl_str s = {.ptr = ptr, .len = len};
    return s;
}

/* A view of a NUL-terminated string (NULL gives the empty view). */
static inline dl_str
dl_str_from_cstr(const char *s) {
    return dl_str_make(s, s ? strlen(s) : 0);
}

static inline bool
dl_str_eq(dl_str a, dl_str b) {
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static inline bool
dl_str_eq_cstr(dl_str a, const char *b) {
    return dl_str_eq(a, dl_str_from_cstr(b));
}

/* Byte-wise comparison: <0, 0, >0 like memcmp, shorter prefix first. */
int dl_str_cmp(dl_str a, dl_str b);

/* ASCII case-insensitive equality (SQL identifiers and keywords). */
bool dl_str_eq_nocase(dl_str a, dl_str b);

bool dl_str_starts_with(dl_str s, dl_str prefix);
bool dl_str_ends_with(dl_str s, dl_str suffix);

/* Index of the first byte c in s, or -1. */
int64_t dl_str_find_byte(dl_str s, char c);

/* The sub-view [start, start+len), clamped to s. */
dl_str dl_str_slice(dl_str s, size_t start, size_t len);

/* s without leading and trailing ASCII white space. */
dl_str dl_str_trim(dl_str s);

/* Copies s into dst of size cap, NUL-terminated and truncated if needed. Returns dst. */
char *dl_str_copy_to(dl_str s, char *dst, size_t cap);

/* 64-bit hash of the bytes, well mixed in every bit (for open-addressing tables). */
uint64_t dl_hash_bytes(const void *data, size_t len, uint64_t seed);

/* 64-bit mix of an integer key. */
static inline uint64_t
dl_hash_u64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline uint64_t
dl_str_hash(dl_str s) {
    return dl_hash_bytes(s.ptr, s.len, 0);
}

/* True when the bytes are valid UTF-8 (no overlongs, no surrogates, <= U+10FFFF). */
bool dl_utf8_valid(const void *data, size_t len);

/* Writes code point cp (<= U+10FFFF, not checked) as 1 to 4 bytes of UTF-8 at out; returns
 * how many. */
size_t dl_utf8_encode(uint32_t cp, char *out);

#endif /* DL_BASE_STR_H */
