/* SPDX-License-Identifier: Apache-2.0 */
/* The allocator seam: the only file that calls the C library's allocator. */
#include "base/alloc.h"

#include <stdlib.h>
#include <string.h>

static void *
libc_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    DL_UNUSED(ctx);
    DL_UNUSED(old_size);
    if (new_size == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, new_size);
}

static const dl_allocator default_allocator = {.realloc = libc_realloc, .ctx = NULL};

const dl_allocator *
dl_allocator_default(void) {
    return &default_allocator;
}

static const dl_allocator *
pick(const dl_allocator *alloc) {
    return alloc != NULL ? alloc : &default_allocator;
}

void *
dl_mem_alloc(const dl_allocator *alloc, size_t size) {
    const dl_allocator *a = pick(alloc);
    /* Size 0 still yields a distinct block so that callers need no special case. */
    return a->realloc(a->ctx, NULL, 0, size == 0 ? 1 : size);
}

void *
dl_mem_alloc_zero(const dl_allocator *alloc, size_t size) {
    void *p = dl_mem_alloc(alloc, size);
    if (p != NULL) {
        memset(p, 0, size == 0 ? 1 : size);
    }
    return p;
}

void *
dl_mem_alloc_array(const dl_allocator *alloc, size_t n, size_t size) {
    size_t total;
    if (DL_MUL_OVERFLOW(n, size, &total)) {
        return NULL;
    }
    return dl_mem_alloc(alloc, total);
}

void *
dl_mem_realloc(const dl_allocator *alloc, void *ptr, size_t old_size, size_t new_size) {
    if (ptr == NULL) {
        return dl_mem_alloc(alloc, new_size);
    }
    const dl_allocator *a = pick(alloc);
    return a->realloc(a->ctx, ptr, old_size == 0 ? 1 : old_size, new_size == 0 ? 1 : new_size);
}

void
dl_mem_free(const dl_allocator *alloc, void *ptr, size_t size) {
    if (ptr == NULL) {
        return;
    }
    const dl_allocator *a = pick(alloc);
    void *r = a->realloc(a->ctx, ptr, size == 0 ? 1 : size, 0);
    DL_UNUSED(r);
}

static void *
fault_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    dl_fault_allocator *fa = ctx;
    if (new_size == 0) {
        if (ptr != NULL) {
            fa->live_blocks--;
            fa->live_bytes -= (int64_t)old_size;
            free(ptr);
        }
        return NULL;
    }
    fa->n_requests++;
    bool is_fail = fa->fail_at > 0 && (fa->n_requests == fa->fail_at ||
                                       (fa->is_sticky && fa->n_requests > fa->fail_at));
    if (is_fail) {
        fa->n_failures++;
        return NULL;
    }
    void *p = realloc(ptr, new_size);
    if (p == NULL) {
        return NULL;
    }
    if (ptr == NULL) {
        fa->live_blocks++;
    } else {
        fa->live_bytes -= (int64_t)old_size;
    }
    fa->live_bytes += (int64_t)new_size;
    return p;
}

void
dl_fault_allocator_init(dl_fault_allocator *fa, int64_t fail_at, bool is_sticky) {
    memset(fa, 0, sizeof(*fa));
    fa->base.realloc = fault_realloc;
    fa->base.ctx = fa;
    fa->fail_at = fail_at;
    fa->is_sticky = is_sticky;
}

char *
dl_mem_libc_strndup(const char *s, size_t len) {
    char *copy = malloc(len + 1);
    if (copy != NULL) {
        memcpy(copy, s, len);
        copy[len] = '\0';
    }
    return copy;
}
