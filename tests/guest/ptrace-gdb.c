/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ptrace-gdb.c - the parts of guest ptrace(2) a debugger (Debian's gdb)
 * needs, as a tracer sees them. Modes:
 *   step       PTRACE_SINGLESTEP over two nops (SIGTRAP, TRAP_TRACE, si_addr
 *              the next pc, one instruction further) and over an svc
 *              (SIGTRAP SI_USER once the call returned)
 *   brk        the breakpoint instruction (BRK #0; arm's undefined 0xe7f001f0
 *              or Thumb 0xde01 and 0xf7f0a000): SIGTRAP TRAP_BRKPT with the
 *              pc on it; an untraced one dies of SIGTRAP
 *   hwdebug    NT_ARM_HW_BREAK/WATCH (a 64-bit tracer) or GETHBPREGS (a
 *              32-bit one): debug architecture 6, no slots
 *   procmem    /proc/PID/mem: read a variable, write a string in read-only
 *              memory, plant a breakpoint in code that already ran, EIO
 *              where nothing is mapped, lseek
 *   signals    PEEKSIGINFO of both queues, GETSIGMASK/SETSIGMASK, an ignored
 *              signal stopping its tracee, PTRACE_EVENT_EXIT before a death
 *              by SIGSEGV
 *   blocked    a SIGTERM sent to a tracee blocked in read() stops it for its
 *              tracer instead of killing it; suppressed, the read goes on
 * Output names no pid or address, so it is the same on every run. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef NT_ARM_HW_BREAK
#define NT_ARM_HW_BREAK 0x402
#define NT_ARM_HW_WATCH 0x403
#endif
#define REQ_GETHBPREGS 29
#define REQ_PEEKSIGINFO 0x4209
#define REQ_GETSIGMASK 0x420a
#define REQ_SETSIGMASK 0x420b

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
    case ENOSPC:
        return "ENOSPC";
    default:
        return strerror(e);
    }
}

static long pt(long req, pid_t pid, void *addr, void *data)
{
    errno = 0;
    return ptrace((enum __ptrace_request)req, pid, addr, data);
}

#define PT(req, pid, addr, data) pt(req, pid, (void *)(uintptr_t)(addr), (void *)(uintptr_t)(data))

/* The general registers, in the tracee's (this program's) layout. */
#ifdef __aarch64__
typedef struct {
    uint64_t x[31], sp, pc, pstate;
} regs_t;
#define PC(r) ((r).pc)
#define RET(r) ((r).x[0])
#else
typedef struct {
    uint32_t w[18];
} regs_t;
#define PC(r) ((r).w[15])
#define RET(r) ((r).w[0])
#endif

static regs_t get_regs(pid_t pid)
{
    regs_t r;
    struct iovec iov = {&r, sizeof r};
    if (PT(PTRACE_GETREGSET, pid, NT_PRSTATUS, &iov) < 0) {
        printf("GETREGSET: %s\n", err_name(errno));
        exit(1);
    }
    return r;
}

static void set_regs(pid_t pid, regs_t *r)
{
    struct iovec iov = {r, sizeof *r};
    if (PT(PTRACE_SETREGSET, pid, NT_PRSTATUS, &iov) < 0) {
        printf("SETREGSET: %s\n", err_name(errno));
        exit(1);
    }
}

static int wait_for(pid_t pid)
{
    int st;
    if (waitpid(pid, &st, __WALL) != pid) {
        printf("waitpid: %s\n", err_name(errno));
        exit(1);
    }
    return st;
}

static void show_status(const char *what, int st)
{
    if (WIFEXITED(st))
        printf("%s: exited %d\n", what, WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        printf("%s: killed by %d%s\n", what, WTERMSIG(st), WCOREDUMP(st) ? " (core)" : "");
    else if (WIFSTOPPED(st))
        printf("%s: stopped %#x (sig %d, event %d)\n", what, st, WSTOPSIG(st), st >> 16);
}

static siginfo_t get_siginfo(pid_t pid)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    if (PT(PTRACE_GETSIGINFO, pid, 0, &si) < 0)
        printf("GETSIGINFO: %s\n", err_name(errno));
    return si;
}

/* A child that is traced and stopped by its SIGSTOP before it runs fn. */
static pid_t traced_child(void (*fn)(void))
{
    pid_t pid = fork();
    if (pid == 0) {
        ptrace(PTRACE_TRACEME, 0, NULL, NULL);
        raise(SIGSTOP);
        fn();
        _exit(0);
    }
    int st = wait_for(pid);
    if (!WIFSTOPPED(st) || WSTOPSIG(st) != SIGSTOP) {
        show_status("first stop", st);
        exit(1);
    }
    return pid;
}

static void finish(pid_t pid, const char *what)
{
    PT(PTRACE_CONT, pid, 0, 0);
    show_status(what, wait_for(pid));
}

/* ---- step ---- */

/* Stops itself with a raw kill (so the pc is known to be right after its
 * svc), then two nops and a getpid svc. */
static void step_body(void)
{
    long pid = getpid();
#ifdef __aarch64__
    register long x0 __asm__("x0") = pid;
    register long x1 __asm__("x1") = SIGSTOP;
    register long x8 __asm__("x8") = SYS_kill;
    __asm__ volatile("svc #0\n\tnop\n\tnop\n\tmov x8, %[gp]\n\tsvc #0\n\tnop"
                     : "+r"(x0)
                     : "r"(x1), "r"(x8), [gp] "i"(SYS_getpid)
                     : "memory");
#else
    register long r0 __asm__("r0") = pid;
    register long r1 __asm__("r1") = SIGSTOP;
    register long r7 __asm__("r7") = SYS_kill;
    __asm__ volatile("svc #0\n\tnop\n\tnop\n\tmov r7, %[gp]\n\tsvc #0\n\tnop"
                     : "+r"(r0), "+r"(r7)
                     : "r"(r1), [gp] "i"(SYS_getpid)
                     : "memory");
#endif
}

static void step_child(void)
{
    step_body();
}

#if defined(__thumb__)
#define INSN 2 /* the nops and svc are 16-bit Thumb instructions */
#else
#define INSN 4
#endif

static void mode_step(void)
{
    pid_t pid = traced_child(step_child);
    /* The raw kill's SIGSTOP: a second signal-delivery-stop, after its svc. */
    PT(PTRACE_CONT, pid, 0, 0);
    int st = wait_for(pid);
    show_status("raw SIGSTOP", st);
    uint64_t pc = PC(get_regs(pid));
    const char *what[] = {"nop", "nop", "mov"};
    for (int i = 0; i < 3; i++) {
        long r = PT(PTRACE_SINGLESTEP, pid, 0, 0);
        st = wait_for(pid);
        regs_t regs = get_regs(pid);
        siginfo_t si = get_siginfo(pid);
        printf("step over %s: %ld, ", what[i], r);
        show_status("tracee", st);
        printf("  si_code %d, si_addr is the pc: %s, pc advanced %ld\n", si.si_code,
               (uint64_t)(uintptr_t)si.si_addr == PC(regs) ? "yes" : "no",
               (long)(PC(regs) - pc));
        pc = PC(regs);
    }
    PT(PTRACE_SINGLESTEP, pid, 0, 0);
    st = wait_for(pid);
    regs_t regs = get_regs(pid);
    siginfo_t si = get_siginfo(pid);
    show_status("step over svc (getpid)", st);
    printf("  si_code %d, pc advanced %ld, returned the pid: %s\n", si.si_code,
           (long)(PC(regs) - pc), (pid_t)RET(regs) == pid ? "yes" : "no");
    finish(pid, "tracee");
}

/* ---- brk ---- */

static void brk_insn(void)
{
#ifdef __aarch64__
    __asm__ volatile("brk #0");
#elif defined(__thumb__)
    __asm__ volatile(".inst.n 0xde01");
#else
    __asm__ volatile(".inst 0xe7f001f0");
#endif
}

#ifdef __thumb__
static void brk_insn_t32(void)
{
    __asm__ volatile(".inst.n 0xf7f0\n\t.inst.n 0xa000");
}
#endif

static void brk_child(void)
{
    brk_insn();
#ifdef __thumb__
    brk_insn_t32();
#endif
}

/* The tracee stopped on a breakpoint instruction of `size` bytes: report,
 * then step its pc over it. */
static void report_brk(pid_t pid, const char *what, unsigned size)
{
    int st = wait_for(pid);
    show_status(what, st);
    regs_t regs = get_regs(pid);
    siginfo_t si = get_siginfo(pid);
    uint32_t insn = 0;
    errno = 0;
    long word = ptrace(PTRACE_PEEKTEXT, pid, (void *)(uintptr_t)(PC(regs) & ~(uint64_t)1), NULL);
    memcpy(&insn, &word, size);
    printf("  si_code %d, si_addr is the pc: %s, instruction at the pc %#x\n", si.si_code,
           (uint64_t)(uintptr_t)si.si_addr == (PC(regs) & ~(uint64_t)1) ? "yes" : "no",
           size == 2 ? insn & 0xffff : insn);
    PC(regs) += size;
    set_regs(pid, &regs);
}

static void mode_brk(void)
{
    pid_t pid = traced_child(brk_child);
    PT(PTRACE_CONT, pid, 0, 0);
#ifdef __aarch64__
    report_brk(pid, "BRK #0", 4);
#elif defined(__thumb__)
    report_brk(pid, "Thumb 0xde01", 2);
    PT(PTRACE_CONT, pid, 0, 0);
    report_brk(pid, "Thumb-2 0xf7f0a000", 4);
#else
    report_brk(pid, "ARM 0xe7f001f0", 4);
#endif
    finish(pid, "tracee");
    /* Nobody traces it: the default action of SIGTRAP. */
    pid = fork();
    if (pid == 0) {
        brk_insn();
        _exit(0);
    }
    show_status("untraced", wait_for(pid));
}

/* ---- hwdebug ---- */

static void idle_child(void) {}

static void mode_hwdebug(void)
{
    pid_t pid = traced_child(idle_child);
    struct {
        uint32_t info, pad;
        struct {
            uint64_t addr;
            uint32_t ctrl, pad;
        } regs[16];
    } dbg;
    const struct {
        const char *name;
        long type;
    } sets[] = {{"NT_ARM_HW_BREAK", NT_ARM_HW_BREAK}, {"NT_ARM_HW_WATCH", NT_ARM_HW_WATCH}};
    for (int i = 0; i < 2; i++) {
        memset(&dbg, 0xff, sizeof dbg);
        struct iovec iov = {&dbg, sizeof dbg};
        long r = PT(PTRACE_GETREGSET, pid, sets[i].type, &iov);
        printf("GETREGSET %s: %s", sets[i].name, r < 0 ? err_name(errno) : "0");
        if (r == 0)
            printf(", %zu bytes, dbg_info %#x, slot 0 addr %#llx", iov.iov_len, dbg.info,
                   (unsigned long long)dbg.regs[0].addr);
        printf("\n");
        memset(&dbg, 0, sizeof dbg);
        iov.iov_len = 8;
        r = PT(PTRACE_SETREGSET, pid, sets[i].type, &iov);
        printf("SETREGSET %s, header only: %s\n", sets[i].name, r < 0 ? err_name(errno) : "0");
        dbg.regs[0].addr = 0x1000;
        dbg.regs[0].ctrl = 1;
        iov.iov_len = 24;
        r = PT(PTRACE_SETREGSET, pid, sets[i].type, &iov);
        printf("SETREGSET %s, slot 0: %s\n", sets[i].name, r < 0 ? err_name(errno) : "0");
    }
    const long nums[] = {0, 1, -1, 33};
    for (int i = 0; i < 4; i++) {
        uint32_t v = 0xdeadbeef;
        long r = PT(REQ_GETHBPREGS, pid, nums[i], &v);
        printf("GETHBPREGS %ld: %s", nums[i], r < 0 ? err_name(errno) : "0");
        if (r == 0)
            printf(", %#x", v);
        printf("\n");
    }
    finish(pid, "tracee");
}

/* ---- procmem ---- */

static const char message[] = "read-only text";
static volatile int counter = 41;

static __attribute__((noinline)) int answer(void)
{
    return counter + 1;
}

static void procmem_child(void)
{
    counter = answer(); /* answer's code is translated before the stop */
    raise(SIGSTOP);
    printf("child: message \"%s\", answer %d\n", message, answer());
    fflush(stdout);
    _exit(answer());
}

static void mode_procmem(void)
{
    pid_t pid = traced_child(procmem_child);
    PT(PTRACE_CONT, pid, 0, 0);
    show_status("after answer()", wait_for(pid));
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/mem", (int)pid);
    int fd = open(path, O_RDWR);
    printf("open mem O_RDWR: %s\n", fd < 0 ? err_name(errno) : "ok");
    int value = 0;
    ssize_t n = pread(fd, &value, sizeof value, (off_t)(uintptr_t)&counter);
    printf("pread counter: %zd, %d\n", n, value);
    n = pwrite(fd, "READ", 4, (off_t)(uintptr_t)message);
    printf("pwrite into read-only memory: %zd\n", n);
    errno = 0;
    long word = ptrace(PTRACE_PEEKDATA, pid, (void *)message, NULL);
    printf("PEEKDATA sees: %.4s\n", (char *)&word);
    char c;
    n = pread(fd, &c, 1, 0x1000);
    printf("pread of unmapped memory: %zd %s\n", n, n < 0 ? err_name(errno) : "");
    off_t at = lseek(fd, (off_t)(uintptr_t)&counter, SEEK_SET);
    printf("lseek SEEK_SET to counter: %s\n", at == (off_t)(uintptr_t)&counter ? "ok" : "wrong");
    value = 0;
    n = read(fd, &value, sizeof value);
    printf("read at the position: %zd, %d; SEEK_CUR now +%lld\n", n, value,
           (long long)(lseek(fd, 0, SEEK_CUR) - at));
    errno = 0;
    printf("lseek SEEK_END: %lld %s\n", (long long)lseek(fd, 0, SEEK_END), err_name(errno));
    /* A breakpoint over answer()'s first instruction, as gdb plants it. */
    uintptr_t fn = (uintptr_t)answer & ~(uintptr_t)1;
#ifdef __aarch64__
    const uint32_t bp = 0xd4200000; /* brk #0 */
    unsigned size = 4;
#elif defined(__thumb__)
    const uint32_t bp = 0xde01;
    unsigned size = 2;
#else
    const uint32_t bp = 0xe7f001f0;
    unsigned size = 4;
#endif
    uint32_t saved = 0;
    pread(fd, &saved, size, (off_t)fn);
    n = pwrite(fd, &bp, size, (off_t)fn);
    printf("pwrite breakpoint into code: %zd\n", n);
    PT(PTRACE_CONT, pid, 0, 0);
    int st = wait_for(pid);
    show_status("breakpoint", st);
    regs_t regs = get_regs(pid);
    printf("  stopped at answer(): %s\n", (PC(regs) & ~(uint64_t)1) == fn ? "yes" : "no");
    pwrite(fd, &saved, size, (off_t)fn);
    close(fd);
    /* Runs answer() as it was, from where it stopped. */
    finish(pid, "tracee");
}

/* ---- signals ---- */

static void signals_child(void)
{
    signal(SIGUSR1, SIG_IGN);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR2);
    sigaddset(&set, SIGRTMIN);
    sigprocmask(SIG_BLOCK, &set, NULL);
    raise(SIGSTOP);
    kill(getpid(), SIGUSR1); /* ignored, yet its tracer sees it */
    volatile int *volatile nowhere = (int *)16;
    *nowhere = 1;
}

static void show_peek(pid_t pid, const char *what, uint64_t off, uint32_t flags, int32_t nr)
{
    struct {
        uint64_t off;
        uint32_t flags;
        int32_t nr;
    } args = {off, flags, nr};
    siginfo_t si[4];
    memset(si, 0, sizeof si);
    long r = PT(REQ_PEEKSIGINFO, pid, &args, si);
    printf("PEEKSIGINFO %s: %s", what, r < 0 ? err_name(errno) : "");
    if (r >= 0)
        printf("%ld", r);
    for (long i = 0; i < r; i++) {
        printf(", {%d code %d", si[i].si_signo, si[i].si_code);
        if (si[i].si_code == SI_QUEUE)
            printf(" value %d", si[i].si_value.sival_int);
        if (si[i].si_code == SI_USER || si[i].si_code == SI_TKILL)
            printf(" from the tracer: %s", si[i].si_pid == getpid() ? "yes" : "no");
        printf("}");
    }
    printf("\n");
}

static void show_mask(pid_t pid)
{
    uint64_t mask = 0;
    long r = PT(REQ_GETSIGMASK, pid, 8, &mask);
    printf("GETSIGMASK: %s, %#llx\n", r < 0 ? err_name(errno) : "0", (unsigned long long)mask);
}

static void mode_signals(void)
{
    pid_t pid = traced_child(signals_child);
    PT(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACEEXIT);
    PT(PTRACE_CONT, pid, 0, 0);
    show_status("raise(SIGSTOP)", wait_for(pid));
    kill(pid, SIGUSR2);
    sigqueue(pid, SIGRTMIN, (union sigval){.sival_int = 7});
    syscall(SYS_tgkill, pid, pid, SIGRTMIN);
    show_peek(pid, "shared", 0, 1, 4);
    show_peek(pid, "shared from 1", 1, 1, 4);
    show_peek(pid, "thread", 0, 0, 4);
    show_peek(pid, "thread from 1", 1, 0, 4);
    show_peek(pid, "flags 2", 0, 2, 4);
    show_peek(pid, "nr -1", 0, 1, -1);
    show_peek(pid, "nr 0", 0, 1, 0);
    struct {
        uint64_t off;
        uint32_t flags;
        int32_t nr;
    } args = {0, 1, 1};
    long r = PT(REQ_PEEKSIGINFO, pid, &args, 8);
    printf("PEEKSIGINFO into a bad buffer: %s\n", r < 0 ? err_name(errno) : "0");
    show_mask(pid);
    uint64_t mask = 0;
    r = PT(REQ_GETSIGMASK, pid, 4, &mask);
    printf("GETSIGMASK size 4: %s\n", r < 0 ? err_name(errno) : "0");
    mask = (1ull << (SIGUSR2 - 1)) | (1ull << (SIGKILL - 1)) | (1ull << (SIGSTOP - 1));
    r = PT(REQ_SETSIGMASK, pid, 8, &mask);
    printf("SETSIGMASK SIGUSR2|SIGKILL|SIGSTOP: %s\n", r < 0 ? err_name(errno) : "0");
    show_mask(pid);
    /* SIGRTMIN is unblocked now: the thread's instance first, then the
     * process's; each is suppressed. Then the ignored SIGUSR1. */
    for (int i = 0; i < 3; i++) {
        PT(PTRACE_CONT, pid, 0, 0);
        int st = wait_for(pid);
        siginfo_t si = get_siginfo(pid);
        show_status("stop", st);
        printf("  si_code %d\n", si.si_code);
    }
    /* The fault, delivered: the exit event comes before the death. */
    PT(PTRACE_CONT, pid, 0, 0);
    show_status("fault", wait_for(pid));
    PT(PTRACE_CONT, pid, 0, SIGSEGV);
    int st = wait_for(pid);
    show_status("dying", st);
    unsigned long msg = 0;
    PT(PTRACE_GETEVENTMSG, pid, 0, &msg);
    printf("  GETEVENTMSG %#lx\n", msg);
    finish(pid, "tracee");
}

/* ---- blocked ---- */

static int pipe_fds[2];

static void blocked_child(void)
{
    char c = 0;
    ssize_t n = read(pipe_fds[0], &c, 1);
    _exit(n == 1 ? c : 100);
}

static void mode_blocked(void)
{
    if (pipe(pipe_fds) < 0)
        return;
    pid_t pid = traced_child(blocked_child);
    PT(PTRACE_CONT, pid, 0, 0);
    usleep(10000); /* into its read */
    kill(pid, SIGTERM);
    show_status("SIGTERM", wait_for(pid));
    PT(PTRACE_CONT, pid, 0, 0); /* suppressed: the read goes on */
    if (write(pipe_fds[1], "\x2a", 1) != 1)
        return;
    show_status("tracee", wait_for(pid));
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "step") == 0)
        mode_step();
    else if (strcmp(mode, "brk") == 0)
        mode_brk();
    else if (strcmp(mode, "hwdebug") == 0)
        mode_hwdebug();
    else if (strcmp(mode, "procmem") == 0)
        mode_procmem();
    else if (strcmp(mode, "signals") == 0)
        mode_signals();
    else if (strcmp(mode, "blocked") == 0)
        mode_blocked();
    else {
        fprintf(stderr, "usage: ptrace-gdb step|brk|hwdebug|procmem|signals|blocked\n");
        return 2;
    }
    return 0;
}
