/* SPDX-License-Identifier: GPL-2.0-or-later */
/* prctl.c - prctl(2) as Linux 5.15's kernel/sys.c answers it on arm64:
 * the options of a process's or thread's own settings, each with the
 * argument checks the kernel makes, and EINVAL for what arm64 or the
 * emulated CPU lacks (unaligned-access, FP and endian controls, SVE,
 * pointer authentication, MPX, syscall user dispatch). */
#include "abi.h"
#include "machine.h"
#include "machine_events.h"
#include "mm.h"
#include "scheduler.h"
#include "guest_seccomp.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <string.h>

/* uapi linux/prctl.h */
enum {
    PR_SET_PDEATHSIG = 1, PR_GET_PDEATHSIG = 2, PR_GET_DUMPABLE = 3, PR_SET_DUMPABLE = 4,
    PR_GET_TIMING = 13, PR_SET_TIMING = 14, PR_SET_NAME = 15, PR_GET_NAME = 16,
    PR_GET_SECCOMP = 21, PR_SET_SECCOMP = 22,
    PR_SET_TIMERSLACK = 29, PR_GET_TIMERSLACK = 30,
    PR_TASK_PERF_EVENTS_DISABLE = 31, PR_TASK_PERF_EVENTS_ENABLE = 32,
    PR_MCE_KILL = 33, PR_MCE_KILL_GET = 34, PR_SET_MM = 35,
    PR_SET_CHILD_SUBREAPER = 36, PR_GET_CHILD_SUBREAPER = 37,
    PR_SET_NO_NEW_PRIVS = 38, PR_GET_NO_NEW_PRIVS = 39, PR_GET_TID_ADDRESS = 40,
    PR_SET_THP_DISABLE = 41, PR_GET_THP_DISABLE = 42,
    PR_GET_SPECULATION_CTRL = 52, PR_SET_SPECULATION_CTRL = 53,
    PR_SET_TAGGED_ADDR_CTRL = 55, PR_GET_TAGGED_ADDR_CTRL = 56,
    PR_SET_IO_FLUSHER = 57, PR_GET_IO_FLUSHER = 58,
};
#define PR_SET_PTRACER 0x59616d61
#define PR_SET_PTRACER_ANY ((uint64_t)-1)
#define PR_MCE_KILL_CLEAR 0
#define PR_MCE_KILL_SET 1
#define PR_MCE_KILL_LATE 0
#define PR_MCE_KILL_EARLY 1
#define PR_MCE_KILL_DEFAULT 2
#define PR_SPEC_STORE_BYPASS 0
#define PR_SPEC_NOT_AFFECTED 0
#define PR_SPEC_ENABLE 2
#define PR_TAGGED_ADDR_ENABLE 1
#define NSIG_VALID 64 /* valid_signal(): up to _NSIG */

static int64_t put_int(struct task *t, uint64_t addr, int v)
{
    return copy_to_guest(task_mm(t), addr, &v, sizeof v);
}

static int64_t set_name(struct task *t, uint64_t uname)
{
    char name[COMM_LEN];
    int64_t n = strncpy_from_guest(task_mm(t), name, uname, sizeof name);
    if (n == -EFAULT)
        return -EFAULT;
    name[COMM_LEN - 1] = '\0';
    mev_rename(t, name);
    sched_task_set_comm(&t->se, name);
    return 0;
}

/* PR_SET_CHILD_SUBREAPER: on, every descendant knows to look for it
 * (propagate_has_child_subreaper()). */
static void mark_descendants(struct process *p)
{
    for (struct process *c = p->children; c; c = c->next_sibling) {
        c->has_child_subreaper = true;
        mark_descendants(c);
    }
}

/* PR_MCE_KILL: the memory-failure policy, kept and reported; the machine
 * has no memory errors to apply it to. */
static int64_t mce_kill(struct task *t, const uint64_t a[6])
{
    if (a[3] || a[4])
        return -EINVAL;
    switch (a[1]) {
    case PR_MCE_KILL_CLEAR:
        if (a[2])
            return -EINVAL;
        t->mce_kill = PR_MCE_KILL_DEFAULT;
        return 0;
    case PR_MCE_KILL_SET:
        if (a[2] != PR_MCE_KILL_EARLY && a[2] != PR_MCE_KILL_LATE &&
            a[2] != PR_MCE_KILL_DEFAULT)
            return -EINVAL;
        t->mce_kill = (int)a[2];
        return 0;
    default:
        return -EINVAL;
    }
}

/* PR_{GET,SET}_SPECULATION_CTRL on arm64 (arch_prctl_spec_ctrl_*): only
 * speculative store bypass is known, and an emulated CPU does not
 * speculate: not affected, and enabling it (the only state) succeeds. */
static int64_t speculation(const uint64_t a[6], bool set)
{
    if (a[3] || a[4] || (!set && a[2]))
        return -EINVAL;
    if (a[1] != PR_SPEC_STORE_BYPASS)
        return -ENODEV;
    if (!set)
        return PR_SPEC_NOT_AFFECTED;
    return a[2] == PR_SPEC_ENABLE ? 0 : -ERANGE;
}

/* PR_GET_TIMERSLACK: the slack as the call's unsigned long result can
 * hold it, a 32-bit task's at most its ULONG_MAX. */
static int64_t timer_slack_for(const struct abi *abi, uint64_t slack)
{
    uint64_t ulong_max = abi_ulong_max(abi);
    return (int64_t)(slack > ulong_max ? ulong_max : slack);
}

SYSCALL_DECL(prctl)
{
    /* security_task_prctl() first: the capability options (capability.c). */
    int64_t cap = cap_prctl(t, (int)a[0], a);
    if (cap != -ENOSYS)
        return cap;
    const struct abi *abi = task_abi(t);
    switch ((int)a[0]) {
    case PR_SET_PDEATHSIG:
        if (a[1] > NSIG_VALID)
            return -EINVAL;
        t->pdeath_signal = (int)a[1];
        return 0;
    case PR_GET_PDEATHSIG:
        return put_int(t, a[1], t->pdeath_signal);
    case PR_GET_DUMPABLE:
        return !t->proc->undumpable;
    case PR_SET_DUMPABLE:
        if (a[1] > 1) /* SUID_DUMP_DISABLE or SUID_DUMP_USER */
            return -EINVAL;
        t->proc->undumpable = a[1] == 0;
        return 0;
    case PR_GET_TIMING:
        return 0; /* PR_TIMING_STATISTICAL */
    case PR_SET_TIMING:
        return a[1] ? -EINVAL : 0;
    case PR_SET_NAME:
        return set_name(t, a[1]);
    case PR_GET_NAME:
        return copy_to_guest(task_mm(t), a[1], t->se.comm, COMM_LEN);
    case PR_GET_SECCOMP:
        return t->seccomp_mode;
    case PR_SET_SECCOMP:
        return guest_seccomp_prctl(t, a[1], a[2]);
    case PR_SET_TIMERSLACK:
        t->timer_slack_ns = a[1] ? a[1] : t->timer_slack_default_ns;
        return 0;
    case PR_GET_TIMERSLACK:
        return timer_slack_for(abi, t->timer_slack_ns);
    case PR_TASK_PERF_EVENTS_DISABLE:
    case PR_TASK_PERF_EVENTS_ENABLE:
        return 0; /* the task has no perf events to switch */
    case PR_MCE_KILL:
        return mce_kill(t, a);
    case PR_MCE_KILL_GET:
        return a[1] || a[2] || a[3] || a[4] ? -EINVAL : t->mce_kill;
    case PR_SET_MM:
        /* prctl_set_mm(): CAP_SYS_RESOURCE first; rewriting the mm's
         * layout is not modelled */
        return capable(t, CAP_SYS_RESOURCE) ? -EINVAL : -EPERM;
    case PR_SET_CHILD_SUBREAPER:
        t->proc->child_subreaper = a[1] != 0;
        if (a[1])
            mark_descendants(t->proc);
        return 0;
    case PR_GET_CHILD_SUBREAPER:
        return put_int(t, a[1], t->proc->child_subreaper);
    case PR_SET_NO_NEW_PRIVS:
        if (a[1] != 1 || a[2] || a[3] || a[4])
            return -EINVAL;
        t->no_new_privs = true;
        return 0;
    case PR_GET_NO_NEW_PRIVS:
        return a[1] || a[2] || a[3] || a[4] ? -EINVAL : t->no_new_privs;
    case PR_GET_TID_ADDRESS: {
        /* prctl_get_tid_address(): a pointer of the 64-bit kernel, 8 bytes
         * for a compat task too */
        uint64_t addr = t->clear_child_tid;
        return copy_to_guest(task_mm(t), a[1], &addr, sizeof addr);
    }
    case PR_SET_THP_DISABLE:
        if (a[2] || a[3] || a[4])
            return -EINVAL;
        t->proc->thp_disabled = a[1] != 0;
        return 0;
    case PR_GET_THP_DISABLE:
        return a[1] || a[2] || a[3] || a[4] ? -EINVAL : t->proc->thp_disabled;
    case PR_GET_SPECULATION_CTRL:
        return speculation(a, false);
    case PR_SET_SPECULATION_CTRL:
        return speculation(a, true);
    case PR_SET_TAGGED_ADDR_CTRL:
        /* as with abi.tagged_addr_disabled=1: asymu's calls do not untag
         * pointers, so the tagged address ABI cannot be turned on */
        if (a[2] || a[3] || a[4] || !abi->tagged_addr || a[1] & ~(uint64_t)PR_TAGGED_ADDR_ENABLE)
            return -EINVAL;
        return a[1] ? -EINVAL : 0;
    case PR_GET_TAGGED_ADDR_CTRL:
        return a[1] || a[2] || a[3] || a[4] || !abi->tagged_addr ? -EINVAL : 0;
    case PR_SET_IO_FLUSHER:
        if (!capable(t, CAP_SYS_RESOURCE))
            return -EPERM;
        if (a[2] || a[3] || a[4] || a[1] > 1)
            return -EINVAL;
        t->io_flusher = a[1] == 1;
        return 0;
    case PR_GET_IO_FLUSHER:
        if (!capable(t, CAP_SYS_RESOURCE))
            return -EPERM;
        return a[1] || a[2] || a[3] || a[4] ? -EINVAL : t->io_flusher;
    case PR_SET_PTRACER:
        /* Yama's yama_task_prctl(): 0, any, or a live process (ptrace
         * scope is not enforced: docs/ptrace.md) */
        if (a[1] && a[1] != abi_ulong(abi, PR_SET_PTRACER_ANY) &&
            !task_find(t->machine, (int)a[1]))
            return -EINVAL;
        return 0;
    default:
        return -EINVAL;
    }
}
