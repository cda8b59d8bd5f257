/* SPDX-License-Identifier: GPL-2.0-or-later */
/* closefrom.c - closing every descriptor above 2 by listing /proc/self/fd
 * with a small getdents64 buffer and closing what each call returns, as
 * CPython's subprocess does in the child: none is missed although the
 * listing shrinks between calls; rewinding the directory lists it again. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "guest.h"

struct linux_dirent64 {
    unsigned long long d_ino;
    long long d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[256];
};

static int count_open(void)
{
    int n = 0;
    for (int fd = 0; fd < 64; fd++)
        n += fcntl(fd, F_GETFD) >= 0;
    return n;
}

int main(void)
{
    for (int i = 0; i < 10; i++) {
        int p[2];
        if (pipe(p))
            return 1;
    }
    int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY);
    printf("open before: %d\n", count_open());
    char buf[sizeof(struct linux_dirent64)];
    long bytes;
    int calls = 0;
    while ((bytes = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0) {
        calls++;
        for (long off = 0; off < bytes;) {
            struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
            int fd = atoi(d->d_name);
            if (d->d_name[0] != '.' && fd > 2 && fd != dir)
                close(fd);
            off += d->d_reclen;
        }
    }
    printf("getdents64 calls > 1: %s, last: %ld\n", calls > 1 ? "yes" : "no", bytes);
    printf("open after: %d\n", count_open());
    lseek(dir, 0, SEEK_SET);
    int entries = 0;
    while ((bytes = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0)
        for (long off = 0; off < bytes; entries++)
            off += ((struct linux_dirent64 *)(buf + off))->d_reclen;
    printf("entries after rewinding: %d\n", entries);
    return 0;
}
