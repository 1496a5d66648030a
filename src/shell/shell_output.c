/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where results go: standard output, or a file named by .output (until the next .output) or
 * .once (for the next statement only). The file is created or truncated when named; errors
 * and notes stay on standard error.
 */
#include <errno.h>
#include <string.h>

#include "shell/shell_int.h"

/* Closes the current output file, if any; results go to standard output again. */
static bool
close_output(dl_shell *sh) {
    bool ok = true;
    if (sh->out != sh->stdout_file) {
        if (fclose(sh->out) != 0) {
            ok = dl_shell_fail(sh, "cannot write '%s': %s", sh->out_path, strerror(errno));
        }
        sh->out = sh->stdout_file;
    }
    sh->out_path[0] = '\0';
    sh->is_once = false;
    return ok;
}

bool
dl_shell_cmd_output(dl_shell *sh, char **w, int n, const char *rest) {
    (void)rest;
    bool is_once = strcmp(w[0], ".once") == 0;
    if (n < 2 && is_once) {
        return dl_shell_fail(sh, ".once: expected a file name");
    }
    (void)fflush(sh->out);
    if (!close_output(sh)) {
        return false;
    }
    if (n < 2 || strcmp(w[1], "stdout") == 0) {
        return true;
    }
    if (strlen(w[1]) >= sizeof(sh->out_path)) {
        return dl_shell_fail(sh, "%s: the file name is longer than %zu bytes", w[0],
                             sizeof(sh->out_path) - 1);
    }
    FILE *f = fopen(w[1], "wb");
    if (f == NULL) {
        return dl_shell_fail(sh, "%s: cannot write '%s': %s", w[0], w[1], strerror(errno));
    }
    sh->out = f;
    (void)snprintf(sh->out_path, sizeof(sh->out_path), "%s", w[1]);
    sh->is_once = is_once;
    return true;
}

void
dl_shell_output_after_statement(dl_shell *sh) {
    if (sh->is_once) {
        (void)close_output(sh);
    }
}

void
dl_shell_output_close(dl_shell *sh) {
    (void)fflush(sh->out);
    (void)close_output(sh);
}
