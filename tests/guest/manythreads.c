/* SPDX-License-Identifier: GPL-2.0-or-later */
/* manythreads.c - many threads, as CPython's test_queue and test_io start
 * them (docs/processes.md "Limits").
 *   manythreads arenas N STACK
 *                    N threads with STACK-byte stacks, alive at once, each
 *                    mallocs (glibc gives threads their own arenas, 64 MiB
 *                    PROT_NONE reservations on arm64), then all are joined */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest.h"

static pthread_barrier_t all_alive;

static void *allocate(void *arg)
{
    char *p = malloc(1000);
    if (p)
        memset(p, 1, 1000);
    pthread_barrier_wait(&all_alive);
    free(p);
    return p ? arg : NULL;
}

static int arenas(unsigned n, size_t stack)
{
    pthread_t *tids = calloc(n, sizeof *tids);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (!tids || pthread_attr_setstacksize(&attr, stack) != 0)
        return 2;
    pthread_barrier_init(&all_alive, NULL, n + 1);
    unsigned created = 0;
    int err = 0;
    while (created < n && (err = pthread_create(&tids[created], &attr, allocate, tids)) == 0)
        created++;
    if (created < n) {
        printf("pthread_create: %s after %u threads\n", err_name(err), created);
        return 1;
    }
    pthread_barrier_wait(&all_alive);
    unsigned joined = 0;
    for (unsigned i = 0; i < n; i++) {
        void *ret;
        joined += pthread_join(tids[i], &ret) == 0 && ret == tids;
    }
    printf("%u threads alive at once, each with its malloc arena: joined %u\n", created, joined);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "arenas") == 0)
        return arenas((unsigned)strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0));
    fprintf(stderr, "usage: manythreads arenas N STACK\n");
    return 2;
}
