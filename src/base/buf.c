/* SPDX-License-Identifier: Apache-2.0 */
/* Growable byte buffer (see buf.h). */
#include "base/buf.h"

#include <stdio.h>
#include <string.h>

void
dl_buf_init(dl_buf *buf, const dl_allocator *alloc) {
    buf->data = NULL;
    buf->len = 0;
    buf->cap = 0;
    buf->alloc = alloc;
}

void
dl_buf_destroy(dl_buf *buf) {
    if (buf->data != NULL) {
        dl_mem_free(buf->alloc, buf->data, buf->cap + 1);
    }
    buf->data = NULL;
    buf->len = 0;
    buf->cap = 0;
}

void
dl_buf_reset(dl_buf *buf) {
    buf->len = 0;
}

void
dl_buf_move(dl_buf *dst, dl_buf *src) {
    if (dst == src) {
        return;
    }
    dl_buf_destroy(dst);
    *dst = *src;
    src->data = NULL;
    src->len = 0;
    src->cap = 0;
}

dl_status
dl_buf_reserve(dl_buf *buf, size_t extra, dl_error *err) {
    size_t need;
    if (DL_UNLIKELY(DL_ADD_OVERFLOW(buf->len, extra, &need) || need >= SIZE_MAX / 2)) {
        DL_FAIL(err, DL_ERR_NOMEM, "buffer of %zu bytes cannot grow by %zu bytes", buf->len, extra);
    }
    if (need <= buf->cap) {
        return DL_OK;
    }
    size_t cap = buf->cap < 64 ? 64 : buf->cap;
    while (cap < need) {
        cap *= 2;
    }
    uint8_t *p = dl_mem_realloc(buf->alloc, buf->data, buf->data ? buf->cap + 1 : 0, cap + 1);
    if (p == NULL) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory growing a buffer to %zu bytes", cap);
    }
    buf->data = p;
    buf->cap = cap;
    return DL_OK;
}

dl_status
dl_buf_append(dl_buf *buf, const void *data, size_t len, dl_error *err) {
    if (len == 0) {
        return DL_OK;
    }
    DL_TRY(dl_buf_reserve(buf, len, err));
    dl_buf_append_unchecked(buf, data, len);
    return DL_OK;
}

dl_status
dl_buf_append_byte(dl_buf *buf, uint8_t byte, dl_error *err) {
    if (DL_UNLIKELY(buf->len == buf->cap)) {
        DL_TRY(dl_buf_reserve(buf, 1, err));
    }
    buf->data[buf->len++] = byte;
    return DL_OK;
}

dl_status
dl_buf_append_cstr(dl_buf *buf, const char *s, dl_error *err) {
    return dl_buf_append(buf, s, strlen(s), err);
}

dl_status
dl_buf_appendf(dl_buf *buf, dl_error *err, const char *fmt, ...) {
    va_list ap;
    va_list ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    dl_status s = DL_OK;
    if (n < 0) {
        s = dl_error_set(err, DL_ERR_INVALID_ARG, "bad format string '%s'", fmt);
    } else {
        s = dl_buf_reserve(buf, (size_t)n, err);
    }
    if (s == DL_OK) {
        /* cap excludes the spare byte, so n + 1 bytes fit. */
        int m = vsnprintf((char *)buf->data + buf->len, (size_t)n + 1, fmt, ap2);
        DL_UNUSED(m);
        buf->len += (size_t)n;
    }
    va_end(ap2);
    va_end(ap);
    return s;
}

uint8_t *
dl_buf_extend(dl_buf *buf, size_t n, dl_error *err) {
    /* Reserve at least one byte so data is never NULL (NULL + 0 is undefined behaviour). */
    if (dl_buf_reserve(buf, n == 0 ? 1 : n, err) != DL_OK) {
        return NULL;
    }
    uint8_t *p = buf->data + buf->len;
    buf->len += n;
    return p;
}

const char *
dl_buf_cstr(dl_buf *buf) {
    if (buf->data == NULL) {
        return "";
    }
    buf->data[buf->len] = '\0';
    return (const char *)buf->data;
}

dl_str
dl_buf_view(const dl_buf *buf) {
    dl_str s = {.ptr = (const char *)buf->data, .len = buf->len};
    return s;
}
