/* SPDX-License-Identifier: GPL-2.0-or-later */
/* store.c - store-heavy guest loop (glibc, static): ITERS updates of a 4 MiB
 * array (store-loop.h), then prints its sum. Usage: store [ITERS] (default 200M). */
#include <stdio.h>
#include <stdlib.h>

#include "store-loop.h"

int main(int argc, char **argv)
{
    unsigned long iters = argc > 1 ? strtoul(argv[1], NULL, 0) : 200000000ul;
    printf("store: %lu iterations, sum %u\n", iters, store_loop(iters));
    return 0;
}
