/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysreg.c - the system registers EL0 reads and the cache maintenance it
 * does (docs/processes.md, "EL0 system registers and cache maintenance").
 * One case per run:
 *   regs     the values of the registers EL0 reads or Linux emulates
 *   midr     MIDR_EL1 on each vCPU (after sched_setaffinity) next to sysfs
 *   counter  CNTVCT against CLOCK_MONOTONIC, and across a 10 ms sleep
 *   sigill   registers EL0 may not touch: SIGILL with ILL_ILLOPC
 *   zva      DC ZVA zeroes its 64-byte block and nothing around; DC/IC ops
 *   jit      code written, flushed, run, rewritten, flushed, run again
 *   cacheflush  arm's cacheflush syscall: its errors */
#define _GNU_SOURCE
#include "guest.h"

#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>

static sigjmp_buf trap_env;
static volatile int trap_sig, trap_code;

static void on_trap(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    trap_sig = sig, trap_code = si->si_code;
    siglongjmp(trap_env, 1);
}

static void catch_traps(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_trap;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGILL, &sa, NULL);
    sigaction(SIGSEGV, &sa, NULL);
}

static const char *trap_name(void)
{
    if (trap_sig == SIGILL)
        return trap_code == ILL_ILLOPC ? "SIGILL ILL_ILLOPC" : "SIGILL (other code)";
    return trap_sig == SIGSEGV ? "SIGSEGV" : "?";
}

/* Runs STMT; prints NAME and "ok" or the signal it raised. */
#define TRY(name, stmt)                                                                           \
    do {                                                                                          \
        trap_sig = 0;                                                                             \
        if (!sigsetjmp(trap_env, 1)) {                                                            \
            stmt;                                                                                 \
            printf("%s: ok\n", name);                                                             \
        } else {                                                                                  \
            printf("%s: %s\n", name, trap_name());                                                \
        }                                                                                         \
    } while (0)

#ifdef __aarch64__
#define MRS(reg)                                                                                  \
    ({                                                                                            \
        uint64_t v_;                                                                              \
        __asm__ volatile("mrs %0, " #reg : "=r"(v_));                                             \
        v_;                                                                                       \
    })
static uint64_t counter(void) { return MRS(cntvct_el0); }
static uint64_t counter_hz(void) { return MRS(cntfrq_el0); }
#else
static uint64_t counter(void)
{
    uint32_t lo, hi;
    __asm__ volatile("mrrc p15, 1, %0, %1, c14" : "=r"(lo), "=r"(hi));
    return (uint64_t)hi << 32 | lo;
}
static uint64_t counter_hz(void)
{
    uint32_t v;
    __asm__ volatile("mrc p15, 0, %0, c14, c0, 0" : "=r"(v));
    return v;
}
#endif

static void regs(void)
{
#ifdef __aarch64__
    printf("CTR_EL0 0x%lx\n", MRS(ctr_el0));
    printf("DCZID_EL0 0x%lx\n", MRS(dczid_el0));
    printf("CNTFRQ_EL0 %lu\n", MRS(cntfrq_el0));
    printf("MPIDR_EL1 0x%lx\n", MRS(mpidr_el1));
    printf("REVIDR_EL1 0x%lx\n", MRS(revidr_el1));
    printf("ID_AA64PFR1_EL1 0x%lx\n", MRS(id_aa64pfr1_el1));
    printf("ID_AA64ZFR0_EL1 0x%lx\n", MRS(s3_0_c0_c4_4));
    printf("ID_AA64DFR0_EL1 0x%lx\n", MRS(id_aa64dfr0_el1));
    printf("ID_AA64DFR1_EL1 0x%lx\n", MRS(id_aa64dfr1_el1));
    printf("ID_AA64ISAR0_EL1 0x%lx\n", MRS(id_aa64isar0_el1));
    printf("ID_AA64ISAR1_EL1 0x%lx\n", MRS(id_aa64isar1_el1));
    printf("ID_AA64MMFR0_EL1 0x%lx\n", MRS(id_aa64mmfr0_el1));
    printf("ID_AA64MMFR1_EL1 0x%lx\n", MRS(id_aa64mmfr1_el1));
    printf("ID_AA64MMFR2_EL1 0x%lx\n", MRS(s3_0_c0_c7_2));
    printf("unallocated S3_0_C0_C7_7 0x%lx\n", MRS(s3_0_c0_c7_7));
    uint64_t old = MRS(tpidr_el0), mine = 0x1234567890abcdefu;
    /* glibc's thread pointer: put back before anything uses TLS again. */
    __asm__ volatile("msr tpidr_el0, %0" ::"r"(mine));
    uint64_t read_back = MRS(tpidr_el0);
    __asm__ volatile("msr tpidr_el0, %0" ::"r"(old));
    printf("TPIDR_EL0 after writing it 0x%lx\n", read_back);
    printf("TPIDRRO_EL0 0x%lx\n", MRS(tpidrro_el0));
#else
    uint32_t ctr;
    __asm__ volatile("mrc p15, 0, %0, c0, c0, 1" : "=r"(ctr));
    printf("CTR 0x%x\n", ctr);
    printf("CNTFRQ %llu\n", (unsigned long long)counter_hz());
    uint32_t tls, glibc_tls = (uint32_t)(uintptr_t)__builtin_thread_pointer();
    __asm__ volatile("mrc p15, 0, %0, c13, c0, 3" : "=r"(tls));
    printf("TPIDRURO is the thread pointer: %s\n", tls == glibc_tls ? "yes" : "no");
#endif
}

/* The vCPU's MIDR_EL1 by MRS next to its sysfs midr_el1, on every vCPU. */
static void midr(void)
{
#ifdef __aarch64__
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    for (long cpu = 0; cpu < ncpu; cpu++) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0 || sched_getcpu() != cpu) {
            printf("cpu%ld: cannot run there\n", cpu);
            continue;
        }
        char path[96], sysfs[32] = "";
        snprintf(path, sizeof path,
                 "/sys/devices/system/cpu/cpu%ld/regs/identification/midr_el1", cpu);
        FILE *f = fopen(path, "r");
        if (!f || !fgets(sysfs, sizeof sysfs, f))
            strcpy(sysfs, "unreadable\n");
        if (f)
            fclose(f);
        uint64_t mrs = MRS(midr_el1);
        printf("cpu%ld: mrs 0x%016lx sysfs %s", cpu, mrs, sysfs);
        printf("cpu%ld: ID_AA64PFR0_EL1 0x%lx\n", cpu, MRS(id_aa64pfr0_el1));
    }
#endif
}

static void counter_case(void)
{
    uint64_t hz = counter_hz(), ns_per_tick = 1000000000u / hz;
    long long t0 = now_ns(CLOCK_MONOTONIC);
    uint64_t c = counter();
    long long t1 = now_ns(CLOCK_MONOTONIC);
    printf("counter between two CLOCK_MONOTONIC reads: %s\n",
           (long long)(c * ns_per_tick) >= t0 - (long long)ns_per_tick &&
                   (long long)(c * ns_per_tick) <= t1
               ? "yes"
               : "no");
    struct timespec ten_ms = {0, 10 * MS};
    uint64_t before = counter();
    nanosleep(&ten_ms, NULL);
    uint64_t ticks = counter() - before;
    printf("ticks across a 10 ms sleep: at least %llu: %s, whole ms: %llu\n",
           (unsigned long long)(hz / 100), ticks >= hz / 100 ? "yes" : "no",
           (unsigned long long)(ticks * 1000 / hz));
}

static void sigill(void)
{
    catch_traps();
#ifdef __aarch64__
    uint64_t v = 0;
    TRY("mrs sctlr_el1", __asm__ volatile("mrs %0, sctlr_el1" : "=r"(v)));
    TRY("mrs currentel", __asm__ volatile("mrs %0, currentel" : "=r"(v)));
    TRY("mrs cntpct_el0", __asm__ volatile("mrs %0, cntpct_el0" : "=r"(v)));
    TRY("mrs ccsidr_el1", __asm__ volatile("mrs %0, ccsidr_el1" : "=r"(v)));
    TRY("mrs id_pfr0_el1", __asm__ volatile("mrs %0, id_pfr0_el1" : "=r"(v)));
    TRY("mrs daif", __asm__ volatile("mrs %0, daif" : "=r"(v)));
    TRY("msr sctlr_el1", __asm__ volatile("msr sctlr_el1, %0" ::"r"(v)));
    TRY("msr cntv_ctl_el0", __asm__ volatile("msr cntv_ctl_el0, %0" ::"r"(v)));
    TRY("dc ivac", __asm__ volatile("dc ivac, %0" ::"r"(&v) : "memory"));
#else
    uint32_t v = 0, hi;
    TRY("mrc midr", __asm__ volatile("mrc p15, 0, %0, c0, c0, 0" : "=r"(v)));
    TRY("mrc sctlr", __asm__ volatile("mrc p15, 0, %0, c1, c0, 0" : "=r"(v)));
    TRY("mrrc cntpct", __asm__ volatile("mrrc p15, 0, %0, %1, c14" : "=r"(v), "=r"(hi)));
#endif
    (void)v;
}

static void zva(void)
{
#ifdef __aarch64__
    catch_traps();
    static unsigned char buf[256] __attribute__((aligned(64)));
    memset(buf, 0xaa, sizeof buf);
    __asm__ volatile("dc zva, %0" ::"r"(buf + 64 + 17) : "memory");
    int first = -1, zeros = 0;
    for (int i = 0; i < (int)sizeof buf; i++)
        if (buf[i] == 0) {
            zeros++;
            if (first < 0)
                first = i;
        }
    printf("dc zva zeroed %d bytes from offset %d\n", zeros, first);
    TRY("dc cvau", __asm__ volatile("dc cvau, %0" ::"r"(buf) : "memory"));
    TRY("dc cvac", __asm__ volatile("dc cvac, %0" ::"r"(buf) : "memory"));
    TRY("dc civac", __asm__ volatile("dc civac, %0" ::"r"(buf) : "memory"));
    TRY("ic ivau", __asm__ volatile("ic ivau, %0" ::"r"(buf) : "memory"));
    unsigned char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    TRY("dc zva on a read-only page", __asm__ volatile("dc zva, %0" ::"r"(ro) : "memory"));
#endif
}

#ifdef __aarch64__
static const uint32_t return_1[] = {0x52800020, 0xd65f03c0}; /* mov w0, #1; ret */
static const uint32_t return_2[] = {0x52800040, 0xd65f03c0}; /* mov w0, #2; ret */
#else
static const uint32_t return_1[] = {0xe3a00001, 0xe12fff1e}; /* mov r0, #1; bx lr */
static const uint32_t return_2[] = {0xe3a00002, 0xe12fff1e}; /* mov r0, #2; bx lr */
#endif

/* Writes code at p and makes the instruction side see it, as a JIT does
 * (arm64: DC CVAU and IC IVAU by line; arm: the cacheflush syscall). */
static int (*emit(void *p, const uint32_t code[2]))(void)
{
    memcpy(p, code, 2 * sizeof code[0]);
    __builtin___clear_cache((char *)p, (char *)p + 2 * sizeof code[0]);
    return (int (*)(void))p;
}

static void jit(void)
{
    /* One RWX page: the same code address rewritten in place. Eight bytes
     * in, so that the code does not start its cache line. */
    char *rwx = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("rwx: %d", emit(rwx + 8, return_1)());
    printf(" then %d\n", emit(rwx + 8, return_2)());
    /* W^X: written while RW, run while RX. */
    char *wx = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    emit(wx + 8, return_1);
    mprotect(wx, 4096, PROT_READ | PROT_EXEC);
    printf("w^x: %d", ((int (*)(void))(wx + 8))());
    mprotect(wx, 4096, PROT_READ | PROT_WRITE);
    emit(wx + 8, return_2);
    mprotect(wx, 4096, PROT_READ | PROT_EXEC);
    printf(" then %d\n", ((int (*)(void))(wx + 8))());
    /* Written while RW (so the TLB already holds the page for writing),
     * then made RWX and rewritten in place: the second write must still be
     * seen. A Unicorn that marks only executable pages for self-modifying
     * code checks (upstream PR #2337) missed it until PR #2414. */
    char *late = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    emit(late + 8, return_1);
    mprotect(late, 4096, PROT_READ | PROT_WRITE | PROT_EXEC);
    printf("rw then rwx: %d", ((int (*)(void))(late + 8))());
    printf(" then %d\n", emit(late + 8, return_2)());
    /* Two mappings of one memfd, as libffi's closures: written through the
     * writable one, flushed there, run through the executable one. */
    int fd = memfd_create("jit", MFD_CLOEXEC);
    ftruncate(fd, 4096);
    char *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int (*x)(void) = (int (*)(void))(mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0) + 8);
    emit(w + 8, return_1);
    printf("alias: %d", x());
    emit(w + 8, return_2);
    printf(" then %d\n", x());
}

static void cacheflush(void)
{
#ifndef __aarch64__
    char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(p + 4096, 4096);
    struct {
        const char *what;
        char *start, *end;
        long flags;
    } cases[] = {
        {"a mapped page", p, p + 4096, 0},
        {"an empty range", p, p, 0},
        {"flags 1", p, p + 4096, 1},
        {"end before start", p + 64, p, 0},
        {"into an unmapped page", p, p + 8192, 0},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        long r = syscall(0xf0002, cases[i].start, cases[i].end, cases[i].flags);
        printf("cacheflush %s: %ld %s\n", cases[i].what, r, r ? err_name(errno) : "ok");
    }
#endif
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    static const struct {
        const char *name;
        void (*fn)(void);
    } cases[] = {
        {"regs", regs}, {"midr", midr}, {"counter", counter_case}, {"sigill", sigill},
        {"zva", zva},   {"jit", jit},   {"cacheflush", cacheflush},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(what, cases[i].name)) {
            cases[i].fn();
            return 0;
        }
    fprintf(stderr, "usage: sysreg regs|midr|counter|sigill|zva|jit|cacheflush\n");
    return 2;
}
