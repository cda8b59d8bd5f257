/* SPDX-License-Identifier: GPL-2.0-or-later */
/* getpid.c - syscall-heavy guest loop: N getpid calls through syscall(2), so
 * libc cannot cache the pid. Usage: getpid [N] (default 1M). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000ul;
    unsigned long sum = 0;
    for (unsigned long i = 0; i < n; i++)
        sum += (unsigned long)syscall(SYS_getpid);
    printf("getpid: %lu calls, pid sum %lu\n", n, sum);
    return 0;
}
