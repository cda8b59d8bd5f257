/* SPDX-License-Identifier: GPL-2.0-or-later */
/* faultpc: the PC a fault's handler sees is the faulting instruction's,
 * taken from a label on it, whatever instructions run before it in the
 * same block; a handler that mends the cause and returns resumes at that
 * instruction, so those before it run once. Modes:
 *   load    a load from unmapped memory (SIGSEGV, SEGV_MAPERR)
 *   store   a store to a read-only page; the handler makes it writable
 *           and returns (SIGSEGV, SEGV_ACCERR)
 *   udf     an undefined instruction; the handler steps over it (SIGILL)
 *   windows the store of `store` after 600 other mappings, which put the
 *           address space's private mappings into engine windows
 *   bus     a load past the end of a file mapping (SIGBUS, BUS_ADRERR) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

extern char load_insn[], store_insn[], udf_insn[];
static sigjmp_buf env;
static volatile uintptr_t seen_pc, seen_addr;
static volatile int seen_sig, seen_code;
static void *page;
static long pagesize;

static uintptr_t *pc_of(void *uctx)
{
    ucontext_t *uc = uctx;
#ifdef __aarch64__
    return (uintptr_t *)&uc->uc_mcontext.pc;
#else
    return (uintptr_t *)&uc->uc_mcontext.arm_pc;
#endif
}

static void on_fault(int sig, siginfo_t *si, void *uctx)
{
    seen_sig = sig, seen_code = si->si_code;
    seen_pc = *pc_of(uctx), seen_addr = (uintptr_t)si->si_addr;
    if (sig == SIGSEGV && si->si_code == SEGV_ACCERR) {
        mprotect(page, pagesize, PROT_READ | PROT_WRITE); /* mend, and return */
        return;
    }
    if (sig == SIGILL) {
        *pc_of(uctx) += 4; /* step over it */
        return;
    }
    siglongjmp(env, 1);
}

static const char *where(uintptr_t label)
{
    return seen_pc == label ? "the faulting instruction" : "elsewhere";
}

/* The counter's and the address's registers, named for either ISA. */
#ifdef __aarch64__
#define R(n) "x" #n
#else
#define R(n) "r" #n
#endif
#define ADDS R(1) ", " R(1) ", #1\n add " R(1) ", " R(1) ", #2\n"

/* A 4-byte undefined instruction in either AArch32 instruction set. */
#ifdef __aarch64__
#define UDF ".inst 0x00000000"
#elif defined(__thumb__)
#define UDF "udf.w #2"
#else
#define UDF "udf #2"
#endif

/* Each adds 1 and 2 to a counter in registers, then faults: the adds share
 * the faulting instruction's block. Returns the counter. */
__attribute__((noinline)) static long load_after_adds(uintptr_t at)
{
    register uintptr_t a asm(R(2)) = at;
    register long n asm(R(1)) = 0;
    __asm__ volatile("add " ADDS ".globl load_insn\nload_insn: ldr " R(3) ", [" R(2) "]\n"
                     : "+r"(n) : "r"(a) : R(3), "memory");
    return n;
}

/* Then adds 4 after the store. */
__attribute__((noinline)) static long store_after_adds(uintptr_t at)
{
    register uintptr_t a asm(R(2)) = at;
    register long n asm(R(1)) = 0;
    __asm__ volatile("add " ADDS ".globl store_insn\nstore_insn: str " R(1) ", [" R(2) "]\n"
                     "add " R(1) ", " R(1) ", #4\n"
                     : "+r"(n) : "r"(a) : "memory");
    return n;
}

/* Then adds 4 after the undefined instruction. */
__attribute__((noinline)) static long udf_after_adds(void)
{
    register long n asm(R(1)) = 0;
    __asm__ volatile("add " ADDS ".globl udf_insn\nudf_insn: " UDF "\n"
                     "add " R(1) ", " R(1) ", #4\n" : "+r"(n));
    return n;
}

__attribute__((noinline)) static void store_case(void)
{
    page = mmap(NULL, pagesize, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    long n = store_after_adds((uintptr_t)page);
    printf("store: signal %d code %d at %s, address %s; counter %ld, stored %ld\n", seen_sig,
           seen_code, where((uintptr_t)store_insn),
           seen_addr == (uintptr_t)page ? "the page" : "elsewhere", n, *(long *)page);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "load";
    pagesize = sysconf(_SC_PAGESIZE);
    struct sigaction sa = {.sa_sigaction = on_fault, .sa_flags = SA_SIGINFO | SA_NODEFER};
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGILL, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    if (!strcmp(mode, "load")) {
        if (!sigsetjmp(env, 1))
            load_after_adds(0x10);
        printf("load: signal %d code %d at %s, address %#lx\n", seen_sig, seen_code,
               where((uintptr_t)load_insn), (unsigned long)seen_addr);
    } else if (!strcmp(mode, "store")) {
        store_case();
    } else if (!strcmp(mode, "udf")) {
        long n = udf_after_adds();
        printf("udf: signal %d code %d at %s; counter %ld\n", seen_sig, seen_code,
               where((uintptr_t)udf_insn), n);
    } else if (!strcmp(mode, "windows")) {
        for (int i = 0; i < 600; i++) {
            char *p = mmap(NULL, 2 * pagesize, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED || mprotect(p + pagesize, pagesize, PROT_NONE)) {
                perror("mmap");
                return 1;
            }
            p[0] = 1;
        }
        store_case();
    } else if (!strcmp(mode, "bus")) {
        char path[] = "/tmp/faultpc.XXXXXX";
        int fd = mkstemp(path);
        if (fd < 0 || ftruncate(fd, 16) < 0) {
            perror("file");
            return 1;
        }
        char *p = mmap(NULL, 2 * pagesize, PROT_READ, MAP_SHARED, fd, 0);
        unlink(path);
        if (!sigsetjmp(env, 1))
            load_after_adds((uintptr_t)(p + pagesize));
        printf("bus: signal %d code %d at %s, address %s\n", seen_sig, seen_code,
               where((uintptr_t)load_insn),
               seen_addr == (uintptr_t)(p + pagesize) ? "the page past the end" : "elsewhere");
    } else {
        fprintf(stderr, "faultpc: unknown mode %s\n", mode);
        return 2;
    }
    return 0;
}
