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

#endif
