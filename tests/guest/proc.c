/* SPDX-License-Identifier: GPL-2.0-or-later */
/* proc.c - processes: fork, vfork, wait4/waitid statuses, pids, process
 * groups, stop/continue, and forking until the process limit. The first
 * argument names the case; children only _exit, so every line comes from
 * the parent after the child it reports on has been reaped, in a fixed order.
 *
 *   wait N        N children exit 11, 21, ...; a child killed by SIGKILL,
 *                 one by abort(); waitid, WNOHANG, ECHILD
 *   pids N        pids and ppids of the parent and N children, one at a time
 *   vfork PROG    vfork + _exit, vfork + execv(PROG, 9)
 *   pgrp          setpgid/getpgid/setsid in children, kill(-pgid)
 *   stop          SIGSTOP/SIGCONT seen through WUNTRACED/WCONTINUED
 *   maxprocs      forks until fork fails; prints the errno and the count
 *   fresh N       N rounds: the parent writes over mappings and unmaps
 *                 them, a child maps the same sizes and finds them all zero
 *                 (asymu reuses the host memory of ended mappings, and of
 *                 ended children: hostblock.h); then the parent does too */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

#define MAX_CHILDREN 64

/* "exited N", "killed by N", "stopped by N" or "continued" for a status. */
static const char *describe(int status)
{
    static char buf[64];
    if (WIFEXITED(status))
        snprintf(buf, sizeof buf, "exited %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(buf, sizeof buf, "killed by %d", WTERMSIG(status));
    else if (WIFSTOPPED(status))
        snprintf(buf, sizeof buf, "stopped by %d", WSTOPSIG(status));
    else if (WIFCONTINUED(status))
        snprintf(buf, sizeof buf, "continued");
    else
        snprintf(buf, sizeof buf, "unknown %#x", status);
    return buf;
}

static pid_t fork_or_die(void)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        printf("fork failed: %s\n", err_name(errno));
        exit(1);
    }
    return pid;
}

static int wait_status(pid_t pid, int options)
{
    int status = 0;
    pid_t r = waitpid(pid, &status, options);
    if (r != pid) {
        printf("waitpid(%d) returned %d (%s)\n", (int)pid, (int)r, err_name(errno));
        exit(1);
    }
    return status;
}

static int run_wait(int n)
{
    pid_t parent = getpid();
    pid_t pids[MAX_CHILDREN];
    for (int i = 0; i < n; i++) {
        pids[i] = fork_or_die();
        if (pids[i] == 0)
            _exit(getppid() == parent ? 10 * (i + 1) + 1 : 99);
    }
    /* Reap in reverse order: each status belongs to its own pid. */
    for (int i = n - 1; i >= 0; i--)
        printf("child %d %s\n", i, describe(wait_status(pids[i], 0)));

    pid_t sleeper = fork_or_die();
    if (sleeper == 0) {
        for (;;)
            pause();
    }
    int status;
    printf("WNOHANG while it runs: %d\n", (int)waitpid(-1, &status, WNOHANG));
    kill(sleeper, SIGKILL);
    status = wait_status(sleeper, 0);
    printf("sleeper %s, WIFSIGNALED %d, WTERMSIG %d\n", describe(status), WIFSIGNALED(status),
           WIFSIGNALED(status) ? WTERMSIG(status) : -1);

    pid_t aborter = fork_or_die();
    if (aborter == 0)
        abort();
    printf("aborter %s\n", describe(wait_status(aborter, 0) & 0xff7f)); /* no core flag */

    pid_t waited = fork_or_die();
    if (waited == 0)
        _exit(3);
    siginfo_t info;
    memset(&info, 0, sizeof info);
    int r = waitid(P_PID, waited, &info, WEXITED);
    printf("waitid %d si_signo %d si_code %d si_status %d si_pid matches %s\n", r, info.si_signo,
           info.si_code, info.si_status, info.si_pid == waited ? "yes" : "no");

    errno = 0;
    r = wait(&status);
    printf("wait with no children: %d %s\n", r, err_name(errno));
    return 0;
}

static int run_pids(int n)
{
    printf("parent pid %d ppid %d\n", (int)getpid(), (int)getppid());
    for (int i = 0; i < n; i++) {
        pid_t pid = fork_or_die();
        if (pid == 0) {
            printf("child %d pid %d ppid %d\n", i, (int)getpid(), (int)getppid());
            fflush(stdout);
            _exit(0);
        }
        wait_status(pid, 0);
        printf("forked %d\n", (int)pid);
    }
    return 0;
}

static int run_vfork(const char *prog)
{
    volatile int touched = 0;
    pid_t pid = vfork();
    if (pid == 0) {
        touched = 1; /* the parent's memory: vfork shares it */
        _exit(5);
    }
    printf("vfork child %s, shared write seen %s\n", describe(wait_status(pid, 0)),
           touched ? "yes" : "no");
    pid = vfork();
    if (pid == 0) {
        execl(prog, prog, "9", (char *)NULL);
        _exit(127);
    }
    printf("vfork+exec child %s\n", describe(wait_status(pid, 0)));
    return 0;
}

static int run_pgrp(void)
{
    pid_t pid = fork_or_die();
    if (pid == 0) {
        if (setpgid(0, 0) != 0)
            _exit(1);
        if (getpgid(0) != getpid() || getpgrp() != getpid())
            _exit(2);
        errno = 0;
        if (setsid() != -1 || errno != EPERM) /* a group leader cannot */
            _exit(3);
        _exit(0);
    }
    printf("setpgid child %s\n", describe(wait_status(pid, 0)));

    pid = fork_or_die();
    if (pid == 0) {
        pid_t sid = setsid();
        _exit(sid == getpid() && getsid(0) == getpid() && getpgid(0) == getpid() ? 0 : 1);
    }
    printf("setsid child %s\n", describe(wait_status(pid, 0)));

    int ready[2];
    if (pipe(ready) != 0)
        return 1;
    pid = fork_or_die();
    if (pid == 0) {
        setpgid(0, 0);
        close(ready[0]);
        close(ready[1]); /* EOF tells the parent the group exists */
        for (;;)
            pause();
    }
    close(ready[1]);
    char c;
    read(ready[0], &c, 1);
    printf("kill(-pgid) %d\n", kill(-pid, SIGTERM));
    printf("group member %s\n", describe(wait_status(pid, 0)));
    return 0;
}

static int run_stop(void)
{
    pid_t pid = fork_or_die();
    if (pid == 0) {
        for (;;)
            pause();
    }
    kill(pid, SIGSTOP);
    printf("after SIGSTOP: %s\n", describe(wait_status(pid, WUNTRACED)));
    kill(pid, SIGCONT);
    printf("after SIGCONT: %s\n", describe(wait_status(pid, WCONTINUED)));
    kill(pid, SIGTERM);
    printf("after SIGTERM: %s\n", describe(wait_status(pid, 0)));
    return 0;
}

static int run_maxprocs(void)
{
    int hold[2];
    if (pipe(hold) != 0)
        return 1;
    int forks = 0;
    pid_t pids[MAX_CHILDREN];
    for (;;) {
        if (forks == MAX_CHILDREN) {
            printf("no limit after %d forks\n", forks);
            break;
        }
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
            printf("fork %d failed: %s\n", forks + 1, err_name(errno));
            break;
        }
        if (pid == 0) {
            char c;
            close(hold[1]);
            _exit(read(hold[0], &c, 1) == 0 ? 0 : 1); /* lives until the parent closes */
        }
        pids[forks++] = pid;
    }
    printf("successful forks %d\n", forks);
    close(hold[1]);
    int clean = 0;
    for (int i = 0; i < forks; i++)
        clean += wait_status(pids[i], 0) == 0;
    printf("reaped %d cleanly\n", clean);

    pid_t again = fork_or_die();
    if (again == 0)
        _exit(0);
    printf("fork after reaping %s\n", describe(wait_status(again, 0)));
    return 0;
}

static const size_t fresh_sizes[] = {4096, 65536, 512 * 1024, 3 * 1024 * 1024};
#define FRESH_KINDS (sizeof fresh_sizes / sizeof fresh_sizes[0])

/* Maps every size and counts the mappings that are not all zero; writes
 * over them with fill, and unmaps them when told to. */
static int map_dirty(unsigned char fill, int unmap)
{
    int dirty = 0;
    for (unsigned k = 0; k < FRESH_KINDS; k++) {
        size_t len = fresh_sizes[k];
        unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return -1;
        for (size_t i = 0; i < len; i++)
            if (p[i]) {
                dirty++;
                break;
            }
        memset(p, fill, len);
        if (unmap)
            munmap(p, len);
    }
    return dirty;
}

static int run_fresh(int n)
{
    for (int round = 0; round < n; round++) {
        map_dirty((unsigned char)(0xa5 + round), 1);
        pid_t pid = fork_or_die();
        if (pid == 0)
            _exit(map_dirty(0x5a, 0)); /* left mapped: they end with the child */
        /* The child's exit status is the count of mappings not zero. */
        printf("round %d: child %s\n", round, describe(wait_status(pid, 0)));
    }
    printf("parent: %d mappings not zero\n", map_dirty(0x3c, 1));
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int n = argc > 2 ? atoi(argv[2]) : 0;
    if (n < 0 || n > MAX_CHILDREN)
        n = MAX_CHILDREN;
    if (strcmp(mode, "wait") == 0)
        return run_wait(n);
    if (strcmp(mode, "pids") == 0)
        return run_pids(n);
    if (strcmp(mode, "vfork") == 0 && argc > 2)
        return run_vfork(argv[2]);
    if (strcmp(mode, "pgrp") == 0)
        return run_pgrp();
    if (strcmp(mode, "stop") == 0)
        return run_stop();
    if (strcmp(mode, "maxprocs") == 0)
        return run_maxprocs();
    if (strcmp(mode, "fresh") == 0)
        return run_fresh(n);
    printf("usage: proc wait N | pids N | vfork PROG | pgrp | stop | maxprocs | fresh N\n");
    return 2;
}
