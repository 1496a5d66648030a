/* SPDX-License-Identifier: Apache-2.0 */
/* Arena allocator (see arena.h for the contract). */
#include "base/arena.h"

#include <stdio.h>
#include <string.h>

#define ARENA_ALIGN       16
#define ARENA_DEFAULT_MIN 4096
#define ARENA_MAX_BLOCK   (1u << 20)
#define ARENA_REDZONE     (DL_ASAN ? 16 : 0)

struct dl_arena_block {
    dl_arena_block *prev; /* older block */
    size_t size;          /* usable bytes in data */
    size_t used;          /* bytes handed out */
    _Alignas(16) unsigned char data[];
};

struct dl_arena_cleanup {
    dl_arena_cleanup *next;
    void (*fn)(void *ctx);
    void *ctx;
};

void
dl_arena_init(dl_arena *arena, const dl_allocator *alloc, size_t min_block_size) {
    memset(arena, 0, sizeof(*arena));
    arena->alloc = alloc;
    arena->min_block_size = min_block_size ? min_block_size : ARENA_DEFAULT_MIN;
    arena->next_block_size = arena->min_block_size;
}

static void
run_cleanups(dl_arena *arena) {
    /* A cleanup record lives in the arena itself: unlink before calling. */
    while (arena->cleanups != NULL) {
        dl_arena_cleanup *c = arena->cleanups;
        arena->cleanups = c->next;
        c->fn(c->ctx);
    }
}

static void
free_block(dl_arena *arena, dl_arena_block *b) {
    size_t total = sizeof(dl_arena_block) + b->size;
    DL_UNPOISON(b, total);
    arena->bytes_allocated -= total;
    dl_mem_free(arena->alloc, b, total);
}

void
dl_arena_destroy(dl_arena *arena) {
    run_cleanups(arena);
    while (arena->head != NULL) {
        dl_arena_block *b = arena->head;
        arena->head = b->prev;
        free_block(arena, b);
    }
    arena->next_block_size = arena->min_block_size;
    arena->is_failed = false;
}

void
dl_arena_reset(dl_arena *arena) {
    run_cleanups(arena);
    /* Keep the oldest block (usually the smallest) for reuse. */
    while (arena->head != NULL && arena->head->prev != NULL) {
        dl_arena_block *b = arena->head;
        arena->head = b->prev;
        free_block(arena, b);
    }
    if (arena->head != NULL) {
        arena->head->used = 0;
        DL_POISON(arena->head->data, arena->head->size);
    }
    arena->next_block_size = arena->min_block_size;
    arena->is_failed = false;
}

static dl_arena_block *
new_block(dl_arena *arena, size_t need) {
    size_t size = arena->next_block_size;
    if (size < need) {
        size = need;
    }
    size_t total;
    if (DL_ADD_OVERFLOW(size, sizeof(dl_arena_block), &total)) {
        return NULL;
    }
    dl_arena_block *b = dl_mem_alloc(arena->alloc, total);
    if (b == NULL) {
        return NULL;
    }
    b->size = size;
    b->used = 0;
    DL_POISON(b->data, size);
    b->prev = arena->head;
    arena->head = b;
    arena->bytes_allocated += total;
    if (arena->next_block_size < ARENA_MAX_BLOCK) {
        arena->next_block_size *= 2;
    }
    return b;
}

void *
dl_arena_alloc(dl_arena *arena, size_t size) {
    size_t need;
    if (DL_ADD_OVERFLOW(size, (size_t)(ARENA_REDZONE + ARENA_ALIGN - 1), &need)) {
        arena->is_failed = true;
        return NULL;
    }
    need &= ~(size_t)(ARENA_ALIGN - 1);
    dl_arena_block *b = arena->head;
    if (b == NULL || b->size - b->used < need) {
        b = new_block(arena, need);
        if (b == NULL) {
            arena->is_failed = true;
            return NULL;
        }
    }
    void *p = b->data + b->used;
    b->used += need;
    DL_UNPOISON(p, size);
    return p;
}

void *
dl_arena_alloc_zero(dl_arena *arena, size_t size) {
    void *p = dl_arena_alloc(arena, size);
    if (p != NULL) {
        memset(p, 0, size);
    }
    return p;
}

void *
dl_arena_alloc_array(dl_arena *arena, size_t n, size_t size) {
    size_t total;
    if (DL_MUL_OVERFLOW(n, size, &total)) {
        arena->is_failed = true;
        return NULL;
    }
    return dl_arena_alloc(arena, total);
}

void *
dl_arena_memdup(dl_arena *arena, const void *p, size_t len) {
    void *q = dl_arena_alloc(arena, len);
    if (q != NULL && len > 0) {
        memcpy(q, p, len);
    }
    return q;
}

char *
dl_arena_strndup(dl_arena *arena, const char *s, size_t len) {
    size_t total;
    if (DL_ADD_OVERFLOW(len, (size_t)1, &total)) {
        arena->is_failed = true;
        return NULL;
    }
    char *q = dl_arena_alloc(arena, total);
    if (q != NULL) {
        if (len > 0) {
            memcpy(q, s, len);
        }
        q[len] = '\0';
    }
    return q;
}

char *
dl_arena_printf(dl_arena *arena, const char *fmt, ...) {
    va_list ap;
    va_list ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *q = n < 0 ? NULL : dl_arena_alloc(arena, (size_t)n + 1);
    if (q != NULL) {
        int m = vsnprintf(q, (size_t)n + 1, fmt, ap2);
        DL_UNUSED(m);
    }
    va_end(ap2);
    va_end(ap);
    return q;
}

dl_arena_mark
dl_arena_get_mark(const dl_arena *arena) {
    dl_arena_mark m = {.block = arena->head, .used = arena->head ? arena->head->used : 0};
    return m;
}

void
dl_arena_rewind(dl_arena *arena, dl_arena_mark mark) {
    while (arena->head != NULL && arena->head != mark.block) {
        dl_arena_block *b = arena->head;
        arena->head = b->prev;
        free_block(arena, b);
    }
    if (arena->head != NULL) {
        DL_ASSERT(mark.used <= arena->head->used);
        DL_POISON(arena->head->data + mark.used, arena->head->size - mark.used);
        arena->head->used = mark.used;
    }
}

dl_status
dl_arena_on_reset(dl_arena *arena, void (*fn)(void *ctx), void *ctx, dl_error *err) {
    dl_arena_cleanup *c = dl_arena_alloc(arena, sizeof(*c));
    if (c == NULL) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory registering an arena cleanup");
    }
    c->fn = fn;
    c->ctx = ctx;
    c->next = arena->cleanups;
    arena->cleanups = c;
    return DL_OK;
}
