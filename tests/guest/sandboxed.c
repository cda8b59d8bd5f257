/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sandboxed.c - guest work that makes asymu take the host paths its sandbox
 * (emu/machine/sandbox.c) once refused or changed (issue 24): file
 * metadata in the private /tmp, now changed through a descriptor only
 * (items 1), and calls whose size makes glibc's qsort in asymu ask the host
 * for sysinfo(2) (item 3). Each line prints a call and its result (a value,
 * or the errno name). Subcommands:
 *   meta      chmod, utimensat, setxattr, chown's setuid clearing on a
 *             file, a directory, a fifo, a socket node and a symlink
 *   epoll64   epoll_wait with 64 (then 500) ready items
 *   groups256 setgroups with 256 (then 65536) groups */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "guest.h"

static void show(const char *what, long r)
{
    if (r < 0)
        printf("%s: %s\n", what, err_name(errno));
    else
        printf("%s: %ld\n", what, r);
}

static void mode_of(const char *path)
{
    struct stat st;
    if (lstat(path, &st) < 0)
        printf("  %s: %s\n", path, err_name(errno));
    else
        printf("  %s: mode %04o uid %u mtime %lld.%09ld\n", path, (unsigned)(st.st_mode & 07777),
               (unsigned)st.st_uid, (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
}

static void meta(void)
{
    show("mkdir /tmp/m", mkdir("/tmp/m", 0755));
    show("chdir /tmp/m", chdir("/tmp/m"));
    int fd = open("f", O_CREAT | O_RDWR, 0644);
    show("open f", fd >= 0 ? 0 : -1);
    struct timespec ts[2] = {{1000000000, 1}, {1100000000, 2}};
    show("utimensat f", utimensat(AT_FDCWD, "f", ts, 0));
    show("chmod f 04755", chmod("f", 04755));
    mode_of("f");
    show("fchmodat f 02711", fchmodat(AT_FDCWD, "f", 02711, 0));
    mode_of("f");
    show("fchmod fd 0600", fchmod(fd, 0600));
    mode_of("f");
    int opath = open("f", O_PATH);
    show("fchmod O_PATH fd", fchmod(opath, 0644));
    show("chmod f 0", chmod("f", 0));
    show("chmod f 0 to 0640", chmod("f", 0640));
    mode_of("f");
    ts[1].tv_sec = 1200000000;
    show("futimens fd", futimens(fd, ts));
    mode_of("f");
    ts[1].tv_sec = 1300000000;
    show("utimensat O_PATH fd AT_EMPTY_PATH", utimensat(opath, "", ts, AT_EMPTY_PATH));
    mode_of("f");
    show("futimens O_PATH fd", futimens(opath, ts));
    show("setxattr f user.k", setxattr("f", "user.k", "vv", 2, 0));
    show("fsetxattr fd user.j", fsetxattr(fd, "user.j", "w", 1, 0));
    char buf[64] = "";
    show("getxattr f user.k", getxattr("f", "user.k", buf, sizeof buf));
    printf("  \"%s\"\n", buf);
    show("listxattr f", listxattr("f", buf, sizeof buf));
    show("removexattr f user.k", removexattr("f", "user.k"));
    show("fremovexattr fd user.j", fremovexattr(fd, "user.j"));
    show("chmod f 04755", chmod("f", 04755));
    show("chown f 1000 1000", chown("f", 1000, 1000));
    mode_of("f"); /* chown clears the setuid bit */

    show("mkdir d", mkdir("d", 0755));
    show("chmod d 01700", chmod("d", 01700));
    ts[1].tv_sec = 1400000000;
    show("utimensat d", utimensat(AT_FDCWD, "d", ts, 0));
    mode_of("d");

    show("mkfifo p", mkfifo("p", 0600));
    show("chmod p 0660", chmod("p", 0660));
    ts[1].tv_sec = 1500000000;
    show("utimensat p", utimensat(AT_FDCWD, "p", ts, 0));
    mode_of("p");
    show("setxattr p user.k (user.* only on files)", setxattr("p", "user.k", "v", 1, 0));

    /* A socket node cannot be opened: no descriptor to change it by. */
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX, .sun_path = "/tmp/m/s"};
    show("bind s", bind(s, (struct sockaddr *)&sa, sizeof sa));
    show("chmod s 0600", chmod("s", 0600));
    show("utimensat s", utimensat(AT_FDCWD, "s", ts, 0));
    show("setxattr s user.k", setxattr("s", "user.k", "v", 1, 0));
    show("getxattr s user.k", getxattr("s", "user.k", buf, sizeof buf));

    /* A symlink itself: its times and attributes cannot be reached by a
     * descriptor; following it reaches the file. */
    show("symlink f l", symlink("f", "l"));
    show("utimensat l AT_SYMLINK_NOFOLLOW", utimensat(AT_FDCWD, "l", ts, AT_SYMLINK_NOFOLLOW));
    ts[1].tv_sec = 1600000000;
    show("utimensat l (follows)", utimensat(AT_FDCWD, "l", ts, 0));
    show("chmod l 0604 (follows)", chmod("l", 0604));
    mode_of("f");
    show("lsetxattr l user.k", lsetxattr("l", "user.k", "v", 1, 0));
    show("llistxattr l", llistxattr("l", buf, sizeof buf));
}

static void epoll64(void)
{
    static const int counts[] = {64, 500};
    for (int c = 0; c < 2; c++) {
        int n = counts[c], ep = epoll_create1(0);
        for (int i = 0; i < n; i++) {
            int e = eventfd(1, 0);
            struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
            if (e < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, e, &ev) < 0) {
                printf("item %d: %s\n", i, err_name(errno));
                return;
            }
        }
        static struct epoll_event out[500];
        int got = epoll_wait(ep, out, n, 0);
        long sum = 0;
        for (int i = 0; i < got; i++)
            sum += out[i].data.u32;
        printf("epoll_wait with %d ready: %d, data sum %ld\n", n, got, sum);
    }
}

static void groups256(void)
{
    static gid_t list[65536], back[65536];
    static const int counts[] = {256, 65536};
    for (int c = 0; c < 2; c++) {
        int n = counts[c];
        for (int i = 0; i < n; i++)
            list[i] = (gid_t)(n - i) * 3; /* descending: the kernel sorts them */
        show(n == 256 ? "setgroups 256" : "setgroups 65536", setgroups((size_t)n, list));
        int got = getgroups(65536, back);
        printf("getgroups: %d, first %u, last %u\n", got, (unsigned)back[0],
               (unsigned)back[got > 0 ? got - 1 : 0]);
    }
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc == 2 && strcmp(argv[1], "meta") == 0)
        meta();
    else if (argc == 2 && strcmp(argv[1], "epoll64") == 0)
        epoll64();
    else if (argc == 2 && strcmp(argv[1], "groups256") == 0)
        groups256();
    else {
        fprintf(stderr, "usage: sandboxed meta | epoll64 | groups256\n");
        return 2;
    }
    return 0;
}
