/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sys_sched.c - scheduling syscalls: affinity (the calls the asymmetric
 * policies act on), yield, getcpu, nice and scheduling classes, and syslog
 * (dmesg) for the kernel log. The decisions are sched/'s. */
#include "abi.h"
#include "abi_user.h"
#include "cgroup.h"
#include "fs_calls.h"
#include "futex.h"
#include "klog.h"
#include "machine.h"
#include "mm.h"
#include "sched_attr.h"
#include "scheduler.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <string.h>

/* CONFIG_NR_CPUS of arm64's defconfig. */
#define DEFCONFIG_NR_CPUS 256

/* The kernel's cpumask_size(): NR_CPUS bits in 64-bit longs, NR_CPUS being
 * the defconfig's 256 or, on a bigger machine, its vCPUs (spec 2.4); the
 * same for compat callers. */
static size_t kernel_mask_bytes(const struct machine *m)
{
    unsigned nr = m->sched.nr_cpus > DEFCONFIG_NR_CPUS ? m->sched.nr_cpus : DEFCONFIG_NR_CPUS;
    return (nr + 63) / 64 * 8;
}

static struct task *target_of(struct task *t, int pid)
{
    if (pid < 0)
        return NULL;
    return pid == 0 ? t : task_find(t->machine, pid);
}

/* find_process_by_pid() of the affinity calls: an unreaped (zombie) process
 * leader is still found (spec 2.4). */
static struct task *affinity_target_of(struct task *t, int pid)
{
    if (pid < 0)
        return NULL;
    return pid == 0 ? t : task_find_unreaped(t->machine, pid);
}

/* Both ABIs: a multiple of the caller's long, and room for every vCPU. */
static int check_mask_len(struct task *t, uint64_t len)
{
    if (len * 8 < t->machine->sched.nr_cpus || len % abi_longs_size(t, 1))
        return -EINVAL;
    return 0;
}

/* The length is checked before the pid is looked up (spec 2.4). */
SYSCALL_DECL(sched_getaffinity)
{
    struct machine *m = t->machine;
    uint32_t len = (uint32_t)a[1];
    int err = check_mask_len(t, len);
    if (err)
        return err;
    struct task *target = affinity_target_of(t, (int)a[0]);
    if (!target)
        return -ESRCH;
    struct cpumask mask;
    sched_task_getaffinity(&m->sched, &target->se, &mask);
    size_t n = len < kernel_mask_bytes(m) ? len : kernel_mask_bytes(m);
    return copy_to_guest(task_mm(t), a[2], mask.bits, n) < 0 ? -EFAULT : (int64_t)n;
}

/* The mask is read before the pid is looked up: at most the kernel's mask,
 * missing bytes are zero, and in the ABI's units (abi->cpumask_unit: a
 * compat caller reads whole 4-byte words, so len = 9 reads 12 bytes). */
SYSCALL_DECL(sched_setaffinity)
{
    struct machine *m = t->machine;
    struct cpumask mask;
    cpumask_clear(&mask);
    size_t len = (uint32_t)a[1], want = kernel_mask_bytes(m);
    if (len > want)
        len = want;
    size_t unit = task_abi(t)->cpumask_unit;
    len = (len + unit - 1) / unit * unit;
    if (copy_from_guest(task_mm(t), mask.bits, a[2], len) < 0)
        return -EFAULT;
    struct task *target = affinity_target_of(t, (int)a[0]);
    if (!target)
        return -ESRCH;
    int err = sched_dl_check_affinity(&m->sched, &target->se, &mask);
    if (err < 0)
        return err;
    /* __sched_setaffinity() (CG3): the mask is cut to cpuset_cpus_allowed();
     * nothing left is -EINVAL. A task of the top cpuset keeps the policy's
     * own rules (docs/policies.md), which already cut to the CPUs it may run
     * on; so does linux-6.6's, which keeps the request as the user mask. */
    if (!cgroup_cut_affinity(m, target, &mask))
        return -EINVAL;
    err = sched_task_setaffinity(&m->sched, &t->se, &target->se, &mask);
    if (t->se.need_resched)
        t->stop = true;
    return err;
}

SYSCALL_DECL(sched_yield)
{
    (void)a;
    sched_task_yield(&t->machine->sched, &t->se);
    t->stop = true;
    return 0;
}

SYSCALL_DECL(getcpu)
{
    uint32_t cpu = t->se.cpu, node = 0;
    if (a[0] && copy_to_guest(task_mm(t), a[0], &cpu, sizeof cpu) < 0)
        return -EFAULT;
    if (a[1] && copy_to_guest(task_mm(t), a[1], &node, sizeof node) < 0)
        return -EFAULT;
    return 0;
}

#define PRIO_PROCESS 0

/* setpriority(PRIO_PROCESS, who, nice): the nice value of a task. */
SYSCALL_DECL(setpriority)
{
    if ((int)a[0] != PRIO_PROCESS)
        return -EINVAL;
    struct task *target = target_of(t, (int)a[1]);
    if (!target)
        return -ESRCH;
    int nice = (int)a[2];
    nice = nice < -20 ? -20 : nice > 19 ? 19 : nice;
    int err = sched_task_set_nice(&t->machine->sched, &target->se, nice);
    if (!err)
        futex_pi_sched_changed(target); /* set_user_nice(): p->prio again */
    return err;
}

/* getpriority returns 20 - nice, as the kernel's syscall does. */
SYSCALL_DECL(getpriority)
{
    if ((int)a[0] != PRIO_PROCESS)
        return -EINVAL;
    struct task *target = target_of(t, (int)a[1]);
    return target ? 20 - target->se.nice : -ESRCH;
}

SYSCALL_DECL(sched_setscheduler)
{
    int policy = (int)a[1];
    return policy < 0 ? -EINVAL : sched_attr_setscheduler(t, (int)a[0], policy, a[2]);
}

SYSCALL_DECL(sched_setparam)
{
    return sched_attr_setscheduler(t, (int)a[0], -1, a[1]);
}

SYSCALL_DECL(sched_getscheduler)
{
    if ((int)a[0] < 0)
        return -EINVAL;
    struct task *target = target_of(t, (int)a[0]);
    return target ? sched_attr_policy_of(target) : -ESRCH;
}

SYSCALL_DECL(sched_getparam)
{
    if (!a[1] || (int)a[0] < 0)
        return -EINVAL;
    struct task *target = target_of(t, (int)a[0]);
    if (!target)
        return -ESRCH;
    int32_t prio = target->rt_priority;
    return copy_to_guest(task_mm(t), a[1], &prio, sizeof prio);
}

SYSCALL_DECL(sched_get_priority_max)
{
    (void)t;
    return sched_attr_priority_range((int)a[0], true);
}

SYSCALL_DECL(sched_get_priority_min)
{
    (void)t;
    return sched_attr_priority_range((int)a[0], false);
}

enum {
    SYSLOG_ACTION_READ = 2,
    SYSLOG_ACTION_READ_ALL = 3,
    SYSLOG_ACTION_READ_CLEAR = 4,
    SYSLOG_ACTION_CLEAR = 5,
    SYSLOG_ACTION_SIZE_UNREAD = 9,
    SYSLOG_ACTION_SIZE_BUFFER = 10,
};

/* syslog(type, buf, len): what busybox dmesg and klogctl use. */
SYSCALL_DECL(syslog)
{
    struct machine *m = t->machine;
    int type = (int)a[0];
    int32_t len = (int32_t)a[2];
    char text[KLOG_DEFAULT_CAPACITY * 128];
    switch (type) {
    case SYSLOG_ACTION_READ:
    case SYSLOG_ACTION_READ_ALL:
    case SYSLOG_ACTION_READ_CLEAR: {
        if (len < 0)
            return -EINVAL;
        uint64_t from = type == SYSLOG_ACTION_READ_ALL ? m->klog_cleared : m->klog_read;
        size_t n = klog_read(&m->klog, from, KLOG_LEVEL_PREFIX, text, sizeof text);
        n = n < sizeof text ? n : sizeof text - 1;
        /* READ_ALL returns the newest messages that fit. */
        size_t skip = n > (size_t)len ? n - (size_t)len : 0;
        if (skip) {
            const char *nl = memchr(text + skip - 1, '\n', n - skip + 1);
            skip = nl ? (size_t)(nl + 1 - text) : n;
        }
        if (copy_to_guest(task_mm(t), a[1], text + skip, n - skip) < 0)
            return -EFAULT;
        if (type != SYSLOG_ACTION_READ_ALL)
            m->klog_read = klog_next_seq(&m->klog);
        if (type == SYSLOG_ACTION_READ_CLEAR)
            m->klog_cleared = klog_next_seq(&m->klog);
        return (int64_t)(n - skip);
    }
    case SYSLOG_ACTION_CLEAR:
        m->klog_cleared = klog_next_seq(&m->klog);
        return 0;
    case SYSLOG_ACTION_SIZE_UNREAD:
        return (int64_t)klog_read(&m->klog, m->klog_read, KLOG_LEVEL_PREFIX, NULL, 0);
    case SYSLOG_ACTION_SIZE_BUFFER:
        return (int64_t)sizeof text;
    case 0:
    case 1:
    case 6:
    case 7:
    case 8:
        return 0; /* close, open, console level: nothing to do */
    default:
        return -EINVAL;
    }
}

/* SCHED_RR's quantum is Linux's 100 ms; SCHED_FIFO and SCHED_DEADLINE have
 * none (0); a fair task's is its sched_slice() in whole jiffies
 * (get_rr_interval_fair()), 0 on a runqueue without fair tasks. */
int64_t do_sched_rr_get_interval(struct task *t, int pid, uint64_t tp, unsigned field)
{
    if (pid < 0)
        return -EINVAL;
    struct task *target = target_of(t, pid);
    if (!target)
        return -ESRCH;
    const struct sched *s = &t->machine->sched;
    int policy = target->sched_policy;
    uint64_t ns = policy == SCHED_RR                                  ? SCHED_RR_TIMESLICE_NS
                  : policy == SCHED_FIFO || policy == SCHED_DEADLINE ? 0
                                                                     : sched_rr_interval_fair(s, &target->se);
    return timespec_to_guest(t, tp, ns, field);
}

SYSCALL_DECL(sched_rr_get_interval)
{
    return do_sched_rr_get_interval(t, (int)a[0], a[1], abi_time_field(t));
}
