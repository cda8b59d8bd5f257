/* SPDX-License-Identifier: GPL-2.0-or-later */
/* asan.c - a heap-buffer-overflow for AddressSanitizer (built with the
 * cross compiler's -fsanitize=address and its libasan): ASan reserves its
 * shadow with MAP_NORESERVE (28 TiB and 8 GiB on arm64, 4 TiB PROT_NONE
 * between them) and must run to its report and its exit status 1.
 *   asan          a heap-buffer-overflow
 *   asan clean    no error, status 0 after LeakSanitizer's check at exit
 *   asan leak     16 bytes leaked: LeakSanitizer's report, status 1 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    volatile char *volatile p = malloc(16);
    /* "clean": no error, LeakSanitizer's check at exit (its tracer
     * attaches to the program) finds nothing; "leak": it finds 16 bytes. */
    if (argc > 1) {
        p[0] = 'a';
        printf("%s run\n", argv[1]);
        fflush(stdout); /* LeakSanitizer's report ends the process at once */
        if (strcmp(argv[1], "leak") == 0)
            p = NULL;
        else
            free((void *)p);
        return 0;
    }
    volatile int at = 16;
    printf("before the overflow\n");
    fflush(stdout);
    p[at] = 'b';
    printf("after the overflow\n");
    free((void *)p);
    return 0;
}
