/* SPDX-License-Identifier: GPL-2.0-or-later */
/* yield.c - thread switches: two threads of one process each call
 * sched_yield N times. Each thread also counts the yields after which the
 * other thread had made progress: on one CPU that is how many yields really
 * switched; on a multi-core host (qemu-user) the threads also run in parallel.
 * Usage: yield [N] (default 200k). */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long n;
static unsigned long progress[2];
static unsigned long handoffs[2];

static void *yielder(void *arg)
{
    int me = (int)(long)arg;
    unsigned long seen = 0;
    for (unsigned long i = 0; i < n; i++) {
        __atomic_store_n(&progress[me], i + 1, __ATOMIC_RELAXED);
        sched_yield();
        unsigned long other = __atomic_load_n(&progress[!me], __ATOMIC_RELAXED);
        if (other != seen)
            handoffs[me]++, seen = other;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    n = argc > 1 ? strtoul(argv[1], NULL, 0) : 200000ul;
    pthread_t th[2];
    for (long i = 0; i < 2; i++)
        if (pthread_create(&th[i], NULL, yielder, (void *)i)) {
            fprintf(stderr, "yield: pthread_create failed\n");
            return 1;
        }
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    printf("yield: 2 threads x %lu sched_yield, other thread progressed after %lu of them\n", n,
           handoffs[0] + handoffs[1]);
    return 0;
}
