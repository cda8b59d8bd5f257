/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fs-calls.c - file calls beyond read and write, one case per argument
 * (e2e-fs-calls-CASE-*): umask, utime, truncate, statfs, vecio, pipesize,
 * xattr, sendfile, rr, slash, fadvise, notify. Prints one line per check.
 * The read-only file is a Debian file of the host root (read-only under
 * asymu's default root), outside /tmp so that the guest sees it wherever
 * the build is, and changed in no way that would matter should the
 * program run on a host as root (truncated to its own size). */
#define _GNU_SOURCE
#include "guest.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sendfile.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

static const char *const readonly_file = "/usr/share/common-licenses/GPL-3";

static void say(const char *what, long r)
{
    if (r < 0)
        printf("%s: -1 %s\n", what, err_name(errno));
    else
        printf("%s: %ld\n", what, r);
}

static void mode_of(const char *what, const char *path)
{
    struct stat st;
    if (stat(path, &st) < 0)
        printf("%s: %s\n", what, err_name(errno));
    else
        printf("%s: %s %04o\n", what, S_ISFIFO(st.st_mode) ? "fifo" : S_ISDIR(st.st_mode) ? "dir" : S_ISREG(st.st_mode) ? "file" : "other",
               (unsigned)(st.st_mode & 07777));
}

static int make_file(const char *path, const char *data)
{
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0 && write(fd, data, strlen(data)) != (ssize_t)strlen(data))
        return -1;
    return fd;
}

static void test_umask(void)
{
    say("umask(002) old", umask(002));
    say("mkdir 0775", mkdir("/tmp/m1", 0775));
    mode_of("  mode", "/tmp/m1");
    say("umask(027) old", umask(027));
    say("mkdir 0777", mkdir("/tmp/m2", 0777));
    mode_of("  mode", "/tmp/m2");
    int fd = open("/tmp/f1", O_WRONLY | O_CREAT, 0666);
    say("open O_CREAT 0666", fd >= 0 ? 0 : -1);
    mode_of("  mode", "/tmp/f1");
    say("mkfifo 0666", mkfifo("/tmp/fifo", 0666));
    mode_of("  mode", "/tmp/fifo");
    say("mknod S_IFREG 0666", mknod("/tmp/reg", S_IFREG | 0666, 0));
    mode_of("  mode", "/tmp/reg");
    say("chmod 0777 (no umask)", chmod("/tmp/f1", 0777));
    mode_of("  mode", "/tmp/f1");
    say("mkdir 01777", mkdir("/tmp/m3", 01777));
    mode_of("  mode", "/tmp/m3");
    pid_t pid = fork();
    if (pid == 0)
        _exit(umask(0) == 027 ? 0 : 1);
    int status;
    waitpid(pid, &status, 0);
    printf("child inherits umask: %s\n", status == 0 ? "yes" : "no");
    say("umask(0) old", umask(0));
}

static void test_utime(void)
{
    int fd = make_file("/tmp/u", "x");
    struct stat st;
    struct timespec now, set[2] = {{1000000000, 5}, {1100000000, 7}};
    say("utimensat explicit", utimensat(AT_FDCWD, "/tmp/u", set, 0));
    stat("/tmp/u", &st);
    printf("  atime %lld.%09ld mtime %lld.%09ld\n", (long long)st.st_atim.tv_sec,
           st.st_atim.tv_nsec, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    say("utimensat NULL (now)", utimensat(AT_FDCWD, "/tmp/u", NULL, 0));
    clock_gettime(CLOCK_REALTIME, &now);
    stat("/tmp/u", &st);
    printf("  mtime within 1 s of the guest's clock: %s\n",
           llabs((long long)st.st_mtim.tv_sec - (long long)now.tv_sec) <= 1 ? "yes" : "no");
    struct timespec omit_now[2] = {{0, UTIME_OMIT}, {0, UTIME_NOW}};
    say("utimensat explicit again", utimensat(AT_FDCWD, "/tmp/u", set, 0));
    say("futimens OMIT, NOW", futimens(fd, omit_now));
    fstat(fd, &st);
    printf("  atime kept: %s, mtime now: %s\n", st.st_atim.tv_sec == 1000000000 ? "yes" : "no",
           llabs((long long)st.st_mtim.tv_sec - (long long)now.tv_sec) <= 1 ? "yes" : "no");
    struct timespec bad[2] = {{0, 1000000000}, {0, 0}};
    say("utimensat bad nsec", utimensat(AT_FDCWD, "/tmp/u", bad, 0));
}

static void test_truncate(void)
{
    close(make_file("/tmp/t", "hello world"));
    struct stat st;
    say("truncate 5", truncate("/tmp/t", 5));
    stat("/tmp/t", &st);
    say("  size", (long)st.st_size);
    say("truncate 100000", truncate("/tmp/t", 100000));
    stat("/tmp/t", &st);
    say("  size", (long)st.st_size);
    say("truncate -1", truncate("/tmp/t", -1));
    say("truncate /tmp", truncate("/tmp", 0));
    say("truncate missing", truncate("/tmp/missing", 0));
    struct stat own;
    stat(readonly_file, &own);
    say("truncate a root file to its size (read-only root)",
        truncate(readonly_file, own.st_size));
    say("symlink", symlink("/tmp/t", "/tmp/tl"));
    say("truncate through a symlink", truncate("/tmp/tl", 2));
    stat("/tmp/t", &st);
    say("  size", (long)st.st_size);
    say("mkfifo", mkfifo("/tmp/tf", 0600));
    say("truncate fifo", truncate("/tmp/tf", 0));
}

static void show_statfs(const char *what, int r, const struct statfs *s)
{
    if (r < 0)
        printf("%s: -1 %s\n", what, err_name(errno));
    else
        printf("%s: type 0x%lx bsize %ld rdonly %d\n", what, (unsigned long)s->f_type,
               (long)s->f_bsize, (int)!!(s->f_flags & ST_RDONLY));
}

static void test_statfs(void)
{
    struct statfs s;
    show_statfs("statfs /tmp", statfs("/tmp", &s), &s);
    printf("  blocks > 0: %s, free <= blocks: %s\n", s.f_blocks > 0 ? "yes" : "no",
           s.f_bfree <= s.f_blocks ? "yes" : "no");
    show_statfs("statfs /proc", statfs("/proc", &s), &s);
    show_statfs("statfs /proc/self/status", statfs("/proc/self/status", &s), &s);
    show_statfs("statfs /sys", statfs("/sys", &s), &s);
    show_statfs("statfs /dev/null", statfs("/dev/null", &s), &s);
    int r = statfs("/", &s);
    printf("statfs /: %s, rdonly %d\n", r < 0 ? err_name(errno) : "ok", (int)!!(s.f_flags & ST_RDONLY));
    show_statfs("statfs /missing", statfs("/missing", &s), &s);
    int p[2];
    if (pipe(p) < 0)
        return;
    show_statfs("fstatfs pipe", fstatfs(p[0], &s), &s);
    int sv[2];
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    show_statfs("fstatfs socket", fstatfs(sv[0], &s), &s);
    int fd = open("/tmp", O_PATH);
    show_statfs("fstatfs O_PATH /tmp", fstatfs(fd, &s), &s);
    show_statfs("fstatfs 99", fstatfs(99, &s), &s);
    show_statfs("fstatfs -1", fstatfs(-1, &s), &s);
    errno = 0;
    say("fpathconf(99, _PC_NAME_MAX)", fpathconf(99, _PC_NAME_MAX));
    say("pathconf(/tmp, _PC_NAME_MAX)", pathconf("/tmp", _PC_NAME_MAX));
#ifdef __arm__
    /* arm's statfs64 takes the packed size (84) and glibc's (88) only. */
    struct statfs64 s64;
    say("statfs64 size 84", syscall(SYS_statfs64, "/tmp", 84, &s64));
    say("statfs64 size 88", syscall(SYS_statfs64, "/tmp", 88, &s64));
    say("statfs64 size 80", syscall(SYS_statfs64, "/tmp", 80, &s64));
#else
    say("statfs64 size 84", 0);
    say("statfs64 size 88", 0);
    errno = EINVAL;
    say("statfs64 size 80", -1);
#endif
}

static void test_vecio(void)
{
    int fd = make_file("/tmp/v", "0123456789");
    char a[3] = "", b[4] = "";
    struct iovec iov[2] = {{a, 2}, {b, 3}};
    say("preadv at 4", preadv(fd, iov, 2, 4));
    printf("  \"%s\" \"%s\"\n", a, b);
    say("lseek stays", lseek(fd, 0, SEEK_CUR));
    struct iovec w[2] = {{"AB", 2}, {"CDE", 3}};
    say("pwritev at 8", pwritev(fd, w, 2, 8));
    char all[16] = "";
    say("pread", pread(fd, all, sizeof all - 1, 0));
    printf("  \"%s\"\n", all);
    say("preadv -1", preadv(fd, iov, 2, -1));
    lseek(fd, 2, SEEK_SET);
    memset(a, 0, sizeof a), memset(b, 0, sizeof b);
    say("preadv2 -1 (the position)", preadv2(fd, iov, 2, -1, 0));
    printf("  \"%s\" \"%s\"\n", a, b);
    say("lseek moved", lseek(fd, 0, SEEK_CUR));
    say("preadv2 at 0 RWF_HIPRI", preadv2(fd, iov, 1, 0, RWF_HIPRI));
    say("preadv2 unknown flag", preadv2(fd, iov, 1, 0, 0x100));
    say("pwritev2 at 0 RWF_DSYNC", pwritev2(fd, w, 1, 0, RWF_DSYNC));
    static struct iovec many[1025];
    for (int i = 0; i < 1025; i++)
        many[i] = (struct iovec){a, 1};
    say("preadv 1025 iovecs", preadv(fd, many, 1025, 0));
    say("preadv 1024 iovecs", preadv(fd, many, 1024, 0));
    int p[2];
    if (pipe(p) < 0)
        return;
    say("pwritev pipe", pwritev(p[1], w, 2, 0));
    say("preadv bad fd", preadv(99, iov, 2, 0));
}

static void test_pipesize(void)
{
    int p[2];
    if (pipe2(p, O_NONBLOCK) < 0)
        return;
    say("F_GETPIPE_SZ", fcntl(p[1], F_GETPIPE_SZ));
    say("F_SETPIPE_SZ 32768", fcntl(p[1], F_SETPIPE_SZ, 32768));
    say("F_GETPIPE_SZ read end", fcntl(p[0], F_GETPIPE_SZ));
    say("F_SETPIPE_SZ 1000", fcntl(p[1], F_SETPIPE_SZ, 1000));
    say("F_SETPIPE_SZ 5000", fcntl(p[1], F_SETPIPE_SZ, 5000));
    static char buf[1 << 20];
    say("write fills", write(p[1], buf, sizeof buf));
    say("F_SETPIPE_SZ 4096 (full)", fcntl(p[1], F_SETPIPE_SZ, 4096));
    say("F_SETPIPE_SZ 100000", fcntl(p[1], F_SETPIPE_SZ, 100000));
    say("write fills more", write(p[1], buf, sizeof buf));
    say("read all", read(p[0], buf, sizeof buf));
    say("F_SETPIPE_SZ 2 MiB (root)", fcntl(p[1], F_SETPIPE_SZ, 2 << 20));
    int fd = open("/tmp", O_RDONLY);
    say("F_GETPIPE_SZ on a directory", fcntl(fd, F_GETPIPE_SZ));
}

static void test_xattr(void)
{
    close(make_file("/tmp/x", "x"));
    char v[64] = "";
    say("setxattr", setxattr("/tmp/x", "user.k", "value", 5, 0));
    say("getxattr", getxattr("/tmp/x", "user.k", v, sizeof v));
    printf("  \"%s\"\n", v);
    say("getxattr size 0", getxattr("/tmp/x", "user.k", NULL, 0));
    say("getxattr small", getxattr("/tmp/x", "user.k", v, 2));
    say("setxattr XATTR_CREATE again", setxattr("/tmp/x", "user.k", "v", 1, XATTR_CREATE));
    say("setxattr XATTR_REPLACE missing", setxattr("/tmp/x", "user.z", "v", 1, XATTR_REPLACE));
    say("setxattr bad flags", setxattr("/tmp/x", "user.k", "v", 1, 4));
    say("setxattr empty name", setxattr("/tmp/x", "", "v", 1, 0));
    say("listxattr", listxattr("/tmp/x", v, sizeof v));
    printf("  \"%s\"\n", v);
    int fd = open("/tmp/x", O_RDONLY);
    say("fsetxattr", fsetxattr(fd, "user.f", "1", 1, 0));
    say("flistxattr size 0", flistxattr(fd, NULL, 0));
    say("fremovexattr", fremovexattr(fd, "user.f"));
    say("removexattr", removexattr("/tmp/x", "user.k"));
    say("getxattr removed", getxattr("/tmp/x", "user.k", v, sizeof v));
    say("symlink", symlink("/tmp/x", "/tmp/xl"));
    say("getxattr through a symlink", getxattr("/tmp/xl", "user.k", v, sizeof v));
    say("lsetxattr on a symlink", lsetxattr("/tmp/xl", "user.k", "v", 1, 0));
    say("llistxattr on a symlink", llistxattr("/tmp/xl", v, sizeof v));
    /* trusted.* takes symlinks (the guest is root, and so is the host in
     * the tests: the README's commands run as root). */
    say("lsetxattr trusted.* on a symlink", lsetxattr("/tmp/xl", "trusted.k", "tv", 2, 0));
    memset(v, 0, sizeof v);
    say("lgetxattr trusted.* on a symlink", lgetxattr("/tmp/xl", "trusted.k", v, sizeof v));
    printf("  \"%s\"\n", v);
    say("getxattr trusted.* through it (the file has none)",
        getxattr("/tmp/xl", "trusted.k", v, sizeof v));
    memset(v, 0, sizeof v);
    say("llistxattr on the symlink", llistxattr("/tmp/xl", v, sizeof v));
    printf("  \"%s\"\n", v);
    say("lremovexattr trusted.* on a symlink", lremovexattr("/tmp/xl", "trusted.k"));
    say("lremovexattr again", lremovexattr("/tmp/xl", "trusted.k"));
    say("getxattr a root file (read-only)", getxattr(readonly_file, "user.k", v, sizeof v));
    say("setxattr a root file XATTR_REPLACE (read-only)",
        setxattr(readonly_file, "user.k", "v", 1, XATTR_REPLACE));
    say("listxattr a root file (read-only)", listxattr(readonly_file, v, sizeof v));
    say("getxattr /proc/self/status", getxattr("/proc/self/status", "user.k", v, sizeof v));
    say("listxattr /proc/self/status", listxattr("/proc/self/status", v, sizeof v));
    say("fgetxattr bad fd", fgetxattr(99, "user.k", v, sizeof v));
    say("getxattr missing", getxattr("/tmp/missing", "user.k", v, sizeof v));
    int p[2];
    if (pipe(p) < 0)
        return;
    say("fgetxattr pipe", fgetxattr(p[0], "user.k", v, sizeof v));
    say("fsetxattr pipe", fsetxattr(p[0], "user.k", "v", 1, 0));
    say("flistxattr pipe", flistxattr(p[0], v, sizeof v));
}

static void test_sendfile(void)
{
    int fd = make_file("/tmp/s", "hello sendfile");
    int sv[2], p[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0 || pipe(p) < 0)
        return;
    char buf[32] = "";
    off_t off = 6;
    say("sendfile to a socket from 6", sendfile(sv[0], fd, &off, 100));
    say("  offset", (long)off);
    say("  recv", recv(sv[1], buf, sizeof buf - 1, 0));
    printf("  \"%s\"\n", buf);
    lseek(fd, 0, SEEK_SET);
    say("sendfile to a pipe at the position", sendfile(p[1], fd, NULL, 5));
    say("  lseek", lseek(fd, 0, SEEK_CUR));
    memset(buf, 0, sizeof buf);
    say("  read", read(p[0], buf, sizeof buf - 1));
    printf("  \"%s\"\n", buf);
    int out = open("/tmp/s2", O_WRONLY | O_CREAT, 0644);
    off = 0;
    say("sendfile to a file", sendfile(out, fd, &off, 100));
    say("sendfile from a pipe", sendfile(out, p[0], NULL, 10) < 0 ? -1 : 0);
    say("sendfile bad in", sendfile(out, 99, NULL, 10));
    say("FIONBIO on a file", ioctl(fd, FIONBIO, &(int){1}));
    say("  O_NONBLOCK set", !!(fcntl(fd, F_GETFL) & O_NONBLOCK));
}

static void test_copyrange(void)
{
    int in = make_file("/tmp/c", "0123456789");
    int out = open("/tmp/c2", O_RDWR | O_CREAT | O_TRUNC, 0644);
    loff_t from = 2, to = 0;
    say("copy_file_range 5 from 2", copy_file_range(in, &from, out, &to, 5, 0));
    say("  offsets", (long)(from * 100 + to));
    say("  input position untouched", lseek(in, 0, SEEK_CUR));
    char buf[16] = "";
    say("  pread", pread(out, buf, sizeof buf - 1, 0));
    printf("  \"%s\"\n", buf);
    lseek(in, 8, SEEK_SET);
    say("at the positions, past the end", copy_file_range(in, NULL, out, NULL, 100, 0));
    say("  positions", lseek(in, 0, SEEK_CUR) * 100 + lseek(out, 0, SEEK_CUR));
    say("at the end of the input", copy_file_range(in, NULL, out, NULL, 100, 0));
    say("flags 1", copy_file_range(in, NULL, out, NULL, 1, 1));
    from = 0, to = 3;
    say("overlapping in one file", copy_file_range(in, &from, in, &to, 5, 0));
    int ro = open("/tmp/c2", O_RDONLY);
    say("to a read-only descriptor", copy_file_range(in, NULL, ro, NULL, 1, 0));
    int app = open("/tmp/c2", O_WRONLY | O_APPEND);
    say("to an O_APPEND descriptor", copy_file_range(in, NULL, app, NULL, 1, 0));
    int dir = open("/tmp", O_RDONLY | O_DIRECTORY);
    say("from a directory", copy_file_range(dir, NULL, out, NULL, 1, 0));
    int p[2];
    pipe(p);
    say("to a pipe", copy_file_range(in, NULL, p[1], NULL, 1, 0));
    from = -1;
    say("negative offset", copy_file_range(in, &from, out, NULL, 1, 0));
    say("sync", (sync(), 0));
    say("syncfs", syncfs(out));
    say("syncfs bad", syncfs(99));
}

static void test_rr(void)
{
    struct timespec ts = {-1, -1};
    say("sched_rr_get_interval(0) SCHED_OTHER", sched_rr_get_interval(0, &ts));
    printf("  > 0 and < 1 s: %s\n", (ts.tv_sec == 0 && ts.tv_nsec > 0) ? "yes" : "no");
    struct sched_param sp = {.sched_priority = 1};
    say("sched_setscheduler RR", sched_setscheduler(0, SCHED_RR, &sp));
    say("sched_rr_get_interval(0) SCHED_RR", sched_rr_get_interval(0, &ts));
    printf("  %lld.%09ld\n", (long long)ts.tv_sec, ts.tv_nsec);
    say("sched_setscheduler FIFO", sched_setscheduler(0, SCHED_FIFO, &sp));
    say("sched_rr_get_interval(0) SCHED_FIFO", sched_rr_get_interval(0, &ts));
    printf("  %lld.%09ld\n", (long long)ts.tv_sec, ts.tv_nsec);
    say("sched_rr_get_interval(-1)", sched_rr_get_interval(-1, &ts));
    say("sched_rr_get_interval(99999)", sched_rr_get_interval(99999, &ts));
}

/* A path ending with "/" names a directory. */
static void test_slash(void)
{
    close(make_file("/tmp/sf", "x"));
    say("mkdir", mkdir("/tmp/sd", 0755));
    say("symlink to the file", symlink("/tmp/sf", "/tmp/sl"));
    say("symlink to the dir", symlink("/tmp/sd", "/tmp/sdl"));
    say("open O_CREAT missing/", open("/tmp/new/", O_WRONLY | O_CREAT, 0644));
    say("  created", access("/tmp/new", F_OK));
    say("open file/", open("/tmp/sf/", O_RDONLY));
    say("open dir/", open("/tmp/sd/", O_RDONLY) >= 0 ? 0 : -1);
    say("open O_CREAT dir/", open("/tmp/sd/", O_WRONLY | O_CREAT, 0644));
    struct stat st;
    say("stat file/", stat("/tmp/sf/", &st));
    say("stat missing/", stat("/tmp/none/", &st));
    say("lstat link-to-file/", lstat("/tmp/sl/", &st));
    say("lstat link-to-dir/", lstat("/tmp/sdl/", &st) == 0 ? (long)S_ISDIR(st.st_mode) : -1);
    say("mkdir new/", mkdir("/tmp/sd2/", 0755));
}

static void test_fadvise(void)
{
    int fd = make_file("/tmp/fa", "data");
    int p[2];
    if (pipe(p) < 0)
        return;
    errno = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    say("posix_fadvise SEQUENTIAL", errno ? -1 : 0);
    errno = posix_fadvise(fd, 0, 0, 99);
    say("posix_fadvise advice 99", errno ? -1 : 0);
    errno = posix_fadvise(fd, 0, -1, POSIX_FADV_NORMAL);
    say("posix_fadvise len -1", errno ? -1 : 0);
    errno = posix_fadvise(p[0], 0, 0, POSIX_FADV_NORMAL);
    say("posix_fadvise pipe", errno ? -1 : 0);
    errno = posix_fadvise(99, 0, 0, POSIX_FADV_NORMAL);
    say("posix_fadvise bad fd", errno ? -1 : 0);
}

/* dnotify: accepted on directories (CPython's test_fcntl_64_bit). */
static void test_notify(void)
{
    int dir = open("/tmp", O_RDONLY | O_DIRECTORY);
    int file = make_file("/tmp/no", "data");
    say("F_NOTIFY directory", fcntl(dir, F_NOTIFY, DN_MODIFY | DN_MULTISHOT));
    say("F_NOTIFY file", fcntl(file, F_NOTIFY, DN_MODIFY));
    say("F_NOTIFY virtual directory", fcntl(open("/proc", O_RDONLY | O_DIRECTORY), F_NOTIFY, 0));
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } cases[] = {
        {"umask", test_umask},       {"utime", test_utime}, {"truncate", test_truncate},
        {"statfs", test_statfs},     {"vecio", test_vecio}, {"pipesize", test_pipesize},
        {"xattr", test_xattr},       {"sendfile", test_sendfile}, {"rr", test_rr},
        {"slash", test_slash},       {"fadvise", test_fadvise}, {"notify", test_notify},
        {"copyrange", test_copyrange},
    };
    for (size_t i = 0; argc > 1 && i < sizeof cases / sizeof *cases; i++)
        if (strcmp(argv[1], cases[i].name) == 0) {
            cases[i].run();
            return 0;
        }
    fprintf(stderr, "usage: fs-calls CASE\n");
    return 2;
}
