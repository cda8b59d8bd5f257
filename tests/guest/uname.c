/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uname.c - prints uname's sysname and machine; with argument "linux32"
 * first switches to PER_LINUX32 as linux32(1) does, and prints the previous
 * and current personality before the machine again. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/utsname.h>

static int print_uname(void)
{
    struct utsname u;
    if (uname(&u) != 0) {
        printf("uname failed: %s\n", strerrorname_np(errno));
        return 1;
    }
    printf("sysname %s\n", u.sysname);
    printf("machine %s\n", u.machine);
    return 0;
}

int main(int argc, char **argv)
{
    if (print_uname())
        return 1;
    if (argc > 1 && strcmp(argv[1], "linux32") == 0) {
        int old = personality(PER_LINUX32);
        if (old == -1) {
            printf("personality(PER_LINUX32) failed: %s\n", strerrorname_np(errno));
            return 1;
        }
        printf("personality(PER_LINUX32) returned 0x%04x\n", (unsigned)old);
        printf("personality now 0x%04x\n", (unsigned)personality(0xffffffff));
        if (print_uname())
            return 1;
    }
    return 0;
}
