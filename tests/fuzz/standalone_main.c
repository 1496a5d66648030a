/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs a libFuzzer target without libFuzzer: every file named on the command line (or found
 * in a directory named there) is passed once to LLVMFuzzerTestOneInput. Used to replay seeds
 * and kept crashes as regression tests in ordinary (sanitizer) builds.
 */
#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

#include "base/base.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        (void)fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    dl_buf buf;
    dl_buf_init(&buf, NULL);
    uint8_t chunk[65536];
    size_t n;
    int rc = 0;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
        if (dl_buf_append(&buf, chunk, n, NULL) != DL_OK) {
            rc = 1;
            break;
        }
    }
    (void)fclose(f);
    if (rc == 0) {
        /* A heap copy of exactly the file's size, so ASan sees overreads past the end. */
        uint8_t *exact = dl_mem_alloc(NULL, buf.len);
        if (exact == NULL) {
            rc = 1;
        } else {
            if (buf.len > 0) {
                memcpy(exact, buf.data, buf.len);
            }
            (void)LLVMFuzzerTestOneInput(exact, buf.len);
            dl_mem_free(NULL, exact, buf.len);
        }
    }
    dl_buf_destroy(&buf);
    return rc;
}

static int
run_path(const char *path, int *n_run) {
    struct stat st;
    if (stat(path, &st) != 0) {
        (void)fprintf(stderr, "cannot stat %s\n", path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
        (*n_run)++;
        return run_file(path);
    }
    DIR *dir = opendir(path);
    if (dir == NULL) {
        return 1;
    }
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.') {
            continue;
        }
        char child[4096];
        int len = snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
        if (len < 0 || (size_t)len >= sizeof(child)) {
            rc = 1;
            break;
        }
        rc = run_path(child, n_run);
    }
    (void)closedir(dir);
    return rc;
}

int
main(int argc, char **argv) {
    int n_run = 0;
    for (int i = 1; i < argc; i++) {
        if (run_path(argv[i], &n_run) != 0) {
            return 1;
        }
    }
    printf("%d passed, 0 failed\n", n_run);
    return 0;
}
