/* SPDX-License-Identifier: Apache-2.0 */
#include "test_delta_log_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool
tl_table_new(tl_table *t) {
    memset(t, 0, sizeof(*t));
    (void)snprintf(t->dir, sizeof(t->dir), "/tmp/dl_tlog_XXXXXX");
    if (!mkdtemp(t->dir)) {
        return false;
    }
    char log[300];
    (void)snprintf(log, sizeof(log), "%s/_delta_log", t->dir);
    return mkdir(log, 0700) == 0 && tl_open(t);
}

bool
tl_write(tl_table *t, const char *name, const char *text) {
    char p[512];
    (void)snprintf(p, sizeof(p), "%s/_delta_log/%s", t->dir, name);
    FILE *f = fopen(p, "wb");
    if (!f) {
        return false;
    }
    size_t n = strlen(text);
    bool ok = fwrite(text, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

bool
tl_commit(tl_table *t, int64_t version, const char *text) {
    char name[64];
    (void)snprintf(name, sizeof(name), "%020lld.json", (long long)version);
    return tl_write(t, name, text);
}

bool
tl_set_mtime(tl_table *t, const char *name, int64_t ms) {
    char p[512];
    (void)snprintf(p, sizeof(p), "%s/_delta_log/%s", t->dir, name);
    struct timespec ts[2];
    ts[0].tv_sec = ts[1].tv_sec = (time_t)(ms / 1000);
    ts[0].tv_nsec = ts[1].tv_nsec = (long)(ms % 1000) * 1000000L;
    return utimensat(AT_FDCWD, p, ts, 0) == 0;
}

bool
tl_remove(tl_table *t, const char *name) {
    char p[512];
    (void)snprintf(p, sizeof(p), "%s/_delta_log/%s", t->dir, name);
    return unlink(p) == 0;
}

bool
tl_open(tl_table *t) {
    dl_delta_table_free(t->table);
    dl_store_free(t->store);
    t->table = NULL;
    t->store = NULL;
    return dl_store_local_new(t->dir, NULL, &t->store, NULL) == DL_OK &&
           dl_delta_table_open(t->store, "", NULL, &t->table, NULL) == DL_OK;
}

static void
remove_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) {
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
            continue;
        }
        char p[768];
        (void)snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            remove_dir(p);
        } else {
            (void)unlink(p);
        }
    }
    (void)closedir(d);
    (void)rmdir(dir);
}

void
tl_table_free(tl_table *t) {
    dl_delta_table_free(t->table);
    dl_store_free(t->store);
    t->table = NULL;
    t->store = NULL;
    if (t->dir[0]) {
        remove_dir(t->dir);
    }
}
