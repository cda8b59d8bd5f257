/* SPDX-License-Identifier: GPL-2.0-or-later */
/* flocks.c - advisory locks between processes: flock (per open file
 * description) and fcntl record locks (per process, dropped at any close
 * and at exit), their errors, and a blocked lock a signal interrupts: EINTR
 * without SA_RESTART, waited on with it (proc.cmake). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

#define PATH "/tmp/flocks-file"

static void show(const char *what, long r)
{
    if (r < 0)
        printf("%s = -1 %s\n", what, err_name(errno));
    else
        printf("%s = %ld\n", what, r);
}

static void on_alarm(int sig)
{
    (void)sig;
}

/* SIGALRM in 50 ms, with or without SA_RESTART. */
static void alarm_soon(int flags)
{
    struct sigaction sa = {.sa_handler = on_alarm, .sa_flags = flags};
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {.it_value = {0, 50000}};
    setitimer(ITIMER_REAL, &it, NULL);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A child that takes a lock with lock(), says so on the pipe, holds it
 * 300 ms and exits. */
static pid_t holder(void (*lock)(int fd))
{
    int p[2];
    pipe(p);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(PATH, O_RDWR);
        lock(fd);
        write(p[1], "x", 1);
        struct timespec ts = {0, 300000000};
        nanosleep(&ts, NULL);
        _exit(0);
    }
    char c;
    read(p[0], &c, 1);
    close(p[0]);
    close(p[1]);
    return pid;
}

static void flock_ex(int fd)
{
    flock(fd, LOCK_EX);
}

static void fcntl_first_ten(int fd)
{
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 10};
    fcntl(fd, F_SETLK, &fl);
}

static long setlk(int fd, int cmd, short type, off_t start, off_t len)
{
    struct flock fl = {.l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len};
    return fcntl(fd, cmd, &fl);
}

int main(void)
{
    int fd = open(PATH, O_RDWR | O_CREAT | O_TRUNC, 0600);
    double t0;

    printf("-- flock\n");
    pid_t child = holder(flock_ex);
    show("flock(LOCK_EX|LOCK_NB) held by the child", flock(fd, LOCK_EX | LOCK_NB));
    show("flock(LOCK_SH|LOCK_NB) held by the child", flock(fd, LOCK_SH | LOCK_NB));
    alarm_soon(0);
    show("flock(LOCK_EX), SIGALRM without SA_RESTART", flock(fd, LOCK_EX));
    alarm_soon(SA_RESTART);
    t0 = now();
    show("flock(LOCK_EX), SIGALRM with SA_RESTART", flock(fd, LOCK_EX));
    printf("waited until the child exited: %s\n", now() - t0 >= 0.2 ? "yes" : "no");
    waitpid(child, NULL, 0);
    int other = open(PATH, O_RDONLY);
    show("flock(other description, LOCK_SH|LOCK_NB)", flock(other, LOCK_SH | LOCK_NB));
    show("flock(dup, LOCK_EX|LOCK_NB), same description", flock(dup(fd), LOCK_EX | LOCK_NB));
    show("flock(LOCK_UN)", flock(fd, LOCK_UN));
    show("flock(other description, LOCK_EX|LOCK_NB)", flock(other, LOCK_EX | LOCK_NB));
    close(other);
    show("flock(LOCK_EX|LOCK_NB) after the other closed", flock(fd, LOCK_EX | LOCK_NB));
    show("flock(fd, 0)", flock(fd, 0));
    show("flock(O_PATH)", flock(open(PATH, O_PATH), LOCK_SH));
    flock(fd, LOCK_UN);

    printf("-- fcntl\n");
    child = holder(fcntl_first_ten);
    struct flock fl = {.l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 5, .l_len = 1};
    fcntl(fd, F_GETLK, &fl);
    printf("F_GETLK [5]: %s start %ld len %ld pid is the child: %s\n",
           fl.l_type == F_WRLCK ? "F_WRLCK" : "?", (long)fl.l_start, (long)fl.l_len,
           fl.l_pid == child ? "yes" : "no");
    show("F_SETLK F_RDLCK [0, 10)", setlk(fd, F_SETLK, F_RDLCK, 0, 10));
    show("F_SETLK F_WRLCK [10, 20)", setlk(fd, F_SETLK, F_WRLCK, 10, 10));
    show("lockf(F_TEST, 5) from 0", lockf(fd, F_TEST, 5));
    alarm_soon(0);
    show("F_SETLKW [9], SIGALRM without SA_RESTART", setlk(fd, F_SETLKW, F_WRLCK, 9, 1));
    alarm_soon(SA_RESTART);
    t0 = now();
    show("F_SETLKW [9], SIGALRM with SA_RESTART", setlk(fd, F_SETLKW, F_WRLCK, 9, 1));
    printf("waited until the child exited: %s\n", now() - t0 >= 0.2 ? "yes" : "no");
    waitpid(child, NULL, 0);

    /* The parent's locks: [9, 20) now; any close of the file drops them. */
    fflush(stdout);
    child = fork();
    if (child == 0) {
        struct flock g = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
        int cfd = open(PATH, O_RDWR);
        fcntl(cfd, F_GETLK, &g);
        printf("child F_GETLK whole file: %s start %ld len %ld\n",
               g.l_type == F_WRLCK ? "F_WRLCK" : g.l_type == F_UNLCK ? "F_UNLCK" : "?",
               (long)g.l_start, (long)g.l_len);
        fflush(stdout);
        _exit(0);
    }
    waitpid(child, NULL, 0);
    close(open(PATH, O_RDONLY));
    fflush(stdout);
    child = fork();
    if (child == 0) {
        int cfd = open(PATH, O_RDWR);
        show("child F_SETLK whole file after the parent closed another descriptor",
             setlk(cfd, F_SETLK, F_WRLCK, 0, 0));
        fflush(stdout);
        _exit(0);
    }
    waitpid(child, NULL, 0);

    int ro = open(PATH, O_RDONLY), wo = open(PATH, O_WRONLY);
    show("F_SETLK F_WRLCK on a read-only descriptor", setlk(ro, F_SETLK, F_WRLCK, 0, 1));
    show("F_SETLK F_RDLCK on a write-only descriptor", setlk(wo, F_SETLK, F_RDLCK, 0, 1));
    show("F_SETLK type 7", setlk(fd, F_SETLK, 7, 0, 1));
    show("F_GETLK F_UNLCK", setlk(fd, F_GETLK, F_UNLCK, 0, 1));
    show("F_SETLK start -1", setlk(fd, F_SETLK, F_WRLCK, -1, 1));
    show("F_SETLK len -2 at 1", setlk(fd, F_SETLK, F_WRLCK, 1, -2));
    struct flock ofd = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_pid = 1};
    show("F_OFD_SETLK with l_pid 1", fcntl(fd, F_OFD_SETLK, &ofd));
    ofd.l_pid = 0;
    show("F_OFD_SETLK", fcntl(fd, F_OFD_SETLK, &ofd));
    show("F_OFD_SETLK, another description", fcntl(wo, F_OFD_SETLK, &ofd));
    show("F_SETLK, the same process: POSIX locks meet OFD ones", setlk(fd, F_SETLK, F_WRLCK, 0, 1));
    unlink(PATH);
    return 0;
}
