/* SPDX-License-Identifier: GPL-2.0-or-later */
/* confine.c - path operations for confinement tests: each argument is
 * [LABEL=]OP:PATH and prints one line with LABEL (default: PATH) and the
 * result, so a test can try to leave the guest root and show where it lands.
 *
 *   open:P      the first line of the file, or the errno
 *   openat:D:P  the same for P relative to the directory D
 *   readlink:P  the link's target
 *   chdir:P     chdir, then getcwd
 *   stat:P      "directory", "file" or the errno
 *   create:P    open(O_CREAT|O_WRONLY), write, read back, unlink
 *   chroot:P    chroot(2)
 *   openat2:D:R:P  the first line of P by openat2 from the directory D
 *               with the RESOLVE_* bits R (a number) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "guest.h"

static void print_first_line(const char *label, int fd)
{
    if (fd < 0) {
        printf("%s: %s\n", label, err_name(errno));
        return;
    }
    char buf[256];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n < 0) {
        printf("%s: read %s\n", label, err_name(errno));
        return;
    }
    buf[n] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    printf("%s: \"%s\"\n", label, buf);
}

static void do_openat(const char *label, char *arg)
{
    char *sep = strchr(arg, ':');
    if (!sep) {
        printf("%s: bad openat argument\n", label);
        return;
    }
    *sep = '\0';
    int dir = open(arg, O_RDONLY | O_DIRECTORY);
    if (dir < 0) {
        printf("%s: opening %s: %s\n", label, arg, err_name(errno));
        return;
    }
    errno = 0;
    print_first_line(label, openat(dir, sep + 1, O_RDONLY));
    close(dir);
}

static void do_openat2(const char *label, char *arg)
{
    char *sep = strchr(arg, ':');
    char *sep2 = sep ? strchr(sep + 1, ':') : NULL;
    if (!sep2) {
        printf("%s: bad openat2 argument\n", label);
        return;
    }
    *sep = *sep2 = '\0';
    int dir = open(arg, O_RDONLY | O_DIRECTORY);
    struct {
        uint64_t flags, mode, resolve;
    } how = {O_RDONLY, 0, strtoull(sep + 1, NULL, 0)};
    errno = 0;
    print_first_line(label, (int)syscall(437 /* openat2 */, dir, sep2 + 1, &how, sizeof how));
    close(dir);
}

static void do_create(const char *label, const char *path)
{
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0) {
        printf("%s: %s\n", label, err_name(errno));
        return;
    }
    ssize_t w = write(fd, "written\n", 8);
    close(fd);
    errno = 0;
    fd = open(path, O_RDONLY);
    char buf[16] = "";
    ssize_t r = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    if (fd >= 0)
        close(fd);
    printf("%s: created, wrote %zd, read back %zd, unlink %d\n", label, w, r, unlink(path));
}

static void run(const char *label, const char *op, char *path)
{
    errno = 0;
    if (strcmp(op, "open") == 0) {
        print_first_line(label, open(path, O_RDONLY));
    } else if (strcmp(op, "openat") == 0) {
        do_openat(label, path);
    } else if (strcmp(op, "readlink") == 0) {
        char buf[PATH_MAX];
        ssize_t n = readlink(path, buf, sizeof buf - 1);
        if (n < 0) {
            printf("%s: %s\n", label, err_name(errno));
            return;
        }
        buf[n] = '\0';
        printf("%s -> \"%s\"\n", label, buf);
    } else if (strcmp(op, "chdir") == 0) {
        char cwd[PATH_MAX];
        if (chdir(path) != 0)
            printf("%s: chdir %s\n", label, err_name(errno));
        else if (!getcwd(cwd, sizeof cwd))
            printf("%s: getcwd %s\n", label, err_name(errno));
        else
            printf("%s: cwd \"%s\"\n", label, cwd);
    } else if (strcmp(op, "stat") == 0) {
        struct stat st;
        if (stat(path, &st) != 0)
            printf("%s: %s\n", label, err_name(errno));
        else
            printf("%s: %s\n", label, S_ISDIR(st.st_mode) ? "directory" : "file");
    } else if (strcmp(op, "create") == 0) {
        do_create(label, path);
    } else if (strcmp(op, "openat2") == 0) {
        do_openat2(label, path);
    } else if (strcmp(op, "chroot") == 0) {
        printf("%s: %s\n", label, chroot(path) == 0 ? "ok" : err_name(errno));
    } else {
        printf("%s: unknown operation %s\n", label, op);
    }
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        char *arg = argv[i];
        char *label = NULL;
        char *eq = strchr(arg, '=');
        char *colon = strchr(arg, ':');
        if (eq && colon && eq < colon) {
            *eq = '\0';
            label = arg;
            arg = eq + 1;
            colon = strchr(arg, ':');
        }
        if (!colon) {
            printf("%s: expected OP:PATH\n", arg);
            continue;
        }
        *colon = '\0';
        char *path = colon + 1;
        char op_label[PATH_MAX + 16];
        if (!label) {
            snprintf(op_label, sizeof op_label, "%s %s", arg, path);
            label = op_label;
        }
        run(label, arg, path);
    }
    return 0;
}
