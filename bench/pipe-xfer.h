/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pipe-xfer.h - the pipe round trips shared by pingpong.c and idle.c, so both
 * measure the same switches. */
#ifndef BENCH_PIPE_XFER_H
#define BENCH_PIPE_XFER_H

#include <stdlib.h>
#include <unistd.h>

/* n round trips of one byte: the first side writes then reads, the other
 * reads then writes; exits with 2 if a pipe fails. */
static void xfer(int in, int out, int first, unsigned long n)
{
    char c = 'x';
    for (unsigned long i = 0; i < n; i++) {
        if (!first && read(in, &c, 1) != 1)
            exit(2);
        if (write(out, &c, 1) != 1)
            exit(2);
        if (first && read(in, &c, 1) != 1)
            exit(2);
    }
}

#endif
