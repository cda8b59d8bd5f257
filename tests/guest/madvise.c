/* SPDX-License-Identifier: GPL-2.0-or-later */
/* madvise.c - MADV_DONTNEED on private anonymous memory: a page written
 * before reads back as zero after, the rest of the mapping is untouched
 * by it, and the call releases memory rather than committing it: the
 * mapping is 1 GiB of which one page was ever written (madvise.sh checks
 * asymu's peak host memory). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "guest.h"

#define SIZE (1ul << 30)
#define PAGE 4096ul

int main(void)
{
    unsigned char *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        printf("mmap: %s\n", err_name(errno));
        return 1;
    }
    memset(p + 5 * PAGE, 0x5a, PAGE);
    p[7 * PAGE] = 7;
    printf("before: %d %d\n", p[5 * PAGE + 100], p[7 * PAGE]);
    printf("madvise 1 page: %d\n", madvise(p + 5 * PAGE, PAGE, MADV_DONTNEED));
    printf("after: %d %d\n", p[5 * PAGE + 100], p[7 * PAGE]);
    printf("madvise 1 GiB: %d\n", madvise(p, SIZE, MADV_DONTNEED));
    printf("after all: %d\n", p[7 * PAGE]);
    printf("unaligned: %s\n", madvise(p + 1, PAGE, MADV_DONTNEED) ? err_name(errno) : "0");
    return 0;
}
