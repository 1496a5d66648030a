/* SPDX-License-Identifier: Apache-2.0 */
/* File-system helpers for catalog tests: temporary folders, fake tables, recursive removal. */
#ifndef DL_TESTS_CAT_TEST_FS_H
#define DL_TESTS_CAT_TEST_FS_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Creates a fresh temporary folder; its path goes to out (cap >= 64). Returns 0 on success. */
static inline int
fs_tempdir(char *out, size_t cap) {
    const char *base = getenv("TMPDIR");
    (void)snprintf(out, cap, "%s/dl_cat_XXXXXX", base && base[0] ? base : "/tmp");
    return mkdtemp(out) != NULL ? 0 : -1;
}

/* mkdir -p of root/rel. Returns 0 on success. */
static inline int
fs_mkdirs(const char *root, const char *rel) {
    char path[4096];
    int n = snprintf(path, sizeof(path), "%s/%s", root, rel);
    if (n < 0 || (size_t)n >= sizeof(path)) {
        return -1;
    }
    for (char *p = path + strlen(root) + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0755) != 0 && access(path, F_OK) != 0) {
                return -1;
            }
            *p = '/';
        }
    }
    return (mkdir(path, 0755) == 0 || access(path, F_OK) == 0) ? 0 : -1;
}

/* Makes root/rel look like a Delta table (a folder holding _delta_log/). */
static inline int
fs_fake_table(const char *root, const char *rel) {
    char path[4096];
    (void)snprintf(path, sizeof(path), "%s/_delta_log", rel);
    return fs_mkdirs(root, path);
}

/* Writes a small file at root/rel. */
static inline int
fs_write_file(const char *root, const char *rel, const char *text) {
    char path[4096];
    (void)snprintf(path, sizeof(path), "%s/%s", root, rel);
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        return -1;
    }
    size_t n = strlen(text);
    int rc = fwrite(text, 1, n, f) == n ? 0 : -1;
    return fclose(f) == 0 ? rc : -1;
}

/* rm -rf path (no symbolic links are followed). */
static inline void
fs_remove_tree(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) {
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        DIR *dir = opendir(path);
        if (dir != NULL) {
            struct dirent *de;
            while ((de = readdir(dir)) != NULL) {
                if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) {
                    continue;
                }
                char child[4096];
                int n = snprintf(child, sizeof(child), "%s/%s", path, de->d_name);
                if (n > 0 && (size_t)n < sizeof(child)) {
                    fs_remove_tree(child);
                }
            }
            (void)closedir(dir);
        }
        (void)rmdir(path);
        return;
    }
    (void)unlink(path);
}

#endif /* DL_TESTS_CAT_TEST_FS_H */
