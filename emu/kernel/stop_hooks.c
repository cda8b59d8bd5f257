/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stop_hooks.c - the kernel and machine layers' calls of the debuggers'
 * stop hooks (stop_hooks.h): each asks the machine's slots in their
 * order, the guest's tracer before the host's debugger. */
#include "stop_hooks.h"
#include "machine.h"
#include "task.h"

/* Slot i's hooks if it has `member`, else NULL. */
#define HOOKS(m, i, member)                                                                        \
    ((m)->stop_hooks[i] && (m)->stop_hooks[i]->member ? (m)->stop_hooks[i] : NULL)

void stop_hooks_set(struct machine *m, enum stop_hooks_slot slot, const struct stop_hooks *hooks)
{
    m->stop_hooks[slot] = hooks;
}

bool stop_hooks_traces(const struct task *t)
{
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(t->machine, i, traces);
        if (h && h->traces(t))
            return true;
    }
    return false;
}

bool stop_hooks_signal_stop(struct task *t, int sig)
{
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(t->machine, i, signal_stop);
        if (h && h->signal_stop(t, sig))
            return true;
    }
    return false;
}

bool stop_hooks_syscall_enter(struct task *t, uint64_t nr, const uint64_t a[6])
{
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(t->machine, i, syscall_enter);
        if (h && h->syscall_enter(t, nr, a))
            return true;
    }
    return false;
}

void stop_hooks_syscall_exit(struct task *t, bool exec_done, int64_t ret)
{
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(t->machine, i, syscall_exit);
        if (h)
            h->syscall_exit(t, exec_done, ret);
    }
}

void stop_hooks_exec(struct task *t)
{
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(t->machine, i, exec);
        if (h)
            h->exec(t);
    }
}

void stop_hooks_clone(struct task *parent, struct task *child, uint64_t flags)
{
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(parent->machine, i, clone);
        if (h)
            h->clone(parent, child, flags);
    }
}

bool stop_hooks_exit_stop(struct task *t, int status)
{
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(t->machine, i, exit_stop);
        if (h && h->exit_stop(t, status))
            return true;
    }
    return false;
}

void stop_hooks_group_stop(struct task *t, int sig)
{
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(t->machine, i, group_stop);
        if (h)
            h->group_stop(t, sig);
    }
}

void stop_hooks_process_exit(struct process *p)
{
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(p->machine, i, process_exit);
        if (h)
            h->process_exit(p);
    }
}

bool stop_hooks_block(struct machine *m)
{
    bool stepped = false;
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(m, i, block);
        if (h && h->block(m))
            stepped = true; /* the others are still asked: each ends its own step */
    }
    return stepped;
}

/* ---- the machine layer's, around a slice (run.c) ---- */

bool stop_hooks_hold_machine(struct machine *m)
{
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(m, i, hold_machine);
        if (h && h->hold_machine(m))
            return true;
    }
    return false;
}

bool stop_hooks_hold_task(struct task *t)
{
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(t->machine, i, hold_task);
        if (h && h->hold_task(t))
            return true;
    }
    return false;
}

bool stop_hooks_machine_stopping(const struct machine *m)
{
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(m, i, machine_stopping);
        if (h && h->machine_stopping(m))
            return true;
    }
    return false;
}

bool stop_hooks_watch_blocks(const struct machine *m)
{
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(m, i, watch_blocks);
        if (h && h->watch_blocks(m))
            return true;
    }
    return false;
}

bool stop_hooks_single_step(const struct task *t)
{
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(t->machine, i, single_step);
        if (h && h->single_step(t))
            return true;
    }
    return false;
}

void stop_hooks_before_slice(struct task *t)
{
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(t->machine, i, before_slice);
        if (h)
            h->before_slice(t);
    }
}

void stop_hooks_after_slice(struct task *t)
{
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(t->machine, i, after_slice);
        if (h)
            h->after_slice(t);
    }
}

void stop_hooks_step_done(struct task *t)
{
    for (int i = 0; i < STOP_HOOKS_N; i++) {
        const struct stop_hooks *h = HOOKS(t->machine, i, step_done);
        if (h)
            h->step_done(t);
    }
}
