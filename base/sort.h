/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sort.h - qsort for arrays that may be empty: C leaves qsort of a NULL
 * base undefined even for no items (UBSan stops on it), and an empty
 * array's base is often NULL. The one way asymu sorts. */
#ifndef ASYMU_SORT_H
#define ASYMU_SORT_H

#include <stdlib.h>

static inline void sort_items(void *base, size_t n, size_t size,
                              int (*cmp)(const void *, const void *))
{
    if (n)
        qsort(base, n, size, cmp);
}

/* The same with a context for the comparison (glibc's qsort_r): what it
 * compares by is passed, never left in a static variable. */
static inline void sort_items_r(void *base, size_t n, size_t size,
                                int (*cmp)(const void *, const void *, void *), void *ctx)
{
    if (n)
        qsort_r(base, n, size, cmp, ctx);
}

#endif
