/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The deletion vector set in memory and its queries (delta_dv.h): an array of 32-bit CRoaring
 * bitmaps keyed by the high 32 bits of the row index (the RoaringBitmapArray of Delta's
 * Spark implementation, and the bucket layout of the portable 64-bit Roaring format).
 *
 * Range queries, which a scan makes once per batch, walk the set instead of probing rows:
 * a binary search finds the first bucket, CRoaring's iterator seeks to the first row at or
 * after the range's start (a binary search over containers, then within one), and bulk
 * reads (roaring_read_uint32_iterator) deliver the rows in chunks until one passes the end.
 * Reads start small and double, so a batch with a few deletions does not drag thousands of
 * later rows out of the bitmap. The cost is a seek plus the deleted rows in the range. The
 * kept-rows selection is built from the deleted offsets: gap-filling loops when deletions are
 * sparse, a per-window bitmask and a branch-free pass when they are dense. Measured (gcc -O2,
 * 100 M rows in 2048-row batches, random deletions): kept rows 0.33 ns/row with none
 * deleted, 0.48 at 1 %, 1.3 at 10 %, 2.7 at 50 %; deleted rows 0.06 ns/row at 1 %.
 */
#include <roaring/roaring.h>
#include <string.h>

#include "delta/delta_dv_int.h"

#define WALK_CHUNK      256  /* rows per bulk read when the caller gives no buffer */
#define WALK_FIRST_READ 16   /* rows asked of the first bulk read of a range */
#define WALK_MAX_READ   4096 /* the largest bulk read */
#define KEPT_WINDOW     4096 /* rows per deleted-row bitmask in select_kept */

dl_status
dl_delta_dv_new(const dl_allocator *alloc, dl_delta_dv **out, dl_error *err) {
    *out = NULL;
    if (alloc == NULL) {
        alloc = dl_allocator_default();
    }
    dl_delta_dv *dv = dl_mem_alloc_zero(alloc, sizeof(*dv));
    if (dv == NULL) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory creating a deletion vector");
    }
    dv->alloc = alloc;
    *out = dv;
    return DL_OK;
}

void
dl_delta_dv_free(dl_delta_dv *dv) {
    if (dv == NULL) {
        return;
    }
    for (size_t i = 0; i < dv->n_buckets; i++) {
        roaring_bitmap_free(dv->buckets[i].bm);
    }
    dl_mem_free(dv->alloc, dv->buckets, dv->cap_buckets * sizeof(dl_delta_dv_bucket));
    dl_mem_free(dv->alloc, dv, sizeof(*dv));
}

size_t
dl_delta_dv_lower_bound(const dl_delta_dv *dv, uint32_t key) {
    size_t lo = 0;
    size_t hi = dv->n_buckets;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (dv->buckets[mid].key < key) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* Makes room for one more bucket. */
static dl_status
reserve_bucket(dl_delta_dv *dv, dl_error *err) {
    if (dv->n_buckets < dv->cap_buckets) {
        return DL_OK;
    }
    size_t cap = dv->cap_buckets == 0 ? 4 : dv->cap_buckets * 2;
    dl_delta_dv_bucket *b =
        dl_mem_realloc(dv->alloc, dv->buckets, dv->cap_buckets * sizeof(dl_delta_dv_bucket),
                       cap * sizeof(dl_delta_dv_bucket));
    if (b == NULL) {
        DL_FAIL(err, DL_ERR_NOMEM, "out of memory growing a deletion vector to %zu buckets", cap);
    }
    dv->buckets = b;
    dv->cap_buckets = cap;
    return DL_OK;
}

/* Inserts an empty bucket with key at index at (which keeps the keys ascending). */
static dl_delta_dv_bucket *
insert_bucket(dl_delta_dv *dv, size_t at, uint32_t key, dl_error *err) {
    if (reserve_bucket(dv, err) != DL_OK) {
        return NULL;
    }
    roaring_bitmap_t *bm = roaring_bitmap_create();
    if (bm == NULL) {
        (void)dl_error_set(err, DL_ERR_NOMEM, "out of memory creating a deletion vector bucket");
        return NULL;
    }
    memmove(dv->buckets + at + 1, dv->buckets + at, (dv->n_buckets - at) * sizeof(*dv->buckets));
    dv->buckets[at] = (dl_delta_dv_bucket){.key = key, .bm = bm};
    dv->n_buckets++;
    return &dv->buckets[at];
}

dl_delta_dv_bucket *
dl_delta_dv_push_bucket(dl_delta_dv *dv, uint32_t key, dl_error *err) {
    DL_ASSERT(dv->n_buckets == 0 || dv->buckets[dv->n_buckets - 1].key < key);
    return insert_bucket(dv, dv->n_buckets, key, err);
}

/* The bucket for key, created when absent. */
static dl_delta_dv_bucket *
bucket_for(dl_delta_dv *dv, uint32_t key, dl_error *err) {
    size_t at = dl_delta_dv_lower_bound(dv, key);
    if (at < dv->n_buckets && dv->buckets[at].key == key) {
        return &dv->buckets[at];
    }
    return insert_bucket(dv, at, key, err);
}

static void
recount(dl_delta_dv *dv) {
    int64_t total = 0;
    for (size_t i = 0; i < dv->n_buckets; i++) {
        total += (int64_t)roaring_bitmap_get_cardinality(dv->buckets[i].bm);
    }
    dv->cardinality = total;
}

static dl_status
check_row(int64_t row, dl_error *err) {
    DL_CHECK(row >= 0 && row <= DL_DELTA_DV_MAX_ROW, err, DL_ERR_INVALID_ARG,
             "row index %lld is outside the range a deletion vector can hold [0, %lld]",
             (long long)row, (long long)DL_DELTA_DV_MAX_ROW);
    return DL_OK;
}

dl_status
dl_delta_dv_add(dl_delta_dv *dv, int64_t row, dl_error *err) {
    DL_TRY(check_row(row, err));
    dl_delta_dv_bucket *b = bucket_for(dv, (uint32_t)(row >> 32), err);
    if (b == NULL) {
        return DL_ERR_NOMEM;
    }
    if (roaring_bitmap_add_checked(b->bm, (uint32_t)row)) {
        dv->cardinality++;
    }
    return DL_OK;
}

dl_status
dl_delta_dv_add_rows(dl_delta_dv *dv, const int64_t *rows, size_t n, dl_error *err) {
    for (size_t i = 0; i < n; i++) {
        DL_TRY_CTX(check_row(rows[i], err), err, "row %zu of %zu", i, n);
    }
    uint32_t lows[WALK_CHUNK];
    size_t i = 0;
    dl_status status = DL_OK;
    while (i < n && status == DL_OK) {
        uint32_t key = (uint32_t)(rows[i] >> 32);
        dl_delta_dv_bucket *b = bucket_for(dv, key, err);
        if (b == NULL) {
            status = DL_ERR_NOMEM;
            break;
        }
        /* A run of rows with the same key goes in with one call per chunk. */
        size_t k = 0;
        while (i < n && (uint32_t)(rows[i] >> 32) == key) {
            lows[k++] = (uint32_t)rows[i++];
            if (k == WALK_CHUNK) {
                roaring_bitmap_add_many(b->bm, k, lows);
                k = 0;
            }
        }
        roaring_bitmap_add_many(b->bm, k, lows);
    }
    recount(dv);
    return status;
}

dl_status
dl_delta_dv_add_range(dl_delta_dv *dv, int64_t start, int64_t n, dl_error *err) {
    DL_CHECK(n >= 0, err, DL_ERR_INVALID_ARG, "negative row count %lld", (long long)n);
    if (n == 0) {
        return DL_OK;
    }
    DL_TRY(check_row(start, err));
    DL_CHECK(n - 1 <= DL_DELTA_DV_MAX_ROW - start, err, DL_ERR_INVALID_ARG,
             "rows [%lld, %lld + %lld) exceed the largest row a deletion vector can hold",
             (long long)start, (long long)start, (long long)n);
    int64_t last = start + (n - 1);
    dl_status status = DL_OK;
    for (int64_t row = start; row <= last;) {
        uint32_t key = (uint32_t)(row >> 32);
        int64_t bucket_last = ((int64_t)key << 32) | 0xFFFFFFFF;
        int64_t upto = last < bucket_last ? last : bucket_last;
        dl_delta_dv_bucket *b = bucket_for(dv, key, err);
        if (b == NULL) {
            status = DL_ERR_NOMEM;
            break;
        }
        roaring_bitmap_add_range_closed(b->bm, (uint32_t)row, (uint32_t)upto);
        if (upto == last) {
            break;
        }
        row = upto + 1;
    }
    recount(dv);
    return status;
}

dl_status
dl_delta_dv_union(dl_delta_dv *dv, const dl_delta_dv *other, dl_error *err) {
    dl_status status = DL_OK;
    for (size_t i = 0; i < other->n_buckets && status == DL_OK; i++) {
        const dl_delta_dv_bucket *from = &other->buckets[i];
        dl_delta_dv_bucket *b = bucket_for(dv, from->key, err);
        if (b == NULL) {
            status = DL_ERR_NOMEM;
            break;
        }
        roaring_bitmap_or_inplace(b->bm, from->bm);
    }
    recount(dv);
    return status;
}

void
dl_delta_dv_optimize(dl_delta_dv *dv) {
    for (size_t i = 0; i < dv->n_buckets; i++) {
        (void)roaring_bitmap_run_optimize(dv->buckets[i].bm);
        (void)roaring_bitmap_shrink_to_fit(dv->buckets[i].bm);
    }
}

int64_t
dl_delta_dv_cardinality(const dl_delta_dv *dv) {
    return dv->cardinality;
}

int64_t
dl_delta_dv_max_row(const dl_delta_dv *dv) {
    if (dv->n_buckets == 0) {
        return -1;
    }
    const dl_delta_dv_bucket *b = &dv->buckets[dv->n_buckets - 1];
    return (int64_t)b->key << 32 | (int64_t)roaring_bitmap_maximum(b->bm);
}

bool
dl_delta_dv_contains(const dl_delta_dv *dv, int64_t row) {
    if (row < 0) {
        return false;
    }
    uint32_t key = (uint32_t)(row >> 32);
    size_t at = dl_delta_dv_lower_bound(dv, key);
    return at < dv->n_buckets && dv->buckets[at].key == key &&
           roaring_bitmap_contains(dv->buckets[at].bm, (uint32_t)row);
}

int64_t
dl_delta_dv_count_range(const dl_delta_dv *dv, int64_t start, int64_t n) {
    int64_t end = start + n;
    if (start < 0) {
        start = 0;
    }
    if (end <= start) {
        return 0;
    }
    int64_t total = 0;
    for (size_t i = dl_delta_dv_lower_bound(dv, (uint32_t)(start >> 32)); i < dv->n_buckets; i++) {
        int64_t base = (int64_t)dv->buckets[i].key << 32;
        if (base >= end) {
            break;
        }
        uint64_t lo = start > base ? (uint64_t)(start - base) : 0;
        uint64_t hi = end - base < ((int64_t)1 << 32) ? (uint64_t)(end - base) : (uint64_t)1 << 32;
        total += (int64_t)roaring_bitmap_range_cardinality(dv->buckets[i].bm, lo, hi);
    }
    return total;
}

/* Walks the rows of a set that fall in [start, end), as offsets from start, in chunks. */
typedef struct range_walker {
    const dl_delta_dv *dv;
    int64_t start;                  /* offsets are relative to this */
    int64_t end;                    /* first row past the range */
    size_t bucket;                  /* bucket being read; n_buckets when done */
    bool is_positioned;             /* it is positioned inside buckets[bucket] */
    uint32_t read_size;             /* rows asked of the next bulk read */
    roaring_uint32_iterator_t iter; /* CRoaring's cursor in the current bucket */
} range_walker;

static void
walker_init(range_walker *w, const dl_delta_dv *dv, int64_t start, int64_t n) {
    w->dv = dv;
    w->start = start;
    w->end = start + n;
    int64_t first = start > 0 ? start : 0;
    w->bucket = n > 0 ? dl_delta_dv_lower_bound(dv, (uint32_t)(first >> 32)) : dv->n_buckets;
    w->is_positioned = false;
    w->read_size = WALK_FIRST_READ;
}

/* Positions the iterator in the current bucket at the first row >= start; false if none. */
static bool
walker_seek(range_walker *w, int64_t base) {
    const dl_delta_dv_bucket *b = &w->dv->buckets[w->bucket];
    uint32_t lo = w->start > base ? (uint32_t)(w->start - base) : 0;
    roaring_init_iterator(b->bm, &w->iter);
    if (!roaring_move_uint32_iterator_equalorlarger(&w->iter, lo)) {
        return false;
    }
    w->is_positioned = true;
    return true;
}

/* Writes up to cap offsets to out; returns how many (0 when the range is exhausted). out may
 * be overwritten past the returned count, up to cap. */
static size_t
walker_next(range_walker *w, uint32_t *out, size_t cap) {
    const dl_delta_dv *dv = w->dv;
    size_t got = 0;
    while (got < cap && w->bucket < dv->n_buckets) {
        int64_t base = (int64_t)dv->buckets[w->bucket].key << 32;
        if (base >= w->end) {
            w->bucket = dv->n_buckets;
            break;
        }
        if (!w->is_positioned && !walker_seek(w, base)) {
            w->bucket++;
            continue;
        }
        /* Reads grow from a small first one, so that a batch with a few deleted rows does not
         * pull thousands of rows past its end out of the bitmap. */
        uint32_t want = cap - got > w->read_size ? w->read_size : (uint32_t)(cap - got);
        if (w->read_size < WALK_MAX_READ) {
            w->read_size *= 2;
        }
        uint32_t n_read = roaring_read_uint32_iterator(&w->iter, out + got, want);
        int64_t limit = w->end - base; /* values at or above this are past the range */
        uint32_t k = 0;
        for (; k < n_read && (int64_t)out[got + k] < limit; k++) {
            out[got + k] = (uint32_t)(base + (int64_t)out[got + k] - w->start);
        }
        got += k;
        if (k < n_read) {
            w->bucket = dv->n_buckets;
            break;
        }
        if (n_read < want) {
            w->bucket++;
            w->is_positioned = false;
        }
    }
    return got;
}

int64_t
dl_delta_dv_deleted_in_range(const dl_delta_dv *dv, int64_t start, uint32_t n, uint32_t *out) {
    int64_t room = dv->cardinality < (int64_t)n ? dv->cardinality : (int64_t)n;
    if (room == 0) {
        return 0;
    }
    range_walker w;
    walker_init(&w, dv, start, n);
    return (int64_t)walker_next(&w, out, (size_t)room);
}

/*
 * The kept-row selection from the deleted offsets del[0, n_del), which sit at the tail of out
 * (out + n - n_del). Each offset is read before any write can reach its slot: when the rows
 * before r hold j deleted ones, k = r - j kept rows have been written, and since the
 * n_del - j deleted offsets still to come fit in the n - r rows left, k <= n - n_del, below
 * the slot of every unread offset (the window version reads a window's offsets before
 * writing its rows, and the same count bounds it).
 */
static int64_t
select_kept(const uint32_t *del, int64_t n_del, uint32_t n, uint32_t *out) {
    int64_t k = 0;
    if (n_del * 32 < (int64_t)n) {
        /* Few deletions: fill the gaps between them. */
        uint32_t next = 0;
        for (int64_t j = 0; j < n_del; j++) {
            uint32_t d = del[j];
            for (uint32_t r = next; r < d; r++) {
                out[k++] = r;
            }
            next = d + 1;
        }
        for (uint64_t r = next; r < n; r++) {
            out[k++] = (uint32_t)r;
        }
        return k;
    }
    /* Many: per window of rows, a bitmask of the deleted ones, then one branch-free step per
     * row (the cost no longer depends on where the deletions fall). */
    uint64_t mask[KEPT_WINDOW / 64];
    int64_t j = 0;
    for (uint64_t base = 0; base < n; base += KEPT_WINDOW) {
        uint32_t len = n - base < KEPT_WINDOW ? (uint32_t)(n - base) : KEPT_WINDOW;
        memset(mask, 0, sizeof(mask));
        for (; j < n_del && del[j] < base + len; j++) {
            uint32_t o = (uint32_t)(del[j] - base);
            mask[o >> 6] |= (uint64_t)1 << (o & 63);
        }
        for (uint32_t i = 0; i < len; i++) {
            out[k] = (uint32_t)(base + i);
            k += (int64_t)(~(mask[i >> 6] >> (i & 63)) & 1);
        }
    }
    return k;
}

int64_t
dl_delta_dv_kept_in_range(const dl_delta_dv *dv, int64_t start, uint32_t n, uint32_t *out) {
    int64_t room = dv->cardinality < (int64_t)n ? dv->cardinality : (int64_t)n;
    int64_t n_del = 0;
    if (room > 0) {
        /* The deleted offsets go to the end of out, where select_kept reads them. */
        range_walker w;
        walker_init(&w, dv, start, n);
        uint32_t *tail = out + (n - room);
        n_del = (int64_t)walker_next(&w, tail, (size_t)room);
        if (n_del > 0 && n_del < room) {
            memmove(out + (n - n_del), tail, (size_t)n_del * sizeof(uint32_t));
        }
    }
    if (n_del == 0) {
        for (uint32_t r = 0; r < n; r++) {
            out[r] = r;
        }
        return n;
    }
    return select_kept(out + (n - n_del), n_del, n, out);
}

void
dl_delta_dv_to_array(const dl_delta_dv *dv, int64_t *out) {
    size_t k = 0;
    uint32_t chunk[WALK_CHUNK];
    for (size_t i = 0; i < dv->n_buckets; i++) {
        int64_t base = (int64_t)dv->buckets[i].key << 32;
        roaring_uint32_iterator_t it;
        roaring_init_iterator(dv->buckets[i].bm, &it);
        uint32_t got;
        while ((got = roaring_read_uint32_iterator(&it, chunk, WALK_CHUNK)) > 0) {
            for (uint32_t j = 0; j < got; j++) {
                out[k++] = base | (int64_t)chunk[j];
            }
        }
    }
}

bool
dl_delta_dv_equal(const dl_delta_dv *a, const dl_delta_dv *b) {
    if (a->cardinality != b->cardinality || a->n_buckets != b->n_buckets) {
        return false;
    }
    for (size_t i = 0; i < a->n_buckets; i++) {
        const roaring_bitmap_t *x = a->buckets[i].bm;
        const roaring_bitmap_t *y = b->buckets[i].bm;
        uint64_t n = roaring_bitmap_get_cardinality(x);
        /* Compared by content: the same rows may be encoded as runs in one and arrays in the
         * other, which roaring_bitmap_equals would call different. */
        if (a->buckets[i].key != b->buckets[i].key || roaring_bitmap_get_cardinality(y) != n ||
            roaring_bitmap_and_cardinality(x, y) != n) {
            return false;
        }
    }
    return true;
}
