/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz.c - hostile syscalls: N calls with random numbers and arguments
 * (valid and invalid pointers, huge lengths, odd flags) from a seeded
 * generator. The guest may fail, block or die; the host must not (see
 * tests/e2e/survive.c). Usage: fuzz SEED N */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static uint64_t state;
static char buf[8192];

static uint64_t next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static long argument(void)
{
    static const long interesting[] = {0, 1, 2, 3, -1, -100, 4096, 0x7fffffff, 64, 255, 1024, 8};
    switch (next() % 6) {
    case 0:
        return interesting[next() % (sizeof interesting / sizeof *interesting)];
    case 1:
        return (long)buf;
    case 2:
        return (long)buf + (long)(next() % 4096);
    case 3:
        return 8; /* unmapped */
    case 4:
        return (long)next();
    default:
        return (long)(next() % 16);
    }
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    state = strtoull(argv[1], NULL, 10) * 2654435761u + 1;
    long n = atol(argv[2]);
    /* Calls that end the fuzzing early: exit, exit_group. */
#ifdef __aarch64__
    static const long stop[] = {SYS_exit, SYS_exit_group};
    const unsigned max_nr = 450;
#else
    static const long stop[] = {SYS_exit, SYS_exit_group};
    const unsigned max_nr = 460;
#endif
    for (long i = 0; i < n; i++) {
        long nr = (long)(next() % max_nr), a[6];
        if (nr == stop[0] || nr == stop[1])
            continue;
        for (int k = 0; k < 6; k++)
            a[k] = argument();
        syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
    }
    printf("done\n");
    return 0;
}
