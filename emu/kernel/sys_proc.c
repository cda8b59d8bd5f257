/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_proc.c - process identity and lifetime: exit, ids, uname, personality,
 * limits, prctl, sysinfo, and the basic affinity queries. */
#include "abi.h"
#include "machine.h"
#include "machine_events.h"
#include "mm.h"
#include "scheduler.h"
#include "syscalls.h"
#include "task.h"
#include "uts.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#define PER_QUERY 0xffffffffu
#define PER_MASK 0xff

SYSCALL_DECL(getpid)
{
    (void)a;
    return t->proc->pid;
}

SYSCALL_DECL(getppid)
{
    (void)a;
    return t->proc->parent ? t->proc->parent->pid : 0;
}

SYSCALL_DECL(gettid)
{
    (void)a;
    return t->tid;
}

SYSCALL_DECL(umask)
{
    unsigned old = t->proc->umask;
    t->proc->umask = (unsigned)a[0] & 0777;
    return old;
}

SYSCALL_DECL(set_tid_address)
{
    t->clear_child_tid = a[0];
    return t->tid;
}

SYSCALL_DECL(set_robust_list)
{
    (void)t;
    return a[1] == (task_abi(t)->word == 8 ? 24u : 12u) ? 0 : -EINVAL;
}

SYSCALL_DECL(rseq)
{
    (void)t, (void)a;
    return -ENOSYS;
}

SYSCALL_DECL(uname)
{
    char u[6][UTS_LEN];
    memset(u, 0, sizeof u);
    bool linux32 = (t->proc->personality & PER_MASK) == PER_LINUX32;
    snprintf(u[0], UTS_LEN, "Linux");
    memcpy(u[1], t->machine->uts_nodename, UTS_LEN);
    snprintf(u[2], UTS_LEN, KERNEL_RELEASE);
    snprintf(u[3], UTS_LEN, KERNEL_VERSION);
    /* arm64 Linux reports aarch64 to compat tasks too; only the PER_LINUX32
     * personality (linux32, setarch) changes it. */
    snprintf(u[4], UTS_LEN, linux32 ? "armv8l" : "aarch64");
    memcpy(u[5], t->machine->uts_domainname, UTS_LEN);
    return copy_to_guest(task_mm(t), a[0], u, sizeof u);
}

SYSCALL_DECL(personality)
{
    unsigned old = t->proc->personality, want = (unsigned)a[0];
    if (want == PER_QUERY)
        return old;
    if ((want & PER_MASK) == PER_LINUX32 && !t->machine->sched.aarch32_el0_allowed)
        return -EINVAL;
    t->proc->personality = want;
    return old;
}

#define PR_SET_NAME 15
#define PR_GET_NAME 16

SYSCALL_DECL(prctl)
{
    char name[COMM_LEN];
    switch ((int)a[0]) {
    case PR_SET_NAME: {
        int64_t n = strncpy_from_guest(task_mm(t), name, a[1], sizeof name);
        if (n == -EFAULT)
            return -EFAULT;
        name[COMM_LEN - 1] = '\0';
        mev_rename(t, name);
        sched_task_set_comm(&t->se, name);
        return 0;
    }
    case PR_GET_NAME:
        return copy_to_guest(task_mm(t), a[1], t->se.comm, COMM_LEN);
    default:
        return -EINVAL;
    }
}

/* struct sysinfo in guest words: uptime, loads[3], totalram, freeram,
 * sharedram, bufferram, totalswap, freeswap, procs (u16), totalhigh,
 * freehigh, mem_unit (u32). */
SYSCALL_DECL(sysinfo)
{
    unsigned w = task_abi(t)->word;
    uint8_t buf[128];
    memset(buf, 0, sizeof buf);
    uint64_t words[8] = {machine_now(t->machine) / 1000000000u, 0, 0, 0,
                         task_mm(t)->max_total, task_mm(t)->max_total - task_mm(t)->usable, 0, 0};
    for (int i = 0; i < 8; i++)
        memcpy(buf + i * w, &words[i], w);
    uint16_t procs = 1;
    memcpy(buf + 10 * w, &procs, 2); /* after totalswap, freeswap */
    uint32_t unit = 1;
    size_t size = w == 8 ? 112 : 64;
    memcpy(buf + 13 * w, &unit, 4);
    return copy_to_guest(task_mm(t), a[0], buf, size);
}
