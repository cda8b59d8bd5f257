/* SPDX-License-Identifier: GPL-2.0-or-later */
/* primes.c - compiled by gcc inside the machine (the row "gcc" of
 * tests/conformance/programs.py): a sieve, printf and qsort from libc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int desc(const void *a, const void *b)
{
    return *(const int *)b - *(const int *)a;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    char *composite = calloc(n + 1, 1);
    int *primes = malloc(sizeof(int) * (n + 1)), count = 0;
    long sum = 0;
    for (int i = 2; i <= n; i++) {
        if (composite[i])
            continue;
        primes[count++] = i;
        sum += i;
        for (long j = (long)i * i; j <= n; j += i)
            composite[j] = 1;
    }
    qsort(primes, count, sizeof(int), desc);
    printf("%d primes up to %d, sum %ld, largest %d %d %d\n", count, n, sum, primes[0],
           primes[1], primes[2]);
    printf("sizeof(long) %zu\n", sizeof(long));
    free(primes);
    free(composite);
    return 0;
}
