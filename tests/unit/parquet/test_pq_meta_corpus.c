/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Parses the footer of every file in ../shared/corpus:
 *   - parquet-testing/data and bad_data, checked against pq_meta_expected.tsv (extracted from
 *     parquet-testing/EXPECTED.json by pq_meta_expected.py): valid files parse with the row,
 *     row group, schema, created_by, codec and encoding facts given; encrypted files fail with
 *     UNSUPPORTED naming modular encryption; aux files (not Parquet) fail as CORRUPT; bad
 *     files either fail cleanly or parse, as recorded in bad_outcomes below;
 *   - every *.parquet of the Delta tables parses (macOS "._" AppleDouble files beside them are
 *     not Parquet and must be refused as CORRUPT).
 * For each parsed footer it also re-encodes the FileMetaData and decodes it again (equal),
 * decodes each column chunk's first page header and its page indexes, and asks the
 * statistics rules about every chunk, so the decoders meet real files.
 * Skips (exit 77) when the corpus is absent.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "base/base.h"
#include "harness.h"
#include "parquet/parquet.h"

#define MAX_FILES 4096
#define PATH_CAP  1024

typedef struct expected_row {
    char path[256];
    char kind[16];
    char num_rows[32];
    char row_groups[16];
    char schema_elements[16];
    char leaves[16];
    char created_by[256];
    char codecs[128];
    char encodings[256];
} expected_row;

static expected_row expected[256];
static size_t n_expected;

/* What a bad_data file does at the footer level: 'E' fails, 'P' parses (broken in pages). */
static const struct {
    const char *path;
    char outcome;
} bad_outcomes[] = {
    {"bad_data/ARROW-GH-41317.parquet", 'E'},
    {"bad_data/ARROW-GH-41321.parquet", 'P'},
    {"bad_data/ARROW-GH-43605.parquet", 'P'},
    {"bad_data/ARROW-GH-45185.parquet", 'P'},
    {"bad_data/ARROW-GH-47662.parquet", 'P'},
    {"bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet", 'E'},
    {"bad_data/ARROW-RS-GH-6229-LEVELS.parquet", 'P'},
    {"bad_data/PARQUET-1481.parquet", 'E'},
};

static char *
next_field(char **cursor) {
    char *start = *cursor;
    char *tab = strchr(start, '\t');
    if (tab != NULL) {
        *tab = '\0';
        *cursor = tab + 1;
    } else {
        start[strcspn(start, "\r\n")] = '\0';
        *cursor = start + strlen(start);
    }
    return start;
}

static void
copy_field(char *dst, size_t cap, const char *src) {
    (void)snprintf(dst, cap, "%s", src);
}

static int
load_expected(void) {
    FILE *f = fopen(DL_PQ_META_EXPECTED, "r");
    if (f == NULL) {
        return -1;
    }
    char line[2048];
    while (fgets(line, sizeof(line), f) != NULL && n_expected < DL_ARRAY_LEN(expected)) {
        if (line[0] == '#' || line[0] == '\n') {
            continue;
        }
        expected_row *r = &expected[n_expected++];
        char *cur = line;
        copy_field(r->path, sizeof(r->path), next_field(&cur));
        copy_field(r->kind, sizeof(r->kind), next_field(&cur));
        copy_field(r->num_rows, sizeof(r->num_rows), next_field(&cur));
        copy_field(r->row_groups, sizeof(r->row_groups), next_field(&cur));
        copy_field(r->schema_elements, sizeof(r->schema_elements), next_field(&cur));
        copy_field(r->leaves, sizeof(r->leaves), next_field(&cur));
        copy_field(r->created_by, sizeof(r->created_by), next_field(&cur));
        copy_field(r->codecs, sizeof(r->codecs), next_field(&cur));
        copy_field(r->encodings, sizeof(r->encodings), next_field(&cur));
    }
    (void)fclose(f);
    return 0;
}

static const expected_row *
find_expected(const char *rel) {
    for (size_t i = 0; i < n_expected; i++) {
        if (strcmp(expected[i].path, rel) == 0) {
            return &expected[i];
        }
    }
    return NULL;
}

/* ---- Files ---------------------------------------------------------------------------- */

static int
read_file(const char *path, dl_buf *out) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return -1;
    }
    uint8_t chunk[65536];
    size_t n;
    int rc = 0;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
        if (dl_buf_append(out, chunk, n, NULL) != DL_OK) {
            rc = -1;
            break;
        }
    }
    (void)fclose(f);
    return rc;
}

static int
cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects regular files under dir (recursively, sorted) whose names satisfy keep(). */
static void
collect(const char *dir, bool (*keep)(const char *name), char **out, size_t *n_out) {
    DIR *d = opendir(dir);
    if (d == NULL) {
        return;
    }
    char *names[1024];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < DL_ARRAY_LEN(names)) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
            continue;
        }
        names[n] = dl_mem_alloc(NULL, PATH_CAP);
        (void)snprintf(names[n], PATH_CAP, "%s/%s", dir, e->d_name);
        n++;
    }
    (void)closedir(d);
    qsort(names, n, sizeof(names[0]), cmp_str);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        const char *base = strrchr(names[i], '/') + 1;
        if (stat(names[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            collect(names[i], keep, out, n_out);
        } else if (keep(base) && *n_out < MAX_FILES) {
            out[(*n_out)++] = names[i];
            continue;
        }
        dl_mem_free(NULL, names[i], PATH_CAP);
    }
}

static void
free_list(char **list, size_t n) {
    for (size_t i = 0; i < n; i++) {
        dl_mem_free(NULL, list[i], PATH_CAP);
    }
}

/* ---- Parsing one file ------------------------------------------------------------------- */

typedef struct parsed {
    dl_status status;
    dl_error err;
    dl_pq_footer *footer;
} parsed;

/* Parses the footer the way a reader does: a 64 KiB tail first, more when the trailer says. */
static void
parse_footer(const dl_buf *file, dl_arena *arena, parsed *p) {
    dl_error_clear(&p->err);
    p->footer = NULL;
    size_t size = file->len;
    size_t tail_len = size < 65536 ? size : 65536;
    size_t needed = 0;
    if (size < DL_PQ_TRAILER_LEN) {
        p->status = dl_pq_footer_size(file->data, size, (int64_t)size, &needed, &p->err);
        return;
    }
    p->status =
        dl_pq_footer_size(file->data + size - tail_len, tail_len, (int64_t)size, &needed, &p->err);
    if (p->status != DL_OK) {
        return;
    }
    if (needed > tail_len) {
        tail_len = needed;
    }
    p->status = dl_pq_footer_parse(file->data + size - tail_len, tail_len, (int64_t)size, arena,
                                   &p->footer, &p->err);
    if (p->status == DL_OK && tail_len < size) {
        p->status = dl_pq_file_check_head(file->data, size, &p->err);
    }
}

/* Re-encodes the metadata and decodes it again; returns a failure note or NULL. */
static const char *
check_round_trip(const dl_pq_footer *f, dl_arena *arena) {
    dl_buf out;
    dl_buf_init(&out, NULL);
    dl_error err;
    const char *why = NULL;
    dl_pq_file_metadata again;
    if (dl_pq_file_metadata_encode(&f->meta, &out, &err) != DL_OK) {
        why = "re-encoding failed";
    } else if (dl_pq_file_metadata_decode(out.data, out.len, 0, arena, &again, NULL, &err) !=
               DL_OK) {
        why = "decoding the re-encoded metadata failed";
    } else if (!dl_pq_file_metadata_equal(&f->meta, &again)) {
        why = "re-encoded metadata decodes differently";
    }
    dl_buf_destroy(&out);
    return why;
}

typedef struct extra_counts {
    int64_t page_headers;
    int64_t page_header_errors;
    int64_t column_indexes;
    int64_t offset_indexes;
    int64_t index_errors;
    int64_t stats_usable;
    int64_t stats_unusable;
} extra_counts;

static extra_counts extras;

/* Decodes a chunk's first page header and page indexes, and applies the statistics rules. */
static void
exercise_chunk(const dl_pq_footer *f, const dl_pq_column_chunk *cc, const dl_pq_schema_node *leaf,
               const dl_buf *file, dl_arena *arena, bool is_verbose, const char *rel) {
    int64_t off = 0;
    int64_t len = 0;
    dl_pq_column_chunk_range(cc, &off, &len);
    dl_error err;
    if (len > 0) {
        dl_pq_page_header ph;
        extras.page_headers++;
        if (dl_pq_page_header_decode(file->data + off, (size_t)len, off, arena, &ph, NULL, NULL,
                                     &err) != DL_OK) {
            extras.page_header_errors++;
            if (is_verbose) {
                printf("  %s: first page header: %s\n", rel, err.msg);
            }
        }
    }
    if (cc->has_column_index_offset && cc->has_column_index_length) {
        dl_pq_column_index ci;
        extras.column_indexes++;
        if (dl_pq_column_index_decode(file->data + cc->column_index_offset,
                                      (size_t)cc->column_index_length, cc->column_index_offset,
                                      arena, &ci, &err) != DL_OK) {
            extras.index_errors++;
            printf("  %s: column index: %s\n", rel, err.msg);
        }
    }
    if (cc->has_offset_index_offset && cc->has_offset_index_length) {
        dl_pq_offset_index oi;
        extras.offset_indexes++;
        if (dl_pq_offset_index_decode(file->data + cc->offset_index_offset,
                                      (size_t)cc->offset_index_length, cc->offset_index_offset,
                                      arena, &oi, &err) != DL_OK) {
            extras.index_errors++;
            printf("  %s: offset index: %s\n", rel, err.msg);
        }
    }
    dl_pq_stats_bounds b;
    const dl_pq_statistics *st = cc->meta_data.has_statistics ? &cc->meta_data.statistics : NULL;
    if (dl_pq_stats_usable(leaf, &f->writer, st, &b)) {
        extras.stats_usable++;
    } else {
        extras.stats_unusable++;
    }
}

static void
exercise_chunks(const dl_pq_footer *f, const dl_buf *file, dl_arena *arena, bool is_verbose,
                const char *rel) {
    for (size_t g = 0; g < f->meta.n_row_groups; g++) {
        const dl_pq_row_group *rg = &f->meta.row_groups[g];
        for (size_t c = 0; c < rg->n_columns; c++) {
            exercise_chunk(f, &rg->columns[c], f->schema.leaves[c], file, arena, is_verbose, rel);
        }
    }
}

/* ---- Facts ---------------------------------------------------------------------------- */

static bool
fact_mismatch(const char *want, long long got, const char *what, const char *rel) {
    if (strcmp(want, "-") == 0 || strtoll(want, NULL, 10) == got) {
        return false;
    }
    printf("  %s: %s is %lld, EXPECTED.json says %s\n", rel, what, got, want);
    return true;
}

/* Joins the distinct names of the chunks' codecs or encodings, sorted, comma-separated. */
static void
distinct_names(const dl_pq_footer *f, bool is_codec, char *out, size_t cap) {
    static const char *const codecs[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                         "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
    const char *names[32];
    size_t n = 0;
    for (size_t g = 0; g < f->meta.n_row_groups; g++) {
        for (size_t c = 0; c < f->meta.row_groups[g].n_columns; c++) {
            const dl_pq_column_metadata *m = &f->meta.row_groups[g].columns[c].meta_data;
            size_t k_max = is_codec ? 1 : m->n_encodings;
            for (size_t k = 0; k < k_max; k++) {
                const char *name = "UNKNOWN";
                if (is_codec) {
                    name = m->codec >= 0 && m->codec < 8 ? codecs[m->codec] : "UNKNOWN";
                } else {
                    name = dl_pq_encoding_name((int32_t)m->encodings[k]);
                }
                size_t j = 0;
                while (j < n && strcmp(names[j], name) != 0) {
                    j++;
                }
                if (j == n && n < DL_ARRAY_LEN(names)) {
                    names[n++] = name;
                }
            }
        }
    }
    qsort(names, n, sizeof(names[0]), cmp_str);
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && used < cap; i++) {
        int w = snprintf(out + used, cap - used, "%s%s", i > 0 ? "," : "", names[i]);
        used += w > 0 ? (size_t)w : 0;
    }
}

static bool
check_facts(const dl_pq_footer *f, const expected_row *e, const char *rel) {
    bool bad = false;
    bad |= fact_mismatch(e->num_rows, f->meta.num_rows, "num_rows", rel);
    bad |= fact_mismatch(e->row_groups, (long long)f->meta.n_row_groups, "row groups", rel);
    bad |= fact_mismatch(e->schema_elements, (long long)f->schema.n_nodes, "schema elements", rel);
    bad |= fact_mismatch(e->leaves, (long long)f->schema.n_leaves, "leaf columns", rel);
    if (strcmp(e->created_by, "-") != 0) {
        bool want_none = strcmp(e->created_by, "<none>") == 0;
        if (want_none ? f->meta.has_created_by
                      : !dl_str_eq_cstr(f->meta.created_by, e->created_by)) {
            printf("  %s: created_by '%.*s', EXPECTED.json says '%s'\n", rel,
                   DL_STR_FMT(f->meta.created_by), e->created_by);
            bad = true;
        }
    }
    char names[512];
    if (strcmp(e->codecs, "-") != 0) {
        distinct_names(f, true, names, sizeof(names));
        if (strcmp(names, e->codecs) != 0) {
            printf("  %s: codecs %s, EXPECTED.json says %s\n", rel, names, e->codecs);
            bad = true;
        }
    }
    if (strcmp(e->encodings, "-") != 0) {
        distinct_names(f, false, names, sizeof(names));
        if (strcmp(names, e->encodings) != 0) {
            printf("  %s: encodings %s, EXPECTED.json says %s\n", rel, names, e->encodings);
            bad = true;
        }
    }
    return !bad;
}

/* ---- parquet-testing -------------------------------------------------------------------- */

static bool
is_testing_file(const char *name) {
    size_t n = strlen(name);
    static const char *const skip[] = {".md", ".csv", ".json"};
    for (size_t i = 0; i < DL_ARRAY_LEN(skip); i++) {
        size_t k = strlen(skip[i]);
        if (n >= k && strcmp(name + n - k, skip[i]) == 0) {
            return false;
        }
    }
    return true;
}

static char
bad_outcome(const char *rel) {
    for (size_t i = 0; i < DL_ARRAY_LEN(bad_outcomes); i++) {
        if (strcmp(bad_outcomes[i].path, rel) == 0) {
            return bad_outcomes[i].outcome;
        }
    }
    return '?';
}

/* Checks one parquet-testing file; returns true when it behaves as expected. */
static bool
check_testing_file(const char *path, const char *rel, size_t *max_ratio) {
    dl_buf file;
    dl_buf_init(&file, NULL);
    if (read_file(path, &file) != 0) {
        printf("  %s: cannot read\n", rel);
        return false;
    }
    dl_arena arena;
    dl_arena_init(&arena, NULL, 0);
    parsed p;
    parse_footer(&file, &arena, &p);
    const expected_row *e = find_expected(rel);
    const char *kind = e != NULL ? e->kind : "unlisted";
    bool ok = true;
    if (p.status == DL_OK) {
        const char *why = check_round_trip(p.footer, &arena);
        if (why != NULL) {
            printf("  %s: %s\n", rel, why);
            ok = false;
        }
        exercise_chunks(p.footer, &file, &arena, true, rel);
        if (p.footer->metadata_len >= 4096) {
            size_t ratio = arena.bytes_allocated / p.footer->metadata_len;
            *max_ratio = ratio > *max_ratio ? ratio : *max_ratio;
        }
    }
    if (strcmp(kind, "valid") == 0) {
        if (p.status != DL_OK) {
            printf("  %s: valid file refused: %s\n", rel, p.err.msg);
            ok = false;
        } else {
            ok = check_facts(p.footer, e, rel) && ok;
        }
    } else if (strcmp(kind, "encrypted") == 0) {
        if (p.status != DL_ERR_UNSUPPORTED || strstr(p.err.msg, "modular encryption") == NULL) {
            printf("  %s: encrypted file gave %s: %s\n", rel, dl_status_name(p.status), p.err.msg);
            ok = false;
        }
    } else if (strcmp(kind, "aux") == 0) {
        if (p.status != DL_ERR_CORRUPT) {
            printf("  %s: non-Parquet file gave %s\n", rel, dl_status_name(p.status));
            ok = false;
        }
    } else if (strcmp(kind, "bad") == 0) {
        char want = bad_outcome(rel);
        char got = p.status == DL_OK ? 'P' : 'E';
        printf("  %s: %s%s\n", rel, got == 'P' ? "footer parses (broken in its pages)" : "",
               got == 'E' ? p.err.msg : "");
        if (got != want || (got == 'E' && p.status != DL_ERR_CORRUPT)) {
            printf("  %s: expected %s\n", rel, want == 'P' ? "to parse" : "a CORRUPT error");
            ok = false;
        }
    } else if (p.status != DL_OK && p.err.msg[0] == '\0') {
        printf("  %s: unlisted file failed without a message\n", rel);
        ok = false;
    }
    dl_arena_destroy(&arena);
    dl_buf_destroy(&file);
    return ok;
}

TEST(test_every_parquet_testing_footer_behaves_as_expected) {
    static char *files[MAX_FILES];
    size_t n = 0;
    const char *root = DL_CORPUS_DIR "/parquet-testing";
    char dir[PATH_CAP];
    (void)snprintf(dir, sizeof(dir), "%s/data", root);
    collect(dir, is_testing_file, files, &n);
    (void)snprintf(dir, sizeof(dir), "%s/bad_data", root);
    collect(dir, is_testing_file, files, &n);
    size_t n_fail = 0;
    size_t max_ratio = 0;
    size_t root_len = strlen(root) + 1;
    for (size_t i = 0; i < n; i++) {
        if (!check_testing_file(files[i], files[i] + root_len, &max_ratio)) {
            n_fail++;
        }
    }
    printf(
        "  %zu parquet-testing files, %zu not as expected; arena bytes per footer byte up to %zu (footers of 4 KiB and more)\n",
        n, n_fail, max_ratio);
    printf("  page headers %lld (%lld errors), column indexes %lld, offset indexes %lld "
           "(%lld errors), chunk stats usable %lld / unusable %lld\n",
           (long long)extras.page_headers, (long long)extras.page_header_errors,
           (long long)extras.column_indexes, (long long)extras.offset_indexes,
           (long long)extras.index_errors, (long long)extras.stats_usable,
           (long long)extras.stats_unusable);
    free_list(files, n);
    CHECK(n >= 90);
    CHECK_INT_EQ(n_fail, 0);
}

/* ---- Delta tables ----------------------------------------------------------------------- */

static bool
is_parquet_name(const char *name) {
    size_t n = strlen(name);
    return n > 8 && strcmp(name + n - 8, ".parquet") == 0;
}

TEST(test_every_delta_table_parquet_footer_parses) {
    static char *files[MAX_FILES];
    size_t n = 0;
    collect(DL_CORPUS_DIR, is_parquet_name, files, &n);
    size_t n_parsed = 0;
    size_t n_appledouble = 0;
    size_t n_fail = 0;
    memset(&extras, 0, sizeof(extras));
    for (size_t i = 0; i < n; i++) {
        if (strstr(files[i], "/parquet-testing/") != NULL) {
            continue;
        }
        dl_buf file;
        dl_buf_init(&file, NULL);
        dl_arena arena;
        dl_arena_init(&arena, NULL, 0);
        parsed p;
        bool is_read = read_file(files[i], &file) == 0;
        bool is_appledouble = strncmp(strrchr(files[i], '/') + 1, "._", 2) == 0;
        if (is_read) {
            parse_footer(&file, &arena, &p);
        }
        if (!is_read) {
            printf("  %s: cannot read\n", files[i]);
            n_fail++;
        } else if (is_appledouble) {
            n_appledouble++;
            if (p.status != DL_ERR_CORRUPT) {
                printf("  %s: AppleDouble file gave %s\n", files[i], dl_status_name(p.status));
                n_fail++;
            }
        } else if (p.status != DL_OK) {
            printf("  %s: %s\n", files[i], p.err.msg);
            n_fail++;
        } else {
            const char *why = check_round_trip(p.footer, &arena);
            if (why != NULL) {
                printf("  %s: %s\n", files[i], why);
                n_fail++;
            }
            exercise_chunks(p.footer, &file, &arena, true, files[i]);
            n_parsed++;
        }
        dl_arena_destroy(&arena);
        dl_buf_destroy(&file);
    }
    printf("  %zu Delta-table Parquet footers parsed, %zu AppleDouble files refused, %zu "
           "failures\n",
           n_parsed, n_appledouble, n_fail);
    printf("  page headers %lld (%lld errors), column indexes %lld, offset indexes %lld "
           "(%lld errors), chunk stats usable %lld / unusable %lld\n",
           (long long)extras.page_headers, (long long)extras.page_header_errors,
           (long long)extras.column_indexes, (long long)extras.offset_indexes,
           (long long)extras.index_errors, (long long)extras.stats_usable,
           (long long)extras.stats_unusable);
    free_list(files, n);
    CHECK(n_parsed >= 1000);
    CHECK_INT_EQ(n_fail, 0);
    CHECK_INT_EQ(extras.page_header_errors, 0);
    CHECK_INT_EQ(extras.index_errors, 0);
}

int
main(void) {
    struct stat st;
    if (stat(DL_CORPUS_DIR "/parquet-testing", &st) != 0 || load_expected() != 0) {
        printf("corpus or %s not found: skipped\n", DL_PQ_META_EXPECTED);
        return 77;
    }
    RUN(test_every_parquet_testing_footer_behaves_as_expected);
    RUN(test_every_delta_table_parquet_footer_parses);
    return harness_finish();
}
