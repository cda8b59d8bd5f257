/* SPDX-License-Identifier: GPL-2.0-or-later */
/* store-loop.h - the store-heavy loop shared by store.c and store-raw.c, so the
 * glibc and freestanding variants run the same instructions. */
#ifndef BENCH_STORE_LOOP_H
#define BENCH_STORE_LOOP_H

/* The array's size in 32-bit words, a power of two. The default, 4 MiB, is far
 * more pages than Unicorn's soft TLB holds, so the loop pays a TLB refill every
 * 4 KiB as real programs do; qemu-user has no soft TLB. run.sh also builds a
 * 16 KiB "hot" variant that never misses, which isolates per-block costs. */
#ifndef STORE_WORDS
#define STORE_WORDS (1u << 20)
#endif

static unsigned store_array[STORE_WORDS];

/* One load and one store per iteration, 28 bytes apart, wrapping around the
 * array. The result depends on every store, so -O2 cannot drop or fold it. */
static unsigned store_loop(unsigned long iters)
{
    unsigned sum = 0;
    for (unsigned long i = 0; i < iters; i++)
        store_array[(i * 7u) & (STORE_WORDS - 1)] += (unsigned)i;
    for (unsigned k = 0; k < STORE_WORDS; k++)
        sum += store_array[k];
    return sum;
}

#endif
