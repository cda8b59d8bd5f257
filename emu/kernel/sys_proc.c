/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_proc.c - process identity and lifetime: exit, ids, uname, personality,
 * limits, sysinfo, and the basic affinity queries (prctl: prctl.c). */
#include "abi.h"
#include "abi_user.h"
#include "futex.h"
#include "machine.h"
#include "machine_events.h"
#include "mm.h"
#include "scheduler.h"
#include "syscalls.h"
#include "task.h"
#include "uts.h"
#include "fd_unshare.h"
#include "file.h"

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
    if (a[1] != abi_longs_size(t, ROBUST_LIST_HEAD_LONGS))
        return -EINVAL;
    t->robust_list = a[0];
    return 0;
}

/* get_robust_list(pid, head_ptr, len_ptr) (kernel/futex.c, and its compat
 * twin with 32-bit words): the head a thread registered, and the size of
 * struct robust_list_head (24, 12), a pointer and a size_t of the caller. */
SYSCALL_DECL(get_robust_list)
{
    const struct task *target = a[0] ? task_find(t->machine, (int)a[0]) : t;
    if (!target || target->state == TASK_DEAD)
        return -ESRCH;
    if (!cred_may_access(t->proc, target->proc))
        return -EPERM;
    int64_t len = (int64_t)abi_longs_size(t, ROBUST_LIST_HEAD_LONGS);
    int64_t head = (int64_t)target->robust_list;
    if (put_user_longs(t, a[2], &len, 1) < 0)
        return -EFAULT;
    return put_user_longs(t, a[1], &head, 1);
}

/* membarrier(cmd, flags, cpu_id) (kernel/sched/membarrier.c): every vCPU of
 * the machine runs in one host thread, one at a time, so every barrier
 * asked for has already happened; what remains is the kernel's bookkeeping.
 * The rseq commands are not offered: asymu has no rseq (ENOSYS). */
#define MB_GLOBAL 1
#define MB_GLOBAL_EXPEDITED 2
#define MB_REGISTER_GLOBAL_EXPEDITED 4
#define MB_PRIVATE_EXPEDITED 8
#define MB_REGISTER_PRIVATE_EXPEDITED 16
#define MB_PRIVATE_EXPEDITED_SYNC_CORE 32
#define MB_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE 64
#define MB_SUPPORTED                                                                               \
    (MB_GLOBAL | MB_GLOBAL_EXPEDITED | MB_REGISTER_GLOBAL_EXPEDITED | MB_PRIVATE_EXPEDITED |       \
     MB_REGISTER_PRIVATE_EXPEDITED | MB_PRIVATE_EXPEDITED_SYNC_CORE |                              \
     MB_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE)

SYSCALL_DECL(membarrier)
{
    int cmd = (int)a[0];
    if ((unsigned)a[1])
        return -EINVAL; /* MEMBARRIER_CMD_FLAG_CPU is for the rseq command only */
    struct mm *mm = task_mm(t);
    switch (cmd) {
    case 0: /* MEMBARRIER_CMD_QUERY */
        return MB_SUPPORTED;
    case MB_GLOBAL:
    case MB_GLOBAL_EXPEDITED:
        return 0;
    case MB_REGISTER_GLOBAL_EXPEDITED:
    case MB_REGISTER_PRIVATE_EXPEDITED:
    case MB_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE:
        mm->membarrier_registered |= (unsigned)cmd;
        return 0;
    case MB_PRIVATE_EXPEDITED:
    case MB_PRIVATE_EXPEDITED_SYNC_CORE:
        /* Registration first (membarrier_private_expedited()). */
        return mm->membarrier_registered & ((unsigned)cmd << 1) ? 0 : -EPERM;
    default:
        return -EINVAL;
    }
}

/* vhangup() (fs/open.c): CAP_SYS_TTY_CONFIG; the hang-up of the
 * controlling terminal itself is not modelled. */
SYSCALL_DECL(vhangup)
{
    (void)a;
    return capable(t, CAP_SYS_TTY_CONFIG) ? 0 : -EPERM;
}

/* unshare(flags) (kernel/fork.c ksys_unshare()) on a kernel built without
 * namespaces: a new namespace of any kind is EINVAL, as copy_*_ns() answer
 * then. CLONE_THREAD, CLONE_SIGHAND and CLONE_VM need a single-threaded
 * process (check_unshare_flags()); CLONE_FILES gives the process its own
 * descriptor table. asymu keeps the descriptor table and the fs state
 * (cwd, root, umask) per process, so CLONE_FILES and CLONE_FS in a process of
 * several threads are EINVAL (Linux gives the calling thread its own). */
#define GUEST_CLONE_VM 0x100
#define GUEST_CLONE_FS 0x200
#define GUEST_CLONE_FILES 0x400
#define GUEST_CLONE_SIGHAND 0x800
#define GUEST_CLONE_THREAD 0x10000
#define GUEST_CLONE_SYSVSEM 0x40000
#define GUEST_CLONE_NEWNS_ALL 0x7e020080u /* NEWNS, NEWCGROUP, UTS, IPC, USER, PID, NET, NEWTIME */

SYSCALL_DECL(unshare)
{
    uint64_t flags = (uint32_t)a[0];
    const uint64_t known = GUEST_CLONE_THREAD | GUEST_CLONE_FS | GUEST_CLONE_NEWNS_ALL |
                           GUEST_CLONE_SIGHAND | GUEST_CLONE_VM | GUEST_CLONE_FILES |
                           GUEST_CLONE_SYSVSEM;
    if (flags & ~known)
        return -EINVAL;
    if (flags & GUEST_CLONE_NEWNS_ALL)
        return -EINVAL;
    bool alone = t->proc->live_threads == 1;
    if (!alone && (flags & (GUEST_CLONE_THREAD | GUEST_CLONE_SIGHAND | GUEST_CLONE_VM |
                            GUEST_CLONE_FILES | GUEST_CLONE_FS)))
        return -EINVAL;
    if (flags & GUEST_CLONE_FILES)
        return fdtable_unshare(t->proc);
    return 0;
}

/* setns(fd, nstype): no descriptor names a namespace on a kernel without
 * them (EINVAL; a bad fd EBADF first, an unknown nstype EINVAL). */
SYSCALL_DECL(setns)
{
    if (!file_get(t, (int)a[0]))
        return -EBADF;
    return -EINVAL;
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

/* struct sysinfo in longs of the ABI: uptime, loads[3], totalram,
 * freeram, sharedram, bufferram, totalswap, freeswap, procs (a u16 and its
 * padding), totalhigh, freehigh, mem_unit (a u32 and its padding), then
 * the pad to abi->sysinfo_longs. */
SYSCALL_DECL(sysinfo)
{
    const struct mm *mm = task_mm(t);
    int64_t v[16] = {0};
    v[0] = (int64_t)(machine_now(t->machine) / 1000000000u);
    v[4] = (int64_t)mm->max_total;
    v[5] = (int64_t)(mm->max_total - mm->usable);
    v[10] = 1; /* procs */
    v[13] = 1; /* mem_unit */
    return put_user_longs(t, a[0], v, task_abi(t)->sysinfo_longs);
}
