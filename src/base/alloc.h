/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one allocator seam. Nothing outside alloc.c calls malloc, calloc, realloc or free
 * (checked by scripts/lint). An allocator is a single realloc-shaped function, as Lua's
 * lua_Alloc: (ptr=NULL, old=0, new>0) allocates, (ptr, old, new>0) resizes, (ptr, old, 0)
 * frees and returns NULL. Callers pass the size they allocated when they free, so an
 * allocator can account bytes without headers.
 *
 * Every function taking `const dl_allocator *alloc` accepts NULL for the default (libc).
 */
#ifndef DL_BASE_ALLOC_H
#define DL_BASE_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compiler.h"

typedef struct dl_allocator {
    /* Allocate, resize or free (see above). Returns NULL on failure or when freeing. */
    void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t new_size);
    void *ctx; /* passed to realloc unchanged */
} dl_allocator;

/* The process-wide libc allocator. Never NULL. */
const dl_allocator *dl_allocator_default(void);

/* Allocates size bytes (size 0 gives a unique non-NULL pointer). NULL when out of memory. */
void *dl_mem_alloc(const dl_allocator *alloc, size_t size);

/* Allocates size zeroed bytes. NULL when out of memory. */
void *dl_mem_alloc_zero(const dl_allocator *alloc, size_t size);

/* Allocates n * size bytes, failing (NULL) when the product overflows. */
void *dl_mem_alloc_array(const dl_allocator *alloc, size_t n, size_t size);

/* Resizes ptr from old_size to new_size bytes. On failure returns NULL and ptr stays valid. */
void *dl_mem_realloc(const dl_allocator *alloc, void *ptr, size_t old_size, size_t new_size);

/* Frees ptr, which was allocated with size bytes. NULL ptr is a no-op. */
void dl_mem_free(const dl_allocator *alloc, void *ptr, size_t size);

/* A NUL-terminated copy of the len bytes at s, from the C library's malloc, for a library that
 * frees what it is given with free() (libedit's completion matches); NULL when out of memory. */
char *dl_mem_libc_strndup(const char *s, size_t len);

/*
 * A fault-injecting allocator for tests (SQLite's do_faultsim_test): the fail_at-th
 * allocation or growth (1-based) and, when is_sticky, every later one fails. It counts live
 * bytes and blocks so a test can check that a failed operation leaked nothing.
 */
typedef struct dl_fault_allocator {
    dl_allocator base;   /* pass &fa.base where a dl_allocator is wanted */
    int64_t fail_at;     /* 1-based index of the first failing request; 0 = never */
    bool is_sticky;      /* keep failing after the first failure */
    int64_t n_requests;  /* allocations and growths seen so far */
    int64_t n_failures;  /* requests refused so far */
    int64_t live_blocks; /* blocks allocated and not yet freed */
    int64_t live_bytes;  /* bytes allocated and not yet freed */
} dl_fault_allocator;

/* Initialises fa to fail at request fail_at (0 = never). */
void dl_fault_allocator_init(dl_fault_allocator *fa, int64_t fail_at, bool is_sticky);

/* ---- Huge pages (alloc_huge.c) ---------------------------------------------------------- */

/* Advises the kernel to back the whole 2 MiB pages inside [ptr, ptr + len) with transparent
 * huge pages (Linux, "madvise" mode): one page fault per 2 MiB instead of one per 4 KiB when
 * the memory is first written. A hint for large buffers written front to back; does nothing
 * where unsupported. ptr may be NULL. */
void dl_mem_advise_huge(void *ptr, size_t len);

/* Blocks of at least this many bytes are laid out on huge pages by dl_huge_allocator. */
#define DL_HUGE_BLOCK_MIN ((size_t)4 << 20)

/* An allocator over parent that places every block of DL_HUGE_BLOCK_MIN bytes or more on a
 * 2 MiB boundary and advises huge pages on it; smaller blocks go to parent unchanged. Give
 * &base to an arena or a reader; valid while the dl_huge_allocator lives. */
typedef struct dl_huge_allocator {
    dl_allocator base;
    const dl_allocator *parent;
} dl_huge_allocator;

/* Sets h up over parent (NULL: libc). No allocation. */
void dl_huge_allocator_init(dl_huge_allocator *h, const dl_allocator *parent);

/* The process-wide dl_huge_allocator over the libc allocator (dl_allocator_default), for
 * memory that may outlive whatever allocated it (vectors exported to Arrow). Never NULL. */
const dl_allocator *dl_allocator_huge_default(void);

#endif /* DL_BASE_ALLOC_H */
