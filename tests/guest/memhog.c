/* memhog.c - maps and touches memory 1 MiB at a time until the kernel says
 * no, then checks that malloc fails cleanly too and the process lives on.
 * Run with --max-mem: the limit must end it with ENOMEM in the guest.
 * `memhog regions` maps single pages that cannot merge (alternating rights)
 * until the kernel refuses: ENOMEM, as Linux's vm.max_map_count gives. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "regions") == 0)
        return regions();
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
