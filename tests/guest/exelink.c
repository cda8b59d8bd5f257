/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exelink.c - /proc/self/exe names the program file, not the symlink it
 * was started by (d_path(); the JRE's launcher finds libjli.so next to
 * it): the program execs itself through a symlink in /tmp and compares. */
#define _GNU_SOURCE
#include "guest.h"

#include <limits.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    char self[PATH_MAX] = "";
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n < 0)
        return 1;
    self[n] = '\0';
    if (argc > 1) {
        printf("through the link, /proc/self/exe is the program: %d\n", strcmp(self, argv[1]) == 0);
        printf("argv[0] stays the link: %s\n", argv[0]);
        return 0;
    }
    unlink("/tmp/exelink");
    if (symlink(self, "/tmp/exelink") != 0)
        return 2;
    char *args[] = {"/tmp/exelink", self, NULL};
    execv(args[0], args);
    return 3;
}
