/* SPDX-License-Identifier: GPL-2.0-or-later */
/* incpuset.c - what Android's zygote does with an app, in small: mount
 * cgroup v1's cpuset filesystem at /dev/cpuset as init does, make the
 * cpuset NAME with the CPUs LIST, join it and exec PROGRAM. The demo runs a
 * 32-bit program in the "background" cpuset of a Snapdragon 8 Gen 1's
 * little cores, which run no 32-bit code (docs/cgroups.md, CG2 and CG6).
 *
 *   incpuset NAME LIST PROGRAM [ARG...] */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static int put(const char *dir, const char *file, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int fd = open(path, O_WRONLY);
    if (fd < 0 || write(fd, text, strlen(text)) < 0) {
        fprintf(stderr, "incpuset: %s: %s\n", path, strerror(errno));
        return -1;
    }
    close(fd);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: incpuset NAME LIST PROGRAM [ARG...]\n");
        return 2;
    }
    if (mount("none", "/dev/cpuset", "cpuset", 0, NULL) < 0 && errno != EBUSY) {
        fprintf(stderr, "incpuset: mount /dev/cpuset: %s\n", strerror(errno));
        return 1;
    }
    char dir[256];
    snprintf(dir, sizeof dir, "/dev/cpuset/%s", argv[1]);
    if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
        fprintf(stderr, "incpuset: mkdir %s: %s\n", dir, strerror(errno));
        return 1;
    }
    if (put(dir, "cpus", argv[2]) < 0 || put(dir, "mems", "0") < 0 || put(dir, "tasks", "0") < 0)
        return 1;
    printf("%s-bit launcher: in cpuset %s (cpus %s), exec %s\n", sizeof(void *) == 8 ? "64" : "32",
           argv[1], argv[2], argv[3]);
    fflush(stdout);
    execv(argv[3], argv + 3);
    fprintf(stderr, "incpuset: exec %s: %s\n", argv[3], strerror(errno));
    return 127;
}
