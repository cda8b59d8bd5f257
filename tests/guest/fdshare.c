/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fdshare.c - a descriptor table two processes share (clone(CLONE_FILES)
 * without CLONE_VM): execve gives the exec'ing process a private copy
 * before it closes the close-on-exec descriptors, and close_range with
 * CLOSE_RANGE_UNSHARE copies before it closes or marks; the other process
 * keeps its descriptors and sees nothing the copy does. Without the flag
 * a close is seen by both. */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define CLOSE_RANGE_UNSHARE_FLAG 2
#define CLOSE_RANGE_CLOEXEC_FLAG 4
#define UNSHARED_FD 50 /* a descriptor the unshared copy opens: not in the shared table */

static void show_fd(const char *who, int fd)
{
    int r = fcntl(fd, F_GETFD);
    if (r < 0)
        printf("%s: fd %d %s\n", who, fd, err_name(errno));
    else
        printf("%s: fd %d open, FD_CLOEXEC %d\n", who, fd, r & FD_CLOEXEC);
}

/* A child that shares this process's descriptor table (not its memory). */
static pid_t clone_files(void)
{
    fflush(stdout);
    return (pid_t)syscall(SYS_clone, CLONE_FILES | SIGCHLD, 0, 0, 0, 0);
}

static void reap(const char *what, pid_t pid)
{
    int status = 0;
    pid_t r = waitpid(pid, &status, 0);
    printf("%s: reaped %s, exit %d\n", what, r == pid ? "it" : "?", WEXITSTATUS(status));
}

/* The image the child execs: what its new table holds. */
static int after_exec(int cloexec_fd, int kept_fd)
{
    show_fd("exec'd child, the close-on-exec one", cloexec_fd);
    show_fd("exec'd child, the kept one", kept_fd);
    printf("exec'd child: dup2 to %d: %d\n", UNSHARED_FD, dup2(kept_fd, UNSHARED_FD));
    return 3;
}

static void exec_case(const char *self)
{
    int cloexec_fd = open("/dev/null", O_RDONLY), kept_fd = open("/dev/null", O_RDONLY);
    pid_t pid = clone_files();
    if (pid == 0) {
        fcntl(cloexec_fd, F_SETFD, FD_CLOEXEC);
        char a[16], b[16];
        snprintf(a, sizeof a, "%d", cloexec_fd);
        snprintf(b, sizeof b, "%d", kept_fd);
        execl(self, self, "after-exec", a, b, (char *)NULL);
        _exit(99);
    }
    reap("exec", pid);
    show_fd("parent after the child's exec, the close-on-exec one", cloexec_fd);
    show_fd("parent after the child's exec, the kept one", kept_fd);
    show_fd("parent after the child's exec, the child's new one", UNSHARED_FD);
    close(cloexec_fd);
    close(kept_fd);
}

static void close_range_case(const char *what, unsigned flags)
{
    int first = open("/dev/null", O_RDONLY), last = open("/dev/null", O_RDONLY);
    pid_t pid = clone_files();
    if (pid == 0) {
        long r = syscall(SYS_close_range, first, last, flags);
        printf("%s child: close_range: %ld\n", what, r);
        show_fd("  child", first);
        printf("  child: dup2 to %d: %d\n", UNSHARED_FD, dup2(0, UNSHARED_FD));
        fflush(stdout);
        _exit(0);
    }
    reap(what, pid);
    show_fd("  parent", first);
    show_fd("  parent", last);
    show_fd("  parent", UNSHARED_FD);
    close(UNSHARED_FD);
    close(first);
    close(last);
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "after-exec") == 0)
        return after_exec(atoi(argv[2]), atoi(argv[3]));
    exec_case(argv[0]);
    close_range_case("shared", 0);
    close_range_case("unshare", CLOSE_RANGE_UNSHARE_FLAG);
    close_range_case("unshare+cloexec", CLOSE_RANGE_UNSHARE_FLAG | CLOSE_RANGE_CLOEXEC_FLAG);
    return 0;
}
