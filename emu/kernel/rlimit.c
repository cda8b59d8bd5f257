/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rlimit.c - resource limits: what getrlimit, setrlimit and prlimit64 show
 * and change, and the limits the kernel enforces. NOFILE bounds descriptor
 * numbers (fd.c), AS the bytes mapped (mm.c, with --max-mem), STACK the
 * stack exec maps, FSIZE regular file sizes (SIGXFSZ), CPU the CPU time
 * (SIGXCPU, then SIGKILL). NPROC is kept but, as Linux does for root, not
 * enforced: the guest runs as uid 0 with every capability (--max-procs
 * bounds processes instead). */
#include "abi.h"
#include "abi_user.h"
#include "emu.h"
#include "file.h"
#include "machine.h"
#include "mm.h"
#include "rlimit.h"
#include "signals.h"
#include "syscalls.h"
#include "task.h"
#include "timers.h"

#include <errno.h>
#include <signal.h>
#include <sys/resource.h>

#define INF RLIM64_INFINITY
#define NSEC 1000000000u
#define STACK_MIN (32u << 10)
/* The stack is mapped whole at exec and must stay clear of mmap_base,
 * which both ABIs put 128 MiB and more below the stack's top (Linux's
 * smallest gap too): an unlimited or larger RLIMIT_STACK gets this much. */
#define STACK_MAX (128u << 20)

void rlimit_init(struct process *p)
{
    for (int r = 0; r < GUEST_RLIM_NLIMITS; r++)
        p->rlim[r] = (struct rlimit_pair){INF, INF};
    /* Linux's INIT_RLIMITS; NPROC and SIGPENDING are half the kernel's
     * thread bound there, here --max-procs. */
    uint64_t procs = p->machine->cfg->max_procs;
    p->rlim[RLIMIT_STACK].cur = 8u << 20;
    p->rlim[RLIMIT_CORE].cur = 0;
    p->rlim[RLIMIT_NPROC] = (struct rlimit_pair){procs, procs};
    p->rlim[RLIMIT_NOFILE] = (struct rlimit_pair){1024, 4096};
    p->rlim[RLIMIT_MEMLOCK] = (struct rlimit_pair){64u << 10, 64u << 10};
    p->rlim[RLIMIT_SIGPENDING] = (struct rlimit_pair){procs, procs};
    p->rlim[RLIMIT_MSGQUEUE] = (struct rlimit_pair){819200, 819200};
    p->rlim[RLIMIT_NICE] = (struct rlimit_pair){0, 0};
    p->rlim[RLIMIT_RTPRIO] = (struct rlimit_pair){0, 0};
}

uint64_t rlimit_cur(const struct process *p, int res)
{
    return p->rlim[res].cur;
}

int rlimit_nofile(const struct task *t)
{
    uint64_t n = rlimit_cur(t->proc, RLIMIT_NOFILE);
    return n < FD_MAX ? (int)n : FD_MAX;
}

uint64_t rlimit_stack_size(const struct process *p)
{
    uint64_t n = rlimit_cur(p, RLIMIT_STACK) & ~(uint64_t)4095;
    return n < STACK_MIN ? STACK_MIN : n > STACK_MAX ? STACK_MAX : n;
}

int rlimit_fsize_clamp(const struct task *t, uint64_t pos, size_t *len)
{
    uint64_t limit = rlimit_cur(t->proc, RLIMIT_FSIZE);
    if (limit == INF)
        return 0;
    if (pos >= limit)
        return -EFBIG;
    if (*len > limit - pos)
        *len = (size_t)(limit - pos);
    return 0;
}

int rlimit_fsize_exceeded(struct task *t)
{
    struct siginfo_lite info = {.code = SI_KERNEL};
    signal_queue_process(t->proc, SIGXFSZ, &info);
    return -EFBIG;
}

int rlimit_fsize_check(struct task *t, uint64_t size)
{
    uint64_t limit = rlimit_cur(t->proc, RLIMIT_FSIZE);
    return limit != INF && size > limit ? rlimit_fsize_exceeded(t) : 0;
}

void rlimit_cpu_check(struct task *t)
{
    struct process *p = t->proc;
    struct rlimit_pair *cpu = &p->rlim[RLIMIT_CPU];
    if (cpu->cur == INF || p->exiting)
        return;
    uint64_t used = process_cpu_ns(p);
    struct siginfo_lite info = {.code = SI_KERNEL};
    if (cpu->max != INF && used >= cpu->max * NSEC) {
        signal_queue_process(p, SIGKILL, &info);
        return;
    }
    if (used >= cpu->cur * NSEC) {
        /* As Linux: the soft limit moves one second on, for the next. */
        signal_queue_process(p, SIGXCPU, &info);
        cpu->cur++;
    }
}

/* Linux's do_prlimit: the hard limit rises only with CAP_SYS_RESOURCE,
 * and NOFILE's never above fs.nr_open. */
static int set_limit(struct task *t, struct process *p, int res, struct rlimit_pair nl)
{
    if (nl.cur > nl.max)
        return -EINVAL;
    if (res == RLIMIT_NOFILE && nl.max > RLIMIT_NR_OPEN)
        return -EPERM;
    if (nl.max > p->rlim[res].max && !capable(t, CAP_SYS_RESOURCE))
        return -EPERM;
    p->rlim[res] = nl;
    if (res == RLIMIT_AS)
        p->mm->max_as = nl.cur;
    return 0;
}

/* check_prlimit_permission(): another process's limits need the caller's
 * real ids to be all of its uids and gids, or CAP_SYS_RESOURCE. */
static bool prlimit_permitted(struct task *t, const struct process *p)
{
    const struct cred *c = &t->proc->cred, *o = &p->cred;
    if (p == t->proc || capable(t, CAP_SYS_RESOURCE))
        return true;
    return c->u.real == o->u.real && c->u.real == o->u.eff && c->u.real == o->u.saved &&
           c->g.real == o->g.real && c->g.real == o->g.eff && c->g.real == o->g.saved;
}

SYSCALL_DECL(prlimit64)
{
    int pid = (int)a[0], res = (int)a[1];
    if (res < 0 || res >= GUEST_RLIM_NLIMITS)
        return -EINVAL;
    struct process *p = pid ? process_find(t->machine, pid) : t->proc;
    if (!p || p->zombie)
        return -ESRCH;
    if (!prlimit_permitted(t, p))
        return -EPERM;
    struct rlimit_pair nl, old = p->rlim[res];
    if (a[2] && copy_from_guest(task_mm(t), &nl, a[2], sizeof nl) < 0)
        return -EFAULT;
    if (a[2]) {
        int err = set_limit(t, p, res, nl);
        if (err < 0)
            return err;
    }
    if (a[3] && copy_to_guest(task_mm(t), a[3], &old, sizeof old) < 0)
        return -EFAULT;
    return 0;
}

/* A limit as the ABI's struct rlimit holds it: past its RLIM_INFINITY
 * (a 32-bit task's COMPAT_RLIM_INFINITY) it is RLIM_INFINITY. */
static uint64_t rlim_to_user(const struct abi *abi, uint64_t v)
{
    return v > abi->rlim_infinity ? abi->rlim_infinity : v;
}

static uint64_t rlim_from_user(const struct abi *abi, uint64_t v)
{
    return v == abi->rlim_infinity ? INF : v;
}

/* getrlimit (arm64) and ugetrlimit (arm): struct rlimit of unsigned longs
 * (compat_sys_getrlimit() for a 32-bit task). */
SYSCALL_DECL(getrlimit)
{
    int res = (int)a[0];
    if (res < 0 || res >= GUEST_RLIM_NLIMITS)
        return -EINVAL;
    const struct abi *abi = task_abi(t);
    struct rlimit_pair l = t->proc->rlim[res];
    int64_t r[2] = {(int64_t)rlim_to_user(abi, l.cur), (int64_t)rlim_to_user(abi, l.max)};
    return put_user_longs(t, a[1], r, 2);
}

/* setrlimit: the same struct; its RLIM_INFINITY means unlimited. */
SYSCALL_DECL(setrlimit)
{
    int res = (int)a[0];
    if (res < 0 || res >= GUEST_RLIM_NLIMITS)
        return -EINVAL;
    const struct abi *abi = task_abi(t);
    uint64_t r[2];
    if (get_user_ulongs(t, a[1], r, 2) < 0)
        return -EFAULT;
    struct rlimit_pair nl = {rlim_from_user(abi, r[0]), rlim_from_user(abi, r[1])};
    return set_limit(t, t->proc, res, nl);
}
