/* signal.c - signal dispositions, masks and delivery. Handlers are recorded;
 * delivery applies the default action (terminate, core, ignore, stop). */
#include "kernel.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#define GUEST_SIG_DFL 0
#define GUEST_SIG_IGN 1

static bool sig_ignored_by_default(int sig)
{
    return sig == SIGCHLD || sig == SIGCONT || sig == SIGURG || sig == SIGWINCH;
}

static bool sig_stops(int sig)
{
    return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

void signal_kill_process(struct task *t, int sig)
{
    struct process *p = t->proc;
    if (p->exited)
        return;
    p->exited = true;
    p->status = 128 + sig;
    t->stop = true;
    if (t->machine->cfg->strace)
        fprintf(stderr, "[pid %d] +++ killed by %s +++\n", t->tid,
                signal_name(sig) ? signal_name(sig) : "signal");
}

void signal_fault(struct task *t, int sig, uint64_t pc, uint64_t addr, const char *what)
{
    fprintf(stderr, "asymu: [pid %d] %s: %s at pc 0x%llx, fault address 0x%llx\n", t->proc->pid,
            signal_name(sig), what, (unsigned long long)pc, (unsigned long long)addr);
    signal_kill_process(t, sig);
}

/* Sends sig to t's process: the default action or the recorded disposition. */
static int signal_send(struct task *t, int sig)
{
    if (sig < 0 || sig > NSIG_GUEST)
        return -EINVAL;
    if (sig == 0)
        return 0;
    const struct sigaction_guest *sa = &t->proc->sigactions[sig];
    if (sig != SIGKILL && sig != SIGSTOP) {
        if (sa->handler == GUEST_SIG_IGN)
            return 0;
        if (sa->handler == GUEST_SIG_DFL && sig_ignored_by_default(sig))
            return 0;
        if (sa->handler == GUEST_SIG_DFL && sig_stops(sig))
            return 0; /* no job control yet: nobody could continue it */
    }
    signal_kill_process(t, sig);
    return 0;
}

SYSCALL_DECL(kill)
{
    int pid = (int)a[0];
    if (pid != 0 && pid != -1 && pid != t->proc->pid)
        return -ESRCH;
    return signal_send(t, (int)a[1]);
}

SYSCALL_DECL(tgkill)
{
    if ((int)a[0] != t->proc->pid || (int)a[1] != t->tid)
        return -ESRCH;
    return signal_send(t, (int)a[2]);
}

SYSCALL_DECL(tkill)
{
    if ((int)a[0] != t->tid)
        return -ESRCH;
    return signal_send(t, (int)a[1]);
}

/* The guest struct sigaction: arm64 {handler, flags, mask} in 64-bit words;
 * arm {handler, flags, restorer, mask[2]} in 32-bit words. */
static int get_sigaction(struct task *t, uint64_t addr, struct sigaction_guest *sa)
{
    memset(sa, 0, sizeof *sa);
    if (task_abi(t)->word == 8) {
        uint64_t w[3];
        int err = copy_from_guest(task_mm(t), w, addr, sizeof w);
        sa->handler = w[0], sa->flags = w[1], sa->mask = w[2];
        return err;
    }
    uint32_t w[5];
    int err = copy_from_guest(task_mm(t), w, addr, sizeof w);
    sa->handler = w[0], sa->flags = w[1], sa->restorer = w[2];
    sa->mask = w[3] | (uint64_t)w[4] << 32;
    return err;
}

static int put_sigaction(struct task *t, uint64_t addr, const struct sigaction_guest *sa)
{
    if (task_abi(t)->word == 8) {
        uint64_t w[3] = {sa->handler, sa->flags, sa->mask};
        return copy_to_guest(task_mm(t), addr, w, sizeof w);
    }
    uint32_t w[5] = {(uint32_t)sa->handler, (uint32_t)sa->flags, (uint32_t)sa->restorer,
                     (uint32_t)sa->mask, (uint32_t)(sa->mask >> 32)};
    return copy_to_guest(task_mm(t), addr, w, sizeof w);
}

SYSCALL_DECL(rt_sigaction)
{
    int sig = (int)a[0];
    if (sig < 1 || sig > NSIG_GUEST || a[3] != 8)
        return -EINVAL;
    struct sigaction_guest nsa, *cur = &t->proc->sigactions[sig];
    if (a[1]) {
        if (sig == SIGKILL || sig == SIGSTOP)
            return -EINVAL;
        if (get_sigaction(t, a[1], &nsa) < 0)
            return -EFAULT;
    }
    if (a[2] && put_sigaction(t, a[2], cur) < 0)
        return -EFAULT;
    if (a[1])
        *cur = nsa;
    return 0;
}

SYSCALL_DECL(rt_sigprocmask)
{
    int how = (int)a[0];
    if (a[3] != 8)
        return -EINVAL;
    uint64_t old = t->sigmask, set;
    if (a[1]) {
        if (copy_from_guest(task_mm(t), &set, a[1], sizeof set) < 0)
            return -EFAULT;
        uint64_t unblockable = (UINT64_C(1) << (SIGKILL - 1)) | (UINT64_C(1) << (SIGSTOP - 1));
        set &= ~unblockable;
        switch (how) {
        case SIG_BLOCK:
            t->sigmask |= set;
            break;
        case SIG_UNBLOCK:
            t->sigmask &= ~set;
            break;
        case SIG_SETMASK:
            t->sigmask = set;
            break;
        default:
            return -EINVAL;
        }
    }
    if (a[2] && copy_to_guest(task_mm(t), a[2], &old, sizeof old) < 0)
        return -EFAULT;
    return 0;
}
