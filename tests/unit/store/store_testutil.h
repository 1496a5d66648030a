/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers for the store tests: scratch folders under /tmp, files made without the store (so a
 * test does not rely on the code it checks), and a scan for leftover temporary files.
 */
#ifndef DL_TESTS_STORE_TESTUTIL_H
#define DL_TESTS_STORE_TESTUTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TESTUTIL_PATH_CAP 4096
#define TESTUTIL_ROOT_CAP 64 /* scratch roots are short, so root + name always fits a path */

/* Creates a fresh folder /tmp/dl-store-XXXXXX into out (TESTUTIL_ROOT_CAP bytes). */
static inline bool
testutil_make_tmp_dir(char *out) {
    int n = snprintf(out, TESTUTIL_ROOT_CAP, "/tmp/dl-store-XXXXXX");
    return n > 0 && mkdtemp(out) != NULL;
}

/* Removes path and everything below it, restoring permissions a test took away. */
static inline void
testutil_remove_tree(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) {
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        (void)unlink(path);
        return;
    }
    (void)chmod(path, 0700);
    DIR *dir = opendir(path);
    if (dir != NULL) {
        struct dirent *de;
        while ((de = readdir(dir)) != NULL) {
            if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) {
                continue;
            }
            char child[TESTUTIL_PATH_CAP];
            int n = snprintf(child, sizeof(child), "%s/%s", path, de->d_name);
            if (n > 0 && (size_t)n < sizeof(child)) {
                testutil_remove_tree(child);
            }
        }
        (void)closedir(dir);
    }
    (void)rmdir(path);
}

/* Writes content as root/rel directly (no store, no temporary file). */
static inline bool
testutil_write_raw(const char *root, const char *rel, const char *content) {
    char full[TESTUTIL_PATH_CAP];
    int n = snprintf(full, sizeof(full), "%s/%s", root, rel);
    if (n <= 0 || (size_t)n >= sizeof(full)) {
        return false;
    }
    int fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        return false;
    }
    size_t len = strlen(content);
    bool is_ok = write(fd, content, len) == (ssize_t)len;
    return close(fd) == 0 && is_ok;
}

/* Creates the folder root/rel (one level). */
static inline bool
testutil_mkdir(const char *root, const char *rel, mode_t mode) {
    char full[TESTUTIL_PATH_CAP];
    int n = snprintf(full, sizeof(full), "%s/%s", root, rel);
    return n > 0 && (size_t)n < sizeof(full) && mkdir(full, mode) == 0;
}

/* Number of temporary files (".<name>.<hex>.tmp") anywhere below path. */
static inline int
testutil_count_tmp_files(const char *path) {
    DIR *dir = opendir(path);
    if (dir == NULL) {
        return 0;
    }
    int count = 0;
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        const char *name = de->d_name;
        size_t len = strlen(name);
        if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
            continue;
        }
        if (name[0] == '.' && len > 4 && strcmp(name + len - 4, ".tmp") == 0) {
            count++;
        }
        char child[TESTUTIL_PATH_CAP];
        struct stat st;
        int n = snprintf(child, sizeof(child), "%s/%s", path, name);
        if (n > 0 && (size_t)n < sizeof(child) && lstat(child, &st) == 0 && S_ISDIR(st.st_mode)) {
            count += testutil_count_tmp_files(child);
        }
    }
    (void)closedir(dir);
    return count;
}

#endif /* DL_TESTS_STORE_TESTUTIL_H */
