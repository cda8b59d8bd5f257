/* SPDX-License-Identifier: GPL-2.0-or-later */
/* creds.c - user and group ids: set*id from root down to an unprivileged
 * user and back by the saved id, setgroups/getgroups, setfs*id, and
 * posix_fadvise's checks (creds.cmake). Each step prints its result; the
 * changes happen in a child, so the same output comes from qemu-user as
 * root on the host kernel. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/fsuid.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <grp.h>
#include <sys/syscall.h>

/* glibc refuses no size itself, but the compiler does: the raw call. */
#ifdef SYS_getgroups32
#define SYS_GETGROUPS SYS_getgroups32
#else
#define SYS_GETGROUPS SYS_getgroups
#endif

#include "guest.h"

static void show(const char *what, int r)
{
    if (r < 0)
        printf("%s = -1 %s\n", what, err_name(errno));
    else
        printf("%s = %d\n", what, r);
}

static void ids(void)
{
    uid_t r, e, s;
    gid_t gr, ge, gs;
    getresuid(&r, &e, &s);
    getresgid(&gr, &ge, &gs);
    printf("  uid %u %u %u fsuid %d, gid %u %u %u fsgid %d; getuid %u geteuid %u getgid %u "
           "getegid %u\n",
           r, e, s, setfsuid(-1), gr, ge, gs, setfsgid(-1), getuid(), geteuid(), getgid(),
           getegid());
}

static void groups(void)
{
    gid_t g[8];
    int n = getgroups(8, g);
    printf("  groups:");
    for (int i = 0; i < n; i++)
        printf(" %u", g[i]);
    printf("\n");
}

static void run_creds(void)
{
    gid_t list[3] = {5, 3, 3}, bad[1] = {(gid_t)-1}, g[3];
    show("setgroups(3, {5,3,3})", setgroups(3, list));
    groups();
    show("getgroups(0, NULL)", getgroups(0, NULL));
    show("getgroups(2, buf)", getgroups(2, g));
    show("getgroups(-1, buf)", (int)syscall(SYS_GETGROUPS, -1, g));
    show("setgroups(65537, list)", setgroups(65537, list));
    show("setgroups(1, {-1})", setgroups(1, bad));
    show("setgroups(1, bad pointer)", setgroups(1, (gid_t *)8));
    show("getresuid(bad pointer)", getresuid((uid_t *)8, (uid_t *)8, (uid_t *)8));

    show("setresgid(10, 20, 30)", setresgid(10, 20, 30));
    ids();
    show("setregid(-1, 40)", setregid(-1, 40));
    ids();
    show("setresuid(100, 200, 0)", setresuid(100, 200, 0));
    ids();
    show("setgroups(0, NULL)", setgroups(0, NULL));
    show("setgid(20)", setgid(20));
    show("setgid(40)", setgid(40));
    ids();
    show("setuid(0)", setuid(0));
    ids();
    show("setreuid(1000, 1001)", setreuid(1000, 1001));
    ids();
    show("setreuid(-1, 1000)", setreuid(-1, 1000));
    ids();
    show("setreuid(5, -1)", setreuid(5, -1));
    show("setuid(1001)", setuid(1001));
    show("setresuid(-1, -1, 1000)", setresuid(-1, -1, 1000));
    ids();
    show("setuid(0)", setuid(0));
    show("setresuid(0, -1, -1)", setresuid(0, -1, -1));
    show("setfsuid(7)", setfsuid(7));
    show("setfsuid(1000)", setfsuid(1000));
    ids();
    show("setuid(-1)", setuid(-1));
    show("setreuid(1000, 1000)", setreuid(1000, 1000));
    ids();
    groups();
}

static void advise(const char *what, int fd, off_t len, int advice)
{
    int e = posix_fadvise(fd, 0, len, advice);
    printf("posix_fadvise(%s) = %s\n", what, e ? err_name(e) : "0");
}

static void run_fadvise(void)
{
    int p[2], sv[2];
    pipe(p);
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    int file = open("/tmp/creds-fadvise", O_RDWR | O_CREAT | O_TRUNC, 0600);
    int path = open("/tmp/creds-fadvise", O_PATH);
    int null = open("/dev/null", O_RDONLY);
    advise("file, DONTNEED", file, 0, POSIX_FADV_DONTNEED);
    advise("file, NOREUSE", file, 4096, POSIX_FADV_NOREUSE);
    advise("file, advice 6", file, 0, 6);
    advise("file, len -1", file, -1, POSIX_FADV_NORMAL);
    advise("pipe, advice 6", p[0], 0, 6);
    advise("pipe, WILLNEED", p[1], 0, POSIX_FADV_WILLNEED);
    advise("socket, SEQUENTIAL", sv[0], 0, POSIX_FADV_SEQUENTIAL);
    advise("/dev/null, RANDOM", null, 0, POSIX_FADV_RANDOM);
    advise("O_PATH", path, 0, POSIX_FADV_NORMAL);
    advise("fd 999", 999, 0, POSIX_FADV_NORMAL);
    advise("fd -1, advice 6", -1, 0, 6);
    unlink("/tmp/creds-fadvise");
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "fadvise")) {
        run_fadvise();
        return 0;
    }
    /* The ids change for good: a child takes them, the parent reports. */
    pid_t pid = fork();
    if (pid == 0) {
        ids();
        run_creds();
        fflush(stdout);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    printf("parent: uid %u euid %u, child status %d\n", getuid(), geteuid(), status);
    return 0;
}
