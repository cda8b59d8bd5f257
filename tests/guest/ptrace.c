/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ptrace.c - guest ptrace(2) as a tracer sees it. Modes:
 *   syscalls PROG  a TRACEME child execs PROG (this program's "hello" mode,
 *                  of either ISA); PTRACE_SYSCALL stops, the syscall number
 *                  read from the NT_PRSTATUS regset, PTRACE_GET_SYSCALL_INFO
 *   seize          SEIZE + INTERRUPT of a child in pause(), GETSIGINFO,
 *                  TracerPid, a signal-delivery-stop, EPERM/ESRCH cases
 *   events PROG    TRACEFORK/TRACEEXEC event stops of a child that forks a
 *                  grandchild that execs PROG; the tracer (not the parent)
 *                  collects the grandchild's exit before its parent does
 *   peekpoke       PEEKDATA/POKEDATA, process_vm_readv, PEEKUSR (arm)
 *   tracerdeath [exitkill]  a tracer exits while its tracee is stopped:
 *                  the tracee is detached and runs on, or dies (EXITKILL)
 *   fault          a tracee's SIGSEGV is a signal-delivery-stop; PTRACE_KILL
 *   hello          writes "hello\n" and exits 3 (the traced program)
 * Output names no pid, so it is the same on every run. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PTRACE_GET_SYSCALL_INFO
#define PTRACE_GET_SYSCALL_INFO 0x420e
#endif
#ifndef NT_ARM_SYSTEM_CALL
#define NT_ARM_SYSTEM_CALL 0x404
#endif

/* The syscall numbers this test looks for, per tracee ISA. */
struct isa_nrs {
    const char *name;
    long write, exit_group;
};
static const struct isa_nrs aarch64_nrs = {"aarch64", 64, 94};
static const struct isa_nrs arm_nrs = {"arm", 4, 248};

static const char *err_name(int e)
{
    switch (e) {
    case EPERM:
        return "EPERM";
    case ESRCH:
        return "ESRCH";
    case EIO:
        return "EIO";
    case EINVAL:
        return "EINVAL";
    case EFAULT:
        return "EFAULT";
    case ECHILD:
        return "ECHILD";
    default:
        return "other";
    }
}

static long pt(int req, pid_t pid, void *addr, void *data)
{
    errno = 0;
    return ptrace((enum __ptrace_request)req, pid, addr, data);
}

static void show_status(const char *what, int st)
{
    if (WIFEXITED(st))
        printf("%s: exited %d\n", what, WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        printf("%s: killed by %d\n", what, WTERMSIG(st));
    else if (WIFSTOPPED(st))
        printf("%s: stopped %#x (sig %d, event %d)\n", what, st, WSTOPSIG(st) & 0x7f, st >> 16);
    else
        printf("%s: status %#x\n", what, st);
}

/* Reads the general registers: the syscall number, its first three
 * arguments, and which ISA the regset's size says the tracee has. */
static const struct isa_nrs *read_regs(pid_t pid, long *nr, unsigned long args[3])
{
    union {
        uint64_t x[34];
        uint32_t r[18];
    } regs;
    struct iovec iov = {&regs, sizeof regs};
    if (pt(PTRACE_GETREGSET, pid, (void *)NT_PRSTATUS, &iov) < 0) {
        printf("GETREGSET: %s\n", err_name(errno));
        exit(1);
    }
    if (iov.iov_len == 272) {
        *nr = (long)regs.x[8];
        for (int i = 0; i < 3; i++)
            args[i] = (unsigned long)regs.x[i];
        return &aarch64_nrs;
    }
    if (iov.iov_len == 72) {
        *nr = (long)regs.r[7];
        for (int i = 0; i < 3; i++)
            args[i] = regs.r[i];
        return &arm_nrs;
    }
    printf("GETREGSET: unexpected size %zu\n", iov.iov_len);
    exit(1);
}

struct syscall_info {
    uint8_t op, pad[3];
    uint32_t arch;
    uint64_t ip, sp;
    union {
        struct {
            uint64_t nr, args[6];
        } entry;
        struct {
            int64_t rval;
            uint8_t is_error;
        } exit;
    };
};

static int mode_syscalls(const char *prog)
{
    pid_t pid = fork();
    if (pid == 0) {
        pt(PTRACE_TRACEME, 0, 0, 0);
        execl(prog, prog, "hello", (char *)NULL);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    show_status("after exec", st); /* the legacy SIGTRAP of a TRACEME exec */
    printf("SETOPTIONS TRACESYSGOOD: %ld\n", pt(PTRACE_SETOPTIONS, pid, 0, (void *)PTRACE_O_TRACESYSGOOD));
    int enters = 0, exits = 0, not_sysgood = 0;
    bool entering = true;
    for (;;) {
        pt(PTRACE_SYSCALL, pid, 0, 0);
        waitpid(pid, &st, 0);
        if (!WIFSTOPPED(st))
            break;
        if (WSTOPSIG(st) != (SIGTRAP | 0x80)) {
            not_sysgood++;
            continue;
        }
        long nr;
        unsigned long args[3];
        const struct isa_nrs *isa = read_regs(pid, &nr, args);
        struct syscall_info info;
        memset(&info, 0xee, sizeof info);
        long size = pt(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof info, &info);
        if (entering) {
            enters++;
            if (size != 80 || info.op != 1 || (long)info.entry.nr != nr)
                printf("enter %d: info size %ld op %d nr %ld vs %ld\n", enters, size, info.op,
                       (long)info.entry.nr, nr);
            if (nr == isa->write)
                printf("%s tracee: write(%lu, ..., %lu) enter, info arch %#x args[2] %llu\n",
                       isa->name, args[0], args[2], info.arch,
                       (unsigned long long)info.entry.args[2]);
            if (nr == isa->exit_group)
                printf("exit_group(%lu) enter\n", args[0]);
        } else {
            exits++;
            if (size != 33 || info.op != 2)
                printf("exit %d: info size %ld op %d\n", exits, size, info.op);
            if (nr == isa->write)
                printf("write exit: x0/r0 %lu, info rval %lld is_error %d\n", args[0],
                       (long long)info.exit.rval, info.exit.is_error);
        }
        entering = !entering;
    }
    show_status("end", st);
    printf("enter stops - exit stops: %d, stops without 0x80: %d\n", enters - exits, not_sysgood);
    return 0;
}

static volatile int usr1_caught;
static void on_usr1(int sig)
{
    usr1_caught = sig;
}

static void show_proc_status(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("open %s failed\n", "/proc/PID/status");
        return;
    }
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "State:", 6))
            printf("%s", line);
        else if (!strncmp(line, "TracerPid:", 10))
            printf("TracerPid is the tracer: %s\n", atoi(line + 10) == getpid() ? "yes" : "no");
    }
    fclose(f);
}

static int mode_seize(void)
{
    signal(SIGUSR1, on_usr1);
    pid_t pid = fork();
    if (pid == 0) {
        while (!usr1_caught)
            pause();
        _exit(5);
    }
    usleep(1000); /* the child is in pause() */
    printf("CONT before attaching: %ld %s\n", pt(PTRACE_CONT, pid, 0, 0), err_name(errno));
    printf("SEIZE bad option: %ld %s\n", pt(PTRACE_SEIZE, pid, 0, (void *)0x800), err_name(errno));
    printf("SEIZE: %ld\n", pt(PTRACE_SEIZE, pid, 0, (void *)PTRACE_O_TRACESYSGOOD));
    printf("SEIZE again: %ld %s\n", pt(PTRACE_SEIZE, pid, 0, 0), err_name(errno));
    printf("ATTACH self: %ld %s\n", pt(PTRACE_ATTACH, getpid(), 0, 0), err_name(errno));
    printf("ATTACH pid 1: %ld %s\n", pt(PTRACE_ATTACH, 1, 0, 0), err_name(errno));
    printf("ATTACH nobody: %ld %s\n", pt(PTRACE_ATTACH, 99999, 0, 0), err_name(errno));
    printf("GETREGSET while running: %ld %s\n",
           pt(PTRACE_GETREGSET, pid, (void *)NT_PRSTATUS, &(struct iovec){0}), err_name(errno));
    int st;
    printf("WNOHANG before INTERRUPT: %d\n", waitpid(pid, &st, WNOHANG | __WALL));
    printf("INTERRUPT: %ld\n", pt(PTRACE_INTERRUPT, pid, 0, 0));
    waitpid(pid, &st, __WALL);
    show_status("interrupt", st);
    siginfo_t si;
    printf("GETSIGINFO: %ld signo %d code %#x\n", pt(PTRACE_GETSIGINFO, pid, 0, &si), si.si_signo,
           si.si_code);
    show_proc_status(pid);
    printf("CONT: %ld\n", pt(PTRACE_CONT, pid, 0, 0));
    kill(pid, SIGUSR1);
    waitpid(pid, &st, __WALL);
    show_status("signal-delivery-stop", st);
    printf("GETSIGINFO: %ld signo %d code %d from the tracer: %s\n",
           pt(PTRACE_GETSIGINFO, pid, 0, &si), si.si_signo, si.si_code,
           si.si_pid == getpid() ? "yes" : "no");
    printf("CONT bad signal: %ld %s\n", pt(PTRACE_CONT, pid, 0, (void *)65), err_name(errno));
    printf("CONT SIGUSR1: %ld\n", pt(PTRACE_CONT, pid, 0, (void *)SIGUSR1));
    waitpid(pid, &st, __WALL);
    show_status("end", st);
    printf("wait again: %d %s\n", waitpid(pid, &st, __WALL), err_name(errno));
    return 0;
}

/* Follows every stop of the tracees: the child forks a grandchild that
 * execs prog; the tracer prints each stop by role. */
static int mode_events(const char *prog)
{
    pid_t child = fork();
    if (child == 0) {
        pt(PTRACE_TRACEME, 0, 0, 0);
        raise(SIGSTOP);
        pid_t g = fork();
        if (g == 0) {
            execl(prog, prog, "hello", (char *)NULL);
            _exit(127);
        }
        int st;
        pid_t w = waitpid(g, &st, 0);
        /* 100 + the grandchild's exit code: the real parent got it too */
        _exit(w == g && WIFEXITED(st) ? 100 + WEXITSTATUS(st) : 1);
    }
    int st;
    waitpid(child, &st, 0);
    show_status("child", st);
    long opts = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK | PTRACE_O_TRACEEXEC;
    printf("SETOPTIONS: %ld\n", pt(PTRACE_SETOPTIONS, child, 0, (void *)opts));
    pt(PTRACE_CONT, child, 0, 0);
    pid_t grandchild = 0;
    int live = 1;
    while (live > 0) {
        pid_t w = waitpid(-1, &st, __WALL);
        if (w < 0) {
            printf("waitpid: %s\n", err_name(errno));
            break;
        }
        const char *who = w == child ? "child" : w == grandchild ? "grandchild" : "unknown";
        if (!grandchild && w != child) {
            grandchild = w;
            who = "grandchild (before its fork event)";
        }
        show_status(who, st);
        if (!WIFSTOPPED(st)) {
            live--;
            continue;
        }
        int event = st >> 16;
        if (event == PTRACE_EVENT_FORK) {
            unsigned long msg = 0;
            pt(PTRACE_GETEVENTMSG, w, 0, &msg);
            if (!grandchild) {
                grandchild = (pid_t)msg;
            }
            printf("  event message is the grandchild: %s\n", (pid_t)msg == grandchild ? "yes" : "no");
            live++;
        } else if (event == PTRACE_EVENT_EXEC) {
            unsigned long msg = 0;
            pt(PTRACE_GETEVENTMSG, w, 0, &msg);
            printf("  exec event message is its pid: %s\n", (pid_t)msg == w ? "yes" : "no");
            long nr;
            unsigned long args[3];
            const struct isa_nrs *isa = read_regs(w, &nr, args);
            printf("  it now runs %s code\n", isa->name);
        }
        /* The first stop of a new tracee is its SIGSTOP: not delivered. */
        int sig = WSTOPSIG(st) == SIGTRAP || WSTOPSIG(st) == SIGSTOP ? 0 : WSTOPSIG(st);
        if (event == 0 && WSTOPSIG(st) == SIGCHLD)
            sig = SIGCHLD;
        pt(PTRACE_CONT, w, 0, (void *)(long)sig);
    }
    return 0;
}

static int tracer_pid_of(pid_t pid)
{
    char path[64], line[256];
    int tracer = -1;
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "TracerPid:", 10))
            tracer = atoi(line + 10);
    if (f)
        fclose(f);
    return tracer;
}

static int mode_tracerdeath(bool exitkill)
{
    signal(SIGUSR1, on_usr1);
    pid_t tracee = fork();
    if (tracee == 0) {
        while (!usr1_caught)
            pause();
        _exit(7);
    }
    pid_t tracer = fork();
    if (tracer == 0) {
        long opts = exitkill ? PTRACE_O_EXITKILL : 0;
        if (pt(PTRACE_SEIZE, tracee, 0, (void *)opts) < 0 || pt(PTRACE_INTERRUPT, tracee, 0, 0) < 0)
            _exit(1);
        int st;
        waitpid(tracee, &st, __WALL);
        _exit(st == 0x80057f ? 0 : 2); /* gone without detaching */
    }
    int st;
    waitpid(tracer, &st, 0);
    show_status("tracer", st);
    printf("TracerPid after the tracer's exit: %d\n", tracer_pid_of(tracee));
    if (!exitkill)
        kill(tracee, SIGUSR1);
    waitpid(tracee, &st, 0);
    show_status("tracee", st);
    return 0;
}

static int mode_fault(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        pt(PTRACE_TRACEME, 0, 0, 0);
        raise(SIGSTOP);
        volatile int *volatile bad = (int *)16; /* an address nothing maps */
        *bad = 1;
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    pt(PTRACE_CONT, pid, 0, 0);
    waitpid(pid, &st, 0);
    show_status("fault", st);
    siginfo_t si;
    printf("GETSIGINFO: %ld signo %d code %d addr %p\n", pt(PTRACE_GETSIGINFO, pid, 0, &si),
           si.si_signo, si.si_code, si.si_addr);
    printf("KILL: %ld\n", pt(PTRACE_KILL, pid, 0, 0));
    waitpid(pid, &st, 0);
    show_status("end", st);
    return 0;
}

static volatile unsigned long cell = (unsigned long)0x11223344;

/* Prints "WHAT: R" or "WHAT: -1 ERRNO" (errno read after the call). */
static void show_result(const char *what, long r)
{
    if (r < 0)
        printf("%s: %ld %s\n", what, r, err_name(errno));
    else
        printf("%s: %ld\n", what, r);
}

static int mode_peekpoke(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        pt(PTRACE_TRACEME, 0, 0, 0);
        raise(SIGSTOP);
        printf("child sees %#lx\n", cell);
        fflush(stdout);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    show_status("child", st);
    long word = pt(PTRACE_PEEKDATA, pid, (void *)&cell, 0);
    printf("PEEKDATA: %#lx errno %d\n", word, errno);
    word = pt(PTRACE_PEEKDATA, pid, (void *)16, 0);
    printf("PEEKDATA at 16: %ld %s\n", word, err_name(errno));
    printf("POKEDATA: %ld\n", pt(PTRACE_POKEDATA, pid, (void *)&cell, (void *)0x55667788ul));
    printf("POKEDATA at 16: %ld %s\n", pt(PTRACE_POKEDATA, pid, (void *)16, 0), err_name(errno));
    unsigned long copy = 0;
    struct iovec local = {&copy, sizeof copy}, remote = {(void *)&cell, sizeof cell};
    printf("process_vm_readv: %zd -> %#lx\n", process_vm_readv(pid, &local, 1, &remote, 1, 0), copy);
    remote.iov_base = (void *)16;
    printf("process_vm_readv at 16: %zd %s\n", process_vm_readv(pid, &local, 1, &remote, 1, 0),
           err_name(errno));
    /* Linux's order: flags, the local vector, nothing to copy, the remote
     * vector's lengths, then the process. */
    remote.iov_base = (void *)&cell;
    struct iovec negative = {(void *)&cell, (size_t)SSIZE_MAX + 1};
    show_result("process_vm_readv flags 1", process_vm_readv(pid, &local, 1, &remote, 1, 1));
    show_result("process_vm_readv 1025 local", process_vm_readv(pid, &local, 1025, &remote, 1, 0));
    show_result("process_vm_readv negative local",
                process_vm_readv(pid, &negative, 1, &remote, 1, 0));
    show_result("process_vm_readv no local, no such pid",
                process_vm_readv(999999, &local, 0, &remote, 1, 0));
    show_result("process_vm_readv negative remote",
                process_vm_readv(pid, &local, 1, &negative, 1, 0));
    show_result("process_vm_readv no such pid", process_vm_readv(999999, &local, 1, &remote, 1, 0));
#ifdef __arm__
    unsigned long regs[18];
    errno = 0;
    long r7 = pt(PTRACE_PEEKUSER, pid, (void *)(7 * 4), 0);
    pt(PTRACE_GETREGS, pid, 0, regs);
    printf("PEEKUSER r7 is GETREGS' r7: %s\n", (unsigned long)r7 == regs[7] ? "yes" : "no");
    printf("PEEKUSER past the user area: %ld %s\n", pt(PTRACE_PEEKUSER, pid, (void *)296, 0),
           err_name(errno));
#else
    printf("PEEKUSER: %ld %s\n", pt(PTRACE_PEEKUSER, pid, 0, 0), err_name(errno));
#endif
    fflush(stdout);
    pt(PTRACE_CONT, pid, 0, 0);
    waitpid(pid, &st, 0);
    show_status("end", st);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "hello")) {
        write(1, "hello\n", 6);
        return 3;
    }
    if (!strcmp(mode, "syscalls") && argc > 2)
        return mode_syscalls(argv[2]);
    if (!strcmp(mode, "seize"))
        return mode_seize();
    if (!strcmp(mode, "events") && argc > 2)
        return mode_events(argv[2]);
    if (!strcmp(mode, "peekpoke"))
        return mode_peekpoke();
    if (!strcmp(mode, "fault"))
        return mode_fault();
    if (!strcmp(mode, "tracerdeath"))
        return mode_tracerdeath(argc > 2 && !strcmp(argv[2], "exitkill"));
    fprintf(stderr, "usage: ptrace syscalls|events PROG | seize | peekpoke | fault | tracerdeath [exitkill] | hello\n");
    return 2;
}
