/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rename.c - rename(2), renameat(2) and renameat2(2) in the private /tmp:
 * the plain calls (flags 0) replace the target, RENAME_NOREPLACE refuses an
 * existing one, and an unknown flag is EINVAL. In a directory of its own:
 * a path the private /tmp lacks is looked up in the host's /tmp underneath
 * (docs/guest-root.md), where a stray /tmp/a would answer for a renamed one. */
#define _GNU_SOURCE
#include "guest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static void make(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    printf("make %s %zd\n", path, n);
}

static void show(const char *path)
{
    char buf[32] = "";
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        printf("read %s %s\n", path, err_name(errno));
        return;
    }
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    printf("read %s %zd %s\n", path, n, buf);
}

static void report(const char *what, long r)
{
    printf("%s %s\n", what, r == 0 ? "0" : err_name(errno));
}

int main(void)
{
    if (mkdir("/tmp/rename.d", 0755) != 0)
        return perror("mkdir"), 1;
    make("/tmp/rename.d/a", "first");
    make("/tmp/rename.d/b", "second");
    report("rename a b", rename("/tmp/rename.d/a", "/tmp/rename.d/b"));
    show("/tmp/rename.d/a");
    show("/tmp/rename.d/b");
    report("renameat b c", syscall(SYS_renameat, AT_FDCWD, "/tmp/rename.d/b", AT_FDCWD, "/tmp/rename.d/c"));
    show("/tmp/rename.d/c");
    make("/tmp/rename.d/d", "third");
    report("renameat2 0 d c", syscall(SYS_renameat2, AT_FDCWD, "/tmp/rename.d/d", AT_FDCWD, "/tmp/rename.d/c", 0));
    show("/tmp/rename.d/c");
    make("/tmp/rename.d/e", "fourth");
    report("renameat2 noreplace e c",
           syscall(SYS_renameat2, AT_FDCWD, "/tmp/rename.d/e", AT_FDCWD, "/tmp/rename.d/c", 1));
    report("renameat2 badflag e f",
           syscall(SYS_renameat2, AT_FDCWD, "/tmp/rename.d/e", AT_FDCWD, "/tmp/rename.d/f", 0x80));
    report("rename missing", rename("/tmp/rename.d/missing", "/tmp/rename.d/g"));
    show("/tmp/rename.d/e");
    return 0;
}
