/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Huge pages for large buffers: a hint for memory already allocated (dl_mem_advise_huge) and
 * an allocator that lays large blocks out so the hint covers all of them (dl_huge_allocator).
 *
 * Memory written once, front to back, in large amounts -- a snapshot's million file entries,
 * a Parquet column chunk or decompressed page -- is taken by the kernel one 4 KiB page fault
 * at a time. On virtual machines, where a fault traps to the hypervisor, those faults can cost
 * more than the work on the data (measured here: 256 MB first touched in 4 KiB pages took
 * about 1 s of CPU, in 2 MiB pages about 0.35 s). Linux's transparent huge pages in "madvise"
 * mode back a range with 2 MiB pages when asked with madvise(MADV_HUGEPAGE), which this file
 * does on the whole 2 MiB pages inside a range. It is only advice: where the kernel has no
 * huge pages, or the system is not Linux, nothing changes but the speed.
 *
 * dl_huge_allocator places every block of DL_HUGE_BLOCK_MIN bytes or more on a 2 MiB boundary
 * (taking 2 MiB more from its parent, the slack costing address space, not memory) and advises
 * huge pages on it before anyone touches it; smaller blocks go to the parent unchanged. Memory
 * still comes from, and goes back to, the parent allocator: this is not an allocator of its
 * own, only a layout over one.
 */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#    define _DEFAULT_SOURCE  /* NOLINT(bugprone-reserved-identifier,readability-identifier-naming) \
                              */
#endif

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "base/alloc.h"
#include "base/compiler.h"

#define HUGE_PAGE ((uintptr_t)2 << 20)

void
dl_mem_advise_huge(void *ptr, size_t len) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (ptr == NULL) {
        return;
    }
    char *p = ptr;
    size_t skip = (size_t)((HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE);
    size_t whole = skip < len ? (len - skip) / HUGE_PAGE * HUGE_PAGE : 0;
    if (whole > 0) {
        (void)madvise(p + skip, whole, MADV_HUGEPAGE);
    }
#else
    (void)ptr;
    (void)len;
#endif
}

/* Blocks of at least this size are placed on huge-page boundaries. */
#define BULK_MIN DL_HUGE_BLOCK_MIN

/* Where the parent's block for a large block of size bytes is remembered: the pointer
 * sits just before the aligned block the caller gets. */
#define BULK_HEADER sizeof(void *)

/*
 * A large block: size + HUGE_PAGE + BULK_HEADER bytes from the parent, of which the caller
 * gets the size bytes from the first 2 MiB boundary after room for the header, so that every
 * page of it can be a huge page. The untouched slack costs address space, not memory.
 */
static void *
huge_alloc(dl_huge_allocator *b, size_t size) {
    size_t total;
    if (DL_ADD_OVERFLOW(size, (size_t)HUGE_PAGE + BULK_HEADER, &total)) {
        return NULL;
    }
    char *raw = dl_mem_alloc(b->parent, total);
    if (!raw) {
        return NULL;
    }
    uintptr_t at = (uintptr_t)raw + BULK_HEADER;
    uintptr_t aligned = (at + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    char *out = raw + BULK_HEADER + (aligned - at);
    dl_mem_advise_huge(out, size);
    memcpy(out - BULK_HEADER, &raw, sizeof(raw));
    return out;
}

static void
huge_free(dl_huge_allocator *b, void *p, size_t size) {
    char *raw;
    memcpy(&raw, (char *)p - BULK_HEADER, sizeof(raw));
    dl_mem_free(b->parent, raw, size + (size_t)HUGE_PAGE + BULK_HEADER);
}

static void *
bulk_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    dl_huge_allocator *b = ctx;
    bool is_old_huge = ptr && old_size >= BULK_MIN;
    bool is_new_huge = new_size >= BULK_MIN;
    if (!is_old_huge && !is_new_huge) {
        if (new_size == 0) {
            dl_mem_free(b->parent, ptr, old_size);
            return NULL;
        }
        return dl_mem_realloc(b->parent, ptr, old_size, new_size);
    }
    void *out = NULL;
    if (new_size > 0) {
        out = is_new_huge ? huge_alloc(b, new_size) : dl_mem_alloc(b->parent, new_size);
        if (!out) {
            return NULL; /* ptr stays valid */
        }
        if (ptr) {
            memcpy(out, ptr, old_size < new_size ? old_size : new_size);
        }
    }
    if (ptr && is_old_huge) {
        huge_free(b, ptr, old_size);
    } else if (ptr) {
        dl_mem_free(b->parent, ptr, old_size);
    }
    return out;
}

void
dl_huge_allocator_init(dl_huge_allocator *h, const dl_allocator *parent) {
    h->parent = parent;
    h->base = (dl_allocator){.realloc = bulk_realloc, .ctx = h};
}

/* Stateless beyond its parent (libc), so one serves every thread and outlives everything. */
static dl_huge_allocator huge_default = {
    .base = {.realloc = bulk_realloc, .ctx = &huge_default},
    .parent = NULL,
};

const dl_allocator *
dl_allocator_huge_default(void) {
    return &huge_default.base;
}
