/* SPDX-License-Identifier: GPL-2.0-or-later */
/* enosys.c - calls Linux 5.15 answers ENOSYS to on Debian 12's arm64
 * kernel (emu/kernel/syscall_ni.c: pkeys, lookup_dcookie) and one newer
 * than 5.15 that asymu lacks (futex_waitv, 5.16): each gives ENOSYS; asymu
 * notes on stderr only the one it lacks (tests/e2e/newcalls.cmake). */
#define _GNU_SOURCE
#include "guest.h"

#include <sys/syscall.h>

static void show(const char *what, long r)
{
    printf("%s: %s\n", what, r < 0 ? err_name(errno) : "ok");
}

int main(void)
{
    show("pkey_alloc", syscall(SYS_pkey_alloc, 0, 0));
    show("lookup_dcookie", syscall(SYS_lookup_dcookie, 0, 0, 0));
    show("futex_waitv", syscall(SYS_futex_waitv, 0, 0, 0, 0, 0));
    return 0;
}
