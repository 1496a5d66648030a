/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hints for names that were not found: the similar names first (a typo), else the names there
 * are when they are few, else how many there are and how to list them. A hint is at most
 * DL_ERROR_HINT_CAP bytes, so lists are cut with ", ...".
 */
#include <stdio.h>
#include <string.h>

#include "catalog/cat_int.h"

/* Names listed in full when there is no similar one. */
#define HINT_LIST_MAX 8

typedef struct hint_buf {
    char text[DL_ERROR_HINT_CAP];
    size_t len;
    bool is_full;
} hint_buf;

static void
hint_add(hint_buf *h, const char *s) {
    size_t n = strlen(s);
    /* keep room for ", ..." and the NUL */
    if (h->is_full || h->len + n + 6 >= sizeof(h->text)) {
        if (!h->is_full && h->len + 6 < sizeof(h->text)) {
            memcpy(h->text + h->len, ", ...", 5);
            h->len += 5;
        }
        h->is_full = true;
        h->text[h->len] = '\0';
        return;
    }
    memcpy(h->text + h->len, s, n);
    h->len += n;
    h->text[h->len] = '\0';
}

static void
hint_list(hint_buf *h, const dl_cat_names *names, const char *want, bool similar_only) {
    size_t listed = 0;
    for (size_t i = 0; i < names->count; i++) {
        if (similar_only && !dl_cat_name_is_similar(want, names->names[i])) {
            continue;
        }
        if (listed > 0) {
            hint_add(h, ", ");
        }
        hint_add(h, names->names[i]);
        listed++;
    }
}

static size_t
count_similar(const dl_cat_names *names, const char *want) {
    size_t n = 0;
    for (size_t i = 0; i < names->count; i++) {
        n += dl_cat_name_is_similar(want, names->names[i]) ? 1 : 0;
    }
    return n;
}

void
dl_cat_hint_names(dl_error *err, const char *want, const dl_cat_names *names, const char *what,
                  const char *scope, const char *extra) {
    hint_buf h = {.len = 0, .is_full = false};
    h.text[0] = '\0';
    const char *sep = scope[0] != '\0' ? " " : "";
    char head[DL_ERROR_HINT_CAP];
    if (count_similar(names, want) > 0) {
        hint_add(&h, "did you mean: ");
        hint_list(&h, names, want, true);
        hint_add(&h, "?");
    } else if (names->count == 0) {
        (void)snprintf(head, sizeof(head), "there are no %s%s%s", what, sep, scope);
        hint_add(&h, head);
    } else if (names->count <= HINT_LIST_MAX) {
        (void)snprintf(head, sizeof(head), "%s%s%s: ", what, sep, scope);
        hint_add(&h, head);
        hint_list(&h, names, want, false);
    } else {
        (void)snprintf(head, sizeof(head), "there are %zu %s%s%s; SHOW %s lists them", names->count,
                       what, sep, scope, strcmp(what, "schemas") == 0 ? "SCHEMAS" : "TABLES");
        hint_add(&h, head);
    }
    if (extra != NULL && extra[0] != '\0') {
        h.is_full = false; /* the extra sentence is cut by dl_error_hint if need be */
        dl_error_hint(err, "%s; %s", h.text, extra);
        return;
    }
    dl_error_hint(err, "%s", h.text);
}
