/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ptrace-regs.c - issue 24 item 2: the status register a tracer writes
 * (CPSR of a 32-bit tracee, PSTATE of a 64-bit one) is checked as Linux's
 * valid_user_regs (arch/arm64/kernel/ptrace.c) does: bits RES0 at EL0
 * cleared, another mode or execution state, or a masked exception, refused
 * with EINVAL and nothing written. Modes:
 *   status PROG    a TRACEME child execs PROG (this program's "idle" mode,
 *                  of either ISA); at its exec stop the tracer writes status
 *                  values through PTRACE_SETREGSET (and, a 32-bit tracer of a
 *                  32-bit tracee, PTRACE_SETREGS and PTRACE_POKEUSER), prints
 *                  the errno and the value read back, and lets it run to
 *                  its end with every bit it may set that changes nothing
 *   zerostep PROG  the tracee's registers zeroed, a single-step (its fault at
 *                  pc 0), then a continue with the status all ones (refused)
 *   idle           exits 0 (the traced program)
 * Output names no pid or address, so it is the same on every run. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define REQ_GETREGS 12 /* arm's PTRACE_GETREGS and PTRACE_SETREGS */
#define REQ_SETREGS 13

typedef union {
    uint64_t x[34]; /* x0-x30, sp, pc, pstate */
    uint32_t r[18]; /* r0-r15, cpsr, orig_r0 */
} regs_t;

static const char *err_name(int e)
{
    switch (e) {
    case 0:
        return "0";
    case EIO:
        return "EIO";
    case EINVAL:
        return "EINVAL";
    case EFAULT:
        return "EFAULT";
    default:
        return strerror(e);
    }
}

static long pt(long req, pid_t pid, long addr, void *data)
{
    errno = 0;
    return ptrace((enum __ptrace_request)req, pid, (void *)addr, data);
}

static void show_status(const char *what, int st)
{
    if (WIFEXITED(st))
        printf("%s: exited %d\n", what, WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        printf("%s: killed by %d\n", what, WTERMSIG(st));
    else if (WIFSTOPPED(st))
        printf("%s: stopped by %d\n", what, WSTOPSIG(st));
}

/* The tracee's general registers; its ISA from the set's size. */
static int get_regs(pid_t pid, regs_t *r)
{
    struct iovec iov = {r, sizeof *r};
    memset(r, 0, sizeof *r);
    if (pt(PTRACE_GETREGSET, pid, NT_PRSTATUS, &iov) < 0) {
        printf("GETREGSET: %s\n", err_name(errno));
        exit(1);
    }
    return iov.iov_len == 272;
}

static uint64_t status_of(const regs_t *r, int a64)
{
    return a64 ? r->x[33] : r->r[16];
}

static void put_status(regs_t *r, int a64, uint64_t v)
{
    if (a64)
        r->x[33] = v;
    else
        r->r[16] = (uint32_t)v;
}

static uint64_t r0_of(const regs_t *r, int a64)
{
    return a64 ? r->x[0] : r->r[0];
}

/* The tracee's registers as they were, put back after each write. */
static regs_t orig;

static void restore(pid_t pid, int a64)
{
    struct iovec iov = {&orig, a64 ? 272 : 72};
    if (pt(PTRACE_SETREGSET, pid, NT_PRSTATUS, &iov) < 0) {
        printf("restore: %s\n", err_name(errno));
        exit(1);
    }
}

/* "ROUTE VALUE: ERRNO, reads back STATUS, r0 written|kept": r0 changes in
 * the same write, so a refused write shows that nothing of it was kept. */
static void report(pid_t pid, int a64, const char *route, uint64_t v, long ret)
{
    int e = ret < 0 ? errno : 0;
    regs_t now;
    get_regs(pid, &now);
    printf("%s %#llx: %s, reads back %#llx, r0 %s\n", route, (unsigned long long)v, err_name(e),
           (unsigned long long)status_of(&now, a64),
           r0_of(&now, a64) == 0x1234 ? "written" : r0_of(&now, a64) == r0_of(&orig, a64) ? "kept" : "?");
    restore(pid, a64);
}

static void via_setregset(pid_t pid, int a64, uint64_t v)
{
    regs_t r = orig;
    if (a64)
        r.x[0] = 0x1234;
    else
        r.r[0] = 0x1234;
    put_status(&r, a64, v);
    struct iovec iov = {&r, a64 ? 272 : 72};
    report(pid, a64, "SETREGSET", v, pt(PTRACE_SETREGSET, pid, NT_PRSTATUS, &iov));
}

static const uint64_t a32_values[] = {
    0x00000000, /* mode 0: Unicorn aborted the host on it */
    0x00000013, /* svc */
    0x000001d3, /* svc, A, I, F */
    0x0000001f, /* sys */
    0x0000001a, /* hyp */
    0x00000090, /* usr with I */
    0x00000110, /* usr with A */
    0x00000050, /* usr with F */
    0xffffffff,
    0xf8000010, /* NZCVQ */
    0x000f0010, /* GE */
    0x00000030, /* Thumb */
    0x00500210, /* PAN and bit 20 (RES0), E (no mixed-endian EL0): cleared */
    0x00200010, /* DIT */
    0x01000010, /* bit 24: DIT in the SPSR the compat CPSR becomes */
    0x00800010, /* SSBS */
};

static const uint64_t a64_values[] = {
    0x0000000000000000, 0x00000000f0000000, /* NZCV */
    0x0000000000000004, /* EL1t */
    0x0000000000000005, /* EL1h */
    0x000000000000000d, /* EL3h */
    0x0000000000000010, /* nRW: AArch32 */
    0x0000000000000200, /* D */
    0x0000000000000080, /* I */
    0x00000000000003c0, /* DAIF */
    0xffffffffffffffff,
    0xffffffff00000000, /* the upper half: RES0, cleared */
    0x0000000000400020, /* PAN, bit 5: RES0 */
    0x000000000c1fe000, /* bits 27:26, 20:13: RES0 */
    0x0000000000200000, /* SS: follows the single-step flag */
    0x0000000000001000, /* SSBS */
    0x0000000001000000, /* DIT */
    0x0000000000000c00, /* BTYPE */
};

/* The length of a SETREGSET or GETREGSET: a whole number of registers. */
static void lengths(pid_t pid, int a64)
{
    regs_t r = orig;
    size_t bad = a64 ? 270 : 70, part = a64 ? 264 : 64, over = a64 ? 280 : 76;
    struct iovec iov = {&r, bad};
    long ret = pt(PTRACE_GETREGSET, pid, NT_PRSTATUS, &iov);
    printf("GETREGSET of %zu bytes: %s\n", bad, ret < 0 ? err_name(errno) : "0");
    ret = pt(PTRACE_SETREGSET, pid, NT_PRSTATUS, &iov);
    printf("SETREGSET of %zu bytes: %s\n", bad, ret < 0 ? err_name(errno) : "0");
    iov.iov_len = part; /* no status register: checked as it is */
    ret = pt(PTRACE_SETREGSET, pid, NT_PRSTATUS, &iov);
    printf("SETREGSET of %zu bytes: %s, iov_len %zu\n", part, ret < 0 ? err_name(errno) : "0",
           iov.iov_len);
    iov.iov_len = over; /* cut to the set */
    ret = pt(PTRACE_SETREGSET, pid, NT_PRSTATUS, &iov);
    printf("SETREGSET of %zu bytes: %s, iov_len %zu\n", over, ret < 0 ? err_name(errno) : "0",
           iov.iov_len);
    restore(pid, a64);
}

#ifdef __arm__
/* A 32-bit tracer's own requests: SETREGS and POKEUSER of CPSR (offset 64). */
static void arm_requests(pid_t pid)
{
    const uint32_t values[] = {0x00000000, 0x00000013, 0x00000090, 0x80000010, 0x00100010};
    for (unsigned i = 0; i < sizeof values / sizeof *values; i++) {
        regs_t r = orig;
        r.r[0] = 0x1234;
        r.r[16] = values[i];
        report(pid, 0, "SETREGS", values[i], pt(REQ_SETREGS, pid, 0, r.r));
    }
    for (unsigned i = 0; i < sizeof values / sizeof *values; i++) {
        long ret = pt(PTRACE_POKEUSER, pid, 64, (void *)(uintptr_t)values[i]);
        int e = ret < 0 ? errno : 0;
        long back = pt(PTRACE_PEEKUSER, pid, 64, 0);
        printf("POKEUSER cpsr %#x: %s, PEEKUSER %#lx\n", values[i], err_name(e), back);
        restore(pid, 0);
    }
    const long offsets[] = {0, 68, 72, 292, 296, 66};
    for (unsigned i = 0; i < sizeof offsets / sizeof *offsets; i++) {
        long ret = pt(PTRACE_POKEUSER, pid, offsets[i], (void *)0x1234);
        int e = ret < 0 ? errno : 0;
        regs_t now;
        get_regs(pid, &now);
        printf("POKEUSER at %ld: %s, r0 %s\n", offsets[i], err_name(e),
               now.r[0] == 0x1234 ? "written" : now.r[0] == orig.r[0] ? "kept" : "?");
        restore(pid, 0);
    }
    regs_t r;
    printf("GETREGS: %s\n", pt(REQ_GETREGS, pid, 0, r.r) < 0 ? err_name(errno) : "0");
}
#endif

static pid_t traced_exec(const char *prog)
{
    pid_t pid = fork();
    if (pid == 0) {
        pt(PTRACE_TRACEME, 0, 0, 0);
        execl(prog, prog, "idle", (char *)NULL);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    show_status("after exec", st);
    return pid;
}

static int mode_status(const char *prog)
{
    pid_t pid = traced_exec(prog);
    int a64 = get_regs(pid, &orig);
    printf("tracee: %s, status %#llx\n", a64 ? "aarch64" : "aarch32",
           (unsigned long long)status_of(&orig, a64));
    const uint64_t *v = a64 ? a64_values : a32_values;
    unsigned n = a64 ? sizeof a64_values / sizeof *v : sizeof a32_values / sizeof *v;
    for (unsigned i = 0; i < n; i++)
        via_setregset(pid, a64, v[i]);
    lengths(pid, a64);
#ifdef __arm__
    if (!a64)
        arm_requests(pid);
#endif
    /* The tracee runs to its end with every bit a tracer may set that does
     * not change how its code runs (flags, DIT, SSBS; AArch64's TCO and
     * BTYPE, which the vCPUs do not implement). */
    regs_t r = orig;
    uint64_t all = a64 ? status_of(&orig, 1) | 0xf3001c00u : status_of(&orig, 0) | 0xf8af0000u;
    put_status(&r, a64, all);
    struct iovec iov = {&r, a64 ? 272 : 72};
    long ret = pt(PTRACE_SETREGSET, pid, NT_PRSTATUS, &iov);
    printf("SETREGSET %#llx to run with: %s\n", (unsigned long long)all, ret < 0 ? err_name(errno) : "0");
    pt(PTRACE_CONT, pid, 0, 0);
    int st;
    waitpid(pid, &st, 0);
    show_status("tracee", st);
    return 0;
}

/* Issue 24 item 4's tracer: zeroed registers, a step, a continue with the
 * status all ones. */
static int mode_zerostep(const char *prog)
{
    pid_t pid = traced_exec(prog);
    int a64 = get_regs(pid, &orig);
    regs_t r;
    memset(&r, 0, sizeof r);
    if (!a64)
        r.r[16] = 0x10; /* usr: 0 is no mode at all (EINVAL) */
    struct iovec iov = {&r, a64 ? 272 : 72};
    long ret = pt(PTRACE_SETREGSET, pid, NT_PRSTATUS, &iov);
    printf("zeroed: %s\n", ret < 0 ? err_name(errno) : "0");
    pt(PTRACE_SINGLESTEP, pid, 0, 0);
    int st;
    waitpid(pid, &st, 0);
    show_status("step", st);
    put_status(&r, a64, a64 ? ~UINT64_C(0) : 0xffffffff);
    ret = pt(PTRACE_SETREGSET, pid, NT_PRSTATUS, &iov);
    printf("status all ones: %s\n", ret < 0 ? err_name(errno) : "0");
    pt(PTRACE_CONT, pid, 0, 0);
    waitpid(pid, &st, 0);
    show_status("continued", st);
    pt(PTRACE_CONT, pid, 0, (void *)(long)SIGSEGV);
    waitpid(pid, &st, 0);
    show_status("tracee", st);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "idle"))
        return 0;
    if (!strcmp(mode, "status") && argc > 2)
        return mode_status(argv[2]);
    if (!strcmp(mode, "zerostep") && argc > 2)
        return mode_zerostep(argv[2]);
    fprintf(stderr, "usage: ptrace-regs status|zerostep PROG | idle\n");
    return 2;
}
