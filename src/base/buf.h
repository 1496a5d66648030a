/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dl_buf: a growable, owned byte buffer. Growth is geometric. The bytes are always followed
 * by one spare byte so dl_buf_cstr can NUL-terminate without reallocating.
 */
#ifndef DL_BASE_BUF_H
#define DL_BASE_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/error.h"
#include "base/str.h"

typedef struct dl_buf {
    uint8_t *data;             /* owned bytes, NULL while cap is 0 */
    size_t len;                /* bytes in use */
    size_t cap;                /* bytes allocated, excluding the spare NUL byte */
    const dl_allocator *alloc; /* where data comes from */
} dl_buf;

/* Initialises an empty buffer. No allocation. */
void dl_buf_init(dl_buf *buf, const dl_allocator *alloc);

/* Frees the bytes; the buffer is empty and may be reused. */
void dl_buf_destroy(dl_buf *buf);

/* Empties the buffer, keeping its capacity. */
void dl_buf_reset(dl_buf *buf);

/* Moves src's bytes into dst (dst is destroyed first); src is left empty. */
void dl_buf_move(dl_buf *dst, dl_buf *src);

/* Ensures room for extra more bytes. */
DL_NODISCARD dl_status dl_buf_reserve(dl_buf *buf, size_t extra, dl_error *err);

/* Appends len bytes. */
DL_NODISCARD dl_status dl_buf_append(dl_buf *buf, const void *data, size_t len, dl_error *err);

/* Appends one byte. */
DL_NODISCARD dl_status dl_buf_append_byte(dl_buf *buf, uint8_t byte, dl_error *err);

/* Appends a NUL-terminated string (without its NUL). */
DL_NODISCARD dl_status dl_buf_append_cstr(dl_buf *buf, const char *s, dl_error *err);

/* Appends formatted text. */
DL_NODISCARD dl_status dl_buf_appendf(dl_buf *buf, dl_error *err, const char *fmt, ...)
    DL_PRINTF(3, 4);

/* Grows len by n and returns a pointer to the n new (uninitialised) bytes, or NULL. */
uint8_t *dl_buf_extend(dl_buf *buf, size_t n, dl_error *err);

/* The bytes as a NUL-terminated string; valid until the buffer next changes. Never NULL. */
const char *dl_buf_cstr(dl_buf *buf);

/* A view of the bytes, valid until the buffer next changes. */
dl_str dl_buf_view(const dl_buf *buf);

/* Appends without a capacity check. Assumes: dl_buf_reserve made room for len bytes. */
static inline void
dl_buf_append_unchecked(dl_buf *buf, const void *data, size_t len) {
    __builtin_memcpy(buf->data + buf->len, data, len);
    buf->len += len;
}

#endif /* DL_BASE_BUF_H */
