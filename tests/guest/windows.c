/* SPDX-License-Identifier: GPL-2.0-or-later */
/* windows.c - tens of thousands of mappings in one process: past a few
 * hundred engine regions, asymu gathers private mappings into engine
 * windows (emu/mm/mm_window.h, docs/processes.md "Many mappings"). Whatever the
 * engine's layout, the guest must see Linux's answers: the same contents,
 * the same faults with the same si_code and address, across fork, mremap
 * and mprotect.
 *   windows N   N two-page mappings whose second page is PROT_NONE (2N
 *               VMAs, as thread stacks and their guards), then the checks */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

#define PAGE 4096u

static sigjmp_buf back;
static volatile uintptr_t fault_addr;
static volatile int fault_code;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)uc;
    fault_addr = (uintptr_t)si->si_addr;
    fault_code = si->si_code;
    siglongjmp(back, 1);
}

static const char *code_name(int code)
{
    return code == SEGV_MAPERR ? "SEGV_MAPERR" : code == SEGV_ACCERR ? "SEGV_ACCERR" : "other";
}

/* Reads or writes *p; prints what the guest saw. */
static void touch(const char *what, volatile char *p, int write)
{
    fault_addr = 0;
    if (sigsetjmp(back, 1) == 0) {
        if (write)
            *p = 7;
        else
            (void)*p;
        printf("%s: no fault\n", what);
    } else {
        printf("%s: SIGSEGV %s at %s\n", what, code_name(fault_code),
               fault_addr == (uintptr_t)p ? "the address" : "another address");
    }
}

static uint64_t sum_of(char **maps, unsigned n)
{
    uint64_t sum = 0;
    for (unsigned i = 0; i < n; i++)
        sum += *(uint32_t *)maps[i];
    return sum;
}

static int windows(unsigned n)
{
    char **maps = calloc(n, sizeof *maps);
    if (!maps)
        return 2;
    /* A PROT_NONE page with bytes, alone in its part of the address space:
     * no window holds it in this process; a forked child may put it in one. */
    char *lone = mmap((void *)0x40000000, PAGE, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (lone == MAP_FAILED)
        return 2;
    strcpy(lone, "lone bytes");
    mprotect(lone, PAGE, PROT_NONE);
    unsigned made = 0;
    for (; made < n; made++) {
        char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED || mprotect(p + PAGE, PAGE, PROT_NONE) != 0)
            break;
        *(uint32_t *)p = made + 1;
        maps[made] = p;
    }
    printf("mappings: %u of %u, %u VMAs\n", made, n, 2 * made);
    uint64_t want = (uint64_t)made * (made + 1) / 2;
    printf("contents: %s\n", sum_of(maps, made) == want ? "all there" : "WRONG");

    struct sigaction sa = {.sa_sigaction = on_segv, .sa_flags = SA_SIGINFO};
    sigaction(SIGSEGV, &sa, NULL);
    char *mid = maps[made / 2];
    touch("read of a guard page", mid + PAGE, 0);
    touch("write to a guard page", mid + PAGE + 100, 1);

    /* Bytes kept under PROT_NONE survive a faulting write. */
    memset(mid, 'k', PAGE);
    mprotect(mid, PAGE, PROT_NONE);
    touch("write to a page made PROT_NONE", mid + 8, 1);
    mprotect(mid, PAGE, PROT_READ | PROT_WRITE);
    printf("its bytes after PROT_READ|PROT_WRITE again: %s\n",
           mid[8] == 'k' && mid[PAGE - 1] == 'k' ? "kept" : "CHANGED");
    *(uint32_t *)mid = made / 2 + 1;

    /* A hole punched among them. */
    char *hole = maps[made / 3];
    uint32_t hole_value = *(uint32_t *)hole;
    munmap(hole, PAGE);
    touch("read of an unmapped page", hole + 4, 0);
    char *again = mmap(hole, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
                       -1, 0);
    printf("mapped again there: %s, reads %u\n", again == hole ? "yes" : "no",
           *(uint32_t *)hole);
    *(uint32_t *)hole = hole_value;

    /* Read-only and executable rights among them. */
    char *ro = maps[made / 4];
    mprotect(ro, PAGE, PROT_READ);
    touch("write to a PROT_READ page", ro, 1);
    printf("it reads %u\n", *(uint32_t *)ro == made / 4 + 1 ? made / 4 + 1 : 0);
    mprotect(ro, PAGE, PROT_READ | PROT_WRITE);

    /* Code among them: an executable page cannot lie in a window. */
    char *code = maps[made / 5];
#if defined(__aarch64__)
    static const uint32_t ret[] = {0x52800540u /* mov w0, #42 */, 0xd65f03c0u /* ret */};
#else
    static const uint32_t ret[] = {0xe3a0002au /* mov r0, #42 */, 0xe12fff1eu /* bx lr */};
#endif
    memcpy(code, ret, sizeof ret);
    __builtin___clear_cache(code, code + sizeof ret);
    int rc = mprotect(code, PAGE, PROT_READ | PROT_EXEC);
    printf("mprotect PROT_READ|PROT_EXEC: %d, the code returns %d\n", rc,
           rc == 0 ? ((int (*)(void))(uintptr_t)code)() : -1);
    touch("write to it", code, 1);
    mprotect(code, PAGE, PROT_READ | PROT_WRITE);
    *(uint32_t *)code = made / 5 + 1;

    /* mremap moves one. */
    char *moved = mremap(maps[1], PAGE, 4 * PAGE, MREMAP_MAYMOVE);
    printf("mremap: %s, reads %u\n", moved == MAP_FAILED ? "failed" : "moved",
           moved == MAP_FAILED ? 0 : *(uint32_t *)moved);
    if (moved != MAP_FAILED)
        maps[1] = moved;

    /* A fork sees the same. */
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        printf("child: contents %s\n", sum_of(maps, made) == want ? "all there" : "WRONG");
        touch("child: read of a guard page", maps[made - 1] + PAGE, 0);
        mprotect(lone, PAGE, PROT_READ);
        printf("child: the PROT_NONE page alone holds \"%s\"\n", lone);
        fflush(stdout);
        _exit(3);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    printf("child exited with %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    printf("parent: contents %s\n", sum_of(maps, made) == want ? "all there" : "WRONG");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "windows") == 0)
        return windows((unsigned)strtoul(argv[2], NULL, 0));
    fprintf(stderr, "usage: windows windows N\n");
    return 2;
}
