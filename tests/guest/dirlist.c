/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dirlist.c - readdir on a host directory, as a 32-bit program's glibc does
 * it (32-bit positions; EOVERFLOW when the kernel's d_off does not fit):
 * prints the entries sorted, then checks that seekdir to a telldir
 * position reads the same entry again. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest.h"

#define MAX_ENTRIES 256

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    DIR *d = argc == 2 ? opendir(argv[1]) : NULL;
    if (!d) {
        printf("opendir: %s\n", err_name(errno));
        return 1;
    }
    char *names[MAX_ENTRIES];
    size_t n = 0;
    long third = -1;
    char fourth[256] = "";
    struct dirent *e;
    errno = 0;
    while (n < MAX_ENTRIES && (e = readdir(d))) {
        names[n++] = strdup(e->d_name);
        if (n == 3)
            third = telldir(d);
        if (n == 4)
            snprintf(fourth, sizeof fourth, "%s", e->d_name);
    }
    if (errno) {
        printf("readdir: %s after %zu entries\n", err_name(errno), n);
        return 1;
    }
    qsort(names, n, sizeof *names, by_name);
    printf("%zu entries:", n);
    for (size_t i = 0; i < n; i++)
        printf(" %s", names[i]);
    printf("\n");
    seekdir(d, third);
    e = readdir(d);
    printf("seekdir to telldir after 3 entries: %s\n",
           e && strcmp(e->d_name, fourth) == 0 ? "the 4th entry again" : "another entry");
    rewinddir(d);
    size_t again = 0;
    while (readdir(d))
        again++;
    printf("after rewinddir: %zu entries\n", again);
    closedir(d);
    return 0;
}
