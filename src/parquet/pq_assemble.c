/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Nested vectors from definition and repetition levels (Dremel; parquet-format README
 * "Nested Encoding"; the same shape as Arrow's DefRepLevelsToList).
 *
 * Every field of the plan owns a run of "slots": positions in its vector. A field's slots
 * exist at the level entries of any leaf below it where
 *
 *     rep <= rep_ctx  and  def >= def_ctx
 *
 * (def_ctx, rep_ctx) being the levels of the nearest repeated node above the field (0, 0 at
 * the top, where each record is one slot): an entry with a higher repetition level continues
 * something deeper, and one with a lower definition level stops above the field's container.
 * The slot is non-null when def >= def_valid, the field's own definition level. For a list
 * (or map) the elements are the slots of its child, whose context is the repeated node
 * itself, so list k's offsets run over the element slots met from its own slot to the next.
 * A struct's fields have the struct's context: every field has exactly the struct's slots,
 * which is checked (leaves that disagree are a corrupt file, ARROW-GH-41317).
 *
 * Leaves arrive with their present values packed densely in their vector (pq_column.c); the
 * leaf's slots are then filled by moving values backwards to their slot positions, in place,
 * with the validity bitmap written on the way. Struct, list and map vectors need only the
 * levels of one leaf below them (level_col): all leaves below a node agree on its structure.
 */
#include <string.h>

#include "parquet/pq_reader_int.h"

void
dl_pq_plan_bind(const dl_pq_plan *plan, dl_vector *vec, dl_vector **targets) {
    switch (plan->field->kind) {
    case DL_PQ_FIELD_LEAF:
        targets[plan->col] = vec;
        return;
    case DL_PQ_FIELD_STRUCT:
        for (size_t i = 0; i < plan->n_children; i++) {
            dl_pq_plan_bind(plan->children[i], vec->children[i], targets);
        }
        return;
    case DL_PQ_FIELD_LIST:
        dl_pq_plan_bind(plan->children[0], vec->children[0], targets);
        return;
    case DL_PQ_FIELD_MAP:
        dl_pq_plan_bind(plan->children[0], vec->children[0]->children[0], targets);
        dl_pq_plan_bind(plan->children[1], vec->children[0]->children[1], targets);
        return;
    }
}

static dl_status
slot_mismatch(const dl_pq_plan *plan, int64_t got, int64_t want, dl_error *err) {
    DL_FAIL(err, DL_ERR_CORRUPT,
            "column '%s' has %lld values where its parent has %lld (the file's columns disagree "
            "about its structure)",
            plan->field->node->path, (long long)got, (long long)want);
}

/* ---- Leaves -------------------------------------------------------------------------------- */

static int64_t
count_at_least(const uint16_t *def, int64_t m, int16_t level) {
    if (level <= 0) {
        return m;
    }
    int64_t count = 0;
    for (int64_t i = 0; i < m; i++) {
        count += def[i] >= (uint16_t)level;
    }
    return count;
}

/* Moves element j to slot k (k >= j) and marks it valid, or makes slot k a null. */
static void
move_bits(dl_vector *vec, const uint16_t *def, int64_t m, int16_t def_ctx, int16_t def_valid,
          int64_t s, int64_t present) {
    uint8_t *bits = vec->data;
    int64_t k = s - 1;
    int64_t j = present - 1;
    for (int64_t i = m - 1; i >= 0 && k > j; i--) {
        if (def[i] < (uint16_t)def_ctx) {
            continue;
        }
        if (def[i] >= (uint16_t)def_valid) {
            dl_vec_bit_put(bits, k, dl_vec_bit_get(bits, j));
            j--;
        } else {
            dl_vec_bit_clear(bits, k);
            dl_vec_bit_clear(vec->validity, k);
        }
        k--;
    }
}

static void
move_bytes(dl_vector *vec, size_t w, const uint16_t *def, int64_t m, int16_t def_ctx,
           int16_t def_valid, int64_t s, int64_t present) {
    uint8_t *data = vec->data;
    int64_t k = s - 1;
    int64_t j = present - 1;
    for (int64_t i = m - 1; i >= 0 && k > j; i--) {
        if (def[i] < (uint16_t)def_ctx) {
            continue;
        }
        if (def[i] >= (uint16_t)def_valid) {
            memcpy(data + (size_t)k * w, data + (size_t)j * w, w);
            j--;
        } else {
            memset(data + (size_t)k * w, 0, w);
            dl_vec_bit_clear(vec->validity, k);
        }
        k--;
    }
}

static dl_status
assemble_leaf(const dl_pq_plan *plan, dl_pq_col *col, dl_vector *vec, int64_t n_slots,
              dl_error *err) {
    const dl_pq_field *f = plan->field;
    int64_t m = col->n_levels;
    const uint16_t *def = col->def;
    int64_t s = def == NULL ? m : count_at_least(def, m, f->def_ctx);
    if (s != n_slots) {
        return slot_mismatch(plan, s, n_slots, err);
    }
    bool is_void = col->conv == DL_PQ_CONV_VOID;
    int64_t present = is_void ? 0 : vec->length;
    if (present == s && !is_void) {
        return DL_OK;
    }
    DL_ASSERT(def != NULL || is_void);
    int64_t valid = def == NULL ? m : count_at_least(def, m, f->def_valid);
    DL_CHECK(is_void || valid == present, err, DL_ERR_INTERNAL,
             "column '%s': %lld values decoded for %lld present entries", f->node->path,
             (long long)present, (long long)valid);
    DL_TRY(dl_pq_vec_room(vec, s - vec->length, err));
    DL_TRY(dl_vec_make_validity(vec, err));
    if (is_void) {
        dl_vec_bits_fill(vec->validity, 0, s, false);
    } else if (vec->layout != DL_VEC_DICT && dl_vec_type_phys(vec->type) == DL_VEC_PHYS_BIT) {
        move_bits(vec, def, m, f->def_ctx, f->def_valid, s, present);
    } else {
        size_t w = vec->layout == DL_VEC_DICT ? sizeof(int32_t) : dl_vec_type_width(vec->type);
        move_bytes(vec, w, def, m, f->def_ctx, f->def_valid, s, present);
    }
    vec->length = s;
    return DL_OK;
}

/* ---- Structs, lists, maps ------------------------------------------------------------------ */

static dl_status assemble(const dl_pq_plan *plan, dl_pq_col *cols, dl_vector *vec, int64_t n_slots,
                          dl_error *err);

/* Slots and validity of a struct from its level column. */
static dl_status
assemble_struct(const dl_pq_plan *plan, dl_pq_col *cols, dl_vector *vec, int64_t n_slots,
                dl_error *err) {
    const dl_pq_field *f = plan->field;
    const dl_pq_col *lc = &cols[plan->level_col];
    const uint16_t *def = lc->def;
    const uint16_t *rep = lc->rep;
    int64_t m = lc->n_levels;
    int64_t s = 0;
    int64_t n_null = 0;
    for (int64_t i = 0; i < m; i++) {
        uint16_t d = def != NULL ? def[i] : 0;
        uint16_t r = rep != NULL ? rep[i] : 0;
        if (r <= (uint16_t)f->rep_ctx && d >= (uint16_t)f->def_ctx) {
            s++;
            n_null += d < (uint16_t)f->def_valid;
        }
    }
    if (s != n_slots) {
        return slot_mismatch(plan, s, n_slots, err);
    }
    DL_TRY(dl_vec_reserve(vec, s, err));
    if (n_null > 0) {
        DL_TRY(dl_vec_make_validity(vec, err));
        int64_t k = 0;
        for (int64_t i = 0; i < m; i++) {
            uint16_t d = def != NULL ? def[i] : 0;
            uint16_t r = rep != NULL ? rep[i] : 0;
            if (r <= (uint16_t)f->rep_ctx && d >= (uint16_t)f->def_ctx) {
                dl_vec_bit_put(vec->validity, k++, d >= (uint16_t)f->def_valid);
            }
        }
    }
    for (size_t c = 0; c < plan->n_children; c++) {
        DL_TRY(assemble(plan->children[c], cols, vec->children[c], s, err));
    }
    vec->length = s;
    return DL_OK;
}

/* Marks slot k of a list null, creating the bitmap on the first null. */
static dl_status
list_null(dl_vector *vec, int64_t k, bool *has_null, dl_error *err) {
    if (!*has_null) {
        DL_TRY(dl_vec_make_validity(vec, err));
        *has_null = true;
    }
    dl_vec_bit_clear(vec->validity, k);
    return DL_OK;
}

/* Offsets and validity of a list or map; *out_elements receives the element count. */
static dl_status
list_offsets(const dl_pq_plan *plan, const dl_pq_col *lc, const dl_pq_field *elem, dl_vector *vec,
             int64_t n_slots, int64_t *out_elements, dl_error *err) {
    const dl_pq_field *f = plan->field;
    const uint16_t *def = lc->def;
    const uint16_t *rep = lc->rep;
    int64_t m = lc->n_levels;
    DL_TRY(dl_vec_reserve(vec, n_slots, err));
    int32_t *offsets = vec->data;
    int64_t k = 0;
    int64_t count = 0;
    bool has_null = false;
    for (int64_t i = 0; i < m; i++) {
        uint16_t d = def[i];
        uint16_t r = rep[i];
        bool is_slot = r <= (uint16_t)f->rep_ctx && d >= (uint16_t)f->def_ctx;
        if (is_slot && k == n_slots) {
            return slot_mismatch(plan, k + 1, n_slots, err);
        }
        if (is_slot && d < (uint16_t)f->def_valid) {
            DL_TRY(list_null(vec, k, &has_null, err));
        }
        if (is_slot) {
            offsets[k++] = (int32_t)count;
        }
        count += r <= (uint16_t)elem->rep_ctx && d >= (uint16_t)elem->def_ctx;
    }
    if (k != n_slots) {
        return slot_mismatch(plan, k, n_slots, err);
    }
    DL_CHECK(count <= INT32_MAX, err, DL_ERR_LIMIT,
             "column '%s': more than 2^31 list elements in one batch", f->node->path);
    offsets[k] = (int32_t)count;
    vec->length = k;
    *out_elements = count;
    return DL_OK;
}

static dl_status
assemble_list(const dl_pq_plan *plan, dl_pq_col *cols, dl_vector *vec, int64_t n_slots,
              dl_error *err) {
    const dl_pq_plan *elem = plan->children[0];
    int64_t n = 0;
    DL_TRY(list_offsets(plan, &cols[plan->level_col], elem->field, vec, n_slots, &n, err));
    return assemble(elem, cols, vec->children[0], n, err);
}

static dl_status
assemble_map(const dl_pq_plan *plan, dl_pq_col *cols, dl_vector *vec, int64_t n_slots,
             dl_error *err) {
    const dl_pq_plan *key = plan->children[0];
    int64_t n = 0;
    DL_TRY(list_offsets(plan, &cols[plan->level_col], key->field, vec, n_slots, &n, err));
    dl_vector *entries = vec->children[0];
    DL_TRY(dl_vec_reserve(entries, n, err));
    DL_TRY(assemble(key, cols, entries->children[0], n, err));
    DL_TRY(assemble(plan->children[1], cols, entries->children[1], n, err));
    DL_CHECK(entries->children[0]->validity == NULL || dl_vec_null_count(entries->children[0]) == 0,
             err, DL_ERR_CORRUPT, "column '%s': a map key is null (map keys must not be null)",
             key->field->node->path);
    entries->length = n;
    return DL_OK;
}

static dl_status
assemble(const dl_pq_plan *plan, dl_pq_col *cols, dl_vector *vec, int64_t n_slots, dl_error *err) {
    switch (plan->field->kind) {
    case DL_PQ_FIELD_LEAF:
        return assemble_leaf(plan, &cols[plan->col], vec, n_slots, err);
    case DL_PQ_FIELD_STRUCT:
        return assemble_struct(plan, cols, vec, n_slots, err);
    case DL_PQ_FIELD_LIST:
        return assemble_list(plan, cols, vec, n_slots, err);
    default:
        return assemble_map(plan, cols, vec, n_slots, err);
    }
}

dl_status
dl_pq_assemble(const dl_pq_plan *plan, dl_pq_col *cols, dl_vector *vec, int64_t n_slots,
               dl_error *err) {
    return assemble(plan, cols, vec, n_slots, err);
}
