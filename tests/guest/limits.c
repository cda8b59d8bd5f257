/* SPDX-License-Identifier: GPL-2.0-or-later */
/* limits.c - the address space and thread limits end in errors for the
 * guest, never in a host abort (docs/processes.md, docs/security.md).
 *   limits split     mprotect every other page of one mapping until it
 *                    fails; then a hole punched by munmap fails the same
 *                    way; after unmapping, the process maps, writes and
 *                    reads again
 *   limits threads [STACK]
 *                    pthread_create (with STACK-byte stacks, else the
 *                    default) until it fails, then join them all */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "guest.h"

#define PAGE 4096u
#define PAGES 4000u

static int split(void)
{
    char *p = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 1;
    unsigned done = 0;
    while (done < PAGES / 2 && mprotect(p + (2 * done + 1) * PAGE, PAGE, PROT_READ) == 0)
        done++;
    printf("mprotect split %u pages, then %s\n", done, err_name(errno));
    int r = munmap(p + (PAGES - 10) * PAGE, PAGE);
    printf("munmap of a hole: %s\n", r < 0 ? err_name(errno) : "0");
    r = mprotect(p, PAGES * PAGE, PROT_READ | PROT_WRITE);
    printf("mprotect of the whole mapping back to one: %s\n", r < 0 ? err_name(errno) : "0");
    r = mprotect(p + PAGE, PAGE, PROT_READ);
    printf("mprotect split after merging: %s\n", r < 0 ? err_name(errno) : "0");
    munmap(p, PAGES * PAGE);
    char *q = mmap(NULL, 1u << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (q == MAP_FAILED)
        return 1;
    memset(q, 0x5a, 1u << 20);
    printf("mapped, wrote and read back: %s\n", q[12345] == 0x5a ? "yes" : "no");
    return 0;
}

static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;

static void *parked(void *arg)
{
    pthread_mutex_lock(&gate);
    pthread_mutex_unlock(&gate);
    return arg;
}

#define MAX_THREADS 5000

/* With lo and hi, a count within [lo, hi] prints as that window: where the
 * engine's region bound falls depends on the process's layout (its
 * environment and path sizes), not on the bound. */
static int threads(const char *stack, const char *lo, const char *hi)
{
    static pthread_t tids[MAX_THREADS];
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (stack && pthread_attr_setstacksize(&attr, strtoul(stack, NULL, 0)) != 0)
        return 2;
    pthread_mutex_lock(&gate);
    unsigned n = 0;
    int err = 0;
    while (n < MAX_THREADS && (err = pthread_create(&tids[n], &attr, parked, NULL)) == 0)
        n++;
    if (lo && hi && n >= strtoul(lo, NULL, 0) && n <= strtoul(hi, NULL, 0))
        printf("pthread_create: %s after %s to %s threads\n", err_name(err), lo, hi);
    else
        printf("pthread_create: %s after %u threads\n", err_name(err), n);
    pthread_mutex_unlock(&gate);
    unsigned joined = 0;
    for (unsigned i = 0; i < n; i++)
        joined += pthread_join(tids[i], NULL) == 0;
    printf("joined %s\n", joined == n ? "all" : "not all");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "split") == 0)
        return split();
    if (argc > 1 && strcmp(argv[1], "threads") == 0)
        return threads(argc > 2 ? argv[2] : NULL, argc > 4 ? argv[3] : NULL,
                       argc > 4 ? argv[4] : NULL);
    fprintf(stderr, "usage: limits split | threads [STACK [LO HI]]\n");
    return 2;
}
