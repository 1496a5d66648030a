/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Arena allocator: memory for one lifetime (a statement, a snapshot, a batch, a commit
 * attempt) handed out by bumping a pointer through blocks, and released all at once.
 *
 * Allocations are 16-byte aligned. Blocks grow geometrically up to a cap; an allocation
 * larger than the cap gets a block of its own. dl_arena_reset keeps the first block for
 * reuse. In AddressSanitizer builds the unused tail of each block is poisoned and every
 * allocation is followed by a poisoned red zone, so overruns inside an arena are caught.
 *
 * Failure is sticky: once an allocation fails, is_failed stays set until reset, so a builder
 * may allocate several pieces and check once (SQLite's mallocFailed), provided it checks
 * before it uses any of them.
 */
#ifndef DL_BASE_ARENA_H
#define DL_BASE_ARENA_H

#include <stdbool.h>
#include <stddef.h>

#include "base/alloc.h"
#include "base/error.h"

typedef struct dl_arena_block dl_arena_block;
typedef struct dl_arena_cleanup dl_arena_cleanup;

typedef struct dl_arena {
    const dl_allocator *alloc;  /* where blocks come from */
    dl_arena_block *head;       /* the block being filled; older blocks follow */
    size_t next_block_size;     /* size of the next block to allocate */
    size_t min_block_size;      /* first block size, restored by reset */
    size_t bytes_allocated;     /* total of all block sizes, for accounting */
    dl_arena_cleanup *cleanups; /* callbacks run (newest first) on reset and destroy */
    bool is_failed;             /* an allocation failed since the last reset */
} dl_arena;

/* A position to rewind to: everything allocated after the mark is released. */
typedef struct dl_arena_mark {
    dl_arena_block *block; /* head block at the time of the mark */
    size_t used;           /* bytes used in that block */
} dl_arena_mark;

/* Initialises an empty arena. min_block_size 0 picks a default (4 KiB). No allocation. */
void dl_arena_init(dl_arena *arena, const dl_allocator *alloc, size_t min_block_size);

/* Runs cleanups and frees every block. The arena may be initialised again. */
void dl_arena_destroy(dl_arena *arena);

/* Runs cleanups and releases everything, keeping one block for reuse. */
void dl_arena_reset(dl_arena *arena);

/* size bytes, 16-byte aligned, valid until reset/destroy/rewind. NULL when out of memory. */
void *dl_arena_alloc(dl_arena *arena, size_t size);

/* As dl_arena_alloc, zero-filled. */
void *dl_arena_alloc_zero(dl_arena *arena, size_t size);

/* n * size bytes; NULL on overflow or out of memory. */
void *dl_arena_alloc_array(dl_arena *arena, size_t n, size_t size);

/* Copies len bytes of s and appends a NUL. NULL when out of memory. */
char *dl_arena_strndup(dl_arena *arena, const char *s, size_t len);

/* Copies len bytes. NULL when out of memory. */
void *dl_arena_memdup(dl_arena *arena, const void *p, size_t len);

/* Formats into arena memory. NULL when out of memory. */
char *dl_arena_printf(dl_arena *arena, const char *fmt, ...) DL_PRINTF(2, 3);

/* Records the current position. */
dl_arena_mark dl_arena_get_mark(const dl_arena *arena);

/* Releases everything allocated after mark. Cleanups registered after it are not run:
 * Assumes: no cleanup was registered after the mark. */
void dl_arena_rewind(dl_arena *arena, dl_arena_mark mark);

/* Registers fn(ctx) to run when the arena is reset or destroyed (to close files, drop
 * references). Returns DL_ERR_NOMEM, having run nothing, when it cannot be recorded. */
DL_NODISCARD dl_status dl_arena_on_reset(dl_arena *arena, void (*fn)(void *ctx), void *ctx,
                                         dl_error *err);

#endif /* DL_BASE_ARENA_H */
