/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hello.c - start-up cost: prints one line and exits. Built twice, static
 * (hello-static) and dynamic (hello-dynamic, the cross compiler's glibc
 * found through -L). */
#include <stdio.h>

int main(void)
{
    puts("hello");
    return 0;
}
