/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bulk memory for large snapshots: an allocator that asks the kernel for transparent huge
 * pages on the big blocks it hands out.
 *
 * A snapshot of a million live files keeps about 200 MB of file entries and decoded paths,
 * all of it written once, front to back, while the log is replayed. Taken in 4 KiB pages
 * that is some 50,000 page faults, and on virtual machines where a fault traps to the
 * hypervisor they cost more than the replay itself (measured: 256 MB touched in 4 KiB pages
 * took about 1 s of CPU, in 2 MiB pages about 0.35 s). The snapshot therefore places its
 * file entries and paths, once it holds more than a few thousand files, in an arena of
 * DL_DELTA_BULK_BLOCK-byte blocks taken through this allocator, which places every block of
 * 4 MiB or more on a 2 MiB boundary and advises MADV_HUGEPAGE on it before it is touched.
 * The advice is only a hint: where the kernel has no huge pages (or the system is not Linux)
 * nothing changes but the speed. Memory still comes from, and goes back to, the parent
 * allocator. The Parquet reader of a checkpoint takes its large column-chunk and page buffers
 * through it too (delta_checkpoint.c).
 */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#    define _GNU_SOURCE /* NOLINT(bugprone-reserved-identifier,readability-identifier-naming) */
#endif

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "delta/delta_int.h"

#define HUGE_PAGE ((uintptr_t)2 << 20)

/* Blocks of at least this size are placed on huge-page boundaries. */
#define BULK_MIN (2 * (size_t)HUGE_PAGE)

/* Where the parent's block for a large block of size bytes is remembered: the pointer
 * sits just before the aligned block the caller gets. */
#define BULK_HEADER sizeof(void *)

/*
 * A large block: size + HUGE_PAGE + BULK_HEADER bytes from the parent, of which the caller
 * gets the size bytes from the first 2 MiB boundary after room for the header, so that every
 * page of it can be a huge page. The untouched slack costs address space, not memory.
 */
static void *
huge_alloc(dl_delta_bulk *b, size_t size) {
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
#if defined(MADV_HUGEPAGE)
    (void)madvise(out, size & ~((size_t)HUGE_PAGE - 1), MADV_HUGEPAGE);
#endif
    memcpy(out - BULK_HEADER, &raw, sizeof(raw));
    return out;
}

static void
huge_free(dl_delta_bulk *b, void *p, size_t size) {
    char *raw;
    memcpy(&raw, (char *)p - BULK_HEADER, sizeof(raw));
    dl_mem_free(b->parent, raw, size + (size_t)HUGE_PAGE + BULK_HEADER);
}

static void *
bulk_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    dl_delta_bulk *b = ctx;
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
dl_delta_bulk_init(dl_delta_bulk *b, const dl_allocator *parent) {
    b->parent = parent;
    b->base = (dl_allocator){.realloc = bulk_realloc, .ctx = b};
}
