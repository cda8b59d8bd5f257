/* SPDX-License-Identifier: GPL-2.0-or-later */
/* enosys.c - calls Linux 5.15 answers ENOSYS to on Debian 12's arm64
 * kernel (emu/kernel/syscall_ni.c: pkeys, lookup_dcookie) and a number no
 * table has (1000): each gives ENOSYS; asymu notes on stderr only the one
 * it does not know (tests/e2e/newcalls.cmake). */
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
    show("syscall 1000", syscall(1000, 0, 0, 0, 0, 0));
    return 0;
}
