/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uid16.c - the ARM table's 16-bit id calls (getuid, setgroups, chown...
 * numbered as in arch/arm/include/uapi/asm/unistd.h, which glibc no longer
 * calls) next to their 32-bit twins: overflow id 65534 for ids past 65535,
 * 0xffff for "keep" (tests/e2e/newcalls.cmake; armhf only). */
#define _GNU_SOURCE
#include "guest.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define NR_getuid 24
#define NR_geteuid 49
#define NR_getgid 47
#define NR_getegid 50
#define NR_setresgid 170
#define NR_getresgid 171
#define NR_getgroups 80
#define NR_setgroups 81
#define NR_chown 182
#define NR_fchown 95
#define NR_setfsuid 138
#define NR_setgroups32 206
#define NR_setfsuid32 215

static void show(const char *what, long r)
{
    if (r < 0)
        printf("%s: %s\n", what, err_name(errno));
    else
        printf("%s: %ld\n", what, r);
}

static void groups16(void)
{
    unsigned short g[4] = {0};
    long n = syscall(NR_getgroups, 4, g);
    printf("getgroups16: %ld:", n);
    for (long i = 0; i < n; i++)
        printf(" %u", g[i]);
    printf("\n");
}

int main(void)
{
#ifndef __arm__
    puts("the 16-bit id calls are the ARM table's");
    return 0;
#endif
    show("getuid16", syscall(NR_getuid));
    show("geteuid16", syscall(NR_geteuid));
    show("getgid16", syscall(NR_getgid));
    show("getegid16", syscall(NR_getegid));
    unsigned short two[2] = {200, 100};
    show("setgroups16 200 100", syscall(NR_setgroups, 2, two));
    show("getgroups16 size 0", syscall(NR_getgroups, 0, NULL));
    groups16();
    show("getgroups16 size 1", syscall(NR_getgroups, 1, two));
    unsigned int big[2] = {70000, 9};
    show("setgroups32 70000 9", syscall(NR_setgroups32, 2, big));
    groups16();
    show("setresgid16 keep 300 keep", syscall(NR_setresgid, 0xffff, 300, 0xffff));
    unsigned short r = 1, e = 1, s = 1;
    show("getresgid16", syscall(NR_getresgid, &r, &e, &s));
    printf("gids %u %u %u\n", r, e, s);
    show("getresgid16 to a bad address", syscall(NR_getresgid, &r, (void *)8, &s));
    int fd = open("/tmp/uid16", O_CREAT | O_WRONLY, 0644);
    show("chown16 1000 keep", syscall(NR_chown, "/tmp/uid16", 1000, 0xffff));
    show("fchown16 keep 7", syscall(NR_fchown, fd, 0xffff, 7));
    struct stat st;
    fstat(fd, &st);
    printf("owner %u:%u\n", (unsigned)st.st_uid, (unsigned)st.st_gid);
    show("setfsuid32 70000", syscall(NR_setfsuid32, 70000));
    show("setfsuid16 keep (returns the fsuid)", syscall(NR_setfsuid, 0xffff));
    return 0;
}
