/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dl_hmap: an open-addressing hash table from byte-string keys to 64-bit values.
 *
 * Linear probing over a power-of-two array of slots; each slot keeps the key's full hash, so
 * growth never rehashes key bytes and most mismatches are rejected without a memcmp. Deleted
 * slots become tombstones, reclaimed on the next growth. Live entries plus
 * tombstones stay at or below 3/4 of the slots, keeping probe sequences short.
 *
 * Keys are views: the table does not copy key bytes, so they must outlive the table (keep
 * them in an arena of the same lifetime). Values are opaque uint64_t (an index, or a pointer
 * through uintptr_t).
 */
#ifndef DL_BASE_HMAP_H
#define DL_BASE_HMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/error.h"
#include "base/str.h"

typedef struct dl_hmap_slot {
    uint64_t hash;  /* full hash of key; 0 = empty, 1 = tombstone (real hashes avoid both) */
    dl_str key;     /* borrowed key bytes */
    uint64_t value; /* caller's value */
} dl_hmap_slot;

typedef struct dl_hmap {
    dl_hmap_slot *slots;       /* cap slots, or NULL before the first insert */
    size_t cap;                /* power of two, or 0 */
    size_t count;              /* live entries */
    size_t n_tombstones;       /* deleted slots not yet reclaimed */
    const dl_allocator *alloc; /* where slots come from */
} dl_hmap;

/* Initialises an empty table. No allocation until the first insert. */
void dl_hmap_init(dl_hmap *map, const dl_allocator *alloc);

/* Frees the slots (not the keys). */
void dl_hmap_destroy(dl_hmap *map);

/* Removes every entry, keeping capacity. */
void dl_hmap_reset(dl_hmap *map);

/* Makes room for n entries in total without further growth. */
DL_NODISCARD dl_status dl_hmap_reserve(dl_hmap *map, size_t n, dl_error *err);

/* Finds key; on success stores its value in *out (if out is not NULL) and returns true. */
bool dl_hmap_get(const dl_hmap *map, dl_str key, uint64_t *out);

/* Inserts key or finds it. *out_value points at the entry's value slot (valid until the next
 * insert or growth); *out_is_new says whether it was inserted, its value then being 0. */
DL_NODISCARD dl_status dl_hmap_upsert(dl_hmap *map, dl_str key, uint64_t **out_value,
                                      bool *out_is_new, dl_error *err);

/* Inserts or replaces key's value. */
DL_NODISCARD dl_status dl_hmap_put(dl_hmap *map, dl_str key, uint64_t value, dl_error *err);

/* Removes key; returns whether it was present (and its value in *out when out is not NULL). */
bool dl_hmap_remove(dl_hmap *map, dl_str key, uint64_t *out);

/* Iterates: start with *iter = 0; each call yields the next live entry and returns true, or
 * returns false at the end. Order is unspecified. Do not insert while iterating. */
bool dl_hmap_next(const dl_hmap *map, size_t *iter, dl_str *out_key, uint64_t *out_value);

#endif /* DL_BASE_HMAP_H */
