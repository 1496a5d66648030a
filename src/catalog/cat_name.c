/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Names and paths: folding SQL names into folder names, similarity for hints, and making
 * table paths absolute.
 *
 * Spark's session catalog lowercases database and table names before they reach the file
 * system (the Hive metastore stores them lowercased), so `Sales`, `SALES` and `sales` are one
 * table whose folder is `sales`. We fold ASCII letters only: full Unicode case folding would
 * need tables we do not carry, and Spark's folding of non-ASCII names depends on the JVM.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "catalog/cat_int.h"

/* Longest name we compare for similarity; longer names are only matched exactly. */
#define SIMILAR_MAX_LEN 128

/* Longest folder name (NAME_MAX on Linux and the BSDs, the limit of most file systems). */
#define NAME_FOLDER_MAX 255

static char
fold_char(char c) {
    if (c >= 'A' && c <= 'Z') {
        return (char)(c + ('a' - 'A'));
    }
    return c;
}

dl_status
dl_cat_name_fold(const char *name, const char *what, dl_buf *out, dl_error *err) {
    DL_CHECK(name != NULL, err, DL_ERR_INVALID_ARG, "%s name is NULL", what);
    size_t len = strlen(name);
    if (len == 0) {
        DL_FAIL(err, DL_ERR_SQL_BIND, "%s name is empty", what);
    }
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || name[0] == '.') {
        (void)dl_error_set(err, DL_ERR_SQL_BIND,
                           "%s name '%s' cannot name a folder: it begins with '.'", what, name);
        dl_error_hint(err, "names that begin with '.' would be hidden folders; choose another");
        return DL_ERR_SQL_BIND;
    }
    if (strchr(name, '/') != NULL) {
        (void)dl_error_set(err, DL_ERR_SQL_BIND,
                           "%s name '%s' cannot name a folder: it contains '/'", what, name);
        dl_error_hint(err, "to read a table by its path, write delta.`/path/to/table`");
        return DL_ERR_SQL_BIND;
    }
    /* A schema's folder is "<name>.db". */
    size_t limit = NAME_FOLDER_MAX - (strcmp(what, "schema") == 0 ? 3 : 0);
    if (len > limit) {
        (void)dl_error_set(err, DL_ERR_SQL_BIND,
                           "%s name '%.40s...' is %zu bytes: its folder's name can hold at most "
                           "%zu bytes",
                           what, name, len, limit);
        dl_error_hint(err, "choose a shorter name");
        return DL_ERR_SQL_BIND;
    }
    uint8_t *dst = dl_buf_extend(out, len, err);
    if (dst == NULL) {
        return DL_ERR_NOMEM;
    }
    for (size_t i = 0; i < len; i++) {
        dst[i] = (uint8_t)fold_char(name[i]);
    }
    (void)dl_buf_cstr(out);
    return DL_OK;
}

/* Edit distance of the folded strings counting an adjacent transposition as one edit (the
 * optimal string alignment distance), by three rows. Assumes: both <= SIMILAR_MAX_LEN. */
static size_t
edit_distance(const char *a, size_t na, const char *b, size_t nb) {
    size_t rows[3][SIMILAR_MAX_LEN + 1];
    size_t *prev2 = rows[0];
    size_t *prev = rows[1];
    size_t *cur = rows[2];
    for (size_t j = 0; j <= nb; j++) {
        prev[j] = j;
    }
    for (size_t i = 1; i <= na; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            char ca = fold_char(a[i - 1]);
            char cb = fold_char(b[j - 1]);
            size_t best = prev[j - 1] + (ca == cb ? 0 : 1);
            best = DL_MIN(best, prev[j] + 1);
            best = DL_MIN(best, cur[j - 1] + 1);
            if (i > 1 && j > 1 && ca == fold_char(b[j - 2]) && fold_char(a[i - 2]) == cb) {
                best = DL_MIN(best, prev2[j - 2] + 1);
            }
            cur[j] = best;
        }
        size_t *spare = prev2;
        prev2 = prev;
        prev = cur;
        cur = spare;
    }
    return prev[nb];
}

static bool
is_prefix_nocase(const char *p, size_t np, const char *s, size_t ns) {
    if (np == 0 || np > ns) {
        return false;
    }
    for (size_t i = 0; i < np; i++) {
        if (fold_char(p[i]) != fold_char(s[i])) {
            return false;
        }
    }
    return true;
}

bool
dl_cat_name_is_similar(const char *a, const char *b) {
    size_t na = strlen(a);
    size_t nb = strlen(b);
    if (na > SIMILAR_MAX_LEN || nb > SIMILAR_MAX_LEN) {
        return false;
    }
    if ((na >= 3 && is_prefix_nocase(a, na, b, nb)) ||
        (nb >= 3 && is_prefix_nocase(b, nb, a, na))) {
        return true;
    }
    size_t limit = DL_MAX((size_t)1, DL_MAX(na, nb) / 3);
    return edit_distance(a, na, b, nb) <= limit;
}

/* ---- paths ------------------------------------------------------------------------------ */

/* Strips a file: URL scheme: file:///x and file:/x give /x; file://localhost/x gives /x. */
static dl_status
strip_file_url(const char *path, const char **out, dl_error *err) {
    *out = path;
    if (strncmp(path, "file:", 5) != 0) {
        if (strstr(path, "://") != NULL) {
            (void)dl_error_set(err, DL_ERR_UNSUPPORTED,
                               "table path '%s': only file: URLs are supported", path);
            dl_error_hint(err, "only local folders can be read yet: write the path itself");
            return DL_ERR_UNSUPPORTED;
        }
        return DL_OK;
    }
    const char *rest = path + 5;
    if (strncmp(rest, "//", 2) == 0) {
        rest += 2;
        if (strncmp(rest, "localhost/", 10) == 0) {
            rest += 9;
        }
        if (rest[0] != '/') {
            DL_FAIL(err, DL_ERR_INVALID_ARG,
                    "table path '%s': a file: URL names no host other than localhost", path);
        }
    }
    if (rest[0] != '/') {
        DL_FAIL(err, DL_ERR_INVALID_ARG, "table path '%s': a file: URL needs an absolute path",
                path);
    }
    *out = rest;
    return DL_OK;
}

/* Appends one path component to out, handling "." and "..". */
static dl_status
push_component(dl_buf *out, const char *comp, size_t len, dl_error *err) {
    if (len == 0 || (len == 1 && comp[0] == '.')) {
        return DL_OK;
    }
    if (len == 2 && comp[0] == '.' && comp[1] == '.') {
        while (out->len > 0 && out->data[out->len - 1] != '/') {
            out->len--;
        }
        if (out->len > 0) {
            out->len--; /* the '/' before the dropped component */
        }
        return DL_OK;
    }
    DL_TRY(dl_buf_append_byte(out, '/', err));
    return dl_buf_append(out, comp, len, err);
}

static dl_status
push_path(dl_buf *out, const char *path, dl_error *err) {
    const char *p = path;
    while (*p != '\0') {
        const char *slash = strchr(p, '/');
        size_t len = slash ? (size_t)(slash - p) : strlen(p);
        DL_TRY(push_component(out, p, len, err));
        p += len;
        if (*p == '/') {
            p++;
        }
    }
    return DL_OK;
}

dl_status
dl_cat_path_absolute(const char *path, dl_buf *out, dl_error *err) {
    DL_CHECK(path != NULL, err, DL_ERR_INVALID_ARG, "table path is NULL");
    if (path[0] == '\0') {
        DL_FAIL(err, DL_ERR_INVALID_ARG, "table path is empty");
    }
    const char *p = NULL;
    DL_TRY(strip_file_url(path, &p, err));
    dl_buf norm;
    dl_buf_init(&norm, out->alloc);
    dl_status st = DL_OK;
    if (p[0] != '/') {
        char cwd[PATH_MAX];
        if (getcwd(cwd, sizeof(cwd)) == NULL) {
            st = dl_error_set_errno(err, DL_ERR_IO, errno,
                                    "cannot resolve the relative table path '%s'", path);
            goto done;
        }
        st = push_path(&norm, cwd, err);
    }
    if (st == DL_OK) {
        st = push_path(&norm, p, err);
    }
    if (st == DL_OK && norm.len == 0) {
        st = dl_buf_append_byte(&norm, '/', err);
    }
    if (st == DL_OK) {
        st = dl_buf_append(out, norm.data, norm.len, err);
        (void)dl_buf_cstr(out);
    }
done:
    dl_buf_destroy(&norm);
    return st;
}
