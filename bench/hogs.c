/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hogs.c - the scheduler's cost: T threads (default 16) each run K rounds
 * of integer arithmetic with no syscall, so that on an 8-vCPU machine the
 * scheduler shares each vCPU between two of them at every tick, balances
 * them and keeps their utilisation; the checksum of their results is the
 * same under any runner. Usage: hogs [K] [T] (default 20M rounds, 16). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define HOGS_MAX 64

static unsigned long rounds;
static uint64_t results[HOGS_MAX];

static void *hog(void *arg)
{
    long me = (long)arg;
    uint64_t x = (uint64_t)me + 1;
    for (unsigned long i = 0; i < rounds; i++)
        x = x * 6364136223846793005ull + 1442695040888963407ull; /* an LCG step */
    results[me] = x;
    return NULL;
}

int main(int argc, char **argv)
{
    rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000000ul;
    long n = argc > 2 ? strtol(argv[2], NULL, 0) : 16;
    if (n < 1 || n > HOGS_MAX) {
        fprintf(stderr, "hogs: 1 to %d threads\n", HOGS_MAX);
        return 2;
    }
    pthread_t th[HOGS_MAX];
    for (long i = 0; i < n; i++)
        if (pthread_create(&th[i], NULL, hog, (void *)i)) {
            fprintf(stderr, "hogs: pthread_create failed\n");
            return 1;
        }
    uint64_t sum = 0;
    for (long i = 0; i < n; i++) {
        pthread_join(th[i], NULL);
        sum ^= results[i];
    }
    printf("hogs: %ld threads x %lu rounds, checksum %016llx\n", n, rounds,
           (unsigned long long)sum);
    return 0;
}
