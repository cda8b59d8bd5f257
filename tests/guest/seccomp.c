/* SPDX-License-Identifier: GPL-2.0-or-later */
/* seccomp.c - seccomp filters and strict mode (emu/kernel/seccomp.c) and
 * prctl's own settings (emu/kernel/prctl.c), one case per argument (see
 * tests/e2e/seccomp.cmake). Filters are raw classic BPF as libseccomp
 * would build them: the arch word checked first, then the call. */
#define _GNU_SOURCE
#include "guest.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <ucontext.h>

#ifdef __aarch64__
#define ARCH AUDIT_ARCH_AARCH64
#else
#define ARCH AUDIT_ARCH_ARM
#endif

#define LEN(a) (sizeof(a) / sizeof(a)[0])

static void show(const char *what, long r)
{
    if (r < 0)
        printf("%s: %s\n", what, err_name(errno));
    else
        printf("%s: %ld\n", what, r);
}

static long sys_seccomp(unsigned op, unsigned flags, void *args)
{
    return syscall(SYS_seccomp, op, flags, args);
}

/* A filter: a wrong arch kills; call nr gets `action`; the rest runs. */
static long install(int nr, unsigned action, unsigned flags)
{
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, action),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {LEN(f), f};
    return sys_seccomp(SECCOMP_SET_MODE_FILTER, flags, &prog);
}

static int child_status(pid_t pid)
{
    int st = 0;
    waitpid(pid, &st, 0);
    return st;
}

static void report_child(pid_t pid)
{
    int st = child_status(pid);
    if (WIFSIGNALED(st))
        printf("child: killed by %s\n", sigabbrev_np(WTERMSIG(st)));
    else
        printf("child: exit %d\n", WEXITSTATUS(st));
}

static void nnp(void)
{
    show("get nnp", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
    show("set nnp 2", prctl(PR_SET_NO_NEW_PRIVS, 2, 0, 0, 0));
    show("set nnp", prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
    show("get nnp", prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
    show("get nnp 1", prctl(PR_GET_NO_NEW_PRIVS, 1, 0, 0, 0));
    pid_t pid = fork();
    if (pid == 0)
        _exit((int)prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
    report_child(pid);
}

static void errno_action(void)
{
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    show("get seccomp", prctl(PR_GET_SECCOMP));
    show("install", install(SYS_getppid, SECCOMP_RET_ERRNO | EACCES, 0));
    show("get seccomp", prctl(PR_GET_SECCOMP));
    show("getppid", syscall(SYS_getppid));
    show("getpid", syscall(SYS_getpid) > 0);
    /* the newest filter runs first and wins a tie of actions */
    show("install", install(SYS_getppid, SECCOMP_RET_ERRNO | EPERM, 0));
    show("getppid", syscall(SYS_getppid));
    show("install", install(SYS_getppid, SECCOMP_RET_ERRNO | 5000, 0));
    show("getppid (5000 -> MAX_ERRNO)", syscall(SYS_getppid) == -1 ? errno : 0);
    /* a child inherits the filters and keeps them across its calls */
    pid_t pid = fork();
    if (pid == 0)
        _exit(syscall(SYS_getppid) == -1 ? 3 : 0);
    report_child(pid);
}

static volatile long trap_info[6];

static void on_sigsys(int sig, siginfo_t *si, void *uc_)
{
    ucontext_t *uc = uc_;
#ifdef __aarch64__
    unsigned long pc = uc->uc_mcontext.pc;
#else
    unsigned long pc = uc->uc_mcontext.arm_pc;
#endif
    trap_info[0] = sig;
    trap_info[1] = si->si_code;
    trap_info[2] = si->si_errno;
    trap_info[3] = si->si_syscall;
    trap_info[4] = (long)si->si_arch;
    trap_info[5] = (unsigned long)si->si_call_addr == pc;
}

static void trap(void)
{
    struct sigaction sa = {.sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO};
    sigaction(SIGSYS, &sa, NULL);
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    show("install", install(SYS_uname, SECCOMP_RET_TRAP | 0x42, 0));
    struct utsname u;
    long r = syscall(SYS_uname, &u);
    printf("uname returned its argument: %d\n", r == (long)(uintptr_t)&u);
    printf("signal %s code %ld errno %#lx syscall==uname %d arch==ARCH %d call_addr==pc %ld\n",
           sigabbrev_np((int)trap_info[0]), trap_info[1], trap_info[2],
           trap_info[3] == SYS_uname, (unsigned long)trap_info[4] == (unsigned long)ARCH,
           trap_info[5]);
    /* blocked, the trap ends the process */
    pid_t pid = fork();
    if (pid == 0) {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGSYS);
        sigprocmask(SIG_BLOCK, &set, NULL);
        syscall(SYS_uname, &u);
        _exit(0);
    }
    report_child(pid);
}

static void kill_process(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        install(SYS_getppid, SECCOMP_RET_KILL_PROCESS, 0);
        syscall(SYS_getppid);
        _exit(0);
    }
    report_child(pid);
}

static void *call_getppid(void *arg)
{
    (void)arg;
    syscall(SYS_getppid);
    return (void *)1;
}

static void kill_thread(void)
{
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    show("install", install(SYS_getppid, SECCOMP_RET_KILL_THREAD, 0));
    pthread_t th;
    pthread_create(&th, NULL, call_getppid, NULL);
    void *ret = NULL;
    pthread_join(th, &ret);
    printf("thread joined, returned: %d\n", ret != NULL);
    /* the last thread: the process ends by SIGSYS */
    pid_t pid = fork();
    if (pid == 0) {
        syscall(SYS_getppid);
        _exit(0);
    }
    report_child(pid);
}

static volatile int go, filtered;

static void *wait_then_call(void *arg)
{
    (void)arg;
    while (!go)
        sched_yield();
    filtered = syscall(SYS_getppid) == -1 && errno == EACCES;
    return NULL;
}

static void tsync(void)
{
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    pthread_t th;
    pthread_create(&th, NULL, wait_then_call, NULL);
    show("install tsync", install(SYS_getppid, SECCOMP_RET_ERRNO | EACCES, SECCOMP_FILTER_FLAG_TSYNC));
    go = 1;
    pthread_join(th, NULL);
    printf("other thread filtered: %d\n", filtered);
}

static void strict(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        show("set strict", prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT, 0, 0, 0));
        static const char line[] = "write in strict mode\n";
        fflush(stdout);
        syscall(SYS_write, 1, line, sizeof line - 1);
        syscall(SYS_getpid);
        syscall(SYS_exit, 0);
    }
    report_child(pid);
}

static long load(struct sock_filter *f, unsigned short len)
{
    struct sock_fprog prog = {len, f};
    return sys_seccomp(SECCOMP_SET_MODE_FILTER, 0, &prog);
}

static void errors(void)
{
    struct sock_filter ok[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
    pid_t pid = fork();
    if (pid == 0) {
        if (setuid(65534) != 0)
            _exit(1);
        show("non-root without nnp", load(ok, 1));
        _exit(0);
    }
    child_status(pid);
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    show("bad op", sys_seccomp(7, 0, NULL));
    show("strict with flags", sys_seccomp(SECCOMP_SET_MODE_STRICT, 1, NULL));
    show("unknown flag", sys_seccomp(SECCOMP_SET_MODE_FILTER, 64, NULL));
    show("bad pointer", sys_seccomp(SECCOMP_SET_MODE_FILTER, 0, (void *)16));
    show("length 0", load(ok, 0));
    show("length 4097", load(ok, 4097));
    struct sock_filter no_ret[] = {BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0)};
    show("no return", load(no_ret, 1));
    struct sock_filter far[] = {BPF_JUMP(BPF_JMP | BPF_JA, 1, 0, 0),
                                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
    show("jump past the end", load(far, 2));
    struct sock_filter beyond[] = {BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 64),
                                   BPF_STMT(BPF_RET | BPF_A, 0)};
    show("load at 64", load(beyond, 2));
    struct sock_filter unaligned[] = {BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 2),
                                      BPF_STMT(BPF_RET | BPF_A, 0)};
    show("load at 2", load(unaligned, 2));
    struct sock_filter byte[] = {BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 0),
                                 BPF_STMT(BPF_RET | BPF_A, 0)};
    show("byte load", load(byte, 2));
    struct sock_filter unset[] = {BPF_STMT(BPF_LD | BPF_MEM, 0), BPF_STMT(BPF_RET | BPF_A, 0)};
    show("scratch read before write", load(unset, 2));
    struct sock_filter div0[] = {BPF_STMT(BPF_ALU | BPF_DIV | BPF_K, 0),
                                 BPF_STMT(BPF_RET | BPF_A, 0)};
    show("divide by constant 0", load(div0, 2));
    struct sock_filter stored[] = {BPF_STMT(BPF_LD | BPF_W | BPF_LEN, 0), BPF_STMT(BPF_ST, 3),
                                   BPF_STMT(BPF_LDX | BPF_MEM, 3), BPF_STMT(BPF_MISC | BPF_TXA, 0),
                                   BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 64, 1, 0),
                                   BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
                                   BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
    show("len, store, load, compare", load(stored, LEN(stored)));
    unsigned action = SECCOMP_RET_LOG;
    show("action log available", sys_seccomp(SECCOMP_GET_ACTION_AVAIL, 0, &action));
    action = 0x12340000;
    show("action 0x12340000 available", sys_seccomp(SECCOMP_GET_ACTION_AVAIL, 0, &action));
    struct seccomp_notif_sizes sizes;
    show("notif sizes", sys_seccomp(SECCOMP_GET_NOTIF_SIZES, 0, &sizes));
    printf("sizes: %u %u %u\n", sizes.seccomp_notif, sizes.seccomp_notif_resp,
           sizes.seccomp_data);
    show("prctl set seccomp 3", prctl(PR_SET_SECCOMP, 3, 0, 0, 0));
    show("prctl strict after filter", prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT, 0, 0, 0));
}

/* ---- prctl's own settings ---- */

static volatile int pdeath_sig;

static void on_usr1(int sig)
{
    pdeath_sig = sig;
}

static void pdeath(void)
{
    show("set pdeathsig 65", prctl(PR_SET_PDEATHSIG, 65, 0, 0, 0));
    int fds[2];
    if (pipe(fds) != 0)
        return;
    pid_t mid = fork();
    if (mid == 0) {
        pid_t leaf = fork();
        if (leaf == 0) {
            signal(SIGUSR1, on_usr1);
            prctl(PR_SET_PDEATHSIG, SIGUSR1, 0, 0, 0);
            int got = 0;
            prctl(PR_GET_PDEATHSIG, &got, 0, 0, 0);
            char c = 'r';
            write(fds[1], &c, 1);
            while (!pdeath_sig)
                usleep(1000);
            char line[64];
            int n = snprintf(line, sizeof line, "leaf: pdeathsig %d, got %s, parent is %s\n", got,
                             sigabbrev_np(pdeath_sig), getppid() == 1 ? "init" : "not init");
            write(fds[1], line, (size_t)n);
            _exit(0);
        }
        char c;
        read(fds[0], &c, 1);
        _exit(0); /* the leaf's parent ends: its pdeath signal comes */
    }
    close(fds[1]);
    child_status(mid);
    char buf[128] = {0};
    ssize_t n = read(fds[0], buf, sizeof buf - 1);
    if (n > 0)
        fputs(buf, stdout);
}

/* Runs in a child of pid 1 (init, which adopts orphans anyway). */
static void subreaper_in_child(void)
{
    int on = -1;
    prctl(PR_GET_CHILD_SUBREAPER, &on, 0, 0, 0);
    printf("subreaper before: %d\n", on);
    show("set subreaper", prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0));
    prctl(PR_GET_CHILD_SUBREAPER, &on, 0, 0, 0);
    printf("subreaper after: %d\n", on);
    int fds[2];
    if (pipe(fds) != 0)
        return;
    pid_t mid = fork();
    if (mid == 0) {
        if (fork() == 0) {
            close(fds[0]);
            usleep(20000); /* its parent has ended by now */
            pid_t ppid = getppid();
            write(fds[1], &ppid, sizeof ppid);
            _exit(0);
        }
        _exit(0);
    }
    close(fds[1]);
    child_status(mid);
    pid_t ppid = 0;
    read(fds[0], &ppid, sizeof ppid);
    printf("orphan's new parent is the subreaper: %d\n", ppid == getpid());
    printf("subreaper reaps it: %d\n", wait(NULL) > 0);
}

static void subreaper(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        subreaper_in_child();
        _exit(0);
    }
    child_status(pid);
}

static void settings(void)
{
    show("get dumpable", prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
    show("set dumpable 2", prctl(PR_SET_DUMPABLE, 2, 0, 0, 0));
    show("set dumpable 0", prctl(PR_SET_DUMPABLE, 0, 0, 0, 0));
    show("get dumpable", prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
    show("get timerslack", prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0));
    show("set timerslack", prctl(PR_SET_TIMERSLACK, 1000, 0, 0, 0));
    show("get timerslack", prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0));
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_TIMERSLACK, 0, 0, 0, 0); /* back to the parent's at fork */
        _exit(prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0) == 1000);
    }
    report_child(pid);
    show("get thp disable", prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0));
    show("set thp disable", prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0));
    show("get thp disable", prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0));
    show("mce kill get", prctl(PR_MCE_KILL_GET, 0, 0, 0, 0));
    show("mce kill set early", prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 0, 0));
    show("mce kill get", prctl(PR_MCE_KILL_GET, 0, 0, 0, 0));
    show("mce kill set 7", prctl(PR_MCE_KILL, PR_MCE_KILL_SET, 7, 0, 0));
    show("timing", prctl(PR_GET_TIMING, 0, 0, 0, 0));
    show("set timing 1", prctl(PR_SET_TIMING, 1, 0, 0, 0));
    show("perf events disable", prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
    show("ptracer any", prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0));
    show("ptracer 99999", prctl(PR_SET_PTRACER, 99999, 0, 0, 0));
    show("speculation store bypass", prctl(PR_GET_SPECULATION_CTRL, PR_SPEC_STORE_BYPASS, 0, 0, 0));
    show("speculation 9", prctl(PR_GET_SPECULATION_CTRL, 9, 0, 0, 0));
    show("unaligned", prctl(PR_SET_UNALIGN, 0, 0, 0, 0));
    show("unknown option 1000", prctl(1000, 0, 0, 0, 0));
    uint64_t tid_address = 1;
    show("get tid address", prctl(PR_GET_TID_ADDRESS, &tid_address, 0, 0, 0));
    printf("tid address set: %d\n", tid_address != 1);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } cases[] = {
        {"nnp", nnp},         {"errno", errno_action}, {"trap", trap},
        {"kill", kill_process}, {"kill-thread", kill_thread}, {"tsync", tsync},
        {"strict", strict},   {"errors", errors},      {"pdeath", pdeath},
        {"subreaper", subreaper}, {"settings", settings},
    };
    setvbuf(stdout, NULL, _IONBF, 0);
    for (unsigned i = 0; argc > 1 && i < LEN(cases); i++)
        if (strcmp(argv[1], cases[i].name) == 0) {
            cases[i].run();
            return 0;
        }
    fprintf(stderr, "usage: seccomp CASE\n");
    return 2;
}
