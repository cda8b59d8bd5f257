/* SPDX-License-Identifier: GPL-2.0-or-later */
/* machine_events.h - what the kernel layer reports on the machine's event
 * stream (sched/mevent.h): exec, exit and syscalls, with the task's vCPU
 * and the virtual time inside the running slice. One inline call per
 * emission point; with no subscriber it is one predictable branch. */
#ifndef ASYMU_MACHINE_EVENTS_H
#define ASYMU_MACHINE_EVENTS_H

#include "machine.h"
#include "mevent.h"
#include "task.h"

/* Gives the stream the machine's clock (machine_now): events inside a slice
 * carry the time the guest has reached in it. */
void machine_events_init(struct machine *m);

void machine__emit_exec(struct task *t, const char *path, int old_tid);
void machine__emit_exit(struct task *t, int wait_status);
void machine__emit_syscall(struct task *t, enum mevent_kind kind, uint64_t nr, int64_t ret);
void machine__emit_print(struct task *t, const char *msg, uint64_t ip);
void machine__emit_newtask(struct task *t, int tid, uint64_t clone_flags);
void machine__emit_rename(struct task *t, const char *comm);
void machine__emit_free(struct task *t);
void machine__emit_signal_generate(struct task *t, int sig, int code, bool group, int result);
void machine__emit_signal_deliver(struct task *t, int sig, int code, uint64_t handler,
                                  uint64_t flags);

/* include/trace/events/signal.h's results of a signal sent. */
enum mev_signal_result {
    MEV_SIGNAL_DELIVERED,
    MEV_SIGNAL_IGNORED,
    MEV_SIGNAL_ALREADY_PENDING,
    MEV_SIGNAL_OVERFLOW_FAIL,
};

/* t's clone made task tid with clone_flags (copy_process()'s task_newtask). */
static inline void mev_newtask(struct task *t, int tid, uint64_t clone_flags)
{
    if (mevent_wanted(&t->machine->sched.events, MEVENT_NEWTASK))
        machine__emit_newtask(t, tid, clone_flags);
}

/* t's comm is about to become comm (__set_task_comm()'s task_rename). */
static inline void mev_rename(struct task *t, const char *comm)
{
    if (mevent_wanted(&t->machine->sched.events, MEVENT_RENAME))
        machine__emit_rename(t, comm);
}

/* Exited t is freed: delayed_put_task_struct()'s sched_process_free. */
static inline void mev_free(struct task *t)
{
    if (mevent_wanted(&t->machine->sched.events, MEVENT_FREE))
        machine__emit_free(t);
}

/* sig was sent to t (or its thread group): __send_signal()'s signal_generate. */
static inline void mev_signal_generate(struct task *t, int sig, int code, bool group, int result)
{
    if (mevent_wanted(&t->machine->sched.events, MEVENT_SIGNAL_GENERATE))
        machine__emit_signal_generate(t, sig, code, group, result);
}

/* t took sig, whose action is handler and flags: get_signal()'s signal_deliver. */
static inline void mev_signal_deliver(struct task *t, int sig, int code, uint64_t handler,
                                      uint64_t flags)
{
    if (mevent_wanted(&t->machine->sched.events, MEVENT_SIGNAL_DELIVER))
        machine__emit_signal_deliver(t, sig, code, handler, flags);
}

/* t's execve passed its point of no return with the image at guest path. */
static inline void mev_exec(struct task *t, const char *path, int old_tid)
{
    if (mevent_wanted(&t->machine->sched.events, MEVENT_EXEC))
        machine__emit_exec(t, path, old_tid);
}

/* Thread t ends with a wait(2) status. */
static inline void mev_exit(struct task *t, int wait_status)
{
    if (mevent_wanted(&t->machine->sched.events, MEVENT_EXIT))
        machine__emit_exit(t, wait_status);
}

static inline void mev_syscall_enter(struct task *t, uint64_t nr)
{
    if (mevent_wanted(&t->machine->sched.events, MEVENT_SYSCALL_ENTER))
        machine__emit_syscall(t, MEVENT_SYSCALL_ENTER, nr, 0);
}

static inline void mev_syscall_exit(struct task *t, uint64_t nr, int64_t ret)
{
    if (mevent_wanted(&t->machine->sched.events, MEVENT_SYSCALL_EXIT))
        machine__emit_syscall(t, MEVENT_SYSCALL_EXIT, nr, ret);
}

/* t wrote msg to tracefs's trace_marker (tracing_mark_write). */
static inline void mev_print(struct task *t, const char *msg, uint64_t ip)
{
    if (mevent_wanted(&t->machine->sched.events, MEVENT_PRINT))
        machine__emit_print(t, msg, ip);
}

#endif
