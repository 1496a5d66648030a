/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The log listing and the log segment (PROTOCOL.md, "Delta Log Entries", "Checkpoints",
 * "Log Compaction Files", "Last Checkpoint File").
 *
 * File names in _delta_log/ (Spark's FileNames.scala patterns; anything else is ignored):
 *
 *   <v>.json                          commit
 *   <v>.crc                           version checksum
 *   <v>.checkpoint.parquet            classic checkpoint
 *   <v>.checkpoint.<o>.<p>.parquet    part o of p of a multi-part checkpoint (1 <= o <= p)
 *   <v>.checkpoint.<uuid>.json|parquet  UUID-named V2 checkpoint
 *   <x>.<y>.compacted.json            log compaction of commits x..y (x < y)
 *
 * Versions are written zero-padded to 20 digits; they are parsed as numbers, so unpadded
 * names are understood too, and the listing is re-sorted by version rather than trusted.
 *
 * Building version v takes the newest complete checkpoint at or below v that this build can
 * read (a multi-part checkpoint with a part missing is ignored, as the protocol requires) and
 * the commits after it, which must run without a gap up to v; with no usable checkpoint the
 * commits must run from 0. A gap is an error naming the missing commit, never a silently
 * partial table. _last_checkpoint is only a hint of where to start listing: when it is
 * missing, unreadable, fails its checksum (delta_last_checkpoint.c) or points at nothing
 * usable, the whole log is listed. Compaction files
 * are listed but not used (reading the commits they summarise is always correct), and .crc
 * files are not validated (the protocol lets readers ignore them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "delta/delta_int.h"

bool
dl_delta_can_read_parquet_checkpoints(void) {
    return true; /* delta_checkpoint.c */
}

bool
dl_delta_parse_version(dl_str digits, int64_t *out) {
    if (digits.len == 0 || digits.len > DL_DELTA_VERSION_DIGITS) {
        return false;
    }
    int64_t v = 0;
    for (size_t i = 0; i < digits.len; i++) {
        char c = digits.ptr[i];
        if (c < '0' || c > '9') {
            return false;
        }
        if (DL_MUL_OVERFLOW(v, 10, &v) || DL_ADD_OVERFLOW(v, c - '0', &v)) {
            return false;
        }
    }
    *out = v;
    return true;
}

void
dl_delta_commit_name(int64_t version, char out[32]) {
    (void)snprintf(out, 32, "%020lld.json", (long long)version);
}

dl_status
dl_delta_commit_check_size(const dl_delta_log_file *lf, dl_error *err) {
    if (lf->size != 0) {
        return DL_OK;
    }
    DL_ERROR_WHERE(err);
    dl_error_set(err, DL_ERR_CORRUPT,
                 "commit _delta_log/%s is empty (0 bytes): every commit holds at least one "
                 "action, so this one lost its contents (a crash, a full disk or a bad copy)",
                 lf->name);
    dl_error_hint(err, "restore the file from a backup; if it is the newest version and nothing "
                       "has read it, moving it out of _delta_log makes the table its previous "
                       "version again");
    return DL_ERR_CORRUPT;
}

bool
dl_delta_str_eq_nocase_cstr(dl_str s, const char *lit) {
    return dl_str_eq_nocase(s, dl_str_from_cstr(lit));
}

/* Length of the leading run of digits of s. */
static size_t
digit_run(dl_str s) {
    size_t i = 0;
    while (i < s.len && s.ptr[i] >= '0' && s.ptr[i] <= '9') {
        i++;
    }
    return i;
}

/* "<o>.<p>.parquet" of a multi-part checkpoint. */
static bool
parse_parts(dl_str rest, dl_delta_log_file *out) {
    size_t a = digit_run(rest);
    int64_t part;
    int64_t n_parts;
    if (a == 0 || a >= rest.len || rest.ptr[a] != '.' ||
        !dl_delta_parse_version(dl_str_make(rest.ptr, a), &part)) {
        return false;
    }
    dl_str tail = dl_str_slice(rest, a + 1, rest.len);
    size_t b = digit_run(tail);
    if (b == 0 || !dl_str_eq_cstr(dl_str_slice(tail, b, tail.len), ".parquet") ||
        !dl_delta_parse_version(dl_str_make(tail.ptr, b), &n_parts)) {
        return false;
    }
    if (part < 1 || n_parts < 1 || part > n_parts || n_parts > INT32_MAX) {
        return false;
    }
    out->kind = DL_DELTA_LOG_CHECKPOINT_PART;
    out->part = (int32_t)part;
    out->n_parts = (int32_t)n_parts;
    return true;
}

/* What follows "<v>.checkpoint.". */
static bool
parse_checkpoint(dl_str rest, dl_delta_log_file *out) {
    if (dl_str_eq_cstr(rest, "parquet")) {
        out->kind = DL_DELTA_LOG_CHECKPOINT;
        return true;
    }
    if (parse_parts(rest, out)) {
        return true;
    }
    int64_t dot = dl_str_find_byte(rest, '.');
    if (dot <= 0) {
        return false;
    }
    dl_str ext = dl_str_slice(rest, (size_t)dot + 1, rest.len);
    if (!dl_str_eq_cstr(ext, "json") && !dl_str_eq_cstr(ext, "parquet")) {
        return false;
    }
    out->kind = DL_DELTA_LOG_CHECKPOINT_V2;
    out->is_json = dl_str_eq_cstr(ext, "json");
    return true;
}

bool
dl_delta_log_name_parse(dl_str name, dl_delta_log_file *out) {
    memset(out, 0, sizeof(*out));
    out->n_parts = 1;
    size_t n = digit_run(name);
    if (n == 0 || n >= name.len || name.ptr[n] != '.' ||
        !dl_delta_parse_version(dl_str_make(name.ptr, n), &out->version)) {
        return false;
    }
    out->end_version = out->version;
    dl_str rest = dl_str_slice(name, n + 1, name.len);
    if (dl_str_eq_cstr(rest, "json")) {
        out->kind = DL_DELTA_LOG_COMMIT;
        return true;
    }
    if (dl_str_eq_cstr(rest, "crc")) {
        out->kind = DL_DELTA_LOG_CRC;
        return true;
    }
    if (dl_str_starts_with(rest, DL_STR("checkpoint."))) {
        return parse_checkpoint(dl_str_slice(rest, 11, rest.len), out);
    }
    size_t m = digit_run(rest);
    if (m > 0 && dl_str_eq_cstr(dl_str_slice(rest, m, rest.len), ".compacted.json") &&
        dl_delta_parse_version(dl_str_make(rest.ptr, m), &out->end_version) &&
        out->end_version > out->version) {
        out->kind = DL_DELTA_LOG_COMPACTED;
        return true;
    }
    return false;
}

/* Orders by version, then kind, then name: parts of one checkpoint end up together. */
static int
cmp_log_file(const void *pa, const void *pb) {
    const dl_delta_log_file *a = pa;
    const dl_delta_log_file *b = pb;
    if (a->version != b->version) {
        return a->version < b->version ? -1 : 1;
    }
    if (a->kind != b->kind) {
        return a->kind < b->kind ? -1 : 1;
    }
    return strcmp(a->name, b->name);
}

/* Appends f to the array of its kind (each array has room for every entry). */
static void
add_file(dl_delta_log_list *out, const dl_delta_log_file *f) {
    switch (f->kind) {
    case DL_DELTA_LOG_COMMIT:
        out->commits[out->n_commits++] = *f;
        break;
    case DL_DELTA_LOG_CRC:
        out->crcs[out->n_crcs++] = *f;
        break;
    case DL_DELTA_LOG_COMPACTED:
        out->compactions[out->n_compactions++] = *f;
        break;
    default:
        out->checkpoints[out->n_checkpoints++] = *f;
        break;
    }
}

/* Sorts the commits and drops duplicate versions ("1.json" beside "00..01.json"). */
static void
sort_and_dedupe(dl_delta_log_list *out) {
    qsort(out->commits, out->n_commits, sizeof(dl_delta_log_file), cmp_log_file);
    qsort(out->checkpoints, out->n_checkpoints, sizeof(dl_delta_log_file), cmp_log_file);
    qsort(out->compactions, out->n_compactions, sizeof(dl_delta_log_file), cmp_log_file);
    qsort(out->crcs, out->n_crcs, sizeof(dl_delta_log_file), cmp_log_file);
    size_t w = 0;
    for (size_t i = 0; i < out->n_commits; i++) {
        if (w == 0 || out->commits[w - 1].version != out->commits[i].version) {
            out->commits[w++] = out->commits[i];
        }
    }
    out->n_commits = w;
}

dl_status
dl_delta_log_list_read(dl_delta_table *table, int64_t from_version, dl_arena *arena,
                       dl_delta_log_list *out, dl_error *err) {
    memset(out, 0, sizeof(*out));
    const char *after = NULL;
    if (from_version >= 0) {
        after = dl_arena_printf(arena, "%s%020lld", table->log_dir, (long long)from_version);
        DL_CHECK(after != NULL, err, DL_ERR_NOMEM, "out of memory listing %s", table->display);
    }
    dl_store_listing listing;
    dl_status st = dl_store_list(table->store, table->log_dir, after, 0, arena, &listing, err);
    if (st == DL_ERR_NOT_FOUND) {
        dl_error_set(err, DL_ERR_NOT_FOUND, "%s is not a Delta table: it has no _delta_log folder",
                     table->display);
        return st;
    }
    DL_TRY_CTX(st, err, "%s: listing _delta_log", table->display);
    size_t n = listing.count ? listing.count : 1;
    out->commits = dl_arena_alloc_array(arena, n, sizeof(dl_delta_log_file));
    out->checkpoints = dl_arena_alloc_array(arena, n, sizeof(dl_delta_log_file));
    out->compactions = dl_arena_alloc_array(arena, n, sizeof(dl_delta_log_file));
    out->crcs = dl_arena_alloc_array(arena, n, sizeof(dl_delta_log_file));
    DL_CHECK(out->commits && out->checkpoints && out->compactions && out->crcs, err, DL_ERR_NOMEM,
             "out of memory listing the log of %s", table->display);
    size_t dir_len = strlen(table->log_dir);
    for (size_t i = 0; i < listing.count; i++) {
        const dl_store_entry *e = &listing.entries[i];
        if (e->is_dir || e->path.len <= dir_len) {
            continue;
        }
        dl_delta_log_file f;
        dl_str name = dl_str_slice(e->path, dir_len, e->path.len - dir_len);
        if (!dl_delta_log_name_parse(name, &f)) {
            continue;
        }
        f.path = e->path.ptr;
        f.name = e->path.ptr + dir_len;
        f.size = e->size;
        f.mtime_ms = e->mtime_ms;
        add_file(out, &f);
    }
    sort_and_dedupe(out);
    out->is_from_start = from_version < 0;
    return DL_OK;
}

int64_t
dl_delta_log_latest_version(const dl_delta_log_list *list) {
    int64_t v = -1;
    if (list->n_commits > 0) {
        v = list->commits[list->n_commits - 1].version;
    }
    if (list->n_checkpoints > 0) {
        v = DL_MAX(v, list->checkpoints[list->n_checkpoints - 1].version);
    }
    return v;
}

/* The index of the commit with version v, or -1. */
static int64_t
find_commit(const dl_delta_log_list *list, int64_t v) {
    size_t lo = 0;
    size_t hi = list->n_commits;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (list->commits[mid].version < v) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < list->n_commits && list->commits[lo].version == v ? (int64_t)lo : -1;
}

/*
 * Looks for a complete checkpoint of version v among checkpoints[from, to) (all of version v)
 * that can be read; *out_first and *out_n receive its files. Preference: classic, then a V2 JSON,
 * then V2 Parquet, then multi-part.
 */
static bool
pick_checkpoint(const dl_delta_log_list *list, size_t from, size_t to, bool can_read_parquet,
                size_t *out_first, size_t *out_n) {
    for (int pass = 0; pass < 4; pass++) {
        for (size_t i = from; i < to; i++) {
            const dl_delta_log_file *f = &list->checkpoints[i];
            bool is_parquet = !(f->kind == DL_DELTA_LOG_CHECKPOINT_V2 && f->is_json);
            if (is_parquet && !can_read_parquet) {
                continue;
            }
            if ((pass == 0 && f->kind == DL_DELTA_LOG_CHECKPOINT) ||
                (pass == 1 && f->kind == DL_DELTA_LOG_CHECKPOINT_V2 && f->is_json) ||
                (pass == 2 && f->kind == DL_DELTA_LOG_CHECKPOINT_V2 && !f->is_json)) {
                *out_first = i;
                *out_n = 1;
                return true;
            }
            if (pass == 3 && f->kind == DL_DELTA_LOG_CHECKPOINT_PART && f->part == 1) {
                /* Parts are sorted by name, so parts 1..p of one p are consecutive. */
                int32_t p = f->n_parts;
                size_t j = 1;
                while (i + j < to && j < (size_t)p &&
                       list->checkpoints[i + j].kind == DL_DELTA_LOG_CHECKPOINT_PART &&
                       list->checkpoints[i + j].n_parts == p &&
                       list->checkpoints[i + j].part == (int32_t)j + 1) {
                    j++;
                }
                if (j == (size_t)p) {
                    *out_first = i;
                    *out_n = j;
                    return true;
                }
            }
        }
    }
    return false;
}

/* Finds the newest usable checkpoint with version <= v; false when none. */
static bool
newest_checkpoint(const dl_delta_log_list *list, int64_t v, bool can_read_parquet,
                  size_t *out_first, size_t *out_n) {
    size_t end = list->n_checkpoints;
    while (end > 0) {
        int64_t cv = list->checkpoints[end - 1].version;
        size_t start = end;
        while (start > 0 && list->checkpoints[start - 1].version == cv) {
            start--;
        }
        if (cv <= v && pick_checkpoint(list, start, end, can_read_parquet, out_first, out_n)) {
            return true;
        }
        end = start;
    }
    return false;
}

int64_t
dl_delta_log_earliest_version(const dl_delta_log_list *list, bool can_read_parquet) {
    if (list->n_commits == 0 && list->n_checkpoints == 0) {
        return -1;
    }
    int64_t latest = dl_delta_log_latest_version(list);
    /* low: the first version of the unbroken run of commits that ends at the latest. */
    int64_t low = latest + 1;
    for (size_t i = list->n_commits; i > 0; i--) {
        if (list->commits[i - 1].version != low - 1) {
            break;
        }
        low--;
    }
    if (low == 0) {
        return 0;
    }
    int64_t best = -1;
    for (size_t i = 0; i < list->n_checkpoints && best < 0; i++) {
        size_t first;
        size_t n;
        int64_t cv = list->checkpoints[i].version;
        if (cv >= low - 1 &&
            pick_checkpoint(list, i, list->n_checkpoints, can_read_parquet, &first, &n) &&
            list->checkpoints[first].version == cv) {
            best = cv;
        }
    }
    return best;
}

/* Appends up to 12 versions of commits[from, to) as "[a, b, ...]". */
static void
format_versions(const dl_delta_log_list *list, size_t from, size_t to, char *out, size_t cap) {
    size_t len = (size_t)snprintf(out, cap, "[");
    for (size_t i = from; i < to && len < cap; i++) {
        if (i - from == 12) {
            len += (size_t)snprintf(out + len, cap - len, ", ...");
            break;
        }
        len += (size_t)snprintf(out + len, cap - len, "%s%lld", i > from ? ", " : "",
                                (long long)list->commits[i].version);
    }
    if (len < cap) {
        (void)snprintf(out + len, cap - len, "]");
    }
}

/* Checks that commits start+1 .. v are all present; fills out's commit range. */
static dl_status
check_contiguous(const dl_delta_log_list *list, int64_t start, int64_t v, dl_delta_segment *out,
                 dl_error *err) {
    size_t lo = 0;
    while (lo < list->n_commits && list->commits[lo].version <= start) {
        lo++;
    }
    size_t hi = lo;
    while (hi < list->n_commits && list->commits[hi].version <= v) {
        hi++;
    }
    int64_t expect = start + 1;
    for (size_t i = lo; i < hi; i++, expect++) {
        DL_TRY(dl_delta_commit_check_size(&list->commits[i], err));
        if (list->commits[i].version != expect) {
            char versions[160];
            format_versions(list, i > 0 ? i - 1 : i, hi, versions, sizeof(versions));
            char name[32];
            dl_delta_commit_name(expect, name);
            DL_FAIL(err, DL_ERR_CORRUPT,
                    "commit versions are not contiguous: (%s): a gap between versions %lld and "
                    "%lld was found while loading version %lld (%s is missing)",
                    versions, (long long)(expect - 1), (long long)list->commits[i].version,
                    (long long)v, name);
        }
    }
    if (expect != v + 1) {
        char name[32];
        dl_delta_commit_name(expect, name);
        DL_FAIL(err, DL_ERR_CORRUPT, "cannot load version %lld: commit %s is missing", (long long)v,
                name);
    }
    out->commits = list->commits + lo;
    out->n_commits = hi - lo;
    return DL_OK;
}

/* When the newest checkpoint at or below version is a multi-part one with parts missing (and
 * nothing else can build the version), the error names the missing part. */
static dl_status
check_incomplete(const dl_delta_log_list *list, int64_t version, dl_error *err) {
    for (size_t i = list->n_checkpoints; i > 0; i--) {
        const dl_delta_log_file *f = &list->checkpoints[i - 1];
        if (f->version > version) {
            continue;
        }
        if (f->kind != DL_DELTA_LOG_CHECKPOINT_PART) {
            return DL_OK;
        }
        /* Parts of version f->version with f->n_parts parts: find the first absent one. */
        int32_t want = 1;
        for (size_t j = 0; j < list->n_checkpoints; j++) {
            const dl_delta_log_file *g = &list->checkpoints[j];
            if (g->version == f->version && g->kind == DL_DELTA_LOG_CHECKPOINT_PART &&
                g->n_parts == f->n_parts && g->part == want) {
                want++;
            }
        }
        if (want <= f->n_parts) {
            DL_FAIL(err, DL_ERR_CORRUPT,
                    "cannot rebuild version %lld: checkpoint %020lld.checkpoint.*.%010d.parquet "
                    "is incomplete (part %020lld.checkpoint.%010d.%010d.parquet is missing) and "
                    "the commits before it are gone",
                    (long long)version, (long long)f->version, (int)f->n_parts,
                    (long long)f->version, (int)want, (int)f->n_parts);
        }
        return DL_OK;
    }
    return DL_OK;
}

dl_status
dl_delta_segment_build(const dl_delta_log_list *list, int64_t version, bool can_read_parquet,
                       bool use_checkpoints, dl_delta_segment *out, dl_error *err) {
    memset(out, 0, sizeof(*out));
    int64_t latest = dl_delta_log_latest_version(list);
    DL_CHECK(latest >= 0, err, DL_ERR_NOT_FOUND, "the log has no commit and no checkpoint");
    if (version < 0) {
        version = latest;
    }
    DL_CHECK(version <= latest, err, DL_ERR_NOT_FOUND,
             "version %lld does not exist: the latest version is %lld", (long long)version,
             (long long)latest);
    out->version = version;
    int64_t vi = find_commit(list, version);
    out->version_file = vi >= 0 ? &list->commits[vi] : NULL;
    size_t first;
    size_t n;
    if (use_checkpoints && newest_checkpoint(list, version, can_read_parquet, &first, &n)) {
        out->checkpoint = &list->checkpoints[first];
        out->n_checkpoint_files = n;
        return check_contiguous(list, out->checkpoint->version, version, out, err);
    }
    if (find_commit(list, 0) < 0) {
        DL_TRY(check_incomplete(list, version, err));
        if (newest_checkpoint(list, version, true, &first, &n)) {
            DL_FAIL(err, DL_ERR_UNSUPPORTED,
                    "version %lld can only be rebuilt from checkpoint %s, and this build of "
                    "deltalite cannot read Parquet checkpoints yet",
                    (long long)version, list->checkpoints[first].name);
        }
        DL_FAIL(err, DL_ERR_NOT_FOUND,
                "cannot rebuild version %lld: commit 00000000000000000000.json is missing and "
                "no checkpoint at or below version %lld is there",
                (long long)version, (long long)version);
    }
    dl_status st = check_contiguous(list, -1, version, out, err);
    if (st == DL_ERR_CORRUPT && !can_read_parquet &&
        newest_checkpoint(list, version, true, &first, &n)) {
        dl_delta_segment from_checkpoint;
        if (check_contiguous(list, list->checkpoints[first].version, version, &from_checkpoint,
                             NULL) == DL_OK) {
            DL_FAIL(err, DL_ERR_UNSUPPORTED,
                    "version %lld can only be rebuilt from checkpoint %s (commits before it are "
                    "missing), and this build of deltalite cannot read Parquet checkpoints yet",
                    (long long)version, list->checkpoints[first].name);
        }
    }
    return st;
}
