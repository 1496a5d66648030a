/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sorting normalized-key entries (sql_op_sort_int.h).
 *
 * MSD radix sort over the key bytes, most significant first: one histogram pass per byte, then
 * entries are swapped into their buckets in place (American flag sort: no scratch memory,
 * which matters where first-touch page faults are dear). Bytes that are equal across the whole
 * input (the NULL markers of a column without NULLs, the high bytes of small integers) are found in
 * one pass up front and never looked at again; a byte on which a group does not split costs a
 * histogram and no scatter. Groups of at most INSERTION_MAX entries end in an insertion sort.
 * When a group reaches the end of an inexact key (a string longer than its prefix, a nested
 * value) whose encodings tie, the rest of the group is sorted by comparisons instead, since
 * the following bytes no longer decide. The comparison sort is a quicksort with three-way
 * partitioning (groups of equal keys cost linear time) that falls back to heapsort when its
 * recursion gets too deep.
 */
#include <string.h>

#include "sql/exec/sql_op_sort_int.h"

#define INSERTION_MAX 24
#define MAX_WORDS     (DL_SQL_SORT_KEY_MAX / 8 + 2)

static inline void
copy_entry(uint64_t *dst, const uint64_t *src, int32_t nw) {
    for (int32_t w = 0; w < nw; w++) {
        dst[w] = src[w];
    }
}

static inline void
swap_entries(uint64_t *a, uint64_t *b, int32_t nw) {
    for (int32_t w = 0; w < nw; w++) {
        uint64_t t = a[w];
        a[w] = b[w];
        b[w] = t;
    }
}

static void
insertion_sort(const dl_sql_sort_cmp *cmp, uint64_t *e, int64_t n) {
    int32_t nw = cmp->lay->nw;
    uint64_t tmp[MAX_WORDS];
    for (int64_t i = 1; i < n; i++) {
        if (dl_sql_sort_compare(cmp, e + (i - 1) * nw, e + i * nw) <= 0) {
            continue;
        }
        copy_entry(tmp, e + i * nw, nw);
        int64_t j = i;
        while (j > 0 && dl_sql_sort_compare(cmp, e + (j - 1) * nw, tmp) > 0) {
            copy_entry(e + j * nw, e + (j - 1) * nw, nw);
            j--;
        }
        copy_entry(e + j * nw, tmp, nw);
    }
}

/* ---- comparison sort ----------------------------------------------------------------------- */

static void
sift_down(const dl_sql_sort_cmp *cmp, uint64_t *e, int64_t root, int64_t n) {
    int32_t nw = cmp->lay->nw;
    for (;;) {
        int64_t child = 2 * root + 1;
        if (child >= n) {
            return;
        }
        if (child + 1 < n && dl_sql_sort_compare(cmp, e + child * nw, e + (child + 1) * nw) < 0) {
            child++;
        }
        if (dl_sql_sort_compare(cmp, e + root * nw, e + child * nw) >= 0) {
            return;
        }
        swap_entries(e + root * nw, e + child * nw, nw);
        root = child;
    }
}

static void
heap_sort(const dl_sql_sort_cmp *cmp, uint64_t *e, int64_t n) {
    int32_t nw = cmp->lay->nw;
    for (int64_t i = n / 2 - 1; i >= 0; i--) {
        sift_down(cmp, e, i, n);
    }
    for (int64_t end = n - 1; end > 0; end--) {
        swap_entries(e, e + end * nw, nw);
        sift_down(cmp, e, 0, end);
    }
}

/* Puts the median of the first, middle and last entries into pivot. */
static void
median_of_three(const dl_sql_sort_cmp *cmp, uint64_t *e, int64_t n, uint64_t *pivot) {
    int32_t nw = cmp->lay->nw;
    uint64_t *a = e;
    uint64_t *b = e + (n / 2) * nw;
    uint64_t *c = e + (n - 1) * nw;
    if (dl_sql_sort_compare(cmp, a, b) > 0) {
        swap_entries(a, b, nw);
    }
    if (dl_sql_sort_compare(cmp, b, c) > 0) {
        swap_entries(b, c, nw);
        if (dl_sql_sort_compare(cmp, a, b) > 0) {
            swap_entries(a, b, nw);
        }
    }
    copy_entry(pivot, b, nw);
}

static void
quick_sort(const dl_sql_sort_cmp *cmp, uint64_t *e, int64_t n, int depth) {
    int32_t nw = cmp->lay->nw;
    uint64_t pivot[MAX_WORDS];
    while (n > INSERTION_MAX) {
        if (depth-- == 0) {
            heap_sort(cmp, e, n);
            return;
        }
        median_of_three(cmp, e, n, pivot);
        int64_t lt = 0;
        int64_t i = 0;
        int64_t gt = n;
        while (i < gt) {
            int c = dl_sql_sort_compare(cmp, e + i * nw, pivot);
            if (c < 0) {
                swap_entries(e + lt * nw, e + i * nw, nw);
                lt++;
                i++;
            } else if (c > 0) {
                gt--;
                swap_entries(e + i * nw, e + gt * nw, nw);
            } else {
                i++;
            }
        }
        /* [0, lt) < pivot, [lt, gt) = pivot, [gt, n) > pivot: recurse on the smaller side. */
        if (lt < n - gt) {
            quick_sort(cmp, e, lt, depth);
            e += gt * nw;
            n -= gt;
        } else {
            quick_sort(cmp, e + gt * nw, n - gt, depth);
            n = lt;
        }
    }
    insertion_sort(cmp, e, n);
}

void
dl_sql_sort_entries_cmp(const dl_sql_sort_cmp *cmp, uint64_t *entries, int64_t n) {
    int depth = 2;
    for (int64_t m = n; m > 1; m >>= 1) {
        depth += 2;
    }
    quick_sort(cmp, entries, n, depth);
}

/* ---- radix sort ---------------------------------------------------------------------------- */

typedef struct radix_ctx {
    const dl_sql_sort_cmp *cmp;
    const dl_sql_sort_layout *lay;
    const uint8_t *varies; /* per key byte: differs somewhere in the input */
} radix_ctx;

static inline uint32_t
byte_at(const uint64_t *e, int32_t p) {
    return (uint32_t)(e[p / 8] >> (56 - 8 * (p % 8))) & 0xFFu;
}

/* True when the group of n entries at e, equal on bytes [0, p), must be ordered by full
 * comparisons because an inexact key ends at p and its encodings do not settle the ties. */
static bool
needs_full_at(const radix_ctx *rc, int32_t p, const uint64_t *e, int64_t n) {
    const dl_sql_sort_layout *lay = rc->lay;
    for (int32_t i = 0; i < lay->n_inexact; i++) {
        const dl_sql_skey *k = &lay->keys[lay->inexact[i]];
        if (k->offset + k->width == p && dl_sql_sort_group_needs_full(lay, lay->inexact[i], e, n)) {
            return true;
        }
    }
    return false;
}

/* Sorts the n entries at e, which are equal on key bytes [0, p), in place: American flag sort
 * (each entry is swapped straight into its bucket), then each bucket on the next byte. */
static void
msd(const radix_ctx *rc, uint64_t *e, int64_t n, int32_t p) {
    int32_t nw = rc->lay->nw;
    int64_t next[256];
    int64_t end[256];
    for (;;) {
        if (n <= INSERTION_MAX) {
            insertion_sort(rc->cmp, e, n);
            return;
        }
        if (!rc->lay->is_exact && needs_full_at(rc, p, e, n)) {
            dl_sql_sort_entries_cmp(rc->cmp, e, n);
            return;
        }
        if (p >= rc->lay->key_bytes) {
            return;
        }
        if (!rc->varies[p]) {
            p++;
            continue;
        }
        memset(end, 0, sizeof(end));
        for (int64_t i = 0; i < n; i++) {
            end[byte_at(e + i * nw, p)]++;
        }
        if (end[byte_at(e, p)] == n) {
            p++;
            continue;
        }
        int64_t sum = 0;
        for (int b = 0; b < 256; b++) {
            next[b] = sum;
            sum += end[b];
            end[b] = sum;
        }
        for (int b = 0; b < 256; b++) {
            while (next[b] < end[b]) {
                uint64_t *x = e + next[b] * nw;
                uint32_t v = byte_at(x, p);
                while (v != (uint32_t)b) {
                    swap_entries(x, e + (next[v]++) * nw, nw);
                    v = byte_at(x, p);
                }
                next[b]++;
            }
        }
        int64_t start = 0;
        for (int b = 0; b < 256; b++) {
            if (end[b] > start) {
                msd(rc, e + start * nw, end[b] - start, p + 1);
            }
            start = end[b];
        }
        return;
    }
}

/* Marks the key bytes that are not equal across all n entries. */
static void
find_varying(const dl_sql_sort_layout *lay, const uint64_t *e, int64_t n, uint8_t *varies) {
    uint64_t and_w[MAX_WORDS];
    uint64_t or_w[MAX_WORDS];
    for (int32_t w = 0; w < MAX_WORDS; w++) { /* all words: key bytes never reach past nw */
        and_w[w] = UINT64_MAX;
        or_w[w] = 0;
    }
    for (int64_t i = 0; i < n; i++) {
        const uint64_t *x = e + i * lay->nw;
        for (int32_t w = 0; w < lay->nw; w++) {
            and_w[w] &= x[w];
            or_w[w] |= x[w];
        }
    }
    for (int32_t p = 0; p < lay->key_bytes; p++) {
        uint64_t diff = and_w[p / 8] ^ or_w[p / 8];
        varies[p] = ((diff >> (56 - 8 * (p % 8))) & 0xFFu) != 0;
    }
}

void
dl_sql_sort_entries(const dl_sql_sort_cmp *cmp, uint64_t *entries, int64_t n) {
    const dl_sql_sort_layout *lay = cmp->lay;
    if (n <= (int64_t)INSERTION_MAX * 4 || lay->key_bytes == 0) {
        dl_sql_sort_entries_cmp(cmp, entries, n);
        return;
    }
    uint8_t varies[DL_SQL_SORT_KEY_MAX + 8];
    find_varying(lay, entries, n, varies);
    radix_ctx rc = {.cmp = cmp, .lay = lay, .varies = varies};
    msd(&rc, entries, n, 0);
}
