/* SPDX-License-Identifier: Apache-2.0 */
/* String views, byte hashing and UTF-8 validation. */
#include "base/str.h"

int
dl_str_cmp(dl_str a, dl_str b) {
    size_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
    if (c != 0) {
        return c;
    }
    return a.len < b.len ? -1 : (a.len > b.len ? 1 : 0);
}

static inline unsigned char
ascii_lower(unsigned char c) {
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}

bool
dl_str_eq_nocase(dl_str a, dl_str b) {
    if (a.len != b.len) {
        return false;
    }
    for (size_t i = 0; i < a.len; i++) {
        if (ascii_lower((unsigned char)a.ptr[i]) != ascii_lower((unsigned char)b.ptr[i])) {
            return false;
        }
    }
    return true;
}

bool
dl_str_starts_with(dl_str s, dl_str prefix) {
    return s.len >= prefix.len && (prefix.len == 0 || memcmp(s.ptr, prefix.ptr, prefix.len) == 0);
}

bool
dl_str_ends_with(dl_str s, dl_str suffix) {
    return s.len >= suffix.len &&
           (suffix.len == 0 || memcmp(s.ptr + s.len - suffix.len, suffix.ptr, suffix.len) == 0);
}

int64_t
dl_str_find_byte(dl_str s, char c) {
    if (s.len == 0) {
        return -1;
    }
    const char *p = memchr(s.ptr, c, s.len);
    return p ? (int64_t)(p - s.ptr) : -1;
}

dl_str
dl_str_slice(dl_str s, size_t start, size_t len) {
    if (start > s.len) {
        start = s.len;
    }
    if (len > s.len - start) {
        len = s.len - start;
    }
    return dl_str_make(s.ptr ? s.ptr + start : NULL, len);
}

static bool
is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

dl_str
dl_str_trim(dl_str s) {
    while (s.len > 0 && is_space(s.ptr[0])) {
        s.ptr++;
        s.len--;
    }
    while (s.len > 0 && is_space(s.ptr[s.len - 1])) {
        s.len--;
    }
    return s;
}

char *
dl_str_copy_to(dl_str s, char *dst, size_t cap) {
    if (cap == 0) {
        return dst;
    }
    size_t n = s.len < cap - 1 ? s.len : cap - 1;
    if (n > 0) {
        memcpy(dst, s.ptr, n);
    }
    dst[n] = '\0';
    return dst;
}

static inline uint64_t
load64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static inline uint64_t
mix(uint64_t a, uint64_t b) {
    /* 64x64->128 multiply folded: a strong, cheap mixer (the idea behind wyhash). */
    dl_u128 r = (dl_u128)a * b;
    return (uint64_t)r ^ (uint64_t)(r >> 64);
}

uint64_t
dl_hash_bytes(const void *data, size_t len, uint64_t seed) {
    const unsigned char *p = data;
    const uint64_t k0 = 0xa0761d6478bd642fULL;
    const uint64_t k1 = 0xe7037ed1a0b428dbULL;
    uint64_t h = seed ^ mix(seed ^ k0, (uint64_t)len ^ k1);
    size_t i = 0;
    for (; i + 16 <= len; i += 16) {
        h = mix(load64(p + i) ^ k1, load64(p + i + 8) ^ h);
    }
    uint64_t a = 0;
    uint64_t b = 0;
    size_t rest = len - i;
    if (rest >= 8) {
        a = load64(p + i);
        rest -= 8;
        i += 8;
    }
    for (size_t j = 0; j < rest; j++) {
        b |= (uint64_t)p[i + j] << (8 * j);
    }
    return mix(h ^ a ^ k0, b ^ k1 ^ (uint64_t)len);
}

size_t
dl_utf8_encode(uint32_t cp, char *out) {
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

bool
dl_utf8_valid(const void *data, size_t len) {
    const unsigned char *s = data;
    size_t i = 0;
    while (i < len) {
        /* ASCII fast path, 8 bytes at a time. */
        if (i + 8 <= len && (load64(s + i) & 0x8080808080808080ULL) == 0) {
            i += 8;
            continue;
        }
        unsigned char c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t n;
        uint32_t cp;
        uint32_t min;
        if ((c & 0xE0) == 0xC0) {
            n = 2;
            cp = c & 0x1Fu;
            min = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            n = 3;
            cp = c & 0x0Fu;
            min = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            n = 4;
            cp = c & 0x07u;
            min = 0x10000;
        } else {
            return false;
        }
        if (len - i < n) {
            return false;
        }
        for (size_t k = 1; k < n; k++) {
            if ((s[i + k] & 0xC0) != 0x80) {
                return false;
            }
            cp = (cp << 6) | (s[i + k] & 0x3Fu);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return false;
        }
        i += n;
    }
    return true;
}
