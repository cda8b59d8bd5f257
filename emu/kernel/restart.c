/* SPDX-License-Identifier: GPL-2.0-or-later */
/* restart.c - Linux's restart rules for syscalls a signal interrupted
 * (restart.h): the kind is kept from the call's end to the signal
 * delivery, which rewinds the registers onto the svc when the call must run
 * again, or points them at restart_syscall. */
#include "abi.h"
#include "mm.h"
#include "restart.h"
#include "syscalls.h"
#include "task.h"

#include <errno.h>

#define GUEST_SA_RESTART 0x10000000

bool restart_code(int64_t ret)
{
    return ret == -ERESTARTSYS || ret == -ERESTARTNOINTR || ret == -ERESTARTNOHAND ||
           ret == -ERESTART_RESTARTBLOCK;
}

const char *restart_code_name(int64_t ret, const char **note)
{
    switch (-ret) {
    case ERESTARTSYS:
        *note = "To be restarted if SA_RESTART is set";
        return "ERESTARTSYS";
    case ERESTARTNOINTR:
        *note = "To be restarted";
        return "ERESTARTNOINTR";
    case ERESTARTNOHAND:
        *note = "To be restarted if no handler";
        return "ERESTARTNOHAND";
    case ERESTART_RESTARTBLOCK:
        *note = "Interrupted by signal";
        return "ERESTART_RESTARTBLOCK";
    default:
        return NULL;
    }
}

int64_t restart_note(struct task *t, const uint64_t args[6], int64_t ret)
{
    if (!restart_code(ret))
        return ret;
    t->restart_kind = (int)-ret;
    for (int i = 0; i < 6; i++)
        t->sys_args[i] = args[i];
    t->stop = true; /* the delivery settles it before the next instruction */
    return -EINTR;
}

void syscall_rewind_pc(struct task *t)
{
    const struct abi *abi = task_abi(t);
    uc_engine *uc = task_mm(t)->uc;
    abi->set_pc(uc, abi->get_pc(uc) - abi->syscall_insn_size(uc));
}

/* Points the registers back at the syscall instruction with its first
 * argument in place: the call runs again. */
static void rewind_syscall(struct task *t)
{
    syscall_rewind_pc(t);
    task_abi(t)->set_return(task_mm(t)->uc, (int64_t)t->sys_args[0]);
}

/* The same, but what runs is restart_syscall (x8 or r7 changed, as Linux
 * does on arm64 for both ABIs). */
static void rewind_to_restart_syscall(struct task *t)
{
    rewind_syscall(t);
    task_abi(t)->set_restart_syscall(task_mm(t)->uc);
}

void restart_settle(struct task *t, bool handler, uint64_t sa_flags)
{
    int kind = t->restart_kind;
    t->restart_kind = 0;
    switch (kind) {
    case ERESTARTSYS:
        if (!handler || (sa_flags & GUEST_SA_RESTART))
            rewind_syscall(t);
        break;
    case ERESTARTNOINTR:
        rewind_syscall(t);
        break;
    case ERESTARTNOHAND:
        if (!handler)
            rewind_syscall(t);
        break;
    case ERESTART_RESTARTBLOCK:
        if (!handler)
            rewind_to_restart_syscall(t);
        break;
    default:
        break; /* no interrupted call, or the register already says EINTR */
    }
}

void restart_block_set(struct task *t, resume_fn fn)
{
    t->restart_fn = fn;
}

void restart_block_clear(struct task *t)
{
    t->restart_fn = NULL;
}

/* Continues the interrupted call with the state it left in restart_args;
 * without one (a handler returned through sigreturn since), EINTR. */
SYSCALL_DECL(restart_syscall)
{
    (void)a;
    resume_fn fn = t->restart_fn;
    t->restart_fn = NULL;
    return fn ? fn(t) : -EINTR;
}
