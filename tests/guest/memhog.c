/* SPDX-License-Identifier: GPL-2.0-or-later */
/* memhog.c - maps and touches memory 1 MiB at a time until the kernel says
 * no, then checks that malloc fails cleanly too and the process lives on.
 * Run with --max-mem: the limit must end it with ENOMEM in the guest.
 * `memhog regions` maps single pages that cannot merge (alternating rights)
 * until the kernel refuses: ENOMEM, as Linux's vm.max_map_count gives.
 * `memhog fork` forks once and reports the result (run with a --host-reserve
 * larger than the host has, fork fails with ENOMEM). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHUNK (1u << 20)

static int regions(void)
{
    unsigned n = 0;
    for (;;) {
        int prot = n % 2 ? PROT_READ : PROT_READ | PROT_WRITE;
        void *p = mmap(NULL, 4096, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            printf("mmap of a page failed after %s mappings: %s\n", n > 500 ? "more than 500" : "few",
                   errno == ENOMEM ? "ENOMEM" : "other");
            break;
        }
        if (++n > 100000)
            break;
    }
    printf("still alive\n");
    return 0;
}

static int fork_once(void)
{
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    if (pid < 0) {
        printf("fork failed: %s\n", errno == ENOMEM ? "ENOMEM" : strerror(errno));
        return 0;
    }
    waitpid(pid, NULL, 0);
    printf("fork succeeded\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "regions") == 0)
        return regions();
    if (argc > 1 && strcmp(argv[1], "fork") == 0)
        return fork_once();
    unsigned mapped = 0;
    for (;;) {
        char *p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            printf("mmap failed after %u MiB: %s\n", mapped, errno == ENOMEM ? "ENOMEM" : "other");
            break;
        }
        memset(p, 0xa5, CHUNK);
        if (++mapped > 100000)
            break;
    }
    void *big = malloc(64u << 20);
    printf("malloc(64 MiB) %s\n", big ? "succeeded" : "returned NULL");
    printf("still alive\n");
    return 0;
}
