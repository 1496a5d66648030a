/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Z85, the base-85 text encoding of ZeroMQ RFC 32, as Delta uses it for deletion vector
 * descriptors (PROTOCOL.md, "Deletion Vector Descriptor Schema": "The concrete Base85 variant
 * used is Z85, because it is JSON-friendly").
 *
 * Every 4 bytes, read as a big-endian uint32 v, become 5 characters: the digits of v in base
 * 85, most significant first, each mapped through the alphabet
 *     0-9 a-z A-Z . - : + = ^ ! / * ? & < > ( ) [ ] { } @ % $ #
 * RFC 32 requires whole blocks. Delta's inline DVs pad the bytes with zeros to a multiple of
 * 4 and record the unpadded length in sizeInBytes; a UUID's 16 bytes (most significant long
 * first, as java.util.UUID) encode to exactly 20 characters.
 *
 * The decoder rejects, rather than wraps, a block whose value exceeds 2^32 - 1: no RFC 32
 * encoder produces one. Every block that starts with '#' (digit 84) is such a block, since
 * 84 * 85^4 > 2^32, which is what lets the Rust z85 crate (3.x) mark padding unambiguously:
 * its last block is n '#'s (1 to 3) followed by the 4 - n remaining bytes, as a big-endian
 * number, in 5 - n digits ("##093" is the two bytes 03 00). Inline DVs written that way exist
 * in Databricks-written tables (delta-kernel-rs test data: cdf-table-with-dv, which Spark's
 * open-source decoder misreads by wrapping the block), so the inline-DV decoder accepts that
 * form; the RFC decoder, used for UUIDs, does not.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/random.h>

#include "delta/delta_dv.h"

static const char z85_alphabet[86] =
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

/* The digit of each ASCII character, or NA for characters outside the alphabet (bytes of 128
 * and above are all outside). */
#define NA 0xFF
static const uint8_t z85_digit[128] = {
    NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA,
    NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, 68, NA, 84, 83, 82, 72, NA, 75, 76, 70, 65,
    NA, 63, 62, 69, 0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  64, NA, 73, 66, 74, 71, 81, 36,
    37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58,
    59, 60, 61, 77, NA, 78, 67, NA, NA, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
    23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 79, NA, 80, NA, NA,
};

/* Sets err to CORRUPT with message and dl_error.offset at. */
static dl_status
DL_PRINTF(3, 4) z85_corrupt(dl_error *err, size_t at, const char *fmt, ...) {
    if (err != NULL) {
        va_list ap;
        va_start(ap, fmt);
        (void)dl_error_setv(err, DL_ERR_CORRUPT, fmt, ap);
        va_end(ap);
        DL_ERROR_WHERE(err);
        err->offset = (int64_t)at;
    }
    return DL_ERR_CORRUPT;
}

static void
encode_block(uint32_t v, char *dst) {
    for (int i = 4; i >= 0; i--) {
        dst[i] = z85_alphabet[v % 85];
        v /= 85;
    }
}

dl_status
dl_delta_z85_encode(const uint8_t *src, size_t n, dl_buf *out, dl_error *err) {
    size_t out_len = dl_delta_z85_encoded_len(n);
    char *dst = (char *)dl_buf_extend(out, out_len, err);
    if (dst == NULL) {
        return err != NULL ? err->code : DL_ERR_NOMEM;
    }
    size_t i = 0;
    for (; i + 4 <= n; i += 4, dst += 5) {
        uint32_t v = (uint32_t)src[i] << 24 | (uint32_t)src[i + 1] << 16 |
                     (uint32_t)src[i + 2] << 8 | (uint32_t)src[i + 3];
        encode_block(v, dst);
    }
    if (i < n) {
        uint8_t last[4] = {0, 0, 0, 0};
        memcpy(last, src + i, n - i);
        uint32_t v = (uint32_t)last[0] << 24 | (uint32_t)last[1] << 16 | (uint32_t)last[2] << 8 |
                     (uint32_t)last[3];
        encode_block(v, dst);
    }
    return DL_OK;
}

/* The value of n characters of Z85 at src (index at, for messages), most significant first. */
static dl_status
decode_digits(const char *src, size_t n, size_t at, uint64_t *out, dl_error *err) {
    uint64_t v = 0;
    for (size_t k = 0; k < n; k++) {
        uint8_t c = (uint8_t)src[k];
        uint8_t d = c < 128 ? z85_digit[c] : NA;
        if (d == NA) {
            return z85_corrupt(err, at + k,
                               "Z85 text at character %zu: byte 0x%02x is not in the Z85 alphabet",
                               at + k, (unsigned)c);
        }
        v = v * 85 + d;
    }
    *out = v;
    return DL_OK;
}

/* Decodes whole blocks src[0, len) (len a multiple of 5) into dst. */
static dl_status
decode_blocks(const char *src, size_t len, uint8_t *dst, dl_error *err) {
    for (size_t i = 0; i < len; i += 5) {
        uint64_t v = 0;
        DL_TRY(decode_digits(src + i, 5, i, &v, err));
        if (v > UINT32_MAX) {
            return z85_corrupt(err, i, "Z85 text at character %zu: block '%.5s' exceeds 32 bits", i,
                               src + i);
        }
        uint8_t *block = dst + i / 5 * 4;
        block[0] = (uint8_t)(v >> 24);
        block[1] = (uint8_t)(v >> 16);
        block[2] = (uint8_t)(v >> 8);
        block[3] = (uint8_t)v;
    }
    return DL_OK;
}

static dl_status
check_length(size_t len, dl_error *err) {
    if (len % 5 != 0) {
        return z85_corrupt(err, len,
                           "Z85 text of %zu characters is not a whole number of 5-character blocks",
                           len);
    }
    return DL_OK;
}

dl_status
dl_delta_z85_decode(const char *src, size_t len, uint8_t *dst, dl_error *err) {
    DL_TRY(check_length(len, err));
    return decode_blocks(src, len, dst, err);
}

dl_status
dl_delta_z85_decode_padded(const char *src, size_t len, uint8_t *dst, size_t *out_len,
                           dl_error *err) {
    DL_TRY(check_length(len, err));
    size_t n_pad = 0;
    while (len > 0 && n_pad < 5 && src[len - 5 + n_pad] == '#') {
        n_pad++;
    }
    if (n_pad == 0) {
        *out_len = len / 5 * 4;
        return decode_blocks(src, len, dst, err);
    }
    size_t at = len - 5;
    if (n_pad > 3) {
        return z85_corrupt(err, at,
                           "Z85 text at character %zu: a padded final block '%.5s' must keep at "
                           "least one byte",
                           at, src + at);
    }
    DL_TRY(decode_blocks(src, at, dst, err));
    /* The tail: 4 - n_pad bytes, big-endian, in the 5 - n_pad characters after the '#'s. */
    size_t n_bytes = 4 - n_pad;
    uint64_t v = 0;
    DL_TRY(decode_digits(src + at + n_pad, 5 - n_pad, at + n_pad, &v, err));
    if (v >> (8 * n_bytes) != 0) {
        return z85_corrupt(err, at,
                           "Z85 text at character %zu: padded final block '%.5s' exceeds %zu bytes",
                           at, src + at, n_bytes);
    }
    uint8_t *tail = dst + at / 5 * 4;
    for (size_t k = 0; k < n_bytes; k++) {
        tail[k] = (uint8_t)(v >> (8 * (n_bytes - 1 - k)));
    }
    *out_len = at / 5 * 4 + n_bytes;
    return DL_OK;
}

void
dl_delta_uuid_format(const uint8_t uuid[16], char out[37]) {
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (size_t i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            out[o++] = '-';
        }
        out[o++] = hex[uuid[i] >> 4];
        out[o++] = hex[uuid[i] & 15];
    }
    out[o] = '\0';
}

dl_status
dl_delta_uuid_random(uint8_t uuid[16], dl_error *err) {
    size_t got = 0;
    while (got < 16) {
        ssize_t n = getrandom(uuid + got, 16 - got, 0);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return dl_error_set_errno(err, DL_ERR_IO, errno,
                                      "cannot draw random bytes for a deletion vector UUID");
        }
        got += (size_t)n;
    }
    uuid[6] = (uint8_t)((uuid[6] & 0x0F) | 0x40); /* version 4 */
    uuid[8] = (uint8_t)((uuid[8] & 0x3F) | 0x80); /* IETF variant */
    return DL_OK;
}
