/* SPDX-License-Identifier: Apache-2.0 */
/* The deltalite program. Until the SQL engine lands it answers --version and --help. */
#include <stdio.h>
#include <string.h>

#include "deltalite.h"

static const char usage[] =
    "deltalite %s - Delta Lake tables from the command line, no JVM needed\n"
    "\n"
    "Usage:\n"
    "  deltalite [OPTIONS] [WAREHOUSE]\n"
    "\n"
    "Options:\n"
    "  -h, --help       show this help and exit\n"
    "  -v, --version    print the version and exit\n"
    "\n"
    "Status: the foundation is in place (storage, JSON, columnar vectors). The SQL shell,\n"
    "Parquet reader and Delta log are being built; see README.md for what works today.\n";

int
main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-v") == 0 || strcmp(argv[i], "--version") == 0) {
            (void)printf("deltalite %s\n", deltalite_version());
            return 0;
        }
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            (void)printf(usage, deltalite_version());
            return 0;
        }
        (void)fprintf(stderr, "deltalite: unknown option '%s'\nTry 'deltalite --help'.\n", argv[i]);
        return 2;
    }
    (void)printf(usage, deltalite_version());
    return 0;
}
