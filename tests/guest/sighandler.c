/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sighandler.c - signal handlers and their frames: siginfo, masks, flags,
 * sigsuspend, interrupted syscalls, SIGCHLD, SIGPIPE and sigaltstack. The
 * first argument names the case; each prints what the handlers saw.
 *
 *   plain      sa_handler: count, mask inside the handler, SA_NODEFER
 *   info       SA_SIGINFO: si_code for kill, raise, sigqueue, a fault;
 *              EINVAL for SIGKILL/SIGSTOP, ESRCH for a reaped pid
 *   resethand  SA_RESETHAND: the second SIGUSR1 kills (status 138)
 *   mask       blocked signals stay pending, one standard and every queued
 *              real-time signal is delivered on unblock; sigtimedwait
 *   suspend    sigsuspend wakes for a signal a child sends, mask restored
 *   eintr      a handler interrupts a blocking read on a pipe: EINTR
 *   restart    the same with SA_RESTART: the read goes on
 *   sigchld    SIGCHLD with siginfo when a child exits
 *   sigpipe    write to a pipe without reader, default action (status 141)
 *   sigpipe-ignore  the same with SIG_IGN (EPIPE) and with a handler
 *   sigpipe-child   a child killed by SIGPIPE, seen by waitpid
 *   altstack   SIGSEGV handled on a sigaltstack, left with siglongjmp
 *   overflow   unbounded recursion; the SIGSEGV handler runs on the
 *              alternate stack and exits 0 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static int install(int sig, void (*handler)(int), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    return sigaction(sig, &sa, NULL);
}

static int install_info(int sig, void (*action)(int, siginfo_t *, void *), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = action;
    sa.sa_flags = SA_SIGINFO | flags;
    sigemptyset(&sa.sa_mask);
    return sigaction(sig, &sa, NULL);
}

static void block(int how, int sig)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(how, &set, NULL);
}

static int is_blocked(int sig)
{
    sigset_t cur;
    sigprocmask(SIG_BLOCK, NULL, &cur);
    return sigismember(&cur, sig);
}

/* --- plain ---------------------------------------------------------------- */

static volatile sig_atomic_t count, depth, max_depth, last_sig;
static volatile sig_atomic_t mask_self, mask_usr2, mask_hup;

static void on_plain(int sig)
{
    count++;
    last_sig = sig;
    mask_self = is_blocked(sig);
    mask_usr2 = is_blocked(SIGUSR2);
    mask_hup = is_blocked(SIGHUP);
}

static void on_nested(int sig)
{
    count++;
    depth++;
    if (depth > max_depth)
        max_depth = depth;
    if (count == 1)
        raise(sig);
    depth--;
}

static int run_plain(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_plain;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR2);
    sigaction(SIGUSR1, &sa, NULL);
    raise(SIGUSR1);
    raise(SIGUSR1);
    printf("handler ran %d times, signal %d\n", (int)count, (int)last_sig);
    printf("inside: SIGUSR1 %s, SIGUSR2 %s, SIGHUP %s\n", mask_self ? "blocked" : "unblocked",
           mask_usr2 ? "blocked" : "unblocked", mask_hup ? "blocked" : "unblocked");
    printf("after: SIGUSR1 %s, SIGUSR2 %s\n", is_blocked(SIGUSR1) ? "blocked" : "unblocked",
           is_blocked(SIGUSR2) ? "blocked" : "unblocked");

    for (int nodefer = 0; nodefer <= 1; nodefer++) {
        count = depth = max_depth = 0;
        install(SIGUSR1, on_nested, nodefer ? SA_NODEFER : 0);
        raise(SIGUSR1);
        printf("raise inside the handler%s: %d runs, max depth %d\n",
               nodefer ? " (SA_NODEFER)" : "", (int)count, (int)max_depth);
    }
    return 0;
}

/* --- info ----------------------------------------------------------------- */

static siginfo_t seen;
static volatile sig_atomic_t have_ucontext;
static sigjmp_buf jump;

static void on_info(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    seen = *si;
    have_ucontext = uc != NULL;
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    on_info(sig, si, uc);
    siglongjmp(jump, 1);
}

static void show_info(const char *how)
{
    printf("%s: si_signo %d si_code %d si_pid %s si_uid %s ucontext %s\n", how, seen.si_signo,
           seen.si_code, seen.si_pid == getpid() ? "self" : "other",
           seen.si_uid == getuid() ? "self" : "other", have_ucontext ? "yes" : "no");
    memset(&seen, 0, sizeof seen);
}

static int run_info(void)
{
    install_info(SIGUSR1, on_info, 0);
    install_info(SIGUSR2, on_info, 0);
    kill(getpid(), SIGUSR1);
    show_info("kill");
    raise(SIGUSR1);
    show_info("raise");
    union sigval v = {.sival_int = 42};
    sigqueue(getpid(), SIGUSR2, v);
    int value = seen.si_value.sival_int;
    show_info("sigqueue");
    printf("sigqueue si_value %d\n", value);

    install_info(SIGSEGV, on_fault, 0);
    if (sigsetjmp(jump, 1) == 0) {
        volatile int *volatile p = (int *)16;
        *p = 1;
        printf("the store did not fault\n");
    }
    printf("fault: si_signo %d si_code %d si_addr %p ucontext %s\n", seen.si_signo, seen.si_code,
           seen.si_addr, have_ucontext ? "yes" : "no");

    static const struct {
        const char *name;
        int sig;
    } refused[] = {{"SIGKILL", SIGKILL}, {"SIGSTOP", SIGSTOP}, {"65", 65}};
    for (int i = 0; i < 3; i++) {
        errno = 0;
        int r = install(refused[i].sig, SIG_IGN, 0);
        printf("sigaction(%s) %d %s\n", refused[i].name, r, err_name(errno));
    }

    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    waitpid(pid, NULL, 0);
    errno = 0;
    int r = kill(pid, 0);
    printf("kill(reaped child, 0) %d %s\n", r, err_name(errno));
    printf("kill(self, 0) %d\n", kill(getpid(), 0));
    return 0;
}

/* --- resethand ------------------------------------------------------------ */

static int run_resethand(void)
{
    install(SIGUSR1, on_plain, SA_RESETHAND);
    raise(SIGUSR1);
    struct sigaction sa;
    sigaction(SIGUSR1, NULL, &sa);
    printf("handler ran %d times, now %s\n", (int)count,
           sa.sa_handler == SIG_DFL ? "SIG_DFL" : "still handled");
    printf("raising again\n");
    fflush(stdout);
    raise(SIGUSR1);
    printf("still alive\n");
    return 1;
}

/* --- mask ----------------------------------------------------------------- */

static int rt_values[8];
static volatile sig_atomic_t rt_count;

static void on_rt(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    if (rt_count < 8)
        rt_values[rt_count] = si->si_value.sival_int;
    rt_count++;
}

static int run_mask(void)
{
    install(SIGUSR1, on_plain, 0);
    block(SIG_BLOCK, SIGUSR1);
    raise(SIGUSR1);
    raise(SIGUSR1);
    sigset_t pending;
    sigpending(&pending);
    printf("blocked: handler ran %d times, pending %s\n", (int)count,
           sigismember(&pending, SIGUSR1) ? "yes" : "no");
    block(SIG_UNBLOCK, SIGUSR1);
    printf("unblocked: handler ran %d times\n", (int)count);

    int rt = SIGRTMIN + 1;
    install_info(rt, on_rt, 0);
    block(SIG_BLOCK, rt);
    for (int i = 1; i <= 3; i++)
        sigqueue(getpid(), rt, (union sigval){.sival_int = i * 10});
    printf("real-time blocked: %d runs\n", (int)rt_count);
    block(SIG_UNBLOCK, rt);
    printf("real-time unblocked: %d runs, values %d %d %d\n", (int)rt_count, rt_values[0],
           rt_values[1], rt_values[2]);

    block(SIG_BLOCK, SIGUSR2);
    raise(SIGUSR2);
    sigset_t want;
    sigemptyset(&want);
    sigaddset(&want, SIGUSR2);
    siginfo_t si;
    struct timespec ts = {0, 10 * 1000000L};
    int r = sigtimedwait(&want, &si, &ts);
    printf("sigtimedwait pending: %d si_code %d\n", r, si.si_code);
    errno = 0;
    r = sigtimedwait(&want, &si, &ts);
    printf("sigtimedwait nothing pending: %d %s\n", r, err_name(errno));
    return 0;
}

/* --- suspend -------------------------------------------------------------- */

static int run_suspend(void)
{
    install(SIGUSR1, on_plain, 0);
    block(SIG_BLOCK, SIGUSR1);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        kill(getppid(), SIGUSR1);
        _exit(0);
    }
    sigset_t none;
    sigemptyset(&none);
    errno = 0;
    int r = sigsuspend(&none);
    printf("sigsuspend %d %s, handler ran %d times, SIGUSR1 %s after\n", r, err_name(errno),
           (int)count, is_blocked(SIGUSR1) ? "blocked" : "unblocked");
    int status;
    waitpid(pid, &status, 0);
    printf("child exited %d\n", WEXITSTATUS(status));
    return 0;
}

/* --- eintr / restart ------------------------------------------------------ */

static int run_interrupted_read(int flags)
{
    int p[2];
    if (pipe(p) != 0)
        return 1;
    install(SIGUSR1, on_plain, flags);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        /* Long enough for the parent to block in read. */
        sleep_ms(50);
        kill(getppid(), SIGUSR1);
        sleep_ms(50);
        write(p[1], "x", 1);
        _exit(0);
    }
    close(p[1]);
    char c = 0;
    errno = 0;
    ssize_t n = read(p[0], &c, 1);
    printf("first read %zd%s%s, handler ran %d times\n", n, n < 0 ? " " : "",
           n < 0 ? err_name(errno) : "", (int)count);
    if (n < 0) {
        n = read(p[0], &c, 1);
        printf("second read %zd '%c'\n", n, c);
    } else {
        printf("read '%c'\n", c);
    }
    int status;
    waitpid(pid, &status, 0);
    printf("child exited %d\n", WEXITSTATUS(status));
    return 0;
}

/* --- sigchld -------------------------------------------------------------- */

static int run_sigchld(void)
{
    install_info(SIGCHLD, on_info, 0);
    block(SIG_BLOCK, SIGCHLD);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
        _exit(3);
    sigset_t none;
    sigemptyset(&none);
    sigsuspend(&none);
    printf("SIGCHLD: si_signo %d si_code %d si_status %d si_pid %s\n", seen.si_signo, seen.si_code,
           seen.si_status, seen.si_pid == pid ? "child" : "other");
    int status;
    pid_t r = waitpid(pid, &status, 0);
    printf("waitpid %s, exited %d\n", r == pid ? "ok" : "failed", WEXITSTATUS(status));
    return 0;
}

/* --- sigpipe -------------------------------------------------------------- */

static int broken_pipe(void)
{
    int p[2];
    if (pipe(p) != 0)
        return -1;
    close(p[0]);
    return p[1];
}

static int run_sigpipe(void)
{
    int fd = broken_pipe();
    printf("writing to a pipe without reader\n");
    fflush(stdout);
    write(fd, "x", 1);
    printf("still alive\n");
    return 1;
}

static int run_sigpipe_ignore(void)
{
    int fd = broken_pipe();
    signal(SIGPIPE, SIG_IGN);
    errno = 0;
    ssize_t n = write(fd, "x", 1);
    printf("SIG_IGN: write %zd %s\n", n, err_name(errno));
    install(SIGPIPE, on_plain, 0);
    errno = 0;
    n = write(fd, "x", 1);
    printf("handler: write %zd %s, handler ran %d times, signal %d\n", n, err_name(errno),
           (int)count, (int)last_sig);
    return 0;
}

static int run_sigpipe_child(void)
{
    int fd = broken_pipe();
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        write(fd, "x", 1);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    printf("child WIFSIGNALED %d WTERMSIG %d\n", WIFSIGNALED(status),
           WIFSIGNALED(status) ? WTERMSIG(status) : -1);
    return 0;
}

/* --- altstack / overflow -------------------------------------------------- */

#define ALT_SIZE (64 * 1024)
static char alt_stack[ALT_SIZE] __attribute__((aligned(16)));
static volatile sig_atomic_t on_alt, ss_onstack;

static int on_alt_stack(const void *p)
{
    return (uintptr_t)p >= (uintptr_t)alt_stack && (uintptr_t)p < (uintptr_t)alt_stack + ALT_SIZE;
}

static void on_segv_alt(int sig, siginfo_t *si, void *uc)
{
    int local;
    stack_t cur;
    on_alt = on_alt_stack(&local);
    ss_onstack = sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_ONSTACK);
    on_info(sig, si, uc);
    siglongjmp(jump, 1);
}

static void on_overflow(int sig)
{
    int local;
    (void)sig;
    const char *msg = on_alt_stack(&local) ? "overflow caught on the alternate stack\n"
                                           : "overflow caught on the WRONG stack\n";
    write(1, msg, strlen(msg));
    _exit(0);
}

static int set_alt_stack(void)
{
    stack_t ss = {.ss_sp = alt_stack, .ss_size = ALT_SIZE, .ss_flags = 0};
    return sigaltstack(&ss, NULL);
}

static int run_altstack(void)
{
    printf("sigaltstack %d\n", set_alt_stack());
    install_info(SIGSEGV, on_segv_alt, SA_ONSTACK);
    if (sigsetjmp(jump, 1) == 0) {
        volatile int *volatile p = NULL;
        *p = 1;
        printf("the store did not fault\n");
    }
    printf("handler on the alternate stack %s, SS_ONSTACK inside %s\n", on_alt ? "yes" : "no",
           ss_onstack ? "yes" : "no");
    printf("si_signo %d si_code %d si_addr %p\n", seen.si_signo, seen.si_code, seen.si_addr);
    stack_t cur;
    sigaltstack(NULL, &cur);
    printf("after: ss_flags %d ss_size %zu\n", cur.ss_flags, cur.ss_size);
    stack_t small = {.ss_sp = alt_stack, .ss_size = 1024, .ss_flags = 0};
    errno = 0;
    int r = sigaltstack(&small, NULL);
    printf("sigaltstack of 1024 bytes %d %s\n", r, err_name(errno));
    return 0;
}

static volatile int stop_recursion; /* never set: keeps -Winfinite-recursion quiet */

static int recurse(volatile char *prev)
{
    volatile char frame[1024];
    if (stop_recursion)
        return 0;
    frame[0] = prev ? prev[0] + 1 : 0;
    return recurse(frame) + frame[1];
}

static int run_overflow(void)
{
    set_alt_stack();
    install(SIGSEGV, on_overflow, SA_ONSTACK);
    printf("recursing\n");
    fflush(stdout);
    return recurse(NULL);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(void);
    } cases[] = {
        {"plain", run_plain},
        {"info", run_info},
        {"resethand", run_resethand},
        {"mask", run_mask},
        {"suspend", run_suspend},
        {"sigchld", run_sigchld},
        {"sigpipe", run_sigpipe},
        {"sigpipe-ignore", run_sigpipe_ignore},
        {"sigpipe-child", run_sigpipe_child},
        {"altstack", run_altstack},
        {"overflow", run_overflow},
    };
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "eintr") == 0)
        return run_interrupted_read(0);
    if (strcmp(mode, "restart") == 0)
        return run_interrupted_read(SA_RESTART);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (strcmp(mode, cases[i].name) == 0)
            return cases[i].run();
    printf("usage: sighandler CASE (see the source)\n");
    return 2;
}
