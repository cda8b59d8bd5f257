/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hostcalls.c - every guest file, memory and time syscall whose handler
 * issues host syscalls, run with asymu's seccomp sandbox on: a host syscall
 * the allow-list lacks stops asymu with status 70 and the test fails. Each
 * line prints the call and its result (a value, or the errno name). Works
 * in the guest's private /tmp, which is a real host directory. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/select.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

static void show(const char *what, long r)
{
    if (r < 0)
        printf("%s: %s\n", what, err_name(errno));
    else
        printf("%s: %ld\n", what, r);
}

static void files(void)
{
    show("mkdir /tmp/d", mkdir("/tmp/d", 0755));
    show("chdir /tmp/d", chdir("/tmp/d"));
    int fd = open("f", O_CREAT | O_RDWR | O_TRUNC, 0644);
    show("open f", fd >= 0 ? 3 : -1);
    show("write", write(fd, "hello world", 11));
    show("pwrite", pwrite(fd, "HELLO", 5, 0));
    char buf[32] = {0};
    show("pread", pread(fd, buf, 5, 6));
    printf("pread bytes: %s\n", buf);
    show("lseek", lseek(fd, 0, SEEK_SET));
    struct iovec iov[2] = {{buf, 5}, {buf + 5, 6}};
    show("readv", readv(fd, iov, 2));
    show("writev", writev(fd, iov, 2));
    struct stat st;
    show("fstat", fstat(fd, &st) == 0 ? st.st_size : -1);
    show("ftruncate 4", ftruncate(fd, 4));
    show("stat size", stat("f", &st) == 0 ? st.st_size : -1);
    show("fsync", fsync(fd));
    show("fdatasync", fdatasync(fd));
    show("fchmod 0600", fchmod(fd, 0600));
    show("stat mode", stat("f", &st) == 0 ? (long)(st.st_mode & 07777) : -1);
    show("chmod 0640", chmod("f", 0640));
    show("stat mode", stat("f", &st) == 0 ? (long)(st.st_mode & 07777) : -1);
    struct timespec ts[2] = {{1000000000, 0}, {1234567890, 0}};
    show("utimensat", utimensat(AT_FDCWD, "f", ts, 0));
    show("stat mtime", stat("f", &st) == 0 ? (long)st.st_mtime : -1);
    ts[1].tv_sec = 1300000000;
    show("futimens", futimens(fd, ts));
    show("stat mtime", stat("f", &st) == 0 ? (long)st.st_mtime : -1);
    show("fchown", fchown(fd, 0, 0));
    show("access W_OK", access("f", W_OK));
    show("access W_OK of the read-only root", access("/", W_OK));
    show("dup", dup(fd) > fd ? 0 : -1);
    show("fcntl F_GETFL accmode", fcntl(fd, F_GETFL) & O_ACCMODE);
    show("close", close(fd));

    show("symlink", symlink("f", "s"));
    char target[16] = {0};
    show("readlink", readlink("s", target, sizeof target - 1));
    printf("readlink target: %s\n", target);
    show("lstat is link", lstat("s", &st) == 0 ? S_ISLNK(st.st_mode) : -1);
    show("link", link("f", "h"));
    show("stat nlink", stat("f", &st) == 0 ? (long)st.st_nlink : -1);
    show("rename h g", rename("h", "g"));
    show("renameat2 NOREPLACE onto f", syscall(SYS_renameat2, AT_FDCWD, "g", AT_FDCWD, "f", 1));
    show("renameat2 NOREPLACE to n", syscall(SYS_renameat2, AT_FDCWD, "g", AT_FDCWD, "n", 1));
    show("mkdir sub", mkdir("sub", 0700));
    show("rmdir sub", rmdir("sub"));

    DIR *d = opendir(".");
    int entries = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        entries++;
    show("readdir entries", d ? entries : -1);
    if (d)
        closedir(d);

    int in = open("f", O_RDONLY), out = open("copy", O_CREAT | O_WRONLY, 0644);
    show("sendfile", sendfile(out, in, NULL, 100));
    close(in);
    close(out);
    show("stat copy size", stat("copy", &st) == 0 ? st.st_size : -1);

    int dfd = open(".", O_RDONLY | O_DIRECTORY);
    show("chdir /", chdir("/"));
    show("fchdir", fchdir(dfd));
    close(dfd);
    char cwd[64];
    printf("getcwd: %s\n", getcwd(cwd, sizeof cwd) ? cwd : err_name(errno));
    const char *names[] = {"f", "s", "n", "copy"};
    for (int i = 0; i < 4; i++)
        show(names[i], unlink(names[i]));
    show("chdir /tmp", chdir("/tmp"));
    show("rmdir d", rmdir("d"));
}

static void memory(void)
{
    int fd = open("/tmp/m", O_CREAT | O_RDWR | O_TRUNC, 0600);
    char page[4096];
    memset(page, 'x', sizeof page);
    show("write page", write(fd, page, sizeof page));
    char *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
    show("mmap file", p == MAP_FAILED ? -1 : p[100]);
    show("mprotect", mprotect(p, 4096, PROT_READ | PROT_WRITE));
    p[0] = 'y';
    char *q = mremap(p, 4096, 3 * 4096, MREMAP_MAYMOVE);
    show("mremap", q == MAP_FAILED ? -1 : q[0]);
    show("madvise", madvise(q, 3 * 4096, MADV_DONTNEED));
    show("munmap", munmap(q, 3 * 4096));
    close(fd);
    unlink("/tmp/m");
    char *big = malloc(8 << 20);
    show("malloc 8 MiB", big ? 0 : -1);
    free(big);
    void *brk0 = sbrk(0);
    show("sbrk +64k", sbrk(65536) == brk0 ? 0 : -1);
}

static void clocks(void)
{
    struct timespec ts;
    show("clock_gettime", clock_gettime(CLOCK_MONOTONIC, &ts));
    struct timeval tv;
    show("gettimeofday", gettimeofday(&tv, NULL));
    show("nanosleep", nanosleep(&(struct timespec){0, 1000000}, NULL));
    char r[16];
    show("getrandom", getrandom(r, sizeof r, 0));
    int p[2];
    show("pipe", pipe(p));
    struct pollfd pf = {p[0], POLLIN, 0};
    show("poll empty", poll(&pf, 1, 10));
    show("write pipe", write(p[1], "z", 1));
    fd_set set;
    FD_ZERO(&set);
    FD_SET(p[0], &set);
    show("select", select(p[0] + 1, &set, NULL, NULL, &(struct timeval){0, 1000}));
}

int main(void)
{
    files();
    memory();
    clocks();
    return 0;
}
