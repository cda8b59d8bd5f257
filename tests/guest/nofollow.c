/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nofollow.c - the open flags whose arm values are other host flags
 * (O_NOFOLLOW, O_DIRECTORY, O_DIRECT, O_LARGEFILE) reach the kernel and come
 * back from F_GETFL; glibc's lchmod (fchmodat with AT_SYMLINK_NOFOLLOW)
 * depends on O_PATH|O_NOFOLLOW naming the link itself (proc.cmake). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest.h"

static void show(const char *what, long r)
{
    if (r < 0)
        printf("%s = -1 %s\n", what, err_name(errno));
    else
        printf("%s = %ld\n", what, r);
}

int main(void)
{
    struct stat st;
    mkdir("/tmp/nofollow", 0700);
    symlink("missing", "/tmp/nofollow/dangling");
    symlink("/tmp/nofollow", "/tmp/nofollow/dir-link");
    int fd = open("/tmp/nofollow/dangling", O_PATH | O_NOFOLLOW);
    show("open(dangling, O_PATH|O_NOFOLLOW) is a symlink",
         fd < 0 ? fd : fstat(fd, &st) == 0 && S_ISLNK(st.st_mode));
    show("open(dangling, O_RDONLY|O_NOFOLLOW)", open("/tmp/nofollow/dangling", O_NOFOLLOW));
    show("open(dir-link, O_DIRECTORY|O_NOFOLLOW)",
         open("/tmp/nofollow/dir-link", O_DIRECTORY | O_NOFOLLOW));
    show("fchmodat(dangling, AT_SYMLINK_NOFOLLOW)",
         fchmodat(AT_FDCWD, "/tmp/nofollow/dangling", 0600, AT_SYMLINK_NOFOLLOW));
    show("fchmodat(dir-link, AT_SYMLINK_NOFOLLOW)",
         fchmodat(AT_FDCWD, "/tmp/nofollow/dir-link", 0600, AT_SYMLINK_NOFOLLOW));
    int dir = open("/tmp/nofollow", O_RDONLY | O_DIRECTORY);
    int fl = fcntl(dir, F_GETFL);
    printf("F_GETFL(O_DIRECTORY): O_DIRECTORY %s, O_NOFOLLOW %s, O_DIRECT %s\n",
           fl & O_DIRECTORY ? "set" : "clear", fl & O_NOFOLLOW ? "set" : "clear",
           fl & O_DIRECT ? "set" : "clear");
    int nf = open("/tmp/nofollow", O_RDONLY | O_NOFOLLOW);
    fl = fcntl(nf, F_GETFL);
    printf("F_GETFL(O_NOFOLLOW): O_DIRECTORY %s, O_NOFOLLOW %s, O_DIRECT %s\n",
           fl & O_DIRECTORY ? "set" : "clear", fl & O_NOFOLLOW ? "set" : "clear",
           fl & O_DIRECT ? "set" : "clear");
    show("open(regular, O_DIRECTORY)", open("/tmp/nofollow/file", O_CREAT | O_RDWR, 0600) < 0
                                           ? -1
                                           : open("/tmp/nofollow/file", O_DIRECTORY));
    unlink("/tmp/nofollow/file");
    unlink("/tmp/nofollow/dangling");
    unlink("/tmp/nofollow/dir-link");
    rmdir("/tmp/nofollow");
    return 0;
}
