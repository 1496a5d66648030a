/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The unified read view (see dl_vec_unified in vector.h): flat vectors map row i to element
 * i through a static identity selection, constant vectors map every row to element 0 through
 * a static zero selection, and dictionary vectors use their index buffer as the selection.
 * Validity is by row, so a dictionary whose entries can be null gets its row bitmap combined
 * into the view's scratch space.
 */
#include <string.h>

#include "vector/vector_int.h"

_Static_assert(DL_BATCH_CAPACITY == 2048, "identity_sel below is spelled for 2048 rows");

#define SEQ1(n)    (n)
#define SEQ2(n)    SEQ1(n), SEQ1((n) + 1)
#define SEQ4(n)    SEQ2(n), SEQ2((n) + 2)
#define SEQ8(n)    SEQ4(n), SEQ4((n) + 4)
#define SEQ16(n)   SEQ8(n), SEQ8((n) + 8)
#define SEQ32(n)   SEQ16(n), SEQ16((n) + 16)
#define SEQ64(n)   SEQ32(n), SEQ32((n) + 32)
#define SEQ128(n)  SEQ64(n), SEQ64((n) + 64)
#define SEQ256(n)  SEQ128(n), SEQ128((n) + 128)
#define SEQ512(n)  SEQ256(n), SEQ256((n) + 256)
#define SEQ1024(n) SEQ512(n), SEQ512((n) + 512)
#define SEQ2048(n) SEQ1024(n), SEQ1024((n) + 1024)

static const uint32_t identity_sel[DL_BATCH_CAPACITY] = {SEQ2048(0u)};
static const uint32_t zero_sel[DL_BATCH_CAPACITY];
static const uint8_t all_null[DL_BATCH_CAPACITY / 8];

static void
unify_dict(const dl_vector *vec, int64_t count, dl_vec_unified *u) {
    const dl_vector *dict = vec->dict;
    u->flat = dict;
    u->data = dict->data;
    u->sel = (const uint32_t *)vec->data;
    if (dict->validity == NULL) {
        u->validity = vec->validity;
        return;
    }
    memset(u->validity_scratch, 0, dl_vec_bitmap_bytes(count));
    for (int64_t i = 0; i < count; i++) {
        bool is_valid = (vec->validity == NULL || dl_vec_bit_get(vec->validity, i)) &&
                        dl_vec_bit_get(dict->validity, u->sel[i]);
        if (is_valid) {
            dl_vec_bit_set(u->validity_scratch, i);
        }
    }
    u->validity = u->validity_scratch;
}

void
dl_vec_unify(const dl_vector *vec, int64_t count, dl_vec_unified *u) {
    DL_ASSERT(count >= 0 && count <= DL_BATCH_CAPACITY && count <= vec->length);
    u->count = count;
    switch (vec->layout) {
    case DL_VEC_CONST:
        u->flat = vec;
        u->data = vec->data;
        u->sel = zero_sel;
        u->validity = vec->validity != NULL && !dl_vec_bit_get(vec->validity, 0) ? all_null : NULL;
        return;
    case DL_VEC_DICT:
        unify_dict(vec, count, u);
        return;
    default:
        u->flat = vec;
        u->data = vec->data;
        u->sel = identity_sel;
        u->validity = vec->validity;
        return;
    }
}
