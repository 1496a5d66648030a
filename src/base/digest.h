/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Message digests (digest.c): MD5, SHA-1, SHA-224/256, SHA-384/512 over a message in memory.
 * Each writes the digest's bytes to out, which must hold the digest's length (16, 20, 28/32,
 * 48/64 bytes), and returns that length. Not for security uses.
 */
#ifndef DL_BASE_DIGEST_H
#define DL_BASE_DIGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DL_DIGEST_MAX 64 /* the longest digest, SHA-512's, in bytes */

size_t dl_digest_md5(const void *msg, size_t len, uint8_t *out);
size_t dl_digest_sha1(const void *msg, size_t len, uint8_t *out);
/* SHA-256, or SHA-224 when is_224. */
size_t dl_digest_sha256(const void *msg, size_t len, bool is_224, uint8_t *out);
/* SHA-512, or SHA-384 when is_384. */
size_t dl_digest_sha512(const void *msg, size_t len, bool is_384, uint8_t *out);

/* Writes the n digest bytes as 2 * n lower-case hexadecimal digits (no terminating NUL). */
void dl_digest_hex(const uint8_t *digest, size_t n, char *out);

#endif
