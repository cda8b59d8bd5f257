/* SPDX-License-Identifier: GPL-2.0-or-later */
/* procmisc.c - ioprio, kcmp, process_madvise and process_mrelease
 * (emu/kernel/ioprio.c, emu/kernel/kcmp.c, emu/mm/process_mm.c), one
 * case per run (argv[1]):
 *   ioprio   the value of a task that never set one (IOPRIO_CLASS_NONE,
 *            IOPRIO_NORM: 4), classes and levels, EPERM for RT and for
 *            another user's task when not root, PGRP and USER (the best
 *            of the group), what a child inherits
 *   kcmp     same (0) or not (non-zero) for files, VM, FILES, FS,
 *            SIGHAND, IO, SYSVSEM and an epoll target, between a process,
 *            its thread and a child
 *   pidfd    process_madvise (MADV_COLD and MADV_PAGEOUT only, bytes
 *            advised, ENOMEM for a hole) and process_mrelease (EINVAL for
 *            a process that is not exiting, ESRCH once it is gone) */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/sem.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_WHO_PGRP 2
#define IOPRIO_WHO_USER 3
#define PRIO(c, d) ((c) << 13 | (d))

#define KCMP_FILE 0
#define KCMP_VM 1
#define KCMP_FILES 2
#define KCMP_FS 3
#define KCMP_SIGHAND 4
#define KCMP_IO 5
#define KCMP_SYSVSEM 6
#define KCMP_EPOLL_TFD 7

#ifndef SYS_process_madvise
#define SYS_process_madvise 440
#endif
#ifndef SYS_process_mrelease
#define SYS_process_mrelease 448
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

/* The result or the errno name; four buffers in turn, for one printf. */
static const char *res(long r)
{
    static char buf[4][32];
    static int next;
    if (r < 0)
        return err_name(errno);
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "%ld", r);
    return b;
}

static long ioget(int which, int who) { return syscall(SYS_ioprio_get, which, who); }
static long ioset(int which, int who, int prio) { return syscall(SYS_ioprio_set, which, who, prio); }

static void case_ioprio(void)
{
    printf("fresh: %s\n", res(ioget(IOPRIO_WHO_PROCESS, 0)));
    pid_t sleeper = fork();
    if (sleeper == 0) {
        pause();
        _exit(0);
    }
    static const struct {
        const char *name;
        int prio;
    } sets[] = {{"BE 7", PRIO(2, 7)}, {"BE 8", PRIO(2, 8)}, {"IDLE", PRIO(3, 0)},
                {"IDLE 5", PRIO(3, 5)}, {"NONE 1", PRIO(0, 1)}, {"class 4", PRIO(4, 0)},
                {"negative", -1}, {"NONE 0", 0}, {"RT 0", PRIO(1, 0)}, {"BE 3", PRIO(2, 3)}};
    for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) {
        const char *r = res(ioset(IOPRIO_WHO_PROCESS, 0, sets[i].prio));
        printf("set %s: %s, get %s\n", sets[i].name, r, res(ioget(IOPRIO_WHO_PROCESS, 0)));
    }
    printf("which 0: set %s", res(ioset(0, 0, 0)));
    printf(" get %s\n", res(ioget(0, 0)));
    printf("pid 99999: set %s", res(ioset(IOPRIO_WHO_PROCESS, 99999, PRIO(2, 1))));
    printf(" get %s\n", res(ioget(IOPRIO_WHO_PROCESS, 99999)));
    printf("sleeper (forked before): %s\n", res(ioget(IOPRIO_WHO_PROCESS, sleeper)));
    printf("set sleeper IDLE: %s", res(ioset(IOPRIO_WHO_PROCESS, sleeper, PRIO(3, 0))));
    printf(", get %s\n", res(ioget(IOPRIO_WHO_PROCESS, sleeper)));
    /* the group: this process BE 3, the sleeper IDLE: the best is BE 3 */
    printf("pgrp: %s\n", res(ioget(IOPRIO_WHO_PGRP, 0)));
    printf("user 0: %s\n", res(ioget(IOPRIO_WHO_USER, 0)));
    printf("user 4242: %s\n", res(ioget(IOPRIO_WHO_USER, 4242)));
    printf("set pgrp BE 6: %s", res(ioset(IOPRIO_WHO_PGRP, 0, PRIO(2, 6))));
    printf(", get self %s", res(ioget(IOPRIO_WHO_PROCESS, 0)));
    printf(", sleeper %s\n", res(ioget(IOPRIO_WHO_PROCESS, sleeper)));
    pid_t pid = fork();
    if (pid == 0) {
        printf("child inherits: %s\n", res(ioget(IOPRIO_WHO_PROCESS, 0)));
        ioset(IOPRIO_WHO_PROCESS, 0, 0);
        pid_t g = fork();
        if (g == 0) {
            printf("grandchild of NONE 0: %s\n", res(ioget(IOPRIO_WHO_PROCESS, 0)));
            _exit(0);
        }
        waitpid(g, NULL, 0);
        if (setuid(1000) != 0)
            _exit(1);
        printf("user: set RT: %s\n", res(ioset(IOPRIO_WHO_PROCESS, 0, PRIO(1, 0))));
        printf("user: set own BE 7: %s\n", res(ioset(IOPRIO_WHO_PROCESS, 0, PRIO(2, 7))));
        printf("user: set root's: %s\n", res(ioset(IOPRIO_WHO_PROCESS, getppid(), PRIO(2, 7))));
        printf("user: get root's: %s\n", res(ioget(IOPRIO_WHO_PROCESS, getppid())));
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    kill(sleeper, SIGKILL);
    waitpid(sleeper, NULL, 0);
}

static void *idle_thread(void *arg)
{
    pause();
    return arg;
}

static const char *same(long r)
{
    return r < 0 ? err_name(errno) : r == 0 ? "same" : r <= 3 ? "different" : "?";
}

static long kcmp(pid_t a, pid_t b, int type, unsigned long i1, unsigned long i2)
{
    return syscall(SYS_kcmp, a, b, type, i1, i2);
}

static void case_kcmp(void)
{
    pid_t me = getpid();
    int fd = open("/dev/null", O_RDONLY);
    int dup_fd = dup(fd);
    int other = open("/dev/null", O_RDONLY);
    printf("FILE fd, fd: %s\n", same(kcmp(me, me, KCMP_FILE, fd, fd)));
    printf("FILE fd, dup: %s\n", same(kcmp(me, me, KCMP_FILE, fd, dup_fd)));
    printf("FILE fd, other open: %s\n", same(kcmp(me, me, KCMP_FILE, fd, other)));
    printf("FILE closed fd: %s\n", same(kcmp(me, me, KCMP_FILE, fd, 999)));
    static const char *const names[] = {"FILE", "VM", "FILES", "FS", "SIGHAND", "IO", "SYSVSEM"};
    pthread_t th;
    pthread_create(&th, NULL, idle_thread, NULL);
    pid_t tid = 0;
    for (int i = 0; i < 1000 && !tid; i++) {
        /* the thread's tid: the highest in /proc/self/task, the only other */
        char path[64];
        for (pid_t t = me + 1; t < me + 64 && !tid; t++) {
            snprintf(path, sizeof path, "/proc/self/task/%d", t);
            if (access(path, F_OK) == 0)
                tid = t;
        }
    }
    pid_t child = fork();
    if (child == 0) {
        pause();
        _exit(0);
    }
    for (int type = KCMP_VM; type <= KCMP_SYSVSEM; type++)
        printf("%s self/thread %s, self/child %s\n", names[type], same(kcmp(me, tid, type, 0, 0)),
               same(kcmp(me, child, type, 0, 0)));
    printf("FILE self/child fd: %s\n", same(kcmp(me, child, KCMP_FILE, fd, fd)));
    syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, PRIO(2, 1));
    printf("IO after ioprio_set: self/thread %s\n", same(kcmp(me, tid, KCMP_IO, 0, 0)));
    int sem = semget(IPC_PRIVATE, 1, 0600);
    struct sembuf op = {0, 1, SEM_UNDO};
    semop(sem, &op, 1);
    printf("SYSVSEM after SEM_UNDO: self/child %s\n", same(kcmp(me, child, KCMP_SYSVSEM, 0, 0)));
    semctl(sem, 0, IPC_RMID);
    int ep = epoll_create1(0), pipefd[2];
    if (pipe(pipefd) != 0)
        return;
    fd = pipefd[0];
    struct epoll_event ev = {.events = EPOLLIN};
    printf("epoll_ctl: %s\n", res(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev)));
    struct {
        uint32_t efd, tfd;
        uint64_t toff;
    } slot = {(uint32_t)ep, (uint32_t)fd, 0};
    printf("EPOLL_TFD fd: %s\n", same(kcmp(me, me, KCMP_EPOLL_TFD, fd, (unsigned long)&slot)));
    printf("EPOLL_TFD other: %s\n", same(kcmp(me, me, KCMP_EPOLL_TFD, other, (unsigned long)&slot)));
    slot.toff = 1;
    printf("EPOLL_TFD toff 1: %s\n", same(kcmp(me, me, KCMP_EPOLL_TFD, fd, (unsigned long)&slot)));
    slot.toff = 0, slot.efd = (uint32_t)fd;
    printf("EPOLL_TFD not an epoll: %s\n", same(kcmp(me, me, KCMP_EPOLL_TFD, fd, (unsigned long)&slot)));
    printf("EPOLL_TFD bad slot: %s\n", same(kcmp(me, me, KCMP_EPOLL_TFD, fd, 8)));
    printf("type 8: %s\n", same(kcmp(me, me, 8, 0, 0)));
    printf("pid 99999: %s\n", same(kcmp(me, 99999, KCMP_VM, 0, 0)));
    long a = kcmp(me, child, KCMP_VM, 0, 0), b = kcmp(child, me, KCMP_VM, 0, 0);
    printf("order reversed: %s\n", a + b == 3 ? "yes" : "no");
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
}

static void case_pidfd(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memset(p, 1, 4 * pg);
    pid_t child = fork();
    if (child == 0) {
        pause();
        _exit(0);
    }
    int pfd = (int)syscall(SYS_pidfd_open, child, 0);
    struct iovec iov[2] = {{p, 2 * pg}, {p + 2 * pg, pg + 1}};
    for (int adv = 19; adv <= 22; adv++)
        printf("process_madvise advice %d: %s\n", adv,
               res(syscall(SYS_process_madvise, pfd, iov, 2, adv, 0)));
    printf("process_madvise flags 1: %s\n", res(syscall(SYS_process_madvise, pfd, iov, 2, 20, 1)));
    printf("process_madvise not a pidfd: %s\n", res(syscall(SYS_process_madvise, 0, iov, 2, 20, 0)));
    printf("process_madvise vlen 1025: %s\n", res(syscall(SYS_process_madvise, pfd, iov, 1025, 20, 0)));
    printf("process_madvise 0 iovecs: %s\n", res(syscall(SYS_process_madvise, pfd, iov, 0, 20, 0)));
    munmap(p + pg, pg);
    /* the child's copy still has the page; ours has a hole */
    int self = (int)syscall(SYS_pidfd_open, getpid(), 0);
    printf("process_madvise child (no hole): %s\n", res(syscall(SYS_process_madvise, pfd, iov, 2, 21, 0)));
    printf("process_madvise self over a hole: %s\n", res(syscall(SYS_process_madvise, self, iov, 2, 21, 0)));
    struct iovec odd = {p + 1, pg};
    printf("process_madvise misaligned: %s\n", res(syscall(SYS_process_madvise, self, &odd, 1, 20, 0)));
    printf("process_mrelease running child: %s\n", res(syscall(SYS_process_mrelease, pfd, 0)));
    printf("process_mrelease flags 1: %s\n", res(syscall(SYS_process_mrelease, pfd, 1)));
    printf("process_mrelease not a pidfd: %s\n", res(syscall(SYS_process_mrelease, 0, 0)));
    kill(child, SIGKILL);
    siginfo_t si;
    waitid(P_PID, child, &si, WEXITED | WNOWAIT);
    printf("process_mrelease after death: %s\n", res(syscall(SYS_process_mrelease, pfd, 0)));
    printf("process_madvise after death: %s\n", res(syscall(SYS_process_madvise, pfd, iov, 1, 20, 0)));
    waitpid(child, NULL, 0);
}

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "";
    setvbuf(stdout, NULL, _IONBF, 0);
    if (!strcmp(c, "ioprio"))
        case_ioprio();
    else if (!strcmp(c, "kcmp"))
        case_kcmp();
    else if (!strcmp(c, "pidfd"))
        case_pidfd();
    else
        return 2;
    return 0;
}
