/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched_attr.c - sched_setattr/sched_getattr and the setter shared with
 * sched_setscheduler/sched_setparam, checking in the order Linux 5.15 does:
 * the struct (size protocol), the policy and flags, the priority or the
 * deadline parameters, the clamps, then admission (EPERM, EBUSY). */
#include "machine.h"
#include "mm.h"
#include "sched_attr.h"
#include "futex.h"
#include "scheduler.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>
#include <string.h>

#define SCHED_FLAG_RESET_ON_FORK 0x01
#define SCHED_FLAG_RECLAIM 0x02
#define SCHED_FLAG_DL_OVERRUN 0x04
#define SCHED_FLAG_KEEP_POLICY 0x08
#define SCHED_FLAG_KEEP_PARAMS 0x10
#define SCHED_FLAG_UTIL_CLAMP_MIN 0x20
#define SCHED_FLAG_UTIL_CLAMP_MAX 0x40
#define SCHED_FLAG_UTIL_CLAMP (SCHED_FLAG_UTIL_CLAMP_MIN | SCHED_FLAG_UTIL_CLAMP_MAX)
#define SCHED_FLAG_ALL 0x7f
#define SCHED_DL_FLAGS (SCHED_FLAG_RECLAIM | SCHED_FLAG_DL_OVERRUN)

#define SCHED_ATTR_SIZE_VER0 48  /* up to sched_period */
#define SCHED_ATTR_SIZE_VER1 56  /* with the utilization clamps */
#define SCHED_ATTR_SIZE_MAX 4096 /* the kernel's PAGE_SIZE limit */
#define SCHED_CAPACITY 1024      /* a clamp's full scale */
#define RT_PRIO_MAX 99

/* struct sched_attr: the same layout for both ABIs. */
struct sched_attr {
    uint32_t size, policy;
    uint64_t flags;
    int32_t nice;
    uint32_t priority;
    uint64_t runtime, deadline, period;
    uint32_t util_min, util_max;
};
_Static_assert(sizeof(struct sched_attr) == SCHED_ATTR_SIZE_VER1, "struct sched_attr");

static struct task *target_of(struct task *t, int pid)
{
    return pid == 0 ? t : task_find(t->machine, pid);
}

static bool is_rt(int policy)
{
    return policy == SCHED_FIFO || policy == SCHED_RR;
}

static bool is_fair(int policy)
{
    return policy == SCHED_OTHER || policy == SCHED_BATCH || policy == SCHED_IDLE;
}

/* The clamps in effect: a real-time task is boosted to full by default. */
static uint32_t util_min_of(const struct sched_task *se)
{
    return se->util_min_set ? se->util_min : se->cls == SCHED_CLASS_RT ? SCHED_CAPACITY : 0;
}

static uint32_t util_max_of(const struct sched_task *se)
{
    return se->util_max_set ? se->util_max : SCHED_CAPACITY;
}

/* The current parameters, as sched_getattr reports them. */
static void get_params(const struct task *target, struct sched_attr *attr)
{
    const struct sched_task *se = &target->se;
    if (target->sched_policy == SCHED_DEADLINE) {
        attr->priority = (uint32_t)target->rt_priority;
        attr->runtime = se->dl.runtime;
        attr->deadline = se->dl.deadline;
        attr->period = se->dl.period;
        attr->flags |= se->dl.flags;
    } else if (is_rt(target->sched_policy)) {
        attr->priority = (uint32_t)target->rt_priority;
    } else {
        attr->nice = se->nice;
    }
}

static int check_clamps(const struct sched_task *se, const struct sched_attr *attr)
{
    /* As ints: -1 (reset to the default) passes, as in the kernel. */
    int min = (int)util_min_of(se), max = (int)util_max_of(se);
    if (attr->flags & SCHED_FLAG_UTIL_CLAMP_MIN) {
        min = (int)attr->util_min;
        if (min + 1 > SCHED_CAPACITY + 1)
            return -EINVAL;
    }
    if (attr->flags & SCHED_FLAG_UTIL_CLAMP_MAX) {
        max = (int)attr->util_max;
        if (max + 1 > SCHED_CAPACITY + 1)
            return -EINVAL;
    }
    return min != -1 && max != -1 && min > max ? -EINVAL : 0;
}

static void set_clamps(struct sched_task *se, const struct sched_attr *attr)
{
    if (attr->flags & SCHED_FLAG_UTIL_CLAMP_MIN) {
        se->util_min_set = attr->util_min != UINT32_MAX;
        se->util_min = se->util_min_set ? (uint16_t)attr->util_min : 0;
    }
    if (attr->flags & SCHED_FLAG_UTIL_CLAMP_MAX) {
        se->util_max_set = attr->util_max != UINT32_MAX;
        se->util_max = se->util_max_set ? (uint16_t)attr->util_max : 0;
    }
}

/* Whether attr asks for anything the target does not already have. */
static bool changes(const struct task *target, int policy, const struct sched_attr *attr)
{
    const struct sched_task *se = &target->se;
    if (policy != target->sched_policy || (attr->flags & SCHED_FLAG_UTIL_CLAMP))
        return true;
    if (is_fair(policy))
        return attr->nice != se->nice;
    if (is_rt(policy))
        return (int)attr->priority != target->rt_priority;
    uint64_t period = attr->period ? attr->period : attr->deadline;
    return attr->runtime != se->dl.runtime || attr->deadline != se->dl.deadline ||
           period != se->dl.period || (attr->flags & SCHED_DL_FLAGS) != se->dl.flags;
}

/* The kernel's __sched_setscheduler for a caller with CAP_SYS_NICE;
 * attr->policy -1 keeps the policy (and the reset-on-fork flag). */
static int set_scheduler(struct task *t, struct task *target, const struct sched_attr *attr)
{
    struct sched *s = &t->machine->sched;
    struct sched_task *se = &target->se;
    int policy = (int)attr->policy;
    bool reset;
    if (policy < 0) {
        policy = target->sched_policy;
        reset = se->reset_on_fork;
    } else {
        if (!is_fair(policy) && !is_rt(policy) && policy != SCHED_DEADLINE)
            return -EINVAL;
        reset = attr->flags & SCHED_FLAG_RESET_ON_FORK;
    }
    if (attr->flags & ~(uint64_t)SCHED_FLAG_ALL)
        return -EINVAL;
    if (attr->priority > RT_PRIO_MAX)
        return -EINVAL;
    if ((policy == SCHED_DEADLINE &&
         !sched_dl_params_valid(attr->runtime, attr->deadline, attr->period)) ||
        is_rt(policy) != (attr->priority != 0))
        return -EINVAL;
    int err;
    if ((attr->flags & SCHED_FLAG_UTIL_CLAMP) && (err = check_clamps(se, attr)) < 0)
        return err;
    if (!changes(target, policy, attr)) {
        se->reset_on_fork = reset;
        return 0;
    }
    bool keep_params = attr->flags & SCHED_FLAG_KEEP_PARAMS;
    if (policy == SCHED_DEADLINE && !keep_params) {
        err = sched_task_set_deadline(s, se, attr->runtime, attr->deadline, attr->period,
                                      (uint32_t)(attr->flags & SCHED_DL_FLAGS));
        if (err < 0)
            return err;
    } else if (!keep_params) {
        if (is_fair(policy))
            sched_task_set_nice(s, se, attr->nice);
        sched_task_set_class(s, se, is_rt(policy) ? SCHED_CLASS_RT : SCHED_CLASS_FAIR,
                             (int)attr->priority, policy == SCHED_RR);
    }
    if (!keep_params)
        sched_task_set_fair_policy(s, se, policy == SCHED_IDLE, policy == SCHED_BATCH);
    se->reset_on_fork = reset;
    if (!keep_params) {
        target->sched_policy = policy;
        target->rt_priority = (int)attr->priority;
    }
    set_clamps(se, attr);
    futex_pi_sched_changed(target); /* a PI boost stays above the new class */
    if (t->se.need_resched)
        t->stop = true;
    return 0;
}

int64_t sched_attr_setscheduler(struct task *t, int pid, int policy, uint64_t uparam)
{
    if (!uparam || pid < 0)
        return -EINVAL;
    int32_t prio;
    if (copy_from_guest(task_mm(t), &prio, uparam, sizeof prio) < 0)
        return -EFAULT;
    struct task *target = target_of(t, pid);
    if (!target)
        return -ESRCH;
    struct sched_attr attr = {.policy = (uint32_t)policy, .priority = (uint32_t)prio};
    if (policy >= 0 && (policy & SCHED_RESET_ON_FORK)) {
        attr.flags = SCHED_FLAG_RESET_ON_FORK;
        attr.policy = (uint32_t)(policy & ~SCHED_RESET_ON_FORK);
    }
    /* The old calls keep the nice value. */
    attr.nice = target->se.nice;
    return set_scheduler(t, target, &attr);
}

int sched_attr_policy_of(const struct task *target)
{
    return target->sched_policy | (target->se.reset_on_fork ? SCHED_RESET_ON_FORK : 0);
}

int sched_attr_priority_range(int policy, bool max)
{
    if (is_rt(policy))
        return max ? RT_PRIO_MAX : 1;
    return is_fair(policy) || policy == SCHED_DEADLINE ? 0 : -EINVAL;
}

void sched_attr_fork(struct task *child, const struct task *parent)
{
    bool reset = parent->se.reset_on_fork && !is_fair(parent->sched_policy);
    child->sched_policy = reset ? SCHED_OTHER : parent->sched_policy;
    child->rt_priority = reset ? 0 : parent->rt_priority;
}

/* Reads the user's struct: a size of 0 means VER0; a size below VER0 or
 * above a page, or a larger struct whose extra bytes are not all zero, is
 * E2BIG with the kernel's size written back. */
static int copy_attr(struct task *t, uint64_t uattr, struct sched_attr *attr)
{
    struct mm *mm = task_mm(t);
    uint32_t size;
    memset(attr, 0, sizeof *attr);
    if (copy_from_guest(mm, &size, uattr, sizeof size) < 0)
        return -EFAULT;
    if (!size)
        size = SCHED_ATTR_SIZE_VER0;
    bool too_big = size < SCHED_ATTR_SIZE_VER0 || size > SCHED_ATTR_SIZE_MAX;
    if (!too_big) {
        if (copy_from_guest(mm, attr, uattr, size < sizeof *attr ? size : sizeof *attr) < 0)
            return -EFAULT;
        for (uint64_t at = sizeof *attr; at < size && !too_big; at++) {
            uint8_t byte;
            if (copy_from_guest(mm, &byte, uattr + at, 1) < 0)
                return -EFAULT;
            too_big = byte != 0;
        }
    }
    if (too_big) {
        uint32_t ksize = sizeof *attr;
        copy_to_guest(mm, uattr, &ksize, sizeof ksize);
        return -E2BIG;
    }
    if ((attr->flags & SCHED_FLAG_UTIL_CLAMP) && size < SCHED_ATTR_SIZE_VER1)
        return -EINVAL;
    attr->nice = attr->nice < -20 ? -20 : attr->nice > 19 ? 19 : attr->nice;
    return 0;
}

/* sched_setattr(pid, attr, flags) */
SYSCALL_DECL(sched_setattr)
{
    int pid = (int)a[0];
    if (!a[1] || pid < 0 || (uint32_t)a[2])
        return -EINVAL;
    struct sched_attr attr;
    int err = copy_attr(t, a[1], &attr);
    if (err < 0)
        return err;
    if ((int)attr.policy < 0)
        return -EINVAL;
    if (attr.flags & SCHED_FLAG_KEEP_POLICY)
        attr.policy = (uint32_t)-1;
    struct task *target = target_of(t, pid);
    if (!target)
        return -ESRCH;
    if (attr.flags & SCHED_FLAG_KEEP_PARAMS)
        get_params(target, &attr);
    return set_scheduler(t, target, &attr);
}

/* sched_getattr(pid, attr, size, flags): writes min(size, 56) bytes with
 * that size in the size field. */
SYSCALL_DECL(sched_getattr)
{
    int pid = (int)a[0];
    uint32_t usize = (uint32_t)a[2];
    if (!a[1] || pid < 0 || usize > SCHED_ATTR_SIZE_MAX || usize < SCHED_ATTR_SIZE_VER0 ||
        (uint32_t)a[3])
        return -EINVAL;
    struct task *target = target_of(t, pid);
    if (!target)
        return -ESRCH;
    struct sched_attr attr = {.policy = (uint32_t)target->sched_policy};
    if (target->se.reset_on_fork)
        attr.flags |= SCHED_FLAG_RESET_ON_FORK;
    get_params(target, &attr);
    attr.flags &= SCHED_FLAG_ALL;
    attr.util_min = util_min_of(&target->se);
    attr.util_max = util_max_of(&target->se);
    attr.size = usize < sizeof attr ? usize : sizeof attr;
    return copy_to_guest(task_mm(t), a[1], &attr, attr.size) < 0 ? -EFAULT : 0;
}
