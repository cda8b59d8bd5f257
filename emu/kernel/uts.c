/* SPDX-License-Identifier: GPL-2.0-or-later */
/* uts.c - sethostname and setdomainname: the names uname reports
 * (sys_proc.c), kept per machine; they need CAP_SYS_ADMIN (cred.h). */
#include "machine.h"
#include "mm.h"
#include "syscalls.h"
#include "task.h"
#include "uts.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void uts_init(struct machine *m)
{
    snprintf(m->uts_nodename, sizeof m->uts_nodename, "asymu");
    snprintf(m->uts_domainname, sizeof m->uts_domainname, "(none)");
}

/* Linux takes exactly len bytes (NULs included) and clears the rest;
 * CAP_SYS_ADMIN is asked first. */
static int64_t set_name(struct task *t, char *field, uint64_t uname, uint64_t len)
{
    if (!capable(t, CAP_SYS_ADMIN))
        return -EPERM;
    int32_t n = (int32_t)len; /* an int in Linux */
    if (n < 0 || n > UTS_LEN - 1)
        return -EINVAL;
    char name[UTS_LEN] = {0};
    if (n && copy_from_guest(task_mm(t), name, uname, (size_t)n) < 0)
        return -EFAULT;
    memcpy(field, name, UTS_LEN);
    return 0;
}

SYSCALL_DECL(sethostname)
{
    return set_name(t, t->machine->uts_nodename, a[0], a[1]);
}

SYSCALL_DECL(setdomainname)
{
    return set_name(t, t->machine->uts_domainname, a[0], a[1]);
}
