/* SPDX-License-Identifier: Apache-2.0 */
/* Open-addressing hash table (see hmap.h). */
#include "base/hmap.h"

#include <string.h>

#define HASH_EMPTY     0u
#define HASH_TOMBSTONE 1u
#define MIN_CAP        16u

static inline uint64_t
key_hash(dl_str key) {
    uint64_t h = dl_str_hash(key);
    /* 0 and 1 mark empty and deleted slots. */
    return h < 2 ? h + 2 : h;
}

void
dl_hmap_init(dl_hmap *map, const dl_allocator *alloc) {
    memset(map, 0, sizeof(*map));
    map->alloc = alloc;
}

void
dl_hmap_destroy(dl_hmap *map) {
    if (map->slots != NULL) {
        dl_mem_free(map->alloc, map->slots, map->cap * sizeof(dl_hmap_slot));
    }
    map->slots = NULL;
    map->cap = 0;
    map->count = 0;
    map->n_tombstones = 0;
}

void
dl_hmap_reset(dl_hmap *map) {
    if (map->slots != NULL) {
        memset(map->slots, 0, map->cap * sizeof(dl_hmap_slot));
    }
    map->count = 0;
    map->n_tombstones = 0;
}

/* Inserts an entry known to be absent into a table without tombstones. */
static void
place(dl_hmap_slot *slots, size_t cap, const dl_hmap_slot *entry) {
    size_t mask = cap - 1;
    size_t i = (size_t)entry->hash & mask;
    while (slots[i].hash != HASH_EMPTY) {
        i = (i + 1) & mask;
    }
    slots[i] = *entry;
}

static dl_status
resize(dl_hmap *map, size_t new_cap, dl_error *err) {
    dl_hmap_slot *slots = dl_mem_alloc_array(map->alloc, new_cap, sizeof(dl_hmap_slot));
    if (slots == NULL) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory growing a hash table to %zu slots", new_cap);
    }
    memset(slots, 0, new_cap * sizeof(dl_hmap_slot));
    for (size_t i = 0; i < map->cap; i++) {
        if (map->slots[i].hash > HASH_TOMBSTONE) {
            place(slots, new_cap, &map->slots[i]);
        }
    }
    if (map->slots != NULL) {
        dl_mem_free(map->alloc, map->slots, map->cap * sizeof(dl_hmap_slot));
    }
    map->slots = slots;
    map->cap = new_cap;
    map->n_tombstones = 0;
    return DL_OK;
}

static size_t
cap_for(size_t n) {
    size_t cap = MIN_CAP;
    while (cap - cap / 4 < n) {
        cap *= 2;
    }
    return cap;
}

dl_status
dl_hmap_reserve(dl_hmap *map, size_t n, dl_error *err) {
    if (n > (SIZE_MAX / sizeof(dl_hmap_slot)) / 2) {
        DL_FAIL(err, DL_ERR_NOMEM, "hash table of %zu entries is too large", n);
    }
    size_t cap = cap_for(n);
    if (cap <= map->cap) {
        return DL_OK;
    }
    return resize(map, cap, err);
}

/* Index of key's slot, or of where it would go (first tombstone or empty slot seen). */
static size_t
probe(const dl_hmap *map, dl_str key, uint64_t hash, bool *out_found) {
    size_t mask = map->cap - 1;
    size_t i = (size_t)hash & mask;
    size_t first_free = SIZE_MAX;
    for (;;) {
        const dl_hmap_slot *s = &map->slots[i];
        if (s->hash == HASH_EMPTY) {
            *out_found = false;
            return first_free != SIZE_MAX ? first_free : i;
        }
        if (s->hash == HASH_TOMBSTONE) {
            if (first_free == SIZE_MAX) {
                first_free = i;
            }
        } else if (s->hash == hash && dl_str_eq(s->key, key)) {
            *out_found = true;
            return i;
        }
        i = (i + 1) & mask;
    }
}

bool
dl_hmap_get(const dl_hmap *map, dl_str key, uint64_t *out) {
    if (map->count == 0) {
        return false;
    }
    bool found;
    size_t i = probe(map, key, key_hash(key), &found);
    if (found && out != NULL) {
        *out = map->slots[i].value;
    }
    return found;
}

dl_status
dl_hmap_upsert(dl_hmap *map, dl_str key, uint64_t **out_value, bool *out_is_new, dl_error *err) {
    size_t used = map->count + map->n_tombstones + 1;
    if (map->cap == 0 || used > map->cap - map->cap / 4) {
        /* Grow when live entries need it; otherwise a same-size rebuild drops tombstones. */
        size_t cap = cap_for(map->count + 1);
        DL_TRY(resize(map, cap > map->cap ? cap : map->cap, err));
    }
    uint64_t hash = key_hash(key);
    bool found;
    size_t i = probe(map, key, hash, &found);
    dl_hmap_slot *s = &map->slots[i];
    if (!found) {
        if (s->hash == HASH_TOMBSTONE) {
            map->n_tombstones--;
        }
        s->hash = hash;
        s->key = key;
        s->value = 0;
        map->count++;
    }
    *out_value = &s->value;
    if (out_is_new != NULL) {
        *out_is_new = !found;
    }
    return DL_OK;
}

dl_status
dl_hmap_put(dl_hmap *map, dl_str key, uint64_t value, dl_error *err) {
    uint64_t *slot;
    DL_TRY(dl_hmap_upsert(map, key, &slot, NULL, err));
    *slot = value;
    return DL_OK;
}

bool
dl_hmap_remove(dl_hmap *map, dl_str key, uint64_t *out) {
    if (map->count == 0) {
        return false;
    }
    bool found;
    size_t i = probe(map, key, key_hash(key), &found);
    if (!found) {
        return false;
    }
    if (out != NULL) {
        *out = map->slots[i].value;
    }
    map->slots[i].hash = HASH_TOMBSTONE;
    map->slots[i].key = dl_str_make(NULL, 0);
    map->count--;
    map->n_tombstones++;
    return true;
}

bool
dl_hmap_next(const dl_hmap *map, size_t *iter, dl_str *out_key, uint64_t *out_value) {
    for (size_t i = *iter; i < map->cap; i++) {
        if (map->slots[i].hash > HASH_TOMBSTONE) {
            if (out_key != NULL) {
                *out_key = map->slots[i].key;
            }
            if (out_value != NULL) {
                *out_value = map->slots[i].value;
            }
            *iter = i + 1;
            return true;
        }
    }
    *iter = map->cap;
    return false;
}
