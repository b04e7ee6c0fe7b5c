/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * replay.c - main() for a harness built without libFuzzer: feed it every
 * file of its corpus and regression folders (or the files and folders
 * given as arguments), once each.  A finding shows up as a crash or a
 * sanitizer report of the replay, so `make check` fails on it.
 *
 * XU_FUZZ_NAME and XU_FUZZ_SRCDIR come from Makefile.am: the inputs of
 * harness NAME live in tests/fuzz/corpus/NAME and tests/fuzz/regressions/NAME.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Larger inputs than any corpus file: a checked-in file must stay small. */
#define MAX_INPUT_BYTES (16u << 20)

static int replay_file(const char *path, unsigned long *n)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    size_t len;

    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    buf = malloc(MAX_INPUT_BYTES);
    if (!buf) {
        fclose(f);
        return -1;
    }
    len = fread(buf, 1, MAX_INPUT_BYTES, f);
    fclose(f);
    /* a copy of exactly the input's size, so an overread is caught */
    {
        uint8_t *exact = malloc(len ? len : 1);

        if (!exact) {
            free(buf);
            return -1;
        }
        memcpy(exact, buf, len);
        free(buf);
        LLVMFuzzerTestOneInput(exact, len);
        free(exact);
    }
    (*n)++;
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order; a missing dir is empty. */
static int replay_dir(const char *dir, unsigned long *n)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t nr = 0, i;
    int rc = 0;

    if (!d)
        return errno == ENOENT ? 0 : -1;
    while ((e = readdir(d))) {
        char **p;

        if (e->d_name[0] == '.')
            continue;
        p = realloc(names, (nr + 1) * sizeof(*names));
        if (!p) {
            rc = -1;
            break;
        }
        names = p;
        if (asprintf(&names[nr], "%s/%s", dir, e->d_name) < 0) {
            rc = -1;
            break;
        }
        nr++;
    }
    closedir(d);
    qsort(names, nr, sizeof(*names), cmp_names);
    for (i = 0; i < nr; i++) {
        struct stat sb;

        if (rc == 0 && stat(names[i], &sb) == 0 && S_ISREG(sb.st_mode))
            rc = replay_file(names[i], n);
        free(names[i]);
    }
    free(names);
    return rc;
}

static int replay_path(const char *path, unsigned long *n)
{
    struct stat sb;

    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return replay_dir(path, n);
    return replay_file(path, n);
}

int main(int argc, char **argv)
{
    unsigned long n = 0;
    int i, rc = 0;

    if (argc > 1) {
        for (i = 1; i < argc && rc == 0; i++)
            rc = replay_path(argv[i], &n);
    } else {
        rc = replay_dir(XU_FUZZ_SRCDIR "/corpus/" XU_FUZZ_NAME, &n);
        if (rc == 0)
            rc = replay_dir(XU_FUZZ_SRCDIR "/regressions/" XU_FUZZ_NAME, &n);
    }
    printf("%s: %lu input(s) replayed\n", XU_FUZZ_NAME, n);
    /* no input at all is a broken checkout, not a pass */
    return rc == 0 && n > 0 ? 0 : 1;
}
