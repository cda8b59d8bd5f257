/* SPDX-License-Identifier: GPL-2.0-or-later */
/* readonly.c - what a guest may change on read-only places, by descriptor
 * and by path (docs/security.md). Each line names a call and its result:
 * "0" or the errno name.
 *   readonly fd FILE   descriptor calls on FILE, which lies on a read-only
 *                      place (the sysroot without --rw, or a host /tmp file
 *                      seen through the private /tmp)
 *   readonly dir DIR   path and dirfd calls in DIR of the read-only root
 *                      (DIR holds a file named "file")
 *   readonly rw FILE   the same descriptor calls where writing is allowed
 *                      (--rw), with the file's mode, size and mtime after */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "guest.h"

static void show(const char *what, int r)
{
    printf("%s: %s\n", what, r < 0 ? err_name(errno) : "0");
}

static int map_result(void *p)
{
    if (p == MAP_FAILED)
        return -1;
    munmap(p, 4096);
    return 0;
}

static int descriptor_calls(const char *file)
{
    int fd = open(file, O_RDONLY);
    if (fd < 0) {
        printf("open %s: %s\n", file, err_name(errno));
        return 1;
    }
    show("fchmod", fchmod(fd, 04755));
    show("fchown", fchown(fd, 0, 0));
    show("futimens", futimens(fd, NULL));
    /* glibc declares the path non-null: the raw call takes NULL (= fd). */
    show("utimensat(fd, NULL)", (int)syscall(SYS_utimensat, fd, NULL, NULL, 0));
    show("utimensat(AT_FDCWD, NULL)", (int)syscall(SYS_utimensat, AT_FDCWD, NULL, NULL, 0));
    show("utimensat(fd, \"\", AT_EMPTY_PATH)", utimensat(fd, "", NULL, AT_EMPTY_PATH));
    show("utimensat(fd, \"\", 0)", utimensat(fd, "", NULL, 0));
    show("fchmodat(fd, \"\")", fchmodat(fd, "", 0755, 0));
    show("fchownat(fd, \"\", AT_EMPTY_PATH)", fchownat(fd, "", 0, 0, AT_EMPTY_PATH));
    show("ftruncate", ftruncate(fd, 0));
    show("fallocate", fallocate(fd, 0, 0, 4096));
    show("mmap shared writable",
         map_result(mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)));
    void *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
    show("mmap shared read-only", p == MAP_FAILED ? -1 : 0);
    if (p != MAP_FAILED) {
        show("mprotect shared to writable", mprotect(p, 4096, PROT_READ | PROT_WRITE));
        munmap(p, 4096);
    }
    show("mmap private writable",
         map_result(mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0)));
    close(fd);

    int pfd = open(file, O_PATH);
    show("open O_PATH", pfd);
    char c;
    int n;
    show("O_PATH read", (int)read(pfd, &c, 1));
    show("O_PATH write", (int)write(pfd, "x", 1));
    show("O_PATH fchmod", fchmod(pfd, 0777));
    show("O_PATH fchown", fchown(pfd, 0, 0));
    show("O_PATH ioctl", ioctl(pfd, FIONREAD, &n));
    show("O_PATH mmap", map_result(mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, pfd, 0)));
    show("O_PATH futimens", futimens(pfd, NULL));
    show("O_PATH utimensat(\"\", AT_EMPTY_PATH)", utimensat(pfd, "", NULL, AT_EMPTY_PATH));
    struct stat st;
    show("O_PATH fstat", fstat(pfd, &st));
    close(pfd);
    return 0;
}

static int directory_calls(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/file", dir);
    show("open O_WRONLY", open(path, O_WRONLY));
    show("open O_RDWR", open(path, O_RDWR));
    show("open O_RDONLY|O_TRUNC", open(path, O_RDONLY | O_TRUNC));
    show("open O_WRONLY|O_TRUNC", open(path, O_WRONLY | O_TRUNC));
    snprintf(path, sizeof path, "%s/new", dir);
    show("open O_WRONLY|O_CREAT new", open(path, O_WRONLY | O_CREAT, 0644));
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    show("open dir", dfd < 0 ? -1 : 0);
    show("mkdirat", mkdirat(dfd, "d", 0755));
    show("unlinkat", unlinkat(dfd, "file", 0));
    show("renameat", renameat(dfd, "file", dfd, "moved"));
    show("linkat", linkat(dfd, "file", dfd, "hard", 0));
    show("symlinkat", symlinkat("file", dfd, "soft"));
    show("fchmodat", fchmodat(dfd, "file", 0777, 0));
    show("fchownat", fchownat(dfd, "file", 0, 0, 0));
    show("utimensat", utimensat(dfd, "file", NULL, 0));
    close(dfd);
    return 0;
}

static int writable_calls(const char *file)
{
    int fd = open(file, O_RDWR);
    show("open O_RDWR", fd < 0 ? -1 : 0);
    show("fchmod 0640", fchmod(fd, 0640));
    show("fchown", fchown(fd, 0, 0));
    show("fallocate 8192", fallocate(fd, 0, 0, 8192));
    show("ftruncate 100", ftruncate(fd, 100));
    struct timespec ts[2] = {{1000, 0}, {2000, 0}};
    show("futimens 2000", futimens(fd, ts));
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    show("mmap shared writable", map_result(p));
    struct stat st;
    fstat(fd, &st);
    printf("mode %o size %lld mtime %lld\n", (unsigned)(st.st_mode & 07777), (long long)st.st_size,
           (long long)st.st_mtime);
    close(fd);
    int rfd = open(file, O_RDONLY);
    show("read-only fd: fallocate", fallocate(rfd, 0, 0, 4096));
    show("read-only fd: ftruncate", ftruncate(rfd, 0));
    close(rfd);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "fd") == 0)
        return descriptor_calls(argv[2]);
    if (argc == 3 && strcmp(argv[1], "dir") == 0)
        return directory_calls(argv[2]);
    if (argc == 3 && strcmp(argv[1], "rw") == 0)
        return writable_calls(argv[2]);
    fprintf(stderr, "usage: readonly fd FILE | dir DIR | rw FILE\n");
    return 2;
}
