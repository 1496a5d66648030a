/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pages of a column chunk (parquet-format README "Column chunks", "Data Pages";
 * parquet.thrift PageHeader).
 *
 * A column chunk is a run of pages, each a Thrift compact PageHeader followed by
 * compressed_page_size bytes:
 *
 *   dictionary page   at most one, first: the dictionary values, PLAIN, compressed whole
 *   data page v1      [rep levels][def levels][values], compressed whole; levels RLE with a
 *                     u32 length prefix (or the deprecated BIT_PACKED)
 *   data page v2      [rep levels][def levels] uncompressed, their lengths in the header,
 *                     then the values, compressed unless is_compressed is false
 *   index page        never written by anyone; skipped, as are page types we do not know
 *
 * The optional crc is the CRC-32 (zlib's, the gzip polynomial) of the compressed_page_size
 * bytes after the header, whatever the page type (parquet.thrift, PageHeader.crc).
 *
 * The whole chunk is fetched in one read (one range per column per row group, as DuckDB and
 * Arrow do), so a page header never straddles a read. When pages are skipped through the page
 * index (pq_reader_index.c), the reader instead fetches windows of whole pages: the
 * dictionary region, then each run of consecutive pages it needs (dl_pq_pages_window). Each page is
 * decompressed into a reference-counted buffer that string vectors may keep; a buffer nobody kept
 * is reused for the next page. Uncompressed pages are used in place. Buffers that cannot be
 * kept as the column's spares (a vector still holds them, or a larger one is kept) go to the
 * reader's scratch (dl_pq_scratch, below), which hands them out again once they are free, to
 * this column, another one, or the next reader of the thread: the pages of a long scan touch
 * memory that is already mapped.
 *
 * PARQUET-816: parquet-mr before 1.2.9 wrote a total_compressed_size too small for chunks
 * with a dictionary page, so for those writers the chunk is read with up to 100 bytes of
 * padding (what Arrow does), staying before the footer.
 */
#include <pthread.h>
#include <string.h>
#include <zlib.h>

#include "parquet/pq_reader_int.h"

#define PARQUET_816_PADDING 100

/* ---- Scratch buffers ------------------------------------------------------------------------ */

/* Buffers from this size on are asked to be backed by huge pages (transparent huge pages in
 * madvise mode): one fault per 2 MiB instead of one per 4 KiB, which on virtual machines is most
 * of the cost of first touching a fresh decompression or chunk buffer. A hint: ignored where
 * the system has no such thing. */
#define HUGE_BUFFER_BYTES DL_HUGE_BLOCK_MIN

dl_status
dl_pq_buffer_new(const dl_allocator *alloc, size_t n, dl_vec_buffer **out, dl_error *err) {
    DL_TRY(dl_vec_buffer_new(alloc, n, out, err));
    if (n >= HUGE_BUFFER_BYTES) {
        dl_mem_advise_huge((*out)->data, n);
    }
    return DL_OK;
}

#define SCRATCH_SLOTS 32

struct dl_pq_scratch {
    const dl_allocator *alloc;
    pthread_mutex_t mu;
    dl_vec_buffer *bufs[SCRATCH_SLOTS]; /* one reference each; some may be shared still */
    size_t n_bufs;
    size_t bytes; /* capacity of bufs */
};

dl_status
dl_pq_scratch_new(const dl_allocator *alloc, dl_pq_scratch **out, dl_error *err) {
    dl_pq_scratch *s = dl_mem_alloc_zero(alloc, sizeof(*s));
    DL_CHECK(s != NULL, err, DL_ERR_NOMEM, "out of memory for a Parquet read scratch");
    DL_CHECK(pthread_mutex_init(&s->mu, NULL) == 0, err, DL_ERR_NOMEM,
             "cannot make the mutex of a Parquet read scratch");
    s->alloc = alloc;
    *out = s;
    return DL_OK;
}

void
dl_pq_scratch_free(dl_pq_scratch *scratch) {
    if (scratch == NULL) {
        return;
    }
    for (size_t i = 0; i < scratch->n_bufs; i++) {
        dl_vec_buffer_unref(scratch->bufs[i]);
    }
    (void)pthread_mutex_destroy(&scratch->mu);
    dl_mem_free(scratch->alloc, scratch, sizeof(*scratch));
}

size_t
dl_pq_scratch_bytes(const dl_pq_scratch *scratch) {
    return scratch != NULL ? scratch->bytes : 0;
}

static void
scratch_remove(dl_pq_scratch *s, size_t i) {
    s->bytes -= s->bufs[i]->capacity;
    s->bufs[i] = s->bufs[--s->n_bufs];
    s->bufs[s->n_bufs] = NULL;
}

dl_vec_buffer *
dl_pq_scratch_take(dl_pq_scratch *scratch, size_t n) {
    if (scratch == NULL) {
        return NULL;
    }
    (void)pthread_mutex_lock(&scratch->mu);
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < scratch->n_bufs; i++) {
        const dl_vec_buffer *b = scratch->bufs[i];
        if (b->capacity >= n && dl_vec_buffer_is_unique(b) &&
            (best == SIZE_MAX || b->capacity < scratch->bufs[best]->capacity)) {
            best = i;
        }
    }
    dl_vec_buffer *out = NULL;
    if (best != SIZE_MAX) {
        out = scratch->bufs[best];
        scratch_remove(scratch, best);
        out->size = 0;
    }
    (void)pthread_mutex_unlock(&scratch->mu);
    return out;
}

/* The smallest buffer of s nobody else holds, or SIZE_MAX. */
static size_t
smallest_free(const dl_pq_scratch *s) {
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < s->n_bufs; i++) {
        if (dl_vec_buffer_is_unique(s->bufs[i]) &&
            (best == SIZE_MAX || s->bufs[i]->capacity < s->bufs[best]->capacity)) {
            best = i;
        }
    }
    return best;
}

void
dl_pq_scratch_give(dl_pq_scratch *scratch, dl_vec_buffer *buf) {
    if (buf == NULL) {
        return;
    }
    if (scratch == NULL || buf->capacity == 0 || buf->capacity > DL_PQ_SCRATCH_MAX_BYTES) {
        dl_vec_buffer_unref(buf);
        return;
    }
    dl_vec_buffer *drop[SCRATCH_SLOTS];
    size_t n_drop = 0;
    (void)pthread_mutex_lock(&scratch->mu);
    /* Room first: buffers nobody holds go, smallest first (they are the cheapest to remake). */
    while (scratch->n_bufs == SCRATCH_SLOTS ||
           scratch->bytes + buf->capacity > DL_PQ_SCRATCH_MAX_BYTES) {
        size_t i = smallest_free(scratch);
        if (i == SIZE_MAX || scratch->bufs[i]->capacity > buf->capacity) {
            break;
        }
        drop[n_drop++] = scratch->bufs[i];
        scratch_remove(scratch, i);
    }
    bool kept = scratch->n_bufs < SCRATCH_SLOTS &&
                scratch->bytes + buf->capacity <= DL_PQ_SCRATCH_MAX_BYTES;
    if (kept) {
        scratch->bufs[scratch->n_bufs++] = buf;
        scratch->bytes += buf->capacity;
    }
    (void)pthread_mutex_unlock(&scratch->mu);
    for (size_t i = 0; i < n_drop; i++) {
        dl_vec_buffer_unref(drop[i]);
    }
    if (!kept) {
        dl_vec_buffer_unref(buf);
    }
}

/* Makes pages->chunk_spare a buffer of at least len bytes from the scratch when it has one
 * (the chunk's bytes are then read into memory that is already mapped). */
static void
chunk_buffer_from_scratch(dl_pq_chunk_pages *pages, size_t len) {
    dl_vec_buffer *cur = pages->chunk_spare;
    if (pages->scratch == NULL || pages->file->mem != NULL ||
        (cur != NULL && cur->capacity >= len && dl_vec_buffer_is_unique(cur))) {
        return;
    }
    dl_vec_buffer *b = dl_pq_scratch_take(pages->scratch, len);
    if (b != NULL) {
        dl_pq_scratch_give(pages->scratch, cur);
        pages->chunk_spare = b;
    }
}

static bool
needs_816_padding(const dl_pq_footer *f) {
    const dl_pq_writer_version *w = &f->writer;
    if (!dl_str_eq_nocase(w->app, DL_STR("parquet-mr"))) {
        return false;
    }
    return !w->has_version || dl_pq_writer_version_lt(w, "parquet-mr", 1, 2, 9);
}

dl_status
dl_pq_pages_open(dl_pq_chunk_pages *pages, dl_pq_file *file, const dl_allocator *alloc,
                 dl_pq_codec_ctx *codec, const dl_pq_column_chunk *chunk, bool check_crc,
                 size_t max_page_size, bool is_deferred, dl_error *err) {
    dl_vec_buffer *spare = pages->spare;
    dl_vec_buffer *chunk_spare = pages->chunk_spare;
    dl_pq_scratch *scratch = pages->scratch;
    memset(pages, 0, sizeof(*pages));
    pages->spare = spare;
    pages->chunk_spare = chunk_spare;
    pages->scratch = scratch;
    pages->file = file;
    pages->alloc = alloc;
    pages->codec = codec;
    pages->codec_id = chunk->meta_data.codec;
    pages->check_crc = check_crc;
    pages->max_page_size = max_page_size;
    int64_t offset = 0;
    int64_t len = 0;
    dl_pq_column_chunk_range(chunk, &offset, &len);
    pages->nominal_len = (size_t)len;
    int64_t room = file->footer->metadata_offset - (offset + len);
    if (needs_816_padding(file->footer) && room > 0) {
        len += DL_MIN(room, PARQUET_816_PADDING);
    }
    if (len == 0) {
        return DL_OK;
    }
    DL_CHECK(dl_pq_codec_is_supported(pages->codec_id) ||
                 pages->codec_id == DL_PQ_CODEC_UNCOMPRESSED,
             err, DL_ERR_UNSUPPORTED, "the %s codec (%d) is not supported",
             dl_pq_codec_name(pages->codec_id), (int)pages->codec_id);
    if (is_deferred) {
        pages->nominal_len = 0;
        return DL_OK;
    }
    size_t pos = 0;
    chunk_buffer_from_scratch(pages, (size_t)len);
    DL_TRY(dl_pq_file_fetch(file, alloc, offset, (size_t)len, &pages->chunk_spare, &pages->chunk,
                            &pos, err));
    pages->base = pages->chunk->data + pos;
    pages->len = (size_t)len;
    pages->offset = offset;
    pages->bytes_read = file->mem != NULL ? 0 : len;
    return DL_OK;
}

/* Keeps buf as *slot when nobody else holds it and it is larger than what *slot has; the
 * buffer that is not kept goes to the scratch. */
static void
keep_spare(dl_pq_chunk_pages *pages, dl_vec_buffer **slot, dl_vec_buffer *buf) {
    if (buf->capacity > 0 && dl_vec_buffer_is_unique(buf) &&
        (*slot == NULL || (*slot)->capacity <= buf->capacity)) {
        dl_pq_scratch_give(pages->scratch, *slot);
        *slot = buf;
        return;
    }
    dl_pq_scratch_give(pages->scratch, buf);
}

dl_status
dl_pq_pages_window(dl_pq_chunk_pages *pages, int64_t offset, size_t len, dl_error *err) {
    if (pages->chunk != NULL) {
        keep_spare(pages, &pages->chunk_spare, pages->chunk);
        pages->chunk = NULL;
    }
    pages->base = NULL;
    pages->len = 0;
    pages->nominal_len = 0;
    pages->pos = 0;
    pages->offset = offset;
    if (len == 0) {
        return DL_OK;
    }
    size_t pos = 0;
    chunk_buffer_from_scratch(pages, len);
    DL_TRY(dl_pq_file_fetch(pages->file, pages->alloc, offset, len, &pages->chunk_spare,
                            &pages->chunk, &pos, err));
    pages->base = pages->chunk->data + pos;
    pages->len = len;
    pages->nominal_len = len;
    pages->bytes_read += pages->file->mem != NULL ? 0 : (int64_t)len;
    return DL_OK;
}

bool
dl_pq_pages_seek(dl_pq_chunk_pages *pages, int64_t offset) {
    if (pages->base == NULL || offset < pages->offset ||
        offset - pages->offset >= (int64_t)pages->nominal_len) {
        return false;
    }
    pages->pos = (size_t)(offset - pages->offset);
    return true;
}

void
dl_pq_pages_close(dl_pq_chunk_pages *pages) {
    if (pages->chunk != NULL) {
        keep_spare(pages, &pages->chunk_spare, pages->chunk);
    }
    pages->chunk = NULL;
    pages->base = NULL;
    pages->len = 0;
    pages->pos = 0;
}

void
dl_pq_pages_free_spares(dl_pq_chunk_pages *pages) {
    dl_pq_scratch_give(pages->scratch, pages->spare);
    dl_pq_scratch_give(pages->scratch, pages->chunk_spare);
    pages->spare = NULL;
    pages->chunk_spare = NULL;
}

bool
dl_pq_pages_has_next(const dl_pq_chunk_pages *pages) {
    /* Padding bytes after the nominal end are only read by a page that started before it. */
    return pages->pos < pages->nominal_len;
}

/* A buffer of at least n bytes for a decompressed page: the spare one when it fits. */
static dl_status
page_buffer(dl_pq_chunk_pages *pages, size_t n, dl_vec_buffer **out, dl_error *err) {
    dl_vec_buffer *spare = pages->spare;
    if (spare != NULL && spare->capacity >= n && dl_vec_buffer_is_unique(spare)) {
        pages->spare = NULL;
        *out = spare;
        return DL_OK;
    }
    dl_vec_buffer *b = dl_pq_scratch_take(pages->scratch, n);
    if (b != NULL) {
        *out = b;
        return DL_OK;
    }
    /* Headroom, so that the next (similar) page fits the buffer when it is reused. */
    return dl_pq_buffer_new(pages->alloc, DL_MAX(n + n / 8, 64), out, err);
}

void
dl_pq_page_release(dl_pq_chunk_pages *pages, dl_pq_page *page) {
    dl_vec_buffer *buf = page->heap;
    page->heap = NULL;
    page->body = NULL;
    page->levels = NULL;
    if (buf == NULL) {
        return;
    }
    if (buf == pages->chunk) {
        dl_vec_buffer_unref(buf);
        return;
    }
    keep_spare(pages, &pages->spare, buf);
}

/* Decompresses src into a page buffer of exactly dst_len bytes. */
static dl_status
decompress(dl_pq_chunk_pages *pages, dl_pq_page *page, const uint8_t *src, size_t src_len,
           size_t dst_len, dl_error *err) {
    DL_CHECK(dst_len <= pages->max_page_size, err, DL_ERR_LIMIT,
             "the page decompresses to %zu bytes, more than the limit of %zu", dst_len,
             pages->max_page_size);
    dl_vec_buffer *buf;
    DL_TRY(page_buffer(pages, dst_len, &buf, err));
    dl_status s = dl_pq_codec_decompress(pages->codec, pages->codec_id, src, src_len, buf->data,
                                         dst_len, err);
    if (s != DL_OK) {
        dl_vec_buffer_unref(buf);
        return s;
    }
    buf->size = dst_len;
    page->heap = buf;
    page->body = buf->data;
    page->body_len = dst_len;
    return DL_OK;
}

/* The body as it lies in the chunk (no compression). */
static void
body_in_place(dl_pq_chunk_pages *pages, dl_pq_page *page, const uint8_t *src, size_t len) {
    page->heap = dl_vec_buffer_ref(pages->chunk);
    page->body = src;
    page->body_len = len;
}

static dl_status
load_v1(dl_pq_chunk_pages *pages, dl_pq_page *page, const uint8_t *src, size_t len, dl_error *err) {
    size_t unc = (size_t)page->hdr.uncompressed_page_size;
    if (pages->codec_id == DL_PQ_CODEC_UNCOMPRESSED) {
        body_in_place(pages, page, src, DL_MIN(len, unc));
        return DL_OK;
    }
    return decompress(pages, page, src, len, unc, err);
}

static dl_status
load_v2(dl_pq_chunk_pages *pages, dl_pq_page *page, const uint8_t *src, size_t len, dl_error *err) {
    const dl_pq_data_page_header_v2 *h = &page->hdr.data_page_header_v2;
    size_t unc = (size_t)page->hdr.uncompressed_page_size;
    DL_CHECK(h->repetition_levels_byte_length >= 0 && h->definition_levels_byte_length >= 0, err,
             DL_ERR_CORRUPT, "negative level lengths in a data page v2 header");
    size_t levels =
        (size_t)h->repetition_levels_byte_length + (size_t)h->definition_levels_byte_length;
    DL_CHECK(levels <= len && levels <= unc, err, DL_ERR_CORRUPT,
             "data page v2: %zu bytes of levels exceed the page (%zu compressed, %zu "
             "uncompressed bytes)",
             levels, len, unc);
    page->levels = src;
    page->levels_len = levels;
    const uint8_t *values = src + levels;
    size_t values_len = len - levels;
    size_t values_unc = unc - levels;
    bool is_compressed = !h->has_is_compressed || h->is_compressed;
    if (!is_compressed || pages->codec_id == DL_PQ_CODEC_UNCOMPRESSED) {
        body_in_place(pages, page, values, values_len);
        return DL_OK;
    }
    if (values_unc == 0) {
        /* No values (all null, or no entries): writers differ on what an empty compressed
         * section holds (nothing, or an empty stream), and nothing is needed from it. */
        body_in_place(pages, page, values, 0);
        return DL_OK;
    }
    return decompress(pages, page, values, values_len, values_unc, err);
}

static dl_status
check_crc(const dl_pq_page *page, const uint8_t *src, size_t len, dl_error *err) {
    uLong crc = crc32(0L, Z_NULL, 0);
    size_t done = 0;
    while (done < len) {
        size_t n = DL_MIN(len - done, (size_t)1 << 30);
        crc = crc32(crc, src + done, (uInt)n);
        done += n;
    }
    uint32_t stored = (uint32_t)page->hdr.crc;
    if ((uint32_t)crc != stored) {
        DL_ERROR_WHERE(err);
        (void)dl_error_set(err, DL_ERR_CORRUPT,
                           "page CRC mismatch: the header says 0x%08x, the %zu page bytes give "
                           "0x%08x",
                           (unsigned)stored, len, (unsigned)crc);
        dl_error_hint(err, "the file is damaged; rewrite it from a good copy");
        return DL_ERR_CORRUPT;
    }
    return DL_OK;
}

static dl_status
next_page(dl_pq_chunk_pages *pages, dl_pq_page *page, dl_arena *arena, dl_error *err) {
    size_t avail = pages->len - pages->pos;
    size_t hlen = 0;
    DL_TRY(dl_pq_page_header_decode(pages->base + pages->pos, avail, page->offset, arena,
                                    &page->hdr, &hlen, NULL, err));
    size_t start = pages->pos + hlen;
    size_t len = (size_t)page->hdr.compressed_page_size;
    DL_CHECK(len <= pages->len - start, err, DL_ERR_CORRUPT,
             "the page's %zu bytes run past the end of the column chunk (%zu bytes left)", len,
             pages->len - start);
    pages->pos = start + len;
    const uint8_t *src = pages->base + start;
    if (pages->check_crc && page->hdr.has_crc) {
        DL_TRY(check_crc(page, src, len, err));
    }
    switch (page->hdr.type) {
    case DL_PQ_PAGE_DATA:
    case DL_PQ_PAGE_DICTIONARY:
        return load_v1(pages, page, src, len, err);
    case DL_PQ_PAGE_DATA_V2:
        return load_v2(pages, page, src, len, err);
    default:
        return DL_OK; /* index pages and unknown types: skipped by the caller */
    }
}

dl_status
dl_pq_pages_next(dl_pq_chunk_pages *pages, dl_pq_page *page, dl_error *err) {
    memset(page, 0, sizeof(*page));
    page->offset = pages->offset + (int64_t)pages->pos;
    page->index = pages->next_index++;
    dl_arena arena;
    dl_arena_init(&arena, pages->alloc, 1024);
    dl_status s = next_page(pages, page, &arena, err);
    /* Statistics views in the header point into the chunk, not the arena: page headers have
     * no lists, so nothing the reader uses lives in the arena. */
    memset(&page->hdr.data_page_header.statistics, 0, sizeof(dl_pq_statistics));
    memset(&page->hdr.data_page_header_v2.statistics, 0, sizeof(dl_pq_statistics));
    dl_arena_destroy(&arena);
    if (s != DL_OK) {
        dl_pq_page_release(pages, page);
        dl_error_prefix(err, "page %d at offset %lld", (int)page->index, (long long)page->offset);
    }
    return s;
}
