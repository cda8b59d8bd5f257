/* SPDX-License-Identifier: GPL-2.0-or-later */
/* signal.c - signals: dispositions, masks, queueing to processes and
 * threads, delivery on the way back to user mode (default actions or a
 * handler frame built by the ABI), and the signal syscalls. */
#include "kcost.h"
#include "abi.h"
#include "abi_user.h"
#include "event.h"
#include "lifetime.h"
#include "ptrace.h"
#include "machine.h"
#include "machine_events.h"
#include "mm.h"
#include "restart.h"
#include "signals.h"
#include "stop_hooks.h"
#include "strace.h"
#include "syscalls.h"
#include "task.h"
#include "timers.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#define GUEST_SIG_DFL 0
#define GUEST_SIG_IGN 1
#define GUEST_SA_ONSTACK 0x08000000
#define GUEST_SA_NODEFER 0x40000000
#define GUEST_SA_RESETHAND 0x80000000u
#define GUEST_SS_ONSTACK 1
#define GUEST_SS_DISABLE 2
#define UNBLOCKABLE (SIGBIT(SIGKILL) | SIGBIT(SIGSTOP))
#define CORE_DUMPED 0x80

static bool sig_ignored_by_default(int sig)
{
    return sig == SIGCHLD || sig == SIGCONT || sig == SIGURG || sig == SIGWINCH;
}

static bool sig_stops(int sig)
{
    return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

static bool sig_dumps_core(int sig)
{
    return sig == SIGQUIT || sig == SIGILL || sig == SIGTRAP || sig == SIGABRT || sig == SIGBUS ||
           sig == SIGFPE || sig == SIGSEGV || sig == SIGXCPU || sig == SIGXFSZ || sig == SIGSYS;
}

/* Whether sending sig to p would do nothing at all (discarded at send time):
 * never while the target blocks it, as the disposition may change before it
 * is unblocked (and sigwait or a signalfd may take it), nor when the target
 * is traced (its tracer sees every signal in a signal-delivery-stop). */
static bool sig_discarded(const struct process *p, uint64_t blocked, bool traced, int sig)
{
    if (sig == SIGKILL || sig == SIGSTOP || (blocked & SIGBIT(sig)) || traced)
        return false;
    uint64_t h = p->sighand->action[sig].handler;
    return h == GUEST_SIG_IGN || (h == GUEST_SIG_DFL && sig_ignored_by_default(sig));
}

#define CLD_STOPPED_ 5
#define CLD_CONTINUED_ 6
#define GUEST_SA_NOCLDSTOP 1

/* Tells the parent that p stopped or continued: SIGCHLD (unless it asked
 * for SA_NOCLDSTOP) and a wake-up for waitpid. */
static void notify_parent(struct process *p, int code, int status)
{
    struct process *parent = p->parent;
    if (!parent)
        return;
    if (!(parent->sighand->action[SIGCHLD].flags & GUEST_SA_NOCLDSTOP)) {
        struct siginfo_lite info = {.code = code, .pid = p->pid, .status = status};
        signal_queue_process(parent, SIGCHLD, &info);
    }
    task_wake_all(p->machine, parent);
}

static void wake_threads(struct process *p)
{
    for (struct task *t = p->threads; t; t = t->next_thread)
        if (t->state == TASK_BLOCKED)
            task_wake(t); /* a thread in a syscall finds it still blocks */
}

/* What sending sig does at once, whatever the disposition: SIGCONT
 * continues a stopped process and drops pending stops; a stop signal drops
 * a pending SIGCONT; SIGKILL gets every thread moving to die. */
static void on_send(struct process *p, int sig)
{
    if (sig == SIGCONT) {
        uint64_t stops = SIGBIT(SIGSTOP) | SIGBIT(SIGTSTP) | SIGBIT(SIGTTIN) | SIGBIT(SIGTTOU);
        p->pending.set &= ~stops;
        for (struct task *t = p->threads; t; t = t->next_thread)
            t->pending.set &= ~stops;
        if (p->stopped) {
            p->stopped = false;
            p->stop_report = 0;
            p->cont_report = true;
            wake_threads(p);
            notify_parent(p, CLD_CONTINUED_, SIGCONT);
        }
    } else if (sig_stops(sig)) {
        p->pending.set &= ~SIGBIT(SIGCONT);
        for (struct task *t = p->threads; t; t = t->next_thread)
            t->pending.set &= ~SIGBIT(SIGCONT);
    } else if (sig == SIGKILL && p->stopped) {
        p->stopped = false;
        wake_threads(p);
    }
}

/* The default action of a stop signal: every thread of p stands still. */
static void stop_process(struct task *t, int sig)
{
    struct process *p = t->proc;
    if (p->stopped)
        return;
    p->stopped = true;
    p->stop_report = sig;
    p->cont_report = false;
    notify_parent(p, CLD_STOPPED_, sig);
}

bool signal_stopped(struct task *t)
{
    return t->proc->stopped && !ptrace_overrides_group_stop(t) && !((t->pending.set | t->proc->pending.set) & SIGBIT(SIGKILL));
}

void signal_kill_process(struct task *t, int sig)
{
    struct process *p = t->proc;
    if (p->exiting)
        return;
    int status = sig | (sig_dumps_core(sig) ? CORE_DUMPED : 0);
    if (stop_hooks_exit_stop(t, status))
        return; /* its tracer sees it about to die: the exit follows the restart */
    process_exit_group(p, status);
}

/* What queueing sig on sp does, as __send_signal() reports it. */
static int pend_result(const struct sigpending *sp, int sig)
{
    if (sig < SIGRTMIN_GUEST)
        return sp->set & SIGBIT(sig) ? MEV_SIGNAL_ALREADY_PENDING : MEV_SIGNAL_DELIVERED;
    return sp->nrt == RTQUEUE_MAX ? MEV_SIGNAL_OVERFLOW_FAIL : MEV_SIGNAL_DELIVERED;
}

/* Adds an instance: a standard signal already pending is not queued twice. */
static bool pend_add(struct sigpending *sp, int sig, const struct siginfo_lite *info)
{
    if (sig < SIGRTMIN_GUEST) {
        if (!(sp->set & SIGBIT(sig)))
            sp->info[sig] = *info;
    } else {
        if (sp->nrt == RTQUEUE_MAX)
            return false;
        sp->rt[sp->nrt].sig = sig;
        sp->rt[sp->nrt++].info = *info;
    }
    sp->set |= SIGBIT(sig);
    return true;
}

/* Takes the oldest instance of sig. */
static struct siginfo_lite pend_take(struct sigpending *sp, int sig)
{
    if (sig < SIGRTMIN_GUEST) {
        sp->set &= ~SIGBIT(sig);
        return sp->info[sig];
    }
    struct siginfo_lite info = {0};
    bool more = false, taken = false;
    unsigned o = 0;
    for (unsigned i = 0; i < sp->nrt; i++) {
        if (!taken && sp->rt[i].sig == sig) {
            info = sp->rt[i].info;
            taken = true;
            continue;
        }
        more |= sp->rt[i].sig == sig;
        sp->rt[o++] = sp->rt[i];
    }
    sp->nrt = o;
    if (!more)
        sp->set &= ~SIGBIT(sig);
    return info;
}

/* Forgets every instance of sig (it became ignored). */
static void pend_flush(struct sigpending *sp, int sig)
{
    while (sp->set & SIGBIT(sig))
        pend_take(sp, sig);
}

/* Linux's SYNCHRONOUS_MASK: the faults a task caused itself. */
#define SYNCHRONOUS (SIGBIT(SIGSEGV) | SIGBIT(SIGBUS) | SIGBIT(SIGILL) | SIGBIT(SIGTRAP) | \
                     SIGBIT(SIGFPE) | SIGBIT(SIGSYS))

/* dequeue_signal(): takes the next signal of set for t into *info, the
 * signal or 0. The thread's own queue goes first, then its process's;
 * within a queue a synchronous signal goes first, then the lowest
 * (next_signal()), a real-time signal's instances in the order sent. */
static int take_next(struct task *t, uint64_t set, struct siginfo_lite *info)
{
    struct sigpending *sp = (t->pending.set & set) ? &t->pending : &t->proc->pending;
    uint64_t ready = sp->set & set;
    if (!ready)
        return 0;
    if (ready & SYNCHRONOUS)
        ready &= SYNCHRONOUS;
    int sig = __builtin_ctzll(ready) + 1;
    *info = pend_take(sp, sig);
    return sig;
}

static int64_t resume_sigtimedwait(struct task *t);

/* Whether t is in rt_sigtimedwait for sig (blocked, yet what it waits for). */
static bool waits_for(const struct task *t, int sig)
{
    return t->state == TASK_BLOCKED && t->resume == resume_sigtimedwait &&
           (t->wait_args[0] & SIGBIT(sig));
}

void signal_queue_task(struct task *t, int sig, const struct siginfo_lite *info)
{
    if (t->state == TASK_DEAD)
        return;
    on_send(t->proc, sig);
    if (sig_discarded(t->proc, t->sigmask, t->ptrace != NULL, sig)) {
        mev_signal_generate(t, sig, info->code, false, MEV_SIGNAL_IGNORED);
        return;
    }
    mev_signal_generate(t, sig, info->code, false, pend_result(&t->pending, sig));
    pend_add(&t->pending, sig, info);
    signalfd_signal_queued(t->machine, sig);
    if (t->state == TASK_BLOCKED && (signal_pending(t) || waits_for(t, sig)))
        task_wake(t);
}

/* The thread a process-directed signal is sent to, whose mask and tracing
 * Linux checks: the group leader. */
static struct task *leader_of(const struct process *p)
{
    for (struct task *t = p->threads; t; t = t->next_thread)
        if (t->tid == p->pid)
            return t;
    return NULL;
}

static bool takes_now(const struct task *t, int sig)
{
    return t->state != TASK_DEAD && (!(t->sigmask & SIGBIT(sig) & ~UNBLOCKABLE) || waits_for(t, sig));
}

void signal_queue_process(struct process *p, int sig, const struct siginfo_lite *info)
{
    if (p->zombie || p->exiting)
        return;
    on_send(p, sig);
    struct task *leader = leader_of(p);
    /* the task the kernel's __send_signal() is given: the one pid names */
    struct task *to = leader ? leader : p->threads;
    if (sig_discarded(p, leader ? leader->sigmask : 0, leader && leader->ptrace, sig)) {
        if (to)
            mev_signal_generate(to, sig, info->code, true, MEV_SIGNAL_IGNORED);
        return;
    }
    if (to)
        mev_signal_generate(to, sig, info->code, true, pend_result(&p->pending, sig));
    pend_add(&p->pending, sig, info);
    signalfd_signal_queued(p->machine, sig);
    /* Wake one thread that can take it now: the leader first, as Linux's
     * complete_signal prefers the task the signal was sent to. */
    if (leader && takes_now(leader, sig)) {
        if (leader->state == TASK_BLOCKED)
            task_wake(leader);
        return;
    }
    for (struct task *t = p->threads; t; t = t->next_thread) {
        if (takes_now(t, sig)) {
            if (t->state == TASK_BLOCKED)
                task_wake(t);
            break;
        }
    }
}

static uint64_t deliverable(const struct task *t)
{
    return (t->pending.set | t->proc->pending.set) & ~(t->sigmask & ~UNBLOCKABLE);
}

bool signal_pending(struct task *t)
{
    return deliverable(t) != 0 || ptrace_interrupt_pending(t);
}

int signal_fatal(const struct task *t)
{
    uint64_t ready = deliverable(t);
    if (ready & SIGBIT(SIGKILL))
        return SIGKILL;
    if (stop_hooks_traces(t)) /* the debugger sees the signal first */
        return 0;
    for (int sig = 1; sig <= NSIG_GUEST; sig++) {
        if (!(ready & SIGBIT(sig)) || t->proc->sighand->action[sig].handler != GUEST_SIG_DFL)
            continue;
        if (!sig_ignored_by_default(sig) && !sig_stops(sig) && !sig_dumps_core(sig))
            return sig;
    }
    return 0;
}

void signal_fill_info(struct task *t, int sig, const struct siginfo_lite *si, uint8_t info[128])
{
    int32_t head[3] = {sig, si->err, si->code};
    memset(info, 0, 128);
    memcpy(info, head, sizeof head);
    /* The union after signo, errno, code; its pointers and sigval_t are
     * longs of t's ABI (little-endian: the low bytes of si's values). */
    unsigned u = task_abi(t)->siginfo_fields;
    size_t ptr = abi_longs_size(t, 1);
    if (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP) {
        memcpy(info + u, &si->addr, ptr);
    } else if (sig == SIGSYS && si->code == 1 /* SYS_SECCOMP */) {
        /* _sigsys: the call's address, number and audit arch */
        memcpy(info + u, &si->addr, ptr);
        memcpy(info + u + ptr, &si->syscall, 4);
        memcpy(info + u + ptr + 4, &si->arch, 4);
    } else if (si->code == SI_TIMER) {
        int32_t ids[2] = {si->timerid, si->overrun};
        memcpy(info + u, ids, sizeof ids);
        memcpy(info + u + 8, &si->value, ptr); /* the timer's sigev_value */
    } else {
        int32_t ids[2] = {si->pid, si->uid};
        memcpy(info + u, ids, sizeof ids);
        if (sig == SIGCHLD)
            memcpy(info + u + 8, &si->status, 4);
        else if (si->code < 0 && si->code != SI_TKILL)
            memcpy(info + u + 8, &si->value, ptr); /* sigqueue's si_value */
    }
}

/* The stack a handler runs on: the alternate stack when asked for and not
 * already on it. */
static uint64_t handler_sp(struct task *t, const struct sigaction_guest *sa, uint64_t sp)
{
    if (!(sa->flags & GUEST_SA_ONSTACK) || (t->altstack_flags & GUEST_SS_DISABLE) ||
        !t->altstack_size)
        return sp;
    if (sp > t->altstack_sp && sp <= t->altstack_sp + t->altstack_size)
        return sp;
    return t->altstack_sp + t->altstack_size;
}

static uint64_t read_sp(struct task *t)
{
    return task_abi(t)->get_sp(task_mm(t)->uc);
}

void signal_deliver(struct task *t)
{
    struct process *p = t->proc;
    if (ptrace_stopped(t))
        return;
    /* A fatal signal goes first: Linux has made it a group exit already. */
    int fatal = signal_fatal(t);
    if (fatal && t->state == TASK_RUNNABLE) {
        /* get_signal() reports a group exit as SIGKILL, SI_USER */
        mev_signal_deliver(t, SIGKILL, 0, p->sighand->action[SIGKILL].handler,
                           p->sighand->action[SIGKILL].flags);
        signal_kill_process(t, fatal);
        return;
    }
    uint64_t ready;
    while (t->state == TASK_RUNNABLE && !p->exiting && (ready = deliverable(t))) {
        int sig = take_next(t, ready, &t->delivering);
        timer_signal_taken(t, sig, &t->delivering);
        if (stop_hooks_signal_stop(t, sig))
            return;
        struct sigaction_guest *sa = &p->sighand->action[sig];
        mev_signal_deliver(t, sig, t->delivering.code, sa->handler, sa->flags);
        if (sig != SIGKILL && sig != SIGSTOP) {
            if (sa->handler == GUEST_SIG_IGN)
                continue;
            if (sa->handler == GUEST_SIG_DFL && sig_ignored_by_default(sig))
                continue;
        }
        if (sig == SIGSTOP || (sa->handler == GUEST_SIG_DFL && sig_stops(sig))) {
            stop_process(t, sig);
            stop_hooks_group_stop(t, sig);
            return;
        }
        if (sig == SIGKILL || sa->handler == GUEST_SIG_DFL) {
            signal_kill_process(t, sig);
            return;
        }
        restart_settle(t, true, sa->flags);
        struct sigaction_guest act = *sa;
        if (task_abi(t)->setup_frame(t, sig, &act, handler_sp(t, &act, read_sp(t))) < 0) {
            signal_kill_process(t, SIGSEGV);
            return;
        }
        kcost_charge(t, EMU_COST_SIGNAL); /* the frame, and its rt_sigreturn later */
        t->sigmask |= act.mask | ((act.flags & GUEST_SA_NODEFER) ? 0 : SIGBIT(sig));
        t->sigmask &= ~UNBLOCKABLE;
        t->restore_sigmask = false;
        if (act.flags & GUEST_SA_RESETHAND)
            sa->handler = GUEST_SIG_DFL;
        return; /* one frame at a time; the rest come when it returns */
    }
    if (!p->exiting)
        restart_settle(t, false, 0); /* no handler ran: the call goes on */
    if (t->restore_sigmask) {
        t->sigmask = t->saved_sigmask;
        t->restore_sigmask = false;
    }
}

void signal_fault(struct task *t, int sig, uint64_t pc, uint64_t addr, const char *what)
{
    signal_fault_code(t, sig, 1 /* SEGV_MAPERR, ILL_ILLOPC, BUS_ADRALN */, pc, addr, what);
}

/* A signal the kernel forces for what t did (force_sig_info()) reaches a
 * handler that does not block it; a tracee's tracer sees it first (a
 * signal-delivery-stop), and so does gdb. Otherwise it ends the process. */
static bool force_caught(struct task *t, int sig)
{
    const struct sigaction_guest *sa = &t->proc->sighand->action[sig];
    return (sa->handler > GUEST_SIG_IGN && !(t->sigmask & SIGBIT(sig))) || stop_hooks_traces(t);
}

void signal_force(struct task *t, int sig, const struct siginfo_lite *info)
{
    if (!force_caught(t, sig)) {
        signal_kill_process(t, sig);
        return;
    }
    signal_queue_task(t, sig, info);
    t->stop = true;
}

void signal_fault_code(struct task *t, int sig, int code, uint64_t pc, uint64_t addr,
                       const char *what)
{
    if (!force_caught(t, sig)) {
        fprintf(stderr, "asymu: [pid %d] %s: %s at pc 0x%llx, fault address 0x%llx\n",
                t->proc->pid, signal_name(sig), what, (unsigned long long)pc,
                (unsigned long long)addr);
        signal_kill_process(t, sig);
        return;
    }
    struct siginfo_lite info = {.code = code, .addr = addr};
    signal_queue_task(t, sig, &info);
    t->stop = true;
}

/* ---- syscalls ---- */

bool signal_may_send(const struct task *t, const struct process *p, int sig)
{
    const struct cred *c = &t->proc->cred, *o = &p->cred;
    if (p == t->proc || capable(t, CAP_KILL))
        return true;
    if (c->u.eff == o->u.saved || c->u.eff == o->u.real || c->u.real == o->u.saved ||
        c->u.real == o->u.real)
        return true;
    return sig == SIGCONT && p->sid == t->proc->sid;
}

/* kill_pid_info() and group_send_sig_info(); a process group gets the
 * signal if any member may (__kill_pgrp_info()), and kill(-1) ignores the
 * processes it may not signal (kill_something_info()). */
static int send_to_pid(struct task *t, int pid, int sig)
{
    struct machine *m = t->machine;
    struct siginfo_lite info = {.code = SI_USER, .pid = t->proc->pid};
    if (pid > 0) {
        struct process *p = process_find(m, pid);
        if (!p)
            return -ESRCH;
        if (!signal_may_send(t, p, sig))
            return -EPERM;
        if (sig)
            signal_queue_process(p, sig, &info);
        return 0;
    }
    /* 0: the caller's group; -1: every process but init and the caller
     * (ESRCH when there is none); < -1: group -pid. INT_MIN names no group
     * (its negation does not exist): ESRCH, as Linux. */
    if (pid == INT_MIN)
        return -ESRCH;
    int pgid = pid == 0 ? t->proc->pgid : -pid;
    bool found = false, sent = false;
    for (struct task *o = m->tasks; o; o = o->next_all) {
        struct process *p = o->proc;
        if (o != p->threads || p->zombie)
            continue; /* once per process */
        if (pid == -1 ? (p == m->init || p == t->proc) : p->pgid != pgid)
            continue;
        found = true;
        if (!signal_may_send(t, p, sig))
            continue;
        sent = true;
        if (sig)
            signal_queue_process(p, sig, &info);
    }
    if (!found)
        return -ESRCH;
    return sent || pid == -1 ? 0 : -EPERM;
}

static int check_sig(uint64_t sig)
{
    return sig > NSIG_GUEST ? -EINVAL : 0;
}

SYSCALL_DECL(kill)
{
    int err = check_sig(a[1]);
    if (err)
        return err;
    err = send_to_pid(t, (int)a[0], (int)a[1]);
    if (signal_pending(t))
        t->stop = true;
    return err;
}

static int64_t send_to_thread(struct task *t, int tgid, int tid, int sig)
{
    if (tid <= 0 || check_sig((uint64_t)sig))
        return -EINVAL;
    struct task *target = task_find(t->machine, tid);
    if (!target || (tgid > 0 && target->proc->pid != tgid))
        return -ESRCH;
    if (!signal_may_send(t, target->proc, sig))
        return -EPERM;
    struct siginfo_lite info = {.code = SI_TKILL, .pid = t->proc->pid};
    if (sig)
        signal_queue_task(target, sig, &info);
    if (signal_pending(t))
        t->stop = true;
    return 0;
}

SYSCALL_DECL(tgkill)
{
    if ((int)a[0] <= 0)
        return -EINVAL;
    return send_to_thread(t, (int)a[0], (int)a[1], (int)a[2]);
}

SYSCALL_DECL(tkill)
{
    return send_to_thread(t, 0, (int)a[0], (int)a[1]);
}

/* The guest struct sigaction: handler, flags and restorer in the ABI's
 * longs, then the 64-bit sigset_t (arm64's struct sigaction with
 * __ARCH_HAS_SA_RESTORER; arm's compat_sigaction, whose compat_sigset_t is
 * two 32-bit words: the same 8 bytes). */
#define SIGACTION_LONGS 3

static int get_sigaction(struct task *t, uint64_t addr, struct sigaction_guest *sa)
{
    uint64_t w[SIGACTION_LONGS];
    memset(sa, 0, sizeof *sa);
    if (get_user_ulongs(t, addr, w, SIGACTION_LONGS) < 0 ||
        copy_from_guest(task_mm(t), &sa->mask, addr + abi_longs_size(t, SIGACTION_LONGS),
                        sizeof sa->mask) < 0)
        return -EFAULT;
    sa->handler = w[0], sa->flags = w[1], sa->restorer = w[2];
    return 0;
}

static int put_sigaction(struct task *t, uint64_t addr, const struct sigaction_guest *sa)
{
    int64_t w[SIGACTION_LONGS] = {(int64_t)sa->handler, (int64_t)sa->flags, (int64_t)sa->restorer};
    if (put_user_longs(t, addr, w, SIGACTION_LONGS) < 0)
        return -EFAULT;
    return copy_to_guest(task_mm(t), addr + abi_longs_size(t, SIGACTION_LONGS), &sa->mask,
                         sizeof sa->mask);
}

/* do_sigaction(): installs *nsa (if given) for sig, the action before it
 * in *old (if given). 0 or -EINVAL. */
static int do_sigaction(struct task *t, int sig, const struct sigaction_guest *nsa,
                        struct sigaction_guest *old)
{
    if (sig < 1 || sig > NSIG_GUEST || (nsa && (sig == SIGKILL || sig == SIGSTOP)))
        return -EINVAL;
    struct sigaction_guest *cur = &t->proc->sighand->action[sig];
    if (old)
        *old = *cur;
    if (nsa) {
        *cur = *nsa;
        cur->mask &= ~UNBLOCKABLE;
        /* Setting SIG_IGN (or a default that ignores) discards what is pending. */
        if (sig_discarded(t->proc, 0, false, sig)) {
            pend_flush(&t->proc->pending, sig);
            for (struct task *o = t->proc->threads; o; o = o->next_thread)
                pend_flush(&o->pending, sig);
        }
    }
    return 0;
}

SYSCALL_DECL(rt_sigaction)
{
    int sig = (int)a[0];
    if (sig < 1 || sig > NSIG_GUEST || a[3] != 8)
        return -EINVAL;
    struct sigaction_guest nsa, old = t->proc->sighand->action[sig];
    if (a[1]) {
        if (sig == SIGKILL || sig == SIGSTOP)
            return -EINVAL;
        if (get_sigaction(t, a[1], &nsa) < 0)
            return -EFAULT;
    }
    if (a[2] && put_sigaction(t, a[2], &old) < 0)
        return -EFAULT;
    return do_sigaction(t, sig, a[1] ? &nsa : NULL, NULL);
}

/* arm's sigaction(sig, act, oact) (compat_sys_sigaction): struct
 * compat_old_sigaction {handler, mask, flags, restorer}, a one-word mask
 * of signals 1-32; the old action is written after the change. */
SYSCALL_DECL(sigaction)
{
    struct sigaction_guest nsa, old;
    if (a[1]) {
        uint32_t w[4];
        if (copy_from_guest(task_mm(t), w, a[1], sizeof w) < 0)
            return -EFAULT;
        nsa = (struct sigaction_guest){.handler = w[0], .mask = w[1], .flags = w[2],
                                       .restorer = w[3]};
    }
    int err = do_sigaction(t, (int)a[0], a[1] ? &nsa : NULL, a[2] ? &old : NULL);
    if (err < 0 || !a[2])
        return err;
    uint32_t w[4] = {(uint32_t)old.handler, (uint32_t)old.mask, (uint32_t)old.flags,
                     (uint32_t)old.restorer};
    return copy_to_guest(task_mm(t), a[2], w, sizeof w) < 0 ? -EFAULT : 0;
}

/* sigprocmask's core: how applies set to t's blocked signals; SIG_SETMASK
 * keeps the bits of `keep` as they were. Then old, of `size` bytes, goes to
 * the guest at uold. */
static int64_t change_blocked(struct task *t, int how, uint64_t set, uint64_t keep,
                              uint64_t uold, const void *old, size_t size)
{
    set &= ~UNBLOCKABLE;
    switch (how) {
    case SIG_BLOCK:
        t->sigmask |= set;
        break;
    case SIG_UNBLOCK:
        t->sigmask &= ~set;
        break;
    case SIG_SETMASK:
        t->sigmask = (t->sigmask & keep) | set;
        break;
    default:
        return -EINVAL;
    }
    if (uold && copy_to_guest(task_mm(t), uold, old, size) < 0)
        return -EFAULT;
    if (signal_pending(t))
        t->stop = true;
    return 0;
}

/* arm's sigprocmask(how, set, oset) (compat_sys_sigprocmask): one-word
 * masks; SIG_SETMASK replaces signals 1-32 only (compat_sig_setmask()). */
SYSCALL_DECL(sigprocmask)
{
    uint32_t old = (uint32_t)t->sigmask, set;
    if (!a[1])
        return a[2] && copy_to_guest(task_mm(t), a[2], &old, sizeof old) < 0 ? -EFAULT : 0;
    if (copy_from_guest(task_mm(t), &set, a[1], sizeof set) < 0)
        return -EFAULT;
    return change_blocked(t, (int)a[0], set, ~(uint64_t)UINT32_MAX, a[2], &old, sizeof old);
}

/* arm's sigpending(set) (compat_sys_sigpending): signals 1-32. */
SYSCALL_DECL(sigpending)
{
    uint32_t set = (uint32_t)((t->pending.set | t->proc->pending.set) & t->sigmask);
    return copy_to_guest(task_mm(t), a[0], &set, sizeof set) < 0 ? -EFAULT : 0;
}

SYSCALL_DECL(rt_sigprocmask)
{
    if (a[3] != 8)
        return -EINVAL;
    uint64_t old = t->sigmask, set;
    if (!a[1])
        return a[2] && copy_to_guest(task_mm(t), a[2], &old, sizeof old) < 0 ? -EFAULT : 0;
    if (copy_from_guest(task_mm(t), &set, a[1], sizeof set) < 0)
        return -EFAULT;
    return change_blocked(t, (int)a[0], set, 0, a[2], &old, sizeof old);
}

SYSCALL_DECL(rt_sigpending)
{
    uint64_t set = (t->pending.set | t->proc->pending.set) & t->sigmask;
    if (a[1] != 8) /* sigset_t, and arm's compat_sigset_t: 8 bytes */
        return -EINVAL;
    return copy_to_guest(task_mm(t), a[0], &set, sizeof set);
}

static int64_t resume_sigsuspend(struct task *t)
{
    return signal_pending(t) ? -ERESTARTNOHAND : RESUME_BLOCK;
}

SYSCALL_DECL(rt_sigsuspend)
{
    uint64_t set;
    if (a[1] != 8)
        return -EINVAL;
    if (copy_from_guest(task_mm(t), &set, a[0], sizeof set) < 0)
        return -EFAULT;
    t->saved_sigmask = t->sigmask;
    t->restore_sigmask = true;
    t->sigmask = set & ~UNBLOCKABLE;
    /* A signal pending already, now unblocked, would wake no one. */
    if (signal_pending(t))
        return -ERESTARTNOHAND;
    task_block(t, resume_sigsuspend, NULL, 0);
    return -EBLOCK;
}

/* arm's sigsuspend(unused, unused, mask) (OLD_SIGSUSPEND3): the mask is
 * signals 1-32, the others unblocked (siginitset()). */
SYSCALL_DECL(sigsuspend)
{
    t->saved_sigmask = t->sigmask;
    t->restore_sigmask = true;
    t->sigmask = (uint32_t)a[2] & ~UNBLOCKABLE;
    if (signal_pending(t))
        return -ERESTARTNOHAND;
    task_block(t, resume_sigsuspend, NULL, 0);
    return -EBLOCK;
}

SYSCALL_DECL(pause)
{
    (void)a;
    if (signal_pending(t))
        return -ERESTARTNOHAND;
    task_block(t, resume_sigsuspend, NULL, 0);
    return -EBLOCK;
}

/* rt_sigtimedwait(set, info, timeout, sigsetsize): takes a pending signal
 * of set without running its handler. */
int signal_dequeue(struct task *t, uint64_t set, struct siginfo_lite *info)
{
    int sig = take_next(t, set, info);
    if (sig)
        timer_signal_taken(t, sig, info);
    return sig;
}

static int64_t take_from_set(struct task *t, uint64_t set, uint64_t uinfo)
{
    int sig = signal_dequeue(t, set, &t->delivering);
    if (!sig)
        return RESUME_BLOCK;
    if (uinfo) {
        uint8_t info[128];
        signal_fill_info(t, sig, &t->delivering, info);
        if (copy_to_guest(task_mm(t), uinfo, info, sizeof info) < 0)
            return -EFAULT;
    }
    return sig;
}

static int64_t resume_sigtimedwait(struct task *t)
{
    int64_t r = take_from_set(t, t->wait_args[0], t->wait_args[1]);
    if (r != RESUME_BLOCK)
        return r;
    if (t->deadline_ns && machine_now(t->machine) >= t->deadline_ns)
        return -EAGAIN;
    return signal_pending(t) ? -EINTR : RESUME_BLOCK;
}

/* field: the timespec's member size (arm's rt_sigtimedwait 4, its
 * rt_sigtimedwait_time64 and arm64's 8). */
int64_t do_rt_sigtimedwait(struct task *t, const uint64_t a[6], unsigned field)
{
    uint64_t set;
    if (a[3] != 8)
        return -EINVAL;
    if (copy_from_guest(task_mm(t), &set, a[0], sizeof set) < 0)
        return -EFAULT;
    set &= ~UNBLOCKABLE;
    int64_t r = take_from_set(t, set, a[1]);
    if (r != RESUME_BLOCK)
        return r;
    uint64_t deadline = 0;
    if (a[2]) {
        int64_t ns = timespec_from_guest(t, a[2], field);
        if (ns < 0)
            return ns;
        if (ns == 0)
            return -EAGAIN;
        deadline = machine_now(t->machine) + (uint64_t)ns;
    }
    t->wait_args[0] = set;
    t->wait_args[1] = a[1];
    task_block(t, resume_sigtimedwait, NULL, deadline);
    return -EBLOCK;
}

SYSCALL_DECL(rt_sigtimedwait)
{
    return do_rt_sigtimedwait(t, a, abi_time_field(t));
}

/* stack_t: {ss_sp, ss_flags (an int), ss_size}: three longs of the ABI,
 * the int in the low bytes of the second (padding after it on arm64). */
#define STACK_T_LONGS 3

SYSCALL_DECL(sigaltstack)
{
    if (a[1]) {
        uint64_t sp = t->altstack_sp, size = t->altstack_size;
        int32_t flags = t->altstack_flags ? t->altstack_flags : 0;
        uint64_t cur = read_sp(t);
        if (size && cur > sp && cur <= sp + size)
            flags |= GUEST_SS_ONSTACK;
        if (!size)
            flags = GUEST_SS_DISABLE;
        int64_t ss[STACK_T_LONGS] = {(int64_t)sp, (uint32_t)flags, (int64_t)size};
        if (put_user_longs(t, a[1], ss, STACK_T_LONGS) < 0)
            return -EFAULT;
    }
    if (a[0]) {
        uint64_t ss[STACK_T_LONGS];
        if (get_user_ulongs(t, a[0], ss, STACK_T_LONGS) < 0)
            return -EFAULT;
        uint64_t sp = ss[0], size = ss[2];
        int32_t flags = (int32_t)ss[1];
        uint64_t cur = read_sp(t);
        if (t->altstack_size && cur > t->altstack_sp && cur <= t->altstack_sp + t->altstack_size)
            return -EPERM;
        if (flags & ~(GUEST_SS_DISABLE | (int32_t)0x80000000 /* SS_AUTODISARM */))
            return -EINVAL;
        if (flags & GUEST_SS_DISABLE) {
            t->altstack_sp = t->altstack_size = 0;
            t->altstack_flags = GUEST_SS_DISABLE;
        } else {
            if (size < task_abi(t)->minsigstksz)
                return -ENOMEM;
            t->altstack_sp = sp;
            t->altstack_size = size;
            t->altstack_flags = 0;
        }
    }
    return 0;
}

/* rt_sigqueueinfo(tgid, sig, uinfo) and rt_tgsigqueueinfo(tgid, tid, sig,
 * uinfo): the caller's siginfo, which may not claim to come from the kernel. */
int siginfo_from_guest(struct task *t, uint64_t uinfo, int *signo, struct siginfo_lite *info)
{
    uint8_t raw[128];
    unsigned u = task_abi(t)->siginfo_fields;
    if (copy_from_guest(task_mm(t), raw, uinfo, sizeof raw) < 0)
        return -EFAULT;
    *info = (struct siginfo_lite){0};
    memcpy(signo, raw, 4);
    memcpy(&info->code, raw + 8, 4);
    memcpy(&info->pid, raw + u, 4);
    memcpy(&info->uid, raw + u + 4, 4);
    info->value = abi_ulong_at(t, raw + u + 8); /* sigval_t */
    return 0;
}

/* What __sigqueue_alloc() counts against RLIMIT_SIGPENDING: the signals
 * queued to the tasks and processes of the user uid (the receiver's real
 * uid), one per pending standard signal and per real-time instance. */
static uint64_t queued_for_user(const struct machine *m, uint32_t uid)
{
    uint64_t n = 0;
    for (const struct task *t = m->tasks; t; t = t->next_all) {
        if (t->proc->cred.u.real != uid)
            continue;
        /* A dead thread's queue is gone, a zombie's shared one too
         * (flush_sigqueue()); the leader, listed until reaped, counts its
         * process's once. */
        const struct sigpending *sp[2] = {
            t->state != TASK_DEAD ? &t->pending : NULL,
            t->tid == t->proc->pid && !t->proc->zombie ? &t->proc->pending : NULL};
        for (int i = 0; i < 2; i++)
            if (sp[i])
                n += (uint64_t)__builtin_popcountll(sp[i]->set & (SIGBIT(SIGRTMIN_GUEST) - 1)) +
                     sp[i]->nrt;
    }
    return n;
}

/* __send_signal(): a real-time signal queued by rt_sigqueueinfo (never
 * kill's SI_USER, which may always queue) fails with EAGAIN once the
 * receiver's user has RLIMIT_SIGPENDING signals queued, or once its queue
 * holds RTQUEUE_MAX instances (asymu's own bound). A signal that would be
 * discarded is not queued, and is no error. */
static int sigqueue_room(struct process *p, struct task *target, int sig)
{
    if (sig < SIGRTMIN_GUEST)
        return 0;
    const struct task *to = target ? target : leader_of(p);
    if (sig_discarded(p, to ? to->sigmask : 0, to && to->ptrace, sig))
        return 0;
    const struct sigpending *sp = target ? &target->pending : &p->pending;
    if (sp->nrt == RTQUEUE_MAX ||
        queued_for_user(p->machine, p->cred.u.real) >= p->rlim[RLIMIT_SIGPENDING].cur)
        return -EAGAIN;
    return 0;
}

static int64_t queue_info(struct task *t, int tgid, int tid, int sig, uint64_t uinfo)
{
    int signo;
    struct siginfo_lite info;
    if (sig < 0 || sig > NSIG_GUEST)
        return -EINVAL;
    if (siginfo_from_guest(t, uinfo, &signo, &info) < 0)
        return -EFAULT;
    if (info.code >= 0 || info.code == SI_TKILL)
        return -EPERM;
    struct process *p = process_find(t->machine, tgid);
    struct task *target = tid ? task_find(t->machine, tid) : NULL;
    if (!p || (tid && (!target || target->proc != p)))
        return -ESRCH;
    if (!signal_may_send(t, p, sig))
        return -EPERM;
    int err = sigqueue_room(p, target, sig);
    if (err)
        return err;
    if (sig) {
        if (target)
            signal_queue_task(target, sig, &info);
        else
            signal_queue_process(p, sig, &info);
    }
    if (signal_pending(t))
        t->stop = true;
    return 0;
}

SYSCALL_DECL(rt_sigqueueinfo)
{
    return queue_info(t, (int)a[0], 0, (int)a[1], a[2]);
}

SYSCALL_DECL(rt_tgsigqueueinfo)
{
    return queue_info(t, (int)a[0], (int)a[1], (int)a[2], a[3]);
}

SYSCALL_DECL(rt_sigreturn)
{
    (void)a;
    restart_block_clear(t);
    t->stop = true; /* the pc changes: leave the engine and come back in */
    return task_abi(t)->sigreturn(t, true);
}

SYSCALL_DECL(sigreturn)
{
    (void)a;
    restart_block_clear(t);
    t->stop = true;
    return task_abi(t)->sigreturn(t, false);
}
